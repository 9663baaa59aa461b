# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Sampled estimators of the softmax must be biased
#
# *No function that looks at only a sampled subset of the classes can have the full softmax probability as its
# expectation, whatever the correction, as long as the sampler does not itself use the logits.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue

from repro.claims import Claims, Comparator, Tolerance, at_most, greater_than
from repro.papers import sampled_softmax_bias as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 15 s of user CPU on one thread, kernel start included (pipeline execute): two vocabulary sizes,
    # 12 small networks of 200 steps, 47 small LPs (7 counted, 7 Zipf, 6 + 7 wrong inputs, 7 random targets,
    # 7 on the two-value grid, 6 on grids of chosen range)
    "ci": dict(ns=(6, 8), n_logits=50, sigma=2.0, fd_points=5, steps=200, batch=256, hidden=32,
               lp_ns=(5, 6), grid_size=3),
    # a few minutes of CPU: adds n = 10 (9 more networks), longer training, more logit vectors, LPs at n = 7
    "full": dict(ns=(6, 8, 10), n_logits=200, sigma=2.0, fd_points=10, steps=2000, batch=512, hidden=64,
                 lp_ns=(5, 6, 7), grid_size=3),
})
claims = Claims(
    "sampled-softmax-bias",
    title="Sampled Estimators For Softmax Must Be Biased",
    authors=None,
    paper_url="https://openreview.net/forum?id=xtKNbPTnMA",
    scale=scale, seed=seed,
)
TARGET, TOL = 0, 1e-10  # target class index; the tolerance that separates "zero" from "non-zero" below

# %% [markdown]
# ## The claim
#
# With a very large number of classes (words, items, entities), computing the softmax
# $p_t = e^{o_t} / \sum_{j=1}^n e^{o_j}$ needs all $n$ logits. *Sampled softmax* replaces the sum
# by a sum over the target and $k \ll n$ sampled "negative" classes. It has long been known to be
# biased: [TensorFlow's documentation](https://www.tensorflow.org/api_docs/python/tf/nn/sampled_softmax_loss) says its loss is "generally an underestimate" of the full
# softmax loss. Much work has gone into better samplers and corrections that shrink the bias.
# The paper asks whether some *other* function of the sampled classes could be exactly unbiased,
# and answers no: **every** estimator that reads only a sampled subset of the classes is biased.
# The practical message is that bias reduction is the best one can hope for.
#
# What we know of the paper: the abstract and the OpenReview forum
# ([xtKNbPTnMA](https://openreview.net/forum?id=xtKNbPTnMA)); the title comes from secondary
# notes. We did not have the theorem's exact statement, its proof, or any experiment, and found
# no official code or reported numbers (so there is no table of the paper's numbers beside ours).
# The abstract does not state what the sampler may depend on. It must restrict it somehow: a sampler
# that draws one class from the softmax itself, with the estimator "is it the target?", is unbiased,
# but needs the full normaliser. The result is qualitative, so this page checks the
# qualitative statement, on a formalisation of our own (next section), exactly rather than by
# sampling. One possible source of confusion: [Raman et al. (2018)](https://arxiv.org/abs/1803.08577) describe "unbiased" scalable
# softmax *optimisation*. As far as we can tell from its abstract, that unbiasedness is about the
# stochastic gradients of a reformulated objective, not about a function of a sampled subset that
# estimates $p_t$, so the two results do not conflict.
#
# ## The method
#
# **Our formalisation (it may differ from the paper's theorem).** There are $n$ classes with
# logits $o\in\mathbb R^n$ and a target $t$. A *sampler* draws a set (or multiset) $S$ of $k$ negatives
# with a law $\pi(S)$ that **does not depend on the logits**. An *estimator* is any function
# $f(o_t, (j, o_j)_{j\in S})$ of what it sees: the target's logit and the sampled classes with their
# logits. Its bias at $o$ is
#
# $$ b(o) = \mathbb E_{S\sim\pi}\, f(o_t, o_S) - p_t(o). $$
#
# "Unbiased" means $b(o)=0$ for **every** $o$. We compare four estimators:
#
# | estimator | sampler | $f$ |
# |---|---|---|
# | plain sampled softmax | $k$ distinct negatives, uniform | $e^{o_t}/(e^{o_t}+\sum_{j\in S}e^{o_j})$ |
# | log-Q corrected | $k$ draws with replacement from a fixed Zipf $q$ | $e^{o_t}/(e^{o_t}+\sum_{i=1}^k e^{o_{j_i}-\log(kq_{j_i})})$ |
# | plug-in $e^{o_t}/\hat Z$ | $k$ distinct negatives, uniform | $\hat Z = e^{o_t}+\frac{n-1}{k}\sum_{j\in S}e^{o_j}$ |
# | learned | $k$ distinct negatives, uniform | a small MLP of $\operatorname{sort}(o_S)-o_t$, trained to minimise $\mathbb E(f-p_t)^2$ |
#
# The log-Q and plug-in estimators both use a normaliser estimate with $\mathbb E\hat Z = Z$; since
# $1/x$ is convex, Jensen's inequality gives $\mathbb E[e^{o_t}/\hat Z] > e^{o_t}/Z$: an unbiased
# normaliser does not make an unbiased probability. The learned estimator stands for "any other
# function": it is the best mean-square predictor the network can find, and nothing forces its sign.
#
# **Why no estimator can be unbiased (our argument).** Write
# $\mathbb E_S f = \sum_S \pi(S)\, f(o_t, o_S)$. Each term depends on the logits of at most $k$
# negatives. Pick $k+1$ distinct negatives $J=\{j_1,\dots,j_{k+1}\}$ and apply the mixed finite
# difference
#
# $$ \Delta_J F(o) = \sum_{T\subseteq J} (-1)^{|J|-|T|}\, F(o + h\,\mathbf 1_T), $$
#
# which is zero for any function that ignores one of the coordinates in $J$. Every term of
# $\mathbb E_S f$ misses at least one $j\in J$, so $\Delta_J \mathbb E_S f = 0$ exactly, for every
# estimator and every logit-free sampler. The softmax, in contrast, depends on all logits jointly:
# its mixed derivative is $\partial^{m} p_t/\partial o_{j_1}\cdots\partial o_{j_m} = (-1)^m\, m!\, p_t\prod_i p_{j_i}\neq 0$,
# and $\Delta_J p_t$ (the integral of that derivative over a box) has the same strict sign.
# Hence $\Delta_J b = -\Delta_J p_t \neq 0$, so $b$ cannot vanish everywhere. Because $\Delta_J b$ is a
# signed sum of $2^{k+1}$ values of $b$, the argument even gives a **certified lower bound**:
#
# $$ \max_{T\subseteq J} |b(o + h\mathbf 1_T)| \;\ge\; |\Delta_J p_t(o)| \,/\, 2^{k+1}. $$
#
# The argument needs $k+1$ negatives to exist, i.e. $k\le n-2$. At $k=n-1$ the sampler can show
# every class and the plain estimator *is* the softmax.
#
# **Checking "every estimator" without our argument: a linear program.** The argument above is ours, and
# checking it with our own code would only check our algebra. The claim itself, "no function of the sample is
# unbiased", can be put to an independent computation. Restrict the logits to a finite grid $V^n$ (every
# coordinate takes one of $|V|$ values). On that grid an estimator is a finite table: one free number
# $f(s, o_{\{t\}\cup S})$ for each sampler outcome $s$ and each combination of the values it shows, and
# $\mathbb E_S f(o)=\sum_s\pi(s)\,f(s,o_{\{t\}\cup S_s})$ is linear in the table. The smallest worst-case
# bias over **every** estimator,
#
# $$ \beta^\star = \min_{f}\;\max_{o\in V^n}\bigl|\mathbb E_S f(o) - p_t(o)\bigr|, $$
#
# is then a linear program. An estimator that were unbiased on all of $\mathbb R^n$ would be unbiased on the
# grid (its expectation at a grid point only reads its values at grid logits), so $\beta^\star>0$ refutes
# the existence of an unbiased estimator for that sampler, and $\beta^\star=0$ would refute the theorem.
# The table may depend on everything the outcome shows, including which classes were drawn and how often,
# and its values are not confined to $[0,1]$. The solver's dual weights $y$ (with $A^\top y=0$, where $A$ maps a
# table to its expectations on the grid) give $|y^\top p_t|/\|y\|_1$ as a lower bound on $\beta^\star$ that we
# check ourselves, and its optimal table gives an upper bound, so the optimum is bracketed whatever the
# solver's tolerances. Four deliberately wrong inputs must let the program reach zero: inside the hypothesis,
# the same grid and sampler with $p_t$ replaced by a function that is the expectation of some estimator (that
# of the plain sampled softmax); and three samplers outside it: $k=n-1$ distinct negatives; $k=n-1$ draws with
# replacement, which show every class with a small probability (weight that outcome by the inverse of its
# probability); and a sampler that draws one class from the softmax itself and reports whether it is the
# target.
#
# ## The experiment
#
# All expectations are **exact**: the sampler's outcomes are enumerated once (all
# $\binom{n-1}{k}$ subsets, or all multisets with their multinomial probabilities for log-Q) and
# every estimator is evaluated on all outcomes and all logit vectors in one array operation.
#
# * Vocabulary sizes $n$ and sample sizes $k=1,\dots,n-1$ from the preset below; target $t=0$.
# * Bias study: random logits $o\sim\mathcal N(0,\sigma^2 I_n)$ with $\sigma=2$, the law the learned estimator is trained on.
# * Mechanism: base points $o\sim\mathcal N(0, I_n)$, $J=\{1,\dots,k+1\}$, unit step $h=1$.
# * One learned estimator per $(n,k)$: a two-hidden-layer MLP trained in float64 with Adam on fresh samples.
# * Linear program: a grid of $|V|=3$ logit values drawn from $\mathcal N(0,\sigma^2)$ (a new grid at each
#   seed), smaller vocabularies than the bias study (the grid has $|V|^n$ points), $k=1,\dots,n-2$, the
#   uniform sampler without replacement (the Zipf proposal with replacement is shown beside it; it gives the
#   same optimum by an identity), solved by HiGHS through `scipy.optimize.linprog`
#   with its tightest feasibility tolerances ($10^{-10}$ instead of the default $10^{-7}$).

