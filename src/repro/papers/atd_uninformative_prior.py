r"""Active Target Discovery under Uninformative Prior: The Power of Permanent and Transient Memory (EM-PTDM).

Paper map
---------
*Active Target Discovery under Uninformative Prior: The Power of Permanent and Transient Memory*,
Anindya Sarkar, Binglin Ji, Yevgeniy Vorobeychik, NeurIPS 2025,
https://arxiv.org/abs/2510.16676 (official code: github.com/KevinG396/EM_PTDM).
Notebook: ``notebooks/atd-uninformative-prior.py``.

This module is a *particle-prior analogue* of the paper's method: the pretrained diffusion prior
("permanent memory") is replaced by a fixed ensemble of prior maps (particles), and the Doob
h-transform fine-tuned on the task's observations ("transient memory") by kernel smoothers of the
observations themselves. EM on the mixture weights of both kinds of component gives the prior estimate,
whose observed-data log-likelihood never decreases.

Notation (paper -> here):

- search space of cells (pixels or blocks) -> flattened grid of ``N = size**2`` cells, ``x[m, j] in {0, 1}``
  (1 = target) for map ``m``;
- budget ``B`` and query index ``b`` -> ``budget`` and ``b`` (1-based);
- permanent memory (pretrained diffusion prior) -> ``particles`` ``(K, N)`` in {0, 1}, used as Bernoulli maps
  with flip noise ``eps``: ``p_k = eps + (1 - 2 eps) x_k``;
- transient memory (h-transform adapted to the observations) -> kernel-smoothed maps of the observed labels
  at several bandwidths (:func:`transient_components`), leave-one-out at observed cells;
- component likelihood of observation ``i`` -> ``L[i, k] = p_k(j_i)^{y_i} (1 - p_k(j_i))^{1 - y_i}``;
- EM prior estimate -> ``w = em_mixture_weights(L, n_iter)``, ``p_hat = sum_k w_k p_k``;
- exploration/exploitation weights of the official block selection,
  ``alpha_1 = max(0, (B - b)/(B + b))``, ``alpha_2 = 1 - alpha_1`` -> :func:`exploration_weight`;
- the official block score (``ActiveSampler.select_block_entropy``) -> :func:`official_block_scores`; its
  closed form for binary posterior samples and one-cell blocks -> :func:`official_cell_scores`.

What has no official counterpart: the official transient memory is an h-network whose noise prediction is
*added* to the pretrained model's (``h_trans.py``, ``denoise``: ``pred_noises_eps1 + pred_noises_eps2``) and
retrained every 20 queries; there is no mixture weight between the two memories. Our EM mixture weights, and so
the "weight on the transient memory", are the analogue's own device.

Ablations: :func:`run_discovery` with ``"em-permanent"`` (EM over the permanent particles only: no transient
memory) and ``"em-transient"`` (EM over the transient components only: no permanent memory).

Naive baselines (none of the paper's ideas): :func:`run_discovery` with ``"kernel-greedy"``, classical one-step
greedy active search on a nearest-neighbour kernel estimate of the target probability (the brief's
"nearest-positive greedy"), and the generic speckle prior fitted to the targets' density and scale
(:func:`fit_speckle_scale`) for the prior-dependent baseline.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy.ndimage import gaussian_filter

from repro.validate import check_int, check_positive, finite_array

KINDS = ("species", "remote", "prior")
METHODS = ("random", "static-prior", "bayes-prior", "em-permanent", "em-ptdm", "em-transient", "kernel-greedy")
QUERY_RULES = ("ours", "official")
_FLOOR = 1e-200  # EM weights never fall below this (see em_weights_batch)


# ---------------------------------------------------------------------------------------------------------
# EM on mixture weights (the transient-memory update)
# ---------------------------------------------------------------------------------------------------------

def _check_likelihoods(L: ArrayLike, ndim: int) -> np.ndarray:
    L = finite_array(L, "L", ndim=ndim)
    if L.shape[-1] < 1 or L.shape[-2] < 1:
        raise ValueError(f"L must have at least one sample and one component; got shape {L.shape}")
    if np.any(L < 0):
        raise ValueError("L holds likelihoods: every entry must be >= 0")
    if np.any(L.max(axis=-1) <= 0):
        raise ValueError("every sample (row of L) needs a positive likelihood under some component")
    return L


def mixture_log_likelihood(L: ArrayLike, w: ArrayLike) -> float:
    r"""Observed-data log-likelihood of mixture weights, $\ell(w) = \sum_i \log \sum_k w_k L_{ik}$.

    Parameters
    ----------
    L : array (n, K)
        Component likelihoods, samples by components, ``>= 0``.
    w : array (K,)
        Mixture weights on the simplex.
    """
    L = _check_likelihoods(L, 2)
    w = finite_array(w, "w", ndim=1)
    if w.shape[0] != L.shape[1]:
        raise ValueError(f"w has {w.shape[0]} entries but L has {L.shape[1]} components")
    return float(np.sum(np.log(L @ w)))


def em_weights_batch(L: np.ndarray, w0: np.ndarray, n_iter: int) -> tuple[np.ndarray, np.ndarray]:
    r"""Batched EM on mixture weights from given starting weights (no input checks: inner loop).

    E-step $r_{ik} = w_k L_{ik} / \sum_l w_l L_{il}$, M-step $w_k = \frac1n \sum_i r_{ik}$, i.e. the
    multiplicative update $w_k \leftarrow w_k \cdot \frac1n\sum_i L_{ik}/(Lw)_i$. A weight that falls below
    ``1e-200`` is raised to it before the renormalisation: its share of any mixture sum stays below ~1e-198, and
    the component can still come back when later observations favour it. Left alone, such weights drift into
    subnormal floats, whose arithmetic is many times slower, and then to exactly 0, from which EM never returns.

    Parameters
    ----------
    L : array (M, n, K)
        ``M`` independent problems, each with ``n`` samples and ``K`` components.
    w0 : array (M, K)
        Starting weights (rows on the simplex, positive where the maximiser may be positive).
    n_iter : int
        Number of EM iterations.

    Returns
    -------
    w : array (M, K)
        Weights after ``n_iter`` iterations.
    loglik : array (M, n_iter + 1)
        $\ell(w)$ at the start and after each iteration, with each row of ``L`` divided by its maximum
        (a constant per sample, which changes neither the EM iterates nor the differences of $\ell$).
    """
    Ls = L / L.max(axis=2, keepdims=True)
    w = w0.copy()
    trace = np.empty((L.shape[0], n_iter + 1))
    mix = np.einsum("mik,mk->mi", Ls, w)
    trace[:, 0] = np.log(mix).sum(axis=1)
    n = L.shape[1]
    for t in range(n_iter):
        w = w * np.einsum("mik,mi->mk", Ls, 1.0 / mix) / n
        np.maximum(w, _FLOOR, out=w)  # keeps products out of the slow subnormal range
        w /= w.sum(axis=1, keepdims=True)  # exact on the simplex up to rounding
        mix = np.einsum("mik,mk->mi", Ls, w)
        trace[:, t + 1] = np.log(mix).sum(axis=1)
    return w, trace


def em_mixture_weights(L: ArrayLike, n_iter: int) -> np.ndarray:
    r"""EM updates of mixture weights for fixed component likelihoods (the issue's required kernel).

    Maximises $\ell(w)=\sum_i \log \sum_k w_k L_{ik}$ over the simplex $\{w \ge 0, \sum_k w_k = 1\}$, a
    concave problem, by the EM fixed-point iteration
    $w_k \leftarrow \frac1n \sum_i \frac{w_k L_{ik}}{\sum_l w_l L_{il}}$ (E-step responsibilities, then their
    average as the M-step). Each iteration keeps $w$ on the simplex and never decreases $\ell$ (EM's ascent
    property); the maximisers of $\ell$ are fixed points.

    **Starting point:** uniform weights $w_k = 1/K$ (so every component keeps a positive weight after any
    finite number of iterations, unless its likelihoods are all zero).

    Parameters
    ----------
    L : array (n, K)
        Component likelihoods, samples by components: ``L[i, k] >= 0`` is the likelihood of sample ``i`` under
        component ``k``; every row needs a positive entry.
    n_iter : int
        Number of EM iterations (``0`` returns the uniform start).

    Returns
    -------
    w : array (K,)
        The mixture weights after ``n_iter`` iterations (on the simplex). The log-likelihood trace is
        available from :func:`em_mixture_weights_trace`.
    """
    return em_mixture_weights_trace(L, n_iter)[0]


def em_mixture_weights_trace(L: ArrayLike, n_iter: int) -> tuple[np.ndarray, np.ndarray]:
    r""":func:`em_mixture_weights` plus its trace $\ell(w^{(0)}), \dots, \ell(w^{(n_{iter})})$ (unscaled ``L``).

    Returns ``(w, loglik)`` with ``w`` of shape ``(K,)`` and ``loglik`` of shape ``(n_iter + 1,)``.
    """
    L = _check_likelihoods(L, 2)
    n_iter = check_int(n_iter, "n_iter", least=0)
    K = L.shape[1]
    w, trace = em_weights_batch(L[None], np.full((1, K), 1.0 / K), n_iter)
    shift = np.log(L.max(axis=1)).sum()
    return w[0], trace[0] + shift


def overrelaxed_weights_trace(L: ArrayLike, n_iter: int, omega: float) -> tuple[np.ndarray, np.ndarray]:
    r"""A deliberately wrong update (control): over-relaxed EM, $w_k \propto w_k\, g_k^{\omega}$, $g_k = \frac1n\sum_i L_{ik}/(Lw)_i$.

    ``omega = 1`` is EM; a large ``omega`` overshoots and loses the ascent property. Uniform start.
    Returns ``(w, loglik)`` like :func:`em_mixture_weights_trace`.
    """
    L = _check_likelihoods(L, 2)
    n_iter = check_int(n_iter, "n_iter", least=0)
    omega = check_positive(omega, "omega")
    n, K = L.shape
    w = np.full(K, 1.0 / K)
    trace = [float(np.log(L @ w).sum())]
    for _ in range(n_iter):
        g = L.T @ (1.0 / (L @ w)) / n
        w = w * g**omega
        w /= w.sum()
        trace.append(float(np.log(L @ w).sum()))
    return w, np.array(trace)


# ---------------------------------------------------------------------------------------------------------
# Maps: environments and the uninformative permanent prior
# ---------------------------------------------------------------------------------------------------------

def _threshold_top(fields: np.ndarray, density: np.ndarray) -> np.ndarray:
    """Binary maps holding the top ``density`` share of each field's cells."""
    M = fields.shape[0]
    flat = fields.reshape(M, -1)
    count = np.maximum(1, np.round(density * flat.shape[1]).astype(int))
    thr = -np.sort(-flat, axis=1)[np.arange(M), count - 1]
    return (flat >= thr[:, None]).reshape(fields.shape)


def make_target_maps(kind: str, n: int, size: int, seed: int) -> np.ndarray:
    """Synthetic binary target maps (1 = target), ``(n, size, size)`` booleans.

    ``"species"``: a species-distribution-like habitat map: white noise smoothed by an anisotropic Gaussian
    (length scales 1.5 and 4 cells, random axis), plus a smooth north-south gradient, thresholded to a
    density drawn in [0.08, 0.15]: a few elongated patches.
    ``"remote"``: a remote-sensing-like scene: 2 to 4 clusters ("airfields", "towns"), each of 3 to 7
    small rectangular objects (2x2 to 2x4 cells) scattered within 5 cells of the cluster centre.
    ``"prior"``: the uninformative permanent prior's generator (see :func:`sample_prior_particles`).
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}; got {kind!r}")
    n = check_int(n, "n", least=1)
    size = check_int(size, "size", least=8)
    rng = np.random.default_rng(check_int(seed, "seed", least=0))
    if kind == "species":
        noise = rng.standard_normal((n, size, size))
        long_axis = rng.integers(0, 2, n)
        fields = np.empty_like(noise)
        for s in (0, 1):
            sig = (0, 1.5, 4.0) if s == 0 else (0, 4.0, 1.5)
            idx = long_axis == s
            if idx.any():
                fields[idx] = gaussian_filter(noise[idx], sigma=sig, mode="wrap")
        fields /= fields.reshape(n, -1).std(axis=1)[:, None, None]
        slope = rng.uniform(-1.0, 1.0, n)
        fields += slope[:, None, None] * np.linspace(-1, 1, size)[None, :, None]
        return _threshold_top(fields, rng.uniform(0.08, 0.15, n))
    if kind == "prior":
        return _prior_maps(n, size, rng)
    maps = np.zeros((n, size, size), dtype=bool)
    for m in range(n):  # a few dozen objects per map: loop over objects is cheap
        for _ in range(rng.integers(2, 5)):
            cy, cx = rng.integers(4, size - 4, 2)
            for _ in range(rng.integers(3, 8)):
                h, wd = (2, rng.integers(2, 5)) if rng.random() < 0.5 else (rng.integers(2, 5), 2)
                y = int(np.clip(cy + rng.integers(-5, 6), 0, size - h))
                x = int(np.clip(cx + rng.integers(-5, 6), 0, size - wd))
                maps[m, y:y + h, x:x + wd] = True
    return maps


def _prior_maps(n: int, size: int, rng: np.random.Generator, length: float = 0.8,
                density: float = 0.3) -> np.ndarray:
    noise = rng.standard_normal((n, size, size))
    fields = gaussian_filter(noise, sigma=(0, length, length), mode="wrap")
    return _threshold_top(fields, np.full(n, density))


def sample_prior_particles(K: int, size: int, seed: int, length: float = 0.8, density: float = 0.3) -> np.ndarray:
    """The permanent memory: ``K`` maps from a generic, isotropic speckle generator, ``(K, size*size)`` booleans.

    White noise smoothed by an isotropic Gaussian of standard deviation ``length`` cells (periodic boundary),
    then the top ``density`` share of each map's cells. The defaults (``length`` 0.8, ``density`` 0.3) are the
    page's deliberately uninformative prior: speckle at the wrong scale and the wrong density for either
    environment, flat when averaged over particles. :func:`fit_speckle_scale` gives the speckle at the targets'
    own density and neighbour correlation (a generic prior at the right scale).
    """
    K = check_int(K, "K", least=1)
    size = check_int(size, "size", least=8)
    length = check_positive(length, "length")
    density = check_positive(density, "density")
    if density >= 1:
        raise ValueError(f"density must be in (0, 1); got {density}")
    rng = np.random.default_rng(check_int(seed, "seed", least=0))
    return _prior_maps(K, size, rng, length, density).reshape(K, -1)


def neighbour_agreement(maps: ArrayLike) -> float:
    r"""Share of target cells whose right (or lower) neighbour is a target too, periodic boundary.

    $\Pr(x_{j'}=1 \mid x_j=1)$ over horizontally and vertically adjacent pairs $(j, j')$, pooled over the maps:
    a one-number summary of the targets' spatial scale (1 for large blobs, the density itself for white noise).

    Parameters
    ----------
    maps : bool array (n, size, size) or (n, size*size) with a square number of cells.
    """
    m = np.asarray(maps, dtype=bool)
    if m.ndim == 2:
        size = int(round(np.sqrt(m.shape[1])))
        if size * size != m.shape[1]:
            raise ValueError(f"maps of {m.shape[1]} cells are not square grids")
        m = m.reshape(m.shape[0], size, size)
    if m.ndim != 3 or m.shape[1] != m.shape[2]:
        raise ValueError(f"maps must be (n, size, size) or (n, size*size); got shape {m.shape}")
    n_t = int(m.sum())
    if n_t == 0:
        raise ValueError("maps hold no target cell")
    pairs = (m & np.roll(m, 1, axis=2)).sum() + (m & np.roll(m, 1, axis=1)).sum()
    return float(pairs / (2 * n_t))


def fit_speckle_scale(maps: ArrayLike, lengths: ArrayLike = np.round(np.arange(0.5, 4.01, 0.1), 1),
                      n: int = 32, seed: int = 0) -> tuple[float, float]:
    """A generic prior at the targets' scale: the speckle (:func:`sample_prior_particles`) fitted by two moments.

    The density is the maps' mean density; the length is the value of ``lengths`` whose speckle (``n`` maps at
    that density, seeded) has the :func:`neighbour_agreement` closest to the maps'. It knows the targets' density
    and grain, not their shape (elongation, clusters): the prior a skeptic would give a prior-dependent searcher
    that had summary statistics of the task but no model of it.

    Returns ``(length, density)``.
    """
    m = np.asarray(maps, dtype=bool)
    if m.ndim != 3 or m.shape[1] != m.shape[2]:
        raise ValueError(f"maps must be (n, size, size); got shape {m.shape}")
    lengths = finite_array(lengths, "lengths", ndim=1)
    if lengths.size < 1 or np.any(lengths <= 0):
        raise ValueError("lengths must be a non-empty array of positive numbers")
    n = check_int(n, "n", least=1)
    density = float(m.mean())
    if not 0 < density < 1:
        raise ValueError(f"maps must hold targets and empty cells; density {density}")
    target = neighbour_agreement(m)
    size = m.shape[1]
    score = [abs(neighbour_agreement(sample_prior_particles(n, size, seed, float(h), density)) - target)
             for h in lengths]
    return float(lengths[int(np.argmin(score))]), density


# ---------------------------------------------------------------------------------------------------------
# Transient memory, posterior and acquisition
# ---------------------------------------------------------------------------------------------------------

def gaussian_kernel_matrix(size: int, bandwidth: float) -> np.ndarray:
    r"""Gaussian kernel between the cells of a ``size x size`` grid, $G_{ij} = \exp(-\|c_i-c_j\|^2/2h^2)$, ``(N, N)``."""
    size = check_int(size, "size", least=1)
    h = check_positive(bandwidth, "bandwidth")
    yy, xx = np.divmod(np.arange(size * size), size)
    d2 = (yy[:, None] - yy[None, :]) ** 2 + (xx[:, None] - xx[None, :]) ** 2
    return np.exp(-d2 / (2 * h * h))


def transient_components(S_pos: np.ndarray, S_all: np.ndarray, prior_mean: float | np.ndarray = 0.5,
                         pseudo: float = 1.0) -> np.ndarray:
    r"""Kernel-smoothed target probability maps built from the observations (the transient memory).

    $p(j) = (S^{+}_j + a\,p_0)/(S_j + a)$ with $S^{+}_j=\sum_{i\,\mathrm{obs}} G_{ji} y_i$,
    $S_j=\sum_{i\,\mathrm{obs}} G_{ji}$ (Nadaraya-Watson with a Beta pseudo-count $a$ around $p_0$).

    Parameters
    ----------
    S_pos, S_all : arrays (..., N)
        Kernel sums of the observed labels and of the observed cells (one row per bandwidth and map).
        For the likelihood at an observed cell pass the leave-one-out sums (its own term removed).
    prior_mean : float or array broadcasting to ``S_pos``
        $p_0$, the value far from every observation (the runs use the observed global target rate).
    pseudo : float
        $a$, the pseudo-count (in units of one observation at distance 0).
    """
    return (S_pos + pseudo * prior_mean) / (S_all + pseudo)


def bernoulli_likelihood(p: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Likelihood of binary observations ``y`` under target probabilities ``p`` (broadcast): ``p^y (1-p)^(1-y)``."""
    return np.where(y, p, 1.0 - p)


def exploration_weight(b: int, budget: int) -> float:
    r"""The official annealing of exploration, $\alpha_1 = \max(0, (B-b)/(B+b))$ for query $b$ of $B$ (1-based)."""
    b = check_int(b, "b", least=0)
    budget = check_int(budget, "budget", least=1)
    return max(0.0, (budget - b) / (budget + b))


def binary_entropy(p: np.ndarray) -> np.ndarray:
    """Entropy in bits of Bernoulli(p), elementwise (0 at p = 0 or 1)."""
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return -(p * np.log2(p) + (1 - p) * np.log2(1 - p))


def acquisition_scores(p_hat: np.ndarray, alpha1: float) -> np.ndarray:
    r"""Query score $\alpha_1 H(\hat p) + (1-\alpha_1)\hat p$: exploration of uncertain cells, then exploitation."""
    return alpha1 * binary_entropy(p_hat) + (1.0 - alpha1) * p_hat


def select_query(scores: ArrayLike, observed: ArrayLike) -> np.ndarray:
    """Index of the best unobserved cell of each row (first one on ties), ``(M,)`` ints.

    ``scores`` and ``observed`` are ``(M, N)``; a row with every cell observed is an error.
    """
    s = np.asarray(scores, dtype=float)
    obs = np.asarray(observed, dtype=bool)
    if s.ndim != 2 or s.shape != obs.shape:
        raise ValueError(f"scores and observed must be 2-D arrays of one shape; got {s.shape} and {obs.shape}")
    if np.any(obs.all(axis=1)):
        raise ValueError("a row has no unobserved cell left")
    return np.argmax(np.where(obs, -np.inf, s), axis=1)


def official_cell_scores(n_pos: ArrayLike, n_samples: int, b: int, budget: int, sigma: float = 1.0,
                         reward: tuple[float, float] = (0.1, 0.9), delta: float = 4.0) -> np.ndarray:
    r"""The official block score (:func:`official_block_scores`) in closed form, for binary samples and 1-cell blocks.

    With ``S = n_samples`` posterior samples whose value at a cell is one of two levels (target / empty,
    squared difference ``delta`` between them: 4 for images in [-1, 1] with one channel), the pairwise sums of
    ``select_block_entropy`` depend only on ``n_pos``, the number of samples with a target at the cell. A sample
    that agrees with $a$ of the $S$ samples (itself included) has exploration $E = a + (S-a)e^{\delta/2\sigma^2}$
    and likelihood $C = a + (S-a)e^{-\delta/2\sigma^2}$; the score is
    $$n\log(\alpha_1E_1+\alpha_2r_1C_1)+(S-n)\log(\alpha_1E_0+\alpha_2r_0C_0),$$
    with $n$ = ``n_pos``, $(E_1, C_1)$ at $a = n$, $(E_0, C_0)$ at $a = S - n$, and $r_0, r_1$ = ``reward``:
    the target classifier's probability for a sample whose cell is empty / a target. $\alpha_1$ is
    :func:`exploration_weight`; $\alpha_2 = 1 - \alpha_1$. Observed cells are *not* masked here (see
    :func:`select_query`).

    Parameters
    ----------
    n_pos : int array (...,), values in 0..S
    n_samples : int, S (the official batch of posterior samples is 16)
    b, budget : query index (1-based) and budget, as in :func:`exploration_weight`
    sigma : the official ``sigma`` (``ActiveSampler``'s default 1; the inference script passes no other)
    reward : (r0, r1), each in (0, 1]
    delta : squared difference between the two levels of a sample
    """
    S = check_int(n_samples, "n_samples", least=1)
    n = np.asarray(n_pos, dtype=float)
    if np.any(n < 0) or np.any(n > S) or np.any(n != np.round(n)):
        raise ValueError(f"n_pos must hold integers in 0..{S}")
    sigma = check_positive(sigma, "sigma")
    delta = check_positive(delta, "delta")
    r0, r1 = (check_positive(r, "reward") for r in reward)
    a1 = exploration_weight(b, budget)
    up, down = np.exp(delta / (2 * sigma**2)), np.exp(-delta / (2 * sigma**2))
    m = S - n
    t1 = np.log(a1 * (n + m * up) + (1 - a1) * r1 * (n + m * down))
    t0 = np.log(a1 * (m + n * up) + (1 - a1) * r0 * (m + n * down))
    return n * t1 + m * t0


def run_discovery(method: str, targets: np.ndarray, particles: np.ndarray, budget: int, rng: np.random.Generator,
                  eps: float = 0.1, bandwidths: tuple[float, ...] = (1.0, 2.0, 4.0), em_iter: int = 10,
                  kernels: dict | None = None, first: np.ndarray | None = None, query_rule: str = "ours",
                  n_samples: int = 16, sigma: float = 1.0, greedy_bandwidth: float = 1.0,
                  track_map_loglik: bool = False) -> dict:
    r"""Run one search policy on a batch of maps; returns the cumulative number of targets found.

    Methods (the posterior-based ones query by ``query_rule``; the first query is ``first`` or random):

    - ``"random"``: uniform over unobserved cells;
    - ``"static-prior"``: $\hat p$ = the permanent prior's mean, never updated;
    - ``"bayes-prior"``: prior-dependent, DiffATD-like: Bayesian posterior over the permanent particles,
      $w_k \propto \prod_i L_{ik}$ (the particles are the only hypotheses);
    - ``"em-permanent"``: EM mixture weights over the permanent particles only (ablation: no transient memory);
    - ``"em-ptdm"``: EM mixture weights over permanent particles and transient components
      (kernel smoothers of the observations at ``bandwidths``, plus the global rate);
    - ``"em-transient"``: EM mixture weights over the transient components only (ablation: no permanent memory;
      ``particles`` is ignored beyond its shape), i.e. ``"em-ptdm"`` with ``K = 0`` particles;
    - ``"kernel-greedy"``: naive baseline, classical one-step greedy active search: the unobserved cell of
      largest $\hat p$, with $\hat p$ the kernel smoother of the observations at ``greedy_bandwidth`` shrunk to the
      observed rate (:func:`transient_components`); no prior, no EM, no exploration term, whatever ``query_rule``.

    Query rules of the posterior-based methods: ``"ours"``, $\arg\max$ of :func:`acquisition_scores` of
    $\hat p$ with the official annealing; ``"official"``, $\arg\max$ of :func:`official_cell_scores` on
    ``n_samples`` posterior samples, each cell of each sample drawn Bernoulli($\hat p$) (only the count of
    target samples per cell enters the score, drawn as Binomial(``n_samples``, $\hat p$)), rewards
    $(\varepsilon, 1-\varepsilon)$ and the official ``sigma``.

    Parameters
    ----------
    targets : bool array (M, N)
    particles : bool array (K, N)
    budget : int, queries per map; rng: for the random policy, the official rule's samples and the first query
        (if ``first`` is None).
    eps : flip noise of the permanent particles (and the official rule's classifier).
    em_iter : EM iterations per query, warm-started from the previous weights (uniform at the first).
    kernels : optional precomputed ``{bandwidth: G}`` (see :func:`gaussian_kernel_matrix`).
    first : optional (M,) first query per map (shared across methods for a paired comparison).
    query_rule : ``"ours"`` or ``"official"``; n_samples, sigma: the official rule's.
    greedy_bandwidth : the kernel-greedy baseline's bandwidth (cells).
    track_map_loglik : also return ``map_loglik`` (M, budget - 1): :func:`map_log_likelihood` of each whole true
        map under the estimate $\hat p$ after each of the first ``budget - 1`` observations (column ``t - 1``:
        after ``t`` observations; the estimate the next query is chosen with).

    Returns
    -------
    dict with ``found`` (M, budget + 1) cumulative targets found after 0..budget queries,
    ``queries`` (M, budget), and for EM methods ``min_step`` (the smallest change of the EM log-likelihood
    between consecutive iterations over every EM run, >= 0 up to rounding by the ascent property),
    ``weights`` (M, components) at the end, and ``transient_mass`` (M, budget): the total weight of the
    transient components after the EM of each query (0 for ``em-permanent``, 1 for ``em-transient``; NaN where no
    EM ran), and ``map_loglik`` if ``track_map_loglik``.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}; got {method!r}")
    if query_rule not in QUERY_RULES:
        raise ValueError(f"query_rule must be one of {QUERY_RULES}; got {query_rule!r}")
    T = np.asarray(targets, dtype=bool)
    Pt = np.asarray(particles, dtype=bool)
    if T.ndim != 2 or Pt.ndim != 2 or T.shape[1] != Pt.shape[1]:
        raise ValueError(f"targets (M, N) and particles (K, N) must share N; got {T.shape}, {Pt.shape}")
    M, N = T.shape
    budget = check_int(budget, "budget", least=1)
    if budget > N:
        raise ValueError(f"budget {budget} exceeds the {N} cells")
    eps = check_positive(eps, "eps")
    if eps >= 0.5:
        raise ValueError(f"eps must be in (0, 0.5); got {eps}")
    n_samples = check_int(n_samples, "n_samples", least=1)
    sigma = check_positive(sigma, "sigma")
    greedy_bandwidth = check_positive(greedy_bandwidth, "greedy_bandwidth")
    size = int(round(np.sqrt(N)))
    if size * size != N:
        raise ValueError(f"N = {N} is not a square grid")
    P = eps + (1 - 2 * eps) * Pt.astype(float)  # (K, N) Bernoulli maps of the permanent memory
    if method == "em-transient":
        P = P[:0]  # no permanent memory
    K = P.shape[0]
    em_trans = method in ("em-ptdm", "em-transient")
    use_trans = em_trans or method == "kernel-greedy"
    if use_trans:
        bws = (greedy_bandwidth,) if method == "kernel-greedy" else tuple(bandwidths)
        if kernels is None or any(h not in kernels for h in bws):
            kernels = {h: gaussian_kernel_matrix(size, h) for h in bws}
        G = np.stack([kernels[h] for h in bws])  # (nb, N, N), symmetric, unit diagonal
        nb = len(bws)
        S_pos = np.zeros((M, nb, N))
        S_all = np.zeros((M, nb, N))
    n_comp = K + (len(bandwidths) + 1 if em_trans else 0)
    observed = np.zeros((M, N), dtype=bool)
    queries = np.zeros((M, budget), dtype=int)
    found = np.zeros((M, budget + 1))
    w = np.full((M, n_comp), 1.0 / n_comp)
    L_all = np.ones((M, budget, n_comp))  # component likelihoods of the observations so far
    logpost = np.zeros((M, K))
    min_step = np.inf
    transient_mass = np.full((M, budget), np.nan)
    rows = np.arange(M)
    p_hat = np.broadcast_to(P.mean(axis=0) if K else np.full(N, 0.5), (M, N))
    map_loglik = np.full((M, budget - 1), np.nan) if track_map_loglik else None
    for b in range(budget):
        if map_loglik is not None and b > 0:
            map_loglik[:, b - 1] = _map_loglik(p_hat, T)
        if b == 0 and first is not None:
            q = np.asarray(first, dtype=int)
        elif b == 0 or method == "random":
            scores = rng.random((M, N))
            q = select_query(scores, observed)
        elif method == "kernel-greedy":
            q = select_query(p_hat, observed)
        elif query_rule == "official":
            n_pos = rng.binomial(n_samples, np.clip(p_hat, 0.0, 1.0))
            q = select_query(official_cell_scores(n_pos, n_samples, b + 1, budget, sigma, (eps, 1 - eps)), observed)
        else:
            q = select_query(acquisition_scores(p_hat, exploration_weight(b + 1, budget)), observed)
        queries[:, b] = q
        y = T[rows, q]
        observed[rows, q] = True
        found[:, b + 1] = found[:, b] + y
        if method in ("random", "static-prior") or b == budget - 1:
            continue
        obs_idx = queries[:, : b + 1]  # (M, t)
        y_obs = T[rows[:, None], obs_idx]  # (M, t)
        if method == "bayes-prior":
            logpost += np.log(np.where(y[:, None], P[:, q].T, 1 - P[:, q].T))
            wp = np.exp(logpost - logpost.max(axis=1, keepdims=True))
            wp /= wp.sum(axis=1, keepdims=True)
            p_hat = wp @ P
            continue
        if use_trans:
            Gq = G[:, q, :]  # (nb, M, N): kernel rows of the new query
            S_all += np.moveaxis(Gq, 0, 1)
            S_pos += np.moveaxis(Gq, 0, 1) * y[:, None, None]
        if method == "kernel-greedy":
            rate = (y_obs.sum(axis=1) + 0.5) / (b + 2)
            p_hat = transient_components(S_pos[:, 0], S_all[:, 0], rate[:, None])
            continue
        L_all[:, b, :K] = bernoulli_likelihood(P[:, q].T, y[:, None])  # permanent: fixed once observed
        if use_trans:
            # leave-one-out sums at the observed cells (unit diagonal: remove own term)
            so_all = np.take_along_axis(S_all, obs_idx[:, None, :].repeat(nb, 1), axis=2) - 1.0
            so_pos = np.take_along_axis(S_pos, obs_idx[:, None, :].repeat(nb, 1), axis=2) - y_obs[:, None, :]
            n_pos = y_obs.sum(axis=1, keepdims=True)
            rate_loo = (n_pos - y_obs + 0.5) / (b + 1)  # global rate, leave-one-out, Beta(0.5, 0.5)
            pt_obs = transient_components(so_pos, so_all, rate_loo[:, None, :])  # (M, nb, t), shrunk to the rate
            pt_obs = np.concatenate([pt_obs, rate_loo[:, None, :]], axis=1)
            L_all[:, : b + 1, K:] = bernoulli_likelihood(np.moveaxis(pt_obs, 1, 2), y_obs[..., None])
        L = L_all[:, : b + 1]  # (M, t, components)
        w, trace = em_weights_batch(L, w, em_iter)
        min_step = min(min_step, float(np.diff(trace, axis=1).min()) if em_iter > 0 else np.inf)
        p_hat = w[:, :K] @ P
        transient_mass[:, b] = w[:, K:].sum(axis=1)
        if use_trans:
            rate = (y_obs.sum(axis=1) + 0.5) / (b + 2)
            pt_all = transient_components(S_pos, S_all, rate[:, None, None])  # (M, nb, N)
            p_hat = p_hat + np.einsum("mc,mcn->mn", w[:, K:K + nb], pt_all) + w[:, -1:] * rate[:, None]
    out = {"found": found, "queries": queries, "weights": w}
    if method.startswith("em"):
        out["min_step"] = min_step
        out["transient_mass"] = transient_mass
    if map_loglik is not None:
        out["map_loglik"] = map_loglik
    return out


def _map_loglik(p: np.ndarray, x: np.ndarray, clip: float = 1e-6) -> np.ndarray:
    p = np.clip(p, clip, 1.0 - clip)
    return np.where(x, np.log(p), np.log1p(-p)).mean(axis=-1)


def map_log_likelihood(p: ArrayLike, x: ArrayLike, clip: float = 1e-6) -> np.ndarray:
    r"""Per-cell log-likelihood of whole binary maps under a map estimate, $\frac1N\sum_j \log \hat p_j^{x_j}
    (1-\hat p_j)^{1-x_j}$, one value per row (``(...,)``).

    The accuracy of an estimate of the map, observed and unobserved cells alike: the across-observation reading
    of the abstract's "monotonic improvement in prior estimates with each new observation" asks that it never
    fall from one observation to the next.

    Parameters
    ----------
    p : array (..., N)
        Target probabilities, clipped to ``[clip, 1 - clip]`` (a cell estimated at exactly 0 or 1 would give
        $-\infty$).
    x : bool array (..., N), broadcasting with ``p``
        The true maps.
    clip : float in (0, 0.5)
    """
    p = finite_array(p, "p")
    x = np.asarray(x)
    if not np.all((x == 0) | (x == 1)):
        raise ValueError("x must be binary (0/1 or bool)")
    if np.any(p < 0) or np.any(p > 1):
        raise ValueError("p holds probabilities in [0, 1]")
    clip = check_positive(clip, "clip")
    if clip >= 0.5:
        raise ValueError(f"clip must be in (0, 0.5); got {clip}")
    p, x = np.broadcast_arrays(p, x.astype(bool))
    return _map_loglik(p, x, clip)


# ---------------------------------------------------------------------------------------------------------
# The official block score (ActiveSampler.select_block_entropy), for the golden test
# ---------------------------------------------------------------------------------------------------------

def official_block_scores(particles: ArrayLike, block_reward: ArrayLike, b: int, budget: int, sigma: float,
                          block_size: int, block_mask: ArrayLike) -> tuple[np.ndarray, tuple[int, int]]:
    r"""The block score of the official code's ``select_block_entropy``, re-derived (DiffATD-style).

    For posterior particles $x^{(1..P)}$ (images ``(P, H, W, C)``) and per-particle block rewards $r_j$
    (``(P, H/s, W/s)``, the target classifier's probability), with $d^2_{ij}$ the squared difference of
    particles $i$, $j$ summed over channels at each pixel:

    - exploration $E_j = \operatorname{blockmean}\sum_i e^{+d^2_{ij}/2\sigma^2}$,
      likelihood $C_j = \operatorname{blockmean}\sum_i e^{-d^2_{ij}/2\sigma^2}$;
    - score $S = \sum_j \log(\alpha_1 E_j + \alpha_2 r_j C_j)$, $\alpha_1 = \max(0,(B-b)/(B+b))$;
    - observed blocks get score 0 (multiplied by ``1 - mask``, as the official code does), and the query
      is the first argmax in row-major order.

    Returns ``(scores (H/s, W/s), (row, col))``.
    """
    X = finite_array(particles, "particles", ndim=4)
    R = finite_array(block_reward, "block_reward", ndim=3)
    s = check_int(block_size, "block_size", least=1)
    sigma = check_positive(sigma, "sigma")
    Pn, H, W, _ = X.shape
    if H % s or W % s:
        raise ValueError(f"image {H}x{W} is not divisible into blocks of {s}")
    if R.shape != (Pn, H // s, W // s):
        raise ValueError(f"block_reward must have shape {(Pn, H // s, W // s)}; got {R.shape}")
    mask = np.asarray(block_mask, dtype=float)
    if mask.shape != (H // s, W // s):
        raise ValueError(f"block_mask must have shape {(H // s, W // s)}; got {mask.shape}")
    d2 = ((X[:, None] - X[None, :]) ** 2).sum(axis=-1)  # (P, P, H, W), symmetric
    E = np.exp(d2 / (2 * sigma**2)).sum(axis=1)
    C = np.exp(-d2 / (2 * sigma**2)).sum(axis=1)

    def blockmean(A: np.ndarray) -> np.ndarray:
        return A.reshape(Pn, H // s, s, W // s, s).mean(axis=(2, 4))

    a1 = exploration_weight(b, budget)
    S = np.log(a1 * blockmean(E) + (1 - a1) * R * blockmean(C)).sum(axis=0) * (1 - mask)
    idx = np.unravel_index(int(np.argmax(S)), S.shape)
    return S, (int(idx[0]), int(idx[1]))


def em_ptdm_estimate(particles: ArrayLike, queries: ArrayLike, y: ArrayLike, w: ArrayLike, eps: float = 0.1,
                     bandwidths: tuple[float, ...] = (1.0, 2.0, 4.0)) -> np.ndarray:
    r"""EM-PTDM's map estimate $\hat p = \sum_k w_k p_k$ from its weights and observations, ``(N,)``.

    The same mixture :func:`run_discovery` queries with after the EM of its ``t``-th observation: the ``K``
    permanent particles with flip noise ``eps``, the kernel smoothers of the observations at ``bandwidths`` (all
    observations, shrunk to the observed rate $(\sum_i y_i + 1/2)/(t + 1)$ with one pseudo-count), and that rate.

    Parameters
    ----------
    particles : bool (K, N); queries : int (t,), distinct observed cells; y : bool (t,), their labels;
    w : (K + len(bandwidths) + 1,) mixture weights on the simplex, in the order of :func:`component_likelihoods`.
    """
    Pt = np.asarray(particles, dtype=bool)
    q = np.asarray(queries, dtype=int)
    yy = np.asarray(y, dtype=bool)
    w = finite_array(w, "w", ndim=1)
    if Pt.ndim != 2 or q.ndim != 1 or q.size < 1 or yy.shape != q.shape:
        raise ValueError("particles (K, N), queries (t >= 1,) and y (t,) are required")
    K, N = Pt.shape
    size = int(round(np.sqrt(N)))
    if size * size != N:
        raise ValueError(f"N = {N} is not a square grid")
    if len(np.unique(q)) != q.size or q.min() < 0 or q.max() >= N:
        raise ValueError("queries must be distinct cells of the grid")
    if w.shape[0] != K + len(bandwidths) + 1:
        raise ValueError(f"w must have K + {len(bandwidths)} + 1 = {K + len(bandwidths) + 1} entries; got {w.shape[0]}")
    rate = (yy.sum() + 0.5) / (q.size + 1)
    cy, cx = np.divmod(np.arange(N), size)
    d2 = (cy[:, None] - cy[q][None, :]) ** 2 + (cx[:, None] - cx[q][None, :]) ** 2  # (N, t)
    p_hat = w[:K] @ (eps + (1 - 2 * eps) * Pt.astype(float))
    for c, h in enumerate(bandwidths):
        G = np.exp(-d2 / (2 * h * h))
        p_hat = p_hat + w[K + c] * transient_components(G @ yy, G.sum(axis=1), rate)
    return p_hat + w[-1] * rate


def component_likelihoods(targets: ArrayLike, particles: ArrayLike, queries: ArrayLike, eps: float = 0.1,
                          bandwidths: tuple[float, ...] = (1.0, 2.0, 4.0)) -> np.ndarray:
    r"""EM-PTDM's component likelihoods $L_{ik}$ of the observations of one map, from scratch, ``(t, K + nb + 1)``.

    Columns: the ``K`` permanent particles (flip noise ``eps``), the kernel smoothers at ``bandwidths``
    (leave-one-out, shrunk to the leave-one-out global rate with one pseudo-count), and the global rate
    (leave-one-out, Beta(0.5, 0.5)), exactly as :func:`run_discovery` builds them after ``t`` queries.

    Parameters
    ----------
    targets : bool (N,); particles : bool (K, N); queries : int (t,), distinct observed cells in order.
    """
    T = np.asarray(targets, dtype=bool)
    Pt = np.asarray(particles, dtype=bool)
    q = np.asarray(queries, dtype=int)
    if T.ndim != 1 or Pt.ndim != 2 or Pt.shape[1] != T.shape[0] or q.ndim != 1 or q.size < 1:
        raise ValueError("targets (N,), particles (K, N) and queries (t >= 1,) are required")
    if len(np.unique(q)) != q.size or q.min() < 0 or q.max() >= T.size:
        raise ValueError("queries must be distinct cells of the grid")
    size = int(round(np.sqrt(T.size)))
    y = T[q]
    P = eps + (1 - 2 * eps) * Pt[:, q].astype(float)  # (K, t)
    cols = [bernoulli_likelihood(P.T, y[:, None])]
    rate_loo = (y.sum() - y + 0.5) / q.size
    yy, xx = np.divmod(q, size)
    d2 = (yy[:, None] - yy[None, :]) ** 2 + (xx[:, None] - xx[None, :]) ** 2
    for h in bandwidths:
        G = np.exp(-d2 / (2 * h * h))
        np.fill_diagonal(G, 0.0)
        p = transient_components(G @ y, G.sum(axis=1), rate_loo)
        cols.append(bernoulli_likelihood(p, y)[:, None])
    cols.append(bernoulli_likelihood(rate_loo, y)[:, None])
    return np.concatenate(cols, axis=1)
