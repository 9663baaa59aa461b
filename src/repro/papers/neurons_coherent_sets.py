r"""Neurons as detectors of coherent sets: OU processes, the stochastic Koopman operator and past-future CCA.

Paper map
---------
*Neurons as Detectors of Coherent Sets in Sensory Dynamics*, Joshua Pughe-Sanford, Xuehao Ding, Jason
Moore, Anirvan M. Sengupta, Charles L. Epstein, Philip Greengard, Dmitri B. Chklovskii, NeurIPS 2025
(arXiv 2510.26955, https://arxiv.org/abs/2510.26955). We read the abstract only; the formulas below are the
standard linear-Gaussian algebra that the abstract's statements rest on (our derivation, checked in the
unit tests). Notebook: ``notebooks/neurons-coherent-sets.py``.

Notation (paper / brief -> here):

- Ornstein-Uhlenbeck process :math:`dx = A x\,dt + B\,dW` (``A`` stable: eigenvalues with negative real
  part; the issue's :math:`e^{-A\tau}` is the same with the sign of ``A`` flipped) -> ``A``, ``B``.
- lag :math:`\tau` -> ``tau`` (time units); on a sampled path with step ``dt``, ``lag = tau / dt`` steps.
- exact transition :math:`x_{t+\tau} = M x_t + \eta`, :math:`M = e^{A\tau}`,
  :math:`\eta\sim N(0, Q)`, :math:`Q=\int_0^\tau e^{As}BB^\top e^{A^\top s}ds` -> :func:`ou_exact_discretization`.
- stationary covariance :math:`\Sigma` (:math:`A\Sigma+\Sigma A^\top+BB^\top=0`) -> :func:`ou_stationary_cov`;
  :math:`\Sigma_0=\mathrm{Cov}(x_t)`, :math:`\Sigma_\tau = M\Sigma_0M^\top+Q`, lagged covariance
  :math:`\mathrm{Cov}(x_{t+\tau},x_t)=M\Sigma_0` -> :func:`ou_lagged_cov`.
- whitened transition :math:`W=\Sigma_\tau^{-1/2}M\Sigma_0^{1/2}=U S V^\top` -> :func:`sko_linear_singular`.
  The stochastic Koopman operator :math:`(\mathcal K f)(x)=E[f(x_{t+\tau})\mid x_t=x]` has, for Gaussian
  :math:`x_t`, the constant pair with singular value 1 and, next, the linear pair
  :math:`f(x)=v_1^\top\Sigma_0^{-1/2}x` (initial time: **predictive** coherent set :math:`\{f>0\}`) and
  :math:`g(y)=u_1^\top\Sigma_\tau^{-1/2}y` (final time: **retrospective** set :math:`\{g>0\}`) with singular
  value :math:`s_1`, the top canonical correlation of :math:`(x_t, x_{t+\tau})`.
- receptive fields (weights applied to the raw stimulus) -> ``predictive = Sigma0^{-1/2} v``,
  ``retrospective = Sigma_tau^{-1/2} u`` (columns, unit variance of the projection).
- coherence of a pair of half-spaces: :math:`P(\mathrm{sign}\,f(x_t)=\mathrm{sign}\,g(x_{t+\tau}))`
  -> :func:`sign_agreement`; for jointly Gaussian :math:`(f,g)` with correlation :math:`\rho` it is
  Sheppard's :math:`\tfrac12+\arcsin(\rho)/\pi` -> :func:`sheppard_agreement`.
- past-future CCA on lag vectors (window ``L``) -> :func:`lag_embed`, :func:`past_future_cca`; its exact
  counterpart from closed-form covariances -> :func:`ou_window_covariances` + :func:`cca_from_cov`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg
import scipy.signal
from numpy.typing import ArrayLike


# --------------------------------------------------------------------------- validation helpers
def _square(A: ArrayLike, name: str = "A") -> np.ndarray:
    a = np.asarray(A, dtype=np.float64)
    if a.ndim != 2 or a.shape[0] != a.shape[1] or a.shape[0] < 1:
        raise ValueError(f"{name} must be a square 2-d array; got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} has non-finite entries")
    return a


def _stable(A: ArrayLike) -> np.ndarray:
    a = _square(A)
    if np.max(np.linalg.eigvals(a).real) >= 0:
        raise ValueError("A must be stable (every eigenvalue with negative real part) for a stationary OU process")
    return a


def _noise(B: ArrayLike, d: int) -> np.ndarray:
    b = np.asarray(B, dtype=np.float64)
    if b.ndim != 2 or b.shape[0] != d:
        raise ValueError(f"B must be a 2-d array with {d} rows; got shape {b.shape}")
    if not np.all(np.isfinite(b)):
        raise ValueError("B has non-finite entries")
    return b


def _positive(x: float, name: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)) or not np.isfinite(x) or x <= 0:
        raise ValueError(f"{name} must be a finite number > 0; got {x!r}")
    return float(x)


def _int_at_least(n: int, least: int, name: str) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < least:
        raise ValueError(f"{name} must be an int >= {least}; got {n!r}")
    return int(n)


def _spd(S: ArrayLike, name: str) -> np.ndarray:
    s = _square(S, name)
    if not np.allclose(s, s.T, rtol=1e-10, atol=1e-12 * max(1.0, float(np.abs(s).max()))):
        raise ValueError(f"{name} must be symmetric")
    if np.linalg.eigvalsh(0.5 * (s + s.T)).min() <= 0:
        raise ValueError(f"{name} must be positive definite")
    return 0.5 * (s + s.T)


def spd_power(S: ArrayLike, p: float) -> np.ndarray:
    """Symmetric power :math:`S^p` of a symmetric positive definite matrix (eigendecomposition).

    Parameters
    ----------
    S : array_like, shape (d, d)
        Symmetric positive definite.
    p : float
        The power (``0.5`` and ``-0.5`` for the square root and the whitening matrix).

    Returns
    -------
    np.ndarray, shape (d, d), symmetric.
    """
    s = _spd(S, "S")
    w, V = np.linalg.eigh(s)
    return (V * w**p) @ V.T


# --------------------------------------------------------------------------- the OU process
def ou_stationary_cov(A: ArrayLike, B: ArrayLike) -> np.ndarray:
    r"""Stationary covariance of :math:`dx = Ax\,dt + B\,dW`: the solution of the Lyapunov equation
    :math:`A\Sigma + \Sigma A^\top + BB^\top = 0` (``scipy.linalg.solve_continuous_lyapunov``).

    Parameters
    ----------
    A : array_like, shape (d, d)
        Stable drift matrix.
    B : array_like, shape (d, m)
        Noise loading.

    Returns
    -------
    np.ndarray, shape (d, d), symmetric positive semi-definite.
    """
    a = _stable(A)
    b = _noise(B, a.shape[0])
    S = scipy.linalg.solve_continuous_lyapunov(a, -b @ b.T)
    return 0.5 * (S + S.T)


def ou_exact_discretization(A: ArrayLike, B: ArrayLike, tau: float) -> tuple[np.ndarray, np.ndarray]:
    r"""Exact transition of the OU process over a time ``tau``: :math:`x_{t+\tau} = Mx_t + \eta`,
    :math:`\eta\sim N(0,Q)` (Van Loan, IEEE TAC 1978: one block matrix exponential).

    :math:`\exp\Big(\tau\begin{bmatrix}-A & BB^\top\\ 0 & A^\top\end{bmatrix}\Big) =
    \begin{bmatrix}F_{11} & F_{12}\\ 0 & F_{22}\end{bmatrix}` gives :math:`M = F_{22}^\top = e^{A\tau}` and
    :math:`Q = F_{22}^\top F_{12} = \int_0^\tau e^{As}BB^\top e^{A^\top s}\,ds`.

    Parameters
    ----------
    A : array_like, shape (d, d)
        Drift matrix (need not be stable here).
    B : array_like, shape (d, m)
    tau : float > 0

    Returns
    -------
    M : np.ndarray, shape (d, d)
    Q : np.ndarray, shape (d, d), symmetric positive semi-definite.
    """
    a = _square(A)
    d = a.shape[0]
    b = _noise(B, d)
    tau = _positive(tau, "tau")
    C = np.zeros((2 * d, 2 * d))
    C[:d, :d] = -a
    C[:d, d:] = b @ b.T
    C[d:, d:] = a.T
    F = scipy.linalg.expm(tau * C)
    M = F[d:, d:].T
    Q = M @ F[:d, d:]
    return M, 0.5 * (Q + Q.T)


def ou_lagged_cov(A: ArrayLike, B: ArrayLike, tau: float, Sigma0: ArrayLike | None = None) -> dict[str, np.ndarray]:
    r"""Closed-form covariances of the pair :math:`(x_t, x_{t+\tau})`.

    :math:`\Sigma_0 = \mathrm{Cov}(x_t)` (stationary when ``Sigma0`` is None),
    :math:`\Sigma_\tau = M\Sigma_0M^\top + Q` and :math:`C_\tau = \mathrm{Cov}(x_{t+\tau}, x_t) = M\Sigma_0`
    (in the stationary case :math:`C_\tau = e^{A\tau}\Sigma`).

    Parameters
    ----------
    A : array_like, shape (d, d)
    B : array_like, shape (d, m)
    tau : float > 0
    Sigma0 : array_like, shape (d, d), optional
        Covariance at the initial time (symmetric positive definite).

    Returns
    -------
    dict with ``M``, ``Q``, ``Sigma0``, ``Sigma_tau`` and ``C_tau`` (all shape (d, d)).
    """
    a = _square(A)
    M, Q = ou_exact_discretization(a, B, tau)
    S0 = ou_stationary_cov(a, B) if Sigma0 is None else _spd(Sigma0, "Sigma0")
    if S0.shape != a.shape:
        raise ValueError(f"Sigma0 must have shape {a.shape}; got {S0.shape}")
    St = M @ S0 @ M.T + Q
    return {"M": M, "Q": Q, "Sigma0": S0, "Sigma_tau": 0.5 * (St + St.T), "C_tau": M @ S0}


def simulate_ou(A: ArrayLike, B: ArrayLike, dt: float, n_steps: int, rng: np.random.Generator,
                x0: ArrayLike | None = None) -> np.ndarray:
    r"""Sample path of the OU process on a grid of step ``dt`` by its exact discretisation
    :math:`x_{k+1} = e^{A\,dt}x_k + \eta_k`, :math:`\eta_k\sim N(0, Q_{dt})` (no time-stepping error).

    The linear recursion is run mode by mode: with :math:`e^{A\,dt} = V\Lambda V^{-1}`, each coordinate of
    :math:`z = V^{-1}x` is a first-order recursion :math:`z_{k+1} = \lambda z_k + (V^{-1}\eta_k)`, filtered
    by ``scipy.signal.lfilter`` (vectorised over time).

    Parameters
    ----------
    A : array_like, shape (d, d)
        Stable drift matrix, diagonalisable (eigenvector matrix condition number below 1e8).
    B : array_like, shape (d, m)
    dt : float > 0
    n_steps : int >= 1
        Number of samples returned.
    rng : numpy.random.Generator
    x0 : array_like, shape (d,), optional
        Initial state; drawn from the stationary law when None.

    Returns
    -------
    np.ndarray, shape (n_steps, d); row ``k`` is :math:`x(k\,dt)`.
    """
    a = _stable(A)
    d = a.shape[0]
    dt = _positive(dt, "dt")
    n = _int_at_least(n_steps, 1, "n_steps")
    M, Q = ou_exact_discretization(a, B, dt)
    if x0 is None:
        x0 = rng.multivariate_normal(np.zeros(d), ou_stationary_cov(a, B), method="eigh")
    x0 = np.asarray(x0, dtype=np.float64)
    if x0.shape != (d,):
        raise ValueError(f"x0 must have shape ({d},); got {x0.shape}")
    lam, V = np.linalg.eig(M)
    if np.linalg.cond(V) > 1e8:
        raise ValueError("exp(A dt) is (nearly) defective: simulate_ou needs a diagonalisable drift")
    w, E = np.linalg.eigh(Q)
    L = E * np.sqrt(np.clip(w, 0, None))  # Q = L L^T
    eta = rng.standard_normal((n - 1, d)) @ L.T
    Vinv = np.linalg.inv(V)
    drive = np.vstack([Vinv @ x0, eta @ Vinv.T])  # (n, d) complex; row 0 carries the initial state
    z = np.empty_like(drive)
    for j in range(d):  # d modes, each vectorised over time
        z[:, j] = scipy.signal.lfilter([1.0], [1.0, -lam[j]], drive[:, j])
    return np.real(z @ V.T)


# --------------------------------------------------------------------------- the SKO singular pair
def whitened_transition(Sigma0: ArrayLike, Sigma_tau: ArrayLike, C_tau: ArrayLike) -> np.ndarray:
    r"""Whitened cross-covariance :math:`W = \Sigma_\tau^{-1/2}\,C_\tau\,\Sigma_0^{-1/2}`; for the OU
    transition :math:`C_\tau = M\Sigma_0` this is :math:`\Sigma_\tau^{-1/2}M\Sigma_0^{1/2}` (brief sec. 7.3).

    Parameters
    ----------
    Sigma0 : array_like, shape (d, d)
    Sigma_tau : array_like, shape (e, e)
    C_tau : array_like, shape (e, d)
        :math:`\mathrm{Cov}(y, x)` with ``y`` the later variable.

    Returns
    -------
    np.ndarray, shape (e, d)
    """
    S0 = _spd(Sigma0, "Sigma0")
    St = _spd(Sigma_tau, "Sigma_tau")
    C = np.asarray(C_tau, dtype=np.float64)
    if C.shape != (St.shape[0], S0.shape[0]):
        raise ValueError(f"C_tau must have shape {(St.shape[0], S0.shape[0])}; got {C.shape}")
    return spd_power(St, -0.5) @ C @ spd_power(S0, -0.5)


@dataclass(frozen=True)
class CCAResult:
    """Canonical correlation analysis of a pair ``(x, y)`` (``y`` later in time).

    Attributes
    ----------
    rho : np.ndarray, shape (k,)
        Canonical correlations, decreasing, in [0, 1].
    x_dirs : np.ndarray, shape (d, k)
        Weights on ``x`` (the past): column ``i`` gives :math:`f_i(x) = x^\\top a_i` with unit variance.
    y_dirs : np.ndarray, shape (e, k)
        Weights on ``y`` (the future): :math:`g_i(y) = y^\\top b_i`, unit variance, :math:`\\mathrm{corr}(f_i,g_i)=\\rho_i`.
    """

    rho: np.ndarray
    x_dirs: np.ndarray
    y_dirs: np.ndarray


def _sign_fix(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Make the largest-magnitude entry of each column of ``a`` positive; flip ``b`` with it."""
    idx = np.argmax(np.abs(a), axis=0)
    s = np.sign(a[idx, np.arange(a.shape[1])])
    s[s == 0] = 1.0
    return a * s, b * s