# %%
print(f"scale={P.scale}: n in {P.ns}, {P.n_logits} logit vectors, {P.fd_points} base points per (n, k), "
      f"MLP {P.hidden} wide, {P.steps} Adam steps of {P.batch}; LP on {P.grid_size}^n grids, n in {P.lp_ns}")

# %% [markdown]
# **Deviations from the paper**
#
# * The paper's exact assumptions (what the estimator may see, whether the sampler may depend on the
#   logits, with or without replacement) were not available to us; the setting above is our own.
# * Tiny vocabularies ($n\le 8$ at ci scale, $n\le10$ at full scale) instead of large ones, so that
#   every expectation can be computed exactly instead of by Monte Carlo.
# * Synthetic Gaussian logits instead of the logits of a trained model.
# * "Every function" is checked in two ways: on random logits through three classical estimators and one
#   learned one (illustrations), and exactly, over every function of the sample, by a linear program on a
#   small grid of logit values (the test). The program covers $n\le6$ at ci scale; the full preset adds
#   $n=7$.
# * No training experiment: we do not fit a classifier with sampled softmax to see what the bias does
#   to the learned parameters (an optional add-on in our design notes).
# * Our design notes for this page first asked for the softmax's finite difference to exceed $10^{-3}$. Before running anything
#   we replaced that by the zero tolerance $10^{-10}$ used for the estimators, because the
#   $(k+1)$-th difference shrinks like $(k+1)!\,p_t\prod_j p_j$: about $4\cdot10^{-5}$ at
#   $n=10$, $k=8$ even with equal logits. $10^{-3}$ is the right size only for small $k$. That check
#   (`fd-softmax-nonzero`) is now an illustration.
# * The first version of this page counted seven checks. Four were identities of our own code (they
#   hold for any input); they became unit tests or checks of our implementation. The re-grading of issue 34
#   found that the other three could not fail either: the classical estimators' bias is prior work, and the two
#   finite-difference checks test our own argument with our own code. They are now illustrations. The one
#   counted test, the linear program over every estimator, was added then (post hoc), on seeds 0-9.
#   After the independent review it was mended, still on seeds 0-9: its value is now the bound certified by
#   the program's dual, the Zipf sampler (the same optimum, by an identity) left its minimum, and a fourth
#   wrong input, an estimable target inside the hypothesis, joined the three outside it; the solver runs at its
#   tightest feasibility tolerances, so that its own estimator closes the bracket. Its threshold
#   $10^{-6}$ (borrowed, post hoc, from the brief's first check) and the law of its grid are unchanged.
# * No official code was found, so there is no official configuration to run beside ours.

# %% [markdown]
# ## Results
#
# ### The four estimators are biased for every $k \le n-2$ (an illustration)
#
# We train the learned estimators, then compute the exact bias of all four estimators for every
# $(n, k)$ on the same random logit vectors. This shows the size of the bias; it cannot test the theorem,
# which is about every function: that these four are biased was known (the three ratio estimators) or
# says nothing about the others (one trained network).

# %%
cases = [(n, k) for n in P.ns for k in range(1, n)]
learned = {(n, k): K.train_learned_estimator(n, k, steps=P.steps, batch=P.batch, hidden=P.hidden,
                                             sigma=P.sigma, seed=seed + 100 * n + k)
           for n, k in progress(cases, desc="training")}
logits = {n: P.sigma * P.rng.normal(size=(P.n_logits, n)) for n in P.ns}
bias = {(n, k): K.exact_biases(logits[n], TARGET, k, K.zipf_proposal(n, TARGET), learned[n, k])
        for n, k in cases}

# %%
n_show = max(P.ns)
print(f"n = {n_show}: mean |bias| over {P.n_logits} logit vectors (share of vectors with bias > 0)")
print("k  " + "".join(f"{name:>18}" for name in K.ESTIMATORS))
for k in range(1, n_show):
    print(f"{k:<3}" + "".join(f"{np.abs(bias[n_show, k][e]).mean():>10.2e} ({np.mean(bias[n_show, k][e] > 0):4.0%})"
                            for e in K.ESTIMATORS))

# %%
fig, axes = plt.subplots(1, len(P.ns), figsize=(3.3 * len(P.ns), 3.4), sharey=True)
markers = dict(zip(K.ESTIMATORS, "osD^"))
for ax, n in zip(np.atleast_1d(axes), P.ns):
    ks = np.arange(1, n)
    for e in K.ESTIMATORS:
        y = [max(np.abs(bias[n, k][e]).mean(), 1e-17) for k in ks]  # exact zeros drawn at the floor
        ax.semilogy(ks, y, marker=markers[e], label=e)
    ax.axhspan(1e-18, 1e-14, color="0.85", label="float64 rounding")
    ax.set(title=f"n = {n} classes", xlabel="sampled negatives k", xticks=ks, ylim=(1e-18, 1))
