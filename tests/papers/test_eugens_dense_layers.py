"""Unit tests of the EUGen kernels."""

import math
import tracemalloc

import numpy as np
import pytest
import torch
from sklearn.linear_model import Ridge

from repro.papers import eugens_dense_layers as K

COEFFS = (0.3, 1.0, 0.5)


def _xw(n=5, d=8, L=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g, dtype=torch.float64) / math.sqrt(d)
    W = torch.randn(L, d, generator=g, dtype=torch.float64) / math.sqrt(d)
    b = 0.1 * torch.randn(L, generator=g, dtype=torch.float64)
    return x, W, b


def test_poly_activation_matches_numpy_polyval():
    u = torch.linspace(-2, 2, 11, dtype=torch.float64)
    c = (0.3, -1.0, 0.5, 0.25)
    ref = np.polynomial.polynomial.polyval(u.numpy(), c)
    assert np.allclose(K.poly_activation(u, c).numpy(), ref, atol=1e-14)


def test_augment_input_and_weight_inner_products():
    x, W, b = _xw()
    xa = K.augment_input(x, bias=True, use_norm=True)
    assert xa.shape == (5, 10)
    assert torch.allclose(xa[:, -1], x.norm(dim=1))
    assert torch.all(xa[:, -2] == 1)
    Wa = K.augment_weight(W, b, use_norm=True)
    assert torch.allclose(xa @ Wa.T, x @ W.T + b, atol=1e-14)
    assert K.augment_input(x, bias=False, use_norm=False).shape == (5, 8)


def test_order_one_recovers_linear_layer_within_clt_bound():
    """K=1: |error| <= 4 ||w+|| ||x+|| sqrt(2/m) at m = 20000 (brief's test; relative tolerance fails near w.x=0)."""
    x, W, b = _xw(n=3, d=6, L=4, seed=1)
    m = 20000
    layer = K.eugen_from_dense(W, b, (0.0, 1.0), m, seed=3)
    with torch.no_grad():
        y = layer(x)
    exact = x @ W.T + b
    bound = 4 * K.augment_weight(W, b).norm(dim=1)[None, :] * K.augment_input(x).norm(dim=1)[:, None] * math.sqrt(2 / m)
    assert torch.all((y - exact).abs() <= bound)
    # and it is not exact: the estimator is random
    assert (y - exact).abs().max() > 1e-6


def test_unbiased_for_degree_two_brute_force_average():
    """Averaging many independent G draws converges to f(Wx+b); a single-G squared estimator would be biased."""
    x, W, b = _xw(n=2, d=5, L=3, seed=2)
    exact = K.dense_poly_layer(x, W, b, COEFFS)
    Wa, xa = K.augment_weight(W, b), K.augment_input(x)
    G = K.draw_projections(2, 200000, xa.shape[1], seed=4)
    V = K.eugen_weight_map(Wa, G, COEFFS)
    est = K.eugen_forward(xa, G, V, torch.full((3,), COEFFS[0], dtype=torch.float64))
    assert torch.allclose(est, exact, atol=0.03)
    # negative control: using the SAME projection twice estimates ||w||^2||x||^2 + 2 (w.x)^2, not (w.x)^2
    p = torch.einsum("nd,md->nm", xa, G[0]) / math.sqrt(G.shape[1])
    q = torch.einsum("ld,md->lm", Wa, G[0])
    same = (p**2) @ (q**2).T / G.shape[1]
    assert (same - (xa @ Wa.T) ** 2).abs().max() > 0.1


def test_batched_estimates_match_single_layers():
    """Each of the vectorised draws equals an EUGen layer built on the matching slice of G."""
    x, W, _ = _xw(n=3, d=6, L=4, seed=3)
    est = K.eugen_estimates(x, W, None, COEFFS, m=5, draws=4, seed=7)
    G = K.draw_projections(2, 20, 6, seed=7)
    for d in range(4):
        Gd = G[:, 5 * d: 5 * (d + 1)]
        ref = K.eugen_forward(x, Gd, K.eugen_weight_map(W, Gd, COEFFS), torch.full((4,), COEFFS[0], dtype=torch.float64))
        assert torch.allclose(est[d], ref, atol=1e-12)


