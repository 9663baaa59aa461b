"""Unit tests of :mod:`repro.papers.compositional_bias_drl`, the kernels of ``notebooks/compositional-bias-drl.py``."""

import inspect
import json
from pathlib import Path

import numpy as np
import pytest
import torch

from repro.papers import compositional_bias_drl as K

GOLDEN = json.loads((Path(__file__).parent / "golden" / "compositional-bias-drl.json").read_text())
CASES = {c["name"]: c for c in GOLDEN["cases"]}


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/compositional_bias_drl.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def test_the_issue_signature():
    assert list(inspect.signature(K.dci_disentanglement).parameters) == ["codes", "factors"]


# ---------------------------------------------------------------- golden (official code)


def test_golden_random_mix_matches_the_authors_slot_mixing():
    c = CASES["random_mix_seed0"]
    s1 = torch.tensor(c["input"]["slot1"], dtype=torch.float64)
    s2 = torch.tensor(c["input"]["slot2"], dtype=torch.float64)
    mask = K.random_block_mask(6, 4, torch.Generator().manual_seed(0))
    assert mask.long().tolist() == c["output"]["b_mask"]
    np.testing.assert_array_equal(K.mix_attributes(s1, s2, mask).numpy(), np.array(c["output"]["slot_mix"]))


def test_golden_dci_gbt_matches_disentanglement_lib():
    c = CASES["dci_gbt_seeded"]
    codes, y = np.array(c["input"]["codes"]).T, np.array(c["input"]["factors"]).T
    R = K.dci_importance(codes, y)
    np.testing.assert_allclose(R, np.array(c["output"]["importance"]), atol=c["tol"])
    d, comp = K.dci_from_importance(R)
    assert d == pytest.approx(c["output"]["disentanglement"], abs=c["tol"])
    assert comp == pytest.approx(c["output"]["completeness"], abs=c["tol"])
    assert K.dci_disentanglement(codes, y) == pytest.approx(c["output"]["disentanglement"], abs=c["tol"])


def test_golden_dci_scores_on_a_fixed_matrix():
    c = CASES["dci_scores_fixed_matrix"]
    d, comp = K.dci_from_importance(np.array(c["input"]["importance"]))
    assert d == pytest.approx(c["output"]["disentanglement"], abs=c["tol"])
    assert comp == pytest.approx(c["output"]["completeness"], abs=c["tol"])


# ---------------------------------------------------------------- data


def test_sprite_grid_is_complete_distinct_and_deterministic():
    imgs, f = K.sprite_grid()
    assert imgs.shape == (432, 3, 16, 16) and f.shape == (432, 4)
    assert len({tuple(r) for r in f}) == 432
    assert len(np.unique(imgs.reshape(432, -1), axis=0)) == 432, "every factor combination renders differently"
    assert imgs.min() >= 0 and imgs.max() <= 1
    np.testing.assert_array_equal(K.render_sprites(f[:5]), imgs[:5])


def test_make_sprites_is_deterministic_and_has_both_modes():
    a, fa = K.make_sprites(20, "attributes", 3)
    b, fb = K.make_sprites(20, "attributes", 3)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(fa, fb)
    o, fo = K.make_sprites(10, "objects", 0)
    assert o.shape == (10, 3, 16, 16) and fo.shape == (10, 3, 3)
    n_obj = (fo[:, :, 0] >= 0).sum(1)
    assert n_obj.min() >= 1 and n_obj.max() <= 3
    assert np.all(o[n_obj == 1].reshape(-1, 3, 256).max(2).min() >= 0)
    with pytest.raises(ValueError, match="mode"):
        K.make_sprites(3, "faces", 0)
    with pytest.raises(ValueError, match="range"):
        K.render_sprites(np.array([[4, 0, 0, 0]]))
    with pytest.raises(ValueError, match="shape"):
        K.render_sprites(np.zeros((2, 3), dtype=int))


# ---------------------------------------------------------------- mixing


