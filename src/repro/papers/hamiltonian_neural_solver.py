r"""Hamiltonian Neural PDE Solvers through Functional Approximation (HNS).

Paper map
---------
*Hamiltonian Neural PDE Solvers through Functional Approximation*, Anthony Zhou and Amir Barati Farimani,
NeurIPS 2025, https://arxiv.org/abs/2505.13275 (official code: github.com/anthonyzhou-1/hamiltonian_pdes).
Notebook: ``notebooks/hamiltonian-neural-solver.py``.

Notation (paper -> here):

- field :math:`u(x)` on a periodic grid of :math:`N` nodes, spacing :math:`\Delta x = L/N` -> ``u[..., i]``
  (last axis is space, leading axes are a batch);
- Hamiltonian functional :math:`\mathcal H[u]` as a kernel integral (IKF),
  :math:`\mathcal H[u]\approx\sum_i \kappa_\theta(u_i, (D_x u)_i)\,\Delta x` -> :class:`IKFHamiltonian`;
- functional derivative :math:`\delta\mathcal H/\delta u` -> :func:`functional_derivative` (autograd of
  :math:`\mathcal H` divided by :math:`\Delta x`);
- 1-D Poisson bracket :math:`u_t = \partial_x(\delta\mathcal H/\delta u)` -> :func:`hns_rhs` (central
  difference ``central_diff`` for :math:`\partial_x`, as the official ``Hamiltonian_Wrapper.poisson_bracket``);
- the "Newtonian" baseline that predicts :math:`u_t` directly -> :class:`DirectCNN`;
- the time integrator -> :func:`rk4_step`, :func:`rollout`.

The exact solver (the issue's "must expose"): :func:`kdv_spectral_step` ``(u, dt, L)``, one step of the
integrating-factor RK4 pseudo-spectral scheme for KdV :math:`u_t + 6uu_x + u_{xxx} = 0` on :math:`[0, L)`;
:func:`kdv_spectral_solve` loops it. Its invariants: :func:`kdv_mass` :math:`\int u`,
:func:`kdv_momentum` :math:`\int u^2/2` and :func:`kdv_energy`
:math:`\mathcal H_{\rm true} = \int(-u^3 + \tfrac12 u_x^2)\,dx`, with
:math:`u_t = \partial_x\,\delta\mathcal H_{\rm true}/\delta u`, :math:`\delta\mathcal H_{\rm true}/\delta u = -3u^2 - u_{xx}`
(:func:`kdv_functional_derivative`). Exact solution: the soliton :func:`kdv_soliton`
:math:`u = \tfrac c2\,\mathrm{sech}^2(\tfrac{\sqrt c}{2}(x - x_0 - ct))`.
The second PDE is linear advection :math:`u_t + a u_x = 0`, :math:`\mathcal H = -\tfrac a2\int u^2`, solved
exactly by a spectral shift (:func:`advection_exact`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
from torch import Tensor, nn

__all__ = [
    "central_diff", "forward_diff", "second_diff", "spectral_derivative",
    "kdv_soliton", "kdv_spectral_rhs", "kdv_spectral_step", "kdv_spectral_solve",
    "kdv_mass", "kdv_momentum", "kdv_energy", "kdv_functional_derivative", "advection_exact",
    "IKFHamiltonian", "functional_derivative", "hns_rhs", "DirectCNN", "rk4_step", "rollout",
    "relative_l2", "count_parameters", "smooth_diff", "observed_order", "max_relative_error", "flux_rhs",
    "ab2_rollout", "viscous_bracket", "derivative_reach",
]


def _check_field(u: Tensor, name: str = "u", min_n: int = 3) -> None:
    if not isinstance(u, Tensor):
        raise ValueError(f"{name} must be a torch.Tensor, got {type(u).__name__}")
    if u.ndim < 1 or u.shape[-1] < min_n:
        raise ValueError(f"{name} must have a last (space) axis of at least {min_n} nodes, got shape {tuple(u.shape)}")
    if not torch.is_floating_point(u):
        raise ValueError(f"{name} must be floating point, got {u.dtype}")


def _check_positive(value: float, name: str) -> None:
    if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")


# --------------------------------------------------------------------------------------------- derivatives


def central_diff(f: Tensor, dx: float, order: int = 2) -> Tensor:
    r"""Periodic central first difference along the last axis.

    Order 2: :math:`(f_{i+1} - f_{i-1})/(2\Delta x)` (the official ``first_derivative`` in mode
    ``"periodic"``); order 4: :math:`(-f_{i+2} + 8f_{i+1} - 8f_{i-1} + f_{i-2})/(12\Delta x)`. The stencil is
    skew-symmetric, so :math:`\sum_i (D_x f)_i = 0` and :math:`\sum_i g_i (D_x g)_i = 0` for every grid
    function: the discrete form of the conservation argument of the paper's Sec. 3 (Poisson bracket).

    Parameters
    ----------
    f : Tensor, shape (..., N), N >= 3 (N >= 5 for order 4)
    dx : float, grid spacing > 0
    order : 2 or 4

    Returns
    -------
    Tensor, shape (..., N)
    """
    _check_positive(dx, "dx")
    if order == 2:
        _check_field(f, "f", 3)
        return (torch.roll(f, -1, -1) - torch.roll(f, 1, -1)) / (2 * dx)
    if order == 4:
        _check_field(f, "f", 5)
        return (-torch.roll(f, -2, -1) + 8 * torch.roll(f, -1, -1) - 8 * torch.roll(f, 1, -1)
                + torch.roll(f, 2, -1)) / (12 * dx)
    raise ValueError(f"order must be 2 or 4, got {order!r}")


def forward_diff(f: Tensor, dx: float) -> Tensor:
    r"""Periodic one-sided (forward) first difference :math:`(f_{i+1} - f_i)/\Delta x` along the last axis.

    Not skew-symmetric: used as the ablation "Hamiltonian model without a skew bracket" (it still keeps
    :math:`\sum_i (D^+ f)_i = 0`, i.e. mass, but not the energy).

    Parameters
    ----------
    f : Tensor, shape (..., N), N >= 3
    dx : float > 0

    Returns
    -------
    Tensor, shape (..., N)
    """
    _check_field(f, "f")
    _check_positive(dx, "dx")
    return (torch.roll(f, -1, -1) - f) / dx


def second_diff(f: Tensor, dx: float) -> Tensor:
    r"""Periodic central second difference :math:`(f_{i+1} - 2f_i + f_{i-1})/\Delta x^2` along the last axis.

    Parameters
    ----------
    f : Tensor, shape (..., N), N >= 3
    dx : float > 0

    Returns
    -------
    Tensor, shape (..., N)
    """
    _check_field(f, "f")
    _check_positive(dx, "dx")
    return (torch.roll(f, -1, -1) - 2 * f + torch.roll(f, 1, -1)) / dx**2


def _wavenumbers(n: int, L: float, like: Tensor) -> Tensor:
    return 2 * math.pi / L * torch.fft.rfftfreq(n, d=1.0 / n, dtype=like.dtype, device=like.device)


def spectral_derivative(u: Tensor, L: float, order: int = 1) -> Tensor:
    r"""Exact derivative :math:`\partial_x^m u` of the trigonometric interpolant of a periodic field.

    :math:`\widehat{\partial_x^m u}(k) = (ik)^m\hat u(k)`, :math:`k = 2\pi j/L`; the Nyquist mode is zeroed for
    odd :math:`m`.

    Parameters
    ----------
    u : Tensor, shape (..., N), N >= 3, on the grid :math:`x_i = iL/N`
    L : float, period > 0
    order : int >= 0

    Returns
    -------
    Tensor, shape (..., N)
    """
    _check_field(u)
    _check_positive(L, "L")
    if not (isinstance(order, int) and order >= 0):
        raise ValueError(f"order must be a non-negative int, got {order!r}")
    n = u.shape[-1]
    k = _wavenumbers(n, L, u)
    mult = (1j * k) ** order
    if order % 2 == 1 and n % 2 == 0:
        mult[-1] = 0
    return torch.fft.irfft(mult * torch.fft.rfft(u), n=n)


# ------------------------------------------------------------------------------------------ exact physics


def kdv_soliton(x: Tensor, c: Tensor | float, x0: Tensor | float, L: float, t: float = 0.0) -> Tensor:
    r"""Single soliton of :math:`u_t + 6uu_x + u_{xxx}=0`: :math:`\tfrac c2\,\mathrm{sech}^2(\tfrac{\sqrt c}2 \xi)`,
    :math:`\xi` the periodic distance from :math:`x_0 + ct` (nearest image on :math:`[0, L)`).

    On a period long against the width :math:`2/\sqrt c` this is the exact solution to within
    :math:`O(e^{-\sqrt c L/2})`.

    Parameters
    ----------
    x : Tensor, shape (N,), grid
    c : float or Tensor of shape (B, 1), speed > 0 (amplitude c/2)
    x0 : float or Tensor of shape (B, 1), centre at t = 0
    L : float, period
    t : float, time

    Returns
    -------
    Tensor, shape (N,) or (B, N)
    """
    _check_positive(L, "L")
    c = torch.as_tensor(c, dtype=x.dtype)
    if torch.any(c <= 0):
        raise ValueError("soliton speeds c must be positive")
    xi = torch.remainder(x - torch.as_tensor(x0, dtype=x.dtype) - c * t + L / 2, L) - L / 2
    return 0.5 * c / torch.cosh(0.5 * torch.sqrt(c) * xi) ** 2


def kdv_spectral_rhs(u: Tensor, L: float) -> Tensor:
    r"""Exact (pseudo-spectral) right-hand side :math:`u_t = -6uu_x - u_{xxx} = -3(u^2)_x - u_{xxx}`.

    Parameters
    ----------
    u : Tensor, shape (..., N)
    L : float, period

    Returns
    -------
    Tensor, shape (..., N)
    """
    return -3 * spectral_derivative(u * u, L, 1) - spectral_derivative(u, L, 3)


def kdv_spectral_step(u: Tensor, dt: float, L: float) -> Tensor:
    r"""One step of integrating-factor RK4 for periodic KdV :math:`u_t + 6uu_x + u_{xxx} = 0` on :math:`[0, L)`.

    In Fourier space :math:`\hat u_t = ik^3\hat u - 3ik\,\widehat{u^2}`; with :math:`v = e^{-ik^3t}\hat u` the
    stiff linear part is integrated exactly and classical RK4 is applied to the nonlinear part (Trefethen,
    *Spectral Methods in MATLAB*, program 27; the brief's data generator). The Nyquist mode is zeroed.

    Parameters
    ----------
    u : Tensor, shape (..., N), real
    dt : float > 0
    L : float > 0

    Returns
    -------
    Tensor, shape (..., N): u after one step of length dt.
    """
    _check_field(u)
    _check_positive(dt, "dt")
    _check_positive(L, "L")
    n = u.shape[-1]
    k = _wavenumbers(n, L, u)
    if n % 2 == 0:
        k = k.clone()
        k[-1] = 0
    e_half = torch.exp(1j * k**3 * dt / 2)
    e_full = e_half * e_half
    g = -3j * k

    def nonlinear(vhat: Tensor) -> Tensor:
        w = torch.fft.irfft(vhat, n=n)
        return g * torch.fft.rfft(w * w)

    v = torch.fft.rfft(u)
    a = dt * nonlinear(v)
    b = dt * nonlinear(e_half * (v + a / 2))
    c = dt * nonlinear(e_half * v + b / 2)
    d = dt * nonlinear(e_full * v + e_half * c)
    v_new = e_full * v + (e_full * a + 2 * e_half * (b + c) + d) / 6
    return torch.fft.irfft(v_new, n=n)


def kdv_spectral_solve(u0: Tensor, L: float, T: float, dt: float, save_every: int = 1) -> Tensor:
    r"""Integrate KdV from :math:`u_0` to time :math:`T` with :func:`kdv_spectral_step` (batched over samples).

    Parameters
    ----------
    u0 : Tensor, shape (..., N)
    L, T, dt : floats > 0; ``T/dt`` must be an integer (to 1e-9)
    save_every : int, keep every ``save_every``-th step (``n_steps`` must be a multiple)

    Returns
    -------
    Tensor, shape (n_steps / save_every + 1, ..., N): the saved states, starting with u0.
    """
    _check_positive(T, "T")
    _check_positive(dt, "dt")
    n_steps = round(T / dt)
    if abs(n_steps * dt - T) > 1e-9 * max(1.0, T):
        raise ValueError(f"T / dt must be an integer, got T={T}, dt={dt}")
    if not (isinstance(save_every, int) and save_every >= 1 and n_steps % save_every == 0):
        raise ValueError(f"save_every must be a positive divisor of the {n_steps} steps, got {save_every!r}")
    out = [u0]
    u = u0
    for s in range(1, n_steps + 1):
        u = kdv_spectral_step(u, dt, L)
        if s % save_every == 0:
            out.append(u)
    return torch.stack(out)


def kdv_mass(u: Tensor, dx: float) -> Tensor:
    r"""Mass :math:`\int u\,dx \approx \sum_i u_i\Delta x` (a Casimir of the KdV bracket). Shape (...,)."""
    _check_field(u)
    _check_positive(dx, "dx")
    return u.sum(-1) * dx


def kdv_momentum(u: Tensor, dx: float) -> Tensor:
    r"""Momentum :math:`\int \tfrac12 u^2\,dx` (conserved by KdV and by advection). Shape (...,)."""
    _check_field(u)
    _check_positive(dx, "dx")
    return 0.5 * (u * u).sum(-1) * dx


def kdv_energy(u: Tensor, L: float) -> Tensor:
    r"""The KdV Hamiltonian :math:`\mathcal H_{\rm true}[u] = \int_0^L(-u^3 + \tfrac12 u_x^2)\,dx`.

    :math:`u_x` is spectral and the rectangle rule on a periodic grid is spectrally accurate. For the
    soliton of speed :math:`c` on a long period, :math:`\mathcal H_{\rm true} = -c^{5/2}/5`.

    Parameters
    ----------
    u : Tensor, shape (..., N) on the grid :math:`x_i = iL/N`
    L : float, period

    Returns
    -------
    Tensor, shape (...,)
    """
    _check_field(u)
    ux = spectral_derivative(u, L, 1)
    return (-u**3 + 0.5 * ux**2).sum(-1) * (L / u.shape[-1])


def kdv_functional_derivative(u: Tensor, dx: float) -> Tensor:
    r"""Exact-form functional derivative :math:`\delta\mathcal H_{\rm true}/\delta u = -3u^2 - u_{xx}`, with the
    three-point :func:`second_diff` for :math:`u_{xx}` (the official ``calculate_dH_du`` for
    ``pde="kdv"``, there for :math:`u_t + uu_x + u_{xxx}=0`, i.e. :math:`-u^2/2 - u_{xx}`).

    Parameters
    ----------
    u : Tensor, shape (..., N)
    dx : float > 0

    Returns
    -------
    Tensor, shape (..., N)
    """
    return -3 * u * u - second_diff(u, dx)


def advection_exact(u0: Tensor, a: float, t: float, L: float) -> Tensor:
    r"""Exact solution :math:`u(x, t) = u_0(x - at)` of :math:`u_t + au_x = 0` on :math:`[0, L)` (spectral shift
    :math:`\hat u(k)e^{-ikat}` of the trigonometric interpolant; the Nyquist mode keeps its real part).

    Parameters
    ----------
    u0 : Tensor, shape (..., N)
    a : float, speed
    t : float, time
    L : float > 0

    Returns
    -------
    Tensor, shape (..., N)
    """
    _check_field(u0, "u0")
    _check_positive(L, "L")
    n = u0.shape[-1]
    k = _wavenumbers(n, L, u0)
    phase = torch.exp(-1j * k * (a * t))
    if n % 2 == 0:
        phase = torch.cat([phase[:-1], phase[-1:].real.to(phase.dtype)])
    return torch.fft.irfft(torch.fft.rfft(u0) * phase, n=n)


# --------------------------------------------------------------------------------------------- the models


def _mlp(n_in: int, hidden: int, layers: int, act: type[nn.Module]) -> nn.Sequential:
    mods: list[nn.Module] = [nn.Linear(n_in, hidden), act()]
    for _ in range(layers - 1):
        mods += [nn.Linear(hidden, hidden), act()]
    mods.append(nn.Linear(hidden, 1))
    return nn.Sequential(*mods)


class IKFHamiltonian(nn.Module):
    r"""Kernel-integral Hamiltonian :math:`\mathcal H_\theta[u] = \sum_i \kappa_\theta(u_i, (D_xu)_i)\,\Delta x`.

    The paper's integral-kernel functional (Sec. 3, Riesz representation; official
    ``Integral_Kernel_Functional``) with the brief's local derivative feature: the kernel sees the value and
    the central-difference slope at each node (the KdV Hamiltonian density :math:`-u^3 + u_x^2/2` needs the
    slope), so :math:`\kappa_\theta` is a small MLP :math:`\mathbb R^2\to\mathbb R` with tanh activations.

    Parameters
    ----------
    hidden : int, width of the kernel MLP
    layers : int, number of hidden layers
    kernel : optional callable ``(u, du) -> density`` replacing the MLP (for tests: a closed-form density)

    Forward: ``u`` of shape (B, N) and ``dx`` -> H of shape (B,).
    """

    def __init__(self, hidden: int = 32, layers: int = 2,
                 kernel: Callable[[Tensor, Tensor], Tensor] | None = None) -> None:
        super().__init__()
        if kernel is None:
            if hidden < 1 or layers < 1:
                raise ValueError(f"hidden and layers must be >= 1, got {hidden}, {layers}")
            self.net = _mlp(2, hidden, layers, nn.Tanh)
        self.kernel = kernel

    def density(self, u: Tensor, dx: float) -> Tensor:
        """Kernel values :math:`\\kappa_\\theta(u_i, (D_xu)_i)`, shape (B, N)."""
        du = central_diff(u, dx)
        if self.kernel is not None:
            return self.kernel(u, du)
        return self.net(torch.stack([u, du], -1)).squeeze(-1)

    def forward(self, u: Tensor, dx: float) -> Tensor:
        _check_field(u)
        return self.density(u, dx).sum(-1) * dx


def functional_derivative(H: Tensor, u: Tensor, dx: float, create_graph: bool = False) -> Tensor:
    r"""Discrete functional derivative :math:`\delta\mathcal H/\delta u_i = (\partial\mathcal H/\partial u_i)/\Delta x`
    by autograd (paper Sec. 3; official ``Neural_Functional.get_derivative``, Riemann rule).

    Parameters
    ----------
    H : Tensor, shape (B,), computed from ``u`` (which requires grad)
    u : Tensor, shape (B, N)
    dx : float > 0
    create_graph : keep the graph (to train through the derivative)

    Returns
    -------
    Tensor, shape (B, N)
    """
    _check_positive(dx, "dx")
    if not u.requires_grad:
        raise ValueError("u must require grad (H must be computed from it)")
    if H.ndim != 1 or H.shape[0] != u.shape[0]:
        raise ValueError(f"H must have shape (B,) = ({u.shape[0]},), got {tuple(H.shape)}")
    (g,) = torch.autograd.grad(H.sum(), u, create_graph=create_graph)
    return g / dx


def hns_rhs(H_model: Callable[[Tensor, float], Tensor], u: Tensor, dx: float, create_graph: bool = False,
            bracket: Callable[[Tensor, float], Tensor] = central_diff) -> Tensor:
    r"""Hamiltonian vector field :math:`u_t = D_x\,(\delta\mathcal H_\theta/\delta u)` (paper Eq. of the 1-D
    Poisson bracket; official ``Hamiltonian_Wrapper.poisson_bracket`` for ``kdv``/``advection``).

    With the skew central difference, the semi-discrete flow conserves :math:`\mathcal H_\theta` and the mass
    :math:`\sum_i u_i\Delta x` exactly.

    Parameters
    ----------
    H_model : callable ``(u, dx) -> H`` of shape (B,)
    u : Tensor, shape (B, N)
    dx : float > 0
    create_graph : keep the graph (for training)
    bracket : the discrete :math:`D_x` (``central_diff``; ``forward_diff`` for the ablation)

    Returns
    -------
    Tensor, shape (B, N)
    """
    _check_field(u)
    with torch.enable_grad():
        uu = u if u.requires_grad else u.detach().requires_grad_(True)
        g = functional_derivative(H_model(uu, dx), uu, dx, create_graph=create_graph)
    out = bracket(g, dx)
    return out if create_graph else out.detach()


class DirectCNN(nn.Module):
    r"""The "Newtonian" baseline: a periodic 1-D CNN that predicts :math:`u_t` from :math:`u` directly.

    ``depth`` circular convolutions of width ``kernel_size`` and ``channels`` channels with tanh between
    them (translation-equivariant like the HNS, but without its bracket structure).

    Forward: ``u`` of shape (B, N) (and ``dx``, ignored) -> :math:`u_t` of shape (B, N).
    """

    def __init__(self, channels: int = 16, depth: int = 3, kernel_size: int = 5) -> None:
        super().__init__()
        if channels < 1 or depth < 2 or kernel_size < 1 or kernel_size % 2 == 0:
            raise ValueError("need channels >= 1, depth >= 2 and an odd kernel_size")
        chans = [1] + [channels] * (depth - 1) + [1]
        layers: list[nn.Module] = []
        for i in range(depth):
            layers.append(nn.Conv1d(chans[i], chans[i + 1], kernel_size, padding=kernel_size // 2,
                                    padding_mode="circular"))
            if i < depth - 1:
                layers.append(nn.Tanh())
        self.net = nn.Sequential(*layers)

    def forward(self, u: Tensor, dx: float | None = None) -> Tensor:
        _check_field(u)
        return self.net(u.unsqueeze(-2)).squeeze(-2)


def rk4_step(rhs: Callable[[Tensor], Tensor], u: Tensor, dt: float) -> Tensor:
    r"""Classical fourth-order Runge–Kutta step :math:`u_{n+1} = u_n + \tfrac{dt}6(k_1+2k_2+2k_3+k_4)`.

    Parameters
    ----------
    rhs : callable ``u -> du/dt`` (same shape)
    u : Tensor
    dt : float > 0

    Returns
    -------
    Tensor, same shape as u
    """
    _check_positive(dt, "dt")
    k1 = rhs(u)
    k2 = rhs(u + 0.5 * dt * k1)
    k3 = rhs(u + 0.5 * dt * k2)
    k4 = rhs(u + dt * k3)
    return u + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def rollout(rhs: Callable[[Tensor], Tensor], u0: Tensor, dt: float, n_steps: int, save_every: int = 1,
            blowup: float = 1e6) -> Tensor:
    r"""Autoregressive rollout with :func:`rk4_step`; a state past ``blowup`` in absolute value (or NaN) is
    frozen as NaN from then on.

    Parameters
    ----------
    rhs : callable ``u -> du/dt``
    u0 : Tensor, shape (B, N)
    dt : float > 0
    n_steps : int >= 1, a multiple of ``save_every``
    save_every : int >= 1

    Returns
    -------
    Tensor, shape (n_steps / save_every + 1, B, N)
    """
    if not (isinstance(n_steps, int) and n_steps >= 1 and isinstance(save_every, int) and save_every >= 1
            and n_steps % save_every == 0):
        raise ValueError(f"need n_steps >= 1 a multiple of save_every >= 1, got {n_steps!r}, {save_every!r}")
    out = [u0]
    u = u0
    dead = torch.zeros(u0.shape[:-1], dtype=torch.bool)
    for s in range(1, n_steps + 1):
        u = rk4_step(rhs, u, dt)
        dead = dead | ~torch.isfinite(u).all(-1) | (u.abs().amax(-1) > blowup)
        u = torch.where(dead[..., None], torch.zeros_like(u), u)
        if s % save_every == 0:
            out.append(torch.where(dead[..., None], torch.full_like(u, float("nan")), u))
    return torch.stack(out)


def relative_l2(pred: Tensor, true: Tensor) -> Tensor:
    r"""Relative :math:`L^2` error :math:`\|p - t\|_2 / \|t\|_2` over the last axis; NaN predictions give
    ``inf``. Shape (...,)."""
    if pred.shape != true.shape:
        raise ValueError(f"pred and true must have the same shape, got {tuple(pred.shape)} and {tuple(true.shape)}")
    err = torch.linalg.vector_norm(pred - true, dim=-1) / torch.linalg.vector_norm(true, dim=-1)
    return torch.nan_to_num(err, nan=float("inf"))


def count_parameters(model: nn.Module) -> int:
    """Number of trainable parameters of a model."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


