r"""Fast MRI for All: Bridging Access Gaps by Training without Raw Data (CUPID).

Paper map
---------
*Fast MRI for All: Bridging Access Gaps by Training without Raw Data*, Yaşar Utku Alçalar, Merve Gülle,
Mehmet Akçakaya, NeurIPS 2025 (spotlight), https://arxiv.org/abs/2411.13022
(official code: github.com/ualcalar17/CUPID, read at commit 8aa5c2c).
Notebook: ``notebooks/cupid-mri.py``.

Notation (paper -> here):

- coil sensitivities :math:`C` (n_c maps, :math:`\sum_c |c|^2 = 1` on the support) -> ``maps`` of shape (n_c, H, W);
- the Cartesian undersampling mask :math:`\Omega` -> ``mask`` (H, W), boolean, lines along the last axis
  (phase encode), as the official ``generate_mask``;
- the encoding operator :math:`E = \Omega F C` -> :func:`E_forward`, its adjoint :math:`E^H` -> :func:`E_adjoint`,
  the normal operator :math:`E^H E` -> :func:`EhE`; :math:`F` is the centred orthonormal 2-D DFT (:func:`fft2c`);
- the clinical parallel-imaging reconstruction :math:`x_{PI}` -> ``x_pi`` (CG-SENSE, :func:`cg_sense`), the only
  thing CUPID sees; the network input :math:`z = E^H E x_{PI}`;
- the unrolled network :math:`f(\cdot)` (ResNet regulariser + CG data consistency with learnable :math:`\mu`)
  -> :class:`UnrolledNet`;
- the perturbations :math:`p_k` (letter-shaped, magnitude :math:`5\cdot 10^{-2}`, K = 6) ->
  :func:`make_perturbations`, their complex intensities -> :func:`perturbation_intensity`;
- parallel-imaging fidelity :math:`L_{PIF}` -> :func:`pif_loss`;
- compressibility (reweighted wavelet :math:`\ell_1`, weights from :math:`x_m`) -> :func:`wavelet_reweighted_l1`,
  with the orthonormal Haar transform :func:`haar2d` / :func:`ihaar2d`;
- the total loss :math:`\lambda L_{PIF} + L_{comp}` -> :func:`cupid_loss`;
- the compressed-sensing baseline (wavelet :math:`\ell_1`) -> :func:`fista_cs`;
- the supervised k-space-trained reference -> :func:`train_supervised`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import torch
from torch import nn

from repro.optim import Adam
from repro.validate import check_int, check_positive

# --------------------------------------------------------------------------------------------- images


def shepp_logan(n: int) -> np.ndarray:
    """scikit-image's bundled Shepp–Logan phantom resized to ``n x n`` (anti-aliased), max 1. Shape (n, n)."""
    n = check_int(n, "n", least=8)
    from skimage.data import shepp_logan_phantom
    from skimage.transform import resize

    img = resize(shepp_logan_phantom(), (n, n), anti_aliasing=True, order=1)
    return img / img.max()


def bundled_gray_image(name: str, n: int) -> np.ndarray:
    """A grayscale image bundled in scikit-image's wheel ('camera', 'coins', 'moon', 'brick'...), ``n x n``, max 1."""
    n = check_int(n, "n", least=8)
    import skimage.data
    from skimage.transform import resize

    if name not in ("camera", "coins", "moon", "brick", "text", "cell"):
        raise ValueError(f"unknown bundled image {name!r}")
    img = np.asarray(getattr(skimage.data, name)(), dtype=float)
    s = min(img.shape)
    img = img[:s, :s]
    img = resize(img, (n, n), anti_aliasing=True, order=1)
    img = img - img.min()
    return img / img.max()


def random_ellipse_phantoms(n_images: int, n: int, rng: np.random.Generator, n_ellipses: int = 6) -> np.ndarray:
    """Random Shepp–Logan-like phantoms: a head ellipse with ``n_ellipses`` inner ellipses. Shape (n_images, n, n).

    Intensities are added as in the Shepp–Logan phantom (outer 1, skull-like ring, inner structures of
    +-0.1..0.4); each image is then clipped at 0 and scaled to max 1. Vectorised over images and ellipses.
    """
    n_images = check_int(n_images, "n_images", least=1)
    n = check_int(n, "n", least=8)
    n_ellipses = check_int(n_ellipses, "n_ellipses", least=0)
    t = (np.arange(n) + 0.5) / n * 2 - 1
    yy, xx = np.meshgrid(t, t, indexing="ij")

    def ell(cx, cy, a, b, th):  # (B, E) parameters -> (B, E, n, n) indicator
        c, s = np.cos(th)[..., None, None], np.sin(th)[..., None, None]
        dx, dy = xx - cx[..., None, None], yy - cy[..., None, None]
        u, v = (c * dx + s * dy) / a[..., None, None], (-s * dx + c * dy) / b[..., None, None]
        return (u**2 + v**2 <= 1.0).astype(float)

    shape = (n_images, 1)
    a0, b0 = rng.uniform(0.72, 0.9, shape), rng.uniform(0.8, 0.95, shape)
    th0 = rng.uniform(-0.2, 0.2, shape)
    outer = ell(np.zeros(shape), np.zeros(shape), a0, b0, th0)[:, 0]
    inner = ell(np.zeros(shape), np.zeros(shape), a0 * 0.92, b0 * 0.93, th0)[:, 0]
    img = outer - 0.7 * inner
    if n_ellipses:
        shp = (n_images, n_ellipses)
        r = rng.uniform(0, 0.55, shp)
        ang = rng.uniform(0, 2 * np.pi, shp)
        cx, cy = r * np.cos(ang) * a0, r * np.sin(ang) * b0
        a, b = rng.uniform(0.05, 0.3, shp), rng.uniform(0.05, 0.3, shp)
        th = rng.uniform(0, np.pi, shp)
        val = rng.choice([-0.1, 0.1, 0.2, 0.3, 0.4], size=shp)
        img = img + np.einsum("be,benm->bnm", val, ell(cx, cy, a, b, th)) * inner
    img = np.clip(img, 0.0, None)
    return img / img.max(axis=(1, 2), keepdims=True)


