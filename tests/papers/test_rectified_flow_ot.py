"""Unit tests of repro.papers.rectified_flow_ot (closed forms, invariants, POT/scipy cross-checks)."""

import numpy as np
import ot
import pytest
from scipy.linalg import sqrtm

from repro.papers import rectified_flow_ot as K

S0 = np.diag([1.0, 0.2])
S1 = np.array([[1.0, 0.7], [0.7, 1.0]])
S1_3 = np.array([[2.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 0.5]])
S0_3 = np.array([[1.0, -0.4, 0.0], [-0.4, 0.8, 0.3], [0.0, 0.3, 1.5]])


def _hand_bures_map(A, B):
    r = np.real(sqrtm(A))
    ri = np.linalg.inv(r)
    return ri @ np.real(sqrtm(r @ B @ r)) @ ri


# ------------------------------------------------------------------ Bures / OT map
def test_bures_map_identity():
    assert np.allclose(K.bures_ot_map(S1, S1), np.eye(2), atol=1e-10)


@pytest.mark.parametrize("A,B", [(S0, S1), (S0_3, S1_3)])
def test_bures_map_spd_pushforward_and_closed_form(A, B):
    T = K.bures_ot_map(A, B)
    assert np.allclose(T, T.T, atol=1e-12)
    assert np.linalg.eigvalsh(T).min() > 0
    assert np.allclose(T @ A @ T, B, atol=1e-10)
    assert np.allclose(T, _hand_bures_map(A, B), atol=1e-10)
    # cost = Bures-Wasserstein formula (hand) = POT's bures_wasserstein_distance squared
    ra = np.real(sqrtm(A))
    bw = np.trace(A) + np.trace(B) - 2 * np.trace(np.real(sqrtm(ra @ B @ ra)))
    assert K.linear_transport_cost(T, A) == pytest.approx(bw, abs=1e-10)
    assert K.bures_wasserstein_cost(A, B) == pytest.approx(bw, abs=1e-10)
    z = np.zeros(len(A))
    assert K.bures_wasserstein_cost(A, B) == pytest.approx(float(ot.gaussian.bures_wasserstein_distance(z, z, A, B)) ** 2, abs=1e-10)


def test_bures_cost_matches_emd_on_samples():
    rng = np.random.default_rng(0)
    bw = K.bures_wasserstein_cost(S0, S1)
    x0 = rng.multivariate_normal(np.zeros(2), S0, size=1500)
    # the OT map applied to a cloud gives its optimal pairing (cyclical monotonicity): emd2 = pairing cost,
    # and that cost is a plain Monte Carlo mean of ||x - Tx||^2 (relative standard error about 3% here)
    z1 = x0 @ K.bures_ot_map(S0, S1).T
    assert K.empirical_ot_cost(x0, z1) == pytest.approx(K.coupling_cost(x0, z1), rel=1e-9)
    assert K.empirical_ot_cost(x0, z1) == pytest.approx(bw, rel=0.1)
    # independent samples: emd2 is biased upwards in 2-d (about +13% at n=1500), shrinking with n
    x1 = rng.multivariate_normal(np.zeros(2), S1, size=1500)
    big = K.empirical_ot_cost(x0, x1)
    small = K.empirical_ot_cost(x0[:150], x1[:150])
    assert bw < big < small
    assert big == pytest.approx(bw, rel=0.2)


def test_bures_bad_inputs():
    with pytest.raises(ValueError):
        K.bures_ot_map(np.array([[1.0, 2.0], [0.0, 1.0]]), S1)
    with pytest.raises(ValueError):
        K.bures_ot_map(S0, np.eye(3))
    with pytest.raises(ValueError):
        K.bures_ot_map(np.diag([1.0, -1.0]), S1)
    with pytest.raises(ValueError):
        K.linear_transport_cost(np.eye(3), S0)


# ------------------------------------------------------------------ Gaussian velocity
def test_velocity_endpoints_independent():
    m0, m1 = np.array([1.0, -1.0]), np.array([0.5, 2.0])
    x = np.random.default_rng(1).standard_normal((5, 2))
    assert np.allclose(K.gaussian_rf_velocity(0.0, x, m0, S0, m1, S1), m1 - x)
    assert np.allclose(K.gaussian_rf_velocity(1.0, x, m0, S0, m1, S1), x - m0)


