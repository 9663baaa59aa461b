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

    loss: str  # "none", "entropy", "soft-contrastive"
    lr: float = 1e-4
    beta_reg: float = 0.0
    steps: int = 10
    scale: float = 100.0
    ood: bool = False        # OCE term + Otsu filtering of the TTA loss (open set)
    beta_ood: float = 1.0
    gamma: float = 0.005
    ood_scale: float = 1.0


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
                    f = entropy_tta_loss if cfg.loss == "entropy" else soft_contrastive_tta_loss
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
