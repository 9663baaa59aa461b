"""The rules: from recorded measurements to statuses, verdicts and counts (never imported by a notebook).

Everything a reader sees as a status is computed here, at build time, from the claims record
(``book/claims/<slug>.json``) and the sweep records (``book/sweeps/{ci,full,confirm}/<slug>.json``). No
notebook imports this module, so it is not among any page's inputs: a change of the rules re-judges all the
pages without re-executing one.

**A value against its criterion** (:func:`value_status`): ``pass``, ``partial``, ``fail``, or ``edge`` when it
lies within its declared tolerance of a threshold (the band is ``abs + rel * max(|value|, |threshold|)`` wide on
each side). A value at the edge is never a pass. Two values that agree within their tolerance can then never
be judged one ``pass`` and the other ``fail``: they would have to be more than two bands apart. (An integer
count with the default, exact tolerance has no band: it cannot move between machines.)

**A test at one seed** (:func:`seed_outcome`):

- ``not reproduced``: the method fails its criterion (``partial``: it reaches only the partial threshold);
- ``at the edge``: the method, or a comparator, is at the edge;
- ``not specific``: the method passes, and so does a comparator (its ablation or a naive baseline; for a
  theorem test, a deliberately wrong input): the paper's ingredient is not needed here;
- ``reproduced``: the method passes and every comparator fails.

A check recorded in the old model (one "control", no ablation or baselines) is ``awaiting comparators``.

**A test over the ci sweep** (:func:`aggregate`): ``reproduced`` when it is reproduced at >= 8 of 10 seeds,
``seed-sensitive`` at 3 to 7, and otherwise ``not specific`` if the method itself passes at most seeds (a
comparator passes with it) or ``not reproduced``. The same fractions give the full-scale status shown beside it.

**The badge** (:func:`badge_of`) counts the pre-registered tests, and a post-hoc test only once it is
*confirmed*: reproduced over ci seeds 10-19 (a confirmation sweep run on a frozen commit, seeds nobody looked
at while designing it). ``reproduced`` if every counted test is, ``partial`` if some are, else the status they
share (``not specific``, ``seed-sensitive``) or ``not reproduced``; ``illustrated, not tested`` for a page with
no test; ``post hoc, unconfirmed`` for a page whose tests were all added after it first ran and none of which is
confirmed yet (their ci statuses are shown, none is counted); ``untested: awaiting comparators`` for a page still in the old model.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from repro.claims.values import EXACT, Measured, Tolerance, bound_or_value, tolerance_of

VALUE_STATUSES = ("pass", "partial", "edge", "fail")
OUTCOMES = ("reproduced", "not specific", "partial", "at the edge", "not reproduced")
AGGREGATES = ("reproduced", "seed-sensitive", "not specific", "not reproduced")
BADGES = ("reproduced", "partial", "not specific", "seed-sensitive", "not reproduced", "illustrated, not tested",
          "post hoc, unconfirmed", "untested: awaiting comparators", "awaiting a sweep")
HOLD_FRACTION, FAIL_FRACTION = 0.8, 0.2
CONFIRM_SEEDS = tuple(range(10, 20))
DESIGN_SEEDS = tuple(range(10))


# ---------- rules as data ----------

_NUM = r"(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|-?inf)"
_PATTERNS = (
    (re.compile(rf"^>= {_NUM} \(partial >= {_NUM}\)$"), "at_least", True),
    (re.compile(rf"^<= {_NUM} \(partial <= {_NUM}\)$"), "at_most", True),
    (re.compile(rf"^>= {_NUM}$"), "at_least", False),
    (re.compile(rf"^<= {_NUM}$"), "at_most", False),
    (re.compile(rf"^> {_NUM}$"), "greater_than", False),
    (re.compile(rf"^< {_NUM}$"), "less_than", False),
    (re.compile(rf"^in \[{_NUM}, {_NUM}\]$"), "between", None),
)


def parse_rule(text: str) -> dict:
    """The rule of a criterion's text (``">= 1.5"``, ``"in [0, 1]"``, ...); ``custom`` where it has no data form."""
    for pattern, op, with_partial in _PATTERNS:
        m = pattern.match(text.strip())
        if m:
            a = float(m.group(1))
            b = float(m.group(2)) if m.lastindex and m.lastindex > 1 else None
            if with_partial is None:
                return {"op": op, "value": a, "hi": b, "partial": None}
            return {"op": op, "value": a, "hi": None, "partial": b if with_partial else None}
    return {"op": "custom", "value": None, "hi": None, "partial": None}