# ------------------------------------------------------------------ official-code settings and comparators


def smooth_diff(f: Tensor, dx: float) -> Tensor:
    r"""Periodic 11-point smooth noise-robust first difference (Holoborodko), the official ``first_derivative``
    with ``order=8`` (the KdV configuration's ``derivative_order: 8``, ``derivative_mode: smooth``):

    .. math:: (D^{s}f)_i = \frac{42\,\delta_1 + 48\,\delta_2 + 27\,\delta_3 + 8\,\delta_4 + \delta_5}{512\,\Delta x},
              \qquad \delta_k = f_{i+k} - f_{i-k}.

    Skew-symmetric like :func:`central_diff` (so a bracket built from it conserves mass and
    :math:`\mathcal H_\theta`), but despite its name it is exact only for polynomials up to degree 2: its
    truncation error is :math:`O(\Delta x^2)` (the "order 8" of the configuration is not its order of accuracy),
    and it damps high wavenumbers strongly.

    Parameters
    ----------
    f : Tensor, shape (..., N), N >= 11
    dx : float > 0

    Returns
    -------
    Tensor, shape (..., N)
    """
    _check_field(f, "f", 11)
    _check_positive(dx, "dx")
    out = torch.zeros_like(f)
    for k, w in zip(range(1, 6), (42.0, 48.0, 27.0, 8.0, 1.0)):
        out = out + w * (torch.roll(f, -k, -1) - torch.roll(f, k, -1))
    return out / (512 * dx)


