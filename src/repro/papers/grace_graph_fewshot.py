r"""GRACE in miniature: adaptive low/high-pass spectrum experts and cross-set calibration for few-shot nodes.

Paper map
---------
*Graph Few-Shot Learning via Adaptive Spectrum Experts and Cross-Set Distribution Calibration*, Yonghao Liu,
Yajun Wang, Chunli Guo, Wei Pang, Ximing Li, Fausto Giunchiglia, Xiaoyue Feng, Renchu Guan, NeurIPS 2025,
https://arxiv.org/abs/2510.12140. We could read the abstract and the names of the parts of its Algorithm 1
(a low-pass expert, Eq. 1; a high-pass expert, Eqs. 2-3; their integration), not the equations themselves.
The official repository's README exists in a public-code index (a ``main.py`` with ``dataset``, ``n_way`` and
``k_shot`` arguments, run as ``python main.py --use_cor``), but its code was not obtained: the model below
("GRACE-lite") is **our design from the reproduction brief**.
Notebook: ``notebooks/grace-graph-fewshot.py``.

Notation (brief / paper -> here):

==========================================================  =====================================================
symbol                                                      here
==========================================================  =====================================================
graph with adjacency :math:`A` (symmetric, weights >= 0)     ``A`` (``scipy.sparse`` CSR, shape (n, n))
degrees :math:`D = \operatorname{diag}(A\mathbf 1)`             ``A.sum(1)``
normalised adjacency :math:`\hat A = D^{-1/2} A D^{-1/2}`      :func:`normalized_adjacency` (isolated nodes: 0)
normalised Laplacian :math:`L = I - \hat A`, spectrum [0, 2]   (implicit: ``high_pass(X, A_hat)`` is :math:`LX`)
low-pass expert input :math:`\hat A^k X` (gain                :func:`low_pass`
:math:`(1-\lambda)^k` on the :math:`L`-eigenvector of
eigenvalue :math:`\lambda`)
high-pass expert input :math:`(I-\hat A) X` (gain             :func:`high_pass`
:math:`\lambda`)
node features :math:`X`, labels :math:`y`                       ``X`` (n, f), ``y`` (n,)
edge homophily :math:`h`, local homophily :math:`h_i`          :func:`edge_homophily`, :func:`local_homophily`
expert outputs :math:`H_L = \hat A^k X W_L`,                   :class:`SpectralExperts` (``mode="low"``/``"high"``)
:math:`H_H = (I-\hat A) X W_H`
node gate :math:`g_i = \sigma(\mathrm{MLP}(z_i))`              ``SpectralExperts.gate``; ``z_i`` from :func:`gate_features`
integration :math:`H = g\odot H_L + (1-g)\odot H_H`           :class:`SpectralExperts` (``mode="grace"``)
:math:`N`-way :math:`K`-shot episode, :math:`Q` queries/class   :func:`sample_episodes`
prototypes :math:`p_c = \frac1K\sum_{s\in S_c} h_s`            :func:`prototypes`
ProtoNet logits :math:`-\lVert h_q - p_c\rVert^2`                :func:`proto_logits`
cross-set calibration                                        :func:`calibrate_prototypes`
==========================================================  =====================================================

Everything that trains is batched over ``G`` independent graphs (replicates): parameters carry a leading
axis ``G`` and the losses of the graphs are summed, so Adam, which acts element-wise, trains ``G``
independent models at once. Episodes are batched as index arrays (no Python loop over nodes or episodes).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp
import torch
from torch import nn

MODES: tuple[str, ...] = ("mlp", "low", "high", "mix", "grace")
#: the comparators added with the claim model (issue 33): GRACE-lite's gate fed no node statistics (a learned
#: global weight of the two experts), and a linear model on the concatenation of raw and both filtered features
COMPARATOR_MODES: tuple[str, ...] = ("gmix", "concat")
ALL_MODES: tuple[str, ...] = MODES + COMPARATOR_MODES


# --------------------------------------------------------------------------- validation helpers
def _check_int(x: object, name: str, least: int = 1) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < least:
        raise ValueError(f"{name} must be an int >= {least}; got {x!r}")
    return int(x)


def _check_adjacency(A: object) -> sp.csr_matrix:
    if not sp.issparse(A):
        raise ValueError(f"A must be a scipy.sparse matrix; got {type(A).__name__}")
    A = sp.csr_matrix(A, dtype=np.float64)
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"A must be square; got shape {A.shape}")
    if A.nnz and A.data.min() < 0:
        raise ValueError("A must have non-negative weights")
    if A.nnz and abs(A - A.T).max() > 1e-12:
        raise ValueError("A must be symmetric (an undirected graph)")
    return A


def _check_features(X: object, n: int) -> np.ndarray:
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] != n:
        raise ValueError(f"X must have shape (n, f) with n = {n}; got {X.shape}")
    return X


def _check_labels(y: object, n: int) -> np.ndarray:
    y = np.asarray(y)
    if y.shape != (n,) or not np.issubdtype(y.dtype, np.integer):
        raise ValueError(f"y must be an integer array of shape ({n},); got {y.dtype} {y.shape}")
    return y


# --------------------------------------------------------------------------- the synthetic graphs
def make_mixed_homophily_graph(
    n: int,
    n_classes: int,
    region_homophily: Sequence[float],
    stubs: int,
    feat_dim: int,
    noise: float,
    rng: np.random.Generator,
) -> dict:
    r"""A contextual stochastic block model with regions of prescribed homophily (brief, sec. 4).

    Node ``i`` has class ``y_i = i mod C`` and region ``r_i = (i // C) mod R``; every (region, class)
    cell holds ``n / (C R)`` nodes. Each node sends ``stubs`` edges to nodes of its own region: with
    probability ``region_homophily[r_i]`` to a uniform node of its own class (not itself), else to a uniform
    node of a uniformly chosen *other* class. The adjacency is the symmetrised multigraph
    :math:`A = B + B^\top` (``B[i, j]`` = stubs from ``i`` to ``j``), so a pair picked twice has weight 2
    and the edge homophily (weighted) equals the mean of ``region_homophily`` over nodes in expectation.
    Features are :math:`x_i = \mu_{y_i} + \sigma\varepsilon_i` with class means
    :math:`\mu_c \sim N(0, I_f)` and :math:`\varepsilon_i \sim N(0, I_f)`.

    Parameters
    ----------
    n : int
        Number of nodes, a multiple of ``n_classes * len(region_homophily)``.
    n_classes : int >= 2
    region_homophily : sequence of float in [0, 1], length R >= 1
        Probability that a stub of a node in region ``r`` stays in its class.
    stubs : int >= 1
        Edges sent per node (the mean degree is ``2 * stubs``; every degree is at least ``stubs``).
    feat_dim : int >= 1
    noise : float >= 0
        :math:`\sigma`, the feature noise level (the class means have unit variance per coordinate).
    rng : numpy.random.Generator

    Returns
    -------
    dict
        ``A`` (scipy CSR, (n, n), symmetric, integer weights, zero diagonal), ``X`` (n, feat_dim),
        ``y`` (n,), ``region`` (n,), ``means`` (n_classes, feat_dim).
    """
    C = _check_int(n_classes, "n_classes", 2)
    h = np.asarray(region_homophily, dtype=np.float64)
    if h.ndim != 1 or h.size < 1 or np.any(~np.isfinite(h)) or np.any((h < 0) | (h > 1)):
        raise ValueError(f"region_homophily must be a non-empty sequence of values in [0, 1]; got {region_homophily!r}")
    R = h.size
    n = _check_int(n, "n", 1)
    if n % (C * R):
        raise ValueError(f"n = {n} must be a multiple of n_classes * regions = {C * R}")
    s = n // (C * R)
    if s < 2:
        raise ValueError("each (region, class) cell needs at least 2 nodes (a node cannot link to itself)")
    m = _check_int(stubs, "stubs", 1)
    f = _check_int(feat_dim, "feat_dim", 1)
    if not (isinstance(noise, (int, float)) and math.isfinite(noise) and noise >= 0):
        raise ValueError(f"noise must be a finite number >= 0; got {noise!r}")

    idx = np.arange(n)
    y, region, cell = idx % C, (idx // C) % R, idx // (C * R)  # node = c + C * (r + R * j)
    src = np.repeat(idx, m)
    intra = rng.random(src.size) < h[region[src]]
    tgt_class = np.where(intra, y[src], (y[src] + 1 + rng.integers(0, C - 1, src.size)) % C)
    j_intra = rng.integers(0, s - 1, src.size)
    j_intra += j_intra >= cell[src]  # skip the node itself
    j = np.where(intra, j_intra, rng.integers(0, s, src.size))
    tgt = tgt_class + C * (region[src] + R * j)
    B = sp.csr_matrix((np.ones(src.size), (src, tgt)), shape=(n, n))
    A = (B + B.T).tocsr()
    A.sum_duplicates()
    means = rng.standard_normal((C, f))
    X = means[y] + noise * rng.standard_normal((n, f))
    return dict(A=A, X=X, y=y, region=region, means=means)


def class_table(n: int, n_classes: int) -> np.ndarray:
    """Nodes of each class in :func:`make_mixed_homophily_graph`'s layout (``y_i = i mod C``).

    Returns
    -------
    np.ndarray of int, shape (n_classes, n // n_classes)
        Row ``c`` lists the nodes of class ``c`` in increasing order.
    """
    C = _check_int(n_classes, "n_classes", 2)
    n = _check_int(n, "n", 1)
    if n % C:
        raise ValueError(f"n = {n} must be a multiple of n_classes = {C}")
    return np.arange(n).reshape(n // C, C).T.copy()


# --------------------------------------------------------------------------- homophily
def edge_homophily(A: sp.spmatrix, y: np.ndarray) -> float:
    r"""Weighted share of edges whose ends have the same label, :math:`\sum_{ij} A_{ij}[y_i=y_j] / \sum_{ij} A_{ij}`."""
    A = _check_adjacency(A)
    y = _check_labels(y, A.shape[0])
    if A.nnz == 0:
        raise ValueError("A has no edges")
    Ac = A.tocoo()
    return float(Ac.data[y[Ac.row] == y[Ac.col]].sum() / Ac.data.sum())


def local_homophily(A: sp.spmatrix, y: np.ndarray) -> np.ndarray:
    r"""Per-node homophily :math:`h_i = \sum_j A_{ij}[y_i=y_j] / \sum_j A_{ij}` (NaN for an isolated node).

    Returns
    -------
    np.ndarray, shape (n,)
    """
    A = _check_adjacency(A)
    y = _check_labels(y, A.shape[0])
    Ac = A.tocoo()
    same = np.bincount(Ac.row, weights=Ac.data * (y[Ac.row] == y[Ac.col]), minlength=A.shape[0])
    deg = np.asarray(A.sum(axis=1)).ravel()
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(deg > 0, same / deg, np.nan)


# --------------------------------------------------------------------------- spectral filters
def normalized_adjacency(A: sp.spmatrix) -> sp.csr_matrix:
    r"""Symmetric normalised adjacency :math:`\hat A = D^{-1/2} A D^{-1/2}` (rows of isolated nodes are 0).

    Its eigenvalues lie in [-1, 1]; :math:`L = I - \hat A` is the normalised Laplacian (networkx's
    ``normalized_laplacian_matrix`` for graphs without isolated nodes).

    Returns
    -------
    scipy.sparse.csr_matrix, shape (n, n)
    """
    A = _check_adjacency(A)
    deg = np.asarray(A.sum(axis=1)).ravel()
    inv = np.zeros_like(deg)
    inv[deg > 0] = 1.0 / np.sqrt(deg[deg > 0])
    Dm = sp.diags(inv)
    return (Dm @ A @ Dm).tocsr()


def low_pass(X: np.ndarray, A_hat: sp.spmatrix, k: int = 2) -> np.ndarray:
    r"""Low-pass filter :math:`\hat A^k X = (I - L)^k X` (the low-pass expert's input, paper Eq. 1 as the brief reads it).

    On an eigenvector of :math:`L` with eigenvalue :math:`\lambda` it multiplies by :math:`(1-\lambda)^k`.

    Parameters
    ----------
    X : array, shape (n, f)
    A_hat : sparse, shape (n, n)
        From :func:`normalized_adjacency`.
    k : int >= 0
        Propagation steps (``k = 0`` returns ``X``).

    Returns
    -------
    np.ndarray, shape (n, f)
    """
    A_hat = _check_adjacency(A_hat)
    X = _check_features(X, A_hat.shape[0])
    k = _check_int(k, "k", 0)
    for _ in range(k):  # k sparse products (k is 1 or 2 here), not a loop over nodes
        X = A_hat @ X
    return np.asarray(X)


def high_pass(X: np.ndarray, A_hat: sp.spmatrix) -> np.ndarray:
    r"""High-pass filter :math:`(I - \hat A) X = L X` (the high-pass expert's input, paper Eqs. 2-3 as the brief reads them).

    On an eigenvector of :math:`L` with eigenvalue :math:`\lambda` it multiplies by :math:`\lambda`; it
    annihilates :math:`D^{1/2}\mathbf 1` (the constant vector on a regular graph).

    Returns
    -------
    np.ndarray, shape (n, f)
    """
    A_hat = _check_adjacency(A_hat)
    X = _check_features(X, A_hat.shape[0])
    return X - np.asarray(A_hat @ X)


def gate_features(X: np.ndarray, A: sp.spmatrix) -> np.ndarray:
    r"""Label-free node statistics for the gate :math:`z_i` (brief: degree, local feature smoothness, ...).

    Columns: :math:`\log(1+d_i)`, :math:`\cos(x_i, (\hat A X)_i)` and :math:`\cos(x_i, (\hat A^2 X)_i)`, each
    standardised over the nodes (zero mean, unit variance; a constant column stays 0).

    Returns
    -------
    np.ndarray, shape (n, 3)
    """
    A = _check_adjacency(A)
    X = _check_features(X, A.shape[0])
    A_hat = normalized_adjacency(A)
    X1 = low_pass(X, A_hat, 1)
    X2 = low_pass(X1, A_hat, 1)

    def cos(U: np.ndarray, V: np.ndarray) -> np.ndarray:
        den = np.linalg.norm(U, axis=1) * np.linalg.norm(V, axis=1)
        return np.where(den > 0, (U * V).sum(axis=1) / np.where(den > 0, den, 1.0), 0.0)

    deg = np.asarray(A.sum(axis=1)).ravel()
    Z = np.stack([np.log1p(deg), cos(X, X1), cos(X, X2)], axis=1)
    sd = Z.std(axis=0)
    return (Z - Z.mean(axis=0)) / np.where(sd > 0, sd, 1.0)


def filter_bank(X: np.ndarray, A: sp.spmatrix, k: int = 2) -> dict[str, np.ndarray]:
    r"""The inputs of every encoder: raw, low-pass and high-pass features, and the gate statistics.

    ``XR = X``, ``XL =`` :func:`low_pass` ``(X, Â, k)``, ``XH =`` :func:`high_pass` ``(X, Â)``, each divided by its
    root-mean-square row norm :math:`\sqrt{\frac1n\sum_i\lVert x_i\rVert^2}` (a global scale per matrix, which a
    linear expert could absorb, so that one learning rate suits all three), and ``Z =`` :func:`gate_features`.

    Returns
    -------
    dict
        ``XR``, ``XL``, ``XH`` of shape (n, f) and ``Z`` of shape (n, 3).
    """
    A = _check_adjacency(A)
    X = _check_features(X, A.shape[0])
    A_hat = normalized_adjacency(A)

    def rms(M: np.ndarray) -> np.ndarray:
        r = math.sqrt(float((M ** 2).sum(axis=1).mean()))
        return M / r if r > 0 else M

    return dict(XR=rms(X), XL=rms(low_pass(X, A_hat, k)), XH=rms(high_pass(X, A_hat)), Z=gate_features(X, A))


# --------------------------------------------------------------------------- episodes and prototypes
def sample_episodes(
    table: np.ndarray, classes: Sequence[int], n_way: int, k_shot: int, n_query: int, n_episodes: int,
    rng: np.random.Generator, batch: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """Sample ``batch * n_episodes`` N-way K-shot episodes without replacement inside each episode.

    Each episode draws ``n_way`` distinct classes from ``classes`` and, for each, ``k_shot + n_query``
    distinct nodes of that class (from row ``c`` of ``table``): the first ``k_shot`` are the support set,
    the rest the queries. Way ``w`` of an episode is its label ``w``.

    Parameters
    ----------
    table : int array, shape (C, m)
        Nodes of each class (:func:`class_table`).
    classes : sequence of int
        The class pool (base classes for training, novel classes for testing).
    n_way, k_shot, n_query, n_episodes, batch : int >= 1
    rng : numpy.random.Generator

    Returns
    -------
    support : int array, shape (batch, n_episodes, n_way, k_shot)
    query : int array, shape (batch, n_episodes, n_way, n_query)
        Node indices.
    """
    table = np.asarray(table)
    if table.ndim != 2 or not np.issubdtype(table.dtype, np.integer):
        raise ValueError(f"table must be a 2-d integer array; got {table.dtype} {table.shape}")
    classes = np.asarray(classes)
    if classes.ndim != 1 or not np.issubdtype(classes.dtype, np.integer) or np.unique(classes).size != classes.size:
        raise ValueError("classes must be a 1-d array of distinct integer class ids")
    if classes.size and (classes.min() < 0 or classes.max() >= table.shape[0]):
        raise ValueError(f"classes must lie in 0..{table.shape[0] - 1}")
    N, K, Q = _check_int(n_way, "n_way"), _check_int(k_shot, "k_shot"), _check_int(n_query, "n_query")
    E, Bt = _check_int(n_episodes, "n_episodes"), _check_int(batch, "batch")
    if N > classes.size:
        raise ValueError(f"n_way = {N} exceeds the {classes.size} classes available")
    if K + Q > table.shape[1]:
        raise ValueError(f"k_shot + n_query = {K + Q} exceeds the {table.shape[1]} nodes per class")
    way = classes[np.argsort(rng.random((Bt, E, classes.size)), axis=-1)[..., :N]]  # (B, E, N)
    pick = np.argsort(rng.random((Bt, E, N, table.shape[1])), axis=-1)[..., : K + Q]  # (B, E, N, K+Q)
    nodes = table[way[..., None], pick]
    return nodes[..., :K], nodes[..., K:]


def prototypes(support_emb: torch.Tensor) -> torch.Tensor:
    r"""Class prototypes :math:`p_c = \frac1K\sum_{s\in S_c} h_s` (ProtoNet, Snell et al. 2017, Eq. 1).

    Parameters
    ----------
    support_emb : tensor, shape (..., N, K, d)

    Returns
    -------
    tensor, shape (..., N, d)
    """
    if support_emb.dim() < 3:
        raise ValueError(f"support_emb must have shape (..., N, K, d); got {tuple(support_emb.shape)}")
    return support_emb.mean(dim=-2)


def proto_logits(protos: torch.Tensor, query_emb: torch.Tensor) -> torch.Tensor:
    r"""ProtoNet logits :math:`-\lVert h_q - p_c\rVert^2` (Snell et al. 2017, Eq. 2).

    Parameters
    ----------
    protos : tensor, shape (..., N, d)
    query_emb : tensor, shape (..., M, d)

    Returns
    -------
    tensor, shape (..., M, N)
    """
    if protos.dim() < 2 or query_emb.dim() != protos.dim() or protos.shape[-1] != query_emb.shape[-1]:
        raise ValueError(f"protos (..., N, d) and query_emb (..., M, d) disagree: {tuple(protos.shape)}, "
                         f"{tuple(query_emb.shape)}")
    q2 = (query_emb ** 2).sum(-1, keepdim=True)
    p2 = (protos ** 2).sum(-1).unsqueeze(-2)
    return -(q2 - 2 * query_emb @ protos.transpose(-1, -2) + p2)


def calibrate_prototypes(
    support_emb: torch.Tensor, query_emb: torch.Tensor, scale: float = 10.0, iters: int = 1,
    uniform: bool = False,
) -> tuple[torch.Tensor, torch.Tensor]:
    r"""Cross-set calibration of the prototypes with the (unlabelled) queries of the episode.

    Our stand-in for the paper's cross-set distribution calibration, after the brief (sec. 3) and the
    prototype rectification of BD-CSPN (Liu, Song and Qin, ECCV 2020):

    1. *Shift* (align the two sets' first moments): :math:`\tilde h_q = h_q - \bar h_Q + \bar h_S`.
    2. *Rectify* (``iters`` times): soft-assign each shifted query,
       :math:`w_{qc} = \operatorname{softmax}_c(\mathrm{scale}\cdot\cos(\tilde h_q, p_c))`, then
       :math:`p_c \leftarrow \big(\sum_{s\in S_c} h_s + \sum_q w_{qc}\tilde h_q\big) / \big(K + \sum_q w_{qc}\big)`.

    With ``uniform=True`` the assignments are replaced by :math:`1/N` (a null calibration that carries no
    class information from the queries: every prototype is pulled towards the same query mean).

    Parameters
    ----------
    support_emb : tensor, shape (..., N, K, d)
    query_emb : tensor, shape (..., M, d)
        All queries of the episode, unlabelled.
    scale : float > 0
    iters : int >= 0

    Returns
    -------
    protos : tensor, shape (..., N, d)
    query_shifted : tensor, shape (..., M, d)
        The shifted queries, to be classified against ``protos``.
    """
    if support_emb.dim() < 3 or query_emb.dim() != support_emb.dim() - 1 or query_emb.shape[-1] != support_emb.shape[-1]:
        raise ValueError(f"support_emb (..., N, K, d) and query_emb (..., M, d) disagree: "
                         f"{tuple(support_emb.shape)}, {tuple(query_emb.shape)}")
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"scale must be a finite number > 0; got {scale!r}")
    iters = _check_int(iters, "iters", 0)
    N, K = support_emb.shape[-3], support_emb.shape[-2]
    sup_mean = support_emb.flatten(-3, -2).mean(dim=-2, keepdim=True)
    q = query_emb - query_emb.mean(dim=-2, keepdim=True) + sup_mean
    sup_sum = support_emb.sum(dim=-2)
    protos = sup_sum / K
    for _ in range(iters):
        if uniform:
            w = torch.full(q.shape[:-1] + (N,), 1.0 / N, dtype=q.dtype)
        else:
            cos = nn.functional.normalize(q, dim=-1) @ nn.functional.normalize(protos, dim=-1).transpose(-1, -2)
            w = torch.softmax(scale * cos, dim=-1)  # (..., M, N)
        protos = (sup_sum + w.transpose(-1, -2) @ q) / (K + w.sum(dim=-2)).unsqueeze(-1)
    return protos, q


def centre_and_normalise(support_emb: torch.Tensor, query_emb: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    r"""SimpleShot's CL2N (Wang et al., 2019), transductive: centre on the episode's mean, then L2-normalise.

    A naive baseline for :func:`calibrate_prototypes` that uses the queries without any class information:
    with :math:`\bar h` the mean of every support and query embedding of the episode, each becomes
    :math:`(h-\bar h)/\lVert h-\bar h\rVert`; the prototypes are then the means of the normalised support.

    Parameters
    ----------
    support_emb : tensor, shape (..., N, K, d)
    query_emb : tensor, shape (..., M, d)

    Returns
    -------
    protos : tensor, shape (..., N, d)
    query : tensor, shape (..., M, d)
        The centred, normalised queries, to be classified against ``protos``.
    """
    if support_emb.dim() < 3 or query_emb.dim() != support_emb.dim() - 1 or query_emb.shape[-1] != support_emb.shape[-1]:
        raise ValueError(f"support_emb (..., N, K, d) and query_emb (..., M, d) disagree: "
                         f"{tuple(support_emb.shape)}, {tuple(query_emb.shape)}")
    centre = torch.cat([support_emb.flatten(-3, -2), query_emb], dim=-2).mean(dim=-2, keepdim=True)  # (..., 1, d)
    sup = nn.functional.normalize(support_emb - centre.unsqueeze(-2), dim=-1)
    qry = nn.functional.normalize(query_emb - centre, dim=-1)
    return prototypes(sup), qry


def random_gate(Z: np.ndarray, gate_hidden: int, generator: torch.Generator) -> np.ndarray:
    r"""The gate of :class:`SpectralExperts` with random, untrained weights: :math:`\sigma(w_2^\top\tanh(W_1z_i))`.

    :math:`W_1` has :math:`N(0, 1/\mathrm{gate\_in})` entries (the model's initialisation) and :math:`w_2`
    :math:`N(0, 1/\mathrm{gate\_hidden})` entries (the model starts it at 0, which would make the gate constant);
    biases are 0. The ablation of the gate's training: a fixed random function of the same node statistics.

    Parameters
    ----------
    Z : array, shape (n, gate_in)
        From :func:`gate_features`.
    gate_hidden : int >= 1
    generator : torch.Generator

    Returns
    -------
    np.ndarray, shape (n,)
    """
    Z = np.asarray(Z, dtype=np.float64)
    if Z.ndim != 2:
        raise ValueError(f"Z must have shape (n, gate_in); got {Z.shape}")
    gh = _check_int(gate_hidden, "gate_hidden")
    W_1 = torch.randn(Z.shape[1], gh, generator=generator, dtype=torch.float64) / math.sqrt(Z.shape[1])
    w_2 = torch.randn(gh, generator=generator, dtype=torch.float64) / math.sqrt(gh)
    return torch.sigmoid(torch.tanh(torch.as_tensor(Z) @ W_1) @ w_2).numpy()


def component_mean(A: sp.spmatrix, v: np.ndarray) -> np.ndarray:
    r"""Each node's value replaced by the mean of ``v`` over its connected component of ``A``.

    A label-free, naive stand-in for a gate: with ``v`` the feature smoothness :math:`\cos(x_i, (\hat AX)_i)`
    it gives every node its region's mean smoothness on a graph whose regions are its connected components
    (the mixed graph of :func:`make_mixed_homophily_graph`).

    Parameters
    ----------
    A : scipy.sparse matrix, shape (n, n), symmetric, weights >= 0
    v : array, shape (n,)

    Returns
    -------
    np.ndarray, shape (n,)
    """
    from scipy.sparse.csgraph import connected_components

    A = _check_adjacency(A)
    v = np.asarray(v, dtype=np.float64)
    if v.shape != (A.shape[0],):
        raise ValueError(f"v must have shape ({A.shape[0]},); got {v.shape}")
    _, comp = connected_components(A, directed=False)
    sums = np.bincount(comp, weights=v)
    return (sums / np.bincount(comp))[comp]


def select_by_validation(val_acc: np.ndarray, test_acc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per graph, the candidate with the best validation accuracy, and its test accuracy (model selection).

    Parameters
    ----------
    val_acc, test_acc : arrays, shape (M, G)
        Accuracy of each of ``M`` candidate models on each of ``G`` graphs: on validation episodes (base classes,
        whose labels are available at training time) and on the test episodes (novel classes).

    Returns
    -------
    pick : int array, shape (G,)
        Index of the chosen candidate (the first one on ties).
    chosen : array, shape (G,)
        ``test_acc[pick[g], g]``.
    """
    val_acc, test_acc = np.asarray(val_acc, dtype=np.float64), np.asarray(test_acc, dtype=np.float64)
    if val_acc.ndim != 2 or val_acc.shape != test_acc.shape or val_acc.shape[0] < 1:
        raise ValueError(f"val_acc and test_acc must share a shape (M, G) with M >= 1; got {val_acc.shape}, "
                         f"{test_acc.shape}")
    pick = val_acc.argmax(axis=0)
    return pick, test_acc[pick, np.arange(val_acc.shape[1])]


# --------------------------------------------------------------------------- the model
class SpectralExperts(nn.Module):
    r"""``G`` independent few-shot encoders, one per parameter set, each of one kind (``modes[g]``).

    For node :math:`i`, with linear experts (SGC-style) and :math:`\hat A^k X`, :math:`(I-\hat A)X` precomputed:

    * ``"mlp"``:   :math:`h_i = x_i W_L`                          (ignores the graph)
    * ``"low"``:   :math:`h_i = (\hat A^k X)_i W_L`               (low-pass expert alone, SGC)
    * ``"high"``:  :math:`h_i = ((I-\hat A)X)_i W_H`              (high-pass expert alone)
    * ``"mix"``:   :math:`h_i = \tfrac12 (\hat A^k X)_i W_L + \tfrac12 ((I-\hat A)X)_i W_H` (fixed global mix)
    * ``"grace"``: :math:`h_i = g_i (\hat A^k X)_i W_L + (1-g_i)((I-\hat A)X)_i W_H`, with the node gate
      :math:`g_i = \sigma(w_2^\top \tanh(W_1 z_i + b_1) + b_2)` on the statistics :math:`z_i` of
      :func:`gate_features` (brief, sec. 3; the paper's Algorithm 1 integrates its two experts).

    Comparators (``COMPARATOR_MODES``), not part of GRACE-lite:

    * ``"gmix"``:  as ``"grace"``, but the gate is fed :math:`z_i = 0` for every node, so
      :math:`g = \sigma(w_2^\top\tanh(b_1) + b_2)` is one learned global weight (GRACE-lite without the node
      information of its gate);
    * ``"concat"``: :math:`h_i = \tfrac12 (\hat A^k X)_i W_L + \tfrac12 ((I-\hat A)X)_i W_H + \tfrac12 x_i W_R`, a
      linear model on the concatenation :math:`[\hat A^kX,\ (I-\hat A)X,\ X]` (the fixed mix plus an unfiltered
      branch; ego and neighbour features kept apart, as in H2GCN or SIGN).

    All kinds are one formula, :math:`h_i = g_i\,a_i W_L + (1-g_i)\,((I-\hat A)X)_i W_H\ [+\ \tfrac12 x_i W_R]`,
    with :math:`a_i = x_i` for ``"mlp"`` (else :math:`(\hat A^kX)_i`) and :math:`g_i` fixed to 1 (``mlp``,
    ``low``), 0 (``high``), 1/2 (``mix``, ``concat``) or the gate (``grace``, ``gmix``); the bracketed term for
    ``concat`` only. Parameters a kind does not use get zero gradients. The gate starts at :math:`g_i = 1/2`
    (``w_2 = 0``, ``b_2 = 0``): GRACE-lite starts as the fixed mix. ``W_R`` is drawn after every other
    parameter, so adding it left the draws of the others unchanged.

    Parameters
    ----------
    modes : sequence of str, each in ``ALL_MODES``, length G
    in_dim, emb_dim : int >= 1
    gate_in, gate_hidden : int >= 1
        Width of :math:`z_i` and of the gate's hidden layer.
    generator : torch.Generator, optional
        For the initialisation (:math:`N(0, 1/\mathrm{fan\_in})` entries).
    """

    def __init__(self, modes: Sequence[str], in_dim: int, emb_dim: int, gate_in: int = 3, gate_hidden: int = 8,
                 generator: torch.Generator | None = None):
        super().__init__()
        modes = (modes,) if isinstance(modes, str) else tuple(modes)
        if not modes or any(m not in ALL_MODES for m in modes):
            raise ValueError(f"modes must be a non-empty sequence of {ALL_MODES}; got {modes!r}")
        G, f, d = len(modes), _check_int(in_dim, "in_dim"), _check_int(emb_dim, "emb_dim")
        gi, gh = _check_int(gate_in, "gate_in"), _check_int(gate_hidden, "gate_hidden")
        self.modes = modes
        fixed = {"mlp": 1.0, "low": 1.0, "high": 0.0, "mix": 0.5, "grace": math.nan, "gmix": math.nan,
                 "concat": 0.5}
        self.register_buffer("fixed_gate", torch.tensor([fixed[m] for m in modes], dtype=torch.float64))
        self.register_buffer("use_raw", torch.tensor([m == "mlp" for m in modes]))
        self.register_buffer("no_node_input", torch.tensor([m == "gmix" for m in modes]))
        self.register_buffer("add_raw", torch.tensor([m == "concat" for m in modes], dtype=torch.float64))
        self.has_gmix, self.has_concat = "gmix" in modes, "concat" in modes

        def init(*shape: int, fan_in: int) -> nn.Parameter:
            return nn.Parameter(torch.randn(*shape, generator=generator, dtype=torch.float64) / math.sqrt(fan_in))

        self.W_L = init(G, f, d, fan_in=f)
        self.W_H = init(G, f, d, fan_in=f)
        self.W_1 = init(G, gi, gh, fan_in=gi)
        self.b_1 = nn.Parameter(torch.zeros(G, 1, gh, dtype=torch.float64))
        self.w_2 = nn.Parameter(torch.zeros(G, gh, 1, dtype=torch.float64))
        self.b_2 = nn.Parameter(torch.zeros(G, 1, 1, dtype=torch.float64))
        self.W_R = init(G, f, d, fan_in=f)  # the raw branch of "concat" (drawn last)

    def _sets(self, sets: np.ndarray | None) -> slice | torch.Tensor:
        return slice(None) if sets is None else torch.as_tensor(np.asarray(sets, dtype=np.int64))

    def gate(self, Z: torch.Tensor, sets: np.ndarray | None = None) -> torch.Tensor:
        """Learned node gate :math:`g_i` of every set (whatever its kind): ``Z`` (S, M, gate_in) -> (S, M)."""
        s = self._sets(sets)
        return torch.sigmoid(torch.tanh(Z @ self.W_1[s] + self.b_1[s]) @ self.w_2[s] + self.b_2[s]).squeeze(-1)

    def mixing(self, Z: torch.Tensor, sets: np.ndarray | None = None) -> torch.Tensor:
        """The weight :math:`g_i` of the low-pass (or raw) branch that each set uses: (S, M).

        A ``"gmix"`` set's gate is fed zeros instead of ``Z`` (one learned weight for every node).
        """
        s = self._sets(sets)
        fixed = self.fixed_gate[s].unsqueeze(-1)
        if self.has_gmix:
            Z = torch.where(self.no_node_input[s][:, None, None], torch.zeros((), dtype=Z.dtype), Z)
        return torch.where(torch.isnan(fixed), self.gate(Z, sets), fixed.nan_to_num(0.0))

    def forward(self, XR: torch.Tensor, XL: torch.Tensor, XH: torch.Tensor, Z: torch.Tensor,
                sets: np.ndarray | None = None) -> torch.Tensor:
        """Embeddings (S, M, emb_dim) from raw, low-pass, high-pass features (S, M, in_dim) and Z (S, M, gate_in).

        ``sets`` (optional int array of length S) selects the parameter sets; by default all G, in order.
        """
        S = self.W_L.shape[0] if sets is None else len(sets)
        if not (XR.shape == XL.shape == XH.shape) or XR.dim() != 3 or XR.shape[0] != S or Z.shape[:2] != XR.shape[:2]:
            raise ValueError(f"XR, XL, XH must share the shape (S, M, f) with S = {S} sets, and Z must be (S, M, gate_in)")
        s = self._sets(sets)
        XA = torch.where(self.use_raw[s][:, None, None], XR, XL)
        g = self.mixing(Z, sets).unsqueeze(-1)
        out = g * (XA @ self.W_L[s]) + (1 - g) * (XH @ self.W_H[s])
        if self.has_concat:  # only models that hold a "concat" set compute the raw branch
            out = out + 0.5 * self.add_raw[s][:, None, None] * (XR @ self.W_R[s])
        return out


class Adam:
    r"""Adam (Kingma and Ba, 2015, Algorithm 1) on a list of tensors, written out to avoid ``torch.optim``.

    ``torch.optim``'s first step imports ``torch._dynamo`` (about 3 s of CPU), more than this page's whole
    budget for training; the update is the same (bias-corrected moments, no weight decay).
    """

    def __init__(self, params: Sequence[torch.Tensor], lr: float, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8):
        if not (math.isfinite(lr) and lr > 0):
            raise ValueError(f"lr must be > 0; got {lr!r}")
        if not (0 <= betas[0] < 1 and 0 <= betas[1] < 1):
            raise ValueError(f"betas must lie in [0, 1); got {betas!r}")
        self.params, self.lr, self.betas, self.eps, self.t = list(params), lr, betas, eps, 0
        self.m = [torch.zeros_like(p) for p in self.params]
        self.v = [torch.zeros_like(p) for p in self.params]

    @torch.no_grad()
    def step(self) -> None:
        """One update from the ``.grad`` of each parameter (a missing gradient counts as zero)."""
        self.t += 1
        b1, b2 = self.betas
        c1, c2 = 1 - b1 ** self.t, 1 - b2 ** self.t
        for p, m, v in zip(self.params, self.m, self.v):
            g = p.grad if p.grad is not None else torch.zeros_like(p)
            m.mul_(b1).add_(g, alpha=1 - b1)
            v.mul_(b2).addcmul_(g, g, value=1 - b2)
            p.sub_(self.lr * (m / c1) / ((v / c2).sqrt() + self.eps))

    def zero_grad(self) -> None:
        """Drop the gradients."""
        for p in self.params:
            p.grad = None


def _gather(T: torch.Tensor, idx: np.ndarray, owner: np.ndarray | None = None) -> torch.Tensor:
    """``T[owner[s], idx[s, ...]]`` for ``T`` of shape (Gf, n, f): returns (S, *idx.shape[1:], f)."""
    Gf, n = T.shape[0], T.shape[1]
    S = idx.shape[0]
    owner = np.arange(S) if owner is None else np.asarray(owner)
    if owner.shape != (S,) or owner.min() < 0 or owner.max() >= Gf:
        raise ValueError(f"owner must map each of the {S} sets to a graph in 0..{Gf - 1}")
    flat = torch.as_tensor((idx.reshape(S, -1) + n * owner[:, None]).ravel())
    return T.reshape(Gf * n, -1).index_select(0, flat).reshape(*idx.shape, T.shape[-1])


def meta_train(
    model: SpectralExperts, feats: dict, owner: np.ndarray, table: np.ndarray, base: Sequence[int], n_way: int,
    k_shot: int, n_query: int, steps: int, episodes_per_step: int, lr: float, rng: np.random.Generator,
    opt: Adam | None = None,
) -> np.ndarray:
    """Episodic ProtoNet training (Snell et al. 2017) of the ``G`` parameter sets at once, on base classes.

    Each step draws ``episodes_per_step`` fresh episodes per set from its graph and takes one :class:`Adam`
    step on the sum over sets of their mean episode losses (so the sets train independently).

    Parameters
    ----------
    model : SpectralExperts with G parameter sets
    feats : dict of tensors
        ``XR``, ``XL``, ``XH`` of shape (Gf, n, f) and ``Z`` of shape (Gf, n, gate_in), one row per graph.
    owner : int array, shape (G,)
        The graph of each parameter set.
    table : int array (C, n // C)
    base : the base classes
    steps, episodes_per_step : int >= 1
    lr : float > 0
    opt : Adam, optional
        An optimiser over ``model.parameters()`` to continue with (its moments and step count carry over
        between calls, so training in chunks equals training at once); by default a fresh one.

    Returns
    -------
    np.ndarray, shape (steps, G)
        The mean episode loss of each set at each step.
    """
    steps = _check_int(steps, "steps")
    G = len(model.modes)
    opt = Adam(list(model.parameters()), lr=lr) if opt is None else opt
    N, K = n_way, k_shot
    target = torch.arange(N).repeat_interleave(n_query)
    losses = np.empty((steps, G))
    for t in range(steps):  # optimisation steps: the only Python loop; nodes, episodes and sets are batched
        s, q = sample_episodes(table, base, N, K, n_query, episodes_per_step, rng, batch=G)
        idx = np.concatenate([s, q], axis=-1)  # (G, E, N, K+Q)
        flat = idx.reshape(G, -1)
        emb = model(*(_gather(feats[k], flat, owner) for k in ("XR", "XL", "XH", "Z")))
        emb = emb.reshape(*idx.shape, -1)  # (G, E, N, K+Q, d)
        logits = proto_logits(prototypes(emb[..., :K, :]), emb[..., K:, :].flatten(-3, -2))  # (G, E, N*Q, N)
        per_set = nn.functional.cross_entropy(logits.transpose(1, -1), target.expand(logits.shape[:-1]).transpose(1, -1),
                                              reduction="none").mean(dim=(1, 2))
        opt.zero_grad()
        per_set.sum().backward()
        opt.step()
        losses[t] = per_set.detach().numpy()
    return losses


@torch.no_grad()
def embed_all(model: SpectralExperts, feats: dict, owner: np.ndarray, sets: np.ndarray) -> torch.Tensor:
    """Embeddings of every node of each selected set's graph: shape (len(sets), n, emb_dim)."""
    sets, owner = np.asarray(sets), np.asarray(owner)
    return model(*(feats[k][owner[sets]] for k in ("XR", "XL", "XH", "Z")), sets=sets)


@torch.no_grad()
def episode_accuracy(
    emb: torch.Tensor, support: np.ndarray, query: np.ndarray, calibrate: str | None = None, scale: float = 10.0,
    chunk: int = 100,
) -> np.ndarray:
    """Accuracy of nearest-prototype classification per episode, optionally with cross-set calibration.

    Parameters
    ----------
    emb : tensor, shape (S, n, d)
        Node embeddings of each set's graph.
    support : int array, shape (S, E, N, K)
    query : int array, shape (S, E, N, Q)
    calibrate : None, ``"cal"``, ``"uniform"`` or ``"cl2n"``
        :func:`calibrate_prototypes` with soft or uniform assignments (one iteration), or the naive
        :func:`centre_and_normalise`.
    chunk : int >= 1
        Episodes per batch (bounds the memory; the result does not depend on it).

    Returns
    -------
    np.ndarray, shape (S, E)
        Share of the episode's ``N * Q`` queries classified correctly.
    """
    if calibrate not in (None, "cal", "uniform", "cl2n"):
        raise ValueError(f"calibrate must be None, 'cal', 'uniform' or 'cl2n'; got {calibrate!r}")
    if support.shape[:3] != query.shape[:3] or support.shape[0] != emb.shape[0]:
        raise ValueError("support (S, E, N, K) and query (S, E, N, Q) must share S, E, N with emb's S")
    chunk = _check_int(chunk, "chunk")
    N, Q = query.shape[2], query.shape[3]
    truth = torch.arange(N).repeat_interleave(Q)
    out = []
    for start in range(0, support.shape[1], chunk):  # batches of episodes, to bound the memory
        sup = _gather(emb, support[:, start:start + chunk])
        qry = _gather(emb, query[:, start:start + chunk]).flatten(-3, -2)
        if calibrate is None:
            protos = prototypes(sup)
        elif calibrate == "cl2n":
            protos, qry = centre_and_normalise(sup, qry)
        else:
            protos, qry = calibrate_prototypes(sup, qry, scale=scale, iters=1, uniform=calibrate == "uniform")
        pred = proto_logits(protos, qry).argmax(-1)
        out.append((pred == truth).double().mean(-1).numpy())
    return np.concatenate(out, axis=1)


def average_ranks(a: np.ndarray) -> np.ndarray:
    """Ranks 1..m of a 1-d array, tied values sharing their average rank (``scipy.stats.rankdata``'s default)."""
    a = np.asarray(a)
    if a.ndim != 1:
        raise ValueError(f"a must be 1-d; got shape {a.shape}")
    _, inverse, counts = np.unique(a, return_inverse=True, return_counts=True)
    first = np.cumsum(counts) - counts  # 0-based rank of the first element of each group of ties
    return (first + (counts + 1) / 2.0)[inverse]


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman rank correlation of two 1-d arrays: Pearson correlation of their average ranks (NaN pairs dropped).

    Written with numpy (``scipy.stats``, which gives the same value, takes over a second of CPU to import).
    """
    a, b = np.asarray(a, dtype=np.float64).ravel(), np.asarray(b, dtype=np.float64).ravel()
    if a.shape != b.shape or a.size < 3:
        raise ValueError("a and b must be 1-d arrays of the same length >= 3")
    ok = np.isfinite(a) & np.isfinite(b)
    ra, rb = average_ranks(a[ok]), average_ranks(b[ok])
    ra, rb = ra - ra.mean(), rb - rb.mean()
    den = math.sqrt(float((ra ** 2).sum() * (rb ** 2).sum()))
    return float((ra * rb).sum() / den) if den > 0 else math.nan
