"""Semi-dual optimal-transport map estimation with a sieved convex conjugate.

Paper map
---------
Paper: a NeurIPS 2025 paper on semi-dual OT map estimation with a *sieved convex conjugate*; its title,
authors and link were not found (only the abstract was available to us), so every equation cited below is
our own formalisation of the abstract, labelled (S1)-(S6) here and in the notebook
``notebooks/semidual-ot-map-sieve.py``.

Notation (paper -> code):

* source and target laws :math:`P, Q` on :math:`\\mathbb R^d` -> samples ``X`` (n, d) and ``Y`` (m, d);
* Brenier potential :math:`\\varphi_0` (convex), OT map :math:`T_0 = \\nabla\\varphi_0` -> ``T`` callables
  from :func:`gaussian_brenier_map` and :func:`radial_power_map`;
* sieve :math:`K_n` (a compact set growing with n), here a ball of radius ``sieve_radius`` discretised by
  the source samples inside it and a square grid, -> ``sieve`` (k, d) from :func:`ball_sieve`;
* sieved conjugate (S1) :math:`\\varphi^*_{K}(y) = \\max_{x\\in K}\\langle x,y\\rangle-\\varphi(x)` ->
  :func:`sieved_conjugate`;
* empirical semi-dual risk (S2) :math:`J_n(\\varphi)=\\frac1n\\sum_i\\varphi(X_i)+\\frac1m\\sum_j
  \\varphi^*_{K}(Y_j)` -> :func:`semi_dual_loss`;
* Tanh network class (S3) :math:`\\varphi_\\theta(x)=\\tfrac12\\|x\\|^2+f_\\theta(x)`, :math:`f_\\theta` a
  Tanh MLP -> :class:`TanhPotential`; the estimator (S4) :math:`\\hat T=\\nabla\\hat\\varphi`,
  :math:`\\hat\\varphi\\in\\arg\\min J_n` -> :func:`fit_semidual_map`;
* baselines: the entropic map (S5) of Pooladian and Niles-Weed (barycentric projection of a Sinkhorn plan,
  extended out of sample by its dual potential) -> :func:`entropic_map`, and discrete OT (POT ``emd``) with
  a 1-nearest-neighbour extension -> :func:`emd_nn_map`, and the affine map between Gaussians fitted to the
  samples -> :func:`affine_gaussian_map`; the ablation of the sieve (conjugate over the source sample only)
  -> :func:`fit_sample_conjugate_map`; the ablation of compactness (conjugate over R^d by unprojected ascent)
  -> :func:`fit_unrestricted_conjugate_map`; the estimator stopped early -> :func:`early_stopped_map`; the
  mean translation -> :func:`translation_map`; shift and isotropic scale -> :func:`isotropic_affine_map`;
  the identity map -> :func:`identity_map`;
* the L2(P) map error (S6) :math:`\\mathbb E\\|\\hat T(X)-T_0(X)\\|^2` -> :func:`map_l2_error`.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import ot
import torch
from scipy.linalg import sqrtm
from torch import nn

Array = np.ndarray
TorchPotential = Callable[[torch.Tensor], torch.Tensor]


def _as_points(Z: Array, name: str) -> Array:
    Z = np.asarray(Z, dtype=float)
    if Z.ndim != 2 or Z.shape[0] == 0:
        raise ValueError(f"{name} must be a non-empty (n, d) array; got shape {Z.shape}")
    if not np.all(np.isfinite(Z)):
        raise ValueError(f"{name} has non-finite entries")
    return Z


# ----------------------------------------------------------------------------------------------------
# Closed-form Brenier maps (test cases)
# ----------------------------------------------------------------------------------------------------


def gaussian_brenier_matrix(S1: Array, S2: Array) -> Array:
    """The symmetric PD matrix of the Brenier map between centred Gaussians.

    :math:`A = \\Sigma_1^{-1/2}(\\Sigma_1^{1/2}\\Sigma_2\\Sigma_1^{1/2})^{1/2}\\Sigma_1^{-1/2}`, the unique
    symmetric PD matrix with :math:`A\\Sigma_1A=\\Sigma_2`.

    Parameters
    ----------
    S1, S2 : ndarray, shape (d, d)
        Symmetric positive-definite covariances.

    Returns
    -------
    ndarray, shape (d, d)
    """
    S1 = np.asarray(S1, dtype=float)
    S2 = np.asarray(S2, dtype=float)
    for S, name in ((S1, "S1"), (S2, "S2")):
        if S.ndim != 2 or S.shape[0] != S.shape[1] or not np.allclose(S, S.T):
            raise ValueError(f"{name} must be a symmetric square matrix; got shape {S.shape}")
        if np.linalg.eigvalsh(S).min() <= 0:
            raise ValueError(f"{name} must be positive definite")
    if S1.shape != S2.shape:
        raise ValueError(f"S1 and S2 must have equal shapes; got {S1.shape} and {S2.shape}")
    r1 = np.real(sqrtm(S1))
    r1i = np.linalg.inv(r1)
    A = r1i @ np.real(sqrtm(r1 @ S2 @ r1)) @ r1i
    return (A + A.T) / 2


def gaussian_brenier_map(m1: Array, S1: Array, m2: Array, S2: Array) -> Callable[[Array], Array]:
    """Brenier map :math:`T(x)=m_2+A(x-m_1)` from :math:`N(m_1,\\Sigma_1)` to :math:`N(m_2,\\Sigma_2)`.

    Returns
    -------
    callable
        ``T(X)`` for ``X`` of shape (n, d), returning (n, d).
    """
    A = gaussian_brenier_matrix(S1, S2)
    m1 = np.asarray(m1, dtype=float)
    m2 = np.asarray(m2, dtype=float)
    if m1.shape != (A.shape[0],) or m2.shape != (A.shape[0],):
        raise ValueError(f"means must have shape ({A.shape[0]},); got {m1.shape} and {m2.shape}")
    return lambda X: m2 + (_as_points(X, "X") - m1) @ A.T


def gaussian_brenier_potential(m1: Array, S1: Array, m2: Array, S2: Array) -> TorchPotential:
    """Torch potential :math:`\\varphi_0(x)=\\tfrac12(x-m_1)^\\top A(x-m_1)+m_2^\\top x` with
    :math:`\\nabla\\varphi_0` = :func:`gaussian_brenier_map`. Maps (n, d) tensors to (n,)."""
    A = torch.as_tensor(gaussian_brenier_matrix(S1, S2))
    m1_t = torch.as_tensor(np.asarray(m1, dtype=float))
    m2_t = torch.as_tensor(np.asarray(m2, dtype=float))

    def phi(x: torch.Tensor) -> torch.Tensor:
        z = x - m1_t.to(x.dtype)
        return 0.5 * ((z @ A.to(x.dtype)) * z).sum(-1) + x @ m2_t.to(x.dtype)

    return phi


def radial_power_map(c: float) -> Callable[[Array], Array]:
    """The unbounded-support, non-Lipschitz map :math:`T(x)=(1+c\\|x\\|)\\,x`.

    It is :math:`\\nabla\\varphi_0` for the convex :math:`\\varphi_0(x)=\\|x\\|^2/2+c\\|x\\|^3/3`
    (:func:`radial_power_potential`), whose Hessian grows without bound, so :math:`T` is the Brenier map
    from any P to :math:`T_\\# P`. ``c`` must be >= 0.
    """
    if not c >= 0:
        raise ValueError(f"c must be >= 0; got {c}")

    def T(X: Array) -> Array:
        X = _as_points(X, "X")
        return (1.0 + c * np.linalg.norm(X, axis=1, keepdims=True)) * X

    return T


def radial_power_potential(c: float) -> TorchPotential:
    """Torch potential :math:`\\varphi_0(x)=\\|x\\|^2/2+c\\|x\\|^3/3` of :func:`radial_power_map`."""
    if not c >= 0:
        raise ValueError(f"c must be >= 0; got {c}")

    def phi(x: torch.Tensor) -> torch.Tensor:
        r2 = (x * x).sum(-1)
        return 0.5 * r2 + c * r2.clamp_min(0) ** 1.5 / 3.0

    return phi


# ----------------------------------------------------------------------------------------------------
# The sieved semi-dual estimator
# ----------------------------------------------------------------------------------------------------


def ball_sieve(X: Array, radius: float, n_grid: int) -> Array:
    """The discretised sieve :math:`K_n`: source points and an ``n_grid``-per-axis grid inside a ball.

    Parameters
    ----------
    X : ndarray, shape (n, d)
        Source samples; those with ``|x| <= radius`` join the sieve.
    radius : float
        Sieve radius :math:`R_n > 0`.
    n_grid : int
        Grid points per axis on :math:`[-R, R]^d` (only those inside the ball are kept); 0 for none.

    Returns
    -------
    ndarray, shape (k, d)
    """
    X = _as_points(X, "X")
    if not radius > 0:
        raise ValueError(f"radius must be > 0; got {radius}")
    if n_grid < 0 or (n_grid == 1):
        raise ValueError(f"n_grid must be 0 or >= 2; got {n_grid}")
    parts = [X[np.linalg.norm(X, axis=1) <= radius]]
    if n_grid:
        axes = [np.linspace(-radius, radius, n_grid)] * X.shape[1]
        G = np.stack(np.meshgrid(*axes, indexing="ij"), -1).reshape(-1, X.shape[1])
        parts.append(G[np.linalg.norm(G, axis=1) <= radius * (1 + 1e-12)])
    S = np.concatenate(parts)
    if S.shape[0] == 0:
        raise ValueError("the sieve is empty")
    return S


def _grad_phi(phi: TorchPotential, x: torch.Tensor) -> torch.Tensor:
    with torch.enable_grad():
        x = x.detach().requires_grad_(True)
        (g,) = torch.autograd.grad(phi(x).sum(), x)
    return g


def sieved_conjugate(
    phi: TorchPotential,
    Y: torch.Tensor,
    sieve: torch.Tensor,
    refine_steps: int = 0,
    radius: float | None = None,
    step: float = 0.5,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Sieved convex conjugate (S1): :math:`\\varphi^*_K(y)=\\max_{x\\in K}\\langle x,y\\rangle-\\varphi(x)`.

    The max is taken over the finite ``sieve``; optional refinement runs ``refine_steps`` projected
    gradient-ascent steps :math:`x\\leftarrow\\Pi_{B_R}(x+\\eta(y-\\nabla\\varphi(x)))` from each argmax and
    keeps the better of the two points, so the value never decreases and stays :math:`\\le` the sup over the
    ball. The returned value is differentiable in the parameters of ``phi`` by the envelope theorem (the
    maximiser is detached).

    Parameters
    ----------
    phi : callable
        Torch potential, (k, d) -> (k,).
    Y : Tensor, shape (m, d)
    sieve : Tensor, shape (k, d)
    refine_steps : int
        Gradient-ascent refinements (needs ``radius``).
    radius : float, optional
        Ball radius for the projection.
    step : float
        Ascent step :math:`\\eta`.

    Returns
    -------
    values : Tensor, shape (m,)
    argmax : Tensor, shape (m, d)
        The maximising points (detached).
    """
    if Y.ndim != 2 or sieve.ndim != 2 or Y.shape[1] != sieve.shape[1] or sieve.shape[0] == 0:
        raise ValueError(f"Y (m, d) and sieve (k, d) must share d; got {tuple(Y.shape)}, {tuple(sieve.shape)}")
    if refine_steps < 0:
        raise ValueError(f"refine_steps must be >= 0; got {refine_steps}")
    if refine_steps and (radius is None or radius <= 0):
        raise ValueError("refinement needs a positive radius")
    with torch.no_grad():
        scores = Y @ sieve.T - phi(sieve)[None, :]
        x = sieve[scores.argmax(1)]
        best = scores.max(1).values
        for _ in range(refine_steps):
            x_new = x + step * (Y - _grad_phi(phi, x))
            norm = x_new.norm(dim=1, keepdim=True).clamp_min(1e-300)
            x_new = x_new * torch.clamp(radius / norm, max=1.0)
            val = (x_new * Y).sum(1) - phi(x_new)
            better = val > best
            x = torch.where(better[:, None], x_new, x)
            best = torch.where(better, val, best)
    x = x.detach()
    return (x * Y).sum(1) - phi(x), x


