"""Unit tests of :mod:`repro.papers.conml_contrastive_meta`, the kernels of ``notebooks/conml-contrastive-meta.py``."""

import inspect
import itertools

import numpy as np
import pytest
import torch
from scipy.spatial.distance import cdist

from repro.papers import conml_contrastive_meta as K

torch.set_num_threads(1)


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/conml_contrastive_meta.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# ----------------------------------------------------------------------------- data
def test_sinusoid_tasks_follow_their_parameters_and_ranges():
    x, y, p = K.sample_sinusoid_tasks((3, 4), 7, np.random.default_rng(0))
    assert x.shape == y.shape == (3, 4, 7, 1) and p.shape == (3, 4, 2)
    A, ph = p[..., :1, None][..., 0, :], p[..., 1:, None][..., 0, :]
    torch.testing.assert_close(y, A.unsqueeze(-1) * torch.sin(x - ph.unsqueeze(-1)), rtol=1e-5, atol=1e-5)
    assert x.abs().max() <= 5 and (p[..., 0] >= 0.1).all() and (p[..., 0] <= 5).all()
    assert (p[..., 1] >= 0).all() and (p[..., 1] <= np.pi).all()


def test_class_episodes_draw_distinct_examples_of_the_right_class():
    X, y = K.digits_meta_split()
    assert X.shape == (1797, 64) and X.min() >= 0 and X.max() <= 1
    rng = np.random.default_rng(1)
    s, q, cls = K.sample_class_episodes(X, y, (6, 7, 8, 9), (2, 5), 4, 3, 2, rng)
    assert s.shape == (2, 5, 4, 3, 64) and q.shape == (2, 5, 4, 2, 64) and cls.shape == (2, 5, 4)
    lookup = {X[i].tobytes(): i for i in range(len(X))}
    for e in itertools.product(range(2), range(5)):
        assert sorted(cls[e].tolist()) == [6, 7, 8, 9]                  # 4-way on 4 classes: a permutation
        rows = torch.cat([s[e], q[e]], 1)                               # (W, k+q, d)
        idx = [[lookup[r.numpy().tobytes()] for r in rows[c]] for c in range(4)]
        for c in range(4):
            assert all(y[i] == cls[e][c] for i in idx[c])
        assert len({i for row in idx for i in row}) == 4 * 5            # no example drawn twice


def test_rotation_classes_rotate_and_relabel():
    X, y = K.digits_meta_split()
    Xr, yr = K.rotation_classes(X[:10], y[:10])
    assert Xr.shape == (40, 64) and list(yr[10:20]) == list(y[:10] + 10)
    np.testing.assert_array_equal(Xr[:10], X[:10])
    np.testing.assert_array_equal(Xr[20:30].reshape(-1, 8, 8), X[:10].reshape(-1, 8, 8)[:, ::-1, ::-1])
    with pytest.raises(ValueError, match="expected X"):
        K.rotation_classes(X[:, :10], y)


def test_subset_masks_have_the_right_size_and_are_uniform():
    m = K.subset_masks((4000,), 5, 2, np.random.default_rng(2))
    assert m.dtype == torch.bool and (m.sum(-1) == 2).all()
    np.testing.assert_allclose(m.float().mean(0).numpy(), 0.4, atol=0.03)  # each item in a subset w.p. 2/5


def test_bad_data_arguments_raise():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="n_points"):
        K.sample_sinusoid_tasks(3, 0, rng)
    with pytest.raises(ValueError, match="low < high"):
        K.sample_sinusoid_tasks(3, 4, rng, amplitude=(5.0, 0.1))
    with pytest.raises(ValueError, match="exceeds"):
        K.subset_masks(2, 3, 4, rng)
    X, y = K.digits_meta_split()
    with pytest.raises(ValueError, match="more than"):
        K.sample_class_episodes(X, y, (6, 7), 2, 3, 1, 1, rng)
    with pytest.raises(ValueError, match="overlap"):
        K.digits_meta_split((0, 1, 6), (6, 7))


# ----------------------------------------------------------------------------- distances and objective
def test_cosine_distances_match_scipy():
    h = torch.randn(2, 6, 5, dtype=torch.float64)
    D = K.cosine_distance_matrix(h)
    for r in range(2):
        np.testing.assert_allclose(D[r].numpy(), cdist(h[r].numpy(), h[r].numpy(), "cosine"), atol=1e-12)


