"""Unit tests of :mod:`repro.papers.bnc_policy_generalization`, the kernels of ``notebooks/bnc-policy-generalization.py``."""

import inspect
import itertools
import math

import numpy as np
import pytest

from repro.papers import bnc_policy_generalization as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/bnc_policy_generalization.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def brute_force(c, A, b):
    """Optimum of min c x, A x <= b, x binary, by enumerating all 2^n points."""
    X = np.array(list(itertools.product([0.0, 1.0], repeat=c.size)))
    ok = np.all(X @ A.T <= b + 1e-12, axis=1)
    return (X[ok] @ c).min() if ok.any() else math.inf


# ----------------------------------------------------------------------------- branch and bound
@pytest.mark.parametrize("seed", range(6))
def test_branch_and_bound_matches_brute_force_on_small_knapsacks(seed):
    rng = np.random.default_rng(seed)
    c, A, b = K.random_knapsack(10, 1 + seed % 3, rng, correlation=seed / 5)
    for mu in (0.0, 0.5, 1.0):
        x, obj, n_nodes = K.branch_and_bound(c, A, b, K.linear_policy(mu))
        assert obj == pytest.approx(brute_force(c, A, b), rel=1e-9)
        assert np.all(A @ x <= b + 1e-9) and obj == pytest.approx(c @ x) and n_nodes >= 1
        assert set(np.unique(x)) <= {0.0, 1.0}


def test_branch_and_bound_matches_scipy_milp_at_n15_and_on_covering_constraints():
    rng = np.random.default_rng(7)
    c, A, b = K.random_knapsack(15, 3, rng)
    _, obj, _ = K.branch_and_bound(c, A, b, K.linear_policy(0.3))
    assert obj == pytest.approx(K.milp_optimum(c, A, b), rel=1e-9)
    # a set-cover style program (A x >= 1 written as -A x <= -1, positive costs): general signs, HiGHS path
    cover = (rng.uniform(size=(6, 9)) < 0.4).astype(float)
    cover[np.arange(6), rng.integers(0, 9, 6)] = 1.0
    cost = rng.uniform(1, 3, 9)
    x, obj, _ = K.branch_and_bound(cost, -cover, -np.ones(6), K.linear_policy(0.5))
    assert obj == pytest.approx(brute_force(cost, -cover, -np.ones(6)), rel=1e-9)
    assert np.all(cover @ x >= 1)


def test_infeasible_problem_returns_none_and_inf():
    A = np.array([[1.0, 1.0], [-1.0, -1.0]])
    b = np.array([0.5, -1.5])  # x1 + x2 <= 0.5 and x1 + x2 >= 1.5
    x, obj, n_nodes = K.branch_and_bound(np.array([1.0, 1.0]), A, b, K.linear_policy(0.5))
    assert x is None and obj == math.inf and n_nodes == 1
    assert K.milp_optimum(np.array([1.0, 1.0]), A, b) == math.inf
    # LP-feasible but integer-infeasible: 2 x1 = 1
    A2 = np.array([[2.0], [-2.0]])
    x, obj, n_nodes = K.branch_and_bound(np.array([1.0]), A2, np.array([1.0, -1.0]), K.linear_policy(0.0))
    assert x is None and obj == math.inf and n_nodes == 3


def test_tree_size_is_invariant_to_positive_scaling_of_scores():
    rng = np.random.default_rng(3)
    c, A, b = K.random_knapsack(11, 2, rng)
    for mu in (0.2, 0.8):
        base = K.branch_and_bound(c, A, b, K.linear_policy(mu))[2]
        scaled = K.branch_and_bound(c, A, b, lambda f, mu=mu: 7.5 * K.linear_score(mu, f) + 0.0)[2]
        assert base == scaled


def test_exact_profile_equals_branch_and_bound_off_the_breakpoints():
    rng = np.random.default_rng(11)
    for _ in range(3):
        c, A, b = K.random_knapsack(10, 2, rng)
        lp = K.CachedLP(c, A, b)
        edges, sizes = K.tree_size_profile(c, A, b, K.milp_optimum(c, A, b), lp=lp)
        assert edges[0] == 0 and edges[-1] == 1 and np.all(np.diff(edges) > 0) and np.all(sizes % 2 == 1)
        mids = 0.5 * (edges[:-1] + edges[1:])
        for mu, s in zip(mids, sizes):
            assert K.branch_and_bound(c, A, b, K.linear_policy(float(mu)), lp=lp)[2] == s


