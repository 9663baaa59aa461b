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
    ],
)
def test_bad_inputs_raise_value_error(call):
    with pytest.raises(ValueError):
        call()
