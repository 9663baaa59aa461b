"""Unit tests of :mod:`repro.papers.engibench_beams2d`, the kernels of ``notebooks/engibench-beams2d.py``."""

import inspect
import json
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from repro.papers import engibench_beams2d as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/engibench_beams2d.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def _field(nely, nelx, seed):
    return np.random.default_rng(seed).uniform(0.1, 1.0, size=(nely, nelx))


# ---- element stiffness ----------------------------------------------------------------------------------

def _ke_by_quadrature(nu):
    """Brute force: 2x2 Gauss quadrature of B^T D B over the unit square (plane stress, E = 1)."""
    D = np.array([[1, nu, 0], [nu, 1, 0], [0, 0, (1 - nu) / 2]]) / (1 - nu**2)
    xy = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)   # counter-clockwise from lower-left
    g = 0.5 + np.array([-1, 1]) / (2 * np.sqrt(3))
    KE = np.zeros((8, 8))
    for s in g:
        for t in g:
            dN = np.array([[-(1 - t), -(1 - s)], [(1 - t), -s], [t, s], [-t, (1 - s)]])  # dN/d(x, y)
            B = np.zeros((3, 8))
            B[0, 0::2] = dN[:, 0]
            B[1, 1::2] = dN[:, 1]
            B[2, 0::2] = dN[:, 1]
            B[2, 1::2] = dN[:, 0]
            KE += 0.25 * B.T @ D @ B
    assert xy.shape == (4, 2)
    return KE


@pytest.mark.parametrize("nu", [0.0, 0.3, 0.45])
def test_element_stiffness_equals_gauss_quadrature(nu):
    np.testing.assert_allclose(K.element_stiffness(nu), _ke_by_quadrature(nu), atol=1e-14)


def test_element_stiffness_is_symmetric_psd_with_three_rigid_modes():
    KE = K.element_stiffness(0.3)
    np.testing.assert_array_equal(KE, KE.T)
    w = np.linalg.eigvalsh(KE)
    assert np.sum(np.abs(w) < 1e-12) == 3 and w.min() > -1e-12 and np.sum(w > 1e-3) == 5
    xy = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)
    for mode in (np.tile([1.0, 0.0], 4), np.tile([0.0, 1.0], 4), np.column_stack([-xy[:, 1], xy[:, 0]]).ravel()):
        np.testing.assert_allclose(KE @ mode, 0.0, atol=1e-14)


def test_element_stiffness_rejects_bad_poisson_ratio():
    with pytest.raises(ValueError, match="Poisson"):
        K.element_stiffness(0.5)


# ---- mesh, filter, load ---------------------------------------------------------------------------------

def test_element_dofs_against_loop():
    nelx, nely = 4, 3
    ed = K.element_dofs(nelx, nely)
    for elx in range(nelx):
        for ely in range(nely):
            n1, n2 = (nely + 1) * elx + ely, (nely + 1) * (elx + 1) + ely
            np.testing.assert_array_equal(ed[ely + elx * nely], [2 * n1 + 2, 2 * n1 + 3, 2 * n2 + 2, 2 * n2 + 3,
                                                                 2 * n2, 2 * n2 + 1, 2 * n1, 2 * n1 + 1])
    assert ed.max() == 2 * (nelx + 1) * (nely + 1) - 1
    with pytest.raises(ValueError, match="positive integers"):
        K.element_dofs(0, 3)


@pytest.mark.parametrize("rmin", [1.0, 1.5, 2.0, 2.7])
def test_density_filter_against_loop(rmin):
    nelx, nely = 5, 4
    H, Hs = K.density_filter(nelx, nely, rmin)
    Hb = np.zeros((nelx * nely, nelx * nely))
    r = int(np.ceil(rmin)) - 1
    for i in range(nelx):
        for j in range(nely):
            for k in range(max(i - r, 0), min(i + r + 1, nelx)):
                for l in range(max(j - r, 0), min(j + r + 1, nely)):
                    Hb[i * nely + j, k * nely + l] = max(0.0, rmin - np.hypot(i - k, j - l))
    np.testing.assert_allclose(H.toarray(), Hb, atol=1e-15)
    np.testing.assert_allclose(Hs, Hb.sum(1))
    if rmin <= 1.0:
        np.testing.assert_allclose(H.toarray() / Hs[:, None], np.eye(nelx * nely))
    with pytest.raises(ValueError, match="rmin"):
        K.density_filter(nelx, nely, 0.0)


