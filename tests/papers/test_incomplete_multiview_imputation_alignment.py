"""Unit tests of :mod:`repro.papers.incomplete_multiview_imputation_alignment`, the kernels of ``notebooks/incomplete-multiview-imputation-alignment.py``."""

import inspect
import json
from pathlib import Path

import numpy as np
import pytest
import torch
from scipy.stats import ortho_group
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

from repro.papers import incomplete_multiview_imputation_alignment as K

GOLDEN = json.loads((Path(__file__).parent / "golden" / "incomplete-multiview-imputation-alignment.json").read_text())


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/incomplete_multiview_imputation_alignment.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# ------------------------------------------------------------------------------------------------- alignment
@pytest.mark.parametrize("n,d,k,seed", [(1, 1, 1, 0), (7, 3, 2, 1), (30, 12, 5, 2), (50, 4, 9, 3)])
def test_linear_alignment_equals_trace_of_gram_product(n, d, k, seed):
    rng = np.random.default_rng(seed)
    X, Z = rng.normal(size=(n, d)), rng.normal(size=(n, k))
    brute = np.trace((X @ X.T) @ (Z @ Z.T))
    assert K.linear_alignment(X, Z) == pytest.approx(brute, rel=1e-10)
    assert K.linear_alignment_bruteforce(X, Z) == pytest.approx(brute, rel=1e-10)
    assert K.linear_alignment(X, Z) == pytest.approx(np.linalg.norm(X.T @ Z, "fro") ** 2, rel=1e-12)


def test_linear_alignment_torch_matches_numpy_and_is_differentiable():
    rng = np.random.default_rng(0)
    X, Z = rng.normal(size=(20, 6)), rng.normal(size=(20, 3))
    Zt = torch.tensor(Z, requires_grad=True)
    val = K.linear_alignment(torch.tensor(X), Zt)
    assert float(val.detach()) == pytest.approx(K.linear_alignment(X, Z), rel=1e-12)
    val.backward()  # d/dZ ||X^T Z||^2 = 2 X X^T Z
    assert np.allclose(Zt.grad.numpy(), 2 * X @ (X.T @ Z))
    assert float(K.linear_alignment_bruteforce(torch.tensor(X), torch.tensor(Z))) == pytest.approx(float(val.detach()), rel=1e-10)


def test_linear_alignment_never_forms_an_n_by_n_matrix():
    import tracemalloc

    rng = np.random.default_rng(1)
    X, Z = rng.normal(size=(3000, 5)), rng.normal(size=(3000, 4))
    tracemalloc.start()
    K.linear_alignment(X, Z)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 3000 * 8 * 10  # far below one n x n float64 matrix (72 MB)


def test_alignment_flops_counts():
    c = K.alignment_flops(100, 10, 4)
    assert c["linear"] == 2 * 100 * 10 * 4 + 2 * 10 * 4
    assert c["quadratic"] == 2 * 100**2 * (10 + 4 + 1)
    assert c["linear_memory"] == 40 and c["quadratic_memory"] == 2 * 100**2
    with pytest.raises(ValueError, match="positive"):
        K.alignment_flops(0, 1, 1)


@pytest.mark.parametrize("bad", [(np.ones(3), np.ones((3, 2))), (np.ones((3, 2)), np.ones((4, 2))),
                                 (np.ones((0, 2)), np.ones((0, 2)))])
def test_alignment_bad_input(bad):
    for f in (K.linear_alignment, K.linear_alignment_bruteforce, K.cka):
        with pytest.raises(ValueError):
            f(*bad)