def semi_dual_loss(
    phi: TorchPotential,
    X: torch.Tensor,
    Y: torch.Tensor,
    sieve: torch.Tensor,
    refine_steps: int = 0,
    radius: float | None = None,
) -> torch.Tensor:
    """Empirical semi-dual risk (S2) :math:`J_n(\\varphi)=\\overline{\\varphi(X)}+\\overline{\\varphi^*_K(Y)}`.

    Parameters
    ----------
    X : Tensor, shape (n, d);  Y : Tensor, shape (m, d);  sieve : Tensor, shape (k, d)

    Returns
    -------
    Tensor, shape ()
    """
    if X.ndim != 2 or X.shape[1] != Y.shape[1]:
        raise ValueError(f"X (n, d) and Y (m, d) must share d; got {tuple(X.shape)}, {tuple(Y.shape)}")
    conj, _ = sieved_conjugate(phi, Y, sieve, refine_steps, radius)
    return phi(X).mean() + conj.mean()


class TanhPotential(nn.Module):
    """Network class (S3): :math:`\\varphi_\\theta(x)=\\tfrac12\\|x\\|^2+f_\\theta(x)`, :math:`f_\\theta` a Tanh MLP.

    Not constrained to be convex; the quadratic skip term makes the initial map the identity.
    """

    def __init__(self, d: int, width: int, depth: int):
        super().__init__()
        if d < 1 or width < 1 or depth < 1:
            raise ValueError(f"d, width and depth must be >= 1; got {d}, {width}, {depth}")
        layers: list[nn.Module] = []
        k = d
        for _ in range(depth):
            layers += [nn.Linear(k, width), nn.Tanh()]
            k = width
        last = nn.Linear(k, 1)
        nn.init.zeros_(last.weight)
        nn.init.zeros_(last.bias)
        self.net = nn.Sequential(*layers, last)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return 0.5 * (x * x).sum(-1) + self.net(x).squeeze(-1)


