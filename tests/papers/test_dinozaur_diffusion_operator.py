"""Unit tests of :mod:`repro.papers.dinozaur_diffusion_operator`, the kernels of ``notebooks/dinozaur-diffusion-operator.py``:
the heat semigroup in closed form, the layers against the official code (golden file), the Darcy solver against
the exact quadrature solution, the metrics against scipy, and bad input."""

import inspect
import json
import math
from pathlib import Path

import numpy as np
import pytest
import scipy.linalg
import scipy.stats
import torch

from repro.papers import dinozaur_diffusion_operator as K

torch.set_num_threads(1)


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/dinozaur_diffusion_operator.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# ----------------------------------------------------------------------------- the heat semigroup
@pytest.mark.parametrize("k", [1, 2, 5])
@pytest.mark.parametrize("tau", [0.0, 1e-4, 3e-3])
def test_sine_mode_decays_by_exactly_exp_minus_tau_2pik_squared(k, tau):
    n = 64
    x = torch.arange(n, dtype=torch.float64) / n
    for u in (torch.sin(2 * math.pi * k * x), torch.cos(2 * math.pi * k * x)):
        out = K.diffusion_multiplier(u, tau)
        torch.testing.assert_close(out, math.exp(-tau * (2 * math.pi * k) ** 2) * u, rtol=0, atol=1e-12)


def test_semigroup_identity_mean_and_per_channel_times():
    rng = np.random.default_rng(0)
    u = torch.tensor(rng.standard_normal((3, 4, 32)))
    t1 = torch.tensor([0.0, 1e-3, 4e-3, 1e-2], dtype=torch.float64)
    t2 = torch.tensor([2e-3, 0.0, 1e-3, 5e-4], dtype=torch.float64)
    torch.testing.assert_close(K.diffusion_multiplier(K.diffusion_multiplier(u, t1), t2),
                               K.diffusion_multiplier(u, t1 + t2), rtol=0, atol=1e-12)
    torch.testing.assert_close(K.diffusion_multiplier(u, 0.0), u, rtol=0, atol=1e-12)  # tau = 0: identity
    # the mean (mode 0) is conserved, the energy decreases, and large tau leaves only the mean
    torch.testing.assert_close(K.diffusion_multiplier(u, t1).mean(-1), u.mean(-1), rtol=0, atol=1e-12)
    assert torch.all(K.diffusion_multiplier(u, 1e-2).pow(2).sum(-1) <= u.pow(2).sum(-1))
    torch.testing.assert_close(K.diffusion_multiplier(u, 10.0), u.mean(-1, keepdim=True).expand_as(u), rtol=0, atol=1e-12)


def test_diffusion_multiplier_solves_the_heat_equation_like_a_finite_difference_scheme():
    # u_t = u_xx on [0, 1) periodic: explicit Euler with small steps converges to the spectral answer
    n, tau = 32, 2e-3
    rng = np.random.default_rng(1)
    u0 = K.diffusion_multiplier(torch.tensor(rng.standard_normal(n)), 5e-3).numpy()  # smooth start
    h = 1 / n
    steps = 4000
    dt = tau / steps
    u = u0.copy()
    for _ in range(steps):
        u = u + dt * (np.roll(u, 1) - 2 * u + np.roll(u, -1)) / h**2
    spec = K.diffusion_multiplier(torch.tensor(u0), tau).numpy()
    assert np.max(np.abs(u - spec)) < 1e-2 * np.max(np.abs(u0))  # second-order spatial error at n = 32


def test_diffusion_multiplier_matches_the_periodic_heat_kernel_convolution():
    # e^{tau Δ} u = u * (theta function) : brute-force periodic Gaussian sum on a fine grid
    n, tau = 128, 1e-3
    x = np.arange(n) / n
    u = np.exp(np.sin(2 * np.pi * x)) + 0.3 * np.cos(6 * np.pi * x)
    d = x[:, None] - x[None, :]
    kern = sum(np.exp(-((d + m) ** 2) / (4 * tau)) for m in range(-3, 4)) / np.sqrt(4 * np.pi * tau)
    brute = kern @ u / n
    np.testing.assert_allclose(K.diffusion_multiplier(u, tau).numpy(), brute, atol=1e-9)


