r"""SPICED (Zhou et al., NeurIPS 2025): a synaptic network over subjects for unsupervised continual EEG decoding.

A toy analogue on synthetic EEG-like signals (real EEG corpora need downloads). Notation of the paper and of its
code (``xiaobaben/SPICED``, ``builder/synaptic_builder.py``) mapped to this module:

* node :math:`i` = one subject (source subjects are labelled, target subjects arrive one by one, unlabelled),
  with a **prototype** :math:`p_i` (here: the subject's mean standardised log band-power vector);
* similarity :math:`s_{ij}` = domain-weighted cosine of the prototypes (:func:`domain_weighted_cosine`); an
  edge :math:`i \leftrightarrow j` is created when :math:`s_{ij} >` ``sim_threshold``, with strength 1 at
  both ends. Each end keeps its own copy :math:`w_{ij}` (row :math:`i` of :attr:`SynapticNetwork.strength`),
  because renormalisation decays each end with its own node's step counter;
* importance of neighbour :math:`j` for node :math:`i` (``get_target_importance``):
  :math:`I_{ij} = \alpha_{\rm sim}\, s_{ij} + \alpha_{\rm str}\, \bar w_j / \sum_{j'} \bar w_{j'}`, with
  :math:`\bar w_j` the mean strength of :math:`j`'s own connections;
* **critical memory reactivation** (``find_importance_knn``): the top-``k`` neighbours by
  :math:`I_{ij}/\sum_j I_{ij}`, their weights renormalised to sum to 1; their models are fused (weighted mean of
  parameters) to initialise the new subject's model and their stored samples are replayed;
* **synaptic consolidation** (``consolidate_memory``): every connection of a reactivated node whose strength is
  not exactly 1 is multiplied by 1.3 and capped at 3; the node's step counter restarts at 1;
* **synaptic renormalisation** (``renormalization_synapses``), after each new subject:
  :math:`w_{ij} \leftarrow w_{ij}\, e^{-\mathrm{step}_i / S}` (``S`` = ``decay``), then
  :math:`\mathrm{step}_i \leftarrow \mathrm{step}_i + 1`.

Accuracy matrices follow :mod:`repro.continual`: ``A[i, j]`` = accuracy on target subject ``j`` after adapting
to target subject ``i``. The official trainer's reported metric ("ACC After", ``utils.compute``) is the mean of the
diagonal of ``A``.

Two configurations (:class:`RunConfig`): the defaults of ``builder/synaptic_builder.py`` (``k`` = 1, link threshold
0.6), which the page first used, and :meth:`RunConfig.official`, the defaults of the official ``main.py`` (``k`` = 15,
threshold 0.1, storing at confidence 0.8 with the model from before adaptation, replay loss weight 0.3).

A naive baseline that uses none of the paper's ideas, added after the page's independent review:
per-subject feature centring (:func:`centre_subjects`, method ``"subject-centring"`` of :func:`continual_run`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from repro.validate import check_int, check_positive

BANDS: dict[str, tuple[float, float]] = {"theta": (4.0, 8.0), "alpha": (8.0, 13.0), "beta": (13.0, 30.0)}
METHODS = ("source-only", "naive", "source-reset", "uniform-replay", "source-replay", "spiced", "spiced-random",
           "spiced-no-homeostasis", "spiced-reversed", "finetune-labels", "oracle", "subject-centring")


# ---------------------------------------------------------------- synthetic EEG-like subjects ----------------

@dataclass
class SubjectParams:
    """One synthetic subject: how its latent sources reach its channels.

    ``mixing`` (C, S): source-to-channel gains; ``gain`` (C,): electrode gains; ``f_alpha``, ``f_beta``, ``f_theta``
    (Hz): the subject's rhythm frequencies; ``noise``: std of the white sensor noise; ``family``: the cluster it
    was drawn from.
    """

    mixing: np.ndarray
    gain: np.ndarray
    f_alpha: float
    f_beta: float
    f_theta: float
    noise: float
    family: int


def make_subjects(n_subjects: int, families: np.ndarray, rng: np.random.Generator, n_channels: int = 8,
                  n_sources: int = 3, family_mixing: np.ndarray | None = None,
                  spread: float = 0.35, gain_spread: float = 0.25) -> list[SubjectParams]:
    """Draw subjects from families: each family has a base mixing matrix, a subject perturbs it.

    Parameters
    ----------
    n_subjects : int
    families : array of int, shape (n_subjects,)
        The family of each subject (indices into ``family_mixing``).
    rng : numpy.random.Generator
    family_mixing : ndarray, shape (F, C, S), optional
        Base mixing matrices; drawn from |N(0, 1)| with one dominant channel group per source if omitted.
    spread : float
        Std of the subject's Gaussian perturbation of its family's mixing matrix.
    gain_spread : float
        Std of the log electrode gains.
    """
    n = check_int(n_subjects, "n_subjects", least=1)
    fam = np.asarray(families, dtype=int)
    if fam.shape != (n,) or fam.min() < 0:
        raise ValueError(f"families must be {n} non-negative integers")
    if family_mixing is None:
        family_mixing = draw_family_mixing(int(fam.max()) + 1, n_channels, n_sources, rng)
    if fam.max() >= len(family_mixing):
        raise ValueError("a family index exceeds the number of family mixing matrices")
    C, S = family_mixing.shape[1:]
    out = []
    for i in range(n):
        M = np.abs(family_mixing[fam[i]] + spread * rng.standard_normal((C, S)))
        out.append(SubjectParams(
            mixing=M, gain=np.exp(gain_spread * rng.standard_normal(C)),
            f_alpha=float(np.clip(10.0 + 0.8 * rng.standard_normal(), 8.8, 12.0)),
            f_beta=float(np.clip(20.0 + 2.0 * rng.standard_normal(), 15.0, 27.0)),
            f_theta=float(np.clip(6.0 + 0.5 * rng.standard_normal(), 4.8, 7.2)),
            noise=float(rng.uniform(0.6, 1.4)), family=int(fam[i])))
    return out


def draw_family_mixing(n_families: int, n_channels: int, n_sources: int, rng: np.random.Generator) -> np.ndarray:
    """Base mixing matrices (F, C, S): each family projects each source mostly onto its own random channel pair."""
    F = check_int(n_families, "n_families", least=1)
    C = check_int(n_channels, "n_channels", least=2)
    S = check_int(n_sources, "n_sources", least=1)
    M = 0.3 * np.abs(rng.standard_normal((F, C, S)))
    for f in range(F):
        ch = rng.permutation(C)
        for s in range(S):
            M[f, ch[(2 * s) % C], s] += 2.0
            M[f, ch[(2 * s + 1) % C], s] += 1.5
    return M


def synth_eeg_subject(n_trials: int, subject_params: SubjectParams, rng: np.random.Generator,
                      fs: float = 128.0, duration: float = 2.0) -> tuple[np.ndarray, np.ndarray]:
    r"""Trials of one subject: class ``c`` = latent source ``c`` carries the alpha rhythm, the others beta.

    Each latent source :math:`s` is :math:`a_s \sin(2\pi f_\alpha t + \phi) + b_s \sin(2\pi f_\beta t + \phi')`
    with :math:`(a_s, b_s) = (2, 0.5)` for the class source and :math:`(0.5, 1.5)` otherwise, times a log-normal
    trial amplitude; a theta rhythm of random amplitude is common to all sources (a nuisance). The channels are
    ``gain * (mixing @ sources) + noise``. Vectorised over trials, channels and time.

    Returns
    -------
    X : ndarray, shape (n_trials, C, round(fs * duration))
    y : ndarray of int, shape (n_trials,), classes 0..S-1 (balanced up to one trial)
    """
    n = check_int(n_trials, "n_trials", least=1)
    check_positive(fs, "fs")
    check_positive(duration, "duration")
    p = subject_params
    C, S = p.mixing.shape
    T = int(round(fs * duration))
    t = np.arange(T) / fs
    y = rng.permutation(np.arange(n) % S)
    is_cls = (np.arange(S)[None, :] == y[:, None])  # (n, S)
    a = np.where(is_cls, 2.0, 0.5) * np.exp(0.3 * rng.standard_normal((n, S)))
    b = np.where(is_cls, 0.5, 1.5) * np.exp(0.3 * rng.standard_normal((n, S)))
    ph = rng.uniform(0, 2 * np.pi, (2, n, S, 1))
    src = (a[..., None] * np.sin(2 * np.pi * p.f_alpha * t + ph[0])
           + b[..., None] * np.sin(2 * np.pi * p.f_beta * t + ph[1]))
    theta = (np.exp(0.5 * rng.standard_normal((n, 1, 1)))
             * np.sin(2 * np.pi * p.f_theta * t + rng.uniform(0, 2 * np.pi, (n, 1, 1))))
    X = np.einsum("cs,nst->nct", p.mixing, src + theta) * p.gain[None, :, None]
    X += p.noise * rng.standard_normal(X.shape)
    return X, y


def bandpower_features(X: np.ndarray, fs: float, bands: dict[str, tuple[float, float]] = BANDS) -> np.ndarray:
    r"""Log band power per channel and band, from the periodogram (rFFT), channel-major: index ``c * B + b``.

    Power in band :math:`[lo, hi)` = sum of :math:`|\hat x(f)|^2 / (f_s T)` over the rFFT bins with
    :math:`lo \le f < hi` (one-sided, the DC and Nyquist bins counted once), so that Parseval gives the signal's
    mean power when the bands tile the spectrum.

    Parameters
    ----------
    X : ndarray, shape (n, C, T)
    fs : float, Hz
    bands : mapping name -> (lo, hi) in Hz

    Returns
    -------
    ndarray, shape (n, C * len(bands)), natural log of the band powers.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 3 or X.shape[-1] < 2:
        raise ValueError(f"X must have shape (n, C, T) with T >= 2; got {X.shape}")
    check_positive(fs, "fs")
    if not bands:
        raise ValueError("bands must not be empty")
    T = X.shape[-1]
    freqs = np.fft.rfftfreq(T, 1.0 / fs)
    P = np.abs(np.fft.rfft(X, axis=-1)) ** 2 / (fs * T)
    P[..., 1:(T + 1) // 2] *= 2.0  # one-sided: double every bin except DC and (even T) Nyquist
    masks = []
    for name, (lo, hi) in bands.items():
        if not 0 <= lo < hi:
            raise ValueError(f"band {name!r} must have 0 <= lo < hi; got ({lo}, {hi})")
        m = (freqs >= lo) & (freqs < hi)
        if not m.any():
            raise ValueError(f"band {name!r} ({lo}, {hi}) Hz holds no frequency bin at T={T}, fs={fs}")
        masks.append(m)
    bp = np.stack([P[..., m].sum(-1) for m in masks], axis=-1) * (fs / T)  # (n, C, B)
    return np.log(bp).reshape(len(X), -1)


def band_groups(n_channels: int, bands: dict[str, tuple[float, float]] = BANDS) -> dict[str, np.ndarray]:
    """Feature indices of each band in the channel-major layout of :func:`bandpower_features`."""
    C = check_int(n_channels, "n_channels", least=1)
    B = len(bands)
    return {name: np.arange(C) * B + b for b, name in enumerate(bands)}


# ---------------------------------------------------------------- the synaptic network ------------------------

def domain_weighted_cosine(x: np.ndarray, y: np.ndarray, groups: dict[str, np.ndarray] | None = None,
                           weights: dict[str, float] | None = None) -> float:
    r"""Domain-weighted cosine similarity (``PrototypeSimilarityCalculator.domain_weighted_cosine``).

    :math:`\sum_g w_g \cos(x_g, y_g) / \sum_g w_g`, with :math:`\cos(u, v) = u\cdot v / (\|u\|\|v\| + 10^{-8})`
    as in the official code. Without ``groups``, one group holding every feature (plain cosine).
    """
    x = np.asarray(x, dtype=float).ravel()
    y = np.asarray(y, dtype=float).ravel()
    if x.shape != y.shape or x.size == 0:
        raise ValueError(f"x and y must be non-empty vectors of one length; got {x.shape} and {y.shape}")
    if groups is None:
        groups = {"all": np.arange(x.size)}
    weights = weights or {g: 1.0 for g in groups}
    if set(weights) != set(groups):
        raise ValueError("weights must name exactly the groups")
    total = 0.0
    for g, idx in groups.items():
        u, v = x[idx], y[idx]
        total += weights[g] * float(u @ v) / (float(np.linalg.norm(u) * np.linalg.norm(v)) + 1e-8)
    return total / float(sum(weights.values()))


@dataclass
class SynapticNetwork:
    """The synaptic network of ``builder/synaptic_builder.py``, as arrays.

    Attributes
    ----------
    sim : ndarray (n, n)
        Similarity of connected pairs (0 elsewhere).
    connected : ndarray of bool (n, n), symmetric
    strength : ndarray (n, n)
        ``strength[i, j]``: node ``i``'s copy of the strength of its connection to ``j`` (0 if none). The two
        copies of an edge differ once renormalisation has run, as in the official code.
    step : ndarray of int (n,)
        Each node's renormalisation step counter.
    """

    sim_threshold: float = 0.6
    alpha_sim: float = 0.6
    alpha_str: float = 0.4
    k: int = 1
    consolidation: float = 1.3
    cap: float = 3.0
    decay: float = 30.0
    similarity: object = None  # callable(x, y) -> float; default domain_weighted_cosine with one group
    prototypes: list = field(default_factory=list)
    sim: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    connected: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=bool))
    strength: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    step: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))

    def __post_init__(self) -> None:
        check_int(self.k, "k", least=1)
        check_positive(self.consolidation, "consolidation")
        check_positive(self.cap, "cap")
        check_positive(self.decay, "decay")
        if self.alpha_sim < 0 or self.alpha_str < 0:
            raise ValueError("alpha_sim and alpha_str must be >= 0")

    @property
    def n(self) -> int:
        """Number of nodes."""
        return len(self.prototypes)

    def _sim(self, x: np.ndarray, y: np.ndarray) -> float:
        return float((self.similarity or domain_weighted_cosine)(x, y))

    def _grow(self, prototype: np.ndarray) -> int:
        n = self.n
        self.prototypes.append(np.asarray(prototype, dtype=float))
        for name in ("sim", "strength"):
            a = np.zeros((n + 1, n + 1))
            a[:n, :n] = getattr(self, name)
            setattr(self, name, a)
        c = np.zeros((n + 1, n + 1), dtype=bool)
        c[:n, :n] = self.connected
        self.connected = c
        self.step = np.append(self.step, 1)
        return n

    def _connect(self, i: int, j: int, s: float) -> None:
        if i == j or self.connected[i, j]:
            return
        self.connected[i, j] = self.connected[j, i] = True
        self.sim[i, j] = self.sim[j, i] = s
        self.strength[i, j] = self.strength[j, i] = 1.0

    def initialize(self, prototypes: list[np.ndarray]) -> None:
        """``net_initialization``: add the source nodes and connect every pair with similarity > threshold."""
        start = self.n
        for p in prototypes:
            self._grow(p)
        for i in range(start, self.n):
            for j in range(i + 1, self.n):
                s = self._sim(self.prototypes[i], self.prototypes[j])
                if s > self.sim_threshold:
                    self._connect(i, j, s)

    def add_node(self, prototype: np.ndarray, consolidate: bool = True) -> int:
        """``add_node``: a new subject; connect it to every node with similarity > threshold, then (if it has a
        connection and ``consolidate``) consolidate its top-k most important neighbours. Returns its index."""
        i = self._grow(prototype)
        for j in range(i):
            s = self._sim(self.prototypes[j], self.prototypes[i])
            if s > self.sim_threshold:
                self._connect(j, i, s)
        if consolidate and self.connected[i].any():
            self.consolidate(self.reactivate(i)[0])
        return i

    def average_strength(self) -> np.ndarray:
        """Mean of each node's own copies of its connection strengths (NaN for an isolated node)."""
        cnt = self.connected.sum(1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(cnt > 0, (self.strength * self.connected).sum(1) / np.maximum(cnt, 1), np.nan)

    def importance(self, node: int) -> tuple[np.ndarray, np.ndarray]:
        r"""``get_target_importance``: (neighbour indices, :math:`I_{ij}`), in index order."""
        nb = np.flatnonzero(self.connected[node])
        if nb.size == 0:
            return nb, np.zeros(0)
        avg = self.average_strength()[nb]
        return nb, self.alpha_sim * self.sim[node, nb] + self.alpha_str * avg / avg.sum()

    def reactivate(self, node: int) -> tuple[np.ndarray, np.ndarray]:
        """``find_importance_knn``: the top-k neighbours by normalised importance and their weights (sum 1).

        Ties keep index order (the official code sorts stably in connection order). Empty if isolated.
        """
        nb, imp = self.importance(node)
        if nb.size == 0:
            return nb, imp
        w = imp / imp.sum()
        order = np.argsort(-w, kind="stable")
        if len(order) > self.k:
            order = order[: self.k]
            return nb[order], w[order] / w[order].sum()
        return nb[order], w[order]

    def consolidate(self, nodes: np.ndarray) -> None:
        """``consolidate_memory`` for each reactivated node: strengths != 1 times ``consolidation``, capped at
        ``cap``; the neighbour's copy is set too unless the neighbour is itself being consolidated; step -> 1."""
        nodes = np.asarray(nodes, dtype=int)
        in_list = np.zeros(self.n, dtype=bool)
        in_list[nodes] = True
        for c in nodes:
            m = self.connected[c] & (self.strength[c] != 1)
            new = np.minimum(self.strength[c, m] * self.consolidation, self.cap)
            self.strength[c, m] = new
            other = np.flatnonzero(m)
            keep = ~in_list[other]
            self.strength[other[keep], c] = new[keep]
            self.step[c] = 1

    def renormalize(self) -> None:
        """``global_renormalization_synapses``: row i times exp(-step_i / decay), then every step += 1."""
        self.strength *= np.exp(-self.step / self.decay)[:, None]
        self.step += 1


# ---------------------------------------------------------------- the decoder and its training -------------------

def init_mlp(d_in: int, n_hidden: int, n_classes: int, seed: int) -> list[np.ndarray]:
    """Parameters ``[W1, b1, W2, b2]`` of a one-hidden-layer ReLU network, He-initialised from ``seed``."""
    d, h, c = (check_int(v, nm, least=1) for v, nm in ((d_in, "d_in"), (n_hidden, "n_hidden"),
                                                        (n_classes, "n_classes")))
    g = np.random.default_rng(int(seed))
    return [g.standard_normal((d, h)) * np.sqrt(2.0 / d), np.zeros(h),
            g.standard_normal((h, c)) * np.sqrt(1.0 / h), np.zeros(c)]


def logits(params: list[np.ndarray], X: np.ndarray) -> np.ndarray:
    r"""Class scores :math:`\mathrm{relu}(X W_1 + b_1) W_2 + b_2` for the rows of ``X``."""
    W1, b1, W2, b2 = params
    return np.maximum(np.asarray(X, dtype=float) @ W1 + b1, 0.0) @ W2 + b2


def predict_proba(params: list[np.ndarray], X: np.ndarray) -> np.ndarray:
    """Softmax probabilities, shape (n, n_classes)."""
    Z = logits(params, X)
    Z = np.exp(Z - Z.max(1, keepdims=True))
    return Z / Z.sum(1, keepdims=True)


def accuracy(params: list[np.ndarray], X: np.ndarray, y: np.ndarray) -> float:
    """Fraction of rows whose arg-max class equals ``y``."""
    return float(np.mean(logits(params, X).argmax(1) == np.asarray(y)))


def loss_and_grad(params: list[np.ndarray], X: np.ndarray, y: np.ndarray,
                  w: np.ndarray) -> tuple[float, list[np.ndarray]]:
    r"""Weighted cross-entropy :math:`\sum_n w_n\,\mathrm{CE}(f(x_n), y_n)` and its gradient (backpropagation)."""
    W1, b1, W2, b2 = params
    H0 = X @ W1 + b1
    H = np.maximum(H0, 0.0)
    Z = H @ W2 + b2
    Z = Z - Z.max(1, keepdims=True)
    lse = np.log(np.exp(Z).sum(1))
    rows = np.arange(len(y))
    loss = float(np.sum(w * (lse - Z[rows, y])))
    G = np.exp(Z - lse[:, None])
    G[rows, y] -= 1.0
    G *= w[:, None]
    dH = (G @ W2.T) * (H0 > 0)
    return loss, [X.T @ dH, dH.sum(0), H.T @ G, G.sum(0)]


def train(params: list[np.ndarray], parts: list[tuple[np.ndarray, np.ndarray]], steps: int, lr: float,
          betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
          part_weights: list[float] | tuple | None = None) -> list[np.ndarray]:
    """Full-batch Adam on the weighted sum over ``parts`` of the mean cross-entropy of each part (empty parts
    skipped).

    The official trainer's loss is ``weight_new_cls * CE(new) + (1 - weight_new_cls) * CE(replay)``, each a batch
    mean; a part here is one of them, and ``part_weights`` (default: 1 for every part) are those weights. Adam as
    in ``torch.optim.Adam`` (no weight decay; the unit tests compare the iterates with :class:`repro.optim.Adam`).
    Written in numpy: a step of this small network costs about a tenth of torch's dispatch overhead. Returns new
    parameters (the inputs are not modified).
    """
    check_int(steps, "steps", least=0)
    check_positive(lr, "lr")
    p = [np.array(q, dtype=float) for q in params]
    if part_weights is None:
        part_weights = [1.0] * len(parts)
    if len(part_weights) != len(parts) or any(not np.isfinite(a) or a < 0 for a in part_weights):
        raise ValueError("part_weights: one finite non-negative weight per part")
    kept = [(np.asarray(X, dtype=float), np.asarray(y, dtype=int), float(a))
            for (X, y), a in zip(parts, part_weights) if len(y)]
    if not kept or steps == 0:
        return p
    X = np.concatenate([a for a, _, _ in kept])
    y = np.concatenate([b for _, b, _ in kept])
    w = np.concatenate([np.full(len(b), a / len(b)) for _, b, a in kept])
    b1, b2 = betas
    m = [np.zeros_like(q) for q in p]
    v = [np.zeros_like(q) for q in p]
    for t in range(1, steps + 1):
        _, g = loss_and_grad(p, X, y, w)
        c1, c2 = 1 - b1 ** t, 1 - b2 ** t
        for q, mq, vq, gq in zip(p, m, v, g):
            mq *= b1
            mq += (1 - b1) * gq
            vq *= b2
            vq += (1 - b2) * gq * gq
            q -= (lr / c1) * mq / (np.sqrt(vq) / np.sqrt(c2) + eps)
    return p


def pseudo_label(params: list[np.ndarray], X: np.ndarray, conf_threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """Indices and arg-max labels of the rows whose top softmax probability is >= ``conf_threshold``."""
    if not 0 <= conf_threshold <= 1:
        raise ValueError(f"conf_threshold must be in [0, 1]; got {conf_threshold}")
    pr = predict_proba(params, X)
    keep = np.flatnonzero(pr.max(1) >= conf_threshold)
    return keep, pr[keep].argmax(1)


def self_train_step(params: list[np.ndarray], X_unlab: np.ndarray,
                    replay: tuple[np.ndarray, np.ndarray] | None, conf_threshold: float, steps: int = 60,
                    lr: float = 1e-2, replay_weight: float | None = None) -> list[np.ndarray]:
    """Adapt to one unlabelled subject: cross-entropy on the confident pseudo-labels of the starting model
    (a frozen teacher, as ``classifier_t`` in the official trainer) plus cross-entropy on ``replay``.

    ``replay_weight``: None weighs both means 1 (ours); the official trainer weighs them
    ``(1 - w, w)`` with ``w = 1 - weight_new_cls = 0.3``.
    """
    keep, yl = pseudo_label(params, X_unlab, conf_threshold)
    parts = [(np.asarray(X_unlab)[keep], yl)]
    weights = [1.0]
    if replay is not None:
        parts.append(replay)
        if replay_weight is None:
            weights.append(1.0)
        else:
            if not 0 <= replay_weight <= 1:
                raise ValueError(f"replay_weight must be in [0, 1]; got {replay_weight}")
            weights = [1.0 - replay_weight, float(replay_weight)]
    return train(params, parts, steps, lr, part_weights=weights)


def fuse(models: list[list[np.ndarray]], weights: np.ndarray) -> list[np.ndarray]:
    """``weighted_model_fusion``: parameter-wise weighted mean, weights normalised by ``sum + 1e-8``."""
    if not models or len(models) != len(weights):
        raise ValueError("need one weight per model, at least one model")
    w = np.asarray(weights, dtype=float)
    w = w / (w.sum() + 1e-8)
    return [sum(float(wi) * m[t] for wi, m in zip(w, models)) for t in range(len(models[0]))]


# ---------------------------------------------------------------- the continual stream --------------------------

@dataclass
class Stream:
    """Standardised features of the source subjects (labelled) and of the target stream (labels for scoring)."""

    Xs: list[np.ndarray]
    ys: list[np.ndarray]
    Xt: list[np.ndarray]
    yt: list[np.ndarray]
    fam_s: np.ndarray
    fam_t: np.ndarray

    def prototype(self, X: np.ndarray) -> np.ndarray:
        """A subject's prototype: its mean feature vector (no labels used)."""
        return np.asarray(X).mean(0)


def make_stream(n_source: int, n_target: int, n_trials: int, n_families: int, seed: int,
                fs: float = 128.0, duration: float = 2.0, spread: float = 0.35, gain_spread: float = 0.25,
                target_shift: float = 0.9) -> Stream:
    """Source subjects (families round-robin) and a target stream (families drawn at random), as standardised
    log band-power features (mean and std of the pooled source features).

    ``target_shift``: std of a log electrode-gain pattern drawn once per family and applied to every *target*
    subject of that family (a recording shift between the source cohort and the new subjects, shared within a
    family, so that an adapted same-family subject is the most useful memory).
    """
    rng = np.random.default_rng(seed)
    F = check_int(n_families, "n_families", least=1)
    base = draw_family_mixing(F, 8, 3, rng)
    fam_s = np.arange(check_int(n_source, "n_source", least=1)) % F
    fam_t = rng.integers(0, F, check_int(n_target, "n_target", least=1))
    subs = make_subjects(len(fam_s) + len(fam_t), np.concatenate([fam_s, fam_t]), rng, family_mixing=base,
                         spread=spread, gain_spread=gain_spread)
    shift = np.exp(target_shift * rng.standard_normal((F, 8)))
    for p in subs[len(fam_s):]:
        p.gain = p.gain * shift[p.family]
    feats, labels = [], []
    for p in subs:
        X, y = synth_eeg_subject(n_trials, p, rng, fs, duration)
        feats.append(bandpower_features(X, fs))
        labels.append(y)
    S = np.concatenate(feats[: len(fam_s)])
    mu, sd = S.mean(0), S.std(0)
    feats = [(f - mu) / sd for f in feats]
    ns = len(fam_s)
    return Stream(feats[:ns], labels[:ns], feats[ns:], labels[ns:], fam_s, fam_t)


def centre_subjects(stream: Stream) -> Stream:
    """Per-subject feature centring, the classical subject-wise alignment of EEG features: every subject's
    features minus that subject's own mean (its prototype). Uses no labels; a target subject is centred with all
    of its own trials (transductively, as its prototype is computed). Returns a new :class:`Stream`."""
    def centre(Xs: list[np.ndarray]) -> list[np.ndarray]:
        out = []
        for X in Xs:
            X = np.asarray(X, dtype=float)
            if X.ndim != 2 or len(X) == 0:
                raise ValueError(f"each subject's features must be a non-empty (n, d) array; got {X.shape}")
            out.append(X - X.mean(0))
        return out
    return Stream(centre(stream.Xs), list(stream.ys), centre(stream.Xt), list(stream.yt),
                  np.asarray(stream.fam_s), np.asarray(stream.fam_t))


def final_accuracy_by_family(A: np.ndarray, fam_t: np.ndarray) -> tuple[float, float]:
    """Final model's mean accuracy on the targets of the last subject's family and on the other targets.

    ``A`` (T, T): the accuracy matrix of one run, targets in stream order; ``fam_t`` (T,): their families. Returns
    ``(own, other)``; ``other`` is NaN when every target shares the last subject's family.
    """
    A = np.asarray(A, dtype=float)
    fam = np.asarray(fam_t)
    if A.ndim != 2 or A.shape[0] != A.shape[1] or fam.shape != (A.shape[0],) or A.shape[0] == 0:
        raise ValueError(f"A must be (T, T) and fam_t (T,); got {A.shape} and {fam.shape}")
    own = fam == fam[-1]
    last = A[-1]
    return float(last[own].mean()), float(last[~own].mean()) if (~own).any() else float("nan")


@dataclass
class RunConfig:
    """Training sizes and the synaptic network's settings.

    The defaults are the page's configuration: ``k``, ``sim_threshold``, ``decay`` and the importance weights are
    the defaults of ``builder/synaptic_builder.py``; the rest is ours. :meth:`official` gives the defaults of the
    official ``main.py`` where they differ (see its docstring).

    ``save_conf``: confidence needed to store a trial in memory (None: ``conf_threshold``); ``store_with``: which
    model pseudo-labels the stored trials, ``"adapted"`` (the model just adapted to the subject, ours) or
    ``"previous"`` (the model before this subject, as ``saving_new_node_sample`` is called in the official
    trainer); ``replay_weight``: weight of the replay loss, ``None`` for 1 and 1 (ours) or ``w`` for
    ``(1 - w) CE(new) + w CE(replay)``; ``isolated``: what a SPICED subject with no link does, ``"self-train"``
    (ours) or ``"keep"`` (the official trainer trains it with the CPC loss only, which we leave out, so it keeps
    the most similar subject's model); ``fallback_source``: when the reactivated subjects store nothing, replay the
    most similar source subject's labelled trials (official) instead of nothing (ours); ``adapt_lr``: learning rate
    of the adaptation (None: ``lr``).
    """

    n_hidden: int = 32
    pretrain_steps: int = 300
    adapt_steps: int = 60
    lr: float = 1e-2
    conf_threshold: float = 0.9
    sim_threshold: float = 0.6
    k: int = 1
    decay: float = 30.0
    save_conf: float | None = None
    store_with: str = "adapted"
    replay_weight: float | None = None
    isolated: str = "self-train"
    fallback_source: bool = False
    adapt_lr: float | None = None

    def __post_init__(self) -> None:
        if self.store_with not in ("adapted", "previous"):
            raise ValueError(f"store_with must be 'adapted' or 'previous'; got {self.store_with!r}")
        if self.isolated not in ("self-train", "keep"):
            raise ValueError(f"isolated must be 'self-train' or 'keep'; got {self.isolated!r}")
        check_int(self.k, "k", least=1)

    @classmethod
    def official(cls, **changes) -> "RunConfig":
        """The official ``main.py`` defaults where they differ from ours: ``k_factor`` 15,
        ``similarity_threshold`` 0.1, ``saving_confidence`` 0.8 with the model before adaptation,
        ``weight_new_cls`` 0.7 (replay weight 0.3), no self-training of an unlinked subject, and the data loader's
        fallback to the most similar source subject. ``training_confidence`` (0.9), ``decay_factor`` (30),
        ``consolidation_factor`` (1.3) and ``alpha_sim`` (0.6) are ours already."""
        base = dict(k=15, sim_threshold=0.1, save_conf=0.8, store_with="previous", replay_weight=0.3,
                    isolated="keep", fallback_source=True)
        base.update(changes)
        return cls(**base)


def pretrain(stream: Stream, cfg: RunConfig, seed: int) -> list[np.ndarray]:
    """The source model: the network trained with labels on all source subjects pooled."""
    X = np.concatenate(stream.Xs)
    y = np.concatenate(stream.ys)
    p0 = init_mlp(X.shape[1], cfg.n_hidden, int(y.max()) + 1, seed)
    return train(p0, [(X, y)], cfg.pretrain_steps, cfg.lr)


def _replay_from(nodes: np.ndarray, w: np.ndarray, memory: list, n_new: int, rng: np.random.Generator):
    """Replay set of ``BuildReplayedDataset``: from each node ``int(n_new * w)`` (at least 1) stored samples,
    all of them if it has fewer. None if nothing is stored."""
    Xr, yr = [], []
    for j, wj in zip(nodes, w):
        Xm, ym = memory[j]
        if len(ym) == 0:
            continue
        m = max(int(n_new * wj), 1)
        idx = np.arange(len(ym)) if m >= len(ym) else rng.choice(len(ym), m, replace=False)
        Xr.append(Xm[idx])
        yr.append(ym[idx])
    if not Xr:
        return None
    return np.concatenate(Xr), np.concatenate(yr)


def continual_run(stream: Stream, method: str, seed: int, cfg: RunConfig | None = None,
                  source_model: list[np.ndarray] | None = None) -> dict:
    """Stream the target subjects through one method; returns the accuracy matrix and a log.

    Methods (see :data:`METHODS`):

    * ``source-only``: the source model, never adapted;
    * ``naive``: sequential self-training, each subject from the previous model, no replay;
    * ``source-reset``: self-training of the source model on each subject afresh (episodic test-time adaptation:
      no chain, no replay); the model kept is the one adapted to the latest subject;
    * ``uniform-replay``: sequential self-training plus a replay set of the same size as SPICED's, drawn
      uniformly from every stored sample (labelled source trials, confident pseudo-labelled target trials);
    * ``source-replay``: sequential self-training plus as many labelled source trials, drawn uniformly;
    * ``spiced``: the synaptic network picks the top-k important neighbours; their models are fused into the
      starting model and their stored samples replayed; consolidation on arrival, renormalisation after;
    * ``spiced-random``: the same pipeline, with the network's choice replaced by as many past subjects as SPICED
      reactivates at that arrival, drawn at random from all past subjects, with equal weights (an unlinked subject
      starts from a random subject's model); the ablation of critical memory reactivation;
    * ``spiced-no-homeostasis``: the synaptic network without consolidation and renormalisation (every link
      keeps strength 1, so the importance ranks neighbours by similarity alone);
    * ``spiced-reversed``: the same pipeline with the *least* similar existing node reactivated;
    * ``finetune-labels``: sequential supervised fine-tuning with the true labels, no replay (forgets by design);
    * ``oracle``: the source model trained on the source and all targets so far with their labels (upper bound);
    * ``subject-centring``: no memory, no adaptation, no labels of the targets: a source model trained on the
      source subjects' features each centred by its own mean (:func:`centre_subjects`), applied to every target
      subject centred by its own mean; the model never changes, so it forgets nothing. ``source_model`` is not
      used by this method (it trains its own on the centred source features, from the same initialisation seed).

    Returns
    -------
    dict with ``A`` (T, T) accuracy matrix (every entry evaluated), ``reactivated`` (list of node lists, SPICED
    variants), ``same_family`` (fraction of reactivated nodes of the new subject's family), ``isolated``
    (fraction of arrivals with no link, SPICED variants with a network), ``stored`` (number of trials stored per
    target subject), ``net``.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}; got {method!r}")
    cfg = cfg or RunConfig()
    if method == "subject-centring":
        cs = centre_subjects(stream)
        fixed = pretrain(cs, cfg, seed)
        row = [accuracy(fixed, X, y) for X, y in zip(cs.Xt, cs.yt)]
        return {"A": np.tile(row, (len(row), 1)), "reactivated": [], "same_family": float("nan"),
                "isolated": float("nan"), "stored": [], "net": None}
    rng = np.random.default_rng(seed + 7919)
    pick_rng = np.random.default_rng([seed, 4242])  # the random ablation's picks (its own stream)
    src = source_model if source_model is not None else pretrain(stream, cfg, seed)
    T = len(stream.Xt)
    ns = len(stream.Xs)
    A = np.zeros((T, T))
    memory = [(X, y) for X, y in zip(stream.Xs, stream.ys)]  # labelled source trials
    models = [src] * ns
    fam_all = np.concatenate([stream.fam_s, stream.fam_t])
    lr = cfg.adapt_lr if cfg.adapt_lr is not None else cfg.lr
    save_conf = cfg.save_conf if cfg.save_conf is not None else cfg.conf_threshold
    rw = cfg.replay_weight
    net = None
    homeostasis = method != "spiced-no-homeostasis"
    if method in ("spiced", "spiced-random", "spiced-reversed", "spiced-no-homeostasis"):
        net = SynapticNetwork(sim_threshold=cfg.sim_threshold, k=cfg.k, decay=cfg.decay)
        net.initialize([stream.prototype(X) for X in stream.Xs])
    cur = src
    reactivated, same, isolated, stored = [], [], [], []
    for i in range(T):
        X = stream.Xt[i]
        prev = cur
        if method == "source-only":
            cur = src
        elif method == "naive":
            cur = self_train_step(cur, X, None, cfg.conf_threshold, cfg.adapt_steps, lr)
        elif method == "source-reset":
            cur = self_train_step(src, X, None, cfg.conf_threshold, cfg.adapt_steps, lr)
        elif method == "finetune-labels":
            cur = train(cur, [(X, stream.yt[i])], cfg.adapt_steps, lr)
        elif method == "oracle":
            Xa = np.concatenate(stream.Xs + stream.Xt[: i + 1])
            ya = np.concatenate(stream.ys + stream.yt[: i + 1])
            cur = train(src, [(Xa, ya)], cfg.adapt_steps, lr)
        elif method in ("uniform-replay", "source-replay"):
            pool = memory if method == "uniform-replay" else memory[:ns]
            pool_X = np.concatenate([m[0] for m in pool if len(m[1])])
            pool_y = np.concatenate([m[1] for m in pool if len(m[1])])
            idx = rng.choice(len(pool_y), min(len(X), len(pool_y)), replace=False)
            cur = self_train_step(cur, X, (pool_X[idx], pool_y[idx]), cfg.conf_threshold, cfg.adapt_steps, lr, rw)
        else:
            node = net.add_node(stream.prototype(X), consolidate=(method in ("spiced", "spiced-random")))
            linked = bool(net.connected[node].any())
            isolated.append(not linked)
            if method != "spiced-reversed" and linked:
                nodes, w = net.reactivate(node)
                if method == "spiced-random":  # as many subjects as SPICED reactivates, drawn from all past ones
                    nodes = np.sort(pick_rng.choice(node, len(nodes), replace=False))
                    w = np.full(len(nodes), 1.0 / len(nodes))
                start = fuse([models[j] for j in nodes], w)
            else:
                # no connection (or the reversed control): the official fallback uses the most similar
                # node's model without replay (the random ablation: a random node's); the control takes the
                # least similar node and replays it
                sims = np.array([net._sim(net.prototypes[j], net.prototypes[node]) for j in range(node)])
                if method == "spiced-random":
                    pick = int(pick_rng.integers(node))
                else:
                    pick = int(np.argmin(sims)) if method == "spiced-reversed" else int(np.argmax(sims))
                nodes, w = np.array([pick]), np.array([1.0])
                start = models[pick]
            use_replay = method == "spiced-reversed" or linked
            replay = _replay_from(nodes, w, memory, len(X), rng) if use_replay else None
            if replay is None and use_replay and cfg.fallback_source:
                # BuildReplayedDataset: nothing stored by the reactivated subjects -> the most similar source
                # subject (the random ablation: a source subject drawn at random)
                if method == "spiced-random":
                    replay = memory[int(pick_rng.integers(ns))]
                else:
                    s_src = [net._sim(net.prototypes[j], net.prototypes[node]) for j in range(ns)]
                    replay = memory[int(np.argmax(s_src))]
            if not linked and method != "spiced-reversed" and cfg.isolated == "keep":
                cur = start
            else:
                cur = self_train_step(start, X, replay, cfg.conf_threshold, cfg.adapt_steps, lr, rw)
            reactivated.append([int(j) for j in nodes])
            same.append(float(np.mean(fam_all[nodes] == fam_all[node])))
        # store this subject's confident pseudo-labelled trials (saving_new_node_sample) and its model
        keep, yl = pseudo_label(prev if cfg.store_with == "previous" else cur, X, save_conf)
        memory.append((X[keep], yl))
        stored.append(len(keep))
        models.append(cur)
        if net is not None and homeostasis:
            net.renormalize()
        A[i] = [accuracy(cur, stream.Xt[j], stream.yt[j]) for j in range(T)]
    return {"A": A, "reactivated": reactivated, "same_family": float(np.mean(same)) if same else float("nan"),
            "isolated": float(np.mean(isolated)) if isolated else float("nan"), "stored": stored, "net": net}
