"""Unit tests of :mod:`repro.papers.ms_udg_minimal_sufficiency`, the kernels of ``notebooks/ms-udg-minimal-sufficiency.py``.

No official code was found for this paper (brief: "to be confirmed"), so there is no golden file; the kernels are
checked against closed forms, brute force and scikit-learn / numpy.
"""

import inspect

import numpy as np
import pytest
import torch

from repro import ssl
from repro.papers import ms_udg_minimal_sufficiency as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/ms_udg_minimal_sufficiency.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# ---------------------------------------------------------------- info_nce (issue 17: must expose it)

def test_info_nce_is_the_shared_one_with_the_issue_signature():
    assert K.info_nce is ssl.info_nce
    assert list(inspect.signature(K.info_nce).parameters) == ["z1", "z2", "tau"]


def test_info_nce_equals_explicit_cross_entropy():
    g = torch.Generator().manual_seed(0)
    z1, z2 = torch.randn(7, 5, generator=g, dtype=torch.float64), torch.randn(7, 5, generator=g, dtype=torch.float64)
    tau = 0.3
    a = z1 / z1.norm(dim=1, keepdim=True)
    b = z2 / z2.norm(dim=1, keepdim=True)
    loss = 0.0
    for i in range(7):
        s = [float(a[i] @ b[k]) / tau for k in range(7)]
        loss += -(s[i] - np.log(np.sum(np.exp(s))))
    assert float(K.info_nce(z1, z2, tau)) == pytest.approx(loss / 7, rel=1e-12)


def test_info_nce_invariant_to_joint_permutation_and_scale():
    g = torch.Generator().manual_seed(1)
    z1, z2 = torch.randn(9, 4, generator=g, dtype=torch.float64), torch.randn(9, 4, generator=g, dtype=torch.float64)
    p = torch.randperm(9, generator=g)
    base = K.info_nce(z1, z2, 0.5)
    assert torch.allclose(K.info_nce(z1[p], z2[p], 0.5), base, atol=1e-12)
    assert torch.allclose(K.info_nce(3 * z1, 0.2 * z2, 0.5), base, atol=1e-12)
    # perfectly aligned, well-separated rows: loss near its minimum 0 for a small temperature
    e = torch.eye(4, dtype=torch.float64)
    assert float(K.info_nce(e, e, 0.01)) < 1e-10


def test_info_nce_bad_input():
    with pytest.raises(ValueError):
        K.info_nce(torch.zeros(3, 2), torch.zeros(4, 2), 0.1)
    with pytest.raises(ValueError):
        K.info_nce(torch.randn(3, 2), torch.randn(3, 2), 0.0)


# ---------------------------------------------------------------- HSIC

def test_linear_hsic_is_squared_cross_covariance_norm():
    rng = np.random.default_rng(2)
    x, y = rng.normal(size=(30, 3)), rng.normal(size=(30, 4))
    y[:, 0] += 2 * x[:, 1]
    C = np.cov(x, y, rowvar=False)[:3, 3:]                     # divisor n - 1
    h = K.hsic(torch.tensor(x), torch.tensor(y), kernel="linear")
    assert float(h) == pytest.approx(np.sum(C ** 2), rel=1e-12)


def test_rbf_hsic_brute_force():
    rng = np.random.default_rng(3)
    x, y = rng.normal(size=(6, 2)), rng.normal(size=(6, 1))
    Kx = np.exp(-((x[:, None] - x[None]) ** 2).sum(-1) / (2 * 0.7 ** 2))
    Ly = np.exp(-((y[:, None] - y[None]) ** 2).sum(-1) / (2 * 1.3 ** 2))
    H = np.eye(6) - 1 / 6
    want = np.trace(Kx @ H @ Ly @ H) / 25
    got = K.hsic(torch.tensor(x), torch.tensor(y), ls_x=0.7, ls_y=1.3)
    assert float(got) == pytest.approx(want, rel=1e-12)


def test_hsic_independent_vs_dependent_permutation_test():
    rng = np.random.default_rng(4)
    x = rng.normal(size=(120, 1))
    y_ind, y_dep = rng.normal(size=(120, 1)), x ** 2
    def pvalue(a, b, n_perm=200):
        a, b = torch.tensor(a), torch.tensor(b)
        stat = float(K.hsic(a, b))
        null = [float(K.hsic(a, b[torch.as_tensor(rng.permutation(len(b)))])) for _ in range(n_perm)]
        return (1 + sum(v >= stat for v in null)) / (n_perm + 1)
    assert pvalue(x, y_ind) > 0.05
    assert pvalue(x, y_dep) < 0.01
    # y = x^2 has zero linear correlation with x but a large kernel dependence
    assert float(K.normalized_hsic(torch.tensor(x), torch.tensor(y_dep))) > 0.2