def test_velocity_matches_theorem3_form_and_monte_carlo():
    # Theorem 3 form (paper's Sigma_01 read as E[X_1 X_0^T]): ((1-t) S10 + t S1) C^-1 - I) / (1-t)
    S01 = 0.3 * np.array([[1.0, 0.2], [-0.1, 0.5]])
    t = 0.37
    A, C = K.gaussian_rf_velocity_matrix(t, S0, S1, S01)
    A_thm = (((1 - t) * S01.T + t * S1) @ np.linalg.inv(C) - np.eye(2)) / (1 - t)
    assert np.allclose(A, A_thm, atol=1e-12)
    rng = np.random.default_rng(2)
    J = np.block([[S0, S01], [S01.T, S1]])
    xy = rng.multivariate_normal(np.zeros(4), J, size=200_000)
    Ahat = K.mc_velocity_matrix(t, xy[:, :2], xy[:, 2:])
    assert np.linalg.norm(Ahat - A) / np.linalg.norm(A) < 0.03


def test_velocity_degenerate_raises():
    with pytest.raises(ValueError):
        K.gaussian_rf_velocity_matrix(0.5, np.eye(2), np.eye(2), -np.eye(2))
    with pytest.raises(ValueError):
        K.gaussian_rf_velocity_matrix(1.5, S0, S1)
    with pytest.raises(ValueError):
        K.gaussian_rf_velocity_matrix(0.2, S0, S1, np.eye(3))


# ------------------------------------------------------------------ projection
def test_gradient_projection_properties():
    rng = np.random.default_rng(3)
    A = rng.standard_normal((3, 3))
    C = S0_3
    S = K.gradient_project_linear(A, C)
    assert np.allclose(S, S.T)
    # same continuity equation (covariance derivative)
    assert np.allclose(S @ C + C @ S, A @ C + C @ A.T, atol=1e-10)
    # idempotent
    assert np.allclose(K.gradient_project_linear(S, C), S, atol=1e-10)
    # L2(N(0,C)) orthogonality: E[<(A-S)x, Gx>] = tr(G C (A-S)^T) = 0 for every symmetric G
    G = rng.standard_normal((3, 3))
    G = G + G.T
    assert abs(np.trace(G @ C @ (A - S).T)) < 1e-10
    # and it is the least-squares projection: brute force over symmetric matrices
    from scipy.optimize import minimize

    iu = np.triu_indices(3)

    def loss(p):
        B = np.zeros((3, 3))
        B[iu] = p
        B = B + B.T - np.diag(np.diag(B))
        return np.trace((A - B) @ C @ (A - B).T)

    res = minimize(loss, np.zeros(6), method="BFGS", options={"gtol": 1e-10})
    assert loss(S[iu]) <= res.fun + 1e-8


def test_projection_bad_shapes():
    with pytest.raises(ValueError):
        K.gradient_project_linear(np.eye(2), S0_3)


# ------------------------------------------------------------------ rectification maps
def test_rf_map_pushforward_and_known_numbers():
    M = K.rf_linear_flow_map(S0, S1)
    assert np.abs(M @ S0 @ M.T - S1).max() < 1e-9
    assert K.linear_transport_cost(M, S0) == pytest.approx(0.6168252, abs=1e-6)
    Mp = K.rf_linear_flow_map(S0, S1, grad_constrained=True)
    assert np.abs(Mp @ S0 @ Mp.T - S1).max() < 1e-9
    assert K.linear_transport_cost(Mp, S0) == pytest.approx(0.4889835, abs=1e-6)
    assert np.abs(Mp - Mp.T).max() > 1e-3


def test_rf_map_commuting_is_ot():
    for A, B in [(np.eye(2), S1), (np.diag([1.0, 0.3]), np.diag([2.0, 0.5]))]:
        M = K.rf_linear_flow_map(A, B)
        assert np.allclose(M, K.bures_ot_map(A, B), atol=1e-8)


