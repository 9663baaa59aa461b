"""Universal Sequence Preconditioning (Marsden & Hazan, NeurIPS 2025): kernels.

Paper: https://arxiv.org/abs/2502.06545 . Notebook: ``notebooks/universal-sequence-preconditioning.py``.

Notation map (paper -> ours)
----------------------------
* LDS ``x_{t+1} = A x_t + B u_t (+ noise)``, ``y_t = C x_t (+ noise)``: :func:`simulate_lds` with
  ``A, B, C`` as in the paper; scalar input and output (``d_in = d_out = 1``), hidden dimension ``d``.
* Monic polynomial ``p_n(z) = sum_{i=0}^n c_i z^{n-i}`` with ``c_0 = 1``: ``coeffs`` (highest power first);
  Chebyshev choice ``M_n = 2^{1-n} T_n`` -> :func:`chebyshev_monic_coeffs`, Legendre -> :func:`legendre_monic_coeffs`;
  the classical Box-Jenkins choice ``(z - 1)^n`` (differencing, the ablation of the Chebyshev choice) ->
  :func:`repeated_differencing_coeffs`.
* Preconditioned target ``y~_t = sum_i c_i y_{t-i}`` (the paper's convolution of the target sequence):
  :func:`precondition`; the forecast of ``y_t`` recovered from a forecast of ``y~_t`` (the paper's
  ``y^_t = pred - sum_{i>=1} c_i y_{t-i}``): :func:`unprecondition`.
* Base learners: online least squares on a window of past inputs (the paper's "regression" learner),
  :func:`online_rls` on :func:`input_window_features`; spectral filtering (Hazan et al. 2017) with the
  Hankel matrix ``Z_ij = 2/((i+j)^3 - (i+j))``: :func:`spectral_filters`, :func:`spectral_features`.
* Not in the paper as a baseline: a learned ARX model (online least squares on past outputs and inputs),
  :func:`arx_features`.
"""

from __future__ import annotations

import numpy as np
from numpy.polynomial import chebyshev as npcheb
from numpy.polynomial import legendre as npleg
from numpy.typing import ArrayLike
from scipy.linalg import eigh
from scipy.signal import lfilter

KINDS = ("symmetric", "asymmetric")


def _check_degree(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"degree n must be a non-negative int; got {n!r}")
    return int(n)


def chebyshev_monic_coeffs(n: int) -> np.ndarray:
    """Coefficients of the monic Chebyshev polynomial ``2^{1-n} T_n`` (``T_0 = 1``), highest power first.

    The paper's preconditioning coefficients (Sec. 3, Lemma 3.2): among monic degree-``n`` polynomials
    this one has the smallest sup norm on ``[-1, 1]``, namely ``2^{1-n}`` for ``n >= 1``.

    Parameters
    ----------
    n : int
        Degree, ``n >= 0``.

    Returns
    -------
    ndarray, shape (n + 1,)
        ``c`` with ``c[0] = 1``; e.g. ``n = 2`` gives ``[1, 0, -0.5]`` (``z^2 - 1/2``).
    """
    n = _check_degree(n)
    power = npcheb.cheb2poly(np.eye(n + 1)[n])  # lowest power first
    return (power / power[-1])[::-1].copy()


def chebyshev_monic_coeffs_on(n: int, lo: float, hi: float) -> np.ndarray:
    """Monic Chebyshev polynomial of the interval ``[lo, hi]``, highest power first.

    ``p(z) = 2 h^n 2^{-n} T_n((z - m)/h)`` with centre ``m = (lo+hi)/2`` and half-width ``h = (hi-lo)/2``: the
    monic degree-``n`` polynomial with the smallest sup norm on ``[lo, hi]`` (``2 (h/2)^n``). With
    ``[lo, hi] = [-1, 1]`` it is :func:`chebyshev_monic_coeffs`. The notebook uses ``[-1, 0]`` as a control:
    the same construction aimed at the wrong part of the spectrum. Shape ``(n + 1,)``, ``c[0] = 1``.
    """
    n = _check_degree(n)
    if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
        raise ValueError(f"need finite lo < hi; got {lo}, {hi}")
    m, h = 0.5 * (lo + hi), 0.5 * (hi - lo)
    base = np.poly1d(chebyshev_monic_coeffs(n))          # monic on [-1, 1]
    p = h**n * base(np.poly1d([1.0 / h, -m / h]))        # h^n M_n((z - m)/h) is monic in z
    return np.asarray(p.coeffs, dtype=float)


