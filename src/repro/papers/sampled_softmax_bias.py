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

The independent check of the claim (it does not use that argument): on a grid of logit values every
estimator is a finite table, its expectation is linear in the table, and the smallest worst-case bias over
every estimator is a linear program (:func:`min_worst_case_bias`, solved by HiGHS). An optimum above zero
shows that no estimator is unbiased for that sampler; samplers outside the theorem's hypothesis
(:func:`softmax_draw_sampler`, or one that can show every class) bring it to zero.

Used by ``notebooks/sampled-softmax-bias.py``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any
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


# --------------------------------------------------------------------------- every estimator at once: a linear program
def product_grid(values: ArrayLike, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every logit vector whose ``n`` coordinates take values in ``values``: the grid :math:`V^n`.

    Parameters
    ----------
    values : array_like, shape (m,)
        Distinct finite logit values.
    n : int >= 2

    Returns
    -------
    index : np.ndarray of int, shape (m^n, n)
        ``index[g, j]`` = position in ``values`` of coordinate ``j`` of grid point ``g`` (lexicographic order).
    logits : np.ndarray, shape (m^n, n)
    """
    v = np.asarray(values, dtype=np.float64).ravel()
    if v.size < 2 or not np.all(np.isfinite(v)) or np.unique(v).size != v.size:
        raise ValueError(f"values must be at least two distinct finite numbers; got {values!r}")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n must be an int >= 2; got {n!r}")
    index = np.array(list(itertools.product(range(v.size), repeat=int(n))), dtype=np.int64)
    return index, v[index]


Sampler = Callable[[np.ndarray], tuple[list[np.ndarray], np.ndarray]]


def logit_free_sampler(design: Design) -> Sampler:
    """A sampler whose law does not read the logits: each outcome of ``design`` shows its own classes.

    The returned callable maps grid logits ``(G, n)`` to ``(seen, prob)``: ``seen[s]`` the classes (other than
    the target) whose logits outcome ``s`` shows, ``prob`` of shape ``(G, M)``, the same on every row. An
    estimator may use the whole outcome (which classes, how often each was drawn), not only the logits.
    """
    seen = [np.flatnonzero(c) for c in design.counts]
    prob = np.asarray(design.prob, dtype=np.float64)

    def sampler(logits: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        return seen, np.broadcast_to(prob, (len(logits), prob.size))

    return sampler


def softmax_draw_sampler(target: int) -> Sampler:
    """A sampler that **reads every logit** (outside the theorem): one class drawn from the softmax itself.

    Outcome ``c`` (any class, the target included) has probability :math:`p_c(o)` and shows the logit of
    ``c``. The estimator :math:`f = 1[c = t]` is then exactly unbiased, but drawing needs the full normaliser.
    """
    def sampler(logits: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        n = logits.shape[1]
        t = _check_target(n, target)
        seen = [np.array([c]) if c != t else np.array([], dtype=np.int64) for c in range(n)]
        return seen, softmax(logits, axis=1)

    return sampler


@dataclass(frozen=True)
class MinimaxBias:
    """The smallest worst-case bias any estimator can reach on a grid (:func:`min_worst_case_bias`).

    Attributes
    ----------
    value : float
        The LP optimum :math:`\\min_f \\max_{o\\in V^n} |E_S f(o) - g(o)|` as HiGHS reports it (``g`` = :math:`p_t`
        unless another estimand is given).
    achieved : float
        :math:`\\max_o |E_S f^*(o) - g(o)|` recomputed in float64 for the solver's table :math:`f^*`: an estimator
        with this worst bias exists, so it bounds the optimum from **above**.
    lower : float
        A lower bound on the optimum from the solver's dual weights, checked by us (:func:`dual_lower_bound`): no
        estimator has a smaller worst bias. ``nan`` when not requested (``certify=False``).
    dual_residual : float
        :math:`\\max|A^\\top y| / \\sum|y|` of the solver's dual weights: zero for an exact certificate; the
        bound ``lower`` already pays for it.
    unknowns : int
        Size of the table of :math:`f` (one free value per outcome and per logit values it shows).
    grid_points : int
        :math:`|V|^n`.
    dual : np.ndarray, shape (grid_points,)
        The solver's dual weights :math:`y` on the grid (:math:`\\sum|y| = 1`, :math:`A^\\top y = 0` up to
        rounding): :math:`|y^\\top g|` bounds every estimator's worst bias from below.
    """

    value: float
    achieved: float
    lower: float
    dual_residual: float
    unknowns: int
    grid_points: int
    dual: np.ndarray


def expectation_matrix(values: ArrayLike, n: int, target: int, sampler: Sampler) -> tuple[Any, np.ndarray]:
    """The linear map from an estimator's table to its expectations on the grid, and :math:`p_t` there.

    An estimator is any function of what it sees: the outcome ``s`` of the sampler and the logits of the target
    and of the classes ``seen[s]``. On the grid :math:`V^n` it is a finite table, one free value per outcome and
    per combination of the shown logits' values, and :math:`E_S f(o) = \\sum_s \\pi_s(o) f(s, o_{\\{t\\}\\cup
    seen_s})` is linear in it.

    Returns
    -------
    A : scipy.sparse.csr_matrix, shape (|V|^n, unknowns)
    p : np.ndarray, shape (|V|^n,)
    """
    import scipy.sparse as sparse

    index, logits = product_grid(values, n)
    m, G = len(np.asarray(values).ravel()), len(logits)
    t = _check_target(n, target)
    seen, prob = sampler(logits)
    prob = np.asarray(prob, dtype=np.float64)
    if prob.shape != (G, len(seen)) or np.any(prob < 0) or not np.allclose(prob.sum(axis=1), 1.0, atol=1e-12):
        raise ValueError("the sampler must give a probability law over its outcomes on every grid point")
    rows, cols, vals, offset = [], [], [], 0
    for s, shown in enumerate(seen):
        classes = np.r_[t, np.asarray(shown, dtype=np.int64)]
        if np.unique(classes).size != classes.size or np.any((classes < 0) | (classes >= n)):
            raise ValueError(f"outcome {s} shows invalid classes {shown!r}")
        key = index[:, classes] @ (m ** np.arange(classes.size))
        live = prob[:, s] > 0
        rows.append(np.flatnonzero(live))
        cols.append(offset + key[live])
        vals.append(prob[live, s])
        offset += m**classes.size
    A = sparse.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(G, offset))
    return A, softmax(logits, axis=1)[:, t]


HIGHS_OPTIONS: dict[str, float] = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
"""HiGHS's tightest feasibility tolerances (its defaults, 1e-7, leave the solver's table up to ~1e-7 off the optimum)."""


def dual_lower_bound(A: Any, g: ArrayLike, y: ArrayLike) -> tuple[float, float]:
    """A lower bound on :math:`\\min_f \\max_o |(Af)(o) - g(o)|` from dual weights ``y``, valid in exact arithmetic.

    Weak duality: if :math:`A^\\top y = 0`, every table :math:`f` has
    :math:`\\max_o|(Af - g)(o)| \\ge |y^\\top(Af - g)|/\\|y\\|_1 = |y^\\top g|/\\|y\\|_1`. A solver's ``y`` meets
    :math:`A^\\top y = 0` only up to rounding, :math:`r = A^\\top y`. Since :math:`r` lies in the range of
    :math:`A^\\top`, :math:`\\delta = (A^+)^\\top r` satisfies :math:`A^\\top\\delta = r` and
    :math:`\\|\\delta\\|_2 \\le \\|r\\|_2/\\sigma_+`, with :math:`\\sigma_+` the smallest non-zero singular value of
    :math:`A`; :math:`\\tilde y = y - \\delta` is then an exact certificate, and
    :math:`|\\tilde y^\\top g|/\\|\\tilde y\\|_1 \\ge (|y^\\top g| - \\|\\delta\\|_2\\|g\\|_2)/(\\|y\\|_1 + \\sqrt{G}\\,\\|\\delta\\|_2)`.
    The rounding of the computed :math:`r` itself is added to :math:`\\|r\\|_2` (a standard bound for a sum of
    products).

    Parameters
    ----------
    A : sparse or dense matrix, shape (G, U)
    g : array_like, shape (G,)
        The estimand on the grid.
    y : array_like, shape (G,)

    Returns
    -------
    lower : float
        The bound (0 when ``y`` certifies nothing).
    residual : float
        :math:`\\max|A^\\top y|/\\|y\\|_1` as computed (0 for ``y = 0``).
    """
    import scipy.sparse as sparse

    A = sparse.csr_matrix(A)
    g = np.asarray(g, dtype=np.float64).ravel()
    y = np.asarray(y, dtype=np.float64).ravel()
    G = A.shape[0]
    if g.shape != (G,) or y.shape != (G,) or not (np.all(np.isfinite(g)) and np.all(np.isfinite(y))):
        raise ValueError(f"g and y must be finite vectors of length {G}")
    y1 = float(np.abs(y).sum())
    if y1 == 0:
        return 0.0, 0.0
    r = A.T @ y
    eps = np.finfo(np.float64).eps
    per_column = int(np.diff(A.tocsc().indptr).max(initial=0)) + 1
    r_norm = float(np.linalg.norm(r) + per_column * eps * np.linalg.norm(abs(A).T @ np.abs(y)))
    if r_norm > 0:
        gram = (A @ A.T).toarray()  # its non-zero eigenvalues are the squared non-zero singular values of A
        ev = np.linalg.eigvalsh(gram)
        sigma = float(np.sqrt(ev[ev > ev.max() * G * eps].min()))
        delta = r_norm / sigma
    else:
        delta = 0.0
    num = abs(float(y @ g)) - delta * float(np.linalg.norm(g)) - G * eps * float(np.abs(y) @ np.abs(g))
    return max(0.0, num / (y1 + math.sqrt(G) * delta)), float(np.abs(r).max() / y1)


def min_worst_case_bias(values: ArrayLike, n: int, target: int, sampler: Sampler, *,
                        estimand: ArrayLike | None = None, certify: bool = True) -> MinimaxBias:
    """Solve :math:`\\min_f \\max_{o\\in V^n} |E_S f(o) - p_t(o)|` over **every** estimator, as a linear program.

    The unknowns are the whole table of :math:`f` (see :func:`expectation_matrix`) and the worst bias
    :math:`\\beta`: minimise :math:`\\beta` subject to :math:`-\\beta \\le A f - p \\le \\beta`, with
    :math:`f` free (an estimator need not lie in [0, 1]). HiGHS solves it. An estimator unbiased on all of
    :math:`\\mathbb R^n` would be unbiased on the grid, since its expectation at a grid point only reads its
    values at grid logits; so an optimum above zero shows that no estimator with this sampler is unbiased. The
    computation does not use the finite-difference argument of this module.

    The optimum is bracketed: ``lower`` (the solver's dual weights, checked by :func:`dual_lower_bound`) and
    ``achieved`` (the solver's table, re-evaluated) hold whatever the solver's tolerances.

    Parameters
    ----------
    values, n, target, sampler :
        The grid :math:`V^n`, the target class and the sampler (:func:`logit_free_sampler`, ...).
    estimand : array_like, shape (|V|^n,), optional
        What the estimator must match on the grid, in the order of :func:`product_grid`; default :math:`p_t`.
        A deliberately estimable function (the expectation of some estimator) must give an optimum of zero.
    certify : bool
        Compute ``lower`` (an eigenvalue problem of size :math:`|V|^n`); ``nan`` otherwise.
    """
    import scipy.sparse as sparse
    from scipy.optimize import linprog

    A, p = expectation_matrix(values, n, target, sampler)
    G, U = A.shape
    if estimand is not None:
        p = np.asarray(estimand, dtype=np.float64).ravel()
        if p.shape != (G,) or not np.all(np.isfinite(p)):
            raise ValueError(f"estimand must be {G} finite values, one per grid point")
    one = sparse.csr_matrix(np.ones((G, 1)))
    A_ub = sparse.vstack([sparse.hstack([A, -one]), sparse.hstack([-A, -one])]).tocsr()
    res = linprog(np.r_[np.zeros(U), 1.0], A_ub=A_ub, b_ub=np.r_[p, -p],
                  bounds=[(None, None)] * U + [(0, None)], method="highs", options=HIGHS_OPTIONS)
    if res.status != 0:
        raise RuntimeError(f"the linear program did not solve: {res.message}")
    f = res.x[:U]
    lam = -res.ineqlin.marginals  # >= 0: weights of the upper and the lower constraints
    y = lam[:G] - lam[G:]
    lower, residual = dual_lower_bound(A, p, y) if certify else (float("nan"), float("nan"))
    return MinimaxBias(value=float(res.fun), achieved=float(np.abs(A @ f - p).max()), lower=lower,
                       dual_residual=residual, unknowns=int(U), grid_points=int(G), dual=y)


def normal_range_cdf(r: float, size: int, sigma: float = 1.0) -> float:
    """:math:`P(\\max_i x_i - \\min_i x_i \\le r)` for ``size`` i.i.d. draws :math:`x_i \\sim N(0, \\sigma^2)`.

    The range's law: :math:`m\\int\\phi(x)\\,[\\Phi(x + r/\\sigma) - \\Phi(x)]^{m-1}\\,dx` (the smallest draw at
    :math:`x`, the other :math:`m-1` within :math:`r/\\sigma` above it), by quadrature.
    """
    from scipy.integrate import quad
    from scipy.stats import norm

    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 2:
        raise ValueError(f"size must be an int >= 2; got {size!r}")
    if not (sigma > 0 and np.isfinite(sigma)) or not np.isfinite(r):
        raise ValueError(f"sigma must be > 0 and r finite; got sigma={sigma!r}, r={r!r}")
    if r <= 0:
        return 0.0
    w = r / sigma
    val, _ = quad(lambda x: norm.pdf(x) * (norm.cdf(x + w) - norm.cdf(x)) ** (size - 1), -np.inf, np.inf,
                  epsabs=1e-13, epsrel=1e-10)
    return float(min(1.0, size * val))


def grid_certified_bound(values: ArrayLike, n: int, target: int, k: int) -> float:
    """The largest certified bound :math:`|\\Delta_J p_t|/2^{k+1}` over the boxes of a two-value grid.

    ``values`` = (a, b): every box :math:`\\{a, b\\}^J` with ``J`` any ``k + 1`` negatives and the other
    coordinates (the target's included) at ``a`` or ``b``; step ``h = b - a``. It bounds from below the worst
    bias on :math:`\\{a,b\\}^n` of every estimator with ``k`` negatives (:func:`certified_bias_lower_bound`).
    """
    v = np.asarray(values, dtype=np.float64).ravel()
    if v.size != 2 or not v[1] > v[0] or not np.all(np.isfinite(v)):
        raise ValueError(f"values must be two finite numbers a < b; got {values!r}")
    t = _check_target(n, target)
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= n - 2:
        raise ValueError(f"k must be an int in [1, n-2]; got {k!r}")
    best = 0.0
    negatives = [j for j in range(n) if j != t]
    for J in itertools.combinations(negatives, k + 1):
        others = [j for j in range(n) if j not in J]
        base = np.full((2 ** len(others), n), v[0])
        base[:, others] = v[np.array(list(itertools.product((0, 1), repeat=len(others))))]
        best = max(best, float(certified_bias_lower_bound(base, t, list(J), h=float(v[1] - v[0])).max()))
    return best
