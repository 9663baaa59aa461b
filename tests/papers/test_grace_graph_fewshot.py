"""Unit tests of :mod:`repro.papers.grace_graph_fewshot`, the kernels of ``notebooks/grace-graph-fewshot.py``."""

import inspect

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
import torch

from repro.papers import grace_graph_fewshot as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/grace_graph_fewshot.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def graph(h=(0.7,), n=240, C=6, stubs=4, f=5, noise=1.0, seed=0):
    return K.make_mixed_homophily_graph(n, C, h, stubs, f, noise, np.random.default_rng(seed))


# ----------------------------------------------------------------------------- the generator
def test_generator_layout_symmetry_and_degrees():
    g = graph(h=(0.9, 0.1), n=240, C=6, stubs=4)
    A, y, r = g["A"], g["y"], g["region"]
    assert A.shape == (240, 240) and abs(A - A.T).max() == 0 and A.diagonal().sum() == 0
    np.testing.assert_array_equal(y, np.arange(240) % 6)
    assert np.bincount(r).tolist() == [120, 120]
    deg = np.asarray(A.sum(1)).ravel()
    assert deg.min() >= 4 and deg.sum() == 2 * 4 * 240  # each stub gives weight 1 to both ends
    rows, cols = A.nonzero()
    assert np.all(r[rows] == r[cols]), "edges stay inside their region"
    np.testing.assert_allclose(g["X"].mean(0), g["means"][y].mean(0), atol=0.3)


@pytest.mark.parametrize("h", [0.0, 0.3, 0.8, 1.0])
def test_edge_homophily_matches_its_target_in_expectation(h):
    vals = [K.edge_homophily(graph(h=(h,), n=600, C=6, stubs=5, seed=s)["A"], np.arange(600) % 6) for s in range(5)]
    # each graph has 3000 stubs, each intra with probability h: standard error sqrt(h(1-h)/15000) <= 0.0041
    assert abs(np.mean(vals) - h) < 0.02
    if h in (0.0, 1.0):
        assert np.all(np.array(vals) == h)


def test_mixed_graph_local_homophily_is_bimodal_by_region():
    g = graph(h=(1.0, 0.0), n=480, C=6, stubs=5)
    lh = K.local_homophily(g["A"], g["y"])
    np.testing.assert_array_equal(lh[g["region"] == 0], 1.0)
    np.testing.assert_array_equal(lh[g["region"] == 1], 0.0)
    assert K.edge_homophily(g["A"], g["y"]) == pytest.approx(0.5)


def test_local_homophily_is_one_on_a_block_diagonal_graph_and_brute_force_elsewhere():
    blocks = sp.block_diag([np.ones((3, 3)) - np.eye(3)] * 2).tocsr()
    np.testing.assert_array_equal(K.local_homophily(blocks, np.array([0, 0, 0, 1, 1, 1])), 1.0)
    A = sp.csr_matrix(np.array([[0, 2, 1, 0], [2, 0, 0, 1], [1, 0, 0, 0], [0, 1, 0, 0]], float))
    y = np.array([0, 0, 1, 1])
    np.testing.assert_allclose(K.local_homophily(A, y), [2 / 3, 2 / 3, 0, 0])
    assert K.edge_homophily(A, y) == pytest.approx(4 / 8)
    iso = sp.csr_matrix((3, 3))
    assert np.isnan(K.local_homophily(iso, np.array([0, 1, 0]))).all()


# ----------------------------------------------------------------------------- filters
def test_normalized_adjacency_matches_networkx_and_its_spectrum_lies_in_minus_one_one():
    g = graph(h=(0.5,), n=120, C=4, stubs=3)
    A_hat = K.normalized_adjacency(g["A"])
    G = nx.from_scipy_sparse_array(g["A"])
    L_nx = nx.normalized_laplacian_matrix(G, weight="weight").toarray()
    np.testing.assert_allclose(np.eye(120) - A_hat.toarray(), L_nx, atol=1e-12)
    ev = np.linalg.eigvalsh(A_hat.toarray())
    assert ev.min() >= -1 - 1e-10 and ev.max() <= 1 + 1e-10
    assert ev.max() == pytest.approx(1.0, abs=1e-10)  # D^{1/2} 1 is an eigenvector of eigenvalue 1


