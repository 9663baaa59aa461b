"""EUGens: random-feature dense layers with an input-norm coordinate.

Paper: *EUGens: Efficient, Unified, and General Dense Layers* (Kim, Kim, Sehanobish, Basu Roy Chowdhury,
Kidambi, Shim, Dubey, Chaturvedi, Oh, Choromanski; NeurIPS 2025), https://arxiv.org/abs/2601.22563.
Notebook: ``notebooks/eugens-dense-layers.py``.

Notation (paper -> ours). The paper's exact formulas were not available to us; this module implements the
standard random-Maclaurin construction that gives the unbiasedness the paper states (its Theorem 3.1).

* dense layer (FFL) ``f(Wx + b)``, polynomial activation ``f(u) = sum_k a_k u^k`` -> :func:`dense_poly_layer`,
  ``coeffs = (a_0, ..., a_K)``;
* norm-augmented input ``x^+ = [x; ||x||_2]`` (plus a constant 1 when the layer has a bias) ->
  :func:`augment_input`; the matching weight rows ``[w; b; 0]`` -> :func:`augment_weight`;
* random projection matrices ``G_j`` (``j = 1..K``, Gaussian, ``m`` rows each) -> ``G`` of shape ``(K, m, D)``;
* order-``k`` features, Hadamard products of the first ``k`` projections,
  ``phi_k(x)_r = m^{-1/2} prod_{j<=k} (g_{j,r} . x^+)`` -> :func:`eugen_features`;
* ``EUGen(w, x) = g(w)^T f(x)`` with ``g(w) = [a_k phi_k(w)]_k`` -> :func:`eugen_weight_map`, :class:`EUGenLinear`;
* layer-wise (backprop-free) transfer: ridge regression of teacher outputs on the features ->
  :func:`fit_eugen_layerwise`.

Unbiasedness: for independent ``g_1..g_k ~ N(0, I)``, ``E[prod_j (g_j.w)(g_j.x)] = prod_j E[w^T g_j g_j^T x]
= (w.x)^k``, so ``E[EUGen(w, x)] = f(w.x)`` exactly for any polynomial ``f``. Inference cost per input is
``O(K m D + K m L)``, linear in the width, against ``O(D L)`` for the dense layer (:func:`flops_eugen`).
"""

from __future__ import annotations

import functools
import math
import os
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np
import torch
from torch import Tensor, nn

from repro.timing import best_time  # noqa: F401 - shared helper, used as K.best_time

# ----------------------------------------------------------------------------- validation helpers


def _check_coeffs(coeffs: Sequence[float]) -> tuple[float, ...]:
    c = tuple(float(a) for a in coeffs)
    if len(c) < 2 or not all(math.isfinite(a) for a in c):
        raise ValueError(f"coeffs must hold a_0..a_K (K >= 1), all finite; got {coeffs!r}")
    return c


def _check_pos_int(name: str, v: int) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
        raise ValueError(f"{name} must be a positive int; got {v!r}")
    return int(v)


def _check_2d(name: str, x: Tensor) -> None:
    if not isinstance(x, Tensor) or x.ndim != 2:
        raise ValueError(f"{name} must be a 2-d tensor; got {type(x).__name__} of shape {getattr(x, 'shape', None)}")


# ----------------------------------------------------------------------------- the dense layer


def poly_activation(u: Tensor, coeffs: Sequence[float]) -> Tensor:
    """Polynomial activation ``f(u) = sum_k a_k u^k`` (Horner), elementwise; ``coeffs = (a_0, ..., a_K)``."""
    c = _check_coeffs(coeffs)
    out = torch.full_like(u, c[-1])
    for a in reversed(c[:-1]):
        out = out * u + a
    return out


def dense_poly_layer(x: Tensor, W: Tensor, b: Tensor | None, coeffs: Sequence[float]) -> Tensor:
    """The fully-connected layer ``f(x W^T + b)`` that EUGens approximate.

    Parameters
    ----------
    x : (n, d); W : (L, d); b : (L,) or None; coeffs : (a_0, ..., a_K).

    Returns
    -------
    Tensor, shape (n, L)
    """
    _check_2d("x", x)
    _check_2d("W", W)
    if x.shape[1] != W.shape[1]:
        raise ValueError(f"x has {x.shape[1]} features but W expects {W.shape[1]}")
    u = x @ W.T
    if b is not None:
        u = u + b
    return poly_activation(u, coeffs)