np.atleast_1d(axes)[0].set_ylabel("mean |bias| of $E_S f$ vs $p_t$")
np.atleast_1d(axes)[-1].legend(loc="lower left")
plt.show()

# %% [markdown]
# The bias falls as $k$ grows but stays far from zero until the sampler sees every negative. At
# $k=n-1$ the plain and plug-in estimators drop to rounding level (they then compute the softmax
# exactly), while log-Q, which samples with replacement, can still miss classes and stays biased.
# The learned estimator has the smallest bias at small $k$ (it is trained to be the best average
# predictor), and the plug-in estimator the smallest at larger $k$, but neither reaches zero. The
# three ratio estimators overestimate $p_t$ on every logit vector (so they underestimate the loss
# $-\log p_t$, as TensorFlow's documentation says); the learned one errs in both directions, with a
# share of positive biases that drifts with $k$ (last column of the table). A different sign pattern
# does not help: the bias is still not zero.
#
# ### The mechanism: the order-$(k+1)$ difference kills $\mathbb E_S f$ but not $p_t$ (an illustration)
#
# This is our own argument computed with our own code: it shows why the theorem holds in our formalisation,
# and it would hold for any correct implementation, so it tests nothing about the paper.

# %%
def stack(d):
    return np.stack([d[e] for e in K.ESTIMATORS], axis=1)


fd_cases = [(n, k) for n in P.ns for k in range(1, n - 1)]
fd_est, fd_soft, fd_order_k, worst, bound = {}, {}, {}, {}, {}
for n, k in progress(fd_cases, desc="finite differences"):
    base, coords, q = P.rng.normal(size=(P.fd_points, n)), np.arange(1, k + 2), K.zipf_proposal(n, TARGET)
    fd_est[n, k] = np.concatenate([K.mixed_finite_difference(  # one base point at a time keeps memory small
        lambda x: stack(K.exact_expectations(x, TARGET, k, q, learned[n, k])), b, coords, target=TARGET)
        for b in base])
    fd_order_k[n, k] = np.concatenate([K.mixed_finite_difference(  # one coordinate fewer: E_S f is NOT killed
        lambda x: stack(K.exact_expectations(x, TARGET, k, q, learned[n, k])), b, coords[:-1], target=TARGET)
        for b in base])
    fd_soft[n, k] = K.mixed_finite_difference(lambda x: K.softmax_prob(x, TARGET), base, coords, target=TARGET)
    bound[n, k] = K.certified_bias_lower_bound(base, TARGET, coords)
    worst[n, k] = np.concatenate([K.max_abs_over_corners(
        lambda x: stack(K.exact_biases(x, TARGET, k, q, learned[n, k])), b, coords) for b in base])

# %%
fig, ax = plt.subplots(figsize=(6.4, 3.6))
n = max(P.ns)
ks = np.arange(1, n - 1)
ax.semilogy(ks, [np.abs(fd_soft[n, k]).min() for k in ks], "k-o", lw=2, label=r"softmax $p_t$ (smallest)")
for e_i, e in enumerate(K.ESTIMATORS):
    ax.semilogy(ks, [max(np.abs(fd_est[n, k][:, e_i]).max(), 1e-19) for k in ks],
                marker=markers[e], ls="--", label=rf"$E_S f$, {e} (largest)")
ax.semilogy(ks, [np.abs(fd_order_k[n, k][:, 0]).min() for k in ks], "o:", color="0.5", mfc="white",
            label=r"$E_S f$, plain, order $k$ only (smallest)")
ax.axhline(TOL, color="0.4", lw=1, ls=":")
ax.text(ks[0], TOL * 2, "zero tolerance $10^{-10}$", fontsize=8, color="0.3")
ax.set(xlabel="sampled negatives k (difference of order k+1)", ylabel=r"$|\Delta_J|$ with $h=1$",
       title=f"Mixed finite difference over k+1 negatives, n = {n}", ylim=(1e-19, 1))
ax.legend(fontsize=8, ncol=2, loc="center right")
plt.show()

# %% [markdown]
# The softmax's difference (the black line is its *smallest* value over the base points) shrinks
# with $k$ by several orders of magnitude, but stays far above the estimators' differences (their
# *largest* values), which are rounding noise or exact zeros (drawn at $10^{-19}$), whatever the estimator:
# the smallest softmax difference is {glue:text}`fd_soft_min:.1e`, the largest estimator difference
# {glue:text}`fd_est_max:.1e`. The unit tests also check
# that the softmax's difference has the predicted sign $(-1)^{k+1}$. The order matters: a
# difference over only $k$ negatives (grey, open circles) does not vanish for the plain estimator,
# because one subset can contain all $k$ of them (nor for the other three: {glue:text}`fd_order_k_count` of
# the {glue:text}`fd_order_k_total` order-$k$ differences exceed $10^{-10}$). Since
# $\Delta_J b = \Delta_J \mathbb E_S f - \Delta_J p_t$, the bias cannot be zero on all $2^{k+1}$
# corners, and the largest corner bias must exceed $|\Delta_J p_t|/2^{k+1}$:

# %%
fig, ax = plt.subplots(figsize=(5.2, 3.6))
for e_i, e in enumerate(K.ESTIMATORS):
    b_ = np.concatenate([bound[c] for c in fd_cases])
    w_ = np.concatenate([worst[c][:, e_i] for c in fd_cases])
    ax.loglog(b_, w_, markers[e], ms=4, alpha=0.7, label=e)
lims = np.array([1e-9, 1])
ax.loglog(lims, lims, "k-", lw=1, label="bound = worst bias")
ax.set(xlabel=r"certified bound $|\Delta_J p_t| / 2^{k+1}$",
       ylabel=r"$\max$ over corners of |bias|", title="Worst corner bias vs the certified bound")
ax.legend(fontsize=8)
plt.show()


# %% [markdown]
# Every point lies above the diagonal, as it must. The bound is loose for all four estimators, by several
# orders of magnitude at large $k$: it certifies "not zero" for any estimator, while these four are far from
# the best one can do. The next section measures the best one can do.
#
# ### Every estimator at once: the linear program (the test)
#
# For each $(n, k)$ with $k\le n-2$ and each of two logit-free samplers, we solve for the estimator with the
# smallest worst-case bias on the grid $V^n$, over every function of what the sample shows. The same program
# is run on the three samplers outside the theorem's hypothesis, which must let it reach zero.

# %%
grid_values = np.sort(P.sigma * P.rng.normal(size=P.grid_size))
SAMPLERS = {
    "uniform, without replacement": lambda n, k: K.logit_free_sampler(K.uniform_design(n, TARGET, k)),
    "Zipf, with replacement": lambda n, k: K.logit_free_sampler(
        K.multinomial_design(K.zipf_proposal(n, TARGET), TARGET, k)),
}
UNIFORM = "uniform, without replacement"
lp_cases = [(n, k) for n in P.lp_ns for k in range(1, n - 1)]
# the counted programs (uniform sampler) carry the dual certificate; the Zipf ones only show an identity
lp = {(s, n, k): K.min_worst_case_bias(grid_values, n, TARGET, make(n, k), certify=s == UNIFORM)
      for s, make in progress(SAMPLERS.items(), desc="linear programs") for n, k in lp_cases}
WRONG = {  # outside the hypothesis: the program must reach zero
    "every-class": lambda n: SAMPLERS[UNIFORM](n, n - 1),
    "may-cover": lambda n: SAMPLERS["Zipf, with replacement"](n, n - 1),
    "reads-logits": lambda n: K.softmax_draw_sampler(TARGET),
}
lp_wrong = {(w, n): K.min_worst_case_bias(grid_values, n, TARGET, make(n), certify=False)
            for w, make in WRONG.items() for n in P.lp_ns}
