"""Unit tests of :mod:`repro.papers.hamiltonian_neural_solver`, the kernels of ``notebooks/hamiltonian-neural-solver.py``."""

import inspect
import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch

from repro.papers import hamiltonian_neural_solver as K

L, N = 20.0, 64


@pytest.fixture(autouse=True)
def float64_by_default():
    """Float64 within this module's tests only: a module-level ``set_default_dtype`` leaks into every other
    test module collected in the same process (pytest imports them all before running any)."""
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    yield
    torch.set_default_dtype(previous)


def grid(n=N, length=L):
    return torch.arange(n) * (length / n)


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/hamiltonian_neural_solver.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# ---- finite differences ------------------------------------------------------------------------------------

def test_central_diff_sums_to_zero_and_is_skew():
    g = torch.Generator().manual_seed(0)
    f = torch.randn(5, 33, generator=g)
    d = K.central_diff(f, 0.3)
    assert d.sum(-1).abs().max() < 1e-12                       # mass: sum_i (D f)_i = 0
    assert (f * d).sum(-1).abs().max() < 1e-12                 # energy: f . D f = 0 (skew-symmetry)
    assert K.central_diff(f, 0.3, order=4).sum(-1).abs().max() < 1e-12


@pytest.mark.parametrize("order", [2, 4])
def test_central_diff_convergence_order_on_sine(order):
    errs = []
    for n in (32, 64, 128):
        x = torch.arange(n) * (2 * math.pi / n)
        errs.append((K.central_diff(torch.sin(x), 2 * math.pi / n, order=order) - torch.cos(x)).abs().max().item())
    rates = [math.log2(errs[i] / errs[i + 1]) for i in range(2)]
    assert all(abs(r - order) < 0.1 for r in rates), rates


def test_central_diff_against_numpy_gradient_in_the_interior():
    x = np.linspace(0, 1, 20)
    f = np.exp(x)
    ours = K.central_diff(torch.tensor(f), x[1] - x[0]).numpy()
    assert np.allclose(ours[1:-1], np.gradient(f, x[1] - x[0])[1:-1], atol=1e-14)


def test_forward_and_second_diff_closed_forms():
    x = grid(128)
    dx = L / 128
    f = torch.sin(2 * math.pi * x / L)
    k = 2 * math.pi / L
    assert (K.forward_diff(f, dx) - k * torch.cos(k * x)).abs().max() < 0.05 * k   # first order
    assert (K.second_diff(f, dx) + k * k * f).abs().max() < 1e-3 * k * k            # second order
    assert K.forward_diff(f, dx).sum().abs() < 1e-12
    assert (f * K.forward_diff(f, dx)).sum() < 0     # not skew: dissipative on a resolved mode


def test_spectral_derivative_is_exact_on_a_trigonometric_polynomial():
    x = grid(32)
    k = 2 * math.pi / L
    f = torch.sin(3 * k * x) + 0.5 * torch.cos(k * x)
    assert (K.spectral_derivative(f, L, 1) - (3 * k * torch.cos(3 * k * x) - 0.5 * k * torch.sin(k * x))).abs().max() < 1e-12
    assert (K.spectral_derivative(f, L, 3) - (-27 * k**3 * torch.cos(3 * k * x) + 0.5 * k**3 * torch.sin(k * x))).abs().max() < 1e-12
    assert (K.spectral_derivative(f, L, 0) - f).abs().max() < 1e-14


# ---- the exact solver --------------------------------------------------------------------------------------

LONG = 40.0   # a period on which the sech^2 tails (e^{-sqrt(c) L / 2}) are below 1e-8 for c >= 1


def test_soliton_closed_form_invariants():
    x = grid(256, LONG)
    for c in (1.0, 2.0):
        u = K.kdv_soliton(x, c, 7.0, LONG)
        assert K.kdv_mass(u, LONG / 256).item() == pytest.approx(2 * math.sqrt(c), rel=1e-8)
        assert K.kdv_momentum(u, LONG / 256).item() == pytest.approx(c**1.5 / 3, rel=1e-8)
        assert K.kdv_energy(u, LONG).item() == pytest.approx(-c**2.5 / 5, rel=1e-8)


