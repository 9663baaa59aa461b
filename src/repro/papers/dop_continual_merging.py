r"""Continual model merging without data: dual orthogonal projections (DOP), in miniature.

Paper map
---------
*Continual Model Merging without Data: Dual Projections for Balancing Stability and Plasticity*,
Enneng Yang, Anke Tang, Li Shen, Guibing Guo, Xingwei Wang, Xiaochun Cao, Jie Zhang, NeurIPS 2025,
https://openreview.net/forum?id=zD5cUX67b9 (official code: github.com/tanganke/fusion_bench,
``fusion_bench/method/dop/dop.py``).
Notebook: ``notebooks/dop-continual-merging.py``.

Notation (paper / official code -> here):

- pretrained weights :math:`\theta_0` -> ``W0`` (one ``nn.Linear`` weight, shape (out, in)); a model is a list
  of ``(W, b)`` layers (``params``);
- the merged model after step :math:`t-1`, :math:`\theta_{t-1}^{m}` -> ``W_prev``; the new expert
  :math:`\theta_t` -> ``W_new``; task vector :math:`\tau_i = \theta_i - \theta_0` -> ``tau``;
- truncated SVD :math:`\tau_i \approx U_k S_k V_k^\top` (``svd_epsilon`` energy rule) -> :func:`task_vector_svd`;
- DOP loss :math:`L_i(W) = \|S_k U_k^\top (W - W_i)\|_F^2 + \|(W - W_i) V_k S_k\|_F^2` (``cal_loss_i``, mode
  ``uv``) -> :func:`dop_loss`; its gradient :math:`2(U_k S_k^2 U_k^\top \Delta + \Delta V_k S_k^2 V_k^\top)`
  -> :func:`dop_loss_grad`;
- MGDA min-norm weight of two gradients (``MinNormSolver._min_norm_element_from2``) -> :func:`min_norm_2`,
  the general Frank-Wolfe solver -> :func:`frank_wolfe_min_norm`;
- the per-layer optimisation (``_optimize_weight``) -> :func:`dop_merge_layer`; the model step
  (``_layer_wise_optimize``) -> :func:`dop_merge_model`;
- baselines: continual weight averaging -> :func:`seq_average`, continual task arithmetic -> :func:`task_arithmetic`,
  OPCM (``fusion_bench/method/opcm/opcm.py``) -> :func:`opcm_merge_model`; naive merges of the review: a fixed
  exponential-moving merge -> :func:`ema_merge`, the newest expert alone and the first expert kept unchanged
  (``merge_sequence`` methods "newest" and "keep-first").
"""

from __future__ import annotations

import numpy as np
import torch
from torch import Tensor

from repro.optim import Adam
from repro.validate import check_int, check_positive

Params = list[tuple[Tensor, Tensor]]

# ---------------------------------------------------------------------------------------------------------
# data: domains of scikit-learn's digits
# ---------------------------------------------------------------------------------------------------------


def digit_domains(n_tasks: int, rng: np.random.Generator) -> list[tuple[np.ndarray, bool]]:
    """The task sequence: ``n_tasks`` input domains of the same 10-class digits task.

    Each domain is ``(perm, invert)``: the 8x8 image's 64 pixels are re-indexed by ``perm`` and, if ``invert``,
    the intensities flipped (``1 - x``). The order is identity, rotate 90 deg, rotate 180 deg, transpose, then
    random pixel permutations drawn from ``rng``; from the sixth task on, inversion of the identity, then
    more permutations (and inverted permutations).

    Returns
    -------
    list of (ndarray of int, shape (64,), bool)
    """
    n = check_int(n_tasks, "n_tasks", least=1)
    grid = np.arange(64).reshape(8, 8)
    base = [(grid.ravel(), False), (np.rot90(grid).ravel(), False), (np.rot90(grid, 2).ravel(), False),
            (grid.T.ravel(), False), (rng.permutation(64), False), (grid.ravel(), True)]
    out = base[:n]
    while len(out) < n:
        out.append((rng.permutation(64), len(out) % 2 == 1))
    return [(np.ascontiguousarray(p), bool(inv)) for p, inv in out]


