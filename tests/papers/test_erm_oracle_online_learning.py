"""Unit tests of :mod:`repro.papers.erm_oracle_online_learning`, the kernels of ``notebooks/erm-oracle-online-learning.py``."""

import inspect

from repro.papers import erm_oracle_online_learning as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/erm_oracle_online_learning.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"






import functools
import itertools
import math

import numpy as np
import pytest
from scipy.special import comb

RNG = np.random.default_rng(2025)


def game_value(H: np.ndarray) -> int:
    """Optimal deterministic mistake bound by minimax over the online game (Littlestone's theorem: = Ldim)."""
    rows = {tuple(r) for r in np.asarray(H, int)}

    @functools.lru_cache(maxsize=None)
    def value(V: frozenset) -> int:
        if len(V) <= 1:
            return 0
        n = len(next(iter(V)))
        best = 0
        for x in range(n):
            parts = [frozenset(h for h in V if h[x] == y) for y in (0, 1)]
            if all(parts):  # learner picks the prediction minimising the adversary's best continuation
                best = max(best, min(max(value(parts[1 - p]) + 1, value(parts[p])) for p in (0, 1)))
        return best

    return -1 if not rows else value(frozenset(rows))


def shattered_brute(H: np.ndarray) -> int:
    H = np.asarray(H, int)
    if len(H) == 0:
        return -1
    best = 0
    for d in range(1, H.shape[1] + 1):
        for S in itertools.combinations(range(H.shape[1]), d):
            if len({tuple(r) for r in H[:, S]}) == 2**d:
                best = d
    return best


def random_class(m: int, n: int, rng) -> np.ndarray:
    return (rng.random((m, n)) < 0.5).astype(np.uint8)


# ----------------------------------------------------------------------------- the two dimensions
@pytest.mark.parametrize("N", [1, 2, 3, 4, 7, 8, 15, 16, 31, 100])
def test_thresholds_have_ldim_floor_log2_n_plus_1_and_vc_1(N):
    H = K.thresholds(N)
    assert K.littlestone_dimension(H) == int(math.floor(math.log2(N + 1)))
    assert K.vc_dimension(H) == 1


@pytest.mark.parametrize("n", range(0, 8))
def test_full_cube_has_both_dimensions_n(n):
    assert K.littlestone_dimension(K.all_labelings(n)) == n
    assert K.vc_dimension(K.all_labelings(n)) == n


@pytest.mark.parametrize("n", [2, 5, 9])
def test_singletons_have_dimension_one_with_or_without_the_empty_set(n):
    for H in (K.singletons(n), K.singletons(n, with_empty=True)):
        assert K.littlestone_dimension(H) == 1 and K.vc_dimension(H) == 1


def test_single_hypothesis_and_empty_class_and_no_points():
    assert K.littlestone_dimension([[0, 1, 1]]) == 0 and K.vc_dimension([[0, 1, 1]]) == 0
    assert K.littlestone_dimension(np.zeros((0, 4))) == -1 and K.vc_dimension(np.zeros((0, 4))) == -1
    assert K.littlestone_dimension(np.zeros((3, 0))) == 0 and K.vc_dimension(np.zeros((3, 0))) == 0


@pytest.mark.parametrize("N,k", [(6, 1), (8, 1), (6, 2), (7, 3), (3, 2)])
def test_k_intervals_count_and_vc_dimension_min_2k_n(N, k):
    H = K.k_intervals(N, k)
    runs = (np.diff(np.hstack([np.zeros((len(H), 1)), H]), axis=1) == 1).sum(axis=1)
    assert len(H) == len(np.unique(H, axis=0)) == sum(comb(N + 1, 2 * j, exact=True) for j in range(k + 1))
    assert runs.max() <= k
    assert K.vc_dimension(H) == min(2 * k, N)
    assert K.vc_dimension(H) <= K.littlestone_dimension(H)


