"""Unit tests of :mod:`repro.papers.stagger_hybrid_imitation`, the kernels of ``notebooks/stagger-hybrid-imitation.py``."""

import inspect
import itertools

import numpy as np
import pytest
import scipy.linalg

from repro.papers import stagger_hybrid_imitation as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/stagger_hybrid_imitation.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# ----------------------------------------------------------------------------- cliff_expected_cost
@pytest.mark.parametrize("H", [1, 2, 7, 30])
def test_cliff_expected_cost_matches_the_closed_form(H):
    eps = np.array([0.0, 1e-3, 0.05, 0.3, 1.0])
    closed = np.array([sum(1 - (1 - e) ** t for t in range(1, H + 1)) for e in eps])
    np.testing.assert_allclose(K.cliff_expected_cost(eps, H), closed, rtol=1e-12, atol=1e-12)
    assert K.cliff_expected_cost(0.0, H) == 0.0 and K.cliff_expected_cost(1.0, H) == H
    assert isinstance(K.cliff_expected_cost(0.1, H), float)


def test_cliff_expected_cost_by_brute_force_over_error_patterns():
    H, eps = 5, 0.23
    total = 0.0
    for errs in itertools.product([0, 1], repeat=H):  # error indicator at each step while on the path
        p, cost, fallen = 1.0, 0, False
        for e in errs:
            if fallen:
                cost += 1
                continue
            p *= eps if e else 1 - eps
            if e:
                fallen, cost = True, cost + 1
        # patterns that differ only after the fall are the same event: count each once
        first = errs.index(1) if 1 in errs else H
        if any(errs[first + 1:]):
            continue
        total += p * cost
    assert K.cliff_expected_cost(eps, H) == pytest.approx(total, rel=1e-12)


def test_cliff_expected_cost_small_eps_is_eps_H_squared_over_2_and_is_monotone():
    H = 200
    e = 1e-7
    assert K.cliff_expected_cost(e, H) == pytest.approx(e * H * (H + 1) / 2, rel=1e-4)
    v = K.cliff_expected_cost(np.linspace(0, 1, 50), H)
    assert np.all(np.diff(v) > 0)


@pytest.mark.parametrize("bad", [-0.1, 1.5, np.nan])
def test_cliff_expected_cost_rejects_bad_eps(bad):
    with pytest.raises(ValueError, match="eps"):
        K.cliff_expected_cost(bad, 10)


def test_cliff_expected_cost_rejects_bad_horizon():
    with pytest.raises(ValueError, match="H"):
        K.cliff_expected_cost(0.1, 0)


# ----------------------------------------------------------------------------- the cliff MDP
@pytest.mark.parametrize("recoverable", [True, False])
def test_cliff_mdp_is_a_valid_mdp_and_the_expert_costs_nothing(recoverable):
    mdp = K.make_cliff_mdp(6, 3, 10, recoverable)
    np.testing.assert_allclose(mdp.P.sum(-1), 1.0)
    assert mdp.init.sum() == pytest.approx(1.0)
    assert K.expected_cost(mdp, mdp.expert_policy()) == 0.0
    uniform = np.full((mdp.n_states, mdp.n_actions), 1 / 3)
    assert 0 < K.expected_cost(mdp, uniform) <= mdp.horizon


def test_expert_is_optimal_by_backward_dynamic_programming():
    mdp = K.make_cliff_mdp(5, 3, 12, True)
    V = np.zeros(mdp.n_states)
    for _ in range(mdp.horizon):
        V = (mdp.cost + mdp.P @ V).min(-1)
    assert mdp.init @ V == pytest.approx(0.0)
    assert K.expected_cost(mdp, mdp.expert_policy()) == pytest.approx(mdp.init @ V)


@pytest.mark.parametrize("eps", [0.0, 0.1, 0.5])
def test_absorbing_cliff_cost_equals_cliff_expected_cost(eps):
    mdp = K.make_cliff_mdp(8, 3, 25, recoverable=False)
    pi = mdp.expert_policy() * (1 - eps) + eps * (1 - mdp.expert_policy()) / 2  # errs w.p. eps everywhere
    assert K.per_step_error(mdp, pi) == pytest.approx(eps)
    assert K.expected_cost(mdp, pi) == pytest.approx(K.cliff_expected_cost(eps, 25), rel=1e-12)


def test_absorbing_cliff_with_state_dependent_errors_uses_the_mean_error():
    rng = np.random.default_rng(0)
    mdp = K.make_cliff_mdp(7, 3, 15, recoverable=False)
    pi = rng.dirichlet(np.ones(3), size=mdp.n_states)
    eps = K.per_step_error(mdp, pi)
    assert K.expected_cost(mdp, pi) == pytest.approx(K.cliff_expected_cost(eps, 15), rel=1e-12)


