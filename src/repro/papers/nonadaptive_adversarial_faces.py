r"""Non-Adaptive Adversarial Face Generation (Kim, Paik, Hwang, Kim, Seo), a synthetic miniature.

Paper map
---------
*Non-Adaptive Adversarial Face Generation*, Sunpill Kim, Seunghun Paik, Chanwoo Hwang, Minsu Kim,
Jae Hong Seo, NeurIPS 2025, https://arxiv.org/abs/2507.12107 (no official code found).
Notebook: ``notebooks/nonadaptive-adversarial-faces.py``.

The algorithm's details were not retrieved; the mechanism below is the brief's reading of it (tag [I]).

Notation (paper -> here):

- face-recognition feature map ``f: image -> S^{d-1}`` -> :class:`FRS` (an MLP with L2-normalised output).
- face generator ``G(z, a)`` with identity latent ``z`` and attributes ``a`` -> :func:`generate_faces`.
- attributed subsphere ``S_a = S^{d-1} ∩ (c_a + span(B_a))`` -> :func:`fit_subsphere` (``center``, ``basis``,
  ``radius``).
- one non-adaptive query: scores ``s_i = <f(t), f(G(z_i, a))>`` for a batch ``z_1..z_n`` fixed in advance ->
  :func:`nonadaptive_attack`, which fits ``s_i ~ beta_0 + beta^T z_i`` by ridge regression and returns
  ``z* = r beta / ||beta||``.
- verification threshold ``tau`` at a false-accept rate -> :func:`far_threshold`.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import torch
from torch import nn

from repro.optim import Adam
from repro.validate import check_int, check_positive


def make_generator(d_id: int, n_attr: int, d_nuis: int, d_img: int, rng: np.random.Generator) -> dict:
    """A fixed random face generator ``x = tanh(P [z_id; e_attr; z_nuis])`` (brief 11.4).

    Parameters
    ----------
    d_id, n_attr, d_nuis, d_img : int
        Sizes of the identity latent, the number of binary attributes, the nuisance latent and the image.
    rng : numpy Generator

    Returns
    -------
    dict with ``P`` (d_img, d_id + n_attr + d_nuis) and the sizes.
    """
    for name, v in (("d_id", d_id), ("n_attr", n_attr), ("d_nuis", d_nuis), ("d_img", d_img)):
        check_int(v, name, least=0 if name in ("n_attr", "d_nuis") else 1)
    d_lat = d_id + n_attr + d_nuis
    P = rng.standard_normal((d_img, d_lat)) / np.sqrt(d_lat) * 1.5
    return dict(P=P, d_id=d_id, n_attr=n_attr, d_nuis=d_nuis, d_img=d_img)


def generate_faces(gen: dict, z: np.ndarray, attrs: np.ndarray, nuis: np.ndarray, attr_scale: float = 1.5
                   ) -> np.ndarray:
    """Images ``x = tanh(P [z; attr_scale (2a - 1); nuis])`` of the synthetic generator.

    Parameters
    ----------
    gen : dict from :func:`make_generator`.
    z : (n, d_id) identity latents.
    attrs : (n, n_attr) binary attributes in {0, 1}.
    nuis : (n, d_nuis) nuisance latents (pose, light...).

    Returns
    -------
    (n, d_img) images in (-1, 1).
    """
    z, attrs, nuis = (np.atleast_2d(np.asarray(a, dtype=float)) for a in (z, attrs, nuis))
    n = z.shape[0]
    if z.shape != (n, gen["d_id"]) or attrs.shape != (n, gen["n_attr"]) or nuis.shape != (n, gen["d_nuis"]):
        raise ValueError(f"shapes must be (n, {gen['d_id']}), (n, {gen['n_attr']}), (n, {gen['d_nuis']}); "
                         f"got {z.shape}, {attrs.shape}, {nuis.shape}")
    if not np.isin(attrs, (0.0, 1.0)).all():
        raise ValueError("attrs must be binary (0 or 1)")
    lat = np.concatenate([z, attr_scale * (2 * attrs - 1), nuis], axis=1)
    return np.tanh(lat @ gen["P"].T)


def make_synthetic_faces(n_ids: int, per_id: int, gen: dict, rng: np.random.Generator, id_jitter: float = 0.1,
                         ) -> dict:
    """A labelled face set: ``n_ids`` identities (latent, attributes) x ``per_id`` images with fresh nuisance.

    Returns
    -------
    dict with ``X`` (n_ids*per_id, d_img), ``ids`` (n_ids*per_id,), ``z`` (n_ids, d_id), ``attrs`` (n_ids, n_attr).
    """
    check_int(n_ids, "n_ids", least=1)
    check_int(per_id, "per_id", least=1)
    z = rng.standard_normal((n_ids, gen["d_id"]))
    attrs = rng.integers(0, 2, size=(n_ids, gen["n_attr"])).astype(float)
    ids = np.repeat(np.arange(n_ids), per_id)
    zs = z[ids] + id_jitter * rng.standard_normal((ids.size, gen["d_id"]))
    X = generate_faces(gen, zs, attrs[ids], rng.standard_normal((ids.size, gen["d_nuis"])))
    return dict(X=X, ids=ids, z=z, attrs=attrs)


class FRS(nn.Module):
    """Face-recognition feature map: MLP ``d_img -> hidden -> d_feat`` (ReLU), L2-normalised output."""

    def __init__(self, d_img: int, d_feat: int, hidden: int = 256):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_img, hidden), nn.ReLU(), nn.Linear(hidden, d_feat))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return nn.functional.normalize(self.net(x), dim=-1)

    @torch.no_grad()
    def features(self, X: np.ndarray) -> np.ndarray:
        """(n, d_img) numpy images -> (n, d_feat) unit features (float64)."""
        return self(torch.as_tensor(np.asarray(X), dtype=torch.float32)).double().numpy()


def train_frs(X: np.ndarray, ids: np.ndarray, d_feat: int, epochs: int, margin: float, seed: int,
              scale: float = 16.0, lr: float = 3e-3) -> FRS:
    """Train :class:`FRS` with a normalised-softmax loss with additive cosine margin (CosFace-style).

    Loss: cross entropy of ``scale * (cos(f(x), w_j) - margin [j = id(x)])`` over identity weights ``w_j``
    on the unit sphere; full batch, :class:`repro.optim.Adam`.

    Parameters
    ----------
    X : (n, d_img) images.  ids : (n,) integer identity labels 0..n_ids-1.
    """
    X = np.asarray(X)
    ids = np.asarray(ids)
    if X.ndim != 2 or ids.shape != (X.shape[0],):
        raise ValueError(f"X must be (n, d_img) and ids (n,); got {X.shape}, {ids.shape}")
    check_int(epochs, "epochs", least=1)
    if not 0 <= margin < 1:
        raise ValueError(f"margin must be in [0, 1); got {margin}")
    g = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    model = FRS(X.shape[1], d_feat)
    n_ids = int(ids.max()) + 1
    W = torch.nn.Parameter(torch.randn(n_ids, d_feat, generator=g))
    opt = Adam(list(model.parameters()) + [W], lr=lr)
    Xt = torch.as_tensor(X, dtype=torch.float32)
    yt = torch.as_tensor(ids, dtype=torch.long)
    onehot = nn.functional.one_hot(yt, n_ids).float()
    for _ in range(epochs):
        cos = model(Xt) @ nn.functional.normalize(W, dim=-1).T
        loss = nn.functional.cross_entropy(scale * (cos - margin * onehot), yt)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model.eval()


def fit_subsphere(F: np.ndarray, k: int) -> dict:
    """Fit the subsphere ``S^{d-1} ∩ (c + span(B))`` to unit features by PCA (the attributed subsphere).

    The affine centre ``c`` is the mean of ``F``, ``B`` its top-``k`` principal directions; the subsphere
    is centred at ``c`` (projected onto the affine plane) with radius ``sqrt(1 - |c|^2)`` (the sphere cut
    by the plane when ``c`` is orthogonal to ``B``, as for the mean).

    Parameters
    ----------
    F : (n, d) features. k : subspace dimension, 1 <= k < min(n, d).

    Returns
    -------
    dict with ``center`` (d,), ``basis`` (d, k) orthonormal, ``radius``, ``explained`` (fraction of the
    centred variance in the top k), ``residual`` (n,) distances of each feature to the affine plane.
    """
    F = np.asarray(F, dtype=float)
    if F.ndim != 2:
        raise ValueError(f"F must be (n, d); got {F.shape}")
    check_int(k, "k", least=1)
    if k >= min(F.shape):
        raise ValueError(f"k must be < min(n, d) = {min(F.shape)}; got {k}")
    c = F.mean(0)
    _, s, Vt = np.linalg.svd(F - c, full_matrices=False)
    B = Vt[:k].T
    R = (F - c) - (F - c) @ B @ B.T
    return dict(center=c, basis=B, radius=float(np.sqrt(max(1.0 - c @ c, 0.0))),
                explained=float((s[:k] ** 2).sum() / (s ** 2).sum()), residual=np.linalg.norm(R, axis=1))


def nonadaptive_attack(score_batch_fn: Callable[[np.ndarray], np.ndarray], z_queries: np.ndarray,
                       ridge: float = 1e-3, radius: float | None = None) -> np.ndarray:
    """One non-adaptive batch of queries -> the latent ``z*`` of the adversarial face (brief 11.3).

    The whole batch ``z_queries`` is fixed before any score is seen and sent once; ``s = score_batch_fn(Z)``
    returns the similarity of each generated face to the target. Ridge regression
    ``min ||s - beta_0 - Z beta||^2 + ridge ||beta||^2`` gives ``beta``, the direction in which the score
    grows; the attack returns ``z* = r beta / ||beta||`` with ``r`` the mean query norm (or ``radius``).

    Parameters
    ----------
    score_batch_fn : callable (n, d_z) -> (n,)
    z_queries : (n, d_z) latents, n >= 2.

    Returns
    -------
    (d_z,) latent z*.
    """
    check_positive(ridge, "ridge", strict=False)
    Z, s = _batch_scores(score_batch_fn, z_queries)
    Zc, sc = Z - Z.mean(0), s - s.mean()
    beta = np.linalg.solve(Zc.T @ Zc + ridge * np.eye(Z.shape[1]), Zc.T @ sc)
    return _at_query_norm(beta, Z, radius, zero="scores do not depend on the queries (beta = 0)")


def topk_centroid_attack(score_batch_fn: Callable[[np.ndarray], np.ndarray], z_queries: np.ndarray,
                         k: int = 10, radius: float | None = None) -> np.ndarray:
    """Naive baseline to :func:`nonadaptive_attack`: no score model, only the ``k`` best-scoring queries.

    Sends the same single batch, then returns the mean latent of the ``k`` queries with the highest scores,
    rescaled to ``r`` (the mean query norm, or ``radius``).

    Returns
    -------
    (d_z,) latent.
    """
    check_int(k, "k", least=1)
    n = np.shape(z_queries)[0] if np.ndim(z_queries) == 2 else None
    if n is not None and k > n:
        raise ValueError(f"k must be <= n = {n}; got {k}")
    Z, s = _batch_scores(score_batch_fn, z_queries, least=1)
    m = Z[np.argsort(-s, kind="stable")[:k]].mean(0)
    return _at_query_norm(m, Z, radius, zero="the top-k latents average to zero")


def _batch_scores(score_batch_fn: Callable[[np.ndarray], np.ndarray], z_queries: np.ndarray, least: int = 2
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The one batch ``Z`` (n >= ``least``, d_z) and its scores ``s`` (n,), checked."""
    Z = np.asarray(z_queries, dtype=float)
    if Z.ndim != 2 or Z.shape[0] < least:
        raise ValueError(f"z_queries must be (n >= {least}, d_z); got {Z.shape}")
    s = np.asarray(score_batch_fn(Z), dtype=float)
    if s.shape != (Z.shape[0],):
        raise ValueError(f"score_batch_fn must return ({Z.shape[0]},); got {s.shape}")
    return Z, s


