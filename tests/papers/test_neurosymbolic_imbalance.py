"""Unit tests of :mod:`repro.papers.neurosymbolic_imbalance`, the kernels of ``notebooks/neurosymbolic-imbalance.py``."""

import inspect

from repro.papers import neurosymbolic_imbalance as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/neurosymbolic_imbalance.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"




import numpy as np  # noqa: E402
import ot  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402


# ----------------------------------------------------------------------------- sum_marginal_from_pair_sums
@pytest.mark.parametrize("seed", range(5))
def test_sum_marginal_recovers_a_known_marginal_from_its_self_convolution(seed):
    rng = np.random.default_rng(seed)
    K_ = int(rng.integers(2, 12))
    p = rng.dirichlet(np.full(K_, 0.7))
    np.testing.assert_allclose(K.sum_marginal_from_pair_sums(np.convolve(p, p)), p, atol=1e-9)


def test_sum_marginal_long_tailed_uniform_and_with_zeros():
    for p in (K.long_tailed_marginal(10, 10), np.full(10, 0.1), np.array([0, 0, 0.5, 0, 0.5]),
              np.array([0.3, 0.0, 0.0, 0.7]), np.array([0.0, 0.0, 1.0]), np.array([1.0])):
        np.testing.assert_allclose(K.sum_marginal_from_pair_sums(np.convolve(p, p)), p, atol=1e-9)


def test_sum_marginal_takes_the_positive_branch():
    # -p squares to the same sums; the returned root is the probability vector (P(1) = +1)
    p = np.array([0.2, 0.5, 0.3])
    q = K.sum_marginal_from_pair_sums(np.convolve(-p, -p))
    assert (q >= 0).all() and np.isclose(q.sum(), 1.0)
    np.testing.assert_allclose(q, p, atol=1e-12)


def test_sum_marginal_is_consistent_on_sampled_sums_and_beats_the_uniform_guess():
    rng = np.random.default_rng(0)
    r = K.long_tailed_marginal(10, 10)
    errs = []
    for n in (2000, 200000):
        s = rng.choice(10, size=(2, n), p=r).sum(0)
        r_hat = K.sum_marginal_from_pair_sums(np.bincount(s, minlength=19) / n)
        assert (r_hat >= 0).all() and np.isclose(r_hat.sum(), 1.0)
        errs.append(np.abs(r_hat - r).sum())
    assert errs[1] < errs[0] and errs[1] < 0.03
    assert errs[1] < np.abs(np.full(10, 0.1) - r).sum() / 10


def test_sum_marginal_least_squares_branch_fits_a_non_square_input_no_worse_than_brute_force():
    # an input that is not an exact square: the returned p minimises ||p*p - s|| over the simplex
    s = np.array([0.1, 0.1, 0.4, 0.1, 0.3])
    p = K.sum_marginal_from_pair_sums(s)
    f = np.sum((np.convolve(p, p) - s) ** 2)
    g = np.linspace(0, 1, 201)
    a, b = np.meshgrid(g, g, indexing="ij")
    ok = a + b <= 1
    P = np.stack([a[ok], b[ok], 1 - a[ok] - b[ok]], 1)
    conv = np.stack([P[:, 0] ** 2, 2 * P[:, 0] * P[:, 1], P[:, 1] ** 2 + 2 * P[:, 0] * P[:, 2],
                     2 * P[:, 1] * P[:, 2], P[:, 2] ** 2], 1)
    assert f <= np.min(np.sum((conv - s) ** 2, 1)) + 1e-9


@pytest.mark.parametrize("bad, match", [
    (np.array([0.5, 0.5]), "odd length"),
    (np.array([0.5, 0.6, -0.1]), "non-negative"),
    (np.array([0.2, 0.2, 0.2]), "sum to 1"),
    (np.array([0.5, np.nan, 0.5]), "finite"),
    (np.ones((3, 3)) / 9, "dimension|ndim|1-d|shape"),
    (np.array([]), "empty"),
])
def test_sum_marginal_rejects_invalid_input(bad, match):
    with pytest.raises(ValueError, match=match):
        K.sum_marginal_from_pair_sums(bad)