def test_conml_distances_brute_force():
    rng = np.random.default_rng(3)
    h = torch.as_tensor(rng.normal(size=(7, 4)))
    ids = torch.tensor([0, 0, 1, 1, 1, 2, 2])
    d_in, d_out = K.conml_distances(h, ids)
    D = cdist(h.numpy(), h.numpy(), "cosine")
    same = [D[i, j] for i in range(7) for j in range(7) if i != j and ids[i] == ids[j]]
    diff = [D[i, j] for i in range(7) for j in range(7) if ids[i] != ids[j]]
    assert d_in.item() == pytest.approx(np.mean(same), abs=1e-12)
    assert d_out.item() == pytest.approx(np.mean(diff), abs=1e-12)


def test_identical_models_within_a_task_give_zero_inner_distance_and_scale_does_not_matter():
    base = torch.randn(3, 8, dtype=torch.float64)
    h = base.repeat_interleave(3, 0) * torch.rand(9, 1, dtype=torch.float64).add(0.5)  # rescaled copies
    ids = torch.arange(3).repeat_interleave(3)
    d_in, d_out = K.conml_distances(h, ids)
    assert d_in.item() < 1e-12 and d_out.item() > 0.1


def test_batched_task_ids_give_each_replica_its_own_pairing():
    h = torch.randn(2, 6, 3, dtype=torch.float64)
    ids = torch.tensor([[0, 0, 1, 1, 2, 2], [0, 1, 2, 0, 1, 2]])
    d_in, d_out = K.conml_distances(h, ids)
    for r in range(2):
        a, b = K.conml_distances(h[r], ids[r])
        assert d_in[r].item() == pytest.approx(a.item()) and d_out[r].item() == pytest.approx(b.item())


def test_infonce_vanishes_for_orthogonal_tasks_at_low_temperature():
    h = torch.eye(4, dtype=torch.float64).repeat_interleave(2, 0)      # two identical views per task, tasks orthogonal
    ids = torch.arange(4).repeat_interleave(2)
    assert K.conml_infonce(h, ids, temperature=0.01).item() < 1e-12
    assert K.conml_infonce(h, ids, temperature=1.0).item() > 0.1
    # closed form at temperature t: the positive has cos 1, six negatives cos 0: -log(e^{1/t} / (e^{1/t} + 6))
    t = 0.5
    assert K.conml_infonce(h, ids, t).item() == pytest.approx(np.log1p(6 * np.exp(-1 / t)), rel=1e-12)


def test_conml_loss_adds_lambda_times_the_contrast_and_has_no_gradient_at_lambda_zero():
    h = torch.randn(6, 4, dtype=torch.float64, requires_grad=True)
    ids = torch.arange(3).repeat_interleave(2)
    base = torch.tensor(1.5, dtype=torch.float64)
    d_in, d_out = K.conml_distances(h, ids)
    assert K.conml_loss(base, h, ids, 0.3).item() == pytest.approx(1.5 + 0.3 * (d_in - d_out).item())
    (g,) = torch.autograd.grad(K.conml_loss(base, h, ids, 0.0), h, allow_unused=True)
    assert g is None or torch.count_nonzero(g) == 0
    (g,) = torch.autograd.grad(K.conml_loss(base, h, ids, 1.0, kind="infonce"), h)
    assert torch.count_nonzero(g) > 0


def test_bad_objective_arguments_raise():
    h = torch.randn(4, 3)
    with pytest.raises(ValueError, match="same-task pair"):
        K.conml_distances(h, torch.arange(4))
    with pytest.raises(ValueError, match="entries"):
        K.conml_distances(h, torch.arange(3))
    with pytest.raises(ValueError, match="temperature"):
        K.conml_infonce(h, torch.tensor([0, 0, 1, 1]), temperature=0.0)
    with pytest.raises(ValueError, match="needs another one"):
        K.conml_infonce(h, torch.tensor([0, 0, 1, 2]))
    with pytest.raises(ValueError, match="kind"):
        K.conml_loss(torch.tensor(0.0), h, torch.tensor([0, 0, 1, 1]), 1.0, kind="triplet")
    with pytest.raises(ValueError, match="shape"):
        K.cosine_distance_matrix(torch.randn(3))