# ----------------------------------------------------------------------------- EUGen kernels


def augment_input(x: Tensor, bias: bool = True, use_norm: bool = True) -> Tensor:
    """Augmented input ``x^+ = [x; 1; ||x||_2]`` (the 1 only if ``bias``, the norm only if ``use_norm``).

    Parameters
    ----------
    x : (n, d)

    Returns
    -------
    Tensor, shape (n, d + bias + use_norm)
    """
    _check_2d("x", x)
    parts = [x]
    if bias:
        parts.append(torch.ones(x.shape[0], 1, dtype=x.dtype))
    if use_norm:
        parts.append(torch.linalg.vector_norm(x, dim=1, keepdim=True))
    return torch.cat(parts, dim=1)


def augment_weight(W: Tensor, b: Tensor | None = None, use_norm: bool = True) -> Tensor:
    """Weight rows ``[w_l; b_l; 0]`` matching :func:`augment_input`, so that ``w^+ . x^+ = w.x + b``.

    Parameters
    ----------
    W : (L, d); b : (L,) or None (then no bias column).

    Returns
    -------
    Tensor, shape (L, d + (b is not None) + use_norm)
    """
    _check_2d("W", W)
    parts = [W]
    if b is not None:
        if b.shape != (W.shape[0],):
            raise ValueError(f"b must have shape ({W.shape[0]},); got {tuple(b.shape)}")
        parts.append(b[:, None].to(W.dtype))
    if use_norm:
        parts.append(torch.zeros(W.shape[0], 1, dtype=W.dtype))
    return torch.cat(parts, dim=1)


def draw_projections(K: int, m: int, D: int, seed: int, dtype: torch.dtype = torch.float64) -> Tensor:
    """Gaussian projections ``G`` of shape (K, m, D), entries i.i.d. N(0, 1), reproducible from ``seed``.

    As a layer, ``G`` need not be stored: it is regenerated from the seed.
    """
    K, m, D = (_check_pos_int(n, v) for n, v in (("K", K), ("m", m), ("D", D)))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative int; got {seed!r}")
    gen = torch.Generator().manual_seed(int(seed))
    return torch.randn(K, m, D, generator=gen, dtype=dtype)


def eugen_features(x_aug: Tensor, G: Tensor) -> Tensor:
    """Random-Maclaurin features of all orders ``k = 1..K`` (Hadamard products of projections).

    ``phi_k(x)_r = m^{-1/2} prod_{j=1}^{k} (g_{j,r} . x^+)``: the order-``k`` estimator of the paper's
    Theorem 3.1 (our reconstruction), with the projections shared across orders (order ``k`` uses the
    first ``k`` of them), so the ``K`` projections are computed once.

    Parameters
    ----------
    x_aug : (n, D) augmented inputs (or augmented weight rows); G : (K, m, D).

    Returns
    -------
    Tensor, shape (n, K, m)
    """
    _check_2d("x_aug", x_aug)
    if not isinstance(G, Tensor) or G.ndim != 3 or G.shape[2] != x_aug.shape[1]:
        raise ValueError(f"G must have shape (K, m, {x_aug.shape[1]}); got {tuple(getattr(G, 'shape', ()))}")
    proj = torch.einsum("nd,kmd->nkm", x_aug, G.to(x_aug.dtype))
    return torch.cumprod(proj, dim=1) / math.sqrt(G.shape[1])


