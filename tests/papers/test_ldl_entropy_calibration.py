"""Unit tests of :mod:`repro.papers.ldl_entropy_calibration`, the kernels of ``notebooks/ldl-entropy-calibration.py``.

No official code was accessed (a supplementary archive on OpenReview only), so there is no golden file; the
measures are checked against hand-computed values, the bound against a numerical maximisation, AA-kNN against
scikit-learn, the oracle against Monte Carlo, and the vectorised trainer against a plain one-model loop with
torch's own Adam.
"""

import inspect

import numpy as np
import pytest
import torch
from scipy.optimize import minimize
from scipy.stats import entropy as scipy_entropy

from repro.papers import ldl_entropy_calibration as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/ldl_entropy_calibration.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def test_entropy_matches_scipy_and_handles_zeros():
    P = np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5], [1.0, 0.0, 0.0]])
    assert K.entropy(P) == pytest.approx([scipy_entropy(p) for p in P], abs=1e-15)


def test_identical_distributions_give_perfect_measures():
    P = np.array([[0.1, 0.2, 0.7], [0.25, 0.25, 0.5]])
    m = K.ldl_measures(P, P)
    for key in ("kl", "chebyshev", "clark", "canberra"):
        assert m[key] == pytest.approx([0, 0], abs=1e-15)
    assert m["cosine"] == pytest.approx([1, 1]) and m["intersection"] == pytest.approx([1, 1])


def test_measures_by_hand():
    p, q = np.array([[0.5, 0.5, 0.0]]), np.array([[0.25, 0.25, 0.5]])
    m = K.ldl_measures(p, q)
    assert m["kl"][0] == pytest.approx(np.log(2))
    assert m["chebyshev"][0] == pytest.approx(0.5)
    assert m["canberra"][0] == pytest.approx(1 / 3 + 1 / 3 + 1)
    assert m["clark"][0] == pytest.approx(np.sqrt(1 / 9 + 1 / 9 + 1))
    assert m["intersection"][0] == pytest.approx(0.5)
    assert m["cosine"][0] == pytest.approx(0.25 / (np.sqrt(0.5) * np.sqrt(0.375)))