def test_recovery_makes_the_same_learner_cheaper():
    pi = np.full((40, 3), 1 / 3)
    a = K.expected_cost(K.make_cliff_mdp(20, 3, 30, True), pi)
    b = K.expected_cost(K.make_cliff_mdp(20, 3, 30, False), pi)
    assert a < b


def test_expected_cost_matches_monte_carlo_rollouts():
    rng = np.random.default_rng(1)
    mdp = K.make_cliff_mdp(4, 3, 8, True)
    pi = rng.dirichlet(np.ones(3), size=mdp.n_states)
    n = 40000
    traj = K.sample_trajectories(mdp, np.broadcast_to(pi, (n, *pi.shape)), rng)
    # the cost of a step depends on the action; with c(s) = sum_a pi(a|s) c(s,a) the expectation is the same
    mc = (pi * mdp.cost).sum(-1)[traj].sum(1).mean()
    assert mc == pytest.approx(float(K.expected_cost(mdp, pi)), rel=0.02)
    d = K.state_distributions(mdp, pi)
    emp = np.stack([np.bincount(traj[:, t], minlength=mdp.n_states) / n for t in range(mdp.horizon)])
    np.testing.assert_allclose(emp, d, atol=0.015)


def test_expected_cost_is_batched():
    rng = np.random.default_rng(2)
    mdp = K.make_cliff_mdp(3, 2, 5, True)
    pis = rng.dirichlet(np.ones(2), size=(4, 2, mdp.n_states))
    batch = K.expected_cost(mdp, pis)
    assert batch.shape == (4, 2)
    assert batch[3, 1] == pytest.approx(float(K.expected_cost(mdp, pis[3, 1])))


def test_bad_policies_and_mdps_are_rejected():
    mdp = K.make_cliff_mdp(3, 2, 5)
    with pytest.raises(ValueError, match="shape"):
        K.expected_cost(mdp, np.ones((3, 2)) / 2)
    with pytest.raises(ValueError, match="probability"):
        K.expected_cost(mdp, np.ones((6, 2)))
    with pytest.raises(ValueError, match="n_actions"):
        K.make_cliff_mdp(3, 1, 5)


# ----------------------------------------------------------------------------- learners and data
def test_majority_vote_policy():
    counts = np.array([[0, 0, 0], [2, 1, 0], [1, 1, 0]], dtype=float)
    pi = K.majority_vote_policy(counts)
    np.testing.assert_allclose(pi, [[1 / 3] * 3, [1, 0, 0], [0.5, 0.5, 0]])
    with pytest.raises(ValueError, match="non-negative"):
        K.majority_vote_policy(-counts - 1)


def test_bc_with_labels_on_every_path_state_equals_the_expert():
    mdp = K.make_cliff_mdp(10, 3, 30, True)
    counts = K.expert_state_counts(mdp, 3000, 2, np.random.default_rng(0))
    assert counts.sum() == 6000 and counts[:, mdp.n_path:].sum() == 0  # the expert never leaves the path
    pi = K.majority_vote_policy(counts)
    np.testing.assert_allclose(pi[:, : mdp.n_path], np.broadcast_to(mdp.expert_policy()[: mdp.n_path], (2, 10, 3)))
    assert np.all(K.per_step_error(mdp, pi) == 0)
    # ... but BC never sees a fallen state, so it cannot recover: the full learner needs interactive labels
    np.testing.assert_allclose(pi[:, mdp.n_path:], 1 / 3)


def test_annotation_cost_and_budget_split():
    assert K.annotation_cost(10, 5, 2.0) == 20.0
    np.testing.assert_allclose(K.annotation_cost(np.array([0, 4]), np.array([3, 0]), 4.0), [12, 4])
    assert K.labels_for_budget(60, 1, 0.0) == (0, 60)
    assert K.labels_for_budget(60, 4, 0.0) == (0, 15)
    assert K.labels_for_budget(60, 1, 0.2) == (12, 48)
    assert K.labels_for_budget(60, 2, 1.0) == (60, 0)
    for B, C, f in itertools.product([10, 25, 60], [1, 2, 3, 4], [0, 0.2, 1]):
        n_off, n_int = K.labels_for_budget(B, C, f)
        assert K.annotation_cost(n_off, n_int, C) <= B < K.annotation_cost(n_off, n_int + 1, C)
    with pytest.raises(ValueError, match="C"):
        K.annotation_cost(1, 1, 0)
    with pytest.raises(ValueError, match="warm_fraction"):
        K.labels_for_budget(10, 1, 1.5)
    with pytest.raises(ValueError, match=">= 0"):
        K.annotation_cost(-1, 0, 1)