def eugen_weight_map(W_aug: Tensor, G: Tensor, coeffs: Sequence[float]) -> Tensor:
    """Weight-side map ``V[l, k, :] = a_k phi_k(w^+_l)`` so that ``sum_{k,r} V[l,k,r] phi_k(x)_r`` estimates
    ``sum_{k>=1} a_k (w_l . x)^k`` without bias (Theorem 3.1, our reconstruction).

    Parameters
    ----------
    W_aug : (L, D); G : (K, m, D) with ``K = len(coeffs) - 1``.

    Returns
    -------
    Tensor, shape (L, K, m)
    """
    c = _check_coeffs(coeffs)
    if G.ndim != 3 or G.shape[0] != len(c) - 1:
        raise ValueError(f"G must have K = {len(c) - 1} projection stacks; got shape {tuple(G.shape)}")
    a = torch.tensor(c[1:], dtype=W_aug.dtype)
    return eugen_features(W_aug, G) * a[None, :, None]


def eugen_forward(x_aug: Tensor, G: Tensor, V: Tensor, c: Tensor) -> Tensor:
    """EUGen layer output ``y = V . phi(x^+) + c``: shapes x_aug (n, D), G (K, m, D), V (L, K, m), c (L,) -> (n, L)."""
    phi = eugen_features(x_aug, G)
    if V.ndim != 3 or V.shape[1:] != phi.shape[1:]:
        raise ValueError(f"V must have shape (L, {phi.shape[1]}, {phi.shape[2]}); got {tuple(V.shape)}")
    n = phi.shape[0]
    return phi.reshape(n, -1) @ V.reshape(V.shape[0], -1).T + c


class EUGenLinear(nn.Module):
    """An EUGen dense layer: fixed random projections ``G`` (a buffer), learnable ``V`` (L, K, m) and ``c`` (L,).

    Parameters
    ----------
    d_in, d_out : input width ``d`` and output width ``L``.
    m : random features per order; K : highest order.
    bias : append the constant 1 to the input; use_norm : append ``||x||``.
    trainable_G : make ``G`` a parameter instead of a buffer.
    seed : seed of ``G``.
    """

    def __init__(self, d_in: int, d_out: int, m: int, K: int, bias: bool = True, use_norm: bool = True,
                 trainable_G: bool = False, seed: int = 0, dtype: torch.dtype = torch.float64):
        super().__init__()
        d_in, d_out = _check_pos_int("d_in", d_in), _check_pos_int("d_out", d_out)
        self.bias, self.use_norm = bool(bias), bool(use_norm)
        G = draw_projections(K, m, d_in + self.bias + self.use_norm, seed, dtype)
        if trainable_G:
            self.G = nn.Parameter(G)
        else:
            self.register_buffer("G", G)
        self.V = nn.Parameter(torch.zeros(d_out, K, m, dtype=dtype))
        self.c = nn.Parameter(torch.zeros(d_out, dtype=dtype))

    def forward(self, x: Tensor) -> Tensor:
        return eugen_forward(augment_input(x.to(self.G.dtype), self.bias, self.use_norm), self.G, self.V, self.c)


def eugen_from_dense(W: Tensor, b: Tensor | None, coeffs: Sequence[float], m: int, seed: int,
                     use_norm: bool = True) -> EUGenLinear:
    """Unbiased EUGen estimate of the dense layer ``f(Wx + b)``: ``V = a_k phi_k(w^+)``, ``c = a_0``.

    ``E_G[layer(x)] = f(Wx + b)`` for every ``x`` (Theorem 3.1, our reconstruction).
    """
    c = _check_coeffs(coeffs)
    _check_2d("W", W)
    layer = EUGenLinear(W.shape[1], W.shape[0], m, len(c) - 1, bias=b is not None, use_norm=use_norm,
                        seed=seed, dtype=torch.float64)
    with torch.no_grad():
        W_aug = augment_weight(W.double(), None if b is None else b.double(), use_norm)
        layer.V.copy_(eugen_weight_map(W_aug, layer.G, c))
        layer.c.fill_(c[0])
    return layer


