"""Unit tests of :mod:`repro.papers.smrs_surrogate_reporting`, the kernels of ``notebooks/smrs-surrogate-reporting.py``."""

import copy
import inspect
import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.stats import norm

from repro.papers import smrs_surrogate_reporting as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/smrs_surrogate_reporting.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# ----------------------------------------------------------------------------- Ishigami
def test_ishigami_pointwise_closed_form():
    X = np.array([[0.0, 0.0, 0.0], [math.pi / 2, math.pi / 2, 1.0], [-math.pi / 2, 0.3, 2.0]])
    expected = [0.0, 1 + 7 + 0.1, -1 + 7 * math.sin(0.3) ** 2 - 0.1 * 16]
    np.testing.assert_allclose(K.ishigami(X), expected, rtol=1e-14, atol=1e-14)
    with pytest.raises(ValueError, match="shape"):
        K.ishigami(np.zeros((4, 2)))


def test_ishigami_sobol_indices_signature_and_known_values():
    first, V = K.ishigami_sobol_indices(7.0, 0.1)
    assert isinstance(first, np.ndarray) and first.shape == (3,) and isinstance(V, float)
    assert V == pytest.approx(49 / 8 + 0.1 * math.pi**4 / 5 + 0.01 * math.pi**8 / 18 + 0.5, rel=1e-15)
    np.testing.assert_allclose(first, [0.3139, 0.4424, 0.0], atol=5e-5)  # Saltelli et al. (2008), Table 4.x
    np.testing.assert_allclose(K.ishigami_total_indices(7.0, 0.1), [0.5576, 0.4424, 0.2437], atol=5e-5)
    # b = 0: no interaction; a = b = 0: only x1
    S, V0 = K.ishigami_sobol_indices(0.0, 0.0)
    np.testing.assert_allclose(S, [1, 0, 0]) and pytest.approx(0.5) == V0
    assert K.ishigami_total_indices(3.0, 0.0)[2] == 0.0
    for bad in (float("nan"), "7", True):
        with pytest.raises(ValueError, match="finite real"):
            K.ishigami_sobol_indices(bad, 0.1)


def test_ishigami_variance_matches_a_large_monte_carlo():
    X = np.random.default_rng(1).uniform(-math.pi, math.pi, (400_000, 3))
    for a, b in ((7.0, 0.1), (5.0, 0.05)):
        V = K.ishigami_sobol_indices(a, b)[1]
        assert np.var(K.ishigami(X, a, b)) == pytest.approx(V, rel=0.01)


@pytest.mark.parametrize("sampler,tol", [("saltelli", 0.02), ("random", 0.05)])
def test_saltelli_jansen_estimators_recover_the_analytic_ishigami_indices(sampler, tol):
    f = lambda U: K.simulate("ishigami", U)  # noqa: E731
    S, ST, V = K.sobol_indices(f, 3, 2**14, 7, sampler)
    np.testing.assert_allclose(S, K.ishigami_sobol_indices(7.0, 0.1)[0], atol=tol)
    np.testing.assert_allclose(ST, K.ishigami_total_indices(7.0, 0.1), atol=tol)
    assert V == pytest.approx(K.ishigami_sobol_indices(7.0, 0.1)[1], rel=0.02)
    np.testing.assert_array_equal(K.sobol_first_order(f, 3, 2**14, 7, sampler), S)


def test_sobol_indices_of_an_additive_linear_function():
    c = np.array([1.0, 2.0, 0.0, 3.0])
    S, ST, _ = K.sobol_indices(lambda U: U @ c, 4, 2**12, 0)
    np.testing.assert_allclose(S, c**2 / (c**2).sum(), atol=5e-3)
    np.testing.assert_allclose(ST, c**2 / (c**2).sum(), atol=5e-3)


def test_sobol_indices_bad_input():
    f = lambda U: U.sum(1)  # noqa: E731
    with pytest.raises(ValueError, match="power of 2"):
        K.sobol_indices(f, 2, 100, 0)
    with pytest.raises(ValueError, match="sampler"):
        K.sobol_indices(f, 2, 64, 0, sampler="lhs")
    with pytest.raises(ValueError, match="constant"):
        K.sobol_indices(lambda U: np.ones(len(U)), 2, 64, 0)
    with pytest.raises(ValueError, match="shape"):
        K.sobol_indices(lambda U: U, 2, 64, 0)


