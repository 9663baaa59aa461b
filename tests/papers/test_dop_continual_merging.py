"""Unit tests of :mod:`repro.papers.dop_continual_merging`, the kernels of ``notebooks/dop-continual-merging.py``."""

import inspect
import json
from pathlib import Path

import numpy as np
import pytest
import torch

from repro.papers import dop_continual_merging as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/dop_continual_merging.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def _mats(seed, o=6, i=5, scale=0.1):
    gen = torch.Generator().manual_seed(seed)
    W0 = torch.randn(o, i, generator=gen, dtype=torch.float64)
    return (W0, W0 + scale * torch.randn(o, i, generator=gen, dtype=torch.float64),
            W0 + scale * torch.randn(o, i, generator=gen, dtype=torch.float64))


# ---- data and network -------------------------------------------------------------------------------------

def test_domains_are_pixel_permutations_and_rotations():
    rng = np.random.default_rng(0)
    doms = K.digit_domains(8, rng)
    assert len(doms) == 8 and [d[1] for d in doms[:5]] == [False] * 5 and doms[5][1]
    for perm, _ in doms:
        assert sorted(perm.tolist()) == list(range(64))
    img = np.arange(64.0).reshape(1, 64) / 63
    np.testing.assert_array_equal(K.apply_domain(img, doms[1]).reshape(8, 8), np.rot90(img.reshape(8, 8)))
    np.testing.assert_array_equal(K.apply_domain(img, doms[3]).reshape(8, 8), img.reshape(8, 8).T)
    np.testing.assert_allclose(K.apply_domain(img, doms[5]), 1 - img)
    with pytest.raises(ValueError, match="shape"):
        K.apply_domain(np.zeros((2, 63)), doms[0])
    with pytest.raises(ValueError):
        K.digit_domains(0, rng)


def test_batched_mlp_equals_one_network_at_a_time():
    gen = torch.Generator().manual_seed(0)
    p = K.init_mlp([4, 8, 3], gen)
    pb = [(torch.stack([W, 2 * W]), torch.stack([b, b])) for W, b in p]
    X = torch.randn(2, 5, 4, generator=gen, dtype=torch.float64)
    out = K.mlp_logits(pb, X)
    np.testing.assert_allclose(out[0], K.mlp_logits(p, X[0]), atol=1e-12)
    np.testing.assert_allclose(out[1], K.mlp_logits(K.take(pb, 1), X[1]), atol=1e-12)
    with pytest.raises(ValueError):
        K.init_mlp([4], gen)


def test_training_fits_a_separable_toy_problem():
    gen = torch.Generator().manual_seed(1)
    X = torch.randn(60, 2, generator=gen, dtype=torch.float64)
    y = (X[:, 0] > 0).long()
    p = K.train_mlp(K.init_mlp([2, 16, 2], gen), X, y, steps=150, lr=1e-2)
    assert K.accuracy(p, X, y) >= 0.95


# ---- DOP kernels -----------------------------------------------------------------------------------------

def test_task_vector_svd_rank_rule():
    tau = torch.diag(torch.tensor([4.0, 3.0, 2.0, 1.0], dtype=torch.float64))  # shares .4 .7 .9 1.0
    assert K.task_vector_svd(tau, 0.7)[1].numel() == 1      # the triplet that reaches eps is not kept
    assert K.task_vector_svd(tau, 0.75)[1].numel() == 2
    assert K.task_vector_svd(tau, 0.0)[1].numel() == 0
    U, S, V = K.task_vector_svd(tau, 1.0)                   # eps = 1 keeps (nearly) full rank
    assert S.numel() >= 3
    _, Wp, _ = _mats(0)
    U, S, V = K.task_vector_svd(Wp, 0.99999)
    assert U.shape[1] == S.numel() == V.shape[1]
    np.testing.assert_allclose(U.T @ U, np.eye(S.numel()), atol=1e-12)
    with pytest.raises(ValueError, match="eps"):
        K.task_vector_svd(tau, 1.5)
    with pytest.raises(ValueError, match="zero"):
        K.task_vector_svd(torch.zeros(3, 3, dtype=torch.float64), 0.9)