def test_attribute_mix_takes_each_block_from_exactly_one_source():
    g = torch.Generator().manual_seed(0)
    za, zb = torch.randn(5, 4, 2, generator=g), torch.randn(5, 4, 2, generator=g)
    mask = K.random_block_mask(5, 4, g)
    mix = K.mix_attributes(za, zb, mask)
    for i in range(5):
        for k in range(4):
            assert torch.equal(mix[i, k], za[i, k] if mask[i, k] else zb[i, k])
    assert torch.equal(K.mix_attributes(za, zb, torch.ones(5, 4, dtype=torch.bool)), za)
    assert torch.equal(K.mix_attributes(za, zb, torch.zeros(5, 4, dtype=torch.bool)), zb)
    with pytest.raises(ValueError, match="mask"):
        K.mix_attributes(za, zb, torch.ones(5, 3, dtype=torch.bool))
    with pytest.raises(ValueError, match="same shape"):
        K.mix_attributes(za, zb[:, :3], mask)


def test_dimension_mix_takes_each_dimension_from_one_source_and_splits_blocks():
    g = torch.Generator().manual_seed(0)
    za, zb = torch.randn(64, 4, 2, generator=g), torch.randn(64, 4, 2, generator=g)
    mask = K.random_dim_mask(64, 4, 2, g)
    assert mask.shape == (64, 4, 2) and mask.dtype == torch.bool
    mix = K.mix_dimensions(za, zb, mask)
    assert torch.equal(mix, torch.where(mask, za, zb))
    assert torch.equal(K.mix_dimensions(za, zb, torch.ones(64, 4, 2, dtype=torch.bool)), za)
    # unlike the block rule, some blocks take their two dimensions from different images
    assert bool((mask[..., 0] != mask[..., 1]).any())
    with pytest.raises(ValueError, match="mask"):
        K.mix_dimensions(za, zb, torch.ones(64, 4, dtype=torch.bool))
    with pytest.raises(ValueError, match="same shape"):
        K.mix_dimensions(za, zb[:, :3], mask)


def test_object_mix_is_a_subset_of_the_union():
    g = torch.Generator().manual_seed(1)
    sa, sb = torch.randn(7, 3, 4, generator=g), torch.randn(7, 3, 4, generator=g)
    mix, idx = K.mix_objects(sa, sb, g)
    assert mix.shape == (7, 3, 4)
    union = torch.cat([sa, sb], 1)
    for i in range(7):
        assert len(set(idx[i].tolist())) == 3, "drawn without replacement"
        rows = {tuple(r.tolist()) for r in union[i]}
        assert all(tuple(r.tolist()) in rows for r in mix[i])
    with pytest.raises(ValueError, match="equal shapes"):
        K.mix_objects(sa, sb[:, :2])


# ---------------------------------------------------------------- losses


def test_consistency_loss_is_zero_for_an_exact_inverse_pair_and_scale_free():
    W = torch.randn(8, 8, generator=torch.Generator().manual_seed(0)) + 3 * torch.eye(8)
    D = lambda z: (z.reshape(len(z), -1) @ W.T)  # noqa: E731
    E = lambda x: torch.linalg.solve(W, x.T).T.reshape(-1, 4, 2)  # noqa: E731
    z = torch.randn(6, 4, 2, generator=torch.Generator().manual_seed(1))
    assert float(K.consistency_loss(E, D, z)) < 1e-8
    E2 = lambda x: 1.1 * E(x)  # noqa: E731
    # ||0.1 z||^2 / total variance: the same for z and for 10 z
    assert float(K.consistency_loss(E2, D, z)) == pytest.approx(float(K.consistency_loss(E2, D, 10 * z)), rel=1e-4)
    raw = float(K.consistency_loss(E2, D, z, normalise=False))
    assert raw == pytest.approx(float((0.01 * z.flatten(1).pow(2).sum(1)).mean()), rel=1e-4)
    with pytest.raises(ValueError, match="z_mix"):
        K.consistency_loss(E, D, z.flatten(1))
    # an already decoded composite (the training loop decodes z_mix once) gives the same loss
    assert float(K.consistency_loss(E2, D, z, decoded=D(z))) == float(K.consistency_loss(E2, D, z))


