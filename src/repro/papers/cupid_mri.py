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


# --------------------------------------------------------------------------------------------- the official wavelets
#
# The official configuration (configs/sparsity_config.yaml) takes its compressibility loss on the dual-tree complex
# wavelet transform (DTCWT, 4 levels, Kingsbury's near_sym_b / qshift_b filters) and its CS baseline, which gives
# x_m, on a 4-level periodized bior1.5 DWT; both come from pytorch_wavelets, which the project does not install.
# The functions below are our own torch translation of those transforms; the golden file holds the values that
# pytorch_wavelets 1.3.0 and the official loss give on seeded inputs.

# Kingsbury's filters as distributed with the dtcwt / pytorch_wavelets packages (float64 values): the level-1
# near-symmetric 13,19-tap biorthogonal analysis pair and the 14-tap quarter-shift tree-a filters (tree b is tree
# a reversed).
_NEAR_SYM_B_H0 = np.array([-9, 0, 114, -240, -247, 1520, 2844, 1520, -247, -240, 114, 0, -9]) / 5120.0
_NEAR_SYM_B_H1 = np.array([
    -7.0626395089285707e-05, 0.0, 1.3419015066964285e-03, -1.8833705357142855e-03, -7.1568080357142846e-03,
    2.3856026785714284e-02, 5.5643136160714278e-02, -5.1688058035714281e-02, -2.9975760323660716e-01,
    5.5943080357142860e-01, -2.9975760323660716e-01, -5.1688058035714281e-02, 5.5643136160714278e-02,
    2.3856026785714284e-02, -7.1568080357142846e-03, -1.8833705357142855e-03, 1.3419015066964285e-03, 0.0,
    -7.0626395089285707e-05])
_QSHIFT_B_H0A = np.array([
    0.00325314276365318, -0.00388321199915849, 0.03466034684485349, -0.03887280126882779, -0.11720388769911527,
    0.27529538466888204, 0.7561456438925225, 0.5688104207121227, 0.011866092033797, -0.1067118046866654,
    0.0238253847949203, 0.01702522388155399, -0.00543947593727412, -0.00455689562847549])
_QSHIFT_B_H1A = np.array([
    -0.00455689562847549, 0.00543947593727412, 0.01702522388155399, -0.0238253847949203, -0.1067118046866654,
    -0.011866092033797, 0.5688104207121227, -0.7561456438925225, 0.27529538466888204, 0.11720388769911527,
    -0.03887280126882779, -0.03466034684485349, -0.00388321199915849, -0.00325314276365318])
# bior1.5 (Cohen-Daubechies-Feauveau): PyWavelets' analysis (dec) and synthesis (rec) pairs, in closed form; and Haar.
_R2 = math.sqrt(2)
_BIOR15 = (np.array([3, -3, -22, 22, 128, 128, 22, -22, -3, 3]) / (128 * _R2),
           np.array([0, 0, 0, 0, -1, 1, 0, 0, 0, 0]) / _R2,
           np.array([0, 0, 0, 0, 1, 1, 0, 0, 0, 0]) / _R2,
           np.array([3, 3, -22, -22, 128, -128, 22, 22, -3, -3]) / (128 * _R2))
_HAAR = (np.array([1.0, 1.0]) / _R2, np.array([-1.0, 1.0]) / _R2, np.array([1.0, 1.0]) / _R2,
         np.array([1.0, -1.0]) / _R2)
DWT_FILTERS = {"bior1.5": _BIOR15, "haar": _HAAR}  # (dec_lo, dec_hi, rec_lo, rec_hi)


def _symmetric_index(n: int, m: int) -> np.ndarray:
    """Indices of the half-sample symmetric extension of a length-n axis by m samples on each side."""
    i = np.arange(-m, n + m)
    period = 2 * n
    j = np.mod(i, period)
    return np.where(j >= n, period - 1 - j, j)