def test_soliton_travels_at_its_exact_speed_under_the_spectral_solver():
    x = grid(128, LONG)
    c = torch.tensor([[1.0], [2.0]])
    u0 = K.kdv_soliton(x, c, 5.0, LONG)
    U = K.kdv_spectral_solve(u0, LONG, T=2.0, dt=0.005, save_every=100)
    exact = K.kdv_soliton(x, c, 5.0, LONG, t=2.0)
    assert (U[-1] - exact).abs().max() < 1e-5 * c.max()
    # the peak (by spectral interpolation) moved by c t
    xf = torch.arange(8192) * (LONG / 8192)
    fine = torch.fft.irfft(torch.fft.rfft(U[-1]), n=8192) * (8192 / 128)
    peak = xf[fine.argmax(-1)]
    assert torch.allclose(peak, 5.0 + 2.0 * c[:, 0], atol=2 * LONG / 8192)


def test_spectral_solver_conserves_the_kdv_invariants_in_a_two_soliton_collision():
    x = grid()
    u0 = K.kdv_soliton(x, 1.2, 4.0, L) + K.kdv_soliton(x, 0.4, 9.0, L)
    U = K.kdv_spectral_solve(u0, L, T=4.0, dt=0.005, save_every=40)
    dx = L / N
    for inv in (lambda u: K.kdv_mass(u, dx), lambda u: K.kdv_momentum(u, dx), lambda u: K.kdv_energy(u, L)):
        vals = inv(U)
        assert ((vals - vals[0]).abs() / vals[0].abs()).max() < 1e-6


def test_spectral_step_is_fourth_order_in_time():
    x = grid(32)
    u0 = K.kdv_soliton(x, 1.0, 10.0, L)
    ref = K.kdv_spectral_solve(u0, L, 1.0, 0.0025)[-1]
    e1 = (K.kdv_spectral_solve(u0, L, 1.0, 0.1)[-1] - ref).abs().max()
    e2 = (K.kdv_spectral_solve(u0, L, 1.0, 0.05)[-1] - ref).abs().max()
    assert 3.3 < math.log2(e1 / e2) < 4.7


def test_spectral_rhs_matches_the_soliton_time_derivative():
    x = grid(256, LONG)
    u = K.kdv_soliton(x, 1.0, 10.0, LONG)
    assert (K.kdv_spectral_rhs(u, LONG) + 1.0 * K.spectral_derivative(u, LONG, 1)).abs().max() < 2e-6   # u_t = -c u_x (up to the nearest-image kink, ~e^{-20})


def test_advection_exact_is_a_shift():
    x = grid(32)
    k = 2 * math.pi / L
    u0 = torch.sin(2 * k * x) + 0.3 * torch.cos(5 * k * x)
    ut = K.advection_exact(u0, 1.5, 0.7, L)
    assert (ut - (torch.sin(2 * k * (x - 1.05)) + 0.3 * torch.cos(5 * k * (x - 1.05)))).abs().max() < 1e-12
    assert (K.advection_exact(u0, 1.0, L, L) - u0).abs().max() < 1e-12       # one period


# ---- the Hamiltonian machinery -----------------------------------------------------------------------------

def test_functional_derivative_of_half_u_squared_is_u():
    g = torch.Generator().manual_seed(3)
    u = torch.randn(4, 16, generator=g, requires_grad=True)
    H = K.IKFHamiltonian(kernel=lambda v, dv: 0.5 * v**2)(u, 0.2)
    assert (K.functional_derivative(H, u, 0.2) - u).abs().max() < 1e-13


def test_functional_derivative_of_a_slope_term_is_minus_the_discrete_laplacian():
    # H = sum 1/2 (D u)^2 dx  ->  dH/du = D^T D u = -D D u
    g = torch.Generator().manual_seed(4)
    u = torch.randn(3, 16, generator=g, requires_grad=True)
    H = K.IKFHamiltonian(kernel=lambda v, dv: 0.5 * dv**2)(u, 0.5)
    expected = -K.central_diff(K.central_diff(u, 0.5), 0.5)
    assert (K.functional_derivative(H, u, 0.5) - expected).abs().max() < 1e-12


def true_kdv_H():
    return K.IKFHamiltonian(kernel=lambda v, dv: -v**3 + 0.5 * dv**2)


