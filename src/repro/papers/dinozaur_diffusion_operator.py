r"""DINOZAUR: a diffusion (heat-kernel) multiplier in place of the dense spectral multiplier of an FNO.

Paper map
---------
*Light-Weight Diffusion Multiplier and Uncertainty Quantification for Fourier Neural Operators*,
Albert Matveev, Sanmitra Ghosh, Aamal Hussain, James-Michael Leahy, Michalis Michaelides, NeurIPS 2025
(arXiv 2508.00643; official code: github.com/PhysicsXLtd/DINOZAUR, read at commit ``8ce47fd``).
Notebook: ``notebooks/dinozaur-diffusion-operator.py``.

Notation (paper -> here):

- :math:`\hat v_{k,c}` the Fourier coefficient of channel :math:`c` at wavenumber :math:`k` -> ``x_hat[..., k, c]``
  (``torch.fft.rfft`` with ``norm="forward"``, channels last, as in the official ``FourierConvolution``).
- :math:`\lambda_k = (2\pi k / L)^2`, the Laplacian eigenvalues of a periodic box of length :math:`L`
  -> :func:`laplacian_eigenvalues_1d` (``L`` = ``length``).
- :math:`\tau_c \ge 10^{-8}`, one diffusion time per channel -> ``DiffusionMultiplier.diffusion_time``.
- the diffusion multiplier :math:`\hat v_{k,c} \mapsto e^{-\lambda_k \tau_c}\hat v_{k,c}` (the heat semigroup
  :math:`e^{\tau\Delta}`) -> :func:`diffusion_multiplier` (a whole signal on :math:`[0,1)`) and
  :class:`DiffusionMultiplier` (a truncated spectrum inside a layer).
- the FNO multiplier :math:`R \in \mathbb C^{K \times C_{in} \times C_{out}}` -> :class:`TensorMultiplier`.
- gradient features :math:`G_\theta = \tanh\big(\sum_d (W\,\partial_d v)\odot \partial_d v\big)` -> the
  ``gradient_features`` switch of :class:`FourierLayer1d` (official ``_compute_gradient_features``).
- prior :math:`\tau_c \sim \mathrm{LogNormal}(\log 0.01, 1)` and variational posterior
  :math:`q(\tau) = \exp_\#\,\mathcal N(\mu, LL^\top)` -> :class:`BayesianDiffusionMultiplier`; its single-sample
  KL estimate :math:`\log q(\tau) - \log p(\tau)` -> ``.kl``.
- learned homoscedastic noise :math:`\sigma^2 = e^{s}` -> ``NeuralOperator1d.log_noise_var`` (official
  ``BayesianDINOZAURd.variance``, initialised at :math:`s=-3`).

Data: 1-D Darcy flow :math:`-(a u')' = f` on :math:`[0,1]`, :math:`u(0)=u(1)=0` (:func:`darcy1d_solve`, checked
against the exact quadrature solution :func:`darcy1d_exact`), with log-normal coefficients
(:func:`sample_lognormal_grf`). Metrics: :func:`relative_l2`, :func:`gaussian_nll`, :func:`interval_coverage`,
:func:`miscalibration_area`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import torch
import torch.distributions as dist
from torch import nn

KINDS: tuple[str, ...] = ("fno", "dinozaur", "bayesian", "pointwise")
TAU_MIN = 1e-8  # the official clamp of the diffusion times


# --------------------------------------------------------------------------- the heat semigroup
def laplacian_eigenvalues_1d(n_modes: int, length: float = 1.0) -> torch.Tensor:
    r"""Eigenvalues :math:`\lambda_k = (2\pi k/L)^2`, :math:`k = 0..n_{modes}-1`, of :math:`-\partial_x^2` on a
    periodic interval of length :math:`L` (the official ``FourierConvolution`` wavenumbers squared).

    Parameters
    ----------
    n_modes : int
        Number of non-negative wavenumbers (rfft coefficients) kept.
    length : float
        Period :math:`L` (the official ``extent``).

    Returns
    -------
    torch.Tensor, shape (n_modes,), float64
    """
    if isinstance(n_modes, bool) or not isinstance(n_modes, (int, np.integer)) or n_modes < 1:
        raise ValueError(f"n_modes must be an int >= 1; got {n_modes!r}")
    if not (isinstance(length, (int, float)) and math.isfinite(length) and length > 0):
        raise ValueError(f"length must be a positive finite number; got {length!r}")
    k = torch.arange(int(n_modes), dtype=torch.float64)
    return (2 * math.pi * k / float(length)) ** 2


def diffusion_multiplier(u: torch.Tensor | np.ndarray, tau: float | torch.Tensor | np.ndarray) -> torch.Tensor:
    r"""The heat semigroup :math:`e^{\tau\partial_x^2}` on a periodic signal sampled on :math:`[0,1)`.

    Multiplies the Fourier mode :math:`k` of ``u`` by :math:`e^{-\tau (2\pi k)^2}` (the DINOZAUR diffusion
    multiplier with every mode kept, extent 1). A sine :math:`\sin 2\pi k x` decays by exactly that factor, and
    the maps compose as a semigroup, :math:`e^{\tau_1\partial_x^2} e^{\tau_2\partial_x^2} = e^{(\tau_1+\tau_2)\partial_x^2}`.

    Parameters
    ----------
    u : tensor or array, shape (..., n)
        Real samples at :math:`x_j = j/n`, :math:`j=0..n-1`; the last axis is space.
    tau : float or tensor, shape broadcastable to ``u.shape[:-1]``
        Diffusion times :math:`\tau \ge 0` (one per leading index, e.g. per channel).

    Returns
    -------
    torch.Tensor, shape (..., n), the dtype of ``u`` (float64 for a numpy input).
    """
    u = torch.as_tensor(u)
    if u.ndim < 1 or u.shape[-1] < 2:
        raise ValueError(f"u must have a last (spatial) axis of length >= 2; got shape {tuple(u.shape)}")
    if u.is_complex() or not u.is_floating_point():
        raise ValueError(f"u must be a real floating tensor; got {u.dtype}")
    t = torch.as_tensor(tau, dtype=u.dtype)
    if not torch.all(torch.isfinite(t)) or torch.any(t < 0):
        raise ValueError("tau must be finite and >= 0 (a negative time is the ill-posed backward heat equation)")
    try:
        t = torch.broadcast_to(t, u.shape[:-1])
    except RuntimeError as e:
        raise ValueError(f"tau of shape {tuple(t.shape)} does not broadcast to u.shape[:-1] = {tuple(u.shape[:-1])}") from e
    n = u.shape[-1]
    lam = laplacian_eigenvalues_1d(n // 2 + 1, 1.0).to(u.dtype)
    return torch.fft.irfft(torch.exp(-t[..., None] * lam) * torch.fft.rfft(u), n=n)


# --------------------------------------------------------------------------- spectral multipliers
class DiffusionMultiplier(nn.Module):
    r"""Diffusion multiplier :math:`\hat x_{k,c} \mapsto e^{-\lambda_k\tau_c}\hat x_{k,c}` (paper's DINOZAUR layer;
    official ``DiffusionMultiplier``): ``channels`` learnable times, initialised at 0 and clamped to
    :math:`\ge 10^{-8}` before each forward pass, as in the official code.

    ``forward(x_hat, eigvals)``: ``x_hat`` complex, shape (B, K, C); ``eigvals`` shape (K,). Returns (B, K, C).
    """

    def __init__(self, channels: int):
        super().__init__()
        _check_int(channels, "channels")
        self.channels = int(channels)
        self.diffusion_time = nn.Parameter(torch.zeros(self.channels))

    def times(self) -> torch.Tensor:
        """The diffusion times used by the next forward pass, shape (C,)."""
        with torch.no_grad():
            self.diffusion_time.data.clamp_(min=TAU_MIN)
        return self.diffusion_time

    def forward(self, x_hat: torch.Tensor, eigvals: torch.Tensor) -> torch.Tensor:
        _check_spectrum(x_hat, eigvals, self.channels)
        return torch.exp(-eigvals[:, None].to(x_hat.real.dtype) * self.times()) * x_hat


class BayesianDiffusionMultiplier(nn.Module):
    r"""Bayesian diffusion multiplier (official ``BayesianDiffusionMultiplier``, ``full_rank=True``).

    Prior :math:`\tau_c \sim \mathrm{LogNormal}(\log m_0, s_0)` i.i.d.; posterior
    :math:`q = \exp_\#\mathcal N(\mu, L L^\top)` with :math:`L` = ``LowerCholeskyTransform``
    :math:`(\mathrm{diag}(s)\,T)` (mean ``init_mean``, ``s`` and ``T`` filled with ``init_scale``). Each forward
    pass draws one :math:`\tau \sim q` by ``rsample``, clamps it to :math:`\ge 10^{-8}`, multiplies as
    :class:`DiffusionMultiplier` and stores the single-sample KL estimate
    :math:`\log q(\tau) - \log p(\tau)` in ``self.kl`` (a scalar tensor).

    ``forward(x_hat, eigvals)``: ``x_hat`` complex (B, K, C), ``eigvals`` (K,). Returns (B, K, C).
    """

    def __init__(self, channels: int, prior_mean: float = 0.01, prior_scale: float = 1.0,
                 init_mean: float = -5.0, init_scale: float = 0.5):
        super().__init__()
        _check_int(channels, "channels")
        if not (prior_mean > 0 and prior_scale > 0 and init_scale > 0):
            raise ValueError("prior_mean, prior_scale and init_scale must be > 0")
        self.channels = int(channels)
        self.posterior_mean = nn.Parameter(torch.full((self.channels,), float(init_mean)))
        self.posterior_scale = nn.Parameter(torch.full((self.channels,), float(init_scale)))
        self.posterior_tril = nn.Parameter(torch.full((self.channels, self.channels), float(init_scale)))
        self.prior_loc, self.prior_scale = math.log(prior_mean), float(prior_scale)
        self.kl = torch.zeros(())
        self.fixed_tau: torch.Tensor | None = None  # set to bypass sampling (e.g. the posterior median)

    def posterior(self) -> dist.Distribution:
        """The variational posterior :math:`q(\\tau)` over the (C,) times."""
        tril = dist.transforms.LowerCholeskyTransform()(self.posterior_scale[:, None] * self.posterior_tril)
        base = dist.MultivariateNormal(self.posterior_mean, scale_tril=tril)
        return dist.TransformedDistribution(base, [dist.transforms.ExpTransform()])

    def kl_estimate(self, tau: torch.Tensor) -> torch.Tensor:
        r"""Single-sample KL estimate :math:`\log q(\tau) - \sum_c \log p(\tau_c)` at ``tau`` (shape (C,))."""
        return self.posterior().log_prob(tau) - self.prior().log_prob(tau).sum(-1)

    def prior(self) -> dist.Distribution:
        """The prior :math:`\\mathrm{LogNormal}(\\log m_0, s_0)` of each time."""
        dt = self.posterior_mean.dtype
        return dist.LogNormal(torch.tensor(self.prior_loc, dtype=dt), torch.tensor(self.prior_scale, dtype=dt))

    def forward(self, x_hat: torch.Tensor, eigvals: torch.Tensor) -> torch.Tensor:
        _check_spectrum(x_hat, eigvals, self.channels)
        if self.fixed_tau is not None:
            tau = self.fixed_tau.to(x_hat.real.dtype)
        else:
            q = self.posterior()
            tau = q.rsample()
            with torch.no_grad():
                tau.data.clamp_(min=TAU_MIN)
            self.kl = q.log_prob(tau) - self.prior().log_prob(tau).sum(-1)
        return torch.exp(-eigvals[:, None].to(x_hat.real.dtype) * tau) * x_hat


class TensorMultiplier(nn.Module):
    r"""The FNO's dense multiplier :math:`\hat y_{k,o} = \sum_i \hat x_{k,i} R_{k,i,o}` (official dense
    ``TensorMultiplier``): :math:`R` complex of shape (K, C_in, C_out), entries
    :math:`\mathcal{CN}`-drawn with standard deviation :math:`\sqrt{2/(C_{in}+C_{out})}` as in the official code.

    ``forward(x_hat, eigvals=None)``: ``x_hat`` complex (B, K, C_in). Returns (B, K, C_out).
    """

    def __init__(self, c_in: int, c_out: int, n_modes: int):
        super().__init__()
        for v, name in ((c_in, "c_in"), (c_out, "c_out"), (n_modes, "n_modes")):
            _check_int(v, name)
        sd = (2 / (c_in + c_out)) ** 0.5
        self.channels = int(c_in)
        self.weight = nn.Parameter(torch.randn(n_modes, c_in, c_out, dtype=torch.cfloat) * sd)

    def forward(self, x_hat: torch.Tensor, eigvals: torch.Tensor | None = None) -> torch.Tensor:
        if x_hat.ndim != 3 or x_hat.shape[1:] != self.weight.shape[:2]:
            raise ValueError(f"x_hat must have shape (B, {self.weight.shape[0]}, {self.weight.shape[1]}); "
                             f"got {tuple(x_hat.shape)}")
        return torch.einsum("bki,kio->bko", x_hat, self.weight.to(x_hat.dtype))


def _check_int(v: object, name: str, least: int = 1) -> None:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < least:
        raise ValueError(f"{name} must be an int >= {least}; got {v!r}")


def _check_spectrum(x_hat: torch.Tensor, eigvals: torch.Tensor, channels: int) -> None:
    if x_hat.ndim != 3 or x_hat.shape[-1] != channels:
        raise ValueError(f"x_hat must have shape (B, K, {channels}); got {tuple(x_hat.shape)}")
    if eigvals.shape != (x_hat.shape[1],):
        raise ValueError(f"eigvals must have shape ({x_hat.shape[1]},); got {tuple(eigvals.shape)}")


# --------------------------------------------------------------------------- layers and networks
def _mlp(c_in: int, c_out: int, hidden: Sequence[int], bias: bool = True, dropout: float = 0.0) -> nn.Sequential:
    """Official ``MLP``: Linear layers with GELU (and dropout) between them, none after the last."""
    ch = [c_in, *hidden, c_out]
    layers: list[nn.Module] = []
    for i in range(len(ch) - 1):
        layers.append(nn.Linear(ch[i], ch[i + 1], bias=bias))
        if i < len(ch) - 2:
            layers.append(nn.GELU())
            if dropout > 0:
                layers.append(nn.Dropout(dropout))
    return nn.Sequential(*layers)


class FourierLayer1d(nn.Module):
    r"""Uniform-grid spectral convolution :math:`v \mapsto \mathcal F^{-1}[M(\mathcal F v)]` on the first
    :math:`K` = ``modes // 2 + 1`` rfft coefficients (official ``FourierConvolution`` in 1-D), with an optional
    gradient-feature branch: :math:`g = \mathcal F^{-1}[i (2\pi k/L) M(\mathcal F v)]`, output
    :math:`[\,\mathcal F^{-1}M\mathcal F v,\ \tanh((W g)\odot g)\,]` (2C channels).

    ``forward(x)``: ``x`` real, shape (B, n, C) (channels last), returns (B, n, C) or (B, n, 2C).
    """

    def __init__(self, multiplier: nn.Module, modes: int, length: float, gradient_features: bool = False):
        super().__init__()
        _check_int(modes, "modes", 2)
        self.multiplier = multiplier
        self.n_modes = int(modes) // 2 + 1
        self.length = float(length)
        self.gradient_features = bool(gradient_features)
        c = multiplier.channels
        self.out_channels = 2 * c if gradient_features else c
        self.register_buffer("eigvals", laplacian_eigenvalues_1d(self.n_modes, self.length), persistent=False)
        if gradient_features:
            self.grad_weight = nn.Linear(c, c, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = x.shape[1]
        if n // 2 + 1 < self.n_modes:
            raise ValueError(f"grid of {n} points has fewer than {self.n_modes} rfft coefficients")
        spec = torch.fft.rfft(x, dim=1, norm="forward")
        K = self.n_modes
        lam = self.eigvals.to(x.dtype)
        out = torch.zeros_like(spec)
        out[:, :K] = self.multiplier(spec[:, :K], lam)
        y = torch.fft.irfft(out, n=n, dim=1, norm="forward")
        if not self.gradient_features:
            return y
        k = (2 * math.pi / self.length) * torch.arange(spec.shape[1], dtype=x.dtype, device=x.device)
        g = torch.fft.irfft(out * k[None, :, None] * 1j, n=n, dim=1, norm="forward")  # keep the dtype of out
        return torch.cat([y, torch.tanh(self.grad_weight(g) * g)], dim=-1)


class DoubleSkipBlock1d(nn.Module):
    r"""Official ``DoubleSkipBlock``: :math:`h = \mathrm{GELU}(\mathrm{LN}(\mathcal K v) + W_1 v)`,
    :math:`v' = \mathrm{GELU}(\mathrm{LN}(\mathrm{MLP}(h) + W_2 v))`. ``spectral=None`` drops :math:`\mathcal K`
    (the pointwise control). ``forward(x)``: (B, n, C) -> (B, n, C).
    """

    def __init__(self, width: int, spectral: FourierLayer1d | None, dropout: float = 0.0):
        super().__init__()
        self.spectral = spectral
        c_mid = spectral.out_channels if spectral is not None else width
        self.norm0 = nn.LayerNorm(c_mid) if spectral is not None else None
        self.w1 = nn.Linear(width, c_mid, bias=False)
        self.w2 = nn.Linear(width, width, bias=False)
        self.mlp = _mlp(c_mid, width, [max(1, round(width * 0.5))], dropout=dropout)
        self.norm1 = nn.LayerNorm(width)
        self.act = nn.GELU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.w1(x)
        if self.spectral is not None:
            h = h + self.norm0(self.spectral(x))
        h = self.mlp(self.act(h)) + self.w2(x)
        return self.act(self.norm1(h))


class NeuralOperator1d(nn.Module):
    r"""The official ``FNO`` / ``DINOZAUR`` architecture in 1-D: lifting MLP (C_in -> 2W -> W), one-sided zero
    padding of ``padding`` times the grid, ``n_blocks`` :class:`DoubleSkipBlock1d`, unpadding, projection MLP
    (W -> 2W -> C_out).

    ``kind``: ``"fno"`` (:class:`TensorMultiplier`), ``"dinozaur"`` (:class:`DiffusionMultiplier` + gradient
    features), ``"bayesian"`` (:class:`BayesianDiffusionMultiplier` + gradient features + a learned
    homoscedastic log-variance ``log_noise_var``), ``"pointwise"`` (no spectral operator: the control).
    ``forward(x)``: (B, n, C_in) -> (B, n, C_out). The grid spacing is ``1 / (n - 1)`` on [0, 1].

    ``length``: the period :math:`L` of the Laplacian eigenvalues and of the gradient wavenumbers (official
    ``extent``); ``None`` (default) is the padded grid's physical length :math:`(n+p)/(n-1)`, the official
    default is :math:`2\pi`. ``tau_init``: DINOZAUR's initial diffusion times, (width,) shared by every block
    (default: the official :math:`10^{-8}` after the clamp). ``learn_tau=False`` freezes the times at their
    initial value (default :math:`10^{-8}`: a plain low-pass truncation of the kept modes; with
    ``tau_init=prior_quantile_times(width)``: a fixed, untrained bank of filters; ablations). ``learn_noise``: give
    the model a learned homoscedastic log-variance (default: only ``"bayesian"``); a model with one is trained on
    the Gaussian likelihood (:func:`gaussian_elbo`) by :func:`train_operator`.
    """

    def __init__(self, kind: str, c_in: int = 2, c_out: int = 1, width: int = 32, modes: int = 16,
                 n_blocks: int = 4, padding: float = 0.125, n_grid: int = 128, gradient_features: bool | None = None,
                 dropout: float = 0.0, length: float | None = None, learn_tau: bool = True,
                 learn_noise: bool | None = None, tau_init: Sequence[float] | np.ndarray | None = None):
        super().__init__()
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}; got {kind!r}")
        for v, name in ((c_in, "c_in"), (c_out, "c_out"), (width, "width"), (n_blocks, "n_blocks"), (n_grid, "n_grid")):
            _check_int(v, name)
        if not 0 <= padding < 1:
            raise ValueError(f"padding must be in [0, 1); got {padding!r}")
        self.kind = kind
        self.pad = round(padding * n_grid)
        if length is None:
            length = (n_grid + self.pad) / (n_grid - 1)  # period of the padded grid, in units of the domain [0, 1]
        elif not (isinstance(length, (int, float)) and math.isfinite(length) and length > 0):
            raise ValueError(f"length must be a positive finite number or None; got {length!r}")
        self.length = float(length)
        gf = kind in ("dinozaur", "bayesian") if gradient_features is None else bool(gradient_features)
        self.lifting = _mlp(c_in, width, [2 * width])

        def spectral() -> FourierLayer1d | None:
            if kind == "pointwise":
                return None
            mult = {"fno": lambda: TensorMultiplier(width, width, modes // 2 + 1),
                    "dinozaur": lambda: DiffusionMultiplier(width),
                    "bayesian": lambda: BayesianDiffusionMultiplier(width)}[kind]()
            return FourierLayer1d(mult, modes, length, gradient_features=gf)

        self.blocks = nn.ModuleList([DoubleSkipBlock1d(width, spectral(), dropout) for _ in range(n_blocks)])
        if tau_init is not None:
            if kind != "dinozaur":
                raise ValueError("tau_init (initial diffusion times) is for kind='dinozaur'")
            t = torch.as_tensor(np.asarray(tau_init, dtype=np.float64), dtype=torch.float32)
            if t.shape != (width,) or not bool(torch.all(torch.isfinite(t))) or bool(torch.any(t < TAU_MIN)):
                raise ValueError(f"tau_init must be {width} finite times >= {TAU_MIN}; got shape {tuple(t.shape)}")
            with torch.no_grad():  # no random draw: the initialisation of every other weight is unchanged
                for b in self.blocks:
                    b.spectral.multiplier.diffusion_time.copy_(t)
        if not learn_tau:
            if kind != "dinozaur":
                raise ValueError("learn_tau=False (diffusion times frozen at their initial value) is for kind='dinozaur'")
            for b in self.blocks:
                b.spectral.multiplier.diffusion_time.requires_grad_(False)
        self.projection = _mlp(width, c_out, [2 * width])
        noise = kind == "bayesian" if learn_noise is None else bool(learn_noise)
        self.log_noise_var = nn.Parameter(torch.tensor(-3.0)) if noise else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.lifting(x)
        n = h.shape[1]
        if self.pad:
            h = torch.nn.functional.pad(h, (0, 0, 0, self.pad))
        for b in self.blocks:
            h = b(h)
        return self.projection(h[:, :n])

    def kl(self) -> torch.Tensor:
        """Sum of the Bayesian multipliers' KL estimates from the last forward pass (0 for other kinds)."""
        terms = [b.spectral.multiplier.kl for b in self.blocks
                 if b.spectral is not None and isinstance(b.spectral.multiplier, BayesianDiffusionMultiplier)]
        return torch.stack(terms).sum() if terms else torch.zeros(())


