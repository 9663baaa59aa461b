r"""Active seriation: recover a hidden order from noisy similarity queries (our illustrative algorithm).

Paper map
---------
*Active Seriation: Efficient Ordering Recovery with Statistical Guarantees*, James Cheshire and Yann
Issartel (arXiv 2603.15336, probably the extended version of the NeurIPS 2025 paper; the NeurIPS listing
was not confirmed). We read the abstract only: the paper's algorithm, theorem and constants were not
available, so the active algorithm below is **our own design from the reproduction brief**, not the
paper's. Notation of the model, mapped once onto our names:

==================================================  =====================================================
model                                               here
==================================================  =====================================================
:math:`n` items, hidden order :math:`\pi`            ``n``; ``perm[i]`` = position of item ``i`` (0-based)
Robinson matrix :math:`M_{ij} = g(|\pi_i-\pi_j|)`    :func:`robinson_matrix` with a profile ``g``
uniform separation :math:`g(k)-g(k+1)\ge\Delta`       :func:`min_separation`
query :math:`(i,j)\mapsto M_{ij}+\varepsilon`         :class:`NoisyOracle` (Gaussian :math:`N(0,\sigma^2)` noise,
                                                    or Cauchy of scale :math:`\sigma` as a control)
query budget :math:`B`                              ``budget`` (noisy observations, per instance)
recovered order                                     ``order[r]`` = item put at rank ``r``
exact recovery up to reversal                       :func:`exact_recovery`
==================================================  =====================================================

Methods
-------
* :func:`active_seriation` (ours, fixed budget): estimate the row of a pivot item with sequential
  halving to find its least similar item, which in a Robinson matrix is an end of the order
  (:func:`find_endpoint`); the row of that end is monotone along the order, so sorting its estimated
  entries gives the order (:func:`sort_by_row`, with a few rounds that send the samples to entries whose
  confidence intervals still overlap a neighbour's). About :math:`2n` distinct pairs are queried.
* Its ablation (``adaptive=False``): the same two rows, each sampled uniformly (no sequential halving,
  no elimination rounds). A strawman (``endpoint=False``) sorts the pivot's own row.
* Passive baseline: the same budget spread uniformly over all :math:`n(n-1)/2` pairs
  (:func:`passive_average`), then spectral seriation (:func:`spectral_seriation`): sort the Fiedler
  vector of the Laplacian of the averaged matrix (Atkins, Boman and Hendrickson, SIAM J. Comput. 1998).
* Naive active baseline (:func:`refine_seriation`, not from the paper): passive spectral seriation on
  half the budget, then the other half on the pairs it places close together, and spectral again.
* Passive baselines for budgets below :math:`n(n-1)/2`, where some pairs are never observed
  (:func:`passive_observations`, :func:`completion_seriation`): the missing pairs are completed, by
  iterative low-rank imputation (:func:`lowrank_fill`) or by the profile estimated along an alternately
  re-estimated order (:func:`toeplitz_fill`), before spectral seriation.

Every method is vectorised over a batch of ``T`` independent instances (trials). The oracle returns
sums of ``k`` fresh observations drawn from their exact law (a Gaussian sum is
:math:`kM + \sigma\sqrt k\,Z`, a Cauchy sum is :math:`kM + k\sigma C`), so the cost of a simulation does
not grow with the budget.

Used by ``notebooks/active-seriation.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

Profile = Callable[[np.ndarray], np.ndarray]
NOISES: tuple[str, ...] = ("gaussian", "cauchy")
METHODS: tuple[str, ...] = ("active", "active-uniform", "no-endpoint", "passive", "passive-refine", "passive-lowrank",
                             "passive-toeplitz")


# --------------------------------------------------------------------------- validation helpers
def _check_n(n: int, least: int = 2) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < least:
        raise ValueError(f"n must be an int >= {least}; got {n!r}")
    return int(n)


def _check_perm(perm: ArrayLike, n: int | None = None) -> np.ndarray:
    p = np.asarray(perm)
    if p.ndim not in (1, 2) or p.shape[-1] < 2 or not np.issubdtype(p.dtype, np.integer):
        raise ValueError(f"perm must be an integer array of shape (n,) or (T, n) with n >= 2; got {p.dtype} {p.shape}")
    if n is not None and p.shape[-1] != n:
        raise ValueError(f"perm has {p.shape[-1]} items, expected n = {n}")
    if not np.all(np.sort(p, axis=-1) == np.arange(p.shape[-1])):
        raise ValueError("each row of perm must be a permutation of 0..n-1")
    return p


def _check_budget(budget: int, least: int, what: str) -> int:
    if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)):
        raise ValueError(f"budget must be an int; got {budget!r}")
    if budget < least:
        raise ValueError(f"budget {budget} is too small for {what}: at least {least} queries are needed")
    return int(budget)


# --------------------------------------------------------------------------- model
def linear_profile(n: int) -> Profile:
    """The profile :math:`g(k) = 1 - k/n` (uniform separation :math:`\\Delta = 1/n`, entries in ``(0, 1]``)."""
    n = _check_n(n)
    return lambda k: 1.0 - np.asarray(k, dtype=np.float64) / n


def exponential_profile(ell: float) -> Profile:
    """The profile :math:`g(k) = e^{-k/\\ell}` (separation shrinks far from the diagonal)."""
    if not (isinstance(ell, (int, float)) and math.isfinite(ell) and ell > 0):
        raise ValueError(f"ell must be a finite number > 0; got {ell!r}")
    return lambda k: np.exp(-np.asarray(k, dtype=np.float64) / ell)


def robinson_matrix(n: int, g: Profile, perm: ArrayLike) -> np.ndarray:
    """Permuted Robinson matrix :math:`M_{ij} = g(|\\pi_i - \\pi_j|)` (the brief's model, sec. 3).

    Parameters
    ----------
    n : int >= 2
    g : callable
        Vectorised profile on distances ``0..n-1``; must be strictly decreasing there.
    perm : array_like of int, shape (n,) or (T, n)
        ``perm[..., i]`` is the position of item ``i`` in the hidden order.

    Returns
    -------
    np.ndarray, shape (n, n) or (T, n, n)
        Symmetric; the diagonal is ``g(0)``.
    """
    n = _check_n(n)
    p = _check_perm(perm, n)
    if np.any(np.diff(np.asarray(g(np.arange(n)), dtype=np.float64)) >= 0):
        raise ValueError("g must be strictly decreasing on 0..n-1")
    return np.asarray(g(np.abs(p[..., :, None] - p[..., None, :])), dtype=np.float64)


def min_separation(g: Profile, n: int) -> float:
    """Uniform separation :math:`\\Delta = \\min_{0\\le k\\le n-2} g(k) - g(k+1)` of a profile on ``n`` items."""
    n = _check_n(n)
    return float((-np.diff(np.asarray(g(np.arange(n)), dtype=np.float64))).min())


def random_permutations(trials: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """``trials`` independent uniform permutations of ``0..n-1``; shape (trials, n)."""
    n = _check_n(n)
    if isinstance(trials, bool) or not isinstance(trials, (int, np.integer)) or trials < 1:
        raise ValueError(f"trials must be an int >= 1; got {trials!r}")
    return np.argsort(rng.random((int(trials), n)), axis=1)


# --------------------------------------------------------------------------- the oracle
class NoisyOracle:
    """Noisy similarity queries on a batch of ``T`` instances, with a query counter per instance.

    An observation of pair ``(i, j)`` in instance ``t`` is ``M[t, i, j] + eps`` with ``eps`` i.i.d.
    :math:`N(0, \\sigma^2)` (``noise="gaussian"``) or Cauchy with scale :math:`\\sigma`
    (``noise="cauchy"``, a heavy-tailed control whose averages do not concentrate).

    Parameters
    ----------
    M : array_like, shape (n, n) or (T, n, n)
        Symmetric similarity matrices (one instance when 2-d).
    sigma : float >= 0
    rng : numpy.random.Generator
    noise : {"gaussian", "cauchy"}
    track_pairs : bool
        Also count the observations of every pair (``pair_counts``).

    Attributes
    ----------
    n_queries : np.ndarray of int, shape (T,)
        Observations drawn so far in each instance.
    pair_counts : np.ndarray of int, shape (T, n, n), or None
        Symmetric counts per pair, when ``track_pairs``.
    """

    def __init__(self, M: ArrayLike, sigma: float, rng: np.random.Generator, noise: str = "gaussian",
                 track_pairs: bool = False):
        A = np.asarray(M, dtype=np.float64)
        if A.ndim == 2:
            A = A[None]
        if A.ndim != 3 or A.shape[1] != A.shape[2] or A.shape[1] < 2:
            raise ValueError(f"M must have shape (n, n) or (T, n, n) with n >= 2; got {np.shape(M)}")
        if not np.all(np.isfinite(A)) or np.abs(A - A.transpose(0, 2, 1)).max() > 1e-12:
            raise ValueError("M must be finite and symmetric")
        if not (isinstance(sigma, (int, float, np.floating)) and math.isfinite(sigma) and sigma >= 0):
            raise ValueError(f"sigma must be a finite number >= 0; got {sigma!r}")
        if noise not in NOISES:
            raise ValueError(f"noise must be one of {NOISES}; got {noise!r}")
        self.M, self.sigma, self.rng, self.noise = A, float(sigma), rng, noise
        self.T, self.n = A.shape[0], A.shape[1]
        self.n_queries = np.zeros(self.T, dtype=np.int64)
        self.pair_counts = np.zeros((self.T, self.n, self.n), dtype=np.int64) if track_pairs else None

    def sample_sums(self, i: ArrayLike, j: ArrayLike, k: ArrayLike) -> np.ndarray:
        """Sums of ``k`` fresh observations of pair ``(i, j)``, drawn from their exact law.

        Parameters
        ----------
        i, j, k : array_like of int, shape (T, m) (or broadcastable to it)
            Row ``t`` queries instance ``t``; ``i != j``; ``k >= 0`` observations each (``k = 0`` gives 0).

        Returns
        -------
        np.ndarray, shape (T, m)
        """
        i, j, k = np.broadcast_arrays(*(np.asarray(a) for a in (i, j, k)))
        if i.ndim != 2 or i.shape[0] != self.T:
            raise ValueError(f"queries must have shape (T={self.T}, m); got {i.shape}")
        for a in (i, j, k):
            if not np.issubdtype(a.dtype, np.integer):
                raise ValueError("i, j and k must be integer arrays")
        if np.any((i < 0) | (i >= self.n) | (j < 0) | (j >= self.n)) or np.any(i == j):
            raise ValueError(f"pairs must be distinct items in [0, {self.n})")
        if np.any(k < 0):
            raise ValueError("k must be >= 0")
        mean = self.M[np.arange(self.T)[:, None], i, j]
        kf = k.astype(np.float64)
        if self.noise == "gaussian":
            eps = self.sigma * np.sqrt(kf) * self.rng.standard_normal(mean.shape)
        else:  # the sum of k Cauchy(0, s) is Cauchy(0, k s)
            eps = self.sigma * kf * self.rng.standard_cauchy(mean.shape)
        self.n_queries += k.sum(axis=1)
        if self.pair_counts is not None:
            t = np.broadcast_to(np.arange(self.T)[:, None], i.shape)
            np.add.at(self.pair_counts, (t, i, j), k)
            np.add.at(self.pair_counts, (t, j, i), k)
        return kf * mean + eps

    def query(self, i: int, j: int) -> np.ndarray:
        """One observation of pair ``(i, j)`` in every instance; shape (T,)."""
        ii = np.full((self.T, 1), i)
        return self.sample_sums(ii, np.full_like(ii, j), np.ones_like(ii))[:, 0]


# --------------------------------------------------------------------------- allocation helper
def _spread(total: np.ndarray | int, mask: np.ndarray) -> np.ndarray:
    """Split ``total`` queries (per row) as evenly as possible over the True cells of ``mask``.

    The first ``total % count`` True cells of each row (in column order) get one more. Shape of ``mask``.
    """
    mask = np.asarray(mask, dtype=bool)
    count = mask.sum(axis=1)
    if np.any(count == 0):
        raise ValueError("every row needs at least one cell to receive queries")
    total = np.broadcast_to(np.asarray(total, dtype=np.int64), count.shape)
    base, rem = np.divmod(total, count)
    rank = np.cumsum(mask, axis=1) - 1
    return np.where(mask, base[:, None] + (rank < rem[:, None]), 0).astype(np.int64)


# --------------------------------------------------------------------------- active algorithm (ours)
def endpoint_min_budget(n: int, halving: bool = True) -> int:
    """Smallest budget :func:`find_endpoint` accepts: one query per arm in every round (one round without halving)."""
    n = _check_n(n, 3)
    return (math.ceil(math.log2(n - 1)) if halving else 1) * (n - 1)


def find_endpoint(oracle: NoisyOracle, pivot: ArrayLike, budget: int, halving: bool = True) -> np.ndarray:
    """An end of the hidden order: the least similar item to ``pivot``, by sequential halving.

    In a Robinson matrix the row of any item is unimodal along the order, so its smallest entry is at
    an end of the order (brief, step 1). The arms are the ``n - 1`` entries of the pivot's row; the
    budget is split evenly over ``ceil(log2(n-1))`` rounds, each round evenly over the surviving arms,
    and the half with the lowest running means survives (sequential halving, Karnin, Koren and Somekh,
    ICML 2013, for the arm of lowest mean). The last round resamples the two best candidates.

    With ``halving=False`` (the non-adaptive ablation) the whole budget is spread evenly over the
    ``n - 1`` entries in one round and the smallest mean is returned.

    Parameters
    ----------
    oracle : NoisyOracle
        With ``n >= 3`` items.
    pivot : array_like of int, shape (T,) or scalar
    budget : int >= :func:`endpoint_min_budget` ``(n, halving)``
        Queries per instance.
    halving : bool
        Sequential halving (default) or one uniform round.

    Returns
    -------
    np.ndarray of int, shape (T,)
    """
    T, n = oracle.T, oracle.n
    _check_n(n, 3)
    if not isinstance(halving, (bool, np.bool_)):
        raise ValueError(f"halving must be a bool; got {halving!r}")
    budget = _check_budget(budget, endpoint_min_budget(n, halving), "the endpoint search")
    a = np.broadcast_to(np.asarray(pivot), (T,))
    if not np.issubdtype(a.dtype, np.integer) or np.any((a < 0) | (a >= n)):
        raise ValueError(f"pivot must be item indices in [0, {n})")
    arms = np.argsort(np.arange(n)[None, :] == a[:, None], axis=1, kind="stable")[:, : n - 1]  # all but pivot
    sums = np.zeros((T, n - 1))
    counts = np.zeros((T, n - 1), dtype=np.int64)
    alive = np.tile(np.arange(n - 1), (T, 1))  # indices into arms, best first after each round
    rounds = math.ceil(math.log2(n - 1)) if halving else 1
    for r in range(rounds):
        b_r = budget // rounds + (budget % rounds if r == rounds - 1 else 0)
        k = _spread(b_r, np.ones(alive.shape, dtype=bool))
        items = np.take_along_axis(arms, alive, axis=1)
        s = oracle.sample_sums(np.broadcast_to(a[:, None], items.shape), items, k)
        np.put_along_axis(sums, alive, np.take_along_axis(sums, alive, axis=1) + s, axis=1)
        np.put_along_axis(counts, alive, np.take_along_axis(counts, alive, axis=1) + k, axis=1)
        means = np.take_along_axis(sums, alive, axis=1) / np.take_along_axis(counts, alive, axis=1)
        keep = math.ceil(alive.shape[1] / 2)
        alive = np.take_along_axis(alive, np.argsort(means, axis=1, kind="stable")[:, :keep], axis=1)
    return np.take_along_axis(arms, alive[:, :1], axis=1)[:, 0]


def sort_by_row(oracle: NoisyOracle, e: ArrayLike, budget: int, rounds: int = 4, z: float = 2.0) -> np.ndarray:
    """Order the items by their estimated similarity to ``e`` (decreasing), with adaptive resampling.

    When ``e`` is an end of the order its row :math:`g(|\\pi_e-\\pi_j|)` is strictly decreasing along
    the order, with gaps at least :math:`\\Delta` (brief, step 2). Half the budget is spread uniformly
    over the ``n - 1`` entries; each of the remaining ``rounds - 1`` rounds spreads its share over the
    entries whose interval :math:`\\bar y_j \\pm z\\sigma/\\sqrt{k_j}` overlaps that of a neighbour in
    the current sorted order (all entries when none overlaps): a fixed-budget form of successive
    elimination.

    Parameters
    ----------
    oracle : NoisyOracle
    e : array_like of int, shape (T,) or scalar
        The reference item of each instance.
    budget : int >= 2 (n - 1)
    rounds : int >= 1
    z : float >= 0
        Width of the intervals in noise standard deviations (the algorithm knows :math:`\\sigma`).

    Returns
    -------
    np.ndarray of int, shape (T, n)
        ``order[:, 0] = e``, then the other items by decreasing estimated similarity to ``e``.
    """
    T, n = oracle.T, oracle.n
    budget = _check_budget(budget, 2 * (n - 1), "sorting a row")
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)) or rounds < 1:
        raise ValueError(f"rounds must be an int >= 1; got {rounds!r}")
    if not (isinstance(z, (int, float)) and math.isfinite(z) and z >= 0):
        raise ValueError(f"z must be a finite number >= 0; got {z!r}")
    ee = np.broadcast_to(np.asarray(e), (T,))
    if not np.issubdtype(ee.dtype, np.integer) or np.any((ee < 0) | (ee >= n)):
        raise ValueError(f"e must be item indices in [0, {n})")
    others = np.argsort(np.arange(n)[None, :] == ee[:, None], axis=1, kind="stable")[:, : n - 1]
    rows = np.broadcast_to(ee[:, None], others.shape)
    shares = [budget] if rounds == 1 else [budget // 2] + [(budget - budget // 2) // (rounds - 1)] * (rounds - 1)
    shares[-1] += budget - sum(shares)
    k = _spread(shares[0], np.ones(others.shape, dtype=bool))
    sums, counts = oracle.sample_sums(rows, others, k), k.copy()
    for b_r in shares[1:]:
        means = sums / counts
        idx = np.argsort(-means, axis=1, kind="stable")
        m_s = np.take_along_axis(means, idx, axis=1)
        w_s = z * oracle.sigma / np.sqrt(np.take_along_axis(counts, idx, axis=1))
        overlap = (m_s[:, :-1] - m_s[:, 1:]) < (w_s[:, :-1] + w_s[:, 1:])
        amb = np.zeros_like(m_s, dtype=bool)
        amb[:, :-1] |= overlap
        amb[:, 1:] |= overlap
        amb[~amb.any(axis=1)] = True
        k_sorted = _spread(b_r, amb)
        k = np.zeros_like(k_sorted)
        np.put_along_axis(k, idx, k_sorted, axis=1)
        sums += oracle.sample_sums(rows, others, k)
        counts += k
    idx = np.argsort(-(sums / counts), axis=1, kind="stable")
    return np.concatenate([ee[:, None], np.take_along_axis(others, idx, axis=1)], axis=1)


def active_seriation(
    oracle: NoisyOracle, budget: int, pivot: int = 0, endpoint_share: float = 0.25, rounds: int = 4,
    z: float = 2.0, endpoint: bool = True, adaptive: bool = True,
) -> np.ndarray:
    """Our fixed-budget active seriation: find an end with :func:`find_endpoint`, then :func:`sort_by_row`.

    ``endpoint_share`` of the budget goes to the endpoint search on the row of ``pivot``, the rest to
    sorting the row of the end found. With ``endpoint=False`` (a strawman ablation, shown in a figure only)
    the whole budget sorts the pivot's own row, which is unimodal rather than monotone along the order.
    With ``adaptive=False`` (the ablation of the adaptive allocation) both rows are sampled uniformly:
    one round for the endpoint (no sequential halving) and one for the sort (no elimination rounds).

    Parameters
    ----------
    oracle : NoisyOracle
        With ``n >= 3`` items.
    budget : int
        Queries per instance; exactly this many are drawn.
    pivot : int
    endpoint_share : float in (0, 1)
    rounds, z
        Passed to :func:`sort_by_row`.
    endpoint : bool
    adaptive : bool
        Sequential halving and elimination rounds (default), or uniform sampling of both rows.

    Returns
    -------
    np.ndarray of int, shape (T, n)
        The recovered order of each instance.
    """
    n = _check_n(oracle.n, 3)
    if not (isinstance(endpoint_share, float) and 0 < endpoint_share < 1):
        raise ValueError(f"endpoint_share must be a float in (0, 1); got {endpoint_share!r}")
    if not isinstance(adaptive, (bool, np.bool_)):
        raise ValueError(f"adaptive must be a bool; got {adaptive!r}")
    rounds = rounds if adaptive else 1
    if not endpoint:
        return sort_by_row(oracle, pivot, budget, rounds, z)
    b1 = int(budget * endpoint_share)
    _check_budget(budget, 0, "")
    if b1 < endpoint_min_budget(n, adaptive) or budget - b1 < 2 * (n - 1):
        raise ValueError(f"budget {budget} is too small for n = {n}: at least "
                         f"{active_min_budget(n, endpoint_share, adaptive)}")
    e = find_endpoint(oracle, pivot, b1, halving=bool(adaptive))
    return sort_by_row(oracle, e, budget - b1, rounds, z)


def active_min_budget(n: int, endpoint_share: float = 0.25, adaptive: bool = True) -> int:
    """Smallest budget :func:`active_seriation` accepts for ``n`` items (``adaptive`` as there)."""
    n = _check_n(n, 3)
    e_min = endpoint_min_budget(n, adaptive)
    b = math.ceil(max(e_min / endpoint_share, 2 * (n - 1) / (1 - endpoint_share)))
    while int(b * endpoint_share) < e_min or b - int(b * endpoint_share) < 2 * (n - 1):
        b += 1
    return b


def min_budget(method: str, n: int) -> int:
    """Smallest budget :func:`simulate` accepts for ``method`` on ``n`` items.

    ``active``: :func:`active_min_budget`; ``active-uniform``: the same without halving; ``no-endpoint``:
    two queries per entry of one row; ``passive``, ``passive-lowrank``, ``passive-toeplitz``: one query;
    ``passive-refine``: two (one per stage).
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}; got {method!r}")
    n = _check_n(n, 3)
    if method == "active":
        return active_min_budget(n)
    if method == "no-endpoint":
        return 2 * (n - 1)
    if method == "active-uniform":
        return active_min_budget(n, adaptive=False)
    return 2 if method == "passive-refine" else 1


