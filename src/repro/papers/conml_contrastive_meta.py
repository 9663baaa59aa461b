r"""ConML: a contrastive meta-objective over the models that a meta-learner builds.

Paper map
---------
*Learning to Learn with Contrastive Meta-Objective* (earlier title *ConML: A Universal Meta-Learning
Framework with Task-Level Contrastive Learning*), Shiguang Wu, Yaqing Wang, Yatao Bian, Quanming Yao,
NeurIPS 2025, https://arxiv.org/abs/2410.05975. No official code was found; everything below is our own
implementation from the abstract and the reproduction brief.
Notebook: ``notebooks/conml-contrastive-meta.py``.

Notation (paper -> here):

- task :math:`\tau` with data :math:`\mathcal D_\tau = (\mathcal D^{tr}_\tau, \mathcal D^{val}_\tau)`
  (support and query set) -> one row of a batch of episodes, ``support_x[r, b]``, ``query_x[r, b]``;
  ``r`` indexes independent replicas (seeds and variants trained side by side), ``b`` the tasks.
- meta-learner :math:`g_\theta`, mapping a support set to a task-specific model
  :math:`h = g_\theta(\mathcal D^{tr}_\tau)` -> :class:`CNP` (``h`` = the aggregated context vector
  :math:`r_\tau`), :class:`RidgeHead` (``h`` = the closed-form ridge weights :math:`w_\tau` on learned
  features), :class:`ProtoNet` (``h`` = the class prototypes, concatenated).
- subsets :math:`\mathcal S^k_\tau \subset \mathcal D^{tr}_\tau`, :math:`k=1..K` -> :func:`subset_masks`
  (boolean masks over the support points; a model built from a subset is the same meta-learner applied
  with the mask).
- inner-task distance :math:`d_{in}` (models of the same task, to be reduced: *alignment*) and inter-task
  distance :math:`d_{out}` (models of different tasks, to be increased: *discrimination*), with the cosine
  distance :math:`\phi(a,b) = 1 - a\cdot b/(\|a\|\|b\|)` -> :func:`conml_distances`.
- contrastive meta-objective :math:`\mathcal L = \mathcal L_{val} + \lambda\,(d_{in} - d_{out})` (or an
  InfoNCE over the tasks of a meta-batch, temperature :math:`\tau_c`) -> :func:`conml_loss`
  (``kind="distance"`` or ``"infonce"``), :func:`conml_infonce`.

Every model holds its parameters with a leading replica axis ``R`` (:class:`BatchedMLP`), so that
several seeds and several variants of the objective (plain, ConML, controls) are trained in one batched
computation; the replicas share no parameter and Adam is elementwise (:class:`ReplicaAdam`, with a learning
rate per replica), so this is the same as training them one by one.

Comparators (none of the paper's ideas): the plain learner on another stream of tasks
(:func:`stack_streams`), the plain learner with a learning rate tuned on meta-validation tasks
(:func:`select_by_validation`), with L2 weight decay (:class:`ReplicaAdam`'s ``weight_decay``), or trained on
random subsets of the context as well (:func:`subset_query_loss`), Gaussian-process regression with
hyper-parameters fitted on meta-training tasks (:func:`rbf_gp_mean`, :func:`fit_rbf_gp`), pre-trained
features with a fine-tuned logistic-regression head (:func:`pretrain_classifier`, :func:`fit_logistic_head`,
:func:`logistic_head_error`), and prototypes in a fixed feature map, raw pixels or an untrained encoder
(:class:`FixedEncoderProtoNet`).
"""

from __future__ import annotations

import math

import numpy as np
import torch
from torch import Tensor, nn


# --------------------------------------------------------------------------- validation helpers
def _pos_int(x: object, name: str, least: int = 1) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < least:
        raise ValueError(f"{name} must be an int >= {least}; got {x!r}")
    return int(x)


def _shape(shape: int | tuple[int, ...], name: str) -> tuple[int, ...]:
    shape = (shape,) if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool) else tuple(shape)
    for s in shape:
        _pos_int(s, name)
    return shape


# --------------------------------------------------------------------------- data: sinusoid tasks
def sample_sinusoid_tasks(
    shape: int | tuple[int, ...],
    n_points: int,
    rng: np.random.Generator,
    amplitude: tuple[float, float] = (0.1, 5.0),
    phase: tuple[float, float] = (0.0, math.pi),
    x_range: tuple[float, float] = (-5.0, 5.0),
) -> tuple[Tensor, Tensor, Tensor]:
    r"""Sinusoid regression tasks :math:`y = A\sin(x - \varphi)` (Finn et al. 2017, Sec. 5.1).

    Parameters
    ----------
    shape : int or tuple of int
        Batch shape of the tasks (for example ``(n_seeds, n_tasks)``).
    n_points : int
        Points per task (support and query together; split them by slicing).
    rng : numpy.random.Generator
    amplitude, phase, x_range : (low, high)
        Uniform ranges of :math:`A`, :math:`\varphi` and :math:`x`.

    Returns
    -------
    x, y : Tensor, shape ``(*shape, n_points, 1)``, float32
    params : Tensor, shape ``(*shape, 2)``
        :math:`(A, \varphi)` of each task.
    """
    shape = _shape(shape, "shape")
    n_points = _pos_int(n_points, "n_points")
    for lo_hi, name in ((amplitude, "amplitude"), (phase, "phase"), (x_range, "x_range")):
        if len(lo_hi) != 2 or not lo_hi[0] < lo_hi[1]:
            raise ValueError(f"{name} must be (low, high) with low < high; got {lo_hi!r}")
    A = rng.uniform(*amplitude, size=shape)
    ph = rng.uniform(*phase, size=shape)
    x = rng.uniform(*x_range, size=(*shape, n_points))
    y = A[..., None] * np.sin(x - ph[..., None])
    as_t = lambda a: torch.as_tensor(a, dtype=torch.float32)  # noqa: E731
    return as_t(x)[..., None], as_t(y)[..., None], as_t(np.stack([A, ph], axis=-1))


