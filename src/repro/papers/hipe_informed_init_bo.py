r"""Informed initialisation for Bayesian optimisation (HIPE): kernels.

Paper map
---------
*Informed Initialization for Bayesian Optimization and Active Learning*, Carl Hvarfner, David Eriksson,
Eytan Bakshy, Max Balandat, NeurIPS 2025, https://openreview.net/forum?id=S2kbLrV7mv (arXiv 2510.23681).
Notebook: ``notebooks/hipe-informed-init-bo.py``.

Notation (paper -> here):

- design space :math:`[0,1]^d` -> arrays of shape ``(n, d)``;
- hyperparameters :math:`\theta_j` (ARD lengthscales :math:`\ell_j`, output scale 1) with weights
  :math:`w_j` -> ``lengthscales`` of shape ``(J, d)`` and ``weights`` of shape ``(J,)``;
- candidate batch :math:`X` -> ``Xb`` of shape ``(q, d)``; test (MC) points :math:`x_*` -> ``X_star``;
- observation noise variance :math:`\sigma^2_\epsilon` -> ``noise_var``;
- predictive information gain (TSIG/EPIG) -> :func:`epig_batch`; hyperparameter information
  (BALD) :math:`I(y_X;\theta)` -> :func:`hyper_bald_batch`; HIPE :math:`\mathrm{TSIG} + \beta\,\mathrm{BALD}`
  -> :func:`hipe_score`; greedy batch construction -> :func:`greedy_batch`.

All information quantities are in nats. The initial batch is chosen with no data (:math:`D=\emptyset`),
so every GP here is the prior GP with zero mean.
"""

from __future__ import annotations

import functools
from typing import Callable

import numpy as np

__all__ = ["gaussian_information_gain", "rbf_kernel", "gp_posterior_var", "epig_batch",
           "hyper_bald_batch", "hipe_score", "conditional_hyper_information", "tuned_beta",
           "greedy_batch", "min_pairwise_distance"]


def gaussian_information_gain(prior_var, noise_var):
    r"""Mutual information between a noisy observation :math:`y=f+\epsilon` and the latent :math:`f`.

    For :math:`f\sim N(\mu, v)` and :math:`\epsilon\sim N(0, s)`,
    :math:`I(y; f) = \tfrac12\log(1 + v/s)` nats (the building block of EPIG/TSIG).

    Parameters
    ----------
    prior_var : float or array
        Latent variance :math:`v \ge 0`.
    noise_var : float or array
        Noise variance :math:`s > 0` (broadcast against ``prior_var``).

    Returns
    -------
    float or ndarray
        Information in nats, same broadcast shape.
    """
    v = np.asarray(prior_var, dtype=float)
    s = np.asarray(noise_var, dtype=float)
    if not (np.all(np.isfinite(v)) and np.all(np.isfinite(s))):
        raise ValueError("prior_var and noise_var must be finite")
    if np.any(v < 0):
        raise ValueError("prior_var must be >= 0")
    if np.any(s <= 0):
        raise ValueError("noise_var must be > 0")
    out = 0.5 * np.log1p(v / s)
    return float(out) if out.ndim == 0 else out


def _check_points(X, name: str, d: int | None = None) -> np.ndarray:
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n, d), got shape {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name} must be finite")
    if d is not None and X.shape[1] != d:
        raise ValueError(f"{name} has {X.shape[1]} columns, expected {d}")
    return X


def _check_thetas(lengthscales, weights, d: int) -> tuple[np.ndarray, np.ndarray]:
    L = np.asarray(lengthscales, dtype=float)
    if L.ndim == 1:
        L = L[None, :]
    if L.ndim != 2 or L.shape[1] != d:
        raise ValueError(f"lengthscales must have shape (J, {d}), got {L.shape}")
    if not np.all(np.isfinite(L)) or np.any(L <= 0):
        raise ValueError("lengthscales must be finite and > 0")
    w = np.full(L.shape[0], 1.0 / L.shape[0]) if weights is None else np.asarray(weights, dtype=float)
    if w.shape != (L.shape[0],) or np.any(w < 0) or not np.isclose(w.sum(), 1.0):
        raise ValueError("weights must be non-negative, shape (J,), and sum to 1")
    return L, w


