r"""Model Inversion with Layer-Specific Modeling and Alignment for Data-Free Continual Learning (PMI), in miniature.

Paper map
---------
*Model Inversion with Layer-Specific Modeling and Alignment for Data-Free Continual Learning*,
Ruilin Tong, Haodong Lu, Yuhang Liu, Dong Gong, NeurIPS 2025,
https://openreview.net/forum?id=yruGxKsZyH (arXiv 2510.26311). No official code was found.
Notebook: ``notebooks/pmi-datafree-cl.py``.

Notation (paper -> here):

- network :math:`f = g \circ \phi`, feature extractor :math:`\phi` (here the hidden ReLU layers of an MLP, see
  :class:`MLP`), classifier head :math:`g` (``model.head``);
- layer :math:`l`: weights :math:`W_l` (``weights[l]``, shape (out, in)), bias :math:`b_l` (``biases[l]``);
- class-wise feature model :math:`\mathcal N(\mu_c, \Sigma_c)` -> ``stats[c] = (mean, cov)``
  (:func:`fit_class_gaussians`), samples :math:`f \sim \mathcal N(\mu_c, \Sigma_c)` -> :func:`sample_class_features`;
- per-layer model inversion (PMI): from the top down, :math:`h_{l} = \arg\min_h \|\sigma(W_l h + b_l) - h_{l+1}\|^2
  + \lambda\|h\|^2` -> :func:`invert_layer`, :func:`per_layer_inversion`; for a stack of invertible linear
  layers without activation the problem is a chain of linear solves -> :func:`invert_per_layer`;
- full-model inversion :math:`\min_x \mathrm{CE}(f(x), c) + \beta\|\phi(x) - f\|^2 + \gamma\|x\|^2`
  -> :func:`inversion_loss`, :func:`full_inversion`;
- accuracy matrix :math:`A_{ij}` and its summaries: :mod:`repro.continual` (not re-implemented here).

All inversions are batched: the synthetic samples of every class are one tensor optimised together (Adam acts
coordinate-wise and the loss is a sum over samples, so each sample follows its own trajectory).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np
import torch
import torch.nn.functional as F
from numpy.typing import ArrayLike
from torch import Tensor, nn

from repro.continual import task_indices
from repro.optim import Adam
from repro.validate import check_int, check_positive

METHODS = ("finetune", "lwf", "feature-replay", "inv-random", "inv-random-matched", "inv-pmi", "inv-pmi-shuffled",
           "exemplar")
INITS = ("random", "zero", "pmi", "pmi-shuffled")


# ----------------------------------------------------------------------------- exact per-layer inversion
def invert_per_layer(weights: Sequence[ArrayLike], biases: Sequence[ArrayLike], y: ArrayLike) -> np.ndarray:
    r"""The input ``x`` that a stack of invertible linear layers (no activation) maps to ``y``.

    The forward map is :math:`x \mapsto W_L(\cdots(W_1 x + b_1)\cdots) + b_L`. Per-layer model inversion solves
    it from the top down, one layer at a time: :math:`h_L = y`, :math:`h_{l-1} = W_l^{-1}(h_l - b_l)` with
    ``np.linalg.solve`` (never an explicit inverse), and returns :math:`x = h_0`.

    Parameters
    ----------
    weights : sequence of array_like, each shape (d, d)
        :math:`W_1, \dots, W_L` (applied in that order), square and non-singular.
    biases : sequence of array_like, each shape (d,)
        :math:`b_1, \dots, b_L`.
    y : array_like, shape (d,) or (n, d)
        One target, or a batch of ``n`` targets as rows (each row is inverted independently; all rows share one
        solve per layer).

    Returns
    -------
    ndarray, shape of ``y``
        ``x`` with ``forward(x) = y``.

    Raises
    ------
    ValueError
        Empty stack, unequal numbers of weights and biases, a non-square or singular weight, a bias or ``y``
        whose length is not ``d``, non-finite entries.
    """
    if len(weights) == 0 or len(weights) != len(biases):
        raise ValueError(f"need as many weights as biases, at least one; got {len(weights)} and {len(biases)}")
    Ws = [np.asarray(W, dtype=float) for W in weights]
    bs = [np.asarray(b, dtype=float) for b in biases]
    d = Ws[0].shape[0] if Ws[0].ndim == 2 else -1
    for l, (W, b) in enumerate(zip(Ws, bs)):
        if W.ndim != 2 or W.shape[0] != W.shape[1]:
            raise ValueError(f"weights[{l}] must be square; got shape {W.shape}")
        if W.shape[0] != d:
            raise ValueError(f"all weights must be {d} x {d} (an invertible stack keeps its width); "
                             f"weights[{l}] is {W.shape}")
        if b.shape != (d,):
            raise ValueError(f"biases[{l}] must have shape ({d},); got {b.shape}")
        if not (np.all(np.isfinite(W)) and np.all(np.isfinite(b))):
            raise ValueError(f"layer {l} has non-finite entries")
    Y = np.asarray(y, dtype=float)
    if Y.ndim not in (1, 2) or Y.shape[-1] != d:
        raise ValueError(f"y must have shape ({d},) or (n, {d}); got {Y.shape}")
    if not np.all(np.isfinite(Y)):
        raise ValueError("y has non-finite entries")
    H = np.atleast_2d(Y).T  # (d, n): columns are samples
    for l in range(len(Ws) - 1, -1, -1):
        try:
            H = np.linalg.solve(Ws[l], H - bs[l][:, None])
        except np.linalg.LinAlgError as err:
            raise ValueError(f"weights[{l}] is singular: {err}") from None
        if not np.all(np.isfinite(H)):
            raise ValueError(f"weights[{l}] is numerically singular (non-finite solution)")
    return H.T.reshape(Y.shape)


# ----------------------------------------------------------------------------- data and model
def load_digit_data(rng: np.random.Generator, test_fraction: float = 0.3) -> dict[str, np.ndarray]:
    """scikit-learn's 8 x 8 digits, pixels scaled to [0, 1], split per class into train and test at random.

    Returns ``{"X_train", "y_train", "X_test", "y_test"}`` (float32 images of shape (n, 64), int64 labels).
    """
    from sklearn.datasets import load_digits

    if not 0 < test_fraction < 1:
        raise ValueError(f"test_fraction must be in (0, 1); got {test_fraction}")
    X, y = load_digits(return_X_y=True)
    X = (X / 16.0).astype(np.float32)
    test = np.zeros(len(y), dtype=bool)
    for c in np.unique(y):
        idx = np.flatnonzero(y == c)
        test[rng.choice(idx, int(round(test_fraction * len(idx))), replace=False)] = True
    return {"X_train": X[~test], "y_train": y[~test].astype(np.int64),
            "X_test": X[test], "y_test": y[test].astype(np.int64)}


class MLP(nn.Module):
    """ReLU MLP: hidden layers ``body`` (the feature extractor :math:`\\phi`) and a linear ``head``.

    ``sizes = (64, 128, 64, 10)`` gives 64 -> 128 -> ReLU -> 64 -> ReLU -> 10; the features are the last ReLU
    output (here 64-dimensional).
    """

    def __init__(self, sizes: Sequence[int], seed: int = 0) -> None:
        super().__init__()
        if len(sizes) < 3 or any(check_int(s, "size", least=1) != s for s in sizes):
            raise ValueError(f"sizes needs input, at least one hidden and an output width; got {sizes}")
        g = torch.Generator().manual_seed(int(seed))
        self.body = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-2], sizes[1:-1]))
        self.head = nn.Linear(sizes[-2], sizes[-1])
        with torch.no_grad():  # torch's default init, drawn from our own generator
            for lin in [*self.body, self.head]:
                bound = 1.0 / np.sqrt(lin.in_features)
                lin.weight.uniform_(-bound, bound, generator=g)
                lin.bias.uniform_(-bound, bound, generator=g)

    def features(self, x: Tensor) -> Tensor:
        """Penultimate features :math:`\\phi(x)`, shape (n, sizes[-2])."""
        for lin in self.body:
            x = torch.relu(lin(x))
        return x

    def forward(self, x: Tensor) -> Tensor:
        return self.head(self.features(x))

    def layer_macs(self) -> list[int]:
        """Multiply-adds of one forward pass per sample, layer by layer (body then head)."""
        return [lin.in_features * lin.out_features for lin in [*self.body, self.head]]


def _masked_logits(logits: Tensor, seen: Sequence[int]) -> Tensor:
    """Logits with every class not yet seen set to -inf (class-incremental, one head over the classes seen)."""
    mask = torch.full((logits.shape[1],), float("-inf"))
    mask[list(seen)] = 0.0
    return logits + mask


def kd_loss(student_logits: Tensor, teacher_logits: Tensor, old: Sequence[int], temperature: float = 2.0) -> Tensor:
    r"""Knowledge distillation on the old classes (LwF): :math:`T^2\,\mathrm{KL}(p_T^{old} \| p_S^{old})`, batch mean."""
    old = list(old)
    t = check_positive(temperature, "temperature")
    p = F.log_softmax(teacher_logits[:, old] / t, dim=1)
    q = F.log_softmax(student_logits[:, old] / t, dim=1)
    return (t * t) * F.kl_div(q, p, log_target=True, reduction="batchmean")


def train_task(model: MLP, X: Tensor, y: Tensor, seen: Sequence[int], steps: int, lr: float,
               teacher: MLP | None = None, old: Sequence[int] = (), kd_weight: float = 1.0,
               replay_X: Tensor | None = None, replay_y: Tensor | None = None, replay_feats: Tensor | None = None,
               replay_feat_y: Tensor | None = None) -> list[float]:
    """Full-batch Adam on one task: cross-entropy over the classes seen, plus replay and distillation.

    Loss: CE on the task data and any replay samples (real exemplars or synthetic inversions), over the classes
    seen so far; plus ``kd_weight`` x :func:`kd_loss` on the old classes against a frozen ``teacher`` (the model
    before this task) on all inputs, when a teacher is given. ``replay_feats`` (features, shape (m, d), with
    labels ``replay_feat_y``) are replayed at the head only: their logits ``head(f)`` join the cross-entropy batch
    (one mean over inputs and replayed features), with no input image and no distillation (feature replay).
    Returns the loss per step.
    """
    steps = check_int(steps, "steps", least=1)
    if replay_X is not None and len(replay_X):
        X, y = torch.cat([X, replay_X]), torch.cat([y, replay_y])
    has_feats = replay_feats is not None and len(replay_feats) > 0
    if has_feats:
        if replay_feat_y is None or replay_feat_y.shape != (replay_feats.shape[0],):
            raise ValueError("replay_feats needs its labels replay_feat_y, one per row")
        y_all = torch.cat([y, replay_feat_y])
    opt = Adam(model.parameters(), lr=lr)
    t_logits = None
    if teacher is not None and len(old):
        with torch.no_grad():
            t_logits = teacher(X)
    hist = []
    for _ in range(steps):
        opt.zero_grad()
        logits = model(X)
        if has_feats:
            loss = F.cross_entropy(_masked_logits(torch.cat([logits, model.head(replay_feats)]), seen), y_all)
        else:
            loss = F.cross_entropy(_masked_logits(logits, seen), y)
        if t_logits is not None:
            loss = loss + kd_weight * kd_loss(logits, t_logits, old)
        loss.backward()
        opt.step()
        hist.append(loss.item())
    return hist


@torch.no_grad()
def task_accuracies(model: MLP, X: Tensor, y: Tensor, tasks: Sequence[np.ndarray], seen: Sequence[int]) -> np.ndarray:
    """Accuracy on each task's test samples, predicting among the classes seen so far (class-incremental)."""
    pred = _masked_logits(model(X), seen).argmax(1).numpy()
    yy = y.numpy()
    return np.array([float(np.mean(pred[idx] == yy[idx])) for idx in task_indices(yy, list(tasks))])


