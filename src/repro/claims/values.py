"""Recorded values, their tolerances and the criteria they are judged by (shared by the recorder and the judge).

A criterion is data: its text for readers and a *rule* (``{"op": "at_least", "value": 1.5, "partial": None}``)
that :mod:`repro.claims.judge` evaluates from the record at build time. A value is recorded at 4 significant
digits, or as the bound ``"< abs"`` where its digits are noise (see :class:`Tolerance`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Union

Measured = Union[float, int, str, bool]
OPS = ("at_least", "at_most", "greater_than", "less_than", "between", "is_true", "custom")
DEFAULT_TOL_REL = 1e-6
DEFAULT_TOL_ABS = 1e-12
BOUND_ABS_MAX = 1e-6  # absolute tolerances up to this bound the values below them by default


def round_sig(x: float, digits: int = 4) -> float:
    """Round ``x`` to ``digits`` significant digits (0, inf and nan are returned as they are)."""
    if x == 0 or not math.isfinite(x):
        return float(x)
    return float(f"{x:.{digits}g}")


def format_measured(x: Measured | None) -> str:
    """The rounded text of a recorded value, as tables print it (3 significant digits)."""
    if x is None:
        return "–"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        return f"{x:.3g}"
    return str(x)


# ---------- criteria ----------


@dataclass(frozen=True)
class Criterion:
    """A pass rule fixed before the run: its text, and its rule as data (``op``, ``value``, ``hi``, ``partial``).

    ``op="custom"`` is a rule given only as a Python function (``evaluate``); the judge cannot re-evaluate it
    from a record, so the recorder stores the status it gave. New pages use the constructors below.
    """

    text: str
    op: str | Callable[[Measured], str] = "custom"
    value: float | None = None
    hi: float | None = None
    partial: float | None = None
    evaluate: Callable[[Measured], str] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if callable(self.op):  # the old form Criterion(text, evaluate)
            object.__setattr__(self, "evaluate", self.op)
            object.__setattr__(self, "op", "custom")
        if self.op not in OPS:
            raise ValueError(f"criterion op must be one of {OPS}; got {self.op!r}")
        if self.op == "custom" and self.evaluate is None:
            raise ValueError("a custom criterion needs its evaluate function")

    @property
    def rule(self) -> dict:
        """The rule as recorded (``op`` and its thresholds)."""
        return {"op": self.op, "value": self.value, "hi": self.hi, "partial": self.partial}

    def __call__(self, measured: Measured) -> str:
        """The raw status of ``measured``, without any tolerance band ("reproduced", "partial", "not reproduced")."""
        if self.evaluate is not None:
            return self.evaluate(measured)
        return raw_status(self.rule, measured)


def _num(x: Measured) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"this criterion needs a number, got {x!r}")
    return float(x)


def raw_status(rule: dict, x: Measured) -> str:
    """Status of a value under a rule, exactly at its thresholds (no band): for the rule's own tests and tables."""
    op, v, hi, partial = rule["op"], rule.get("value"), rule.get("hi"), rule.get("partial")
    if op == "is_true":
        return "reproduced" if x is True else "not reproduced"
    if op == "custom":
        raise ValueError("a custom rule has no data form")
    x = _num(x)
    if not math.isfinite(x):
        return "not reproduced"
    ok = {"at_least": x >= v, "at_most": x <= v, "greater_than": x > v, "less_than": x < v,
          "between": v <= x <= (hi if hi is not None else v)}[op]
    if ok:
        return "reproduced"
    if partial is not None and ((op in ("at_least", "greater_than") and x >= partial)
                                or (op in ("at_most", "less_than") and x <= partial)):
        return "partial"
    return "not reproduced"