# ----------------------------------------------------------------------------- models
def test_batched_mlp_matches_independent_linear_stacks_and_shares_init_across_variants():
    mlp = K.BatchedMLP((3, 5, 2), n_seeds=2, n_variants=3, generator=torch.Generator().manual_seed(0))
    assert mlp.n_replicas == 6
    for v in range(3):                                                   # variant v of seed s = replica v*2+s
        torch.testing.assert_close(mlp.weights[0][v * 2 + 1], mlp.weights[0][1])
    assert not torch.equal(mlp.weights[0][0], mlp.weights[0][1])
    x = torch.randn(6, 4, 7, 3)
    out = mlp(x)
    for r in range(6):
        h = torch.relu(x[r] @ mlp.weights[0][r] + mlp.biases[0][r])
        torch.testing.assert_close(out[r], h @ mlp.weights[1][r] + mlp.biases[1][r])
    with pytest.raises(ValueError, match="expected input"):
        mlp(torch.randn(5, 4, 3))


def test_representations_do_not_depend_on_the_order_of_the_support_set():
    g = torch.Generator().manual_seed(1)
    cnp, ridge = K.CNP(8, 1, generator=g), K.RidgeHead(8, 1, generator=g)
    proto = K.ProtoNet((64, 16, 4), 1, generator=g)
    (xs, ys), _, _ = K.sinusoid_batch(1, 1, 3, 6, 2, 1, 3, np.random.default_rng(0))
    perm = torch.randperm(6)
    for m in (cnp, ridge):
        torch.testing.assert_close(m.represent(xs, ys), m.represent(xs[:, :, perm], ys[:, :, perm]), rtol=1e-4, atol=1e-5)
    X, y = K.digits_meta_split()
    (s,), _, _ = K.digits_batch(X, y, (0, 1, 2, 3), 1, 1, 2, 4, 5, 1, 1, 3, np.random.default_rng(0))
    torch.testing.assert_close(proto.represent(s), proto.represent(s[:, :, :, torch.randperm(5)]), rtol=1e-5, atol=1e-5)


def test_subset_models_equal_the_learner_run_on_the_subset():
    g = torch.Generator().manual_seed(2)
    (xs, ys), _, m = K.sinusoid_batch(1, 1, 2, 6, 2, 2, 3, np.random.default_rng(5))
    for model in (K.CNP(8, 1, generator=g), K.RidgeHead(8, 1, ridge=0.5, generator=g)):
        full, views = model.represent_views(xs, ys, m)
        torch.testing.assert_close(full, model.represent(xs, ys))
        for b, v in itertools.product(range(2), range(2)):
            keep = m[0, b, v]
            sub = model.represent(xs[:, b:b + 1, keep], ys[:, b:b + 1, keep])[0, 0]
            torch.testing.assert_close(views[0, b, v], sub, rtol=1e-4, atol=1e-5)


def test_ridge_head_matches_scikit_learn_ridge():
    from sklearn.linear_model import Ridge

    model = K.RidgeHead(6, 1, ridge=0.7, generator=torch.Generator().manual_seed(3))
    (xs, ys), _, _ = K.sinusoid_batch(1, 1, 1, 9, 1, 1, 3, np.random.default_rng(1))
    w = model.represent(xs, ys)
    F = model.phi(xs)[0, 0].detach().numpy().astype(np.float64)
    ref = Ridge(alpha=0.7, fit_intercept=False).fit(F, ys[0, 0, :, 0].numpy()).coef_
    np.testing.assert_allclose(w[0, 0].detach().numpy(), ref, rtol=2e-3, atol=2e-4)


def test_protonet_classifies_well_separated_clusters_and_query_loss_is_the_cross_entropy():
    proto = K.ProtoNet((2, 2), 1)
    with torch.no_grad():
        proto.encoder.weights[0].copy_(torch.eye(2)[None])
        proto.encoder.biases[0].zero_()
    centres = torch.tensor([[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]])
    support = centres[None, None, :, None, :] + 0.1 * torch.randn(1, 1, 3, 4, 2)
    query = centres[None, None, :, None, :] + 0.1 * torch.randn(1, 1, 3, 5, 2)
    h = proto.represent(support).flatten(-2)
    ce, err = K.query_loss(proto, h, (query,))
    assert err.item() == 0.0 and ce.item() < 1e-6
    logits = proto.logits(proto.represent(support), query)[0, 0]
    ref = torch.nn.functional.cross_entropy(logits, torch.arange(3).repeat_interleave(5))
    assert ce.item() == pytest.approx(ref.item(), rel=1e-5, abs=1e-9)


