"""Unit tests of :mod:`repro.papers.pmi_datafree_cl`, the kernels of ``notebooks/pmi-datafree-cl.py``."""

import inspect

import numpy as np
import pytest
import scipy.linalg
import torch

from repro.continual import class_incremental_tasks
from repro.papers import pmi_datafree_cl as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/pmi_datafree_cl.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def stack(d=5, L=3, seed=0):
    rng = np.random.default_rng(seed)
    Ws = [rng.standard_normal((d, d)) + 2 * np.eye(d) for _ in range(L)]
    bs = [rng.standard_normal(d) for _ in range(L)]
    return Ws, bs, rng


def forward(Ws, bs, x):
    h = np.atleast_2d(x)
    for W, b in zip(Ws, bs):
        h = h @ W.T + b
    return h.reshape(np.shape(x))


# ----------------------------------------------------------------------------- invert_per_layer
def test_invert_per_layer_round_trip_single_and_batched():
    Ws, bs, rng = stack()
    x = rng.standard_normal(5)
    np.testing.assert_allclose(K.invert_per_layer(Ws, bs, forward(Ws, bs, x)), x, rtol=1e-10, atol=1e-10)
    X = rng.standard_normal((7, 5))
    Xr = K.invert_per_layer(Ws, bs, forward(Ws, bs, X))
    assert Xr.shape == (7, 5)
    np.testing.assert_allclose(Xr, X, rtol=1e-10, atol=1e-10)
    # a batch row by row equals the batch at once
    for i in range(7):
        np.testing.assert_allclose(K.invert_per_layer(Ws, bs, forward(Ws, bs, X[i])), Xr[i], atol=1e-12)


def test_invert_per_layer_matches_one_solve_of_the_composed_affine_map():
    Ws, bs, rng = stack(d=6, L=4, seed=1)
    A, c = np.eye(6), np.zeros(6)
    for W, b in zip(Ws, bs):
        A, c = W @ A, W @ c + b
    y = rng.standard_normal((3, 6))
    expected = np.linalg.solve(A, (y - c).T).T
    np.testing.assert_allclose(K.invert_per_layer(Ws, bs, y), expected, rtol=1e-9, atol=1e-9)
    # one layer: scipy's LU solve
    np.testing.assert_allclose(K.invert_per_layer(Ws[:1], bs[:1], y[0]), scipy.linalg.solve(Ws[0], y[0] - bs[0]))


def test_invert_per_layer_rejects_bad_input():
    Ws, bs, _ = stack()
    with pytest.raises(ValueError, match="square"):
        K.invert_per_layer([np.ones((5, 4))], [np.ones(5)], np.ones(5))
    with pytest.raises(ValueError, match="singular"):
        K.invert_per_layer([np.ones((5, 5))], [np.zeros(5)], np.ones(5))
    with pytest.raises(ValueError, match="as many"):
        K.invert_per_layer(Ws, bs[:2], np.ones(5))
    with pytest.raises(ValueError, match="as many"):
        K.invert_per_layer([], [], np.ones(5))
    with pytest.raises(ValueError, match="biases"):
        K.invert_per_layer(Ws, [np.ones(4)] * 3, np.ones(5))
    with pytest.raises(ValueError, match="must be 5 x 5"):
        K.invert_per_layer([Ws[0], np.eye(4)], bs[:2], np.ones(5))
    with pytest.raises(ValueError, match="y must have shape"):
        K.invert_per_layer(Ws, bs, np.ones(4))
    with pytest.raises(ValueError, match="y must have shape"):
        K.invert_per_layer(Ws, bs, np.ones((2, 2, 5)))
    with pytest.raises(ValueError, match="non-finite"):
        K.invert_per_layer(Ws, bs, np.full(5, np.nan))


# ----------------------------------------------------------------------------- one ReLU / linear layer
def test_invert_layer_is_exact_for_an_invertible_linear_part_and_agrees_with_invert_per_layer():
    g = torch.Generator().manual_seed(0)
    W = torch.randn(6, 6, generator=g, dtype=torch.float64) + 3 * torch.eye(6, dtype=torch.float64)
    b = torch.randn(6, generator=g, dtype=torch.float64) + 20.0
    h_true = torch.rand(4, 6, generator=g, dtype=torch.float64)
    t = h_true @ W.T + b  # positive: every output active, the ReLU is the identity here
    assert bool((t > 0).all())
    h = K.invert_layer(W, b, t, steps=0, reg=0.0, lower=-1e9, upper=1e9)
    np.testing.assert_allclose(h.numpy(), h_true.numpy(), atol=1e-10)
    np.testing.assert_allclose(h.numpy(), K.invert_per_layer([W.numpy()], [b.numpy()], t.numpy()), atol=1e-10)