def cca_from_cov(Sxx: ArrayLike, Syy: ArrayLike, Syx: ArrayLike, k: int | None = None) -> CCAResult:
    r"""Canonical correlations and directions from (population or sample) covariances (Hotelling 1936).

    SVD of the whitened cross-covariance :math:`\Sigma_{yy}^{-1/2}\Sigma_{yx}\Sigma_{xx}^{-1/2} = USV^\top`:
    :math:`\rho = \mathrm{diag}(S)`, :math:`a_i = \Sigma_{xx}^{-1/2}v_i`, :math:`b_i = \Sigma_{yy}^{-1/2}u_i`.
    Signs: the largest entry of each :math:`a_i` is positive, :math:`b_i` follows so that
    :math:`\mathrm{corr}(a_i^\top x, b_i^\top y) = \rho_i \ge 0`.

    Parameters
    ----------
    Sxx : array_like, shape (d, d)
    Syy : array_like, shape (e, e)
    Syx : array_like, shape (e, d)
        :math:`\mathrm{Cov}(y, x)`.
    k : int, optional
        Number of pairs (default ``min(d, e)``).

    Returns
    -------
    CCAResult
    """
    W = whitened_transition(Sxx, Syy, Syx)
    kmax = min(W.shape)
    k = kmax if k is None else _int_at_least(k, 1, "k")
    if k > kmax:
        raise ValueError(f"k must be at most min(d, e) = {kmax}; got {k}")
    U, s, Vt = np.linalg.svd(W)
    a = spd_power(Sxx, -0.5) @ Vt[:k].T
    b = spd_power(Syy, -0.5) @ U[:, :k]
    a, b = _sign_fix(a, b)
    return CCAResult(rho=np.clip(s[:k], 0.0, 1.0), x_dirs=a, y_dirs=b)


