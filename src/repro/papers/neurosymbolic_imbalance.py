r"""Learning imbalances in neurosymbolic learning: weak labels from a symbolic function, the hidden-label
marginal recovered from them, and that marginal imposed at training and at test time.

Paper map
---------
*Imbalances in Neurosymbolic Learning: Characterization and Mitigating Strategies*, Kaifu Wang, Efthymia
Tsamoura, Dan Roth, NeurIPS 2025, https://arxiv.org/abs/2407.10000. No official code was found (the
supplementary archive on OpenReview only); the formulas below are our reading of the abstract and of
secondary summaries, **our design** where the paper's exact form is unknown.
Notebook: ``notebooks/neurosymbolic-imbalance.py``.

Notation (paper -> here):

- instances :math:`\mathbf x = (x_1, x_2)` with hidden gold labels :math:`y_1, y_2 \in \{0..K-1\}`
  -> index arrays into a pool of images (:func:`sample_weak_tuples`, :func:`sample_weak_pairs`); tuples of
  :math:`M` elements (``max``, as in the paper's MAX-M) or pairs (``sum``, ``first``);
- the symbolic component :math:`\sigma` and the weak label :math:`s = \sigma(y_1, y_2)` -> ``sigma`` in
  ``("sum", "max", "first")`` and ``s``; the table :math:`[\sigma(a, b) = s]` -> :func:`constraint_matrix`
  (``"first"`` reveals :math:`y_1`: the supervised control);
- the hidden-label marginal :math:`r_k = P(y = k)` -> ``marginal``; its estimate :math:`\hat r` from the
  distribution of :math:`s` -> :func:`sum_marginal_from_pair_sums` (:math:`P(s) = (r * r)(s)`, a
  self-convolution) and :func:`max_marginal_from_pair_max` (:math:`P(s \le k) = F(k)^2`);
- the NeSy (semantic) loss :math:`-\log \sum_{\sigma(a,b)=s} p(a|x_1) p(b|x_2)` -> :func:`nesy_nll`; the
  posterior of each hidden label given :math:`s` -> :func:`pair_posteriors`;
- test-time mitigation (CAROT-like, RSOT-based score adjustment): transport the test points (uniform mass)
  to the classes (mass :math:`\hat r`) with cost :math:`-\log p(y|x)` -> :func:`sinkhorn_plan`,
  :func:`marginal_constrained_labels`;
- training-time mitigation (LP pseudo-labelling): pseudo-labels whose class histogram is :math:`\hat r`, from
  the same transport with a small entropic regulariser (an approximation of the LP) -> :func:`train_linear`
  with ``pseudo="marginal"``;
- class-specific risk :math:`R_k = P(\hat y \ne k \mid y = k)` -> ``1 - ``:func:`per_class_accuracy`.
"""

from __future__ import annotations

import numpy as np
import scipy.optimize
import torch
from numpy.typing import ArrayLike

from repro.optim import Adam
from repro.validate import check_int, check_positive, finite_array

SIGMAS = ("sum", "max", "first")


# --------------------------------------------------------------------------- symbolic component


def n_symbols(sigma: str, n_classes: int) -> int:
    """Number of values the weak label :math:`s = \\sigma(a, b)` can take for labels in ``0..n_classes-1``."""
    n_classes = check_int(n_classes, "n_classes", least=1)
    if sigma not in SIGMAS:
        raise ValueError(f"sigma must be one of {SIGMAS}; got {sigma!r}")
    return 2 * n_classes - 1 if sigma == "sum" else n_classes


def apply_sigma(sigma: str, a: ArrayLike, b: ArrayLike) -> np.ndarray:
    """The symbolic component applied element-wise to two label arrays: ``a + b``, ``max(a, b)`` or ``a``."""
    if sigma not in SIGMAS:
        raise ValueError(f"sigma must be one of {SIGMAS}; got {sigma!r}")
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        raise ValueError(f"label arrays must have the same shape; got {a.shape} and {b.shape}")
    return {"sum": a + b, "max": np.maximum(a, b), "first": a + 0 * b}[sigma]


def constraint_matrix(sigma: str, n_classes: int) -> np.ndarray:
    """The table :math:`M[aK + b, s] = [\\sigma(a, b) = s]`.

    Returns
    -------
    ndarray of bool, shape (K*K, S)
        ``S = n_symbols(sigma, K)``; every row has exactly one True.
    """
    S = n_symbols(sigma, n_classes)
    a, b = np.divmod(np.arange(n_classes * n_classes), n_classes)
    return apply_sigma(sigma, a, b)[:, None] == np.arange(S)[None, :]


def symbol_distribution(marginal: ArrayLike, sigma: str) -> np.ndarray:
    """:math:`P(s) = \\sum_{\\sigma(a,b)=s} r_a r_b` for two independent labels with marginal ``r``.

    For ``sum`` this is the self-convolution ``np.convolve(r, r)``.
    """
    r = _check_simplex(marginal, "marginal")
    M = constraint_matrix(sigma, len(r))
    return np.outer(r, r).ravel() @ M