def prior_quantile_times(channels: int, prior_mean: float = 0.01, prior_scale: float = 1.0) -> np.ndarray:
    r"""A fixed bank of diffusion times: the quantiles of the official prior
    :math:`\mathrm{LogNormal}(\log m_0, s_0)` at the levels :math:`(i+\tfrac12)/C`, :math:`i = 0..C-1`,
    i.e. :math:`m_0\,e^{s_0\,\Phi^{-1}((i+1/2)/C)}`, increasing. Shape (C,). Fixed before any training run."""
    from scipy.stats import norm

    _check_int(channels, "channels")
    if not (prior_mean > 0 and prior_scale > 0):
        raise ValueError("prior_mean and prior_scale must be > 0")
    return prior_mean * np.exp(prior_scale * norm.ppf((np.arange(channels) + 0.5) / channels))


class RidgeMap:
    r"""A linear map from a discretised input field to the solution field, fitted by ridge regression: features
    standardised with the training mean and standard deviation, :math:`W = (A^\top A + \alpha I)^{-1}
    A^\top (Y - \bar Y)`, prediction :math:`\tilde F W + \bar Y`. A naive, non-neural baseline; ``alpha`` is fixed
    by the caller. ``n_params``: the entries of :math:`W` and :math:`\bar Y`.

    ``fit(F, Y)``: F shape (N, n_in), Y shape (N, n_out); ``predict(F)`` -> (M, n_out).
    """

    def __init__(self, alpha: float = 1.0):
        if not (isinstance(alpha, (int, float)) and math.isfinite(alpha) and alpha > 0):
            raise ValueError(f"alpha must be a positive finite number; got {alpha!r}")
        self.alpha = float(alpha)
        self.W: np.ndarray | None = None

    def fit(self, F: np.ndarray, Y: np.ndarray) -> "RidgeMap":
        F, Y = np.asarray(F, dtype=np.float64), np.asarray(Y, dtype=np.float64)
        if F.ndim != 2 or Y.ndim != 2 or F.shape[0] != Y.shape[0] or F.shape[0] < 2:
            raise ValueError(f"F and Y must be (N, n_in) and (N, n_out) with N >= 2; got {F.shape} and {Y.shape}")
        if not (np.all(np.isfinite(F)) and np.all(np.isfinite(Y))):
            raise ValueError("F and Y must be finite")
        self.f_mean, self.f_std = F.mean(0), F.std(0) + 1e-12
        self.y_mean = Y.mean(0)
        A = (F - self.f_mean) / self.f_std
        self.W = np.linalg.solve(A.T @ A + self.alpha * np.eye(A.shape[1]), A.T @ (Y - self.y_mean))
        return self

    def predict(self, F: np.ndarray) -> np.ndarray:
        if self.W is None:
            raise RuntimeError("fit the map first")
        F = np.asarray(F, dtype=np.float64)
        if F.ndim != 2 or F.shape[1] != self.W.shape[0]:
            raise ValueError(f"F must be (M, {self.W.shape[0]}); got {F.shape}")
        return (F - self.f_mean) / self.f_std @ self.W + self.y_mean

    @property
    def n_params(self) -> int:
        if self.W is None:
            raise RuntimeError("fit the map first")
        return int(self.W.size + self.y_mean.size)


