"""Machine-checked claims: the heart of every page.

A notebook states each claim of its paper in our own words, with what the
paper reports and a criterion fixed *before* the run; it then records the
measured value **and a control**: the same measurement under the same
criterion on something for which the paper's claim should not hold (a naive
baseline, the method without its key ingredient, a null model; for a theorem,
a deliberately wrong kernel or input). A failed criterion never crashes the
notebook: it is recorded as ``"not reproduced"`` (or ``"partial"``) and shown.

Usage in a notebook::

    claims = Claims("sampled-softmax-bias", title=..., paper_url=..., scale=scale, seed=seed)
    claims.check("bias-positive", statement=..., paper=..., criterion=at_least(1e-6),
                 measured=x, control=x_uniform, control_label="uniform proposal (unbiased by design)")
    claims.check("loss-after-training", ..., tol=tolerance(rel=0.05, why="end point of 200 Adam steps"))
    claims.check("counter", ..., kind="implementation")   # listed apart, never counted
    ...
    claims.save(); claims.table()   # last cell, checked by nbval (tag nbval-check-output)

Kinds of check (``kind=``):

``"empirical"`` (default)
    a measurement that could have come out otherwise;
``"theorem"``
    a numerical demonstration of something the paper proves;
``"implementation"``
    an identity of our own code (a counter, a self-comparison, algebra that
    holds for any input). Listed apart on the page, never counted; most such
    checks belong in the unit tests instead.

A counted claim (empirical or theorem, not a wall-clock timing) must record a
control. It counts towards the verdict only if it is *informative*: its
control gets a different status. A claim whose control reaches the same
status ("reproduced" or "partial") is shown as ``uninformative`` with both
values and is not counted. When both fail, the claim counts as not
reproduced: the paper's claim was tested and did not hold.

Flags:

``post_hoc="why"``
    the claim or its criterion was added or changed after the notebook first
    ran; it keeps counting, but apart ("6 of 8 pre-registered claims").
``machine_sensitive="why"``
    its status was seen to change between machines or numerics settings; it
    is shown, not counted, and CI compares only its id and criterion.
``volatile=True``
    a wall-clock value: shown by :meth:`Claims.timings` in an unchecked cell,
    never counted or compared.

Portability: every value is compared across runs within a declared
:class:`Tolerance` (default: relative 1e-6, absolute 1e-12, for exact
computations; wider ones carry their reason). A float whose magnitude is
below a small absolute tolerance (up to 1e-6, or any with ``bound=True``)
is recorded and shown as the bound ``"< 1e-12"``, never as its noise
digits; a value with a wider-than-default
tolerance is shown with a ``~`` (text) or in a ``repro-approx`` span (HTML),
which the nbval sanitizer (``tests/nbval-sanitize.cfg``) masks, so nbval
compares ids, kinds, criteria, statuses and the exactly repeatable values.

The record written by :meth:`Claims.save` has the schema::

    {"slug", "title", "authors", "paper_url", "scale", "seed", "runtime_s", "verdict",
     "claims": [{"id", "kind", "statement", "paper", "criterion", "measured", "status",
                 "control", "control_label", "control_status", "outcome", "counted",
                 "tolerance": {"rel", "abs", "why", "bound"}, "post_hoc", "post_hoc_why",
                 "machine_sensitive", "machine_sensitive_why", "volatile"}]}

``outcome`` is what the page shows: the status for a counted claim, else one
of ``"uninformative"``, ``"machine-sensitive"``, ``"implementation check"``,
``"timed"``.
"""

from __future__ import annotations

import html
import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Union

from repro.runtime import check_params

STATUSES = ("reproduced", "partial", "not reproduced")
KINDS = ("empirical", "theorem", "implementation")
VERDICTS = (*STATUSES, "inconclusive")
Measured = Union[float, int, str, bool]


def round_sig(x: float, digits: int = 4) -> float:
    """Round ``x`` to ``digits`` significant digits (0, inf and nan are returned as they are)."""
    if x == 0 or not math.isfinite(x):
        return float(x)
    return float(f"{x:.{digits}g}")


def format_measured(x: Measured) -> str:
    """The rounded text of a measured value, as the claims table prints it (3 significant digits)."""
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        return f"{x:.3g}"
    return str(x)


