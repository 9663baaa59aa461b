import numpy as np
import pytest
from scipy.linalg import solve_continuous_lyapunov, solve_discrete_lyapunov

from repro.papers import sgd_general_lr_asymptotics as K

H5 = np.diag([1.0, 0.5, 0.25, 0.1, 0.05])


def _random_spd(rng, d):
    A = rng.standard_normal((d, d))
    return A @ A.T / d + 0.2 * np.eye(d)


# ---------------------------------------------------------------- schedules
def test_schedules_shapes_and_values():
    T = 1000
    assert np.allclose(K.lr_schedule("constant", T, eta0=0.3), 0.3)
    pol = K.lr_schedule("polynomial", T, eta0=0.5, alpha=0.6)
    assert pol[0] == 0.5 and np.isclose(pol[99], 0.5 * 100**-0.6)
    inv = K.lr_schedule("inverse", T, c=20, t0=80)
    assert np.isclose(inv[0], 0.25) and np.isclose(inv[920], 20 / 1000)
    cyc = K.lr_schedule("cyclic", T, eta0=0.25, eta_min=0.01, period=200)
    assert np.isclose(cyc[0], 0.01) and np.isclose(cyc[100], 0.25) and np.isclose(cyc[200], 0.01)
    assert np.allclose(cyc[:200], cyc[200:400])
    lin = K.lr_schedule("linear", T, eta0=0.2)
    assert lin[0] == 0.2 and np.isclose(lin[-1], 0.2 / T) and np.all(np.diff(lin) < 0)
    for kind in K.SCHEDULES:
        assert K.lr_schedule(kind, T).shape == (T,)


@pytest.mark.parametrize(
    "kwargs",
    [dict(kind="cosine", T=10), dict(kind="constant", T=0), dict(kind="constant", T=10, eta0=-1.0),
     dict(kind="polynomial", T=10, alpha=1.5), dict(kind="cyclic", T=10, eta_min=1.0, eta0=0.1)],
)
def test_schedule_bad_inputs(kwargs):
    with pytest.raises(ValueError):
        K.lr_schedule(**kwargs)


# ---------------------------------------------------------------- recursion
def test_zero_step_keeps_sigma_constant():
    rng = np.random.default_rng(0)
    S0 = _random_spd(rng, 4)
    out = K.second_moment_recursion(_random_spd(rng, 4), 1.0, np.zeros(7), S0)
    assert out.shape == (8, 4, 4)
    assert np.allclose(out, S0[None])


def test_scalar_constant_fixed_point_additive():
    h, s, eta = 0.7, 1.3, 0.1
    v = K.linear_sa_recursion([[h]], [[s]], np.full(3000, eta), [[0.0]])[-1, 0, 0]
    assert np.isclose(v, eta * s / (h * (2 - eta * h)), rtol=1e-10)


def test_one_step_matches_formula_general_H():
    rng = np.random.default_rng(1)
    H, S0 = _random_spd(rng, 4), _random_spd(rng, 4)
    eta, sig = 0.07, 0.8
    I = np.eye(4)
    expect = S0 - eta * (H @ S0 + S0 @ H) + eta**2 * (2 * H @ S0 @ H + np.trace(H @ S0) * H + sig**2 * H)
    got = K.second_moment_recursion(H, sig, [eta], S0)[1]
    assert np.allclose(got, expect, atol=1e-13)
    add = K.second_moment_recursion(H, sig, [eta], S0, design="additive")[1]
    assert np.allclose(add, (I - eta * H) @ S0 @ (I - eta * H) + eta**2 * sig**2 * H, atol=1e-13)


def test_constant_step_fixed_point_matches_discrete_lyapunov():
    rng = np.random.default_rng(2)
    A, S = _random_spd(rng, 3), _random_spd(rng, 3)
    eta = 0.2
    M = np.eye(3) - eta * A
    ref = solve_discrete_lyapunov(M, eta**2 * S)
    got = K.linear_sa_recursion(A, S, np.full(4000, eta), np.zeros((3, 3)))[-1]
    assert np.allclose(got, ref, rtol=1e-8)


