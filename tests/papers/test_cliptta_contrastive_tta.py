"""Unit tests of :mod:`repro.papers.cliptta_contrastive_tta`, the kernels of ``notebooks/cliptta-contrastive-tta.py``."""

import copy
import inspect
import json
from pathlib import Path

import numpy as np
import pytest
import torch

from repro.papers import cliptta_contrastive_tta as K
from repro.textenc import check_embedding_cache, embed_texts


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/cliptta_contrastive_tta.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"



CACHE = Path(K.__file__).with_suffix(".minilm.npz")
GOLDEN = json.loads((Path(__file__).parent / "golden" / "cliptta-contrastive-tta.json").read_text())
PROMPTS = [f"a photo of the digit {w}." for w in "zero one two three four five six seven eight nine".split()]


def feats(B=6, C=4, d=5, seed=0):
    g = torch.Generator().manual_seed(seed)
    z = torch.randn(B, d, generator=g, dtype=torch.float64)
    t = torch.randn(C, d, generator=g, dtype=torch.float64)
    return z / z.norm(dim=1, keepdim=True), t / t.norm(dim=1, keepdim=True)


# ----------------------------------------------------------------------------- golden: the official code
def test_golden_file_names_the_official_commit():
    assert GOLDEN["repository"] == "MarcLafon/cliptta" and len(GOLDEN["commit"]) == 40


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=[c["name"] for c in GOLDEN["cases"]])
def test_golden_against_the_official_code(case):
    i = case["input"]
    z, t = feats(i["B"], i["C"], i["d"])
    s = i["scale"]
    name = case["name"]
    if name == "soft-frozen-text":
        ours = K.soft_contrastive_tta_loss(z, t, s)
    elif name == "soft-updated-text":
        ours = K.symmetric_soft_contrastive_tta_loss(z, t, s)
    elif name == "tent-branch":
        ours = K.entropy_tta_loss(z, t, s)
    elif name == "marginal-entropy":
        ours = K.marginal_entropy(z, t, s)
    elif name == "collapse-gradient-norm":
        zc = t[0] + 0.05 * torch.randn(i["B"], i["d"], generator=torch.Generator().manual_seed(1), dtype=torch.float64)
        zc = (zc / zc.norm(dim=1, keepdim=True)).requires_grad_(True)
        ours = torch.autograd.grad(K.soft_contrastive_tta_loss(zc, t, s), zc)[0].norm()
    elif name == "max-log-prob-score-sum":
        ours = K.max_log_prob_score(z, t, 1.0).sum()
    elif name == "oce-loss":
        sc = K.max_log_prob_score(z, t, 1.0)
        assert K.otsu_threshold(sc.numpy()) == pytest.approx(i["alpha"], abs=1e-12)
        ours = K.oce_loss(sc, torch.tensor([i["alpha"]], dtype=torch.float64), 0.005)
    else:
        raise AssertionError(f"unknown golden case {name}")
    assert abs(float(ours) - case["output"]) <= case["tol"]


# ----------------------------------------------------------------------------- the text tower cache
@pytest.mark.xdist_group("minilm")
def test_embedding_cache_matches_the_live_minilm_model():
    assert check_embedding_cache(CACHE) < 1e-4


def test_prompt_embeddings_are_unit_norm_and_deterministic():
    e1, e2 = embed_texts(PROMPTS, cache=CACHE), embed_texts(PROMPTS, cache=CACHE)
    assert e1.shape == (10, 384)
    np.testing.assert_array_equal(e1, e2)
    np.testing.assert_allclose(np.linalg.norm(e1, axis=1), 1, atol=1e-5)


# ----------------------------------------------------------------------------- losses
def brute_soft(z, t, s):
    B = z.shape[0]
    tot = 0.0
    for i in range(B):
        row = []
        for j in range(B):
            yj = max(range(t.shape[0]), key=lambda c: float(z[j] @ t[c]))
            row.append(s * float(z[i] @ t[yj]) + 1e-6)
        p = np.exp(np.array(row) - max(row))
        p /= p.sum()
        tot += -(p * np.log(p)).sum()
    return tot / B


def test_soft_contrastive_loss_brute_force():
    for seed in range(3):
        z, t = feats(7, 3, 4, seed)
        assert float(K.soft_contrastive_tta_loss(z, t, 10.0)) == pytest.approx(brute_soft(z, t, 10.0), abs=1e-10)