def excess_semi_dual_risk(
    phi: TorchPotential,
    phi0: TorchPotential,
    X: Array,
    Y: Array,
    radius: float,
    n_grid: int = 40,
    refine_steps: int = 5,
) -> float:
    """Excess semi-dual risk :math:`J(\\varphi)-J(\\varphi_0)` of (S2), estimated on fresh samples.

    Both risks use the same large sieve (a ``n_grid``-per-axis grid in the ball of ``radius`` plus the
    points ``X``) and ``refine_steps`` refinements, so the conjugates are close to exact there.

    Parameters
    ----------
    phi, phi0 : callable
        Estimated and true torch potentials.
    X : ndarray, shape (n, d);  Y : ndarray, shape (m, d)
        Fresh source and target samples.

    Returns
    -------
    float
    """
    X = _as_points(X, "X")
    Y = _as_points(Y, "Y")
    dt = torch.float64
    Xt, Yt = torch.as_tensor(X, dtype=dt), torch.as_tensor(Y, dtype=dt)
    St = torch.as_tensor(ball_sieve(X, radius, n_grid), dtype=dt)
    with torch.no_grad():
        risks = [float(semi_dual_loss(f, Xt, Yt, St, refine_steps, radius)) for f in (phi, phi0)]
    return risks[0] - risks[1]