def rbf_kernel(A, B, lengthscales) -> np.ndarray:
    r"""ARD squared-exponential kernel :math:`k(a,b)=\exp(-\tfrac12\sum_i (a_i-b_i)^2/\ell_i^2)`.

    Parameters
    ----------
    A : array, shape (..., n, d)
    B : array, shape (..., m, d)
    lengthscales : array, shape (d,) or broadcastable (..., 1, d)

    Returns
    -------
    ndarray, shape (..., n, m)
    """
    A = np.asarray(A, dtype=float)
    B = np.asarray(B, dtype=float)
    ls = np.asarray(lengthscales, dtype=float)
    if np.any(ls <= 0):
        raise ValueError("lengthscales must be > 0")
    a = A / ls
    b = B / ls
    d2 = (a * a).sum(-1)[..., :, None] + (b * b).sum(-1)[..., None, :] - 2.0 * a @ np.swapaxes(b, -1, -2)
    return np.exp(-0.5 * np.maximum(d2, 0.0))


def gp_posterior_var(X_train, Xs, lengthscales, noise_var: float) -> np.ndarray:
    r"""Latent posterior variance of a zero-mean, unit-scale RBF GP at ``Xs`` given noisy data at ``X_train``.

    :math:`\sigma^2_D(x) = 1 - k_x^\top (K + \sigma^2_\epsilon I)^{-1} k_x` (Rasmussen & Williams eq. 2.26).

    Parameters
    ----------
    X_train : array, shape (..., n, d)   (n may be 0)
    Xs : array, shape (m, d)
    lengthscales : array, shape (d,) or (..., 1, d)
    noise_var : float > 0

    Returns
    -------
    ndarray, shape (..., m)
    """
    if noise_var <= 0:
        raise ValueError("noise_var must be > 0")
    Xt = np.asarray(X_train, dtype=float)
    Xs = np.asarray(Xs, dtype=float)
    if Xt.shape[-2] == 0:
        return np.ones(Xt.shape[:-2] + (Xs.shape[0],))
    K = rbf_kernel(Xt, Xt, lengthscales) + noise_var * np.eye(Xt.shape[-2])
    Ks = rbf_kernel(Xt, Xs, lengthscales)  # (..., n, m)
    C = np.linalg.cholesky(K)
    V = np.linalg.inv(C) @ Ks  # C^{-1} k_x; the explicit inverse of the small (n, n) factor is much faster
    #                             than a batched LU solve against the m right-hand sides, equal to rounding
    return np.maximum(1.0 - (V * V).sum(-2), 0.0)


def epig_batch(Xb, X_star, lengthscales, weights=None, noise_var: float = 1e-3) -> np.ndarray:
    r"""Expected predictive information gain (TSIG) of a batch, averaged over hyperparameter samples.

    :math:`\mathrm{EPIG}(X) = \sum_j w_j \frac{1}{M}\sum_{x_*} \tfrac12
    \log\frac{\sigma^2_{\theta_j}(x_*)+\sigma^2_\epsilon}{\sigma^2_{\theta_j,X}(x_*)+\sigma^2_\epsilon}`,
    the paper's predictive term (entropy reduction of noisy predictions at MC test points; it does not
    depend on the observed values for a GP with fixed :math:`\theta`).

    Parameters
    ----------
    Xb : array, shape (q, d) or (C, q, d) for C candidate batches
    X_star : array, shape (M, d)
    lengthscales : array, shape (J, d)
    weights : array, shape (J,), or None for uniform
    noise_var : float > 0

    Returns
    -------
    ndarray, shape () or (C,)
    """
    X_star = _check_points(X_star, "X_star")
    d = X_star.shape[1]
    Xb = np.asarray(Xb, dtype=float)
    if Xb.ndim not in (2, 3) or Xb.shape[-1] != d or not np.all(np.isfinite(Xb)):
        raise ValueError(f"Xb must be finite with shape (q, {d}) or (C, q, {d}), got {Xb.shape}")
    L, w = _check_thetas(lengthscales, weights, d)
    if noise_var <= 0:
        raise ValueError("noise_var must be > 0")
    single = Xb.ndim == 2
    Xc = Xb[None] if single else Xb
    out = np.zeros(Xc.shape[0])
    # all J hyperparameter samples in one stacked call (each matrix is factorised exactly as one at a time)
    post = gp_posterior_var(Xc[None], X_star, L[:, None, None, :], noise_var)  # (J, C, M)
    gain = 0.5 * np.log((1.0 + noise_var) / (post + noise_var)).mean(-1)  # (J, C)
    for j in range(L.shape[0]):  # accumulate in the same order as a loop over j
        out += w[j] * gain[j]
    return out[0] if single else out


