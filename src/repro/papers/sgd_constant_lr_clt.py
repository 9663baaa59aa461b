"""Kernels for *Gaussian Approximation and Concentration of Constant Learning-Rate Stochastic Gradient Descent*.

Ziyang Wei, Jiaqi Li, Zhipeng Lou, Wei Biao Wu (NeurIPS 2025),
https://openreview.net/forum?id=aCPFvEg22L . Used by ``notebooks/sgd-constant-lr-clt.py``.

Notation map (paper -> ours)
----------------------------
* iterate :math:`\\theta_k`, step size :math:`\\eta`, target :math:`\\theta^*`      -> ``theta``, ``eta``, ``theta_star``
* sample :math:`\\xi_{k+1}`, stochastic gradient :math:`\\nabla \\ell(\\theta; \\xi)` -> ``sample_fn``, ``grad_fn``
* error :math:`\\delta_k = \\theta_k - \\theta^*`; Hessian :math:`A = \\nabla^2 F(\\theta^*)`;
  gradient-noise covariance :math:`S = \\mathrm{Cov}\\,\\nabla\\ell(\\theta^*;\\xi)`    -> ``delta``, ``A``, ``S``
* linear (autoregressive) approximation
  :math:`\\delta_{k+1} = (I-\\eta A)\\delta_k - \\eta\\varepsilon_{k+1}`, so that
  :math:`\\delta_k = (I-\\eta A)^k\\delta_0 - \\sum_{j<k} w_j \\varepsilon_{k-j}` with
  :math:`w_j = \\eta (I-\\eta A)^j`                                                   -> ``ar_weights``
* stationary covariance of :math:`\\delta` (exact for linear SGD): :math:`C = M C M^\\top + \\eta^2 S`,
  :math:`M = I - \\eta A`; the limit covariance of :math:`\\delta/\\sqrt\\eta` as :math:`\\eta\\to 0` solves
  :math:`A\\Sigma + \\Sigma A^\\top = S`                                               -> ``stationary_cov_linear``, ``lyapunov_cov``

The paper's own constants and its exact Berry--Esseen exponent were not retrieved; the tail bound here
is the classical Fuk--Nagaev inequality applied to the autoregressive representation above, which is
the route the paper's abstract describes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

__all__ = [
    "sgd_chains",
    "stationary_cov_linear",
    "lyapunov_cov",
    "langevin_isotropic_cov",
    "ar_weights",
    "weighted_sum_skewness",
    "linear_sgd_moments",
    "robbins_monro_steps",
    "fuk_nagaev_bound",
    "tail_quantiles",
    "big_jump_tail",
    "quadratic_grad",
    "logistic_grad",
    "logistic_sampler",
    "logistic_fisher",
    "n_steps_for",
    "symmetric_pareto_noise",
    "iqr_normal_scale",
]


# --------------------------------------------------------------------------- simulation


def sgd_chains(
    grad_fn: Callable[[np.ndarray, Any], np.ndarray],
    theta0: ArrayLike,
    eta: float | ArrayLike,
    n_steps: int,
    n_chains: int,
    sample_fn: Callable[[np.random.Generator, int], Any],
    rng: np.random.Generator,
    record_at: Sequence[int] | None = None,
) -> np.ndarray:
    """Run ``n_chains`` independent SGD chains at once: :math:`\\theta_{k+1} = \\theta_k - \\eta_k \\nabla\\ell(\\theta_k;\\xi_{k+1})`.

    All chains advance together (one vectorised update per step); each step draws a fresh sample per chain.

    Parameters
    ----------
    grad_fn : callable
        ``grad_fn(theta, sample) -> (n_chains, d)`` stochastic gradient for ``theta`` of shape ``(n_chains, d)``.
    theta0 : array_like, shape (d,) or (n_chains, d)
        Start (the same for every chain, or one per chain).
    eta : float or array_like, shape (n_steps,)
        Constant step size, or a schedule ``eta[k]`` used at step ``k`` (0-based).
    n_steps, n_chains : int
        Number of SGD steps and of independent chains.
    sample_fn : callable
        ``sample_fn(rng, n_chains)`` returns one fresh sample per chain.
    rng : numpy.random.Generator
    record_at : sequence of int, optional
        Step counts (1..n_steps) at which to keep a copy of the iterates.

    Returns
    -------
    numpy.ndarray
        ``(n_chains, d)`` final iterates, or ``(len(record_at), n_chains, d)`` if ``record_at`` is given.
    """
    if int(n_steps) != n_steps or n_steps < 1 or int(n_chains) != n_chains or n_chains < 1:
        raise ValueError(f"n_steps and n_chains must be positive ints; got {n_steps}, {n_chains}")
    steps = np.broadcast_to(np.asarray(eta, dtype=float), (int(n_steps),)) if np.ndim(eta) == 0 else np.asarray(eta, float)
    if steps.shape != (n_steps,) or np.any(steps <= 0):
        raise ValueError(f"eta must be a positive float or a positive array of shape ({n_steps},)")
    theta0 = np.asarray(theta0, dtype=float)
    if theta0.ndim == 1:
        theta = np.tile(theta0, (int(n_chains), 1))
    elif theta0.shape[0] == n_chains and theta0.ndim == 2:
        theta = theta0.copy()
    else:
        raise ValueError(f"theta0 must have shape (d,) or (n_chains, d); got {theta0.shape}")
    keep = sorted(set(int(k) for k in record_at)) if record_at is not None else []
    if any(k < 1 or k > n_steps for k in keep):
        raise ValueError(f"record_at must lie in 1..{n_steps}")
    out = []
    for k in range(int(n_steps)):
        theta -= steps[k] * grad_fn(theta, sample_fn(rng, int(n_chains)))
        if k + 1 in keep:
            out.append(theta.copy())
    if record_at is not None:
        order = [keep.index(int(k)) for k in record_at]
        return np.stack([out[i] for i in order])
    return theta


def n_steps_for(eta: float, rate: float = 1.0, factor: float = 8.0) -> int:
    """Burn-in length :math:`\\lceil \\text{factor}\\,\\log(1/\\eta)/(\\eta\\,\\text{rate})\\rceil`.

    After it the initial term :math:`(1-\\eta\\,\\text{rate})^K\\delta_0` has shrunk by about
    :math:`\\eta^{\\text{factor}}`.
    """
    if not 0 < eta < 1 or rate <= 0 or factor <= 0:
        raise ValueError(f"need 0 < eta < 1, rate > 0, factor > 0; got {eta}, {rate}, {factor}")
    return int(np.ceil(factor * np.log(1.0 / eta) / (eta * rate)))


def quadratic_grad(a: float = 1.0) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """Stochastic gradient of the 1-D quadratic :math:`\\ell(\\theta;z) = a\\theta^2/2 - \\theta z` (target 0).

    The update becomes :math:`\\theta \\leftarrow (1-\\eta a)\\theta + \\eta z`, i.e. linear SGD with
    noise :math:`\\varepsilon = -z`. ``z`` has shape ``(n_chains,)``.
    """
    if a <= 0:
        raise ValueError(f"curvature a must be positive; got {a}")
    return lambda theta, z: a * theta - z[:, None]


def symmetric_pareto_noise(alpha: float) -> Callable[[np.random.Generator, int], np.ndarray]:
    """Sampler of symmetric Pareto noise :math:`\\varepsilon = S\\,(U^{-1/\\alpha}-1)`, ``S`` a random sign, ``U`` uniform.

    :math:`P(|\\varepsilon|>t) = (1+t)^{-\\alpha}`: mean 0, and for :math:`\\alpha\\le 2` infinite variance,
    i.e. outside the moment conditions of a central limit theorem (the control of the notebook's CLT check).
    Returns ``sample_fn(rng, m) -> (m,)`` for :func:`sgd_chains`.
    """
    if not alpha > 1:
        raise ValueError(f"tail index alpha must exceed 1 (finite mean); got {alpha}")

    def sample(rng: np.random.Generator, m: int) -> np.ndarray:
        # U^(-1/alpha) = exp(E/alpha) with E ~ Exp(1): cheaper than a power of a uniform
        x = np.exp(rng.standard_exponential(m) * (1.0 / alpha)) - 1.0
        return np.where(rng.random(m) < 0.5, -x, x)

    return sample


def iqr_normal_scale(x: ArrayLike) -> float:
    """Scale of the normal law with the same interquartile range as ``x``: ``IQR / (2 * 0.6745)``.

    A robust standardisation for samples whose variance is infinite. ``x`` has shape ``(n,)``, ``n >= 4``.
    """
    x = np.asarray(x, dtype=float).ravel()
    if x.size < 4 or not np.all(np.isfinite(x)):
        raise ValueError("need at least 4 finite values")
    q1, q3 = np.quantile(x, [0.25, 0.75])
    return float((q3 - q1) / (2.0 * 0.6744897501960817))


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def logistic_grad(theta: np.ndarray, sample: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Per-chain logistic-loss gradient :math:`(\\sigma(x^\\top\\theta) - y)\\,x`.

    ``theta`` and ``x`` have shape ``(n_chains, d)``, ``y`` shape ``(n_chains,)``.
    """
    x, y = sample
    return (_sigmoid(np.einsum("nd,nd->n", x, theta)) - y)[:, None] * x


def logistic_sampler(theta_star: ArrayLike, x_var: ArrayLike) -> Callable[[np.random.Generator, int], tuple]:
    """Online stream of :math:`x \\sim N(0, \\mathrm{diag}(x\\_var))`, :math:`y \\sim \\mathrm{Bernoulli}(\\sigma(x^\\top\\theta^*))`."""
    ts = np.asarray(theta_star, float)
    sd = np.sqrt(np.asarray(x_var, float))
    if ts.shape != sd.shape or ts.ndim != 1 or np.any(sd <= 0):
        raise ValueError("theta_star and x_var must be 1-d of equal length with x_var > 0")

    def sample(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
        x = rng.standard_normal((n, ts.size)) * sd
        y = (rng.random(n) < _sigmoid(x @ ts)).astype(float)
        return x, y

    return sample


def logistic_fisher(theta_star: ArrayLike, x_var: ArrayLike, n_quad: int = 40) -> np.ndarray:
    """Hessian :math:`A = E[\\sigma'(x^\\top\\theta^*) x x^\\top]` of the population logistic loss, by Gauss--Hermite quadrature.

    For a well-specified model the gradient-noise covariance equals it (:math:`S = A`, Fisher information).

    Returns
    -------
    numpy.ndarray, shape (d, d)
    """
    ts = np.asarray(theta_star, float)
    var = np.asarray(x_var, float)
    if ts.shape != var.shape or ts.ndim != 1 or np.any(var <= 0) or n_quad < 2:
        raise ValueError("theta_star and x_var must be 1-d of equal length, x_var > 0, n_quad >= 2")
    nodes, weights = np.polynomial.hermite_e.hermegauss(int(n_quad))  # weight exp(-u^2/2)
    weights = weights / weights.sum()
    grids = np.meshgrid(*([nodes] * ts.size), indexing="ij")
    x = np.stack([g.ravel() for g in grids], axis=1) * np.sqrt(var)
    w = np.prod(np.meshgrid(*([weights] * ts.size), indexing="ij"), axis=0).ravel()
    s = _sigmoid(x @ ts)
    return np.einsum("n,ni,nj->ij", w * s * (1 - s), x, x)


# --------------------------------------------------------------------------- exact linear theory


def _check_pair(A: ArrayLike, S: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    A = np.atleast_2d(np.asarray(A, dtype=float))
    S = np.atleast_2d(np.asarray(S, dtype=float))
    if A.ndim != 2 or A.shape[0] != A.shape[1] or S.shape != A.shape:
        raise ValueError(f"A and S must be square of the same shape; got {A.shape} and {S.shape}")
    if not np.allclose(S, S.T):
        raise ValueError("S must be symmetric")
    return A, S


def stationary_cov_linear(A: ArrayLike, S: ArrayLike, eta: float) -> np.ndarray:
    """Exact stationary covariance of :math:`\\delta` for linear SGD :math:`\\delta \\leftarrow M\\delta - \\eta\\varepsilon`.

    Solves the discrete Lyapunov equation :math:`C = M C M^\\top + \\eta^2 S`, :math:`M = I - \\eta A`
    (brief Sec. 1.3), via :math:`(I - M\\otimes M)\\,\\mathrm{vec}\\,C = \\eta^2\\,\\mathrm{vec}\\,S`.
    ``C/eta`` is the covariance of :math:`\\delta/\\sqrt\\eta` and solves
    :math:`A\\Sigma + \\Sigma A^\\top - \\eta A\\Sigma A^\\top = S`.

    Parameters
    ----------
    A : array_like, shape (d, d)
        Hessian at the target; every eigenvalue of :math:`M` must lie inside the unit circle.
    S : array_like, shape (d, d)
        Symmetric noise covariance.
    eta : float
        Constant step size, > 0.

    Returns
    -------
    numpy.ndarray, shape (d, d)
    """
    A, S = _check_pair(A, S)
    if not eta > 0:
        raise ValueError(f"eta must be positive; got {eta}")
    d = A.shape[0]
    M = np.eye(d) - eta * A
    if np.max(np.abs(np.linalg.eigvals(M))) >= 1:
        raise ValueError("I - eta A is not stable (spectral radius >= 1): no stationary law")
    vec = np.linalg.solve(np.eye(d * d) - np.kron(M, M), eta**2 * S.reshape(-1))
    C = vec.reshape(d, d)
    return 0.5 * (C + C.T)


def lyapunov_cov(A: ArrayLike, S: ArrayLike) -> np.ndarray:
    """Small-step limit covariance of :math:`\\delta/\\sqrt\\eta`: solves :math:`A\\Sigma + \\Sigma A^\\top = S`.

    Via :math:`(I\\otimes A + A\\otimes I)\\,\\mathrm{vec}\\,\\Sigma = \\mathrm{vec}\\,S`; every eigenvalue of ``A``
    must have a positive real part. Shapes ``(d, d)`` in and out.
    """
    A, S = _check_pair(A, S)
    if np.min(np.linalg.eigvals(A).real) <= 0:
        raise ValueError("A must have eigenvalues with positive real part")
    d = A.shape[0]
    vec = np.linalg.solve(np.kron(np.eye(d), A) + np.kron(A, np.eye(d)), S.reshape(-1))
    X = vec.reshape(d, d)
    return 0.5 * (X + X.T)


def langevin_isotropic_cov(A: ArrayLike, S: ArrayLike) -> np.ndarray:
    r"""Naive alternative limit covariance of :math:`\delta/\sqrt\eta`: the Gibbs law of isotropic-noise Langevin.

    The "SGD is Langevin dynamics at temperature :math:`\eta\bar s/2`" picture replaces the gradient noise by
    isotropic noise of the same mean variance :math:`\bar s = \mathrm{tr}(S)/d`, whose stationary law near
    :math:`\theta^*` is :math:`\propto \exp(-F/T)`, i.e. covariance :math:`(\bar s/2)\,A^{-1}` for
    :math:`\delta/\sqrt\eta`. It solves :math:`A\Sigma + \Sigma A^\top = \bar s I` and equals
    :func:`lyapunov_cov` only when :math:`S` is a multiple of the identity (or, for commuting :math:`A, S`,
    when :math:`S \propto I`). Used on the page as a deliberately wrong prediction (a comparator), never as
    the paper's limit. Shapes ``(d, d)`` in and out; ``A`` symmetric positive definite.
    """
    A, S = _check_pair(A, S)
    if not np.allclose(A, A.T) or np.min(np.linalg.eigvalsh(0.5 * (A + A.T))) <= 0:
        raise ValueError("A must be symmetric positive definite")
    d = A.shape[0]
    X = 0.5 * np.trace(S) / d * np.linalg.inv(A)
    return 0.5 * (X + X.T)


def ar_weights(eta: float, a: float, n: int) -> np.ndarray:
    """Weights :math:`w_j = \\eta(1-\\eta a)^j`, ``j = 0..n-1``, of the noise in the 1-D AR(∞) form of :math:`\\delta` (shape ``(n,)``)."""
    if not (eta > 0 and a > 0 and 0 < eta * a < 2) or int(n) != n or n < 1:
        raise ValueError(f"need eta > 0, a > 0, 0 < eta*a < 2 and integer n >= 1; got {eta}, {a}, {n}")
    return eta * (1.0 - eta * a) ** np.arange(int(n))


def weighted_sum_skewness(eta: float, a: float, noise_skewness: float) -> float:
    """Skewness of the stationary 1-D linear-SGD iterate: :math:`\\gamma\\,\\sum w_j^3 / (\\sum w_j^2)^{3/2}`.

    With :math:`r = 1-\\eta a`: :math:`\\sum r^{3j} = 1/(1-r^3)`, :math:`\\sum r^{2j} = 1/(1-r^2)`; for small
    :math:`\\eta` this is :math:`\\gamma\\,(2^{3/2}/3)\\sqrt{\\eta a}`, the :math:`\\sqrt\\eta` scale of the Berry--Esseen
    error. ``noise_skewness`` is the standardised third cumulant :math:`\\gamma` of the noise entering :math:`\\delta`
    (for :math:`\\delta \\leftarrow r\\delta + \\eta z` it is the skewness of ``z``).
    """
    if not (eta > 0 and a > 0 and 0 < eta * a < 2):
        raise ValueError(f"need eta > 0, a > 0 and 0 < eta*a < 2; got {eta}, {a}")
    r = 1.0 - eta * a
    s3 = 1.0 / (1.0 - r**3)
    s2 = 1.0 / (1.0 - r**2)
    return float(noise_skewness * s3 / s2**1.5)


def linear_sgd_moments(
    etas: ArrayLike, a: float, noise_var: float, delta0: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """Exact mean and variance of 1-D linear SGD :math:`\\delta_{k+1} = (1-\\eta_k a)\\delta_k + \\eta_k z_{k+1}` under any schedule.

    :math:`m_{k+1} = (1-\\eta_k a) m_k`, :math:`v_{k+1} = (1-\\eta_k a)^2 v_k + \\eta_k^2\\sigma^2`, starting at
    :math:`m_0 = \\delta_0`, :math:`v_0 = 0`.

    Returns
    -------
    (mean, var) : two arrays of shape ``(len(etas),)``, the moments after steps ``1..len(etas)``.
    """
    e = np.asarray(etas, float)
    if e.ndim != 1 or e.size == 0 or np.any(e <= 0) or a <= 0 or noise_var < 0:
        raise ValueError("etas must be a non-empty positive 1-d array, a > 0, noise_var >= 0")
    r = 1.0 - e * a
    mean = delta0 * np.cumprod(r)
    var = np.empty_like(e)
    v = 0.0
    for k in range(e.size):  # a scalar recursion over time, not over chains
        v = r[k] ** 2 * v + e[k] ** 2 * noise_var
        var[k] = v
    return mean, var


def robbins_monro_steps(eta0: float, alpha: float, n: int) -> np.ndarray:
    """Decaying schedule :math:`\\eta_k = \\eta_0 k^{-\\alpha}`, ``k = 1..n`` (the baseline scheme; shape ``(n,)``)."""
    if not (eta0 > 0 and 0.5 < alpha <= 1) or int(n) != n or n < 1:
        raise ValueError(f"need eta0 > 0, 1/2 < alpha <= 1, integer n >= 1; got {eta0}, {alpha}, {n}")
    return eta0 * np.arange(1, int(n) + 1, dtype=float) ** (-alpha)


def fuk_nagaev_bound(x: ArrayLike, eta: float, a: float, p: float, moment_p: float, noise_var: float) -> np.ndarray:
    """Two-sided Fuk--Nagaev bound on :math:`P(|\\delta| > x)` for stationary 1-D linear SGD with symmetric noise.

    For independent symmetric :math:`X_j = w_j\\varepsilon_j` with :math:`p > 2` moments (Nagaev 1979, Cor. 1.8),

    .. math:: P(|\\textstyle\\sum_j X_j| \\ge x) \\le (1+2/p)^p \\frac{\\sum_j E|X_j|^p}{x^p}
              + 2\\exp\\Big(-\\frac{2x^2}{(p+2)^2 e^p B^2}\\Big),\\quad B^2 = \\sum_j E X_j^2,

    with :math:`\\sum_j w_j^p = \\eta^p/(1-(1-\\eta a)^p)` and :math:`\\sum_j w_j^2 = \\eta^2/(1-(1-\\eta a)^2)`:
    a polynomial :math:`x^{-p}` term plus a Gaussian term (brief Sec. 1.3).

    Parameters
    ----------
    x : array_like, shape (m,)
        Positive thresholds.
    moment_p, noise_var : float
        :math:`E|\\varepsilon|^p` and :math:`E\\varepsilon^2`.

    Returns
    -------
    numpy.ndarray, shape (m,)
    """
    x = np.asarray(x, float)
    if np.any(x <= 0) or p <= 2 or moment_p <= 0 or noise_var <= 0 or not (eta > 0 and a > 0 and 0 < eta * a < 2):
        raise ValueError("need x > 0, p > 2, positive moments, eta > 0, a > 0, 0 < eta*a < 2")
    r = abs(1.0 - eta * a)
    sum_wp = eta**p / (1.0 - r**p)
    b2 = noise_var * eta**2 / (1.0 - r**2)
    return (1 + 2 / p) ** p * sum_wp * moment_p / x**p + 2 * np.exp(-2 * x**2 / ((p + 2) ** 2 * np.exp(p) * b2))


def big_jump_tail(x: ArrayLike, eta: float, a: float, noise_sf: Callable[[np.ndarray], np.ndarray], n: int) -> np.ndarray:
    r"""Single-big-jump approximation :math:`P(|\delta|>x) \approx \sum_{j<n} P(|\varepsilon| > x/w_j)` for symmetric noise.

    The polynomial part of a Nagaev-type estimate with its sharp constant: far in the tail one large noise
    draw, weighted by :math:`w_j = \eta(1-\eta a)^j`, makes the excursion. For a noise tail
    :math:`P(\varepsilon>t)\sim c\,t^{-\nu}` it equals :math:`2c\,x^{-\nu}\sum_j w_j^\nu`.

    Parameters
    ----------
    x : array_like, shape (m,)
        Positive thresholds.
    noise_sf : callable
        Vectorised one-sided survival function :math:`t \mapsto P(\varepsilon > t)` of the symmetric noise.
    n : int
        Number of weights kept.

    Returns
    -------
    numpy.ndarray, shape (m,)
    """
    x = np.asarray(x, float)
    if x.ndim != 1 or np.any(x <= 0):
        raise ValueError("x must be a 1-d array of positive thresholds")
    w = np.abs(ar_weights(eta, a, n))
    return 2.0 * noise_sf(x[:, None] / w[None, :]).sum(axis=1)


def tail_quantiles(samples: ArrayLike, probs: ArrayLike) -> np.ndarray:
    """Thresholds :math:`x_q` with empirical :math:`P(|\\delta| > x_q) = q` (upper quantiles of ``|samples|``).

    Parameters
    ----------
    samples : array_like, shape (m,)
    probs : array_like, shape (k,)
        Tail probabilities in ``(0, 1)``, each at least ``1/m``.

    Returns
    -------
    numpy.ndarray, shape (k,)
    """
    s = np.abs(np.asarray(samples, float))
    q = np.asarray(probs, float)
    if s.ndim != 1 or s.size == 0:
        raise ValueError("samples must be a non-empty 1-d array")
    if np.any(q <= 0) or np.any(q >= 1) or np.any(q * s.size < 1):
        raise ValueError(f"probs must lie in [1/m, 1) with m = {s.size}")
    return np.quantile(s, 1.0 - q)