def test_diffusion_multiplier_bad_input():
    u = torch.zeros(3, 8, dtype=torch.float64)
    with pytest.raises(ValueError, match="tau must be finite and >= 0"):
        K.diffusion_multiplier(u, -1e-3)
    with pytest.raises(ValueError, match="tau must be finite"):
        K.diffusion_multiplier(u, float("nan"))
    with pytest.raises(ValueError, match="does not broadcast"):
        K.diffusion_multiplier(u, torch.zeros(4))
    with pytest.raises(ValueError, match="last .*axis"):
        K.diffusion_multiplier(torch.zeros(3, 1), 0.1)
    with pytest.raises(ValueError, match="real floating"):
        K.diffusion_multiplier(torch.zeros(3, 8, dtype=torch.cfloat), 0.1)


def test_laplacian_eigenvalues_and_bad_input():
    lam = K.laplacian_eigenvalues_1d(4, 2.0)
    torch.testing.assert_close(lam, torch.tensor([0.0, 1.0, 4.0, 9.0], dtype=torch.float64) * math.pi**2)
    with pytest.raises(ValueError, match="n_modes"):
        K.laplacian_eigenvalues_1d(0)
    with pytest.raises(ValueError, match="length"):
        K.laplacian_eigenvalues_1d(3, -1.0)


# ----------------------------------------------------------------------------- multipliers and layers
def test_diffusion_multiplier_module_starts_at_identity_and_clamps():
    m = K.DiffusionMultiplier(3)
    xh = torch.randn(2, 5, 3, dtype=torch.cdouble)
    lam = K.laplacian_eigenvalues_1d(5)
    out = m(xh, lam)
    assert torch.all(m.diffusion_time >= K.TAU_MIN)  # the official clamp
    torch.testing.assert_close(out, xh, rtol=0, atol=1e-4)  # exp(-1e-8 * 631) = 1 - 6e-6
    with pytest.raises(ValueError, match="x_hat must have shape"):
        m(torch.randn(2, 5, 4, dtype=torch.cdouble), lam)
    with pytest.raises(ValueError, match="eigvals"):
        m(xh, lam[:4])
    with pytest.raises(ValueError, match="channels"):
        K.DiffusionMultiplier(0)


def test_bayesian_kl_is_about_zero_when_the_posterior_is_the_prior():
    torch.manual_seed(0)
    b = K.BayesianDiffusionMultiplier(4, prior_mean=0.01, prior_scale=1.0)
    b = b.double()
    with torch.no_grad():  # posterior N(log 0.01, I) through exp = the LogNormal prior
        b.posterior_mean.fill_(math.log(0.01))  # LowerCholeskyTransform exponentiates the diagonal: 0 -> 1
        b.posterior_scale.fill_(1.0)
        b.posterior_tril.zero_()
    q = b.posterior()
    tau = q.sample((4000,))
    kl = b.kl_estimate(tau)
    torch.testing.assert_close(kl, torch.zeros_like(kl), rtol=0, atol=1e-9)  # identical densities, pointwise
    # a posterior away from the prior: the MC average matches the closed-form Gaussian KL (exp is a bijection)
    with torch.no_grad():
        b.posterior_mean.fill_(math.log(0.01) + 0.5)
        b.posterior_scale.fill_(math.log(0.5))  # diagonal of L: exp(log 0.5) = 0.5
        b.posterior_tril.copy_(torch.eye(4))
    q = b.posterior()
    tau = q.sample((20000,))
    base = q.base_dist
    p = torch.distributions.MultivariateNormal(torch.full((4,), math.log(0.01), dtype=torch.float64), torch.eye(4, dtype=torch.float64))
    exact = float(torch.distributions.kl_divergence(base, p))
    assert float(b.kl_estimate(tau).mean()) == pytest.approx(exact, rel=0.05)


