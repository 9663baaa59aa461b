"""Tests of the MAS / MASNet kernels (seeded numpy property loops; hypothesis is not installed)."""

import itertools

import networkx as nx
import numpy as np
import pytest
import torch

from repro.papers import masnet_monotone_sets as K


def test_hat_values_and_relu_form():
    t = torch.tensor([0.0, 0.5, 1.0, -3.0, 2.0, 0.25, 0.75])
    out = K.hat(t)
    assert torch.allclose(out, torch.tensor([0.0, 0.5, 0.0, 0.0, 0.0, 0.25, 0.25]))
    x = torch.linspace(-3, 4, 1001, dtype=torch.float64)
    relu_form = torch.relu(x) - 2 * torch.relu(x - 0.5) + torch.relu(x - 1)
    assert torch.allclose(K.hat(x), relu_form, atol=1e-12)
    assert bool((K.hat(x) >= 0).all()) and float(K.hat(x).max()) == pytest.approx(0.5)


def test_hat_rejects_non_tensor():
    with pytest.raises(ValueError):
        K.hat(np.array([0.5]))


def test_containment_score_zero_iff_leq():
    rng = np.random.default_rng(0)
    for _ in range(50):
        FS = torch.tensor(rng.uniform(0, 1, (8, 5)))
        FT = torch.tensor(rng.uniform(0, 1, (8, 5)))
        FT[:4] = FS[:4] + torch.tensor(rng.uniform(0, 1, (4, 5)))  # first half dominated
        s = K.containment_score(FS, FT)
        assert torch.equal(s == 0, (FS <= FT).all(1))
        assert bool((s <= 0).all())
    with pytest.raises(ValueError):
        K.containment_score(torch.zeros(3, 2), torch.zeros(3, 4))


@pytest.mark.parametrize("act", ["hat", "relu"])
def test_masnet_monotone_under_random_additions(act):
    """Property loop: F(S) <= F(S + extra elements) for random weights, sets and additions."""
    rng = np.random.default_rng(1)
    for trial in range(20):
        torch.manual_seed(trial)
        net = K.MASNetEmbed(3, 16, phi_hidden=8 if trial % 2 else None, act=act)
        with torch.no_grad():
            for p in net.parameters():
                p.add_(torch.randn_like(p))
        X = torch.tensor(rng.normal(0, 2, (64, 12, 3)), dtype=torch.float32)
        k = rng.integers(0, 12, 64)
        e = rng.integers(1, 13 - k)
        pos = np.arange(12)
        mS = torch.tensor(pos < k[:, None], dtype=torch.float32)
        mT = torch.tensor(pos < (k + e)[:, None], dtype=torch.float32)
        assert K.monotonicity_violations(net, X, mS, mT) == 0
        FS, FT = net(X, mS), net(X, mT)
        assert bool((FS <= FT + 1e-6).all()) and bool((FS >= 0).all())


def test_deepsets_is_not_monotone_and_violations_counter_fails():
    torch.manual_seed(0)
    ds = K.DeepSetsPair(2, 16)
    X, mS, mT = K.random_superset_pairs(200, K.make_ground_pool(50), seed=0)
    assert K.monotonicity_violations(ds.embed, X, mS, mT) > 0
    with pytest.raises(ValueError):
        K.monotonicity_violations(ds.embed, X, mT, mS)


def test_masnet_permutation_invariant_and_ignores_padding():
    torch.manual_seed(0)
    net = K.MASNetEmbed(2, 8, phi_hidden=4)
    X = torch.randn(5, 7, 2)
    m = torch.ones(5, 7)
    m[:, 5:] = 0
    perm = torch.randperm(5)
    F = net(X, m)
    assert torch.allclose(net(X[:, perm.tolist() + [5, 6]], m), F, atol=1e-6)
    X2 = X.clone()
    X2[:, 5:] = 100.0  # padded entries changed
    assert torch.allclose(net(X2, m), F)
    with pytest.raises(ValueError):
        net(X, torch.ones(5, 6))
    with pytest.raises(ValueError):
        K.MASNetEmbed(2, 8, act="tanh")