def test_dop_loss_zero_at_target_and_on_the_orthogonal_complement():
    W0, Wp, Wn = _mats(2, 7, 6)
    U, S, V = K.task_vector_svd(Wp - W0, 0.8)
    assert float(K.dop_loss(Wp, Wp, U, S, V)) == 0.0
    X = torch.randn(7, 6, dtype=torch.float64, generator=torch.Generator().manual_seed(3))
    D = (torch.eye(7, dtype=torch.float64) - U @ U.T) @ X @ (torch.eye(6, dtype=torch.float64) - V @ V.T)
    assert abs(float(K.dop_loss(Wp + D, Wp, U, S, V))) < 1e-20
    # uv = u + v, and both terms positive off the complement
    lu, lv = (float(K.dop_loss(Wn, Wp, U, S, V, m)) for m in ("u", "v"))
    assert lu > 0 and lv > 0
    assert float(K.dop_loss(Wn, Wp, U, S, V, "uv")) == pytest.approx(lu + lv, rel=1e-12)
    with pytest.raises(ValueError, match="mode"):
        K.dop_loss(Wn, Wp, U, S, V, "w")
    with pytest.raises(ValueError, match="shape"):
        K.dop_loss(Wn[:, :2], Wp, U, S, V)


@pytest.mark.parametrize("mode", ["uv", "u", "v"])
def test_closed_form_gradient_equals_autograd(mode):
    W0, Wp, Wn = _mats(4, 5, 8)
    U, S, V = K.task_vector_svd(Wp - W0, 0.9)
    W = Wn.clone().requires_grad_(True)
    L = K.dop_loss(W, Wp, U, S, V, mode)
    L.backward()
    M, N = K.projection_metrics(U, S, V, mode)
    val, grad = K.dop_loss_grad(Wn - Wp, M, N)
    assert val == pytest.approx(float(L.detach()), rel=1e-12)
    np.testing.assert_allclose(grad, W.grad, atol=1e-12)


def test_min_norm_2_matches_a_grid_and_clips_at_the_boundary():
    gen = torch.Generator().manual_seed(5)
    grid = np.linspace(0, 1, 10001)
    for _ in range(5):
        g1, g2 = torch.randn(6, generator=gen, dtype=torch.float64), torch.randn(6, generator=gen, dtype=torch.float64)
        a = K.min_norm_2(g1, g2)
        norms = [float(torch.linalg.norm(t * g1 + (1 - t) * g2)) for t in grid]
        best = grid[int(np.argmin(norms))]
        if 0.001 < best < 0.999:
            assert a == pytest.approx(best, abs=2e-4)
    g = torch.ones(3, dtype=torch.float64)
    assert K.min_norm_2(g, 3 * g) == 0.999 and K.min_norm_2(3 * g, g) == 0.001
    with pytest.raises(ValueError):
        K.min_norm_2(g, torch.ones(4))


def test_frank_wolfe_min_norm_matches_the_two_point_closed_form_and_a_qp():
    gen = torch.Generator().manual_seed(6)
    g1, g2 = torch.randn(5, generator=gen, dtype=torch.float64), torch.randn(5, generator=gen, dtype=torch.float64)
    c = K.frank_wolfe_min_norm([g1, g2], iters=500, tol=1e-12)
    a = K.min_norm_2(g1, g2)
    if 0.001 < a < 0.999:
        assert c[0] == pytest.approx(a, abs=1e-4)
    gs = [torch.randn(4, generator=gen, dtype=torch.float64) for _ in range(3)]
    c = K.frank_wolfe_min_norm(gs, iters=2000, tol=1e-14)
    assert c.sum() == pytest.approx(1.0) and np.all((c >= 0) & (c <= 1))
    from scipy.optimize import minimize
    G = torch.stack(gs).numpy()
    r = minimize(lambda w: np.sum((w @ G) ** 2), np.full(3, 1 / 3), bounds=[(0, 1)] * 3,
                 constraints=[{"type": "eq", "fun": lambda w: w.sum() - 1}], method="SLSQP", options={"ftol": 1e-14})
    assert np.sum((c @ G) ** 2) == pytest.approx(r.fun, abs=1e-6)
    with pytest.raises(ValueError):
        K.frank_wolfe_min_norm([])


