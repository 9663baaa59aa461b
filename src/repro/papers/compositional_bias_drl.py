r"""Disentangled Representation Learning via Modular Compositional Bias, in miniature.

Paper map
---------
*Disentangled Representation Learning via Modular Compositional Bias*, Whie Jung, Dong Hoon Lee,
Seunghoon Hong, NeurIPS 2025, https://arxiv.org/abs/2510.21402 (official code: github.com/whieya/Compositional-DRL,
not available here; see the page's "Against the official code").
Notebook: ``notebooks/compositional-bias-drl.py``.

Notation (paper -> here):

- image :math:`x`, encoder :math:`E`, decoder :math:`D` -> :class:`BlockAE` (``encode``, ``decode``);
- latent :math:`z = (z_1, \dots, z_K)`, one block per factor -> tensor of shape (batch, K, d);
- mixing strategy for attributes (each block from exactly one of two images, the rule "one value per factor")
  -> :func:`random_block_mask` + :func:`mix_attributes`; for objects (any subset of the union of two images'
  slots) -> :func:`mix_objects`;
- prior loss :math:`\ell_{prior}(D(z_{mix}))` (every remix must decode into a realistic image) -> :func:`prior_loss`,
  the negative ELBO of the remix under a frozen VAE pretrained on real images (:class:`GaussianVAE`), our
  stand-in for the paper's generative prior;
- compositional consistency :math:`\|E(D(z_{mix})) - z_{mix}\|^2` (Wiedemer et al., 2024) -> :func:`consistency_loss`;
- training of the networks compared on the page -> :func:`train_model` (the mixing model; its ablation without
  the compositional bias, ``remix="none"``: the same losses on each image's own code; the plain AE and the
  beta-VAE, whose remix losses are recorded, not optimised);
- the naive linear baselines PCA and FastICA, as codes of K blocks -> :func:`fit_linear_code`, :class:`LinearCode`;
- a second prior, a kernel density estimate over the real images -> :func:`kde_prior_loss`;
- the evaluation: DCI disentanglement (Eastwood & Williams, 2018; gradient-boosted-tree importances as in
  disentanglement_lib) -> :func:`dci_importance`, :func:`dci_from_importance`, :func:`dci_disentanglement`;
  MIG -> :func:`mig`; single-block swaps judged by a nearest-sprite factor classifier -> :func:`swap_test`,
  :func:`swap_histogram`; whether a network learned the sprites at all -> :func:`readback_accuracy`,
  :func:`code_spread` (collapse diagnostics).

Data: procedural 16 x 16 RGB sprites (:func:`render_sprites`, :func:`make_sprites`) with four factors,
background hue (4) x shape (3) x object colour (4) x position (3 x 3 = 9): 432 distinct images.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
import torch
from numpy.typing import ArrayLike
from torch import Tensor, nn

from repro.optim import Adam
from repro.validate import check_int, check_positive

SIZE = 16
FACTOR_NAMES = ("background hue", "shape", "object colour", "position")
FACTOR_SIZES = (4, 3, 4, 9)
BACKGROUNDS = np.array([[0.25, 0.05, 0.05], [0.05, 0.25, 0.05], [0.05, 0.05, 0.25], [0.25, 0.25, 0.05]])
COLOURS = np.array([[1.0, 0.35, 0.35], [0.35, 1.0, 0.35], [0.35, 0.55, 1.0], [1.0, 1.0, 1.0]])
SHAPES = ("square", "disk", "triangle")


# ---------------------------------------------------------------- data


def _shape_mask(shape: int, cy: float, cx: float) -> np.ndarray:
    """Boolean (16, 16) mask of one sprite of radius about 2.5 px centred at pixel (cy, cx)."""
    yy, xx = np.mgrid[0:SIZE, 0:SIZE] + 0.5
    dy, dx = yy - cy, xx - cx
    if shape == 0:  # square
        return (np.abs(dy) <= 2.5) & (np.abs(dx) <= 2.5)
    if shape == 1:  # disk
        return dy ** 2 + dx ** 2 <= 3.0 ** 2
    # triangle, apex up: rows from cy - 2.5 to cy + 2.5, half-width growing from 0 to 3
    return (dy >= -2.5) & (dy <= 2.5) & (np.abs(dx) <= (dy + 2.5) * 3.0 / 5.0 + 0.25)


def render_sprites(factors: ArrayLike) -> np.ndarray:
    """Render attribute sprites from their factor values.

    Parameters
    ----------
    factors : int array, shape (n, 4)
        Columns: background hue (0..3), shape (0..2: square, disk, triangle), object colour (0..3),
        position (0..8, row-major on a 3 x 3 grid of centres 4, 8, 12 px).

    Returns
    -------
    float32 array, shape (n, 3, 16, 16), values in [0, 1].
    """
    f = np.asarray(factors)
    if f.ndim != 2 or f.shape[1] != 4 or not np.issubdtype(f.dtype, np.integer):
        raise ValueError(f"factors must be an integer array of shape (n, 4), got {f.dtype} {f.shape}")
    if np.any(f < 0) or np.any(f >= np.array(FACTOR_SIZES)):
        raise ValueError(f"factor values out of range {FACTOR_SIZES}")
    out = np.empty((len(f), 3, SIZE, SIZE), dtype=np.float32)
    centres = (4.0, 8.0, 12.0)
    for i, (bg, sh, col, pos) in enumerate(f):
        m = _shape_mask(int(sh), centres[pos // 3], centres[pos % 3])
        img = np.where(m[None], COLOURS[col][:, None, None], BACKGROUNDS[bg][:, None, None])
        out[i] = img
    return out


def sprite_grid() -> tuple[np.ndarray, np.ndarray]:
    """All 432 attribute sprites, one per factor combination (row-major over ``FACTOR_SIZES``).

    Returns
    -------
    images : float32 array (432, 3, 16, 16); factors : int64 array (432, 4).
    """
    factors = np.stack(np.meshgrid(*[np.arange(s) for s in FACTOR_SIZES], indexing="ij"), -1).reshape(-1, 4)
    return render_sprites(factors), factors.astype(np.int64)


def make_sprites(n: int, mode: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Sample ``n`` procedural sprites.

    Parameters
    ----------
    n : number of images.
    mode : ``"attributes"`` (one sprite on a coloured background, factors as in :func:`render_sprites`) or
        ``"objects"`` (1 to 3 sprites on black, each with its own shape, colour and distinct position).
    seed : seed of the generator (the output is a deterministic function of ``(n, mode, seed)``).

    Returns
    -------
    images : float32 (n, 3, 16, 16).
    factors : int64, ``"attributes"``: (n, 4); ``"objects"``: (n, 3, 3) with rows (shape, colour, position) per
        object slot and -1 in the rows of absent objects.
    """
    n = check_int(n, "n", least=1)
    rng = np.random.default_rng(seed)
    if mode == "attributes":
        f = np.stack([rng.integers(0, s, n) for s in FACTOR_SIZES], 1)
        return render_sprites(f), f.astype(np.int64)
    if mode != "objects":
        raise ValueError(f"mode must be 'attributes' or 'objects', got {mode!r}")
    imgs = np.zeros((n, 3, SIZE, SIZE), dtype=np.float32)
    f = -np.ones((n, 3, 3), dtype=np.int64)
    centres = (4.0, 8.0, 12.0)
    for i in range(n):
        k = int(rng.integers(1, 4))
        pos = rng.choice(9, size=k, replace=False)
        for j in range(k):
            sh, col = int(rng.integers(0, 3)), int(rng.integers(0, 4))
            m = _shape_mask(sh, centres[pos[j] // 3], centres[pos[j] % 3])
            imgs[i][:, m] = COLOURS[col][:, None]
            f[i, j] = (sh, col, pos[j])
    return imgs, f


# ---------------------------------------------------------------- mixing strategies


def random_block_mask(batch: int, k: int, generator: torch.Generator | None = None) -> Tensor:
    """Bernoulli(1/2) source choice per (image, block): ``True`` takes the block from the first image.

    The same rule as the authors' earlier slot mixing (``noise = rand(bs, ns, 1); mask = noise > 0.5``).

    Returns
    -------
    bool tensor, shape (batch, k).
    """
    batch, k = check_int(batch, "batch", least=1), check_int(k, "k", least=1)
    return torch.rand((batch, k), generator=generator) > 0.5


def mix_attributes(z_a: Tensor, z_b: Tensor, mask: Tensor) -> Tensor:
    """Attribute mixing: each latent block comes from exactly one of two images (mutually exclusive values).

    :math:`z_{mix}[:, k] = z_a[:, k]` where ``mask[:, k]`` else :math:`z_b[:, k]`.

    Parameters
    ----------
    z_a, z_b : tensors, shape (batch, K, d).
    mask : bool tensor, shape (batch, K).

    Returns
    -------
    tensor, shape (batch, K, d).
    """
    if z_a.shape != z_b.shape or z_a.ndim != 3:
        raise ValueError(f"z_a and z_b must have the same shape (batch, K, d), got {tuple(z_a.shape)}, {tuple(z_b.shape)}")
    if mask.shape != z_a.shape[:2] or mask.dtype != torch.bool:
        raise ValueError(f"mask must be a bool tensor of shape {tuple(z_a.shape[:2])}, got {mask.dtype} {tuple(mask.shape)}")
    return torch.where(mask[..., None], z_a, z_b)


def random_dim_mask(batch: int, k: int, d: int, generator: torch.Generator | None = None) -> Tensor:
    """Bernoulli(1/2) source choice per (image, block, dimension): the per-dimension remix of the ablation.

    Returns
    -------
    bool tensor, shape (batch, k, d); ``True`` takes the dimension from the first image.
    """
    batch, k, d = check_int(batch, "batch", least=1), check_int(k, "k", least=1), check_int(d, "d", least=1)
    return torch.rand((batch, k, d), generator=generator) > 0.5


def mix_dimensions(z_a: Tensor, z_b: Tensor, mask: Tensor) -> Tensor:
    """Per-dimension remix (an ablation of the attribute rule): each latent *dimension* comes from one image.

    :math:`z_{mix}[:, k, j] = z_a[:, k, j]` where ``mask[:, k, j]`` else :math:`z_b[:, k, j]`. Unlike
    :func:`mix_attributes`, the two dimensions of a block may come from different images, so the remix carries
    no block structure: the rule that a factor's whole block takes one image's value is left out.

    Parameters
    ----------
    z_a, z_b : tensors, shape (batch, K, d).
    mask : bool tensor, shape (batch, K, d).

    Returns
    -------
    tensor, shape (batch, K, d).
    """
    if z_a.shape != z_b.shape or z_a.ndim != 3:
        raise ValueError(f"z_a and z_b must have the same shape (batch, K, d), got {tuple(z_a.shape)}, {tuple(z_b.shape)}")
    if mask.shape != z_a.shape or mask.dtype != torch.bool:
        raise ValueError(f"mask must be a bool tensor of shape {tuple(z_a.shape)}, got {mask.dtype} {tuple(mask.shape)}")
    return torch.where(mask, z_a, z_b)


def mix_objects(slots_a: Tensor, slots_b: Tensor, generator: torch.Generator | None = None) -> tuple[Tensor, Tensor]:
    """Object mixing: a uniformly random K-subset of the union of two images' K slots (shared support).

    Parameters
    ----------
    slots_a, slots_b : tensors, shape (batch, K, d).

    Returns
    -------
    mixed : tensor (batch, K, d), rows drawn without replacement from the 2K slots of each pair.
    index : long tensor (batch, K), the chosen rows of ``cat([slots_a, slots_b], 1)``.
    """
    if slots_a.shape != slots_b.shape or slots_a.ndim != 3:
        raise ValueError(f"slots must have equal shapes (batch, K, d), got {tuple(slots_a.shape)}, {tuple(slots_b.shape)}")
    b, k, d = slots_a.shape
    union = torch.cat([slots_a, slots_b], 1)
    index = torch.argsort(torch.rand((b, 2 * k), generator=generator), dim=1)[:, :k]
    return torch.gather(union, 1, index[..., None].expand(b, k, d)), index


# ---------------------------------------------------------------- models


def _mlp(sizes: Iterable[int]) -> nn.Sequential:
    sizes = list(sizes)
    layers: list[nn.Module] = []
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        layers.append(nn.Linear(a, b))
        if i < len(sizes) - 2:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


class BlockAE(nn.Module):
    """MLP autoencoder whose code is K blocks of d dimensions (the same network for every method).

    ``encode``: (batch, 3, 16, 16) -> (batch, K, d); ``decode``: (batch, K, d) -> (batch, 3, 16, 16) in (0, 1).
    With ``variational=True`` the encoder also outputs log-variances (for the beta-VAE baseline), and
    ``encode`` returns the means (the code used for evaluation).
    """

    def __init__(self, k: int = 4, d: int = 2, hidden: int = 128, variational: bool = False) -> None:
        super().__init__()
        self.k, self.d, self.variational = check_int(k, "k", 1), check_int(d, "d", 1), variational
        n_in = 3 * SIZE * SIZE
        self.enc = _mlp([n_in, hidden, hidden, k * d * (2 if variational else 1)])
        self.dec = _mlp([k * d, hidden, hidden, n_in])

    def encode_stats(self, x: Tensor) -> tuple[Tensor, Tensor | None]:
        """Means (batch, K, d) and, for a VAE, log-variances (batch, K, d)."""
        h = self.enc(x.reshape(len(x), -1))
        if self.variational:
            mu, logvar = h.chunk(2, dim=1)
            return mu.reshape(-1, self.k, self.d), logvar.reshape(-1, self.k, self.d)
        return h.reshape(-1, self.k, self.d), None

    def encode(self, x: Tensor) -> Tensor:
        """The code (means for a VAE), shape (batch, K, d)."""
        return self.encode_stats(x)[0]

    def decode(self, z: Tensor) -> Tensor:
        """Images (batch, 3, 16, 16) with values in (0, 1)."""
        return torch.sigmoid(self.dec(z.reshape(len(z), -1))).reshape(-1, 3, SIZE, SIZE)


class LinearCode:
    r"""A linear code of the images, K blocks of d dimensions: the naive baselines PCA and ICA.

    ``encode``: :math:`z = W (x - \mu)` reshaped to (batch, K, d); ``decode``: :math:`\hat x = A z + \mu`,
    clipped to [0, 1], reshaped to images. Blocks are consecutive components (for PCA, in decreasing order of
    variance). Built by :func:`fit_linear_code`; it has the ``encode``, ``decode`` and ``k`` that
    :func:`codes_of`, :func:`swap_test` and :func:`mix_attributes` use.
    """

    def __init__(self, unmixing: np.ndarray, mixing: np.ndarray, mean: np.ndarray, k: int, d: int) -> None:
        self.k, self.d = check_int(k, "k", 1), check_int(d, "d", 1)
        W, A, mu = (np.asarray(a, dtype=float) for a in (unmixing, mixing, mean))
        if W.shape != (k * d, mu.size) or A.shape != (mu.size, k * d):
            raise ValueError(f"unmixing must be (K*d, n_pixels) and mixing (n_pixels, K*d), got {W.shape}, {A.shape}")
        self.W, self.A, self.mu = torch.tensor(W), torch.tensor(A), torch.tensor(mu.ravel())

    def encode(self, x: Tensor) -> Tensor:
        """Codes (batch, K, d), float32."""
        z = (x.reshape(len(x), -1).double() - self.mu) @ self.W.T
        return z.float().reshape(-1, self.k, self.d)

    def decode(self, z: Tensor) -> Tensor:
        """Images (batch, 3, 16, 16) in [0, 1], float32."""
        x = z.reshape(len(z), -1).double() @ self.A.T + self.mu
        return x.clamp(0.0, 1.0).float().reshape(-1, 3, SIZE, SIZE)


def fit_linear_code(images: ArrayLike, method: str, k: int = 4, d: int = 2, seed: int = 0) -> LinearCode:
    """Fit PCA or FastICA with K * d components on flattened images (scikit-learn), as a :class:`LinearCode`.

    ``"pca"``: principal components (Pearson 1901, Hotelling 1933), ``sklearn.decomposition.PCA``; the code is
    the projection on the leading K * d components, the decoder its inverse. ``"ica"``: FastICA (Hyvarinen & Oja,
    2000), ``sklearn.decomposition.FastICA`` with unit-variance whitening and ``random_state=seed``; the code
    holds the K * d estimated sources, the decoder the mixing matrix. Both are the classical linear answers to
    "find independent or uncorrelated directions in the data", with none of the paper's ideas.

    Parameters
    ----------
    images : (n, 3, 16, 16) floats; method : ``"pca"`` or ``"ica"``; k, d : blocks and dimensions per block;
    seed : FastICA's initialisation (PCA is deterministic).

    Returns
    -------
    LinearCode
    """
    from sklearn.decomposition import PCA, FastICA

    x = np.asarray(images, dtype=float)
    if x.ndim != 4 or x.shape[1:] != (3, SIZE, SIZE) or not np.all(np.isfinite(x)):
        raise ValueError(f"images must be finite with shape (n, 3, {SIZE}, {SIZE}), got {x.shape}")
    k, d = check_int(k, "k", 1), check_int(d, "d", 1)
    flat = x.reshape(len(x), -1)
    if len(flat) <= k * d:
        raise ValueError(f"need more than K*d = {k * d} images, got {len(flat)}")
    if method == "pca":
        m = PCA(n_components=k * d, svd_solver="full").fit(flat)
        return LinearCode(m.components_, m.components_.T, m.mean_, k, d)
    if method == "ica":
        m = FastICA(n_components=k * d, whiten="unit-variance", random_state=seed, max_iter=1000).fit(flat)
        return LinearCode(m.components_, m.mixing_, m.mean_, k, d)
    raise ValueError(f"method must be 'pca' or 'ica', got {method!r}")


class GaussianVAE(BlockAE):
    """The frozen prior: a small VAE (Gaussian encoder, Bernoulli-free MSE decoder) trained on real images."""

    def __init__(self, latent: int = 8, hidden: int = 128) -> None:
        super().__init__(k=1, d=latent, hidden=hidden, variational=True)


def negative_elbo(vae: BlockAE, x: Tensor, beta: float = 1.0, sample: bool = True,
                  generator: torch.Generator | None = None) -> Tensor:
    r"""Per-image negative ELBO with a Gaussian decoder of unit-free squared error.

    :math:`\sum_{pix}(x - \hat x)^2 + \beta\,\mathrm{KL}(q(z|x)\,\|\,\mathcal N(0, I))`, with :math:`\hat x`
    decoded from a reparameterised sample (``sample=True``) or from the mean.

    Returns
    -------
    tensor, shape (batch,).
    """
    if not vae.variational:
        raise ValueError("negative_elbo needs a variational model")
    mu, logvar = vae.encode_stats(x)
    z = mu
    if sample:
        eps = torch.randn(mu.shape, generator=generator)
        z = mu + torch.exp(0.5 * logvar) * eps
    rec = ((vae.decode(z) - x) ** 2).flatten(1).sum(1)
    kl = 0.5 * (mu ** 2 + logvar.exp() - 1.0 - logvar).flatten(1).sum(1)
    return rec + beta * kl


def prior_loss(vae_frozen: BlockAE, x_gen: Tensor) -> Tensor:
    """Prior loss: mean negative ELBO of generated images under a frozen VAE (deterministic, mean code).

    Gradients flow into ``x_gen`` only; the VAE's parameters must be frozen (``requires_grad=False``).

    Parameters
    ----------
    vae_frozen : a variational :class:`BlockAE` / :class:`GaussianVAE`.
    x_gen : tensor (batch, 3, 16, 16).

    Returns
    -------
    scalar tensor.
    """
    if any(p.requires_grad for p in vae_frozen.parameters()):
        raise ValueError("the prior VAE must be frozen (requires_grad=False on all parameters)")
    return negative_elbo(vae_frozen, x_gen, sample=False).mean()


def consistency_loss(E: Callable[[Tensor], Tensor], D: Callable[[Tensor], Tensor], z_mix: Tensor,
                     normalise: bool = True, decoded: Tensor | None = None) -> Tensor:
    r"""Compositional consistency (Wiedemer et al.): :math:`\frac1B\sum_i \|E(D(z_{mix,i})) - z_{mix,i}\|^2`.

    The target ``z_mix`` is detached: the loss asks the encoder to read back the composite latent from the
    composite image, and the decoder to render composites that can be read back.

    Parameters
    ----------
    E : image batch -> code (batch, K, d); D : code -> image batch.
    z_mix : tensor (batch, K, d).
    decoded : ``D(z_mix)`` if the caller has already computed it (the prior loss decodes the same composites),
        so that the decoder runs once per step; the loss is the same.

    Returns
    -------
    scalar tensor.
    """
    if z_mix.ndim != 3:
        raise ValueError(f"z_mix must have shape (batch, K, d), got {tuple(z_mix.shape)}")
    target = z_mix.detach()
    scale = target.flatten(1).var(0, unbiased=False).sum() if normalise and len(target) > 1 else 1.0
    x_mix = D(z_mix) if decoded is None else decoded
    return ((E(x_mix) - target) ** 2).flatten(1).sum(1).mean() / scale


def train_model(model: BlockAE, images: Tensor, method: str, steps: int, batch: int = 64, lr: float = 2e-3,
                beta: float = 4.0, prior: BlockAE | Tensor | None = None, bandwidth: float = 0.7,
                lam_prior: float = 1.0, lam_cons: float = 1.0, seed: int = 0, remix: str = "attributes",
                progress_fn: Callable | None = None) -> dict[str, list[float]]:
    """Train one model for ``steps`` Adam steps of the same batch size (the same budget for every method).

    Methods
    -------
    ``"ae"``: reconstruction only (sum of squared errors per image); with a ``prior`` given, the prior and
    consistency losses of its remixes are recorded (not optimised), for comparison.
    ``"beta-vae"``: negative ELBO with weight ``beta`` on the KL (model must be variational); with a ``prior``
    given, the prior and consistency losses of the remixes of its mean codes are recorded (not optimised), the
    remix masks drawn from a generator of their own (seed + 1), so that its batches are those of a run without
    recording.
    ``"mix"``: reconstruction + ``lam_prior`` * :func:`prior_loss` (D(z_mix)) + ``lam_cons`` *
    :func:`consistency_loss`, with z_mix from :func:`mix_attributes` of the batch and the batch rolled by half
    (the authors' pairing).

    ``prior`` is a frozen variational model (:func:`prior_loss`) or a tensor of real images (the kernel density
    prior :func:`kde_prior_loss` with ``bandwidth``).

    ``remix`` (``"mix"`` only): ``"attributes"``, the attribute mixing strategy; ``"none"``, the ablation
    without the compositional bias: the same two losses on each image's own code (z_mix = z, every block from
    the image itself); ``"dims"``, the ablation of the block rule: each latent dimension from one of the two
    images independently (:func:`mix_dimensions`, masks from a generator of their own, seed + 2). The block
    remix mask is drawn in every case, so the three runs see the same batches.

    Returns
    -------
    history : dict of per-step losses ``recon``, ``prior``, ``cons`` (NaN where not used), ``total``.
    """
    steps, batch = check_int(steps, "steps", 1), check_int(batch, "batch", 2)
    check_positive(lr, "lr")
    if method not in ("ae", "beta-vae", "mix"):
        raise ValueError(f"method must be 'ae', 'beta-vae' or 'mix', got {method!r}")
    if remix not in ("attributes", "none", "dims"):
        raise ValueError(f"remix must be 'attributes', 'none' or 'dims', got {remix!r}")
    if method == "beta-vae" and not model.variational:
        raise ValueError("beta-vae needs BlockAE(variational=True)")
    if method == "mix" and prior is None:
        raise ValueError("the mixing method needs a frozen prior VAE")
    g = torch.Generator().manual_seed(seed)
    g_record = torch.Generator().manual_seed(seed + 1)  # remix masks recorded on the beta-VAE
    g_dims = torch.Generator().manual_seed(seed + 2)  # per-dimension masks of the "dims" ablation

    def remix_losses(z: Tensor, mask: Tensor, x_rec: Tensor | None = None) -> tuple[Tensor, Tensor]:
        if x_rec is not None:  # z_mix = z (the "none" ablation): its decode is the reconstruction's
            z_mix, x_mix = z, x_rec
        elif mask.ndim == 3:
            z_mix = mix_dimensions(z, torch.roll(z, batch // 2, 0), mask)
        else:
            z_mix = mix_attributes(z, torch.roll(z, batch // 2, 0), mask)
        if x_rec is None:
            x_mix = model.decode(z_mix)
        p = prior_loss(prior, x_mix) if isinstance(prior, nn.Module) else kde_prior_loss(prior, x_mix, bandwidth)
        return p, consistency_loss(model.encode, model.decode, z_mix, decoded=x_mix)  # one decode of z_mix

    opt = Adam(model.parameters(), lr=lr)
    hist: dict[str, list[float]] = {"recon": [], "prior": [], "cons": [], "total": []}
    it = range(steps) if progress_fn is None else progress_fn(range(steps))
    nan = float("nan")
    for _ in it:
        idx = torch.randint(0, len(images), (batch,), generator=g)
        x = images[idx]
        if method == "beta-vae":
            mu, logvar = model.encode_stats(x)
            z = mu + torch.exp(0.5 * logvar) * torch.randn(mu.shape, generator=g)
            rec = ((model.decode(z) - x) ** 2).flatten(1).sum(1).mean()
            kl = (0.5 * (mu ** 2 + logvar.exp() - 1.0 - logvar)).flatten(1).sum(1).mean()
            loss, lp, lc = rec + beta * kl, nan, nan
            if prior is not None:  # recorded only, on the mean codes
                with torch.no_grad():
                    p, c = remix_losses(mu, random_block_mask(batch, model.k, g_record))
                lp, lc = float(p), float(c)
        else:
            z = model.encode(x)
            x_rec = model.decode(z)
            rec = ((x_rec - x) ** 2).flatten(1).sum(1).mean()
            loss, lp, lc = rec, nan, nan
            if prior is not None:  # the mixing losses: optimised for "mix", only recorded for "ae"
                with torch.set_grad_enabled(method == "mix"):
                    mask = random_block_mask(batch, model.k, g)
                    same = method == "mix" and remix == "none"  # z_mix = z: no recombination
                    if method == "mix" and remix == "dims":
                        mask = random_dim_mask(batch, model.k, model.d, g_dims)  # per dimension, not per block
                    p, c = remix_losses(z, mask, x_rec if same else None)
                if method == "mix":
                    loss = rec + lam_prior * p + lam_cons * c
                lp, lc = float(p.detach()), float(c.detach())
        opt.zero_grad()
        loss.backward()
        opt.step()
        for key, v in (("recon", float(rec.detach())), ("prior", lp), ("cons", lc), ("total", float(loss.detach()))):
            hist[key].append(v)
    return hist


def train_prior_vae(images: Tensor, steps: int, latent: int = 8, batch: int = 64, lr: float = 2e-3,
                    seed: int = 0) -> GaussianVAE:
    """Pretrain the prior VAE (beta = 1) on real images, then freeze it (``requires_grad=False``, eval mode)."""
    torch.manual_seed(seed)
    vae = GaussianVAE(latent=latent)
    train_model(vae, images, "beta-vae", steps, batch=batch, lr=lr, beta=1.0, seed=seed)
    for p in vae.parameters():
        p.requires_grad_(False)
    return vae.eval()


# ---------------------------------------------------------------- evaluation


def _codes_factors(codes: ArrayLike, factors: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    c = np.asarray(codes, dtype=float)
    f = np.asarray(factors)
    if c.ndim != 2 or f.ndim != 2 or len(c) != len(f):
        raise ValueError(f"codes (n, n_codes) and factors (n, n_factors) must be 2-D with equal n, "
                         f"got {c.shape} and {f.shape}")
    if len(c) < 2 or not np.all(np.isfinite(c)):
        raise ValueError("codes must be finite with at least 2 rows")
    if not np.issubdtype(f.dtype, np.integer):
        raise ValueError("factors must be integer class labels")
    return c, f


def dci_importance(codes: ArrayLike, factors: ArrayLike, n_estimators: int = 100, seed: int = 0) -> np.ndarray:
    """DCI importance matrix R (Eastwood & Williams, 2018, Sec. 2) from gradient-boosted trees.

    One :class:`sklearn.ensemble.GradientBoostingClassifier` (defaults as in disentanglement_lib's
    ``compute_importance_gbt``) per factor; column j holds its feature importances.

    Parameters
    ----------
    codes : (n, n_codes) floats; factors : (n, n_factors) integer labels.

    Returns
    -------
    R : float array (n_codes, n_factors), non-negative, each column sums to 1 (or 0 for a constant factor).
    """
    from sklearn.ensemble import GradientBoostingClassifier

    c, f = _codes_factors(codes, factors)
    n_estimators = check_int(n_estimators, "n_estimators", 1)
    R = np.zeros((c.shape[1], f.shape[1]))
    rs = np.random.RandomState(seed)  # one stream for all factors, as the global state in disentanglement_lib
    for j in range(f.shape[1]):
        if len(np.unique(f[:, j])) < 2:
            continue
        gbt = GradientBoostingClassifier(n_estimators=n_estimators, random_state=rs)
        gbt.fit(c, f[:, j])
        R[:, j] = np.abs(gbt.feature_importances_)
    return R


def dci_from_importance(importance: ArrayLike) -> tuple[float, float]:
    r"""DCI disentanglement and completeness of an importance matrix R (n_codes, n_factors).

    Disentanglement: :math:`D = \sum_i \rho_i (1 - H_{K}(P_{i\cdot}))`, :math:`P_{ij} = R_{ij}/\sum_k R_{ik}`,
    :math:`\rho_i = \sum_j R_{ij}/\sum_{ij} R_{ij}` (entropy with log base n_factors). Completeness: the same on
    :math:`R^\top` (log base n_codes). The 1e-11 offset of disentanglement_lib is kept.

    Returns
    -------
    (disentanglement, completeness), floats in [0, 1].
    """
    R = np.asarray(importance, dtype=float)
    if R.ndim != 2 or R.shape[0] < 2 or R.shape[1] < 2 or np.any(R < 0) or not np.all(np.isfinite(R)):
        raise ValueError(f"importance must be a finite non-negative (n_codes >= 2, n_factors >= 2) matrix, got {R.shape}")

    def score(M: np.ndarray) -> float:
        P = M + 1e-11
        P = P / P.sum(1, keepdims=True)
        h = -(P * np.log(P)).sum(1) / np.log(M.shape[1])
        w = M.sum(1) / M.sum() if M.sum() > 0 else np.full(len(M), 1.0 / len(M))
        return float(np.sum((1.0 - h) * w))

    return score(R), score(R.T)


def dci_disentanglement(codes: ArrayLike, factors: ArrayLike) -> float:
    """DCI disentanglement score of a representation (Eastwood & Williams, 2018).

    Gradient-boosted-tree importances of every code dimension for every factor (:func:`dci_importance`,
    disentanglement_lib's defaults), fitted on all given rows, then :func:`dci_from_importance`. 1 means every
    code dimension predicts at most one factor; 0 means each dimension is equally important for all factors.

    Parameters
    ----------
    codes : (n, n_codes) floats (the representation of n images).
    factors : (n, n_factors) integer ground-truth factor labels.

    Returns
    -------
    float in [0, 1].
    """
    return dci_from_importance(dci_importance(codes, factors))[0]


def mig(codes: ArrayLike, factors: ArrayLike, bins: int = 20) -> float:
    """Mutual information gap (Chen et al., 2018) with codes discretised into ``bins`` equal-width bins.

    For each factor, the gap between the two largest mutual informations with single code dimensions, divided by
    the factor's entropy (``sklearn.metrics.mutual_info_score``, nats); averaged over factors.
    """
    from sklearn.metrics import mutual_info_score

    c, f = _codes_factors(codes, factors)
    bins = check_int(bins, "bins", 2)
    if c.shape[1] < 2:
        raise ValueError("mig needs at least two code dimensions")
    disc = [np.digitize(col, np.histogram_bin_edges(col, bins)[1:-1]) for col in c.T]
    gaps = []
    for j in range(f.shape[1]):
        h = mutual_info_score(f[:, j], f[:, j])
        if h <= 0:
            continue
        mi = np.sort([mutual_info_score(f[:, j], d) for d in disc])[::-1]
        gaps.append((mi[0] - mi[1]) / h)
    return float(np.mean(gaps)) if gaps else 0.0


def nearest_factors(images: Tensor, bank_images: Tensor, bank_factors: ArrayLike) -> np.ndarray:
    """Factor classifier for sprites: the factors of the nearest clean sprite in pixel space.

    Parameters
    ----------
    images : (n, 3, 16, 16); bank_images : (m, 3, 16, 16) (all clean sprites); bank_factors : (m, n_factors).

    Returns
    -------
    int array (n, n_factors).
    """
    bf = np.asarray(bank_factors)
    if len(bank_images) != len(bf):
        raise ValueError("bank_images and bank_factors must have the same length")
    d = torch.cdist(images.reshape(len(images), -1).double(), bank_images.reshape(len(bank_images), -1).double())
    return bf[d.argmin(1).numpy()]


@torch.no_grad()
def swap_test(model: BlockAE, images: Tensor, factors: ArrayLike, n_pairs: int, seed: int = 0) -> np.ndarray:
    """Single-block swaps: how many ground-truth factors change when one latent block is swapped.

    Draws ``n_pairs`` pairs (a, b) of images that differ in every factor (candidates drawn 4 * n_pairs at a time
    from one seeded stream, drawing again while fewer than n_pairs qualify); for each block k, decodes z_a with
    block k taken from z_b, and counts the factors (read by :func:`nearest_factors` on the whole sprite bank)
    that differ from those read on the plain reconstruction D(z_a).

    Returns
    -------
    int array (n_pairs, K): number of changed factors per pair and block.
    """
    f = np.asarray(factors)
    n_pairs = check_int(n_pairs, "n_pairs", 1)
    rng = np.random.default_rng(seed)
    a, b = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    for _ in range(50):  # draws of 4 * n_pairs candidate pairs, continued from the same stream until enough differ
        ca = rng.integers(0, len(f), 4 * n_pairs)
        cb = rng.integers(0, len(f), 4 * n_pairs)
        ok = np.all(f[ca] != f[cb], axis=1)
        a, b = np.concatenate([a, ca[ok]]), np.concatenate([b, cb[ok]])
        if len(a) >= n_pairs:
            break
    a, b = a[:n_pairs], b[:n_pairs]
    if len(a) < n_pairs:
        raise ValueError("not enough pairs that differ in every factor")
    za, zb = model.encode(images[a]), model.encode(images[b])
    base = nearest_factors(model.decode(za), images, f)
    out = np.zeros((n_pairs, model.k), dtype=np.int64)
    for k in range(model.k):
        mask = torch.ones(n_pairs, model.k, dtype=torch.bool)
        mask[:, k] = False
        swapped = nearest_factors(model.decode(mix_attributes(za, zb, mask)), images, f)
        out[:, k] = (swapped != base).sum(1)
    return out


@torch.no_grad()
def readback_accuracy(model: BlockAE, images: Tensor, factors: ArrayLike) -> float:
    """Share of images whose own reconstruction is read back as the same sprite: a test of learning, not of
    disentanglement.

    Decodes each image's code, :math:`\\hat x = D(E(x))`, reads it with the nearest-sprite classifier
    (:func:`nearest_factors` on the given images as the bank) and counts the images whose every factor is read
    back. A network that reconstructs the sprites scores 1; one whose outputs have collapsed to a single image
    (the mean image, say) scores about 1 / n (only the sprite nearest that image is right). The read-out is the
    one :func:`swap_test` uses, so a swap share near 0 with a read-back near 1 / n means the network has not
    learned the sprites, not that its blocks are entangled.

    Parameters
    ----------
    model : anything with ``encode`` and ``decode`` (:class:`BlockAE`, :class:`LinearCode`).
    images : (n, 3, 16, 16) all distinct sprites (the bank); factors : (n, n_factors) their integer labels.

    Returns
    -------
    float in [0, 1].
    """
    f = np.asarray(factors)
    if f.ndim != 2 or len(f) != len(images) or len(f) < 1:
        raise ValueError(f"factors must be (n, n_factors) with n = len(images) = {len(images)}, got {f.shape}")
    read = nearest_factors(model.decode(model.encode(images)), images, f)
    return float(np.mean(np.all(read == f, axis=1)))


def code_spread(codes: ArrayLike) -> float:
    """Mean over code dimensions of the standard deviation of the codes over images (population s.d.).

    A collapse diagnostic: an encoder whose codes barely move between images (posterior collapse of a VAE's means,
    or an autoencoder that has not yet learned) has a spread near 0. It depends on the code's scale, so it is read
    beside :func:`readback_accuracy`, which does not.

    Parameters
    ----------
    codes : (n, n_codes) finite floats, n >= 2.

    Returns
    -------
    float >= 0.
    """
    c = np.asarray(codes, dtype=float)
    if c.ndim != 2 or len(c) < 2 or not np.all(np.isfinite(c)):
        raise ValueError(f"codes must be a finite (n >= 2, n_codes) array, got shape {c.shape}")
    return float(c.std(axis=0).mean())


def swap_histogram(changed: ArrayLike, n_factors: int = len(FACTOR_SIZES)) -> np.ndarray:
    """Shares of single-block swaps that change 0, 1, ..., ``n_factors`` factors (the output of :func:`swap_test`).

    Returns
    -------
    float array (n_factors + 1,), summing to 1.
    """
    c = np.asarray(changed)
    n_factors = check_int(n_factors, "n_factors", 1)
    if c.size == 0 or not np.issubdtype(c.dtype, np.integer) or c.min() < 0 or c.max() > n_factors:
        raise ValueError(f"changed must be a non-empty integer array with values in 0..{n_factors}")
    return np.bincount(c.ravel(), minlength=n_factors + 1) / c.size


def random_rotation(dim: int, seed: int) -> np.ndarray:
    """A Haar-random orthogonal (dim, dim) matrix (QR of a Gaussian matrix with sign-fixed R diagonal)."""
    dim = check_int(dim, "dim", 1)
    q, r = np.linalg.qr(np.random.default_rng(seed).standard_normal((dim, dim)))
    return q * np.sign(np.diag(r))


@torch.no_grad()
def codes_of(model: BlockAE, images: Tensor) -> np.ndarray:
    """Flattened codes (n, K * d) of a model (means for a VAE), as float64 numpy."""
    return model.encode(images).reshape(len(images), -1).double().numpy()


@torch.no_grad()
def traversal(model: BlockAE, image: Tensor, codes: np.ndarray, steps: int = 7) -> Tensor:
    """Latent traversal: decode one image's code with each dimension swept over its 2nd-98th percentile range.

    Returns
    -------
    tensor (K * d, steps, 3, 16, 16).
    """
    z0 = model.encode(image[None]).reshape(-1)
    lo, hi = np.percentile(codes, 2, axis=0), np.percentile(codes, 98, axis=0)
    rows = []
    for i in range(len(z0)):
        z = z0.repeat(steps, 1)
        z[:, i] = torch.linspace(float(lo[i]), float(hi[i]), steps)
        rows.append(model.decode(z.reshape(steps, model.k, model.d)))
    return torch.stack(rows)



def kde_prior_loss(bank: Tensor, x_gen: Tensor, bandwidth: float = 0.7) -> Tensor:
    r"""Prior loss under a Gaussian kernel density estimate of the real images (a frozen nonparametric prior).

    :math:`\ell(x) = -2h^2\big[\log\frac1N\sum_j \exp(-\|x - x_j\|^2 / 2h^2)\big]`: the negative log-density up to a
    constant, in units of squared pixel error; it tends to the squared distance to the nearest real image as
    :math:`h \to 0` and exceeds it by at most :math:`2h^2\log N`.

    Parameters
    ----------
    bank : (N, 3, 16, 16) real images; x_gen : (batch, 3, 16, 16); bandwidth : h > 0.

    Returns
    -------
    scalar tensor (mean over the batch).
    """
    check_positive(bandwidth, "bandwidth")
    if bank.shape[1:] != x_gen.shape[1:]:
        raise ValueError(f"bank and x_gen must have the same image shape, got {tuple(bank.shape)}, {tuple(x_gen.shape)}")
    d = torch.cdist(x_gen.reshape(len(x_gen), -1), bank.reshape(len(bank), -1)) ** 2
    h2 = 2.0 * bandwidth ** 2
    return (-h2 * (torch.logsumexp(-d / h2, dim=1) - np.log(len(bank)))).mean()
