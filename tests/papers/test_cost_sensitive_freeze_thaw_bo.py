"""Unit tests of :mod:`repro.papers.cost_sensitive_freeze_thaw_bo`, the kernels of ``notebooks/cost-sensitive-freeze-thaw-bo.py``."""

import inspect
import json
from pathlib import Path

import numpy as np
import pytest
import scipy.stats

from repro.papers import cost_sensitive_freeze_thaw_bo as K

GOLDEN = json.loads((Path(__file__).parent / "golden" / "cost-sensitive-freeze-thaw-bo.json").read_text())


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/cost_sensitive_freeze_thaw_bo.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# ----------------------------------------------------------------------------- golden: the official code
def _golden_state():
    inp = GOLDEN["inputs"]
    curves = np.array(inp["curves"])
    m = np.zeros(inp["n_hps"], dtype=int)
    y_obs = np.zeros_like(curves)
    for hp, t in inp["order"]:
        y_obs[hp, t - 1] = curves[hp, t - 1]
        m[hp] = t
    best = max(curves[hp, t - 1] for hp, t in inp["order"])
    first = curves[inp["order"][0][0], 0]
    return np.array(inp["samples"]), m, len(inp["order"]), best, first, y_obs


@pytest.mark.parametrize("case", [c for c in GOLDEN["cases"] if c["name"].startswith("hpo")], ids=lambda c: c["name"])
def test_golden_acquisition_matches_official_hpo(case):
    samples, m, spent, best, first, _ = _golden_state()
    a, c, B = case["input"]["alpha"], case["input"]["c"], case["input"]["B"]
    out, tol = case["output"], case["tol"]
    acq, prob = K.cfbo_acquisition(samples, m, spent, best, alpha=a, c=c, total_budget=B)
    # the official samples are float32: compare with their rounding of the inputs
    acq32, prob32 = K.cfbo_acquisition(samples.astype(np.float32), m, spent, np.float32(best), alpha=a, c=c,
                                       total_budget=B)
    np.testing.assert_allclose(acq32, out["acq"], atol=tol)
    np.testing.assert_allclose(acq, out["acq"], atol=5e-6)
    np.testing.assert_array_equal(prob32, out["prob"])
    assert out["budget_spent"] == spent and out["max_score"] == pytest.approx(best)
    assert float(K.utility(spent, best, a, c, B)) == pytest.approx(out["current_utility"], abs=1e-12)
    valid = m < samples.shape[-1]
    assert int(np.argmax(np.where(valid, acq32, -np.inf))) == out["best_index"]
    assert prob32[out["best_index"]] == out["best_prob"]
    # u_min = U(B, first score), u_max = best utility along the observations (official observe)
    inc = np.maximum.accumulate([_golden_curve_score(hp, t) for hp, t in GOLDEN["inputs"]["order"]])
    u_max = float(np.max(K.utility(np.arange(1, spent + 1), inc, a, c, B)))
    assert u_max == pytest.approx(out["u_max"], abs=1e-12)
    assert float(K.utility(B, first, a, c, B)) == pytest.approx(out["u_min"], abs=1e-12)
    stop = K.cfbo_should_stop(u_max, out["u_min"], out["current_utility"], out["best_prob"])
    assert bool(stop) == out["stop"]


def _golden_curve_score(hp, t):
    return GOLDEN["inputs"]["curves"][hp][t - 1]


def test_golden_stopping_rule_matches_official():
    case = next(c for c in GOLDEN["cases"] if c["name"].startswith("stopping"))
    for row, rhs, stop in zip(case["input"]["grid"], case["output"]["rhs"], case["output"]["stop"]):
        assert float(K.stop_threshold(row["p"])) == pytest.approx(rhs, abs=case["tol"])
        assert bool(K.cfbo_should_stop(row["u_max"], row["u_min"], row["u_now"], row["p"])) == stop


# ----------------------------------------------------------------------------- utility
def test_utility_decreases_in_budget_and_increases_in_score():
    b = np.arange(0, 11)
    u = K.utility(b, 0.8, alpha=0.5, c=2.0, total_budget=10)
    assert np.all(np.diff(u) < 0)
    assert np.all(np.diff(K.utility(5, np.linspace(0, 1, 7), 0.5, 1.0, 10)) > 0)
    assert K.utility(0, 0.8, 0.5, 1.0, 10) == pytest.approx(0.8)
    assert K.utility(10, 0.8, 0.5, 1.0, 10) == pytest.approx(0.3)
    assert K.utility(11, 0.8, 0.5, 1.0, 10) == -np.inf
    assert np.all(K.utility(b, 0.7, 0.0, 1.0, 10) == 0.7)


