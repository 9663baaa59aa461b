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
- "dominant singular mode" share :math:`p_1` -> :func:`top_mode_fraction`;
- the page's ablation (not in the paper): the same penalty on the *diagonal* of :math:`C` (the per-feature
  variances) instead of its eigenvalues, :math:`R_\text{diag}(F) = \sum_i (q_i - 1/d)^2`,
  :math:`q_i = C_{ii} / \operatorname{tr} C` -> :func:`diagonal_uniformity_penalty`: it equalises the
  features' variances but, unlike :math:`R`, leaves their correlations, and so the eigenvalues, free;
- the brief's alternative form of the regulariser, the negative spectral entropy
  :math:`-\log\operatorname{erank}(F)` -> ``regulariser="entropy"`` of :func:`spectral_simclr_loss`.
- the page's training-free baseline (not in the paper): plain SimCLR's frozen representation whitened after
  training -> :func:`zca_whiten` (``evaluate_probe(..., whiten=True)``); whether a dominant mode encodes the
  spurious patch -> :func:`top_component_correlation`.

The data ("spurious digits") is :func:`make_spur_digits`; training with the spectrum recorded at every epoch
is :func:`train_spectral_simclr`, built on :mod:`repro.ssl` (views, encoder, NT-Xent, Adam loop, probe).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np
import torch
from numpy.typing import ArrayLike
from torch import Tensor

from repro.ssl import MLPEncoder, augment_digits, covariance_spectrum, group_accuracies, linear_probe_accuracy, nt_xent, train_ssl
from repro.validate import check_int, check_positive

__all__ = ["effective_rank", "uniform_spectrum_penalty", "top_mode_fraction", "feature_covariance_eigenvalues",
           "feature_variances", "diagonal_uniformity_penalty", "make_spur_digits", "spectral_simclr_loss",
           "train_spectral_simclr", "evaluate_probe", "zca_whiten", "top_component_correlation", "REGULARISERS"]

REGULARISERS = ("spectral", "diagonal", "entropy")


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


def feature_variances(h: Tensor) -> Tensor:
    r"""Per-feature variances of a batch, the diagonal of :math:`C` (differentiable).

    :math:`C_{ii} = \tfrac{1}{n-1}\sum_k (F_{ki} - \bar F_i)^2`, the same normalisation as
    :func:`feature_covariance_eigenvalues`, so that both sum to :math:`\operatorname{tr} C`.

    Parameters
    ----------
    h : Tensor, shape (n, d), n >= 2

    Returns
    -------
    Tensor, shape (d,)
    """
    if not isinstance(h, Tensor) or h.ndim != 2 or h.shape[0] < 2:
        raise ValueError("h must be a Tensor of shape (n, d) with n >= 2")
    return h.var(0, unbiased=True)