# ----------------------------------------------------------------------------- class-wise feature model
def fit_class_gaussians(feats: ArrayLike, labels: ArrayLike, shrink: float = 1e-3) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    r"""Class-wise Gaussian feature model: :math:`\mu_c`, :math:`\Sigma_c + s\,I` per class (maximum likelihood).

    Parameters
    ----------
    feats : array_like, shape (n, d)
    labels : array_like, shape (n,)
    shrink : float
        Ridge added to each covariance's diagonal (keeps it positive definite with few samples), >= 0.

    Returns
    -------
    dict
        class -> (mean (d,), covariance (d, d)), float64.
    """
    Fm = np.asarray(feats, dtype=float)
    lab = np.asarray(labels)
    if Fm.ndim != 2 or lab.shape != (Fm.shape[0],):
        raise ValueError(f"feats must be (n, d) and labels (n,); got {Fm.shape} and {lab.shape}")
    s = check_positive(shrink, "shrink", strict=False)
    out = {}
    for c in np.unique(lab):
        Z = Fm[lab == c]
        if len(Z) < 2:
            raise ValueError(f"class {c} has {len(Z)} sample(s); a covariance needs at least 2")
        mu = Z.mean(0)
        out[int(c)] = (mu, (Z - mu).T @ (Z - mu) / len(Z) + s * np.eye(Fm.shape[1]))
    return out