def _filt(x: torch.Tensor, h: np.ndarray) -> torch.Tensor:
    """Convolve the last axis with an odd-length filter h, symmetric extension, same length (DTCWT level 1)."""
    m = len(h) // 2
    xe = x[..., torch.as_tensor(_symmetric_index(x.shape[-1], m))]
    return xe.unfold(-1, len(h), 1) @ torch.as_tensor(h[::-1].copy(), dtype=x.dtype)


def _dfilt(x: torch.Tensor, ha: np.ndarray, hb: np.ndarray, highpass: bool) -> torch.Tensor:
    """The q-shift decimating filter along the last axis (length divisible by 4 -> half): two trees, interleaved.

    Symmetric extension by len(ha); tree a filters the odd-phase samples, tree b the even-phase ones, each with
    stride 2, and the outputs are interleaved (b first for a highpass), as Kingsbury's ``coldfilt``.
    """
    n = x.shape[-1]
    if n % 4:
        raise ValueError(f"the q-shift stage needs a length divisible by 4; got {n}")
    m = len(ha)
    xe = torch.as_tensor(_symmetric_index(n, m))
    x1, x2 = x[..., xe[2::2]], x[..., xe[3::2]]
    ya = x1.unfold(-1, m, 2) @ torch.as_tensor(ha[::-1].copy(), dtype=x.dtype)
    yb = x2.unfold(-1, m, 2) @ torch.as_tensor(hb[::-1].copy(), dtype=x.dtype)
    pair = (yb, ya) if highpass else (ya, yb)
    return torch.stack(pair, -1).flatten(-2)


def _q2c(y: torch.Tensor) -> tuple[tuple[torch.Tensor, torch.Tensor], tuple[torch.Tensor, torch.Tensor]]:
    """Quads of a real subband -> two complex subbands (real, imaginary), Kingsbury's ``q2c``."""
    y = y / math.sqrt(2)
    a, b = y[..., 0::2, 0::2], y[..., 0::2, 1::2]
    c, d = y[..., 1::2, 0::2], y[..., 1::2, 1::2]
    return (a - d, b + c), (a + d, b - c)


def _orientations(lh: torch.Tensor, hl: torch.Tensor, hh: torch.Tensor) -> torch.Tensor:
    """Six oriented complex subbands (15, 45, 75, 105, 135, 165 degrees) as (..., 6, h, w, 2) (real, imag last)."""
    (d15, d165), (d45, d135), (d75, d105) = _q2c(lh), _q2c(hh), _q2c(hl)
    bands = (d15, d45, d75, d105, d135, d165)
    return torch.stack([torch.stack(b, -1) for b in bands], -4)


