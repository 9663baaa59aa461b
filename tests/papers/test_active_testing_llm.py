"""Unit tests of :mod:`repro.papers.active_testing_llm`, the kernels of ``notebooks/active-testing-llm.py``."""

import inspect
import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from repro.papers import active_testing_llm as K

GOLDEN = json.loads((Path(__file__).parent / "golden" / "active-testing-llm.json").read_text())


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/active_testing_llm.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def test_lure_estimate_signature_is_the_issues():
    assert list(inspect.signature(K.lure_estimate).parameters) == ["losses", "probs"]


# ----------------------------------------------------------------------------- golden: the official code
def case(name):
    return next(c for c in GOLDEN["cases"] if c["name"] == name)


def test_golden_lure_weights_and_estimate():
    inp = GOLDEN["inputs"]
    np.testing.assert_allclose(K.lure_weights(inp["q_at_pick"], inp["N"]), case("lure-weights")["output"],
                               rtol=0, atol=case("lure-weights")["tol"])
    assert K.lure_estimate(inp["losses"], inp["probs_in_draw_order"]) == pytest.approx(
        case("lure-estimate")["output"], abs=case("lure-estimate")["tol"])


def test_golden_acquisition_scores():
    inp = GOLDEN["inputs"]
    np.testing.assert_allclose(K.expected_loss_under_surrogate(inp["p_target"], inp["p_surr"]),
                               case("ce-acquisition")["output"], atol=case("ce-acquisition")["tol"])
    np.testing.assert_allclose(K.surrogate_entropy(inp["p_surr"]), case("entropy-acquisition")["output"],
                               atol=case("entropy-acquisition")["tol"])


# ----------------------------------------------------------------------------- LURE
def test_uniform_proposal_gives_unit_weights_and_the_sample_mean():
    N, M = 10, 4
    rng = np.random.default_rng(0)
    L = rng.random(M)
    np.testing.assert_allclose(K.lure_weights(1.0 / (N - np.arange(M)), N), 1.0, atol=1e-12)
    assert K.lure_estimate(L, np.ones(N)) == pytest.approx(L.mean(), abs=1e-12)
    # M = N: every weight 1 whatever q
    assert np.all(K.lure_weights(np.full(3, 0.5), 3) == 1)


@pytest.mark.parametrize("N,M", [(5, 2), (5, 3), (4, 4), (6, 1)])
def test_lure_is_exactly_unbiased_by_enumeration(N, M):
    rng = np.random.default_rng(N * 10 + M)
    q = rng.random(N) + 0.1
    q /= q.sum()
    L = rng.random(N) * 3
    expect = 0.0
    for seq in itertools.permutations(range(N), M):
        prob, left, qs = 1.0, 1.0, []
        for i in seq:
            qs.append(q[i] / left)
            prob *= q[i] / left
            left -= q[i]
        rest = [j for j in range(N) if j not in seq]
        probs = np.concatenate([q[list(seq)], q[rest]])
        est = K.lure_estimate(L[list(seq)], probs)
        assert est == pytest.approx(np.mean(K.lure_weights(qs, N) * L[list(seq)]), abs=1e-12)
        expect += prob * est
    assert expect == pytest.approx(L.mean(), abs=1e-12)


def test_lure_rejects_bad_input():
    with pytest.raises(ValueError, match="more losses"):
        K.lure_estimate(np.ones(5), np.ones(3))
    with pytest.raises(ValueError, match="empty"):
        K.lure_estimate([], np.ones(3))
    with pytest.raises(ValueError, match="> 0 for the acquired"):
        K.lure_estimate([1.0, 2.0], [0.5, 0.0, 0.5])
    with pytest.raises(ValueError, match="finite"):
        K.lure_estimate([np.nan], [1.0, 1.0])
    with pytest.raises(ValueError, match="\\(0, 1\\]"):
        K.lure_weights([0.0], 3)
    with pytest.raises(ValueError, match="M <= N"):
        K.lure_weights([0.5, 0.5], 1)