def test_cka_invariances_and_range():
    rng = np.random.default_rng(2)
    X, Z = rng.normal(size=(40, 6)), rng.normal(size=(40, 4))
    c = K.cka(X, Z)
    assert 0 <= c <= 1
    Q = ortho_group.rvs(4, random_state=0)
    assert K.cka(X, Z @ Q) == pytest.approx(c, rel=1e-10)  # orthogonal rotation of Z
    assert K.cka(X, 7.5 * Z) == pytest.approx(c, rel=1e-10)  # isotropic scaling
    assert K.cka(X, Z + 3.0) == pytest.approx(c, rel=1e-10)  # translation (centred)
    assert K.cka(X, X) == pytest.approx(1.0, rel=1e-10)
    # brute force through centred Gram matrices (HSIC form)
    H = np.eye(40) - 1 / 40
    Kx, Kz = H @ X @ X.T @ H, H @ Z @ Z.T @ H
    assert c == pytest.approx(np.sum(Kx * Kz) / np.sqrt(np.sum(Kx * Kx) * np.sum(Kz * Kz)), rel=1e-10)
    assert float(K.cka(torch.tensor(X), torch.tensor(Z))) == pytest.approx(c, rel=1e-10)


def test_fit_alignment_term_equals_cka():
    """The batched alignment inside fit_imvc is the mean of cka over views (checked on its own expression)."""
    rng = np.random.default_rng(3)
    dims = [3, 5, 2]
    Xs = [torch.tensor(rng.normal(size=(25, d))) for d in dims]
    Z = torch.tensor(rng.normal(size=(25, 4)))
    seg = torch.repeat_interleave(torch.arange(3), torch.tensor(dims))
    sel = (seg[None, :] == torch.arange(3)[:, None]).double()
    Xc = torch.cat([X - X.mean(0) for X in Xs], 1)
    Zc = Z - Z.mean(0)
    xnorm = torch.stack([K.linear_alignment(Xc[:, seg == v], Xc[:, seg == v]).sqrt() for v in range(3)])
    batched = (sel @ (Xc.T @ Zc).square().sum(1)) / (xnorm * K.linear_alignment(Zc, Zc).sqrt())
    assert np.allclose(batched.numpy(), [float(K.cka(X, Z)) for X in Xs])


# --------------------------------------------------------------------------------------------- golden (HSACC)
@pytest.mark.parametrize("case", [c for c in GOLDEN["cases"] if c["function"].startswith("model.compute_view_value")],
                         ids=lambda c: c["name"])
def test_view_weights_match_official_compute_view_value(case):
    inp = case["input"]
    g = torch.Generator().manual_seed(inp["seed"])
    rs = [torch.rand(inp["n"], inp["k"], generator=g, dtype=torch.float64) for _ in range(inp["views"])]
    H = sum(rs) / inp["views"]
    w = K.view_weights([r.numpy() for r in rs], H.numpy())
    assert np.allclose(w, case["output"], rtol=0, atol=case["tol"]["abs"])


@pytest.mark.parametrize("case", [c for c in GOLDEN["cases"] if c["function"].startswith("utils.clustering")],
                         ids=lambda c: c["name"])
def test_clustering_scores_match_official_clustering_metric(case):
    inp = case["input"]
    rng = np.random.default_rng(inp["seed"])
    y = rng.integers(0, inp["classes"], inp["n"])
    yp = rng.permutation(inp["classes"])[y]
    noise = rng.random(inp["n"]) < inp["flip"]
    yp[noise] = rng.integers(0, inp["classes"], noise.sum())
    s = K.clustering_scores(y, yp)
    for ours, theirs in (("acc", "accuracy"), ("nmi", "NMI"), ("ari", "ARI")):
        assert s[ours] == pytest.approx(case["output"][theirs], abs=case["tol"]["abs"])


def test_view_weights_linear_form_equals_official_quadratic_form():
    rng = np.random.default_rng(4)
    Zs = [rng.random((30, 5)) for _ in range(3)]
    H = rng.random((30, 5))
    ref = []
    for Zv in Zs:  # the official expression, with n x n matrices
        w = ((Zv @ Zv.T).sum() + (H @ H.T).sum() - 2 * (Zv @ H.T).sum()) / 30**2
        ref.append(np.exp(-w))
    assert np.allclose(K.view_weights(Zs, H), np.array(ref) / sum(ref))
    with pytest.raises(ValueError):
        K.view_weights([], H)