def test_stagger_adds_one_label_per_round_and_dagger_one_per_state():
    mdp = K.make_cliff_mdp(6, 3, 10, True)
    rng = np.random.default_rng(3)
    counts, costs = K.interactive_imitation(mdp, 17, 5, rng, checkpoints=[0, 5, 17])
    np.testing.assert_array_equal(counts.sum((1, 2)), 17)
    assert costs.shape == (5, 3)
    np.testing.assert_allclose(costs[:, 0], K.expected_cost(mdp, np.full((12, 3), 1 / 3)))
    np.testing.assert_allclose(costs[:, 2], K.expected_cost(mdp, K.majority_vote_policy(counts)))
    # every label is the expert's action
    s, a = np.nonzero(counts.sum(0))
    np.testing.assert_array_equal(a, mdp.expert[s])
    dcounts, _ = K.interactive_imitation(mdp, 25, 3, rng, per_round="trajectory")
    np.testing.assert_array_equal(dcounts.sum((1, 2)), 25)


def test_warm_stagger_keeps_the_offline_labels_and_is_cheaper_at_the_start():
    mdp = K.make_cliff_mdp(6, 3, 10, True)
    rng = np.random.default_rng(4)
    warm = K.expert_state_counts(mdp, 12, 4, rng)
    counts, costs = K.interactive_imitation(mdp, 3, 4, rng, warm_counts=warm, checkpoints=[0, 3])
    np.testing.assert_array_equal(counts.sum((1, 2)), 15)
    assert np.all(counts >= warm)
    np.testing.assert_allclose(costs[:, 0], K.expected_cost(mdp, K.majority_vote_policy(warm)))


def test_interactive_imitation_rejects_bad_input():
    mdp = K.make_cliff_mdp(3, 2, 5)
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="per_round"):
        K.interactive_imitation(mdp, 3, 2, rng, per_round="episode")
    with pytest.raises(ValueError, match="checkpoints"):
        K.interactive_imitation(mdp, 3, 2, rng, checkpoints=[4])
    with pytest.raises(ValueError, match="warm_counts"):
        K.interactive_imitation(mdp, 3, 2, rng, warm_counts=np.zeros((1, 6, 2)))


def test_stagger_learns_recovery_on_the_recoverable_cliff():
    mdp = K.make_cliff_mdp(5, 3, 20, True)
    counts, _ = K.interactive_imitation(mdp, 400, 3, np.random.default_rng(5))
    pi = K.majority_vote_policy(counts)
    np.testing.assert_allclose(K.expected_cost(mdp, pi), 0.0, atol=1e-12)  # path and recovery all learned


# ----------------------------------------------------------------------------- LQR and the MuJoCo pendulum
def test_lqr_gain_satisfies_the_riccati_equation_and_stabilises():
    rng = np.random.default_rng(6)
    A = rng.normal(size=(4, 4)) * 0.6 + np.eye(4)
    B = rng.normal(size=(4, 1))
    Q, R = np.eye(4), np.eye(1) * 0.1
    Kg = K.lqr_gain(A, B, Q, R)
    assert np.max(np.abs(np.linalg.eigvals(A - B @ Kg))) < 1
    X = scipy.linalg.solve_discrete_are(A, B, Q, R)
    np.testing.assert_allclose(A.T @ X @ A - X - A.T @ X @ B @ Kg + Q, 0, atol=1e-8)
    with pytest.raises(ValueError, match="shapes"):
        K.lqr_gain(A, B, np.eye(3), R)


def test_ridge_fit_matches_scikit_learn_and_recovers_a_linear_policy():
    from sklearn.linear_model import Ridge

    rng = np.random.default_rng(7)
    X = rng.normal(size=(3, 20, 4))
    w0 = rng.normal(size=4)
    y = X @ w0
    w = K.ridge_fit(X, y, 0.5)
    for r in range(3):
        np.testing.assert_allclose(w[r], Ridge(alpha=0.5, fit_intercept=False).fit(X[r], y[r]).coef_, rtol=1e-10)
    np.testing.assert_allclose(K.ridge_fit(X, y, 1e-10), np.tile(w0, (3, 1)), atol=1e-8)
    np.testing.assert_array_equal(K.ridge_fit(np.zeros((2, 0, 4)), np.zeros((2, 0)), 1.0), 0.0)
    with pytest.raises(ValueError, match="lam"):
        K.ridge_fit(X, y, 0.0)
    with pytest.raises(ValueError, match="shapes"):
        K.ridge_fit(X, y[:, :3], 1.0)