def fit_eugen_layerwise(X: Tensor, Y: Tensor, m: int, K: int, ridge: float, seed: int = 0,
                        bias: bool = True, use_norm: bool = True) -> EUGenLinear:
    """Layer-wise transfer without backpropagation: closed-form ridge fit of ``V, c`` to teacher outputs.

    Solves ``min_{V,c} ||phi(X) V^T + c - Y||^2 + ridge ||V||^2`` (intercept ``c`` unpenalised) for fixed ``G``,
    the closed-form distillation the paper describes for fixed random matrices.

    Parameters
    ----------
    X : (n, d) calibration inputs; Y : (n, L) teacher outputs; ridge > 0.
    """
    _check_2d("X", X)
    _check_2d("Y", Y)
    if X.shape[0] != Y.shape[0]:
        raise ValueError(f"X and Y need the same number of rows; got {X.shape[0]} and {Y.shape[0]}")
    if not (isinstance(ridge, (int, float)) and math.isfinite(ridge) and ridge > 0):
        raise ValueError(f"ridge must be a positive finite number; got {ridge!r}")
    layer = EUGenLinear(X.shape[1], Y.shape[1], m, K, bias=bias, use_norm=use_norm, seed=seed)
    X, Y = X.double(), Y.double()
    phi = eugen_features(augment_input(X, bias, use_norm), layer.G).reshape(X.shape[0], -1)
    mu_phi, mu_y = phi.mean(0), Y.mean(0)
    A, B = phi - mu_phi, Y - mu_y
    p = A.shape[1]
    if p <= A.shape[0]:
        coef = torch.linalg.solve(A.T @ A + ridge * torch.eye(p, dtype=A.dtype), A.T @ B)
    else:  # dual (push-through) form when there are more features than samples
        coef = A.T @ torch.linalg.solve(A @ A.T + ridge * torch.eye(A.shape[0], dtype=A.dtype), B)
    with torch.no_grad():
        layer.V.copy_(coef.T.reshape(Y.shape[1], K, m))
        layer.c.copy_(mu_y - mu_phi @ coef)
    return layer


def eugen_estimates(x: Tensor, W: Tensor, b: Tensor | None, coeffs: Sequence[float], m: int, draws: int,
                    seed: int, use_norm: bool = False, independent: bool = True) -> Tensor:
    """``draws`` independent unbiased EUGen estimates of ``f(Wx + b)`` (one fresh ``G`` each), vectorised.

    Parameters
    ----------
    x : (n, d); W : (L, d); b : (L,) or None; m : features per order; draws : independent ``G`` draws.
    independent : if False, the *wrong* estimator used as a control: every order reuses the first
        projection (``G_j = G_1``), so the order-``k`` feature is ``(g.x)^k`` and
        ``E[(g.w)^2 (g.x)^2] = ||w||^2 ||x||^2 + 2 (w.x)^2`` instead of ``(w.x)^2``: biased for ``k >= 2``.

    Returns
    -------
    Tensor, shape (draws, n, L): the estimates of :func:`eugen_from_dense` for ``draws`` seeds at once.
    """
    c = _check_coeffs(coeffs)
    m, draws = _check_pos_int("m", m), _check_pos_int("draws", draws)
    xa, Wa = augment_input(x, b is not None, use_norm), augment_weight(W, b, use_norm)
    G = draw_projections(len(c) - 1, draws * m, xa.shape[1], seed, x.dtype)
    if not independent:
        G = G[:1].expand_as(G).contiguous()
    fx = eugen_features(xa, G).reshape(x.shape[0], len(c) - 1, draws, m)
    fw = eugen_weight_map(Wa, G, c).reshape(W.shape[0], len(c) - 1, draws, m)
    return c[0] + draws * torch.einsum("nkdr,lkdr->dnl", fx, fw)


# ----------------------------------------------------------------------------- low-rank baseline


def lowrank_from_dense(W: Tensor, r: int) -> tuple[Tensor, Tensor]:
    """Truncated-SVD factorisation ``W ~ A B`` with ``A`` (L, r), ``B`` (r, d): the best rank-``r`` layer (Eckart-Young)."""
    _check_2d("W", W)
    r = _check_pos_int("r", r)
    if r > min(W.shape):
        raise ValueError(f"rank {r} exceeds min(W.shape) = {min(W.shape)}")
    U, S, Vh = torch.linalg.svd(W, full_matrices=False)
    return U[:, :r] * S[:r], Vh[:r]