# --------------------------------------------------------------------------- marginal estimation


def _check_simplex(p: ArrayLike, name: str, atol: float = 1e-6) -> np.ndarray:
    v = finite_array(p, name, ndim=1)
    if len(v) == 0:
        raise ValueError(f"{name} must not be empty")
    if (v < -atol).any():
        raise ValueError(f"{name} must be non-negative; min is {v.min():.3g}")
    if abs(v.sum() - 1.0) > atol:
        raise ValueError(f"{name} must sum to 1 (a probability vector); sums to {v.sum():.6g}")
    return np.clip(v, 0.0, None)


def _series_sqrt(s: np.ndarray) -> np.ndarray:
    """Coefficients p of the polynomial square root P(z) = sqrt(S(z)), branch with leading coefficient > 0.

    S has degree 2K-2; P has degree K-1. Let 2m be the index of S's first nonzero coefficient: then
    p_0..p_{m-1} = 0, p_m = +sqrt(s_{2m}) and p_{m+j} = (s_{2m+j} - sum_{i=1}^{j-1} p_{m+i} p_{m+j-i}) / (2 p_m).
    """
    K = (len(s) + 1) // 2
    p = np.zeros(K)
    nz = np.flatnonzero(s > 0)
    first = int(nz[0])
    if first % 2:  # the lowest nonzero power of a square is even
        return np.full(K, np.nan)
    m = first // 2
    p[m] = np.sqrt(s[first])
    for j in range(1, K - m):
        acc = s[first + j] - sum(p[m + i] * p[m + j - i] for i in range(1, j))
        p[m + j] = acc / (2.0 * p[m])
    return p


def _simplex_least_squares(target: np.ndarray, model, starts: list[np.ndarray]) -> np.ndarray:
    """min ||model(p) - target||^2 over the simplex (SLSQP from several starts); the best end point."""
    K = len(starts[0])
    best, best_f = None, np.inf
    for x0 in starts:
        res = scipy.optimize.minimize(
            lambda p: float(np.sum((model(p) - target) ** 2)), x0, method="SLSQP",
            bounds=[(0.0, 1.0)] * K, constraints=[{"type": "eq", "fun": lambda p: p.sum() - 1.0}],
            options={"ftol": 1e-14, "maxiter": 500})
        x = np.clip(res.x, 0.0, None)
        x = x / x.sum()
        f = float(np.sum((model(x) - target) ** 2))
        if f < best_f:
            best, best_f = x, f
    return best


def _to_simplex(p: np.ndarray) -> np.ndarray | None:
    if not np.isfinite(p).all():
        return None
    q = np.clip(p, 0.0, None)
    return q / q.sum() if q.sum() > 0 else None


def sum_marginal_from_pair_sums(p_sum: ArrayLike) -> np.ndarray:
    """The marginal ``p`` of one digit, recovered from the distribution of the sum of two independent digits.

    If :math:`y_1, y_2` are independent with marginal :math:`p` on :math:`\\{0..K-1\\}`, the sum has the
    distribution :math:`p * p` (self-convolution, length :math:`2K-1`): with generating functions,
    :math:`S(z) = P(z)^2`. Hence :math:`P = \\pm\\sqrt{S}` and nothing else (polynomials form an integral
    domain: :math:`P^2 = Q^2 \\Rightarrow (P-Q)(P+Q) = 0`). **Branch:** we take the root whose leading
    (lowest-order nonzero) coefficient is positive, equivalently :math:`P(1) = +\\sqrt{S(1)} = +1`; the other
    root, :math:`-p`, is not a probability vector. So the marginal is identified, and this function
    computes it in two steps:

    1. the exact power-series square root (recursion in ``_series_sqrt``), returned when it is a
       probability vector whose self-convolution reproduces ``p_sum`` to 1e-9 (noise-free input);
    2. otherwise (an empirical ``p_sum`` is in general not an exact square, and the recursion divides by
       :math:`2p_m`, amplifying noise), the least-squares fit
       :math:`\\min_{p \\in \\Delta_K} \\|p * p - \\hat P_s\\|_2^2` (SLSQP from three starts: the uniform vector
       and the simplex projections of the square roots from the low and from the high end), the best end
       point returned.

    Parameters
    ----------
    p_sum : array_like, shape (2K-1,)
        Probabilities of the sums 0..2K-2 (non-negative, summing to 1 within 1e-6); ``K >= 1``.

    Returns
    -------
    ndarray, shape (K,)
        The marginal: non-negative, sums to 1.

    Raises
    ------
    ValueError
        Not a finite 1-d probability vector, or of even length (a sum of two digits in 0..K-1 takes 2K-1
        values).
    """
    s = _check_simplex(p_sum, "p_sum")
    if len(s) % 2 == 0:
        raise ValueError(f"p_sum must have odd length 2K-1 (sums 0..2K-2); got length {len(s)}")
    s = s / s.sum()
    K = (len(s) + 1) // 2
    lo = _series_sqrt(s)
    hi = _series_sqrt(s[::-1])[::-1]
    for cand in (lo, hi):
        if np.isfinite(cand).all() and (cand >= -1e-12).all() and np.allclose(np.convolve(cand, cand), s,
                                                                               atol=1e-9, rtol=0):
            c = np.clip(cand, 0.0, None)
            return c / c.sum()
    starts = [np.full(K, 1.0 / K)] + [c for c in (_to_simplex(lo), _to_simplex(hi)) if c is not None]
    return _simplex_least_squares(s, lambda p: np.convolve(p, p), starts)


