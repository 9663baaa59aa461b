r"""Sample complexity of score-based branching policies: our own branch-and-bound on small binary programs.

Paper map
---------
*Generalization Guarantees for Learning Score-Based Branch-and-Cut Policies in Integer Programming*,
Hongyu Cheng and Amitabh Basu, NeurIPS 2025 (arXiv 2505.11636, https://arxiv.org/abs/2505.11636).
A theory paper without experiments and without official code; we read its abstract and reviews only.
Notebook: ``notebooks/bnc-policy-generalization.py``.

Notation (paper -> here):

- integer program :math:`I=(c,A,b)`, :math:`\min c^\top x` s.t. :math:`Ax\le b`, :math:`x\in\{0,1\}^n`
  -> ``(c, A_ub, b_ub)`` (one instance; :func:`random_knapsack` draws them);
- policy parameters :math:`\theta` -> ``mu``, the single weight of the linear score family
  :math:`s_\mu = \mu\,\phi_{\text{frac}} + (1-\mu)\,\phi_{\text{ratio}}` (:func:`linear_score`), the
  one-parameter case of the paper's piecewise-polynomial scores;
- cost :math:`\mathrm{cost}(I,\theta)` = B&B tree size -> ``n_nodes`` of :func:`branch_and_bound`, and
  its whole profile over :math:`\mu\in[0,1]` -> :func:`tree_size_profile`;
- empirical and expected cost :math:`\frac1N\sum_i\mathrm{cost}(I_i,\theta)`, :math:`\mathbb E\,\mathrm{cost}`
  -> rows of a cost matrix averaged over instances; the uniform deviation
  :math:`\sup_\theta|\cdot|` -> :func:`uniform_gap`;
- the same sup over every :math:`\mu` (not a grid) -> :func:`exact_uniform_gap`; a finite class of randomised
  policies (a naive comparison class) -> :func:`random_policy_costs`; one weight per bucket of instances (a class
  of B parameters, between the family and one weight per instance) -> :func:`bucket_uniform_gap`; the floor
  under the one-weight-per-instance class's gap -> :func:`per_instance_gap_floor`;
- ERM policy -> :func:`erm_select`; pseudo-dimension :math:`\mathrm{Pdim}` -> :func:`pdim_upper_bound`.

The search
----------
:func:`branch_and_bound` solves LP relaxations with ``scipy.optimize.linprog`` (HiGHS), selects nodes
best-bound first, branches on the fractional variable of highest score, and prunes a node whose bound
is not below the incumbent. With best-bound selection and data in general position (no LP bound equal
to the optimum unless it is integral), the set of expanded nodes is *the* set of fractional nodes whose
bound is below the optimum :math:`z^*`, whatever the order of exploration. :func:`tree_size_profile`
uses this to compute the exact tree size for every :math:`\mu` at once, by splitting the
:math:`\mu`-interval at each node where the argmax of the (linear in :math:`\mu`) scores changes: the
piecewise-constant structure that the paper's pseudo-dimension bound counts.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import sys
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import linprog, milp, LinearConstraint, Bounds

Policy = Callable[[np.ndarray], np.ndarray]
INT_TOL = 1e-6  # |x_j - round(x_j)| below this counts as integral
PRUNE_TOL = 1e-9  # relative slack of the bound test "bound >= incumbent"


# --------------------------------------------------------------------------- validation
def _check_problem(c: ArrayLike, A_ub: ArrayLike, b_ub: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    c = np.asarray(c, dtype=float)
    A = np.asarray(A_ub, dtype=float)
    b = np.asarray(b_ub, dtype=float)
    if c.ndim != 1 or c.size == 0:
        raise ValueError(f"c must be a non-empty 1-d array; got shape {c.shape}")
    if A.ndim != 2 or A.shape[1] != c.size:
        raise ValueError(f"A_ub must have shape (m, {c.size}); got {A.shape}")
    if b.shape != (A.shape[0],):
        raise ValueError(f"b_ub must have shape ({A.shape[0]},); got {b.shape}")
    if not (np.all(np.isfinite(c)) and np.all(np.isfinite(A)) and np.all(np.isfinite(b))):
        raise ValueError("c, A_ub and b_ub must be finite")
    return c, A, b


def _check_mus(mus: ArrayLike) -> np.ndarray:
    mus = np.asarray(mus, dtype=float)
    if mus.ndim != 1 or mus.size == 0 or np.any(mus < 0) or np.any(mus > 1) or np.any(np.diff(mus) <= 0):
        raise ValueError("mus must be a non-empty increasing 1-d grid inside [0, 1]")
    return mus


# --------------------------------------------------------------------------- instances
def random_knapsack(n: int, m: int, rng: np.random.Generator, correlation: float = 1.0) -> tuple[np.ndarray, ...]:
    """A random binary multi-dimensional knapsack, written as a minimisation (brief, section 4).

    Weights :math:`a_{ij}\\sim U(1,10)`, capacities :math:`b_i = \\tfrac12\\sum_j a_{ij}`, profits
    :math:`p_j = \\rho\\,\\bar a_j + U(0, 10)\\cdot(1-\\rho/2)`, with :math:`\\bar a_j` the mean weight of item
    :math:`j` and :math:`\\rho` = ``correlation`` (0: uncorrelated, 1: weakly correlated, harder).
    Returned as :math:`\\min c^\\top x` with :math:`c=-p`. All data are continuous, so LP bounds are in
    general position almost surely.

    Returns
    -------
    c : ndarray, shape (n,)
    A_ub : ndarray, shape (m, n)
    b_ub : ndarray, shape (m,)
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n must be an int >= 2; got {n!r}")
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
        raise ValueError(f"m must be an int >= 1; got {m!r}")
    if not 0 <= correlation <= 1:
        raise ValueError(f"correlation must lie in [0, 1]; got {correlation!r}")
    A = rng.uniform(1.0, 10.0, size=(m, n))
    p = correlation * A.mean(axis=0) + rng.uniform(0.0, 10.0, size=n) * (1 - correlation / 2)
    return -p, A, 0.5 * A.sum(axis=1)


