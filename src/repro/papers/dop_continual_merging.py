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
  OPCM (``fusion_bench/method/opcm/opcm.py``) -> :func:`opcm_merge_model`.
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


def min_norm_2(g1: Tensor, g2: Tensor) -> float:
    r"""MGDA weight :math:`\gamma` of ``g1`` in :math:`\min_{\gamma\in[0,1]}\|\gamma g_1 + (1-\gamma) g_2\|`
    (Sener and Koltun 2018, Algorithm 1; ``_min_norm_element_from2``).

    Interior solution :math:`\gamma = \langle g_2 - g_1, g_2\rangle / \|g_1 - g_2\|^2`; at the boundary the
    official solver returns 0.999 (when :math:`\langle g_1,g_2\rangle \ge \|g_1\|^2`) or 0.001
    (when :math:`\langle g_1,g_2\rangle \ge \|g_2\|^2`), not 1 or 0; so do we.
    """
    if g1.shape != g2.shape:
        raise ValueError("g1 and g2 must have the same shape")
    v11, v12, v22 = float((g1 * g1).sum()), float((g1 * g2).sum()), float((g2 * g2).sum())
    if v12 >= v11:
        return 0.999
    if v12 >= v22:
        return 0.001
    return -(v12 - v22) / (v11 + v22 - 2 * v12)


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


def dop_merge_layer(W0: Tensor, W_prev: Tensor, W_new: Tensor, eps: float = 0.99999, steps: int = 200,
                    lr: float = 1e-4, ema_beta: float = 0.999, alpha0: float = 0.8, mode: str = "uv",
                    mgda: bool = True, ema: bool = True, projection: str = "svd") -> tuple[Tensor, dict]:
    r"""Merge one linear layer (dop.py ``_optimize_weight``): Adam on :math:`\alpha L_{prev} + (1-\alpha) L_{new}`.

    Start at :math:`(W_{prev} + W_{new})/2`. At each of ``steps`` Adam steps: both gradients are divided by their
    loss values, :math:`\alpha` is the MGDA min-norm weight (:func:`min_norm_2`), smoothed by an EMA started at
    ``(alpha0, 1 - alpha0)``; the step follows the gradient of the weighted sum. ``mgda=False`` keeps
    :math:`\alpha = ` ``alpha0`` fixed. ``projection="identity"`` is our ablation: the same optimisation with
    :math:`U_k, V_k, S_k` replaced by identities (plain Euclidean distances to both models, no data space).

    Returns
    -------
    W (out, in), info with ``alpha`` (per step), ``loss_prev``, ``loss_new`` (per step, before the update),
    ``k_prev``, ``k_new`` (ranks kept) and ``final_alpha``.
    """
    for name, T in (("W_prev", W_prev), ("W_new", W_new)):
        if T.shape != W0.shape:
            raise ValueError(f"{name} has shape {tuple(T.shape)}, W0 {tuple(W0.shape)}")
    if not 0.0 <= alpha0 <= 1.0:
        raise ValueError(f"alpha0 must lie in [0, 1]; got {alpha0!r}")
    if not 0.0 <= ema_beta <= 1.0:
        raise ValueError(f"ema_beta must lie in [0, 1]; got {ema_beta!r}")
    steps = check_int(steps, "steps", least=0)
    check_positive(lr, "lr")
    targets = [W_prev.detach(), W_new.detach()]
    metrics, ranks = [], []
    for Wi in targets:
        if projection == "svd":
            U, S, V = task_vector_svd(Wi - W0, eps)
            metrics.append(projection_metrics(U, S, V, mode))
            ranks.append(int(S.numel()))
        elif projection == "identity":
            o, i = W0.shape
            metrics.append((torch.eye(o, dtype=W0.dtype) * (mode != "v"), torch.eye(i, dtype=W0.dtype) * (mode != "u")))
            ranks.append(min(o, i))
        else:
            raise ValueError(f"projection must be 'svd' or 'identity'; got {projection!r}")
    W = ((targets[0] + targets[1]) / 2).clone().requires_grad_(True)
    opt = Adam([W], lr=lr)
    sol = [alpha0, 1 - alpha0]
    alphas, lp, ln = [], [], []
    for _ in range(steps):
        with torch.no_grad():
            vals, grads = zip(*(dop_loss_grad(W - Wi, M, N) for Wi, (M, N) in zip(targets, metrics)))
        lp.append(vals[0])
        ln.append(vals[1])
        if mgda:
            # gradient_normalizers(..., "loss"): each gradient divided by its loss value
            g = [gr / v if v > 0 else gr for gr, v in zip(grads, vals)]
            gamma = min_norm_2(g[0], g[1])
            new = [gamma, 1 - gamma]
            sol = [ema_beta * s + (1 - ema_beta) * n for s, n in zip(sol, new)] if ema else new
        alphas.append(sol[0])
        W.grad = sol[0] * grads[0] + sol[1] * grads[1]
        opt.step()
    return W.detach(), {"alpha": np.array(alphas), "loss_prev": np.array(lp), "loss_new": np.array(ln),
                        "k_prev": ranks[0], "k_new": ranks[1], "final_alpha": float(sol[0])}


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
    first index where the cumulative singular-value share exceeds ``alpha``; map back."""
    if prev_tv.shape != task_tv.shape or prev_tv.ndim != 2:
        raise ValueError("prev_tv and task_tv must be matrices of one shape")
    U, S, Vh = torch.linalg.svd(prev_tv, full_matrices=True)
    r = int((S.cumsum(0) / S.sum() > alpha).double().argmax())
    P = U.T @ task_tv @ Vh.T
    P.diagonal().fill_(0)
    P[:r, :r] = 0
    return U @ P @ Vh


def _tv_norm(model: Params, params0: Params) -> float:
    return float(torch.sqrt(sum(((W - W0) ** 2).sum() + ((b - b0) ** 2).sum()
                                for (W, b), (W0, b0) in zip(model, params0))))


def opcm_merge_model(params0: Params, merged: Params, new: Params, prev_lambda: float, norms: list[float],
                     alpha: float = 0.5) -> tuple[Params, float, list[float]]:
    r"""One OPCM step (opcm.py ``run``): weights take the projected new task vector (:func:`opcm_clean`), biases the
    raw one; the merged task vector is then rescaled to the mean norm of the task vectors seen so far.

    ``norms`` holds the task-vector norms of the experts merged so far (the first expert's at step 1).
    Returns the merged params, the new :math:`\lambda_t` and the updated ``norms``.
    """
    _check_same(params0, merged, new)
    norms = [*norms, _tv_norm(new, params0)]
    avg = float(np.mean(norms))
    out = []
    for (W0, b0), (Wp, bp), (Wn, bn) in zip(params0, merged, new):
        tvW = prev_lambda * (Wp - W0) + opcm_clean(Wp - W0, Wn - W0, alpha)
        tvb = prev_lambda * (bp - b0) + (bn - b0)
        out.append((W0 + tvW, b0 + tvb))
    nrm = _tv_norm(out, params0)
    lam = nrm / avg  # opcm.py: lambda_t = 1 for the step, then lambda_t *= ||tv|| / avg
    scale = avg / nrm
    out = [(W0 + (W - W0) * scale, b0 + (b - b0) * scale) for (W, b), (W0, b0) in zip(out, params0)]
    return out, lam, norms
