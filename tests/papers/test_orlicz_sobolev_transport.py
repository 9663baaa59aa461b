"""Tests for repro.papers.orlicz_sobolev_transport (closed forms, POT cross-checks, invariants)."""

import json
from pathlib import Path

import networkx as nx
import numpy as np
import ot
import pytest
from scipy.optimize import minimize_scalar

from repro.papers import orlicz_sobolev_transport as K


def _setup(n=30, seed=0, radius=None):
    rng = np.random.default_rng(seed)
    G = K.random_geometric_graph(n, rng, radius=radius)
    T = K.root_path_tree(G, 0)
    return rng, G, T


def _tree_metric(G, T):
    d = dict(nx.all_pairs_dijkstra_path_length(G))
    return np.array([[d[u][v] for v in T.nodes] for u in T.nodes])


def test_root_path_tree_on_path_graph():
    G = nx.path_graph(5)
    nx.set_edge_attributes(G, {e: float(i + 1) for i, e in enumerate(G.edges)}, "weight")
    T = K.root_path_tree(G, 0)
    assert T.nodes == [0, 1, 2, 3, 4]
    np.testing.assert_array_equal(T.parent, [-1, 0, 1, 2, 3])
    np.testing.assert_allclose(T.w, [0, 1, 2, 3, 4])
    np.testing.assert_allclose(T.depth, [0, 1, 3, 6, 10])


def test_edge_subtree_mass_matches_brute_force_path_membership():
    rng, G, T = _setup(40, 1)
    mu = K.random_unbalanced_measures(40, 1, rng)[0]
    paths = nx.single_source_dijkstra_path(G, 0)
    idx = {v: i for i, v in enumerate(T.nodes)}
    brute = np.zeros(40)
    for u in T.nodes:
        for v in paths[u][1:]:  # edge into v lies on the root path of u
            brute[idx[v]] += mu[idx[u]]
    np.testing.assert_allclose(K.edge_subtree_mass(T, mu), brute, atol=1e-14)
    assert K.edge_subtree_mass(T, mu)[0] == 0


def test_gst_power_closed_form_and_numerical_minimum():
    rng = np.random.default_rng(2)
    dh, w = rng.normal(size=25), rng.random(25) + 0.1
    for p in (1.5, 2.0, 3.0):
        val, n_phi = K.gst(dh, w, K.power_nfunction(p))
        closed = p * (p - 1) ** ((1 - p) / p) * K.sobolev_transport_p(dh, w, p)
        assert val == pytest.approx(closed, rel=1e-10)
        assert n_phi > 0 and n_phi % 25 == 0
    x = np.abs(dh)
    obj = lambda s: (1 + w @ K.PHI1.phi(np.exp(s) * x)) / np.exp(s)  # noqa: E731
    brute = minimize_scalar(obj, bounds=(-10, 10), method="bounded", options={"xatol": 1e-12}).fun
    assert K.gst(dh, w, K.PHI1)[0] == pytest.approx(brute, rel=1e-8)
    grid = K.gst_objective(np.logspace(-3, 3, 400), dh, w, K.PHI1)
    assert grid.min() >= K.gst(dh, w, K.PHI1)[0] - 1e-12
    assert grid.min() == pytest.approx(brute, rel=1e-3)
    with pytest.raises(ValueError):
        K.gst_objective([0.0], dh, w, K.PHI1)


def test_ost_linear_balanced_is_tree_w1_from_pot():
    rng, G, T = _setup(30, 3, radius=0.0)  # radius 0: the graph is a tree
    assert nx.is_tree(G)
    D = _tree_metric(G, T)
    M = K.random_unbalanced_measures(30, 2, rng)
    mu, nu = M[0] / M[0].sum(), M[1] / M[1].sum()
    val, _ = K.ost(mu, nu, T, K.PHI0)
    assert val == pytest.approx(ot.emd2(mu, nu, D), abs=1e-9)