def test_utility_rejects_bad_input():
    with pytest.raises(ValueError, match="alpha"):
        K.utility(1, 0.5, -0.1, 1.0, 10)
    with pytest.raises(ValueError, match="c"):
        K.utility(1, 0.5, 0.1, 0.0, 10)
    with pytest.raises(ValueError, match="budget"):
        K.utility(-1, 0.5, 0.1, 1.0, 10)


# ----------------------------------------------------------------------------- acquisition
def test_acquisition_with_one_deterministic_curve_is_the_hand_computed_max_improvement():
    # alpha = 0, K = 1: the acquisition is the largest future score above the best, the probability 1
    curve = np.array([0.5, 0.6, 0.75, 0.7, 0.9])
    acq, prob = K.cfbo_acquisition(curve[None, None, :], np.array([2]), 7, 0.72, alpha=0.0, c=1.0, total_budget=20)
    assert acq[0] == pytest.approx(0.9 - 0.72)
    assert prob[0] == 1.0
    # with a cost: max over t of U(b + t - m + 1, cummax) - U(b, best), by brute force
    a, c, B, b, best, m = 0.5, 1.0, 20, 7, 0.72, 2
    brute = max(max(0.0, (max(best, curve[m:t + 1].max()) - a * ((b + t - m + 1) / B) ** c)
                    - (best - a * (b / B) ** c)) for t in range(m, 5))
    acq, prob = K.cfbo_acquisition(curve[None, None, :], np.array([m]), b, best, alpha=a, c=c, total_budget=B)
    assert acq[0] == pytest.approx(brute)
    assert prob[0] == 1.0  # epoch 5 (0.9) pays for its 3 epochs of cost 0.075


def test_acquisition_takes_no_utility_from_the_past():
    # a huge score on an epoch already observed must not count
    curve = np.array([[[0.99, 0.2, 0.2]]])
    acq, prob = K.cfbo_acquisition(curve, np.array([1]), 3, 0.5, alpha=0.1, c=1.0, total_budget=10)
    assert acq[0] == 0.0 and prob[0] == 0.0
    full, pf = K.cfbo_acquisition(curve, np.array([3]), 3, 0.5, alpha=0.1, c=1.0, total_budget=10)
    assert full[0] == 0.0 and pf[0] == 0.0


def test_acquisition_never_pays_beyond_the_budget():
    curve = np.full((1, 1, 4), 1.0)
    acq, prob = K.cfbo_acquisition(curve, np.array([0]), 10, 0.1, alpha=0.1, c=1.0, total_budget=10)
    assert acq[0] == 0.0 and prob[0] == 0.0


def test_acquisition_broadcasts_over_runs():
    rng = np.random.default_rng(0)
    s = rng.random((3, 4, 5, 6))
    m = rng.integers(0, 7, size=(3, 4))
    spent, best = np.array([5, 9, 12]), np.array([0.5, 0.7, 0.8])
    acq, prob = K.cfbo_acquisition(s, m, spent, best, alpha=0.5, c=1.0, total_budget=40)
    for r in range(3):
        a1, p1 = K.cfbo_acquisition(s[r], m[r], spent[r], best[r], alpha=0.5, c=1.0, total_budget=40)
        np.testing.assert_allclose(acq[r], a1)
        np.testing.assert_allclose(prob[r], p1)


def test_acquisition_rejects_bad_shapes():
    with pytest.raises(ValueError, match="n_observed"):
        K.cfbo_acquisition(np.zeros((2, 3, 4)), np.array([0, 5]), 1, 0.5, alpha=0.1, c=1.0, total_budget=10)
    with pytest.raises(ValueError, match="curve_samples"):
        K.cfbo_acquisition(np.zeros((3, 4)), np.array([0]), 1, 0.5, alpha=0.1, c=1.0, total_budget=10)


def test_final_value_ei_is_monte_carlo_expected_improvement():
    rng = np.random.default_rng(1)
    s = rng.normal(0.8, 0.1, size=(2, 20000, 5))
    ei = K.final_value_ei(s, np.array([1, 5]), 0.85)
    z = (0.8 - 0.85) / 0.1
    closed = (0.8 - 0.85) * scipy.stats.norm.cdf(z) + 0.1 * scipy.stats.norm.pdf(z)
    assert ei[0] == pytest.approx(closed, abs=2e-3)
    assert ei[1] == -np.inf


