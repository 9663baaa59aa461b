"""Unit tests of :mod:`repro.papers.sigma_tta_inverse_gamma`, the kernels of ``notebooks/sigma-tta-inverse-gamma.py``."""

import inspect

import numpy as np
import pytest
import scipy.stats
import torch

from repro.optim import Adam
from repro.papers import sigma_tta_inverse_gamma as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/sigma_tta_inverse_gamma.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# ----------------------------------------------------------------------------- em_stationary_variance
def test_em_stationary_variance_signature_is_the_issues():
    assert list(inspect.signature(K.em_stationary_variance).parameters) == ["kappa", "sigma", "h"]


@pytest.mark.parametrize("kappa,sigma,h", [(1.0, 1.0, 0.1), (2.0, 0.5, 0.3), (0.3, 2.0, 5.0), (1.0, 1.0, 1.9)])
def test_em_stationary_variance_is_the_fixed_point_of_the_ar1_recursion(kappa, sigma, h):
    V = K.em_stationary_variance(kappa, sigma, h)
    a = 1 - kappa * h
    assert V == pytest.approx(a**2 * V + sigma**2 * h, rel=1e-12)
    # brute force: iterate the variance recursion from 0
    W = 0.0
    for _ in range(20000):
        W = a**2 * W + sigma**2 * h
    assert V == pytest.approx(W, rel=1e-9)


def test_em_stationary_variance_limits_and_closed_forms():
    # h -> 0: the SDE's sigma^2 / (2 kappa)
    assert K.em_stationary_variance(1.5, 0.7, 1e-9) == pytest.approx(0.7**2 / 3.0, rel=1e-8)
    # kappa h = 1: the chain forgets in one step, V = sigma^2 h
    assert K.em_stationary_variance(2.0, 3.0, 0.5) == pytest.approx(9.0 * 0.5, rel=1e-12)
    assert K.em_stationary_variance(1.0, 0.0, 0.5) == 0.0
    # as a discrete AR(1): statsmodels-free check via scipy's lfilter variance of a long path
    rng = np.random.default_rng(0)
    x = K.simulate_em_ou(1.0, 1.0, 0.5, 200, 40000, rng)
    assert np.var(x) == pytest.approx(K.em_stationary_variance(1.0, 1.0, 0.5), rel=0.03)


def test_em_stationary_variance_rejects_bad_input():
    with pytest.raises(ValueError, match="kappa\\*h < 2"):
        K.em_stationary_variance(1.0, 1.0, 2.0)
    with pytest.raises(ValueError, match="kappa"):
        K.em_stationary_variance(0.0, 1.0, 0.1)
    with pytest.raises(ValueError, match="sigma"):
        K.em_stationary_variance(1.0, -1.0, 0.1)
    with pytest.raises(ValueError, match="h"):
        K.em_stationary_variance(1.0, 1.0, 0.0)
    with pytest.raises(ValueError, match="finite"):
        K.em_stationary_variance(float("nan"), 1.0, 0.1)


def test_simulate_em_ou_shapes_and_determinism():
    a = K.simulate_em_ou(1.0, 1.0, 0.1, 5, 7, np.random.default_rng(3))
    b = K.simulate_em_ou(1.0, 1.0, 0.1, 5, 7, np.random.default_rng(3))
    assert a.shape == (7,) and np.array_equal(a, b)
    # sigma = 0: deterministic decay theta0 (1 - kappa h)^n
    assert np.allclose(K.simulate_em_ou(1.0, 0.0, 0.1, 10, 3, np.random.default_rng(0), theta0=2.0), 2.0 * 0.9**10)
    with pytest.raises(ValueError, match="n_steps"):
        K.simulate_em_ou(1.0, 1.0, 0.1, 0, 3, np.random.default_rng(0))


# ----------------------------------------------------------------------------- inverse-gamma law
def test_fit_inverse_gamma_recovers_parameters():
    rng = np.random.default_rng(1)
    x = scipy.stats.invgamma.rvs(4.0, scale=3.0, size=10_000, random_state=rng)
    a, b = K.fit_inverse_gamma(x)
    assert a == pytest.approx(4.0, rel=0.1) and b == pytest.approx(3.0, rel=0.1)


def test_fit_inverse_gamma_rejects_bad_input():
    with pytest.raises(ValueError, match="> 0"):
        K.fit_inverse_gamma([1.0, -1.0, 2.0])
    with pytest.raises(ValueError, match="all equal"):
        K.fit_inverse_gamma([2.0, 2.0, 2.0])
    with pytest.raises(ValueError, match="at least 2"):
        K.fit_inverse_gamma([2.0])