def test_merging_identical_experts_returns_the_expert():
    W0, Wp, _ = _mats(7)
    W, info = K.dop_merge_layer(W0, Wp, Wp.clone(), steps=20, lr=1e-2)
    np.testing.assert_allclose(W, Wp, atol=1e-12)


def test_mgda_weights_stay_on_the_simplex_and_the_merge_descends():
    W0, Wp, Wn = _mats(8, 8, 6)
    W, info = K.dop_merge_layer(W0, Wp, Wn, eps=0.9, steps=100, lr=1e-3, ema_beta=0.9, alpha0=0.5)
    a = info["alpha"]
    assert np.all((a >= 0) & (a <= 1)) and len(a) == 100
    # the weighted objective at the final alpha is lower than at the start point (the average)
    Up, Sp, Vp = K.task_vector_svd(Wp - W0, 0.9)
    Un, Sn, Vn = K.task_vector_svd(Wn - W0, 0.9)
    alpha = info["final_alpha"]

    def obj(X):
        return alpha * float(K.dop_loss(X, Wp, Up, Sp, Vp)) + (1 - alpha) * float(K.dop_loss(X, Wn, Un, Sn, Vn))
    assert obj(W) < obj((Wp + Wn) / 2)


def test_fixed_alpha_without_projection_moves_toward_the_weighted_average():
    W0, Wp, Wn = _mats(9)
    W, _ = K.dop_merge_layer(W0, Wp, Wn, steps=2000, lr=1e-3, mgda=False, alpha0=0.8, projection="identity")
    np.testing.assert_allclose(W, 0.8 * Wp + 0.2 * Wn, atol=2e-3)
    with pytest.raises(ValueError, match="projection"):
        K.dop_merge_layer(W0, Wp, Wn, projection="pca")
    with pytest.raises(ValueError, match="alpha0"):
        K.dop_merge_layer(W0, Wp, Wn, alpha0=1.5)
    with pytest.raises(ValueError, match="shape"):
        K.dop_merge_layer(W0, Wp[:, :2], Wn)


# ---- baselines -------------------------------------------------------------------------------------------

def _model(seed):
    return K.init_mlp([3, 4, 2], torch.Generator().manual_seed(seed))


def test_seq_average_is_the_running_mean_and_task_arithmetic_the_scaled_sum():
    ms = [_model(s) for s in range(4)]
    m = ms[0]
    for t in range(2, 5):
        m = K.seq_average(m, ms[t - 1], t)
    for (W, b), parts in zip(m, zip(*ms)):
        np.testing.assert_allclose(W, sum(p[0] for p in parts) / 4, atol=1e-12)
    theta0 = _model(9)
    ta = theta0
    for e in ms:
        ta = K.task_arithmetic(theta0, ta, e, 0.3)
    for (W, _), (W0, _), parts in zip(ta, theta0, zip(*ms)):
        np.testing.assert_allclose(W, W0 + 0.3 * sum(p[0] - W0 for p in parts), atol=1e-12)
    with pytest.raises(ValueError):
        K.seq_average(ms[0], K.init_mlp([3, 5, 2], torch.Generator().manual_seed(0)), 2)
    with pytest.raises(ValueError):
        K.seq_average(ms[0], ms[1], 0)


