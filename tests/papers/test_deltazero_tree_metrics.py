"""Unit tests of the DeltaZero kernels (four-point delta, smooth delta, Gromov tree, NJ, fit)."""

import math

import networkx as nx
import numpy as np
import pytest
import torch
from scipy.sparse.csgraph import shortest_path

from repro.papers import deltazero_tree_metrics as K


def _random_metric(n, seed):
    rng = np.random.default_rng(seed)
    A = rng.random((n, n))
    A = A + A.T
    np.fill_diagonal(A, 0)
    return K.floyd_warshall(A)


def _random_tree_metric(n, seed):
    T = nx.random_labeled_tree(n, seed=seed)
    rng = np.random.default_rng(seed)
    for u, v in T.edges:
        T.edges[u, v]["weight"] = float(rng.uniform(0.1, 2.0))
    return K.tree_metric(T, list(range(n)))


@pytest.mark.parametrize("n,seed", [(4, 0), (5, 1), (7, 2), (9, 3)])
def test_four_point_delta_matches_bruteforce(n, seed):
    D = _random_metric(n, seed)
    assert K.four_point_delta(D) == pytest.approx(K.four_point_delta_bruteforce(D), abs=1e-12)
    assert K.four_point_delta(D) > 0


def test_four_point_delta_blocked_equals_unblocked():
    D = _random_metric(11, 4)
    assert K.four_point_delta(D, block_elems=1) == pytest.approx(K.four_point_delta(D), abs=1e-14)


