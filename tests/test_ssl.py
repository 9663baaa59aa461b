"""repro.ssl: contrastive losses against loops, the views, the training loop, the probe, the spectrum."""

import math

import numpy as np
import pytest
import torch

from repro.ssl import (
    MLPEncoder,
    augment_digits,
    covariance_spectrum,
    group_accuracies,
    info_nce,
    linear_probe_accuracy,
    nt_xent,
    train_ssl,
)


def _cos(a, b):
    return float(a @ b / (a.norm() * b.norm()))


def test_nt_xent_matches_a_loop_over_anchors():
    g = torch.Generator().manual_seed(0)
    z1, z2 = torch.randn(5, 3, generator=g, dtype=torch.float64), torch.randn(5, 3, generator=g, dtype=torch.float64)
    tau, z, n = 0.3, torch.cat([z1, z2]), 5
    total = 0.0
    for k in range(2 * n):
        pos = (k + n) % (2 * n)
        den = sum(math.exp(_cos(z[k], z[m]) / tau) for m in range(2 * n) if m != k)
        total += -math.log(math.exp(_cos(z[k], z[pos]) / tau) / den)
    assert float(nt_xent(z1, z2, tau)) == pytest.approx(total / (2 * n), rel=1e-10)


def test_info_nce_matches_a_loop_and_is_one_directional():
    g = torch.Generator().manual_seed(1)
    z1, z2 = torch.randn(4, 6, generator=g, dtype=torch.float64), torch.randn(4, 6, generator=g, dtype=torch.float64)
    tau = 0.5
    total = sum(-math.log(math.exp(_cos(z1[i], z2[i]) / tau) / sum(math.exp(_cos(z1[i], z2[k]) / tau) for k in range(4)))
                for i in range(4))
    assert float(info_nce(z1, z2, tau)) == pytest.approx(total / 4, rel=1e-10)
    assert float(info_nce(z1, z2, tau)) != pytest.approx(float(info_nce(z2, z1, tau)), rel=1e-6)


def test_losses_reward_aligned_views_and_reach_log_n_for_useless_ones():
    z = torch.eye(4, dtype=torch.float64)
    assert float(info_nce(z, z, 0.05)) < 1e-6 and float(nt_xent(z, z, 0.05)) < 1e-6
    same = torch.ones(4, 2, dtype=torch.float64)        # every view identical: chance level
    assert float(info_nce(same, same, 0.5)) == pytest.approx(math.log(4))
    assert float(nt_xent(same, same, 0.5)) == pytest.approx(math.log(7))


def test_loss_inputs_are_checked():
    with pytest.raises(ValueError, match="shape"):
        nt_xent(torch.zeros(3, 2), torch.zeros(4, 2), 0.5)
    with pytest.raises(ValueError, match="tau"):
        info_nce(torch.ones(3, 2), torch.ones(3, 2), 0.0)


def test_views_are_shifts_when_there_is_no_noise_and_identity_at_zero_strength():
    g = torch.Generator().manual_seed(2)
    x = torch.rand(20, 8, 8, generator=g)
    v = augment_digits(x, g, max_shift=1, noise=0.0)
    padded = torch.nn.functional.pad(x, (1, 1, 1, 1))
    for i in range(20):
        assert any(torch.equal(v[i], padded[i, 1 - dr:9 - dr, 1 - dc:9 - dc]) for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    assert torch.equal(augment_digits(x, g, max_shift=2, noise=0.3, strength=torch.zeros(20)), x)
    erased = augment_digits(x, g, max_shift=0, noise=0.0, erase=3)
    assert ((erased == 0) & (x != 0)).sum(dim=(1, 2)).eq(9).all()
    with pytest.raises(ValueError, match="strength"):
        augment_digits(x, g, strength=torch.full((20,), 2.0))
    with pytest.raises(ValueError, match=r"\(n, H, W\)"):
        augment_digits(x.reshape(20, 64), g)


def test_shifts_cover_the_range_uniformly_at_full_strength():
    g = torch.Generator().manual_seed(3)
    x = torch.zeros(3000, 5, 5)
    x[:, 2, 2] = 1.0
    v = augment_digits(x, g, max_shift=1, noise=0.0)
    rows = v.sum(dim=2).argmax(dim=1) - 2
    counts = torch.bincount(rows + 1, minlength=3).double() / 3000
    assert torch.allclose(counts, torch.full((3,), 1 / 3, dtype=torch.float64), atol=0.03)


def test_training_lowers_the_contrastive_loss():
    from sklearn.datasets import load_digits

    torch.manual_seed(0)
    X = torch.tensor(load_digits().images[:128] / 16, dtype=torch.float32)
    model = MLPEncoder(64, 64, 16, 8)

    def loss(idx, gen):
        return nt_xent(model(augment_digits(X[idx], gen))[1], model(augment_digits(X[idx], gen))[1], 0.5)

    hist = train_ssl(list(model.parameters()), 128, loss, epochs=20, batch_size=64, lr=3e-3, seed=0)
    # chance level is log(127) = 4.84 for batches of 64 (2N - 1 = 127 candidates)
    assert len(hist) == 20 and hist[0] > 4.7 and hist[-1] < hist[0] - 0.4
    h, z = model(X)
    assert h.shape == (128, 16) and z.shape == (128, 8)


def test_probe_and_groups():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = (X[:, 0] > 0).astype(int)
    acc, pred = linear_probe_accuracy(X[:100], y[:100], X[100:], y[100:])
    assert acc > 0.95 and pred.shape == (100,)
    chance, _ = linear_probe_accuracy(rng.normal(size=(100, 3)), y[:100], rng.normal(size=(100, 3)), y[100:])
    assert chance < 0.75
    groups = np.array([0, 0, 1, 1])
    assert group_accuracies(np.array([1, 0, 1, 1]), np.array([1, 1, 1, 0]), groups) == {0: 0.5, 1: 0.5}
    with pytest.raises(ValueError):
        linear_probe_accuracy(X[:10], y[:10], X[:10, :2], y[:10])


def test_covariance_spectrum():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(20000, 3)) * np.array([3.0, 1.0, 0.5])
    assert np.allclose(covariance_spectrum(X), [9.0, 1.0, 0.25], rtol=0.05)
    assert np.allclose(covariance_spectrum(torch.tensor(X[:50])), np.sort(np.linalg.eigvalsh(np.cov(X[:50].T)))[::-1])
    with pytest.raises(ValueError):
        covariance_spectrum(np.zeros(5))
