"""Unit tests of :mod:`repro.papers.r2ec_reasoning_recommender`, the kernels of ``notebooks/r2ec-reasoning-recommender.py``."""

import inspect

from repro.papers import r2ec_reasoning_recommender as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/r2ec_reasoning_recommender.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"






import json
from pathlib import Path

import numpy as np
import pytest
import torch

GOLDEN = json.loads((Path(__file__).resolve().parent / "golden" / "r2ec-reasoning-recommender.json").read_text())


def test_ndcg_closed_forms():
    s = torch.tensor([[3.0, 2.0, 1.0, 0.0], [3.0, 2.0, 1.0, 0.0]])
    assert K.ndcg_at_k(s, [0, 0], 10) == pytest.approx(1.0)
    assert K.ndcg_at_k(s, [2, 2], 10) == pytest.approx(0.5)          # rank 3: 1/log2(4)
    assert K.ndcg_at_k(s, [2, 2], 2) == 0.0                          # outside the cutoff
    assert K.ndcg_at_k(s, [0, 2], 10) == pytest.approx(0.75)         # mean over users
    assert K.recall_at_k(s, [0, 3], 3) == pytest.approx(0.5)


def test_ndcg_matches_brute_force_sort():
    rng = np.random.default_rng(1)
    s = rng.normal(size=(20, 30))
    rel = rng.integers(0, 30, 20)
    order = np.argsort(-s, axis=1)
    ranks = np.array([np.where(order[u] == rel[u])[0][0] for u in range(20)])
    want = np.where(ranks < 5, 1 / np.log2(ranks + 2), 0).mean()
    assert K.ndcg_at_k(s, rel, 5) == pytest.approx(want)


@pytest.mark.parametrize("case", [c for c in GOLDEN["cases"] if c["name"].startswith(("ndcg", "hit"))],
                         ids=lambda c: c["name"])
def test_metrics_against_golden_official_code(case):
    f = K.ndcg_at_k if case["name"].startswith("ndcg") else K.recall_at_k
    got = f(np.array(case["input"]["scores"], dtype=np.float32), case["input"]["labels"], case["input"]["k"])
    assert got == pytest.approx(case["output"], abs=case["tol"])


@pytest.mark.parametrize("case", [c for c in GOLDEN["cases"] if c["name"].startswith("advantages")],
                         ids=lambda c: c["name"])
def test_fused_reward_and_advantages_against_golden_official_code(case):
    inp = case["input"]
    sim = torch.tensor(inp["similarity"], dtype=torch.float32)
    r = K.fused_reward(sim, torch.tensor(inp["seq_labels"]), inp["reward_softmax_weight"], inp["reward_ndcg_k"])
    adv = K.group_advantages(r)
    np.testing.assert_allclose(adv.numpy(), np.array(case["output"]["advantages"]), atol=case["tol"])
    assert K.best_of_group(adv).tolist() == case["output"]["relabel_mask"]


def test_fused_reward_limits():
    rng = np.random.default_rng(2)
    s = torch.tensor(rng.normal(size=(3, 4, 12)))
    t = torch.tensor([0, 5, 11])
    disc = K.fused_reward(s, t, 0.0, k=12)
    rank = K.target_rank(s, t.view(-1, 1).expand(-1, 4)).double()
    torch.testing.assert_close(disc, 1 / torch.log2(rank + 2))
    cont = K.fused_reward(s, t, 1.0)
    torch.testing.assert_close(cont, s.softmax(-1)[torch.arange(3)[:, None], torch.arange(4)[None], t[:, None]])


def test_group_advantages_zero_mean_unit_std():
    r = torch.tensor(np.random.default_rng(3).random((5, 4)))
    a = K.group_advantages(r)
    torch.testing.assert_close(a.mean(1), torch.zeros(5, dtype=a.dtype), atol=1e-12, rtol=0)
    torch.testing.assert_close(a.std(1), torch.ones(5, dtype=a.dtype), atol=1e-6, rtol=0)


def test_policy_gradient_step_raises_logprob_of_advantaged_trajectory():
    logits = torch.zeros(1, 2, requires_grad=True)
    logp = logits.log_softmax(-1)[:, [0, 1]]
    adv = torch.tensor([[1.0, -1.0]])
    rec = torch.zeros(1, 2, 3, requires_grad=True)
    K.recpo_loss(logp, adv, rec, torch.tensor([2])).backward()
    with torch.no_grad():
        new = (logits - 0.1 * logits.grad).log_softmax(-1)
        new_rec = (rec - 0.1 * rec.grad).log_softmax(-1)
    assert new[0, 0] > np.log(0.5)
    assert new_rec[0, 0, 2] > np.log(1 / 3)      # best trajectory's target item gains likelihood
    assert torch.allclose(rec.grad[0, 1], torch.zeros(3))  # the other trajectory's rec_head is untouched