def smooth_phase(n_images: int, n: int, rng: np.random.Generator, max_phase: float = math.pi / 2) -> np.ndarray:
    """Smooth random phase maps (a random quadratic in x, y, bounded by ``max_phase``). Shape (n_images, n, n)."""
    n_images = check_int(n_images, "n_images", least=1)
    n = check_int(n, "n", least=2)
    t = np.linspace(-1, 1, n)
    yy, xx = np.meshgrid(t, t, indexing="ij")
    basis = np.stack([np.ones_like(xx), xx, yy, xx * yy, xx**2, yy**2])  # (6, n, n)
    coef = rng.uniform(-1, 1, (n_images, 6))
    ph = np.einsum("bk,knm->bnm", coef, basis)
    ph = ph / np.abs(ph).max(axis=(1, 2), keepdims=True)
    return max_phase * ph


# --------------------------------------------------------------------------------------------- acquisition


def make_coil_maps(shape: tuple[int, int], n_coils: int, seed: int = 0, width: float = 0.8,
                   dtype: torch.dtype = torch.complex64) -> torch.Tensor:
    r"""Synthetic coil sensitivities: Gaussian bumps around the field of view with a linear phase each.

    Coil ``c`` sits at angle :math:`2\pi c/n_c` (plus a seeded jitter) on a circle of radius 1.2 (image half-width
    1), magnitude :math:`\exp(-|r - r_c|^2 / 2w^2)`, phase :math:`\phi_c + k_c \cdot r`. The maps are normalised
    so that :math:`\sum_c |c|^2 = 1` at every pixel (SENSE normalisation), hence :math:`E^H E = I` under full
    sampling. Returns a complex tensor of shape (n_coils, H, W).
    """
    if len(shape) != 2:
        raise ValueError(f"shape must be (H, W); got {shape!r}")
    H, W = (check_int(s, "shape", least=2) for s in shape)
    n_coils = check_int(n_coils, "n_coils", least=1)
    width = check_positive(width, "width")
    rng = np.random.default_rng(seed)
    y, x = np.meshgrid(np.linspace(-1, 1, H), np.linspace(-1, 1, W), indexing="ij")
    ang = 2 * np.pi * np.arange(n_coils) / n_coils + rng.uniform(-0.2, 0.2, n_coils)
    cx, cy = 1.2 * np.cos(ang), 1.2 * np.sin(ang)
    mag = np.exp(-((x - cx[:, None, None]) ** 2 + (y - cy[:, None, None]) ** 2) / (2 * width**2))
    kx, ky, ph0 = rng.uniform(-1, 1, n_coils), rng.uniform(-1, 1, n_coils), rng.uniform(0, 2 * np.pi, n_coils)
    phase = ph0[:, None, None] + kx[:, None, None] * x + ky[:, None, None] * y
    maps = mag * np.exp(1j * phase)
    maps = maps / np.sqrt((np.abs(maps) ** 2).sum(0, keepdims=True))
    return torch.tensor(maps, dtype=dtype)


def cartesian_mask(shape: tuple[int, int], R: int, acs: int, seed: int | None = None,
                   kind: str = "equidistant") -> torch.Tensor:
    """Cartesian line mask (H, W), boolean, lines along the last axis (phase encodes), as the official code.

    ``kind="equidistant"``: every R-th column from 0 (``mask[:, 0::R]``) plus ``acs`` centre columns starting at
    ``int((W - acs) / 2) - 1`` (the official ``generate_mask``). ``kind="random"``: the ACS block plus
    ``int(W / R) - acs`` seeded random columns outside it.
    """
    if len(shape) != 2:
        raise ValueError(f"shape must be (H, W); got {shape!r}")
    H, W = (check_int(s, "shape", least=2) for s in shape)
    R = check_int(R, "R", least=1)
    acs = check_int(acs, "acs", least=0)
    if acs > W:
        raise ValueError(f"acs={acs} exceeds the {W} phase-encode lines")
    mask = torch.zeros(H, W, dtype=torch.bool)
    start = max(int((W - acs) / 2) - 1, 0)
    mask[:, start:start + acs] = True
    if kind == "equidistant":
        mask[:, 0::R] = True
    elif kind == "random":
        rng = np.random.default_rng(seed)
        outside = [i for i in range(W) if i < start or i >= start + acs]
        n_pick = max(int(W / R) - acs, 0)
        mask[:, rng.choice(outside, size=min(n_pick, len(outside)), replace=False)] = True
    else:
        raise ValueError(f"kind must be 'equidistant' or 'random'; got {kind!r}")
    return mask