def test_invert_layer_recovers_a_relu_target_in_its_range():
    g = torch.Generator().manual_seed(1)
    W = torch.randn(8, 12, generator=g, dtype=torch.float64)
    b = torch.randn(8, generator=g, dtype=torch.float64)
    h_true = torch.rand(5, 12, generator=g, dtype=torch.float64)
    t = torch.relu(h_true @ W.T + b)
    h = K.invert_layer(W, b, t, steps=400, lr=0.02, reg=1e-6, lower=0.0, upper=float("inf"))
    resid = (torch.relu(h @ W.T + b) - t).abs().max().item()
    assert resid < 1e-3 and bool((h >= 0).all())


def test_invert_layer_rejects_bad_input():
    W, b = torch.ones(3, 4), torch.zeros(3)
    with pytest.raises(ValueError, match="shapes"):
        K.invert_layer(W, torch.zeros(4), torch.ones(2, 3))
    with pytest.raises(ValueError, match="shapes"):
        K.invert_layer(W, b, torch.ones(2, 4))
    with pytest.raises(ValueError, match="underdetermined"):
        K.invert_layer(W, b, torch.ones(2, 3), reg=0.0)
    with pytest.raises(ValueError, match="lower < upper"):
        K.invert_layer(W, b, torch.ones(2, 3), lower=1.0, upper=0.0)


# ----------------------------------------------------------------------------- feature model and distances
def test_fit_class_gaussians_recovers_mean_and_covariance():
    rng = np.random.default_rng(0)
    C = np.array([[2.0, 0.5, 0.0], [0.5, 1.0, 0.3], [0.0, 0.3, 0.5]])
    mu = np.array([1.0, -2.0, 0.5])
    X = rng.multivariate_normal(mu, C, size=40000)
    X2 = rng.multivariate_normal(-mu, 2 * C, size=40000)
    st = K.fit_class_gaussians(np.vstack([X, X2]), np.r_[np.zeros(40000), np.ones(40000)], shrink=0.0)
    np.testing.assert_allclose(st[0][0], mu, atol=0.03)
    np.testing.assert_allclose(st[0][1], C, atol=0.05)
    np.testing.assert_allclose(st[1][1], 2 * C, atol=0.1)
    # shrink adds to the diagonal exactly
    st2 = K.fit_class_gaussians(X[:10], np.zeros(10), shrink=0.1)
    np.testing.assert_allclose(st2[0][1], np.cov(X[:10], rowvar=False, bias=True) + 0.1 * np.eye(3), atol=1e-12)
    with pytest.raises(ValueError, match="at least 2"):
        K.fit_class_gaussians(X[:3], np.array([0, 0, 1]))
    with pytest.raises(ValueError, match="feats must be"):
        K.fit_class_gaussians(X[:3], np.zeros(4))


def test_sample_class_features_matches_the_gaussians_and_clips_at_zero():
    rng = np.random.default_rng(1)
    stats = {3: (np.array([1.0, 2.0]), np.array([[1.0, 0.6], [0.6, 1.0]])), 5: (np.array([-5.0, 0.0]), np.eye(2))}
    f, lab = K.sample_class_features(stats, [3], 50000, rng, nonnegative=False)
    np.testing.assert_allclose(f.mean(0), [1, 2], atol=0.03)
    np.testing.assert_allclose(np.cov(f, rowvar=False), stats[3][1], atol=0.03)
    assert set(lab) == {3}
    f, lab = K.sample_class_features(stats, [3, 5], 10, rng)
    assert f.shape == (20, 2) and (f >= 0).all() and list(lab) == [3] * 10 + [5] * 10
    with pytest.raises(ValueError, match="no feature statistics"):
        K.sample_class_features(stats, [7], 2, rng)


def test_frechet_is_zero_for_identical_sets_and_matches_the_gaussian_closed_form():
    rng = np.random.default_rng(2)
    A = rng.standard_normal((30, 4))
    assert K.feature_frechet(A, A) < 1e-9
    B = rng.standard_normal((50, 4)) @ rng.standard_normal((4, 4)) + 1.0
    ma, mb = A.mean(0), B.mean(0)
    Sa, Sb = np.cov(A, rowvar=False, bias=True), np.cov(B, rowvar=False, bias=True)
    closed = np.sum((ma - mb) ** 2) + np.trace(Sa + Sb - 2 * np.real(scipy.linalg.sqrtm(Sa @ Sb)))
    assert K.feature_frechet(A, B) == pytest.approx(closed, rel=1e-8)
    # 1-d closed form: (m1 - m2)^2 + (s1 - s2)^2
    a, b = rng.standard_normal((20, 1)), 3 * rng.standard_normal((25, 1)) + 2
    assert K.feature_frechet(a, b) == pytest.approx((a.mean() - b.mean()) ** 2 + (a.std() - b.std()) ** 2, rel=1e-9)
    # singular covariances (fewer samples than dimensions) stay finite and non-negative
    assert K.feature_frechet(rng.standard_normal((3, 6)), rng.standard_normal((4, 6))) >= 0
    assert K.classwise_frechet(A, np.zeros(30), A, np.zeros(30)) < 1e-9
    with pytest.raises(ValueError, match="equal d"):
        K.feature_frechet(A, B[:, :3])