def rule_of(c: dict) -> dict:
    """A recorded check's rule: recorded, else parsed from its criterion's text."""
    return c.get("rule") or parse_rule(c.get("criterion", ""))


def _boundaries(rule: dict) -> list[float]:
    if rule["op"] == "between":
        return [rule["value"], rule["hi"]]
    return [b for b in (rule["value"], rule.get("partial")) if b is not None]


def _region(rule: dict, x: float) -> str:
    """Status of ``x`` away from every boundary (strictness does not matter there)."""
    op, v, partial = rule["op"], rule["value"], rule.get("partial")
    up = op in ("at_least", "greater_than")
    if op == "between":
        return "pass" if v <= x <= rule["hi"] else "fail"
    if (x >= v) if up else (x <= v):
        return "pass"
    if partial is not None and ((x >= partial) if up else (x <= partial)):
        return "partial"
    return "fail"


def value_status(rule: dict, x: Measured | None, tol: Tolerance = EXACT, custom_status: str | None = None) -> str:
    """``pass``, ``partial``, ``fail`` or ``edge`` (within the tolerance band of a threshold) of one value.

    A bound ``"< B"`` stands for every value in ``[-B, B]``: it passes or fails only if all of them do.
    A non-finite value fails. A ``custom`` rule keeps the status the notebook recorded (``custom_status``).
    """
    op = rule["op"]
    if x is None:
        return "fail"
    if op == "custom":
        return {"reproduced": "pass", "partial": "partial"}.get(custom_status or "", "fail")
    if op == "is_true":
        return "pass" if x is True else "fail"
    parsed = bound_or_value(x)
    if parsed is None:
        return "fail"
    value, is_bound = parsed
    if math.isnan(value):
        return "fail"
    if math.isinf(value):
        return _region(rule, value)
    ends = (-value, value) if is_bound else (value,)
    exact_count = isinstance(x, int) and not isinstance(x, bool) and not tol.is_wide
    statuses = set()
    for end in ends:
        if not exact_count and any(abs(end - b) <= tol.slack(end, b) for b in _boundaries(rule)):
            return "edge"
        statuses.add(_region(rule, end))
    if is_bound and any(-value < b < value for b in _boundaries(rule)):
        return "edge"
    return statuses.pop() if len(statuses) == 1 else "edge"


# ---------- one check at one seed ----------


def role_of(c: dict) -> str:
    """``test``, ``illustration``, ``implementation`` or ``timing``."""
    return c.get("role", "test")


def is_legacy(c: dict) -> bool:
    """A test recorded in the old model: no ablation, baselines or wrong inputs (a single control at most).

    Reads a claims record's check or a sweep record's (whose comparators are under ``labels``).
    """
    if role_of(c) != "test":
        return False
    labels = c.get("labels") or {}
    return not any(c.get(k) or labels.get(k) for k in ("ablation", "baselines", "wrong_inputs"))


def values_of(c: dict) -> dict:
    """The raw values of a check as the claims record holds them: ``{"measured", "ablation", "baselines", ...}``
    (a key only where the check has it)."""
    out: dict[str, Any] = {"measured": c.get("measured")}
    if c.get("ablation"):
        out["ablation"] = c["ablation"].get("value")
    for key in ("baselines", "wrong_inputs"):
        if c.get(key):
            out[key] = [b.get("value") for b in c[key]]
    if c.get("legacy_control"):
        out["control"] = c["legacy_control"].get("value")
    if c.get("custom_status") is not None:
        out["custom_status"] = c["custom_status"]
    return out


def comparator_values(c: dict, values: dict) -> list[Measured | None]:
    """The comparators' values at one seed, in the order ablation, baselines, wrong inputs (the old model's control
    is not a comparator)."""
    out = [values["ablation"]] if "ablation" in values else []
    return out + list(values.get("baselines") or []) + list(values.get("wrong_inputs") or [])


def statuses_at(c: dict, values: dict) -> tuple[str, list[str]]:
    """(the method's value status, each comparator's) at one seed."""
    rule, tol = rule_of(c), tolerance_of(c)
    method = value_status(rule, values.get("measured"), tol, values.get("custom_status"))
    return method, [value_status(rule, v, tol) for v in comparator_values(c, values)]


