r"""SpikingVTG in miniature: a spiking video-grounding network with saliency feedback gating (SFG).

Paper map
---------
*SpikingVTG: A Spiking Detection Transformer for Video Temporal Grounding*, NeurIPS 2025
(https://openreview.net/forum?id=SkhF3cuyev). Authors, code and numbers were not found; we read the
abstract only, so the network below is **our miniature design from the reproduction brief**, not the
paper's architecture. Notebook: ``notebooks/spiking-vtg.py``.

Notation (paper / brief -> here):

=====================================================  ==========================================================
paper / brief                                          here
=====================================================  ==========================================================
clip features :math:`x_i`, :math:`i=1..T`; query q      ``batch["x"]`` (n, T, d), ``batch["q"]`` (n, d)
IF neuron, threshold :math:`V_{th}`, subtractive reset  :func:`if_neuron` (time first), :func:`if_rates`
time steps :math:`K` (rate coding)                      ``K``; rate :math:`a = N_{spikes}/K`
rate approximation :math:`a^*=\sigma_{clip}(Wa^*+b)`    :meth:`VTGNet.rates` with ``clip_rate`` = clamp to [0, 1]
saliency :math:`s_i(t)\in[0,1]`                         rate of the saliency neuron of clip ``i``
SFG :math:`x_i(t+1)=s_i(t)\,x_i`                        :func:`saliency_feedback_gate`; gate ``g`` (n, T)
equilibrium :math:`g^*=\Phi(g^*)`, IFT gradient         :func:`implicit_fixed_point`
Cos-L2 distillation                                     :func:`cos_l2_loss`
normalisation-free (NF) variant                         ``VTGNet(norm=False)``: no LayerNorm, no softmax
synaptic operations (SOPs)                              :meth:`VTGNet.simulate` -> ``"sops"`` (spikes x fan-out)
tIoU, mIoU, R1@0.5                                      :func:`temporal_iou`, :func:`grounding_scores`
=====================================================  ==========================================================

The network (one "cross-interaction" layer, a temporal layer, a saliency neuron per clip):

.. math::

   c_i &= \mathrm{LN}(W_1 e_i), \quad e_i = \sqrt d\,[x_i\odot q,\ x_i,\ q]   \\
   a^{(1)}_i &= \mathrm{clip}\big(g_i\,(c_i + b_1)\big)                       \\
   w &= \mathrm{softmax}_j(a^{(1)}_j u) \ \ (\text{NF: } w_j=\mathrm{relu}(a^{(1)}_j u)/T),\quad m = \textstyle\sum_j w_j a^{(1)}_j \\
   a^{(2)}_i &= \mathrm{clip}\big(g_i\,(a^{(1)}_i W_2 + a^{(1)}_{i-1} W_l + a^{(1)}_{i+1} W_r + m W_3 + b_2)\big) \\
   s_i &= \mathrm{clip}(a^{(2)}_i w_s + b_s),\qquad g = s \ \text{(SFG)}\ \text{or}\ g = 1 .

The gate multiplies a clip's whole drive (its token, bias included) in both layers, so a gated-off clip is
silent there; only its saliency neuron keeps its bias ``b_s``.
In the spiking network every ``clip`` is a population of IF neurons driven for ``K`` steps; the pooling
weights ``w`` (the "attention map") are computed from the running spike rates (a non-spiking operation,
counted as MACs), and the SFG gate at step ``t+1`` is the saliency neuron's running rate at step ``t``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import torch
from numpy.typing import ArrayLike

from repro.validate import check_int, check_positive

# 45 nm energy per operation (Horowitz, ISSCC 2014; the convention of the SNN literature): 32-bit float
E_MAC_PJ = 4.6  # multiply-accumulate
E_AC_PJ = 0.9   # accumulate (one synaptic operation driven by a spike)


# ----------------------------------------------------------------------------- neurons
def _as_tensor(x: ArrayLike, name: str) -> tuple[torch.Tensor, bool]:
    if isinstance(x, torch.Tensor):
        t, was_tensor = x, True
    else:
        try:
            t = torch.as_tensor(np.asarray(x, dtype=np.float64))
        except (TypeError, ValueError) as err:
            raise ValueError(f"{name} must be an array of numbers; got {type(x).__name__}: {err}") from None
        was_tensor = False
    if not torch.is_floating_point(t):
        t = t.to(torch.float64)
    if t.ndim < 1:
        raise ValueError(f"{name} must have a leading time axis (shape (T, ...)); got a scalar")
    if t.shape[0] < 1:
        raise ValueError(f"{name} must have at least one time step; got shape {tuple(t.shape)}")
    if not bool(torch.isfinite(t).all()):
        raise ValueError(f"{name} must be finite (no NaN or infinity)")
    return t, was_tensor


def if_neuron(inputs: ArrayLike, v_th: float) -> torch.Tensor | np.ndarray:
    r"""0/1 spike train of integrate-and-fire neurons with subtractive reset, starting from rest.

    For each neuron (each trailing index) the membrane starts at :math:`v_0 = 0` and at every step
    :math:`t = 1..T`

    .. math::  v \leftarrow v + I_t,\qquad S_t = [v \ge V_{th}],\qquad v \leftarrow v - V_{th} S_t .

    A neuron emits at most one spike per step. For a constant input :math:`0 \le I \le V_{th}` the number of
    spikes by step ``t`` is :math:`\lfloor tI/V_{th} \rfloor` (in exact arithmetic), so the rate tends to
    :math:`I/V_{th}`: the rate approximation of the brief (17.3).

    Parameters
    ----------
    inputs : array_like or torch.Tensor, shape (T, ...)
        Input current, time first; any trailing shape (neurons). Finite.
    v_th : float
        Firing threshold, > 0.

    Returns
    -------
    Spike train of the same shape, values 0.0/1.0: a tensor of the input's dtype when ``inputs`` is a
    tensor, else a float64 numpy array.
    """
    v_th = check_positive(v_th, "v_th")
    x, was_tensor = _as_tensor(inputs, "inputs")
    v = torch.zeros_like(x[0])
    out = torch.empty_like(x)
    for t in range(x.shape[0]):
        v = v + x[t]
        s = (v >= v_th).to(x.dtype)
        v = v - v_th * s
        out[t] = s
    return out if was_tensor else out.numpy()


RESETS = ("subtract", "zero")


def if_rates(input_current: ArrayLike, K: int, v_th: float = 1.0, reset: str = "subtract"):
    r"""Rates and spike counts of IF neurons driven by a constant current for ``K`` steps.

    ``reset="subtract"`` is :func:`if_neuron` (rate :math:`\lfloor KI/V_{th}\rfloor / K` for
    :math:`0\le I\le V_{th}`); ``reset="zero"`` sets the membrane back to 0 after a spike (the residue
    above threshold is lost, so the rate is :math:`1/\lceil V_{th}/I\rceil` in the limit, not :math:`I/V_{th}`).

    Parameters
    ----------
    input_current : array_like, shape (...)
        One constant current per neuron.
    K : int >= 1
    v_th : float > 0
    reset : {"subtract", "zero"}

    Returns
    -------
    (rates, spike_count) : float64 numpy arrays of the input's shape.
    """
    K = check_int(K, "K", least=1)
    v_th = check_positive(v_th, "v_th")
    if reset not in RESETS:
        raise ValueError(f"reset must be one of {RESETS}; got {reset!r}")
    current = np.asarray(input_current, dtype=np.float64)
    if not np.all(np.isfinite(current)):
        raise ValueError("input_current must be finite")
    v = np.zeros_like(current)
    count = np.zeros_like(current)
    for _ in range(K):
        v = v + current
        s = v >= v_th
        v = np.where(s, v - v_th if reset == "subtract" else 0.0, v)
        count += s
    return count / K, count


def clip_rate(x: torch.Tensor) -> torch.Tensor:
    """The rate approximation of an IF neuron with threshold 1: clamp of the current to [0, 1] (brief 17.3)."""
    return x.clamp(0.0, 1.0)


def saliency_feedback_gate(x: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
    r"""SFG: multiply each clip's features by its saliency, :math:`x_i \leftarrow s_i x_i` (brief 17.3).

    Parameters
    ----------
    x : tensor, shape (..., T, F)
    s : tensor, shape (..., T), values in [0, 1]
    """
    if x.shape[:-1] != s.shape:
        raise ValueError(f"s must have shape {tuple(x.shape[:-1])} (x without its feature axis); got {tuple(s.shape)}")
    if bool(((s < 0) | (s > 1)).any()):
        raise ValueError("saliency s must lie in [0, 1]")
    return x * s[..., None]


# ----------------------------------------------------------------------------- losses and scores
def cos_l2_loss(h_s: torch.Tensor, h_t: torch.Tensor) -> torch.Tensor:
    r"""Cos-L2 representation matching: mean over rows of :math:`(1-\cos(h_s,h_t)) + \lVert h_s-h_t\rVert^2`.

    Rows are the last axis (one representation vector per clip, or one attention map per video).
    A zero row has cosine 0 by convention (``eps`` in the norm). Returns a scalar tensor.
    """
    if h_s.shape != h_t.shape:
        raise ValueError(f"h_s and h_t must have the same shape; got {tuple(h_s.shape)} and {tuple(h_t.shape)}")
    if h_s.ndim < 1 or h_s.shape[-1] < 1:
        raise ValueError("cos_l2_loss needs at least one feature axis")
    dot = (h_s * h_t).sum(-1)
    cos = dot / (h_s.norm(dim=-1) * h_t.norm(dim=-1)).clamp_min(1e-12)
    same = (h_s == h_t).all(-1)
    cos = torch.where(same, torch.ones_like(cos), cos)  # identical rows (zero rows too) match exactly
    return ((1.0 - cos) + ((h_s - h_t) ** 2).sum(-1)).mean()


def temporal_iou(pred_span: ArrayLike, gt_span: ArrayLike) -> np.ndarray:
    r"""Temporal IoU of continuous spans ``[start, end]`` (last axis of length 2), broadcast over the rest.

    :math:`\mathrm{tIoU} = |[s_1,e_1]\cap[s_2,e_2]| / |[s_1,e_1]\cup[s_2,e_2]|`; 1 for identical spans,
    0 for disjoint ones. A clip span ``l..r`` (inclusive clip indices) is the continuous span ``[l, r+1]``.
    """
    p = np.asarray(pred_span, dtype=np.float64)
    g = np.asarray(gt_span, dtype=np.float64)
    if p.shape[-1:] != (2,) or g.shape[-1:] != (2,):
        raise ValueError(f"spans must have a last axis of length 2; got {p.shape} and {g.shape}")
    if np.any(p[..., 1] < p[..., 0]) or np.any(g[..., 1] < g[..., 0]):
        raise ValueError("a span must have end >= start")
    inter = np.clip(np.minimum(p[..., 1], g[..., 1]) - np.maximum(p[..., 0], g[..., 0]), 0.0, None)
    union = (p[..., 1] - p[..., 0]) + (g[..., 1] - g[..., 0]) - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1.0), 1.0)


def decode_span(saliency: ArrayLike, threshold: float = 0.5) -> np.ndarray:
    r"""The clip span with the largest total :math:`\sum_{i=l}^{r}(s_i - \tau)` (maximum-sum segment).

    Vectorised over videos with prefix sums: :math:`\max_{l\le r} C_{r+1}-C_l`. Ties go to the earliest
    ``r`` and then the earliest ``l``. When every clip is below :math:`\tau` this is the single most salient clip.

    Parameters
    ----------
    saliency : array_like, shape (n, T)
    threshold : float

    Returns
    -------
    int array, shape (n, 2): inclusive clip indices ``(l, r)``.
    """
    s = np.asarray(saliency, dtype=np.float64)
    if s.ndim != 2 or s.shape[1] < 1:
        raise ValueError(f"saliency must have shape (n, T) with T >= 1; got {s.shape}")
    n, T = s.shape
    C = np.concatenate([np.zeros((n, 1)), np.cumsum(s - threshold, axis=1)], axis=1)  # (n, T+1)
    run_min = np.minimum.accumulate(C[:, :T], axis=1)  # min_{l <= r} C_l for each r
    gain = C[:, 1:] - run_min  # best segment ending at r
    r = gain.argmax(axis=1)
    # earliest l <= r attaining the minimum prefix
    masked = np.where(np.arange(T)[None, :] <= r[:, None], C[:, :T], np.inf)
    l = masked.argmin(axis=1)
    return np.stack([l, r], axis=1)


def query_similarity(x: ArrayLike, q: ArrayLike) -> np.ndarray:
    r"""Clip saliency of the naive, training-free scorer: the cosine similarity of each clip with the query.

    :math:`s_i = \mathrm{clip}_{[0,1]}\big(\langle x_i, q\rangle / (\lVert x_i\rVert\,\lVert q\rVert)\big)`,
    on the same [0, 1] scale as the network's saliency neuron, so that :func:`decode_span` reads it with the
    same threshold. A skeptic's baseline: no network, no spikes, no training, none of the paper's ideas.
    Its operation count is :func:`query_similarity_macs`.

    Parameters
    ----------
    x : array_like, shape (n, T, d)
        Clip features.
    q : array_like, shape (n, d)
        Query features.

    Returns
    -------
    ndarray, shape (n, T), values in [0, 1] (0 for a zero clip or query).
    """
    x = np.asarray(x, dtype=np.float64)
    q = np.asarray(q, dtype=np.float64)
    if x.ndim != 3 or q.shape != (x.shape[0], x.shape[2]):
        raise ValueError(f"x must be (n, T, d) and q (n, d); got {x.shape} and {q.shape}")
    den = np.linalg.norm(x, axis=-1) * np.linalg.norm(q, axis=-1)[:, None]
    dot = np.einsum("ntd,nd->nt", x, q)
    return np.clip(np.where(den > 0, dot / np.where(den > 0, den, 1.0), 0.0), 0.0, 1.0)


def query_similarity_macs(T: int, d: int) -> int:
    """Multiply-accumulates of :func:`query_similarity` on one T-clip video: T dot products with the query,
    T clip norms and one query norm (d MACs each), and T divisions counted as one MAC each."""
    T = check_int(T, "T", least=1)
    d = check_int(d, "d", least=1)
    return 2 * T * d + d + T


def grounding_scores(pred: np.ndarray, gt: np.ndarray) -> dict[str, float]:
    """mIoU and R1@0.5 (share of videos with tIoU >= 0.5) of inclusive clip spans (n, 2)."""
    iou = temporal_iou(np.asarray(pred) + [0, 1], np.asarray(gt) + [0, 1])
    return {"miou": float(iou.mean()), "r1@0.5": float((iou >= 0.5).mean())}


# ----------------------------------------------------------------------------- data
def make_synthetic_vtg(n: int, T: int = 32, d: int = 16, seed: int | np.random.Generator = 0,
                       noise: float = 1.0, rho: float = 0.6, gt_len: tuple[int, int] = (4, 12),
                       dis_len: tuple[int, int] = (3, 8)) -> dict[str, np.ndarray]:
    r"""Synthetic video grounding (brief 17.4): a query, a matching span and a partially similar distractor.

    The query :math:`q \sim N(0, I_d/d)`; background clips :math:`\sim N(0, I_d/d)`; clips of the
    ground-truth span are :math:`q + \text{noise}\cdot\varepsilon_i`; clips of the distractor span are
    :math:`\rho q + \sqrt{1-\rho^2}\,u + \text{noise}\cdot\varepsilon_i` with one random direction :math:`u`
    per video, :math:`\varepsilon_i \sim N(0, I_d/d)`. The two spans never overlap; their lengths are uniform
    on ``gt_len`` and ``dis_len`` (inclusive) and their order is random.

    Returns a dict: ``x`` (n, T, d), ``q`` (n, d), ``span`` (n, 2) inclusive clip indices, ``distractor`` (n, 2),
    ``label`` (n, T) in-span indicator (float).
    """
    n = check_int(n, "n", least=1)
    T = check_int(T, "T", least=2)
    d = check_int(d, "d", least=1)
    check_positive(noise, "noise", strict=False)
    if not 0.0 <= rho <= 1.0:
        raise ValueError(f"rho must lie in [0, 1]; got {rho}")
    if gt_len[0] < 1 or dis_len[0] < 1 or gt_len[0] > gt_len[1] or dis_len[0] > dis_len[1]:
        raise ValueError("span length ranges must be (lo, hi) with 1 <= lo <= hi")
    if gt_len[1] + dis_len[1] > T:
        raise ValueError(f"the longest spans ({gt_len[1]} + {dis_len[1]}) do not fit in T = {T} clips")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    sd = 1.0 / math.sqrt(d)
    q = rng.normal(0.0, sd, (n, d))
    x = rng.normal(0.0, sd, (n, T, d))
    Lg = rng.integers(gt_len[0], gt_len[1] + 1, n)
    Ld = rng.integers(dis_len[0], dis_len[1] + 1, n)
    free = T - Lg - Ld  # clips outside both spans, split into three gaps
    cuts = np.sort(rng.random((n, 2)), axis=1) * (free[:, None] + 1)
    cuts = np.floor(cuts).astype(int)
    g0, g1 = cuts[:, 0], cuts[:, 1] - cuts[:, 0]
    gt_first = rng.random(n) < 0.5
    first_len = np.where(gt_first, Lg, Ld)
    a0 = g0
    b0 = a0 + first_len + g1
    gs = np.where(gt_first, a0, b0)
    ds = np.where(gt_first, b0, a0)
    idx = np.arange(T)[None, :]
    in_gt = (idx >= gs[:, None]) & (idx < (gs + Lg)[:, None])
    in_dis = (idx >= ds[:, None]) & (idx < (ds + Ld)[:, None])
    u = rng.normal(0.0, sd, (n, d))
    eps = rng.normal(0.0, sd, (n, T, d))
    span_x = q[:, None, :] + noise * eps
    dis_x = rho * q[:, None, :] + math.sqrt(1 - rho ** 2) * u[:, None, :] + noise * eps
    x = np.where(in_gt[..., None], span_x, np.where(in_dis[..., None], dis_x, x))
    return {"x": x, "q": q, "span": np.stack([gs, gs + Lg - 1], 1), "distractor": np.stack([ds, ds + Ld - 1], 1),
            "label": in_gt.astype(np.float64)}


def clip_inputs(x: ArrayLike, q: ArrayLike) -> torch.Tensor:
    r"""Per-clip input vectors :math:`e_i = \sqrt d\,[x_i\odot q,\ x_i,\ q]`, shape (n, T, 3d), float32."""
    x = torch.as_tensor(np.asarray(x), dtype=torch.float32)
    q = torch.as_tensor(np.asarray(q), dtype=torch.float32)
    if x.ndim != 3 or q.ndim != 2 or x.shape[0] != q.shape[0] or x.shape[2] != q.shape[1]:
        raise ValueError(f"x must be (n, T, d) and q (n, d); got {tuple(x.shape)} and {tuple(q.shape)}")
    d = x.shape[2]
    qb = q[:, None, :].expand_as(x)
    return math.sqrt(d) * torch.cat([x * qb, x, qb], dim=-1)


# ----------------------------------------------------------------------------- equilibrium
def implicit_fixed_point(f: Callable[[torch.Tensor], torch.Tensor], z0: torch.Tensor, iters: int = 30,
                         tol: float = 1e-6, adjoint_iters: int | None = None, damping: float = 1.0) -> torch.Tensor:
    r"""Fixed point :math:`z^*=f(z^*)` with the implicit-function-theorem gradient (no BPTT).

    Forward: :math:`z_{k+1} = f(z_k)` without a graph until :math:`\lVert z_{k+1}-z_k\rVert_\infty < tol`
    or ``iters`` steps. Backward: the returned :math:`z = f(z^*)` carries a hook that replaces an incoming
    gradient :math:`\bar z` by the solution of :math:`y = J^\top y + \bar z`, :math:`J=\partial f/\partial z`
    at :math:`z^*` (fixed-point iteration on the adjoint, brief 17.3), so that the gradient reaching the
    parameters of ``f`` is :math:`\bar z^\top (I-J)^{-1}\partial f/\partial\theta`.

    ``damping`` :math:`\beta\in(0,1]` relaxes both iterations, :math:`z \leftarrow (1-\beta)z + \beta f(z)` and
    :math:`y \leftarrow (1-\beta)y + \beta(J^\top y + \bar z)`: the same fixed points, and convergence where the
    plain iteration oscillates (eigenvalues of :math:`J` near or below -1).
    """
    iters = check_int(iters, "iters", least=1)
    adjoint_iters = iters if adjoint_iters is None else check_int(adjoint_iters, "adjoint_iters", least=1)
    if not 0.0 < damping <= 1.0:
        raise ValueError(f"damping must lie in (0, 1]; got {damping}")
    with torch.no_grad():
        z = z0
        for _ in range(iters):
            z_new = (1 - damping) * z + damping * f(z)
            done = float((z_new - z).abs().max()) < tol
            z = z_new
            if done:
                break
    z_star = z.detach()
    out = f(z_star)
    if not out.requires_grad:
        return out
    z_in = z_star.clone().requires_grad_(True)
    f_in = f(z_in)

    def hook(grad: torch.Tensor) -> torch.Tensor:
        y = grad
        for _ in range(adjoint_iters):
            (jty,) = torch.autograd.grad(f_in, z_in, y, retain_graph=True)
            y_new = (1 - damping) * y + damping * (jty + grad)
            if float((y_new - y).abs().max()) < tol:
                y = y_new
                break
            y = y_new
        return y

    out.register_hook(hook)
    return out


# ----------------------------------------------------------------------------- the network
class VTGNet(torch.nn.Module):
    r"""Miniature grounding network: one cross-interaction layer, a temporal layer, one saliency neuron per clip.

    ``norm=True``: LayerNorm on the cross-interaction current and softmax pooling weights (SpikingVTG, and
    the non-spiking teacher); ``norm=False``: neither (NF-SpikingVTG: ReLU pooling weights divided by T).
    ``sfg=True``: the gate ``g`` is the saliency (feedback, an equilibrium), else ``g = 1`` (feed-forward).
    :meth:`rates` is the rate (non-spiking) network at a given gate; :meth:`equilibrium` its SFG fixed point;
    :meth:`simulate` runs the IF neurons for ``K`` steps and counts spikes, SOPs and MACs.
    """

    def __init__(self, d: int = 16, hidden: int = 24, norm: bool = True, sfg: bool = True,
                 generator: torch.Generator | None = None):
        super().__init__()
        d = check_int(d, "d", least=1)
        H = check_int(hidden, "hidden", least=1)
        self.d, self.H, self.norm, self.sfg = d, H, bool(norm), bool(sfg)
        g = generator

        def init(*shape: int, fan_in: int, gain: float = 1.0) -> torch.nn.Parameter:
            return torch.nn.Parameter(gain * torch.randn(*shape, generator=g) / math.sqrt(fan_in))

        self.W1 = init(3 * d, H, fan_in=3 * d)
        self.b1 = torch.nn.Parameter(torch.full((H,), 0.3))
        self.u = init(H, fan_in=H)
        self.W2 = init(H, H, fan_in=3 * H, gain=0.5)
        self.Wl = init(H, H, fan_in=3 * H, gain=0.5)
        self.Wr = init(H, H, fan_in=3 * H, gain=0.5)
        self.W3 = init(H, H, fan_in=H, gain=0.5)
        self.b2 = torch.nn.Parameter(torch.full((H,), 0.3))
        self.ws = init(H, fan_in=H, gain=0.2)
        self.bs = torch.nn.Parameter(torch.tensor(0.3))

    # ---- pieces shared by the rate network and the spiking simulation
    def cross_current(self, e: torch.Tensor) -> torch.Tensor:
        """Ungated cross-interaction current ``LN(e W1)`` (or ``e W1`` without norm), shape (n, T, H)."""
        c = e @ self.W1
        if self.norm:
            c = torch.nn.functional.layer_norm(c, (self.H,)) * 0.5
        return c

    def pool_weights(self, a1: torch.Tensor) -> torch.Tensor:
        """Pooling ("attention") weights over clips from layer-1 rates, shape (n, T)."""
        score = a1 @ self.u
        if self.norm:
            return torch.softmax(score, dim=-1)
        return torch.relu(score) / a1.shape[-2]

    def temporal_current(self, s1: torch.Tensor, m: torch.Tensor) -> torch.Tensor:
        """Layer-2 current from layer-1 activity ``s1`` (n, T, H) and the pooled context ``m`` (n, H)."""
        left = torch.nn.functional.pad(s1[:, :-1], (0, 0, 1, 0))   # a1_{i-1}
        right = torch.nn.functional.pad(s1[:, 1:], (0, 0, 0, 1))   # a1_{i+1}
        return s1 @ self.W2 + left @ self.Wl + right @ self.Wr + (m @ self.W3)[:, None, :] + self.b2

    def rates(self, e: torch.Tensor, g: torch.Tensor, c: torch.Tensor | None = None) -> dict[str, torch.Tensor]:
        """Rate network at gate ``g`` (n, T): dict of ``a1`` (n,T,H), ``w`` (n,T), ``a2`` (n,T,H), ``s`` (n,T)."""
        c = self.cross_current(e) if c is None else c
        a1 = clip_rate(saliency_feedback_gate(c + self.b1, g))
        w = self.pool_weights(a1)
        m = (w[..., None] * a1).sum(-2)
        a2 = clip_rate(saliency_feedback_gate(self.temporal_current(a1, m), g))
        s = clip_rate(a2 @ self.ws + self.bs)
        return {"a1": a1, "w": w, "a2": a2, "s": s}

    def equilibrium(self, e: torch.Tensor, iters: int = 30, tol: float = 1e-5,
                    damping: float = 0.5) -> dict[str, torch.Tensor]:
        """The rate network at its SFG equilibrium ``g* = s(g*)`` (implicit gradient, damped iteration from g = 1),
        or at ``g = 1`` without SFG."""
        c = self.cross_current(e)
        ones = torch.ones(e.shape[:2], dtype=e.dtype)
        if not self.sfg:
            return {**self.rates(e, ones, c), "g": ones}
        g = implicit_fixed_point(lambda z: self.rates(e, z, c)["s"], ones, iters=iters, tol=tol, damping=damping)
        return {**self.rates(e, g, c), "g": g}

    @torch.no_grad()
    def simulate(self, e: torch.Tensor, K: int = 30, reset: str = "subtract", gate: str = "sfg",
                 perm: torch.Tensor | None = None, record: bool = False, warmup: int = 4,
                 fixed_gate: torch.Tensor | None = None) -> dict:
        r"""Run the spiking network for ``K`` steps (IF neurons, threshold 1).

        ``gate``: ``"sfg"`` (the saliency neuron's running rate gates the next step; the model's own mode when
        ``self.sfg``), ``"none"`` (gate 1), ``"shuffled"`` (the running saliency of the clips permuted by
        ``perm`` (n, T), a control) or ``"fixed"`` (the open-loop gate ``fixed_gate`` (n, T) in [0, 1], known before
        the run and therefore applied from step 1: a baseline without feedback). The feedback gates act from step
        ``warmup + 1`` on (the first steps estimate
        the saliency rate ungated, as the rate iteration starts from ``g = 1``). Returns the saliency rates ``s`` (n, T), per-video totals ``spikes``,
        ``sops`` (presynaptic spikes x fan-out; a gated-off clip's inputs are still counted, which overcounts
        for SFG) and ``macs`` (non-spiking multiply-accumulates: the input projection,
        LayerNorm, gating multiplies and the pooling), and with ``record`` the rates ``r1`` (K, n, T, H),
        ``rs`` (K, n, T) after each step and ``s1`` (K, T): the layer-1 spikes of each clip of video 0 per step.
        """
        K = check_int(K, "K", least=1)
        warmup = check_int(warmup, "warmup", least=0)
        if reset not in RESETS:
            raise ValueError(f"reset must be one of {RESETS}; got {reset!r}")
        if gate not in ("sfg", "none", "shuffled", "fixed"):
            raise ValueError(f"gate must be 'sfg', 'none', 'shuffled' or 'fixed'; got {gate!r}")
        if gate == "shuffled" and perm is None:
            raise ValueError("gate='shuffled' needs perm (n, T)")
        n, T, _ = e.shape
        if gate == "fixed":
            if fixed_gate is None or tuple(fixed_gate.shape) != (n, T):
                raise ValueError(f"gate='fixed' needs fixed_gate of shape ({n}, {T})")
            if bool(((fixed_gate < 0) | (fixed_gate > 1)).any()):
                raise ValueError("fixed_gate must lie in [0, 1]")
        H = self.H
        c = self.cross_current(e)
        v1 = torch.zeros(n, T, H)
        v2 = torch.zeros(n, T, H)
        vs = torch.zeros(n, T)
        n1 = torch.zeros(n, T, H)
        n2 = torch.zeros(n, T, H)
        ns = torch.zeros(n, T)
        g = fixed_gate.to(e.dtype) if gate == "fixed" else torch.ones(n, T)
        fan = torch.full((T,), 3.0 * H)
        fan[0] -= H   # clip 0 has no left neighbour to feed (W_r feeds clip i-1)
        fan[-1] -= H  # the last clip has no right neighbour
        sops = torch.zeros(n)
        gate_mults = torch.zeros(n)
        rec_r1, rec_rs, rec_s1 = [], [], []

        def fire(v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            s = (v >= 1.0).to(v.dtype)
            return s, (v - s if reset == "subtract" else v * (1 - s))

        for t in range(1, K + 1):
            gated = gate == "fixed" or (t > warmup and gate != "none")
            v1 = v1 + (saliency_feedback_gate(c + self.b1, g) if gated else c + self.b1)
            if gated:
                gate_mults += (g > 0).sum(-1) * 2 * H
            s1, v1 = fire(v1)
            n1 += s1
            r1 = n1 / t
            w = self.pool_weights(r1)
            m = (w[..., None] * r1).sum(-2)
            i2 = self.temporal_current(s1, m)
            v2 = v2 + (saliency_feedback_gate(i2, g) if gated else i2)
            s2, v2 = fire(v2)
            n2 += s2
            vs = vs + s2 @ self.ws + self.bs
            ss, vs = fire(vs)
            ns += ss
            sops += (s1.sum(-1) * fan).sum(-1) + s2.sum((-1, -2))
            rs = ns / t
            if gate == "sfg":
                g = rs
            elif gate == "shuffled":
                g = torch.gather(rs, 1, perm)
            if record:
                rec_r1.append(r1.clone())
                rec_rs.append(rs.clone())
                rec_s1.append(s1[0].sum(-1))
        macs_once = T * 3 * self.d * H + (5 * T * H if self.norm else 0)
        macs_step = 2 * T * H + H * H + (3 * T if self.norm else 0)  # pooling scores, weighted sum, context
        out = {"s": ns / K, "spikes": (n1.sum((-1, -2)) + n2.sum((-1, -2)) + ns.sum(-1)),
               "sops": sops, "macs": macs_once + K * macs_step + gate_mults,
               "rates": {"a1": n1 / K, "a2": n2 / K, "s": ns / K}}
        if record:
            out.update(r1=torch.stack(rec_r1), rs=torch.stack(rec_rs), s1=torch.stack(rec_s1))
        return out

    def dense_macs(self, T: int) -> int:
        """MACs of one dense (non-spiking) forward pass on a T-clip video: the teacher's operation count."""
        H, d = self.H, self.d
        return (T * 3 * d * H + (5 * T * H if self.norm else 0) + 2 * T * H + (3 * T if self.norm else 0)
                + H * H + 3 * T * H * H + T * H)