def apply_domain(X: np.ndarray, domain: tuple[np.ndarray, bool]) -> np.ndarray:
    """Images ``X`` (n, 64), intensities in [0, 1], seen in ``domain`` (see :func:`digit_domains`)."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 64:
        raise ValueError(f"X must have shape (n, 64); got {X.shape}")
    perm, invert = domain
    out = X[:, perm]
    return 1.0 - out if invert else out


# ---------------------------------------------------------------------------------------------------------
# the network: an MLP whose parameters may carry a leading batch (expert) dimension
# ---------------------------------------------------------------------------------------------------------


def init_mlp(sizes: list[int], gen: torch.Generator) -> Params:
    """He-uniform MLP layers ``[(W (out, in), b (out,)), ...]`` in float64 (as ``nn.Linear`` lays them out)."""
    if len(sizes) < 2 or any(check_int(s, "size", least=1) != s for s in sizes):
        raise ValueError("sizes needs at least an input and an output width")
    out = []
    for i, o in zip(sizes[:-1], sizes[1:]):
        bound = 1.0 / np.sqrt(i)
        W = (torch.rand(o, i, generator=gen, dtype=torch.float64) * 2 - 1) * bound * np.sqrt(3.0)
        b = (torch.rand(o, generator=gen, dtype=torch.float64) * 2 - 1) * bound
        out.append((W, b))
    return out


def mlp_logits(params: Params, X: Tensor) -> Tensor:
    """ReLU MLP logits. ``X`` (n, in) with unbatched params, or (E, n, in) with params batched as (E, out, in)."""
    h = X
    for li, (W, b) in enumerate(params):
        h = h @ W.transpose(-1, -2) + b.unsqueeze(-2)
        if li < len(params) - 1:
            h = torch.relu(h)
    return h


def train_mlp(params: Params, X: Tensor, y: Tensor, steps: int, lr: float = 1e-3,
              weight_decay: float = 0.0) -> Params:
    """Full-batch Adam on the cross-entropy; returns new (detached) parameters, the inputs untouched.

    Batched: params (E, ...), ``X`` (E, n, in), ``y`` (E, n) train E independent networks at once.
    """
    steps = check_int(steps, "steps", least=0)
    check_positive(lr, "lr")
    leaves = [t.detach().clone().requires_grad_(True) for layer in params for t in layer]
    opt = Adam(leaves, lr=lr, weight_decay=weight_decay)
    cur = list(zip(leaves[0::2], leaves[1::2]))
    for _ in range(steps):
        logits = mlp_logits(cur, X)
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        if X.ndim == 3:
            loss = loss * X.shape[0]  # each network's mean loss, summed: independent problems
        opt.zero_grad()
        loss.backward()
        opt.step()
    return [(W.detach(), b.detach()) for W, b in cur]


def accuracy(params: Params, X: Tensor, y: Tensor) -> float:
    """Top-1 accuracy of the MLP ``params`` on ``(X, y)``."""
    with torch.no_grad():
        return float((mlp_logits(params, X).argmax(-1) == y).double().mean())


def take(params: Params, e: int) -> Params:
    """The ``e``-th network of batched params."""
    return [(W[e], b[e]) for W, b in params]


# ---------------------------------------------------------------------------------------------------------
# DOP kernels
# ---------------------------------------------------------------------------------------------------------


def task_vector_svd(tau: Tensor, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    r"""Top-k singular triplets of a task vector, with the official rank rule.

    ``k = searchsorted(cumsum(S) / sum(S), eps)`` (left): the number of leading singular values whose
    cumulative share is still below ``eps``; the triplet that reaches ``eps`` is not kept (dop.py's
    ``split_rank``). ``eps = 1`` keeps all but a vanishing last share.

    Returns
    -------
    U_k (out, k), S_k (k,), V_k (in, k)
    """
    if tau.ndim != 2:
        raise ValueError(f"tau must be a matrix; got shape {tuple(tau.shape)}")
    if not 0.0 <= eps <= 1.0:
        raise ValueError(f"eps must lie in [0, 1]; got {eps!r}")
    U, S, Vh = torch.linalg.svd(tau, full_matrices=False)
    if float(S.sum()) == 0.0:
        raise ValueError("tau is zero: no singular subspace")
    k = int(torch.searchsorted(S.cumsum(0) / S.sum(), torch.tensor(float(eps), dtype=S.dtype)))
    return U[:, :k], S[:k], Vh.T[:, :k]


def dop_loss(W: Tensor, W_i: Tensor, U_k: Tensor, S_k: Tensor, V_k: Tensor, mode: str = "uv") -> Tensor:
    r"""DOP's per-model loss (dop.py ``cal_loss_i``).

    .. math:: L_i(W) = \|S_k U_k^\top (W - W_i)\|_F^2 + \|(W - W_i) V_k S_k\|_F^2

    ``mode`` "u" keeps the first (left, output-space) term, "v" the second (right, input-data-space) term.
    """
    if mode not in ("uv", "u", "v"):
        raise ValueError(f"mode must be 'uv', 'u' or 'v'; got {mode!r}")
    if W.shape != W_i.shape:
        raise ValueError(f"W {tuple(W.shape)} and W_i {tuple(W_i.shape)} differ in shape")
    D = W - W_i
    lu = ((S_k[:, None] * (U_k.T @ D)) ** 2).sum()
    lv = ((D @ V_k * S_k[None, :]) ** 2).sum()
    return lu + lv if mode == "uv" else (lu if mode == "u" else lv)


def projection_metrics(U_k: Tensor, S_k: Tensor, V_k: Tensor, mode: str = "uv") -> tuple[Tensor, Tensor]:
    r"""``(M, N) = (U_k S_k^2 U_k^T, V_k S_k^2 V_k^T)`` so that :math:`L = \mathrm{tr}(\Delta^\top M \Delta) +
    \mathrm{tr}(\Delta N \Delta^\top)`; the unused one is zero for modes "u" / "v"."""
    M = (U_k * S_k**2) @ U_k.T
    N = (V_k * S_k**2) @ V_k.T
    if mode == "u":
        N = torch.zeros_like(N)
    elif mode == "v":
        M = torch.zeros_like(M)
    elif mode != "uv":
        raise ValueError(f"mode must be 'uv', 'u' or 'v'; got {mode!r}")
    return M, N


def dop_loss_grad(D: Tensor, M: Tensor, N: Tensor) -> tuple[float, Tensor]:
    r"""Value and gradient of :math:`L(\Delta) = \mathrm{tr}(\Delta^\top M \Delta) + \mathrm{tr}(\Delta N \Delta^\top)`:
    :math:`\nabla = 2(M\Delta + \Delta N)` (``M``, ``N`` symmetric, from :func:`projection_metrics`)."""
    MD, DN = M @ D, D @ N
    return float((D * MD).sum() + (D * DN).sum()), 2.0 * (MD + DN)


def _min_norm_2_from_products(v11: Tensor, v12: Tensor, v22: Tensor) -> Tensor:
    """Elementwise (batched) closed form of :func:`min_norm_2` from the three inner products."""
    interior = -(v12 - v22) / (v11 + v22 - 2 * v12).clamp_min(torch.finfo(v11.dtype).tiny)
    return torch.where(v12 >= v11, torch.full_like(v11, 0.999),
                       torch.where(v12 >= v22, torch.full_like(v11, 0.001), interior))


def min_norm_2(g1: Tensor, g2: Tensor) -> float:
    r"""MGDA weight :math:`\gamma` of ``g1`` in :math:`\min_{\gamma\in[0,1]}\|\gamma g_1 + (1-\gamma) g_2\|`
    (Sener and Koltun 2018, Algorithm 1; ``_min_norm_element_from2``).

    Interior solution :math:`\gamma = \langle g_2 - g_1, g_2\rangle / \|g_1 - g_2\|^2`; at the boundary the
    official solver returns 0.999 (when :math:`\langle g_1,g_2\rangle \ge \|g_1\|^2`) or 0.001
    (when :math:`\langle g_1,g_2\rangle \ge \|g_2\|^2`), not 1 or 0; so do we.
    """
    if g1.shape != g2.shape:
        raise ValueError("g1 and g2 must have the same shape")
    g1, g2 = g1.double(), g2.double()
    return float(_min_norm_2_from_products((g1 * g1).sum(), (g1 * g2).sum(), (g2 * g2).sum()))


def frank_wolfe_min_norm(grads: list[Tensor], iters: int = 250, tol: float = 1e-5) -> np.ndarray:
    r"""Min-norm point of the convex hull of ``grads`` by Frank-Wolfe (Sener and Koltun 2018, Alg. 2).

    Returns the simplex weights :math:`c` (sum 1, each in [0, 1]) of :math:`\min_c \|\sum_i c_i g_i\|`.
    Exact line search along the Frank-Wolfe direction at each step (closed form of :func:`min_norm_2`,
    unclipped).
    """
    n = len(grads)
    if n == 0:
        raise ValueError("grads is empty")
    iters = check_int(iters, "iters", least=1)
    G = torch.stack([g.reshape(-1) for g in grads]).double()
    K = (G @ G.T).numpy()
    c = np.full(n, 1.0 / n)
    for _ in range(iters):
        t = int(np.argmin(K @ c))
        a11, a12, a22 = c @ K @ c, c @ K[:, t], K[t, t]
        denom = a11 + a22 - 2 * a12
        gamma = 1.0 if denom <= 0 else float(np.clip((a22 - a12) / denom, 0.0, 1.0))
        new = gamma * c
        new[t] += 1 - gamma
        if np.abs(new - c).sum() < tol:
            c = new
            break
        c = new
    return c


def _batched_metrics(tau: Tensor, eps: float, mode: str) -> tuple[Tensor, Tensor, Tensor]:
    """(M, N, k) of :func:`projection_metrics` for a batch of task vectors (..., out, in), rank rule of
    :func:`task_vector_svd` applied per matrix through a mask."""
    U, S, Vh = torch.linalg.svd(tau, full_matrices=False)
    share = S.cumsum(-1) / S.sum(-1, keepdim=True)
    k = torch.searchsorted(share.contiguous(), torch.full((*S.shape[:-1], 1), float(eps), dtype=S.dtype)).squeeze(-1)
    S2 = S**2 * (torch.arange(S.shape[-1]) < k.unsqueeze(-1))
    M = (U * S2.unsqueeze(-2)) @ U.transpose(-1, -2)
    N = (Vh.transpose(-1, -2) * S2.unsqueeze(-2)) @ Vh
    if mode == "u":
        N = torch.zeros_like(N)
    elif mode == "v":
        M = torch.zeros_like(M)
    return M, N, k


def dop_merge_layer(W0: Tensor, W_prev: Tensor, W_new: Tensor, eps: float = 0.99999, steps: int = 200,
                    lr: float = 1e-4, ema_beta: float = 0.999, alpha0: float = 0.8, mode: str = "uv",
                    mgda: bool = True, ema: bool = True, projection: str = "svd") -> tuple[Tensor, dict]:
    r"""Merge one linear layer (dop.py ``_optimize_weight``): Adam on :math:`\alpha L_{prev} + (1-\alpha) L_{new}`.

    Start at :math:`(W_{prev} + W_{new})/2`. At each of ``steps`` Adam steps: both gradients are divided by their
    loss values, :math:`\alpha` is the MGDA min-norm weight (:func:`min_norm_2`), smoothed by an EMA started at
    ``(alpha0, 1 - alpha0)``; the step follows the gradient of the weighted sum. ``mgda=False`` keeps
    :math:`\alpha = ` ``alpha0`` fixed. ``projection="identity"`` is our ablation: the same optimisation with
    :math:`U_k, V_k, S_k` replaced by identities (plain Euclidean distances to both models, no data space).

    Batched: ``W0``, ``W_prev``, ``W_new`` of shape (..., out, in) merge independent layers at once (one
    :math:`\alpha` per layer; Adam is coordinatewise, so this equals merging them one at a time).

    Returns
    -------
    W (..., out, in), info with ``alpha`` (steps, ...), ``loss_prev``, ``loss_new`` (steps, ..., before each
    update), ``k_prev``, ``k_new`` (ranks kept, (...)) and ``final_alpha`` (...).
    """
    for name, T in (("W_prev", W_prev), ("W_new", W_new)):
        if T.shape != W0.shape:
            raise ValueError(f"{name} has shape {tuple(T.shape)}, W0 {tuple(W0.shape)}")
    if W0.ndim < 2:
        raise ValueError("weights must be matrices (out, in), optionally batched")
    if not 0.0 <= alpha0 <= 1.0:
        raise ValueError(f"alpha0 must lie in [0, 1]; got {alpha0!r}")
    if not 0.0 <= ema_beta <= 1.0:
        raise ValueError(f"ema_beta must lie in [0, 1]; got {ema_beta!r}")
    if not 0.0 <= eps <= 1.0:
        raise ValueError(f"eps must lie in [0, 1]; got {eps!r}")
    if mode not in ("uv", "u", "v"):
        raise ValueError(f"mode must be 'uv', 'u' or 'v'; got {mode!r}")
    steps = check_int(steps, "steps", least=0)
    check_positive(lr, "lr")
    if projection not in ("svd", "identity"):
        raise ValueError(f"projection must be 'svd' or 'identity'; got {projection!r}")
    targets = [W_prev.detach(), W_new.detach()]
    batch = W0.shape[:-2]
    metrics, ranks = [], []
    for Wi in targets:
        if projection == "svd":
            M, N, k = _batched_metrics(Wi - W0, eps, mode)
        else:  # identities: M D + D N = (cu + cv) D, computed without the products
            M, N = float(mode != "v"), float(mode != "u")
            k = torch.full(batch, min(W0.shape[-2:]))
        metrics.append((M, N))
        ranks.append(k)

    def apply(D: Tensor, M: Tensor | float, N: Tensor | float) -> tuple[Tensor, Tensor]:
        return (M * D, D * N) if projection == "identity" else (M @ D, D @ N)
    W = ((targets[0] + targets[1]) / 2).clone().requires_grad_(True)
    opt = Adam([W], lr=lr)
    sol = torch.full(batch, float(alpha0), dtype=W0.dtype)
    alphas, lp, ln = [], [], []
    for _ in range(steps):
        with torch.no_grad():
            vals, grads = [], []
            for Wi, (M, N) in zip(targets, metrics):
                D = W - Wi
                MD, DN = apply(D, M, N)
                vals.append((D * MD).sum((-1, -2)) + (D * DN).sum((-1, -2)))
                grads.append(2.0 * (MD + DN))
            lp.append(vals[0])
            ln.append(vals[1])
            if mgda:
                # gradient_normalizers(..., "loss"): each gradient divided by its loss value
                g = [gr / torch.where(v > 0, v, 1.0)[..., None, None] for gr, v in zip(grads, vals)]
                gamma = _min_norm_2_from_products((g[0] * g[0]).sum((-1, -2)), (g[0] * g[1]).sum((-1, -2)),
                                                  (g[1] * g[1]).sum((-1, -2)))
                sol = ema_beta * sol + (1 - ema_beta) * gamma if ema else gamma
            alphas.append(sol)
            W.grad = sol[..., None, None] * grads[0] + (1 - sol)[..., None, None] * grads[1]
        opt.step()
    with torch.no_grad():
        end = [sum(((W - Wi) * P).sum((-1, -2)) for P in apply(W - Wi, M, N)) for Wi, (M, N) in zip(targets, metrics)]
    stack = (lambda xs: torch.stack(xs).numpy()) if steps else (lambda xs: np.zeros((0, *batch)))
    return W.detach(), {"alpha": stack(alphas), "loss_prev": stack(lp), "loss_new": stack(ln),
                        "loss_prev_end": end[0].numpy(), "loss_new_end": end[1].numpy(),
                        "k_prev": ranks[0].numpy(), "k_new": ranks[1].numpy(), "final_alpha": sol.numpy()}


def dop_merge_model(params0: Params, merged: Params, new: Params, **kw) -> tuple[Params, list[dict]]:
    """One continual-merging step of DOP (dop.py ``_layer_wise_optimize``): every weight by
    :func:`dop_merge_layer`, every bias averaged. Returns the merged params and the per-layer infos."""
    _check_same(params0, merged, new)
    out, infos = [], []
    for (W0, _), (Wp, bp), (Wn, bn) in zip(params0, merged, new):
        W, info = dop_merge_layer(W0, Wp, Wn, **kw)
        out.append((W, (bp + bn) / 2))
        infos.append(info)
    return out, infos


# ---------------------------------------------------------------------------------------------------------
# baselines
# ---------------------------------------------------------------------------------------------------------


def _check_same(*models: Params) -> None:
    shapes = [[(tuple(W.shape), tuple(b.shape)) for W, b in m] for m in models]
    if any(s != shapes[0] for s in shapes):
        raise ValueError("models differ in architecture")


def seq_average(theta_prev: Params, theta_new: Params, t: int) -> Params:
    r"""Continual weight averaging: :math:`\theta_t^m = \theta_{t-1}^m + (\theta_t - \theta_{t-1}^m)/t`, the running
    mean of the first ``t`` experts (``t`` is 1-based; ``t = 1`` returns the new expert)."""
    t = check_int(t, "t", least=1)
    _check_same(theta_prev, theta_new)
    return [(Wp + (Wn - Wp) / t, bp + (bn - bp) / t) for (Wp, bp), (Wn, bn) in zip(theta_prev, theta_new)]


def ema_merge(theta_prev: Params, theta_new: Params, w: float) -> Params:
    r"""Fixed exponential-moving merge: :math:`\theta_t^m = (1 - w)\,\theta_{t-1}^m + w\,\theta_t` (weights and biases),
    ``w`` in (0, 1] the fixed weight of the new expert; ``w = 1/2`` is the running midpoint, ``w = 1`` the newest
    expert. No optimisation, no data."""
    if not 0.0 < w <= 1.0:
        raise ValueError(f"w must lie in (0, 1]; got {w!r}")
    _check_same(theta_prev, theta_new)
    return [((1 - w) * Wp + w * Wn, (1 - w) * bp + w * bn) for (Wp, bp), (Wn, bn) in zip(theta_prev, theta_new)]


def task_arithmetic(theta0: Params, theta_prev: Params, theta_new: Params, lam: float) -> Params:
    r"""Continual task arithmetic: :math:`\theta_t^m = \theta_{t-1}^m + \lambda(\theta_t - \theta_0)`, so that
    :math:`\theta_t^m = \theta_0 + \lambda\sum_{i\le t}\tau_i` when started from :math:`\theta_0`."""
    check_positive(lam, "lam")
    _check_same(theta0, theta_prev, theta_new)
    return [(Wp + lam * (Wn - W0), bp + lam * (bn - b0))
            for (W0, b0), (Wp, bp), (Wn, bn) in zip(theta0, theta_prev, theta_new)]


def opcm_clean(prev_tv: Tensor, task_tv: Tensor, alpha: float = 0.5) -> Tensor:
    r"""OPCM's projection of a new task vector (opcm.py ``merge_linear_weights``): in the singular basis
    :math:`U, V` of the merged task vector, zero the diagonal and the leading ``r x r`` block, with ``r`` the
    first index where the cumulative singular-value share exceeds ``alpha``; map back.

    Shapes (..., out, in): a leading batch of layers is projected independently.
    """
    if prev_tv.shape != task_tv.shape or prev_tv.ndim < 2:
        raise ValueError("prev_tv and task_tv must be matrices (optionally batched) of one shape")
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must lie in [0, 1]; got {alpha!r}")
    U, S, Vh = torch.linalg.svd(prev_tv, full_matrices=True)
    r = (S.cumsum(-1) / S.sum(-1, keepdim=True) > alpha).double().argmax(-1)
    P = U.transpose(-1, -2) @ task_tv @ Vh.transpose(-1, -2)
    o, i = P.shape[-2:]
    rows, cols = torch.arange(o)[:, None], torch.arange(i)[None, :]
    rr = r[..., None, None]
    keep = ~((rows == cols) | ((rows < rr) & (cols < rr)))
    return U @ (P * keep) @ Vh


def tv_norm(model: Params, params0: Params) -> Tensor:
    """Euclidean norm of the whole task vector ``model - params0`` (weights and biases), per batch element."""
    return torch.sqrt(sum(((W - W0) ** 2).sum((-1, -2)) + ((b - b0) ** 2).sum(-1)
                          for (W, b), (W0, b0) in zip(model, params0)))


def opcm_merge_model(params0: Params, merged: Params, new: Params, prev_lambda: Tensor | float,
                     norms: list[Tensor], alpha: float = 0.5) -> tuple[Params, Tensor, list[Tensor]]:
    r"""One OPCM step (opcm.py ``run``): weights take the projected new task vector (:func:`opcm_clean`), biases the
    raw one; the merged task vector is then rescaled to the mean norm of the task vectors seen so far.

    ``norms`` holds the task-vector norms (:func:`tv_norm`) of the experts merged so far (the first expert's
    at step 1), ``prev_lambda`` is 1 after the first expert. Returns the merged params, the new
    :math:`\lambda_t` and the updated ``norms``. Batched params merge independent runs at once.
    """
    _check_same(params0, merged, new)
    norms = [*norms, tv_norm(new, params0)]
    avg = torch.stack(norms).mean(0)
    pl = torch.as_tensor(prev_lambda, dtype=avg.dtype)
    out = []
    for (W0, b0), (Wp, bp), (Wn, bn) in zip(params0, merged, new):
        tvW = pl[..., None, None] * (Wp - W0) + opcm_clean(Wp - W0, Wn - W0, alpha)
        tvb = pl[..., None] * (bp - b0) + (bn - b0)
        out.append((W0 + tvW, b0 + tvb))
    nrm = tv_norm(out, params0)
    lam = nrm / avg  # opcm.py: lambda_t = 1 for the step, then lambda_t *= ||tv|| / avg
    scale = avg / nrm
    out = [(W0 + (W - W0) * scale[..., None, None], b0 + (b - b0) * scale[..., None])
           for (W, b), (W0, b0) in zip(out, params0)]
    return out, lam, norms


# ---------------------------------------------------------------------------------------------------------
# the protocol: merge experts one at a time, evaluate after each step
# ---------------------------------------------------------------------------------------------------------

METHODS = ("seq-avg", "seq-ta", "opcm", "dop", "dop-identity", "dop-start", "ema", "newest", "keep-first")


def merge_sequence(method: str, params0: Params, experts: list[Params], infos: list | None = None,
                   **kw) -> list[Params]:
    """The merged model after each of the ``T`` experts arrives (continual model merging).

    ``method``: "seq-avg" (:func:`seq_average`), "seq-ta" (:func:`task_arithmetic`, ``lam``), "opcm"
    (:func:`opcm_merge_model`, ``alpha``), "dop" (:func:`dop_merge_model`, its keywords), "dop-identity" (DOP
    with identity projections, our ablation) and "dop-start" (DOP's start point, the plain midpoint of the merged
    model and the new expert: DOP without optimisation), and three naive merges: "ema" (:func:`ema_merge`, ``w``),
    "newest" (the newest expert alone) and "keep-first" (expert 1 kept unchanged: a no-op merge). Every method but
    seq-ta keeps expert 1 as step 1;
    seq-ta starts from ``params0 + lam * tau_1``. Params may be batched (independent runs). For the DOP
    variants, a list passed as ``infos`` receives each step's per-layer infos of :func:`dop_merge_layer`.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}; got {method!r}")
    if not experts:
        raise ValueError("no experts to merge")
    if method == "seq-ta":
        lam = kw.pop("lam")
        m = task_arithmetic(params0, params0, experts[0], lam)
    else:
        m = experts[0]
    out = [m]
    lam_t, norms = torch.ones(()), [tv_norm(experts[0], params0)]
    for t, new in enumerate(experts[1:], start=2):
        if method == "seq-avg":
            m = seq_average(m, new, t)
        elif method == "seq-ta":
            m = task_arithmetic(params0, m, new, lam)
        elif method == "opcm":
            m, lam_t, norms = opcm_merge_model(params0, m, new, lam_t, norms, **kw)
        elif method in ("dop", "dop-identity"):
            extra = {"projection": "identity"} if method == "dop-identity" else {}
            m, info = dop_merge_model(params0, m, new, **extra, **kw)
            if infos is not None:
                infos.append(info)
        elif method == "dop-start":
            m = seq_average(m, new, 2)
        elif method == "ema":
            m = ema_merge(m, new, kw["w"])
        elif method == "newest":
            m = new
        # keep-first: m stays expert 1
        out.append(m)
    return out


