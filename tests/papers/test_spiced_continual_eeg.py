"""Unit tests of :mod:`repro.papers.spiced_continual_eeg`, the kernels of ``notebooks/spiced-continual-eeg.py``."""

import inspect
import json
from pathlib import Path

import numpy as np
import pytest
from scipy import signal

from repro.papers import spiced_continual_eeg as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/spiced_continual_eeg.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# ---- synthetic EEG and band power ------------------------------------------------------------------------------

def _subject(seed=0):
    rng = np.random.default_rng(seed)
    return K.make_subjects(1, np.array([0]), rng)[0], rng


def test_synth_shapes_balance_and_determinism():
    p, rng = _subject()
    X, y = K.synth_eeg_subject(30, p, rng)
    assert X.shape == (30, 8, 256) and y.shape == (30,)
    assert np.bincount(y).tolist() == [10, 10, 10]
    p2, rng2 = _subject()
    X2, y2 = K.synth_eeg_subject(30, p2, rng2)
    assert np.array_equal(X, X2) and np.array_equal(y, y2)


def test_class_source_carries_alpha():
    # one channel per source, no noise: the class source has the largest alpha power
    p = K.SubjectParams(mixing=np.eye(3), gain=np.ones(3), f_alpha=10.0, f_beta=20.0, f_theta=6.0, noise=0.0,
                        family=0)
    X, y = K.synth_eeg_subject(60, p, np.random.default_rng(1))
    F = K.bandpower_features(X, 128.0).reshape(60, 3, 3)  # (trial, channel, band)
    assert np.mean(F[:, :, 1].argmax(1) == y) > 0.9
    assert np.mean(F[:, :, 2].argmin(1) == y) > 0.9


def test_bandpower_parseval_and_pure_tone():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((4, 2, 256))
    tiling = {"lo": (0.0, 30.0), "hi": (30.0, 65.0)}
    bp = np.exp(K.bandpower_features(X, 128.0, tiling)).reshape(4, 2, 2).sum(-1)
    np.testing.assert_allclose(bp, (X ** 2).mean(-1), rtol=1e-12)
    t = np.arange(256) / 128.0
    tone = np.broadcast_to(3.0 * np.sin(2 * np.pi * 10 * t), (1, 1, 256))
    f = np.exp(K.bandpower_features(tone, 128.0, K.BANDS))
    assert f[0, 1] == pytest.approx(4.5, rel=1e-9)  # A^2 / 2 in the alpha band
    assert f[0, 0] < 1e-20 and f[0, 2] < 1e-20


def test_bandpower_matches_scipy_periodogram():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((3, 2, 256))
    f, P = signal.periodogram(X, fs=128.0, axis=-1, detrend=False, scaling="density")
    for b, (lo, hi) in enumerate(K.BANDS.values()):
        m = (f >= lo) & (f < hi)
        ref = np.log(P[..., m].sum(-1) * (f[1] - f[0]))
        np.testing.assert_allclose(K.bandpower_features(X, 128.0).reshape(3, 2, 3)[..., b], ref, rtol=1e-10)


def test_band_groups_layout():
    g = K.band_groups(2)
    assert [g["theta"].tolist(), g["alpha"].tolist(), g["beta"].tolist()] == [[0, 3], [1, 4], [2, 5]]


def test_bad_inputs():
    p, rng = _subject()
    with pytest.raises(ValueError, match="n_trials"):
        K.synth_eeg_subject(0, p, rng)
    with pytest.raises(ValueError, match="shape"):
        K.bandpower_features(np.zeros((3, 4)), 128.0)
    with pytest.raises(ValueError, match="no frequency bin"):
        K.bandpower_features(np.zeros((1, 1, 8)), 128.0, {"x": (1.0, 2.0)})
    with pytest.raises(ValueError, match="one length"):
        K.domain_weighted_cosine(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="method"):
        K.continual_run(None, "ewc", 0)
    with pytest.raises(ValueError, match="k"):
        K.SynapticNetwork(k=0)
    with pytest.raises(ValueError, match="conf_threshold"):
        K.pseudo_label(K.init_mlp(2, 3, 2, 0), np.zeros((1, 2)), 1.5)


