"""The recorder a notebook uses: it writes down measurements, never verdicts.

A page records, for each check, the paper's method's value and, for a test, the values of its comparators
under the same measurement; :mod:`repro.claims.judge` turns the records and the sweep records into statuses
when the book is built. The notebook's checked cell (``claims.save(); claims.table()``) shows the raw
measurements only, so a change of the rules re-judges every page without re-executing any.
"""

from __future__ import annotations

import html
import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from repro.claims.values import (
    EXACT,
    Criterion,
    Measured,
    Tolerance,
    format_measured,
    recorded_value,
    shown_value,
)
from repro.runtime import check_params

SCHEMA = 2
ROLES = ("test", "illustration", "implementation", "timing")
KINDS = ("empirical", "theorem")
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
APPROX_SPAN = '<span class="repro-approx">{}</span>'


@dataclass(frozen=True)
class Comparator:
    """The same measurement on something other than the paper's method.

    Parameters
    ----------
    label : str
        What it is, in a few words ("CFBO without its stopping rule").
    value : number, bool or short text
        Its measured value, computed by the notebook (never a literal).
    ingredient : str, optional
        For an ablation: the ingredient of the paper's method it leaves out.
    """

    label: str
    value: Measured
    ingredient: str | None = None

    def __post_init__(self) -> None:
        if not str(self.label).strip():
            raise ValueError("a comparator needs its label: what it is")

    def as_record(self, tol: Tolerance) -> dict:
        out = {"label": self.label, "value": recorded_value(self.value, tol)}
        if self.ingredient is not None:
            out["ingredient"] = self.ingredient
        return out


def claims_dir() -> Path:
    """Where :meth:`Claims.save` writes: ``$REPRO_CLAIMS_DIR``, else ``book/_build/claims`` of the repository.

    The committed records in ``book/claims`` are written only by the pipeline (``make book``), which sets
    ``REPRO_CLAIMS_DIR``; a reader's own run never overwrites them.
    """
    env = os.environ.get("REPRO_CLAIMS_DIR")
    if env:
        return Path(env)
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "pyproject.toml").exists() and (parent / "book").is_dir():
            return parent / "book" / "_build" / "claims"
    return Path.cwd() / "claims"


def _text(value: str | None, name: str, where: str) -> str:
    if not (isinstance(value, str) and value.strip()):
        raise ValueError(f"{where}: {name} takes its text (a non-empty string)")
    return value