# ----------------------------------------------------------------------------- max / symbols
def test_max_marginal_recovers_exactly_and_symbol_distribution_matches_brute_force():
    rng = np.random.default_rng(3)
    p = rng.dirichlet(np.ones(6))
    pm = K.symbol_distribution(p, "max")
    brute = np.zeros(6)
    for a in range(6):
        for b in range(6):
            brute[max(a, b)] += p[a] * p[b]
    np.testing.assert_allclose(pm, brute, atol=1e-15)
    np.testing.assert_allclose(K.max_marginal_from_pair_max(pm), p, atol=1e-12)
    np.testing.assert_allclose(K.symbol_distribution(p, "sum"), np.convolve(p, p), atol=1e-15)
    np.testing.assert_allclose(K.symbol_distribution(p, "first"), p, atol=1e-15)


def test_constraint_matrix_rows_and_estimate_marginal_input_checks():
    for sigma in K.SIGMAS:
        M = K.constraint_matrix(sigma, 4)
        assert M.shape == (16, K.n_symbols(sigma, 4)) and (M.sum(1) == 1).all()
    with pytest.raises(ValueError, match="sigma"):
        K.constraint_matrix("product", 4)
    with pytest.raises(ValueError, match="values in"):
        K.estimate_marginal(np.array([0, 19]), "sum", 10)
    with pytest.raises(ValueError, match="reveals"):
        K.estimate_marginal(np.array([0, 1]), "first", 10)


def test_sample_weak_pairs_follows_the_marginal_and_sigma():
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(4), [5, 7, 3, 9])
    r = np.array([0.4, 0.3, 0.2, 0.1])
    i1, i2, s = K.sample_weak_pairs(y, r, 40000, "sum", rng)
    np.testing.assert_array_equal(s, y[i1] + y[i2])
    np.testing.assert_allclose(np.bincount(y[i1], minlength=4) / 40000, r, atol=0.01)
    with pytest.raises(ValueError, match="pool image"):
        K.sample_weak_pairs(np.array([0, 0, 1]), np.array([0.3, 0.3, 0.4]), 5, "max", rng)


# ----------------------------------------------------------------------------- losses
def test_nesy_loss_with_first_is_cross_entropy_and_with_sum_is_brute_force():
    g = torch.Generator().manual_seed(0)
    lp1 = torch.log_softmax(torch.randn(2, 7, 4, generator=g, dtype=torch.float64), -1)
    lp2 = torch.log_softmax(torch.randn(2, 7, 4, generator=g, dtype=torch.float64), -1)
    y = torch.randint(0, 4, (2, 7), generator=g)
    ce = -lp1.gather(-1, y[..., None])[..., 0]
    torch.testing.assert_close(K.nesy_nll(lp1, lp2, y, K.constraint_matrix("first", 4)), ce)
    s = torch.randint(0, 7, (2, 7), generator=g)
    p1, p2 = lp1.exp(), lp2.exp()
    brute = torch.zeros(2, 7, dtype=torch.float64)
    for a in range(4):
        for b in range(4):
            brute += p1[..., a] * p2[..., b] * (s == a + b)
    torch.testing.assert_close(K.nesy_nll(lp1, lp2, s, K.constraint_matrix("sum", 4)), -brute.log())
    q1, q2 = K.pair_posteriors(lp1, lp2, s, K.constraint_matrix("sum", 4))
    torch.testing.assert_close(q1.sum(-1), torch.ones(2, 7, dtype=torch.float64))
    # s = 0 under sum forces both labels to 0
    q1, q2 = K.pair_posteriors(lp1[:, :1], lp2[:, :1], torch.zeros(2, 1, dtype=torch.long), K.constraint_matrix("sum", 4))
    torch.testing.assert_close(q1[..., 0], torch.ones(2, 1, dtype=torch.float64))