def observed_order(diff: Callable[[Tensor, float], Tensor], L: float, ns: tuple[int, ...] = (32, 64, 128, 256),
                   mode: int = 3) -> list[float]:
    r"""Observed order of accuracy of a periodic first difference on :math:`\sin(2\pi m x/L)`:
    :math:`\log_2(e_{N}/e_{2N})` for successive doublings, :math:`e_N` the max-norm error against the exact
    derivative (float64).

    Parameters
    ----------
    diff : callable ``(f, dx) -> df`` on a periodic grid
    L : float > 0, period
    ns : grid sizes, each twice the previous
    mode : int >= 1, the wavenumber m

    Returns
    -------
    list of len(ns) - 1 floats
    """
    _check_positive(L, "L")
    if len(ns) < 2 or any(b != 2 * a for a, b in zip(ns, ns[1:])):
        raise ValueError(f"ns must be at least two grid sizes, each twice the previous, got {ns!r}")
    errs = []
    for n in ns:
        x = torch.arange(n, dtype=torch.float64) * (L / n)
        k = 2 * math.pi * mode / L
        errs.append(float((diff(torch.sin(k * x), L / n) - k * torch.cos(k * x)).abs().max()))
    return [math.log2(a / b) for a, b in zip(errs, errs[1:])]