def test_load_dof_rules():
    assert K.load_dof(20, 10, 0.0) == 1                      # y-dof of the top-left node
    assert K.load_dof(20, 10, 0.5) == K.load_dof(20, 10, 0.5, rule="official") == 2 * 11 * 10 + 1
    off = K.load_dof(20, 10, 0.52, rule="official")         # 10.4 columns: official index leaves the top edge
    assert off == 229 and (off // 2) % 11 == 4
    assert K.load_dof(20, 10, 0.52) == 2 * 11 * 10 + 1
    with pytest.raises(ValueError, match="forcedist"):
        K.load_dof(20, 10, 1.5)
    with pytest.raises(ValueError, match="rule"):
        K.load_dof(20, 10, 0.5, rule="middle")


def test_image_vector_roundtrip_is_column_major():
    x = np.arange(12.0).reshape(3, 4)                         # (nely, nelx)
    v = K.image_to_vector(x, 4, 3)
    assert v[1] == x[1, 0] and v[3] == x[0, 1]                # e = ely + elx * nely
    np.testing.assert_array_equal(K.vector_to_image(v, 4, 3), x)
    with pytest.raises(ValueError, match="shape"):
        K.image_to_vector(x.T, 4, 3)


# ---- FE model and compliance ----------------------------------------------------------------------------

def _dense_compliance(x, nelx, nely, penal=3.0, forcedist=0.0):
    """Brute force: element loop assembly into a dense matrix, numpy.linalg.solve."""
    KE = K.element_stiffness(0.3)
    ndof = 2 * (nelx + 1) * (nely + 1)
    Kd = np.zeros((ndof, ndof))
    xv = x.T.ravel()
    for e, dofs in enumerate(K.element_dofs(nelx, nely)):
        Kd[np.ix_(dofs, dofs)] += (1e-9 + xv[e] ** penal * (1 - 1e-9)) * KE
    fixed = list(range(0, 2 * (nely + 1), 2)) + [ndof - 1]
    free = np.setdiff1d(np.arange(ndof), fixed)
    f = np.zeros(ndof)
    f[2 * (nely + 1) * round(forcedist * nelx) + 1] = -1
    u = np.linalg.solve(Kd[np.ix_(free, free)], f[free])
    return float(f[free] @ u), Kd[np.ix_(free, free)]


@pytest.mark.parametrize("forcedist", [0.0, 0.5, 1.0])
def test_compliance_matches_dense_direct_solve(forcedist):
    x = _field(3, 6, 4)
    c_ref, Kd = _dense_compliance(x, 6, 3, forcedist=forcedist)
    assert K.compliance(x, 6, 3, forcedist=forcedist) == pytest.approx(c_ref, rel=1e-10)
    s = K.topopt_setup(6, 3, forcedist=forcedist)
    np.testing.assert_allclose(K.global_stiffness(x, s).toarray(), Kd, atol=1e-13)


def test_global_stiffness_is_spd_after_supports():
    s = K.topopt_setup(6, 3)
    Kf = K.global_stiffness(_field(3, 6, 0), s).toarray()
    np.testing.assert_allclose(Kf, Kf.T, atol=1e-15)
    assert np.linalg.eigvalsh(Kf).min() > 0
    # without supports the structure has three rigid modes
    Kfull = sp.coo_matrix(((K.element_stiffness().ravel()[None, :] * np.ones((18, 1))).ravel(),
                           (np.repeat(s.edof, 8, axis=1).ravel(), np.tile(s.edof, (1, 8)).ravel()))).toarray()
    assert np.sum(np.abs(np.linalg.eigvalsh(Kfull)) < 1e-10) == 3


@pytest.mark.parametrize("s", [0.3, 0.5, 0.8])
def test_uniform_density_scaling_law(s):
    # K(s 1) = (Emin + s^p (1 - Emin)) K(1), hence c(s) = c(1) / (Emin + s^p (1 - Emin)) exactly
    c1 = K.compliance(np.ones((5, 10)), 10, 5)
    cs = K.compliance(np.full((5, 10), s), 10, 5)
    assert cs == pytest.approx(c1 / (1e-9 + s**3 * (1 - 1e-9)), rel=1e-10)
    assert K.compliance(np.full((5, 10), s), 10, 5, penal=1.0) == pytest.approx(c1 / (1e-9 + s * (1 - 1e-9)), rel=1e-10)


def test_solid_slender_beam_matches_timoshenko_theory():
    # half MBB, load 1 on the symmetry line = full simply supported beam of span 2L under a central load 2:
    # c = 2 [ (2L)^3 / (48 E I) + 2L / (4 kappa G A) ], E = 1, I = h^3 / 12, G = E / (2 (1 + nu)), kappa = 5/6
    nelx, nely = 120, 10
    c = K.compliance(np.ones((nely, nelx)), nelx, nely)
    L, h, G = nelx, nely, 1 / (2 * 1.3)
    c_beam = 2 * ((2 * L) ** 3 / (48 * h**3 / 12) + 2 * L / (4 * 5 / 6 * G * h))
    assert c == pytest.approx(c_beam, rel=0.02)


def test_compliance_is_monotone_in_density():
    rng = np.random.default_rng(1)
    x = _field(5, 10, 1)
    x2 = np.minimum(1.0, x + rng.uniform(0, 0.3, x.shape))
    assert K.compliance(x, 10, 5) > K.compliance(x2, 10, 5)


def test_compliance_equals_strain_energy_sum_and_accepts_vectors():
    s = K.topopt_setup(8, 4, forcedist=0.25)
    x = _field(4, 8, 2)
    c, dc = K.compliance_and_sensitivity(x, s)
    # dc = -p x^(p-1) ce  =>  sum_e x_e^p ce = -sum(x dc) / p ~ c (Emin term negligible)
    assert c == pytest.approx(float(-(x * dc).sum() / 3.0), rel=1e-6)
    assert K.compliance(K.image_to_vector(x, 8, 4), 8, 4, forcedist=0.25) == pytest.approx(c, rel=1e-12)


def test_sensitivity_matches_central_differences():
    s = K.topopt_setup(8, 4, forcedist=0.5)
    x = _field(4, 8, 3)
    c, dc = K.compliance_and_sensitivity(x, s)
    h = 1e-6
    for (i, j) in [(0, 0), (1, 3), (3, 7), (2, 4)]:
        xp, xm = x.copy(), x.copy()
        xp[i, j] += h
        xm[i, j] -= h
        fd = (K.compliance_and_sensitivity(xp, s)[0] - K.compliance_and_sensitivity(xm, s)[0]) / (2 * h)
        assert dc[i, j] == pytest.approx(fd, rel=1e-4)
    assert np.all(dc <= 0)


def test_assembly_order_does_not_change_the_stiffness():
    s = K.topopt_setup(6, 3)
    x = K.image_to_vector(_field(3, 6, 5), 6, 3)
    Kref = K.global_stiffness(x, s).toarray()
    perm = np.random.default_rng(0).permutation(s.red_i.size)
    vals = ((1e-9 + x**3 * (1 - 1e-9))[:, None] * s.KE.ravel()[None, :]).ravel()[s.red_mask]
    Kp = sp.coo_matrix((vals[perm], (s.red_i[perm], s.red_j[perm])), shape=Kref.shape).toarray()
    np.testing.assert_allclose(Kp, Kref, rtol=1e-13, atol=1e-15)


def test_compliance_rejects_bad_input():
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        K.compliance(np.full((3, 6), 1.5), 6, 3)
    with pytest.raises(ValueError, match="shape"):
        K.compliance(np.ones((6, 3)), 6, 3)
    with pytest.raises(ValueError, match="volfrac"):
        K.topopt_setup(6, 3, volfrac=0.0)


# ---- optimiser and constraints --------------------------------------------------------------------------

def test_oc_update_meets_the_volume_constraint():
    s = K.topopt_setup(20, 10, volfrac=0.4, rmin=1.5)
    x = np.full(s.n, 0.4)
    c, dc = K.compliance_and_sensitivity(x, s)
    dcf = np.minimum(s.H @ (dc / s.Hs), 0)
    dv = s.H @ (np.ones(s.n) / s.Hs)
    xn, xp = K.oc_update(x, dcf, dv, s)
    assert abs(xp.mean() - 0.4) < 1e-3
    assert np.all(np.abs(xn - x) <= 0.2 + 1e-15) and xn.min() >= 0 and xn.max() <= 1
    with pytest.raises(ValueError, match="element vectors"):
        K.oc_update(x[:-1], dcf, dv, s)


def test_simp_optimize_improves_on_the_uniform_design():
    s = K.topopt_setup(20, 10, volfrac=0.5, rmin=2.0, forcedist=0.0)
    x, h = K.simp_optimize(s)
    assert x.shape == (10, 20) and abs(x.mean() - 0.5) < 1e-3
    assert h["iterations"] == len(h["c"]) <= 100 and h["change"][-1] <= 0.025
    assert K.compliance(x, 20, 10) < 0.5 * K.compliance(np.full((10, 20), 0.5), 20, 10)
    # warm start from the optimum converges at once
    _, h2 = K.simp_optimize(s, x0=x)
    assert h2["iterations"] < h["iterations"]
    with pytest.raises(ValueError, match="max_iter"):
        K.simp_optimize(s, max_iter=-1)


def test_check_constraints():
    assert K.check_constraints(np.full((4, 8), 0.4), 0.4) == []
    msgs = K.check_constraints(np.full((4, 8), 0.42), 0.4)
    assert len(msgs) == 1 and "volume fraction" in msgs[0]
    assert K.check_constraints(np.full((4, 8), 0.405), 0.4) == []
    assert "outside" in K.check_constraints(np.full((4, 8), 1.2), 0.4)[0]


def test_dataset_and_conditions():
    rng = np.random.default_rng(0)
    c = K.sample_conditions(50, rng)
    assert c.shape == (50, 3) and c[:, 0].min() >= 0.3 and c[:, 0].max() <= 0.6 and c[:, 2].max() <= 1
    d = K.make_beams_dataset(3, 12, 6, seed=1)
    assert d["designs"].shape == (3, 6, 12)
    np.testing.assert_allclose(d["designs"].mean(axis=(1, 2)), d["conditions"][:, 0], atol=1e-3)
    for i in range(3):
        assert d["compliance"][i] == pytest.approx(
            K.compliance(d["designs"][i], 12, 6, forcedist=d["conditions"][i, 2]), rel=1e-12)
    with pytest.raises(ValueError, match="ranges"):
        K.sample_conditions(3, rng, volfrac=(0.6, 0.3))


def test_flip_solid_pixels():
    x = np.zeros((10, 20))
    x[:5] = 1.0
    y = K.flip_solid_pixels(x, 0.01, np.random.default_rng(0))
    assert (x != y).sum() == 2 and np.all(y[5:] == 0) and np.all(y <= x)
    xf = np.asfortranarray(x)                                 # a transposed (Fortran-order) design too
    assert (K.flip_solid_pixels(xf, 0.01, np.random.default_rng(0)) != xf).sum() == 2
    with pytest.raises(ValueError, match="frac"):
        K.flip_solid_pixels(x, 0.0, np.random.default_rng(0))


def test_random_solid_void_design():
    x = K.random_solid_void_design(0.3, 20, 10, np.random.default_rng(0))
    assert x.shape == (10, 20) and set(np.unique(x)) == {0.0, 1.0} and x.sum() == 60
    y = K.random_solid_void_design(0.3, 20, 10, np.random.default_rng(1))
    assert np.any(x != y)                                     # the layout is random, the volume is not
    with pytest.raises(ValueError, match="volfrac"):
        K.random_solid_void_design(0.0, 20, 10, np.random.default_rng(0))


@pytest.mark.parametrize("vf", [0.15, 0.3, 0.45, 0.6])
def test_hand_made_frame_has_the_exact_volume_and_a_load_path(vf):
    x = K.hand_made_frame(vf, 30, 15)
    assert x.shape == (15, 30) and set(np.unique(x)) <= {0.0, 1.0} and x.sum() == round(vf * 450)
    assert np.all(x[0] == 1)                                  # the top flange carries the load everywhere
    assert np.array_equal(K.hand_made_frame(vf, 30, 15), x)   # deterministic: no optimisation, no draw
    if vf >= 0.3:                                             # a closed frame: far stiffer than salt and pepper
        r = K.random_solid_void_design(vf, 30, 15, np.random.default_rng(0))
        assert K.compliance(x, 30, 15, forcedist=0.5) < 1e-3 * K.compliance(r, 30, 15, forcedist=0.5)
    with pytest.raises(ValueError, match="volfrac"):
        K.hand_made_frame(0.0, 30, 15)


def test_project_to_volume_meets_the_budget_and_keeps_the_order():
    x = _field(10, 20, 3)
    for vf in (0.2, 0.5, 0.8):
        y = K.project_to_volume(x, vf)
        assert abs(y.mean() - vf) < 1e-9 and y.min() > 0 and y.max() < 1
        assert np.array_equal(np.argsort(y, axis=None), np.argsort(x, axis=None))   # a monotone map
    y = K.project_to_volume(np.full((4, 4), 0.3), 0.3)
    assert np.allclose(y, 0.3)                                # already on the budget: unchanged
    with pytest.raises(ValueError, match="volfrac"):
        K.project_to_volume(x, 1.0)
    with pytest.raises(ValueError, match="densities"):
        K.project_to_volume(x + 1, 0.5)


# ---- metrics and baselines ------------------------------------------------------------------------------

def test_mmd_against_brute_force_and_identities():
    rng = np.random.default_rng(0)
    X, Y = rng.random((4, 2, 3)), rng.random((5, 2, 3))
    k = lambda a, b: np.exp(-np.sum((a - b) ** 2) / 2)  # noqa: E731
    ref = (np.mean([[k(a, b) for b in X] for a in X]) + np.mean([[k(a, b) for b in Y] for a in Y])
           - 2 * np.mean([[k(a, b) for b in Y] for a in X]))
    assert K.mmd(X, Y) == pytest.approx(ref, rel=1e-12)
    k10 = lambda a, b: np.exp(-np.sum((a - b) ** 2) / 200)  # noqa: E731  (sigma = 10, EngiOpt's evaluation scripts)
    ref10 = (np.mean([[k10(a, b) for b in X] for a in X]) + np.mean([[k10(a, b) for b in Y] for a in Y])
             - 2 * np.mean([[k10(a, b) for b in Y] for a in X]))
    assert K.mmd(X, Y, 10.0) == pytest.approx(ref10, rel=1e-12)
    assert abs(K.mmd(X, X)) < 1e-15 and K.mmd(X, Y) > 0
    with pytest.raises(ValueError, match="sigma"):
        K.mmd(X, Y, sigma=0)


def test_dpp_diversity_limits():
    X = np.eye(3) * 100.0
    assert K.dpp_diversity(X) == pytest.approx(1.0, rel=1e-5)
    assert K.dpp_diversity(np.ones((3, 4))) < 1e-10


def test_nearest_neighbour_returns_the_training_design():
    cond = np.array([[0.3, 1.5, 0.0], [0.5, 2.0, 1.0], [0.4, 2.5, 0.5]])
    designs = np.arange(3)[:, None, None] * np.ones((3, 2, 2))
    out = K.nearest_neighbour_designs(cond, designs, cond[[2, 0]] + 1e-3)
    np.testing.assert_array_equal(out[:, 0, 0], [2, 0])
    with pytest.raises(ValueError, match="one design"):
        K.nearest_neighbour_designs(cond, designs[:2], cond)


# ---- golden tests against the official code -------------------------------------------------------------
# tests/papers/golden/engibench-beams2d.json holds EngiBench's Beams2D.simulate / optimize outputs, run once
# outside the project (see its "how").

GOLDEN = json.loads((Path(__file__).parent / "golden" / "engibench-beams2d.json").read_text())
CASES = {c["name"]: c for c in GOLDEN["cases"]}


def test_golden_file_names_the_official_commit():
    assert GOLDEN["repository"].endswith("IDEALLab/EngiBench") and len(GOLDEN["commit"]) == 40


@pytest.mark.parametrize("name", [n for n in CASES if n.startswith("simulate_")])
def test_golden_simulate(name):
    c = CASES[name]
    inp = c["input"]
    nelx, nely = inp["nelx"], inp["nely"]
    if "seed" in inp:
        x = _field(nely, nelx, inp["seed"])
    elif "full((nely, nelx), 0.5)" in inp["recipe"]:
        x = np.full((nely, nelx), 0.5)
    else:
        x = np.ones((nely, nelx))
    rule = "official" if name.endswith("official_load") else "top"
    ours = K.compliance(x, nelx, nely, forcedist=inp["cond"]["forcedist"], load_rule=rule)
    assert ours == pytest.approx(c["output"], rel=c["tol"]["rel"])


def test_golden_official_load_departs_from_ours():
    c = CASES["simulate_random_20x10_fd052_official_load"]
    ours = K.compliance(_field(10, 20, 1), 20, 10, forcedist=0.52)
    assert abs(ours / c["output"] - 1) > 0.01


@pytest.mark.parametrize("name", [n for n in CASES if n.startswith("optimize_")])
def test_golden_optimize(name):
    c = CASES[name]
    inp, out, rel = c["input"], c["output"], c["tol"]["rel"]
    cond = inp["cond"]
    s = K.topopt_setup(inp["nelx"], inp["nely"], cond["volfrac"], cond["rmin"], cond["forcedist"])
    x, h = K.simp_optimize(s, max_iter=inp["max_iter"], min_change=inp["min_change"])
    assert h["iterations"] == out["iterations"]
    assert h["c"][0] == pytest.approx(out["c_first"], rel=rel)
    assert h["c"][-1] == pytest.approx(out["c_last_history"], rel=rel)
    assert K.compliance(x, inp["nelx"], inp["nely"], forcedist=cond["forcedist"]) == pytest.approx(out["c_final"], rel=rel)
    assert x.mean() == pytest.approx(out["mean_density"], rel=rel)


# ---- the conditional MLP generator ----------------------------------------------------------------------

def test_conditional_mlp_shapes_range_and_parameter_count():
    cond = np.random.default_rng(0).random((5, 3))
    designs = np.random.default_rng(1).random((5, 4, 8))
    model, losses = K.fit_conditional_mlp(cond, designs, hidden=16, epochs=200, seed=0)
    out = model.generate(cond)
    assert out.shape == (5, 4, 8) and out.min() > 0 and out.max() < 1
    assert K.parameter_count(model) == (3 * 16 + 16) + (16 * 16 + 16) + (16 * 32 + 32)
    assert losses[-1] < losses[0]
    # a single design is fitted almost exactly
    m1, l1 = K.fit_conditional_mlp(cond[:1], np.full((1, 4, 8), 0.3), hidden=8, epochs=300, lr=1e-2)
    np.testing.assert_allclose(m1.generate(cond[:1]), 0.3, atol=1e-3)
    with pytest.raises(ValueError, match="same n"):
        K.fit_conditional_mlp(cond, designs[:3])
