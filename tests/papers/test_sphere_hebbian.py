"""Unit tests of :mod:`repro.papers.sphere_hebbian`, the kernels of ``notebooks/sphere-hebbian.py``."""

import inspect
import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from sklearn.decomposition import PCA
from sklearn.linear_model import RidgeClassifier
from sklearn.metrics.pairwise import cosine_similarity

from repro.papers import sphere_hebbian as K

torch.set_num_threads(1)


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/sphere_hebbian.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def _t(a):
    return torch.tensor(a, dtype=torch.float64)


# ---- the SPHeRe loss ---------------------------------------------------------------------------------
def test_cosine_gram_matches_sklearn_and_is_a_correlation_matrix():
    x = np.random.default_rng(0).standard_normal((7, 3, 2))
    G = K.cosine_gram(_t(x)).numpy()
    assert np.allclose(G, cosine_similarity(x.reshape(7, -1)), atol=1e-14)
    assert np.allclose(np.diag(G), 1.0) and np.allclose(G, G.T)
    assert np.all(np.linalg.eigvalsh(G) > -1e-12)


def test_cosine_gram_zero_sample_gives_a_zero_row():
    x = np.random.default_rng(1).standard_normal((4, 5))
    x[1] = 0
    G = K.cosine_gram(_t(x)).numpy()
    assert np.all(G[1] == 0) and np.all(G[:, 1] == 0)


def test_structural_loss_is_zero_for_an_isometry_and_invariant_to_positive_scaling():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((9, 6))
    Q, _ = np.linalg.qr(rng.standard_normal((6, 6)))
    assert float(K.structural_loss(_t(x), _t(x @ Q))) < 1e-28
    # an isometry into a larger space (orthonormal columns) also preserves every angle
    Q8, _ = np.linalg.qr(rng.standard_normal((8, 6)))
    assert float(K.structural_loss(_t(x), _t(x @ Q8.T))) < 1e-28
    y = rng.standard_normal((9, 4))
    s = rng.uniform(0.1, 10, size=(9, 1))
    assert float(K.structural_loss(_t(x * s), _t(y))) == pytest.approx(float(K.structural_loss(_t(x), _t(y))), rel=1e-12)
    assert float(K.structural_loss(_t(x), _t(y * s))) == pytest.approx(float(K.structural_loss(_t(x), _t(y))), rel=1e-12)


def test_structural_loss_brute_force():
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal((5, 4)), rng.standard_normal((5, 3))
    cos = lambda a, b: a @ b / np.linalg.norm(a) / np.linalg.norm(b)  # noqa: E731
    brute = np.mean([(cos(x[i], x[j]) - cos(y[i], y[j])) ** 2 for i in range(5) for j in range(5)])
    assert float(K.structural_loss(_t(x), _t(y))) == pytest.approx(brute, rel=1e-12)


def test_orthogonality_loss_fixed_points_and_closed_form():
    rng = np.random.default_rng(4)
    Q, _ = np.linalg.qr(rng.standard_normal((12, 5)))  # orthonormal columns: a fixed point (loss 0)
    assert float(K.orthogonality_loss(_t(Q))) < 1e-28
    # orthogonal columns of any positive lengths: still 0 (cosine Gram)
    assert float(K.orthogonality_loss(_t(Q * rng.uniform(0.5, 3, size=5)))) < 1e-28
    # P identical columns: the Gram is all ones, loss = (P^2 - P) / P^2
    v = rng.standard_normal((12, 1))
    assert float(K.orthogonality_loss(_t(np.repeat(v, 4, axis=1)))) == pytest.approx(12 / 16, rel=1e-12)
    # more features than samples: the columns cannot all be orthogonal, so the loss is bounded away from 0
    assert float(K.orthogonality_loss(_t(rng.standard_normal((3, 6))))) > 0.01