def test_filters_act_on_laplacian_eigenvectors_as_one_minus_lambda_to_the_k_and_lambda():
    g = graph(h=(0.3,), n=96, C=4, stubs=3)
    A_hat = K.normalized_adjacency(g["A"])
    lam, U = np.linalg.eigh(np.eye(96) - A_hat.toarray())
    for k in (0, 1, 2, 3):
        np.testing.assert_allclose(K.low_pass(U, A_hat, k), U * (1 - lam) ** k, atol=1e-10)
    np.testing.assert_allclose(K.high_pass(U, A_hat), U * lam, atol=1e-10)


def test_filters_against_dense_numpy():
    g = graph(h=(0.6,), n=60, C=3, stubs=2, f=4)
    A = g["A"].toarray()
    d = A.sum(1)
    Ah = A / np.sqrt(np.outer(d, d))
    X = g["X"]
    np.testing.assert_allclose(K.low_pass(X, K.normalized_adjacency(g["A"]), 2), Ah @ Ah @ X, atol=1e-12)
    np.testing.assert_allclose(K.high_pass(X, K.normalized_adjacency(g["A"])), X - Ah @ X, atol=1e-12)


def test_high_pass_annihilates_and_low_pass_preserves_constants_on_a_regular_graph():
    A = nx.to_scipy_sparse_array(nx.random_regular_graph(4, 30, seed=1), format="csr").astype(float)
    A_hat = K.normalized_adjacency(A)
    one = np.ones((30, 2))
    np.testing.assert_allclose(K.high_pass(one, A_hat), 0, atol=1e-12)
    np.testing.assert_allclose(K.low_pass(one, A_hat, 3), one, atol=1e-12)


def test_isolated_nodes_get_zero_rows():
    A = sp.csr_matrix(np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]], float))
    A_hat = K.normalized_adjacency(A).toarray()
    np.testing.assert_array_equal(A_hat[2], 0)
    np.testing.assert_allclose(A_hat[:2, :2], [[0, 1], [1, 0]])


def test_gate_features_are_standardised_and_track_homophily():
    g = graph(h=(1.0, 0.0), n=480, C=6, stubs=5, f=8, noise=0.5)
    Z = K.gate_features(g["X"], g["A"])
    assert Z.shape == (480, 3)
    np.testing.assert_allclose(Z.mean(0), 0, atol=1e-12)
    np.testing.assert_allclose(Z.std(0), 1, atol=1e-12)
    assert Z[g["region"] == 0, 1].mean() > Z[g["region"] == 1, 1].mean() + 1  # smoother where homophilous


def test_filter_bank_is_the_rms_normalised_filters():
    g = graph(h=(0.4,), n=120, C=4, stubs=3, f=5)
    fb = K.filter_bank(g["X"], g["A"], k=2)
    A_hat = K.normalized_adjacency(g["A"])
    for key, ref in (("XR", g["X"]), ("XL", K.low_pass(g["X"], A_hat, 2)), ("XH", K.high_pass(g["X"], A_hat))):
        assert (fb[key] ** 2).sum(1).mean() == pytest.approx(1.0)
        np.testing.assert_allclose(fb[key] * np.linalg.norm(ref) / np.sqrt(120), ref, atol=1e-12)
    np.testing.assert_array_equal(fb["Z"], K.gate_features(g["X"], g["A"]))


# ----------------------------------------------------------------------------- episodes, prototypes, calibration
def test_episode_sampler_counts_and_classes():
    table = K.class_table(120, 6)
    assert table.shape == (6, 20) and np.all(table % 6 == np.arange(6)[:, None])
    s, q = K.sample_episodes(table, [1, 3, 4, 5], 3, 2, 4, 50, np.random.default_rng(0), batch=2)
    assert s.shape == (2, 50, 3, 2) and q.shape == (2, 50, 3, 4)
    cls = np.concatenate([s, q], -1) % 6
    assert np.all(cls == cls[..., :1]), "one class per way"
    assert np.all(np.isin(cls, [1, 3, 4, 5]))
    ways = cls[..., 0]
    assert np.all(np.sort(ways, -1)[..., 1:] != np.sort(ways, -1)[..., :-1]), "distinct classes per episode"
    nodes = np.concatenate([s, q], -1).reshape(2, 50, -1)
    assert all(np.unique(e).size == e.size for e in nodes.reshape(-1, nodes.shape[-1])), "no node twice"


