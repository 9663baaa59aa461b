"""Sampled estimators of the softmax are biased: exact kernels.

Paper map
---------
*Sampled Estimators For Softmax Must Be Biased*, NeurIPS 2025
(https://openreview.net/forum?id=xtKNbPTnMA). We did not have the paper's text, so the
notation below is the standard one of the sampled-softmax literature, mapped once onto our names:

========================================  ==========================================
paper / literature                        here
========================================  ==========================================
classes :math:`1..n`, logits :math:`o`    ``logits``, shape ``(B, n)`` or ``(n,)``
target class :math:`t`                    ``target`` (an index)
softmax :math:`p_t = e^{o_t}/Z`           :func:`softmax_prob`
:math:`k` sampled negatives :math:`S`     ``k``; one row of :func:`negative_subsets`
sampler :math:`\\pi(S)` (logit-free)      :class:`Design` (``counts``, ``prob``)
estimator :math:`f(o_t, o_S)`             :func:`ratio_estimates`, :class:`LearnedEstimator`
bias :math:`b(o) = E_S f - p_t`           :func:`exact_expectations` minus :func:`softmax_prob`
========================================  ==========================================

Every expectation here is exact: the sampler's outcomes are enumerated once
(``itertools.combinations`` without replacement, ``combinations_with_replacement`` with
replacement) and the estimator is evaluated on all outcomes and all logit vectors at once.

The mechanism (our argument, not the paper's proof): ``E_S f`` is a weighted sum of
functions that each ignore at least one of any ``k + 1`` negative logits, so the mixed
finite difference of order ``k + 1`` over distinct negatives (:func:`mixed_finite_difference`)
annihilates it, while the softmax's does not (:func:`softmax_mixed_derivative`).

Used by ``notebooks/sampled-softmax-bias.py``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from numpy.typing import ArrayLike
from scipy.special import gammaln, softmax, xlogy

ESTIMATORS: tuple[str, ...] = ("plain", "logQ", "plug-in", "learned")


# --------------------------------------------------------------------------- validation
def _as_logits(logits: ArrayLike) -> np.ndarray:
    o = np.asarray(logits, dtype=np.float64)
    if o.ndim == 1:
        o = o[None, :]
    if o.ndim != 2 or o.shape[1] < 2:
        raise ValueError(f"logits must have shape (n,) or (B, n) with n >= 2; got {np.shape(logits)}")
    if not np.all(np.isfinite(o)):
        raise ValueError("logits must be finite")
    return o


def _check_target(n: int, target: int) -> int:
    if isinstance(target, bool) or not isinstance(target, (int, np.integer)) or not 0 <= target < n:
        raise ValueError(f"target must be an int in [0, {n}); got {target!r}")
    return int(target)


def _check_k(n: int, k: int) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= n - 1:
        raise ValueError(f"k must be an int in [1, n-1] = [1, {n - 1}]; got {k!r}")
    return int(k)


# --------------------------------------------------------------------------- softmax
def softmax_prob(logits: ArrayLike, target: int) -> np.ndarray:
    """The softmax probability of the target, :math:`p_t = e^{o_t} / \\sum_j e^{o_j}`.

    Parameters
    ----------
    logits : array_like, shape (B, n) or (n,)
    target : int

    Returns
    -------
    np.ndarray, shape (B,)
    """
    o = _as_logits(logits)
    return softmax(o, axis=1)[:, _check_target(o.shape[1], target)]


def softmax_mixed_derivative(logits: ArrayLike, target: int, coords: ArrayLike) -> np.ndarray:
    """Closed-form mixed partial derivative of :math:`p_t` in ``m`` distinct non-target logits.

    :math:`\\partial^m p_t / \\partial o_{j_1} \\cdots \\partial o_{j_m} = (-1)^m\\, m!\\, p_t \\prod_i p_{j_i}`
    (differentiate :math:`p_t = e^{o_t}/Z` once per coordinate; each step brings a factor
    :math:`-e^{o_j}/Z` and raises the power of :math:`1/Z`).

    Parameters
    ----------
    logits : array_like, shape (B, n) or (n,)
    target : int
    coords : array_like of int, shape (m,)
        Distinct indices, none equal to ``target``.

    Returns
    -------
    np.ndarray, shape (B,)
    """
    o = _as_logits(logits)
    t = _check_target(o.shape[1], target)
    j = _check_coords(o.shape[1], t, coords)
    p = softmax(o, axis=1)
    m = j.size
    return (-1) ** m * math.factorial(m) * p[:, t] * np.prod(p[:, j], axis=1)


# --------------------------------------------------------------------------- samplers
@dataclass(frozen=True)
class Design:
    """All outcomes of a logit-independent sampler of negatives, with their probabilities.

    Attributes
    ----------
    counts : np.ndarray, shape (M, n)
        ``counts[s, j]`` = how often class ``j`` appears in outcome ``s`` (0 for the target).
    prob : np.ndarray, shape (M,)
        Probability of each outcome (sums to 1).
    """

    counts: np.ndarray
    prob: np.ndarray


def negative_subsets(n: int, target: int, k: int) -> np.ndarray:
    """All ``C(n-1, k)`` subsets of ``k`` negatives (classes other than ``target``).

    Returns
    -------
    np.ndarray of int, shape (C(n-1, k), k)
        Each row sorted increasingly, rows in lexicographic order.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n must be an int >= 2; got {n!r}")
    t, k = _check_target(n, target), _check_k(n, k)
    negatives = [j for j in range(n) if j != t]
    return np.array(list(itertools.combinations(negatives, k)), dtype=np.int64).reshape(-1, k)


