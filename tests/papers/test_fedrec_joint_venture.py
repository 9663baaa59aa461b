"""Unit tests of :mod:`repro.papers.fedrec_joint_venture`, the kernels of ``notebooks/fedrec-joint-venture.py``."""

import inspect

import numpy as np
import pytest

from repro.papers import fedrec_joint_venture as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/fedrec_joint_venture.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def test_no_golden_file_because_no_official_code():
    """The brief names no official repository ("Open Source Code: No"), so no golden cross-check exists."""
    from pathlib import Path
    assert not (Path(__file__).parent / "golden" / "fedrec-joint-venture.json").exists()


def test_mf_recovers_a_noiseless_dense_low_rank_matrix():
    rng = np.random.default_rng(0)
    R = 3.0 + rng.standard_normal((40, 3)) @ rng.standard_normal((3, 30))
    mask = np.ones_like(R, bool)
    U, V, mu = K.mf_train(R, mask, 4, 1e-6, 100)  # rank 4: the centred matrix is rank 3 + a constant
    assert K.rmse(mu + U @ V.T, R, mask) < 0.05


def test_fedavg_over_identical_clients_equals_centralised_training():
    d = K.make_jv_ratings(30, 20, 2, 1.0, 1.0, 2, 0.5, seed=1, scale_spread=0.0)
    d["R"][1], d["train"][1] = d["R"][0], d["train"][0]
    Us, V, mus = K.fedmf_train(d, 2, 0.5, rounds=5, seed=3)
    V0 = np.random.default_rng(3).standard_normal((20, 2)) * 0.1
    U, Vc, mu = K.mf_train(d["R"][0], d["train"][0], 2, 0.5, 5, item_init=V0)
    np.testing.assert_allclose(V, Vc, atol=1e-10)
    np.testing.assert_allclose(Us[0], U, atol=1e-10)
    np.testing.assert_allclose(Us[1], U, atol=1e-10)


def test_fedavg_weights_item_by_item():
    V1, V2 = np.zeros((2, 1)), np.ones((2, 1))
    out = K.fedavg_items([V1, V2], [np.array([1.0, 0.0]), np.array([3.0, 0.0])])
    np.testing.assert_allclose(out, [[0.75], [0.5]])
    with pytest.raises(ValueError, match="non-negative"):
        K.fedavg_items([V1, V2], [np.array([-1.0, 0.0]), np.array([1.0, 0.0])])


def test_match_users_recovers_a_permutation():
    rng = np.random.default_rng(2)
    Pa = rng.standard_normal((25, 4))
    perm = rng.permutation(25)
    idx, sims = K.match_users(Pa, Pa[perm], 1)
    np.testing.assert_array_equal(perm[idx[:, 0]], np.arange(25))
    np.testing.assert_allclose(sims, 1.0)
    with pytest.raises(ValueError, match="exceeds"):
        K.match_users(Pa, Pa, 26)


def test_bridge_is_exact_for_a_linear_relation_and_identity_is_identity():
    rng = np.random.default_rng(3)
    P, M = rng.standard_normal((30, 4)), rng.standard_normal((4, 4))
    np.testing.assert_allclose(K.fit_bridge(P, P @ M)(P), P @ M, atol=1e-10)
    np.testing.assert_array_equal(K.fit_bridge(P, P @ M, "identity")(P), P)
    with pytest.raises(ValueError, match="kind"):
        K.fit_bridge(P, P, "mlp")


def test_distill_preference_is_deterministic_and_solves_the_ridge_problem():
    rng = np.random.default_rng(4)
    V = rng.standard_normal((50, 6))
    B = K.preference_basis(V, 3)
    np.testing.assert_allclose(B.T @ B, np.eye(3), atol=1e-12)
    r = 3 + rng.standard_normal(50)
    m = rng.random(50) < 0.6
    p1 = K.distill_preference(B, V, r, m, 3.0, reg=0.1, steps=2000)
    p2 = K.distill_preference(B, V, r, m, 3.0, reg=0.1, steps=2000)
    np.testing.assert_array_equal(p1, p2)
    X, y = V[m] @ B, r[m] - 3.0
    closed = np.linalg.solve(X.T @ X / m.sum() + 0.1 * np.eye(3), X.T @ y / m.sum())
    np.testing.assert_allclose(p1, closed, atol=1e-6)
    with pytest.raises(ValueError, match="exceeds"):
        K.preference_basis(V, 7)