# --------------------------------------------------------------------------- LP relaxation
def lp_relaxation(c: ArrayLike, A_ub: ArrayLike, b_ub: ArrayLike, lb: ArrayLike, ub: ArrayLike) -> tuple[float, np.ndarray | None]:
    """LP relaxation of a node: :math:`\\min c^\\top x` s.t. :math:`Ax\\le b`, ``lb <= x <= ub`` (HiGHS).

    Parameters
    ----------
    c : (n,); A_ub : (m, n); b_ub : (m,); lb, ub : (n,) bounds in [0, 1] (fixings are lb = ub).

    Returns
    -------
    (value, x) : float and ndarray (n,), or ``(inf, None)`` when the node's LP is infeasible.
    """
    c, A, b = _check_problem(c, A_ub, b_ub)
    lb = np.asarray(lb, dtype=float)
    ub = np.asarray(ub, dtype=float)
    if lb.shape != c.shape or ub.shape != c.shape or np.any(lb > ub):
        raise ValueError("lb and ub must have the shape of c with lb <= ub")
    res = linprog(c, A_ub=A, b_ub=b, bounds=np.column_stack([lb, ub]), method="highs-ds")
    if res.status == 2:  # infeasible
        return math.inf, None
    if res.status != 0:
        raise RuntimeError(f"LP relaxation failed: {res.message}")
    return float(res.fun), np.asarray(res.x, dtype=float)


@functools.lru_cache(maxsize=None)
def _vertex_index_sets(n: int, m: int) -> np.ndarray:
    """All m-subsets of the n + m dual hyperplanes (rows: ``n`` lines, then ``m`` axes), shape (K, m)."""
    from itertools import combinations

    return np.array(list(combinations(range(n + m), m)), dtype=int).reshape(-1, m)


def dual_lp_relaxation(c: ArrayLike, A_ub: ArrayLike, b_ub: ArrayLike, lb: ArrayLike, ub: ArrayLike) -> tuple[float, np.ndarray | None] | None:
    r"""Exact LP relaxation of a node of a packing problem (``A_ub >= 0``) through its Lagrangian dual.

    With the free variables ``F`` (``lb < ub``), profits :math:`p=-c_F`, columns :math:`a_j` and reduced
    capacities :math:`b' = b - A\,lb`, LP duality gives
    :math:`\max\{p^\top x: A_Fx\le b', 0\le x\le 1\} = \min_{\lambda\ge0} g(\lambda)`,
    :math:`g(\lambda)=\lambda^\top b'+\sum_j(p_j-\lambda^\top a_j)_+`, a convex piecewise-linear function
    whose minimum lies at a vertex of the arrangement of the hyperplanes :math:`\lambda^\top a_j=p_j` and
    :math:`\lambda_i=0`. We evaluate :math:`g` at every vertex at once (vectorised), recover :math:`x` from
    complementary slackness, and return it only if it is primal feasible and closes the duality gap (a
    certificate of optimality, relative 1e-9). Returns ``None`` when the certificate fails or the data are
    not of packing form (the caller then uses :func:`lp_relaxation`).

    Parameters and returns as :func:`lp_relaxation`.
    """
    c, A, b = _check_problem(c, A_ub, b_ub)
    lb = np.asarray(lb, dtype=float)
    ub = np.asarray(ub, dtype=float)
    if np.any(A < 0):
        return None
    free = np.flatnonzero(lb < ub)
    bb = b - A @ lb
    scale = 1.0 + np.abs(b).max()
    if np.any(bb < -1e-9 * scale):
        return math.inf, None
    x = lb.copy()
    if free.size == 0:
        return float(c @ x), x
    p, Af = -c[free], A[:, free]
    m, k = Af.shape
    H = np.vstack([Af.T, np.eye(m)])  # (k + m, m): rows of the hyperplanes
    r = np.concatenate([p, np.zeros(m)])
    S = _vertex_index_sets(k, m)
    M = H[S]  # (K, m, m)
    rs = r[S]  # (K, m)
    if m == 1:
        det = M[:, 0, 0]
        ok = np.abs(det) > 1e-12
        lam = np.where(ok, rs[:, 0] / np.where(ok, det, 1.0), np.nan)[:, None]
    elif m == 2:  # Cramer's rule, vectorised
        det = M[:, 0, 0] * M[:, 1, 1] - M[:, 0, 1] * M[:, 1, 0]
        ok = np.abs(det) > 1e-12
        d = np.where(ok, det, 1.0)
        lam = np.column_stack([(rs[:, 0] * M[:, 1, 1] - M[:, 0, 1] * rs[:, 1]) / d,
                               (M[:, 0, 0] * rs[:, 1] - M[:, 1, 0] * rs[:, 0]) / d])
        lam[~ok] = np.nan
    else:
        det = np.linalg.det(M)
        ok = np.abs(det) > 1e-12
        lam = np.full((S.shape[0], m), np.nan)
        lam[ok] = np.linalg.solve(M[ok], rs[ok][..., None])[..., 0]
    with np.errstate(invalid="ignore"):
        ok &= (lam >= -1e-12).all(axis=1)
    if not ok.any():
        return None
    lam = np.maximum(lam[ok], 0.0)
    g = lam @ bb + np.maximum(p[None, :] - lam @ Af, 0.0).sum(axis=1)
    lam_star = lam[int(np.argmin(g))]
    red = p - lam_star @ Af  # reduced profits
    tie_tol = 1e-9 * (1.0 + np.abs(p).max())
    xf = (red > tie_tol).astype(float)
    tied = np.flatnonzero(np.abs(red) <= tie_tol)
    tight = np.flatnonzero(lam_star > 1e-12)
    if tied.size:
        if tight.size != tied.size:
            return None
        rhs = bb[tight] - Af[tight] @ xf
        try:
            xf[tied] = np.linalg.solve(Af[np.ix_(tight, tied)], rhs)
        except np.linalg.LinAlgError:
            return None
    feas_tol = 1e-9 * scale
    if np.any(xf < -1e-9) or np.any(xf > 1 + 1e-9) or np.any(Af @ xf > bb + feas_tol):
        return None
    xf = np.clip(xf, 0.0, 1.0)
    gap = float(g.min()) - float(p @ xf)
    if abs(gap) > 1e-9 * (1.0 + abs(float(g.min()))):
        return None
    x[free] = xf
    return float(c @ x), x