# ----------------------------------------------------------------------------- Robertson
def _radau(k, t_end=40.0):
    k1, k2, k3 = k

    def rhs(t, y):
        return [-k1 * y[0] + k3 * y[1] * y[2], k1 * y[0] - k2 * y[1] ** 2 - k3 * y[1] * y[2], k2 * y[1] ** 2]

    return solve_ivp(rhs, (0, t_end), [1, 0, 0], method="Radau", rtol=1e-10, atol=1e-14).y[:, -1]


def test_robertson_matches_scipy_radau_and_conserves_mass():
    rng = np.random.default_rng(3)
    k = np.asarray(K.ROBERTSON_K0) * 10 ** (2 * rng.random((4, 3)) - 1)
    k[0] = K.ROBERTSON_K0
    y = K.robertson(k)
    ref = np.array([_radau(kk) for kk in k])
    np.testing.assert_allclose(y, ref, atol=1e-3)
    np.testing.assert_allclose(y[0], [0.7158, 9.185e-6, 0.2842], atol=1e-3)  # the classic values at t = 40
    np.testing.assert_allclose(y.sum(1), 1.0, atol=1e-12)
    # each row is integrated on its own: a batch gives the same numbers as single rows
    np.testing.assert_array_equal(K.robertson(k[1:2]), y[1:2])
    # second order: doubling the steps divides the error by about 4
    e1 = np.abs(K.robertson(k, n_steps=100) - ref).max()
    e2 = np.abs(K.robertson(k, n_steps=200) - ref).max()
    assert 3 < e1 / e2 < 5


def test_robertson_bad_input():
    with pytest.raises(ValueError, match="positive"):
        K.robertson(np.array([[0.04, -1.0, 1e4]]))
    with pytest.raises(ValueError, match="h0"):
        K.robertson(np.array([K.ROBERTSON_K0]), t_end=1e-5)


def test_solve3_matches_lapack():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(50, 3, 3)) + 3 * np.eye(3)
    r = rng.normal(size=(50, 3))
    np.testing.assert_allclose(K._solve3(A, r), np.linalg.solve(A, r[..., None])[..., 0], rtol=1e-10, atol=1e-12)


def test_simulate_maps_the_unit_cube_and_rejects_bad_input():
    U = np.array([[0.5, 0.75, 1.0]])
    assert K.simulate("ishigami", U)[0] == pytest.approx(K.ishigami(np.array([[0.0, math.pi / 2, math.pi]]))[0])
    k = np.asarray(K.ROBERTSON_K0) * 10 ** np.array([0.0, 0.5, 1.0])
    assert K.simulate("robertson", U, {"span": 1.0})[0] == pytest.approx(K.robertson(k[None])[0, 2], rel=1e-12)
    with pytest.raises(ValueError, match="unit cube"):
        K.simulate("ishigami", U + 1)
    with pytest.raises(ValueError, match="unknown simulator"):
        K.simulate("lorenz", U)


# ----------------------------------------------------------------------------- designs
@pytest.mark.parametrize("n,d", [(1, 2), (7, 3), (50, 5)])
def test_lhs_has_one_point_per_stratum_in_every_dimension(n, d):
    U = K.lhs(n, d, 4)
    assert U.shape == (n, d) and np.all((U >= 0) & (U < 1))
    for j in range(d):
        np.testing.assert_array_equal(np.sort(np.floor(U[:, j] * n)), np.arange(n))
    np.testing.assert_array_equal(K.lhs(n, d, 4), U)  # seeded


def test_design_kinds_and_bad_input():
    U = K.design("iid", 100, 2, 0)
    assert U.shape == (100, 2) and np.all((U >= 0) & (U < 1))
    with pytest.raises(ValueError, match="design"):
        K.design("sobol", 8, 2, 0)
    with pytest.raises(ValueError, match="n must be"):
        K.lhs(0, 2, 0)
    with pytest.raises(ValueError, match="seed"):
        K.lhs(4, 2, -1)


