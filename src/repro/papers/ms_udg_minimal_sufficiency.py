r"""Minimal Semantic Sufficiency Meets Unsupervised Domain Generalization (MS-UDG), at digit scale.

Paper map
---------
*Minimal Semantic Sufficiency Meets Unsupervised Domain Generalization*, Tan Pan, Kaiyu Guo, Dongli Xu,
Zhaorui Tan, Chen Jiang, Deshu Chen, Xin Guo, Brian C. Lovell, Limei Han, Yuan Cheng, Mahsa Baktashmotlagh,
NeurIPS 2025, https://arxiv.org/abs/2509.15791 (no official code was found).
Notebook: ``notebooks/ms-udg-minimal-sufficiency.py``.

The paper asks for a representation that is *sufficient* (keeps the semantics shared by two augmented views;
an InfoNCE bound) and *minimal* (drops what is not semantic; a semantic-variation disentanglement loss and a
reconstruction branch that gives the variation somewhere to go). The paper's exact losses were not retrieved;
the miniature's are our design (brief, [I]).

Notation (paper -> here):

- input image :math:`x`, two augmented views :math:`x^{(1)}, x^{(2)}` -> ``x1, x2`` (:func:`make_views`);
- semantic and variation representations :math:`z_s, z_v` -> ``h_s, h_v`` (the two halves of the encoder's
  output, :class:`SplitEncoder`); the projection that enters InfoNCE -> ``z``;
- sufficiency term :math:`\mathcal{L}_{\mathrm{NCE}}` -> :func:`info_nce` (re-exported from
  :mod:`repro.ssl`), symmetrised over the two views;
- disentanglement term -> normalised HSIC between ``h_s`` and ``h_v`` (:func:`hsic`, :func:`normalized_hsic`);
- reconstruction :math:`\hat x = \mathrm{Dec}(z_s, z_v)` -> :meth:`SplitEncoder.decode`, with a cross-view
  ("swap") term :math:`\mathrm{Dec}(z_s^{(2)}, z_v^{(1)}) \approx x^{(1)}`;
- total loss (:func:`ms_udg_loss`): :math:`\mathcal{L} = \mathcal{L}_{\mathrm{NCE}} + \lambda_d
  \mathcal{L}_{\mathrm{dis}} + \lambda_r \mathcal{L}_{\mathrm{rec}}`.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from scipy import ndimage
from torch import Tensor, nn

from repro.ssl import MLPEncoder, augment_digits, info_nce, linear_probe_accuracy, train_ssl
from repro.validate import check_int, check_positive

__all__ = ["DOMAINS", "SplitEncoder", "d4_steps", "domain_accuracy", "fourier_amplitude_mix", "hsic", "info_nce",
           "instance_normalize", "linear_probe", "make_digit_domains", "make_views", "ms_udg_loss", "normalized_hsic",
           "pca_features", "probe_accuracies", "render_domain", "train_method"]

#: The four domains: D1-D3 are seen (pooled, unlabelled) during representation learning, D4 is held out.
DOMAINS = ("D1 original", "D2 inverted", "D3 texture", "D4 rotated+blurred (held out)")


# ----------------------------------------------------------------------------------------------------------
# Data: digit domains
# ----------------------------------------------------------------------------------------------------------

def render_domain(x: np.ndarray, domain: int, rng: np.random.Generator) -> np.ndarray:
    """Render 8x8 digit images in one of the four domains of the miniature.

    Parameters
    ----------
    x : ndarray, shape (n, 8, 8)
        Images with intensities in [0, 1].
    domain : int
        0: original; 1: intensity-inverted ``1 - x``; 2: an additive sinusoidal grating (period 3 px, random
        orientation and phase per image, amplitude 0.35), clipped to [0, 1]; 3 (held out): rotated by 15 degrees
        (bilinear), Gaussian blur (sigma 0.6 px) and a contrast reduction ``0.75 x``.
    rng : numpy.random.Generator
        Draws the grating's orientation and phase (domain 2 only).

    Returns
    -------
    ndarray, shape (n, 8, 8), values in [0, 1]
    """
    x = np.asarray(x, dtype=float)
    if x.ndim != 3 or x.shape[1:] != (8, 8):
        raise ValueError(f"x must have shape (n, 8, 8); got {x.shape}")
    domain = check_int(domain, "domain", least=0)
    if domain > 3:
        raise ValueError(f"domain must be 0, 1, 2 or 3; got {domain}")
    if domain == 0:
        return x.copy()
    if domain == 1:
        return 1.0 - x
    if domain == 2:
        n = x.shape[0]
        theta = rng.uniform(0, np.pi, n)[:, None, None]
        phase = rng.uniform(0, 2 * np.pi, n)[:, None, None]
        r, c = np.meshgrid(np.arange(8), np.arange(8), indexing="ij")
        grating = 0.5 * (1 + np.sin(2 * np.pi / 3 * (r * np.cos(theta) + c * np.sin(theta)) + phase))
        return np.clip(x + 0.35 * grating, 0.0, 1.0)
    return d4_steps(x)["+ contrast (D4)"]


def d4_steps(x: np.ndarray) -> dict[str, np.ndarray]:
    """The held-out domain D4 built one shift at a time, to see which shift costs the accuracy.

    Parameters
    ----------
    x : ndarray, shape (n, 8, 8)
        Images in [0, 1] (domain D1).

    Returns
    -------
    dict
        ``{"D1": x, "+ rotation": rotated by 15 degrees (bilinear, zero fill), "+ blur": then Gaussian blur
        (sigma 0.6 px), "+ contrast (D4)": then scaled to 75% contrast}``, each (n, 8, 8) in [0, 1].
    """
    x = np.asarray(x, dtype=float)
    if x.ndim != 3 or x.shape[1:] != (8, 8):
        raise ValueError(f"x must have shape (n, 8, 8); got {x.shape}")
    rot = np.clip(ndimage.rotate(x, 15.0, axes=(1, 2), reshape=False, order=1, mode="constant", cval=0.0), 0, 1)
    blur = ndimage.gaussian_filter(rot, sigma=(0, 0.6, 0.6))
    return {"D1": x.copy(), "+ rotation": rot, "+ blur": blur, "+ contrast (D4)": np.clip(0.75 * blur, 0.0, 1.0)}


def make_digit_domains(seed: int, test_frac: float = 0.3) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The miniature's data: scikit-learn's 1,797 digits split into images for training and for testing.

    Every training image is rendered in one of D1-D3 drawn uniformly (the learner never sees which); every test
    image is rendered twice: once in a random one of D1-D3 (in-domain test) and once in D4 (out-of-domain test),
    so the two test sets hold the same digits and differ only in the domain.

    Parameters
    ----------
    seed : int
        Seeds the split, the domain draws and the textures.
    test_frac : float
        Fraction of the images kept for testing, in (0, 1).

    Returns
    -------
    dict
        ``{"train": (X, y, d), "test_in": (X, y, d), "test_out": (X, y, d), "test_clean": (X, y, d)}`` with ``X``
        of shape (n, 8, 8) in [0, 1] (float32), ``y`` the digit (n,), ``d`` the domain index 0-3 (n,);
        ``test_clean`` holds the test digits in D1 (for :func:`d4_steps`).
    """
    from sklearn.datasets import load_digits

    seed = check_int(seed, "seed", least=0)
    if not 0.0 < float(test_frac) < 1.0:
        raise ValueError(f"test_frac must be in (0, 1); got {test_frac}")
    rng = np.random.default_rng(seed)
    X, y = load_digits(return_X_y=True)
    X = X.reshape(-1, 8, 8) / 16.0
    perm = rng.permutation(len(y))
    n_test = int(round(test_frac * len(y)))
    te, tr = perm[:n_test], perm[n_test:]

    def render(idx: np.ndarray, domains: np.ndarray) -> np.ndarray:
        out = np.empty((len(idx), 8, 8))
        for k in range(4):
            m = domains == k
            if m.any():
                out[m] = render_domain(X[idx[m]], k, rng)
        return out.astype(np.float32)

    d_tr = rng.integers(0, 3, len(tr))
    d_in = rng.integers(0, 3, len(te))
    d_out = np.full(len(te), 3)
    return {"train": (render(tr, d_tr), y[tr], d_tr), "test_in": (render(te, d_in), y[te], d_in),
            "test_out": (render(te, d_out), y[te], d_out),
            "test_clean": (X[te].astype(np.float32), y[te], np.zeros(len(te), dtype=int))}


