r"""Incomplete multi-view deep clustering with data imputation and alignment (title not found; catalogue entry).

Paper map
---------
*Incomplete multi-view deep clustering with data imputation and alignment* (our short title: the brief found the
abstract only, not the title or the authors), NeurIPS 2025, no link found. The brief names
github.com/XiaojianDing/2025-NeurIPS-HSACC (HSACC, arXiv 2510.13887) as the nearest official code; it is a
different method (view-specific autoencoders, MMD and contrastive losses, cross-view "dual inference"), read for the
setting's conventions and cross-checked in ``tests/papers/golden/incomplete-multiview-imputation-alignment.json``.
Notebook: ``notebooks/incomplete-multiview-imputation-alignment.py``.

Notation (abstract + reproduction brief -> here):

- $n$ samples, $V$ views, view $v$ has $d_v$ features: ``views[v]`` of shape ``(n, d_v)``.
- Observation pattern $O_v\subseteq\{1..n\}$ (samples whose view $v$ is present): ``mask[:, v]`` (bool, ``(n, V)``).
- Missing rate $\eta$: ``eta`` (each view of each sample missing with probability $\eta$, at least one view kept).
- Shared latent $Z\in\mathbb R^{n\times k}$, one row $z_i$ per sample for all views: ``Z`` (free parameters).
- Decoders $g_v:\mathbb R^k\to\mathbb R^{d_v}$: ``ViewDecoders``; imputation $\hat x_i^v=g_v(z_i)$ for $i\notin O_v$.
- Completed view $\tilde X_v$ (observed rows kept, missing rows imputed): ``completed[v]``.
- Linear alignment $\langle XX^\top, ZZ^\top\rangle_F=\lVert X^\top Z\rVert_F^2$: ``linear_alignment(X, Z)``, computed in
  $O(ndk)$ time and $O(dk)$ extra memory instead of the $O(n^2(d+k))$ of the $n\times n$ similarity matrices.
- Normalised (CKA-style) alignment $\lVert \bar X^\top \bar Z\rVert_F^2/(\lVert \bar X^\top\bar X\rVert_F\lVert \bar Z^\top\bar Z\rVert_F)$
  on centred $\bar X,\bar Z$: ``cka(X, Z)``.
- Weight $\lambda$ of the alignment term: ``lam``; alternation of (a) $Z,g$ updates and (b) imputation refresh: ``fit_imvc``.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import torch
from scipy.fft import dctn
from scipy.optimize import linear_sum_assignment
from sklearn.cluster import KMeans
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score
from torch import nn

ArrayOrTensor = np.ndarray | torch.Tensor


# ----------------------------------------------------------------------------------------------------------- data
def make_multiview_gmm(n: int, dims: Sequence[int] = (20, 30, 40), n_clusters: int = 5, latent_dim: int = 8,
                       noise: float = 0.3, separation: float = 2.0,
                       rng: np.random.Generator | None = None) -> tuple[list[np.ndarray], np.ndarray]:
    """Synthetic multi-view Gaussian mixture (brief, CPU design, ci data).

    A latent $u_i\\sim N(\\mu_{y_i}, I_k)$ with cluster means $\\mu_c\\sim N(0, s^2 I_k)$ is mapped into each view by
    its own random two-layer map $x^v = W_2^v\\tanh(W_1^v u) + \\epsilon$, $\\epsilon\\sim N(0,\\text{noise}^2)$.

    Parameters
    ----------
    n : number of samples.
    dims : feature dimension $d_v$ of each view.
    n_clusters, latent_dim : clusters and dimension $k$ of the generating latent.
    noise : standard deviation of the additive view noise.
    separation : standard deviation $s$ of the cluster means.
    rng : random generator.

    Returns
    -------
    views : list of ``(n, d_v)`` float64 arrays.
    labels : ``(n,)`` int array in ``0..n_clusters-1`` (balanced up to one sample).
    """
    if n < n_clusters or n_clusters < 2 or latent_dim < 1 or not dims or min(dims) < 1:
        raise ValueError("need n >= n_clusters >= 2, latent_dim >= 1 and positive view dimensions")
    if noise < 0 or separation <= 0:
        raise ValueError("noise must be >= 0 and separation > 0")
    rng = np.random.default_rng() if rng is None else rng
    labels = rng.permutation(np.arange(n) % n_clusters)
    means = rng.normal(0.0, separation, (n_clusters, latent_dim))
    u = means[labels] + rng.normal(size=(n, latent_dim))
    views = []
    for d in dims:
        h = 2 * latent_dim
        W1 = rng.normal(size=(latent_dim, h)) / np.sqrt(latent_dim)
        W2 = rng.normal(size=(h, d)) / np.sqrt(h)
        views.append(np.tanh(u @ W1) @ W2 + noise * rng.normal(size=(n, d)))
    return views, labels


def digits_views(n: int | None = None, rng: np.random.Generator | None = None) -> tuple[list[np.ndarray], np.ndarray]:
    """scikit-learn's 8x8 digits as three views (brief, CPU design, full data).

    Views: raw pixels (64), the 4x4 low-frequency block of the orthonormal 2-D DCT-II (16), and the row and column
    intensity profiles (8 + 8 = 16).

    Parameters
    ----------
    n : keep a random subset of ``n`` samples (all 1797 when None).
    rng : random generator for the subset.

    Returns
    -------
    views : ``[(n, 64), (n, 16), (n, 16)]`` float64 arrays; labels : ``(n,)`` ints 0..9.
    """
    from sklearn.datasets import load_digits

    data = load_digits()
    img, y = data.images.astype(float), data.target.astype(int)
    if n is not None:
        if not 10 <= n <= len(y):
            raise ValueError(f"n must lie in [10, {len(y)}]")
        idx = (np.random.default_rng() if rng is None else rng).choice(len(y), n, replace=False)
        img, y = img[idx], y[idx]
    raw = img.reshape(len(y), 64)
    dct = dctn(img, axes=(1, 2), norm="ortho")[:, :4, :4].reshape(len(y), 16)
    prof = np.concatenate([img.sum(2), img.sum(1)], axis=1)
    return [raw, dct, prof], y


def apply_missing_mask(n: int, n_views: int, eta: float, rng: np.random.Generator | None = None) -> np.ndarray:
    """Observation mask: each view of each sample missing with probability ``eta``, at least one view kept.

    Samples that lose every view get one view, chosen uniformly, back (brief, CPU design). The expected share of
    observed entries is $(1-\\eta) + \\eta^V/V$.

    Parameters
    ----------
    n, n_views : samples and views ($V\\ge2$).
    eta : missing rate in ``[0, 1)``.

    Returns
    -------
    mask : ``(n, V)`` bool, True where the view is observed; every row has at least one True.
    """
    if n < 1 or n_views < 2:
        raise ValueError("need n >= 1 and at least two views")
    if not 0.0 <= eta < 1.0:
        raise ValueError("eta must lie in [0, 1)")
    rng = np.random.default_rng() if rng is None else rng
    mask = rng.random((n, n_views)) >= eta
    empty = ~mask.any(1)
    mask[np.flatnonzero(empty), rng.integers(0, n_views, int(empty.sum()))] = True
    return mask


def _check_views_mask(views: Sequence[np.ndarray], mask: np.ndarray) -> tuple[int, int]:
    if len(views) < 2:
        raise ValueError("need at least two views")
    mask = np.asarray(mask)
    n = views[0].shape[0]
    if any(np.ndim(X) != 2 or X.shape[0] != n for X in views):
        raise ValueError("every view must be a 2-D array with the same number of rows")
    if mask.dtype != bool or mask.shape != (n, len(views)):
        raise ValueError(f"mask must be a bool array of shape ({n}, {len(views)})")
    if not mask.any(1).all():
        raise ValueError("every sample needs at least one observed view")
    if not mask.any(0).all():
        raise ValueError("every view needs at least one observed sample")
    return n, len(views)


def scale_views(views: Sequence[np.ndarray], mask: np.ndarray, how: str = "standard",
                fill_missing: bool = True) -> list[np.ndarray]:
    """Scale each feature on its *observed* rows and centre it on their mean; missing rows -> 0 (mean imputation).

    ``how="standard"``: divide by the observed standard deviation (the page's convention). ``how="minmax"``: divide
    by the observed range max - min, the min-max scaling of the HSACC code (whose [0, 1] shift is dropped: a
    per-feature shift changes nothing downstream, the k-means, PCA, decoders with biases and the centred alignment
    are all shift-invariant, and centring keeps zero imputation equal to mean imputation). Features constant on the
    observed rows get unit scale. ``fill_missing=False`` scales the missing rows too (ground truth for imputation).

    Returns
    -------
    list of ``(n, d_v)`` float64 arrays.
    """
    _check_views_mask(views, mask)
    if how not in ("standard", "minmax"):
        raise ValueError(f"unknown scaling {how!r}: 'standard' or 'minmax'")
    out = []
    for v, X in enumerate(views):
        obs = np.asarray(X, float)[mask[:, v]]
        mu = obs.mean(0)
        sd = obs.std(0) if how == "standard" else obs.max(0) - obs.min(0)
        sd[sd < 1e-12] = 1.0
        Xs = (np.asarray(X, float) - mu) / sd
        if fill_missing:
            Xs[~mask[:, v]] = 0.0
        out.append(Xs)
    return out


def standardize_views(views: Sequence[np.ndarray], mask: np.ndarray) -> list[np.ndarray]:
    """Standardise each feature with the mean and standard deviation of its *observed* rows; missing rows -> 0.

    After this, zero imputation and mean imputation coincide. Features constant on the observed rows get unit scale.
    ``scale_views(views, mask, "standard")``.

    Returns
    -------
    list of ``(n, d_v)`` float64 arrays.
    """
    return scale_views(views, mask, "standard")


def lowrank_impute(views: Sequence[np.ndarray], mask: np.ndarray, rank: int, n_iter: int = 100,
                   scaling: str = "standard") -> list[np.ndarray]:
    """Iterative low-rank (hard-impute) completion of the concatenated scaled views: a naive, linear baseline.

    Starts from mean imputation (``scale_views``) and ``n_iter`` times replaces the missing entries by those of the
    best rank-``rank`` approximation (truncated SVD of the column-centred concatenation, through the
    eigenvectors of its Gram matrix, column means added back);
    observed entries are never changed. It is a shared latent per sample with *linear* decoders and no alignment
    (Mazumder, Hastie & Tibshirani 2010, hard-impute; Troyanskaya et al. 2001, SVDimpute).

    Returns
    -------
    V completed ``(n, d_v)`` arrays in the units of ``scale_views(views, mask, scaling)``.
    """
    n, V = _check_views_mask(views, mask)
    Xs = scale_views(views, mask, scaling)
    dims = [X.shape[1] for X in Xs]
    if not 1 <= rank <= min(n, sum(dims)) or n_iter < 0:
        raise ValueError("1 <= rank <= min(n, sum of view widths) and n_iter >= 0 required")
    X = np.concatenate(Xs, axis=1)
    miss = np.concatenate([np.repeat(~mask[:, v:v + 1], d, axis=1) for v, d in enumerate(dims)], axis=1)
    for _ in range(n_iter):
        mu = X.mean(0)
        Xc = X - mu
        _, W = np.linalg.eigh(Xc.T @ Xc)  # right singular vectors of Xc, ascending order
        Wr = W[:, -rank:]
        X = np.where(miss, Xc @ Wr @ Wr.T + mu, X)  # the rank-r truncated SVD of Xc, plus the means
    return np.split(X, np.cumsum(dims)[:-1], axis=1)


def knn_impute(views: Sequence[np.ndarray], mask: np.ndarray, n_neighbors: int = 10,
               scaling: str = "standard") -> list[np.ndarray]:
    """k-nearest-neighbour imputation of the concatenated scaled views: a naive, nonparametric baseline.

    Each missing view of a sample is filled with the mean of that view over the ``n_neighbors`` samples closest to
    it (NaN-aware Euclidean distance on the entries both observe) among those that observe the view: scikit-learn's
    ``KNNImputer`` with its defaults otherwise (uniform weights). Observed entries are never changed. Troyanskaya
    et al. 2001 (KNNimpute).

    Returns
    -------
    V completed ``(n, d_v)`` arrays in the units of ``scale_views(views, mask, scaling)``.
    """
    from sklearn.impute import KNNImputer

    n, V = _check_views_mask(views, mask)
    if n_neighbors < 1:
        raise ValueError("n_neighbors >= 1 required")
    Xs = scale_views(views, mask, scaling)
    dims = [X.shape[1] for X in Xs]
    X = np.concatenate(Xs, axis=1)
    miss = np.concatenate([np.repeat(~mask[:, v:v + 1], d, axis=1) for v, d in enumerate(dims)], axis=1)
    X = np.where(miss, np.nan, X)
    X = KNNImputer(n_neighbors=n_neighbors, keep_empty_features=True).fit_transform(X)
    return np.split(X, np.cumsum(dims)[:-1], axis=1)


# ------------------------------------------------------------------------------------------------------ alignment
def _check_pair(X: ArrayOrTensor, Z: ArrayOrTensor) -> None:
    if X.ndim != 2 or Z.ndim != 2:
        raise ValueError("X and Z must be 2-D (n, d) and (n, k)")
    if X.shape[0] != Z.shape[0]:
        raise ValueError(f"X and Z need the same number of rows, got {X.shape[0]} and {Z.shape[0]}")
    if X.shape[0] == 0:
        raise ValueError("X and Z are empty")


def linear_alignment(X: ArrayOrTensor, Z: ArrayOrTensor):
    """Linear alignment $\\langle XX^\\top, ZZ^\\top\\rangle_F = \\lVert X^\\top Z\\rVert_F^2$ without $n\\times n$ matrices.

    The pairwise similarities of all $n$ samples in the view ($XX^\\top$) and in the latent space ($ZZ^\\top$) are
    compared through their Frobenius inner product; by the cyclic trace identity
    $\\operatorname{tr}(XX^\\top ZZ^\\top) = \\operatorname{tr}((X^\\top Z)(X^\\top Z)^\\top)$ it costs $2ndk$ flops and a
    $d\\times k$ buffer (the abstract's "linear alignment measurement of linear complexity").

    Parameters
    ----------
    X : ``(n, d)`` array or tensor (a view, completed with imputations).
    Z : ``(n, k)`` array or tensor (the shared latents).

    Returns
    -------
    float for NumPy input; a 0-d tensor (differentiable) for torch input.
    """
    _check_pair(X, Z)
    if isinstance(X, torch.Tensor) or isinstance(Z, torch.Tensor):
        return (torch.as_tensor(X).T @ torch.as_tensor(Z)).square().sum()
    return float(np.square(np.asarray(X).T @ np.asarray(Z)).sum())


def linear_alignment_bruteforce(X: ArrayOrTensor, Z: ArrayOrTensor):
    """The same quantity through the $n\\times n$ similarity matrices: $\\sum_{ij}(XX^\\top)_{ij}(ZZ^\\top)_{ij}$.

    $O(n^2(d+k))$ time and $O(n^2)$ memory; the reference for tests and the timing figure.
    """
    _check_pair(X, Z)
    if isinstance(X, torch.Tensor) or isinstance(Z, torch.Tensor):
        X, Z = torch.as_tensor(X), torch.as_tensor(Z)
        return ((X @ X.T) * (Z @ Z.T)).sum()
    X, Z = np.asarray(X), np.asarray(Z)
    return float(((X @ X.T) * (Z @ Z.T)).sum())


def alignment_flops(n: int, d: int, k: int) -> dict[str, int]:
    """Floating-point operations (multiply and add each count 1) of the two ways to compute the alignment.

    linear: $X^\\top Z$ ($2ndk$) and its squared norm ($2dk$). quadratic: $XX^\\top$ ($2n^2d$), $ZZ^\\top$ ($2n^2k$), their
    elementwise product and sum ($2n^2$). Memory: floats of the intermediate buffers ($dk$ against $2n^2$).
    """
    if min(n, d, k) < 1:
        raise ValueError("n, d and k must be positive")
    return dict(linear=2 * n * d * k + 2 * d * k, quadratic=2 * n * n * d + 2 * n * n * k + 2 * n * n,
                linear_memory=d * k, quadratic_memory=2 * n * n)


def cka(X: ArrayOrTensor, Z: ArrayOrTensor, eps: float = 1e-12):
    """Normalised (CKA-style) linear alignment of centred X and Z, in $[0, 1]$ (brief, mechanism).

    $\\mathrm{CKA}(X,Z)=\\lVert\\bar X^\\top\\bar Z\\rVert_F^2/(\\lVert\\bar X^\\top\\bar X\\rVert_F\\,\\lVert\\bar Z^\\top\\bar Z\\rVert_F)$ with
    column-centred $\\bar X,\\bar Z$; every term is a ``linear_alignment``, so the cost stays $O(n(d+k)^2)$. Invariant to
    orthogonal transforms and isotropic scaling of either argument.

    Returns
    -------
    float for NumPy input; a 0-d tensor for torch input.
    """
    _check_pair(X, Z)
    if isinstance(X, torch.Tensor) or isinstance(Z, torch.Tensor):
        X, Z = torch.as_tensor(X), torch.as_tensor(Z)
        Xc, Zc = X - X.mean(0), Z - Z.mean(0)
        den = torch.sqrt(linear_alignment(Xc, Xc) * linear_alignment(Zc, Zc))
        return linear_alignment(Xc, Zc) / (den + eps)
    X, Z = np.asarray(X, float), np.asarray(Z, float)
    Xc, Zc = X - X.mean(0), Z - Z.mean(0)
    den = np.sqrt(linear_alignment(Xc, Xc) * linear_alignment(Zc, Zc))
    return float(linear_alignment(Xc, Zc) / (den + eps))


def view_weights(latents: Sequence[ArrayOrTensor], H: ArrayOrTensor) -> np.ndarray:
    """HSACC's view weights (official ``model.compute_view_value``) in linear time.

    The official code forms three $n\\times n$ matrices to get
    $w_v\\propto\\exp(-[\\mathbf 1^\\top Z_vZ_v^\\top\\mathbf 1 + \\mathbf 1^\\top HH^\\top\\mathbf 1 - 2\\,\\mathbf 1^\\top Z_vH^\\top\\mathbf 1]/n^2)$;
    the bracket is $\\lVert\\mathbf 1^\\top(Z_v-H)\\rVert^2 = $ ``linear_alignment(1, Z_v - H)``, an $O(nk)$ computation.

    Parameters
    ----------
    latents : V arrays ``(n, k)``; H : ``(n, k)`` fused latent.

    Returns
    -------
    ``(V,)`` float64 weights summing to 1.
    """
    H = np.asarray(H, float)
    if len(latents) < 1:
        raise ValueError("need at least one view latent")
    ones = np.ones((H.shape[0], 1))
    w = np.array([np.exp(-linear_alignment(ones, np.asarray(Zv, float) - H) / H.shape[0] ** 2) for Zv in latents])
    return w / w.sum()


# ----------------------------------------------------------------------------------------------------- the model
class ViewDecoders(nn.Module):
    """One decoder per view, $g_v(z)=W_2^v\\,\\mathrm{ReLU}(W_1^{v\\top} z + b_1^v)+b_2^v$ (abstract: latents projected into
    feature spaces by neural networks), batched over views.

    Parameters
    ----------
    latent_dim : $k$; dims : $d_v$ per view; hidden : width $h$ of the hidden layer.

    The V decoders are held as stacked tensors: the first layers side by side, ``W1 (k, V h)``, the second ones as a
    batch ``W2 (V, h, D)`` with $D=\\max_v d_v$ (columns beyond $d_v$ are padding, never read), initialised as
    ``nn.Linear`` does. ``forward_padded(Z)`` maps ``(n, k)`` to
    ``(V, n, D)``; ``forward(Z)`` to a list of ``(n, d_v)`` tensors.
    """

    def __init__(self, latent_dim: int, dims: Sequence[int], hidden: int = 32):
        super().__init__()
        if latent_dim < 1 or hidden < 1 or not dims or min(dims) < 1:
            raise ValueError("latent_dim, hidden and every view dimension must be positive")
        self.dims = [int(d) for d in dims]
        V, D = len(dims), max(dims)

        def uniform(shape, fan_in):
            return nn.Parameter((torch.rand(shape) * 2 - 1) / np.sqrt(fan_in))

        self.hidden = hidden
        self.W1, self.b1 = uniform((latent_dim, V * hidden), latent_dim), uniform((V * hidden,), latent_dim)
        self.W2, self.b2 = uniform((V, hidden, D), hidden), uniform((V, 1, D), hidden)

    def forward_padded(self, Z: torch.Tensor) -> torch.Tensor:
        if Z.ndim != 2 or Z.shape[1] != self.W1.shape[0]:
            raise ValueError(f"Z must have shape (n, {self.W1.shape[0]})")
        H = torch.relu(Z @ self.W1 + self.b1).view(Z.shape[0], len(self.dims), self.hidden).transpose(0, 1)
        return torch.baddbmm(self.b2, H, self.W2)

    def forward(self, Z: torch.Tensor) -> list[torch.Tensor]:
        R = self.forward_padded(Z)
        return [R[v, :, :d] for v, d in enumerate(self.dims)]


def masked_reconstruction_loss(views: Sequence[torch.Tensor], recon: Sequence[torch.Tensor],
                               mask: torch.Tensor) -> torch.Tensor:
    """Mean over views of the mean squared error on observed rows only (brief: $\\sum_v\\sum_{i\\in O_v}\\lVert x_i^v-g_v(z_i)\\rVert^2$,
    normalised per view by $|O_v|\\,d_v$). Missing rows get zero weight, hence zero gradient.

    Parameters
    ----------
    views, recon : V tensors ``(n, d_v)``; mask : ``(n, V)`` bool tensor.
    """
    if len(views) != len(recon) or mask.shape[1] != len(views):
        raise ValueError("views, reconstructions and mask columns must match")
    total = 0.0
    for v, (X, R) in enumerate(zip(views, recon)):
        if X.shape != R.shape:
            raise ValueError(f"view {v}: reconstruction shape {tuple(R.shape)} != {tuple(X.shape)}")
        m = mask[:, v].to(X.dtype)[:, None]
        total = total + (m * (X - R).square()).sum() / (m.sum() * X.shape[1]).clamp_min(1.0)
    return total / len(views)


def pca_scores(X: np.ndarray, k: int) -> np.ndarray:
    """Top-``k`` principal component scores of the column-centred ``X`` ``(n, d)`` (SVD), shape ``(n, k)``."""
    X = np.asarray(X, float)
    if X.ndim != 2 or not 1 <= k <= min(X.shape):
        raise ValueError("X must be 2-D and 1 <= k <= min(n, d)")
    Xc = X - X.mean(0)
    U, s, _ = np.linalg.svd(Xc, full_matrices=False)
    return U[:, :k] * s[:k]


def fit_imvc(views: Sequence[np.ndarray], mask: np.ndarray, latent_dim: int, lam: float = 1.0, n_outer: int = 4,
             n_inner: int = 25, lr: float = 1e-2, hidden: int = 32, z_decay: float = 0.1, seed: int = 0, scaling: str = "standard") -> dict:
    """Incomplete multi-view clustering by a shared latent, decoder imputation and linear alignment (brief, mechanism).

    Views are standardised on their observed rows (``standardize_views``; ``scaling="minmax"``: min-max scaled,
    ``scale_views``); $Z$ starts from the PCA scores of the
    zero-filled concatenation, scaled to unit variance, and $\\tilde X_v$ from zero (= mean) imputation. Then
    ``n_outer`` times: (a) ``n_inner`` full-batch Adam steps on $Z$ and the decoders with the imputations fixed,
    minimising
    $\\mathcal L = \\frac1V\\sum_v \\mathrm{MSE}_{O_v}(X_v, g_v(Z)) - \\lambda\\,\\frac1V\\sum_v \\mathrm{CKA}(\\tilde X_v, Z)
    + \\mu\\,\\tfrac1{nk}\\lVert Z\\rVert_F^2$ (the last term, a Gaussian prior on the free latents, is ours);
    (b) refresh $\\tilde X_v[i] = g_v(z_i)$ for $i\\notin O_v$. ``lam=0`` is the ablation without alignment.
    The alignment terms are computed as in ``cka``, in $O(n\\sum_v d_v k)$ per step, with the constant
    $\\lVert\\bar{\\tilde X}_v^\\top\\bar{\\tilde X}_v\\rVert_F$ computed once per outer iteration.

    Returns
    -------
    dict with ``Z`` ``(n, k)`` (numpy), ``completed`` (V standardised views with imputations), ``decoders``
    (``ViewDecoders``), ``standardized`` (views with zeros where missing), ``history`` (loss per outer iteration).
    """
    n, V = _check_views_mask(views, mask)
    if latent_dim < 1 or n_outer < 1 or n_inner < 1 or lr <= 0 or lam < 0 or z_decay < 0:
        raise ValueError("latent_dim, n_outer, n_inner, lr must be positive and lam, z_decay >= 0")
    torch.manual_seed(seed)
    Xs = scale_views(views, mask, scaling)
    Xt = [torch.tensor(X, dtype=torch.float32) for X in Xs]
    M = torch.tensor(mask)
    dims = [X.shape[1] for X in Xs]
    Z0 = pca_scores(np.concatenate(Xs, axis=1), latent_dim)
    Z = nn.Parameter(torch.tensor(Z0 / Z0.std(), dtype=torch.float32))
    dec = ViewDecoders(latent_dim, dims, hidden)
    opt = torch.optim.Adam([Z, *dec.parameters()], lr=lr)
    completed = [X.clone() for X in Xt]
    seg = torch.repeat_interleave(torch.arange(V), torch.tensor(dims))
    sel = (seg[None, :] == torch.arange(V)[:, None]).float()  # (V, sum d_v): which features belong to which view
    D = max(dims)
    Xpad = torch.zeros(V, n, D)
    Wpad = torch.zeros(V, n, D)  # weight of each padded entry in the reconstruction loss (0 where missing or padding)
    for v, d in enumerate(dims):
        Xpad[v, :, :d] = Xt[v]
        Wpad[v, :, :d] = M[:, v:v + 1].float() / (float(mask[:, v].sum()) * d * V)
    history = []
    for _ in range(n_outer):
        Xc = torch.cat([C - C.mean(0) for C in completed], dim=1)  # (n, sum d_v), fixed within (a)
        xnorm = torch.stack([linear_alignment(Xc[:, seg == v], Xc[:, seg == v]).sqrt() for v in range(V)])
        for _ in range(n_inner):
            opt.zero_grad()
            loss = (Wpad * (Xpad - dec.forward_padded(Z)).square()).sum() + z_decay * Z.square().mean()
            if lam > 0:
                Zc = Z - Z.mean(0)
                num = sel @ (Xc.T @ Zc).square().sum(1)  # (V,): ||X~_v^T Z||_F^2 of each centred view
                loss = loss - lam * (num / (xnorm * linear_alignment(Zc, Zc).sqrt() + 1e-12)).mean()
            loss.backward()
            opt.step()
        history.append(float(loss.detach()))
        with torch.no_grad():
            rec = dec(Z)
            completed = [torch.where(M[:, v:v + 1], Xt[v], rec[v]) for v in range(V)]
    return dict(Z=Z.detach().numpy().astype(float), completed=[C.numpy().astype(float) for C in completed],
                decoders=dec, standardized=Xs, history=history)


def decode_views(decoders: ViewDecoders, Z: np.ndarray) -> list[np.ndarray]:
    """$g_v(Z)$ for every view, as float64 arrays ``(n, d_v)``."""
    with torch.no_grad():
        return [R.numpy().astype(float) for R in decoders(torch.tensor(np.asarray(Z), dtype=torch.float32))]


def imputation_rmse(truth: Sequence[np.ndarray], imputed: Sequence[np.ndarray], mask: np.ndarray) -> float:
    """Root mean squared error over the *missing* entries of all views (standardised units).

    Parameters
    ----------
    truth, imputed : V arrays ``(n, d_v)``; mask : ``(n, V)`` bool (True = observed).
    """
    _check_views_mask(truth, mask)
    if len(imputed) != len(truth) or any(a.shape != b.shape for a, b in zip(truth, imputed)):
        raise ValueError("imputed views must match the true views in number and shape")
    se = sum(float(np.square(T[~mask[:, v]] - I[~mask[:, v]]).sum()) for v, (T, I) in enumerate(zip(truth, imputed)))
    cnt = sum(int((~mask[:, v]).sum()) * T.shape[1] for v, T in enumerate(truth))
    if cnt == 0:
        raise ValueError("no missing entries")
    return float(np.sqrt(se / cnt))


# --------------------------------------------------------------------------------------------------- evaluation
def _check_labels(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.ndim != 1 or y_true.shape != y_pred.shape or y_true.size == 0:
        raise ValueError("y_true and y_pred must be non-empty 1-D arrays of the same length")
    if not (np.issubdtype(y_true.dtype, np.integer) and np.issubdtype(y_pred.dtype, np.integer)):
        raise ValueError("labels must be integers")
    return y_true, y_pred


def cluster_acc(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Clustering accuracy: the share of samples correctly labelled under the best one-to-one map from clusters to
    classes (Hungarian algorithm, ``scipy.optimize.linear_sum_assignment`` on the contingency table).

    Parameters
    ----------
    y_true, y_pred : ``(n,)`` integer labels (any values; the cluster count may differ from the class count).
    """
    y_true, y_pred = _check_labels(y_true, y_pred)
    _, t = np.unique(y_true, return_inverse=True)
    _, p = np.unique(y_pred, return_inverse=True)
    C = np.zeros((p.max() + 1, t.max() + 1))
    np.add.at(C, (p, t), 1)
    r, c = linear_sum_assignment(-C)
    return float(C[r, c].sum() / len(t))


def clustering_scores(y_true: np.ndarray, y_pred: np.ndarray) -> dict[str, float]:
    """ACC (``cluster_acc``), NMI (arithmetic normalisation) and ARI (scikit-learn)."""
    y_true, y_pred = _check_labels(y_true, y_pred)
    return dict(acc=cluster_acc(y_true, y_pred), nmi=float(normalized_mutual_info_score(y_true, y_pred)),
                ari=float(adjusted_rand_score(y_true, y_pred)))


def kmeans_labels(F: np.ndarray, n_clusters: int, seed: int = 0, n_init: int = 10) -> np.ndarray:
    """scikit-learn k-means (k-means++, ``n_init`` restarts) on the rows of ``F`` ``(n, p)``; labels ``(n,)``."""
    F = np.asarray(F, float)
    if F.ndim != 2 or not 2 <= n_clusters <= F.shape[0]:
        raise ValueError("F must be 2-D with at least n_clusters >= 2 rows")
    return KMeans(n_clusters, n_init=n_init, random_state=seed).fit_predict(F)


def baseline_features(views: Sequence[np.ndarray], mask: np.ndarray, kind: str, n_components: int = 8,
                      scaling: str = "standard") -> list[np.ndarray]:
    """Features of the standard baselines of incomplete multi-view clustering, for k-means.

    kind:
      ``"mean-concat"`` -> ``[concatenation of the mean-imputed standardised views]``;
      ``"zero-pca"`` -> ``[PCA scores (n_components) of the zero-filled concatenation]`` (the same zero fill after
      standardisation, then a linear projection);
      ``"single"`` -> one mean-imputed standardised view per entry (for the best single view);
      ``"lowrank"`` -> ``[concatenation of the views completed by lowrank_impute(rank=n_components)]``.
    ``scaling="minmax"``: the views are min-max scaled instead of standardised (``scale_views``).
    """
    if kind == "lowrank":
        return [np.concatenate(lowrank_impute(views, mask, n_components, scaling=scaling), axis=1)]
    Xs = scale_views(views, mask, scaling)
    if kind == "mean-concat":
        return [np.concatenate(Xs, axis=1)]
    if kind == "zero-pca":
        return [pca_scores(np.concatenate(Xs, axis=1), n_components)]
    if kind == "single":
        return Xs
    raise ValueError(f"unknown baseline kind {kind!r}")
