r"""Mitigating Spurious Features in Contrastive Learning with Spectral Regularization.

Paper map
---------
*Mitigating Spurious Features in Contrastive Learning with Spectral Regularization*, N. Ghanooni, W. Mustafa,
D. Wagner, S. Fellenz, A. W. Lin, M. Kloft, NeurIPS 2025, https://openreview.net/forum?id=TPMsCus3r0
(official code: github.com/NaghmehGh/SpuriousCorrelation_SSRL, not retrievable here).
Notebook: ``notebooks/spectral-reg-spurious-ssl.py``.

Notation (paper -> here):

- feature matrix :math:`F` of a batch (n x d, encoder outputs) -> ``h`` (the representation of
  :class:`repro.ssl.MLPEncoder`, what the linear probe sees);
- feature covariance :math:`C = \tfrac{1}{n-1}(F - \bar F)^\top (F - \bar F)` and its eigenvalues
  :math:`\lambda_1 \ge \dots \ge \lambda_d` -> :func:`feature_covariance_eigenvalues`;
- normalised spectrum :math:`p_i = \lambda_i / \sum_j \lambda_j`;
- effective rank :math:`\exp(-\sum_i p_i \log p_i)` -> :func:`effective_rank`;
- uniform-spectrum regulariser :math:`R(F) = \sum_i (p_i - 1/d)^2` -> :func:`uniform_spectrum_penalty`
  (the brief's reading of the paper's "uniform eigenspectrum" objective; the paper's Algorithm 1 was not seen);
- objective :math:`\mathcal L = \mathcal L_\text{SimCLR}(z_1, z_2) + \lambda\, \tfrac12 [R(F_1) + R(F_2)]`
  -> :func:`spectral_simclr_loss`; ``lam < 0`` is our control (a regulariser that rewards a peaked spectrum);
- "dominant singular mode" share :math:`p_1` -> :func:`top_mode_fraction`.

The data ("spurious digits") is :func:`make_spur_digits`; training with the spectrum recorded at every epoch
is :func:`train_spectral_simclr`, built on :mod:`repro.ssl` (views, encoder, NT-Xent, Adam loop, probe).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
from numpy.typing import ArrayLike
from torch import Tensor

from repro.ssl import MLPEncoder, augment_digits, covariance_spectrum, group_accuracies, linear_probe_accuracy, nt_xent, train_ssl
from repro.validate import check_int, check_positive

__all__ = ["effective_rank", "uniform_spectrum_penalty", "top_mode_fraction", "feature_covariance_eigenvalues",
           "make_spur_digits", "spectral_simclr_loss", "train_spectral_simclr", "evaluate_probe"]


def _normalised(eigenvalues: Tensor | ArrayLike) -> Tensor | np.ndarray:
    """``p = eigenvalues / sum`` after checks (1-d, finite, non-negative up to rounding, positive sum)."""
    if isinstance(eigenvalues, Tensor):
        ev = eigenvalues
        if ev.ndim != 1 or ev.numel() == 0:
            raise ValueError(f"eigenvalues must be a non-empty 1-d array; got shape {tuple(ev.shape)}")
        if not bool(torch.isfinite(ev).all()):
            raise ValueError("eigenvalues must be finite")
        scale = ev.detach().abs().max()
        if bool((ev.detach() < -1e-6 * scale).any()):
            raise ValueError("eigenvalues of a covariance must be >= 0")
        ev = ev.clamp_min(0.0)
        total = ev.sum()
        if not float(total.detach()) > 0:
            raise ValueError("eigenvalues must have a positive sum")
        return ev / total
    ev = np.asarray(eigenvalues, dtype=float)
    if ev.ndim != 1 or ev.size == 0:
        raise ValueError(f"eigenvalues must be a non-empty 1-d array; got shape {ev.shape}")
    if not np.all(np.isfinite(ev)):
        raise ValueError("eigenvalues must be finite")
    if np.any(ev < -1e-6 * np.abs(ev).max()):
        raise ValueError("eigenvalues of a covariance must be >= 0")
    ev = np.clip(ev, 0.0, None)
    if not ev.sum() > 0:
        raise ValueError("eigenvalues must have a positive sum")
    return ev / ev.sum()


def effective_rank(eigenvalues: Tensor | ArrayLike) -> Tensor | float:
    r"""Effective rank: the exponential of the entropy of the normalised eigenvalues.

    :math:`\operatorname{erank} = \exp\big(-\sum_i p_i \log p_i\big)`, :math:`p_i = \lambda_i / \sum_j \lambda_j`,
    with :math:`0 \log 0 = 0` (Roy & Vetterli, 2007; the paper's measure of spectral flatness). It is ``d`` for
    equal eigenvalues and 1 for a single non-zero one.

    Parameters
    ----------
    eigenvalues : Tensor or array_like, shape (d,)
        Eigenvalues of a covariance (>= 0; tiny negative rounding is clipped), any order.

    Returns
    -------
    Tensor (0-d, differentiable) for a Tensor input, else float.
    """
    p = _normalised(eigenvalues)
    if isinstance(p, Tensor):
        return torch.exp(-torch.special.xlogy(p, p).sum())
    return float(np.exp(-np.sum(p[p > 0] * np.log(p[p > 0]))))


def uniform_spectrum_penalty(eigenvalues: Tensor | ArrayLike) -> Tensor | float:
    r"""Distance of the normalised spectrum from uniform: :math:`R = \sum_{i=1}^d (p_i - 1/d)^2`.

    Zero exactly when all eigenvalues are equal (whitened features); :math:`1 - 1/d` at its maximum (one
    non-zero eigenvalue). It equals :math:`\sum_i p_i^2 - 1/d`, so minimising it raises the order-2 Rényi
    effective rank :math:`1 / \sum_i p_i^2`.

    Parameters
    ----------
    eigenvalues : Tensor or array_like, shape (d,)
        Eigenvalues of the feature covariance (>= 0).

    Returns
    -------
    Tensor (0-d, differentiable) for a Tensor input, else float.
    """
    p = _normalised(eigenvalues)
    d = p.shape[0]
    if isinstance(p, Tensor):
        return ((p - 1.0 / d) ** 2).sum()
    return float(np.sum((p - 1.0 / d) ** 2))


def top_mode_fraction(eigenvalues: Tensor | ArrayLike) -> float:
    r"""Share of the variance in the dominant mode, :math:`\max_i \lambda_i / \sum_j \lambda_j`.

    Parameters
    ----------
    eigenvalues : Tensor or array_like, shape (d,)
    """
    p = _normalised(eigenvalues)
    return float(p.detach().max()) if isinstance(p, Tensor) else float(p.max())


def feature_covariance_eigenvalues(h: Tensor) -> Tensor:
    r"""Eigenvalues of the batch feature covariance, differentiable (``torch.linalg.eigvalsh``), ascending.

    :math:`C = \tfrac{1}{n-1} (F - \bar F)^\top (F - \bar F)`. A tiny ridge (``1e-6 * trace / d``) is added
    before the eigendecomposition so that the gradient stays finite when eigenvalues repeat (eigvalsh's
    eigenvalue gradients are finite for repeated eigenvalues; the ridge guards against a zero trace); it is
    subtracted again afterwards.

    Parameters
    ----------
    h : Tensor, shape (n, d), n >= 2

    Returns
    -------
    Tensor, shape (d,)
    """
    if not isinstance(h, Tensor) or h.ndim != 2 or h.shape[0] < 2:
        raise ValueError("h must be a Tensor of shape (n, d) with n >= 2")
    hc = h - h.mean(0, keepdim=True)
    C = hc.T @ hc / (h.shape[0] - 1)
    d = C.shape[0]
    ridge = 1e-6 * (torch.diagonal(C).sum().detach() / d + 1e-12)
    ev = torch.linalg.eigvalsh(C + ridge * torch.eye(d, dtype=C.dtype))
    return (ev - ridge).clamp_min(0.0)


def make_spur_digits(p_spurious: float, seed: int, n_train: int = 1200, amplitude: float = 1.0) -> dict:
    """Spurious digits: scikit-learn's 8x8 digits, label ``digit >= 5``, a bright 2x2 top-left patch as the cue.

    In the training split the patch is present exactly when ``a = y`` is drawn (probability ``p_spurious``
    per image, else ``a = 1 - y``), so the patch predicts the label ``p_spurious`` of the time; in the test
    split the patch is an independent fair coin. Groups are ``g = 2 y + a`` (label x patch); the minority
    groups are (y=0, patch) and (y=1, no patch).

    Parameters
    ----------
    p_spurious : float in [0.5, 1]
        Probability that the patch agrees with the label in the training split.
    seed : int
        Seeds the split and the patch draws (numpy ``default_rng``).
    n_train : int
        Training images (the remaining of the 1797 are the test split).
    amplitude : float
        Intensity of the patch pixels (images are scaled to [0, 1]).

    Returns
    -------
    dict with ``X_train`` (n, 8, 8) float32, ``y_train``, ``a_train``, ``g_train``, and the same for ``test``.
    """
    from sklearn.datasets import load_digits

    if not 0.5 <= float(p_spurious) <= 1.0:
        raise ValueError(f"p_spurious must be in [0.5, 1]; got {p_spurious}")
    n_train = check_int(n_train, "n_train", least=2)
    check_positive(amplitude, "amplitude")
    digits = load_digits()
    if n_train > len(digits.target) - 2:
        raise ValueError(f"n_train must leave at least 2 test images (of {len(digits.target)})")
    X = (digits.images / 16.0).astype(np.float32)
    y = (digits.target >= 5).astype(np.int64)
    rng = np.random.default_rng(int(seed))
    perm = rng.permutation(len(y))
    tr, te = perm[:n_train], perm[n_train:]
    a_tr = np.where(rng.random(len(tr)) < p_spurious, y[tr], 1 - y[tr])
    a_te = rng.integers(0, 2, len(te))
    out = {}
    for split, idx, a in (("train", tr, a_tr), ("test", te, a_te)):
        Xs = X[idx].copy()
        Xs[a == 1, :2, :2] = amplitude
        out[f"X_{split}"], out[f"y_{split}"], out[f"a_{split}"] = Xs, y[idx], a.astype(np.int64)
        out[f"g_{split}"] = 2 * y[idx] + a
    return out


def spectral_simclr_loss(model: MLPEncoder, x: Tensor, gen: torch.Generator, lam: float, tau: float = 0.5,
                         max_shift: int = 1, noise: float = 0.1) -> Tensor:
    r"""SimCLR loss of two random views plus the spectral term on the representations of both views.

    :math:`\mathcal L = \text{NT-Xent}(z_1, z_2; \tau) + \lambda\, \tfrac12\,[R(h_1) + R(h_2)]` with
    :math:`R` = :func:`uniform_spectrum_penalty` of :func:`feature_covariance_eigenvalues`. ``lam = 0`` is
    plain SimCLR; ``lam < 0`` rewards a peaked spectrum (the control).

    Parameters
    ----------
    model : MLPEncoder
    x : Tensor, shape (n, H, W)
        A batch of images.
    gen : torch.Generator
        Draws the views (:func:`repro.ssl.augment_digits`).
    lam, tau : float
        Weight of the spectral term; NT-Xent temperature.
    """
    v1 = augment_digits(x, gen, max_shift=max_shift, noise=noise)
    v2 = augment_digits(x, gen, max_shift=max_shift, noise=noise)
    h1, z1 = model(v1)
    h2, z2 = model(v2)
    loss = nt_xent(z1, z2, tau)
    if lam != 0:
        reg = 0.5 * (uniform_spectrum_penalty(feature_covariance_eigenvalues(h1))
                     + uniform_spectrum_penalty(feature_covariance_eigenvalues(h2)))
        loss = loss + lam * reg
    return loss


def train_spectral_simclr(X: ArrayLike, lam: float, epochs: int, seed: int, batch_size: int = 256,
                          lr: float = 1e-3, tau: float = 0.5, hidden: int = 256, rep_dim: int = 64,
                          proj_dim: int = 32) -> dict:
    """Train an :class:`~repro.ssl.MLPEncoder` with :func:`spectral_simclr_loss`, recording the spectrum.

    One :func:`repro.ssl.train_ssl` run (one Adam state); the covariance spectrum of the whole training
    split's representations is recorded at the start of every epoch and after the last one, so
    ``spectra[e]`` is the spectrum after ``e`` epochs (``e = 0``: at initialisation).

    Parameters
    ----------
    X : array_like, shape (n, H, W)
        Training images (no labels are used).
    lam : float
        Weight of the spectral term (0: SimCLR).
    epochs, seed, batch_size : int
    lr, tau : float
    hidden, rep_dim, proj_dim : int
        Encoder sizes.

    Returns
    -------
    dict with ``model``, ``spectra`` (epochs + 1, rep_dim) eigenvalues largest first, ``losses`` per epoch.
    """
    epochs = check_int(epochs, "epochs", least=1)
    batch_size = check_int(batch_size, "batch_size", least=2)
    Xt = torch.as_tensor(np.asarray(X, dtype=np.float32))
    if Xt.ndim != 3:
        raise ValueError("X must have shape (n, H, W)")
    n = Xt.shape[0]
    steps_per_epoch = sum(1 for s in range(0, n, batch_size) if min(batch_size, n - s) >= 2)
    torch.manual_seed(int(seed))
    model = MLPEncoder(Xt.shape[1] * Xt.shape[2], hidden, rep_dim, proj_dim)
    spectra: list[np.ndarray] = []
    calls = [0]

    def record() -> None:
        with torch.no_grad():
            spectra.append(covariance_spectrum(model(Xt)[0]))

    def batch_loss(idx: Tensor, gen: torch.Generator) -> Tensor:
        if calls[0] % steps_per_epoch == 0:
            record()
        calls[0] += 1
        return spectral_simclr_loss(model, Xt[idx], gen, lam, tau)

    losses = train_ssl(list(model.parameters()), n, batch_loss, epochs, batch_size, lr, seed)
    record()
    return {"model": model, "spectra": np.stack(spectra), "losses": losses}


def evaluate_probe(model: MLPEncoder, data: dict) -> dict:
    """Linear probe on the frozen representation: trained on the training split, scored per test group.

    The probe (:func:`repro.ssl.linear_probe_accuracy`) sees the training split's labels, with the same
    spurious correlation as the pre-training data, as a downstream task would; the test split's groups are
    balanced in the patch.

    Parameters
    ----------
    model : MLPEncoder
    data : dict
        From :func:`make_spur_digits`.

    Returns
    -------
    dict with ``accuracy`` (average over test images), ``worst_group``, ``groups`` ({g: accuracy}).
    """
    with torch.no_grad():
        h_tr = model(torch.as_tensor(data["X_train"]))[0].numpy()
        h_te = model(torch.as_tensor(data["X_test"]))[0].numpy()
    acc, pred = linear_probe_accuracy(h_tr, data["y_train"], h_te, data["y_test"])
    groups = group_accuracies(pred, data["y_test"], data["g_test"])
    return {"accuracy": acc, "worst_group": min(groups.values()), "groups": groups}


def _mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (0 for one value)."""
    v = np.asarray(values, dtype=float)
    return float(v.mean()), float(v.std(ddof=1)) if v.size > 1 else 0.0