def test_ost_reductions_gst_and_sobolev_p():
    rng, G, T = _setup(30, 4)
    M = K.random_unbalanced_measures(30, 2, rng)
    mu, nu = M[0] / M[0].sum(), M[1] / M[1].sum()
    dh = K.edge_subtree_mass(T, mu) - K.edge_subtree_mass(T, nu)
    assert K.ost(mu, nu, T, K.PHI1)[0] == pytest.approx(K.gst(dh, T.w, K.PHI1)[0], rel=1e-12)  # Prop. 5.2
    p = 3.0
    phi_p = K.power_nfunction(p, (p - 1) ** (p - 1) / p**p)
    assert K.ost(mu, nu, T, phi_p)[0] == pytest.approx(K.sobolev_transport_p(dh, T.w, p), rel=1e-9)  # Prop. 5.3


def test_ost_mass_term_and_divergence_properties():
    rng, G, T = _setup(30, 5)
    mu, nu, sg = K.random_unbalanced_measures(30, 3, rng)
    assert K.ost(mu, mu, T, K.PHI1)[0] == 0.0
    # linear closed form, Prop. 5.5, Theta = w1(z0) + b*lam/2 - alpha = 1.5
    dh = K.edge_subtree_mass(T, mu) - K.edge_subtree_mass(T, nu)
    closed = T.w @ np.abs(dh) + 1.5 * abs(mu.sum() - nu.sum())
    assert K.ost(mu, nu, T, K.PHI0)[0] == pytest.approx(closed, rel=1e-12)
    for phi in (K.PHI1, K.PHI2):
        a, b = K.ost(mu, nu, T, phi)[0], K.ost(nu, mu, T, phi)[0]
        assert a == b and a > 0  # w1(z0) = w2(z0): symmetric, bit-identical by construction (Prop. 5.1)
        assert K.ost(mu + sg, nu + sg, T, phi)[0] == pytest.approx(a, rel=1e-10)  # Prop. 5.1(i)
        assert a <= K.ost(mu, sg, T, phi)[0] + K.ost(sg, nu, T, phi)[0] + 1e-12  # triangle


def test_orlicz_ept_linear_is_ept_and_bounded_by_ost():
    rng, G, T = _setup(20, 6)
    D = _tree_metric(G, T)
    w = T.depth + 1
    mu, nu = K.random_unbalanced_measures(20, 2, rng)
    C = K.ept_cost_matrix(D, w, w)
    tot = mu.sum() + nu.sum()
    kt = tot * (ot.emd2(np.append(mu, nu.sum()) / tot, np.append(nu, mu.sum()) / tot, C) - 1.0)  # eq. 7
    oe, counts = K.orlicz_ept(mu, nu, D, w, w, K.PHI0, rtol=1e-10)
    assert oe == pytest.approx(kt, abs=1e-8)  # Prop. 5.6
    assert counts["lp"] > 1 and counts["cost_entries"] == counts["lp"] * 21 * 21
    assert len(counts["t"]) == counts["lp"] - 1
    assert K.ost(mu, nu, T, K.PHI0)[0] >= oe + 0.5 * tot - 1e-9  # Prop. 5.7


def test_orlicz_ept_A_monotone_and_bracket():
    rng, G, T = _setup(15, 8)
    D = _tree_metric(G, T)
    w = T.depth + 1
    mu, nu = K.random_unbalanced_measures(15, 2, rng)
    for phi in (K.PHI0, K.PHI1, K.PHI2):
        _, (lo, hi) = K.orlicz_ept_A(mu, nu, D, w, w, phi, [1.0])
        ts = np.linspace(lo, hi, 7)
        A, _ = K.orlicz_ept_A(mu, nu, D, w, w, phi, ts)
        assert np.all(np.diff(A) <= 1e-12)  # Prop. 3.3
        assert A[0] >= 1 - 1e-12 and A[-1] <= 1 + 1e-12  # Prop. 3.5
        t_star = K.orlicz_ept(mu, nu, D, w, w, phi, rtol=1e-9)[1]["t_star"]
        assert lo - 1e-12 <= t_star <= hi + 1e-12
    with pytest.raises(ValueError):
        K.orlicz_ept_A(mu, nu, D, w, w, K.PHI1, [0.0])