def test_attacker_error_is_zero_at_full_rank_and_the_missing_energy_below():
    rng = np.random.default_rng(5)
    U = rng.standard_normal((200, 8))
    Q = np.linalg.qr(rng.standard_normal((8, 8)))[0]
    assert K.attacker_error(U, Q, U @ Q) < 1e-10
    B = Q[:, :4]
    err = K.attacker_error(U, B, U @ B)
    brute = np.median(np.linalg.norm(U @ Q[:, 4:], axis=1) / np.linalg.norm(U, axis=1))
    assert err == pytest.approx(brute)


def test_rmse_and_pair_order():
    t = np.array([[1.0, 2.0, 3.0]])
    m = np.ones_like(t, bool)
    assert K.rmse(t + 1, t, m) == pytest.approx(1.0)
    assert K.pair_order_accuracy(t, t, m) == 1.0
    assert K.pair_order_accuracy(-t, t, m) == 0.0
    with pytest.raises(ValueError, match="empty"):
        K.rmse(t, t, ~m)


def test_generator_structure_and_bad_input():
    d = K.make_jv_ratings(100, 50, 3, 0.3, 0.6, 4, 0.3, seed=0)
    assert d["overlap"].sum() == 30 and d["users"][:, d["overlap"]].all()
    assert (d["users"][:, ~d["overlap"]].sum(0) == 1).all()
    assert (d["items"].sum(1) == 30).all()
    assert not (d["train"] & d["test"]).any()
    obs = d["train"] | d["test"]
    assert set(np.unique(d["R"][obs])) <= {1.0, 2.0, 3.0, 4.0, 5.0}
    assert not (obs & ~d["users"][:, :, None]).any() and not (obs & ~d["items"][:, None, :]).any()
    with pytest.raises(ValueError, match="at least 2"):
        K.make_jv_ratings(10, 10, 1, 0.3, 0.6, 2, 0.3, seed=0)
    with pytest.raises(ValueError, match="density"):
        K.make_jv_ratings(10, 10, 2, 0.3, 0.6, 2, 1.3, seed=0)


def test_frjve_without_overlap_changes_nothing_and_with_overlap_links_exactly_the_shared_users():
    d = K.make_jv_ratings(60, 40, 2, 0.0, 0.8, 3, 0.4, seed=6)
    U, V, mu = K.fedmf_train(d, 3, 1.0, 3)
    out = K.frjve_predict(d, U, V, mu, 2)
    assert not out["matched"].any()
    np.testing.assert_allclose(out["pred"][0], mu[0] + U[0] @ V.T)
    d = K.make_jv_ratings(60, 40, 2, 0.5, 0.8, 3, 0.4, seed=6)
    U, V, mu = K.fedmf_train(d, 3, 1.0, 3)
    out = K.frjve_predict(d, U, V, mu, 2)
    np.testing.assert_array_equal(out["matched"][0], d["overlap"])
    with pytest.raises(ValueError, match="link"):
        K.frjve_predict(d, U, V, mu, 2, link="ids")


def test_batched_ridge_rows_match_one_solve_per_row():
    rng = np.random.default_rng(7)
    R, F = rng.standard_normal((20, 15)), rng.standard_normal((15, 4))
    mask = rng.random((20, 15)) < 0.4
    mask[3] = False
    out = K._solve_rows(R, mask, F, 0.5)
    for i in range(20):
        Fm = F[mask[i]]
        want = np.linalg.solve(Fm.T @ Fm + 0.5 * np.eye(4), Fm.T @ R[i, mask[i]]) if mask[i].any() else np.zeros(4)
        np.testing.assert_allclose(out[i], want, atol=1e-12)


def test_batched_distillation_matches_one_user_at_a_time_and_zero_without_ratings():
    rng = np.random.default_rng(8)
    V = rng.standard_normal((40, 6))
    B = K.preference_basis(V, 3)
    R = 3 + rng.standard_normal((12, 40))
    mask = rng.random((12, 40)) < 0.5
    mask[4] = False
    P = K.distill_preferences(B, V, R, mask, 3.0, reg=0.1, steps=300)
    for u in range(12):
        X, y = V[mask[u]] @ B, R[u, mask[u]] - 3.0
        if mask[u].any():
            closed = np.linalg.solve(X.T @ X / mask[u].sum() + 0.1 * np.eye(3), X.T @ y / mask[u].sum())
            np.testing.assert_allclose(P[u], closed, atol=1e-6)
        np.testing.assert_allclose(P[u], K.distill_preference(B, V, R[u], mask[u], 3.0, reg=0.1, steps=300),
                                   atol=1e-13)
    np.testing.assert_array_equal(P[4], 0.0)
    with pytest.raises(ValueError, match="shapes"):
        K.distill_preferences(B, V[:5], R, mask, 3.0)