def FNO1d(**kw) -> NeuralOperator1d:
    """FNO baseline (official ``FNO``, dense multiplier, no gradient features); see :class:`NeuralOperator1d`."""
    return NeuralOperator1d("fno", **kw)


def Dinozaur1d(**kw) -> NeuralOperator1d:
    """DINOZAUR (official ``DINOZAUR`` with ``include_gradient_features=True``); see :class:`NeuralOperator1d`."""
    return NeuralOperator1d("dinozaur", **kw)


def parameter_count(model: nn.Module) -> int:
    """Number of real parameters (a complex entry counts 2, as its real and imaginary parts)."""
    return int(sum(p.numel() * (2 if p.is_complex() else 1) for p in model.parameters()))


def multiplier_parameter_count(kind: str, width: int, modes: Sequence[int]) -> int:
    r"""Closed-form parameter count of one spectral multiplier (real numbers).

    FNO: :math:`2\,C^2\prod_{i<d} m_i\,(m_d/\!/2+1)` (a complex :math:`C\times C` matrix per kept mode, the
    last axis halved as in the official code). DINOZAUR: :math:`C` (one time per channel), whatever the modes or
    the dimension. Bayesian DINOZAUR: :math:`2C + C^2` (mean, scale, Cholesky factor).
    """
    _check_int(width, "width")
    modes = list(modes)
    if not modes or any(isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 2 for m in modes):
        raise ValueError(f"modes must be a non-empty list of ints >= 2; got {modes!r}")
    if kind == "fno":
        kept = math.prod(modes[:-1]) * (modes[-1] // 2 + 1)
        return 2 * width * width * kept
    if kind == "dinozaur":
        return width
    if kind == "bayesian":
        return 2 * width + width * width
    raise ValueError(f"kind must be 'fno', 'dinozaur' or 'bayesian'; got {kind!r}")


# --------------------------------------------------------------------------- data: 1-D Darcy flow
def sample_lognormal_grf(n_samples: int, n_grid: int, lengthscale: float, rng: np.random.Generator,
                         variance: float = 1.0) -> np.ndarray:
    r"""Log-normal coefficients :math:`a = e^{g}`, :math:`g` a centred Gaussian field on the grid
    :math:`x_j = j/(n-1)` with squared-exponential covariance :math:`\sigma^2 e^{-(x-y)^2/(2\ell^2)}`.

    Returns
    -------
    np.ndarray, shape (n_samples, n_grid), positive.
    """
    _check_int(n_samples, "n_samples")
    _check_int(n_grid, "n_grid", 2)
    if not (lengthscale > 0 and variance > 0):
        raise ValueError("lengthscale and variance must be > 0")
    x = np.linspace(0.0, 1.0, n_grid)
    C = variance * np.exp(-((x[:, None] - x[None, :]) ** 2) / (2 * lengthscale**2))
    w, V = np.linalg.eigh(C)
    root = V * np.sqrt(np.clip(w, 0.0, None))
    return np.exp(rng.standard_normal((n_samples, n_grid)) @ root.T)


def darcy1d_solve(a: np.ndarray, f: float | np.ndarray = 1.0) -> np.ndarray:
    r"""Finite-volume solution of :math:`-(a u')' = f` on :math:`[0,1]`, :math:`u(0)=u(1)=0`.

    Nodes :math:`x_j = j/(n-1)`; face conductivities are harmonic means of the nodal :math:`a`; the
    tridiagonal systems of the whole batch are solved at once (Thomas algorithm vectorised over samples).

    Parameters
    ----------
    a : array, shape (B, n) or (n,)
        Positive nodal coefficients, n >= 3.
    f : float or array broadcastable to ``a``
        Source.

    Returns
    -------
    np.ndarray, the shape of ``a``, zero at both ends.
    """
    a = np.asarray(a, dtype=np.float64)
    squeeze = a.ndim == 1
    a = np.atleast_2d(a)
    if a.ndim != 2 or a.shape[1] < 3:
        raise ValueError(f"a must have shape (B, n) with n >= 3; got {a.shape}")
    if not np.all(np.isfinite(a)) or np.any(a <= 0):
        raise ValueError("a must be finite and > 0")
    n = a.shape[1]
    h = 1.0 / (n - 1)
    fa = np.broadcast_to(np.asarray(f, dtype=np.float64), a.shape)
    af = 2 * a[:, :-1] * a[:, 1:] / (a[:, :-1] + a[:, 1:])      # (B, n-1) face values
    diag = (af[:, :-1] + af[:, 1:]) / h**2                       # (B, n-2) interior rows
    off = -af[:, 1:-1] / h**2                                    # (B, n-3) couplings
    rhs = fa[:, 1:-1].copy()
    m = n - 2
    c = np.zeros((a.shape[0], m))
    d = np.zeros((a.shape[0], m))
    c[:, 0] = (off[:, 0] / diag[:, 0]) if m > 1 else 0.0
    d[:, 0] = rhs[:, 0] / diag[:, 0]
    for i in range(1, m):  # loop over the grid, vectorised over samples
        lo = off[:, i - 1]
        den = diag[:, i] - lo * c[:, i - 1]
        if i < m - 1:
            c[:, i] = off[:, i] / den
        d[:, i] = (rhs[:, i] - lo * d[:, i - 1]) / den
    u = np.zeros_like(a)
    u[:, m] = d[:, m - 1]
    for i in range(m - 2, -1, -1):
        u[:, i + 1] = d[:, i] - c[:, i] * u[:, i + 2]
    return u[0] if squeeze else u


def darcy1d_exact(x: np.ndarray, inv_a: np.ndarray, f: float = 1.0) -> np.ndarray:
    r"""Exact solution of :math:`-(a u')' = f` (constant :math:`f`), :math:`u(0)=u(1)=0`, by quadrature:
    :math:`a u' = f(c - x)`, :math:`u(x) = f\int_0^x (c-s)/a(s)\,ds`, :math:`c = \int_0^1 s/a / \int_0^1 1/a`.

    Parameters
    ----------
    x : array, shape (m,)
        Increasing fine grid from 0 to 1 (trapezoid quadrature on it).
    inv_a : array, shape (..., m)
        :math:`1/a` on that grid.

    Returns
    -------
    np.ndarray, shape (..., m)
    """
    from scipy.integrate import cumulative_trapezoid

    x = np.asarray(x, dtype=np.float64)
    inv_a = np.asarray(inv_a, dtype=np.float64)
    if x.ndim != 1 or x.size < 3 or inv_a.shape[-1] != x.size or abs(x[0]) > 0 or abs(x[-1] - 1) > 1e-12:
        raise ValueError("x must be a 1-D grid from 0 to 1 and inv_a must end with its length")
    I0 = cumulative_trapezoid(inv_a, x, initial=0.0, axis=-1)
    I1 = cumulative_trapezoid(x * inv_a, x, initial=0.0, axis=-1)
    c = I1[..., -1:] / I0[..., -1:]
    return f * (c * I0 - I1)


# --------------------------------------------------------------------------- metrics
def relative_l2(pred: torch.Tensor | np.ndarray, y: torch.Tensor | np.ndarray) -> np.ndarray:
    r"""Per-sample relative error :math:`\|\hat u - u\|_2/\|u\|_2` over all non-batch axes; shape (B,)."""
    p, t = np.asarray(pred, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if p.shape != t.shape or p.ndim < 2:
        raise ValueError(f"pred and y must share a shape (B, ...); got {p.shape} and {t.shape}")
    axes = tuple(range(1, p.ndim))
    den = np.sqrt((t**2).sum(axes))
    if np.any(den == 0):
        raise ValueError("a target has zero norm")
    return np.sqrt(((p - t) ** 2).sum(axes)) / den


def _check_uq(mu, s, y, name="std"):
    mu, s, y = (np.asarray(v, dtype=np.float64) for v in (mu, s, y))
    if not (mu.shape == s.shape == y.shape):
        raise ValueError(f"mu, {name} and y must share a shape; got {mu.shape}, {s.shape}, {y.shape}")
    if np.any(s <= 0) or not np.all(np.isfinite(s)):
        raise ValueError(f"{name} must be finite and > 0")
    return mu, s, y


def gaussian_nll(mu: np.ndarray, var: np.ndarray, y: np.ndarray) -> float:
    r"""Mean Gaussian negative log-likelihood :math:`\tfrac12\log(2\pi\sigma^2) + (y-\mu)^2/(2\sigma^2)` (nats)."""
    mu, var, y = _check_uq(mu, var, y, "var")
    return float(np.mean(0.5 * np.log(2 * np.pi * var) + (y - mu) ** 2 / (2 * var)))


def interval_coverage(mu: np.ndarray, std: np.ndarray, y: np.ndarray, level: float = 0.9) -> float:
    r"""Fraction of ``y`` inside the central Gaussian interval :math:`\mu \pm z_{(1+\ell)/2}\,\sigma`."""
    from scipy.stats import norm

    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1); got {level!r}")
    mu, std, y = _check_uq(mu, std, y)
    return float(np.mean(np.abs(y - mu) <= norm.ppf(0.5 + level / 2) * std))


def miscalibration_area(mu: np.ndarray, std: np.ndarray, y: np.ndarray, n_levels: int = 100) -> float:
    r"""Miscalibration area: mean over levels :math:`\ell \in (0,1)` (``n_levels`` evenly spaced) of
    :math:`|\mathrm{coverage}(\ell) - \ell|` for central Gaussian intervals (a Riemann sum of the area between
    the calibration curve and the diagonal, as in uncertainty-toolbox, which the official code uses)."""
    from scipy.stats import norm

    mu, std, y = _check_uq(mu, std, y)
    _check_int(n_levels, "n_levels", 2)
    levels = np.linspace(0.0, 1.0, n_levels)
    z = np.abs(y - mu).ravel() / std.ravel()
    obs = np.mean(z[None, :] <= norm.ppf(0.5 + levels[:, None] / 2), axis=1)
    return float(np.trapezoid(np.abs(obs - levels), levels))


# --------------------------------------------------------------------------- training and prediction
def relative_l2_loss(pred: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    r"""Mean over the batch of :math:`\|\hat u_b - u_b\|_2 / \|u_b\|_2` (official ``RelativeLpLoss``, p = 2,
    norms over all non-batch axes). ``pred``, ``y``: shape (B, ...). Returns a scalar tensor."""
    if pred.shape != y.shape or pred.ndim < 2:
        raise ValueError(f"pred and y must share a shape (B, ...); got {tuple(pred.shape)} and {tuple(y.shape)}")
    den = y.flatten(1).norm(dim=1)
    if torch.any(den == 0):
        raise ValueError("a target has zero norm")
    return ((pred - y).flatten(1).norm(dim=1) / den).mean()


def gaussian_elbo(pred: torch.Tensor, y: torch.Tensor, log_noise_var: torch.Tensor,
                  kl: torch.Tensor | float = 0.0) -> torch.Tensor:
    r"""Negative ELBO per sample: :math:`\frac1B\sum_b \sum_{x} \tfrac12[\log(2\pi\sigma^2) +
    (\hat u_b(x)-u_b(x))^2/\sigma^2] + \mathrm{KL}`, :math:`\sigma^2 = e^{s}` (official ``ELBOLoss``:
    ``GaussianNLLLoss(full=True, reduction="sum")`` plus the KL estimate). The official loss sums the NLL over
    the batch; its Bayesian configuration uses batches of one, where the two agree. ``pred``, ``y``: (B, ...)."""
    if pred.shape != y.shape or pred.ndim < 2:
        raise ValueError(f"pred and y must share a shape (B, ...); got {tuple(pred.shape)} and {tuple(y.shape)}")
    var = log_noise_var.exp()
    nll = 0.5 * (torch.log(2 * math.pi * var) + (pred - y) ** 2 / var)
    return nll.flatten(1).sum(1).mean() + kl


def train_operator(model: NeuralOperator1d, x: torch.Tensor, y: torch.Tensor, epochs: int, batch_size: int = 16,
                   lr: float = 1e-3, weight_decay: float = 1e-4, seed: int = 0,
                   noise_lr: float | None = None) -> list[float]:
    r"""Train with AdamW + OneCycleLR (official Darcy config). Loss: :func:`relative_l2_loss` (official
    ``RelativeLpLoss``), or for a model with a learned noise (``kind="bayesian"``, or ``learn_noise=True``)
    :func:`gaussian_elbo`: summed Gaussian NLL with variance :math:`e^{s}` plus the KL estimate of every Bayesian
    multiplier (0 for a deterministic model). Frozen parameters (``requires_grad=False``) are not optimised.

    Parameters
    ----------
    x, y : tensors, shape (N, n, C_in) and (N, n, C_out)
    noise_lr : float, optional
        Peak learning rate of the scalar noise log-variance (its own parameter group); ``None``: ``lr``.

    Returns
    -------
    list of float, the mean training loss per epoch.
    """
    _check_int(epochs, "epochs")
    _check_int(batch_size, "batch_size")
    if x.shape[0] != y.shape[0]:
        raise ValueError("x and y must have the same number of samples")
    g = torch.Generator().manual_seed(seed)
    N = x.shape[0]
    steps = math.ceil(N / batch_size)
    noise = [p for p in [model.log_noise_var] if p is not None]
    rest = [p for p in model.parameters() if p.requires_grad and all(p is not q for q in noise)]
    groups = [{"params": rest, "lr": lr}] + ([{"params": noise, "lr": noise_lr or lr}] if noise else [])
    opt = torch.optim.AdamW(groups, lr=lr, weight_decay=weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=[g["lr"] for g in groups], total_steps=epochs * steps)
    likelihood = model.log_noise_var is not None
    hist = []
    model.train()
    for _ in range(epochs):
        perm = torch.randperm(N, generator=g)
        tot = 0.0
        for s in range(steps):
            idx = perm[s * batch_size:(s + 1) * batch_size]
            pred = model(x[idx])
            if likelihood:
                loss = gaussian_elbo(pred, y[idx], model.log_noise_var, model.kl())
            else:
                loss = relative_l2_loss(pred, y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss.detach()) * len(idx)
        hist.append(tot / N)
    model.eval()
    return hist


def predictive_samples(model: NeuralOperator1d, x: torch.Tensor, n_samples: int, seed: int = 0,
                       noise: str | float = "learned", dropout: bool = False) -> np.ndarray:
    r"""Draws from the predictive distribution (official ``Trainer._generate_samples``): each draw is one
    forward pass (a fresh :math:`\tau \sim q` for the Bayesian model, fresh dropout masks with ``dropout=True``)
    plus Gaussian noise: ``noise="learned"`` the model's learned log-variance (none if it has none), ``"none"``
    no noise, a float: that log-variance (the official default for dropout models is -4).
    Returns shape (n_samples, B, n, C_out).
    """
    _check_int(n_samples, "n_samples")
    if noise == "learned":
        log_noise_var = None if model.log_noise_var is None else float(model.log_noise_var.detach())
    elif noise == "none":
        log_noise_var = None
    elif isinstance(noise, (int, float)):
        log_noise_var = float(noise)
    else:
        raise ValueError(f"noise must be 'learned', 'none' or a float log-variance; got {noise!r}")
    torch.manual_seed(seed)
    model.train(dropout)
    out = []
    with torch.no_grad():
        for _ in range(n_samples):  # one forward pass per posterior draw, batched over inputs
            p = model(x)
            if log_noise_var is not None:
                p = p + math.exp(0.5 * log_noise_var) * torch.randn_like(p)
            out.append(p)
    model.eval()
    return torch.stack(out).numpy()