def max_relative_error(diff: Callable[[Tensor, float], Tensor], L: float, n: int, mode: int) -> float:
    r"""Max-norm error of a periodic first difference on :math:`\sin(2\pi m x/L)` with :math:`N = n` nodes,
    relative to the amplitude :math:`2\pi m/L` of the exact derivative."""
    _check_positive(L, "L")
    x = torch.arange(n, dtype=torch.float64) * (L / n)
    k = 2 * math.pi * mode / L
    return float((diff(torch.sin(k * x), L / n) - k * torch.cos(k * x)).abs().max() / k)


def flux_rhs(net: Callable[[Tensor], Tensor], u: Tensor, dx: float,
             bracket: Callable[[Tensor, float], Tensor] = central_diff) -> Tensor:
    r"""The ablation "bracket without a functional": a network outputs the flux :math:`g_\theta(u)` (in place of
    :math:`\delta\mathcal H_\theta/\delta u`) and :math:`u_t = D_x\,g_\theta(u)`.

    The skew bracket still conserves the mass :math:`\sum_iu_i\Delta x`, but there is no energy: nothing makes
    :math:`g_\theta` a gradient, so no quadratic or learned invariant is kept.

    Parameters
    ----------
    net : callable ``u -> g`` of the same shape (e.g. :class:`DirectCNN`)
    u : Tensor, shape (B, N)
    dx : float > 0
    bracket : the discrete :math:`D_x`

    Returns
    -------
    Tensor, shape (B, N)
    """
    _check_field(u)
    return bracket(net(u), dx)