# ----------------------------------------------------------------------------- inversion of a network
@pytest.fixture(scope="module")
def small_model():
    m = K.MLP((6, 8, 5, 3), seed=0)
    g = torch.Generator().manual_seed(0)
    X = torch.rand(60, 6, generator=g)
    y = torch.as_tensor(np.arange(60) % 3)
    K.train_task(m, X, y, [0, 1, 2], 100, 1e-2)
    return m


def test_full_inversion_lowers_the_loss_keeps_pixels_in_the_box_and_samples_are_independent(small_model):
    m = small_model
    g = torch.Generator().manual_seed(3)
    x0 = torch.rand(6, 6, generator=g)
    lab = torch.as_tensor([0, 0, 1, 1, 2, 2])
    f = m.features(torch.rand(6, 6, generator=g)).detach()
    x, H = K.full_inversion(m, x0, lab, f, 60, record=True)
    assert H.shape == (61, 6) and np.all(H[-1] < H[0]) and bool(((x >= 0) & (x <= 1)).all())
    x1, _ = K.full_inversion(m, x0[:2], lab[:2], f[:2], 60)
    np.testing.assert_allclose(x1.numpy(), x[:2].numpy(), atol=1e-6)  # batching does not couple samples
    assert all(p.requires_grad for p in m.parameters())
    loss = K.inversion_loss(m, x0, lab, None)
    assert loss.shape == (6,)
    with pytest.raises(ValueError, match="x0 must be"):
        K.full_inversion(m, x0, lab[:3], f, 1)


def test_per_layer_inversion_starts_closer_to_the_target_features(small_model):
    m = small_model
    g = torch.Generator().manual_seed(4)
    f = m.features(torch.rand(10, 6, generator=g)).detach()
    x0 = K.per_layer_inversion(m, f, steps=100)
    xr = torch.rand(10, 6, generator=g)
    err = lambda x: ((m.features(x) - f) ** 2).sum(1).detach()  # noqa: E731
    assert x0.shape == (10, 6) and float(err(x0).mean()) < float(err(xr).mean())
    # Adam steps (3 x forward) plus each layer's ridge start: Gram o*i*i, right-hand side o*i, LU ceil(i^3 / 3)
    ridge = (8 * 6 * 6 + 8 * 6 + 72) + (5 * 8 * 8 + 5 * 8 + 171)
    assert K.ridge_start_macs(6, 8) == 8 * 6 * 6 + 8 * 6 + 72
    assert K.per_layer_macs(m, 10) == 3 * 10 * (6 * 8 + 8 * 5) + ridge
    assert K.per_layer_macs(m, 0) == ridge
    assert K.full_iteration_macs(m) == 3 * (6 * 8 + 8 * 5 + 5 * 3)
    with pytest.raises(ValueError):
        K.ridge_start_macs(0, 3)


def test_linear_inversion_is_exact_for_a_linear_body_and_counts_its_cost():
    # with square invertible layers, no ReLU ever cut (all pre-activations positive) and reg -> 0, the
    # linearised inversion is the exact inverse (invert_per_layer of the same stack)
    m = K.MLP((4, 4, 4, 2), seed=0)
    rng = np.random.default_rng(0)
    with torch.no_grad():
        for lin in m.body:
            lin.weight.copy_(torch.as_tensor(np.eye(4) + 0.1 * rng.standard_normal((4, 4)), dtype=torch.float32))
            lin.bias.fill_(1.0)
    x = torch.as_tensor(rng.uniform(0.2, 0.8, (6, 4)), dtype=torch.float32)
    f = m.features(x).detach()
    xr = K.linear_inversion(m, f, reg=1e-9)
    np.testing.assert_allclose(xr.numpy(), x.numpy(), atol=1e-4)
    Ws = [lin.weight.detach().double().numpy() for lin in m.body]
    bs = [lin.bias.detach().double().numpy() for lin in m.body]
    np.testing.assert_allclose(K.invert_per_layer(Ws, bs, f.double().numpy()), x.numpy(), atol=1e-4)
    assert float(xr.min()) >= 0 and float(xr.max()) <= 1
    # cost: composed matrix 4*4*4 + 4*4 per layer, Gram 4*4*4, LU ceil(64/3) = 22, shared over n; per sample 2*16
    shared = 2 * (4 * 4 * 4 + 4 * 4) + 4 * 4 * 4 + 22
    assert K.linear_inversion_macs(m, 2) == pytest.approx(shared / 2 + 32)
    with pytest.raises(ValueError, match="target_feat"):
        K.linear_inversion(m, torch.zeros(3, 5))