# ----------------------------------------------------------------------------- stopping
def test_stop_threshold_is_the_beta_cdf_power_and_equals_threshold_at_one_half():
    p = np.linspace(0, 1, 11)
    rhs = K.stop_threshold(p, beta=-1.0, threshold=0.2)
    a = np.exp(-1.0)
    np.testing.assert_allclose(rhs, scipy.stats.beta.cdf(p, a, a) ** np.log2(5.0))
    assert K.stop_threshold(0.5, threshold=0.3) == pytest.approx(0.3)
    assert np.all(np.diff(rhs) >= 0)


def test_stop_with_p_zero_always_and_with_p_one_only_at_the_floor():
    assert K.cfbo_should_stop(0.8, 0.2, 0.8, 0.0)          # lhs 0 >= rhs 0
    assert K.cfbo_should_stop(0.8, 0.2, 0.5, 0.0)
    assert not K.cfbo_should_stop(0.8, 0.2, 0.21, 1.0)
    assert K.cfbo_should_stop(0.8, 0.2, 0.2, 1.0)
    assert not K.cfbo_should_stop(0.5, 0.5, 0.0, 0.0)      # u_max == u_min: never


def test_stop_threshold_rejects_bad_input():
    with pytest.raises(ValueError, match="p must"):
        K.stop_threshold(1.5)
    with pytest.raises(ValueError, match="threshold"):
        K.stop_threshold(0.5, threshold=1.0)


def test_cost_free_utility_never_stops():
    # alpha = 0: the utility is the best score, so U_now = u_max, lhs = 0 and p* = 1 whenever an epoch is left
    rng = np.random.default_rng(2)
    Y = np.sort(rng.uniform(0.5, 0.9, size=(2, 4, 5)), axis=-1)
    out = K.run_freeze_thaw(Y, "cfbo", K.generic_prior(8), 12, alpha=0.0, c=1.0, n_samples=16, rng=rng)
    assert np.all(out["stop"] == 12)
    assert np.all(out["p"][:, 1:] == 1.0)


def test_threshold_stop_budget_fires_when_the_ratio_is_reached():
    inc = np.full(10, 0.9)  # no improvement after the first epoch: U drops by alpha/B per epoch
    # u_max = U(1), u_min = U(10, 0.9); ratio after b epochs = (b - 1)/9 >= 0.2 first at b = 3 (2/9 = 0.22)
    assert K.threshold_stop_budget(inc, 1.0, 1.0, 10) == 3
    assert K.threshold_stop_budget(inc, 0.0, 1.0, 10) == 10   # no cost: never fires, stops at the end


# ----------------------------------------------------------------------------- surrogate
def test_posterior_mean_recovers_a_noiseless_power_law():
    prior = K.generic_prior(24)
    kappa = prior.kappas[10]
    t = np.arange(1, 21)
    y = 0.95 + (0.6 - 0.95) * t ** (-kappa)
    log_w, mu, cov = K.curve_posterior(y[None], np.array([20]), K.PowerLawPrior(
        prior.mean, prior.cov, prior.kappas, prior.log_weights, 1e-3))
    g = int(np.argmax(log_w[0]))
    assert g == 10
    np.testing.assert_allclose(mu[0, g], [0.95, 0.6], atol=1e-3)
    np.testing.assert_allclose(np.exp(log_w).sum(-1), 1.0)


def test_posterior_agrees_with_the_gaussian_marginal_likelihood():
    # brute force: log N(y; Phi mu0, Phi S0 Phi^T + s^2 I) per grid point, normalised with the prior weights
    prior = K.generic_prior(6)
    rng = np.random.default_rng(3)
    y = rng.uniform(0.5, 0.9, size=7)
    m = 4
    log_w, mu, cov = K.curve_posterior(np.r_[y, 0.0][None], np.array([m]), prior)
    t = np.arange(1, m + 1)
    logev = []
    for g, kap in enumerate(prior.kappas):
        Phi = np.stack([1 - t ** -kap, t ** -kap], 1)
        C = Phi @ prior.cov @ Phi.T + prior.noise_sd ** 2 * np.eye(m)
        logev.append(scipy.stats.multivariate_normal(Phi @ prior.mean, C).logpdf(y[:m]))
        post_cov = np.linalg.inv(np.linalg.inv(prior.cov) + Phi.T @ Phi / prior.noise_sd ** 2)
        np.testing.assert_allclose(cov[0, g], post_cov, rtol=1e-9)
    ref = np.array(logev) + prior.log_weights
    np.testing.assert_allclose(log_w[0], ref - scipy.special.logsumexp(ref), atol=1e-9)