def seed_outcome(c: dict, values: dict | None = None) -> str:
    """The outcome of one check at one seed (see the module docstring); ``values`` default to the record's own."""
    role = role_of(c)
    if role != "test":
        return {"illustration": "illustration", "implementation": "implementation check", "timing": "timed"}[role]
    if is_legacy(c):
        return "awaiting comparators"
    method, comps = statuses_at(c, values if values is not None else values_of(c))
    if method == "fail":
        return "not reproduced"
    if method == "partial":
        return "partial"
    if method == "edge":
        return "at the edge"
    if "pass" in comps:
        return "not specific"
    if "edge" in comps:
        return "at the edge"
    return "reproduced"


# ---------- over seeds ----------


@dataclass
class Aggregate:
    """A test over the seeds of one sweep: outcome per seed, how many hold, and the status they give."""

    outcomes: dict[int, str]
    method_passes: int
    status: str

    @property
    def n(self) -> int:
        return len(self.outcomes)

    @property
    def holds(self) -> int:
        return sum(o == "reproduced" for o in self.outcomes.values())

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for o in self.outcomes.values():
            out[o] = out.get(o, 0) + 1
        return out

    def text(self) -> str:
        """``"reproduced at 9 of 10 seeds"``, with the other outcomes' counts."""
        rest = ", ".join(f"{o} {k}" for o, k in self.counts().items() if o != "reproduced")
        return f"holds at {self.holds} of {self.n}" + (f" ({rest})" if rest else "")


def aggregate(c: dict, per_seed: dict[int, dict]) -> Aggregate | None:
    """A test over the seeds of a sweep (``{seed: values}``), or ``None`` where the sweep holds none."""
    if not per_seed or role_of(c) != "test" or is_legacy(c):
        return None
    outcomes = {s: seed_outcome(c, v) for s, v in sorted(per_seed.items())}
    passes = sum(statuses_at(c, v)[0] == "pass" for v in per_seed.values())
    n = len(outcomes)
    holds = sum(o == "reproduced" for o in outcomes.values())
    if holds >= HOLD_FRACTION * n:
        status = "reproduced"
    elif holds > FAIL_FRACTION * n:
        status = "seed-sensitive"
    else:
        status = "not specific" if passes > n / 2 else "not reproduced"
    return Aggregate(outcomes, passes, status)


# ---------- a page ----------


@dataclass
class TestJudgement:
    """One check of a page, judged: seed 0, the ci sweep, the full sweep, the confirmation sweep."""

    id: str
    role: str
    claim: dict
    seed0: str
    ci: Aggregate | None = None
    full: Aggregate | None = None
    confirm: Aggregate | None = None
    status: str = ""
    counted: bool = False
    note: str = ""


@dataclass
class PageJudgement:
    """What the card, the claims table, the verdict and the scoreboard show of one page."""

    badge: str
    checks: list[TestJudgement]
    headlines: list[dict] = field(default_factory=list)
    sweep_states: dict[str, str] = field(default_factory=dict)

    def tests(self, post_hoc: bool | None = None) -> list[TestJudgement]:
        out = [t for t in self.checks if t.role == "test" and not is_legacy(t.claim)]
        if post_hoc is not None:
            out = [t for t in out if bool(t.claim.get("post_hoc")) == post_hoc]
        return out

    @property
    def counted(self) -> list[TestJudgement]:
        return [t for t in self.checks if t.counted]

    def count(self, role: str) -> int:
        return sum(t.role == role for t in self.checks)

    @property
    def legacy(self) -> int:
        return sum(t.role == "test" and is_legacy(t.claim) for t in self.checks)

    @property
    def reproduced(self) -> int:
        return sum(t.status == "reproduced" for t in self.counted)

    def headlines_tested(self) -> tuple[int, int]:
        """(headline claims with at least one counted-kind test of the new model, headline claims)."""
        tests = {t.id for t in self.tests()}
        return sum(any(x in tests for x in h["tests"]) for h in self.headlines), len(self.headlines)

    def status_counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for t in self.counted:
            out[t.status] = out.get(t.status, 0) + 1
        return out


def per_seed_values(sweep: dict | None, cid: str) -> dict[int, dict]:
    """``{seed: values}`` of one check in a sweep record (schema 2), empty where it has none."""
    if not sweep:
        return {}
    claim = next((c for c in sweep.get("claims", []) if c["id"] == cid), None)
    return {int(s): v for s, v in claim["values"].items()} if claim else {}