def test_regulariser_zero_for_spread_anchors_positive_for_cohesive_ones():
    assert float(K.angular_regularizer(torch.eye(4), 80.0)) == 0.0
    W = torch.tensor([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    assert float(K.angular_regularizer(W, 80.0)) == pytest.approx((1 - np.cos(np.radians(80))) ** 2, rel=1e-6)


def test_anchor_angles():
    W = np.array([[1.0, 0.0], [0.0, 2.0], [-1.0, 0.0]])
    assert K.anchor_angles(W) == pytest.approx([90, 180, 90])


def _best_p0(W, r):
    def neg_p0(t):
        f = r * np.array([np.cos(t[0]), np.sin(t[0])])
        o = W @ f
        return -np.exp(o[0] - np.logaddexp.reduce(o))

    return max(-minimize(neg_p0, x0=[t0], method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-14}).fun
               for t0 in np.linspace(-np.pi, np.pi, 9))


def test_max_prob_bound_is_attained_for_two_anchors_and_holds_for_a_simplex():
    r = 1.5
    W2 = np.array([[2.0, 0.0], [-1.0, 1.0]])
    assert _best_p0(W2, r) == pytest.approx(K.max_prob_bound(W2, r)[0], rel=1e-6)   # f along w_0 - w_1
    W3 = np.array([[np.cos(a), np.sin(a)] for a in 2 * np.pi * np.arange(3) / 3]) * 2.0
    best, bound = _best_p0(W3, r), K.max_prob_bound(W3, r)[0]
    assert best <= bound + 1e-12 and best > 0.95 * bound        # a valid, not a tight, cap for c > 2


def test_max_prob_bound_falls_when_anchors_cohere():
    spread = np.eye(3) * 4
    cohesive = np.array([[1.0, 0.1, 0.0], [1.0, 0.0, 0.1], [1.0, 0.0, 0.0]]) * 4 / np.sqrt(1.01)
    assert np.all(K.max_prob_bound(cohesive, 1.0) < K.max_prob_bound(spread, 1.0))


def test_calibrated_aggregate_ignores_duplicated_high_entropy_samples():
    rng = np.random.default_rng(0)
    P = rng.dirichlet(np.full(4, 0.3), size=40)
    v = rng.random(40)
    tau = float(np.median(K.entropy(P)))
    high = ~K.split_by_entropy(P, tau)
    P2, v2 = np.concatenate([P, P[high]]), np.concatenate([v, v[high]])
    assert K.calibrated_aggregate(v2, P2, tau) == pytest.approx(K.calibrated_aggregate(v, P, tau), rel=1e-14)
    low = K.split_by_entropy(P, tau)
    assert K.calibrated_aggregate(v, P, tau) == pytest.approx(0.5 * (v[low].mean() + v[~low].mean()))


def test_data_and_training():
    X, P, is_low = K.make_ldl_data(300, 5, 4, 0.3, 0)
    assert X.shape == (300, 5) and P.shape == (300, 4) and np.allclose(P.sum(1), 1)
    H = K.entropy(P)
    assert H[is_low].mean() < H[~is_low].mean()
    m1, h1 = K.train_ldl(X, P, 0, steps=5, reg="angular", lam=1.0)
    m2, h2 = K.train_ldl(X, P, 0, steps=5, reg="angular", lam=1.0)
    assert h1 == h2 and torch.allclose(m1.W.norm(dim=1), torch.full((4,), m1.s))
    Q = K.predict(m1, X)
    assert Q.shape == P.shape and np.allclose(Q.sum(1), 1)


def test_simplex_anchors_are_a_regular_simplex():
    for c, m in ((6, 8), (4, 3), (2, 1)):
        A = K.simplex_anchors(c, m)
        assert A.shape == (c, m)
        G = A @ A.T
        assert np.diag(G) == pytest.approx(np.ones(c), abs=1e-12)
        off = G[~np.eye(c, dtype=bool)]
        assert off == pytest.approx(np.full(off.size, -1 / (c - 1)), abs=1e-12)
    # the widest spread: no c unit vectors have a smaller largest pairwise cosine (random draws never beat it)
    rng = np.random.default_rng(0)
    U = rng.normal(size=(2000, 6, 8))
    U /= np.linalg.norm(U, axis=2, keepdims=True)
    worst = np.max(np.einsum("bim,bjm->bij", U, U) - 2 * np.eye(6), axis=(1, 2))
    assert worst.min() > -1 / 5


def test_fixed_anchors_are_not_learned_and_keep_the_feature_start():
    X, P, _ = K.make_ldl_data(200, 5, 4, 0.3, 1)
    m_fixed, _ = K.train_ldl(X, P, 3, steps=20, anchors="simplex", m=6, s=5.0)
    A = K.simplex_anchors(4, 6)
    assert np.allclose(m_fixed.W.detach().numpy(), 5.0 * A, atol=1e-6)
    assert all(p is not m_fixed.V for p in m_fixed.parameters())
    torch.manual_seed(3)
    learned = K.LDLNet(5, 4, m=6, s=5.0)
    torch.manual_seed(3)
    fixed = K.LDLNet(5, 4, m=6, s=5.0, fixed_anchors=A)
    for a, b in zip(learned.f.parameters(), fixed.f.parameters()):
        assert torch.equal(a, b)        # the same feature map at the start


def test_entropy_balanced_weights_equalise_the_subsets():
    rng = np.random.default_rng(2)
    P = np.concatenate([rng.dirichlet(np.full(5, 0.1), size=30), rng.dirichlet(np.full(5, 20.0), size=90)])
    tau = 0.5 * np.log(5)
    w = K.entropy_balanced_weights(P, tau)
    low = K.split_by_entropy(P, tau)
    assert w.mean() == pytest.approx(1.0) and w[low].sum() == pytest.approx(w[~low].sum())
    assert np.all(w[low] == w[low][0]) and np.all(w[~low] == w[~low][0])


def test_weighted_training_with_equal_subsets_matches_the_plain_loss():
    # with exactly as many low- as high-entropy samples every weight is 1: the same iterates as the plain KL
    rng = np.random.default_rng(4)
    peaked = np.roll(np.array([0.98, 0.01, 0.01]), 1)[None, :].repeat(20, 0)
    P = np.concatenate([peaked, np.full((20, 3), 1 / 3)])
    X = rng.normal(size=(40, 4))
    tau = 0.5 * np.log(3)
    assert np.all(K.entropy_balanced_weights(P, tau) == 1.0)
    _, h1 = K.train_ldl(X, P, 0, steps=5, weighting="entropy-balanced", tau=tau)
    _, h2 = K.train_ldl(X, P, 0, steps=5)
    assert h1 == pytest.approx(h2, rel=1e-5)


def test_weighted_training_loss_is_the_weighted_kl():
    # first step's loss: the entropy-balanced mean of the per-sample KL on the first batch, from the same start
    rng = np.random.default_rng(6)
    P = np.concatenate([np.tile([0.97, 0.01, 0.01, 0.01], (10, 1)), rng.dirichlet(np.full(4, 30.0), size=50)])
    X = rng.normal(size=(60, 3))
    tau = 0.5 * np.log(4)
    _, hist = K.train_ldl(X, P, 11, steps=1, weighting="entropy-balanced", tau=tau, batch_size=32)
    torch.manual_seed(11)
    model = K.LDLNet(3, 4)
    idx = torch.randint(0, 60, (32,), generator=torch.Generator().manual_seed(11)).numpy()
    with torch.no_grad():
        Q = model(torch.as_tensor(X[idx], dtype=torch.float32)).exp().double().numpy()
    w = K.entropy_balanced_weights(P, tau)
    expected = np.mean(w[idx] * K.ldl_measures(P[idx], Q / Q.sum(1, keepdims=True))["kl"])
    assert hist[0] == pytest.approx(expected, rel=1e-4)
    assert abs(expected - K.ldl_measures(P[idx], Q / Q.sum(1, keepdims=True))["kl"].mean()) > 1e-3


def _reference_training(X, P, seed, steps, reg="none", lam=0.0, theta0=90.0, anchors="learned", weights=None,
                        **net):
    """The plain loop, one model at a time, with torch's own Adam: what train_ldl_many must reproduce."""
    torch.manual_seed(seed)
    if anchors == "simplex":
        net["fixed_anchors"] = K.simplex_anchors(P.shape[1], net.get("m", 8))
    model = K.LDLNet(X.shape[1], P.shape[1], **net)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    gen = torch.Generator().manual_seed(seed)
    Xt, Pt = torch.as_tensor(X, dtype=torch.float32), torch.as_tensor(P, dtype=torch.float32)
    w = torch.ones(len(X)) if weights is None else torch.as_tensor(weights, dtype=torch.float32)
    for _ in range(steps):
        idx = torch.randint(0, len(X), (min(256, len(X)),), generator=gen)
        per = torch.nn.functional.kl_div(model(Xt[idx]), Pt[idx], reduction="none").sum(1)
        loss = (w[idx] * per).mean()
        if reg == "angular":
            loss = loss + lam * K.angular_regularizer(model.W, theta0)
        elif reg == "l2":
            loss = loss + lam * model.V.pow(2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model


def test_train_ldl_many_matches_one_run_at_a_time():
    X, P, _ = K.make_ldl_data(600, 5, 4, 0.3, 2)
    Xb, Pb, _ = K.make_ldl_data(600, 5, 4, 0.3, 2, sharpness="input")
    tau = 0.5 * np.log(4)
    runs = [dict(seed=3), dict(seed=3, reg="angular", lam=1.0), dict(seed=3, reg="l2", lam=0.5),
            dict(seed=3, anchors="simplex"), dict(seed=3, weighting="entropy-balanced", tau=tau),
            dict(seed=4, reg="angular", lam=1.0, theta0=60.0), dict(seed=5, data=1)]
    models, hist, saved = K.train_ldl_many([X, Xb], [P, Pb], runs, steps=40, at_steps=(10,), m=6, s=5.0)
    assert hist.shape == (40, len(runs)) and set(saved) == {10} and len(saved[10]) == len(runs)
    for run, model in zip(runs, models):
        run = dict(run)
        data = run.pop("data", 0)
        Xr, Pr = (X, P) if data == 0 else (Xb, Pb)
        weights = K.entropy_balanced_weights(Pr, run.pop("tau")) if run.pop("weighting", "none") != "none" else None
        ref = _reference_training(Xr, Pr, run.pop("seed"), 40, weights=weights, m=6, s=5.0, **run)
        assert K.predict(model, Xr) == pytest.approx(K.predict(ref, Xr), abs=1e-5)
    # a snapshot is the model after that many steps: training 10 steps gives the same
    short, _, _ = K.train_ldl_many([X, Xb], [P, Pb], runs, steps=10, m=6, s=5.0)
    for a, b in zip(saved[10], short):
        assert torch.equal(a.W, b.W) and np.array_equal(K.predict(a, X), K.predict(b, X))


def test_train_ldl_is_one_run_of_train_ldl_many():
    X, P, _ = K.make_ldl_data(300, 4, 3, 0.3, 8)
    model, hist = K.train_ldl(X, P, 7, steps=15, reg="angular", lam=1.0, theta0=70.0)
    models, H, _ = K.train_ldl_many(X, P, [dict(seed=7, reg="angular", lam=1.0, theta0=70.0), dict(seed=9)],
                                    steps=15)
    assert hist == pytest.approx(H[:, 0].tolist(), rel=1e-6)
    assert K.predict(model, X) == pytest.approx(K.predict(models[0], X), abs=1e-6)


def test_l2_penalty_leaves_the_model_unchanged_up_to_scale():
    # the anchors are s * V / |V|: scaling V changes no prediction, so the l2 penalty is a strawman
    torch.manual_seed(0)
    model = K.LDLNet(4, 3)
    x = torch.randn(10, 4)
    before = model(x)
    with torch.no_grad():
        model.V.mul_(0.05)
    assert torch.allclose(model(x), before, atol=1e-6)


def test_sharpen_and_fit_temperature():
    Q = np.array([[0.7, 0.2, 0.1], [0.4, 0.4, 0.2]])
    assert K.sharpen(Q, 1.0) == pytest.approx(Q, abs=1e-12)
    S = K.sharpen(Q, 0.5)
    assert S == pytest.approx(Q ** 2 / (Q ** 2).sum(1, keepdims=True), abs=1e-12)
    assert np.all(K.entropy(S) < K.entropy(Q)) and np.all(K.entropy(K.sharpen(Q, 2.0)) > K.entropy(Q))
    # targets that are the predictions sharpened at T = 0.6: the grid's nearest temperature is recovered
    rng = np.random.default_rng(1)
    pred = rng.dirichlet(np.full(4, 2.0), size=400)
    tau = float(np.median(K.entropy(K.sharpen(pred, 0.6))))
    assert K.fit_temperature(pred, K.sharpen(pred, 0.6), tau) == pytest.approx(0.6, abs=1e-9)
    grid = (0.5, 1.0, 2.0)
    best = K.fit_temperature(pred, K.sharpen(pred, 0.6), tau, grid)
    scores = [K.calibrated_aggregate(K.ldl_measures(K.sharpen(pred, 0.6), K.sharpen(pred, t))["kl"],
                                     K.sharpen(pred, 0.6), tau) for t in grid]
    assert best == grid[int(np.argmin(scores))]


def test_brief_check_margin():
    assert K.brief_check_margin(0.25, 0.01) == pytest.approx(0.04)       # both hold; the change binds
    assert K.brief_check_margin(0.12, 0.0) == pytest.approx(0.02)        # the cut binds
    assert K.brief_check_margin(0.40, 2.5) == pytest.approx(-2.45)       # a big cut, paid on the other side
    assert K.brief_check_margin(0.0, 0.0) == pytest.approx(-0.10)        # a no-op fails
    assert (K.brief_check_margin(0.1, 0.05) >= 0) and K.brief_check_margin(0.1, 0.05) == pytest.approx(0.0)


def test_knn_ldl_matches_scikit_learn():
    from sklearn.neighbors import KNeighborsRegressor

    rng = np.random.default_rng(5)
    Xtr, Xte = rng.normal(size=(300, 4)), rng.normal(size=(50, 4))
    Ptr = rng.dirichlet(np.ones(3), size=300)
    for k in (1, 7, 300):
        ref = KNeighborsRegressor(n_neighbors=k).fit(Xtr, Ptr).predict(Xte)
        assert K.knn_ldl(Xtr, Ptr, Xte, k) == pytest.approx(ref, abs=1e-12)


def test_teacher_and_the_two_sharpness_modes():
    X, P, is_low = K.make_ldl_data(4000, 6, 4, 0.2, 7)
    Xi, Pi, low_i = K.make_ldl_data(4000, 6, 4, 0.2, 7, sharpness="input")
    V = K.teacher_matrix(6, 4, 7)
    assert np.array_equal(X, Xi)                       # the same inputs and teacher in both modes
    z = X @ V.T / np.sqrt(6)
    beta = np.log(Pi[:, 0] / Pi[:, 1]) / (z[:, 0] - z[:, 1])   # the sharpness each distribution was drawn with
    from scipy.special import ndtr
    u = ndtr(X[:, 0])
    assert np.array_equal(low_i, u > 0.8)
    assert beta[low_i] == pytest.approx(4 + 4 * (u[low_i] - 0.8) / 0.2, rel=1e-6)
    assert beta[~low_i] == pytest.approx(0.2 + 0.8 * u[~low_i] / 0.8, rel=1e-6)
    assert abs(is_low.mean() - 0.2) < 0.03 and abs(low_i.mean() - 0.2) < 0.03


def test_bayes_ldl_is_the_conditional_mean_and_beats_other_predictions():
    d, c, seed = 5, 4, 3
    V = K.teacher_matrix(d, c, seed)
    x = np.random.default_rng(9).normal(size=(3, d))
    q = K.bayes_ldl(x, V, 0.2)
    # Monte Carlo over the sharpness at fixed x
    rng = np.random.default_rng(10)
    n = 200_000
    is_low = rng.random(n) < 0.2
    beta = np.where(is_low, rng.uniform(4, 8, n), rng.uniform(0.2, 1, n))
    z = x @ V.T / np.sqrt(d)
    for i in range(3):
        L = beta[:, None] * z[i]
        E = np.exp(L - L.max(1, keepdims=True))
        assert q[i] == pytest.approx((E / E.sum(1, keepdims=True)).mean(0), abs=3e-3)
    # on data drawn by make_ldl_data, no other prediction has a lower mean KL (the conditional mean minimises it)
    X, P, _ = K.make_ldl_data(3000, d, c, 0.2, seed)
    best = K.ldl_measures(P, K.bayes_ldl(X, V, 0.2))["kl"].mean()
    for t in (0.7, 1.3):
        Q = K.bayes_ldl(X, V, 0.2) ** t
        assert K.ldl_measures(P, Q / Q.sum(1, keepdims=True))["kl"].mean() > best


def test_bad_input():
    with pytest.raises(ValueError, match="distributions"):
        K.entropy(np.array([[0.5, 0.6]]))
    with pytest.raises(ValueError, match="same shape"):
        K.ldl_measures(np.eye(3), np.eye(2))
    with pytest.raises(ValueError, match="theta0"):
        K.angular_regularizer(torch.eye(3), 0.0)
    with pytest.raises(ValueError, match="non-empty"):
        K.calibrated_aggregate(np.ones(2), np.array([[0.5, 0.5], [0.5, 0.5]]), 0.1)
    with pytest.raises(ValueError, match="reg"):
        K.train_ldl(np.zeros((4, 2)), np.full((4, 2), 0.5), 0, steps=1, reg="dropout")
    with pytest.raises(ValueError, match="low_frac"):
        K.make_ldl_data(10, 2, 3, 1.5, 0)
    with pytest.raises(ValueError, match="sharpness"):
        K.make_ldl_data(10, 2, 3, 0.5, 0, sharpness="x")
    with pytest.raises(ValueError, match="simplex"):
        K.simplex_anchors(6, 4)
    with pytest.raises(ValueError, match="anchors"):
        K.train_ldl(np.zeros((4, 2)), np.full((4, 2), 0.5), 0, steps=1, anchors="random")
    with pytest.raises(ValueError, match="weighting"):
        K.train_ldl(np.zeros((4, 2)), np.full((4, 2), 0.5), 0, steps=1, weighting="inverse")
    with pytest.raises(ValueError, match="tau"):
        K.train_ldl(np.zeros((4, 2)), np.full((4, 2), 0.5), 0, steps=1, weighting="entropy-balanced")
    with pytest.raises(ValueError, match="penalty"):
        K.train_ldl(np.zeros((4, 2)), np.full((4, 2), 0.5), 0, steps=1, anchors="simplex", reg="angular", lam=1.0)
    with pytest.raises(ValueError, match="fixed_anchors"):
        K.LDLNet(3, 4, m=2, fixed_anchors=np.ones((3, 2)))
    with pytest.raises(ValueError, match="exceeds"):
        K.knn_ldl(np.zeros((3, 2)), np.full((3, 2), 0.5), np.zeros((1, 2)), 4)
    with pytest.raises(ValueError, match="disagree"):
        K.bayes_ldl(np.zeros((3, 2)), np.zeros((4, 3)), 0.2)
    with pytest.raises(ValueError, match="non-empty"):
        K.entropy_balanced_weights(np.full((3, 2), 0.5), 0.1)
    with pytest.raises(ValueError, match="runs"):
        K.train_ldl_many(np.zeros((4, 2)), np.full((4, 2), 0.5), [], steps=1)
    with pytest.raises(ValueError, match="seed"):
        K.train_ldl_many(np.zeros((4, 2)), np.full((4, 2), 0.5), [dict(reg="angular")], steps=1)
    with pytest.raises(ValueError, match="unknown"):
        K.train_ldl_many(np.zeros((4, 2)), np.full((4, 2), 0.5), [dict(seed=0, dropout=0.1)], steps=1)
    with pytest.raises(ValueError, match="data"):
        K.train_ldl_many(np.zeros((4, 2)), np.full((4, 2), 0.5), [dict(seed=0, data=1)], steps=1)
    with pytest.raises(ValueError, match="at_steps"):
        K.train_ldl_many(np.zeros((4, 2)), np.full((4, 2), 0.5), [dict(seed=0)], steps=3, at_steps=(4,))
    with pytest.raises(ValueError, match="alike"):
        K.train_ldl_many([np.zeros((4, 2)), np.zeros((5, 2))], [np.full((4, 2), 0.5), np.full((5, 2), 0.5)],
                         [dict(seed=0)], steps=1)
    with pytest.raises(ValueError, match="T"):
        K.sharpen(np.full((2, 2), 0.5), 0.0)
    with pytest.raises(ValueError, match="grid"):
        K.fit_temperature(np.full((2, 2), 0.5), np.full((2, 2), 0.5), 0.5, ())
    with pytest.raises(ValueError, match="finite"):
        K.brief_check_margin(float("nan"), 0.0)