def shuffled_orders(n_tasks: int, seeds: list[int]) -> np.ndarray:
    """One random task order per run, as fusion_bench's ``shuffle_order: true`` draws one per run (``random.shuffle``
    of the model names, seeded by the run's seed).

    Run ``b``'s order is ``np.random.default_rng([seeds[b], 1]).permutation(n_tasks)``: a stream apart from the one
    that drew the run's split and domains (:func:`build_experts` uses ``default_rng(seed)``).

    Returns
    -------
    ndarray of int, shape (len(seeds), n_tasks): ``orders[b, t]`` is the task that arrives ``t``-th in run ``b``.
    """
    T = check_int(n_tasks, "n_tasks", least=1)
    if not len(seeds):
        raise ValueError("seeds is empty")
    return np.stack([np.random.default_rng([int(s), 1]).permutation(T) for s in seeds])


def _take_runs(batched: list[Tensor], orders: np.ndarray, t: int) -> Tensor:
    """Tensor whose run ``b`` is ``batched[orders[b, t]][b]`` (leading dimension: runs)."""
    return torch.stack([batched[int(orders[b, t])][b] for b in range(orders.shape[0])])


def reorder_zoo(zoo: dict, orders: np.ndarray) -> dict:
    """The zoo of :func:`build_experts` with its tasks arriving in another order, per run.

    ``orders`` (B, T), e.g. :func:`shuffled_orders`: in run ``b`` the ``t``-th expert, its test set and its own
    accuracy become those of task ``orders[b, t]``. The pretrained model, the test labels and the experts
    themselves are unchanged, so that the merges of both orders can be compared run by run.
    """
    experts, X_test = zoo["experts"], zoo["X_test"]
    T, B = len(experts), zoo["y_test"].shape[0]
    orders = np.asarray(orders)
    if orders.shape != (B, T) or any(sorted(o.tolist()) != list(range(T)) for o in orders):
        raise ValueError(f"orders must hold one permutation of range({T}) per run ({B} runs); got shape {orders.shape}")
    n_layers = len(experts[0])
    new_experts = [[(_take_runs([e[li][0] for e in experts], orders, t), _take_runs([e[li][1] for e in experts], orders, t))
                    for li in range(n_layers)] for t in range(T)]
    return {**zoo, "experts": new_experts, "X_test": [_take_runs(X_test, orders, t) for t in range(T)],
            "expert_acc": np.take_along_axis(zoo["expert_acc"], orders, axis=1),
            "domains": [[d[int(i)] for i in o] for d, o in zip(zoo["domains"], orders)]}


