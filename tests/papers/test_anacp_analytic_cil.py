"""Unit tests of :mod:`repro.papers.anacp_analytic_cil`, the kernels of ``notebooks/anacp-analytic-cil.py``."""

import inspect

import numpy as np
import pytest
from scipy.special import erf
from sklearn.linear_model import Ridge

from repro.continual import class_incremental_tasks
from repro.papers import anacp_analytic_cil as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/anacp_analytic_cil.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def blobs(n_per=30, n_classes=6, d=8, seed=0, sep=3.0):
    rng = np.random.default_rng(seed)
    centers = sep * rng.standard_normal((n_classes, d))
    y = np.repeat(np.arange(n_classes), n_per)
    return centers[y] + rng.standard_normal((len(y), d)), y


# ----------------------------------------------------------------------------- analytic_classifier
@pytest.mark.parametrize("lam", [0.1, 1.0, 25.0])
def test_analytic_classifier_matches_sklearn_ridge_with_unpenalised_intercept(lam):
    rng = np.random.default_rng(1)
    X = rng.standard_normal((20, 5))
    T = K.one_hot(rng.integers(0, 3, 20), 3)
    W = K.analytic_classifier(X, T, lam)
    ref = Ridge(alpha=lam, fit_intercept=True, solver="cholesky").fit(X, T)
    assert W.shape == (6, 3)
    np.testing.assert_allclose(W[:-1], ref.coef_.T, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(W[-1], ref.intercept_, rtol=1e-9, atol=1e-12)


def test_analytic_classifier_solves_the_augmented_normal_equations_and_pm1_targets():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((15, 4))
    T = 2 * K.one_hot(rng.integers(0, 4, 15), 4) - 1  # +-1 codes
    lam = 0.7
    W = K.analytic_classifier(X, T, lam)
    Xa = np.hstack([X, np.ones((15, 1))])
    pen = lam * np.diag([1, 1, 1, 1, 0.0])
    np.testing.assert_allclose((Xa.T @ Xa + pen) @ W, Xa.T @ T, rtol=1e-10, atol=1e-10)
    # the intercept is not penalised: shifting the targets shifts only the intercept
    W2 = K.analytic_classifier(X, T + 5.0, lam)
    np.testing.assert_allclose(W2[:-1], W[:-1], atol=1e-10)
    np.testing.assert_allclose(W2[-1], W[-1] + 5.0, atol=1e-10)


def test_analytic_classifier_lam_to_zero_is_least_squares():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((12, 3))
    T = rng.standard_normal((12, 2))
    ls = np.linalg.lstsq(np.hstack([X, np.ones((12, 1))]), T, rcond=None)[0]
    np.testing.assert_allclose(K.analytic_classifier(X, T, 0.0), ls, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(K.analytic_classifier(X, T, 1e-9), ls, rtol=1e-6, atol=1e-8)
    # a 1-d target is one column; the exact interpolation of a tiny case
    W = K.analytic_classifier(np.array([[0.0], [1.0]]), np.array([1.0, 3.0]), 0.0)
    np.testing.assert_allclose(W, [[2.0], [1.0]], atol=1e-12)


def test_analytic_classifier_bad_input():
    X = np.zeros((4, 2))
    with pytest.raises(ValueError, match="lam"):
        K.analytic_classifier(X, np.zeros((4, 2)), -1.0)
    with pytest.raises(ValueError, match="lam"):
        K.analytic_classifier(X, np.zeros((4, 2)), float("nan"))
    with pytest.raises(ValueError, match="rows"):
        K.analytic_classifier(X, np.zeros((3, 2)), 1.0)
    with pytest.raises(ValueError, match="finite"):
        K.analytic_classifier(np.full((4, 2), np.nan), np.zeros((4, 2)), 1.0)
    with pytest.raises(ValueError, match="dimension"):
        K.analytic_classifier(np.zeros(4), np.zeros((4, 2)), 1.0)
    with pytest.raises(ValueError, match="at least one row"):
        K.analytic_classifier(np.zeros((0, 2)), np.zeros((0, 2)), 1.0)


# ----------------------------------------------------------------------------- recursive ridge
def test_partial_fit_over_chunks_equals_batch_ridge_on_the_union():
    X, y = blobs()
    T = K.one_hot(y, 6)
    r = K.AnalyticRidge(8, 6)
    for idx in np.array_split(np.random.default_rng(0).permutation(len(y)), 4):
        r.partial_fit(X[idx], T[idx])
    np.testing.assert_allclose(r.solve(2.0), K.analytic_classifier(X, T, 2.0), rtol=1e-8, atol=1e-10)
    with pytest.raises(ValueError, match="no data"):
        K.AnalyticRidge(8, 6).solve(1.0)
    with pytest.raises(ValueError, match="Z must be"):
        r.partial_fit(X[:, :3], T)


def test_ranpac_style_is_order_independent_so_its_final_row_equals_joint_ridge():
    X, y = blobs(seed=4)
    tasks = class_incremental_tasks(np.arange(6), 2, rng=np.random.default_rng(0))
    A = K.accuracy_matrix(K.RanPACStyle(8, 6, 1.0), X, y, X, y, tasks)
    joint = K.predict_linear(X, K.analytic_classifier(X, K.one_hot(y, 6), 1.0)).argmax(1)
    per_task = [np.mean(joint[np.isin(y, t)] == y[np.isin(y, t)]) for t in tasks]
    np.testing.assert_allclose(A[-1], per_task, atol=1e-12)
    assert np.all(np.isnan(A[np.triu_indices(3, 1)]))


# ----------------------------------------------------------------------------- features
def test_gelu_closed_form_and_random_projection_shape():
    x = np.array([-2.0, 0.0, 1.0])
    np.testing.assert_allclose(K.gelu(x), x * 0.5 * (1 + erf(x / np.sqrt(2))), rtol=1e-15)
    assert K.gelu(np.array([0.0]))[0] == 0.0
    Z = K.random_projection_features(np.ones((3, 4)), 7, seed=1)
    assert Z.shape == (3, 7)
    np.testing.assert_array_equal(Z, K.random_projection_features(np.ones((3, 4)), 7, seed=1))
    with pytest.raises(ValueError, match="D"):
        K.random_projection_features(np.ones((3, 4)), 0, seed=1)


def test_frozen_digit_features_match_a_loop_convolution():
    rng = np.random.default_rng(5)
    imgs = rng.uniform(0, 16, (2, 8, 8))
    F = K.frozen_digit_features(imgs, n_filters=3, seed=7)
    assert F.shape == (2, 3 * 3 * 3)
    filt = np.random.default_rng(7).standard_normal((3, 3, 3))
    filt -= filt.mean(axis=(1, 2), keepdims=True)
    conv = np.zeros((2, 3, 6, 6))
    for n in range(2):
        for k in range(3):
            for i in range(6):
                for j in range(6):
                    conv[n, k, i, j] = max((imgs[n, i:i + 3, j:j + 3] * filt[k]).sum(), 0.0)
    pooled = conv.reshape(2, 3, 3, 2, 3, 2).mean(axis=(3, 5)).reshape(2, -1)
    np.testing.assert_allclose(F, pooled, rtol=1e-12)
    with pytest.raises(ValueError, match="4x4"):
        K.frozen_digit_features(np.zeros((1, 3, 3)))


# ----------------------------------------------------------------------------- prototypes, pseudo-replay
def test_contrastive_targets_orthonormal_aligned_and_prefix_stable():
    rng = np.random.default_rng(6)
    M = rng.standard_normal((5, 9))
    tau = K.contrastive_targets(M)
    np.testing.assert_allclose(tau @ tau.T, np.eye(5), atol=1e-12)
    assert np.all(np.einsum("ij,ij->i", tau, M) > 0)  # positive alignment with its own mean
    dist = np.linalg.norm(tau[:, None] - tau[None], axis=2)
    assert dist[~np.eye(5, dtype=bool)].min() > 1.4  # pairwise separated (sqrt 2)
    # appending classes later leaves the old prototypes unchanged
    first = K.contrastive_targets(M[:2])
    rest = K.contrastive_targets(M[2:], previous=first)
    np.testing.assert_allclose(np.vstack([first, rest]), tau, atol=1e-12)


def test_lowdin_targets_are_permutation_equivariant_and_closest_orthonormal():
    rng = np.random.default_rng(7)
    M = rng.standard_normal((4, 6))
    tau = K.contrastive_targets(M, "lowdin")
    p = rng.permutation(4)
    np.testing.assert_allclose(K.contrastive_targets(M[p], "lowdin"), tau[p], atol=1e-12)
    np.testing.assert_allclose(tau @ tau.T, np.eye(4), atol=1e-12)
    # closest orthonormal rows (orthogonal Procrustes): no random orthonormal set is closer
    for _ in range(20):
        Q = np.linalg.qr(rng.standard_normal((6, 4)))[0].T
        assert np.linalg.norm(M - tau) <= np.linalg.norm(M - Q) + 1e-12


def test_contrastive_targets_bad_input():
    with pytest.raises(ValueError, match="kind"):
        K.contrastive_targets(np.eye(2), "simplex")
    with pytest.raises(ValueError, match="dependent"):
        K.contrastive_targets(np.array([[1.0, 1.0, 0.0], [2.0, 2.0, 0.0]]))
    with pytest.raises(ValueError, match="dimension"):
        K.contrastive_targets(np.ones((3, 2)))
    with pytest.raises(ValueError, match="previous"):
        K.contrastive_targets(np.eye(3)[:1], "lowdin", previous=np.eye(3)[1:2])


def test_pseudo_replay_moments_converge_to_the_stored_statistics():
    mu = np.array([[0.0, 1.0, 2.0], [5.0, -1.0, 0.0]])
    A = np.array([[1.0, 0.3, 0.0], [0.0, 0.5, 0.2], [0.0, 0.0, 0.1]])
    S = A @ A.T
    Z, idx = K.pseudo_replay(mu, S, 40000, np.random.default_rng(8))
    assert Z.shape == (80000, 3) and np.bincount(idx).tolist() == [40000, 40000]
    for c in range(2):
        np.testing.assert_allclose(Z[idx == c].mean(0), mu[c], atol=0.02)
        np.testing.assert_allclose(np.cov(Z[idx == c].T), S, atol=0.02)
    with pytest.raises(ValueError, match="semi-definite"):
        K.pseudo_replay(mu, -np.eye(3), 3, np.random.default_rng(0))
    with pytest.raises(ValueError, match="symmetric"):
        K.pseudo_replay(mu, A, 3, np.random.default_rng(0))


# ----------------------------------------------------------------------------- learners
def test_anacp_lite_single_task_with_tiny_lambdas_matches_ridge_on_features_and_learns():
    X, y = blobs(n_per=40, seed=9)
    Z = K.random_projection_features(X, 40, seed=0)
    joint = K.AnaCPLite(40, 6, 1e-3, 1e-3, np.random.default_rng(0)).fit_task(Z, y)
    ridge = K.predict_linear(Z, K.analytic_classifier(Z, K.one_hot(y, 6), 1e-3)).argmax(1)
    # the CP layer is an invertible affine map here, so both classifiers agree on nearly every sample
    assert np.mean(joint.predict(Z) == ridge) > 0.97
    assert np.mean(joint.predict(Z) == y) > 0.9


def test_learners_in_a_class_incremental_stream():
    X, y = blobs(n_per=40, seed=10, sep=4.0)
    Z = K.random_projection_features(X, 40, seed=0)
    tasks = class_incremental_tasks(np.arange(6), 2)
    A_cp = K.accuracy_matrix(K.AnaCPLite(40, 6, 1.0, 1.0, np.random.default_rng(0)), Z, y, Z, y, tasks)
    A_sgd = K.accuracy_matrix(K.SGDHead(40, 6, 0.5, 200), Z, y, Z, y, tasks)
    A_ncm = K.accuracy_matrix(K.NearestClassMean(40, 6), Z, y, Z, y, tasks)
    assert A_cp[-1].min() > 0.8 and A_ncm[-1].min() > 0.5
    assert A_sgd[-1, 0] < 0.2 and A_sgd[-1, -1] > 0.9 and A_sgd[0, 0] > 0.9  # naive fine-tuning forgets task 1
    learner = K.AnaCPLite(40, 6, 1.0, 1.0, np.random.default_rng(0))
    learner.fit_task(Z[y < 2], y[y < 2])
    with pytest.raises(ValueError, match="must be new"):
        learner.fit_task(Z[y == 1], y[y == 1])
    with pytest.raises(ValueError, match="fit_task"):
        K.AnaCPLite(40, 6, 1.0, 1.0, np.random.default_rng(0)).predict(Z)
    with pytest.raises(ValueError, match="n_classes <= n_features"):
        K.AnaCPLite(4, 6, 1.0, 1.0, np.random.default_rng(0))
    j = K.joint_accuracies(K.RanPACStyle(40, 6, 1.0), Z, y, Z, y, tasks)
    assert j.shape == (3,) and j.min() > 0.8


# ----------------------------------------------------------------------------- StreamingLDA (naive baseline)
def test_streaming_lda_without_shrinkage_is_sklearn_lda_with_uniform_priors():
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    X, y = blobs(n_per=40, n_classes=4, d=6, seed=3)
    slda = K.StreamingLDA(6, 4, shrinkage=0.0).fit_task(X, y)
    ref = LinearDiscriminantAnalysis(solver="lsqr", priors=np.full(4, 0.25)).fit(X, y)
    np.testing.assert_allclose(slda.W[:-1].T, ref.coef_, rtol=1e-8, atol=1e-10)
    # sklearn adds log(prior) to every intercept: a constant here, which changes no decision
    np.testing.assert_allclose(slda.W[-1] - ref.intercept_, np.log(4.0), atol=1e-8)
    assert np.array_equal(slda.predict(X), ref.predict(X))


def test_streaming_lda_statistics_do_not_depend_on_how_the_data_arrive():
    X, y = blobs(n_per=30, n_classes=6, d=5, seed=4)
    batch = K.StreamingLDA(5, 6, shrinkage=1e-3).fit_task(X, y)
    Sw = sum(((X[y == c] - X[y == c].mean(0)).T @ (X[y == c] - X[y == c].mean(0)) for c in range(6)))
    np.testing.assert_allclose(batch.covariance, Sw / len(X), rtol=1e-12, atol=1e-12)
    tasks = class_incremental_tasks(np.arange(6), 2, rng=np.random.default_rng(0))
    stream = K.StreamingLDA(5, 6, shrinkage=1e-3)
    for t in tasks:
        keep = np.isin(y, t)
        stream.fit_task(X[keep], y[keep])
    np.testing.assert_allclose(stream.W, batch.W, rtol=1e-9, atol=1e-10)
    # a class split over two chunks is merged exactly (Chan et al.'s pairwise update)
    split = K.StreamingLDA(5, 6, shrinkage=1e-3)
    half = np.arange(len(y)) % 2 == 0
    split.fit_task(X[half], y[half]).fit_task(X[~half], y[~half])
    np.testing.assert_allclose(split.means, batch.means, atol=1e-12)
    np.testing.assert_allclose(split.covariance, batch.covariance, rtol=1e-10, atol=1e-12)


def test_streaming_lda_full_shrinkage_is_the_euclidean_nearest_mean_and_it_learns_a_stream():
    X, y = blobs(n_per=40, n_classes=6, d=8, seed=5)
    slda = K.StreamingLDA(8, 6, shrinkage=1.0).fit_task(X, y)
    d2 = ((X[:, None, :] - slda.means[None]) ** 2).sum(-1)
    assert np.array_equal(slda.predict(X), d2.argmin(1))
    tasks = class_incremental_tasks(np.arange(6), 2)
    A = K.accuracy_matrix(K.StreamingLDA(8, 6), X, y, X, y, tasks)
    assert A[-1].min() > 0.8
    part = K.StreamingLDA(8, 6).fit_task(X[y < 2], y[y < 2])
    assert set(np.unique(part.predict(X))) <= {0, 1}  # only the classes seen so far


def test_streaming_lda_bad_input():
    X, y = blobs(n_per=5, n_classes=3, d=4)
    with pytest.raises(ValueError, match="shrinkage"):
        K.StreamingLDA(4, 3, shrinkage=1.5)
    with pytest.raises(ValueError, match="shrinkage"):
        K.StreamingLDA(4, 3, shrinkage=-0.1)
    with pytest.raises(ValueError, match="fit_task"):
        K.StreamingLDA(4, 3).predict(X)
    with pytest.raises(ValueError, match="Z must be"):
        K.StreamingLDA(5, 3).fit_task(X, y)
    with pytest.raises(ValueError, match="y must"):
        K.StreamingLDA(4, 2).fit_task(X, y)


def test_synthetic_intent_corpus_is_balanced_distinct_and_reproducible():
    s, y = K.synthetic_intent_corpus(50, np.random.default_rng(0))
    assert len(s) == 1000 and np.bincount(y).tolist() == [50] * 20
    for c in range(20):
        sc = [t for t, lab in zip(s, y) if lab == c]
        assert len(set(sc)) == 50
    assert len(set(s)) == 1000  # no sentence belongs to two classes
    s2, y2 = K.synthetic_intent_corpus(50, np.random.default_rng(0))
    assert s2 == s and np.array_equal(y, y2)
    assert "cancel" in s[y.tolist().index(1)] or "close" in s[y.tolist().index(1)] or "call off" in s[y.tolist().index(1)]
    with pytest.raises(ValueError, match="n_per_class"):
        K.synthetic_intent_corpus(325, np.random.default_rng(0))


# ----------------------------------------------------------------------------- the identity of our reconstruction
@pytest.mark.parametrize("prototypes", ["class-means", "random"])
def test_cp_layer_is_ranpac_ridge_times_the_prototypes(prototypes):
    X, y = blobs(n_per=30, n_classes=6, d=8, seed=11)
    Z = K.random_projection_features(X, 30, seed=2)
    tasks = class_incremental_tasks(np.arange(6), 2, rng=np.random.default_rng(3))
    res = K.cp_identity_residuals(Z, y, tasks, 1.0, np.random.default_rng(0), prototypes=prototypes)
    assert res.shape == (3,) and res.max() < 1e-9
    # a direct check by hand: W_cp equals RanPAC's ridge weights times the prototype matrix
    a = K.AnaCPLite(30, 6, 0.5, 0.5, np.random.default_rng(0), prototypes=prototypes)
    r = K.RanPACStyle(30, 6, 0.5)
    for t in tasks:
        keep = np.isin(y, t)
        a.fit_task(Z[keep], y[keep])
        r.fit_task(Z[keep], y[keep])
        np.testing.assert_allclose(a.W_cp, r.W @ a.targets, atol=1e-10 * np.abs(a.W_cp).max())
    # sensitivity: with a CP penalty other than RanPAC's the identity fails
    b = K.AnaCPLite(30, 6, 5.0, 0.5, np.random.default_rng(0), prototypes=prototypes).fit_task(Z, y)
    r = K.RanPACStyle(30, 6, 0.5).fit_task(Z, y)
    assert np.abs(b.W_cp - r.W @ b.targets).max() > 1e-3 * np.abs(b.W_cp).max()


def test_random_orthonormal_prototypes_change_no_prediction():
    X, y = blobs(n_per=40, n_classes=6, d=8, seed=12, sep=2.0)
    Z = K.random_projection_features(X, 40, seed=4)
    tasks = class_incremental_tasks(np.arange(6), 2, rng=np.random.default_rng(5))
    a = K.AnaCPLite(40, 6, 1.0, 1.0, np.random.default_rng(7))
    b = K.AnaCPLite(40, 6, 1.0, 1.0, np.random.default_rng(7), prototypes="random", prototype_seed=9)
    for t in tasks:
        keep = np.isin(y, t)
        a.fit_task(Z[keep], y[keep])
        b.fit_task(Z[keep], y[keep])
        assert np.array_equal(a.predict(Z), b.predict(Z))
    seen = a.seen
    np.testing.assert_allclose(b.targets[seen] @ b.targets[seen].T, np.eye(seen.sum()), atol=1e-12)
    assert np.abs(a.targets - b.targets).max() > 0.1  # the prototypes differ, the predictions do not
    # an unknown kind of prototype is refused
    with pytest.raises(ValueError, match="prototypes"):
        K.AnaCPLite(40, 6, 1.0, 1.0, np.random.default_rng(0), prototypes="simplex")


def test_sgd_labels_trick_leaves_old_columns_alone_and_forgets_less():
    X, y = blobs(n_per=40, seed=10, sep=4.0)
    Z = K.random_projection_features(X, 40, seed=0)
    tasks = class_incremental_tasks(np.arange(6), 2)
    head = K.SGDHead(40, 6, 0.5, 50, labels_trick=True)
    keep = np.isin(y, tasks[0])
    head.fit_task(Z[keep], y[keep])
    old = head.W[:, tasks[0]].copy()
    keep = np.isin(y, tasks[1])
    head.fit_task(Z[keep], y[keep])
    np.testing.assert_array_equal(head.W[:, tasks[0]], old)
    assert set(np.unique(head.predict(Z))) <= set(np.concatenate(tasks[:2]).tolist())
    A_trick = K.accuracy_matrix(K.SGDHead(40, 6, 0.5, 200, labels_trick=True), Z, y, Z, y, tasks)
    A_naive = K.accuracy_matrix(K.SGDHead(40, 6, 0.5, 200), Z, y, Z, y, tasks)
    assert A_trick[-1, 0] > A_naive[-1, 0]


def test_cp_identity_residual_bad_input():
    X, y = blobs(n_per=10, n_classes=3, d=4, seed=1)
    a = K.AnaCPLite(4, 3, 1.0, 1.0, np.random.default_rng(0))
    r = K.RanPACStyle(4, 3, 1.0)
    with pytest.raises(ValueError, match="fitted"):
        K.cp_identity_residual(a, r)
    a.fit_task(X, y)
    r.fit_task(X, y)
    assert K.cp_identity_residual(a, r) < 1e-9
    with pytest.raises(TypeError, match="AnaCPLite"):
        K.cp_identity_residual(r, a)
    with pytest.raises(ValueError, match="differ in size"):
        K.cp_identity_residual(a, K.RanPACStyle(5, 3, 1.0).fit_task(np.hstack([X, X[:, :1]]), y))
    with pytest.raises(ValueError, match="lam"):
        K.cp_identity_residuals(X, y, [np.array([0, 1, 2])], 0.0, np.random.default_rng(0))