def _small_venture(overlap=0.5, seed=6):
    d = K.make_jv_ratings(60, 40, 2, overlap, 0.8, 3, 0.4, seed=seed)
    U, V, mu = K.fedmf_train(d, 3, 1.0, 3)
    return d, U, V, mu


def test_frjve_reuses_preferences_and_random_links_are_seeded():
    d, U, V, mu = _small_venture()
    prefs = K.client_preferences(d, V, mu, 2)
    np.testing.assert_array_equal(K.frjve_predict(d, U, V, mu, 2, prefs=prefs)["pred"],
                                  K.frjve_predict(d, U, V, mu, 2)["pred"])
    a = K.frjve_predict(d, U, V, mu, 2, link="random", link_seed=1, prefs=prefs)
    b = K.frjve_predict(d, U, V, mu, 2, link="random", link_seed=1, prefs=prefs)
    c = K.frjve_predict(d, U, V, mu, 2, link="random", link_seed=2, prefs=prefs)
    np.testing.assert_array_equal(a["pred"], b["pred"])
    assert not np.array_equal(a["match_idx"], c["match_idx"])
    idx = a["match_idx"][0, d["users"][0], 1, 0]
    assert np.all((idx == -1) | d["users"][1][np.maximum(idx, 0)])  # partners are users of the other client
    with pytest.raises(ValueError, match="prefs"):
        K.frjve_predict(d, U, V, mu, 3, prefs=prefs)


def test_pooling_embeddings_moves_only_shared_users_and_only_inside_the_basis():
    d, U, V, mu = _small_venture()
    shared = d["overlap"]
    base = np.stack([mu[k] + U[k] @ V.T for k in range(2)])
    full = K.pool_embeddings_predict(d, U, V, mu, None, alpha=1.0)
    mean = (U[0] + U[1]) / 2
    np.testing.assert_allclose(full[0][shared], mu[0] + mean[shared] @ V.T, atol=1e-12)
    np.testing.assert_allclose(full[:, ~shared], base[:, ~shared], atol=1e-12)
    Bb = K.preference_basis(V, 2)
    proj = K.pool_embeddings_predict(d, U, V, mu, Bb, alpha=0.5)
    moved = U[0] + 0.5 * (mean - U[0]) @ Bb @ Bb.T
    np.testing.assert_allclose(proj[0][shared], mu[0] + moved[shared] @ V.T, atol=1e-12)
    np.testing.assert_allclose(K.pool_embeddings_predict(d, U, V, mu, None, alpha=0.0), base, atol=1e-12)
    with pytest.raises(ValueError, match="alpha"):
        K.pool_embeddings_predict(d, U, V, mu, None, alpha=1.5)
    with pytest.raises(ValueError, match="basis"):
        K.pool_embeddings_predict(d, U, V, mu, np.eye(5)[:, :2])


def test_tuned_ridge_never_looks_at_the_test_ratings():
    d, *_ = _small_venture(seed=9)
    reg, errs = K.tune_ridge(d, 3, (0.3, 1.0, 3.0), rounds=3, seed=4)
    assert reg == (0.3, 1.0, 3.0)[int(np.argmin(errs))] and len(errs) == 3
    spoiled = dict(d, R=np.where(d["test"], 99.0, d["R"]))
    assert K.tune_ridge(spoiled, 3, (0.3, 1.0, 3.0), rounds=3, seed=4) == (reg, errs)
    with pytest.raises(ValueError, match="grid"):
        K.tune_ridge(d, 3, (), rounds=3)