def test_ot_coupling_is_fixed_point_and_rf_stalls():
    T = K.bures_ot_map(S0, S1)
    for g in (False, True):
        M = K.rf_linear_flow_map(S0, S1, S0 @ T.T, grad_constrained=g)
        assert np.allclose(M, T, atol=1e-8)
    maps = K.iterate_rectification(S0, S1, 3)
    assert np.allclose(maps[2], maps[0], atol=1e-8)
    maps_p = K.iterate_rectification(S0, S1, 3, grad_constrained=True)
    costs = [K.linear_transport_cost(M, S0) for M in maps_p]
    assert costs[0] > costs[1] > costs[2] > K.bures_wasserstein_cost(S0, S1) - 1e-12
    with pytest.raises(ValueError):
        K.iterate_rectification(S0, S1, 0)


def test_rectification_loss_closed_form_counterexample2():
    # X1 = -rho X0 + s W in 1-d: residual variance s^2 / C_t, integral -> pi*s for small s
    s = 1e-2
    rho = np.sqrt(1 - s * s)
    L = K.gaussian_rectification_loss(np.eye(1), np.eye(1), -rho * np.eye(1))
    from scipy.integrate import quad

    ref, _ = quad(lambda t: s * s / ((1 - t) ** 2 + t * t - 2 * rho * t * (1 - t)), 0, 1, points=[0.5], epsabs=1e-13)
    assert L == pytest.approx(ref, rel=1e-6)
    # a deterministic straight coupling has zero loss
    T = K.bures_ot_map(S0, S1)
    assert abs(K.gaussian_rectification_loss(S0, T @ S0 @ T, S0 @ T)) < 1e-9
    # the independent coupling does not
    assert K.gaussian_rectification_loss(S0, S1, np.zeros((2, 2))) > 0.1


# ------------------------------------------------------------------ mixtures
def test_gmm_single_component_reduces_to_gaussian():
    g0 = K.make_gmm([1.0], [[0.5, 0.0]], [S0])
    g1 = K.make_gmm([1.0], [[-1.0, 2.0]], [S1])
    x = np.random.default_rng(4).standard_normal((7, 2))
    for t in (0.0, 0.3, 1.0):
        assert np.allclose(K.gmm_rf_velocity(t, x, g0, g1), K.gaussian_rf_velocity(t, x, g0.means[0], S0, g1.means[0], S1))


def test_gmm_velocity_matches_binned_monte_carlo_1d():
    g0 = K.make_gmm([1.0], [[0.0]], [[[1.0]]])
    g1 = K.make_gmm([0.3, 0.7], [[-2.0], [1.5]], [[[0.25]], [[0.5]]])
    rng = np.random.default_rng(5)
    n = 400_000
    x0, x1 = K.gmm_sample(g0, n, rng), K.gmm_sample(g1, n, rng)
    t = 0.6
    xt = ((1 - t) * x0 + t * x1)[:, 0]
    y = (x1 - x0)[:, 0]
    centres = np.array([-1.0, 0.0, 0.5, 1.0])
    for c in centres:
        sel = np.abs(xt - c) < 0.02
        assert K.gmm_rf_velocity(t, [[c]], g0, g1)[0, 0] == pytest.approx(y[sel].mean(), abs=0.05)


def test_gmm_sample_moments_and_validation():
    g = K.make_gmm([0.25, 0.75], [[0.0, 0.0], [4.0, 0.0]], [np.eye(2), 0.5 * np.eye(2)])
    x = K.gmm_sample(g, 100_000, np.random.default_rng(6))
    assert x.mean(0) == pytest.approx([3.0, 0.0], abs=0.03)
    with pytest.raises(ValueError):
        K.make_gmm([0.5, 0.6], [[0.0], [1.0]], [[[1.0]], [[1.0]]])
    with pytest.raises(ValueError):
        K.make_gmm([1.0], [[0.0, 0.0]], [np.eye(3)])