def _merge_static(c: dict, sweep: dict | None) -> dict:
    """The check as the sweep recorded it (rule, tolerance, comparators' labels), for judging its seeds."""
    if not sweep:
        return c
    claim = next((x for x in sweep.get("claims", []) if x["id"] == c["id"]), None)
    return {**c, **{k: claim[k] for k in ("rule", "criterion", "tolerance") if claim and k in claim}}


def judge_page(record: dict, sweeps: dict[str, tuple[str, dict | None]] | None = None) -> PageJudgement:
    """Judge a page from its claims record and its sweep records.

    ``sweeps``: ``{"ci": (state, record), "full": ..., "confirm": ...}`` with ``state`` one of ``"current"``,
    ``"stale"``, ``"none"`` (see :func:`repro.sweeprecords.state`). Only a *current* ci sweep gives a test a
    status; a confirmation sweep counts only if it is current and names the commit its inputs were frozen in.
    """
    sweeps = sweeps or {}
    states = {scale: sweeps.get(scale, ("none", None))[0] for scale in ("ci", "full", "confirm")}
    current = {scale: rec for scale, (st, rec) in sweeps.items() if st == "current" and rec is not None}
    shown = {scale: rec for scale, (st, rec) in sweeps.items() if rec is not None}
    checks = []
    for c in record["claims"]:
        t = TestJudgement(c["id"], role_of(c), c, seed_outcome(c))
        if t.role == "test" and not is_legacy(c):
            for scale in ("ci", "full", "confirm"):
                rec = shown.get(scale)
                setattr(t, scale, aggregate(_merge_static(c, rec), per_seed_values(rec, c["id"])))
            ci_ok = "ci" in current and t.ci is not None and t.ci.n >= len(DESIGN_SEEDS)
            if not ci_ok:
                t.status, t.note = "awaiting a sweep", ("the ci sweep is stale" if states["ci"] == "stale"
                                                        else "no ci sweep over seeds 0-9")
            else:
                t.status = t.ci.status
                if not c.get("post_hoc"):
                    t.counted = True
                else:
                    frozen = "confirm" in current and (current["confirm"].get("frozen_commit") or "")
                    if frozen and t.confirm is not None and t.confirm.n >= len(CONFIRM_SEEDS):
                        t.counted = t.confirm.status == "reproduced"
                        t.note = ("confirmed on seeds 10-19" if t.counted
                                  else f"not confirmed on seeds 10-19 ({t.confirm.text()})")
                        if t.counted:
                            t.status = "reproduced"
                    else:
                        t.note = "post hoc: awaiting its confirmation on seeds 10-19"
        checks.append(t)
    judgement = PageJudgement("", checks, list(record.get("headlines") or []), states)
    judgement.badge = badge_of(judgement)
    return judgement


def badge_of(j: PageJudgement) -> str:
    """The page's badge from its judged checks (see the module docstring)."""
    if j.legacy:
        return "untested: awaiting comparators"
    tests = j.tests()
    if not tests:
        return "illustrated, not tested"
    if any(t.status == "awaiting a sweep" for t in tests if not t.claim.get("post_hoc")):
        return "awaiting a sweep"
    counted = j.counted
    if not counted:  # every test is post hoc and none is confirmed
        if any(t.status == "awaiting a sweep" for t in tests):
            return "awaiting a sweep"
        return "post hoc, unconfirmed"
    statuses = [t.status for t in counted]
    if all(s == "reproduced" for s in statuses):
        return "reproduced"
    if "reproduced" in statuses:
        return "partial"
    if len(set(statuses)) == 1:
        return statuses[0]
    return "not reproduced"


VERDICT_WORDS = {
    "reproduced": "Reproduced",
    "partial": "Partly reproduced",
    "not specific": "Not specific",
    "seed-sensitive": "Seed-sensitive",
    "not reproduced": "Not reproduced",
    "illustrated, not tested": "Illustrated, not tested",
    "post hoc, unconfirmed": "Post hoc, unconfirmed",
    "untested: awaiting comparators": "Untested: awaiting comparators",
    "awaiting a sweep": "Awaiting a sweep",
}


