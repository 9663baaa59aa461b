"""Unit tests of :mod:`repro.papers.nonadaptive_adversarial_faces`, the kernels of ``notebooks/nonadaptive-adversarial-faces.py``."""

import inspect

from repro.papers import nonadaptive_adversarial_faces as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/nonadaptive_adversarial_faces.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"




import numpy as np
import pytest
from scipy.linalg import subspace_angles


def test_no_official_code_so_no_golden_file():
    """The brief found no official repository, so there is no golden file to assert against."""
    from pathlib import Path
    assert not (Path(__file__).parent / "golden" / "nonadaptive-adversarial-faces.json").exists()


def planted_subsphere(rng, n=200, d=20, k=4):
    B = np.linalg.qr(rng.standard_normal((d, k)))[0]
    c = np.linalg.qr(np.concatenate([B, rng.standard_normal((d, 1))], axis=1))[0][:, k] * 0.6
    u = rng.standard_normal((n, k))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    return c + 0.8 * u @ B.T, c, B


def test_fit_subsphere_recovers_planted_centre_basis_radius():
    rng = np.random.default_rng(0)
    F, c, B = planted_subsphere(rng)
    assert np.allclose(np.linalg.norm(F, axis=1), 1)
    fit = K.fit_subsphere(F, 4)
    assert np.max(subspace_angles(fit["basis"], B)) < 1e-6
    # the mean of uniform directions is not exactly zero: the centre is recovered up to its in-plane part
    assert np.allclose(fit["center"] - fit["basis"] @ (fit["basis"].T @ fit["center"]), c, atol=1e-10)
    assert fit["residual"].max() < 1e-10 and fit["explained"] == pytest.approx(1.0)
    assert abs(fit["radius"] - 0.8) < 0.02


def test_fit_subsphere_explained_matches_sklearn_pca():
    from sklearn.decomposition import PCA
    F = np.random.default_rng(1).standard_normal((50, 8))
    assert K.fit_subsphere(F, 3)["explained"] == pytest.approx(PCA(3).fit(F).explained_variance_ratio_.sum())


def test_attack_recovers_target_direction_on_affine_model():
    rng = np.random.default_rng(2)
    k, d = 12, 64
    B = np.linalg.qr(rng.standard_normal((d, k)))[0]
    c = np.linalg.qr(np.concatenate([B, rng.standard_normal((d, 1))], axis=1))[0][:, k]
    f = lambda Z: (c + np.atleast_2d(Z) @ B.T) / np.linalg.norm(c + np.atleast_2d(Z) @ B.T, axis=1, keepdims=True)
    zt = rng.standard_normal(k)
    ft = f(zt)[0]
    # exactly affine scores: <f(t), c + B z> (the unnormalised model), k + 1 generic queries suffice
    Z = rng.standard_normal((k + 1, k))
    zs = K.nonadaptive_attack(lambda Z: (c + Z @ B.T) @ ft, Z, ridge=0.0)
    assert zs @ zt / np.linalg.norm(zs) / np.linalg.norm(zt) > 0.999
    assert np.linalg.norm(zs) == pytest.approx(np.linalg.norm(Z, axis=1).mean())


def test_attack_is_one_batch_and_checks_input():
    calls = []
    Z = np.random.default_rng(3).standard_normal((30, 5))
    K.nonadaptive_attack(lambda Z: calls.append(len(Z)) or Z[:, 0], Z)
    assert calls == [30]
    with pytest.raises(ValueError, match="z_queries"):
        K.nonadaptive_attack(lambda Z: Z[:, 0], Z[:1])
    with pytest.raises(ValueError, match="return"):
        K.nonadaptive_attack(lambda Z: Z, Z)
    with pytest.raises(ValueError, match="beta = 0"):
        K.nonadaptive_attack(lambda Z: np.ones(len(Z)), Z)
    with pytest.raises(ValueError, match="ridge"):
        K.nonadaptive_attack(lambda Z: Z[:, 0], Z, ridge=-1.0)


def test_far_threshold_matches_quantile_and_rate():
    s = np.random.default_rng(4).standard_normal(10000)
    assert K.far_threshold(s, 1e-2) == pytest.approx(np.quantile(s, 0.99))
    assert abs((s > K.far_threshold(s, 1e-2)).mean() - 1e-2) < 2e-4
    with pytest.raises(ValueError, match="far"):
        K.far_threshold(s, 0.0)
    with pytest.raises(ValueError, match="non-empty"):
        K.far_threshold(np.array([]), 0.1)


def test_impostor_scores_brute_force():
    rng = np.random.default_rng(5)
    F = rng.standard_normal((6, 3))
    ids = np.array([0, 0, 1, 1, 2, 2])
    brute = sorted(F[i] @ F[j] for i in range(6) for j in range(i + 1, 6) if ids[i] != ids[j])
    assert np.allclose(sorted(K.impostor_scores(F, ids)), brute)
    with pytest.raises(ValueError):
        K.impostor_scores(F, ids[:3])