# inside the hypothesis, same grid, same (n, k), same sampler, but a target that IS a function of the sample's
# expectation (that of the plain sampled softmax): the program must reach zero; and a random target on the grid
lp_estimable, lp_random = {}, {}
for n, k in lp_cases:
    grid_logits = K.product_grid(grid_values, n)[1]
    lp_estimable[n, k] = K.min_worst_case_bias(grid_values, n, TARGET, SAMPLERS[UNIFORM](n, k), certify=False,
                                               estimand=K.exact_expectations(grid_logits, TARGET, k, None)["plain"])
    p_grid = K.softmax_prob(grid_logits, TARGET)
    lp_random[n, k] = K.min_worst_case_bias(grid_values, n, TARGET, SAMPLERS[UNIFORM](n, k), certify=False,
                                            estimand=p_grid.max() * P.rng.uniform(size=len(p_grid))).value
# the classical estimators' worst bias on the same grid, and the certified bound on the two-value grid
# ("centred": the same estimator minus the constant that balances its largest over- and underestimate on the grid)
classical_worst, centred_worst, lp_two, bound_two = {}, {}, {}, {}
for n, k in lp_cases:
    b = K.exact_biases(K.product_grid(grid_values, n)[1], TARGET, k, K.zipf_proposal(n, TARGET))
    classical_worst[n, k] = {e: float(np.abs(v).max()) for e, v in b.items()}
    centred_worst[n, k] = {e: float((v.max() - v.min()) / 2) for e, v in b.items()}
    two = grid_values[[0, -1]]
    lp_two[n, k] = K.min_worst_case_bias(two, n, TARGET, SAMPLERS[UNIFORM](n, k), certify=False).value
    bound_two[n, k] = K.grid_certified_bound(two, n, TARGET, k)

lp_min_case = min(lp_cases, key=lambda c: lp[UNIFORM, c[0], c[1]].lower)
lp_min = lp[UNIFORM, lp_min_case[0], lp_min_case[1]].lower  # certified: no estimator does better, whatever the solver's tolerances
lp_min_upper = lp[UNIFORM, lp_min_case[0], lp_min_case[1]].achieved  # an estimator with this worst bias exists
print(f"grid values {np.round(grid_values, 3)}; smallest optimum over every (n, k <= n-2), uniform sampler: "
      f"in [{lp_min:.6e}, {lp_min_upper:.6e}] at n = {lp_min_case[0]}, k = {lp_min_case[1]}")
print("n  k  optimum (uniform)  optimum (Zipf)  best classical  (which)   two-value grid / bound   "
      "estimable target  random target")
for n, k in lp_cases:
    best = min(classical_worst[n, k], key=classical_worst[n, k].get)
    print(f"{n:<3}{k:<3}{lp[UNIFORM, n, k].value:>17.3e}{lp['Zipf, with replacement', n, k].value:>16.3e}"
          f"{classical_worst[n, k][best]:>16.3e}  ({best:>7})  {lp_two[n, k] / bound_two[n, k]:>9.3f}"
          f"{lp_estimable[n, k].achieved:>27.1e}{lp_random[n, k]:>15.3e}")
for w in WRONG:
    print(f"outside the hypothesis, {w}: an estimator with worst bias {max(lp_wrong[w, n].achieved for n in P.lp_ns):.1e} "
          "exists (largest over n)")
print(f"dual certificates: largest residual max|A^T y| / sum|y| = "
      f"{max(lp[UNIFORM, n, k].dual_residual for n, k in lp_cases):.1e}")

# %%
fig, axes = plt.subplots(1, len(P.lp_ns), figsize=(3.4 * len(P.lp_ns), 3.5), sharey=True)
for ax, n in zip(np.atleast_1d(axes), P.lp_ns):
    ks = np.arange(1, n - 1)
    ax.semilogy(ks, [lp[UNIFORM, n, k].value for k in ks], "k-o", lw=2,
                label="best estimator, uniform sampler")
    ax.semilogy(ks, [lp["Zipf, with replacement", n, k].value for k in ks], "x", color="C3", ms=9,
                label="best estimator, Zipf with replacement")
    ax.semilogy(ks, [min(classical_worst[n, k].values()) for k in ks], "s--", color="C0", mfc="white",
                label="best of plain, log-Q, plug-in")
    ax.semilogy(ks, [min(centred_worst[n, k].values()) for k in ks], "s-.", color="C1", mfc="white",
                label="the same, centred by a constant")
    ax.semilogy(ks, [bound_two[n, k] for k in ks], "v:", color="0.4", label="certified bound, two-value grid")
    ax.semilogy(ks, [max(lp_estimable[n, k].achieved, 1e-12) for k in ks], "P", color="C4", mfc="white",
                label="uniform sampler, estimable target (0 drawn at $10^{-12}$)")
    for dx, (w, m) in zip((-0.12, 0, 0.12), zip(WRONG, "^D*")):
        ax.semilogy([n - 1 + dx], [max(lp_wrong[w, n].achieved, 1e-12)], m, color="C2", mfc="white",
                    label=f"outside the hypothesis: {w} (0 drawn at $10^{{-12}}$)")
    ax.axhline(1e-6, color="0.5", lw=1, ls=":")
    ax.set(title=f"n = {n} classes, {P.grid_size}^{n} grid", xlabel="sampled negatives k", xticks=np.arange(1, n),
           ylim=(5e-13, 1))
np.atleast_1d(axes)[0].set_ylabel(r"worst |bias| on the grid")
np.atleast_1d(axes)[0].text(0.05, 1.5e-6, "threshold $10^{-6}$", fontsize=8, color="0.3",
                            transform=np.atleast_1d(axes)[0].get_yaxis_transform())
handles, labels = np.atleast_1d(axes)[-1].get_legend_handles_labels()
fig.legend(handles, labels, fontsize=7, loc="upper center", ncol=3, bbox_to_anchor=(0.5, 0.0))
plt.show()