def test_data_and_models_shapes():
    d = K.make_seqrec_data(50, seed=0)
    assert d["hist"].shape == (50, 10) and d["target"].shape == (50,)
    assert (d["target"] // 20 == d["intent"]).all()
    assert torch.equal(K.make_seqrec_data(50, seed=0)["hist"], d["hist"])
    m = K.DualHeadRec(d["n_items"])
    assert m(d["hist"]).shape == (50, d["n_items"])
    assert K.PlainRec(d["n_items"], hidden=8)(d["hist"]).shape == (50, d["n_items"])
    assert K.popularity_scores(d["target"], 4, d["n_items"]).shape == (4, d["n_items"])


def test_training_improves_over_init():
    tr, te = K.make_seqrec_data(300, seed=1), K.make_seqrec_data(200, seed=2)
    torch.manual_seed(0)
    m = K.PlainRec(tr["n_items"])
    before = K.ndcg_at_k(m(te["hist"]).detach(), te["target"], 10)
    K.train_plain(m, tr["hist"], tr["target"], 60)
    assert K.ndcg_at_k(m(te["hist"]).detach(), te["target"], 10) > before + 0.02
    d = K.DualHeadRec(tr["n_items"])
    K.train_recpo(d, tr["hist"], tr["target"], 5)          # runs, stays finite
    assert torch.isfinite(d(te["hist"])).all()


def test_bad_input():
    with pytest.raises(ValueError, match="users, items"):
        K.ndcg_at_k(np.zeros(5), [0], 3)
    with pytest.raises(ValueError, match="relevant indices"):
        K.ndcg_at_k(np.zeros((2, 5)), [0, 7], 3)
    with pytest.raises(ValueError, match="disagree"):
        K.ndcg_at_k(np.zeros((2, 5)), [0], 3)
    with pytest.raises(ValueError, match="k must"):
        K.ndcg_at_k(np.zeros((2, 5)), [0, 1], 0)
    with pytest.raises(ValueError, match="NaN"):
        K.ndcg_at_k(np.full((1, 3), np.nan), [0], 1)
    with pytest.raises(ValueError, match="sim_weight"):
        K.fused_reward(torch.zeros(1, 2, 3), torch.tensor([0]), 1.5)
    with pytest.raises(ValueError, match="G >= 2"):
        K.group_advantages(torch.zeros(3, 1))


def test_best_of_group_topk():
    a = torch.tensor([[0.1, 0.9, -0.5, 0.3], [2.0, -1.0, 0.0, 1.0]])
    assert K.best_of_group(a).tolist() == [[False, True, False, False], [True, False, False, False]]
    assert K.best_of_group(a, 2).tolist() == [[False, True, False, True], [True, False, False, True]]
    assert K.best_of_group(a, 9).all()                     # k capped at G, as in the official code
    with pytest.raises(ValueError, match="k must"):
        K.best_of_group(a, 0)


def _broadcast_loss_brute_force(logp, adv, rec_logits, target, topk):
    """The official mini-batch arithmetic written out: one user's group per mini-batch, advantages of shape
    (m, 1, 1) times ratios of shape (m, 1), i.e. a sum over all (i, j) pairs of trajectories."""
    total = 0.0
    B, G = adv.shape
    mask = K.best_of_group(adv, topk).double()
    logp_item = rec_logits.log_softmax(-1)[torch.arange(B)[:, None], torch.arange(G)[None], target[:, None]]
    for b in range(B):
        tok = sum(-adv[b, i] * logp[b, j] for i in range(G) for j in range(G)) / G / G   # / mask sum / m
        item = sum(-adv[b, i] * mask[b, i] * logp_item[b, j] for i in range(G) for j in range(G)) / (G * G)
        total = total + tok + item
    return total / B


@pytest.mark.parametrize("topk", [1, 2])
def test_as_executed_loss_matches_brute_force_broadcast(topk):
    rng = np.random.default_rng(4)
    logp = torch.tensor(rng.normal(size=(3, 4)), requires_grad=True)
    adv = K.group_advantages(torch.tensor(rng.random((3, 4))))
    rec = torch.tensor(rng.normal(size=(3, 4, 7)), requires_grad=True)
    t = torch.tensor([0, 3, 6])
    got = K.recpo_loss_as_executed(logp, adv, rec, t, relabel_topk=topk)
    want = _broadcast_loss_brute_force(logp, adv, rec, t, topk)
    torch.testing.assert_close(got, want)
    got.backward()
    # group-normalised advantages have zero mean: the reasoning tokens receive no gradient
    torch.testing.assert_close(logp.grad, torch.zeros_like(logp), atol=1e-12, rtol=0)
    # every trajectory's rec_head gets the same (positive) weight, not only the best one
    assert (rec.grad[:, :, :].abs().sum(-1) > 0).all()


def test_recpo_options_run_and_validate():
    tr = K.make_seqrec_data(100, seed=1)
    torch.manual_seed(0)
    d = K.DualHeadRec(tr["n_items"])
    K.train_recpo(d, tr["hist"], tr["target"], 3, batch=32, temperature=2.0, relabel_topk=2,
                  negatives="in-batch", loss="as-executed")
    assert torch.isfinite(d(tr["hist"])).all()
    with pytest.raises(ValueError, match="temperature"):
        K.train_recpo(d, tr["hist"], tr["target"], 1, temperature=0.0)
    with pytest.raises(ValueError, match="negatives"):
        K.train_recpo(d, tr["hist"], tr["target"], 1, loss="clipped")