def gradient_map(phi: TorchPotential) -> Callable[[Array], Array]:
    """The map :math:`\\hat T=\\nabla\\varphi` (S4) by autograd, as a NumPy (n, d) -> (n, d) callable."""

    def T(X: Array) -> Array:
        x = torch.as_tensor(_as_points(X, "X"), dtype=torch.float64)
        return _grad_phi(phi, x).detach().numpy().astype(float)

    return T


@dataclass
class SemiDualFit:
    """Result of :func:`fit_semidual_map`: the potential, its gradient map, the loss curve and snapshots."""

    potential: TanhPotential
    map: Callable[[Array], Array]
    losses: list[float]
    snapshots: list[tuple[int, TanhPotential]] = field(default_factory=list)
    kept: dict[int, TanhPotential] = field(default_factory=dict)


def fit_semidual_map(
    X: Array,
    Y: Array,
    *,
    sieve_radius: float,
    width: int = 32,
    depth: int = 2,
    steps: int = 300,
    lr: float = 5e-3,
    n_grid: int = 24,
    refine_steps: int = 2,
    seed: int = 0,
    snapshot_every: int = 0,
    keep_at: tuple[int, ...] = (),
) -> SemiDualFit:
    """Semi-dual estimator (S4): minimise :math:`J_n` (S2) over the Tanh class (S3) with Adam.

    Parameters
    ----------
    X : ndarray, shape (n, d)
        Source samples (also seed the sieve).
    Y : ndarray, shape (m, d)
        Target samples.
    sieve_radius : float
        :math:`R_n`, radius of the sieve ball (:func:`ball_sieve`).
    width, depth : int
        Network size (approximation error knob).
    steps, lr : int, float
        Full-batch Adam steps and learning rate.
    n_grid, refine_steps : int
        Sieve grid per axis, and gradient-ascent refinements of the conjugate (:func:`sieved_conjugate`).
    seed : int
        Seeds the network initialisation.
    snapshot_every : int
        Keep a copy of the potential every this many steps (0: none), for the stability check.
    keep_at : tuple of int
        Also keep a copy after each of these steps (in ``SemiDualFit.kept``), e.g. for an early stop.

    Returns
    -------
    SemiDualFit
    """
    X = _as_points(X, "X")
    Y = _as_points(Y, "Y")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(f"X and Y must share d; got {X.shape[1]} and {Y.shape[1]}")
    if steps < 1 or lr <= 0:
        raise ValueError(f"steps must be >= 1 and lr > 0; got {steps}, {lr}")
    if any(not 1 <= k <= steps for k in keep_at):
        raise ValueError(f"keep_at must lie in [1, steps]; got {keep_at}")
    torch.manual_seed(seed)
    dt = torch.float64
    phi = TanhPotential(X.shape[1], width, depth).to(dt)
    Xt = torch.as_tensor(X, dtype=dt)
    Yt = torch.as_tensor(Y, dtype=dt)
    St = torch.as_tensor(ball_sieve(X, sieve_radius, n_grid), dtype=dt)
    opt = torch.optim.Adam(phi.parameters(), lr=lr)
    losses: list[float] = []
    snaps: list[tuple[int, TanhPotential]] = []
    kept: dict[int, TanhPotential] = {}
    for t in range(1, steps + 1):
        opt.zero_grad()
        loss = semi_dual_loss(phi, Xt, Yt, St, refine_steps, sieve_radius)
        loss.backward()
        opt.step()
        losses.append(float(loss.detach()))
        if snapshot_every and (t % snapshot_every == 0 or t == 1):
            snaps.append((t, copy.deepcopy(phi)))
        if t in keep_at:
            kept[t] = copy.deepcopy(phi)
    return SemiDualFit(phi, gradient_map(phi), losses, snaps, kept)