def max_marginal_from_tuple_max(p_max: ArrayLike, m: int = 2) -> np.ndarray:
    r"""The marginal from the distribution of :math:`\max(y_1, \dots, y_M)`: :math:`P(\max \le k) = F(k)^M`.

    So :math:`F(k) = P(\max \le k)^{1/M}` (the non-negative root: :math:`F` is a CDF) and
    :math:`p_k = F(k) - F(k-1)`. The cumulative sums of an empirical input are non-decreasing, so the root is
    too and the result is a probability vector without any projection.

    Parameters
    ----------
    p_max : array_like, shape (K,)
        Probabilities of the maxima 0..K-1.
    m : int
        Number of i.i.d. elements per tuple, ``M >= 1``.

    Returns
    -------
    ndarray, shape (K,)
    """
    s = _check_simplex(p_max, "p_max")
    m = check_int(m, "m", least=1)
    F = np.clip(np.cumsum(s / s.sum()), 0.0, 1.0) ** (1.0 / m)
    F[-1] = 1.0
    return np.diff(F, prepend=0.0)


def max_marginal_from_pair_max(p_max: ArrayLike) -> np.ndarray:
    r""":func:`max_marginal_from_tuple_max` with ``m = 2``: :math:`F(k) = \sqrt{P(\max \le k)}`."""
    return max_marginal_from_tuple_max(p_max, 2)


def estimate_marginal(s: ArrayLike, sigma: str, n_classes: int, m: int = 2) -> np.ndarray:
    """The hidden-label marginal estimated from observed weak labels ``s`` (integers), for ``sum`` or ``max``.

    Counts the empirical :math:`\\hat P(s)` and inverts it with :func:`sum_marginal_from_pair_sums`
    (``m = 2`` only) or :func:`max_marginal_from_tuple_max` (any tuple size ``m``).
    """
    if sigma == "sum" and m != 2:
        raise ValueError("sigma='sum' is implemented for pairs (m = 2) only")
    S = n_symbols(sigma, n_classes)
    if sigma == "first":
        raise ValueError("sigma='first' reveals the label: count it directly")
    v = np.asarray(s)
    if v.ndim != 1 or len(v) == 0 or not np.issubdtype(v.dtype, np.integer) or v.min() < 0 or v.max() >= S:
        raise ValueError(f"s must be a non-empty 1-d integer array with values in 0..{S - 1}")
    freq = np.bincount(v, minlength=S) / len(v)
    return sum_marginal_from_pair_sums(freq) if sigma == "sum" else max_marginal_from_tuple_max(freq, m)


def weak_label_as_label(s: ArrayLike, sigma: str, n_classes: int, m: int = 2) -> np.ndarray:
    """The naive marginal estimate that ignores :math:`\\sigma`: the weak label read as a hidden label.

    ``max``: the histogram of :math:`s` itself over the classes; ``sum``: the histogram of the tuple's mean
    label :math:`\\lfloor s / m \\rfloor`. No inversion of :math:`P(s)` (the comparator of the marginal
    estimators :func:`max_marginal_from_tuple_max` and :func:`sum_marginal_from_pair_sums`).

    Returns
    -------
    ndarray, shape (n_classes,)
        A point of the simplex.
    """
    K = check_int(n_classes, "n_classes", least=2)
    m = check_int(m, "m", least=1)
    if sigma not in ("sum", "max"):
        raise ValueError(f"sigma must be 'sum' or 'max'; got {sigma!r}")
    S = (m * (K - 1) + 1) if sigma == "sum" else K
    v = np.asarray(s)
    if v.ndim != 1 or len(v) == 0 or not np.issubdtype(v.dtype, np.integer) or v.min() < 0 or v.max() >= S:
        raise ValueError(f"s must be a non-empty 1-d integer array with values in 0..{S - 1}")
    labels = v // m if sigma == "sum" else v
    return np.bincount(labels, minlength=K) / len(v)


def label_revealed_probability(marginal: ArrayLike, m: int) -> float:
    """Probability that an element's hidden label equals the weak label :math:`\\max(y_1..y_M)`.

    :math:`P(y_1 = \\max_j y_j) = \\sum_k r_k F(k)^{M-1}`, :math:`F` the CDF of :math:`r` (i.i.d. elements;
    ties count as revealed). With the balanced marginal on 10 classes and :math:`M = 3` it is
    :math:`\\sum_{j=1}^{10} j^2 / 1000 = 0.385`.
    """
    r = _check_simplex(marginal, "marginal")
    m = check_int(m, "m", least=1)
    return float(np.sum(r * np.cumsum(r) ** (m - 1)))