def column_sample_from_dense(W: Tensor, c: int, seed: int) -> tuple[Tensor, Tensor]:
    """Sketching baseline: keep ``c`` input columns of ``W``, drawn with replacement with probability
    ``p_j = ||W_{:,j}||^2 / ||W||_F^2`` and rescaled by ``1/sqrt(c p_j)`` (approximate matrix multiplication,
    Drineas, Kannan and Mahoney 2006), so that ``E[W_c x_idx] = W x`` for every input.

    Parameters
    ----------
    W : Tensor (L, d)
        The dense layer's weights.
    c : int
        Number of sampled columns (the budget).
    seed : int
        Seed of the draw.

    Returns
    -------
    idx : Tensor (c,) of int64
        The sampled input coordinates (the layer reads ``x[:, idx]``).
    Wc : Tensor (L, c)
        The rescaled sampled columns; the sketched layer is ``f(x[:, idx] @ Wc.T + b)``.
    """
    _check_2d("W", W)
    c = _check_pos_int("c", c)
    p = (W**2).sum(0)
    if not float(p.sum()) > 0:
        raise ValueError("W is zero: no column distribution")
    p = p / p.sum()
    g = torch.Generator().manual_seed(int(seed))
    idx = torch.multinomial(p.to(torch.float64), c, replacement=True, generator=g)
    return idx, W[:, idx] / torch.sqrt(c * p[idx]).to(W.dtype)


def flops_sampled(d: int, L: int, c: int, K: int) -> int:
    """Flops per input of the column-sampled layer ``f(x_idx W_c^T + b)``: ``2cL + L + 2KL`` (the gather is free)."""
    _check_pos_int("d", d)
    return flops_dense(_check_pos_int("c", c), L, K)


# ----------------------------------------------------------------------------- deterministic cost counts


def flops_dense(d: int, L: int, K: int) -> int:
    """Flops per input of ``f(Wx + b)``: ``2dL`` (mat-vec) + ``L`` (bias) + ``2KL`` (Horner, degree ``K``)."""
    d, L, K = (_check_pos_int(n, v) for n, v in (("d", d), ("L", L), ("K", K)))
    return 2 * d * L + L + 2 * K * L


def flops_eugen(d: int, L: int, m: int, K: int, bias: bool = True, use_norm: bool = True) -> int:
    """Flops per input of an EUGen layer: ``2d`` (norm) + ``2KmD`` (projections) + ``(K-1)m`` (Hadamard products)
    + ``2KmL`` (output map) + ``L`` (constant), with ``D = d + bias + use_norm`` (the ``m^{-1/2}`` folds into ``V``).
    Linear in the width when ``m`` and ``K`` are fixed; the paper states ``O(m d k^2 + m l)``."""
    d, L, m, K = (_check_pos_int(n, v) for n, v in (("d", d), ("L", L), ("m", m), ("K", K)))
    D = d + int(bias) + int(use_norm)
    return 2 * d * int(use_norm) + 2 * K * m * D + (K - 1) * m + 2 * K * m * L + L


def flops_lowrank(d: int, L: int, r: int, K: int) -> int:
    """Flops per input of ``f(A(Bx) + b)``: ``2dr + 2rL + L + 2KL``."""
    d, L, r, K = (_check_pos_int(n, v) for n, v in (("d", d), ("L", L), ("r", r), ("K", K)))
    return 2 * d * r + 2 * r * L + L + 2 * K * L


def params_dense(d: int, L: int) -> int:
    """Parameters of a dense layer: ``dL + L``."""
    return _check_pos_int("d", d) * _check_pos_int("L", L) + L


def params_eugen(d: int, L: int, m: int, K: int, store_G: bool = False, bias: bool = True,
                 use_norm: bool = True) -> int:
    """Stored numbers of an EUGen layer: ``V`` (``KmL``) and ``c`` (``L``), plus ``G`` (``KmD``) if ``store_G``
    (otherwise regenerated from its seed)."""
    d, L, m, K = (_check_pos_int(n, v) for n, v in (("d", d), ("L", L), ("m", m), ("K", K)))
    return K * m * L + L + (K * m * (d + int(bias) + int(use_norm)) if store_G else 0)