def test_iterations_to_reach_and_derangement():
    H = np.array([[5.0, 5.0, 5.0], [3.0, 4.0, 5.0], [1.0, 2.0, 5.0]])
    np.testing.assert_array_equal(K.iterations_to_reach(H, 2.0), [2, 2, np.inf])
    np.testing.assert_array_equal(K.iterations_to_reach(H, np.array([3.0, 5.0, 5.0])), [1, 0, 0])
    lab = np.repeat(np.arange(4), 3)
    p = K.derange_by_class(lab)
    assert sorted(p) == list(range(12)) and np.all(lab[p] != lab)
    with pytest.raises(ValueError, match="equal counts"):
        K.derange_by_class(np.array([0, 0, 1]))


def test_kd_is_zero_for_identical_logits_and_positive_otherwise():
    a = torch.randn(4, 5, generator=torch.Generator().manual_seed(0))
    assert float(K.kd_loss(a, a, [0, 1, 2])) == pytest.approx(0.0, abs=1e-6)
    assert float(K.kd_loss(a, a.flip(1), [0, 1, 2])) > 0


def test_run_continual_gives_a_lower_triangular_accuracy_matrix_and_rejects_bad_methods():
    rng = np.random.default_rng(0)
    data = K.load_digit_data(rng)
    assert len(data["X_train"]) + len(data["X_test"]) == 1797 and data["X_train"].max() <= 1
    tasks = class_incremental_tasks(np.arange(4), 2)
    keep = lambda X, y: (X[y < 4], y[y < 4])  # noqa: E731
    small = dict(zip(("X_train", "y_train"), keep(data["X_train"], data["y_train"])))
    small.update(zip(("X_test", "y_test"), keep(data["X_test"], data["y_test"])))
    A = K.run_continual("inv-pmi", small, tasks, (64, 16, 8, 10), 30, 1e-2, 0, n_syn=4, pmi_steps=5, inv_steps=5)
    assert A.shape == (2, 2) and np.isnan(A[0, 1]) and np.all((A[np.tril_indices(2)] >= 0) & (A[np.tril_indices(2)] <= 1))
    B = K.run_continual("inv-pmi", small, tasks, (64, 16, 8, 10), 30, 1e-2, 0, n_syn=4, pmi_steps=5, inv_steps=5)
    np.testing.assert_array_equal(A, B)  # same seed, same run
    with pytest.raises(ValueError, match="method must be"):
        K.run_continual("replay", small, tasks, (64, 16, 8, 10), 1, 1e-2, 0)
    with pytest.raises(ValueError, match="matched_steps"):
        K.run_continual("inv-random-matched", small, tasks, (64, 16, 8, 10), 1, 1e-2, 0)
    # every method runs; the matched random start with inv_steps steps is the random start itself
    for meth in K.METHODS:
        A = K.run_continual(meth, small, tasks, (64, 16, 8, 10), 5, 1e-2, 0, n_syn=4, pmi_steps=2, inv_steps=2,
                            n_exemplars=3, matched_steps=2)
        assert A.shape == (2, 2)
    np.testing.assert_array_equal(
        K.run_continual("inv-random-matched", small, tasks, (64, 16, 8, 10), 5, 1e-2, 0, n_syn=4, inv_steps=2,
                        matched_steps=2),
        K.run_continual("inv-random", small, tasks, (64, 16, 8, 10), 5, 1e-2, 0, n_syn=4, inv_steps=2))


def test_feature_replay_adds_head_only_cross_entropy():
    m = K.MLP((6, 8, 5, 3), seed=1)
    g = torch.Generator().manual_seed(0)
    X, y = torch.rand(10, 6, generator=g), torch.randint(0, 3, (10,), generator=g)
    Fr, yr = torch.rand(4, 5, generator=g), torch.tensor([0, 1, 2, 0])
    m2 = K.MLP((6, 8, 5, 3), seed=1)
    h = K.train_task(m, X, y, [0, 1, 2], 1, 1e-2, replay_feats=Fr, replay_feat_y=yr)
    logits = torch.cat([m2(X), m2.head(Fr)])
    expected = torch.nn.functional.cross_entropy(logits, torch.cat([y, yr]))
    assert h[0] == pytest.approx(expected.item(), rel=1e-6)
    with pytest.raises(ValueError, match="replay_feat_y"):
        K.train_task(m, X, y, [0, 1, 2], 1, 1e-2, replay_feats=Fr)