def dtcwt2d(x: torch.Tensor, levels: int = 4) -> tuple[torch.Tensor, list[torch.Tensor]]:
    r"""2-D dual-tree complex wavelet transform (Kingsbury 2001; Selesnick, Baraniuk & Kingsbury 2005) of a real image.

    Level 1 filters rows then columns with the near_sym_b biorthogonal pair (symmetric extension, no
    decimation); levels 2.. apply the decimating q-shift (qshift_b) trees; the three real highpass subbands of
    each level are turned into six complex oriented subbands by ``q2c``. This is the transform of
    ``pytorch_wavelets.DTCWTForward(J=levels, biort='near_sym_b', qshift='qshift_b')`` (mode 'symmetric',
    orientations on dim -4, real/imaginary on the last dim), which the official compressibility loss uses.

    Parameters
    ----------
    x : (..., H, W) real tensor
    levels : number of levels J >= 1

    Returns
    -------
    yl : (..., H / 2**(J-1), W / 2**(J-1)) lowpass (for H, W divisible by 2**J)
    yh : list of J tensors (..., 6, H / 2**j, W / 2**j, 2), finest first
    """
    levels = check_int(levels, "levels", least=1)
    if x.is_complex():
        raise ValueError("dtcwt2d takes a real image (transform the real and imaginary parts separately)")
    if x.ndim < 2:
        raise ValueError(f"x must have at least 2 dimensions (..., H, W); got {tuple(x.shape)}")
    if x.shape[-2] % 2:
        x = torch.cat([x, x[..., -1:, :]], -2)
    if x.shape[-1] % 2:
        x = torch.cat([x, x[..., -1:]], -1)
    h0, h1 = _NEAR_SYM_B_H0, _NEAR_SYM_B_H1
    lo, hi = _filt(x, h0), _filt(x, h1)  # along rows (last axis)

    def cols(u, f):
        return f(u.transpose(-1, -2)).transpose(-1, -2)

    ll = cols(lo, lambda u: _filt(u, h0))
    lh, hl = cols(lo, lambda u: _filt(u, h1)), cols(hi, lambda u: _filt(u, h0))
    hh = cols(hi, lambda u: _filt(u, h1))
    yh = [_orientations(lh, hl, hh)]
    h0a, h1a = _QSHIFT_B_H0A, _QSHIFT_B_H1A
    h0b, h1b = h0a[::-1].copy(), h1a[::-1].copy()
    for _ in range(1, levels):
        if ll.shape[-2] % 4:
            ll = torch.cat([ll[..., :1, :], ll, ll[..., -1:, :]], -2)
        if ll.shape[-1] % 4:
            ll = torch.cat([ll[..., :1], ll, ll[..., -1:]], -1)
        lo, hi = _dfilt(ll, h0b, h0a, False), _dfilt(ll, h1b, h1a, True)
        ll = cols(lo, lambda u: _dfilt(u, h0b, h0a, False))
        lh = cols(lo, lambda u: _dfilt(u, h1b, h1a, True))
        hl = cols(hi, lambda u: _dfilt(u, h0b, h0a, False))
        hh = cols(hi, lambda u: _dfilt(u, h1b, h1a, True))
        yh.append(_orientations(lh, hl, hh))
    return ll, yh


def dtcwt_reweighted_l1(x: torch.Tensor, x_ref: torch.Tensor, eps: float = 1e-4, levels: int = 4) -> torch.Tensor:
    r"""The official compressibility loss (``wavelet_loss_function``, 'dctwt' branch), per sample.

    With :math:`u = \mathrm{DTCWT}(\Re x) + i\,\mathrm{DTCWT}(\Im x)` taken entry by entry (the real and imaginary
    parts of the complex coefficients of :math:`\Re x` pair with those of :math:`\Im x`), and :math:`u_m` the same
    for :math:`x_{ref} = x_m`:
    :math:`\frac{1}{J+1}\big(\sum_{lowpass} \frac{|u|}{|u_m| + \epsilon} / (h_0 w_0)
    + \sum_{j=1}^{J} \sum_{band\ j} \frac{|u|}{|u_m| + \epsilon} / (h_j w_j)\big)`: every band's sum is divided by
    its own spatial size, so each level weighs as much as the finest one. The official code hard-codes J = 4.
    x, x_ref: (..., H, W) complex. Returns (...,).
    """
    eps = check_positive(eps, "eps")
    if x.shape != x_ref.shape:
        raise ValueError(f"x {tuple(x.shape)} and x_ref {tuple(x_ref.shape)} differ in shape")

    def coeffs(u):
        u = u if u.is_complex() else torch.complex(u, torch.zeros_like(u))
        (lr, hr), (li, hi) = dtcwt2d(u.real, levels), dtcwt2d(u.imag, levels)
        return [torch.complex(lr, li)] + [torch.complex(a, b) for a, b in zip(hr, hi)]

    ours, ref = coeffs(x), coeffs(x_ref.detach())
    terms = [(ours[0].abs() / (ref[0].abs() + eps)).sum((-2, -1)) / (ours[0].shape[-1] * ours[0].shape[-2])]
    for a, b in zip(ours[1:], ref[1:]):
        terms.append((a.abs() / (b.abs() + eps)).sum((-5, -4, -3, -2, -1)) / (a.shape[-2] * a.shape[-3]))
    return sum(terms) / len(terms)