def test_null_pairing_permutes_ids_only_for_shuffled_replicas():
    ids = K.view_task_ids(4, 2, 3, torch.tensor([False, True, False]), np.random.default_rng(0))
    assert ids.shape == (3, 12)
    np.testing.assert_array_equal(ids[0].numpy(), np.repeat(np.arange(4), 3))
    np.testing.assert_array_equal(ids[2].numpy(), ids[0].numpy())
    assert sorted(ids[1].tolist()) == ids[0].tolist() and not torch.equal(ids[1], ids[0])
    with pytest.raises(ValueError, match="shuffled"):
        K.view_task_ids(4, 2, 3, torch.tensor([False, True]), np.random.default_rng(0))


def test_replicas_train_independently_and_lambda_zero_is_the_plain_learner():
    """Two variants of one seed with lambda = 0 follow the same trajectory; a ConML variant departs."""
    def run(lams):
        rng = np.random.default_rng(0)
        model = K.CNP(8, 1, n_variants=len(lams), generator=torch.Generator().manual_seed(0))
        hist = K.meta_train(model, lambda: K.sinusoid_batch(1, len(lams), 4, 6, 4, 2, 3, rng), 5,
                            torch.tensor(lams), torch.zeros(len(lams), dtype=torch.bool), 1e-2, rng)
        return hist["val_loss"]
    v = run([0.0, 0.0, 1.0])
    np.testing.assert_allclose(v[:, 0], v[:, 1], rtol=1e-6)
    assert not np.allclose(v[1:, 0], v[1:, 2])
    single = run([0.0])
    np.testing.assert_allclose(single[:, 0], v[:, 0], rtol=1e-5)


def test_evaluate_reports_metric_and_distance_ratio_per_replica():
    model = K.CNP(8, 2, n_variants=1, generator=torch.Generator().manual_seed(0))
    s, q, m = K.sinusoid_batch(2, 1, 30, 6, 5, 2, 3, np.random.default_rng(0))
    out = K.evaluate(model, s, q, m, chunk=7)
    whole = K.evaluate(model, s, q, m, chunk=30)
    for k in ("metric", "d_in", "d_out", "ratio"):
        assert out[k].shape == (2,)
    torch.testing.assert_close(out["metric"], whole["metric"])
    torch.testing.assert_close(out["ratio"], out["d_in"] / out["d_out"])


def test_masked_mean_rejects_empty_subsets():
    with pytest.raises(ValueError, match="selects no entry"):
        K.masked_mean(torch.ones(2, 3, 4), torch.zeros(2, 3, dtype=torch.bool), dim=1)


# ----------------------------------------------------------------------------- comparators
def test_replica_adam_is_torch_adam_with_one_rate_and_separates_replicas_with_several():
    torch.manual_seed(0)
    w0 = torch.randn(3, 4, 2)
    target = torch.randn(3, 4, 2)

    def run(opt_factory, steps=6):
        w = torch.nn.Parameter(w0.clone())
        opt = opt_factory([w])
        for _ in range(steps):
            opt.zero_grad()
            ((w - target) ** 3).abs().sum().backward()
            opt.step()
        return w.detach()

    ours = run(lambda p: K.ReplicaAdam(p, 1e-2))
    ref = run(lambda p: torch.optim.Adam(p, lr=1e-2))
    torch.testing.assert_close(ours, ref, rtol=1e-6, atol=1e-7)
    mixed = run(lambda p: K.ReplicaAdam(p, torch.tensor([1e-2, 1e-3, 1e-2])))
    torch.testing.assert_close(mixed[[0, 2]], ref[[0, 2]], rtol=1e-6, atol=1e-7)
    slow = run(lambda p: torch.optim.Adam(p, lr=1e-3))
    torch.testing.assert_close(mixed[1], slow[1], rtol=1e-6, atol=1e-7)
    with pytest.raises(ValueError, match="lr"):
        K.ReplicaAdam([torch.nn.Parameter(w0.clone())], torch.tensor([1e-2, 1e-3]))
    with pytest.raises(ValueError, match="lr"):
        K.ReplicaAdam([torch.nn.Parameter(w0.clone())], -1.0)