# ----------------------------------------------------------------------------- surrogates and metrics
def test_gp_interpolates_and_fixed_hyperparameters_reproduce_the_fit_exactly():
    U = K.lhs(30, 3, 0)
    y = K.simulate("ishigami", U)
    gp = K.fit_gp(U, y)
    np.testing.assert_allclose(gp.predict(U), y, atol=1e-3 * y.std())
    hp = K.gp_hyperparameters(gp)
    gp2 = K.fit_gp(U, y, hyperparameters=hp)
    V = np.random.default_rng(1).random((20, 3))
    m1, s1 = gp.predict(V, return_std=True)
    m2, s2 = gp2.predict(V, return_std=True)
    np.testing.assert_array_equal(m1, m2)
    np.testing.assert_array_equal(s1, s2)
    np.testing.assert_allclose(K.predict_mean(gp, V, chunk=7), m1, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="length_scale"):
        K.fit_gp(U, y, hyperparameters={"constant": 1.0, "length_scale": [1.0, 1.0]})
    with pytest.raises(ValueError, match="y must be"):
        K.fit_gp(U, y[:-1])


def test_linear_surrogate_matches_the_normal_equations():
    rng = np.random.default_rng(2)
    U = rng.random((40, 3))
    y = 1 + U @ [2.0, -1.0, 0.5] + 0.1 * rng.normal(size=40)
    m = K.LinearSurrogate().fit(U, y)
    X = np.column_stack([np.ones(40), U])
    beta = np.linalg.solve(X.T @ X, X.T @ y)
    np.testing.assert_allclose(m.coef_, beta, rtol=1e-10)
    s2 = np.sum((y - X @ beta) ** 2) / 36
    u0 = np.array([[0.2, 0.4, 0.6]])
    x0 = np.array([1, 0.2, 0.4, 0.6])
    mean, sd = m.predict(u0, return_std=True)
    assert sd[0] == pytest.approx(math.sqrt(s2 * (1 + x0 @ np.linalg.inv(X.T @ X) @ x0)), rel=1e-10)
    assert mean[0] == pytest.approx(x0 @ beta, rel=1e-12)
    with pytest.raises(ValueError, match="more than"):
        K.LinearSurrogate().fit(U[:4], y[:4])


def test_polynomial_features_count_and_order():
    U = np.array([[0.2, 0.5, 0.7]])
    X1 = K.polynomial_features(U, 1)
    np.testing.assert_array_equal(X1, [[1, 0.2, 0.5, 0.7]])
    X2 = K.polynomial_features(U, 2)
    assert X2.shape == (1, math.comb(3 + 2, 2))
    np.testing.assert_allclose(X2[0, 4:], [0.04, 0.1, 0.14, 0.25, 0.35, 0.49])
    assert K.polynomial_features(np.random.default_rng(0).random((5, 4)), 3).shape == (5, math.comb(7, 3))
    with pytest.raises(ValueError, match="degree"):
        K.polynomial_features(U, 0)
    with pytest.raises(ValueError, match="unit cube"):
        K.polynomial_features(U + 1, 2)


def test_polynomial_surrogate_degree_one_is_the_linear_model_and_degree_two_is_exact_on_quadratics():
    rng = np.random.default_rng(3)
    U = rng.random((40, 3))
    y = 1 + U @ [2.0, -1.0, 0.5] + 0.1 * rng.normal(size=40)
    lin, p1 = K.LinearSurrogate().fit(U, y), K.PolynomialSurrogate(1).fit(U, y)
    Ut = rng.random((7, 3))
    for a, b in zip(lin.predict(Ut, return_std=True), p1.predict(Ut, return_std=True)):
        np.testing.assert_allclose(a, b, rtol=1e-10)
    q = lambda V: 0.5 - V[:, 0] + 3 * V[:, 1] ** 2 - 2 * V[:, 0] * V[:, 2]  # noqa: E731
    m = K.PolynomialSurrogate(2).fit(U, q(U))
    np.testing.assert_allclose(m.predict(Ut), q(Ut), atol=1e-10)
    assert m.predict(Ut, return_std=True)[1].max() < 1e-6  # no residual, no predictive spread
    with pytest.raises(ValueError, match="more than 10"):
        K.PolynomialSurrogate(2).fit(U[:10], y[:10])


