"""Unit tests of :mod:`repro.papers.bisecle_video_continual`, the kernels of ``notebooks/bisecle-video-continual.py``."""

import inspect
import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from repro.continual import forgetting
from repro.papers import bisecle_video_continual as K
from repro.textenc import check_embedding_cache, read_embedding_cache

GOLDEN = Path(__file__).resolve().parent / "golden" / "bisecle-video-continual.json"


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/bisecle_video_continual.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# ---------------------------------------------------------------- texts and the MiniLM cache -----------------

def test_cache_holds_exactly_the_page_texts():
    stored = read_embedding_cache(K.CACHE)
    assert set(stored) == set(K.question_texts() + K.answer_texts())
    q, a = K.text_embeddings()
    assert q.shape == (40, 384) and a.shape == (16, 384)
    np.testing.assert_allclose(np.linalg.norm(np.vstack([q, a]), axis=1), 1.0, atol=1e-5)


def test_cache_matches_the_live_minilm_model():
    assert check_embedding_cache(K.CACHE) < 1e-4


def test_question_index_names_the_right_text():
    texts = K.question_texts()
    attrs = np.array([[2, 1, 0, 3], [2, 1, 0, 3], [2, 1, 0, 3], [2, 1, 0, 3]])
    idx = K.question_index(np.arange(4), attrs)
    assert [texts[i] for i in idx] == ["What colour is the sphere?", "What shape is the blue object?",
                                       "Which way does the blue sphere move?", "How big is the blue sphere?"]
    with pytest.raises(ValueError, match="0..3"):
        K.question_index(np.array([4]), attrs[:1])
    with pytest.raises(ValueError, match="shape"):
        K.question_index(np.arange(4), attrs[:, :3])


def test_synthetic_videos_static_and_moving_parts():
    rng = np.random.default_rng(0)
    w = K.make_world(rng, dim=16, noise=0.0)
    d = K.synth_video_qa(w, 5, rng, n_frames=6)
    assert d["x"].shape == (20, 6, 16) and d["x"].dtype == np.float32
    np.testing.assert_array_equal(d["a"], 4 * d["task"] + d["label"])
    np.testing.assert_array_equal(d["label"], d["attrs"][np.arange(20), d["task"]])
    # without noise the frames move on a straight line: equal steps, and the mean frame is the static part
    steps = np.diff(d["x"], axis=1)
    np.testing.assert_allclose(steps, steps[:, :1].repeat(5, axis=1), atol=1e-6)
    static = w.colour[d["attrs"][:, 0]] + w.shape[d["attrs"][:, 1]] + w.size[d["attrs"][:, 3]]
    np.testing.assert_allclose(d["x"].mean(1), static, atol=1e-6)
    with pytest.raises(ValueError, match="n_per_task"):
        K.synth_video_qa(w, 0, rng)


# ---------------------------------------------------------------- losses -------------------------------------

def test_prompt_attention_is_a_convex_combination_of_rows():
    g = torch.Generator().manual_seed(1)
    q, P = torch.randn(2, 5, 4, generator=g), torch.randn(2, 3, 4, generator=g)
    alpha, w = K.prompt_attention(q, P)
    torch.testing.assert_close(alpha.sum(-1), torch.ones(2, 5))
    torch.testing.assert_close(w[0, 1], (torch.softmax(P[0] @ q[0, 1], 0)[:, None] * P[0]).sum(0))
    with pytest.raises(ValueError, match="agree"):
        K.prompt_attention(q, P[:, :, :3])