def test_gradcheck_float64():
    torch.manual_seed(0)
    net = K.MASNetEmbed(2, 6, phi_hidden=5).double()
    X = torch.randn(3, 4, 2, dtype=torch.float64, requires_grad=True)
    m = torch.ones(3, 4, dtype=torch.float64)
    assert torch.autograd.gradcheck(lambda x: net(x, m), (X,))
    FS = torch.rand(4, 5, dtype=torch.float64, requires_grad=True)
    FT = torch.rand(4, 5, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(K.containment_score, (FS, FT))
    t = torch.tensor([-0.3, 0.2, 0.7, 1.4], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(K.hat, (t,))


def test_count_embedding_is_mas_on_power_set_and_multisets():
    n = 5
    ok, ce = K.is_mas_bruteforce(lambda c: K.count_embedding(np.repeat(np.arange(n), c), n), K.all_multisets(n, 1))
    assert ok and ce is None
    ok, _ = K.is_mas_bruteforce(lambda c: K.count_embedding(np.repeat(np.arange(n), c), n), K.all_multisets(n, 2))
    assert ok
    assert K.count_embedding([0, 0, 3], 4).tolist() == [2, 0, 0, 1]
    with pytest.raises(ValueError):
        K.count_embedding([5], 4)


def test_is_mas_bruteforce_finds_counterexamples():
    sets = K.all_multisets(4, 1)
    ok, ce = K.is_mas_bruteforce(lambda c: np.array([c.sum()]), sets)  # cardinality: monotone, not separating
    assert not ok and ce[2] == "separating"
    ok, ce = K.is_mas_bruteforce(lambda c: -c.astype(float), sets)  # not monotone
    assert not ok and ce[2] == "monotone"
    rng = np.random.default_rng(0)
    for _ in range(20):  # nonnegative linear sums into m < n dimensions always fail (brute force)
        ok, _ = K.is_mas_bruteforce(K.linear_sum_embedding(rng.uniform(0, 1, (3, 4))), sets)
        assert not ok
    with pytest.raises(ValueError):
        K.is_mas_bruteforce(lambda c: c, np.zeros(3))


def test_dimension_bound_matches_order_dimension():
    for n in range(1, 6):
        assert K.mas_dimension_feasible(n, n)
        if n >= 2:
            assert not K.mas_dimension_feasible(n, n - 1)
    with pytest.raises(ValueError):
        K.mas_dimension_feasible(0, 1)


def test_dimension_bound_cross_check_linear_extensions_n3():
    """Independent check for n = 3: no two linear extensions of the subset lattice intersect to it; three do."""
    n = 3
    G = nx.DiGraph()
    G.add_nodes_from(range(8))
    G.add_edges_from((s, s | 1 << v) for s in range(8) for v in range(n) if not s >> v & 1)
    exts = [np.argsort(o) for o in nx.all_topological_sorts(G)]  # rank of each subset
    assert len(exts) == 48
    R = np.array(exts)
    sub = np.array([[(a & b) == a for b in range(8)] for a in range(8)])
    leq = R[:, :, None] <= R[:, None, :]  # (L, 8, 8)
    two = any(np.array_equal(leq[i] & leq[j], sub) for i, j in itertools.combinations(range(48), 2))
    assert not two
    assert any(np.array_equal(leq[i] & leq[j] & leq[k], sub) for i, j, k in itertools.combinations(range(48), 3))


def test_make_containment_pairs_labels_are_correct():
    for ground in ("r2", "finite"):
        d = K.make_containment_pairs(60, ground, size_range=(3, 8), n_ground=40, seed=3)
        for b in range(60):
            S = {tuple(np.round(x, 5)) for x in d["XS"][b][d["mS"][b] > 0].numpy()}
            T = {tuple(np.round(x, 5)) for x in d["XT"][b][d["mT"][b] > 0].numpy()}
            assert (S <= T) == bool(d["y"][b])
        assert 3 <= int(d["mS"].sum(1).min()) and int(d["mS"].sum(1).max()) <= 8
    with pytest.raises(ValueError):
        K.make_containment_pairs(10, "sphere")
    with pytest.raises(ValueError):
        K.make_containment_pairs(10, "finite", size_range=(5, 15), n_ground=12)


def test_training_reduces_loss_and_counts_parameters():
    tr = K.make_containment_pairs(200, "r2", n_ground=60, seed=0)
    torch.manual_seed(0)
    m = K.MASNetPair(2, 8, 4)
    assert K.n_parameters(m) == (2 * 4 + 4) + (4 * 4 + 4) + 8 * 4 + 8 + 8
    L = K.train_pair_model(m, tr, 60, lr=0.01, batch_size=64)
    assert np.mean(L[-10:]) < np.mean(L[:10])


def test_deepsets_baseline_learns_an_easy_instance():
    """Guard against a broken baseline: on small one-hot sets with random negatives DeepSets beats chance."""
    from sklearn.metrics import average_precision_score

    kw = dict(n_ground=24, size_range=(2, 6), extra_range=(1, 3), hard_negative=False)
    tr = K.make_containment_pairs(2000, "finite", seed=0, **kw)
    te = K.make_containment_pairs(1000, "finite", seed=1, **kw)
    torch.manual_seed(0)
    ds = K.DeepSetsPair(24, 32)
    K.train_pair_model(ds, tr, 400, lr=0.01, batch_size=128)
    with torch.no_grad():
        s = ds(te["XS"], te["mS"], te["XT"], te["mT"]).numpy()
    assert average_precision_score(te["y"].numpy(), s) > 0.6


def test_masnet_monotone_by_construction_property():
    """Moved from the page (issue 10): MASNet's monotonicity is an identity of the construction (a sum of
    nonnegative hat terms), so it is a unit test, checked on trained-like random weights and random additions."""
    rng = np.random.default_rng(7)
    pool = K.make_ground_pool(60, seed=3)
    for trial in range(5):
        torch.manual_seed(trial)
        m = K.MASNetPair(2, 16, 8)
        with torch.no_grad():
            for p in m.parameters():
                p.mul_(float(rng.uniform(0.5, 3.0)))
        X, mS, mT = K.random_superset_pairs(300, pool, seed=trial)
        assert K.monotonicity_violations(m.embed, X, mS, mT) == 0


def test_signed_hat_ablation_is_not_monotone():
    t = torch.linspace(-2, 3, 501)
    assert torch.allclose(K.signed_hat(t), K.hat(t) - 0.25)
    assert float(K.signed_hat(t).min()) == pytest.approx(-0.25) and float(K.signed_hat(t).max()) == pytest.approx(0.25)
    torch.manual_seed(0)
    net = K.MASNetEmbed(2, 16, 8, act="signed_hat")
    X, mS, mT = K.random_superset_pairs(200, K.make_ground_pool(60, seed=3), seed=0)
    assert K.monotonicity_violations(net, X, mS, mT) > 0
    with pytest.raises(ValueError):
        K.MASNetEmbed(2, 4, act="tanh")


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_linear_mas_embedding_exists_iff_m_at_least_n(n):
    subsets = K.all_multisets(n, 1)
    for m in range(1, n + 2):
        W = K.linear_mas_embedding(n, m)
        if m < n:
            assert W is None
        else:
            assert W is not None and W.shape == (m, n) and bool((W >= 0).all())
            ok, ce = K.is_mas_bruteforce(K.linear_sum_embedding(W), subsets)
            assert ok, ce


def test_linear_mas_embedding_agrees_with_random_search_and_rejects_bad_input():
    # brute force agrees where the LP says no map exists: random nonnegative W in R^(n-1) all fail
    rng = np.random.default_rng(2)
    subsets = K.all_multisets(4, 1)
    assert all(not K.is_mas_bruteforce(K.linear_sum_embedding(rng.exponential(1, (3, 4)) ** 3), subsets)[0]
               for _ in range(50))
    with pytest.raises(ValueError):
        K.linear_mas_embedding(0, 1)
    with pytest.raises(ValueError):
        K.linear_mas_embedding(3, 0)


# ----------------------------------------------------------------------------- official losses and options


def test_official_set_loss_by_hand_and_validation():
    FS = torch.tensor([[0.2, 0.5], [0.9, 0.1]], dtype=torch.float64)
    FT = torch.tensor([[0.6, 0.55], [0.3, 0.4]], dtype=torch.float64)
    y = torch.tensor([1.0, 0.0], dtype=torch.float64)
    # row 0 positive: max(relu(.1 + .2 - .6), relu(.1 + .5 - .55)) = .05; row 1 negative: min(relu(.1 + .3 - .9),
    # relu(.1 + .4 - .1)) = 0
    assert float(K.official_set_loss(FS, FT, y)) == pytest.approx(0.05 / 2)
    # labels swapped: row 0 negative, min(.5, .15) = .15; row 1 positive, max(.7, 0) = .7
    assert float(K.official_set_loss(FS, FT, 1 - y)) == pytest.approx((0.15 + 0.7) / 2)
    # ours on the same input: positive pays sum relu(FS - FT) = 0, negative relu(1 - (0.6 + 0)) = 0.4
    assert float(K.hinge_containment_loss(FS, FT, y)) == pytest.approx(0.4 / 2)
    with pytest.raises(ValueError):
        K.official_set_loss(FS, FT, torch.ones(3))
    with pytest.raises(ValueError):
        K.hinge_containment_loss(FS, FT[:, :1], y)


def test_pair_loss_options_and_training_with_official_choices():
    tr = K.make_containment_pairs(200, "r2", n_ground=60, seed=0)
    torch.manual_seed(0)
    m = K.MASNetPair(2, 8, 4, init="official", phi_shape="official")
    assert m.net.phi[-1].out_features == 2 and m.net.a.shape == (8, 2)
    assert bool((m.net.a >= 0).all()) and bool((m.net.b >= 0).all()) and bool((m.net.b <= 1).all())
    with torch.no_grad():
        FS, FT = m.embed(tr["XS"], tr["mS"]), m.embed(tr["XT"], tr["mT"])
        assert float(K.pair_loss(m, tr, loss="official")) == pytest.approx(float(K.official_set_loss(FS, FT, tr["y"])))
        assert float(K.pair_loss(m, tr)) == pytest.approx(float(K.hinge_containment_loss(FS, FT, tr["y"])))
    L = K.train_pair_model(m, tr, 60, lr=0.01, batch_size=64, loss="official")
    assert np.mean(L[-10:]) < np.mean(L[:10])
    with pytest.raises(ValueError):
        K.pair_loss(K.DeepSetsPair(2, 4), tr, loss="official")
    with pytest.raises(ValueError):
        K.pair_loss(m, tr, loss="bce")
    with pytest.raises(ValueError):
        K.MASNetEmbed(2, 4, 3, init="xavier")


def test_deepsets_containment_model_scores_and_is_not_monotone():
    torch.manual_seed(0)
    ds = K.DeepSetsContainment(2, 16, 8)
    X, mS, mT = K.random_superset_pairs(200, K.make_ground_pool(50), seed=0)
    s = ds(X, mS, X, mT)
    assert s.shape == (200,) and bool((s <= 0).all())
    assert K.monotonicity_violations(ds.embed, X, mS, mT) > 0
    tr = K.make_containment_pairs(200, "r2", n_ground=60, seed=0)
    L = K.train_pair_model(ds, tr, 60, lr=0.01, batch_size=64, loss="official")
    assert np.mean(L[-10:]) < np.mean(L[:10])


# ----------------------------------------------------------------------------- golden tests (official code)

_GOLDEN = None


def _golden(name):
    global _GOLDEN
    if _GOLDEN is None:
        import json
        import pathlib

        _GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "masnet-monotone-sets.json").read_text())
        assert _GOLDEN["commit"] == "86fd09951d19c0cff9b8e04ed5a1011987a5f0f9"
    return next(c for c in _GOLDEN["cases"] if c["name"] == name)