def params_lowrank(d: int, L: int, r: int) -> int:
    """Parameters of the rank-``r`` layer: ``r(d + L) + L``."""
    return _check_pos_int("r", r) * (_check_pos_int("d", d) + _check_pos_int("L", L)) + L


def peak_bytes_dense(n: int, d: int, L: int, itemsize: int = 4) -> int:
    """Peak tensor bytes of a dense forward pass on a batch of ``n``: weights, bias, input and output
    (the activation is applied in place)."""
    n, d, L = (_check_pos_int(k, v) for k, v in (("n", n), ("d", d), ("L", L)))
    return itemsize * (d * L + L + n * d + n * L)


def peak_bytes_eugen(n: int, d: int, L: int, m: int, K: int, bias: bool = True, use_norm: bool = True,
                     itemsize: int = 4) -> int:
    """Peak tensor bytes of an EUGen forward pass on a batch of ``n``: ``G`` (materialised), ``V``, ``c``, input,
    augmented input, the projections and their Hadamard products (``2nKm``) and the output."""
    n, d, L, m, K = (_check_pos_int(k, v) for k, v in (("n", n), ("d", d), ("L", L), ("m", m), ("K", K)))
    D = d + int(bias) + int(use_norm)
    return itemsize * (K * m * D + K * m * L + L + n * d + n * D + 2 * n * K * m + n * L)


def peak_bytes_lowrank(n: int, d: int, L: int, r: int, itemsize: int = 4) -> int:
    """Peak tensor bytes of a rank-``r`` forward pass on a batch of ``n``: ``A``, ``B``, bias, input, the
    rank-``r`` intermediate and the output."""
    n, d, L, r = (_check_pos_int(k, v) for k, v in (("n", n), ("d", d), ("L", L), ("r", r)))
    return itemsize * (r * (d + L) + L + n * (d + r + L))


def numpy_forward_dense(x: np.ndarray, W: np.ndarray, b: np.ndarray) -> np.ndarray:
    """NumPy pre-activation ``x W^T + b`` (for tracemalloc cross-checks of :func:`peak_bytes_dense`)."""
    out = x @ W.T
    out += b
    return out


def numpy_forward_eugen(x: np.ndarray, G: np.ndarray, V: np.ndarray, c: np.ndarray) -> np.ndarray:
    """NumPy EUGen forward with bias and norm coordinates (for tracemalloc cross-checks of :func:`peak_bytes_eugen`)."""
    n = x.shape[0]
    x_aug = np.concatenate([x, np.ones((n, 1), x.dtype), np.linalg.norm(x, axis=1, keepdims=True)], axis=1)
    proj = np.einsum("nd,kmd->nkm", x_aug, G, optimize=True)
    phi = np.cumprod(proj, axis=1)
    out = phi.reshape(n, -1) @ V.reshape(V.shape[0], -1).T
    out += c
    return out


def traced_peak_bytes(fn: Callable[..., object], *arrays: np.ndarray) -> int:
    """Measured peak bytes of a NumPy forward pass ``fn(*arrays)``: the bytes of its inputs (weights and batch)
    plus the peak of the allocations ``tracemalloc`` sees while it runs (NumPy registers its buffers there)."""
    import tracemalloc

    if not arrays or not all(isinstance(a, np.ndarray) for a in arrays):
        raise ValueError("traced_peak_bytes needs the forward pass's NumPy arrays")
    if tracemalloc.is_tracing():
        raise ValueError("tracemalloc is already tracing; the peak would include other allocations")
    tracemalloc.start()
    try:
        fn(*arrays)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return int(sum(a.nbytes for a in arrays) + peak)


# ----------------------------------------------------------------------------- work actually performed

#: aten ops that do no arithmetic: views, dtype/layout conversions, copies and tensor creation
_NO_ARITHMETIC = {"view", "_unsafe_view", "reshape", "_reshape_alias", "permute", "as_strided", "t", "transpose",
                  "numpy_T", "expand", "expand_as", "unsqueeze", "squeeze", "select", "slice", "alias", "detach",
                  "view_as", "resolve_conj", "resolve_neg", "to", "_to_copy", "copy_", "contiguous", "clone", "cat",
                  "stack", "empty", "empty_strided", "empty_like", "full", "full_like", "fill_", "ones",
                  "ones_like", "zeros", "zeros_like", "lift_fresh", "scalar_tensor"}


