r"""Bridging Symmetry and Robustness: On the Role of Equivariance in Enhancing Adversarial Robustness.

Paper map
---------
*Bridging Symmetry and Robustness: On the Role of Equivariance in Enhancing Adversarial Robustness*,
L. Wang, I. I. Uddin, KC Santosh, C. Zhang, X. Qin, Y. Zhou, NeurIPS 2025 (spotlight),
https://openreview.net/forum?id=xDxskDUvte (arXiv 2510.16171; no official code found).
Notebook: ``notebooks/equivariant-adv-robustness.py``.

Notation (paper -> here):

- group :math:`G = C_4` (rotations by multiples of 90 degrees), :math:`r \in \{0,1,2,3\}` -> the group axis
  (dimension 2) of a feature map of shape (batch, channels, 4, H, W);
- lifting convolution :math:`[f \star \psi](r, x) = \sum_y f(y)\, \psi(\rho_r^{-1}(y - x))` ->
  :class:`C4LiftingConv` (the kernel rotated by ``torch.rot90``, exact for 90 degrees);
- group convolution :math:`[F \star \Psi](r, x) = \sum_{s} \sum_y F(s, y)\, \Psi(s - r, \rho_r^{-1}(y - x))`
  -> :class:`C4GroupConv`;
- group pooling (max over :math:`r`) and global spatial pooling -> rotation-invariant features
  (:class:`C4InvariantCNN`);
- scale-equivariant convolution: one kernel at dilations 1 and 2, max over scale -> :class:`ScaleConv2d`;
- parallel design (standard branch :math:`\|` equivariant branches, fused by concatenation) ->
  :class:`ParallelEquivCNN`; cascaded design (equivariant layers, then standard ones) -> :class:`CascadedEquivCNN`;
  both take ``equivariant=False`` for the ablation (plain convolutions of similar size in place of the
  symmetric ones);
- naive baselines (none of the paper's ideas): a standard CNN trained with Gaussian-noise or 90-degree-rotation
  augmentation -> :func:`noise_augment`, :func:`rot90_augment`;
- FGSM and PGD under an :math:`L_\infty` budget :math:`\epsilon` -> :func:`fgsm`, :func:`pgd`;
- class margin :math:`g(x) = f_y(x) - \max_{j\ne y} f_j(x)` -> :func:`margin`; CLEVER score
  :math:`g(x_0) / \max_{x \in B_\infty(x_0, \epsilon)} \|\nabla g(x)\|_1` estimated by sampling (no extreme-value
  fit) -> :func:`clever_lite`.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor, nn

from repro.optim import Adam
from repro.validate import check_int, check_positive

__all__ = ["digits_images", "rot90", "C4LiftingConv", "C4GroupConv", "ScaleConv2d", "StandardCNN",
           "C4InvariantCNN", "ParallelEquivCNN", "CascadedEquivCNN", "n_parameters", "noise_augment",
           "rot90_augment", "train_classifier",
           "accuracy", "margin", "fgsm", "pgd", "input_gradient_norm", "clever_lite"]


def digits_images(size: int, seed: int, n_train: int = 1200) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """scikit-learn's 8x8 digits, bilinearly upsampled to ``size`` x ``size``, in [0, 1], split at random.

    Parameters
    ----------
    size : int
        Side of the output images (>= 8).
    seed : int
        Seeds the train/test split (numpy ``default_rng``).
    n_train : int
        Training images; the rest of the 1797 are the test split.

    Returns
    -------
    (X_train, y_train, X_test, y_test) : Tensors, X of shape (n, 1, size, size) float32, y int64.
    """
    size = check_int(size, "size", least=8)
    n_train = check_int(n_train, "n_train", least=1)
    images, target = _digits_arrays()
    if n_train >= len(target):
        raise ValueError(f"n_train must be below {len(target)}")
    X = torch.tensor(images / 16.0, dtype=torch.float32)[:, None]
    X = F.interpolate(X, size=(size, size), mode="bilinear", align_corners=False).clamp(0, 1)
    y = torch.tensor(target, dtype=torch.int64)
    perm = torch.as_tensor(np.random.default_rng(int(seed)).permutation(len(y)))
    tr, te = perm[:n_train], perm[n_train:]
    return X[tr], y[tr], X[te], y[te]


def _digits_arrays() -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's digits file read directly: the arrays of ``load_digits()`` (images (1797, 8, 8), target).

    Reading the packaged CSV spares the import of scikit-learn and SciPy (about a second of a ci run);
    a unit test checks that the arrays equal ``load_digits()``'s.
    """
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("sklearn")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("scikit-learn is needed for its bundled digits data")
    data = np.loadtxt(Path(spec.submodule_search_locations[0]) / "datasets" / "data" / "digits.csv.gz",
                      delimiter=",")
    return data[:, :-1].reshape(-1, 8, 8), data[:, -1].astype(int)