def sko_linear_singular(A: ArrayLike, B: ArrayLike, tau: float, Sigma0: ArrayLike | None = None) -> dict:
    r"""The leading nontrivial singular pair of the stochastic Koopman operator of an OU process.

    For Gaussian :math:`x_t` the SKO's singular functions are Hermite polynomials of the canonical
    variates; the constant has singular value 1 and the next are linear:
    :math:`f_i(x) = v_i^\top\Sigma_0^{-1/2}x`, :math:`g_i(y) = u_i^\top\Sigma_\tau^{-1/2}y`, singular value
    :math:`s_i` from the SVD of the whitened transition :math:`W = \Sigma_\tau^{-1/2}M\Sigma_0^{1/2} = USV^\top`
    (brief sec. 7.3; the products of degree 2 have :math:`s_is_j\le s_1`).

    Parameters
    ----------
    A : array_like, shape (d, d)
    B : array_like, shape (d, m)
    tau : float > 0
    Sigma0 : array_like, shape (d, d), optional
        Initial covariance (stationary when None).

    Returns
    -------
    dict with ``W`` (d, d), ``U`` (d, d), ``s`` (d,), ``V`` (d, d) (columns :math:`v_i`),
    ``predictive`` (d, d) (columns: receptive fields :math:`\Sigma_0^{-1/2}v_i` applied to :math:`x_t`),
    ``retrospective`` (d, d) (:math:`\Sigma_\tau^{-1/2}u_i` applied to :math:`x_{t+\tau}`), and the
    covariances of :func:`ou_lagged_cov`.
    """
    cov = ou_lagged_cov(A, B, tau, Sigma0)
    W = whitened_transition(cov["Sigma0"], cov["Sigma_tau"], cov["C_tau"])
    res = cca_from_cov(cov["Sigma0"], cov["Sigma_tau"], cov["C_tau"])
    U, s, Vt = np.linalg.svd(W)
    # align the SVD's signs with the CCA's sign convention
    sv = np.sign(np.sum((spd_power(cov["Sigma0"], -0.5) @ Vt.T) * res.x_dirs, axis=0))
    return {"W": W, "U": U * sv, "s": s, "V": Vt.T * sv, "predictive": res.x_dirs,
            "retrospective": res.y_dirs, **cov}