def test_tensor_multiplier_is_a_per_mode_matrix_product():
    torch.manual_seed(0)
    m = K.TensorMultiplier(3, 2, 4)
    xh = torch.randn(5, 4, 3, dtype=torch.cfloat)
    out = m(xh)
    brute = torch.stack([xh[:, k] @ m.weight[k] for k in range(4)], dim=1)
    torch.testing.assert_close(out, brute)
    with pytest.raises(ValueError, match="x_hat must have shape"):
        m(torch.randn(5, 3, 3, dtype=torch.cfloat))


def test_fourier_layer_with_all_modes_and_unit_length_is_the_heat_semigroup():
    torch.manual_seed(0)
    tau = torch.tensor([1e-3, 5e-3], dtype=torch.float64)
    mult = K.DiffusionMultiplier(2)
    with torch.no_grad():
        mult.diffusion_time.copy_(tau)
    layer = K.FourierLayer1d(mult, modes=16, length=1.0)
    x = torch.randn(3, 16, 2, dtype=torch.float64)
    torch.testing.assert_close(layer(x), K.diffusion_multiplier(x.transpose(1, 2), tau).transpose(1, 2))


@pytest.mark.parametrize("kind", K.KINDS)
def test_networks_map_shapes_and_bad_kind(kind):
    m = K.NeuralOperator1d(kind, width=8, modes=8, n_blocks=2, n_grid=32)
    assert m(torch.randn(2, 32, 2)).shape == (2, 32, 1)
    with pytest.raises(ValueError, match="kind"):
        K.NeuralOperator1d("tfno")
    with pytest.raises(ValueError, match="padding"):
        K.NeuralOperator1d("fno", padding=1.5)


def test_parameter_count_formulas_hold_for_the_modules():
    for width, modes in ((8, 8), (32, 16), (16, 12)):
        for kind in ("fno", "dinozaur", "bayesian"):
            net = K.NeuralOperator1d(kind, width=width, modes=modes, n_blocks=3, n_grid=64)
            got = sum(K.parameter_count(b.spectral.multiplier) for b in net.blocks)
            assert got == 3 * K.multiplier_parameter_count(kind, width, [modes])
    # DINOZAUR's count does not depend on the modes or the dimension; FNO's grows with both
    assert K.multiplier_parameter_count("dinozaur", 32, [12, 12, 12]) == 32
    assert K.multiplier_parameter_count("fno", 32, [12, 12]) == 2 * 32 * 32 * 12 * 7
    with pytest.raises(ValueError, match="modes"):
        K.multiplier_parameter_count("fno", 32, [])
    with pytest.raises(ValueError, match="kind"):
        K.multiplier_parameter_count("tfno", 32, [8])


# ----------------------------------------------------------------------------- Darcy data
def test_darcy_constant_coefficient_is_the_parabola():
    n = 33
    x = np.linspace(0, 1, n)
    for a0 in (0.5, 2.0):
        u = K.darcy1d_solve(np.full(n, a0))
        np.testing.assert_allclose(u, x * (1 - x) / (2 * a0), atol=1e-12)  # the scheme is exact on quadratics


def test_darcy_matches_scipy_banded_and_exact_quadrature():
    rng = np.random.default_rng(0)
    a = K.sample_lognormal_grf(3, 65, 0.1, rng)
    u = K.darcy1d_solve(a, 1.0)
    # scipy's banded solver on the same tridiagonal system
    h = 1 / 64
    af = 2 * a[:, :-1] * a[:, 1:] / (a[:, :-1] + a[:, 1:])
    for b in range(3):
        ab = np.zeros((3, 63))
        ab[1] = (af[b, :-1] + af[b, 1:]) / h**2
        ab[0, 1:] = -af[b, 1:-1] / h**2
        ab[2, :-1] = -af[b, 1:-1] / h**2
        np.testing.assert_allclose(u[b, 1:-1], scipy.linalg.solve_banded((1, 1), ab, np.ones(63)), rtol=1e-10)
    # against the exact solution: a smooth coefficient, refined grid, second-order convergence
    afun = lambda x: np.exp(np.sin(2 * np.pi * x) + 0.5 * x)  # noqa: E731
    xf = np.linspace(0, 1, 20001)
    exact = K.darcy1d_exact(xf, 1 / afun(xf))
    errs = []
    for n in (33, 65, 129):
        x = np.linspace(0, 1, n)
        errs.append(np.max(np.abs(K.darcy1d_solve(afun(x)) - np.interp(x, xf, exact))))
    assert errs[2] < errs[1] < errs[0] and errs[0] / errs[2] > 10  # about 4 per halving