def test_policy_errors_are_clear():
    c, A, b = K.random_knapsack(6, 2, np.random.default_rng(0))
    with pytest.raises(ValueError, match="callable"):
        K.branch_and_bound(c, A, b, 0.5)
    with pytest.raises(ValueError, match="shape"):
        K.branch_and_bound(c, A, b, lambda f: np.zeros(f.shape[0] + 1))
    with pytest.raises(ValueError, match="A_ub must have shape"):
        K.branch_and_bound(c, A[:, :3], b, K.linear_policy(0.5))
    with pytest.raises(ValueError, match="b_ub"):
        K.branch_and_bound(c, A, b[:1], K.linear_policy(0.5))
    with pytest.raises(ValueError, match="mu"):
        K.linear_policy(1.5)
    with pytest.raises(RuntimeError, match="max_nodes"):
        K.branch_and_bound(*K.random_knapsack(12, 2, np.random.default_rng(1)), K.linear_policy(0.5), max_nodes=3)


# ----------------------------------------------------------------------------- LP relaxations
def test_dual_lp_relaxation_agrees_with_highs_on_random_nodes():
    rng = np.random.default_rng(5)
    for _ in range(150):
        n, m = int(rng.integers(2, 13)), int(rng.integers(1, 4))
        c, A, b = K.random_knapsack(n, m, rng, rng.uniform())
        lb, ub = np.zeros(n), np.ones(n)
        fix = rng.choice(n, int(rng.integers(0, n)), replace=False)
        lb[fix] = ub[fix] = rng.integers(0, 2, fix.size)
        fast = K.dual_lp_relaxation(c, A, b, lb, ub)
        ref = K.lp_relaxation(c, A, b, lb, ub)
        assert fast is not None
        if ref[1] is None:
            assert fast[1] is None and fast[0] == math.inf
        else:
            assert fast[0] == pytest.approx(ref[0], rel=1e-9, abs=1e-9)


def test_dual_lp_relaxation_declines_non_packing_data_and_lp_checks_bounds():
    assert K.dual_lp_relaxation(np.array([1.0]), np.array([[-1.0]]), np.array([-0.5]), [0.0], [1.0]) is None
    with pytest.raises(ValueError, match="lb <= ub"):
        K.lp_relaxation(np.array([1.0]), np.array([[1.0]]), np.array([1.0]), [1.0], [0.0])


# ----------------------------------------------------------------------------- scores and profiles
def test_linear_score_closed_form_and_features():
    f = np.array([[1.0, 0.2], [0.4, 1.0]])
    np.testing.assert_allclose(K.linear_score(0.25, f), [0.25 + 0.15, 0.1 + 0.75])
    feats = K.branching_features(np.array([0.5, 0.9, 0.0]), np.array([-4.0, -1.0, -3.0]),
                                 np.array([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]), [0, 1])
    np.testing.assert_allclose(feats, [[1.0, 1.0], [0.2, 0.25]])
    with pytest.raises(ValueError, match=r"\(k, 2\)"):
        K.linear_score(0.5, np.ones(3))


def test_argmax_pieces_on_two_crossing_lines():
    feats = np.array([[1.0, 0.0], [0.0, 1.0]])  # scores mu and 1 - mu cross at 0.5
    assert K._argmax_pieces(feats, 0.0, 1.0) == [(0.0, 0.5, 1), (0.5, 1.0, 0)]


def test_count_breakpoints_is_exact_on_step_functions_and_profile_on_grid():
    edges = np.array([0.0, 0.3, 0.31, 0.7, 1.0])
    sizes = np.array([5, 9, 5, 7])
    grid = np.linspace(0, 1, 1001)
    prof = K.profile_on_grid(edges, sizes, grid)
    assert K.count_breakpoints(prof) == 3
    assert K.count_breakpoints(K.profile_on_grid(edges, sizes, np.linspace(0.05, 0.95, 10))) == 1  # 0.3-0.31 missed
    np.testing.assert_array_equal(K.count_breakpoints(np.array([[1, 1, 2], [3, 3, 3]])), [1, 0])
    with pytest.raises(ValueError, match="increasing"):
        K.profile_on_grid(edges[::-1], sizes, grid)


def test_distinct_cost_vectors_never_exceed_one_plus_total_breakpoints():
    rng = np.random.default_rng(2)
    grid = np.linspace(0, 1, 401)
    C = np.array([K.profile_on_grid(np.r_[0, np.sort(rng.uniform(size=4)), 1], rng.integers(1, 9, 5), grid)
                  for _ in range(6)])
    assert K.distinct_cost_vectors(C) <= 1 + K.count_breakpoints(C).sum()


