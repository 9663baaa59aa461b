"""Rectified flows versus optimal transport: Gaussian, mixture and counterexample kernels.

Paper: Johannes Hertrich, Antonin Chambolle, Julie Delon, *On the Relation between Rectified
Flows and Optimal Transport*, NeurIPS 2025, https://arxiv.org/abs/2505.19712.
Notebook: ``notebooks/rectified-flow-ot.py``.

Notation (paper -> ours)
------------------------
- coupling :math:`(X_0, X_1)`, interpolation :math:`X_t=(1-t)X_0+tX_1` -> arrays ``x0``, ``x1``
- covariances :math:`\\Sigma_0, \\Sigma_1` and cross-covariance :math:`\\Sigma_{01}=E[X_0X_1^T]`
  -> ``S0``, ``S1``, ``S01`` (zero means unless ``m0``, ``m1`` are given)
- covariance of :math:`X_t`, :math:`\\Sigma_t` -> ``C`` (returned by :func:`gaussian_rf_velocity_matrix`)
- rectified velocity :math:`v_t(x)=E[X_1-X_0\\mid X_t=x]` (Thm. 3 for Gaussians: ``v_t(x) = A_t x``,
  Thm. 5 for Gaussian mixtures) -> :func:`gaussian_rf_velocity`, :func:`gmm_rf_velocity`
- gradient-constrained velocity :math:`v^p_t`, the :math:`L^2(\\mu_t)` projection of :math:`v_t` onto
  gradient fields (Prop. 8) -> :func:`gradient_project_linear` (exact for linear fields on Gaussians)
- rectification :math:`\\mathcal R` / :math:`\\mathcal R_p` of a Gaussian coupling: the flow map
  :math:`Z_1 = M X_0` -> :func:`rf_linear_flow_map`, iterated by :func:`iterate_rectification`
- Brenier (OT) map between centred Gaussians -> :func:`bures_ot_map` (POT's ``ot.gaussian``)
- flow map of a linear field :math:`\\dot M_t = A(t)M_t` -> :func:`linear_flow_map` (also used for the page's
  wrong-kernel control, the naive symmetric part of :math:`A_t`)
- one-dimensional OT map :math:`F_1^{-1}\\circ F_0` (Prop. 4) -> :func:`gmm_cdf_1d`, :func:`transport_cdf_error_1d`

Shared helper candidates: :func:`empirical_ot_cost` (a thin ``ot.emd2`` wrapper) and
:func:`integrate_flow` (particle ODE with ``solve_ivp``) could serve other flow/OT papers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import ot
from scipy.integrate import quad, solve_ivp
from scipy.linalg import solve_continuous_lyapunov
from scipy.special import logsumexp, ndtr
from scipy.stats import multivariate_normal

Array = np.ndarray


# ---------------------------------------------------------------- validation
def _as_cov(S: Array, name: str, d: int | None = None) -> Array:
    S = np.asarray(S, dtype=float)
    if S.ndim != 2 or S.shape[0] != S.shape[1]:
        raise ValueError(f"{name} must be a square matrix; got shape {S.shape}")
    if d is not None and S.shape[0] != d:
        raise ValueError(f"{name} must be {d}x{d}; got {S.shape}")
    if not np.allclose(S, S.T, atol=1e-12 * max(1.0, np.abs(S).max())):
        raise ValueError(f"{name} must be symmetric")
    if np.linalg.eigvalsh(S).min() <= 0:
        raise ValueError(f"{name} must be positive definite")
    return 0.5 * (S + S.T)


def _check_t(t: float) -> float:
    t = float(t)
    if not (0.0 <= t <= 1.0):
        raise ValueError(f"t must lie in [0, 1]; got {t}")
    return t


# ---------------------------------------------------------------- Gaussian OT (POT)
def bures_ot_map(S0: Array, S1: Array) -> Array:
    """Matrix of the Brenier (optimal transport) map from N(0, S0) to N(0, S1).

    :math:`T = S_0^{-1/2}(S_0^{1/2}S_1S_0^{1/2})^{1/2}S_0^{-1/2}`, computed by POT's
    ``ot.gaussian.bures_wasserstein_mapping``.

    Parameters
    ----------
    S0, S1 : ndarray, shape (d, d)
        Symmetric positive definite covariances.

    Returns
    -------
    ndarray, shape (d, d)
        Symmetric positive definite T with ``T S0 T = S1``.
    """
    S0 = _as_cov(S0, "S0")
    S1 = _as_cov(S1, "S1", S0.shape[0])
    z = np.zeros(S0.shape[0])
    T, _ = ot.gaussian.bures_wasserstein_mapping(z, z, S0, S1)
    T = np.real(np.asarray(T, dtype=float))
    return 0.5 * (T + T.T)


def bures_wasserstein_cost(S0: Array, S1: Array) -> float:
    """Squared 2-Wasserstein distance between N(0, S0) and N(0, S1) (POT's ``bures_distance`` squared).

    :math:`W_2^2 = \\operatorname{tr}S_0 + \\operatorname{tr}S_1 - 2\\operatorname{tr}(S_0^{1/2}S_1S_0^{1/2})^{1/2}`.
    """
    S0 = _as_cov(S0, "S0")
    S1 = _as_cov(S1, "S1", S0.shape[0])
    return float(np.real(ot.gaussian.bures_distance(S0, S1)) ** 2)


def linear_transport_cost(M: Array, S0: Array) -> float:
    """Cost :math:`E\\|X_0 - M X_0\\|^2 = \\operatorname{tr}((I-M)S_0(I-M)^T)` of the linear map ``M``.

    Parameters
    ----------
    M : ndarray, shape (d, d)
    S0 : ndarray, shape (d, d)
        Covariance of the centred source :math:`X_0`.
    """
    S0 = _as_cov(S0, "S0")
    M = np.asarray(M, dtype=float)
    if M.shape != S0.shape:
        raise ValueError(f"M must have shape {S0.shape}; got {M.shape}")
    D = np.eye(len(S0)) - M
    return float(np.trace(D @ S0 @ D.T))


# ---------------------------------------------------------------- Gaussian rectified flow
def gaussian_rf_velocity_matrix(t: float, S0: Array, S1: Array, S01: Array | None = None) -> tuple[Array, Array]:
    """Rectified velocity of a jointly Gaussian centred coupling: ``v_t(x) = A_t x`` (Thm. 3).

    :math:`A_t = \\operatorname{Cov}(X_1-X_0, X_t)\\,\\Sigma_t^{-1}` with
    :math:`\\operatorname{Cov}(X_1-X_0,X_t) = tS_1-(1-t)S_0+(1-t)S_{01}^T-tS_{01}` and
    :math:`\\Sigma_t=(1-t)^2S_0+t(1-t)(S_{01}+S_{01}^T)+t^2S_1`.

    Parameters
    ----------
    t : float in [0, 1]
    S0, S1 : ndarray, shape (d, d)
        Marginal covariances.
    S01 : ndarray, shape (d, d), optional
        Cross-covariance :math:`E[X_0X_1^T]`; ``None`` is the independent coupling.

    Returns
    -------
    A : ndarray, shape (d, d)
    C : ndarray, shape (d, d)
        The covariance :math:`\\Sigma_t` of :math:`X_t`.
    """
    t = _check_t(t)
    S0 = _as_cov(S0, "S0")
    S1 = _as_cov(S1, "S1", S0.shape[0])
    S01 = np.zeros_like(S0) if S01 is None else np.asarray(S01, dtype=float)
    if S01.shape != S0.shape:
        raise ValueError(f"S01 must have shape {S0.shape}; got {S01.shape}")
    C = (1 - t) ** 2 * S0 + t * (1 - t) * (S01 + S01.T) + t**2 * S1
    K = t * S1 - (1 - t) * S0 + (1 - t) * S01.T - t * S01
    if np.linalg.eigvalsh(0.5 * (C + C.T)).min() <= 1e-14 * np.abs(C).max():
        raise ValueError(f"the law of X_t is degenerate at t={t}: the velocity is not defined there")
    A = np.linalg.solve(C.T, K.T).T
    return A, C


def gaussian_rf_velocity(
    t: float, x: Array, m0: Array, S0: Array, m1: Array, S1: Array, S01: Array | None = None
) -> Array:
    """Rectified velocity :math:`v_t(x) = (m_1-m_0) + A_t(x-m_t)` for Gaussian marginals (Thm. 3).

    Parameters
    ----------
    t : float in [0, 1]
    x : ndarray, shape (n, d)
    m0, m1 : ndarray, shape (d,)
    S0, S1, S01 : see :func:`gaussian_rf_velocity_matrix`

    Returns
    -------
    ndarray, shape (n, d)
    """
    x = np.atleast_2d(np.asarray(x, dtype=float))
    m0, m1 = np.asarray(m0, dtype=float), np.asarray(m1, dtype=float)
    A, _ = gaussian_rf_velocity_matrix(t, S0, S1, S01)
    d = A.shape[0]
    if x.shape[1] != d or m0.shape != (d,) or m1.shape != (d,):
        raise ValueError(f"x must be (n, {d}) and the means ({d},)")
    mt = (1 - t) * m0 + t * m1
    return (m1 - m0) + (x - mt) @ A.T


def gradient_project_linear(A: Array, C: Array) -> Array:
    """L2(N(0, C)) projection of the linear field ``x -> A x`` onto gradient fields (Prop. 8).

    The projection is ``x -> S x`` with S symmetric solving the Lyapunov equation
    :math:`SC + CS = AC + CA^T` (same continuity equation, minimum kinetic energy);
    solved by ``scipy.linalg.solve_continuous_lyapunov``.

    Parameters
    ----------
    A : ndarray, shape (d, d)
    C : ndarray, shape (d, d)
        Symmetric positive definite covariance of the current marginal.

    Returns
    -------
    ndarray, shape (d, d), symmetric
    """
    C = _as_cov(C, "C")
    A = np.asarray(A, dtype=float)
    if A.shape != C.shape:
        raise ValueError(f"A must have shape {C.shape}; got {A.shape}")
    S = solve_continuous_lyapunov(C, A @ C + C @ A.T)
    return 0.5 * (S + S.T)


def linear_flow_map(afield: Callable[[float], Array], d: int, rtol: float = 1e-11, atol: float = 1e-13) -> Array:
    """Flow map ``M_1`` of the linear ODE :math:`\\dot M_t = A(t) M_t`, :math:`M_0 = I`, on [0, 1].

    ``solve_ivp`` (DOP853). The flow of the linear velocity field ``x -> A(t) x`` sends ``x0`` to ``M_1 x0``.

    Parameters
    ----------
    afield : callable ``t -> ndarray (d, d)``
    d : int
        Dimension.

    Returns
    -------
    ndarray, shape (d, d)
    """
    d = int(d)
    if d < 1:
        raise ValueError(f"d must be >= 1; got {d}")

    def rhs(t: float, y: Array) -> Array:
        A = np.asarray(afield(t), dtype=float)
        if A.shape != (d, d):
            raise ValueError(f"afield must return a {d}x{d} matrix; got {A.shape}")
        return (A @ y.reshape(d, d)).ravel()

    sol = solve_ivp(rhs, (0.0, 1.0), np.eye(d).ravel(), method="DOP853", rtol=rtol, atol=atol)
    if not sol.success:
        raise RuntimeError(sol.message)
    return sol.y[:, -1].reshape(d, d)


def rf_linear_flow_map(
    S0: Array,
    S1: Array,
    S01: Array | None = None,
    grad_constrained: bool = False,
    rtol: float = 1e-11,
    atol: float = 1e-13,
) -> Array:
    """One rectification of a centred Gaussian coupling: the flow map ``Z_1 = M X_0``.

    Integrates :math:`\\dot M_t = A_t M_t`, :math:`M_0=I` (:func:`linear_flow_map`), with :math:`A_t` from
    :func:`gaussian_rf_velocity_matrix`, or its gradient projection (:func:`gradient_project_linear`)
    when ``grad_constrained`` (the constrained rectification :math:`\\mathcal R_p`).

    Returns
    -------
    ndarray, shape (d, d)
    """
    S0 = _as_cov(S0, "S0")

    def afield(t: float) -> Array:
        A, C = gaussian_rf_velocity_matrix(t, S0, S1, S01)
        return gradient_project_linear(A, C) if grad_constrained else A

    return linear_flow_map(afield, S0.shape[0], rtol=rtol, atol=atol)


def iterate_rectification(S0: Array, S1: Array, n_steps: int, grad_constrained: bool = False) -> list[Array]:
    """Maps of ``n_steps`` successive rectifications, starting from the independent coupling.

    Step k+1 rectifies the deterministic coupling ``(X_0, M_k X_0)``, whose cross-covariance is
    :math:`S_0 M_k^T` (Liu's k-rectified flow, or its gradient-constrained version).

    Returns
    -------
    list of ndarray, each shape (d, d); entry k is the map after k+1 rectifications.
    """
    if int(n_steps) < 1:
        raise ValueError(f"n_steps must be >= 1; got {n_steps}")
    S0 = _as_cov(S0, "S0")
    maps = [rf_linear_flow_map(S0, S1, None, grad_constrained)]
    for _ in range(int(n_steps) - 1):
        M = maps[-1]
        S1k = M @ S0 @ M.T
        maps.append(rf_linear_flow_map(S0, 0.5 * (S1k + S1k.T), S0 @ M.T, grad_constrained))
    return maps


def mc_velocity_matrix(t: float, x0: Array, x1: Array) -> Array:
    """Monte Carlo estimate of :math:`A_t`: least-squares regression of :math:`X_1-X_0` on :math:`X_t`.

    For a jointly Gaussian centred coupling the conditional expectation is linear, so the
    regression estimates :math:`E[X_1-X_0\\mid X_t]` (samples assumed centred).

    Parameters
    ----------
    t : float in [0, 1]
    x0, x1 : ndarray, shape (n, d)
        Paired samples of the coupling.
    """
    t = _check_t(t)
    x0, x1 = np.asarray(x0, dtype=float), np.asarray(x1, dtype=float)
    if x0.shape != x1.shape or x0.ndim != 2:
        raise ValueError(f"x0 and x1 must be (n, d) of equal shape; got {x0.shape}, {x1.shape}")
    xt = (1 - t) * x0 + t * x1
    coef, *_ = np.linalg.lstsq(xt, x1 - x0, rcond=None)
    return coef.T


def gaussian_rectification_loss(S0: Array, S1: Array, S01: Array) -> float:
    """Minimal rectification loss :math:`\\int_0^1 E\\|X_1-X_0-v_t(X_t)\\|^2dt` of a Gaussian coupling.

    The integrand is the residual variance :math:`\\operatorname{tr}(\\operatorname{Var}(X_1-X_0) -
    A_t\\Sigma_tA_t^T)` (Liu's loss at its minimiser; zero iff the coupling is straight and
    non-crossing). Integrated with ``scipy.integrate.quad`` (break point at t = 1/2).
    """
    S0 = _as_cov(S0, "S0")
    S01 = np.asarray(S01, dtype=float)
    V = S0 + _as_cov(S1, "S1", len(S0)) - S01 - S01.T

    def integrand(t: float) -> float:
        A, C = gaussian_rf_velocity_matrix(t, S0, S1, S01)
        return float(np.trace(V - A @ C @ A.T))

    val, _ = quad(integrand, 0.0, 1.0, points=[0.5], limit=200, epsabs=1e-12, epsrel=1e-10)
    return float(val)


# ---------------------------------------------------------------- Gaussian mixtures
class GMM(NamedTuple):
    """Gaussian mixture: weights (K,), means (K, d), covariances (K, d, d)."""

    weights: Array
    means: Array
    covs: Array


def make_gmm(weights: Array, means: Array, covs: Array) -> GMM:
    """Validated :class:`GMM` (weights positive, summing to one; covariances SPD)."""
    w = np.asarray(weights, dtype=float)
    m = np.atleast_2d(np.asarray(means, dtype=float))
    c = np.asarray(covs, dtype=float)
    if w.ndim != 1 or np.any(w <= 0) or abs(w.sum() - 1) > 1e-10:
        raise ValueError("weights must be positive and sum to 1")
    if m.shape[0] != w.size or c.shape != (w.size, m.shape[1], m.shape[1]):
        raise ValueError(f"means must be (K, d) and covs (K, d, d); got {m.shape}, {c.shape}")
    c = np.stack([_as_cov(ci, f"covs[{k}]") for k, ci in enumerate(c)])
    return GMM(w, m, c)


def gmm_sample(gmm: GMM, n: int, rng: np.random.Generator) -> Array:
    """``n`` samples, shape (n, d), from the mixture."""
    k = rng.choice(len(gmm.weights), size=int(n), p=gmm.weights)
    L = np.linalg.cholesky(gmm.covs)
    z = rng.standard_normal((int(n), gmm.means.shape[1]))
    return gmm.means[k] + np.einsum("nij,nj->ni", L[k], z)


def gmm_rf_velocity(t: float, x: Array, gmm0: GMM, gmm1: GMM) -> Array:
    """Rectified velocity of the independent coupling of two Gaussian mixtures (Thm. 5).

    Given the component pair (i, j), :math:`X_t` is Gaussian and the pairwise velocity
    :math:`v^{ij}_t` is affine (:func:`gaussian_rf_velocity`); :math:`v_t(x)=\\sum_{ij}w_{ij}(x)v^{ij}_t(x)`
    with posterior weights :math:`w_{ij}(x)\\propto a_ib_j\\,\\mathcal N(x; m^{ij}_t, \\Sigma^{ij}_t)`.

    Parameters
    ----------
    t : float in [0, 1]
    x : ndarray, shape (n, d)

    Returns
    -------
    ndarray, shape (n, d)
    """
    t = _check_t(t)
    x = np.atleast_2d(np.asarray(x, dtype=float))
    if x.shape[1] != gmm0.means.shape[1] or gmm1.means.shape[1] != x.shape[1]:
        raise ValueError("x and both mixtures must share the dimension d")
    logw, vel = [], []
    for a, m0, S0 in zip(*gmm0):
        for b, m1, S1 in zip(*gmm1):
            A, C = gaussian_rf_velocity_matrix(t, S0, S1)
            mt = (1 - t) * m0 + t * m1
            logw.append(np.log(a * b) + multivariate_normal(mt, C).logpdf(x).reshape(-1))
            vel.append((m1 - m0) + (x - mt) @ A.T)
    logw = np.stack(logw)  # (K0*K1, n)
    w = np.exp(logw - logsumexp(logw, axis=0))
    return np.einsum("kn,knd->nd", w, np.stack(vel))


def gmm_cdf_1d(gmm: GMM, x: Array) -> Array:
    """CDF :math:`F(x)=\\sum_k a_k\\Phi((x-m_k)/\\sigma_k)` of a one-dimensional Gaussian mixture.

    Parameters
    ----------
    gmm : GMM with d = 1
    x : array_like, any shape

    Returns
    -------
    ndarray, the shape of ``x``
    """
    if gmm.means.shape[1] != 1:
        raise ValueError(f"gmm_cdf_1d needs a 1-d mixture; got d={gmm.means.shape[1]}")
    x = np.asarray(x, dtype=float)
    sd = np.sqrt(gmm.covs[:, 0, 0])
    z = (x[..., None] - gmm.means[:, 0]) / sd
    return np.sum(gmm.weights * ndtr(z), axis=-1)


def transport_cdf_error_1d(x0: Array, z1: Array, gmm0: GMM, gmm1: GMM) -> float:
    """Largest :math:`|F_1(z_1^i) - F_0(x_0^i)|` over paired 1-d samples: distance from the 1-d OT map.

    In one dimension the optimal transport map from :math:`\\mu_0` to :math:`\\mu_1` (continuous
    :math:`\\mu_0`) is the monotone rearrangement :math:`F_1^{-1}\\circ F_0`; a map sends every
    :math:`x_0^i` there iff this error is zero, i.e. iff it is increasing *and* pushes :math:`\\mu_0` to
    :math:`\\mu_1` (Prop. 4 asserts this of the 1-rectified flow). It compares the quantile level of
    each pushed point with the quantile level of its source point.

    Parameters
    ----------
    x0, z1 : ndarray, shape (n,) or (n, 1)
        Source points and their images.
    gmm0, gmm1 : GMM with d = 1
        Source and target laws.
    """
    x0 = np.asarray(x0, dtype=float).reshape(-1)
    z1 = np.asarray(z1, dtype=float).reshape(-1)
    if x0.shape != z1.shape:
        raise ValueError(f"x0 and z1 must hold the same number of points; got {x0.size}, {z1.size}")
    return float(np.max(np.abs(gmm_cdf_1d(gmm1, z1) - gmm_cdf_1d(gmm0, x0))))


# ---------------------------------------------------------------- particles, costs, diagnostics
def integrate_flow(
    vfield: Callable[[float, Array], Array],
    x0: Array,
    t_eval: Array,
    rtol: float = 1e-8,
    atol: float = 1e-10,
) -> Array:
    """Particle trajectories of :math:`\\dot x = v_t(x)` (``solve_ivp``, DOP853, all particles at once).

    Parameters
    ----------
    vfield : callable ``(t, x (n, d)) -> (n, d)``
    x0 : ndarray, shape (n, d)
    t_eval : ndarray, shape (m,)
        Increasing times; ``t_eval[0]`` is the start time.

    Returns
    -------
    ndarray, shape (m, n, d)
    """
    x0 = np.atleast_2d(np.asarray(x0, dtype=float))
    t_eval = np.asarray(t_eval, dtype=float)
    if t_eval.ndim != 1 or t_eval.size < 2 or np.any(np.diff(t_eval) <= 0):
        raise ValueError("t_eval must be a strictly increasing 1-d array of length >= 2")
    n, d = x0.shape
    sol = solve_ivp(
        lambda t, y: vfield(t, y.reshape(n, d)).ravel(),
        (t_eval[0], t_eval[-1]), x0.ravel(), method="DOP853", t_eval=t_eval, rtol=rtol, atol=atol,
    )
    if not sol.success:
        raise RuntimeError(sol.message)
    return sol.y.T.reshape(len(t_eval), n, d)


def coupling_cost(x0: Array, x1: Array) -> float:
    """Transport cost :math:`E\\|X_1-X_0\\|^2` of paired samples, shape (n, d) each."""
    x0, x1 = np.asarray(x0, dtype=float), np.asarray(x1, dtype=float)
    if x0.shape != x1.shape:
        raise ValueError(f"x0 and x1 must have equal shapes; got {x0.shape}, {x1.shape}")
    return float(np.mean(np.sum((x1 - x0) ** 2, axis=-1)))


def empirical_ot_cost(x0: Array, x1: Array) -> float:
    """Exact squared-Euclidean OT cost between two uniform point clouds (POT ``ot.emd2``).

    Parameters
    ----------
    x0 : ndarray, shape (n, d)
    x1 : ndarray, shape (m, d)
    """
    x0, x1 = np.atleast_2d(np.asarray(x0, dtype=float)), np.atleast_2d(np.asarray(x1, dtype=float))
    if x0.shape[1] != x1.shape[1]:
        raise ValueError("x0 and x1 must have the same dimension")
    a = np.full(len(x0), 1.0 / len(x0))
    b = np.full(len(x1), 1.0 / len(x1))
    return float(ot.emd2(a, b, ot.dist(x0, x1), numItermax=10_000_000))


def empirical_ot_pairing(x0: Array, x1: Array) -> Array:
    """Optimal assignment between two clouds of equal size n (POT ``ot.emd``): ``x0[i] -> x1[perm[i]]``.

    Returns
    -------
    ndarray of int, shape (n,)
    """
    x0, x1 = np.atleast_2d(np.asarray(x0, dtype=float)), np.atleast_2d(np.asarray(x1, dtype=float))
    if x0.shape != x1.shape:
        raise ValueError(f"x0 and x1 must have equal shapes; got {x0.shape}, {x1.shape}")
    n = len(x0)
    plan = ot.emd(np.full(n, 1.0 / n), np.full(n, 1.0 / n), ot.dist(x0, x1), numItermax=10_000_000)
    return np.asarray(np.argmax(plan, axis=1))


def velocity_jacobian_asymmetry(vfield: Callable[[float, Array], Array], t: float, x: Array, h: float = 1e-5) -> float:
    """Largest relative asymmetry :math:`\\|J-J^T\\|_F/\\|J\\|_F` of the velocity Jacobian at points ``x``.

    Central finite differences. Zero (up to O(h^2)) iff the field is locally a gradient (curl-free).

    Parameters
    ----------
    x : ndarray, shape (n, d)
    """
    x = np.atleast_2d(np.asarray(x, dtype=float))
    n, d = x.shape
    J = np.empty((n, d, d))
    for k in range(d):  # loop over dimensions, not samples
        e = np.zeros(d)
        e[k] = h
        J[:, :, k] = (vfield(t, x + e) - vfield(t, x - e)) / (2 * h)
    num = np.linalg.norm(J - np.transpose(J, (0, 2, 1)), axis=(1, 2))
    return float(np.max(num / np.maximum(np.linalg.norm(J, axis=(1, 2)), 1e-300)))


def rectification_loss_mc(vfield: Callable[[float, Array], Array], x0: Array, x1: Array, t_grid: Array) -> float:
    """Monte Carlo rectification loss :math:`\\text{mean}_{t,i}\\|v_t(x_t^i)-(x_1^i-x_0^i)\\|^2` of a field.

    Parameters
    ----------
    x0, x1 : ndarray, shape (n, d)
        Paired samples of the coupling.
    t_grid : ndarray, shape (m,)
        Times in [0, 1].
    """
    x0, x1 = np.asarray(x0, dtype=float), np.asarray(x1, dtype=float)
    if x0.shape != x1.shape:
        raise ValueError("x0 and x1 must have equal shapes")
    return float(np.mean([coupling_cost(vfield(t, (1 - t) * x0 + t * x1), x1 - x0) for t in t_grid]))


def split_translation_velocity(x: Array, u_pos: Array, u_neg: Array, normal: Array, eps: float = 0.02) -> Array:
    """Gradient field translating the half-space ``<normal, x> > 0`` by ``u_pos`` and the rest by ``u_neg``.

    :math:`\\nabla\\varphi` for :math:`\\varphi(x)=s(x)\\langle u_+,x\\rangle+(1-s(x))\\langle u_-,x\\rangle`,
    :math:`s(x)=\\tfrac12(1+\\tanh(\\langle n,x\\rangle/\\varepsilon))`: a smooth potential whose gradient is
    (up to :math:`e^{-2r/\\varepsilon}`) the constant translations on two components kept a distance
    :math:`r` from the hyperplane (the disconnected-support counterexample, Prop. 10).

    Parameters
    ----------
    x : ndarray, shape (n, d)
    u_pos, u_neg, normal : ndarray, shape (d,)
    eps : float > 0
    """
    if eps <= 0:
        raise ValueError("eps must be positive")
    x = np.atleast_2d(np.asarray(x, dtype=float))
    u_pos, u_neg, normal = (np.asarray(v, dtype=float) for v in (u_pos, u_neg, normal))
    z = x @ normal / eps
    s = 0.5 * (1 + np.tanh(z))
    ds = 0.5 / np.cosh(np.clip(z, -300, 300)) ** 2 / eps
    return s[:, None] * u_pos + (1 - s)[:, None] * u_neg + (ds * (x @ (u_pos - u_neg)))[:, None] * normal


def uniform_disc_sample(n: int, centre: Array, radius: float, rng: np.random.Generator) -> Array:
    """``n`` points uniform in the 2-D disc of given centre and radius, shape (n, 2)."""
    if radius <= 0:
        raise ValueError("radius must be positive")
    r = radius * np.sqrt(rng.random(int(n)))
    a = 2 * np.pi * rng.random(int(n))
    return np.asarray(centre, dtype=float) + np.stack([r * np.cos(a), r * np.sin(a)], axis=1)