def _t(x):
    return torch.tensor(x, dtype=torch.float64)


def test_golden_hat():
    case = _golden("hat")
    out = K.hat(_t(case["input"]["t"]))
    assert torch.allclose(out, _t(case["output"]), rtol=0, atol=case["tol"]["abs"])
    assert 0 < int((out > 0).sum()) < out.numel()  # the input covers both the support and outside it


def _embed_with(d, C, a, b, c, phi_hidden=None, phi_shape="ours"):
    net = K.MASNetEmbed(d, C, phi_hidden=phi_hidden, phi_shape=phi_shape).double()
    with torch.no_grad():
        net.a.copy_(_t(a))
        net.b.copy_(_t(b))
        net.log_c.copy_(torch.log(_t(c)))
    return net


def test_golden_set_embedding():
    case = _golden("set_embedding")
    inp = case["input"]
    X = _t(inp["X"])
    net = _embed_with(X.shape[2], len(inp["b"]), inp["a"], inp["b"], inp["c"])
    with torch.no_grad():
        out = net(X, torch.ones(X.shape[:2], dtype=torch.float64))
    ref = _t(case["output"])
    assert torch.allclose(out, ref, rtol=0, atol=case["tol"]["abs"])
    assert float((out - ref).abs().max()) < 1e-5 and float(ref.abs().max()) > 0.5