@pytest.fixture(scope="module")
def pendulum():
    env = K.make_pendulum()
    A, B = K.linearize_pendulum(env)
    return env, A, B, K.lqr_gain(A, B, np.eye(4), 0.1 * np.eye(1))


def test_linearisation_predicts_a_small_step_and_the_lqr_expert_stabilises_it(pendulum):
    env, A, B, Kg = pendulum
    assert A.shape == (4, 4) and B.shape == (4, 1)
    assert np.max(np.abs(np.linalg.eigvals(A))) > 1  # the upright pendulum is unstable ...
    assert np.max(np.abs(np.linalg.eigvals(A - B @ Kg))) < 1  # ... and the LQR gain stabilises it
    # x = 0 is nearly, not exactly, an equilibrium (the model's pole is tilted by 0.001/0.6 rad): compare
    # the displacement from the step of the rest state with the linear prediction, at a small amplitude
    x = np.array([[0.01, -0.005, 0.02, 0.01]]) * 1e-2
    u = np.array([0.05]) * 1e-2
    f0 = K.pendulum_step(env, np.zeros((1, 4)), np.zeros(1))[0]
    np.testing.assert_allclose(K.pendulum_step(env, x, u)[0] - f0, A @ x[0] + B @ u, rtol=1e-3, atol=1e-8)


def test_the_expert_keeps_the_pendulum_up_and_a_zero_policy_drops_it(pendulum):
    env, _, _, Kg = pendulum
    rng = np.random.default_rng(8)
    x0 = rng.uniform(-0.1, 0.1, size=(6, 4))
    _, alive = K.pendulum_rollouts(env, K.pendulum_expert(Kg), x0, 60, 0.3, rng)
    assert alive.all()
    cost = K.pendulum_cost(env, np.zeros((2, 4)), 3, 60, 0.1, 0.3, rng)
    assert np.all(cost > 0)
    # the linear learner fitted on the expert's own gain costs nothing
    assert np.all(K.pendulum_cost(env, np.tile(-Kg[0], (2, 1)), 3, 60, 0.1, 0.3, rng) == 0)


def test_pendulum_data_shapes_and_labels(pendulum):
    env, _, _, Kg = pendulum
    rng = np.random.default_rng(9)
    X, y = K.pendulum_bc_data(env, Kg, 7, 3, 5, 0.1, 0.3, rng)
    assert X.shape == (3, 7, 4) and y.shape == (3, 7)
    np.testing.assert_allclose(y, -(X @ Kg[0]))
    Xs, ys = K.pendulum_stagger(env, Kg, 4, 3, 5, 0.1, 0.3, 0.01, rng, warm=(X, y))
    assert Xs.shape == (3, 11, 4)
    np.testing.assert_array_equal(Xs[:, :7], X)
    np.testing.assert_allclose(ys, -(Xs @ Kg[0]))
    with pytest.raises(ValueError, match="warm"):
        K.pendulum_stagger(env, Kg, 1, 2, 5, 0.1, 0.3, 0.01, rng, warm=(X, y))


@pytest.mark.parametrize("m", [1, 3, 8])
def test_cliff_mdp_with_shared_fallen_states(m):
    mdp = K.make_cliff_mdp(8, 3, 10, True, n_fallen=m)
    assert mdp.n_states == 8 + m
    np.testing.assert_allclose(mdp.P.sum(-1), 1.0)
    assert K.expected_cost(mdp, mdp.expert_policy()) == 0.0
    absorbing = K.make_cliff_mdp(8, 3, 10, False, n_fallen=m)
    pi = np.full((8 + m, 3), 1 / 3)
    assert K.expected_cost(absorbing, pi) == pytest.approx(K.cliff_expected_cost(2 / 3, 10))
    with pytest.raises(ValueError, match="n_fallen"):
        K.make_cliff_mdp(3, 3, 10, True, n_fallen=4)