def test_orlicz_ept_is_luxemburg_root():
    rng, G, T = _setup(15, 7)
    D = _tree_metric(G, T)
    w = T.depth + 1
    mu, nu = K.random_unbalanced_measures(15, 2, rng)
    oe, _ = K.orlicz_ept(mu, nu, D, w, w, K.PHI1, rtol=1e-9)
    tot = mu.sum() + nu.sum()
    t = oe / tot + 1.0
    a, c = np.append(mu, nu.sum()) / tot, np.append(nu, mu.sum()) / tot
    C = K.ept_cost_matrix(D, w, w)
    A = lambda s: ot.emd2(a, c, K.PHI1.phi(C / s))  # noqa: E731
    assert A(t * (1 + 1e-6)) <= 1.0 <= A(t * (1 - 1e-6))


def test_ost_asymmetric_when_root_weights_differ():
    rng, G, T = _setup(20, 9)
    mu, nu = K.random_unbalanced_measures(20, 2, rng)
    assert mu.sum() != nu.sum()
    a = K.ost(mu, nu, T, K.PHI1, w1_root=1.0, w2_root=2.0)[0]
    b = K.ost(nu, mu, T, K.PHI1, w1_root=1.0, w2_root=2.0)[0]
    assert abs(a - b) == pytest.approx(abs(mu.sum() - nu.sum()), rel=1e-9)  # Theta differs by w2 - w1 = 1


def test_ost_work_count():
    rng, G, T = _setup(30, 10)
    mu, nu = K.random_unbalanced_measures(30, 2, rng)
    dh = K.edge_subtree_mass(T, mu) - K.edge_subtree_mass(T, nu)
    m = int(np.count_nonzero((dh != 0) & (T.w > 0)))
    v0, w0 = K.ost(mu, nu, T, K.PHI0)
    assert w0 == {"phi": m, "elements": 2 * 30 + T.ST.nnz + m}
    v1, w1 = K.ost(mu, nu, T, K.PHI1)
    assert w1["phi"] == K.gst(dh, T.w, K.PHI1)[1] and w1["phi"] % m == 0
    assert w1["elements"] == 2 * 30 + T.ST.nnz + w1["phi"]


def test_emd_pivots_is_the_solvers_iteration_count():
    rng = np.random.default_rng(11)
    a, b = rng.random(12), rng.random(9)
    a, b = a / a.sum(), b / b.sum()
    M = rng.random((12, 9))
    p = K.emd_pivots(a, b, M)
    assert p > 1
    assert all(K.emd_pivots(a, b, M, guess=g) == p for g in (1, 3, p, 5 * p))  # the guess only speeds it up
    G, cost, *_, code = K.emd_c(a, b, M, p, 1)
    assert code == 1 and cost == pytest.approx(ot.emd2(a, b, M), rel=1e-12)
    assert K.emd_c(a, b, M, p - 1, 1)[-1] != 1
    with pytest.raises(ValueError):
        K.emd_pivots(a, b, M.T)
    with pytest.raises(ValueError):
        K.emd_pivots(a, b, M, guess=0)


def test_orlicz_ept_work_replays_the_lps():
    rng, G, T = _setup(20, 12)
    D = _tree_metric(G, T)
    w = T.depth + 1
    mu, nu = K.random_unbalanced_measures(20, 2, rng)
    _, counts = K.orlicz_ept(mu, nu, D, w, w, K.PHI1)
    work = K.orlicz_ept_work(mu, nu, D, w, w, K.PHI1, counts["t"])
    assert work["lp"] == counts["lp"]
    na, nc = int((mu > 0).sum()) + 1, int((nu > 0).sum()) + 1
    arcs, block = na * nc, max(int(np.sqrt(na * nc)), 10)
    assert (work["elements"] - work["lp"] * (21 * 21 + 2 * arcs)) == work["pivots"] * block
    tot = mu.sum() + nu.sum()
    a, c = np.append(mu, nu.sum()) / tot, np.append(nu, mu.sum()) / tot
    p1 = K.emd_pivots(a, c, K.ept_cost_matrix(D, w, w))
    assert work["first_lp_elements"] == 21 * 21 + 2 * arcs + p1 * block
    assert work["pivots"] >= work["lp"]