def saliency_loss(s: torch.Tensor, label: torch.Tensor) -> torch.Tensor:
    """Mean squared error between clip saliency (rates in [0, 1]) and the in-span indicator."""
    return ((s - label) ** 2).mean()


def kd_loss(student: dict[str, torch.Tensor], teacher: dict[str, torch.Tensor]) -> torch.Tensor:
    """Cos-L2 distillation on the layer-wise representations (a1, a2) and the pooling map (w) (brief 17.3)."""
    return sum(cos_l2_loss(student[k], teacher[k].detach()) for k in ("a1", "a2", "w")) / 3


def train_vtg(model: VTGNet, e: torch.Tensor, label: torch.Tensor, steps: int, batch: int, lr: float = 1e-2,
              teacher: VTGNet | None = None, kd_weight: float = 1.0, rng: np.random.Generator | None = None,
              fp_iters: int = 15) -> list[float]:
    """Adam on the saliency loss (+ Cos-L2 KD from ``teacher``) of the rate network at equilibrium.

    Minibatches of ``batch`` videos drawn with ``rng``. SFG models are trained at their fixed point with the
    implicit gradient (:func:`implicit_fixed_point`), never by backpropagation through time. Returns the losses.
    """
    from repro.optim import Adam

    steps = check_int(steps, "steps", least=0)
    batch = check_int(batch, "batch", least=1)
    rng = rng or np.random.default_rng(0)
    opt = Adam(model.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        idx = torch.as_tensor(rng.choice(e.shape[0], size=min(batch, e.shape[0]), replace=False))
        eb, yb = e[idx], label[idx]
        out = model.equilibrium(eb, iters=fp_iters)
        loss = saliency_loss(out["s"], yb)
        if teacher is not None:
            with torch.no_grad():
                tout = teacher.rates(eb, torch.ones(eb.shape[:2]))
            loss = loss + kd_weight * kd_loss(out, tout)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(float(loss.detach()))
    return losses