# --------------------------------------------------------------------------- passive baseline
def _passive_sums(oracle: NoisyOracle, budget: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Sums and counts of passive observations over the upper-triangle pairs (see :func:`passive_average`)."""
    T, n = oracle.T, oracle.n
    budget = _check_budget(budget, 1, "passive sampling")
    iu, ju = np.triu_indices(n, 1)
    N = iu.size
    base, rem = divmod(budget, N)
    k = np.full((T, N), base, dtype=np.int64)
    if rem:
        extra = np.argpartition(rng.random((T, N)), rem - 1, axis=1)[:, :rem]  # the rem smallest keys
        np.put_along_axis(k, extra, base + 1, axis=1)
    sums = oracle.sample_sums(np.broadcast_to(iu, (T, N)), np.broadcast_to(ju, (T, N)), k)
    return sums, k


def _mean_matrix(sums: np.ndarray, k: np.ndarray, n: int) -> np.ndarray:
    """Symmetric matrix of the upper-triangle means; unobserved pairs get the mean of the observed ones."""
    iu, ju = np.triu_indices(n, 1)
    seen = k > 0
    means = np.where(seen, sums / np.maximum(k, 1), 0.0)
    fill = means.sum(axis=1) / seen.sum(axis=1)
    means = np.where(seen, means, fill[:, None])
    S = np.zeros((sums.shape[0], n, n))
    S[:, iu, ju] = means
    return S + S.transpose(0, 2, 1)


def passive_average(oracle: NoisyOracle, budget: int, rng: np.random.Generator) -> np.ndarray:
    """Average of passive observations, the budget spread uniformly over all pairs.

    Each of the :math:`N = n(n-1)/2` pairs gets ``budget // N`` observations and a uniformly random
    set of ``budget % N`` pairs one more. Pairs never observed (only when ``budget < N``) are filled
    with the mean of the observed entries of their instance.

    Returns
    -------
    np.ndarray, shape (T, n, n)
        Symmetric, zero diagonal.
    """
    sums, k = _passive_sums(oracle, budget, rng)
    return _mean_matrix(sums, k, oracle.n)


def refine_seriation(oracle: NoisyOracle, budget: int, rng: np.random.Generator, first_share: float = 0.5,
                     width: int = 2) -> np.ndarray:
    """A naive two-stage active baseline: passive spectral seriation, then resample the pairs it calls close.

    Not from the paper: a generic "estimate, then sample where the estimate is uncertain" scheme that a
    skeptic would try before a purpose-built algorithm. ``first_share`` of the budget is spread over all
    pairs as in :func:`passive_average`, and :func:`spectral_seriation` orders the average; the rest is
    spread evenly (:func:`_spread`) over the pairs at most ``width`` apart in that order (the entries that
    decide swaps of near neighbours); the observations of both stages are averaged together and spectral
    seriation is applied again.

    Parameters
    ----------
    oracle : NoisyOracle
    budget : int >= 2
        Queries per instance; exactly this many are drawn.
    rng : numpy.random.Generator
        For the passive stage's leftover queries.
    first_share : float in (0, 1)
    width : int in [1, n - 1]

    Returns
    -------
    np.ndarray of int, shape (T, n)
    """
    T, n = oracle.T, oracle.n
    if not (isinstance(first_share, float) and 0 < first_share < 1):
        raise ValueError(f"first_share must be a float in (0, 1); got {first_share!r}")
    if isinstance(width, bool) or not isinstance(width, (int, np.integer)) or not 1 <= width <= n - 1:
        raise ValueError(f"width must be an int in [1, {n - 1}]; got {width!r}")
    budget = _check_budget(budget, 2, "the two stages")
    b1 = max(1, int(budget * first_share))
    sums, k = _passive_sums(oracle, b1, rng)
    order = spectral_seriation(_mean_matrix(sums, k, n))
    # the pairs (order[r], order[r + s]), s = 1..width, as indices into the upper triangle
    r = np.concatenate([np.arange(n - s) for s in range(1, width + 1)])
    s_ = np.concatenate([np.arange(s, n) for s in range(1, width + 1)])
    a, b = order[:, r], order[:, s_]
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    tri = lo * n - lo * (lo + 1) // 2 + (hi - lo - 1)  # position of (lo, hi) in np.triu_indices(n, 1)
    k2 = _spread(budget - b1, np.ones(lo.shape, dtype=bool))
    s2 = oracle.sample_sums(lo, hi, k2)
    np.add.at(sums, (np.broadcast_to(np.arange(T)[:, None], tri.shape), tri), s2)
    np.add.at(k, (np.broadcast_to(np.arange(T)[:, None], tri.shape), tri), k2)
    return spectral_seriation(_mean_matrix(sums, k, n))


# --------------------------------------------------------------------------- passive baselines for missing pairs
def passive_observations(oracle: NoisyOracle, budget: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Passive observations kept apart from the pairs never observed: (means, observed mask).

    The budget is spread over the :math:`N = n(n-1)/2` pairs exactly as in :func:`passive_average` (the same
    draws from ``oracle`` and ``rng``); below :math:`N` queries a uniformly random set of ``budget`` pairs is
    observed once and the others not at all.

    Returns
    -------
    A : np.ndarray, shape (T, n, n)
        Symmetric means of the observed pairs; 0 on unobserved pairs and on the diagonal.
    W : np.ndarray of bool, shape (T, n, n)
        Symmetric; True where the pair was observed (never on the diagonal).
    """
    sums, k = _passive_sums(oracle, budget, rng)
    n = oracle.n
    iu, ju = np.triu_indices(n, 1)
    A = np.zeros((sums.shape[0], n, n))
    W = np.zeros((sums.shape[0], n, n), dtype=bool)
    A[:, iu, ju] = np.where(k > 0, sums / np.maximum(k, 1), 0.0)
    W[:, iu, ju] = k > 0
    return A + A.transpose(0, 2, 1), W | W.transpose(0, 2, 1)


def _check_observed(A: ArrayLike, W: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    A = np.asarray(A, dtype=np.float64)
    W = np.asarray(W)
    if A.ndim == 2:
        A, W = A[None], W[None]
    if A.ndim != 3 or A.shape[1] != A.shape[2] or A.shape[1] < 3 or W.shape != A.shape or W.dtype != bool:
        raise ValueError("A must have shape (n, n) or (T, n, n) with n >= 3, and W be a boolean array of that shape")
    if not np.all(np.isfinite(A)) or np.any(A != A.transpose(0, 2, 1)) or np.any(W != W.transpose(0, 2, 1)):
        raise ValueError("A must be finite and symmetric, and W symmetric")
    off = ~np.eye(A.shape[1], dtype=bool)
    if np.any((W & off).sum(axis=(1, 2)) == 0):
        raise ValueError("every instance needs at least one observed pair")
    return A, W & off


def lowrank_fill(A: ArrayLike, W: ArrayLike, rank: int = 4, iters: int = 20) -> np.ndarray:
    """Complete a partly observed similarity matrix by hard impute (iterative rank-``rank`` reconstruction).

    The iterative low-rank imputation of Troyanskaya et al. (Bioinformatics 2001, "SVDimpute") and the
    hard-impute of Mazumder, Hastie and Tibshirani (JMLR 2010), in its symmetric form: start from the
    observed entries with the unobserved ones at the mean of the observed ones; then, ``iters`` times, replace
    the unobserved entries by those of the best rank-``rank`` approximation of the current matrix (its
    ``rank`` eigenpairs of largest magnitude). The diagonal, a self-similarity never queried, is held at the
    largest observed similarity of the instance (in a Robinson matrix the diagonal is each row's maximum).

    Parameters
    ----------
    A, W : array_like, shape (n, n) or (T, n, n)
        Observed means and the boolean mask of observed pairs (:func:`passive_observations`).
    rank : int in [1, n]
    iters : int >= 1

    Returns
    -------
    np.ndarray, shape (T, n, n)
        Symmetric; equal to ``A`` on the observed pairs.
    """
    A, W = _check_observed(A, W)
    n = A.shape[1]
    if isinstance(rank, bool) or not isinstance(rank, (int, np.integer)) or not 1 <= rank <= n:
        raise ValueError(f"rank must be an int in [1, {n}]; got {rank!r}")
    if isinstance(iters, bool) or not isinstance(iters, (int, np.integer)) or iters < 1:
        raise ValueError(f"iters must be an int >= 1; got {iters!r}")
    idx = np.arange(n)
    known = W.copy()
    known[:, idx, idx] = True
    target = A.copy()
    target[:, idx, idx] = np.where(W, A, -np.inf).max(axis=(1, 2))[:, None]
    mean = (A * W).sum(axis=(1, 2)) / W.sum(axis=(1, 2))
    X = np.where(known, target, mean[:, None, None])
    for _ in range(int(iters)):
        w, V = np.linalg.eigh(X)
        top = np.argsort(-np.abs(w), axis=1, kind="stable")[:, :rank]
        wt = np.take_along_axis(w, top, axis=1)
        Vt = np.take_along_axis(V, top[:, None, :], axis=2)
        L = (Vt * wt[:, None, :]) @ Vt.transpose(0, 2, 1)
        X = np.where(known, target, (L + L.transpose(0, 2, 1)) / 2)
    return X


def toeplitz_fill(A: ArrayLike, W: ArrayLike, order: ArrayLike) -> np.ndarray:
    """Fill each unobserved pair with the mean observed similarity at the same distance in a given order.

    Under the model :math:`M_{ij} = g(|\\pi_i-\\pi_j|)` the similarity depends only on the distance in the
    hidden order, so once an order is estimated, the observed pairs at rank distance :math:`d` estimate
    :math:`g(d)`. A distance with no observed pair gets the value interpolated linearly between the
    nearest distances that have one (the nearest one's value beyond the last).

    Parameters
    ----------
    A, W : array_like, shape (n, n) or (T, n, n)
        As in :func:`lowrank_fill`.
    order : array_like of int, shape (n,) or (T, n)
        ``order[r]`` = item at rank ``r``.

    Returns
    -------
    np.ndarray, shape (T, n, n)
        Symmetric; ``A`` on observed pairs, zero diagonal.
    """
    A, W = _check_observed(A, W)
    T, n = A.shape[0], A.shape[1]
    o = np.asarray(order)
    o = o[None] if o.ndim == 1 else o
    _check_perm(o, n)
    if o.shape[0] != T:
        raise ValueError(f"order must have one row per instance ({T}); got {o.shape[0]}")
    rank = np.argsort(o, axis=1)
    D = np.abs(rank[:, :, None] - rank[:, None, :])
    t = np.broadcast_to(np.arange(T)[:, None, None], D.shape)
    tot, cnt = np.zeros((T, n)), np.zeros((T, n))
    np.add.at(tot, (t, D), np.where(W, A, 0.0))
    np.add.at(cnt, (t, D), W)
    prof = tot / np.maximum(cnt, 1)
    d = np.arange(n)
    for i in range(T):  # distances with no observed pair: interpolated from the observed ones (ends held)
        seen = cnt[i] > 0
        if not seen.all():
            prof[i] = np.interp(d, d[seen], prof[i, seen])
    fill = np.take_along_axis(prof, D.reshape(T, -1), axis=1).reshape(D.shape)
    X = np.where(W, A, fill)
    X[:, np.arange(n), np.arange(n)] = 0.0
    return X


def completion_seriation(A: ArrayLike, W: ArrayLike, fill: str, rank: int = 4, iters: int = 20,
                         rounds: int = 5) -> np.ndarray:
    """Spectral seriation of a partly observed similarity matrix, completed first (passive baselines).

    ``fill="lowrank"``: :func:`spectral_seriation` of :func:`lowrank_fill` ``(A, W, rank, iters)``.
    ``fill="toeplitz"``: start from the spectral order of the mean-filled matrix (unobserved pairs at the
    mean of the observed ones, as :func:`passive_average`), then ``rounds`` times fill by
    :func:`toeplitz_fill` in the current order and re-order by spectral seriation (alternating estimation of
    the order and of the profile :math:`g`).

    Returns
    -------
    np.ndarray of int, shape (T, n)
    """
    A, W = _check_observed(A, W)
    if fill == "lowrank":
        return spectral_seriation(lowrank_fill(A, W, rank, iters))
    if fill != "toeplitz":
        raise ValueError(f"fill must be 'lowrank' or 'toeplitz'; got {fill!r}")
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)) or rounds < 1:
        raise ValueError(f"rounds must be an int >= 1; got {rounds!r}")
    mean = (A * W).sum(axis=(1, 2)) / W.sum(axis=(1, 2))
    order = spectral_seriation(np.where(W, A, mean[:, None, None]))
    for _ in range(int(rounds)):
        order = spectral_seriation(toeplitz_fill(A, W, order))
    return order