# ----------------------------------------------------------------------------------------------------
# Baselines and error
# ----------------------------------------------------------------------------------------------------


def entropic_map(X: Array, Y: Array, eps: float, max_iter: int = 300) -> Callable[[Array], Array]:
    """Entropic map (S5): barycentric projection of the Sinkhorn plan, extended out of sample.

    Solves entropic OT between the empirical measures with cost :math:`\\tfrac12\\|x-y\\|^2` and
    regularisation ``eps`` by POT's log-domain Sinkhorn (``ot.sinkhorn``), then returns
    :math:`T_\\varepsilon(x)=\\sum_j w_j(x)Y_j` with
    :math:`w_j(x)\\propto v_j\\exp(-\\|x-Y_j\\|^2/2\\varepsilon)`, which equals the barycentric projection
    :math:`\\sum_j\\pi_{ij}Y_j/\\sum_j\\pi_{ij}` at the sample points (Pooladian and Niles-Weed, 2021).

    Parameters
    ----------
    X : ndarray, shape (n, d);  Y : ndarray, shape (m, d);  eps : float > 0

    Returns
    -------
    callable, (k, d) -> (k, d)
    """
    X = _as_points(X, "X")
    Y = _as_points(Y, "Y")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(f"X and Y must share d; got {X.shape[1]} and {Y.shape[1]}")
    if not eps > 0:
        raise ValueError(f"eps must be > 0; got {eps}")
    # torch tensors select POT's torch backend, whose logsumexp is several times faster than NumPy's
    a = torch.full((X.shape[0],), 1.0 / X.shape[0], dtype=torch.float64)
    b = torch.full((Y.shape[0],), 1.0 / Y.shape[0], dtype=torch.float64)
    M = torch.as_tensor(0.5 * ot.dist(X, Y), dtype=torch.float64)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Sinkhorn did not converge")
        _, log = ot.sinkhorn(a, b, M, eps, method="sinkhorn_log", numItermax=max_iter, stopThr=1e-6, log=True)
    log_v = log["log_v"].numpy()

    def T(Z: Array) -> Array:
        Z = _as_points(Z, "Z")
        logits = log_v[None, :] - 0.5 * ot.dist(Z, Y) / eps
        logits -= logits.max(1, keepdims=True)
        W = np.exp(logits)
        return (W / W.sum(1, keepdims=True)) @ Y

    return T