def test_soft_contrastive_loss_is_invariant_to_a_joint_permutation_of_the_batch():
    z, t = feats(8, 4, 5, 3)
    perm = torch.randperm(8, generator=torch.Generator().manual_seed(0))
    assert float(K.soft_contrastive_tta_loss(z[perm], t, 50.0)) == pytest.approx(
        float(K.soft_contrastive_tta_loss(z, t, 50.0)), abs=1e-12)
    assert float(K.symmetric_soft_contrastive_tta_loss(z[perm], t, 50.0)) == pytest.approx(
        float(K.symmetric_soft_contrastive_tta_loss(z, t, 50.0)), abs=1e-12)


def test_collapse_gives_maximal_loss_and_zero_gradient_but_entropy_still_pushes():
    z, t = feats(6, 4, 5)
    zc = t[1] + 0.02 * torch.randn(6, 5, generator=torch.Generator().manual_seed(2), dtype=torch.float64)
    zc = (zc / zc.norm(dim=1, keepdim=True)).requires_grad_(True)
    assert ((zc @ t.T).argmax(1) == 1).all()
    loss = K.soft_contrastive_tta_loss(zc, t, 10.0)
    assert float(loss.detach()) == pytest.approx(np.log(6), abs=1e-9)  # uniform rows
    g = torch.autograd.grad(loss, zc)[0]
    assert float(g.norm()) < 1e-10
    g_tent = torch.autograd.grad(K.entropy_tta_loss(zc, t, 10.0), zc)[0]
    assert float(g_tent.norm()) > 1e-3