# ----------------------------------------------------------------------------- sampler, proposal, scores
def test_sampler_never_repeats_and_first_draw_follows_q():
    q = np.array([0.5, 0.3, 0.15, 0.05])
    rng = np.random.default_rng(1)
    firsts = np.zeros(4)
    for _ in range(20000):
        idx, qp = K.sample_sequential(q, 3, rng)
        assert len(set(idx.tolist())) == 3
        assert qp[0] == pytest.approx(q[idx[0]])
        assert qp[1] == pytest.approx(q[idx[1]] / (1 - q[idx[0]]))
        firsts[idx[0]] += 1
    np.testing.assert_allclose(firsts / firsts.sum(), q, atol=0.015)


def test_sampler_second_draw_matches_sequential_law():
    q = np.array([0.6, 0.3, 0.1])
    rng = np.random.default_rng(2)
    pairs = {}
    n = 30000
    for _ in range(n):
        idx, _ = K.sample_sequential(q, 2, rng)
        pairs[tuple(idx)] = pairs.get(tuple(idx), 0) + 1
    for (a, b), c in pairs.items():
        assert c / n == pytest.approx(q[a] * q[b] / (1 - q[a]), abs=0.012)
    with pytest.raises(ValueError, match="exceeds"):
        K.sample_sequential(np.array([1.0, 0.0]), 2, rng)
    with pytest.raises(ValueError, match="sum to 1"):
        K.sample_sequential(np.array([0.2, 0.2]), 1, rng)


def test_acquisition_probs_and_scores():
    q = K.acquisition_probs([0.0, 1.0, 3.0], mix_uniform=0.1)
    np.testing.assert_allclose(q, [0.1 / 3, 0.9 / 4 + 0.1 / 3, 0.9 * 3 / 4 + 0.1 / 3])
    assert q.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(K.acquisition_probs([0.0, 0.0], 0.5), [0.5, 0.5])
    with pytest.raises(ValueError, match="no proposal"):
        K.acquisition_probs([0.0, 0.0], 0.0)
    with pytest.raises(ValueError, match="mix_uniform"):
        K.acquisition_probs([1.0], 1.5)
    p = np.array([[0.9, 0.1], [0.5, 0.5]])
    # surrogate = target: CE acquisition equals the entropy
    np.testing.assert_allclose(K.expected_loss_under_surrogate(p, p), K.surrogate_entropy(p))
    assert K.surrogate_entropy(p)[1] == pytest.approx(np.log(2))
    # expected loss under the surrogate = Monte Carlo mean of the target's loss at surrogate-drawn labels
    rng = np.random.default_rng(3)
    ps = np.array([[0.2, 0.8], [0.7, 0.3]])
    ys = (rng.random((40000, 2)) < ps[:, 1]).astype(int)
    mc = np.array([K.cross_entropy_losses(p, y).tolist() for y in ys[:4000]]).mean(0)
    np.testing.assert_allclose(mc, K.expected_loss_under_surrogate(p, ps), rtol=0.05)
    with pytest.raises(ValueError, match="same shape"):
        K.expected_loss_under_surrogate(p, np.array([[1.0, 0.0, 0.0]]))
    with pytest.raises(ValueError, match="probability rows"):
        K.surrogate_entropy([[0.5, 0.6]])
    with pytest.raises(ValueError, match="labels"):
        K.cross_entropy_losses(p, [0, 2])


def test_bootstrap_std_shrinks_with_more_labels_and_is_zero_for_constant_terms():
    rng = np.random.default_rng(4)
    assert K.bootstrap_lure_std(np.ones(5), np.ones(20), 200, rng) == pytest.approx(0.0, abs=1e-12)
    L = rng.random(400)
    a = K.bootstrap_lure_std(L[:25], np.ones(1000), 2000, rng)
    b = K.bootstrap_lure_std(L[:400], np.ones(1000), 2000, rng)
    assert b < a
    # uniform proposal: the bootstrap std of a mean is close to std/sqrt(M)
    assert b == pytest.approx(L.std() / np.sqrt(400), rel=0.1)
    with pytest.raises(ValueError, match="B"):
        K.bootstrap_lure_std(L[:5], np.ones(10), 1, rng)