# -------------------------------------------------------------------------------------------------- clustering
def test_cluster_acc_is_one_for_any_permutation():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 6, 200)
    for s in range(5):
        perm = np.random.default_rng(s).permutation(6) + 10
        assert K.cluster_acc(y, perm[y]) == 1.0


def test_cluster_acc_bruteforce_and_sklearn_metrics():
    from itertools import permutations

    rng = np.random.default_rng(6)
    y, p = rng.integers(0, 4, 60), rng.integers(0, 4, 60)
    best = max(np.mean(np.array(perm)[p] == y) for perm in permutations(range(4)))
    assert K.cluster_acc(y, p) == pytest.approx(best)
    s = K.clustering_scores(y, p)
    assert s["nmi"] == pytest.approx(normalized_mutual_info_score(y, p))
    assert s["ari"] == pytest.approx(adjusted_rand_score(y, p))
    # more clusters than classes: unmatched clusters count as errors
    assert K.cluster_acc(np.array([0, 0, 1, 1]), np.array([0, 1, 2, 2])) == pytest.approx(0.75)


@pytest.mark.parametrize("bad", [(np.array([0, 1]), np.array([0])), (np.array([]), np.array([])),
                                 (np.array([0.5, 1.0]), np.array([0, 1])), (np.zeros((2, 2), int), np.zeros((2, 2), int))])
def test_cluster_acc_bad_input(bad):
    with pytest.raises(ValueError):
        K.cluster_acc(*bad)


def test_kmeans_recovers_separated_blobs():
    rng = np.random.default_rng(7)
    y = np.repeat(np.arange(3), 20)
    F = np.eye(3)[y] * 10 + rng.normal(size=(60, 3))
    assert K.cluster_acc(y, K.kmeans_labels(F, 3)) == 1.0
    with pytest.raises(ValueError):
        K.kmeans_labels(F, 1)


# ---------------------------------------------------------------------------------------------- data and masks
@pytest.mark.parametrize("eta", [0.0, 0.3, 0.5, 0.9])
def test_masks_never_drop_all_views(eta):
    m = K.apply_missing_mask(4000, 3, eta, np.random.default_rng(8))
    assert m.dtype == bool and m.shape == (4000, 3) and m.any(1).all()
    assert m.mean() == pytest.approx((1 - eta) + eta**3 / 3, abs=0.02)


@pytest.mark.parametrize("args", [(10, 1, 0.3), (10, 3, 1.0), (10, 3, -0.1), (0, 3, 0.2)])
def test_mask_bad_input(args):
    with pytest.raises(ValueError):
        K.apply_missing_mask(*args)


def test_make_multiview_gmm_shapes_and_balance():
    views, y = K.make_multiview_gmm(101, dims=(4, 6), n_clusters=5, rng=np.random.default_rng(9))
    assert [v.shape for v in views] == [(101, 4), (101, 6)]
    assert np.bincount(y).min() == 20 and np.bincount(y).max() == 21
    with pytest.raises(ValueError):
        K.make_multiview_gmm(3, n_clusters=5)
    with pytest.raises(ValueError):
        K.make_multiview_gmm(30, noise=-1)


def test_digits_views():
    views, y = K.digits_views(200, np.random.default_rng(0))
    assert [v.shape for v in views] == [(200, 64), (200, 16), (200, 16)] and y.shape == (200,)
    # orthonormal DCT: the DC coefficient is the image sum / 8; profiles sum to the image total
    assert np.allclose(views[1][:, 0], views[0].sum(1) / 8)
    assert np.allclose(views[2][:, :8].sum(1), views[0].sum(1))
    with pytest.raises(ValueError):
        K.digits_views(5)


def test_standardize_views_uses_observed_rows_only():
    rng = np.random.default_rng(10)
    views = [rng.normal(3, 2, (50, 3)), rng.normal(-1, 5, (50, 2))]
    mask = K.apply_missing_mask(50, 2, 0.4, rng)
    Xs = K.standardize_views(views, mask)
    for v in range(2):
        assert np.allclose(Xs[v][mask[:, v]].mean(0), 0) and np.allclose(Xs[v][mask[:, v]].std(0), 1)
        assert (Xs[v][~mask[:, v]] == 0).all()
    with pytest.raises(ValueError, match="bool"):
        K.standardize_views(views, mask.astype(int))
    bad = mask.copy()
    bad[0] = False
    with pytest.raises(ValueError, match="at least one observed view"):
        K.standardize_views(views, bad)