class CachedLP:
    """The LP relaxations of one instance, memoised by the node's fixings (brief: cache LP solves).

    Calling ``lp(lb, ub)`` returns ``(value, x)`` as :func:`lp_relaxation`. For packing data
    (``A_ub >= 0``) it uses the certified :func:`dual_lp_relaxation` and falls back to HiGHS when the
    certificate fails (``n_fallback`` counts those); ``n_solved`` counts distinct LPs solved.
    """

    def __init__(self, c: ArrayLike, A_ub: ArrayLike, b_ub: ArrayLike):
        self.c, self.A, self.b = _check_problem(c, A_ub, b_ub)
        self.cache: dict[bytes, tuple[float, np.ndarray | None]] = {}
        self.packing = bool(np.all(self.A >= 0))  # exact dual fast path (dual_lp_relaxation) applies
        self.n_fallback = 0

    @property
    def n_solved(self) -> int:
        return len(self.cache)

    def __call__(self, lb: np.ndarray, ub: np.ndarray) -> tuple[float, np.ndarray | None]:
        key = lb.astype(np.int8).tobytes() + ub.astype(np.int8).tobytes()
        if key not in self.cache:
            fast = dual_lp_relaxation(self.c, self.A, self.b, lb, ub) if self.packing else None
            self.cache[key] = fast if fast is not None else lp_relaxation(self.c, self.A, self.b, lb, ub)
            self.n_fallback += fast is None and self.packing
        return self.cache[key]


# --------------------------------------------------------------------------- branching scores
def branching_features(x_lp: ArrayLike, c: ArrayLike, A_ub: ArrayLike, candidates: ArrayLike) -> np.ndarray:
    """Features of the fractional candidates at a node (brief, section 4).

    Column 0, fractionality :math:`\\phi_{\\text{frac}} = 2\\min(x_j, 1-x_j)\\in(0,1]`; column 1, the
    normalised cost ratio :math:`\\phi_{\\text{ratio}} = r_j/\\max_k r_k` with :math:`r_j = |c_j|/\\sum_i |a_{ij}|`
    (profit per unit of weight, the greedy knapsack order).

    Parameters
    ----------
    x_lp : (n,) LP solution; c : (n,); A_ub : (m, n); candidates : (k,) indices of fractional variables.

    Returns
    -------
    ndarray, shape (k, 2)
    """
    x = np.asarray(x_lp, dtype=float)
    idx = np.asarray(candidates, dtype=int)
    c = np.asarray(c, dtype=float)
    A = np.asarray(A_ub, dtype=float)
    if idx.ndim != 1 or idx.size == 0:
        raise ValueError("candidates must be a non-empty 1-d index array")
    frac = 2 * np.minimum(x[idx], 1 - x[idx])
    r = np.abs(c[idx]) / np.maximum(np.abs(A[:, idx]).sum(axis=0), 1e-12)
    return np.column_stack([frac, r / max(r.max(), 1e-12)])