def emd_nn_map(X: Array, Y: Array) -> Callable[[Array], Array]:
    """Discrete OT baseline: POT ``emd`` plan, barycentric projection, 1-nearest-neighbour extension."""
    X = _as_points(X, "X")
    Y = _as_points(Y, "Y")
    a = np.full(X.shape[0], 1.0 / X.shape[0])
    b = np.full(Y.shape[0], 1.0 / Y.shape[0])
    G = ot.emd(a, b, ot.dist(X, Y))
    TX = (G @ Y) / G.sum(1, keepdims=True)

    def T(Z: Array) -> Array:
        return TX[ot.dist(_as_points(Z, "Z"), X).argmin(1)]

    return T


def fit_sample_conjugate_map(X: Array, Y: Array, **kw) -> SemiDualFit:
    """Ablation of the sieve: the same estimator with the conjugate taken over the source sample only.

    :math:`\\varphi^*_{X}(y)=\\max_{i}\\langle X_i,y\\rangle-\\varphi(X_i)`: no ball of radius
    :math:`R_n`, no grid and no gradient refinement (the plain empirical conjugate of many semi-dual
    implementations). Every other argument is passed to :func:`fit_semidual_map`.

    Parameters
    ----------
    X, Y : ndarray, shape (n, d)
    **kw :
        ``steps``, ``lr``, ``width``, ``depth``, ``seed``, ``snapshot_every`` (not the sieve's arguments).

    Returns
    -------
    SemiDualFit
    """
    bad = {"sieve_radius", "n_grid", "refine_steps"} & set(kw)
    if bad:
        raise ValueError(f"the sample-only conjugate fixes {sorted(bad)}")
    return fit_semidual_map(X, Y, sieve_radius=np.inf, n_grid=0, refine_steps=0, **kw)


def fit_unrestricted_conjugate_map(X: Array, Y: Array, *, refine_steps: int = 2, **kw) -> SemiDualFit:
    """Ablation of compactness: the same estimator with the conjugate over (essentially) all of R^d.

    The argmax over the source sample is refined by ``refine_steps`` gradient-ascent steps that are not
    projected onto any ball (the radius is set to 1e6, far beyond any sample point), so no compact set
    restricts the conjugate and no grid is used. With the class (S3), where :math:`f_\\theta` is a bounded
    Tanh network, :math:`\\langle x,y\\rangle-\\varphi_\\theta(x)` is maximised near :math:`y`, so this
    conjugate is well posed without a sieve. Every other argument is passed to :func:`fit_semidual_map`.

    Parameters
    ----------
    X, Y : ndarray, shape (n, d)
    refine_steps : int
        Unprojected ascent steps (>= 1).
    **kw :
        ``steps``, ``lr``, ``width``, ``depth``, ``seed``, ``snapshot_every`` (not ``sieve_radius`` or
        ``n_grid``).

    Returns
    -------
    SemiDualFit
    """
    bad = {"sieve_radius", "n_grid"} & set(kw)
    if bad:
        raise ValueError(f"the unrestricted conjugate fixes {sorted(bad)}")
    if refine_steps < 1:
        raise ValueError(f"refine_steps must be >= 1; got {refine_steps}")
    return fit_semidual_map(X, Y, sieve_radius=1e6, n_grid=0, refine_steps=refine_steps, **kw)