def test_gaps_erm_and_bounds():
    train = np.array([[3.0, 1.0, 2.0], [5.0, 1.0, 4.0]])
    test = np.array([[4.0, 2.0, 2.0]])
    assert K.uniform_gap(train, test) == pytest.approx(1.0)
    # per-instance class: max(mean(max train) - mean(min test), max test - mean(min train)) = max(4 - 2, 4 - 1)
    assert K.per_instance_gap(train, test) == pytest.approx(3.0)
    assert K.per_instance_gap(train, test) >= K.uniform_gap(train, test)
    assert K.erm_select(train, np.array([0.0, 0.5, 1.0])) == 0.5
    assert K.pdim_upper_bound(0) == 0 and K.pdim_upper_bound(1) == 1 and K.pdim_upper_bound(10) == 5
    bound = K.uniform_convergence_bound(np.array([4, 16, 64]), 2, 10.0)
    assert np.all(np.diff(bound) < 0)
    with pytest.raises(ValueError):
        K.uniform_gap(train, test[:, :2])
    with pytest.raises(ValueError):
        K.uniform_convergence_bound(np.array([1]), 2, 1.0)


def test_random_knapsack_shapes_and_bad_input():
    c, A, b = K.random_knapsack(7, 3, np.random.default_rng(0))
    assert c.shape == (7,) and A.shape == (3, 7) and b.shape == (3,) and np.all(c < 0) and np.all(A >= 1)
    np.testing.assert_allclose(b, A.sum(axis=1) / 2)
    with pytest.raises(ValueError, match="n must"):
        K.random_knapsack(1, 2, np.random.default_rng(0))
    with pytest.raises(ValueError, match="correlation"):
        K.random_knapsack(5, 2, np.random.default_rng(0), correlation=2.0)


# ----------------------------------------------------------------------------- the uniform-gap test's comparators
def _random_profiles(rng, count):
    return [(np.r_[0.0, np.sort(rng.uniform(size=3)), 1.0], rng.integers(1, 30, 4)) for _ in range(count)]


def test_exact_uniform_gap_bounds_every_grid_and_matches_a_fine_grid():
    rng = np.random.default_rng(4)
    train, test = _random_profiles(rng, 5), _random_profiles(rng, 4)
    exact = K.exact_uniform_gap(train, test)
    for grid in (np.linspace(0, 1, 11), np.linspace(0, 1, 201), rng.uniform(size=50).cumsum() / 51):
        a = np.array([K.profile_on_grid(e, s, grid) for e, s in train])
        b = np.array([K.profile_on_grid(e, s, grid) for e, s in test])
        assert K.uniform_gap(a, b) <= exact + 1e-12
    fine = np.linspace(0, 1, 200_001)
    a = np.array([K.profile_on_grid(e, s, fine) for e, s in train])
    b = np.array([K.profile_on_grid(e, s, fine) for e, s in test])
    assert K.uniform_gap(a, b) == pytest.approx(exact)
    # a closed form: one train profile (2 until 0.5, then 6) against a constant test profile 3
    assert K.exact_uniform_gap([(np.array([0, 0.5, 1.0]), np.array([2, 6]))], [(np.array([0, 1.0]), np.array([3]))]) == 3
    with pytest.raises(ValueError, match="non-empty"):
        K.exact_uniform_gap([], test)
    with pytest.raises(ValueError, match="cover"):
        K.exact_uniform_gap([(np.array([0.2, 1.0]), np.array([1]))], test)


def test_random_policy_costs_draw_each_piece_with_its_length():
    prof = (np.array([0.0, 0.3, 1.0]), np.array([5, 9]))
    C = K.random_policy_costs([prof, (np.array([0.0, 1.0]), np.array([7]))], 20_000, np.random.default_rng(0))
    assert C.shape == (2, 20_000) and set(np.unique(C[0])) == {5, 9} and np.all(C[1] == 7)
    assert np.mean(C[0] == 5) == pytest.approx(0.3, abs=0.015)
    again = K.random_policy_costs([prof], 10, np.random.default_rng(1))
    np.testing.assert_array_equal(again, K.random_policy_costs([prof], 10, np.random.default_rng(1)))
    with pytest.raises(ValueError, match="n_policies"):
        K.random_policy_costs([prof], 0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="non-empty"):
        K.random_policy_costs([], 3, np.random.default_rng(0))
    with pytest.raises(ValueError, match="increasing"):
        K.random_policy_costs([(np.array([0.0, 1.0]), np.array([1, 2]))], 3, np.random.default_rng(0))