# ---- the synaptic network --------------------------------------------------------------------------------------

def test_cosine_one_group_and_weighted_groups():
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(6), rng.standard_normal(6)
    cos = x @ y / (np.linalg.norm(x) * np.linalg.norm(y))
    assert K.domain_weighted_cosine(x, y) == pytest.approx(cos, abs=1e-7)  # the official 1e-8 in the denominator
    assert K.domain_weighted_cosine(x, x) == pytest.approx(1.0, abs=1e-7)
    g = {"a": np.arange(3), "b": np.arange(3, 6)}
    c = [x[i] @ y[i] / (np.linalg.norm(x[i]) * np.linalg.norm(y[i])) for i in g.values()]
    assert K.domain_weighted_cosine(x, y, g, {"a": 1.0, "b": 3.0}) == pytest.approx((c[0] + 3 * c[1]) / 4, abs=1e-7)


def _net(seed=0, n=8, k=1, thr=0.3):
    rng = np.random.default_rng(seed)
    base = rng.standard_normal((2, 10))
    P = base[rng.integers(0, 2, n)] + 0.7 * rng.standard_normal((n, 10))
    net = K.SynapticNetwork(sim_threshold=thr, k=k)
    net.initialize(list(P[:4]))
    for p in P[4:]:
        net.add_node(p)
        net.renormalize()
    return net


def test_edges_symmetric_and_above_threshold():
    net = _net()
    assert np.array_equal(net.connected, net.connected.T) and np.allclose(net.sim, net.sim.T)
    assert np.all(net.sim[net.connected] > 0.3) and not net.connected.diagonal().any()
    assert np.all((net.strength > 0) == net.connected)


def test_importance_brute_force_and_reactivation_distribution():
    net = _net(k=2)
    for i in range(net.n):
        nb, imp = net.importance(i)
        if not len(nb):
            continue
        avg = {j: np.mean([net.strength[j, m] for m in range(net.n) if net.connected[j, m]]) for j in nb}
        ref = [0.6 * net.sim[i, j] + 0.4 * avg[j] / sum(avg.values()) for j in nb]
        np.testing.assert_allclose(imp, ref, rtol=1e-12)
        nodes, w = net.reactivate(i)
        assert len(nodes) == min(2, len(nb)) and w.sum() == pytest.approx(1.0) and np.all(np.diff(w) <= 0)
        assert set(nodes) <= set(nb) and imp[np.searchsorted(nb, nodes[0])] == imp.max()


def test_consolidation_cap_and_skip_of_unit_strength():
    net = K.SynapticNetwork(sim_threshold=-2.0)
    net.initialize([np.array([1.0, 0.0]), np.array([1.0, 0.1]), np.array([1.0, 0.2])])
    net.strength[0, 1] = 2.5
    net.strength[0, 2] = 1.0
    net.consolidate(np.array([0]))
    assert net.strength[0, 1] == 3.0 and net.strength[1, 0] == 3.0  # 2.5 * 1.3 capped; neighbour copy set
    assert net.strength[0, 2] == 1.0 and net.strength[2, 0] == 1.0  # exactly 1: skipped
    net.strength[:] = 0.5 * net.connected
    net.consolidate(np.array([0, 1]))
    assert net.strength[0, 2] == pytest.approx(0.65) and net.strength[2, 0] == pytest.approx(0.65)
    assert net.strength[1, 2] == pytest.approx(0.65) and net.strength[0, 1] == pytest.approx(0.65)
    assert net.step[0] == 1 and net.step[1] == 1


def test_renormalisation_is_monotone_and_uses_each_node_step():
    net = _net()
    before = net.strength.copy()
    steps = net.step.copy()
    net.renormalize()
    assert np.all(net.strength <= before + 1e-15)
    np.testing.assert_allclose(net.strength, before * np.exp(-steps / 30.0)[:, None], rtol=1e-14)
    assert np.array_equal(net.step, steps + 1)


