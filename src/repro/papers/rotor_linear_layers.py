"""Rotor-based linear layers from the Clifford algebra Cl(n, 0).

Paper map
---------
*Composing Linear Layers from Irreducibles*, Travis Pence, Daisuke Yamada, Vikas Singh, NeurIPS 2025,
https://arxiv.org/abs/2507.11688 (official code: github.com/vsingh-group/ComposingLinearLayers).
Notebook: ``notebooks/rotor-linear-layers.py``.

Notation (paper -> here):

- a chunk of width ``d = 2^n`` is a multivector of Cl(n,0); blade ``e_A`` has index = bitmask ``A``
  (``e_1 -> 1``, ``e_2 -> 2``, ``e_12 -> 3``, ...), grade = number of set bits;
- bivector ``B = sum_{i<j} beta_ij e_i e_j`` -> a tensor of ``C(n,2)`` coefficients ordered as
  ``itertools.combinations(range(n), 2)``;
- geometric product ``ab`` -> :func:`geometric_product`, reverse ``a~`` -> :func:`reverse`;
- invariant decomposition ``B = sum_j b_j`` into commuting simple bivectors -> :func:`invariant_decomposition`;
- rotor ``R = prod_j exp(-b_j / 2)`` -> :func:`rotor_from_bivector` (our sign/half-angle convention, fixed
  once: on grade 1 the sandwich ``x -> R x R~`` equals ``expm(S)`` with ``S = bivector_to_skew(B)``);
- the layer map ``x -> R_L x R_R~`` as a d x d matrix -> :func:`sandwich_matrix`; layers of chunk rotors ->
  :class:`RotorLinear`; the paper's baselines -> :class:`LowRankLinear`, :class:`BlockHadamardLinear`;
- the page's controls (ablations): the closed-form exponential without the decomposition ->
  :func:`rotor_without_decomposition`; rotor layers with their bivectors frozen at zero -> :func:`without_bivectors`;
- the page's naive baselines (none of the paper's ideas, at the rotor replacement's parameter budget): the trained
  dense projection pruned by magnitude -> :class:`PrunedLinear`; an elementwise affine map -> :class:`DiagonalLinear`;
  both through :func:`naive_qkv_replacement`.

The official code's choices (github.com/vsingh-group/ComposingLinearLayers, commit b8fc0af), as options beside
ours: its blade order (by grade, then lexicographic) -> :func:`blade_order_by_grade`; its replacement network
(``rotor_network.NeuralNetwork`` with the defaults of ``config_files/config.yaml``) -> :class:`OfficialRotorNet`;
its low-rank baseline (no bias) -> ``LowRankLinear(bias=False)``; its block-Hadamard baseline as its defaults
build it (``baselines.BHLinear``, depth 0: block-diagonal only) -> :class:`BlockDiagonalLinear`; its retraining
of the attention output projection (``proj_o.train_proj_o``) -> :func:`refit_output_projection`. The
golden tests (``tests/papers/golden/rotor-linear-layers.json``) compare these with the official functions.
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

import numpy as np
import scipy.linalg
import torch
from torch import Tensor, nn


def _check_n(n: int) -> None:
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1 or n > 7:
        raise ValueError(f"n must be an int in 1..7 (d = 2^n); got {n!r}")


@lru_cache(maxsize=None)
def cayley_table(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Blade multiplication table of Cl(n,0): ``e_A e_B = sign[A,B] * e_{index[A,B]}``.

    Returns
    -------
    index : (2^n, 2^n) int array, ``A XOR B``
    sign : (2^n, 2^n) float array of +-1 (Euclidean metric, ``e_i^2 = +1``).
    """
    _check_n(n)
    d = 2**n
    a = np.arange(d)[:, None]
    b = np.arange(d)[None, :]
    swaps = np.zeros((d, d), dtype=int)
    shifted = a >> 1
    for _ in range(n):  # count, for each bit of A, the bits of B below it
        swaps += np.bitwise_count(shifted & b)
        shifted = shifted >> 1
    return (a ^ b).astype(int), np.where(swaps % 2 == 0, 1.0, -1.0)


@lru_cache(maxsize=None)
def _product_tensor_np(n: int) -> np.ndarray:
    index, sign = cayley_table(n)
    d = 2**n
    g = np.zeros((d, d, d))
    ii, jj = np.meshgrid(np.arange(d), np.arange(d), indexing="ij")
    g[ii, jj, index] = sign
    return g