def test_enumerate_optimum_matches_brute_force_and_milp():
    rng = np.random.default_rng(9)
    for n, m in ((6, 1), (10, 2), (12, 3)):
        c, A, b = K.random_knapsack(n, m, rng)
        z = K.enumerate_optimum(c, A, b)
        assert z == pytest.approx(brute_force(c, A, b), rel=1e-12)
        assert z == pytest.approx(K.milp_optimum(c, A, b), rel=1e-9)
    assert K.enumerate_optimum(np.array([1.0, 1.0]), np.array([[-1.0, -1.0]]), np.array([-3.0])) == math.inf
    with pytest.raises(ValueError, match="refused"):
        K.enumerate_optimum(np.ones(17), np.ones((1, 17)), np.ones(1))


def test_milp_optimum_is_proven_optimal_where_highs_default_gap_stops_early():
    # full scale, seed 2, training draw 154 (n = 12): HiGHS at its default relative gap 1e-4 returned -57.2695
    rng = np.random.default_rng([2, 1])
    for _ in range(155):
        c, A, b = K.random_knapsack(12, 2, rng)
    z = K.enumerate_optimum(c, A, b)
    assert z == pytest.approx(-57.2728380273, abs=1e-9)
    assert K.milp_optimum(c, A, b) == pytest.approx(z, rel=1e-12)


# ----------------------------------------------------------------------------- the comparison classes of the gap
def test_bucket_uniform_gap_between_one_weight_and_one_weight_per_instance():
    rng = np.random.default_rng(6)
    a, b = rng.integers(1, 40, (7, 9)).astype(float), rng.integers(1, 40, (5, 9)).astype(float)
    # one bucket: the one-weight family
    assert K.bucket_uniform_gap(a, b, np.zeros(7, int), np.zeros(5, int)) == pytest.approx(K.uniform_gap(a, b))
    # a bucket per instance: the one-weight-per-instance class
    assert K.bucket_uniform_gap(a, b, np.arange(7), 7 + np.arange(5)) == pytest.approx(K.per_instance_gap(a, b))
    # brute force over every (mu_1, mu_2) pair of grid columns for two buckets
    la, lb = rng.integers(0, 2, 7), rng.integers(0, 2, 5)
    brute = max(abs(sum(a[la == k][:, j[k]].sum() for k in (0, 1)) / 7 - sum(b[lb == k][:, j[k]].sum() for k in (0, 1)) / 5)
                for j in itertools.product(range(9), repeat=2))
    assert K.bucket_uniform_gap(a, b, la, lb) == pytest.approx(brute)
    # more buckets can only enlarge the class
    assert K.uniform_gap(a, b) <= K.bucket_uniform_gap(a, b, la, lb) + 1e-12 <= K.per_instance_gap(a, b) + 2e-12
    with pytest.raises(ValueError, match="train_buckets"):
        K.bucket_uniform_gap(a, b, np.zeros(6, int), np.zeros(5, int))
    with pytest.raises(ValueError, match="test_buckets"):
        K.bucket_uniform_gap(a, b, np.zeros(7, int), -np.ones(5, int))
    with pytest.raises(ValueError, match="train_buckets"):
        K.bucket_uniform_gap(a, b, np.zeros(7), np.zeros(5, int))


def test_per_instance_gap_floor_is_a_lower_bound_and_exact_on_a_closed_form():
    rng = np.random.default_rng(8)
    for _ in range(50):
        a, b = rng.integers(1, 40, (int(rng.integers(1, 9)), 6)), rng.integers(1, 40, (4, 6))
        assert K.per_instance_gap_floor(a, b) <= K.per_instance_gap(a, b) + 1e-12
    # every profile with range 2 around the same level: A = B = 2 and the floor is 2
    a = np.array([[3.0, 5.0], [5.0, 3.0]])
    assert K.per_instance_gap(a, a[::-1]) == pytest.approx(2.0) == K.per_instance_gap_floor(a, a[::-1])
    assert K.per_instance_gap_floor(np.ones((3, 4)), np.ones((2, 4))) == 0.0
    with pytest.raises(ValueError):
        K.per_instance_gap_floor(a, np.ones((2, 3)))
