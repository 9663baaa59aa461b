"""Unit tests of :mod:`repro.papers.atd_uninformative_prior`, the kernels of ``notebooks/atd-uninformative-prior.py``."""

import inspect
import json
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import minimize

from repro.papers import atd_uninformative_prior as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/atd_uninformative_prior.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def _random_L(n, k, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(0.01, 1.0, (n, k)) ** 3


# ---- em_mixture_weights ------------------------------------------------------------------------------

def test_em_signature_and_uniform_start():
    assert list(inspect.signature(K.em_mixture_weights).parameters) == ["L", "n_iter"]
    L = _random_L(7, 4, 0)
    assert np.allclose(K.em_mixture_weights(L, 0), 0.25)


@pytest.mark.parametrize("seed", range(5))
def test_em_log_likelihood_is_monotone(seed):
    L = _random_L(30, 6, seed)
    w, ll = K.em_mixture_weights_trace(L, 200)
    assert ll.shape == (201,)
    assert np.diff(ll).min() >= -1e-12
    assert ll[-1] == pytest.approx(K.mixture_log_likelihood(L, w), rel=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_em_stays_on_the_simplex(seed):
    w = K.em_mixture_weights(_random_L(20, 5, seed), 50)
    assert w.shape == (5,) and np.all(w >= 0) and w.sum() == pytest.approx(1.0, abs=1e-14)


def test_em_one_iteration_by_hand():
    L = np.array([[1.0, 3.0], [2.0, 2.0]])
    # uniform start: responsibilities row 1: (1/4, 3/4), row 2: (1/2, 1/2) -> w = (3/8, 5/8)
    assert np.allclose(K.em_mixture_weights(L, 1), [3 / 8, 5 / 8])


def test_em_fixed_point():
    # a maximiser is a fixed point: run to convergence, then one more step does not move it
    L = _random_L(40, 4, 1)
    w = K.em_mixture_weights(L, 5000)
    g = L.T @ (1.0 / (L @ w)) / L.shape[0]
    assert np.allclose(w * g, w, atol=1e-10)
    # KKT on the simplex: gradient component n*g_k = n where w_k > 0, <= n where w_k = 0
    assert np.all(g <= 1 + 1e-8)
    # a component with identical columns: the split between twins stays as started (uniform), a fixed direction
    L2 = np.concatenate([L, L[:, :1]], axis=1)
    w2 = K.em_mixture_weights(L2, 300)
    assert w2[0] == pytest.approx(w2[-1], rel=1e-12)


def test_em_single_component_and_dominance():
    L = _random_L(10, 1, 2)
    assert K.em_mixture_weights(L, 10) == pytest.approx([1.0])
    # a component that explains every sample best takes all the weight in the limit
    L = np.column_stack([np.full(10, 0.9), np.full(10, 0.1)])
    assert K.em_mixture_weights(L, 300)[0] == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_em_agrees_with_scipy_slsqp(seed):
    L = _random_L(12, 4, 10 + seed)
    w_em = K.em_mixture_weights(L, 20000)
    res = minimize(lambda w: -np.sum(np.log(L @ w)), np.full(4, 0.25), method="SLSQP",
                   jac=lambda w: -(L.T @ (1 / (L @ w))), bounds=[(1e-12, 1)] * 4,
                   constraints=[{"type": "eq", "fun": lambda w: w.sum() - 1}], options={"ftol": 1e-14, "maxiter": 500})
    assert res.success
    assert K.mixture_log_likelihood(L, w_em) >= -res.fun - 1e-8
    assert np.allclose(w_em, res.x, atol=1e-4)


def test_em_agrees_with_cvxpy():
    cp = pytest.importorskip("cvxpy")
    L = _random_L(10, 3, 21)
    w = cp.Variable(3)
    prob = cp.Problem(cp.Maximize(cp.sum(cp.log(L @ w))), [w >= 0, cp.sum(w) == 1])
    prob.solve()
    w_em = K.em_mixture_weights(L, 20000)
    assert K.mixture_log_likelihood(L, w_em) == pytest.approx(prob.value, abs=1e-6)
    assert np.allclose(w_em, w.value, atol=1e-3)


def test_em_is_invariant_to_row_scaling():
    L = _random_L(15, 4, 3)
    s = np.random.default_rng(0).uniform(1e-6, 1e3, (15, 1))
    assert np.allclose(K.em_mixture_weights(L, 30), K.em_mixture_weights(L * s, 30), rtol=1e-12)


def test_em_batch_matches_single():
    Ls = np.stack([_random_L(9, 3, s) for s in range(4)])
    wb, tb = K.em_weights_batch(Ls, np.full((4, 3), 1 / 3), 25)
    for m in range(4):
        w, t = K.em_mixture_weights_trace(Ls[m], 25)
        assert np.allclose(wb[m], w, rtol=1e-12)
        shift = np.log(Ls[m].max(axis=1)).sum()
        assert np.allclose(tb[m] + shift, t, rtol=1e-12)


def test_overrelaxed_control_is_em_at_omega_one_and_can_decrease():
    L = _random_L(25, 5, 4)
    assert np.allclose(K.overrelaxed_weights_trace(L, 20, 1.0)[0], K.em_mixture_weights(L, 20))
    _, ll = K.overrelaxed_weights_trace(L, 50, 6.0)
    assert np.diff(ll).min() < 0


@pytest.mark.parametrize("bad, match", [
    (np.array([[-1.0, 1.0]]), ">= 0"),
    (np.array([[0.0, 0.0], [1.0, 1.0]]), "positive likelihood"),
    (np.array([1.0, 2.0]), "2"),
    (np.array([[np.nan, 1.0]]), "finite"),
])
def test_em_bad_input(bad, match):
    with pytest.raises(ValueError, match=match):
        K.em_mixture_weights(bad, 3)


def test_em_bad_n_iter():
    with pytest.raises(ValueError, match="n_iter"):
        K.em_mixture_weights(np.ones((2, 2)), -1)
    with pytest.raises(ValueError, match="n_iter"):
        K.em_mixture_weights(np.ones((2, 2)), 2.5)


# ---- maps, components and policy ---------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["species", "remote", "prior"])
def test_maps_are_binary_seeded_and_sparse(kind):
    a = K.make_target_maps(kind, 4, 32, 5)
    b = K.make_target_maps(kind, 4, 32, 5)
    assert a.shape == (4, 32, 32) and a.dtype == bool and np.array_equal(a, b)
    assert 0.02 < a.mean() < 0.35
    assert not np.array_equal(a, K.make_target_maps(kind, 4, 32, 6))


def test_species_density_in_range_and_prior_density():
    d = K.make_target_maps("species", 20, 32, 0).reshape(20, -1).mean(axis=1)
    assert np.all((d > 0.075) & (d < 0.155))
    P = K.sample_prior_particles(16, 32, 0)
    assert P.shape == (16, 1024) and np.allclose(P.mean(axis=1), 0.3, atol=1e-3)


def test_maps_bad_input():
    with pytest.raises(ValueError, match="kind"):
        K.make_target_maps("forest", 2, 32, 0)
    with pytest.raises(ValueError, match="size"):
        K.make_target_maps("species", 2, 4, 0)


def test_kernel_matrix_closed_form():
    G = K.gaussian_kernel_matrix(3, 2.0)
    assert G.shape == (9, 9) and np.allclose(np.diag(G), 1) and np.allclose(G, G.T)
    assert G[0, 8] == pytest.approx(np.exp(-8 / 8))


def test_transient_components_limits():
    # no observations -> the prior mean; many observations at the cell -> their rate
    assert K.transient_components(np.zeros(3), np.zeros(3), 0.2) == pytest.approx(0.2)
    assert K.transient_components(np.array(700.0), np.array(1000.0), 0.2) == pytest.approx(0.7, abs=1e-3)


def test_component_likelihoods_brute_force():
    size, t = 8, 6
    T = K.make_target_maps("species", 1, size, 3)[0].ravel()
    parts = K.sample_prior_particles(5, size, 1)
    q = np.random.default_rng(0).choice(size * size, t, replace=False)
    q[0] = int(np.flatnonzero(T)[0])  # at least one positive
    L = K.component_likelihoods(T, parts, q, eps=0.1, bandwidths=(1.0, 3.0))
    assert L.shape == (t, 5 + 2 + 1)
    for i in range(t):
        y = T[q[i]]
        for k in range(5):
            p = 0.9 if parts[k, q[i]] else 0.1
            assert L[i, k] == pytest.approx(p if y else 1 - p)
        others = [j for j in range(t) if j != i]
        rate = (sum(T[q[j]] for j in others) + 0.5) / t
        for c, h in enumerate((1.0, 3.0)):
            yi, xi = divmod(q[i], size)
            g = [np.exp(-((yi - q[j] // size) ** 2 + (xi - q[j] % size) ** 2) / (2 * h * h)) for j in others]
            p = (sum(gj * T[q[j]] for gj, j in zip(g, others)) + rate) / (sum(g) + 1)
            assert L[i, 5 + c] == pytest.approx(p if y else 1 - p)
        assert L[i, -1] == pytest.approx(rate if y else 1 - rate)


def test_exploration_weight_official_formula():
    assert K.exploration_weight(1, 300) == pytest.approx(299 / 301)
    assert K.exploration_weight(300, 300) == 0.0
    assert K.exploration_weight(400, 300) == 0.0
    with pytest.raises(ValueError, match="budget"):
        K.exploration_weight(1, 0)


def test_select_query_never_returns_an_observed_cell():
    rng = np.random.default_rng(0)
    s = rng.random((50, 30))
    obs = rng.random((50, 30)) < 0.9
    obs[:, 0] = False
    q = K.select_query(s, obs)
    assert not obs[np.arange(50), q].any()
    best = np.where(obs, -np.inf, s).max(axis=1)
    assert np.allclose(s[np.arange(50), q], best)
    with pytest.raises(ValueError, match="no unobserved"):
        K.select_query(np.zeros((1, 3)), np.ones((1, 3), dtype=bool))
    with pytest.raises(ValueError, match="shape"):
        K.select_query(np.zeros((2, 3)), np.zeros((2, 4), dtype=bool))


def test_entropy_and_scores():
    assert K.binary_entropy(np.array([0.5]))[0] == pytest.approx(1.0)
    assert K.binary_entropy(np.array([0.0, 1.0])) == pytest.approx([0, 0], abs=1e-9)
    p = np.array([0.1, 0.5, 0.9])
    assert np.argmax(K.acquisition_scores(p, 1.0)) == 1 and np.argmax(K.acquisition_scores(p, 0.0)) == 2


@pytest.mark.parametrize("method", K.METHODS)
def test_run_discovery_invariants(method):
    size, M, B = 16, 4, 30
    T = K.make_target_maps("species", M, size, 0).reshape(M, -1)
    parts = K.sample_prior_particles(20, size, 1)
    r = K.run_discovery(method, T, parts, B, np.random.default_rng(0), first=np.zeros(M, dtype=int))
    f, q = r["found"], r["queries"]
    assert f.shape == (M, B + 1) and q.shape == (M, B)
    assert np.all(np.diff(f, axis=1) >= 0) and np.all(np.diff(f, axis=1) <= 1)
    assert all(len(set(row)) == B for row in q)  # never queries a cell twice
    assert np.array_equal(f[:, -1], T[np.arange(M)[:, None], q].sum(axis=1))
    if method.startswith("em"):
        assert r["min_step"] >= -1e-9
        assert np.allclose(r["weights"].sum(axis=1), 1)


@pytest.mark.parametrize("method", ["em-ptdm", "em-permanent", "em-transient"])
def test_em_is_warm_started_from_the_previous_query(method):
    # the page's method: after each query, em_iter EM steps on the likelihoods of every observation so far,
    # started from the weights the previous query's EM ended with (uniform before the first). Rebuilding the
    # weights from component_likelihoods also checks that the run's incremental likelihoods (leave-one-out
    # smoothers updated query by query) are the from-scratch ones at every step.
    size, B, it = 12, 15, 2
    T = K.make_target_maps("species", 1, size, 2).reshape(1, -1)
    parts = K.sample_prior_particles(6, size, 3)
    r = K.run_discovery(method, T, parts, B, np.random.default_rng(0), em_iter=it, first=np.array([40]))
    q = r["queries"][0]
    n_comp = r["weights"].shape[1]
    cols = {"em-ptdm": slice(None), "em-permanent": slice(0, 6), "em-transient": slice(6, None)}[method]
    assert n_comp == {"em-ptdm": 6 + 4, "em-permanent": 6, "em-transient": 4}[method]
    w = np.full((1, n_comp), 1.0 / n_comp)
    for t in range(1, B):  # EM after every query but the last, on the first t observations
        L = K.component_likelihoods(T[0], parts, q[:t])[:, cols]
        w = K.em_weights_batch(L[None], w, it)[0]
    assert np.allclose(r["weights"], w, rtol=1e-9, atol=1e-12)
    cold = K.em_weights_batch(L[None], np.full((1, n_comp), 1.0 / n_comp), it)[0]
    assert not np.allclose(r["weights"], cold, atol=1e-4), "a cold start (uniform before each EM) is another method"


def test_em_ptdm_estimate_gives_the_next_query():
    # the estimate rebuilt from the final weights is the one run_discovery queried its last cell with
    size, B = 12, 20
    T = K.make_target_maps("species", 1, size, 2).reshape(1, -1)
    parts = K.sample_prior_particles(4, size, 3)
    r = K.run_discovery("em-ptdm", T, parts, B, np.random.default_rng(0), first=np.array([0]))
    q = r["queries"][0]
    p = K.em_ptdm_estimate(parts, q[: B - 1], T[0, q[: B - 1]], r["weights"][0])
    assert p.shape == (size * size,) and np.all((p > 0) & (p < 1))
    observed = np.zeros((1, size * size), dtype=bool)
    observed[0, q[: B - 1]] = True
    assert K.select_query(K.acquisition_scores(p, K.exploration_weight(B, B))[None], observed)[0] == q[-1]
    # only permanent weight: the particles' mean map with flip noise; only the rate: the rate everywhere
    w = np.zeros(4 + 3 + 1)
    w[:4] = 0.25
    assert np.allclose(K.em_ptdm_estimate(parts, q[:5], T[0, q[:5]], w), 0.1 + 0.8 * parts.mean(axis=0))
    w[:] = 0
    w[-1] = 1
    assert np.allclose(K.em_ptdm_estimate(parts, q[:5], T[0, q[:5]], w), (T[0, q[:5]].sum() + 0.5) / 6)
    with pytest.raises(ValueError, match="entries"):
        K.em_ptdm_estimate(parts, q[:5], T[0, q[:5]], np.ones(3) / 3)


def test_em_transient_has_no_permanent_memory():
    # the ablation without the permanent memory: EM over the transient components only, so the particles play no
    # part (any particles give the same search), every weight is transient, and its estimate is em_ptdm_estimate
    # with zero permanent weight
    size, M, B = 12, 3, 20
    T = K.make_target_maps("remote", M, size, 5).reshape(M, -1)
    first = np.array([3, 50, 100])
    r1 = K.run_discovery("em-transient", T, K.sample_prior_particles(7, size, 0), B, np.random.default_rng(0),
                         first=first)
    r2 = K.run_discovery("em-transient", T, ~K.sample_prior_particles(2, size, 9), B, np.random.default_rng(1),
                         first=first)
    assert np.array_equal(r1["queries"], r2["queries"]) and np.allclose(r1["weights"], r2["weights"])
    assert r1["weights"].shape == (M, 3 + 1)
    assert np.allclose(r1["transient_mass"][:, :-1], 1.0)
    parts = K.sample_prior_particles(5, size, 4)
    q = r1["queries"][1]
    w = np.concatenate([np.zeros(5), r1["weights"][1]])
    p = K.em_ptdm_estimate(parts, q[: B - 1], T[1, q[: B - 1]], w)
    observed = np.zeros((1, size * size), dtype=bool)
    observed[0, q[: B - 1]] = True
    assert K.select_query(K.acquisition_scores(p, K.exploration_weight(B, B))[None], observed)[0] == q[-1]
    # it differs from EM-PTDM on the same maps (the permanent memory changes the search)
    r3 = K.run_discovery("em-ptdm", T, parts, B, np.random.default_rng(0), first=first)
    assert not np.array_equal(r1["queries"], r3["queries"])


def test_map_log_likelihood_closed_forms_and_bad_input():
    x = np.array([[1, 0, 0, 1], [0, 0, 0, 0]], dtype=bool)
    p = np.array([0.8, 0.3, 0.5, 0.6])
    expect = np.log([0.8, 0.7, 0.5, 0.6]).mean()
    assert np.allclose(K.map_log_likelihood(p, x[0]), expect)
    assert np.allclose(K.map_log_likelihood(np.stack([p, p]), x), [expect, np.log([0.2, 0.7, 0.5, 0.4]).mean()])
    # the true map itself is the best estimate; certainty on a wrong cell is clipped, not -inf
    assert K.map_log_likelihood(x[0].astype(float), x[0]) > K.map_log_likelihood(p, x[0])
    assert np.isclose(K.map_log_likelihood(np.zeros(4), x[0], clip=1e-6), (2 * np.log(1e-6) + 2 * np.log1p(-1e-6)) / 4)
    with pytest.raises(ValueError, match="binary"):
        K.map_log_likelihood(p, np.array([0, 2, 0, 1]))
    with pytest.raises(ValueError, match="probabilities"):
        K.map_log_likelihood(p + 0.5, x[0])
    with pytest.raises(ValueError, match="clip"):
        K.map_log_likelihood(p, x[0], clip=0.5)


@pytest.mark.parametrize("method", ["random", "bayes-prior", "em-ptdm", "em-transient", "kernel-greedy"])
def test_run_discovery_tracks_the_estimate_it_queries_with(method):
    # map_loglik[:, t - 1] is the map log-likelihood of the estimate after t observations; tracking changes nothing
    size, M, B = 12, 2, 18
    T = K.make_target_maps("species", M, size, 6).reshape(M, -1)
    parts = K.sample_prior_particles(6, size, 2)
    kw = dict(first=np.array([10, 90]))
    r0 = K.run_discovery(method, T, parts, B, np.random.default_rng(3), **kw)
    r = K.run_discovery(method, T, parts, B, np.random.default_rng(3), track_map_loglik=True, **kw)
    assert "map_loglik" not in r0 and r["map_loglik"].shape == (M, B - 1)
    assert np.array_equal(r0["queries"], r["queries"]) and np.isfinite(r["map_loglik"]).all()
    if method == "random":  # never updated: the particles' mean map, with flip noise, at every step
        assert np.allclose(r["map_loglik"], K.map_log_likelihood(0.1 + 0.8 * parts.mean(axis=0), T)[:, None])
    if method in ("em-ptdm", "em-transient"):  # the last one: the estimate of the final weights (the last query's)
        q = r["queries"]
        for m in range(M):
            w = r["weights"][m] if method == "em-ptdm" else np.concatenate([np.zeros(6), r["weights"][m]])
            p = K.em_ptdm_estimate(parts, q[m, : B - 1], T[m, q[m, : B - 1]], w)
            assert np.isclose(r["map_loglik"][m, -1], K.map_log_likelihood(p, T[m]))


def test_kernel_greedy_follows_its_kernel_estimate():
    # the naive baseline: pure exploitation of the nearest-neighbour kernel estimate (no prior: any particles)
    size, M, B = 16, 3, 25
    T = K.make_target_maps("species", M, size, 4).reshape(M, -1)
    r1 = K.run_discovery("kernel-greedy", T, K.sample_prior_particles(3, size, 0), B, np.random.default_rng(0),
                         first=np.arange(M))
    r2 = K.run_discovery("kernel-greedy", T, ~K.sample_prior_particles(5, size, 9), B, np.random.default_rng(1),
                         first=np.arange(M), query_rule="official")
    assert np.array_equal(r1["queries"], r2["queries"])
    # query b + 1 maximises the kernel estimate of the first b + 1 observations among unobserved cells
    G = K.gaussian_kernel_matrix(size, 1.0)
    q, y = r1["queries"][0], T[0, r1["queries"][0]]
    for b in (3, 10, 20):
        rate = (y[: b + 1].sum() + 0.5) / (b + 2)
        p = K.transient_components(G[:, q[: b + 1]] @ y[: b + 1], G[:, q[: b + 1]].sum(axis=1), rate)
        p[q[: b + 1]] = -np.inf
        assert q[b + 1] == int(np.argmax(p))


# ---- the official query rule in closed form, the fitted speckle prior ----------------------------------

@pytest.mark.parametrize("b, sigma, S", [(1, 1.0, 16), (150, 1.0, 5), (299, 2.0, 8), (300, 1.0, 16), (7, 0.5, 3)])
def test_official_cell_scores_equal_the_official_block_scores(b, sigma, S):
    # binary samples at levels -1 / +1 (one channel), rewards (r0, r1) by the sample's level, blocks of one cell:
    # the closed form equals official_block_scores, which the golden file pins to the official code
    rng = np.random.default_rng(b)
    samples = rng.random((S, 6, 6)) < rng.uniform(0, 1, (1, 6, 6))
    r0, r1 = 0.1, 0.9
    S_off, _ = K.official_block_scores(np.where(samples, 1.0, -1.0)[..., None], np.where(samples, r1, r0),
                                       b, 300, sigma, 1, np.zeros((6, 6)))
    ours = K.official_cell_scores(samples.sum(axis=0), S, b, 300, sigma, (r0, r1))
    assert np.allclose(ours, S_off, rtol=1e-12, atol=1e-12)


def test_official_scores_of_the_page_are_positive():
    # with the page's official configuration (16 samples, sigma 1, rewards 0.1 / 0.9) every cell scores above 0 at
    # every query of a 300-query budget, so the official masking (observed scores multiplied by 0) never
    # re-selects an observed cell, and excluding observed cells changes no choice
    n = np.arange(17)
    assert min(K.official_cell_scores(n, 16, b, 300, 1.0, (0.1, 0.9)).min() for b in range(1, 301)) > 0


def test_official_cell_scores_bad_input():
    with pytest.raises(ValueError, match="n_pos"):
        K.official_cell_scores(np.array([3]), 2, 1, 10)
    with pytest.raises(ValueError, match="n_pos"):
        K.official_cell_scores(np.array([0.5]), 2, 1, 10)
    with pytest.raises(ValueError, match="reward"):
        K.official_cell_scores(np.array([1]), 2, 1, 10, reward=(0.0, 0.9))


def test_official_rule_runs_and_never_repeats_a_cell():
    size, M, B = 16, 3, 60
    T = K.make_target_maps("remote", M, size, 1).reshape(M, -1)
    parts = K.sample_prior_particles(12, size, 2)
    for m in ("bayes-prior", "em-permanent", "em-ptdm"):
        r = K.run_discovery(m, T, parts, B, np.random.default_rng(0), first=np.zeros(M, dtype=int),
                            query_rule="official")
        assert all(len(set(row)) == B for row in r["queries"])
        ours = K.run_discovery(m, T, parts, B, np.random.default_rng(0), first=np.zeros(M, dtype=int))
        assert not np.array_equal(r["queries"], ours["queries"])
    with pytest.raises(ValueError, match="query_rule"):
        K.run_discovery("em-ptdm", T, parts, B, np.random.default_rng(0), query_rule="theirs")


def test_neighbour_agreement_closed_forms():
    m = np.zeros((1, 8, 8), dtype=bool)
    m[0, 2, 2] = True
    assert K.neighbour_agreement(m) == 0.0  # an isolated cell
    m[0, 2, 3] = True
    assert K.neighbour_agreement(m) == pytest.approx(0.25)  # one horizontal pair out of 2 cells x 2 directions
    assert K.neighbour_agreement(np.ones((2, 8, 8), dtype=bool)) == 1.0
    assert K.neighbour_agreement(m.reshape(1, 64)) == pytest.approx(0.25)
    with pytest.raises(ValueError, match="no target"):
        K.neighbour_agreement(np.zeros((1, 8, 8), dtype=bool))


def test_fit_speckle_scale_recovers_the_speckle_it_was_drawn_from():
    for length, density in ((1.5, 0.12), (2.5, 0.08), (0.8, 0.3)):
        maps = K.sample_prior_particles(64, 32, 5, length, density).reshape(64, 32, 32)
        h, d = K.fit_speckle_scale(maps)
        assert d == pytest.approx(density, abs=2e-3) and h == pytest.approx(length, abs=0.25)
    # the species maps are coarser than the page's uninformative speckle
    h_sp, d_sp = K.fit_speckle_scale(K.make_target_maps("species", 32, 32, 0))
    assert h_sp > 1.2 and 0.08 < d_sp < 0.15
    with pytest.raises(ValueError, match="lengths"):
        K.fit_speckle_scale(maps, lengths=np.array([-1.0]))


def test_prior_particles_length_and_density():
    a = K.sample_prior_particles(16, 32, 0)
    assert np.array_equal(a, K.sample_prior_particles(16, 32, 0, 0.8, 0.3))  # the defaults: the page's prior
    b = K.sample_prior_particles(16, 32, 0, 2.0, 0.1)
    assert np.allclose(b.mean(axis=1), 0.1, atol=2e-3)
    assert K.neighbour_agreement(b) > K.neighbour_agreement(K.sample_prior_particles(16, 32, 0, 0.8, 0.1))
    with pytest.raises(ValueError, match="density"):
        K.sample_prior_particles(4, 32, 0, 1.0, 1.5)
    with pytest.raises(ValueError, match="length"):
        K.sample_prior_particles(4, 32, 0, 0.0, 0.1)


def test_random_policy_expected_discoveries():
    # expected targets found by the random policy = budget * density (Monte Carlo within 3 SE)
    size, M, B = 16, 400, 40
    T = K.make_target_maps("species", 8, size, 0).reshape(8, -1)
    T = np.repeat(T, M // 8, axis=0)
    r = K.run_discovery("random", T, K.sample_prior_particles(2, size, 0), B, np.random.default_rng(1))
    found = r["found"][:, -1]
    expect = B * T.mean(axis=1)
    assert abs((found - expect).mean()) < 3 * found.std() / np.sqrt(M)


def test_run_discovery_bad_input():
    T = np.zeros((2, 64), dtype=bool)
    parts = np.zeros((3, 64), dtype=bool)
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="method"):
        K.run_discovery("greedy", T, parts, 5, rng)
    with pytest.raises(ValueError, match="budget"):
        K.run_discovery("random", T, parts, 65, rng)
    with pytest.raises(ValueError, match="eps"):
        K.run_discovery("random", T, parts, 5, rng, eps=0.6)
    with pytest.raises(ValueError, match="share N"):
        K.run_discovery("random", T, parts[:, :10], 5, rng)


# ---- golden test against the official code --------------------------------------------------------------
# tests/papers/golden/atd-uninformative-prior.json holds the outputs of the official
# ActiveSampler.select_block_entropy (KevinG396/EM_PTDM), run outside the project with numpy-backed stubs.

GOLDEN = json.loads((Path(__file__).parent / "golden" / "atd-uninformative-prior.json").read_text())


def _golden_inputs(inp):
    rng = np.random.default_rng(inp["seed"])
    P, H, C = inp["particles"], inp["size"], inp["channels"]
    parts = rng.uniform(-1, 1, (P, H, H, C))
    nb = H // 4
    logits = rng.normal(size=(P * nb * nb, 2))
    logits[:, 1] += inp.get("logit_shift_class1", 0.0)
    mask = np.zeros((nb, nb))
    mask.flat[rng.choice(nb * nb, inp["n_masked"], replace=False)] = 1
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    reward = (e[:, 0] / e.sum(axis=1)).reshape(P, nb, nb)
    start, end = inp["sampling_window"]
    budget = int((end - start) / inp["sampling_interval"])
    b = int((inp["step"] - start) / inp["sampling_interval"] + 1)
    return parts, reward, b, budget, mask


def test_golden_file_names_the_official_commit():
    assert GOLDEN["slug"] == "atd-uninformative-prior"
    assert len(GOLDEN["commit"]) == 40 and GOLDEN["repository"].endswith("KevinG396/EM_PTDM")
    assert {"name", "function", "input", "output", "ours", "tol"} <= set(GOLDEN["cases"][0])


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=[c["name"] for c in GOLDEN["cases"]])
def test_golden_official_block_scores(case):
    parts, reward, b, budget, mask = _golden_inputs(case["input"])
    S, idx = K.official_block_scores(parts, reward, b, budget, case["input"]["sigma"], 4, mask)
    tol = case["tol"]
    assert np.allclose(S, np.array(case["output"]["scores"]), rtol=tol["rel"], atol=tol["abs"])
    assert list(idx) == case["output"]["block_index"]


def test_golden_case_where_the_official_rule_reselects_an_observed_block():
    case = next(c for c in GOLDEN["cases"] if c["name"] == "observed_block_wins")
    parts, reward, b, budget, mask = _golden_inputs(case["input"])
    _, idx = K.official_block_scores(parts, reward, b, budget, case["input"]["sigma"], 4, mask)
    assert mask[idx] == 1  # the official masking multiplies by 0, and every unobserved score is negative


def test_official_block_scores_bad_input():
    with pytest.raises(ValueError, match="divisible"):
        K.official_block_scores(np.zeros((2, 6, 6, 1)), np.zeros((2, 1, 1)), 1, 10, 1.0, 4, np.zeros((1, 1)))
    with pytest.raises(ValueError, match="block_reward"):
        K.official_block_scores(np.zeros((2, 8, 8, 1)), np.zeros((2, 1, 1)), 1, 10, 1.0, 4, np.zeros((2, 2)))