# ----------------------------------------------------------------------------- OT
def test_sinkhorn_plan_matches_pot_and_respects_the_marginals():
    rng = np.random.default_rng(1)
    p = rng.dirichlet(np.ones(5), size=30)
    b = rng.dirichlet(np.ones(5))
    for reg in (1.0, 0.3):
        plan = K.sinkhorn_plan(np.log(p), b, reg=reg, n_iter=2000)
        ref = ot.sinkhorn(np.full(30, 1 / 30), b, -np.log(p), reg, numItermax=20000, stopThr=1e-13)
        np.testing.assert_allclose(plan, ref, atol=1e-8)
        np.testing.assert_allclose(plan.sum(0), b, atol=1e-9)
    # batched = one by one
    L = np.log(rng.dirichlet(np.ones(5), size=(3, 20)))
    B = rng.dirichlet(np.ones(5), size=3)
    batched = K.sinkhorn_plan(L, B)
    for k in range(3):
        np.testing.assert_allclose(batched[k], K.sinkhorn_plan(L[k], B[k]), atol=1e-12)


def test_small_reg_labels_approach_the_lp_and_match_the_class_histogram():
    rng = np.random.default_rng(2)
    p = rng.dirichlet(np.ones(4), size=40)
    b = np.array([0.4, 0.3, 0.2, 0.1])
    lab = K.marginal_constrained_labels(np.log(p), b, reg=0.02, n_iter=3000)
    np.testing.assert_allclose(np.bincount(lab, minlength=4), 40 * b, atol=1)
    lp = ot.emd(np.full(40, 1 / 40), b, -np.log(p))
    assert np.mean(lp.argmax(1) == lab) >= 0.95
    with pytest.raises(ValueError, match="marginal"):
        K.sinkhorn_plan(np.log(p), np.array([0.5, 0.5]))
    with pytest.raises(ValueError, match="reg"):
        K.sinkhorn_plan(np.log(p), b, reg=0.0)


# ----------------------------------------------------------------------------- training and evaluation
def test_per_class_accuracy_and_imbalance():
    yt = np.array([[0, 0, 1, 1, 2], [0, 1, 1, 2, 2]])
    yp = np.array([[0, 1, 1, 1, 0], [0, 0, 1, 2, 2]])
    acc = K.per_class_accuracy(yt, yp, 4)
    np.testing.assert_allclose(acc[:, :3], [[0.5, 1, 0], [1, 0.5, 1]])
    assert np.isnan(acc[:, 3]).all()
    np.testing.assert_allclose(K.imbalance(acc), [1.0, 0.5])
    with pytest.raises(ValueError, match="same shape"):
        K.per_class_accuracy(yt, yp[:, :2], 4)


def test_train_linear_learns_separable_blobs_with_each_loss():
    rng = np.random.default_rng(0)
    C = 4
    centers = 4 * rng.standard_normal((C, 6))
    y = np.repeat(np.arange(C), 20)
    X = (centers[y] + rng.standard_normal((80, 6)))[None]
    for sigma, m in (("sum", 2), ("max", 3)):
        idx, s = K.sample_weak_tuples(y, np.full(C, 1 / C), 300, m, sigma, rng)
        idx, s = idx[None], s[None]
        for kw in (dict(y_pool=y[None]), {}, dict(pseudo="marginal", marginal=np.full(C, 1 / C), warmup=50),
                   dict(pseudo="argmax", warmup=50)):
            W = K.train_linear(X, idx, s, sigma, C, 150, lr=0.1, **kw)
            assert W.shape == (1, 7, C)
            assert (K.predict_logp(W, X).argmax(-1)[0] == y).mean() > 0.9, (sigma, kw)
    W, (ts, Ws) = K.train_linear(X, idx, s, "max", C, 20, lr=0.1, record_every=10)
    np.testing.assert_array_equal(ts, [0, 10, 20])
    assert Ws.shape == (3, 1, 7, C) and np.array_equal(Ws[-1], W)
    with pytest.raises(ValueError, match="needs the marginal"):
        K.train_linear(X, idx, s, "max", C, 5, pseudo="marginal")
    with pytest.raises(ValueError, match="pairs"):
        K.train_linear(X, idx, s, "sum", C, 5)