# ----------------------------------------------------------------------------- the official proposal (clip floor)
def test_golden_clipped_proposal():
    inp = GOLDEN["inputs"]
    s, clip = np.array(inp["clip_scores"]), inp["clip"]
    np.testing.assert_allclose(K.clipped_proposal(s, clip), case("clip-proposal-first-step")["output"],
                               rtol=0, atol=case("clip-proposal-first-step")["tol"])
    left, got = list(range(len(s))), []
    for pick in inp["clip_picks"]:
        got.append(K.clipped_proposal(s[left], clip)[left.index(pick)])
        left.remove(pick)
    np.testing.assert_allclose(got, case("clip-proposal-at-picks")["output"], rtol=0,
                               atol=case("clip-proposal-at-picks")["tol"])


def test_clipped_sampler_reports_the_law_it_draws_from():
    rng = np.random.default_rng(5)
    s = np.array([0.0, 0.1, 2.0, 0.5, 0.0, 1.0])
    idx, qp = K.sample_clipped_runs(s, 4, 0.1, 200, rng)
    for row, qrow in zip(idx, qp):
        assert len(set(row.tolist())) == 4
        left = list(range(len(s)))
        for pick, q in zip(row, qrow):
            assert q == pytest.approx(K.clipped_proposal(s[left], 0.1)[left.index(pick)], abs=1e-12)
            left.remove(pick)
    first = np.bincount(K.sample_clipped_runs(s, 1, 0.1, 40000, rng)[0][:, 0], minlength=len(s)) / 40000
    np.testing.assert_allclose(first, K.clipped_proposal(s, 0.1), atol=0.01)
    # clip = 0: zero-score points are never drawn
    assert not np.isin(K.sample_clipped_runs(s, 4, 0.0, 100, rng)[0], [0, 4]).any()
    with pytest.raises(ValueError, match="exceeds the 4 points"):
        K.sample_clipped_runs(s, 5, 0.0, 1, rng)
    with pytest.raises(ValueError, match="clip"):
        K.sample_clipped_runs(s, 2, 1.5, 1, rng)
    with pytest.raises(ValueError, match="positive sum"):
        K.sample_clipped_runs(np.zeros(3), 1, 0.1, 1, rng)
    with pytest.raises(ValueError, match="no proposal"):
        K.clipped_proposal([0.0, 0.0], 0.0)


@pytest.mark.parametrize("N,M", [(5, 2), (4, 3)])
def test_lure_is_exactly_unbiased_under_the_clipped_proposal(N, M):
    """LURE needs only the probability of each draw, so a proposal that changes with the step keeps it unbiased."""
    rng = np.random.default_rng(N + M)
    s = rng.random(N) ** 3
    s[0] = 0.0
    L = rng.random(N) * 2
    expect = 0.0
    for seq in itertools.permutations(range(N), M):
        left, prob, qs = list(range(N)), 1.0, []
        for i in seq:
            q = K.clipped_proposal(s[left], 0.1)[left.index(i)]
            qs.append(q)
            prob *= q
            left.remove(i)
        expect += prob * K.lure_estimates(L[list(seq)][None], np.array(qs)[None], N)[0]
    assert expect == pytest.approx(L.mean(), abs=1e-12)