def fft2c(x: torch.Tensor) -> torch.Tensor:
    """Centred orthonormal 2-D DFT over the last two axes (``fftshift(fft2(ifftshift(x)))``, norm='ortho')."""
    return torch.fft.fftshift(torch.fft.fft2(torch.fft.ifftshift(x, dim=(-2, -1)), norm="ortho"), dim=(-2, -1))


def ifft2c(k: torch.Tensor) -> torch.Tensor:
    """Centred orthonormal 2-D inverse DFT over the last two axes (the adjoint and inverse of :func:`fft2c`)."""
    return torch.fft.ifftshift(torch.fft.ifft2(torch.fft.fftshift(k, dim=(-2, -1)), norm="ortho"), dim=(-2, -1))


def _check_op(x: torch.Tensor, maps: torch.Tensor, mask: torch.Tensor, coil_axis: bool) -> None:
    if maps.ndim != 3:
        raise ValueError(f"maps must have shape (n_coils, H, W); got {tuple(maps.shape)}")
    if tuple(mask.shape) != tuple(maps.shape[-2:]):
        raise ValueError(f"mask shape {tuple(mask.shape)} does not match the maps' {tuple(maps.shape[-2:])}")
    need = tuple(maps.shape) if coil_axis else tuple(maps.shape[-2:])
    if tuple(x.shape[-len(need):]) != need:
        raise ValueError(f"input's trailing shape {tuple(x.shape)} does not match {need}")