def test_hns_rhs_with_the_true_hamiltonian_converges_to_the_spectral_kdv_rhs_at_second_order():
    errs = []
    for n in (128, 256, 512):
        x = grid(n, LONG)
        u = K.kdv_soliton(x, 1.0, 20.0, LONG)[None]
        errs.append((K.hns_rhs(true_kdv_H(), u, LONG / n) - K.kdv_spectral_rhs(u, LONG)).abs().max().item())
    rates = [math.log2(errs[i] / errs[i + 1]) for i in range(2)]
    assert all(1.8 < r < 2.3 for r in rates), rates


def test_hns_flow_conserves_mass_and_its_own_hamiltonian():
    torch.manual_seed(0)
    H = K.IKFHamiltonian(hidden=8, layers=2)
    x = grid(32)
    u0 = K.kdv_soliton(x, 1.0, 10.0, L)[None]
    dx = L / 32
    U = K.rollout(lambda u: K.hns_rhs(H, u, dx), u0, 0.01, 200, 50)
    m = K.kdv_mass(U, dx)
    assert (m - m[0]).abs().max() < 1e-12
    with torch.no_grad():
        h = H(U[:, 0], dx)
    assert (h - h[0]).abs().max() < 1e-6 * max(1.0, h[0].abs().item())   # RK4 error only


def test_forward_difference_bracket_breaks_the_energy():
    x = grid(32)
    u0 = K.kdv_soliton(x, 1.0, 10.0, L)[None]
    dx = L / 32
    U = K.rollout(lambda u: K.hns_rhs(true_kdv_H(), u, dx, bracket=K.forward_diff), u0, 0.01, 100, 100)
    E = K.IKFHamiltonian(kernel=lambda v, dv: -v**3 + 0.5 * dv**2)(U[:, 0], dx)
    assert (E[-1] - E[0]).abs() > 1e-3


def test_rk4_is_fourth_order_on_a_linear_ode():
    errs = []
    for n in (10, 20):
        u = torch.tensor([1.0])
        for _ in range(n):
            u = K.rk4_step(lambda v: -v, u, 1.0 / n)
        errs.append(abs(u.item() - math.exp(-1)))
    assert 3.8 < math.log2(errs[0] / errs[1]) < 4.2


def test_rollout_marks_blow_up_as_nan_and_relative_l2_as_inf():
    u0 = torch.ones(2, 4)
    U = K.rollout(lambda u: torch.stack([u[0] * 50, -u[1]]), u0, 0.5, 20, 5)
    assert torch.isnan(U[-1, 0]).all() and torch.isfinite(U[-1, 1]).all()
    err = K.relative_l2(U[-1], torch.ones(2, 4))
    assert math.isinf(err[0].item()) and err[1].item() < 1


def test_direct_cnn_is_periodic_and_translation_equivariant():
    torch.manual_seed(0)
    m = K.DirectCNN(channels=4, depth=3, kernel_size=5)
    u = torch.randn(2, 16)
    with torch.no_grad():
        assert (m(torch.roll(u, 3, -1)) - torch.roll(m(u), 3, -1)).abs().max() < 1e-12
    assert K.count_parameters(m) == (1 * 4 * 5 + 4) + (4 * 4 * 5 + 4) + (4 * 5 + 1)


def test_ikf_hamiltonian_is_translation_invariant_and_counts_its_parameters():
    torch.manual_seed(0)
    H = K.IKFHamiltonian(hidden=8, layers=2)
    u = torch.randn(2, 16)
    with torch.no_grad():
        assert (H(torch.roll(u, 5, -1), 0.3) - H(u, 0.3)).abs().max() < 1e-12
    assert K.count_parameters(H) == (2 * 8 + 8) + (8 * 8 + 8) + (8 + 1)


# ---- bad input ---------------------------------------------------------------------------------------------