# --------------------------------------------------------------------------- data: digits episodes
def digits_meta_split(train_classes: tuple[int, ...] = (0, 1, 2, 3, 4, 5),
                      test_classes: tuple[int, ...] = (6, 7, 8, 9)) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's 8x8 digits, pixels scaled to [0, 1], with labels (meta-train/meta-test by class).

    Returns
    -------
    X : ndarray, shape ``(1797, 64)``, float32
    y : ndarray, shape ``(1797,)``, int
        The digit; classes in ``train_classes`` are for meta-training, those in ``test_classes`` for
        meta-testing (checked to be disjoint).
    """
    if set(train_classes) & set(test_classes):
        raise ValueError(f"meta-train and meta-test classes overlap: {set(train_classes) & set(test_classes)}")
    from sklearn.datasets import load_digits

    d = load_digits()
    return (d.data / 16.0).astype(np.float32), d.target.astype(np.int64)


def sample_class_episodes(
    X: np.ndarray, y: np.ndarray, classes: tuple[int, ...], shape: int | tuple[int, ...],
    n_way: int, k_shot: int, n_query: int, rng: np.random.Generator,
) -> tuple[Tensor, Tensor, Tensor]:
    """N-way K-shot classification episodes (Vinyals et al. 2016), vectorised over episodes.

    Each episode draws ``n_way`` of ``classes`` in random order (its labels ``0..n_way-1`` follow that
    order) and, per class, ``k_shot + n_query`` distinct examples.

    Returns
    -------
    support : Tensor, shape ``(*shape, n_way, k_shot, d)``
    query : Tensor, shape ``(*shape, n_way, n_query, d)``
        ``support[..., c, :, :]`` and ``query[..., c, :, :]`` belong to label ``c``.
    classes_used : Tensor, shape ``(*shape, n_way)``
        The digit behind each label.
    """
    shape = _shape(shape, "shape")
    n_way, k_shot, n_query = (_pos_int(v, n) for v, n in ((n_way, "n_way"), (k_shot, "k_shot"), (n_query, "n_query")))
    classes = np.asarray(classes)
    if n_way > len(classes):
        raise ValueError(f"n_way = {n_way} is more than the {len(classes)} classes available")
    pools = [np.flatnonzero(y == c) for c in classes]
    if min(len(p) for p in pools) < k_shot + n_query:
        raise ValueError("a class has fewer than k_shot + n_query examples")
    m = max(len(p) for p in pools)
    pool = np.full((len(classes), m), -1)
    for i, p in enumerate(pools):
        pool[i, : len(p)] = p
    E = int(np.prod(shape))
    cls = np.argsort(rng.random((E, len(classes))), axis=1)[:, :n_way]          # (E, W) class slots
    keys = rng.random((E, n_way, m))
    keys[pool[cls] < 0] = np.inf                                                   # padding never drawn
    pick = np.argsort(keys, axis=2)[:, :, : k_shot + n_query]                      # (E, W, k+q)
    idx = np.take_along_axis(pool[cls], pick, axis=2)
    data = torch.as_tensor(X[idx]).reshape(*shape, n_way, k_shot + n_query, X.shape[1])
    return data[..., :k_shot, :], data[..., k_shot:, :], torch.as_tensor(classes[cls]).reshape(*shape, n_way)


def subset_masks(shape: int | tuple[int, ...], n_items: int, size: int, rng: np.random.Generator) -> Tensor:
    r"""Uniformly random subsets :math:`\mathcal S \subset \{1..n\}` of a fixed size, as boolean masks.

    Returns
    -------
    Tensor, shape ``(*shape, n_items)``, bool, with exactly ``size`` True entries per row.
    """
    shape = _shape(shape, "shape")
    n_items = _pos_int(n_items, "n_items")
    size = _pos_int(size, "size")
    if size > n_items:
        raise ValueError(f"size = {size} exceeds n_items = {n_items}")
    ranks = np.argsort(np.argsort(rng.random((*shape, n_items)), axis=-1), axis=-1)
    return torch.as_tensor(ranks < size)


def masked_mean(v: Tensor, mask: Tensor | None, dim: int) -> Tensor:
    """Mean of ``v`` over axis ``dim`` counting only entries where ``mask`` is True (all if None).

    ``mask`` has ``v``'s shape without its last axis (the feature axis) and broadcasts against it;
    every masked slice must keep at least one entry.
    """
    if mask is None:
        return v.mean(dim)
    m = mask.to(v.dtype).unsqueeze(-1)
    count = m.sum(dim)
    if bool((count == 0).any()):
        raise ValueError("masked_mean: a mask selects no entry")
    return (v * m).sum(dim) / count


# --------------------------------------------------------------------------- models
class BatchedMLP(nn.Module):
    r"""``R`` independent MLPs evaluated at once: ``x (R, N, d_in) -> (R, N, d_out)``.

    Layers ``W_l`` of shape ``(R, d_l, d_{l+1})`` with ReLU between them, initialised as
    :class:`torch.nn.Linear` (uniform on :math:`\pm 1/\sqrt{d_l}`). Replicas are laid out
    variant-major, ``r = v * n_seeds + s``: the ``n_variants`` copies of seed ``s`` start from the same
    weights (paired comparisons), the seeds from different ones.
    """

    def __init__(self, sizes: tuple[int, ...], n_seeds: int, n_variants: int = 1,
                 generator: torch.Generator | None = None):
        super().__init__()
        if len(sizes) < 2:
            raise ValueError(f"sizes needs at least an input and an output size; got {sizes!r}")
        for s in sizes:
            _pos_int(s, "layer size")
        n_seeds, n_variants = _pos_int(n_seeds, "n_seeds"), _pos_int(n_variants, "n_variants")
        self.sizes, self.n_seeds, self.n_variants = tuple(sizes), n_seeds, n_variants
        self.weights, self.biases = nn.ParameterList(), nn.ParameterList()
        for a, b in zip(sizes[:-1], sizes[1:]):
            bound = 1.0 / math.sqrt(a)
            W = (torch.rand(n_seeds, a, b, generator=generator) * 2 - 1) * bound
            c = (torch.rand(n_seeds, 1, b, generator=generator) * 2 - 1) * bound
            self.weights.append(nn.Parameter(W.repeat(n_variants, 1, 1)))
            self.biases.append(nn.Parameter(c.repeat(n_variants, 1, 1)))

    @property
    def n_replicas(self) -> int:
        return self.n_seeds * self.n_variants

    def forward(self, x: Tensor) -> Tensor:
        """``x`` of shape ``(R, ..., d_in)`` -> ``(R, ..., d_out)``."""
        if x.shape[0] != self.n_replicas or x.shape[-1] != self.sizes[0]:
            raise ValueError(f"expected input (R={self.n_replicas}, ..., {self.sizes[0]}); got {tuple(x.shape)}")
        lead = x.shape[1:-1]
        h = x.reshape(x.shape[0], -1, x.shape[-1])
        for i, (W, b) in enumerate(zip(self.weights, self.biases)):
            h = torch.baddbmm(b, h, W)
            if i < len(self.weights) - 1:
                h = torch.relu(h)
        return h.reshape(x.shape[0], *lead, h.shape[-1])


class CNP(nn.Module):
    r"""Conditional neural process (Garnelo et al. 2018), amortisation-based meta-learner.

    Encoder :math:`e_i = f_{enc}([x_i, y_i])`, task representation :math:`r_\tau = \frac1n\sum_i e_i`
    (a masked mean for a subset), prediction :math:`\hat y = f_{dec}([r_\tau, x])`. The model
    representation used by ConML is :math:`h = r_\tau`.
    """

    def __init__(self, hidden: int, n_seeds: int, n_variants: int = 1, x_dim: int = 1, y_dim: int = 1,
                 generator: torch.Generator | None = None):
        super().__init__()
        hidden = _pos_int(hidden, "hidden")
        self.encoder = BatchedMLP((x_dim + y_dim, hidden, hidden, hidden), n_seeds, n_variants, generator)
        self.decoder = BatchedMLP((hidden + x_dim, hidden, hidden, y_dim), n_seeds, n_variants, generator)

    def represent(self, xs: Tensor, ys: Tensor, mask: Tensor | None = None) -> Tensor:
        """``xs, ys (R, B, n, 1)``, ``mask (R, B, [V,] n)`` -> ``r (R, B, [V,] hidden)``."""
        return self.aggregate(self.encoder(torch.cat([xs, ys], -1)), mask)

    @staticmethod
    def aggregate(e: Tensor, mask: Tensor | None = None) -> Tensor:
        """Mean of the point embeddings ``e (R, B, n, h)`` over the (masked) points; ``mask (R, B, [V,] n)``."""
        if mask is not None and mask.dim() == e.dim():      # several views: (R, B, V, n)
            return masked_mean(e.unsqueeze(2), mask, dim=3)
        return masked_mean(e, mask, dim=2)

    def represent_views(self, xs: Tensor, ys: Tensor, masks: Tensor) -> tuple[Tensor, Tensor]:
        """Full-set and subset representations with one pass of the encoder: ``(R, B, h), (R, B, V, h)``."""
        e = self.encoder(torch.cat([xs, ys], -1))
        return self.aggregate(e), self.aggregate(e, masks)

    def predict(self, r: Tensor, xq: Tensor) -> Tensor:
        """``r (R, B, hidden)``, ``xq (R, B, m, 1)`` -> ``y_hat (R, B, m, 1)``."""
        rr = r.unsqueeze(2).expand(*xq.shape[:-1], r.shape[-1])
        return self.decoder(torch.cat([rr, xq], -1))


class RidgeHead(nn.Module):
    r"""Learned features with a closed-form ridge-regression head (Bertinetto et al. 2019, R2-D2).

    Features :math:`\phi(x)` (an MLP, plus a constant 1); per task the head solves
    :math:`w_\tau = \arg\min_w \sum_{i\in\mathcal S} (\phi(x_i)^\top w - y_i)^2 + \rho\|w\|^2`,
    i.e. :math:`w_\tau = (\Phi^\top M\Phi + \rho I)^{-1}\Phi^\top M y` with :math:`M` the subset mask;
    the inner loop is solved exactly, so this is an optimisation-based meta-learner whose task-specific
    model is :math:`w_\tau` (the representation used by ConML).
    """

    def __init__(self, hidden: int, n_seeds: int, n_variants: int = 1, ridge: float = 0.1, x_dim: int = 1,
                 generator: torch.Generator | None = None):
        super().__init__()
        hidden = _pos_int(hidden, "hidden")
        if not ridge > 0:
            raise ValueError(f"ridge must be > 0; got {ridge!r}")
        self.ridge = float(ridge)
        self.features = BatchedMLP((x_dim, hidden, hidden), n_seeds, n_variants, generator)

    def phi(self, x: Tensor) -> Tensor:
        """``x (R, ..., 1)`` -> features with a bias column ``(R, ..., hidden + 1)``."""
        f = torch.relu(self.features(x))
        return torch.cat([f, torch.ones_like(f[..., :1])], -1)

    def represent(self, xs: Tensor, ys: Tensor, mask: Tensor | None = None) -> Tensor:
        """``xs, ys (R, B, n, 1)``, ``mask (R, B, [V,] n)`` -> ``w (R, B, [V,] hidden + 1)``."""
        return self.solve(self.phi(xs), ys, mask)

    def solve(self, F: Tensor, ys: Tensor, mask: Tensor | None = None) -> Tensor:
        """Ridge weights from features ``F (R, B, n, p)`` and targets ``ys (R, B, n, 1)`` (masked: a subset)."""
        if mask is not None and mask.dim() == F.dim():
            F, ys = F.unsqueeze(2), ys.unsqueeze(2)
        m = torch.ones(F.shape[:-1], dtype=F.dtype) if mask is None else mask.to(F.dtype)
        Fm = F * m.unsqueeze(-1)
        G = Fm.transpose(-1, -2) @ F + self.ridge * torch.eye(F.shape[-1], dtype=F.dtype)
        rhs = Fm.transpose(-1, -2) @ ys.expand(*F.shape[:-1], 1)
        return torch.linalg.solve(G, rhs).squeeze(-1)

    def represent_views(self, xs: Tensor, ys: Tensor, masks: Tensor) -> tuple[Tensor, Tensor]:
        """Full-set and subset ridge weights with one pass of the features: ``(R, B, p), (R, B, V, p)``."""
        F = self.phi(xs)
        return self.solve(F, ys), self.solve(F, ys, masks)

    def predict(self, w: Tensor, xq: Tensor) -> Tensor:
        """``w (R, B, hidden + 1)``, ``xq (R, B, m, 1)`` -> ``y_hat (R, B, m, 1)``."""
        return self.phi(xq) @ w.unsqueeze(-1)


class ProtoNet(nn.Module):
    r"""Prototypical network (Snell et al. 2017), metric-based meta-learner.

    Prototype of class :math:`c`: :math:`p_c = \frac1{|S_c|}\sum_{i\in S_c} f(x_i)`; a query is
    classified by :math:`\mathrm{softmax}_c(-\|f(x)-p_c\|^2)`. The model representation used by ConML is
    the prototypes concatenated in label order, :math:`h = [p_1;\dots;p_N]`.
    """

    def __init__(self, sizes: tuple[int, ...], n_seeds: int, n_variants: int = 1,
                 generator: torch.Generator | None = None):
        super().__init__()
        self.encoder = BatchedMLP(sizes, n_seeds, n_variants, generator)

    def represent(self, support: Tensor, mask: Tensor | None = None) -> Tensor:
        """``support (R, B, W, k, d)``, ``mask (R, B, [V,] W, k)`` -> prototypes ``(R, B, [V,] W, e)``."""
        return self.prototypes(self.encoder(support), mask)

    @staticmethod
    def prototypes(z: Tensor, mask: Tensor | None = None) -> Tensor:
        """Class means of embedded support points ``z (R, B, W, k, e)`` (masked: a subset of the shots)."""
        if mask is not None and mask.dim() == z.dim():
            return masked_mean(z.unsqueeze(2), mask, dim=4)
        return masked_mean(z, mask, dim=3)

    def represent_views(self, support: Tensor, masks: Tensor) -> tuple[Tensor, Tensor]:
        """Full-set and subset prototypes with one pass of the encoder: ``(R, B, W, e), (R, B, V, W, e)``."""
        z = self.encoder(support)
        return self.prototypes(z), self.prototypes(z, masks)

    def logits(self, protos: Tensor, query: Tensor) -> Tensor:
        """``protos (R, B, W, e)``, ``query (R, B, W, q, d)`` -> logits ``(R, B, W*q, W)``."""
        zq = self.encoder(query).flatten(2, 3)
        return -torch.cdist(zq, protos) ** 2


class FixedEncoderProtoNet(ProtoNet):
    r"""Nearest class mean in a fixed feature map: a prototypical network that is never meta-trained.

    Prototypes :math:`p_c = \frac1{|S_c|}\sum_{i\in S_c} f(x_i)` and the rule
    :math:`\arg\max_c -\|f(x)-p_c\|^2` of :class:`ProtoNet` (Snell et al. 2017), with ``f`` given and
    frozen: the identity gives the nearest-centroid classifier on raw pixels (the *raw-pixel prototypes*
    baseline); a copy of a ProtoNet's initial encoder gives the *untrained encoder* baseline. Works with
    :func:`task_models`, :func:`query_loss` and :func:`evaluate` like a ProtoNet; its models (the prototypes)
    are comparable by :func:`conml_distances`.

    Parameters
    ----------
    encoder : nn.Module, optional
        The fixed feature map, applied to ``(R, ..., d)`` inputs (default: the identity, raw features).
    """

    def __init__(self, encoder: nn.Module | None = None):
        nn.Module.__init__(self)
        if encoder is not None and not isinstance(encoder, nn.Module):
            raise ValueError(f"encoder must be an nn.Module; got {type(encoder).__name__}")
        self.encoder = encoder if encoder is not None else nn.Identity()
        for p in self.encoder.parameters():
            p.requires_grad_(False)


# --------------------------------------------------------------------------- the contrastive meta-objective
def cosine_distance_matrix(h: Tensor, eps: float = 1e-8) -> Tensor:
    r"""Pairwise cosine distances :math:`\phi(h_i,h_j) = 1 - \cos(h_i,h_j)`, ``(..., N, d) -> (..., N, N)``."""
    if h.dim() < 2:
        raise ValueError(f"h must have shape (..., N, d); got {tuple(h.shape)}")
    u = h / h.norm(dim=-1, keepdim=True).clamp_min(eps)
    return 1.0 - u @ u.transpose(-1, -2)


def _pair_masks(task_ids: Tensor, n: int) -> tuple[Tensor, Tensor]:
    if task_ids.shape[-1] != n:
        raise ValueError(f"task_ids has {task_ids.shape[-1]} entries for {n} representations")
    same = task_ids.unsqueeze(-1) == task_ids.unsqueeze(-2)
    off = ~torch.eye(n, dtype=torch.bool)
    return same & off, ~same


def conml_distances(reprs: Tensor, task_ids: Tensor) -> tuple[Tensor, Tensor]:
    r"""Inner- and inter-task distances of model representations (the brief's Sec. 3).

    .. math:: d_{in} = \operatorname{mean}_{i\ne j,\ t_i = t_j} \phi(h_i, h_j), \qquad
              d_{out} = \operatorname{mean}_{t_i \ne t_j} \phi(h_i, h_j),

    with :math:`\phi` the cosine distance; ``h_i`` are the models built from different subsets (views)
    of the tasks ``t_i``.

    Parameters
    ----------
    reprs : Tensor, shape ``(..., N, d)``
    task_ids : Tensor, shape ``(N,)`` or ``(..., N)``, int
        Task of each representation; at least one pair must share a task and one pair must not.

    Returns
    -------
    d_in, d_out : Tensor, shape ``(...)``
    """
    n = reprs.shape[-2]
    same, diff = _pair_masks(task_ids, n)
    if bool((same.sum((-1, -2)) == 0).any()) or bool((diff.sum((-1, -2)) == 0).any()):
        raise ValueError("conml_distances needs at least one same-task pair and one different-task pair")
    D = cosine_distance_matrix(reprs)
    s, d = same.to(D.dtype), diff.to(D.dtype)
    return (D * s).sum((-1, -2)) / s.sum((-1, -2)), (D * d).sum((-1, -2)) / d.sum((-1, -2))


def conml_infonce(reprs: Tensor, task_ids: Tensor, temperature: float = 0.1) -> Tensor:
    r"""InfoNCE over model representations: positives share a task, negatives are other tasks' models.

    .. math:: \ell = -\operatorname{mean}_{i}\operatorname{mean}_{j\in P(i)}
              \log\frac{\exp(\cos(h_i,h_j)/\tau_c)}{\sum_{k\ne i}\exp(\cos(h_i,h_k)/\tau_c)}

    Parameters
    ----------
    reprs : Tensor, shape ``(..., N, d)``
    task_ids : Tensor, shape ``(N,)`` or ``(..., N)``; every representation needs a positive.
    temperature : float > 0

    Returns
    -------
    Tensor, shape ``(...)``
    """
    if not temperature > 0:
        raise ValueError(f"temperature must be > 0; got {temperature!r}")
    n = reprs.shape[-2]
    pos, _ = _pair_masks(task_ids, n)
    if bool((pos.sum(-1) == 0).any()):
        raise ValueError("conml_infonce: every representation needs another one of the same task")
    sim = (1.0 - cosine_distance_matrix(reprs)) / temperature
    sim = sim.masked_fill(torch.eye(n, dtype=torch.bool), float("-inf"))
    logp = sim - torch.logsumexp(sim, dim=-1, keepdim=True)
    p = pos.to(reprs.dtype)
    per_anchor = -(logp.masked_fill(~pos, 0.0) * p).sum(-1) / p.sum(-1)
    return per_anchor.mean(-1)


def conml_loss(base_loss: Tensor, reprs: Tensor, task_ids: Tensor, lam: float | Tensor,
               kind: str = "distance", temperature: float = 0.1) -> Tensor:
    r"""The contrastive meta-objective :math:`\mathcal L = \mathcal L_{val} + \lambda\,\mathcal L_c`.

    ``kind="distance"``: :math:`\mathcal L_c = d_{in} - d_{out}` (:func:`conml_distances`);
    ``kind="infonce"``: :math:`\mathcal L_c` = :func:`conml_infonce`.

    Parameters
    ----------
    base_loss : Tensor, shape ``(...)``
        The meta-learner's own validation (query) loss per replica.
    reprs, task_ids : see :func:`conml_distances`
    lam : float or Tensor of shape ``(...)``
        Weight of the contrastive term per replica (0 gives back ``base_loss``, with a zero gradient
        through ``reprs``).
    """
    if kind == "distance":
        d_in, d_out = conml_distances(reprs, task_ids)
        lc = d_in - d_out
    elif kind == "infonce":
        lc = conml_infonce(reprs, task_ids, temperature)
    else:
        raise ValueError(f"kind must be 'distance' or 'infonce'; got {kind!r}")
    lam = torch.as_tensor(lam, dtype=lc.dtype)
    if bool(torch.isnan(lam).any()):
        raise ValueError("lam is NaN")
    return base_loss + lam * lc


# --------------------------------------------------------------------------- episodic meta-training
def task_models(model: nn.Module, support: tuple[Tensor, ...], masks: Tensor) -> tuple[Tensor, Tensor]:
    r"""The models a meta-learner builds from a whole support set and from ``V`` subsets of it.

    Parameters
    ----------
    model : CNP, RidgeHead or ProtoNet
    support : ``(xs, ys)`` of shape ``(R, B, n, 1)`` each (regression) or ``(xs,)`` of shape
        ``(R, B, W, k, d)`` (classification)
    masks : Tensor, bool, ``(R, B, V, n)`` (regression) or ``(R, B, V, W, k)`` (classification)

    Returns
    -------
    h_full : Tensor, ``(R, B, D)``: :math:`g_\theta(\mathcal D^{tr}_\tau)`, flattened
    h_views : Tensor, ``(R, B, V, D)``: :math:`g_\theta(\mathcal S^k_\tau)`, flattened
    """
    if isinstance(model, ProtoNet):
        full, views = model.represent_views(support[0], masks)
        return full.flatten(-2), views.flatten(-2)
    if isinstance(model, (CNP, RidgeHead)):
        return model.represent_views(*support, masks)
    raise ValueError(f"unknown meta-learner {type(model).__name__}")


def query_loss(model: nn.Module, h_full: Tensor, query: tuple[Tensor, ...]) -> tuple[Tensor, Tensor]:
    """Validation loss and metric on the query set, per replica and task.

    Returns ``(loss, metric)`` of shape ``(R, B)``: mean squared error twice (regression), or
    cross-entropy and error rate (classification; ``query (R, B, W, q, d)``, label = class slot).
    """
    if isinstance(model, ProtoNet):
        (xq,) = query
        R, B, W, q = xq.shape[:4]
        logits = model.logits(h_full.reshape(R, B, W, -1), xq)
        labels = torch.arange(W).repeat_interleave(q).expand(R, B, W * q)
        logp = torch.log_softmax(logits, -1)
        ce = -logp.gather(-1, labels.unsqueeze(-1)).squeeze(-1).mean(-1)
        err = (logits.argmax(-1) != labels).to(logits.dtype).mean(-1)
        return ce, err
    if isinstance(model, (CNP, RidgeHead)):
        xq, yq = query
        mse = ((model.predict(h_full, xq) - yq) ** 2).mean((-1, -2))
        return mse, mse.detach()
    raise ValueError(f"unknown meta-learner {type(model).__name__}")


def view_task_ids(n_tasks: int, n_views: int, n_replicas: int, shuffled: Tensor,
                  rng: np.random.Generator) -> Tensor:
    """Task identity of each of the ``n_tasks * (n_views + 1)`` models per replica, ``(R, B*(V+1))``.

    Rows are laid out task-major (the ``V`` subset models of task 0, then its full-set model, then task
    1, ...). For replicas with ``shuffled[r]`` the identities are randomly permuted: the *null pairing*
    control, in which "same task" pairs are mostly models of different tasks.
    """
    shuffled = torch.as_tensor(shuffled, dtype=torch.bool)
    if shuffled.shape != (n_replicas,):
        raise ValueError(f"shuffled must have shape ({n_replicas},); got {tuple(shuffled.shape)}")
    ids = torch.arange(n_tasks).repeat_interleave(n_views + 1).expand(n_replicas, -1).clone()
    if bool(shuffled.any()):
        perm = torch.as_tensor(np.argsort(rng.random((int(shuffled.sum()), ids.shape[1])), axis=1))
        ids[shuffled] = ids[shuffled].gather(1, perm)
    return ids


def contrast_set(h_full: Tensor, h_views: Tensor) -> Tensor:
    """Stack the subset models and the full-set model of every task: ``(R, B, D), (R, B, V, D) -> (R, B*(V+1), D)``."""
    return torch.cat([h_views, h_full.unsqueeze(2)], 2).flatten(1, 2)


def subset_query_loss(model: nn.Module, h_views: Tensor, query: tuple[Tensor, ...]) -> Tensor:
    r"""Query loss of the models built from the support *subsets*, averaged over the subsets and tasks.

    :math:`\operatorname{mean}_\tau \operatorname{mean}_k \mathcal L_{val}(g_\theta(\mathcal S^k_\tau),
    \mathcal D^{val}_\tau)`: training on random subsets of the context, as CNPs are usually trained with
    random context sizes (Garnelo et al. 2018). It uses the subsets but no contrast between models: the
    *subset-training* baseline.

    Parameters
    ----------
    model : CNP, RidgeHead or ProtoNet
    h_views : Tensor ``(R, B, V, D)``, the subset models (:func:`task_models`)
    query : as for :func:`query_loss`

    Returns
    -------
    Tensor ``(R,)``
    """
    if h_views.dim() != 4:
        raise ValueError(f"h_views must be (R, B, V, D); got shape {tuple(h_views.shape)}")
    return torch.stack([query_loss(model, h_views[:, :, k], query)[0].mean(-1)
                        for k in range(h_views.shape[2])]).mean(0)


def meta_train_step(model: nn.Module, support: tuple[Tensor, ...], query: tuple[Tensor, ...], masks: Tensor,
                    lam: Tensor, ids: Tensor, subset_training: Tensor | None = None) -> tuple[Tensor, Tensor, Tensor]:
    r"""One episodic meta-training objective, summed over replicas (Algorithm: ConML on a meta-batch).

    :math:`\sum_r \big[\operatorname{mean}_\tau \mathcal L_{val}(g_\theta(\mathcal D^{tr}_\tau),
    \mathcal D^{val}_\tau) + \lambda_r (d_{in} - d_{out})\big]`, where the distances are taken over the
    subset and full-set models of the meta-batch's tasks, identified by ``ids``. For replicas with
    ``subset_training[r]`` the validation term is :math:`\tfrac12` the full-set models' query loss plus
    :math:`\tfrac12` the subset models' (:func:`subset_query_loss`).

    Returns the scalar objective and, per replica, the full-set models' validation loss and
    :math:`d_{in}-d_{out}`.
    """
    h_full, h_views = task_models(model, support, masks)
    loss, _ = query_loss(model, h_full, query)
    reprs = contrast_set(h_full, h_views)
    lval = loss.mean(-1)
    objective = lval
    if subset_training is not None:
        subset_training = torch.as_tensor(subset_training, dtype=torch.bool)
        if subset_training.shape != lval.shape:
            raise ValueError(f"subset_training must have shape {tuple(lval.shape)}; got {tuple(subset_training.shape)}")
        if bool(subset_training.any()):
            objective = torch.where(subset_training, 0.5 * lval + 0.5 * subset_query_loss(model, h_views, query),
                                    lval)
    total = conml_loss(objective, reprs, ids, lam)
    with torch.no_grad():
        d_in, d_out = conml_distances(reprs, ids)
    return total.sum(), lval.detach(), d_in - d_out


@torch.no_grad()
def evaluate(model: nn.Module, support: tuple[Tensor, ...], query: tuple[Tensor, ...], masks: Tensor,
             chunk: int = 250) -> dict[str, Tensor]:
    r"""Meta-test a trained meta-learner on held-out tasks (same tasks for every replica).

    Returns, per replica ``(R,)``: ``metric`` (mean query MSE or error rate over the tasks), and
    ``d_in``, ``d_out``, ``ratio`` :math:`= d_{in}/d_{out}` of the subset and full-set models of the
    held-out tasks, with their true identities, averaged over chunks of ``chunk`` tasks.
    """
    R, T = support[0].shape[:2]
    metric, d_in, d_out = [], [], []
    for lo in range(0, T, chunk):
        sl = slice(lo, min(T, lo + chunk))
        s, q, m = tuple(a[:, sl] for a in support), tuple(a[:, sl] for a in query), masks[:, sl]
        h_full, h_views = task_models(model, s, m)
        metric.append(query_loss(model, h_full, q)[1])
        B, V = m.shape[1], m.shape[2]
        ids = torch.arange(B).repeat_interleave(V + 1)
        a, b = conml_distances(contrast_set(h_full, h_views), ids)
        d_in.append(a * B), d_out.append(b * B)
    met = torch.cat(metric, 1).mean(1)
    di, do = sum(d_in) / T, sum(d_out) / T
    return {"metric": met, "d_in": di, "d_out": do, "ratio": di / do}


# --------------------------------------------------------------------------- batches and the training loop
def _tile(a: Tensor, n_variants: int) -> Tensor:
    """``(S, ...) -> (V*S, ...)``: the variants of one seed see the same data (variant-major layout)."""
    return a.repeat(n_variants, *[1] * (a.dim() - 1))


def sinusoid_batch(n_seeds: int, n_variants: int, n_tasks: int, n_shot: int, n_query: int, n_views: int,
                   view_size: int, rng: np.random.Generator) -> tuple[tuple[Tensor, Tensor], tuple[Tensor, Tensor], Tensor]:
    """A meta-batch of sinusoid episodes for every replica, with ``n_views`` subset masks per task.

    Returns ``(xs, ys)`` of shape ``(R, n_tasks, n_shot, 1)``, ``(xq, yq)`` of shape
    ``(R, n_tasks, n_query, 1)`` and masks ``(R, n_tasks, n_views, n_shot)``; ``R = n_variants * n_seeds``,
    each seed with its own tasks, shared by its variants.
    """
    x, y, _ = sample_sinusoid_tasks((n_seeds, n_tasks), n_shot + n_query, rng)
    m = subset_masks((n_seeds, n_tasks, n_views), n_shot, view_size, rng)
    x, y, m = (_tile(a, n_variants) for a in (x, y, m))
    return (x[:, :, :n_shot], y[:, :, :n_shot]), (x[:, :, n_shot:], y[:, :, n_shot:]), m


def digits_batch(X: np.ndarray, y: np.ndarray, classes: tuple[int, ...], n_seeds: int, n_variants: int,
                 n_tasks: int, n_way: int, k_shot: int, n_query: int, n_views: int, view_size: int,
                 rng: np.random.Generator) -> tuple[tuple[Tensor], tuple[Tensor], Tensor]:
    """A meta-batch of classification episodes for every replica (see :func:`sample_class_episodes`).

    Returns ``(support,)`` ``(R, n_tasks, n_way, k_shot, d)``, ``(query,)`` ``(R, n_tasks, n_way, n_query, d)``
    and masks ``(R, n_tasks, n_views, n_way, k_shot)`` (each view keeps ``view_size`` shots of every class).
    """
    s, q, _ = sample_class_episodes(X, y, classes, (n_seeds, n_tasks), n_way, k_shot, n_query, rng)
    m = subset_masks((n_seeds, n_tasks, n_views, n_way), k_shot, view_size, rng)
    return (_tile(s, n_variants),), (_tile(q, n_variants),), _tile(m, n_variants)


def rotation_classes(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Augment 8x8 images with their rotations by 90, 180, 270 degrees as new classes (Omniglot-style).

    Returns ``(X', y')`` with 4 times as many rows; the rotation by ``90 k`` degrees of digit ``d`` gets
    label ``d + 10 k`` (``k = 0`` keeps the original images and labels).
    """
    if X.ndim != 2 or X.shape[1] != 64 or len(X) != len(y):
        raise ValueError(f"expected X of shape (n, 64) and y of shape (n,); got {X.shape}, {np.shape(y)}")
    img = X.reshape(-1, 8, 8)
    Xr = np.concatenate([np.rot90(img, k, axes=(1, 2)).reshape(-1, 64) for k in range(4)])
    return np.ascontiguousarray(Xr), np.concatenate([y + 10 * k for k in range(4)])


def meta_train(model: nn.Module, next_batch, steps: int, lam: Tensor, shuffled: Tensor, lr: float | Tensor,
               rng: np.random.Generator, wrap=lambda it: it,
               optimizer: ReplicaAdam | None = None, weight_decay: float | Tensor = 0.0,
               subset_training: Tensor | None = None) -> dict[str, np.ndarray]:
    r"""Episodic meta-training with Adam on the ConML objective of every replica (:func:`meta_train_step`).

    Parameters
    ----------
    next_batch : callable ``() -> (support, query, masks)`` with a replica axis first
    lam : Tensor ``(R,)``
        :math:`\lambda` per replica (0: the plain meta-learner; negative: the reversed objective).
    shuffled : Tensor ``(R,)``, bool
        Replicas trained with randomly permuted task identities (null pairing).
    lr : float or Tensor ``(R,)``
        Adam's learning rate, per replica if a tensor (:class:`ReplicaAdam`).
    wrap : callable
        Wraps the step iterator (a progress bar).
    optimizer : ReplicaAdam, optional
        Continue with this optimizer (and its moment estimates) instead of a fresh one: to train further.
    weight_decay : float or Tensor ``(R,)``
        L2 weight decay per replica of a fresh optimizer (:class:`ReplicaAdam`; ignored with ``optimizer``).
    subset_training : Tensor ``(R,)``, bool, optional
        Replicas whose validation term also scores the subset models (:func:`meta_train_step`).

    Returns
    -------
    dict with ``"val_loss"`` and ``"contrast"`` (:math:`d_{in}-d_{out}` with the identities used), arrays
    ``(steps, R)``.
    """
    steps = _pos_int(steps, "steps")
    lam = torch.as_tensor(lam, dtype=torch.float32)
    opt = optimizer if optimizer is not None else ReplicaAdam(model.parameters(), lr, weight_decay=weight_decay)
    R = lam.shape[0]
    hist_v, hist_c = np.zeros((steps, R)), np.zeros((steps, R))
    for it in wrap(range(steps)):
        support, query, masks = next_batch()
        B, V = masks.shape[1], masks.shape[2]
        ids = view_task_ids(B, V, R, shuffled, rng)
        total, lval, lc = meta_train_step(model, support, query, masks, lam, ids, subset_training)
        opt.zero_grad()
        total.backward()
        opt.step()
        hist_v[it], hist_c[it] = lval.numpy(), lc.numpy()
    return {"val_loss": hist_v, "contrast": hist_c}


# --------------------------------------------------------------------------- comparators (naive baselines)
class ReplicaAdam:
    r"""Adam (Kingma & Ba 2015, Algorithm 1) with its own learning rate for every replica.

    For a parameter :math:`\theta` of shape ``(R, ...)`` and gradient :math:`g`:
    :math:`m \leftarrow \beta_1 m + (1-\beta_1) g`, :math:`v \leftarrow \beta_2 v + (1-\beta_2) g^2`,
    :math:`\theta_r \leftarrow \theta_r - \frac{\eta_r}{1-\beta_1^t}\,
    \frac{m_r}{\sqrt{v_r/(1-\beta_2^t)} + \epsilon}`, with the operations of :class:`torch.optim.Adam`
    (no AMSGrad; optional L2 weight decay per replica). With one learning rate and one weight decay for all
    replicas it is ``torch.optim.Adam`` (up to float rounding); the per-replica rate and decay let a
    learning-rate grid and a weight-decay baseline train side by side with the other variants.

    Parameters
    ----------
    params : iterable of Tensor
        Every parameter has the replica axis first, of the same length ``R``.
    lr : float or Tensor of shape ``(R,)``
        Learning rate per replica (all > 0).
    betas, eps : as in :class:`torch.optim.Adam`
    weight_decay : float or Tensor of shape ``(R,)``
        L2 weight decay per replica (all >= 0), in the form of :class:`torch.optim.Adam`'s ``weight_decay``:
        :math:`g \leftarrow g + \delta_r \theta_r` before the moment updates (the gradient of
        :math:`\tfrac{\delta_r}2\|\theta_r\|^2` added to the loss; not AdamW's decoupled decay). The naive
        regulariser of the weight-decay baseline.
    """

    def __init__(self, params, lr: float | Tensor, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float | Tensor = 0.0):
        self.params = [p for p in params]
        if not self.params:
            raise ValueError("ReplicaAdam: no parameters")
        R = self.params[0].shape[0]
        if any(p.dim() < 1 or p.shape[0] != R for p in self.params):
            raise ValueError("ReplicaAdam: every parameter needs the same leading replica axis")
        lr = torch.as_tensor(lr, dtype=torch.float32)
        lr = lr.expand(R).clone() if lr.dim() == 0 else lr
        if lr.shape != (R,) or not bool((lr > 0).all()):
            raise ValueError(f"lr must be a positive float or a positive tensor of shape ({R},); got {tuple(lr.shape)}")
        if not (0 <= betas[0] < 1 and 0 <= betas[1] < 1) or not eps > 0:
            raise ValueError(f"bad betas {betas!r} or eps {eps!r}")
        wd = torch.as_tensor(weight_decay, dtype=torch.float32)
        wd = wd.expand(R).clone() if wd.dim() == 0 else wd
        if wd.shape != (R,) or not bool((wd >= 0).all()):
            raise ValueError(f"weight_decay must be a float >= 0 or a tensor >= 0 of shape ({R},); "
                             f"got {tuple(wd.shape)}")
        self.weight_decay = wd
        self.lr, self.betas, self.eps, self.t = lr, betas, eps, 0
        self.m = [torch.zeros_like(p) for p in self.params]
        self.v = [torch.zeros_like(p) for p in self.params]

    def zero_grad(self) -> None:
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self) -> None:
        self.t += 1
        b1, b2 = self.betas
        bc1, bc2_sqrt = 1 - b1 ** self.t, (1 - b2 ** self.t) ** 0.5
        for p, m, v in zip(self.params, self.m, self.v):
            if p.grad is None:
                continue
            g = p.grad
            if bool((self.weight_decay > 0).any()):
                g = g + self.weight_decay.reshape(-1, *[1] * (p.dim() - 1)) * p
            m.lerp_(g, 1 - b1)
            v.mul_(b2).addcmul_(g, g, value=1 - b2)
            denom = (v.sqrt() / bc2_sqrt).add_(self.eps)
            step = (self.lr / bc1).reshape(-1, *[1] * (p.dim() - 1))
            p.sub_(step * (m / denom))