def test_sphere_loss_is_the_weighted_sum_and_validates():
    rng = np.random.default_rng(5)
    x, y = _t(rng.standard_normal((6, 4))), _t(rng.standard_normal((6, 3)))
    assert float(K.sphere_loss(x, y)) == pytest.approx(float(K.structural_loss(x, y) + 0.8 * K.orthogonality_loss(y)))
    assert float(K.sphere_loss(x, y, 0.0)) == pytest.approx(float(K.structural_loss(x, y)))
    with pytest.raises(ValueError, match="ortho_weight"):
        K.sphere_loss(x, y, -1.0)
    with pytest.raises(ValueError, match="same batch"):
        K.structural_loss(x, y[:5])
    with pytest.raises(ValueError, match="shape"):
        K.orthogonality_loss(_t(np.ones(3)))
    with pytest.raises(ValueError, match="torch.Tensor"):
        K.cosine_gram(np.ones((3, 2)))


# ---- the block ---------------------------------------------------------------------------------------
def test_block_shapes_detach_and_eval_mode():
    torch.manual_seed(0)
    b = K.SPHeReBlock(1, 8, kernel_size=5, proj_dim=6)
    x = torch.randn(10, 1, 8, 8)
    y, loss = b(x)
    assert y.shape == (10, 8, 4, 4) and not y.requires_grad and loss.requires_grad
    # a classifier on top cannot send gradient into the block (local learning)
    head = torch.nn.Linear(128, 3)
    F.cross_entropy(head(y.flatten(1)), torch.tensor([0, 1, 2, 0, 1, 2, 0, 1, 2, 0])).backward()
    assert all(p.grad is None for p in b.parameters())
    # the local loss reaches the block's filters and the projection
    loss.backward()
    assert b.conv.weight.grad is not None and b.out_proj[5].weight.grad is not None
    b.eval()
    _, loss = b(x)
    assert float(loss) == 0.0


def test_block_ablations():
    torch.manual_seed(1)
    x = torch.randn(12, 1, 8, 8)
    b = K.SPHeReBlock(1, 8, proj_dim=6, use_projection=False)
    s, o = b.loss_terms(x)
    y = b.block(x).flatten(1)
    assert float(s.detach()) == pytest.approx(float(K.structural_loss(x, y).detach()))
    assert float(o.detach()) == pytest.approx(float(K.orthogonality_loss(y).detach()))
    b0 = K.SPHeReBlock(1, 8, proj_dim=6, ortho_weight=0.0)
    _, loss = b0(x)
    assert float(loss.detach()) == pytest.approx(float(b0.loss_terms(x)[0].detach()), rel=1e-6)
    for bad in (dict(kernel_size=4), dict(out_channels=1), dict(ortho_weight=float("nan")), dict(proj_dim=0)):
        with pytest.raises(ValueError):
            K.SPHeReBlock(**bad)


def test_evaluate_local_loss_leaves_the_block_unchanged():
    torch.manual_seed(2)
    b = K.SPHeReBlock(1, 4, proj_dim=3)
    before = {k: v.clone() for k, v in b.state_dict().items()}
    s, o = K.evaluate_local_loss(b, torch.randn(40, 1, 8, 8), 16)
    assert s > 0 and o > 0
    assert all(torch.equal(before[k], v) for k, v in b.state_dict().items())
    with pytest.raises(ValueError, match="fewer than one batch"):
        K.evaluate_local_loss(b, torch.randn(8, 1, 8, 8), 16)


def test_train_local_lowers_both_terms():
    torch.manual_seed(3)
    g = torch.Generator().manual_seed(0)
    X = torch.randn(128, 1, 8, 8)
    b = K.SPHeReBlock(1, 8, proj_dim=8)
    s0, o0 = K.evaluate_local_loss(b, X, 64)
    hist = K.train_local(b, X, epochs=15, batch_size=64, lr=1e-2, generator=g)
    s1, o1 = K.evaluate_local_loss(b, X, 64)
    assert len(hist["structural"]) == 30 and s1 < s0 and o1 < o0
    with pytest.raises(ValueError, match="epochs"):
        K.train_local(b, X, epochs=0)


