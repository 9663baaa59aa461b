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
