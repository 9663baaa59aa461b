"""Unit tests of :mod:`repro.papers.spiking_vtg`, the kernels of ``notebooks/spiking-vtg.py``."""

import inspect
import math

import numpy as np
import pytest
import torch

from repro.papers import spiking_vtg as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/spiking_vtg.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# ----------------------------------------------------------------------------- if_neuron
def brute_if(inputs, v_th):
    """Scalar loop, one neuron at a time."""
    x = np.asarray(inputs, dtype=float)
    flat = x.reshape(x.shape[0], -1)
    out = np.zeros_like(flat)
    for j in range(flat.shape[1]):
        v = 0.0
        for t in range(flat.shape[0]):
            v += flat[t, j]
            if v >= v_th:
                out[t, j] = 1.0
                v -= v_th
    return out.reshape(x.shape)


@pytest.mark.parametrize("shape", [(7,), (9, 3), (6, 2, 4)])
def test_if_neuron_matches_a_scalar_brute_force_loop(shape):
    rng = np.random.default_rng(sum(shape))
    x = rng.normal(0.4, 0.6, shape)
    for v_th in (0.5, 1.0, 1.7):
        np.testing.assert_array_equal(K.if_neuron(x, v_th), brute_if(x, v_th))


def test_if_neuron_spike_count_for_constant_input_is_floor_t_i_over_vth():
    # dyadic inputs and thresholds: the membrane sums are exact in binary floating point
    T = 64
    for v_th in (1.0, 0.5, 2.0):
        for frac in (0.0, 0.125, 0.375, 0.5, 0.8125, 1.0):
            I = frac * v_th
            spikes = K.if_neuron(np.full(T, I), v_th)
            counts = np.cumsum(spikes)
            t = np.arange(1, T + 1)
            np.testing.assert_array_equal(counts, np.floor(t * I / v_th))


def test_if_neuron_tensor_in_tensor_out_and_binary():
    x = torch.rand(20, 3, 5, dtype=torch.float32) * 2 - 0.5
    s = K.if_neuron(x, 1.0)
    assert isinstance(s, torch.Tensor) and s.dtype == torch.float32 and s.shape == x.shape
    assert set(torch.unique(s).tolist()) <= {0.0, 1.0}
    # a negative or zero input never fires; the membrane starts at 0
    assert K.if_neuron(np.full((5, 2), -0.3), 1.0).sum() == 0
    np.testing.assert_array_equal(K.if_neuron([1.0, 0.0, 0.0], 1.0), [1.0, 0.0, 0.0])


def test_if_neuron_bad_input():
    with pytest.raises(ValueError, match="v_th"):
        K.if_neuron(np.ones(3), 0.0)
    with pytest.raises(ValueError, match="v_th"):
        K.if_neuron(np.ones(3), -1.0)
    with pytest.raises(ValueError, match="time axis"):
        K.if_neuron(np.float64(1.0), 1.0)
    with pytest.raises(ValueError, match="finite"):
        K.if_neuron(np.array([1.0, np.nan]), 1.0)
    with pytest.raises(ValueError, match="at least one time step"):
        K.if_neuron(np.zeros((0, 3)), 1.0)
    with pytest.raises(ValueError, match="array of numbers"):
        K.if_neuron([[1.0], "a"], 1.0)


# ----------------------------------------------------------------------------- if_rates
def test_if_rates_closed_forms_for_both_resets():
    K_ = 30
    c = np.array([0.0, 0.125, 0.25, 0.375, 0.625, 0.75, 0.875, 1.0])  # dyadic: exact sums
    rates, count = K.if_rates(c, K_)
    np.testing.assert_array_equal(count, np.floor(K_ * c))  # brief 17.5: rate floor(K c)/K
    np.testing.assert_allclose(rates, count / K_)
    # other currents: exact up to the rounding of the running sum (0.1 * 30 lands just below 3)
    c = np.array([0.1, 0.4, 0.6, 0.9])
    count = K.if_rates(c, K_)[1]
    assert np.all((count >= np.floor(K_ * c - 1e-9)) & (count <= np.floor(K_ * c + 1e-9)))
    np.testing.assert_array_equal(K.if_rates(c, K_)[1], brute_if(np.tile(c, (K_, 1)), 1.0).sum(0))
    # reset to zero loses the residue: a neuron fires every ceil(1/c) steps
    c0 = np.array([0.25, 0.4, 0.6])
    K0 = 60
    _, count0 = K.if_rates(c0, K0, reset="zero")
    np.testing.assert_array_equal(count0, np.floor(K0 / np.ceil(1 / c0)))
    with pytest.raises(ValueError, match="reset"):
        K.if_rates(c, 5, reset="hard")
    with pytest.raises(ValueError, match="K"):
        K.if_rates(c, 0)


