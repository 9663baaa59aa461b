"""Unit tests of :mod:`repro.papers.spectral_reg_spurious_ssl`, the kernels of ``notebooks/spectral-reg-spurious-ssl.py``."""

import inspect

from repro.papers import spectral_reg_spurious_ssl as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/spectral_reg_spurious_ssl.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"




import json
from pathlib import Path

import numpy as np
import pytest
import torch

from repro.ssl import MLPEncoder

GOLDEN = Path(__file__).resolve().parent / "golden" / "spectral-reg-spurious-ssl.json"


# --- effective_rank ---------------------------------------------------------------------------------------

def test_effective_rank_closed_forms():
    assert K.effective_rank(np.ones(7)) == pytest.approx(7.0, abs=1e-12)
    assert K.effective_rank(np.array([5.0, 0.0, 0.0, 0.0])) == pytest.approx(1.0, abs=1e-12)
    assert K.effective_rank(np.array([2.0, 2.0, 0.0])) == pytest.approx(2.0, abs=1e-12)
    p = np.array([0.5, 0.25, 0.25])
    assert K.effective_rank(3 * p) == pytest.approx(np.exp(-(p * np.log(p)).sum()), abs=1e-12)


def test_effective_rank_scale_and_order_invariant_and_bounded():
    ev = np.random.default_rng(1).random(10)
    r = K.effective_rank(ev)
    assert K.effective_rank(17.0 * ev) == pytest.approx(r, rel=1e-12)
    assert K.effective_rank(ev[::-1]) == pytest.approx(r, rel=1e-12)
    assert 1.0 <= r <= 10.0


def test_effective_rank_torch_matches_numpy_and_is_differentiable():
    ev = np.random.default_rng(2).random(6)
    t = torch.tensor(ev, requires_grad=True)
    r = K.effective_rank(t)
    assert float(r.detach()) == pytest.approx(K.effective_rank(ev), rel=1e-12)
    r.backward()
    assert torch.isfinite(t.grad).all()


def test_effective_rank_against_scipy_entropy():
    from scipy.stats import entropy
    ev = np.random.default_rng(3).random(9)
    assert K.effective_rank(ev) == pytest.approx(np.exp(entropy(ev)), rel=1e-12)


def test_effective_rank_against_golden_file():
    g = json.loads(GOLDEN.read_text())
    for case in g["cases"]:
        W = np.array(case["input"]["W"])
        ours = K.effective_rank(np.linalg.eigvalsh(W.T @ W))
        assert abs(ours - case["output"]["effective_rank"]) <= case["tol"]["abs"], case["name"]


# --- uniform_spectrum_penalty -----------------------------------------------------------------------------

def test_penalty_zero_for_uniform_and_maximal_for_rank_one():
    assert K.uniform_spectrum_penalty(np.full(8, 3.0)) == pytest.approx(0.0, abs=1e-15)
    assert K.uniform_spectrum_penalty(np.array([1.0, 0, 0, 0])) == pytest.approx(1 - 1 / 4, abs=1e-15)


def test_penalty_brute_force_and_renyi_identity():
    ev = np.random.default_rng(4).random(5)
    p = ev / ev.sum()
    brute = sum((pi - 0.2) ** 2 for pi in p)
    assert K.uniform_spectrum_penalty(ev) == pytest.approx(brute, abs=1e-15)
    assert K.uniform_spectrum_penalty(ev) == pytest.approx((p ** 2).sum() - 1 / 5, abs=1e-15)


def test_penalty_zero_for_whitened_features():
    X = np.random.default_rng(5).standard_normal((500, 6))
    Xc = X - X.mean(0)
    L = np.linalg.cholesky(np.cov(Xc, rowvar=False))
    Xw = Xc @ np.linalg.inv(L).T                             # covariance = I
    ev = K.feature_covariance_eigenvalues(torch.tensor(Xw)).numpy()
    assert K.uniform_spectrum_penalty(ev) < 1e-12
    assert K.effective_rank(ev) == pytest.approx(6.0, abs=1e-9)


