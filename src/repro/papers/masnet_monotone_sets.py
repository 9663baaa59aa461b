"""Monotone and separating (MAS) set embeddings and the MASNet model.

Paper: Sarangi, Sverdlov, Dym, De, *Monotone and Separable Set Functions: Characterizations and Neural
Models*, NeurIPS 2025, https://arxiv.org/abs/2510.23634 (code: github.com/structlearning/MASNET).
Notebook: ``notebooks/masnet-monotone-sets.py``.

Notation map (paper -> ours)
----------------------------
* ground set :math:`V`, :math:`n = |V|`                      -> ``n``; elements ``0..n-1`` (finite case)
* multiset :math:`S` with multiplicities                     -> integer count vector, :func:`count_embedding`
* set function :math:`F: S \\mapsto \\mathbb R^m`             -> a callable / an ``nn.Module``
* MAS property :math:`S \\subseteq T \\iff F(S) \\le F(T)`       -> :func:`is_mas_bruteforce`
* MASNet channel :math:`F_c(S) = \\sum_{x\\in S} \\sigma((a_c\\cdot\\phi(x) - b_c)/c_c)` -> :class:`MASNetEmbed`
* hat activation :math:`\\sigma`                               -> :func:`hat`
* containment score :math:`-\\sum_c \\mathrm{relu}(F_c(S)-F_c(T))` -> :func:`containment_score`
* training losses: our hinge on the score -> :func:`hinge_containment_loss`; the official repository's margin
  loss (delta = 0.1, max over channels for positives, min for negatives) -> :func:`official_set_loss`
* the official code's initialisation and element-MLP shape -> ``MASNetEmbed(init="official",
  phi_shape="official")``; DeepSets trained as the official code trains it -> :class:`DeepSetsContainment`
* lower bound "no MAS into :math:`\\mathbb R^m` for :math:`m<|V|`" -> :func:`mas_dimension_feasible`, an exhaustive
  check of the order dimension of the subset lattice through its critical pairs.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence

import networkx as nx
import numpy as np
import torch
from scipy.optimize import linprog
from torch import nn

# ----------------------------------------------------------------------------- activations and scores


def hat(t: torch.Tensor) -> torch.Tensor:
    """Hat activation :math:`\\sigma(t) = \\mathrm{relu}(t) - 2\\,\\mathrm{relu}(t-1/2) + \\mathrm{relu}(t-1)`.

    Nonnegative, zero outside :math:`(0, 1)`, peak 1/2 at :math:`t = 1/2` (the paper's hat function).

    Parameters
    ----------
    t : Tensor, any shape

    Returns
    -------
    Tensor, same shape
    """
    if not torch.is_tensor(t):
        raise ValueError(f"hat needs a torch tensor, got {type(t).__name__}")
    # equal to relu(t) - 2 relu(t - 1/2) + relu(t - 1) = relu(1/2 - |t - 1/2|) (checked in the tests);
    # in place after the first op: one temporary instead of four (about 5x faster on large batches)
    return torch.relu_(torch.abs_(t - 0.5).neg_().add_(0.5))


def signed_hat(t: torch.Tensor) -> torch.Tensor:
    r"""Ablation of :func:`hat` without its sign guarantee: :math:`\mathrm{hat}(t) - 1/4`, in :math:`[-1/4, 1/4]`.

    Same shape and slopes as the hat, but a summand can be negative, so adding an element can lower a
    coordinate: a MASNet with this activation is *not* monotone by construction (the control of the page).
    """
    return hat(t) - 0.25


def containment_score(FS: torch.Tensor, FT: torch.Tensor) -> torch.Tensor:
    """Containment score :math:`s(S,T) = -\\sum_c \\mathrm{relu}(F_c(S) - F_c(T))`.

    Zero exactly when :math:`F(S) \\le F(T)` coordinatewise, negative otherwise.

    Parameters
    ----------
    FS, FT : Tensor, shape (B, C)

    Returns
    -------
    Tensor, shape (B,)
    """
    if FS.shape != FT.shape or FS.ndim != 2:
        raise ValueError(f"FS and FT must both have shape (B, C); got {tuple(FS.shape)} and {tuple(FT.shape)}")
    return -torch.relu(FS - FT).sum(dim=1)


def _check_pair_embeddings(FS: torch.Tensor, FT: torch.Tensor, y: torch.Tensor) -> None:
    if FS.shape != FT.shape or FS.ndim != 2 or y.shape != FS.shape[:1]:
        raise ValueError(f"need FS, FT of shape (B, C) and y of shape (B,); got {tuple(FS.shape)}, "
                         f"{tuple(FT.shape)}, {tuple(y.shape)}")


def hinge_containment_loss(FS: torch.Tensor, FT: torch.Tensor, y: torch.Tensor, margin: float = 1.0) -> torch.Tensor:
    r"""Our training loss on a pair of embeddings: with :math:`v = \sum_c \mathrm{relu}(F_c(S) - F_c(T))`
    (minus :func:`containment_score`), :math:`v` on positives and :math:`\mathrm{relu}(m - v)` on negatives,
    averaged over the batch.

    Parameters
    ----------
    FS, FT : Tensor, shape (B, C)
    y : Tensor, shape (B,)
        1 where :math:`S \subseteq T`, 0 otherwise (our convention throughout).
    margin : float
        :math:`m`, the violation a negative must reach.

    Returns
    -------
    Tensor, scalar
    """
    _check_pair_embeddings(FS, FT, y)
    v = -containment_score(FS, FT)
    y = y.to(v.dtype)
    return (y * v + (1 - y) * torch.relu(margin - v)).mean()


def official_set_loss(FS: torch.Tensor, FT: torch.Tensor, y: torch.Tensor, delta: float = 0.1) -> torch.Tensor:
    r"""The set loss of the official MASNet code, written from its formula (not copied).

    A positive pair (:math:`S \subseteq T`) pays its worst channel, :math:`\max_c \mathrm{relu}(\delta + F_c(S)
    - F_c(T))`: every channel must show :math:`F_c(S) \le F_c(T) - \delta`. A negative pays its best
    channel, :math:`\min_c \mathrm{relu}(\delta + F_c(T) - F_c(S))`: one channel with
    :math:`F_c(S) \ge F_c(T) + \delta` is enough. Batch mean. The official code uses :math:`\delta = 0.1`
    (and labels 0 for contained pairs in its synthetic part, 1 in its real-data part); ``y`` here follows our
    convention, 1 for :math:`S \subseteq T`.

    Parameters
    ----------
    FS, FT : Tensor, shape (B, C)
    y : Tensor, shape (B,), 1 where :math:`S \subseteq T`, else 0
    delta : float, margin

    Returns
    -------
    Tensor, scalar
    """
    _check_pair_embeddings(FS, FT, y)
    y = y.to(FS.dtype)
    pos = torch.relu(delta + FS - FT).amax(dim=1)
    neg = torch.relu(delta + FT - FS).amin(dim=1)
    return (y * pos + (1 - y) * neg).mean()


# ----------------------------------------------------------------------------- models


def _mlp(d_in: int, hidden: int, d_out: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, d_out))


class MASNetEmbed(nn.Module):
    """MASNet set embedding: :math:`F_c(S) = \\sum_{x \\in S} \\sigma((a_c \\cdot \\phi(x) - b_c)/c_c)`.

    :math:`a_c` is normalised to unit length, :math:`c_c = \\exp(\\ell_c) > 0`, :math:`\\phi` an optional
    elementwise MLP. Every summand is nonnegative, so adding elements can only raise every coordinate
    (monotone by construction, whatever the weights).

    Parameters
    ----------
    d_in : int
        Dimension of an element.
    n_channels : int
        Embedding dimension :math:`m` (channels ``C``).
    phi_hidden : int or None
        Width of the 2-layer elementwise MLP :math:`\\phi`; ``None`` for :math:`\\phi = \\mathrm{id}`.
    act : {"hat", "relu", "signed_hat"}
        ``"signed_hat"`` (:func:`signed_hat`) is the ablation without nonnegative summands: not monotone.
    init : {"ours", "official"}
        Starting weights. Ours: :math:`a_c \\sim N(0, I)`, :math:`b_c \\sim N(0, 1/4)`. The official code's:
        :math:`a_c \\sim U(0,1)^d`, :math:`b_c \\sim U(0,1)`, and Xavier-uniform weights in :math:`\\phi`.
        Both start at :math:`c_c = 1`.
    phi_shape : {"ours", "official"}
        Shape of :math:`\\phi` when ``phi_hidden`` is set: ours :math:`d \\to h \\to h`, the official code's
        :math:`d \\to h \\to d` (ReLU between).
    """

    def __init__(self, d_in: int, n_channels: int, phi_hidden: int | None = None, act: str = "hat",
                 init: str = "ours", phi_shape: str = "ours"):
        super().__init__()
        if d_in < 1 or n_channels < 1 or (phi_hidden is not None and phi_hidden < 1):
            raise ValueError("d_in, n_channels and phi_hidden must be positive")
        if act not in ("hat", "relu", "signed_hat"):
            raise ValueError(f"act must be 'hat', 'relu' or 'signed_hat'; got {act!r}")
        if init not in ("ours", "official") or phi_shape not in ("ours", "official"):
            raise ValueError(f"init and phi_shape must be 'ours' or 'official'; got {init!r}, {phi_shape!r}")
        if phi_hidden is None:
            self.phi, d_phi = nn.Identity(), d_in
        elif phi_shape == "ours":
            self.phi, d_phi = _mlp(d_in, phi_hidden, phi_hidden), phi_hidden
        else:
            self.phi, d_phi = _mlp(d_in, phi_hidden, d_in), d_in
        if init == "ours":
            self.a = nn.Parameter(torch.randn(n_channels, d_phi))
            self.b = nn.Parameter(torch.randn(n_channels) * 0.5)
        else:
            self.a = nn.Parameter(torch.rand(n_channels, d_phi))
            self.b = nn.Parameter(torch.rand(n_channels))
            for layer in self.phi.modules():
                if isinstance(layer, nn.Linear):
                    nn.init.xavier_uniform_(layer.weight)
        self.log_c = nn.Parameter(torch.zeros(n_channels))  # c = 1 at the start under both inits
        self.act = {"hat": hat, "relu": torch.relu, "signed_hat": signed_hat}[act]

    def forward(self, X: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Embed a padded batch of sets.

        Parameters
        ----------
        X : Tensor, shape (B, N, d_in)
            Elements, padded to ``N``.
        mask : Tensor, shape (B, N)
            1 for a real element (or its multiplicity), 0 for padding.

        Returns
        -------
        Tensor, shape (B, C)
        """
        if X.ndim != 3 or mask.shape != X.shape[:2]:
            raise ValueError(f"X must be (B, N, d) and mask (B, N); got {tuple(X.shape)} and {tuple(mask.shape)}")
        scale = torch.exp(-self.log_c)  # 1 / c_c
        a = self.a * (scale / self.a.norm(dim=1)).unsqueeze(1)  # a_c / (|a_c| c_c)
        z = torch.addmm((-self.b * scale), self.phi(X).flatten(0, 1), a.T).view(*X.shape[:2], -1)  # (B, N, C)
        return torch.einsum("bnc,bn->bc", self.act(z), mask.to(z.dtype))


class DeepSetsPair(nn.Module):
    """DeepSets baseline: :math:`E(S) = \\rho(\\sum_{x\\in S}\\phi(x))`, pair logit :math:`g([E_S, E_T, E_S - E_T])`.

    Parameters
    ----------
    d_in, hidden : int
        Element dimension and width of :math:`\\phi`, :math:`\\rho`, :math:`g`.
    """

    def __init__(self, d_in: int, hidden: int):
        super().__init__()
        if d_in < 1 or hidden < 1:
            raise ValueError("d_in and hidden must be positive")
        self.phi = _mlp(d_in, hidden, hidden)
        self.rho = _mlp(hidden, hidden, hidden)
        self.head = _mlp(3 * hidden, hidden, 1)

    def embed(self, X: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Set embedding ``(B, N, d), (B, N) -> (B, hidden)``."""
        if X.ndim != 3 or mask.shape != X.shape[:2]:
            raise ValueError(f"X must be (B, N, d) and mask (B, N); got {tuple(X.shape)} and {tuple(mask.shape)}")
        return self.rho((self.phi(X) * mask.unsqueeze(-1).to(X.dtype)).sum(dim=1))

    def forward(self, XS, mS, XT, mT) -> torch.Tensor:
        """Containment logit, shape (B,)."""
        eS, eT = self.embed(XS, mS), self.embed(XT, mT)
        return self.head(torch.cat([eS, eT, eS - eT], dim=1)).squeeze(1)


class MASNetPair(nn.Module):
    """MASNet pair model: score :math:`s(S,T)` of :func:`containment_score` on :class:`MASNetEmbed` embeddings
    (arguments as there)."""

    def __init__(self, d_in: int, n_channels: int, phi_hidden: int | None = None, act: str = "hat",
                 init: str = "ours", phi_shape: str = "ours"):
        super().__init__()
        self.net = MASNetEmbed(d_in, n_channels, phi_hidden, act, init=init, phi_shape=phi_shape)

    def embed(self, X: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.net(X, mask)

    def forward(self, XS, mS, XT, mT) -> torch.Tensor:
        return containment_score(self.net(XS, mS), self.net(XT, mT))


class DeepSetsContainment(nn.Module):
    r"""DeepSets as the official code trains it: embedding :math:`E(S) = \rho(\sum_{x\in S}\phi(x))` into
    :math:`\mathbb R^{C}`, pairs scored like MASNet by :func:`containment_score` (no pair classifier).

    :math:`\phi`: :math:`d \to h \to h` with ReLU after both layers; :math:`\rho`: :math:`h \to h \to C`.
    Nothing makes :math:`E` monotone; only the loss asks for :math:`E(S) \le E(T)` on contained pairs.

    Parameters
    ----------
    d_in, hidden, n_out : int
        Element dimension, width of :math:`\phi` and :math:`\rho`, embedding dimension :math:`C`.
    """

    def __init__(self, d_in: int, hidden: int, n_out: int):
        super().__init__()
        if d_in < 1 or hidden < 1 or n_out < 1:
            raise ValueError("d_in, hidden and n_out must be positive")
        self.phi = nn.Sequential(_mlp(d_in, hidden, hidden), nn.ReLU())
        self.rho = _mlp(hidden, hidden, n_out)

    def embed(self, X: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Set embedding ``(B, N, d), (B, N) -> (B, n_out)``."""
        if X.ndim != 3 or mask.shape != X.shape[:2]:
            raise ValueError(f"X must be (B, N, d) and mask (B, N); got {tuple(X.shape)} and {tuple(mask.shape)}")
        return self.rho((self.phi(X) * mask.unsqueeze(-1).to(X.dtype)).sum(dim=1))

    def forward(self, XS, mS, XT, mT) -> torch.Tensor:
        """Containment score, shape (B,)."""
        return containment_score(self.embed(XS, mS), self.embed(XT, mT))


def n_parameters(model: nn.Module) -> int:
    """Number of trainable scalars of ``model``."""
    return int(sum(p.numel() for p in model.parameters() if p.requires_grad))


def pair_loss(model: nn.Module, batch: dict, margin: float = 1.0, loss: str = "ours",
              delta: float = 0.1) -> torch.Tensor:
    """Training loss of a pair model on a batch.

    Embedding models (:class:`MASNetPair`, :class:`DeepSetsContainment`): ``loss="ours"`` is
    :func:`hinge_containment_loss` with ``margin``, ``loss="official"`` the official code's
    :func:`official_set_loss` with ``delta``. :class:`DeepSetsPair`: binary cross-entropy on its logit (brief,
    section 19.4), only with ``loss="ours"``.
    """
    if loss not in ("ours", "official"):
        raise ValueError(f"loss must be 'ours' or 'official'; got {loss!r}")
    y = batch["y"]
    if isinstance(model, (MASNetPair, DeepSetsContainment)):
        FS, FT = model.embed(batch["XS"], batch["mS"]), model.embed(batch["XT"], batch["mT"])
        if loss == "ours":
            return hinge_containment_loss(FS, FT, y, margin)
        return official_set_loss(FS, FT, y, delta)
    if loss != "ours":
        raise ValueError("the pair-classifier baseline (DeepSetsPair) has only our loss (cross-entropy)")
    out = model(batch["XS"], batch["mS"], batch["XT"], batch["mT"])
    return nn.functional.binary_cross_entropy_with_logits(out, y.to(out.dtype))


def train_pair_model(model: nn.Module, batch: dict, steps: int, lr: float = 3e-3, batch_size: int = 256,
                     seed: int = 0, loss: str = "ours") -> list[float]:
    """Adam on minibatches of ``batch`` (dict of tensors from :func:`make_containment_pairs`); returns losses.
    ``loss`` as in :func:`pair_loss`."""
    if steps < 1 or batch_size < 1:
        raise ValueError("steps and batch_size must be positive")
    g = torch.Generator().manual_seed(seed)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    n = batch["y"].shape[0]
    losses = []
    for _ in range(steps):
        idx = torch.randint(n, (min(batch_size, n),), generator=g)
        value = pair_loss(model, {k: v[idx] for k, v in batch.items()}, loss=loss)
        opt.zero_grad()
        value.backward()
        opt.step()
        losses.append(float(value.detach()))
    return losses


def monotonicity_violations(embed: Callable, X: torch.Tensor, mS: torch.Tensor, mT: torch.Tensor,
                            tol: float = 1e-6) -> int:
    """Count pairs with :math:`S \\subseteq T` (``mS <= mT`` on a shared element array) whose embeddings
    violate :math:`F(S) \\le F(T)` in some coordinate by more than ``tol``.

    Parameters
    ----------
    embed : callable ``(X, mask) -> (B, C)``
    X : Tensor, shape (B, N, d)
    mS, mT : Tensor, shape (B, N), with ``mS <= mT`` entrywise
    """
    if mS.shape != mT.shape or bool((mS > mT).any()):
        raise ValueError("mS and mT must have the same shape and mS <= mT (S a subset of T)")
    with torch.no_grad():
        FS, FT = embed(X, mS), embed(X, mT)
    return int(((FS - FT) > tol).any(dim=1).sum())


def nearest_neighbour_containment_score(XS: torch.Tensor, mS: torch.Tensor, XT: torch.Tensor,
                                        mT: torch.Tensor) -> torch.Tensor:
    """A training-free containment score (a skeptic's baseline, not in the paper): minus the directed Hausdorff
    distance from :math:`S` to :math:`T`,

    .. math:: s(S, T) = -\\max_{x \\in S} \\min_{y \\in T} \\lVert x - y \\rVert_2 .

    It is 0 when every element of :math:`S` also occurs in :math:`T` and negative otherwise.

    Parameters
    ----------
    XS, XT : Tensor, shape (B, N, d) and (B, M, d)
        Padded element coordinates.
    mS, mT : Tensor, shape (B, N) and (B, M)
        Masks (1 for a real element, 0 for padding); every set must have at least one element.

    Returns
    -------
    Tensor, shape (B,)
    """
    if XS.dim() != 3 or XT.dim() != 3 or XS.shape[:2] != mS.shape or XT.shape[:2] != mT.shape:
        raise ValueError("XS, XT must be (B, N, d) and mS, mT (B, N) masks of matching shapes")
    if bool((mS.sum(1) == 0).any()) or bool((mT.sum(1) == 0).any()):
        raise ValueError("every set needs at least one element")
    D = torch.cdist(XS, XT)  # (B, N, M)
    D = D.masked_fill(mT[:, None, :] <= 0, float("inf")).min(dim=2).values  # nearest element of T
    D = D.masked_fill(mS <= 0, float("-inf")).max(dim=1).values  # farthest element of S from T
    return -D


def grid_histogram_embedding(X: torch.Tensor, m: torch.Tensor, lo: Sequence[float], hi: Sequence[float],
                             cells: int = 6) -> torch.Tensor:
    """A fixed, training-free monotone set embedding (a skeptic's baseline, not in the paper): the count of the
    set's elements in each cell of a ``cells`` x ``cells`` grid over the box ``[lo, hi]`` of the plane.

    Every summand is a nonnegative count, so the embedding is monotone; it separates two sets only where they
    differ in some cell's count. Points outside the box are counted in the nearest edge cell.

    Parameters
    ----------
    X : Tensor, shape (B, N, 2)
        Padded element coordinates.
    m : Tensor, shape (B, N)
        Mask (1 for a real element, 0 for padding).
    lo, hi : sequence of 2 floats
        Corners of the box, ``lo < hi`` coordinatewise.
    cells : int
        Cells per axis (the embedding has ``cells**2`` coordinates).

    Returns
    -------
    Tensor, shape (B, cells**2)
    """
    if X.dim() != 3 or X.shape[2] != 2 or X.shape[:2] != m.shape:
        raise ValueError("X must be (B, N, 2) and m a (B, N) mask")
    lo_t, hi_t = torch.as_tensor(lo, dtype=X.dtype), torch.as_tensor(hi, dtype=X.dtype)
    if lo_t.shape != (2,) or hi_t.shape != (2,) or not bool((hi_t > lo_t).all()) or int(cells) < 1:
        raise ValueError("lo, hi must be 2 floats with lo < hi, and cells >= 1")
    cell = ((X - lo_t) / (hi_t - lo_t) * cells).floor().long().clamp(0, cells - 1)
    idx = cell[..., 0] * cells + cell[..., 1]
    H = torch.zeros(X.shape[0], cells * cells, dtype=m.dtype)
    return H.scatter_add_(1, idx, m)


# ----------------------------------------------------------------------------- finite ground sets


def count_embedding(S: Sequence[int] | np.ndarray, n: int) -> np.ndarray:
    """Multiplicity embedding :math:`F(S)_v = \\#\\{x \\in S : x = v\\}` into :math:`\\mathbb R^n` (MAS with m = n).

    Parameters
    ----------
    S : sequence of int in ``[0, n)``, length k (a multiset)
    n : int

    Returns
    -------
    ndarray, shape (n,)
    """
    S = np.asarray(S, dtype=int).reshape(-1)
    if n < 1 or (S.size and (S.min() < 0 or S.max() >= n)):
        raise ValueError(f"elements must lie in [0, {n}); got {S.tolist()}")
    return np.bincount(S, minlength=n).astype(float)


def all_multisets(n: int, max_mult: int) -> np.ndarray:
    """All count vectors on ``n`` elements with multiplicities ``0..max_mult``: shape ((max_mult+1)^n, n)."""
    if n < 1 or max_mult < 1:
        raise ValueError("n and max_mult must be positive")
    return np.array(list(itertools.product(range(max_mult + 1), repeat=n)), dtype=int)


def is_mas_bruteforce(F: Callable[[np.ndarray], np.ndarray], multisets: np.ndarray,
                      tol: float = 1e-9) -> tuple[bool, tuple | None]:
    """Check :math:`S \\subseteq T \\iff F(S) \\le F(T)` on every ordered pair of ``multisets``.

    Parameters
    ----------
    F : callable, count vector (n,) -> embedding (m,)
    multisets : ndarray, shape (M, n)
        Count vectors (``S \\subseteq T`` means ``S <= T`` entrywise).

    Returns
    -------
    (bool, counterexample)
        ``counterexample`` is ``(S, T, "monotone" | "separating")`` for the first failing pair, else ``None``.
    """
    C = np.asarray(multisets)
    if C.ndim != 2 or len(C) < 1:
        raise ValueError(f"multisets must be a non-empty (M, n) array; got shape {C.shape}")
    E = np.stack([np.asarray(F(c), dtype=float).reshape(-1) for c in C])
    sub = (C[:, None, :] <= C[None, :, :]).all(-1)
    leq = (E[:, None, :] <= E[None, :, :] + tol).all(-1)
    bad = np.argwhere(sub != leq)
    if len(bad) == 0:
        return True, None
    i, j = bad[0]
    return False, (C[i].tolist(), C[j].tolist(), "monotone" if sub[i, j] else "separating")


def linear_sum_embedding(W: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """:math:`F(S) = \\sum_{x \\in S} W_{:,x} = W\\,\\mathrm{count}(S)` for a weight matrix ``W`` of shape (m, n)."""
    W = np.asarray(W, dtype=float)
    if W.ndim != 2:
        raise ValueError("W must be (m, n)")
    return lambda c: W @ np.asarray(c, dtype=float)


def _critical_pair_reversible(n: int, I: Sequence[int]) -> bool:
    """Whether one linear extension of the subset lattice of ``n`` elements can put :math:`V \\setminus\\{i\\}`
    below :math:`\\{i\\}` for all ``i`` in ``I`` at once (the lattice's order plus those reversals is acyclic)."""
    full = (1 << n) - 1
    G = nx.DiGraph()
    G.add_nodes_from(range(1 << n))
    G.add_edges_from((s, s | (1 << v)) for s in range(1 << n) for v in range(n) if not s >> v & 1)
    G.add_edges_from((full ^ (1 << i), 1 << i) for i in I)
    return nx.is_directed_acyclic_graph(G)


def mas_dimension_feasible(n: int, m: int) -> bool:
    """Exhaustively decide whether a MAS embedding of all subsets of an ``n``-element set into :math:`\\mathbb R^m`
    exists (the paper's finite-ground-set bound says: iff :math:`m \\ge n`).

    A MAS map is an order embedding into :math:`(\\mathbb R^m, \\le)`, so it exists iff the subset lattice has
    order dimension :math:`\\le m`, i.e. iff its critical pairs :math:`(\\{i\\}, V\\setminus\\{i\\})` can be split
    into ``m`` classes each reversible in one linear extension (Trotter). We test reversibility of every
    subset of pairs on the full lattice graph and then try all :math:`m^n` assignments of pairs to coordinates.

    Parameters
    ----------
    n : int, 1..8
    m : int, >= 1

    Returns
    -------
    bool
    """
    if not 1 <= n <= 8 or m < 1:
        raise ValueError(f"need 1 <= n <= 8 and m >= 1; got n={n}, m={m}")
    ok = np.zeros(1 << n, dtype=bool)
    for mask in range(1 << n):
        ok[mask] = _critical_pair_reversible(n, [i for i in range(n) if mask >> i & 1])
    return _search(ok, n, min(m, n))


def _search(ok: np.ndarray, n: int, m: int) -> bool:
    return _search_coloring(ok, n, m) is not None


def _search_coloring(ok: np.ndarray, n: int, m: int) -> np.ndarray | None:
    """First assignment (n,) of the n critical pairs to m classes with every class ``ok``, else ``None``."""
    colorings = np.array(list(itertools.product(range(m), repeat=n)), dtype=np.int64)  # (m^n, n)
    for c in range(m):
        masks = ((colorings == c) * (1 << np.arange(n))).sum(1)
        colorings = colorings[ok[masks]]
        if len(colorings) == 0:
            return None
    return colorings[0]


@functools.lru_cache(maxsize=None)
def _linear_row_mask(n: int, mask: int) -> np.ndarray | None:
    return _linear_row(n, [i for i in range(n) if mask >> i & 1])


def _linear_row(n: int, I: Sequence[int]) -> np.ndarray | None:
    r"""A row :math:`w \ge 0` with :math:`w_i \ge \sum_{j \ne i} w_j + 1` for every ``i`` in ``I`` (an LP,
    scipy's HiGHS), or ``None`` if infeasible. Such a row reverses every critical pair
    :math:`(\{i\}, V \setminus \{i\})`, ``i`` in ``I``, in the linear sum embedding."""
    I = list(I)
    if not I:
        return np.zeros(n)
    A = np.ones((len(I), n))  # sum_{j != i} w_j - w_i <= -1
    A[np.arange(len(I)), I] = -1.0
    res = linprog(np.zeros(n), A_ub=A, b_ub=-np.ones(len(I)), bounds=[(0, None)] * n, method="highs")
    return res.x if res.status == 0 else None


def linear_mas_embedding(n: int, m: int) -> np.ndarray | None:
    r"""Search for a MAS *linear sum* embedding :math:`F(S) = W\,\mathrm{count}(S)` of the subsets of ``n``
    elements into :math:`\mathbb R^m`; return ``W`` (m, n) or ``None`` when none exists.

    Exact for sets: monotonicity forces :math:`W \ge 0`; separation of the critical pairs
    :math:`(\{i\}, V \setminus \{i\})` needs, for each ``i``, a row with :math:`W_{ri} > \sum_{j\ne i} W_{rj}`,
    and that suffices (if :math:`x \in S \setminus T`, row :math:`r(x)` gives :math:`F_r(S) \ge W_{rx} >
    F_r(T)`). So we decide by LP which groups of critical pairs one row can serve and try every assignment
    of the ``n`` pairs to ``m`` rows; the paper's bound predicts a ``W`` exactly when :math:`m \ge n`.

    Parameters
    ----------
    n : int, 1..8
    m : int, >= 1

    Returns
    -------
    ndarray (m, n) or None
    """
    if not 1 <= n <= 8 or m < 1:
        raise ValueError(f"need 1 <= n <= 8 and m >= 1; got n={n}, m={m}")
    rows = [_linear_row_mask(n, mask) for mask in range(1 << n)]
    colour = _search_coloring(np.array([r is not None for r in rows]), n, min(m, n))
    if colour is None:
        return None
    W = np.zeros((m, n))
    for c in range(min(m, n)):
        W[c] = rows[int(((colour == c) * (1 << np.arange(n))).sum())]
    return W


# ----------------------------------------------------------------------------- data


def _pad(sets: list[np.ndarray], N: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    X = np.zeros((len(sets), N, d))
    M = np.zeros((len(sets), N))
    for b, s in enumerate(sets):
        X[b, : len(s)] = s
        M[b, : len(s)] = 1
    return X, M


def make_ground_pool(n_points: int, n_clusters: int = 8, spread: float = 0.5, seed: int = 0) -> np.ndarray:
    """Ground set stand-in for an infinite domain: ``n_points`` points of a Gaussian mixture in the plane."""
    if n_points < 2 or n_clusters < 1:
        raise ValueError("need n_points >= 2 and n_clusters >= 1")
    rng = np.random.default_rng(seed)
    centres = rng.uniform(-3, 3, (n_clusters, 2))
    return centres[rng.integers(n_clusters, size=n_points)] + spread * rng.standard_normal((n_points, 2))


def make_containment_pairs(n_pairs: int, ground: str | np.ndarray = "r2", size_range: tuple[int, int] = (5, 15),
                           extra_range: tuple[int, int] = (1, 5), hard_negative: bool = True,
                           n_ground: int = 120, seed: int = 0) -> dict:
    """Synthetic containment pairs :math:`(S, T, y)`, half positive (:math:`S \\subseteq T`), half negative.

    Positives: :math:`T` is a random subset of the ground set of size in ``size_range`` plus ``extra_range``
    extra elements, :math:`S` the first part. Negatives: the same with one element of :math:`S` replaced by an
    element not in :math:`T` -- its nearest such neighbour when ``hard_negative`` (else a random one).

    Parameters
    ----------
    ground : "finite" (one-hot vectors of ``n_ground`` elements), "r2" (a Gaussian-mixture pool of
        ``n_ground`` points, drawn with seed ``10_000``), or an array (P, d) of ground points.

    Returns
    -------
    dict of float32 tensors: ``XS, mS`` (n_pairs, N, d)/(n_pairs, N), ``XT, mT``, ``y`` (n_pairs,)
    """
    lo, hi = size_range
    elo, ehi = extra_range
    if n_pairs < 2 or not 1 <= lo <= hi or not 0 <= elo <= ehi or (elo == 0 and hard_negative is None):
        raise ValueError("bad sizes: need n_pairs >= 2, 1 <= lo <= hi, 0 <= elo <= ehi")
    if isinstance(ground, str):
        if ground == "finite":
            pool = np.eye(n_ground)
        elif ground == "r2":
            pool = make_ground_pool(n_ground, seed=10_000)
        else:
            raise ValueError(f"ground must be 'finite', 'r2' or an array; got {ground!r}")
    else:
        pool = np.asarray(ground, dtype=float)
    P = len(pool)
    if hi + ehi + 1 > P:
        raise ValueError(f"ground set of {P} elements too small for sets of size up to {hi + ehi}")
    rng = np.random.default_rng(seed)
    D2 = ((pool[:, None] - pool[None]) ** 2).sum(-1)
    y = np.arange(n_pairs) % 2 == 0
    Ss, Ts = [], []
    for b in range(n_pairs):
        k, e = rng.integers(lo, hi + 1), rng.integers(elo, ehi + 1)
        idx = rng.choice(P, size=k + e, replace=False)
        S, T = idx[:k].copy(), idx
        if not y[b]:
            j = rng.integers(k)
            outside = np.setdiff1d(np.arange(P), T)
            S[j] = outside[np.argmin(D2[S[j], outside])] if hard_negative else rng.choice(outside)
        Ss.append(pool[S])
        Ts.append(pool[T])
    N = hi + ehi
    XS, mS = _pad(Ss, N, pool.shape[1])
    XT, mT = _pad(Ts, N, pool.shape[1])
    f = lambda a: torch.tensor(a, dtype=torch.float32)  # noqa: E731
    return {"XS": f(XS), "mS": f(mS), "XT": f(XT), "mT": f(mT), "y": torch.tensor(y, dtype=torch.float32)}


def random_superset_pairs(n_pairs: int, ground: np.ndarray, size_range: tuple[int, int] = (1, 30),
                          extra_range: tuple[int, int] = (1, 10), seed: int = 0):
    """Random pairs :math:`S \\subset S \\cup E` on one shared element array: returns ``X (B, N, d), mS, mT``
    (float32 tensors) with ``mS <= mT`` -- the input of :func:`monotonicity_violations`."""
    lo, hi = size_range
    if n_pairs < 1 or not 1 <= lo <= hi:
        raise ValueError("need n_pairs >= 1 and 1 <= lo <= hi")
    rng = np.random.default_rng(seed)
    pool = np.asarray(ground, dtype=float)
    N = hi + extra_range[1]
    X = pool[rng.integers(len(pool), size=(n_pairs, N))]
    k = rng.integers(lo, hi + 1, n_pairs)
    e = rng.integers(extra_range[0], extra_range[1] + 1, n_pairs)
    pos = np.arange(N)
    mS = (pos < k[:, None]).astype(float)
    mT = (pos < (k + e)[:, None]).astype(float)
    f = lambda a: torch.tensor(a, dtype=torch.float32)  # noqa: E731
    return f(X), f(mS), f(mT)
