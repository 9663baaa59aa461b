r"""Self-supervised learning at CPU scale: views of digits, a small encoder, contrastive losses, a linear probe.

The pages of the part "Representation learning" change one self-supervised objective each; a fair comparison
trains every method with the same encoder, augmentations, budget and probe. This module is that common part.

* Views: :func:`augment_digits` makes a randomly shifted, noisy, partly erased copy of a batch of small
  grey-scale images (scikit-learn's 8x8 digits), with per-image strengths that the caller can record (CLVS
  needs the augmentation extent).
* Encoder: :class:`MLPEncoder`, an MLP with a projection head, as in SimCLR (Chen et al., 2020): the
  representation :math:`h = f(x)` is probed; the projection :math:`z = g(h)` enters the loss.
* Losses, with :math:`s_{ij} = \cos(z_i, z_j) / \tau`:

  - :func:`info_nce` (van den Oord et al., 2018): match row :math:`i` of ``z1`` to row :math:`i` of ``z2`` among all
    rows of ``z2``, :math:`\ell = \frac{1}{N}\sum_i -\log \frac{e^{s(z1_i, z2_i)}}{\sum_k e^{s(z1_i, z2_k)}}`;
  - :func:`nt_xent` (SimCLR's NT-Xent): the same over the :math:`2N` views, each anchor against the other
    :math:`2N - 1`, averaged over the :math:`2N` anchors.
* Training: :func:`train_ssl`, mini-batch Adam on any per-batch loss.
* Evaluation: :func:`linear_probe_accuracy` (multinomial logistic regression on frozen features, scikit-learn)
  and :func:`group_accuracies` (accuracy per group, for worst-group claims); :func:`covariance_spectrum`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import torch
import torch.nn.functional as F
from numpy.typing import ArrayLike
from torch import Tensor, nn

from repro.optim import Adam
from repro.validate import check_int, check_positive


def augment_digits(x: Tensor, gen: torch.Generator, max_shift: int = 1, noise: float = 0.1,
                   erase: int = 0, strength: Tensor | None = None) -> Tensor:
    """A random view of each image: integer shift (zero fill), additive Gaussian noise, an erased square.

    Parameters
    ----------
    x : Tensor, shape (n, H, W)
        Images, intensities in about [0, 1].
    gen : torch.Generator
        Source of randomness (the view is a function of ``x``, ``gen``'s state and the settings).
    max_shift : int
        Shifts are uniform in ``{-max_shift, ..., max_shift}`` per axis.
    noise : float
        Standard deviation of the added noise (at strength 1).
    erase : int
        Side of a square set to 0 at a uniform position (0: no erasing).
    strength : Tensor, shape (n,), optional
        Per-image multiplier in [0, 1] of the shift range and noise level (an image with strength 0 is
        returned unchanged when ``erase == 0``). Default: all ones.

    Returns
    -------
    Tensor, shape (n, H, W)
    """
    if x.ndim != 3:
        raise ValueError(f"x must have shape (n, H, W); got {tuple(x.shape)}")
    n, H, W = x.shape
    max_shift = check_int(max_shift, "max_shift", least=0)
    erase = check_int(erase, "erase", least=0)
    if noise < 0 or erase > min(H, W):
        raise ValueError("need noise >= 0 and erase <= the image side")
    s = torch.ones(n, dtype=x.dtype) if strength is None else strength.to(x.dtype)
    if s.shape != (n,) or bool(((s < 0) | (s > 1)).any()):
        raise ValueError("strength must have shape (n,) with values in [0, 1]")
    out = x
    if max_shift > 0:
        u = torch.rand(n, 2, generator=gen, dtype=x.dtype) * 2 - 1                 # uniform in [-1, 1)
        shift = torch.round(u * (max_shift * s[:, None] + 0.5 - 1e-6)).long().clamp(-max_shift, max_shift)
        rows = torch.arange(H)[None, :] - shift[:, :1]                               # (n, H) source row
        cols = torch.arange(W)[None, :] - shift[:, 1:]
        ok = ((rows >= 0) & (rows < H))[:, :, None] & ((cols >= 0) & (cols < W))[:, None, :]
        gathered = x[torch.arange(n)[:, None, None], rows.clamp(0, H - 1)[:, :, None], cols.clamp(0, W - 1)[:, None, :]]
        out = torch.where(ok, gathered, torch.zeros((), dtype=x.dtype))
    if noise > 0:
        out = out + noise * s[:, None, None] * torch.randn(n, H, W, generator=gen, dtype=x.dtype)
    if erase > 0:
        r0 = torch.randint(0, H - erase + 1, (n,), generator=gen)
        c0 = torch.randint(0, W - erase + 1, (n,), generator=gen)
        rr, cc = torch.arange(H), torch.arange(W)
        box = (((rr[None] >= r0[:, None]) & (rr[None] < (r0 + erase)[:, None]))[:, :, None]
               & ((cc[None] >= c0[:, None]) & (cc[None] < (c0 + erase)[:, None]))[:, None, :])
        out = out.masked_fill(box, 0.0)
    return out


class MLPEncoder(nn.Module):
    """Encoder ``f`` (MLP with ReLU) and projection head ``g`` (one hidden layer), as in SimCLR.

    Parameters
    ----------
    in_dim : int
        Flattened input size (64 for 8x8 digits).
    hidden : int
        Width of the encoder's hidden layer.
    rep_dim : int
        Size of the representation ``h`` (what the probe sees).
    proj_dim : int
        Size of the projection ``z`` (what the loss sees).
    """

    def __init__(self, in_dim: int = 64, hidden: int = 256, rep_dim: int = 64, proj_dim: int = 32) -> None:
        super().__init__()
        for name, v in (("in_dim", in_dim), ("hidden", hidden), ("rep_dim", rep_dim), ("proj_dim", proj_dim)):
            check_int(v, name, least=1)
        self.encoder = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, rep_dim))
        self.projector = nn.Sequential(nn.ReLU(), nn.Linear(rep_dim, rep_dim), nn.ReLU(), nn.Linear(rep_dim, proj_dim))

    def forward(self, x: Tensor) -> tuple[Tensor, Tensor]:
        """``(h, z)`` for inputs of shape (n, in_dim) or (n, H, W) (flattened)."""
        h = self.encoder(x.reshape(x.shape[0], -1))
        return h, self.projector(h)


def _check_pair(z1: Tensor, z2: Tensor, tau: float) -> None:
    if z1.ndim != 2 or z1.shape != z2.shape or z1.shape[0] < 2:
        raise ValueError(f"z1 and z2 must both have shape (N, d) with N >= 2; got {tuple(z1.shape)}, {tuple(z2.shape)}")
    check_positive(tau, "tau")


def info_nce(z1: Tensor, z2: Tensor, tau: float) -> Tensor:
    """InfoNCE: cross-entropy of matching row i of ``z1`` to row i of ``z2`` among all rows of ``z2``.

    Similarities are cosines divided by ``tau``; the result is averaged over the N rows (one direction only).

    Parameters
    ----------
    z1, z2 : Tensor, shape (N, d)
    tau : float
        Temperature, > 0.
    """
    _check_pair(z1, z2, tau)
    logits = F.normalize(z1, dim=1) @ F.normalize(z2, dim=1).T / tau
    return F.cross_entropy(logits, torch.arange(z1.shape[0]))


def nt_xent(z1: Tensor, z2: Tensor, tau: float) -> Tensor:
    """NT-Xent (SimCLR): normalised-temperature cross-entropy over the 2N views, averaged over the 2N anchors.

    View ``k`` of the stacked ``[z1; z2]`` has its positive at ``k + N`` (mod 2N); the other 2N - 2 views are
    its negatives; a view is never compared with itself.

    Parameters
    ----------
    z1, z2 : Tensor, shape (N, d)
        Projections of the two views of the same N inputs.
    tau : float
        Temperature, > 0.
    """
    _check_pair(z1, z2, tau)
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    logits = (z @ z.T / tau).masked_fill(torch.eye(2 * n, dtype=torch.bool), float("-inf"))
    target = torch.cat([torch.arange(n, 2 * n), torch.arange(n)])
    return F.cross_entropy(logits, target)


def train_ssl(params: Sequence[Tensor], n: int, batch_loss: Callable[[Tensor, torch.Generator], Tensor],
              epochs: int, batch_size: int, lr: float, seed: int) -> list[float]:
    """Mini-batch Adam on ``batch_loss`` over ``epochs`` passes of a random permutation of ``range(n)``.

    Parameters
    ----------
    params : sequence of Tensor
        The trainable tensors.
    n : int
        Number of training examples.
    batch_loss : callable
        ``batch_loss(indices, gen) -> scalar loss`` for a batch of example indices; ``gen`` draws the views.
    epochs, batch_size : int
        Passes over the data; batch size (the last, smaller batch of an epoch is dropped if it has < 2 items).
    lr : float
        Adam's step size.
    seed : int
        Seeds the permutation and the generator passed to ``batch_loss``.

    Returns
    -------
    list of float
        The mean loss of each epoch.
    """
    n = check_int(n, "n", least=2)
    epochs = check_int(epochs, "epochs", least=1)
    batch_size = check_int(batch_size, "batch_size", least=2)
    opt = Adam(params, lr=check_positive(lr, "lr"))
    gen = torch.Generator().manual_seed(int(seed))
    history = []
    for _ in range(epochs):
        perm = torch.randperm(n, generator=gen)
        losses = []
        for start in range(0, n, batch_size):
            idx = perm[start:start + batch_size]
            if len(idx) < 2:
                continue
            opt.zero_grad()
            loss = batch_loss(idx, gen)
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
        history.append(float(np.mean(losses)))
    return history


def linear_probe_accuracy(train_features: ArrayLike, train_labels: ArrayLike, test_features: ArrayLike,
                          test_labels: ArrayLike, C: float = 1.0) -> tuple[float, np.ndarray]:
    """Accuracy of a multinomial logistic-regression probe on frozen, standardised features.

    Parameters
    ----------
    train_features, test_features : array_like, shape (n, d)
    train_labels, test_labels : array_like, shape (n,)
    C : float
        Inverse L2 strength of scikit-learn's ``LogisticRegression`` (lbfgs).

    Returns
    -------
    (float, ndarray)
        Test accuracy and the predicted test labels.
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    Xtr, Xte = np.asarray(train_features, dtype=float), np.asarray(test_features, dtype=float)
    if Xtr.ndim != 2 or Xte.ndim != 2 or Xtr.shape[1] != Xte.shape[1]:
        raise ValueError("features must be 2-d arrays with the same number of columns")
    probe = make_pipeline(StandardScaler(), LogisticRegression(C=check_positive(C, "C"), max_iter=2000))
    probe.fit(Xtr, np.asarray(train_labels))
    pred = probe.predict(Xte)
    return float(np.mean(pred == np.asarray(test_labels))), pred


def group_accuracies(pred: ArrayLike, labels: ArrayLike, groups: ArrayLike) -> dict:
    """Accuracy within each group (e.g. label x spurious attribute): ``{group: accuracy}``; ``min`` is worst-group."""
    p, y, g = np.asarray(pred), np.asarray(labels), np.asarray(groups)
    if not (p.shape == y.shape == g.shape) or p.ndim != 1:
        raise ValueError("pred, labels and groups must be 1-d arrays of the same length")
    return {k.item() if hasattr(k, "item") else k: float(np.mean(p[g == k] == y[g == k])) for k in np.unique(g)}


def covariance_spectrum(features: Tensor | ArrayLike) -> np.ndarray:
    """Eigenvalues of the features' covariance matrix, largest first (clipped at 0).

    Parameters
    ----------
    features : array_like, shape (n, d)
    """
    X = np.asarray(features.detach() if isinstance(features, Tensor) else features, dtype=float)
    if X.ndim != 2 or X.shape[0] < 2:
        raise ValueError("features must have shape (n, d) with n >= 2")
    ev = np.linalg.eigvalsh(np.cov(X, rowvar=False).reshape(X.shape[1], X.shape[1]))
    return np.clip(ev[::-1], 0.0, None)