def test_tqcp_loss_brute_force_and_log_b_floor():
    g = torch.Generator().manual_seed(2)
    B, D, L, N = 3, 4, 5, 2
    q, P = torch.randn(1, B, D, generator=g), torch.randn(1, L, D, generator=g)
    pos, neg = torch.randn(1, B, D, generator=g), torch.randn(1, B, N, D, generator=g)
    loss = K.tqcp_loss(q, P, pos, neg, neg_temp=0.5)
    _, p = K.prompt_attention(q, P)
    cols = torch.cat([pos[0], neg[0].reshape(-1, D)])
    brute = np.mean([-(p[0, b] @ cols[b] / 0.5 - torch.logsumexp(cols @ p[0, b] / 0.5, 0)).item() for b in range(B)])
    assert loss.shape == (1,) and abs(loss.item() - brute) < 1e-5
    # no negatives and one positive vector for the whole batch (one task): the loss is exactly log B
    same = pos[:, :1].expand(1, B, D)
    assert abs(K.tqcp_loss(q, P, same, neg[:, :, :0], 0.1).item() - math.log(B)) < 1e-6
    with pytest.raises(ValueError, match="neg_types"):
        K.tqcp_loss(q, P, pos, neg[0], 0.1)
    with pytest.raises(ValueError, match="neg_temp"):
        K.tqcp_loss(q, P, pos, neg, 0.0)


def test_tqcp_loss_matches_the_official_code():
    gold = json.loads(GOLDEN.read_text())
    assert gold["repository"] == "cruiseresearchgroup/Bisecle"
    for case in gold["cases"]:
        i = case["input"]
        B, Ls, D, L, N = i["B"], i["Ls"], i["D"], i["L"], i["N"]
        g = torch.Generator().manual_seed(0)
        q, P, E = torch.randn(B, Ls, D, generator=g), torch.randn(L, D, generator=g), torch.randn(5, D, generator=g)
        w = torch.rand(B, generator=g)[None] if i["type_weight"] else None
        ours = K.tqcp_loss(q.mean(1)[None], P[None], E[4].expand(B, D)[None], E[:N].expand(B, N, D)[None], 0.1, w)
        assert abs(ours.item() - case["output"]) <= case["tol"], case["name"]


def _toy_batch(G=2, B=5, T=4, dx=6, seed=0):
    cfg = K.Config(dim=8, hidden=16, n_prompts=3)
    g = torch.Generator().manual_seed(seed)
    train, frozen = K.init_models(G, dx, 384, cfg, g)
    x = torch.randn(G, B, T, dx, generator=g)
    q_tok, a_tok = torch.randn(G, B, 8, generator=g), torch.randn(G, B, 8, generator=g)
    return cfg, train, frozen, x, q_tok, a_tok, g


def test_multi_directional_losses_are_cross_entropies():
    cfg, train, frozen, x, q_tok, a_tok, g = _toy_batch()
    feat = K.forward_features(x, q_tok, train)
    assert feat["tokens"].shape == (2, 5, 4, 8) and feat["video"].shape == (2, 5, 8)
    torch.testing.assert_close(feat["prompt"], torch.zeros(2, 5, 8))  # zero-initialised gate: prompts start silent
    options, qtab = torch.randn(2, 5, 4, 8, generator=g), torch.randn(2, 7, 8, generator=g)
    label, q_idx = torch.randint(0, 4, (2, 5), generator=g), torch.randint(0, 7, (2, 5), generator=g)
    out = K.multi_directional_losses(feat, q_tok, a_tok, options, label, q_idx, qtab, frozen, cfg)
    assert set(out) == {"answer", "question", "video"} and all(v.shape == (2,) for v in out.values())
    la = F.cross_entropy(K.answer_logits(feat, q_tok, options, frozen, cfg.tau_answer)[1], label[1])
    assert abs(out["answer"][1].item() - la.item()) < 1e-5
    vl = K.video_logits(feat, q_tok, a_tok, frozen, cfg.tau_video)
    assert vl.shape == (2, 5, 4, 4)
    assert abs(out["video"][0].item() - F.cross_entropy(vl[0].reshape(-1, 4), torch.arange(4).repeat(5)).item()) < 1e-5