def test_no_observation_gives_back_the_prior():
    prior = K.generic_prior(5)
    log_w, mu, cov = K.curve_posterior(np.zeros((3, 6)), np.zeros(3, dtype=int), prior)
    np.testing.assert_allclose(log_w, np.broadcast_to(prior.log_weights, (3, 5)), atol=1e-12)
    np.testing.assert_allclose(mu, np.broadcast_to(prior.mean, (3, 5, 2)), atol=1e-12)


def test_sampled_curves_have_the_posterior_moments():
    # a single exponent: the curves are Gaussian, mean Phi mu
    prior = K.PowerLawPrior(np.array([0.6, 0.4]), np.diag([0.01, 0.01]), np.array([0.5]), np.zeros(1), 0.01)
    rng = np.random.default_rng(4)
    s = K.sample_future_curves(np.zeros((1, 5)), np.array([0]), prior, 40000, rng)
    t = np.arange(1, 6)
    mean = 0.6 * (1 - t ** -0.5) + 0.4 * t ** -0.5
    np.testing.assert_allclose(s[0].mean(0), mean, atol=3e-3)
    var = 0.01 * (1 - t ** -0.5) ** 2 + 0.01 * t ** -1.0 + 1e-4
    np.testing.assert_allclose(s[0].var(0), var, rtol=0.05)
    assert s.shape == (1, 40000, 5) and s.min() >= 0 and s.max() <= 1


def test_transfer_prior_centres_each_configuration_on_its_source_fits():
    t = np.arange(1, 11)
    finals = np.array([0.9, 0.7, 0.8])
    src = np.stack([f + (0.5 - f) * t ** -1.0 for f in finals])                # (n_cfg, T)
    tasks = np.stack([src, src + 0.01])                                         # (2, 3, 10)
    pr = K.fit_source_prior(tasks)
    assert pr.mean.shape == (3, 2)
    np.testing.assert_allclose(pr.mean[:, 0], finals + 0.005, atol=0.01)
    assert pr.cov.shape == (2, 2) and np.all(np.linalg.eigvalsh(pr.cov) > 0)
    assert np.exp(pr.log_weights).sum() == pytest.approx(1.0)
    perm = K.permuted_prior(pr, np.random.default_rng(0))
    assert sorted(map(tuple, perm.mean)) == sorted(map(tuple, pr.mean))
    with pytest.raises(ValueError, match="n_tasks"):
        K.fit_source_prior(tasks[:1])
    with pytest.raises(ValueError, match="per-configuration"):
        K.permuted_prior(K.generic_prior(), np.random.default_rng(0))


# ----------------------------------------------------------------------------- runs and measures
def test_run_freeze_thaw_respects_budget_and_order():
    rng = np.random.default_rng(5)
    Y = np.sort(rng.uniform(0.3, 0.9, size=(2, 5, 6)), axis=-1)
    for method in K.METHODS:
        out = K.run_freeze_thaw(Y, method, K.generic_prior(8), 15, alpha=0.5, c=1.0, n_samples=16, rng=rng)
        assert out["incumbent"].shape == (2, 15)
        assert np.all(np.diff(out["incumbent"], axis=1) >= 0)
        counts = np.stack([np.bincount(ch, minlength=5) for ch in out["choice"]])
        assert counts.sum(1).tolist() == [15, 15] and counts.max() <= 6
        # the incumbent is the best of the epochs actually trained
        for r in range(2):
            seen = [Y[r, j, k] for j in range(5) for k in range(counts[r, j])]
            assert out["incumbent"][r, -1] == max(seen)
        assert np.all((out["stop"] >= 1) & (out["stop"] <= 15))
    with pytest.raises(ValueError, match="method"):
        K.run_freeze_thaw(Y, "dyhpo", K.generic_prior(), 10, alpha=0.5, c=1.0, n_samples=4, rng=rng)
    with pytest.raises(ValueError, match="exceeds"):
        K.run_freeze_thaw(Y, "cfbo", K.generic_prior(), 31, alpha=0.5, c=1.0, n_samples=4, rng=rng)


def test_measures():
    inc = np.array([0.5, 0.7, 0.7, 0.9, 0.9, 0.9])
    assert K.realised_utility(inc, 4, 0.3, 1.0, 6) == pytest.approx(0.9 - 0.2)
    b_star = K.best_budget_on_trajectory(inc, 0.3, 1.0, 6)
    assert b_star == 4
    with pytest.raises(ValueError, match="stop"):
        K.realised_utility(inc, 0, 0.6, 1.0, 6)
    Y = np.array([[0.5, 0.9], [0.6, 0.7]])
    u_max, u_min = K.oracle_utility_range(Y, 0.5, 1.0, 10)
    assert u_max == pytest.approx(0.9 - 0.1) and u_min == pytest.approx(0.5 - 0.5)
    assert K.normalised_regret(u_max, u_max, u_min) == 0.0
    assert K.normalised_regret(u_min, u_max, u_min) == 1.0
    with pytest.raises(ValueError, match="u_max"):
        K.normalised_regret(0.1, 0.2, 0.2)


