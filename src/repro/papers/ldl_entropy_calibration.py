r"""Entropy-Calibrated Label Distribution Learning.

Paper map
---------
*Entropy-Calibrated Label Distribution Learning*, authors not found, NeurIPS 2025 (poster),
https://openreview.net/forum?id=uGjTP2kFcX (code: a supplementary archive on OpenReview, not accessed; the
regulariser's exact form was not found, the one below is the brief's design).
Notebook: ``notebooks/ldl-entropy-calibration.py``.

Notation (paper / brief -> here):

- sample :math:`x`, label distribution :math:`d_x \in \Delta^{c-1}`: rows of ``X``, ``P`` (shape (n, c));
- feature map :math:`f(x)` with :math:`\|f(x)\| = r` and anchor vectors :math:`w_k` (rows of ``W``, norm
  :math:`s`); prediction :math:`\hat d_x = \operatorname{softmax}(W f(x))`: :class:`LDLNet`;
- angle between anchors :math:`\theta_{kl}`: :func:`anchor_angles`; inter-anchor angular regulariser
  :math:`R(W) = \sum_{k<l} \max(0, \cos\theta_{kl} - \cos\theta_0)^2`: :func:`angular_regularizer`;
- the cap on the largest predicted probability that cohesive anchors impose,
  :math:`p_k \le 1/(1 + \sum_{j \ne k} e^{-r\|w_k - w_j\|})`: :func:`max_prob_bound`;
- entropy :math:`H(d_x)` (nats): :func:`entropy`; low/high-entropy split at threshold :math:`\tau`:
  :func:`split_by_entropy`; entropy-calibrated aggregation :math:`\tfrac12(m_{low} + m_{high})`:
  :func:`calibrated_aggregate`;
- the six usual LDL measures (KL, Chebyshev, Clark, Canberra, cosine, intersection), per sample:
  :func:`ldl_measures`.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from numpy.typing import ArrayLike
from torch import Tensor, nn

from repro.optim import Adam
from repro.validate import check_int, check_positive

EPS = 1e-12


def _check_dist(P: ArrayLike, name: str) -> np.ndarray:
    P = np.asarray(P, dtype=float)
    if P.ndim != 2 or P.shape[1] < 2:
        raise ValueError(f"{name} must have shape (n, c) with c >= 2; got {P.shape}")
    if np.any(P < -1e-12) or not np.allclose(P.sum(1), 1.0, atol=1e-6):
        raise ValueError(f"the rows of {name} must be probability distributions")
    return np.clip(P, 0.0, None)


def entropy(P: ArrayLike) -> np.ndarray:
    """Shannon entropy (nats) of each row of ``P`` (shape (n, c)) -> shape (n,); 0 log 0 = 0."""
    P = _check_dist(P, "P")
    return -np.sum(np.where(P > 0, P * np.log(np.where(P > 0, P, 1.0)), 0.0), axis=1)


def ldl_measures(P_true: ArrayLike, P_pred: ArrayLike) -> dict[str, np.ndarray]:
    r"""The six usual label-distribution measures, per sample (Geng, 2016).

    Distances (lower is better): ``kl`` :math:`\sum p\log(p/q)`, ``chebyshev`` :math:`\max|p-q|`, ``clark``
    :math:`\sqrt{\sum (p-q)^2/(p+q)^2}`, ``canberra`` :math:`\sum |p-q|/(p+q)`; similarities (higher is better):
    ``cosine``, ``intersection`` :math:`\sum\min(p,q)`. Terms with :math:`p+q=0` count 0; ``q`` is floored at
    1e-12 inside the KL logarithm.

    Parameters
    ----------
    P_true, P_pred : array_like, shape (n, c)

    Returns
    -------
    dict of str -> ndarray of shape (n,)
    """
    p, q = _check_dist(P_true, "P_true"), _check_dist(P_pred, "P_pred")
    if p.shape != q.shape:
        raise ValueError(f"P_true and P_pred must have the same shape; got {p.shape}, {q.shape}")
    s = p + q
    ratio = np.where(s > 0, np.abs(p - q) / np.where(s > 0, s, 1.0), 0.0)
    kl = np.sum(np.where(p > 0, p * (np.log(np.where(p > 0, p, 1.0)) - np.log(np.maximum(q, EPS))), 0.0), axis=1)
    return {
        "kl": kl,
        "chebyshev": np.max(np.abs(p - q), axis=1),
        "clark": np.sqrt(np.sum(ratio ** 2, axis=1)),
        "canberra": np.sum(ratio, axis=1),
        "cosine": np.sum(p * q, axis=1) / (np.linalg.norm(p, axis=1) * np.linalg.norm(q, axis=1)),
        "intersection": np.sum(np.minimum(p, q), axis=1),
    }


def split_by_entropy(P: ArrayLike, tau: float) -> np.ndarray:
    """Boolean mask (shape (n,)) of the *low*-entropy rows of ``P``: entropy (nats) strictly below ``tau``."""
    tau = check_positive(tau, "tau")
    return entropy(P) < tau


def calibrated_aggregate(values: ArrayLike, P_true: ArrayLike, tau: float) -> float:
    r"""Entropy-calibrated aggregation: :math:`\tfrac12(\text{mean over low} + \text{mean over high})`.

    The per-sample ``values`` (shape (n,)) are averaged within the low-entropy (``H < tau``) and the
    high-entropy subsets of the test set separately, and the two means averaged, so the imbalance between the
    subsets does not weight the result (the paper's aggregation as described in its abstract).
    """
    v = np.asarray(values, dtype=float)
    low = split_by_entropy(P_true, tau)
    if v.shape != low.shape:
        raise ValueError(f"values must have shape ({low.size},); got {v.shape}")
    if low.all() or not low.any():
        raise ValueError("both entropy subsets must be non-empty")
    return 0.5 * (float(v[low].mean()) + float(v[~low].mean()))


def anchor_angles(W: Tensor | ArrayLike) -> np.ndarray:
    r"""Angles :math:`\theta_{kl}` (degrees) between all pairs :math:`k < l` of anchor rows of ``W`` (shape (c, m)).

    Returns
    -------
    ndarray, shape (c (c - 1) / 2,)
    """
    W = np.asarray(W.detach() if isinstance(W, Tensor) else W, dtype=float)
    if W.ndim != 2 or W.shape[0] < 2:
        raise ValueError(f"W must have shape (c, m) with c >= 2; got {W.shape}")
    U = W / np.linalg.norm(W, axis=1, keepdims=True)
    k, l = np.triu_indices(W.shape[0], 1)
    return np.degrees(np.arccos(np.clip(np.sum(U[k] * U[l], axis=1), -1.0, 1.0)))


def angular_regularizer(W: Tensor, theta0: float) -> Tensor:
    r"""Inter-anchor angular penalty :math:`R(W) = \sum_{k<l}\max(0, \cos\theta_{kl} - \cos\theta_0)^2`.

    Zero when every pair of anchors is at least :math:`\theta_0` apart; penalises over-small angles
    (cohesion). The paper's exact penalty was not found; this is the brief's form.

    Parameters
    ----------
    W : Tensor, shape (c, m)
    theta0 : float
        Smallest unpenalised angle, in degrees, in (0, 180].
    """
    if W.ndim != 2 or W.shape[0] < 2:
        raise ValueError(f"W must have shape (c, m) with c >= 2; got {tuple(W.shape)}")
    if not 0.0 < float(theta0) <= 180.0:
        raise ValueError(f"theta0 must be in (0, 180] degrees; got {theta0}")
    U = F.normalize(W, dim=1)
    k, l = torch.triu_indices(W.shape[0], W.shape[0], 1)
    cos = (U[k] * U[l]).sum(1)
    return torch.relu(cos - float(np.cos(np.radians(theta0)))).pow(2).sum()


def max_prob_bound(W: Tensor | ArrayLike, r: float) -> np.ndarray:
    r"""Largest probability class :math:`k` can receive for any feature of norm at most ``r``.

    Since :math:`o_k - o_j = f\cdot(w_k - w_j) \le r\|w_k - w_j\|`,
    :math:`p_k \le 1/(1 + \sum_{j\ne k} e^{-r\|w_k - w_j\|})`; with equal anchor norms :math:`s`,
    :math:`\|w_k-w_j\| = s\sqrt{2 - 2\cos\theta_{kj}}`, so cohesive anchors cap how confident (low-entropy)
    a prediction can be.

    Returns
    -------
    ndarray, shape (c,)
    """
    W = np.asarray(W.detach() if isinstance(W, Tensor) else W, dtype=float)
    r = check_positive(r, "r")
    if W.ndim != 2 or W.shape[0] < 2:
        raise ValueError(f"W must have shape (c, m) with c >= 2; got {W.shape}")
    D = np.linalg.norm(W[:, None, :] - W[None, :, :], axis=2)
    E = np.exp(-r * D)
    np.fill_diagonal(E, 0.0)
    return 1.0 / (1.0 + E.sum(1))


def make_ldl_data(n: int, d: int, c: int, low_frac: float, seed: int,
                  beta_low: tuple[float, float] = (4.0, 8.0),
                  beta_high: tuple[float, float] = (0.2, 1.0)) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Synthetic label distributions with an imbalanced entropy profile (the brief's data (a)).

    :math:`x\sim N(0, I_d)`, a fixed random teacher :math:`V` (c × d) and
    :math:`d_x = \operatorname{softmax}(\beta_x V x/\sqrt d)`, with a sharpness :math:`\beta_x` drawn uniformly
    from ``beta_low`` for a fraction ``low_frac`` of the samples (peaked, low-entropy distributions) and from
    ``beta_high`` for the rest (flat, high-entropy ones).

    Returns
    -------
    (X, P, is_low) : shapes (n, d), (n, c), (n,)
        Inputs, label distributions, and which samples drew a low-entropy sharpness.
    """
    n, d, c = check_int(n, "n", least=2), check_int(d, "d", least=1), check_int(c, "c", least=2)
    if not 0.0 < low_frac < 1.0:
        raise ValueError(f"low_frac must be in (0, 1); got {low_frac}")
    rng = np.random.default_rng(seed)
    V = rng.normal(size=(c, d))                        # the teacher: the same for every n at a given seed
    X = rng.normal(size=(n, d))
    is_low = rng.random(n) < low_frac
    beta = np.where(is_low, rng.uniform(*beta_low, size=n), rng.uniform(*beta_high, size=n))
    logits = beta[:, None] * (X @ V.T) / np.sqrt(d)
    logits -= logits.max(1, keepdims=True)
    P = np.exp(logits)
    return X, P / P.sum(1, keepdims=True), is_low


class LDLNet(nn.Module):
    r"""Prediction :math:`\operatorname{softmax}(W f(x))` with :math:`\|f(x)\| = r` and anchors of norm :math:`s`.

    ``f``: an MLP whose output is rescaled to norm ``r``; anchors: ``s * normalize(V)`` for a free matrix ``V``
    (c × m), so only the anchors' directions are learned and their angles set how peaked a prediction can be
    (:func:`max_prob_bound`).

    Parameters
    ----------
    d, c : int
        Input size; number of labels.
    hidden, m : int
        Hidden width; feature size.
    r, s : float
        Feature and anchor norms.
    """

    def __init__(self, d: int, c: int, hidden: int = 64, m: int = 8, r: float = 1.0, s: float = 4.0) -> None:
        super().__init__()
        for name, v in (("d", d), ("c", c), ("hidden", hidden), ("m", m)):
            check_int(v, name, least=1)
        self.r, self.s = check_positive(r, "r"), check_positive(s, "s")
        self.f = nn.Sequential(nn.Linear(d, hidden), nn.ReLU(), nn.Linear(hidden, m))
        self.V = nn.Parameter(torch.randn(c, m) / np.sqrt(m))

    @property
    def W(self) -> Tensor:
        """Anchors, shape (c, m), each of norm ``s``."""
        return self.s * F.normalize(self.V, dim=1)

    def forward(self, x: Tensor) -> Tensor:
        """Log-probabilities, shape (n, c), for inputs of shape (n, d)."""
        feat = self.r * F.normalize(self.f(x), dim=1)
        return torch.log_softmax(feat @ self.W.T, dim=1)


def train_ldl(X: ArrayLike, P: ArrayLike, seed: int, *, steps: int, reg: str = "none", lam: float = 0.0,
              theta0: float = 90.0, lr: float = 1e-2, batch_size: int = 256, **net) -> tuple[LDLNet, list[float]]:
    r"""Fit an :class:`LDLNet` by mini-batch Adam on the mean KL divergence :math:`KL(d_x\|\hat d_x)` plus a penalty.

    ``reg``: ``"none"``; ``"angular"`` (:math:`\lambda R(W)`, :func:`angular_regularizer` with ``theta0``);
    ``"l2"`` (control: :math:`\lambda\|V\|^2`, a generic penalty of the same weight that ignores angles).
    The initial weights and batches depend on ``seed`` only.

    Returns
    -------
    (LDLNet, list of float)
        The model and the training loss at each step.
    """
    if reg not in ("none", "angular", "l2"):
        raise ValueError(f"reg must be 'none', 'angular' or 'l2'; got {reg!r}")
    steps = check_int(steps, "steps", least=1)
    lam = check_positive(lam, "lam", strict=False)
    Xt = torch.as_tensor(np.asarray(X, dtype=np.float32))
    Pt = torch.as_tensor(_check_dist(P, "P").astype(np.float32))
    torch.manual_seed(check_int(seed, "seed", least=0))
    model = LDLNet(Xt.shape[1], Pt.shape[1], **net)
    opt = Adam(list(model.parameters()), lr=check_positive(lr, "lr"))
    gen = torch.Generator().manual_seed(int(seed))
    hist = []
    for _ in range(steps):
        idx = torch.randint(0, Xt.shape[0], (min(batch_size, Xt.shape[0]),), generator=gen)
        loss = F.kl_div(model(Xt[idx]), Pt[idx], reduction="batchmean")
        if reg == "angular":
            loss = loss + lam * angular_regularizer(model.W, theta0)
        elif reg == "l2":
            loss = loss + lam * model.V.pow(2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist.append(float(loss.detach()))
    return model, hist


@torch.no_grad()
def predict(model: LDLNet, X: ArrayLike) -> np.ndarray:
    """Predicted label distributions, shape (n, c), in float64."""
    return model(torch.as_tensor(np.asarray(X, dtype=np.float32))).exp().double().numpy()