def test_prototypes_are_class_means_and_logits_brute_force():
    rng = np.random.default_rng(3)
    sup = torch.tensor(rng.standard_normal((2, 4, 3, 5)))
    qry = torch.tensor(rng.standard_normal((2, 7, 5)))
    P = K.prototypes(sup)
    np.testing.assert_allclose(P.numpy(), sup.numpy().mean(2))
    L = K.proto_logits(P, qry).numpy()
    brute = -((qry.numpy()[:, :, None, :] - P.numpy()[:, None, :, :]) ** 2).sum(-1)
    np.testing.assert_allclose(L, brute, atol=1e-12)


def test_calibration_closed_forms():
    rng = np.random.default_rng(4)
    sup = torch.tensor(rng.standard_normal((3, 2, 4)))
    qry = torch.tensor(rng.standard_normal((9, 4)))
    p0, q0 = K.calibrate_prototypes(sup, qry, iters=0)
    np.testing.assert_allclose(p0.numpy(), sup.numpy().mean(1))
    np.testing.assert_allclose(q0.numpy().mean(0), sup.numpy().reshape(-1, 4).mean(0), atol=1e-12)  # shifted
    pu, qu = K.calibrate_prototypes(sup, qry, iters=1, uniform=True)
    expect = (sup.numpy().sum(1) + qu.numpy().sum(0) / 3) / (2 + 9 / 3)
    np.testing.assert_allclose(pu.numpy(), expect, atol=1e-12)
    # hard assignments (large scale) with queries equal to the prototypes keep the prototypes
    P = sup.mean(1)
    pc, _ = K.calibrate_prototypes(sup, P.repeat(2, 1), scale=1e6, iters=1)
    np.testing.assert_allclose(pc.numpy(), P.numpy(), atol=1e-9)


def test_episode_accuracy_is_perfect_on_separated_embeddings_and_chance_level_on_noise():
    table = K.class_table(200, 10)
    rng = np.random.default_rng(5)
    s, q = K.sample_episodes(table, np.arange(10), 5, 2, 6, 40, rng, batch=2)
    emb = torch.tensor(np.eye(10)[np.arange(200) % 10] * 10.0)[None].repeat(2, 1, 1)
    for cal in (None, "cal", "uniform", "cl2n"):
        assert K.episode_accuracy(emb, s, q, calibrate=cal).min() == 1.0
    noise = torch.tensor(rng.standard_normal((2, 200, 10)))
    acc = K.episode_accuracy(noise, s, q)
    assert acc.shape == (2, 40) and abs(acc.mean() - 0.2) < 0.08
    np.testing.assert_array_equal(K.episode_accuracy(noise, s, q, chunk=7), acc)
    np.testing.assert_array_equal(K.episode_accuracy(noise, s, q, "cal", chunk=3), K.episode_accuracy(noise, s, q, "cal"))


# ----------------------------------------------------------------------------- the model
def test_modes_compute_their_formulas():
    G, M, f, d = 2, 7, 4, 3
    gen = torch.Generator().manual_seed(0)
    XR, XL, XH = (torch.randn(G, M, f, generator=gen, dtype=torch.float64) for _ in range(3))
    Z = torch.randn(G, M, 3, generator=gen, dtype=torch.float64)
    m = {mode: K.SpectralExperts([mode] * G, f, d, generator=torch.Generator().manual_seed(1)) for mode in K.MODES}
    e = {k: v(XR, XL, XH, Z).detach() for k, v in m.items()}
    W_L, W_H = m["mix"].W_L.detach(), m["mix"].W_H.detach()
    torch.testing.assert_close(e["mlp"], XR @ W_L)
    torch.testing.assert_close(e["low"], XL @ W_L)
    torch.testing.assert_close(e["high"], XH @ W_H)
    torch.testing.assert_close(e["mix"], 0.5 * (XL @ W_L) + 0.5 * (XH @ W_H))
    torch.testing.assert_close(e["grace"], e["mix"])  # the gate starts at 1/2
    with torch.no_grad():
        m["grace"].b_2.fill_(50.0)
    torch.testing.assert_close(m["grace"](XR, XL, XH, Z).detach(), e["low"])
    # one model holding several kinds, and a selection of its sets
    both = K.SpectralExperts(["high", "mlp"], f, d, generator=torch.Generator().manual_seed(1))
    out = both(XR, XL, XH, Z).detach()
    torch.testing.assert_close(out[0], XH[0] @ both.W_H[0].detach())
    torch.testing.assert_close(out[1], XR[1] @ both.W_L[1].detach())
    torch.testing.assert_close(both(XR[:1], XL[:1], XH[:1], Z[:1], sets=[1]).detach()[0], XR[0] @ both.W_L[1].detach())