# ----------------------------------------------------------------------------- max over M elements
def _brute_max(p):
    """Exact P(max = s) and posteriors by enumerating the K^M label tuples; p (M, K)."""
    import itertools
    M, Kc = p.shape
    ps = np.zeros(Kc)
    post = np.zeros((Kc, M, Kc))
    for labs in itertools.product(range(Kc), repeat=M):
        w = np.prod([p[j, a] for j, a in enumerate(labs)])
        ps[max(labs)] += w
        for j, a in enumerate(labs):
            post[max(labs), j, a] += w
    return ps, post / ps[:, None, None]


@pytest.mark.parametrize("M", [2, 3, 4])
def test_max_nll_and_posteriors_match_enumeration(M):
    g = torch.Generator().manual_seed(M)
    Kc = 4
    lp = torch.log_softmax(torch.randn(M, 1, Kc, generator=g, dtype=torch.float64), -1)
    ps, post = _brute_max(lp[:, 0].exp().numpy())
    for s in range(Kc):
        st = torch.tensor([s])
        np.testing.assert_allclose(K.max_nll(lp, st).numpy(), [-np.log(ps[s])], rtol=1e-10)
        np.testing.assert_allclose(K.max_posteriors(lp, st)[:, 0].numpy(), post[s], atol=1e-10)


def test_max_nll_equals_the_pair_table_for_two_elements():
    g = torch.Generator().manual_seed(5)
    lp = torch.log_softmax(torch.randn(3, 2, 9, 5, generator=g, dtype=torch.float64), -1)
    s = torch.randint(0, 5, (3, 9), generator=g)
    M = K.constraint_matrix("max", 5)
    torch.testing.assert_close(K.max_nll(lp, s), K.nesy_nll(lp[:, 0], lp[:, 1], s, M))
    q1, q2 = K.pair_posteriors(lp[:, 0], lp[:, 1], s, M)
    torch.testing.assert_close(K.max_posteriors(lp, s), torch.stack([q1, q2], 1))
    with pytest.raises(ValueError, match="shape"):
        K.max_nll(lp, s[:, :3])


@pytest.mark.parametrize("m", [1, 2, 3, 5])
def test_max_marginal_from_tuple_max_inverts_the_max_distribution(m):
    rng = np.random.default_rng(m)
    p = rng.dirichlet(np.ones(7))
    F = np.cumsum(p)
    p_max = np.diff(F ** m, prepend=0.0)
    np.testing.assert_allclose(K.max_marginal_from_tuple_max(p_max, m), p, atol=1e-12)
    # sampled: consistent as the number of tuples grows
    y = rng.choice(7, size=(m, 100000), p=p).max(0)
    assert np.abs(K.estimate_marginal(y, "max", 7, m=m) - p).sum() < 0.05
    with pytest.raises(ValueError, match="pairs"):
        K.estimate_marginal(y, "sum", 7, m=3)


def test_sample_weak_tuples_max_and_bad_input():
    rng = np.random.default_rng(1)
    y = np.repeat(np.arange(5), 4)
    idx, s = K.sample_weak_tuples(y, np.full(5, 0.2), 1000, 4, "max", rng)
    assert idx.shape == (4, 1000)
    np.testing.assert_array_equal(s, y[idx].max(0))
    with pytest.raises(ValueError, match="pairs"):
        K.sample_weak_tuples(y, np.full(5, 0.2), 10, 3, "sum", rng)
    with pytest.raises(ValueError, match="sigma"):
        K.sample_weak_tuples(y, np.full(5, 0.2), 10, 2, "min", rng)