def uniform_design(n: int, target: int, k: int) -> Design:
    """Uniform sampling of ``k`` distinct negatives (without replacement): each subset has prob ``1/C(n-1,k)``."""
    subsets = negative_subsets(n, target, k)
    counts = np.zeros((len(subsets), n), dtype=np.int64)
    np.put_along_axis(counts, subsets, 1, axis=1)
    return Design(counts, np.full(len(subsets), 1.0 / len(subsets)))


def zipf_proposal(n: int, target: int, exponent: float = 1.0) -> np.ndarray:
    """A fixed, logit-free proposal over the negatives, :math:`q_j \\propto r_j^{-s}` (rank ``r_j`` = 1, 2, ...).

    It mimics the popularity-based samplers used with the log-Q correction. Returns shape (n,), ``q[target] = 0``.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n must be an int >= 2; got {n!r}")
    t = _check_target(n, target)
    q = np.zeros(n)
    q[[j for j in range(n) if j != t]] = np.arange(1, n, dtype=np.float64) ** -float(exponent)
    return q / q.sum()


def multinomial_design(q: ArrayLike, target: int, k: int) -> Design:
    """``k`` i.i.d. draws (with replacement) from a fixed proposal ``q`` over the negatives.

    Outcomes are multisets; a multiset with counts :math:`c` has probability
    :math:`k!/\\prod_j c_j! \\prod_j q_j^{c_j}` (multinomial law).

    Parameters
    ----------
    q : array_like, shape (n,)
        Proposal; non-negative, ``q[target] == 0``, sums to 1. It must not depend on the logits.
    target : int
    k : int, >= 1
    """
    q = np.asarray(q, dtype=np.float64)
    if q.ndim != 1 or q.size < 2 or np.any(q < 0) or not np.isclose(q.sum(), 1.0, atol=1e-12):
        raise ValueError("q must be a 1-d probability vector")
    n = q.size
    t = _check_target(n, target)
    if q[t] != 0:
        raise ValueError("q must put zero mass on the target (it samples negatives)")
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"k must be an int >= 1; got {k!r}")
    negatives = [j for j in range(n) if j != t]
    draws = np.array(list(itertools.combinations_with_replacement(negatives, k)), dtype=np.int64)
    counts = np.zeros((len(draws), n), dtype=np.int64)
    np.add.at(counts, (np.arange(len(draws))[:, None], draws), 1)
    with np.errstate(divide="ignore"):  # q_j = 0 with c_j > 0 gives log-prob -inf, prob 0
        log_prob = gammaln(k + 1) - gammaln(counts + 1).sum(axis=1) + xlogy(counts, q).sum(axis=1)
    prob = np.exp(log_prob)
    return Design(counts, prob)


# --------------------------------------------------------------------------- estimators
def ratio_estimates(logits: ArrayLike, target: int, weights: ArrayLike) -> np.ndarray:
    """Estimates :math:`f_s = e^{o_t} / (e^{o_t} + \\sum_j w_{sj} e^{o_j})` for every outcome ``s``.

    The three classical sampled estimators are of this form: the plain sampled softmax, its
    log-Q correction (Bengio & Senecal 2008; Jean et al. 2015) and the plug-in
    :math:`e^{o_t}/\\hat Z`. Only the weights differ:
    plain ``w = counts``; log-Q ``w = counts / (k q)``; plug-in ``w = counts (n-1)/k``.

    Parameters
    ----------
    logits : array_like, shape (B, n) or (n,)
    target : int
    weights : array_like, shape (M, n)
        Non-negative; column ``target`` must be zero.

    Returns
    -------
    np.ndarray, shape (B, M)
    """
    o = _as_logits(logits)
    t = _check_target(o.shape[1], target)
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 2 or w.shape[1] != o.shape[1] or np.any(w < 0) or np.any(w[:, t] != 0):
        raise ValueError("weights must be (M, n), non-negative, zero in the target column")
    e = np.exp(o - o.max(axis=1, keepdims=True))  # shift-invariant ratio, no overflow
    return e[:, t, None] / (e[:, t, None] + e @ w.T)


def expected_sampled_softmax(logits: ArrayLike, target: int, k: int) -> float:
    """Exact :math:`E_S[e^{o_t}/(e^{o_t} + \\sum_{j\\in S} e^{o_j})]`, ``S`` = ``k`` uniform negatives without replacement.

    Parameters
    ----------
    logits : array_like, shape (n,)
    target : int
    k : int in [1, n-1]

    Returns
    -------
    float
        The expectation of the plain sampled-softmax probability of ``target``; equals
        :math:`p_t` when ``k = n-1`` and exceeds it otherwise (unless all negatives tie).
    """
    if np.ndim(logits) != 1:
        raise ValueError(f"logits must be 1-d; got shape {np.shape(logits)}")
    o = _as_logits(logits)
    d = uniform_design(o.shape[1], target, k)
    return float(ratio_estimates(o, target, d.counts)[0] @ d.prob)


def estimator_weights(name: str, design: Design, k: int, q: ArrayLike | None = None) -> np.ndarray:
    """Weights (M, n) of the ratio estimator ``name`` in ``("plain", "logQ", "plug-in")`` for ``design``.

    ``logQ`` divides each sampled term by its expected count :math:`k q_j` (subtracting
    :math:`\\log(k q_j)` from the logit); ``plug-in`` is the Horvitz--Thompson estimate
    :math:`\\hat Z = e^{o_t} + \\frac{n-1}{k}\\sum_{j\\in S} e^{o_j}` of the normaliser. Both make
    :math:`E[\\hat Z] = Z` under their sampler.
    """
    c = design.counts.astype(np.float64)
    n = c.shape[1]
    if name == "plain":
        return c
    if name == "plug-in":
        return c * (n - 1) / k
    if name == "logQ":
        if q is None:
            raise ValueError("logQ needs the proposal q")
        q = np.asarray(q, dtype=np.float64)
        return np.divide(c, k * q, out=np.zeros_like(c), where=c > 0)
    raise ValueError(f"unknown ratio estimator {name!r}; expected plain, logQ or plug-in")


class LearnedEstimator(torch.nn.Module):
    """A small MLP :math:`f(o_t, o_S) = \\sigma(\\mathrm{MLP}(\\mathrm{sort}(o_S) - o_t))`.

    It sees only the target's logit and the ``k`` sampled negative logits (sorted, so the
    order of sampling does not matter; shifted by :math:`o_t`, as :math:`p_t` is shift-invariant).
    """

    def __init__(self, k: int, hidden: int = 32):
        super().__init__()
        self.k = int(k)
        self.net = torch.nn.Sequential(
            torch.nn.Linear(self.k, hidden), torch.nn.SiLU(),
            torch.nn.Linear(hidden, hidden), torch.nn.SiLU(),
            torch.nn.Linear(hidden, 1),
        )

    def forward(self, sampled_minus_target: torch.Tensor) -> torch.Tensor:
        """``(..., k)`` sorted ``o_S - o_t`` -> ``(...)`` estimates in (0, 1)."""
        return torch.sigmoid(self.net(sampled_minus_target).squeeze(-1))


def learned_features(logits: np.ndarray, target: int, subsets: np.ndarray) -> np.ndarray:
    """Inputs of :class:`LearnedEstimator` for every subset: ``sort(o[:, S]) - o[:, t]``.

    Parameters
    ----------
    logits : np.ndarray, shape (B, n)
    target : int
    subsets : np.ndarray of int, shape (M, k)

    Returns
    -------
    np.ndarray, shape (B, M, k)
    """
    o = _as_logits(logits)
    return np.sort(o[:, subsets], axis=-1) - o[:, _check_target(o.shape[1], target), None, None]


def train_learned_estimator(
    n: int, k: int, *, steps: int, batch: int = 256, sigma: float = 2.0, hidden: int = 32,
    lr: float = 1e-2, seed: int = 0,
) -> LearnedEstimator:
    """Fit :class:`LearnedEstimator` by minimising :math:`E[(f(o_t, o_S) - p_t)^2]` (float64, Adam).

    Each step draws fresh logits :math:`o \\sim N(0, \\sigma^2 I_n)`, target 0, and one uniform
    ``k``-subset of negatives per row. The minimiser is the posterior mean of :math:`p_t`
    given what the estimator sees, a good estimator on average but not an unbiased one.
    """
    _check_k(n, k)
    if steps < 1 or batch < 1 or sigma <= 0:
        raise ValueError("steps and batch must be >= 1 and sigma > 0")
    gen = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    model = LearnedEstimator(k, hidden).double()
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    for _ in range(steps):
        o = sigma * torch.randn(batch, n, generator=gen, dtype=torch.float64)
        pick = torch.argsort(torch.rand(batch, n - 1, generator=gen), dim=1)[:, :k] + 1  # negatives 1..n-1
        sampled = torch.sort(torch.gather(o, 1, pick), dim=1).values - o[:, :1]
        loss = torch.mean((model(sampled) - torch.softmax(o, dim=1)[:, 0]) ** 2)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
    return model.eval()


# --------------------------------------------------------------------------- exact expectations
def exact_expectations(
    logits: ArrayLike, target: int, k: int, q: ArrayLike | None,
    learned: LearnedEstimator | None = None,
) -> dict[str, np.ndarray]:
    """Exact :math:`E_S f` of each estimator, by enumerating every sampler outcome.

    ``plain``, ``plug-in`` and ``learned`` use uniform sampling without replacement
    (:func:`uniform_design`); ``logQ`` uses ``k`` draws with replacement from ``q``
    (:func:`multinomial_design`). ``logQ`` is left out when ``q`` is None, ``learned``
    when ``learned`` is None.

    Returns
    -------
    dict of name -> np.ndarray, shape (B,)
    """
    o = _as_logits(logits)
    n = o.shape[1]
    t, k = _check_target(n, target), _check_k(n, k)
    wor = uniform_design(n, t, k)
    out = {name: ratio_estimates(o, t, estimator_weights(name, wor, k)) @ wor.prob for name in ("plain", "plug-in")}
    if q is not None:
        wr = multinomial_design(q, t, k)
        out["logQ"] = ratio_estimates(o, t, estimator_weights("logQ", wr, k, q)) @ wr.prob
    if learned is not None:
        if learned.k != k:
            raise ValueError(f"learned estimator was trained for k={learned.k}, not {k}")
        subsets = negative_subsets(n, t, k)
        with torch.no_grad():
            f = learned(torch.from_numpy(learned_features(o, t, subsets))).numpy()
        out["learned"] = f.mean(axis=1)
    return out


def exact_biases(
    logits: ArrayLike, target: int, k: int, q: ArrayLike | None, learned: LearnedEstimator | None = None,
) -> dict[str, np.ndarray]:
    """Exact bias :math:`b(o) = E_S f - p_t` of each estimator (see :func:`exact_expectations`); name -> (B,)."""
    p = softmax_prob(logits, target)
    return {name: e - p for name, e in exact_expectations(logits, target, k, q, learned).items()}


# --------------------------------------------------------------------------- finite differences
def _check_coords(n: int, target: int, coords: ArrayLike) -> np.ndarray:
    j = np.asarray(coords, dtype=np.int64).ravel()
    if j.size < 1 or len(set(j.tolist())) != j.size or np.any((j < 0) | (j >= n)) or target in j:
        raise ValueError(f"coords must be distinct indices in [0, {n}) other than the target {target}; got {coords!r}")
    return j


def corner_shifts(n: int, coords: ArrayLike, h: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """The :math:`2^m` corners of the box :math:`o + h\\{0,1\\}^m` on ``coords`` and their signs.

    Returns
    -------
    shifts : np.ndarray, shape (2^m, n)
    signs : np.ndarray, shape (2^m,)
        :math:`(-1)^{m - |T|}` for the corner that shifts the subset ``T`` of ``coords``.
    """
    if not h > 0:
        raise ValueError(f"h must be > 0; got {h!r}")
    j = np.asarray(coords, dtype=np.int64).ravel()
    m = j.size
    bits = (np.arange(2**m)[:, None] >> np.arange(m)) & 1  # (2^m, m)
    shifts = np.zeros((2**m, n))
    shifts[:, j] = h * bits
    return shifts, (-1.0) ** (m - bits.sum(axis=1))


def mixed_finite_difference(
    fn: Callable[[np.ndarray], np.ndarray], logits: ArrayLike, coords: ArrayLike, h: float = 1.0,
    target: int | None = None,
) -> np.ndarray:
    """Mixed forward difference :math:`\\Delta_{j_1,h}\\cdots\\Delta_{j_m,h} F(o)`.

    :math:`\\Delta_{j,h}F(o) = F(o + h e_j) - F(o)`; composing ``m`` of them gives
    :math:`\\sum_{T\\subseteq J} (-1)^{m-|T|} F(o + h 1_T)`. It is exactly zero when ``F`` is a
    sum of functions each of which ignores one coordinate of ``J``, and equals
    :math:`h^m \\partial^m F` up to :math:`O(h^{m+1})` for smooth ``F``.

    Parameters
    ----------
    fn : callable, (N, n) -> (N, ...)
        Vectorised over rows.
    logits : array_like, shape (B, n) or (n,)
    coords : array_like of int, shape (m,)
        Distinct coordinates (not ``target`` when given).
    h : float > 0

    Returns
    -------
    np.ndarray, shape (B, ...)
    """
    o = _as_logits(logits)
    B, n = o.shape
    t = -1 if target is None else _check_target(n, target)
    j = _check_coords(n, t, coords)
    shifts, signs = corner_shifts(n, j, h)
    values = np.asarray(fn((o[:, None, :] + shifts[None]).reshape(-1, n)), dtype=np.float64)
    values = values.reshape(B, len(signs), *values.shape[1:])
    return np.tensordot(signs, values, axes=([0], [1]))


def max_abs_over_corners(
    fn: Callable[[np.ndarray], np.ndarray], logits: ArrayLike, coords: ArrayLike, h: float = 1.0
) -> np.ndarray:
    """:math:`\\max_{T\\subseteq J} |F(o + h 1_T)|` for each row of ``logits``; shape (B, ...)."""
    o = _as_logits(logits)
    B, n = o.shape
    shifts, signs = corner_shifts(n, coords, h)
    values = np.abs(np.asarray(fn((o[:, None, :] + shifts[None]).reshape(-1, n)), dtype=np.float64))
    return values.reshape(B, len(signs), *values.shape[1:]).max(axis=1)


def certified_bias_lower_bound(logits: ArrayLike, target: int, coords: ArrayLike, h: float = 1.0) -> np.ndarray:
    """Lower bound :math:`|\\Delta_J p_t| / 2^m` on :math:`\\max_{T} |b(o + h 1_T)|` for any sampled estimator.

    If :math:`\\Delta_J E_S f = 0` (``m = |J| > k``), then :math:`\\Delta_J b = -\\Delta_J p_t`; a signed
    sum of :math:`2^m` corner values bounds their largest magnitude from below.

    Returns
    -------
    np.ndarray, shape (B,)
    """
    j = np.asarray(coords).ravel()
    d = mixed_finite_difference(lambda x: softmax_prob(x, target), logits, j, h, target=target)
    return np.abs(d) / 2.0**j.size