@dataclass(frozen=True)
class Criterion:
    """A pass rule fixed before the run: its text and a function from measured value to status."""

    text: str
    evaluate: Callable[[Measured], str]

    def __call__(self, measured: Measured) -> str:
        status = self.evaluate(measured)
        if status not in STATUSES:
            raise ValueError(f"criterion {self.text!r} returned {status!r}, not one of {STATUSES}")
        return status


def _num(x: Measured) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"this criterion needs a number, got {x!r}")
    return float(x)


def _status(ok: bool, partial_ok: bool = False) -> str:
    return "reproduced" if ok else ("partial" if partial_ok else "not reproduced")


def at_least(lo: float, partial: float | None = None) -> Criterion:
    """``measured >= lo``; ``partial`` if only ``measured >= partial``."""
    text = f">= {lo:g}" + (f" (partial >= {partial:g})" if partial is not None else "")
    return Criterion(text, lambda m: _status(_num(m) >= lo, partial is not None and _num(m) >= partial))


def at_most(hi: float, partial: float | None = None) -> Criterion:
    """``measured <= hi``; ``partial`` if only ``measured <= partial``."""
    text = f"<= {hi:g}" + (f" (partial <= {partial:g})" if partial is not None else "")
    return Criterion(text, lambda m: _status(_num(m) <= hi, partial is not None and _num(m) <= partial))


def greater_than(lo: float) -> Criterion:
    """``measured > lo``."""
    return Criterion(f"> {lo:g}", lambda m: _status(_num(m) > lo))


def less_than(hi: float) -> Criterion:
    """``measured < hi``."""
    return Criterion(f"< {hi:g}", lambda m: _status(_num(m) < hi))


def between(lo: float, hi: float) -> Criterion:
    """``lo <= measured <= hi``."""
    if lo > hi:
        raise ValueError(f"between needs lo <= hi; got {lo} > {hi}")
    return Criterion(f"in [{lo:g}, {hi:g}]", lambda m: _status(lo <= _num(m) <= hi))


def is_true(text: str = "holds") -> Criterion:
    """A yes/no claim: ``measured`` must be ``True``."""

    def evaluate(m: Measured) -> str:
        if not isinstance(m, bool):
            raise TypeError(f"is_true needs a bool, got {m!r}")
        return _status(m)

    return Criterion(text, evaluate)


def fraction_at_least(lo: float, partial: float | None = None) -> Criterion:
    """For a fraction in [0, 1] (e.g. of seeds or cases where something holds)."""
    return at_least(lo, partial)


@dataclass(frozen=True)
class Tolerance:
    """How closely a measured value must repeat across machines and runs (never a pass threshold).

    Two values ``a``, ``b`` agree when ``|a - b| <= abs + rel * max(|a|, |b|)``.
    The default is for exact computations; a wider one (a value that comes out
    of training or of an iteration whose stopping point can move) must say why.

    ``bound``: whether a value below ``abs`` is recorded as the bound ``"< abs"`` (its digits are
    noise: a solver or machine-precision error). By default (``None``) only small absolute
    tolerances (``abs <= 1e-6``) bound; a coarse one (say ``abs=0.05`` on an accuracy difference)
    keeps the value, shown as ``~value``.
    """

    rel: float = 1e-6
    abs: float = 1e-12
    why: str = ""
    bound: bool | None = None

    def __post_init__(self) -> None:
        if not (self.rel >= 0 and self.abs >= 0 and math.isfinite(self.rel) and math.isfinite(self.abs)):
            raise ValueError(f"tolerances must be finite and >= 0; got rel={self.rel}, abs={self.abs}")
        if self.is_wide and not self.why.strip():
            raise ValueError("a tolerance wider than the default (rel 1e-6, abs 1e-12) needs its reason: why=...")

    @property
    def bounds_small_values(self) -> bool:
        """Whether values below ``abs`` are recorded as the bound ``"< abs"`` (see ``bound``)."""
        return self.bound if self.bound is not None else self.abs <= BOUND_ABS_MAX

    @property
    def is_wide(self) -> bool:
        """Wider than the default for exact computations."""
        return self.rel > DEFAULT_TOL_REL or self.abs > DEFAULT_TOL_ABS

    def agree(self, a: Measured, b: Measured) -> bool:
        """Whether two recorded values agree (bounds ``"< B"`` are read as ``|x| <= B``)."""
        if isinstance(a, bool) or isinstance(b, bool):
            return type(a) is type(b) and a == b
        if isinstance(a, str) and isinstance(b, str):
            return a == b
        fa, fb = _bound_or_value(a), _bound_or_value(b)
        if fa is None or fb is None:
            return a == b
        (xa, bound_a), (xb, bound_b) = fa, fb
        slack = self.abs + self.rel * max(abs(xa), abs(xb))
        if bound_a or bound_b:  # |x| < B: agree when the other side is within B too
            return max(abs(xa), abs(xb)) <= max(xa if bound_a else 0, xb if bound_b else 0) + slack
        return abs(xa - xb) <= slack

    def as_dict(self) -> dict:
        return {"rel": self.rel, "abs": self.abs, "why": self.why, "bound": self.bounds_small_values}