def test_bad_input_raises():
    u = torch.randn(2, 16)
    with pytest.raises(ValueError, match="dx"):
        K.central_diff(u, 0.0)
    with pytest.raises(ValueError, match="order"):
        K.central_diff(u, 0.1, order=3)
    with pytest.raises(ValueError, match="at least"):
        K.central_diff(torch.randn(2, 2), 0.1)
    with pytest.raises(ValueError, match="floating"):
        K.second_diff(torch.ones(2, 8, dtype=torch.long), 0.1)
    with pytest.raises(ValueError, match="T / dt"):
        K.kdv_spectral_solve(u, L, 1.0, 0.3)
    with pytest.raises(ValueError, match="save_every"):
        K.kdv_spectral_solve(u, L, 1.0, 0.1, save_every=3)
    with pytest.raises(ValueError, match="dt"):
        K.kdv_spectral_step(u, -0.1, L)
    with pytest.raises(ValueError, match="positive"):
        K.kdv_soliton(grid(), -1.0, 0.0, L)
    with pytest.raises(ValueError, match="require grad"):
        K.functional_derivative(u.sum(-1), u, 0.1)
    with pytest.raises(ValueError, match="same shape"):
        K.relative_l2(u, u[:, :4])
    with pytest.raises(ValueError, match="odd"):
        K.DirectCNN(kernel_size=4)
    with pytest.raises(ValueError, match="n_steps"):
        K.rollout(lambda v: v, u, 0.1, 5, 2)


# ---- golden tests against the official code (issue 11) -----------------------------------------------------
# tests/papers/golden/hamiltonian-neural-solver.json holds the outputs of the official functions
# (anthonyzhou-1/hamiltonian_pdes, run outside the project on the inputs rebuilt below).

GOLDEN = json.loads((Path(__file__).parent / "golden" / "hamiltonian-neural-solver.json").read_text())
CASES = {c["name"]: c for c in GOLDEN["cases"]}


def _golden_soliton(inp):
    x = torch.arange(inp["N"]) * (inp["L"] / inp["N"])
    return K.kdv_soliton(x, inp["c"], inp["x0"], inp["L"])


def test_golden_file_names_the_official_commit():
    assert GOLDEN["slug"] == "hamiltonian-neural-solver"
    assert len(GOLDEN["commit"]) == 40 and GOLDEN["repository"].endswith("anthonyzhou-1/hamiltonian_pdes")


def test_golden_central_diff():
    c = CASES["central-diff-periodic"]
    ours = K.central_diff(torch.tensor(c["input"]["u"]), c["input"]["dx"])
    assert np.allclose(ours.numpy(), np.array(c["output"]), rtol=0, atol=c["tol"]["abs"])


def test_golden_kdv_functional_derivative_interior():
    c = CASES["kdv-dH-du"]
    u = _golden_soliton(c["input"])
    ours = 6 * K.kdv_functional_derivative(u, c["input"]["L"] / c["input"]["N"])
    assert np.allclose(ours.numpy()[1:-1], np.array(c["output"])[1:-1], rtol=0, atol=c["tol"]["abs"])


def test_golden_kdv_hamiltonian():
    c = CASES["kdv-hamiltonian"]
    u = _golden_soliton(c["input"])
    ours = 36 * K.kdv_energy(u, c["input"]["L"]).item()
    assert ours == pytest.approx(c["output"], rel=c["tol"]["rel"])
    assert c["output"] == pytest.approx(36 * (-c["input"]["c"] ** 2.5 / 5), rel=c["tol"]["rel"])


def test_golden_ikf_functional_derivative():
    c = CASES["ikf-functional-derivative"]
    u = torch.tensor(c["input"]["u"])[None].requires_grad_(True)
    dx = c["input"]["dx"]
    H = K.IKFHamiltonian(kernel=lambda v, dv: v**3)
    ours = K.functional_derivative(H(u, dx), u, dx)[0].detach().numpy()
    assert np.allclose(ours[:-1], np.array(c["output"]["dF_du"])[:-1], rtol=0, atol=c["tol"]["abs"])
    # the official left Riemann sum drops node N-1; ours is periodic and keeps it
    off = H(u[:, :-1], dx).item() if u.shape[1] > 3 else None
    assert off == pytest.approx(c["output"]["F"], abs=1e-12)


# ---- second reading: the official smooth bracket, the flux ablation, AB2, and the added golden cases ---------


