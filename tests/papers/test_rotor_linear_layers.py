import itertools
import math

import numpy as np
import pytest
import scipy.linalg
import torch

from repro.papers import rotor_linear_layers as K

D64 = torch.float64


def basis(n, blade):
    e = torch.zeros(2**n, dtype=D64)
    e[blade] = 1.0
    return e


def distinct_bivector(n, seed=0):
    """Random bivector whose invariant planes have well-separated angles (power iteration converges)."""
    S = K.separated_skew(n, np.random.default_rng(seed))
    return K.skew_to_bivector(torch.as_tensor(S), n)


def test_basis_relations():
    n = 4
    one = basis(n, 0)
    for i in range(n):
        ei = basis(n, 1 << i)
        assert torch.allclose(K.geometric_product(ei, ei, n), one)
        for j in range(i + 1, n):
            ej = basis(n, 1 << j)
            eij = K.geometric_product(ei, ej, n)
            assert torch.allclose(eij, -K.geometric_product(ej, ei, n))
            assert torch.allclose(eij, basis(n, (1 << i) | (1 << j)))  # e_i e_j = +e_ij for i<j


def test_associativity_and_cl2_closed_form():
    n = 4
    g = torch.Generator().manual_seed(0)
    a, b, c = (torch.randn(2**n, generator=g, dtype=D64) for _ in range(3))
    lhs = K.geometric_product(K.geometric_product(a, b, n), c, n)
    rhs = K.geometric_product(a, K.geometric_product(b, c, n), n)
    assert torch.allclose(lhs, rhs, atol=1e-12)
    # Cl(0,... ) pseudoscalar: e12 e12 = -1 ; Cl(2) is isomorphic to 2x2 real matrices (brute force check)
    e1 = np.array([[1.0, 0], [0, -1]])
    e2 = np.array([[0.0, 1], [1, 0]])
    mats = [np.eye(2), e1, e2, e1 @ e2]
    x, y = (torch.randn(4, generator=g, dtype=D64) for _ in range(2))
    to_mat = lambda v: sum(float(v[k]) * mats[k] for k in range(4))  # noqa: E731
    z = K.geometric_product(x, y, 2)
    assert np.allclose(to_mat(z), to_mat(x) @ to_mat(y))


def test_reverse_signs():
    n = 4
    a = torch.ones(2**n, dtype=D64)
    r = K.reverse(a, n).numpy()
    expected = [{0: 1, 1: 1, 2: -1, 3: -1, 4: 1}[k] for k in K.blade_grades(n)]
    assert np.array_equal(r, expected)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_decomposition_sum_simple_commuting(n):
    B = distinct_bivector(n, seed=n)
    parts = K.invariant_decomposition(B, n, iters=7)
    assert len(parts) == n // 2
    assert torch.allclose(sum(parts), B, atol=1e-12)
    grades = torch.as_tensor(K.blade_grades(n))
    for p in parts:
        bp = K.embed_bivector(p, n)
        sq = K.geometric_product(bp, bp, n)
        assert sq[grades == 4].abs().sum() < 1e-9  # b ^ b = 0: simple (no grade 4 when n = 3)
        assert torch.isclose(sq[0], -(p * p).sum())  # b^2 = -|b|^2
    for p, q in itertools.combinations(parts, 2):
        bp, bq = K.embed_bivector(p, n), K.embed_bivector(q, n)
        assert torch.allclose(K.geometric_product(bp, bq, n), K.geometric_product(bq, bp, n), atol=1e-9)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_rotor_unit_orthogonal_grade_blocks_expm(n):
    B = distinct_bivector(n, seed=10 + n) if n >= 4 else torch.randn(math.comb(n, 2), dtype=D64)
    R = K.rotor_from_bivector(B, n, iters=7)
    assert torch.allclose(K.geometric_product(R, K.reverse(R, n), n), basis(n, 0), atol=1e-12)
    M = K.sandwich_matrix(R, n).numpy()
    assert np.abs(M.T @ M - np.eye(2**n)).max() < 1e-12
    g = K.blade_grades(n)
    assert np.abs(M[g[:, None] != g[None, :]]).max() < 1e-12
    i1 = np.where(g == 1)[0]
    S = K.bivector_to_skew(B, n).numpy()
    assert np.abs(M[np.ix_(i1, i1)] - scipy.linalg.expm(S)).max() < 1e-10
    assert np.abs(M[np.ix_(i1, i1)] - scipy.linalg.expm(-S)).max() > 1e-3  # sign convention is pinned


def test_simple_exp_matches_expm_of_left_multiplication():
    n = 3
    b = torch.tensor([0.3, 0.0, 0.0], dtype=D64) * 3  # 0.9 e12, simple
    bm = K.embed_bivector(b, n)
    L = torch.stack([K.geometric_product(bm, basis(n, k), n) for k in range(2**n)], 1).numpy()
    expected = scipy.linalg.expm(L)[:, 0]  # exp(b) = exp(L_b) applied to the scalar 1
    assert np.allclose(K.simple_bivector_exp(b, n).numpy(), expected)