def test_models_on_the_leading_axis_are_independent():
    cfg, train, frozen, x, q_tok, a_tok, g = _toy_batch()
    train["gate"] = torch.ones(2, 1)
    full = K.answer_logits(K.forward_features(x, q_tok, train), q_tok, torch.ones(2, 5, 4, 8), frozen, 0.1)
    one = K.answer_logits(K.forward_features(x[1:], q_tok[1:], {k: v[1:] for k, v in train.items()}), q_tok[1:],
                          torch.ones(1, 5, 4, 8), {k: v[1:] for k, v in frozen.items()}, 0.1)
    torch.testing.assert_close(full[1:], one)


def test_prompt_selection_exact_when_weighted_prompts_equal_type_embeddings():
    # one-hot prompts with a sharp query: the weighted prompt is the row the query points at
    P = 50 * torch.eye(4)[None]
    q = torch.eye(4)[None]  # sample k attends to row k
    E = torch.eye(4)[None]
    assert K.prompt_selection_accuracy(q, P, E, torch.arange(4), 4).item() == 1.0
    assert K.prompt_selection_accuracy(q, P, E, torch.tensor([1, 0, 3, 2]), 4).item() == 0.0
    with pytest.raises(ValueError, match="n_seen"):
        K.prompt_selection_accuracy(q, P, E, torch.arange(4), 0)


def test_l2p_picks_the_nearest_key():
    train = dict(keys=torch.eye(3)[None], P=torch.arange(9.0).reshape(1, 3, 3), gate=torch.full((1, 1), 10.0))
    q = torch.tensor([[[0.1, 0.0, 2.0], [3.0, 0.2, 0.0]]])
    prompt, idx, pull = K.l2p_prompt(q, train)
    assert idx.tolist() == [[2, 0]]
    torch.testing.assert_close(prompt[0, 1], torch.tanh(torch.tensor(10.0)) * torch.tensor([0.0, 1.0, 2.0]))
    assert 0 < pull.item() < 0.01


# ---------------------------------------------------------------- the stream ---------------------------------

@pytest.fixture(scope="module")
def tiny_run():
    q, a = K.text_embeddings()
    st = K.make_stream([0, 1], 40, 20, q, a)
    cfg = K.Config(steps=6, batch=8, dim=8, hidden=16)
    return st, cfg, K.continual_train(st, ["adapter", "bisecle"], cfg)


def test_continual_train_shapes_and_frozen_backbone(tiny_run, monkeypatch):
    st, cfg, out = tiny_run
    assert out["acc"].shape == (2, 2, 4, 4) and out["selection"].shape == (2, 2, 4)
    assert np.isnan(out["acc"][:, :, 0, 1:]).all() and np.isfinite(out["acc"][:, :, 3]).all()
    assert np.isfinite(forgetting(out["acc"][0, 0]))
    # the backbone never changes: only the adapter tensors are handed to the optimiser
    seen = {}
    orig = K.AdamW.__init__

    def spy(self, params, **kw):
        seen["n"] = [tuple(p.shape) for p in params]
        orig(self, params, **kw)
    monkeypatch.setattr(K.AdamW, "__init__", spy)
    K.continual_train(st, ["adapter"], cfg)
    assert sorted(seen["n"]) == sorted([(2, cfg.dim, 32), (2, 8, cfg.dim), (2, cfg.n_prompts, cfg.dim), (2, 1),
                                        (2, 4, cfg.dim), (2, cfg.n_prompts, cfg.dim)])


def test_each_auxiliary_loss_switches_off(tiny_run):
    # "adapter" trained alone and trained beside "bisecle" in one batched call give the same models
    st, cfg, out = tiny_run
    alone = K.continual_train(st, ["adapter"], cfg)
    np.testing.assert_allclose(alone["acc"][0], out["acc"][0], atol=1e-6, equal_nan=True)
    assert not np.allclose(np.nan_to_num(out["acc"][0]), np.nan_to_num(out["acc"][1]))