def test_duplicated_pseudo_captions_raise_the_floor_of_the_loss():
    # an image exactly on a class that k batch images share has row entropy >= log k
    t = torch.eye(3, dtype=torch.float64)
    z = torch.tensor([[1.0, 0, 0], [1, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=torch.float64)
    L = K.pseudo_caption_logits(z, t, 1000.0)
    ent = K.softmax_entropy(L)
    assert float(ent[0]) == pytest.approx(np.log(3), abs=1e-6)
    assert float(ent[3]) == pytest.approx(0.0, abs=1e-6)


def test_entropy_and_marginal_entropy_closed_forms():
    z, t = feats(5, 3, 4, 1)
    p = torch.softmax(7.0 * z @ t.T, 1)
    assert float(K.entropy_tta_loss(z, t, 7.0)) == pytest.approx(float(-(p * p.log()).sum(1).mean()), abs=1e-9)
    m = p.mean(0)
    assert float(K.marginal_entropy(z, t, 7.0)) == pytest.approx(float(-(m * m.log()).sum()), abs=1e-5)
    assert float(K.marginal_entropy(z, t, 7.0)) <= np.log(3) + 1e-9


def test_max_log_prob_score():
    z, t = feats(5, 3, 4, 2)
    ref = torch.log_softmax(z @ t.T, 1).max(1).values
    torch.testing.assert_close(K.max_log_prob_score(z, t), ref)


def test_oce_loss_closed_form_and_separation():
    s = torch.tensor([-2.0, -2.1, -1.0, -1.1], dtype=torch.float64)
    # a hard split at alpha = -1.5 (gamma tiny): mu_in = -1.05, mu_out = -2.05
    assert float(K.oce_loss(s, torch.tensor([-1.5], dtype=torch.float64), 1e-4)) == pytest.approx(-1.0, abs=1e-9)
    # pulling the groups further apart lowers the loss
    s2 = torch.tensor([-2.5, -2.6, -0.5, -0.6], dtype=torch.float64)
    assert float(K.oce_loss(s2, torch.tensor([-1.5], dtype=torch.float64), 1e-4)) < -1.0


def test_otsu_threshold_matches_scikit_image_and_splits_bimodal_scores():
    from skimage.filters import threshold_otsu

    rng = np.random.default_rng(0)
    x = np.concatenate([rng.normal(-3, 0.3, 200), rng.normal(1, 0.3, 100)])
    assert K.otsu_threshold(x) == threshold_otsu(x)
    assert -2.7 < K.otsu_threshold(x) < 0.7


def test_bad_inputs():
    z, t = feats()
    with pytest.raises(ValueError, match="2-D"):
        K.soft_contrastive_tta_loss(z[0], t, 1.0)
    with pytest.raises(ValueError, match="dimensions differ"):
        K.soft_contrastive_tta_loss(z, t[:, :3], 1.0)
    with pytest.raises(ValueError, match="scale"):
        K.soft_contrastive_tta_loss(z, t, -1.0)
    with pytest.raises(ValueError, match="torch"):
        K.entropy_tta_loss(z.numpy(), t, 1.0)
    with pytest.raises(ValueError, match="1-D"):
        K.oce_loss(torch.zeros(2, 2), torch.zeros(1), 0.1)
    with pytest.raises(ValueError):
        K.oce_loss(torch.zeros(3), torch.zeros(1), 0.0)
    with pytest.raises(ValueError, match="finite"):
        K.otsu_threshold(np.array([1.0, np.nan]))
    with pytest.raises(ValueError, match="unknown shift"):
        K.corrupt(np.zeros((2, 64)), "fog", np.random.default_rng(0))
    with pytest.raises(ValueError, match="shape"):
        K.corrupt(np.zeros((2, 63)), "blur", np.random.default_rng(0))
    with pytest.raises(ValueError, match="unknown method"):
        K.method_config("sar")
    with pytest.raises(ValueError):
        K.imbalanced_indices(np.zeros(5, int), 10, 0, 0.7, np.random.default_rng(0))


# ----------------------------------------------------------------------------- data and model
def test_corruptions_keep_range_shape_and_do_what_they_say():
    rng = np.random.default_rng(0)
    d = K.load_digits_split(rng)
    x = d["X_test"][:20]
    for kind in K.SHIFTS:
        y = K.corrupt(x, kind, np.random.default_rng(1))
        assert y.shape == x.shape and y.dtype == np.float32 and y.min() >= 0 and y.max() <= 1
        assert not np.allclose(y, x)
    np.testing.assert_allclose(K.corrupt(x, "contrast-inversion", rng), 0.7 * x + 0.3 * (1 - x), atol=1e-6)
    # blur keeps the mean of an image away from the border (a constant image stays constant)
    c = np.full((1, 64), 0.5, np.float32)
    np.testing.assert_allclose(K.corrupt(c, "blur", rng), c, atol=1e-6)


def test_split_is_stratified_and_disjoint():
    d = K.load_digits_split(np.random.default_rng(0))
    assert len(d["y_train"]) + len(d["y_test"]) == 1797
    assert abs(len(d["y_train"]) - len(d["y_test"])) <= 10
    assert set(np.unique(d["y_test"])) == set(range(10))


def test_imbalanced_indices_shares():
    y = np.repeat(np.arange(10), 50)
    idx = K.imbalanced_indices(y, 200, 3, 0.7, np.random.default_rng(0))
    assert idx.shape == (200,) and (y[idx] == 3).sum() == 140


def test_outlier_images_range():
    o = K.outlier_images(5, np.random.default_rng(0))
    assert o.shape == (5, 64) and o.min() >= 0 and o.max() <= 1


def test_tower_output_unit_norm_and_adaptation_touches_only_norm_parameters():
    tw = K.ImageTower(hidden=16, seed=0)
    x = torch.rand(4, 64)
    np.testing.assert_allclose(tw(x).norm(dim=1).detach().numpy(), 1, atol=1e-6)
    _, t = feats(4, 10, 384)
    t = t.float()
    before = {k: v.clone() for k, v in tw.state_dict().items()}
    out = K.adapt_stream(tw, t, np.random.default_rng(0).random((8, 64)), 4, K.method_config("cliptta"))
    assert out["pred"].shape == (8,) and out["loss"].shape == (2,)
    after = tw.state_dict()
    for k in before:
        changed = not torch.equal(before[k], after[k])
        assert changed == k.startswith("ln"), k


def test_zero_shot_config_leaves_the_tower_unchanged_and_matches_predict():
    tw = K.ImageTower(hidden=16, seed=1)
    _, t = feats(4, 10, 384)
    t = t.float()
    X = np.random.default_rng(1).random((10, 64)).astype(np.float32)
    out = K.adapt_stream(tw, t, X, 4, K.method_config("zero-shot"))
    np.testing.assert_array_equal(out["pred"], K.predict(tw, t, X))


def test_collapse_diagnostics():
    d = K.collapse_diagnostics(np.array([0] * 98 + [1, 2]))
    assert d["n_classes"] == 1
    d = K.collapse_diagnostics(np.repeat(np.arange(10), 10))
    assert d["n_classes"] == 10 and d["entropy"] == pytest.approx(np.log(10))


# ----------------------------------------------------------------------------- many streams at once, comparators
def small_setup(seed=0, n=24):
    tw = K.ImageTower(hidden=16, seed=seed)
    _, t = feats(4, 10, 384, seed)
    X = np.random.default_rng(seed).random((n, 64)).astype(np.float32)
    return tw, t.float(), X


def test_hard_pseudo_label_loss_closed_form():
    z, t = feats(5, 3, 4, 4)
    logits = 6.0 * z @ t.T
    ref = -torch.log_softmax(logits, 1)[torch.arange(5), logits.argmax(1)].mean()
    assert float(K.hard_pseudo_label_loss(z, t, 6.0)) == pytest.approx(float(ref), abs=1e-12)


def test_batched_losses_equal_the_one_batch_losses_on_the_unmasked_samples():
    zs, masks = [], []
    for s in range(3):
        z, t = feats(6, 4, 5, s)
        zs.append(z)
        masks.append(torch.tensor([1, 1, 0, 1, 1, s != 1], dtype=torch.float64))
    z, m = torch.stack(zs), torch.stack(masks)
    out = K.batched_tta_losses(z @ t.T, 20.0, m)
    for s in range(3):
        keep = zs[s][masks[s] > 0]
        for name, f in (("entropy", K.entropy_tta_loss), ("soft-contrastive", K.soft_contrastive_tta_loss),
                        ("hard-pseudo-label", K.hard_pseudo_label_loss), ("marginal", K.marginal_entropy)):
            assert float(out[name][s]) == pytest.approx(float(f(keep, t, 20.0)), abs=1e-9), (name, s)


def test_stream_cosines_equal_the_tower_with_its_layernorms_set():
    tw, t, X = small_setup()
    g = torch.Generator().manual_seed(3)
    params = [p.detach() + 0.1 * torch.randn(2, p.shape[0], generator=g) for p in tw.norm_parameters()]
    cos = K.stream_cosines(tw, params, K._first_layer(tw, torch.as_tensor(X)), t)
    for s in range(2):
        tw2 = K.ImageTower(hidden=16, seed=0)
        with torch.no_grad():
            for p, q in zip(tw2.norm_parameters(), params):
                p.copy_(q[s])
            ref = tw2(torch.as_tensor(X)) @ t.T
        torch.testing.assert_close(cos[s], ref, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("cfg", [K.method_config("tent"), K.method_config("cliptta"),
                                 K.method_config("cliptta", ood=True), K.TTAConfig("hard-pseudo-label", lr=1e-3),
                                 K.TTAConfig("entropy", lr=1e-3, steps=1), K.method_config("zero-shot")],
                         ids=lambda c: f"{c.loss}-{c.lr}-{c.steps}-{c.ood}")
def test_adapt_streams_equals_adapt_stream(cfg):
    tw, t, X = small_setup(1, 40)
    other = K.TTAConfig("soft-contrastive", lr=3e-3, beta_reg=1.0)  # a different stream beside it changes nothing
    out = K.adapt_streams(tw, t, np.stack([X, np.ascontiguousarray(X[::-1])]), 8, [cfg, other])
    ref = K.adapt_stream(copy.deepcopy(tw), t, X, 8, cfg)
    np.testing.assert_array_equal(out["pred"][0], ref["pred"])
    np.testing.assert_allclose(out["score"][0], ref["score"], atol=1e-5)
    ref2 = K.adapt_stream(copy.deepcopy(tw), t, np.ascontiguousarray(X[::-1]), 8, other)
    np.testing.assert_array_equal(out["pred"][1], ref2["pred"])


def test_adapt_streams_leaves_the_tower_alone_and_predict_streams_matches():
    tw, t, X = small_setup(2, 32)
    before = {k: v.clone() for k, v in tw.state_dict().items()}
    out = K.adapt_streams(tw, t, X[None], 8, [K.method_config("tent")])
    for k, v in tw.state_dict().items():
        assert torch.equal(before[k], v)
    tw2 = copy.deepcopy(tw)
    K.adapt_stream(tw2, t, X, 8, K.method_config("tent"))
    np.testing.assert_array_equal(K.predict_streams(tw, out["params"], t, X)[0], K.predict(tw2, t, X))


def brute_memory(tw, t, X, batch, shots):
    """The official CCM memory replayed by hand with the unadapted tower (lr tiny): what it holds at the end."""
    mem = {c: [] for c in range(10)}
    for start in range(0, len(X), batch):
        with torch.no_grad():
            cos = tw(torch.as_tensor(X[start:start + batch])) @ t.T
        conf = cos.softmax(1).max(1).values
        for i, c in enumerate(cos.argmax(1).tolist()):
            mem[c].append((float(conf[i]), start + i))
            mem[c] = sorted(mem[c], reverse=True)[:shots]
    return mem


def test_memory_keeps_the_most_confident_samples_per_pseudo_label():
    tw, t, X = small_setup(3, 48)
    # a negligible step: the tower stays as it was, so the memory must hold what a hand replay of the official
    # CCM update (per pseudo-label, the `shots` most confident samples seen so far) holds
    out = K.adapt_streams(tw, t, X[None], 8, [K.TTAConfig("soft-contrastive", lr=1e-12, beta_reg=1.0,
                                                          memory_shots=2)])
    np.testing.assert_array_equal(out["pred"][0], K.predict(tw, t, X))
    mem = brute_memory(tw, t, X, 8, 2)
    for c in range(10):
        got = sorted(float(x) for x in out["memory_conf"][0, c] if np.isfinite(float(x)))
        assert got == pytest.approx(sorted(v for v, _ in mem[c]), abs=1e-6), c
    # the memory changes the update: with a real step, memory and no memory differ
    a = K.adapt_streams(tw, t, X[None], 8, [K.TTAConfig("soft-contrastive", lr=1e-2, beta_reg=1.0, memory_shots=2)])
    b = K.adapt_streams(tw, t, X[None], 8, [K.TTAConfig("soft-contrastive", lr=1e-2, beta_reg=1.0)])
    assert not torch.equal(a["params"][0], b["params"][0])


def brute_tda(z, t, scale, pos=(2.0, 5.0, 3), neg=(0.117, 1.0, 2)):
    """TDA replayed as the official code writes it: per-class lists sorted by entropy, replace the last."""
    C = t.shape[0]
    pc, nc, preds = {}, {}, []
    for x in z:
        lg = scale * x @ t.T
        p = np.exp(lg + 1e-6 - (lg + 1e-6).max())
        p /= p.sum()
        h = float(-(p * np.log(p)).sum())
        c = int(np.argmax(lg))
        for cache, cap, item, ok in ((pc, pos[2], (x, h, None), True),
                                     (nc, neg[2], (x, h, p), 0.2 < h / np.log2(C) < 0.5)):
            if not ok:
                continue
            lst = cache.setdefault(c, [])
            if len(lst) < cap:
                lst.append(item)
            elif h < lst[-1][1]:
                lst[-1] = item
            lst.sort(key=lambda it: it[1])
        out = lg.copy()
        for cls, lst in pc.items():
            for k, _, _ in lst:
                out[cls] += pos[0] * np.exp(-(pos[1] - pos[1] * x @ k))
        for cls, lst in nc.items():
            for k, _, pk in lst:
                out -= neg[0] * np.exp(-(neg[1] - neg[1] * x @ k)) * ((pk > 0.03) & (pk < 1.0))
        preds.append(int(np.argmax(out)))
    return np.array(preds), pc


def test_tda_equals_a_replay_of_the_official_lists():
    _, t = feats(4, 3, 6, 5)
    g = torch.Generator().manual_seed(0)
    z = t[torch.randint(0, 3, (60,), generator=g)] + 0.4 * torch.randn(60, 6, generator=g, dtype=torch.float64)
    z = (z / z.norm(dim=1, keepdim=True)).numpy()
    for scale in (3.0, 10.0):
        pred, cache = K.tda_stream(z, t.numpy(), scale=scale)
        ref, pc = brute_tda(z, t.numpy(), scale)
        np.testing.assert_array_equal(pred, ref)
        held = sorted(float(e) for e in cache["pos"]["ent"] if np.isfinite(e))
        assert held == pytest.approx(sorted(h for lst in pc.values() for _, h, _ in lst), abs=1e-12)
        assert np.isfinite(cache["pos"]["ent"]).sum() <= 9 and np.isfinite(cache["neg"]["ent"]).sum() <= 6
    # with alpha = 0 for both caches TDA is zero-shot
    p0, _ = K.tda_stream(z, t.numpy(), scale=10.0, pos=(0.0, 5.0, 3), neg=(0.0, 1.0, 2))
    np.testing.assert_array_equal(p0, (z @ t.numpy().T).argmax(1))


def test_batched_bad_inputs():
    tw, t, X = small_setup()
    with pytest.raises(ValueError, match="shape"):
        K.adapt_streams(tw, t, X, 8, [K.method_config("tent")])
    with pytest.raises(ValueError, match="unknown loss"):
        K.adapt_streams(tw, t, X[None], 8, [K.TTAConfig("sar")])
    with pytest.raises(ValueError, match="memory_shots"):
        K.adapt_streams(tw, t, np.stack([X, X]), 8, [K.TTAConfig("entropy", memory_shots=2),
                                                        K.TTAConfig("entropy", memory_shots=3)])
    with pytest.raises(ValueError, match="memory"):
        K.adapt_stream(tw, t, X, 8, K.TTAConfig("entropy", memory_shots=2))
    with pytest.raises(ValueError):
        K.batched_tta_losses(torch.zeros(2, 3), 1.0, torch.ones(2, 3))
    with pytest.raises(ValueError):
        K.tda_stream(np.zeros((3, 4)), np.zeros((2, 5)))


def test_a_stream_with_memory_is_the_same_beside_other_streams():
    tw, t, X = small_setup(4, 40)
    mem = K.TTAConfig("soft-contrastive", lr=1e-2, beta_reg=1.0, memory_shots=2)
    alone = K.adapt_streams(tw, t, X[None], 8, [mem])
    mixed = K.adapt_streams(tw, t, np.stack([X[::-1].copy(), X, X]), 8, [K.method_config("tent"), mem,
                                                                        K.TTAConfig("hard-pseudo-label", lr=1e-3)])
    np.testing.assert_array_equal(alone["pred"][0], mixed["pred"][1])
    torch.testing.assert_close(alone["params"][0][0], mixed["params"][0][1])
    torch.testing.assert_close(alone["memory_conf"][0], mixed["memory_conf"][0])


# ----------------------------------------------------------------------------- centred cosines (a baseline)
def centred_loop(z, t, batch):
    """Reference: the running per-class mean cosine, updated batch by batch, subtracted before the argmax."""
    total, n, out = np.zeros(len(t)), 0, []
    for s in range(0, len(z), batch):
        cb = z[s:s + batch] @ t.T
        total, n = total + cb.sum(0), n + len(cb)
        out.append((cb - total / n).argmax(1))
    return np.concatenate(out)


@pytest.mark.parametrize("batch", [1, 4, 7, 50])
def test_centred_cosines_equal_the_batch_by_batch_loop(batch):
    z, t = feats(B=23, C=5, d=6, seed=3)
    z, t = z.numpy(), t.numpy()
    np.testing.assert_array_equal(K.centred_cosine_stream(z, t, batch), centred_loop(z, t, batch))
    # one batch holding the whole stream: the cosines minus their column means
    np.testing.assert_array_equal(K.centred_cosine_stream(z, t, 23), (z @ t.T - (z @ t.T).mean(0)).argmax(1))


def test_centred_cosines_remove_a_per_class_bias():
    """A shift that adds a constant to every cosine of a class (here: a shared offset added to the features,
    which moves class c's cosines by offset . t_c) leaves the predictions unchanged, unlike zero-shot."""
    rng = np.random.default_rng(0)
    t = rng.normal(size=(4, 6))
    t /= np.linalg.norm(t, axis=1, keepdims=True)
    y = np.repeat(np.arange(4), 10)
    z = t[y] + 0.3 * rng.normal(size=(40, 6))
    z = z[rng.permutation(40)]
    shifted = z + 2.0 * t[0]                      # every cosine with class 0 grows most
    assert (shifted @ t.T).argmax(1).tolist().count(0) > 30   # zero-shot collapses onto class 0
    np.testing.assert_array_equal(K.centred_cosine_stream(shifted, t, 8), K.centred_cosine_stream(z, t, 8))


def test_centred_cosines_bad_inputs():
    with pytest.raises(ValueError):
        K.centred_cosine_stream(np.zeros((3, 4)), np.zeros((2, 5)), 2)
    with pytest.raises(ValueError):
        K.centred_cosine_stream(np.zeros((0, 4)), np.zeros((2, 4)), 2)
    with pytest.raises(ValueError):
        K.centred_cosine_stream(np.zeros((3, 4)), np.zeros((2, 4)), 0)