@pytest.mark.parametrize("seed", range(12))
def test_ldim_equals_the_minimax_mistake_bound_and_vc_the_brute_force_on_random_classes(seed):
    rng = np.random.default_rng(seed)
    H = random_class(int(rng.integers(1, 14)), int(rng.integers(1, 6)), rng)
    ld, vc = K.littlestone_dimension(H), K.vc_dimension(H)
    assert ld == game_value(H)
    assert vc == shattered_brute(H)
    m = len(np.unique(H, axis=0))
    assert vc <= ld <= math.floor(math.log2(m))
    # Sauer-Shelah: |H| <= sum_{i <= d} C(n, i)
    assert m <= sum(comb(H.shape[1], i, exact=True) for i in range(vc + 1))


def test_dimensions_ignore_duplicates_row_order_and_column_permutation():
    H = random_class(10, 6, RNG)
    G = np.vstack([H, H[:3]])[RNG.permutation(13)][:, RNG.permutation(6)]
    assert K.littlestone_dimension(G) == K.littlestone_dimension(H)
    assert K.vc_dimension(G) == K.vc_dimension(H)
    assert K.littlestone_dimension(1 - H) == K.littlestone_dimension(H)  # relabelling 0 <-> 1


@pytest.mark.parametrize("bad,match", [
    (np.zeros(4), "2-d"), (np.zeros((2, 2, 2)), "2-d"), ([[0, 2]], "only the labels"),
    ([[0.5, 1]], "only the labels"), ([[np.nan, 1]], "only the labels"), ([["a", "b"]], "numbers"),
    (np.array([[None, 1]], dtype=object), "numbers")])
def test_bad_classes_are_refused(bad, match):
    for f in (K.littlestone_dimension, K.vc_dimension):
        with pytest.raises(ValueError, match=match):
            f(bad)


def test_bool_and_float_01_classes_are_accepted():
    H = K.thresholds(7)
    assert K.littlestone_dimension(H.astype(bool)) == K.littlestone_dimension(H.astype(float)) == 3


# ----------------------------------------------------------------------------- oracles
def test_weak_consistency_is_erm_loss_zero():
    H = random_class(9, 6, RNG)
    wc, erm = K.WeakConsistencyOracle(H), K.ERMOracle(H)
    for _ in range(40):
        pts = np.sort(RNG.choice(6, size=int(RNG.integers(1, 7)), replace=False))
        lab = RNG.integers(0, 2, size=len(pts))
        w0, w1 = np.zeros(6, int), np.zeros(6, int)
        w0[pts[lab == 0]], w1[pts[lab == 1]] = 1, 1
        assert bool(wc(pts, lab[None, :])[0]) == (erm.losses(w0, w1).min() == 0)
    assert wc.calls == 40


def test_erm_returns_a_minimiser_and_counts_calls_and_tie_breaks():
    H = K.thresholds(5)
    o = K.ERMOracle(H)
    w0, w1 = np.array([1, 0, 0, 0, 0]), np.array([0, 0, 0, 1, 0])  # consistent cuts 1, 2, 3
    cut = {tuple(r): int(np.argmax(np.append(r, 1))) for r in o.H}  # threshold position of each stored row
    first, last = o(w0, w1), K.ERMOracle(H, "last")(w0, w1)
    mins = np.flatnonzero(o.losses(w0, w1) == 0)
    assert sorted(cut[tuple(o.H[i])] for i in mins) == [1, 2, 3]
    assert first == mins[0] and last == mins[-1] and o.losses(w0, w1).min() == 0
    assert K.ERMOracle(H, lambda rows: rows[1])(w0, w1) == mins[1]
    assert o.calls == 1
    with pytest.raises(ValueError, match="does not minimise"):
        K.ERMOracle(H, lambda rows: int(np.argmax(o.losses(w0, w1))))(w0, w1)
    with pytest.raises(ValueError, match="tie_break"):
        K.ERMOracle(H, "random")
    with pytest.raises(ValueError, match="multiplicities"):
        o(-w0, w1)


def test_weak_consistency_bad_queries():
    o = K.WeakConsistencyOracle(K.thresholds(4))
    with pytest.raises(ValueError, match="distinct"):
        o([0, 0], [[0, 1]])
    with pytest.raises(ValueError, match="labels"):
        o([0, 1], [[0, 2]])
    with pytest.raises(ValueError, match="columns"):
        o([0, 9], [[0, 1]])


