r"""AnaCP: analytic classifiers with a closed-form contrastive projection for class-incremental learning.

Paper map
---------
*AnaCP: Toward Upper-Bound Continual Learning via Analytic Contrastive Projection*, Saleh Momeni, Changnan
Xiao, Bing Liu, arXiv:2511.13880 (2025), https://arxiv.org/abs/2511.13880. No official code was found, and we did not
read the paper's equations: the pipeline below (random projection, closed-form contrastive projection,
analytic classifier refit with pseudo-replay from class statistics) follows the reproduction brief's
reading of secondary summaries, and every formula here is **our design**, not the paper's.
Notebook: ``notebooks/anacp-analytic-cil.py``.

Notation (paper/brief -> here):

- frozen pre-trained model (PTM) features :math:`x` -> ``X`` (n, d); our stand-in PTM is
  :func:`frozen_digit_features` (fixed random convolution filters), not a pre-trained network;
- random projection :math:`z = \mathrm{GELU}(x R)`, :math:`R \in \mathbb R^{d\times D}` Gaussian, fixed
  -> :func:`random_projection_features`;
- analytic (ridge) classifier :math:`W = ([X\,1]^\top[X\,1] + \lambda \tilde I)^{-1}[X\,1]^\top T`
  -> :func:`analytic_classifier` (intercept not penalised, :math:`\tilde I = \mathrm{diag}(1,\dots,1,0)`);
  its recursive form over tasks, accumulating :math:`G=\sum_t [Z_t\,1]^\top[Z_t\,1]` and
  :math:`C=\sum_t [Z_t\,1]^\top T_t` -> :class:`AnalyticRidge` (the RanPAC-style baseline);
- contrastive projection (CP) :math:`W_{cp} = (G + \lambda \tilde I)^{-1} \sum_t [Z_t\,1]^\top \mathcal T_t` with
  per-class target prototypes :math:`\tau_c` (row :math:`i` of :math:`\mathcal T_t` is :math:`\tau_{y_i}`)
  -> :class:`AnaCPLite`; the prototypes are the class means orthonormalised
  (:func:`contrastive_targets`): each is aligned with its own class mean (positive alignment) and orthogonal
  to every other class's prototype (negative repulsion);
- **an identity of this reconstruction** (:func:`cp_identity_residuals`): row :math:`i` of
  :math:`\mathcal T_t` is :math:`e_{y_i}^\top P` (:math:`P`: the prototypes as rows), so the CP layer's
  moments are RanPAC's times :math:`P` and, when :math:`\lambda_{cp} = \lambda`,
  :math:`W_{cp} = W_{\rm RanPAC} P` exactly: the CP features are RanPAC's class scores times a fixed matrix. With
  orthonormal prototypes the classifier's ridge on them equals a ridge on RanPAC's scores, whatever the
  prototypes (class means or random: ``prototypes="random"``); nothing "contrastive" is left in the predictions;
- classifier on CP features :math:`f = [z\,1] W_{cp}`, refit after each task on the current task's data plus
  pseudo-samples :math:`z \sim N(\mu_c, \Sigma)` of the old classes (stored means, one shared within-class
  covariance) mapped through the current :math:`W_{cp}` -> :func:`pseudo_replay`, :class:`AnaCPLite`;
- baselines: nearest class mean -> :class:`NearestClassMean`; streaming linear discriminant analysis (Hayes
  and Kanan, 2020: class means and one shared covariance, accumulated task by task) -> :class:`StreamingLDA`;
  a softmax head trained by gradient descent on each task's data only (the forgetting baseline; with
  ``labels_trick=True`` its softmax covers only the current task's classes) -> :class:`SGDHead`;
- accuracy matrix :math:`A_{ij}` (after task i, on task j) -> :func:`accuracy_matrix` (the summaries are
  :mod:`repro.continual`'s).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
from numpy.typing import ArrayLike
from scipy.special import erf

from repro.validate import check_int, check_positive, finite_array

# --------------------------------------------------------------------------- checks


def _check_lam(lam: object) -> float:
    return check_positive(lam, "lam", strict=False)


def _check_labels(y: ArrayLike, n: int, n_classes: int, name: str = "y") -> np.ndarray:
    lab = np.asarray(y)
    if lab.ndim != 1 or len(lab) != n or (len(lab) and not np.issubdtype(lab.dtype, np.integer)):
        raise ValueError(f"{name} must be a 1-d integer array of length {n}; got {lab.dtype} {lab.shape}")
    if len(lab) and (lab.min() < 0 or lab.max() >= n_classes):
        raise ValueError(f"{name} must lie in 0..{n_classes - 1}")
    return lab.astype(np.int64)


# --------------------------------------------------------------------------- features


def frozen_digit_features(images: ArrayLike, n_filters: int = 16, seed: int = 0) -> np.ndarray:
    """The stand-in "pre-trained model": fixed random 3x3 convolutions, ReLU, 2x2 average pooling.

    Parameters
    ----------
    images : array_like, shape (n, h, w)
        Grey images (scikit-learn's digits are 8x8 with values 0..16).
    n_filters : int
        Number of random filters (zero-mean Gaussian weights, fixed by ``seed``).
    seed : int
        Seed of the filters: the "pre-trained" extractor is the same for every run that uses this seed.

    Returns
    -------
    ndarray, shape (n, n_filters * ((h-2)//2) * ((w-2)//2))
        Frozen features, never updated by any learner on the page.
    """
    x = finite_array(images, "images", ndim=3)
    if x.shape[1] < 4 or x.shape[2] < 4:
        raise ValueError(f"images must be at least 4x4; got {x.shape[1:]}")
    k = check_int(n_filters, "n_filters", least=1)
    rng = np.random.default_rng(check_int(seed, "seed", least=0))
    filt = rng.standard_normal((k, 3, 3))
    filt -= filt.mean(axis=(1, 2), keepdims=True)  # edge-like filters: blind to the mean grey level
    win = np.lib.stride_tricks.sliding_window_view(x, (3, 3), axis=(1, 2))  # (n, h-2, w-2, 3, 3)
    maps = np.maximum(np.einsum("nijab,kab->nkij", win, filt), 0.0)
    hp, wp = maps.shape[2] // 2, maps.shape[3] // 2
    pooled = maps[:, :, : 2 * hp, : 2 * wp].reshape(len(x), k, hp, 2, wp, 2).mean(axis=(3, 5))
    return pooled.reshape(len(x), -1)


def gelu(x: ArrayLike) -> np.ndarray:
    r"""Exact GELU, :math:`x\,\Phi(x) = \tfrac{x}{2}(1 + \mathrm{erf}(x/\sqrt2))`, elementwise."""
    a = np.asarray(x, dtype=float)
    return 0.5 * a * (1.0 + erf(a / np.sqrt(2.0)))


def random_projection_features(X: ArrayLike, D: int, seed: int) -> np.ndarray:
    r"""RanPAC's fixed random projection :math:`Z = \mathrm{GELU}(X R)`, :math:`R_{kl} \sim N(0, 1/d)`.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Frozen features (standardise them first, so that the pre-activations are of order 1).
    D : int
        Projected dimension.
    seed : int
        Seed of ``R`` (fixed for the whole task sequence).

    Returns
    -------
    ndarray, shape (n, D)
    """
    x = finite_array(X, "X", ndim=2)
    D = check_int(D, "D", least=1)
    rng = np.random.default_rng(check_int(seed, "seed", least=0))
    R = rng.standard_normal((x.shape[1], D)) / np.sqrt(x.shape[1])
    return gelu(x @ R)


# --------------------------------------------------------------------------- analytic (ridge) solvers


def _augment(X: np.ndarray) -> np.ndarray:
    return np.hstack([X, np.ones((len(X), 1))])


def ridge_from_moments(G: ArrayLike, C: ArrayLike, lam: float) -> np.ndarray:
    r"""Solve :math:`(G + \lambda\,\mathrm{diag}(1,\dots,1,0))\,W = C`: the ridge weights from accumulated moments.

    Parameters
    ----------
    G : array_like, shape (d+1, d+1)
        Gram matrix :math:`[X\,1]^\top[X\,1]` of the intercept-augmented features (last row/column: the ones).
    C : array_like, shape (d+1, K)
        :math:`[X\,1]^\top T`.
    lam : float
        Ridge penalty >= 0 on every weight but the intercept (last row). At ``lam = 0`` the minimum-norm
        least-squares solution (pseudo-inverse) is returned.
    """
    G = finite_array(G, "G", ndim=2)
    C = finite_array(C, "C", ndim=2)
    if G.shape[0] != G.shape[1] or C.shape[0] != G.shape[0]:
        raise ValueError(f"G must be square and C must have as many rows; got {G.shape}, {C.shape}")
    lam = _check_lam(lam)
    A = G.copy()
    idx = np.arange(A.shape[0] - 1)
    A[idx, idx] += lam
    if lam > 0:
        try:
            return scipy.linalg.solve(A, C, assume_a="pos")
        except np.linalg.LinAlgError:  # no data at all: the intercept direction is singular
            pass
    return np.linalg.pinv(A, hermitian=True) @ C


def analytic_classifier(features: ArrayLike, targets: ArrayLike, lam: float) -> np.ndarray:
    r"""Closed-form ridge least-squares classifier with an intercept (the analytic classifier).

    Solves :math:`\min_W \lVert [X\,\mathbf 1] W - T\rVert_F^2 + \lambda \lVert W_{1:d}\rVert_F^2`, i.e.

    .. math:: W = \big([X\,\mathbf 1]^\top[X\,\mathbf 1] + \lambda\,\mathrm{diag}(1,\dots,1,0)\big)^{-1}
              [X\,\mathbf 1]^\top T .

    **The intercept (last row of** ``W`` **) is not penalised** (our choice, the same as scikit-learn's
    ``Ridge(fit_intercept=True)``): shifting every target by a constant then shifts only the intercept.
    Equivalently, the other rows are the ridge weights of the centred problem and the intercept is
    :math:`\bar t - \bar x^\top W_{1:d}`. At ``lam = 0`` the minimum-norm least-squares solution is returned
    (the limit :math:`\lambda \to 0^+` when :math:`[X\,1]` has full column rank).

    Parameters
    ----------
    features : array_like, shape (n, d)
        Feature matrix :math:`X` (finite).
    targets : array_like, shape (n, C) or (n,)
        One-hot or +-1 class codes (any real targets work); a 1-d array is one column.
    lam : float
        Ridge penalty :math:`\lambda \ge 0`.

    Returns
    -------
    ndarray, shape (d+1, C)
        Weights; the last row is the intercept. Predict with ``features @ W[:-1] + W[-1]``.
    """
    X = finite_array(features, "features", ndim=2)
    T = finite_array(targets, "targets")
    if T.ndim == 1:
        T = T[:, None]
    if T.ndim != 2 or T.shape[0] != X.shape[0]:
        raise ValueError(f"targets must have shape (n, C) with n = {X.shape[0]} rows; got {T.shape}")
    if X.shape[0] == 0:
        raise ValueError("features must have at least one row")
    lam = _check_lam(lam)
    Xa = _augment(X)
    if lam == 0:
        return np.linalg.lstsq(Xa, T, rcond=None)[0]
    return ridge_from_moments(Xa.T @ Xa, Xa.T @ T, lam)


def predict_linear(features: ArrayLike, W: ArrayLike) -> np.ndarray:
    """Scores ``features @ W[:-1] + W[-1]`` of a weight matrix with its intercept as the last row; shape (n, C)."""
    X = finite_array(features, "features", ndim=2)
    W = finite_array(W, "W", ndim=2)
    if W.shape[0] != X.shape[1] + 1:
        raise ValueError(f"W must have d+1 = {X.shape[1] + 1} rows; got {W.shape[0]}")
    return X @ W[:-1] + W[-1]


def one_hot(y: ArrayLike, n_classes: int) -> np.ndarray:
    """One-hot codes, shape (n, n_classes), of integer labels in 0..n_classes-1."""
    n_classes = check_int(n_classes, "n_classes", least=1)
    lab = _check_labels(y, len(np.asarray(y)), n_classes)
    out = np.zeros((len(lab), n_classes))
    out[np.arange(len(lab)), lab] = 1.0
    return out


class AnalyticRidge:
    r"""Recursive analytic classifier (RanPAC-style): accumulate :math:`G` and :math:`C` task by task, solve once.

    ``partial_fit`` over any split of the data into chunks gives exactly (up to rounding) the weights of
    :func:`analytic_classifier` on their union: the order and the split do not matter, hence no forgetting.

    Parameters
    ----------
    n_features : int
        Feature dimension d.
    n_outputs : int
        Number of target columns (classes of the whole sequence).
    """

    def __init__(self, n_features: int, n_outputs: int) -> None:
        d = check_int(n_features, "n_features", least=1)
        self.n_outputs = check_int(n_outputs, "n_outputs", least=1)
        self.G = np.zeros((d + 1, d + 1))
        self.C = np.zeros((d + 1, self.n_outputs))
        self.n_seen = 0

    def partial_fit(self, Z: ArrayLike, Y: ArrayLike) -> AnalyticRidge:
        """Add a chunk: features ``Z`` (m, d) and targets ``Y`` (m, n_outputs)."""
        Z = finite_array(Z, "Z", ndim=2)
        Y = finite_array(Y, "Y", ndim=2)
        if Z.shape[1] + 1 != self.G.shape[0] or Y.shape != (len(Z), self.n_outputs):
            raise ValueError(f"Z must be (m, {self.G.shape[0] - 1}) and Y (m, {self.n_outputs}); "
                             f"got {Z.shape}, {Y.shape}")
        Za = _augment(Z)
        self.G += Za.T @ Za
        self.C += Za.T @ Y
        self.n_seen += len(Z)
        return self

    def solve(self, lam: float) -> np.ndarray:
        """The ridge weights (d+1, n_outputs) of everything seen so far (intercept last, not penalised)."""
        if self.n_seen == 0:
            raise ValueError("no data seen yet: call partial_fit first")
        return ridge_from_moments(self.G, self.C, lam)


# --------------------------------------------------------------------------- contrastive targets, pseudo-replay

TARGET_KINDS = ("gram-schmidt", "lowdin")


def contrastive_targets(class_means: ArrayLike, kind: str = "gram-schmidt",
                        previous: ArrayLike | None = None) -> np.ndarray:
    r"""Well-separated target prototypes from class means: orthonormalised means.

    Each prototype keeps a positive inner product with its own (centred) class mean (positive alignment)
    and is orthogonal to all the others (negative repulsion: every pair is at distance :math:`\sqrt2`).

    Parameters
    ----------
    class_means : array_like, shape (C, m)
        Class means (rows), linearly independent (also of ``previous``), ``C <= m``.
    kind : {"gram-schmidt", "lowdin"}
        ``"gram-schmidt"``: orthonormalise in the given order, after projecting out the rows of
        ``previous``; old prototypes never change when classes are appended (what class-incremental
        learning needs). ``"lowdin"``: symmetric orthonormalisation :math:`\tau = (M M^\top)^{-1/2} M`, the
        orthonormal set closest to the means; equivariant under class permutations, but every prototype
        moves when a class is added (used only as a check).
    previous : array_like, shape (P, m), optional
        Orthonormal prototypes of earlier classes (``"gram-schmidt"`` only).

    Returns
    -------
    ndarray, shape (C, m)
        The new prototypes (orthonormal rows, orthogonal to ``previous``).
    """
    M = finite_array(class_means, "class_means", ndim=2)
    if kind not in TARGET_KINDS:
        raise ValueError(f"kind must be one of {TARGET_KINDS}; got {kind!r}")
    P = np.zeros((0, M.shape[1])) if previous is None else finite_array(previous, "previous", ndim=2)
    if P.shape[1] != M.shape[1]:
        raise ValueError(f"previous must have {M.shape[1]} columns; got {P.shape}")
    if len(M) == 0 or len(M) + len(P) > M.shape[1]:
        raise ValueError(f"need 1 <= classes <= dimension; got {len(M)} new + {len(P)} previous in {M.shape[1]} dims")
    if kind == "lowdin":
        if len(P):
            raise ValueError("previous is only supported with kind='gram-schmidt'")
        U, s, Vt = np.linalg.svd(M, full_matrices=False)
        if s.min() <= 1e-10 * s.max():
            raise ValueError("class means are linearly dependent: no separated prototypes")
        return U @ Vt
    R = M - (M @ P.T) @ P
    Q, Rr = np.linalg.qr(R.T)
    diag = np.diag(Rr)
    if np.abs(diag).min() <= 1e-10 * np.linalg.norm(M, axis=1).max():
        raise ValueError("class means are linearly dependent (on each other or on previous): no separated prototypes")
    return (Q * np.sign(diag)).T


def pseudo_replay(class_means: ArrayLike, shared_cov: ArrayLike, n_per_class: int | ArrayLike,
                  rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    r"""Pseudo-samples :math:`z \sim N(\mu_c, \Sigma)` of stored classes (no stored data is replayed).

    Parameters
    ----------
    class_means : array_like, shape (C, m)
    shared_cov : array_like, shape (m, m)
        Symmetric positive semi-definite shared within-class covariance.
    n_per_class : int or array_like of C ints
    rng : numpy.random.Generator

    Returns
    -------
    Z : ndarray, shape (sum n_c, m)
    idx : ndarray of int, shape (sum n_c,)
        Row index (0..C-1) into ``class_means`` of each sample.
    """
    mu = finite_array(class_means, "class_means", ndim=2)
    S = finite_array(shared_cov, "shared_cov", ndim=2)
    if S.shape != (mu.shape[1], mu.shape[1]) or not np.allclose(S, S.T, atol=1e-10 * max(1.0, np.abs(S).max())):
        raise ValueError(f"shared_cov must be a symmetric ({mu.shape[1]}, {mu.shape[1]}) matrix")
    counts = np.broadcast_to(np.asarray(n_per_class), (len(mu),))
    if not np.issubdtype(counts.dtype, np.integer) or (counts < 0).any():
        raise ValueError("n_per_class must be non-negative integers")
    vals, vecs = np.linalg.eigh(S)
    if vals.min() < -1e-8 * max(1.0, vals.max()):
        raise ValueError("shared_cov must be positive semi-definite")
    # symmetric square root V diag(sqrt(l)) V^T: unique, so the samples do not depend on the eigenvector signs
    # that a LAPACK build happens to return
    L = (vecs * np.sqrt(np.clip(vals, 0.0, None))) @ vecs.T
    idx = np.repeat(np.arange(len(mu)), counts)
    Z = mu[idx] + rng.standard_normal((len(idx), mu.shape[1])) @ L.T
    return Z, idx


# --------------------------------------------------------------------------- learners


class AnaCPLite:
    r"""Our AnaCP-lite: closed-form contrastive projection + analytic classifier refit with pseudo-replay.

    After task t (classes :math:`\mathcal C_t`, features :math:`Z_t`):

    1. store each new class's mean :math:`\mu_c` and add the task's within-class scatter to the shared one
       (:math:`\Sigma` = pooled within-class covariance of all classes seen);
    2. new prototypes :math:`\tau_c`: the (uncentred) class means orthonormalised against the old prototypes
       (:func:`contrastive_targets`, Gram-Schmidt; old ones never move). Uncentred, because a centre estimated
       from task 1 makes its two centred means collinear; the common component of all means goes into the
       first class's prototype;
    3. CP: accumulate :math:`G \mathrel{+}= [Z_t 1]^\top[Z_t 1]`, :math:`C_{cp} \mathrel{+}= [Z_t 1]^\top \tau_{y}`,
       :math:`W_{cp} = (G + \lambda_{cp}\tilde I)^{-1} C_{cp}` (order-independent, no gradients);
    4. classifier: ridge (one-hot targets, :math:`\lambda`) on :math:`f=[z\,1]W_{cp}` of the current task's
       data and of pseudo-samples of each old class (as many as it had), drawn in :math:`z` space and mapped
       through the *current* :math:`W_{cp}`.

    Parameters
    ----------
    n_features, n_classes : int
        Dimension of :math:`z` and number of classes of the whole sequence (labels 0..n_classes-1).
    lam_cp, lam : float
        Ridge penalties of the CP layer and of the classifier.
    rng : numpy.random.Generator
        Source of the pseudo-samples.
    use_cp : bool
        Without the CP layer (``False``) the classifier is fit on :math:`z` itself with pseudo-replay (an
        ablation: "pseudo-replay only"). By the identity below, what this removes is RanPAC's exact
        accumulated ridge; what remains is a ridge on :math:`z` fitted on the current task and pseudo-samples.
    prototypes : {"class-means", "random"}
        ``"class-means"``: step 2 above. ``"random"``: a random orthonormal prototype per class, drawn once
        from ``prototype_seed`` and aligned with nothing (a check of what the prototypes contribute).
    prototype_seed : int
        Seed of the random prototypes (``prototypes="random"`` only; the pseudo-samples keep ``rng``).

    Notes
    -----
    Row :math:`i` of the CP targets is :math:`e_{y_i}^\top P`, with :math:`P` the prototypes as rows, so the CP
    moments are RanPAC's (:class:`RanPACStyle`) times :math:`P`; with ``lam_cp == lam``,
    :math:`W_{cp} = W_{\rm RanPAC} P` after every task (:func:`cp_identity_residuals`), and the CP features are
    RanPAC's class scores :math:`s(z)` times :math:`P`. The seen classes' prototypes are orthonormal, so a ridge
    on :math:`f = sP` equals the same ridge on :math:`s`: this learner is a second ridge, on RanPAC's scores,
    fitted on the current task and on the pseudo-samples, and its predictions do not depend on which
    orthonormal prototypes are used.
    """

    PROTOTYPES = ("class-means", "random")

    def __init__(self, n_features: int, n_classes: int, lam_cp: float, lam: float,
                 rng: np.random.Generator, use_cp: bool = True, prototypes: str = "class-means",
                 prototype_seed: int = 0) -> None:
        self.m = check_int(n_features, "n_features", least=1)
        self.n_classes = check_int(n_classes, "n_classes", least=2)
        if self.n_classes > self.m:
            raise ValueError("AnaCPLite needs n_classes <= n_features (one orthogonal prototype per class)")
        self.lam_cp, self.lam = _check_lam(lam_cp), _check_lam(lam)
        self.rng, self.use_cp = rng, bool(use_cp)
        if prototypes not in self.PROTOTYPES:
            raise ValueError(f"prototypes must be one of {self.PROTOTYPES}; got {prototypes!r}")
        self.prototypes = prototypes
        self._random_prototypes = None
        if prototypes == "random":
            g = np.random.default_rng(check_int(prototype_seed, "prototype_seed", least=0))
            Q, _ = np.linalg.qr(g.standard_normal((self.m, self.n_classes)))
            self._random_prototypes = Q.T  # (n_classes, m), orthonormal rows
        self.cp = AnalyticRidge(self.m, self.m)
        self.means = np.zeros((self.n_classes, self.m))
        self.counts = np.zeros(self.n_classes, dtype=np.int64)
        self.targets = np.zeros((self.n_classes, self.m))
        self.scatter = np.zeros((self.m, self.m))
        self.seen = np.zeros(self.n_classes, dtype=bool)
        self.W_cp: np.ndarray | None = None
        self.W: np.ndarray | None = None

    def _project(self, Z: np.ndarray) -> np.ndarray:
        return predict_linear(Z, self.W_cp) if self.use_cp else Z

    def fit_task(self, Z: ArrayLike, y: ArrayLike) -> AnaCPLite:
        """Learn one task: features ``Z`` (n, m) and labels ``y`` (n,) of classes not seen before."""
        Z = finite_array(Z, "Z", ndim=2)
        if Z.shape[1] != self.m or len(Z) == 0:
            raise ValueError(f"Z must be a non-empty (n, {self.m}) array; got {Z.shape}")
        y = _check_labels(y, len(Z), self.n_classes)
        new = np.unique(y)
        if self.seen[new].any():
            raise ValueError("class-incremental: a task's classes must be new (classes "
                             f"{new[self.seen[new]].tolist()} were seen before)")
        old = np.flatnonzero(self.seen)
        for c in new:  # a handful of classes per task: a loop over classes, not samples
            Zc = Z[y == c]
            self.means[c], self.counts[c] = Zc.mean(axis=0), len(Zc)
            D = Zc - self.means[c]
            self.scatter += D.T @ D
        if self._random_prototypes is None:
            self.targets[new] = contrastive_targets(self.means[new], "gram-schmidt", previous=self.targets[old])
        else:
            self.targets[new] = self._random_prototypes[new]
        self.seen[new] = True
        self.cp.partial_fit(Z, self.targets[y])
        self.W_cp = self.cp.solve(self.lam_cp)
        n_seen = int(self.counts.sum())
        cov = self.scatter / max(n_seen - int(self.seen.sum()), 1)
        Zp, ip = pseudo_replay(self.means[old], cov, self.counts[old], self.rng)
        F = self._project(np.vstack([Z, Zp]))
        labels = np.concatenate([y, old[ip]])
        self.W = analytic_classifier(F, one_hot(labels, self.n_classes), self.lam)
        return self

    def predict(self, Z: ArrayLike) -> np.ndarray:
        """Predicted labels (n,), argmax over the classes seen so far."""
        if self.W is None:
            raise ValueError("fit_task must be called before predict")
        scores = predict_linear(self._project(finite_array(Z, "Z", ndim=2)), self.W)
        scores[:, ~self.seen] = -np.inf
        return scores.argmax(axis=1)


class RanPACStyle:
    """RanPAC-style baseline: recursive analytic ridge classifier (one-hot targets) on fixed features."""

    def __init__(self, n_features: int, n_classes: int, lam: float) -> None:
        self.ridge = AnalyticRidge(n_features, n_classes)
        self.lam = _check_lam(lam)
        self.seen = np.zeros(self.ridge.n_outputs, dtype=bool)
        self.W: np.ndarray | None = None

    def fit_task(self, Z: ArrayLike, y: ArrayLike) -> RanPACStyle:
        """Accumulate the task's moments and re-solve; ``Z`` (n, m), ``y`` (n,)."""
        Z = finite_array(Z, "Z", ndim=2)
        y = _check_labels(y, len(Z), self.ridge.n_outputs)
        self.ridge.partial_fit(Z, one_hot(y, self.ridge.n_outputs))
        self.seen[np.unique(y)] = True
        self.W = self.ridge.solve(self.lam)
        return self

    def predict(self, Z: ArrayLike) -> np.ndarray:
        """Predicted labels (n,), argmax over the classes seen so far."""
        if self.W is None:
            raise ValueError("fit_task must be called before predict")
        scores = predict_linear(Z, self.W)
        scores[:, ~self.seen] = -np.inf
        return scores.argmax(axis=1)



def cp_identity_residuals(Z: ArrayLike, y: ArrayLike, tasks: list[np.ndarray], lam: float,
                          rng: np.random.Generator, prototypes: str = "class-means") -> np.ndarray:
    r"""How far our CP layer is from RanPAC's ridge times the prototypes, after each task: an identity check.

    Runs :class:`AnaCPLite` (``lam_cp = lam``) and :class:`RanPACStyle` (``lam``) side by side over the task
    sequence and returns, after each task, :math:`\max|W_{cp} - W_{\rm RanPAC} P| / \max|W_{cp}|`, with
    :math:`P` the learner's prototypes as rows (zero rows for classes not yet seen). Since the CP targets are
    :math:`Y P` (one-hot labels :math:`Y`), the CP layer's moments are RanPAC's times :math:`P`, and the
    residual is zero up to rounding (about 1e-13). With ``lam_cp != lam`` the identity does not hold.

    Parameters
    ----------
    Z : array_like, shape (n, m)
        Projected features of the training set.
    y : array_like of int, shape (n,)
        Labels (0..C-1, C = the number of classes in ``tasks``).
    tasks : list of arrays of class labels
        The task sequence.
    lam : float
        The ridge penalty of both (> 0).
    rng : numpy.random.Generator
        The learner's pseudo-sample source (it does not enter :math:`W_{cp}`).
    prototypes : {"class-means", "random"}
        Passed to :class:`AnaCPLite`.

    Returns
    -------
    ndarray, shape (T,)
    """
    from repro.continual import task_indices

    Z = finite_array(Z, "Z", ndim=2)
    lab = np.asarray(y)
    lam = check_positive(lam, "lam")
    n_classes = int(max(np.max(t) for t in tasks)) + 1
    learner = AnaCPLite(Z.shape[1], n_classes, lam, lam, rng, prototypes=prototypes)
    ranpac = RanPACStyle(Z.shape[1], n_classes, lam)
    out = []
    for idx in task_indices(lab, tasks):
        learner.fit_task(Z[idx], lab[idx])
        ranpac.fit_task(Z[idx], lab[idx])
        out.append(cp_identity_residual(learner, ranpac))
    return np.array(out)


def cp_identity_residual(learner: AnaCPLite, ranpac: RanPACStyle) -> float:
    r""":math:`\max|W_{cp} - W_{\rm RanPAC} P| / \max|W_{cp}|` of an AnaCP-lite learner and a RanPAC-style one
    fitted on the same tasks (see :func:`cp_identity_residuals`); zero up to rounding when their penalties agree.

    Parameters
    ----------
    learner : AnaCPLite
        Fitted, with its CP layer (``use_cp=True``).
    ranpac : RanPACStyle
        Fitted on the same data, with the same number of features and classes.
    """
    if not isinstance(learner, AnaCPLite) or not isinstance(ranpac, RanPACStyle):
        raise TypeError("cp_identity_residual takes an AnaCPLite and a RanPACStyle learner")
    if learner.W_cp is None or ranpac.W is None or not learner.use_cp:
        raise ValueError("both learners must be fitted, the AnaCPLite one with its CP layer")
    if ranpac.W.shape != (learner.m + 1, learner.n_classes):
        raise ValueError(f"the learners differ in size: {ranpac.W.shape} vs {(learner.m + 1, learner.n_classes)}")
    gap = np.abs(learner.W_cp - ranpac.W @ learner.targets).max()
    return float(gap / max(np.abs(learner.W_cp).max(), 1e-300))

class NearestClassMean:
    """Nearest class mean (cosine similarity to stored class means): a replay-free, gradient-free baseline."""

    def __init__(self, n_features: int, n_classes: int) -> None:
        self.means = np.zeros((check_int(n_classes, "n_classes", least=1), check_int(n_features, "n_features", least=1)))
        self.seen = np.zeros(len(self.means), dtype=bool)

    def fit_task(self, Z: ArrayLike, y: ArrayLike) -> NearestClassMean:
        """Store the means of the task's classes; ``Z`` (n, m), ``y`` (n,)."""
        Z = finite_array(Z, "Z", ndim=2)
        y = _check_labels(y, len(Z), len(self.means))
        sums = np.zeros_like(self.means)
        np.add.at(sums, y, Z)
        cnt = np.bincount(y, minlength=len(self.means))
        new = cnt > 0
        self.means[new] = sums[new] / cnt[new, None]
        self.seen |= new
        return self

    def predict(self, Z: ArrayLike) -> np.ndarray:
        """Predicted labels (n,): the seen class whose mean has the largest cosine with each row."""
        Z = finite_array(Z, "Z", ndim=2)
        Mn = self.means / np.maximum(np.linalg.norm(self.means, axis=1, keepdims=True), 1e-300)
        scores = Z @ Mn.T
        scores[:, ~self.seen] = -np.inf
        return scores.argmax(axis=1)


class StreamingLDA:
    r"""Streaming linear discriminant analysis (SLDA; Hayes and Kanan, CVPR Workshops 2020): a naive baseline.

    Hayes, T. L. and Kanan, C., "Lifelong Machine Learning with Deep Streaming Linear Discriminant Analysis",
    CVPR-W 2020, https://arxiv.org/abs/1909.01520. It keeps, for the classes seen so far, their means
    :math:`\mu_c`, counts, and one shared covariance :math:`\Sigma` (within-class scatter divided by the number
    of samples seen), and predicts with the linear discriminant

    .. math:: \Lambda = \big((1-\varepsilon)\Sigma + \varepsilon I\big)^{-1},\qquad
              s_c(z) = \mu_c^\top\Lambda z - \tfrac12\,\mu_c^\top\Lambda\mu_c ,

    argmax over the seen classes, with the paper's default shrinkage :math:`\varepsilon = 10^{-4}`. Hayes and
    Kanan update the covariance one sample at a time; here the data of a task arrive together, so each class's
    mean and scatter are merged exactly (Chan et al.'s pairwise update), which gives the pooled within-class
    covariance of everything seen, whatever the task order. No gradient step, no stored sample, no
    feature adaptation: none of AnaCP's ideas.

    Parameters
    ----------
    n_features, n_classes : int
        Feature dimension and number of classes of the whole sequence (labels 0..n_classes-1).
    shrinkage : float in [0, 1]
        :math:`\varepsilon` (default 1e-4, Hayes and Kanan's).
    """

    def __init__(self, n_features: int, n_classes: int, shrinkage: float = 1e-4) -> None:
        d = check_int(n_features, "n_features", least=1)
        k = check_int(n_classes, "n_classes", least=1)
        eps = check_positive(shrinkage, "shrinkage", strict=False)
        if eps > 1:
            raise ValueError(f"shrinkage must lie in [0, 1]; got {shrinkage!r}")
        self.shrinkage = eps
        self.means = np.zeros((k, d))
        self.counts = np.zeros(k, dtype=np.int64)
        self.scatter = np.zeros((d, d))
        self.seen = np.zeros(k, dtype=bool)
        self.W: np.ndarray | None = None

    @property
    def covariance(self) -> np.ndarray:
        """The shared covariance: within-class scatter of all samples seen, divided by their number."""
        return self.scatter / max(int(self.counts.sum()), 1)

    def fit_task(self, Z: ArrayLike, y: ArrayLike) -> StreamingLDA:
        """Merge a task's data (``Z`` (n, d), ``y`` (n,)) into the class statistics, then update the discriminant."""
        Z = finite_array(Z, "Z", ndim=2)
        if Z.shape[1] != self.means.shape[1] or len(Z) == 0:
            raise ValueError(f"Z must be a non-empty (n, {self.means.shape[1]}) array; got {Z.shape}")
        y = _check_labels(y, len(Z), len(self.means))
        for c in np.unique(y):
            Zc = Z[y == c]
            m, mean_b = len(Zc), Zc.mean(axis=0)
            Dc = Zc - mean_b
            n_a, mean_a = int(self.counts[c]), self.means[c].copy()
            delta = mean_b - mean_a
            self.scatter += Dc.T @ Dc + np.outer(delta, delta) * (n_a * m / (n_a + m))
            self.means[c] = mean_a + delta * (m / (n_a + m))
            self.counts[c] = n_a + m
            self.seen[c] = True
        eps = self.shrinkage
        P = (1.0 - eps) * self.covariance + eps * np.eye(len(self.scatter))
        if eps > 0:  # Lambda mu_c as columns
            Lm = scipy.linalg.solve(P, self.means.T, assume_a="pos")
        else:  # no shrinkage: the pseudo-inverse of a possibly singular covariance
            Lm = np.linalg.pinv(P, hermitian=True) @ self.means.T
        self.W = np.vstack([Lm, -0.5 * np.einsum("cd,dc->c", self.means, Lm)])
        return self

    def predict(self, Z: ArrayLike) -> np.ndarray:
        """Predicted labels (n,), argmax of the discriminant over the classes seen so far."""
        if self.W is None:
            raise ValueError("fit_task must be called before predict")
        scores = predict_linear(Z, self.W)
        scores[:, ~self.seen] = -np.inf
        return scores.argmax(axis=1)


class SGDHead:
    """Softmax linear head trained by full-batch gradient descent on each task's data only (naive fine-tuning).

    Cross-entropy over the classes seen so far, ``steps`` steps of size ``lr`` per task, weight decay
    ``wd``; nothing of old tasks is kept, so old classes are forgotten (the forgetting baseline).

    With ``labels_trick=True`` the softmax of a task covers only that task's classes (the "labels trick" of
    Zeno, Golan, Hoffer and Soudry, 2018, *Task Agnostic Continual Learning Using Online Variational Bayes*,
    https://arxiv.org/abs/1803.10123): the old classes' columns get no gradient and are not pushed down, so
    the head forgets less; prediction still ranges over every class seen so far.
    """

    def __init__(self, n_features: int, n_classes: int, lr: float, steps: int, wd: float = 0.0,
                 labels_trick: bool = False) -> None:
        self.W = np.zeros((check_int(n_features, "n_features", least=1) + 1, check_int(n_classes, "n_classes", least=1)))
        self.lr, self.steps, self.wd = check_positive(lr, "lr"), check_int(steps, "steps", least=1), _check_lam(wd)
        self.labels_trick = bool(labels_trick)
        self.seen = np.zeros(self.W.shape[1], dtype=bool)

    def fit_task(self, Z: ArrayLike, y: ArrayLike) -> SGDHead:
        """Gradient descent on the mean cross-entropy of ``Z`` (n, m), ``y`` (n,)."""
        Z = finite_array(Z, "Z", ndim=2)
        y = _check_labels(y, len(Z), self.W.shape[1])
        self.seen[np.unique(y)] = True
        active = np.zeros_like(self.seen)
        active[np.unique(y)] = True
        if not self.labels_trick:
            active = self.seen
        Za, Y = _augment(Z), one_hot(y, self.W.shape[1])
        for _ in range(self.steps):
            s = Za @ self.W
            s[:, ~active] = -np.inf
            s -= s.max(axis=1, keepdims=True)
            p = np.exp(s)
            p /= p.sum(axis=1, keepdims=True)
            grad = Za.T @ (p - Y) / len(Z)
            grad[:-1] += self.wd * self.W[:-1]
            grad[:, ~active] = 0.0  # columns outside the softmax (exp(-inf) = 0 already; weight decay too)
            self.W -= self.lr * grad
        return self

    def predict(self, Z: ArrayLike) -> np.ndarray:
        """Predicted labels (n,), argmax over the classes seen so far."""
        scores = predict_linear(Z, self.W)
        scores[:, ~self.seen] = -np.inf
        return scores.argmax(axis=1)


# --------------------------------------------------------------------------- protocol


def accuracy_matrix(learner: object, Z_train: ArrayLike, y_train: ArrayLike, Z_test: ArrayLike,
                    y_test: ArrayLike, tasks: list[np.ndarray]) -> np.ndarray:
    """Class-incremental run: ``learner.fit_task`` on each task in turn, then accuracy on every seen task.

    Parameters
    ----------
    learner : object with ``fit_task(Z, y)`` and ``predict(Z)``
    Z_train, y_train, Z_test, y_test : arrays
        Features (n, m) and integer labels (n,) of the training and test sets.
    tasks : list of arrays of class labels
        The task sequence (:func:`repro.continual.class_incremental_tasks`).

    Returns
    -------
    ndarray, shape (T, T)
        ``A[i, j]``: accuracy on task ``j``'s test samples after training task ``i`` (NaN for ``j > i``);
        predictions range over all classes seen so far (class-incremental, no task identity).
    """
    from repro.continual import task_indices

    Ztr, Zte = finite_array(Z_train, "Z_train", ndim=2), finite_array(Z_test, "Z_test", ndim=2)
    ytr, yte = np.asarray(y_train), np.asarray(y_test)
    if len(ytr) != len(Ztr) or len(yte) != len(Zte):
        raise ValueError("features and labels must have the same number of rows")
    tr, te = task_indices(ytr, tasks), task_indices(yte, tasks)
    T = len(tasks)
    A = np.full((T, T), np.nan)
    for i in range(T):
        learner.fit_task(Ztr[tr[i]], ytr[tr[i]])
        seen = np.concatenate(te[: i + 1])
        correct = learner.predict(Zte[seen]) == yte[seen]
        bounds = np.cumsum([0] + [len(t) for t in te[: i + 1]])
        A[i, : i + 1] = [correct[a:b].mean() for a, b in zip(bounds[:-1], bounds[1:])]
    return A


def joint_accuracies(learner: object, Z_train: ArrayLike, y_train: ArrayLike, Z_test: ArrayLike,
                     y_test: ArrayLike, tasks: list[np.ndarray]) -> np.ndarray:
    """Joint training (the upper bound): one ``fit_task`` on all classes at once, then accuracy per task, shape (T,)."""
    from repro.continual import task_indices

    Ztr, Zte = finite_array(Z_train, "Z_train", ndim=2), finite_array(Z_test, "Z_test", ndim=2)
    ytr, yte = np.asarray(y_train), np.asarray(y_test)
    if len(ytr) != len(Ztr) or len(yte) != len(Zte):
        raise ValueError("features and labels must have the same number of rows")
    keep = np.concatenate(task_indices(ytr, tasks))
    learner.fit_task(Ztr[keep], ytr[keep])
    return np.array([np.mean(learner.predict(Zte[t]) == yte[t]) for t in task_indices(yte, tasks)])


# --------------------------------------------------------------------------- synthetic text (full scale)

_DOMAINS = (
    ("my bank account", "a savings account", "my checking account"),
    ("my credit card", "a visa card", "the new card"),
    ("a flight", "my plane ticket", "the flight to paris"),
    ("a hotel room", "my hotel booking", "a room for two nights"),
    ("a restaurant table", "a dinner reservation", "a table for four"),
)
_ACTIONS = (
    ("open", "set up", "book"),
    ("cancel", "close", "call off"),
    ("change", "modify", "update the details of"),
    ("find out the cost of", "check the fee for", "know the price of"),
)
_PREFIXES = ("I would like to", "please help me", "can you", "I need to", "how do I", "I want to")
_SUFFIXES = ("today", "as soon as possible", "for next week", "for my family", "", "please")


def synthetic_intent_corpus(n_per_class: int, rng: np.random.Generator) -> tuple[list[str], np.ndarray]:
    """A synthetic text corpus of 20 confusable intent classes (5 domains x 4 actions), from templates.

    A sentence is ``"{prefix} {action} {domain} {suffix}"`` with three phrasings per action and per domain and
    six prefixes and suffixes shared by all classes (324 distinct sentences per class). Class
    ``4 * domain + action``; classes that share a domain or an action share words, so they are confusable.

    Parameters
    ----------
    n_per_class : int
        Distinct sentences per class (at most 324), drawn without replacement.
    rng : numpy.random.Generator

    Returns
    -------
    sentences : list of str, length 20 * n_per_class
    labels : ndarray of int, shape (20 * n_per_class,)
    """
    n_combos = len(_PREFIXES) * 3 * 3 * len(_SUFFIXES)
    k = check_int(n_per_class, "n_per_class", least=1)
    if k > n_combos:
        raise ValueError(f"n_per_class must be <= {n_combos} (distinct sentences per class); got {k}")
    sentences, labels = [], []
    for dom, dphr in enumerate(_DOMAINS):
        for act, aphr in enumerate(_ACTIONS):
            for code in rng.choice(n_combos, size=k, replace=False):
                p, rest = divmod(int(code), 3 * 3 * len(_SUFFIXES))
                a, rest = divmod(rest, 3 * len(_SUFFIXES))
                d, s = divmod(rest, len(_SUFFIXES))
                sentences.append(" ".join(w for w in (_PREFIXES[p], aphr[a], dphr[d], _SUFFIXES[s]) if w))
                labels.append(len(_ACTIONS) * dom + act)
    return sentences, np.array(labels)