def test_standard_source_velocity_is_gradient_other_source_not():
    g1 = K.make_gmm([0.5, 0.5], [[-2.0, -1.0], [2.0, 1.0]], [[[0.5, 0.4], [0.4, 0.5]], [[0.5, -0.4], [-0.4, 0.5]]])
    x = np.random.default_rng(7).standard_normal((20, 2))
    std = K.make_gmm([1.0], [[0.0, 0.0]], [np.eye(2)])
    aniso = K.make_gmm([1.0], [[0.0, 0.0]], [S0])
    f_std = lambda t, y: K.gmm_rf_velocity(t, y, std, g1)  # noqa: E731
    f_an = lambda t, y: K.gmm_rf_velocity(t, y, aniso, g1)  # noqa: E731
    assert K.velocity_jacobian_asymmetry(f_std, 0.5, x) < 1e-6
    assert K.velocity_jacobian_asymmetry(f_an, 0.5, x) > 1e-2


# ------------------------------------------------------------------ particles and costs
def test_integrate_flow_linear_matches_matrix_flow():
    M = K.rf_linear_flow_map(S0, S1)
    x0 = np.random.default_rng(8).standard_normal((10, 2))
    z = np.zeros(2)
    tr = K.integrate_flow(lambda t, x: K.gaussian_rf_velocity(t, x, z, S0, z, S1), x0, np.linspace(0, 1, 5))
    assert tr.shape == (5, 10, 2)
    assert np.allclose(tr[-1], x0 @ M.T, atol=1e-6)
    with pytest.raises(ValueError):
        K.integrate_flow(lambda t, x: x, x0, np.array([0.0, 0.0]))


def test_empirical_ot_cost_permutation_and_bad_input():
    rng = np.random.default_rng(9)
    x = rng.standard_normal((50, 2))
    assert K.empirical_ot_cost(x, x[rng.permutation(50)]) == pytest.approx(0.0, abs=1e-12)
    assert K.empirical_ot_cost(x, x + 1.0) == pytest.approx(2.0, rel=1e-9)
    with pytest.raises(ValueError):
        K.empirical_ot_cost(x, np.zeros((3, 3)))
    with pytest.raises(ValueError):
        K.coupling_cost(x, x[:3])


def test_split_translation_is_gradient_and_translates():
    rng = np.random.default_rng(10)
    up, down = np.array([4.0, 0.0]), np.array([-4.0, 0.0])
    n_ = np.array([0.0, 1.0])
    x0 = np.concatenate([K.uniform_disc_sample(200, [-2, 1], 0.5, rng), K.uniform_disc_sample(200, [2, -1], 0.5, rng)])
    x1 = x0 + np.where(x0[:, 1:] > 0, up, down)
    f = lambda t, x: K.split_translation_velocity(x, up, down, n_)  # noqa: E731
    assert K.rectification_loss_mc(f, x0, x1, np.linspace(0, 1, 11)) < 1e-12
    assert K.velocity_jacobian_asymmetry(f, 0.0, np.array([[0.3, 0.01], [1.0, -0.02]]), h=1e-6) < 1e-5
    tr = K.integrate_flow(f, x0, np.array([0.0, 1.0]))
    assert np.abs(tr[-1] - x1).max() < 1e-6
    # a wrong field has positive loss
    assert K.rectification_loss_mc(lambda t, x: np.zeros_like(x), x0, x1, np.linspace(0, 1, 3)) == pytest.approx(16.0)
    with pytest.raises(ValueError):
        K.split_translation_velocity(x0, up, down, n_, eps=0.0)
    with pytest.raises(ValueError):
        K.uniform_disc_sample(5, [0, 0], -1.0, rng)


def test_empirical_ot_pairing_recovers_permutation():
    rng = np.random.default_rng(11)
    x = rng.standard_normal((40, 2))
    perm = rng.permutation(40)
    got = K.empirical_ot_pairing(x, x[perm])
    assert np.array_equal(perm[got], np.arange(40))
    assert K.coupling_cost(x, x[perm][got]) == pytest.approx(K.empirical_ot_cost(x, x[perm]), abs=1e-12)
    with pytest.raises(ValueError):
        K.empirical_ot_pairing(x, x[:5])


# ------------------------------------------------------------------ moved from the page (issue 10): identities and background
def test_cost_nonincreasing_over_rectifications_both_variants():
    # Liu et al.'s property (rectification never increases a convex transport cost): a check of our iteration,
    # formerly the page's claim cost-nonincreasing
    for g in (False, True):
        costs = [K.linear_transport_cost(M, S0) for M in K.iterate_rectification(S0, S1, 6, grad_constrained=g)]
        assert np.all(np.diff(costs) <= 1e-9)
        assert costs[-1] >= K.bures_wasserstein_cost(S0, S1) - 1e-9