class Claims:
    """The checks of one page, recorded as the notebook runs.

    Parameters
    ----------
    slug : str
        The paper's slug (``notebooks/<slug>.py``).
    title, authors, paper_url : str or None
        What we know of the paper; ``None`` when not found.
    scale, seed :
        The notebook's parameters (validated).

    Methods
    -------
    test(...)
        A counted test: the method's value beside its ablation and its naive baselines (or, for a theorem,
        beside a deliberately wrong input, with the independent computation named).
    illustrate(...)
        The paper's mathematics, our derivation, or a classical or prior-work result, computed: shown, never counted.
    check(..., kind="implementation")
        An identity of our own code: shown apart, never counted.
    check(..., volatile=True)
        A wall-clock value: shown by :meth:`timings`, never compared.
    headline(...)
        One of the paper's headline claims, mapped to the tests that bear on it or to why it cannot be tested.
    """

    def __init__(self, slug: str, *, title: str | None, scale: str, seed: int,
                 authors: str | None = None, paper_url: str | None = None):
        check_params(scale, seed)
        self.slug = slug
        self.title = title
        self.authors = authors
        self.paper_url = paper_url
        self.scale = scale
        self.seed = int(seed)
        self.results: list[dict] = []
        self.headlines: list[dict] = []
        self._t0 = time.perf_counter()

    # ---------- what a page records ----------

    def _base(self, id: str, role: str, statement: str, paper: str, criterion: Criterion, measured: Measured,
              tol: Tolerance | None) -> dict:
        if not (isinstance(id, str) and _ID.fullmatch(id)):
            raise ValueError(f"check id {id!r}: letters, digits, '.', '_' and '-' only, no spaces")
        if any(r["id"] == id for r in self.results):
            raise ValueError(f"check id {id!r} recorded twice")
        if not isinstance(criterion, Criterion):
            raise TypeError(f"{id}: criterion must be a Criterion (at_least, at_most, between, ...)")
        tol = tol or EXACT
        rec = {"id": id, "role": role, "kind": None, "statement": _text(statement, "statement", id),
               "paper": _text(paper, "paper", id), "criterion": criterion.text, "rule": criterion.rule,
               "measured": recorded_value(measured, tol), "tolerance": tol.as_dict()}
        if criterion.op == "custom":  # the judge cannot evaluate a Python function from a record
            rec["custom_status"] = criterion(measured)
        return rec

    def test(self, id: str, *, statement: str, paper: str, criterion: Criterion, measured: Measured,
             ablation: Comparator | None = None, baselines: list[Comparator] | tuple = (),
             kind: str = "empirical", wrong_inputs: list[Comparator] | tuple = (), independent: str | None = None,
             tol: Tolerance | None = None, post_hoc: str | None = None, setting: str | None = None) -> dict:
        """Record a counted test: the paper's method beside its comparators, under one measurement and criterion.

        Parameters
        ----------
        measured :
            The paper's method's value.
        ablation : Comparator
            The method without the ingredient the test is about (``ingredient=`` names it). Required for an
            empirical test.
        baselines : list of Comparator
            At least one naive baseline that uses none of the paper's ideas: the strongest a skeptic would try,
            never one at chance or one that pays a cost by construction. Required for an empirical test.
        kind : {"empirical", "theorem"}
            A theorem test counts only where its measured side is an independent computation that could refute
            it (``independent=``: exhaustive search, an LP, brute force, Monte Carlo where the bound is tight);
            its comparators are deliberately wrong inputs (``wrong_inputs=``).
        tol : Tolerance
            How closely every value must repeat on another machine (default: exact); also the width of the band
            around the threshold inside which a value is "at the edge" and never a pass.
        post_hoc : str, optional
            Why the test was added or changed after the page first ran. It is shown apart and moves the badge
            only once confirmed on ci seeds 10-19 (``make confirm``).
        setting : str, optional
            Declares a test that shares its measurement with another one as a separate setting (another
            horizon, another price, the official configuration).

        The status is not decided here: :mod:`repro.claims.judge` decides it from the record and the sweeps.
        """
        if kind not in KINDS:
            raise ValueError(f"{id}: kind must be one of {KINDS}; got {kind!r}")
        if kind == "empirical":
            if not isinstance(ablation, Comparator) or not (ablation.ingredient or "").strip():
                raise ValueError(f"{id}: an empirical test needs its ablation: Comparator(label, value, "
                                 "ingredient=<the ingredient left out>)")
            if not baselines or not all(isinstance(b, Comparator) for b in baselines):
                raise ValueError(f"{id}: an empirical test needs at least one naive baseline (Comparator)")
            if wrong_inputs:
                raise ValueError(f"{id}: wrong inputs belong to theorem tests")
        else:
            if not (independent or "").strip():
                raise ValueError(f"{id}: a theorem test names the independent computation that could refute it "
                                 "(independent=...); our formula at our sizes is an illustration")
            if not wrong_inputs or not all(isinstance(w, Comparator) for w in wrong_inputs):
                raise ValueError(f"{id}: a theorem test needs a deliberately wrong input (wrong_inputs=[Comparator])")
        for flag, name in ((post_hoc, "post_hoc"), (setting, "setting")):
            if flag is not None:
                _text(flag, name, id)
        tol = tol or EXACT
        rec = self._base(id, "test", statement, paper, criterion, measured, tol)
        rec.update(kind=kind,
                   ablation=ablation.as_record(tol) if ablation is not None else None,
                   baselines=[b.as_record(tol) for b in baselines],
                   wrong_inputs=[w.as_record(tol) for w in wrong_inputs],
                   independent=independent or "",
                   post_hoc=post_hoc is not None, post_hoc_why=post_hoc or "", setting=setting or "")
        self.results.append(rec)
        return rec

    def illustrate(self, id: str, *, statement: str, paper: str, criterion: Criterion, measured: Measured,
                   why: str, tol: Tolerance | None = None) -> dict:
        """Record an illustration: computed and shown, never counted.

        ``why``: why it cannot fail as a test of the paper (a classical result, our own derivation, a closed form
        evaluated at preset sizes, a construction that fixes the value, ...).
        """
        rec = self._base(id, "illustration", statement, paper, criterion, measured, tol)
        rec["why"] = _text(why, "why", id)
        self.results.append(rec)
        return rec

    def check(self, id: str, *, statement: str, paper: str, criterion: Criterion, measured: Measured,
              control: Measured | None = None, control_label: str | None = None, kind: str = "empirical",
              tol: Tolerance | None = None, post_hoc: str | None = None, machine_sensitive: str | None = None,
              volatile: bool = False) -> dict:
        """An implementation check (``kind="implementation"``), a wall-clock value (``volatile=True``), or a
        claim in the form of the old model (``control=``), recorded as awaiting comparators.

        New counted checks use :meth:`test`; the old form stays until every page is converted, and its claims
        are never counted: the judge shows them as "awaiting comparators".
        """
        if kind not in (*KINDS, "implementation"):
            raise ValueError(f"kind must be one of {(*KINDS, 'implementation')}; got {kind!r}")
        role = "timing" if volatile else ("implementation" if kind == "implementation" else "test")
        if role == "test" and control is None:
            raise ValueError(f"claim {id!r}: a counted check is a test: record it with claims.test(...) beside its "
                             "ablation and baselines; an identity of our own code is kind='implementation'")
        if control is not None and not (control_label or "").strip():
            raise ValueError(f"claim {id!r}: say what the control is (control_label=...)")
        for flag, name in ((post_hoc, "post_hoc"), (machine_sensitive, "machine_sensitive")):
            if flag is not None and not (isinstance(flag, str) and flag.strip()):
                raise ValueError(f"claim {id!r}: {name} takes its reason as text")
        tol = tol or EXACT
        rec = self._base(id, role, statement, paper, criterion, measured, tol)
        if role == "test":
            rec.update(kind=kind, legacy_control={"label": control_label, "value": recorded_value(control, tol)},
                       post_hoc=post_hoc is not None, post_hoc_why=post_hoc or "",
                       machine_sensitive_why=machine_sensitive or "")
        elif role == "timing":
            rec["status"] = criterion(measured)  # shown by timings() only; never compared or counted
        self.results.append(rec)
        return rec

    def headline(self, id: str, text: str, *, tests: list[str] | tuple = (), untestable: str | None = None) -> dict:
        """One of the paper's headline claims (from its abstract, in our words), mapped to the tests that bear on
        it, or to the reason it cannot be tested here (an LLM, a commercial API, data we cannot have)."""
        if not (isinstance(id, str) and _ID.fullmatch(id)) or any(h["id"] == id for h in self.headlines):
            raise ValueError(f"headline id {id!r}: unique, no spaces")
        _text(text, "text", id)
        if bool(tests) == bool(untestable):
            raise ValueError(f"headline {id!r}: map it to tests=[...] or say why it is untestable=..., not both")
        rec = {"id": id, "text": text, "tests": list(tests), "untestable": untestable or ""}
        self.headlines.append(rec)
        return rec

    # ---------- output ----------

    def record(self) -> dict:
        """The JSON-ready record of this page (schema 2; measurements only, no statuses)."""
        known = {r["id"] for r in self.results}
        for h in self.headlines:
            missing = [t for t in h["tests"] if t not in known]
            if missing:
                raise ValueError(f"headline {h['id']!r} names checks that were not recorded: {missing}")
        return {"schema": SCHEMA, "slug": self.slug, "title": self.title, "authors": self.authors,
                "paper_url": self.paper_url, "scale": self.scale, "seed": self.seed,
                "runtime_s": round(time.perf_counter() - self._t0, 2),
                "headlines": list(self.headlines), "claims": list(self.results)}

    def save(self, directory: str | os.PathLike | None = None) -> Path:
        """Write ``<directory>/<slug>.json`` (default :func:`claims_dir`) and return its path."""
        out = Path(directory) if directory is not None else claims_dir()
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{self.slug}.json"
        path.write_text(json.dumps(self.record(), indent=1, ensure_ascii=False) + "\n")
        return path

    def table(self) -> MeasurementTable:
        """The measurements (display as a cell's last output; the book adds the statuses at build time)."""
        return MeasurementTable(list(self.results))

    def timings(self) -> TimingsTable:
        """The wall-clock values with their criteria: display in a cell CI does not compare."""
        return TimingsTable([r for r in self.results if r["role"] == "timing"])


