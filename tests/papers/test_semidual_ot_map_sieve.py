"""Unit tests of the semi-dual sieved OT map kernels."""

from __future__ import annotations

import numpy as np
import ot
import pytest
import torch
from scipy import stats

from repro.papers import semidual_ot_map_sieve as K

S1 = np.array([[1.0, 0.5], [0.5, 1.0]])
S2 = np.array([[2.0, 0.6], [0.6, 0.8]])
M1 = np.zeros(2)
M2 = np.array([1.0, -0.5])


def quad(x: torch.Tensor) -> torch.Tensor:
    return 0.5 * (x * x).sum(-1)


# ---------------------------------------------------------------- closed-form maps


def test_gaussian_matrix_symmetric_pd_and_pushes_covariance():
    A = K.gaussian_brenier_matrix(S1, S2)
    assert np.allclose(A, A.T)
    assert np.linalg.eigvalsh(A).min() > 0
    assert np.allclose(A @ S1 @ A, S2, atol=1e-10)
    rng = np.random.default_rng(0)
    X = rng.multivariate_normal(M1, S1, size=40000)
    TX = K.gaussian_brenier_map(M1, S1, M2, S2)(X)
    assert np.allclose(np.cov(TX.T), S2, rtol=0.03, atol=0.03)
    assert np.allclose(TX.mean(0), M2, atol=0.03)


def test_gaussian_map_matches_pot_closed_form():
    A_pot, b_pot = ot.gaussian.bures_wasserstein_mapping(M1, M2, S1, S2)
    X = np.random.default_rng(1).standard_normal((10, 2))
    assert np.allclose(K.gaussian_brenier_map(M1, S1, M2, S2)(X), X @ A_pot + b_pot, atol=1e-8)


def test_gaussian_potential_gradient_is_the_map():
    X = np.random.default_rng(2).standard_normal((7, 2))
    T = K.gradient_map(K.gaussian_brenier_potential(M1, S1, M2, S2))
    assert np.allclose(T(X), K.gaussian_brenier_map(M1, S1, M2, S2)(X), atol=1e-10)


def test_radial_map_is_gradient_of_its_potential():
    X = np.random.default_rng(3).standard_normal((9, 2)) * 2
    assert np.allclose(K.gradient_map(K.radial_power_potential(0.5))(X), K.radial_power_map(0.5)(X), atol=1e-10)


def test_radial_map_in_1d_is_the_quantile_map():
    # P = N(0,1); T increasing, so T = F_Q^{-1} o F_P: empirical quantiles of T#P match T(quantiles of P).
    rng = np.random.default_rng(4)
    T = K.radial_power_map(0.5)
    Yq = np.sort(T(rng.standard_normal((200000, 1)))[:, 0])
    u = np.array([0.1, 0.25, 0.5, 0.75, 0.9])
    emp = np.quantile(Yq, u)
    assert np.allclose(T(stats.norm.ppf(u)[:, None])[:, 0], emp, atol=0.02)


# ---------------------------------------------------------------- sieve and conjugate


def test_sieve_contains_points_and_grid_in_ball():
    X = np.array([[0.1, 0.2], [5.0, 5.0]])
    S = K.ball_sieve(X, 2.0, 11)
    assert np.linalg.norm(S, axis=1).max() <= 2.0 + 1e-9
    assert any(np.allclose(s, X[0]) for s in S) and not any(np.allclose(s, X[1]) for s in S)
    assert K.ball_sieve(X, 2.0, 0).shape == (1, 2)