# ----------------------------------------------------------------------------- gate, losses, spans
def test_saliency_feedback_gate():
    x = torch.arange(12.0).reshape(2, 3, 2)
    s = torch.tensor([[1.0, 0.0, 0.5], [0.25, 1.0, 0.0]])
    out = K.saliency_feedback_gate(x, s)
    torch.testing.assert_close(out, x * s[..., None])
    assert float(out[0, 1].abs().sum()) == 0.0
    with pytest.raises(ValueError, match="shape"):
        K.saliency_feedback_gate(x, s[:, :2])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        K.saliency_feedback_gate(x, s + 1.0)


def test_cos_l2_loss():
    h = torch.randn(4, 5, 6, generator=torch.Generator().manual_seed(0))
    assert float(K.cos_l2_loss(h, h)) == 0.0
    assert float(K.cos_l2_loss(torch.zeros(3, 4), torch.zeros(3, 4))) == 0.0
    # opposite unit vectors: 1 - (-1) + |2u|^2 = 2 + 4
    u = torch.tensor([[1.0, 0.0]])
    assert float(K.cos_l2_loss(u, -u)) == pytest.approx(6.0)
    # scale changes only the L2 part
    assert float(K.cos_l2_loss(2 * u, u)) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="same shape"):
        K.cos_l2_loss(h, h[:2])


def test_temporal_iou_cases_from_the_brief():
    assert K.temporal_iou([0, 2], [0, 2]) == 1.0
    assert K.temporal_iou([0, 1], [2, 3]) == 0.0
    assert K.temporal_iou([0, 2], [1, 3]) == pytest.approx(1 / 3)
    np.testing.assert_allclose(K.temporal_iou([[0, 4], [1, 2]], [[2, 4], [0, 4]]), [0.5, 0.25])
    with pytest.raises(ValueError, match="end >= start"):
        K.temporal_iou([2, 1], [0, 1])
    with pytest.raises(ValueError, match="length 2"):
        K.temporal_iou([0, 1, 2], [0, 1])


def test_decode_span_is_the_brute_force_maximum_sum_segment():
    rng = np.random.default_rng(3)
    s = rng.random((40, 9))
    got = K.decode_span(s, 0.5)
    for i in range(40):
        best, arg = -np.inf, None
        for l in range(9):
            for r in range(l, 9):
                v = (s[i, l:r + 1] - 0.5).sum()
                if v > best + 1e-12:
                    best, arg = v, (l, r)
        assert (s[i, got[i, 0]:got[i, 1] + 1] - 0.5).sum() == pytest.approx(best)
        assert tuple(got[i]) == arg or np.isclose((s[i, arg[0]:arg[1] + 1] - 0.5).sum(), best)
    # all below threshold: the single most salient clip
    np.testing.assert_array_equal(K.decode_span([[0.1, 0.3, 0.2]]), [[1, 1]])
    scores = K.grounding_scores(np.array([[2, 5], [0, 1]]), np.array([[2, 5], [6, 7]]))
    assert scores == {"miou": 0.5, "r1@0.5": 0.5}
    with pytest.raises(ValueError, match="shape"):
        K.decode_span(np.ones(4))


def test_make_synthetic_vtg_spans_and_similarity():
    data = K.make_synthetic_vtg(300, T=32, d=16, seed=5)
    span, dis, lab = data["span"], data["distractor"], data["label"]
    assert data["x"].shape == (300, 32, 16) and data["q"].shape == (300, 16)
    Lg, Ld = span[:, 1] - span[:, 0] + 1, dis[:, 1] - dis[:, 0] + 1
    assert Lg.min() >= 4 and Lg.max() <= 12 and Ld.min() >= 3 and Ld.max() <= 8
    assert span.min() >= 0 and span.max() <= 31 and dis.min() >= 0 and dis.max() <= 31
    assert np.all((span[:, 1] < dis[:, 0]) | (dis[:, 1] < span[:, 0])), "spans overlap"
    np.testing.assert_array_equal(lab.sum(1), Lg)
    sim = np.einsum("ntd,nd->nt", data["x"], data["q"])
    idx = np.arange(32)[None]
    in_dis = (idx >= dis[:, :1]) & (idx <= dis[:, 1:])
    m_gt, m_dis, m_bg = sim[lab > 0].mean(), sim[in_dis].mean(), sim[(lab == 0) & ~in_dis].mean()
    assert m_gt > m_dis > m_bg  # partial similarity of the distractor (about 1, 0.6, 0)
    assert m_gt == pytest.approx(1.0, abs=0.1) and m_dis == pytest.approx(0.6, abs=0.1)
    same = K.make_synthetic_vtg(10, seed=7)
    np.testing.assert_array_equal(same["x"], K.make_synthetic_vtg(10, seed=7)["x"])
    with pytest.raises(ValueError, match="do not fit"):
        K.make_synthetic_vtg(5, T=10)
    with pytest.raises(ValueError, match="rho"):
        K.make_synthetic_vtg(5, rho=1.5)
    assert K.clip_inputs(same["x"], same["q"]).shape == (10, 32, 48)