# ---- the decoder -----------------------------------------------------------------------------------------------

def test_gradient_matches_finite_differences():
    rng = np.random.default_rng(0)
    p = K.init_mlp(4, 5, 3, 0)
    X, y, w = rng.standard_normal((7, 4)), rng.integers(0, 3, 7), rng.random(7)
    _, g = K.loss_and_grad(p, X, y, w)
    for t in range(4):
        idx = np.unravel_index(rng.integers(p[t].size), p[t].shape)
        q = [a.copy() for a in p]
        q[t][idx] += 1e-6
        lp = K.loss_and_grad(q, X, y, w)[0]
        q[t][idx] -= 2e-6
        lm = K.loss_and_grad(q, X, y, w)[0]
        assert g[t][idx] == pytest.approx((lp - lm) / 2e-6, rel=1e-5, abs=1e-8)


def test_train_matches_torch_adam_iterates():
    torch = pytest.importorskip("torch")
    from repro.optim import Adam

    rng = np.random.default_rng(1)
    p = K.init_mlp(4, 6, 3, 2)
    parts = [(rng.standard_normal((9, 4)), rng.integers(0, 3, 9)), (rng.standard_normal((5, 4)), rng.integers(0, 3, 5))]
    ours = K.train(p, parts, 15, 0.05)
    tp = [torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in p]
    opt = Adam(tp, lr=0.05)
    tparts = [(torch.tensor(X), torch.tensor(y)) for X, y in parts]
    for _ in range(15):
        opt.zero_grad()
        loss = sum(torch.nn.functional.cross_entropy(torch.relu(X @ tp[0] + tp[1]) @ tp[2] + tp[3], y)
                   for X, y in tparts)
        loss.backward()
        opt.step()
    for a, b in zip(ours, tp):
        np.testing.assert_allclose(a, b.detach().numpy(), rtol=1e-9, atol=1e-11)


def test_fuse_and_pseudo_labels():
    a, b = K.init_mlp(3, 4, 2, 0), K.init_mlp(3, 4, 2, 1)
    f = K.fuse([a, b], np.array([0.25, 0.75]))
    np.testing.assert_allclose(f[0], (0.25 * a[0] + 0.75 * b[0]) / (1 + 1e-8), rtol=1e-12)
    X = np.random.default_rng(0).standard_normal((20, 3))
    keep, yl = K.pseudo_label(a, X, 0.0)
    assert len(keep) == 20 and np.array_equal(yl, K.predict_proba(a, X).argmax(1))
    assert len(K.pseudo_label(a, X, 1.0)[0]) <= 20


def test_continual_run_shapes_and_source_only_rows():
    st = K.make_stream(4, 3, 30, 2, 0)
    cfg = K.RunConfig(pretrain_steps=30, adapt_steps=5)
    src = K.pretrain(st, cfg, 0)
    A = K.continual_run(st, "source-only", 0, cfg, src)["A"]
    assert A.shape == (3, 3) and np.allclose(A, A[0])
    r = K.continual_run(st, "spiced", 0, cfg, src)
    assert r["A"].shape == (3, 3) and np.all((r["A"] >= 0) & (r["A"] <= 1)) and r["net"].n == 7
    assert len(r["reactivated"]) == 3


# ---- golden test against the official code (xiaobaben/SPICED) ------------------------------------------------

GOLDEN = json.loads((Path(__file__).parent / "golden" / "spiced-continual-eeg.json").read_text())


def test_golden_file_names_the_official_commit():
    assert GOLDEN["slug"] == "spiced-continual-eeg"
    assert len(GOLDEN["commit"]) == 40 and GOLDEN["repository"].endswith("xiaobaben/SPICED")
    assert {"name", "function", "input", "output", "ours", "tol"} <= set(GOLDEN["cases"][0])