def stack_streams(batches: list[tuple], streams: tuple[int, ...] | list[int]) -> tuple:
    """Lay out meta-batches drawn from separate task streams variant-major: variant ``v`` gets stream ``streams[v]``.

    Parameters
    ----------
    batches : list of ``(support, query, masks)``
        One meta-batch per stream, each with the seeds as its replica axis (as returned by
        :func:`sinusoid_batch` or :func:`digits_batch` with ``n_variants=1``).
    streams : sequence of int
        The stream of each variant (for example ``(0, 0, 0, 1)``: the fourth variant trains on its own tasks).

    Returns
    -------
    ``(support, query, masks)`` with replica axis ``R = len(streams) * n_seeds`` (``r = v * n_seeds + s``).
    """
    if not batches:
        raise ValueError("stack_streams: no batches")
    if not streams or any(not 0 <= int(s) < len(batches) for s in streams):
        raise ValueError(f"streams must index the {len(batches)} batches; got {streams!r}")

    def cat(parts):
        return torch.cat(parts, 0)

    support = tuple(cat([batches[s][0][i] for s in streams]) for i in range(len(batches[0][0])))
    query = tuple(cat([batches[s][1][i] for s in streams]) for i in range(len(batches[0][1])))
    return support, query, cat([batches[s][2] for s in streams])