def test_generator_and_faces_shapes_and_checks():
    rng = np.random.default_rng(6)
    gen = K.make_generator(12, 2, 4, 32, rng)
    d = K.make_synthetic_faces(5, 3, gen, rng)
    assert d["X"].shape == (15, 32) and np.abs(d["X"]).max() < 1 and d["attrs"].shape == (5, 2)
    with pytest.raises(ValueError, match="binary"):
        K.generate_faces(gen, np.zeros((1, 12)), np.full((1, 2), 0.5), np.zeros((1, 4)))
    with pytest.raises(ValueError, match="shapes"):
        K.generate_faces(gen, np.zeros((1, 11)), np.zeros((1, 2)), np.zeros((1, 4)))
    with pytest.raises(ValueError):
        K.make_generator(0, 2, 4, 32, rng)


def test_frs_features_are_unit_and_training_separates_identities():
    rng = np.random.default_rng(7)
    gen = K.make_generator(4, 1, 2, 32, rng)
    d = K.make_synthetic_faces(10, 4, gen, rng)
    frs = K.train_frs(d["X"], d["ids"], d_feat=8, epochs=150, margin=0.2, seed=0)
    F = frs.features(d["X"])
    assert np.allclose(np.linalg.norm(F, axis=1), 1, atol=1e-6)
    same = (d["ids"][:, None] == d["ids"][None]) & ~np.eye(40, dtype=bool)
    S = F @ F.T
    assert S[same].mean() > S[d["ids"][:, None] != d["ids"][None]].mean() + 0.3
    with pytest.raises(ValueError, match="margin"):
        K.train_frs(d["X"], d["ids"], 8, 1, 1.5, 0)
    with pytest.raises(ValueError):
        K.train_frs(d["X"], d["ids"][:3], 8, 1, 0.2, 0)


def test_topk_centroid_baseline_is_the_mean_of_the_best_queries():
    Z = np.random.default_rng(5).standard_normal((40, 6))
    s = Z[:, 0] - 0.5 * Z[:, 1]
    calls = []
    zs = K.topk_centroid_attack(lambda Z: calls.append(len(Z)) or Z[:, 0] - 0.5 * Z[:, 1], Z, k=7)
    m = Z[np.argsort(-s)[:7]].mean(0)
    assert calls == [40]
    np.testing.assert_allclose(zs, np.linalg.norm(Z, axis=1).mean() * m / np.linalg.norm(m))
    np.testing.assert_allclose(K.topk_centroid_attack(lambda Z: Z[:, 0], Z, k=1, radius=2.0),
                               2.0 * Z[np.argmax(Z[:, 0])] / np.linalg.norm(Z[np.argmax(Z[:, 0])]))
    with pytest.raises(ValueError, match="k must be"):
        K.topk_centroid_attack(lambda Z: Z[:, 0], Z, k=41)
    with pytest.raises(ValueError, match="return"):
        K.topk_centroid_attack(lambda Z: Z, Z)


def test_softmax_weighted_baseline_matches_its_formula_and_limits():
    rng = np.random.default_rng(8)
    Z = rng.standard_normal((50, 6))
    s = Z @ rng.standard_normal(6)
    calls = []
    zs = K.softmax_weighted_attack(lambda Z: calls.append(len(Z)) or Z @ np.zeros(6) + s, Z, temperature=0.5)
    assert calls == [50]
    w = np.array([np.exp((si - s.max()) / (0.5 * s.std())) for si in s])
    m = sum(wi * zi for wi, zi in zip(w, Z))
    np.testing.assert_allclose(zs, np.linalg.norm(Z, axis=1).mean() * m / np.linalg.norm(m))
    # a vanishing temperature keeps only the best query; a huge one gives the plain mean of the batch
    best = Z[np.argmax(s)]
    np.testing.assert_allclose(K.softmax_weighted_attack(lambda Z: s, Z, temperature=1e-6, radius=1.0),
                               best / np.linalg.norm(best), atol=1e-9)
    np.testing.assert_allclose(K.softmax_weighted_attack(lambda Z: s, Z, temperature=1e9, radius=1.0),
                               Z.mean(0) / np.linalg.norm(Z.mean(0)), atol=1e-6)
    with pytest.raises(ValueError, match="temperature"):
        K.softmax_weighted_attack(lambda Z: s, Z, temperature=0.0)
    with pytest.raises(ValueError, match="spread"):
        K.softmax_weighted_attack(lambda Z: np.ones(len(Z)), Z)
    with pytest.raises(ValueError, match="return"):
        K.softmax_weighted_attack(lambda Z: Z, Z)


def test_above_median_weighted_baseline_uses_only_the_upper_half():
    rng = np.random.default_rng(9)
    Z = rng.standard_normal((41, 5))
    s = rng.standard_normal(41)
    zs = K.above_median_weighted_attack(lambda Z: s, Z, radius=3.0)
    med = sorted(s)[20]
    m = sum((si - med) * zi for si, zi in zip(s, Z) if si > med)
    np.testing.assert_allclose(zs, 3.0 * m / np.linalg.norm(m))
    # changing the lower half's latents changes nothing
    Z2 = Z.copy()
    Z2[s <= med] = rng.standard_normal(((s <= med).sum(), 5))
    np.testing.assert_allclose(K.above_median_weighted_attack(lambda Z: s, Z2, radius=3.0), zs)
    with pytest.raises(ValueError, match="median"):
        K.above_median_weighted_attack(lambda Z: np.ones(len(Z)), Z)
    with pytest.raises(ValueError, match="z_queries"):
        K.above_median_weighted_attack(lambda Z: Z[:, 0], Z[:1])