def test_normalized_hsic_range_and_invariances():
    g = torch.Generator().manual_seed(5)
    x = torch.randn(50, 3, generator=g, dtype=torch.float64)
    assert float(K.normalized_hsic(x, x)) == pytest.approx(1.0, abs=1e-12)
    assert float(K.normalized_hsic(x, 4.0 * x + 1.0)) == pytest.approx(1.0, abs=1e-12)   # median heuristic: scale-free
    y = torch.randn(50, 2, generator=g, dtype=torch.float64)
    v = float(K.normalized_hsic(x, y))
    assert 0 <= v < 0.3
    assert float(K.normalized_hsic(x, torch.zeros(50, 2, dtype=torch.float64))) == pytest.approx(0.0, abs=1e-12)


def test_hsic_bad_input():
    with pytest.raises(ValueError, match="same number"):
        K.hsic(torch.zeros(4, 2), torch.zeros(5, 2))
    with pytest.raises(ValueError, match="kernel"):
        K.hsic(torch.zeros(4, 2), torch.zeros(4, 2), kernel="poly")
    with pytest.raises(ValueError):
        K.hsic(torch.zeros(4, 2), torch.zeros(4, 2), ls_x=-1.0)


# ---------------------------------------------------------------- Fourier amplitude mixing and views

def test_fourier_mix_lam0_returns_x1_and_lam1_takes_amplitude_of_x2():
    g = torch.Generator().manual_seed(6)
    x1, x2 = torch.rand(4, 8, 8, generator=g, dtype=torch.float64), torch.rand(4, 8, 8, generator=g, dtype=torch.float64)
    assert torch.allclose(K.fourier_amplitude_mix(x1, x2, 0.0), x1, atol=1e-12)
    out = K.fourier_amplitude_mix(x1, x2, 1.0)
    f_out, f1, f2 = torch.fft.fft2(out), torch.fft.fft2(x1), torch.fft.fft2(x2)
    assert torch.allclose(f_out.abs(), f2.abs(), atol=1e-9)
    big = f1.abs() > 1e-6                                             # phase kept where it is defined
    assert torch.allclose(torch.exp(1j * (f_out.angle() - f1.angle()))[big], torch.ones(1, dtype=f1.dtype), atol=1e-9)
    # per-image weights: image 0 unchanged, image 1 fully mixed
    lam = torch.tensor([0.0, 1.0, 0.5, 0.25], dtype=torch.float64)
    mixed = K.fourier_amplitude_mix(x1, x2, lam)
    assert torch.allclose(mixed[0], x1[0], atol=1e-12) and torch.allclose(mixed[1], out[1], atol=1e-12)


def test_fourier_mix_and_views_bad_input():
    x = torch.rand(3, 8, 8)
    with pytest.raises(ValueError):
        K.fourier_amplitude_mix(x, torch.rand(2, 8, 8), 0.5)
    with pytest.raises(ValueError):
        K.fourier_amplitude_mix(x, x, 1.5)
    with pytest.raises(ValueError):
        K.make_views(torch.rand(3, 64), torch.Generator())
    with pytest.raises(ValueError):
        K.make_views(x, torch.Generator(), lam_max=2.0)


def test_views_are_seeded_and_shaped():
    x = torch.rand(5, 8, 8)
    a = K.make_views(x, torch.Generator().manual_seed(0))
    b = K.make_views(x, torch.Generator().manual_seed(0))
    assert a.shape == x.shape and torch.equal(a, b)


# ---------------------------------------------------------------- domains