def test_double_rotor_orthogonal_parity_preserving():
    n = 4
    R1 = K.rotor_from_bivector(distinct_bivector(n, 1), n, 7)
    R2 = K.rotor_from_bivector(distinct_bivector(n, 2), n, 7)
    M = K.sandwich_matrix(R1, n, R2).numpy()
    assert np.abs(M.T @ M - np.eye(16)).max() < 1e-12
    g = K.blade_grades(n)
    assert np.abs(M[(g[:, None] - g[None, :]) % 2 == 1]).max() < 1e-12
    assert np.abs(M[g[:, None] != g[None, :]]).max() > 1e-3  # not grade-preserving in general


def test_gradcheck_rotor_and_layer():
    n = 4
    B = distinct_bivector(n, 3).clone().requires_grad_(True)
    assert torch.autograd.gradcheck(lambda b: K.sandwich_matrix(K.rotor_from_bivector(b, n, 5), n), (B,))
    layer = K.RotorLinear(8, 8, 4, single_rotor=False, bias=True).double()
    x = torch.randn(3, 8, dtype=D64, requires_grad=True)
    assert torch.autograd.gradcheck(layer, (x,))
    params = [layer.B_left, layer.B_right, layer.alpha]
    f = lambda bl, br, al: K.sandwich_matrix(  # noqa: E731
        K.rotor_from_bivector(bl, 2), 2, K.rotor_from_bivector(br, 2)) * al[..., None, None]
    assert torch.autograd.gradcheck(f, tuple(p.detach().clone().requires_grad_(True) for p in params))


def test_parameter_counts():
    for n in range(2, 8):
        d = 2**n
        assert K.rotor_param_count(d) == math.comb(n, 2)
        assert K.rotor_param_count(d, single_rotor=False) == 2 * math.comb(n, 2)
    assert K.n_params(K.RotorLinear(32, 32, 32, scale=False)) == 10
    assert K.n_params(K.RotorLinear(32, 32, 32, single_rotor=False, scale=False)) == 20
    assert K.n_params(K.RotorLinear(16, 32, 8, bias=True)) == 2 * 4 * 3 + 8 + 32
    assert K.n_params(K.LowRankLinear(16, 16, 2)) == 2 * 32 + 16
    assert K.n_params(K.BlockHadamardLinear(16, 4)) == 16 * 4 + 16


def test_layers_match_explicit_matrices():
    torch.manual_seed(0)
    x = torch.randn(5, 16)
    rl = K.RotorLinear(16, 16, 8, single_rotor=True, bias=False)
    M = rl.matrices().detach()[0]
    y = torch.cat([(M[o, 0] @ x[:, :8].T + M[o, 1] @ x[:, 8:].T).T / 2 for o in range(2)], 1)
    assert torch.allclose(rl(x), y, atol=1e-5)
    bh = K.BlockHadamardLinear(16, 4)
    W = torch.block_diag(*bh.W.detach())
    H = torch.as_tensor(scipy.linalg.hadamard(16) / 4.0, dtype=torch.float32)
    assert torch.allclose(bh(x), x @ (H @ W).T, atol=1e-5)
    assert np.allclose((bh.H @ bh.H.T).numpy(), np.eye(16), atol=1e-6)


def test_grouped_rotor_layer_equals_separate_layers():
    torch.manual_seed(1)
    x = torch.randn(4, 3, 8)
    grouped = K.RotorLinear(8, 8, 4, single_rotor=False, bias=True, groups=3)
    with torch.no_grad():
        grouped.bias.normal_()
    y = grouped(x)
    for k in range(3):
        one = K.RotorLinear(8, 8, 4, single_rotor=False, bias=True)
        with torch.no_grad():
            one.B_left.copy_(grouped.B_left[k:k + 1])
            one.B_right.copy_(grouped.B_right[k:k + 1])
            one.alpha.copy_(grouped.alpha[k:k + 1])
            one.bias.copy_(grouped.bias[8 * k:8 * (k + 1)])
        assert torch.allclose(y[..., 8 * k:8 * (k + 1)], one(x), atol=1e-6)
    stack = K.RotorStack(8, 8, depth=2, groups=3)
    assert stack(x).shape == (4, 3, 24)
    assert K.n_params(stack) == 3 * (2 * 3 + 1) * 2 + 1 + 24
    with pytest.raises(ValueError):
        grouped(torch.randn(2, 12))


def test_distill_recovers_rotor_and_classifier_shapes():
    torch.manual_seed(0)
    target = K.RotorLinear(8, 8, 8, single_rotor=True, bias=False)
    X = torch.randn(256, 8)
    with torch.no_grad():
        Y = target(X)
    student = K.RotorLinear(8, 8, 8, single_rotor=True, bias=False)
    lr = K.LowRankLinear(8, 8, 1)
    assert K.distill_projection(student, X, Y, 300)[0] < 1e-3 < K.distill_projection(lr, X, Y, 300)[0]
    m = K.TinyAttentionClassifier(8, 8, 16, 2, 10)
    assert m(torch.randn(4, 8, 8)).shape == (4, 10)