def test_ig_quantile_map_is_near_identity_on_reference_samples_and_keeps_order():
    rng = np.random.default_rng(2)
    x = scipy.stats.invgamma.rvs(20.0, scale=300.0, size=20_000, random_state=rng)
    y = K.ig_quantile_map(x, 20.0, 300.0)
    assert np.median(np.abs(y - x) / x) < 0.01
    assert np.array_equal(np.argsort(y), np.argsort(x))
    # output has exactly the reference quantiles
    n = 5
    z = K.ig_quantile_map(np.array([5.0, 1.0, 3.0, 2.0, 4.0]), 3.0, 2.0)
    q = scipy.stats.invgamma.ppf((np.arange(1, n + 1) - 0.5) / n, 3.0, scale=2.0)
    assert np.allclose(z, q[[4, 0, 2, 1, 3]])


def test_sigma_multipliers_direction_clip_and_inversion():
    alpha, beta = 30.0, 30.0 * 12.0  # mean about 12.4
    rng = np.random.default_rng(4)
    s_ref = scipy.stats.invgamma.rvs(alpha, scale=beta, size=2000, random_state=rng)
    # following the law: multipliers near 1
    assert np.median(np.abs(np.log(K.sigma_multipliers(s_ref, alpha, beta)))) < 0.05
    # variances 4x too large (s smaller by log 4): steps halved
    m = K.sigma_multipliers(s_ref - np.log(4.0), alpha, beta)
    assert np.median(m) == pytest.approx(0.5, rel=0.05)
    inv = K.sigma_multipliers(s_ref - np.log(4.0), alpha, beta, invert=True)
    assert np.median(inv) == pytest.approx(2.0, rel=0.05)
    m_big = K.sigma_multipliers(s_ref - 20.0, alpha, beta, clip=(0.1, 2.0))
    assert np.allclose(m_big, 0.1)
    with pytest.raises(ValueError, match="clip"):
        K.sigma_multipliers(s_ref, alpha, beta, clip=(1.5, 2.0))
    # the normal reference law (the skeptic's variant): samples of that law get multipliers near 1, and
    # variances 4x too large get steps halved
    s_n = rng.normal(12.0, 0.5, 2000)
    assert np.median(np.abs(np.log(K.sigma_multipliers(s_n, 12.0, 0.5, law="normal")))) < 0.05
    assert np.median(K.sigma_multipliers(s_n - np.log(4.0), 12.0, 0.5, law="normal")) == pytest.approx(0.5, rel=0.05)
    with pytest.raises(ValueError, match="law"):
        K.sigma_multipliers(s_ref, alpha, beta, law="gamma")


def test_ks_inverse_gamma_matches_scipy_and_tracker_statistic():
    rng = np.random.default_rng(5)
    x = scipy.stats.invgamma.rvs(3.0, scale=2.0, size=500, random_state=rng)
    assert K.ks_inverse_gamma(x, 3.0, 2.0) == pytest.approx(scipy.stats.kstest(x, "invgamma", (3.0, 0, 2.0)).statistic)
    tr = K.TransitionTracker(np.full(3, 1e-4), rho=0.5)
    tr.update(np.array([0.0, 1e-2, 2e-2]))
    assert np.allclose(tr.v, [0.5e-4, 1e-4, 2.5e-4])
    assert np.allclose(tr.stats(), -np.log(tr.v))
    with pytest.raises(ValueError, match="shape"):
        tr.update(np.zeros(2))
    with pytest.raises(ValueError, match="> 0"):
        K.TransitionTracker(np.zeros(3))
    with pytest.raises(ValueError, match="> 0"):
        K.log_variance_statistic([1.0, 0.0])


