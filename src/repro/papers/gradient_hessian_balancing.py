"""Gradient/Hessian query trade-offs for finding an eps-critical point.

Paper: *Balancing Gradient and Hessian Queries in Non-Convex Optimization* (NeurIPS 2025,
arXiv 2510.20786, https://arxiv.org/abs/2510.20786). Notebook: ``notebooks/gradient-hessian-balancing.py``.

The paper is theory only and we could not read its full text; the method here is *inspired by* the
description of its Algorithm 1 ("Critical-or-Progress") in the abstract and a third-party summary.

Notation map (paper -> ours)
----------------------------
* ``f``, ``grad f``, ``hess f``       -> the three callables wrapped by :class:`CountingOracle`
* ``eps`` (target ``||grad f(x)|| <= eps``) -> ``eps``
* ``n_H`` (Hessian-query budget)     -> ``n_H``
* ``L_1``, ``L_2`` (gradient / Hessian Lipschitz constants) -> ``L1``, ``L2``
* ``delta`` (accuracy of the approximate Hessian ``H``) -> ``delta``; in :func:`balanced_search` a Hessian
  queried at an anchor ``a`` is a ``delta``-approximate Hessian on the ball ``||x - a|| <= delta / L2``
* ``bH = sum_j phi(lambda_j) h_j h_j^T`` (preconditioner) -> :func:`build_bH`
* ``B`` (update range), ``theta`` (momentum), ``eta`` (step) -> ``radius``, ``theta``, ``eta``
* ``D`` (ours): an assumed bound on how far the iterates travel; ``delta = L2 * D / n_H``.

Comparators (ours, for the notebook's tests): :func:`gradient_descent`, :func:`agd_nonconvex`, :func:`lbfgs`
(scipy's L-BFGS-B), :func:`bfgs` (scipy's full-memory BFGS), :func:`barzilai_borwein` and
:func:`scipy_gradient_method` (scipy's nonlinear conjugate gradients, say) use gradients only;
:class:`FiniteDifferenceHessian` builds the Hessian from gradient queries; :func:`newton_then_agd` spends a
Hessian budget on cubic-Newton steps; ``balanced_search(..., max_hess=1)`` and :func:`one_hessian_descent` are
ablations of the extra Hessians, of the acceleration and (``delta=0``) of the shift ``delta``;
:func:`with_spectrum` and :func:`cubic_start_at_level` build problems that differ only in ``L1``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq
from scipy.stats import ortho_group

Array = np.ndarray


class CountingOracle:
    """Wrap ``(f, grad, hess)`` and count every call exactly.

    Attributes ``n_f``, ``n_grad``, ``n_hess`` count the calls; ``grad_norms[k]`` is the norm of the
    gradient returned by the ``(k+1)``-th gradient query (for first-passage counts, :func:`first_hit`).
    """

    def __init__(self, f: Callable[[Array], float], grad: Callable[[Array], Array],
                 hess: Callable[[Array], Array]):
        if not (callable(f) and callable(grad) and callable(hess)):
            raise ValueError("f, grad and hess must be callables")
        self._f, self._grad, self._hess = f, grad, hess
        self.n_f = 0
        self.n_grad = 0
        self.n_hess = 0
        self.grad_norms: list[float] = []

    def value(self, x: Array) -> float:
        self.n_f += 1
        return float(self._f(x))

    def grad(self, x: Array) -> Array:
        self.n_grad += 1
        g = np.asarray(self._grad(x), dtype=float)
        self.grad_norms.append(float(np.linalg.norm(g)))
        return g

    def hess(self, x: Array) -> Array:
        self.n_hess += 1
        return np.asarray(self._hess(x), dtype=float)


# ---------------------------------------------------------------------------------------------- problems

def random_symmetric_matrix(eigenvalues: Array, rng: np.random.Generator) -> Array:
    """``Q diag(eigenvalues) Q^T`` with ``Q`` Haar-random orthogonal (scipy's ``ortho_group``); shape (d, d)."""
    lam = np.asarray(eigenvalues, dtype=float)
    if lam.ndim != 1 or lam.size < 2:
        raise ValueError(f"eigenvalues must be 1-d with at least 2 entries; got shape {lam.shape}")
    Q = ortho_group.rvs(lam.size, random_state=rng)
    A = (Q * lam) @ Q.T
    return (A + A.T) / 2


def with_spectrum(A: Array, eigenvalues: Array) -> Array:
    """``V diag(sorted eigenvalues) V^T`` with ``V`` the eigenvectors of ``A`` (ascending order); shape (d, d).

    The same rotation with another spectrum: a family of problems that differ only in their eigenvalues.
    """
    A = np.asarray(A, dtype=float)
    lam = np.sort(np.asarray(eigenvalues, dtype=float))
    if A.ndim != 2 or A.shape[0] != A.shape[1] or not np.allclose(A, A.T):
        raise ValueError(f"A must be a symmetric square matrix; got shape {A.shape}")
    if lam.shape != (A.shape[0],):
        raise ValueError(f"need {A.shape[0]} eigenvalues; got shape {lam.shape}")
    V = np.linalg.eigh(A)[1]
    B = (V * lam) @ V.T
    return (B + B.T) / 2


def cubic_start_at_level(A: Array, L2: float, u: Array, f0: float) -> Array:
    """The point ``r u`` (``r > 0``, ``u`` normalised) where :func:`cubic_test_function` equals ``f0 > 0``.

    ``f(r u) = r^2 u^T A u / 2 + L2 r^3 / 6`` is 0 at ``r = 0`` and grows without bound, so the largest
    positive root of ``L2 r^3 / 6 + (u^T A u / 2) r^2 - f0`` exists; starts with the same ``f(x_0)`` give the
    same sub-optimality ``Delta`` on problems that share their negative spectrum.
    """
    A = np.asarray(A, dtype=float)
    u = np.asarray(u, dtype=float)
    if not (L2 > 0 and f0 > 0):
        raise ValueError(f"need L2 > 0 and f0 > 0; got L2={L2}, f0={f0}")
    if u.shape != (A.shape[0],) or not np.linalg.norm(u) > 0:
        raise ValueError(f"u must be a non-zero vector of length {A.shape[0]}")
    u = u / np.linalg.norm(u)
    roots = np.roots([L2 / 6, float(u @ A @ u) / 2, 0.0, -f0])
    real = roots[(np.abs(roots.imag) < 1e-9) & (roots.real > 0)].real
    return float(real.max()) * u


def cubic_test_function(A: Array, L2: float):
    """``f(x) = x^T A x / 2 + (L2/6) ||x||^3`` with its gradient and Hessian (a standard hard instance).

    Parameters
    ----------
    A : array, shape (d, d)
        Symmetric, possibly indefinite.
    L2 : float
        Non-negative; the Hessian of ``f`` is ``L2``-Lipschitz.

    Returns
    -------
    f, grad, hess : callables of ``x`` (shape (d,)) returning a float, shape (d,), shape (d, d).
    """
    A = np.asarray(A, dtype=float)
    if A.ndim != 2 or A.shape[0] != A.shape[1] or not np.allclose(A, A.T):
        raise ValueError(f"A must be a symmetric square matrix; got shape {A.shape}")
    if not (L2 >= 0 and math.isfinite(L2)):
        raise ValueError(f"L2 must be finite and >= 0; got {L2}")
    eye = np.eye(A.shape[0])

    def f(x: Array) -> float:
        return float(0.5 * x @ A @ x + L2 / 6 * np.linalg.norm(x) ** 3)

    def grad(x: Array) -> Array:
        return A @ x + 0.5 * L2 * np.linalg.norm(x) * x

    def hess(x: Array) -> Array:
        r = np.linalg.norm(x)
        if r == 0:
            return A.copy()
        return A + 0.5 * L2 * (r * eye + np.outer(x, x) / r)

    return f, grad, hess


def cubic_sublevel_radius(lam_min: float, L2: float, f0: float) -> float:
    """Radius ``R`` with ``{x : f(x) <= f0}`` inside the ball ``||x|| <= R`` for :func:`cubic_test_function`.

    Uses ``f(x) >= min(lam_min, 0) r^2 / 2 + L2 r^3 / 6`` with ``r = ||x||``; ``R`` is the largest real root
    of ``L2 R^3 / 6 + min(lam_min, 0) R^2 / 2 = f0``.
    """
    if not L2 > 0:
        raise ValueError(f"L2 must be > 0; got {L2}")
    roots = np.roots([L2 / 6, min(lam_min, 0.0) / 2, 0.0, -f0])
    real = roots[np.abs(roots.imag) < 1e-9].real
    return float(real.max())


def robust_logreg(X: Array, y: Array, lam: float):
    """Non-convex robust logistic regression: mean log-loss + ``lam * sum_i w_i^2 / (1 + w_i^2)``.

    Parameters
    ----------
    X : array, shape (n, d);  y : array, shape (n,) with entries in {0, 1};  lam : float >= 0.

    Returns
    -------
    f, grad, hess : callables of ``w`` (shape (d,)).
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"X must be (n, d) and y (n,); got {X.shape} and {y.shape}")
    if not np.all((y == 0) | (y == 1)):
        raise ValueError("y must contain only 0 and 1")
    if lam < 0:
        raise ValueError(f"lam must be >= 0; got {lam}")
    n = X.shape[0]

    def f(w: Array) -> float:
        z = X @ w
        return float(np.mean(np.logaddexp(0.0, z) - y * z) + lam * np.sum(w**2 / (1 + w**2)))

    def grad(w: Array) -> Array:
        s = 0.5 * (1 + np.tanh(0.5 * (X @ w)))  # stable sigmoid
        return X.T @ (s - y) / n + lam * 2 * w / (1 + w**2) ** 2

    def hess(w: Array) -> Array:
        s = 0.5 * (1 + np.tanh(0.5 * (X @ w)))
        return (X.T * (s * (1 - s))) @ X / n + np.diag(lam * (2 - 6 * w**2) / (1 + w**2) ** 3)

    return f, grad, hess


def robust_logreg_constants(X: Array, lam: float) -> tuple[float, float]:
    """Upper bounds ``(L1, L2)`` on the gradient and Hessian Lipschitz constants of :func:`robust_logreg`.

    ``L1 = ||X||^2 / (4n) + 2 lam``; ``L2 = max|l'''| max_i ||x_i|| ||X||^2 / n + lam max|g'''|`` with
    ``max|l'''| = 1 / (6 sqrt 3)`` for the log-loss and ``g(w) = w^2/(1+w^2)``.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be (n, d); got {X.shape}")
    n = X.shape[0]
    op2 = np.linalg.norm(X, 2) ** 2
    w = np.linspace(-3, 3, 60001)
    g3 = np.max(np.abs(24 * w * (w**2 - 1) / (1 + w**2) ** 4))
    L1 = op2 / (4 * n) + 2 * lam
    L2 = op2 / n * np.max(np.linalg.norm(X, axis=1)) / (6 * math.sqrt(3)) + lam * g3
    return float(L1), float(L2)


# ---------------------------------------------------------------------------------------------- methods

def build_bH(H: Array, delta: float, L1: float | None = None, c: float = 1.0) -> tuple[Array, Array]:
    """The preconditioner ``bH = sum_j phi(lambda_j) h_j h_j^T`` of the paper's Algorithm 1, and its inverse.

    ``phi(lambda) = (c delta + |lambda|)``, times ``ceil(log2(L1/delta)) / ceil(log2(max(|lambda|, 2 delta)/delta))``
    when ``L1`` is given (the paper's form, as reported, has ``c = 32`` and the log weights). With ``c >= 1`` and
    ``||hess f(x) - H|| <= delta``, ``-bH <= hess f(x) <= bH``: ``f`` is 1-smooth in the ``bH`` norm.

    Parameters
    ----------
    H : array, shape (d, d), symmetric;  delta : float > 0;  L1 : float > delta or None;  c : float > 0.

    Returns
    -------
    bH, bH_inv : arrays, shape (d, d), symmetric positive definite, sharing ``H``'s eigenvectors.
    """
    H = np.asarray(H, dtype=float)
    if H.ndim != 2 or H.shape[0] != H.shape[1] or not np.allclose(H, H.T, atol=1e-10 * (1 + np.abs(H).max())):
        raise ValueError(f"H must be a symmetric square matrix; got shape {H.shape}")
    if not delta > 0 or not c > 0:
        raise ValueError(f"delta and c must be > 0; got delta={delta}, c={c}")
    lam, V = np.linalg.eigh((H + H.T) / 2)
    phi = c * delta + np.abs(lam)
    if L1 is not None:
        if not L1 > delta:
            raise ValueError(f"L1 must exceed delta; got L1={L1}, delta={delta}")
        phi = phi * math.ceil(math.log2(L1 / delta)) / np.ceil(np.log2(np.maximum(np.abs(lam), 2 * delta) / delta))
    return (V * phi) @ V.T, (V / phi) @ V.T


def preconditioned_agd(oracle: CountingOracle, x0: Array, P: Array | float, eps: float, max_grad: int,
                       eta: float = 1.0, theta: float | None = None, center: Array | None = None,
                       radius: float = math.inf, diverge_factor: float = math.inf) -> tuple[Array, str]:
    """Nesterov's accelerated gradient in the norm of ``P^{-1}``, with gradient restarts; our core loop.

    ``y_k = x_k + m_k (x_k - x_{k-1})``, ``x_{k+1} = y_k - eta P grad f(y_k)``, momentum ``m_k = theta`` or
    ``k / (k + 3)``; the counter ``k`` resets when ``<grad f(y_k), x_{k+1} - x_k> > 0`` (O'Donoghue and Candes
    restart). ``theta = 0`` is (preconditioned) gradient descent.

    Parameters
    ----------
    oracle : CountingOracle;  x0 : array, shape (d,);  P : array (d, d) or scalar, positive definite;
    eps : target gradient norm;  max_grad : cap on ``oracle.n_grad``;  center, radius : stop when
    ``||x - center|| > radius`` (the "progress" exit of Critical-or-Progress);  diverge_factor : stop when a
    queried gradient norm exceeds this multiple of the first one, or is not finite (default: never).

    Returns
    -------
    x : array, shape (d,);  status : "critical" (``||grad f(x)|| <= eps``), "progress", "diverged" or "budget".
    """
    if not eps > 0 or not eta > 0 or max_grad < 1:
        raise ValueError(f"need eps > 0, eta > 0, max_grad >= 1; got {eps}, {eta}, {max_grad}")
    if not diverge_factor > 1:
        raise ValueError(f"diverge_factor must be > 1; got {diverge_factor}")
    if theta is not None and not 0 <= theta < 1:
        raise ValueError(f"theta must be in [0, 1); got {theta}")
    x = np.array(x0, dtype=float)
    x_prev = x.copy()
    k = 0
    apply = (lambda g: P * g) if np.isscalar(P) else (lambda g: P @ g)
    first = None
    while oracle.n_grad < max_grad:
        m = theta if theta is not None else k / (k + 3)
        y = x + m * (x - x_prev)
        g = oracle.grad(y)
        if oracle.grad_norms[-1] <= eps:
            return y, "critical"
        first = oracle.grad_norms[-1] if first is None else first
        if not math.isfinite(oracle.grad_norms[-1]) or oracle.grad_norms[-1] > diverge_factor * first:
            return y, "diverged"
        x_new = y - eta * apply(g)
        k = 0 if g @ (x_new - x) > 0 else k + 1
        x_prev, x = x, x_new
        if center is not None and np.linalg.norm(x - center) > radius:
            return x, "progress"
    return x, "budget"


def gradient_descent(oracle: CountingOracle, x0: Array, L1: float, eps: float, max_grad: int) -> tuple[Array, str]:
    """Baseline: ``x <- x - grad f(x) / L1`` until ``||grad f|| <= eps`` (``O(L1 Delta / eps^2)`` gradients)."""
    if not L1 > 0:
        raise ValueError(f"L1 must be > 0; got {L1}")
    return preconditioned_agd(oracle, x0, 1.0 / L1, eps, max_grad, theta=0.0)


def agd_nonconvex(oracle: CountingOracle, x0: Array, L1: float, eps: float, max_grad: int) -> tuple[Array, str]:
    """Baseline: Nesterov's AGD, step ``1/L1``, momentum ``k/(k+3)`` with gradient restarts."""
    if not L1 > 0:
        raise ValueError(f"L1 must be > 0; got {L1}")
    return preconditioned_agd(oracle, x0, 1.0 / L1, eps, max_grad)


def critical_or_progress(oracle: CountingOracle, x0: Array, bH_inv: Array, eps: float, radius: float,
                         max_grad: int, eta: float = 1.0, theta: float | None = None) -> tuple[Array, str]:
    """Algorithm 1 (Critical-or-Progress), our form: AGD in the ``bH`` norm from ``x0`` until it finds an
    eps-critical point or leaves the ball of radius ``B = radius`` around ``x0``."""
    if not radius > 0:
        raise ValueError(f"radius must be > 0; got {radius}")
    return preconditioned_agd(oracle, x0, bH_inv, eps, max_grad, eta=eta, theta=theta, center=np.asarray(x0),
                              radius=radius)


def one_hessian_descent(oracle: CountingOracle, x0: Array, delta: float, eps: float, max_grad: int,
                        c: float = 1.0, L1: float | None = None, theta: float | None = 0.0,
                        diverge_factor: float = math.inf) -> tuple[Array, str]:
    """One Hessian at ``x0``, then descent in its ``bH`` norm with no trust ball; by default without momentum.

    The preconditioner of :func:`build_bH` (``L1`` given: with the reported logarithmic weights) at a fixed
    ``delta``. With ``theta=0`` (the default) the steps are plain preconditioned gradient steps
    ``x <- x - bH^{-1} grad f(x)``: the ablation of the acceleration that Critical-or-Progress runs in the ``bH``
    geometry. ``theta=None`` restores the ``k/(k+3)`` momentum with restarts. ``delta=0`` (without ``L1``) drops
    the shift: the metric is ``|H| = sum_j |lambda_j| h_j h_j^T`` itself, the ablation of ``delta`` (it needs a
    non-singular ``H``). ``diverge_factor`` as in :func:`preconditioned_agd`. One Hessian query.
    """
    H = oracle.hess(np.asarray(x0, dtype=float))
    if delta == 0 and L1 is None:
        lam, V = np.linalg.eigh((H + H.T) / 2)
        if not np.abs(lam).min() > 0:
            raise ValueError("delta = 0 needs a non-singular Hessian")
        bH_inv = (V / np.abs(lam)) @ V.T
    else:
        _, bH_inv = build_bH(H, delta, L1=L1, c=c)
    return preconditioned_agd(oracle, x0, bH_inv, eps, max_grad, theta=theta, diverge_factor=diverge_factor)


def balanced_search(oracle: CountingOracle, x0: Array, eps: float, n_H: int, L2: float, D: float,
                    max_grad: int, L1: float | None = None, c: float = 1.0,
                    max_hess: int | None = None, log_weights: bool = False) -> tuple[Array, str]:
    """Spend ``n_H`` Hessian queries along the path: the outer loop around :func:`critical_or_progress`.

    A Hessian queried at an anchor ``a`` is ``delta``-accurate, ``delta = L2 D / n_H``, on the ball of radius
    ``D / n_H`` around ``a`` (Hessian drift ``<= L2 ||x - a||``). Each phase runs Critical-or-Progress in that
    ball with ``bH = |H| + c min(delta, L1) I`` (capping at ``L1`` keeps ``-bH <= hess f <= bH`` true because
    ``||hess f|| <= L1``). On a "progress" exit a new Hessian is queried at the exit point while the budget
    lasts; once it is spent, the last Hessian is kept and ``delta`` and the radius are doubled (the stale
    Hessian is ``2 delta``-accurate on the doubled ball). Never more than ``n_H`` Hessian queries.

    ``max_hess`` (default ``n_H``) caps the Hessian queries separately from the budget that sets ``delta``:
    ``max_hess=1`` is the ablation "the trust level of budget ``n_H`` with a single Hessian" (no refreshes).
    ``log_weights=True`` (needs ``L1``) multiplies ``phi`` by the reported logarithmic weights of
    :func:`build_bH` wherever ``delta < L1``.

    Returns
    -------
    x : array, shape (d,);  status : "critical" or "budget".

    ``oracle`` may be a :class:`FiniteDifferenceHessian`, whose Hessians are built from gradient queries.
    """
    if isinstance(n_H, bool) or not isinstance(n_H, (int, np.integer)) or n_H < 1:
        raise ValueError(f"n_H must be a positive int; got {n_H!r}")
    if not L2 > 0 or not D > 0:
        raise ValueError(f"L2 and D must be > 0; got L2={L2}, D={D}")
    if L1 is not None and not L1 > 0:
        raise ValueError(f"L1 must be > 0 or None; got {L1}")
    if max_hess is None:
        max_hess = int(n_H)
    if isinstance(max_hess, bool) or not isinstance(max_hess, (int, np.integer)) or not 1 <= max_hess <= n_H:
        raise ValueError(f"max_hess must be an int in [1, n_H]; got {max_hess!r}")
    if log_weights and L1 is None:
        raise ValueError("log_weights needs L1")
    x = np.array(x0, dtype=float)
    radius, left = D / n_H, int(max_hess)
    anchor, H = x, None
    while True:
        if left > 0:
            anchor, H, left = x, oracle.hess(x), left - 1
        else:
            radius *= 2
        delta = L2 * radius if L1 is None else min(L2 * radius, L1)
        _, bH_inv = build_bH(H, delta, L1=L1 if log_weights and delta < L1 else None, c=c)
        x, status = preconditioned_agd(oracle, x, bH_inv, eps, max_grad, center=anchor, radius=radius)
        if status != "progress":
            return x, status


def cubic_newton(oracle: CountingOracle, x0: Array, M: float, eps: float, max_grad: int,
                 max_hess: int | None = None) -> tuple[Array, str]:
    """Reference: cubic-regularised Newton (Nesterov and Polyak 2006), one gradient and one Hessian per step.

    ``s = argmin_s g^T s + s^T H s / 2 + M ||s||^3 / 6`` solved in ``H``'s eigenbasis:
    ``s = -(H + M r/2 I)^{-1} g`` with ``r = ||s||`` found by ``scipy.optimize.brentq``. With ``max_hess``,
    it stops (status "budget") after that many steps, at the point the last step reached.
    """
    if not M > 0:
        raise ValueError(f"M must be > 0; got {M}")
    x = np.array(x0, dtype=float)
    steps = 0
    while oracle.n_grad < max_grad:
        if max_hess is not None and steps >= max_hess:
            return x, "budget"
        g = oracle.grad(x)
        if oracle.grad_norms[-1] <= eps:
            return x, "critical"
        steps += 1
        lam, V = np.linalg.eigh(oracle.hess(x))
        gt = V.T @ g
        r_lo = max(0.0, -2 * lam[0] / M) * (1 + 1e-12) + 1e-15

        def gap(r: float) -> float:
            return float(np.linalg.norm(gt / (lam + M * r / 2)) - r)

        r_hi = r_lo + 1.0
        while gap(r_hi) > 0:
            r_hi *= 2
        r = brentq(gap, r_lo, r_hi, xtol=1e-14) if gap(r_lo) > 0 else r_lo
        x = x - V @ (gt / (lam + M * r / 2))
    return x, "budget"


def newton_then_agd(oracle: CountingOracle, x0: Array, M: float, L1: float, n_newton: int, eps: float,
                    max_grad: int) -> tuple[Array, str]:
    """Naive baseline: spend the Hessian budget on ``n_newton`` cubic-Newton steps, then run plain AGD.

    A classical way to use ``n_newton`` Hessian queries (none of the paper's ideas): :func:`cubic_newton`
    (one gradient and one Hessian per step) capped at ``n_newton`` Hessians, then :func:`agd_nonconvex` with
    step ``1/L1`` from where it stopped. Gradient queries of both phases are counted.
    """
    if isinstance(n_newton, bool) or not isinstance(n_newton, (int, np.integer)) or n_newton < 0:
        raise ValueError(f"n_newton must be an int >= 0; got {n_newton!r}")
    x, status = np.array(x0, dtype=float), "budget"
    if n_newton > 0:
        x, status = cubic_newton(oracle, x, M, eps, max_grad, max_hess=n_newton)
    if status == "critical":
        return x, status
    return agd_nonconvex(oracle, x, L1, eps, max_grad)


class _Hit(Exception):
    """Raised inside scipy's callbacks once a queried gradient meets the target."""


def scipy_gradient_method(oracle: CountingOracle, x0: Array, eps: float, max_grad: int, method: str,
                          options: dict | None = None) -> tuple[Array, str]:
    """Run a gradient method of ``scipy.optimize.minimize`` (``"L-BFGS-B"``, ``"BFGS"``, ``"CG"``, ...) and count it.

    Each evaluation reads ``f`` and ``grad f`` at the same point (a first-order oracle returns both; the paper's
    methods read ``grad f`` only) and counts as one gradient query; no Hessian is queried. scipy's own stopping
    tests are switched off (``gtol = 0``): the run stops at the first queried gradient with
    ``||grad f|| <= eps`` (status "critical"), or after ``max_grad`` gradient queries or when scipy gives up
    (status "budget").
    """
    from scipy.optimize import minimize

    if not eps > 0 or max_grad < 1:
        raise ValueError(f"need eps > 0 and max_grad >= 1; got {eps}, {max_grad}")
    hit: list[Array] = []

    def fun(x: Array) -> tuple[float, Array]:
        if oracle.n_grad >= max_grad:
            raise _Hit
        g = oracle.grad(x)
        if oracle.grad_norms[-1] <= eps:
            hit.append(np.array(x))
            raise _Hit
        return oracle.value(x), g

    try:
        res = minimize(fun, np.array(x0, dtype=float), jac=True, method=method,
                       options=dict(options or {}, maxiter=max_grad + 1, gtol=0.0))
        x = res.x
    except _Hit:
        if hit:
            return hit[0], "critical"
        return np.array(x0, dtype=float), "budget"
    return x, "budget"


def lbfgs(oracle: CountingOracle, x0: Array, eps: float, max_grad: int, memory: int = 10) -> tuple[Array, str]:
    """Naive baseline: scipy's L-BFGS-B (limited-memory quasi-Newton, Wolfe line search), gradients only.

    Curvature is built from the last ``memory`` gradient differences; no Hessian is queried. Counted as in
    :func:`scipy_gradient_method` (each evaluation also reads ``f``).
    """
    if memory < 1:
        raise ValueError(f"memory must be >= 1; got {memory}")
    return scipy_gradient_method(oracle, x0, eps, max_grad, "L-BFGS-B",
                                 dict(maxcor=memory, maxfun=max_grad + 1, ftol=0.0))


def bfgs(oracle: CountingOracle, x0: Array, eps: float, max_grad: int) -> tuple[Array, str]:
    """Naive baseline: scipy's BFGS (full-memory quasi-Newton, Wolfe line search), gradients only.

    It keeps a dense ``d x d`` inverse-Hessian estimate built from every gradient difference, starting from the
    identity; no Hessian is queried. Counted as in :func:`scipy_gradient_method` (each evaluation also reads ``f``).
    """
    return scipy_gradient_method(oracle, x0, eps, max_grad, "BFGS")


def barzilai_borwein(oracle: CountingOracle, x0: Array, eps: float, max_grad: int,
                     step0: float = 1e-3) -> tuple[Array, str]:
    """Naive baseline: gradient descent with the Barzilai-Borwein step ``s^T s / s^T y`` (no ``L1``, no line search).

    ``s`` and ``y`` are the last step and gradient change; the first step, and any step after a pair with
    ``s^T y <= 0`` (negative curvature along ``s``), is ``step0``. Reads gradients only.
    """
    if not eps > 0 or max_grad < 1 or not step0 > 0:
        raise ValueError(f"need eps > 0, max_grad >= 1, step0 > 0; got {eps}, {max_grad}, {step0}")
    x = np.array(x0, dtype=float)
    g = oracle.grad(x)
    a = step0
    while oracle.grad_norms[-1] > eps:
        if oracle.n_grad >= max_grad:
            return x, "budget"
        x_new = x - a * g
        g_new = oracle.grad(x_new)
        s, y = x_new - x, g_new - g
        sy = float(s @ y)
        a = float(s @ s) / sy if sy > 0 else step0
        x, g = x_new, g_new
    return x, "critical"


class FiniteDifferenceHessian:
    """An oracle whose Hessian queries are built from gradient queries (forward differences), all counted.

    Wraps a :class:`CountingOracle`: ``grad`` and ``value`` pass through; ``hess(x)`` queries the gradient at
    ``x`` and at ``x + step e_i`` for every coordinate ``i`` (``d + 1`` gradient queries) and returns the
    symmetrised difference quotient. The wrapped oracle's ``n_hess`` stays 0: a method run on it uses
    gradients only (the paper's route to its bounded-dimension result, in its crudest form).
    """

    def __init__(self, oracle: CountingOracle, step: float = 1e-5):
        if not isinstance(oracle, CountingOracle):
            raise ValueError("oracle must be a CountingOracle")
        if not step > 0:
            raise ValueError(f"step must be > 0; got {step}")
        self.inner, self.step = oracle, float(step)

    @property
    def n_grad(self) -> int:
        return self.inner.n_grad

    @property
    def grad_norms(self) -> list[float]:
        return self.inner.grad_norms

    def value(self, x: Array) -> float:
        return self.inner.value(x)

    def grad(self, x: Array) -> Array:
        return self.inner.grad(x)

    def hess(self, x: Array) -> Array:
        x = np.asarray(x, dtype=float)
        g0 = self.inner.grad(x)
        cols = [(self.inner.grad(x + self.step * e) - g0) / self.step for e in np.eye(x.size)]
        H = np.array(cols).T
        return (H + H.T) / 2


def first_hit(grad_norms: list[float] | Array, eps: float) -> float:
    """Number of gradient queries until the first one with ``||grad f|| <= eps`` (``inf`` if none)."""
    gn = np.asarray(grad_norms, dtype=float)
    idx = np.flatnonzero(gn <= eps)
    return float(idx[0] + 1) if idx.size else math.inf


def query_counts(f: Callable, grad: Callable, hess: Callable, x0s: Array, eps_list: list[float],
                 methods: dict[str, Callable[[CountingOracle, Array], tuple[Array, str]]]) -> dict[str, dict]:
    """Run every method from every start to ``min(eps_list)`` and count oracle calls exactly.

    No method's path depends on ``eps`` before it stops, so the count for a larger ``eps`` is the
    first-passage count :func:`first_hit` on the same run.

    Parameters
    ----------
    x0s : array, shape (n_starts, d);  eps_list : targets;  methods : name -> ``run(oracle, x0, eps)``.

    Returns
    -------
    dict name -> {"grad": array (n_starts, n_eps) of gradient queries (``inf`` if the target was not met),
    "hess": array (n_starts,) of Hessian queries, "trace": gradient norms of the first start's run}.
    """
    x0s = np.atleast_2d(np.asarray(x0s, dtype=float))
    if not eps_list or min(eps_list) <= 0:
        raise ValueError(f"eps_list must be non-empty and positive; got {eps_list}")
    out = {}
    for name, run in methods.items():
        grads = np.empty((len(x0s), len(eps_list)))
        hessians = np.empty(len(x0s), dtype=int)
        trace = None
        for i, x0 in enumerate(x0s):
            oracle = CountingOracle(f, grad, hess)
            run(oracle, x0, min(eps_list))
            grads[i] = [first_hit(oracle.grad_norms, e) for e in eps_list]
            hessians[i] = oracle.n_hess
            trace = oracle.grad_norms if trace is None else trace
        out[name] = {"grad": grads, "hess": hessians, "trace": np.asarray(trace)}
    return out