def legendre_monic_coeffs(n: int) -> np.ndarray:
    """Coefficients of the monic Legendre polynomial ``P_n / lead(P_n)``, highest power first.

    The paper's alternative preconditioner (Sec. 5). Shape ``(n + 1,)``, ``c[0] = 1``.
    """
    n = _check_degree(n)
    power = npleg.leg2poly(np.eye(n + 1)[n])
    return (power / power[-1])[::-1].copy()


def repeated_differencing_coeffs(n: int) -> np.ndarray:
    """Coefficients of ``(z - 1)^n`` (``n``-fold Box-Jenkins differencing), highest power first.

    The classical preconditioner that the paper generalises (its introduction): every root at ``z = 1``, so it
    removes the slowest modes exactly but is as large as ``|lambda - 1|^n`` elsewhere and has
    ``||c||_1 = 2^n``. The notebook uses it as the ablation of the Chebyshev choice at the same degree; ``n = 1``
    gives plain differencing ``[1, -1]``.

    Parameters
    ----------
    n : int
        Degree, ``n >= 0``.

    Returns
    -------
    ndarray, shape (n + 1,)
        ``c_i = (-1)^i binom(n, i)``, ``c[0] = 1``.
    """
    n = _check_degree(n)
    c = np.ones(1)
    for _ in range(n):
        c = np.convolve(c, [1.0, -1.0])
    return c


def _check_coeffs(coeffs: ArrayLike) -> np.ndarray:
    c = np.asarray(coeffs, dtype=float)
    if c.ndim != 1 or c.size == 0:
        raise ValueError(f"coeffs must be a non-empty 1-d array; got shape {c.shape}")
    if c[0] != 1.0:
        raise ValueError(f"coeffs must be monic (coeffs[0] == 1); got {c[0]!r}")
    return c


def precondition(y: ArrayLike, coeffs: ArrayLike) -> np.ndarray:
    """Preconditioned sequence ``y~_t = sum_{i=0}^n c_i y_{t-i}`` with ``y_{t<0} = 0`` (paper Eq. (2)).

    Parameters
    ----------
    y : array_like, shape (..., T)
        Sequences along the last axis.
    coeffs : array_like, shape (n + 1,)
        Monic coefficients, highest power first (``coeffs[0] = 1``).

    Returns
    -------
    ndarray, shape (..., T)
    """
    c = _check_coeffs(coeffs)
    y = np.asarray(y, dtype=float)
    if y.ndim == 0:
        raise ValueError("y must have a time axis")
    return lfilter(c, [1.0], y, axis=-1)


def unprecondition(pred_tilde: ArrayLike, y: ArrayLike, coeffs: ArrayLike) -> np.ndarray:
    """Forecast of ``y_t`` from a forecast of ``y~_t``: ``y^_t = pred_t - sum_{i>=1} c_i y_{t-i}``.

    Uses only past outputs ``y_{t-1}, ..., y_{t-n}`` (zero before time 0), so it is a valid online forecast.
    Since ``c_0 = 1``, ``y_t - y^_t = y~_t - pred_t`` exactly.

    Parameters
    ----------
    pred_tilde : array_like, shape (..., T)
    y : array_like, shape (..., T)
        Observed outputs (only ``y_{t-1}`` and earlier enter ``y^_t``).
    coeffs : array_like, shape (n + 1,)

    Returns
    -------
    ndarray, shape (..., T)
    """
    c = _check_coeffs(coeffs)
    p = np.asarray(pred_tilde, dtype=float)
    y = np.asarray(y, dtype=float)
    if p.shape != y.shape:
        raise ValueError(f"pred_tilde and y must have the same shape; got {p.shape} and {y.shape}")
    tail = np.concatenate([[0.0], c[1:]])
    return p - lfilter(tail, [1.0], y, axis=-1)