def fiedler_vector(S: ArrayLike) -> np.ndarray:
    """Eigenvector of the second smallest eigenvalue of the Laplacian :math:`L = \\mathrm{diag}(S\\mathbf 1) - S`.

    Parameters
    ----------
    S : array_like, shape (n, n) or (..., n, n)
        Symmetric similarity matrices (the diagonal does not enter :math:`L`).

    Returns
    -------
    np.ndarray, shape (n,) or (..., n)
        Unit norm; sign fixed so that the entry of largest magnitude is positive.
    """
    A = np.asarray(S, dtype=np.float64)
    if A.ndim < 2 or A.shape[-1] != A.shape[-2] or A.shape[-1] < 2:
        raise ValueError(f"S must have shape (n, n) or (..., n, n) with n >= 2; got {np.shape(S)}")
    if not np.all(np.isfinite(A)):
        raise ValueError("S must be finite")
    scale = max(float(np.abs(A).max()), 1.0)
    if np.abs(A - np.swapaxes(A, -1, -2)).max() > 1e-12 * scale:
        raise ValueError("S must be symmetric")
    L = -A.copy()
    d = A.sum(axis=-1)
    idx = np.arange(A.shape[-1])
    L[..., idx, idx] = d - A[..., idx, idx]
    _, vecs = np.linalg.eigh(L)
    v = vecs[..., :, 1]
    big = np.take_along_axis(v, np.abs(v).argmax(axis=-1)[..., None], axis=-1)
    return v * np.where(big < 0, -1.0, 1.0)