def test_adamw_and_cosine_match_torch():
    torch.manual_seed(4)
    w1 = torch.randn(5, 3, requires_grad=True)
    w2 = w1.detach().clone().requires_grad_(True)
    A = torch.randn(7, 5)
    ours, ref = K.AdamW([w1], lr=0.05, weight_decay=0.05), torch.optim.AdamW([w2], lr=0.05, weight_decay=0.05)
    for _ in range(6):
        for w, opt in ((w1, ours), (w2, ref)):
            opt.zero_grad()
            ((A @ w) ** 2).sum().backward()
            opt.step()
    assert torch.allclose(w1, w2, rtol=1e-6, atol=1e-7)
    p = torch.zeros(1, requires_grad=True)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(torch.optim.SGD([p], lr=0.01), T_max=7, eta_min=1e-6)
    for e in range(7):
        assert K.cosine_lr(0.01, e, 7) == pytest.approx(sched.get_last_lr()[0], rel=1e-9)
        sched.optimizer.step()
        sched.step()
    with pytest.raises(ValueError):
        K.cosine_lr(0.01, 8, 7)
    with pytest.raises(ValueError, match="requires grad"):
        K.AdamW([torch.zeros(2)])


# ---- local baselines ---------------------------------------------------------------------------------
def test_extract_patches_reproduce_conv2d():
    rng = np.random.default_rng(6)
    x, W = _t(rng.standard_normal((3, 2, 6, 5))), _t(rng.standard_normal((4, 2, 3, 3)))
    P = K.extract_patches(x, 3, 1)
    conv = F.conv2d(x, W, padding=1)  # (B, C, H, W) -> rows (b, h, w)
    assert torch.allclose(P @ W.reshape(4, -1).T, conv.permute(0, 2, 3, 1).reshape(-1, 4), atol=1e-12)
    Pr = K.extract_patches(x, 3, 1, "reflect")
    conv_r = F.conv2d(F.pad(x, (1, 1, 1, 1), mode="reflect"), W)
    assert torch.allclose(Pr @ W.reshape(4, -1).T, conv_r.permute(0, 2, 3, 1).reshape(-1, 4), atol=1e-12)
    with pytest.raises(ValueError, match="padding_mode"):
        K.extract_patches(x, 3, 1, "circular")
    with pytest.raises(ValueError, match="exceeds"):
        K.extract_patches(x, 9)


def _patches_with_spectrum(n=4000, d=6, seed=7):
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    scales = np.array([3.0, 2.2, 1.6, 0.6, 0.4, 0.2])[:d]
    return rng.standard_normal((n, d)) * scales @ Q.T


def test_oja_subspace_fixed_points_and_convergence_to_the_principal_subspace():
    X = _patches_with_spectrum()
    S = X.T @ X / len(X)
    evals, evecs = np.linalg.eigh(S)
    top = evecs[:, ::-1][:, :3].T  # (3, d)
    # any orthonormal basis of the top subspace is a fixed point of the mean update
    R, _ = np.linalg.qr(np.random.default_rng(8).standard_normal((3, 3)))
    assert torch.allclose(K.oja_subspace_update(_t(R @ top), _t(X)), torch.zeros(3, 6, dtype=torch.float64), atol=1e-12)
    # minibatch iteration converges to that subspace, with orthonormal rows
    W = _t(0.1 * np.random.default_rng(9).standard_normal((3, 6)))
    Xt = _t(X)
    for i in range(600):
        W = W + 0.05 * K.oja_subspace_update(W, Xt[(i % 20) * 200:(i % 20 + 1) * 200])
    assert K.principal_subspace_distance(W, top) < 0.05
    assert np.allclose((W @ W.T).numpy(), np.eye(3), atol=0.02)
    # scikit-learn's PCA of the (zero-mean by construction) data spans the same subspace
    pca = PCA(3).fit(X)
    assert K.principal_subspace_distance(W, pca.components_) < 0.05