def _prototype3_groups():
    m = lambda a, b: np.concatenate([np.arange(c * 15 + a, c * 15 + b) for c in range(6)])  # noqa: E731
    return ({"time_stats": m(0, 6), "psd": m(6, 11), "wavelet": m(11, 15)},
            {"time_stats": 0.9, "psd": 1.5, "wavelet": 1.2})


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: c["name"])
def test_golden_synaptic_network(case):
    i, out = case["input"], case["output"]
    rng = np.random.default_rng(i["seed"])
    base = rng.standard_normal((2, 90))
    fam = rng.integers(0, 2, 10)
    P = base[fam] + 0.6 * rng.standard_normal((10, 90))
    g, w = _prototype3_groups()
    assert K.domain_weighted_cosine(P[0], P[1], g, w) == pytest.approx(out["sim_P0_P1"], abs=1e-12)
    net = K.SynapticNetwork(sim_threshold=i["sim_threshold"], k=i["k"],
                            similarity=lambda x, y: K.domain_weighted_cosine(x, y, g, w))
    net.initialize(list(P[:5]))
    for t in range(5):
        node = net.add_node(P[5 + t])
        nodes, ws = net.reactivate(node)
        ref = out["reactivated"][t]
        assert [int(a) for a, _ in ref] == nodes.tolist()
        np.testing.assert_allclose(ws, [b for _, b in ref], atol=1e-12)
        net.renormalize()
    np.testing.assert_allclose(net.strength, out["strength"], atol=case["tol"]["abs"], rtol=0)
    np.testing.assert_allclose(net.sim, out["similarity"], atol=1e-12, rtol=0)
    assert net.step.tolist() == out["step"]


# ---- the configurations and the comparators (issue 34) ----------------------------------------------------------

def _small():
    st = K.make_stream(4, 4, 30, 2, 0)
    cfg = K.RunConfig(pretrain_steps=30, adapt_steps=5)
    return st, cfg, K.pretrain(st, cfg, 0)


def test_train_part_weights():
    rng = np.random.default_rng(0)
    p0 = K.init_mlp(3, 4, 2, 0)
    a = (rng.standard_normal((6, 3)), rng.integers(0, 2, 6))
    b = (rng.standard_normal((4, 3)), rng.integers(0, 2, 4))
    # default weights are 1 and 1 (the page's loss), and explicit ones follow the official weighted sum
    for w in (None, (0.7, 0.3)):
        got = K.train(p0, [a, b], 1, 0.1, part_weights=w)
        wa, wb = (1.0, 1.0) if w is None else w
        Xc = np.concatenate([a[0], b[0]])
        yc = np.concatenate([a[1], b[1]])
        wc = np.concatenate([np.full(6, wa / 6), np.full(4, wb / 4)])
        _, g = K.loss_and_grad(p0, Xc, yc, wc)
        # first Adam step: each parameter moves by lr * sign(g) (bias-corrected moments), up to eps
        for q0, q1, gq in zip(p0, got, g):
            np.testing.assert_allclose(q1 - q0, -0.1 * gq / (np.abs(gq) + 1e-8), atol=1e-6)
    # a zero weight drops a part
    np.testing.assert_allclose(K.train(p0, [a, b], 3, 0.1, part_weights=(1.0, 0.0))[0],
                               K.train(p0, [a], 3, 0.1)[0], rtol=1e-12)
    with pytest.raises(ValueError):
        K.train(p0, [a, b], 1, 0.1, part_weights=(1.0,))
    with pytest.raises(ValueError):
        K.train(p0, [a, b], 1, 0.1, part_weights=(1.0, -1.0))
    with pytest.raises(ValueError):
        K.self_train_step(p0, a[0], b, 0.5, 1, 0.1, replay_weight=1.5)