def random_lds(d: int, kind: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A random marginally stable LDS ``(A, B, C)`` with scalar input and output.

    ``kind = "symmetric"``: ``A = Q diag(lam) Q^T``, ``lam ~ U[0, 0.999]``. ``kind = "asymmetric"``: ``d/2``
    2x2 rotation-scaling blocks with radius ``U[0.9, 0.999]`` and angle ``U[0, 0.3]`` rad (eigenvalues
    ``r e^{+-i theta}``, small imaginary part as the paper's theorems require), conjugated by a random
    orthogonal ``Q``. ``B, C ~ N(0, 1/d)``.

    Returns
    -------
    A : ndarray, shape (d, d); B : ndarray, shape (d, 1); C : ndarray, shape (1, d)
    """
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 2 or d % 2:
        raise ValueError(f"d must be an even int >= 2; got {d!r}")
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}; got {kind!r}")
    Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    if kind == "symmetric":
        core = np.diag(rng.uniform(0.0, 0.999, d))
    else:
        r = rng.uniform(0.9, 0.999, d // 2)
        th = rng.uniform(0.0, 0.3, d // 2)
        core = np.zeros((d, d))
        for j in range(d // 2):
            cs, sn = r[j] * np.cos(th[j]), r[j] * np.sin(th[j])
            core[2 * j : 2 * j + 2, 2 * j : 2 * j + 2] = [[cs, -sn], [sn, cs]]
    A = Q @ core @ Q.T
    B = rng.standard_normal((d, 1)) / np.sqrt(d)
    C = rng.standard_normal((1, d)) / np.sqrt(d)
    return A, B, C


def simulate_lds(
    A: np.ndarray,
    B: np.ndarray,
    C: np.ndarray,
    u: ArrayLike,
    noise: float,
    rng: np.random.Generator,
    nonlinearity: str | None = None,
) -> np.ndarray:
    """Run ``x_{t+1} = f(A x_t + B u_t) + w_t``, ``y_t = C x_t + v_t`` from ``x_0 = 0``.

    ``f`` is the identity (an LDS, paper Eq. (1)) or ``tanh`` (``nonlinearity="tanh"``: our stand-in for the
    paper's "nonlinear dynamical system"). ``w_t, v_t ~ N(0, noise^2)``.

    Parameters
    ----------
    A : (d, d); B : (d, 1); C : (1, d)
    u : array_like, shape (T,)
        Scalar inputs.

    Returns
    -------
    ndarray, shape (T,)
        Outputs ``y_0, ..., y_{T-1}``.
    """
    A, B, C = (np.asarray(M, dtype=float) for M in (A, B, C))
    d = A.shape[0]
    if A.shape != (d, d) or B.shape != (d, 1) or C.shape != (1, d):
        raise ValueError(f"need A (d,d), B (d,1), C (1,d); got {A.shape}, {B.shape}, {C.shape}")
    u = np.asarray(u, dtype=float)
    if u.ndim != 1:
        raise ValueError(f"u must be 1-d; got shape {u.shape}")
    if noise < 0:
        raise ValueError(f"noise must be >= 0; got {noise}")
    if nonlinearity not in (None, "tanh"):
        raise ValueError(f"nonlinearity must be None or 'tanh'; got {nonlinearity!r}")
    T = u.size
    w = noise * rng.standard_normal((T, d))
    v = noise * rng.standard_normal(T)
    xs = np.zeros((T, d))
    x = np.zeros(d)
    b = B[:, 0]
    for t in range(T):  # the recursion is sequential; each step is one mat-vec
        xs[t] = x
        z = A @ x + b * u[t]
        x = (np.tanh(z) if nonlinearity == "tanh" else z) + w[t]
    return xs @ C[0] + v


def input_window_features(u: ArrayLike, m: int) -> np.ndarray:
    """Regression features ``[u_{t-1}, ..., u_{t-m}]`` (zero before time 0).

    Parameters
    ----------
    u : array_like, shape (..., T)

    Returns
    -------
    ndarray, shape (..., T, m)
    """
    u = np.asarray(u, dtype=float)
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
        raise ValueError(f"m must be a positive int; got {m!r}")
    pad = np.concatenate([np.zeros(u.shape[:-1] + (m,)), u], axis=-1)
    win = np.lib.stride_tricks.sliding_window_view(pad, m, axis=-1)[..., : u.shape[-1], :]
    return win[..., ::-1].copy()


def arx_features(y: ArrayLike, u: ArrayLike, p: int, m: int) -> np.ndarray:
    """ARX features ``[y_{t-1}, ..., y_{t-p}, u_{t-1}, ..., u_{t-m}]`` (a learned, non-universal baseline).

    Returns
    -------
    ndarray, shape (..., T, p + m)
    """
    y = np.asarray(y, dtype=float)
    u = np.asarray(u, dtype=float)
    if y.shape != u.shape:
        raise ValueError(f"y and u must have the same shape; got {y.shape} and {u.shape}")
    return np.concatenate([input_window_features(y, p), input_window_features(u, m)], axis=-1)


def hankel_matrix(L: int) -> np.ndarray:
    """Spectral-filtering Hankel matrix ``Z_ij = 2 / ((i+j)^3 - (i+j))``, ``i, j = 1..L`` (shape (L, L))."""
    if isinstance(L, bool) or not isinstance(L, (int, np.integer)) or L < 1:
        raise ValueError(f"L must be a positive int; got {L!r}")
    s = np.add.outer(np.arange(1, L + 1), np.arange(1, L + 1)).astype(float)
    return 2.0 / (s**3 - s)


def spectral_filters(L: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Top-``k`` eigenpairs of :func:`hankel_matrix` (the spectral filters of Hazan et al., 2017).

    Returns
    -------
    sigma : ndarray, shape (k,)
        Eigenvalues, largest first.
    phi : ndarray, shape (L, k)
        Orthonormal filters, column ``j`` for ``sigma[j]``.
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= L:
        raise ValueError(f"need 1 <= k <= L; got k={k!r}, L={L!r}")
    sigma, phi = eigh(hankel_matrix(L), subset_by_index=[L - k, L - 1])
    return sigma[::-1].copy(), phi[:, ::-1].copy()


def spectral_features(u: ArrayLike, L: int, k: int) -> np.ndarray:
    """Spectral-filter features ``sigma_j^{1/4} sum_{s=1}^{L} phi_j(s) u_{t-s}`` (zero before time 0).

    Parameters
    ----------
    u : array_like, shape (T,)

    Returns
    -------
    ndarray, shape (T, k)
    """
    u = np.asarray(u, dtype=float)
    if u.ndim != 1:
        raise ValueError(f"u must be 1-d; got shape {u.shape}")
    sigma, phi = spectral_filters(L, k)
    taps = np.vstack([np.zeros((1, k)), phi])  # tap s multiplies u_{t-s}, s = 0..L
    out = np.stack([lfilter(taps[:, j], [1.0], u) for j in range(k)], axis=-1)
    return out * sigma**0.25


def online_rls(X: ArrayLike, Y: ArrayLike, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """Online ridge regression (recursive least squares), predicting before each update.

    At step ``t`` the prediction is ``X_t^T w_t`` with ``w_t`` the ridge solution on steps ``< t``:
    ``w_t = (lam I + sum_{s<t} X_s X_s^T)^{-1} sum_{s<t} X_s Y_s^T`` (follow-the-regularised-leader for the
    square loss, the paper's online regression learner). Batched over leading axes; several targets share
    one inverse-Gram recursion.

    Parameters
    ----------
    X : array_like, shape (R, T, p)
        Features of ``R`` independent sequences.
    Y : array_like, shape (R, T, K)
        ``K`` targets per sequence, regressed on the same features.
    lam : float
        Ridge parameter, ``> 0``.

    Returns
    -------
    preds : ndarray, shape (R, T, K)
        Online predictions.
    W : ndarray, shape (R, p, K)
        Final weights (ridge solution on all ``T`` steps).
    """
    X = np.asarray(X, dtype=float)
    Y = np.asarray(Y, dtype=float)
    if X.ndim != 3 or Y.ndim != 3 or X.shape[:2] != Y.shape[:2]:
        raise ValueError(f"need X (R,T,p) and Y (R,T,K) with matching R,T; got {X.shape}, {Y.shape}")
    if not lam > 0:
        raise ValueError(f"lam must be > 0; got {lam}")
    R, T, p = X.shape
    K = Y.shape[2]
    Pm = np.broadcast_to(np.eye(p) / lam, (R, p, p)).copy()
    W = np.zeros((R, p, K))
    preds = np.empty((R, T, K))
    for t in range(T):  # online: each step depends on the previous one; vectorised over R and K
        x = X[:, t, :]
        preds[:, t, :] = np.einsum("rp,rpk->rk", x, W)
        Px = np.einsum("rij,rj->ri", Pm, x)
        gain = Px / (1.0 + np.einsum("ri,ri->r", x, Px))[:, None]
        W += gain[:, :, None] * (Y[:, t, :] - preds[:, t, :])[:, None, :]
        Pm -= gain[:, :, None] * Px[:, None, :]
    return preds, W


def sup_on_spectrum(coeffs: ArrayLike, eigvals: ArrayLike) -> float:
    """``max_j |p(lambda_j)|`` for ``p(z) = sum_i c_i z^{n-i}`` (the term that USP makes small, paper Thm 3.1)."""
    c = _check_coeffs(coeffs)
    lam = np.asarray(eigvals)
    if lam.size == 0:
        raise ValueError("eigvals must be non-empty")
    return float(np.max(np.abs(np.polyval(c, lam))))


def simulate_batch(
    R: int,
    d: int,
    kind: str,
    T: int,
    noise: float,
    rng: np.random.Generator,
    gain: float = 1.0,
    nonlinearity: str | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``R`` independent random systems (:func:`random_lds`) driven by ``u_t ~ N(0, gain^2)``.

    Returns
    -------
    Y, U : ndarray, shape (R, T)
        Outputs and inputs.
    """
    if isinstance(R, bool) or not isinstance(R, (int, np.integer)) or R < 1 or T < 1:
        raise ValueError(f"need R >= 1 and T >= 1; got R={R!r}, T={T!r}")
    Y, U = np.empty((R, T)), np.empty((R, T))
    for r in range(R):  # one system per run; the time recursion is inside simulate_lds
        A, B, C = random_lds(d, kind, rng)
        U[r] = gain * rng.standard_normal(T)
        Y[r] = simulate_lds(A, B, C, U[r], noise, rng, nonlinearity)
    return Y, U


def usp_squared_errors(X: ArrayLike, Y: ArrayLike, coeff_list: list, lam: float) -> np.ndarray:
    """Online squared errors of the same learner with each preconditioner in ``coeff_list`` (paper Alg. 1).

    For each ``c``: target ``y~ = precondition(Y, c)``, online ridge (:func:`online_rls`) on features ``X``
    predicts ``y~_t``, the forecast of ``y_t`` is :func:`unprecondition`; the error ``y_t - y^_t`` is returned.
    ``c = [1]`` is the learner without preconditioning.

    Parameters
    ----------
    X : array_like, shape (R, T, p)
    Y : array_like, shape (R, T)
    coeff_list : list of array_like, each monic, highest power first

    Returns
    -------
    ndarray, shape (R, T, len(coeff_list))
    """
    Y = np.asarray(Y, dtype=float)
    if Y.ndim != 2 or len(coeff_list) == 0:
        raise ValueError(f"need Y of shape (R, T) and a non-empty coeff_list; got {Y.shape}, {len(coeff_list)}")
    targets = np.stack([precondition(Y, c) for c in coeff_list], axis=-1)
    preds, _ = online_rls(X, targets, lam)
    yhat = np.stack([unprecondition(preds[..., j], Y, c) for j, c in enumerate(coeff_list)], axis=-1)
    return (Y[..., None] - yhat) ** 2