def ab2_rollout(rhs: Callable[[Tensor], Tensor], u0: Tensor, dt: float, n_steps: int, save_every: int = 1,
                blowup: float = 1e6) -> Tensor:
    r"""Autoregressive rollout with Adams–Bashforth 2, :math:`u_{n+1} = u_n + \tfrac{dt}2(3f_n - f_{n-1})`, the
    first step by forward Euler (the official rollout integrates :math:`u_t` with AB2). Blow-up handling and
    output as :func:`rollout`.

    Returns
    -------
    Tensor, shape (n_steps / save_every + 1, B, N)
    """
    _check_positive(dt, "dt")
    if not (isinstance(n_steps, int) and n_steps >= 1 and isinstance(save_every, int) and save_every >= 1
            and n_steps % save_every == 0):
        raise ValueError(f"need n_steps >= 1 a multiple of save_every >= 1, got {n_steps!r}, {save_every!r}")
    out = [u0]
    u = u0
    f_prev = None
    dead = torch.zeros(u0.shape[:-1], dtype=torch.bool)
    for s in range(1, n_steps + 1):
        f = rhs(u)
        u = u + dt * f if f_prev is None else u + 0.5 * dt * (3 * f - f_prev)
        f_prev = f
        dead = dead | ~torch.isfinite(u).all(-1) | (u.abs().amax(-1) > blowup)
        u = torch.where(dead[..., None], torch.zeros_like(u), u)
        f_prev = torch.where(dead[..., None], torch.zeros_like(f_prev), f_prev)
        if s % save_every == 0:
            out.append(torch.where(dead[..., None], torch.full_like(u, float("nan")), u))
    return torch.stack(out)


