"""Machine-checked claims: the heart of every page.

A notebook states each claim of its paper in our own words, with what the
paper reports and a criterion fixed *before* the run; it then records the
measured value. A failed criterion never crashes the notebook: it is recorded
as ``"not reproduced"`` (or ``"partial"``) and shown.

Usage in a notebook::

    claims = Claims("sampled-softmax-bias", title=..., paper_url=..., scale=scale, seed=seed)
    claims.check("bias-positive", statement=..., paper=..., criterion=at_least(1e-6), measured=x)
    ...
    claims.table()   # last cell, checked by nbval (NBVAL_CHECK_OUTPUT)
    claims.save()    # writes <claims dir>/<slug>.json

The record written by :meth:`Claims.save` has the schema::

    {"slug", "title", "authors", "paper_url", "scale", "seed", "runtime_s", "verdict",
     "claims": [{"id", "statement", "paper", "criterion", "measured", "status", "volatile"}]}

``volatile`` marks values measured with a wall clock. They are recorded with
their criterion and status and shown by :meth:`Claims.timings` (in a cell that
CI does not compare), but they do not count towards the verdict, the claims
table or the record comparison: a noisy machine must not flip a page's
verdict. A page's checked speed claim rests on a deterministic count instead.
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
from typing import Union

from repro.runtime import check_params

STATUSES = ("reproduced", "partial", "not reproduced")
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


@dataclass
class ClaimResult:
    """One checked claim, as stored in the record."""

    id: str
    statement: str
    paper: str
    criterion: str
    measured: Measured
    status: str
    volatile: bool = False


def text_table(header: tuple[str, ...], rows: list[tuple[str, ...]], footer: str) -> str:
    """Left-aligned plain-text table with a dashed rule under the header and a footer line."""
    all_rows = [header, *rows]
    widths = [max(len(row[i]) for row in all_rows) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in all_rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append(footer)
    return "\n".join(lines)


def count_reproduced(claims: list) -> tuple[int, int]:
    """(reproduced, counted) over the deterministic claims; wall-clock (volatile) ones do not count.

    Accepts :class:`ClaimResult` objects or the dicts of a saved record.
    """

    def get(c, key: str):
        return c.get(key) if isinstance(c, dict) else getattr(c, key)

    counted = [c for c in claims if not get(c, "volatile")]
    return sum(get(c, "status") == "reproduced" for c in counted), len(counted)


class ClaimsTable:
    """Rich display of a claims list: HTML in the book, plain text for nbval."""

    def __init__(self, results: list[ClaimResult], verdict: str):
        self.results = results
        self.verdict = verdict

    def _rows(self) -> list[tuple[str, str, str, str]]:
        return [
            (r.id, r.criterion, "timed" if r.volatile else format_measured(r.measured),
             "see timings" if r.volatile else r.status)
            for r in self.results
        ]

    def __repr__(self) -> str:
        n_ok, n = count_reproduced(self.results)
        footer = f"verdict: {self.verdict} ({n_ok} of {n} claims reproduced)"
        return text_table(("claim", "criterion", "measured", "status"), self._rows(), footer)

    def _repr_html_(self) -> str:
        e = html.escape
        head = "".join(f"<th>{h}</th>" for h in ("claim", "statement", "criterion", "measured", "status"))
        body = "".join(
            f'<tr class="repro-{r.status.replace(" ", "-")}"><td><code>{e(r.id)}</code></td>'
            f"<td>{e(r.statement)}</td><td>{e(r.criterion)}</td><td>{e(m)}</td><td>{e(r.status)}</td></tr>"
            for r, (_, _, m, _) in zip(self.results, self._rows())
        )
        n_ok, n = count_reproduced(self.results)
        return (
            f'<table class="repro-claims"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
            f"<p><strong>Verdict: {e(self.verdict)}</strong> ({n_ok} of {n} claims reproduced)</p>"
        )


class TimingsTable:
    """The wall-clock measurements of a page with their criteria (not compared by CI)."""

    def __init__(self, results: list[ClaimResult]):
        self.results = [r for r in results if r.volatile]

    def __repr__(self) -> str:
        rows = [(r.id, r.criterion, format_measured(r.measured), r.status) for r in self.results]
        footer = "wall-clock values vary from run to run; they do not count towards the verdict"
        return text_table(("timing", "criterion", "measured", "status"), rows, footer)


def verdict_of(statuses: list[str]) -> str:
    """``reproduced`` if all claims are, ``not reproduced`` if none is (or none exists), else ``partial``."""
    if statuses and all(s == "reproduced" for s in statuses):
        return "reproduced"
    if not statuses or all(s == "not reproduced" for s in statuses):
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
        volatile: bool = False,
    ) -> ClaimResult:
        """Evaluate ``criterion`` on ``measured`` and record the claim; returns the result."""
        if any(r.id == id for r in self.results):
            raise ValueError(f"claim id {id!r} recorded twice")
        if isinstance(measured, float) and not math.isfinite(measured):
            status = "not reproduced"
        else:
            status = criterion(measured)
        if isinstance(measured, float):
            measured = round_sig(measured)
        result = ClaimResult(id, statement, paper, criterion.text, measured, status, volatile)
        self.results.append(result)
        return result

    @property
    def verdict(self) -> str:
        """Verdict over the deterministic claims (volatile timings do not count)."""
        return verdict_of([r.status for r in self.results if not r.volatile])

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
            "claims": [asdict(r) for r in self.results],
        }

    def save(self, directory: str | os.PathLike | None = None) -> Path:
        """Write ``<directory>/<slug>.json`` (default :func:`claims_dir`) and return its path."""
        out = Path(directory) if directory is not None else claims_dir()
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{self.slug}.json"
        path.write_text(json.dumps(self.record(), indent=1, ensure_ascii=False) + "\n")
        return path


def comparable(record: dict) -> dict:
    """The part of a record that must not change between runs: ids, statuses, rounded values.

    Volatile (wall-clock) claims and the runtime are left out.
    """
    return {
        "slug": record["slug"],
        "scale": record["scale"],
        "seed": record["seed"],
        "verdict": record["verdict"],
        "claims": [
            {"id": c["id"], "status": c["status"], "measured": format_measured(c["measured"])}
            for c in record["claims"]
            if not c.get("volatile")
        ],
    }