def test_full_training_incumbent_and_plain_bo():
    Y = np.array([[0.1, 0.2], [0.5, 0.4], [0.3, 0.9]])
    np.testing.assert_allclose(K.full_training_incumbent(Y, [1, 2], 3), [0.5, 0.5, 0.5])
    np.testing.assert_allclose(K.full_training_incumbent(Y, [1, 2], 4), [0.5, 0.5, 0.5, 0.9])
    with pytest.raises(ValueError, match="fewer"):
        K.full_training_incumbent(Y, [1], 3)
    feats = K.config_features(K.config_grid()[:6])
    assert feats.shape == (6, 4) and feats.min() == 0 and feats.max() == 1
    rng = np.random.default_rng(0)
    curves = np.linspace(0.5, 0.9, 6)[:, None] * np.ones((6, 3))
    order = K.plain_bo_order(curves, feats, 4, 2, rng)
    assert len(set(order.tolist())) == 4
    with pytest.raises(ValueError, match="n_init"):
        K.plain_bo_order(curves, feats, 7, 2, rng)


def test_benchmark_is_deterministic_and_validates():
    cfgs = K.config_grid()[:2]
    a = K.make_lc_benchmark("wine", cfgs, 3, 0)
    b = K.make_lc_benchmark("wine", cfgs, 3, 0)
    np.testing.assert_array_equal(a, b)
    assert a.shape == (2, 3) and np.all((a >= 0) & (a <= 1))
    assert len(K.config_grid()) == 48
    with pytest.raises(ValueError, match="dataset_name"):
        K.make_lc_benchmark("iris", cfgs, 3, 0)


# ----------------------------------------------------------------------------- run_freeze_thaw's bookkeeping
def _recording_sampler(monkeypatch):
    """Replace the surrogate's sampler by uniform draws (shape (..., n_cfg, K, T)) and keep every call's output."""
    calls = []
    draw = np.random.default_rng(11)

    def sampler(y_obs, n_observed, prior, n_samples, rng):
        s = draw.uniform(0.3, 1.0, size=np.shape(n_observed) + (n_samples, np.shape(y_obs)[-1]))
        calls.append((s, np.array(n_observed).copy()))
        return s

    monkeypatch.setattr(K, "sample_future_curves", sampler)
    return calls


def test_run_freeze_thaw_bounds_and_the_epoch_of_the_stop():
    # flat curves: every epoch after the first costs utility, so the rule fires; recompute it by hand
    rng = np.random.default_rng(6)
    Y = np.repeat(rng.uniform(0.5, 0.9, size=(3, 5, 1)), 6, axis=-1) + np.linspace(0, 0.01, 6)
    a, c, B = 1.0, 1.0, 20
    out = K.run_freeze_thaw(Y, "cfbo", K.generic_prior(8), B, alpha=a, c=c, n_samples=16, rng=rng)
    inc, ch, p = out["incumbent"], out["choice"], out["p"]
    for r in range(3):
        first = Y[r, ch[r, 0], 0]
        assert out["u_min"][r] == pytest.approx(float(K.utility(B, first, a, c, B)))   # U(B, first score)
        u = K.utility(np.arange(1, B + 1), inc[r], a, c, B)
        np.testing.assert_allclose(out["u_max"][r], np.maximum.accumulate(u))           # best utility so far
        # the rule is checked before epoch s + 1 (s >= 1 epochs spent) with p* of that step; a stop there is s
        fired = [s for s in range(1, B) if K.cfbo_should_stop(out["u_max"][r, s - 1], out["u_min"][r],
                                                              K.utility(s, inc[r, s - 1], a, c, B), p[r, s])]
        assert out["stop"][r] == (fired[0] if fired else B)
    assert np.all(out["stop"] < B), "the flat curves should make the rule fire"