def test_ema_merge_newest_and_keep_first_naive_merges():
    ms = [_model(s) for s in range(4)]
    batch = lambda m: [(W[None], b[None]) for W, b in m]
    experts = [batch(m) for m in ms]
    theta0 = batch(_model(9))
    ema = K.merge_sequence("ema", theta0, experts, w=0.6)
    # closed form: expert 1 weighted 0.4^3, expert t >= 2 weighted 0.6 * 0.4^(4 - t)
    weights = [0.4**3] + [0.6 * 0.4 ** (4 - t) for t in range(2, 5)]
    for (W, b), parts in zip(ema[-1], zip(*ms)):
        np.testing.assert_allclose(W[0], sum(c * p[0] for c, p in zip(weights, parts)), atol=1e-12)
        np.testing.assert_allclose(b[0], sum(c * p[1] for c, p in zip(weights, parts)), atol=1e-12)
    for a, b in zip(K.merge_sequence("ema", theta0, experts, w=0.5), K.merge_sequence("dop-start", theta0, experts)):
        for (Wa, ba), (Wb, bb) in zip(a, b):
            np.testing.assert_allclose(Wa, Wb, atol=1e-14)
            np.testing.assert_allclose(ba, bb, atol=1e-14)
    for t, (m_new, m_keep) in enumerate(zip(K.merge_sequence("newest", theta0, experts),
                                            K.merge_sequence("keep-first", theta0, experts))):
        for (Wn, _), (Wk, _), (We, _), (W1, _) in zip(m_new, m_keep, experts[t], experts[0]):
            assert torch.equal(Wn, We) and torch.equal(Wk, W1)
    with pytest.raises(ValueError, match="w must"):
        K.ema_merge(ms[0], ms[1], 0.0)
    with pytest.raises(ValueError):
        K.ema_merge(ms[0], K.init_mlp([3, 5, 2], torch.Generator().manual_seed(0)), 0.6)


def test_identity_ablation_at_half_stays_at_the_midpoint():
    """With identity projections and alpha = 1/2 the objective's minimiser is DOP's start point, the midpoint: the
    ablation then coincides with the running midpoint (fixed alpha, or MGDA started at 1/2). Only rounding-level
    gradients remain, which Adam's normalisation turns into drifts far below 1e-6."""
    W0, Wp, Wn = _mats(11, 7, 5)
    for mgda in (False, True):
        W, _ = K.dop_merge_layer(W0, Wp, Wn, steps=200, lr=1e-3, alpha0=0.5, mgda=mgda, projection="identity")
        np.testing.assert_allclose(W, (Wp + Wn) / 2, atol=1e-6)
    W, _ = K.dop_merge_layer(W0, Wp, Wn, steps=200, lr=1e-3, alpha0=0.8, mgda=False, projection="identity")
    assert float((W - (Wp + Wn) / 2).abs().max()) > 1e-2


def test_opcm_projection_removes_the_merged_subspace_and_keeps_the_mean_norm():
    W0, Wp, Wn = _mats(10, 6, 6)
    P = K.opcm_clean(Wp - W0, Wn - W0, 0.5)
    U, S, Vh = torch.linalg.svd(Wp - W0)
    C = U.T @ P @ Vh.T
    assert float(C.diagonal().abs().max()) < 1e-12
    theta0, a, b = _model(0), _model(1), _model(2)
    m, lam, norms = K.opcm_merge_model(theta0, a, b, 1.0, [K.tv_norm(a, theta0)])
    assert float(K.tv_norm(m, theta0)) == pytest.approx(float(torch.stack(norms).mean()), rel=1e-12)
    assert float(lam) > 0



# ---- golden tests against the official code ---------------------------------------------------------------
# tests/papers/golden/dop-continual-merging.json holds outputs of tanganke/fusion_bench's DOP and OPCM
# functions, run outside the project (function bodies extracted from the official files, framework stubbed).

GOLDEN = json.loads((Path(__file__).parent / "golden" / "dop-continual-merging.json").read_text())
CASES = {c["name"]: c for c in GOLDEN["cases"]}


def test_golden_file_names_the_official_commit():
    assert GOLDEN["slug"] == "dop-continual-merging"
    assert len(GOLDEN["commit"]) == 40 and GOLDEN["repository"].endswith("tanganke/fusion_bench")