def rot90(x: Tensor, k: int = 1) -> Tensor:
    """Rotate images (or feature maps) by ``k`` x 90 degrees in the last two axes (counter-clockwise)."""
    return torch.rot90(x, int(k), dims=(-2, -1))


def _check_odd(kernel_size: int) -> int:
    k = check_int(kernel_size, "kernel_size", least=1)
    if k % 2 == 0:
        raise ValueError("kernel_size must be odd (so that 'same' padding keeps the 90-degree symmetry)")
    return k


class C4LiftingConv(nn.Module):
    r"""Lifting convolution :math:`\mathbb Z^2 \to C_4 \times \mathbb Z^2`: one kernel, applied rotated four times.

    Output ``[:, :, r]`` is the cross-correlation with the kernel rotated by ``r`` x 90 degrees. Rotating the
    input by 90 degrees rotates every output map and shifts the group axis by one (exactly).

    Parameters
    ----------
    in_channels, out_channels, kernel_size : int
        ``kernel_size`` odd; stride 1 and zero padding ``kernel_size // 2``.

    Shapes: (B, in_channels, H, W) -> (B, out_channels, 4, H, W).
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int = 3) -> None:
        super().__init__()
        k = _check_odd(kernel_size)
        self.weight = nn.Parameter(torch.empty(check_int(out_channels, "out_channels", least=1),
                                               check_int(in_channels, "in_channels", least=1), k, k))
        self.bias = nn.Parameter(torch.zeros(out_channels))
        nn.init.kaiming_uniform_(self.weight, a=5 ** 0.5)

    def forward(self, x: Tensor) -> Tensor:
        if x.ndim != 4:
            raise ValueError(f"expected (B, C, H, W); got {tuple(x.shape)}")
        w = torch.cat([rot90(self.weight, r) for r in range(4)])                       # (4 * out, in, k, k)
        y = F.conv2d(x, w, padding=self.weight.shape[-1] // 2)                         # (B, 4 * out, H, W)
        y = y.view(x.shape[0], 4, -1, *y.shape[-2:]).transpose(1, 2)                   # (B, out, 4, H, W)
        return y + self.bias[None, :, None, None, None]


class C4GroupConv(nn.Module):
    r"""Group convolution on :math:`C_4 \times \mathbb Z^2`.

    :math:`\text{out}_r = \sum_s \text{in}_s \star \rho_r \Psi_{(s - r) \bmod 4}`: for output rotation ``r`` the
    kernel is rotated by ``r`` x 90 degrees and its group axis cyclically shifted by ``r``. Rotating the input
    (spatially, with the group axis shifted by one) does the same to the output, exactly.

    Parameters
    ----------
    in_channels, out_channels, kernel_size : int

    Shapes: (B, in_channels, 4, H, W) -> (B, out_channels, 4, H, W).
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int = 3) -> None:
        super().__init__()
        k = _check_odd(kernel_size)
        self.weight = nn.Parameter(torch.empty(check_int(out_channels, "out_channels", least=1),
                                               check_int(in_channels, "in_channels", least=1), 4, k, k))
        self.bias = nn.Parameter(torch.zeros(out_channels))
        nn.init.kaiming_uniform_(self.weight.view(out_channels, in_channels * 4, k, k), a=5 ** 0.5)

    def forward(self, x: Tensor) -> Tensor:
        if x.ndim != 5 or x.shape[2] != 4:
            raise ValueError(f"expected (B, C, 4, H, W); got {tuple(x.shape)}")
        B, C, _, H, W = x.shape
        o, _, _, k, _ = self.weight.shape
        w = torch.cat([rot90(torch.roll(self.weight, r, dims=2), r).reshape(o, C * 4, k, k) for r in range(4)])
        y = F.conv2d(x.reshape(B, C * 4, H, W), w, padding=k // 2)                     # (B, 4 * out, H, W)
        y = y.view(B, 4, o, H, W).transpose(1, 2)
        return y + self.bias[None, :, None, None, None]


class ScaleConv2d(nn.Module):
    """Scale-equivariant convolution (approximate): one kernel at dilations 1 and 2, max over the scales.

    Dilating a kernel by 2 matches the same pattern at twice the size, so the max over the two dilations
    responds to a pattern at either scale with the same weights (equivariance holds up to sampling).

    Parameters
    ----------
    in_channels, out_channels, kernel_size : int
    dilations : tuple of int
        Scales at which the shared kernel is applied (padding keeps the size).

    Shapes: (B, in_channels, H, W) -> (B, out_channels, H, W).
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int = 3,
                 dilations: tuple[int, ...] = (1, 2)) -> None:
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, _check_odd(kernel_size), bias=True)
        if not dilations or any(int(d) < 1 for d in dilations):
            raise ValueError("dilations must be a non-empty tuple of integers >= 1")
        self.dilations = tuple(int(d) for d in dilations)

    def forward(self, x: Tensor) -> Tensor:
        k = self.conv.kernel_size[0]
        outs = [F.conv2d(x, self.conv.weight, self.conv.bias, padding=d * (k // 2), dilation=d) for d in self.dilations]
        return torch.stack(outs).amax(0)


def _standard_branch(width: int) -> nn.Sequential:
    """conv(1 -> w) ReLU conv(w -> 2w) ReLU maxpool2 conv(2w -> 2w) ReLU, global mean: 2w features."""
    return nn.Sequential(nn.Conv2d(1, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
                         nn.Conv2d(width, 2 * width, 3, padding=1), nn.BatchNorm2d(2 * width), nn.ReLU(),
                         nn.MaxPool2d(2), nn.Conv2d(2 * width, 2 * width, 3, padding=1), nn.BatchNorm2d(2 * width),
                         nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())


class _C4Branch(nn.Module):
    """lift(1 -> w) ReLU gconv(w -> w) ReLU maxpool2 gconv(w -> w) ReLU, spatial mean, max over C4: w features."""

    def __init__(self, width: int) -> None:
        super().__init__()
        self.lift, self.g1, self.g2 = C4LiftingConv(1, width), C4GroupConv(width, width), C4GroupConv(width, width)
        # batch norm over (batch, rotation, space) per channel: the same affine map for every rotation
        self.n0, self.n1, self.n2 = nn.BatchNorm3d(width), nn.BatchNorm3d(width), nn.BatchNorm3d(width)

    def forward(self, x: Tensor) -> Tensor:
        h = F.relu(self.n1(self.g1(F.relu(self.n0(self.lift(x))))))
        B, C, G, H, W = h.shape
        h = F.max_pool2d(h.reshape(B, C * G, H, W), 2).reshape(B, C, G, H // 2, W // 2)
        h = F.relu(self.n2(self.g2(h)))
        return h.mean(dim=(-2, -1)).amax(dim=2)                                        # (B, w)


class _ScaleBranch(nn.Module):
    """ScaleConv(1 -> w) ReLU maxpool2 ScaleConv(w -> w) ReLU, global mean: w features (plain convs if off)."""

    def __init__(self, width: int, equivariant: bool = True) -> None:
        super().__init__()
        dil = (1, 2) if equivariant else (1,)
        self.c1, self.c2 = ScaleConv2d(1, width, dilations=dil), ScaleConv2d(width, width, dilations=dil)
        self.n1, self.n2 = nn.BatchNorm2d(width), nn.BatchNorm2d(width)

    def forward(self, x: Tensor) -> Tensor:
        h = F.max_pool2d(F.relu(self.n1(self.c1(x))), 2)
        return F.relu(self.n2(self.c2(h))).mean(dim=(-2, -1))


class StandardCNN(nn.Module):
    """Baseline: three 3x3 convolutions (widths w, 2w, 2w) with batch norm, one 2x2 max-pool, global mean, linear.

    Parameters
    ----------
    n_classes, width : int

    Shapes: (B, 1, H, W) with even H, W -> (B, n_classes) logits.
    """

    def __init__(self, n_classes: int = 10, width: int = 12) -> None:
        super().__init__()
        width = check_int(width, "width", least=1)
        self.features = _standard_branch(width)
        self.head = nn.Linear(2 * width, check_int(n_classes, "n_classes", least=2))

    def forward(self, x: Tensor) -> Tensor:
        return self.head(self.features(x))


class C4InvariantCNN(nn.Module):
    """Rotation-invariant CNN: C4 lifting conv, two C4 group convs (batch norm shared over rotations), spatial
    mean, max over the group, linear.

    Every layer commutes with 90-degree rotations (odd kernels with zero 'same' padding, 2x2 max-pooling on
    even sides), and the pooling over space and group removes the rotation, so the logits are unchanged,
    up to float rounding, when the input is rotated by any multiple of 90 degrees.

    Parameters
    ----------
    n_classes : int
        Number of classes (default 10).
    width : int
        Channels per group element.

    Shapes: (B, 1, H, W) with H == W even -> (B, n_classes) logits.
    """

    def __init__(self, n_classes: int = 10, width: int = 8) -> None:
        super().__init__()
        self.branch = _C4Branch(check_int(width, "width", least=1))
        self.head = nn.Linear(width, check_int(n_classes, "n_classes", least=2))

    def forward(self, x: Tensor) -> Tensor:
        if x.ndim != 4 or x.shape[-1] != x.shape[-2] or x.shape[-1] % 2:
            raise ValueError(f"expected (B, C, H, W) with H == W even; got {tuple(x.shape)}")
        return self.head(self.branch(x))


class ParallelEquivCNN(nn.Module):
    """Parallel design: a standard branch, a C4 (rotation) branch and a scale branch side by side, concatenated.

    ``equivariant=False`` is the ablation: the C4 branch is replaced by a standard branch of first width
    ``width // 2`` (a similar number of parameters, see :func:`n_parameters`), and the scale branch uses
    dilation 1 only (the same weights, no max over scales).

    Parameters
    ----------
    n_classes, width : int
        ``width``: channels of the standard branch's first layer; the C4 branch has ``width // 2`` channels
        per group element, the scale branch ``width``.
    equivariant : bool

    Shapes: (B, 1, H, W) -> (B, n_classes).
    """

    def __init__(self, n_classes: int = 10, width: int = 8, equivariant: bool = True) -> None:
        super().__init__()
        width = check_int(width, "width", least=2)
        self.std = _standard_branch(width)
        if equivariant:
            self.rot, n_rot = _C4Branch(width // 2), width // 2
        else:
            self.rot, n_rot = _standard_branch(width // 2), width
        self.scale = _ScaleBranch(width, equivariant)
        self.head = nn.Linear(2 * width + n_rot + width, check_int(n_classes, "n_classes", least=2))

    def forward(self, x: Tensor) -> Tensor:
        return self.head(torch.cat([self.std(x), self.rot(x), self.scale(x)], dim=1))


class CascadedEquivCNN(nn.Module):
    """Cascaded design: C4 lifting and group conv, pooled over the group, then a scale conv and a standard conv.

    ``equivariant=False`` is the ablation: the lifting and group convolutions are replaced by plain 3x3
    convolutions ``1 -> 4w -> w`` (the group conv's ``4w`` input channels kept, so a similar number of
    parameters), there is no maximum over rotations, and the scale conv uses dilation 1 only (the same weights,
    no maximum over scales). Everything after the first two layers is the same.

    Parameters
    ----------
    n_classes, width : int
    equivariant : bool

    Shapes: (B, 1, H, W) with H == W even -> (B, n_classes).
    """

    def __init__(self, n_classes: int = 10, width: int = 8, equivariant: bool = True) -> None:
        super().__init__()
        width = check_int(width, "width", least=1)
        self.equivariant = bool(equivariant)
        if self.equivariant:
            self.lift, self.g1 = C4LiftingConv(1, width), C4GroupConv(width, width)
            self.n0, self.n1 = nn.BatchNorm3d(width), nn.BatchNorm3d(width)
        else:
            self.lift, self.g1 = nn.Conv2d(1, 4 * width, 3, padding=1), nn.Conv2d(4 * width, width, 3, padding=1)
            self.n0, self.n1 = nn.BatchNorm2d(4 * width), nn.BatchNorm2d(width)
        self.scale = ScaleConv2d(width, 2 * width, dilations=(1, 2) if self.equivariant else (1,))
        self.conv = nn.Conv2d(2 * width, 2 * width, 3, padding=1)
        self.n2, self.n3 = nn.BatchNorm2d(2 * width), nn.BatchNorm2d(2 * width)
        self.head = nn.Linear(2 * width, check_int(n_classes, "n_classes", least=2))

    def forward(self, x: Tensor) -> Tensor:
        h = F.relu(self.n1(self.g1(F.relu(self.n0(self.lift(x))))))
        if self.equivariant:
            h = h.amax(dim=2)                                                          # (B, w, H, W)
        h = F.max_pool2d(F.relu(self.n2(self.scale(h))), 2)
        return self.head(F.relu(self.n3(self.conv(h))).mean(dim=(-2, -1)))


def n_parameters(model: nn.Module) -> int:
    """Number of trainable scalars."""
    return int(sum(p.numel() for p in model.parameters() if p.requires_grad))


def noise_augment(sigma: float):
    """Gaussian-noise augmentation (a naive robustness baseline): ``x + sigma * N(0, 1)``, clipped to [0, 1].

    Returns a callable ``(X, gen) -> X`` for :func:`train_classifier`'s ``augment``.
    """
    sigma = check_positive(sigma, "sigma")

    def augment(X: Tensor, gen: torch.Generator) -> Tensor:
        return (X + sigma * torch.randn(X.shape, generator=gen)).clamp(0, 1)
    return augment


def rot90_augment(X: Tensor, gen: torch.Generator) -> Tensor:
    """Rotation augmentation (the augmentation-based alternative to rotation equivariance): each image rotated
    by a multiple of 90 degrees drawn uniformly. ``(X, gen) -> X`` for :func:`train_classifier`'s ``augment``."""
    k = torch.randint(0, 4, (X.shape[0],), generator=gen)
    out = X.clone()
    for r in range(1, 4):
        sel = k == r
        if bool(sel.any()):
            out[sel] = rot90(X[sel], r)
    return out


def train_classifier(model: nn.Module, X: Tensor, y: Tensor, epochs: int, seed: int, batch_size: int = 64,
                     lr: float = 1e-2, augment=None) -> list[float]:
    """Mini-batch Adam on cross-entropy (no adversarial examples; no augmentation unless ``augment`` is given).

    Batch-norm statistics are re-estimated with the final weights after training; the model is returned in
    evaluation mode.

    Parameters
    ----------
    model : nn.Module
    X : Tensor, shape (n, 1, H, W); y : Tensor, shape (n,)
    epochs, seed, batch_size : int
    lr : float
    augment : callable ``(X_batch, gen) -> X_batch``, optional
        Applied to every training batch (:func:`noise_augment`, :func:`rot90_augment`), drawing from its own
        generator (seeded ``seed + 1``), so the batch order is the same with or without it. Batch-norm
        statistics are re-estimated on the un-augmented images.

    Returns
    -------
    list of float: mean training loss per epoch.
    """
    epochs = check_int(epochs, "epochs", least=1)
    batch_size = check_int(batch_size, "batch_size", least=1)
    if X.shape[0] != y.shape[0]:
        raise ValueError("X and y must have the same length")
    opt = Adam(list(model.parameters()), lr=check_positive(lr, "lr"))
    gen = torch.Generator().manual_seed(int(seed))
    aug_gen = torch.Generator().manual_seed(int(seed) + 1)
    if augment is not None and not callable(augment):
        raise TypeError("augment must be a callable (X_batch, gen) -> X_batch")
    hist = []
    model.train()
    for _ in range(epochs):
        perm = torch.randperm(X.shape[0], generator=gen)
        losses = []
        for s in range(0, X.shape[0], batch_size):
            idx = perm[s:s + batch_size]
            opt.zero_grad()
            Xb = X[idx] if augment is None else augment(X[idx], aug_gen)
            loss = F.cross_entropy(model(Xb), y[idx])
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
        hist.append(float(np.mean(losses)))
    _recalibrate_batch_norm(model, X, batch_size)
    model.eval()
    return hist


@torch.no_grad()
def _recalibrate_batch_norm(model: nn.Module, X: Tensor, batch_size: int) -> None:
    """Replace the batch-norm running statistics by their exact average over one pass of ``X`` (final weights).

    The running averages collected during a short training run lag behind the weights; re-estimating them
    with the final weights (cumulative average, ``momentum=None``) makes evaluation mode match training mode.
    """
    bns = [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    if not bns:
        return
    saved = [m.momentum for m in bns]
    for m in bns:
        m.reset_running_stats()
        m.momentum = None
    model.train()
    for s in range(0, X.shape[0], batch_size):
        model(X[s:s + batch_size])
    for m, mom in zip(bns, saved):
        m.momentum = mom


@torch.no_grad()
def accuracy(model: nn.Module, X: Tensor, y: Tensor) -> float:
    """Fraction of ``X`` classified as ``y``."""
    return float((model(X).argmax(1) == y).float().mean())


def _check_attack(X: Tensor, y: Tensor, eps: float) -> None:
    if X.ndim != 4 or y.ndim != 1 or X.shape[0] != y.shape[0]:
        raise ValueError("X must be (n, C, H, W) and y (n,) of the same length")
    if not eps >= 0:
        raise ValueError(f"eps must be >= 0; got {eps}")


def _loss_grad(model: nn.Module, X: Tensor, y: Tensor) -> Tensor:
    X = X.detach().requires_grad_(True)
    loss = F.cross_entropy(model(X), y, reduction="sum")
    (g,) = torch.autograd.grad(loss, X)
    return g


def fgsm(model: nn.Module, X: Tensor, y: Tensor, eps: float) -> Tensor:
    r"""Fast gradient sign method (Goodfellow et al., 2015): :math:`x + \epsilon\,\mathrm{sign}\nabla_x \ell`, in [0, 1].

    Parameters
    ----------
    model : nn.Module
    X : Tensor, shape (n, C, H, W), values in [0, 1]; y : Tensor, shape (n,)
    eps : float
        :math:`L_\infty` budget.
    """
    _check_attack(X, y, eps)
    return (X + eps * _loss_grad(model, X, y).sign()).clamp(0, 1).detach()


def pgd(model: nn.Module, X: Tensor, y: Tensor, eps: float, alpha: float, steps: int, gen: torch.Generator,
        rand_init: bool = True) -> Tensor:
    r"""Projected gradient descent (Madry et al., 2018) on the cross-entropy, :math:`L_\infty` ball, in [0, 1].

    ``steps`` sign-gradient steps of size ``alpha``, each followed by projection onto
    :math:`\{x' : \|x' - x\|_\infty \le \epsilon,\ 0 \le x' \le 1\}`; optional uniform random start.

    Parameters
    ----------
    model : nn.Module
    X, y : Tensors, shapes (n, C, H, W), (n,)
    eps, alpha : float
    steps : int
    gen : torch.Generator
        Draws the random start.
    rand_init : bool
    """
    _check_attack(X, y, eps)
    steps = check_int(steps, "steps", least=1)
    Xa = X.clone()
    if rand_init and eps > 0:
        Xa = (X + (torch.rand(X.shape, generator=gen) * 2 - 1) * eps).clamp(0, 1)
    for _ in range(steps):
        Xa = Xa + alpha * _loss_grad(model, Xa, y).sign()
        Xa = torch.minimum(torch.maximum(Xa, X - eps), X + eps).clamp(0, 1).detach()
    return Xa


def margin(logits: Tensor, y: Tensor) -> Tensor:
    r"""Class margin :math:`g = f_y - \max_{j \ne y} f_j` per row (> 0 iff correctly classified). Shape (n,)."""
    if logits.ndim != 2 or y.shape != (logits.shape[0],):
        raise ValueError("logits must be (n, K) and y (n,)")
    true = logits.gather(1, y[:, None])[:, 0]
    other = logits.masked_fill(F.one_hot(y, logits.shape[1]).bool(), float("-inf")).amax(1)
    return true - other


def input_gradient_norm(model: nn.Module, X: Tensor, y: Tensor, p: float = 1.0) -> Tensor:
    r""":math:`\|\nabla_x g(x)\|_p` of the class margin at each input (p = 1 is the dual of :math:`L_\infty`). Shape (n,)."""
    Xg = X.detach().requires_grad_(True)
    (g,) = torch.autograd.grad(margin(model(Xg), y).sum(), Xg)
    return g.flatten(1).norm(p=p, dim=1)


def clever_lite(model: nn.Module, X: Tensor, y: Tensor, eps: float, n_samples: int, gen: torch.Generator) -> Tensor:
    r"""CLEVER-style robustness score for :math:`L_\infty`, without the extreme-value fit.

    :math:`\hat L = \max_j \|\nabla g(x_j)\|_1` over ``n_samples`` points drawn uniformly in the
    :math:`L_\infty` ball of radius ``eps`` (clipped to [0, 1]) plus the centre; the score is
    :math:`g(x_0) / \hat L`, a first-order estimate of the smallest :math:`L_\infty` perturbation that flips the
    prediction (Weng et al., 2018). Negative for misclassified inputs.

    Parameters
    ----------
    model : nn.Module
    X, y : Tensors, shapes (n, C, H, W), (n,)
    eps : float
    n_samples : int
    gen : torch.Generator

    Returns
    -------
    (scores, lipschitz) : Tensors of shape (n,).
    """
    _check_attack(X, y, eps)
    n_samples = check_int(n_samples, "n_samples", least=1)
    with torch.no_grad():
        g0 = margin(model(X), y)
    L = input_gradient_norm(model, X, y)
    for _ in range(n_samples):
        Xs = (X + (torch.rand(X.shape, generator=gen) * 2 - 1) * eps).clamp(0, 1)
        L = torch.maximum(L, input_gradient_norm(model, Xs, y))
    return g0 / L, L