# %% [markdown]
# No estimator reaches zero. With the uniform sampler, the smallest worst-case bias that any function of the
# sample can reach, over every $n$ and every $k\le n-2$, lies between {glue:text}`lp_min:.4e` and
# {glue:text}`lp_min_upper:.4e` on this seed's grid (values {glue:text}`grid_lo:.2f`, {glue:text}`grid_mid:.2f`,
# {glue:text}`grid_hi:.2f`). The lower end is certified: the solver's dual weights $y$ satisfy $A^\top y=0$ to
# rounding (largest residual {glue:text}`dual_residual_txt`), and our own arithmetic turns them into a bound
# that pays for that residual, so no table does better whatever the solver's tolerances. The upper end is an
# estimator the solver found, re-evaluated. The optimum falls with $k$ but stays far from zero up to $k=n-2$.
#
# The Zipf sampler with replacement gives the same optimum (largest relative difference
# {glue:text}`sampler_gap:.0e`). That is an identity, not a second measurement: when every $k$-subset can occur,
# the expectations an estimator can produce are exactly the sums of functions of $k$ negatives, whatever the
# sampler's weights. The same reasoning gives a stronger statement. Any logit-free sampler that never shows all
# $n-1$ negatives (whatever its law, its sample sizes or its repeated draws) produces expectations that are sums
# of functions of at most $n-2$ negatives, and the uniform sampler with $k=n-2$ can produce every such sum. So
# the uniform optimum at $k=n-2$ bounds from below the worst-case bias of every such sampler on the grid.
#
# The program is not blind to unbiased estimators inside the hypothesis. On the same grid, with the same
# sampler and the same $(n,k)$, replace $p_t$ by a function that some estimator does have as its expectation
# (that of the plain sampled softmax): the solver then finds an estimator whose worst bias is at most
# {glue:text}`estimable_txt`, over every $(n,k)$. It also reaches zero outside the hypothesis: the solver's
# estimator has a worst bias of at most {glue:text}`wrong_every_txt` when the sampler shows every class,
# {glue:text}`wrong_cover_txt` with $n-1$ draws with replacement, and {glue:text}`wrong_reads_txt` when the
# sampler reads the logits. What a positive optimum says is that $p_t$ is not such a function. Most functions are
# not: a random target on the grid (uniform between 0 and the largest $p_t$) keeps an optimum of at least
# {glue:text}`random_min:.2f`. The test adds that the softmax is one of them, and how far away it is.
#
# The best estimator on the grid does better than the classical ones: the best of plain, log-Q and plug-in
# has {glue:text}`classical_ratio_k1:.1f` times the optimal worst-case bias at $k=1$ and
# {glue:text}`classical_ratio_kmax:.1f` times at $k=n-2$ (largest $n$, this seed's grid). Part of that is only
# centring: the ratio estimators overestimate $p_t$ everywhere, and subtracting the constant that balances their
# largest over- and underestimate on the grid leaves {glue:text}`centred_ratio_k1:.2f` and
# {glue:text}`centred_ratio_kmax:.1f` times the optimum. The $k=1$ numbers are structural, not a finding. The best
# classical estimator there is the plug-in, which is exact wherever all negatives share a value (then
# $\hat Z=Z$), so its smallest bias on the grid is zero and centring halves its worst bias: hence the factor 2.
# The centred plug-in then matches the optimum; the reviewer found both factors at every seed 0-9 and for both
# $n$. The $k=n-2$ factors depend on the grid (next subsection). Both the optimum and the constant are fitted to
# the grid, so neither is a practical estimator. They show that the bias that must remain can be well below
# what the usual corrections leave. On the two-value grid $\{\min V,\max V\}^n$ the certified bound of the
# previous section is exactly the optimum at $k=n-2$ (largest relative gap {glue:text}`two_gap:.0e`), and
# {glue:text}`two_ratio_k1:.1f` times below it at $k=1$.
#
# ### What the threshold means on this program: the grid must not be too narrow
#
# The threshold $10^{-6}$ is the one our design notes (the brief) set for their first check, the bias of the
# four estimators on random logits. Using it for the program's optimum was decided post hoc, when the program
# was designed on seeds 0-9; it is not moved now. On this program it does not separate zero from non-zero: the
# optimum is positive for every grid whose values differ. What it sets is how wide the grid must be. The counted
# value is at least the optimum on the two-value grid $\{\min V,\max V\}^n$ (fewer points to serve), and at
# $k=n-2$ that optimum is the certified bound, a closed form in the grid's range $R=\max V-\min V$ that grows
# like $R^{n-1}$. Below we solve for the range at which it leaves the threshold's band, and measure the
# program on grids $\{0, R/2, R\}$.

# %%
from scipy.optimize import brentq
from scipy.stats import binom

LP_TOL = Tolerance(rel=1e-4, abs=1e-7, why="an LP optimum bracketed by HiGHS's dual weights (checked by us) and its "
                                          "estimator: its last digits depend on the solver's path; values below 1e-7 "
                                          "(HiGHS's default feasibility tolerance) are recorded as zero")
edge_value = brentq(lambda x: x - 1e-6 - LP_TOL.slack(x, 1e-6), 1e-6, 1e-5)  # above it the value passes
n_top = max(P.lp_ns)


def two_value_floor(R):
    """Lower bound on the counted value for any grid of range R: the certified bound on {0, R}^n at k = n-2."""
    return min(K.grid_certified_bound([0.0, R], n, TARGET, n - 2) for n in P.lp_ns)


R_edge = brentq(lambda R: two_value_floor(R) - edge_value, 1e-3, 20.0)
R_grid = float(grid_values[-1] - grid_values[0])
p_seed = K.normal_range_cdf(R_edge, P.grid_size, P.sigma)  # chance that a seed's grid is that narrow
p_ten = 1 - (1 - p_seed) ** 10  # at least one of ten confirmation seeds
p_test = binom.sf(2, 10, p_seed)  # three or more of ten: the test (8 of 10 seeds) would not hold
R_sweep = np.array([0.3, 0.5, 1.0, 2.0, 4.0, 6.0])
sweep_opt, sweep_ratio, sweep_centred = [], [], []
for R in progress(R_sweep, desc="grid ranges"):
    v = np.array([0.0, R / 2, R])
    sweep_opt.append(K.min_worst_case_bias(v, n_top, TARGET, SAMPLERS[UNIFORM](n_top, n_top - 2), certify=False).value)
    b = K.exact_biases(K.product_grid(v, n_top)[1], TARGET, n_top - 2, K.zipf_proposal(n_top, TARGET))
    sweep_ratio.append(min(np.abs(x).max() for x in b.values()) / sweep_opt[-1])
    sweep_centred.append(min((x.max() - x.min()) / 2 for x in b.values()) / sweep_opt[-1])
print(f"a value passes above {edge_value:.4e}; the two-value floor reaches it at R = {R_edge:.3f}; "
      f"P(range of {P.grid_size} N(0, {P.sigma:g}^2) draws < R) = {p_seed:.4f}; over ten seeds: {p_ten:.3f}; "
      f"three or more of ten: {p_test:.1e}; this seed's grid R = {R_grid:.2f}")
print(f"n = {n_top}, k = {n_top - 2} on grids {{0, R/2, R}}:")
print("R      optimum     best classical / optimum   centred / optimum")
for R, o, c, cc in zip(R_sweep, sweep_opt, sweep_ratio, sweep_centred):
    print(f"{R:<7.2f}{o:<12.3e}{c:>14.1f}{cc:>24.1f}")

# %%
fig, (ax, ax2) = plt.subplots(1, 2, figsize=(9.6, 3.6))
Rs = np.geomspace(0.1, 8, 60)
ax.loglog(Rs, [two_value_floor(R) for R in Rs], "-", color="0.4",
          label=r"floor: certified bound on $\{0,R\}^n$, $k=n-2$")
ax.loglog(R_sweep, sweep_opt, "ko", label=rf"optimum on $\{{0,R/2,R\}}^{{{n_top}}}$, $k={n_top - 2}$")
ax.loglog([R_grid], [lp_min], "*", color="C3", ms=12, label="this seed's grid (counted value)")
ax.axhline(1e-6, color="0.5", lw=1, ls=":")
ax.axvline(R_edge, color="C0", lw=1, ls="--", label=f"R = {R_edge:.2f}: leaves the threshold's band")
ax.set(xlabel="grid range R = max V - min V (logit units)", ylabel="worst |bias| of the best estimator",
       title="The counted value against the grid's range")
ax.legend(fontsize=7, loc="upper left")
ax2.loglog(R_sweep, sweep_ratio, "s--", color="C0", mfc="white", label="best of plain, log-Q, plug-in")
ax2.loglog(R_sweep, sweep_centred, "s-.", color="C1", mfc="white", label="the same, centred")
ax2.set(xlabel="grid range R (logit units)", ylabel="worst |bias| / optimum",
        title=f"Classical estimators against the optimum, n = {n_top}, k = {n_top - 2}")
ax2.set_xticks(R_sweep, [f"{R:g}" for R in R_sweep])
ax2.minorticks_off()
ax2.legend(fontsize=8)
plt.show()