def test_polynomial_and_constant_intervals_cover_nominally_when_correctly_specified():
    """Monte Carlo over training sets: the classical predictive interval of a correct Gaussian model covers 95%."""
    rng = np.random.default_rng(4)
    hits_p, hits_c = [], []
    for _ in range(300):
        U = rng.random((30, 2))
        y = 1 + U[:, 0] ** 2 - U[:, 1] + 0.3 * rng.normal(size=30)
        Ut = rng.random((20, 2))
        yt = 1 + Ut[:, 0] ** 2 - Ut[:, 1] + 0.3 * rng.normal(size=20)
        mu, sd = K.PolynomialSurrogate(2).fit(U, y).predict(Ut, return_std=True)
        hits_p.append(K.heldout_metrics(yt, mu, sd)["coverage"])
        z = 0.3 * rng.normal(size=50)  # an input-blind Gaussian: the constant surrogate is correct
        c = K.ConstantSurrogate().fit(rng.random((30, 2)), z[:30])
        mu, sd = c.predict(rng.random((20, 2)), return_std=True)
        hits_c.append(K.heldout_metrics(z[30:], mu, sd)["coverage"])
    # the t quantile exceeds 1.96 for 24 and 29 degrees of freedom, so the Gaussian interval covers a little less
    assert 0.92 < np.mean(hits_p) < 0.95 and 0.92 < np.mean(hits_c) < 0.95


def test_constant_surrogate_closed_form_and_bad_input():
    U = np.random.default_rng(0).random((4, 3))
    y = np.array([1.0, 2.0, 3.0, 6.0])
    mu, sd = K.ConstantSurrogate().fit(U, y).predict(U[:2], return_std=True)
    np.testing.assert_allclose(mu, [3.0, 3.0])
    np.testing.assert_allclose(sd, np.std(y, ddof=1) * math.sqrt(1.25))
    with pytest.raises(ValueError, match="shape"):
        K.ConstantSurrogate().fit(U, y[:3])


def test_heldout_metrics_by_hand():
    y = np.array([0.0, 1.0, 2.0, 3.0])
    mean = np.array([0.0, 1.0, 2.0, 5.0])
    std = np.array([1.0, 1.0, 1.0, 1.0])
    h = K.heldout_metrics(y, mean, std)
    assert h["rmse"] == pytest.approx(1.0) and h["nrmse"] == pytest.approx(1 / np.std(y))
    assert h["q2"] == pytest.approx(1 - 1 / np.var(y))
    assert h["coverage"] == 0.75 and h["mean_width"] == pytest.approx(2 * norm.ppf(0.975))
    assert K.heldout_metrics(y, mean, std, z=2.5)["coverage"] == 1.0
    with pytest.raises(ValueError, match="level"):
        K.heldout_metrics(y, mean, std, level=1.0)
    with pytest.raises(ValueError, match="std"):
        K.heldout_metrics(y, mean, -std)


def test_coverage_of_calibrated_gaussian_intervals_is_nominal():
    rng = np.random.default_rng(5)
    sd = rng.uniform(0.5, 2, 200_000)
    y = sd * rng.normal(size=sd.size)
    levels = np.array([0.5, 0.8, 0.95])
    np.testing.assert_allclose(K.coverage_curve(y, 0 * y, sd, levels), levels, atol=5e-3)
    # +-1 sd called a 95% interval covers about 68%
    assert K.heldout_metrics(y, 0 * y, sd, z=1.0)["coverage"] == pytest.approx(0.6827, abs=5e-3)
    with pytest.raises(ValueError, match="levels"):
        K.coverage_curve(y, y, sd, [0.0])


# ----------------------------------------------------------------------------- the standard
@pytest.fixture(scope="module")
def small_report():
    S, _ = K.ishigami_sobol_indices(7.0, 0.1)
    p = K.make_protocol("ishigami", simulator_params={"a": 7.0, "b": 0.1}, n_train=30, train_seed=1, n_test=50,
                        test_seed=2, n_base=2**8, sobol_seed=3, reference_kind="analytic", reference_first_order=S,
                        reference_total=K.ishigami_total_indices(7.0, 0.1),
                        acceptance={"max_nrmse": 0.2, "coverage_window": [0.85, 1.0], "sobol_tol": 0.08}, n_restarts=0)
    assert K.validate_report(p, protocol=True) == []
    assert K.validate_report(p)  # the measured fields are missing
    report, _ = K.run_report(p)
    return report


def test_complete_report_validates_and_round_trips_losslessly(small_report):
    assert K.validate_report(small_report) == []
    assert K.json_roundtrip(small_report) == small_report