def test_smooth_diff_is_skew_and_second_order_only():
    f = torch.randn(3, 40, generator=torch.Generator().manual_seed(4), dtype=torch.float64)
    g = torch.randn(3, 40, generator=torch.Generator().manual_seed(5), dtype=torch.float64)
    # skew-symmetric: <g, D f> = -<D g, f>, and D 1 = 0
    assert torch.allclose((g * K.smooth_diff(f, 0.3)).sum(-1), -(K.smooth_diff(g, 0.3) * f).sum(-1), atol=1e-12)
    assert torch.allclose(K.smooth_diff(torch.ones(1, 40, dtype=torch.float64), 0.3), torch.zeros(1, 40))
    # "order 8" in the configuration, but second order of accuracy, and worse than central on a coarse grid
    orders = K.observed_order(K.smooth_diff, 20.0)
    assert all(1.7 < o < 2.05 for o in orders)
    assert K.max_relative_error(K.smooth_diff, 20.0, 32, 3) > 4 * K.max_relative_error(K.central_diff, 20.0, 32, 3)


def test_observed_order_of_known_stencils():
    assert K.observed_order(K.central_diff, 20.0)[-1] == pytest.approx(2.0, abs=0.02)
    assert K.observed_order(lambda f, dx: K.central_diff(f, dx, order=4), 20.0)[-1] == pytest.approx(4.0, abs=0.05)
    assert K.observed_order(K.forward_diff, 20.0)[-1] == pytest.approx(1.0, abs=0.05)
    with pytest.raises(ValueError, match="twice"):
        K.observed_order(K.central_diff, 20.0, ns=(32, 48))


def test_smooth_diff_rejects_short_grids():
    with pytest.raises(ValueError, match="11"):
        K.smooth_diff(torch.zeros(1, 8, dtype=torch.float64), 0.1)


def test_flux_rhs_conserves_mass_not_energy():
    torch.manual_seed(0)
    net = K.DirectCNN(channels=4, depth=3, kernel_size=5).double()
    u = torch.randn(2, 32, generator=torch.Generator().manual_seed(6), dtype=torch.float64)
    with torch.no_grad():
        ut = K.flux_rhs(net, u, 0.5)
        assert torch.allclose(ut.sum(-1), torch.zeros(2, dtype=torch.float64), atol=1e-12)
        # no energy: d/dt int u^2/2 = <u, D g> is not zero for a generic flux
        assert (u * ut).sum(-1).abs().max() > 1e-3


def test_ab2_rollout_matches_its_recurrence_and_is_second_order():
    lam = -0.7
    u0 = torch.ones(1, 3, dtype=torch.float64)
    out = K.ab2_rollout(lambda v: lam * v, u0, 0.1, 4)
    u1 = 1 + 0.1 * lam
    u2 = u1 + 0.05 * (3 * lam * u1 - lam * 1)
    assert out[2, 0, 0].item() == pytest.approx(u2, abs=1e-14)
    errs = [abs(K.ab2_rollout(lambda v: lam * v, u0, 1.0 / n, n)[-1, 0, 0].item() - np.exp(lam)) for n in (40, 80)]
    assert np.log2(errs[0] / errs[1]) == pytest.approx(2.0, abs=0.15)
    with pytest.raises(ValueError, match="n_steps"):
        K.ab2_rollout(lambda v: v, u0, 0.1, 5, 2)


def test_ab2_rollout_freezes_blowups_as_nan():
    out = K.ab2_rollout(lambda v: 50 * v, torch.ones(1, 3, dtype=torch.float64), 0.5, 20)
    assert torch.isnan(out[-1]).all()


def _golden_two_solitons(inp):
    x = torch.arange(inp["N"], dtype=torch.float64) * (inp["L"] / inp["N"])
    return sum(K.kdv_soliton(x, c, x0, inp["L"]) for c, x0 in inp["solitons"])


def test_golden_smooth_diff_runs_against_the_official_order8():
    c = CASES["smooth-diff-order8"]
    ours = K.smooth_diff(torch.tensor(c["input"]["u"]), c["input"]["dx"])
    assert np.allclose(ours.numpy(), np.array(c["output"]), rtol=0, atol=c["tol"]["abs"])


@pytest.mark.parametrize("name,D", [("bracket-slope-kernel", K.central_diff),
                                    ("bracket-slope-kernel-smooth", K.smooth_diff)])