def test_golden_set_embedding_with_official_mlp_and_mask():
    case = _golden("set_embedding_mlp_mask")
    inp, sd = case["input"], case["input"]["state_dict"]
    X, mask = _t(inp["X"]), _t(inp["mask"])
    h, d = len(sd["mlp.model.0.bias"]), X.shape[2]
    net = _embed_with(d, len(sd["special_layer.b"]), sd["special_layer.a"], sd["special_layer.b"],
                      sd["special_layer.c"], phi_hidden=h, phi_shape="official")
    with torch.no_grad():
        for ours, theirs in ((0, "mlp.model.0"), (2, "mlp.model.2")):
            net.phi[ours].weight.copy_(_t(sd[f"{theirs}.weight"]))
            net.phi[ours].bias.copy_(_t(sd[f"{theirs}.bias"]))
    with torch.no_grad():
        out, out2 = net(X, mask), net(_t(inp["X2"]), _t(inp["mask2"]))
    assert torch.allclose(out, _t(case["output"]), rtol=0, atol=case["tol"]["abs"])
    # the official forward returns the first set's embedding twice (recorded in the notes); ours embeds the second
    assert case["notes"]["forward_returns_first_embedding_twice"]
    assert torch.allclose(out2, _t(case["notes"]["embedding_of_second_set"]), rtol=0, atol=case["tol"]["abs"])
    assert not torch.allclose(out2, _t(case["notes"]["second_output_of_forward"]), atol=1e-3)


