"""TAO for oblique regression trees with ridge leaves, primal vs Sherman--Morrison--Woodbury leaf solves.

Paper: *A faster training algorithm for regression trees with linear leaves, and an analysis of
its complexity*, K. Gazizov and M. A. Carreira-Perpinan, NeurIPS 2025,
https://openreview.net/forum?id=urDdBuhbLx . Notebook: ``notebooks/tao-linear-leaves-smw.py``.

Notation map (paper -> ours)
----------------------------
- training set :math:`\\{(x_n, y_n)\\}_{n=1}^N`, :math:`x_n \\in \\mathbb{R}^D` -> ``X`` (N, D), ``y`` (N,)
- tree depth :math:`\\Delta`, number of leaves :math:`L = 2^\\Delta` -> ``ObliqueTree.depth``
- decision node :math:`i`: go right iff :math:`w_i^T x + b_i > 0` -> ``W_nodes[i]``, ``b_nodes[i]``
- leaf :math:`l` predicts :math:`\\theta_l^T x + c_l` -> ``W_leaves[l]``, ``b_leaves[l]``
- reduced set of leaf :math:`l` (instances reaching it), size :math:`N_l` -> ``route(tree, X) == l``
- ridge penalty :math:`\\lambda` -> ``lam``

Objective (TAO minimises it over all node parameters, one set of non-descendant nodes at a time)::

    E(tree) = sum_n (y_n - f(x_n))^2 + lam * sum_l ||W_leaves[l]||^2

Leaf step (exact): ridge on the leaf's centred reduced set, solved either in the primal,
``(X^T X + lam I)^{-1} X^T y`` (cost ~ N_l D^2 + D^3/3), or through the push-through /
Woodbury identity, ``X^T (X X^T + lam I)^{-1} y`` (cost ~ N_l^2 D + N_l^3/3). Both are the same
vector, so TAO produces the same tree. ``auto`` takes the cheaper one per leaf (the fast TAO).

Decision-node step (our simplification, documented in the notebook): the reduced problem of node
``i`` labels each instance reaching it with the child whose fixed subtree gives it the lower
loss, weighted by the loss difference; we fit the oblique split by weighted ridge least squares
on +-1 targets and accept it only if the node's reduced objective strictly decreases, so the
objective E is non-increasing by construction.

Nodes are stored heap-ordered: node ``i`` has children ``2i+1`` (left) and ``2i+2`` (right);
the ``2^depth - 1`` decision nodes come first, leaf ``l`` is heap index ``2^depth - 1 + l``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.linalg import cho_factor, cho_solve

from repro.timing import best_time  # noqa: F401 - shared helper, used as K.best_time

SOLVERS = ("primal", "woodbury", "auto")
#: exact leaf solvers that do *not* use the paper's idea, counted as naive baselines on the page:
#: ``"svd"`` solves each leaf's ridge through the thin SVD of its reduced set (the textbook ridge solve).
BASELINE_SOLVERS = ("svd",)
COUNTED_SOLVERS = (*SOLVERS, *BASELINE_SOLVERS)
#: leaf solvers that are *not* the exact ridge step, used only as controls on the page:
#: ``"dual-cg"`` stops conjugate gradients on the dual system after :data:`CG_STEPS` steps (a cheaper,
#: inexact leaf step); ``"constant"`` fits each leaf as a constant (its mean: no linear model).
CONTROL_SOLVERS = ("dual-cg", "constant")
LEAF_SOLVERS = (*COUNTED_SOLVERS, *CONTROL_SOLVERS)
CG_STEPS = 10


# --------------------------------------------------------------------------- ridge kernels
def _check_ridge(X: np.ndarray, y: np.ndarray, lam: float) -> tuple[np.ndarray, np.ndarray]:
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (n, D); got shape {X.shape}")
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},); got {y.shape}")
    if not np.isfinite(lam) or lam <= 0:
        raise ValueError(f"lam must be a positive finite number; got {lam!r}")
    return X, y


def ridge_primal(X: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """Ridge coefficients (no intercept) from the D x D normal equations.

    Solves :math:`\\min_w \\|Xw - y\\|^2 + \\lambda \\|w\\|^2` as
    :math:`w = (X^T X + \\lambda I_D)^{-1} X^T y` with a Cholesky factorisation
    (the standard TAO leaf step; cost ~ n D^2 + D^3/3 flops).

    Parameters
    ----------
    X : (n, D) array
    y : (n,) array
    lam : float > 0

    Returns
    -------
    w : (D,) array
    """
    X, y = _check_ridge(X, y, lam)
    G = X.T @ X
    G[np.diag_indices_from(G)] += lam
    return cho_solve(cho_factor(G, lower=True, check_finite=False), X.T @ y, check_finite=False)


def ridge_woodbury(X: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """Ridge coefficients (no intercept) through the n x n push-through / Woodbury form.

    :math:`w = X^T (X X^T + \\lambda I_n)^{-1} y`, equal to :func:`ridge_primal` by the
    Sherman--Morrison--Woodbury (push-through) identity
    :math:`(X^T X + \\lambda I)^{-1} X^T = X^T (X X^T + \\lambda I)^{-1}`
    (the paper's faster leaf step; cost ~ n^2 D + n^3/3 flops).

    Parameters
    ----------
    X : (n, D) array
    y : (n,) array
    lam : float > 0

    Returns
    -------
    w : (D,) array
    """
    X, y = _check_ridge(X, y, lam)
    K = X @ X.T
    K[np.diag_indices_from(K)] += lam
    return X.T @ cho_solve(cho_factor(K, lower=True, check_finite=False), y, check_finite=False)


def ridge_auto(X: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """Ridge coefficients by whichever of the two forms has fewer flops (:func:`leaf_flops`).

    Same shapes as :func:`ridge_primal`.
    """
    X, y = _check_ridge(X, y, lam)
    n, D = X.shape
    if leaf_flops(n, D, "woodbury") < leaf_flops(n, D, "primal"):
        return ridge_woodbury(X, y, lam)
    return ridge_primal(X, y, lam)


def ridge_svd(X: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """Ridge coefficients (no intercept) through the thin SVD of X: the textbook solve, no Woodbury form.

    With :math:`X = U \\operatorname{diag}(s) V^T` (thin, :math:`k = \\min(n, D)` singular values),
    :math:`w = V \\operatorname{diag}(s / (s^2 + \\lambda)) U^T y`, the same vector as :func:`ridge_primal`
    (e.g. Hastie, Tibshirani & Friedman, *Elements of Statistical Learning*, eq. 3.47). A thin SVD costs
    about :math:`6 m k^2 + 20 k^3` flops for :math:`m = \\max(n, D)` (Golub & Van Loan, *Matrix
    Computations*, 3rd ed., Fig. 5.4.1, R-SVD with :math:`U_1`, :math:`\\Sigma`, :math:`V`), so it too gets
    cheaper as a leaf gets smaller than D, but with a larger constant than the dual Cholesky solve. Used
    on the page as a naive baseline of the speed tests. Same shapes as :func:`ridge_primal`.
    """
    X, y = _check_ridge(X, y, lam)
    U, s, Vt = np.linalg.svd(X, full_matrices=False)
    return Vt.T @ ((s / (s * s + lam)) * (U.T @ y))


def ridge_dual_cg(X: np.ndarray, y: np.ndarray, lam: float, steps: int = CG_STEPS) -> np.ndarray:
    """An *inexact* dual ridge solve: ``steps`` conjugate-gradient steps on ``(X X^T + lam I) a = y`` from 0.

    Returns ``X^T a``. It equals :func:`ridge_woodbury` only once ``steps`` reaches the number of
    distinct eigenvalues of the system (at most n); with fewer steps it is a cheaper approximation.
    The page uses it as the control of the "same tree" claim: a fast leaf step that is not exact.
    Matrix-free (two mat-vecs with X per step). Same shapes as :func:`ridge_primal`.
    """
    X, y = _check_ridge(X, y, lam)
    if int(steps) != steps or steps < 0:
        raise ValueError(f"steps must be an int >= 0; got {steps!r}")
    a = np.zeros(len(y))
    r = y.copy()
    p = r.copy()
    rr = float(r @ r)
    for _ in range(int(steps)):
        if rr == 0.0:
            break
        Ap = X @ (X.T @ p) + lam * p
        alpha = rr / float(p @ Ap)
        a += alpha * p
        r -= alpha * Ap
        rr_new = float(r @ r)
        p = r + (rr_new / rr) * p
        rr = rr_new
    return X.T @ a


_RIDGE: dict[str, Callable[[np.ndarray, np.ndarray, float], np.ndarray]] = {
    "primal": ridge_primal,
    "woodbury": ridge_woodbury,
    "auto": ridge_auto,
    "svd": ridge_svd,
    "dual-cg": ridge_dual_cg,
}


def _leaf_size(n: int, D: int, method: str) -> tuple[int, int]:
    """Validated ``(n, D)`` of a leaf and its solver name (shared by the leaf counts)."""
    if method not in COUNTED_SOLVERS:
        raise ValueError(f"method must be one of {COUNTED_SOLVERS}; got {method!r}")
    if int(n) != n or int(D) != D or n < 0 or D < 1:
        raise ValueError(f"n must be an int >= 0 and D an int >= 1; got n={n!r}, D={D!r}")
    return int(n), int(D)


def leaf_flops(n: int, D: int, method: str) -> int:
    """Leading-order flop count of one ridge solve on an (n, D) reduced set.

    primal: Gram ``X^T X`` (symmetric, n D^2) + Cholesky (D^3/3) + ``X^T y`` (2 n D)
    + two triangular solves (2 D^2). woodbury: Gram ``X X^T`` (n^2 D) + Cholesky (n^3/3)
    + two triangular solves (2 n^2) + ``X^T alpha`` (2 n D). auto: the smaller of the two.
    The two counts are equal exactly at n = D, the per-leaf crossover. svd (the naive baseline,
    :func:`ridge_svd`): thin SVD, ``6 m k^2 + 20 k^3`` with ``m = max(n, D)``, ``k = min(n, D)``
    (Golub & Van Loan, Fig. 5.4.1, R-SVD), + ``U^T y`` (2 n k) + scaling (2 k) + ``V (.)`` (2 D k).

    Parameters
    ----------
    n, D : int >= 0
    method : {"primal", "woodbury", "auto", "svd"}

    Returns
    -------
    int
    """
    n, D = _leaf_size(n, D, method)
    if n == 0:
        return 0
    if method == "svd":
        m, k = max(n, D), min(n, D)
        return 6 * m * k * k + 20 * k**3 + 2 * n * k + 2 * k + 2 * D * k
    primal = n * D * D + D**3 // 3 + 2 * n * D + 2 * D * D
    woodbury = n * n * D + n**3 // 3 + 2 * n * n + 2 * n * D
    return {"primal": primal, "woodbury": woodbury, "auto": min(primal, woodbury)}[method]


def leaf_work(n: int, D: int, method: str) -> int:
    """All arithmetic of one leaf update in :func:`leaf_step`: the solve (:func:`leaf_flops`) plus centring.

    Centring the leaf's instances and targets (means and subtractions, ``2 n D + 2 n``) and recovering
    the intercept (``2 D``) are done by every solver alike; counting them makes the count the leaf
    step's real arithmetic, not only its solve. Same parameters as :func:`leaf_flops`.
    """
    n, D = _leaf_size(n, D, method)
    if n == 0:
        return 0
    return leaf_flops(n, D, method) + 2 * n * D + 2 * n + 2 * D


def balanced_leaf_step_flops(N: int, D: int, depth: int, method: str) -> int:
    """Flop model of one leaf step of a complete tree whose 2^depth leaves get N / 2^depth instances each.

    With L = 2^depth: primal ~ N D^2 + L D^3/3, woodbury ~ N^2 D / L + N^3 / (3 L^2); the two
    cross where N / L = D, i.e. at the critical depth log2(N / D). Each leaf costs
    :func:`leaf_work` (solve plus centring), as :func:`leaf_step` counts it.
    Leaf sizes differ by at most one (``np.array_split``), so the count is an exact integer.
    """
    if depth < 0 or int(depth) != depth:
        raise ValueError(f"depth must be an int >= 0; got {depth!r}")
    sizes = [len(a) for a in np.array_split(np.arange(N), 2 ** int(depth))]
    return int(sum(leaf_work(s, D, method) for s in sizes))


def critical_depth(N: int, D: int) -> float:
    """The depth log2(N / D) past which the Woodbury leaf step gets cheaper with depth."""
    if N < 1 or D < 1:
        raise ValueError(f"N and D must be >= 1; got N={N}, D={D}")
    return float(np.log2(N / D))


# --------------------------------------------------------------------------- the tree
@dataclass
class ObliqueTree:
    """A complete oblique binary tree of given depth with linear (affine) leaves.

    Attributes
    ----------
    depth : int
    W_nodes : (2^depth - 1, D) array; b_nodes : (2^depth - 1,) array
    W_leaves : (2^depth, D) array; b_leaves : (2^depth,) array
    """

    depth: int
    W_nodes: np.ndarray
    b_nodes: np.ndarray
    W_leaves: np.ndarray
    b_leaves: np.ndarray

    def copy(self) -> "ObliqueTree":
        return ObliqueTree(self.depth, self.W_nodes.copy(), self.b_nodes.copy(),
                           self.W_leaves.copy(), self.b_leaves.copy())


def init_tree(X: np.ndarray, y: np.ndarray, depth: int, rng: np.random.Generator) -> ObliqueTree:
    """Random oblique tree: each split a random direction through the median of the instances reaching it.

    Splits are balanced on the training set (the flop model's assumption); leaves start constant
    at the mean of ``y``. Shapes as in :class:`ObliqueTree`.
    """
    X = np.asarray(X, dtype=float)
    if depth < 1 or int(depth) != depth:
        raise ValueError(f"depth must be an int >= 1; got {depth!r}")
    n_int, D = 2**depth - 1, X.shape[1]
    W = rng.standard_normal((n_int, D)) / np.sqrt(D)
    b = np.zeros(n_int)
    node = np.zeros(len(X), dtype=int)
    for _ in range(depth):  # top-down, one level at a time
        s = np.einsum("nd,nd->n", X, W[node])
        for i in np.unique(node):
            m = node == i
            b[i] = -np.median(s[m])
        node = 2 * node + 1 + (s + b[node] > 0)
    return ObliqueTree(int(depth), W, b, np.zeros((2**depth, D)), np.full(2**depth, float(np.mean(y))))


def route(tree: ObliqueTree, X: np.ndarray, start: np.ndarray | int = 0) -> np.ndarray:
    """Leaf index (0 .. 2^depth - 1) reached by each row of X, starting at heap node(s) ``start``.

    Parameters
    ----------
    tree : ObliqueTree
    X : (N, D) array
    start : int or (N,) int array of decision-node heap indices (default: the root)

    Returns
    -------
    (N,) int array
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != tree.W_nodes.shape[1]:
        raise ValueError(f"X must have shape (N, {tree.W_nodes.shape[1]}); got {X.shape}")
    n_int = 2**tree.depth - 1
    node = np.broadcast_to(np.asarray(start, dtype=int), (len(X),)).copy()
    if np.any(node < 0) or np.any(node >= n_int):
        raise ValueError("start must be the heap index of a decision node")
    return _descend(X @ tree.W_nodes.T + tree.b_nodes, node, tree.depth)


def _descend(S: np.ndarray, node: np.ndarray, depth: int) -> np.ndarray:
    """Leaf index reached from heap nodes ``node`` given all split scores S (N, 2^depth - 1)."""
    n_int = 2**depth - 1
    node = node.copy()
    rows = np.arange(len(S))
    for _ in range(depth):
        inner = node < n_int
        if not inner.any():
            break
        node[inner] = 2 * node[inner] + 1 + (S[rows[inner], node[inner]] > 0)
    return node - n_int


def tree_predict(tree: ObliqueTree, X: np.ndarray) -> np.ndarray:
    """Prediction f(x) = W_leaves[l(x)] . x + b_leaves[l(x)], shape (N,)."""
    X = np.asarray(X, dtype=float)
    leaf = route(tree, X)
    return np.einsum("nd,nd->n", X, tree.W_leaves[leaf]) + tree.b_leaves[leaf]


def tao_objective(tree: ObliqueTree, X: np.ndarray, y: np.ndarray, lam: float) -> float:
    """E = sum_n (y_n - f(x_n))^2 + lam * sum_l ||W_leaves[l]||^2."""
    r = np.asarray(y, dtype=float) - tree_predict(tree, X)
    return float(r @ r + lam * np.sum(tree.W_leaves**2))


# --------------------------------------------------------------------------- TAO steps
def leaf_step(tree: ObliqueTree, X: np.ndarray, y: np.ndarray, lam: float, solver: str,
              leaf: np.ndarray | None = None) -> int:
    """Refit every leaf exactly (in place): ridge with unpenalised intercept on its reduced set.

    The intercept is handled by centring the leaf's instances, then :func:`ridge_primal`,
    :func:`ridge_woodbury`, :func:`ridge_auto` or (the naive baseline) :func:`ridge_svd` solves for the
    slope. An empty leaf gets slope 0 (the minimiser of its penalty) and keeps its intercept. ``leaf`` (N,) may pass the routing
    ``route(tree, X)`` precomputed, so that timing the step measures only the leaf solves.
    The control solvers (:data:`CONTROL_SOLVERS`) are *not* exact: ``"dual-cg"`` solves the dual
    system inexactly (:func:`ridge_dual_cg`), ``"constant"`` sets each slope to 0 and the
    intercept to the leaf's mean target.

    Returns
    -------
    int : the arithmetic of the step (:func:`leaf_work` summed over leaves) for the exact solvers
    (:data:`COUNTED_SOLVERS`);
    0 for the control solvers, whose work the page does not count.
    """
    if solver not in LEAF_SOLVERS:
        raise ValueError(f"solver must be one of {LEAF_SOLVERS}; got {solver!r}")
    if leaf is None:
        leaf = route(tree, X)
    elif leaf.shape != (len(X),):
        raise ValueError(f"leaf must have shape ({len(X)},); got {leaf.shape}")
    order = np.argsort(leaf, kind="stable")
    bounds = np.searchsorted(leaf[order], np.arange(2**tree.depth + 1))
    flops = 0
    for l in range(2**tree.depth):
        idx = order[bounds[l]:bounds[l + 1]]
        if len(idx) == 0:
            tree.W_leaves[l] = 0.0
            continue
        if solver == "constant":
            tree.W_leaves[l], tree.b_leaves[l] = 0.0, y[idx].mean()
            continue
        Xl, yl = X[idx], y[idx]
        xm, ym = Xl.mean(0), yl.mean()
        w = _RIDGE[solver](Xl - xm, yl - ym, lam)
        tree.W_leaves[l], tree.b_leaves[l] = w, ym - xm @ w
        if solver in COUNTED_SOLVERS:
            flops += leaf_work(len(idx), X.shape[1], solver)
    return flops


def global_ridge_step(X: np.ndarray, y: np.ndarray, lam: float, solver: str = "primal") -> tuple[np.ndarray, float, int]:
    """One linear (ridge) regression on all of ``X``, computed by the code of :func:`leaf_step`.

    It is the leaf step of a tree of depth 0 (a single leaf holding every instance), so a wall-clock
    ratio "leaf step of a tree / one regression" times the same code path on both sides.

    Returns
    -------
    (w, b, work) : slope (D,), intercept, and the counted arithmetic (``leaf_work(N, D, solver)``)
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"need X (N, D) and y (N,); got {X.shape}, {y.shape}")
    D = X.shape[1]
    T = ObliqueTree(0, np.zeros((0, D)), np.zeros(0), np.zeros((1, D)), np.zeros(1))
    work = leaf_step(T, X, y, lam, solver, np.zeros(len(X), dtype=int))
    return T.W_leaves[0], float(T.b_leaves[0]), work


def decision_level_step(tree: ObliqueTree, X: np.ndarray, y: np.ndarray, level: int,
                        mu: float = 1e-3) -> int:
    """Update all decision nodes at ``level`` (disjoint reduced sets, so order is irrelevant), in place.

    For node i and each instance reaching it, the losses of sending it left / right with the
    subtrees fixed are ``lL, lR``; target ``t = sign(lL - lR)``, weight ``c = |lL - lR|``. The
    candidate split minimises sum c (w.x + b - t)^2 + mu sum(c) ||w||^2 (weighted ridge, solved by
    :func:`ridge_auto` on weight-centred data). It replaces the old split only if
    sum_n loss of the chosen child strictly decreases.

    Returns
    -------
    int : number of nodes whose split was accepted.
    """
    n_int = 2**tree.depth - 1
    if not 0 <= level < tree.depth:
        raise ValueError(f"level must be in [0, {tree.depth}); got {level}")
    # the level-`level` node each instance reaches (route down `level` splits)
    S = X @ tree.W_nodes.T + tree.b_nodes
    rows = np.arange(len(X))
    node = np.zeros(len(X), dtype=int)
    for _ in range(level):
        node = 2 * node + 1 + (S[rows, node] > 0)
    P = X @ tree.W_leaves.T + tree.b_leaves  # (N, L) every leaf's prediction
    lL = (y - P[rows, _descend(S, 2 * node + 1, tree.depth)]) ** 2
    lR = (y - P[rows, _descend(S, 2 * node + 2, tree.depth)]) ** 2
    accepted = 0
    for i in range(2**level - 1, 2 ** (level + 1) - 1):
        m = node == i
        c = np.abs(lL[m] - lR[m])
        if c.sum() <= 0:
            continue
        Xi, t = X[m], np.where(lR[m] < lL[m], 1.0, -1.0)
        cs = c / c.sum()
        xm, tm = cs @ Xi, cs @ t
        sq = np.sqrt(c)[:, None]
        w = ridge_auto(sq * (Xi - xm), sq[:, 0] * (t - tm), mu * c.sum())
        b = tm - xm @ w
        go_new = Xi @ w + b > 0
        go_old = S[m, i] > 0
        new = np.where(go_new, lR[m], lL[m]).sum()
        old = np.where(go_old, lR[m], lL[m]).sum()
        if new < old:
            tree.W_nodes[i], tree.b_nodes[i] = w, b
            accepted += 1
    return accepted


def tao_fit(tree: ObliqueTree, X: np.ndarray, y: np.ndarray, lam: float, iters: int,
            leaf_solver: str) -> tuple[ObliqueTree, list[float]]:
    """Tree Alternating Optimization: ``iters`` sweeps of (all leaves, then decision levels bottom-up).

    Works on a copy of ``tree``. The leaf step solves its ridge problems with ``leaf_solver``
    (``"primal"``, ``"woodbury"`` or ``"auto"``); everything else is identical, so the three give
    the same tree up to rounding. The control solvers (``"dual-cg"``, ``"constant"``, see
    :func:`leaf_step`) train a different tree on purpose.

    Returns
    -------
    tree : the fitted ObliqueTree
    history : list of E after initialisation and after every step (1 + iters * (depth + 1) values)
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"need X (N, D) and y (N,); got {X.shape}, {y.shape}")
    if iters < 0:
        raise ValueError(f"iters must be >= 0; got {iters}")
    tree = tree.copy()
    history = [tao_objective(tree, X, y, lam)]
    for _ in range(iters):
        leaf_step(tree, X, y, lam, leaf_solver)
        history.append(tao_objective(tree, X, y, lam))
        for level in range(tree.depth - 1, -1, -1):
            decision_level_step(tree, X, y, level)
            history.append(tao_objective(tree, X, y, lam))
    return tree, history


def rmse(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Root mean squared error of two (N,) arrays."""
    y_true, y_pred = np.asarray(y_true, dtype=float), np.asarray(y_pred, dtype=float)
    if y_true.shape != y_pred.shape:
        raise ValueError(f"shapes differ: {y_true.shape} vs {y_pred.shape}")
    return float(np.sqrt(np.mean((y_true - y_pred) ** 2)))


def select_lam(X: np.ndarray, y: np.ndarray, depth: int, lams: list[float], iters: int,
               seed: int, val_frac: float = 0.25) -> float:
    """Pick the leaf penalty from ``lams`` by hold-out RMSE of TAO (``auto`` leaves) on a split of (X, y).

    The last ``val_frac`` of the rows is the validation set (the test set is never used).
    """
    if not lams or not 0 < val_frac < 1:
        raise ValueError("need a non-empty lams list and 0 < val_frac < 1")
    n_tr = int(round(len(X) * (1 - val_frac)))
    Xa, ya, Xv, yv = X[:n_tr], y[:n_tr], X[n_tr:], y[n_tr:]
    T0 = init_tree(Xa, ya, depth, np.random.default_rng(seed))
    errs = [rmse(yv, tree_predict(tao_fit(T0, Xa, ya, lam, iters, "auto")[0], Xv)) for lam in lams]
    return float(lams[int(np.argmin(errs))])
