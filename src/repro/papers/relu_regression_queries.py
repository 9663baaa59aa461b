r"""General (biased) ReLU regression with label queries: a toy query learner against passive least squares.

Paper map
---------
*Robust Regression of General ReLUs with Queries*, Ilias Diakonikolas, Daniel M. Kane and Mingchen Ma,
NeurIPS 2025 (https://openreview.net/forum?id=soYT1bfsPj). Pure theory, no official code. We read the
abstract only: the paper's robust (agnostic) algorithm and its constants were not available, so the query
learner below is **our toy from the reproduction brief**, for realizable labels with small Gaussian noise.
Notebook: ``notebooks/relu-regression-queries.py``.

Notation (paper -> here):

- input :math:`x \sim N(0, I_d)` -> rows of ``X``, shape ``(n, d)``; by rotation invariance of the data and
  of both learners the notebook takes :math:`w^* = e_1`, so :math:`u = w^*\cdot x` is ``X[:, 0]``;
- target ReLU :math:`\sigma(w\cdot x - t)`, :math:`\sigma(z) = \max(z, 0)` -> :func:`relu_target` with
  ``w`` (shape ``(d,)``) and bias ``t``; labels :math:`y = \sigma(w^*\cdot x - t^*) + \xi`,
  :math:`\xi \sim N(0, s^2)` (``sigma`` in the code, the label noise);
- bias :math:`p = P(w^*\cdot x > t^*) = \bar\Phi(t^*)` for a unit :math:`w^*` -> :func:`relu_bias`;
- squared loss of the zero function, :math:`E[\sigma(z - t)^2]` -> :func:`relu_square_mean` (closed form);
- target accuracy :math:`\epsilon` -> ``eps``; the error of a hypothesis :math:`(\hat w, \hat t)` is
  measured as its **excess** squared loss :math:`E_x[(\sigma(\hat w\cdot x-\hat t)-\sigma(w^*\cdot x-t^*))^2]`
  -> :func:`excess_loss` (the label noise adds :math:`s^2` to every hypothesis' loss);
- the family on which passive learning is hard: for each :math:`\epsilon`, the bias :math:`t_\epsilon` with
  :math:`E[\sigma(z-t_\epsilon)^2] = c\,\epsilon` (the zero function misses by the factor ``c``)
  -> :func:`hard_bias`.

Methods
-------
* Passive (:func:`passive_excess_curve`): ordinary least squares of ``y`` on ``(x, 1)`` over the samples
  whose label exceeds a threshold ``tau`` (the active side of the ReLU), evaluated along one stream of
  Gaussian samples at increasing sample sizes.
* Leverage-score sampling (:func:`leverage_excess_curve`), a non-adaptive pool-based learner: the same least
  squares on labels of points drawn with probability proportional to their leverage :math:`1+\lVert x\rVert^2`.
* Adaptive pool-based learner (:func:`pool_adaptive_labels`, the independent review's baseline): labels only
  points of a fixed Gaussian pool, first at random until one is positive, then the pool points ranked highest
  by the current fit, four at a time.
* Query learner (ours; :func:`search_positive` then :func:`local_excess_curve`): ask for labels at fresh
  Gaussian points until one exceeds ``tau`` (at most ``cap`` of them; if none does, return the zero
  function: the :math:`\min\{1/p, 1/\epsilon\}` branch), then ask for labels at points
  :math:`x_0 + h g_j`, :math:`g_j \sim N(0, I_d)`, around the point found, with :math:`h = y_0/4` so that
  they stay on the active side, and fit ``(w, t)`` by least squares on those labels (locally the ReLU is
  linear).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import brentq
from scipy.special import erfcx
from scipy.stats import norm

_SQRT_HALF_PI = math.sqrt(math.pi / 2)
_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(200)
_U_SPAN = 14.0  # the cross-term integral runs over u in [t*, t* + 14]: the standard normal tail beyond is < 1e-44


# --------------------------------------------------------------------------- validation helpers
def _finite(x: ArrayLike, name: str) -> np.ndarray:
    a = np.asarray(x, dtype=np.float64)
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite; got {x!r}")
    return a


def _positive(x: float, name: str, allow_zero: bool = False) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)) or not math.isfinite(x):
        raise ValueError(f"{name} must be a finite number; got {x!r}")
    if x < 0 or (x == 0 and not allow_zero):
        raise ValueError(f"{name} must be {'>= 0' if allow_zero else '> 0'}; got {x!r}")
    return float(x)


def _int_at_least(n: int, least: int, name: str) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < least:
        raise ValueError(f"{name} must be an int >= {least}; got {n!r}")
    return int(n)


def _grid(n_grid: ArrayLike, name: str, least: int = 1) -> np.ndarray:
    g = np.asarray(n_grid)
    if g.ndim != 1 or g.size < 1 or not np.issubdtype(g.dtype, np.integer) or np.any(g < least) or np.any(np.diff(g) <= 0):
        raise ValueError(f"{name} must be a 1-d increasing int array with entries >= {least}; got {n_grid!r}")
    return g.astype(np.int64)


# --------------------------------------------------------------------------- closed forms
def relu_square_mean(t: ArrayLike) -> np.ndarray | float:
    r"""Closed form of :math:`E[\sigma(z - t)^2]` for :math:`z \sim N(0, 1)` (the loss of the zero function).

    .. math:: E[\max(z-t, 0)^2] = (1 + t^2)\,\bar\Phi(t) - t\,\varphi(t)
              = \varphi(t)\,\big[(1+t^2)\,R(t) - t\big],

    with the Mills ratio :math:`R(t) = \bar\Phi(t)/\varphi(t) = \sqrt{\pi/2}\,\mathrm{erfcx}(t/\sqrt2)`,
    used for ``t > 0`` to avoid the cancellation of the first form in the tail. The brief's section 3: this
    is the loss of the zero hypothesis for a target of bias ``t`` and unit weight vector.

    Parameters
    ----------
    t : float or array_like, any shape
        Bias (threshold); finite.

    Returns
    -------
    float or np.ndarray, same shape as ``t``
        Positive; 1/2 at ``t = 0``, :math:`\approx 1 + t^2` for ``t -> -inf``, :math:`\approx 2\varphi(t)/t^3`
        for ``t -> +inf``.
    """
    tt = _finite(t, "t")
    pos = tt > 0
    tp = np.where(pos, tt, 0.0)
    mills = _SQRT_HALF_PI * erfcx(tp / math.sqrt(2))
    upper = norm.pdf(tp) * ((1 + tp**2) * mills - tp)
    tn = np.where(pos, 0.0, tt)
    lower = (1 + tn**2) * norm.sf(tn) - tn * norm.pdf(tn)
    out = np.where(pos, upper, lower)
    return float(out) if out.ndim == 0 else out


def relu_bias(t: ArrayLike) -> np.ndarray | float:
    r"""The bias :math:`p = P(z > t) = \bar\Phi(t)` of a ReLU with unit weight vector (abstract's :math:`p`).

    Parameters
    ----------
    t : float or array_like, any shape

    Returns
    -------
    float or np.ndarray, same shape as ``t``
    """
    out = norm.sf(_finite(t, "t"))
    return float(out) if np.ndim(out) == 0 else out


def hard_bias(eps: float, factor: float = 2.0) -> float:
    r"""The bias :math:`t_\epsilon` with :math:`E[\sigma(z - t_\epsilon)^2] = \text{factor}\cdot\epsilon`.

    On this family the zero function misses the accuracy :math:`\epsilon` by ``factor``, so a learner
    must find the active region, whose mass :math:`p(t_\epsilon)` is only a few times :math:`\epsilon`: the
    setting of the abstract's :math:`\tilde\Omega(d/\epsilon)` lower bound for pool-based learners (our
    reading of it; the paper's hard instance was not available).

    Parameters
    ----------
    eps : float in (0, 1/(2 factor))
    factor : float > 0

    Returns
    -------
    float
        The unique root (``relu_square_mean`` is strictly decreasing), found with scipy's ``brentq``.
    """
    eps = _positive(eps, "eps")
    factor = _positive(factor, "factor")
    target = eps * factor
    if target >= 0.5:
        raise ValueError(f"factor * eps must be < 1/2 (the loss of the zero function at t = 0); got {target}")
    return float(brentq(lambda t: relu_square_mean(t) - target, 0.0, 40.0, xtol=1e-14, rtol=1e-14))


def relu_target(X: ArrayLike, w: ArrayLike, t: float) -> np.ndarray:
    r"""The ReLU :math:`\sigma(Xw - t)`.

    Parameters
    ----------
    X : array_like, shape (..., d)
    w : array_like, shape (d,)
    t : float

    Returns
    -------
    np.ndarray, shape (...)
    """
    X = _finite(X, "X")
    w = _finite(w, "w")
    if w.ndim != 1 or X.shape[-1] != w.shape[0]:
        raise ValueError(f"X must have shape (..., d) and w shape (d,); got {X.shape} and {w.shape}")
    return np.maximum(X @ w - float(_finite(t, "t")), 0.0)


def _relu_gauss_mean(m: np.ndarray, s: np.ndarray) -> np.ndarray:
    """E[relu(m + s z)] for z ~ N(0, 1) and s >= 0 (elementwise; relu(m) where s = 0)."""
    safe = np.where(s > 0, s, 1.0)
    a = m / safe
    return np.where(s > 0, safe * (a * norm.cdf(a) + norm.pdf(a)), np.maximum(m, 0.0))


def excess_loss(w_hat: ArrayLike, t_hat: ArrayLike, w_star: ArrayLike, t_star: float) -> np.ndarray | float:
    r"""Excess squared loss :math:`E_{x\sim N(0,I_d)}[(\sigma(\hat w\cdot x - \hat t) - \sigma(w^*\cdot x - t^*))^2]`.

    Only the projections :math:`u = w^*\cdot x` and :math:`v = \hat w\cdot x` matter. With
    :math:`|w^*| = 1`, :math:`c = \hat w\cdot w^*`, :math:`v \mid u \sim N(cu, |\hat w|^2 - c^2)`, the loss is
    :math:`A + B - 2C` with :math:`A = E[\sigma(u-t^*)^2] =` ``relu_square_mean(t*)``,
    :math:`B = |\hat w|^2` ``relu_square_mean``:math:`(\hat t/|\hat w|)`, and the cross term
    :math:`C = \int_{t^*}^\infty (u-t^*)\,E[\sigma(v-\hat t)\mid u]\,\varphi(u)\,du`, whose inner mean is
    closed form and whose outer integral is done by 200-point Gauss-Legendre on :math:`[t^*, t^*+14]`, split
    at the kink :math:`u = \hat t/c` when the hypothesis is parallel to :math:`w^*`. Exact to rounding
    for practical purposes (unit-tested against Monte Carlo and scipy quadrature).

    Parameters
    ----------
    w_hat : array_like, shape (d,) or (m, d)
        Hypotheses' weight vectors (a zero row is the zero function when ``t_hat >= 0``).
    t_hat : float or array_like, shape () or (m,)
    w_star : array_like, shape (d,), unit norm
    t_star : float

    Returns
    -------
    float or np.ndarray, shape (m,)
    """
    W = _finite(w_hat, "w_hat")
    single = W.ndim == 1
    W = np.atleast_2d(W)
    ws = _finite(w_star, "w_star")
    if ws.ndim != 1 or W.ndim != 2 or W.shape[1] != ws.shape[0]:
        raise ValueError(f"w_hat must have shape (d,) or (m, d) and w_star shape (d,); got {W.shape} and {ws.shape}")
    if abs(float(ws @ ws) - 1.0) > 1e-9:
        raise ValueError(f"w_star must have unit norm; got norm {math.sqrt(float(ws @ ws))}")
    th = np.broadcast_to(_finite(t_hat, "t_hat"), (W.shape[0],)).astype(np.float64)
    ts = float(_finite(t_star, "t_star"))
    c = W @ ws                                         # (m,)
    nrm2 = np.einsum("ij,ij->i", W, W)
    tau = np.sqrt(np.maximum(nrm2 - c**2, 0.0))
    tau = np.where(tau <= 1e-12 * np.sqrt(np.maximum(nrm2, 1e-300)), 0.0, tau)
    A = relu_square_mean(ts)
    nw = np.sqrt(nrm2)
    B = np.where(nw > 0, nrm2 * relu_square_mean(np.where(nw > 0, th / np.where(nw > 0, nw, 1.0), 0.0)),
                 np.maximum(-th, 0.0) ** 2)
    # split the outer integral at the kink of relu(c u - t_hat) when tau = 0
    lo, hi = ts, ts + _U_SPAN
    kink = np.where((tau == 0) & (c != 0), th / np.where(c != 0, c, 1.0), lo)
    kink = np.clip(kink, lo, hi)

    def piece(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        half = (b - a)[:, None] / 2
        u = (a + b)[:, None] / 2 + half * _GL_NODES[None, :]           # (m, nodes)
        inner = _relu_gauss_mean(c[:, None] * u - th[:, None], np.broadcast_to(tau[:, None], u.shape))
        return half[:, 0] * (((u - ts) * inner * norm.pdf(u)) @ _GL_WEIGHTS)

    C = piece(np.full_like(kink, lo), kink) + piece(kink, np.full_like(kink, hi))
    out = np.maximum(A + B - 2 * C, 0.0)
    return float(out[0]) if single else out


# --------------------------------------------------------------------------- learners
def ols_relu_fit(X: ArrayLike, y: ArrayLike, tau: float) -> tuple[np.ndarray, float]:
    r"""Least squares of ``y`` on ``(x, 1)`` over the rows with ``y > tau``, read as a ReLU :math:`(\hat w, \hat t)`.

    On the active side the ReLU is the linear function :math:`w\cdot x - t`, so the fit of
    :math:`y \approx w\cdot x + b` gives :math:`\hat t = -\hat b`. With fewer than ``d + 2`` such rows the
    fit is not determined and the zero function (``w = 0``, ``t = 0``) is returned.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
    tau : float >= 0
        Label threshold (the notebook uses five noise standard deviations).

    Returns
    -------
    w_hat : np.ndarray, shape (d,)
    t_hat : float
    """
    X = _finite(X, "X")
    y = _finite(y, "y")
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"X must have shape (n, d) and y shape (n,); got {X.shape} and {y.shape}")
    tau = _positive(tau, "tau", allow_zero=True)
    d = X.shape[1]
    keep = y > tau
    if keep.sum() < d + 2:
        return np.zeros(d), 0.0
    A = np.hstack([X[keep], np.ones((int(keep.sum()), 1))])
    coef, *_ = np.linalg.lstsq(A, y[keep], rcond=None)
    return coef[:d], float(-coef[d])


def ols_relu_fit_prefixes(X: ArrayLike, y: ArrayLike, tau: float, sizes: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    r""":func:`ols_relu_fit` on each prefix ``X[:n], y[:n]`` for ``n`` in ``sizes``, vectorised.

    The normal equations of the kept rows are accumulated over the prefixes (Gram matrices of
    :math:`(x - x_{\mathrm{ref}}, 1)`, centred at the first kept row for conditioning) and solved as one batch;
    prefixes with fewer than ``d + 2`` kept rows give the zero function. Equal to :func:`ols_relu_fit` on every
    prefix up to rounding (unit-tested).

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
    tau : float >= 0
    sizes : array_like of int, shape (k,), increasing, each <= n

    Returns
    -------
    w_hat : np.ndarray, shape (k, d)
    t_hat : np.ndarray, shape (k,)
    """
    X = _finite(X, "X")
    y = _finite(y, "y")
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"X must have shape (n, d) and y shape (n,); got {X.shape} and {y.shape}")
    tau = _positive(tau, "tau", allow_zero=True)
    sizes = _grid(sizes, "sizes")
    if sizes[-1] > X.shape[0]:
        raise ValueError(f"sizes must not exceed the number of rows {X.shape[0]}; got {sizes[-1]}")
    keep = np.flatnonzero(y[: sizes[-1]] > tau)
    return _ols_on_kept_prefixes(X[keep], y[keep], np.searchsorted(keep, sizes, side="left"))


def _ols_on_kept_prefixes(Xk: np.ndarray, yk: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """OLS of yk on (Xk, 1) over the first ends[j] kept rows, for every j (zero function below d + 2 rows)."""
    d = Xk.shape[1]
    W = np.zeros((ends.size, d))
    T = np.zeros(ends.size)
    if ends[-1] < d + 2:
        return W, T
    ref = Xk[0]
    A = np.hstack([Xk[: ends[-1]] - ref, np.ones((int(ends[-1]), 1))])
    starts = np.concatenate([[0], ends[:-1]])
    G = np.stack([A[a:b].T @ A[a:b] for a, b in zip(starts, ends)]).cumsum(axis=0)
    r = np.stack([A[a:b].T @ yk[a:b] for a, b in zip(starts, ends)]).cumsum(axis=0)
    ok = ends >= d + 2
    coef = np.linalg.solve(G[ok], r[ok][..., None])[..., 0]
    W[ok] = coef[:, :d]
    T[ok] = coef[:, :d] @ ref - coef[:, d]
    return W, T


def passive_excess_curve(d: int, t: float, sigma: float, tau: float, n_grid: ArrayLike, trials: int,
                         rng: np.random.Generator) -> np.ndarray:
    r"""Excess loss of passive least squares (:func:`ols_relu_fit`) after ``n`` Gaussian labelled samples.

    For each trial one stream of samples :math:`x \sim N(0, I_d)` with labels
    :math:`y = \sigma(x_1 - t) + \xi` (:math:`w^* = e_1`) is drawn; the fit at sample size ``n`` uses its
    first ``n`` samples. Exact shortcut: only :math:`x_1` and :math:`\xi` are drawn for every sample; the
    other ``d - 1`` coordinates, independent of the label, are drawn only for the samples the fit keeps.

    Parameters
    ----------
    d : int >= 1
    t : float
        Bias :math:`t^*` of the target.
    sigma : float >= 0
        Label noise standard deviation.
    tau : float >= 0
        Label threshold of the fit.
    n_grid : array_like of int, shape (k,), increasing
        Sample sizes (labels) at which the fit is evaluated.
    trials : int >= 1
    rng : numpy.random.Generator

    Returns
    -------
    np.ndarray, shape (trials, k)
        Excess loss (:func:`excess_loss`) of the fit at each sample size.
    """
    d = _int_at_least(d, 1, "d")
    trials = _int_at_least(trials, 1, "trials")
    sigma = _positive(sigma, "sigma", allow_zero=True)
    grid = _grid(n_grid, "n_grid")
    ws = np.eye(d)[0]
    out = np.empty((trials, grid.size))
    for r in range(trials):
        u = rng.standard_normal(grid[-1])
        y = np.maximum(u - t, 0.0) + sigma * rng.standard_normal(grid[-1])
        keep = np.flatnonzero(y > tau)
        X = np.empty((keep.size, d))
        X[:, 0] = u[keep]
        X[:, 1:] = rng.standard_normal((keep.size, d - 1))
        fit = _ols_on_kept_prefixes(X, y[keep], np.searchsorted(keep, grid, side="left"))
        out[r] = excess_loss(*fit, ws, t)
    return out


def leverage_excess_curve(d: int, t: float, sigma: float, tau: float, n_grid: ArrayLike, trials: int,
                          rng: np.random.Generator) -> np.ndarray:
    r"""Excess loss of least squares on labels chosen by leverage-score sampling from a Gaussian pool.

    A naive pool-based active learner: it asks for the labels of pool points drawn with probability
    proportional to their leverage score in the design :math:`(x, 1)`, then fits :func:`ols_relu_fit` (labels
    above ``tau``, unweighted: the model is exactly linear on the active side, so re-weighting would only add
    variance). For a pool much larger than ``d`` the pool's Gram matrix is close to its expectation
    :math:`N\,I_{d+1}`, so the leverage of a point is proportional to :math:`1 + \lVert x\rVert^2`; we sample
    that limit exactly. The density :math:`(1+\lVert x\rVert^2)\varphi(x)/(d+1)` is a uniform mixture of
    :math:`d+1` parts: :math:`\varphi` itself, and for each coordinate :math:`j` the law with
    :math:`x_j^2\varphi(x)`, in which :math:`|x_j|` is chi-distributed with 3 degrees of freedom (random
    sign) and the other coordinates are standard normal. As in :func:`passive_excess_curve`, :math:`w^*=e_1`
    and the other ``d - 1`` coordinates are drawn only for the samples the fit keeps.

    Parameters
    ----------
    d : int >= 1
    t : float
        Bias :math:`t^*` of the target.
    sigma : float >= 0
        Label noise standard deviation.
    tau : float >= 0
        Label threshold of the fit.
    n_grid : array_like of int, shape (k,), increasing
        Numbers of labels at which the fit is evaluated.
    trials : int >= 1
    rng : numpy.random.Generator

    Returns
    -------
    np.ndarray, shape (trials, k)
        Excess loss (:func:`excess_loss`) of the fit at each number of labels.
    """
    d = _int_at_least(d, 1, "d")
    trials = _int_at_least(trials, 1, "trials")
    sigma = _positive(sigma, "sigma", allow_zero=True)
    tau = _positive(tau, "tau", allow_zero=True)
    grid = _grid(n_grid, "n_grid")
    ws = np.eye(d)[0]
    n = int(grid[-1])
    out = np.empty((trials, grid.size))
    for r in range(trials):
        part = rng.integers(0, d + 1, n)  # 0: phi itself; j >= 1: x_j^2 phi (coordinate j - 1)
        u = rng.standard_normal(n)
        on_u = part == 1
        u[on_u] = np.sqrt(rng.chisquare(3, on_u.sum())) * rng.choice([-1.0, 1.0], on_u.sum())
        y = np.maximum(u - t, 0.0) + sigma * rng.standard_normal(n)
        keep = np.flatnonzero(y > tau)
        X = np.empty((keep.size, d))
        X[:, 0] = u[keep]
        X[:, 1:] = rng.standard_normal((keep.size, d - 1))
        pk = part[keep]
        rows = np.flatnonzero(pk >= 2)
        X[rows, pk[rows] - 1] = np.sqrt(rng.chisquare(3, rows.size)) * rng.choice([-1.0, 1.0], rows.size)
        fit = _ols_on_kept_prefixes(X, y[keep], np.searchsorted(keep, grid, side="left"))
        out[r] = excess_loss(*fit, ws, t)
    return out


def search_positive(t: float, sigma: float, tau: float, cap: int | None, trials: int,
                    rng: np.random.Generator, chunk: int = 4096) -> dict[str, np.ndarray]:
    r"""The query learner's first phase: label queries at fresh Gaussian points until a label exceeds ``tau``.

    The search stops at the first hit or after ``cap`` queries (``None``: no cap). Its expected cost is
    about :math:`1/P(y > \tau)`, capped at ``cap``: with ``cap`` of order :math:`1/\epsilon` this is the
    :math:`\min\{1/p, 1/\epsilon\}` term of the abstract's bound. Only :math:`u = w^*\cdot x` and the noise are
    simulated (the point's other coordinates are drawn later, independently).

    Parameters
    ----------
    t, sigma, tau : float
    cap : int >= 1 or None
    trials : int >= 1
    rng : numpy.random.Generator
    chunk : int
        Draws per vectorised batch.

    Returns
    -------
    dict with arrays of shape (trials,)
        ``queries`` (int, labels spent), ``found`` (bool), ``u0`` (the hit's :math:`w^*\cdot x`, nan if not
        found) and ``y0`` (its label, nan if not found).
    """
    trials = _int_at_least(trials, 1, "trials")
    if cap is not None:
        cap = _int_at_least(cap, 1, "cap")
    chunk = _int_at_least(chunk, 1, "chunk")
    queries = np.zeros(trials, dtype=np.int64)
    found = np.zeros(trials, dtype=bool)
    u0 = np.full(trials, np.nan)
    y0 = np.full(trials, np.nan)
    for r in range(trials):
        while not found[r] and (cap is None or queries[r] < cap):
            k = chunk if cap is None else min(chunk, cap - int(queries[r]))
            u = rng.standard_normal(k)
            y = np.maximum(u - t, 0.0) + sigma * rng.standard_normal(k)
            hit = np.flatnonzero(y > tau)
            if hit.size:
                found[r], u0[r], y0[r] = True, u[hit[0]], y[hit[0]]
                queries[r] += hit[0] + 1
            else:
                queries[r] += k
    return {"queries": queries, "found": found, "u0": u0, "y0": y0}


def local_excess_curve(u0: ArrayLike, y0: ArrayLike, d: int, t: float, sigma: float, tau: float,
                       n_grid: ArrayLike, rng: np.random.Generator, step_ratio: float = 0.25) -> np.ndarray:
    r"""The query learner's second phase: excess loss after ``n`` local label queries around the point found.

    Around a point :math:`x_0` with label :math:`y_0 > \tau` (margin about :math:`y_0`), query
    :math:`x_0 + h g_j`, :math:`g_j \sim N(0, I_d)`, :math:`h = ` ``step_ratio`` :math:`\cdot y_0`; the margin
    moves by :math:`h\,(w^*\cdot g_j) \sim N(0, h^2)`, so with ratio 1/4 the points stay on the active side
    with probability :math:`1 - \bar\Phi(4)` each. Fit :func:`ols_relu_fit` on the first ``n`` queries plus
    the point found. A trial whose search found nothing returns the zero function (``w = 0``, ``t = 0``).

    Parameters
    ----------
    u0, y0 : array_like, shape (trials,)
        From :func:`search_positive` (nan where nothing was found).
    d : int >= 1
    t, sigma, tau : float
    n_grid : array_like of int, shape (k,), increasing
        Numbers of local queries.
    rng : numpy.random.Generator
    step_ratio : float > 0

    Returns
    -------
    np.ndarray, shape (trials, k)
    """
    d = _int_at_least(d, 1, "d")
    u0 = np.asarray(u0, dtype=np.float64)
    y0 = np.asarray(y0, dtype=np.float64)
    if u0.ndim != 1 or y0.shape != u0.shape:
        raise ValueError(f"u0 and y0 must be 1-d of equal length; got {u0.shape} and {y0.shape}")
    sigma = _positive(sigma, "sigma", allow_zero=True)
    step_ratio = _positive(step_ratio, "step_ratio")
    grid = _grid(n_grid, "n_grid")
    ws = np.eye(d)[0]
    out = np.empty((u0.size, grid.size))
    for r in range(u0.size):
        if not np.isfinite(u0[r]):
            out[r] = excess_loss(np.zeros(d), 0.0, ws, t)
            continue
        x0 = rng.standard_normal(d)
        x0[0] = u0[r]
        h = step_ratio * y0[r]
        X = np.vstack([x0, x0 + h * rng.standard_normal((grid[-1], d))])
        y = np.maximum(X[:, 0] - t, 0.0) + sigma * rng.standard_normal(grid[-1] + 1)
        y[0] = y0[r]
        out[r] = excess_loss(*ols_relu_fit_prefixes(X, y, tau, grid + 1), ws, t)
    return out


def labels_to_reach(n_grid: ArrayLike, excess: ArrayLike, eps: float) -> np.ndarray | float:
    r"""Labels at which an excess-loss curve first reaches ``eps`` (log-log interpolation), per curve.

    Parameters
    ----------
    n_grid : array_like, shape (k,), increasing, positive
        Numbers of labels at which the curves were evaluated.
    excess : array_like, shape (k,) or (trials, k)
        Excess loss at each grid point (non-negative), one curve per row.
    eps : float > 0

    Returns
    -------
    float or np.ndarray, shape () or (trials,)
        For each curve, the first grid point where ``excess <= eps``, interpolated linearly in
        :math:`(\log n, \log \text{excess})` from the previous grid point; ``inf`` if it is never reached,
        ``n_grid[0]`` if it is reached at once.
    """
    n = np.asarray(n_grid, dtype=np.float64)
    e = _finite(excess, "excess")
    single = e.ndim == 1
    e = np.atleast_2d(e)
    if n.ndim != 1 or e.ndim != 2 or e.shape[1] != n.size or np.any(n <= 0) or np.any(np.diff(n) <= 0):
        raise ValueError("n_grid must be 1-d, positive and increasing, and excess of shape (k,) or (trials, k)")
    if np.any(e < 0):
        raise ValueError("excess must be non-negative")
    eps = _positive(eps, "eps")
    below = e <= eps
    k = np.argmax(below, axis=1)
    out = np.full(e.shape[0], np.inf)
    reached = below.any(axis=1)
    first = reached & (k == 0)
    out[first] = n[0]
    mid = reached & (k > 0)
    rows = np.flatnonzero(mid)
    kk = k[rows]
    le0 = np.log(np.maximum(e[rows, kk - 1], 1e-300))
    le1 = np.log(np.maximum(e[rows, kk], 1e-300))
    ln0, ln1 = np.log(n[kk - 1]), np.log(n[kk])
    frac = np.where(le0 > le1, (le0 - math.log(eps)) / np.where(le0 > le1, le0 - le1, 1.0), 1.0)
    out[rows] = np.exp(ln0 + np.clip(frac, 0.0, 1.0) * (ln1 - ln0))
    return float(out[0]) if single else out


def pool_adaptive_labels(d: int, t: float, sigma: float, tau: float, eps: float, pool: int, trials: int,
                         rng: np.random.Generator, batch: int = 4, max_labels: int | None = None) -> np.ndarray:
    r"""Labels an adaptive pool-based active learner needs to reach excess loss ``eps`` (the skeptic's baseline).

    A *pool-based* learner: it may only ask for labels of the points of a fixed Gaussian pool of ``pool``
    points drawn in advance (no synthesised queries). Phase 1: label pool points in random order until one
    label exceeds ``tau``. Phase 2: score the unlabelled pool points by :math:`v\cdot x`, where ``v`` is the
    mean of the positive points found so far, or, once there are at least ``d + 2`` of them, the weight
    vector of :func:`ols_relu_fit` on the labelled points; label the ``batch`` best, refit, and stop as soon as
    the fit's :func:`excess_loss` is at most ``eps``. (The independent review's baseline, with its batch of 4.)

    The fit only uses labels above ``tau``, so a batch without a positive label changes neither ``v`` nor the
    ranking: the learner then labels the next batch of the same ranking. We use that to jump directly to the
    batch holding the best-ranked unlabelled positive point; the label count is the same as labelling batch
    by batch. As elsewhere :math:`w^* = e_1`.

    Parameters
    ----------
    d : int >= 2
    t : float
        Bias :math:`t^*` of the target.
    sigma : float >= 0
        Label noise standard deviation.
    tau : float >= 0
        Label threshold of the fit.
    eps : float > 0
        Target excess loss.
    pool : int >= 1
        Size of the pool (unlabelled Gaussian points, drawn afresh for each trial).
    trials : int >= 1
    rng : numpy.random.Generator
    batch : int >= 1
        Points labelled per round of phase 2.
    max_labels : int or None
        Give up (count ``inf``) once this many labels are spent; ``None``: the whole pool.

    Returns
    -------
    np.ndarray, shape (trials,)
        Labels spent when the excess first falls to ``eps`` or below; ``inf`` if it never does within the pool
        or ``max_labels``.
    """
    d = _int_at_least(d, 2, "d")
    trials = _int_at_least(trials, 1, "trials")
    pool = _int_at_least(pool, 1, "pool")
    batch = _int_at_least(batch, 1, "batch")
    sigma = _positive(sigma, "sigma", allow_zero=True)
    tau = _positive(tau, "tau", allow_zero=True)
    eps = _positive(eps, "eps")
    cap = pool if max_labels is None else min(pool, _int_at_least(max_labels, 1, "max_labels"))
    ws = np.eye(d)[0]
    out = np.full(trials, np.inf)
    for r in range(trials):
        X = rng.standard_normal((pool, d))
        y = np.maximum(X[:, 0] - t, 0.0) + sigma * rng.standard_normal(pool)
        pos = y > tau
        order = rng.permutation(pool)
        hits = np.flatnonzero(pos[order])
        if hits.size == 0 or hits[0] + 1 > cap:
            continue
        n = int(hits[0]) + 1
        labelled = np.zeros(pool, dtype=bool)
        labelled[order[:n]] = True
        found = [int(order[hits[0]])]
        while True:
            P = np.array(found)
            if P.size >= d + 2:
                w, th = ols_relu_fit(X[P], y[P], tau)
                if excess_loss(w, th, ws, t) <= eps:
                    out[r] = n
                    break
                v = w
            else:
                v = X[P].mean(axis=0)
            s = X @ v
            s[labelled] = -np.inf
            cand = np.flatnonzero(pos & ~labelled)
            if cand.size == 0:
                break
            rank = int(np.sum(s > s[cand].max()))  # unlabelled points ranked above the best positive
            m = (rank // batch + 1) * batch
            if n + m > cap:
                break
            n += m
            take = np.argpartition(-s, m - 1)[:m]
            labelled[take] = True
            found.extend(int(i) for i in take[pos[take]])
    return out