def test_meta_train_continues_with_its_optimizer():
    """Training 4 + 4 steps with the same optimizer equals 8 steps in one call."""
    def fresh():
        return K.CNP(8, 1, 2, generator=torch.Generator().manual_seed(0))

    lam, sh = torch.tensor([0.0, 0.5]), torch.zeros(2, dtype=torch.bool)
    rng = np.random.default_rng(0)
    a = fresh()
    ha = K.meta_train(a, lambda: K.sinusoid_batch(1, 2, 4, 6, 4, 2, 3, rng), 8, lam, sh, 1e-2, rng)
    rng = np.random.default_rng(0)
    b = fresh()
    opt = K.ReplicaAdam(b.parameters(), 1e-2)
    h1 = K.meta_train(b, lambda: K.sinusoid_batch(1, 2, 4, 6, 4, 2, 3, rng), 4, lam, sh, 1e-2, rng, optimizer=opt)
    h2 = K.meta_train(b, lambda: K.sinusoid_batch(1, 2, 4, 6, 4, 2, 3, rng), 4, lam, sh, 1e-2, rng, optimizer=opt)
    np.testing.assert_allclose(np.concatenate([h1["val_loss"], h2["val_loss"]]), ha["val_loss"], rtol=1e-6)


def test_stack_streams_gives_each_variant_its_stream():
    b0 = K.sinusoid_batch(2, 1, 3, 4, 2, 2, 2, np.random.default_rng(0))
    b1 = K.sinusoid_batch(2, 1, 3, 4, 2, 2, 2, np.random.default_rng(1))
    (xs, ys), (xq, yq), m = K.stack_streams([b0, b1], (0, 0, 1))
    assert xs.shape == (6, 3, 4, 1) and m.shape == (6, 3, 2, 4)
    torch.testing.assert_close(xs[0:2], b0[0][0])
    torch.testing.assert_close(xs[2:4], b0[0][0])
    torch.testing.assert_close(yq[4:6], b1[1][1])
    tiled = K.sinusoid_batch(2, 3, 3, 4, 2, 2, 2, np.random.default_rng(0))
    same = K.stack_streams([b0], (0, 0, 0))
    torch.testing.assert_close(same[0][0], tiled[0][0])
    torch.testing.assert_close(same[2], tiled[2])
    with pytest.raises(ValueError, match="streams"):
        K.stack_streams([b0], (0, 1))


def test_select_by_validation_picks_the_lowest_candidate_per_seed():
    val = np.array([[0.1, 0.9], [0.5, 0.2], [0.3, 0.1]])
    np.testing.assert_array_equal(K.select_by_validation(val, (1, 2)), [2, 2])
    np.testing.assert_array_equal(K.select_by_validation(val, (0, 1)), [0, 1])
    with pytest.raises(ValueError, match="candidates"):
        K.select_by_validation(val, (3,))


def test_rbf_gp_mean_matches_scikit_learn():
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import RBF, ConstantKernel

    rng = np.random.default_rng(0)
    x, y = rng.uniform(-5, 5, (10, 1)), rng.normal(size=(10, 1))
    xq = np.linspace(-5, 5, 7)[:, None]
    gp = GaussianProcessRegressor(ConstantKernel(2.0, "fixed") * RBF(1.3, "fixed"), alpha=0.05, optimizer=None)
    ref = gp.fit(x, y.ravel()).predict(xq)
    ours = K.rbf_gp_mean(torch.tensor(x), torch.tensor(y), torch.tensor(xq), 1.3, 2.0, 0.05)
    np.testing.assert_allclose(ours.numpy().ravel(), ref, rtol=1e-8, atol=1e-10)
    with pytest.raises(ValueError, match="> 0"):
        K.rbf_gp_mean(torch.tensor(x), torch.tensor(y), torch.tensor(xq), 1.3, 0.0, 0.05)


def test_fit_rbf_gp_brute_force_over_the_grid():
    (xs, ys), (xq, yq), _ = K.sinusoid_batch(1, 1, 20, 10, 10, 2, 5, np.random.default_rng(0))
    xs, ys, xq, yq = xs[0], ys[0], xq[0], yq[0]
    grid = ((0.5, 1.0, 2.0), (1.0, 8.0), (1e-3, 1e-1))
    fit = K.fit_rbf_gp(xs, ys, xq, yq, *grid)
    best = min(itertools.product(*grid),
               key=lambda h: float(((K.rbf_gp_mean(xs, ys, xq, *h) - yq.double()) ** 2).mean()))
    assert (fit["lengthscale"], fit["signal_var"], fit["noise_var"]) == pytest.approx(best)
    assert fit["mse"] < float((yq ** 2).mean())            # better than predicting zero