def _mvn_logpdf_chol(Y, C):
    """log N(Y; 0, C C^T) for Y (..., S, q) and C (..., q, q) broadcast on the leading dims."""
    q = C.shape[-1]
    Cinv = np.linalg.inv(C)
    Z = np.matmul(Y, np.swapaxes(Cinv, -1, -2))  # Z[..., s, i] = sum_j Cinv[..., i, j] Y[..., s, j]
    logdet = np.log(np.abs(np.diagonal(C, axis1=-2, axis2=-1))).sum(-1)
    return -0.5 * (Z * Z).sum(-1) - logdet[..., None] - 0.5 * q * np.log(2 * np.pi)


def hyper_bald_batch(Xb, lengthscales, weights=None, noise_var: float = 1e-3, n_mc: int = 64,
                     rng: np.random.Generator | None = None) -> np.ndarray:
    r"""Mutual information between the batch's noisy observations and the hyperparameters (BALD).

    :math:`I(y_X;\theta) = H\big[\sum_j w_j N(0, K_j)\big] - \sum_j w_j H[N(0, K_j)]`, with
    :math:`K_j = K_{\theta_j}(X,X)+\sigma^2_\epsilon I`; the mixture entropy is estimated by Monte Carlo
    (``n_mc`` draws per component, common random numbers across candidate batches) as
    :math:`E_{j, y\sim N(0,K_j)}[\log N(y;0,K_j) - \log \sum_i w_i N(y;0,K_i)]`, as the BoTorch community code does.

    Parameters
    ----------
    Xb : array, shape (q, d) or (C, q, d)
    lengthscales : array, shape (J, d)
    weights : array, shape (J,), or None for uniform
    noise_var : float > 0
    n_mc : int >= 1, draws per mixture component
    rng : numpy Generator (default: seeded with 0)

    Returns
    -------
    ndarray, shape () or (C,), in nats (>= 0 up to MC error; exactly 0 when all :math:`\theta_j` agree)
    """
    Xb = np.asarray(Xb, dtype=float)
    if Xb.ndim not in (2, 3) or not np.all(np.isfinite(Xb)):
        raise ValueError(f"Xb must be finite with shape (q, d) or (C, q, d), got {Xb.shape}")
    d = Xb.shape[-1]
    L, w = _check_thetas(lengthscales, weights, d)
    if noise_var <= 0:
        raise ValueError("noise_var must be > 0")
    if int(n_mc) < 1:
        raise ValueError("n_mc must be >= 1")
    rng = np.random.default_rng(0) if rng is None else rng
    single = Xb.ndim == 2
    Xc = Xb[None] if single else Xb
    Cn, q = Xc.shape[0], Xc.shape[1]
    J = L.shape[0]
    K = rbf_kernel(Xc[:, None], Xc[:, None], L[None, :, None, :]) + noise_var * np.eye(q)  # (C, J, q, q)
    Ch = np.linalg.cholesky(K)
    eps = rng.standard_normal((J, n_mc, q))
    Y = np.matmul(eps[None], np.swapaxes(Ch, -1, -2))  # draws from component j: (C, J, S, q)
    Yf = Y.reshape(Cn, 1, J * n_mc, q)
    logp = _mvn_logpdf_chol(Yf, Ch)  # (C, J_comp, J*S)
    logmix = np.log(np.maximum(w, 1e-300))[None, :, None] + logp
    m = logmix.max(1, keepdims=True)
    log_mixture = (m + np.log(np.exp(logmix - m).sum(1, keepdims=True)))[:, 0]  # (C, J*S)
    src_w = np.repeat(w, n_mc) / n_mc  # weight of each draw in the mixture expectation
    h_mix = -(log_mixture * src_w).sum(-1)
    # component entropies from the same draws (log density of each draw under its own component): the
    # estimate is then E[log p_j(y) - log p_mix(y)], exactly 0 when all components coincide
    own = logp.reshape(Cn, J, J, n_mc)[:, np.arange(J), np.arange(J)]  # (C, J, S)
    h_comp = -(own.mean(-1) @ w)
    out = h_mix - h_comp
    return out[0] if single else out