# ----------------------------------------------------------------------------------------------------------
# Views
# ----------------------------------------------------------------------------------------------------------

def fourier_amplitude_mix(x1: Tensor, x2: Tensor, lam: float | Tensor) -> Tensor:
    r"""Fourier amplitude mixing: the phase of ``x1`` with the amplitude ``(1 - lam)|F x1| + lam |F x2|``.

    The Fourier-based augmentation of FACT (Xu et al., 2021) that the paper's pipeline uses: amplitude carries
    "style", phase carries "content", so mixing amplitudes across images varies the style of ``x1``.

    Parameters
    ----------
    x1, x2 : Tensor, shape (n, H, W)
    lam : float or Tensor of shape (n,)
        Mixing weight(s) in [0, 1]; ``lam = 0`` returns ``x1`` (up to FFT rounding).

    Returns
    -------
    Tensor, shape (n, H, W), real
    """
    if x1.ndim != 3 or x1.shape != x2.shape:
        raise ValueError(f"x1 and x2 must both have shape (n, H, W); got {tuple(x1.shape)}, {tuple(x2.shape)}")
    lam_t = torch.as_tensor(lam, dtype=x1.dtype)
    if lam_t.ndim == 0:
        lam_t = lam_t.expand(x1.shape[0])
    if lam_t.shape != (x1.shape[0],) or bool(((lam_t < 0) | (lam_t > 1)).any()):
        raise ValueError("lam must be a scalar or shape (n,), with values in [0, 1]")
    a1, phase = _amplitude_phase(x1)
    return _mix(a1, phase, torch.fft.fft2(x2).abs(), lam_t, x1.dtype)