def spectral_seriation(S: ArrayLike) -> np.ndarray:
    """Spectral seriation: the permutation that sorts the Fiedler vector of ``S`` (Atkins et al. 1998).

    For a Robinson matrix with non-negative entries and a simple Fiedler value, the Fiedler vector is
    monotone along the hidden order, so sorting it recovers the order up to reversal.

    Parameters
    ----------
    S : array_like, shape (n, n) or (..., n, n)

    Returns
    -------
    np.ndarray of int, shape (n,) or (..., n)
        ``order[r]`` is the item at rank ``r`` (``argsort`` of :func:`fiedler_vector`, stable).
    """
    return np.argsort(fiedler_vector(S), axis=-1, kind="stable")


# --------------------------------------------------------------------------- scores
def _pair(order: ArrayLike, perm: ArrayLike) -> np.ndarray:
    o = np.asarray(order)
    p = _check_perm(perm)
    if o.shape != p.shape:
        raise ValueError(f"order and perm must have the same shape; got {o.shape} and {p.shape}")
    _check_perm(o)
    return np.take_along_axis(p, o, axis=-1)  # true positions read in the recovered order


def exact_recovery(order: ArrayLike, perm: ArrayLike) -> np.ndarray | bool:
    """Whether ``order`` is the hidden order or its reversal.

    Parameters
    ----------
    order, perm : array_like of int, shape (n,) or (T, n)

    Returns
    -------
    bool or np.ndarray of bool, shape (T,)
    """
    seq = _pair(order, perm)
    n = seq.shape[-1]
    ok = np.all(seq == np.arange(n), axis=-1) | np.all(seq == np.arange(n)[::-1], axis=-1)
    return bool(ok) if np.ndim(ok) == 0 else ok