def select_by_validation(val_scores: np.ndarray, candidates: tuple[int, ...] | list[int]) -> np.ndarray:
    """Per seed, the candidate variant with the lowest validation score (hyper-parameter tuning).

    Parameters
    ----------
    val_scores : ndarray ``(V, S)``
        Validation score (lower is better) of every variant and seed.
    candidates : sequence of int
        The variants to choose among (for example the plain learner at each learning rate of a grid).

    Returns
    -------
    ndarray ``(S,)`` of int: the chosen variant of every seed (the first of tied ones).
    """
    val_scores = np.asarray(val_scores, dtype=float)
    if val_scores.ndim != 2:
        raise ValueError(f"val_scores must be (V, S); got shape {val_scores.shape}")
    cand = np.asarray(candidates, dtype=int)
    if cand.size == 0 or cand.min() < 0 or cand.max() >= val_scores.shape[0]:
        raise ValueError(f"candidates must index the {val_scores.shape[0]} variants; got {candidates!r}")
    return cand[np.argmin(val_scores[cand], axis=0)]


def rbf_gp_mean(xs: Tensor, ys: Tensor, xq: Tensor, lengthscale: Tensor | float, signal_var: Tensor | float,
                noise_var: Tensor | float) -> Tensor:
    r"""Posterior mean of Gaussian-process regression with a squared-exponential kernel (Rasmussen & Williams
    2006, Eq. 2.25), zero prior mean.

    :math:`k(x,x') = \sigma_f^2 \exp(-(x-x')^2 / (2\ell^2))`,
    :math:`\hat y(x_*) = k(x_*, X)\,(K + \sigma_n^2 I)^{-1} y`. Computed in float64.

    Parameters
    ----------
    xs, ys : Tensor ``(..., n, 1)``
        Support inputs and targets.
    xq : Tensor ``(..., m, 1)``
    lengthscale, signal_var, noise_var : float or Tensor broadcasting against the batch shape ``(...)``
        All > 0.

    Returns
    -------
    Tensor ``(..., m, 1)``, float64
    """
    xs, ys, xq = (torch.as_tensor(a, dtype=torch.float64) for a in (xs, ys, xq))
    if xs.shape[-1] != 1 or xq.shape[-1] != 1 or xs.shape != ys.shape:
        raise ValueError(f"expected xs, ys (..., n, 1) and xq (..., m, 1); got {tuple(xs.shape)}, "
                         f"{tuple(ys.shape)}, {tuple(xq.shape)}")
    hyp = [torch.as_tensor(h, dtype=torch.float64) for h in (lengthscale, signal_var, noise_var)]
    if any(bool((h <= 0).any()) for h in hyp):
        raise ValueError("lengthscale, signal_var and noise_var must be > 0")
    ell, sf2, sn2 = (h[..., None, None] for h in hyp)

    def k(a, b):
        return sf2 * torch.exp(-0.5 * (a - b.transpose(-1, -2)) ** 2 / ell ** 2)

    n = xs.shape[-2]
    L = torch.linalg.cholesky(k(xs, xs) + sn2 * torch.eye(n, dtype=torch.float64))
    alpha = torch.cholesky_solve(ys, L)
    return k(xq, xs) @ alpha