def test_darcy_and_grf_bad_input():
    with pytest.raises(ValueError, match="> 0"):
        K.darcy1d_solve(np.array([1.0, -1.0, 1.0, 1.0]))
    with pytest.raises(ValueError, match="n >= 3"):
        K.darcy1d_solve(np.ones((2, 2)))
    with pytest.raises(ValueError, match="lengthscale"):
        K.sample_lognormal_grf(2, 8, 0.0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="grid"):
        K.darcy1d_exact(np.linspace(0, 2, 5), np.ones(5))


def test_grf_has_the_covariance_it_claims():
    a = K.sample_lognormal_grf(20000, 6, 0.2, np.random.default_rng(3))
    g = np.log(a)
    x = np.linspace(0, 1, 6)
    C = np.exp(-((x[:, None] - x[None, :]) ** 2) / (2 * 0.2**2))
    np.testing.assert_allclose(np.cov(g.T), C, atol=0.04)


# ----------------------------------------------------------------------------- metrics
def test_metrics_against_scipy_and_closed_forms():
    rng = np.random.default_rng(0)
    mu, sd = rng.standard_normal(50000), np.full(50000, 2.0)
    y = mu + sd * rng.standard_normal(50000)
    assert K.gaussian_nll(mu[:5], sd[:5] ** 2, y[:5]) == pytest.approx(-scipy.stats.norm.logpdf(y[:5], mu[:5], sd[:5]).mean())
    assert K.interval_coverage(mu, sd, y, 0.9) == pytest.approx(0.9, abs=0.01)  # calibrated by construction
    assert K.miscalibration_area(mu, sd, y) < 0.01
    assert K.interval_coverage(mu, sd / 10, y, 0.9) < 0.2  # overconfident
    assert K.miscalibration_area(mu, sd / 10, y) > 0.3
    np.testing.assert_allclose(K.relative_l2(np.ones((2, 4)) * 1.1, np.ones((2, 4))), [0.1, 0.1])
    with pytest.raises(ValueError, match="level"):
        K.interval_coverage(mu, sd, y, 1.0)
    with pytest.raises(ValueError, match="std must be finite and > 0"):
        K.interval_coverage(mu, 0 * sd, y)
    with pytest.raises(ValueError, match="share a shape"):
        K.relative_l2(np.ones((2, 3)), np.ones((2, 4)))
    with pytest.raises(ValueError, match="zero norm"):
        K.relative_l2(np.ones((1, 3)), np.zeros((1, 3)))


def test_training_lowers_the_loss_and_predictive_samples_have_the_right_shape():
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    a = K.sample_lognormal_grf(32, 32, 0.1, rng)
    u = K.darcy1d_solve(a)
    x = torch.tensor(np.stack([np.log(a), np.broadcast_to(np.linspace(0, 1, 32), a.shape)], -1), dtype=torch.float32)
    y = torch.tensor(u[..., None] / u.std(), dtype=torch.float32)
    for kind in ("dinozaur", "bayesian"):
        m = K.NeuralOperator1d(kind, width=8, modes=8, n_blocks=1, n_grid=32)
        hist = K.train_operator(m, x, y, epochs=15, batch_size=16, lr=3e-3)
        assert hist[-1] < hist[0]
        s = K.predictive_samples(m, x[:3], 4)
        assert s.shape == (4, 3, 32, 1)
    with pytest.raises(ValueError, match="epochs"):
        K.train_operator(m, x, y, epochs=0)
    with pytest.raises(ValueError, match="noise must be"):
        K.predictive_samples(m, x[:3], 2, noise="sometimes")
    # without noise and without sampling (a deterministic model, dropout off) all draws coincide
    d = K.NeuralOperator1d("dinozaur", width=8, modes=8, n_blocks=1, n_grid=32)
    s = K.predictive_samples(d, x[:2], 3, noise="none")
    np.testing.assert_array_equal(s[0], s[2])
    # a fixed log-variance adds noise of that size
    s = K.predictive_samples(d, x[:2].repeat(50, 1, 1), 2, noise=math.log(0.25))
    assert np.std(s[0] - s[1]) == pytest.approx(np.sqrt(2 * 0.25), rel=0.1)