@functools.lru_cache(maxsize=None)
def _is_view_op(name: str) -> bool:
    """Whether the aten op ``name`` returns a view (any of its overloads), e.g. ``narrow``, ``slice``."""
    packet = getattr(torch.ops.aten, name, None)
    if packet is None:
        return False
    return any(getattr(packet, o).is_view for o in packet.overloads())


def _numel(shape: Sequence[int]) -> int:
    return int(np.prod(shape)) if len(shape) else 1


def count_work(fn: Callable[[], object]) -> dict[str, int]:
    """Run ``fn()`` once under the torch profiler and count the arithmetic it performs, at the sizes run.

    The unit is the same for any layer: matrix products count ``2 n k m`` operations for an
    ``(n, k) @ (k, m)`` product (the profiler's own flop formulas for ``mm``, ``addmm``, ``bmm``); every other
    aten kernel that does arithmetic (elementwise ops, reductions, ``cumprod``, norms) counts one operation per
    element of its largest input; views, conversions, copies and tensor creation count none. An op whose work
    is done by the kernels it calls (``matmul`` -> ``mm``, ``einsum`` -> ``bmm``) is counted through them.

    Returns
    -------
    dict with ``flops`` (arithmetic operations) and ``kernels`` (the aten kernels that did arithmetic).
    """
    from torch.autograd.profiler import profile

    if not callable(fn):
        raise ValueError("count_work needs a callable")
    # the profiler backend (kineto) writes start/stop lines to file descriptor 2 whatever its log level:
    # silence that descriptor while it runs (Python exceptions still propagate)
    sys.stderr.flush()
    saved, devnull = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        with profile(record_shapes=True, with_flops=True) as prof:
            fn()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)

    def name(e) -> str:
        return e.name.removeprefix("aten::")

    def does_arithmetic(e) -> bool:
        return bool(e.flops) or (e.name.startswith("aten::") and name(e) not in _NO_ARITHMETIC
                                 and not _is_view_op(name(e)))

    def delegates(e) -> bool:
        return any(does_arithmetic(c) or delegates(c) for c in e.cpu_children)

    flops = kernels = 0
    for e in prof.function_events:
        if e.flops:
            flops, kernels = flops + int(e.flops), kernels + 1
        elif does_arithmetic(e) and not delegates(e):
            sizes = [_numel(s) for s in e.input_shapes if isinstance(s, (list, tuple))]
            flops, kernels = flops + max(sizes, default=0), kernels + 1
    return {"flops": flops, "kernels": kernels}


# ----------------------------------------------------------------------------- teacher MLP and timing


def train_mlp(X: Tensor, y: Tensor, hidden: int, coeffs: Sequence[float], steps: int, lr: float,
              seed: int, weight_decay: float = 1e-4) -> dict[str, Tensor]:
    """Train the teacher ``x -> W2 f(W1 x + b1) + b2`` (cross-entropy, full-batch Adam).

    Returns
    -------
    dict with W1 (hidden, d), b1 (hidden,), W2 (classes, hidden), b2 (classes,), detached.
    """
    _check_2d("X", X)
    steps, hidden = _check_pos_int("steps", steps), _check_pos_int("hidden", hidden)
    torch.manual_seed(seed)
    n_cls = int(y.max()) + 1
    l1, l2 = nn.Linear(X.shape[1], hidden), nn.Linear(hidden, n_cls)
    opt = torch.optim.Adam([*l1.parameters(), *l2.parameters()], lr=lr, weight_decay=weight_decay)
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(l2(poly_activation(l1(X), coeffs)), y)
        loss.backward()
        opt.step()
    return {"W1": l1.weight.detach(), "b1": l1.bias.detach(), "W2": l2.weight.detach(), "b2": l2.bias.detach()}


