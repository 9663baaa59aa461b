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

Batched forms for many independent acquisitions at once (the notebook's Monte Carlo): :func:`sample_sequential_runs`
(Gumbel top-k, the law of :func:`sample_sequential`), :func:`sample_clipped_runs` (the official proposal, floored at
``clip / remaining`` at every step), :func:`lure_estimates` (LURE from the probabilities at the picks),
:func:`bootstrap_mean_std` and :func:`plugin_mean_std` (the bootstrap and the textbook standard error of a mean of
terms :math:`v_m L_{i_m}`).

The page's pre-registered Monte Carlo, one random stream consumed run by run: :func:`shared_stream_estimates`
(random labelling and LURE under several proposals) and :func:`shared_stream_bootstrap` (single runs with their
bootstrap). The measurement: :func:`random_labelling_mse` (the closed form of random labelling's MSE) and
:func:`mse_ratio` (an MSE ratio with its Monte Carlo standard error).

Comparators that use none of the paper's ideas: :func:`uniform_estimates` (the mean of uniformly drawn labels,
optionally pooled with labels held elsewhere) and :func:`stratified_estimates` (stratified random sampling on
quantile strata of a cheap score, with proportional allocation or with labels allocated by the stratum's mean
score, a proxy of Neyman's allocation; Cochran 1977, ch. 5).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from repro.validate import check_int, finite_array

__all__ = ["expected_loss_under_surrogate", "surrogate_entropy", "acquisition_probs", "sample_sequential",
           "lure_weights", "lure_estimate", "bootstrap_lure_std", "cross_entropy_losses", "sample_sequential_runs",
           "clipped_proposal", "sample_clipped_runs", "lure_estimates", "bootstrap_mean_std", "plugin_mean_std",
           "uniform_estimates", "stratified_estimates", "random_labelling_mse", "mse_ratio",
           "shared_stream_estimates", "shared_stream_bootstrap"]


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
    return bootstrap_mean_std(v * L, B, rng)


# ----------------------------------------------------------------------------- batched Monte Carlo


def _runs_rng(runs: int, rng: np.random.Generator) -> int:
    if not isinstance(rng, np.random.Generator):
        raise ValueError("rng must be a numpy.random.Generator")
    return check_int(runs, "runs", least=1)


def sample_sequential_runs(q: ArrayLike, M: int, runs: int, rng: np.random.Generator
                           ) -> tuple[np.ndarray, np.ndarray]:
    r"""``runs`` independent draws of :func:`sample_sequential` at once (Gumbel top-k, row by row).

    Parameters
    ----------
    q : array_like, shape (N,)
        Proposal, >= 0, summing to 1.
    M : int, 1 <= M <= number of points with q > 0
    runs : int, >= 1
    rng : numpy.random.Generator

    Returns
    -------
    idx : ndarray of int, shape (runs, M)
        Each row: the indices in the order drawn (without replacement, ``q`` renormalised over the points left).
    q_at_pick : ndarray, shape (runs, M)
        :math:`q_m(i_m) = q_{i_m}/(1-\sum_{k<m} q_{i_k})`.

    Notes
    -----
    The first ``M'`` columns of a draw of size ``M`` are a draw of size ``M'`` (the sequential law), so one call
    serves every budget up to ``M``.
    """
    q = finite_array(q, "q", ndim=1)
    if np.any(q < 0) or not np.isclose(q.sum(), 1.0, atol=1e-9):
        raise ValueError("q must be non-negative and sum to 1")
    M = check_int(M, "M", least=1)
    runs = _runs_rng(runs, rng)
    if M > np.count_nonzero(q):
        raise ValueError(f"M = {M} exceeds the {np.count_nonzero(q)} points with q > 0")
    with np.errstate(divide="ignore"):
        keys = np.log(q)[None, :] + rng.gumbel(size=(runs, len(q)))
    if M < len(q):                           # the M largest keys, then sorted: the same as a full argsort
        top = np.argpartition(-keys, M - 1, axis=1)[:, :M]
        idx = np.take_along_axis(top, np.argsort(-np.take_along_axis(keys, top, axis=1), axis=1, kind="stable"),
                                 axis=1)
    else:
        idx = np.argsort(-keys, axis=1, kind="stable")
    qi = q[idx]
    taken = np.concatenate([np.zeros((runs, 1)), np.cumsum(qi, axis=1)[:, :-1]], axis=1)
    return idx, qi / np.maximum(1.0 - taken, 1e-300)


def clipped_proposal(scores: ArrayLike, clip: float) -> np.ndarray:
    r"""The official code's law for one draw: scores normalised, floored at ``clip / n``, normalised again.

    Official ``acquisition.py``, ``Acquisition.get_pmf_distr``, applied to the ``n`` points not yet drawn.

    Parameters
    ----------
    scores : array_like, shape (n,), >= 0
        The acquisition scores of the remaining points (all zero is allowed only with ``clip > 0``: then uniform).
    clip : float in [0, 1]

    Returns
    -------
    ndarray, shape (n,), sums to 1
    """
    s = finite_array(scores, "scores", ndim=1)
    if len(s) == 0 or np.any(s < 0):
        raise ValueError("scores must be a non-empty array of non-negative numbers")
    if not 0.0 <= clip <= 1.0:
        raise ValueError(f"clip must be in [0, 1]; got {clip!r}")
    if s.sum() == 0 and clip == 0:
        raise ValueError("all scores are 0 and clip is 0: no proposal")
    w = s / s.sum() if s.sum() > 0 else s
    w = np.maximum(clip / len(s), w)
    return w / w.sum()


def sample_clipped_runs(scores: ArrayLike, M: int, clip: float, runs: int, rng: np.random.Generator
                        ) -> tuple[np.ndarray, np.ndarray]:
    r"""Sequential acquisition with the official code's proposal, ``runs`` independent runs at once.

    At step :math:`m` (``N - m`` points left) the scores of the remaining points are normalised to sum to 1, floored
    at ``clip / (N - m)`` and normalised again (:func:`clipped_proposal`); one point is drawn from that law
    (official ``acquisition.py``,
    ``Acquisition.get_pmf_distr`` and ``Acquisition.run``: ``clip_percentage`` 0.1 for estimation, 0.01 for the
    bootstrap runs). The floor is re-applied at every step, unlike :func:`acquisition_probs`, which mixes once.

    Parameters
    ----------
    scores : array_like, shape (N,), >= 0, with a positive sum
    M : int, 1 <= M <= N
    clip : float in [0, 1]
        The floor as a fraction of the uniform probability; ``clip`` = 0 samples from the scores alone (then every
        remaining point needs a positive score).
    runs : int, >= 1
    rng : numpy.random.Generator

    Returns
    -------
    idx : ndarray of int, shape (runs, M)
        The indices in the order drawn.
    q_at_pick : ndarray, shape (runs, M)
        The probability with which each was drawn (what :func:`lure_weights` takes).
    """
    s = finite_array(scores, "scores", ndim=1)
    if len(s) == 0 or np.any(s < 0) or s.sum() <= 0:
        raise ValueError("scores must be non-negative with a positive sum")
    N = len(s)
    M = check_int(M, "M", least=1)
    if M > N:
        raise ValueError(f"M = {M} exceeds the pool size {N}")
    if not 0.0 <= clip <= 1.0:
        raise ValueError(f"clip must be in [0, 1]; got {clip!r}")
    if clip == 0 and M > np.count_nonzero(s):
        raise ValueError(f"with clip = 0, M = {M} exceeds the {np.count_nonzero(s)} points with a positive score")
    runs = _runs_rng(runs, rng)
    left = np.ones((runs, N), bool)
    rows = np.arange(runs)
    idx = np.zeros((runs, M), int)
    q_at = np.zeros((runs, M))
    for m in range(M):
        w = np.where(left, s[None, :], 0.0)
        tot = w.sum(axis=1, keepdims=True)
        w = np.divide(w, tot, out=np.zeros_like(w), where=tot > 0)
        w = np.where(left, np.maximum(clip / (N - m), w), 0.0)
        w /= w.sum(axis=1, keepdims=True)
        c = np.cumsum(w, axis=1)
        u = rng.random((runs, 1)) * c[:, -1:]
        j = np.minimum((c <= u).sum(axis=1), N - 1)
        last = N - 1 - np.argmax(((w > 0) & left)[:, ::-1], axis=1)   # round-off at the tail: the last one left
        j = np.where(left[rows, j] & (w[rows, j] > 0), j, last)
        idx[:, m] = j
        q_at[:, m] = w[rows, j]
        left[rows, j] = False
    return idx, q_at


def lure_estimates(losses: ArrayLike, q_at_pick: ArrayLike, N: int) -> np.ndarray:
    r"""LURE, :math:`\hat R = \frac1M\sum_m v_m L_{i_m}`, for each row of a batch of runs.

    Parameters
    ----------
    losses : array_like, shape (runs, M)
        The target's losses at the picks, in the order drawn.
    q_at_pick : array_like, shape (runs, M), in (0, 1]
        The probability with which each pick was drawn (as returned by :func:`sample_sequential_runs` or
        :func:`sample_clipped_runs`).
    N : int
        Pool size.

    Returns
    -------
    ndarray, shape (runs,)
    """
    L = finite_array(losses, "losses", ndim=2)
    q = finite_array(q_at_pick, "q_at_pick", ndim=2)
    if L.shape != q.shape:
        raise ValueError(f"losses {L.shape} and q_at_pick {q.shape} must have the same shape")
    N = check_int(N, "N", least=1)
    M = L.shape[1]
    if M == 0 or M > N:
        raise ValueError(f"need 1 <= M <= N; got M = {M}, N = {N}")
    if np.any(q <= 0) or np.any(q > 1 + 1e-12):
        raise ValueError("acquisition probabilities must be in (0, 1]")
    if M == N:
        return L.mean(axis=1)
    m = np.arange(1, M + 1)
    v = 1.0 + (N - M) / (N - m) * (1.0 / ((N - m + 1) * q) - 1.0)
    return (v * L).mean(axis=1)


def bootstrap_mean_std(terms: ArrayLike, B: int, rng: np.random.Generator) -> float:
    r"""Bootstrap standard deviation of the mean of ``terms``: resample them with replacement ``B`` times.

    With ``terms`` :math:`= v_m L_{i_m}` this is the paper's bootstrap of LURE (official ``run_bootstrap``: the
    weights are held fixed and the pairs resampled); with plain losses, the classical bootstrap of a sample mean.

    Parameters
    ----------
    terms : array_like, shape (M,), M >= 1
    B : int, >= 2
    rng : numpy.random.Generator

    Returns
    -------
    float
    """
    t = finite_array(terms, "terms", ndim=1)
    if len(t) == 0:
        raise ValueError("terms is empty")
    B = check_int(B, "B", least=2)
    draws = rng.integers(0, len(t), size=(B, len(t)))
    return float(np.std(t[draws].mean(1)))


def plugin_mean_std(terms: ArrayLike) -> float:
    r"""The textbook standard error of a mean, :math:`s/\sqrt{M}` with the sample standard deviation :math:`s`
    (``ddof = 1``): the error bar without resampling.

    Parameters
    ----------
    terms : array_like, shape (M,), M >= 2

    Returns
    -------
    float
    """
    t = finite_array(terms, "terms", ndim=1)
    if len(t) < 2:
        raise ValueError("need at least 2 terms")
    return float(np.std(t, ddof=1) / np.sqrt(len(t)))


def uniform_estimates(losses: ArrayLike, M: int, runs: int, rng: np.random.Generator,
                      extra: ArrayLike | None = None) -> np.ndarray:
    r"""Random labelling: the mean loss of ``M`` pool points drawn uniformly without replacement, per run.

    With ``extra`` (losses of other labelled points, the same in every run), the mean is taken over the
    ``M + len(extra)`` labels together: uniform sampling given the labels a method spent elsewhere.

    Parameters
    ----------
    losses : array_like, shape (N,)
        The target's loss at every pool point.
    M : int, 1 <= M <= N
    runs : int, >= 1
    rng : numpy.random.Generator
    extra : array_like, shape (K,), optional

    Returns
    -------
    ndarray, shape (runs,)
    """
    L = finite_array(losses, "losses", ndim=1)
    M = check_int(M, "M", least=1)
    if M > len(L):
        raise ValueError(f"M = {M} exceeds the pool size {len(L)}")
    runs = _runs_rng(runs, rng)
    picks = np.argsort(rng.random((runs, len(L))), axis=1)[:, :M]
    total = L[picks].sum(axis=1)
    if extra is None:
        return total / M
    e = finite_array(extra, "extra", ndim=1)
    return (total + e.sum()) / (M + len(e))


def stratified_estimates(scores: ArrayLike, losses: ArrayLike, M: int, runs: int, rng: np.random.Generator,
                         strata: int = 5, allocation: str = "proportional", least: int = 1) -> np.ndarray:
    r"""Stratified random sampling on quantile strata of a cheap score (Cochran 1977, ch. 5), per run.

    The pool is split into ``strata`` groups of (nearly) equal size by the quantiles of a cheap score. Stratum
    :math:`h` of size :math:`N_h` gets :math:`n_h \approx M w_h/\sum_k w_k` labels (largest remainders, so that
    :math:`\sum_h n_h = M`, at least ``least`` per stratum), drawn uniformly without replacement; the estimate
    is the plain stratified mean :math:`\sum_h (N_h/N)\,\bar L_h`, unbiased for the pool risk whatever the score
    and the allocation. The allocation weights :math:`w_h`:

    - ``"proportional"``: :math:`w_h = N_h` (proportional allocation, Cochran §5.3);
    - ``"score"``: :math:`w_h = N_h \bar s_h`, the stratum's mean score standing in for its unknown standard
      deviation in Neyman's optimum allocation :math:`n_h \propto N_h S_h` (Cochran §5.5): more labels where the
      score expects larger losses. With a non-negative loss whose spread grows with its mean (a cross-entropy)
      the mean score is a natural proxy of :math:`S_h`. It is the naive use of the same cheap score that active
      testing uses, with no importance weights.

    Parameters
    ----------
    scores : array_like, shape (N,)
        Any score available before labelling (a surrogate's or the target's uncertainty); >= 0 with a positive
        sum for ``allocation="score"``.
    losses : array_like, shape (N,)
        The target's loss at every pool point.
    M : int, strata * least <= M <= N
    runs : int, >= 1
    rng : numpy.random.Generator
    strata : int, 1 <= strata <= N
    allocation : {"proportional", "score"}
    least : int, >= 1
        The fewest labels any stratum gets (no more than its size).

    Returns
    -------
    ndarray, shape (runs,)
    """
    s = finite_array(scores, "scores", ndim=1)
    L = finite_array(losses, "losses", ndim=1)
    if s.shape != L.shape:
        raise ValueError(f"scores {s.shape} and losses {L.shape} must have the same shape")
    N = len(L)
    H = check_int(strata, "strata", least=1)
    least = check_int(least, "least", least=1)
    M = check_int(M, "M", least=H * least)
    if H > N or M > N:
        raise ValueError(f"need strata <= M <= N; got strata = {H}, M = {M}, N = {N}")
    if allocation not in ("proportional", "score"):
        raise ValueError(f"allocation must be 'proportional' or 'score'; got {allocation!r}")
    runs = _runs_rng(runs, rng)
    groups = np.array_split(np.argsort(s, kind="stable"), H)
    sizes = np.array([len(g) for g in groups])
    if least > sizes.min():
        raise ValueError(f"least = {least} exceeds the smallest stratum ({sizes.min()} points)")
    if allocation == "proportional":
        w = sizes.astype(float)
    else:
        if np.any(s < 0) or s.sum() <= 0:
            raise ValueError("allocation='score' needs non-negative scores with a positive sum")
        w = np.array([len(g) * s[g].mean() for g in groups])
    share = M * w / w.sum()
    n = np.minimum(np.maximum(np.floor(share).astype(int), least), sizes)
    while n.sum() < M:                      # largest remainders first
        n[np.argmax(np.where(n < sizes, share - n, -np.inf))] += 1
    while n.sum() > M:                      # the minimum per stratum overshot
        n[np.argmax(np.where(n > least, n - share, -np.inf))] -= 1
    est = np.zeros(runs)
    for g, n_h in zip(groups, n):
        picks = np.argsort(rng.random((runs, len(g))), axis=1)[:, :n_h]
        est += len(g) / N * L[g][picks].mean(axis=1)
    return est


# ----------------------------------------------------------------------------- the measurement


def random_labelling_mse(losses: ArrayLike, M: int) -> float:
    r"""Exact MSE of random labelling: the mean of ``M`` pool losses drawn uniformly without replacement.

    :math:`\operatorname{E}(\bar L_M - R)^2 = \frac{\sigma^2}{M}\,\frac{N-M}{N-1}` with
    :math:`\sigma^2 = \frac1N\sum_i (L_i - R)^2` (the finite-population correction; Cochran 1977, thm 2.2). The
    estimate is unbiased, so this is its variance.

    Parameters
    ----------
    losses : array_like, shape (N,), N >= 2
    M : int, 1 <= M <= N

    Returns
    -------
    float
    """
    L = finite_array(losses, "losses", ndim=1)
    N = len(L)
    if N < 2:
        raise ValueError("need a pool of at least 2 points")
    M = check_int(M, "M", least=1)
    if M > N:
        raise ValueError(f"M = {M} exceeds the pool size {N}")
    return float(L.var() / M * (N - M) / (N - 1))


def mse_ratio(estimates: ArrayLike, truth: float, reference: ArrayLike | float) -> tuple[float, float]:
    r"""The MSE of a risk estimator divided by a reference MSE, with its Monte Carlo standard error.

    :math:`\hat\rho = \overline{(\hat R - R)^2}\,/\,\mathrm{MSE}_{\rm ref}`. The reference is either the estimates
    of another estimator from independent runs (its MSE is then estimated too) or an exact MSE (a float, e.g.
    :func:`random_labelling_mse`). The standard error is the delta method's,
    :math:`\hat\rho\,\big(\frac{\widehat{\rm Var}(e^2)}{n\,\overline{e^2}^2} + \frac{\widehat{\rm Var}(e_{\rm ref}^2)}
    {n_{\rm ref}\,\overline{e_{\rm ref}^2}^2}\big)^{1/2}` (the second term only for an estimated reference).

    Parameters
    ----------
    estimates : array_like, shape (n,), n >= 2
        Independent risk estimates of the estimator.
    truth : float
        The pool risk :math:`R`.
    reference : array_like, shape (n_ref,), n_ref >= 2, or float > 0

    Returns
    -------
    ratio, standard_error : float, float
    """
    e2 = (finite_array(estimates, "estimates", ndim=1) - float(truth)) ** 2
    if len(e2) < 2:
        raise ValueError("need at least 2 estimates")
    rel2 = e2.var(ddof=1) / len(e2) / e2.mean() ** 2 if e2.mean() > 0 else 0.0
    if np.ndim(reference) == 0:
        ref = float(reference)
        if not np.isfinite(ref) or ref <= 0:
            raise ValueError(f"an exact reference MSE must be positive; got {reference!r}")
    else:
        r2 = (finite_array(reference, "reference", ndim=1) - float(truth)) ** 2
        if len(r2) < 2 or r2.mean() <= 0:
            raise ValueError("the reference needs at least 2 estimates and a positive MSE")
        ref = float(r2.mean())
        rel2 += r2.var(ddof=1) / len(r2) / ref ** 2
    ratio = float(e2.mean() / ref)
    return ratio, float(ratio * np.sqrt(rel2))


def shared_stream_estimates(losses: ArrayLike, proposals: dict, budgets: tuple | list, runs: int,
                            rng: np.random.Generator, keep_picks_at: int | None = None
                            ) -> tuple[np.ndarray, dict, dict]:
    r"""Random labelling and LURE under several proposals, all drawn from one random stream, run by run.

    The Monte Carlo of the page as first run (its pre-registered values): for each budget :math:`M` in turn, and
    for each run, first ``M`` uniform labels without replacement (``rng.choice``: random labelling), then for each
    proposal in the order of ``proposals`` one acquisition of ``M`` points by :func:`sample_sequential` scored by
    :func:`lure_estimate`. The law of every estimate is that of the batched forms (:func:`uniform_estimates`,
    :func:`sample_sequential_runs`, :func:`lure_estimates`); only the order in which the stream is consumed differs,
    and this order is what reproduces the recorded draws.

    Parameters
    ----------
    losses : array_like, shape (N,)
    proposals : dict of str -> array_like, shape (N,)
        Proposals :math:`q` (each > 0 where it may be drawn, summing to 1), in the order they are drawn.
    budgets : sequence of int, each in [1, N]
    runs : int, >= 1
    rng : numpy.random.Generator
    keep_picks_at : int, optional
        A budget in ``budgets`` whose picks to return (the indices in the order drawn).

    Returns
    -------
    random : ndarray, shape (len(budgets), runs)
        Random labelling's estimates.
    lure : dict of str -> ndarray, shape (len(budgets), runs)
        LURE's estimates under each proposal.
    picks : dict of str -> ndarray of int, shape (runs, keep_picks_at)
        Each proposal's picks at ``keep_picks_at`` (empty dict without it).
    """
    L = finite_array(losses, "losses", ndim=1)
    N = len(L)
    runs = _runs_rng(runs, rng)
    budgets = [check_int(M, "budget", least=1) for M in budgets]
    if not budgets or max(budgets) > N:
        raise ValueError(f"budgets must be non-empty, each at most the pool size {N}")
    if keep_picks_at is not None and keep_picks_at not in budgets:
        raise ValueError(f"keep_picks_at = {keep_picks_at!r} is not one of the budgets {budgets}")
    Q = {}
    for k, q in proposals.items():
        q = finite_array(q, f"proposal {k!r}", ndim=1)
        if q.shape != (N,) or np.any(q < 0) or not np.isclose(q.sum(), 1.0, atol=1e-9):
            raise ValueError(f"proposal {k!r} must be a law over the {N} pool points")
        Q[k] = q
    random = np.zeros((len(budgets), runs))
    lure = {k: np.zeros((len(budgets), runs)) for k in Q}
    picks = {k: np.zeros((runs, keep_picks_at), int) for k in Q} if keep_picks_at is not None else {}
    rest = np.ones(N, bool)
    for b, M in enumerate(budgets):
        for r in range(runs):
            random[b, r] = L[rng.choice(N, M, replace=False)].mean()
            for k, q in Q.items():
                idx, _ = sample_sequential(q, M, rng)
                rest[:] = True
                rest[idx] = False
                lure[k][b, r] = lure_estimate(L[idx], np.concatenate([q[idx], q[rest]]))
                if M == keep_picks_at:
                    picks[k][r] = idx
    return random, lure, picks


def shared_stream_bootstrap(losses: ArrayLike, q: ArrayLike, M: int, runs: int, B: int, rng: np.random.Generator
                            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    r"""Single runs of LURE with their bootstrap, and the bootstrap of the unweighted mean of the same picks.

    For each run, from one stream in this order: an acquisition of ``M`` points from ``q``
    (:func:`sample_sequential`), the bootstrap of LURE (:func:`bootstrap_lure_std`, ``B`` resamples), and the
    bootstrap of the plain mean of the same losses (``B`` resamples). The page's pre-registered bootstrap runs.

    Parameters
    ----------
    losses : array_like, shape (N,)
    q : array_like, shape (N,), a proposal
    M : int, 2 <= M <= N
    runs : int, >= 1
    B : int, >= 2
    rng : numpy.random.Generator

    Returns
    -------
    idx : ndarray of int, shape (runs, M)
        The picks, in the order drawn.
    q_at_pick : ndarray, shape (runs, M)
        The probability of each draw (what :func:`lure_weights` takes; LURE is ``mean(lure_weights * losses)``).
    boot_sd : ndarray, shape (runs,)
        The bootstrap standard deviation of LURE.
    plain_boot_sd : ndarray, shape (runs,)
        The bootstrap standard deviation of the unweighted mean of the picked losses.
    """
    L = finite_array(losses, "losses", ndim=1)
    q = finite_array(q, "q", ndim=1)
    N = len(L)
    if q.shape != (N,):
        raise ValueError(f"q {q.shape} must have one entry per pool point ({N})")
    M = check_int(M, "M", least=2)
    runs = _runs_rng(runs, rng)
    B = check_int(B, "B", least=2)
    idx = np.zeros((runs, M), int)
    q_at = np.zeros((runs, M))
    boot, plain = np.zeros(runs), np.zeros(runs)
    rest = np.ones(N, bool)
    for r in range(runs):
        i, _ = sample_sequential(q, M, rng)
        rest[:] = True
        rest[i] = False
        probs = np.concatenate([q[i], q[rest]])
        idx[r], q_at[r] = i, _draw_probs(probs, M)
        boot[r] = bootstrap_lure_std(L[i], probs, B, rng)
        plain[r] = bootstrap_lure_std(L[i], np.ones(N), B, rng)   # unit proposal: unit weights, the plain mean
    return idx, q_at, boot, plain