def test_replacements_and_weight_counts():
    d = 16
    for name in K.REPLACEMENTS:
        m = K.qkv_replacement(name, d)
        assert m(torch.randn(2, 5, d)).shape == (2, 5, 3 * d)
    assert K.n_params(K.qkv_replacement("LR1", d)) == 3 * (K.weight_count("LR1", d) + d)
    assert K.n_params(K.qkv_replacement("BH2", d)) == 3 * (K.weight_count("BH2", d) + d)
    assert K.n_params(K.qkv_replacement("rotor-2", d)) == 3 * (K.weight_count("rotor-2", d) + 1 + d)
    assert K.weight_count("dense", 32) == 1024 and K.weight_count("rotor-1", 32) == 10
    with pytest.raises(ValueError):
        K.qkv_replacement("rotor-9", d)
    with pytest.raises(ValueError):
        K.weight_count("foo", d)


def test_bad_inputs():
    with pytest.raises(ValueError):
        K.cayley_table(0)
    with pytest.raises(ValueError):
        K.geometric_product(torch.zeros(7), torch.zeros(8), 3)
    with pytest.raises(ValueError):
        K.bivector_to_skew(torch.zeros(4), 3)
    with pytest.raises(ValueError):
        K.invariant_decomposition(torch.zeros(6), 4, iters=0)
    with pytest.raises(ValueError):
        K.rotor_param_count(12)
    with pytest.raises(ValueError):
        K.RotorLinear(16, 16, 6)
    with pytest.raises(ValueError):
        K.RotorLinear(12, 16, 8)
    with pytest.raises(ValueError):
        K.LowRankLinear(8, 8, 0)
    with pytest.raises(ValueError):
        K.BlockHadamardLinear(12, 4)
    with pytest.raises(ValueError):
        K.distill_projection(K.LowRankLinear(4, 4, 1), torch.zeros(2, 4), torch.zeros(2, 4), 0)


def test_rotor_without_decomposition_is_exact_only_for_simple_bivectors():
    B3 = torch.randn(3, dtype=D64)  # every bivector of Cl(3) is simple
    assert torch.allclose(K.rotor_without_decomposition(B3, 3), K.rotor_from_bivector(B3, 3, 7), atol=1e-12)
    B4 = distinct_bivector(4, seed=5)  # two planes: not simple
    R = K.rotor_without_decomposition(B4, 4)
    assert (K.geometric_product(R, K.reverse(R, 4), 4) - basis(4, 0)).abs().max() > 1e-2


def test_without_bivectors_leaves_scaled_permuted_identity():
    torch.manual_seed(2)
    stack = K.RotorStack(8, 8, depth=2, groups=3)
    before = K.n_params(stack)
    assert K.without_bivectors(stack) is stack
    assert K.n_params(stack) == before - 3 * 2 * 2 * 3  # 3 groups x 2 layers x 2 rotors x C(3,2)
    layer = stack.net[2]
    with torch.no_grad():
        layer.alpha.fill_(1.5)
        layer.bias.normal_()
    M = layer.matrices()
    assert torch.allclose(M, 1.5 * torch.eye(8).expand_as(M), atol=1e-6)
    x = torch.randn(4, 24)
    assert torch.allclose(layer(x), 1.5 * x[..., layer.perm] + layer.bias, atol=1e-5)
    loss = stack(torch.randn(5, 8)).square().sum()
    loss.backward()
    assert all(torch.isfinite(p.grad).all() for p in stack.parameters() if p.requires_grad)
    with pytest.raises(ValueError):
        K.without_bivectors(K.LowRankLinear(4, 4, 1))


@pytest.mark.parametrize("d", [8, 16, 32, 64, 128])
def test_rotor_module_counts_are_log_squared(d):
    """Formerly the page's claims param-count and params-d32: counts of modules whose shapes declare them."""
    n = int(math.log2(d))
    assert K.n_params(K.RotorLinear(d, d, d, single_rotor=True, scale=False)) == math.comb(n, 2)
    assert K.n_params(K.RotorLinear(d, d, d, single_rotor=False, scale=False)) == 2 * math.comb(n, 2)


@pytest.mark.parametrize("d", [16, 32])
def test_rotor_stack_budget_at_most_lr1_and_bh2(d):
    """The page's comparison is within budget: rotor stack parameters <= LR1's = BH2's (per Q/K/V)."""
    stack = K.n_params(K.qkv_replacement("rotor-stack", d))
    assert stack <= K.n_params(K.qkv_replacement("LR1", d)) == K.n_params(K.qkv_replacement("BH2", d))