DEFAULT_TOL_REL = 1e-6
DEFAULT_TOL_ABS = 1e-12
BOUND_ABS_MAX = 1e-6  # absolute tolerances up to this bound the values below them by default
EXACT = Tolerance()


def tolerance(
    rel: float = DEFAULT_TOL_REL, abs: float = DEFAULT_TOL_ABS, why: str = "", bound: bool | None = None  # noqa: A002
) -> Tolerance:
    """A declared repeatability tolerance (see :class:`Tolerance`); ``why`` is required when wider than default."""
    return Tolerance(rel=rel, abs=abs, why=why, bound=bound)


def _bound_or_value(x: Measured) -> tuple[float, bool] | None:
    """``(value, is_bound)`` of a recorded number or bound text ``"< B"``; ``None`` for other text."""
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return float(x), False
    if isinstance(x, str) and x.startswith("< "):
        try:
            return float(x[2:]), True
        except ValueError:
            return None
    return None


def recorded_value(x: Measured, tol: Tolerance) -> Measured:
    """What the record stores: 4 significant digits, or the bound ``"< abs"`` for a float below a bounding ``tol.abs``."""
    if isinstance(x, float):
        if math.isfinite(x) and abs(x) < tol.abs and tol.bounds_small_values:
            return f"< {tol.abs:g}"
        return round_sig(x)
    return x


def shown_value(x: Measured, tol: Tolerance) -> str:
    """The text of a recorded value at its declared precision; ``~`` marks a value that may move in its last digits."""
    if isinstance(x, str) and x.startswith("< "):
        return x
    text = format_measured(x)
    if tol.is_wide and isinstance(x, (int, float)) and not isinstance(x, bool):
        return "~" + text
    return text


@dataclass
class ClaimResult:
    """One checked claim, as stored in the record (see the module docstring for the fields)."""

    id: str
    statement: str
    paper: str
    criterion: str
    measured: Measured
    status: str
    volatile: bool = False
    kind: str = "empirical"
    control: Measured | None = None
    control_label: str | None = None
    control_status: str | None = None
    tolerance: dict | None = None
    post_hoc: bool = False
    post_hoc_why: str = ""
    machine_sensitive: bool = False
    machine_sensitive_why: str = ""

    @property
    def outcome(self) -> str:
        return outcome_of(asdict(self))

    @property
    def counted(self) -> bool:
        return is_counted(asdict(self))

    def as_record(self) -> dict:
        d = asdict(self)
        d["outcome"] = self.outcome
        d["counted"] = self.counted
        return d

    def _ipython_display_(self) -> None:
        """Show nothing when a notebook cell ends with ``claims.check(...)``: the claims table shows every claim.

        ``repr()`` stays the dataclass's full one, for tests and debugging.
        """


def _get(c: Any, key: str, default: Any = None) -> Any:
    return c.get(key, default) if isinstance(c, dict) else getattr(c, key, default)


def is_informative(c: Any) -> bool:
    """A claim is informative unless its control reaches the same passing status (both fail: informative)."""
    return not (_get(c, "control_status") == _get(c, "status") and _get(c, "status") != "not reproduced")


def is_counted(c: Any) -> bool:
    """Counted towards the verdict: an informative empirical or theorem claim, not timed, not machine-sensitive."""
    return (
        _get(c, "kind", "empirical") in ("empirical", "theorem")
        and not _get(c, "volatile")
        and not _get(c, "machine_sensitive")
        and _get(c, "control_status") is not None
        and is_informative(c)
    )


