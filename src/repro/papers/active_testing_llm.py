r"""Scaling Up Active Testing to Large Language Models: active testing with a cheap surrogate, LURE, bootstrap.

Paper map
---------
*Scaling Up Active Testing to Large Language Models*, Gabrielle Berrada, Jannik Kossen, Freddie Bickford Smith,
Muhammed Razzak, Yarin Gal, Tom Rainforth, NeurIPS 2025, https://arxiv.org/abs/2508.09093.
Official code: https://github.com/gabrielleberrada/scaling-up-active-testing.
Notebook: ``notebooks/active-testing-llm.py``.

Notation (paper -> here):

- pool of :math:`N` unlabelled test inputs :math:`x_i`, target model :math:`f`, loss
  :math:`L_i = -\log f(y_i\mid x_i)` -> ``losses`` (the target's cross-entropy);
- surrogate :math:`\pi(y\mid x)` (an in-context-learned LLM in the paper; a small classifier fitted once on a few
  labelled examples here) -> ``p_surr``;
- acquisition score :math:`\mathbb E_{y\sim\pi(\cdot\mid x_i)}L(f(x_i), y)` (cross-entropy between surrogate and
  target, the official default) -> :func:`expected_loss_under_surrogate`; target-free score (the surrogate's
  predictive entropy) -> :func:`surrogate_entropy`;
- proposal :math:`q` over the pool -> :func:`acquisition_probs`; draws :math:`i_1,\dots,i_M` without
  replacement, :math:`q` renormalised over the remaining points -> :func:`sample_sequential`;
- LURE weights :math:`v_m` and estimate :math:`\hat R_{\rm LURE}` (Farquhar et al. 2021, eq. 4) ->
  :func:`lure_weights`, :func:`lure_estimate`; bootstrap error estimate -> :func:`bootstrap_lure_std`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from repro.validate import check_int, finite_array

__all__ = ["expected_loss_under_surrogate", "surrogate_entropy", "acquisition_probs", "sample_sequential",
           "lure_weights", "lure_estimate", "bootstrap_lure_std", "cross_entropy_losses"]


def _probs(p: ArrayLike, name: str) -> np.ndarray:
    p = finite_array(p, name, ndim=2)
    if np.any(p < 0) or not np.allclose(p.sum(1), 1.0, atol=1e-6):
        raise ValueError(f"{name} must hold probability rows (non-negative, summing to 1)")
    return p


def cross_entropy_losses(p_target: ArrayLike, y: ArrayLike, eps: float = 1e-15) -> np.ndarray:
    r"""Per-point loss :math:`L_i = -\log \max(f(y_i\mid x_i), \epsilon)`.

    Parameters
    ----------
    p_target : array_like, shape (N, C)
        The target model's predictive probabilities.
    y : array_like of int, shape (N,)

    Returns
    -------
    ndarray, shape (N,)
    """
    p = _probs(p_target, "p_target")
    y = np.asarray(y)
    if y.shape != (len(p),) or not np.issubdtype(y.dtype, np.integer) or y.min() < 0 or y.max() >= p.shape[1]:
        raise ValueError("y must be integer labels in [0, C), one per row of p_target")
    return -np.log(np.maximum(p[np.arange(len(p)), y], eps))


def expected_loss_under_surrogate(p_target: ArrayLike, p_surr: ArrayLike, eps: float = 1e-15) -> np.ndarray:
    r"""Acquisition score :math:`s_i = -\sum_c \pi(c\mid x_i)\log f(c\mid x_i)`, the target's expected loss if labels
    followed the surrogate (the official "CE" acquisition; probabilities clipped at ``eps`` as there).

    Parameters
    ----------
    p_target, p_surr : array_like, shape (N, C)

    Returns
    -------
    ndarray, shape (N,)
    """
    pt, ps = _probs(p_target, "p_target"), _probs(p_surr, "p_surr")
    if pt.shape != ps.shape:
        raise ValueError(f"p_target {pt.shape} and p_surr {ps.shape} must have the same shape")
    return -(ps * np.log(np.clip(pt, eps, None))).sum(1)


def surrogate_entropy(p_surr: ArrayLike, eps: float = 1e-15) -> np.ndarray:
    r"""Target-free acquisition score: the surrogate's predictive entropy :math:`-\sum_c\pi(c\mid x)\log\pi(c\mid x)`
    (no prediction of the target model is needed). Shape ``(N,)``."""
    ps = _probs(p_surr, "p_surr")
    return -(ps * np.log(np.clip(ps, eps, None))).sum(1)


def acquisition_probs(scores: ArrayLike, mix_uniform: float = 0.1) -> np.ndarray:
    r"""Proposal :math:`q_i = (1-\lambda)\,s_i/\sum_j s_j + \lambda/N` from non-negative scores.

    Mixing with the uniform law (:math:`\lambda` = ``mix_uniform``) keeps every :math:`q_i > 0`, which LURE needs
    to stay unbiased with bounded weights.

    Parameters
    ----------
    scores : array_like, shape (N,), >= 0, not all 0 unless ``mix_uniform == 1``
    mix_uniform : float in [0, 1]

    Returns
    -------
    ndarray, shape (N,), sums to 1
    """
    s = finite_array(scores, "scores", ndim=1)
    if len(s) == 0 or np.any(s < 0):
        raise ValueError("scores must be a non-empty array of non-negative numbers")
    if not 0.0 <= mix_uniform <= 1.0:
        raise ValueError(f"mix_uniform must be in [0, 1]; got {mix_uniform!r}")
    if s.sum() == 0:
        if mix_uniform == 0:
            raise ValueError("all scores are 0 and mix_uniform is 0: no proposal")
        return np.full(len(s), 1.0 / len(s))
    return (1.0 - mix_uniform) * s / s.sum() + mix_uniform / len(s)


def sample_sequential(q: ArrayLike, M: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    r"""Draw ``M`` pool indices without replacement, each from ``q`` renormalised over the points left.

    Uses the Gumbel-top-k equivalence: the ``M`` largest keys :math:`\log q_i + G_i` (:math:`G_i` standard Gumbel),
    in decreasing order, have the law of sequential draws (Plackett-Luce).

    Parameters
    ----------
    q : array_like, shape (N,)
        Proposal, > 0 where it may be drawn, summing to 1.
    M : int, 1 <= M <= number of points with q > 0
    rng : numpy.random.Generator

    Returns
    -------
    idx : ndarray of int, shape (M,)
        The indices in the order drawn.
    q_at_pick : ndarray, shape (M,)
        :math:`q_m(i_m) = q_{i_m} / (1 - \sum_{k<m} q_{i_k})`, the probability with which each was drawn.
    """
    q = finite_array(q, "q", ndim=1)
    if np.any(q < 0) or not np.isclose(q.sum(), 1.0, atol=1e-9):
        raise ValueError("q must be non-negative and sum to 1")
    M = check_int(M, "M", least=1)
    if M > np.count_nonzero(q):
        raise ValueError(f"M = {M} exceeds the {np.count_nonzero(q)} points with q > 0")
    with np.errstate(divide="ignore"):
        keys = np.log(q) + rng.gumbel(size=len(q))
    idx = np.argsort(-keys, kind="stable")[:M]
    taken = np.concatenate([[0.0], np.cumsum(q[idx])[:-1]])
    return idx, q[idx] / np.maximum(1.0 - taken, 1e-300)


def lure_weights(q_at_pick: ArrayLike, N: int) -> np.ndarray:
    r"""LURE weights :math:`v_m = 1 + \frac{N-M}{N-m}\Big(\frac{1}{(N-m+1)\,q_m(i_m)} - 1\Big)`, :math:`m = 1..M`.

    With :math:`M = N` every weight is 1 (the official convention; the formula's :math:`0/0` at :math:`m = N`).

    Parameters
    ----------
    q_at_pick : array_like, shape (M,), in (0, 1]
    N : int, pool size, >= M

    Returns
    -------
    ndarray, shape (M,)
    """
    q = finite_array(q_at_pick, "q_at_pick", ndim=1)
    N = check_int(N, "N", least=1)
    M = len(q)
    if M == 0 or M > N:
        raise ValueError(f"need 1 <= M <= N; got M = {M}, N = {N}")
    if np.any(q <= 0) or np.any(q > 1 + 1e-12):
        raise ValueError("acquisition probabilities must be in (0, 1]")
    if M == N:
        return np.ones(M)
    m = np.arange(1, M + 1)
    return 1.0 + (N - M) / (N - m) * (1.0 / ((N - m + 1) * q) - 1.0)


def _draw_probs(probs: np.ndarray, M: int) -> np.ndarray:
    tail = np.cumsum(probs[::-1])[::-1]       # sum of probs over positions m..N-1: the mass still undrawn
    return probs[:M] / tail[:M]


def lure_estimate(losses: ArrayLike, probs: ArrayLike) -> float:
    r"""The LURE risk estimate :math:`\hat R = \frac1M\sum_{m=1}^M v_m L_{i_m}` (Farquhar et al. 2021, eq. 4).

    Parameters
    ----------
    losses : array_like, shape (M,)
        The target's losses on the acquired points, **in the order drawn**.
    probs : array_like, shape (N,)
        The acquisition distribution :math:`q` over the **whole pool**, listed in the same order: ``probs[:M]`` are the
        proposal values of the acquired points in the order drawn, ``probs[M:]`` those of the points never drawn (in
        any order). The pool size is ``N = len(probs)``. Each draw is from ``q`` renormalised over the points not yet
        drawn (as :func:`sample_sequential` does), so the probability of draw ``m`` is
        ``probs[m] / probs[m:].sum()``. ``probs`` need not be normalised.

    Returns
    -------
    float
    """
    L = finite_array(losses, "losses", ndim=1)
    p = finite_array(probs, "probs", ndim=1)
    M, N = len(L), len(p)
    if M == 0:
        raise ValueError("losses is empty")
    if M > N:
        raise ValueError(f"more losses ({M}) than pool points in probs ({N})")
    if np.any(p < 0) or np.any(p[:M] <= 0):
        raise ValueError("probs must be >= 0, and > 0 for the acquired points")
    return float(np.mean(lure_weights(_draw_probs(p, M), N) * L))


def bootstrap_lure_std(losses: ArrayLike, probs: ArrayLike, B: int, rng: np.random.Generator) -> float:
    r"""Bootstrap standard error of :func:`lure_estimate` from one run.

    As in the official code, the ``M`` acquired pairs :math:`(L_{i_m}, v_m)` are resampled with replacement, the
    weighted mean :math:`\frac1M\sum v L` recomputed ``B`` times, and its standard deviation returned.

    Parameters
    ----------
    losses, probs : as in :func:`lure_estimate`
    B : int, >= 2
    rng : numpy.random.Generator

    Returns
    -------
    float
    """
    L = finite_array(losses, "losses", ndim=1)
    p = finite_array(probs, "probs", ndim=1)
    B = check_int(B, "B", least=2)
    lure_estimate(L, p)  # validates
    v = lure_weights(_draw_probs(p, len(L)), len(p))
    draws = rng.integers(0, len(L), size=(B, len(L)))
    return float(np.std((v * L)[draws].mean(1)))
