r"""EngiBench: a framework for data-driven engineering design research -- the Beams2D (MBB) problem.

Paper map
---------
*EngiBench: A Framework for Data-Driven Engineering Design Research*, F. Felten, G. Apaza, G. Bäunlich,
C. Diniz, X. Dong, A. Drake, M. Habibi, N. J. Hoffman, M. Keeler, S. Massoudi, F. G. VanGessel and M. Fuge,
NeurIPS 2025, https://arxiv.org/abs/2508.00831 (official code: github.com/IDEALLab/EngiBench, problem
``engibench/problems/beams2d``; algorithms and metrics: github.com/IDEALLab/EngiOpt).
Notebook: ``notebooks/engibench-beams2d.py``.

The Beams2D problem is the half MBB beam of Andreassen et al., "Efficient topology optimization in MATLAB
using 88 lines of code" (Struct. Multidisc. Optim. 43, 2011; "top88" below), which EngiBench ports to Python.
This module re-implements it from the equations (no EngiBench code).

Notation (paper / EngiBench -> here):

- design ``x`` (an image of shape ``(nely, nelx)``, row 0 at the top, densities in [0, 1]) -> ``x``; the
  flat element vector used by the FE model is column-major, element ``e = ely + elx * nely``
  (``image_to_vector``);
- ``nelx, nely`` (elements along the beam and through its height) -> ``nelx, nely``;
- ``Emin, Emax`` (void and solid Young's moduli, 1e-9 and 1) -> ``emin, emax``; ``penal`` (SIMP exponent
  p = 3) -> ``penal``; Poisson's ratio 0.3 -> ``nu``;
- ``KE`` (8x8 bilinear plane-stress element stiffness for E = 1) -> ``element_stiffness(nu)``;
- ``K(x) = sum_e (Emin + x_e^p (Emax - Emin)) K_e`` (SIMP, top88 eq. 2) -> ``global_stiffness``;
- compliance ``c = f^T u`` with ``K u = f`` (top88 eq. 1) -> ``compliance`` / ``compliance_and_sensitivity``;
- ``ce = u_e^T K_e u_e`` and ``dc/dx_e = -p x_e^(p-1) (Emax - Emin) ce`` (top88 eq. 5) -> the sensitivity;
- conditions ``volfrac`` (target volume fraction), ``rmin`` (filter radius, in elements), ``forcedist``
  (load position, 0 = symmetry line, 1 = the support end) -> the same names; ``H, Hs`` (density-filter
  weights ``max(0, rmin - dist)`` and their row sums, top88 eq. 3) -> ``density_filter``;
- optimality-criteria update with move 0.2 and bisection on the Lagrange multiplier (top88 eqs. 6-7),
  stopping when ``max |x_new - x| <= min_change`` (0.025 in EngiBench) or after ``max_iter`` (100) ->
  ``oc_update``, ``simp_optimize``;
- the volume constraint ``|mean(x) - volfrac| <= 0.01`` (EngiBench ``volume_fraction_bound``) ->
  ``check_constraints``; EngiOpt's MMD and DPP diversity (Gaussian kernel; ``metrics.py`` defaults to
  sigma = 1, its evaluation scripts pass sigma = 10) -> ``mmd``, ``dpp_diversity``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import torch
from scipy.linalg import solveh_banded
from scipy.spatial.distance import cdist

EMIN = 1e-9
EMAX = 1.0

__all__ = [
    "Setup", "element_stiffness", "element_dofs", "density_filter", "load_dof", "topopt_setup",
    "image_to_vector", "vector_to_image", "global_stiffness", "compliance", "compliance_and_sensitivity",
    "oc_update", "simp_optimize", "check_constraints", "sample_conditions", "make_beams_dataset",
    "flip_solid_pixels", "random_solid_void_design", "hand_made_frame", "project_to_volume", "mmd", "dpp_diversity", "nearest_neighbour_designs",
    "ConditionalMLP",
    "fit_conditional_mlp", "parameter_count",
]


def _check_mesh(nelx: int, nely: int) -> None:
    if int(nelx) != nelx or int(nely) != nely or nelx < 1 or nely < 1:
        raise ValueError(f"nelx and nely must be positive integers, got {nelx!r}, {nely!r}")


def element_stiffness(nu: float = 0.3) -> np.ndarray:
    """8x8 stiffness matrix of a unit square bilinear (Q4) plane-stress element with E = 1 (top88's ``KE``).

    Dof order: (x, y) of the lower-left, lower-right, upper-right, upper-left node (counter-clockwise).

    Parameters
    ----------
    nu : Poisson's ratio, in (-1, 0.5).

    Returns
    -------
    (8, 8) symmetric positive semi-definite array with three zero eigenvalues (the rigid-body modes).
    """
    if not -1.0 < nu < 0.5:
        raise ValueError(f"Poisson's ratio must lie in (-1, 0.5), got {nu}")
    k = np.array([1 / 2 - nu / 6, 1 / 8 + nu / 8, -1 / 4 - nu / 12, -1 / 8 + 3 * nu / 8,
                  -1 / 4 + nu / 12, -1 / 8 - nu / 8, nu / 6, 1 / 8 - 3 * nu / 8])
    idx = np.array([[0, 1, 2, 3, 4, 5, 6, 7],
                    [1, 0, 7, 6, 5, 4, 3, 2],
                    [2, 7, 0, 5, 6, 3, 4, 1],
                    [3, 6, 5, 0, 7, 2, 1, 4],
                    [4, 5, 6, 7, 0, 1, 2, 3],
                    [5, 4, 3, 2, 1, 0, 7, 6],
                    [6, 3, 4, 1, 2, 7, 0, 5],
                    [7, 2, 1, 4, 3, 6, 5, 0]])
    return k[idx] / (1 - nu**2)


def element_dofs(nelx: int, nely: int) -> np.ndarray:
    """Global dof numbers of every element (top88's ``edofMat``), vectorised.

    Nodes are numbered column by column from the top-left corner, node ``n = (nely + 1) * ix + iy`` with
    ``iy = 0`` on the top edge; node ``n`` carries dofs ``2n`` (x) and ``2n + 1`` (y, positive upwards).

    Returns
    -------
    (nelx * nely, 8) int array; row ``e = ely + elx * nely`` in ``element_stiffness``'s dof order.
    """
    _check_mesh(nelx, nely)
    elx, ely = np.meshgrid(np.arange(nelx), np.arange(nely), indexing="ij")
    n1 = ((nely + 1) * elx + ely).ravel()          # upper-left node
    n2 = ((nely + 1) * (elx + 1) + ely).ravel()    # upper-right node
    return np.stack([2 * n1 + 2, 2 * n1 + 3, 2 * n2 + 2, 2 * n2 + 3,
                     2 * n2, 2 * n2 + 1, 2 * n1, 2 * n1 + 1], axis=1)


def density_filter(nelx: int, nely: int, rmin: float) -> tuple[sp.csr_matrix, np.ndarray]:
    """Linear density-filter weights ``H_ef = max(0, rmin - dist(e, f))`` and row sums ``Hs`` (top88 eq. 3).

    Neighbours are searched within ``ceil(rmin) - 1`` elements in each direction, as in top88. The loop is
    over the (at most ``(2 ceil(rmin) - 1)^2``) offsets, vectorised over elements.

    Returns
    -------
    H : (n, n) sparse symmetric matrix, n = nelx * nely, in the column-major element order.
    Hs : (n,) row sums of H.
    """
    _check_mesh(nelx, nely)
    if not rmin > 0:
        raise ValueError(f"rmin must be positive, got {rmin}")
    r = int(np.ceil(rmin)) - 1
    ex, ey = np.meshgrid(np.arange(nelx), np.arange(nely), indexing="ij")
    ex, ey = ex.ravel(), ey.ravel()
    rows, cols, vals = [], [], []
    for dx in range(-r, r + 1):
        for dy in range(-r, r + 1):
            w = rmin - np.hypot(dx, dy)
            if w <= 0:
                continue
            kx, ky = ex + dx, ey + dy
            ok = (kx >= 0) & (kx < nelx) & (ky >= 0) & (ky < nely)
            rows.append((ex * nely + ey)[ok])
            cols.append((kx * nely + ky)[ok])
            vals.append(np.full(ok.sum(), w))
    n = nelx * nely
    H = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n))
    return H, np.asarray(H.sum(axis=1)).ravel()


def load_dof(nelx: int, nely: int, forcedist: float, rule: str = "top") -> int:
    """Global dof of the unit downward load of the half MBB beam.

    ``rule="top"`` (ours): the vertical dof of the top-edge node at column ``round(forcedist * nelx)``.
    ``rule="official"``: EngiBench's index ``int(1 + 2 forcedist nelx (nely + 1))``, which is the same node
    when ``forcedist * nelx`` is an integer, and otherwise a node down the column (or an x-dof).

    Returns
    -------
    int, in [0, 2 (nelx + 1)(nely + 1)).
    """
    _check_mesh(nelx, nely)
    if not 0.0 <= forcedist <= 1.0:
        raise ValueError(f"forcedist must lie in [0, 1], got {forcedist}")
    if rule == "top":
        return int(2 * (nely + 1) * int(np.round(forcedist * nelx)) + 1)
    if rule == "official":
        return int(1 + (2 * forcedist * nelx) * (nely + 1))
    raise ValueError(f"rule must be 'top' or 'official', got {rule!r}")


@dataclass(frozen=True, eq=False)
class Setup:
    """Everything the FE model and the optimiser need for one (mesh, conditions) pair.

    Attributes: mesh ``nelx, nely``; conditions ``volfrac, rmin, forcedist``; ``penal``; element stiffness
    ``KE`` (8, 8); ``edof`` (n, 8); ``free`` (nfree,) unconstrained dofs; ``f`` (ndof,) load vector;
    reduced-assembly indices ``red_i, red_j, red_mask``; banded-storage indices ``band_idx, band_sel`` and
    half-bandwidth ``bw``; filter ``H`` (n, n) and ``Hs`` (n,).
    """

    nelx: int
    nely: int
    volfrac: float
    rmin: float
    forcedist: float
    penal: float
    nu: float
    KE: np.ndarray
    edof: np.ndarray
    free: np.ndarray
    f: np.ndarray
    red_i: np.ndarray
    red_j: np.ndarray
    red_mask: np.ndarray
    band_idx: np.ndarray
    band_sel: np.ndarray
    bw: int
    H: sp.csr_matrix
    Hs: np.ndarray

    @property
    def n(self) -> int:
        """Number of elements."""
        return self.nelx * self.nely

    @property
    def ndof(self) -> int:
        """Number of dofs before the supports are applied."""
        return 2 * (self.nelx + 1) * (self.nely + 1)


def topopt_setup(nelx: int, nely: int, volfrac: float = 0.35, rmin: float = 2.0, forcedist: float = 0.0,
                 penal: float = 3.0, nu: float = 0.3, load_rule: str = "top") -> Setup:
    """Half MBB beam: mesh, supports, load and filter (top88 / EngiBench ``setup``).

    Supports: the x-dofs of the left edge (the symmetry line) and the y-dof of the bottom-right corner
    (the roller). Load: a unit downward force at ``load_dof(nelx, nely, forcedist, load_rule)``.
    Defaults are EngiBench's (volfrac 0.35, rmin 2, forcedist 0, penal 3).
    """
    _check_mesh(nelx, nely)
    if not 0.0 < volfrac <= 1.0:
        raise ValueError(f"volfrac must lie in (0, 1], got {volfrac}")
    if penal < 1.0:
        raise ValueError(f"penal must be at least 1, got {penal}")
    ndof = 2 * (nelx + 1) * (nely + 1)
    fixed = np.union1d(np.arange(0, 2 * (nely + 1), 2), [ndof - 1])
    free = np.setdiff1d(np.arange(ndof), fixed)
    f = np.zeros(ndof)
    f[load_dof(nelx, nely, forcedist, load_rule)] = -1.0
    edof = element_dofs(nelx, nely)
    iK = np.repeat(edof, 8, axis=1).ravel()     # (n*64,) row dof of entry (e, a, b) = edof[e, a]
    jK = np.tile(edof, (1, 8)).ravel()          # column dof = edof[e, b]
    reduced = -np.ones(ndof, dtype=np.int64)
    reduced[free] = np.arange(free.size)
    mask = (reduced[iK] >= 0) & (reduced[jK] >= 0)
    ri, rj = reduced[iK][mask], reduced[jK][mask]
    upper = ri <= rj                            # upper-banded storage for LAPACK's banded Cholesky
    bw = int((rj - ri).max())
    band_idx = (bw + ri[upper] - rj[upper]) * free.size + rj[upper]
    H, Hs = density_filter(nelx, nely, rmin)
    return Setup(nelx, nely, float(volfrac), float(rmin), float(forcedist), float(penal), float(nu),
                 element_stiffness(nu), edof, free, f, ri, rj, mask, band_idx, upper, bw, H, Hs)


def image_to_vector(x: np.ndarray, nelx: int, nely: int) -> np.ndarray:
    """(nely, nelx) design image -> (nelx * nely,) element vector, column-major (``e = ely + elx * nely``).

    A 1-D input of length ``nelx * nely`` is taken as already in element order and returned as float64.
    """
    x = np.asarray(x, dtype=float)
    if x.ndim == 2:
        if x.shape != (nely, nelx):
            raise ValueError(f"design image must have shape (nely, nelx) = {(nely, nelx)}, got {x.shape}")
        return x.T.ravel()
    if x.ndim == 1 and x.size == nelx * nely:
        return x
    raise ValueError(f"design must be a ({nely}, {nelx}) image or a vector of {nelx * nely}, got {x.shape}")


def vector_to_image(x: np.ndarray, nelx: int, nely: int) -> np.ndarray:
    """(nelx * nely,) element vector -> (nely, nelx) design image (inverse of ``image_to_vector``)."""
    x = np.asarray(x, dtype=float)
    if x.shape != (nelx * nely,):
        raise ValueError(f"expected a vector of {nelx * nely} densities, got {x.shape}")
    return x.reshape(nelx, nely).T


def _check_density(x: np.ndarray) -> None:
    # a filtered density H x / Hs can exceed 1 by a rounding error: allow 1e-9
    if not np.all(np.isfinite(x)) or x.min() < -1e-9 or x.max() > 1.0 + 1e-9:
        raise ValueError("densities must be finite and lie in [0, 1]")


def global_stiffness(x: np.ndarray, setup: Setup) -> sp.csc_matrix:
    """SIMP stiffness on the free dofs, ``K = sum_e (Emin + x_e^p (Emax - Emin)) K_e`` (top88 eq. 2).

    Parameters
    ----------
    x : (nely, nelx) image or (n,) element vector of densities in [0, 1].

    Returns
    -------
    (nfree, nfree) sparse symmetric positive-definite matrix (supports removed).
    """
    xv = image_to_vector(x, setup.nelx, setup.nely)
    _check_density(xv)
    sK = _element_values(xv, setup)
    nf = setup.free.size
    return sp.coo_matrix((sK, (setup.red_i, setup.red_j)), shape=(nf, nf)).tocsc()


def _element_values(xv: np.ndarray, setup: Setup) -> np.ndarray:
    E = EMIN + xv**setup.penal * (EMAX - EMIN)
    return (E[:, None] * setup.KE.ravel()[None, :]).ravel()[setup.red_mask]


def _displacements(xv: np.ndarray, setup: Setup) -> np.ndarray:
    """Solve K u = f by banded Cholesky (LAPACK pbtrf/pbtrs; nodes are numbered along the short side)."""
    _check_density(xv)
    nf = setup.free.size
    ab = np.bincount(setup.band_idx, weights=_element_values(xv, setup)[setup.band_sel],
                     minlength=(setup.bw + 1) * nf).reshape(setup.bw + 1, nf)
    u = np.zeros(setup.ndof)
    u[setup.free] = solveh_banded(ab, setup.f[setup.free], check_finite=False)
    return u


def compliance_and_sensitivity(x: np.ndarray, setup: Setup) -> tuple[float, np.ndarray]:
    """Compliance ``c = f^T u`` and its gradient ``dc/dx_e = -p x_e^(p-1) (Emax - Emin) u_e^T K_e u_e``.

    Implements top88 eqs. 1-2 and 5 (no filtering here; ``simp_optimize`` filters).

    Parameters
    ----------
    x : (nely, nelx) image or (n,) element vector of densities in [0, 1].
    setup : from ``topopt_setup``.

    Returns
    -------
    c : float, compliance (> 0).
    dc : array shaped like ``x``, the sensitivity (<= 0 everywhere).
    """
    xv = image_to_vector(x, setup.nelx, setup.nely)
    u = _displacements(xv, setup)
    ue = u[setup.edof]                                       # (n, 8)
    ce = np.einsum("ea,ab,eb->e", ue, setup.KE, ue)
    c = float(setup.f @ u)
    dc = -setup.penal * xv ** (setup.penal - 1) * (EMAX - EMIN) * ce
    if np.ndim(x) == 2:
        dc = vector_to_image(dc, setup.nelx, setup.nely)
    return c, dc


@functools.lru_cache(maxsize=32)
def _cached_setup(nelx: int, nely: int, forcedist: float, penal: float, nu: float, load_rule: str) -> Setup:
    return topopt_setup(nelx, nely, volfrac=0.5, rmin=1.0, forcedist=forcedist, penal=penal, nu=nu,
                        load_rule=load_rule)


def compliance(x: np.ndarray, nelx: int, nely: int, *, forcedist: float = 0.0, penal: float = 3.0,
               nu: float = 0.3, load_rule: str = "top") -> float:
    """Compliance of the half MBB beam with density field ``x`` under SIMP (EngiBench ``simulate``).

    ``c = f^T u``, ``K(x) u = f``, ``K(x) = sum_e (Emin + x_e^penal (Emax - Emin)) K_e``, Emin = 1e-9,
    Emax = 1 (top88 eqs. 1-2). The density is used as given (no filter, no projection), as in EngiBench.

    Parameters
    ----------
    x : (nely, nelx) image (row 0 at the top, column 0 at the symmetry line), or (nelx * nely,) vector in
        column-major element order; densities in [0, 1].
    nelx, nely : elements along and across the beam.
    forcedist : load position in [0, 1] (0 = on the symmetry line).
    penal, nu : SIMP exponent and Poisson's ratio.
    load_rule : "top" or "official" (see ``load_dof``).

    Returns
    -------
    float, the compliance (work of the unit load).
    """
    _check_mesh(nelx, nely)
    setup = _cached_setup(int(nelx), int(nely), float(forcedist), float(penal), float(nu), load_rule)
    xv = image_to_vector(x, nelx, nely)
    _check_density(xv)
    return float(setup.f @ _displacements(xv, setup))


def oc_update(x: np.ndarray, dc: np.ndarray, dv: np.ndarray, setup: Setup, move: float = 0.2,
              ratio_tol: float = 1e-3) -> tuple[np.ndarray, np.ndarray]:
    """Optimality-criteria step with bisection on the volume multiplier (top88 eqs. 6-7, EngiBench ``inner_opt``).

    ``x_new = clip(x sqrt(-dc / (dv lambda)), x - move, x + move) ∩ [0, 1]``, with lambda bisected on
    [0, 1e9] until ``(l2 - l1) / (l1 + l2) <= ratio_tol`` so that the filtered density ``H x_new / Hs`` has
    total volume ``volfrac * n``.

    Parameters
    ----------
    x, dc, dv : (n,) element vectors (design variables, filtered sensitivities of compliance and volume).

    Returns
    -------
    x_new : (n,) design variables; x_phys : (n,) filtered (physical) densities.
    """
    if not (x.shape == dc.shape == dv.shape == (setup.n,)):
        raise ValueError(f"x, dc and dv must be element vectors of length {setup.n}")
    l1, l2 = 0.0, 1e9
    target = setup.volfrac * setup.n
    step = x * np.sqrt(np.maximum(-dc, 0.0) / dv)
    lo, hi = np.maximum(x - move, 0.0), np.minimum(x + move, 1.0)   # move limit within [0, 1]
    # the filtered volume sum(H x / Hs) is the linear functional w . x with w = H^T (1 / Hs)
    w = setup.H.T @ (1.0 / setup.Hs)
    x_new = x
    while l1 + l2 > 0 and (l2 - l1) / (l1 + l2) > ratio_tol:
        lmid = 0.5 * (l1 + l2)
        x_new = np.minimum(np.maximum(step / np.sqrt(lmid), lo), hi)
        if w @ x_new > target:
            l1 = lmid
        else:
            l2 = lmid
        if abs(l2 - l1) < np.finfo(float).eps:
            break
    return x_new, setup.H @ x_new / setup.Hs


def simp_optimize(setup: Setup, x0: np.ndarray | None = None, max_iter: int = 100,
                  min_change: float = 0.025) -> tuple[np.ndarray, dict]:
    """SIMP compliance minimisation with a density filter and OC updates (top88, EngiBench ``optimize``).

    Each iteration: c and dc at the physical density; chain rule through the filter
    ``dc <- H (dc / Hs)``, ``dv <- H (1 / Hs)``; ``dc <- min(dc, 0)``; ``oc_update``. It stops when
    ``max |x_new - x| <= min_change`` or after ``max_iter`` iterations. Without ``x0`` it starts from
    the uniform design ``volfrac``; a warm start ``x0`` is used as both design and physical density, as in
    EngiBench.

    Returns
    -------
    x_phys : (nely, nelx) final physical design image.
    history : dict with ``c`` (compliance at the start of each iteration), ``change`` (per iteration) and
        ``iterations`` (= len(c)).
    """
    if max_iter < 0:
        raise ValueError(f"max_iter must be non-negative, got {max_iter}")
    if x0 is None:
        x = np.full(setup.n, setup.volfrac)
    else:
        x = image_to_vector(x0, setup.nelx, setup.nely).copy()
        _check_density(x)
    x_phys = x.copy()
    dv = setup.H @ (np.ones(setup.n) / setup.Hs)
    cs, changes = [], []
    change = 1.0
    while change > min_change and len(cs) < max_iter:
        c, dc = compliance_and_sensitivity(x_phys, setup)
        cs.append(c)
        dc = np.minimum(setup.H @ (dc / setup.Hs), 0.0)
        x_new, x_phys = oc_update(x, dc, dv, setup)
        change = float(np.max(np.abs(x_new - x)))
        changes.append(change)
        x = x_new
    return vector_to_image(x_phys, setup.nelx, setup.nely), {
        "c": np.array(cs), "change": np.array(changes), "iterations": len(cs)}


def check_constraints(x: np.ndarray, volfrac: float, tol: float = 0.01) -> list[str]:
    """EngiBench's design checks: densities in [0, 1] and ``|mean(x) - volfrac| <= tol``.

    Returns
    -------
    list of violation messages (empty when the design is feasible).
    """
    x = np.asarray(x, dtype=float)
    if x.size == 0:
        raise ValueError("empty design")
    if tol < 0:
        raise ValueError(f"tol must be non-negative, got {tol}")
    out = []
    if not np.all(np.isfinite(x)) or x.min() < 0 or x.max() > 1:
        out.append("densities outside [0, 1]")
    if abs(float(x.mean()) - volfrac) > tol:
        out.append(f"volume fraction {x.mean():.4f} differs from target {volfrac:.4f} by more than {tol}")
    return out


def sample_conditions(n: int, rng: np.random.Generator, volfrac=(0.3, 0.6), rmin=(1.2, 2.5),
                      forcedist=(0.0, 1.0)) -> np.ndarray:
    """Conditions drawn uniformly from boxes: columns (volfrac, rmin, forcedist).

    Returns
    -------
    (n, 3) array.
    """
    if n < 1:
        raise ValueError(f"n must be positive, got {n}")
    lo = np.array([volfrac[0], rmin[0], forcedist[0]])
    hi = np.array([volfrac[1], rmin[1], forcedist[1]])
    if np.any(hi < lo) or lo[0] <= 0 or hi[0] > 1 or lo[1] <= 0 or lo[2] < 0 or hi[2] > 1:
        raise ValueError("invalid condition ranges")
    return lo + (hi - lo) * rng.random((n, 3))


def make_beams_dataset(n: int, nelx: int, nely: int, seed: int, progress=None, **ranges) -> dict:
    """A dataset of (conditions -> optimised design), as EngiBench's ``beams_2d`` (generated, not downloaded).

    Returns
    -------
    dict with ``conditions`` (n, 3), ``designs`` (n, nely, nelx), ``compliance`` (n,) of the final designs,
    ``iterations`` (n,), ``histories`` (list of n compliance histories from the uniform start).
    """
    _check_mesh(nelx, nely)
    cond = sample_conditions(n, np.random.default_rng(seed), **ranges)
    it = range(n) if progress is None else progress(range(n), desc="optimised designs")
    designs, comp, iters, hist = [], [], [], []
    for i in it:
        vf, rm, fd = cond[i]
        s = topopt_setup(nelx, nely, vf, rm, fd)
        x, h = simp_optimize(s)
        designs.append(x)
        comp.append(compliance_and_sensitivity(x, s)[0])
        iters.append(h["iterations"])
        hist.append(h["c"])
    return {"conditions": cond, "designs": np.ascontiguousarray(np.stack(designs)), "compliance": np.array(comp),
            "iterations": np.array(iters), "histories": hist}


def flip_solid_pixels(x: np.ndarray, frac: float, rng: np.random.Generator) -> np.ndarray:
    """Set ``ceil(frac * size)`` randomly chosen solid pixels (``x >= max(x) / 2``) to void (0).

    Returns
    -------
    A copy of ``x`` with the chosen pixels set to 0.
    """
    if not 0 < frac < 1:
        raise ValueError(f"frac must lie in (0, 1), got {frac}")
    x = np.array(x, dtype=float, order="C")        # C order: reshape(-1) below is a view
    flat = x.reshape(-1)
    cand = np.flatnonzero(flat >= 0.5 * x.max())
    k = int(np.ceil(frac * x.size))
    if cand.size < k:
        raise ValueError("fewer solid pixels than pixels to flip")
    flat[rng.choice(cand, size=k, replace=False)] = 0.0
    return x


def random_solid_void_design(volfrac: float, nelx: int, nely: int, rng: np.random.Generator) -> np.ndarray:
    """A solid/void design with ``round(volfrac * nelx * nely)`` solid pixels placed uniformly at random.

    A naive baseline with the volume of an optimised design and none of its layout.

    Returns
    -------
    (nely, nelx) array of zeros and ones.
    """
    _check_mesh(nelx, nely)
    if not 0 < volfrac <= 1:
        raise ValueError(f"volfrac must lie in (0, 1], got {volfrac}")
    n = nelx * nely
    x = np.zeros(n)
    x[rng.choice(n, size=max(1, int(round(volfrac * n))), replace=False)] = 1.0
    return x.reshape(nely, nelx)


def hand_made_frame(volfrac: float, nelx: int, nely: int) -> np.ndarray:
    """A solid/void frame laid out by hand (no optimisation) with ``round(volfrac * nelx * nely)`` solid pixels.

    Pixels are taken in a fixed order of priority until the budget is spent: the top flange (row 0, where the
    load acts), the end post over the roller (last column), the bottom flange from the symmetry line
    outwards, two-pixel-wide diagonal braces of a Warren truss with panels as long as the beam is high, then
    the flanges thickened row by row towards the middle, then the rest of the beam row by row.

    Returns
    -------
    (nely, nelx) array of zeros and ones with exactly ``round(volfrac * nelx * nely)`` ones.
    """
    _check_mesh(nelx, nely)
    if not 0 < volfrac <= 1:
        raise ValueError(f"volfrac must lie in (0, 1], got {volfrac}")
    order: list[tuple[int, int]] = [(0, c) for c in range(nelx)]
    order += [(r, nelx - 1) for r in range(1, nely)]
    order += [(nely - 1, c) for c in range(nelx)]
    w, c0, down = max(nely - 1, 1), 0, True
    while c0 < nelx - 1:                                   # Warren diagonals, alternating direction
        for r in range(nely):
            c = c0 + int(round((r if down else nely - 1 - r) * w / max(nely - 1, 1)))
            order += [(r, min(c, nelx - 1)), (r, min(c + 1, nelx - 1))]
        c0, down = c0 + w, not down
    for k in range(1, nely):                               # thicken the flanges, then fill
        order += [(k, c) for c in range(nelx)] + [(nely - 1 - k, c) for c in range(nelx)]
    seen, x = set(), np.zeros((nely, nelx))
    n = max(1, int(round(volfrac * nelx * nely)))
    for rc in order:
        if len(seen) == n:
            break
        if rc not in seen:
            seen.add(rc)
            x[rc] = 1.0
    return x


def project_to_volume(x: np.ndarray, volfrac: float, iters: int = 60) -> np.ndarray:
    """Shift a density field in logit space so that its mean equals ``volfrac``: ``sigmoid(logit(x) + s)``.

    ``s`` is found by bisection (the mean is increasing in ``s``); densities are first kept inside
    ``[1e-6, 1 - 1e-6]``. A one-line way to make a regression output meet EngiBench's volume constraint.

    Returns
    -------
    array of the shape of ``x`` with mean ``volfrac`` (to about 1e-12).
    """
    x = np.asarray(x, dtype=float)
    _check_density(x)
    if not 0 < volfrac < 1:
        raise ValueError(f"volfrac must lie in (0, 1), got {volfrac}")
    z = np.log(np.clip(x, 1e-6, 1 - 1e-6)) - np.log1p(-np.clip(x, 1e-6, 1 - 1e-6))
    lo, hi = -40.0, 40.0
    for _ in range(iters):
        s = 0.5 * (lo + hi)
        if np.mean(1 / (1 + np.exp(-(z + s)))) < volfrac:
            lo = s
        else:
            hi = s
    return 1 / (1 + np.exp(-(z + 0.5 * (lo + hi))))


def mmd(X: np.ndarray, Y: np.ndarray, sigma: float = 1.0) -> float:
    """Biased squared maximum mean discrepancy with a Gaussian kernel (EngiOpt ``mmd``).

    ``MMD^2 = mean k(X, X) + mean k(Y, Y) - 2 mean k(X, Y)``, ``k(a, b) = exp(-|a - b|^2 / (2 sigma^2))``.

    Parameters
    ----------
    X : (n, ...) generated designs; Y : (m, ...) reference designs (flattened per sample).
    """
    if sigma <= 0:
        raise ValueError(f"sigma must be positive, got {sigma}")
    X = np.asarray(X, float).reshape(len(X), -1)
    Y = np.asarray(Y, float).reshape(len(Y), -1)
    if X.shape[1] != Y.shape[1]:
        raise ValueError("X and Y must have the same number of features")
    k = lambda A, B: np.exp(-cdist(A, B, "sqeuclidean") / (2 * sigma**2))  # noqa: E731
    return float(k(X, X).mean() + k(Y, Y).mean() - 2 * k(X, Y).mean())


def dpp_diversity(X: np.ndarray, sigma: float = 1.0) -> float:
    """Determinantal-point-process diversity ``det(K + 1e-6 I)``, Gaussian kernel (EngiOpt ``dpp_diversity``).

    Parameters
    ----------
    X : (n, ...) designs. Returns a float in (0, 1]; 1 for mutually distant designs.
    """
    if sigma <= 0:
        raise ValueError(f"sigma must be positive, got {sigma}")
    X = np.asarray(X, float).reshape(len(X), -1)
    K = np.exp(-cdist(X, X, "sqeuclidean") / (2 * sigma**2))
    return float(np.linalg.det(K + 1e-6 * np.eye(len(X))))


def nearest_neighbour_designs(train_cond: np.ndarray, train_designs: np.ndarray,
                              query_cond: np.ndarray) -> np.ndarray:
    """Retrieve, for each query condition, the training design whose (standardised) condition is nearest.

    Parameters
    ----------
    train_cond : (n, d); train_designs : (n, ...); query_cond : (m, d).

    Returns
    -------
    (m, ...) retrieved designs.
    """
    train_cond, query_cond = np.asarray(train_cond, float), np.asarray(query_cond, float)
    if train_cond.ndim != 2 or query_cond.ndim != 2 or train_cond.shape[1] != query_cond.shape[1]:
        raise ValueError("conditions must be 2-D arrays with the same number of columns")
    if len(train_cond) != len(train_designs):
        raise ValueError("one design per training condition")
    mu, sd = train_cond.mean(0), train_cond.std(0) + 1e-12
    d = cdist((query_cond - mu) / sd, (train_cond - mu) / sd)
    return np.asarray(train_designs)[np.argmin(d, axis=1)]


class ConditionalMLP(torch.nn.Module):
    """Conditional MLP generator: conditions -> density image (an EngiOpt-style regression baseline).

    ``x = sigmoid(W3 relu(W2 relu(W1 z + b1) + b2) + b3)`` with ``z`` the conditions standardised by the
    training mean and standard deviation (stored as buffers).

    Input (B, d) conditions; output (B, nely, nelx) densities in (0, 1).
    """

    def __init__(self, n_cond: int, nelx: int, nely: int, hidden: int, mu: np.ndarray, sd: np.ndarray):
        super().__init__()
        if hidden < 1 or n_cond < 1:
            raise ValueError("hidden and n_cond must be positive")
        _check_mesh(nelx, nely)
        self.nelx, self.nely = nelx, nely
        self.net = torch.nn.Sequential(
            torch.nn.Linear(n_cond, hidden), torch.nn.ReLU(),
            torch.nn.Linear(hidden, hidden), torch.nn.ReLU(),
            torch.nn.Linear(hidden, nelx * nely))
        self.register_buffer("mu", torch.as_tensor(mu, dtype=torch.float64))
        self.register_buffer("sd", torch.as_tensor(sd, dtype=torch.float64))
        self.double()

    def forward(self, cond: torch.Tensor) -> torch.Tensor:
        """(B, d) conditions -> (B, nely, nelx) densities."""
        z = (cond - self.mu) / self.sd
        return torch.sigmoid(self.net(z)).reshape(-1, self.nely, self.nelx)

    def generate(self, cond: np.ndarray) -> np.ndarray:
        """NumPy wrapper of ``forward`` without gradients: (B, d) -> (B, nely, nelx)."""
        with torch.no_grad():
            return self(torch.as_tensor(np.asarray(cond, float))).numpy()


def parameter_count(model: torch.nn.Module) -> int:
    """Number of trainable parameters (buffers excluded)."""
    return int(sum(p.numel() for p in model.parameters() if p.requires_grad))


def fit_conditional_mlp(cond: np.ndarray, designs: np.ndarray, hidden: int = 64, epochs: int = 1000,
                        lr: float = 3e-3, seed: int = 0) -> tuple[ConditionalMLP, np.ndarray]:
    """Fit ``ConditionalMLP`` by full-batch Adam (lr, betas 0.9 / 0.999) on the pixel-wise mean squared error.

    Parameters
    ----------
    cond : (n, d) conditions; designs : (n, nely, nelx) optimised designs.

    Returns
    -------
    model, losses : the fitted model and the (epochs,) training loss.
    """
    cond, designs = np.asarray(cond, float), np.asarray(designs, float)
    if cond.ndim != 2 or designs.ndim != 3 or len(cond) != len(designs):
        raise ValueError("cond must be (n, d) and designs (n, nely, nelx) with the same n")
    if epochs < 1:
        raise ValueError(f"epochs must be positive, got {epochs}")
    torch.manual_seed(seed)
    n, nely, nelx = designs.shape
    model = ConditionalMLP(cond.shape[1], nelx, nely, hidden, cond.mean(0), cond.std(0) + 1e-12)
    c, y = torch.as_tensor(cond), torch.as_tensor(designs)
    params = list(model.parameters())
    m = [torch.zeros_like(p) for p in params]
    v = [torch.zeros_like(p) for p in params]
    b1, b2, eps = 0.9, 0.999, 1e-8
    losses = np.empty(epochs)
    for t in range(1, epochs + 1):   # Adam (Kingma and Ba, 2015, Algorithm 1), written out: torch.optim loads dynamo
        loss = torch.mean((model(c) - y) ** 2)
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            for p, g, mi, vi in zip(params, grads, m, v):
                mi.mul_(b1).add_(g, alpha=1 - b1)
                vi.mul_(b2).addcmul_(g, g, value=1 - b2)
                p.sub_(lr * (mi / (1 - b1**t)) / ((vi / (1 - b2**t)).sqrt() + eps))
        losses[t - 1] = loss.item()
    return model, losses