def hipe_score(Xb, X_star, lengthscales, weights=None, noise_var: float = 1e-3, beta: float = 1.0,
               n_mc: int = 64, rng: np.random.Generator | None = None) -> np.ndarray:
    r"""HIPE acquisition :math:`\mathrm{EPIG}(X) + \beta\,I(y_X;\theta)` for the initial batch (D = ∅).

    Parameters as in :func:`epig_batch` and :func:`hyper_bald_batch`; ``beta >= 0`` weights the
    hyperparameter term (``beta=0`` is EPIG/NIPV-like pure space filling).

    Returns
    -------
    ndarray, shape () or (C,), nats
    """
    if not np.isfinite(beta) or beta < 0:
        raise ValueError("beta must be finite and >= 0")
    e = epig_batch(Xb, X_star, lengthscales, weights, noise_var)
    if beta == 0:
        return e
    return e + beta * hyper_bald_batch(Xb, lengthscales, weights, noise_var, n_mc, rng)


def conditional_hyper_information(Xs_batches, X_star, lengthscales, weights=None, noise_var: float = 1e-3,
                                  n_grid: int = 64) -> np.ndarray:
    r"""Test-point-averaged conditional hyperparameter information of batches (the community ``qCHIG``).

    :math:`\mathrm{CHIG}(X_b) = \frac1M\sum_{x_*} I(y(x_*);\theta\mid X_b)`. With no data the conditioned GPs
    all have mean 0, so :math:`I(y(x_*);\theta\mid X_b) = H\big[\sum_j w_j N(0, v_j)\big] - \sum_j w_j
    \tfrac12\log(2\pi e\, v_j)` with :math:`v_j = \sigma^2_{\theta_j,X_b}(x_*)+\sigma^2_\epsilon`. The 1-D
    mixture entropy is integrated deterministically (trapezoid rule in :math:`u=\log|y|` on ``n_grid`` points,
    using the symmetry of the mixture); the BoTorch community code estimates the same quantity with 128 QMC
    draws per component.

    Parameters
    ----------
    Xs_batches : array, shape (B, q, d)
    X_star : array, shape (M, d)
    lengthscales : array, shape (J, d); weights : (J,) or None
    noise_var : float > 0
    n_grid : int >= 32, grid points of the entropy integral

    Returns
    -------
    ndarray, shape (B,), nats (>= 0)
    """
    Xs_batches = np.asarray(Xs_batches, dtype=float)
    X_star = _check_points(X_star, "X_star")
    if Xs_batches.ndim != 3 or Xs_batches.shape[-1] != X_star.shape[1] or not np.all(np.isfinite(Xs_batches)):
        raise ValueError("Xs_batches must be finite with shape (B, q, d) matching X_star's d")
    L, w = _check_thetas(lengthscales, weights, X_star.shape[1])
    if noise_var <= 0 or int(n_grid) < 32:
        raise ValueError("noise_var must be > 0 and n_grid >= 32")
    V = np.moveaxis(gp_posterior_var(Xs_batches[None], X_star, L[:, None, None, :], noise_var), 0, -1) + noise_var
    lo = 0.5 * np.log(V.min()) - 8.0          # |y| below e^-8 sd_min and above 9 sd_max carry < 1e-6 nats
    hi = 0.5 * np.log(V.max()) + np.log(9.0)
    u = np.linspace(lo, hi, int(n_grid))                                              # (U,)
    eu = np.exp(u)
    logc = -0.5 * eu ** 2 / V[..., None] - 0.5 * np.log(2 * np.pi * V[..., None])    # (B, M, J, U)
    comp = np.exp(logc)
    pmix = np.maximum(np.einsum("bmju,j->bmu", comp, w), 1e-300)                      # (B, M, U)
    h_mix = -np.trapezoid(2.0 * pmix * np.log(pmix) * eu, u, axis=-1)                 # p log p dy, both signs
    # component entropies by the same rule (closed form 1/2 log(2 pi e v_j)), so that its error cancels
    h_j = -np.trapezoid(2.0 * comp * logc * eu, u, axis=-1)                           # (B, M, J)
    h_comp = h_j @ w
    return np.maximum(h_mix - h_comp, 0.0).mean(-1)