def test_single_unit_oja_finds_the_top_eigenvector():
    X = _patches_with_spectrum(seed=10)
    v = np.linalg.eigh(X.T @ X / len(X))[1][:, -1]
    w = _t(np.full((1, 6), 0.3))
    for _ in range(300):
        w = w + 0.05 * K.oja_subspace_update(w, _t(X))
    assert abs(float(w[0] @ _t(v))) == pytest.approx(1.0, abs=1e-6)
    assert float(torch.linalg.norm(w)) == pytest.approx(1.0, abs=1e-6)


def test_normalised_hebb_collapses_every_unit_onto_the_top_eigenvector():
    X = _patches_with_spectrum(seed=11)
    v = np.linalg.eigh(X.T @ X / len(X))[1][:, -1]
    W = _t(np.random.default_rng(12).standard_normal((4, 6)))
    for _ in range(300):
        W = K.hebb_update(W, _t(X), 0.2)
    assert np.allclose(np.linalg.norm(W.numpy(), axis=1), 1.0)
    assert np.allclose(np.abs(W.numpy() @ v), 1.0, atol=1e-6)
    with pytest.raises(ValueError, match="lr"):
        K.hebb_update(W, _t(X), 0.0)
    with pytest.raises(ValueError, match="same D"):
        K.hebb_update(W, _t(X[:, :5]), 0.1)


def test_softhebb_update_and_rate():
    rng = np.random.default_rng(13)
    W, P = _t(rng.standard_normal((4, 9))), _t(rng.standard_normal((50, 9)))
    d = K.softhebb_update(W, P, 1.0)
    assert float(d.abs().max()) == pytest.approx(1.0)
    # brute force, one patch at a time
    u = W.numpy() @ P.numpy().T
    a = np.exp(u - u.max(0))
    a = -a / a.sum(0)
    a[u.argmax(0), np.arange(50)] *= -1
    brute = sum(np.outer(a[:, i], P.numpy()[i]) - (a[:, i] * u[:, i])[:, None] * W.numpy() for i in range(50))
    assert np.allclose(d.numpy(), brute / np.abs(brute).max(), atol=1e-12)
    r = K.softhebb_rate(W, 0.08)
    assert np.allclose(r.numpy()[:, 0], 0.08 * (np.abs(np.linalg.norm(W.numpy(), axis=1) - 1) + 1e-10) ** 0.5)
    with pytest.raises(ValueError, match="t_invert"):
        K.softhebb_update(W, P, 0.0)


def test_train_patch_rule_oja_learns_the_patch_principal_subspace():
    torch.manual_seed(14)
    g = torch.Generator().manual_seed(0)
    X = K.load_digits_images()[0][:300]
    X = (X - X.mean()) / X.std()
    conv = torch.nn.Conv2d(1, 3, 3, padding=1)
    K.train_patch_rule("oja", conv, X, epochs=100, batch_size=100, lr=0.05, generator=g)
    P = K.extract_patches(X, 3, 1).double().numpy()
    S = P.T @ P / len(P)
    W = conv.weight.reshape(3, -1).detach().double().numpy()
    assert np.allclose(W @ W.T, np.eye(3), atol=0.01)  # orthonormal filters
    # captured second moment within 5% of the optimum (the top-3 eigenvalues; the 3rd-4th gap is small)
    assert np.trace(W @ S @ W.T) > 0.95 * np.sort(np.linalg.eigvalsh(S))[-3:].sum()
    assert torch.all(conv.bias == 0)
    with pytest.raises(ValueError, match="rule"):
        K.train_patch_rule("sanger", conv, X, 1, 10, 0.1)