def test_golden_set_loss():
    case = _golden("set_loss")
    inp = case["input"]
    FS, FT, y = _t(inp["FS"]), _t(inp["FT"]), _t(inp["y"])
    ours = K.official_set_loss(FS, FT, y, delta=inp["delta"])
    assert float(ours) == pytest.approx(case["output"], rel=0, abs=case["tol"]["abs"])
    assert case["notes"]["real_data_set_loss_same_input"] == pytest.approx(case["output"], abs=1e-12)
    # our own loss on the same embeddings is a different number (the departure the page reports)
    hinge = float(K.hinge_containment_loss(FS, FT, y))
    assert hinge == pytest.approx(case["notes"]["our_hinge_loss_same_input_margin_1"], abs=1e-12)
    assert abs(hinge - case["output"]) > 0.05


def test_golden_predict_is_our_score_thresholded():
    case = _golden("predict")
    s = _golden("set_loss")["input"]
    v = -K.containment_score(_t(s["FS"]), _t(s["FT"]))
    assert float((v - case["input"]["delta"]).abs().min()) > 1e-9
    assert (v < case["input"]["delta"]).long().tolist() == case["output"]


def test_nearest_neighbour_containment_score():
    XT = torch.tensor([[[0.0, 0.0], [1.0, 0.0], [9.0, 9.0]]])
    mT = torch.tensor([[1.0, 1.0, 0.0]])  # the third point is padding
    XS = torch.tensor([[[1.0, 0.0], [0.0, 3.0]]])
    assert float(K.nearest_neighbour_containment_score(XS, torch.tensor([[1.0, 0.0]]), XT, mT)) == 0.0
    assert float(K.nearest_neighbour_containment_score(XS, torch.tensor([[1.0, 1.0]]), XT, mT)) == pytest.approx(-3.0)
    d = K.make_containment_pairs(200, "r2", n_ground=60, seed=0)
    sc = K.nearest_neighbour_containment_score(d["XS"], d["mS"], d["XT"], d["mT"])
    assert bool((sc[d["y"] == 1] == 0).all()) and bool((sc[d["y"] == 0] < 0).all())
    with pytest.raises(ValueError):
        K.nearest_neighbour_containment_score(XS, torch.zeros(1, 2), XT, mT)


def test_grid_histogram_embedding_counts_and_monotone():
    X = torch.tensor([[[0.1, 0.1], [0.9, 0.9], [0.95, 0.1], [0.5, 0.5]]])
    m = torch.tensor([[1.0, 1.0, 1.0, 0.0]])
    H = K.grid_histogram_embedding(X, m, (0.0, 0.0), (1.0, 1.0), cells=2)
    assert H.tolist() == [[1.0, 0.0, 1.0, 1.0]]  # cells (0,0), (1,1), (1,0); the padded point is not counted
    d = K.make_containment_pairs(40, "r2", n_ground=30, seed=1)
    pool = K.make_ground_pool(30, seed=10_000)
    lo, hi = pool.min(0) - 1e-6, pool.max(0) + 1e-6
    HS, HT = (K.grid_histogram_embedding(d[x], d[mk], lo, hi) for x, mk in (("XS", "mS"), ("XT", "mT")))
    pos = d["y"] > 0.5
    assert bool((K.containment_score(HS, HT)[pos] == 0).all())  # monotone: contained pairs score 0
    with pytest.raises(ValueError):
        K.grid_histogram_embedding(X, m, (1.0, 0.0), (0.0, 1.0))