def test_linear_flow_map_closed_forms_and_validation():
    A = np.array([[0.0, 1.0], [-1.0, 0.0]])  # rotation generator: exp(A) is a rotation by 1 rad
    M = K.linear_flow_map(lambda t: A, 2)
    c, s = np.cos(1.0), np.sin(1.0)
    assert np.allclose(M, [[c, s], [-s, c]], atol=1e-10)
    # time-dependent diagonal field: M = exp(int_0^1 a(t) dt)
    M = K.linear_flow_map(lambda t: np.diag([t, 2 * t]), 2)
    assert np.allclose(M, np.diag([np.exp(0.5), np.exp(1.0)]), atol=1e-10)
    # the rectified map goes through it unchanged
    T = lambda t: K.gaussian_rf_velocity_matrix(t, S0, S1)[0]  # noqa: E731
    assert np.allclose(K.linear_flow_map(T, 2), K.rf_linear_flow_map(S0, S1), atol=1e-14)
    with pytest.raises(ValueError):
        K.linear_flow_map(lambda t: np.eye(3), 2)
    with pytest.raises(ValueError):
        K.linear_flow_map(lambda t: np.eye(2), 0)


def test_naive_symmetrised_field_does_not_keep_marginals():
    # the page's control for rf-pushforward: the symmetric part of A_t is a gradient field, but not the
    # L2(mu_t) projection, so its flow does not push N(0, S0) to N(0, S1)
    sym = lambda t: 0.5 * (K.gaussian_rf_velocity_matrix(t, S0, S1)[0] + K.gaussian_rf_velocity_matrix(t, S0, S1)[0].T)  # noqa: E731
    M = K.linear_flow_map(sym, 2)
    assert np.abs(M @ S0 @ M.T - S1).max() > 1e-3


def test_gmm_cdf_1d_against_sampling_and_validation():
    g = K.make_gmm([0.3, 0.7], [[-2.0], [1.5]], [[[0.25]], [[0.5]]])
    x = K.gmm_sample(g, 200_000, np.random.default_rng(12))[:, 0]
    for q in (-2.5, -1.0, 0.0, 1.5, 3.0):
        assert K.gmm_cdf_1d(g, q) == pytest.approx(np.mean(x <= q), abs=5e-3)
    assert K.gmm_cdf_1d(g, np.array([[-50.0], [50.0]])).ravel() == pytest.approx([0.0, 1.0], abs=1e-15)
    with pytest.raises(ValueError):
        K.gmm_cdf_1d(K.make_gmm([1.0], [[0.0, 0.0]], [np.eye(2)]), 0.0)


def test_transport_cdf_error_1d_zero_for_monotone_rearrangement_only():
    from scipy.optimize import brentq

    g0 = K.make_gmm([1.0], [[0.0]], [[[1.0]]])
    g1 = K.make_gmm([0.3, 0.7], [[-2.0], [1.5]], [[[0.25]], [[0.5]]])
    x0 = np.random.default_rng(13).standard_normal(30)
    # exact 1-d OT map F1^{-1}(F0(x)) by root finding
    z_ot = np.array([brentq(lambda z: K.gmm_cdf_1d(g1, z) - K.gmm_cdf_1d(g0, x), -20, 20, xtol=1e-14) for x in x0])
    assert K.transport_cdf_error_1d(x0, z_ot, g0, g1) < 1e-12
    # an increasing map to the wrong law, and the right law paired non-monotonically, both fail
    assert K.transport_cdf_error_1d(x0, x0, g0, g1) > 0.05
    assert K.transport_cdf_error_1d(x0, z_ot[::-1], g0, g1) > 0.05
    # the 1-rectified flow of the mixture is that map (Prop. 4)
    z_rf = K.integrate_flow(lambda t, x: K.gmm_rf_velocity(t, x, g0, g1), x0[:, None], np.array([0.0, 1.0]))[-1]
    assert np.allclose(z_rf[:, 0], z_ot, atol=1e-5)
    with pytest.raises(ValueError):
        K.transport_cdf_error_1d(x0, x0[:5], g0, g1)