def test_nfunction_inverse_and_cost_matrix():
    assert K.PHI2.phi(np.array(K.PHI2.inverse_at_one())) == pytest.approx(1.0)
    assert K.PHI2.inverse_at_one() == pytest.approx(np.sqrt(np.log(2)))
    C = K.ept_cost_matrix(np.zeros((2, 3)), [1, 2], [0, 0, 5], b=2.0, lam=0.5)
    assert C.shape == (3, 4) and C[-1, -1] == 1.0 and C[1, -1] == 3.0 and C[-1, 2] == 6.0


def test_bad_inputs():
    rng, G, T = _setup(10, 8)
    with pytest.raises(ValueError):
        K.root_path_tree(G, "nope")
    H = nx.Graph([(0, 1), (2, 3)])
    with pytest.raises(ValueError):
        K.root_path_tree(H, 0)
    with pytest.raises(ValueError):
        K.edge_subtree_mass(T, np.ones(9))
    with pytest.raises(ValueError):
        K.edge_subtree_mass(T, -np.ones(10))
    with pytest.raises(ValueError):
        K.gst(np.ones(3), np.ones(4), K.PHI1)
    with pytest.raises(ValueError):
        K.ost(np.ones(10), np.ones(10), T, K.PHI1, alpha=5.0)
    with pytest.raises(ValueError):
        K.power_nfunction(1.0)
    with pytest.raises(ValueError):
        K.ept_cost_matrix(np.ones((2, 2)), [1, 1, 1], [1, 1])
    with pytest.raises(ValueError):
        K.orlicz_ept(np.zeros(10), np.ones(10), np.ones((10, 10)), np.ones(10), np.ones(10), K.PHI1)
    with pytest.raises(ValueError):
        K.random_unbalanced_measures(5, 1, rng, support=0.0)
    assert K.gst(np.zeros(4), np.ones(4), K.PHI1) == (0.0, 0)


# --- sinkhorn and the entropic Orlicz-EPT (the authors' choice of solver) -------------------------------------

def test_sinkhorn_log_plan_matches_pot():
    rng = np.random.default_rng(13)
    a, b = rng.random(9), rng.random(7)
    a[2] = 0.0  # a point with no mass
    a, b = a / a.sum(), b / b.sum()
    M = rng.random((9, 7)) * 3
    for thr, cap in ((1e-9, 10**4), (0.0, 57)):
        G, it = K.sinkhorn_log_plan(a, b, M, 0.1, max_iter=cap, stop_thr=thr)
        with np.errstate(divide="ignore"):  # POT takes log(0) for the empty point, as we do
            G2, log = ot.bregman.sinkhorn_log(a, b, M, 0.1, numItermax=cap, stopThr=thr, log=True, warn=False)
        assert it == log["niter"] + 1
        np.testing.assert_allclose(G, G2, atol=1e-14)
    assert it == 57 and not np.isnan(G).any() and np.all(G[2] == 0)
    with pytest.raises(ValueError):
        K.sinkhorn_log_plan(a, b, M.T, 0.1)
    with pytest.raises(ValueError):
        K.sinkhorn_log_plan(a, b, M, 0.0)


def test_sinkhorn_log_elements():
    assert K.sinkhorn_log_elements(100, 1) == 100 * (2 + 4 + 2 + 3)
    assert K.sinkhorn_log_elements(100, 11) == 100 * (2 + 44 + 4 + 3)  # checks at iterations 0 and 10
    assert K.sinkhorn_log_elements(10, 10**4) == 10 * (2 + 4 * 10**4 + 2 * 1000 + 3)
    with pytest.raises(ValueError):
        K.sinkhorn_log_elements(0, 5)