def test_no_remix_reuses_the_reconstruction_and_sees_the_same_losses_as_an_all_ones_mask():
    """remix='none' decodes z once; its first step's losses equal those of z_mix = mix_attributes(z, ., ones)."""
    imgs, _ = K.sprite_grid()
    X = torch.tensor(imgs)
    prior = K.train_prior_vae(X, 2, latent=3, batch=8, seed=0)
    torch.manual_seed(0)
    net = K.BlockAE(k=4, d=2, hidden=16)
    hist = K.train_model(net, X, "mix", steps=1, batch=8, prior=prior, remix="none", seed=0)
    torch.manual_seed(0)
    ref = K.BlockAE(k=4, d=2, hidden=16)
    x = X[torch.randint(0, len(X), (8,), generator=torch.Generator().manual_seed(0))]
    z = ref.encode(x)
    z_mix = K.mix_attributes(z, torch.roll(z, 4, 0), torch.ones(8, 4, dtype=torch.bool))
    assert torch.equal(z_mix, z)
    with torch.no_grad():
        p_ref = float(K.prior_loss(prior, ref.decode(z_mix)))
        c_ref = float(K.consistency_loss(ref.encode, ref.decode, z_mix))
    assert hist["prior"][0] == pytest.approx(p_ref, rel=1e-6)
    assert hist["cons"][0] == pytest.approx(c_ref, rel=1e-6)


def test_prior_loss_needs_a_frozen_vae_and_is_the_mean_negative_elbo():
    torch.manual_seed(0)
    vae = K.GaussianVAE(latent=3, hidden=16)
    x = torch.rand(4, 3, 16, 16)
    with pytest.raises(ValueError, match="frozen"):
        K.prior_loss(vae, x)
    for p in vae.parameters():
        p.requires_grad_(False)
    mu, logvar = vae.encode_stats(x)
    rec = ((vae.decode(mu) - x) ** 2).flatten(1).sum(1)
    kl = 0.5 * (mu ** 2 + logvar.exp() - 1 - logvar).flatten(1).sum(1)
    assert float(K.prior_loss(vae, x)) == pytest.approx(float((rec + kl).mean()), rel=1e-6)
    xg = x.clone().requires_grad_(True)
    K.prior_loss(vae, xg).backward()
    assert xg.grad is not None and torch.isfinite(xg.grad).all()
    with pytest.raises(ValueError, match="variational"):
        K.negative_elbo(K.BlockAE(), x)


def test_train_model_lowers_the_losses_and_checks_its_arguments():
    imgs, _ = K.sprite_grid()
    X = torch.tensor(imgs[::4])
    prior = K.train_prior_vae(X, 30, latent=4, seed=0)
    torch.manual_seed(0)
    m = K.BlockAE(hidden=32)
    h = K.train_model(m, X, "mix", 60, batch=16, prior=prior, seed=0)
    assert set(h) == {"recon", "prior", "cons", "total"} and len(h["recon"]) == 60
    assert np.mean(h["recon"][-10:]) < np.mean(h["recon"][:10])
    with pytest.raises(ValueError, match="prior"):
        K.train_model(m, X, "mix", 2)
    with pytest.raises(ValueError, match="method"):
        K.train_model(m, X, "vae", 2)
    with pytest.raises(ValueError, match="variational"):
        K.train_model(m, X, "beta-vae", 2)


# ---------------------------------------------------------------- metrics


def test_dci_is_one_for_factors_themselves_and_low_after_a_rotation():
    _, f = K.sprite_grid()
    codes = f.astype(float) + 0.01 * np.random.default_rng(0).standard_normal(f.shape)
    assert K.dci_disentanglement(codes, f) > 0.95
    rot = codes @ K.random_rotation(4, 0)
    assert K.dci_disentanglement(rot, f) < 0.5


