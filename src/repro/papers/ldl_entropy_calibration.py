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

Comparators of the page's tests (none of them is the paper's): anchors fixed at a regular simplex
(:func:`simplex_anchors`, ``train_ldl(anchors="simplex")``), a loss that weighs the low- and high-entropy
training samples equally (:func:`entropy_balanced_weights`, ``train_ldl(weighting="entropy-balanced")``),
a learner's predictions sharpened by one temperature fitted on the training set (:func:`sharpen`,
:func:`fit_temperature`), AA-kNN, the k-nearest-neighbour average of training label distributions (Geng,
2016): :func:`knn_ldl`, and the best prediction in mean KL when the sharpness is random: :func:`bayes_ldl`.
The ``"l2"`` penalty of :func:`train_ldl` is a strawman (the model does not depend on the scale it penalises).
The brief's claim check 2 as one number: :func:`brief_check_margin`. Many runs are trained at once, with the
same iterates as one at a time, by :func:`train_ldl_many`.
"""

from __future__ import annotations

import copy

import numpy as np
import torch
import torch.nn.functional as F
from numpy.typing import ArrayLike
from scipy.special import ndtr
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


def simplex_anchors(c: int, m: int) -> np.ndarray:
    r"""Unit vectors of a regular simplex: ``c`` directions in :math:`\mathbb R^m` with every pairwise cosine
    :math:`-1/(c-1)`, the largest smallest angle ``c`` directions can have (needs :math:`c \le m + 1`).

    The centred standard basis of :math:`\mathbb R^c`, written in an orthonormal basis of its
    :math:`(c-1)`-dimensional span and padded with zeros to ``m`` coordinates.

    Returns
    -------
    ndarray, shape (c, m)
    """
    c, m = check_int(c, "c", least=2), check_int(m, "m", least=1)
    if c > m + 1:
        raise ValueError(f"a regular simplex of {c} directions needs m >= c - 1; got m = {m}")
    E = np.eye(c) - 1.0 / c
    U, S, _ = np.linalg.svd(E)
    coords = U[:, : c - 1] * S[: c - 1]                # (c, c-1): the same Gram matrix as E
    out = np.zeros((c, m))
    out[:, : c - 1] = coords
    return out / np.linalg.norm(out, axis=1, keepdims=True)


def entropy_balanced_weights(P: ArrayLike, tau: float) -> np.ndarray:
    """Per-sample weights (shape (n,), mean 1) that give the low-entropy (``H < tau``) and the high-entropy
    samples of ``P`` the same total weight: the naive fix of an imbalance, by re-weighting the loss."""
    low = split_by_entropy(P, tau)
    if low.all() or not low.any():
        raise ValueError("both entropy subsets must be non-empty")
    n = low.size
    return np.where(low, 0.5 * n / low.sum(), 0.5 * n / (~low).sum())


def sharpen(P_pred: ArrayLike, T: float) -> np.ndarray:
    r"""Temperature scaling of predicted distributions: :math:`q_k \propto \hat d_k^{1/T}` (shape (n, c)).

    ``T < 1`` sharpens (lowers the entropy of every prediction), ``T > 1`` flattens, ``T = 1`` changes nothing.
    Predictions are floored at 1e-12 before the logarithm.
    """
    Q = _check_dist(P_pred, "P_pred")
    T = check_positive(T, "T")
    z = np.log(np.maximum(Q, EPS)) / T
    z -= z.max(1, keepdims=True)
    E = np.exp(z)
    return E / E.sum(1, keepdims=True)


TEMPERATURE_GRID = tuple(float(t) for t in np.linspace(0.3, 1.5, 49))


def fit_temperature(P_pred: ArrayLike, P_true: ArrayLike, tau: float,
                    grid: tuple[float, ...] = TEMPERATURE_GRID) -> float:
    """The temperature of ``grid`` whose :func:`sharpen`-ed predictions have the lowest calibrated KL aggregate
    (:func:`calibrated_aggregate` of the per-sample KL at threshold ``tau``) against ``P_true``.

    A naive post-hoc fix of a learner's entropy bias: one scalar, fitted on the *training* set, none of the
    paper's ideas. The first of equally good temperatures wins.
    """
    if not grid:
        raise ValueError("grid must hold at least one temperature")
    Q, Pt = _check_dist(P_pred, "P_pred"), _check_dist(P_true, "P_true")
    if Q.shape != Pt.shape:
        raise ValueError(f"P_pred and P_true must have the same shape; got {Q.shape}, {Pt.shape}")
    low = split_by_entropy(Pt, tau)
    if low.all() or not low.any():
        raise ValueError("both entropy subsets must be non-empty")
    logQ = np.log(np.maximum(Q, EPS))
    plogp = np.sum(np.where(Pt > 0, Pt * np.log(np.where(Pt > 0, Pt, 1.0)), 0.0), axis=1)
    scores = []
    for T in grid:                     # the KL of ldl_measures, for the sharpened predictions, without the rest
        z = logQ / T
        z -= z.max(1, keepdims=True)
        logS = z - np.log(np.exp(z).sum(1, keepdims=True))
        kl = plogp - np.sum(Pt * np.maximum(logS, np.log(EPS)), axis=1)
        scores.append(0.5 * (kl[low].mean() + kl[~low].mean()))
    return float(grid[int(np.argmin(scores))])


def brief_check_margin(low_cut: float, high_change: float, cut_min: float = 0.10,
                       change_max: float = 0.05) -> float:
    r"""Margin of the brief's claim check 2, a conjunction: a relative cut in low-entropy KL of at least
    ``cut_min`` *and* a relative change in high-entropy KL of at most ``change_max``.

    :math:`\min(\text{low\_cut} - \text{cut\_min},\ \text{change\_max} - \text{high\_change})`: at least 0
    exactly when both halves hold; its distance from 0 is the distance of the binding half from its threshold.
    """
    for name, v in (("low_cut", low_cut), ("high_change", high_change), ("cut_min", cut_min),
                    ("change_max", change_max)):
        if not np.isfinite(v):
            raise ValueError(f"{name} must be finite; got {v}")
    return float(min(low_cut - cut_min, change_max - high_change))


def knn_ldl(X_train: ArrayLike, P_train: ArrayLike, X_test: ArrayLike, k: int) -> np.ndarray:
    """AA-kNN (Geng, 2016): the mean label distribution of the ``k`` nearest training inputs (Euclidean).

    Brute force in numpy (the neighbours of scikit-learn's ``NearestNeighbors``, without its import time). No
    anchors and no softmax: a classical LDL learner with none of the paper's ingredients.

    Returns
    -------
    ndarray, shape (n_test, c)
    """
    Xtr, Xte = np.asarray(X_train, dtype=float), np.asarray(X_test, dtype=float)
    Ptr = _check_dist(P_train, "P_train")
    k = check_int(k, "k", least=1)
    if Xtr.ndim != 2 or Xte.ndim != 2 or Xtr.shape[1] != Xte.shape[1] or len(Xtr) != len(Ptr):
        raise ValueError(f"X_train (n, d), P_train (n, c) and X_test (n', d) disagree: {Xtr.shape}, {Ptr.shape}, "
                         f"{Xte.shape}")
    if k > len(Xtr):
        raise ValueError(f"k = {k} exceeds the {len(Xtr)} training samples")
    d2 = (Xte ** 2).sum(1)[:, None] + (Xtr ** 2).sum(1)[None, :] - 2.0 * Xte @ Xtr.T   # squared distances
    idx = np.argpartition(d2, k - 1, axis=1)[:, :k] if k < len(Xtr) else np.broadcast_to(np.arange(k), d2.shape)
    return Ptr[idx].mean(axis=1)


def teacher_matrix(d: int, c: int, seed: int) -> np.ndarray:
    """The random teacher :math:`V` (shape (c, d)) that :func:`make_ldl_data` draws first at ``seed``."""
    d, c = check_int(d, "d", least=1), check_int(c, "c", least=2)
    return np.random.default_rng(seed).normal(size=(c, d))


def make_ldl_data(n: int, d: int, c: int, low_frac: float, seed: int,
                  beta_low: tuple[float, float] = (4.0, 8.0),
                  beta_high: tuple[float, float] = (0.2, 1.0),
                  sharpness: str = "random") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Synthetic label distributions with an imbalanced entropy profile (the brief's data (a)).

    :math:`x\sim N(0, I_d)`, a fixed random teacher :math:`V` (c × d, :func:`teacher_matrix`) and
    :math:`d_x = \operatorname{softmax}(\beta_x V x/\sqrt d)`. A fraction ``low_frac`` of the samples gets a
    sharpness :math:`\beta_x` in ``beta_low`` (peaked, low-entropy distributions), the rest one in ``beta_high``
    (flat, high-entropy ones).

    ``sharpness="random"``: :math:`\beta_x` is drawn independently of :math:`x` (which samples are peaked cannot
    be told from the input; :func:`bayes_ldl` is then the best any learner can do). ``sharpness="input"`` (the
    brief's :math:`\beta(x)`): with :math:`u = \Phi(x_1)` uniform, the samples with :math:`u > 1 -` ``low_frac``
    are peaked and :math:`\beta` rises linearly in :math:`u` across each range, so the sharpness is a function of
    the input and a learner can fit it. The same ``seed`` gives the same ``X`` and teacher in both modes.

    Returns
    -------
    (X, P, is_low) : shapes (n, d), (n, c), (n,)
        Inputs, label distributions, and which samples got a low-entropy sharpness.
    """
    n, d, c = check_int(n, "n", least=2), check_int(d, "d", least=1), check_int(c, "c", least=2)
    if not 0.0 < low_frac < 1.0:
        raise ValueError(f"low_frac must be in (0, 1); got {low_frac}")
    if sharpness not in ("random", "input"):
        raise ValueError(f"sharpness must be 'random' or 'input'; got {sharpness!r}")
    rng = np.random.default_rng(seed)
    V = rng.normal(size=(c, d))                        # the teacher: the same for every n at a given seed
    X = rng.normal(size=(n, d))
    if sharpness == "random":
        is_low = rng.random(n) < low_frac
        beta = np.where(is_low, rng.uniform(*beta_low, size=n), rng.uniform(*beta_high, size=n))
    else:
        u = ndtr(X[:, 0])
        cut = 1.0 - low_frac
        is_low = u > cut
        beta = np.where(is_low, beta_low[0] + (beta_low[1] - beta_low[0]) * (u - cut) / low_frac,
                        beta_high[0] + (beta_high[1] - beta_high[0]) * u / cut)
    logits = beta[:, None] * (X @ V.T) / np.sqrt(d)
    logits -= logits.max(1, keepdims=True)
    P = np.exp(logits)
    return X, P / P.sum(1, keepdims=True), is_low


def bayes_ldl(X: ArrayLike, V: ArrayLike, low_frac: float, beta_low: tuple[float, float] = (4.0, 8.0),
              beta_high: tuple[float, float] = (0.2, 1.0), n_quad: int = 32) -> np.ndarray:
    r"""The best prediction under KL for :func:`make_ldl_data`'s ``sharpness="random"``: :math:`E[d_x \mid x]`.

    :math:`\min_q E[\mathrm{KL}(d\|q)\mid x]` is attained at :math:`q = E[d\mid x]`, here the mixture
    ``low_frac`` :math:`\cdot E_{\beta\sim U(\text{beta\_low})}` + (1 - ``low_frac``)
    :math:`\cdot E_{\beta\sim U(\text{beta\_high})}` of :math:`\operatorname{softmax}(\beta Vx/\sqrt d)`, each
    expectation by Gauss-Legendre quadrature with ``n_quad`` nodes. It knows the teacher: an oracle.

    Returns
    -------
    ndarray, shape (n, c)
    """
    X, V = np.asarray(X, dtype=float), np.asarray(V, dtype=float)
    if X.ndim != 2 or V.ndim != 2 or X.shape[1] != V.shape[1]:
        raise ValueError(f"X (n, d) and V (c, d) disagree: {X.shape}, {V.shape}")
    if not 0.0 < low_frac < 1.0:
        raise ValueError(f"low_frac must be in (0, 1); got {low_frac}")
    nodes, weights = np.polynomial.legendre.leggauss(check_int(n_quad, "n_quad", least=1))
    z = X @ V.T / np.sqrt(X.shape[1])
    out = np.zeros_like(z)
    for frac, (a, b) in ((low_frac, beta_low), (1.0 - low_frac, beta_high)):
        for t, w in zip(nodes, weights):
            logits = (a + (b - a) * (t + 1) / 2) * z
            logits -= logits.max(1, keepdims=True)
            e = np.exp(logits)
            out += frac * (w / 2) * e / e.sum(1, keepdims=True)
    return out / out.sum(1, keepdims=True)


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
    fixed_anchors : array_like of shape (c, m), optional
        Anchor directions held fixed (not learned; a comparator). The free matrix is still drawn, so the
        feature map starts from the same weights as with learned anchors.
    """

    def __init__(self, d: int, c: int, hidden: int = 64, m: int = 8, r: float = 1.0, s: float = 4.0,
                 fixed_anchors: ArrayLike | None = None) -> None:
        super().__init__()
        for name, v in (("d", d), ("c", c), ("hidden", hidden), ("m", m)):
            check_int(v, name, least=1)
        self.r, self.s = check_positive(r, "r"), check_positive(s, "s")
        self.f = nn.Sequential(nn.Linear(d, hidden), nn.ReLU(), nn.Linear(hidden, m))
        V = torch.randn(c, m) / np.sqrt(m)
        if fixed_anchors is None:
            self.V = nn.Parameter(V)
        else:
            A = torch.as_tensor(np.asarray(fixed_anchors, dtype=np.float32))
            if A.shape != (c, m) or not torch.all(A.norm(dim=1) > 0):
                raise ValueError(f"fixed_anchors must have shape ({c}, {m}) with non-zero rows; got {tuple(A.shape)}")
            self.register_buffer("V", A)

    @property
    def W(self) -> Tensor:
        """Anchors, shape (c, m), each of norm ``s``."""
        return self.s * F.normalize(self.V, dim=1)

    def forward(self, x: Tensor) -> Tensor:
        """Log-probabilities, shape (n, c), for inputs of shape (n, d)."""
        feat = self.r * F.normalize(self.f(x), dim=1)
        return torch.log_softmax(feat @ self.W.T, dim=1)


_REGS, _ANCHORS, _WEIGHTINGS = ("none", "angular", "l2"), ("learned", "simplex"), ("none", "entropy-balanced")


def _check_run(run: dict, default_theta0: float) -> dict:
    """One run of :func:`train_ldl_many`, validated and completed with its defaults."""
    unknown = set(run) - {"seed", "reg", "lam", "theta0", "anchors", "weighting", "tau"}
    if unknown:
        raise ValueError(f"unknown run keys {sorted(unknown)}")
    if "seed" not in run:
        raise ValueError("every run needs its seed")
    out = dict(seed=check_int(run["seed"], "seed", least=0), reg=run.get("reg", "none"),
               lam=check_positive(run.get("lam", 0.0), "lam", strict=False),
               theta0=float(run.get("theta0", default_theta0)), anchors=run.get("anchors", "learned"),
               weighting=run.get("weighting", "none"), tau=run.get("tau"))
    if out["reg"] not in _REGS:
        raise ValueError(f"reg must be 'none', 'angular' or 'l2'; got {out['reg']!r}")
    if out["anchors"] not in _ANCHORS:
        raise ValueError(f"anchors must be 'learned' or 'simplex'; got {out['anchors']!r}")
    if out["weighting"] not in _WEIGHTINGS:
        raise ValueError(f"weighting must be 'none' or 'entropy-balanced'; got {out['weighting']!r}")
    if out["anchors"] == "simplex" and out["reg"] != "none":
        raise ValueError("fixed simplex anchors take no anchor penalty (reg='none')")
    if out["weighting"] == "entropy-balanced" and out["tau"] is None:
        raise ValueError("weighting='entropy-balanced' needs the entropy threshold tau")
    if not 0.0 < out["theta0"] <= 180.0:
        raise ValueError(f"theta0 must be in (0, 180] degrees; got {out['theta0']}")
    return out


def train_ldl_many(X: ArrayLike | list, P: ArrayLike | list, runs: list[dict], *, steps: int, lr: float = 1e-2,
                   batch_size: int = 256, theta0: float = 90.0, at_steps: tuple[int, ...] = (),
                   **net) -> tuple[list[LDLNet], np.ndarray, dict[int, list[LDLNet]]]:
    r"""Fit several :class:`LDLNet` models at once: :func:`train_ldl` for each run, vectorised.

    Each run is a dict with ``seed`` and optionally ``reg``, ``lam``, ``theta0``, ``anchors``, ``weighting`` and
    ``tau``, meaning what :func:`train_ldl`'s arguments mean, and ``data``: the index of its training set when
    ``X`` and ``P`` are lists of training sets (of equal shapes; default 0). Run ``v`` starts from the weights
    ``LDLNet(...)`` draws after ``torch.manual_seed(seed_v)`` and draws its batches from a generator seeded with
    ``seed_v``, exactly as :func:`train_ldl` does; the runs' parameters are stacked along a leading axis and
    their losses summed, so each run's gradient is that of its own loss, and Adam, which acts element by element,
    takes each run's own steps. The result equals separate :func:`train_ldl` calls up to float rounding (batched
    matrix products sum in another order), at a fraction of the per-step overhead.

    Parameters
    ----------
    X, P : array_like of shapes (n, d) and (n, c), or lists of them
        Training inputs and label distributions.
    at_steps : tuple of int
        Also return copies of the models after these step counts (each in [1, ``steps``]).

    Returns
    -------
    (models, hist, saved)
        The trained models (one per run, in order), the training loss of each run at each step (shape
        (steps, runs)), and ``{step: models}`` for each step of ``at_steps``.
    """
    steps = check_int(steps, "steps", least=1)
    if not runs:
        raise ValueError("runs must name at least one run")
    theta0 = float(theta0)
    runs_in = list(runs)
    runs = [_check_run({k: v for k, v in r.items() if k != "data"}, theta0) for r in runs_in]
    at_steps = tuple(check_int(t, "at_steps", least=1) for t in at_steps)
    if any(t > steps for t in at_steps):
        raise ValueError(f"at_steps must lie in [1, {steps}]; got {at_steps}")
    Xs, Ps = (list(X), list(P)) if isinstance(X, (list, tuple)) else ([X], [P])
    if len(Xs) != len(Ps) or not Xs:
        raise ValueError("X and P must hold the same number of training sets")
    Xs = [np.asarray(x, dtype=np.float32) for x in Xs]
    Ps = [_check_dist(p, "P") for p in Ps]
    if any(x.ndim != 2 or x.shape != Xs[0].shape or len(x) != len(p) or p.shape != Ps[0].shape
           for x, p in zip(Xs, Ps)):
        raise ValueError(f"every X must have shape (n, d) and every P (n, c), all alike; got "
                         f"{[x.shape for x in Xs]}, {[p.shape for p in Ps]}")
    group = [run.get("data", 0) for run in runs_in]
    if any(isinstance(g, bool) or not isinstance(g, (int, np.integer)) or not 0 <= g < len(Xs) for g in group):
        raise ValueError(f"a run's data must index one of the {len(Xs)} training sets; got {group}")
    Xt = torch.as_tensor(np.stack(Xs))                                                          # (G, n, d)
    Pt = torch.as_tensor(np.stack(Ps).astype(np.float32))                                      # (G, n, c)
    n, c = Ps[0].shape
    m = net.get("m", 8)
    ones = torch.ones(n)
    wts = torch.stack([torch.as_tensor(entropy_balanced_weights(Ps[g], r["tau"]).astype(np.float32))
                       if r["weighting"] == "entropy-balanced" else ones for g, r in zip(group, runs)])   # (V, n)
    gv = torch.tensor(group)[:, None]
    models = []
    for r in runs:
        torch.manual_seed(r["seed"])
        kw = dict(net, fixed_anchors=simplex_anchors(c, m)) if r["anchors"] == "simplex" else net
        models.append(LDLNet(Xt.shape[2], c, **kw))
    lin1, lin2 = [mo.f[0] for mo in models], [mo.f[2] for mo in models]
    W1 = torch.stack([a.weight.detach().T for a in lin1]).clone().requires_grad_()            # (V, d, h)
    b1 = torch.stack([a.bias.detach()[None] for a in lin1]).clone().requires_grad_()          # (V, 1, h)
    W2 = torch.stack([a.weight.detach().T for a in lin2]).clone().requires_grad_()            # (V, h, m)
    b2 = torch.stack([a.bias.detach()[None] for a in lin2]).clone().requires_grad_()          # (V, 1, m)
    A = torch.stack([mo.V.detach() for mo in models]).clone().requires_grad_()                # (V, c, m)
    learned = torch.tensor([r["anchors"] == "learned" for r in runs])[:, None, None]
    lam_ang = torch.tensor([r["lam"] if r["reg"] == "angular" else 0.0 for r in runs])
    lam_l2 = torch.tensor([r["lam"] if r["reg"] == "l2" else 0.0 for r in runs])
    cos0 = torch.tensor([float(np.cos(np.radians(r["theta0"]))) for r in runs])[:, None]
    k, l = torch.triu_indices(c, c, 1)
    rr, ss = models[0].r, models[0].s
    params = [W1, b1, W2, b2, A]
    opt = Adam(params, lr=check_positive(lr, "lr"))
    seeds = sorted({r["seed"] for r in runs})
    gens = {sd: torch.Generator().manual_seed(sd) for sd in seeds}
    which = torch.tensor([seeds.index(r["seed"]) for r in runs])
    bsz = min(batch_size, n)
    hist, saved = [], {}

    def export() -> list[LDLNet]:
        out = []
        for v, mo in enumerate(models):
            new = copy.deepcopy(mo)
            with torch.no_grad():
                new.f[0].weight.copy_(W1[v].T)
                new.f[0].bias.copy_(b1[v, 0])
                new.f[2].weight.copy_(W2[v].T)
                new.f[2].bias.copy_(b2[v, 0])
                if runs[v]["anchors"] == "learned":
                    new.V.copy_(A[v])
            out.append(new)
        return out

    for t in range(1, steps + 1):
        idx = torch.stack([torch.randint(0, n, (bsz,), generator=gens[sd]) for sd in seeds])[which]   # (V, B)
        xb, pb, wb = Xt[gv, idx], Pt[gv, idx], torch.gather(wts, 1, idx)
        h = torch.relu(torch.baddbmm(b1, xb, W1))
        feat = rr * F.normalize(torch.baddbmm(b2, h, W2), dim=2)
        U = F.normalize(torch.where(learned, A, A.detach()), dim=2)
        Wa = ss * U                                                                             # anchors
        logq = torch.log_softmax(torch.bmm(feat, Wa.transpose(1, 2)), dim=2)
        per = F.kl_div(logq, pb, reduction="none").sum(2)                                       # (V, B)
        loss = (wb * per).mean(1)
        Ua = F.normalize(Wa, dim=2)                                   # as angular_regularizer(model.W) computes it
        cos = (Ua[:, k] * Ua[:, l]).sum(2)
        loss = loss + lam_ang * torch.relu(cos - cos0).pow(2).sum(1) + lam_l2 * A.pow(2).sum((1, 2))
        opt.zero_grad()
        loss.sum().backward()
        opt.step()
        hist.append(loss.detach())
        if t in at_steps:
            saved[t] = export()
    return export(), torch.stack(hist).double().numpy(), saved


def train_ldl(X: ArrayLike, P: ArrayLike, seed: int, *, steps: int, reg: str = "none", lam: float = 0.0,
              theta0: float = 90.0, lr: float = 1e-2, batch_size: int = 256, anchors: str = "learned",
              weighting: str = "none", tau: float | None = None, **net) -> tuple[LDLNet, list[float]]:
    r"""Fit an :class:`LDLNet` by mini-batch Adam on the mean KL divergence :math:`KL(d_x\|\hat d_x)` plus a penalty.

    ``reg``: ``"none"``; ``"angular"`` (:math:`\lambda R(W)`, :func:`angular_regularizer` with ``theta0``);
    ``"l2"`` (:math:`\lambda\|V\|^2` on the free anchor matrix: a strawman, since the anchors
    :math:`s\,V/\|V\|` do not depend on the scale of :math:`V`; the penalty only shrinks :math:`V`, so that
    Adam's steps of fixed size turn the anchors faster).
    ``anchors``: ``"learned"``, or ``"simplex"`` (held at :func:`simplex_anchors`, never learned).
    ``weighting``: ``"none"`` (the mean KL), or ``"entropy-balanced"`` (each sample's KL weighted by
    :func:`entropy_balanced_weights` of the training distributions at threshold ``tau``).
    The initial weights and batches depend on ``seed`` only. One run of :func:`train_ldl_many`.

    Returns
    -------
    (LDLNet, list of float)
        The model and the training loss at each step.
    """
    run = dict(seed=seed, reg=reg, lam=lam, theta0=theta0, anchors=anchors, weighting=weighting, tau=tau)
    models, hist, _ = train_ldl_many(X, P, [run], steps=steps, lr=lr, batch_size=batch_size, **net)
    return models[0], [float(x) for x in hist[:, 0]]


@torch.no_grad()
def predict(model: LDLNet, X: ArrayLike) -> np.ndarray:
    """Predicted label distributions, shape (n, c), in float64."""
    return model(torch.as_tensor(np.asarray(X, dtype=np.float32))).exp().double().numpy()