def symmetric_label_noise(y: ArrayLike, q: float, n_classes: int, rng: np.random.Generator) -> np.ndarray:
    """Gold labels, each replaced with probability ``q`` by a class drawn uniformly from all ``n_classes``.

    The label noise of the naive weak-supervision baseline (no symbolic function); a label survives with
    probability :math:`1 - q + q/K`.
    """
    K = check_int(n_classes, "n_classes", least=2)
    q = float(q)
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"q must lie in [0, 1]; got {q}")
    v = np.asarray(y)
    if not np.issubdtype(v.dtype, np.integer) or v.size == 0 or v.min() < 0 or v.max() >= K:
        raise ValueError(f"y must be a non-empty integer array with values in 0..{K - 1}")
    flip = rng.random(v.shape) < q
    return np.where(flip, rng.integers(0, K, size=v.shape), v)


def prior_corrected_labels(logp: ArrayLike, logp_ref: ArrayLike) -> np.ndarray:
    """Predictions corrected by the classifier's own class prior, no marginal estimate from weak labels.

    :math:`\\hat y_i = \\arg\\max_k \\log p_i(k) - \\log \\bar p(k)`, with :math:`\\bar p` the mean predicted
    probability over the reference inputs ``logp_ref`` (logit adjustment with the model's implied prior: the
    naive long-tail baseline). Batched over leading axes.

    Parameters
    ----------
    logp : array_like, shape (..., n, K)
    logp_ref : array_like, shape (..., n_ref, K)

    Returns
    -------
    ndarray of int, shape (..., n)
    """
    lp = finite_array(logp, "logp")
    ref = np.asarray(logp_ref, dtype=np.float64)
    if ref.ndim != lp.ndim or ref.shape[-1] != lp.shape[-1] or ref.shape[:-2] != lp.shape[:-2]:
        raise ValueError("logp_ref must have the leading axes and class axis of logp")
    prior = np.exp(ref).mean(-2, keepdims=True)
    return (lp - np.log(prior)).argmax(-1)


def long_tailed_marginal(n_classes: int, ratio: float) -> np.ndarray:
    """:math:`r_k \\propto \\rho^{-k/(K-1)}`: class 0 the head, class K-1 the tail, ``r_0 / r_{K-1} = ratio``."""
    K = check_int(n_classes, "n_classes", least=2)
    ratio = check_positive(ratio, "ratio")
    r = ratio ** (-np.arange(K) / (K - 1))
    return r / r.sum()


# --------------------------------------------------------------------------- data