# ----------------------------------------------------------------------------- optimiser, data, TENT
def test_regulated_adam_with_unit_multipliers_is_adam():
    torch.manual_seed(0)
    A = torch.randn(5, 4)
    t1 = torch.randn(4, requires_grad=True)
    t2 = t1.detach().clone().requires_grad_(True)
    ours, ref = K.RegulatedAdam(t1, lr=1e-2), Adam([t2], lr=1e-2)
    for _ in range(25):
        (A @ t1).pow(2).sum().backward()
        ours.apply(ours.propose(), np.ones(4))
        ref.zero_grad()
        (A @ t2).pow(2).sum().backward()
        ref.step()
    assert torch.allclose(t1, t2, atol=1e-6)
    # torch's SGD for the SGD variant
    t3 = torch.ones(4, requires_grad=True)
    t4 = torch.ones(4, requires_grad=True)
    sgd, tsgd = K.RegulatedSGD(t3, lr=0.1), torch.optim.SGD([t4], lr=0.1)
    for _ in range(5):
        (A @ t3).pow(2).sum().backward()
        sgd.apply(sgd.propose())
        tsgd.zero_grad()
        (A @ t4).pow(2).sum().backward()
        tsgd.step()
    assert torch.allclose(t3, t4, atol=1e-6)
    with pytest.raises(ValueError, match="leaf"):
        K.RegulatedAdam(torch.ones(3))


def test_corrupt_and_stream():
    rng = np.random.default_rng(0)
    X = rng.random((20, 64)).astype(np.float32)
    for kind in K.CORRUPTIONS:
        Y = K.corrupt(X, kind, 0.5 if kind != "pixel-shift" else 1, rng)
        assert Y.shape == X.shape and Y.min() >= 0 and Y.max() <= 1
    assert np.allclose(K.corrupt(X, "contrast", 0.0, rng), X)
    assert np.allclose(K.corrupt(X, "gaussian-noise", 0.0, rng), X)
    with pytest.raises(ValueError, match="unknown"):
        K.corrupt(X, "fog", 0.5, rng)
    with pytest.raises(ValueError, match="64"):
        K.corrupt(X[:, :10], "blur", 0.5, rng)
    y = np.repeat(np.arange(4), 10)
    b = K.make_stream(y, "sorted", 5, rng)
    assert sorted(np.concatenate(b)) == list(range(40))
    assert all(len(np.unique(y[i])) == 1 for i in b)   # label-sorted: one class per batch here
    b2 = K.make_stream(y, "iid", 16, rng)
    assert [len(i) for i in b2] == [16, 16, 8]
    with pytest.raises(ValueError, match="order"):
        K.make_stream(y, "random", 5, rng)


def test_tent_updates_only_batchnorm_affine_parameters_and_source_is_unchanged():
    rng = np.random.default_rng(0)
    d = K.load_digit_splits(rng)
    model = K.train_source_model(d["X_train"], d["y_train"], seed=0, steps=30)
    before = {k: v.clone() for k, v in model.state_dict().items()}
    Xc = K.corrupt(d["X_test"][:64], "blur", 1.0, rng)
    batches = K.make_stream(d["y_test"][:64], "iid", 16, rng)
    ref = K.reference_phase(model, d["X_ref"], 5, 16, 1e-2, 0.9, rng)
    r = K.run_stream(model, Xc, d["y_test"][:64], batches, "tent+sigma", lr=1e-2, ref=ref)
    after = model.state_dict()
    assert all(torch.equal(before[k], after[k]) for k in before)   # the frozen network is untouched
    assert len(r.drift) == len(batches) and r.drift[-1] > 0         # only theta (the BN affine vector) moved
    assert model.source_theta().shape == (4 * model.hidden,)
    src = K.run_stream(model, Xc, d["y_test"][:64], batches, "source")
    with torch.no_grad():
        direct = model(torch.as_tensor(Xc)).argmax(1).numpy() == d["y_test"][:64]
    assert src.accuracy == pytest.approx(direct.mean())
    with pytest.raises(ValueError, match="reference law"):
        K.run_stream(model, Xc, d["y_test"][:64], batches, "tent+sigma")
    with pytest.raises(ValueError, match="unknown method"):
        K.run_stream(model, Xc, d["y_test"][:64], batches, "eata")


def test_entropy_closed_forms():
    assert float(K.entropy(torch.zeros(3, 4))) == pytest.approx(np.log(4))
    assert float(K.entropy(torch.tensor([[100.0, 0.0]]))) < 1e-6
    with pytest.raises(ValueError, match="logits"):
        K.entropy(torch.zeros(3))


