"""Kernels for *Asymptotic theory of SGD with a general learning-rate* (NeurIPS 2025).

Paper: Or Goldreich, Ziyang Wei, Soham Bonnerjee, Jiaqi Li, Wei Biao Wu,
https://openreview.net/forum?id=y5Diyh9XEQ . Used by ``notebooks/sgd-general-lr-asymptotics.py``.

The paper's precise theorems were not available to us; these kernels implement
the standard linear stochastic-approximation view of online SGD near its
optimum, which is what the paper's "unified framework" quantifies.

Notation (paper-style symbol -> our name):

* iterate ``θ_t`` -> ``theta``; optimum ``θ*`` -> ``theta_star``; error ``δ_t = θ_t − θ*`` -> ``delta``
* learning rate ``η_t`` (any schedule) -> ``etas[t]``, the step taken from ``θ_t`` to ``θ_{t+1}``
* Hessian / design covariance ``H = E[x xᵀ]`` -> ``H``; noise level ``σ`` -> ``sigma``
* gradient-noise covariance at ``θ*`` ``S`` -> ``S``
* second moment ``Σ_t = E[δ_t δ_tᵀ]`` -> ``Sigma[t]`` (the covariance when ``E δ_t = 0``)

Update (online SGD, one fresh sample per step):
``θ_{t+1} = θ_t − η_t ∇ℓ(θ_t; x_{t+1}, y_{t+1})``.
Linearised error recursion: ``δ_{t+1} ≈ (I − η_t H) δ_t − η_t ξ_{t+1}``, hence
``Σ_{t+1} = (I − η_t H) Σ_t (I − η_t H)ᵀ + η_t² S``       (additive-noise recursion).
For least squares with Gaussian design ``x ~ N(0, H)`` and noise variance ``σ²`` it is
exact (Isserlis' theorem, ``E[x xᵀ A x xᵀ] = 2HAH + tr(HA)H`` for symmetric ``A``):
``Σ_{t+1} = Σ_t − η_t (HΣ_t + Σ_t H) + η_t² (2HΣ_tH + tr(HΣ_t)H + σ²H)``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

SCHEDULES = ("constant", "polynomial", "inverse", "cyclic", "linear")


def _as_spd(H: ArrayLike, name: str = "H") -> np.ndarray:
    H = np.asarray(H, dtype=float)
    if H.ndim != 2 or H.shape[0] != H.shape[1]:
        raise ValueError(f"{name} must be a square matrix; got shape {H.shape}")
    if not np.allclose(H, H.T, atol=1e-12):
        raise ValueError(f"{name} must be symmetric")
    if np.linalg.eigvalsh(H).min() <= 0:
        raise ValueError(f"{name} must be positive definite")
    return H


def _as_etas(etas: ArrayLike) -> np.ndarray:
    etas = np.asarray(etas, dtype=float)
    if etas.ndim != 1 or etas.size == 0:
        raise ValueError(f"etas must be a non-empty 1-d array; got shape {etas.shape}")
    if np.any(etas < 0) or not np.all(np.isfinite(etas)):
        raise ValueError("etas must be finite and non-negative")
    return etas


def lr_schedule(
    kind: str,
    T: int,
    *,
    eta0: float = 0.1,
    alpha: float = 0.6,
    c: float = 1.0,
    t0: float = 1.0,
    eta_min: float = 0.01,
    period: int = 200,
) -> np.ndarray:
    """Learning rates ``η_0, ..., η_{T-1}`` of a named schedule.

    Parameters
    ----------
    kind : {"constant", "polynomial", "inverse", "cyclic", "linear"}
        ``constant``: ``η_t = eta0``. ``polynomial``: ``η_t = eta0 (t+1)^{-alpha}``.
        ``inverse``: ``η_t = c / (t + t0)`` (the classical ``c/t`` schedule, offset so that
        ``η_0 = c/t0`` stays stable). ``cyclic``: triangular cycles of length ``period``
        going ``eta_min -> eta0 -> eta_min``. ``linear``: linear decay to zero over the
        horizon, ``η_t = eta0 (1 - t/T)``.
    T : int
        Horizon (number of steps), ``T >= 1``.

    Returns
    -------
    ndarray, shape (T,)
    """
    if kind not in SCHEDULES:
        raise ValueError(f"kind must be one of {SCHEDULES}; got {kind!r}")
    if int(T) != T or T < 1:
        raise ValueError(f"T must be a positive int; got {T!r}")
    if eta0 <= 0:
        raise ValueError(f"eta0 must be positive; got {eta0}")
    t = np.arange(int(T), dtype=float)
    if kind == "constant":
        return np.full(int(T), float(eta0))
    if kind == "polynomial":
        if alpha <= 0 or alpha > 1:
            raise ValueError(f"alpha must lie in (0, 1]; got {alpha}")
        return eta0 * (t + 1.0) ** (-alpha)
    if kind == "inverse":
        if c <= 0 or t0 <= 0:
            raise ValueError(f"c and t0 must be positive; got c={c}, t0={t0}")
        return c / (t + t0)
    if kind == "cyclic":
        if period < 2 or not 0 <= eta_min <= eta0:
            raise ValueError(f"need period >= 2 and 0 <= eta_min <= eta0; got {period}, {eta_min}")
        phase = (t % period) / period
        return eta_min + (eta0 - eta_min) * (1.0 - np.abs(2.0 * phase - 1.0))
    return eta0 * (1.0 - t / T)  # linear decay to zero


def linear_sa_recursion(A: ArrayLike, S: ArrayLike, etas: ArrayLike, Sigma0: ArrayLike) -> np.ndarray:
    """Second moments of the linear recursion ``δ_{t+1} = (I − η_t A) δ_t − η_t ξ_{t+1}``.

    Implements ``Σ_{t+1} = (I − η_t A) Σ_t (I − η_t A)ᵀ + η_t² S`` (additive noise, ``Cov ξ = S``).

    Parameters
    ----------
    A : array_like, shape (d, d)
        Symmetric positive-definite Hessian at the optimum.
    S : array_like, shape (d, d)
        Symmetric positive semi-definite noise covariance.
    etas : array_like, shape (T,)
    Sigma0 : array_like, shape (d, d)
        ``E[δ_0 δ_0ᵀ]``.

    Returns
    -------
    ndarray, shape (T+1, d, d)
        ``Σ_0, ..., Σ_T``.
    """
    A = _as_spd(A, "A")
    return _recursion(A, S, etas, Sigma0, gaussian=False)


def second_moment_recursion(
    H: ArrayLike, sigma: float, etas: ArrayLike, Sigma0: ArrayLike, design: str = "gaussian"
) -> np.ndarray:
    """Exact second moments ``E[δ_t δ_tᵀ]`` of online least-squares SGD.

    Model: ``x ~ N(0, H)``, ``y = xᵀθ* + σ ε``, step ``θ ← θ − η_t x (xᵀθ − y)``.
    With ``design="gaussian"`` this is
    ``Σ_{t+1} = Σ_t − η_t(HΣ_t + Σ_tH) + η_t²(2HΣ_tH + tr(HΣ_t)H + σ²H)`` (exact by Isserlis);
    ``design="additive"`` drops the multiplicative terms (``S = σ²H``).

    Parameters
    ----------
    H : array_like, shape (d, d)
        Design covariance, symmetric positive definite.
    sigma : float
        Label-noise standard deviation, ``>= 0``.
    etas : array_like, shape (T,)
        Learning rates of any schedule.
    Sigma0 : array_like, shape (d, d)
        Initial second moment ``E[δ_0 δ_0ᵀ]``.
    design : {"gaussian", "additive"}

    Returns
    -------
    ndarray, shape (T+1, d, d)
    """
    H = _as_spd(H)
    if sigma < 0:
        raise ValueError(f"sigma must be >= 0; got {sigma}")
    if design not in ("gaussian", "additive"):
        raise ValueError(f"design must be 'gaussian' or 'additive'; got {design!r}")
    return _recursion(H, sigma**2 * H, etas, Sigma0, gaussian=design == "gaussian")


def _recursion(A: np.ndarray, S: ArrayLike, etas: ArrayLike, Sigma0: ArrayLike, gaussian: bool) -> np.ndarray:
    d = A.shape[0]
    S = np.asarray(S, dtype=float)
    Sigma0 = np.asarray(Sigma0, dtype=float)
    if S.shape != (d, d) or Sigma0.shape != (d, d):
        raise ValueError(f"S and Sigma0 must have shape {(d, d)}; got {S.shape} and {Sigma0.shape}")
    etas = _as_etas(etas)
    # Work in the eigenbasis of A: A = U diag(lam) Uᵀ.
    lam, U = np.linalg.eigh(A)
    Sb = U.T @ S @ U
    out = np.empty((etas.size + 1, d, d))
    out[0] = U.T @ Sigma0 @ U
    lsum = lam[:, None] + lam[None, :]
    lprod = lam[:, None] * lam[None, :]
    # per-step factors, vectorised over t: Σ_{t+1} = Σ_t ∘ F_t + η_t² S (+ η_t² tr(HΣ_t) H if gaussian)
    e2 = etas**2
    F = 1.0 - etas[:, None, None] * lsum + e2[:, None, None] * lprod * (2.0 if gaussian else 1.0)
    N = e2[:, None, None] * Sb
    G = e2[:, None] * lam  # extra Isserlis term on the diagonal: η² λ_i Σ_j λ_j P_jj
    for t in range(etas.size):
        P = out[t]
        nxt = out[t + 1]
        np.multiply(P, F[t], out=nxt)
        nxt += N[t]
        if gaussian:
            diag = nxt.reshape(-1)[:: d + 1]  # a view of the diagonal
            diag += G[t] * (lam @ P.reshape(-1)[:: d + 1])
    return U @ out @ U.T


def stationary_second_moment(H: ArrayLike, sigma: float, eta: float) -> np.ndarray:
    """Fixed point of :func:`second_moment_recursion` (Gaussian design) at a constant rate ``eta``.

    Solves ``Σ = Σ − η(HΣ + ΣH) + η²(2HΣH + tr(HΣ)H + σ²H)`` in the eigenbasis of ``H``: off-diagonal
    entries in closed form, the diagonal from a ``d × d`` linear system. Evaluated at a schedule's current
    rate this is the *quasi-static* prediction that ignores the schedule's history (the notebook's naive
    baseline). ``H`` has shape ``(d, d)``; returns shape ``(d, d)``. Needs ``0 < eta`` below the mean-square
    stability limit.
    """
    H = _as_spd(H)
    if sigma < 0 or not eta > 0:
        raise ValueError(f"need sigma >= 0 and eta > 0; got {sigma}, {eta}")
    lam, U = np.linalg.eigh(H)
    if not eta < 2.0 / (2.0 * lam.max() + lam.sum()):
        raise ValueError(f"eta={eta} is not below the mean-square stability limit {2.0 / (2.0 * lam.max() + lam.sum()):.4g}")
    Sb = sigma**2 * np.diag(lam)  # U^T (sigma^2 H) U
    lsum = lam[:, None] + lam[None, :]
    P = eta * Sb / (lsum - 2.0 * eta * np.outer(lam, lam))
    M = np.diag(2.0 * lam * (1.0 - eta * lam)) - eta * np.outer(lam, lam)
    np.fill_diagonal(P, np.linalg.solve(M, eta * np.diag(Sb)))
    return U @ P @ U.T


def sgd_linreg_mc(
    H: ArrayLike,
    theta_star: ArrayLike,
    sigma: float,
    etas: ArrayLike,
    theta0: ArrayLike,
    R: int,
    rng: np.random.Generator,
    record: ArrayLike | None = None,
) -> np.ndarray:
    """Run ``R`` independent chains of online least-squares SGD at once (Monte Carlo).

    Each step draws a fresh ``x ~ N(0, H)``, ``y = xᵀθ* + σ ε`` per chain and applies
    ``θ ← θ − η_t x (xᵀθ − y)``.

    Parameters
    ----------
    H : array_like, shape (d, d)
    theta_star, theta0 : array_like, shape (d,)
    sigma : float
    etas : array_like, shape (T,)
    R : int
        Number of chains.
    rng : numpy.random.Generator
    record : array_like of int, optional
        Step counts in ``[0, T]`` at which to store the errors.

    Returns
    -------
    ndarray
        ``θ_T − θ*`` of shape (R, d), or shape (len(record), R, d) if ``record`` is given.
    """
    H = _as_spd(H)
    L = np.linalg.cholesky(H)
    theta_star = np.asarray(theta_star, dtype=float)
    d = H.shape[0]
    if theta_star.shape != (d,) or np.shape(theta0) != (d,):
        raise ValueError(f"theta_star and theta0 must have shape {(d,)}")
    if sigma < 0:
        raise ValueError(f"sigma must be >= 0; got {sigma}")

    def step(theta: np.ndarray, eta: float, z: np.ndarray) -> np.ndarray:
        x = z[:, :d] @ L.T
        y = x @ theta_star + sigma * z[:, d]
        return theta - eta * (np.einsum("rd,rd->r", x, theta) - y)[:, None] * x

    return _run_chains(step, theta_star, etas, theta0, R, rng, record, d + 1)


def sgd_logreg_mc(
    theta_star: ArrayLike,
    etas: ArrayLike,
    theta0: ArrayLike,
    R: int,
    rng: np.random.Generator,
    record: ArrayLike | None = None,
) -> np.ndarray:
    """``R`` chains of online logistic-regression SGD, ``x ~ N(0, I)``, ``P(y=1|x) = s(xᵀθ*)``.

    Step: ``θ ← θ − η_t (s(xᵀθ) − y) x`` with ``s`` the logistic function.

    Returns
    -------
    ndarray
        ``θ_T − θ*``, shape (R, d), or (len(record), R, d) if ``record`` is given.
    """
    theta_star = np.asarray(theta_star, dtype=float)
    if theta_star.ndim != 1 or np.shape(theta0) != theta_star.shape:
        raise ValueError("theta_star and theta0 must be 1-d of equal length")
    d = theta_star.size

    def step(theta: np.ndarray, eta: float, z: np.ndarray) -> np.ndarray:
        x = z[:, :d]
        y = (z[:, d] < _sigmoid(x @ theta_star)).astype(float)
        return theta - eta * (_sigmoid(np.einsum("rd,rd->r", x, theta)) - y)[:, None] * x

    return _run_chains(step, theta_star, etas, theta0, R, rng, record, d + 1, uniform_last=True)


def _sigmoid(u: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * u))


def _run_chains(step, theta_star, etas, theta0, R, rng, record, width, uniform_last=False):
    etas = _as_etas(etas)
    if int(R) != R or R < 1:
        raise ValueError(f"R must be a positive int; got {R!r}")
    T = etas.size
    rec = np.array([T] if record is None else record, dtype=int).ravel()
    if rec.size == 0 or rec.min() < 0 or rec.max() > T:
        raise ValueError(f"record must hold step counts in [0, {T}]")
    theta = np.tile(np.asarray(theta0, dtype=float), (int(R), 1))
    out = np.empty((rec.size, int(R), theta.shape[1]))
    for k in np.flatnonzero(rec == 0):
        out[k] = theta - theta_star
    for t in range(T):
        z = rng.standard_normal((int(R), width))
        if uniform_last:
            z[:, -1] = rng.random(int(R))
        theta = step(theta, etas[t], z)
        for k in np.flatnonzero(rec == t + 1):
            out[k] = theta - theta_star
    return out[0] if record is None else out


def logistic_hessian_gaussian(theta_star: ArrayLike, n_nodes: int = 80) -> np.ndarray:
    """Hessian ``H = E[s'(xᵀθ*) x xᵀ]`` of the logistic population loss, ``x ~ N(0, I)``.

    It equals the gradient-noise covariance ``S = E[(s(xᵀθ*) − y)² x xᵀ]`` at ``θ*`` (well-specified
    model). By rotation invariance ``H = a (I − uuᵀ) + b uuᵀ`` with ``u = θ*/‖θ*‖``,
    ``a = E[s'(‖θ*‖ z)]``, ``b = E[s'(‖θ*‖ z) z²]``, ``z ~ N(0, 1)``, computed by Gauss–Hermite.

    Returns
    -------
    ndarray, shape (d, d)
    """
    theta_star = np.asarray(theta_star, dtype=float)
    if theta_star.ndim != 1 or not np.any(theta_star):
        raise ValueError("theta_star must be a non-zero 1-d vector")
    z, w = np.polynomial.hermite_e.hermegauss(n_nodes)
    w = w / w.sum()
    r = np.linalg.norm(theta_star)
    sp = _sigmoid(r * z) * (1.0 - _sigmoid(r * z))
    a, b = float(w @ sp), float(w @ (sp * z**2))
    u = theta_star / r
    d = theta_star.size
    return a * (np.eye(d) - np.outer(u, u)) + b * np.outer(u, u)


def linear_decay_final_variance(h: float, s: float, eta0: float, T: ArrayLike) -> np.ndarray:
    """Large-``T`` final variance of the scalar recursion ``v_{t+1} = (1 − η_t h)² v_t + η_t² s``
    under linear decay ``η_t = eta0 (1 − t/T)``: ``v_T ≈ (√π/4) s h^{-3/2} √(eta0/T)``.

    Our derivation (Laplace method on the sum ``Σ_t η_t² s exp(−2h Σ_{u>t} η_u)``), not a formula
    quoted from the paper. Valid when ``eta0 h T >> 1`` and ``eta0 h << 1``.
    """
    if h <= 0 or s < 0 or eta0 <= 0:
        raise ValueError("need h > 0, s >= 0, eta0 > 0")
    T = np.asarray(T, dtype=float)
    return np.sqrt(np.pi) / 4.0 * s * h**-1.5 * np.sqrt(eta0 / T)


def ci_coverage(est: ArrayLike, se: ArrayLike, truth: float, level: float = 0.95) -> float:
    """Fraction of intervals ``est ± z_{(1+level)/2} se`` that contain ``truth``.

    Parameters
    ----------
    est, se : array_like, shape (R,)
        Point estimates and standard errors (``se > 0``).
    truth : float
    level : float in (0, 1)
    """
    from scipy.stats import norm

    est = np.asarray(est, dtype=float)
    se = np.broadcast_to(np.asarray(se, dtype=float), est.shape)
    if est.ndim != 1 or est.size == 0:
        raise ValueError("est must be a non-empty 1-d array")
    if not 0 < level < 1 or np.any(se <= 0):
        raise ValueError("need 0 < level < 1 and se > 0")
    q = norm.ppf(0.5 + level / 2.0)
    return float(np.mean(np.abs(est - truth) <= q * se))


def relative_frobenius_error(estimate: ArrayLike, reference: ArrayLike) -> float:
    """``‖estimate − reference‖_F / ‖reference‖_F`` for matrices of equal shape."""
    estimate = np.asarray(estimate, dtype=float)
    reference = np.asarray(reference, dtype=float)
    if estimate.shape != reference.shape:
        raise ValueError(f"shapes differ: {estimate.shape} vs {reference.shape}")
    norm = np.linalg.norm(reference)
    if norm == 0:
        raise ValueError("reference must be non-zero")
    return float(np.linalg.norm(estimate - reference) / norm)


def cycles_to_steady_state(levels: ArrayLike, rtol: float = 0.01) -> int:
    """Number of cycles after which every relative change between consecutive cycle-end levels is ``< rtol``.

    Parameters
    ----------
    levels : array_like, shape (K,)
        Positive cycle-end values (e.g. ``E‖δ_{kP}‖²`` for ``k = 1..K``).
    rtol : float
        Relative-change tolerance.

    Returns
    -------
    int
        The smallest ``k`` such that ``|v_{j+1} − v_j| / v_{j+1} < rtol`` for all ``j >= k`` (1-based cycle
        count); ``K`` if even the last change is too large.
    """
    v = np.asarray(levels, dtype=float)
    if v.ndim != 1 or v.size < 2 or np.any(v <= 0) or rtol <= 0:
        raise ValueError("levels must be a positive 1-d array of length >= 2 and rtol > 0")
    bad = np.flatnonzero(np.abs(np.diff(v)) / v[1:] >= rtol)
    return int(bad[-1] + 2) if bad.size else 1


def second_moment(delta: ArrayLike) -> np.ndarray:
    """Monte Carlo second moment ``mean_r δ_r δ_rᵀ`` of an (R, d) array (shape (d, d))."""
    delta = np.asarray(delta, dtype=float)
    if delta.ndim != 2 or delta.shape[0] < 1:
        raise ValueError(f"delta must have shape (R, d); got {delta.shape}")
    return delta.T @ delta / delta.shape[0]