# %% [markdown]
# On this seed's grid ($R=${glue:text}`R_grid:.2f`) the counted value sits far above the threshold. Only a grid
# narrower than $R=${glue:text}`R_edge:.2f` can land in the threshold's band or below it (the floor is nearly
# tight: the three-value optimum is close to it, left panel), and three values drawn from
# $\mathcal N(0,\sigma^2)$ have a range that small with probability {glue:text}`p_seed_pct:.1f` %. So, stated
# before the confirmation seeds 10-19 are run: there is a chance of about {glue:text}`p_ten_pct:.0f` % (at most)
# that at least one of them is "at the edge" or "not reproduced" because its grid is narrow. Such a seed would
# say nothing about the theorem, whose optimum is positive for every $R>0$. The test holds at 8 of 10 seeds, so
# it would take three narrow grids to fail it (probability {glue:text}`p_test:.0e`). The right panel shows that the classical
# estimators' factors at $k=n-2$ depend on the grid: from {glue:text}`sweep_ratio_hi:.0f` times the optimum
# (centred {glue:text}`sweep_centred_hi:.0f`) on the narrowest of these grids wider than one logit unit to {glue:text}`sweep_ratio_lo:.1f`
# (centred {glue:text}`sweep_centred_lo:.1f`) on the widest ($R=${glue:text}`sweep_R_narrow:.0f` and
# {glue:text}`sweep_R_wide:.0f`). The factors quoted above for this seed's grid are one point of that curve.
#
# ### Roles of the checks
#
# * **Counted test.** `no-unbiased-estimator-on-a-grid`: the linear program above, with the uniform sampler, a
#   theorem test whose measured side (the certified optimum over every estimator) could refute the theorem.
#   Its deliberately wrong inputs must bring it to zero: three samplers outside the hypothesis, and the
#   estimable target inside it (same grid, sampler and $(n,k)$). It was added after the page first ran, and
#   mended after the independent review, both on seeds 0-9, so it is post hoc. The confirmation sweep on seeds
#   10-19, run from the commit that froze it, judges it {repro-status}`no-unbiased-estimator-on-a-grid`, so it
#   counts.
# * **Illustrations** (shown, not counted): the four estimators' bias on random logits (prior work, and one
#   trained network), and the two finite-difference checks (our own argument, checked with our own code).
# * **Implementation checks:** the plain and plug-in estimators are exact at $k=n-1$; every estimator's worst
#   corner bias respects the certified bound; the program's optimum equals the certified bound at $k=n-2$ on
#   the two-value grid (two independent computations of the same number, and an identity: there the
#   estimators' complement is spanned by one full difference per value of $o_t$, with disjoint supports); the
#   dual certificate and the solver's estimator bracket every counted optimum tightly. Further identities (the
#   plain estimator overestimates $p_t$ pointwise, its bias does not increase with $k$, the Zipf sampler's
#   optimum equals the uniform one) are unit tests in `tests/papers/test_sampled_softmax_bias.py`.

# %%
below = [(n, k) for n, k in cases if k <= n - 2]
full_k = [(n, n - 1) for n in P.ns]
claims.headline(
    "every-sampled-estimator-is-biased",
    "Every function that reads only a sampled subset of the classes is a biased estimator of the softmax, "
    "whatever correction it applies",
    tests=["no-unbiased-estimator-on-a-grid"])
claims.headline(
    "bias-reduction-is-the-best-one-can-do",
    "So the search for an unbiased sampled loss is futile, and reducing the bias (as past work did, through better "
    "sampling) is the best one can do",
    untestable="a conclusion about where research effort should go, drawn from the first claim: no measurement "
               "separates it from that claim. The page shows how much bias the best possible estimator keeps on "
               "a grid (the linear program's optimum), which the paper's conclusion does not quantify, and that "
               "this optimum is reached by a better function of the same sample, not by better sampling: at "
               "k = n-2 it is several times below what the classical corrections keep")
estimable_max = float(max(lp_estimable[c].achieved for c in lp_cases))
claims.test(
    "no-unbiased-estimator-on-a-grid", kind="theorem",
    statement=f"Smallest, over n in {list(P.lp_ns)} and k <= n-2, of the certified lower bound (the solver's dual "
              f"weights, checked by us) on min over EVERY estimator of its worst |bias| on the grid V^n of "
              f"{P.grid_size} logit values drawn from N(0, {P.sigma:g}^2); sampler: k distinct negatives, uniform. "
              f"At k = n-2 this bounds every logit-free sampler that never shows all n-1 negatives",
    paper="Theorem (abstract): all functions that only access a sampled subset of classes must be biased",
    criterion=greater_than(1e-6), measured=float(lp_min), tol=LP_TOL,
    independent="a linear program (HiGHS) over the whole table of an estimator on a product grid of logits: "
                "it does not use our finite-difference argument, and an unbiased estimator would give it zero",
    wrong_inputs=[
        Comparator("k = n-1 distinct negatives: the sampler shows every class (worst bias of the solver's "
                   "estimator, largest over n)",
                   float(max(lp_wrong["every-class", n].achieved for n in P.lp_ns))),
        Comparator("k = n-1 Zipf draws with replacement: every class can appear, with a small probability",
                   float(max(lp_wrong["may-cover", n].achieved for n in P.lp_ns))),
        Comparator("a sampler that reads every logit: one class drawn from the softmax itself",
                   float(max(lp_wrong["reads-logits", n].achieved for n in P.lp_ns))),
        Comparator("inside the hypothesis: same grid, sampler and (n, k <= n-2), target replaced by an estimable "
                   "function (E_S of the plain sampled softmax); largest over n and k", estimable_max),
    ],
    post_hoc="added in the re-grading of issue 34, after the page first ran, because the earlier checks were our "
             "own derivation or prior work; mended after the independent review (value now the dual-certified "
             "lower bound, the Zipf sampler's identical optimum left out of the minimum, a fourth wrong input "
             "inside the hypothesis); threshold and grid unchanged; designed on seeds 0-9 only")
claims.illustrate(
    "biased-for-every-k-below-n-1",
    statement="For every n and every k <= n-2, each of the four estimators (plain, log-Q, plug-in, learned) has "
              "non-zero exact bias on the random logit vectors (smallest, over estimators, n and k, of the "
              "largest |bias|)",
    paper="Theorem (abstract): every function of a sampled subset of classes is biased",
    criterion=greater_than(1e-6),
    measured=float(min(np.abs(bias[c][e]).max() for c in below for e in K.ESTIMATORS)),
    why="the three ratio estimators are known to be biased (prior work; Jensen's inequality), and one trained "
        "network being biased says nothing about every function")
claims.illustrate(
    "fd-annihilates-every-expectation",
    statement="The order-(k+1) mixed finite difference of E_S f is zero (|.| < 1e-10) for all four estimators "
              "at every base point (number of violations)",
    paper="Our proof mechanism (the paper's proof was not available)",
    criterion=at_most(0), measured=int(sum((np.abs(fd_est[c]) >= TOL).sum() for c in fd_cases)),
    why="our own derivation checked with our own code: the difference of order k+1 vanishes for any function "
        "that ignores one of the k+1 coordinates, whatever the paper says")
claims.illustrate(
    "fd-softmax-nonzero",
    statement="The same difference of the softmax p_t is non-zero by that tolerance (smallest |difference| over "
              "n, k and base points)",
    paper="Our proof mechanism: the mixed derivative (-1)^m m! p_t prod p_j never vanishes",
    criterion=greater_than(TOL), measured=float(min(np.abs(fd_soft[c]).min() for c in fd_cases)),
    why="a closed form of ours (the mixed derivative) evaluated at preset sizes; the threshold was lowered from "
        "the design notes' 1e-3 to 1e-10 before the first run")