def test_features_deterministic_given_seed_and_shapes():
    x, _, _ = _xw()
    xa = K.augment_input(x)
    f1 = K.eugen_features(xa, K.draw_projections(3, 7, 10, seed=5))
    f2 = K.eugen_features(xa, K.draw_projections(3, 7, 10, seed=5))
    f3 = K.eugen_features(xa, K.draw_projections(3, 7, 10, seed=6))
    assert f1.shape == (5, 3, 7)
    assert torch.equal(f1, f2) and not torch.equal(f1, f3)


def test_feature_inner_product_equals_brute_force_product():
    x, W, _ = _xw(n=2, d=4, L=2)
    G = K.draw_projections(2, 3, 4, seed=0)
    fx, fw = K.eugen_features(x, G), K.eugen_features(W, G)
    brute = sum((G[0, r] @ x[0]) * (G[1, r] @ x[0]) * (G[0, r] @ W[1]) * (G[1, r] @ W[1]) for r in range(3)) / 3
    assert torch.allclose((fx[0, 1] * fw[1, 1]).sum(), brute, atol=1e-14)


def test_gradcheck_float64_forward():
    x, W, b = _xw(n=3, d=4, L=2)
    layer = K.eugen_from_dense(W, b, COEFFS, 5, seed=0)
    xr = x.clone().requires_grad_(True)
    assert torch.autograd.gradcheck(lambda z: layer(z), (xr,))
    G = layer.G.clone().requires_grad_(True)
    V = layer.V.detach().clone().requires_grad_(True)
    assert torch.autograd.gradcheck(lambda g, v: K.eugen_forward(K.augment_input(x), g, v, layer.c.detach()), (G, V))


def test_ridge_transfer_matches_sklearn_and_interpolates():
    g = torch.Generator().manual_seed(0)
    X = torch.randn(30, 5, generator=g, dtype=torch.float64)
    Y = torch.randn(30, 3, generator=g, dtype=torch.float64)
    layer = K.fit_eugen_layerwise(X, Y, m=8, K=2, ridge=0.5, seed=1)
    phi = K.eugen_features(K.augment_input(X), layer.G).reshape(30, -1).numpy()
    ref = Ridge(alpha=0.5).fit(phi, Y.numpy())
    assert np.allclose(layer.V.detach().reshape(3, -1).numpy(), ref.coef_, atol=1e-8)
    assert np.allclose(layer.c.detach().numpy(), ref.intercept_, atol=1e-8)
    # lambda -> 0 and K*m >= n: interpolation of the calibration targets (dual branch). n must stay below the
    # dimension (27 for d=5) of the span of degree<=2 monomials in [x; 1; ||x||].
    interp = K.fit_eugen_layerwise(X[:15], Y[:15], m=40, K=2, ridge=1e-10, seed=2)
    with torch.no_grad():
        assert torch.allclose(interp(X[:15]), Y[:15], atol=1e-5)


def test_lowrank_is_svd_truncation():
    _, W, _ = _xw(L=6, d=8)
    A, B = K.lowrank_from_dense(W, 6)
    assert torch.allclose(A @ B, W, atol=1e-12)
    A2, B2 = K.lowrank_from_dense(W, 2)
    s = torch.linalg.svdvals(W)
    assert math.isclose(float((W - A2 @ B2).norm()), float(s[2:].norm()), rel_tol=1e-10)


def test_input_pca_full_rank_is_the_dense_layer_and_matches_sklearn():
    g = torch.Generator().manual_seed(3)
    X = torch.randn(40, 6, generator=g, dtype=torch.float64) @ torch.randn(6, 6, generator=g, dtype=torch.float64)
    W = torch.randn(4, 6, generator=g, dtype=torch.float64)
    b = torch.randn(4, generator=g, dtype=torch.float64)
    A, B, bb = K.input_pca_layer(X, W, b, 6)
    assert torch.allclose(X @ B.T @ A.T + bb, X @ W.T + b, atol=1e-10)
    from sklearn.decomposition import PCA
    pca = PCA(n_components=2).fit(X.numpy())
    ref = pca.inverse_transform(pca.transform(X.numpy())) @ W.numpy().T + b.numpy()
    A, B, bb = K.input_pca_layer(X, W, b, 2)
    assert A.shape == (4, 2) and B.shape == (2, 6)
    assert np.allclose((X @ B.T @ A.T + bb).numpy(), ref, atol=1e-10)