# ---------- display of the measurements ----------


def text_table(header: tuple[str, ...], rows: list[tuple[str, ...]], footer: str = "") -> str:
    """Left-aligned plain-text table with a dashed rule under the header and an optional footer line."""
    all_rows = [header, *rows]
    widths = [max(len(row[i]) for row in all_rows) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in all_rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    if footer:
        lines.append(footer)
    return "\n".join(lines)


def _tol(c: dict) -> Tolerance:
    return Tolerance(**c["tolerance"]) if c.get("tolerance") else EXACT


def comparators_of(c: dict) -> list[tuple[str, dict]]:
    """``[(role, comparator), ...]`` of a recorded check: ablation, baselines, wrong inputs, or the old control."""
    out = []
    if c.get("ablation"):
        out.append(("ablation", c["ablation"]))
    out += [("baseline", b) for b in c.get("baselines") or []]
    out += [("wrong input", w) for w in c.get("wrong_inputs") or []]
    if c.get("legacy_control"):
        out.append(("control (old model)", c["legacy_control"]))
    return out


class MeasurementTable:
    """The checked cell's output: every check's criterion and raw values, no statuses.

    Values that may move in their last digits on another machine are marked ``~`` (text) or wrapped in a
    ``repro-approx`` span (HTML), which the nbval sanitizer masks.
    """

    def __init__(self, results: list[dict]):
        self.results = results

    def _rows(self, role: str) -> list[dict]:
        return [r for r in self.results if r["role"] == role]

    @staticmethod
    def _value(c: dict, x: Measured | None) -> str:
        return shown_value(x, _tol(c))

    def _comparators(self, c: dict) -> str:
        return "; ".join(f"{kind} {self._value(c, comp['value'])}" for kind, comp in comparators_of(c)) or "-"

    def __repr__(self) -> str:
        parts = []
        tests = self._rows("test")
        if tests:
            rows = [(r["id"] + (" †" if r.get("post_hoc") else ""), r["kind"], r["criterion"],
                     self._value(r, r["measured"]), self._comparators(r)) for r in tests]
            parts.append(text_table(("test", "kind", "criterion", "method", "comparators"), rows,
                                    "measurements only: the book judges them against the ci sweep when it is built"))
        for role, title in (("illustration", "illustration"), ("implementation", "implementation check")):
            rows = [(r["id"], r["criterion"], self._value(r, r["measured"])) for r in self._rows(role)]
            if rows:
                parts.append(text_table((title, "criterion", "measured"), rows))
        timed = self._rows("timing")
        if timed:
            parts.append(text_table(("timing", "criterion", "measured"), [(r["id"], r["criterion"], "timed, see timings")
                                                                           for r in timed]))
        if any(r.get("post_hoc") for r in tests):
            parts.append("† added or changed after the page first ran (post hoc)")
        return "\n\n".join(parts)

    def _cell(self, c: dict, x: Measured | None) -> str:
        text = self._value(c, x)
        return APPROX_SPAN.format(html.escape(text[1:])) if text.startswith("~") else html.escape(text)

    def _repr_html_(self) -> str:
        e = html.escape
        out = []
        tests = self._rows("test")
        if tests:
            body = "".join(
                f'<tr><td><code>{e(r["id"])}</code>{" †" if r.get("post_hoc") else ""}</td><td>{e(r["kind"])}</td>'
                f'<td>{e(r["criterion"])}</td><td>{self._cell(r, r["measured"])}</td><td>'
                + "<br>".join(f"{e(k)}: {self._cell(r, comp['value'])} <small>({e(comp['label'])})</small>"
                              for k, comp in comparators_of(r))
                + "</td></tr>" for r in tests)
            out.append('<table class="repro-measurements"><thead><tr><th>test</th><th>kind</th><th>criterion</th>'
                       f"<th>method</th><th>comparators</th></tr></thead><tbody>{body}</tbody></table>")
        for role, title in (("illustration", "illustration"), ("implementation", "implementation check"),
                            ("timing", "timing")):
            rows = self._rows(role)
            if rows:
                body = "".join(
                    f'<tr><td><code>{e(r["id"])}</code></td><td>{e(r["criterion"])}</td>'
                    f'<td>{"timed, see timings" if role == "timing" else self._cell(r, r["measured"])}</td></tr>'
                    for r in rows)
                out.append(f'<table class="repro-measurements"><thead><tr><th>{title}</th><th>criterion</th>'
                           f"<th>measured</th></tr></thead><tbody>{body}</tbody></table>")
        return "".join(out)


class TimingsTable:
    """The wall-clock measurements of a page with their criteria (not compared by CI, never counted)."""

    def __init__(self, results: list[dict]):
        self.results = results

    def __repr__(self) -> str:
        rows = [(r["id"], r["criterion"], format_measured(r["measured"]), r["status"]) for r in self.results]
        return text_table(("timing", "criterion", "measured", "meets it?"), rows,
                          "wall-clock values vary from run to run; they do not count towards the verdict")