def fit_rbf_gp(xs: Tensor, ys: Tensor, xq: Tensor, yq: Tensor, lengthscales, signal_vars,
               noise_vars) -> dict[str, float]:
    """Grid search of the GP's hyper-parameters for the lowest query MSE on meta-training tasks.

    The strongest version of the classical baseline: the three hyper-parameters of :func:`rbf_gp_mean` are
    chosen, from the grids given, to minimise the mean squared error of its predictions on the query points of
    the training tasks (support ``xs, ys (T, n, 1)``, query ``xq, yq (T, m, 1)``).

    Returns
    -------
    dict with ``lengthscale``, ``signal_var``, ``noise_var`` and the training query ``mse`` at that choice.
    """
    grid = [np.asarray(g, dtype=float) for g in (lengthscales, signal_vars, noise_vars)]
    if any(g.ndim != 1 or g.size == 0 or (g <= 0).any() for g in grid):
        raise ValueError("each grid must be a non-empty 1-d sequence of positive values")
    L, F, N = np.meshgrid(*grid, indexing="ij")
    combos = [torch.as_tensor(a.ravel()) for a in (L, F, N)]                      # (G,)
    pred = rbf_gp_mean(xs.unsqueeze(0), ys.unsqueeze(0), xq.unsqueeze(0), *[c[:, None] for c in combos])
    mse = ((pred - torch.as_tensor(yq, dtype=torch.float64).unsqueeze(0)) ** 2).mean((-1, -2, -3))  # (G,)
    i = int(torch.argmin(mse))
    return {"lengthscale": float(combos[0][i]), "signal_var": float(combos[1][i]),
            "noise_var": float(combos[2][i]), "mse": float(mse[i])}