def test_penalty_gradient_finite_with_repeated_eigenvalues():
    h = torch.tensor(np.random.default_rng(6).standard_normal((40, 3)))
    h = torch.cat([h, h[:, :1], torch.zeros(40, 2)], 1).requires_grad_(True)   # a repeated and two zero eigenvalues
    ev = K.feature_covariance_eigenvalues(h)
    K.uniform_spectrum_penalty(ev).backward()
    assert torch.isfinite(h.grad).all()
    # isotropic features (all eigenvalues equal): gradient finite too
    q, _ = torch.linalg.qr(torch.tensor(np.random.default_rng(7).standard_normal((30, 4))))
    h2 = (q * np.sqrt(29)).clone().requires_grad_(True)
    h2c = h2 - h2.mean(0)
    K.uniform_spectrum_penalty(K.feature_covariance_eigenvalues(h2c)).backward()
    assert torch.isfinite(h2.grad).all()


def test_penalty_descent_flattens_spectrum():
    torch.manual_seed(0)
    h = (torch.randn(64, 5) * torch.tensor([5.0, 1.0, 0.5, 0.2, 0.1])).requires_grad_(True)
    er0 = float(K.effective_rank(K.feature_covariance_eigenvalues(h)))
    opt = torch.optim.Adam([h], lr=0.05)
    for _ in range(200):
        opt.zero_grad()
        K.uniform_spectrum_penalty(K.feature_covariance_eigenvalues(h)).backward()
        opt.step()
    assert float(K.effective_rank(K.feature_covariance_eigenvalues(h))) > er0 + 1.0


def test_top_mode_fraction():
    assert K.top_mode_fraction(np.array([1.0, 3.0])) == pytest.approx(0.75)
    assert K.top_mode_fraction(torch.ones(4)) == pytest.approx(0.25)