def kendall_distance(order: ArrayLike, perm: ArrayLike) -> np.ndarray | int:
    """Kendall distance to the hidden order, up to reversal: :math:`\\min(d, N - d)`, :math:`N = n(n-1)/2`.

    ``d`` counts the pairs of items that ``order`` ranks in the opposite way to the hidden order.

    Returns
    -------
    int or np.ndarray of int, shape (T,)
    """
    seq = _pair(order, perm)
    n = seq.shape[-1]
    upper = np.triu(np.ones((n, n), dtype=bool), 1)
    d = ((seq[..., :, None] > seq[..., None, :]) & upper).sum(axis=(-1, -2))
    d = np.minimum(d, n * (n - 1) // 2 - d)
    return int(d) if np.ndim(d) == 0 else d


# --------------------------------------------------------------------------- experiment helpers
def simulate(
    method: str, n: int, budget: int, trials: int, sigma: float, g: Profile, rng: np.random.Generator,
    noise: str = "gaussian",
) -> dict[str, float]:
    """Run ``trials`` independent instances (fresh uniform hidden orders) of one method at one budget.

    Parameters
    ----------
    method : str, one of :data:`METHODS`
        Ours (:func:`active_seriation`); ours with uniform sampling of both rows (``adaptive=False``); the
        strawman that sorts the pivot's own row (``endpoint=False``); spectral seriation of
        :func:`passive_average`; the naive two-stage baseline :func:`refine_seriation`; or the passive
        baselines for budgets below :math:`n(n-1)/2`, :func:`completion_seriation` of
        :func:`passive_observations` with ``fill="lowrank"`` or ``"toeplitz"``.
    n, budget, trials, sigma, g, rng, noise
        Items, queries per instance, instances, noise scale, profile, generator, noise law.

    Returns
    -------
    dict
        ``success`` (exact-recovery rate up to reversal), ``kendall`` (mean Kendall distance divided by
        :math:`n(n-1)/2`) and ``queries`` (mean queries drawn per instance).
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}; got {method!r}")
    perm = random_permutations(trials, n, rng)
    oracle = NoisyOracle(robinson_matrix(n, g, perm), sigma, rng, noise)
    if method == "passive":
        order = spectral_seriation(passive_average(oracle, budget, rng))
    elif method == "passive-refine":
        order = refine_seriation(oracle, budget, rng)
    elif method in ("passive-lowrank", "passive-toeplitz"):
        order = completion_seriation(*passive_observations(oracle, budget, rng), fill=method.split("-")[1])
    else:
        order = active_seriation(oracle, budget, endpoint=method != "no-endpoint", adaptive=method != "active-uniform")
    return dict(success=float(np.mean(exact_recovery(order, perm))),
                kendall=float(np.mean(kendall_distance(order, perm)) / (n * (n - 1) / 2)),
                queries=float(oracle.n_queries.mean()))


def budget_at_success(budgets: ArrayLike, success: ArrayLike, level: float = 0.9) -> float:
    """Budget at which the success rate first reaches ``level``, interpolated linearly in log budget.

    The first grid point with ``success >= level`` and the point before it are joined by a straight
    line in ``(log budget, success)``. Returns ``nan`` when the level is never reached, and the first
    budget when it is reached there already.

    Parameters
    ----------
    budgets : array_like, shape (m,)
        Increasing, positive.
    success : array_like, shape (m,)
    level : float in (0, 1]
    """
    b = np.asarray(budgets, dtype=np.float64)
    s = np.asarray(success, dtype=np.float64)
    if b.ndim != 1 or b.shape != s.shape or b.size < 1 or np.any(b <= 0) or np.any(np.diff(b) <= 0):
        raise ValueError("budgets must be positive, increasing, and match success in shape")
    if not 0 < level <= 1:
        raise ValueError(f"level must be in (0, 1]; got {level!r}")
    hit = np.flatnonzero(s >= level)
    if hit.size == 0:
        return float("nan")
    i = int(hit[0])
    if i == 0:
        return float(b[0])
    t = (level - s[i - 1]) / (s[i] - s[i - 1])
    return float(np.exp(np.log(b[i - 1]) + t * (np.log(b[i]) - np.log(b[i - 1]))))


def log_error_fit(x: ArrayLike, p_err: ArrayLike, trials: int, hi: float = 0.5) -> tuple[float, float, int]:
    """Least-squares line of :math:`\\log \\hat P(\\mathrm{error})` against ``x`` over the tail window.

    Only the points with ``2 / trials <= p_err <= hi`` enter (at least two errors seen, and past the
    plateau). With fewer than three such points there is no decay regime to fit: the slope and
    :math:`R^2` are returned as 0.

    Returns
    -------
    (slope, r2, points)
    """
    x = np.asarray(x, dtype=np.float64)
    p = np.asarray(p_err, dtype=np.float64)
    if x.ndim != 1 or x.shape != p.shape or np.any((p < 0) | (p > 1)):
        raise ValueError("x and p_err must be 1-d of equal length, with p_err in [0, 1]")
    if isinstance(trials, bool) or not isinstance(trials, (int, np.integer)) or trials < 1:
        raise ValueError(f"trials must be an int >= 1; got {trials!r}")
    use = (p >= 2.0 / trials) & (p <= hi)
    if use.sum() < 3:
        return 0.0, 0.0, int(use.sum())
    xs, ys = x[use], np.log(p[use])
    slope, icpt = np.polyfit(xs, ys, 1)
    resid = ys - (slope * xs + icpt)
    ss = float(((ys - ys.mean()) ** 2).sum())
    r2 = 1.0 - float((resid**2).sum()) / ss if ss > 0 else 0.0
    return float(slope), r2, int(use.sum())