# --------------------------------------------------------------------------- CCA from data
def cca(X: ArrayLike, Y: ArrayLike, k: int | None = None, reg: float = 0.0) -> CCAResult:
    r"""Sample CCA of paired rows ``(X[t], Y[t])``: :func:`cca_from_cov` on the centred sample covariances.

    Parameters
    ----------
    X : array_like, shape (n, d)
    Y : array_like, shape (n, e)
    k : int, optional
        Number of pairs (default ``min(d, e)``).
    reg : float >= 0
        Ridge added to both auto-covariances, relative to their mean variance (0: plain CCA).

    Returns
    -------
    CCAResult (directions normalised to unit *sample* variance).
    """
    x = np.asarray(X, dtype=np.float64)
    y = np.asarray(Y, dtype=np.float64)
    if x.ndim != 2 or y.ndim != 2 or x.shape[0] != y.shape[0]:
        raise ValueError(f"X and Y must be 2-d with the same number of rows; got {x.shape} and {y.shape}")
    n = x.shape[0]
    if n <= max(x.shape[1], y.shape[1]) + 1:
        raise ValueError(f"need more samples ({n}) than dimensions plus one ({max(x.shape[1], y.shape[1]) + 1})")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        raise ValueError("X and Y must be finite")
    if not (np.isfinite(reg) and reg >= 0):
        raise ValueError(f"reg must be >= 0; got {reg!r}")
    x = x - x.mean(axis=0)
    y = y - y.mean(axis=0)
    Sxx = x.T @ x / (n - 1)
    Syy = y.T @ y / (n - 1)
    Syx = y.T @ x / (n - 1)
    if reg > 0:
        Sxx = Sxx + reg * np.trace(Sxx) / Sxx.shape[0] * np.eye(Sxx.shape[0])
        Syy = Syy + reg * np.trace(Syy) / Syy.shape[0] * np.eye(Syy.shape[0])
    return cca_from_cov(Sxx, Syy, Syx, k)