def test_orlicz_ept_entropic_search_and_counts():
    rng, G, T = _setup(15, 14)
    D = _tree_metric(G, T)
    w = T.depth + 1
    mu, nu = K.random_unbalanced_measures(15, 2, rng)
    v, c = K.orlicz_ept(mu, nu, D, w, w, K.PHI1, eps=0.1)
    v2, c2 = K.orlicz_ept_entropic(mu, nu, D, w, w, K.PHI1, eps=0.1)  # the option calls it
    assert v2 == v and c2["t_star"] == c["t_star"]
    tot = mu.sum() + nu.sum()
    assert v == pytest.approx(tot * (c["t_star"] - 1.0), rel=1e-12)
    assert c["lp"] == 3 + len(c["t"]) == len(c["sinkhorn_iters"])
    ts = np.array(c["t"])
    assert np.all(np.abs(np.diff(ts)) > 0) and abs(ts[-1] - ts[-2]) < 2e-6  # halving steps down to the tolerance
    keep = int(((np.append(mu, 1) > 0) | (np.append(nu, 1) > 0)).sum())  # the union of the supports
    assert c["cost_entries"] == c["lp"] * keep**2
    assert c["elements"] == sum(K.sinkhorn_log_elements(keep**2, i) for i in c["sinkhorn_iters"])
    # the entropic plan costs more than the exact one, so its root lies above the exact root
    assert c["t_star"] >= K.orlicz_ept(mu, nu, D, w, w, K.PHI1, rtol=1e-10)[1]["t_star"] - 1e-6
    with pytest.raises(ValueError):
        K.orlicz_ept(mu, nu, D, w, w, K.PHI1, eps=-0.1)
    with pytest.raises(ValueError):
        K.orlicz_ept_entropic(mu, nu, D, w, w, K.PHI1, eps=0.0)


def test_nfunction_inverse():
    for phi in (K.PHI1, K.PHI2):
        for y in (0.3, 1.0, 2.5):
            assert phi.phi(np.array(phi.inverse(y))) == pytest.approx(y, rel=1e-12)
    assert K.PHI0.inverse(2.0) == 2.0 and K.PHI1.inverse(0.0) == 0.0
    with pytest.raises(ValueError):
        K.PHI1.inverse(-1.0)


# --- golden tests: the authors' MATLAB code run under Octave (tests/papers/golden/orlicz-sobolev-transport.json) ---

GOLDEN = json.loads((Path(__file__).parent / "golden" / "orlicz-sobolev-transport.json").read_text())
CASES = {c["name"]: c for c in GOLDEN["cases"]}


def _graph(edges, n):
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_weighted_edges_from([tuple(e) for e in edges])
    return G


def _golden_gst(name, phi):
    case = CASES[name]
    x, w = np.array(CASES["gst_phi1"]["input"]["x"]), np.array(CASES["gst_phi1"]["input"]["w"])
    ours = [K.gst(xi, wi, phi)[0] for xi, wi in zip(x, w)]
    np.testing.assert_allclose(ours, case["output"], rtol=case["tol"]["rel"], atol=0)


def test_golden_gst_phi1():
    _golden_gst("gst_phi1", K.PHI1)


def test_golden_gst_phi2():
    _golden_gst("gst_phi2", K.PHI2)


def _golden_ust(name, phi, ept=False):
    case = CASES[name]
    src = CASES[name.replace("ept_tree_phi0", "ust_p1_tree")]["input"]
    G = _graph(src["edges"], 24)
    T = K.root_path_tree(G, case["input"]["root"])
    idx = [T.nodes.index(v) for v in range(24)]
    meas = np.zeros((6, 24))
    meas[:, idx] = np.array(src["measures"])
    if ept:
        D, w = _tree_metric(G, T), T.depth + 1
    ours = np.zeros((6, 6))
    for i in range(6):
        for j in range(6):
            if ept:
                ours[i, j] = 0.0 if i == j else K.orlicz_ept(meas[i], meas[j], D, w, w, K.PHI0, rtol=1e-12)[0]
            else:
                ours[i, j] = K.ost(meas[i], meas[j], T, phi)[0]
    official = np.array(case["output"])
    if ept:
        official = official * (1 - np.eye(6))  # mu = nu is not a transport problem
    np.testing.assert_allclose(ours, official, atol=case["tol"]["abs"], rtol=0)