def outcome_of(c: Any) -> str:
    """What the page shows for a claim: its status if counted, else why it is not counted."""
    if _get(c, "volatile"):
        return "timed"
    if _get(c, "kind", "empirical") == "implementation":
        return "implementation check"
    if _get(c, "machine_sensitive"):
        return "machine-sensitive"
    if _get(c, "control_status") is None:
        return "no control"
    if not is_informative(c):
        return "uninformative"
    return _get(c, "status")


def count_reproduced(claims: list) -> tuple[int, int]:
    """(reproduced, counted) over the counted claims (see :func:`is_counted`).

    Accepts :class:`ClaimResult` objects or the dicts of a saved record.
    """
    counted = [c for c in claims if is_counted(c)]
    return sum(_get(c, "status") == "reproduced" for c in counted), len(counted)


def summary(claims: list) -> dict[str, int]:
    """Counts a card, a table footer and the scoreboard show (one definition for all of them)."""
    counted = [c for c in claims if is_counted(c)]
    pre = [c for c in counted if not _get(c, "post_hoc")]
    post = [c for c in counted if _get(c, "post_hoc")]
    ok = lambda cs: sum(_get(c, "status") == "reproduced" for c in cs)  # noqa: E731
    return {
        "reproduced": ok(counted),
        "counted": len(counted),
        "pre_registered_reproduced": ok(pre),
        "pre_registered": len(pre),
        "post_hoc_reproduced": ok(post),
        "post_hoc": len(post),
        "uninformative": sum(outcome_of(c) == "uninformative" for c in claims),
        "machine_sensitive": sum(outcome_of(c) == "machine-sensitive" for c in claims),
        "implementation": sum(outcome_of(c) == "implementation check" for c in claims),
        "timed": sum(outcome_of(c) == "timed" for c in claims),
    }


def headline(claims: list) -> str:
    """The one-line count: "k of n claims reproduced, each against a control that fails", with what is apart."""
    s = summary(claims)
    if s["post_hoc"]:
        text = (
            f"{s['pre_registered_reproduced']} of {s['pre_registered']} pre-registered claims reproduced; "
            f"{s['post_hoc']} added or changed after the first run ({s['post_hoc_reproduced']} reproduced); "
            "each against a control that fails"
        )
    else:
        text = f"{s['reproduced']} of {s['counted']} claims reproduced, each against a control that fails"
    extra = []
    if s["uninformative"]:
        extra.append(f"{s['uninformative']} uninformative (the control passes too), not counted")
    if s["machine_sensitive"]:
        extra.append(f"{s['machine_sensitive']} machine-sensitive, not counted")
    return text + "".join(f"; {e}" for e in extra)


def flags_text(c: Any) -> str:
    """Short flags of a claim for the tables: ``post hoc``, ``machine-sensitive``, the kind if a theorem."""
    flags = []
    if _get(c, "kind") == "theorem":
        flags.append("theorem")
    if _get(c, "post_hoc"):
        flags.append("post hoc")
    if _get(c, "machine_sensitive"):
        flags.append("machine-sensitive")
    return ", ".join(flags)