def sample_class_features(stats: dict[int, tuple[np.ndarray, np.ndarray]], classes: Sequence[int], n_per_class: int,
                          rng: np.random.Generator, nonnegative: bool = True) -> tuple[np.ndarray, np.ndarray]:
    r"""Draw :math:`f \sim \mathcal N(\mu_c, \Sigma_c)` for each class, ``n_per_class`` each, grouped by class.

    ``nonnegative`` clips the draws at 0: the features are ReLU outputs, so a negative coordinate is unreachable.
    Returns features (n_classes * n_per_class, d) and their labels.
    """
    n = check_int(n_per_class, "n_per_class", least=1)
    feats, labs = [], []
    for c in classes:
        if int(c) not in stats:
            raise ValueError(f"no feature statistics for class {c}")
        mu, cov = stats[int(c)]
        L = np.linalg.cholesky(cov)
        feats.append(mu + rng.standard_normal((n, len(mu))) @ L.T)
        labs.append(np.full(n, int(c)))
    Fm = np.concatenate(feats)
    return (np.maximum(Fm, 0.0) if nonnegative else Fm), np.concatenate(labs)


def feature_frechet(a: ArrayLike, b: ArrayLike) -> float:
    r"""Fréchet distance between Gaussians fitted to two feature sets (as FID):
    :math:`\|\mu_a - \mu_b\|^2 + \mathrm{tr}(\Sigma_a + \Sigma_b - 2(\Sigma_a\Sigma_b)^{1/2})`.

    Parameters
    ----------
    a, b : array_like, shapes (n_a, d), (n_b, d); at least 2 rows each.
    """
    A, B = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if A.ndim != 2 or B.ndim != 2 or A.shape[1] != B.shape[1] or min(len(A), len(B)) < 2:
        raise ValueError(f"need two (n, d) sets with equal d and n >= 2; got {A.shape} and {B.shape}")
    ma, mb = A.mean(0), B.mean(0)
    Sa = np.atleast_2d(np.cov(A, rowvar=False, bias=True))
    Sb = np.atleast_2d(np.cov(B, rowvar=False, bias=True))
    # tr (Sa Sb)^{1/2} = sum of sqrt(eigenvalues of the PSD matrix Sa^{1/2} Sb Sa^{1/2}), stable when singular
    wa, Va = np.linalg.eigh(Sa)
    ra = (Va * np.sqrt(np.clip(wa, 0.0, None))) @ Va.T
    lam = np.linalg.eigvalsh(ra @ Sb @ ra)
    tr = np.trace(Sa) + np.trace(Sb) - 2.0 * float(np.sum(np.sqrt(np.clip(lam, 0.0, None))))
    return float(max(np.sum((ma - mb) ** 2) + tr, 0.0))