def pretrain_classifier(encoder: BatchedMLP, X: np.ndarray, y: np.ndarray, classes: tuple[int, ...], steps: int,
                        batch_size: int, lr: float, rng: np.random.Generator,
                        generator: torch.Generator | None = None) -> dict[str, object]:
    r"""Supervised pre-training of an embedding on all meta-training classes at once (Chen et al. 2019,
    "Baseline"; Tian et al. 2020).

    The encoder (``S`` replicas) and a linear head over ``len(classes)`` classes are trained with Adam on the
    cross-entropy of mini-batches of ``batch_size`` images drawn uniformly from the meta-training classes;
    no episodes, no task structure. The encoder is trained in place.

    Returns
    -------
    dict with ``head`` (the trained :class:`BatchedMLP` head) and ``loss`` (``(steps, S)`` training losses).
    """
    steps, batch_size = _pos_int(steps, "steps"), _pos_int(batch_size, "batch_size")
    classes = np.asarray(classes)
    pool = np.flatnonzero(np.isin(y, classes))
    if pool.size == 0:
        raise ValueError("pretrain_classifier: no example of the given classes")
    label_of = {int(c): i for i, c in enumerate(classes)}
    labels_all = np.array([label_of[int(c)] for c in y[pool]])
    R = encoder.n_replicas
    head = BatchedMLP((encoder.sizes[-1], len(classes)), R, 1, generator)
    opt = ReplicaAdam(list(encoder.parameters()) + list(head.parameters()), lr)
    hist = np.zeros((steps, R))
    for it in range(steps):
        pick = rng.integers(0, pool.size, size=(R, batch_size))
        xb = torch.as_tensor(X[pool[pick]])
        yb = torch.as_tensor(labels_all[pick])
        logits = head(encoder(xb))
        loss = -torch.log_softmax(logits, -1).gather(-1, yb.unsqueeze(-1)).squeeze(-1).mean(-1)
        opt.zero_grad()
        loss.sum().backward()
        opt.step()
        hist[it] = loss.detach().numpy()
    return {"head": head, "loss": hist}