def text_table(header: tuple[str, ...], rows: list[tuple[str, ...]], footer: str) -> str:
    """Left-aligned plain-text table with a dashed rule under the header and a footer line."""
    all_rows = [header, *rows]
    widths = [max(len(row[i]) for row in all_rows) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in all_rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append(footer)
    return "\n".join(lines)


def _tol(c: ClaimResult) -> Tolerance:
    return Tolerance(**c.tolerance) if c.tolerance else EXACT


APPROX_SPAN = '<span class="repro-approx">{}</span>'


def _holds(r: ClaimResult) -> str:
    return "holds" if r.status == "reproduced" else "FAILS"


class ClaimsTable:
    """Display of a claims list: HTML in the book, plain text for nbval.

    The counted and uninformative claims come first, each with its control;
    the checks of our own implementation follow in a list of their own.
    Wall-clock claims appear only as "see timings". Values that may move in
    their last digits across machines are marked (``~`` / ``repro-approx``)
    for the nbval sanitizer; so is the status of a machine-sensitive claim.
    """

    def __init__(self, results: list[ClaimResult], verdict: str):
        self.results = results
        self.verdict = verdict

    def _main(self) -> list[ClaimResult]:
        return [r for r in self.results if r.kind != "implementation"]

    def _impl(self) -> list[ClaimResult]:
        return [r for r in self.results if r.kind == "implementation"]

    @staticmethod
    def _value(r: ClaimResult, x: Measured) -> str:
        text = shown_value(x, _tol(r))
        # a machine-sensitive claim's values may move anywhere: always masked for nbval
        return "~" + text if r.machine_sensitive and not text.startswith("~") else text

    def _measured(self, r: ClaimResult) -> str:
        return "timed" if r.volatile else self._value(r, r.measured)

    def _control(self, r: ClaimResult) -> str:
        if r.volatile or r.control_status is None:
            return "-"
        if r.machine_sensitive:
            return self._value(r, r.control)
        return f"{self._value(r, r.control)} ({r.control_status})"

    @staticmethod
    def _shown_status(r: ClaimResult, text: bool) -> str:
        outcome = r.outcome
        if outcome == "timed":
            return "see timings"
        if outcome == "machine-sensitive":
            return "machine-sensitive" if text else f"machine-sensitive ({APPROX_SPAN.format(html.escape(r.status))} here)"
        return outcome

    def footer(self) -> str:
        return f"verdict: {self.verdict} ({headline(self.results)})"

    def __repr__(self) -> str:
        rows = [
            (r.id + (" †" if r.post_hoc else ""), r.kind, r.criterion, self._measured(r), self._control(r),
             self._shown_status(r, text=True))
            for r in self._main()
        ]
        out = text_table(("claim", "kind", "criterion", "measured", "control", "status"), rows, self.footer())
        if self._impl():
            impl = [(r.id, r.criterion, self._measured(r), _holds(r)) for r in self._impl()]
            out += "\n\n" + text_table(("implementation check", "criterion", "measured", "status"), impl,
                                       "checks of our own code: not claims, not counted")
        if any(r.post_hoc for r in self.results):
            out += "\n† added or changed after the notebook first ran (post hoc)"
        return out

    def _cell(self, r: ClaimResult, value: str) -> str:
        e = html.escape
        if value.startswith("~"):
            return APPROX_SPAN.format(e(value[1:]))
        return e(value)

    def _repr_html_(self) -> str:
        e = html.escape
        head = "".join(f"<th>{h}</th>" for h in ("claim", "statement", "criterion", "measured", "control", "status"))
        body = []
        for r in self._main():
            flags = flags_text(r)
            why = " ".join(w for w in (r.post_hoc_why, r.machine_sensitive_why) if w)
            note = f'<br><small class="repro-flags">{e(flags)}{": " + e(why) if why else ""}</small>' if (flags or why) else ""
            if r.volatile or r.control_status is None:
                control = "–"
            else:
                c_status = APPROX_SPAN.format(e(r.control_status)) if r.machine_sensitive else e(r.control_status)
                control = (f"{self._cell(r, self._value(r, r.control))} ({c_status})"
                           f'<br><small>{e(r.control_label or "")}</small>')
            tol = _tol(r)
            tol_note = (f'<br><small class="repro-tol">repeats within {tol.rel:g} rel / {tol.abs:g} abs: {e(tol.why)}</small>'
                        if tol.is_wide and not r.volatile else "")
            outcome = r.outcome.replace(" ", "-")
            body.append(
                f'<tr class="repro-{e(outcome)}"><td><code>{e(r.id)}</code>{note}</td>'
                f"<td>{e(r.statement)}</td><td>{e(r.criterion)}</td>"
                f"<td>{self._cell(r, self._measured(r))}{tol_note}</td><td>{control}</td>"
                f"<td>{self._shown_status(r, text=False)}</td></tr>"
            )
        out = (f'<table class="repro-claims"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
               f"<p><strong>Verdict: {e(self.verdict)}</strong> ({e(headline(self.results))})</p>")
        if self._impl():
            rows = "".join(
                f"<tr><td><code>{e(r.id)}</code></td><td>{e(r.statement)}</td><td>{e(r.criterion)}</td>"
                f"<td>{self._cell(r, self._measured(r))}</td><td>{e(_holds(r))}</td></tr>"
                for r in self._impl()
            )
            out += ('<p class="repro-impl-title">Checks of our implementation (identities of our own code; '
                    "not claims, not counted):</p>"
                    '<table class="repro-claims repro-impl"><thead><tr><th>check</th><th>statement</th>'
                    f"<th>criterion</th><th>measured</th><th>status</th></tr></thead><tbody>{rows}</tbody></table>")
        return out


class TimingsTable:
    """The wall-clock measurements of a page with their criteria (not compared by CI)."""

    def __init__(self, results: list[ClaimResult]):
        self.results = [r for r in results if r.volatile]

    def __repr__(self) -> str:
        rows = [(r.id, r.criterion, format_measured(r.measured), r.status) for r in self.results]
        footer = "wall-clock values vary from run to run; they do not count towards the verdict"
        return text_table(("timing", "criterion", "measured", "status"), rows, footer)


def verdict_of(statuses: list[str]) -> str:
    """Verdict over the statuses of the counted claims.

    ``reproduced`` if all are, ``not reproduced`` if none is, ``partial``
    otherwise, and ``inconclusive`` when no claim counts (none informative).
    """
    if not statuses:
        return "inconclusive"
    if all(s == "reproduced" for s in statuses):
        return "reproduced"
    if all(s == "not reproduced" for s in statuses):
        return "not reproduced"
    return "partial"


def claims_dir() -> Path:
    """Where :meth:`Claims.save` writes: ``$REPRO_CLAIMS_DIR``, else ``book/_build/claims`` of the repository.

    The committed records in ``book/claims`` are written only by the pipeline
    (``make book``), which sets ``REPRO_CLAIMS_DIR``; a reader's own run never
    overwrites them.
    """
    env = os.environ.get("REPRO_CLAIMS_DIR")
    if env:
        return Path(env)
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "pyproject.toml").exists() and (parent / "book").is_dir():
            return parent / "book" / "_build" / "claims"
    return Path.cwd() / "claims"