def concat_zoos(*zoos: dict) -> dict:
    """Zoos of :func:`build_experts` (or :func:`reorder_zoo`) with the same tasks count, joined along the runs, so
    that one batched merge covers them all (batched merges equal one run at a time)."""
    if not zoos or len({len(z["experts"]) for z in zoos}) != 1:
        raise ValueError("give one or more zoos with the same number of tasks")
    cat = lambda ps: [(torch.cat([p[li][0] for p in ps]), torch.cat([p[li][1] for p in ps])) for li in range(len(ps[0]))]
    T = len(zoos[0]["experts"])
    return {"params0": cat([z["params0"] for z in zoos]),
            "experts": [cat([z["experts"][t] for z in zoos]) for t in range(T)],
            "X_test": [torch.cat([z["X_test"][t] for z in zoos]) for t in range(T)],
            "y_test": torch.cat([z["y_test"] for z in zoos]),
            "expert_acc": np.concatenate([z["expert_acc"] for z in zoos]),
            "domains": [d for z in zoos for d in z["domains"]]}


def accuracy_matrix(models: list[Params], X_test: list[Tensor], y_test: Tensor) -> np.ndarray:
    """Accuracy matrix ``A[b, i, j]``: run ``b``'s merged model after step ``i`` on task ``j``'s test set
    (NaN for ``j > i``, tasks not yet seen), as :mod:`repro.continual` expects.

    ``models``: T (batched) params; ``X_test``: T tensors (B, n, in); ``y_test``: (B, n).
    """
    T = len(models)
    if len(X_test) != T:
        raise ValueError(f"{T} models but {len(X_test)} test sets")
    B = y_test.shape[0]
    A = np.full((B, T, T), np.nan)
    with torch.no_grad():
        for i, m in enumerate(models):
            for j in range(i + 1):
                A[:, i, j] = (mlp_logits(m, X_test[j].to(m[0][0].dtype)).argmax(-1) == y_test).double().mean(-1).numpy()
    return A