def _head_design(z: Tensor) -> Tensor:
    """``(R, T, W, n, e)`` features -> L2-normalised rows with a constant column, ``(R, T, W * n, e + 1)``, float64."""
    R, T, W, n, e = z.shape
    z = z.detach().to(torch.float64).reshape(R, T, W * n, e)
    z = z / z.norm(dim=-1, keepdim=True).clamp_min(1e-12)
    return torch.cat([z, torch.ones_like(z[..., :1])], -1)


def fit_logistic_head(z_support: Tensor, C: float = 1.0, iters: int = 200) -> Tensor:
    r"""Multinomial logistic regression on L2-normalised support features, one per task (Tian et al. 2020).

    Minimises :math:`C\sum_i \mathrm{CE}_i + \tfrac12\|W\|_F^2` (scikit-learn's ``LogisticRegression(C)``,
    intercept not penalised) by accelerated gradient descent (Nesterov, restarted where the objective rises),
    all tasks at once, in float64. The objective is :math:`L`-smooth with
    :math:`L \le C\,\lambda_{max}(A^\top A)/2 + 1`, since the softmax's Hessian is at most :math:`I/2`.

    Parameters
    ----------
    z_support : Tensor ``(R, T, W, k, e)``
        Support features; ``z_support[..., c, :, :]`` has label ``c``.
    C : float > 0
    iters : int
        Gradient steps (200 reach scikit-learn's probabilities to about 1e-4 in the unit tests).

    Returns
    -------
    Tensor ``(R, T, e + 1, W)``: the weights, the intercept in the last row (logits ``[z/|z|, 1] @ B``).
    """
    if z_support.dim() != 5:
        raise ValueError(f"expected z_support of shape (R, T, W, k, e); got {tuple(z_support.shape)}")
    if not C > 0:
        raise ValueError(f"C must be > 0; got {C!r}")
    iters = _pos_int(iters, "iters")
    R, T, W, k, e = z_support.shape
    A = _head_design(z_support)                                                   # (R, T, n, e + 1)
    Y = torch.nn.functional.one_hot(torch.arange(W).repeat_interleave(k), W).to(torch.float64)
    pen = torch.ones(e + 1, W, dtype=torch.float64)
    pen[-1] = 0.0                                                                 # the intercept is free

    def objective(B):
        return C * -(torch.log_softmax(A @ B, -1) * Y).sum((-1, -2)) + 0.5 * (pen * B ** 2).sum((-1, -2))

    step = (1.0 / (C * torch.linalg.matrix_norm(A, ord=2) ** 2 / 2 + 1.0))[..., None, None]
    B = torch.zeros(R, T, e + 1, W, dtype=torch.float64)
    Z, t, f_B = B.clone(), torch.ones(R, T, 1, 1, dtype=torch.float64), objective(B)
    for _ in range(iters):
        B_new = Z - step * (C * A.transpose(-1, -2) @ (torch.softmax(A @ Z, -1) - Y) + pen * Z)
        f_new = objective(B_new)
        restart = (f_new > f_B)[..., None, None]
        t_new = (1 + torch.sqrt(1 + 4 * t ** 2)) / 2
        Z = torch.where(restart, B, B_new + (t - 1) / t_new * (B_new - B))
        B = torch.where(restart, B, B_new)
        t = torch.where(restart, torch.ones_like(t), t_new)
        f_B = torch.where(restart[..., 0, 0], f_B, f_new)
    return B