def test_run_joint_venture_reports_every_method_on_one_venture():
    res = K.run_joint_venture(60, 40, 2, 0.3, 0.6, 3, 0.4, n_levels=2, reg=1.0, rounds=2, seed=0,
                              ridge_grid=(1.0,))
    assert res["reg_tuned"] == 1.0
    assert res["FedMF, tuned ridge"] == res["FedMF"] == res["tuned: FedMF"]
    assert res["tuned: FR-JVE-lite"] == res["FR-JVE-lite"]
    for name in ("Local-MF", "Centralised MF", "FR-JVE-lite, identity bridge", "FR-JVE-lite, similarity links",
                 "FR-JVE-lite, random links", "Shared projection", "Shared embeddings", "FedMF + Local-MF",
                 "tuned: shared projection", "tuned: FedMF + Local-MF", "Mean rating"):
        assert set(res[name]) == {"overlap", "exclusive", "all", "order"}
    assert res["FR-JVE-lite"]["exclusive"] == pytest.approx(res["FedMF"]["exclusive"])  # only shared users move
    assert 0 < res["privacy_full_rank"] < res["privacy"]
    for name in ("FedMF, 3x rounds", "Local-MF, tuned ridge", "Shrunk shared embeddings", "Shrunk shared projection",
                 "tuned: FedMF, 3x rounds", "3x rounds: FR-JVE-lite", "3x rounds: FR-JVE-lite, identity bridge",
                 "3x rounds: shared projection", "FR-JVE-lite, similarity links, k=5",
                 "FR-JVE-lite, similarity links, k=10"):
        assert set(res[name]) == {"overlap", "exclusive", "all", "order"}
    assert res["Local-MF, tuned ridge"] == res["Local-MF"] and res["reg_local_tuned"] == 1.0  # one-value grid
    assert res["tuned: FedMF, 3x rounds"] == res["FedMF, 3x rounds"] == res["3x rounds: FedMF"]
    assert res["Shrunk shared embeddings"]["exclusive"] == pytest.approx(res["FedMF"]["exclusive"])
    assert 0 <= res["link_accuracy"] <= 1 and 0 < res["link_chance"] < 1 and res["ratings_per_shared_copy"] > 0
    assert 0 < res["privacy_projection"] < 1 and 0 < res["privacy_full_rank_noridge"] < 1


def test_shrinkage_is_pooling_with_zero_partners_and_moves_only_shared_users():
    d, U, V, mu = _small_venture()
    Bb = K.preference_basis(V, 2)
    for basis in (None, Bb):
        got = K.shrink_shared_predict(d, U, V, mu, basis, alpha=0.5)
        for k in range(2):
            alone = [U[j] if j == k else np.zeros_like(U[j]) for j in range(2)]
            want = K.pool_embeddings_predict(d, alone, V, mu, basis, alpha=0.5)[k]
            np.testing.assert_allclose(got[k], want, atol=1e-12)
    shared = d["overlap"]
    np.testing.assert_allclose(K.shrink_shared_predict(d, U, V, mu, None, 0.5)[0][shared],
                               mu[0] + 0.75 * U[0][shared] @ V.T, atol=1e-12)  # two clients: a quarter off
    base = np.stack([mu[k] + U[k] @ V.T for k in range(2)])
    np.testing.assert_allclose(K.shrink_shared_predict(d, U, V, mu, None, 0.5)[:, ~shared], base[:, ~shared])
    with pytest.raises(ValueError, match="alpha"):
        K.shrink_shared_predict(d, U, V, mu, None, alpha=-0.1)


def test_link_accuracy_counts_top1_partners_that_are_the_same_user():
    overlap = np.array([True, True, False, True])
    midx = -np.ones((2, 4, 2, 1), int)
    midx[0, :, 1, 0] = [0, 3, 2, 3]  # users 0 and 3 right, user 1 wrong
    midx[1, :, 0, 0] = [1, 1, 2, 0]  # user 1 right, users 0 and 3 wrong
    assert K.link_accuracy(midx, overlap) == pytest.approx(3 / 6)
    with pytest.raises(ValueError, match="match_idx"):
        K.link_accuracy(midx[0], overlap)
    with pytest.raises(ValueError, match="shared"):
        K.link_accuracy(midx, np.zeros(4, bool))


def test_local_mf_is_per_client_mf_and_its_tuned_ridge_never_looks_at_the_test_ratings():
    d, *_ = _small_venture(seed=9)
    pred = K.local_mf_predict(d, 3, 1.0, 2, seed=5)
    U, V, mu = K.mf_train(d["R"][1], d["train"][1], 3, 1.0, 2, seed=5)
    np.testing.assert_allclose(pred[1], mu + U @ V.T)
    reg, errs = K.tune_ridge(d, 3, (0.3, 1.0, 3.0), rounds=3, seed=4, model="local")
    assert reg == (0.3, 1.0, 3.0)[int(np.argmin(errs))]
    spoiled = dict(d, R=np.where(d["test"], 99.0, d["R"]))
    assert K.tune_ridge(spoiled, 3, (0.3, 1.0, 3.0), rounds=3, seed=4, model="local") == (reg, errs)
    with pytest.raises(ValueError, match="model"):
        K.tune_ridge(d, 3, (1.0,), rounds=3, model="central")