def tuned_beta(Xs_batches, X_star, lengthscales, weights=None, noise_var: float = 1e-3, n_grid: int = 64) -> float:
    r"""The BoTorch-community rule for HIPE's :math:`\beta`: the largest, over Sobol batches :math:`X_b` (32 of
    them in the community code), of :func:`conditional_hyper_information`.

    Parameters
    ----------
    Xs_batches : array, shape (B, q, d)
    X_star : array, shape (M, d)
    lengthscales : array, shape (J, d); weights : (J,) or None
    noise_var : float > 0; n_grid : int, as in :func:`conditional_hyper_information`

    Returns
    -------
    float, nats (>= 0)
    """
    return float(conditional_hyper_information(Xs_batches, X_star, lengthscales, weights, noise_var, n_grid).max())


def greedy_batch(score_fn: Callable[[np.ndarray], np.ndarray], candidates, q: int) -> np.ndarray:
    """Build a batch of ``q`` points greedily: at step k add the candidate maximising ``score_fn``.

    Parameters
    ----------
    score_fn : callable
        Maps candidate batches of shape (C, k, d) to scores of shape (C,).
    candidates : array, shape (N, d)
    q : int, 1 <= q <= N

    Returns
    -------
    ndarray, shape (q, d): the chosen points, in the order chosen.
    """
    cand = _check_points(candidates, "candidates")
    q = int(q)
    if not 1 <= q <= cand.shape[0]:
        raise ValueError(f"q must be in [1, {cand.shape[0]}], got {q}")
    chosen: list[int] = []
    for _ in range(q):
        free = np.setdiff1d(np.arange(cand.shape[0]), chosen)
        base = cand[chosen]
        batches = np.concatenate([np.broadcast_to(base, (free.size,) + base.shape), cand[free][:, None]], 1)
        s = np.asarray(score_fn(batches), dtype=float)
        if s.shape != (free.size,):
            raise ValueError(f"score_fn returned shape {s.shape}, expected ({free.size},)")
        chosen.append(int(free[int(np.argmax(s))]))
    return cand[chosen]


def min_pairwise_distance(X) -> float:
    """Smallest Euclidean distance between two distinct rows of ``X`` (shape (n, d), n >= 2): space filling."""
    X = _check_points(X, "X")
    if X.shape[0] < 2:
        raise ValueError("need at least 2 points")
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    return float(D[np.triu_indices(X.shape[0], 1)].min())


# ---------------------------------------------------------------------------------------------------------
# The experiment (few-shot BO: one initial batch, then one qLogEI batch), with botorch for the GP and qLogEI.
# ---------------------------------------------------------------------------------------------------------

GP_SAMPLE_LENGTHSCALES = (0.2, 0.5, 2.0, 10.0)
DESIGNS = ("hipe", "sobol", "random", "lhs", "maximin", "bald", "epig", "hipe-tuned")