def accuracy(hidden: Tensor, W2: Tensor, b2: Tensor, y: Tensor) -> float:
    """Classification accuracy of the output layer ``W2 h + b2`` on hidden activations ``h`` (n, hidden)."""
    return float(((hidden.to(W2.dtype) @ W2.T + b2).argmax(1) == y).double().mean())




# ----------------------------------------------------------------------------- naive baselines of the review


def input_pca_layer(X: Tensor, W: Tensor, b: Tensor, r: int) -> tuple[Tensor, Tensor, Tensor]:
    """Input-PCA baseline: project the input on its top-``r`` principal directions ``U`` (r, d) of the calibration
    inputs ``X``, then apply the dense layer, ``f(W(U^T U (x - mu) + mu) + b)``. Folding the mean into the bias
    makes it a rank-``r`` layer ``f(A(Bx) + b')`` with ``B = U``, ``A = W U^T``, ``b' = b + W mu - A U mu``: the same
    flops as the truncated SVD (:func:`flops_lowrank`). It uses the data's spectrum, not ``W``'s.

    Parameters
    ----------
    X : Tensor (n, d)
        Calibration inputs.
    W, b : Tensor (L, d), (L,)
        The dense layer.
    r : int
        Number of principal directions kept.

    Returns
    -------
    A (L, r), B (r, d), b' (L,): the layer is ``f(x @ B.T @ A.T + b')``.
    """
    _check_2d("X", X)
    _check_2d("W", W)
    r = _check_pos_int("r", r)
    if X.shape[1] != W.shape[1]:
        raise ValueError(f"X has {X.shape[1]} features but W expects {W.shape[1]}")
    if r > min(X.shape):
        raise ValueError(f"r = {r} exceeds min(X.shape) = {min(X.shape)}")
    X, W, b = X.to(W.dtype), W, b.to(W.dtype)
    mu = X.mean(0)
    U = torch.linalg.svd(X - mu, full_matrices=False)[2][:r]
    A = W @ U.T
    return A, U, b + W @ mu - A @ (U @ mu)


def prune_hidden_units(H: Tensor, W2: Tensor, n_keep: int) -> tuple[Tensor, Tensor]:
    """Unit-pruning baseline: keep the ``n_keep`` hidden units with the largest ``||W2[:, j]|| std(h_j)`` on the
    calibration activations ``H``; the others are replaced by their calibration mean (a constant the next layer's
    bias absorbs). The pruned layer is a dense layer with ``n_keep`` outputs: :func:`flops_dense` ``(d, n_keep, K)``.

    Parameters
    ----------
    H : Tensor (n, L)
        Hidden activations of the dense layer on the calibration inputs.
    W2 : Tensor (classes, L)
        The next layer's weights.
    n_keep : int
        Number of units kept.

    Returns
    -------
    keep : Tensor (n_keep,) of int64, the kept units; fill : Tensor (L,), the calibration means (used for the others).
    """
    _check_2d("H", H)
    _check_2d("W2", W2)
    n_keep = _check_pos_int("n_keep", n_keep)
    if H.shape[1] != W2.shape[1] or n_keep > H.shape[1]:
        raise ValueError(f"need H (n, L) and W2 (c, L) with n_keep <= L; got {tuple(H.shape)}, {tuple(W2.shape)}, "
                         f"{n_keep}")
    score = W2.norm(dim=0) * H.to(W2.dtype).std(0)
    return score.argsort(descending=True)[:n_keep], H.mean(0)


def pruned_hidden(H: Tensor, keep: Tensor, fill: Tensor) -> Tensor:
    """Hidden activations of the pruned layer: ``H`` on the kept units, ``fill`` elsewhere (see :func:`prune_hidden_units`)."""
    _check_2d("H", H)
    out = fill.to(H.dtype).expand(H.shape[0], H.shape[1]).clone()
    out[:, keep] = H[:, keep]
    return out


def append_constant(X: Tensor, value: float) -> Tensor:
    """``[x; value]`` for every row: the control for the norm coordinate (a constant in the slot of ``||x||``)."""
    _check_2d("X", X)
    return torch.cat([X, torch.full((X.shape[0], 1), float(value), dtype=X.dtype)], 1)