def test_p_star_comes_from_the_configuration_trained(monkeypatch):
    calls = _recording_sampler(monkeypatch)
    rng = np.random.default_rng(7)
    Y = np.sort(rng.uniform(0.4, 0.9, size=(2, 4, 5)), axis=-1)
    a, c, B = 0.5, 1.0, 12
    out = K.run_freeze_thaw(Y, "cfbo", K.generic_prior(4), B, alpha=a, c=c, n_samples=6, rng=rng)
    assert len(calls) == B
    rows = np.arange(2)
    differs = 0
    for step, (s, m) in enumerate(calls):
        best = out["incumbent"][:, step - 1] if step else np.zeros(2)
        acq, prob = K.cfbo_acquisition(s, m, step, best, alpha=a, c=c, total_budget=B)
        j = out["choice"][:, step]
        score = np.where(m < 5, acq, -np.inf)
        assert np.all(score[rows, j] >= score.max(axis=1) - 1e-12)            # the acquisition's argmax is trained
        np.testing.assert_array_equal(out["p"][:, step], prob[rows, j])       # p* is read from that configuration
        differs += int(np.any(prob[rows, j] != prob.max(axis=1)))
    assert differs > 0, "the test needs steps where the trained configuration is not the most probable one"


def test_visit_order_opens_new_configurations_in_order(monkeypatch):
    calls = _recording_sampler(monkeypatch)
    rng = np.random.default_rng(8)
    Y = np.sort(rng.uniform(0.4, 0.9, size=(2, 5, 4)), axis=-1)
    order = np.array([3, 0, 4, 1, 2])
    out = K.run_freeze_thaw(Y, "cfbo", K.generic_prior(4), 15, alpha=0.2, c=1.0, n_samples=6, rng=rng,
                            visit_order=order)
    for r in range(2):
        opened = [j for k, j in enumerate(out["choice"][r]) if j not in out["choice"][r, :k]]
        assert opened == order[:len(opened)].tolist()
    for step, (s, m) in enumerate(calls):
        _, prob = K.cfbo_acquisition(s, m, step, 0.0 if step == 0 else out["incumbent"][:, step - 1], alpha=0.2,
                                     c=1.0, total_budget=15)
        np.testing.assert_array_equal(out["p"][:, step], prob[np.arange(2), out["choice"][:, step]])
    with pytest.raises(ValueError, match="permutation"):
        K.run_freeze_thaw(Y, "cfbo", K.generic_prior(4), 15, alpha=0.2, c=1.0, n_samples=6, rng=rng,
                          visit_order=[0, 0, 1, 2, 3])
    with pytest.raises(ValueError, match="cfbo"):
        K.run_freeze_thaw(Y, "ftbo", K.generic_prior(4), 15, alpha=0.2, c=1.0, n_samples=6, rng=rng,
                          visit_order=order)


# ----------------------------------------------------------------------------- naive baselines
def test_one_epoch_runs_average_a_random_first_epoch():
    Y = np.array([[0.5, 0.9, 0.9], [0.7, 0.7, 0.8], [0.6, 0.6, 0.6]])
    out = K.one_epoch_runs(Y, 5)
    assert out["incumbent"].shape == (3, 5) and np.all(out["stop"] == 1)
    np.testing.assert_array_equal(out["incumbent"][:, 0], Y[:, 0])
    u = K.realised_utility(out["incumbent"], out["stop"], 0.5, 1.0, 5)
    assert u.mean() == pytest.approx(Y[:, 0].mean() - 0.5 / 5)
    with pytest.raises(ValueError, match="curves"):
        K.one_epoch_runs(Y[None], 5)


def test_patience_stop_budget_by_hand():
    assert K.patience_stop_budget([0.5, 0.6, 0.6, 0.7]) == 3
    assert K.patience_stop_budget([0.5, 0.5, 0.6, 0.6, 0.6], patience=2) == 5
    assert K.patience_stop_budget([0.5, 0.6, 0.7]) == 3                      # never fires: the last epoch
    np.testing.assert_array_equal(K.patience_stop_budget([[0.5, 0.5, 0.6], [0.1, 0.2, 0.3]]), [2, 3])
    with pytest.raises(ValueError, match="patience"):
        K.patience_stop_budget([0.5, 0.6], patience=0)


def test_first_epoch_patience_runs_by_hand():
    Y = np.array([[0.5, 0.6, 0.7, 0.75], [0.8, 0.85, 0.85, 0.9], [0.3, 0.4, 0.5, 0.6]])
    out = K.first_epoch_patience_runs(Y, 10, 3, np.random.default_rng(0))
    # three first epochs, then config 1: 0.85 improves, 0.85 does not -> stop after 3 + 2 epochs at 0.85
    assert np.all(out["stop"] == 5)
    np.testing.assert_allclose(out["incumbent"][:, 4], 0.85)
    assert np.all(np.diff(out["incumbent"], axis=1) >= 0) and out["incumbent"].shape == (3, 10)
    up = np.array([[0.8, 0.9, 0.95], [0.1, 0.2, 0.3]])
    assert np.all(K.first_epoch_patience_runs(up, 5, 2, np.random.default_rng(1))["stop"] == 4)   # ran to its end
    with pytest.raises(ValueError, match="total_budget"):
        K.first_epoch_patience_runs(Y, 2, 1, np.random.default_rng(0))