def lag_embed(X: ArrayLike, lag: int, window: int = 1) -> tuple[np.ndarray, np.ndarray]:
    r"""Past and future lag vectors of a sampled series.

    Past vector at time :math:`t`: :math:`p_t = (x_t, x_{t-1}, \dots, x_{t-L+1})` (most recent first);
    future vector: :math:`q_t = (x_{t+\ell}, x_{t+\ell+1}, \dots, x_{t+\ell+L-1})`, with ``L = window`` and
    :math:`\ell` = ``lag`` steps. With ``window=1`` the pair is :math:`(x_t, x_{t+\ell})`.

    Parameters
    ----------
    X : array_like, shape (n,) or (n, d)
    lag : int >= 1
    window : int >= 1

    Returns
    -------
    past, future : np.ndarray, each shape (n - lag - 2 (window - 1), d * window)
        Row ``j`` of both belongs to the same time :math:`t = j + L - 1`; block ``i`` (columns
        ``i*d:(i+1)*d``) of ``past`` is :math:`x_{t-i}` and of ``future`` is :math:`x_{t+\ell+i}`.
    """
    x = np.asarray(X, dtype=np.float64)
    if x.ndim == 1:
        x = x[:, None]
    if x.ndim != 2:
        raise ValueError(f"X must be 1-d or 2-d; got shape {x.shape}")
    lag = _int_at_least(lag, 1, "lag")
    L = _int_at_least(window, 1, "window")
    n = x.shape[0]
    m = n - lag - 2 * (L - 1)
    if m < 2:
        raise ValueError(f"series of length {n} too short for lag {lag} and window {L}")
    t = np.arange(L - 1, L - 1 + m)
    past = np.concatenate([x[t - i] for i in range(L)], axis=1)
    future = np.concatenate([x[t + lag + i] for i in range(L)], axis=1)
    return past, future