def early_stopped_map(fit: SemiDualFit, step: int) -> Callable[[Array], Array]:
    """The estimator stopped early: the gradient map of the snapshot taken after ``step`` Adam steps.

    Full-batch Adam is deterministic, so this is the map :func:`fit_semidual_map` returns with
    ``steps=step``; ``fit`` must have been run with ``step`` in ``keep_at``.
    """
    if step not in fit.kept:
        raise ValueError(f"no copy kept at step {step}; have {sorted(fit.kept)}")
    return gradient_map(fit.kept[step])


def translation_map(X: Array, Y: Array) -> Callable[[Array], Array]:
    """Naive baseline: the mean translation :math:`\\hat T(x)=x-\\bar X+\\bar Y` (d numbers).

    It is the Brenier map between P and Q when Q is a translate of P.
    """
    X = _as_points(X, "X")
    Y = _as_points(Y, "Y")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(f"X and Y must share d; got {X.shape[1]} and {Y.shape[1]}")
    shift = Y.mean(0) - X.mean(0)
    return lambda Z: _as_points(Z, "Z") + shift


def isotropic_affine_map(X: Array, Y: Array) -> Callable[[Array], Array]:
    """Naive baseline: shift and isotropic scale, :math:`\\hat T(x)=\\bar Y+s\\,(x-\\bar X)` (d + 1 numbers).

    :math:`s=\\sqrt{\\operatorname{tr}\\hat\\Sigma_Y/\\operatorname{tr}\\hat\\Sigma_X}` matches the total
    variance; a gradient of the convex :math:`\\tfrac s2\\|x-\\bar X\\|^2+\\bar Y^\\top x`.
    """
    X = _as_points(X, "X")
    Y = _as_points(Y, "Y")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(f"X and Y must share d; got {X.shape[1]} and {Y.shape[1]}")
    if min(X.shape[0], Y.shape[0]) < 2:
        raise ValueError("need at least two samples on each side")
    mx, my = X.mean(0), Y.mean(0)
    sx, sy = ((X - mx) ** 2).sum(1).mean(), ((Y - my) ** 2).sum(1).mean()
    if not sx > 0:
        raise ValueError("the source sample has no spread")
    s = float(np.sqrt(sy / sx))
    return lambda Z: my + (_as_points(Z, "Z") - mx) * s


def identity_map(Z: Array) -> Array:
    """The no-data reference :math:`\\hat T(x)=x`: the estimator's starting map (f = 0)."""
    return _as_points(Z, "Z").copy()


def affine_gaussian_map(X: Array, Y: Array) -> Callable[[Array], Array]:
    """Naive fixed-size baseline: the Brenier map between Gaussians fitted to the two samples.

    :math:`\\hat T(x)=\\bar Y+\\hat A(x-\\bar X)` with :math:`\\hat A` the Gaussian Brenier matrix
    (:func:`gaussian_brenier_matrix`) of the sample covariances: an affine map, a basis of fixed size
    :math:`d+d(d+1)/2` that does not grow with n (exact in the limit only when :math:`T_0` is affine).

    Parameters
    ----------
    X : ndarray, shape (n, d);  Y : ndarray, shape (m, d), n, m > d

    Returns
    -------
    callable, (k, d) -> (k, d)
    """
    X = _as_points(X, "X")
    Y = _as_points(Y, "Y")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(f"X and Y must share d; got {X.shape[1]} and {Y.shape[1]}")
    if min(X.shape[0], Y.shape[0]) <= X.shape[1]:
        raise ValueError("need more samples than dimensions to fit a covariance")
    mx, my = X.mean(0), Y.mean(0)
    A = gaussian_brenier_matrix(np.cov(X.T).reshape(X.shape[1], -1), np.cov(Y.T).reshape(X.shape[1], -1))

    def T(Z: Array) -> Array:
        return my + (_as_points(Z, "Z") - mx) @ A.T

    return T