def test_source_visit_order_is_the_mean_rank_of_final_scores():
    t1 = np.array([[0, 0.9], [0, 0.5], [0, 0.7]])
    t2 = np.array([[0, 0.6], [0, 0.4], [0, 0.8]])
    # ranks (1 = best): task 1 -> 1, 3, 2; task 2 -> 2, 3, 1; means 1.5, 3, 1.5 -> ties keep index order
    np.testing.assert_array_equal(K.source_visit_order(np.stack([t1, t2])), [0, 2, 1])
    with pytest.raises(ValueError, match="source_curves"):
        K.source_visit_order(t1)


def test_best_of_k_first_epochs_is_the_exact_expectation_over_subsets():
    rng = np.random.default_rng(3)
    Y = rng.uniform(0.3, 0.9, size=(6, 4))
    out = K.best_of_k_first_epochs_runs(Y, 10, 3)
    assert out["incumbent"].shape == (20, 10) and np.all(out["stop"] == 3)
    u = K.realised_utility(out["incumbent"], out["stop"], 0.5, 1.0, 10)
    # the expected maximum of 3 of 6 values drawn without replacement, by order statistics
    v = np.sort(Y[:, 0])
    from math import comb
    e_max = sum(v[i] * comb(i, 2) for i in range(6)) / comb(6, 3)
    assert u.mean() == pytest.approx(e_max - 0.5 * 3 / 10)
    # and by Monte Carlo over random subsets
    draws = np.array([Y[rng.choice(6, 3, replace=False), 0].max() for _ in range(20000)])
    assert draws.mean() == pytest.approx(e_max, abs=0.005)
    # k = 1 is one_epoch_runs; k = n_cfg takes the best first epoch
    one = K.one_epoch_runs(Y, 10)
    np.testing.assert_allclose(K.realised_utility(K.best_of_k_first_epochs_runs(Y, 10, 1)["incumbent"],
                                                  np.ones(6, int), 0.5, 1.0, 10).mean(),
                               K.realised_utility(one["incumbent"], one["stop"], 0.5, 1.0, 10).mean())
    assert K.best_of_k_first_epochs_runs(Y, 10, 6)["incumbent"][0, 5] == Y[:, 0].max()
    assert np.all(np.diff(out["incumbent"], axis=1) >= 0)
    with pytest.raises(ValueError, match="k must"):
        K.best_of_k_first_epochs_runs(Y, 10, 7)
    with pytest.raises(ValueError, match="total_budget"):
        K.best_of_k_first_epochs_runs(Y, 2, 3)
    with pytest.raises(ValueError, match="curves"):
        K.best_of_k_first_epochs_runs(Y[None], 10, 3)


def test_source_best_one_epoch_trains_the_top_ranked_configuration():
    t1 = np.array([[0.1, 0.9], [0.2, 0.5], [0.3, 0.7]])
    t2 = np.array([[0.1, 0.6], [0.2, 0.4], [0.3, 0.8]])
    target = np.array([[0.5, 0.6], [0.9, 0.95], [0.4, 0.45]])
    out = K.source_best_one_epoch_runs(target, np.stack([t1, t2]), 4)
    assert out["config"] == 0 and out["stop"].tolist() == [1]                 # mean ranks 1.5, 3, 1.5: index order
    np.testing.assert_allclose(out["incumbent"][0], [0.5, 0.6, 0.6, 0.6])     # config 0, then config 2 (source order)
    assert K.realised_utility(out["incumbent"], out["stop"], 1.0, 1.0, 4)[0] == pytest.approx(0.5 - 1 / 4)
    with pytest.raises(ValueError, match="do not match"):
        K.source_best_one_epoch_runs(target, np.stack([t1, t2])[:, :2], 4)


def test_patience_stop_on_an_ftbo_run_is_its_first_non_improving_epoch():
    rng = np.random.default_rng(4)
    Y = np.sort(rng.uniform(0.4, 0.9, size=(3, 5, 6)), axis=-1)
    ft = K.run_freeze_thaw(Y, "ftbo", K.generic_prior(4), 20, alpha=0.0, c=1.0, n_samples=8, rng=rng)["incumbent"]
    st = K.patience_stop_budget(ft, 1)
    for r in range(3):
        flat = [b for b in range(2, 21) if ft[r, b - 1] <= ft[r, b - 2]]
        assert st[r] == (flat[0] if flat else 20)


