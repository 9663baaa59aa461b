"""Unit tests of :mod:`repro.papers.outcome_based_online_rl`, the kernels of ``notebooks/outcome-based-online-rl.py``.

Closed forms, brute force on tiny MDPs (enumerate every deterministic policy), Monte Carlo against exact
dynamic programming, scikit-learn's logistic regression against our Newton fit, invariants of the lock and
bad input.
"""

import inspect
import itertools

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression, Ridge

from repro.papers import outcome_based_online_rl as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/outcome_based_online_rl.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def tiny(seed=0, B=2, S=2, A=2, H=3, deterministic=False):
    return K.make_tabular_mdps(B, S, A, H, np.random.default_rng(seed), deterministic=deterministic)


# ----------------------------------------------------------------------------- MDPs and planning
def test_mdp_shapes_and_validation():
    m = tiny()
    assert m.sizes == (2, 3, 2, 2)
    np.testing.assert_allclose(m.P.sum(-1), 1.0)
    d = tiny(deterministic=True)
    assert set(np.unique(d.P)) <= {0.0, 1.0}
    with pytest.raises(ValueError, match="probability"):
        K.TabularMDPs(m.P * 2, m.R, m.rho)
    with pytest.raises(ValueError, match="shapes|need"):
        K.TabularMDPs(m.P, m.R[:, :2], m.rho)
    with pytest.raises(ValueError, match="S must"):
        K.make_tabular_mdps(1, 0, 2, 2, np.random.default_rng(0))
    assert K.make_tabular_mdp(3, 2, 2, seed=4).sizes == (1, 2, 3, 2)


def test_value_of_policy_closed_form_on_a_deterministic_chain():
    # one state, reward R[h, 0, a]: the return of a policy is the sum of its chosen rewards
    R = np.array([[[[0.1, 0.7]], [[0.3, 0.2]]]])  # (1, H=2, S=1, A=2)
    m = K.TabularMDPs(np.ones((1, 2, 1, 2, 1)), R, np.ones((1, 1)))
    assert K.value_of_policy(m, np.array([[[1], [0]]]))[0] == pytest.approx(1.0)
    pi, J = K.optimal_values(m)
    assert J[0] == pytest.approx(1.0) and pi.tolist() == [[[1], [0]]]


def all_policies(H, S, A):
    for flat in itertools.product(range(A), repeat=H * S):
        yield np.array(flat).reshape(H, S)


def test_zero_bonus_planner_is_the_best_of_all_deterministic_policies():
    m = tiny(seed=3, B=2, S=2, A=2, H=3)
    best = np.full(2, -np.inf)
    for p in all_policies(3, 2, 2):
        best = np.maximum(best, K.value_of_policy(m, np.stack([p, p])))
    pi, J = K.optimal_values(m)
    np.testing.assert_allclose(J, best, rtol=1e-12)
    np.testing.assert_allclose(K.value_of_policy(m, pi), best, rtol=1e-12)
    pi2, V2 = K.optimistic_plan(m.P, m.R, np.zeros_like(m.R), clip=False)
    np.testing.assert_array_equal(pi2, pi)


def test_planner_clips_the_propagated_value_but_chooses_by_the_unclipped_q():
    m = tiny(seed=1, B=1, S=2, A=3, H=2)
    bonus = np.zeros_like(m.R)
    bonus[0, 1, :, 2] = 5.0  # a huge bonus on action 2 at the last step
    pi, V = K.optimistic_plan(m.P, m.R, bonus, clip=True)
    assert np.all(pi[0, 1] == 2)
    assert np.all(V <= 2.0 + 1e-12)
    bonus[0, 1] = 5.0  # every action at the cap: the choice still follows the unclipped Q (the true reward)
    pi, _ = K.optimistic_plan(m.P, m.R, bonus, clip=True)
    np.testing.assert_array_equal(pi[0, 1], m.R[0, 1].argmax(-1))