@pytest.mark.parametrize("name", [n for n in CASES if n.startswith("dop_") and "out" in CASES[n]["input"]])
def test_golden_dop_merge_layer(name):
    c = CASES[name]
    inp, cfg = c["input"], c["input"]["config"]
    W0, Wp, Wn = _mats(inp["seed"], inp["out"], inp["in"], 0.1)
    W, _ = K.dop_merge_layer(W0, Wp, Wn, eps=cfg["svd_epsilon"], steps=cfg["num_steps"], lr=cfg["lr"],
                             ema_beta=cfg["ema_beta"], alpha0=cfg["alpha"], mode=cfg["svd_proj_space"],
                             mgda=cfg["mgda"], ema=cfg["ema"])
    np.testing.assert_allclose(W.numpy(), np.array(c["output"]), rtol=0, atol=c["tol"]["abs"])


def test_golden_dop_loss():
    c = CASES["cal_loss_i_uv_k3"]
    W0, Wp, Wn = _mats(3, 6, 4)
    U, S, Vh = torch.linalg.svd(Wp - W0, full_matrices=False)
    assert float(K.dop_loss(Wn, Wp, U[:, :3], S[:3], Vh.T[:, :3])) == pytest.approx(c["output"], abs=c["tol"]["abs"])


@pytest.mark.parametrize("seed", [4, 5])
def test_golden_min_norm(seed):
    c = CASES[f"min_norm_seed{seed}"]
    gen = torch.Generator().manual_seed(seed)
    g1, g2 = torch.randn(7, generator=gen, dtype=torch.float64), torch.randn(7, generator=gen, dtype=torch.float64)
    if seed == 5:
        g2 = g1 * 2.0 + 0.01 * g2
    assert K.min_norm_2(g1, g2) == pytest.approx(c["output"], abs=c["tol"]["abs"])


def test_golden_opcm_projection():
    c = CASES["opcm_merge_linear_weights"]
    W0, Wp, Wn = _mats(6, 6, 5)
    np.testing.assert_allclose(K.opcm_clean(Wp - W0, Wn - W0, 0.5).numpy(), np.array(c["output"]), rtol=0,
                               atol=c["tol"]["abs"])


def _zoo(seed, shapes, n_experts, scale=0.1):
    """The golden file's recipe of an MLP zoo: pretrained layers, then each expert's layers, in this order."""
    gen = torch.Generator().manual_seed(seed)
    pre = [(torch.randn(o, i, generator=gen, dtype=torch.float64), torch.randn(o, generator=gen, dtype=torch.float64))
           for o, i in shapes]
    experts = [[(W0 + scale * torch.randn(*W0.shape, generator=gen, dtype=torch.float64),
                 b0 + scale * torch.randn(*b0.shape, generator=gen, dtype=torch.float64)) for W0, b0 in pre]
               for _ in range(n_experts)]
    return pre, experts


def _assert_steps_equal(models, golden, atol):
    assert len(models) == len(golden)
    for step, (m, g) in enumerate(zip(models, golden)):
        for li, ((W, b), gl) in enumerate(zip(m, g)):
            np.testing.assert_allclose(W.numpy(), np.array(gl["W"]), rtol=0, atol=atol, err_msg=f"step {step} layer {li} W")
            np.testing.assert_allclose(b.numpy(), np.array(gl["b"]), rtol=0, atol=atol, err_msg=f"step {step} layer {li} b")


def test_golden_dop_run_mgda_without_ema():
    """The whole continual DOP run on an MLP with MGDA and no EMA (weights optimised, biases averaged)."""
    c = CASES["dop_run_mlp_mgda_noema"]
    inp, cfg = c["input"], c["input"]["config"]
    pre, experts = _zoo(inp["seed"], [tuple(s) for s in inp["shapes"]], inp["n_experts"])
    models = K.merge_sequence("dop", pre, experts, eps=cfg["svd_epsilon"], steps=cfg["num_steps"], lr=cfg["lr"],
                              ema_beta=cfg["ema_beta"], alpha0=cfg["alpha"], mode=cfg["svd_proj_space"],
                              mgda=cfg["mgda"], ema=cfg["ema"])
    _assert_steps_equal(models, c["output"], c["tol"]["abs"])