def diagonal_uniformity_penalty(h: Tensor) -> Tensor:
    r"""The page's ablation: :func:`uniform_spectrum_penalty` of the diagonal of :math:`C` instead of its spectrum.

    :math:`R_\text{diag}(F) = \sum_i (q_i - 1/d)^2` with :math:`q_i = C_{ii} / \operatorname{tr} C`. It has the
    form, range and scale of :math:`R` (0 for equal variances, at most :math:`1 - 1/d`), but it is 0 for any
    features with equal variances, however correlated: a rank-one :math:`C = \mathbf 1\mathbf 1^\top` scores 0
    here and :math:`1 - 1/d` under :math:`R`. By Schur's theorem the diagonal of :math:`C` is majorised by its
    eigenvalues, so :math:`R_\text{diag} \le R` always.

    Parameters
    ----------
    h : Tensor, shape (n, d), n >= 2
        A batch of representations.

    Returns
    -------
    Tensor (0-d, differentiable)
    """
    return uniform_spectrum_penalty(feature_variances(h))


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
                         max_shift: int = 1, noise: float = 0.1, regulariser: str = "spectral") -> Tensor:
    r"""SimCLR loss of two random views plus the spectral term on the representations of both views.

    :math:`\mathcal L = \text{NT-Xent}(z_1, z_2; \tau) + \lambda\, \tfrac12\,[R(h_1) + R(h_2)]` with
    :math:`R` = :func:`uniform_spectrum_penalty` of :func:`feature_covariance_eigenvalues` (the brief's
    reading of the paper's regulariser). ``lam = 0`` is plain SimCLR; ``lam < 0`` rewards a peaked spectrum.

    Parameters
    ----------
    model : MLPEncoder
    x : Tensor, shape (n, H, W)
        A batch of images.
    gen : torch.Generator
        Draws the views (:func:`repro.ssl.augment_digits`).
    lam, tau : float
        Weight of the spectral term; NT-Xent temperature.
    regulariser : {"spectral", "diagonal", "entropy"}
        ``"spectral"``: :math:`R` of the eigenvalues (the method); ``"diagonal"``: :func:`diagonal_uniformity_penalty`
        (the ablation: the same penalty on the per-feature variances); ``"entropy"``: the negative spectral
        entropy :math:`-\log\operatorname{erank}` (the brief's alternative form).
    """
    if regulariser not in REGULARISERS:
        raise ValueError(f"regulariser must be one of {REGULARISERS}; got {regulariser!r}")
    v1 = augment_digits(x, gen, max_shift=max_shift, noise=noise)
    v2 = augment_digits(x, gen, max_shift=max_shift, noise=noise)
    h1, z1 = model(v1)
    h2, z2 = model(v2)
    loss = nt_xent(z1, z2, tau)
    if lam != 0:
        if regulariser == "spectral":
            term = lambda h: uniform_spectrum_penalty(feature_covariance_eigenvalues(h))  # noqa: E731
        elif regulariser == "diagonal":
            term = diagonal_uniformity_penalty
        else:
            term = lambda h: -torch.log(effective_rank(feature_covariance_eigenvalues(h)))  # noqa: E731
        loss = loss + lam * 0.5 * (term(h1) + term(h2))
    return loss