def test_dp_value_matches_monte_carlo_rollouts_within_3_standard_errors():
    m = tiny(seed=5, B=3, S=3, A=2, H=4)
    rng = np.random.default_rng(0)
    pi = rng.integers(0, 2, size=(3, 4, 3))
    n = 4000
    Ms = K.TabularMDPs(np.repeat(m.P, n, 0), np.repeat(m.R, n, 0), np.repeat(m.rho, n, 0))
    _, _, rew = K.rollout(Ms, np.repeat(pi, n, 0), 0.3, rng)
    ret = rew.sum(-1).reshape(3, n)
    se = ret.std(1, ddof=1) / np.sqrt(n)
    assert np.all(np.abs(ret.mean(1) - K.value_of_policy(m, pi)) <= 3 * se)


def test_rollout_follows_the_policy_and_bad_policies_are_refused():
    m = tiny(seed=2, B=2, S=3, A=2, H=3)
    pi = np.ones((2, 3, 3), dtype=int)
    s, a, r = K.rollout(m, pi, 0.0, np.random.default_rng(1))
    assert np.all(a == 1) and s.shape == (2, 3)
    np.testing.assert_allclose(r, m.R[np.arange(2)[:, None], np.arange(3), s, a])
    with pytest.raises(ValueError, match="pi must"):
        K.value_of_policy(m, pi + 1)
    with pytest.raises(ValueError, match="pi must"):
        K.rollout(m, pi[:1], 0.1, np.random.default_rng(0))


# ----------------------------------------------------------------------------- regression
def test_features_give_the_return_as_an_inner_product():
    m = tiny(seed=4, B=1, S=3, A=2, H=4)
    s, a, r = K.rollout(m, np.zeros((1, 4, 3), dtype=int), 0.0, np.random.default_rng(2))
    phi = K.trajectory_features(s, a, 3, 2)
    assert phi.shape == (1, 24) and np.all(phi.sum(-1) == 4)
    assert phi[0] @ m.R.reshape(-1) == pytest.approx(r.sum())
    with pytest.raises(ValueError, match="states must lie"):
        K.trajectory_features(s + 5, a, 3, 2)
    with pytest.raises(ValueError, match="same shape"):
        K.trajectory_features(s, a[:, :2], 3, 2)


def test_noise_free_outcome_regression_recovers_the_reward_up_to_the_gauge():
    S, A, H = 3, 2, 3
    rng = np.random.default_rng(0)
    theta = rng.random(H * S * A)
    s = rng.integers(0, S, size=(400, H))
    a = rng.integers(0, A, size=(400, H))
    Phi = K.trajectory_features(s, a, S, A)
    est, Sinv = K.outcome_ridge(Phi, Phi @ theta, lam=1e-10)
    assert np.max(np.abs(K.gauge_fix(est, S, A, H) - K.gauge_fix(theta, S, A, H))) <= 1e-8
    # the gauge: H - 1 invisible directions; the design has rank d - (H - 1)
    assert np.linalg.matrix_rank(Phi) == H * S * A - (H - 1)


def test_ridge_matches_lstsq_and_sherman_morrison_matches_inversion():
    rng = np.random.default_rng(1)
    Phi, r = rng.random((30, 5)), rng.random(30)
    theta, Sinv = K.outcome_ridge(Phi, r, lam=0.5)
    aug = np.vstack([Phi, np.sqrt(0.5) * np.eye(5)])
    np.testing.assert_allclose(theta, np.linalg.lstsq(aug, np.r_[r, np.zeros(5)], rcond=None)[0], rtol=1e-10)
    Si = np.repeat(Sinv[None], 2, 0)
    phis = rng.random((2, 5))
    upd = K.sherman_morrison(Si, phis)
    for b in range(2):
        np.testing.assert_allclose(upd[b], np.linalg.inv(np.linalg.inv(Sinv) + np.outer(phis[b], phis[b])), rtol=1e-9)
    with pytest.raises(ValueError, match="one outcome"):
        K.outcome_ridge(Phi, r[:3], 1.0)
    with pytest.raises(ValueError, match="lam"):
        K.outcome_ridge(Phi, r, 0.0)
    with pytest.raises(ValueError, match="need"):
        K.sherman_morrison(Sinv, phis[0])


def test_gauge_fix_removes_per_step_shifts_and_is_idempotent():
    S, A, H = 2, 3, 4
    rng = np.random.default_rng(3)
    theta = rng.random(H * S * A)
    shift = np.repeat(rng.normal(size=H), S * A)
    g = K.gauge_fix(theta, S, A, H)
    np.testing.assert_allclose(K.gauge_fix(theta + shift, S, A, H), g, atol=1e-14)
    np.testing.assert_allclose(K.gauge_fix(g, S, A, H), g, atol=1e-15)
    with pytest.raises(ValueError, match="H\\*S\\*A"):
        K.gauge_fix(theta[:-1], S, A, H)