def viscous_bracket(g: Tensor, u: Tensor, dx: float, nu: float,
                    bracket: Callable[[Tensor, float], Tensor] = central_diff) -> Tensor:
    r"""A stable bracket that is not skew: :math:`u_t = D_x g + \nu\,D_{xx} u` (central bracket plus diffusion).

    The ablation "the same learned energy, a non-conservative but stable bracket": the diffusion term keeps
    :math:`\sum_i u_i\Delta x` (mass) but dissipates :math:`\sum_i u_i^2` and breaks the conservation of
    :math:`\mathcal H_\theta`. With :math:`\nu = \Delta x/2` and :math:`g = -a u` it is first-order upwinding
    at speed :math:`a = 1` (:math:`D^-` applied to :math:`-u`), which is stable where the downwind :math:`D^+` is not.

    Parameters
    ----------
    g : Tensor, shape (..., N), the functional derivative (or flux)
    u : Tensor, shape (..., N), the field
    dx : float > 0
    nu : float >= 0, the diffusion coefficient
    bracket : the skew part (default: the central difference)

    Returns
    -------
    Tensor, shape (..., N)
    """
    _check_positive(dx, "dx")
    if nu < 0:
        raise ValueError(f"nu must be >= 0, got {nu}")
    if g.shape != u.shape:
        raise ValueError(f"g and u must have the same shape, got {tuple(g.shape)} and {tuple(u.shape)}")
    return bracket(g, dx) + nu * second_diff(u, dx)