def test_sieved_conjugate_of_half_square_norm():
    S = torch.as_tensor(K.ball_sieve(np.zeros((1, 2)), 3.0, 61))
    h = 6.0 / 60
    Y = torch.as_tensor(np.random.default_rng(5).uniform(-1.5, 1.5, (50, 2)))
    val, xs = K.sieved_conjugate(quad, Y, S)
    exact = 0.5 * (Y * Y).sum(1)
    assert torch.all(val <= exact + 1e-12)  # a max over a subset never exceeds the sup
    assert torch.max(exact - val) <= h**2 / 4 + 1e-12  # 0.5|x-y|^2 with |x-y| <= h/sqrt(2)
    val_r, xr = K.sieved_conjugate(quad, Y, S, refine_steps=1, radius=3.0, step=1.0)
    assert torch.allclose(val_r, exact, atol=1e-10)  # one unit step is a Newton step: exact here
    val_h, _ = K.sieved_conjugate(quad, Y, S, refine_steps=3, radius=3.0)
    assert torch.all(val_h >= val - 1e-12) and torch.max(exact - val_h) <= torch.max(exact - val) / 60
    assert torch.allclose(xr, Y, atol=1e-6)


def test_sieved_conjugate_outside_ball_is_biased_down():
    S = torch.as_tensor(K.ball_sieve(np.zeros((1, 2)), 1.0, 41))
    Y = torch.tensor([[3.0, 0.0]], dtype=torch.float64)
    val, x = K.sieved_conjugate(quad, Y, S, refine_steps=5, radius=1.0)
    assert torch.allclose(x, torch.tensor([[1.0, 0.0]], dtype=torch.float64), atol=1e-6)
    assert abs(float(val) - 2.5) < 1e-6  # max_{|x|<=1} 3 x1 - |x|^2/2 = 2.5 < 4.5 = |y|^2/2


def test_fenchel_young_on_random_pairs():
    phi = K.TanhPotential(2, 8, 2).double()
    torch.manual_seed(0)
    for p in phi.parameters():
        torch.nn.init.normal_(p, std=0.5)
    rng = np.random.default_rng(6)
    X = torch.as_tensor(rng.uniform(-2, 2, (30, 2)))
    Y = torch.as_tensor(rng.uniform(-2, 2, (30, 2)))
    S = torch.cat([X, torch.as_tensor(K.ball_sieve(np.zeros((1, 2)), 3.0, 21))])
    with torch.no_grad():
        conj, _ = K.sieved_conjugate(phi, Y, S, refine_steps=2, radius=3.0)
        lhs = phi(X)[:, None] + conj[None, :]
        assert torch.all(lhs >= X @ Y.T - 1e-10)


def test_conjugate_gradient_is_envelope():
    phi = K.TanhPotential(2, 4, 1).double()
    torch.nn.init.normal_(phi.net[-1].weight)
    Y = torch.tensor([[0.3, -0.2]], dtype=torch.float64)
    S = torch.as_tensor(K.ball_sieve(np.zeros((1, 2)), 2.0, 31))
    val, x = K.sieved_conjugate(phi, Y, S)
    val.sum().backward()
    g = phi.net[-1].bias.grad.clone()
    assert torch.allclose(g, torch.tensor([-1.0], dtype=torch.float64))  # d/db [<x,y> - phi(x)] = -1


def test_semi_dual_loss_minimised_at_true_potential():
    rng = np.random.default_rng(7)
    X = rng.multivariate_normal(M1, S1, size=3000)
    Y = K.gaussian_brenier_map(M1, S1, M2, S2)(rng.multivariate_normal(M1, S1, size=3000))
    phi0 = K.gaussian_brenier_potential(M1, S1, M2, S2)
    Xt, Yt = torch.as_tensor(X), torch.as_tensor(Y)
    S = torch.as_tensor(K.ball_sieve(X, 6.0, 30))
    base = float(K.semi_dual_loss(phi0, Xt, Yt, S, 5, 6.0))
    for pert in (lambda x: 0.3 * torch.sin(x[:, 0]), lambda x: 0.2 * x[:, 0] * x[:, 1], lambda x: 0.1 * (x**2).sum(1)):
        val = float(K.semi_dual_loss(lambda x, p=pert: phi0(x) + p(x), Xt, Yt, S, 5, 6.0))
        assert val > base
    # invariance to constants
    assert abs(float(K.semi_dual_loss(lambda x: phi0(x) + 3.0, Xt, Yt, S, 5, 6.0)) - base) < 1e-9
    assert abs(K.excess_semi_dual_risk(phi0, phi0, X[:200], Y[:200], 6.0, 10, 2)) < 1e-12


