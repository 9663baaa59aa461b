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
