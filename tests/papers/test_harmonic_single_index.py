"""Unit tests of :mod:`repro.papers.harmonic_single_index`, the kernels of ``notebooks/harmonic-single-index.py``."""

import inspect
import math

import numpy as np
import pytest
from scipy import integrate
from scipy.special import eval_gegenbauer

from repro.papers import harmonic_single_index as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/harmonic_single_index.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"




# ----------------------------------------------------------------------------- Gegenbauer polynomials
RNG = np.random.default_rng(2025)


@pytest.mark.parametrize("alpha", [0.0, -0.25, 0.5, 1.0, 3.5, 11.0])
@pytest.mark.parametrize("k", range(8))
def test_gegenbauer_matches_scipy(k, alpha):
    t = np.linspace(-1.3, 1.3, 27).reshape(3, 9)
    got = K.gegenbauer(k, alpha, t)
    assert got.shape == t.shape
    np.testing.assert_allclose(got, eval_gegenbauer(k, alpha, t), rtol=1e-11, atol=1e-11)


def test_gegenbauer_closed_forms_and_three_term_recurrence():
    t, a = np.linspace(-1, 1, 11), 2.5
    np.testing.assert_allclose(K.gegenbauer(0, a, t), 1.0)
    np.testing.assert_allclose(K.gegenbauer(1, a, t), 2 * a * t)
    np.testing.assert_allclose(K.gegenbauer(2, a, t), 2 * a * (1 + a) * t**2 - a, rtol=1e-13, atol=1e-13)
    for n in range(2, 9):  # n C_n = 2 t (n + a - 1) C_{n-1} - (n + 2a - 2) C_{n-2}
        lhs = n * K.gegenbauer(n, a, t)
        rhs = 2 * t * (n + a - 1) * K.gegenbauer(n - 1, a, t) - (n + 2 * a - 2) * K.gegenbauer(n - 2, a, t)
        np.testing.assert_allclose(lhs, rhs, rtol=1e-12, atol=1e-10)
    # C_k^{1/2} are the Legendre polynomials, C_k^1 the Chebyshev polynomials of the second kind at cos
    np.testing.assert_allclose(K.gegenbauer(3, 0.5, t), (5 * t**3 - 3 * t) / 2, atol=1e-13)
    th = np.linspace(0.1, 3.0, 7)
    np.testing.assert_allclose(K.gegenbauer(4, 1.0, np.cos(th)), np.sin(5 * th) / np.sin(th), atol=1e-12)


@pytest.mark.parametrize("alpha", [0.5, 1.0, 7.0])
def test_gegenbauer_orthogonal_under_the_weight(alpha):
    w = lambda t: (1 - t * t) ** (alpha - 0.5)  # noqa: E731
    for j in range(5):
        for k in range(5):
            val = integrate.quad(lambda t: K.gegenbauer(j, alpha, t) * K.gegenbauer(k, alpha, t) * w(t), -1, 1)[0]
            if j != k:
                assert abs(val) < 1e-9
            else:
                norm = (math.pi * 2 ** (1 - 2 * alpha) * math.gamma(k + 2 * alpha)
                        / (math.factorial(k) * (k + alpha) * math.gamma(alpha) ** 2))
                assert val == pytest.approx(norm, rel=1e-8)


@pytest.mark.parametrize("bad", [dict(k=-1), dict(k=1.5), dict(k=True), dict(alpha=-0.5), dict(alpha=-2.0),
                                 dict(alpha=float("nan")), dict(alpha="1"), dict(t=[0.1, np.inf]), dict(t=[np.nan])])
def test_gegenbauer_rejects_bad_input(bad):
    args = dict(k=2, alpha=1.0, t=[0.1, 0.2]) | bad
    with pytest.raises(ValueError):
        K.gegenbauer(args["k"], args["alpha"], args["t"])


@pytest.mark.parametrize("d", [3, 5, 16, 48])
def test_sphere_density_integrates_to_one_and_normalized_gegenbauer_has_unit_variance(d):
    assert integrate.quad(lambda t: K.sphere_marginal_density(t, d), -1, 1)[0] == pytest.approx(1, rel=1e-8)
    for k in range(1, 5):
        var = integrate.quad(lambda t: K.gegenbauer_normalized(k, d, t) ** 2 * K.sphere_marginal_density(t, d), -1, 1)[0]
        assert var == pytest.approx(1.0, rel=1e-7)


def test_normalized_gegenbauer_has_unit_variance_monte_carlo_on_the_sphere():
    d, n = 16, 200_000
    X = K.sample_spherical_inputs(n, d, "sphere", RNG)
    t = X[:, 0] / math.sqrt(d)
    v = K.gegenbauer_normalized(3, d, t) ** 2
    assert abs(v.mean() - 1) < 3 * v.std() / math.sqrt(n)