def test_dci_from_importance_closed_forms():
    d, c = K.dci_from_importance(np.eye(3))
    assert d == pytest.approx(1.0, abs=1e-8) and c == pytest.approx(1.0, abs=1e-8)
    d, c = K.dci_from_importance(np.ones((3, 3)))
    assert d == pytest.approx(0.0, abs=1e-8) and c == pytest.approx(0.0, abs=1e-8)
    # one code important for both of two factors, one code for nothing: D = 0, C = 1
    d, c = K.dci_from_importance(np.array([[1.0, 1.0], [0.0, 0.0]]))
    assert d == pytest.approx(0.0, abs=1e-8) and c == pytest.approx(1.0, abs=1e-8)
    with pytest.raises(ValueError, match="non-negative"):
        K.dci_from_importance(-np.eye(2))
    with pytest.raises(ValueError, match="equal n"):
        K.dci_importance(np.zeros((3, 2)), np.zeros((4, 2), dtype=int))
    with pytest.raises(ValueError, match="integer"):
        K.dci_importance(np.zeros((3, 2)), np.zeros((3, 2)))


def test_mig_is_high_for_factors_and_low_for_duplicated_codes():
    _, f = K.sprite_grid()
    assert K.mig(f.astype(float), f) > 0.95
    dup = np.repeat(f.astype(float), 2, axis=1)  # each factor in two identical codes: gap 0
    assert K.mig(dup, f) < 1e-9


def test_random_rotation_is_orthogonal_and_seeded():
    q = K.random_rotation(6, 3)
    np.testing.assert_allclose(q @ q.T, np.eye(6), atol=1e-12)
    np.testing.assert_array_equal(q, K.random_rotation(6, 3))


class _Oracle(K.BlockAE):
    """A perfectly disentangled 'model': the code is the factor values, the decoder renders them."""

    def __init__(self):
        super().__init__(k=4, d=1)
        self.imgs, self.f = K.sprite_grid()

    def encode(self, x):
        idx = torch.cdist(x.reshape(len(x), -1), torch.tensor(self.imgs).reshape(432, -1)).argmin(1)
        return torch.tensor(self.f[idx.numpy()], dtype=torch.float32)[..., None]

    def decode(self, z):
        return torch.tensor(K.render_sprites(z[..., 0].round().long().numpy()))


def test_swap_test_and_nearest_factors_on_an_oracle():
    imgs, f = K.sprite_grid()
    X = torch.tensor(imgs)
    np.testing.assert_array_equal(K.nearest_factors(X[:10] + 0.01, X, f), f[:10])
    out = K.swap_test(_Oracle(), X, f, 20, seed=0)
    assert out.shape == (20, 4) and np.all(out == 1), "a disentangled swap changes exactly one factor"
    tr = K.traversal(_Oracle(), X[0], f.astype(float), steps=3)
    assert tr.shape == (4, 3, 3, 16, 16)


def test_kde_prior_loss_lies_between_nearest_distance_and_its_bound():
    """Laplace bounds of the kernel density prior: nearest squared distance <= loss <= that + 2h^2 log N."""
    gen = torch.Generator().manual_seed(0)
    bank = torch.rand(20, 3, 16, 16, generator=gen, dtype=torch.float64)
    x = torch.rand(5, 3, 16, 16, generator=gen, dtype=torch.float64)
    h = 0.7
    nearest = (torch.cdist(x.reshape(5, -1), bank.reshape(20, -1)) ** 2).min(dim=1).values
    per_image = torch.stack([K.kde_prior_loss(bank, x[i:i + 1], bandwidth=h) for i in range(5)])
    assert torch.all(per_image >= nearest - 1e-9)
    assert torch.all(per_image <= nearest + 2 * h ** 2 * np.log(20) + 1e-9)
    assert torch.isclose(K.kde_prior_loss(bank, x, bandwidth=h), per_image.mean())
    # a real image of the bank sits close to its own kernel: loss <= 2h^2 log N
    assert K.kde_prior_loss(bank, bank[:1], bandwidth=h) <= 2 * h ** 2 * np.log(20) + 1e-9
    with pytest.raises(ValueError):
        K.kde_prior_loss(bank, x[:, :, :8], bandwidth=h)
    with pytest.raises(ValueError):
        K.kde_prior_loss(bank, x, bandwidth=0.0)


# ---------------------------------------------------------------- the comparators