def test_gaussian_classes_are_balanced_and_symmetric():
    X, y = K.gaussian_classes(2000, 4, 2.0, np.random.default_rng(0))
    assert X.shape == (8000, 4) and (np.bincount(y) == 2000).all()
    means = np.stack([X[y == k].mean(0) for k in range(4)])
    np.testing.assert_allclose(means, 2.0 * np.eye(4), atol=0.08)
    with pytest.raises(ValueError, match="separation"):
        K.gaussian_classes(5, 4, 0.0, np.random.default_rng(0))


# ----------------------------------------------------------------------------- comparators' kernels (issue 33)
def test_weak_label_as_label_reads_the_max_and_the_halved_sum():
    assert np.allclose(K.weak_label_as_label(np.array([0, 9, 9, 3]), "max", 10),
                       np.bincount([0, 9, 9, 3], minlength=10) / 4)
    assert np.allclose(K.weak_label_as_label(np.array([0, 1, 18, 7]), "sum", 10),
                       np.bincount([0, 0, 9, 3], minlength=10) / 4)
    with pytest.raises(ValueError):
        K.weak_label_as_label(np.array([19]), "sum", 10)
    with pytest.raises(ValueError):
        K.weak_label_as_label(np.array([1]), "first", 10)


@pytest.mark.parametrize("m", [1, 2, 3])
def test_label_revealed_probability_matches_brute_force(m):
    rng = np.random.default_rng(m)
    r = rng.dirichlet(np.ones(4))
    import itertools
    brute = sum(np.prod(r[list(t)]) for t in itertools.product(range(4), repeat=m) if t[0] == max(t))
    assert np.isclose(K.label_revealed_probability(r, m), brute)
    assert np.isclose(K.label_revealed_probability(np.full(10, 0.1), 3), 0.385)


def test_symmetric_label_noise_rates_and_edges():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 10, 200_000)
    kept = (K.symmetric_label_noise(y, 0.6, 10, rng) == y).mean()
    assert abs(kept - (1 - 0.6 + 0.06)) < 0.005
    assert np.array_equal(K.symmetric_label_noise(y, 0.0, 10, rng), y)
    with pytest.raises(ValueError):
        K.symmetric_label_noise(y, 1.5, 10, rng)
    with pytest.raises(ValueError):
        K.symmetric_label_noise(np.array([10]), 0.1, 10, rng)


def test_prior_corrected_labels_divides_by_the_mean_prediction():
    p = np.array([[[0.7, 0.3], [0.6, 0.4], [0.9, 0.1]]])
    lp = np.log(p)
    prior = p.mean(1)  # (1, 2)
    expect = (p / prior[:, None, :]).argmax(-1)
    assert np.array_equal(K.prior_corrected_labels(lp, lp), expect)
    # a uniform mean prediction changes nothing
    q = np.array([[[0.8, 0.2], [0.2, 0.8]]])
    assert np.array_equal(K.prior_corrected_labels(np.log(q), np.log(q)), q.argmax(-1))
    with pytest.raises(ValueError):
        K.prior_corrected_labels(lp, lp[..., :1])


def test_tuple_elements_gathers_each_repetitions_images():
    X = np.arange(2 * 5 * 3, dtype=float).reshape(2, 5, 3)
    idx = np.array([[[0, 4], [1, 1]], [[2, 3], [0, 4]]])
    out = K.tuple_elements(X, idx)
    assert out.shape == (2, 4, 3)
    assert np.array_equal(out[1, 1], X[1, 3]) and np.array_equal(out[0, 2], X[0, 1])
    with pytest.raises(ValueError):
        K.tuple_elements(X, idx + 5)