@pytest.mark.parametrize("alpha, r", [(0.39, 0), (0.5, 1), (0.65, 1), (0.7, 2), (0.71, 2), (0.85, 2), (0.9, 3)])
def test_opcm_split_rank_is_the_first_share_strictly_above_alpha(alpha, r):
    """opcm.py: ``split_rank = (cumsum(s) / sum(s) > alpha).argmax()``. Singular values 4, 3, 2, 1 have the shares
    0.4, 0.7, 0.9, 1 (exact in float64: 7/10 and 9/10 round to the literals), so a share equal to alpha is not
    above it. The cleaned task vector is zero on the diagonal and on the leading r x r block, and nowhere else."""
    prev = torch.diag(torch.tensor([4.0, 3.0, 2.0, 1.0], dtype=torch.float64))
    clean = K.opcm_clean(prev, torch.ones(4, 4, dtype=torch.float64), alpha)
    i, j = np.indices((4, 4))
    zero = (i == j) | ((i < r) & (j < r))
    np.testing.assert_allclose(clean.numpy()[zero], 0.0, atol=1e-12)
    assert np.all(np.abs(clean.numpy()[~zero]) > 0.5)


def test_golden_opcm_run_with_split_rank_two():
    """The whole OPCM run over three merges, with r = 2 at every layer: block zeroing, threshold, lambda_t, biases."""
    c = CASES["opcm_run_mlp_r2"]
    inp = c["input"]
    pre, experts = _zoo(inp["seed"], [tuple(s) for s in inp["shapes"]], inp["n_experts"])
    ranks = [int(((S.cumsum(0) / S.sum()) > inp["alpha"]).double().argmax())
             for m in K.merge_sequence("opcm", pre, experts[:-1], alpha=inp["alpha"])
             for (W, _), (W0, _) in zip(m, pre) for S in [torch.linalg.svdvals(W - W0)]]
    assert ranks == c["split_rank"] and min(ranks) >= 2     # the r x r block is more than the diagonal
    _assert_steps_equal(K.merge_sequence("opcm", pre, experts, alpha=inp["alpha"]), c["output"], c["tol"]["abs"])


def test_batched_merges_equal_one_at_a_time():
    mats = [_mats(s, 5, 4) for s in (11, 12, 13)]
    W0, Wp, Wn = (torch.stack(t) for t in zip(*mats))
    W, info = K.dop_merge_layer(W0, Wp, Wn, eps=0.9, steps=30, lr=1e-2, ema_beta=0.9)
    for e, (a, b, c) in enumerate(mats):
        We, ie = K.dop_merge_layer(a, b, c, eps=0.9, steps=30, lr=1e-2, ema_beta=0.9)
        np.testing.assert_allclose(W[e], We, atol=1e-12)
        assert info["k_prev"][e] == ie["k_prev"] and info["final_alpha"][e] == pytest.approx(float(ie["final_alpha"]))
    np.testing.assert_allclose(K.opcm_clean(Wp - W0, Wn - W0)[1], K.opcm_clean(Wp[1] - W0[1], Wn[1] - W0[1]),
                               atol=1e-12)


def test_identity_projection_equals_explicit_identity_metrics():
    """The identity ablation's shortcut (no matrix products) equals DOP's loss with U, V = I and S = 1."""
    W0, Wp, Wn = _mats(14, 6, 5)
    W, info = K.dop_merge_layer(W0, Wp, Wn, steps=15, lr=1e-2, ema_beta=0.9, projection="identity")
    I6, I5 = torch.eye(6, dtype=torch.float64), torch.eye(5, dtype=torch.float64)
    M, N = K.projection_metrics(I6, torch.ones(6, dtype=torch.float64), I6)[0], \
        K.projection_metrics(I5, torch.ones(5, dtype=torch.float64), I5)[1]
    Wr = ((Wp + Wn) / 2).clone()
    opt_w = Wr.clone().requires_grad_(True)
    from repro.optim import Adam
    opt = Adam([opt_w], lr=1e-2)
    sol = torch.tensor(0.8, dtype=torch.float64)
    for _ in range(15):
        with torch.no_grad():
            (vp, gp), (vn, gn) = (K.dop_loss_grad(opt_w - Wi, M, N) for Wi in (Wp, Wn))
            g = K.min_norm_2(gp / vp, gn / vn)
            sol = 0.9 * sol + 0.1 * g
            opt_w.grad = sol * gp + (1 - sol) * gn
        opt.step()
    np.testing.assert_allclose(W, opt_w.detach(), atol=1e-12)
    assert info["loss_prev"][0] == pytest.approx(K.dop_loss_grad((Wp + Wn) / 2 - Wp, M, N)[0], rel=1e-12)


