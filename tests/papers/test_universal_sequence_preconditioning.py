"""Unit tests of the USP kernels (repro.papers.universal_sequence_preconditioning)."""

import numpy as np
import pytest
from numpy.polynomial import chebyshev as npcheb
from numpy.polynomial import legendre as npleg

from repro.papers import universal_sequence_preconditioning as K


def test_chebyshev_degree_two_closed_form():
    np.testing.assert_allclose(K.chebyshev_monic_coeffs(2), [1.0, 0.0, -0.5], atol=1e-15)
    np.testing.assert_allclose(K.chebyshev_monic_coeffs(0), [1.0])
    np.testing.assert_allclose(K.chebyshev_monic_coeffs(1), [1.0, 0.0])
    np.testing.assert_allclose(K.chebyshev_monic_coeffs(3), [1.0, 0.0, -0.75, 0.0], atol=1e-15)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 10])
def test_chebyshev_matches_numpy_chebyshev(n):
    c = K.chebyshev_monic_coeffs(n)
    assert c.shape == (n + 1,) and c[0] == 1.0
    z = np.linspace(-1.3, 1.3, 41)
    expected = 2.0 ** (1 - n) * npcheb.chebval(z, np.eye(n + 1)[n])
    np.testing.assert_allclose(np.polyval(c, z), expected, atol=1e-12)
    # minimal sup norm 2^{1-n} on [-1, 1], attained at the Chebyshev extrema
    grid = np.cos(np.linspace(0, np.pi, 2001))
    assert np.isclose(np.max(np.abs(np.polyval(c, grid))), 2.0 ** (1 - n), rtol=1e-10)


@pytest.mark.parametrize("n", [1, 2, 4, 7])
def test_legendre_matches_numpy_legendre(n):
    c = K.legendre_monic_coeffs(n)
    assert c[0] == 1.0
    z = np.linspace(-1, 1, 17)
    p = npleg.legval(z, np.eye(n + 1)[n])
    lead = npleg.leg2poly(np.eye(n + 1)[n])[-1]
    np.testing.assert_allclose(np.polyval(c, z), p / lead, atol=1e-12)


def test_legendre_degree_two():
    np.testing.assert_allclose(K.legendre_monic_coeffs(2), [1.0, 0.0, -1.0 / 3.0], atol=1e-15)


def test_monic_chebyshev_beats_legendre_in_sup_norm():
    grid = np.linspace(-1, 1, 4001)
    for n in range(2, 9):
        cheb = np.max(np.abs(np.polyval(K.chebyshev_monic_coeffs(n), grid)))
        leg = np.max(np.abs(np.polyval(K.legendre_monic_coeffs(n), grid)))
        assert cheb < leg


@pytest.mark.parametrize("n", [1, 2, 4, 8])
def test_chebyshev_on_interval(n):
    np.testing.assert_allclose(K.chebyshev_monic_coeffs_on(n, -1.0, 1.0), K.chebyshev_monic_coeffs(n), atol=1e-12)
    c = K.chebyshev_monic_coeffs_on(n, -1.0, 0.0)
    assert c[0] == 1.0 and c.shape == (n + 1,)
    grid = np.linspace(-1.0, 0.0, 2001)
    np.testing.assert_allclose(np.max(np.abs(np.polyval(c, grid))), 2 * 0.25**n, rtol=1e-9)
    roots = np.roots(c)
    assert np.all(np.abs(roots.imag) < 1e-6) and np.all((roots.real > -1) & (roots.real < 0))
    assert abs(np.polyval(c, 1.0)) > 1.0  # large where the spectra of the notebook's systems live
    with pytest.raises(ValueError):
        K.chebyshev_monic_coeffs_on(n, 0.0, 0.0)


def test_precondition_with_differencing_on_simulated_outputs():
    """Former page claim C3 (an identity of our code): lfilter([1, -1]) is np.diff on simulated LDS outputs."""
    Y, _ = K.simulate_batch(2, 20, "symmetric", 500, 0.01, np.random.default_rng(2))
    assert np.max(np.abs(K.precondition(Y, [1.0, -1.0]) - np.diff(Y, axis=1, prepend=0.0))) < 1e-12


@pytest.mark.parametrize("bad", [-1, 2.5, True, "3"])
def test_degree_validation(bad):
    with pytest.raises(ValueError):
        K.chebyshev_monic_coeffs(bad)
    with pytest.raises(ValueError):
        K.legendre_monic_coeffs(bad)


def test_precondition_with_differencing_is_box_jenkins():
    y = np.random.default_rng(1).standard_normal(50)
    out = K.precondition(y, [1.0, -1.0])
    np.testing.assert_allclose(out, np.diff(y, prepend=0.0), atol=1e-14)


def test_precondition_is_brute_force_convolution_and_batched():
    rng = np.random.default_rng(2)
    y = rng.standard_normal((3, 30))
    c = K.chebyshev_monic_coeffs(4)
    brute = np.array([[sum(c[i] * row[t - i] for i in range(len(c)) if t - i >= 0) for t in range(30)] for row in y])
    np.testing.assert_allclose(K.precondition(y, c), brute, atol=1e-12)