# ---- evaluation --------------------------------------------------------------------------------------
def test_calibrate_batchnorm_sets_the_data_statistics():
    torch.manual_seed(15)
    b = K.SPHeReBlock(1, 4, proj_dim=3)
    X = torch.randn(50, 1, 8, 8) * 2 + 1
    K.calibrate_batchnorm(b, X)
    z = b.conv(X)
    bn = b.block[1]
    assert not b.training
    assert torch.allclose(bn.running_mean, z.mean((0, 2, 3)), atol=1e-5)
    assert torch.allclose(bn.running_var, z.var((0, 2, 3), unbiased=True), rtol=1e-4)
    assert K.block_features(b, X).shape == (50, 64)


def test_ridge_probe_matches_sklearn_ridge_classifier():
    rng = np.random.default_rng(16)
    A, B = rng.standard_normal((120, 10)) * rng.uniform(0.5, 3, 10), rng.standard_normal((40, 10))
    y = rng.integers(0, 4, 120)
    mu, sd = A.mean(0), A.std(0)
    ref = RidgeClassifier(alpha=2.0).fit((A - mu) / sd, y).predict((B - mu) / sd)
    assert np.array_equal(K.ridge_probe(A, y, B, alpha=2.0), ref)
    # two classes: RidgeClassifier's binary code path, same answer
    y2 = (A[:, 0] > 0).astype(int)
    ref2 = RidgeClassifier(alpha=1.0).fit((A - mu) / sd, y2).predict((B - mu) / sd)
    assert np.array_equal(K.ridge_probe(A, y2, B), ref2)
    assert K.probe_accuracy(A, y2, A, y2) > 0.95
    with pytest.raises(ValueError, match="two classes"):
        K.ridge_probe(A, np.zeros(120), B)
    with pytest.raises(ValueError, match="same p"):
        K.ridge_probe(A, y, B[:, :3])
    with pytest.raises(ValueError, match="alpha"):
        K.ridge_probe(A, y, B, alpha=0)
    # a fitted probe keeps its standardisation and applies it to later features
    probe = K.RidgeProbe(2.0).fit(A, y)
    assert np.array_equal(probe.predict(B), ref) and probe.accuracy(B, ref) == 1.0
    with pytest.raises(ValueError, match="fit the probe"):
        K.RidgeProbe().predict(B)
    with pytest.raises(ValueError, match="same p"):
        probe.predict(B[:, :3])


def test_train_backprop_fits_the_labels():
    torch.manual_seed(17)
    g = torch.Generator().manual_seed(0)
    X, y = K.load_digits_images()
    X = (X - X.mean()) / X.std()
    b, head = K.SPHeReBlock(1, 8, proj_dim=4), torch.nn.Linear(128, 10)
    losses = K.train_backprop(b, head, X[:256], y[:256], epochs=8, batch_size=64, lr=1e-2, generator=g)
    assert losses[-1] < 0.5 * losses[0]
    with pytest.raises(ValueError, match="same number"):
        K.train_backprop(b, head, X[:256], y[:200], epochs=1)


def test_data_and_subspace_distance():
    from sklearn.datasets import load_digits

    X, y = K.load_digits_images()
    d = load_digits()
    assert X.shape == (1797, 1, 8, 8) and y.shape == (1797,) and float(X.max()) == 1.0 and float(X.min()) == 0.0
    assert np.array_equal(X.numpy()[:, 0] * 16, d.images.astype(np.float32)) and np.array_equal(y.numpy(), d.target)
    e = np.eye(4)
    assert K.principal_subspace_distance(e[:2], e[:2] * 3 + e[1]) == pytest.approx(0.0, abs=1e-12)
    assert K.principal_subspace_distance(e[:2], e[2:]) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="columns"):
        K.principal_subspace_distance(e[:2], np.eye(5)[:2])


def test_stratified_split_partitions_and_keeps_class_shares():
    y = np.repeat(np.arange(4), [30, 60, 9, 3])
    tr, te = K.stratified_split(y, 1 / 3, np.random.default_rng(0))
    assert np.array_equal(np.sort(np.concatenate([tr, te])), np.arange(y.size))
    assert [int(np.sum(y[te] == c)) for c in range(4)] == [10, 20, 3, 1]
    with pytest.raises(ValueError, match="test_fraction"):
        K.stratified_split(y, 1.0, np.random.default_rng(0))