# ----------------------------------------------------------------------------- batched forms
def test_batched_sampler_and_lure_match_the_single_run_forms():
    rng = np.random.default_rng(6)
    q = K.acquisition_probs(rng.random(8) ** 2, 0.1)
    L = rng.random(8)
    idx, qp = K.sample_sequential_runs(q, 3, 2000, rng)
    assert all(len(set(r.tolist())) == 3 for r in idx)
    np.testing.assert_allclose(qp[:, 0], q[idx[:, 0]])
    np.testing.assert_allclose(qp[:, 1], q[idx[:, 1]] / (1 - q[idx[:, 0]]))
    np.testing.assert_allclose(np.bincount(idx[:, 0], minlength=8) / 2000, q, atol=0.03)
    for r in range(5):
        rest = np.setdiff1d(np.arange(8), idx[r])
        probs = np.concatenate([q[idx[r]], q[rest]])
        assert K.lure_estimates(L[idx[r]][None], qp[r][None], 8)[0] == pytest.approx(
            K.lure_estimate(L[idx[r]], probs), abs=1e-12)
    np.testing.assert_allclose(K.lure_estimates(L[None], np.full((1, 8), 0.5), 8), [L.mean()])  # M = N
    with pytest.raises(ValueError, match="same shape"):
        K.lure_estimates(np.ones((2, 3)), np.ones((2, 2)), 5)
    with pytest.raises(ValueError, match="\\(0, 1\\]"):
        K.lure_estimates(np.ones((1, 2)), np.zeros((1, 2)), 5)
    with pytest.raises(ValueError, match="runs"):
        K.sample_sequential_runs(q, 2, 0, rng)


def test_bootstrap_and_plugin_standard_errors():
    L = np.random.default_rng(7).random(30)
    probs = np.ones(100)
    a = K.bootstrap_lure_std(L, probs, 500, np.random.default_rng(8))
    b = K.bootstrap_mean_std(K.lure_weights(1.0 / (100 - np.arange(30)), 100) * L, 500, np.random.default_rng(8))
    assert a == pytest.approx(b, abs=1e-12)
    assert K.plugin_mean_std(L) == pytest.approx(L.std(ddof=1) / np.sqrt(30))
    assert K.bootstrap_mean_std(L, 4000, np.random.default_rng(9)) == pytest.approx(L.std() / np.sqrt(30), rel=0.05)
    with pytest.raises(ValueError, match="at least 2"):
        K.plugin_mean_std([1.0])
    with pytest.raises(ValueError, match="empty"):
        K.bootstrap_mean_std([], 10, np.random.default_rng(0))


# ----------------------------------------------------------------------------- naive comparators
def test_uniform_estimates():
    rng = np.random.default_rng(10)
    L = rng.random(50)
    assert K.uniform_estimates(L, 50, 3, rng) == pytest.approx(np.full(3, L.mean()))
    est = K.uniform_estimates(L, 5, 20000, rng)
    assert est.mean() == pytest.approx(L.mean(), abs=0.005)
    # finite-population variance of a mean without replacement
    assert est.var() == pytest.approx(L.var(ddof=1) / 5 * (1 - 5 / 50), rel=0.05)
    extra = np.array([10.0, 20.0])
    assert K.uniform_estimates(L, 50, 1, rng, extra=extra)[0] == pytest.approx((L.sum() + 30) / 52)
    with pytest.raises(ValueError, match="exceeds"):
        K.uniform_estimates(L, 51, 1, rng)


def test_stratified_estimates_are_unbiased_and_stratify():
    rng = np.random.default_rng(11)
    L = rng.exponential(size=60)
    noise = rng.random(60)
    # every point labelled: the pool mean exactly, whatever the score
    assert K.stratified_estimates(noise, L, 60, 2, rng) == pytest.approx(np.full(2, L.mean()))
    est = K.stratified_estimates(noise, L, 10, 40000, rng)
    assert est.mean() == pytest.approx(L.mean(), abs=0.01)
    # strata on the loss itself: far less variance than uniform sampling
    assert K.stratified_estimates(L, L, 10, 4000, rng).var() < 0.3 * K.uniform_estimates(L, 10, 4000, rng).var()
    # allocation: uneven strata still get M labels in all; one label per stratum at least
    assert K.stratified_estimates(noise[:7], L[:7], 3, 1, rng, strata=3).shape == (1,)
    with pytest.raises(ValueError, match="M must be an integer >= 5"):
        K.stratified_estimates(noise, L, 3, 1, rng, strata=5)
    with pytest.raises(ValueError, match="same shape"):
        K.stratified_estimates(noise[:5], L, 10, 1, rng)