def build_experts(X: np.ndarray, y: np.ndarray, n_tasks: int, seeds: list[int], hidden: int, n_train: int,
                  pre_steps: int, ft_steps: int, lr: float = 3e-3) -> dict:
    """The whole model zoo, one independent run per seed, batched over runs.

    Per seed: a random train/test split of the images (``n_train`` train), the domains of
    :func:`digit_domains`, a "pretrained" MLP 64-hidden-hidden-10 trained on the first domain (``pre_steps``
    full-batch Adam steps), and one expert per domain fine-tuned from it (``ft_steps``). Training runs in
    float32; the returned models are float64.

    Returns
    -------
    dict with ``params0`` (batched over B runs), ``experts`` (T batched params), ``X_test`` (T tensors
    (B, n_test, 64)), ``y_test`` (B, n_test), ``expert_acc`` (B, T) (each expert on its own task) and
    ``domains`` (per run).
    """
    T = check_int(n_tasks, "n_tasks", least=2)
    n_train = check_int(n_train, "n_train", least=10)
    if not seeds:
        raise ValueError("seeds is empty")
    if n_train >= len(y):
        raise ValueError(f"n_train={n_train} leaves no test images out of {len(y)}")
    Xtr, Xte, ytr, yte, doms, inits = [], [], [], [], [], []
    for s in seeds:
        rng = np.random.default_rng(s)
        idx = rng.permutation(len(y))
        tr, te = idx[:n_train], idx[n_train:]
        d = digit_domains(T, rng)
        doms.append(d)
        Xtr.append(np.stack([apply_domain(X[tr], dd) for dd in d]))
        Xte.append(np.stack([apply_domain(X[te], dd) for dd in d]))
        ytr.append(y[tr])
        yte.append(y[te])
        inits.append(init_mlp([64, hidden, hidden, 10], torch.Generator().manual_seed(int(s))))
    B = len(seeds)
    Xtr = torch.tensor(np.stack(Xtr), dtype=torch.float32)           # (B, T, n, 64)
    ytr = torch.tensor(np.stack(ytr))
    p0 = [(torch.stack([p[li][0] for p in inits]).float(), torch.stack([p[li][1] for p in inits]).float())
          for li in range(len(inits[0]))]
    p0 = train_mlp(p0, Xtr[:, 0], ytr, pre_steps, lr)
    rep = [(W.repeat_interleave(T, 0), b.repeat_interleave(T, 0)) for W, b in p0]   # (B*T, ...)
    E = train_mlp(rep, Xtr.reshape(B * T, n_train, 64), ytr.repeat_interleave(T, 0), ft_steps, lr)
    E = [(W.double().reshape(B, T, *W.shape[1:]), b.double().reshape(B, T, -1)) for W, b in E]
    experts = [[(W[:, t], b[:, t]) for W, b in E] for t in range(T)]
    X_test = [torch.tensor(np.stack(Xte)[:, t]) for t in range(T)]
    y_test = torch.tensor(np.stack(yte))
    with torch.no_grad():
        acc = np.stack([(mlp_logits(experts[t], X_test[t]).argmax(-1) == y_test).double().mean(-1).numpy()
                        for t in range(T)], axis=1)
    return {"params0": [(W.double(), b.double()) for W, b in p0], "experts": experts, "X_test": X_test,
            "y_test": y_test, "expert_acc": acc, "domains": doms}