def test_small_eta_limit_is_continuous_lyapunov():
    # Σ∞ ≈ η X with A X + X A = S; commuting case X = S A^{-1}/2
    rng = np.random.default_rng(3)
    A, S = _random_spd(rng, 3), _random_spd(rng, 3)
    eta = 1e-3
    got = K.linear_sa_recursion(A, S, np.full(60000, eta), np.zeros((3, 3)))[-1]
    X = solve_continuous_lyapunov(A, S)
    assert np.allclose(got / eta, X, rtol=5e-3, atol=1e-4)
    got_ls = K.second_moment_recursion(H5[:3, :3], 1.0, np.full(60000, eta), np.zeros((3, 3)), "additive")[-1]
    assert np.allclose(got_ls / eta, 0.5 * np.eye(3), rtol=5e-3)


def test_linear_decay_scalar_rate_formula():
    h, s, eta0 = 1.0, 1.0, 0.1
    Ts = [4000, 16000]
    vs = [K.linear_sa_recursion([[h]], [[s]], K.lr_schedule("linear", T, eta0=eta0), [[0.0]])[-1, 0, 0] for T in Ts]
    pred = K.linear_decay_final_variance(h, s, eta0, Ts)
    assert np.allclose(vs, pred, rtol=0.05)


def test_isserlis_identity_by_monte_carlo():
    rng = np.random.default_rng(4)
    H = _random_spd(rng, 3)
    A = _random_spd(rng, 3)
    x = rng.multivariate_normal(np.zeros(3), H, size=400_000)
    q = np.einsum("ni,ij,nj->n", x, A, x)
    mc = (x * q[:, None]).T @ x / x.shape[0]
    assert np.allclose(mc, 2 * H @ A @ H + np.trace(H @ A) * H, rtol=0.03, atol=0.03)


def test_recursion_bad_inputs():
    with pytest.raises(ValueError):
        K.second_moment_recursion(np.diag([1.0, -1.0]), 1.0, [0.1], np.eye(2))
    with pytest.raises(ValueError):
        K.second_moment_recursion(np.eye(2), -1.0, [0.1], np.eye(2))
    with pytest.raises(ValueError):
        K.second_moment_recursion(np.eye(2), 1.0, [-0.1], np.eye(2))
    with pytest.raises(ValueError):
        K.second_moment_recursion(np.eye(2), 1.0, [0.1], np.eye(3))
    with pytest.raises(ValueError):
        K.second_moment_recursion(np.eye(2), 1.0, [0.1], np.eye(2), design="laplace")
    with pytest.raises(ValueError):
        K.linear_sa_recursion(np.array([[1.0, 0.5], [0.0, 1.0]]), np.eye(2), [0.1], np.eye(2))


# ---------------------------------------------------------------- Monte Carlo
def test_linreg_mc_matches_recursion():
    rng = np.random.default_rng(5)
    H = np.array([[1.0, 0.3], [0.3, 0.5]])
    etas = K.lr_schedule("polynomial", 300, eta0=0.3, alpha=0.6)
    ts = np.array([1.0, -1.0])
    D = K.sgd_linreg_mc(H, ts, 0.7, etas, np.zeros(2), 20000, rng, record=[0, 100, 300])
    assert D.shape == (3, 20000, 2)
    assert np.allclose(D[0], -ts)
    ref = K.second_moment_recursion(H, 0.7, etas, np.outer(ts, ts))
    for k, t in enumerate([100, 300]):
        assert K.relative_frobenius_error(K.second_moment(D[k + 1]), ref[t]) < 0.04
    # the additive recursion leaves out the multiplicative noise and is measurably off at this step size
    add = K.second_moment_recursion(H, 0.7, etas, np.outer(ts, ts), design="additive")[300]
    assert K.relative_frobenius_error(add, ref[300]) > 0.05


def test_mc_is_deterministic_and_zero_noise_is_exact_gd_in_mean():
    H = np.diag([1.0, 0.2])
    etas = np.full(50, 0.1)
    a = K.sgd_linreg_mc(H, np.ones(2), 1.0, etas, np.zeros(2), 10, np.random.default_rng(7))
    b = K.sgd_linreg_mc(H, np.ones(2), 1.0, etas, np.zeros(2), 10, np.random.default_rng(7))
    assert a.shape == (10, 2) and np.array_equal(a, b)
    # sigma=0 and theta0=theta*: chains never move
    c = K.sgd_linreg_mc(H, np.ones(2), 0.0, etas, np.ones(2), 10, np.random.default_rng(7))
    assert np.allclose(c, 0.0)


def test_logistic_hessian_against_monte_carlo():
    ts = np.array([1.0, -1.0, 0.5])
    Hl = K.logistic_hessian_gaussian(ts)
    rng = np.random.default_rng(8)
    x = rng.standard_normal((400_000, 3))
    p = 1 / (1 + np.exp(-x @ ts))
    mc = (x * (p * (1 - p))[:, None]).T @ x / x.shape[0]
    assert np.allclose(Hl, mc, atol=3e-3)
    assert np.allclose(Hl, Hl.T)