def _amplitude_phase(x: Tensor) -> tuple[Tensor, Tensor]:
    """``(|F x|, F x / |F x|)`` per image (phase 1 where the amplitude is 0)."""
    f = torch.fft.fft2(x)
    a = f.abs()
    ok = a > 0                                                         # phase exp(i angle f) = f / |f|
    return a, torch.where(ok, f / torch.where(ok, a, torch.ones_like(a)), torch.ones_like(f))


def _mix(a1: Tensor, phase: Tensor, a2: Tensor, lam: Tensor, dtype: torch.dtype) -> Tensor:
    """Inverse FFT of the mixed amplitude ``(1 - lam) a1 + lam a2`` with ``phase``."""
    amp = (1 - lam)[:, None, None] * a1 + lam[:, None, None] * a2
    return torch.fft.ifft2(amp * phase).real.to(dtype)


def make_views(x: Tensor, gen: torch.Generator, lam_max: float = 0.5, max_shift: int = 1,
               noise: float = 0.1, spectrum: tuple[Tensor, Tensor] | None = None) -> Tensor:
    """One augmented view per image: Fourier amplitude mix with another image of the batch, then shift + noise.

    Parameters
    ----------
    x : Tensor, shape (n, H, W)
    gen : torch.Generator
    lam_max : float
        Mixing weights are uniform in ``[0, lam_max]``; the partner is a random permutation of the batch.
    max_shift, noise : passed to :func:`repro.ssl.augment_digits`.
    spectrum : (Tensor, Tensor), optional
        ``x``'s per-image Fourier amplitude and phase, when the caller draws several views of one batch (they
        are the same for every view; the partner's amplitude is the same array permuted). The view is the same
        as without it.

    Returns
    -------
    Tensor, shape (n, H, W)
    """
    if x.ndim != 3:
        raise ValueError(f"x must have shape (n, H, W); got {tuple(x.shape)}")
    if not 0.0 <= lam_max <= 1.0:
        raise ValueError(f"lam_max must be in [0, 1]; got {lam_max}")
    n = x.shape[0]
    partner = torch.randperm(n, generator=gen)
    lam = torch.rand(n, generator=gen, dtype=x.dtype) * lam_max
    if spectrum is None:
        mixed = fourier_amplitude_mix(x, x[partner], lam)
    else:
        amp, phase = spectrum
        if amp.shape != x.shape or phase.shape != x.shape:
            raise ValueError("spectrum must hold x's amplitude and phase, each of x's shape")
        mixed = _mix(amp, phase, amp[partner], lam, x.dtype)
    return augment_digits(mixed, gen, max_shift=max_shift, noise=noise)