class Claims:
    """The claims of one page, recorded as the notebook runs.

    Parameters
    ----------
    slug : str
        The paper's slug (``notebooks/<slug>.py``).
    title, authors, paper_url : str or None
        What we know of the paper; ``None`` when not found.
    scale, seed :
        The notebook's parameters (validated).
    """

    def __init__(
        self,
        slug: str,
        *,
        title: str | None,
        scale: str,
        seed: int,
        authors: str | None = None,
        paper_url: str | None = None,
    ):
        check_params(scale, seed)
        self.slug = slug
        self.title = title
        self.authors = authors
        self.paper_url = paper_url
        self.scale = scale
        self.seed = int(seed)
        self.results: list[ClaimResult] = []
        self._t0 = time.perf_counter()

    def check(
        self,
        id: str,
        *,
        statement: str,
        paper: str,
        criterion: Criterion,
        measured: Measured,
        control: Measured | None = None,
        control_label: str | None = None,
        kind: str = "empirical",
        tol: Tolerance | None = None,
        post_hoc: str | None = None,
        machine_sensitive: str | None = None,
        volatile: bool = False,
    ) -> ClaimResult:
        """Evaluate ``criterion`` on ``measured`` (and on ``control``) and record the claim.

        Parameters
        ----------
        control, control_label :
            The same measurement on something for which the paper's claim
            should not hold, and what that is. Required for a counted claim
            (``kind`` empirical or theorem, not ``volatile``).
        kind : {"empirical", "theorem", "implementation"}
        tol : Tolerance, optional
            How closely ``measured`` and ``control`` must repeat on another
            machine (default :data:`EXACT`); never a pass threshold.
        post_hoc, machine_sensitive : str, optional
            The reason for the flag (see the module docstring).
        volatile : bool
            A wall-clock value (shown by :meth:`timings`, never counted).

        Returns the :class:`ClaimResult`; a failed criterion is recorded, not raised.
        """
        if any(r.id == id for r in self.results):
            raise ValueError(f"claim id {id!r} recorded twice")
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}; got {kind!r}")
        counted_kind = kind != "implementation" and not volatile
        if counted_kind and control is None:
            raise ValueError(
                f"claim {id!r}: a counted claim needs a control (control=..., control_label=...): the same "
                "measurement on a baseline, an ablation or a null model for which the paper's claim should not hold; "
                "an identity of our own code is kind='implementation'"
            )
        if control is not None and not (control_label or "").strip():
            raise ValueError(f"claim {id!r}: say what the control is (control_label=...)")
        for flag, name in ((post_hoc, "post_hoc"), (machine_sensitive, "machine_sensitive")):
            if flag is not None and not (isinstance(flag, str) and flag.strip()):
                raise ValueError(f"claim {id!r}: {name} takes its reason as text")
        tol = tol or EXACT
        status = self._evaluate(criterion, measured)
        control_status = self._evaluate(criterion, control) if control is not None else None
        result = ClaimResult(
            id, statement, paper, criterion.text, recorded_value(measured, tol), status, volatile, kind,
            control=recorded_value(control, tol) if control is not None else None,
            control_label=control_label,
            control_status=control_status,
            tolerance=tol.as_dict(),
            post_hoc=post_hoc is not None,
            post_hoc_why=post_hoc or "",
            machine_sensitive=machine_sensitive is not None,
            machine_sensitive_why=machine_sensitive or "",
        )
        self.results.append(result)
        return result

    @staticmethod
    def _evaluate(criterion: Criterion, value: Measured) -> str:
        if isinstance(value, float) and not math.isfinite(value):
            return "not reproduced"
        return criterion(value)

    @property
    def verdict(self) -> str:
        """Verdict over the counted claims (see :func:`is_counted`)."""
        return verdict_of([r.status for r in self.results if r.counted])

    def table(self) -> ClaimsTable:
        """The claims table (display it as the last output of a cell)."""
        return ClaimsTable(list(self.results), self.verdict)

    def timings(self) -> TimingsTable:
        """The wall-clock (volatile) measurements with their values: display in a cell CI does not compare."""
        return TimingsTable(list(self.results))

    def record(self) -> dict:
        """The JSON-ready record of this page."""
        return {
            "slug": self.slug,
            "title": self.title,
            "authors": self.authors,
            "paper_url": self.paper_url,
            "scale": self.scale,
            "seed": self.seed,
            "runtime_s": round(time.perf_counter() - self._t0, 2),
            "verdict": self.verdict,
            "claims": [r.as_record() for r in self.results],
        }

    def save(self, directory: str | os.PathLike | None = None) -> Path:
        """Write ``<directory>/<slug>.json`` (default :func:`claims_dir`) and return its path."""
        out = Path(directory) if directory is not None else claims_dir()
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{self.slug}.json"
        path.write_text(json.dumps(self.record(), indent=1, ensure_ascii=False) + "\n")
        return path