def test_gauge_projector_is_the_projector_on_invisible_shifts():
    S, A, H = 2, 3, 4
    Pg = K.gauge_projector(S, A, H)
    np.testing.assert_allclose(Pg @ Pg, Pg, atol=1e-14)
    np.testing.assert_allclose(Pg, Pg.T, atol=1e-15)
    assert np.linalg.matrix_rank(Pg) == H - 1
    rng = np.random.default_rng(0)
    phi = K.trajectory_features(rng.integers(0, S, (50, H)), rng.integers(0, A, (50, H)), S, A)
    np.testing.assert_allclose(phi @ Pg, 0.0, atol=1e-14)  # outcomes see nothing along the gauge
    theta = rng.random(H * S * A)
    shift = np.repeat(rng.normal(size=H) - 0.0, S * A)
    shift -= np.repeat(np.full(H, shift[:: S * A].mean()), S * A)  # zero-sum per-step shift
    np.testing.assert_allclose(Pg @ shift, shift, atol=1e-14)
    np.testing.assert_allclose(K.gauge_fix(theta - Pg @ theta, S, A, H), K.gauge_fix(theta, S, A, H), atol=1e-14)


def test_preference_newton_matches_scikit_learn():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(500, 6))
    y = (rng.random(500) < 1 / (1 + np.exp(-X @ rng.normal(size=6)))).astype(float)
    lam = 2.0
    ours = K.preference_logistic(X, y, lam)
    sk = LogisticRegression(C=1 / lam, fit_intercept=False, tol=1e-12, max_iter=10000).fit(X, y)
    np.testing.assert_allclose(ours, sk.coef_[0], rtol=1e-5, atol=1e-7)
    with pytest.raises(ValueError, match="0/1"):
        K.preference_logistic(X, y + 2, lam)


def test_preference_linear_is_ridge_on_signed_labels():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 5))
    y = (rng.random(300) < 0.5).astype(float)
    ours = K.preference_linear(X, y, lam=3.0)
    sk = Ridge(alpha=3.0, fit_intercept=False).fit(X, 2 * y - 1)
    np.testing.assert_allclose(ours, sk.coef_, rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError, match="0/1"):
        K.preference_linear(X, y * 0.5, 1.0)