def test_tanh_potential_starts_at_identity_map():
    phi = K.TanhPotential(2, 16, 2).double()
    X = np.random.default_rng(8).standard_normal((5, 2))
    assert np.allclose(K.gradient_map(phi)(X), X)


def test_fit_semidual_recovers_gaussian_map_and_is_deterministic():
    rng = np.random.default_rng(9)
    T = K.gaussian_brenier_map(M1, S1, M2, S2)
    X = rng.multivariate_normal(M1, S1, size=300)
    Y = T(rng.multivariate_normal(M1, S1, size=300))
    Xt = rng.multivariate_normal(M1, S1, size=2000)
    f1 = K.fit_semidual_map(X, Y, sieve_radius=4.0, steps=120, lr=1e-2, n_grid=12, refine_steps=1, snapshot_every=60)
    f2 = K.fit_semidual_map(X, Y, sieve_radius=4.0, steps=120, lr=1e-2, n_grid=12, refine_steps=1)
    ident = K.relative_map_error(lambda Z: Z, T, Xt)
    err = K.relative_map_error(f1.map, T, Xt)
    assert err < 0.1 < ident
    assert f1.losses[-1] < f1.losses[0]
    assert [s for s, _ in f1.snapshots] == [1, 60, 120]
    assert np.array_equal(f1.map(Xt[:20]), f2.map(Xt[:20]))


# ---------------------------------------------------------------- baselines and errors


def test_sample_conjugate_ablation_uses_the_source_sample_as_sieve():
    rng = np.random.default_rng(11)
    X, Y = rng.standard_normal((40, 2)), rng.standard_normal((40, 2)) + 0.5
    kw = dict(steps=5, lr=1e-2, width=8, depth=1, seed=3)
    a = K.fit_sample_conjugate_map(X, Y, **kw)
    b = K.fit_semidual_map(X, Y, sieve_radius=1e9, n_grid=0, refine_steps=0, **kw)
    assert np.array_equal(a.losses, b.losses)
    assert K.ball_sieve(X, np.inf, 0).shape == X.shape


def test_unrestricted_conjugate_is_sample_argmax_plus_unprojected_ascent():
    rng = np.random.default_rng(13)
    X, Y = rng.standard_normal((40, 2)), rng.standard_normal((40, 2)) + 0.5
    kw = dict(steps=5, lr=1e-2, width=8, depth=1, seed=3)
    a = K.fit_unrestricted_conjugate_map(X, Y, **kw)
    b = K.fit_semidual_map(X, Y, sieve_radius=1e6, n_grid=0, refine_steps=2, **kw)
    assert np.array_equal(a.losses, b.losses)
    # for phi = |x|^2/2 (f = 0) one ascent step of size 1/2 from any x halves the distance to y, unprojected
    Yt = torch.tensor([[30.0, -40.0]], dtype=torch.float64)
    val, x = K.sieved_conjugate(quad, Yt, torch.zeros(1, 2, dtype=torch.float64), refine_steps=1, radius=1e6)
    assert torch.allclose(x, Yt / 2)
    assert float(val) > 0


def test_early_stopped_map_equals_a_shorter_fit():
    rng = np.random.default_rng(14)
    X, Y = rng.standard_normal((50, 2)), 1.5 * rng.standard_normal((50, 2)) + 0.5
    kw = dict(sieve_radius=3.0, width=8, depth=1, n_grid=6, refine_steps=1, lr=1e-2, seed=1)
    long = K.fit_semidual_map(X, Y, steps=12, keep_at=(5,), **kw)
    short = K.fit_semidual_map(X, Y, steps=5, **kw)
    Z = rng.standard_normal((20, 2))
    assert np.array_equal(K.early_stopped_map(long, 5)(Z), short.map(Z))
    assert not np.array_equal(long.map(Z), short.map(Z))
    with pytest.raises(ValueError):
        K.early_stopped_map(long, 6)