def test_domains_render_as_described():
    rng = np.random.default_rng(0)
    x = np.random.default_rng(1).random((3, 8, 8))
    assert np.array_equal(K.render_domain(x, 0, rng), x)
    assert np.allclose(K.render_domain(x, 1, rng), 1 - x)
    t = K.render_domain(np.zeros((2, 8, 8)), 2, rng)                 # the grating alone
    assert 0 <= t.min() and t.max() <= 0.35 + 1e-12 and t.std() > 0.05
    blank = K.render_domain(np.zeros((1, 8, 8)), 3, rng)
    assert np.all(blank == 0)
    d4 = K.render_domain(x, 3, rng)
    assert d4.max() <= 0.75 + 1e-12 and d4.shape == x.shape
    steps = K.d4_steps(x)
    assert list(steps) == ["D1", "+ rotation", "+ blur", "+ contrast (D4)"]
    assert np.array_equal(steps["+ contrast (D4)"], K.render_domain(x, 3, rng))
    assert np.allclose(steps["+ contrast (D4)"], 0.75 * steps["+ blur"])
    # a 15-degree rotation of a centred disc changes it little; of an off-centre pixel, a lot
    r = np.arange(8) - 3.5
    disc = (r[:, None] ** 2 + r[None] ** 2 < 6).astype(float)[None]
    assert np.abs(K.d4_steps(disc)["+ rotation"] - disc).max() < 0.5
    with pytest.raises(ValueError):
        K.d4_steps(np.zeros((8, 8)))
    with pytest.raises(ValueError):
        K.render_domain(x, 4, rng)
    with pytest.raises(ValueError):
        K.render_domain(np.zeros((2, 4, 4)), 0, rng)


def test_make_digit_domains_split_and_pairing():
    D = K.make_digit_domains(0)
    Xtr, ytr, dtr = D["train"]
    Xi, yi, di = D["test_in"]
    Xo, yo, do = D["test_out"]
    assert len(ytr) + len(yi) == 1797 and np.array_equal(yi, yo) and np.array_equal(D["test_clean"][1], yi)
    assert np.allclose(K.render_domain(D["test_clean"][0], 3, np.random.default_rng(0)), Xo, atol=1e-6)
    assert set(np.unique(dtr)) == {0, 1, 2} and set(np.unique(di)) <= {0, 1, 2} and np.all(do == 3)
    assert Xtr.dtype == np.float32 and Xtr.min() >= 0 and Xtr.max() <= 1
    again = K.make_digit_domains(0)
    assert np.array_equal(again["train"][0], Xtr)
    with pytest.raises(ValueError):
        K.make_digit_domains(0, test_frac=1.0)


# ---------------------------------------------------------------- model, loss, training

def test_split_encoder_shapes_and_loss_terms():
    torch.manual_seed(0)
    m = K.SplitEncoder(64, 32, 8, 6, 5)
    x = torch.rand(10, 8, 8)
    h_s, h_v, z = m(x)
    assert h_s.shape == (10, 8) and h_v.shape == (10, 6) and z.shape == (10, 5)
    assert m.decode(h_s, h_v).shape == (10, 64)
    loss, terms = K.ms_udg_loss(m, x, x, tau=0.2, lam_dis=1.0, lam_rec=1.0)
    assert set(terms) == {"nce", "dis", "rec"}
    assert float(loss.detach()) == pytest.approx(terms["nce"] + terms["dis"] + terms["rec"], rel=1e-5)
    only, t0 = K.ms_udg_loss(m, x, x, lam_dis=0.0, lam_rec=0.0)
    assert set(t0) == {"nce"}
    zz = m(x)[2]
    assert float(only.detach()) == pytest.approx(float(K.info_nce(zz, zz, 0.2).detach()), rel=1e-6)
    with pytest.raises(ValueError):
        K.ms_udg_loss(m, x, x, lam_dis=-1.0)


def test_train_method_reduces_loss_and_rejects_unknown():
    X = K.make_digit_domains(0)["train"][0][:200]
    for method in ("ms-udg", "simclr"):
        model, hist = K.train_method(method, X, seed=0, epochs=4, batch_size=64, hidden=32, rep_dim=16)
        assert hist[-1] < hist[0]
    z = K.representation(model, X[:5])
    assert z.shape == (5, 16)
    assert K.representation(model, X[:5], "s").shape == (5, 8)
    with pytest.raises(ValueError):
        K.train_method("byol", X, seed=0, epochs=1)
    with pytest.raises(ValueError):
        K.train_method("simclr", X, seed=0, epochs=1, rep_dim=15)


def test_domain_accuracy_detects_domain_information():
    rng = np.random.default_rng(0)
    d = np.repeat([0, 1, 2], 40)
    z_info = rng.normal(size=(120, 3)) + 3 * np.eye(3)[d]
    z_none = rng.normal(size=(120, 3))
    assert K.domain_accuracy(z_info, d, seed=0) > 0.9
    assert K.domain_accuracy(z_none, d, seed=0) < 0.55
    with pytest.raises(ValueError):
        K.domain_accuracy(z_none, d[:5], seed=0)