# ----------------------------------------------------------------------------- golden: the official code
GOLDEN = json.loads((Path(__file__).parent / "golden" / "dinozaur-diffusion-operator.json").read_text())
CASES = {c["name"]: c for c in GOLDEN["cases"]}
TAU = torch.tensor([0.0, 1e-3, 1e-2], dtype=torch.float64)


def _xhat():
    rng = np.random.default_rng(0)
    return torch.tensor(rng.standard_normal((2, 5, 3)) + 1j * rng.standard_normal((2, 5, 3)))


def _x():
    return torch.tensor(np.random.default_rng(1).standard_normal((2, 16, 3)))


def _cplx(d):
    return np.asarray(d["real"]) + 1j * np.asarray(d["imag"])


def _set_tau(m, tau):
    with torch.no_grad():
        m.diffusion_time.copy_(tau)


def test_golden_file_names_the_official_commit():
    assert GOLDEN["slug"] == "dinozaur-diffusion-operator"
    assert len(GOLDEN["commit"]) == 40 and GOLDEN["repository"].endswith("PhysicsXLtd/DINOZAUR")


def test_golden_diffusion_multiplier_spectrum():
    c = CASES["diffusion_multiplier_spectrum"]
    m = K.DiffusionMultiplier(3).double()
    _set_tau(m, TAU)
    out = m(_xhat(), K.laplacian_eigenvalues_1d(5, 1.0)).detach().numpy()
    np.testing.assert_allclose(out, _cplx(c["output"]), rtol=0, atol=c["tol"]["abs"])
    np.testing.assert_allclose(m.diffusion_time.detach().numpy(), c["output"]["tau_after_forward"], rtol=0, atol=0)


def test_golden_diffusion_multiplier_function_is_the_official_layer_with_all_modes():
    c = CASES["fourier_conv_diffusion_all_modes"]
    out = K.diffusion_multiplier(_x().transpose(1, 2), TAU.clamp(min=K.TAU_MIN)).transpose(1, 2).numpy()
    np.testing.assert_allclose(out, np.asarray(c["output"]), rtol=0, atol=c["tol"]["abs"])


@pytest.mark.parametrize("name", ["fourier_conv_diffusion_modes8", "fourier_conv_gradient_features"])
def test_golden_fourier_layer(name):
    c = CASES[name]
    mult = K.DiffusionMultiplier(3).double()
    _set_tau(mult, TAU)
    gf = name.endswith("gradient_features")
    layer = K.FourierLayer1d(mult, modes=c["input"]["modes"], length=1.0, gradient_features=gf).double()
    if gf:
        with torch.no_grad():
            layer.grad_weight.weight.copy_(torch.tensor(c["input"]["Wg"], dtype=torch.float64))
    out = layer(_x()).detach().numpy()
    np.testing.assert_allclose(out, np.asarray(c["output"]), rtol=0, atol=c["tol"]["abs"])


def test_golden_bayesian_multiplier():
    c = CASES["bayesian_multiplier"]
    b = K.BayesianDiffusionMultiplier(3).double()
    with torch.no_grad():
        b.posterior_mean.copy_(torch.tensor(c["input"]["mean"], dtype=torch.float64))
        b.posterior_scale.copy_(torch.tensor(c["input"]["scale"], dtype=torch.float64))
        b.posterior_tril.copy_(torch.tensor(c["input"]["tril"], dtype=torch.float64))
    tol = c["tol"]["abs"]
    assert float(b.kl_estimate(torch.tensor(c["input"]["tau_fixed"], dtype=torch.float64))) == pytest.approx(
        c["output"]["kl_fixed"], abs=tol)
    torch.manual_seed(0)
    out = b(_xhat(), K.laplacian_eigenvalues_1d(5, 1.0)).detach().numpy()
    np.testing.assert_allclose(out, _cplx(c["output"]["forward_seed0"]), rtol=0, atol=tol)
    assert float(b.kl) == pytest.approx(c["output"]["kl_forward_seed0"], abs=tol)