# ----------------------------------------------------------------------------------------------------------
# HSIC
# ----------------------------------------------------------------------------------------------------------

_TRIU: dict[int, Tensor] = {}


def _upper_mask(n: int) -> Tensor:
    """Boolean mask of the strictly upper triangle of an n x n matrix (cached: it is rebuilt at every batch)."""
    if n not in _TRIU:
        _TRIU[n] = torch.ones(n, n, dtype=torch.bool).triu(1)
    return _TRIU[n]


def _gram(x: Tensor, ls: float | Tensor | None, kernel: str) -> Tensor:
    if kernel == "linear":
        return x @ x.T
    d2 = torch.cdist(x, x).pow(2)
    if ls is None:                                                   # median heuristic, not differentiated
        off = d2.detach()[_upper_mask(x.shape[0])]
        ls = torch.sqrt(0.5 * off.median()).clamp_min(1e-6)
    return torch.exp(-d2 / (2 * torch.as_tensor(ls, dtype=x.dtype) ** 2))


def _centered(K: Tensor) -> Tensor:
    """``H K H`` with ``H = I - 11^T / n``."""
    return K - K.mean(0, keepdim=True) - K.mean(1, keepdim=True) + K.mean()


def _check_hsic_args(x: Tensor, y: Tensor, kernel: str) -> None:
    if x.ndim != 2 or y.ndim != 2 or x.shape[0] != y.shape[0] or x.shape[0] < 2:
        raise ValueError(f"x and y must be 2-d with the same number (>= 2) of rows; got {tuple(x.shape)}, {tuple(y.shape)}")
    if kernel not in ("rbf", "linear"):
        raise ValueError(f"kernel must be 'rbf' or 'linear'; got {kernel!r}")


def hsic(x: Tensor, y: Tensor, ls_x: float | None = None, ls_y: float | None = None, kernel: str = "rbf") -> Tensor:
    r"""Biased empirical HSIC (Gretton et al., 2005): :math:`\mathrm{tr}(K H L H) / (n-1)^2`.

    With ``kernel="linear"`` it equals :math:`\|C_{xy}\|_F^2`, the squared Frobenius norm of the sample
    cross-covariance (divisor ``n - 1``).

    Parameters
    ----------
    x : Tensor, shape (n, p)
    y : Tensor, shape (n, q)
    ls_x, ls_y : float, optional
        RBF length scales :math:`k(a, b) = \exp(-\|a-b\|^2 / 2\ell^2)`; default: the median heuristic
        :math:`\ell^2 = \mathrm{median}\,\|a-b\|^2 / 2` over distinct pairs (treated as a constant).
    kernel : {"rbf", "linear"}

    Returns
    -------
    Tensor, scalar, >= 0 (differentiable)
    """
    _check_hsic_args(x, y, kernel)
    for ls in (ls_x, ls_y):
        if ls is not None:
            check_positive(ls, "length scale")
    n = x.shape[0]
    return (_centered(_gram(x, ls_x, kernel)) * _gram(y, ls_y, kernel)).sum() / (n - 1) ** 2