def _pw_roll(v: np.ndarray, shift: int) -> np.ndarray:
    """pytorch_wavelets' ``roll``: ``cat(v[-k:], v[:-k])`` with k = n + shift for shift < 0 (Python slicing), which
    is a circular shift except when -shift exceeds the length (then it leaves v as it is)."""
    k = len(v) + shift if shift < 0 else shift
    return np.concatenate([v[-k:], v[:-k]]) if k else v.copy()


def _dwt_matrices(n: int, wavelet: str) -> tuple[np.ndarray, np.ndarray]:
    """One level of pytorch_wavelets' 'periodization' DWT on a length-n axis, as matrices (analysis, synthesis).

    Analysis (``afb1d``): roll by -L/2 (:func:`_pw_roll`), zero-padded convolution with stride 2, then only the first L/2 outputs
    are wrapped around; synthesis (``sfb1d``): transposed convolution with the rec filters, the first L - 2
    samples wrapped, then a roll by 1 - L/2. Where the axis is at least as long as the filter this is the exact
    periodized DWT and its inverse; on shorter axes (the coarse levels of a small image) part of the wrap-around
    is lost, so the synthesis is not the exact inverse there. We reproduce that, because the official CS runs it.
    Rows of the analysis matrix: lowpass outputs, then highpass outputs.
    """
    dec_lo, dec_hi, rec_lo, rec_hi = DWT_FILTERS[wavelet]
    L, L2, n2 = len(dec_lo), len(dec_lo) // 2, n // 2
    A = np.zeros((n, n))
    for i in range(n):
        x = _pw_roll(np.eye(n)[i], -L2)
        for row0, h in ((0, dec_lo), (n2, dec_hi)):
            full = np.convolve(x, h)[::2][: (n + L - 2) // 2 + 1]  # out[k] = sum_j h[j] x[2k - j]
            out = full.copy()
            out[:L2] = full[:L2] + np.pad(full[n2:n2 + L2], (0, max(0, L2 - len(full[n2:n2 + L2]))))
            A[row0:row0 + n2, i] = out[:n2]
    S = np.zeros((n, n))
    for k in range(n):
        c = np.eye(n)[k]
        y = np.zeros(n + L - 2)
        for part, g in ((c[:n2], rec_lo), (c[n2:], rec_hi)):
            up = np.zeros(n)
            up[0::2] = part
            y += np.convolve(up, g)[: n + L - 2]  # conv_transpose: y[m] = sum_k part[k] g[m - 2k]
        w = y.copy()
        m = min(L - 2, len(y) - n)
        w[:m] = y[:m] + y[n:n + m]
        S[:, k] = _pw_roll(w[:n], 1 - L2)
    return A, S


def _check_dwt(x: torch.Tensor, levels: int, wavelet: str) -> int:
    if wavelet not in DWT_FILTERS:
        raise ValueError(f"wavelet must be one of {sorted(DWT_FILTERS)}; got {wavelet!r}")
    levels = check_int(levels, "levels", least=1)
    H, W = x.shape[-2:]
    if H % 2**levels or W % 2**levels:
        raise ValueError(f"H={H}, W={W} must be divisible by 2**levels={2**levels}")
    return levels


def _swap_details(blk: torch.Tensor) -> torch.Tensor:
    """Swap the top-right and bottom-left quarters of a block (our matrices' order -> the official layout)."""
    h, w = blk.shape[-2] // 2, blk.shape[-1] // 2
    top = torch.cat([blk[..., :h, :w], blk[..., h:, :w]], -1)
    bot = torch.cat([blk[..., :h, w:], blk[..., h:, w:]], -1)
    return torch.cat([top, bot], -2)


def dwt2d(x: torch.Tensor, levels: int = 4, wavelet: str = "bior1.5") -> torch.Tensor:
    r"""Separable 2-D DWT with pytorch_wavelets' 'periodization', in the official 'dwt' layout.

    Each level filters the current approximation block along the width, then the height (:func:`_dwt_matrices`),
    and arranges it as [[LL, LH], [HL, HH]] with LH = lowpass along the width and highpass along the height
    (``wavelet_transform_n_lvl``'s ``concat_4`` of ``DWTForward``'s outputs). Filters: PyWavelets' ``'bior1.5'``
    or ``'haar'``. Equal to ``DWTForward(J=levels, wave=wavelet, mode='periodization')``. x: (..., H, W) real or
    complex; returns the same shape.
    """
    levels = _check_dwt(x, levels, wavelet)
    out = x.clone()
    h, w = x.shape[-2:]
    for _ in range(levels):
        Ah = torch.as_tensor(_dwt_matrices(h, wavelet)[0]).to(x.dtype)
        Aw = torch.as_tensor(_dwt_matrices(w, wavelet)[0]).to(x.dtype)
        out[..., :h, :w] = _swap_details(Ah @ out[..., :h, :w] @ Aw.T)
        h, w = h // 2, w // 2
    return out


def idwt2d(c: torch.Tensor, levels: int = 4, wavelet: str = "bior1.5") -> torch.Tensor:
    """pytorch_wavelets' ``DWTInverse`` (mode 'periodization') of :func:`dwt2d`'s layout, coarsest level first.

    The exact inverse wherever each axis is at least as long as the filter (always for 'haar'); see
    :func:`_dwt_matrices` for the coarse levels of a small image.
    """
    levels = _check_dwt(c, levels, wavelet)
    out = c.clone()
    H, W = c.shape[-2:]
    for j in reversed(range(levels)):
        h, w = H >> j, W >> j
        Sh = torch.as_tensor(_dwt_matrices(h, wavelet)[1]).to(c.dtype)
        Sw = torch.as_tensor(_dwt_matrices(w, wavelet)[1]).to(c.dtype)
        out[..., :h, :w] = Sh @ _swap_details(out[..., :h, :w]) @ Sw.T
    return out


def official_cs(z: torch.Tensor, x_pi: torch.Tensor, maps: torch.Tensor, mask: torch.Tensor, levels: int = 4,
                wavelet: str = "bior1.5", unrolls: int = 10, cg_mu: float = 0.1, cg_iters: int = 10,
                tau: float = 0.01) -> torch.Tensor:
    r"""The official CS module (``compressed_sensing``) that gives CUPID's weights :math:`x_m`.

    ``unrolls`` times: a data-consistency step :math:`x \leftarrow (E^HE + \mu I)^{-1}(z + \mu x)` by ``cg_iters`` CG
    steps (μ = ``cg_mu``), then complex soft thresholding of *every* periodized DWT coefficient (the approximation
    band too) at :math:`\tau' = \tau \max_i |(W x_{PI})_i|`. Starts from x = z; z = :math:`E^HE x_{PI}`.
    z, x_pi: (B, H, W) complex. Returns (B, H, W). The official code thresholds the DWT here (bior1.5, the
    configuration's ``wave``), not the DTCWT of its loss.
    """
    unrolls = check_int(unrolls, "unrolls", least=1)
    tau = check_positive(tau, "tau")
    if z.shape != x_pi.shape:
        raise ValueError(f"z {tuple(z.shape)} and x_pi {tuple(x_pi.shape)} differ in shape")
    tau_p = tau * dwt2d(x_pi, levels, wavelet).abs().amax(dim=(-2, -1), keepdim=True)
    x = z
    for _ in range(unrolls):
        x = cg_solve(z + cg_mu * x, maps, mask, cg_mu, cg_iters)
        x = idwt2d(soft_threshold(dwt2d(x, levels, wavelet), tau_p), levels, wavelet)
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


# the official letters (``random_letter``): Arial at size 80 on a 320 x 368 slice, letter ii of 4 at column
# 20 + 90 ii, one per 80-row band, then flipped upside down, so that they run diagonally from the bottom left to the
# top right. Their ink boxes, measured from the official drawing: rows 12-69 (+ 80 ii from the top for the letter
# drawn in band 3 - ii) and columns position + 6 to + 56, out of 320 x 368.
_OFFICIAL_BOX = dict(rows=(12, 70), band=80, cols=(6, 57), positions=(20, 110, 200, 290), size=(320, 368))


def letter_mask(letter: str, shape: tuple[int, int], rows: int = 2, cols: int = 2,
                layout: str = "tiled") -> np.ndarray:
    """A boolean (H, W) mask with the letter's 5x7 glyph.

    ``layout="tiled"`` (the page's default): the glyph drawn ``rows x cols`` times, scaled to fill the grid
    (about a quarter of the pixels). ``layout="official"``: four glyphs where the official ``random_letter`` puts
    its four Arial letters, one per quarter of the rows, staggered diagonally, each centred on the official
    letter's box scaled to (H, W) (a few per cent of the pixels, as the official 3.8-5.1 %). Our stand-in
    for the Arial letters drawn with PIL.
    """
    if letter not in _GLYPHS:
        raise ValueError(f"no glyph for {letter!r}")
    H, W = (check_int(s, "shape", least=8) for s in shape)
    g = np.array([[c == "1" for c in row] for row in _GLYPHS[letter]])
    out = np.zeros((H, W), dtype=bool)
    if layout == "tiled":
        ch, cw = H // rows, W // cols
        s = max(min((ch - 2) // 7, (cw - 2) // 5), 1)
        glyph = np.kron(g, np.ones((s, s), dtype=bool))
        gh, gw = glyph.shape
        for i in range(rows):
            for j in range(cols):
                r0, c0 = i * ch + (ch - gh) // 2, j * cw + (cw - gw) // 2
                out[r0:r0 + gh, c0:c0 + gw] |= glyph
        return out
    if layout != "official":
        raise ValueError(f"layout must be 'tiled' or 'official'; got {layout!r}")
    b = _OFFICIAL_BOX
    (r_lo, r_hi), (c_lo, c_hi), (H0, W0) = b["rows"], b["cols"], b["size"]
    s = max(int((r_hi - r_lo) / H0 * H) // 7, 1)
    glyph = np.kron(g, np.ones((s, s), dtype=bool))
    gh, gw = glyph.shape
    for ii, pos in enumerate(b["positions"]):
        band = len(b["positions"]) - 1 - ii  # the flip puts letter ii in band 3 - ii, counted from the top
        rc = (r_lo + r_hi) / 2 + b["band"] * band
        cc = pos + (c_lo + c_hi) / 2
        r0 = min(max(int(round(rc / H0 * H - gh / 2)), 0), H - gh)
        c0 = min(max(int(round(cc / W0 * W - gw / 2)), 0), W - gw)
        out[r0:r0 + gh, c0:c0 + gw] |= glyph
    return out


def make_perturbations(shape: tuple[int, int], K: int, magnitude: float = 5e-2, seed: int | None = None,
                       dtype: torch.dtype = torch.complex64, layout: str = "tiled") -> torch.Tensor:
    """K letter-shaped complex perturbations :math:`p_k` (letters A, R, O, N, P, B, ...), shape (K, H, W).

    Each is the constant :func:`perturbation_intensity` on the pixels of its letter mask (:func:`letter_mask`
    with ``layout``), 0 elsewhere (as the official ``process_p_k``). ``seed`` is accepted for the brief's
    signature; the construction is deterministic.
    """
    K = check_int(K, "K", least=1)
    if K > len(LETTERS):
        raise ValueError(f"K={K}: at most {len(LETTERS)} perturbations (the official code raises too)")
    magnitude = check_positive(magnitude, "magnitude")
    p = np.stack([letter_mask(LETTERS[k], shape, layout=layout) * perturbation_intensity(k, K, magnitude)
                  for k in range(K)])
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
    r"""Parallel-imaging fidelity :math:`\frac1K\sum_k \|(f(z + E^HE p_k) - f(z)) - S p_k\|_2 / \|S p_k\|_2`.

    As the official ``train.py``: only the perturbation is masked by the coil support S (``support``, default
    everything); the network's output difference counts over the whole image. Norms per sample, then averaged
    over samples (the official loop is over single slices). f maps (N, H, W) -> (N, H, W); it is called once on the stacked
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
    num = torch.linalg.vector_norm((fk - f0[None]) - p[:, None], dim=(-2, -1))
    den = torch.linalg.vector_norm(p, dim=(-2, -1))[:, None]
    loss = (num / den).mean()
    return (loss, f0) if return_output else loss


def cupid_loss(net: UnrolledNet, z: torch.Tensor, x_m: torch.Tensor, perts: torch.Tensor, op: RowNormalOperator,
               support: torch.Tensor, lam: float = 200.0, eps: float = 1e-4, level: int = 3,
               wavelet: str = "haar") -> tuple[torch.Tensor, dict]:
    r"""The CUPID objective :math:`\lambda L_{PIF} + L_{comp}` (official ``train.py``), averaged over the batch.

    :math:`L_{comp}` is taken on the unperturbed output masked to the coil support, with weights from
    :math:`x_m`: :func:`wavelet_reweighted_l1` (``wavelet="haar"``, the page's default, ``level`` levels) or the
    official DTCWT loss :func:`dtcwt_reweighted_l1` (``wavelet="dtcwt"``, ``level`` = 4 in the official
    configuration). ``lam = 0`` gives the compressibility-only ablation (the network is then run on z alone).
    """
    lam = check_positive(lam, "lam", strict=False)
    if wavelet not in ("haar", "dtcwt"):
        raise ValueError(f"wavelet must be 'haar' or 'dtcwt'; got {wavelet!r}")
    comp = wavelet_reweighted_l1 if wavelet == "haar" else dtcwt_reweighted_l1

    def f(u):
        return net(u, op)

    if lam == 0:
        out = f(z)
        l_pif = torch.zeros(())
    else:
        l_pif, out = pif_loss(f, z, perts, op, support, return_output=True)
    l_comp = comp(out * support, x_m, eps, level).mean()
    return lam * l_pif + l_comp, dict(pif=float(l_pif.detach()), comp=float(l_comp.detach()))


def _batches(n: int, batch: int, steps: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.choice(n, size=min(batch, n), replace=False) for _ in range(steps)]


def train_cupid(net: UnrolledNet, x_pi: torch.Tensor, x_m: torch.Tensor, perts: torch.Tensor,
                op: RowNormalOperator, support: torch.Tensor, lam: float = 200.0, steps: int = 100,
                lr: float = 5e-4, batch: int = 1, perts_per_step: int | None = None, eps: float = 1e-4,
                level: int = 3, seed: int = 0, progress_fn: Callable | None = None, wavelet: str = "haar") -> dict:
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
        loss, parts = cupid_loss(net, z_all[idx], x_m[idx], p, op, support, lam, eps, level, wavelet)
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


# --------------------------------------------------------------------------------------------- image-domain baselines
# Naive alternatives to CUPID that see only what CUPID sees (x_PI, the coil maps, the mask) and use none of its
# ideas; added after the page's independent review. Each has one knob, chosen by `tune_on_training`.


def tv_denoise(x: torch.Tensor, weight: float) -> torch.Tensor:
    r"""Isotropic total-variation denoising (Chambolle 2004) of complex images, real and imaginary parts apart.

    Each part :math:`u` is replaced by :math:`\arg\min_v \tfrac12\|v-u\|^2 + w\,\mathrm{TV}(v)` (scikit-image's
    ``denoise_tv_chambolle`` with ``weight`` = w, default stopping). x: (..., H, W) complex -> same shape, dtype.
    ``weight = 0`` returns x.
    """
    from skimage.restoration import denoise_tv_chambolle

    weight = check_positive(weight, "weight", strict=False)
    if not torch.is_complex(x) or x.ndim < 2:
        raise ValueError("x must be a complex tensor of shape (..., H, W)")
    if weight == 0:
        return x.clone()
    a = x.detach().cpu().numpy().reshape(-1, *x.shape[-2:])
    out = np.stack([denoise_tv_chambolle(u.real, weight=weight) + 1j * denoise_tv_chambolle(u.imag, weight=weight)
                    for u in a])
    return torch.as_tensor(out.reshape(x.shape)).to(x.dtype)


def gaussian_smooth(x: torch.Tensor, sigma: float) -> torch.Tensor:
    """Gaussian smoothing (standard deviation ``sigma`` pixels, periodic boundary) of complex images over the last
    two axes, real and imaginary parts apart (scipy's ``gaussian_filter``). x: (..., H, W) complex."""
    from scipy.ndimage import gaussian_filter

    sigma = check_positive(sigma, "sigma", strict=False)
    if not torch.is_complex(x) or x.ndim < 2:
        raise ValueError("x must be a complex tensor of shape (..., H, W)")
    a = x.detach().cpu().numpy()
    s = (0,) * (a.ndim - 2) + (sigma, sigma)
    out = gaussian_filter(a.real, s, mode="wrap") + 1j * gaussian_filter(a.imag, s, mode="wrap")
    return torch.as_tensor(out).to(x.dtype)


def tikhonov_sense(x_pi: torch.Tensor, op: RowNormalOperator, alpha: float) -> torch.Tensor:
    r"""Tikhonov-regularised SENSE on the clinical image's own k-space:
    :math:`\arg\min_x \|E x - E x_{PI}\|^2 + \alpha\|x\|^2 = (E^HE + \alpha I)^{-1} E^HE\,x_{PI}`, solved exactly
    (:meth:`RowNormalOperator.solve`). x_pi: (..., H, W)."""
    alpha = check_positive(alpha, "alpha")
    return op.solve(op.apply(x_pi), alpha)


def early_stopped_cg(x_pi: torch.Tensor, maps: torch.Tensor, mask: torch.Tensor, iters: int) -> torch.Tensor:
    r"""CG on :math:`E^HE\,x = E^HE\,x_{PI}` from :math:`x_0 = 0`, stopped after ``iters`` steps (early stopping as
    the regulariser), :func:`cg_solve` with μ = 0. x_pi: (..., H, W)."""
    return cg_solve(EhE(x_pi, maps, mask), maps, mask, 0.0, iters)


def tune_on_training(method: Callable[[torch.Tensor, float], torch.Tensor], grid: tuple | list,
                     x_in: torch.Tensor, x_ref: torch.Tensor) -> tuple[float, dict]:
    """The knob of a baseline chosen as the page chooses the CS weight: the grid value with the highest mean
    :func:`psnr` of ``method(x_in[i:i+1], value)`` against ``x_ref[i]`` over the training images (the first one wins
    a tie). x_in, x_ref: (B, H, W). Returns (best value, {value: mean PSNR})."""
    if len(grid) == 0:
        raise ValueError("grid is empty")
    if x_in.shape != x_ref.shape or x_in.ndim != 3:
        raise ValueError(f"x_in and x_ref must both be (B, H, W); got {tuple(x_in.shape)}, {tuple(x_ref.shape)}")
    scores = {v: float(np.mean([psnr(x_ref[i].detach().numpy(), method(x_in[i:i + 1], v)[0].detach().numpy())
                                for i in range(len(x_in))])) for v in grid}
    return max(scores, key=scores.get), scores