def test_comparator_modes_compute_their_formulas():
    G, M, f, d = 2, 7, 4, 3
    gen = torch.Generator().manual_seed(0)
    XR, XL, XH = (torch.randn(G, M, f, generator=gen, dtype=torch.float64) for _ in range(3))
    Z = torch.randn(G, M, 3, generator=gen, dtype=torch.float64)
    m = K.SpectralExperts(["gmix", "concat"], f, d, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():  # a gate that is not constant in z, so that feeding it z = 0 matters
        m.w_2.normal_(generator=torch.Generator().manual_seed(2))
        m.b_1.normal_(generator=torch.Generator().manual_seed(3))
    out = m(XR, XL, XH, Z).detach()
    W_L, W_H, W_R = m.W_L.detach(), m.W_H.detach(), m.W_R.detach()
    g0 = torch.sigmoid(torch.tanh(m.b_1[0]) @ m.w_2[0] + m.b_2[0]).detach()  # the gate at z = 0: one weight
    torch.testing.assert_close(out[0], g0 * (XL[0] @ W_L[0]) + (1 - g0) * (XH[0] @ W_H[0]))
    torch.testing.assert_close(out[1], 0.5 * (XL[1] @ W_L[1]) + 0.5 * (XH[1] @ W_H[1]) + 0.5 * (XR[1] @ W_R[1]))
    # gmix ignores the node statistics; a grace set with the same weights does not
    torch.testing.assert_close(m(XR, XL, XH, torch.randn_like(Z)).detach()[0], out[0])
    g = K.SpectralExperts(["grace"], f, d)
    with torch.no_grad():
        for name in ("W_L", "W_H", "W_1", "b_1", "w_2", "b_2"):
            getattr(g, name).copy_(getattr(m, name)[:1])
    assert (g(XR[:1], XL[:1], XH[:1], Z[:1]).detach()[0] - out[0]).abs().max() > 1e-6
    # gradients: the raw branch trains for concat only
    both = K.SpectralExperts(["grace", "concat"], f, d, generator=torch.Generator().manual_seed(1))
    both(XR, XL, XH, Z).pow(2).sum().backward()
    assert both.W_R.grad[0].abs().max() == 0 and both.W_R.grad[1].abs().max() > 0


def test_adding_the_raw_branch_left_the_other_draws_unchanged():
    G, f, d = 3, 5, 4
    m = K.SpectralExperts(["grace", "mix", "low"], f, d, generator=torch.Generator().manual_seed(7))
    gen = torch.Generator().manual_seed(7)
    for name, shape, fan in (("W_L", (G, f, d), f), ("W_H", (G, f, d), f), ("W_1", (G, 3, 8), 3)):
        torch.testing.assert_close(getattr(m, name).detach(),
                                   torch.randn(*shape, generator=gen, dtype=torch.float64) / np.sqrt(fan))
    assert not m.has_concat and not m.has_gmix


def test_centre_and_normalise_closed_form_and_invariances():
    rng = np.random.default_rng(6)
    sup = torch.tensor(rng.standard_normal((2, 3, 2, 4)))
    qry = torch.tensor(rng.standard_normal((2, 9, 4)))
    P, Q = K.centre_and_normalise(sup, qry)
    s, q = sup.numpy(), qry.numpy()
    c = np.concatenate([s.reshape(2, 6, 4), q], 1).mean(1)
    sn = (s - c[:, None, None]) / np.linalg.norm(s - c[:, None, None], axis=-1, keepdims=True)
    qn = (q - c[:, None]) / np.linalg.norm(q - c[:, None], axis=-1, keepdims=True)
    np.testing.assert_allclose(P.numpy(), sn.mean(2), atol=1e-12)
    np.testing.assert_allclose(Q.numpy(), qn, atol=1e-12)
    # invariant to a common shift and a positive scale of every embedding of the episode
    shift = torch.tensor(rng.standard_normal(4))
    P2, Q2 = K.centre_and_normalise(3.0 * sup + shift, 3.0 * qry + shift)
    torch.testing.assert_close(P2, P)
    torch.testing.assert_close(Q2, Q)
    with pytest.raises(ValueError, match="disagree"):
        K.centre_and_normalise(torch.zeros(3, 2, 4), torch.zeros(5, 3))


def test_random_gate_is_the_formula_with_its_weights_drawn_in_order():
    Z = np.random.default_rng(8).standard_normal((50, 3))
    g = K.random_gate(Z, 8, torch.Generator().manual_seed(4))
    gen = torch.Generator().manual_seed(4)
    W_1 = torch.randn(3, 8, generator=gen, dtype=torch.float64) / np.sqrt(3)
    w_2 = torch.randn(8, generator=gen, dtype=torch.float64) / np.sqrt(8)
    np.testing.assert_allclose(g, torch.sigmoid(torch.tanh(torch.tensor(Z) @ W_1) @ w_2).numpy(), atol=1e-14)
    assert g.shape == (50,) and np.all((g > 0) & (g < 1)) and g.std() > 0
    np.testing.assert_array_equal(g, K.random_gate(Z, 8, torch.Generator().manual_seed(4)))
    with pytest.raises(ValueError, match="Z must"):
        K.random_gate(np.zeros(5), 8, torch.Generator())
    with pytest.raises(ValueError, match="gate_hidden"):
        K.random_gate(Z, 0, torch.Generator())


def test_unused_parameters_get_zero_gradients():
    gen = torch.Generator().manual_seed(0)
    XR, XL, XH = (torch.randn(3, 5, 4, generator=gen, dtype=torch.float64) for _ in range(3))
    Z = torch.randn(3, 5, 3, generator=gen, dtype=torch.float64)
    m = K.SpectralExperts(["mlp", "high", "grace"], 4, 2, generator=gen)
    m(XR, XL, XH, Z).pow(2).sum().backward()
    assert m.W_H.grad[0].abs().max() == 0 and m.W_L.grad[1].abs().max() == 0
    assert m.W_1.grad[:2].abs().max() == 0 and m.b_2.grad[2].abs().max() > 0


def test_adam_matches_torch_optim():
    gen = torch.Generator().manual_seed(0)
    a = [torch.randn(3, 4, generator=gen, dtype=torch.float64, requires_grad=True) for _ in range(2)]
    b = [x.detach().clone().requires_grad_(True) for x in a]
    mine, ref = K.Adam(a, lr=0.03), torch.optim.Adam(b, lr=0.03)
    for _ in range(25):
        for params, opt in ((a, mine), (b, ref)):
            opt.zero_grad()
            (params[0].sin().sum() + (params[0] @ params[1].T).pow(2).sum()).backward()
            opt.step()
    for x, y in zip(a, b):
        torch.testing.assert_close(x, y, rtol=1e-12, atol=1e-12)


def test_batched_training_equals_separate_training(monkeypatch):
    table = K.class_table(120, 6)
    g = [graph(h=(0.8,), n=120, C=6, stubs=3, f=4, seed=s) for s in (0, 1)]
    feats = {k: torch.tensor(np.stack([x["X"] for x in g])) for k in ("XR", "XL", "XH")}
    feats["Z"] = torch.zeros(2, 120, 3, dtype=torch.float64)
    both = K.SpectralExperts(["low", "grace"], 4, 3, generator=torch.Generator().manual_seed(0))
    one = K.SpectralExperts(["low"], 4, 3)
    with torch.no_grad():
        for p, q in zip(one.parameters(), both.parameters()):
            p.copy_(q[:1])
    K.meta_train(both, feats, np.array([0, 1]), table, [0, 1, 2, 3], 3, 2, 3, 5, 2, 0.05, np.random.default_rng(0))
    # replay set 0 alone with the same episodes: the batched sampler draws set 0's episodes first
    rng, sub = np.random.default_rng(0), {k: v[:1] for k, v in feats.items()}
    orig = K.sample_episodes

    def first_only(*a, **kw):
        s, q = orig(*a, **{**kw, "batch": 2})
        return s[:1], q[:1]

    monkeypatch.setattr(K, "sample_episodes", first_only)
    K.meta_train(one, sub, np.array([0]), table, [0, 1, 2, 3], 3, 2, 3, 5, 2, 0.05, rng)
    torch.testing.assert_close(one.W_L, both.W_L[:1])


def test_training_lowers_the_loss_and_embed_all_uses_each_sets_graph():
    table = K.class_table(240, 6)
    g = graph(h=(0.9,), n=240, C=6, stubs=4, f=6, noise=1.5)
    A_hat = K.normalized_adjacency(g["A"])
    t = lambda a: torch.tensor(a)[None]  # noqa: E731
    feats = dict(XR=t(g["X"]), XL=t(K.low_pass(g["X"], A_hat, 2)), XH=t(K.high_pass(g["X"], A_hat)),
                 Z=t(K.gate_features(g["X"], g["A"])))
    m = K.SpectralExperts(["grace", "mlp"], 6, 4, generator=torch.Generator().manual_seed(0))
    losses = K.meta_train(m, feats, np.array([0, 0]), table, [0, 1, 2, 3], 3, 2, 5, 60, 4, 0.05,
                          np.random.default_rng(1))
    assert losses.shape == (60, 2) and np.all(losses[-10:].mean(0) < 0.5 * losses[:5].mean(0))
    emb = K.embed_all(m, feats, np.array([0, 0]), np.array([1]))
    torch.testing.assert_close(emb[0], (feats["XR"][0] @ m.W_L[1]).detach())
    # training in chunks with one optimiser equals training at once
    a = K.SpectralExperts(["grace"], 6, 4, generator=torch.Generator().manual_seed(2))
    b = K.SpectralExperts(["grace"], 6, 4, generator=torch.Generator().manual_seed(2))
    K.meta_train(a, feats, np.array([0]), table, [0, 1, 2, 3], 3, 2, 5, 6, 2, 0.05, np.random.default_rng(3))
    rng, opt = np.random.default_rng(3), K.Adam(list(b.parameters()), lr=0.05)
    for _ in range(2):
        K.meta_train(b, feats, np.array([0]), table, [0, 1, 2, 3], 3, 2, 5, 3, 2, 0.05, rng, opt=opt)
    torch.testing.assert_close(a.W_1, b.W_1)
    torch.testing.assert_close(emb[0], (feats["XR"][0] @ m.W_L[1]).detach())


def test_spearman_and_ranks_against_scipy():
    from scipy.stats import rankdata, spearmanr

    rng = np.random.default_rng(9)
    a, b = rng.integers(0, 6, 50).astype(float), rng.standard_normal(50)  # many ties in a
    np.testing.assert_allclose(K.average_ranks(a), rankdata(a))
    assert K.spearman(a, b) == pytest.approx(spearmanr(a, b).statistic, abs=1e-12)
    assert np.isnan(K.spearman(np.ones(5), np.arange(5.0)))


def test_spearman_against_brute_force():
    a, b = np.array([1.0, 3, 2, 5, 4]), np.array([10.0, 30, 25, 50, 20])
    ra, rb = np.argsort(np.argsort(a)), np.argsort(np.argsort(b))
    assert K.spearman(a, b) == pytest.approx(np.corrcoef(ra, rb)[0, 1])
    assert K.spearman(np.r_[a, np.nan], np.r_[b, 1.0]) == pytest.approx(K.spearman(a, b))


# ----------------------------------------------------------------------------- bad input
def test_bad_input():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="multiple"):
        K.make_mixed_homophily_graph(101, 5, (0.5,), 2, 3, 1.0, rng)
    with pytest.raises(ValueError, match="region_homophily"):
        K.make_mixed_homophily_graph(100, 5, (1.5,), 2, 3, 1.0, rng)
    with pytest.raises(ValueError, match="noise"):
        K.make_mixed_homophily_graph(100, 5, (0.5,), 2, 3, -1.0, rng)
    with pytest.raises(ValueError, match="at least 2 nodes"):
        K.make_mixed_homophily_graph(10, 5, (0.5, 0.5), 2, 3, 1.0, rng)
    with pytest.raises(ValueError, match="symmetric"):
        K.normalized_adjacency(sp.csr_matrix(np.array([[0, 1], [0, 0]], float)))
    with pytest.raises(ValueError, match="non-negative"):
        K.normalized_adjacency(sp.csr_matrix(np.array([[0, -1], [-1, 0]], float)))
    with pytest.raises(ValueError, match="scipy.sparse"):
        K.normalized_adjacency(np.eye(2))
    A = sp.csr_matrix(np.array([[0, 1], [1, 0]], float))
    with pytest.raises(ValueError, match="shape"):
        K.low_pass(np.ones((3, 2)), A, 1)
    with pytest.raises(ValueError, match="k must"):
        K.low_pass(np.ones((2, 2)), A, -1)
    with pytest.raises(ValueError, match="y must"):
        K.local_homophily(A, np.array([0.5, 1.0]))
    table = K.class_table(60, 6)
    with pytest.raises(ValueError, match="n_way"):
        K.sample_episodes(table, [0, 1], 3, 1, 1, 1, rng)
    with pytest.raises(ValueError, match="k_shot"):
        K.sample_episodes(table, [0, 1, 2], 3, 5, 6, 1, rng)
    with pytest.raises(ValueError, match="distinct"):
        K.sample_episodes(table, [0, 0, 1], 2, 1, 1, 1, rng)
    with pytest.raises(ValueError, match="modes"):
        K.SpectralExperts(["band"], 2, 2)
    assert K.SpectralExperts(["gmix", "concat"], 2, 2).modes == ("gmix", "concat")
    with pytest.raises(ValueError, match="lr"):
        K.Adam([torch.zeros(2)], lr=0.0)
    with pytest.raises(ValueError, match="disagree"):
        K.proto_logits(torch.zeros(3, 4), torch.zeros(2, 5))
    with pytest.raises(ValueError, match="scale"):
        K.calibrate_prototypes(torch.zeros(2, 1, 3), torch.zeros(4, 3), scale=0.0)
    with pytest.raises(ValueError, match="calibrate"):
        K.episode_accuracy(torch.zeros(1, 6, 2), np.zeros((1, 1, 2, 1), int), np.zeros((1, 1, 2, 1), int), "x")