claims.check(
    "exact-when-k-is-n-1", kind="implementation",
    statement="With k = n-1 the plain and plug-in estimators see every class and are exactly unbiased "
              "(number of logit vectors with |bias| > 1e-12)",
    paper="Implied: the bias comes from not seeing all classes.",
    criterion=at_most(0),
    measured=int(sum((np.abs(bias[n, n - 1][e]) > 1e-12).sum() for n in P.ns for e in ("plain", "plug-in"))))
claims.check(
    "certified-bound-respected", kind="implementation",
    statement="For every estimator the largest |bias| over the 2^(k+1) corners is at least "
              "|Delta p_t| / 2^(k+1) (number of violations)",
    paper="Our quantitative form of the theorem.",
    criterion=at_most(0),
    measured=int(sum((worst[c] < bound[c][:, None]).sum() for c in fd_cases)))
two_gap = max(abs(lp_two[n, n - 2] / bound_two[n, n - 2] - 1) for n in P.lp_ns)
claims.check(
    "lp-equals-certified-bound-at-k-n-2", kind="implementation",
    statement="On the two-value grid {min V, max V}^n with k = n-2, the linear program's optimum equals the "
              "largest certified bound |Delta_J p_t| / 2^(n-1) (largest relative gap over n)",
    paper="Our quantitative form of the theorem, against an independent solver",
    criterion=at_most(1e-6), measured=float(two_gap),
    tol=Tolerance(rel=1e-4, abs=1e-8, why="a ratio of an LP optimum to a closed form: solver round-off"))
claims.check(
    "lp-optimum-bracketed", kind="implementation",
    statement="For every counted program (uniform sampler, every n and k <= n-2), the dual certificate's lower "
              "bound and the solver's estimator (HiGHS at feasibility tolerance 1e-10) bracket the optimum to a "
              "relative 1e-6 (number of programs where they do not, or where the bound exceeds the estimator's "
              "worst bias)",
    paper="Weak duality of linear programming; makes the counted value independent of the solver's tolerances",
    criterion=at_most(0),
    measured=int(sum(not (0 < lp[UNIFORM, n, k].lower <= lp[UNIFORM, n, k].achieved <= lp[UNIFORM, n, k].lower
                          * (1 + 1e-6)) for n, k in lp_cases)));

# %%
def small(x):
    """A value that is zero to rounding, for the prose: "0" when exactly zero, else one significant digit."""
    return "0" if x == 0 else f"{x:.0e}"


top = lp[UNIFORM, n_top, n_top - 2].value
wide = R_sweep >= 1  # the sweep's grids at least as wide as one logit unit
glue("lp_min", float(lp_min), display=False)
glue("lp_min_upper", float(lp_min_upper), display=False)
glue("dual_residual_txt", small(max(lp[UNIFORM, n, k].dual_residual for n, k in lp_cases)), display=False)
glue("grid_lo", float(grid_values[0]), display=False)
glue("grid_mid", float(grid_values[1]), display=False)
glue("grid_hi", float(grid_values[-1]), display=False)
glue("sampler_gap", float(max(abs(lp["Zipf, with replacement", n, k].value / lp[UNIFORM, n, k].value - 1)
                              for n, k in lp_cases)), display=False)