EXACT_FIELDS = ("kind", "criterion", "status", "control_status", "post_hoc", "machine_sensitive", "tolerance")


def compare_records(committed: dict, fresh: dict) -> list[str]:
    """Differences between a committed record and a fresh run's that CI does not accept (empty: they agree).

    Exact: slug, scale, seed, verdict, the ordered claim ids, and per claim its
    kind, criterion, status, control status, flags and declared tolerance.
    Within the claim's tolerance: the measured and control values.
    Wall-clock claims are left out, except their ids; a machine-sensitive
    claim is compared by id and criterion only.
    """
    diffs = []
    for key in ("slug", "scale", "seed", "verdict"):
        if committed.get(key) != fresh.get(key):
            diffs.append(f"{key}: {committed.get(key)!r} -> {fresh.get(key)!r}")
    ids_a = [c["id"] for c in committed["claims"]]
    ids_b = [c["id"] for c in fresh["claims"]]
    if ids_a != ids_b:
        return [*diffs, f"claim ids: {ids_a} -> {ids_b}"]
    for a, b in zip(committed["claims"], fresh["claims"]):
        if a.get("volatile") or b.get("volatile"):
            if bool(a.get("volatile")) != bool(b.get("volatile")):
                diffs.append(f"{a['id']}: volatile {a.get('volatile')} -> {b.get('volatile')}")
            continue
        fields = ("criterion", "machine_sensitive") if a.get("machine_sensitive") else EXACT_FIELDS
        for key in fields:
            if a.get(key) != b.get(key):
                diffs.append(f"{a['id']}: {key} {a.get(key)!r} -> {b.get(key)!r}")
        if a.get("machine_sensitive"):
            continue
        tol = Tolerance(**a["tolerance"]) if a.get("tolerance") else EXACT
        for key in ("measured", "control"):
            if not tol.agree(a.get(key), b.get(key)):
                diffs.append(f"{a['id']}: {key} {a.get(key)!r} -> {b.get(key)!r} (tolerance rel {tol.rel:g}, abs {tol.abs:g})")
    return diffs