# ----------------------------------------------------------------------------- naive baselines of the review
def test_component_mean_averages_over_connected_components():
    g = graph(h=(0.9, 0.1), n=240, C=6, stubs=4)
    v = np.random.default_rng(1).normal(size=240)
    out = K.component_mean(g["A"], v)
    G = nx.from_scipy_sparse_array(g["A"])
    for comp in nx.connected_components(G):  # brute force with networkx
        idx = np.array(sorted(comp))
        np.testing.assert_allclose(out[idx], v[idx].mean())
    # the two regions of a mixed graph are its two connected components here
    assert len(np.unique(out)) == 2 and len(np.unique(out[g["region"] == 0])) == 1
    isolated = sp.csr_matrix((3, 3))
    np.testing.assert_array_equal(K.component_mean(isolated, [1.0, 2.0, 3.0]), [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="v must"):
        K.component_mean(isolated, [1.0, 2.0])


def test_select_by_validation_picks_the_best_validated_candidate_per_graph():
    val = np.array([[0.5, 0.9, 0.2], [0.7, 0.1, 0.2], [0.6, 0.3, 0.1]])
    test = np.array([[10.0, 20.0, 30.0], [40.0, 50.0, 60.0], [70.0, 80.0, 90.0]])
    pick, chosen = K.select_by_validation(val, test)
    np.testing.assert_array_equal(pick, [1, 0, 0])  # a tie (graph 2) goes to the first candidate
    np.testing.assert_array_equal(chosen, [40.0, 20.0, 30.0])
    with pytest.raises(ValueError, match="share a shape"):
        K.select_by_validation(val, test[:2])