def test_unprecondition_round_trip_is_exact():
    rng = np.random.default_rng(3)
    y = rng.standard_normal((2, 40))
    for c in (K.chebyshev_monic_coeffs(5), K.legendre_monic_coeffs(3), np.array([1.0, -1.0]), np.array([1.0])):
        yt = K.precondition(y, c)
        np.testing.assert_allclose(K.unprecondition(yt, y, c), y, atol=1e-12)
        pred = yt + rng.standard_normal(yt.shape)  # error of the forecast of y equals error of y~
        np.testing.assert_allclose(y - K.unprecondition(pred, y, c), yt - pred, atol=1e-12)


def test_unprecondition_uses_only_the_past():
    rng = np.random.default_rng(4)
    y = rng.standard_normal(20)
    c = K.chebyshev_monic_coeffs(3)
    pred = rng.standard_normal(20)
    a = K.unprecondition(pred, y, c)
    y2 = y.copy()
    y2[10:] += 5.0
    b = K.unprecondition(pred, y2, c)
    np.testing.assert_allclose(a[:11], b[:11])  # y_t itself does not enter y^_t
    assert not np.allclose(a[11:], b[11:])


def test_coefficient_validation():
    with pytest.raises(ValueError):
        K.precondition(np.ones(5), [2.0, 1.0])
    with pytest.raises(ValueError):
        K.precondition(np.ones(5), [])
    with pytest.raises(ValueError):
        K.unprecondition(np.ones(5), np.ones(4), [1.0])
    with pytest.raises(ValueError):
        K.sup_on_spectrum([0.5, 1.0], [0.1])


def test_polynomial_identity_on_noiseless_lds():
    """y~_t = C p(A) x_{t-n} + sum_j (sum_{i<j} c_i C A^{j-1-i}) B u_{t-j} (the paper's key identity)."""
    rng = np.random.default_rng(5)
    A, B, C = K.random_lds(6, "asymmetric", rng)
    T, n = 60, 4
    u = rng.standard_normal(T)
    y = K.simulate_lds(A, B, C, u, 0.0, rng)
    c = K.chebyshev_monic_coeffs(n)
    yt = K.precondition(y, c)
    xs = np.zeros((T + 1, 6))
    for t in range(T):
        xs[t + 1] = A @ xs[t] + B[:, 0] * u[t]
    pA = sum(c[i] * np.linalg.matrix_power(A, n - i) for i in range(n + 1))
    for t in range(n, T):
        rhs = C[0] @ pA @ xs[t - n]
        for j in range(1, n + 1):
            G = sum(c[i] * np.linalg.matrix_power(A, j - 1 - i) for i in range(j))
            rhs += C[0] @ G @ B[:, 0] * u[t - j]
        assert np.isclose(yt[t], rhs, atol=1e-12)


def test_random_lds_spectra():
    rng = np.random.default_rng(6)
    A, B, C = K.random_lds(20, "symmetric", rng)
    assert np.allclose(A, A.T)
    ev = np.linalg.eigvalsh(A)
    assert ev.min() >= -1e-12 and ev.max() < 0.999 + 1e-12
    A, B, C = K.random_lds(20, "asymmetric", rng)
    assert not np.allclose(A, A.T)
    ev = np.linalg.eigvals(A)
    assert np.all((np.abs(ev) >= 0.9 - 1e-9) & (np.abs(ev) <= 0.999 + 1e-9))
    assert np.all(np.abs(np.angle(ev)) <= 0.3 + 1e-9)
    assert B.shape == (20, 1) and C.shape == (1, 20)
    with pytest.raises(ValueError):
        K.random_lds(5, "symmetric", rng)
    with pytest.raises(ValueError):
        K.random_lds(4, "diagonal", rng)


def test_simulate_lds_matches_impulse_response():
    rng = np.random.default_rng(7)
    A, B, C = K.random_lds(8, "symmetric", rng)
    u = rng.standard_normal(30)
    y = K.simulate_lds(A, B, C, u, 0.0, rng)
    h = np.array([0.0] + [(C @ np.linalg.matrix_power(A, k) @ B).item() for k in range(29)])
    np.testing.assert_allclose(y, np.convolve(u, h)[:30], atol=1e-12)
    y_nl = K.simulate_lds(A, B, C, 50 * u, 0.0, rng, nonlinearity="tanh")
    assert not np.allclose(y_nl, 50 * y)
    with pytest.raises(ValueError):
        K.simulate_lds(A, B, C, u, -1.0, rng)
    with pytest.raises(ValueError):
        K.simulate_lds(A, B, C, u, 0.0, rng, nonlinearity="relu")
    with pytest.raises(ValueError):
        K.simulate_lds(A, B.T, C, u, 0.0, rng)