def test_score_allocated_stratification_is_unbiased_and_allocates_by_score():
    rng = np.random.default_rng(12)
    L = rng.exponential(size=100)
    s = L + rng.random(100)                       # a score that tracks the loss
    # every point labelled: the pool mean exactly
    assert K.stratified_estimates(s, L, 100, 2, rng, allocation="score", least=2) == pytest.approx(
        np.full(2, L.mean()))
    est = K.stratified_estimates(s, L, 20, 40000, rng, allocation="score", least=2)
    assert est.mean() == pytest.approx(L.mean(), abs=0.01)
    # the allocation: more labels in the high-score strata; exact variance of the stratified mean
    groups = np.array_split(np.argsort(s, kind="stable"), 5)
    w = np.array([len(g) * s[g].mean() for g in groups])
    share = 20 * w / w.sum()
    n = np.maximum(np.floor(share).astype(int), 2)
    while n.sum() < 20:
        n[np.argmax(share - n)] += 1
    while n.sum() > 20:
        n[np.argmax(np.where(n > 2, n - share, -np.inf))] -= 1
    assert n[-1] > n[0]
    var = sum((len(g) / 100) ** 2 * L[g].var(ddof=1) / nh * (1 - nh / len(g)) for g, nh in zip(groups, n))
    assert est.var() == pytest.approx(var, rel=0.05)
    # proportional allocation is unchanged by the new options
    a = K.stratified_estimates(s, L, 20, 50, np.random.default_rng(1))
    b = K.stratified_estimates(s, L, 20, 50, np.random.default_rng(1), allocation="proportional", least=1)
    np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="allocation"):
        K.stratified_estimates(s, L, 20, 1, rng, allocation="neyman")
    with pytest.raises(ValueError, match="M must be an integer >= 10"):
        K.stratified_estimates(s, L, 9, 1, rng, allocation="score", least=2)
    with pytest.raises(ValueError, match="positive sum"):
        K.stratified_estimates(-s, L, 20, 1, rng, allocation="score")


def test_batched_sampler_is_a_full_sort_of_the_gumbel_keys():
    """The partial sort returns what a full sort of the same keys returns (the draws are unchanged)."""
    q = K.acquisition_probs(np.random.default_rng(13).random(200) ** 3, 0.1)
    idx, qp = K.sample_sequential_runs(q, 7, 50, np.random.default_rng(14))
    keys = np.log(q)[None, :] + np.random.default_rng(14).gumbel(size=(50, 200))
    np.testing.assert_array_equal(idx, np.argsort(-keys, axis=1, kind="stable")[:, :7])
    full, _ = K.sample_sequential_runs(q, 200, 3, np.random.default_rng(15))
    assert all(sorted(r.tolist()) == list(range(200)) for r in full)


def test_random_labelling_mse_matches_enumeration():
    L = np.random.default_rng(16).random(7)
    for M in (1, 3, 7):
        exact = np.mean([(L[list(c)].mean() - L.mean()) ** 2 for c in itertools.combinations(range(7), M)])
        assert K.random_labelling_mse(L, M) == pytest.approx(exact, abs=1e-14)
    with pytest.raises(ValueError, match="exceeds"):
        K.random_labelling_mse(L, 8)
    with pytest.raises(ValueError, match="at least 2"):
        K.random_labelling_mse([1.0], 1)