def test_logistic_head_matches_scikit_learn_on_normalised_features():
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(0)
    R, T, W, k, q, e = 1, 3, 4, 5, 6, 8
    centres = rng.normal(size=(R, T, W, 1, e))
    zs = torch.tensor(centres + 0.8 * rng.normal(size=(R, T, W, k, e)))
    zq = torch.tensor(centres + 0.8 * rng.normal(size=(R, T, W, q, e)))
    B = K.fit_logistic_head(zs, C=1.0)
    err = K.logistic_head_error(zs, zq, C=1.0)
    norm = lambda a: a / np.linalg.norm(a, axis=1, keepdims=True)  # noqa: E731
    ref = []
    for t in range(T):
        a, bq = norm(zs[0, t].reshape(-1, e).numpy()), norm(zq[0, t].reshape(-1, e).numpy())
        clf = LogisticRegression(C=1.0, tol=1e-12, max_iter=5000).fit(a, np.repeat(np.arange(W), k))
        ours = torch.softmax(torch.tensor(np.c_[bq, np.ones(len(bq))]) @ B[0, t], -1).numpy()
        np.testing.assert_allclose(ours, clf.predict_proba(bq), atol=1e-4)
        ref.append(np.mean(clf.predict(bq) != np.repeat(np.arange(W), q)))
    assert 0 < float(err[0]) == pytest.approx(np.mean(ref), abs=1e-6)
    with pytest.raises(ValueError, match="expected"):
        K.logistic_head_error(zs[0], zq[0])
    with pytest.raises(ValueError, match="C must"):
        K.fit_logistic_head(zs, C=0.0)


def test_pretraining_lowers_the_classification_loss_and_replicas_of_copies_weights():
    X, y = K.digits_meta_split()
    proto = K.ProtoNet((64, 16, 8), 2, 2, generator=torch.Generator().manual_seed(0))
    enc = K.replicas_of(proto.encoder, [0, 1])
    for w, ws in zip(enc.weights, proto.encoder.weights):
        torch.testing.assert_close(w, ws[:2])
    out = K.pretrain_classifier(enc, X, y, (0, 1, 2, 3), 60, 64, 1e-2, np.random.default_rng(0),
                                torch.Generator().manual_seed(1))
    assert out["loss"].shape == (60, 2)
    assert (out["loss"][-10:].mean(0) < 0.5 * out["loss"][:5].mean(0)).all()
    assert not torch.equal(enc.weights[0], proto.encoder.weights[0][:2])        # trained in place, a copy
    with pytest.raises(ValueError, match="index"):
        K.replicas_of(proto.encoder, [4])


def test_replica_adam_weight_decay_is_torch_adam_weight_decay_per_replica():
    torch.manual_seed(1)
    w0, target = torch.randn(3, 4, 2), torch.randn(3, 4, 2)

    def run(opt_factory, steps=6):
        w = torch.nn.Parameter(w0.clone())
        opt = opt_factory([w])
        for _ in range(steps):
            opt.zero_grad()
            ((w - target) ** 2).sum().backward()
            opt.step()
        return w.detach()

    ref = run(lambda p: torch.optim.Adam(p, lr=1e-2, weight_decay=0.3))
    torch.testing.assert_close(run(lambda p: K.ReplicaAdam(p, 1e-2, weight_decay=0.3)), ref, rtol=1e-6, atol=1e-7)
    mixed = run(lambda p: K.ReplicaAdam(p, 1e-2, weight_decay=torch.tensor([0.0, 0.3, 0.0])))
    plain = run(lambda p: torch.optim.Adam(p, lr=1e-2))
    torch.testing.assert_close(mixed[1], ref[1], rtol=1e-6, atol=1e-7)
    torch.testing.assert_close(mixed[[0, 2]], plain[[0, 2]], rtol=1e-6, atol=1e-7)
    assert not torch.allclose(ref, plain)
    for bad in (-0.1, torch.tensor([0.1, 0.1])):
        with pytest.raises(ValueError, match="weight_decay"):
            K.ReplicaAdam([torch.nn.Parameter(w0.clone())], 1e-2, weight_decay=bad)