def test_golden_parameter_counts():
    counts = CASES["parameter_counts"]["output"]
    for tag, kind, gf in (("fno_1d_w32_m16", "fno", False), ("dinozaur_1d_w32_m16_g", "dinozaur", True),
                          ("dinozaur_1d_w32_m16_nog", "dinozaur", False)):
        net = K.NeuralOperator1d(kind, c_in=2, width=32, modes=16, n_blocks=4, gradient_features=gf)
        assert K.parameter_count(net) == counts[tag]["total"], tag
    for tag, kind in (("fno_1d_w32_m16", "fno"), ("dinozaur_1d_w32_m16_g", "dinozaur"),
                      ("fno_2d_darcy_config", "fno"), ("dinozaur_2d_darcy_config", "dinozaur")):
        modes = counts[tag]["kwargs"]["modes"]
        assert 4 * K.multiplier_parameter_count(kind, 32, modes) == counts[tag]["multipliers"], tag


# ----------------------------------------------------------------------------- golden: whole networks, extent, losses
def _ours_name(official: str) -> str:
    """Our parameter name for an official DINOZAUR / FNO state-dict key."""
    import re

    s = official.replace("double_skip_blocks.", "blocks.").replace("fourier_convolution.", "spectral.")
    s = s.replace("spatial_gradient_feature_weights.0.", "grad_weight.").replace("multiplier.weights", "multiplier.weight")
    s = s.replace("norm_layers.0.", "norm0.").replace("norm_layers.1.", "norm1.")
    return re.sub(r"\.(w[12])\.0\.", r".\1.", s)


def _load_official(net, state):
    ours = dict(net.named_parameters())
    assert len(ours) == len(state), (sorted(ours), sorted(state))
    with torch.no_grad():
        for k, v in state.items():
            p = ours[_ours_name(k)]
            t = (torch.tensor(np.asarray(v["real"]) + 1j * np.asarray(v["imag"])) if isinstance(v, dict)
                 else torch.tensor(v, dtype=torch.float64))
            assert p.shape == t.shape, k
            p.copy_(t.to(p.dtype))


def _golden_x():
    return torch.randn(2, 16, 2, generator=torch.Generator().manual_seed(5), dtype=torch.float64)


@pytest.mark.parametrize("name", ["dinozaur_network_padded_length", "dinozaur_network_two_pi", "fno_network"])
def test_golden_whole_network_forward_pass(name):
    c = CASES[name]
    i = c["input"]
    kind = "fno" if name.startswith("fno") else "dinozaur"
    length = i.get("extent")
    if name.endswith("padded_length"):
        length = None  # our default must be the padded grid's length, which the golden case stores as its extent
        assert K.NeuralOperator1d("dinozaur", width=4, modes=8, n_blocks=2, n_grid=16).length == pytest.approx(i["extent"])
    net = K.NeuralOperator1d(kind, c_in=2, c_out=1, width=i["width"], modes=i["modes"], n_blocks=i["n_blocks"],
                             padding=i["padding"], n_grid=i["n_grid"], length=length).double()
    _load_official(net, i["state_dict"])
    out = net(_golden_x()).detach().numpy()
    np.testing.assert_allclose(out, np.asarray(c["output"]), rtol=0, atol=c["tol"]["abs"])


def test_golden_extent_matters_and_is_the_official_one():
    # the two golden cases differ only in the extent: our network reproduces each only with its own length
    c1, c2 = CASES["dinozaur_network_padded_length"], CASES["dinozaur_network_two_pi"]
    assert np.max(np.abs(np.asarray(c1["output"]) - np.asarray(c2["output"]))) > 1e-3
    i = c2["input"]
    net = K.NeuralOperator1d("dinozaur", c_in=2, c_out=1, width=4, modes=8, n_blocks=2, n_grid=16).double()
    _load_official(net, i["state_dict"])
    assert np.max(np.abs(net(_golden_x()).detach().numpy() - np.asarray(c2["output"]))) > 1e-3
    assert i["extent"] == pytest.approx(2 * math.pi)