def test_preference_win_rate_by_hand_and_bad_input():
    F = np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, 1]])
    G = np.roll(F, 1, axis=1)  # pairs (0 vs 1), (1 vs 2), (2 vs 0)
    y = np.array([1.0, 0.0, 1.0])  # winners: 0, 2, 2
    np.testing.assert_allclose(K.preference_win_rate(F, G, y), [0.5, 0.0, 1.0])
    # a cell in both trajectories of a pair wins and loses it; a cell never compared scores 0
    F2, G2 = np.array([[1.0, 1, 0, 0]]), np.array([[1.0, 0, 1, 0]])
    np.testing.assert_allclose(K.preference_win_rate(F2, G2, np.array([1.0])), [0.5, 1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="same shape"):
        K.preference_win_rate(F, G[:2], y)
    with pytest.raises(ValueError, match="visit counts"):
        K.preference_win_rate(-F, G, y)


# ----------------------------------------------------------------------------- online learners
def test_outcome_and_per_step_learners_coincide_at_horizon_one():
    m = tiny(seed=6, B=2, S=3, A=3, H=1)
    a = K.run_outcome_rl(m, 60, "outcome", seed=3)
    b = K.run_outcome_rl(m, 60, "per_step", seed=3)
    np.testing.assert_allclose(a["gap"], b["gap"], atol=1e-12)
    np.testing.assert_allclose(a["theta"], b["theta"], rtol=1e-9)


def test_optimistic_learners_find_the_optimum_of_an_easy_mdp_and_greedy_gets_stuck():
    m = tiny(seed=7, B=3, S=2, A=2, H=3)
    for fb in K.FEEDBACKS:
        out = K.run_outcome_rl(m, 400, fb, seed=1, eval_every=100)
        assert out["gap"].shape == (3, 400) and out["eval_gap"].shape == (3, 4)
        assert np.all(out["gap"] >= -1e-12)
        assert np.all(out["final_gap"] <= 1e-9)
    # a deliberately constructed trap: the first action tried looks fine, the other is much better
    R = np.zeros((1, 1, 1, 2))
    R[0, 0, 0] = [0.4, 0.9]
    trap = K.TabularMDPs(np.ones((1, 1, 1, 2, 1)), R, np.ones((1, 1)))
    g = K.run_outcome_rl(trap, 50, "outcome", seed=0, explore="greedy", sigma=0.0)
    assert g["final_gap"][0] == pytest.approx(0.5)
    o = K.run_outcome_rl(trap, 50, "outcome", seed=0, sigma=0.0)
    assert o["final_gap"][0] == pytest.approx(0.0)


def test_naive_comparators_of_the_learner():
    m = tiny(seed=9, B=2, S=3, A=3, H=3)
    g = K.run_outcome_rl(m, 80, "outcome", seed=2, explore="greedy")
    e0 = K.run_outcome_rl(m, 80, "outcome", seed=2, explore="eps_greedy", eps=0.0)
    np.testing.assert_array_equal(e0["gap"], g["gap"])  # epsilon = 0 is greedy
    u = K.run_outcome_rl(m, 300, "outcome", seed=2, explore="uniform")
    J_rand = [np.mean([K.value_of_policy(m, np.random.default_rng(i).integers(0, 3, (2, 3, 3)))[b]
                       for i in range(400)]) for b in range(2)]
    np.testing.assert_allclose(u["gap"].mean(1), u["J_star"] - np.array(J_rand), atol=0.05)  # plays at random
    assert np.all(u["final_gap"] <= 0.05 * 3)  # ... and its output, fitted on what it saw, is near-optimal here
    # with H = 1 the outcome is the only step's reward: uniform credit is the per-step learner
    m1 = tiny(seed=6, B=2, S=3, A=3, H=1)
    np.testing.assert_allclose(K.run_outcome_rl(m1, 60, "outcome", seed=3, credit="uniform")["gap"],
                               K.run_outcome_rl(m1, 60, "per_step", seed=3)["gap"], atol=1e-12)
    # uniform credit gives each visited cell the mean outcome / H of the episodes through it
    R = np.zeros((1, 2, 1, 2))
    R[0, :, 0, 1] = [0.2, 0.6]
    two = K.TabularMDPs(np.ones((1, 2, 1, 2, 1)), R, np.ones((1, 1)))
    uc = K.run_outcome_rl(two, 200, "outcome", seed=0, sigma=0.0, explore="uniform", credit="uniform")
    # cell (h, a): E[outcome | a_h = a] / 2 with the other step's action uniform, e.g. (0.2 + 0.3) / 2 for (0, 1)
    np.testing.assert_allclose(uc["theta"][0], [0.15, 0.25, 0.05, 0.35], atol=0.04)
    with pytest.raises(ValueError, match="credit"):
        K.run_outcome_rl(m, 5, "per_step", credit="uniform")
    with pytest.raises(ValueError, match="credit"):
        K.run_outcome_rl(m, 5, credit="equal")
    with pytest.raises(ValueError, match="eps"):
        K.run_outcome_rl(m, 5, explore="eps_greedy", eps=1.5)


def test_explore_then_commit_and_the_ridge_prior():
    m = tiny(seed=9, B=2, S=3, A=3, H=3)
    g = K.run_outcome_rl(m, 60, "outcome", seed=2, explore="greedy")
    u = K.run_outcome_rl(m, 60, "outcome", seed=2, explore="uniform")
    np.testing.assert_array_equal(K.run_outcome_rl(m, 60, "outcome", seed=2, explore="commit")["gap"], g["gap"])
    c = K.run_outcome_rl(m, 60, "outcome", seed=2, explore="commit", n_explore=20)
    np.testing.assert_array_equal(c["gap"][:, :20], u["gap"][:, :20])  # explores as "uniform" does, then commits
    np.testing.assert_array_equal(K.run_outcome_rl(m, 60, "outcome", seed=2, explore="commit", n_explore=60)["gap"],
                                  u["gap"])
    # the prior: per-step ridge towards c, noise-free, one episode: (r + lam c) / (lam + 1) on the H visited cells,
    # c on the others
    for prior, lam in ((0.5, 1.0), (0.3, 2.0)):
        p = K.run_outcome_rl(m, 1, "per_step", seed=4, explore="greedy", sigma=0.0, lam=lam, prior=prior)
        th, R = p["theta"], m.R.reshape(2, -1)
        visited = ~np.isclose(th, prior, rtol=0, atol=1e-12)
        assert np.all(visited.sum(1) == 3)
        np.testing.assert_allclose(th[visited], (R[visited] + lam * prior) / (lam + 1), atol=1e-12)
    # the same for the outcome regression: theta - c is the ridge fit of the shifted outcomes, so gaps and output
    # equal those of the learner run on R - c, and J_star is on the original scale
    p = K.run_outcome_rl(m, 40, "outcome", seed=2, explore="greedy", prior=0.5)
    q = K.run_outcome_rl(K.TabularMDPs(m.P, m.R - 0.5, m.rho), 40, "outcome", seed=2, explore="greedy")
    np.testing.assert_array_equal(p["gap"], q["gap"])
    np.testing.assert_allclose(p["theta"], q["theta"] + 0.5, atol=1e-12)
    np.testing.assert_allclose(p["J_star"], g["J_star"], atol=1e-12)
    with pytest.raises(ValueError, match="n_explore"):
        K.run_outcome_rl(m, 5, explore="greedy", n_explore=3)
    with pytest.raises(ValueError, match="prior"):
        K.run_outcome_rl(m, 5, prior=np.nan)


def test_learner_with_estimated_transitions_runs_and_bad_arguments_fail():
    m = tiny(seed=8, B=2, S=2, A=2, H=2)
    out = K.run_outcome_rl(m, 50, "per_step", seed=0, known_transitions=False)
    assert np.all(np.isfinite(out["gap"]))
    with pytest.raises(ValueError, match="feedback"):
        K.run_outcome_rl(m, 5, "trajectory")
    with pytest.raises(ValueError, match="explore"):
        K.run_outcome_rl(m, 5, explore="random")
    with pytest.raises(ValueError, match="n_episodes"):
        K.run_outcome_rl(m, 0)
    with pytest.raises(ValueError, match="TabularMDPs"):
        K.run_outcome_rl("mdp", 5)


# ----------------------------------------------------------------------------- the lock
def test_lock_rewards_sum_to_the_opening_indicator_and_reveal_the_prefix():
    H = 4
    seqs = K.all_sequences(H, 2)
    assert seqs.shape == (16, 4) and len({tuple(s) for s in seqs}) == 16
    key = np.array([1, 0, 1, 1])
    r = K.lock_step_rewards(key, seqs)
    np.testing.assert_allclose(r.sum(-1), np.all(seqs == key, -1).astype(float), atol=1e-15)
    # brute force: the per-step vector is determined by (and determines) the matching-prefix length
    m = np.array([next((i for i in range(H) if s[i] != key[i]), H) for s in seqs])
    for mm in range(H + 1):
        rows = r[m == mm]
        assert len({tuple(x) for x in rows}) == 1
    assert len({tuple(x) for x in r}) == H + 1
    with pytest.raises(ValueError, match="horizon"):
        K.lock_step_rewards(key, seqs[:, :3])


def test_lock_learner_per_step_needs_at_most_h_plus_one_episodes_outcome_is_uniform():
    H = 4
    rng = np.random.default_rng(0)
    ps = [K.run_lock(H, 2, "per_step", rng) for _ in range(200)]
    assert max(ps) <= H + 1
    oc = np.array([K.run_lock(H, 2, "outcome", rng) for _ in range(2000)])
    assert oc.min() >= 1 and oc.max() <= 2**H
    # sampling without replacement: the key's rank is uniform on 1..2^H, mean (2^H + 1) / 2
    assert abs(oc.mean() - (2**H + 1) / 2) <= 3 * np.sqrt((2 ** (2 * H) - 1) / 12 / 2000)
    with pytest.raises(ValueError, match="feedback"):
        K.run_lock(H, 2, "pref", rng)
    with pytest.raises(ValueError, match="A must"):
        K.all_sequences(3, 1)