def past_future_cca(X: ArrayLike, lag: int, *, window: int = 1, k: int | None = None, reg: float = 0.0) -> CCAResult:
    r"""Past-future CCA (the issue's required kernel): canonical correlations and directions between the
    past lag vector and the future lag vector of a time series (:func:`lag_embed` then :func:`cca`).

    With ``window=1`` this estimates, from one sample path of an OU process, the SKO singular pair of
    :func:`sko_linear_singular` at :math:`\tau` = ``lag * dt``: ``rho[0]`` estimates :math:`s_1`,
    ``x_dirs[:, 0]`` the predictive receptive field and ``y_dirs[:, 0]`` the retrospective one. With
    ``window=L`` the directions are temporal filters over the last ``L`` samples (past) and the next ``L``.

    Parameters
    ----------
    X : array_like, shape (n,) or (n, d)
        Samples at a fixed step.
    lag : int >= 1
        Steps between the present and the first future sample.
    window : int >= 1
    k : int, optional
    reg : float >= 0
        See :func:`cca`.

    Returns
    -------
    CCAResult with ``rho`` (k,), ``x_dirs`` (d*window, k) on the past, ``y_dirs`` (d*window, k) on the future.
    """
    past, future = lag_embed(X, lag, window)
    return cca(past, future, k=k, reg=reg)


def ou_window_covariances(A: ArrayLike, B: ArrayLike, C: ArrayLike, dt: float, lag: int,
                          window: int, obs_noise: float = 0.0) -> dict[str, np.ndarray]:
    r"""Exact covariances of the past and future lag vectors of an observed stationary OU process.

    Observation :math:`s_k = Cx(k\,dt) + \epsilon_k`, :math:`\epsilon_k\sim N(0, \sigma_o^2 I)` i.i.d.; autocovariance :math:`R(j) = \mathrm{Cov}(s_{k+j}, s_k) =
    Ce^{A j dt}\Sigma C^\top` (:math:`j\ge0`), :math:`R(-j) = R(j)^\top`. For the vectors of :func:`lag_embed`:
    :math:`\mathrm{Cov}(p)_{il} = R(l-i) + \sigma_o^2\delta_{il}I`, the same for :math:`q`, and :math:`\mathrm{Cov}(q,p)_{il} = R(\ell+i+l)`.

    Parameters
    ----------
    A : array_like, shape (d, d), stable
    B : array_like, shape (d, m)
    C : array_like, shape (r, d)
        Observation matrix.
    dt : float > 0
    lag, window : int >= 1
    obs_noise : float >= 0
        Standard deviation :math:`\sigma_o` of white observation noise.

    Returns
    -------
    dict with ``Spp``, ``Sqq`` (each (r*L, r*L)) and ``Sqp`` ((r*L, r*L), :math:`\mathrm{Cov}(q, p)`).
    """
    a = _stable(A)
    c = np.asarray(C, dtype=np.float64)
    if c.ndim != 2 or c.shape[1] != a.shape[0]:
        raise ValueError(f"C must be 2-d with {a.shape[0]} columns; got shape {c.shape}")
    lag = _int_at_least(lag, 1, "lag")
    L = _int_at_least(window, 1, "window")
    if not (np.isfinite(obs_noise) and obs_noise >= 0):
        raise ValueError(f"obs_noise must be >= 0; got {obs_noise!r}")
    S = ou_stationary_cov(a, B)
    M1, _ = ou_exact_discretization(a, B, dt)
    jmax = lag + 2 * (L - 1)
    R = np.empty((jmax + 1, c.shape[0], c.shape[0]))
    P = S.copy()
    for j in range(jmax + 1):  # powers of exp(A dt): at most lag + 2L - 1 of them
        R[j] = c @ P @ c.T
        P = M1 @ P

    def Rf(j: int) -> np.ndarray:
        return R[j] if j >= 0 else R[-j].T

    Spp = np.block([[Rf(l - i) for l in range(L)] for i in range(L)]) + obs_noise**2 * np.eye(L * c.shape[0])
    Sqp = np.block([[Rf(lag + i + l) for l in range(L)] for i in range(L)])
    return {"Spp": Spp, "Sqq": Spp.copy(), "Sqp": Sqp}


# --------------------------------------------------------------------------- sets, coherence, baselines
def sheppard_agreement(rho: ArrayLike) -> np.ndarray | float:
    r"""Sheppard's formula: for a centred bivariate Gaussian with correlation :math:`\rho`,
    :math:`P(\mathrm{sign}\,f = \mathrm{sign}\,g) = \tfrac12 + \arcsin(\rho)/\pi`.

    Parameters
    ----------
    rho : float or array_like in [-1, 1]

    Returns
    -------
    float or np.ndarray of the same shape.
    """
    r = np.asarray(rho, dtype=np.float64)
    if not np.all(np.isfinite(r)) or np.any(np.abs(r) > 1):
        raise ValueError("rho must lie in [-1, 1]")
    out = 0.5 + np.arcsin(r) / np.pi
    return float(out) if out.ndim == 0 else out