def map_l2_error(T_hat: Callable[[Array], Array], T: Callable[[Array], Array], X_test: Array) -> float:
    """L2(P) map error (S6): :math:`\\frac1N\\sum_k\\|\\hat T(X_k)-T(X_k)\\|^2` on test points (N, d)."""
    X_test = _as_points(X_test, "X_test")
    A, B = np.asarray(T_hat(X_test), dtype=float), np.asarray(T(X_test), dtype=float)
    if A.shape != X_test.shape or B.shape != X_test.shape:
        raise ValueError(f"maps must return shape {X_test.shape}; got {A.shape} and {B.shape}")
    D = A - B
    return float((D**2).sum(1).mean())


def relative_map_error(T_hat: Callable[[Array], Array], T: Callable[[Array], Array], X_test: Array) -> float:
    """:func:`map_l2_error` divided by the spread :math:`\\mathbb E\\|T(X)-\\mathbb E T(X)\\|^2` of the target."""
    TX = np.asarray(T(_as_points(X_test, "X_test")), dtype=float)
    return map_l2_error(T_hat, T, X_test) / float(((TX - TX.mean(0)) ** 2).sum(1).mean())


def entropic_eps(n: int, eps0: float = 0.5, power: float = 0.25) -> float:
    """Our fixed regularisation rule for the entropic baseline: :math:`\\varepsilon_n=\\varepsilon_0n^{-p}`."""
    if n < 1:
        raise ValueError(f"n must be >= 1; got {n}")
    return float(eps0 * n ** (-power))


# ----------------------------------------------------------------------------------------------------
# The two test cases of the notebook
# ----------------------------------------------------------------------------------------------------

#: Case (a): N(0, S1) -> N(M2, S2), linear Brenier map.  Case (b): N(0, I) -> T#N(0, I), T(x)=(1+|x|/2)x.
GAUSS_S1 = np.array([[1.0, 0.5], [0.5, 1.0]])
GAUSS_M2 = np.array([1.0, -0.5])
GAUSS_S2 = np.array([[2.0, 0.6], [0.6, 0.8]])
RADIAL_C = 0.5
CASES = ("gaussian", "radial")


@dataclass(frozen=True)
class Case:
    """A test case: source sampler, true map (NumPy) and true potential (torch)."""

    name: str
    T: Callable[[Array], Array]
    phi0: TorchPotential
    chol: Array

    def source(self, n: int, rng: np.random.Generator) -> Array:
        """``n`` i.i.d. draws from P, shape (n, d)."""
        if n < 1:
            raise ValueError(f"n must be >= 1; got {n}")
        return rng.standard_normal((n, self.chol.shape[0])) @ self.chol.T

    def pair(self, n: int, rng: np.random.Generator) -> tuple[Array, Array]:
        """Independent samples ``X ~ P`` and ``Y = T(X') ~ Q`` (X' a fresh draw), each (n, d)."""
        return self.source(n, rng), self.T(self.source(n, rng))


def make_case(name: str) -> Case:
    """Case ``"gaussian"`` (a) or ``"radial"`` (b, unbounded support, non-Lipschitz map)."""
    if name == "gaussian":
        m1 = np.zeros(2)
        return Case(name, gaussian_brenier_map(m1, GAUSS_S1, GAUSS_M2, GAUSS_S2),
                    gaussian_brenier_potential(m1, GAUSS_S1, GAUSS_M2, GAUSS_S2), np.linalg.cholesky(GAUSS_S1))
    if name == "radial":
        return Case(name, radial_power_map(RADIAL_C), radial_power_potential(RADIAL_C), np.eye(2))
    raise ValueError(f"case must be one of {CASES}; got {name!r}")


def sieve_radius_rule(n: int) -> float:
    """Our sieve radius :math:`R_n = 1+\\sqrt{2\\log n}` (covers the bulk of a unit Gaussian sample)."""
    if n < 2:
        raise ValueError(f"n must be >= 2; got {n}")
    return float(1.0 + np.sqrt(2.0 * np.log(n)))