def linear_score(mu: float, feats: ArrayLike) -> np.ndarray:
    """The linear score family :math:`s_\\mu = \\mu\\,\\phi_{\\text{frac}} + (1-\\mu)\\,\\phi_{\\text{ratio}}`.

    Parameters
    ----------
    mu : float in [0, 1]; feats : (k, 2) from :func:`branching_features`.

    Returns
    -------
    ndarray, shape (k,)
    """
    if not 0 <= mu <= 1:
        raise ValueError(f"mu must lie in [0, 1]; got {mu!r}")
    f = np.asarray(feats, dtype=float)
    if f.ndim != 2 or f.shape[1] != 2:
        raise ValueError(f"feats must have shape (k, 2); got {f.shape}")
    return mu * f[:, 0] + (1 - mu) * f[:, 1]


def linear_policy(mu: float) -> Policy:
    """The branching policy of :func:`linear_score` at weight ``mu``, as :func:`branch_and_bound` takes it."""
    linear_score(mu, np.zeros((1, 2)))  # validates mu
    return lambda feats: linear_score(mu, feats)


# --------------------------------------------------------------------------- branch and bound
def branch_and_bound(c: ArrayLike, A_ub: ArrayLike, b_ub: ArrayLike, policy: Policy, *,
                     max_nodes: int = 100_000, lp: CachedLP | None = None) -> tuple[np.ndarray | None, float, int]:
    """Best-bound branch-and-bound for :math:`\\min c^\\top x` s.t. :math:`A_{ub}x\\le b_{ub}`, :math:`x\\in\\{0,1\\}^n`.

    Parameters
    ----------
    c : (n,); A_ub : (m, n); b_ub : (m,)
    policy : callable
        The branching (variable-selection) policy: ``policy(feats) -> scores``, where ``feats`` is the
        ``(k, 2)`` array of :func:`branching_features` of the ``k`` fractional variables of the node's LP
        solution (in increasing index order) and ``scores`` is ``(k,)``. The node branches on the
        candidate of highest score (the lowest index on ties). :func:`linear_policy` builds the paper's
        linear family; any callable of this form (a small network, say) works.
    max_nodes : int
        Raises ``RuntimeError`` when more LP relaxations than this would be needed.
    lp : CachedLP, optional
        A memoised LP oracle of this instance (shared between runs to save LP solves).

    Returns
    -------
    x : ndarray (n,) of 0/1 floats, or ``None`` when the problem is infeasible.
    objective : float, :math:`c^\\top x`, or ``math.inf`` when the problem is infeasible.
    n_nodes : int, the number of B&B nodes whose LP relaxation was solved (root included).

    Notes
    -----
    Node selection is best-bound first; a node is pruned when its LP is infeasible, its bound is not
    below the incumbent's objective (relative slack 1e-9), or its LP solution is integral (it then
    becomes the incumbent if better). Both children of a branched node are solved when created.
    """
    import heapq

    c, A, b = _check_problem(c, A_ub, b_ub)
    if not callable(policy):
        raise ValueError("policy must be a callable feats (k, 2) -> scores (k,)")
    lp = lp or CachedLP(c, A, b)
    n = c.size
    best_x, best = None, math.inf
    n_nodes = 0
    heap: list = []
    counter = 0

    def solve(lb: np.ndarray, ub: np.ndarray) -> None:
        nonlocal n_nodes, best_x, best, counter
        n_nodes += 1
        if n_nodes > max_nodes:
            raise RuntimeError(f"branch_and_bound: more than max_nodes={max_nodes} nodes")
        val, x = lp(lb, ub)
        if x is None or val >= best - PRUNE_TOL * max(1.0, abs(best)):
            return
        frac = np.flatnonzero(np.abs(x - np.round(x)) > INT_TOL)
        if frac.size == 0:
            best_x, best = np.round(x), float(c @ np.round(x))
            return
        counter += 1
        heapq.heappush(heap, (val, counter, lb, ub, x, frac))

    solve(np.zeros(n), np.ones(n))
    while heap:
        val, _, lb, ub, x, frac = heapq.heappop(heap)
        if val >= best - PRUNE_TOL * max(1.0, abs(best)):
            continue
        scores = np.asarray(policy(branching_features(x, c, A, frac)), dtype=float)
        if scores.shape != frac.shape:
            raise ValueError(f"policy returned shape {scores.shape}, expected {frac.shape}")
        j = int(frac[int(np.argmax(scores))])
        for v in (0.0, 1.0):
            lb2, ub2 = lb.copy(), ub.copy()
            lb2[j] = ub2[j] = v
            solve(lb2, ub2)
    return best_x, best, n_nodes