def test_continual_train_rejects_unknown_methods(tiny_run):
    st, cfg, _ = tiny_run
    with pytest.raises(ValueError, match="unknown method"):
        K.continual_train(st, ["adapter", "finetune"], cfg)
    with pytest.raises(ValueError, match="unknown method"):
        K.continual_train(st, [], cfg)


def test_baselines_do_not_depend_on_their_companions(tiny_run):
    # each model's result is the same trained alone or beside others (losses only where used, own generators)
    st, cfg, out = tiny_run
    mixed = K.continual_train(st, ["l2p", "adapter", "replay", "ewc", "bisecle"], cfg)
    for i, m in enumerate(["l2p", "replay", "ewc"]):
        alone = K.continual_train(st, [m], cfg)
        np.testing.assert_allclose(alone["acc"][0], mixed["acc"][[0, 2, 3][i]], atol=1e-6, equal_nan=True)
        np.testing.assert_allclose(alone["selection"][0], mixed["selection"][[0, 2, 3][i]], atol=1e-6)
    np.testing.assert_allclose(mixed["acc"][1], out["acc"][0], atol=1e-6, equal_nan=True)
    np.testing.assert_allclose(mixed["acc"][4], out["acc"][1], atol=1e-6, equal_nan=True)


def test_replay_and_ewc_are_the_adapter_until_a_task_is_finished(tiny_run):
    st, cfg, out = tiny_run
    res = K.continual_train(st, ["adapter", "replay", "ewc"], cfg)
    np.testing.assert_array_equal(res["acc"][1, :, 0], res["acc"][0, :, 0])  # first task: empty buffer, no Fisher
    np.testing.assert_array_equal(res["acc"][2, :, 0], res["acc"][0, :, 0])
    assert not np.allclose(np.nan_to_num(res["acc"][1]), np.nan_to_num(res["acc"][0]))
    # EWC with no penalty is the adapter throughout; a huge penalty freezes the adapter after the first task
    from dataclasses import replace
    free = K.continual_train(st, ["adapter", "ewc"], replace(cfg, ewc_lambda=0.0))
    np.testing.assert_allclose(free["acc"][1], free["acc"][0], atol=1e-6, equal_nan=True)
    stiff = K.continual_train(st, ["adapter", "ewc"], replace(cfg, ewc_lambda=1e12))
    assert forgetting(stiff["acc"][1, 0]) <= forgetting(stiff["acc"][0, 0])


def test_official_schedule_warms_up_then_decays_to_zero():
    c = K.Config(lr=0.02)
    assert K.lr_at(7, 10, c) == 0.02
    o = K.Config(lr=0.02, schedule="warmup-cosine", warmup_frac=0.4)
    assert K.lr_at(0, 100, o) == 0.0
    assert abs(K.lr_at(20, 100, o) - 0.01) < 1e-12        # half-way through the warm-up
    assert abs(K.lr_at(40, 100, o) - 0.02) < 1e-12        # peak at the end of the warm-up
    assert abs(K.lr_at(70, 100, o) - 0.01) < 1e-12        # half-way down the cosine
    assert K.lr_at(99, 100, o) < 1e-4
    with pytest.raises(ValueError, match="schedule"):
        K.lr_at(0, 10, K.Config(schedule="step"))
    with pytest.raises(ValueError, match="n_steps"):
        K.lr_at(0, 0, c)
    # the official schedule changes the run; the constant one is the default
    q, a = K.text_embeddings()
    st = K.make_stream([0], 16, 8, q, a)
    small = K.Config(steps=4, batch=4, dim=8, hidden=16)
    r1 = K.continual_train(st, ["adapter"], small)
    r2 = K.continual_train(st, ["adapter"], K.Config(steps=4, batch=4, dim=8, hidden=16, schedule="warmup-cosine"))
    assert not np.array_equal(np.nan_to_num(r1["acc"]), np.nan_to_num(r2["acc"]))