def _finite(x: float, name: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        raise ValueError(f"{name} must be a finite number; got {x!r}")
    return float(x)


def at_least(lo: float, partial: float | None = None) -> Criterion:
    """``measured >= lo``; ``partial`` if only ``measured >= partial``."""
    lo = _finite(lo, "lo")
    text = f">= {lo:g}" + (f" (partial >= {partial:g})" if partial is not None else "")
    return Criterion(text, "at_least", lo, partial=None if partial is None else _finite(partial, "partial"))


def at_most(hi: float, partial: float | None = None) -> Criterion:
    """``measured <= hi``; ``partial`` if only ``measured <= partial``."""
    hi = _finite(hi, "hi")
    text = f"<= {hi:g}" + (f" (partial <= {partial:g})" if partial is not None else "")
    return Criterion(text, "at_most", hi, partial=None if partial is None else _finite(partial, "partial"))


def greater_than(lo: float) -> Criterion:
    """``measured > lo``."""
    return Criterion(f"> {_finite(lo, 'lo'):g}", "greater_than", float(lo))


def less_than(hi: float) -> Criterion:
    """``measured < hi``."""
    return Criterion(f"< {_finite(hi, 'hi'):g}", "less_than", float(hi))


def between(lo: float, hi: float) -> Criterion:
    """``lo <= measured <= hi``."""
    lo, hi = _finite(lo, "lo"), _finite(hi, "hi")
    if lo > hi:
        raise ValueError(f"between needs lo <= hi; got {lo} > {hi}")
    return Criterion(f"in [{lo:g}, {hi:g}]", "between", lo, hi)


def is_true(text: str = "holds") -> Criterion:
    """A yes/no claim: ``measured`` must be ``True``."""
    return Criterion(text, "is_true")


def fraction_at_least(lo: float, partial: float | None = None) -> Criterion:
    """For a fraction in [0, 1] (e.g. of seeds or cases where something holds)."""
    return at_least(lo, partial)


# ---------- tolerances ----------


@dataclass(frozen=True)
class Tolerance:
    """How closely a measured value must repeat across machines and runs (never a pass threshold).

    Two values ``a``, ``b`` agree when ``|a - b| <= abs + rel * max(|a|, |b|)``. The default is for exact
    computations; a wider one (a value that comes out of training or of an iteration whose stopping point can
    move) must say why. The same width, taken at the threshold, is the *band* in which the judge calls a value
    "at the edge" (:func:`repro.claims.judge.value_status`).

    ``bound``: whether a value below ``abs`` is recorded as the bound ``"< abs"`` (its digits are noise: a
    solver or machine-precision error). By default (``None``) only small absolute tolerances (``abs <= 1e-6``)
    bound; a coarse one (say ``abs=0.05`` on an accuracy difference) keeps the value, shown as ``~value``.
    """

    rel: float = DEFAULT_TOL_REL
    abs: float = DEFAULT_TOL_ABS
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

    def slack(self, a: float, b: float) -> float:
        """``abs + rel * max(|a|, |b|)``: how far apart two values may be and still agree."""
        return self.abs + self.rel * max(abs(a), abs(b))

    def agree(self, a: Measured | None, b: Measured | None) -> bool:
        """Whether two recorded values agree (bounds ``"< B"`` are read as ``|x| <= B``)."""
        if isinstance(a, bool) or isinstance(b, bool):
            return type(a) is type(b) and a == b
        if isinstance(a, str) and isinstance(b, str):
            return a == b
        fa, fb = bound_or_value(a), bound_or_value(b)
        if fa is None or fb is None:
            return a == b
        (xa, bound_a), (xb, bound_b) = fa, fb
        if not (math.isfinite(xa) and math.isfinite(xb)):
            return xa == xb or (math.isnan(xa) and math.isnan(xb))
        slack = self.slack(xa, xb)
        if bound_a or bound_b:  # |x| < B: agree when the other side is within B too
            return max(abs(xa), abs(xb)) <= max(xa if bound_a else 0, xb if bound_b else 0) + slack
        return abs(xa - xb) <= slack

    def as_dict(self) -> dict:
        return {"rel": self.rel, "abs": self.abs, "why": self.why, "bound": self.bounds_small_values}


EXACT = Tolerance()


def tolerance(
    rel: float = DEFAULT_TOL_REL, abs: float = DEFAULT_TOL_ABS, why: str = "", bound: bool | None = None  # noqa: A002
) -> Tolerance:
    """A declared repeatability tolerance (see :class:`Tolerance`); ``why`` is required when wider than default."""
    return Tolerance(rel=rel, abs=abs, why=why, bound=bound)


def tolerance_of(c: dict) -> Tolerance:
    """The :class:`Tolerance` a recorded claim declares (the default where it declares none)."""
    t = c.get("tolerance")
    return Tolerance(**t) if t else EXACT


def bound_or_value(x: Measured | None) -> tuple[float, bool] | None:
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
    if hasattr(x, "item") and not isinstance(x, (str, bool)):  # a numpy scalar
        x = x.item()
    if isinstance(x, float):
        if math.isfinite(x) and abs(x) < tol.abs and tol.bounds_small_values:
            return f"< {tol.abs:g}"
        return round_sig(x)
    if not isinstance(x, (int, str, bool)):
        raise TypeError(f"a recorded value is a number, a bool or a short text; got {type(x).__name__}")
    return x


def shown_value(x: Measured | None, tol: Tolerance) -> str:
    """The text of a recorded value at its declared precision; ``~`` marks a value that may move in its last digits."""
    if isinstance(x, str) and x.startswith("< "):
        return x
    text = format_measured(x)
    if tol.is_wide and isinstance(x, (int, float)) and not isinstance(x, bool):
        return "~" + text
    return text
