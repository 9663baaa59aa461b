"""Unit tests of :mod:`repro.papers.clvs_variable_similarity`, the kernels of ``notebooks/clvs-variable-similarity.py``.

The brief names no official repository (none was found), so there is no golden file; the loss is checked against
its closed forms: alpha = 0 is SimCLR's NT-Xent, and a brute-force per-anchor sum on a tiny batch. The
comparators' kernels (PCA features, the weighted NT-Xent, the occluded ink) are checked against scikit-learn,
NT-Xent and by construction.
"""

import inspect

import numpy as np
import pytest
import torch
from scipy.stats import spearmanr

from repro import ssl
from repro.papers import clvs_variable_similarity as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/clvs_variable_similarity.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def test_nt_xent_is_the_shared_one_with_the_issue_signature():
    assert K.nt_xent is ssl.nt_xent
    assert list(inspect.signature(K.nt_xent).parameters) == ["z1", "z2", "tau"]


def _brute_nt_xent(z1, z2, tau):
    z = torch.cat([z1, z2]).double()
    z = z / z.norm(dim=1, keepdim=True)
    n2 = z.shape[0]
    total = 0.0
    for k in range(n2):
        pos = (k + n2 // 2) % n2
        den = sum(np.exp(float(z[k] @ z[m]) / tau) for m in range(n2) if m != k)
        total += -np.log(np.exp(float(z[k] @ z[pos]) / tau) / den)
    return total / n2


def test_nt_xent_against_a_brute_force_sum():
    g = torch.Generator().manual_seed(0)
    z1, z2 = torch.randn(4, 3, generator=g, dtype=torch.float64), torch.randn(4, 3, generator=g, dtype=torch.float64)
    assert float(K.nt_xent(z1, z2, 0.5)) == pytest.approx(_brute_nt_xent(z1, z2, 0.5), rel=1e-12)


def test_variable_similarity_is_symmetric_and_strictly_decreasing():
    e = torch.linspace(0, 1, 11, dtype=torch.float64)
    a, b = torch.meshgrid(e, e, indexing="ij")
    s = K.variable_similarity(a.reshape(-1), b.reshape(-1), 0.5).reshape(11, 11)
    assert torch.equal(s, s.T)
    assert bool((s[1:, :] < s[:-1, :]).all()) and bool((s[:, 1:] < s[:, :-1]).all())
    assert float(s[0, 0]) == 1.0 and float(s[-1, -1]) == pytest.approx(0.5)
    assert torch.equal(K.variable_similarity(a.reshape(-1), b.reshape(-1), 0.0), torch.ones(121, dtype=torch.float64))


def test_soft_targets_rows_are_distributions_with_mass_s_on_the_positive():
    s = torch.tensor([1.0, 0.8, 0.6], dtype=torch.float64)
    t = K.soft_targets(s)
    assert t.shape == (6, 6)
    assert torch.allclose(t.sum(1), torch.ones(6, dtype=torch.float64), atol=1e-15)
    assert torch.equal(torch.diagonal(t), torch.zeros(6, dtype=torch.float64))
    for k in range(6):
        assert float(t[k, (k + 3) % 6]) == float(s[k % 3])
        others = [float(t[k, m]) for m in range(6) if m not in (k, (k + 3) % 6)]
        assert others == pytest.approx([(1 - float(s[k % 3])) / 4] * 4, abs=1e-15)


def test_clvs_loss_with_alpha_zero_equals_nt_xent():
    g = torch.Generator().manual_seed(1)
    z1, z2 = torch.randn(16, 8, generator=g, dtype=torch.float64), torch.randn(16, 8, generator=g, dtype=torch.float64)
    e1, e2 = torch.rand(16, generator=g, dtype=torch.float64), torch.rand(16, generator=g, dtype=torch.float64)
    assert float(K.clvs_loss(z1, z2, e1, e2, 0.2, 0.0)) == pytest.approx(float(K.nt_xent(z1, z2, 0.2)), rel=1e-13)


def test_clvs_loss_against_a_brute_force_cross_entropy():
    g = torch.Generator().manual_seed(2)
    n, tau, alpha = 3, 0.3, 0.6
    z1, z2 = torch.randn(n, 4, generator=g, dtype=torch.float64), torch.randn(n, 4, generator=g, dtype=torch.float64)
    e1, e2 = torch.rand(n, generator=g, dtype=torch.float64), torch.rand(n, generator=g, dtype=torch.float64)
    z = torch.cat([z1, z2])
    z = z / z.norm(dim=1, keepdim=True)
    s = 1 - alpha * (e1 + e2) / 2
    total = 0.0
    for k in range(2 * n):
        others = [m for m in range(2 * n) if m != k]
        logits = np.array([float(z[k] @ z[m]) / tau for m in others])
        logp = logits - np.log(np.exp(logits).sum())
        target = np.array([float(s[k % n]) if m == (k + n) % (2 * n) else (1 - float(s[k % n])) / (2 * n - 2)
                           for m in others])
        total += -(target * logp).sum()
    assert float(K.clvs_loss(z1, z2, e1, e2, tau, alpha)) == pytest.approx(total / (2 * n), rel=1e-12)


def test_clvs_loss_is_finite_for_identical_views_and_has_gradients():
    z = torch.randn(8, 5, generator=torch.Generator().manual_seed(3), requires_grad=True)
    e = torch.full((8,), 0.5)
    loss = K.clvs_loss(z, z, e, e, 0.1, 0.5)
    loss.backward()
    assert torch.isfinite(loss) and torch.isfinite(z.grad).all()


def test_weaker_target_pulls_the_positive_less():
    # d loss / d (positive logit) = p_pos - s: a lower target similarity gives a smaller pull.
    z1 = torch.randn(6, 4, generator=torch.Generator().manual_seed(4), dtype=torch.float64)
    z2 = (z1 + 0.1 * torch.randn(6, 4, generator=torch.Generator().manual_seed(5), dtype=torch.float64))
    grads = []
    for extent in (0.0, 1.0):
        zz = z2.clone().requires_grad_(True)
        e = torch.full((6,), extent, dtype=torch.float64)
        K.clvs_loss(z1, zz, e, e, 0.5, 0.8).backward()
        grads.append(float(zz.grad.norm()))
    assert grads[1] != grads[0]


def test_weighted_nt_xent_with_constant_weights_is_nt_xent():
    g = torch.Generator().manual_seed(11)
    z1, z2 = torch.randn(16, 8, generator=g, dtype=torch.float64), torch.randn(16, 8, generator=g, dtype=torch.float64)
    for c in (1.0, 0.3):
        w = torch.full((16,), c, dtype=torch.float64)
        assert float(K.weighted_nt_xent(z1, z2, w, 0.2)) == pytest.approx(float(K.nt_xent(z1, z2, 0.2)), rel=1e-13)


def test_weighted_nt_xent_against_a_brute_force_weighted_sum():
    g = torch.Generator().manual_seed(12)
    n, tau = 3, 0.4
    z1, z2 = torch.randn(n, 4, generator=g, dtype=torch.float64), torch.randn(n, 4, generator=g, dtype=torch.float64)
    w = torch.tensor([1.0, 0.5, 0.0], dtype=torch.float64)            # a zero weight drops that pair's two terms
    z = torch.cat([z1, z2])
    z = z / z.norm(dim=1, keepdim=True)
    num = den = 0.0
    for k in range(2 * n):
        logits = {m: float(z[k] @ z[m]) / tau for m in range(2 * n) if m != k}
        term = -(logits[(k + n) % (2 * n)] - np.log(sum(np.exp(v) for v in logits.values())))
        num += float(w[k % n]) * term
        den += float(w[k % n])
    assert float(K.weighted_nt_xent(z1, z2, w, tau)) == pytest.approx(num / den, rel=1e-12)


def test_weighted_objective_trains_and_mild_views_change_the_training():
    x = torch.rand(40, 8, 8, generator=torch.Generator().manual_seed(13))
    _, h_w = K.train_encoder(x, "NT-Xent weighted", 0, epochs=2, batch_size=16, rep_dim=4)
    _, h_s = K.train_encoder(x, "SimCLR", 0, epochs=2, batch_size=16, rep_dim=4)
    assert np.all(np.isfinite(h_w)) and h_w != h_s
    _, h_m = K.train_encoder(x, "SimCLR", 0, epochs=2, batch_size=16, rep_dim=4, high=0.5)
    assert h_m != h_s
    # low = high = 0: the views are the images themselves, whatever the seed of the views
    _, h0 = K.train_encoder(x, "SimCLR", 0, epochs=1, batch_size=64, rep_dim=4, high=0.0)
    assert np.isfinite(h0).all()


def test_occluded_ink_fraction_counts_the_square():
    ones = torch.ones(30, 8, 8)
    f = K.occluded_ink_fraction(ones, torch.Generator().manual_seed(0), erase=4, low=1.0, high=1.0)
    assert np.allclose(f, 16 / 64)
    f = K.occluded_ink_fraction(ones, torch.Generator().manual_seed(0), erase=4, low=0.0, high=0.0)
    assert np.allclose(f, 0.0)
    x = torch.rand(200, 8, 8, generator=torch.Generator().manual_seed(1))
    f = K.occluded_ink_fraction(x, torch.Generator().manual_seed(2), erase=8, low=1.0, high=1.0)
    assert np.allclose(f, 1.0)                                      # a full-size square removes everything
    f = K.occluded_ink_fraction(x, torch.Generator().manual_seed(2), erase=4)
    assert np.all((f >= 0) & (f <= 1)) and 0 < f.mean() < 16 / 64


def test_zero_extent_view_is_the_input_and_extents_are_in_range():
    x = torch.rand(5, 8, 8, generator=torch.Generator().manual_seed(6))
    v, e = K.augment_with_extent(x, torch.Generator().manual_seed(0), low=0.0, high=0.0)
    assert torch.equal(v, x) and torch.equal(e, torch.zeros(5))
    v, e = K.augment_with_extent(x, torch.Generator().manual_seed(0))
    assert v.shape == x.shape and bool(((e >= 0) & (e <= 1)).all())
    v2, e2 = K.augment_with_extent(x, torch.Generator().manual_seed(0))
    assert torch.equal(v, v2) and torch.equal(e, e2)


def test_spearman_matches_scipy():
    rng = np.random.default_rng(0)
    a = rng.normal(size=50)
    b = a + rng.normal(size=50)
    b[:5] = b[5]                                                   # ties
    assert K.spearman(a, b) == pytest.approx(spearmanr(a, b).statistic, rel=1e-12)


def test_training_is_seeded_and_methods_share_initial_weights():
    x = torch.rand(40, 8, 8, generator=torch.Generator().manual_seed(7))
    m1, h1 = K.train_encoder(x, "CLVS", 0, epochs=2, batch_size=16, rep_dim=4)
    m2, h2 = K.train_encoder(x, "CLVS", 0, epochs=2, batch_size=16, rep_dim=4)
    assert h1 == h2
    torch.manual_seed(0)
    init = ssl.MLPEncoder(rep_dim=4)
    m0, _ = K.train_encoder(x, "SimCLR", 0, epochs=1, batch_size=64, lr=1e-12, rep_dim=4)
    assert torch.allclose(m0.encoder[0].weight, init.encoder[0].weight, atol=1e-9)
    acc = K.probe_accuracy(m1, x[:30], np.arange(30) % 2, x[30:], np.arange(10) % 2)
    assert 0.0 <= acc <= 1.0


def test_positive_cosines_shapes():
    x = torch.rand(12, 8, 8, generator=torch.Generator().manual_seed(8))
    torch.manual_seed(0)
    c, e = K.positive_cosines(ssl.MLPEncoder(rep_dim=4), x, torch.Generator().manual_seed(0))
    assert c.shape == e.shape == (12,) and np.all(np.abs(c) <= 1 + 1e-6) and np.all((e >= 0) & (e <= 1))


def test_erase_zero_draws_nothing_more_and_scales_with_the_extent():
    x = torch.rand(6, 8, 8, generator=torch.Generator().manual_seed(9))
    # erase = 0: exactly the default views (strength drawn first, then augment_digits)
    g = torch.Generator().manual_seed(3)
    e = torch.rand(6, generator=g)
    ref = ssl.augment_digits(x, g, max_shift=2, noise=0.8, erase=0, strength=e)
    v, e2 = K.augment_with_extent(x, torch.Generator().manual_seed(3), erase=0)
    assert torch.equal(v, ref) and torch.equal(e, e2)
    # extent 0: unchanged even with erasing on
    v, _ = K.augment_with_extent(x, torch.Generator().manual_seed(0), low=0.0, high=0.0, erase=4)
    assert torch.equal(v, x)
    # extent 1, no shift, no noise: a 4 x 4 square of an all-ones image is zeroed, inside the image
    ones = torch.ones(50, 8, 8)
    v, _ = K.augment_with_extent(ones, torch.Generator().manual_seed(1), max_shift=0, noise=0.0, low=1.0, high=1.0,
                                 erase=4)
    assert torch.equal((v == 0).sum(dim=(1, 2)), torch.full((50,), 16))
    # extent 1/2: side round(2) = 2
    v, _ = K.augment_with_extent(ones, torch.Generator().manual_seed(2), max_shift=0, noise=0.0, low=0.5, high=0.5,
                                 erase=4)
    assert torch.equal((v == 0).sum(dim=(1, 2)), torch.full((50,), 4))
    # positions vary and cover the corners
    v, _ = K.augment_with_extent(torch.ones(400, 8, 8), torch.Generator().manual_seed(4), max_shift=0, noise=0.0,
                                 low=1.0, high=1.0, erase=4)
    assert bool((v[:, 0, 0] == 0).any()) and bool((v[:, 7, 7] == 0).any())


def test_pca_encoder_matches_scikit_learn_up_to_signs():
    from sklearn.datasets import load_digits
    from sklearn.decomposition import PCA

    x = torch.tensor(load_digits().images[:300] / 16.0)
    enc = K.PCAEncoder(x, 5)
    h, z = enc(x)
    assert h is z and h.shape == (300, 5)
    ref = PCA(5, svd_solver="full").fit_transform(x.reshape(300, -1).numpy())
    signs = np.sign((h.numpy() * ref).sum(0))
    assert np.allclose(h.numpy() * signs, ref, atol=1e-8)
    assert np.allclose(h.numpy().mean(0), 0.0, atol=1e-10)
    assert torch.allclose(enc.components.T @ enc.components, torch.eye(5, dtype=torch.float64), atol=1e-12)


def test_bad_input():
    z = torch.randn(4, 3)
    e = torch.rand(4)
    with pytest.raises(ValueError, match="alpha"):
        K.variable_similarity(e, e, 1.0)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        K.variable_similarity(e + 2, e, 0.5)
    with pytest.raises(ValueError, match="equal length"):
        K.variable_similarity(e, e[:3], 0.5)
    with pytest.raises(ValueError, match="N >= 2"):
        K.soft_targets(torch.tensor([0.5]))
    with pytest.raises(ValueError, match="shape"):
        K.clvs_loss(z, z[:3], e, e, 0.5, 0.5)
    with pytest.raises(ValueError, match="e1"):
        K.clvs_loss(z, z, e[:3], e[:3], 0.5, 0.5)
    with pytest.raises(ValueError, match="tau"):
        K.clvs_loss(z, z, e, e, 0.0, 0.5)
    with pytest.raises(ValueError, match="method"):
        K.train_encoder(torch.rand(4, 8, 8), "BYOL", 0, epochs=1)
    with pytest.raises(ValueError, match="low"):
        K.augment_with_extent(torch.rand(4, 8, 8), torch.Generator(), low=0.5, high=0.2)
    with pytest.raises(ValueError, match="constant"):
        K.spearman([1, 1, 1], [1, 2, 3])
    with pytest.raises(ValueError, match="erase"):
        K.augment_with_extent(torch.rand(4, 8, 8), torch.Generator(), erase=9)
    with pytest.raises(ValueError, match="k must be"):
        K.PCAEncoder(torch.rand(4, 8, 8), 5)
    with pytest.raises(ValueError, match="shape"):
        K.PCAEncoder(torch.rand(4, 64), 2)
    with pytest.raises(ValueError, match="w must"):
        K.weighted_nt_xent(z, z, e[:3], 0.5)
    with pytest.raises(ValueError, match="non-negative"):
        K.weighted_nt_xent(z, z, torch.zeros(4), 0.5)
    with pytest.raises(ValueError, match="non-negative"):
        K.weighted_nt_xent(z, z, -e, 0.5)
    with pytest.raises(ValueError, match="tau"):
        K.weighted_nt_xent(z, z, e, -1.0)
    with pytest.raises(ValueError, match="low"):
        K.train_encoder(torch.rand(4, 8, 8), "SimCLR", 0, epochs=1, high=1.5)
    with pytest.raises(ValueError, match="ink"):
        K.occluded_ink_fraction(torch.zeros(3, 8, 8), torch.Generator(), erase=4)
    with pytest.raises(ValueError, match="erase"):
        K.occluded_ink_fraction(torch.ones(3, 8, 8), torch.Generator(), erase=0)