# ---- golden tests against the official code (issue 11) ------------------------------------------------
# tests/papers/golden/sphere-hebbian.json holds the outputs of the official main.py / softhebb.py
# (brain-intelligence-lab/SPHeRe at the commit it names), run outside the project on the inputs below.
GOLDEN = json.loads((Path(__file__).parent / "golden" / "sphere-hebbian.json").read_text())
CASES = {c["name"]: c for c in GOLDEN["cases"]}


def test_golden_file_names_the_official_commit():
    assert GOLDEN["slug"] == "sphere-hebbian" and len(GOLDEN["commit"]) == 40
    assert GOLDEN["repository"].endswith("brain-intelligence-lab/SPHeRe")


def test_golden_cosine_gram():
    c = CASES["cosine_gram_zero_row"]
    x = np.random.default_rng(0).standard_normal((6, 2, 3, 3))
    x[2] = 0.0
    assert np.allclose(K.cosine_gram(_t(x)).numpy(), c["output"], rtol=0, atol=c["tol"]["abs"])


def test_golden_losses():
    rng = np.random.default_rng(1)
    z, yp = rng.standard_normal((6, 2, 3, 3)), rng.standard_normal((6, 5))
    c = CASES["structural_loss"]
    assert float(K.structural_loss(_t(z), _t(yp))) == pytest.approx(c["output"], rel=0, abs=c["tol"]["abs"])
    c = CASES["orthogonality_loss_6x5"]
    assert float(K.orthogonality_loss(_t(yp))) == pytest.approx(c["output"], rel=0, abs=c["tol"]["abs"])
    c = CASES["orthogonality_loss_16x5"]
    yp2 = np.random.default_rng(4).standard_normal((16, 5))
    assert float(K.orthogonality_loss(_t(yp2))) == pytest.approx(c["output"], rel=0, abs=c["tol"]["abs"])


def test_golden_hebb_layer_loss_and_gradient():
    c = CASES["hebb_layer_loss_and_gradient"]
    out, tol = c["output"], c["tol"]
    b = K.SPHeReBlock(1, 4, kernel_size=3, proj_dim=5).double()
    assert [n for n, _ in b.named_parameters()] == c["input"]["param_order"]
    rng = np.random.default_rng(2)
    with torch.no_grad():
        for _, p in b.named_parameters():
            p.copy_(_t(0.5 * rng.standard_normal(tuple(p.shape))))
    x = _t(rng.standard_normal((8, 1, 8, 8)))
    b.train()
    y, loss = b(x)
    loss.backward()
    close = lambda a, e: np.allclose(a, e, rtol=tol["rel"], atol=tol["abs"])  # noqa: E731
    assert list(y.shape) == out["y_shape"] and y.requires_grad == out["y_requires_grad"]
    assert close(float(loss.detach()), out["loss"]) and close(float(y.sum()), out["y_sum"]) and close(float((y ** 2).sum()), out["y_sq"])
    assert close(b.conv.weight.grad.flatten().numpy(), out["conv_weight_grad"])
    assert close(b.conv.bias.grad.numpy(), out["conv_bias_grad"])
    assert close(float(b.out_proj[5].weight.grad.sum()), out["linear_weight_grad_sum"])


@pytest.mark.parametrize("name", [n for n in CASES if n.startswith("softhebb_update")])
def test_golden_softhebb_update(name):
    c = CASES[name]
    rng = np.random.default_rng(3)
    W = _t(rng.standard_normal((4, 1, 3, 3)))
    x = _t(rng.standard_normal((5, 1, 6, 6)))
    P = K.extract_patches(x, 3, 1, "reflect")
    d = K.softhebb_update(W.reshape(4, -1), P, c["input"]["t_invert"])
    assert np.allclose(d.flatten().numpy(), c["output"]["delta"], rtol=0, atol=c["tol"]["abs"])
    assert math.isclose(float((P @ W.reshape(4, -1).T).sum()), c["output"]["u_sum"], rel_tol=0, abs_tol=1e-10)