# ---------------------------------------------------------------- naive baselines -----------------------------

def test_key_selection_accuracy_maps_keys_to_the_tasks_that_chose_them():
    train_keys = torch.tensor([[0, 0, 1, 2, 2, 2]])
    train_task = torch.tensor([0, 0, 1, 1, 1, 0])
    # key 0 -> task 0, key 1 -> task 1, key 2 -> task 1 (2 of 3), key 3 never chosen -> no task
    test_keys = torch.tensor([[0, 1, 2, 2, 3]])
    test_task = torch.tensor([0, 1, 1, 0, 0])
    acc = K.key_selection_accuracy(train_keys, train_task, test_keys, test_task, n_keys=4, n_seen=2)
    assert acc.shape == (1,) and abs(acc.item() - 3 / 5) < 1e-7
    with pytest.raises(ValueError, match="n_seen"):
        K.key_selection_accuracy(train_keys, train_task + 2, test_keys, test_task, 4, 2)


def test_nearest_centroid_task_accuracy():
    tr = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9]])
    assert K.nearest_centroid_task_accuracy(tr, np.array([0, 0, 1, 1]), np.array([[2.0, 0.1], [0.0, 3.0]]),
                                            np.array([0, 1])) == 1.0
    assert K.nearest_centroid_task_accuracy(tr, np.array([0, 0, 1, 1]), np.array([[2.0, 0.1]]), np.array([1])) == 0.0
    with pytest.raises(ValueError, match="same d"):
        K.nearest_centroid_task_accuracy(tr, np.array([0, 0, 1, 1]), np.ones((1, 3)), np.array([0]))


def test_pooled_frames_mean_and_ramp():
    x = np.arange(4.0)[:, None] * np.ones((1, 3))  # frame t = t in every feature
    f = K.pooled_frames(x[None])
    assert f.shape == (1, 6)
    np.testing.assert_allclose(f[0, :3], 1.5)
    np.testing.assert_allclose(f[0, 3:], np.dot(np.linspace(-1, 1, 4), np.arange(4.0)) / 4)
    with pytest.raises(ValueError, match="frames"):
        K.pooled_frames(np.ones((1, 3)))


def test_ridge_probe_matches_scikit_learn():
    from sklearn.linear_model import RidgeClassifier

    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((2, 60, 5)), rng.integers(0, 3, (2, 60))
    W = K.ridge_probe(X, y, 3, alpha=0.5)
    for k in range(2):
        m = RidgeClassifier(alpha=0.5).fit(X[k], y[k])
        np.testing.assert_allclose(W[k, :-1], m.coef_.T, atol=1e-10)
        np.testing.assert_allclose(W[k, -1], m.intercept_, atol=1e-10)
    with pytest.raises(ValueError, match="X must be"):
        K.ridge_probe(X[0], y[0], 3)
    with pytest.raises(ValueError, match="n_classes"):
        K.ridge_probe(X, y + 1, 3)


def test_per_task_probe_never_forgets():
    q, a = K.text_embeddings()
    st = K.make_stream([0, 1], 30, 20, q, a)
    A = K.per_task_probe(st)
    assert A.shape == (2, 4, 4) and np.isnan(A[:, 0, 1:]).all()
    for s in range(2):
        assert forgetting(A[s]) == 0.0  # each task's probe is fitted once and never touched
        assert (A[s][np.tril_indices(4)] > 0.25).all()  # well above chance on this easy stream


def test_q_tokens_weights_the_question_in_q_repr():
    cfg, train, frozen, x, q_tok, a_tok, g = _toy_batch()
    f1, f5 = K.forward_features(x, q_tok, train), K.forward_features(x, q_tok, train, q_tokens=5)
    T = x.shape[2]
    torch.testing.assert_close(f5["q_repr"] * (T + 5) - 5 * q_tok, f1["q_repr"] * (T + 1) - q_tok)
    torch.testing.assert_close(f5["video"], f1["video"])
    with pytest.raises(ValueError, match="q_tokens"):
        K.forward_features(x, q_tok, train, q_tokens=0)