def tests_summary(j: PageJudgement) -> str:
    """One line: how many counted tests are reproduced, and what the others are."""
    counted = j.counted
    pre = [t for t in counted if not t.claim.get("post_hoc")]
    confirmed = [t for t in counted if t.claim.get("post_hoc")]
    if j.legacy:
        return (f"{j.legacy} claim{'s' if j.legacy != 1 else ''} recorded in the old model, each awaiting its "
                "ablation and naive baseline: none counted")
    if not j.tests():
        return "no check on this page is a test a naive alternative could fail"
    post = j.tests(post_hoc=True)
    if not counted and post and all(t.ci is not None for t in post):
        ci: dict[str, int] = {}
        for t in post:
            ci[t.status] = ci.get(t.status, 0) + 1
        waiting = sum("awaiting" in t.note for t in post)
        return (f"no counted test; {len(post)} post-hoc test{'s' if len(post) != 1 else ''}, over the ci seeds "
                + ", ".join(f"{k} {s}" for s, k in ci.items())
                + (f"; {waiting} awaiting {'its' if waiting == 1 else 'their'} confirmation on seeds 10-19" if waiting
                   else "; none confirmed on seeds 10-19"))
    text = (f"{j.reproduced} of {len(counted)} counted test{'s' if len(counted) != 1 else ''} reproduced "
            "(each beats its ablation and its baselines at >= 8 of 10 ci seeds)")
    others = {s: k for s, k in j.status_counts().items() if s != "reproduced"}
    if others:
        text += "; " + ", ".join(f"{k} {s}" for s, k in others.items())
    if post:
        text += (f"; {len(post)} post-hoc test{'s' if len(post) != 1 else ''}, {len(confirmed)} confirmed on "
                 "seeds 10-19")
    if not pre and not confirmed:
        text += "; no pre-registered test"
    return text


def verdict_parts(j: PageJudgement) -> tuple[str, str]:
    """The verdict section's opening words, generated from the badge: (the bold head, the sentence after it)."""
    body = {
        "reproduced": "Every counted test holds: the paper's method passes its criterion and its ablation and "
                      "naive baselines fail it, at 8 or more of the 10 ci seeds.",
        "partial": "Some counted tests hold at 8 or more of the 10 ci seeds, and some do not.",
        "not specific": "The paper's method passes its tests, but so does a comparator without the paper's "
                        "ingredient: in our setting, that ingredient is not needed.",
        "seed-sensitive": "The counted tests hold at some ci seeds and not at others (3 to 7 of 10).",
        "not reproduced": "No counted test holds at 8 or more of the 10 ci seeds.",
        "illustrated, not tested": "This page computes and draws the paper's results; none of its checks is a "
                                   "test that a naive alternative could fail, so none is counted.",
        "post hoc, unconfirmed": "Every test on this page was designed after the page first ran, and none has "
                                 "held on the held-out seeds 10-19 yet, so none is counted; each test's status over "
                                 "the ci seeds is shown beside it.",
        "untested: awaiting comparators": "This page's claims were recorded before the book asked every test "
                                          "for an ablation and a naive baseline; until they have them, none is "
                                          "counted.",
        "awaiting a sweep": "The tests have not been run over the ci seeds on the current inputs yet.",
    }[j.badge]
    return VERDICT_WORDS[j.badge] + ".", f"{body} ({tests_summary(j)}.)"


def verdict_sentence(j: PageJudgement) -> str:
    """The verdict's opening words as markdown: ``**Head.** body``."""
    head, body = verdict_parts(j)
    return f"**{head}** {body}"


def outcome_word(t: TestJudgement) -> str:
    """The status a page's prose may cite for a test (role ``{repro-status}``)."""
    if t.role != "test":
        return {"illustration": "illustration, not counted", "implementation": "implementation check, not counted",
                "timing": "timed, not counted"}[t.role]
    if is_legacy(t.claim):
        return "awaiting comparators"
    word = t.status
    if t.ci is not None:
        word += f", {t.ci.holds} of {t.ci.n} ci seeds"
    if t.claim.get("post_hoc"):
        word += f"; {t.note}" if t.note else ""
    return word


def summary_numbers(j: PageJudgement) -> dict[str, Any]:
    """Numbers for the scoreboard's totals and data attributes."""
    tested, n_headlines = j.headlines_tested()
    return {"badge": j.badge, "reproduced": j.reproduced, "counted": len(j.counted), "tests": len(j.tests()),
            "legacy": j.legacy, "illustrations": j.count("illustration"),
            "implementation": j.count("implementation"), "headlines_tested": tested, "headlines": n_headlines,
            "statuses": j.status_counts()}