def _at_query_norm(m: np.ndarray, Z: np.ndarray, radius: float | None,
                   zero: str = "the weighted latents average to zero") -> np.ndarray:
    """``m`` rescaled to ``r``: the mean norm of the queries ``Z``, or ``radius``."""
    nm = np.linalg.norm(m)
    if nm == 0:
        raise ValueError(zero)
    r = float(np.linalg.norm(Z, axis=1).mean()) if radius is None else float(radius)
    return r * m / nm


def softmax_weighted_attack(score_batch_fn: Callable[[np.ndarray], np.ndarray], z_queries: np.ndarray,
                            temperature: float = 0.5, radius: float | None = None) -> np.ndarray:
    """Naive baseline to :func:`nonadaptive_attack`: a softmax-weighted mean of the same batch's latents.

    Weights ``w_i = exp((s_i - max s) / (T std(s)))`` with ``T = temperature`` (in units of the scores'
    spread, so no scale is fitted); returns ``r sum_i w_i z_i / ||sum_i w_i z_i||`` with ``r`` the mean query
    norm (or ``radius``). No score model: T -> 0 gives the best query's direction.

    Returns
    -------
    (d_z,) latent.
    """
    check_positive(temperature, "temperature")
    Z, s = _batch_scores(score_batch_fn, z_queries)
    sd = s.std()
    if sd == 0:
        raise ValueError("scores do not depend on the queries (zero spread)")
    w = np.exp((s - s.max()) / (temperature * sd))
    return _at_query_norm(w @ Z, Z, radius)