def test_normalized_derivative_matches_finite_differences():
    t = np.linspace(-0.9, 0.9, 13)
    h = 1e-6
    fd = (K.gegenbauer_normalized(3, 10, t + h) - K.gegenbauer_normalized(3, 10, t - h)) / (2 * h)
    np.testing.assert_allclose(K.gegenbauer_normalized_derivative(3, 10, t), fd, rtol=1e-6, atol=1e-6)


# ----------------------------------------------------------------------------- inputs and labels
def test_inputs_have_the_right_radius_and_unit_variance_projection():
    Xs = K.sample_spherical_inputs(50_000, 12, "sphere", RNG)
    np.testing.assert_allclose(np.linalg.norm(Xs, axis=1), math.sqrt(12))
    Xg = K.sample_spherical_inputs(50_000, 12, "gaussian", RNG)
    for X in (Xs, Xg):
        z = X @ K.random_unit_vector(12, RNG)
        assert abs(z.mean()) < 0.03 and z.var() == pytest.approx(1, abs=0.03)  # 4 standard errors
    with pytest.raises(ValueError, match="law"):
        K.sample_spherical_inputs(10, 5, "laplace", RNG)
    with pytest.raises(ValueError, match="d must"):
        K.sample_spherical_inputs(10, 2, "sphere", RNG)


@pytest.mark.parametrize("link,law", [("gegenbauer3", "sphere"), ("hermite3", "gaussian")])
@pytest.mark.parametrize("d", [12, 24])
def test_link_has_no_degree_one_part_and_stays_in_range(link, law, d):
    beta = K.degree_one_coefficient(link, d, 0.3, law)
    if law == "sphere":
        s = math.sqrt(d)
        e = integrate.quad(lambda t: float(K.link_q(s * t, link, d, 0.3, beta)) * s * t * K.sphere_marginal_density(t, d),
                           -1, 1, points=(-0.5, 0, 0.5), limit=200)[0]
        z = s * np.linspace(-1, 1, 2001)
    else:
        e = integrate.quad(lambda z: float(K.link_q(z, link, d, 0.3, beta)) * z * math.exp(-z * z / 2),
                           -12, 12, points=(-3, 0, 3), limit=200)[0]
        z = np.linspace(-12, 12, 2001)
    assert abs(e) < 1e-9
    q = K.link_q(z, link, d, 0.3, beta)
    assert np.all(np.abs(q) <= 1) and np.allclose(q, -q[::-1])  # bounded and odd: no degree-2 part


def test_binary_labels_have_mean_q():
    q = np.full(100_000, 0.3)
    y = K.binary_labels(q, RNG)
    assert set(np.unique(y)) == {-1.0, 1.0} and abs(y.mean() - 0.3) < 0.01
    with pytest.raises(ValueError):
        K.binary_labels([1.2], RNG)
    with pytest.raises(ValueError, match="link"):
        K.base_link([0.1], "legendre", 10, 0.3)
    with pytest.raises(ValueError, match="gamma"):
        K.base_link([0.1], "hermite3", 10, 0.0)


# ----------------------------------------------------------------------------- estimators
def unit_rows(n, d):
    G = RNG.standard_normal((n, d))
    return G / np.linalg.norm(G, axis=1, keepdims=True)


def test_harmonic_tensor3_is_symmetric_traceless_and_contracts_to_gegenbauer():
    d = 6
    U = unit_rows(4, d)
    H = K.harmonic_tensor3(U)
    for perm in [(0, 2, 1, 3), (0, 1, 3, 2), (0, 3, 2, 1)]:
        np.testing.assert_allclose(H, H.transpose(perm), atol=1e-15)
    np.testing.assert_allclose(np.einsum("mijj->mi", H), 0, atol=1e-14)
    w = unit_rows(1, d)[0]
    t = U @ w
    contracted = np.einsum("mijk,i,j,k->m", H, w, w, w)
    np.testing.assert_allclose(contracted, t**3 - 3 * t / (d + 2), atol=1e-14)
    ratio = contracted / K.gegenbauer(3, (d - 2) / 2, t)
    np.testing.assert_allclose(ratio, ratio[0], rtol=1e-10)
    with pytest.raises(ValueError, match="unit"):
        K.harmonic_tensor3(2 * U)


def test_unfolding_matrix_equals_the_materialised_tensor_mean():
    d, m = 5, 37
    X = 3.0 * unit_rows(m, d) * RNG.uniform(0.5, 2, (m, 1))
    y = RNG.choice([-1.0, 1.0], m)
    U = X / np.linalg.norm(X, axis=1, keepdims=True)
    ref = np.einsum("m,mijk->ijk", y, K.harmonic_tensor3(U)).reshape(d, d * d) / m
    np.testing.assert_allclose(K.unfolding_matrix(X, y, chunk=7), ref, atol=1e-14)