def test_official_config_values_and_validation():
    off = K.RunConfig.official()
    assert (off.k, off.sim_threshold, off.save_conf, off.store_with, off.replay_weight, off.isolated,
            off.fallback_source) == (15, 0.1, 0.8, "previous", 0.3, "keep", True)
    page = K.RunConfig()
    assert (page.k, page.sim_threshold, page.decay, page.conf_threshold) == (1, 0.6, 30.0, 0.9)
    assert off.conf_threshold == page.conf_threshold and off.decay == page.decay
    assert K.RunConfig.official(adapt_lr=1e-4).adapt_lr == 1e-4
    for bad in (dict(store_with="before"), dict(isolated="cpc"), dict(k=0)):
        with pytest.raises(ValueError):
            K.RunConfig(**bad)
    with pytest.raises(ValueError):
        K.continual_run(K.make_stream(2, 2, 9, 2, 0), "spiced-perfect", 0)


def test_random_ablation_draws_as_many_past_subjects_as_spiced():
    st, cfg, src = _small()
    for k, thr in ((1, 0.6), (3, -1.0), (15, 0.1)):
        c = K.RunConfig(pretrain_steps=30, adapt_steps=5, k=k, sim_threshold=thr)
        ref = K.continual_run(st, "spiced", 0, c, src)
        r = K.continual_run(st, "spiced-random", 0, c, src)
        assert [len(js) for js in r["reactivated"]] == [len(js) for js in ref["reactivated"]]
        assert all(len(set(js)) == len(js) and max(js) < 4 + i for i, js in enumerate(r["reactivated"]))
        assert r["isolated"] == ref["isolated"]
        r2 = K.continual_run(st, "spiced-random", 0, c, src)
        assert r2["reactivated"] == r["reactivated"] and np.array_equal(r2["A"], r["A"])
    assert r["reactivated"] != ref["reactivated"]  # random, not the network's choice


def test_no_homeostasis_keeps_unit_strengths_and_ranks_by_similarity():
    st, cfg, src = _small()
    cfg = K.RunConfig(pretrain_steps=30, adapt_steps=5, sim_threshold=-1.0)  # every pair linked
    r = K.continual_run(st, "spiced-no-homeostasis", 0, cfg, src)
    net = r["net"]
    assert np.all(net.strength[net.connected] == 1.0) and np.all(net.step == 1)
    for i, js in enumerate(r["reactivated"]):
        node = 4 + i
        assert js == [int(np.argmax(net.sim[node, :node]))]
    # with homeostasis the strengths move
    assert not np.all(K.continual_run(st, "spiced", 0, cfg, src)["net"].strength[net.connected] == 1.0)


def test_store_with_previous_model_and_save_confidence():
    st, cfg, src = _small()
    prev = K.continual_run(st, "naive", 0, K.RunConfig(pretrain_steps=30, adapt_steps=5, store_with="previous",
                                                        save_conf=0.6), src)
    # the first target's samples are labelled by the source model, before adaptation
    assert prev["stored"][0] == len(K.pseudo_label(src, st.Xt[0], 0.6)[0])
    adapted = K.continual_run(st, "naive", 0, cfg, src)
    cur = K.self_train_step(src, st.Xt[0], None, cfg.conf_threshold, cfg.adapt_steps, cfg.lr)
    assert adapted["stored"][0] == len(K.pseudo_label(cur, st.Xt[0], cfg.conf_threshold)[0])
    # storing changes nothing for a method without replay
    assert np.array_equal(prev["A"], adapted["A"])


def test_unlinked_subjects_keep_their_start_model_officially():
    st, cfg, src = _small()
    never = K.RunConfig(pretrain_steps=30, adapt_steps=5, sim_threshold=2.0, isolated="keep")  # no link possible
    r = K.continual_run(st, "spiced", 0, never, src)
    assert r["isolated"] == 1.0
    np.testing.assert_array_equal(r["A"], K.continual_run(st, "source-only", 0, cfg, src)["A"])
    ours = K.continual_run(st, "spiced", 0, K.RunConfig(pretrain_steps=30, adapt_steps=5, sim_threshold=2.0), src)
    assert not np.array_equal(ours["A"], r["A"])  # the page's rule self-trains an unlinked subject


