"""Claims a skeptic accepts: what a page records, and how the book judges it.

The rule is ``../shared/evidence-rubric.md`` (see ``CONTRIBUTING.md``). Every check on a page has a *role*:

``test`` (counted)
    A measurement of the paper's method that could have come out otherwise, recorded with
    :meth:`Claims.test` beside, under the same measurement and criterion, its **ablation** (the method without
    the ingredient the test is about, named) and at least one **naive baseline** (the strongest a skeptic would
    try, using none of the paper's ideas). A theorem test instead names the independent computation that could
    refute it (exhaustive search, an LP, brute force, Monte Carlo where the bound is tight) and a deliberately
    wrong input.
``illustration`` (shown, never counted)
    The paper's mathematics, our own derivation, a closed form at preset sizes, a classical or prior-work
    result: :meth:`Claims.illustrate`, with why it cannot fail as a test.
``implementation`` (shown apart, never counted)
    An identity of our own code against a closed form, a solver or the official code:
    ``check(..., kind="implementation")``; most belong in the unit tests or the golden file.
``timing`` (shown in an unchecked cell, never compared)
    A wall-clock value: ``check(..., volatile=True)``.

Measurement apart from judgement: the notebook records raw values only (:mod:`repro.claims.record`, the one
part of this package a notebook imports); statuses, page verdicts, cards and the scoreboard are computed from
the records and the sweep records by :mod:`repro.claims.judge` when the book is built, so that a change of the
rules re-judges every page without re-executing any. :mod:`repro.claims.compare` is the portability check of
``make test``: raw values within their declared tolerances, statuses only where both values lie outside the
band around the threshold.

Usage in a notebook::

    claims = Claims("cost-sensitive-freeze-thaw-bo", title=..., scale=scale, seed=seed)
    claims.headline("stops-itself", "CFBO ends the search by itself near the best trade-off",
                    tests=["stops-near-utility-peak"])
    claims.test("beats-threshold-stop", statement=..., paper=..., criterion=greater_than(0.0), measured=gap,
                ablation=Comparator("CFBO without its stopping rule", gap_no_stop, ingredient="the stopping rule"),
                baselines=[Comparator("stop after one epoch of a random configuration", gap_one_epoch)],
                tol=tolerance(abs=0.02, why="argmax decisions on Monte Carlo acquisition values"))
    claims.illustrate("alpha-zero-never-stops", ..., why="an identity of the rule: U_now = u_max and p* = 1")
    ...
    claims.save(); claims.table()   # the checked cell (tag nbval-check-output): measurements only
"""

from repro.claims.record import SCHEMA, Claims, Comparator, claims_dir, comparators_of, text_table
from repro.claims.values import (
    EXACT,
    Criterion,
    Measured,
    Tolerance,
    at_least,
    at_most,
    between,
    bound_or_value,
    format_measured,
    fraction_at_least,
    greater_than,
    is_true,
    less_than,
    recorded_value,
    round_sig,
    shown_value,
    tolerance,
    tolerance_of,
)

__all__ = ["EXACT", "SCHEMA", "Claims", "Comparator", "Criterion", "Measured", "Tolerance", "at_least", "at_most",
           "between", "bound_or_value", "claims_dir", "comparators_of", "format_measured", "fraction_at_least",
           "greater_than", "is_true", "less_than", "recorded_value", "round_sig", "shown_value", "text_table",
           "tolerance", "tolerance_of"]