def test_subset_query_loss_averages_the_subset_models_losses():
    model = K.CNP(8, 1, 2, generator=torch.Generator().manual_seed(0))
    s, q, m = K.sinusoid_batch(1, 2, 5, 6, 4, 3, 3, np.random.default_rng(0))
    h_full, h_views = K.task_models(model, s, m)
    got = K.subset_query_loss(model, h_views, q)
    by_hand = torch.stack([torch.stack([((model.predict(h_views[:, :, k], q[0]) - q[1]) ** 2).mean((-1, -2))
                                        for k in range(3)]).mean(0)]).squeeze(0).mean(-1)
    torch.testing.assert_close(got, by_hand)
    with pytest.raises(ValueError, match="h_views"):
        K.subset_query_loss(model, h_full, q)


def test_subset_training_changes_only_its_replicas_and_is_off_by_default():
    def run(flags):
        rng = np.random.default_rng(0)
        model = K.CNP(8, 1, n_variants=3, generator=torch.Generator().manual_seed(0))
        kw = {} if flags is None else {"subset_training": torch.tensor(flags)}
        return K.meta_train(model, lambda: K.sinusoid_batch(1, 3, 4, 6, 4, 2, 3, rng), 5, torch.zeros(3),
                            torch.zeros(3, dtype=torch.bool), 1e-2, rng, **kw)["val_loss"]
    base, flagged = run(None), run([False, True, False])
    np.testing.assert_allclose(run([False, False, False]), base, rtol=1e-6)
    np.testing.assert_allclose(flagged[:, [0, 2]], base[:, [0, 2]], rtol=1e-6)
    assert not np.allclose(flagged[1:, 1], base[1:, 1])
    with pytest.raises(ValueError, match="subset_training"):
        run([False, True])


def test_meta_train_passes_weight_decay_to_a_fresh_optimizer():
    def run(wd):
        rng = np.random.default_rng(0)
        model = K.CNP(8, 1, n_variants=2, generator=torch.Generator().manual_seed(0))
        return K.meta_train(model, lambda: K.sinusoid_batch(1, 2, 4, 6, 4, 2, 3, rng), 5, torch.zeros(2),
                            torch.zeros(2, dtype=torch.bool), 1e-2, rng, weight_decay=wd)["val_loss"]
    base, decayed = run(0.0), run(torch.tensor([0.0, 0.5]))
    np.testing.assert_allclose(decayed[:, 0], base[:, 0], rtol=1e-6)
    assert not np.allclose(decayed[1:, 1], base[1:, 1])


def test_fixed_encoder_protonet_is_the_nearest_centroid_classifier():
    """Raw-pixel prototypes: brute-force nearest class mean; with an encoder, equal to that encoder's ProtoNet."""
    rng = np.random.default_rng(0)
    X, y = K.digits_meta_split()
    s, q, m = K.digits_batch(X, y, (6, 7, 8, 9), 2, 1, 5, 4, 5, 3, 2, 3, rng)
    raw = K.evaluate(K.FixedEncoderProtoNet(), s, q, m)
    S, Q = s[0].numpy(), q[0].numpy()
    errs = []
    for r in range(2):
        wrong = 0
        for b in range(5):
            cent = S[r, b].mean(1)                                      # (W, d)
            for c in range(4):
                for x in Q[r, b, c]:
                    wrong += int(np.argmin(((cent - x) ** 2).sum(-1)) != c)
        errs.append(wrong / (5 * 4 * 3))
    np.testing.assert_allclose(raw["metric"].numpy(), errs, rtol=1e-6)
    proto = K.ProtoNet((64, 16, 8), 2, 1, generator=torch.Generator().manual_seed(0))
    fixed = K.FixedEncoderProtoNet(K.replicas_of(proto.encoder, [0, 1]))
    a, b = K.evaluate(fixed, s, q, m), K.evaluate(proto, s, q, m)
    for k in ("metric", "ratio"):
        torch.testing.assert_close(a[k], b[k])
    assert not any(p.requires_grad for p in fixed.parameters())
    with pytest.raises(ValueError, match="encoder"):
        K.FixedEncoderProtoNet(lambda x: x)