# ------------------------------------------------------------------------------------------------- the model
def test_recon_loss_ignores_masked_entries():
    rng = np.random.default_rng(11)
    X = [torch.tensor(rng.normal(size=(8, 3))), torch.tensor(rng.normal(size=(8, 2)))]
    R = [torch.tensor(rng.normal(size=(8, 3)), requires_grad=True), torch.tensor(rng.normal(size=(8, 2)), requires_grad=True)]
    M = torch.tensor(K.apply_missing_mask(8, 2, 0.5, np.random.default_rng(1)))
    loss = K.masked_reconstruction_loss(X, R, M)
    loss.backward()
    for v in range(2):
        assert (R[v].grad[~M[:, v]] == 0).all()
        assert (R[v].grad[M[:, v]] != 0).any()
    # changing missing entries leaves the loss unchanged
    X2 = [x.clone() for x in X]
    X2[0][~M[:, 0]] += 100.0
    assert float(K.masked_reconstruction_loss(X2, R, M).detach()) == pytest.approx(float(loss.detach()))
    with pytest.raises(ValueError):
        K.masked_reconstruction_loss(X, R[:1], M)


def test_view_decoders_match_per_view_mlps():
    torch.manual_seed(0)
    dec = K.ViewDecoders(4, [3, 5], hidden=6)
    Z = torch.randn(10, 4)
    outs = dec(Z)
    assert [tuple(o.shape) for o in outs] == [(10, 3), (10, 5)]
    for v, d in enumerate([3, 5]):
        W1 = dec.W1[:, v * 6:(v + 1) * 6]
        ref = torch.relu(Z @ W1 + dec.b1[v * 6:(v + 1) * 6]) @ dec.W2[v, :, :d] + dec.b2[v, :, :d]
        assert torch.allclose(outs[v], ref, atol=1e-6)
    with pytest.raises(ValueError):
        K.ViewDecoders(0, [3])
    with pytest.raises(ValueError):
        dec(torch.randn(10, 3))


def test_fit_imvc_runs_imputes_and_reduces_loss():
    rng = np.random.default_rng(12)
    views, y = K.make_multiview_gmm(80, dims=(6, 8, 10), n_clusters=3, latent_dim=3, rng=rng)
    mask = K.apply_missing_mask(80, 3, 0.3, rng)
    out = K.fit_imvc(views, mask, 3, lam=1.0, n_outer=3, n_inner=20, seed=0)
    assert out["Z"].shape == (80, 3) and [c.shape for c in out["completed"]] == [(80, 6), (80, 8), (80, 10)]
    assert out["history"][-1] < out["history"][0]
    for v in range(3):  # observed rows are kept, missing rows are the decoder's output
        assert np.allclose(out["completed"][v][mask[:, v]], out["standardized"][v][mask[:, v]])
        dec = K.decode_views(out["decoders"], out["Z"])[v]
        assert np.allclose(out["completed"][v][~mask[:, v]], dec[~mask[:, v]], atol=0.5)  # refreshed before the last Z steps
    with pytest.raises(ValueError):
        K.fit_imvc(views, mask, 3, lam=-1.0)


def test_imputation_rmse():
    truth = [np.ones((4, 2)), np.zeros((4, 3))]
    mask = np.array([[True, True], [False, True], [True, False], [True, True]])
    imp = [np.ones((4, 2)) * 3, np.ones((4, 3))]
    # missing entries: view 0 row 1 (2 entries, error 2), view 1 row 2 (3 entries, error 1)
    assert K.imputation_rmse(truth, imp, mask) == pytest.approx(np.sqrt((2 * 4 + 3 * 1) / 5))
    with pytest.raises(ValueError):
        K.imputation_rmse(truth, imp, np.ones((4, 2), bool))