def sample_weak_tuples(y: ArrayLike, marginal: ArrayLike, n_tuples: int, m: int, sigma: str,
                       rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``n_tuples`` tuples of ``m`` pool images with i.i.d. hidden labels from ``marginal``, and their
    weak labels.

    Each element: a class from ``marginal``, then an image of that class uniformly from the pool.

    Returns
    -------
    idx : ndarray of int, shape (m, n_tuples)
        Indices into the pool.
    s : ndarray of int, shape (n_tuples,)
        :math:`\\sigma(y[idx_1], \\dots, y[idx_m])` (``sum`` and ``first`` need ``m = 2``; ``max`` any ``m``).
    """
    lab = np.asarray(y)
    r = _check_simplex(marginal, "marginal")
    n_tuples = check_int(n_tuples, "n_tuples", least=1)
    m = check_int(m, "m", least=2)
    if sigma not in SIGMAS:
        raise ValueError(f"sigma must be one of {SIGMAS}; got {sigma!r}")
    if sigma != "max" and m != 2:
        raise ValueError(f"sigma={sigma!r} is implemented for pairs (m = 2) only")
    K = len(r)
    if lab.ndim != 1 or not np.issubdtype(lab.dtype, np.integer) or lab.min() < 0 or lab.max() >= K:
        raise ValueError(f"y must be a 1-d integer array with values in 0..{K - 1}")
    counts = np.bincount(lab, minlength=K)
    if (counts[r > 0] == 0).any():
        raise ValueError("every class with positive marginal needs at least one pool image")
    order = np.argsort(lab, kind="stable")
    start = np.concatenate([[0], np.cumsum(counts)[:-1]])
    cls = rng.choice(K, size=(m, n_tuples), p=r)
    pos = (rng.random((m, n_tuples)) * counts[cls]).astype(np.int64)
    idx = order[start[cls] + pos]
    s = lab[idx].max(0) if sigma == "max" else apply_sigma(sigma, lab[idx[0]], lab[idx[1]])
    return idx, s


def sample_weak_pairs(y: ArrayLike, marginal: ArrayLike, n_pairs: int, sigma: str,
                      rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`sample_weak_tuples` with ``m = 2``, returned as ``(i1, i2, s)``, each of shape (n_pairs,)."""
    idx, s = sample_weak_tuples(y, marginal, n_pairs, 2, sigma, rng)
    return idx[0], idx[1], s


def tuple_elements(X: ArrayLike, idx: ArrayLike) -> np.ndarray:
    """The images of every tuple element, per repetition: ``X[r, idx[r, m, i]]`` flattened over (m, i).

    Parameters
    ----------
    X : array_like, shape (R, N, D)
    idx : array_like of int, shape (R, M, n)

    Returns
    -------
    ndarray, shape (R, M*n, D)
    """
    Xa = np.asarray(X)
    ia = np.asarray(idx)
    if Xa.ndim != 3 or ia.ndim != 3 or ia.shape[0] != Xa.shape[0]:
        raise ValueError("X must have shape (R, N, D) and idx shape (R, M, n)")
    if not np.issubdtype(ia.dtype, np.integer) or ia.min() < 0 or ia.max() >= Xa.shape[1]:
        raise ValueError("idx must hold integer indices into the pool")
    R = Xa.shape[0]
    return Xa[np.arange(R)[:, None], ia.reshape(R, -1)]


def gaussian_classes(n_per_class: int, n_classes: int, separation: float,
                     rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Equally hard classes: :math:`x = \\delta\\, e_y + \\xi`, :math:`\\xi \\sim N(0, I_K)`, in :math:`\\mathbb R^K`.

    The class means are the scaled unit vectors, all at the same distance :math:`\\delta\\sqrt 2` from one
    another, so the Bayes classifier has the same risk on every class: any learning imbalance is caused by the
    supervision, not by the data (our design).

    Returns
    -------
    X : ndarray, shape (n_per_class * K, K)
    y : ndarray of int, shape (n_per_class * K,)
        Sorted by class.
    """
    n_per_class = check_int(n_per_class, "n_per_class", least=1)
    K = check_int(n_classes, "n_classes", least=2)
    separation = check_positive(separation, "separation")
    y = np.repeat(np.arange(K), n_per_class)
    return separation * np.eye(K)[y] + rng.standard_normal((len(y), K)), y


def subsample_by_marginal(y: ArrayLike, marginal: ArrayLike, rng: np.random.Generator) -> np.ndarray:
    """Indices of a test subset whose class counts follow ``marginal``: ``floor(m * r_k / max(r))`` per class,
    ``m`` the smallest class count, drawn without replacement."""
    lab = np.asarray(y)
    r = _check_simplex(marginal, "marginal")
    counts = np.bincount(lab, minlength=len(r))
    want = np.floor(counts.min() * r / r.max() + 1e-9).astype(int)
    return np.concatenate([rng.permutation(np.flatnonzero(lab == k))[:want[k]] for k in range(len(r))])


# --------------------------------------------------------------------------- losses and posteriors


def _mask_for(s: torch.Tensor, M: np.ndarray) -> torch.Tensor:
    Mt = torch.as_tensor(np.ascontiguousarray(M.T))
    return Mt[s]  # (..., K*K) bool


def nesy_nll(logp1: torch.Tensor, logp2: torch.Tensor, s: torch.Tensor, M: np.ndarray) -> torch.Tensor:
    """Per-pair NeSy (semantic) loss :math:`-\\log \\sum_{(a,b): \\sigma(a,b)=s} p(a|x_1)\\,p(b|x_2)`.

    Parameters
    ----------
    logp1, logp2 : Tensor, shape (..., n, K)
        Log-probabilities of the two elements' labels.
    s : LongTensor, shape (..., n) or (n,)
        Weak labels.
    M : ndarray of bool, shape (K*K, S)
        :func:`constraint_matrix`.

    Returns
    -------
    Tensor, shape (..., n)
        With ``sigma="first"`` this is the cross-entropy of the first element (tested).
    """
    K = logp1.shape[-1]
    if M.shape[0] != K * K or logp2.shape != logp1.shape:
        raise ValueError(f"shapes do not match: logp1 {tuple(logp1.shape)}, logp2 {tuple(logp2.shape)}, M {M.shape}")
    # probability space (float64 recommended): sum of the joint over the allowed pairs, then the log
    joint = (logp1.exp()[..., :, None] * logp2.exp()[..., None, :]).flatten(-2)
    allowed = _mask_for(s, M).to(joint.dtype)
    return -torch.log((joint * allowed).sum(-1).clamp_min(torch.finfo(joint.dtype).tiny))


def pair_posteriors(logp1: torch.Tensor, logp2: torch.Tensor, s: torch.Tensor,
                    M: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    """Posteriors :math:`q(a | x_1, x_2, s) \\propto \\sum_b p(a|x_1) p(b|x_2) [\\sigma(a,b)=s]` of each element.

    Returns
    -------
    q1, q2 : Tensor, shape (..., n, K)
    """
    K = logp1.shape[-1]
    joint = (logp1[..., :, None] + logp2[..., None, :]).flatten(-2)
    joint = joint.masked_fill(~_mask_for(s, M), float("-inf"))
    post = torch.softmax(joint, dim=-1).unflatten(-1, (K, K))
    return post.sum(-1), post.sum(-2)


def _max_terms(logp: torch.Tensor, s: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """log F_m(s), log F_m(s-1) per element (-inf where s = 0) and the log CDFs; logp (..., M, n, K), s (..., n)."""
    logF = torch.logcumsumexp(logp, dim=-1)
    idx = s.unsqueeze(-2).expand(logp.shape[:-1]).unsqueeze(-1)
    at_s = logF.gather(-1, idx)[..., 0]
    below = logF.gather(-1, (idx - 1).clamp_min(0))[..., 0]
    below = torch.where(idx[..., 0] > 0, below, torch.full_like(below, float("-inf")))
    return at_s, below, logF


def _log_diff(la: torch.Tensor, lb: torch.Tensor) -> torch.Tensor:
    """log(exp(la) - exp(lb)) for la >= lb (lb may be -inf), guarded against rounding at la = lb."""
    d = (lb - la).clamp_max(-1e-12)
    return la + torch.log(-torch.expm1(d))


def max_nll(logp: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
    """NeSy loss for :math:`\\sigma = \\max` over M elements, in closed form:
    :math:`-\\log\\big(\\prod_m F_m(s) - \\prod_m F_m(s-1)\\big)`, :math:`F_m` the CDF of :math:`p(\\cdot|x_m)`.

    Computed in probability space (float64 recommended) by the telescoping sum
    :math:`\\sum_m p_m(s) \\prod_{j<m} F_j(s-1) \\prod_{j>m} F_j(s)`, whose terms are all non-negative (no
    cancellation). Equals :func:`nesy_nll` with the ``max`` table for M = 2 (tested) without the :math:`K^M`
    enumeration.

    Parameters
    ----------
    logp : Tensor, shape (..., M, n, K)
    s : LongTensor, shape (..., n)

    Returns
    -------
    Tensor, shape (..., n)
    """
    if logp.ndim < 3 or s.shape != logp.shape[:-3] + logp.shape[-2:-1]:
        raise ValueError(f"logp must have shape (..., M, n, K) and s (..., n); got {tuple(logp.shape)}, {tuple(s.shape)}")
    # telescoping: prod F(s) - prod F(s-1) = sum_m p_m(s) prod_{j<m} F_j(s-1) prod_{j>m} F_j(s), all terms >= 0
    p = logp.exp()
    idx = s.unsqueeze(-2).expand(logp.shape[:-1]).unsqueeze(-1)
    p_s = p.gather(-1, idx)[..., 0]                      # (..., M, n)
    F_s = p.cumsum(-1).gather(-1, idx)[..., 0]
    F_below = (F_s - p_s).clamp_min(0.0)
    ones = torch.ones_like(p_s[..., :1, :])
    before = torch.cumprod(torch.cat([ones, F_below[..., :-1, :]], -2), -2)            # prod_{j<m} F_j(s-1)
    after = torch.cumprod(torch.cat([ones, F_s.flip(-2)[..., :-1, :]], -2), -2).flip(-2)  # prod_{j>m} F_j(s)
    return -torch.log((p_s * before * after).sum(-2))


def max_posteriors(logp: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
    """Posterior of each element's label given :math:`\\max = s`:
    :math:`q_m(a) \\propto p_m(a)\\,w_m(a)`, with :math:`w_m(a) = 0` for :math:`a > s`,
    :math:`\\prod_{j\\ne m} F_j(s)` for :math:`a = s`, and
    :math:`\\prod_{j\\ne m} F_j(s) - \\prod_{j\\ne m} F_j(s-1)` for :math:`a < s`.

    Parameters
    ----------
    logp : Tensor, shape (..., M, n, K)
    s : LongTensor, shape (..., n)

    Returns
    -------
    Tensor, shape (..., M, n, K)
    """
    at_s, below, _ = _max_terms(logp, s)
    others_at = at_s.sum(-2, keepdim=True) - at_s                       # log prod_{j != m} F_j(s)
    finite_below = torch.where(torch.isfinite(below), below, torch.zeros_like(below))
    others_below = torch.where(torch.isfinite(below).all(-2, keepdim=True),
                               finite_below.sum(-2, keepdim=True) - finite_below,
                               torch.full_like(below, float("-inf")))
    lw_lt = _log_diff(others_at, others_below)
    a = torch.arange(logp.shape[-1])
    sv = s.unsqueeze(-2).unsqueeze(-1)
    lw = torch.where(a == sv, others_at.unsqueeze(-1), torch.where(a < sv, lw_lt.unsqueeze(-1),
                                                                   torch.full_like(logp, float("-inf"))))
    return torch.softmax(logp + lw, dim=-1)


# --------------------------------------------------------------------------- marginal-constrained assignment


def sinkhorn_plan(logp: ArrayLike, marginal: ArrayLike, reg: float = 1.0, n_iter: int = 200) -> np.ndarray:
    """Entropic OT plan between n points (mass 1/n each) and K classes (mass ``marginal``), cost
    :math:`C_{ik} = -\\log p_i(k)`, batched over leading axes (log-domain Sinkhorn).

    :math:`\\pi = \\mathrm{diag}(u)\\, e^{-C/\\varepsilon} \\mathrm{diag}(v)`; with :math:`\\varepsilon = 1`,
    :math:`e^{-C} = p`: the scores are re-weighted per class until the predicted class histogram equals the
    marginal (our reading of CAROT's RSOT score adjustment). Same plan as ``ot.sinkhorn(a, b, C, reg)``
    (tested).

    Parameters
    ----------
    logp : array_like, shape (..., n, K)
        Log-scores (finite).
    marginal : array_like, shape (K,) or (..., K)
        Class masses summing to 1.
    reg : float
        Entropic regulariser :math:`\\varepsilon > 0`; small values approach the LP (``ot.emd``).
    n_iter : int
        Sinkhorn iterations.

    Returns
    -------
    ndarray, shape (..., n, K)
        The plan (rows sum to 1/n).
    """
    L = np.asarray(logp, dtype=np.float64)
    if L.ndim < 2 or not np.isfinite(L).all():
        raise ValueError("logp must be a finite array of shape (..., n, K)")
    b = np.asarray(marginal, dtype=np.float64)
    if b.shape[-1] != L.shape[-1] or (b < 0).any() or not np.allclose(b.sum(-1), 1.0, atol=1e-6):
        raise ValueError("marginal must be probability vectors over the K classes")
    reg = check_positive(reg, "reg")
    n_iter = check_int(n_iter, "n_iter", least=1)
    n = L.shape[-2]
    logK = L / reg
    loga = -np.log(n)
    with np.errstate(divide="ignore"):
        logb = np.log(b)[..., None, :]
    f = np.zeros(L.shape[:-1] + (1,))
    g = np.zeros(L.shape[:-2] + (1, L.shape[-1]))
    for _ in range(n_iter):
        f = loga - _lse(logK + g, axis=-1)
        g = logb - _lse(logK + f, axis=-2)
    return np.exp(logK + f + g)


def _lse(x: np.ndarray, axis: int) -> np.ndarray:
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        return m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


def marginal_constrained_labels(logp: ArrayLike, marginal: ArrayLike, reg: float = 1.0,
                                n_iter: int = 200) -> np.ndarray:
    """Predictions under a class-marginal constraint: the argmax of each row of :func:`sinkhorn_plan`.

    Returns
    -------
    ndarray of int, shape (..., n)
    """
    return sinkhorn_plan(logp, marginal, reg, n_iter).argmax(-1)


# --------------------------------------------------------------------------- model and training


def _log_softmax_linear(W: torch.Tensor, X: torch.Tensor) -> torch.Tensor:
    return torch.log_softmax(X @ W[..., :-1, :] + W[..., -1:, :], dim=-1)


def predict_logp(W: ArrayLike, X: ArrayLike) -> np.ndarray:
    """Log-probabilities of a batch of linear softmax classifiers.

    Parameters
    ----------
    W : array_like, shape (R, D+1, K)
        Weights, bias in the last row.
    X : array_like, shape (R, n, D)

    Returns
    -------
    ndarray, shape (R, n, K)
    """
    with torch.no_grad():
        return _log_softmax_linear(torch.as_tensor(np.asarray(W)), torch.as_tensor(np.asarray(X))).numpy()


def train_linear(X: ArrayLike, idx: ArrayLike, s: ArrayLike, sigma: str, n_classes: int, steps: int,
                 lr: float = 0.05, weight_decay: float = 1e-4, seed: int = 0, y_pool: ArrayLike | None = None,
                 pseudo: str | None = None, marginal: ArrayLike | None = None, warmup: int = 100,
                 relabel_every: int = 25, lp_reg: float = 0.05, record_every: int = 0):
    """Train R linear softmax classifiers at once (one per repetition) by full-batch Adam, in float64.

    Losses (mean over tuples):

    * ``y_pool`` given: supervised cross-entropy on every element's gold label (the reference, same images);
    * else the NeSy loss for ``sigma`` (:func:`max_nll` for ``max`` with any M, :func:`nesy_nll` for ``sum``
      and ``first`` with M = 2); with ``pseudo`` set, after ``warmup`` steps a cross-entropy on pseudo-labels
      of every element is added (weight 0.5), refreshed every ``relabel_every`` steps:
      ``pseudo="marginal"``: the LP pseudo-labels (rows' argmax of :func:`sinkhorn_plan` with cost
      :math:`-\\log q`, :math:`q` the posteriors given the weak label, class masses ``marginal``, small
      ``lp_reg``: an entropic approximation of the LP); ``pseudo="argmax"``: the argmax of :math:`q` (the
      ablation without the marginal).

    Parameters
    ----------
    X : array_like, shape (R, N, D)
        Pool features per repetition.
    idx : array_like of int, shape (R, M, n)
        Tuple indices into the pool.
    s : array_like of int, shape (R, n)
        Weak labels.
    marginal : array_like, shape (R, K) or (K,)
        The (estimated) hidden-label marginal, for ``pseudo="marginal"``.
    record_every : int
        If positive, also return the weights every ``record_every`` steps (learning curves).

    Returns
    -------
    W : ndarray, shape (R, D+1, K)
        Trained weights (bias in the last row).
    (steps_at, Ws) : only if ``record_every > 0``: ndarray (T,) of step counts (0 = initial weights) and
        ndarray (T, R, D+1, K).
    """
    steps = check_int(steps, "steps", least=1)
    check_positive(lr, "lr")
    K = check_int(n_classes, "n_classes", least=2)
    record_every = check_int(record_every, "record_every", least=0)
    if pseudo not in (None, "marginal", "argmax"):
        raise ValueError(f"pseudo must be None, 'marginal' or 'argmax'; got {pseudo!r}")
    if pseudo == "marginal" and marginal is None:
        raise ValueError("pseudo='marginal' needs the marginal")
    if sigma not in SIGMAS:
        raise ValueError(f"sigma must be one of {SIGMAS}; got {sigma!r}")
    Xt = torch.as_tensor(np.asarray(X, dtype=np.float64))
    if Xt.ndim != 3:
        raise ValueError(f"X must have shape (R, N, D); got {tuple(Xt.shape)}")
    R, N, D = Xt.shape
    It = torch.as_tensor(np.asarray(idx, dtype=np.int64))
    St = torch.as_tensor(np.asarray(s, dtype=np.int64))
    if It.ndim != 3 or It.shape[0] != R or St.shape != (R, It.shape[2]):
        raise ValueError("idx must have shape (R, M, n) and s shape (R, n)")
    Mt = It.shape[1]
    if sigma != "max" and Mt != 2:
        raise ValueError(f"sigma={sigma!r} is implemented for pairs (M = 2) only")
    table = None if sigma == "max" else constraint_matrix(sigma, K)
    gen = torch.Generator().manual_seed(int(seed))
    W = (0.01 * torch.randn(R, D + 1, K, generator=gen, dtype=torch.float64)).requires_grad_(True)
    opt = Adam([W], lr=lr, weight_decay=weight_decay)
    Ypool = None if y_pool is None else torch.as_tensor(np.asarray(y_pool, dtype=np.int64))
    rows = torch.arange(R)[:, None, None]
    targets = None
    hist_t, hist_W = [], []
    for t in range(steps):
        if record_every and t % record_every == 0:
            hist_t.append(t)
            hist_W.append(W.detach().numpy().copy())
        logp = _log_softmax_linear(W, Xt)                  # (R, N, K): the whole pool once
        lp = logp[rows, It]                                # (R, M, n, K)
        if Ypool is not None:
            loss = -lp.gather(-1, Ypool[rows, It][..., None]).mean()
        else:
            if sigma == "max":
                loss = max_nll(lp, St).mean()
            else:
                loss = nesy_nll(lp[:, 0], lp[:, 1], St, table).mean()
            if pseudo is not None and t >= warmup:
                if targets is None or (t - warmup) % relabel_every == 0:
                    with torch.no_grad():
                        if sigma == "max":
                            q = max_posteriors(lp, St)
                        else:
                            q = torch.stack(pair_posteriors(lp[:, 0], lp[:, 1], St, table), 1)
                        q = q.flatten(1, 2).clamp_min(1e-30)           # (R, M*n, K)
                    if pseudo == "argmax":
                        targets = q.argmax(-1)
                    else:
                        r = np.broadcast_to(np.asarray(marginal, dtype=np.float64), (R, K))
                        targets = torch.as_tensor(marginal_constrained_labels(q.log().numpy(), r, reg=lp_reg,
                                                                              n_iter=100))
                loss = loss + 0.5 * -(lp.flatten(1, 2).gather(-1, targets[..., None]).mean())
        opt.zero_grad()
        loss.backward()
        opt.step()
    Wf = W.detach().numpy().copy()
    if not record_every:
        return Wf
    hist_t.append(steps)
    hist_W.append(Wf)
    return Wf, (np.array(hist_t), np.stack(hist_W))


# --------------------------------------------------------------------------- evaluation


def per_class_accuracy(y_true: ArrayLike, y_pred: ArrayLike, n_classes: int) -> np.ndarray:
    """Accuracy on each class (1 minus the class-specific risk), batched over leading axes.

    Parameters
    ----------
    y_true, y_pred : array_like of int, shape (..., n)

    Returns
    -------
    ndarray, shape (..., K)
        NaN for a class absent from ``y_true``.
    """
    K = check_int(n_classes, "n_classes", least=1)
    yt, yp = np.asarray(y_true), np.asarray(y_pred)
    if yt.shape != yp.shape:
        raise ValueError(f"y_true and y_pred must have the same shape; got {yt.shape} and {yp.shape}")
    if yt.size and (yt.min() < 0 or yt.max() >= K):
        raise ValueError(f"labels must lie in 0..{K - 1}")
    onehot = yt[..., None] == np.arange(K)
    hits = (onehot & (yp == yt)[..., None]).sum(-2)
    tot = onehot.sum(-2)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(tot > 0, hits / np.maximum(tot, 1), np.nan)


def imbalance(acc_per_class: ArrayLike) -> np.ndarray:
    """Learning imbalance: max minus min of the class-specific accuracies (equivalently of the risks)."""
    a = np.asarray(acc_per_class, dtype=float)
    return np.nanmax(a, axis=-1) - np.nanmin(a, axis=-1)