# ----------------------------------------------------------------------------- the comparators (issue 34)
def test_ks_kernels_match_scipy_and_reject_bad_input():
    rng = np.random.default_rng(6)
    for a, b in ((3.0, 2.0), (1500.0, 1500.0 * 12.0)):
        x = scipy.stats.invgamma.rvs(a, scale=b, size=257, random_state=rng)
        assert K.ks_inverse_gamma(x, a, b) == pytest.approx(
            scipy.stats.kstest(x, scipy.stats.invgamma(a, scale=b).cdf).statistic, rel=1e-9, abs=1e-12)
        # a law far off gives a distance near 1
        assert K.ks_inverse_gamma(x, a, b * 100) > 0.99
    # the quantile map's fast path is scipy's invgamma.ppf
    z = rng.random(50)
    assert np.allclose(K.ig_quantile_map(z, 7.0, 3.0),
                       scipy.stats.invgamma.ppf((scipy.stats.rankdata(z) - 0.5) / 50, 7.0, scale=3.0), rtol=1e-10)
    x = rng.normal(5.0, 2.0, 400)
    mu, sd = x.mean(), x.std()
    assert K.ks_normal_fit(x) == pytest.approx(scipy.stats.kstest(x, "norm", args=(mu, sd)).statistic, rel=1e-9)
    assert K.ks_normal_fit(x) < 0.08                       # normal samples fit a normal law
    assert K.ks_normal_fit(rng.exponential(1.0, 400) ** 3) > 0.15   # a heavy skew does not
    with pytest.raises(ValueError, match="not all equal"):
        K.ks_normal_fit([1.0, 1.0])
    with pytest.raises(ValueError, match="empty"):
        K.ks_inverse_gamma(np.zeros(0), 1.0, 1.0)


@pytest.fixture(scope="module")
def small_setting():
    rng = np.random.default_rng(0)
    d = K.load_digit_splits(rng)
    model = K.train_source_model(d["X_train"], d["y_train"], seed=0, steps=30)
    Xc = K.corrupt(d["X_test"][:96], "blur", 1.0, rng)
    y = d["y_test"][:96]
    batches = K.make_stream(y, "sorted", 16, rng)
    ref = K.reference_phase(model, d["X_ref"], 5, 16, 1e-2, 0.9, rng)
    return model, Xc, y, batches, ref


def test_unit_clip_makes_every_regulated_method_tent(small_setting):
    model, Xc, y, batches, ref = small_setting
    base = K.run_stream(model, Xc, y, batches, "tent", lr=1e-2, ref=ref)
    for m in ("tent+sigma", "tent+sigma-mean", "tent+anti-sigma") + K.SKEPTIC_METHODS:
        r = K.run_stream(model, Xc, y, batches, m, lr=1e-2, ref=ref, clip=(1.0, 1.0))
        assert np.array_equal(r.correct, base.correct) and np.allclose(r.drift, base.drift, rtol=1e-6)
        assert np.allclose(r.mean_multiplier, 1.0)


def test_sigma_mean_applies_sigmas_mean_multiplier_uniformly(small_setting):
    model, Xc, y, batches, ref = small_setting
    sig = K.run_stream(model, Xc, y, batches, "tent+sigma", lr=1e-2, ref=ref)
    avg = K.run_stream(model, Xc, y, batches, "tent+sigma-mean", lr=1e-2, ref=ref)
    # the first step starts from the same state: same mean multiplier; a uniform scaling of Adam's first step
    # moves theta by that multiplier times TENT's first step
    assert avg.mean_multiplier[0] == pytest.approx(sig.mean_multiplier[0], rel=1e-9)
    tent = K.run_stream(model, Xc, y, batches, "tent", lr=1e-2, ref=ref)
    assert avg.drift[0] == pytest.approx(avg.mean_multiplier[0] * tent.drift[0], rel=1e-5)
    assert not np.allclose(avg.drift, sig.drift)           # the per-parameter structure changes the path
    # the permuted variant applies the same multipliers at the first step, in another order
    perm = K.run_stream(model, Xc, y, batches, "tent+sigma-perm", lr=1e-2, ref=ref)
    assert perm.mean_multiplier[0] == pytest.approx(sig.mean_multiplier[0], rel=1e-9)
    assert not np.allclose(perm.drift, sig.drift)


def test_ema_norm_is_tent_with_vanishing_steps(small_setting):
    model, Xc, y, batches, ref = small_setting
    ema = K.run_stream(model, Xc, y, batches, "ema-norm")
    tiny = K.run_stream(model, Xc, y, batches, "tent", lr=1e-12)
    assert np.array_equal(ema.correct, tiny.correct)
    src = K.run_stream(model, Xc, y, batches, "source")
    assert not np.array_equal(ema.correct, src.correct)     # the running statistics do move