def logistic_head_error(z_support: Tensor, z_query: Tensor, C: float = 1.0, iters: int = 200) -> Tensor:
    r"""Few-shot classification with a logistic-regression head fitted on frozen features (Tian et al. 2020):
    :func:`fit_logistic_head` on each task's support set, then the query error rate.

    Parameters
    ----------
    z_support : Tensor ``(R, T, W, k, e)``
    z_query : Tensor ``(R, T, W, q, e)``; ``z_query[..., c, :, :]`` has label ``c``.
    C, iters : see :func:`fit_logistic_head`

    Returns
    -------
    Tensor ``(R,)``: the query error rate averaged over the ``T`` tasks.
    """
    if z_support.dim() != 5 or z_query.dim() != 5 or z_support.shape[:3] != z_query.shape[:3]:
        raise ValueError(f"expected (R, T, W, k, e) and (R, T, W, q, e); got {tuple(z_support.shape)}, "
                         f"{tuple(z_query.shape)}")
    B = fit_logistic_head(z_support, C, iters)
    W, q = z_query.shape[2], z_query.shape[3]
    pred = (_head_design(z_query) @ B).argmax(-1)
    return (pred != torch.arange(W).repeat_interleave(q)).to(torch.float32).mean((-1, -2))


def replicas_of(src: BatchedMLP, index: list[int] | tuple[int, ...]) -> BatchedMLP:
    """A new :class:`BatchedMLP` holding copies of the replicas ``index`` of ``src`` (as its seeds, one variant)."""
    index = [int(i) for i in index]
    if not index or any(not 0 <= i < src.n_replicas for i in index):
        raise ValueError(f"index must pick replicas of the {src.n_replicas}; got {index!r}")
    out = BatchedMLP(src.sizes, len(index), 1)
    with torch.no_grad():
        for w, b, ws, bs in zip(out.weights, out.biases, src.weights, src.biases):
            w.copy_(ws[index])
            b.copy_(bs[index])
    return out