# ----------------------------------------------------------------------------- learners
@pytest.mark.parametrize("d", [1, 2, 3, 4, 5])
def test_follow_erm_worst_case_is_2_to_the_ldim_minus_1_on_thresholds_and_soa_is_ldim(d):
    H = K.thresholds(2**d - 1)
    T = 2**d + 3
    fe, soa = K.worst_case_online_run(H, "follow-erm", T), K.worst_case_online_run(H, "soa", T)
    assert fe["mistakes"][-1] == 2**d - 1 and fe["calls"][-1] == T
    assert soa["mistakes"][-1] == d and soa["calls"][-1] == 0
    assert np.all(np.diff(fe["mistakes"]) >= 0)


@pytest.mark.parametrize("seed", range(6))
def test_soa_never_exceeds_ldim_on_random_classes(seed):
    rng = np.random.default_rng(seed)
    H = random_class(12, 5, rng)
    assert K.worst_case_online_run(H, "soa", 12)["mistakes"][-1] <= K.littlestone_dimension(H)


def test_number_of_threshold_labelings_is_t_plus_1_and_calls_are_t_times_t_plus_1():
    T = 20
    H = K.on_sequence(K.thresholds(T), RNG.permutation(T))
    L, calls = K.enumerate_realizable_labelings(K.WeakConsistencyOracle(H), T)
    assert len(L) == T + 1
    np.testing.assert_array_equal(calls, [t * (t + 1) for t in range(1, T + 1)])
    assert {tuple(r) for r in L} == {tuple(r) for r in H}


def test_enumeration_matches_the_projection_for_intervals():
    T = 9
    H = K.on_sequence(K.k_intervals(T, 2), RNG.permutation(T))
    L, _ = K.enumerate_realizable_labelings(K.WeakConsistencyOracle(H), 6)
    assert {tuple(r) for r in L} == {tuple(r) for r in H[:, :6]}


@pytest.mark.parametrize("seed", range(5))
def test_halving_makes_at_most_log2_m_mistakes_and_minority_vote_more(seed):
    rng = np.random.default_rng(seed)
    H = random_class(30, 10, rng)
    m = len(np.unique(H, axis=0))
    assert K.halving_run(H) <= math.log2(m)
    assert K.halving_run(H, "minority") >= K.halving_run(H)


@pytest.mark.parametrize("family", ["ascending", "descending", "inward", "random"])
def test_threshold_sequences_are_realizable_and_pivot_learner_is_exactly_consistent(family):
    T = 40
    ranks, y = K.threshold_sequence(T, family, RNG)
    H = K.on_sequence(K.thresholds(T), ranks)
    assert np.any(np.all(H == y[None, :], axis=1))
    res = K.random_pivot_threshold_learner(K.ERMOracle(H), y, np.random.default_rng(1))
    assert 0 <= res["mistakes"] <= T and res["calls"] <= 3 * (res["mistakes"] + 1)
    # unique minimisers: an adversarial tie-break cannot change the run
    adv = K.random_pivot_threshold_learner(K.ERMOracle(H, K.colluding_tie_break(H, y)), y, np.random.default_rng(1))
    assert adv == res


def test_lazy_erm_with_colluding_ties_errs_every_round_on_an_ascending_sequence():
    T = 30
    ranks, y = K.threshold_sequence(T, "ascending", RNG)
    H = K.on_sequence(K.thresholds(T), ranks)
    assert K.lazy_erm_learner(K.ERMOracle(H, K.colluding_tie_break(H, y)), y) == {"mistakes": T, "calls": T}