def test_golden_losses():
    c = CASES["losses"]
    g = torch.Generator().manual_seed(7)
    pred = torch.randn(3, 16, 1, generator=g, dtype=torch.float64)
    target = torch.randn(3, 16, 1, generator=g, dtype=torch.float64)
    s, kl, tol = torch.tensor(c["input"]["log_var"], dtype=torch.float64), c["input"]["kl"], c["tol"]["abs"]
    assert float(K.relative_l2_loss(pred, target)) == pytest.approx(c["output"]["relative_lp"], abs=tol)
    assert float(K.gaussian_elbo(pred[:1], target[:1], s, kl)) == pytest.approx(c["output"]["elbo_batch1"], abs=tol)
    # the official ELBO sums the NLL over the batch; ours averages it (per-sample ELBO): equal at batch size 1
    nll3 = c["output"]["elbo_batch3"] - kl
    assert float(K.gaussian_elbo(pred, target, s, kl)) == pytest.approx(nll3 / 3 + kl, abs=tol)


def test_losses_bad_input_and_frozen_times():
    with pytest.raises(ValueError, match="share a shape"):
        K.relative_l2_loss(torch.zeros(2, 3), torch.zeros(2, 4))
    with pytest.raises(ValueError, match="zero norm"):
        K.relative_l2_loss(torch.ones(1, 3), torch.zeros(1, 3))
    with pytest.raises(ValueError, match="share a shape"):
        K.gaussian_elbo(torch.zeros(2, 3), torch.zeros(2, 4), torch.tensor(0.0))
    with pytest.raises(ValueError, match="learn_tau"):
        K.NeuralOperator1d("fno", learn_tau=False)
    with pytest.raises(ValueError, match="length"):
        K.NeuralOperator1d("dinozaur", length=-1.0)
    # frozen diffusion times stay at the official clamp through training; learned ones move
    rng = np.random.default_rng(0)
    a = K.sample_lognormal_grf(16, 32, 0.1, rng)
    x = torch.tensor(np.stack([np.log(a), np.broadcast_to(np.linspace(0, 1, 32), a.shape)], -1), dtype=torch.float32)
    y = torch.tensor(K.darcy1d_solve(a)[..., None] * 10, dtype=torch.float32)
    for learn in (False, True):
        torch.manual_seed(0)
        m = K.NeuralOperator1d("dinozaur", width=4, modes=8, n_blocks=1, n_grid=32, learn_tau=learn)
        K.train_operator(m, x, y, epochs=3, batch_size=8, lr=1e-2)
        tau = m.blocks[0].spectral.multiplier.diffusion_time.detach()
        assert torch.all(tau == K.TAU_MIN) != learn
    # a deterministic model with a learned noise trains on the likelihood and its noise moves
    torch.manual_seed(0)
    m = K.NeuralOperator1d("dinozaur", width=4, modes=8, n_blocks=1, n_grid=32, learn_noise=True)
    K.train_operator(m, x, y, epochs=3, batch_size=8, lr=1e-2, noise_lr=0.05)
    assert float(m.log_noise_var) != -3.0 and float(m.kl()) == 0.0


# ----------------------------------------------------------------------------- comparators added after the review
def test_prior_quantile_times_are_the_official_priors_quantiles():
    t = K.prior_quantile_times(16)
    lv = (np.arange(16) + 0.5) / 16
    np.testing.assert_allclose(t, scipy.stats.lognorm.ppf(lv, s=1.0, scale=0.01), rtol=1e-12)
    assert np.all(np.diff(t) > 0)
    np.testing.assert_allclose(t * t[::-1], 0.01**2, rtol=1e-12)  # symmetric in log about the prior's median
    np.testing.assert_allclose(K.prior_quantile_times(1), [0.01])
    with pytest.raises(ValueError):
        K.prior_quantile_times(0)
    with pytest.raises(ValueError, match="> 0"):
        K.prior_quantile_times(4, prior_mean=-1.0)


