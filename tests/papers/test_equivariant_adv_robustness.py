"""Unit tests of :mod:`repro.papers.equivariant_adv_robustness`, the kernels of ``notebooks/equivariant-adv-robustness.py``."""

import inspect

from repro.papers import equivariant_adv_robustness as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/equivariant_adv_robustness.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"




import pytest
import torch
from torch import nn

from repro.papers.equivariant_adv_robustness import rot90


def _x(n=3, c=1, s=12, seed=0):
    return torch.rand(n, c, s, s, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


def test_lifting_conv_equivariance_exact():
    torch.manual_seed(0)
    m = K.C4LiftingConv(1, 5).double()
    x = _x()
    y, y_rot = m(x), m(rot90(x))
    # rotate input -> rotate maps and shift the group axis by one
    assert torch.allclose(y_rot, torch.roll(rot90(y), 1, dims=2), atol=1e-12)


def test_group_conv_equivariance_exact():
    torch.manual_seed(1)
    g = K.C4GroupConv(3, 4).double()
    f = torch.rand(2, 3, 4, 10, 10, dtype=torch.float64)
    f_rot = torch.roll(rot90(f), 1, dims=2)
    assert torch.allclose(g(f_rot), torch.roll(rot90(g(f)), 1, dims=2), atol=1e-12)


def test_group_conv_brute_force_formula():
    torch.manual_seed(2)
    g = K.C4GroupConv(2, 3).double()
    f = torch.rand(1, 2, 4, 7, 7, dtype=torch.float64)
    out = g(f)
    W = g.weight
    for r in range(4):
        ref = sum(nn.functional.conv2d(f[:, :, s], rot90(W[:, :, (s - r) % 4], r), padding=1) for s in range(4))
        assert torch.allclose(out[:, :, r], ref + g.bias[None, :, None, None], atol=1e-12)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_c4_invariant_cnn_is_invariant(k):
    torch.manual_seed(3)
    m = K.C4InvariantCNN(n_classes=10).double().eval()
    x = _x(s=16)
    assert m(x).shape == (3, 10)
    assert torch.allclose(m(rot90(x, k)), m(x), atol=1e-10)


def test_c4_invariant_cnn_float32_and_default_signature():
    torch.manual_seed(4)
    m = K.C4InvariantCNN()
    x = torch.rand(4, 1, 16, 16)
    assert torch.allclose(m(rot90(x)), m(x), atol=1e-5)


def test_standard_cnn_is_not_invariant():
    torch.manual_seed(5)
    m = K.StandardCNN().double()
    x = _x(s=16)
    assert not torch.allclose(m(rot90(x)), m(x), atol=1e-6)


def test_scale_conv_shares_weights_and_responds_at_both_scales():
    torch.manual_seed(6)
    sc = K.ScaleConv2d(1, 2).double()
    x = _x(n=1, s=16)
    one = nn.functional.conv2d(x, sc.conv.weight, sc.conv.bias, padding=1)
    two = nn.functional.conv2d(x, sc.conv.weight, sc.conv.bias, padding=2, dilation=2)
    assert torch.allclose(sc(x), torch.maximum(one, two))
    # approximate equivariance under a 2x (nearest) rescale: the dilated response on the big image matches the
    # undilated response on the small one, sampled at even positions (away from the border)
    small = _x(n=1, s=8, seed=7)
    big = small.repeat_interleave(2, -1).repeat_interleave(2, -2)
    r_small = nn.functional.conv2d(small, sc.conv.weight, padding=1)[..., 2:-2, 2:-2]
    r_big = nn.functional.conv2d(big, sc.conv.weight, padding=2, dilation=2)[..., ::2, ::2][..., 2:-2, 2:-2]
    assert torch.allclose(r_small, r_big, atol=1e-12)


def test_parallel_and_cascaded_shapes_and_ablation():
    torch.manual_seed(8)
    x = torch.rand(2, 1, 16, 16)
    for m in (K.ParallelEquivCNN(), K.ParallelEquivCNN(equivariant=False), K.CascadedEquivCNN()):
        assert m(x).shape == (2, 10)
    a, b = K.n_parameters(K.ParallelEquivCNN()), K.n_parameters(K.ParallelEquivCNN(equivariant=False))
    assert 0.6 < a / b < 1.6


def test_fgsm_linear_model_closed_form():
    torch.manual_seed(9)
    lin = nn.Sequential(nn.Flatten(), nn.Linear(16, 3)).double()
    x = _x(n=5, s=4) * 0.5 + 0.25
    y = torch.tensor([0, 1, 2, 0, 1])
    eps = 0.1
    W = lin[1].weight
    p = torch.softmax(lin(x), 1)
    grad = (p - nn.functional.one_hot(y, 3)) @ W                  # d CE / d x for a linear model
    ref = (x + eps * grad.sign().view_as(x)).clamp(0, 1)
    assert torch.allclose(K.fgsm(lin, x, y, eps), ref)


def test_pgd_stays_in_ball_and_beats_fgsm():
    torch.manual_seed(10)
    m = K.StandardCNN(width=4).double().eval()
    x, y = _x(n=16, s=8), torch.randint(0, 10, (16,))
    eps = 0.1
    xa = K.pgd(m, x, y, eps, eps / 4, 10, torch.Generator().manual_seed(0))
    assert (xa - x).abs().max() <= eps + 1e-12 and xa.min() >= 0 and xa.max() <= 1
    ce = lambda z: nn.functional.cross_entropy(m(z), y).item()
    assert ce(xa) >= ce(K.fgsm(m, x, y, eps)) - 1e-9 and ce(xa) > ce(x)


def test_margin_and_clever():
    logits = torch.tensor([[2.0, 1.0, 0.5], [0.0, 3.0, 1.0]])
    assert torch.allclose(K.margin(logits, torch.tensor([0, 0])), torch.tensor([1.0, -3.0]))
    torch.manual_seed(11)
    lin = nn.Sequential(nn.Flatten(), nn.Linear(4, 2)).double()
    x, y = _x(n=4, s=2) * 0.5 + 0.25, torch.tensor([0, 1, 0, 1])
    # for a linear two-class model the margin gradient is constant: |w_y - w_other|_1
    W = lin[1].weight
    expect = (W[0] - W[1]).abs().sum()
    scores, L = K.clever_lite(lin, x, y, 0.05, 5, torch.Generator().manual_seed(0))
    assert torch.allclose(L, expect.expand(4))
    with torch.no_grad():
        assert torch.allclose(scores, K.margin(lin(x), y) / expect)


def test_digits_images():
    Xtr, ytr, Xte, yte = K.digits_images(16, seed=0)
    assert Xtr.shape == (1200, 1, 16, 16) and Xte.shape == (597, 1, 16, 16)
    assert Xtr.min() >= 0 and Xtr.max() <= 1 and set(ytr.tolist()) == set(range(10))


def test_bad_input():
    with pytest.raises(ValueError, match="odd"):
        K.C4LiftingConv(1, 2, kernel_size=2)
    with pytest.raises(ValueError, match="H == W"):
        K.C4InvariantCNN()(torch.rand(1, 1, 16, 12))
    with pytest.raises(ValueError, match="eps"):
        K.fgsm(K.StandardCNN(), torch.rand(1, 1, 8, 8), torch.tensor([0]), -0.1)
    with pytest.raises(ValueError, match="size"):
        K.digits_images(4, seed=0)
    with pytest.raises(ValueError, match=r"\(B, C, 4, H, W\)"):
        K.C4GroupConv(1, 1)(torch.rand(1, 1, 3, 8, 8))


def test_training_recalibrates_batch_norm_and_learns():
    Xtr, ytr, Xte, yte = K.digits_images(8, seed=0, n_train=256)   # 4 equal batches: mean of batch means
    torch.manual_seed(0)
    m = K.StandardCNN(width=4)
    hist = K.train_classifier(m, Xtr, ytr, epochs=2, seed=0)
    assert not m.training and hist[-1] < hist[0]
    bn = m.features[1]
    with torch.no_grad():
        pre = m.features[0](Xtr)
    assert torch.allclose(bn.running_mean, pre.mean(dim=(0, 2, 3)), atol=1e-5)


def test_cascaded_ablation_is_plain_and_of_similar_size():
    torch.manual_seed(12)
    on, off = K.CascadedEquivCNN().double().eval(), K.CascadedEquivCNN(equivariant=False).double().eval()
    assert 0.8 < K.n_parameters(on) / K.n_parameters(off) < 1.25
    assert off.scale.dilations == (1,) and on.scale.dilations == (1, 2)
    assert not any(isinstance(m, (K.C4LiftingConv, K.C4GroupConv)) for m in off.modules())
    x = _x(n=2, s=8)
    assert off(x).shape == (2, 10)
    # the equivariant cascade's first block commutes with 90-degree rotations (before the scale layer)
    first = lambda z: torch.relu(on.n1(on.g1(torch.relu(on.n0(on.lift(z)))))).amax(dim=2)
    assert torch.allclose(first(rot90(x)), rot90(first(x)), atol=1e-10)


def test_augmentations():
    x, gen = _x(n=64, s=8).float(), torch.Generator().manual_seed(0)
    noisy = K.noise_augment(0.1)(x, gen)
    assert noisy.shape == x.shape and noisy.min() >= 0 and noisy.max() <= 1
    assert 0.05 < (noisy - x).std() < 0.12
    rotated = K.rot90_augment(x, torch.Generator().manual_seed(1))
    for i in range(len(x)):  # every image is one of its four rotations
        assert any(torch.equal(rotated[i], rot90(x[i], k)) for k in range(4))
    assert not torch.equal(rotated, x)
    with pytest.raises(ValueError):
        K.noise_augment(0.0)


def test_training_without_augmentation_is_unchanged_and_augmentation_changes_it():
    Xtr, ytr, _, _ = K.digits_images(8, seed=1, n_train=128)
    runs = []
    for aug in (None, None, K.noise_augment(0.1)):
        torch.manual_seed(0)
        m = K.StandardCNN(width=4)
        runs.append(K.train_classifier(m, Xtr, ytr, epochs=1, seed=0, augment=aug))
    assert runs[0] == runs[1] and runs[2] != runs[0]
    with pytest.raises(TypeError):
        K.train_classifier(K.StandardCNN(width=4), Xtr, ytr, epochs=1, seed=0, augment=3)


def test_digits_arrays_equal_load_digits():
    import numpy as np
    from sklearn.datasets import load_digits

    images, target = K._digits_arrays()
    d = load_digits()
    assert np.array_equal(images, d.images) and np.array_equal(target, d.target)