def test_baseline_features_and_pca():
    rng = np.random.default_rng(13)
    views = [rng.normal(size=(30, 4)), rng.normal(size=(30, 5))]
    mask = K.apply_missing_mask(30, 2, 0.3, rng)
    assert K.baseline_features(views, mask, "mean-concat")[0].shape == (30, 9)
    F = K.baseline_features(views, mask, "zero-pca", n_components=3)[0]
    assert F.shape == (30, 3) and np.allclose(F.T @ F, np.diag(np.diag(F.T @ F)))
    assert len(K.baseline_features(views, mask, "single")) == 2
    with pytest.raises(ValueError):
        K.baseline_features(views, mask, "nope")
    with pytest.raises(ValueError):
        K.pca_scores(np.ones((3, 2)), 5)


# ------------------------------------------------------------------------------ scaling and low-rank baseline
def test_scale_views_minmax_and_standard():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(40, 4)) * [1.0, 3.0, 0.5, 2.0] + 7.0
    mask = np.ones((40, 2), bool)
    mask[:10, 0] = False
    obs = X[10:]
    mm = K.scale_views([X, X], mask, "minmax")[0]
    assert np.allclose(mm[10:], (obs - obs.mean(0)) / (obs.max(0) - obs.min(0)))
    assert np.allclose(mm[10:].max(0) - mm[10:].min(0), 1.0) and np.all(mm[:10] == 0.0)
    st = K.scale_views([X, X], mask, "standard")
    assert all(np.array_equal(a, b) for a, b in zip(st, K.standardize_views([X, X], mask)))
    full = K.scale_views([X, X], mask, "minmax", fill_missing=False)[0]
    assert np.allclose(full, (X - obs.mean(0)) / (obs.max(0) - obs.min(0)))
    with pytest.raises(ValueError):
        K.scale_views([X, X], mask, "robust")


def test_lowrank_impute_recovers_a_low_rank_matrix_and_keeps_observed_entries():
    rng = np.random.default_rng(6)
    n, r = 200, 3
    U = rng.normal(size=(n, r))
    views = [U @ rng.normal(size=(r, d)) for d in (10, 12, 8)]
    mask = K.apply_missing_mask(n, 3, 0.3, rng)
    out = K.lowrank_impute(views, mask, rank=r, n_iter=300)
    truth = K.scale_views(views, mask, fill_missing=False)
    Xs = K.standardize_views(views, mask)
    for v in range(3):
        assert np.array_equal(out[v][mask[:, v]], Xs[v][mask[:, v]])
    assert K.imputation_rmse(truth, out, mask) < 1e-3 * K.imputation_rmse(truth, Xs, mask)
    assert np.array_equal(np.concatenate(K.lowrank_impute(views, mask, r, n_iter=0), 1), np.concatenate(Xs, 1))
    F = K.baseline_features(views, mask, "lowrank", n_components=r)[0]
    assert F.shape == (n, 30)
    with pytest.raises(ValueError):
        K.lowrank_impute(views, mask, rank=0)


def test_knn_impute_keeps_observed_entries_and_copies_duplicated_neighbours():
    rng = np.random.default_rng(3)
    base = rng.normal(size=(20, 6))
    X = np.concatenate([base, base], axis=0)  # every sample has an exact twin
    views = [X[:, :3], X[:, 3:]]
    mask = np.ones((40, 2), bool)
    mask[:20:4, 1] = False  # some first copies lose view 2; their twins keep it
    Xs = K.scale_views(views, mask)
    out = K.knn_impute(views, mask, n_neighbors=1)
    assert [o.shape for o in out] == [(40, 3), (40, 3)]
    assert np.array_equal(out[0], Xs[0])
    assert np.array_equal(out[1][mask[:, 1]], Xs[1][mask[:, 1]])
    truth = K.scale_views(views, mask, fill_missing=False)
    assert np.allclose(out[1][~mask[:, 1]], truth[1][~mask[:, 1]])  # the nearest neighbour is the twin
    with pytest.raises(ValueError):
        K.knn_impute(views, mask, n_neighbors=0)