def test_prune_hidden_units_keeps_highest_scores_and_fills_means():
    H = torch.tensor([[0.0, 1.0, 5.0], [2.0, 1.0, -5.0], [4.0, 1.0, 0.0]], dtype=torch.float64)
    W2 = torch.tensor([[1.0, 10.0, 0.1], [0.0, 0.0, 0.0]], dtype=torch.float64)
    keep, fill = K.prune_hidden_units(H, W2, 1)  # scores: 1*2, 10*0, 0.1*5 -> unit 0
    assert keep.tolist() == [0]
    assert torch.allclose(fill, H.mean(0))
    out = K.pruned_hidden(H, keep, fill)
    assert torch.equal(out[:, 0], H[:, 0])
    assert torch.allclose(out[:, 1:], H.mean(0)[1:].expand(3, 2))
    keep_all, _ = K.prune_hidden_units(H, W2, 3)
    assert torch.equal(K.pruned_hidden(H, keep_all, fill), H)


def test_append_constant():
    X = torch.zeros(2, 3)
    out = K.append_constant(X, 2.5)
    assert out.shape == (2, 4) and torch.all(out[:, -1] == 2.5) and out.dtype == X.dtype


def test_column_sampling_is_unbiased_and_deterministic():
    _, W, _ = _xw(L=4, d=6)
    x = torch.randn(3, 6, generator=torch.Generator().manual_seed(5), dtype=torch.float64)
    idx, Wc = K.column_sample_from_dense(W, 5, seed=1)
    idx2, Wc2 = K.column_sample_from_dense(W, 5, seed=1)
    assert idx.shape == (5,) and Wc.shape == (4, 5)
    assert torch.equal(idx, idx2) and torch.equal(Wc, Wc2)
    # exact expectation over one draw: sum_j p_j * W_j x_j / (c p_j) * c = W x
    p = (W**2).sum(0) / (W**2).sum()
    e1 = sum(p[j] * (W[:, j:j + 1] / torch.sqrt(p[j])) * (x[:, j] / torch.sqrt(p[j])) for j in range(6))
    assert torch.allclose(e1.T, x @ W.T, atol=1e-12)
    # zero-weight columns are never drawn
    W0 = W.clone()
    W0[:, 2] = 0
    assert 2 not in K.column_sample_from_dense(W0, 50, seed=3)[0].tolist()
    assert K.flops_sampled(64, 256, 38, 2) == 2 * 38 * 256 + 256 + 4 * 256


def test_flop_and_param_counts_hand_counted():
    assert K.flops_dense(3, 2, 2) == 2 * 3 * 2 + 2 + 8
    # d=3, L=2, m=1, K=2, D=5: norm 6, projections 2*2*1*5=20, product 1, output 2*2*1*2=8, constant 2
    assert K.flops_eugen(3, 2, 1, 2) == 6 + 20 + 1 + 8 + 2
    assert K.flops_lowrank(3, 2, 1, 1) == 6 + 4 + 2 + 4
    assert K.params_dense(3, 2) == 8
    assert K.params_eugen(3, 2, 4, 2) == 16 + 2
    assert K.params_eugen(3, 2, 4, 2, store_G=True) == 16 + 2 + 40
    assert K.params_lowrank(3, 2, 1) == 7
    assert K.peak_bytes_lowrank(2, 3, 2, 1) == 4 * (5 + 2 + 2 * 6)
    # linear vs quadratic in the width
    w = np.array([256, 512, 1024, 2048])
    e = np.array([K.flops_eugen(int(v), int(v), 64, 2) for v in w])
    dn = np.array([K.flops_dense(int(v), int(v), 2) for v in w])
    assert np.allclose(np.diff(np.log(e)) / np.log(2), 1, atol=0.01)
    assert np.allclose(np.diff(np.log(dn)) / np.log(2), 2, atol=0.01)