def test_golden_bracket_with_slope_input(name, D):
    c = CASES[name]
    u = _golden_two_solitons(c["input"])[None]
    dx = c["input"]["L"] / c["input"]["N"]
    H = K.IKFHamiltonian(kernel=lambda v, dv: -v**3 + 0.5 * dv**2)
    ours = K.hns_rhs(H, u, dx, bracket=D)[0]
    assert np.allclose(ours.numpy(), np.array(c["output"]), rtol=0, atol=c["tol"]["abs"])
    # closed form: dH/du = -3u^2 + D_c^T D_c u = -3u^2 - D_c(D_c u) (central slope, skew), then the bracket
    closed = D(-3 * u * u - K.central_diff(K.central_diff(u, dx), dx), dx)[0]
    assert np.allclose(ours.numpy(), closed.numpy(), rtol=0, atol=1e-10)


def test_golden_kdv_spectral_step():
    c = CASES["kdv-spectral-step"]
    inp = c["input"]
    u = _golden_two_solitons(inp)
    ours = K.kdv_spectral_solve(u, inp["L"], inp["dt"] * inp["steps"], inp["dt"])[-1]
    assert np.allclose(ours.numpy(), np.array(c["output"]), rtol=0, atol=c["tol"]["abs"])


@pytest.mark.parametrize("name,integ", [("rk4-rollout", K.rollout), ("ab2-rollout", K.ab2_rollout)])
def test_golden_integrators(name, integ):
    c = CASES[name]
    inp = c["input"]
    u = _golden_two_solitons(inp)[None]
    dx = inp["L"] / inp["N"]
    H = K.IKFHamiltonian(kernel=lambda v, dv: -v**3 + 0.5 * dv**2)
    ours = integ(lambda v: K.hns_rhs(H, v, dx), u, inp["dt"], inp["steps"])[-1, 0]
    assert np.allclose(ours.numpy(), np.array(c["output"]), rtol=0, atol=c["tol"]["abs"])


def test_viscous_bracket_is_central_plus_diffusion_keeps_mass_and_dissipates():
    torch.manual_seed(0)
    dx = 0.5
    u = torch.randn(3, 16, dtype=torch.float64)
    g = torch.randn(3, 16, dtype=torch.float64)
    assert torch.allclose(K.viscous_bracket(g, u, dx, 0.0), K.central_diff(g, dx), atol=1e-14)
    r = K.viscous_bracket(g, u, dx, 0.3)
    assert torch.allclose(r, K.central_diff(g, dx) + 0.3 * K.second_diff(u, dx), atol=1e-14)
    assert r.sum(-1).abs().max() < 1e-12                      # mass
    # pure diffusion (g = 0) dissipates sum u^2
    assert (u * K.viscous_bracket(torch.zeros_like(u), u, dx, 0.3)).sum(-1).max() < 0
    # advection: g = -u with nu = dx/2 is first-order upwinding, -(u_i - u_{i-1}) / dx
    up = -(u - torch.roll(u, 1, -1)) / dx
    assert torch.allclose(K.viscous_bracket(-u, u, dx, dx / 2), up, atol=1e-13)


def test_viscous_bracket_rejects_bad_input():
    u = torch.zeros(2, 8, dtype=torch.float64)
    with pytest.raises(ValueError):
        K.viscous_bracket(u, u, 0.5, -1.0)
    with pytest.raises(ValueError):
        K.viscous_bracket(u[:, :6], u, 0.5, 0.1)
    with pytest.raises(ValueError):
        K.viscous_bracket(u, u, 0.0, 0.1)


def test_derivative_reach_of_local_kernels():
    torch.manual_seed(0)
    u = torch.randn(32, dtype=torch.float64)
    # kernel of u alone: dH/du_i depends on u_i only
    assert K.derivative_reach(K.IKFHamiltonian(kernel=lambda v, dv: v**3 + 0 * dv), u, 0.5, node=7) == 0
    # kernel of the central slope: dH/du reaches two nodes either side (D_x^T D_x is a 5-point stencil)
    assert K.derivative_reach(K.IKFHamiltonian(kernel=lambda v, dv: -v**3 + 0.5 * dv**2), u, 0.5, node=0) == 2
    with pytest.raises(ValueError):
        K.derivative_reach(K.IKFHamiltonian(kernel=lambda v, dv: v**2), u, 0.5, node=40)