def test_mse_ratio_and_its_standard_error():
    rng = np.random.default_rng(17)
    a, b = rng.normal(0, 1, 4000), rng.normal(0, 2, 4000)
    r, se = K.mse_ratio(a, 0.0, b)
    assert r == pytest.approx(np.mean(a**2) / np.mean(b**2))
    assert r == pytest.approx(0.25, abs=3 * se)
    # delta method against the spread of the ratio over independent batches
    ratios = [K.mse_ratio(rng.normal(0, 1, 300), 0.0, rng.normal(0, 2, 300))[0] for _ in range(2000)]
    _, se300 = K.mse_ratio(rng.normal(0, 1, 300), 0.0, rng.normal(0, 2, 300))
    assert np.std(ratios) == pytest.approx(se300, rel=0.2)
    r_exact, se_exact = K.mse_ratio(a, 0.0, 4.0)          # an exact reference: only the numerator's noise
    assert r_exact == pytest.approx(np.mean(a**2) / 4.0) and se_exact < se
    with pytest.raises(ValueError, match="positive"):
        K.mse_ratio(a, 0.0, 0.0)
    with pytest.raises(ValueError, match="at least 2"):
        K.mse_ratio([1.0], 0.0, 1.0)


def test_shared_stream_estimates_replay_the_single_run_forms_in_order():
    rng = np.random.default_rng(18)
    L = rng.exponential(size=30)
    Q = {"a": K.acquisition_probs(L, 0.1), "b": K.acquisition_probs(rng.random(30), 0.1)}
    random, lure, picks = K.shared_stream_estimates(L, Q, (3, 5), 4, np.random.default_rng(19), keep_picks_at=5)
    assert random.shape == (2, 4) and lure["a"].shape == (2, 4) and picks["b"].shape == (4, 5)
    r = np.random.default_rng(19)                         # the same stream, consumed in the documented order
    for b, M in enumerate((3, 5)):
        for i in range(4):
            assert random[b, i] == L[r.choice(30, M, replace=False)].mean()
            for k, q in Q.items():
                idx, _ = K.sample_sequential(q, M, r)
                rest = np.setdiff1d(np.arange(30), idx)
                assert lure[k][b, i] == K.lure_estimate(L[idx], np.concatenate([q[idx], q[rest]]))
                if M == 5:
                    np.testing.assert_array_equal(picks[k][i], idx)
    # unbiased: LURE's mean over many runs is the pool risk
    _, lure, _ = K.shared_stream_estimates(L, Q, (5,), 3000, np.random.default_rng(20))
    assert lure["a"].mean() == pytest.approx(L.mean(), rel=0.03)
    with pytest.raises(ValueError, match="not one of the budgets"):
        K.shared_stream_estimates(L, Q, (3,), 1, rng, keep_picks_at=5)
    with pytest.raises(ValueError, match="law over"):
        K.shared_stream_estimates(L, {"c": np.ones(30)}, (3,), 1, rng)


def test_shared_stream_bootstrap_replays_the_single_run_forms_in_order():
    rng = np.random.default_rng(21)
    L = rng.exponential(size=40)
    q = K.acquisition_probs(L, 0.1)
    idx, qa, boot, plain = K.shared_stream_bootstrap(L, q, 6, 3, 50, np.random.default_rng(22))
    r = np.random.default_rng(22)
    for i in range(3):
        j, _ = K.sample_sequential(q, 6, r)
        rest = np.setdiff1d(np.arange(40), j)
        probs = np.concatenate([q[j], q[rest]])
        np.testing.assert_array_equal(idx[i], j)
        assert np.mean(K.lure_weights(qa[i], 40) * L[j]) == K.lure_estimate(L[j], probs)
        assert boot[i] == K.bootstrap_lure_std(L[j], probs, 50, r)
        assert plain[i] == K.bootstrap_mean_std(L[j], 50, r)
    with pytest.raises(ValueError, match="one entry per pool point"):
        K.shared_stream_bootstrap(L, q[:10], 6, 3, 50, rng)