@lru_cache(maxsize=None)
def _cached_tensor(name: str, n: int, dtype: torch.dtype) -> Tensor:
    if name == "product":  # (d*d, d): row A*d+B holds sign[A,B] at column A^B
        return torch.as_tensor(_product_tensor_np(n).reshape(4**n, 2**n), dtype=dtype)
    if name == "reverse":
        k = blade_grades(n)
        return torch.as_tensor(np.where((k * (k - 1) // 2) % 2 == 0, 1.0, -1.0), dtype=dtype)
    if name == "product3":
        return torch.as_tensor(_product_tensor_np(n), dtype=dtype)
    pairs = list(itertools.combinations(range(n), 2))
    if name == "pairs_i":
        return torch.as_tensor([i for i, _ in pairs], dtype=torch.long)
    if name == "pairs_j":
        return torch.as_tensor([j for _, j in pairs], dtype=torch.long)
    return torch.as_tensor(bivector_blades(n), dtype=torch.long)  # "blades"


def _product_tensor(n: int, like: Tensor) -> Tensor:
    return _cached_tensor("product3", n, like.dtype)


def blade_grades(n: int) -> np.ndarray:
    """Grade (number of basis vectors) of each of the ``2^n`` blades, shape (2^n,)."""
    _check_n(n)
    return np.array([bin(a).count("1") for a in range(2**n)])


def bivector_blades(n: int) -> np.ndarray:
    """Blade indices of ``e_i e_j`` (i<j) in the order of the bivector coefficients, shape (C(n,2),)."""
    _check_n(n)
    return np.array([(1 << i) | (1 << j) for i, j in itertools.combinations(range(n), 2)], dtype=int)


@lru_cache(maxsize=None)
def _grade_order(n: int) -> tuple[int, ...]:
    return tuple(sum(1 << i for i in c) for k in range(n + 1) for c in itertools.combinations(range(n), k))


def blade_order_by_grade(n: int) -> np.ndarray:
    """The official code's blade order, as bitmask indices: ``order[k]`` is the bitmask of its k-th blade.

    The official code (through torch_ga) lists the blades by grade, and within a grade in the order of
    ``itertools.combinations`` (``1, e0, e1, .., e01, e02, .., e12, ..``); we index them by bitmask. A
    multivector ``a`` in our order is ``a[order]`` in theirs, and a blade-by-blade matrix ``M`` is
    ``M[order][:, order]``. Bivector coefficients are in the same order in both (``combinations(range(n), 2)``).
    """
    _check_n(n)
    return np.array(_grade_order(n), dtype=int)


def _check_mv(a: Tensor, n: int, name: str = "a") -> None:
    _check_n(n)
    if a.shape[-1] != 2**n:
        raise ValueError(f"{name} must have last dimension 2^n = {2**n}; got shape {tuple(a.shape)}")


def geometric_product(a: Tensor, b: Tensor, n: int) -> Tensor:
    """Geometric product of multivectors (batched over leading dims), shapes (..., 2^n) -> (..., 2^n)."""
    _check_mv(a, n, "a")
    _check_mv(b, n, "b")
    d = 2**n
    outer = a[..., :, None] * b[..., None, :]
    return outer.reshape(*outer.shape[:-2], d * d) @ _cached_tensor("product", n, a.dtype)


def reverse(a: Tensor, n: int) -> Tensor:
    """Reverse ``a~``: grade-k part times ``(-1)^(k(k-1)/2)``, shape (..., 2^n)."""
    _check_mv(a, n)
    return a * _cached_tensor("reverse", n, a.dtype)


def embed_bivector(B: Tensor, n: int) -> Tensor:
    """Bivector coefficients (..., C(n,2)) as a full multivector (..., 2^n)."""
    m = math.comb(n, 2)
    if B.shape[-1] != m:
        raise ValueError(f"bivector must have last dimension C(n,2) = {m}; got shape {tuple(B.shape)}")
    out = B.new_zeros(*B.shape[:-1], 2**n)
    out[..., _cached_tensor("blades", n, B.dtype)] = B
    return out


def separated_skew(n: int, rng: np.random.Generator, angles: tuple[float, float] = (2.5, 0.7)) -> np.ndarray:
    """Random n x n skew matrix with invariant-plane angles evenly spaced in ``angles`` (well separated, so
    the power iteration of :func:`invariant_decomposition` converges fast); random orthonormal planes."""
    _check_n(n)
    Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    S = np.zeros((n, n))
    for j, th in enumerate(np.linspace(angles[0], angles[1], n // 2)):
        u, v = Q[:, 2 * j], Q[:, 2 * j + 1]
        S += th * (np.outer(v, u) - np.outer(u, v))
    return S


def bivector_to_skew(B: Tensor, n: int) -> Tensor:
    """Skew matrix ``S`` of a bivector: ``S[j, i] = beta_ij = -S[i, j]`` (i<j), shape (..., n, n).

    With our convention ``R = exp(-B/2)``, the grade-1 block of ``x -> R x R~`` is ``expm(S)``.
    """
    _check_n(n)
    m = math.comb(n, 2)
    if B.shape[-1] != m:
        raise ValueError(f"bivector must have last dimension C(n,2) = {m}; got shape {tuple(B.shape)}")
    i, j = _cached_tensor("pairs_i", n, B.dtype), _cached_tensor("pairs_j", n, B.dtype)
    S = B.new_zeros(*B.shape[:-1], n, n)
    S[..., j, i] = B
    S[..., i, j] = -B
    return S


def skew_to_bivector(S: Tensor, n: int) -> Tensor:
    """Inverse of :func:`bivector_to_skew`: (..., n, n) -> (..., C(n,2))."""
    _check_n(n)
    if S.shape[-2:] != (n, n):
        raise ValueError(f"S must have trailing shape ({n}, {n}); got {tuple(S.shape)}")
    return S[..., _cached_tensor("pairs_j", n, S.dtype), _cached_tensor("pairs_i", n, S.dtype)]


def simple_bivector_exp(b: Tensor, n: int) -> Tensor:
    """``exp(b) = cos|b| + (sin|b| / |b|) b`` for a *simple* bivector (b^2 = -|b|^2), (..., C(n,2)) -> (..., 2^n)."""
    theta = torch.sqrt((b * b).sum(-1, keepdim=True) + 1e-30)
    out = embed_bivector(b * torch.sinc(theta / math.pi), n)
    out[..., 0] = torch.cos(theta[..., 0])
    return out


def invariant_decomposition(B: Tensor, n: int, iters: int = 5) -> list[Tensor]:
    """Split ``B`` into ``floor(n/2)`` commuting simple bivectors with ``sum_j b_j = B``.

    The paper's GA power iteration ``v <- normalize((v.B).B)``, ``b = v ^ (v.B)``, ``B <- B - b``, written
    with the skew matrix: ``v.B <-> S v``, so ``v <- normalize(S^T S v)`` and ``b <-> (S v) v^T - v (S v)^T``.
    The power steps are done by repeated squaring: ``iters`` squarings = ``2^iters`` power steps.
    The last part is the remainder, so the sum is exact. Parts come out in decreasing magnitude; almost
    equal magnitudes converge slowly (the known weakness of the method).

    Parameters
    ----------
    B : (..., C(n,2)) tensor
    iters : squarings per part (``2^iters`` power-iteration steps).
    """
    if iters < 1:
        raise ValueError(f"iters must be >= 1; got {iters}")
    S = bivector_to_skew(B, n)
    k = n // 2
    parts = []
    g = torch.Generator().manual_seed(1234)
    v0 = torch.randn(n, generator=g, dtype=torch.float64).to(B.dtype)[:, None]
    for _ in range(k - 1):
        A = S.transpose(-1, -2) @ S  # power iteration by repeated squaring: A^(2^iters) v0
        for _ in range(iters):
            A = A / (A.abs().amax(dim=(-1, -2), keepdim=True) + 1e-30)
            A = A @ A
        v = (A @ v0)[..., 0]
        v = v / (v.norm(dim=-1, keepdim=True) + 1e-30)
        w = (S @ v[..., None])[..., 0]
        Sj = w[..., :, None] * v[..., None, :] - v[..., :, None] * w[..., None, :]
        parts.append(skew_to_bivector(Sj, n))
        S = S - Sj
    parts.append(skew_to_bivector(S, n))
    return parts


def rotor_from_bivector(B: Tensor, n: int, iters: int = 5) -> Tensor:
    """Rotor ``R = prod_j exp(-b_j / 2)`` from the invariant decomposition of ``B``, (..., C(n,2)) -> (..., 2^n)."""
    parts = invariant_decomposition(B, n, iters)
    R = simple_bivector_exp(-0.5 * parts[0], n)
    for b in parts[1:]:
        R = geometric_product(R, simple_bivector_exp(-0.5 * b, n), n)
    return R


def rotor_without_decomposition(B: Tensor, n: int) -> Tensor:
    """Ablation of :func:`rotor_from_bivector`: the simple-bivector closed form ``exp(-B/2)`` applied to the
    whole bivector, skipping the invariant decomposition, (..., C(n,2)) -> (..., 2^n).

    Exact when ``B`` is simple (always for n <= 3); for a general bivector with n >= 4 the result is not a
    rotor (``R R~ != 1``). Used as the control of the algebra checks.
    """
    return simple_bivector_exp(-0.5 * B, n)


def sandwich_matrix(R_left: Tensor, n: int, R_right: Tensor | None = None) -> Tensor:
    """Matrix ``M`` of ``x -> R_L x R_R~`` on all 2^n blades (``M[:, k]`` = image of ``e_k``), (..., d, d).

    ``R_right=None`` gives the single-rotor sandwich ``R x R~`` (grade preserving).
    """
    _check_mv(R_left, n, "R_left")
    R_right = R_left if R_right is None else R_right
    _check_mv(R_right, n, "R_right")
    G = _product_tensor(n, R_left)
    left = torch.einsum("...i,ijk->...kj", R_left, G)  # (R e_j)_k
    right = torch.einsum("...i,jik->...kj", reverse(R_right, n), G)  # (e_j R~)_k
    return right @ left


def rotor_param_count(d: int, single_rotor: bool = True) -> int:
    """Bivector parameters of one rotor layer on one chunk of width d = 2^n: C(n,2) (single) or 2 C(n,2)."""
    n = int(round(math.log2(d)))
    if d < 2 or 2**n != d:
        raise ValueError(f"d must be a power of two >= 2; got {d}")
    return math.comb(n, 2) * (1 if single_rotor else 2)


class RotorLinear(nn.Module):
    """Linear map built from a grid of chunk rotors (the paper's rotor layer).

    Input split into ``in_dim/chunk`` chunks, output into ``out_dim/chunk``; output chunk ``o`` is
    ``mean_i alpha_oi M_oi x_i`` with ``M_oi`` the sandwich matrix of the rotor(s) of pair ``(o, i)``, plus a
    bias. ``groups`` independent copies run side by side (input ``groups*in_dim``, or ``in_dim`` shared by all;
    output ``groups*out_dim``): Q, K and V as one batched module. ``perm`` (no parameters) permutes the input
    coordinates first, as the official code's ``use_perm`` does. The rotors are built from
    ``bivector_scale * B``: 1 is our convention ``R = exp(-B/2)``; -2 gives ``R = exp(B)``, the official
    parametrisation (as read through upstream torch_ga's ``exp``; see :class:`OfficialRotorNet`).
    """

    def __init__(self, in_dim: int, out_dim: int, chunk_size: int, single_rotor: bool = True,
                 bias: bool = False, scale: bool = True, perm: Tensor | None = None, groups: int = 1,
                 init_std: float = 0.5, bivector_scale: float = 1.0):
        super().__init__()
        if chunk_size < 2 or chunk_size & (chunk_size - 1):
            raise ValueError(f"chunk_size must be a power of two >= 2; got {chunk_size}")
        if in_dim % chunk_size or out_dim % chunk_size:
            raise ValueError(f"in_dim and out_dim must be multiples of chunk_size; got {in_dim}, {out_dim}, {chunk_size}")
        if groups < 1:
            raise ValueError(f"groups must be >= 1; got {groups}")
        if not math.isfinite(bivector_scale) or bivector_scale == 0:
            raise ValueError(f"bivector_scale must be finite and non-zero; got {bivector_scale}")
        self.bivector_scale = float(bivector_scale)
        self.n = int(math.log2(chunk_size))
        self.g, self.in_dim = groups, in_dim
        self.c, self.ci, self.co = chunk_size, in_dim // chunk_size, out_dim // chunk_size
        shape = (groups, self.co, self.ci, math.comb(self.n, 2))
        self.B_left = nn.Parameter(init_std * torch.randn(shape))
        self.B_right = None if single_rotor else nn.Parameter(init_std * torch.randn(shape))
        self.alpha = nn.Parameter(torch.ones(shape[:-1])) if scale else None
        self.bias = nn.Parameter(torch.zeros(groups * out_dim)) if bias else None
        self.register_buffer("perm", None if perm is None else torch.as_tensor(perm, dtype=torch.long))

    def matrices(self) -> Tensor:
        """Sandwich matrices of all chunk pairs, shape (groups, out_chunks, in_chunks, c, c)."""
        if getattr(self, "identity_rotors", False):  # set by without_bivectors: every rotor is 1, M = I exactly
            eye = torch.eye(self.c, dtype=self.B_left.dtype).expand(*self.B_left.shape[:-1], self.c, self.c)
            return eye if self.alpha is None else eye * self.alpha[..., None, None]
        c = self.bivector_scale
        BL = self.B_left if c == 1.0 else c * self.B_left
        BR = self.B_right if self.B_right is None or c == 1.0 else c * self.B_right
        RL = rotor_from_bivector(BL, self.n)
        RR = None if BR is None else rotor_from_bivector(BR, self.n)
        M = sandwich_matrix(RL, self.n, RR)
        return M if self.alpha is None else M * self.alpha[..., None, None]

    def forward(self, x: Tensor) -> Tensor:
        if self.perm is not None:
            x = x[..., self.perm]
        lead = x.shape[:-1]
        if x.shape[-1] == self.in_dim:
            xc = x.reshape(*lead, 1, self.ci, self.c).expand(*lead, self.g, self.ci, self.c)
        elif x.shape[-1] == self.g * self.in_dim:
            xc = x.reshape(*lead, self.g, self.ci, self.c)
        else:
            raise ValueError(f"input last dimension must be {self.in_dim} or {self.g * self.in_dim}; got {x.shape[-1]}")
        y = torch.einsum("goipq,...giq->...gop", self.matrices(), xc) / self.ci
        y = y.reshape(*lead, self.g * self.co * self.c)
        return y if self.bias is None else y + self.bias


class Parallel(nn.Module):
    """Independent modules applied to the same input, outputs concatenated (e.g. separate Q, K, V)."""

    def __init__(self, modules: list[nn.Module]):
        super().__init__()
        self.parts = nn.ModuleList(modules)

    def forward(self, x: Tensor) -> Tensor:
        return torch.cat([m(x) for m in self.parts], -1)


class LowRankLinear(nn.Module):
    """Baseline ``x -> U V^T x + b`` with ``U`` (out, r), ``V`` (in, r): ``r (in + out)`` weights."""

    def __init__(self, in_dim: int, out_dim: int, rank: int, bias: bool = True):
        super().__init__()
        if rank < 1 or rank > min(in_dim, out_dim):
            raise ValueError(f"rank must be in 1..min(in, out); got {rank}")
        self.V = nn.Linear(in_dim, rank, bias=False)
        self.U = nn.Linear(rank, out_dim, bias=bias)

    def forward(self, x: Tensor) -> Tensor:
        return self.U(self.V(x))


class BlockHadamardLinear(nn.Module):
    """Baseline ``x -> H_d blockdiag(W_1..W_{d/b}) x + bias``: fixed orthonormal Walsh--Hadamard mixing
    (``scipy.linalg.hadamard / sqrt(d)``) after a learnable block-diagonal map with blocks b x b (d b weights)."""

    def __init__(self, dim: int, block: int, bias: bool = True):
        super().__init__()
        if dim < 1 or dim & (dim - 1):
            raise ValueError(f"dim must be a power of two; got {dim}")
        if block < 1 or dim % block:
            raise ValueError(f"block must divide dim; got {block}")
        self.nb, self.b = dim // block, block
        self.W = nn.Parameter(torch.eye(block).repeat(self.nb, 1, 1) + 0.1 * torch.randn(self.nb, block, block))
        self.register_buffer("H", torch.as_tensor(scipy.linalg.hadamard(dim) / math.sqrt(dim), dtype=torch.float32))
        self.bias = nn.Parameter(torch.zeros(dim)) if bias else None

    def forward(self, x: Tensor) -> Tensor:
        xb = x.reshape(*x.shape[:-1], self.nb, self.b)
        y = torch.einsum("kpq,...kq->...kp", self.W, xb).reshape(x.shape)
        y = y @ self.H.T
        return y if self.bias is None else y + self.bias


class RotorStack(nn.Module):
    """The paper's replacement network (its config: hidden layers, PReLU, permutation): ``depth`` rotor layers
    (double rotors by default), a fixed random input permutation before every layer but the first, PReLU
    in between, bias on the last layer only. ``groups`` copies side by side (Q, K, V)."""

    def __init__(self, dim: int, chunk_size: int, depth: int = 2, single_rotor: bool = False, groups: int = 1,
                 seed: int = 0):
        super().__init__()
        if depth < 1:
            raise ValueError(f"depth must be >= 1; got {depth}")
        g = torch.Generator().manual_seed(seed)
        layers: list[nn.Module] = []
        for i in range(depth):
            perm = None
            if i > 0:  # permute within each group's block
                perm = torch.cat([k * dim + torch.randperm(dim, generator=g) for k in range(groups)])
            layers.append(RotorLinear(dim, dim, chunk_size, single_rotor, bias=(i == depth - 1), perm=perm,
                                      groups=groups))
            if i < depth - 1:
                layers.append(nn.PReLU())
        self.net = nn.Sequential(*layers)

    def forward(self, x: Tensor) -> Tensor:
        return self.net(x)


class OfficialRotorNet(nn.Module):
    """The official replacement network (``rotor_network.NeuralNetwork`` with ``config_files/config.yaml``),
    for square layers of width ``dim = 2^n`` on one chunk, ``groups`` independent copies side by side (Q, K, V).

    Input rotor block, ``hidden_layers`` blocks of ``breadth`` parallel rotor branches mixed by learned weights
    (initialised to 1), output rotor. Every block but the last is rotor -> fixed random coordinate permutation
    -> LayerNorm without affine parameters -> PReLU; one PReLU (one slope, initialised to 0.25) is shared by all
    blocks of a copy. Each rotor has a scale ``alpha`` (initialised to 1); there are no biases. Double rotors by
    default (``single_rotor: false``). Bivectors are drawn with std ``init_std`` (official: ``torch.randn``, 1)
    and mapped to rotors through ``bivector_scale`` (official parametrisation ``R = exp(B)``: -2 in ours).
    ``blade_order="grade"`` reads the coordinates of each chunk as blades in the official order
    (:func:`blade_order_by_grade`); ``"bitmask"`` in ours.

    All ``groups * (2 + hidden_layers * breadth)`` rotors are built in one batched call of :class:`RotorLinear`
    (attribute ``rotors``), so :func:`without_bivectors` applies.
    """

    def __init__(self, dim: int, groups: int = 1, hidden_layers: int = 2, breadth: int = 3,
                 single_rotor: bool = False, layernorm: bool = True, use_perm: bool = True,
                 init_std: float = 1.0, bivector_scale: float = -2.0, blade_order: str = "grade", seed: int = 0):
        super().__init__()
        if hidden_layers < 0 or breadth < 1 or groups < 1:
            raise ValueError(f"need hidden_layers >= 0, breadth >= 1, groups >= 1; "
                             f"got {hidden_layers}, {breadth}, {groups}")
        if blade_order not in ("grade", "bitmask"):
            raise ValueError(f"blade_order must be 'grade' or 'bitmask'; got {blade_order!r}")
        self.dim, self.g, self.h, self.b = dim, groups, hidden_layers, breadth
        self.n_rotors = 2 + hidden_layers * breadth
        self.layernorm = layernorm
        self.rotors = RotorLinear(dim, dim, dim, single_rotor, bias=False, scale=True, groups=groups * self.n_rotors,
                                  init_std=init_std, bivector_scale=bivector_scale)
        self.mix = nn.Parameter(torch.ones(groups, hidden_layers, breadth))
        self.slope = nn.Parameter(torch.full((groups,), 0.25))
        gen = torch.Generator().manual_seed(seed)
        n_blocks = self.n_rotors - 1  # every block but the output rotor
        perms = (torch.stack([torch.randperm(dim, generator=gen) for _ in range(groups * n_blocks)])
                 if use_perm else torch.arange(dim).repeat(groups * n_blocks, 1))
        self.register_buffer("perms", perms.reshape(groups, n_blocks, dim))
        order = blade_order_by_grade(self.rotors.n) if blade_order == "grade" else np.arange(dim)
        self.register_buffer("order", torch.as_tensor(order, dtype=torch.long))

    def matrices(self) -> Tensor:
        """Scaled sandwich matrices of every rotor in the coordinate order used, shape (groups, n_rotors, dim, dim)."""
        M = self.rotors.matrices().reshape(self.g, self.n_rotors, self.dim, self.dim)
        return M[..., self.order, :][..., :, self.order]

    def forward(self, x: Tensor) -> Tensor:
        if x.shape[-1] != self.dim:
            raise ValueError(f"input last dimension must be {self.dim}; got {x.shape[-1]}")
        lead = x.shape[:-1]
        x = x.reshape(-1, self.dim)
        M = self.matrices()
        # the permutation after each block's rotor permutes the rows of its matrix: perm(M x) = M[perm] x
        idx = self.perms[..., None].expand(self.g, self.n_rotors - 1, self.dim, self.dim)
        MP = torch.take_along_dim(M[:, :-1], idx, dim=-2)

        def block(z: Tensor) -> Tensor:  # z (N, groups, ...): LayerNorm without affine, then the shared PReLU
            if self.layernorm:
                z = nn.functional.layer_norm(z, (self.dim,))
            return nn.functional.prelu(z, self.slope)

        h = block(torch.einsum("gpq,nq->ngp", MP[:, 0], x))
        for layer in range(self.h):
            r = 1 + layer * self.b
            z = block(torch.einsum("gbpq,ngq->ngbp", MP[:, r:r + self.b], h))
            h = torch.einsum("gb,ngbp->ngp", self.mix[:, layer], z)
        y = torch.einsum("gpq,ngq->ngp", M[:, -1], h)
        return y.reshape(*lead, self.g * self.dim)


def official_rotor_net_param_count(dim: int, hidden_layers: int = 2, breadth: int = 3,
                                   single_rotor: bool = False) -> int:
    """Parameters of one official replacement network on one chunk of width ``dim``: every rotor has
    ``C(n,2)`` (single) or ``2 C(n,2)`` (double) bivector coefficients and a scale; plus the mixing weights
    and one shared PReLU slope."""
    rotors = 2 + hidden_layers * breadth
    return rotors * (rotor_param_count(dim, single_rotor) + 1) + hidden_layers * breadth + 1


class BlockDiagonalLinear(nn.Module):
    """The official block-Hadamard baseline as its defaults build it (``BHLinear``, depth 0): no Hadamard
    transform is applied, only a block-diagonal map of ``n_blocks`` blocks of (in/n_blocks) x (out/n_blocks),
    ``y_k = x_k W_k``, initialised ``init_std * randn`` (official 0.1), no bias."""

    def __init__(self, in_dim: int, out_dim: int, n_blocks: int, init_std: float = 0.1):
        super().__init__()
        if n_blocks < 1 or in_dim % n_blocks or out_dim % n_blocks:
            raise ValueError(f"n_blocks must divide in_dim and out_dim; got {n_blocks}, {in_dim}, {out_dim}")
        self.nb, self.bi, self.bo = n_blocks, in_dim // n_blocks, out_dim // n_blocks
        self.W = nn.Parameter(init_std * torch.randn(n_blocks, self.bi, self.bo))

    def forward(self, x: Tensor) -> Tensor:
        xb = x.reshape(*x.shape[:-1], self.nb, self.bi)
        return torch.einsum("...ki,kio->...ko", xb, self.W).reshape(*x.shape[:-1], self.nb * self.bo)


class DiagonalLinear(nn.Module):
    """Naive baseline ``x -> a * x + c`` (elementwise): ``d`` weights, plus ``d`` with the bias. Uses none of the
    paper's ideas; initialised at the identity (``a = 1``, ``c = 0``)."""

    def __init__(self, dim: int, bias: bool = True):
        super().__init__()
        if dim < 1:
            raise ValueError(f"dim must be >= 1; got {dim}")
        self.a = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim)) if bias else None

    def forward(self, x: Tensor) -> Tensor:
        y = x * self.a
        return y if self.bias is None else y + self.bias


class PrunedLinear(nn.Module):
    """Naive baseline: a trained dense layer ``x -> W x + b`` pruned by magnitude to its ``keep`` largest
    weights (a fixed mask), the kept weights (and the bias, if kept) stay trainable.

    Parameters
    ----------
    weight : (out, in) tensor
        The trained dense weights (copied).
    bias : (out,) tensor or None
        The trained bias (copied), or None for a bias-free layer.
    keep : int
        Number of weights kept, ``1 <= keep <= out * in``; ties broken by position.
    generator : torch.Generator, optional
        If given, the kept weights are drawn at random with it (a random support, the reviewer's check that the
        magnitude rule is not what matters) instead of the largest ones.
    """

    def __init__(self, weight: Tensor, bias: Tensor | None, keep: int, generator: torch.Generator | None = None):
        super().__init__()
        if weight.ndim != 2:
            raise ValueError(f"weight must be 2-D; got shape {tuple(weight.shape)}")
        if not 1 <= keep <= weight.numel():
            raise ValueError(f"keep must be in 1..{weight.numel()}; got {keep}")
        if generator is None:
            idx = torch.argsort(weight.detach().abs().flatten(), descending=True, stable=True)[:keep]
        else:
            idx = torch.randperm(weight.numel(), generator=generator)[:keep]
        mask = torch.zeros(weight.numel(), dtype=weight.dtype)
        mask[idx] = 1.0
        self.register_buffer("mask", mask.reshape(weight.shape))
        self.weight = nn.Parameter(weight.detach().clone() * self.mask)
        self.bias = None if bias is None else nn.Parameter(bias.detach().clone())

    def forward(self, x: Tensor) -> Tensor:
        return nn.functional.linear(x, self.weight * self.mask, self.bias)

    def n_weights(self) -> int:
        """Trainable parameters the mask leaves free (kept weights, plus the bias)."""
        return int(self.mask.sum()) + (0 if self.bias is None else self.bias.numel())


def naive_qkv_replacement(name: str, dense_qkv: nn.Linear, budget: int, bias: bool = True,
                          seed: int = 0) -> nn.Module:
    """The page's naive baselines for the Q/K/V projections (d -> 3d, three independent maps), using none of the
    paper's ideas, at a parameter budget per projection fixed by rule (the rotor replacement's own count).

    ``"pruned"``: each trained dense projection pruned by magnitude to ``budget`` parameters (its kept weights,
    plus its ``d`` biases when ``bias``); ``"random-mask"``: the same, but the kept weights are drawn at random
    (generator seeded with ``seed``); ``"low-rank"``: the largest rank ``r`` with ``2 r d <= budget``
    (:class:`LowRankLinear`, bias as ``bias``); ``"diagonal"``: :class:`DiagonalLinear` (``d`` or ``2d``
    parameters, ``budget`` unused).
    """
    if not isinstance(dense_qkv, nn.Linear) or dense_qkv.out_features != 3 * dense_qkv.in_features:
        raise ValueError("dense_qkv must be an nn.Linear(d, 3d)")
    d = dense_qkv.in_features
    if name == "diagonal":
        return Parallel([DiagonalLinear(d, bias=bias) for _ in range(3)])
    if name in ("pruned", "random-mask"):
        keep = budget - (d if bias else 0)
        if keep < 1:
            raise ValueError(f"budget {budget} leaves no weight to keep")
        W, b = dense_qkv.weight.detach(), dense_qkv.bias.detach()
        g = torch.Generator().manual_seed(seed) if name == "random-mask" else None
        return Parallel([PrunedLinear(W[k * d:(k + 1) * d], b[k * d:(k + 1) * d] if bias else None, keep, g)
                         for k in range(3)])
    if name == "low-rank":
        rank = (budget - (d if bias else 0)) // (2 * d)
        if rank < 1:
            raise ValueError(f"budget {budget} is below one rank-1 map")
        return Parallel([LowRankLinear(d, d, min(rank, d), bias=bias) for _ in range(3)])
    raise ValueError(f"unknown naive baseline {name!r}; choose 'pruned', 'random-mask', 'low-rank' or 'diagonal'")


class TinyAttentionClassifier(nn.Module):
    """One multi-head self-attention layer on token sequences, mean-pooled, linear head.

    ``x`` (batch, tokens, token_dim) -> embed to ``d`` (+ learned positions) -> ``h + O(attn(Q h, K h, V h))``
    -> LayerNorm -> mean over tokens -> logits. ``qkv`` (d -> 3d, dense: three ``nn.Linear(d, d)`` stacked)
    is the replaceable Q/K/V projection.
    """

    def __init__(self, n_tokens: int, token_dim: int, d: int, heads: int, n_classes: int):
        super().__init__()
        if d % heads:
            raise ValueError(f"heads must divide d; got {d}, {heads}")
        self.heads = heads
        self.embed = nn.Linear(token_dim, d)
        self.pos = nn.Parameter(0.1 * torch.randn(n_tokens, d))
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, n_classes)

    def tokens(self, x: Tensor) -> Tensor:
        """Embedded tokens, the input of Q, K, V: (batch, tokens, d)."""
        return self.embed(x) + self.pos

    def attention_output(self, h: Tensor) -> Tensor:
        """Multi-head attention of the tokens ``h`` (batch, tokens, d) before the output projection ``o``."""
        b, t, d = h.shape
        split = lambda z: z.reshape(b, t, self.heads, d // self.heads).transpose(1, 2)  # noqa: E731
        q, k, v = self.qkv(h).split(d, -1)
        a = torch.nn.functional.scaled_dot_product_attention(split(q), split(k), split(v))
        return a.transpose(1, 2).reshape(b, t, d)

    def forward(self, x: Tensor) -> Tensor:
        h = self.tokens(x)
        h = self.norm(h + self.o(self.attention_output(h)))
        return self.head(h.mean(1))


def without_bivectors(module: nn.Module) -> nn.Module:
    """Ablation: set every rotor bivector in ``module`` to zero and freeze it, in place (returns ``module``).

    All rotors become the identity, so each :class:`RotorLinear` on one chunk is ``alpha * x[perm] + bias``;
    the scales, biases and PReLU slopes stay trainable. "The rotor layer without its learned bivectors".
    """
    found = False
    for m in module.modules():
        if isinstance(m, RotorLinear):
            for p in (m.B_left, m.B_right):
                if p is not None:
                    with torch.no_grad():
                        p.zero_()
                    p.requires_grad_(False)
                    found = True
            m.identity_rotors = True  # R = exp(0) = 1: skip building the rotors (same matrices, far cheaper)
    if not found:
        raise ValueError("module has no RotorLinear layer")
    return module


def n_params(module: nn.Module) -> int:
    """Number of trainable parameters (a :class:`PrunedLinear` counts its kept weights only)."""
    pruned = [m for m in module.modules() if isinstance(m, PrunedLinear)]
    skip = {id(m.weight) for m in pruned}
    return int(sum(p.numel() for p in module.parameters() if p.requires_grad and id(p) not in skip)
               + sum(int(m.mask.sum()) for m in pruned))


def train_classifier(model: nn.Module, X: Tensor, y: Tensor, epochs: int, batch: int = 128, lr: float = 3e-3,
                     seed: int = 0, params=None) -> list[float]:
    """Adam on cross-entropy, minibatches in a seeded order; returns the mean loss per epoch."""
    opt = torch.optim.Adam(model.parameters() if params is None else params, lr=lr)
    g = torch.Generator().manual_seed(seed)
    losses = []
    for _ in range(epochs):
        order = torch.randperm(len(X), generator=g)
        tot = 0.0
        for s in range(0, len(X), batch):
            idx = order[s:s + batch]
            loss = nn.functional.cross_entropy(model(X[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += float(loss.detach()) * len(idx)
        losses.append(tot / len(X))
    return losses


def distill_projection(layer: nn.Module, X: Tensor, Y: Tensor, steps: int, lr: float = 2e-2,
                       blocks: int = 1) -> np.ndarray:
    """Fit ``layer`` to ``Y ~ layer(X)`` by full-batch Adam on the MSE (the paper's layer-wise replacement,
    cosine-annealed learning rate). Returns the relative error ``||layer(X) - Y||^2 / ||Y - mean Y||^2`` per
    block of ``blocks`` equal output slices (e.g. Q, K, V), shape (blocks,)."""
    if steps < 1:
        raise ValueError(f"steps must be >= 1; got {steps}")
    opt = torch.optim.Adam(layer.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    for _ in range(steps):
        loss = nn.functional.mse_loss(layer(X), Y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
    with torch.no_grad():
        err = ((layer(X) - Y) ** 2).reshape(len(X), blocks, -1).sum((0, 2))
        var = ((Y - Y.mean(0)) ** 2).reshape(len(X), blocks, -1).sum((0, 2))
        return (err / var).numpy()


@torch.no_grad()
def refit_output_projection(model: TinyAttentionClassifier, original: TinyAttentionClassifier, X: Tensor) -> float:
    """The official ``--train_projo`` step, solved exactly: refit ``model.o`` (weights and bias) by least squares
    so that, on the inputs ``X`` (batch, tokens, token_dim), ``model.o`` of the attention output computed with the
    replaced Q/K/V matches the original model's ``o`` output. In place; returns the relative residual
    ``||o(A) - Y||^2 / ||Y - mean Y||^2``.

    The official code trains a fresh bias-free ``o_proj`` (its LLMs' ``o_proj`` has no bias) for 15 epochs
    of AdamW (lr 1e-4, weight decay 0.01) on the same regression; our ``o`` has a bias, so the refit keeps one.
    """
    if not isinstance(model, TinyAttentionClassifier) or not isinstance(original, TinyAttentionClassifier):
        raise ValueError("model and original must be TinyAttentionClassifier instances")
    h = original.tokens(X)
    Y = original.o(original.attention_output(h)).reshape(-1, h.shape[-1]).double()
    A = model.attention_output(model.tokens(X)).reshape(-1, h.shape[-1]).double()
    A1 = torch.cat([A, torch.ones(len(A), 1, dtype=A.dtype)], 1)
    # A comes from float32 arithmetic: singular values below 1e-5 of the largest are rounding noise (a rank-r
    # replacement of V makes A rank-deficient), so they are cut; the minimum-norm solution is kept.
    sol = torch.linalg.lstsq(A1, Y, rcond=1e-5, driver="gelsd").solution  # (d + 1, d)
    model.o.weight.copy_(sol[:-1].T.to(model.o.weight.dtype))
    model.o.bias.copy_(sol[-1].to(model.o.bias.dtype))
    resid = ((A1 @ sol - Y) ** 2).sum() / ((Y - Y.mean(0)) ** 2).sum()
    return float(resid)


@torch.no_grad()
def accuracy(model: nn.Module, X: Tensor, y: Tensor) -> float:
    """Fraction of correct argmax predictions."""
    return float((model(X).argmax(-1) == y).float().mean())


#: The compared Q/K/V replacements (name -> description); see :func:`qkv_replacement`.
REPLACEMENTS = {
    "LR1": "low rank, rank 1",
    "LR2": "low rank, rank 2",
    "BH1": "block-Hadamard, 1x1 blocks",
    "BH2": "block-Hadamard, 2x2 blocks",
    "rotor-1": "one single-rotor layer",
    "rotor-2": "one double-rotor layer",
    "rotor-stack": "2 double-rotor layers + PReLU + permutation",
}


def qkv_replacement(name: str, d: int, seed: int = 0) -> nn.Module:
    """A d -> 3d module standing in for the dense Q, K, V projections (three independent maps, with biases).

    ``name`` is a key of :data:`REPLACEMENTS`; rotor variants use one chunk of width ``d`` (``d = 2^n``).
    """
    if name.startswith("LR") and name[2:].isdigit():
        return Parallel([LowRankLinear(d, d, int(name[2:])) for _ in range(3)])
    if name.startswith("BH") and name[2:].isdigit():
        return Parallel([BlockHadamardLinear(d, int(name[2:])) for _ in range(3)])
    if name == "rotor-1":
        return RotorLinear(d, d, d, single_rotor=True, bias=True, groups=3)
    if name == "rotor-2":
        return RotorLinear(d, d, d, single_rotor=False, bias=True, groups=3)
    if name == "rotor-stack":
        return RotorStack(d, d, depth=2, single_rotor=False, groups=3, seed=seed)
    raise ValueError(f"unknown replacement {name!r}; choose from {list(REPLACEMENTS)}")


#: The official code's choices, run beside ours (name -> description); see :func:`official_qkv_replacement`.
OFFICIAL_REPLACEMENTS = {
    "LR1 (off.)": "low rank, rank 1, no bias",
    "LR4 (off.)": "low rank, rank 4, no bias",
    "BH2 (off.)": "block-diagonal 2x2 blocks, 0.1 randn init, no Hadamard, no bias",
    "rotor-net (off.)": "input rotor, 2 x 3 parallel rotor branches, output rotor; perm + LayerNorm + shared PReLU",
}

#: The official learning rates of the replacement fit (``config_files/config.yaml``).
OFFICIAL_DISTILL_LR = {"LR1 (off.)": 0.05, "LR4 (off.)": 0.05, "BH2 (off.)": 0.01, "rotor-net (off.)": 0.05}


def official_qkv_replacement(name: str, d: int, seed: int = 0) -> nn.Module:
    """A d -> 3d module built with the official code's choices (key of :data:`OFFICIAL_REPLACEMENTS`).

    The official block-diagonal baseline uses 128 blocks at width 2048 (16 x 16 blocks); at our widths we keep
    2 x 2 blocks (``d/2`` blocks, the block size of our BH2).
    """
    if name in ("LR1 (off.)", "LR4 (off.)"):
        return Parallel([LowRankLinear(d, d, int(name[2]), bias=False) for _ in range(3)])
    if name == "BH2 (off.)":
        return Parallel([BlockDiagonalLinear(d, d, d // 2) for _ in range(3)])
    if name == "rotor-net (off.)":
        return OfficialRotorNet(d, groups=3, seed=seed)
    raise ValueError(f"unknown official replacement {name!r}; choose from {list(OFFICIAL_REPLACEMENTS)}")


def weight_count(kind: str, d: int) -> int:
    """Weights (no biases) of one d x d projection: ``dense`` d^2, ``LR<r>`` 2rd, ``BH<b>`` db,
    ``rotor-1`` C(n,2), ``rotor-2`` 2C(n,2) (rotor counts without the scale alpha)."""
    if kind == "dense":
        return d * d
    if kind.startswith("LR"):
        return 2 * int(kind[2:]) * d
    if kind.startswith("BH"):
        return d * int(kind[2:])
    if kind == "rotor-1":
        return rotor_param_count(d, True)
    if kind == "rotor-2":
        return rotor_param_count(d, False)
    raise ValueError(f"unknown kind {kind!r}")


def best_forward_time(model: nn.Module, X: Tensor, repeats: int = 5) -> float:
    """Best-of-``repeats`` wall time (s) of one forward pass under ``torch.no_grad`` (volatile)."""
    from repro.timing import best_time

    with torch.no_grad():
        return best_time(lambda: model(X), repeats)