def test_train_local_keeps_last_partial_batch_when_asked():
    torch.manual_seed(0)
    X = torch.randn(70, 1, 8, 8)
    for drop_last, steps in ((True, 2), (False, 3)):
        torch.manual_seed(1)
        b = K.SPHeReBlock(1, 4, 3, 5)
        hist = K.train_local(b, X, epochs=2, batch_size=32, lr=1e-2, generator=torch.Generator().manual_seed(0),
                             drop_last=drop_last)
        assert len(hist["structural"]) == 2 * steps
    # a last batch of a single sample is skipped (batch norm needs two)
    b = K.SPHeReBlock(1, 4, 3, 5)
    hist = K.train_local(b, X[:65], epochs=1, batch_size=32, drop_last=False)
    assert len(hist["structural"]) == 2


def test_train_patch_rule_pads_as_the_conv_pads():
    torch.manual_seed(5)
    X = torch.randn(40, 1, 8, 8)
    out = {}
    for mode in ("zeros", "reflect"):
        torch.manual_seed(6)
        conv = torch.nn.Conv2d(1, 4, 3, padding=1, padding_mode=mode)
        W0 = conv.weight.detach().reshape(4, -1).clone()
        K.train_patch_rule("softhebb", conv, X, 1, 40, 0.08)
        P = K.extract_patches(X, 3, 1, mode)
        expected = W0 + K.softhebb_rate(W0, 0.08) * K.softhebb_update(W0, P, 1.0)
        assert torch.allclose(conv.weight.detach().reshape(4, -1), expected, atol=1e-6)
        out[mode] = expected
    assert not torch.allclose(out["zeros"], out["reflect"])
    conv = torch.nn.Conv2d(1, 4, 3, padding=1, padding_mode="circular")
    with pytest.raises(ValueError, match="padding_mode"):
        K.train_patch_rule("oja", conv, X, 1, 40, 0.05)


def test_pca_filters_match_sklearn_and_keep_extra_rows():
    g = torch.Generator().manual_seed(3)
    P = torch.randn(400, 9, generator=g, dtype=torch.float64) @ torch.randn(9, 9, generator=g, dtype=torch.float64)
    W0 = torch.randn(4, 9, generator=g, dtype=torch.float64)
    W = K.pca_filters(P, W0)
    ref = PCA(4).fit(P.numpy()).components_
    assert np.allclose(np.abs(np.sum(W.numpy() * ref, axis=1)), 1.0, atol=1e-8)   # same directions, up to sign
    W0 = torch.randn(12, 9, generator=g, dtype=torch.float64)
    W = K.pca_filters(P, W0)          # overcomplete: 9 principal directions, 3 rows left at their start
    assert torch.allclose(W[:9] @ W[:9].T, torch.eye(9, dtype=torch.float64), atol=1e-10)
    assert torch.equal(W[9:], W0[9:])
    with pytest.raises(ValueError):
        K.pca_filters(P[:, :5], W0)


def test_spherical_kmeans_finds_separated_clusters_and_validates():
    g = torch.Generator().manual_seed(0)
    centres = torch.eye(6)[:3] - torch.eye(6)[:3].mean(1, keepdim=True)
    centres = centres / centres.norm(dim=1, keepdim=True)
    P = (centres.repeat(50, 1) + 0.02 * torch.randn(150, 6, generator=g)) * 5.0
    cent = K.spherical_kmeans_filters(P, 3, torch.Generator().manual_seed(1), iters=10)
    assert torch.allclose(cent.norm(dim=1), torch.ones(3), atol=1e-5)
    assert (cent @ centres.T).max(0).values.min() > 0.99     # every true centre is found
    with pytest.raises(ValueError):
        K.spherical_kmeans_filters(P[:2], 3)
    with pytest.raises(ValueError):
        K.spherical_kmeans_filters(P, 0)