# ----------------------------------------------------------------------------- implicit gradient
def test_implicit_fixed_point_gradient_matches_finite_differences_on_a_3_unit_contraction():
    g = torch.Generator().manual_seed(0)
    W = (0.4 * torch.randn(3, 3, generator=g, dtype=torch.float64)).requires_grad_(True)
    b = torch.randn(3, generator=g, dtype=torch.float64).requires_grad_(True)

    def solve(Wv, bv, implicit=True):
        f = lambda z: torch.tanh(z @ Wv + bv)  # noqa: E731  (contraction: ||W|| < 1)
        if implicit:
            return K.implicit_fixed_point(f, torch.zeros(3, dtype=torch.float64), iters=200, tol=1e-14)
        z = torch.zeros(3, dtype=torch.float64)
        for _ in range(200):
            z = f(z)
        return z

    z = solve(W, b)
    loss = (z * torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)).sum()
    gW, gb = torch.autograd.grad(loss, (W, b))
    # unrolled backprop through 200 iterations (BPTT) converges to the same gradient
    z2 = solve(W, b, implicit=False)
    gW2, gb2 = torch.autograd.grad((z2 * torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)).sum(), (W, b))
    torch.testing.assert_close(gW, gW2, rtol=1e-9, atol=1e-12)
    # central finite differences on b
    h = 1e-6
    with torch.no_grad():
        fd = []
        for i in range(3):
            e = torch.zeros(3, dtype=torch.float64)
            e[i] = h
            lp = (solve(W, b + e, implicit=False) * torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)).sum()
            lm = (solve(W, b - e, implicit=False) * torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)).sum()
            fd.append(float(lp - lm) / (2 * h))
    np.testing.assert_allclose(gb.numpy(), fd, rtol=1e-6)
    # damping changes the iteration, not the fixed point or its gradient
    f = lambda z: torch.tanh(z @ W + b)  # noqa: E731
    zd = K.implicit_fixed_point(f, torch.zeros(3, dtype=torch.float64), iters=400, tol=1e-14, damping=0.5)
    gbd = torch.autograd.grad((zd * torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)).sum(), b)[0]
    torch.testing.assert_close(gbd, gb, rtol=1e-9, atol=1e-12)
    with pytest.raises(ValueError, match="damping"):
        K.implicit_fixed_point(f, torch.zeros(3), damping=0.0)


def test_damping_makes_an_oscillating_fixed_point_converge():
    f = lambda z: 1.0 - 1.5 * z  # noqa: E731  (J = -1.5: the plain iteration diverges; fixed point 0.4)
    w = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
    z = K.implicit_fixed_point(lambda z: f(z) + w, torch.zeros((), dtype=torch.float64), iters=200, tol=1e-12,
                               damping=0.5)
    assert float(z.detach()) == pytest.approx(0.4, abs=1e-9)
    (gw,) = torch.autograd.grad(z, w)
    assert float(gw) == pytest.approx(1 / 2.5, abs=1e-9)  # dz*/dw = 1 / (1 - J)


# ----------------------------------------------------------------------------- network
def small_batch(n=6, seed=0):
    data = K.make_synthetic_vtg(n, T=16, d=4, seed=seed, gt_len=(2, 5), dis_len=(2, 4))
    return data, K.clip_inputs(data["x"], data["q"])