def normalized_hsic(x: Tensor, y: Tensor, kernel: str = "rbf", eps: float = 1e-8) -> Tensor:
    r"""Normalised HSIC (kernel alignment, CKA): :math:`\mathrm{HSIC}(x,y) / \sqrt{\mathrm{HSIC}(x,x)\,\mathrm{HSIC}(y,y)}`.

    In [0, 1]; scale-free, so it can compare representations of different sizes and norms.

    Parameters
    ----------
    x : Tensor, shape (n, p)
    y : Tensor, shape (n, q)
    kernel : {"rbf", "linear"}
    eps : float
        Added under the square root (a constant representation gives 0, not NaN).
    """
    _check_hsic_args(x, y, kernel)
    Kc, Lc = _centered(_gram(x, None, kernel)), _centered(_gram(y, None, kernel))
    return (Kc * Lc).sum() / torch.sqrt((Kc * Kc).sum() * (Lc * Lc).sum() + eps)


# ----------------------------------------------------------------------------------------------------------
# Model and loss
# ----------------------------------------------------------------------------------------------------------

class SplitEncoder(nn.Module):
    """:class:`repro.ssl.MLPEncoder`'s trunk whose output splits into a semantic and a variation part, plus a
    projection head on the semantic part (InfoNCE) and a decoder from both parts (reconstruction).

    Parameters
    ----------
    in_dim, hidden : int
        Input size (64) and the trunk's hidden width (as :class:`repro.ssl.MLPEncoder`).
    s_dim, v_dim : int
        Sizes of ``h_s`` and ``h_v`` (the trunk's output has ``s_dim + v_dim`` units).
    proj_dim : int
        Size of the projection ``z = g(h_s)``.
    """

    def __init__(self, in_dim: int = 64, hidden: int = 256, s_dim: int = 32, v_dim: int = 32, proj_dim: int = 32):
        super().__init__()
        for name, v in (("s_dim", s_dim), ("v_dim", v_dim)):
            check_int(v, name, least=1)
        self.s_dim = s_dim
        self.encoder = MLPEncoder(in_dim, hidden, s_dim + v_dim, proj_dim).encoder
        self.projector = nn.Sequential(nn.ReLU(), nn.Linear(s_dim, s_dim), nn.ReLU(), nn.Linear(s_dim, proj_dim))
        self.decoder = nn.Sequential(nn.Linear(s_dim + v_dim, hidden), nn.ReLU(), nn.Linear(hidden, in_dim))

    def forward(self, x: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """``(h_s, h_v, z)`` for inputs of shape (n, in_dim) or (n, H, W)."""
        h = self.encoder(x.reshape(x.shape[0], -1))
        h_s, h_v = h[:, :self.s_dim], h[:, self.s_dim:]
        return h_s, h_v, self.projector(h_s)

    def decode(self, h_s: Tensor, h_v: Tensor) -> Tensor:
        """Reconstruction ``Dec(h_s, h_v)``, shape (n, in_dim)."""
        return self.decoder(torch.cat([h_s, h_v], dim=1))


def ms_udg_loss(model: SplitEncoder, x1: Tensor, x2: Tensor, tau: float = 0.2, lam_dis: float = 1.0,
                lam_rec: float = 1.0) -> tuple[Tensor, dict[str, float]]:
    r"""MS-UDG-lite loss on two views: sufficiency + ``lam_dis`` disentanglement + ``lam_rec`` reconstruction.

    * sufficiency: :math:`\tfrac12[\mathrm{NCE}(z^{(1)}, z^{(2)}) + \mathrm{NCE}(z^{(2)}, z^{(1)})]`;
    * disentanglement: :math:`\tfrac12\sum_a \mathrm{nHSIC}(h_s^{(a)}, h_v^{(a)})` (RBF kernels);
    * reconstruction: the mean squared pixel error of :math:`\mathrm{Dec}(h_s^{(b)}, h_v^{(a)})` to
      :math:`x^{(a)}`, averaged over the four pairs ``a, b`` in {1, 2} (``b = a``: plain reconstruction;
      ``b != a``: the cross-view term that leaves only what the views share to ``h_s``).

    ``lam_dis = lam_rec = 0`` is InfoNCE on the semantic half alone (the ablation without minimality).

    Parameters
    ----------
    model : SplitEncoder
    x1, x2 : Tensor, shape (n, H, W)
        Two views of the same n images.
    tau : float
        InfoNCE temperature.
    lam_dis, lam_rec : float
        Weights, >= 0.

    Returns
    -------
    (Tensor, dict)
        The scalar loss and its three terms as floats.
    """
    if x1.shape != x2.shape:
        raise ValueError("x1 and x2 must have the same shape")
    check_positive(lam_dis, "lam_dis", strict=False)
    check_positive(lam_rec, "lam_rec", strict=False)
    (s1, v1, z1), (s2, v2, z2) = model(x1), model(x2)
    nce = 0.5 * (info_nce(z1, z2, tau) + info_nce(z2, z1, tau))
    loss, terms = nce, {"nce": float(nce.detach())}
    if lam_dis > 0:
        dis = 0.5 * (normalized_hsic(s1, v1) + normalized_hsic(s2, v2))
        loss = loss + lam_dis * dis
        terms["dis"] = float(dis.detach())
    if lam_rec > 0:
        t1, t2 = x1.reshape(len(x1), -1), x2.reshape(len(x2), -1)
        rec = 0.25 * (F.mse_loss(model.decode(s1, v1), t1) + F.mse_loss(model.decode(s2, v2), t2)
                      + F.mse_loss(model.decode(s2, v1), t1) + F.mse_loss(model.decode(s1, v2), t2))
        loss = loss + lam_rec * rec
        terms["rec"] = float(rec.detach())
    return loss, terms


def train_method(method: str, X: np.ndarray, seed: int, epochs: int, batch_size: int = 256, lr: float = 1e-3,
                 hidden: int = 256, rep_dim: int = 64, tau: float = 0.2, lam_dis: float = 1.0,
                 lam_rec: float = 1.0) -> tuple[nn.Module, list[float]]:
    """Train one method with the shared views, encoder trunk, budget and Adam loop (:func:`repro.ssl.train_ssl`).

    Methods: ``"simclr"`` (InfoNCE on :class:`repro.ssl.MLPEncoder`'s projection of the whole ``h``);
    ``"ae"`` (autoencoder: plain reconstruction of each view from the whole ``h``); ``"ms-udg"``
    (:func:`ms_udg_loss` with ``lam_dis``, ``lam_rec``); ``"ms-udg -dis"`` (``lam_dis = 0``); ``"ms-udg -rec"``
    (``lam_rec = 0``); ``"infonce-half"`` (both 0: InfoNCE on ``h_s`` only, the ablation without minimality).

    Parameters
    ----------
    method : str
    X : ndarray, shape (n, 8, 8)
        Unlabelled training images (no domain labels either).
    seed : int
        Seeds the initialisation, the batches and the views.
    epochs, batch_size, lr : training budget (the same for every method).
    hidden, rep_dim : trunk sizes; split methods use ``s_dim = v_dim = rep_dim // 2``.
    tau, lam_dis, lam_rec : loss settings.

    Returns
    -------
    (nn.Module, list of float)
        The trained model and its per-epoch mean loss.
    """
    methods = ("simclr", "ae", "ms-udg", "ms-udg -dis", "ms-udg -rec", "infonce-half")
    if method not in methods:
        raise ValueError(f"method must be one of {methods}; got {method!r}")
    rep_dim = check_int(rep_dim, "rep_dim", least=2)
    if rep_dim % 2:
        raise ValueError("rep_dim must be even (it splits into two halves)")
    Xt = torch.as_tensor(np.asarray(X), dtype=torch.float32)
    torch.manual_seed(int(seed))
    if method in ("simclr", "ae"):
        model: nn.Module = MLPEncoder(Xt[0].numel(), hidden, rep_dim, 32)
        if method == "ae":
            model.decoder = nn.Sequential(nn.Linear(rep_dim, hidden), nn.ReLU(), nn.Linear(hidden, Xt[0].numel()))
    else:
        model = SplitEncoder(Xt[0].numel(), hidden, rep_dim // 2, rep_dim // 2, 32)
    ld = {"ms-udg": lam_dis, "ms-udg -dis": 0.0, "ms-udg -rec": lam_dis, "infonce-half": 0.0}.get(method, 0.0)
    lr_ = {"ms-udg": lam_rec, "ms-udg -dis": lam_rec, "ms-udg -rec": 0.0, "infonce-half": 0.0}.get(method, 0.0)

    def batch_loss(idx: Tensor, gen: torch.Generator) -> Tensor:
        xb = Xt[idx]
        spec = _amplitude_phase(xb)                                  # shared by both views of the batch
        x1, x2 = make_views(xb, gen, spectrum=spec), make_views(xb, gen, spectrum=spec)
        if method == "simclr":
            (_, z1), (_, z2) = model(x1), model(x2)
            return 0.5 * (info_nce(z1, z2, tau) + info_nce(z2, z1, tau))
        if method == "ae":
            loss = 0.0
            for v in (x1, x2):
                h, _ = model(v)
                loss = loss + 0.5 * F.mse_loss(model.decoder(h), v.reshape(len(v), -1))
            return loss
        return ms_udg_loss(model, x1, x2, tau=tau, lam_dis=ld, lam_rec=lr_)[0]

    history = train_ssl(list(model.parameters()), len(Xt), batch_loss, epochs, batch_size, lr, seed)
    return model, history


@torch.no_grad()
def representation(model: nn.Module, X: np.ndarray, part: str = "probe") -> np.ndarray:
    """Frozen features of images ``X`` (n, 8, 8): ``part="probe"`` gives what the probe sees (``h`` for
    :class:`repro.ssl.MLPEncoder`, ``h_s`` for :class:`SplitEncoder`); ``"s"``/``"v"`` give a split model's
    halves (for an :class:`~repro.ssl.MLPEncoder`, the first and second halves of ``h``). Shape (n, d)."""
    if part not in ("probe", "s", "v"):
        raise ValueError(f"part must be 'probe', 's' or 'v'; got {part!r}")
    Xt = torch.as_tensor(np.asarray(X), dtype=torch.float32)
    model.eval()
    if isinstance(model, SplitEncoder):
        h_s, h_v, _ = model(Xt)
        out = h_v if part == "v" else h_s
    else:
        h, _ = model(Xt)
        half = h.shape[1] // 2
        out = {"probe": h, "s": h[:, :half], "v": h[:, half:]}[part]
    model.train()
    return out.numpy().astype(float)


def instance_normalize(X: np.ndarray, eps: float = 1e-8) -> np.ndarray:
    r"""Per-image standardisation of flattened images, the classical normalisation against brightness and contrast.

    Each row of the flattened ``X`` is mapped to :math:`(x - \bar x) / (s_x + \epsilon)`, with :math:`\bar x` and
    :math:`s_x` the image's own mean and standard deviation: invariant to ``a x + b`` for ``a > 0`` (up to
    ``eps``), so a contrast change such as D4's ``0.75 x`` leaves it unchanged. A naive baseline of the page: it
    uses no learning and none of the paper's ideas.

    Parameters
    ----------
    X : ndarray, shape (n, ...)
        Images (any trailing shape; flattened).
    eps : float
        Added to each image's standard deviation (a constant image maps to zeros).

    Returns
    -------
    ndarray, shape (n, d)
    """
    X = np.asarray(X, dtype=float)
    if X.ndim < 2 or X.shape[0] < 1:
        raise ValueError(f"X must hold at least one image, shape (n, ...); got {X.shape}")
    check_positive(eps, "eps")
    F_ = X.reshape(len(X), -1)
    return (F_ - F_.mean(1, keepdims=True)) / (F_.std(1, keepdims=True) + eps)


def pca_features(X_fit: np.ndarray, *Xs: np.ndarray, n_components: int = 32) -> list[np.ndarray]:
    """Principal-component scores of flattened images: a label-free, view-free representation (a naive baseline).

    The components are fitted on ``X_fit`` (the unlabelled training images, no domain labels) with
    :class:`sklearn.decomposition.PCA` (full SVD, deterministic) and every array of ``Xs`` is projected on them.

    Parameters
    ----------
    X_fit : ndarray, shape (n, ...)
        Images the components are fitted on (flattened).
    *Xs : ndarray, shape (m, ...)
        Images to project, with the same trailing shape.
    n_components : int
        Number of components kept, at most the flattened size and ``n``.

    Returns
    -------
    list of ndarray, each of shape (m, n_components)
    """
    from sklearn.decomposition import PCA

    X_fit = np.asarray(X_fit, dtype=float)
    if X_fit.ndim < 2:
        raise ValueError(f"X_fit must have shape (n, ...); got {X_fit.shape}")
    flat = X_fit.reshape(len(X_fit), -1)
    k = check_int(n_components, "n_components", least=1)
    if k > min(flat.shape):
        raise ValueError(f"n_components must be at most {min(flat.shape)}; got {k}")
    pca = PCA(k, svd_solver="full").fit(flat)
    out = []
    for X in Xs:
        X = np.asarray(X, dtype=float)
        if X.shape[1:] != X_fit.shape[1:]:
            raise ValueError(f"images to project must have shape (m, {X_fit.shape[1:]}); got {X.shape}")
        out.append(pca.transform(X.reshape(len(X), -1)))
    return out


def linear_probe(z_tr: np.ndarray, y_tr: np.ndarray, z_te: np.ndarray, y_te: np.ndarray) -> float:
    """Accuracy of the shared logistic-regression probe (:func:`repro.ssl.linear_probe_accuracy`, C = 1)."""
    return linear_probe_accuracy(z_tr, y_tr, z_te, y_te)[0]


def probe_accuracies(z_tr: np.ndarray, y_tr: np.ndarray, tests: list[tuple[np.ndarray, np.ndarray]]) -> list[float]:
    """Accuracies of one linear probe (:func:`linear_probe`) on several test sets, fitted once.

    The probe is fitted on ``(z_tr, y_tr)`` once and predicts every test set (stacked into one call), so each
    accuracy equals ``linear_probe(z_tr, y_tr, z, y)`` exactly while the probe is fitted once instead of once per
    test set.

    Parameters
    ----------
    z_tr : ndarray, shape (n, d)
    y_tr : ndarray, shape (n,)
    tests : list of (ndarray (m_i, d), ndarray (m_i,))
        Test features and labels.

    Returns
    -------
    list of float
        One accuracy per test set, in order.
    """
    if not tests:
        raise ValueError("tests must hold at least one (features, labels) pair")
    zs = [np.asarray(z, dtype=float) for z, _ in tests]
    ys = [np.asarray(y) for _, y in tests]
    for z, y in zip(zs, ys):
        if z.ndim != 2 or y.shape != (z.shape[0],):
            raise ValueError("each test set must be features (m, d) and labels (m,)")
    _, pred = linear_probe_accuracy(z_tr, y_tr, np.vstack(zs), np.concatenate(ys))
    bounds = np.cumsum([0] + [len(y) for y in ys])
    return [float(np.mean(pred[lo:hi] == y)) for lo, hi, y in zip(bounds[:-1], bounds[1:], ys)]


def domain_accuracy(z: np.ndarray, d: np.ndarray, seed: int, folds: int = 5) -> float:
    """How much domain information a representation carries: cross-validated accuracy of a logistic
    regression that predicts the domain index ``d`` (n,) from features ``z`` (n, p), standardised; stratified
    ``folds``-fold split seeded by ``seed``. Chance is ``1 / number of domains``."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    z, d = np.asarray(z, dtype=float), np.asarray(d)
    if z.ndim != 2 or d.shape != (z.shape[0],):
        raise ValueError("z must be (n, p) and d (n,)")
    clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
    cv = StratifiedKFold(check_int(folds, "folds", least=2), shuffle=True, random_state=int(seed))
    return float(cross_val_score(clf, z, d, cv=cv).mean())