def test_logreg_mc_covariance_matches_linearised_recursion():
    ts = np.array([1.0, -1.0, 0.5])
    Hl = K.logistic_hessian_gaussian(ts)
    etas = K.lr_schedule("constant", 800, eta0=0.02)
    D = K.sgd_logreg_mc(ts, etas, ts.copy(), 4000, np.random.default_rng(9))
    ref = K.linear_sa_recursion(Hl, Hl, etas, np.zeros((3, 3)))[-1]
    assert K.relative_frobenius_error(K.second_moment(D), ref) < 0.1


def test_mc_bad_inputs():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError):
        K.sgd_linreg_mc(np.eye(2), np.ones(3), 1.0, [0.1], np.zeros(2), 5, rng)
    with pytest.raises(ValueError):
        K.sgd_linreg_mc(np.eye(2), np.ones(2), 1.0, [0.1], np.zeros(2), 0, rng)
    with pytest.raises(ValueError):
        K.sgd_linreg_mc(np.eye(2), np.ones(2), 1.0, [0.1], np.zeros(2), 5, rng, record=[2])
    with pytest.raises(ValueError):
        K.sgd_logreg_mc(np.ones(2), [0.1], np.zeros(3), 5, rng)
    with pytest.raises(ValueError):
        K.logistic_hessian_gaussian(np.zeros(3))


# ---------------------------------------------------------------- small helpers
def test_ci_coverage():
    rng = np.random.default_rng(10)
    est = rng.standard_normal(200_000)
    assert abs(K.ci_coverage(est, 1.0, 0.0, 0.95) - 0.95) < 0.003
    assert abs(K.ci_coverage(est, 1.0, 0.0, 0.5) - 0.5) < 0.005
    assert K.ci_coverage(est, 0.5, 0.0) < 0.7
    with pytest.raises(ValueError):
        K.ci_coverage(est, 0.0, 0.0)
    with pytest.raises(ValueError):
        K.ci_coverage(est, 1.0, 0.0, level=1.0)


def test_relative_frobenius_and_second_moment():
    A = np.eye(2)
    assert K.relative_frobenius_error(2 * A, A) == pytest.approx(1.0)
    D = np.array([[1.0, 0.0], [0.0, 2.0]])
    assert np.allclose(K.second_moment(D), np.diag([0.5, 2.0]))
    with pytest.raises(ValueError):
        K.relative_frobenius_error(A, np.zeros((2, 2)))
    with pytest.raises(ValueError):
        K.second_moment(np.ones(3))


def test_cycles_to_steady_state():
    assert K.cycles_to_steady_state([1.0, 1.0, 1.0]) == 1
    assert K.cycles_to_steady_state([4.0, 2.0, 1.5, 1.504, 1.503]) == 3
    assert K.cycles_to_steady_state([4.0, 2.0, 1.0]) == 3
    cyc = K.lr_schedule("cyclic", 2000, eta0=0.25, eta_min=0.01, period=100)
    tr = np.trace(K.second_moment_recursion(np.diag([1.0, 0.1]), 1.0, cyc, 5 * np.eye(2)), axis1=1, axis2=2)
    k = K.cycles_to_steady_state(tr[100::100])
    assert 1 < k < 10
    with pytest.raises(ValueError):
        K.cycles_to_steady_state([1.0, -1.0])


def test_stationary_second_moment_is_the_recursion_fixed_point():
    rng = np.random.default_rng(7)
    for H in (H5, _random_spd(rng, 4)):
        for eta in (0.01, 0.2):
            S = K.stationary_second_moment(H, 1.3, eta)
            one = K.second_moment_recursion(H, 1.3, [eta], S)[-1]
            assert np.allclose(one, S, rtol=1e-10, atol=1e-14)
            assert np.allclose(S, S.T)
    # small-eta limit: additive Lyapunov eta*sigma^2/2 * I for S = sigma^2 H
    assert np.allclose(K.stationary_second_moment(H5, 1.0, 1e-6) / 1e-6, 0.5 * np.eye(5), rtol=1e-4)
    with pytest.raises(ValueError):
        K.stationary_second_moment(H5, 1.0, 0.6)
    with pytest.raises(ValueError):
        K.stationary_second_moment(H5, -1.0, 0.1)