def test_estimators_return_unit_vectors_and_recover_a_noiseless_signal():
    d, m = 8, 20_000
    w = K.random_unit_vector(d, RNG)
    X = K.sample_spherical_inputs(m, d, "sphere", RNG)
    t = X @ w / math.sqrt(d)
    y3 = K.gegenbauer_normalized(3, d, t)       # real-valued degree-3 label: E[y H3] ∝ w^{⊗3}
    y2 = K.gegenbauer_normalized(2, d, t)
    y1 = t
    assert K.overlap(K.unfolding_estimator(X, y3), w) > 0.98
    assert K.overlap(K.spectral_estimator(X, y2, 2), w) > 0.98
    assert K.overlap(K.spectral_estimator(X, y1, 1), w) > 0.98
    for est in (K.unfolding_estimator(X, y3), K.spectral_estimator(X, y3, 2), K.radial_degree1_estimator(X, y3)):
        assert np.linalg.norm(est) == pytest.approx(1, abs=1e-12)
    with pytest.raises(ValueError, match="degree"):
        K.spectral_estimator(X, y1, 3)
    with pytest.raises(ValueError, match="shape"):
        K.unfolding_estimator(X, y1[:-1])
    with pytest.raises(ValueError, match="zero row"):
        K.unfolding_estimator(np.zeros((3, 4)), np.ones(3))


def test_radial_statistic_follows_steins_lemma_on_gaussian_inputs():
    # E[q(z)(|x|^2 - d - 2) x] = E[q(z)(z^3 - 3z)] w for x ~ N(0, I); with q = He3/sqrt6, that is sqrt6 w
    d, m = 6, 400_000
    w = np.eye(d)[0]
    X = K.sample_spherical_inputs(m, d, "gaussian", RNG)
    q = K.hermite3(X[:, 0]) / math.sqrt(6)
    v = ((q * (np.einsum("ij,ij->i", X, X) - d - 2))[:, None] * X).mean(axis=0)
    assert v[0] == pytest.approx(math.sqrt(6), rel=0.05) and np.all(np.abs(v[1:]) < 0.1)
    assert K.overlap(K.radial_degree1_estimator(X, q), w) > 0.99


def test_online_sgd_keeps_unit_norm_is_batch_consistent_and_validates():
    d, m = 10, 640
    X = K.sample_spherical_inputs(m, d, "sphere", RNG)
    y = RNG.choice([-1.0, 1.0], m)
    w0 = K.random_unit_vector(d, RNG)
    w = K.online_spherical_sgd(X, y, w0, 3, 0.05, 16)
    assert w.shape == (d,) and np.linalg.norm(w) == pytest.approx(1, abs=1e-12)
    wb = K.online_spherical_sgd(np.stack([X, X]), np.stack([y, y]), np.stack([w0, w0]), 3, 0.05, 16)
    np.testing.assert_allclose(wb, np.stack([w, w]), atol=1e-13)
    two = K.online_spherical_sgd(X[320:], y[320:], K.online_spherical_sgd(X[:320], y[:320], w0, 3, 0.05, 16), 3, 0.05, 16)
    np.testing.assert_allclose(two, w, atol=1e-13)  # streaming in chunks = one pass
    one = K.online_spherical_sgd(X[:1], y[:1], w0, 3, 0.05, 1)  # one step by hand
    u = X[0] / np.linalg.norm(X[0])
    t = u @ w0
    g = y[0] * K.gegenbauer_normalized_derivative(3, d, t) * (u - t * w0)
    np.testing.assert_allclose(one, (w0 + 0.05 * g) / np.linalg.norm(w0 + 0.05 * g), atol=1e-14)
    with pytest.raises(ValueError, match="lr"):
        K.online_spherical_sgd(X, y, w0, 3, -1.0, 16)
    with pytest.raises(ValueError, match="unit"):
        K.online_spherical_sgd(X, y, 2 * w0, 3, 0.1, 16)


def test_overlap_and_threshold_crossing():
    assert K.overlap(np.array([3.0, 4.0]), np.array([0.0, -1.0])) == pytest.approx(0.8)
    c = np.array([1.0, 2.0, 4.0, 8.0])
    assert K.threshold_crossing(c, [0.1, 0.5, 0.9, 1.0], 0.7) == pytest.approx(2 * 2**0.5)  # halfway in log c
    assert K.threshold_crossing(c, [0.9, 0.95, 1, 1], 0.8) == 1.0
    assert math.isnan(K.threshold_crossing(c, [0.1, 0.2, 0.3, 0.4], 0.8))
    with pytest.raises(ValueError, match="increasing"):
        K.threshold_crossing([2.0, 1.0], [0.1, 0.2], 0.5)