def E_forward(x: torch.Tensor, maps: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    r"""Multi-coil encoding :math:`E x = \Omega F (C x)`. x: (..., H, W) complex -> (..., n_coils, H, W)."""
    _check_op(x, maps, mask, coil_axis=False)
    return fft2c(x[..., None, :, :] * maps) * mask


def E_adjoint(k: torch.Tensor, maps: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    r"""Adjoint :math:`E^H k = \sum_c \bar c\, F^H (\Omega k_c)`. k: (..., n_coils, H, W) -> (..., H, W)."""
    _check_op(k, maps, mask, coil_axis=True)
    return (ifft2c(k * mask) * maps.conj()).sum(-3)


def EhE(x: torch.Tensor, maps: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    r"""Normal operator :math:`E^H E x` (Hermitian, positive semi-definite). x: (..., H, W) -> (..., H, W)."""
    return E_adjoint(E_forward(x, maps, mask), maps, mask)


def _dot(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Per-sample inner product :math:`\\langle a, b\\rangle = \\sum \\bar a b` over the last two axes (..., 1, 1)."""
    return (a.conj() * b).sum(dim=(-2, -1), keepdim=True)


def cg_solve(rhs: torch.Tensor, maps: torch.Tensor, mask: torch.Tensor, mu: float | torch.Tensor,
             iters: int) -> torch.Tensor:
    r"""``iters`` conjugate-gradient steps on :math:`(E^H E + \mu I)\,x = \text{rhs}`, from :math:`x_0 = 0`.

    The official ``cg_operator`` / ``Data_consistency`` loop (Hestenes–Stiefel CG). Ours takes the inner
    products per sample (the official code sums them over the batch; identical for batch size 1) and stops
    updating a sample whose residual is exactly zero. rhs: (..., H, W) complex.
    """
    iters = check_int(iters, "iters", least=0)
    x = torch.zeros_like(rhs)
    r = rhs
    p = r
    rr = _dot(r, r).real
    for _ in range(iters):
        q = EhE(p, maps, mask) + mu * p
        pq = _dot(p, q).real
        alpha = torch.where(pq > 0, rr / torch.where(pq > 0, pq, torch.ones_like(pq)), torch.zeros_like(pq))
        x = x + alpha * p
        r = r - alpha * q
        rr_new = _dot(r, r).real
        beta = torch.where(rr > 0, rr_new / torch.where(rr > 0, rr, torch.ones_like(rr)), torch.zeros_like(rr))
        p = r + beta * p
        rr = rr_new
    return x


def cg_sense(y: torch.Tensor, maps: torch.Tensor, mask: torch.Tensor, lam: float, iters: int) -> torch.Tensor:
    r"""CG-SENSE: :math:`x = (E^H E + \lambda I)^{-1} E^H y` by ``iters`` CG steps (the 'clinical' PI recon).

    With ``lam = 0`` and early stopping this is the official ``get_x_PI`` (mu = 0, 30 iterations).
    y: (..., n_coils, H, W) -> (..., H, W).
    """
    lam = check_positive(lam, "lam", strict=False)
    return cg_solve(E_adjoint(y, maps, mask), maps, mask, lam, iters)


def data_consistency(z: torch.Tensor, reg_out: torch.Tensor, maps: torch.Tensor, mask: torch.Tensor,
                     mu: float | torch.Tensor, iters: int) -> torch.Tensor:
    r"""The unrolled network's DC step :math:`x = (E^H E + \mu I)^{-1}(z + \mu\, r)` by CG, with :math:`z = E^H y`."""
    return cg_solve(z + mu * reg_out, maps, mask, mu, iters)


class RowNormalOperator:
    r""":math:`E^H E` of a Cartesian line mask, split into one W x W Hermitian matrix per image row.

    The mask depends on the phase-encode (last) index only, so it commutes with the DFT along the readout axis
    and :math:`E^H E = \sum_c C_c^H F_{1}^H \Omega F_{1} C_c` acts on each image row on its own:
    :math:`(E^H E x)_{r,:} = A_r x_{r,:}`, :math:`A_r = \sum_c D_{rc}^H G D_{rc}`, :math:`G = F_1^H \Omega F_1`
    (:math:`F_1` the centred orthonormal 1-D DFT, :math:`D_{rc} = \mathrm{diag}(c_c[r, :])`). The eigen-
    decomposition :math:`A_r = U_r \Lambda_r U_r^H` gives the data-consistency solve
    :math:`(E^H E + \mu I)^{-1}` exactly, for any μ, with two batched matrix products: our replacement for
    the official truncated CG (15 iterations), which it approaches as the CG converges.
    """

    def __init__(self, maps: torch.Tensor, mask: torch.Tensor) -> None:
        if maps.ndim != 3 or tuple(mask.shape) != tuple(maps.shape[-2:]):
            raise ValueError("maps must be (n_coils, H, W) and mask (H, W)")
        if not bool((mask == mask[:1]).all()):
            raise ValueError("the mask must be constant along the readout axis (Cartesian lines along the last axis)")
        self.maps, self.mask = maps, mask
        W = maps.shape[-1]
        eye = torch.eye(W, dtype=maps.dtype)
        F1 = torch.fft.fftshift(torch.fft.fft(torch.fft.ifftshift(eye, dim=0), dim=0, norm="ortho"), dim=0)
        G = F1.conj().T @ (mask[0].to(maps.dtype)[:, None] * F1)
        # A[r] = sum_c conj(c_rc)[:, None] * G * c_rc[None, :]
        self.A = torch.einsum("crw,wv,crv->rwv", maps.conj(), G, maps)
        self.A = 0.5 * (self.A + self.A.conj().transpose(-2, -1))
        evals, self.U = torch.linalg.eigh(self.A)
        self.evals = evals.clamp(min=0.0)
        self.Uh = self.U.conj().transpose(-2, -1)

    def apply(self, x: torch.Tensor) -> torch.Tensor:
        """:math:`E^H E x` for x of shape (..., H, W)."""
        return (self.A @ x[..., None])[..., 0]

    def solve(self, rhs: torch.Tensor, mu: float | torch.Tensor) -> torch.Tensor:
        r""":math:`(E^H E + \mu I)^{-1}\,\text{rhs}`, exactly (μ > 0), differentiable in rhs and μ."""
        c = (self.Uh @ rhs[..., None])[..., 0]
        c = c / (self.evals.to(c.real.dtype) + mu).to(c.dtype)
        return (self.U @ c[..., None])[..., 0]


# --------------------------------------------------------------------------------------------- wavelets


def haar2d(x: torch.Tensor, level: int) -> torch.Tensor:
    """Orthonormal 2-D Haar transform over the last two axes, ``level`` levels, in the usual square layout.

    The approximation band sits top-left, each level's three detail bands around it (the layout of the
    official ``wavelet_transform_n_lvl`` for 'dwt'). Orthonormal, so an isometry. Needs H, W divisible by
    ``2**level``. Differentiable (torch ops only); works for real and complex tensors.
    """
    level = check_int(level, "level", least=1)
    H, W = x.shape[-2:]
    if H % 2**level or W % 2**level:
        raise ValueError(f"H={H}, W={W} must be divisible by 2**level={2**level}")
    out = x
    h, w = H, W
    s = 1 / math.sqrt(2)
    for _ in range(level):
        a = out[..., :h, :w]
        lo = (a[..., 0::2, :] + a[..., 1::2, :]) * s
        hi = (a[..., 0::2, :] - a[..., 1::2, :]) * s
        ll, lh = (lo[..., 0::2] + lo[..., 1::2]) * s, (lo[..., 0::2] - lo[..., 1::2]) * s
        hl, hh = (hi[..., 0::2] + hi[..., 1::2]) * s, (hi[..., 0::2] - hi[..., 1::2]) * s
        block = torch.cat([torch.cat([ll, lh], -1), torch.cat([hl, hh], -1)], -2)
        out = torch.cat([torch.cat([block, out[..., :h, w:]], -1), out[..., h:, :]], -2) if (h, w) != (H, W) \
            else block
        h, w = h // 2, w // 2
    return out


def ihaar2d(c: torch.Tensor, level: int) -> torch.Tensor:
    """Inverse of :func:`haar2d` (its adjoint, since the transform is orthonormal)."""
    level = check_int(level, "level", least=1)
    H, W = c.shape[-2:]
    if H % 2**level or W % 2**level:
        raise ValueError(f"H={H}, W={W} must be divisible by 2**level={2**level}")
    out = c
    s = 1 / math.sqrt(2)
    for j in reversed(range(level)):
        h, w = H >> j, W >> j
        blk = out[..., :h, :w]
        ll, lh = blk[..., : h // 2, : w // 2], blk[..., : h // 2, w // 2:]
        hl, hh = blk[..., h // 2:, : w // 2], blk[..., h // 2:, w // 2:]
        lo = torch.stack([(ll + lh) * s, (ll - lh) * s], -1).flatten(-2)
        hi = torch.stack([(hl + hh) * s, (hl - hh) * s], -1).flatten(-2)
        a = torch.stack([(lo + hi) * s, (lo - hi) * s], -2).flatten(-3, -2)
        if (h, w) == (H, W):
            out = a
        else:
            out = torch.cat([torch.cat([a, out[..., :h, w:]], -1), out[..., h:, :]], -2)
    return out


def wavelet_reweighted_l1(x: torch.Tensor, x_ref: torch.Tensor, eps: float = 1e-4, level: int = 3) -> torch.Tensor:
    r"""Compressibility loss :math:`\frac{1}{HW}\sum_i |(Wx)_i| / (|(W x_{ref})_i| + \epsilon)`, per sample.

    The official ``wavelet_loss_function`` ('dwt' branch) with the orthonormal Haar transform in place of
    pytorch_wavelets; ``x_ref`` is :math:`x_m` (the CS or previous output), held fixed. Returns (...,).
    """
    eps = check_positive(eps, "eps")
    if x.shape != x_ref.shape:
        raise ValueError(f"x {tuple(x.shape)} and x_ref {tuple(x_ref.shape)} differ in shape")
    H, W = x.shape[-2:]
    w = 1.0 / (haar2d(x_ref.detach(), level).abs() + eps)
    return (haar2d(x, level).abs() * w).sum(dim=(-2, -1)) / (H * W)


def soft_threshold(c: torch.Tensor, tau: float | torch.Tensor) -> torch.Tensor:
    r"""Complex soft thresholding :math:`\max(|c| - \tau, 0)\, c/|c|` (0 where c = 0)."""
    mag = c.abs()
    return torch.where(mag > 0, torch.clamp(mag - tau, min=0) / torch.where(mag > 0, mag, torch.ones_like(mag)),
                       torch.zeros_like(mag)) * c


def fista_cs(y: torch.Tensor, maps: torch.Tensor, mask: torch.Tensor, lam: float, iters: int,
             wavelet: str = "haar", level: int = 3, x0: torch.Tensor | None = None) -> torch.Tensor:
    r"""Compressed sensing by FISTA on :math:`\tfrac12\|E x - y\|^2 + \lambda \|W_{detail} x\|_1`.

    Step 1 (valid: :math:`\|E^H E\| \le 1` with SENSE-normalised maps and a 0/1 mask); the approximation
    band is not penalised. Beck & Teboulle (2009), Algorithm FISTA. y: (..., n_coils, H, W) -> (..., H, W).
    """
    if wavelet != "haar":
        raise ValueError(f"only the orthonormal 'haar' wavelet is implemented; got {wavelet!r}")
    lam = check_positive(lam, "lam", strict=False)
    iters = check_int(iters, "iters", least=0)
    H, W = maps.shape[-2:]
    detail = torch.ones(H, W, dtype=torch.bool)
    detail[: H >> level, : W >> level] = False
    aty = E_adjoint(y, maps, mask)
    x = aty.clone() if x0 is None else x0.clone()
    v, t = x, 1.0
    for _ in range(iters):
        g = v - (EhE(v, maps, mask) - aty)
        c = haar2d(g, level)
        c = torch.where(detail, soft_threshold(c, lam), c)
        x_new = ihaar2d(c, level)
        t_new = (1 + math.sqrt(1 + 4 * t * t)) / 2
        v = x_new + ((t - 1) / t_new) * (x_new - x)
        x, t = x_new, t_new
    return x


# --------------------------------------------------------------------------------------------- perturbations

_GLYPHS = {  # 5 x 7 bitmaps, one string per row
    "A": ["01110", "10001", "10001", "11111", "10001", "10001", "10001"],
    "R": ["11110", "10001", "10001", "11110", "10100", "10010", "10001"],
    "O": ["01110", "10001", "10001", "10001", "10001", "10001", "01110"],
    "N": ["10001", "11001", "10101", "10011", "10001", "10001", "10001"],
    "P": ["11110", "10001", "10001", "11110", "10000", "10000", "10000"],
    "B": ["11110", "10001", "10001", "11110", "10001", "10001", "11110"],
    "Z": ["11111", "00001", "00010", "00100", "01000", "10000", "11111"],
    "L": ["10000", "10000", "10000", "10000", "10000", "10000", "11111"],
}
LETTERS = ("A", "R", "O", "N", "P", "B", "Z", "L")  # the official order


def perturbation_intensity(k: int, n_perturbations: int, magnitude: float = 5e-2) -> complex:
    r"""The official complex value of perturbation k: :math:`M\cos\theta_k + i\,m_k |M \sin\theta_k|`.

    :math:`\theta_k = k\pi/K` (``np.linspace(0, pi, K, endpoint=False)``) and :math:`m_k` cycles through
    (1, -1, 0.25, -0.25, 0.5, -0.5) with k mod 6, as ``process_p_k``.
    """
    n_perturbations = check_int(n_perturbations, "n_perturbations", least=1)
    k = check_int(k, "k", least=0)
    if k >= min(n_perturbations, len(LETTERS)):
        raise ValueError(f"k={k} out of range: at most {len(LETTERS)} perturbations (K={n_perturbations})")
    theta = np.linspace(0, np.pi, num=n_perturbations, endpoint=False)[k]
    mult = (1.0, -1.0, 0.25, -0.25, 0.5, -0.5)[k % 6]
    return complex(magnitude * np.cos(theta), abs(magnitude * np.sin(theta)) * mult)


def letter_mask(letter: str, shape: tuple[int, int], rows: int = 2, cols: int = 2) -> np.ndarray:
    """A boolean (H, W) mask with the letter's 5x7 glyph drawn ``rows x cols`` times, scaled to fill the grid.

    Our stand-in for the official Arial letters drawn with PIL (four letters in a row per band).
    """
    if letter not in _GLYPHS:
        raise ValueError(f"no glyph for {letter!r}")
    H, W = (check_int(s, "shape", least=8) for s in shape)
    g = np.array([[c == "1" for c in row] for row in _GLYPHS[letter]])
    ch, cw = H // rows, W // cols
    s = max(min((ch - 2) // 7, (cw - 2) // 5), 1)
    glyph = np.kron(g, np.ones((s, s), dtype=bool))
    out = np.zeros((H, W), dtype=bool)
    gh, gw = glyph.shape
    for i in range(rows):
        for j in range(cols):
            r0, c0 = i * ch + (ch - gh) // 2, j * cw + (cw - gw) // 2
            out[r0:r0 + gh, c0:c0 + gw] |= glyph
    return out


def make_perturbations(shape: tuple[int, int], K: int, magnitude: float = 5e-2, seed: int | None = None,
                       dtype: torch.dtype = torch.complex64) -> torch.Tensor:
    """K letter-shaped complex perturbations :math:`p_k` (letters A, R, O, N, P, B, ...), shape (K, H, W).

    Each is the constant :func:`perturbation_intensity` on the pixels of its letter mask, 0 elsewhere (as the
    official ``process_p_k``). ``seed`` is accepted for the brief's signature; the construction is deterministic.
    """
    K = check_int(K, "K", least=1)
    if K > len(LETTERS):
        raise ValueError(f"K={K}: at most {len(LETTERS)} perturbations (the official code raises too)")
    magnitude = check_positive(magnitude, "magnitude")
    p = np.stack([letter_mask(LETTERS[k], shape) * perturbation_intensity(k, K, magnitude) for k in range(K)])
    return torch.tensor(p, dtype=dtype)


# --------------------------------------------------------------------------------------------- the network


class ResidualBlock(nn.Module):
    """The official residual block: one conv applied twice, ``x + 0.1 * conv(relu(conv(x)))``."""

    def __init__(self, features: int, scale: float = 0.1) -> None:
        super().__init__()
        self.conv = nn.Conv2d(features, features, 3, padding=1, bias=False)
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.scale * self.conv(torch.relu(self.conv(x)))


class ResNetRegularizer(nn.Module):
    """The official ResNet regulariser (bias-free convs, N(0, 0.05) init) on 2 channels (real, imaginary)."""

    def __init__(self, features: int = 16, n_res_blocks: int = 2, init_std: float = 0.05) -> None:
        super().__init__()
        self.first = nn.Conv2d(2, features, 3, padding=1, bias=False)
        self.blocks = nn.Sequential(*[ResidualBlock(features) for _ in range(n_res_blocks)])
        self.last = nn.Conv2d(features, features, 3, padding=1, bias=False)
        self.final = nn.Conv2d(features, 2, 3, padding=1, bias=False)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.normal_(m.weight, 0.0, init_std)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.first(torch.stack([x.real, x.imag], 1))
        h = self.final(self.last(self.blocks(h)) + h)
        return torch.complex(h[:, 0], h[:, 1])


MU_MIN = 1e-4


class UnrolledNet(nn.Module):
    r"""Unrolled PD-DL network: ``n_iters`` x (ResNet regulariser, data consistency with learnable μ).

    forward(z, op) with z = :math:`E^H y` (B, H, W) complex and ``op`` a :class:`RowNormalOperator`, as the
    official ``UnrolledNet``: the first regulariser sees z, the DC step solves
    :math:`(E^H E + \mu I) x = z + \mu\, R(x)`; one regulariser and one μ shared by all unrolls. ``cg_iters = 0``
    solves the DC step exactly (``op.solve``); ``cg_iters > 0`` runs that many CG steps as the official code.
    μ is used clamped at ``MU_MIN`` (1e-4): the official parameter is unconstrained, and a step that takes it
    below 0 makes :math:`E^H E + \mu I` indefinite (seen in our runs: the output diverges).
    """

    def __init__(self, n_iters: int = 3, features: int = 16, cg_iters: int = 0, n_res_blocks: int = 2,
                 mu: float = 0.05) -> None:
        super().__init__()
        self.n_iters = check_int(n_iters, "n_iters", least=1)
        self.cg_iters = check_int(cg_iters, "cg_iters", least=0)
        self.reg = ResNetRegularizer(check_int(features, "features", least=1), check_int(n_res_blocks,
                                                                                         "n_res_blocks", least=0))
        self.mu = nn.Parameter(torch.tensor(float(check_positive(mu, "mu"))))

    def forward(self, z: torch.Tensor, op: RowNormalOperator) -> torch.Tensor:
        if z.ndim != 3 or not z.is_complex():
            raise ValueError(f"z must be complex of shape (B, H, W); got {tuple(z.shape)} {z.dtype}")
        mu = self.mu.clamp(min=MU_MIN)
        x = z
        for _ in range(self.n_iters):
            r = z + mu * self.reg(x)
            x = op.solve(r, mu) if self.cg_iters == 0 else cg_solve(r, op.maps, op.mask, mu, self.cg_iters)
        return x


# --------------------------------------------------------------------------------------------- losses


def pif_loss(f: Callable[[torch.Tensor], torch.Tensor], z: torch.Tensor, perts: torch.Tensor,
             op: RowNormalOperator, support: torch.Tensor | None = None, return_output: bool = False):
    r"""Parallel-imaging fidelity :math:`\frac1K\sum_k \|(f(z + E^HE p_k) - f(z)) - p_k\|_2 / \|p_k\|_2`.

    Norms over the coil support (``support``, default everything), per sample, then averaged over samples
    (the official loop is over single slices). f maps (N, H, W) -> (N, H, W); it is called once on the stacked
    batch [z, z + E^H E p_1, ..., z + E^H E p_K]. z: (B, H, W), perts: (K, H, W). Returns the loss (and f(z)).
    """
    if perts.ndim != 3 or z.ndim != 3:
        raise ValueError("z must be (B, H, W) and perts (K, H, W)")
    B, K = z.shape[0], perts.shape[0]
    sup = torch.ones(z.shape[-2:], dtype=torch.bool) if support is None else support
    p = perts * sup
    inp = torch.cat([z, (z[None] + op.apply(perts)[:, None]).reshape(K * B, *z.shape[1:])])
    out = f(inp)
    f0, fk = out[:B], out[B:].reshape(K, B, *z.shape[1:])
    num = torch.linalg.vector_norm(((fk - f0[None]) - p[:, None]) * sup, dim=(-2, -1))
    den = torch.linalg.vector_norm(p, dim=(-2, -1))[:, None]
    loss = (num / den).mean()
    return (loss, f0) if return_output else loss


def cupid_loss(net: UnrolledNet, z: torch.Tensor, x_m: torch.Tensor, perts: torch.Tensor, op: RowNormalOperator,
               support: torch.Tensor, lam: float = 200.0, eps: float = 1e-4, level: int = 3
               ) -> tuple[torch.Tensor, dict]:
    r"""The CUPID objective :math:`\lambda L_{PIF} + L_{comp}` (official ``train.py``), averaged over the batch.

    :math:`L_{comp}` is taken on the unperturbed output masked to the coil support, with weights from
    :math:`x_m`. ``lam = 0`` gives the compressibility-only ablation (the network is then run on z alone).
    """
    lam = check_positive(lam, "lam", strict=False)

    def f(u):
        return net(u, op)

    if lam == 0:
        out = f(z)
        l_pif = torch.zeros(())
    else:
        l_pif, out = pif_loss(f, z, perts, op, support, return_output=True)
    l_comp = wavelet_reweighted_l1(out * support, x_m, eps, level).mean()
    return lam * l_pif + l_comp, dict(pif=float(l_pif.detach()), comp=float(l_comp.detach()))


def _batches(n: int, batch: int, steps: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.choice(n, size=min(batch, n), replace=False) for _ in range(steps)]


def train_cupid(net: UnrolledNet, x_pi: torch.Tensor, x_m: torch.Tensor, perts: torch.Tensor,
                op: RowNormalOperator, support: torch.Tensor, lam: float = 200.0, steps: int = 100,
                lr: float = 5e-4, batch: int = 1, perts_per_step: int | None = None, eps: float = 1e-4,
                level: int = 3, seed: int = 0, progress_fn: Callable | None = None) -> dict:
    r"""Train ``net`` with the CUPID loss from clinical images only (input :math:`z = E^H E x_{PI}`).

    Each step draws ``batch`` images and, if ``perts_per_step`` is set, that many of the K perturbations (an
    unbiased estimate of :math:`L_{PIF}`; the official code uses all K every step). Adam (``repro.optim``).
    Returns the per-step history of the total loss and of both terms.
    """
    steps = check_int(steps, "steps", least=1)
    K = perts.shape[0]
    kk = K if perts_per_step is None else check_int(perts_per_step, "perts_per_step", least=1)
    if kk > K:
        raise ValueError(f"perts_per_step={kk} > K={K}")
    opt = Adam(net.parameters(), lr=check_positive(lr, "lr"))
    z_all = op.apply(x_pi)
    rng = np.random.default_rng(seed + 1)
    hist = dict(total=[], pif=[], comp=[])
    it = _batches(x_pi.shape[0], batch, steps, seed)
    for idx in (progress_fn(it) if progress_fn else it):
        idx = torch.as_tensor(idx)
        p = perts if kk == K else perts[torch.as_tensor(rng.choice(K, size=kk, replace=False))]
        loss, parts = cupid_loss(net, z_all[idx], x_m[idx], p, op, support, lam, eps, level)
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist["total"].append(float(loss.detach()))
        hist["pif"].append(parts["pif"])
        hist["comp"].append(parts["comp"])
    return hist


def normalized_l1_l2(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    r"""The supervised PD-DL loss :math:`\|t-p\|_2/\|t\|_2 + \|t-p\|_1/\|t\|_1` (per sample, then averaged)."""
    if pred.shape != target.shape or pred.ndim < 2:
        raise ValueError(f"pred {tuple(pred.shape)} and target {tuple(target.shape)} must match, batch first")
    dims = tuple(range(1, pred.ndim))
    d = pred - target
    return (torch.linalg.vector_norm(d, dim=dims) / torch.linalg.vector_norm(target, dim=dims)
            + d.abs().sum(dims) / target.abs().sum(dims)).mean()


def train_supervised(net: UnrolledNet, y_under: torch.Tensor, y_full: torch.Tensor, op: RowNormalOperator,
                     steps: int = 100, lr: float = 5e-4, batch: int = 1, seed: int = 0,
                     progress_fn: Callable | None = None) -> dict:
    r"""Supervised PD-DL with raw k-space: input :math:`E^H y_\Omega`, loss :func:`normalized_l1_l2` between
    :math:`F C f(\cdot)` (all lines) and the fully sampled noisy k-space. Returns the per-step loss history."""
    steps = check_int(steps, "steps", least=1)
    opt = Adam(net.parameters(), lr=check_positive(lr, "lr"))
    full = torch.ones_like(op.mask)
    z_all = E_adjoint(y_under, op.maps, op.mask)
    hist = dict(total=[])
    it = _batches(y_under.shape[0], batch, steps, seed)
    for idx in (progress_fn(it) if progress_fn else it):
        idx = torch.as_tensor(idx)
        out = net(z_all[idx], op)
        loss = normalized_l1_l2(torch.view_as_real(E_forward(out, op.maps, full)), torch.view_as_real(y_full[idx]))
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist["total"].append(float(loss.detach()))
    return hist


# --------------------------------------------------------------------------------------------- metrics


def psnr(ref: np.ndarray, rec: np.ndarray) -> float:
    r"""PSNR in dB of magnitude images, the official ``cal_PSNR``: :math:`20\log_{10}(\max|ref| / \mathrm{RMSE})`."""
    ref, rec = np.abs(np.asarray(ref)), np.abs(np.asarray(rec))
    if ref.shape != rec.shape:
        raise ValueError(f"shapes differ: {ref.shape} vs {rec.shape}")
    mse = np.mean((ref - rec) ** 2)
    return float(20 * np.log10(ref.max() / (np.sqrt(mse) + 1e-10)))


def ssim(ref: np.ndarray, rec: np.ndarray) -> float:
    """SSIM of magnitude images (scikit-image), data range = max of the reference magnitude."""
    from skimage.metrics import structural_similarity

    ref, rec = np.abs(np.asarray(ref)), np.abs(np.asarray(rec))
    return float(structural_similarity(ref, rec, data_range=float(ref.max())))


def relative_residual(x: torch.Tensor, x_pi: torch.Tensor, maps: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    r"""Consistency with the clinical recon on the sampled k-space: :math:`\|E(x - x_{PI})\| / \|E x_{PI}\|`, per sample."""
    d = E_forward(x - x_pi, maps, mask)
    r = E_forward(x_pi, maps, mask)
    return torch.linalg.vector_norm(d, dim=(-3, -2, -1)) / torch.linalg.vector_norm(r, dim=(-3, -2, -1))
