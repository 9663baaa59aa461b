r"""SPHeRe: a local, Hebbian-style loss with an orthogonality term and a structure-preserving projection.

Paper map
---------
*Rethinking Hebbian Principle: Low-Dimensional Structural Projection for Unsupervised Learning*
(SPHeRe), authors not found, NeurIPS 2025, arXiv `2510.14810 <https://arxiv.org/abs/2510.14810>`_
(official code: github.com/brain-intelligence-lab/SPHeRe, read at commit 7f3414e, file ``main.py``;
the baseline SoftHebb from its ``softhebb.py``). Notebook: ``notebooks/sphere-hebbian.py``.

Notation (paper and official code -> here):

- a block's input :math:`X\in\mathbb R^{B\times d}` (a batch of ``B`` flattened inputs) -> ``x``;
  the block :math:`f_\theta` (conv -> BN -> LeakyReLU(0.2) -> MaxPool(4,2,1)) -> :class:`SPHeReBlock`
  ``.block``; its output :math:`Y=f_\theta(X)`, **detached** before the next stage -> ``y``.
- the auxiliary projection :math:`g_\phi` (1x1 conv to ``C/2`` -> BN -> ReLU -> global average pool ->
  linear to ``P``) -> ``.out_proj``; :math:`Z = g_\phi(Y)\in\mathbb R^{B\times P}` -> ``y_proj``.
- cosine Gram :math:`K(X)_{ij} = \langle x_i, x_j\rangle/(\|x_i\|\|x_j\|)` (official ``normal_kernel``)
  -> :func:`cosine_gram`.
- structural loss :math:`\mathcal L_s = \operatorname{mean}_{ij}(K(X)-K(Z))_{ij}^2` (official
  ``hebb_loss``) -> :func:`structural_loss`; orthogonality loss
  :math:`\mathcal L_o = \operatorname{mean}_{kl}(K(Z^\top)-I_P)_{kl}^2` (official ``ortho_loss``: the
  cosine Gram of the *feature columns* of :math:`Z`) -> :func:`orthogonality_loss`; the block's loss
  :math:`\mathcal L = \mathcal L_s + 0.8\,\mathcal L_o` (official ``cal_loss``) -> :func:`sphere_loss`.
  The paper motivates :math:`\mathcal L_s` from the loss whose gradient flow is Oja's subspace rule,
  :math:`\tfrac14\operatorname{Tr}[(YY^\top-XX^\top)(XX^\top)^{-1}(YY^\top-XX^\top)]`, with the inverse
  dropped and Gram matrices normalised.

Baselines (local rules on the same conv filters :math:`W\in\mathbb R^{C\times k^2}`, acting on the
input patches :math:`p`, with :math:`y = Wp`):

- Oja's subspace rule (Oja 1989) :math:`\Delta W = \eta\,(y p^\top - y y^\top W)` ->
  :func:`oja_subspace_update`; its stable fixed points are orthonormal bases of the top-``C`` principal
  subspace of :math:`\mathbb E[pp^\top]`.
- plain Hebb with weight normalisation :math:`w_c \leftarrow (w_c + \eta\,y_c p)/\|\cdot\|` ->
  :func:`hebb_update`; every unit converges to the top eigenvector (the units collapse).
- SoftHebb (Journe et al., ICLR 2023; official ``softhebb.py``): soft winner-take-all
  :math:`a=\operatorname{softmax}(t\,u)`, anti-Hebbian for the losers,
  :math:`\Delta w_c = a_c(p - u_c w_c)` scaled by its largest entry -> :func:`softhebb_update`, with
  the per-neuron rate :math:`\eta_0\,|\|w_c\|-1|^{1/2}` -> :func:`softhebb_rate`.

Evaluation: a ridge linear probe on frozen features (:func:`ridge_probe`); end-to-end backprop of the
same block (:func:`train_backprop`) is the reference that local rules are not expected to beat.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor, nn

__all__ = [
    "cosine_gram", "structural_loss", "orthogonality_loss", "sphere_loss", "SPHeReBlock", "evaluate_local_loss",
    "train_local", "cosine_lr", "AdamW", "extract_patches", "oja_subspace_update", "hebb_update", "softhebb_update", "softhebb_rate",
    "train_patch_rule", "calibrate_batchnorm", "block_features", "RidgeProbe", "ridge_probe", "probe_accuracy",
    "train_backprop", "load_digits_images", "stratified_split", "principal_subspace_distance", "pca_filters",
    "spherical_kmeans_filters",
]


# --------------------------------------------------------------------------- validation helpers
def _check_batch(x: Tensor, name: str, least: int = 2) -> Tensor:
    if not isinstance(x, Tensor):
        raise ValueError(f"{name} must be a torch.Tensor; got {type(x).__name__}")
    if x.ndim < 2 or x.shape[0] < least:
        raise ValueError(f"{name} must have shape (B, ...) with B >= {least}; got {tuple(x.shape)}")
    if not torch.is_floating_point(x):
        raise ValueError(f"{name} must be floating point; got {x.dtype}")
    return x


def _check_positive_int(v: int, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
        raise ValueError(f"{name} must be a positive int; got {v!r}")
    return int(v)


def _check_weights_patches(W: Tensor, patches: Tensor) -> None:
    if W.ndim != 2 or patches.ndim != 2 or W.shape[1] != patches.shape[1]:
        raise ValueError(f"W must be (C, D) and patches (n, D) with the same D; got {tuple(W.shape)} and "
                         f"{tuple(patches.shape)}")
    if patches.shape[0] < 1:
        raise ValueError("patches must hold at least one row")


# --------------------------------------------------------------------------- the SPHeRe loss
def cosine_gram(x: Tensor) -> Tensor:
    r"""Cosine-similarity Gram matrix of a batch (official ``HebbLayer.normal_kernel``).

    Parameters
    ----------
    x : Tensor, shape (B, ...)
        A batch; each sample is flattened.

    Returns
    -------
    Tensor, shape (B, B)
        :math:`K_{ij} = \langle x_i,x_j\rangle/(\|x_i\|\|x_j\|)`. An all-zero sample is divided by
        :math:`10^{-8}` instead of its zero norm, as in the official code, so its row and column are 0.
    """
    x = _check_batch(x, "x", least=1).reshape(x.shape[0], -1)
    norm = torch.linalg.vector_norm(x, dim=1, keepdim=True)
    norm = torch.where(norm > 0, norm, torch.full_like(norm, 1e-8))
    u = x / norm
    return u @ u.T


def structural_loss(x: Tensor, y_proj: Tensor) -> Tensor:
    r"""Structural-information loss :math:`\mathcal L_s=\operatorname{mean}(K(X)-K(Z))^2` (official ``hebb_loss``).

    Parameters
    ----------
    x : Tensor, shape (B, ...)
        The block's input (the target structure; flattened per sample).
    y_proj : Tensor, shape (B, ...)
        The auxiliary projection of the block's output.

    Returns
    -------
    Tensor, shape ()
        Mean squared difference of the two ``(B, B)`` cosine Gram matrices. Zero when ``y_proj`` is an
        isometry of ``x`` up to per-sample positive scaling (e.g. an orthogonal map of ``x``).
    """
    _check_batch(x, "x")
    _check_batch(y_proj, "y_proj")
    if x.shape[0] != y_proj.shape[0]:
        raise ValueError(f"x and y_proj must hold the same batch; got {x.shape[0]} and {y_proj.shape[0]}")
    return F.mse_loss(cosine_gram(y_proj), cosine_gram(x))


def orthogonality_loss(y_proj: Tensor) -> Tensor:
    r"""Orthogonality loss :math:`\mathcal L_o=\operatorname{mean}(K(Z^\top)-I_P)^2` (official ``ortho_loss``).

    Parameters
    ----------
    y_proj : Tensor, shape (B, P) (or (B, ...), flattened to P features)
        The projection; its ``P`` feature columns (each a vector over the batch) are compared.

    Returns
    -------
    Tensor, shape ()
        Mean squared distance of the ``(P, P)`` cosine Gram of the columns to the identity; zero exactly
        when the nonzero columns are mutually orthogonal and none is zero. Needs ``P <= B`` to reach zero.
    """
    z = _check_batch(y_proj, "y_proj").reshape(y_proj.shape[0], -1)
    g = cosine_gram(z.T)
    return F.mse_loss(g, torch.eye(g.shape[0], dtype=g.dtype, device=g.device))


def sphere_loss(x: Tensor, y_proj: Tensor, ortho_weight: float = 0.8) -> Tensor:
    r"""The SPHeRe block loss :math:`\mathcal L_s + \lambda\,\mathcal L_o` (official ``cal_loss``, :math:`\lambda=0.8`).

    Parameters
    ----------
    x : Tensor, shape (B, ...)
        Block input.
    y_proj : Tensor, shape (B, P)
        Auxiliary projection of the block output.
    ortho_weight : float
        :math:`\lambda >= 0`; 0 gives the ablation without the orthogonality term.

    Returns
    -------
    Tensor, shape ()
    """
    if not (np.isfinite(ortho_weight) and ortho_weight >= 0):
        raise ValueError(f"ortho_weight must be finite and >= 0; got {ortho_weight}")
    return structural_loss(x, y_proj) + ortho_weight * orthogonality_loss(y_proj)


class SPHeReBlock(nn.Module):
    r"""One locally trained block with its auxiliary projection (official ``HebbLayer`` without residual).

    ``block``: Conv2d(in, C, k, padding k//2) -> BatchNorm2d -> LeakyReLU(0.2) -> MaxPool2d(4, 2, 1), so an
    ``H x W`` input gives ``C x H/2 x W/2``. ``out_proj``: Conv2d(C, C//2, 1) -> BatchNorm2d -> ReLU ->
    global average pool -> Linear(C//2, P). The parameter order equals the official layer's.

    Parameters
    ----------
    in_channels, out_channels : int
    kernel_size : int
        Odd conv kernel size.
    proj_dim : int
        ``P``, the projection's output size (official 256).
    ortho_weight : float
        :math:`\lambda` of :func:`sphere_loss` (official 0.8; 0 = ablation).
    use_projection : bool
        False = ablation: the loss is computed on the flattened block output itself, no ``out_proj``.

    ``forward(x)`` returns ``(y.detach(), loss)``: the output carries no gradient to later stages, and
    ``loss`` (a scalar tensor, 0 in eval mode) is the block's local loss on this batch.
    """

    def __init__(self, in_channels: int = 1, out_channels: int = 16, kernel_size: int = 5, proj_dim: int = 32,
                 ortho_weight: float = 0.8, use_projection: bool = True) -> None:
        super().__init__()
        in_channels = _check_positive_int(in_channels, "in_channels")
        out_channels = _check_positive_int(out_channels, "out_channels")
        kernel_size = _check_positive_int(kernel_size, "kernel_size")
        proj_dim = _check_positive_int(proj_dim, "proj_dim")
        if kernel_size % 2 == 0:
            raise ValueError(f"kernel_size must be odd (same padding); got {kernel_size}")
        if out_channels < 2:
            raise ValueError("out_channels must be >= 2 (the projection halves it)")
        if not (np.isfinite(ortho_weight) and ortho_weight >= 0):
            raise ValueError(f"ortho_weight must be finite and >= 0; got {ortho_weight}")
        self.kernel_size, self.ortho_weight, self.use_projection = kernel_size, float(ortho_weight), bool(use_projection)
        self.block = nn.Sequential(nn.Conv2d(in_channels, out_channels, kernel_size, 1, kernel_size // 2),
                                   nn.BatchNorm2d(out_channels), nn.LeakyReLU(0.2), nn.MaxPool2d(4, 2, 1))
        self.out_proj = nn.Sequential(nn.Conv2d(out_channels, out_channels // 2, 1, 1, 0),
                                      nn.BatchNorm2d(out_channels // 2), nn.ReLU(), nn.AdaptiveAvgPool2d((1, 1)),
                                      nn.Flatten(), nn.Linear(out_channels // 2, proj_dim))

    @property
    def conv(self) -> nn.Conv2d:
        """The block's convolution (its filters are what every learning rule learns)."""
        return self.block[0]

    def loss_terms(self, x: Tensor, y: Tensor | None = None) -> tuple[Tensor, Tensor]:
        """``(structural, orthogonality)`` losses of a batch; ``y`` = block output if already computed."""
        y = self.block(x) if y is None else y
        z = self.out_proj(y) if self.use_projection else y.reshape(y.shape[0], -1)
        return structural_loss(x, z), orthogonality_loss(z)

    def forward(self, x: Tensor) -> tuple[Tensor, Tensor]:
        _check_batch(x, "x", least=1)
        y = self.block(x)
        loss = x.new_zeros(())
        if self.training:
            s, o = self.loss_terms(x, y)
            loss = s + self.ortho_weight * o
        return y.detach(), loss


def evaluate_local_loss(block: SPHeReBlock, X: Tensor, batch_size: int) -> tuple[float, float]:
    """Mean ``(structural, orthogonality)`` loss over consecutive batches of ``X`` (N, C, H, W).

    Batch statistics in BatchNorm, as in training; the running statistics are left untouched. A last
    batch smaller than ``batch_size`` is dropped, so that every term is a mean over equal batches.
    """
    batch_size = _check_positive_int(batch_size, "batch_size")
    if X.shape[0] < batch_size:
        raise ValueError(f"X holds {X.shape[0]} samples, fewer than one batch of {batch_size}")
    saved = {k: v.clone() for k, v in block.state_dict().items()}
    was_training = block.training
    block.train()
    s_sum = o_sum = 0.0
    nb = X.shape[0] // batch_size
    with torch.no_grad():
        for i in range(nb):
            s, o = block.loss_terms(X[i * batch_size:(i + 1) * batch_size])
            s_sum, o_sum = s_sum + float(s), o_sum + float(o)
    block.load_state_dict(saved)
    block.train(was_training)
    return s_sum / nb, o_sum / nb


def cosine_lr(lr0: float, epoch: int, epochs: int, eta_min: float = 1e-6) -> float:
    r"""Cosine annealing :math:`\eta_e=\eta_{\min}+(\eta_0-\eta_{\min})(1+\cos(\pi e/T))/2` (``CosineAnnealingLR``, closed form).

    Parameters
    ----------
    lr0 : float
        Initial rate :math:`\eta_0 > 0`.
    epoch, epochs : int
        Current epoch :math:`0 \le e \le T` and :math:`T`.
    eta_min : float
        Final rate.
    """
    if not lr0 > 0 or epochs < 1 or not 0 <= epoch <= epochs:
        raise ValueError(f"need lr0 > 0 and 0 <= epoch <= epochs >= 1; got {lr0}, {epoch}, {epochs}")
    return eta_min + (lr0 - eta_min) * (1 + np.cos(np.pi * epoch / epochs)) / 2


class AdamW:
    r"""AdamW (Loshchilov and Hutter, 2019) with PyTorch's update formula, written out.

    Per step: :math:`\theta \leftarrow \theta(1-\eta\lambda)`; :math:`m \leftarrow \beta_1 m+(1-\beta_1)g`;
    :math:`v \leftarrow \beta_2 v+(1-\beta_2)g^2`;
    :math:`\theta \leftarrow \theta-\eta\,\frac{m/(1-\beta_1^t)}{\sqrt{v}/\sqrt{1-\beta_2^t}+\epsilon}`.
    Same numbers as ``torch.optim.AdamW`` (checked in the tests), without its first-use import of
    ``torch._dynamo`` (about 2.7 s of CPU, a third of this page's budget at ci scale).

    Parameters
    ----------
    params : iterable of Tensor
    lr, weight_decay, betas, eps
        PyTorch's defaults except weight_decay (official SPHeRe: lr 1e-3, weight decay 0.05).
    """

    def __init__(self, params, lr: float = 1e-3, weight_decay: float = 0.05, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8) -> None:
        self.params = [p for p in params if p.requires_grad]
        if not self.params:
            raise ValueError("AdamW needs at least one parameter that requires grad")
        if not lr > 0 or weight_decay < 0 or not (0 <= betas[0] < 1 and 0 <= betas[1] < 1) or not eps > 0:
            raise ValueError(f"bad AdamW settings lr={lr}, weight_decay={weight_decay}, betas={betas}, eps={eps}")
        self.lr, self.weight_decay, self.betas, self.eps = float(lr), float(weight_decay), betas, float(eps)
        self.t = 0
        self.m = [torch.zeros_like(p) for p in self.params]
        self.v = [torch.zeros_like(p) for p in self.params]

    def zero_grad(self) -> None:
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self) -> None:
        self.t += 1
        b1, b2 = self.betas
        bc1, bc2 = 1 - b1 ** self.t, 1 - b2 ** self.t
        for p, m, v in zip(self.params, self.m, self.v):
            if p.grad is None:
                continue
            g = p.grad
            p.mul_(1 - self.lr * self.weight_decay)
            m.lerp_(g, 1 - b1)
            v.mul_(b2).addcmul_(g, g, value=1 - b2)
            denom = (v.sqrt() / (bc2 ** 0.5)).add_(self.eps)
            p.addcdiv_(m, denom, value=-self.lr / bc1)


def train_local(block: SPHeReBlock, X: Tensor, epochs: int, batch_size: int = 128, lr: float = 1e-3,
                weight_decay: float = 0.05, generator: torch.Generator | None = None,
                drop_last: bool = True) -> dict[str, list[float]]:
    """Train a block on its local loss only (official ``main.py`` training, without the classifier).

    AdamW (:class:`AdamW`; official lr 1e-3, weight decay 0.05) with a cosine schedule to 1e-6 over ``epochs``
    (:func:`cosine_lr`, stepped per epoch), as in the official script, on shuffled minibatches. By default the
    last partial batch is dropped (our choice, so that every step sees a batch of the same size); the official
    script's data loader keeps it (``drop_last=False``), a last batch of a single sample excepted here (its
    batch norm would be undefined).

    Parameters
    ----------
    block : SPHeReBlock
    X : Tensor, shape (N, C, H, W)
        Unlabelled training images.
    drop_last : bool
        Drop the last partial batch of each epoch (default), or train on it as the official script does.

    Returns
    -------
    dict
        ``"structural"`` and ``"orthogonality"``: the per-step training values of the two loss terms.
    """
    epochs, batch_size = _check_positive_int(epochs, "epochs"), _check_positive_int(batch_size, "batch_size")
    _check_batch(X, "X")
    if X.shape[0] < batch_size:
        raise ValueError(f"X holds {X.shape[0]} samples, fewer than one batch of {batch_size}")
    opt = AdamW(block.parameters(), lr=lr, weight_decay=weight_decay)
    hist: dict[str, list[float]] = {"structural": [], "orthogonality": []}
    block.train()
    nb = X.shape[0] // batch_size
    if not drop_last and X.shape[0] - nb * batch_size >= 2:
        nb += 1
    for epoch in range(epochs):
        opt.lr = cosine_lr(lr, epoch, epochs)
        perm = torch.randperm(X.shape[0], generator=generator)
        for i in range(nb):
            xb = X[perm[i * batch_size:(i + 1) * batch_size]]
            s, o = block.loss_terms(xb)
            loss = s + block.ortho_weight * o
            opt.zero_grad()
            loss.backward()
            opt.step()
            hist["structural"].append(float(s.detach()))
            hist["orthogonality"].append(float(o.detach()))
    return hist


# --------------------------------------------------------------------------- local baselines on patches
def extract_patches(x: Tensor, kernel_size: int, padding: int = 0, padding_mode: str = "zeros") -> Tensor:
    """All ``k x k`` input patches that a convolution's filters see.

    Parameters
    ----------
    x : Tensor, shape (B, C, H, W)
    kernel_size, padding : int
    padding_mode : {"zeros", "reflect"}

    Returns
    -------
    Tensor, shape (B * L, C * k * k)
        One row per (sample, output position), in ``conv2d``'s weight layout, so that
        ``patches @ W.reshape(C_out, -1).T`` equals ``conv2d(x, W, padding=padding)`` flattened.
    """
    if x.ndim != 4:
        raise ValueError(f"x must be (B, C, H, W); got {tuple(x.shape)}")
    kernel_size = _check_positive_int(kernel_size, "kernel_size")
    if padding < 0:
        raise ValueError(f"padding must be >= 0; got {padding}")
    if padding_mode not in ("zeros", "reflect"):
        raise ValueError(f"padding_mode must be 'zeros' or 'reflect'; got {padding_mode!r}")
    if padding:
        x = F.pad(x, (padding,) * 4, mode="constant" if padding_mode == "zeros" else "reflect")
    if x.shape[2] < kernel_size or x.shape[3] < kernel_size:
        raise ValueError(f"kernel_size {kernel_size} exceeds the (padded) image {tuple(x.shape[2:])}")
    p = F.unfold(x, kernel_size)  # (B, C*k*k, L)
    return p.transpose(1, 2).reshape(-1, p.shape[1])


def oja_subspace_update(W: Tensor, patches: Tensor) -> Tensor:
    r"""Oja's subspace rule, minibatch mean: :math:`\Delta W = \langle y p^\top - y y^\top W\rangle`, :math:`y=Wp`.

    Parameters
    ----------
    W : Tensor, shape (C, D)
        One filter per row.
    patches : Tensor, shape (n, D)

    Returns
    -------
    Tensor, shape (C, D)
        The update direction (multiply by a learning rate). Zero at any orthonormal basis of an invariant
        subspace of the patches' second-moment matrix :math:`S`: :math:`WS - WSW^\top W = 0`.
    """
    _check_weights_patches(W, patches)
    Y = patches @ W.T  # (n, C)
    n = patches.shape[0]
    return (Y.T @ patches - (Y.T @ Y) @ W) / n


def hebb_update(W: Tensor, patches: Tensor, lr: float) -> Tensor:
    r"""Plain Hebbian step with weight normalisation: :math:`w_c \leftarrow (w_c+\eta\langle y_c p\rangle)/\|\cdot\|`.

    Parameters
    ----------
    W : Tensor, shape (C, D)
    patches : Tensor, shape (n, D)
    lr : float
        :math:`\eta > 0`.

    Returns
    -------
    Tensor, shape (C, D)
        The new weights (unit rows). A power iteration on :math:`I+\eta S`: every row tends to
        :math:`\pm` the top eigenvector of :math:`S`, so the units collapse onto one feature.
    """
    _check_weights_patches(W, patches)
    if not lr > 0:
        raise ValueError(f"lr must be > 0; got {lr}")
    Y = patches @ W.T
    W = W + lr * (Y.T @ patches) / patches.shape[0]
    return W / torch.linalg.vector_norm(W, dim=1, keepdim=True).clamp_min(1e-30)


def softhebb_update(W: Tensor, patches: Tensor, t_invert: float) -> Tensor:
    r"""SoftHebb's plastic update (official ``SoftHebbConv2d.forward``), on patches.

    :math:`u = Wp`; :math:`a = \operatorname{softmax}(t\,u)` over the units, negated for every unit but
    the winner :math:`\arg\max u` (anti-Hebbian losers); :math:`\Delta W = \sum a\,p^\top - (\sum a\,u)\,W`,
    summed over patches and divided by its largest absolute entry.

    Parameters
    ----------
    W : Tensor, shape (C, D)
    patches : Tensor, shape (n, D)
    t_invert : float
        Inverse temperature :math:`t > 0` of the soft winner-take-all (official: 1 in the first layer).

    Returns
    -------
    Tensor, shape (C, D)
        The update (ascent direction; the official optimiser adds it with a per-neuron rate).
    """
    _check_weights_patches(W, patches)
    if not t_invert > 0:
        raise ValueError(f"t_invert must be > 0; got {t_invert}")
    u = W @ patches.T  # (C, n)
    a = -torch.softmax(t_invert * u, dim=0)
    win = torch.argmax(u, dim=0)
    cols = torch.arange(u.shape[1])
    a[win, cols] = -a[win, cols]
    delta = a @ patches - (a * u).sum(dim=1, keepdim=True) * W
    return delta / (delta.abs().amax() + 1e-30)


def softhebb_rate(W: Tensor, lr0: float, power: float = 0.5) -> Tensor:
    r"""SoftHebb's per-neuron rate :math:`\eta_0\,(|\|w_c\|-1|+10^{-10})^{p}` (official ``WeightNormDependentLR``).

    Parameters
    ----------
    W : Tensor, shape (C, D)
    lr0 : float
        Base rate (official 0.08 in the first layer).
    power : float
        Exponent :math:`p` (official 0.5).

    Returns
    -------
    Tensor, shape (C, 1)
    """
    if W.ndim != 2:
        raise ValueError(f"W must be (C, D); got {tuple(W.shape)}")
    if not lr0 > 0:
        raise ValueError(f"lr0 must be > 0; got {lr0}")
    return lr0 * ((torch.linalg.vector_norm(W, dim=1, keepdim=True) - 1).abs() + 1e-10) ** power


def train_patch_rule(rule: str, conv: nn.Conv2d, X: Tensor, epochs: int, batch_size: int, lr: float,
                     generator: torch.Generator | None = None, t_invert: float = 1.0) -> None:
    """Learn a conv layer's filters in place with a local rule on its input patches (minibatches of images).

    Parameters
    ----------
    rule : {"oja", "hebb", "softhebb"}
        :func:`oja_subspace_update` (``W += lr * dW``), :func:`hebb_update`, or :func:`softhebb_update`
        with :func:`softhebb_rate` (``lr`` is its base rate).
    conv : nn.Conv2d
        Single-group convolution with odd square kernel and ``padding = k // 2``; its bias is set to 0. The
        patches are padded as the convolution pads (``conv.padding_mode``: ``"zeros"``, or ``"reflect"`` as in
        the official SoftHebb layers), so that the rule learns on the patches the layer sees.
    X : Tensor, shape (N, C, H, W)
    """
    if rule not in ("oja", "hebb", "softhebb"):
        raise ValueError(f"rule must be 'oja', 'hebb' or 'softhebb'; got {rule!r}")
    epochs, batch_size = _check_positive_int(epochs, "epochs"), _check_positive_int(batch_size, "batch_size")
    if not lr > 0:
        raise ValueError(f"lr must be > 0; got {lr}")
    k = conv.kernel_size[0]
    nb = max(X.shape[0] // batch_size, 1)
    with torch.no_grad():
        W = conv.weight.reshape(conv.out_channels, -1).clone()
        for _ in range(epochs):
            perm = torch.randperm(X.shape[0], generator=generator)
            for i in range(nb):
                P = extract_patches(X[perm[i * batch_size:(i + 1) * batch_size]], k, conv.padding[0],
                                    conv.padding_mode)
                if rule == "oja":
                    W = W + lr * oja_subspace_update(W, P)
                elif rule == "hebb":
                    W = hebb_update(W, P, lr)
                else:
                    W = W + softhebb_rate(W, lr) * softhebb_update(W, P, t_invert)
        conv.weight.copy_(W.reshape(conv.weight.shape))
        if conv.bias is not None:
            conv.bias.zero_()


def pca_filters(patches: Tensor, W_init: Tensor) -> Tensor:
    r"""Exact PCA filters: the top principal directions of the (centred) patches, in place of learned filters.

    The naive filter learner a skeptic tries first (no gradient, no iteration): row :math:`c` is the
    eigenvector of the patch covariance :math:`\operatorname{cov}(p)` with the :math:`c`-th largest
    eigenvalue. Oja's subspace rule converges to some orthonormal basis of the same subspace.

    Parameters
    ----------
    patches : Tensor, shape (n, D)
        Input patches (e.g. :func:`extract_patches`), ``n >= 2``.
    W_init : Tensor, shape (C, D)
        The random start; where ``C > D`` only ``D`` principal directions exist, and rows ``D..C-1`` keep
        their values from ``W_init``.

    Returns
    -------
    Tensor, shape (C, D)
        Unit-norm principal directions (sign as returned by ``torch.linalg.eigh``) in the first ``min(C, D)`` rows.
    """
    _check_weights_patches(W_init, patches)
    if patches.shape[0] < 2:
        raise ValueError("patches must hold at least two rows to estimate a covariance")
    P = patches.double() - patches.double().mean(0)
    _, evecs = torch.linalg.eigh(P.T @ P / P.shape[0])
    W = W_init.detach().clone()
    n = min(W.shape[0], W.shape[1])
    W[:n] = evecs[:, -n:].flip(1).T.to(W.dtype)
    return W


def spherical_kmeans_filters(patches: Tensor, k: int, generator: torch.Generator | None = None,
                             iters: int = 15) -> Tensor:
    r"""Spherical k-means centroids of contrast-normalised patches (Coates and Ng style filter learning).

    Each patch is centred (its own mean removed) and scaled to unit norm (:math:`+10^{-3}` in the
    denominator); ``k`` centroids start at ``k`` patches drawn with ``generator``; each iteration assigns
    every patch to the centroid of largest inner product and sets each centroid to the normalised mean of
    its patches (a centroid with no patch is kept).

    Parameters
    ----------
    patches : Tensor, shape (n, D)
        ``n >= k``.
    k : int
        Number of centroids (filters).
    generator : torch.Generator, optional
    iters : int
        Number of assignment/update rounds.

    Returns
    -------
    Tensor, shape (k, D)
        Unit-norm centroids.
    """
    if patches.ndim != 2:
        raise ValueError(f"patches must be (n, D); got {tuple(patches.shape)}")
    k, iters = _check_positive_int(k, "k"), _check_positive_int(iters, "iters")
    if patches.shape[0] < k:
        raise ValueError(f"need at least k={k} patches; got {patches.shape[0]}")
    P = patches - patches.mean(1, keepdim=True)
    P = P / (torch.linalg.vector_norm(P, dim=1, keepdim=True) + 1e-3)
    cent = P[torch.randperm(P.shape[0], generator=generator)[:k]].clone()
    cent = cent / (torch.linalg.vector_norm(cent, dim=1, keepdim=True) + 1e-8)
    for _ in range(iters):
        a = (P @ cent.T).argmax(1)
        counts = torch.bincount(a, minlength=k)
        sums = torch.zeros_like(cent).index_add_(0, a, P)
        cent = torch.where(counts[:, None] > 0, sums, cent)
        cent = cent / (torch.linalg.vector_norm(cent, dim=1, keepdim=True) + 1e-8)
    return cent


# --------------------------------------------------------------------------- evaluation
def calibrate_batchnorm(module: nn.Module, X: Tensor) -> None:
    """Set every BatchNorm's running statistics to those of ``X`` (one full-batch pass), then eval mode."""
    bns = [m for m in module.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    saved = [m.momentum for m in bns]
    for m in bns:
        m.reset_running_stats()
        m.momentum = None  # cumulative average: one pass = the statistics of X
    module.train()
    with torch.no_grad():
        module(X)
    for m, mom in zip(bns, saved):
        m.momentum = mom
    module.eval()


def block_features(block: SPHeReBlock, X: Tensor) -> Tensor:
    """Frozen features of a block: eval-mode output flattened, shape (N, C * H/2 * W/2)."""
    block.eval()
    with torch.no_grad():
        y, _ = block(X)
    return y.reshape(X.shape[0], -1)


def _as_np(a, dtype=None) -> np.ndarray:
    return np.asarray(a.detach().cpu() if isinstance(a, Tensor) else a, dtype=dtype)


class RidgeProbe:
    r"""Linear probe: ridge regression on :math:`\pm1` one-hot targets, argmax decision (as ``RidgeClassifier``).

    ``fit(F, y)`` standardises the features with the training mean and standard deviation (kept, so
    that ``predict`` applies the same map to later features) and solves
    :math:`(\tilde F^\top\tilde F+\alpha I)B=\tilde F^\top(T-\bar T)` in float64; the intercept
    :math:`\bar T` is not penalised. ``predict(F)`` returns labels, shape (m,).

    Parameters
    ----------
    alpha : float
        Ridge penalty :math:`\alpha > 0`.
    """

    def __init__(self, alpha: float = 1.0) -> None:
        if not alpha > 0:
            raise ValueError(f"alpha must be > 0; got {alpha}")
        self.alpha = float(alpha)

    def fit(self, F_train, y_train) -> "RidgeProbe":
        A = _as_np(F_train, np.float64)
        y = _as_np(y_train)
        if A.ndim != 2:
            raise ValueError(f"F_train must be (n, p); got {A.shape}")
        if y.shape != (A.shape[0],):
            raise ValueError(f"y_train must have shape ({A.shape[0]},); got {y.shape}")
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError("y_train must hold at least two classes")
        self.mu_, sd = A.mean(0), A.std(0)
        self.sd_ = np.where(sd > 0, sd, 1.0)
        A = (A - self.mu_) / self.sd_
        Y = np.where(y[:, None] == self.classes_[None, :], 1.0, -1.0)
        self.intercept_ = Y.mean(0)
        self.coef_ = np.linalg.solve(A.T @ A + self.alpha * np.eye(A.shape[1]), A.T @ (Y - self.intercept_))
        return self

    def predict(self, F) -> np.ndarray:
        T = _as_np(F, np.float64)
        if not hasattr(self, "coef_"):
            raise ValueError("fit the probe first")
        if T.ndim != 2 or T.shape[1] != self.coef_.shape[0]:
            raise ValueError(f"features must be (m, {self.coef_.shape[0]}) (same p as in fit); got {T.shape}")
        return self.classes_[np.argmax(((T - self.mu_) / self.sd_) @ self.coef_ + self.intercept_, axis=1)]

    def accuracy(self, F, y) -> float:
        """Fraction of correct predictions, in [0, 1]."""
        pred = self.predict(F)
        y = _as_np(y)
        if y.shape != pred.shape:
            raise ValueError(f"y must have shape {pred.shape}; got {y.shape}")
        return float(np.mean(pred == y))


def ridge_probe(F_train, y_train, F_test, alpha: float = 1.0) -> np.ndarray:
    """Fit a :class:`RidgeProbe` on ``F_train`` (n, p), ``y_train`` (n,) and predict ``F_test`` (m, p): labels (m,)."""
    return RidgeProbe(alpha).fit(F_train, y_train).predict(F_test)


def probe_accuracy(F_train, y_train, F_test, y_test, alpha: float = 1.0) -> float:
    """Test accuracy (fraction in [0, 1]) of a :class:`RidgeProbe` fitted on the training features."""
    return RidgeProbe(alpha).fit(F_train, y_train).accuracy(F_test, y_test)


def train_backprop(block: SPHeReBlock, head: nn.Linear, X: Tensor, y: Tensor, epochs: int, batch_size: int = 128,
                   lr: float = 1e-3, weight_decay: float = 0.05, generator: torch.Generator | None = None) -> list[float]:
    """End-to-end backprop of ``head(flatten(block.block(x)))`` with cross-entropy (official ``--is_bp``).

    Same optimiser and schedule as :func:`train_local`; the auxiliary projection is not used.

    Returns
    -------
    list of float
        Per-step training cross-entropy.
    """
    epochs, batch_size = _check_positive_int(epochs, "epochs"), _check_positive_int(batch_size, "batch_size")
    if X.shape[0] != y.shape[0] or X.shape[0] < batch_size:
        raise ValueError(f"X and y must hold the same number (>= batch_size) of samples; got {X.shape[0]}, {y.shape[0]}")
    opt = AdamW(list(block.block.parameters()) + list(head.parameters()), lr=lr, weight_decay=weight_decay)
    block.train()
    out: list[float] = []
    nb = X.shape[0] // batch_size
    for epoch in range(epochs):
        opt.lr = cosine_lr(lr, epoch, epochs)
        perm = torch.randperm(X.shape[0], generator=generator)
        for i in range(nb):
            idx = perm[i * batch_size:(i + 1) * batch_size]
            loss = F.cross_entropy(head(block.block(X[idx]).flatten(1)), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            out.append(float(loss.detach()))
    return out


# --------------------------------------------------------------------------- data and diagnostics
def load_digits_images() -> tuple[Tensor, Tensor]:
    """scikit-learn's bundled 8x8 digits as images in [0, 1], shape (1797, 1, 8, 8) float32, and labels (1797,).

    Reads the file ``sklearn/datasets/data/digits.csv.gz`` that ``sklearn.datasets.load_digits`` reads (the
    same numbers, checked in the tests) without importing scikit-learn, whose import costs about 2 s of CPU.
    """
    import gzip
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("sklearn")
    if spec is None or not spec.submodule_search_locations:
        raise ValueError("scikit-learn is not installed: its bundled digits file is needed")
    path = Path(list(spec.submodule_search_locations)[0]) / "datasets" / "data" / "digits.csv.gz"
    with gzip.open(path, "rt") as fh:
        data = np.loadtxt(fh, delimiter=",")
    X = torch.tensor(data[:, :-1].reshape(-1, 1, 8, 8) / 16.0, dtype=torch.float32)
    return X, torch.tensor(data[:, -1].astype(np.int64))


def stratified_split(y: Tensor | np.ndarray, test_fraction: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Random train/test index split that keeps every class's share (per class: ``round(n_c * test_fraction)`` to test).

    Parameters
    ----------
    y : int array, shape (n,)
    test_fraction : float in (0, 1)
    rng : numpy.random.Generator

    Returns
    -------
    (train_idx, test_idx) : sorted int arrays that partition ``range(n)``.
    """
    y = _as_np(y)
    if y.ndim != 1 or y.size < 2:
        raise ValueError(f"y must be a 1-D label array with >= 2 entries; got shape {y.shape}")
    if not 0 < test_fraction < 1:
        raise ValueError(f"test_fraction must be in (0, 1); got {test_fraction}")
    test = []
    for c in np.unique(y):
        idx = np.flatnonzero(y == c)
        test.append(rng.permutation(idx)[:int(round(idx.size * test_fraction))])
    test_idx = np.sort(np.concatenate(test))
    return np.setdiff1d(np.arange(y.size), test_idx), test_idx


def principal_subspace_distance(W: Tensor | np.ndarray, V: Tensor | np.ndarray) -> float:
    """Spectral-norm distance between the projectors onto the row spaces of ``W`` (C, D) and ``V`` (C', D).

    0 when the two spans coincide; 1 when some direction of one is orthogonal to the other.
    """
    def proj(M):
        M = np.asarray(M.detach() if isinstance(M, Tensor) else M, dtype=np.float64)
        if M.ndim != 2:
            raise ValueError(f"expected a (C, D) matrix; got {M.shape}")
        Q, _ = np.linalg.qr(M.T)
        return Q @ Q.T
    Pw, Pv = proj(W), proj(V)
    if Pw.shape != Pv.shape:
        raise ValueError("W and V must have the same number of columns D")
    return float(np.linalg.norm(Pw - Pv, 2))