def test_page_cost_formulas_at_the_sizes_counted():
    """The closed-form counts the page used to show as claims (flops-linear, flops-ratio-widest,
    memory-ratio-widest): identities of our formulas at the page's sizes (m=128, K=2, batch 32)."""
    w = np.array([256, 512, 1024, 2048])
    fe = np.array([K.flops_eugen(int(v), int(v), 128, 2) for v in w])
    fd = np.array([K.flops_dense(int(v), int(v), 2) for v in w])
    slope_e = np.polyfit(np.log(w), np.log(fe), 1)[0]
    assert 0.99 <= slope_e <= 1.01
    # at width 2048: (2*2048 + 4*128*2050 + 128 + 4*128*2048 + 2048) / (2*2048^2 + 2048 + 4*2048)
    assert fe[-1] == 2 * 2048 + 4 * 128 * 2050 + 128 + 4 * 128 * 2048 + 2048
    assert math.isclose(fe[-1] / fd[-1], 0.2506, abs_tol=1e-4)
    assert fe[0] > fd[0]  # no saving at width 256 = K m
    mem = K.peak_bytes_eugen(32, 2048, 2048, 128, 2) / K.peak_bytes_dense(32, 2048, 2048)
    assert math.isclose(mem, 0.2921, abs_tol=1e-4)


def test_count_work_matrix_product_and_elementwise():
    a, b = torch.randn(3, 5), torch.randn(5, 7)
    assert K.count_work(lambda: a @ b) == {"flops": 2 * 3 * 5 * 7, "kernels": 1}
    assert K.count_work(lambda: a + 1.0)["flops"] == 15
    assert K.count_work(lambda: a.T.reshape(5, 3).contiguous())["flops"] == 0  # views and copies: no arithmetic
    G = torch.randn(2, 4, 5)
    assert K.count_work(lambda: torch.einsum("nd,kmd->nkm", a, G))["flops"] == 2 * 3 * 5 * 8


def test_count_work_of_running_layers_matches_formulas():
    """The ops counted while running each layer agree with the closed-form counts (norm: 1 op per element
    counted, 2 in the formula)."""
    n, d, L, m, Kk = 8, 40, 30, 6, 2
    x, W, b = torch.randn(n, d), torch.randn(L, d), torch.randn(L)
    layer = K.EUGenLinear(d, L, m, Kk, dtype=torch.float32).requires_grad_(False)
    with torch.no_grad():
        dense = K.count_work(lambda: K.dense_poly_layer(x, W, b, COEFFS))["flops"]
        eug = K.count_work(lambda: layer(x))["flops"]
    assert dense == n * K.flops_dense(d, L, 2)
    assert abs(eug / (n * K.flops_eugen(d, L, m, Kk)) - 1) < 0.02


def test_tied_projections_control_is_biased():
    """The control estimator (one projection for both orders) is biased: its mean misses f(w.x)."""
    x, W, _ = _xw(n=2, d=5, L=3, seed=2)
    exact = K.dense_poly_layer(x, W, None, COEFFS)
    fair = K.eugen_estimates(x, W, None, COEFFS, m=500, draws=200, seed=1).mean(0)
    tied = K.eugen_estimates(x, W, None, COEFFS, m=500, draws=200, seed=1, independent=False).mean(0)
    assert (fair - exact).abs().max() < 0.02
    # bias = a_2 (||w||^2 ||x||^2 + (w.x)^2)
    bias = 0.5 * (W.norm(dim=1)[None] ** 2 * x.norm(dim=1)[:, None] ** 2 + (x @ W.T) ** 2)
    assert torch.allclose(tied - exact, bias, rtol=0.1, atol=0.02)


def test_traced_peak_bytes_measures_the_forward_pass():
    rng = np.random.default_rng(0)
    x, W, b = (rng.standard_normal(s).astype(np.float32) for s in ((16, 300), (200, 300), (200,)))
    peak = K.traced_peak_bytes(K.numpy_forward_dense, x, W, b)
    assert peak >= x.nbytes + W.nbytes + b.nbytes + 16 * 200 * 4
    assert 0.8 <= peak / K.peak_bytes_dense(16, 300, 200) <= 1.3