# ---------------------------------------------------------------- the nulls and the tuned EWC baselines -------

def test_shuffled_prompt_types_are_lp_on_the_first_task_and_differ_after(tiny_run):
    # on the first task only one type is seen, so the null of L_P is L_P; later its positives are random types
    st, cfg, out = tiny_run
    res = K.continual_train(st, ["lp-only", "lp-shuffled"], cfg)
    np.testing.assert_allclose(res["acc"][1, :, 0], res["acc"][0, :, 0], atol=1e-6)
    np.testing.assert_allclose(res["selection"][1, :, 0], res["selection"][0, :, 0], atol=1e-6)
    assert not np.allclose(np.nan_to_num(res["acc"][1]), np.nan_to_num(res["acc"][0]))
    # its own generator: the same alone as beside the others
    alone = K.continual_train(st, ["lp-shuffled"], cfg)
    np.testing.assert_allclose(alone["acc"][0], res["acc"][1], atol=1e-6, equal_nan=True)
    # and adding it leaves the others as they were
    np.testing.assert_allclose(K.continual_train(st, ["lp-only"], cfg)["acc"][0], res["acc"][0], atol=1e-6,
                               equal_nan=True)


def test_null_question_targets_are_another_samples_question(tiny_run, monkeypatch):
    # the null of L_Q: each target is the question of another sample of the same batch, a fresh permutation per step
    st, cfg, out = tiny_run
    seen = []
    orig = K._question_loss

    def spy(feat, a_tok, q_idx, *args, **kw):
        seen.append(q_idx.clone())
        return orig(feat, a_tok, q_idx, *args, **kw)
    monkeypatch.setattr(K, "_question_loss", spy)
    res = K.continual_train(st, ["lq-only", "lq-shuffled"], cfg)
    S = st.train["task"].shape[0]
    perms = []
    for t in seen:  # rows: lq-only's seeds, then lq-shuffled's
        true, null = t[:S], t[S:]
        for s in range(S):
            assert sorted(true[s].tolist()) == sorted(null[s].tolist())  # the batch's own questions, permuted
        perms.append(not torch.equal(true, null))
    assert all(perms) and len(seen) == 4 * cfg.steps
    monkeypatch.setattr(K, "_question_loss", orig)
    # its own generator: the same alone as beside the others, and it leaves L_Q only as it was
    alone = K.continual_train(st, ["lq-shuffled"], cfg)
    np.testing.assert_allclose(alone["acc"][0], res["acc"][1], atol=1e-6, equal_nan=True)
    np.testing.assert_allclose(K.continual_train(st, ["lq-only"], cfg)["acc"][0], res["acc"][0], atol=1e-6,
                               equal_nan=True)


def test_acc_all_keeps_the_untrained_tasks(tiny_run):
    st, cfg, out = tiny_run
    assert np.isfinite(out["acc_all"]).all()
    low = np.tril(np.ones((4, 4), dtype=bool))
    np.testing.assert_array_equal(out["acc_all"][..., low], out["acc"][..., low])


def test_ewc_penalty_names():
    cfg = K.Config(ewc_lambda=123.0, ewc_lambda_fgt=456.0)
    assert K.ewc_penalty("ewc", cfg) == 123.0 and K.ewc_penalty("ewc-fgt", cfg) == 456.0
    assert K.ewc_penalty("ewc@5000", cfg) == 5000.0 and K.ewc_penalty("ewc@1e4", cfg) == 1e4
    for bad in ("ewc@", "ewc@abc", "ewc@-1", "ewc@inf", "adapter", "replay"):
        assert K.ewc_penalty(bad, cfg) is None