def test_train_model_without_remix_sees_the_same_batches_and_scores_the_own_code():
    """remix='none' (the ablation) and remix='dims' (the per-dimension remix): the same batch stream as the
    mixing run; with 'none', z_mix = z at every step."""
    import copy

    imgs, _ = K.sprite_grid()
    X = torch.tensor(imgs[::4])
    prior = K.train_prior_vae(X, 20, latent=4, seed=0)
    torch.manual_seed(0)
    m0 = K.BlockAE(hidden=32)
    runs = {}
    for remix in ("attributes", "none", "dims"):  # with zero weights the two losses cannot move the network
        m = copy.deepcopy(m0)
        runs[remix] = K.train_model(m, X, "mix", 15, batch=16, prior=prior, lam_prior=0.0, lam_cons=0.0, seed=3,
                                    remix=remix)
    assert runs["attributes"]["recon"] == runs["none"]["recon"], "the ablation must see the mixing run's batches"
    assert runs["attributes"]["recon"] == runs["dims"]["recon"], "the per-dimension remix must see them too"
    assert runs["attributes"]["prior"] != runs["dims"]["prior"], "the remixes must differ"
    m = copy.deepcopy(m0)
    idx = torch.randint(0, len(X), (16,), generator=torch.Generator().manual_seed(3))  # the first batch
    with torch.no_grad():
        z = m.encode(X[idx])
        p0 = float(K.prior_loss(prior, m.decode(z)))
        c0 = float(K.consistency_loss(m.encode, m.decode, z))
    h = K.train_model(m, X, "mix", 1, batch=16, prior=prior, seed=3, remix="none")
    assert h["prior"][0] == pytest.approx(p0, rel=1e-5) and h["cons"][0] == pytest.approx(c0, rel=1e-5)
    with pytest.raises(ValueError, match="remix"):
        K.train_model(m, X, "mix", 1, prior=prior, remix="pixels")


def test_recording_remix_losses_leaves_the_beta_vae_training_unchanged():
    import copy

    imgs, _ = K.sprite_grid()
    X = torch.tensor(imgs[::4])
    prior = K.train_prior_vae(X, 20, latent=4, seed=0)
    torch.manual_seed(1)
    v0 = K.BlockAE(hidden=32, variational=True)
    plain = K.train_model(copy.deepcopy(v0), X, "beta-vae", 12, batch=16, seed=2)
    rec = K.train_model(copy.deepcopy(v0), X, "beta-vae", 12, batch=16, seed=2, prior=prior)
    assert plain["recon"] == rec["recon"] and plain["total"] == rec["total"]
    assert np.all(np.isnan(plain["prior"])) and np.all(np.isfinite(rec["prior"])) and np.all(np.isfinite(rec["cons"]))


def test_linear_codes_are_sklearns_pca_and_fastica():
    from sklearn.decomposition import PCA, FastICA

    imgs, f = K.sprite_grid()
    X = torch.tensor(imgs)
    flat = imgs.reshape(len(imgs), -1).astype(float)
    pca = K.fit_linear_code(imgs, "pca")
    ref = PCA(n_components=8, svd_solver="full").fit(flat)
    np.testing.assert_allclose(K.codes_of(pca, X), ref.transform(flat), atol=1e-4)
    np.testing.assert_allclose(pca.decode(pca.encode(X)).numpy().reshape(len(imgs), -1),
                               np.clip(ref.inverse_transform(ref.transform(flat)), 0, 1), atol=1e-4)
    ica = K.fit_linear_code(imgs, "ica", seed=1)
    ref = FastICA(n_components=8, whiten="unit-variance", random_state=1, max_iter=1000).fit(flat)
    np.testing.assert_allclose(K.codes_of(ica, X), ref.transform(flat), atol=1e-4)
    assert ica.encode(X[:5]).shape == (5, 4, 2) and ica.decode(ica.encode(X[:5])).shape == (5, 3, 16, 16)
    assert K.swap_test(pca, X, f, 10, seed=0).shape == (10, 4)