def sign_agreement(f: ArrayLike, g: ArrayLike) -> float:
    r"""Empirical coherence of a pair of half-space partitions: the share of samples with
    :math:`\mathrm{sign}\,f = \mathrm{sign}\,g` (samples on a boundary count as disagreeing).

    Parameters
    ----------
    f, g : array_like, shape (n,) or (n, k)
        Projections of the initial and the final states (``k`` candidate pairs in columns).

    Returns
    -------
    float, or np.ndarray of shape (k,) for 2-d input.
    """
    a = np.asarray(f, dtype=np.float64)
    b = np.asarray(g, dtype=np.float64)
    if a.shape != b.shape or a.ndim not in (1, 2) or a.shape[0] < 1:
        raise ValueError(f"f and g must have the same shape (n,) or (n, k); got {a.shape} and {b.shape}")
    out = np.mean(a * b > 0, axis=0)
    return float(out) if np.ndim(out) == 0 else out


def whitened_cosine(a: ArrayLike, b: ArrayLike, Sigma: ArrayLike) -> float:
    r"""|cos| of the angle between two receptive fields in the :math:`\Sigma`-inner product,
    :math:`|a^\top\Sigma b|/\sqrt{a^\top\Sigma a\;b^\top\Sigma b}`, i.e. :math:`|\mathrm{corr}(a^\top x, b^\top x)|`
    for :math:`x\sim N(0,\Sigma)`; equal to :math:`|\cos|` between :math:`\Sigma^{1/2}a` and
    :math:`\Sigma^{1/2}b` (the brief's "whitened directions").

    Parameters
    ----------
    a, b : array_like, shape (d,)
    Sigma : array_like, shape (d, d), symmetric positive definite

    Returns
    -------
    float in [0, 1]
    """
    S = _spd(Sigma, "Sigma")
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape != (S.shape[0],) or y.shape != (S.shape[0],):
        raise ValueError(f"a and b must have shape ({S.shape[0]},); got {x.shape} and {y.shape}")
    nx, ny = x @ S @ x, y @ S @ y
    if nx <= 0 or ny <= 0:
        raise ValueError("a and b must be nonzero")
    return float(min(1.0, abs(x @ S @ y) / np.sqrt(nx * ny)))


def line_angle_deg(a: ArrayLike, b: ArrayLike) -> float:
    r"""Angle between the lines spanned by two vectors, in degrees, in [0, 90]: :math:`\arccos|\cos(a,b)|`
    (computed as an arctangent, accurate near 0).

    Parameters
    ----------
    a, b : array_like, shape (d,), nonzero
    """
    x = np.asarray(a, dtype=np.float64).ravel()
    y = np.asarray(b, dtype=np.float64).ravel()
    if x.shape != y.shape or not (np.linalg.norm(x) > 0 and np.linalg.norm(y) > 0):
        raise ValueError("a and b must be nonzero vectors of the same length")
    x, y = x / np.linalg.norm(x), y / np.linalg.norm(y)
    c = x @ y
    return float(np.degrees(np.arctan2(np.linalg.norm(x - c * y), abs(c))))  # stable near 0 and 90 degrees


def principal_direction(X: ArrayLike) -> np.ndarray:
    """Top principal axis of the samples (the naive, instantaneous-covariance baseline; unit norm).

    Parameters
    ----------
    X : array_like, shape (n, d)

    Returns
    -------
    np.ndarray, shape (d,), unit Euclidean norm, largest entry positive.
    """
    x = np.asarray(X, dtype=np.float64)
    if x.ndim != 2 or x.shape[0] < 2:
        raise ValueError(f"X must be 2-d with at least 2 rows; got shape {x.shape}")
    w, V = np.linalg.eigh(np.cov(x, rowvar=False).reshape(x.shape[1], x.shape[1]))
    v = V[:, -1]
    return v * np.sign(v[np.argmax(np.abs(v))])