def test_fallback_replays_a_source_subject_when_memories_are_empty():
    st, cfg, src = _small()
    base = dict(pretrain_steps=30, adapt_steps=5, sim_threshold=-1.0, k=1, save_conf=1.0)  # targets store nothing
    runs = {fb: K.continual_run(st, "spiced", 0, K.RunConfig(fallback_source=fb, **base), src) for fb in (False, True)}
    assert all(n == 0 for n in runs[True]["stored"])
    hit_target = any(js[0] >= 4 for js in runs[False]["reactivated"])
    assert hit_target, "the test needs an arrival that reactivates an earlier target"
    assert not np.array_equal(runs[False]["A"], runs[True]["A"])


def test_source_reset_adapts_each_subject_from_the_source_model():
    st, cfg, src = _small()
    r = K.continual_run(st, "source-reset", 0, cfg, src)
    for i in range(4):
        cur = K.self_train_step(src, st.Xt[i], None, cfg.conf_threshold, cfg.adapt_steps, cfg.lr)
        assert r["A"][i].tolist() == [K.accuracy(cur, st.Xt[j], st.yt[j]) for j in range(4)]


# ---- the comparators added after the independent review --------------------------------------------------------

def test_centre_subjects_zero_means_keeps_labels_and_input():
    st, _, _ = _small()
    before = [X.copy() for X in st.Xs + st.Xt]
    cs = K.centre_subjects(st)
    for X, X0 in zip(cs.Xs + cs.Xt, st.Xs + st.Xt):
        assert np.allclose(X.mean(0), 0, atol=1e-12)
        assert np.allclose(X - X0, -X0.mean(0))  # only a per-subject constant is removed
    for a, b in zip(cs.ys + cs.yt, st.ys + st.yt):
        assert np.array_equal(a, b)
    assert all(np.array_equal(a, b) for a, b in zip(before, st.Xs + st.Xt)), "the input stream must not change"
    # an additive per-subject shift (a gain pattern in log band power) disappears
    shifted = K.Stream([X + 5.0 for X in st.Xs], st.ys, [X - 3.0 for X in st.Xt], st.yt, st.fam_s, st.fam_t)
    cs2 = K.centre_subjects(shifted)
    assert all(np.allclose(a, b) for a, b in zip(cs2.Xs + cs2.Xt, cs.Xs + cs.Xt))
    with pytest.raises(ValueError):
        K.centre_subjects(K.Stream([np.zeros(3)], [np.zeros(3, int)], [], [], st.fam_s[:1], st.fam_t[:0]))


def test_subject_centring_run_is_a_fixed_model_on_centred_features():
    st, cfg, src = _small()
    r = K.continual_run(st, "subject-centring", 0, cfg, src)
    cs = K.centre_subjects(st)
    model = K.pretrain(cs, cfg, 0)
    row = [K.accuracy(model, X, y) for X, y in zip(cs.Xt, cs.yt)]
    assert r["A"].shape == (4, 4) and np.allclose(r["A"], row)
    from repro.continual import forgetting
    assert forgetting(r["A"]) == 0.0
    # the source model passed in is not used
    r2 = K.continual_run(st, "subject-centring", 0, cfg, None)
    assert np.array_equal(r["A"], r2["A"])


def test_final_accuracy_by_family():
    A = np.array([[0.5, 0.1, 0.2], [0.3, 0.4, 0.6], [0.9, 0.2, 0.7]])
    own, other = K.final_accuracy_by_family(A, np.array([1, 0, 1]))
    assert own == pytest.approx((0.9 + 0.7) / 2) and other == pytest.approx(0.2)
    own, other = K.final_accuracy_by_family(A, np.array([2, 2, 2]))
    assert own == pytest.approx(0.6) and np.isnan(other)
    with pytest.raises(ValueError):
        K.final_accuracy_by_family(A, np.array([0, 1]))
    with pytest.raises(ValueError):
        K.final_accuracy_by_family(A[:2], np.array([0, 1, 2]))