def classwise_frechet(synth: ArrayLike, synth_labels: ArrayLike, real: ArrayLike, real_labels: ArrayLike) -> float:
    """Mean over the classes of ``synth_labels`` of :func:`feature_frechet` between that class's synthetic and real features."""
    S, R = np.asarray(synth), np.asarray(real)
    ls, lr = np.asarray(synth_labels), np.asarray(real_labels)
    return float(np.mean([feature_frechet(S[ls == c], R[lr == c]) for c in np.unique(ls)]))


# ----------------------------------------------------------------------------- inversion
def invert_layer(weight: Tensor, bias: Tensor, target: Tensor, steps: int = 50, lr: float = 0.05, reg: float = 1e-3,
                 lower: float = 0.0, upper: float = float("inf")) -> Tensor:
    r"""Invert one ReLU layer for a batch: :math:`\min_h \|\mathrm{relu}(W h + b) - t\|^2 + \lambda\|h\|^2`, ``lower <= h <= upper``.

    Start from the ridge solution on each sample's active outputs :math:`A = \{k: t_k > 0\}`,
    :math:`h_0 = (W_A^\top W_A + \lambda I)^{-1} W_A^\top (t - b)_A` (exact for a positive target when ``W`` is
    square and invertible and ``reg`` -> 0), clipped to the box; then ``steps`` of projected Adam on the convex
    form of the ReLU objective, :math:`\|(z - t)_A\|^2 + \|\mathrm{relu}(z)_{\bar A}\|^2 + \lambda\|h\|^2` with
    :math:`z = W h + b`. It equals the ReLU objective wherever the active outputs are positive and, unlike it, has
    no dead units whose gradient vanishes (each row of ``target`` is its own problem; the loss is summed over rows).

    Parameters
    ----------
    weight : Tensor, shape (out, in);  bias : Tensor, shape (out,);  target : Tensor, shape (n, out)
    steps : int, >= 0.  reg : float, >= 0 (> 0 when ``in > out``).  lower, upper : the box of valid inputs
    (0 and inf for a hidden ReLU output, 0 and 1 for pixels).

    Returns
    -------
    Tensor, shape (n, in)
    """
    if weight.ndim != 2 or bias.shape != (weight.shape[0],) or target.ndim != 2 or target.shape[1] != weight.shape[0]:
        raise ValueError(f"shapes do not fit: weight {tuple(weight.shape)}, bias {tuple(bias.shape)}, "
                         f"target {tuple(target.shape)}")
    steps = check_int(steps, "steps", least=0)
    lam = check_positive(reg, "reg", strict=False)
    if lam == 0 and weight.shape[1] > weight.shape[0]:
        raise ValueError("reg must be > 0 when the layer widens (in > out): the least-squares problem is underdetermined")
    if not lower < upper:
        raise ValueError(f"need lower < upper; got {lower}, {upper}")
    W, b, t = weight.detach(), bias.detach(), target.detach()
    # ridge on the active rows of each sample (t > 0); a zero output of a ReLU only asks for a non-positive
    # pre-activation, which the refinement below enforces
    D = (t > 0).to(W.dtype)  # (n, out)
    G = torch.einsum("oi,no,oj->nij", W, D, W) + lam * torch.eye(W.shape[1], dtype=W.dtype)
    rhs = ((t - b) * D) @ W  # (n, in)
    h = torch.linalg.solve(G, rhs.unsqueeze(-1)).squeeze(-1).clamp(lower, upper).clone().requires_grad_(True)
    if steps:
        opt = Adam([h], lr=lr)
        for _ in range(steps):
            opt.zero_grad()
            z = h @ W.T + b
            loss = ((D * (z - t)) ** 2).sum() + (((1 - D) * torch.relu(z)) ** 2).sum() + lam * (h ** 2).sum()
            loss.backward()
            opt.step()
            with torch.no_grad():
                h.clamp_(lower, upper)
    return h.detach()