def test_four_point_delta_known_cycle():
    # 4-cycle with unit edges: sums 2, 2, 4 -> delta = 1
    D = K.graph_metric(nx.cycle_graph(4))
    assert K.four_point_delta(D) == pytest.approx(1.0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_four_point_delta_zero_on_tree_metric(seed):
    assert K.four_point_delta(_random_tree_metric(15, seed)) < 1e-12


@pytest.mark.parametrize("c", [0.5, 3.0, 17.0])
def test_four_point_delta_scale_equivariant(c):
    D = _random_metric(8, 5)
    assert K.four_point_delta(c * D) == pytest.approx(c * K.four_point_delta(D), rel=1e-12)


def test_four_point_delta_permutation_invariant():
    D = _random_metric(8, 6)
    p = np.random.default_rng(0).permutation(8)
    assert K.four_point_delta(D[np.ix_(p, p)]) == pytest.approx(K.four_point_delta(D), abs=1e-14)


@pytest.mark.parametrize("bad", [
    np.ones(4), np.zeros((3, 3)), np.zeros((4, 5)), -np.ones((4, 4)) + np.eye(4),
    np.triu(np.ones((4, 4)), 1), np.full((4, 4), np.nan), np.ones((4, 4)),
])
def test_four_point_delta_bad_inputs(bad):
    with pytest.raises(ValueError):
        K.four_point_delta(bad)


def test_floyd_warshall_matches_scipy_and_idempotent():
    rng = np.random.default_rng(0)
    W = rng.random((10, 10)) + 0.1
    W = W + W.T
    D = K.floyd_warshall(W)
    ref = shortest_path(W, method="FW", directed=False)
    assert np.allclose(D, ref)
    assert np.allclose(K.floyd_warshall(D), D)
    W0 = W.copy()
    W0[0, 1] = W0[1, 0] = 0.0  # a zero weight is an edge of length 0
    assert K.floyd_warshall(W0)[0, 1] == 0.0
    with pytest.raises(ValueError):
        K.floyd_warshall(-W)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gromov_tree_is_tree_metric_within_bound(seed):
    D = _random_metric(12, seed)
    d = K.four_point_delta(D)
    for root in (0, 5):
        T = K.gromov_tree(D, root)
        K.check_distance_matrix(T)
        assert K.four_point_delta(T) < 1e-9
        assert np.all(T <= D + 1e-12)
        assert np.allclose(T[root], D[root])
        assert K.distortion(D, T)["linf"] <= K.gromov_bound(d, 12) + 1e-12


def test_gromov_tree_exact_on_tree_metric():
    D = _random_tree_metric(12, 7)
    assert np.allclose(K.gromov_tree(D, 3), D, atol=1e-12)
    with pytest.raises(ValueError):
        K.gromov_tree(D, 12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_neighbor_joining_recovers_additive_tree(seed):
    # leaves of a tree whose internal nodes have degree 3: NJ is exact on such additive metrics
    rng = np.random.default_rng(seed)
    T = nx.full_rary_tree(2, 15)
    for u, v in T.edges:
        T.edges[u, v]["weight"] = float(rng.uniform(0.2, 1.5))
    leaves = [v for v in T.nodes if T.degree(v) == 1]
    D = K.tree_metric(T, leaves)
    assert np.allclose(K.neighbor_joining(D), D, atol=1e-10)


def test_neighbor_joining_output_is_tree_metric():
    D = _random_metric(10, 3)
    assert K.four_point_delta(K.neighbor_joining(D)) < 1e-9


def test_soft_max_bounds_and_limit():
    x = torch.tensor([0.3, 1.0, -2.0, 0.99], dtype=torch.float64)
    for beta in (1.0, 10.0, 100.0):
        s = float(K.soft_max(x, beta))
        assert 1.0 <= s <= 1.0 + math.log(4) / beta + 1e-12
        m = float(K.soft_max(x, -beta))
        assert -2.0 - math.log(4) / beta - 1e-12 <= m <= -2.0
    with pytest.raises(ValueError):
        K.soft_max(x, 0.0)


@pytest.mark.parametrize("seed", [0, 1])
def test_smooth_delta_brackets_exact_and_converges(seed):
    D = _random_metric(6, seed)
    d = K.four_point_delta(D)
    Dt = torch.tensor(D)
    errs = []
    for beta in (5.0, 50.0, 500.0):
        s = float(K.smooth_delta(Dt, beta))
        assert d - math.log(2) / beta - 1e-12 <= s <= d + math.log(6**4) / beta + 1e-12
        errs.append(abs(s - d))
    assert errs[-1] < errs[0] and errs[-1] < 0.02


def test_smooth_delta_closed_form_gradient_matches_autograd_and_finite_differences():
    D = torch.stack([torch.tensor(_random_metric(6, s)) for s in range(3)]).requires_grad_(True)
    w = torch.tensor([0.2, -1.0, 0.7], dtype=torch.float64)  # a weighted sum tests grad_out per batch entry
    (K.smooth_delta(D, 8.0) * w).sum().backward()
    Dr = D.detach().clone().requires_grad_(True)
    inner, _ = K._smooth_delta_inner(Dr, 8.0)
    ((torch.logsumexp(8.0 * inner.reshape(3, -1), dim=-1) / 8.0) * w).sum().backward()
    assert torch.allclose(D.grad, Dr.grad, rtol=1e-12, atol=1e-14)
    assert torch.autograd.gradcheck(lambda X: K.smooth_delta(X, 3.0), (D.detach()[:2].clone().requires_grad_(True),))


def test_smooth_delta_batched_shapes_and_grad():
    D = torch.tensor(_random_metric(10, 1), requires_grad=True)
    g = torch.Generator().manual_seed(0)
    s = K.smooth_delta_batched(D, 6, 4, 20.0, g)
    assert s.ndim == 0
    s.backward()
    assert torch.isfinite(D.grad).all() and D.grad.abs().sum() > 0
    # batched estimate with the full set equals the full smooth delta
    full = K.smooth_delta_batched(D.detach(), 10, 1, 20.0, g)
    assert float(full) == pytest.approx(float(K.smooth_delta(D.detach(), 20.0)))
    with pytest.raises(ValueError):
        K.smooth_delta_batched(D, 11, 4, 20.0, g)
    with pytest.raises(ValueError):
        K.smooth_delta(D, -1.0)


def test_deltazero_fit_lowers_delta_and_is_deterministic():
    rng = np.random.default_rng(0)
    _, Dn = K.noisy_tree_metric(12, 0.4, rng)
    h1 = K.deltazero_fit(Dn, epochs=40, batch_size=8, n_batches=8, seed=1)
    h2 = K.deltazero_fit(Dn, epochs=40, batch_size=8, n_batches=8, seed=1)
    K.check_distance_matrix(h1["D_opt"])
    assert np.allclose(K.floyd_warshall(h1["D_opt"]), h1["D_opt"])  # output is a metric
    assert h1["delta"][-1] < 0.5 * h1["delta"][0]
    assert np.array_equal(h1["D_opt"], h2["D_opt"])
    with pytest.raises(ValueError):
        K.deltazero_fit(Dn, epochs=0)


def test_distortion_and_inputs():
    D = _random_metric(5, 0)
    E = D.copy()
    E[0, 1] = E[1, 0] = D[0, 1] + 0.5
    out = K.distortion(D, E)
    assert out["linf"] == pytest.approx(0.5)
    assert out["l1"] == pytest.approx(0.5 / 10)
    with pytest.raises(ValueError):
        K.distortion(D, D[:4, :4])
    with pytest.raises(ValueError):
        K.noisy_tree_metric(3, 0.1, np.random.default_rng(0))
    with pytest.raises(ValueError):
        K.graph_metric(nx.empty_graph(4))


@pytest.mark.parametrize("seed", [0, 1])
def test_four_point_delta_mean_brackets_and_bruteforce(seed):
    from itertools import permutations

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(7, 3))
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    gaps = []
    for i, j, k, l in permutations(range(7), 4):
        s = sorted([D[i, j] + D[k, l], D[i, k] + D[j, l], D[i, l] + D[j, k]])
        gaps.append((s[2] - s[1]) / 2)
    assert K.four_point_delta_mean(D) == pytest.approx(np.mean(gaps), rel=1e-12)
    assert K.four_point_delta_mean(D, block_elems=10) == pytest.approx(np.mean(gaps), rel=1e-12)
    assert 0 <= K.four_point_delta_mean(D) < K.four_point_delta(D)
    T, _ = K.noisy_tree_metric(8, 0.0, np.random.default_rng(seed))
    assert K.four_point_delta_mean(T) == pytest.approx(0.0, abs=1e-9)


def test_random_perturbation_metric_is_a_seeded_metric_of_the_right_size():
    D, _ = K.noisy_tree_metric(12, 0.3, np.random.default_rng(0))
    M = K.random_perturbation_metric(D, 2.0, np.random.default_rng(5))
    assert np.allclose(M, M.T) and np.allclose(np.diag(M), 0) and (M >= 0).all()
    assert np.allclose(K.floyd_warshall(M), M)  # a metric: its own shortest-path closure
    assert np.array_equal(M, K.random_perturbation_metric(D, 2.0, np.random.default_rng(5)))
    assert 0 < np.linalg.norm(M - D)  # the metric has moved
    assert np.allclose(K.random_perturbation_metric(D, 0.0, np.random.default_rng(1)), K.floyd_warshall(D))
    with pytest.raises(ValueError):
        K.random_perturbation_metric(D, -1.0, np.random.default_rng(0))
