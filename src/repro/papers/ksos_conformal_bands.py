r"""Scalable and adaptive prediction bands with kernel sum-of-squares (a kSoS-style miniature).

Paper map
---------
*Scalable and adaptive prediction bands with kernel sum-of-squares*, Louis Allain, Sébastien da Veiga,
Brian Staber, NeurIPS 2025, https://arxiv.org/abs/2505.21039 (code on GitLab, outside our index: the
objective below is our kSoS-style formulation after Liang's SDP band, not read from the paper).
Notebook: ``notebooks/ksos-conformal-bands.py``.

Notation (paper -> here):

- ``x_i, y_i`` -> ``X[i], y[i]``; mean model ``m(x)`` -> ``krr_fit_predict`` (kernel ridge);
  residual ``r_i = y_i - m(x_i)`` -> ``r2 = r**2``.
- feature map ``phi(x)`` of the RKHS, restricted to a landmark span -> ``nystrom_features`` (``Phi``, shape
  ``(n, p)``); SoS variance ``f(x) = phi(x)^T A phi(x)``, ``A >= 0`` -> ``B`` (``p x p``, PSD),
  ``ksos_predict_f``.
- primal ``min_{B >= 0} (1/n) sum_i f(x_i) + lam1 tr B + lam2 ||B||_F^2`` s.t. ``f(x_i) >= r_i^2`` ->
  ``ksos_fit_cvxpy``; its dual (our derivation, eq. D)
  ``max_{a >= 0} sum_i a_i r_i^2 - ||[sum_i (a_i - 1/n) phi_i phi_i^T - lam1 I]_+||_F^2 / (4 lam2)``,
  primal recovery ``B = [.]_+ / (2 lam2)`` -> ``ksos_dual_objective``, ``ksos_fit_dual`` (FISTA with
  projection on ``a >= 0`` and adaptive restart).
- conformal score ``S(x, y) = |y - m(x)| / sqrt(f(x))`` -> ``ksos_scores``; split-conformal quantile ->
  ``conformal_quantile``; band ``m(x) +- q sqrt(f(x))``.
- HSIC criterion between inputs and the coverage indicator (lengthscale tuning) -> ``hsic``.

Comparators (not in the paper's method): conformalised quantile regression (Romano et al., 2019) with a linear
quantile regression on a cubic B-spline basis -> ``spline_quantile_fit_predict``, ``cqr_scores``;
a ridge fit of ``r^2`` on the same Nystrom features without the PSD-operator structure (the ablation of the
kSoS scale) -> ``ridge_scale_fit_predict``; a k-nearest-neighbour scale for locally weighted CP ->
``knn_scale``; bin-wise (Mondrian) split CP -> ``mondrian_half_width``.

Every kernel takes optional leading batch dimensions (independent repetitions, lengthscales) so that the
Monte Carlo repetitions of the notebook run as array operations.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "rbf_kernel", "nystrom_features", "krr_fit_predict", "ksos_dual_objective", "ksos_fit_dual",
    "ksos_fit_cvxpy", "ksos_predict_f", "ksos_scores", "conformal_quantile", "coverage_by_bins",
    "worst_bin_deviation", "hsic", "make_heteroscedastic", "spread_landmarks", "spline_quantile_fit_predict",
    "cqr_scores", "ridge_scale_fit_predict", "knn_scale", "mondrian_half_width",
]


def _as_batch_ls(ls, batch_shape) -> np.ndarray:
    ls = np.asarray(ls, dtype=float)
    if np.any(~np.isfinite(ls)) or np.any(ls <= 0):
        raise ValueError("lengthscale must be finite and > 0")
    return np.broadcast_to(ls, batch_shape)


def rbf_kernel(X: np.ndarray, Y: np.ndarray, ls) -> np.ndarray:
    """Gaussian kernel ``k(x, y) = exp(-||x - y||^2 / (2 ls^2))``.

    Parameters
    ----------
    X : (..., n, d) array;  Y : (..., m, d) array (same leading dims, or broadcastable).
    ls : float or (...) array of lengthscales, > 0.

    Returns
    -------
    (..., n, m) array.
    """
    X = np.asarray(X, dtype=float)
    Y = np.asarray(Y, dtype=float)
    if X.ndim < 2 or Y.ndim < 2 or X.shape[-1] != Y.shape[-1]:
        raise ValueError(f"X and Y must be (..., n, d) and (..., m, d); got {X.shape} and {Y.shape}")
    batch = np.broadcast_shapes(X.shape[:-2], Y.shape[:-2])
    ls = _as_batch_ls(ls, batch)
    d2 = (np.sum(X**2, -1)[..., :, None] + np.sum(Y**2, -1)[..., None, :]
          - 2.0 * X @ np.swapaxes(Y, -1, -2))
    return np.exp(-np.maximum(d2, 0.0) / (2.0 * ls[..., None, None] ** 2))


def nystrom_features(X: np.ndarray, landmarks: np.ndarray, ls, rel_tol: float = 1e-10):
    """Finite feature map of the RBF RKHS on the span of ``landmarks`` (representer theorem, Nyström).

    ``phi(x) = W^T k(landmarks, x)`` with ``W = U S^{-1/2}`` from ``K_mm = U S U^T``; eigen-directions with
    ``S < rel_tol * max S`` are dropped (their columns of ``W`` set to zero), so
    ``phi(x_i)^T phi(x_j) = K_ij`` exactly when ``X`` is the landmark set and ``K_mm`` is well conditioned.

    Parameters
    ----------
    X : (..., n, d) points;  landmarks : (..., m, d);  ls : float or (...) array.

    Returns
    -------
    Phi : (..., n, m) features of ``X``;  W : (..., m, m) map, ``phi(x_new) = rbf_kernel(x_new, landmarks) @ W``.
    """
    if not (0 < rel_tol < 1):
        raise ValueError("rel_tol must lie in (0, 1)")
    Kmm = rbf_kernel(landmarks, landmarks, ls)
    S, U = np.linalg.eigh(Kmm)
    keep = S > rel_tol * S[..., -1:]
    inv_sqrt = np.where(keep, 1.0 / np.sqrt(np.where(keep, S, 1.0)), 0.0)
    W = U * inv_sqrt[..., None, :]
    return rbf_kernel(X, landmarks, ls) @ W, W


def krr_fit_predict(X: np.ndarray, y: np.ndarray, Xnew: np.ndarray, ls, reg: float) -> np.ndarray:
    """Kernel ridge regression mean ``m(x) = k(x, X) (K + n reg I)^{-1} y`` (batched).

    Parameters
    ----------
    X : (..., n, d);  y : (..., n);  Xnew : (..., q, d);  ls : lengthscale;  reg : ridge > 0.

    Returns
    -------
    (..., q) predictions.
    """
    if not reg > 0:
        raise ValueError("reg must be > 0")
    y = np.asarray(y, dtype=float)
    if y.shape != np.asarray(X).shape[:-1]:
        raise ValueError(f"y must have shape {np.asarray(X).shape[:-1]}, got {y.shape}")
    K = rbf_kernel(X, X, ls)
    n = K.shape[-1]
    coef = np.linalg.solve(K + n * reg * np.eye(n), y[..., None])
    return (rbf_kernel(Xnew, X, ls) @ coef)[..., 0]


def _check_problem(Phi, r2, lam1, lam2):
    Phi = np.asarray(Phi, dtype=float)
    r2 = np.asarray(r2, dtype=float)
    if Phi.ndim < 2 or r2.shape != Phi.shape[:-1]:
        raise ValueError(f"Phi must be (..., n, p) and r2 (..., n); got {Phi.shape} and {r2.shape}")
    if np.any(r2 < 0) or not np.all(np.isfinite(r2)):
        raise ValueError("r2 (squared residuals) must be finite and >= 0")
    if not (lam1 >= 0 and lam2 > 0):
        raise ValueError("need lam1 >= 0 and lam2 > 0")
    return Phi, r2


def ksos_dual_objective(alpha: np.ndarray, Phi: np.ndarray, r2: np.ndarray, lam1: float, lam2: float,
                        psd: bool = True):
    """Dual objective (eq. D), its gradient and the primal matrix it recovers.

    ``D(a) = sum_i a_i r_i^2 - ||[M(a)]_+||_F^2 / (4 lam2)``, ``M(a) = sum_i (a_i - 1/n) phi_i phi_i^T - lam1 I``;
    ``grad_i = r_i^2 - phi_i^T B phi_i`` with ``B = [M]_+ / (2 lam2)`` (the constraint slack).
    ``psd=False`` drops the positive part (the dual of the problem *without* the PSD constraint, a
    deliberately wrong dual used as a control).

    Parameters
    ----------
    alpha : (..., n) multipliers;  Phi : (..., n, p);  r2 : (..., n).

    Returns
    -------
    value : (...);  grad : (..., n);  B : (..., p, p).
    """
    Phi, r2 = _check_problem(Phi, r2, lam1, lam2)
    n, p = Phi.shape[-2:]
    w = alpha - 1.0 / n
    M = np.swapaxes(Phi, -1, -2) @ (w[..., :, None] * Phi) - lam1 * np.eye(p)
    M = 0.5 * (M + np.swapaxes(M, -1, -2))
    if psd:
        S, U = np.linalg.eigh(M)
        Mp = (U * np.maximum(S, 0.0)[..., None, :]) @ np.swapaxes(U, -1, -2)
    else:
        Mp = M
    B = Mp / (2.0 * lam2)
    fi = np.sum((Phi @ B) * Phi, -1)
    value = np.sum(alpha * r2, -1) - np.sum(Mp * Mp, (-1, -2)) / (4.0 * lam2)
    return value, r2 - fi, B


def _primal_value(B, Phi, r2, lam1, lam2):
    fi = np.sum((Phi @ B) * Phi, -1)
    val = fi.mean(-1) + lam1 * np.trace(B, axis1=-2, axis2=-1) + lam2 * np.sum(B * B, (-1, -2))
    return val, fi


def ksos_fit_dual(Phi: np.ndarray, r2: np.ndarray, lam1: float, lam2: float, iters: int = 500) -> dict:
    """Solve the kSoS band problem through its dual by projected FISTA with adaptive restart.

    Step ``1/L`` with ``L = lambda_max(G) / (2 lam2)``, ``G_ij = (phi_i^T phi_j)^2`` (the Lipschitz
    constant of the dual gradient: ``[.]_+`` is 1-Lipschitz in Frobenius norm); projection onto ``a >= 0``; momentum restarted when it points against the gradient
    (O'Donoghue & Candès). Each step costs one ``p x p`` eigendecomposition per problem in the batch.

    Parameters
    ----------
    Phi : (..., n, p) features;  r2 : (..., n) squared residuals;  lam1 >= 0, lam2 > 0;  iters >= 1.

    Returns
    -------
    dict with ``alpha`` (..., n), ``B`` (..., p, p) PSD, ``dual`` (...), ``primal`` (...) objective at ``B``,
    ``violation`` (...) = max_i (r_i^2 - f(x_i))_+ , ``iters``.
    """
    Phi, r2 = _check_problem(Phi, r2, lam1, lam2)
    if int(iters) != iters or iters < 1:
        raise ValueError("iters must be a positive integer")
    G = (Phi @ np.swapaxes(Phi, -1, -2)) ** 2
    L = np.linalg.eigvalsh(G)[..., -1] / (2.0 * lam2)
    step = (1.0 / L)[..., None]
    a = np.zeros(r2.shape)
    z = a.copy()
    t = 1.0
    for _ in range(int(iters)):
        _, g, _ = ksos_dual_objective(z, Phi, r2, lam1, lam2)
        a_new = np.maximum(z + step * g, 0.0)            # ascent step on the concave dual
        t_new = 0.5 * (1.0 + math.sqrt(1.0 + 4.0 * t * t))
        restart = np.sum(g * (a_new - a), -1, keepdims=True) < 0
        mom = np.where(restart, 0.0, (t - 1.0) / t_new)
        z = a_new + mom * (a_new - a)
        a, t = a_new, t_new
    dual, _, B = ksos_dual_objective(a, Phi, r2, lam1, lam2)
    primal, fi = _primal_value(B, Phi, r2, lam1, lam2)
    return dict(alpha=a, B=B, dual=dual, primal=primal,
                violation=np.max(np.maximum(r2 - fi, 0.0), -1), iters=int(iters))


def ksos_fit_cvxpy(Phi: np.ndarray, r2: np.ndarray, lam1: float, lam2: float, solver: str = "CLARABEL") -> dict:
    """Reference: the primal SDP solved by cvxpy (one problem, no batch; small ``n`` only).

    Parameters
    ----------
    Phi : (n, p);  r2 : (n,).

    Returns
    -------
    dict with ``B`` (p, p), ``primal`` (optimal value), ``violation`` (max constraint violation), ``status``.
    """
    import cvxpy as cp

    Phi, r2 = _check_problem(Phi, r2, lam1, lam2)
    if Phi.ndim != 2:
        raise ValueError("ksos_fit_cvxpy solves one problem: Phi must be (n, p)")
    n, p = Phi.shape
    B = cp.Variable((p, p), PSD=True)
    fi = cp.sum(cp.multiply(Phi @ B, Phi), axis=1)
    obj = cp.sum(fi) / n + lam1 * cp.trace(B) + lam2 * cp.sum_squares(B)
    prob = cp.Problem(cp.Minimize(obj), [fi >= r2])
    prob.solve(solver=solver)
    Bv = 0.5 * (B.value + B.value.T)
    val, f_np = _primal_value(Bv, Phi, r2, lam1, lam2)
    return dict(B=Bv, primal=float(val), violation=float(np.max(np.maximum(r2 - f_np, 0.0))),
                status=prob.status)


def ksos_predict_f(B: np.ndarray, Phi_new: np.ndarray) -> np.ndarray:
    """SoS variance ``f(x) = phi(x)^T B phi(x)`` (>= 0 whenever ``B`` is PSD).

    Parameters
    ----------
    B : (..., p, p);  Phi_new : (..., q, p).

    Returns
    -------
    (..., q).
    """
    B = np.asarray(B, dtype=float)
    Phi_new = np.asarray(Phi_new, dtype=float)
    if B.shape[-1] != B.shape[-2] or Phi_new.shape[-1] != B.shape[-1]:
        raise ValueError(f"B must be (..., p, p) and Phi_new (..., q, p); got {B.shape}, {Phi_new.shape}")
    return np.sum((Phi_new @ B) * Phi_new, -1)


def ksos_scores(y: np.ndarray, m: np.ndarray, f: np.ndarray, delta: float = 0.0) -> np.ndarray:
    """Normalised conformity score ``S = |y - m(x)| / sqrt(f(x) + delta)``.

    Parameters
    ----------
    y, m, f : (...,) arrays of one shape; ``f >= 0``;  delta >= 0 a floor that keeps the score finite.
    """
    y, m, f = (np.asarray(a, dtype=float) for a in (y, m, f))
    if not (y.shape == m.shape == f.shape):
        raise ValueError("y, m and f must have one shape")
    if delta < 0 or np.any(f + delta <= 0):
        raise ValueError("f + delta must be > 0")
    return np.abs(y - m) / np.sqrt(f + delta)


def conformal_quantile(scores: np.ndarray, alpha: float) -> np.ndarray:
    """Split-conformal quantile: the ``ceil((n+1)(1-alpha))``-th smallest score (``inf`` if that exceeds n).

    Parameters
    ----------
    scores : (..., n) calibration scores;  alpha in (0, 1).

    Returns
    -------
    (...) quantiles; ``P(S_test <= q) >= 1 - alpha`` under exchangeability.
    """
    if not (0 < alpha < 1):
        raise ValueError("alpha must lie in (0, 1)")
    s = np.sort(np.asarray(scores, dtype=float), axis=-1)
    n = s.shape[-1]
    if n < 1:
        raise ValueError("need at least one calibration score")
    k = math.ceil((n + 1) * (1 - alpha))
    if k > n:
        return np.full(s.shape[:-1], np.inf)
    return s[..., k - 1]


def coverage_by_bins(x: np.ndarray, covered: np.ndarray, n_bins: int, lo: float, hi: float) -> np.ndarray:
    """Coverage within ``n_bins`` equal-width bins of a scalar input on ``[lo, hi]`` (NaN for an empty bin).

    Parameters
    ----------
    x : (..., n) scalar inputs;  covered : (..., n) booleans.

    Returns
    -------
    (..., n_bins).
    """
    x = np.asarray(x, dtype=float)
    covered = np.asarray(covered, dtype=float)
    if x.shape != covered.shape:
        raise ValueError("x and covered must have one shape")
    if int(n_bins) != n_bins or n_bins < 1 or not hi > lo:
        raise ValueError("need an integer n_bins >= 1 and hi > lo")
    idx = np.clip(((x - lo) / (hi - lo) * n_bins).astype(int), 0, n_bins - 1)
    onehot = idx[..., None] == np.arange(n_bins)
    cnt = onehot.sum(-2)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(cnt > 0, (onehot * covered[..., None]).sum(-2) / cnt, np.nan)


def worst_bin_deviation(bin_coverage: np.ndarray, target: float) -> np.ndarray:
    """``max_b |coverage_b - target|`` over the bins (last axis), ignoring empty bins."""
    return np.nanmax(np.abs(np.asarray(bin_coverage, dtype=float) - target), axis=-1)


def hsic(X: np.ndarray, z: np.ndarray, ls_x) -> np.ndarray:
    """Biased HSIC estimate ``tr(K H L H) / n^2`` between inputs and a binary indicator.

    ``K`` is the Gaussian kernel on ``X`` (lengthscale ``ls_x``), ``L_ij = 1[z_i = z_j]`` (the delta kernel on
    the coverage indicator); ``H = I - 11^T/n``. Zero in the population iff coverage is independent of ``x``
    (Gretton et al., 2005), the target of the HSIC lengthscale criterion.

    Parameters
    ----------
    X : (..., n, d);  z : (..., n) booleans or 0/1;  ls_x : lengthscale.

    Returns
    -------
    (...) HSIC values (>= 0).
    """
    z = np.asarray(z, dtype=float)
    if z.shape != np.asarray(X).shape[:-1]:
        raise ValueError("z must have shape X.shape[:-1]")
    n = z.shape[-1]
    K = rbf_kernel(X, X, ls_x)
    Kc = K - K.mean(-1, keepdims=True) - K.mean(-2, keepdims=True) + K.mean((-1, -2), keepdims=True)
    L = (z[..., :, None] == z[..., None, :]).astype(float)
    return np.sum(Kc * L, (-1, -2)) / n**2


def make_heteroscedastic(rng: np.random.Generator, shape: tuple, x_range: float = 3.0):
    """1-D heteroscedastic data ``y = sin(2x) + (0.1 + 0.5|x|) eps``, ``x ~ U(-x_range, x_range)``.

    Returns
    -------
    X : (*shape, 1);  y : shape;  sd : shape, the true conditional standard deviation.
    """
    x = rng.uniform(-x_range, x_range, size=shape)
    sd = 0.1 + 0.5 * np.abs(x)
    y = np.sin(2 * x) + sd * rng.standard_normal(shape)
    return x[..., None], y, sd


def spread_landmarks(X: np.ndarray, m: int) -> np.ndarray:
    """``m`` landmarks of a 1-D sample taken at evenly spaced ranks (so that the Nyström span covers the data).

    Parameters
    ----------
    X : (..., n, 1);  m : 1 <= m <= n.

    Returns
    -------
    (..., m, 1) the points of ranks ``round(linspace(0, n - 1, m))``.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim < 2 or X.shape[-1] != 1:
        raise ValueError("X must be (..., n, 1)")
    n = X.shape[-2]
    if int(m) != m or not 1 <= m <= n:
        raise ValueError(f"m must be an integer in [1, {n}]")
    xs = np.sort(X[..., 0], axis=-1)
    return xs[..., np.round(np.linspace(0, n - 1, int(m))).astype(int)][..., None]


def spline_quantile_fit_predict(x: np.ndarray, y: np.ndarray, xnew: np.ndarray, tau: float, lo: float, hi: float,
                                n_knots: int = 8) -> np.ndarray:
    """Linear quantile regression of level ``tau`` on a cubic B-spline basis of a scalar input (batched).

    Minimises the pinball loss ``sum_i rho_tau(y_i - beta^T b(x_i))`` exactly, as the linear programme
    ``min tau 1^T u + (1 - tau) 1^T v`` s.t. ``B beta + u - v = y``, ``u, v >= 0`` (HiGHS). The basis
    ``b`` has ``n_knots`` equally spaced knots on ``[lo, hi]`` (scikit-learn's ``SplineTransformer``). This is the
    quantile model of the CQR comparator (Romano, Patterson and Candès, 2019), not part of the paper's method.

    Parameters
    ----------
    x : (..., n) scalar inputs;  y : (..., n);  xnew : (..., q);  tau in (0, 1);  lo < hi;  n_knots >= 2.

    Returns
    -------
    (..., q) the fitted ``tau``-quantile at ``xnew``.
    """
    from scipy import sparse
    from scipy.optimize import linprog
    from sklearn.preprocessing import SplineTransformer

    if not 0 < tau < 1:
        raise ValueError("tau must lie in (0, 1)")
    if not hi > lo or int(n_knots) != n_knots or n_knots < 2:
        raise ValueError("need lo < hi and an integer n_knots >= 2")
    x, y, xnew = (np.asarray(a, dtype=float) for a in (x, y, xnew))
    if x.shape != y.shape or x.shape[:-1] != xnew.shape[:-1]:
        raise ValueError("x and y must have one shape, and xnew the same leading dimensions")
    st = SplineTransformer(n_knots=int(n_knots), degree=3).fit(np.array([[lo], [hi]]))
    n = x.shape[-1]
    out = np.empty(xnew.shape)
    for idx in np.ndindex(x.shape[:-1]):
        F = st.transform(x[idx][:, None])
        p = F.shape[1]
        c = np.concatenate([np.zeros(p), np.full(n, tau), np.full(n, 1.0 - tau)])
        A = sparse.hstack([sparse.csr_matrix(F), sparse.eye(n), -sparse.eye(n)], format="csc")
        res = linprog(c, A_eq=A, b_eq=y[idx], bounds=[(None, None)] * p + [(0, None)] * (2 * n), method="highs")
        if res.status != 0:
            raise RuntimeError(f"quantile LP failed: {res.message}")
        out[idx] = st.transform(xnew[idx][:, None]) @ res.x[:p]
    return out


def cqr_scores(y: np.ndarray, q_lo: np.ndarray, q_hi: np.ndarray) -> np.ndarray:
    """CQR conformity score ``max(q_lo(x) - y, y - q_hi(x))`` (Romano et al., 2019, eq. 6).

    The band ``[q_lo - q, q_hi + q]`` with ``q`` the split-conformal quantile of these scores has marginal
    coverage ``>= 1 - alpha``.

    Parameters
    ----------
    y, q_lo, q_hi : (...,) arrays of one shape.
    """
    y, q_lo, q_hi = (np.asarray(a, dtype=float) for a in (y, q_lo, q_hi))
    if not (y.shape == q_lo.shape == q_hi.shape):
        raise ValueError("y, q_lo and q_hi must have one shape")
    return np.maximum(q_lo - y, y - q_hi)


def ridge_scale_fit_predict(Phi: np.ndarray, r2: np.ndarray, Phi_new: np.ndarray, reg: float,
                            floor: float) -> np.ndarray:
    """Scale without the sum-of-squares structure: a ridge fit of ``r^2`` on the features, floored.

    ``w = (Phi^T Phi + n reg I)^{-1} Phi^T r2``, ``f(x) = max(phi(x)^T w, floor)``: the same feature span as
    the kSoS fit, but a linear function of ``phi`` fitted by least squares instead of a PSD quadratic form
    fitted as an envelope, so it can go negative (hence the floor) and does not bound ``r^2`` from above.

    Parameters
    ----------
    Phi : (..., n, p) features of the fitting fold;  r2 : (..., n) squared residuals;
    Phi_new : (..., q, p);  reg : ridge > 0;  floor : > 0, lower bound of the returned scale.

    Returns
    -------
    (..., q) scale values ``>= floor``.
    """
    if not reg > 0 or not floor > 0:
        raise ValueError("reg and floor must be > 0")
    Phi, Phi_new, r2 = (np.asarray(a, dtype=float) for a in (Phi, Phi_new, r2))
    if r2.shape != Phi.shape[:-1]:
        raise ValueError(f"r2 must have shape {Phi.shape[:-1]}, got {r2.shape}")
    n, p = Phi.shape[-2:]
    PtP = np.swapaxes(Phi, -1, -2) @ Phi
    w = np.linalg.solve(PtP + n * reg * np.eye(p), np.swapaxes(Phi, -1, -2) @ r2[..., None])
    return np.maximum((Phi_new @ w)[..., 0], floor)


def knn_scale(x_ref: np.ndarray, abs_r: np.ndarray, x_new: np.ndarray, k: int) -> np.ndarray:
    """Local scale ``sigma(x)`` = mean ``|r|`` over the ``k`` nearest reference inputs (scalar inputs).

    Parameters
    ----------
    x_ref : (..., n) reference inputs;  abs_r : (..., n) absolute residuals there;  x_new : (..., q), the same
    leading dimensions;
    k : 1 <= k <= n.

    Returns
    -------
    (..., q) local mean absolute residuals.
    """
    x_ref, abs_r, x_new = (np.asarray(a, dtype=float) for a in (x_ref, abs_r, x_new))
    n = x_ref.shape[-1]
    if not 1 <= k <= n:
        raise ValueError("k must lie in [1, n]")
    if abs_r.shape != x_ref.shape:
        raise ValueError("abs_r must have the shape of x_ref")
    # in 1-D the k nearest points form a window [j, j + k) of the sorted inputs; sliding it right from j to
    # j + 1 helps iff xs[j] + xs[j + k] < 2 x, a condition monotone in j, so the best start is a count
    order = np.argsort(x_ref, axis=-1)
    xs = np.take_along_axis(x_ref, order, -1)
    cs = np.concatenate([np.zeros(xs.shape[:-1] + (1,)), np.cumsum(np.take_along_axis(abs_r, order, -1), -1)], -1)
    if x_new.shape[:-1] != x_ref.shape[:-1]:
        raise ValueError("x_new and x_ref must share their leading (batch) dimensions")
    out = np.empty(x_new.shape)
    for idx in np.ndindex(*out.shape[:-1]):
        x_i, c_i = xs[idx], cs[idx]
        j = np.minimum(np.searchsorted(x_i[: n - k] + x_i[k:], 2 * x_new[idx]), n - k)
        out[idx] = (c_i[j + k] - c_i[j]) / k
    return out


def mondrian_half_width(x_cal: np.ndarray, s_cal: np.ndarray, x_new: np.ndarray, alpha: float, n_bins: int,
                        lo: float, hi: float) -> np.ndarray:
    """Bin-wise (Mondrian) split CP: one conformal quantile of the scores per equal-width bin of ``x``.

    Each bin of ``[lo, hi]`` gets the split-conformal quantile (``conformal_quantile``) of the calibration
    scores that fall in it, so coverage ``>= 1 - alpha`` holds within every bin (Vovk et al., 2005).

    Parameters
    ----------
    x_cal, s_cal : (..., n) calibration inputs and scores;  x_new : (..., q);  alpha in (0, 1);
    n_bins >= 1;  lo < hi.

    Returns
    -------
    (..., q) half-widths (``inf`` in a bin with too few calibration points).
    """
    x_cal, s_cal, x_new = (np.asarray(a, dtype=float) for a in (x_cal, s_cal, x_new))
    if s_cal.shape != x_cal.shape:
        raise ValueError("s_cal must have the shape of x_cal")
    edges = np.linspace(lo, hi, n_bins + 1)
    b_cal = np.clip(np.digitize(x_cal, edges) - 1, 0, n_bins - 1)
    b_new = np.clip(np.digitize(x_new, edges) - 1, 0, n_bins - 1)
    out = np.empty(x_new.shape)
    for idx in np.ndindex(*x_cal.shape[:-1]):
        for b in range(n_bins):
            s = s_cal[idx][b_cal[idx] == b]
            q = conformal_quantile(s, alpha) if s.size else np.inf
            out[idx][b_new[idx] == b] = q
    return out