def derivative_reach(H_model: Callable[[Tensor, float], Tensor], u: Tensor, dx: float, node: int = 0,
                     eps: float = 1e-3, rtol: float = 1e-9) -> int:
    r"""Receptive field of :math:`\delta\mathcal H/\delta u`: perturb one node and count how far the change reaches.

    Returns the largest periodic distance :math:`|i - \text{node}|` at which
    :math:`\delta\mathcal H/\delta u_i` moves by more than ``rtol`` times the largest change.

    Parameters
    ----------
    H_model : maps (u of shape (B, N), dx) to H of shape (B,)
    u : Tensor, shape (N,), the field to perturb
    dx : float > 0
    node : index of the perturbed node
    eps : size of the perturbation
    rtol : relative threshold of a change

    Returns
    -------
    int, between 0 and N // 2
    """
    _check_field(u, "u")
    n = u.shape[-1]
    if u.ndim != 1 or not 0 <= node < n:
        raise ValueError("u must have shape (N,) and 0 <= node < N")
    uu = torch.stack([u, u + eps * (torch.arange(n) == node).to(u.dtype)]).detach().requires_grad_(True)
    with torch.enable_grad():
        g = functional_derivative(H_model(uu, dx), uu, dx)
    d = (g[1] - g[0]).abs().detach()
    dist = torch.minimum((torch.arange(n) - node) % n, (node - torch.arange(n)) % n)
    moved = d > rtol * d.max()
    return int(dist[moved].max()) if moved.any() else 0