def make_objective(name: str, seed: int, n_features: int = 512):
    """A test function on the unit cube, to be maximised.

    ``"gp4"``: a sample path of a 4-D RBF GP with ARD lengthscales ``GP_SAMPLE_LENGTHSCALES`` (random Fourier
    features, ``n_features`` of them, seeded); ``"branin"`` (2-D) and ``"hartmann6"`` (6-D): botorch's test
    functions, negated and rescaled to the unit cube.

    Returns
    -------
    (f, d, f_max, true_lengthscales): f maps (n, d) arrays to (n,) arrays; f_max is the known maximum
    (for ``gp4``, the best of 20000 Sobol points plus a local refinement is used); true_lengthscales is an
    array for ``gp4`` and None otherwise.
    """
    from scipy.stats import qmc
    if name == "gp4":
        r = np.random.default_rng(10_000 + seed)
        ls = np.array(GP_SAMPLE_LENGTHSCALES)
        W = r.standard_normal((n_features, 4)) / ls
        b = r.uniform(0, 2 * np.pi, n_features)
        a = r.standard_normal(n_features)

        def f(X):
            X = np.asarray(X, dtype=float)
            return np.sqrt(2.0 / n_features) * np.cos(X @ W.T + b) @ a
        grid = qmc.Sobol(4, scramble=True, seed=seed).random(2 ** 14)
        return f, 4, float(f(grid).max()), ls
    import torch
    from botorch.test_functions import Branin, Hartmann
    fn = {"branin": Branin, "hartmann6": lambda: Hartmann(dim=6)}.get(name)
    if fn is None:
        raise ValueError(f"unknown objective {name!r}")
    tf = fn()
    lo, hi = tf.bounds[0].double().numpy(), tf.bounds[1].double().numpy()

    def f(X):
        Z = lo + np.asarray(X, dtype=float) * (hi - lo)
        return -tf.evaluate_true(torch.as_tensor(Z, dtype=torch.float64)).numpy()
    return f, tf.dim, float(-tf.optimal_value), None


def hyper_prior_samples(d: int, n: int, seed: int, median: float = 0.5, sigma: float = 1.0) -> np.ndarray:
    """``n`` ARD lengthscale vectors, shape (n, d), i.i.d. LogNormal(log(median), sigma) per dimension."""
    if d < 1 or n < 1 or median <= 0 or sigma <= 0:
        raise ValueError("need d >= 1, n >= 1, median > 0, sigma > 0")
    return np.exp(np.log(median) + sigma * np.random.default_rng(seed).standard_normal((n, d)))


def maximin_design(candidates, q: int) -> np.ndarray:
    """Greedy maximin-distance batch: start at the first candidate, then repeatedly add the candidate whose
    nearest chosen point is farthest (a fixed, naive space-filling design; no GP, no information criterion).

    Parameters
    ----------
    candidates : array, shape (N, d)
    q : int, 1 <= q <= N

    Returns
    -------
    ndarray, shape (q, d): the chosen points, in the order chosen.
    """
    C = _check_points(candidates, "candidates")
    if not 1 <= q <= C.shape[0]:
        raise ValueError("q must be in [1, number of candidates]")
    idx = [0]
    dmin = ((C - C[0]) ** 2).sum(-1)
    for _ in range(q - 1):
        k = int(np.argmax(dmin))
        idx.append(k)
        dmin = np.minimum(dmin, ((C - C[k]) ** 2).sum(-1))
    return C[idx]


def initial_design(kind: str, d: int, q: int, seed: int, n_candidates: int = 128, n_theta: int = 16,
                   n_mc: int = 16, n_star: int = 128, beta: float = 1.0, noise_var: float = 1e-3,
                   chunk: int = 64, n_beta_batches: int = 32) -> np.ndarray:
    """The initial batch, shape (q, d), by design ``kind`` in ``DESIGNS``.

    ``sobol``: scrambled Sobol; ``random``: uniform; ``lhs``: Latin hypercube (scipy); ``maximin``: :func:`maximin_design` over HIPE's Sobol
    candidate set; ``hipe``: greedy EPIG + beta * BALD over a Sobol
    candidate set; ``epig``: beta = 0 (pure predictive space filling, NIPV-like); ``bald``: BALD only;
    ``hipe-tuned``: HIPE with beta from :func:`tuned_beta` over ``n_beta_batches`` Sobol batches of size q
    (32, the community default ``beta_tuning_samples``).
    """
    from scipy.stats import qmc
    if kind not in DESIGNS:
        raise ValueError(f"kind must be one of {DESIGNS}")
    if kind == "sobol":
        return qmc.Sobol(d, scramble=True, seed=seed).random(q)
    if kind == "random":
        return np.random.default_rng(seed).uniform(size=(q, d))
    if kind == "lhs":
        return qmc.LatinHypercube(d, seed=8000 + seed).random(q)
    cand = qmc.Sobol(d, scramble=True, seed=1000 + seed).random(n_candidates)
    if kind == "maximin":
        return maximin_design(cand, q)
    X_star = qmc.Sobol(d, scramble=True, seed=2000 + seed).random(n_star)
    L = hyper_prior_samples(d, n_theta, 3000 + seed)
    if kind == "hipe-tuned":
        # as botorch's draw_sobol_samples(n, q, bounds): n points of a (q*d)-dim scrambled Sobol sequence
        sob = qmc.Sobol(q * d, scramble=True, seed=7000 + seed).random(n_beta_batches).reshape(n_beta_batches, q, d)
        beta = tuned_beta(sob, X_star, L, None, noise_var)

    def score(batches):
        out = []
        for s in range(0, batches.shape[0], chunk):
            B = batches[s:s + chunk]
            rng = np.random.default_rng(4000 + seed)  # common random numbers across candidates
            if kind == "bald":
                out.append(hyper_bald_batch(B, L, None, noise_var, n_mc, rng))
            else:
                out.append(hipe_score(B, X_star, L, None, noise_var, 0.0 if kind == "epig" else beta, n_mc, rng))
        return np.concatenate(out)
    return greedy_batch(score, cand, q)