def test_translation_isotropic_and_identity_maps():
    rng = np.random.default_rng(15)
    X = rng.standard_normal((400, 2))
    Z = rng.standard_normal((7, 2))
    assert np.allclose(K.translation_map(X, X + [1.0, -2.0])(Z), Z + [1.0, -2.0])
    assert np.allclose(K.isotropic_affine_map(X, 3.0 * X + 1.0)(Z), 3.0 * Z + 1.0)
    # the isotropic map matches the total variance of the target
    Y = rng.standard_normal((400, 2)) * [2.0, 0.5] + 1.0
    TX = K.isotropic_affine_map(X, Y)(X)
    assert np.isclose(((TX - TX.mean(0)) ** 2).sum(1).mean(), ((Y - Y.mean(0)) ** 2).sum(1).mean())
    assert np.array_equal(K.identity_map(Z), Z)


def test_affine_gaussian_map_is_exact_for_gaussians_and_affine_in_general():
    rng = np.random.default_rng(12)
    T = K.gaussian_brenier_map(M1, S1, M2, S2)
    X = rng.multivariate_normal(M1, S1, size=20000)
    Y = T(rng.multivariate_normal(M1, S1, size=20000))
    Xt = rng.multivariate_normal(M1, S1, size=2000)
    assert K.relative_map_error(K.affine_gaussian_map(X, Y), T, Xt) < 1e-3
    # on an exact affine push-forward of the same sample the fitted map is that affine map
    A = np.array([[2.0, 0.3], [0.3, 1.0]])
    Tm = K.affine_gaussian_map(X, X @ A.T + 1.0)
    assert np.allclose(Tm(Xt), Xt @ A.T + 1.0, atol=1e-8)


def test_entropic_map_equals_barycentric_projection_of_pot_plan():
    rng = np.random.default_rng(10)
    X = rng.standard_normal((60, 2))
    Y = rng.standard_normal((50, 2)) + 1
    eps = 0.3
    T = K.entropic_map(X, Y, eps, max_iter=5000)
    G = ot.sinkhorn(np.full(60, 1 / 60), np.full(50, 1 / 50), 0.5 * ot.dist(X, Y), eps, stopThr=1e-12, numItermax=20000)
    assert np.allclose(T(X), (G @ Y) / G.sum(1, keepdims=True), atol=1e-5)


def test_entropic_map_tends_to_shift_for_translation():
    rng = np.random.default_rng(11)
    X = rng.standard_normal((400, 2))
    Y = rng.standard_normal((400, 2)) + np.array([2.0, 0.0])
    T = K.entropic_map(X, Y, 0.05)
    assert np.abs(T(np.zeros((1, 2))) - np.array([[2.0, 0.0]])).max() < 0.3


def test_emd_nn_map_is_a_permutation_on_samples():
    rng = np.random.default_rng(12)
    X = rng.standard_normal((30, 2))
    Y = rng.standard_normal((30, 2))
    TX = K.emd_nn_map(X, Y)(X)
    assert np.allclose(np.sort(TX[:, 0]), np.sort(Y[:, 0]))


def test_map_errors():
    X = np.random.default_rng(13).standard_normal((100, 2))
    T = K.radial_power_map(0.5)
    assert K.map_l2_error(T, T, X) == 0.0
    assert np.isclose(K.map_l2_error(lambda Z: T(Z) + np.array([1.0, 1.0]), T, X), 2.0)
    TX = T(X)
    assert np.isclose(K.relative_map_error(lambda Z: np.tile(TX.mean(0), (len(Z), 1)), T, X), 1.0)
    assert np.isclose(K.entropic_eps(16, 0.5, 0.25), 0.25)