def per_layer_inversion(model: MLP, target_feat: Tensor, steps: int = 50, lr: float = 0.05, reg: float = 1e-3) -> Tensor:
    """PMI: invert the feature extractor one layer at a time, from the features down to the pixels.

    Each hidden layer's input is a ReLU output (box [0, inf)); the first layer's input is an image (box [0, 1]).
    Returns the starting point ``x0`` of shape (n, input width) for :func:`full_inversion`.
    """
    h = target_feat.detach()
    for l in range(len(model.body) - 1, -1, -1):
        lin = model.body[l]
        h = invert_layer(lin.weight, lin.bias, h, steps=steps, lr=lr, reg=reg,
                         lower=0.0, upper=1.0 if l == 0 else float("inf"))
    return h


def ridge_start_macs(n_in: int, n_out: int) -> int:
    r"""Multiply-adds per sample of :func:`invert_layer`'s ridge start for a layer of shape (``n_out``, ``n_in``).

    The Gram matrix :math:`W^\top D W` as computed (``n_out * n_in**2``), the right-hand side (``n_out * n_in``)
    and an LU solve (:math:`n_{in}^3/3`, rounded up).
    """
    i, o = check_int(n_in, "n_in", least=1), check_int(n_out, "n_out", least=1)
    return o * i * i + o * i + -(-i ** 3 // 3)


def per_layer_macs(model: MLP, steps: int) -> int:
    """Multiply-adds per sample of :func:`per_layer_inversion` with ``steps`` steps per layer: the ridge start of
    each layer (:func:`ridge_start_macs`) plus the Adam steps (forward + backward = 3 x forward)."""
    steps = check_int(steps, "steps", least=0)
    return sum(3 * steps * lin.in_features * lin.out_features + ridge_start_macs(lin.in_features, lin.out_features)
               for lin in model.body)


def linearised_body(model: MLP, dtype: torch.dtype = torch.float32) -> tuple[Tensor, Tensor]:
    r"""The feature extractor without its ReLUs as one affine map :math:`x \mapsto M x + c`.

    :math:`M = W_L \cdots W_1`, shape (features, input width), and :math:`c` the biases pushed through
    (:func:`invert_per_layer`'s stack, any widths).
    """
    with torch.no_grad():
        M = torch.eye(model.body[0].in_features, dtype=dtype)
        c = torch.zeros(model.body[0].in_features, dtype=dtype)
        for lin in model.body:
            W, b = lin.weight.to(dtype), lin.bias.to(dtype)
            M, c = W @ M, W @ c + b
    return M, c


def linear_inversion(model: MLP, target_feat: Tensor, reg: float = 1e-3) -> Tensor:
    r"""A naive one-shot start: invert the feature extractor as if it had no ReLUs, in one ridge solve.

    With :math:`x \mapsto M x + c` from :func:`linearised_body`, returns
    :math:`\mathrm{clip}_{[0,1]}\big((M^\top M + \lambda I)^{-1} M^\top (f - c)\big)` per row of
    ``target_feat``: no per-layer problem, no ReLU handled, no iteration. ``reg`` is :math:`\lambda`
    (:func:`ridge_gcv_reg` picks one by a library default rule).
    """
    lam = check_positive(reg, "reg")
    if target_feat.ndim != 2 or target_feat.shape[1] != model.body[-1].out_features:
        raise ValueError(f"target_feat must be (n, {model.body[-1].out_features}); got {tuple(target_feat.shape)}")
    M, c = linearised_body(model, target_feat.dtype)
    with torch.no_grad():
        G = M.T @ M + lam * torch.eye(M.shape[1], dtype=M.dtype)
        x = torch.linalg.solve(G, ((target_feat - c) @ M).T).T
    return x.clamp(0.0, 1.0)


RIDGE_ALPHAS = (0.1, 1.0, 10.0)  # scikit-learn's default grid of RidgeCV


def ridge_gcv_reg(model: MLP, target_feat: Tensor, alphas: Sequence[float] = RIDGE_ALPHAS) -> float:
    r"""The ridge :math:`\lambda` of :func:`linear_inversion` by a fixed library rule: scikit-learn's ``RidgeCV``.

    The regression is the linearised body's: design matrix :math:`M` (one row per feature coordinate), one
    target column :math:`f - c` per sample, no intercept (:math:`c` is known). ``RidgeCV`` with its defaults
    (efficient leave-one-out, i.e. generalised cross-validation, one :math:`\lambda` shared by all samples)
    picks from ``alphas`` (its default grid). Nothing here looks at any inversion's result.
    """
    from sklearn.linear_model import RidgeCV

    if target_feat.ndim != 2 or target_feat.shape[1] != model.body[-1].out_features:
        raise ValueError(f"target_feat must be (n, {model.body[-1].out_features}); got {tuple(target_feat.shape)}")
    M, c = linearised_body(model, torch.float64)
    Y = (target_feat.detach().to(torch.float64) - c).numpy().T  # (features, n)
    return float(RidgeCV(alphas=tuple(alphas), fit_intercept=False).fit(M.numpy(), Y).alpha_)


def linear_inversion_macs(model: MLP, n: int, gcv_alphas: int = 0) -> float:
    """Multiply-adds per sample of :func:`linear_inversion` for a batch of ``n``: the composed matrix, its Gram
    matrix and its LU solve shared by the batch (divided by ``n``), plus each sample's right-hand side and back
    substitution. ``gcv_alphas`` > 0 adds :func:`ridge_gcv_reg` over that many values: a thin SVD of the composed
    (w x d) matrix, (4 w^2 d + 8 w d^2 + 9 d^3) / 2 shared (Golub and Van Loan's flop count, halved), plus, per
    sample and value, a projection and a back-projection (2 w d)."""
    n = check_int(n, "n", least=1)
    k = check_int(gcv_alphas, "gcv_alphas", least=0)
    d = model.body[0].in_features
    shared, width = 0, d
    for lin in model.body:
        shared += lin.out_features * lin.in_features * d + lin.out_features * lin.in_features
        width = lin.out_features
    shared += width * d * d + -(-d ** 3 // 3)
    out = shared / n + width * d + d * d
    if k:
        out += (4 * width * width * d + 8 * width * d * d + 9 * d ** 3) / 2 / n + k * 2 * width * d
    return out


def full_iteration_macs(model: MLP) -> int:
    """Multiply-adds per sample of one full-model inversion step (forward + backward through every layer = 3 x forward)."""
    return 3 * sum(model.layer_macs())


def inversion_loss(model: MLP, x: Tensor, labels: Tensor, target_feat: Tensor | None, beta: float = 1.0,
                   prior: float = 1e-3) -> Tensor:
    r"""Per-sample inversion loss :math:`\mathrm{CE}(f(x), c) + \beta\,\overline{(\phi(x) - f)^2} + \gamma\,\overline{x^2}`.

    ``target_feat=None`` drops the feature term (CE-only inversion). Bars are means over coordinates.
    Returns shape (n,).
    """
    feats = model.features(x)
    loss = F.cross_entropy(model.head(feats), labels, reduction="none") + prior * (x ** 2).mean(1)
    if target_feat is not None:
        loss = loss + beta * ((feats - target_feat) ** 2).mean(1)
    return loss


def full_inversion(model: MLP, x0: Tensor, labels: Tensor, target_feat: Tensor | None, steps: int, lr: float = 0.05,
                   beta: float = 1.0, prior: float = 1e-3, record: bool = False) -> tuple[Tensor, np.ndarray | None]:
    """Full-model inversion from ``x0``: ``steps`` of projected Adam (pixels kept in [0, 1]) on :func:`inversion_loss`.

    All samples are one tensor; the summed loss makes each sample's trajectory independent of the others.
    With ``record``, also returns the per-sample loss before each step and after the last, shape (steps + 1, n).
    """
    steps = check_int(steps, "steps", least=0)
    if x0.ndim != 2 or labels.shape != (x0.shape[0],):
        raise ValueError(f"x0 must be (n, d) and labels (n,); got {tuple(x0.shape)} and {tuple(labels.shape)}")
    for p in model.parameters():
        p.requires_grad_(False)
    x = x0.detach().clone().requires_grad_(True)
    hist = []
    try:
        if steps:
            opt = Adam([x], lr=lr)
        for _ in range(steps):
            opt.zero_grad()
            loss = inversion_loss(model, x, labels, target_feat, beta, prior)
            if record:
                hist.append(loss.detach().numpy().copy())
            loss.sum().backward()
            opt.step()
            with torch.no_grad():
                x.clamp_(0.0, 1.0)
        if record:
            with torch.no_grad():
                hist.append(inversion_loss(model, x, labels, target_feat, beta, prior).numpy().copy())
    finally:
        for p in model.parameters():
            p.requires_grad_(True)
    return x.detach(), (np.stack(hist) if record else None)


def iterations_to_reach(history: ArrayLike, tau: float) -> np.ndarray:
    """Per sample, the first iteration whose loss is <= ``tau`` (``inf`` if none). ``history``: (steps + 1, n)."""
    H = np.asarray(history, dtype=float)
    if H.ndim != 2:
        raise ValueError(f"history must be (steps + 1, n); got {H.shape}")
    hit = H <= tau
    return np.where(hit.any(0), hit.argmax(0).astype(float), np.inf)


def derange_by_class(labels: ArrayLike) -> np.ndarray:
    """A permutation of the samples (grouped by class, equal counts) that sends every sample to another class.

    Rolls the order by half the classes' samples: class k's samples take the targets of class k + C/2 (mod C).
    Used by the controls (a per-layer start or a Gaussian target that belongs to another class).
    """
    lab = np.asarray(labels)
    classes, counts = np.unique(lab, return_counts=True)
    if len(classes) < 2 or len(set(counts)) != 1:
        raise ValueError("need at least two classes with equal counts")
    shift = (len(classes) // 2) * counts[0]
    perm = np.roll(np.arange(len(lab)), -shift)
    if np.any(lab[perm] == lab):
        raise ValueError("labels must be grouped by class")
    return perm


def synthesize(model: MLP, stats: dict, classes: Sequence[int], n_per_class: int, init: str, pmi_steps: int,
               inv_steps: int, rng: np.random.Generator, lr: float = 0.05, beta: float = 1.0,
               prior: float = 1e-3) -> tuple[Tensor, Tensor]:
    """Synthetic replay set for ``classes``: Gaussian feature targets, a starting point, then full-model inversion.

    ``init``: ``"random"`` (uniform pixels, DeepInversion-style), ``"zero"`` (the all-zero image), ``"pmi"``
    (:func:`per_layer_inversion` of each target) or ``"pmi-shuffled"`` (per-layer inversion of another class's
    target: the ablation).
    """
    if init not in INITS:
        raise ValueError(f"init must be one of {INITS}; got {init!r}")
    f, lab = sample_class_features(stats, classes, n_per_class, rng)
    target = torch.as_tensor(f, dtype=torch.float32)
    labels = torch.as_tensor(lab)
    d_in = model.body[0].in_features
    if init == "random":
        x0 = torch.as_tensor(rng.uniform(0, 1, (len(lab), d_in)), dtype=torch.float32)
    elif init == "zero":
        x0 = torch.zeros(len(lab), d_in)
    else:
        src = target if init == "pmi" else target[torch.as_tensor(derange_by_class(lab))] if len(classes) > 1 \
            else target.flip(0)
        x0 = per_layer_inversion(model, src, steps=pmi_steps, lr=lr)
    x, _ = full_inversion(model, x0, labels, target, inv_steps, lr=lr, beta=beta, prior=prior)
    return x, labels


# ----------------------------------------------------------------------------- the continual-learning run
def run_continual(method: str, data: dict, tasks: Sequence[np.ndarray], sizes: Sequence[int], train_steps: int,
                  lr: float, seed: int, n_syn: int = 20, pmi_steps: int = 50, inv_steps: int = 50,
                  n_exemplars: int = 20, kd_weight: float = 1.0, matched_steps: int | None = None) -> np.ndarray:
    """One class-incremental run of ``method`` over ``tasks``; returns the accuracy matrix A (T, T) (NaN above the diagonal).

    Methods (see :data:`METHODS`): ``finetune`` (CE on the new task only), ``lwf`` (+ distillation of the old
    logits), ``feature-replay`` (LwF + ``n_syn`` Gaussian feature draws per old class replayed at the head, no
    inversion), ``inv-random`` / ``inv-pmi`` / ``inv-pmi-shuffled`` (LwF + replay of ``n_syn`` synthetic samples
    per old class, inverted from the stored class Gaussians with ``inv_steps`` full-model steps from a random, PMI
    or shuffled-PMI start), ``inv-random-matched`` (the random start with ``matched_steps`` full-model steps,
    e.g. as many multiply-adds as the PMI start's per-layer phase plus its ``inv_steps``), ``exemplar`` (+ replay of
    ``n_exemplars`` stored real images per old class; not data-free).
    The class Gaussians of a task's classes are fitted on its training features right after the task, then kept.
    The same ``seed`` gives every method the same initial network, synthetic draws and exemplars.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}; got {method!r}")
    if method == "inv-random-matched" and matched_steps is None:
        raise ValueError("inv-random-matched needs matched_steps")
    rng = np.random.default_rng(seed)
    model = MLP(sizes, seed=seed)
    Xtr, ytr = torch.as_tensor(data["X_train"]), torch.as_tensor(data["y_train"])
    Xte, yte = torch.as_tensor(data["X_test"]), torch.as_tensor(data["y_test"])
    tr_idx = task_indices(data["y_train"], list(tasks))
    T = len(tasks)
    A = np.full((T, T), np.nan)
    stats: dict = {}
    exemplars: list[np.ndarray] = []
    seen: list[int] = []
    for t, cls in enumerate(tasks):
        old = list(seen)
        seen = seen + [int(c) for c in cls]
        teacher = copy.deepcopy(model).eval() if (old and method != "finetune") else None
        rX = ry = rF = rFy = None
        if old and method == "inv-random-matched":
            rX, ry = synthesize(model, stats, old, n_syn, "random", pmi_steps, matched_steps, rng)
        elif old and method.startswith("inv-"):
            rX, ry = synthesize(model, stats, old, n_syn, method[4:], pmi_steps, inv_steps, rng)
        elif old and method == "feature-replay":
            f, lab = sample_class_features(stats, old, n_syn, rng)
            rF, rFy = torch.as_tensor(f, dtype=torch.float32), torch.as_tensor(lab)
        elif old and method == "exemplar":
            ex = np.concatenate(exemplars)
            rX, ry = Xtr[ex], ytr[ex]
        idx = torch.as_tensor(tr_idx[t])
        train_task(model, Xtr[idx], ytr[idx], seen, train_steps, lr, teacher=teacher, old=old,
                   kd_weight=kd_weight, replay_X=rX, replay_y=ry, replay_feats=rF, replay_feat_y=rFy)
        with torch.no_grad():
            feats = model.features(Xtr[idx]).numpy()
        stats.update(fit_class_gaussians(feats, data["y_train"][tr_idx[t]]))
        for c in cls:
            exemplars.append(rng.choice(np.flatnonzero(data["y_train"] == c), n_exemplars, replace=False))
        A[t, : t + 1] = task_accuracies(model, Xte, yte, tasks[: t + 1], seen)
    return A