def test_stop_ratio_trace_and_the_inverse_bar():
    inc = np.array([[0.6, 0.9, 0.9, 0.9]])
    a, c, B = 1.0, 1.0, 4
    # utilities 0.35, 0.4, 0.15, -0.1: best after epoch 2; u_min = U(B, 0.6) = -0.4
    expect = [0.0, 0.0, (0.4 - 0.15) / (0.4 + 0.4), (0.4 + 0.1) / (0.4 + 0.4)]
    np.testing.assert_allclose(K.stop_ratio_trace(inc, a, c, B)[0], expect)
    # the ratio is what threshold_stop_budget compares with its fixed 0.2
    assert K.threshold_stop_budget(inc, a, c, B)[0] == 1 + int(np.argmax(np.array(expect) >= 0.2))
    p = np.array([0.0, 0.01, 0.3, 0.5, 0.9, 1.0])
    np.testing.assert_allclose(K.p_star_for_bar(K.stop_threshold(p)), p, atol=1e-9)
    assert K.p_star_for_bar(0.2) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="bar"):
        K.p_star_for_bar(1.5)


def test_stop_window_requirement_agrees_with_the_rule():
    rng = np.random.default_rng(5)
    Y = np.sort(rng.uniform(0.4, 0.9, size=(4, 6, 5)), axis=-1)
    a, c, B = 0.5, 1.0, 25
    out = K.run_freeze_thaw(Y, "cfbo", K.generic_prior(6), B, alpha=a, c=c, n_samples=16, rng=rng)
    inc, p, stop = out["incumbent"], out["p"], out["stop"]
    b_star = K.best_budget_on_trajectory(inc, a, c, B)
    for lo, hi in ((np.ceil(0.75 * b_star), np.floor(1.25 * b_star)), (b_star + 1, b_star + 3),
                   (np.ones(4), np.full(4, B - 1))):
        w = K.stop_window_requirement(inc, p, lo.astype(int), hi.astype(int), a, c, B)
        np.testing.assert_allclose(K.stop_threshold(w["p_needed"]), w["bar_needed"], atol=1e-9)
        for r in range(4):
            lo_r, hi_r = max(int(lo[r]), 1), min(int(hi[r]), B - 1)
            # fires in the window iff the run's own rule held at some budget there
            held = [b for b in range(lo_r, hi_r + 1) if K.cfbo_should_stop(
                out["u_max"][r, b - 1], out["u_min"][r], K.utility(b, inc[r, b - 1], a, c, B), p[r, b])]
            assert w["fires"][r] == bool(held)
            if w["fires"][r]:
                assert min(p[r, b] for b in held) <= w["p_needed"][r] + 1e-12
            if w["p_window"][r] > w["p_needed"][r]:
                assert not w["fires"][r]
    # over the whole run the window's first firing is the recorded stop
    w = K.stop_window_requirement(inc, p, np.ones(4, int), np.full(4, B - 1), a, c, B)
    np.testing.assert_array_equal(w["fires"], stop < B)
    assert np.all((stop > 1) & (stop < B)), "the test needs stops inside the run"
    trace = K.stop_ratio_trace(inc, a, c, B)
    at = K.stop_window_requirement(inc, p, stop, stop, a, c, B)
    assert np.all(at["fires"])
    np.testing.assert_allclose(at["bar_needed"], trace[np.arange(4), stop - 1])      # the ratio after `stop` epochs
    np.testing.assert_allclose(at["p_window"], p[np.arange(4), stop])                # p* read before the next epoch
    before = K.stop_window_requirement(inc, p, np.ones(4, int), stop - 1, a, c, B)
    assert not np.any(before["fires"])
    np.testing.assert_allclose(before["bar_needed"], [trace[r, :stop[r] - 1].max() for r in range(4)])
    with pytest.raises(ValueError, match="lo and hi"):
        K.stop_window_requirement(inc, p, np.full(4, 5), np.full(4, 3), a, c, B)


def test_trajectory_regret_by_hand():
    inc = np.array([[0.6, 0.9, 0.9, 0.9]])
    a, c, B = 1.0, 1.0, 4
    u_star, u_min = 0.9 - 0.5, 0.6 - 1.0
    for s, u_stop in ((2, 0.4), (3, 0.15), (1, 0.6 - 0.25)):
        assert K.trajectory_regret(inc, [s], a, c, B)[0] == pytest.approx((u_star - u_stop) / (u_star - u_min))
    assert K.trajectory_regret(inc, [2], a, c, B)[0] == 0.0
    with pytest.raises(ValueError, match="u_min"):
        K.trajectory_regret(np.full((1, 4), 0.6), [2], 0.0, c, B)                 # alpha = 0, flat: 0 / 0
