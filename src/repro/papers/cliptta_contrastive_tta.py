r"""CLIPTTA: Robust Contrastive Vision-Language Test-Time Adaptation.

Paper map
---------
*CLIPTTA: Robust Contrastive Vision-Language Test-Time Adaptation*, Marc Lafon, Gustavo Adolfo Vargas Hakim,
Clément Rambour, Christian Desrosiers, Nicolas Thome, NeurIPS 2025, https://arxiv.org/abs/2507.14312
(official code: github.com/MarcLafon/cliptta, ``ttavlm/methods/cliptta_otsu.py``).
Notebook: ``notebooks/cliptta-contrastive-tta.py``.

Notation (paper -> here):

- image features $z_i$ (unit norm), batch of $B$ -> ``image_features[i]``, shape (B, d)
- class text prototypes $t_c$ (unit norm), $C$ classes -> ``text_features[c]``, shape (C, d)
- CLIP's logit scale (temperature$^{-1}$) $s$ (100 for CLIP) -> ``scale``
- pseudo-label $\hat y_i = \arg\max_c z_i^\top t_c$, pseudo-caption $p_i = t_{\hat y_i}$
- batch image-to-caption logits $L_{ij} = s\, z_i^\top p_j$ (B x B)
- soft contrastive TTA loss $\mathcal L_{\rm s\text{-}TTA} = \frac1B\sum_i H(\mathrm{softmax}_j L_{ij})$
  (the official closed-set setting: ``--use_softmax_entropy`` with the text tower frozen)
- TENT's loss $\frac1B\sum_i H(\mathrm{softmax}_c\, s z_i^\top t_c)$ -> :func:`entropy_tta_loss`
- the anti-collapse regulariser $H(\frac1B\sum_i \mathrm{softmax}_c\, s z_i^\top t_c)$ -> :func:`marginal_entropy`
- OOD score $\max_c \log\mathrm{softmax}_c(z_i^\top t_c)$ (``max_log_prob``, OOD scale 1) -> :func:`max_log_prob_score`
- Outlier Contrastive Exposure with a soft Otsu split: $w_i = \sigma((\mathrm{score}_i - \alpha)/\gamma)$,
  $\mathcal L_{\rm OCE} = -(\mu_{\rm in} - \mu_{\rm out})^2$ -> :func:`oce_loss`, $\alpha$ started at the Otsu
  threshold of the batch (:func:`otsu_threshold`, scikit-image) and learnt
- the official class-balanced memory (``ttavlm/memory/ccm.py``) -> ``TTAConfig.memory_shots`` in
  :func:`adapt_streams`, which runs many (method, shift) streams at once (:func:`adapt_stream` is the
  one-stream reference)

Comparators (none of CLIPTTA's ideas): self-training on hard pseudo-labels (:func:`hard_pseudo_label_loss`,
Lee 2013), TDA, the training-free cache adapter (:func:`tda_stream`, Karmanov et al. 2024, as the official
repository runs it), and running class-wise centring of the cosines (:func:`centred_cosine_stream`, training-free).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from scipy import ndimage
from torch import Tensor, nn

from repro.optim import Adam
from repro.validate import check_int, check_positive

METHODS = ("zero-shot", "tent", "tent+reg", "cliptta", "cliptta-noreg")
SHIFTS = ("gaussian-noise", "blur", "contrast-inversion", "rotation-30")
_EPS = 1e-6  # the official code's softmax_entropy offset


# ----------------------------------------------------------------------------- losses
def _check_features(image_features: Tensor, text_features: Tensor, scale: float) -> None:
    if not isinstance(image_features, Tensor) or not isinstance(text_features, Tensor):
        raise ValueError("image_features and text_features must be torch tensors")
    if image_features.ndim != 2 or text_features.ndim != 2:
        raise ValueError(f"image_features (B, d) and text_features (C, d) must be 2-D; got "
                         f"{tuple(image_features.shape)} and {tuple(text_features.shape)}")
    if image_features.shape[1] != text_features.shape[1]:
        raise ValueError(f"feature dimensions differ: {image_features.shape[1]} vs {text_features.shape[1]}")
    if image_features.shape[0] < 1 or text_features.shape[0] < 2:
        raise ValueError("need at least one image and two classes")
    if not np.isfinite(float(scale)) or float(scale) <= 0:
        raise ValueError(f"scale must be a positive finite number; got {scale}")


def softmax_entropy(logits: Tensor) -> Tensor:
    """Row-wise entropy (nats) of ``softmax(logits)``: shape (N, K) -> (N,).

    Implements ``lib.softmax_entropy`` of the official code, including its ``+1e-6`` offset on the logits
    (which leaves the softmax unchanged)."""
    if logits.ndim != 2:
        raise ValueError(f"logits must be 2-D (N, K); got {tuple(logits.shape)}")
    x = logits + _EPS
    return -(x.softmax(1) * x.log_softmax(1)).sum(1)


def pseudo_caption_logits(image_features: Tensor, text_features: Tensor, scale: float) -> Tensor:
    """The batch logits $L_{ij} = s\\, z_i^\\top t_{\\hat y_j}$ between images and pseudo-captions.

    Parameters
    ----------
    image_features : (B, d) tensor, unit-norm rows.
    text_features : (C, d) tensor, unit-norm class prototypes (frozen text tower).
    scale : float, CLIP's logit scale $s$.

    Returns
    -------
    (B, B) tensor. The pseudo-labels $\\hat y_j = \\arg\\max_c z_j^\\top t_c$ are not differentiated (argmax).
    """
    _check_features(image_features, text_features, scale)
    pred = (image_features @ text_features.T).argmax(1)
    return float(scale) * image_features @ text_features[pred].T


def soft_contrastive_tta_loss(image_features: Tensor, text_features: Tensor, scale: float) -> Tensor:
    """CLIPTTA's soft contrastive test-time loss (paper Sec. 3; official ``compute_loss_tta`` with
    ``--use_softmax_entropy`` and the text tower frozen, the setting of every official script).

    $\\mathcal L = \\frac1B\\sum_i H\\big(\\mathrm{softmax}_j\\, L_{ij}\\big)$ with $L$ from
    :func:`pseudo_caption_logits`. A class that many images of the batch are assigned to appears many times
    among the pseudo-captions, so an image is pulled less towards it: the loss is batch-aware. If every
    pseudo-label is equal, every row of $L$ is constant, the row softmaxes are uniform and the gradient
    vanishes (no push towards further collapse).

    Parameters
    ----------
    image_features : (B, d) tensor, unit-norm image features.
    text_features : (C, d) tensor, unit-norm class prototypes.
    scale : float > 0, logit scale.

    Returns
    -------
    scalar tensor (nats).
    """
    return softmax_entropy(pseudo_caption_logits(image_features, text_features, scale)).mean()


def symmetric_soft_contrastive_tta_loss(image_features: Tensor, text_features: Tensor, scale: float) -> Tensor:
    """The two-sided variant $\\tfrac12[\\frac1B\\sum_i H(\\mathrm{softmax}_j L_{ij}) +
    \\frac1B\\sum_j H(\\mathrm{softmax}_i L_{ij})]$, which the official code uses only when the text tower is
    adapted too (``update_text``). Shapes as :func:`soft_contrastive_tta_loss`; returns a scalar tensor."""
    L = pseudo_caption_logits(image_features, text_features, scale)
    return 0.5 * (softmax_entropy(L).mean() + softmax_entropy(L.T).mean())


def entropy_tta_loss(image_features: Tensor, text_features: Tensor, scale: float) -> Tensor:
    """TENT's entropy minimisation on CLIP logits: $\\frac1B\\sum_i H(\\mathrm{softmax}_c\\, s z_i^\\top t_c)$
    (official ``Tent.forward_and_adapt``). (B, d), (C, d) -> scalar tensor (nats)."""
    _check_features(image_features, text_features, scale)
    return softmax_entropy(float(scale) * image_features @ text_features.T).mean()


def marginal_entropy(image_features: Tensor, text_features: Tensor, scale: float) -> Tensor:
    """Entropy of the batch-mean prediction $H(\\frac1B\\sum_i \\mathrm{softmax}_c\\, s z_i^\\top t_c)$, the
    regulariser that CLIPTTA subtracts with weight $\\beta_{\\rm reg}$ (official ``softmax_mean_entropy``).
    (B, d), (C, d) -> scalar tensor (nats), at most $\\log C$."""
    _check_features(image_features, text_features, scale)
    p = (float(scale) * image_features @ text_features.T + _EPS).softmax(1).mean(0)
    return -(p * torch.log(p + _EPS)).sum()


def max_log_prob_score(image_features: Tensor, text_features: Tensor, scale: float = 1.0) -> Tensor:
    """OOD score $\\max_c \\log \\mathrm{softmax}_c(s\\, z_i^\\top t_c)$, higher = more in-distribution
    (official ``get_scores(score_type="max_log_prob")`` with ``ood_logit_scale`` $s = 1$). Returns (B,)."""
    _check_features(image_features, text_features, scale)
    return (float(scale) * image_features @ text_features.T).log_softmax(1).max(1).values


def oce_loss(scores: Tensor, alpha: Tensor, gamma: float) -> Tensor:
    """Outlier Contrastive Exposure with a soft Otsu split (official ``otsu_loss``, ``avg_contrastive``).

    $w_i = \\sigma((\\mathrm{score}_i - \\alpha)/\\gamma)$ (soft ID membership),
    $\\mu_{\\rm in} = \\sum_i w_i\\,\\mathrm{score}_i / \\sum_i w_i$, $\\mu_{\\rm out}$ likewise with $1 - w_i$,
    $\\mathcal L_{\\rm OCE} = -(\\mu_{\\rm in} - \\mu_{\\rm out})^2$: minimising it pushes the scores of the two
    groups apart.

    Parameters
    ----------
    scores : (B,) tensor of OOD scores (higher = ID).
    alpha : scalar or (1,) tensor, the threshold (learnt).
    gamma : float > 0, the sigmoid's temperature (official default 0.005).

    Returns
    -------
    scalar tensor.
    """
    if scores.ndim != 1 or scores.shape[0] < 2:
        raise ValueError(f"scores must be 1-D with at least 2 entries; got {tuple(scores.shape)}")
    check_positive(gamma, "gamma")
    w = torch.sigmoid((scores - alpha.reshape(())) / gamma)
    mu_in = torch.dot(w, scores) / w.sum()
    mu_out = torch.dot(1 - w, scores) / (1 - w).sum()
    return -(mu_in - mu_out).pow(2)


def otsu_threshold(scores: np.ndarray) -> float:
    """Otsu's threshold of a 1-D sample (scikit-image ``threshold_otsu``, 256 bins), as the official code
    starts $\\alpha$ on each batch. (N,) -> float."""
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 1 or s.size < 2 or not np.all(np.isfinite(s)):
        raise ValueError("scores must be a finite 1-D array of at least 2 values")
    from skimage.filters import threshold_otsu

    return float(threshold_otsu(s))


# ----------------------------------------------------------------------------- data
def load_digits_split(rng: np.random.Generator, train_fraction: float = 0.5) -> dict[str, np.ndarray]:
    """scikit-learn's 8x8 digits, pixels in [0, 1], split per class into train / test.

    Returns {"X_train": (n, 64) float32, "y_train": (n,) int64, "X_test", "y_test"}."""
    from sklearn.datasets import load_digits

    if not 0 < train_fraction < 1:
        raise ValueError("train_fraction must lie in (0, 1)")
    d = load_digits()
    X, y = (d.data / 16.0).astype(np.float32), d.target.astype(np.int64)
    tr = np.zeros(len(y), bool)
    for c in range(10):
        idx = rng.permutation(np.flatnonzero(y == c))
        tr[idx[: int(round(train_fraction * len(idx)))]] = True
    return {"X_train": X[tr], "y_train": y[tr], "X_test": X[~tr], "y_test": y[~tr]}


def corrupt(x: np.ndarray, kind: str, rng: np.random.Generator, severity: float = 1.0) -> np.ndarray:
    """A distribution shift applied to 8x8 images with pixels in [0, 1].

    kinds: ``gaussian-noise`` (additive N(0, (0.35 severity)^2), clipped), ``blur`` (Gaussian filter,
    sigma 0.9 severity pixels), ``contrast-inversion`` (partial inversion: x blended with 1 - x at weight
    0.3 severity, so contrast falls to 0.4 at severity 1 and flips at 5/3), ``rotation-30`` (rotation by 30 severity degrees, bilinear). x: (N, 64) -> (N, 64) float32.
    """
    x = np.asarray(x, dtype=np.float32)
    if x.ndim != 2 or x.shape[1] != 64:
        raise ValueError(f"x must have shape (N, 64); got {x.shape}")
    check_positive(severity, "severity")
    img = x.reshape(-1, 8, 8)
    if kind == "gaussian-noise":
        out = np.clip(img + rng.normal(0, 0.35 * severity, img.shape), 0, 1)
    elif kind == "blur":
        out = ndimage.gaussian_filter(img, sigma=(0, 0.9 * severity, 0.9 * severity))
    elif kind == "contrast-inversion":
        a = min(0.3 * float(severity), 1.0)
        out = (1 - a) * img + a * (1 - img)
    elif kind == "rotation-30":
        out = ndimage.rotate(img, 30 * severity, axes=(1, 2), reshape=False, order=1, mode="constant")
    else:
        raise ValueError(f"unknown shift {kind!r}; one of {SHIFTS}")
    return np.clip(out, 0, 1).reshape(-1, 64).astype(np.float32)


def outlier_images(n: int, rng: np.random.Generator) -> np.ndarray:
    """Out-of-distribution 8x8 images: random 24x24 patches of scikit-learn's two bundled photographs
    (``load_sample_images``), grey, block-averaged to 8x8 and min-max scaled to [0, 1]. Returns (n, 64)."""
    from sklearn.datasets import load_sample_images

    check_int(n, "n", least=1)
    photos = [im.mean(2) for im in load_sample_images().images]
    out = np.empty((n, 64), np.float32)
    for k in range(n):
        ph = photos[rng.integers(len(photos))]
        r, c = rng.integers(0, ph.shape[0] - 24), rng.integers(0, ph.shape[1] - 24)
        p = ph[r:r + 24, c:c + 24].reshape(8, 3, 8, 3).mean((1, 3))
        out[k] = ((p - p.min()) / (np.ptp(p) + 1e-8)).ravel()
    return out


def imbalanced_indices(y: np.ndarray, n: int, major: int, share: float, rng: np.random.Generator) -> np.ndarray:
    """Indices of a label-imbalanced stream of length n: a fraction ``share`` from class ``major``, the rest
    uniformly from the other classes, drawn with replacement, in random order. Returns (n,) int."""
    check_int(n, "n", least=1)
    if not 0 <= share <= 1:
        raise ValueError("share must lie in [0, 1]")
    maj, rest = np.flatnonzero(y == major), np.flatnonzero(y != major)
    if maj.size == 0 or rest.size == 0:
        raise ValueError("y must hold the major class and at least one other")
    k = int(round(share * n))
    return rng.permutation(np.concatenate([rng.choice(maj, k), rng.choice(rest, n - k)]))


# ----------------------------------------------------------------------------- the two-tower model
class ImageTower(nn.Module):
    """The toy image tower: 64 -> h -> LayerNorm -> ReLU -> h -> LayerNorm -> ReLU -> 384, unit-norm output.

    Its LayerNorm affine parameters are what test-time adaptation updates (as the official code adapts
    CLIP's normalisation layers). forward: (B, 64) -> (B, out_dim)."""

    def __init__(self, hidden: int = 128, out_dim: int = 384, seed: int = 0):
        super().__init__()
        g = torch.Generator().manual_seed(seed)
        self.fc1, self.ln1 = nn.Linear(64, hidden), nn.LayerNorm(hidden)
        self.fc2, self.ln2 = nn.Linear(hidden, hidden), nn.LayerNorm(hidden)
        self.proj = nn.Linear(hidden, out_dim)
        with torch.no_grad():
            for lin in (self.fc1, self.fc2, self.proj):
                bound = 1 / np.sqrt(lin.in_features)
                lin.weight.copy_(torch.empty(lin.weight.shape).uniform_(-bound, bound, generator=g))
                lin.bias.copy_(torch.empty(lin.bias.shape).uniform_(-bound, bound, generator=g))

    def forward(self, x: Tensor) -> Tensor:
        h = torch.relu(self.ln1(self.fc1(x)))
        h = torch.relu(self.ln2(self.fc2(h)))
        z = self.proj(h)
        return z / z.norm(dim=1, keepdim=True)

    def norm_parameters(self) -> list[Tensor]:
        """The LayerNorm scales and shifts (4 tensors)."""
        return [self.ln1.weight, self.ln1.bias, self.ln2.weight, self.ln2.bias]


def pretrain_tower(tower: ImageTower, X: np.ndarray, y: np.ndarray, text_features: Tensor, steps: int,
                   lr: float = 3e-3, scale: float = 100.0, batch: int = 128, seed: int = 0) -> list[float]:
    """Contrastive pre-training of the image tower against the frozen prompt embeddings: the image-to-text
    side of the CLIP loss with one caption per class, $\\mathrm{CE}(s\\, z_i^\\top t_c, y_i)$, minibatch Adam.
    Augmentation: additive pixel noise N(0, 0.05^2). Returns the loss per step."""
    check_int(steps, "steps", least=1)
    g = torch.Generator().manual_seed(seed)
    Xt, yt = torch.as_tensor(X), torch.as_tensor(y)
    opt = Adam(list(tower.parameters()), lr=lr)
    hist = []
    for _ in range(steps):
        idx = torch.randint(0, len(yt), (batch,), generator=g)
        xb = Xt[idx] + 0.05 * torch.randn(batch, 64, generator=g)
        loss = nn.functional.cross_entropy(scale * tower(xb) @ text_features.T, yt[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist.append(float(loss.detach()))
    return hist


@dataclass
class TTAConfig:
    """One test-time adaptation method: its loss, weights and optimiser settings (official defaults:
    10 Adam steps per batch, eps 1e-6; CLIPTTA lr 1e-4, beta_reg 1; TENT lr 1e-3, beta_reg 0)."""

    loss: str  # "none", "entropy", "soft-contrastive", "hard-pseudo-label"
    lr: float = 1e-4
    beta_reg: float = 0.0
    steps: int = 10
    scale: float = 100.0
    ood: bool = False        # OCE term + Otsu filtering of the TTA loss (open set)
    beta_ood: float = 1.0
    gamma: float = 0.005
    ood_scale: float = 1.0
    memory_shots: int = 0    # > 0: the official class-balanced memory (adapt_streams only)


def method_config(name: str, ood: bool = False) -> TTAConfig:
    """The configurations compared on the page: ``zero-shot``, ``tent`` (official TENT script),
    ``tent+reg`` (entropy loss with CLIPTTA's regulariser and settings: the control), ``cliptta`` (official
    CLIPTTA script), ``cliptta-noreg`` (CLIPTTA without the regulariser)."""
    table = {"zero-shot": TTAConfig("none"),
             "tent": TTAConfig("entropy", lr=1e-3, beta_reg=0.0),
             "tent+reg": TTAConfig("entropy", lr=1e-4, beta_reg=1.0),
             "cliptta": TTAConfig("soft-contrastive", lr=1e-4, beta_reg=1.0),
             "cliptta-noreg": TTAConfig("soft-contrastive", lr=1e-4, beta_reg=0.0)}
    if name not in table:
        raise ValueError(f"unknown method {name!r}; one of {tuple(table)}")
    cfg = table[name]
    cfg.ood = bool(ood)
    return cfg


def adapt_stream(tower: ImageTower, text_features: Tensor, X: np.ndarray, batch: int, cfg: TTAConfig
                 ) -> dict[str, np.ndarray]:
    """Online, non-episodic test-time adaptation of the tower's LayerNorm parameters over a stream.

    Per batch (official ``forward``): ``cfg.steps`` Adam steps on
    ``loss_tta - beta_reg * marginal_entropy (+ beta_ood * OCE)``; the batch is then predicted by the
    adapted tower. With ``cfg.ood``, the threshold alpha starts at the batch's Otsu threshold of the OOD
    scores, is learnt with the norm parameters, and the TTA loss uses only samples scored above it.
    The tower is modified in place.

    Returns {"pred": (N,) int, "score": (N,) float (max-log-prob), "loss": (n_batches,) float}.
    """
    check_int(batch, "batch", least=2)
    if cfg.memory_shots:
        raise ValueError("the memory is run by adapt_streams only")
    Xt = torch.as_tensor(np.asarray(X, np.float32))
    params = tower.norm_parameters()
    for p in tower.parameters():
        p.requires_grad_(False)
    for p in params:
        p.requires_grad_(True)
    alpha = torch.zeros(1, requires_grad=True)
    opt = Adam(params + ([alpha] if cfg.ood else []), lr=cfg.lr, eps=1e-6) if cfg.loss != "none" else None
    preds, scores, losses = [], [], []
    for start in range(0, len(Xt), batch):
        xb = Xt[start:start + batch]
        if opt is not None and len(xb) >= 2:
            if cfg.ood:
                with torch.no_grad():
                    s0 = max_log_prob_score(tower(xb), text_features, cfg.ood_scale).numpy()
                alpha.data.fill_(otsu_threshold(s0) if np.ptp(s0) > 0 else float(s0[0]))
            for _ in range(cfg.steps):
                z = tower(xb)
                loss = -cfg.beta_reg * marginal_entropy(z, text_features, cfg.scale) if cfg.beta_reg else 0.0
                zt = z
                if cfg.ood:
                    sc = max_log_prob_score(z, text_features, cfg.ood_scale)
                    loss = loss + cfg.beta_ood * oce_loss(sc, alpha, cfg.gamma)
                    keep = sc.detach() > alpha.detach()
                    zt = z[keep]
                if zt.shape[0] >= 1:
                    f = {"entropy": entropy_tta_loss, "soft-contrastive": soft_contrastive_tta_loss,
                         "hard-pseudo-label": hard_pseudo_label_loss}[cfg.loss]
                    loss = loss + f(zt, text_features, cfg.scale)
                opt.zero_grad()
                loss.backward()
                opt.step()
            losses.append(float(loss.detach()) if isinstance(loss, Tensor) else float(loss))
        with torch.no_grad():
            z = tower(xb)
            preds.append((z @ text_features.T).argmax(1).numpy())
            scores.append(max_log_prob_score(z, text_features, cfg.ood_scale).numpy())
    for p in params:
        p.requires_grad_(False)
    return {"pred": np.concatenate(preds), "score": np.concatenate(scores), "loss": np.asarray(losses)}


def predict(tower: ImageTower, text_features: Tensor, X: np.ndarray) -> np.ndarray:
    """Zero-shot class predictions $\\arg\\max_c z^\\top t_c$ of the (possibly adapted) tower. (N, 64) -> (N,)."""
    with torch.no_grad():
        return (tower(torch.as_tensor(np.asarray(X, np.float32))) @ text_features.T).argmax(1).numpy()


def prediction_marginal(pred: np.ndarray, n_classes: int = 10) -> np.ndarray:
    """Share of predictions per class. (N,) int -> (n_classes,), sums to 1."""
    pred = np.asarray(pred)
    if pred.ndim != 1 or pred.size == 0:
        raise ValueError("pred must be a non-empty 1-D array")
    return np.bincount(pred, minlength=n_classes)[:n_classes] / pred.size


def collapse_diagnostics(pred: np.ndarray, n_classes: int = 10, min_share: float = 0.02) -> dict[str, float]:
    """Collapse diagnostics of a set of predictions: the number of classes that receive at least
    ``min_share`` of them and the entropy (nats) of their marginal distribution."""
    m = prediction_marginal(pred, n_classes)
    nz = m[m > 0]
    return {"n_classes": float((m >= min_share).sum()), "entropy": float(-(nz * np.log(nz)).sum())}


# ----------------------------------------------------------------------------- comparators' losses
def hard_pseudo_label_loss(image_features: Tensor, text_features: Tensor, scale: float) -> Tensor:
    """Self-training on hard pseudo-labels (Lee 2013, "Pseudo-Label"): the cross-entropy of the zero-shot
    logits against their own argmax, $\\frac1B\\sum_i -\\log \\mathrm{softmax}_{\\hat y_i}(s\\, z_i^\\top t_c)$,
    with $\\hat y_i = \\arg\\max_c z_i^\\top t_c$ not differentiated. A naive TTA objective that uses none of
    CLIPTTA's ideas. (B, d), (C, d) -> scalar tensor (nats)."""
    _check_features(image_features, text_features, scale)
    logits = float(scale) * image_features @ text_features.T
    return nn.functional.cross_entropy(logits, logits.detach().argmax(1))


# ----------------------------------------------------------------------------- many streams at once
# The page runs dozens of (method, shift) streams on the same frozen tower. Each stream has its own copy of
# the LayerNorm parameters and its own Adam state; since Adam is elementwise and the streams' parameters are
# disjoint, summing the streams' losses and stepping once gives every stream exactly its own update. The
# functions below do that on tensors with a leading stream axis S (``adapt_streams``), so that one Python
# step serves all streams; ``adapt_stream`` above stays the one-stream reference (the unit tests compare them).

LOSSES = ("none", "entropy", "soft-contrastive", "hard-pseudo-label")
_FILL = -1e9  # logit of a masked-out column (finite, so that no NaN enters a gradient)


def _masked_mean(x: Tensor, mask: Tensor) -> Tensor:
    """Mean of x (S, B) over the entries where mask (S, B) is 1; 0 for a stream with none. Returns (S,)."""
    return (x * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)


def _masked_row_entropy(logits: Tensor, col_mask: Tensor) -> Tensor:
    """Entropy (nats) of softmax over the last axis of logits (S, R, K), over the columns where col_mask
    (S, K) is 1, with the official ``+1e-6`` offset. Returns (S, R)."""
    x = (logits + _EPS).masked_fill(col_mask[:, None, :] == 0, _FILL)
    logp = x.log_softmax(-1)
    return -(logp.exp() * logp * col_mask[:, None, :]).sum(-1)


def batched_tta_losses(cos: Tensor, scale: float, mask: Tensor, which: tuple[str, ...] | None = None
                       ) -> dict[str, Tensor]:
    r"""Every TTA loss of the page for S streams at once, each over its stream's unmasked samples.

    Every loss depends on the image features only through their cosines with the class prototypes
    ($L_{ij} = s\, z_i^\top t_{\hat y_j}$ is the cosine of image $i$ with class $\hat y_j$), so they take
    the cosines.

    Parameters
    ----------
    cos : (S, B, C) tensor, $z_i^\top t_c$ for S batches of unit-norm features.
    scale : float > 0, logit scale $s$.
    mask : (S, B) tensor of 0/1, which samples of each batch enter the losses (padding, the Otsu filter).
    which : the names of the losses to compute (default: all four).

    Returns
    -------
    dict of (S,) tensors: ``entropy`` (TENT, :func:`entropy_tta_loss`), ``soft-contrastive``
    (:func:`soft_contrastive_tta_loss`), ``hard-pseudo-label`` (:func:`hard_pseudo_label_loss`) and
    ``marginal`` (:func:`marginal_entropy`), each equal to the one-batch function on the unmasked samples.
    """
    if cos.ndim != 3 or mask.shape != cos.shape[:2]:
        raise ValueError(f"cos (S, B, C) and mask (S, B); got {tuple(cos.shape)}, {tuple(mask.shape)}")
    check_positive(scale, "scale")
    which = ("entropy", "soft-contrastive", "hard-pseudo-label", "marginal") if which is None else which
    m = mask.to(cos.dtype)
    logits = float(scale) * cos
    pred = cos.detach().argmax(-1)                                       # pseudo-labels, (S, B)
    S, B, C = cos.shape
    out = {}
    if "entropy" in which:
        out["entropy"] = _masked_mean(_masked_row_entropy(logits, torch.ones(S, C, dtype=cos.dtype)), m)
    if "soft-contrastive" in which:
        L = logits.gather(-1, pred[:, None, :].expand(S, B, B))        # images x pseudo-captions, (S, B, B)
        out["soft-contrastive"] = _masked_mean(_masked_row_entropy(L, m), m)
    if "hard-pseudo-label" in which:
        out["hard-pseudo-label"] = _masked_mean(-logits.log_softmax(-1).gather(-1, pred[..., None])[..., 0], m)
    if "marginal" in which:
        pm = ((logits + _EPS).softmax(-1) * m[..., None]).sum(1) / m.sum(1, keepdim=True).clamp(min=1.0)
        out["marginal"] = -(pm * torch.log(pm + _EPS)).sum(-1)
    return out


def _first_layer(tower: ImageTower, X: Tensor) -> Tensor:
    """The frozen first linear layer, before the first LayerNorm: (..., 64) -> (..., hidden)."""
    with torch.no_grad():
        return tower.fc1(X)


def _head(tower: ImageTower, text_features: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
    r"""The frozen output layer folded onto the prototypes: $T W$, $T b$, $W^\top W$, $W^\top b$, $b^\top b$."""
    with torch.no_grad():
        W, b = tower.proj.weight.to(text_features.dtype), tower.proj.bias.to(text_features.dtype)
        return (text_features @ W).T.contiguous(), text_features @ b, W.T @ W, W.T @ b, b @ b


def stream_cosines(tower: ImageTower, params: list[Tensor], H1: Tensor, text_features: Tensor,
                   head: tuple | None = None) -> Tensor:
    r"""Cosines $z^\top t_c$ of the tower's unit-norm features with the prototypes, for S streams that each
    have their own LayerNorm scales and shifts.

    The output layer $z = W h + b$ enters only through $W h + b$ projected on the C prototypes and through
    $\lVert z\rVert^2 = h^\top W^\top W h + 2 b^\top W h + b^\top b$, which is what is computed (C + hidden
    outputs instead of out_dim).

    Parameters
    ----------
    tower : the frozen :class:`ImageTower` (its linear layers are shared by all streams).
    params : [w1, b1, w2, b2], each (S, hidden): the streams' LayerNorm parameters.
    H1 : (S, B, hidden) or (B, hidden) tensor, the first linear layer's output (:func:`_first_layer`).
    text_features : (C, out_dim) tensor of unit-norm prototypes.
    head : optional, ``_head(tower, text_features)`` computed once (it does not change during adaptation).

    Returns
    -------
    (S, B, C) tensor; stream s equals ``tower`` with its LayerNorms set to ``params[k][s]``.
    """
    w1, b1, w2, b2 = params
    h = nn.functional.layer_norm(H1, (H1.shape[-1],), eps=tower.ln1.eps)
    h = torch.relu(h * w1[:, None, :] + b1[:, None, :])
    h = tower.fc2(h)
    h = nn.functional.layer_norm(h, (h.shape[-1],), eps=tower.ln2.eps)
    h = torch.relu(h * w2[:, None, :] + b2[:, None, :])
    TW, Tb, G, Wb, bb = head if head is not None else _head(tower, text_features)
    zt = h @ TW + Tb                                                     # (S, B, C) = (W h + b) . t_c
    sq = ((h @ G) * h).sum(-1) + 2 * h @ Wb + bb                         # |W h + b|^2
    return zt / sq.clamp(min=1e-30).sqrt()[..., None]


def predict_streams(tower: ImageTower, params: list[Tensor], text_features: Tensor, X: np.ndarray) -> np.ndarray:
    """Zero-shot predictions of S adapted streams on images X, (S, N, 64) or (N, 64) shared. Returns (S, N)."""
    with torch.no_grad():
        H1 = _first_layer(tower, torch.as_tensor(np.asarray(X, np.float32)))
        return stream_cosines(tower, params, H1, text_features).argmax(-1).numpy()


class _StreamAdam:
    """Adam (Kingma and Ba 2015, Algorithm 1; torch's single-tensor formula) on tensors whose first axis is
    the stream, with a learning rate per stream and per-stream step counts; a stream whose ``active`` entry is
    False is left untouched (parameters, moments and step count)."""

    def __init__(self, params: list[Tensor], lr: Tensor, eps: float, betas: tuple[float, float] = (0.9, 0.999)):
        self.params, self.lr, self.eps, self.betas = params, lr, eps, betas
        self.m = [torch.zeros_like(p) for p in params]
        self.v = [torch.zeros_like(p) for p in params]
        self.t = torch.zeros(lr.shape[0], dtype=torch.float64)

    @torch.no_grad()
    def step(self, active: Tensor) -> None:
        b1, b2 = self.betas
        self.t = self.t + active.to(torch.float64)
        t = self.t.clamp(min=1.0)
        c1 = (1 - b1 ** t).to(self.params[0].dtype)
        c2 = (1 - b2 ** t).sqrt().to(self.params[0].dtype)
        a = active[:, None]
        for p, m, v in zip(self.params, self.m, self.v):
            g = p.grad if p.grad is not None else torch.zeros_like(p)
            m.copy_(torch.where(a, b1 * m + (1 - b1) * g, m))
            v.copy_(torch.where(a, b2 * v + (1 - b2) * g * g, v))
            upd = (self.lr / c1)[:, None] * m / ((v.sqrt() / c2[:, None]) + self.eps)
            p.copy_(torch.where(a, p - upd, p))
            p.grad = None


def adapt_streams(tower: ImageTower, text_features: Tensor, X: np.ndarray, batch: int,
                  cfgs: list[TTAConfig]) -> dict:
    """Online, non-episodic test-time adaptation of S streams at once: stream s is ``X[s]`` adapted with
    ``cfgs[s]``, as :func:`adapt_stream` would (up to float rounding), with two additions.

    - ``cfg.loss`` may also be ``"hard-pseudo-label"`` (:func:`hard_pseudo_label_loss`).
    - ``cfg.memory_shots > 0`` adds the official class-balanced memory (``ttavlm/memory/ccm.py``, CCM): at
      the first step of each batch, each sample is filed under its pseudo-label, and each class keeps the
      ``memory_shots`` samples with the highest confidence (max softmax of the cosines at ``ood_scale``, the
      official ``id_score_type=max_prob``). At every step the TTA loss and the regulariser are also computed
      on the whole memory and added (the official closed-set setting: sample size 40 = 4 shots x 10 classes,
      so the sample is the whole memory).

    Parameters
    ----------
    tower : the pre-trained :class:`ImageTower`; not modified (each stream starts from its LayerNorms).
    text_features : (C, d) tensor of class prototypes.
    X : (S, N, 64) array, the S streams (same length).
    batch : int >= 2, batch size.
    cfgs : S :class:`TTAConfig`, all with the same logit scale; every stream with memory must use the same
        ``memory_shots``.

    Returns
    -------
    {"pred": (S, N) int, "score": (S, N) float (max-log-prob at ``ood_scale``), "params": [w1, b1, w2, b2]
    of shape (S, hidden) after the stream (for :func:`predict_streams`), "memory_conf": (S_mem, C, shots)
    the confidences held at the end by the memories of the streams that have one, in stream order (-inf: an
    empty slot)}.
    """
    check_int(batch, "batch", least=2)
    X = np.asarray(X, np.float32)
    if X.ndim != 3 or X.shape[2] != 64 or X.shape[0] != len(cfgs):
        raise ValueError(f"X must have shape (S, N, 64) with S = len(cfgs) = {len(cfgs)}; got {X.shape}")
    for c in cfgs:
        if c.loss not in LOSSES:
            raise ValueError(f"unknown loss {c.loss!r}; one of {LOSSES}")
    shots = {c.memory_shots for c in cfgs if c.memory_shots}
    if len(shots) > 1:
        raise ValueError("every stream with memory must use the same memory_shots")
    scale = cfgs[0].scale
    if any(c.scale != scale for c in cfgs):
        raise ValueError("all streams must share the logit scale")
    K_mem = shots.pop() if shots else 1
    S, C = len(cfgs), text_features.shape[0]
    dt = text_features.dtype
    for p in tower.parameters():
        p.requires_grad_(False)
    H1 = _first_layer(tower, torch.as_tensor(X)).to(dt)
    hidden = H1.shape[-1]
    head = _head(tower, text_features)
    params = [p.detach().clone().to(dt).expand(S, -1).clone().requires_grad_(True) for p in tower.norm_parameters()]
    alpha = torch.zeros(S, 1, dtype=dt, requires_grad=True)
    f = lambda v: torch.tensor(v, dtype=dt)  # noqa: E731
    opt = _StreamAdam(params + [alpha], f([c.lr for c in cfgs]), eps=1e-6)
    adapt = torch.tensor([c.loss != "none" for c in cfgs])
    steps = torch.tensor([c.steps if c.loss != "none" else 0 for c in cfgs])
    w_loss = {k: f([float(c.loss == k) for c in cfgs]) for k in LOSSES[1:] if any(c.loss == k for c in cfgs)}
    beta_reg = f([c.beta_reg for c in cfgs])
    which = tuple(w_loss) + (("marginal",) if bool((beta_reg != 0).any()) else ())
    ood_idx = torch.tensor([s for s, c in enumerate(cfgs) if c.ood], dtype=torch.long)
    ood_mask = torch.tensor([c.ood for c in cfgs])
    beta_ood, gamma = f([c.beta_ood for c in cfgs])[ood_idx], f([c.gamma for c in cfgs])[ood_idx]
    ood_scale = f([c.ood_scale for c in cfgs])[:, None, None]
    mem_idx = torch.tensor([s for s, c in enumerate(cfgs) if c.memory_shots > 0], dtype=torch.long)
    Sm = len(mem_idx)
    mem_h = torch.zeros(Sm, C, K_mem, hidden, dtype=dt)   # the memories of the streams that have one
    mem_conf = torch.full((Sm, C, K_mem), -torch.inf, dtype=dt)
    preds, scores = [], []
    for start in range(0, X.shape[1], batch):
        hb = H1[:, start:start + batch]
        B = hb.shape[1]
        if B >= 2 and bool(adapt.any()):
            if len(ood_idx):
                with torch.no_grad():
                    s0 = (ood_scale * stream_cosines(tower, params, hb, text_features, head)).log_softmax(-1).max(-1).values
                for s in ood_idx.tolist():
                    x0 = s0[s].numpy()
                    alpha.data[s, 0] = otsu_threshold(x0) if np.ptp(x0) > 0 else float(x0[0])
            for k in range(int(steps.max())):
                active = adapt & (steps > k)
                cos = stream_cosines(tower, params, hb, text_features, head)
                keep = torch.ones(S, B, dtype=dt)
                lt = batched_tta_losses(cos, scale, keep, which)
                loss = -beta_reg * lt["marginal"] if "marginal" in lt else torch.zeros(S, dtype=dt)
                if len(ood_idx):
                    sc = (ood_scale[ood_idx] * cos[ood_idx]).log_softmax(-1).max(-1).values
                    w = torch.sigmoid((sc - alpha[ood_idx]) / gamma[:, None])
                    mu_in = (w * sc).sum(1) / w.sum(1)
                    mu_out = ((1 - w) * sc).sum(1) / (1 - w).sum(1)
                    loss = loss.index_add(0, ood_idx, -beta_ood * (mu_in - mu_out) ** 2)
                    keep = keep.clone()
                    keep[ood_idx] = (sc.detach() > alpha[ood_idx].detach()).to(dt)
                    lt = batched_tta_losses(cos, scale, keep, tuple(w_loss))
                loss = loss + sum(w * lt[n] for n, w in w_loss.items())
                if Sm:
                    if k == 0:
                        with torch.no_grad():
                            cm = cos[mem_idx]
                            pl = cm.argmax(-1)
                            conf = (ood_scale[mem_idx] * cm).softmax(-1).max(-1).values
                            ok = (keep[mem_idx] > 0) & active[mem_idx, None]
                            onc = (pl[:, None, :] == torch.arange(C)[None, :, None]) & ok[:, None, :]
                            cand_c = torch.cat([mem_conf, torch.where(onc, conf[:, None, :], -torch.inf)], -1)
                            cand_h = torch.cat([mem_h, hb[mem_idx][:, None].expand(Sm, C, B, hidden)], 2)
                            idx = cand_c.topk(K_mem, dim=-1).indices
                            mem_conf = cand_c.gather(-1, idx)
                            mem_h = cand_h.gather(2, idx[..., None].expand(-1, -1, -1, hidden))
                    valid = torch.isfinite(mem_conf).reshape(Sm, C * K_mem).to(dt)
                    cos_m = stream_cosines(tower, [p[mem_idx] for p in params],
                                           mem_h.reshape(Sm, C * K_mem, hidden), text_features, head)
                    lm = batched_tta_losses(cos_m, scale, valid, which)
                    add = sum(w[mem_idx] * lm[n] for n, w in w_loss.items())
                    if "marginal" in lm:
                        add = add - beta_reg[mem_idx] * lm["marginal"]
                    loss = loss.index_add(0, mem_idx, add)
                loss.sum().backward()
                opt.step(active)
        with torch.no_grad():
            cos = stream_cosines(tower, params, hb, text_features, head)
            preds.append(cos.argmax(-1).numpy())
            scores.append((ood_scale * cos).log_softmax(-1).max(-1).values.numpy())
    return {"pred": np.concatenate(preds, 1), "score": np.concatenate(scores, 1),
            "params": [p.detach() for p in params], "memory_conf": mem_conf}


# ----------------------------------------------------------------------------- a training-free baseline
def tda_stream(image_features: np.ndarray, text_features: np.ndarray, scale: float = 100.0,
               pos: tuple[float, float, int] = (2.0, 5.0, 3), neg: tuple[float, float, int] = (0.117, 1.0, 2),
               entropy_band: tuple[float, float] = (0.2, 0.5), mask_band: tuple[float, float] = (0.03, 1.0)
               ) -> tuple[np.ndarray, dict]:
    r"""TDA, the training-free dynamic adapter (Karmanov et al., CVPR 2024), as the official CLIPTTA code runs
    it (``ttavlm/methods/tda.py``, batch size 1, its defaults): a cache of past test features per pseudo-label.

    For each test sample in order: logits $\ell = s\, z^\top t_c$, entropy $h$ of their softmax. The
    positive cache keeps, per pseudo-label, the ``pos[2]`` samples of lowest $h$ (a new sample replaces the
    cached one of highest $h$ if its own is lower); the negative cache (only samples whose $h / \log_2 C$ lies
    in ``entropy_band``, as the official code divides) keeps ``neg[2]`` per class with the mask
    $0.03 < p_c < 1$ of their probabilities. After the update, the sample is predicted from
    $\ell + \alpha_+ \sum_k e^{-\beta_+(1 - z^\top k)} y_k - \alpha_- \sum_k e^{-\beta_-(1 - z^\top k)} m_k$.
    No parameter is trained.

    Parameters
    ----------
    image_features : (N, d) array of unit-norm features of the frozen tower, in stream order.
    text_features : (C, d) array of unit-norm prototypes.
    scale : logit scale $s$; pos, neg : (alpha, beta, shots per class); entropy_band, mask_band : as above.

    Returns
    -------
    (pred (N,) int, cache) where ``cache`` (keys, entropies, values per slot of each cache) is what
    :func:`tda_logits` needs to predict more samples.
    """
    Z, Tf = np.asarray(image_features, np.float64), np.asarray(text_features, np.float64)
    if Z.ndim != 2 or Tf.ndim != 2 or Z.shape[1] != Tf.shape[1]:
        raise ValueError("image_features (N, d) and text_features (C, d) must share d")
    C, d = Tf.shape
    cache = {"scale": float(scale)}
    for kind, (a, b, cap) in (("pos", pos), ("neg", neg)):
        cache[kind] = {"alpha": float(a), "beta": float(b), "cap": int(cap), "keys": np.zeros((C * cap, d)),
                       "ent": np.full(C * cap, np.inf), "values": np.zeros((C * cap, C))}
    logits = float(scale) * Z @ Tf.T
    x = logits + _EPS
    P_ = np.exp(x - x.max(1, keepdims=True))
    P_ /= P_.sum(1, keepdims=True)
    H = -(P_ * np.log(P_ + 1e-300)).sum(1)
    preds = np.empty(len(Z), np.int64)
    onehot = np.eye(C)
    for i, z in enumerate(Z):
        h, c = float(H[i]), int(np.argmax(x[i]))
        for kind in ("pos", "neg"):
            if kind == "neg" and not entropy_band[0] < h / np.log2(C) < entropy_band[1]:
                continue
            k = cache[kind]
            sl = slice(c * k["cap"], (c + 1) * k["cap"])
            j = int(np.argmax(k["ent"][sl]))        # an empty slot (inf) first, else the highest entropy
            if np.isinf(k["ent"][sl][j]) or h < k["ent"][sl][j]:
                k["keys"][sl][j], k["ent"][sl][j] = z, h
                k["values"][sl][j] = onehot[c] if kind == "pos" else ((P_[i] > mask_band[0]) & (P_[i] < mask_band[1]))
        preds[i] = int(np.argmax(tda_logits(z[None], Tf, cache)[0]))
    return preds, cache


def tda_logits(image_features: np.ndarray, text_features: np.ndarray, cache: dict) -> np.ndarray:
    """TDA's logits of samples (N, d) with a fixed cache from :func:`tda_stream`. Returns (N, C)."""
    Z, Tf = np.asarray(image_features, np.float64), np.asarray(text_features, np.float64)
    out = cache["scale"] * Z @ Tf.T
    for kind, sign in (("pos", 1.0), ("neg", -1.0)):
        k = cache[kind]
        live = np.isfinite(k["ent"])
        if live.any():
            aff = np.exp(-(k["beta"] - k["beta"] * (Z @ k["keys"][live].T)))
            out = out + sign * k["alpha"] * aff @ k["values"][live]
    return out


def centred_cosine_stream(image_features: np.ndarray, text_features: np.ndarray, batch: int) -> np.ndarray:
    r"""Running class-wise centring of the zero-shot cosines: a training-free debiasing baseline (none of
    CLIPTTA's ideas; suggested by the page's independent review).

    The stream arrives in batches of ``batch``. After batch $b$ arrives, each class's running mean cosine over
    every sample seen so far (batch $b$ included), $\mu_c = \frac1n \sum_{k \le n} z_k^\top t_c$, is subtracted,
    and the batch is predicted with $\hat y_i = \arg\max_c (z_i^\top t_c - \mu_c)$. Nothing is trained and no
    label is used. It assumes, as CLIPTTA's marginal-entropy regulariser does, that the classes are balanced
    over the stream: a shift that adds a per-class bias to the cosines is removed exactly.

    Parameters
    ----------
    image_features : (N, d) array of features of the frozen tower, in stream order.
    text_features : (C, d) array of prototypes.
    batch : batch size of the stream (the last batch may be shorter).

    Returns
    -------
    pred : (N,) int array of class predictions.
    """
    Z, Tf = np.asarray(image_features, np.float64), np.asarray(text_features, np.float64)
    if Z.ndim != 2 or Tf.ndim != 2 or Z.shape[1] != Tf.shape[1] or len(Z) == 0:
        raise ValueError("image_features (N, d), N >= 1, and text_features (C, d) must share d")
    batch = check_int(batch, "batch", least=1)
    cos = Z @ Tf.T                                              # (N, C)
    n_seen = np.minimum((np.arange(len(Z)) // batch + 1) * batch, len(Z))  # samples seen when i's batch arrives
    mean = np.cumsum(cos, 0)[n_seen - 1] / n_seen[:, None]      # running per-class mean cosine, (N, C)
    return (cos - mean).argmax(1)