def test_simulation_rates_converge_to_the_rate_network_without_feedback():
    torch.manual_seed(0)
    data, e = small_batch()
    net = K.VTGNet(d=4, hidden=8, norm=True, sfg=False, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        a = net.rates(e, torch.ones(e.shape[:2]))
    dev = []
    for K_ in (16, 256):
        sim = net.simulate(e, K=K_, gate="none")
        dev.append(float((sim["rates"]["a1"] - a["a1"]).abs().max()))
    assert dev[1] <= 1.0 / 256 + 1e-6  # layer 1: constant current, floor(K c)/K
    assert dev[1] < dev[0]


def test_simulation_counts_and_controls():
    data, e = small_batch()
    net = K.VTGNet(d=4, hidden=8, norm=False, sfg=True, generator=torch.Generator().manual_seed(2))
    sim = net.simulate(e, K=10, record=True)
    n, T, H = e.shape[0], e.shape[1], 8
    assert sim["s"].shape == (n, T) and sim["r1"].shape == (10, n, T, H) and sim["s1"].shape == (10, T)
    total = (sim["rates"]["a1"].sum((-1, -2)) + sim["rates"]["a2"].sum((-1, -2)) + sim["rates"]["s"].sum(-1)) * 10
    torch.testing.assert_close(sim["spikes"], total)
    assert float(sim["spikes"].max()) <= 10 * T * (2 * H + 1)
    # SOPs: layer-1 spikes x (H + H per neighbour clip) + layer-2 spikes x 1
    assert float(sim["sops"].min()) >= 0
    perm = torch.stack([torch.randperm(T) for _ in range(n)])
    K.VTGNet.simulate(net, e, K=5, gate="shuffled", perm=perm)
    with pytest.raises(ValueError, match="perm"):
        net.simulate(e, K=5, gate="shuffled")
    with pytest.raises(ValueError, match="gate"):
        net.simulate(e, K=5, gate="bad")
    with pytest.raises(ValueError, match="K"):
        net.simulate(e, K=0)
    assert net.dense_macs(T) > 0


def test_sfg_equilibrium_is_a_fixed_point_and_training_reduces_the_loss():
    data, e = small_batch(n=12)
    y = torch.tensor(data["label"], dtype=torch.float32)
    net = K.VTGNet(d=4, hidden=8, norm=True, sfg=True, generator=torch.Generator().manual_seed(3))
    with torch.no_grad():
        out = net.equilibrium(e, iters=100, tol=1e-7)
        again = net.rates(e, out["g"])["s"]
    assert float((again - out["g"]).abs().max()) < 1e-4
    losses = K.train_vtg(net, e, y, steps=25, batch=12, lr=2e-2, rng=np.random.default_rng(0))
    assert losses[-1] < losses[0]


# ----------------------------------------------------------------------------- naive baselines
def test_query_similarity_is_the_clipped_cosine_brute_force():
    rng = np.random.default_rng(3)
    x, q = rng.normal(size=(3, 5, 4)), rng.normal(size=(3, 4))
    x[0, 1] = 2.5 * q[0]    # parallel: similarity 1
    x[0, 2] = -q[0]         # opposite: clipped to 0
    x[1, 0] = 0.0           # a zero clip: 0, not NaN
    s = K.query_similarity(x, q)
    for i in range(3):
        for t in range(5):
            nx, nq = np.linalg.norm(x[i, t]), np.linalg.norm(q[i])
            ref = 0.0 if nx == 0 else min(max(float(x[i, t] @ q[i]) / (nx * nq), 0.0), 1.0)
            assert s[i, t] == pytest.approx(ref, abs=1e-12)
    assert s[0, 1] == pytest.approx(1.0) and s[0, 2] == 0.0 and s[1, 0] == 0.0
    assert K.query_similarity_macs(32, 16) == 2 * 32 * 16 + 16 + 32
    with pytest.raises(ValueError, match="x must be"):
        K.query_similarity(x, q[:2])
    with pytest.raises(ValueError, match="T"):
        K.query_similarity_macs(0, 4)


def test_query_similarity_is_one_on_the_span_of_noise_free_videos():
    data = K.make_synthetic_vtg(20, T=32, d=16, seed=4, noise=0.0)
    s = K.query_similarity(data["x"], data["q"])
    np.testing.assert_allclose(s[data["label"] == 1], 1.0, atol=1e-12)
    assert float(s[data["label"] == 0].max()) < 1.0


def test_fixed_gate_of_ones_is_the_ungated_run_and_zeros_silence_the_clips():
    data, e = small_batch()
    net = K.VTGNet(d=4, hidden=8, norm=True, sfg=False, generator=torch.Generator().manual_seed(5))
    n, T = e.shape[:2]
    none = net.simulate(e, K=8, gate="none")
    ones = net.simulate(e, K=8, gate="fixed", fixed_gate=torch.ones(n, T))
    torch.testing.assert_close(ones["s"], none["s"])
    torch.testing.assert_close(ones["spikes"], none["spikes"])
    assert bool((ones["macs"] > none["macs"]).all())  # the gate multiplications are counted
    zero = net.simulate(e, K=8, gate="fixed", fixed_gate=torch.zeros(n, T), record=True)
    assert float(zero["rates"]["a1"].abs().sum()) == 0.0 and float(zero["rates"]["a2"].abs().sum()) == 0.0
    with pytest.raises(ValueError, match="fixed_gate"):
        net.simulate(e, K=3, gate="fixed")
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        net.simulate(e, K=3, gate="fixed", fixed_gate=2 * torch.ones(n, T))