def test_ewc_variants_are_ewc_with_their_penalty(tiny_run):
    st, cfg, _ = tiny_run
    from dataclasses import replace
    c = replace(cfg, ewc_lambda=3000.0, ewc_lambda_fgt=0.0)
    res = K.continual_train(st, ["ewc", "ewc@3000", "ewc-fgt", "adapter"], c)
    np.testing.assert_allclose(res["acc"][1], res["acc"][0], atol=1e-6, equal_nan=True)
    np.testing.assert_allclose(res["acc"][2], res["acc"][3], atol=1e-6, equal_nan=True)  # no penalty: the adapter
    with pytest.raises(ValueError, match="unknown method"):
        K.continual_train(st, ["ewc@abc"], c)


def test_ewc_lambda_search_beside_the_adapter(tiny_run):
    st, cfg, _ = tiny_run
    r = K.ewc_lambda_search(st, cfg, grid=(0.0, 1e12))
    assert r["acc"].shape == (2,) and r["fgt"].shape == (2,)
    assert abs(r["acc"][0] - r["acc_adapter"]) < 1e-6 and abs(r["fgt"][0] - r["fgt_adapter"]) < 1e-6
    assert abs(r["fgt"][1]) < 1e-6  # a huge penalty freezes the adapter after the first task: nothing is forgotten
    with pytest.raises(ValueError, match="grid"):
        K.ewc_lambda_search(st, cfg, grid=(-1.0,))


def test_pick_ewc_lambdas_per_criterion():
    grid = np.array([1e4, 1e2, 1e3, 1e5])
    acc = np.array([0.60, 0.55, 0.70, 0.30])
    ratio = np.array([0.20, 0.90, 0.60, 0.01])
    # accuracy-best 1e3; least forgetting among ACC >= 0.58: 1e4 (1e5 forgets least but stops learning)
    assert K.pick_ewc_lambdas(grid, acc, ratio, acc_adapter=0.58) == (1e3, 1e4)
    assert K.pick_ewc_lambdas(grid, acc, ratio, acc_adapter=0.65) == (1e3, 1e3)
    assert K.pick_ewc_lambdas(grid, acc, ratio, acc_adapter=0.99) == (1e3, 1e3)  # none qualifies
    assert K.pick_ewc_lambdas(grid, acc, ratio, acc_adapter=0.0) == (1e3, 1e5)
    # ties go to the smaller penalty
    assert K.pick_ewc_lambdas(np.array([2.0, 1.0]), np.array([0.5, 0.5]), np.array([0.1, 0.1]), 0.4) == (1.0, 1.0)
    with pytest.raises(ValueError, match="same"):
        K.pick_ewc_lambdas(grid, acc[:2], ratio, 0.5)


def test_tune_ewc_lambdas_runs_the_search_per_page_seed(monkeypatch):
    q, a = K.text_embeddings()
    cfg = K.Config(steps=4, batch=8, dim=8, hidden=16)
    seen = []
    orig = K.ewc_lambda_search

    def spy(st, c, grid, init_seed, type_weight):
        seen.append((init_seed, st.train["task"].shape[0]))
        return orig(st, c, grid, init_seed=init_seed, type_weight=type_weight)
    monkeypatch.setattr(K, "ewc_lambda_search", spy)
    r = K.tune_ewc_lambdas(cfg, q, a, page_seeds=[20, 21], n_seeds=2, n_train=20, n_test=10, grid=(0.0, 1e12))
    assert seen == [(20, 2), (21, 2)]
    assert r["acc"].shape == (2,) and r["picked"][0] in (0.0, 1e12) and r["picked"][1] in (0.0, 1e12)
    assert abs(r["ratio"][0] - 1.0) < 1e-6 and abs(r["acc"][0] - r["acc_adapter"]) < 1e-6
    with pytest.raises(ValueError, match="empty"):
        K.tune_ewc_lambdas(cfg, q, a, page_seeds=[])