def above_median_weighted_attack(score_batch_fn: Callable[[np.ndarray], np.ndarray], z_queries: np.ndarray,
                                 radius: float | None = None) -> np.ndarray:
    """Naive baseline to :func:`nonadaptive_attack`: the batch's latents weighted by their score above the median.

    Weights ``w_i = max(s_i - median(s), 0)``; returns ``r sum_i w_i z_i / ||sum_i w_i z_i||`` with ``r`` the
    mean query norm (or ``radius``). No score model and no parameter.

    Returns
    -------
    (d_z,) latent.
    """
    Z, s = _batch_scores(score_batch_fn, z_queries)
    w = np.maximum(s - np.median(s), 0.0)
    if not w.any():
        raise ValueError("no score lies above the batch median")
    return _at_query_norm(w @ Z, Z, radius)


def far_threshold(impostor_scores: np.ndarray, far: float) -> float:
    """Verification threshold ``tau`` at false-accept rate ``far``: the ``1 - far`` quantile of impostor scores.

    Parameters
    ----------
    impostor_scores : (m,) similarities between different identities. far : in (0, 1).
    """
    s = np.asarray(impostor_scores, dtype=float).ravel()
    if s.size == 0 or not np.isfinite(s).all():
        raise ValueError("impostor_scores must be a non-empty finite array")
    if not 0 < far < 1:
        raise ValueError(f"far must be in (0, 1); got {far}")
    return float(np.quantile(s, 1.0 - far))


def impostor_scores(F: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """All cosine similarities between features of different identities (upper triangle), shape (m,)."""
    F = np.asarray(F, dtype=float)
    ids = np.asarray(ids)
    if F.ndim != 2 or ids.shape != (F.shape[0],):
        raise ValueError(f"F must be (n, d) and ids (n,); got {F.shape}, {ids.shape}")
    S = F @ F.T
    iu = np.triu_indices(len(F), 1)
    keep = ids[iu[0]] != ids[iu[1]]
    return S[iu][keep]
