"""Unit tests of repro.papers.sampled_softmax_bias: closed forms, brute force, Monte Carlo, invariants."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch
from scipy.special import comb, softmax

from repro.papers import sampled_softmax_bias as K

RNG = np.random.default_rng(1234)
O6 = RNG.normal(size=(7, 6))  # seven logit vectors, n = 6
Q6 = np.r_[0.0, 1.0 / np.arange(1, 6)] / np.sum(1.0 / np.arange(1, 6))  # Zipf proposal, target 0


@pytest.fixture(scope="module")
def learned_n5_k2() -> K.LearnedEstimator:
    torch.set_num_threads(1)
    return K.train_learned_estimator(5, 2, steps=150, batch=128, hidden=16, seed=0)


# ----------------------------------------------------------------------------- softmax
def test_softmax_prob_matches_scipy_and_is_shift_invariant():
    np.testing.assert_allclose(K.softmax_prob(O6, 2), softmax(O6, axis=1)[:, 2], rtol=1e-14)
    np.testing.assert_allclose(K.softmax_prob(O6 + 700.0, 2), K.softmax_prob(O6, 2), rtol=1e-12)


def test_softmax_mixed_derivative_matches_finite_difference_as_h_shrinks():
    coords = [1, 3, 4]
    exact = K.softmax_mixed_derivative(O6, 0, coords)
    errors = []
    for h in (1e-1, 1e-2):
        fd = K.mixed_finite_difference(lambda x: K.softmax_prob(x, 0), O6, coords, h, target=0) / h**3
        errors.append(np.max(np.abs(fd / exact - 1)))
    assert errors[1] < 0.02 and errors[1] < errors[0] / 5  # O(h) convergence
    assert np.all(np.sign(exact) == -1.0)  # (-1)^3


# ----------------------------------------------------------------------------- samplers
@pytest.mark.parametrize("n,k", [(6, 1), (6, 3), (8, 4), (10, 4), (10, 9)])
def test_negative_subsets_counts_and_content(n, k):
    s = K.negative_subsets(n, 2, k)
    assert s.shape == (comb(n - 1, k, exact=True), k)
    assert not np.any(s == 2)
    assert len({tuple(r) for r in s}) == len(s)
    assert np.all(np.diff(s, axis=1) > 0)


def test_uniform_design_is_a_uniform_law_on_k_subsets():
    d = K.uniform_design(7, 3, 4)
    assert np.all(d.counts.sum(axis=1) == 4) and np.all(d.counts[:, 3] == 0)
    np.testing.assert_allclose(d.prob.sum(), 1.0, rtol=1e-15)
    np.testing.assert_allclose(d.counts.T @ d.prob, np.r_[[4 / 6] * 3, 0, [4 / 6] * 3], rtol=1e-14)  # inclusion probs


def test_multinomial_design_matches_brute_force_over_ordered_draws():
    k = 3
    d = K.multinomial_design(Q6, 0, k)
    brute: dict[tuple, float] = {}
    for draw in itertools.product(range(1, 6), repeat=k):  # ordered i.i.d. draws
        key = tuple(np.bincount(draw, minlength=6))
        brute[key] = brute.get(key, 0.0) + float(np.prod(Q6[list(draw)]))
    got = {tuple(c): p for c, p in zip(d.counts, d.prob)}
    assert got.keys() == brute.keys()
    for key, p in brute.items():
        assert got[key] == pytest.approx(p, rel=1e-12)
    np.testing.assert_allclose(d.counts.T @ d.prob, k * Q6, rtol=1e-13)  # expected counts k q


def test_multinomial_design_gives_zero_probability_to_classes_outside_the_support():
    d = K.multinomial_design([0.0, 0.5, 0.5, 0.0], 0, 2)
    assert d.prob.sum() == pytest.approx(1.0, abs=1e-15)
    assert np.all(d.prob[d.counts[:, 3] > 0] == 0)


def test_zipf_proposal_is_a_decreasing_law_on_the_negatives():
    q = K.zipf_proposal(6, 2)
    assert q[2] == 0 and q.sum() == pytest.approx(1.0, abs=1e-15)
    neg = np.delete(q, 2)
    np.testing.assert_allclose(neg / neg[0], 1.0 / np.arange(1, 6), rtol=1e-14)


# ----------------------------------------------------------------------------- estimators
def test_expected_sampled_softmax_equals_explicit_loop():
    o, k = O6[0], 3
    loop = np.mean([np.exp(o[0]) / (np.exp(o[0]) + np.exp(o[list(S)]).sum())
                    for S in itertools.combinations(range(1, 6), k)])
    assert K.expected_sampled_softmax(o, 0, k) == pytest.approx(loop, rel=1e-13)


def test_expected_sampled_softmax_matches_monte_carlo_within_3_se():
    o, k, draws = O6[1], 2, 20_000
    rng = np.random.default_rng(7)
    S = np.argsort(rng.random((draws, 5)), axis=1)[:, :k] + 1
    f = np.exp(o[0]) / (np.exp(o[0]) + np.exp(o[S]).sum(axis=1))
    se = f.std(ddof=1) / np.sqrt(draws)
    assert abs(K.expected_sampled_softmax(o, 0, k) - f.mean()) < 3 * se


def test_expected_sampled_softmax_is_exact_when_every_negative_is_seen_and_biased_otherwise():
    o = O6[2]
    p = softmax(o)[4]
    assert K.expected_sampled_softmax(o, 4, 5) == pytest.approx(p, abs=1e-15)
    biases = [K.expected_sampled_softmax(o, 4, k) - p for k in range(1, 5)]
    assert all(b > 1e-3 for b in biases) and np.all(np.diff(biases) < 0)


def test_plain_and_plug_in_are_exact_at_k_n_minus_1():
    # moved from the page (exact-when-k-is-n-1): an identity, the sampler then shows every class
    p = K.softmax_prob(O6, 0)
    e = K.exact_expectations(O6, 0, 5, None)
    for name in ("plain", "plug-in"):
        np.testing.assert_allclose(e[name], p, rtol=0, atol=1e-15)


def test_plain_bias_is_nonincreasing_in_k_for_every_logit_vector():
    # moved from the page (plain-bias-nonincreasing-in-k): holds for any input, since a uniform
    # (k+1)-subset is a uniform k-subset plus one more class, and adding a class lowers f pointwise
    rng = np.random.default_rng(3)
    o = 2.0 * rng.normal(size=(40, 7))
    b = np.stack([K.exact_expectations(o, 0, k, None)["plain"] for k in range(1, 7)]) - K.softmax_prob(o, 0)
    assert np.all(np.diff(b, axis=0) <= 1e-15) and np.all(b[:-1] > 0)


def test_plain_estimate_dominates_softmax_pointwise():
    d = K.uniform_design(6, 0, 2)
    f = K.ratio_estimates(O6, 0, d.counts)
    assert np.all(f >= K.softmax_prob(O6, 0)[:, None])


@pytest.mark.parametrize("name,design", [("plug-in", K.uniform_design(6, 0, 2)), ("logQ", K.multinomial_design(Q6, 0, 2))])
def test_normaliser_estimate_is_unbiased_but_its_reciprocal_is_not(name, design):
    w = K.estimator_weights(name, design, 2, Q6)
    e = np.exp(O6)
    z_hat = e[:, :1] + e @ w.T  # (B, M)
    np.testing.assert_allclose(z_hat @ design.prob, e.sum(axis=1), rtol=1e-13)  # E[Z_hat] = Z
    bias = K.ratio_estimates(O6, 0, w) @ design.prob - K.softmax_prob(O6, 0)
    assert np.all(bias > 0)  # Jensen: E[1/Z_hat] > 1/E[Z_hat]


def test_exact_expectations_agree_with_expected_sampled_softmax(learned_n5_k2):
    o = O6[:, :5]
    q = np.r_[0.0, 0.4, 0.3, 0.2, 0.1]
    e = K.exact_expectations(o, 0, 2, q, learned_n5_k2)
    assert set(e) == set(K.ESTIMATORS)
    assert set(K.exact_expectations(o, 0, 2, None)) == {"plain", "plug-in"}
    np.testing.assert_allclose(e["plain"], [K.expected_sampled_softmax(r, 0, 2) for r in o], rtol=1e-14)
    b = K.exact_biases(o, 0, 2, q, learned_n5_k2)
    for name in K.ESTIMATORS:
        np.testing.assert_allclose(b[name], e[name] - K.softmax_prob(o, 0), atol=1e-15)


def test_learned_estimator_sees_only_sorted_shifted_sample(learned_n5_k2):
    o = RNG.normal(size=(3, 5))
    f = K.learned_features(o, 0, K.negative_subsets(5, 0, 2))
    np.testing.assert_allclose(K.learned_features(o + 3.0, 0, K.negative_subsets(5, 0, 2)), f, atol=1e-13)
    assert f.shape == (3, 6, 2) and np.all(np.diff(f, axis=-1) >= 0)


def test_learned_estimator_beats_constant_and_is_deterministic(learned_n5_k2):
    rng = np.random.default_rng(3)
    o = 2.0 * rng.normal(size=(2000, 5))
    S = np.argsort(rng.random((2000, 4)), axis=1)[:, :2] + 1
    x = np.sort(np.take_along_axis(o, S, axis=1), axis=1) - o[:, :1]
    with torch.no_grad():
        f = learned_n5_k2(torch.from_numpy(x)).numpy()
    p = softmax(o, axis=1)[:, 0]
    assert np.mean((f - p) ** 2) < 0.5 * np.var(p)
    again = K.train_learned_estimator(5, 2, steps=150, batch=128, hidden=16, seed=0)
    for a, b in zip(learned_n5_k2.parameters(), again.parameters()):
        assert torch.equal(a, b)


# ----------------------------------------------------------------------------- finite differences
def test_mixed_finite_difference_of_a_monomial_is_exact():
    fd = K.mixed_finite_difference(lambda x: x[:, 0] * x[:, 1] * x[:, 2], O6, [0, 1, 2], h=0.5)
    np.testing.assert_allclose(fd, 0.5**3, rtol=1e-12)


def test_mixed_finite_difference_kills_functions_ignoring_a_coordinate():
    fd = K.mixed_finite_difference(lambda x: np.sin(x[:, 1] * x[:, 2]) + np.exp(x[:, 3]), O6, [1, 3], h=1.0)
    np.testing.assert_allclose(fd, 0.0, atol=1e-14)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_order_k_plus_1_difference_kills_every_estimator_but_not_the_softmax(k, learned_n5_k2):
    n, q = 6, Q6
    learned = K.train_learned_estimator(n, k, steps=5, batch=16, hidden=8, seed=1)  # any weights will do
    coords = list(range(1, k + 2))

    def expectations(x):
        e = K.exact_expectations(x, 0, k, q, learned)
        return np.stack([e[name] for name in K.ESTIMATORS], axis=1)

    fd = K.mixed_finite_difference(expectations, O6, coords, target=0)
    assert np.max(np.abs(fd)) < 1e-13
    fd_p = K.mixed_finite_difference(lambda x: K.softmax_prob(x, 0), O6, coords, target=0)
    assert np.all(np.abs(fd_p) > 1e-6) and np.all(np.sign(fd_p) == (-1) ** (k + 1))
    # with only k coordinates the difference of the plain estimator is not killed
    fd_k = K.mixed_finite_difference(expectations, O6, coords[:-1], target=0)
    assert np.all(np.abs(fd_k[:, 0]) > 1e-6)


def test_certified_bound_is_below_the_largest_corner_bias():
    k, coords = 2, [1, 2, 5]

    def bias(x):
        return K.exact_expectations(x, 0, k, Q6)["plain"] - K.softmax_prob(x, 0)

    bound = K.certified_bias_lower_bound(O6, 0, coords)
    worst = K.max_abs_over_corners(bias, O6, coords)
    assert np.all(bound > 0) and np.all(worst >= bound)


def test_corner_shifts_signs_and_offsets():
    shifts, signs = K.corner_shifts(4, [1, 3], h=2.0)
    assert shifts.shape == (4, 4) and signs.tolist() == [1.0, -1.0, -1.0, 1.0]
    assert shifts[3].tolist() == [0.0, 2.0, 0.0, 2.0]


# ----------------------------------------------------------------------------- the linear program over every estimator
V3 = np.array([-1.1, 0.3, 0.9])


def uniform(n, k, t=0):
    return K.logit_free_sampler(K.uniform_design(n, t, k))


def test_product_grid_enumerates_every_combination_in_order():
    index, logits = K.product_grid([0.5, 2.0, -1.0], 3)
    assert index.shape == (27, 3) and logits.shape == (27, 3)
    assert len({tuple(r) for r in index}) == 27
    assert index[1].tolist() == [0, 0, 1] and logits[1].tolist() == [0.5, 0.5, 2.0]


def test_expectation_matrix_reproduces_the_plain_estimator():
    # fill the table with the plain sampled softmax of each outcome's shown logits: A @ table = E_S f
    n, k, t = 4, 2, 1
    design = K.uniform_design(n, t, k)
    A, p = K.expectation_matrix(V3, n, t, K.logit_free_sampler(design))
    table = np.zeros(A.shape[1])
    offset = 0
    for c in design.counts:
        classes = np.r_[t, np.flatnonzero(c)]
        for combo in itertools.product(range(3), repeat=classes.size):  # key = sum combo[i] 3^i
            o = V3[list(combo)]
            table[offset + sum(ci * 3**i for i, ci in enumerate(combo))] = np.exp(o[0]) / np.exp(o).sum()
        offset += 3**classes.size
    assert offset == A.shape[1]
    _, logits = K.product_grid(V3, n)
    np.testing.assert_allclose(A @ table, K.exact_expectations(logits, t, k, None)["plain"], rtol=1e-13)
    np.testing.assert_allclose(p, K.softmax_prob(logits, t), rtol=1e-14)


def test_lp_matches_a_brute_force_program_built_by_loops():
    # n = 3, k = 1, two values: build the program from scratch, one grid point at a time
    from scipy.optimize import linprog

    vals, n, k = np.array([0.0, 1.3]), 3, 1
    keys = {}
    rows = []
    for o in itertools.product(vals, repeat=n):
        row = {}
        for j in (1, 2):  # the sampled negative
            key = (j, o[0], o[j])
            keys.setdefault(key, len(keys))
            row[keys[key]] = 0.5
        rows.append((row, np.exp(o[0]) / np.exp(o).sum()))
    A = np.zeros((len(rows), len(keys)))
    for i, (row, _) in enumerate(rows):
        for c, w in row.items():
            A[i, c] = w
    p = np.array([q for _, q in rows])
    U = A.shape[1]
    res = linprog(np.r_[np.zeros(U), 1.0], A_ub=np.block([[A, -np.ones((len(p), 1))], [-A, -np.ones((len(p), 1))]]),
                  b_ub=np.r_[p, -p], bounds=[(None, None)] * U + [(0, None)], method="highs")
    got = K.min_worst_case_bias(vals, n, 0, uniform(n, k))
    assert got.value == pytest.approx(res.fun, rel=1e-9) and got.value > 1e-3


def test_lp_optimum_is_achieved_and_certified_by_its_dual():
    n, k = 5, 2
    r = K.min_worst_case_bias(V3, n, 0, uniform(n, k))
    A, p = K.expectation_matrix(V3, n, 0, uniform(n, k))
    assert r.achieved == pytest.approx(r.value, rel=1e-9)
    # weak duality: any y with A^T y = 0 and sum |y| = 1 gives |y.p| <= worst bias of every table
    assert np.abs(r.dual).sum() == pytest.approx(1.0, rel=1e-9)
    assert np.abs(A.T @ r.dual).max() < 1e-12
    assert abs(r.dual @ p) == pytest.approx(r.value, rel=1e-9)


def test_dual_lower_bound_brackets_the_optimum_and_pays_for_a_residual():
    n, k = 5, 3
    r = K.min_worst_case_bias(V3, n, 0, uniform(n, k))
    assert 0 < r.lower <= r.achieved and r.lower == pytest.approx(r.value, rel=1e-9)
    assert r.achieved == pytest.approx(r.lower, rel=1e-9)  # tight tolerances: the solver's table is optimal too
    assert r.dual_residual < 1e-15
    # a dual vector spoiled off the null space of A^T still gives a valid (smaller) bound
    A, p = K.expectation_matrix(V3, n, 0, uniform(n, k))
    y = r.dual + 1e-6 * np.random.default_rng(0).normal(size=r.dual.size)
    spoiled, residual = K.dual_lower_bound(A, p, y)
    assert residual > 1e-8 and 0 < spoiled < r.lower
    # spoiled towards p_t, the naive ratio |y.p| / sum|y| overstates the optimum; the bound does not
    y = r.dual + 0.05 * np.sign(r.dual @ p) * p
    assert abs(y @ p) / np.abs(y).sum() > 1.5 * r.value
    assert K.dual_lower_bound(A, p, y)[0] <= r.value
    # any vector is a certificate of something no larger than the optimum; a random one, far off, certifies 0
    assert K.dual_lower_bound(A, p, np.random.default_rng(1).normal(size=r.dual.size))[0] <= r.value
    assert K.dual_lower_bound(A, p, np.zeros(r.dual.size)) == (0.0, 0.0)


def test_lp_reaches_zero_for_an_estimable_target_inside_the_hypothesis():
    n, k = 5, 2
    logits = K.product_grid(V3, n)[1]
    estimable = K.exact_expectations(logits, 0, k, None)["plain"]
    r = K.min_worst_case_bias(V3, n, 0, uniform(n, k), estimand=estimable)
    assert r.achieved < 1e-12 and r.lower < 1e-12
    rand = K.min_worst_case_bias(V3, n, 0, uniform(n, k), estimand=np.random.default_rng(2).uniform(size=len(logits)))
    assert rand.lower > 1e-2  # a generic function of the grid is not a sum of functions of k negatives
    assert np.isnan(K.min_worst_case_bias(V3, n, 0, uniform(n, k), certify=False).lower)  # not requested


def test_uniform_optimum_at_k_n_minus_2_bounds_every_sampler_that_never_shows_every_negative():
    n = 5
    floor = K.min_worst_case_bias(V3, n, 0, uniform(n, n - 2)).value
    q = K.zipf_proposal(n, 0)
    one, three = K.uniform_design(n, 0, 1), K.uniform_design(n, 0, 3)
    mixed = K.Design(np.vstack([one.counts, three.counts]), np.r_[0.7 * one.prob, 0.3 * three.prob])
    for sampler in (K.logit_free_sampler(K.multinomial_design(q, 0, 2)),
                    K.logit_free_sampler(K.multinomial_design(q, 0, n - 2)),  # n-2 draws: never all n-1
                    K.logit_free_sampler(mixed)):
        assert K.min_worst_case_bias(V3, n, 0, sampler, certify=False).value >= floor * (1 - 1e-7)


def test_normal_range_cdf_matches_closed_form_and_monte_carlo():
    from scipy.stats import norm

    for r in (0.1, 1.0, 3.0):  # two draws: the range is |x1 - x2| ~ |N(0, 2 sigma^2)|
        assert K.normal_range_cdf(r, 2, 1.5) == pytest.approx(2 * norm.cdf(r / (1.5 * np.sqrt(2))) - 1, rel=1e-8)
    x = np.random.default_rng(4).normal(scale=2.0, size=(200_000, 3))
    mc = np.mean(np.ptp(x, axis=1) < 1.0)
    assert abs(K.normal_range_cdf(1.0, 3, 2.0) - mc) < 3 * np.sqrt(mc * (1 - mc) / len(x))
    assert K.normal_range_cdf(0.0, 3, 2.0) == 0.0 and K.normal_range_cdf(60.0, 3, 2.0) == pytest.approx(1.0)


@pytest.mark.parametrize("n", [4, 5])
def test_lp_reaches_zero_outside_the_hypothesis(n):
    q = K.zipf_proposal(n, 0)
    for sampler in (uniform(n, n - 1), K.logit_free_sampler(K.multinomial_design(q, 0, n - 1)),
                    K.softmax_draw_sampler(0)):
        assert K.min_worst_case_bias(V3, n, 0, sampler).value < 1e-12


@pytest.mark.parametrize("n,k", [(4, 1), (4, 2), (5, 2), (5, 3)])
def test_lp_is_positive_below_n_minus_1_and_below_every_classical_estimator(n, k):
    r = K.min_worst_case_bias(V3, n, 0, uniform(n, k))
    assert r.value > 1e-4
    b = K.exact_biases(K.product_grid(V3, n)[1], 0, k, K.zipf_proposal(n, 0))
    assert all(r.value <= np.abs(v).max() + 1e-12 for v in b.values())


def test_lp_does_not_depend_on_the_logit_free_sampler_nor_on_a_shift():
    n, k = 5, 2
    u = K.min_worst_case_bias(V3, n, 0, uniform(n, k)).value
    z = K.min_worst_case_bias(V3, n, 0, K.logit_free_sampler(K.multinomial_design(K.zipf_proposal(n, 0), 0, k))).value
    s = K.min_worst_case_bias(V3 + 2.5, n, 0, uniform(n, k)).value
    assert z == pytest.approx(u, rel=1e-7) and s == pytest.approx(u, rel=1e-7)


@pytest.mark.parametrize("n", [4, 5, 6])
def test_certified_bound_is_the_lp_optimum_at_k_n_minus_2_and_below_it_otherwise(n):
    two = V3[[0, 2]]
    for k in range(1, n - 1):
        lp = K.min_worst_case_bias(two, n, 0, uniform(n, k)).value
        bound = K.grid_certified_bound(two, n, 0, k)
        if k == n - 2:
            assert lp == pytest.approx(bound, rel=1e-8)
        else:
            assert bound <= lp * (1 + 1e-9)


def test_random_logit_vectors_without_shared_values_give_zero():
    # why the program needs a grid: on random vectors no two share what a sample shows, so a table fits each
    from scipy.optimize import linprog

    n, k = 4, 1
    rand = np.random.default_rng(5).normal(size=(12, n))
    keys: dict = {}
    A = np.zeros((12, 12 * (n - 1)))
    for i, o in enumerate(rand):
        for j in range(1, n):
            A[i, keys.setdefault((j, o[0], o[j]), len(keys))] = 1 / (n - 1)
    assert len(keys) == 12 * (n - 1)
    p = K.softmax_prob(rand, 0)
    U = A.shape[1]
    res = linprog(np.r_[np.zeros(U), 1.0], A_ub=np.block([[A, -np.ones((12, 1))], [-A, -np.ones((12, 1))]]),
                  b_ub=np.r_[p, -p], bounds=[(None, None)] * U + [(0, None)], method="highs")
    assert res.fun < 1e-12


# ----------------------------------------------------------------------------- bad inputs
@pytest.mark.parametrize(
    "call",
    [
        lambda: K.softmax_prob([1.0], 0),
        lambda: K.softmax_prob([1.0, np.nan], 0),
        lambda: K.softmax_prob([1.0, 2.0], 2),
        lambda: K.negative_subsets(5, 0, 0),
        lambda: K.negative_subsets(5, 0, 5),
        lambda: K.negative_subsets(1, 0, 1),
        lambda: K.expected_sampled_softmax(O6, 0, 2),
        lambda: K.expected_sampled_softmax(O6[0], 0, 6),
        lambda: K.multinomial_design([0.5, 0.6], 0, 1),
        lambda: K.multinomial_design([0.5, 0.5], 0, 1),
        lambda: K.multinomial_design(Q6, 0, 0),
        lambda: K.ratio_estimates(O6, 0, np.ones((2, 6))),
        lambda: K.estimator_weights("nope", K.uniform_design(6, 0, 2), 2),
        lambda: K.estimator_weights("logQ", K.uniform_design(6, 0, 2), 2),
        lambda: K.mixed_finite_difference(np.sum, O6, [1, 1]),
        lambda: K.mixed_finite_difference(np.sum, O6, [0, 1], target=0),
        lambda: K.mixed_finite_difference(np.sum, O6, [1, 2], h=0.0),
        lambda: K.exact_expectations(O6, 0, 2, Q6, K.LearnedEstimator(3)),
        lambda: K.train_learned_estimator(5, 2, steps=0),
        lambda: K.zipf_proposal(1, 0),
        lambda: K.product_grid([1.0, 1.0], 3),
        lambda: K.product_grid([1.0], 3),
        lambda: K.product_grid([0.0, 1.0], 1),
        lambda: K.grid_certified_bound([1.0, 0.0], 4, 0, 1),
        lambda: K.grid_certified_bound([0.0, 1.0], 4, 0, 3),
        lambda: K.expectation_matrix([0.0, 1.0], 3, 0, lambda o: ([np.array([1])], np.full((len(o), 1), 0.5))),
        lambda: K.expectation_matrix([0.0, 1.0], 3, 0, lambda o: ([np.array([0])], np.ones((len(o), 1)))),
        lambda: K.min_worst_case_bias([0.0, 1.0], 3, 0, uniform(3, 1), estimand=np.ones(7)),
        lambda: K.min_worst_case_bias([0.0, 1.0], 3, 0, uniform(3, 1), estimand=np.full(8, np.nan)),
        lambda: K.dual_lower_bound(np.eye(3), np.ones(3), np.ones(2)),
        lambda: K.normal_range_cdf(1.0, 1),
        lambda: K.normal_range_cdf(1.0, 3, sigma=0.0),
    ],
)
def test_bad_inputs_raise_value_error(call):
    with pytest.raises(ValueError):
        call()
