"""Unit tests of :mod:`repro.papers.sec_mmfl_modality_privacy`, the kernels of ``notebooks/sec-mmfl-modality-privacy.py``."""

import inspect

import numpy as np
import pytest

from repro.papers import sec_mmfl_modality_privacy as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/sec_mmfl_modality_privacy.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def _corr_gauss(rho, n=200_000, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    y = rho * x + np.sqrt(1 - rho**2) * rng.normal(size=n)
    return x, y


@pytest.mark.parametrize("rho", [0.0, 0.3, 0.8, -0.95])
def test_gaussian_mi_matches_the_closed_form_in_1d(rho):
    x, y = _corr_gauss(rho)
    assert K.gaussian_mi(x, y) == pytest.approx(-0.5 * np.log(1 - rho**2), abs=5e-3)


def test_gaussian_mi_matches_the_closed_form_in_several_dims():
    # independent pairs with correlations rho_i: I = sum_i -1/2 log(1 - rho_i^2); also exact on a population covariance
    rhos = np.array([0.5, 0.9, 0.2])
    rng = np.random.default_rng(1)
    x = rng.normal(size=(100_000, 3))
    y = rhos * x + np.sqrt(1 - rhos**2) * rng.normal(size=x.shape)
    assert K.gaussian_mi(x, y) == pytest.approx(-0.5 * np.log(1 - rhos**2).sum(), abs=1e-2)
    assert K.gaussian_mi(x, y, ridge=0.0) == pytest.approx(K.gaussian_mi(y, x, ridge=0.0), abs=1e-10)


def test_gaussian_mi_agrees_with_scipy_gaussian_entropies():
    from scipy.stats import multivariate_normal as mvn

    rng = np.random.default_rng(7)
    x = rng.normal(size=(400, 2))
    y = x @ rng.normal(size=(2, 2)) + rng.normal(size=(400, 2))
    c = np.cov(np.hstack([x, y]), rowvar=False)
    h = lambda s: mvn(cov=s).entropy()  # noqa: E731
    assert K.gaussian_mi(x, y, ridge=0.0) == pytest.approx(h(c[:2, :2]) + h(c[2:, 2:]) - h(c), rel=1e-9)


def test_gaussian_mi_is_invariant_to_invertible_linear_maps():
    rng = np.random.default_rng(2)
    x = rng.normal(size=(500, 2))
    y = x @ rng.normal(size=(2, 3)) + rng.normal(size=(500, 3))
    m = rng.normal(size=(2, 2)) + 3 * np.eye(2)
    assert K.gaussian_mi(x @ m + 5.0, y, ridge=0.0) == pytest.approx(K.gaussian_mi(x, y, ridge=0.0), rel=1e-8)


def test_gaussian_cmi_is_zero_under_conditional_independence_and_obeys_the_chain_rule():
    rng = np.random.default_rng(3)
    z = rng.normal(size=(100_000, 2))
    x = z @ [[1.0], [0.5]] + rng.normal(size=(100_000, 1))
    y = z @ [[1.0], [0.5]] + rng.normal(size=(100_000, 1))
    assert K.gaussian_cmi(x, y, z) < 1e-3
    assert K.gaussian_mi(x, y) > 0.05  # marginally dependent
    w = x + 0.5 * rng.normal(size=x.shape)
    chain = K.gaussian_mi(x, np.hstack([w, z]), ridge=0.0) - K.gaussian_mi(x, z, ridge=0.0)
    assert K.gaussian_cmi(x, w, z, ridge=0.0) == pytest.approx(chain, abs=1e-10)


def test_allocate_noise_sums_to_the_budget_and_is_monotone():
    lk = np.array([0.5, 2.0, 1.0])
    for rule in ("uniform", "proportional", "inverse"):
        assert K.allocate_noise(lk, 3.0, rule).sum() == pytest.approx(3.0)
    prop = K.allocate_noise(lk, 3.0)
    assert np.all(np.argsort(prop) == np.argsort(lk))
    inv = K.allocate_noise(lk, 3.0, "inverse")
    assert np.all(np.argsort(inv) == np.argsort(-lk))
    assert np.allclose(K.allocate_noise(lk, 3.0, "uniform"), 1.0)


def test_noise_energy_is_the_expected_squared_norm_of_the_noise():
    var, n = np.array([0.25, 4.0]), np.array([30, 7])
    assert K.noise_energy(var, n) == pytest.approx(0.25 * 30 + 4.0 * 7)
    # Monte Carlo: the squared norm of one draw of the noise vector averages to the energy
    rng = np.random.default_rng(3)
    draws = [np.sum(np.sqrt(v) ** 2 * rng.normal(size=(4000, int(k))) ** 2, axis=1) for v, k in zip(var, n)]
    assert np.mean(draws[0] + draws[1]) == pytest.approx(K.noise_energy(var, n), rel=0.02)


def test_match_noise_energy_keeps_the_ratios_and_hits_the_energy():
    var, n = np.array([0.6, 0.2]), np.array([2080, 200])
    out = K.match_noise_energy(var, n, 10.0)
    assert K.noise_energy(out, n) == pytest.approx(10.0)
    assert out[0] / out[1] == pytest.approx(3.0)
    # uniform variances at the energy of an allocation: each equals E / sum(n)
    u = K.match_noise_energy(np.ones(2), n, K.noise_energy(var, n))
    np.testing.assert_allclose(u, K.noise_energy(var, n) / n.sum())
    # idempotent at its own energy
    np.testing.assert_allclose(K.match_noise_energy(var, n, K.noise_energy(var, n)), var)


def test_fc_analytic_inversion_is_exact_at_batch_one():
    rng = np.random.default_rng(4)
    n, h, d = 5, 7, 11
    x = rng.uniform(size=(n, d))
    delta = rng.normal(size=(n, h))
    gw = np.einsum("nh,nd->nhd", delta, x)
    np.testing.assert_allclose(K.fc_analytic_inversion(gw, delta), x, atol=1e-12)
    np.testing.assert_allclose(K.fc_analytic_inversion(gw[0], delta[0]), x[0], atol=1e-12)
    # a row-by-row ratio gives the same on any row with a nonzero bias gradient (the textbook form)
    np.testing.assert_allclose(gw[0, 3] / delta[0, 3], x[0], atol=1e-12)
    assert np.all(K.fc_analytic_inversion(gw[:1] * 0, delta[:1] * 0) == 0)


def test_analytic_inversion_of_the_late_fusion_gradients_recovers_both_modalities():
    a, b, y = K.make_two_modal_digits(0)
    rng = np.random.default_rng(0)
    p = K.init_late_fusion(64, 24, 8, 4, 10, rng)
    g = K.late_fusion_grads(p, a[:20], b[:20], y[:20])
    ok = np.abs(g["bA"]).sum(1) > 0
    np.testing.assert_allclose(K.fc_analytic_inversion(g["WA"], g["bA"])[ok], a[:20][ok], atol=1e-10)
    assert K.psnr(b[:20], K.fc_analytic_inversion(g["WB"], g["bB"])) > 40


def test_late_fusion_grads_match_finite_differences():
    a, b, y = K.make_two_modal_digits(0)
    rng = np.random.default_rng(5)
    p = K.init_late_fusion(64, 24, 3, 2, 10, rng)

    def loss(q):
        logits = K._forward(q, a[:1], b[:1])[3][0]
        return float(np.log(np.exp(logits - logits.max()).sum()) + logits.max() - logits[y[0]])

    g = K.late_fusion_grads(p, a[:1], b[:1], y[:1])
    for key, idx in (("WA", (1, 20)), ("bB", (0,)), ("V", (2, 4)), ("WB", (1, 5))):
        q = {k: v.copy() for k, v in p.items()}
        q[key][idx] += 1e-6
        r = {k: v.copy() for k, v in p.items()}
        r[key][idx] -= 1e-6
        assert g[key][0][idx] == pytest.approx((loss(q) - loss(r)) / 2e-6, abs=1e-6)


def test_psnr_closed_form_and_cap():
    x = np.zeros(100)
    assert K.psnr(x, x + 0.1) == pytest.approx(20.0)
    assert K.psnr(x, x) == 100.0
    assert K.psnr(x, x + 1e-9) == 100.0


def test_fedsgd_training_learns_and_leaves_its_input_alone():
    a, b, y = K.make_two_modal_digits(0)
    rng = np.random.default_rng(6)
    p0 = K.init_late_fusion(64, 24, 8, 4, 10, rng)
    before = {k: v.copy() for k, v in p0.items()}
    p = K.fedsgd_train(p0, a[:1000], b[:1000], y[:1000], 0.0, 0.0, 300, 4, 0.1, rng)
    assert all(np.array_equal(before[k], p0[k]) for k in p0)
    assert (K.predict(p, a[1000:], b[1000:]) == y[1000:]).mean() > 0.8


def test_bad_input():
    with pytest.raises(ValueError, match="same number of samples"):
        K.gaussian_mi(np.zeros((5, 1)), np.zeros((4, 1)))
    with pytest.raises(ValueError, match="NaN|finite|infinit"):
        K.gaussian_mi(np.array([1.0, np.nan, 2.0]), np.ones(3))
    with pytest.raises(ValueError, match="rule"):
        K.allocate_noise([1.0, 2.0], 1.0, "magic")
    with pytest.raises(ValueError, match="non-negative"):
        K.allocate_noise([-1.0, 2.0], 1.0)
    with pytest.raises(ValueError, match="total_var"):
        K.allocate_noise([1.0, 2.0], 0.0)
    with pytest.raises(ValueError, match="same shape"):
        K.noise_energy([1.0, 2.0], [3])
    with pytest.raises(ValueError, match="positive"):
        K.noise_energy([1.0, 2.0], [3, 0])
    with pytest.raises(ValueError, match="at least one positive"):
        K.match_noise_energy([0.0, 0.0], [3, 4], 1.0)
    with pytest.raises(ValueError, match="energy"):
        K.match_noise_energy([1.0, 0.0], [3, 4], 0.0)
    with pytest.raises(ValueError, match="disagree"):
        K.fc_analytic_inversion(np.zeros((2, 3, 4)), np.zeros((2, 4)))
    with pytest.raises(ValueError, match="shapes differ"):
        K.psnr(np.zeros(3), np.zeros(4))
    with pytest.raises(ValueError, match="rounds"):
        K.fedsgd_train({}, np.zeros((1, 1)), np.zeros((1, 1)), np.zeros(1, int), 0.0, 0.0, -1, 1, 0.1,
                       np.random.default_rng(0))