def test_comparator_unfoldings_match_materialised_tensors_and_recover_a_noiseless_signal():
    d, m = 5, 41
    X = 2.0 * unit_rows(m, d) * RNG.uniform(0.5, 2, (m, 1))
    y = RNG.choice([-1.0, 1.0], m)
    U = X / np.linalg.norm(X, axis=1, keepdims=True)
    raw = np.einsum("m,mi,mj,mk->ijk", y, U, U, U).reshape(d, d * d) / m
    eye = np.eye(d)
    he3 = (np.einsum("mi,mj,mk->mijk", X, X, X) - np.einsum("mi,jk->mijk", X, eye)
           - np.einsum("mj,ik->mijk", X, eye) - np.einsum("mk,ij->mijk", X, eye))
    herm = np.einsum("m,mijk->ijk", y, he3).reshape(d, d * d) / m
    np.testing.assert_allclose(K._cubic_unfolding(U, y, 0.0, chunk=6), raw, atol=1e-14)
    np.testing.assert_allclose(K._cubic_unfolding(X, y, 1.0, chunk=6), herm, atol=1e-12)
    # the harmonic version is the same helper with the 1/(d+2) trace weight
    np.testing.assert_allclose(K._cubic_unfolding(U, y, 1 / (d + 2)), K.unfolding_matrix(X, y), atol=1e-14)
    # a real-valued Hermite-3 label on Gaussian inputs: both comparators find w, and return unit vectors
    d, m = 8, 40_000
    w = K.random_unit_vector(d, RNG)
    X = K.sample_spherical_inputs(m, d, "gaussian", RNG)
    yh = K.hermite3(X @ w)
    for est in (K.hermite_unfolding_estimator(X, yh), K.raw_moment_unfolding_estimator(X, yh)):
        assert np.linalg.norm(est) == pytest.approx(1, abs=1e-12)
        assert K.overlap(est, w) > 0.95
    with pytest.raises(ValueError, match="shape"):
        K.hermite_unfolding_estimator(X, yh[:-1])


def test_multivariate_t_scale_and_directions():
    rng = np.random.default_rng(0)
    X = K.sample_multivariate_t(40000, 8, 4.0, rng)
    assert X.shape == (40000, 8)
    r2 = np.sum(X**2, axis=1)
    # E|x|^2 = d (the variance of |x|^2 is infinite at nu = 4, so a loose check)
    assert abs(np.mean(r2) / 8 - 1) < 0.1
    U = X / np.sqrt(r2)[:, None]
    assert np.allclose(U.mean(axis=0), 0, atol=0.02)
    with pytest.raises(ValueError):
        K.sample_multivariate_t(10, 8, 2.0, rng)


def test_offdiagonal_moment_recovers_and_is_unit():
    rng = np.random.default_rng(1)
    d = 10
    w = K.random_unit_vector(d, rng)
    X = K.sample_spherical_inputs(20000, d, "sphere", rng)
    beta = K.degree_one_coefficient("gegenbauer3", d, 0.3, "sphere")
    y = K.binary_labels(K.link_q(X @ w, "gegenbauer3", d, 0.3, beta), rng)
    v = K.offdiagonal_moment_unfolding_estimator(X, y)
    assert abs(np.linalg.norm(v) - 1) < 1e-12
    assert K.overlap(v, w) > 0.8
    with pytest.raises(ValueError):
        K.offdiagonal_moment_unfolding_estimator(X[:, :2], y)


def test_multistart_gradient_ascent_unit_and_finds_planted_direction():
    rng = np.random.default_rng(2)
    d = 8
    w = K.random_unit_vector(d, rng)
    X = K.sample_spherical_inputs(20000, d, "sphere", rng)
    beta = K.degree_one_coefficient("gegenbauer3", d, 0.3, "sphere")
    y = K.binary_labels(K.link_q(X @ w, "gegenbauer3", d, 0.3, beta), rng)
    v = K.multistart_gradient_ascent(X, y, np.random.default_rng(3))
    assert abs(np.linalg.norm(v) - 1) < 1e-12
    assert K.overlap(v, w) > 0.8
    with pytest.raises(ValueError):
        K.multistart_gradient_ascent(X, y, rng, lr=-1.0)


def test_raw_degree1_estimator_closed_form():
    X = np.array([[1.0, 0, 0], [0, 2.0, 0], [0, 0, 1.0]])
    y = np.array([1.0, 1.0, -1.0])
    assert np.allclose(K.raw_degree1_estimator(X, y), np.array([1, 2, -1]) / math.sqrt(6))
    assert np.allclose(K.raw_degree1_estimator(X, y, "radius2"), np.array([1, 8, -1]) / math.sqrt(66))
    with pytest.raises(ValueError):
        K.raw_degree1_estimator(X, y, "cube")