def test_pca_code_reconstructs_data_in_an_eight_dimensional_subspace_exactly():
    rng = np.random.default_rng(0)
    basis = rng.random((8, 3 * 16 * 16)) / 8
    x = (rng.random((40, 8)) @ basis + 0.1).reshape(40, 3, 16, 16)  # inside [0, 1]: no clipping
    code = K.fit_linear_code(x, "pca", k=4, d=2)
    xt = torch.tensor(x, dtype=torch.float32)
    np.testing.assert_allclose(code.decode(code.encode(xt)).numpy(), x, atol=1e-5)


def test_linear_codes_check_their_inputs():
    imgs, _ = K.sprite_grid()
    with pytest.raises(ValueError, match="method"):
        K.fit_linear_code(imgs, "nmf")
    with pytest.raises(ValueError, match="shape"):
        K.fit_linear_code(imgs[:, :2], "pca")
    with pytest.raises(ValueError, match="more than"):
        K.fit_linear_code(imgs[:8], "pca")
    with pytest.raises(ValueError, match="unmixing"):
        K.LinearCode(np.zeros((8, 10)), np.zeros((10, 7)), np.zeros(10), 4, 2)


# ---------------------------------------------------------------- collapse diagnostics


class _Constant:
    """A collapsed network: every code is 0 and decodes to the mean image of the sprites."""

    k = 4

    def __init__(self, images):
        self.mean = images.mean(0, keepdim=True)

    def encode(self, x):
        return torch.zeros(len(x), 4, 2)

    def decode(self, z):
        return self.mean.expand(len(z), -1, -1, -1)


def test_readback_is_one_for_an_oracle_and_one_over_n_for_a_collapsed_network():
    imgs, f = K.sprite_grid()
    X = torch.tensor(imgs)
    assert K.readback_accuracy(_Oracle(), X, f) == 1.0
    assert K.readback_accuracy(_Constant(X), X, f) == pytest.approx(1 / 432)
    pca = K.fit_linear_code(imgs, "pca", 4, 2)  # brute force: the same read-out, written out
    read = K.nearest_factors(pca.decode(pca.encode(X)), X, f)
    assert K.readback_accuracy(pca, X, f) == pytest.approx(np.mean([np.array_equal(r, t) for r, t in zip(read, f)]))
    with pytest.raises(ValueError):
        K.readback_accuracy(_Oracle(), X, f[:10])


def test_code_spread_is_the_mean_standard_deviation_and_zero_for_constant_codes():
    rng = np.random.default_rng(0)
    c = rng.standard_normal((500, 3)) * np.array([1.0, 2.0, 3.0])
    assert K.code_spread(c) == pytest.approx(np.mean([np.std(c[:, j]) for j in range(3)]))
    assert K.code_spread(np.ones((10, 8))) == 0.0
    assert K.code_spread(3.0 * c) == pytest.approx(3.0 * K.code_spread(c)), "scale-dependent by design"
    for bad in (np.ones(5), np.ones((1, 4)), np.array([[np.nan, 1.0], [0.0, 1.0]])):
        with pytest.raises(ValueError):
            K.code_spread(bad)


def test_swap_histogram_counts_shares_of_changed_factors():
    h = K.swap_histogram(np.array([[0, 1], [1, 4]]))
    np.testing.assert_allclose(h, [0.25, 0.5, 0.0, 0.0, 0.25])
    assert K.swap_histogram(np.zeros((3, 4), dtype=int))[0] == 1.0
    for bad in (np.array([5]), np.array([-1]), np.array([0.5]), np.array([], dtype=int)):
        with pytest.raises(ValueError):
            K.swap_histogram(bad)


def test_swap_test_draws_again_when_the_first_candidates_are_too_few():
    """Seed 14: only 56 of the first 240 candidate pairs differ in every factor; 60 pairs are still returned."""
    imgs, f = K.sprite_grid()
    rng = np.random.default_rng(14)
    a, b = rng.integers(0, 432, 240), rng.integers(0, 432, 240)
    assert np.all(f[a] != f[b], axis=1).sum() < 60
    out = K.swap_test(_Oracle(), torch.tensor(imgs), f, 60, seed=14)
    assert out.shape == (60, 4) and np.all(out == 1)