def test_validator_flags_every_missing_field(small_report):
    for section, fields in K.SMRS_SCHEMA.items():
        r = copy.deepcopy(small_report)
        del r[section]
        assert any(section in p for p in K.validate_report(r))
        for field in fields:
            r = copy.deepcopy(small_report)
            del r[section][field]
            assert f"{section}.{field}: missing" in K.validate_report(r)


def test_validator_flags_wrong_types_and_inconsistent_values(small_report):
    cases = [("sampling", "n_train", 30.0), ("sampling", "seed", True), ("model", "hyperparameters", "fitted"),
             ("uncertainty", "level", 1.5), ("downstream", "first_order", [0.1, 0.2]), ("sampling", "design", "grid"),
             ("acceptance", "coverage_window", [1.0, 0.5]), ("provenance", "simulator", "lorenz")]
    for section, field, value in cases:
        r = copy.deepcopy(small_report)
        r[section][field] = value
        assert any(f"{section}.{field}" in p for p in K.validate_report(r)), (section, field)
    assert K.validate_report([1]) == ["report must be a dict; got list"]


def test_replay_from_the_report_alone_reproduces_every_metric_exactly(small_report):
    _, metrics = K.build_surrogate_from_report(K.json_roundtrip(small_report))
    assert K.metrics_discrepancy(metrics, K.report_metrics(small_report)) == 0.0
    other = copy.deepcopy(small_report)
    other["sampling"]["seed"] += 1
    assert K.metrics_discrepancy(K.build_surrogate_from_report(other)[1], K.report_metrics(small_report)) > 1e-6
    broken = copy.deepcopy(small_report)
    del broken["model"]["hyperparameters"]
    with pytest.raises(ValueError, match="invalid report"):
        K.build_surrogate_from_report(broken)


def test_linear_report_and_acceptance_checks(small_report):
    p = copy.deepcopy(small_report)
    p["model"]["family"] = "linear"
    for key in ("hyperparameters",):
        del p["model"][key]
    r, _ = K.run_report(p)
    assert set(r["model"]["hyperparameters"]) == {"coef", "residual_variance"}
    checks = K.acceptance_checks(r)
    assert not checks["held-out nRMSE"][1]  # a linear model cannot fit Ishigami
    _, metrics = K.build_surrogate_from_report(r)
    assert K.metrics_discrepancy(metrics, K.report_metrics(r)) == 0.0
    hand = copy.deepcopy(small_report)
    hand["evaluation"]["metrics"]["nrmse"] = 0.25
    hand["uncertainty"]["coverage"] = 0.9
    hand["downstream"]["first_order"] = [0.3, 0.5, 0.0]
    hand["downstream"]["reference_first_order"] = [0.3, 0.44, 0.0]
    got = K.acceptance_checks(hand)
    assert got["held-out nRMSE"] == (0.25, False) and got["95% interval coverage"] == (0.9, True)
    assert got["max. error of S_i vs reference"][0] == pytest.approx(0.06) and got["max. error of S_i vs reference"][1]


def test_render_report_shows_every_field_and_rejects_invalid_reports(small_report):
    text = K.render_report({"GP": small_report, "copy": small_report})
    for fields in K.SMRS_SCHEMA.values():
        for field in fields:
            assert f"| {field} |" in text
    assert "held-out nRMSE" in text and text.count("\n") > 40
    bad = copy.deepcopy(small_report)
    del bad["sampling"]
    with pytest.raises(ValueError, match="invalid"):
        K.render_report({"bad": bad})
    with pytest.raises(ValueError, match="empty"):
        K.render_report({})
    with pytest.raises(ValueError, match="invalid protocol"):
        K.run_report(bad)


def test_given_data_first_order_on_an_additive_function_and_sturges_rule():
    # f = x1 + 2 x2 on a large uniform sample: S = (1/5, 4/5, 0); the binned estimator is biased by O(1/bins^2)
    U = np.random.default_rng(0).random((20000, 3))
    S = K.given_data_first_order(U, U[:, 0] + 2 * U[:, 1], bins=20)
    np.testing.assert_allclose(S, [0.2, 0.8, 0.0], atol=0.01)
    assert [K.sturges_bins(n) for n in (100, 200, 500)] == [8, 9, 10]
    with pytest.raises(ValueError, match="constant"):
        K.given_data_first_order(U, np.ones(len(U)), bins=5)