def test_linear_probe_matches_shared_probe():
    rng = np.random.default_rng(1)
    y = np.repeat(np.arange(3), 20)
    z = rng.normal(size=(60, 4)) + 2 * np.eye(4)[y]
    assert K.linear_probe(z[::2], y[::2], z[1::2], y[1::2]) == ssl.linear_probe_accuracy(z[::2], y[::2], z[1::2], y[1::2])[0]


# ---------------------------------------------------------------- the naive baselines and the fitted-once probe

def test_instance_normalize_is_contrast_and_brightness_invariant():
    rng = np.random.default_rng(0)
    X = rng.random((20, 8, 8))
    Z = K.instance_normalize(X)
    assert Z.shape == (20, 64)
    np.testing.assert_allclose(Z.mean(1), 0, atol=1e-12)
    np.testing.assert_allclose(Z.std(1), 1, atol=1e-6)
    np.testing.assert_allclose(K.instance_normalize(0.75 * X + 0.1), Z, atol=1e-6)   # D4's contrast change
    np.testing.assert_allclose(K.instance_normalize(1.0 - X), -Z, atol=1e-6)        # inversion flips the sign
    assert np.all(K.instance_normalize(np.ones((2, 8, 8))) == 0)                    # constant image: zeros
    with pytest.raises(ValueError):
        K.instance_normalize(np.ones(5))
    with pytest.raises(ValueError):
        K.instance_normalize(X, eps=0.0)


def test_pca_features_match_numpy_svd_and_check_shapes():
    rng = np.random.default_rng(1)
    Xf = rng.random((50, 8, 8))
    Xa, Xb = rng.random((7, 8, 8)), rng.random((3, 8, 8))
    A, Bp = K.pca_features(Xf, Xa, Xb, n_components=5)
    assert A.shape == (7, 5) and Bp.shape == (3, 5)
    F = Xf.reshape(50, -1)
    mu = F.mean(0)
    _, _, Vt = np.linalg.svd(F - mu, full_matrices=False)
    ref = (Xa.reshape(7, -1) - mu) @ Vt[:5].T
    np.testing.assert_allclose(np.abs(A), np.abs(ref), atol=1e-8)                  # up to each component's sign
    full, = K.pca_features(Xf, Xf, n_components=50)                                # all components: distances kept
    D0 = np.linalg.norm(F[:, None] - F[None], axis=2)
    np.testing.assert_allclose(np.linalg.norm(full[:, None] - full[None], axis=2), D0, atol=1e-8)
    with pytest.raises(ValueError):
        K.pca_features(Xf, Xa, n_components=65)
    with pytest.raises(ValueError):
        K.pca_features(Xf, rng.random((3, 7, 7)))
    with pytest.raises(ValueError):
        K.pca_features(np.ones(5), Xa)


def test_probe_accuracies_equal_one_probe_per_test_set():
    rng = np.random.default_rng(2)
    y = np.repeat(np.arange(3), 20)
    Z = rng.normal(size=(60, 4)) + y[:, None]
    tests = [(rng.normal(size=(30, 4)) + np.repeat(np.arange(3), 10)[:, None], np.repeat(np.arange(3), 10)),
             (rng.normal(size=(9, 4)), rng.integers(0, 3, 9))]
    got = K.probe_accuracies(Z, y, tests)
    assert got == [K.linear_probe(Z, y, z, t) for z, t in tests]
    with pytest.raises(ValueError):
        K.probe_accuracies(Z, y, [])
    with pytest.raises(ValueError):
        K.probe_accuracies(Z, y, [(np.ones((3, 4)), np.ones(2))])


def test_views_from_a_shared_spectrum_are_the_same_views():
    x = torch.rand(40, 8, 8)
    spec = K._amplitude_phase(x)
    for seed in range(3):
        a = K.make_views(x, torch.Generator().manual_seed(seed))
        b = K.make_views(x, torch.Generator().manual_seed(seed), spectrum=spec)
        assert torch.equal(a, b)
    with pytest.raises(ValueError):
        K.make_views(x, torch.Generator().manual_seed(0), spectrum=(spec[0][:3], spec[1][:3]))


def test_cached_upper_mask_gives_the_same_median_bandwidth():
    x = torch.randn(30, 5)
    d2 = torch.cdist(x, x).pow(2)
    iu = torch.triu_indices(30, 30, offset=1)
    assert torch.equal(d2[K._upper_mask(30)].sort().values, d2[iu[0], iu[1]].sort().values)
