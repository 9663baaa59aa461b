r"""Enhancing Contrastive Learning with Variable Similarity (CLVS).

Paper map
---------
*Enhancing Contrastive Learning with Variable Similarity*, authors not found, NeurIPS 2025,
https://openreview.net/forum?id=oUf6lhK52B (no code found; the loss below is our design from the abstract
and the reproduction brief, not the paper's equation).
Notebook: ``notebooks/clvs-variable-similarity.py``.

Notation (paper / brief -> here):

- augmented view of input :math:`x_i`: ``augment_with_extent(x, gen, ...)[0]`` (``repro.ssl.augment_digits``);
- augmentation extent :math:`e \in [0, 1]` of a view (its strength: shift range and noise level scale with it):
  ``e1``, ``e2``;
- projections :math:`z = g(f(x))` of the two views: ``z1``, ``z2`` (shape (N, d)); temperature :math:`\tau`: ``tau``;
- variable target similarity of a positive pair :math:`s(e_i, e_j) = 1 - \alpha (e_i + e_j)/2`, strictly
  decreasing in each extent: :func:`variable_similarity` (``alpha``: :math:`\alpha \in [0, 1)`);
- soft contrastive target: mass :math:`s` on the positive, :math:`(1-s)/(2N-2)` on each negative:
  :func:`soft_targets`; the CLVS loss (soft NT-Xent, cross-entropy against those targets): :func:`clvs_loss`;
  with :math:`\alpha = 0` it is SimCLR's NT-Xent, :func:`nt_xent` (re-exported from :mod:`repro.ssl`);
- comparators (not the paper's method): the brief's hard-weighting alternative, NT-Xent with each anchor's term
  weighted by :math:`s(e_i, e_j)`: :func:`weighted_nt_xent` (``"NT-Xent weighted"`` in :func:`train_encoder`);
  SimCLR trained on milder views only (``high < 1`` in :func:`train_encoder`); PCA features
  (:class:`PCAEncoder`); the share of a digit's ink the strong setting's occluding square removes:
  :func:`occluded_ink_fraction`.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from numpy.typing import ArrayLike
from torch import Tensor

from repro.ssl import MLPEncoder, augment_digits, linear_probe_accuracy, nt_xent, train_ssl
from repro.validate import check_int, check_positive

__all__ = ["nt_xent", "augment_with_extent", "variable_similarity", "soft_targets", "clvs_loss",
           "weighted_nt_xent", "occluded_ink_fraction", "train_encoder", "positive_cosines", "spearman",
           "probe_accuracy", "PCAEncoder", "METHODS", "OBJECTIVES"]

#: The objectives the page compares in both settings: SimCLR, CLVS, and CLVS with its targets shuffled (ablation).
METHODS = ("SimCLR", "CLVS", "CLVS-shuffled")
#: Every objective :func:`train_encoder` knows: :data:`METHODS` and the extent-weighted NT-Xent (a comparator).
OBJECTIVES = METHODS + ("NT-Xent weighted",)


def augment_with_extent(x: Tensor, gen: torch.Generator, max_shift: int = 2, noise: float = 0.8,
                        low: float = 0.0, high: float = 1.0, erase: int = 0) -> tuple[Tensor, Tensor]:
    """A random view of each image and its augmentation extent.

    The extent of view ``k`` is its strength ``e_k ~ U[low, high]``: the shift range and the noise level of
    :func:`repro.ssl.augment_digits` are multiplied by it, so ``e = 0`` returns the image unchanged. With
    ``erase > 0`` (the page's strong-augmentation setting) a square of side ``round(erase * e_k)`` pixels, at a
    uniform position, is then set to 0: an occlusion that grows with the extent and can remove part of the
    digit (a stand-in for the aggressive crops the paper says distort the content). With ``erase = 0`` no
    further random number is drawn, so the views are those of the default setting.

    Parameters
    ----------
    x : Tensor, shape (n, H, W)
        Images, intensities in about [0, 1].
    gen : torch.Generator
        Source of randomness (strengths first, then the view).
    max_shift : int
        Largest shift (pixels, per axis) at extent 1.
    noise : float
        Standard deviation of the additive Gaussian noise at extent 1.
    low, high : float
        Range of the uniform extents, ``0 <= low <= high <= 1``.
    erase : int
        Side (pixels) of the erased square at extent 1; 0: no erasing.

    Returns
    -------
    (Tensor, Tensor)
        Views, shape (n, H, W), and extents, shape (n,).
    """
    if x.ndim != 3:
        raise ValueError(f"x must have shape (n, H, W); got {tuple(x.shape)}")
    if not 0.0 <= low <= high <= 1.0:
        raise ValueError(f"need 0 <= low <= high <= 1; got low={low}, high={high}")
    n, H, W = x.shape
    erase = check_int(erase, "erase", least=0)
    if erase > min(H, W):
        raise ValueError(f"erase must be at most the image side {min(H, W)}; got {erase}")
    e = low + (high - low) * torch.rand(n, generator=gen, dtype=x.dtype)
    out = augment_digits(x, gen, max_shift=max_shift, noise=noise, erase=0, strength=e)
    if erase > 0:
        side = torch.round(erase * e).long()                                       # (n,) in {0, ..., erase}
        r0 = (torch.rand(n, generator=gen) * (H - side + 1)).floor().long()        # uniform top-left corner
        c0 = (torch.rand(n, generator=gen) * (W - side + 1)).floor().long()
        rr, cc = torch.arange(H)[None], torch.arange(W)[None]
        box = (((rr >= r0[:, None]) & (rr < (r0 + side)[:, None]))[:, :, None]
               & ((cc >= c0[:, None]) & (cc < (c0 + side)[:, None]))[:, None, :])
        out = out.masked_fill(box, 0.0)
    return out, e


def variable_similarity(e_i: Tensor, e_j: Tensor, alpha: float) -> Tensor:
    r"""Target similarity of a positive pair, :math:`s = 1 - \alpha (e_i + e_j) / 2`.

    Strictly decreasing in each extent for :math:`\alpha > 0` (strongly augmented pairs get a lower target than
    weakly augmented ones, the paper's ordering), symmetric, equal to 1 for unaugmented pairs and to SimCLR's
    constant 1 when :math:`\alpha = 0`. Stays in :math:`(0, 1]` for :math:`\alpha < 1`.

    Parameters
    ----------
    e_i, e_j : Tensor, shape (N,)
        Extents in [0, 1] of the two views.
    alpha : float
        Strength of the variation, ``0 <= alpha < 1``.

    Returns
    -------
    Tensor, shape (N,)
    """
    if e_i.shape != e_j.shape or e_i.ndim != 1:
        raise ValueError(f"e_i and e_j must be 1-d of equal length; got {tuple(e_i.shape)}, {tuple(e_j.shape)}")
    if bool(((e_i < 0) | (e_i > 1) | (e_j < 0) | (e_j > 1)).any()):
        raise ValueError("extents must lie in [0, 1]")
    if not 0.0 <= float(alpha) < 1.0:
        raise ValueError(f"alpha must be in [0, 1); got {alpha}")
    return 1.0 - float(alpha) * (e_i + e_j) / 2.0


def soft_targets(s: Tensor) -> Tensor:
    r"""Target distribution of each of the 2N anchors over the other 2N - 1 views.

    Anchor ``k`` of the stacked ``[z1; z2]`` puts mass ``s`` on its positive (``k + N`` mod 2N) and
    :math:`(1 - s)/(2N - 2)` on each of the other 2N - 2 views; zero on itself. Each row sums to 1.

    Parameters
    ----------
    s : Tensor, shape (N,)
        Target similarity of each positive pair (:func:`variable_similarity`), in [0, 1].

    Returns
    -------
    Tensor, shape (2N, 2N)
    """
    if s.ndim != 1 or s.shape[0] < 2:
        raise ValueError(f"s must be 1-d with N >= 2 pairs; got shape {tuple(s.shape)}")
    if bool(((s < 0) | (s > 1)).any()):
        raise ValueError("target similarities must lie in [0, 1]")
    n = s.shape[0]
    s2 = torch.cat([s, s])                                            # (2N,) target of anchor k
    t = ((1.0 - s2) / (2 * n - 2))[:, None].expand(2 * n, 2 * n).clone()
    k = torch.arange(2 * n)
    t[k, k] = 0.0
    t[k, (k + n) % (2 * n)] = s2
    return t


def clvs_loss(z1: Tensor, z2: Tensor, e1: Tensor, e2: Tensor, tau: float, alpha: float) -> Tensor:
    r"""CLVS objective (our design): NT-Xent with soft targets set by the augmentation extent.

    With cosine logits :math:`\ell_{kl} = \cos(z_k, z_l)/\tau` over the 2N stacked views (self excluded),

    .. math:: L = \frac{1}{2N}\sum_{k} \sum_{l \ne k} -t_{kl}\,\log \operatorname{softmax}_{l \ne k}(\ell_{k\cdot})_l,

    with :math:`t` from :func:`soft_targets` (summed row by row, without building the matrix) and
    :math:`s = 1 - \alpha(e_1+e_2)/2`. At :math:`\alpha = 0` this is
    exactly :func:`nt_xent`. Its minimiser drives the softmax probability of the positive to :math:`s`, so a
    strongly augmented pair is pulled together less than a weakly augmented one.

    Parameters
    ----------
    z1, z2 : Tensor, shape (N, d)
        Projections of the two views.
    e1, e2 : Tensor, shape (N,)
        Extents of the views, in [0, 1].
    tau : float
        Temperature, > 0.
    alpha : float
        ``0 <= alpha < 1``.

    Returns
    -------
    Tensor, scalar
    """
    if z1.ndim != 2 or z1.shape != z2.shape or z1.shape[0] < 2:
        raise ValueError(f"z1 and z2 must both have shape (N, d) with N >= 2; got {tuple(z1.shape)}, {tuple(z2.shape)}")
    if e1.shape != (z1.shape[0],):
        raise ValueError(f"e1 and e2 must have shape (N,) = ({z1.shape[0]},); got {tuple(e1.shape)}")
    check_positive(tau, "tau")
    n = z1.shape[0]
    s2 = torch.cat([variable_similarity(e1, e2, alpha)] * 2).to(z1.dtype)    # target of anchor k
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    eye = torch.eye(2 * n, dtype=torch.bool)
    logp = torch.log_softmax((z @ z.T / tau).masked_fill(eye, float("-inf")), dim=1).masked_fill(eye, 0.0)
    k = torch.arange(2 * n)
    pos = logp[k, (k + n) % (2 * n)]                                           # log p of each anchor's positive
    # the targets of soft_targets without building the (2N, 2N) matrix: s on the positive, the rest spread evenly
    return -(s2 * pos + (1.0 - s2) / (2 * n - 2) * (logp.sum(1) - pos)).sum() / (2 * n)


def weighted_nt_xent(z1: Tensor, z2: Tensor, w: Tensor, tau: float) -> Tensor:
    r"""NT-Xent with each positive pair's terms weighted: the brief's hard-weighting alternative to CLVS.

    The reproduction brief lists, beside the soft targets of :func:`clvs_loss`, a "hard-weighting" ablation
    that trusts strongly augmented positives less by down-weighting them instead of lowering their target.
    With the per-anchor NT-Xent terms :math:`\ell_k = -\log p_{kk^+}` of :func:`nt_xent` (SimCLR, Chen et al.
    2020) and a weight :math:`w_{k \bmod N} \ge 0` per positive pair (the page uses
    :math:`w = s(e_i, e_j)` of :func:`variable_similarity`),

    .. math:: L = \sum_k w_{k \bmod N}\,\ell_k \Big/ \sum_k w_{k \bmod N}.

    Each term keeps the one-hot target (a pair is still pulled until it is the most similar), only its share
    of the gradient changes; with constant weights it is exactly :func:`nt_xent`.

    Parameters
    ----------
    z1, z2 : Tensor, shape (N, d)
        Projections of the two views, N >= 2.
    w : Tensor, shape (N,)
        Non-negative weight of each positive pair, not all zero.
    tau : float
        Temperature, > 0.

    Returns
    -------
    Tensor, scalar
    """
    if z1.ndim != 2 or z1.shape != z2.shape or z1.shape[0] < 2:
        raise ValueError(f"z1 and z2 must both have shape (N, d) with N >= 2; got {tuple(z1.shape)}, {tuple(z2.shape)}")
    if w.shape != (z1.shape[0],):
        raise ValueError(f"w must have shape (N,) = ({z1.shape[0]},); got {tuple(w.shape)}")
    if bool((w < 0).any()) or not float(w.sum()) > 0.0:
        raise ValueError("weights must be non-negative and not all zero")
    check_positive(tau, "tau")
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    eye = torch.eye(2 * n, dtype=torch.bool)
    logp = torch.log_softmax((z @ z.T / tau).masked_fill(eye, float("-inf")), dim=1)
    k = torch.arange(2 * n)
    w2 = torch.cat([w, w]).to(z1.dtype)
    return -(w2 * logp[k, (k + n) % (2 * n)]).sum() / w2.sum()


@torch.no_grad()
def occluded_ink_fraction(x: Tensor, gen: torch.Generator, erase: int, low: float = 0.0,
                          high: float = 1.0) -> np.ndarray:
    """Share of each image's ink (sum of intensities) that the occluding square of the strong setting removes.

    Draws the square exactly as :func:`augment_with_extent` does with ``erase`` (side ``round(erase * e)``,
    ``e ~ U[low, high]``), with the shifts and the noise switched off, so that only the occlusion counts:
    ``1 - sum(view) / sum(image)`` per image. How much of the content a strong view really destroys.

    Parameters
    ----------
    x : Tensor, shape (n, H, W)
        Images with non-negative intensities and some ink each.
    gen : torch.Generator
    erase : int
        Side of the square at extent 1 (pixels), >= 1.
    low, high : float
        Range of the extents.

    Returns
    -------
    ndarray, shape (n,), values in [0, 1]
    """
    if x.ndim != 3 or bool((x < 0).any()) or bool((x.sum(dim=(1, 2)) <= 0).any()):
        raise ValueError("x must have shape (n, H, W), non-negative intensities and some ink in every image")
    check_int(erase, "erase", least=1)
    out, _ = augment_with_extent(x, gen, max_shift=0, noise=0.0, low=low, high=high, erase=erase)
    return (1.0 - out.sum(dim=(1, 2)) / x.sum(dim=(1, 2))).numpy().astype(float)


def train_encoder(x: Tensor, method: str, seed: int, *, epochs: int, batch_size: int = 256, lr: float = 1e-3,
                  tau: float = 0.2, alpha: float = 0.5, max_shift: int = 2, noise: float = 0.8, erase: int = 0,
                  low: float = 0.0, high: float = 1.0, hidden: int = 256, rep_dim: int = 64,
                  proj_dim: int = 32) -> tuple[MLPEncoder, list[float]]:
    """Train a fresh :class:`repro.ssl.MLPEncoder` on two random views per image with one of :data:`OBJECTIVES`.

    ``"SimCLR"``: :func:`nt_xent`. ``"CLVS"``: :func:`clvs_loss` with the views' own extents.
    ``"CLVS-shuffled"`` (control): :func:`clvs_loss` with the pair targets permuted across the batch, so the
    targets have the same distribution but no link to how strongly the pair was augmented.
    ``"NT-Xent weighted"`` (comparator): :func:`weighted_nt_xent` with the weights
    :math:`s(e_1, e_2)` of :func:`variable_similarity`. The initial weights, batches and views depend on
    ``seed`` (and on ``low``, ``high``, ``erase``) only, not on the method.

    Parameters
    ----------
    x : Tensor, shape (n, H, W)
        Unlabelled training images.
    method : str
        One of :data:`METHODS`.
    seed : int
        Seeds the initial weights, the batch order and the views.
    epochs, batch_size, lr :
        Budget of :func:`repro.ssl.train_ssl` (Adam).
    tau, alpha : float
        Temperature; CLVS's variation strength.
    max_shift, noise, erase :
        Augmentation at extent 1 (:func:`augment_with_extent`).
    low, high : float
        Range of the training views' extents (default ``[0, 1]``; ``high = 0.5``: SimCLR on milder views).
    hidden, rep_dim, proj_dim : int
        Encoder sizes.

    Returns
    -------
    (MLPEncoder, list of float)
        The trained encoder and its mean loss per epoch.
    """
    if method not in OBJECTIVES:
        raise ValueError(f"method must be one of {OBJECTIVES}; got {method!r}")
    if not 0.0 <= low <= high <= 1.0:
        raise ValueError(f"need 0 <= low <= high <= 1; got low={low}, high={high}")
    seed = check_int(seed, "seed", least=0)
    torch.manual_seed(seed)
    model = MLPEncoder(in_dim=x.shape[1] * x.shape[2], hidden=hidden, rep_dim=rep_dim, proj_dim=proj_dim)

    def batch_loss(idx: Tensor, gen: torch.Generator) -> Tensor:
        xb = x[idx]
        v1, e1 = augment_with_extent(xb, gen, max_shift, noise, low=low, high=high, erase=erase)
        v2, e2 = augment_with_extent(xb, gen, max_shift, noise, low=low, high=high, erase=erase)
        z1, z2 = model(v1)[1], model(v2)[1]
        if method == "SimCLR":
            return nt_xent(z1, z2, tau)
        if method == "NT-Xent weighted":
            return weighted_nt_xent(z1, z2, variable_similarity(e1, e2, alpha), tau)
        if method == "CLVS-shuffled":
            perm = torch.randperm(len(idx), generator=gen)
            e1, e2 = e1[perm], e2[perm]
        return clvs_loss(z1, z2, e1, e2, tau, alpha)

    history = train_ssl(list(model.parameters()), x.shape[0], batch_loss, epochs, batch_size, lr, seed)
    return model, history


@torch.no_grad()
def positive_cosines(model: MLPEncoder | PCAEncoder, x: Tensor, gen: torch.Generator, max_shift: int = 2,
                     noise: float = 0.8, erase: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Cosine similarity of the projections of two random views of each image, and the pair's mean extent.

    Parameters
    ----------
    model : MLPEncoder or PCAEncoder
        Anything that maps images to ``(h, z)``; the cosine is taken on ``z``.
    x : Tensor, shape (n, H, W)
    gen : torch.Generator
        Draws the views (use the same seed for every method to compare them on identical pairs).
    max_shift, noise, erase :
        Augmentation at extent 1 (:func:`augment_with_extent`).

    Returns
    -------
    (ndarray, ndarray), each shape (n,)
        ``cos(z1_i, z2_i)`` and ``(e1_i + e2_i) / 2``.
    """
    v1, e1 = augment_with_extent(x, gen, max_shift, noise, erase=erase)
    v2, e2 = augment_with_extent(x, gen, max_shift, noise, erase=erase)
    cos = F.cosine_similarity(model(v1)[1], model(v2)[1], dim=1)
    return cos.numpy().astype(float), ((e1 + e2) / 2).numpy().astype(float)


def spearman(a: ArrayLike, b: ArrayLike) -> float:
    """Spearman rank correlation of two samples (ties get mean ranks): Pearson correlation of the ranks.

    Parameters
    ----------
    a, b : array_like, shape (n,)

    Returns
    -------
    float in [-1, 1]
    """
    from scipy.stats import rankdata

    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.ndim != 1 or a.shape != b.shape or a.size < 3:
        raise ValueError("a and b must be 1-d of equal length >= 3")
    ra, rb = rankdata(a) - (a.size + 1) / 2, rankdata(b) - (a.size + 1) / 2
    den = float(np.sqrt((ra ** 2).sum() * (rb ** 2).sum()))
    if den == 0.0:
        raise ValueError("a constant sample has no rank correlation")
    return float((ra * rb).sum() / den)


@torch.no_grad()
def probe_accuracy(model: MLPEncoder | PCAEncoder | None, x_train: Tensor, y_train: ArrayLike, x_test: Tensor,
                   y_test: ArrayLike) -> float:
    """Linear-probe test accuracy on the frozen representation ``h = f(x)`` of clean images.

    ``model=None`` probes the raw pixels. Uses :func:`repro.ssl.linear_probe_accuracy` (standardised features,
    multinomial logistic regression, C = 1).

    Returns
    -------
    float in [0, 1]
    """
    if model is None:
        ftr, fte = x_train.reshape(len(x_train), -1), x_test.reshape(len(x_test), -1)
    else:
        ftr, fte = model(x_train)[0], model(x_test)[0]
    return linear_probe_accuracy(ftr.numpy(), y_train, fte.numpy(), y_test)[0]


class PCAEncoder:
    r"""The naive baseline representation: the first ``k`` principal components of the training images.

    Principal component analysis (Pearson 1901; Hotelling 1933): with the training images flattened to rows
    :math:`x_i \in \mathbb R^{HW}`, their mean :math:`\mu` and the right singular vectors :math:`V_k` of the
    centred data belonging to the ``k`` largest singular values, an image maps to :math:`h = (x - \mu) V_k`.
    No label, no augmentation and no gradient step: the representation a skeptic builds first. Called like
    :class:`repro.ssl.MLPEncoder`, it returns ``(h, h)`` (there is no projection head, so the cosine of
    :func:`positive_cosines` is taken on ``h``).

    Parameters
    ----------
    x_train : Tensor, shape (n, H, W)
        Unlabelled training images.
    k : int
        Number of components, ``1 <= k <= min(n, H * W)``.
    """

    def __init__(self, x_train: Tensor, k: int) -> None:
        if x_train.ndim != 3:
            raise ValueError(f"x_train must have shape (n, H, W); got {tuple(x_train.shape)}")
        X = x_train.reshape(x_train.shape[0], -1).double()
        k = check_int(k, "k", least=1)
        if k > min(X.shape):
            raise ValueError(f"k must be at most min(n, H * W) = {min(X.shape)}; got {k}")
        self.mean = X.mean(0)
        _, _, vh = torch.linalg.svd(X - self.mean, full_matrices=False)
        self.components = vh[:k].T                                          # (HW, k)
        self.dtype = x_train.dtype

    def __call__(self, x: Tensor) -> tuple[Tensor, Tensor]:
        """``(h, h)`` for images of shape (n, H, W) or flattened (n, H * W)."""
        h = ((x.reshape(x.shape[0], -1).double() - self.mean) @ self.components).to(self.dtype)
        return h, h