@contextlib.contextmanager
def _quiet_c_output():
    """Send the file descriptors 1 and 2 to /dev/null for the duration (C-level prints of HiGHS)."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, null):
            os.close(fd)


def milp_optimum(c: ArrayLike, A_ub: ArrayLike, b_ub: ArrayLike) -> float:
    """The optimum of the binary program by ``scipy.optimize.milp`` (HiGHS); ``math.inf`` if infeasible.

    HiGHS stops by default at a relative MIP gap of 1e-4, which can return a feasible point that is not optimal
    (an independent review found one such instance among 456 at n = 12: -57.2695 against the optimum -57.2728).
    We ask for ``mip_rel_gap = 0``: a proven optimum (up to HiGHS's absolute gap of 1e-6).
    """
    c, A, b = _check_problem(c, A_ub, b_ub)
    with _quiet_c_output():  # HiGHS's MIP solver can print debug lines straight to the C stdout
        res = milp(c, constraints=LinearConstraint(A, -np.inf, b), integrality=np.ones(c.size), bounds=Bounds(0, 1),
                   options={"mip_rel_gap": 0.0})
    if res.status == 2 or res.x is None:
        return math.inf
    return float(res.fun)


def enumerate_optimum(c: ArrayLike, A_ub: ArrayLike, b_ub: ArrayLike, *, max_n: int = 16) -> float:
    r"""The optimum of the binary program by exhaustive enumeration of its :math:`2^n` points (brief, section 5).

    An exact, solver-free reference for small instances (used for :math:`z^*` by the notebook; the unit tests
    also compare it with :func:`milp_optimum`). Feasibility is tested with an absolute slack of 1e-12.

    Parameters
    ----------
    c : (n,); A_ub : (m, n); b_ub : (m,); max_n : refuse instances with more than ``max_n`` variables.

    Returns
    -------
    float, :math:`\min c^\top x` over the feasible binary points, or ``math.inf`` if there is none.
    """
    c, A, b = _check_problem(c, A_ub, b_ub)
    if c.size > max_n:
        raise ValueError(f"enumeration of 2^{c.size} points refused (max_n = {max_n})")
    X = ((np.arange(2 ** c.size)[:, None] >> np.arange(c.size)[None, :]) & 1).astype(float)
    ok = np.all(X @ A.T <= b + 1e-12, axis=1)
    return float((X[ok] @ c).min()) if ok.any() else math.inf


# --------------------------------------------------------------------------- exact profile over mu
def _argmax_pieces(feats: np.ndarray, lo: float, hi: float) -> list[tuple[float, float, int]]:
    """Split [lo, hi] into intervals on which the argmax of the linear scores is one candidate."""
    a = feats[:, 1]  # score at mu = 0
    s = feats[:, 0] - feats[:, 1]  # slope in mu
    k = a.size
    cuts = [lo, hi]
    if k > 1:
        i, j = np.triu_indices(k, 1)
        ds = s[i] - s[j]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (a[j] - a[i]) / ds
        t = t[(ds != 0) & (t > lo) & (t < hi)]
        cuts = sorted(set([lo, hi, *t.tolist()]))
    pieces: list[tuple[float, float, int]] = []
    for u, v in zip(cuts[:-1], cuts[1:]):
        mid = 0.5 * (u + v)
        j = int(np.argmax(a + s * mid))
        if pieces and pieces[-1][2] == j:
            pieces[-1] = (pieces[-1][0], v, j)
        else:
            pieces.append((u, v, j))
    return pieces


def _add_profiles(p: list[tuple[float, float, int]], q: list[tuple[float, float, int]]) -> list[tuple[float, float, int]]:
    """Sum of two piecewise-constant profiles on the same interval (pieces (lo, hi, value))."""
    out: list[tuple[float, float, int]] = []
    i = j = 0
    lo = p[0][0]
    while i < len(p) and j < len(q):
        hi = min(p[i][1], q[j][1])
        val = p[i][2] + q[j][2]
        if out and out[-1][2] == val:
            out[-1] = (out[-1][0], hi, val)
        elif hi > lo:
            out.append((lo, hi, val))
        lo = hi
        if p[i][1] <= hi:
            i += 1
        if q[j][1] <= hi:
            j += 1
    return out


def tree_size_profile(c: ArrayLike, A_ub: ArrayLike, b_ub: ArrayLike, z_star: float, *,
                      lp: CachedLP | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Exact B&B tree size of the linear family for every :math:`\\mu\\in[0,1]` (mechanism of the paper's bound).

    At each node the scores are linear in :math:`\\mu`, so the branching variable is constant between the
    crossing points of the candidates' score lines; recursing on each piece gives a piecewise-constant
    tree size with finitely many pieces. Valid for best-bound B&B on data in general position (see the
    module docstring): a node is expanded iff its LP is fractional with bound below :math:`z^*`.

    Parameters
    ----------
    c, A_ub, b_ub : the instance; z_star : its optimum (``math.inf`` if infeasible).

    Returns
    -------
    edges : ndarray (P + 1,), the breakpoints ``0 = e_0 < ... < e_P = 1``.
    sizes : ndarray (P,) of int, the tree size on ``(e_p, e_{p+1})``. At a breakpoint itself the
        tie-break of :func:`branch_and_bound` decides; evaluate profiles off the breakpoints.
    """
    c, A, b = _check_problem(c, A_ub, b_ub)
    lp = lp or CachedLP(c, A, b)
    slack = PRUNE_TOL * max(1.0, abs(z_star)) if math.isfinite(z_star) else 0.0

    def expand(lb: np.ndarray, ub: np.ndarray, lo: float, hi: float) -> list[tuple[float, float, int]]:
        val, x = lp(lb, ub)
        if x is None or val >= z_star - slack:
            return [(lo, hi, 1)]
        frac = np.flatnonzero(np.abs(x - np.round(x)) > INT_TOL)
        if frac.size == 0:
            return [(lo, hi, 1)]
        out: list[tuple[float, float, int]] = []
        for u, v, k in _argmax_pieces(branching_features(x, c, A, frac), lo, hi):
            j = frac[k]
            kids = []
            for val_j in (0.0, 1.0):
                lb2, ub2 = lb.copy(), ub.copy()
                lb2[j] = ub2[j] = val_j
                kids.append(expand(lb2, ub2, u, v))
            for lo_, hi_, s in _add_profiles(*kids):
                if out and out[-1][2] == s + 1:
                    out[-1] = (out[-1][0], hi_, s + 1)
                else:
                    out.append((lo_, hi_, s + 1))
        return out

    pieces = expand(np.zeros(c.size), np.ones(c.size), 0.0, 1.0)
    edges = np.array([pieces[0][0]] + [p[1] for p in pieces])
    return edges, np.array([p[2] for p in pieces], dtype=int)


def profile_on_grid(edges: ArrayLike, sizes: ArrayLike, mus: ArrayLike) -> np.ndarray:
    """Evaluate a piecewise-constant profile at grid points ``mus`` (shape (G,)); returns (G,) ints."""
    edges = np.asarray(edges, dtype=float)
    sizes = np.asarray(sizes)
    mus = _check_mus(mus)
    if edges.ndim != 1 or edges.size != sizes.size + 1 or np.any(np.diff(edges) <= 0):
        raise ValueError("edges must be increasing with one more entry than sizes")
    k = np.clip(np.searchsorted(edges, mus, side="right") - 1, 0, sizes.size - 1)
    return sizes[k]


# --------------------------------------------------------------------------- learning-theoretic quantities
def count_breakpoints(profile: ArrayLike) -> np.ndarray:
    """Number of changes of value along the last axis of sampled profiles (brief: ``count_breakpoints``).

    Parameters
    ----------
    profile : (..., G) values on an increasing grid.

    Returns
    -------
    ndarray of int, shape (...): for each profile, the number of ``g`` with ``profile[g+1] != profile[g]``.
    """
    p = np.asarray(profile)
    if p.ndim == 0 or p.shape[-1] == 0:
        raise ValueError("profile must have a non-empty last axis")
    return np.count_nonzero(np.diff(p, axis=-1) != 0, axis=-1)


def distinct_cost_vectors(costs: ArrayLike) -> int:
    """Number of distinct columns of a cost matrix (instances x grid): the dual growth function on a grid.

    Parameters
    ----------
    costs : (N, G) tree sizes of N instances at G parameter values.
    """
    C = np.asarray(costs)
    if C.ndim != 2 or C.size == 0:
        raise ValueError(f"costs must be a non-empty (N, G) matrix; got shape {C.shape}")
    return int(np.unique(C.T, axis=0).shape[0])


def uniform_gap(train_costs: ArrayLike, test_costs: ArrayLike) -> float:
    """Uniform deviation :math:`\\sup_\\mu|\\frac1N\\sum_{i\\le N}\\mathrm{cost}_i(\\mu) - \\frac1M\\sum_{k\\le M}\\mathrm{cost}'_k(\\mu)|`.

    The quantity the paper's uniform-convergence bound controls, with the expectation replaced by a
    held-out test mean and the sup taken over the grid.

    Parameters
    ----------
    train_costs : (N, G); test_costs : (M, G), on the same grid of parameters.
    """
    a = np.asarray(train_costs, dtype=float)
    b = np.asarray(test_costs, dtype=float)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[1] or a.shape[0] == 0 or b.shape[0] == 0:
        raise ValueError(f"train and test costs must be (N, G) and (M, G) with N, M >= 1; got {a.shape}, {b.shape}")
    return float(np.max(np.abs(a.mean(axis=0) - b.mean(axis=0))))


def per_instance_gap(train_costs: ArrayLike, test_costs: ArrayLike) -> float:
    """The same uniform deviation for the class that picks a separate :math:`\\mu` for every instance.

    A strawman for a shrinking-gap criterion: its gap stays above :func:`per_instance_gap_floor` at every N.

    Such a class (e.g. :math:`\\mu` looked up from a hash of the instance) has unbounded pseudo-dimension.
    Its sup splits over instances:
    :math:`\\max(\\overline{\\max_\\mu c}_{\\rm train}-\\overline{\\min_\\mu c}_{\\rm test},\\;
    \\overline{\\max_\\mu c}_{\\rm test}-\\overline{\\min_\\mu c}_{\\rm train})`.

    Parameters
    ----------
    train_costs : (N, G); test_costs : (M, G).
    """
    a = np.asarray(train_costs, dtype=float)
    b = np.asarray(test_costs, dtype=float)
    uniform_gap(a, b)  # validates shapes
    return float(max(a.max(axis=1).mean() - b.min(axis=1).mean(), b.max(axis=1).mean() - a.min(axis=1).mean()))


def per_instance_gap_floor(train_costs: ArrayLike, test_costs: ArrayLike) -> float:
    r"""A lower bound on :func:`per_instance_gap` that does not shrink with N: the mean range of a profile.

    Write :math:`A=\overline{\max_\mu c}_{\rm train}-\overline{\min_\mu c}_{\rm test}` and
    :math:`B=\overline{\max_\mu c}_{\rm test}-\overline{\min_\mu c}_{\rm train}`; the per-instance class's
    gap is :math:`\max(A,B)\ge(A+B)/2=\tfrac12(\overline{r}_{\rm train}+\overline{r}_{\rm test})`, with
    :math:`r=\max_\mu c-\min_\mu c` the range of one instance's profile over the grid. Averaged over disjoint
    splits that cover a training pool, the bound is half the sum of the pool's and the test set's mean ranges at
    every N: the class fails a shrinking-gap criterion by construction.

    Parameters
    ----------
    train_costs : (N, G); test_costs : (M, G), on the same grid.

    Returns
    -------
    float, :math:`\tfrac12(\overline{r}_{\rm train}+\overline{r}_{\rm test})\le` :func:`per_instance_gap`.
    """
    a = np.asarray(train_costs, dtype=float)
    b = np.asarray(test_costs, dtype=float)
    uniform_gap(a, b)  # validates shapes
    return float(0.5 * ((a.max(axis=1) - a.min(axis=1)).mean() + (b.max(axis=1) - b.min(axis=1)).mean()))


def bucket_uniform_gap(train_costs: ArrayLike, test_costs: ArrayLike, train_buckets: ArrayLike,
                       test_buckets: ArrayLike) -> float:
    r"""Uniform deviation of the class that gives each of B buckets of instances its own weight :math:`\mu_b`.

    An intermediate control between the one-weight family (B = 1) and one weight per instance: an instance
    is put in a bucket by a fixed hash (here, labels drawn at random once), and the policy with weights
    :math:`(\mu_1,\dots,\mu_B)` solves it with its bucket's weight. The class has B parameters, so its
    pseudo-dimension is bounded (it grows with B). Its deviation is
    :math:`\sup_{\mu_1..\mu_B}|\sum_b f_b(\mu_b)|` with
    :math:`f_b(\mu)=\frac1N\sum_{i\in b,\ \rm train}c_i(\mu)-\frac1M\sum_{k\in b,\ \rm test}c_k(\mu)`, which
    splits over buckets: :math:`\max(\sum_b\max_\mu f_b,\;-\sum_b\min_\mu f_b)` (a bucket with no instance
    contributes 0).

    Parameters
    ----------
    train_costs : (N, G); test_costs : (M, G), on the same grid.
    train_buckets : (N,) int labels >= 0; test_buckets : (M,) int labels >= 0.

    Returns
    -------
    float; equal to :func:`uniform_gap` when every label is the same, and to :func:`per_instance_gap` when every
    instance (train and test) has a label of its own.
    """
    a = np.asarray(train_costs, dtype=float)
    b = np.asarray(test_costs, dtype=float)
    uniform_gap(a, b)  # validates shapes
    la, lb = np.asarray(train_buckets), np.asarray(test_buckets)
    for name, lab, costs in (("train_buckets", la, a), ("test_buckets", lb, b)):
        if lab.shape != (costs.shape[0],) or not np.issubdtype(lab.dtype, np.integer) or np.any(lab < 0):
            raise ValueError(f"{name} must be {costs.shape[0]} non-negative integer labels; got {lab!r}")
    hi = lo = 0.0
    for lab in np.union1d(la, lb):
        f = a[la == lab].sum(axis=0) / a.shape[0] - b[lb == lab].sum(axis=0) / b.shape[0]
        hi += f.max()
        lo += f.min()
    return float(max(hi, -lo))


def exact_uniform_gap(train_profiles: list, test_profiles: list) -> float:
    r"""The uniform deviation over the whole interval, :math:`\sup_{\mu\in[0,1]}|\text{train mean}-\text{test mean}|`.

    :func:`uniform_gap` takes the sup over a grid (a finite class of policies); here it is taken over every
    :math:`\mu`, from the exact profiles of :func:`tree_size_profile`: the difference of means is constant
    between consecutive breakpoints of all the profiles together, so it suffices to evaluate it at the
    midpoint of each such piece (at a breakpoint itself the tie-break gives the value of a neighbouring
    piece, so the sup is the same).

    Parameters
    ----------
    train_profiles, test_profiles : non-empty lists of ``(edges, sizes)`` from :func:`tree_size_profile`.

    Returns
    -------
    float, at least :func:`uniform_gap` of the same profiles sampled on any grid.
    """
    for name, profs in (("train_profiles", train_profiles), ("test_profiles", test_profiles)):
        if not isinstance(profs, (list, tuple)) or not profs:
            raise ValueError(f"{name} must be a non-empty list of (edges, sizes)")
    edges = [np.asarray(e, dtype=float) for e, _ in (*train_profiles, *test_profiles)]
    if any(e.ndim != 1 or e.size < 2 or e[0] != 0.0 or e[-1] != 1.0 for e in edges):
        raise ValueError("every profile must cover [0, 1] (edges from 0 to 1)")
    cuts = np.unique(np.concatenate(edges))
    mids = 0.5 * (cuts[:-1] + cuts[1:])
    a = np.array([profile_on_grid(e, s, mids) for e, s in train_profiles], dtype=float)
    b = np.array([profile_on_grid(e, s, mids) for e, s in test_profiles], dtype=float)
    return uniform_gap(a, b)


def random_policy_costs(profiles: list, n_policies: int, rng: np.random.Generator) -> np.ndarray:
    r"""Costs of a finite class of randomised policies (a naive comparison class of the uniform gap).

    Policy :math:`k` of the class solves instance :math:`i` with the linear score at a weight
    :math:`u_{ik}\sim U(0,1)` drawn afresh for every (instance, policy) pair: a class of ``n_policies``
    policies with no parameter shared across instances. Being finite, it obeys the union bound
    :math:`\sup_k|\text{train mean}-\text{test mean}| = O(H\sqrt{\ln K / N})` whatever the structure of the
    scores (Hoeffding's inequality and a union bound over the :math:`K` policies).

    Parameters
    ----------
    profiles : non-empty list of ``(edges, sizes)`` from :func:`tree_size_profile`, one per instance.
    n_policies : int >= 1, the size :math:`K` of the class.
    rng : numpy Generator; draws ``n_policies`` uniforms per instance, in the order of ``profiles``.

    Returns
    -------
    ndarray of int, shape (len(profiles), n_policies): the tree size of each policy on each instance.
    """
    if isinstance(n_policies, bool) or not isinstance(n_policies, (int, np.integer)) or n_policies < 1:
        raise ValueError(f"n_policies must be an int >= 1; got {n_policies!r}")
    if not isinstance(profiles, (list, tuple)) or not profiles:
        raise ValueError("profiles must be a non-empty list of (edges, sizes)")
    out = np.empty((len(profiles), n_policies), dtype=int)
    for i, (edges, sizes) in enumerate(profiles):
        edges, sizes = np.asarray(edges, dtype=float), np.asarray(sizes)
        if edges.ndim != 1 or edges.size != sizes.size + 1 or np.any(np.diff(edges) <= 0):
            raise ValueError("edges must be increasing with one more entry than sizes")
        u = rng.uniform(0.0, 1.0, size=n_policies)
        out[i] = sizes[np.clip(np.searchsorted(edges, u, side="right") - 1, 0, sizes.size - 1)]
    return out


def erm_select(train_costs: ArrayLike, mus: ArrayLike) -> float:
    """Empirical risk minimiser: the grid value of :math:`\\mu` with the smallest mean training tree size.

    Parameters
    ----------
    train_costs : (N, G); mus : (G,) the grid. Ties go to the smallest :math:`\\mu`.
    """
    a = np.asarray(train_costs, dtype=float)
    mus = _check_mus(mus)
    if a.ndim != 2 or a.shape[1] != mus.size or a.shape[0] == 0:
        raise ValueError(f"train_costs must be (N, {mus.size}); got {a.shape}")
    return float(mus[int(np.argmin(a.mean(axis=0)))])


def pdim_upper_bound(max_breakpoints: int) -> int:
    """Pseudo-dimension bound of a one-parameter class whose cost profiles have at most ``b`` breakpoints.

    N instances give at most :math:`1+Nb` distinct cost vectors as :math:`\\mu` varies (the breakpoints of
    the N profiles cut [0, 1] into at most :math:`1+Nb` pieces); pseudo-shattering needs :math:`2^N` of
    them, so :math:`\\mathrm{Pdim}\\le\\max\\{N: 2^N\\le 1+Nb\\}` (the counting step of the paper's argument,
    for one parameter).
    """
    if isinstance(max_breakpoints, bool) or not isinstance(max_breakpoints, (int, np.integer)) or max_breakpoints < 0:
        raise ValueError(f"max_breakpoints must be an int >= 0; got {max_breakpoints!r}")
    N = 0
    while 2 ** (N + 1) <= 1 + (N + 1) * max_breakpoints:
        N += 1
    return N


def uniform_convergence_bound(N: ArrayLike, pdim: int, H: float, delta: float = 0.1) -> np.ndarray:
    """A standard pseudo-dimension bound on the uniform deviation (our constants, not the paper's).

    :math:`H\\left(\\sqrt{2d\\ln(eN/d)/N}+\\sqrt{\\ln(1/\\delta)/(2N)}\\right)` for costs in :math:`[0,H]`,
    with :math:`d=\\mathrm{Pdim}`; only its shape :math:`\\sqrt{d\\ln N/N}` is meant to be compared.

    Parameters
    ----------
    N : (k,) sample sizes >= pdim; pdim : int >= 1; H : float > 0; delta : float in (0, 1).
    """
    N = np.asarray(N, dtype=float)
    if pdim < 1 or H <= 0 or not 0 < delta < 1 or np.any(N < pdim):
        raise ValueError("need pdim >= 1, H > 0, 0 < delta < 1 and N >= pdim")
    return H * (np.sqrt(2 * pdim * np.log(np.e * N / pdim) / N) + np.sqrt(np.log(1 / delta) / (2 * N)))