def test_window_and_arx_features():
    u = np.arange(1.0, 6.0)
    X = K.input_window_features(u, 3)
    np.testing.assert_allclose(X[0], [0, 0, 0])
    np.testing.assert_allclose(X[4], [4, 3, 2])
    y = -u
    Z = K.arx_features(y, u, 2, 1)
    np.testing.assert_allclose(Z[3], [-3, -2, 3])
    with pytest.raises(ValueError):
        K.input_window_features(u, 0)
    with pytest.raises(ValueError):
        K.arx_features(y[:3], u, 1, 1)


def test_hankel_matrix_symmetric_psd_and_filters():
    Z = K.hankel_matrix(40)
    assert np.allclose(Z, Z.T)
    assert np.isclose(Z[0, 0], 2.0 / (8 - 2))
    assert np.linalg.eigvalsh(Z).min() > -1e-12
    sigma, phi = K.spectral_filters(40, 5)
    assert np.all(np.diff(sigma) < 0)
    np.testing.assert_allclose(phi.T @ phi, np.eye(5), atol=1e-10)
    np.testing.assert_allclose(Z @ phi, phi * sigma, atol=1e-10)
    with pytest.raises(ValueError):
        K.spectral_filters(4, 5)


def test_spectral_features_brute_force():
    rng = np.random.default_rng(8)
    u = rng.standard_normal(25)
    L, k = 6, 3
    F = K.spectral_features(u, L, k)
    sigma, phi = K.spectral_filters(L, k)
    t = 17
    brute = np.array([sigma[j] ** 0.25 * sum(phi[s - 1, j] * u[t - s] for s in range(1, L + 1)) for j in range(k)])
    np.testing.assert_allclose(F[t], brute, atol=1e-12)


def test_online_rls_equals_batch_ridge_on_each_prefix():
    rng = np.random.default_rng(9)
    R, T, p, Kt, lam = 2, 60, 4, 3, 0.7
    X = rng.standard_normal((R, T, p))
    Y = rng.standard_normal((R, T, Kt))
    preds, W = K.online_rls(X, Y, lam)
    for r in range(R):
        for t in (0, 1, 10, 59):
            w = np.linalg.solve(lam * np.eye(p) + X[r, :t].T @ X[r, :t], X[r, :t].T @ Y[r, :t])
            np.testing.assert_allclose(preds[r, t], X[r, t] @ w, atol=1e-8)
        w_all = np.linalg.solve(lam * np.eye(p) + X[r].T @ X[r], X[r].T @ Y[r])
        np.testing.assert_allclose(W[r], w_all, atol=1e-8)
    with pytest.raises(ValueError):
        K.online_rls(X, Y, 0.0)
    with pytest.raises(ValueError):
        K.online_rls(X[0], Y[0], 1.0)


def test_sup_on_spectrum():
    assert np.isclose(K.sup_on_spectrum([1.0, -1.0], [0.2, 0.9]), 0.8)
    assert np.isclose(K.sup_on_spectrum(K.chebyshev_monic_coeffs(2), [1j * 0.5]), 0.75)


def test_usp_squared_errors_matches_manual_pipeline_and_helps_on_lds():
    rng = np.random.default_rng(10)
    Y, U = K.simulate_batch(2, 10, "symmetric", 800, 0.01, rng)
    assert Y.shape == U.shape == (2, 800)
    X = K.input_window_features(U, 6)
    cs = [np.array([1.0]), K.chebyshev_monic_coeffs(4)]
    E = K.usp_squared_errors(X, Y, cs, 1.0)
    yt = K.precondition(Y, cs[1])
    pr, _ = K.online_rls(X, yt[..., None], 1.0)
    np.testing.assert_allclose(E[..., 1], (yt - pr[..., 0]) ** 2, atol=1e-12)
    pr0, _ = K.online_rls(X, Y[..., None], 1.0)
    np.testing.assert_allclose(E[..., 0], (Y - pr0[..., 0]) ** 2, atol=1e-12)
    with pytest.raises(ValueError):
        K.usp_squared_errors(X, Y, [], 1.0)
    with pytest.raises(ValueError):
        K.simulate_batch(0, 10, "symmetric", 10, 0.0, rng)


@pytest.mark.parametrize("n", [0, 1, 2, 4, 8])
def test_repeated_differencing_is_binomial_and_iterated_differencing(n):
    from math import comb

    c = K.repeated_differencing_coeffs(n)
    assert np.array_equal(c, [(-1) ** i * comb(n, i) for i in range(n + 1)])
    assert np.allclose(np.polyval(c, 1.0), 0.0 if n else 1.0) and abs(c).sum() == 2**n
    y = np.random.default_rng(3).standard_normal(50)
    z = y.copy()
    for _ in range(n):  # differencing n times, with y_{t<0} = 0
        z = z - np.concatenate([[0.0], z[:-1]])
    assert np.allclose(K.precondition(y, c), z, atol=1e-12)
    with pytest.raises(ValueError):
        K.repeated_differencing_coeffs(-1)