def test_feature_covariance_eigenvalues_match_numpy():
    X = np.random.default_rng(8).standard_normal((50, 4)) @ np.diag([3.0, 1.0, 0.3, 0.1])
    ours = np.sort(K.feature_covariance_eigenvalues(torch.tensor(X)).numpy())
    ref = np.sort(np.linalg.eigvalsh(np.cov(X, rowvar=False)))
    assert np.allclose(ours, ref, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("bad, match", [(np.array([]), "non-empty"), (np.ones((2, 2)), "1-d"),
                                        (np.array([1.0, -1.0]), ">= 0"), (np.zeros(3), "positive sum"),
                                        (np.array([1.0, np.nan]), "finite")])
def test_bad_eigenvalues(bad, match):
    for f in (K.effective_rank, K.uniform_spectrum_penalty, K.top_mode_fraction):
        with pytest.raises(ValueError, match=match):
            f(bad)


def test_bad_features():
    with pytest.raises(ValueError, match="shape"):
        K.feature_covariance_eigenvalues(torch.ones(1, 3))
    with pytest.raises(ValueError, match="shape"):
        K.feature_covariance_eigenvalues(torch.ones(3))


# --- data, loss, training -----------------------------------------------------------------------------------

def test_make_spur_digits_correlation_and_groups():
    d = K.make_spur_digits(0.95, seed=0)
    assert d["X_train"].shape == (1200, 8, 8) and d["X_test"].shape == (597, 8, 8)
    agree = np.mean(d["a_train"] == d["y_train"])
    assert 0.93 < agree < 0.97
    assert abs(np.mean(d["a_test"] == d["y_test"]) - 0.5) < 0.06
    assert set(np.unique(d["g_test"])) == {0, 1, 2, 3}
    assert np.all(d["X_train"][d["a_train"] == 1, :2, :2] == 1.0)
    assert np.array_equal(d["g_train"], 2 * d["y_train"] + d["a_train"])
    d2 = K.make_spur_digits(0.95, seed=0)
    assert np.array_equal(d["X_train"], d2["X_train"])


def test_make_spur_digits_bad_input():
    with pytest.raises(ValueError, match="p_spurious"):
        K.make_spur_digits(0.3, seed=0)
    with pytest.raises(ValueError, match="n_train"):
        K.make_spur_digits(0.9, seed=0, n_train=1797)


def test_loss_with_zero_lambda_is_simclr_and_penalty_adds():
    torch.manual_seed(0)
    m = MLPEncoder()
    x = torch.rand(32, 8, 8)
    l0 = K.spectral_simclr_loss(m, x, torch.Generator().manual_seed(1), 0.0)
    l1 = K.spectral_simclr_loss(m, x, torch.Generator().manual_seed(1), 2.0)
    assert float(l1) > float(l0)


def test_training_records_spectra_and_regulariser_flattens():
    X = K.make_spur_digits(0.95, seed=0, n_train=300)["X_train"]
    base = K.train_spectral_simclr(X, 0.0, epochs=3, seed=0, batch_size=128)
    reg = K.train_spectral_simclr(X, 10.0, epochs=3, seed=0, batch_size=128)
    assert base["spectra"].shape == (4, 64) and len(base["losses"]) == 3
    assert np.allclose(base["spectra"][0], reg["spectra"][0])          # same initialisation
    assert K.effective_rank(reg["spectra"][-1]) > K.effective_rank(base["spectra"][-1])


def test_evaluate_probe_keys():
    d = K.make_spur_digits(0.95, seed=0, n_train=300)
    torch.manual_seed(0)
    r = K.evaluate_probe(MLPEncoder(), d)
    assert set(r["groups"]) == {0, 1, 2, 3} and r["worst_group"] == min(r["groups"].values())
    assert 0 <= r["worst_group"] <= r["accuracy"] <= 1


# --- the ablation: the same penalty on the diagonal of C -------------------------------------------------

def test_feature_variances_match_numpy_and_sum_to_trace():
    h = torch.tensor(np.random.default_rng(3).standard_normal((40, 5)))
    v = K.feature_variances(h)
    assert np.allclose(v.numpy(), np.var(h.numpy(), axis=0, ddof=1), atol=1e-12)
    assert float(v.sum()) == pytest.approx(float(K.feature_covariance_eigenvalues(h).sum()), rel=1e-5)


def test_diagonal_penalty_blind_to_correlation_spectral_penalty_not():
    # rank-one features with equal variances: C = v v^T with |v_i| equal; the diagonal is flat, the spectrum is not
    rng = np.random.default_rng(4)
    s = torch.tensor(rng.standard_normal((200, 1)))
    h = s * torch.tensor([[1.0, -1.0, 1.0, 1.0]])
    assert float(K.diagonal_uniformity_penalty(h)) == pytest.approx(0.0, abs=1e-12)
    assert float(K.uniform_spectrum_penalty(K.feature_covariance_eigenvalues(h))) == pytest.approx(0.75, abs=1e-5)


def test_diagonal_penalty_brute_force_and_schur_bound():
    rng = np.random.default_rng(5)
    for _ in range(5):
        h = torch.tensor(rng.standard_normal((30, 6)) @ rng.standard_normal((6, 6)))
        C = np.cov(h.numpy(), rowvar=False)
        q = np.diag(C) / np.trace(C)
        assert float(K.diagonal_uniformity_penalty(h)) == pytest.approx(np.sum((q - 1 / 6) ** 2), rel=1e-10)
        # Schur: the diagonal is majorised by the eigenvalues, so R_diag <= R
        assert float(K.diagonal_uniformity_penalty(h)) <= K.uniform_spectrum_penalty(np.linalg.eigvalsh(C)) + 1e-12


def test_entropy_regulariser_is_minus_log_effective_rank():
    torch.manual_seed(0)
    m = MLPEncoder()
    x = torch.rand(32, 8, 8)
    l0 = K.spectral_simclr_loss(m, x, torch.Generator().manual_seed(1), 0.0)
    le = K.spectral_simclr_loss(m, x, torch.Generator().manual_seed(1), 1.0, regulariser="entropy")
    gen = torch.Generator().manual_seed(1)
    from repro.ssl import augment_digits
    h1 = m(augment_digits(x, gen))[0]
    h2 = m(augment_digits(x, gen))[0]
    expect = -0.5 * (torch.log(K.effective_rank(K.feature_covariance_eigenvalues(h1)))
                     + torch.log(K.effective_rank(K.feature_covariance_eigenvalues(h2))))
    assert float(le - l0) == pytest.approx(float(expect), rel=1e-5)


def test_bad_regulariser():
    torch.manual_seed(0)
    with pytest.raises(ValueError, match="regulariser"):
        K.spectral_simclr_loss(MLPEncoder(), torch.rand(8, 8, 8), torch.Generator().manual_seed(0), 1.0,
                               regulariser="whiten")
    with pytest.raises(ValueError, match="snapshot"):
        K.train_spectral_simclr(np.zeros((10, 8, 8), np.float32), 0.0, epochs=2, seed=0, snapshots=(3,))


def test_snapshots_are_the_encoder_after_e_epochs():
    X = K.make_spur_digits(0.95, seed=0, n_train=300)["X_train"]
    out = K.train_spectral_simclr(X, 0.0, epochs=2, seed=0, batch_size=128, snapshots=(0, 2))
    plain = K.train_spectral_simclr(X, 0.0, epochs=2, seed=0, batch_size=128)
    Xt = torch.as_tensor(X)
    with torch.no_grad():
        for e in (0, 2):
            spec = np.sort(np.linalg.eigvalsh(np.cov(out["snapshots"][e](Xt)[0].numpy(), rowvar=False)))[::-1]
            assert np.allclose(spec, out["spectra"][e], rtol=1e-4, atol=1e-7)
    assert np.allclose(out["spectra"], plain["spectra"])        # snapshots draw no random numbers
    assert set(out["snapshots"]) == {0, 2}


def test_diagonal_ablation_trains_and_keeps_initialisation():
    X = K.make_spur_digits(0.95, seed=0, n_train=300)["X_train"]
    base = K.train_spectral_simclr(X, 0.0, epochs=2, seed=0, batch_size=128)
    abl = K.train_spectral_simclr(X, 10.0, epochs=2, seed=0, batch_size=128, regulariser="diagonal")
    assert np.allclose(base["spectra"][0], abl["spectra"][0]) and np.isfinite(abl["spectra"]).all()


# --- the whitening baseline and the signature's top-component correlation ----------------------------------

def test_zca_whiten_gives_identity_covariance_and_is_symmetric():
    rng = np.random.default_rng(6)
    A = rng.standard_normal((5, 5))
    tr, te = rng.standard_normal((400, 5)) @ A + 3.0, rng.standard_normal((50, 5)) @ A
    wtr, wte = K.zca_whiten(tr, te, eps=1e-12)
    assert np.allclose(np.cov(wtr, rowvar=False), np.eye(5), atol=1e-8)
    assert np.allclose(wtr.mean(0), 0.0, atol=1e-10) and wte.shape == (50, 5)
    # ZCA: the whitening matrix is the symmetric C^{-1/2}
    C = np.cov(tr, rowvar=False)
    w, V = np.linalg.eigh(C)
    assert np.allclose(wte, (te - tr.mean(0)) @ (V / np.sqrt(w)) @ V.T, atol=1e-8)


def test_zca_whiten_ridge_is_relative_and_tames_null_directions():
    rng = np.random.default_rng(7)
    tr = np.c_[rng.standard_normal((100, 3)), np.zeros(100)]          # a null direction
    w1, _ = K.zca_whiten(tr, tr[:5])
    w2, _ = K.zca_whiten(1000.0 * tr, 1000.0 * tr[:5])
    assert np.isfinite(w1).all() and np.allclose(w1, w2, atol=1e-8)    # scale-free
    ev = np.linalg.eigvalsh(np.cov(w1, rowvar=False))
    assert ev.max() == pytest.approx(1.0, abs=1e-3) and ev.min() < 1e-8
    with pytest.raises(ValueError):
        K.zca_whiten(tr, tr[:, :2])
    with pytest.raises(ValueError):
        K.zca_whiten(tr, tr, eps=0.0)


def test_evaluate_probe_whiten_option():
    d = K.make_spur_digits(0.95, seed=0, n_train=300)
    torch.manual_seed(0)
    r = K.evaluate_probe(MLPEncoder(), d, whiten=True)
    assert 0 <= r["worst_group"] <= r["accuracy"] <= 1


def test_top_component_correlation():
    rng = np.random.default_rng(8)
    a = rng.integers(0, 2, 300).astype(float)
    h = np.c_[5.0 * a + 0.1 * rng.standard_normal(300), rng.standard_normal((300, 3))]
    assert K.top_component_correlation(h, a) > 0.99
    assert K.top_component_correlation(-h, a) > 0.99                  # sign-free
    h2 = np.c_[0.1 * a, 5.0 * rng.standard_normal(300)]               # the top mode is unrelated to a
    assert K.top_component_correlation(h2, a) < 0.2
    with pytest.raises(ValueError):
        K.top_component_correlation(h, a[:10])