# ----------------------------------------------------------------------------- comparators of the tests
def test_expert_step_counts_label_one_expert_state_per_round_uniform_over_the_path():
    mdp = K.make_cliff_mdp(6, 3, 8, True)
    rng = np.random.default_rng(3)
    counts = K.expert_step_counts(mdp, 2000, 4, rng)
    assert counts.shape == (4, mdp.n_states, 3)
    np.testing.assert_array_equal(counts.sum((1, 2)), 2000)  # one label per round
    assert counts[:, mdp.n_path:].sum() == 0  # the expert never leaves the path
    wrong = np.ones((mdp.n_states, 3), bool)
    wrong[np.arange(mdp.n_states), mdp.expert] = False
    assert counts[:, wrong].sum() == 0  # every label is the expert's action
    # the expert's states are i.i.d. uniform over the path: each path state gets about 2000/6 labels
    per_state = counts.sum(-1)[:, : mdp.n_path]
    assert np.all(np.abs(per_state - 2000 / 6) < 6 * np.sqrt(2000 / 6))
    np.testing.assert_array_equal(K.expert_step_counts(mdp, 0, 2, rng), 0.0)
    with pytest.raises(ValueError):
        K.expert_step_counts(mdp, -1, 2, rng)


def test_expert_step_counts_and_bc_give_the_same_learner_law_on_the_cliff():
    # on the cliff the expert's states are i.i.d. uniform at every step, so one state per roll-out (the ablation)
    # and the first B states of roll-outs (BC) give learners of the same mean cost (up to Monte Carlo noise)
    mdp = K.make_cliff_mdp(10, 3, 12, True)
    rng = np.random.default_rng(4)
    a = K.expected_cost(mdp, K.majority_vote_policy(K.expert_step_counts(mdp, 15, 4000, rng)))
    b = K.expected_cost(mdp, K.majority_vote_policy(K.expert_state_counts(mdp, 15, 4000, rng)))
    assert abs(a.mean() - b.mean()) < 4 * np.sqrt(a.var() / 4000 + b.var() / 4000)


def test_uniform_state_counts_cover_every_state_with_the_expert_label():
    mdp = K.make_cliff_mdp(5, 3, 8, True)
    rng = np.random.default_rng(5)
    counts = K.uniform_state_counts(mdp, 3000, 3, rng)
    np.testing.assert_array_equal(counts.sum((1, 2)), 3000)
    per_state = counts.sum(-1)
    assert np.all(np.abs(per_state - 300) < 6 * np.sqrt(300))  # 10 states, uniform
    np.testing.assert_array_equal(counts.argmax(-1), np.tile(mdp.expert, (3, 1)))
    # with a label on every state the learner is the expert and costs nothing
    assert np.all(K.expected_cost(mdp, K.majority_vote_policy(counts)) == 0.0)


def test_pendulum_comparator_data(pendulum):
    env, _, _, Kg = pendulum
    rng = np.random.default_rng(10)
    X, y = K.pendulum_expert_step_data(env, Kg, 6, 3, 20, 0.1, 0.3, rng)
    assert X.shape == (3, 6, 4) and y.shape == (3, 6)
    np.testing.assert_allclose(y, -(X @ Kg[0]))
    assert np.all(np.abs(X[..., 1]) <= 0.2)  # the expert keeps the pole up
    assert len({tuple(np.round(x, 12)) for x in X.reshape(-1, 4)}) == 18  # independent roll-outs
    Xu, yu = K.pendulum_start_state_data(Kg, 50, 2, 0.1, rng)
    assert Xu.shape == (2, 50, 4) and np.all(np.abs(Xu) <= 0.1)
    np.testing.assert_allclose(yu, -(Xu @ Kg[0]))
    # spread-out states let the ridge learner recover the expert's gain
    np.testing.assert_allclose(K.ridge_fit(Xu, yu, 1e-9), np.tile(-Kg[0], (2, 1)), rtol=1e-4)
    with pytest.raises(ValueError):
        K.pendulum_start_state_data(Kg, 5, 2, 0.0, rng)


def test_keep_counts_returns_the_prefixes_of_the_same_run():
    mdp = K.make_cliff_mdp(6, 3, 8, True)
    c1, j1 = K.interactive_imitation(mdp, 9, 5, np.random.default_rng(2), checkpoints=[0, 4, 9])
    c2, j2, snaps = K.interactive_imitation(mdp, 9, 5, np.random.default_rng(2), checkpoints=[0, 4, 9], keep_counts=True)
    np.testing.assert_array_equal(c1, c2)
    np.testing.assert_array_equal(j1, j2)
    np.testing.assert_array_equal(snaps[-1], c1)
    np.testing.assert_array_equal(snaps[:, :].sum((2, 3)), np.array([[0] * 5, [4] * 5, [9] * 5]))
    np.testing.assert_allclose(K.expected_cost(mdp, K.majority_vote_policy(snaps[1])), j1[:, 1])
    with pytest.raises(ValueError, match="keep_counts"):
        K.interactive_imitation(mdp, 3, 2, np.random.default_rng(0), per_round="trajectory", keep_counts=True)