def test_learner_bad_input():
    H = K.thresholds(4)
    with pytest.raises(ValueError, match="learner"):
        K.worst_case_online_run(H, "halving", 3)
    with pytest.raises(ValueError, match="T must be"):
        K.worst_case_online_run(H, "soa", 0)
    with pytest.raises(ValueError, match="empty"):
        K.worst_case_online_run(np.zeros((0, 3)), "soa", 2)
    with pytest.raises(ValueError, match="family"):
        K.threshold_sequence(5, "zigzag", RNG)
    with pytest.raises(ValueError, match="0/1 vector"):
        K.random_pivot_threshold_learner(K.ERMOracle(H), [0, 1], RNG)
    with pytest.raises(ValueError, match="exceeds"):
        K.enumerate_realizable_labelings(K.WeakConsistencyOracle(H), 9)
    with pytest.raises(ValueError, match="vote"):
        K.halving_run(H, "plurality")
    with pytest.raises(ValueError, match="k must be"):
        K.k_intervals(5, 0)


# ----------------------------------------------------------------------------- comparators of the pivot learner


@pytest.mark.parametrize("family", ["ascending", "descending", "inward", "random"])
@pytest.mark.parametrize("pivot", ["middle", "first"])
def test_deterministic_pivots_are_consistent_draw_nothing_and_ignore_tie_breaks(family, pivot):
    T = 33
    ranks, y = K.threshold_sequence(T, family, np.random.default_rng(4))
    H = K.on_sequence(K.thresholds(T), ranks)
    res = K.random_pivot_threshold_learner(K.ERMOracle(H), y, pivot=pivot)
    assert 0 <= res["mistakes"] <= T and res["calls"] <= 3 * (res["mistakes"] + 1)
    assert res == K.random_pivot_threshold_learner(K.ERMOracle(H, "last"), y, None, pivot)
    assert res == K.random_pivot_threshold_learner(K.ERMOracle(H, K.colluding_tie_break(H, y)), y, pivot=pivot)


def test_middle_pivot_runs_a_binary_search_when_the_sequence_order_is_the_hidden_order():
    for T in (15, 63, 255):
        ranks, y = K.threshold_sequence(T, "ascending", RNG)
        res = K.random_pivot_threshold_learner(K.ERMOracle(K.on_sequence(K.thresholds(T), ranks)), y, pivot="middle")
        assert res["mistakes"] == int(math.log2(T + 1))  # each mistake halves the uncertain block exactly


def test_random_pivot_default_is_unchanged_by_the_pivot_argument():
    T = 50
    ranks, y = K.threshold_sequence(T, "random", np.random.default_rng(9))
    H = K.on_sequence(K.thresholds(T), ranks)
    a = [K.random_pivot_threshold_learner(K.ERMOracle(H), y, np.random.default_rng(3)) for _ in range(3)]
    b = [K.random_pivot_threshold_learner(K.ERMOracle(H), y, np.random.default_rng(3), "random") for _ in range(3)]
    assert a == b


def test_lazy_erm_with_the_oracles_first_row_is_the_rightmost_cut_and_errs_at_every_descending_round():
    T = 20
    ranks, y = K.threshold_sequence(T, "descending", RNG)
    H = K.on_sequence(K.thresholds(T), ranks)
    first = K.ERMOracle(H)(np.zeros(T, int), np.zeros(T, int))
    assert H[first].sum() == 0  # with no data every cut is consistent: the first row is the empty one
    assert K.lazy_erm_learner(K.ERMOracle(H), y) == {"mistakes": T, "calls": T}


@pytest.mark.parametrize("T", [1, 2, 7, 16, 41])
@pytest.mark.parametrize("rule", ["middle", "first", "rightmost", "leftmost"])
def test_order_adversary_gives_a_realizable_permutation(T, rule):
    ranks, y = K.order_adversary_threshold_sequence(T, rule)
    assert sorted(ranks.tolist()) == list(range(T))
    H = K.on_sequence(K.thresholds(T), ranks)
    assert np.any(np.all(H == y[None, :], axis=1))


def test_order_adversary_against_the_extreme_cuts_is_the_ascending_and_descending_family():
    for T in (5, 32):
        for rule, family in (("leftmost", "ascending"), ("rightmost", "descending")):
            a = K.order_adversary_threshold_sequence(T, rule)
            b = K.threshold_sequence(T, family, RNG)
            assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