# ---------------------------------------------------------------- bad inputs


@pytest.mark.parametrize(
    "call",
    [
        lambda: K.gaussian_brenier_matrix(np.eye(2), -np.eye(2)),
        lambda: K.gaussian_brenier_matrix(np.eye(2), np.eye(3)),
        lambda: K.gaussian_brenier_map(np.zeros(3), S1, M2, S2),
        lambda: K.radial_power_map(-1.0),
        lambda: K.radial_power_potential(-1.0),
        lambda: K.ball_sieve(np.zeros((2, 2)), 0.0, 5),
        lambda: K.ball_sieve(np.zeros(2), 1.0, 5),
        lambda: K.ball_sieve(np.zeros((2, 2)), 1.0, 1),
        lambda: K.sieved_conjugate(quad, torch.zeros(3, 2), torch.zeros(4, 3)),
        lambda: K.sieved_conjugate(quad, torch.zeros(3, 2), torch.zeros(4, 2), refine_steps=1),
        lambda: K.TanhPotential(2, 0, 1),
        lambda: K.fit_semidual_map(np.zeros((5, 2)), np.zeros((5, 3)), sieve_radius=1.0),
        lambda: K.fit_semidual_map(np.zeros((5, 2)), np.zeros((5, 2)), sieve_radius=1.0, steps=0),
        lambda: K.entropic_map(np.zeros((5, 2)), np.zeros((5, 2)), 0.0),
        lambda: K.entropic_map(np.full((5, 2), np.nan), np.zeros((5, 2)), 0.1),
        lambda: K.map_l2_error(lambda Z: Z[:, :1], lambda Z: Z, np.zeros((4, 2))),
        lambda: K.entropic_eps(0),
        lambda: K.fit_sample_conjugate_map(np.zeros((5, 2)), np.zeros((5, 2)), n_grid=4),
        lambda: K.affine_gaussian_map(np.zeros((2, 2)), np.zeros((5, 2))),
        lambda: K.affine_gaussian_map(np.zeros((5, 2)), np.zeros((5, 3))),
        lambda: K.fit_unrestricted_conjugate_map(np.zeros((5, 2)), np.zeros((5, 2)), sieve_radius=2.0),
        lambda: K.fit_unrestricted_conjugate_map(np.zeros((5, 2)), np.zeros((5, 2)), refine_steps=0),
        lambda: K.fit_semidual_map(np.zeros((5, 2)), np.zeros((5, 2)), sieve_radius=1.0, steps=3, keep_at=(4,)),
        lambda: K.translation_map(np.zeros((5, 2)), np.zeros((5, 3))),
        lambda: K.isotropic_affine_map(np.zeros((5, 2)), np.ones((5, 2))),
    ],
)
def test_bad_inputs_raise(call):
    with pytest.raises(ValueError):
        call()


def test_cases_sample_the_right_laws():
    rng = np.random.default_rng(14)
    a = K.make_case("gaussian")
    X, Y = a.pair(50000, rng)
    assert np.allclose(np.cov(X.T), K.GAUSS_S1, atol=0.03)
    assert np.allclose(np.cov(Y.T), K.GAUSS_S2, atol=0.05)
    b = K.make_case("radial")
    X, Y = b.pair(50000, rng)
    # |Y| = (1 + |X|/2)|X| with |X| Rayleigh: E|X|^2 = 2, E|X|^3 = 3 sqrt(pi/2), E|X|^4 = 8
    expect = 2 + 3 * np.sqrt(np.pi / 2) + 8 / 4
    assert abs((Y**2).sum(1).mean() / expect - 1) < 0.03
    assert np.isclose(K.sieve_radius_rule(100), 1 + np.sqrt(2 * np.log(100)))
    with pytest.raises(ValueError):
        K.make_case("uniform")
    with pytest.raises(ValueError):
        K.sieve_radius_rule(1)