@functools.lru_cache(maxsize=8)
def _test_set(f, d: int, seed: int, n_test: int):
    """The test points (Sobol, seeded) and f on them, computed once per (objective, seed) and shared by all
    designs evaluated on it (f's values are read-only; do not modify the points)."""
    from scipy.stats import qmc
    Xtest = qmc.Sobol(d, scramble=True, seed=5000 + seed).random(n_test)
    ftest = np.asarray(f(Xtest), dtype=float)
    ftest.setflags(write=False)
    return Xtest, ftest


def evaluate_design(X0, f, f_max: float, true_ls=None, seed: int = 0, n_test: int = 1024,
                    n_bo_candidates: int = 256) -> dict:
    """Fit a botorch GP to the initial batch, measure its prediction, then take one qLogEI batch.

    Returns a dict with ``rmse`` (test RMSE / std of f on the test set), ``ls_err`` (mean over dimensions of
    |log fitted lengthscale - log true|, NaN without true lengthscales), ``regret_init`` and ``regret``
    (simple regret after the initial batch and after one qLogEI batch of the same size, each divided by
    f_max - median f on the test set).
    """
    import torch
    from botorch.acquisition.logei import qLogExpectedImprovement
    from botorch.fit import fit_gpytorch_mll
    from botorch.models import SingleTaskGP
    from botorch.models.transforms import Standardize
    from botorch.optim import optimize_acqf_discrete
    from gpytorch.mlls import ExactMarginalLogLikelihood
    from scipy.stats import qmc
    X0 = _check_points(X0, "X0")
    q, d = X0.shape
    torch.manual_seed(seed)
    Xt = torch.as_tensor(X0, dtype=torch.float64)
    y0 = f(X0)
    Yt = torch.as_tensor(y0, dtype=torch.float64)[:, None]
    model = SingleTaskGP(Xt, Yt, outcome_transform=Standardize(m=1))
    fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
    Xtest, ftest = _test_set(f, d, seed, n_test)
    with torch.no_grad():
        mu = model.posterior(torch.as_tensor(Xtest)).mean.squeeze(-1).numpy()
    scale = float(np.std(ftest))
    rmse = float(np.sqrt(np.mean((mu - ftest) ** 2)) / scale)
    ls_fit = model.covar_module.lengthscale.detach().numpy().ravel()
    ls_err = float(np.mean(np.abs(np.log(ls_fit) - np.log(true_ls)))) if true_ls is not None else float("nan")
    from botorch.sampling.normal import SobolQMCNormalSampler
    acq = qLogExpectedImprovement(model, best_f=Yt.max(), sampler=SobolQMCNormalSampler(torch.Size([128]), seed=seed))
    cand = torch.as_tensor(qmc.Sobol(d, scramble=True, seed=6000 + seed).random(n_bo_candidates))
    X1, _ = optimize_acqf_discrete(acq, q=q, choices=cand)
    y1 = f(X1.numpy())
    denom = f_max - float(np.median(ftest))
    return dict(rmse=rmse, ls_err=ls_err, regret_init=float((f_max - y0.max()) / denom),
                regret=float((f_max - max(y0.max(), y1.max())) / denom))
