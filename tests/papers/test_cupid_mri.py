"""Unit tests of :mod:`repro.papers.cupid_mri`, the kernels of ``notebooks/cupid-mri.py``.

The encoding operator against its adjoint (dot-product test) and a dense matrix; E^H E = I under full sampling;
the row-wise normal matrices and their exact solve against CG and a dense solve; the orthonormal Haar transform
(isometry, inverse, one level by hand); the reweighted l1 against a hand trace of the official
``wavelet_loss_function``; FISTA against the lasso's optimality conditions; the PIF loss against its closed form
for a linear f; the official code (golden file: operators, mask, CG, data consistency, network, perturbations,
and, from pytorch_wavelets 1.3.0, the DTCWT, the periodized DWT, both losses, the CS module and the whole loss);
and bad input.
"""

import inspect
import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch

from repro.papers import cupid_mri as K

C128 = torch.complex128


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/cupid_mri.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def crandn(*shape, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.complex(torch.randn(*shape, generator=g, dtype=torch.float64),
                         torch.randn(*shape, generator=g, dtype=torch.float64))


def setup(n=(12, 16), nc=4, R=4, acs=4):
    maps = K.make_coil_maps(n, nc, seed=1, dtype=C128)
    mask = K.cartesian_mask(n, R, acs)
    return maps, mask


# ----------------------------------------------------------------------------- images and acquisition
def test_phantoms_are_in_unit_range_and_seeded():
    a = K.random_ellipse_phantoms(3, 24, np.random.default_rng(0))
    b = K.random_ellipse_phantoms(3, 24, np.random.default_rng(0))
    np.testing.assert_array_equal(a, b)
    assert a.shape == (3, 24, 24) and a.min() >= 0 and np.allclose(a.max(axis=(1, 2)), 1.0)
    s = K.shepp_logan(32)
    assert s.shape == (32, 32) and s.max() == pytest.approx(1.0) and s.min() >= 0
    ph = K.smooth_phase(2, 16, np.random.default_rng(1), max_phase=1.0)
    assert np.abs(ph).max() == pytest.approx(1.0)


def test_coil_maps_are_sense_normalised():
    maps = K.make_coil_maps((10, 14), 6, seed=3, dtype=C128)
    assert maps.shape == (6, 10, 14)
    np.testing.assert_allclose((maps.abs() ** 2).sum(0).numpy(), 1.0, atol=1e-12)


def test_mask_is_the_official_equidistant_pattern_plus_acs():
    m = K.cartesian_mask((4, 12), 4, 4)
    cols = torch.nonzero(m[0]).flatten().tolist()
    assert cols == [0, 3, 4, 5, 6, 8]  # 0::4 and the ACS block from int((12-4)/2)-1 = 3
    assert bool((m == m[:1]).all())
    r = K.cartesian_mask((4, 32), 4, 4, seed=0, kind="random")
    assert int(r[0].sum()) == 8


def test_fft2c_is_unitary_and_centred():
    x = crandn(3, 8, 10)
    k = K.fft2c(x)
    np.testing.assert_allclose(float(torch.linalg.vector_norm(k)), float(torch.linalg.vector_norm(x)), rtol=1e-12)
    np.testing.assert_allclose(K.ifft2c(k).numpy(), x.numpy(), atol=1e-12)
    one = torch.ones(8, 10, dtype=C128)
    kk = K.fft2c(one).abs()
    assert kk[4, 5] == pytest.approx(math.sqrt(80)) and float(kk.sum() - kk[4, 5]) < 1e-10  # DC at the centre


def test_adjoint_dot_product():
    maps, mask = setup()
    x, y = crandn(2, 12, 16, seed=1), crandn(2, 4, 12, 16, seed=2)
    lhs = torch.vdot(K.E_forward(x, maps, mask).flatten(), y.flatten())
    rhs = torch.vdot(x.flatten(), K.E_adjoint(y, maps, mask).flatten())
    assert abs(complex(lhs - rhs)) <= 1e-10 * abs(complex(lhs))


def test_E_against_a_dense_matrix():
    n = (4, 6)
    maps, mask = K.make_coil_maps(n, 2, seed=0, dtype=C128), K.cartesian_mask(n, 2, 2)
    N = n[0] * n[1]
    basis = torch.eye(N, dtype=C128).reshape(N, *n)
    Emat = K.E_forward(basis, maps, mask).reshape(N, -1).T  # (coils*N, N)
    F = np.kron(*[np.fft.fftshift(np.fft.fft(np.fft.ifftshift(np.eye(m), axes=0), axis=0, norm="ortho"), axes=0)
                  for m in n])
    blocks = [np.diag(mask.numpy().ravel().astype(float)) @ F @ np.diag(maps[c].numpy().ravel()) for c in range(2)]
    np.testing.assert_allclose(Emat.numpy(), np.vstack(blocks), atol=1e-12)


def test_full_sampling_gives_identity_normal_operator_and_exact_cg_sense():
    maps = K.make_coil_maps((8, 8), 4, seed=0, dtype=C128)
    full = torch.ones(8, 8, dtype=torch.bool)
    x = crandn(2, 8, 8, seed=3)
    np.testing.assert_allclose(K.EhE(x, maps, full).numpy(), x.numpy(), atol=1e-12)
    np.testing.assert_allclose(K.cg_sense(K.E_forward(x, maps, full), maps, full, 0.0, 3).numpy(), x.numpy(),
                               atol=1e-12)


def test_cg_solve_matches_a_dense_solve():
    maps, mask = setup((6, 8), nc=3, R=2, acs=2)
    rhs = crandn(2, 6, 8, seed=4)
    mu = 0.3
    x = K.cg_solve(rhs, maps, mask, mu, 60)
    np.testing.assert_allclose((K.EhE(x, maps, mask) + mu * x).numpy(), rhs.numpy(), atol=1e-10)


def test_row_normal_operator_equals_EhE_and_solves_exactly():
    maps, mask = setup()
    op = K.RowNormalOperator(maps, mask)
    x = crandn(3, 12, 16, seed=5)
    np.testing.assert_allclose(op.apply(x).numpy(), K.EhE(x, maps, mask).numpy(), atol=1e-12)
    for mu in (0.05, 1.0):
        s = op.solve(x, mu)
        np.testing.assert_allclose((K.EhE(s, maps, mask) + mu * s).numpy(), x.numpy(), atol=1e-10)
        np.testing.assert_allclose(s.numpy(), K.cg_solve(x, maps, mask, mu, 300).numpy(), atol=1e-7)
    assert float(op.evals.max()) <= 1 + 1e-10 and float(op.evals.min()) >= 0


def test_row_normal_operator_is_differentiable_in_mu():
    maps, mask = setup((8, 8), nc=2, R=2, acs=2)
    op = K.RowNormalOperator(maps, mask)
    x = crandn(1, 8, 8, seed=6)
    mu = torch.tensor(0.2, dtype=torch.float64, requires_grad=True)
    f = op.solve(x, mu).abs().pow(2).sum()
    (g,) = torch.autograd.grad(f, mu)
    h = 1e-6
    fd = (op.solve(x, 0.2 + h).abs().pow(2).sum() - op.solve(x, 0.2 - h).abs().pow(2).sum()) / (2 * h)
    assert float(g) == pytest.approx(float(fd), rel=1e-5)


def test_data_consistency_is_the_regularised_least_squares_solution():
    maps, mask = setup((8, 8), nc=3, R=2, acs=2)
    z, r = crandn(1, 8, 8, seed=7), crandn(1, 8, 8, seed=8)
    x = K.data_consistency(z, r, maps, mask, 0.1, 100)
    np.testing.assert_allclose((K.EhE(x, maps, mask) + 0.1 * x).numpy(), (z + 0.1 * r).numpy(), atol=1e-10)


# ----------------------------------------------------------------------------- wavelets, CS
@pytest.mark.parametrize("level", [1, 2, 3])
def test_haar_is_an_orthonormal_isometry_with_an_exact_inverse(level):
    x = crandn(2, 16, 24, seed=level)
    c = K.haar2d(x, level)
    assert float(torch.linalg.vector_norm(c)) == pytest.approx(float(torch.linalg.vector_norm(x)), rel=1e-13)
    np.testing.assert_allclose(K.ihaar2d(c, level).numpy(), x.numpy(), atol=1e-12)


def test_haar_one_level_by_hand():
    x = torch.tensor([[1.0, 3.0], [5.0, 7.0]], dtype=torch.float64)
    c = K.haar2d(x, 1)
    # LL = sum/2, LH (horizontal diff of row sums) = (1-3+5-7)/2, HL = (1+3-5-7)/2, HH = (1-3-5+7)/2
    np.testing.assert_allclose(c.numpy(), [[8.0, -2.0], [-4.0, 0.0]], atol=1e-14)
    assert float(K.haar2d(torch.ones(8, 8, dtype=torch.float64), 3).abs().gt(1e-12).sum()) == 1  # constant: 1 coef


def test_reweighted_l1_hand_trace_and_count():
    x, ref = crandn(1, 8, 8, seed=9), crandn(1, 8, 8, seed=10)
    eps = 1e-4
    want = float((K.haar2d(x, 2).abs() / (K.haar2d(ref, 2).abs() + eps)).sum() / 64)
    assert float(K.wavelet_reweighted_l1(x, ref, eps, 2)[0]) == pytest.approx(want, rel=1e-12)
    # at x = x_ref each coefficient with |c| >> eps contributes about 1: the loss counts them (over H*W)
    img = torch.zeros(1, 8, 8, dtype=C128)
    img[0, 2:6, 1:5] = 1.0
    c = K.haar2d(img, 2).abs()
    n_big = int((c > 1e-3).sum())
    assert float(K.wavelet_reweighted_l1(img, img, 1e-8, 2)[0]) * 64 == pytest.approx(n_big, rel=1e-6)


def test_soft_threshold_closed_form():
    c = torch.tensor([3 + 4j, 0.1 + 0j, 0j, -2 + 0j], dtype=C128)
    out = K.soft_threshold(c, 1.0)
    np.testing.assert_allclose(out.numpy(), [(3 + 4j) * 4 / 5, 0, 0, -1], atol=1e-14)


def test_fista_meets_the_lasso_optimality_conditions():
    maps, mask = setup((8, 8), nc=3, R=2, acs=2)
    x0 = crandn(1, 8, 8, seed=11)
    y = K.E_forward(x0, maps, mask)
    lam, level = 0.05, 2
    x = K.fista_cs(y, maps, mask, lam, 400, level=level)
    g = K.haar2d(K.EhE(x, maps, mask) - K.E_adjoint(y, maps, mask), level)[0]  # gradient in the wavelet domain
    c = K.haar2d(x, level)[0]
    detail = torch.ones(8, 8, dtype=torch.bool)
    detail[:2, :2] = False
    nz = detail & (c.abs() > 1e-8)
    assert float((g + lam * c / c.abs().clamp(min=1e-30))[nz].abs().max()) < 1e-5  # -grad = lam * sign on support
    off = g[detail & ~nz].abs()
    assert off.numel() == 0 or float(off.max()) <= lam + 1e-6
    assert float(g[~detail].abs().max()) < 1e-5  # the approximation band is not penalised


# ----------------------------------------------------------------------------- perturbations, PIF
def test_perturbation_intensities_follow_the_official_formula():
    M = 5e-2
    for k, mult in enumerate((1, -1, 0.25, -0.25, 0.5, -0.5)):
        th = k * math.pi / 6
        v = K.perturbation_intensity(k, 6, M)
        assert v == pytest.approx(complex(M * math.cos(th), abs(M * math.sin(th)) * mult), abs=1e-15)
    p = K.make_perturbations((32, 32), 6)
    assert p.shape == (6, 32, 32)
    for k in range(6):
        vals = p[k][p[k] != 0]
        assert vals.numel() > 50 and bool((vals == vals[0]).all())


def test_pif_loss_is_zero_for_the_inverse_under_full_sampling_and_closed_form_for_a_linear_map():
    maps = K.make_coil_maps((16, 16), 3, seed=0, dtype=C128)
    full = torch.ones(16, 16, dtype=torch.bool)
    op = K.RowNormalOperator(maps, full)
    perts = K.make_perturbations((16, 16), 3, dtype=C128)
    z = crandn(2, 16, 16, seed=12)
    assert float(K.pif_loss(lambda u: u, z, perts, op)) < 1e-12  # f = (E^H E)^{-1} = I
    # f(u) = a u: difference a E^H E p = a p under full sampling, loss |a - 1|
    assert float(K.pif_loss(lambda u: 0.7 * u, z, perts, op)) == pytest.approx(0.3, rel=1e-12)
    mask = K.cartesian_mask((16, 16), 4, 2)
    op2 = K.RowNormalOperator(maps, mask)
    want = np.mean([float(torch.linalg.vector_norm(op2.apply(p) - p) / torch.linalg.vector_norm(p)) for p in perts])
    assert float(K.pif_loss(lambda u: u, z, perts, op2)) == pytest.approx(want, rel=1e-12)


def test_cupid_loss_terms_and_training_reduce_the_loss():
    torch.manual_seed(0)
    n = 16
    maps = K.make_coil_maps((n, n), 4, seed=0)
    mask = K.cartesian_mask((n, n), 2, 4)
    op = K.RowNormalOperator(maps, mask)
    x = torch.tensor(K.random_ellipse_phantoms(2, n, np.random.default_rng(0)), dtype=torch.complex64)
    perts = K.make_perturbations((n, n), 2)
    sup = torch.ones(n, n, dtype=torch.bool)
    net = K.UnrolledNet(2, 4, 0, 1)
    total, parts = K.cupid_loss(net, op.apply(x), x, perts, op, sup, lam=10.0, level=2)
    assert float(total.detach()) == pytest.approx(10 * parts["pif"] + parts["comp"], rel=1e-5)
    t0, p0 = K.cupid_loss(net, op.apply(x), x, perts, op, sup, lam=0.0, level=2)
    assert p0["pif"] == 0 and float(t0) == pytest.approx(p0["comp"], rel=1e-6)
    h = K.train_cupid(net, x, x, perts, op, sup, lam=10.0, steps=30, lr=3e-3, batch=2, level=2)
    assert np.mean(h["total"][-5:]) < h["total"][0]


def test_supervised_training_reduces_the_loss():
    torch.manual_seed(0)
    n = 16
    maps, mask = K.make_coil_maps((n, n), 4, seed=0), K.cartesian_mask((n, n), 2, 4)
    op = K.RowNormalOperator(maps, mask)
    x = torch.tensor(K.random_ellipse_phantoms(3, n, np.random.default_rng(1)), dtype=torch.complex64)
    y_full = K.E_forward(x, maps, torch.ones_like(mask))
    h = K.train_supervised(K.UnrolledNet(2, 4, 0, 1), y_full * mask, y_full, op, steps=40, lr=3e-3, batch=2)
    assert np.mean(h["total"][-5:]) < h["total"][0]


def test_normalized_l1_l2_and_metrics():
    t = torch.tensor([[1.0, -2.0, 2.0]], dtype=torch.float64)
    p = torch.zeros_like(t)
    assert float(K.normalized_l1_l2(p, t)) == pytest.approx(2.0)
    ref = np.ones((8, 8))
    assert K.psnr(ref, ref + 0.1) == pytest.approx(20.0, abs=1e-6)
    from skimage.metrics import peak_signal_noise_ratio
    rng = np.random.default_rng(0)
    a, b = rng.random((8, 8)), rng.random((8, 8))
    assert K.psnr(a, b) == pytest.approx(peak_signal_noise_ratio(a, b, data_range=a.max()), abs=1e-6)
    assert K.ssim(a, a) == pytest.approx(1.0)


def test_relative_residual_is_zero_at_x_pi_and_scale_invariant():
    maps, mask = setup()
    x = crandn(2, 12, 16, seed=13)
    assert float(K.relative_residual(x, x, maps, mask).max()) == 0.0
    r1 = K.relative_residual(x * 1.1, x, maps, mask)
    np.testing.assert_allclose(r1.numpy(), 0.1, rtol=1e-12)


# ----------------------------------------------------------------------------- golden: the official code
GOLDEN = json.loads((Path(__file__).parent / "golden" / "cupid-mri.json").read_text())
CASES = {c["name"]: c for c in GOLDEN["cases"]}


def _c(d):
    return torch.tensor(np.asarray(d["real"]) + 1j * np.asarray(d["imag"]))


def _inputs():
    i = GOLDEN["inputs"]
    mask = torch.tensor(np.asarray(CASES["generate_mask"]["output"], dtype=bool))
    return _c(i["image"]), _c(i["coil"])[0], _c(i["ksp"]), _c(i["prev"]), mask


def test_golden_file_names_the_official_commit():
    assert GOLDEN["slug"] == "cupid-mri" and GOLDEN["repository"].endswith("ualcalar17/CUPID")
    assert len(GOLDEN["commit"]) == 40


def test_golden_mask():
    assert torch.equal(K.cartesian_mask((8, 12), 4, 4), _inputs()[4])


def test_golden_operators():
    img, maps, ksp, _, mask = _inputs()
    np.testing.assert_allclose(K.E_forward(img, maps, mask).numpy(), _c(CASES["E"]["output"]).numpy(), atol=1e-12)
    np.testing.assert_allclose(K.E_adjoint(ksp, maps, mask).numpy(), _c(CASES["EH"]["output"]).numpy(), atol=1e-12)
    np.testing.assert_allclose(K.EhE(img, maps, mask).numpy(), _c(CASES["EHE"]["output"]).numpy(), atol=1e-12)
    op = K.RowNormalOperator(maps, mask)
    np.testing.assert_allclose(op.apply(img).numpy(), _c(CASES["EHE"]["output"]).numpy(), atol=1e-12)


def test_golden_cg_and_data_consistency():
    _, maps, ksp, prev, mask = _inputs()
    zf = K.E_adjoint(ksp * mask, maps, mask)
    ours = K.data_consistency(zf, prev, maps, mask, 0.05, 15)
    np.testing.assert_allclose(ours.numpy(), _c(CASES["cg_operator_mu0.05_15"]["output"]).numpy(), atol=1e-10)
    np.testing.assert_allclose(ours.numpy(), _c(CASES["Data_consistency"]["output"]).numpy(), atol=1e-10)
    # the exact row-wise solve agrees with the official 15-step CG to its convergence level
    exact = K.RowNormalOperator(maps, mask).solve(zf + 0.05 * prev, 0.05)
    np.testing.assert_allclose(exact.numpy(), ours.numpy(), atol=2e-4)  # 15 CG steps stop ~1e-4 short here


def test_golden_x_pi():
    _, maps, ksp, _, mask = _inputs()
    y = ksp / ksp.abs().max()
    out = CASES["get_x_PI"]["output"]
    np.testing.assert_allclose(K.cg_sense(y * mask, maps, mask, 0.0, 30).numpy(), _c(out["x_PI"]).numpy(), atol=1e-9)
    ref = K.E_adjoint(y, maps, torch.ones_like(mask))
    np.testing.assert_allclose(ref.numpy(), _c(out["ref_img"]).numpy(), atol=1e-12)


def _load_official(net, sd):
    names = {"resnet.first_layer.weight": "reg.first.weight", "resnet.last_layer.weight": "reg.last.weight",
             "resnet.final_conv.weight": "reg.final.weight", "resnet.res_block.0.conv.weight": "reg.blocks.0.conv.weight",
             "dc.mu": "mu"}
    state = {names[k]: torch.tensor(v, dtype=torch.float64) for k, v in sd.items() if k in names}
    net.load_state_dict(state)


def test_golden_unrolled_network():
    _, maps, ksp, _, mask = _inputs()
    zf = K.E_adjoint(ksp * mask, maps, mask)
    case = CASES["UnrolledNet_small"]
    net = K.UnrolledNet(n_iters=2, features=8, cg_iters=15, n_res_blocks=1).double()
    _load_official(net, case["state_dict"])
    with torch.no_grad():
        r = net.reg(zf)
        np.testing.assert_allclose(torch.stack([r.real, r.imag], 1).numpy(), np.asarray(case["output"]["resnet"]),
                                   atol=1e-12)
        out = net(zf, K.RowNormalOperator(maps, mask))
    np.testing.assert_allclose(out.numpy(), _c(case["output"]["unrolled"]).numpy(), atol=1e-10)
    net.cg_iters = 0  # exact DC: close to the official 15-step CG
    with torch.no_grad():
        exact = net(zf, K.RowNormalOperator(maps, mask))
    np.testing.assert_allclose(exact.numpy(), out.numpy(), atol=1e-3)


def test_golden_paper_resnet_parameter_count():
    assert sum(p.numel() for p in K.ResNetRegularizer(64, 15).parameters()) == CASES["ResNet_paper_config_params"][
        "output"]


def test_golden_perturbation_intensities():
    for row in CASES["process_p_k"]["output"]:
        v = K.perturbation_intensity(row["k"], 6, 5e-2)
        assert row["distinct_values"] == 1
        assert v.real == pytest.approx(row["value"][0], abs=1e-8) and v.imag == pytest.approx(row["value"][1], abs=1e-8)


# ----------------------------------------------------------------------------- golden: the official wavelet code
# (cases 'wav_*', made with pytorch_wavelets 1.3.0 by tests/papers/golden/cupid-mri-wavelets.py outside the project)
def _wav_inputs():
    i = GOLDEN["inputs_wavelets"]
    p = np.asarray(i["p_mask"]) * (np.asarray(i["p_val"])[:, 0] + 1j * np.asarray(i["p_val"])[:, 1])[:, None, None]
    return (_c(i["x"]), _c(i["x_m"]), torch.tensor(i["real"], dtype=torch.float64)[0, 0], _c(i["coil"])[0], _c(i["x_pi"]),
            torch.tensor(i["mask"]).bool(), torch.tensor(p))


@pytest.mark.parametrize("name,J", [("wav_dtcwt_32x32_J4", 4), ("wav_dtcwt_16x24_J3", 3)])
def test_golden_dtcwt_is_pytorch_wavelets(name, J):
    x, _, real, *_ = _wav_inputs()
    img = x.real[0] if J == 4 else real
    yl, yh = K.dtcwt2d(img, J)
    out = CASES[name]["output"]
    np.testing.assert_allclose(yl.numpy(), np.asarray(out["yl"]), atol=1e-12)
    assert len(yh) == J
    for a, b in zip(yh, out["yh"]):
        np.testing.assert_allclose(a.numpy(), np.asarray(b), atol=1e-12)


@pytest.mark.parametrize("wave", ["bior1.5", "haar"])
def test_golden_periodized_dwt_and_inverse_are_pytorch_wavelets(wave):
    x = _wav_inputs()[0]
    out = CASES[f"wav_dwt_{wave}"]["output"]
    np.testing.assert_allclose(K.dwt2d(x[0], 4, wave).numpy(), _c(out["coeffs"]).numpy(), atol=1e-12)
    rec = K.idwt2d(K.dwt2d(x.real[0], 4, wave), 4, wave)
    np.testing.assert_allclose(rec.numpy(), np.asarray(out["inverse_of_forward_real"]), atol=1e-12)


def test_golden_official_wavelet_losses():
    x, x_m, *_ = _wav_inputs()
    assert float(K.dtcwt_reweighted_l1(x, x_m, 1e-4, 4)[0]) == pytest.approx(
        CASES["wav_loss_dctwt_bior1.5"]["output"], rel=1e-10)
    assert float(K.wavelet_reweighted_l1(x, x_m, 1e-4, 4)[0]) == pytest.approx(
        CASES["wav_loss_dwt_haar"]["output"], rel=1e-10)


def test_golden_official_cs_module():
    *_, maps, x_pi, mask, _ = _wav_inputs()
    ours = K.official_cs(K.EhE(x_pi, maps, mask), x_pi, maps, mask)
    np.testing.assert_allclose(ours.numpy(), _c(CASES["wav_compressed_sensing"]["output"])[None].numpy(), atol=1e-10)


def test_golden_whole_cupid_loss_with_the_official_dtcwt_loss():
    *_, maps, x_pi, mask, p = _wav_inputs()
    case = CASES["wav_cupid_loss"]["output"]
    net = K.UnrolledNet(n_iters=2, features=8, cg_iters=15, n_res_blocks=1).double()
    _load_official(net, case["state_dict"])
    op = K.RowNormalOperator(maps, mask)
    z = K.EhE(x_pi, maps, mask)
    x_m = K.official_cs(z, x_pi, maps, mask)
    with torch.no_grad():
        np.testing.assert_allclose(net(z, op)[0].numpy(), _c(case["out0"]).numpy(), atol=1e-10)
        total, parts = K.cupid_loss(net, z, x_m, p, op, torch.ones(32, 32, dtype=torch.bool), 200.0, 1e-4, 4,
                                    "dtcwt")
    assert float(total) == pytest.approx(case["total"], rel=1e-9)
    assert parts["pif"] == pytest.approx(np.mean(case["pif_terms"]), rel=1e-9)
    assert parts["comp"] == pytest.approx(case["l_comp"], rel=1e-9)


def test_pif_loss_masks_only_the_perturbation_as_the_official_code():
    maps = K.make_coil_maps((16, 16), 3, seed=0, dtype=C128)
    op = K.RowNormalOperator(maps, K.cartesian_mask((16, 16), 4, 2))
    perts = K.make_perturbations((16, 16), 2, dtype=C128)
    sup = torch.zeros(16, 16, dtype=torch.bool)
    sup[:, 2:14] = True
    z = crandn(1, 16, 16, seed=3)
    want = np.mean([float(torch.linalg.vector_norm(op.apply(p) - p * sup) / torch.linalg.vector_norm(p * sup))
                    for p in perts])
    assert float(K.pif_loss(lambda u: u, z, perts, op, sup)) == pytest.approx(want, rel=1e-12)


def test_wavelet_transforms_properties_and_bad_input():
    x = crandn(1, 32, 32, seed=5)
    for wave in ("haar", "bior1.5"):  # exact inverse where every axis is at least as long as the filter
        np.testing.assert_allclose(K.idwt2d(K.dwt2d(x, 2, wave), 2, wave).numpy(), x.numpy(), atol=1e-12)
    c = K.dwt2d(x, 3, "haar")  # orthonormal: an isometry, with the same coefficient magnitudes as haar2d
    assert float(torch.linalg.vector_norm(c)) == pytest.approx(float(torch.linalg.vector_norm(x)), rel=1e-12)
    np.testing.assert_allclose(np.sort(c.abs().ravel().numpy()), np.sort(K.haar2d(x, 3).abs().ravel().numpy()),
                               atol=1e-12)
    with pytest.raises(ValueError, match="wavelet"):
        K.dwt2d(x, 2, "db4")
    with pytest.raises(ValueError, match="divisible"):
        K.dwt2d(crandn(1, 12, 12), 3)
    with pytest.raises(ValueError, match="real"):
        K.dtcwt2d(x, 2)
    with pytest.raises(ValueError, match="shape"):
        K.dtcwt_reweighted_l1(x, x[..., :16], 1e-4, 2)
    with pytest.raises(ValueError, match="dtcwt"):
        K.cupid_loss(K.UnrolledNet(1, 2, 0, 0), x, x, x, K.RowNormalOperator(
            K.make_coil_maps((32, 32), 2, dtype=C128), K.cartesian_mask((32, 32), 2, 2)), torch.ones(32, 32).bool(),
            wavelet="db4")
    assert K.letter_mask("A", (32, 32), layout="official").mean() < 0.1 < K.letter_mask("A", (32, 32)).mean()
    with pytest.raises(ValueError, match="layout"):
        K.letter_mask("A", (32, 32), layout="diagonal")


# ----------------------------------------------------------------------------- bad input
def test_bad_input():
    maps, mask = setup()
    with pytest.raises(ValueError, match="n_coils"):
        K.make_coil_maps((8, 8), 0)
    with pytest.raises(ValueError, match="acs"):
        K.cartesian_mask((8, 8), 2, 10)
    with pytest.raises(ValueError, match="kind"):
        K.cartesian_mask((8, 8), 2, 2, kind="radial")
    with pytest.raises(ValueError, match="does not match"):
        K.E_forward(crandn(1, 5, 5), maps, mask)
    with pytest.raises(ValueError, match="divisible"):
        K.haar2d(crandn(1, 12, 12), 3)
    with pytest.raises(ValueError, match="at most"):
        K.make_perturbations((16, 16), 9)
    with pytest.raises(ValueError, match="haar"):
        K.fista_cs(torch.zeros(4, 12, 16, dtype=C128), maps, mask, 0.1, 1, wavelet="db4")
    bad = mask.clone()
    bad[0, 1] = ~bad[0, 1]
    with pytest.raises(ValueError, match="readout"):
        K.RowNormalOperator(maps, bad)
    with pytest.raises(ValueError, match="complex"):
        K.UnrolledNet(1, 2)(torch.zeros(1, 12, 16), K.RowNormalOperator(maps, mask))
    with pytest.raises(ValueError, match="lam"):
        K.cg_sense(torch.zeros(4, 12, 16, dtype=C128), maps, mask, -1.0, 1)


def test_negative_mu_is_clamped_so_the_dc_step_stays_well_posed():
    maps, mask = setup((8, 8), nc=2, R=2, acs=2)
    op = K.RowNormalOperator(maps, mask)
    net = K.UnrolledNet(1, 2, 0, 0).double()
    z = crandn(1, 8, 8, seed=14)
    with torch.no_grad():
        net.mu.fill_(-0.5)
        out = net(z, op)
        net.mu.fill_(K.MU_MIN)
        ref = net(z, op)
    assert torch.isfinite(out.abs()).all()
    np.testing.assert_allclose(out.numpy(), ref.numpy(), atol=1e-12)


# ----------------------------------------------------------------------------- image-domain baselines (post review)
def test_tv_denoise_keeps_constants_lowers_total_variation_and_is_the_identity_at_zero():
    x = crandn(2, 16, 16, seed=4)
    assert torch.equal(K.tv_denoise(x, 0.0), x)
    const = torch.full((1, 16, 16), 0.3 - 0.2j, dtype=C128)
    np.testing.assert_allclose(K.tv_denoise(const, 0.1).numpy(), const.numpy(), atol=1e-6)

    def tv(u):
        a = u.numpy()
        return sum(np.abs(np.diff(p, axis=ax)).sum() for p in (a.real, a.imag) for ax in (-1, -2))

    d = K.tv_denoise(x, 0.2)
    assert d.shape == x.shape and d.dtype == x.dtype and tv(d) < 0.8 * tv(x)
    # each image of the batch is denoised on its own
    np.testing.assert_allclose(d[1:].numpy(), K.tv_denoise(x[1:], 0.2).numpy(), atol=1e-12)
    with pytest.raises(ValueError):
        K.tv_denoise(x, -1.0)
    with pytest.raises(ValueError):
        K.tv_denoise(x.real, 0.1)


def test_gaussian_smooth_preserves_constants_and_the_sum():
    x = crandn(2, 12, 12, seed=5)
    np.testing.assert_allclose(K.gaussian_smooth(x, 0.0).numpy(), x.numpy(), atol=1e-12)
    s = K.gaussian_smooth(x, 1.0)
    np.testing.assert_allclose(s.sum(dim=(-2, -1)).numpy(), x.sum(dim=(-2, -1)).numpy(), atol=1e-9)  # periodic
    assert float(s.abs().std()) < float(x.abs().std())
    const = torch.full((12, 12), 1.0 + 1.0j, dtype=C128)
    np.testing.assert_allclose(K.gaussian_smooth(const, 2.0).numpy(), const.numpy(), atol=1e-12)
    with pytest.raises(ValueError):
        K.gaussian_smooth(x, -0.5)


def test_tikhonov_sense_is_the_regularised_least_squares_solution():
    maps, mask = setup()
    op = K.RowNormalOperator(maps, mask)
    x = crandn(1, 12, 16, seed=6)
    alpha = 0.05
    t = K.tikhonov_sense(x, op, alpha)
    ref = K.cg_solve(K.EhE(x, maps, mask), maps, mask, alpha, 300)
    np.testing.assert_allclose(t.numpy(), ref.numpy(), atol=1e-8)
    # normal equations of min |E t - E x|^2 + alpha |t|^2
    np.testing.assert_allclose((K.EhE(t - x, maps, mask) + alpha * t).numpy(), 0.0, atol=1e-8)
    with pytest.raises(ValueError):
        K.tikhonov_sense(x, op, 0.0)


def test_early_stopped_cg_is_cg_on_the_clinical_images_normal_equations():
    maps, mask = setup()
    x = crandn(1, 12, 16, seed=7)
    assert torch.equal(K.early_stopped_cg(x, maps, mask, 0), torch.zeros_like(x))
    np.testing.assert_allclose(K.early_stopped_cg(x, maps, mask, 3).numpy(),
                               K.cg_solve(K.EhE(x, maps, mask), maps, mask, 0.0, 3).numpy(), atol=1e-14)
    # more steps fit the clinical image's own k-space more closely
    res = [float(K.relative_residual(K.early_stopped_cg(x, maps, mask, k), x, maps, mask)[0]) for k in (2, 10, 100)]
    assert res[0] > res[1] > res[2] and res[2] < 1e-2


def test_tune_on_training_picks_the_best_mean_psnr():
    x_in = crandn(3, 8, 8, seed=8)
    best, scores = K.tune_on_training(lambda u, a: a * u, (0.5, 2.0, 1.0), x_in, 2.0 * x_in)
    assert best == 2.0 and set(scores) == {0.5, 1.0, 2.0} and scores[2.0] > scores[1.0] > scores[0.5]
    with pytest.raises(ValueError):
        K.tune_on_training(lambda u, a: u, (), x_in, x_in)
    with pytest.raises(ValueError):
        K.tune_on_training(lambda u, a: u, (1.0,), x_in, x_in[:2])