def test_tau_init_sets_every_block_and_frozen_bank_survives_training():
    bank = K.prior_quantile_times(4)
    torch.manual_seed(0)
    ref = K.NeuralOperator1d("dinozaur", width=4, modes=8, n_blocks=2, n_grid=32)
    torch.manual_seed(0)
    m = K.NeuralOperator1d("dinozaur", width=4, modes=8, n_blocks=2, n_grid=32, tau_init=bank, learn_tau=False)
    for (n1, p1), (n2, p2) in zip(ref.named_parameters(), m.named_parameters()):
        assert n1 == n2
        if "diffusion_time" in n1:
            np.testing.assert_allclose(p2.detach().numpy(), bank, rtol=1e-6)
        else:  # the bank draws no random numbers: every other weight is the default initialisation
            assert torch.equal(p1, p2)
    rng = np.random.default_rng(1)
    a = K.sample_lognormal_grf(16, 32, 0.1, rng)
    x = torch.tensor(np.stack([np.log(a), np.broadcast_to(np.linspace(0, 1, 32), a.shape)], -1), dtype=torch.float32)
    y = torch.tensor(K.darcy1d_solve(a)[..., None] * 10, dtype=torch.float32)
    K.train_operator(m, x, y, epochs=2, batch_size=8, lr=1e-2)
    for b in m.blocks:
        np.testing.assert_allclose(b.spectral.multiplier.times().detach().numpy(), bank, rtol=1e-6)
    # the layer then applies exactly exp(-lambda_k tau_c)
    layer = m.blocks[0].spectral
    xh = torch.ones(1, layer.n_modes, 4, dtype=torch.complex64)
    out = layer.multiplier(xh, layer.eigvals).real.numpy()[0]
    np.testing.assert_allclose(out, np.exp(-layer.eigvals.numpy()[:, None] * bank[None, :]), rtol=1e-5)
    with pytest.raises(ValueError, match="tau_init"):
        K.NeuralOperator1d("fno", width=4, tau_init=bank)
    with pytest.raises(ValueError, match="tau_init"):
        K.NeuralOperator1d("dinozaur", width=4, tau_init=bank[:3])
    with pytest.raises(ValueError, match="tau_init"):
        K.NeuralOperator1d("dinozaur", width=4, tau_init=-bank)


def test_ridge_map_recovers_a_linear_map_and_matches_the_normal_equations():
    rng = np.random.default_rng(0)
    F = rng.normal(size=(200, 5)) * [1, 2, 3, 4, 5] + 7
    W = rng.normal(size=(5, 3))
    Y = F @ W + 1.5
    r = K.RidgeMap(alpha=1e-10).fit(F, Y)
    np.testing.assert_allclose(r.predict(F[:7]), Y[:7], atol=1e-6)
    assert r.n_params == 5 * 3 + 3
    # alpha > 0: the ridge solution of the standardised problem, computed independently by an augmented lstsq
    alpha = 3.0
    r = K.RidgeMap(alpha).fit(F, Y)
    A = (F - F.mean(0)) / F.std(0)
    aug_A = np.vstack([A, np.sqrt(alpha) * np.eye(5)])
    aug_Y = np.vstack([Y - Y.mean(0), np.zeros((5, 3))])
    w_ref = scipy.linalg.lstsq(aug_A, aug_Y)[0]
    np.testing.assert_allclose(r.W, w_ref, rtol=1e-8, atol=1e-10)
    # shrinkage: a larger alpha gives a smaller map
    assert np.linalg.norm(K.RidgeMap(1e3).fit(F, Y).W) < np.linalg.norm(r.W)
    with pytest.raises(ValueError, match="alpha"):
        K.RidgeMap(0.0)
    with pytest.raises(RuntimeError, match="fit"):
        K.RidgeMap().predict(F)
    with pytest.raises(ValueError, match="N >= 2"):
        K.RidgeMap().fit(F[:1], Y[:1])
    with pytest.raises(ValueError, match="must be"):
        r.predict(F[:, :4])