def test_shuffled_orders_and_reordered_zoo():
    orders = K.shuffled_orders(5, [0, 1, 2])
    assert orders.shape == (3, 5) and all(sorted(o) == list(range(5)) for o in orders.tolist())
    np.testing.assert_array_equal(orders, K.shuffled_orders(5, [0, 1, 2]))          # seeded
    assert len({tuple(o) for o in orders.tolist()}) > 1
    from sklearn.datasets import load_digits
    X, y = load_digits(return_X_y=True)
    Z = K.build_experts(X[:300] / 16, y[:300], 3, [0, 1], hidden=8, n_train=200, pre_steps=5, ft_steps=5)
    order = np.array([[2, 0, 1], [1, 2, 0]])
    R = K.reorder_zoo(Z, order)
    for b in range(2):
        for t in range(3):
            np.testing.assert_array_equal(R["experts"][t][0][0][b], Z["experts"][order[b, t]][0][0][b])
            np.testing.assert_array_equal(R["X_test"][t][b], Z["X_test"][order[b, t]][b])
            assert R["expert_acc"][b, t] == Z["expert_acc"][b, order[b, t]]
    # merging the reordered zoo in one batch with the original equals merging each apart
    C = K.concat_zoos(Z, R)
    both = K.accuracy_matrix(K.merge_sequence("opcm", C["params0"], C["experts"]), C["X_test"], C["y_test"])
    alone = K.accuracy_matrix(K.merge_sequence("opcm", R["params0"], R["experts"]), R["X_test"], R["y_test"])
    np.testing.assert_allclose(both[2:], alone, equal_nan=True)
    with pytest.raises(ValueError, match="permutation"):
        K.reorder_zoo(Z, np.array([[0, 0, 1], [1, 2, 0]]))
    with pytest.raises(ValueError):
        K.shuffled_orders(3, [])


def test_protocol_end_to_end_on_a_tiny_zoo():
    from sklearn.datasets import load_digits
    X, y = load_digits(return_X_y=True)
    Z = K.build_experts(X[:300] / 16, y[:300], 3, [0, 1], hidden=8, n_train=200, pre_steps=20, ft_steps=10)
    assert Z["expert_acc"].shape == (2, 3) and len(Z["experts"]) == 3
    for method, kw in [("seq-avg", {}), ("seq-ta", {"lam": 0.5}), ("opcm", {}), ("dop", {"steps": 5}),
                       ("dop-identity", {"steps": 5}), ("dop-start", {}), ("ema", {"w": 0.6}),
                       ("newest", {}), ("keep-first", {})]:
        ms = K.merge_sequence(method, Z["params0"], Z["experts"], **kw)
        A = K.accuracy_matrix(ms, Z["X_test"], Z["y_test"])
        assert A.shape == (2, 3, 3) and np.isnan(A[:, 0, 1:]).all() and np.all((A[:, 1, :2] >= 0) & (A[:, 1, :2] <= 1))
    # seq-avg's first row is the first expert
    np.testing.assert_allclose(K.accuracy_matrix(K.merge_sequence("seq-avg", Z["params0"], Z["experts"]),
                                                 Z["X_test"], Z["y_test"])[:, 0, 0], Z["expert_acc"][:, 0])
    with pytest.raises(ValueError, match="method"):
        K.merge_sequence("ties", Z["params0"], Z["experts"])
    with pytest.raises(ValueError, match="n_train"):
        K.build_experts(X[:300] / 16, y[:300], 3, [0], hidden=8, n_train=300, pre_steps=1, ft_steps=1)