glue("estimable_txt", small(estimable_max), display=False)
glue("wrong_every_txt", small(max(lp_wrong["every-class", n].achieved for n in P.lp_ns)), display=False)
glue("wrong_cover_txt", small(max(lp_wrong["may-cover", n].achieved for n in P.lp_ns)), display=False)
glue("wrong_reads_txt", small(max(lp_wrong["reads-logits", n].achieved for n in P.lp_ns)), display=False)
glue("random_min", float(min(lp_random.values())), display=False)
glue("classical_ratio_k1", float(min(classical_worst[n_top, 1].values()) / lp[UNIFORM, n_top, 1].value), display=False)
glue("classical_ratio_kmax", float(min(classical_worst[n_top, n_top - 2].values()) / top), display=False)
glue("centred_ratio_k1", float(min(centred_worst[n_top, 1].values()) / lp[UNIFORM, n_top, 1].value), display=False)
glue("centred_ratio_kmax", float(min(centred_worst[n_top, n_top - 2].values()) / top), display=False)
glue("plain_ratio_kmax", float(classical_worst[n_top, n_top - 2]["plain"] / top), display=False)
glue("R_grid", R_grid, display=False)
glue("R_edge", float(R_edge), display=False)
glue("p_seed_pct", 100 * float(p_seed), display=False)
glue("p_ten_pct", 100 * float(p_ten), display=False)
glue("p_test", float(p_test), display=False)
glue("sweep_R_narrow", float(R_sweep[wide][0]), display=False)
glue("sweep_R_wide", float(R_sweep[wide][-1]), display=False)
glue("sweep_ratio_hi", float(np.array(sweep_ratio)[wide][0]), display=False)
glue("sweep_centred_hi", float(np.array(sweep_centred)[wide][0]), display=False)
glue("sweep_ratio_lo", float(np.array(sweep_ratio)[wide][-1]), display=False)
glue("sweep_centred_lo", float(np.array(sweep_centred)[wide][-1]), display=False)
glue("two_gap", float(two_gap), display=False)
glue("two_ratio_k1", float(max(lp_two[n, 1] / bound_two[n, 1] for n in P.lp_ns)), display=False)
glue("lp_top_kmax", float(top), display=False)
glue("n_top", int(n_top), display=False)
glue("lp_n_lo", int(min(P.lp_ns)), display=False)
glue("lp_unknowns_max", int(max(r.unknowns for r in lp.values())), display=False)
glue("lp_grid_max", int(max(r.grid_points for r in lp.values())), display=False)
glue("bias_min", float(min(np.abs(bias[c][e]).max() for c in below for e in K.ESTIMATORS)), display=False)
glue("bias_full_k", float(max(np.abs(bias[c][e]).max() for c in full_k for e in ("plain", "plug-in"))), display=False)
glue("fd_soft_min", float(min(np.abs(fd_soft[c]).min() for c in fd_cases)), display=False)
glue("fd_est_max", float(max(np.abs(fd_est[c]).max() for c in fd_cases)), display=False)
glue("fd_order_k_count", int(sum((np.abs(fd_order_k[c]) >= TOL).sum() for c in fd_cases)), display=False)
glue("fd_order_k_total", int(sum(fd_order_k[c].size for c in fd_cases)), display=False)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# The page has one counted test, and it is post hoc: the linear program over every estimator
# ({repro-status}`no-unbiased-estimator-on-a-grid`). On this seed's grid, with a uniform sampler of $k$
# negatives, no function of the sample has a worst-case bias below {glue:text}`lp_min:.2e` for any vocabulary
# size and any $k\le n-2$, a bound certified by the program's dual and far above the threshold $10^{-6}$. At
# $k=n-2$ the same bound holds for every logit-free sampler that never shows all negatives. The program is able
# to find an unbiased estimator where one exists: on the same grid and sampler, with $p_t$ replaced by a
# function that is the expectation of an estimator, it reaches zero (at most {glue:text}`estimable_txt`), and it
# reaches zero on the three samplers outside the hypothesis. So the positive optimum is a property of the
# softmax, not a blind spot of the program. The threshold, applied post hoc, only asks that the grid not be
# very narrow: at most about {glue:text}`p_seed_pct:.1f` % of seeds draw a grid narrow enough to put the value in
# doubt, for reasons unrelated to the theorem (previous section). The test was then run on the confirmation
# seeds 10-19 from a frozen commit and held at every one of them (the judged table's confirmation column), so it
# counts towards the badge.
#
# In our formalisation (a sampler that ignores the logits and never shows every negative, an estimator that
# sees only the target and what the sample shows) the paper's claim holds, for a transparent reason: averaging
# over subsets of $k$ negatives produces a sum of functions of $k$ negative logits at a time, while the softmax
# couples all of them. That reason is also why the program's answer could be foreseen: it refutes or confirms
# our formalisation on a grid, not the paper's theorem, whose exact statement we did not have. The earlier
# checks of this page are now illustrations: the bias of the four estimators
# on random logits (smallest largest-bias {glue:text}`bias_min:.3f`, against at most
# {glue:text}`bias_full_k:.0e` for plain and plug-in at $k=n-1$) was known or says nothing about other
# functions, and the finite-difference checks test our own argument with our own code.
#
# The linear program adds something the abstract does not say: the bias that must remain can be well below
# the bias of the usual estimators. At $k=n-2$ with $n=${glue:text}`n_top`, on this seed's grid, the best
# estimator keeps a worst-case bias of {glue:text}`lp_top_kmax:.1e`, while the best of plain, log-Q and plug-in
# keeps {glue:text}`classical_ratio_kmax:.1f` times as much ({glue:text}`centred_ratio_kmax:.1f` times once
# centred by a constant) and plain sampled softmax {glue:text}`plain_ratio_kmax:.0f` times as much. These
# factors depend on the grid: on the grids $\{0,R/2,R\}$ of the previous section they run from
# {glue:text}`sweep_ratio_hi:.0f` at $R=${glue:text}`sweep_R_narrow:.0f` to {glue:text}`sweep_ratio_lo:.1f` at
# $R=${glue:text}`sweep_R_wide:.0f`. At $k=1$ there is no such gap beyond centring: the factors
# {glue:text}`classical_ratio_k1:.1f` and {glue:text}`centred_ratio_k1:.2f` are structural, not a finding.
# "Biased" is not the same as "no better than what we have": at larger $k$, in our small setting, a different
# function of the same sample (not a better sampler) lowers the worst-case bias on the grid it was fitted to.
# There were no numbers in the paper to compare.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page, its
# record, the brief and the ci sweep over seeds 0-9. They rebuilt the grids of seeds 0-9 and solved the program
# again with an estimable target and with random targets, checked the solver's dual weights as a certificate,
# compared the classical estimators with the optimum at every seed, and estimated how often a grid is too narrow
# for the threshold, with grids from a separate random stream (not seeds 10-19). What they found is now measured
# by this notebook at this seed:
#
# * *Is the program able to find an unbiased estimator inside the hypothesis?* The page's first wrong inputs
#   were all outside it, each with an unbiased estimator built by hand. The reviewer replaced $p_t$ by an
#   estimable function on the same grid, sampler and $(n,k)$, and the program reached zero; it is now the fourth
#   wrong input (at most {glue:text}`estimable_txt` here). Outside the hypothesis: with every class shown, at
#   most {glue:text}`wrong_every_txt`; with $n-1$ draws with replacement, which show every class with a small
#   probability (weight that outcome by the inverse of its probability), {glue:text}`wrong_cover_txt`; with a
#   sampler that draws one class from the softmax and an estimator that checks whether it is the target,
#   {glue:text}`wrong_reads_txt`. The second case shows that what the theorem needs is a sampler that never
#   shows every negative, not sampling as such.
# * *Is a positive optimum special to the softmax?* No: a random target on the grid keeps an optimum of at
#   least {glue:text}`random_min:.2f`. A positive optimum says that $p_t$ is not a sum of functions of $k$
#   negatives, which is true of almost every function; it could be foreseen from our own argument.
# * *Does the pass rest on the solver's tolerance?* No: the solver's dual weights certify the lower end of
#   {glue:text}`lp_min:.4e`–{glue:text}`lp_min_upper:.4e` (largest residual {glue:text}`dual_residual_txt`,
#   paid for in the bound), and the counted value is that lower end.
# * *Does the threshold separate zero from non-zero?* No. It was taken from the brief's first check post hoc,
#   and on this program it asks for a grid range above {glue:text}`R_edge:.2f`, which a seed misses with
#   probability {glue:text}`p_seed_pct:.1f` % ({glue:text}`p_ten_pct:.0f` % that at least one of the ten
#   confirmation seeds does). The threshold and the grid's law are unchanged: moving them now would be tuning.
# * *Does the result depend on the sampler?* The Zipf sampler with replacement gives the uniform sampler's
#   optimum to a relative {glue:text}`sampler_gap:.0e`, an identity (both can produce every $k$-subset), so it
#   was dropped from the counted minimum. What does hold for other samplers: at $k=n-2$ the uniform optimum
#   bounds every logit-free sampler that never shows all negatives.
# * *Are the classical corrections close to the best possible?* At $k=1$, after centring, yes, exactly: the
#   factors {glue:text}`classical_ratio_k1:.1f` and {glue:text}`centred_ratio_k1:.2f` came out the same at every
#   seed the reviewer tried, because the plug-in is exact where the negatives tie. At $k=n-2$ no, by a factor
#   that depends on the grid ({glue:text}`classical_ratio_kmax:.1f` here, {glue:text}`sweep_ratio_hi:.0f` to
#   {glue:text}`sweep_ratio_lo:.1f` across grid ranges).
# * *Is the program just our finite-difference argument in disguise?* Not as a computation: it knows nothing of
#   differences. On the two-value grid the certified bound is the optimum at $k=n-2$ (relative gap
#   {glue:text}`two_gap:.0e`), an identity as the reviewer noted, and {glue:text}`two_ratio_k1:.1f` times
#   smaller than the optimum at $k=1$: the argument's bound is tight where the sample misses a single class, and
#   loose below that here.
# * *Would random logit vectors do instead of a grid?* No: two random logit vectors never share a sample's
#   values, so a table can fit each one separately and the optimum is zero by construction. The grid forces one
#   function to serve many logit vectors at once, which is what "unbiased" means. Its size is the limit: the
#   largest program here has {glue:text}`lp_unknowns_max` unknowns on {glue:text}`lp_grid_max` grid points.
# * *Does the older mechanism check fail when it should?* A difference of order $k$ instead of $k+1$ leaves
#   {glue:text}`fd_order_k_count` of its {glue:text}`fd_order_k_total` values above $10^{-10}$. It remains an
#   illustration: it checks our argument, not the paper's claim.
#
# ## What the miniature cannot show
#
# The program settles the claim, in our formalisation, only for the vocabularies this run solves
# ($n=${glue:text}`lp_n_lo` to {glue:text}`n_top`; the full preset adds $n=7$) and their grids; the
# finite-difference argument covers every $n$, but it is ours, not the paper's proof, which we did not have.
# We did not cover samplers that depend on the logits in
# cheaper ways than the full softmax (for example through a small model of the logits), estimators that see
# more than the sampled logits, or the size of the bias in a trained model. Whether the paper's theorem makes
# the same assumptions (what the estimator sees, whether the sampler may read the logits, with or without
# replacement) we could not check. The grid optimum is a worst case over a grid, not an estimator one could use
# on real logits, so the gap between it and the classical estimators says that the theorem leaves room for
# better estimators, not how to build them.
#
# **What was hard.** Making the numerical check say something about *every* estimator. Checking our own
# finite-difference argument only checked our algebra; checking the classical estimators only repeated prior
# work. A table of free values on a grid of logits turns "every estimator" into a linear program that a solver
# can settle, and the estimable target on the same grid shows that the program would have found an unbiased
# estimator had there been one.