def train_spectral_simclr(X: ArrayLike, lam: float, epochs: int, seed: int, batch_size: int = 256,
                          lr: float = 1e-3, tau: float = 0.5, hidden: int = 256, rep_dim: int = 64,
                          proj_dim: int = 32, regulariser: str = "spectral", snapshots: Sequence[int] = ()) -> dict:
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
    regulariser : str
        The form of the extra term (see :func:`spectral_simclr_loss`).
    snapshots : sequence of int
        Epochs ``e`` (0 .. epochs) after which a frozen copy of the encoder is kept (``e = 0``: the
        initialisation), for early-stopped baselines; copying draws no random numbers.

    Returns
    -------
    dict with ``model``, ``spectra`` (epochs + 1, rep_dim) eigenvalues largest first, ``losses`` per epoch,
    ``snapshots`` ({e: encoder after e epochs}).
    """
    epochs = check_int(epochs, "epochs", least=1)
    if regulariser not in REGULARISERS:
        raise ValueError(f"regulariser must be one of {REGULARISERS}; got {regulariser!r}")
    keep = sorted({check_int(e, "snapshot epoch", least=0) for e in snapshots})
    if keep and keep[-1] > epochs:
        raise ValueError(f"snapshot epochs must be <= epochs = {epochs}; got {keep[-1]}")
    batch_size = check_int(batch_size, "batch_size", least=2)
    Xt = torch.as_tensor(np.asarray(X, dtype=np.float32))
    if Xt.ndim != 3:
        raise ValueError("X must have shape (n, H, W)")
    n = Xt.shape[0]
    steps_per_epoch = sum(1 for s in range(0, n, batch_size) if min(batch_size, n - s) >= 2)
    torch.manual_seed(int(seed))
    model = MLPEncoder(Xt.shape[1] * Xt.shape[2], hidden, rep_dim, proj_dim)
    spectra: list[np.ndarray] = []
    frozen: dict[int, MLPEncoder] = {}
    calls = [0]

    def record() -> None:
        if len(spectra) in keep:
            frozen[len(spectra)] = copy.deepcopy(model).eval()
        with torch.no_grad():
            spectra.append(covariance_spectrum(model(Xt)[0]))

    def batch_loss(idx: Tensor, gen: torch.Generator) -> Tensor:
        if calls[0] % steps_per_epoch == 0:
            record()
        calls[0] += 1
        return spectral_simclr_loss(model, Xt[idx], gen, lam, tau, regulariser=regulariser)

    losses = train_ssl(list(model.parameters()), n, batch_loss, epochs, batch_size, lr, seed)
    record()
    return {"model": model, "spectra": np.stack(spectra), "losses": losses, "snapshots": frozen}


def zca_whiten(train: ArrayLike, test: ArrayLike, eps: float = 1e-5) -> tuple[np.ndarray, np.ndarray]:
    r"""ZCA whitening fitted on the training features, applied to both splits (a training-free comparator).

    With the training covariance :math:`C = V \Lambda V^\top` (``ddof=1``) and mean :math:`\mu`,
    :math:`x \mapsto (x - \mu)\, V (\Lambda + \epsilon I)^{-1/2} V^\top` with
    :math:`\epsilon = \text{eps} \cdot \operatorname{tr} C / d`: the usual small ridge, relative to the
    features' mean variance so that it does not depend on their scale. The whitened training features have
    covariance :math:`\approx I` (a flat spectrum), which is what the spectral regulariser pushes towards.

    Parameters
    ----------
    train, test : array_like, shape (n, d) and (m, d)
    eps : float
        Relative ridge (> 0).

    Returns
    -------
    (ndarray, ndarray): the whitened training and test features.
    """
    check_positive(eps, "eps")
    tr, te = np.asarray(train, dtype=float), np.asarray(test, dtype=float)
    if tr.ndim != 2 or te.ndim != 2 or tr.shape[1] != te.shape[1] or tr.shape[0] < 2:
        raise ValueError("train and test must be 2-d with the same number of columns (train: n >= 2 rows)")
    mu = tr.mean(0)
    C = np.cov(tr - mu, rowvar=False).reshape(tr.shape[1], tr.shape[1])
    w, V = np.linalg.eigh(C)
    ridge = eps * max(float(np.trace(C)) / C.shape[0], np.finfo(float).tiny)
    W = (V / np.sqrt(np.clip(w, 0.0, None) + ridge)) @ V.T
    return (tr - mu) @ W, (te - mu) @ W


def top_component_correlation(h: ArrayLike, attribute: ArrayLike) -> float:
    r"""|Pearson correlation| of the features' top principal-component score with an attribute.

    The score is :math:`(h - \bar h)\, v_1`, with :math:`v_1` the leading eigenvector of the covariance of
    ``h``. Used to ask whether a dominant mode encodes the spurious patch.

    Parameters
    ----------
    h : array_like, shape (n, d)
    attribute : array_like, shape (n,)
        E.g. the patch indicator ``a_train`` of :func:`make_spur_digits`.
    """
    h, a = np.asarray(h, dtype=float), np.asarray(attribute, dtype=float)
    if h.ndim != 2 or a.shape != (h.shape[0],) or h.shape[0] < 3:
        raise ValueError("h must be (n, d) with n >= 3 and attribute (n,)")
    hc = h - h.mean(0)
    _, V = np.linalg.eigh(hc.T @ hc)
    score = hc @ V[:, -1]
    if score.std() == 0 or a.std() == 0:
        raise ValueError("the top score or the attribute is constant")
    return float(abs(np.corrcoef(score, a)[0, 1]))


def evaluate_probe(model: MLPEncoder, data: dict, whiten: bool = False) -> dict:
    """Linear probe on the frozen representation: trained on the training split, scored per test group.

    The probe (:func:`repro.ssl.linear_probe_accuracy`) sees the training split's labels, with the same
    spurious correlation as the pre-training data, as a downstream task would; the test split's groups are
    balanced in the patch.

    Parameters
    ----------
    model : MLPEncoder
    data : dict
        From :func:`make_spur_digits`.
    whiten : bool
        Whiten the frozen representations first (:func:`zca_whiten`, fitted on the training split).

    Returns
    -------
    dict with ``accuracy`` (average over test images), ``worst_group``, ``groups`` ({g: accuracy}).
    """
    with torch.no_grad():
        h_tr = model(torch.as_tensor(data["X_train"]))[0].numpy()
        h_te = model(torch.as_tensor(data["X_test"]))[0].numpy()
    if whiten:
        h_tr, h_te = zca_whiten(h_tr, h_te)
    acc, pred = linear_probe_accuracy(h_tr, data["y_train"], h_te, data["y_test"])
    groups = group_accuracies(pred, data["y_test"], data["g_test"])
    return {"accuracy": acc, "worst_group": min(groups.values()), "groups": groups}


def _mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (0 for one value)."""
    v = np.asarray(values, dtype=float)
    return float(v.mean()), float(v.std(ddof=1)) if v.size > 1 else 0.0