def test_golden_ust_p1_graph():
    _golden_ust("ust_p1_graph", K.PHI0)


def test_golden_ust_p2_graph():
    _golden_ust("ust_p2_graph", K.power_nfunction(2.0, 0.25))


def test_golden_ust_p1_tree():
    _golden_ust("ust_p1_tree", K.PHI0)


def test_golden_ust_p2_tree():
    _golden_ust("ust_p2_tree", K.power_nfunction(2.0, 0.25))


def test_golden_ept_tree_phi0():
    assert CASES["ept_tree_phi0"]["input"]["root"] == CASES["ust_p1_tree"]["input"]["root"]
    _golden_ust("ept_tree_phi0", None, ept=True)


def _ept_input():
    e = CASES["orlicz_ept_entropic_phi1"]["input"]
    G = _graph(e["edges"], 12)
    T = K.root_path_tree(G, 0)
    assert T.nodes == e["nodes"]
    D, w = _tree_metric(G, T), T.depth + 1
    mu, nu = np.array(e["mu"]), np.array(e["nu"])
    a, c, C, _ = K._balanced_ept_problem(mu, nu, D, w, w, 1.0, 1.0)  # the official solver got exactly these
    np.testing.assert_array_equal(C, e["C"])
    np.testing.assert_array_equal(a, e["muh"])
    np.testing.assert_array_equal(c, e["nuh"])
    return mu, nu, D, w, a, c, C


def _golden_entropic(name, phi):
    case = CASES[name]
    mu, nu, D, w, *_ = _ept_input()
    _, counts = K.orlicz_ept(mu, nu, D, w, w, phi, eps=0.1, tol=1e-6)
    assert abs(counts["t_star"] - case["output"]["t_star"]) <= case["tol"]["abs"]
    assert counts["lp"] == case["output"]["sinkhorn_solves"]


def test_golden_orlicz_ept_entropic_phi1():
    _golden_entropic("orlicz_ept_entropic_phi1", K.PHI1)


def test_golden_orlicz_ept_entropic_phi2():
    _golden_entropic("orlicz_ept_entropic_phi2", K.PHI2)


def _golden_exact_vs_entropic(name, phi):
    official = CASES[name]["output"]["t_star_official_eps0.1"]
    mu, nu, D, w, a, c, C = _ept_input()
    t0 = K.orlicz_ept(mu, nu, D, w, w, phi, rtol=1e-12)[1]["t_star"]
    shannon = lambda p: float(-(p[p > 0] * np.log(p[p > 0])).sum())  # noqa: E731
    target = 1.0 - 0.1 * min(shannon(a), shannon(c))
    lo, hi = t0, 10 * t0  # t_b: A(t_b) = target, by bisection over exact OT
    while hi - lo > 1e-10:
        t = 0.5 * (lo + hi)
        lo, hi = (lo, t) if ot.emd2(a, c, phi.phi(C / t)) <= target else (t, hi)
    assert t0 - 1e-6 <= official <= hi + 1e-6
    assert official > t0  # the gap the solver makes: the entropic root is above the exact one


def test_golden_orlicz_ept_exact_vs_entropic_phi1():
    _golden_exact_vs_entropic("orlicz_ept_exact_vs_entropic_phi1", K.PHI1)


def test_golden_orlicz_ept_exact_vs_entropic_phi2():
    _golden_exact_vs_entropic("orlicz_ept_exact_vs_entropic_phi2", K.PHI2)
