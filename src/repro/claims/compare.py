"""The portability check of ``make test``: a fresh run's record against the committed one.

Exact: slug, scale, seed, the ordered check ids, and per check its role, kind, criterion, rule, declared
tolerance, flags and comparators' labels. Within the check's tolerance: the method's and every comparator's
value. Statuses are compared only where both values lie outside the band around the threshold
(:func:`repro.claims.judge.value_status`), so two runs whose values agree within tolerance can never be
reported as disagreeing on a status; where a value agrees but lands in the band on one run, the page's
verdict cannot rest on it anyway (a value at the edge is never a pass). Wall-clock checks are compared by id only.
"""

from __future__ import annotations

from repro.claims.judge import role_of, rule_of, value_status
from repro.claims.record import comparators_of
from repro.claims.values import tolerance_of

EXACT_FIELDS = ("role", "kind", "criterion", "rule", "tolerance", "post_hoc", "setting", "independent")


def _labels(c: dict) -> list[tuple[str, str, str | None]]:
    return [(kind, comp.get("label"), comp.get("ingredient")) for kind, comp in comparators_of(c)]


def compare_records(committed: dict, fresh: dict) -> list[str]:
    """Differences between a committed record and a fresh run's that CI does not accept (empty: they agree)."""
    diffs = []
    for key in ("schema", "slug", "scale", "seed"):
        if committed.get(key) != fresh.get(key):
            diffs.append(f"{key}: {committed.get(key)!r} -> {fresh.get(key)!r}")
    if committed.get("headlines") != fresh.get("headlines"):
        diffs.append("headline claims differ")
    ids_a = [c["id"] for c in committed["claims"]]
    ids_b = [c["id"] for c in fresh["claims"]]
    if ids_a != ids_b:
        return [*diffs, f"check ids: {ids_a} -> {ids_b}"]
    for a, b in zip(committed["claims"], fresh["claims"]):
        cid = a["id"]
        if role_of(a) == "timing" or role_of(b) == "timing":
            if role_of(a) != role_of(b):
                diffs.append(f"{cid}: role {role_of(a)} -> {role_of(b)}")
            continue
        for key in EXACT_FIELDS:
            if a.get(key) != b.get(key):
                diffs.append(f"{cid}: {key} {a.get(key)!r} -> {b.get(key)!r}")
        if _labels(a) != _labels(b):
            diffs.append(f"{cid}: comparators {_labels(a)} -> {_labels(b)}")
            continue
        if a.get("custom_status") != b.get("custom_status"):
            diffs.append(f"{cid}: status of its custom criterion {a.get('custom_status')!r} -> {b.get('custom_status')!r}")
        tol, rule = tolerance_of(a), rule_of(a)
        pairs = [("method", a.get("measured"), b.get("measured"))]
        pairs += [(f"{kind} {ca.get('label')!r}", ca.get("value"), cb.get("value"))
                  for (kind, ca), (_, cb) in zip(comparators_of(a), comparators_of(b))]
        for what, x, y in pairs:
            if not tol.agree(x, y):
                diffs.append(f"{cid}: {what} {x!r} -> {y!r} (tolerance rel {tol.rel:g}, abs {tol.abs:g})")
                continue
            sx, sy = value_status(rule, x, tol), value_status(rule, y, tol)
            if "edge" not in (sx, sy) and sx != sy:  # cannot happen when they agree (see the module docstring)
                diffs.append(f"{cid}: {what} status {sx} -> {sy}")
    return diffs