def random_directions(n: int, d: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` directions uniform on the unit sphere of R^d; shape (d, n)."""
    n = _int_at_least(n, 1, "n")
    d = _int_at_least(d, 1, "d")
    z = rng.standard_normal((d, n))
    return z / np.linalg.norm(z, axis=0)


# --------------------------------------------------------------------------- a skeptic's naive estimators
def _pair_arrays(X: ArrayLike, Y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(X, dtype=np.float64)
    y = np.asarray(Y, dtype=np.float64)
    if x.ndim != 2 or y.ndim != 2 or x.shape[0] != y.shape[0] or x.shape[0] < 2:
        raise ValueError(f"X and Y must be 2-d with the same number (>= 2) of rows; got {x.shape} and {y.shape}")
    return x, y


def pls_pair(X: ArrayLike, Y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    r"""Top singular pair of the raw (unwhitened) cross-covariance, PLS-SVD: the no-whitening ablation of CCA.

    With centred :math:`X` (initial states) and :math:`Y` (final states), :math:`C_{yx} = Y^\top X / n =
    U S V^\top`; returns :math:`(v_1, u_1)`, which maximise :math:`\mathrm{cov}(v^\top x, u^\top y)` over unit
    vectors (CCA maximises the correlation instead).

    Parameters
    ----------
    X : array_like, shape (n, p)
    Y : array_like, shape (n, q)

    Returns
    -------
    x_dir : np.ndarray, shape (p,); y_dir : np.ndarray, shape (q,); unit norm, signs with
    :math:`\mathrm{cov}(v^\top x, u^\top y) > 0` and the largest entry of ``x_dir`` positive.
    """
    x, y = _pair_arrays(X, Y)
    C = (y - y.mean(0)).T @ (x - x.mean(0)) / x.shape[0]
    U, _, Vt = np.linalg.svd(C)
    v, u = Vt[0], U[:, 0]
    sgn = np.sign(v[np.argmax(np.abs(v))])
    return v * sgn, u * sgn


def ls_partner(X: ArrayLike, Y: ArrayLike, R: ArrayLike) -> np.ndarray:
    r"""Least-squares partners of candidate initial fields: for each column :math:`r` of ``R``, the
    direction :math:`g = (Y_c^\top Y_c)^{-1}Y_c^\top X_c\,r` whose projection of the final state best predicts
    :math:`r^\top x` (linear regression on centred data; no singular value decomposition).

    Parameters
    ----------
    X : array_like, shape (n, p)
    Y : array_like, shape (n, q)
    R : array_like, shape (p,) or (p, k)

    Returns
    -------
    np.ndarray, shape (q,) or (q, k)
    """
    x, y = _pair_arrays(X, Y)
    r = np.asarray(R, dtype=np.float64)
    if r.shape[0] != x.shape[1] or r.ndim not in (1, 2):
        raise ValueError(f"R must have shape ({x.shape[1]},) or ({x.shape[1]}, k); got {r.shape}")
    xc, yc = x - x.mean(0), y - y.mean(0)
    return np.linalg.solve(yc.T @ yc, yc.T @ xc) @ r


def partner_search(X: ArrayLike, Y: ArrayLike, R: ArrayLike) -> tuple[np.ndarray, np.ndarray, float]:
    r"""A naive coherent-pair learner: each column of ``R`` as the initial field with its
    :func:`ls_partner` as the final field; keep the pair of highest :func:`sign_agreement` on ``(X, Y)``
    (ties: the first).

    Parameters
    ----------
    X : array_like, shape (n, p)
    Y : array_like, shape (n, q)
    R : array_like, shape (p, k)

    Returns
    -------
    x_dir (p,), y_dir (q,), and the training coherence of the pair (float).
    """
    x, y = _pair_arrays(X, Y)
    r = np.asarray(R, dtype=np.float64)
    if r.ndim != 2:
        raise ValueError(f"R must be 2-d (p, k); got shape {r.shape}")
    G = ls_partner(x, y, r)
    coh = np.atleast_1d(sign_agreement(x @ r, y @ G))
    j = int(np.argmax(coh))
    return r[:, j].copy(), G[:, j].copy(), float(coh[j])


def one_step_predictor(past: ArrayLike, future: ArrayLike) -> np.ndarray:
    r"""Least-squares one-step linear predictor (an AR(L) fit, no CCA): the coefficients :math:`w` minimising
    :math:`\sum_t (q_{t,0} - \bar q_0 - w^\top(p_t-\bar p))^2`, with ``past`` rows :math:`p_t` and the first
    column of ``future`` the next sample (as laid out by :func:`lag_embed`).

    Parameters
    ----------
    past : array_like, shape (n, L)
    future : array_like, shape (n, m), m >= 1

    Returns
    -------
    np.ndarray, shape (L,)
    """
    p, q = _pair_arrays(past, future)
    pc, qc = p - p.mean(0), q[:, 0] - q[:, 0].mean()
    return np.linalg.lstsq(pc, qc, rcond=None)[0]