@pytest.mark.parametrize("T", [4, 5])
@pytest.mark.parametrize("pivot", ["middle", "first"])
def test_order_adversary_reaches_the_brute_force_worst_case_of_the_deterministic_pivot(T, pivot):
    worst = 0
    for perm in itertools.permutations(range(T)):
        ranks = np.array(perm)
        H = K.on_sequence(K.thresholds(T), ranks)
        for theta in range(T + 1):
            y = (ranks >= theta).astype(np.uint8)
            worst = max(worst, K.random_pivot_threshold_learner(K.ERMOracle(H), y, pivot=pivot)["mistakes"])
    ranks, y = K.order_adversary_threshold_sequence(T, pivot)
    got = K.random_pivot_threshold_learner(K.ERMOracle(K.on_sequence(K.thresholds(T), ranks)), y, pivot=pivot)
    assert got["mistakes"] == worst


def test_order_adversary_forces_linear_mistakes_on_its_rule_but_not_on_the_random_pivot():
    T = 128
    for pivot, least in (("middle", T // 2), ("first", T)):
        ranks, y = K.order_adversary_threshold_sequence(T, pivot)
        H = K.on_sequence(K.thresholds(T), ranks)
        assert K.random_pivot_threshold_learner(K.ERMOracle(H), y, pivot=pivot)["mistakes"] >= least
        rng = np.random.default_rng(5)
        mean = np.mean([K.random_pivot_threshold_learner(K.ERMOracle(H), y, rng)["mistakes"] for _ in range(200)])
        assert mean <= 2 * math.log2(T + 1)


@pytest.mark.parametrize("family", ["ascending", "descending", "inward", "random"])
def test_order_then_halving_spends_t_calls_and_errs_like_halving_with_the_class_known(family):
    T = 37
    ranks, y = K.threshold_sequence(T, family, np.random.default_rng(8))
    H = K.on_sequence(K.thresholds(T), ranks)
    res = K.order_then_halving_learner(K.ERMOracle(H), y)
    assert res["calls"] == T
    alive, brute = np.ones(len(H), bool), 0  # halving with the true class, ties to 1
    for t in range(T):
        n1 = int(H[alive, t].sum())
        pred = int(n1 >= alive.sum() - n1)
        brute += pred != y[t]
        alive &= H[:, t] == y[t]
    assert res["mistakes"] == brute <= math.log2(T + 1)


def test_pivot_and_adversary_bad_input():
    H = K.thresholds(4)
    with pytest.raises(ValueError, match="pivot must be"):
        K.random_pivot_threshold_learner(K.ERMOracle(H), [0, 0, 1, 1], pivot="median")
    with pytest.raises(ValueError, match="needs rng"):
        K.random_pivot_threshold_learner(K.ERMOracle(H), [0, 0, 1, 1])
    with pytest.raises(ValueError, match="rule must be"):
        K.order_adversary_threshold_sequence(5, "random")
    with pytest.raises(ValueError, match="T must be"):
        K.order_adversary_threshold_sequence(0, "middle")
    with pytest.raises(ValueError, match="0/1 vector"):
        K.order_then_halving_learner(K.ERMOracle(H), [0, 1])


# ----------------------------------------------------------------------------- the review's baselines and exact games
def test_last_pivot_is_consistent_draws_nothing_and_ignores_tie_breaks():
    for family in ("ascending", "descending", "inward", "random"):
        T = 33
        ranks, y = K.threshold_sequence(T, family, np.random.default_rng(4))
        H = K.on_sequence(K.thresholds(T), ranks)
        res = K.random_pivot_threshold_learner(K.ERMOracle(H), y, pivot="last")
        assert 0 <= res["mistakes"] <= T and 2 * res["mistakes"] <= res["calls"] <= 3 * (res["mistakes"] + 1)
        assert res == K.random_pivot_threshold_learner(K.ERMOracle(H, K.colluding_tie_break(H, y)), y, pivot="last")


def test_last_pivot_plays_the_cut_at_the_last_uncertain_point():
    # ascending order, all labels 0: the last uncertain point has the highest rank, so the cut there errs only
    # at that point, the last round: one mistake
    T = 20
    ranks, y = K.threshold_sequence(T, "ascending", RNG)
    res = K.random_pivot_threshold_learner(K.ERMOracle(K.on_sequence(K.thresholds(T), ranks)), y, pivot="last")
    assert res["mistakes"] == 1


@pytest.mark.parametrize("family", ["ascending", "descending", "inward", "random"])
def test_calls_lie_between_two_and_three_per_round_of_the_pivot_learner(family):
    # each round (the start and every mistake) makes 2 or 3 calls: calls in [2(m+1), 3(m+1)], or 2m..3m when the
    # last round is a mistake and no round follows it
    T = 64
    rng = np.random.default_rng(11)
    for _ in range(20):
        ranks, y = K.threshold_sequence(T, family, rng)
        H = K.on_sequence(K.thresholds(T), ranks)
        for pivot in ("random", "middle", "last"):
            res = K.random_pivot_threshold_learner(K.ERMOracle(H), y, rng, pivot)
            m, c = res["mistakes"], res["calls"]
            assert 2 * m <= c <= 3 * (m + 1)


@pytest.mark.parametrize("family", ["ascending", "descending", "inward", "random"])
def test_random_labels_erm_is_consistent_and_makes_one_call_per_mistake(family):
    T = 50
    ranks, y = K.threshold_sequence(T, family, np.random.default_rng(2))
    H = K.on_sequence(K.thresholds(T), ranks)
    rng = np.random.default_rng(6)
    for _ in range(10):
        o = K.ERMOracle(H)
        res = K.random_labels_erm_learner(o, y, rng)
        assert res["mistakes"] <= res["calls"] <= res["mistakes"] + 1 and o.calls == res["calls"]


class RecordingOracle(K.ERMOracle):
    """An ERM oracle that keeps every sample it was given and the row it answered."""

    def __init__(self, H):
        super().__init__(H)
        self.log = []

    def __call__(self, w0, w1):
        i = super().__call__(w0, w1)
        self.log.append((np.array(w0), np.array(w1), i))
        return i


def test_random_labels_erm_answers_are_consistent_with_the_history():
    # on random classes every answer agrees with every example repeated T+1 times (the history), whatever the noise
    rng = np.random.default_rng(3)
    for _ in range(10):
        H = K.as_class(random_class(40, 9, rng))
        y = H[int(rng.integers(len(H)))]
        oracle = RecordingOracle(H)
        res = K.random_labels_erm_learner(oracle, y, rng)
        assert len(oracle.log) == res["calls"] >= 1
        for w0, w1, i in oracle.log:
            h = oracle.H[i]
            assert np.all(h[w0 >= 10] == 0) and np.all(h[w1 >= 10] == 1)
            assert set(np.unique(w0 + w1)) <= {1, 10, 11}  # one noisy example per point, history weight T+1 = 10


def test_random_labels_erm_beats_the_descending_family_that_defeats_lazy_erm():
    T = 128
    ranks, y = K.threshold_sequence(T, "descending", RNG)
    H = K.on_sequence(K.thresholds(T), ranks)
    rng = np.random.default_rng(1)
    mean = np.mean([K.random_labels_erm_learner(K.ERMOracle(H), y, rng)["mistakes"] for _ in range(100)])
    assert mean <= 2 * math.log2(T + 1)
    assert K.lazy_erm_learner(K.ERMOracle(H), y)["mistakes"] == T


def test_random_labels_erm_bad_input():
    H = K.thresholds(4)
    with pytest.raises(ValueError, match="needs rng"):
        K.random_labels_erm_learner(K.ERMOracle(H), [0, 0, 1, 1], None)
    with pytest.raises(ValueError, match="0/1 vector"):
        K.random_labels_erm_learner(K.ERMOracle(H), [0, 1], RNG)


@pytest.mark.parametrize("T", [4, 5])
def test_order_adversary_against_the_last_pivot_reaches_its_brute_force_worst_case(T):
    worst = 0
    for perm in itertools.permutations(range(T)):
        ranks = np.array(perm)
        H = K.on_sequence(K.thresholds(T), ranks)
        for theta in range(T + 1):
            y = (ranks >= theta).astype(np.uint8)
            worst = max(worst, K.random_pivot_threshold_learner(K.ERMOracle(H), y, pivot="last")["mistakes"])
    ranks, y = K.order_adversary_threshold_sequence(T, "last")
    assert sorted(ranks.tolist()) == list(range(T))
    got = K.random_pivot_threshold_learner(K.ERMOracle(K.on_sequence(K.thresholds(T), ranks)), y, pivot="last")
    assert got["mistakes"] == worst


def test_each_deterministic_pivot_fails_only_on_the_order_built_against_it():
    T = 128
    for target in ("middle", "last"):
        ranks, y = K.order_adversary_threshold_sequence(T, target)
        H = K.on_sequence(K.thresholds(T), ranks)
        for pivot in ("middle", "last"):
            m = K.random_pivot_threshold_learner(K.ERMOracle(H), y, pivot=pivot)["mistakes"]
            if pivot == target:
                assert m >= T // 2
            else:
                assert m <= 2 * math.log2(T + 1)


def game_brute(L: np.ndarray) -> tuple[int, int]:
    """Optimal and halving worst-case transductive mistakes by plain recursion over frozensets (no shortcuts)."""
    rows = frozenset(tuple(int(v) for v in r) for r in L)
    T = L.shape[1]

    @functools.lru_cache(maxsize=None)
    def rec(V: frozenset, t: int) -> tuple[int, int]:
        if t == T:
            return 0, 0
        parts = {y: frozenset(h for h in V if h[t] == y) for y in (0, 1)}
        opt_by_pred, halv = [], None
        for pred in (0, 1):
            worst = max((int(y != pred) + rec(parts[y], t + 1)[0]) for y in (0, 1) if parts[y])
            opt_by_pred.append(worst)
        maj = int(len(parts[1]) >= len(parts[0]))
        halv = max((int(y != maj) + rec(parts[y], t + 1)[1]) for y in (0, 1) if parts[y])
        return min(opt_by_pred), halv

    return rec(rows, 0)


@pytest.mark.parametrize("seed", range(10))
def test_transductive_game_values_match_a_brute_force_minimax_on_random_classes(seed):
    rng = np.random.default_rng(100 + seed)
    L = random_class(int(rng.integers(1, 20)), int(rng.integers(1, 7)), rng)
    v = K.transductive_game_values(L)
    opt, halv = game_brute(K.as_class(L))
    assert (v["optimal"], v["halving"]) == (opt, halv)
    m = len(K.as_class(L))
    assert v["optimal"] <= v["halving"] <= math.floor(math.log2(m))
    assert v["optimal"] <= K.littlestone_dimension(L)
    assert K.halving_run(L) <= v["halving"]  # the greedy adversary reaches at most the exact worst case


def test_transductive_game_values_on_classes_with_known_values():
    assert K.transductive_game_values(K.all_labelings(5)) == {"optimal": 5, "halving": 5}
    assert K.transductive_game_values(K.singletons(9, with_empty=True)) == {"optimal": 1, "halving": 1}
    assert K.transductive_game_values(K.thresholds(30)) == {"optimal": 1, "halving": 1}  # ascending: 0..0 1..1
    assert K.transductive_game_values([[0, 1, 1]]) == {"optimal": 0, "halving": 0}
    with pytest.raises(ValueError, match="no realizable"):
        K.transductive_game_values(np.zeros((0, 3)))


def test_follow_erm_tracks_the_size_of_the_class_not_its_littlestone_dimension():
    for n in (7, 15, 31):
        H = K.singletons(n, with_empty=True)  # d_LD = 1, |H| = n + 1
        fe, soa = K.worst_case_online_run(H, "follow-erm", n + 5), K.worst_case_online_run(H, "soa", n + 5)
        assert fe["mistakes"][-1] == len(H) - 1 and soa["mistakes"][-1] == 1
