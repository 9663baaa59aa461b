"""Unit tests of repro.papers.active_seriation: brute force, noiseless recovery, invariants, scipy, bad input."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import scipy.linalg
from scipy.sparse.csgraph import laplacian
from scipy.stats import kendalltau

from repro.papers import active_seriation as K

RNG = np.random.default_rng(2025)


def instances(n: int, trials: int, g=None, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    perm = K.random_permutations(trials, n, rng)
    return perm, K.robinson_matrix(n, g or K.linear_profile(n), perm)


# ----------------------------------------------------------------------------- the model
@pytest.mark.parametrize("g", [K.linear_profile(12), K.exponential_profile(3.0)])
def test_robinson_rows_are_unimodal_with_max_on_the_diagonal_and_gaps_at_least_delta(g):
    n = 12
    perm = RNG.permutation(n)
    M = K.robinson_matrix(n, g, perm)
    order = np.argsort(perm)
    R = M[np.ix_(order, order)]  # the matrix in the hidden order: a Robinson (Toeplitz) matrix
    delta = K.min_separation(g, n)
    np.testing.assert_array_equal(M, M.T)
    for r in range(n):
        left, right = R[r, : r + 1], R[r, r:]
        assert np.all(np.diff(left) >= delta - 1e-15) and np.all(np.diff(right) <= -delta + 1e-15)
        assert R[r].argmax() == r


def test_linear_profile_has_separation_one_over_n_and_batches_match_single_instances():
    assert K.min_separation(K.linear_profile(25), 25) == pytest.approx(1 / 25, rel=1e-12)
    perm = K.random_permutations(3, 6, RNG)
    batch = K.robinson_matrix(6, K.linear_profile(6), perm)
    for t in range(3):
        np.testing.assert_array_equal(batch[t], K.robinson_matrix(6, K.linear_profile(6), perm[t]))


def test_random_permutations_are_permutations():
    p = K.random_permutations(50, 7, RNG)
    assert p.shape == (50, 7) and np.all(np.sort(p, axis=1) == np.arange(7))


# ----------------------------------------------------------------------------- the oracle
def test_oracle_counts_queries_per_instance():
    _, M = instances(6, 3)
    o = K.NoisyOracle(M, 0.1, np.random.default_rng(0))
    o.sample_sums(np.zeros((3, 2), int), np.array([[1, 2]] * 3), np.array([[4, 0], [1, 1], [0, 7]]))
    o.query(2, 3)
    np.testing.assert_array_equal(o.n_queries, [5, 3, 8])
    t = K.NoisyOracle(M, 0.1, np.random.default_rng(0), track_pairs=True)
    t.sample_sums(np.zeros((3, 2), int), np.array([[1, 1]] * 3), np.array([[4, 2], [1, 1], [0, 7]]))
    np.testing.assert_array_equal(t.pair_counts[:, 0, 1], [6, 2, 7])
    np.testing.assert_array_equal(t.pair_counts, t.pair_counts.transpose(0, 2, 1))
    assert t.pair_counts.sum() == 2 * t.n_queries.sum() and o.pair_counts is None


def test_oracle_sums_have_the_law_of_sums_of_k_observations():
    M = np.array([[1.0, 0.3], [0.3, 1.0]])
    draws, k, sigma = 40_000, 9, 0.5
    o = K.NoisyOracle(np.broadcast_to(M, (draws, 2, 2)), sigma, np.random.default_rng(1))
    s = o.sample_sums(np.zeros((draws, 1), int), np.ones((draws, 1), int), np.full((draws, 1), k))[:, 0]
    se = sigma * math.sqrt(k) / math.sqrt(draws)
    assert abs(s.mean() - k * 0.3) < 4 * se
    assert s.std() == pytest.approx(sigma * math.sqrt(k), rel=0.02)
    o1 = K.NoisyOracle(np.broadcast_to(M, (draws, 2, 2)), sigma, np.random.default_rng(2))
    one = np.stack([o1.query(0, 1) for _ in range(k)]).sum(axis=0)  # k single queries, summed
    assert one.std() == pytest.approx(sigma * math.sqrt(k), rel=0.03)


def test_cauchy_averages_do_not_concentrate():
    M = np.zeros((2, 2))
    draws = 20_000
    o = K.NoisyOracle(np.broadcast_to(M, (draws, 2, 2)), 1.0, np.random.default_rng(3), noise="cauchy")
    for k in (1, 100):
        mean = o.sample_sums(np.zeros((draws, 1), int), np.ones((draws, 1), int), np.full((draws, 1), k))[:, 0] / k
        iqr = np.subtract(*np.percentile(mean, [75, 25]))
        assert iqr == pytest.approx(2.0, rel=0.05)  # Cauchy(0, 1) has quartiles -1, 1 whatever k


# ----------------------------------------------------------------------------- spectral seriation
def test_fiedler_vector_matches_scipy_laplacian_and_eigh():
    _, M = instances(15, 4, seed=1)
    S = M + 0.05 * np.random.default_rng(4).normal(size=M.shape)
    S = (S + S.transpose(0, 2, 1)) / 2
    v = K.fiedler_vector(S)
    for t in range(4):
        _, ref = scipy.linalg.eigh(laplacian(S[t]), subset_by_index=[1, 1])
        assert abs(abs(ref[:, 0] @ v[t]) - 1) < 1e-10
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1, rtol=1e-12)
    assert np.all(np.take_along_axis(v, np.abs(v).argmax(axis=1)[:, None], axis=1) > 0)


@pytest.mark.parametrize("g", [K.linear_profile(30), K.exponential_profile(7.5)])
def test_spectral_seriation_recovers_noiseless_robinson_orders(g):
    perm, M = instances(30, 20, g, seed=5)
    assert np.all(K.exact_recovery(K.spectral_seriation(M), perm))
    assert K.spectral_seriation(M[0]).shape == (30,)


def test_spectral_seriation_is_invariant_to_affine_maps_of_the_similarities():
    perm, M = instances(12, 5, seed=6)
    S = M + 0.02 * np.random.default_rng(7).normal(size=M.shape)
    S = (S + S.transpose(0, 2, 1)) / 2
    a = K.exact_recovery(K.spectral_seriation(S), perm)
    b = K.exact_recovery(K.spectral_seriation(3.0 * S - 1.0), perm)
    np.testing.assert_array_equal(a, b)


def test_spectral_seriation_brute_force_tiny_case():
    # n = 4: among all 24 orders, the ones sorting the Fiedler vector of a Robinson matrix are the
    # true order and its reversal, the only two orders under which the matrix is Robinson
    n, perm = 4, np.array([2, 0, 3, 1])
    M = K.robinson_matrix(n, K.linear_profile(n), perm)
    robinson = []
    for order in itertools.permutations(range(n)):
        R = M[np.ix_(order, order)]
        if all(np.all(np.diff(R[r, : r + 1]) > 0) and np.all(np.diff(R[r, r:]) < 0) for r in range(n)):
            robinson.append(order)
    truth = tuple(np.argsort(perm))
    assert sorted(robinson) == sorted([truth, truth[::-1]])
    assert tuple(K.spectral_seriation(M)) in robinson


# ----------------------------------------------------------------------------- scores
def test_exact_recovery_is_invariant_to_reversal():
    perm = K.random_permutations(6, 9, RNG)
    order = np.argsort(perm, axis=1)
    assert np.all(K.exact_recovery(order, perm)) and np.all(K.exact_recovery(order[:, ::-1], perm))
    swapped = order.copy()
    swapped[:, [3, 4]] = swapped[:, [4, 3]]
    assert not np.any(K.exact_recovery(swapped, perm))


def test_kendall_distance_matches_brute_force_and_scipy():
    n = 6
    perm = RNG.permutation(n)
    N = n * (n - 1) // 2
    for order in itertools.permutations(range(n)):
        order = np.array(order)
        pos_hat = np.argsort(order)
        d = sum((pos_hat[i] - pos_hat[j]) * (perm[i] - perm[j]) < 0 for i, j in itertools.combinations(range(n), 2))
        assert K.kendall_distance(order, perm) == min(d, N - d)
        tau = kendalltau(pos_hat, perm).statistic
        assert min(d, N - d) == round(N * (1 - abs(tau)) / 2)
    assert K.kendall_distance(np.argsort(perm)[::-1], perm) == 0


# ----------------------------------------------------------------------------- active algorithm
@pytest.mark.parametrize("n", [3, 4, 9, 20, 33])
def test_noiseless_active_recovery_is_exact_with_one_sample_per_entry(n):
    perm, M = instances(n, 12, seed=n)
    o = K.NoisyOracle(M, 0.0, np.random.default_rng(0))
    budget = K.active_min_budget(n)
    order = K.active_seriation(o, budget)
    assert np.all(K.exact_recovery(order, perm))
    np.testing.assert_array_equal(o.n_queries, budget)  # the budget is used exactly


def test_find_endpoint_returns_an_end_of_the_order_noiselessly():
    perm, M = instances(17, 30, seed=8)
    o = K.NoisyOracle(M, 0.0, np.random.default_rng(0))
    e = K.find_endpoint(o, 5, K.endpoint_min_budget(17))
    assert np.all(np.isin(perm[np.arange(30), e], [0, 16]))


def test_find_endpoint_brute_force_argmin_of_the_noiseless_row():
    perm, M = instances(10, 8, seed=9)
    o = K.NoisyOracle(M, 0.0, np.random.default_rng(0))
    e = K.find_endpoint(o, 0, 200)
    row = M[:, 0, :].copy()
    row[:, 0] = np.inf
    np.testing.assert_allclose(row[np.arange(8), e], row.min(axis=1), rtol=0, atol=0)


def test_sort_by_row_uses_its_budget_and_starts_with_the_reference():
    perm, M = instances(8, 5, seed=10)
    o = K.NoisyOracle(M, 0.3, np.random.default_rng(1))
    order = K.sort_by_row(o, np.array([1, 2, 3, 4, 5]), 101, rounds=3)
    np.testing.assert_array_equal(order[:, 0], [1, 2, 3, 4, 5])
    assert np.all(np.sort(order, axis=1) == np.arange(8))
    np.testing.assert_array_equal(o.n_queries, 101)


def test_adaptive_rounds_send_samples_to_ambiguous_entries():
    # exponential profile: the far entries of an end's row are close together, so the adaptive rounds
    # should give them more samples than the near ones
    n, budget = 12, 12_000
    perm = np.tile(np.arange(n), (1, 1))
    M = K.robinson_matrix(n, K.exponential_profile(2.0), perm)
    calls = []

    class Spy(K.NoisyOracle):
        def sample_sums(self, i, j, k):
            calls.append((np.asarray(j).copy(), np.asarray(k).copy()))
            return super().sample_sums(i, j, k)

    K.sort_by_row(Spy(M, 0.05, np.random.default_rng(0)), 0, budget, rounds=4)
    per_item = np.zeros(n)
    for j, k in calls:
        np.add.at(per_item, j[0], k[0])
    assert per_item[1:4].sum() < 0.5 * per_item[-3:].sum()


def test_passive_average_spreads_the_budget_uniformly_and_averages():
    perm, M = instances(7, 4, seed=11)
    o = K.NoisyOracle(M, 0.0, np.random.default_rng(0))
    S = K.passive_average(o, 21 * 3 + 5, np.random.default_rng(1))
    np.testing.assert_array_equal(o.n_queries, 68)
    off = ~np.eye(7, dtype=bool)
    np.testing.assert_allclose(S[:, off], M[:, off], rtol=0, atol=1e-14)
    o2 = K.NoisyOracle(M, 0.0, np.random.default_rng(0))
    S2 = K.passive_average(o2, 10, np.random.default_rng(2))  # fewer queries than pairs: mean-filled
    assert np.all(np.isfinite(S2)) and np.all(S2 == S2.transpose(0, 2, 1))


def test_no_endpoint_ablation_fails_unless_the_pivot_is_an_end():
    perm, M = instances(10, 40, seed=12)
    o = K.NoisyOracle(M, 0.0, np.random.default_rng(0))
    ok = K.exact_recovery(K.active_seriation(o, 500, endpoint=False), perm)
    np.testing.assert_array_equal(ok, np.isin(perm[:, 0], [0, 9]))


def test_simulate_returns_rates_and_is_deterministic_for_a_seed():
    g = K.linear_profile(10)
    a = K.simulate("active", 10, 2000, 30, 0.05, g, np.random.default_rng(3))
    b = K.simulate("active", 10, 2000, 30, 0.05, g, np.random.default_rng(3))
    assert a == b and 0 <= a["success"] <= 1 and a["queries"] == 2000
    p = K.simulate("passive", 10, 2000, 30, 0.0, g, np.random.default_rng(3))
    assert p["success"] == 1.0 and p["kendall"] == 0.0


# ----------------------------------------------------------------------------- experiment helpers
def test_budget_at_success_interpolates_in_log_budget():
    b = np.array([100.0, 200.0, 400.0, 800.0])
    assert K.budget_at_success(b, [0.1, 0.5, 0.7, 1.0]) == pytest.approx(400 * 2 ** (2 / 3), rel=1e-12)
    assert K.budget_at_success(b, [0.95, 1, 1, 1]) == 100.0
    assert math.isnan(K.budget_at_success(b, [0.1, 0.2, 0.3, 0.4]))
    assert K.budget_at_success(b, [0.1, 0.9, 0.2, 0.95]) == pytest.approx(200.0, rel=1e-12)  # the first crossing


def test_log_error_fit_recovers_an_exponential_and_ignores_out_of_window_points():
    x = np.arange(10.0)
    p = np.r_[1.0, 0.9, 0.4 * np.exp(-0.5 * np.arange(6)), 0.0, 0.0]
    slope, r2, m = K.log_error_fit(x, p, trials=1000)
    assert slope == pytest.approx(-0.5, rel=1e-10) and r2 == pytest.approx(1.0, abs=1e-12) and m == 6
    assert K.log_error_fit(x, np.ones(10), trials=200) == (0.0, 0.0, 0)


# ----------------------------------------------------------------------------- bad inputs
@pytest.mark.parametrize(
    "call",
    [
        lambda: K.linear_profile(1),
        lambda: K.exponential_profile(0.0),
        lambda: K.robinson_matrix(4, K.linear_profile(4), [0, 1, 2]),
        lambda: K.robinson_matrix(3, K.linear_profile(3), [0, 0, 1]),
        lambda: K.robinson_matrix(3, lambda k: np.asarray(k, float), [0, 1, 2]),
        lambda: K.random_permutations(0, 5, RNG),
        lambda: K.NoisyOracle(np.ones((3, 2)), 0.1, RNG),
        lambda: K.NoisyOracle(np.array([[1.0, 0.2], [0.3, 1.0]]), 0.1, RNG),
        lambda: K.NoisyOracle(np.eye(2), -1.0, RNG),
        lambda: K.NoisyOracle(np.eye(2), 0.1, RNG, noise="laplace"),
        lambda: K.NoisyOracle(np.eye(3), 0.1, RNG).sample_sums([[0]], [[0]], [[1]]),
        lambda: K.NoisyOracle(np.eye(3), 0.1, RNG).sample_sums([[0]], [[1]], [[-1]]),
        lambda: K.NoisyOracle(np.eye(3), 0.1, RNG).sample_sums([[0]], [[3]], [[1]]),
        lambda: K.NoisyOracle(np.eye(3), 0.1, RNG).sample_sums([[0.0]], [[1]], [[1]]),
        lambda: K.find_endpoint(K.NoisyOracle(np.eye(6), 0.1, RNG), 0, 5),
        lambda: K.find_endpoint(K.NoisyOracle(np.eye(6), 0.1, RNG), 6, 100),
        lambda: K.sort_by_row(K.NoisyOracle(np.eye(6), 0.1, RNG), 0, 9),
        lambda: K.sort_by_row(K.NoisyOracle(np.eye(6), 0.1, RNG), 0, 100, rounds=0),
        lambda: K.active_seriation(K.NoisyOracle(np.eye(6), 0.1, RNG), 20),
        lambda: K.active_seriation(K.NoisyOracle(np.eye(6), 0.1, RNG), 200, endpoint_share=1.0),
        lambda: K.passive_average(K.NoisyOracle(np.eye(6), 0.1, RNG), 0, RNG),
        lambda: K.fiedler_vector(np.ones((3, 2))),
        lambda: K.fiedler_vector(np.array([[0.0, 1.0], [2.0, 0.0]])),
        lambda: K.fiedler_vector(np.array([[0.0, np.nan], [np.nan, 0.0]])),
        lambda: K.spectral_seriation(np.ones(3)),
        lambda: K.exact_recovery([0, 1, 2], [0, 1]),
        lambda: K.exact_recovery([0, 1, 1], [0, 1, 2]),
        lambda: K.kendall_distance([0.0, 1.0], [0, 1]),
        lambda: K.simulate("random", 5, 100, 2, 0.1, K.linear_profile(5), RNG),
        lambda: K.budget_at_success([2.0, 1.0], [0.1, 0.2]),
        lambda: K.budget_at_success([1.0, 2.0], [0.1, 0.2], level=0.0),
        lambda: K.log_error_fit([1.0, 2.0], [0.5, 1.5], trials=10),
        lambda: K.log_error_fit([1.0, 2.0], [0.5, 0.5], trials=0),
    ],
)
def test_bad_inputs_raise_value_error(call):
    with pytest.raises(ValueError):
        call()


# ----------------------------------------------------------------------------- comparators (issue 32)
@pytest.mark.parametrize("n", [3, 4, 9, 20, 33])
def test_uniform_ablation_is_exact_noiselessly_and_uses_its_budget(n):
    perm, M = instances(n, 12, seed=n + 100)
    o = K.NoisyOracle(M, 0.0, np.random.default_rng(0))
    budget = K.active_min_budget(n, adaptive=False)
    assert budget <= K.active_min_budget(n)
    order = K.active_seriation(o, budget, adaptive=False)
    assert np.all(K.exact_recovery(order, perm))
    np.testing.assert_array_equal(o.n_queries, budget)


def test_uniform_ablation_spreads_both_rows_evenly():
    n, budget = 9, 4 * 8 * 5  # endpoint share 0.25: 40 queries on the pivot's row, 120 on the end's row
    perm = np.tile(np.arange(n), (1, 1))
    M = K.robinson_matrix(n, K.linear_profile(n), perm)
    calls = []

    class Spy(K.NoisyOracle):
        def sample_sums(self, i, j, k):
            calls.append(np.asarray(k).copy())
            return super().sample_sums(i, j, k)

    K.active_seriation(Spy(M, 0.1, np.random.default_rng(0)), budget, pivot=4, adaptive=False)
    assert len(calls) == 2  # one uniform round per row: no halving, no elimination rounds
    np.testing.assert_array_equal(calls[0], 5)
    np.testing.assert_array_equal(calls[1], 15)


def test_find_endpoint_without_halving_is_the_argmin_of_uniform_means():
    perm, M = instances(10, 8, seed=13)
    e = K.find_endpoint(K.NoisyOracle(M, 0.0, np.random.default_rng(0)), 0, 9, halving=False)
    row = M[:, 0, :].copy()
    row[:, 0] = np.inf
    np.testing.assert_array_equal(row[np.arange(8), e], row.min(axis=1))
    assert K.endpoint_min_budget(10, halving=False) == 9 and K.endpoint_min_budget(10) == 4 * 9


def test_passive_average_is_unchanged_by_the_refactor():
    # the sums-and-counts helpers reproduce a direct computation of the averaged matrix
    perm, M = instances(6, 3, seed=14)
    S = K.passive_average(K.NoisyOracle(M, 0.2, np.random.default_rng(5)), 40, np.random.default_rng(6))
    rng, orng = np.random.default_rng(6), np.random.default_rng(5)
    iu, ju = np.triu_indices(6, 1)
    k = np.full((3, 15), 2)
    extra = np.argpartition(rng.random((3, 15)), 9, axis=1)[:, :10]
    np.put_along_axis(k, extra, 3, axis=1)
    eps = 0.2 * np.sqrt(k) * orng.standard_normal((3, 15))
    means = (k * M[:, iu, ju] + eps) / k
    np.testing.assert_allclose(S[:, iu, ju], means, rtol=1e-13)
    np.testing.assert_allclose(S[:, ju, iu], means, rtol=1e-13)


def test_refine_seriation_uses_its_budget_and_resamples_near_pairs_only():
    n, T, budget = 8, 4, 28 * 2 + 60
    perm, M = instances(n, T, seed=15)
    calls = []

    class Spy(K.NoisyOracle):
        def sample_sums(self, i, j, k):
            calls.append((np.asarray(i).copy(), np.asarray(j).copy(), np.asarray(k).copy()))
            return super().sample_sums(i, j, k)

    o = Spy(M, 0.0, np.random.default_rng(0))
    order = K.refine_seriation(o, budget, np.random.default_rng(1), width=2)
    np.testing.assert_array_equal(o.n_queries, budget)
    assert np.all(K.exact_recovery(order, perm))  # noiseless: the first stage is already exact
    i2, j2, k2 = calls[1]
    assert i2.shape == (T, 2 * n - 3)  # pairs at distance 1 and 2 in the first-stage order
    pos = np.argsort(order, axis=1)  # the final order equals the first-stage one here
    gaps = np.abs(np.take_along_axis(pos, i2, axis=1) - np.take_along_axis(pos, j2, axis=1))
    assert np.all((gaps >= 1) & (gaps <= 2)) and np.all(k2.sum(axis=1) == budget - budget // 2)


def test_refine_seriation_matches_a_loop_over_the_triangle_index():
    # the closed-form index of (lo, hi) in np.triu_indices agrees with a lookup table
    n = 7
    iu, ju = np.triu_indices(n, 1)
    table = {(a, b): t for t, (a, b) in enumerate(zip(iu, ju))}
    for a, b in itertools.combinations(range(n), 2):
        assert a * n - a * (a + 1) // 2 + (b - a - 1) == table[a, b]


def test_min_budget_matches_what_simulate_accepts():
    g = K.linear_profile(9)
    for m in K.METHODS:
        b = K.min_budget(m, 9)
        K.simulate(m, 9, b, 3, 0.1, g, np.random.default_rng(0))
        if m.startswith("active") or m == "no-endpoint":
            with pytest.raises(ValueError):
                K.simulate(m, 9, b - 1, 3, 0.1, g, np.random.default_rng(0))


def test_simulate_comparators_recover_noiseless_orders():
    g = K.linear_profile(12)
    for m in ("active-uniform", "passive-refine"):
        r = K.simulate(m, 12, 3000, 20, 0.0, g, np.random.default_rng(4))
        assert r["success"] == 1.0 and r["queries"] == 3000


@pytest.mark.parametrize(
    "call",
    [
        lambda: K.find_endpoint(K.NoisyOracle(np.eye(6), 0.1, RNG), 0, 4, halving=False),
        lambda: K.find_endpoint(K.NoisyOracle(np.eye(6), 0.1, RNG), 0, 100, halving=1),
        lambda: K.active_seriation(K.NoisyOracle(np.eye(6), 0.1, RNG), 200, adaptive="no"),
        lambda: K.refine_seriation(K.NoisyOracle(np.eye(6), 0.1, RNG), 1, RNG),
        lambda: K.refine_seriation(K.NoisyOracle(np.eye(6), 0.1, RNG), 100, RNG, first_share=1.0),
        lambda: K.refine_seriation(K.NoisyOracle(np.eye(6), 0.1, RNG), 100, RNG, width=6),
        lambda: K.min_budget("random", 9),
        lambda: K.min_budget("active", 2),
    ],
)
def test_comparator_bad_inputs_raise_value_error(call):
    with pytest.raises(ValueError):
        call()


# ----------------------------------------------------------------------------- passive designs below n(n-1)/2
def _observed(n: int, trials: int, share: float, seed: int = 0, sigma: float = 0.0):
    """Noiseless (or noisy) passive observations of a random ``share`` of the pairs, and the hidden orders."""
    rng = np.random.default_rng(seed)
    perm = K.random_permutations(trials, n, rng)
    o = K.NoisyOracle(K.robinson_matrix(n, K.linear_profile(n), perm), sigma, rng)
    A, W = K.passive_observations(o, int(share * n * (n - 1) / 2), rng)
    return perm, A, W


def test_passive_observations_are_the_draws_of_passive_average():
    n, T = 9, 4
    _, M = instances(n, T, seed=3)
    for budget in (20, 36, 100):  # below, at and above the 36 pairs
        A, W = K.passive_observations(K.NoisyOracle(M, 0.2, np.random.default_rng(5)), budget,
                                      np.random.default_rng(6))
        S = K.passive_average(K.NoisyOracle(M, 0.2, np.random.default_rng(5)), budget, np.random.default_rng(6))
        np.testing.assert_array_equal(W, W.transpose(0, 2, 1))
        assert not W[:, np.arange(n), np.arange(n)].any()
        np.testing.assert_array_equal(W.sum(axis=(1, 2)) // 2, min(budget, 36))
        np.testing.assert_allclose(np.where(W, A, 0.0), np.where(W, S, 0.0), rtol=0, atol=1e-12)
        assert np.all(A[~W] == 0.0)


def test_lowrank_fill_keeps_observed_entries_and_completes_an_exactly_low_rank_matrix():
    # M_ij = cos(t_i - t_j) has rank 2 and its diagonal is its maximum, as lowrank_fill assumes
    n = 30
    t = np.random.default_rng(1).uniform(0, np.pi / 2, n)
    M = np.cos(t[:, None] - t[None, :])
    rng = np.random.default_rng(2)
    W = np.triu(rng.random((n, n)) < 0.5, 1)
    W = W | W.T
    X = K.lowrank_fill(np.where(W, M, 0.0), W, rank=2, iters=500)[0]
    np.testing.assert_array_equal(X[W], M[W])
    missing = ~W & ~np.eye(n, dtype=bool)
    err_mean = np.abs(M[missing] - M[W].mean()).mean()
    err = np.abs(X - M)[missing].mean()
    assert err < 0.01 * err_mean


def test_lowrank_fill_with_every_pair_observed_is_the_observed_matrix():
    perm, A, W = _observed(8, 3, 1.0)
    X = K.lowrank_fill(A, W)
    off = ~np.eye(8, dtype=bool)
    np.testing.assert_array_equal(X[:, off], A[:, off])
    np.testing.assert_array_equal(X[:, np.arange(8), np.arange(8)], np.repeat(A.max(axis=(1, 2))[:, None], 8, axis=1))


def test_toeplitz_fill_matches_a_loop_over_distances():
    T = 12
    perm, A, W = _observed(10, T, 0.5, seed=2, sigma=0.05)
    order = K.random_permutations(T, 10, np.random.default_rng(9))
    X = K.toeplitz_fill(A, W, order)
    counts = set()
    for t in range(T):
        rank = np.argsort(order[t])
        D = np.abs(rank[:, None] - rank[None, :])
        counts |= {int((W[t] & (D == d)).sum()) // 2 for d in range(1, 10)}
        seen = [d for d in range(10) if (W[t] & (D == d)).any()]
        prof = {d: A[t][W[t] & (D == d)].mean() for d in seen}
        full = np.interp(np.arange(10), seen, [prof[d] for d in seen])
        for i, j in itertools.product(range(10), repeat=2):
            want = 0.0 if i == j else (A[t, i, j] if W[t, i, j] else full[D[i, j]])
            assert X[t, i, j] == pytest.approx(want, abs=1e-12)
    assert {0, 1, 2} <= counts  # distances seen by no pair, by one and by several


def test_toeplitz_fill_in_the_true_order_is_exact_for_the_linear_profile():
    # linear g: the observed distances give g exactly, and interpolation between them is exact as well
    n = 12
    perm, A, W = _observed(n, 4, 0.4, seed=4)
    X = K.toeplitz_fill(A, W, np.argsort(perm, axis=1))
    M = K.robinson_matrix(n, K.linear_profile(n), perm)
    off = ~np.eye(n, dtype=bool)
    rank = perm  # position of each item
    last = np.array([np.abs(rank[t][:, None] - rank[t][None, :])[W[t]].max() for t in range(4)])
    for t in range(4):
        D = np.abs(rank[t][:, None] - rank[t][None, :])
        inside = off & (D <= last[t])
        np.testing.assert_allclose(X[t][inside], M[t][inside], rtol=0, atol=1e-12)


@pytest.mark.parametrize("fill", ["lowrank", "toeplitz"])
def test_completion_seriation_recovers_noiseless_orders_from_part_of_the_pairs(fill):
    perm, A, W = _observed(25, 20, 0.8, seed=7)
    assert np.all(K.exact_recovery(K.completion_seriation(A, W, fill), perm))


def test_lowrank_completion_needs_more_iterations_at_lower_coverage():
    # at 60% of the pairs the default twenty iterations may not be converged; forty are (noiseless, n = 40)
    perm, A, W = _observed(40, 20, 0.6, seed=7)
    assert np.all(K.exact_recovery(K.completion_seriation(A, W, "lowrank", iters=40), perm))


def test_completed_passive_designs_beat_the_mean_fill_below_the_all_pairs_budget():
    # the regime of the post-hoc test, small: the mean fill is swamped by its filled entries, completion is not
    n, T, sigma = 30, 40, 0.5 / 30
    res = {m: K.simulate(m, n, 300, T, sigma, K.linear_profile(n), np.random.default_rng(11))
           for m in ("passive", "passive-lowrank", "passive-toeplitz")}
    assert res["passive"]["kendall"] > 3 * max(res["passive-lowrank"]["kendall"], res["passive-toeplitz"]["kendall"])


def test_simulate_completion_methods_are_deterministic_and_use_their_budget():
    g = K.linear_profile(10)
    for m in ("passive-lowrank", "passive-toeplitz"):
        a = K.simulate(m, 10, 30, 5, 0.01, g, np.random.default_rng(3))
        b = K.simulate(m, 10, 30, 5, 0.01, g, np.random.default_rng(3))
        assert a == b and a["queries"] == 30


@pytest.mark.parametrize(
    "call",
    [
        lambda: K.lowrank_fill(np.zeros((4, 4)), np.zeros((4, 4), dtype=bool)),
        lambda: K.lowrank_fill(np.zeros((4, 4)), np.ones((4, 4))),
        lambda: K.lowrank_fill(np.zeros((2, 2)), np.ones((2, 2), dtype=bool)),
        lambda: K.lowrank_fill(np.triu(np.ones((4, 4))), np.ones((4, 4), dtype=bool)),
        lambda: K.lowrank_fill(np.ones((4, 4)), np.ones((4, 4), dtype=bool), rank=5),
        lambda: K.lowrank_fill(np.ones((4, 4)), np.ones((4, 4), dtype=bool), iters=0),
        lambda: K.toeplitz_fill(np.ones((4, 4)), np.ones((4, 4), dtype=bool), [0, 1, 2]),
        lambda: K.toeplitz_fill(np.ones((4, 4)), np.ones((4, 4), dtype=bool), [0, 1, 1, 2]),
        lambda: K.toeplitz_fill(np.ones((2, 4, 4)), np.ones((2, 4, 4), dtype=bool), [0, 1, 2, 3]),
        lambda: K.completion_seriation(np.ones((4, 4)), np.ones((4, 4), dtype=bool), "median"),
        lambda: K.completion_seriation(np.ones((4, 4)), np.ones((4, 4), dtype=bool), "toeplitz", rounds=0),
    ],
)
def test_completion_bad_inputs_raise_value_error(call):
    with pytest.raises(ValueError):
        call()