def test_peak_bytes_count_against_tracemalloc():
    """The deterministic byte counts bound the measured numpy allocations of each forward pass."""
    rng = np.random.default_rng(0)
    n, d, L, m, Kk = 32, 200, 300, 16, 2
    x = rng.standard_normal((n, d)).astype(np.float32)
    W, b = rng.standard_normal((L, d)).astype(np.float32), np.zeros(L, np.float32)
    G = rng.standard_normal((Kk, m, d + 2)).astype(np.float32)
    V, c = rng.standard_normal((L, Kk, m)).astype(np.float32), np.zeros(L, np.float32)
    weights_d, weights_e = W.nbytes + b.nbytes + x.nbytes, G.nbytes + V.nbytes + c.nbytes + x.nbytes
    peaks = []
    for fn, args in ((K.numpy_forward_dense, (x, W, b)), (K.numpy_forward_eugen, (x, G, V, c))):
        tracemalloc.start()
        fn(*args)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert 0.8 <= (weights_d + peaks[0]) / K.peak_bytes_dense(n, d, L) <= 1.3
    assert 0.8 <= (weights_e + peaks[1]) / K.peak_bytes_eugen(n, d, L, m, Kk) <= 1.3
    assert K.peak_bytes_eugen(n, d, L, m, Kk) < K.peak_bytes_dense(n, d, L)


def test_teacher_training_learns_and_accuracy():
    g = torch.Generator().manual_seed(0)
    X = torch.randn(200, 4, generator=g)
    y = (X[:, 0] > 0).long()
    T = K.train_mlp(X, y, 16, (0.0, 1.0, 0.5), steps=100, lr=1e-2, seed=0)
    h = K.poly_activation(X @ T["W1"].T + T["b1"], (0.0, 1.0, 0.5))
    assert K.accuracy(h, T["W2"], T["b2"], y) > 0.9


@pytest.mark.parametrize("bad", [
    lambda: K.poly_activation(torch.ones(2), (1.0,)),
    lambda: K.dense_poly_layer(torch.ones(2, 3), torch.ones(4, 2), None, COEFFS),
    lambda: K.augment_input(torch.ones(3)),
    lambda: K.augment_weight(torch.ones(2, 3), torch.ones(3)),
    lambda: K.draw_projections(0, 3, 3, 0),
    lambda: K.draw_projections(1, 3, 3, -1),
    lambda: K.eugen_features(torch.ones(2, 3), torch.ones(1, 2, 4)),
    lambda: K.eugen_weight_map(torch.ones(2, 3), torch.ones(1, 2, 3), COEFFS),
    lambda: K.eugen_forward(torch.ones(2, 3), torch.ones(2, 2, 3), torch.ones(4, 2, 3, 1), torch.ones(4)),
    lambda: K.fit_eugen_layerwise(torch.ones(3, 2), torch.ones(4, 1), 2, 2, 1.0),
    lambda: K.fit_eugen_layerwise(torch.ones(3, 2), torch.ones(3, 1), 2, 2, 0.0),
    lambda: K.lowrank_from_dense(torch.ones(3, 2), 3),
    lambda: K.column_sample_from_dense(torch.zeros(3, 2), 1, 0),
    lambda: K.column_sample_from_dense(torch.ones(3, 2), 0, 0),
    lambda: K.flops_eugen(0, 2, 3, 1),
    lambda: K.params_dense(2, 0),
    lambda: K.peak_bytes_eugen(1, 1, 1, 0, 1),
    lambda: K.peak_bytes_lowrank(1, 1, 1, 0),
    lambda: K.best_time(lambda: None, 0),
    lambda: K.count_work(3),
    lambda: K.traced_peak_bytes(K.numpy_forward_dense),
    lambda: K.input_pca_layer(torch.ones(5, 3), torch.ones(2, 4), torch.zeros(2), 1),
    lambda: K.input_pca_layer(torch.ones(5, 3), torch.ones(2, 3), torch.zeros(2), 4),
    lambda: K.prune_hidden_units(torch.ones(5, 3), torch.ones(2, 3), 4),
    lambda: K.prune_hidden_units(torch.ones(5, 3), torch.ones(2, 4), 1),
    lambda: K.append_constant(torch.ones(3), 1.0),
])
def test_bad_inputs_raise(bad):
    with pytest.raises(ValueError):
        bad()
