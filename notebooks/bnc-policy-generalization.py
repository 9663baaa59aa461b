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
# # Sample complexity of learned branching policies: tree size as a piecewise-constant function of the policy
#
# *The paper's claim, in our words: a branching rule whose scores are piecewise polynomial in its parameters
# induces a tree size that is piecewise constant in them, so the mean tree size on N sample instances
# converges to its expectation uniformly over the rules, at a rate like $\sqrt{\log N/N}$. This page draws
# the mechanism for a one-parameter linear score; it does not test the bound.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue

from repro.claims import Claims, at_most, is_true, tolerance
from repro.papers import bnc_policy_generalization as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    # about 6 s of CPU on one thread, comparison classes included: 64 knapsacks with 10 items
    "ci": dict(n=10, m=2, pool=32, test=32, Ns=(2, 4, 8, 16)),
    # about 1.5-2 min of CPU: 456 knapsacks with 12 items
    "full": dict(n=12, m=2, pool=256, test=200, Ns=(2, 4, 8, 16, 32, 64, 128)),
})
claims = Claims(
    "bnc-policy-generalization",
    title="Generalization Guarantees for Learning Score-Based Branch-and-Cut Policies in Integer Programming",
    authors="Hongyu Cheng, Amitabh Basu",
    paper_url="https://arxiv.org/abs/2505.11636",
    scale=scale, seed=seed,
)
GRID = np.linspace(0.0, 1.0, 201)   # the brief's 201-point grid of mu
GRID2 = np.linspace(0.0, 1.0, 401)  # doubled resolution
MU_DEFAULT = 0.5                    # the untuned default weight (the middle of the family)
SPREAD = tolerance(abs=0.12, why="the slope's own noise: its standard deviation over the design seeds 0-9 was "
                   "about 0.12 in the page's first ci sweep (a log-log fit to four means of noisy differences); a "
                   "slope within that spread of -0.3 is at the edge")

# %% [markdown]
# ## The claim
#
# Branch-and-cut solvers make thousands of small decisions (which node to open next, which cut to add,
# which variable to branch on), each by maximising a score. Learning those scores from a sample of
# instances from one application is now common practice. Cheng and Basu ask how many sample instances are
# needed before the learned policy's average cost (tree size) on the sample is a reliable estimate of
# its expected cost on new instances of the same distribution. Their answer is a bound on the
# pseudo-dimension of the class of cost functions $\theta\mapsto\mathrm{cost}(I,\theta)$ induced by
# policies whose scores are *piecewise polynomial* in the parameters $\theta$. This class includes the linear
# scores studied by Balcan et al. and ReLU networks, and the argument is made for general sequential
# decision problems, of which branch-and-cut is one case. Through standard uniform convergence, a bounded
# pseudo-dimension $d$ gives
#
# $$\sup_\theta\Big|\tfrac1N\textstyle\sum_{i=1}^N\mathrm{cost}(I_i,\theta)-\mathbb E_I\,\mathrm{cost}(I,\theta)\Big|
#   \;\le\; H\cdot O\!\Big(\sqrt{\tfrac{d\log N+\log(1/\delta)}{N}}\Big)$$
#
# with probability $1-\delta$, for costs bounded by $H$.
#
# **What we know of the paper**: its abstract, the reviews, and the arXiv listing
# ([2505.11636](https://arxiv.org/abs/2505.11636)). It is a theory paper with no experiments, so there
# are no numbers to reproduce; the explicit form of its bound (how $d$ depends on the number of pieces,
# the degree, the dimension of $\theta$ and the tree size) was not retrieved, and we found **no official
# code**. Everything below is our numerical illustration of the theorem's mechanism and of its
# consequence on a toy problem, not a check of its constants, and not a test of the bound.
#
# **The paper's headline claims, in our words** (each mapped in the claims table to the checks that bear on it,
# or to why none can):
#
# 1. Learning branch-and-cut policies whose scores are piecewise polynomial in their parameters has bounded
#    pseudo-dimension, so the policies' mean cost on $N$ sample instances converges to their expected cost
#    uniformly over the class (sample-complexity bounds). *Illustrated, not tested*: see the verdict.
# 2. The class covers the linear scores of Balcan et al. and ReLU networks. *Not tested*: we run only the
#    one-parameter linear family, which is the prior-work case.
# 3. The theory covers node, cut and branching scores together, and sequential decision problems beyond
#    branch-and-cut. *Not tested*: we learn only the branching score of a branch-and-bound without cuts.
#
# ## The method
#
# **Problems and solver.** An instance is a binary program $\min c^\top x$ s.t. $Ax\le b$,
# $x\in\{0,1\}^n$. Our own branch-and-bound, `K.branch_and_bound(c, A_ub, b_ub, policy)`, returns
# `(x, objective, n_nodes)`: it solves LP relaxations, opens nodes best-bound first, prunes a node when
# its LP is infeasible, integral or not better than the incumbent, and branches on the fractional
# variable with the highest score. `policy` is a callable mapping the features of the fractional
# candidates to their scores; an infeasible problem returns `x = None` and objective $+\infty$. The tree size
# `n_nodes` (the number of LP relaxations solved) is the cost.
#
# **The policy class.** Each fractional candidate $j$ has two features: its fractionality
# $\phi_{\rm frac}=2\min(x_j,1-x_j)$ and its profit-to-weight ratio $\phi_{\rm ratio}$ (normalised to
# $\le1$ at the node). The score is the one-parameter linear family of the brief
#
# $$ s_\mu(j)=\mu\,\phi_{\rm frac}(j)+(1-\mu)\,\phi_{\rm ratio}(j),\qquad \mu\in[0,1], $$
#
# the simplest case of the paper's piecewise-polynomial scores (one piece, degree 1, one parameter), and the
# case that Balcan et al. had already treated.
#
# **The mechanism, computed exactly.** For a fixed instance, the branching choice at a node changes
# only where two candidates' score lines cross, so the tree size is a *piecewise-constant* function of
# $\mu$ with finitely many pieces. With best-bound search and data in general position, the expanded
# nodes are exactly the fractional nodes whose bound is below the optimum $z^*$, whatever the search
# order; `K.tree_size_profile` uses this to compute the whole profile on $[0,1]$ at once, splitting the
# $\mu$-interval at each node where the argmax changes (a unit test checks it against
# `branch_and_bound` inside every piece). Counting pieces is the heart of the pseudo-dimension argument. If every
# instance's profile has at most $b$ breakpoints, then $N$ instances produce at most $1+Nb$ distinct cost
# vectors as $\mu$ varies. Pseudo-shattering $N$ instances needs $2^N$ of them, so
# $d\le\max\{N:2^N\le1+Nb\}$ (`K.pdim_upper_bound`).
#
# **What we measure.** The uniform deviation of the brief, with the expectation replaced by the mean over
# a held-out test set of $M$ instances and the sup taken over the 201-point grid:
#
# $$ \mathrm{gap}(N)=\max_{\mu\in\text{grid}}\Big|\tfrac1N\textstyle\sum_{i\le N}\mathrm{cost}(I_i,\mu)-\tfrac1M\sum_{k\le M}\mathrm{cost}(I'_k,\mu)\Big|, $$
#
# averaged over disjoint training sets of size $N$ cut from a pool of training instances, and summarised by
# the least-squares slope of $\log\mathrm{gap}(N)$ against $\log N$. The same quantity is computed, on the
# same instances and the same splits, for other classes of policies, ordered by their capacity:
#
# * **one fixed policy** ($\mu=0.5$, the middle of the family; also $\mu=0$ and $\mu=1$): no tuning, a class of
#   one policy, whose gap is the difference of two sample means of one cost (the law of large numbers);
# * **small finite menus**: the two policies $\mu\in\{0,1\}$, and the 11-point grid $\mu\in\{0,0.1,\dots,1\}$;
# * **randomised policies**: policy $k$ solves each instance with a weight drawn uniformly at random afresh for
#   that instance (`K.random_policy_costs`); a finite class of 201 policies (the grid's size), or of 10,000,
#   with no parameter shared across instances and no structure, for which the union bound gives a gap of
#   order $H\sqrt{\ln K/N}$ without any counting of pieces;
# * **the linear family itself**, on the grid and with the exact sup over every $\mu\in[0,1]$ computed from the
#   exact profiles (`K.exact_uniform_gap`): an infinite class with one parameter;
# * **one weight per bucket**: every instance is put in one of $B$ buckets by a fixed random hash, and the
#   policy with weights $(\mu_1,\dots,\mu_B)$ uses its bucket's weight (`K.bucket_uniform_gap`). For $B=2,4,8$
#   this is a class of $B$ parameters, still of bounded pseudo-dimension, with a capacity that grows with $B$;
# * **one weight per instance** (a strawman): the weight is chosen separately for every instance, as a rule
#   that looked $\mu$ up in a hash of the instance would. This class has unbounded pseudo-dimension, and by
#   construction its gap cannot shrink towards zero: its sup splits over the instances
#   (`K.per_instance_gap`), and the gap stays above half the mean range of a profile over $\mu$, train and
#   test together, at every $N$ (`K.per_instance_gap_floor`). Over $N\le16$ that floor need not push its
#   slope above the bar.
#
# The page's first version counted "the gap shrinks" as a test of the paper, with the last class as the
# ablation and one fixed policy and the 201 randomised policies as naive baselines. An independent review
# showed why no such test can be specific: the bound is about classes of *bounded* capacity, but the slope
# criterion separates classes of small capacity relative to $N\le16$ from large ones. Small classes meet it
# with or without the paper's structure, bounded classes of more weights often end at the edge of it, and
# the only unbounded class has a floor built in, so its shortfall says nothing about the paper. The gap is now shown as an illustration of the mechanism, beside all these
# classes (see the verdict).
#
# ## The experiment
#
# * **Instances** (generated in code): random binary multi-dimensional knapsacks with $m=2$ constraints,
#   weights $a_{ij}\sim U(1,10)$, capacities half the total weight, profits weakly correlated with the
#   weights ($p_j=\bar a_j+U(0,5)$), written as minimisation of $-p^\top x$. $n=10$ items at ci scale,
#   $n=12$ at full scale.
# * **Every incumbent is checked**: for every instance, $z^*$ by exhaustive enumeration of its $2^n$ binary
#   points (`K.enumerate_optimum`; the unit tests compare it with `scipy.optimize.milp`), our B&B at
#   $\mu=0.5$ must return the same objective, and its tree size must equal the exact profile's value at
#   $0.5$.
# * **Training pool and test set**: 32 and 32 instances at ci ($N\in\{2,4,8,16\}$, so 16, 8, 4 and 2
#   disjoint training sets), 256 and 200 at full scale ($N\in\{2,\dots,128\}$).
# * **The comparison classes** draw their random weights and bucket labels from random streams of their own,
#   so the instances are the same draws as in the page's first version.
#
# **The gap illustration** (the page's pre-registered test, now shown and not counted):
#
# * *The gap shrinks with $N$* (the theorem's consequence): the least-squares log-log slope of
#   $\mathrm{gap}(N)$ against $N$ is $\le-0.3$ (the brief's threshold; the bound's shape
#   $\sqrt{d\log N/N}$ has slope about $-0.4$ to $-0.5$). Its measurement, setting and criterion are those
#   fixed before the page first ran. It is recorded for the linear family and, under the same measurement
#   and criterion, for one fixed policy, the 201 randomised policies, the bucket classes and the strawman, so
#   that the ci sweep counts how often each class meets the criterion. Its band is now the slope's own
#   spread over the design seeds: a slope within that spread of $-0.3$ is "at the edge", not a pass.
#
# **Also shown, not counted.** *Implementation checks*: every incumbent equals the optimum found by
# enumeration; B&B tree sizes equal the exact profile; the 201-point grid resolves the profiles' pieces
# (doubling the grid raises the counted breakpoints by at most 10%, the brief's threshold; it checks our
# grid, not the paper). *Illustration*: the distinct cost vectors number at most $1+\sum_i b_i$, the counting
# step of the argument, a fact about partitions of an interval that cannot fail.
#
# **Deviations from the paper and from the brief**
#
# * The paper proves bounds and runs nothing; there is no setting of the paper to match. Data, sizes,
#   features and policy class are the brief's design or ours, and so are the comparison classes.
# * Branch-and-*bound* only: no cuts and no learned node selection (best-bound first is fixed). The paper
#   covers node, cut and branching scores; we learn only the branching score.
# * One parameter, a linear score: the case Balcan et al. had already bounded. The brief's two-parameter
#   ReLU unit (full scale) and Gomory cuts were not built in the time available, so the paper's own
#   extension (piecewise-polynomial, multi-parameter scores) is not exercised.
# * The expectation in the bound is replaced by a held-out test mean of 32 (ci) or 200 (full) instances. Its
#   own noise, of order $\sigma/\sqrt M$, puts a floor under the measured gap and flattens the slope at
#   large $N$.
# * Sample sizes at ci: the brief's ci design learns from $N\in\{5,10,20\}$ instances and tests on 40; we use
#   $N\in\{2,4,8,16\}$ (disjoint splits of one pool of 32, powers of two so that every split size divides
#   it) and 32 test instances, for the time budget. Full scale uses $N\in\{2,\dots,128\}$ and 200 test
#   instances, against the brief's $\{5,\dots,80\}$ and 200.
# * The sup over $\mu$ is over the 201-point grid, not over $[0,1]$; the exact sup over $[0,1]$ is shown
#   beside it.
# * Instances: $n=10$ items at ci, *below* the brief's 12-15 (for the time budget), and $n=12$ at full scale,
#   within it; $m=2$ constraints (the brief's 2-3) and weak correlation $\rho=1$ (our choice).
# * LP relaxations: an exact Lagrangian-dual solver for packing constraints (`K.dual_lp_relaxation`; each
#   solution is certified by primal feasibility and a zero duality gap, with a fall-back to HiGHS), about
#   10 times faster than `scipy.optimize.linprog` at these sizes. Unit tests compare it with HiGHS.
# * The bound drawn in the figures is a textbook pseudo-dimension bound with our constants
#   (`K.uniform_convergence_bound`), not the paper's, which we could not read; only its shape is
#   compared.
# * The optimum $z^*$ of every instance comes from enumerating its $2^n$ points (the brief's brute-force
#   check), not from `scipy.optimize.milp` as in the page's first version. At its default relative MIP gap
#   of $10^{-4}$, HiGHS returned a feasible but not optimal point on one full-scale instance of the first
#   version (found by the review); `K.milp_optimum`, used by the unit tests, now asks for a gap of 0.
# * The comparison classes and their settings are ours: the default weight $\mu=0.5$ (the middle of the
#   family), 201 randomised policies (the grid's size) and 10,000 (the review's), and $B=2,4,8$ buckets (the
#   review's).

# %%
def make_instances(count, rng, desc):
    """Draw `count` instances; return their exact profiles, z*, and the B&B incumbent checks at mu = 0.5."""
    out = dict(profiles=[], z=[], ok_incumbent=[], ok_size=[], n_lp=0, n_fallback=0)
    for _ in progress(range(count), desc=desc):
        c, A, b = K.random_knapsack(P.n, P.m, rng)
        z = K.enumerate_optimum(c, A, b)
        lp = K.CachedLP(c, A, b)
        edges, sizes = K.tree_size_profile(c, A, b, z, lp=lp)
        _, obj, n_nodes = K.branch_and_bound(c, A, b, K.linear_policy(0.5), lp=lp)
        out["profiles"].append((edges, sizes))
        out["z"].append(z)
        out["ok_incumbent"].append(abs(obj - z) <= 1e-9 * max(1.0, abs(z)))
        out["ok_size"].append(n_nodes == K.profile_on_grid(edges, sizes, [0.5])[0])
        out["n_lp"] += lp.n_solved
        out["n_fallback"] += lp.n_fallback
    return out


train = make_instances(P.pool, np.random.default_rng([seed, 1]), "training pool")
test = make_instances(P.test, np.random.default_rng([seed, 2]), "test set")
C_train = np.array([K.profile_on_grid(e, s, GRID) for e, s in train["profiles"]])
C_test = np.array([K.profile_on_grid(e, s, GRID) for e, s in test["profiles"]])
n_pieces = np.array([len(s) for _, s in train["profiles"] + test["profiles"]])
print(f"{P.pool} + {P.test} knapsacks, n = {P.n}, m = {P.m}: tree sizes {C_train.min()}..{C_train.max()} nodes "
      f"(mean {C_train.mean():.1f}); exact pieces per profile: median {np.median(n_pieces):g}, max {n_pieces.max()}; "
      f"{train['n_lp'] + test['n_lp']} distinct LPs, {train['n_fallback'] + test['n_fallback']} HiGHS fall-backs")

# %% [markdown]
# ## Results
#
# ### Tree size is piecewise constant in the policy parameter
#
# Exact profiles of six training instances (tree size against $\mu$), and the mean profile of the training
# pool and of the test set.

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
for i, (e, s) in enumerate(train["profiles"][:6]):
    axes[0].stairs(s, e, lw=1.4, label=f"instance {i}: {len(s)} pieces")
axes[0].set(xlabel=r"policy parameter $\mu$ (weight on fractionality)", ylabel="B&B tree size (nodes)",
            title="Exact tree-size profiles of single instances")
axes[0].legend(fontsize=7, ncol=2)
axes[1].plot(GRID, C_train.mean(axis=0), label=f"training pool mean ({P.pool} instances)")
axes[1].plot(GRID, C_test.mean(axis=0), label=f"test mean ({P.test} instances)")
for N, ls in zip(P.Ns[:2], (":", "--")):
    axes[1].plot(GRID, C_train[:N].mean(axis=0), ls=ls, color="0.4", lw=1, label=f"first {N} training instances")
axes[1].set(xlabel=r"policy parameter $\mu$", ylabel="mean tree size (nodes)", title="Empirical cost curves")
axes[1].legend(fontsize=7)
plt.show()

# %% [markdown]
# The profiles have a median of {glue:text}`pieces_median:g` pieces on $[0,1]$ (at most {glue:text}`pieces_max`
# on one instance). At this seed the mean test tree size moves by {glue:text}`test_spread_pct:.0f`% across
# $\mu$ (from its smallest to its largest value), while single instances' tree sizes at $\mu=0.5$ have a
# standard deviation of {glue:text}`inst_sd:.1f` nodes around their mean of {glue:text}`default_test:.1f`: the
# learning problem is nearly flat, and most of what separates a sample's mean from the test mean is
# instance-to-instance variance, not the choice of $\mu$.
#
# ### The uniform gap against the number of training instances
#
# The linear family (sup over the grid, and over every $\mu$) beside the other classes of policies, from one
# fixed policy to one weight per instance, each under the same measurement and on the same splits.

# %%
rng_random = np.random.default_rng([seed, 3])  # the 201 randomised policies' own stream (as in the first version)
R_all = K.random_policy_costs(train["profiles"] + test["profiles"], GRID.size, rng_random)
R_train, R_test = R_all[:P.pool], R_all[P.pool:]
R_big = K.random_policy_costs(train["profiles"] + test["profiles"], 10_000, np.random.default_rng([seed, 4]))
Rb_train, Rb_test = R_big[:P.pool], R_big[P.pool:]
BUCKETS = (2, 4, 8)  # the review's bucket counts
rng_hash = np.random.default_rng([seed, 5])  # the buckets' fixed random hash, drawn once per instance
hashes = {B: (rng_hash.integers(0, B, P.pool), rng_hash.integers(0, B, P.test)) for B in BUCKETS}


def col(mu):
    """The grid column of the weight mu."""
    return int(np.argmin(np.abs(GRID - mu)))


g0 = col(MU_DEFAULT)  # the default weight's column of the grid
ELEVEN = [col(m) for m in np.linspace(0.0, 1.0, 11)]
LIN, EXA = "linear family (grid)", "linear family (exact sup over [0, 1])"
FIX, RND, RBIG = f"one policy, mu = {MU_DEFAULT}", "201 randomised policies", "10,000 randomised policies"
BUCK = {B: f"{B} buckets, one weight each" for B in BUCKETS}
ABL = "one weight per instance (strawman)"
CLASSES = {  # name -> the gap of one training split against the test set, from small capacity to large
    FIX: lambda s: K.uniform_gap(C_train[s][:, [g0]], C_test[:, [g0]]),
    "one policy, mu = 0 (ratio only)": lambda s: K.uniform_gap(C_train[s][:, [col(0.0)]], C_test[:, [col(0.0)]]),
    "one policy, mu = 1 (fractionality only)": lambda s: K.uniform_gap(C_train[s][:, [col(1.0)]],
                                                                       C_test[:, [col(1.0)]]),
    "two policies, mu in {0, 1}": lambda s: K.uniform_gap(C_train[s][:, [col(0.0), col(1.0)]],
                                                          C_test[:, [col(0.0), col(1.0)]]),
    "11-point grid of mu": lambda s: K.uniform_gap(C_train[s][:, ELEVEN], C_test[:, ELEVEN]),
    RND: lambda s: K.uniform_gap(R_train[s], R_test),
    RBIG: lambda s: K.uniform_gap(Rb_train[s], Rb_test),
    LIN: lambda s: K.uniform_gap(C_train[s], C_test),
    EXA: lambda s: K.exact_uniform_gap([train["profiles"][i] for i in s], test["profiles"]),
    **{BUCK[B]: (lambda s, B=B: K.bucket_uniform_gap(C_train[s], C_test, hashes[B][0][s], hashes[B][1]))
       for B in BUCKETS},
    ABL: lambda s: K.per_instance_gap(C_train[s], C_test),
}
gaps = {name: {} for name in CLASSES}
erm_rows = []  # (N, training mean, test mean) of the weight chosen by ERM on each split
for N in P.Ns:
    splits = np.arange(P.pool // N * N).reshape(-1, N)  # disjoint training sets of size N
    for name, gap_of in CLASSES.items():
        gaps[name][N] = np.array([gap_of(s) for s in splits])
    for s in splits:
        g = col(K.erm_select(C_train[s], GRID))
        erm_rows.append((N, C_train[s][:, g].mean(), C_test[:, g].mean()))
erm = np.array(erm_rows)
Ns = np.array(P.Ns, dtype=float)
mean_gap = {name: np.array([gaps[name][N].mean() for N in P.Ns]) for name in CLASSES}
mean_gap["ERM weight, its own gap"] = np.array([np.abs(erm[erm[:, 0] == N, 1] - erm[erm[:, 0] == N, 2]).mean()
                                               for N in P.Ns])
slopes = {name: loglog_slope(Ns, g) for name, g in mean_gap.items()}
slope = slopes[LIN]
abl_floor = K.per_instance_gap_floor(C_train, C_test)  # the strawman's gap stays above it at every N
b_max = int(K.count_breakpoints(np.vstack([C_train, C_test])).max())
d_hat = K.pdim_upper_bound(b_max)
H = float(max(C_train.max(), C_test.max()))
se_test = float(C_test[:, g0].std(ddof=1) / np.sqrt(P.test))  # the test mean's own noise at the default weight
for name in mean_gap:
    print(f"{name:42s} mean gap {np.round(mean_gap[name], 2)}  slope {slopes[name]:.3f}")
print(f"floor of the one-weight-per-instance gap: {abl_floor:.2f} nodes; max breakpoints per profile on the grid "
      f"b = {b_max} -> pseudo-dimension bound d <= {d_hat}; H = {H:g} nodes; standard error of the test mean at "
      f"mu = {MU_DEFAULT}: {se_test:.2f} nodes")

# %%
STYLE = {FIX: ("v--", "C2"), RND: ("D--", "C1"), LIN: ("o-", "C0"), EXA: ("x:", "k"), BUCK[2]: ("^-.", "C4"),
         BUCK[8]: ("P-.", "C5"), ABL: ("s-", "C3")}
fig, axes = plt.subplots(1, 2, figsize=(12, 4.4), gridspec_kw=dict(width_ratios=(1.1, 1)))
ax = axes[0]
for N in P.Ns:
    ax.plot(np.full(gaps[LIN][N].size, N), gaps[LIN][N], ".", color="C0", alpha=0.35, ms=5)
for name, (mk, c) in STYLE.items():
    ax.loglog(Ns, mean_gap[name], mk, color=c, ms=5, label=f"{name} (slope {slopes[name]:.2f})")
big = Ns >= d_hat  # the textbook bound is stated for N >= d
if big.any():
    ax.loglog(Ns[big], K.uniform_convergence_bound(Ns[big], d_hat, H), "k-", lw=1,
              label=f"pseudo-dim. bound, our constants ($d\\leq{d_hat}$, $H={H:g}$, $\\delta=0.1$)")
ax.axhline(abl_floor, color="C3", lw=1, ls=":", label="floor under the strawman's gap")
ax.axhline(se_test, color="0.6", lw=1, ls="-.", label="standard error of the test mean")
ax.set(xlabel="training instances N", ylabel=r"$\sup$ |train mean - test mean| (nodes)",
       title="Uniform generalisation gap, mean over splits", xticks=Ns, xticklabels=[f"{N:g}" for N in Ns])
ax.minorticks_off()
ax.legend(fontsize=6.5)
ax = axes[1]
names = list(mean_gap)
ax.barh(range(len(names)), [slopes[n] for n in names], color=["C0" if n in (LIN, EXA) else "0.6" for n in names])
ax.axvline(-0.3, color="k", lw=1, label="criterion: slope $\\leq -0.3$")
ax.axvspan(-0.3 - SPREAD.abs, -0.3 + SPREAD.abs, color="0.85", zorder=0, label="edge band (seed spread)")
ax.set(yticks=range(len(names)), xlabel="log-log slope of the mean gap against N",
       title="Which classes meet the criterion (this seed)")
ax.set_yticklabels(names, fontsize=7)
ax.invert_yaxis()
ax.legend(fontsize=7, loc="lower left")
plt.show()

# %% [markdown]
# Left: the gap of the linear family falls from {glue:text}`gap_N1:.1f` nodes at $N=${glue:text}`N_min` to
# {glue:text}`gap_Nmax:.1f` at $N=${glue:text}`N_max` (slope {glue:text}`slope:.2f`); the exact sup over every
# $\mu$ differs from the grid's by at most {glue:text}`exact_minus_grid:.2f` nodes. One fixed weight's gap falls
# from {glue:text}`gap_fixed_N1:.1f` to {glue:text}`gap_fixed_Nmax:.1f` (slope {glue:text}`slope_fixed:.2f`), the
# 201 randomised policies' from {glue:text}`gap_random_N1:.1f` to {glue:text}`gap_random_Nmax:.1f` (slope
# {glue:text}`slope_random:.2f`). The bucket classes, of bounded capacity, have slopes {glue:text}`slope_b2:.2f`,
# {glue:text}`slope_b4:.2f` and {glue:text}`slope_b8:.2f` for $B=2,4,8$ (their counts over the seeds are in the
# verdict). One
# weight per instance falls only from {glue:text}`gap_abl_N1:.1f` to {glue:text}`gap_abl_Nmax:.1f` (slope
# {glue:text}`slope_abl:.2f`), and it can never fall below {glue:text}`abl_floor:.1f` nodes, half the mean
# range of a profile over $\mu$ (train and test), whatever $N$. Right: the slope of every class at this seed
# against the criterion.

# %%
fig, ax = plt.subplots(figsize=(6.4, 3.8))
for c, lab, mk in ((1, "ERM weight, training mean", "v"), (2, "ERM weight, test mean", "^")):
    means = [erm[erm[:, 0] == N, c].mean() for N in P.Ns]
    sds = [erm[erm[:, 0] == N, c].std() for N in P.Ns]
    ax.errorbar(Ns, means, yerr=sds, marker=mk, capsize=3, label=lab)
ax.axhline(C_test.mean(axis=0).min(), color="k", lw=1, ls="--", label=r"best $\mu$ on the test set")
ax.axhline(C_test.mean(), color="0.5", lw=1, ls=":", label=r"$\mu$ uniform at random (test)")
ax.axhline(C_test[:, g0].mean(), color="C2", lw=1, ls="-.", label=rf"default $\mu={MU_DEFAULT}$ (test)")
ax.set(xscale="log", xlabel="training instances N", ylabel="mean tree size (nodes)",
       title="Tuning mu by ERM (mean ± sd over splits)", xticks=Ns, xticklabels=[f"{N:g}" for N in Ns])
ax.minorticks_off()
ax.legend(fontsize=7)
plt.show()

# %% [markdown]
# Tuning $\mu$ by ERM (not a claim of the paper): at $N=${glue:text}`N_max` the weight chosen on the training
# split averages {glue:text}`erm_train_Nmax:.1f` nodes there and {glue:text}`erm_test_Nmax:.1f` on the test set
# (its training mean is {glue:text}`erm_direction` its test mean at this seed), against
# {glue:text}`default_test:.1f` for the untuned default and {glue:text}`best_test:.1f` for the best weight chosen
# on the test set itself. ERM's test mean minus the default's is {glue:text}`erm_minus_default:.1f` nodes
# (negative where ERM does better, positive where it does worse) and {glue:text}`erm_minus_best:.1f` nodes above the best weight's, against a
# standard error of the test mean of {glue:text}`se_test:.1f` nodes and a spread of one instance's tree size of
# {glue:text}`inst_sd:.1f` nodes. With a cost curve this flat, what ERM gains or loses is mostly instance
# variance, and we read no optimism (or pessimism) into the sign of its train-test difference at one seed.
#
# ### Do the pieces resolve on the grid?
#
# An implementation check of the brief: count the breakpoints of every profile on the 201-point grid and on a
# grid twice as fine, and compare both with the exact count.

# %%
C_all = np.vstack([C_train, C_test])
C_all2 = np.array([K.profile_on_grid(e, s, GRID2) for e, s in train["profiles"] + test["profiles"]])
bp1, bp2 = int(K.count_breakpoints(C_all).sum()), int(K.count_breakpoints(C_all2).sum())
exact_bp = int(sum(len(s) - 1 for _, s in train["profiles"] + test["profiles"]))
rise = (bp2 - bp1) / bp1
print(f"breakpoints: exact {exact_bp}, on 401 points {bp2}, on 201 points {bp1} (rise {rise:.3f})")

fig, ax = plt.subplots(figsize=(6.4, 3.6))
per_inst = np.array([len(s) - 1 for _, s in train["profiles"] + test["profiles"]])
ax.scatter(per_inst, K.count_breakpoints(C_all), s=14, label="201-point grid")
ax.scatter(per_inst, K.count_breakpoints(C_all2), s=14, marker="x", label="401-point grid")
lim = per_inst.max() + 1
ax.plot([0, lim], [0, lim], "k--", lw=1, label="exact count")
ax.set(xlabel="exact breakpoints of the profile", ylabel="breakpoints seen on the grid",
       title="The grid sees almost every piece")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# The 201-point grid sees {glue:text}`bp_grid` of the {glue:text}`bp_exact` exact breakpoints, and doubling it
# adds {glue:text}`rise_pct:.1f`% more.
#
# ### The paper's numbers beside ours
#
# | setting | the paper | ours (this run) |
# |---|---|---|
# | any | no experiments: a pseudo-dimension bound, constants not retrieved | gap slopes in the claims table below |
# | bound's shape | $\sqrt{(d\log N+\log 1/\delta)/N}$ (standard uniform convergence) | solid line in the gap figure |
#
# There are no reported numbers to set beside ours (a reviewer found experiments "nice, but not
# required").

# %%
claims.headline(
    "bounded-sample-complexity",
    "Learning branch-and-cut policies whose scores are piecewise polynomial in their parameters has bounded "
    "pseudo-dimension, so the mean cost on N sample instances converges to the expected cost uniformly over the "
    "class (sample-complexity bounds)",
    untestable="no measurement of ours separates the paper's bound from naive capacity: our only evidence, the gap "
               "illustration, covers the prior-work case (Balcan et al.'s one-parameter linear family) and is not "
               "specific, since one fixed policy or a finite menu of randomised policies meets its criterion too; "
               "the bound's constants were not retrieved, so it cannot be checked where it is tight")
claims.headline(
    "covers-linear-and-relu",
    "The bounds cover the linear scores of Balcan et al. and ReLU-network scores, the models practitioners use",
    untestable="we built only the one-parameter linear family, the case Balcan et al. had already bounded; no "
               "ReLU or multi-parameter score was run, and the paper's explicit bound was not retrieved")
claims.headline(
    "general-sequential-decisions",
    "The same theory covers node, cut and branching scores together, and sequential decision problems beyond "
    "branch-and-cut",
    untestable="we learn only the branching score of a branch-and-bound without cuts, with best-bound node "
               "selection fixed; no other sequential decision problem is run")

GAP = f"log-log slope of sup |train mean - test mean| tree size against N (N in {list(P.Ns)}, {P.test} test instances)"
claims.illustrate(
    "gap-shrinks-with-N",
    statement=f"{GAP}, linear score family (sup over the 201-point grid of mu)",
    paper="uniform convergence at rate ~ sqrt(pdim log N / N) for piecewise-polynomial scores; no numbers",
    criterion=at_most(-0.3), measured=slope, tol=SPREAD,
    why="the page's pre-registered test, shown and not counted since the independent review: the slope criterion "
        "is met by classes of small capacity relative to N <= 16 whatever their structure (one fixed policy, 201 "
        "randomised policies, two buckets of weights), a bounded class of eight weights can miss it, and the only "
        "unbounded class fails by construction, so it cannot test the paper's bound; the one-parameter linear "
        "family is also the prior-work case of Balcan et al.")
for cid, name, why in (
        ("gap-slope-one-policy", FIX,
         "a comparison class of one policy (no tuning): its gap is a difference of two sample means of one cost, "
         "which shrinks by the law of large numbers alone"),
        ("gap-slope-201-random-policies", RND,
         "a comparison class of 201 policies, each drawing mu afresh for every instance: a finite class with no "
         "shared parameter, whose gap shrinks by Hoeffding's inequality and a union bound"),
        *((f"gap-slope-{B}-buckets", BUCK[B],
           f"a comparison class of {B} weights, one per bucket of a fixed random hash of the instances: bounded "
           "pseudo-dimension, with a capacity that grows with the number of buckets") for B in BUCKETS),
        ("gap-slope-one-weight-per-instance", ABL,
         "a strawman (the page's first ablation): its gap stays above half the mean range of a profile over mu at "
         "every N (K.per_instance_gap_floor), so it cannot shrink towards zero whatever the truth of the paper")):
    claims.illustrate(cid, statement=f"{GAP}, {name}", paper="(a comparison class of ours)",
                      criterion=at_most(-0.3), measured=slopes[name], tol=SPREAD, why=why)

COUNT = tolerance(rel=0.05, abs=0.02, why="tree sizes are counts decided by LP bounds compared at a 1e-9 slack; "
                  "a near-tie could move a count under other float kernels")
claims.check("grid-resolves-pieces", kind="implementation",
             statement="relative rise of the breakpoints counted on all profiles when the mu grid doubles "
                       "(201 -> 401): the grid resolves the exact profiles' pieces",
             paper="(our grid; the paper's cost is piecewise constant in the parameters with finitely many pieces)",
             criterion=at_most(0.1), measured=float(rise), tol=COUNT)
claims.check("incumbents-match-enumeration", kind="implementation",
             statement=f"our B&B (mu = 0.5) returns the optimum found by enumerating all 2^{P.n} binary points, on "
                       f"all {P.pool + P.test} instances",
             paper="(our code)", criterion=is_true(), measured=bool(all(train["ok_incumbent"] + test["ok_incumbent"])))
claims.check("bnb-equals-exact-profile", kind="implementation",
             statement="B&B tree size at mu = 0.5 equals the exact profile's value on every instance",
             paper="(our code)", criterion=is_true(), measured=bool(all(train["ok_size"] + test["ok_size"])))
claims.illustrate(
    "dual-count",
    statement="distinct cost vectors of the training pool over the grid <= 1 + total breakpoints",
    paper="counting step of the pseudo-dimension argument",
    criterion=is_true(),
    measured=bool(K.distinct_cost_vectors(C_train) <= 1 + K.count_breakpoints(C_train).sum()),
    why="N profiles with b_i breakpoints cut an interval into at most 1 + sum b_i pieces: a fact about partitions "
        "of an interval (the counting step of Balcan et al.'s and the paper's argument), true of any profiles");

# %%
test_mean_mu = C_test.mean(axis=0)
at_max = erm[:, 0] == P.Ns[-1]
erm_train_Nmax, erm_test_Nmax = float(erm[at_max, 1].mean()), float(erm[at_max, 2].mean())
glue("pieces_median", float(np.median(n_pieces)), display=False)
glue("pieces_max", int(n_pieces.max()), display=False)
glue("test_spread_pct", float(100 * (test_mean_mu.max() - test_mean_mu.min()) / test_mean_mu.min()), display=False)
glue("inst_sd", float(C_test[:, g0].std(ddof=1)), display=False)
glue("N_min", int(P.Ns[0]), display=False)
glue("N_max", int(P.Ns[-1]), display=False)
for key, name in (("slope", LIN), ("slope_exact", EXA), ("slope_fixed", FIX), ("slope_mu0", "one policy, mu = 0 (ratio only)"),
                  ("slope_mu1", "one policy, mu = 1 (fractionality only)"), ("slope_two", "two policies, mu in {0, 1}"),
                  ("slope_eleven", "11-point grid of mu"), ("slope_random", RND), ("slope_random_big", RBIG),
                  ("slope_b2", BUCK[2]), ("slope_b4", BUCK[4]), ("slope_b8", BUCK[8]), ("slope_abl", ABL),
                  ("slope_erm", "ERM weight, its own gap")):
    glue(key, float(slopes[name]), display=False)
for key, name in (("gap", LIN), ("gap_fixed", FIX), ("gap_random", RND), ("gap_random_big", RBIG),
                  ("gap_b8", BUCK[8]), ("gap_abl", ABL), ("gap_erm", "ERM weight, its own gap")):
    glue(f"{key}_N1", float(mean_gap[name][0]), display=False)
    glue(f"{key}_Nmax", float(mean_gap[name][-1]), display=False)
glue("gap_exact_Nmax", float(mean_gap[EXA][-1]), display=False)
glue("exact_minus_grid", float(max(np.max(gaps[EXA][N] - gaps[LIN][N]) for N in P.Ns)), display=False)
glue("abl_floor", float(abl_floor), display=False)
glue("se_test", se_test, display=False)
glue("se_over_gap", float(se_test / mean_gap[LIN][-1]), display=False)
glue("erm_test_Nmax", erm_test_Nmax, display=False)
glue("erm_train_Nmax", erm_train_Nmax, display=False)
glue("erm_direction", "below" if erm_train_Nmax < erm_test_Nmax else "not below", display=False)
glue("erm_minus_default", erm_test_Nmax - float(C_test[:, g0].mean()), display=False)
glue("erm_minus_best", erm_test_Nmax - float(test_mean_mu.min()), display=False)
glue("default_test", float(C_test[:, g0].mean()), display=False)
glue("best_test", float(test_mean_mu.min()), display=False)
glue("bp_grid", bp1, display=False)
glue("bp_exact", exact_bp, display=False)
glue("rise_pct", float(100 * rise), display=False)
glue("d_hat", int(d_hat), display=False)
glue("spread_band", float(SPREAD.abs), display=False)
glue("bound_over_gap", float(K.uniform_convergence_bound(Ns[-1:], d_hat, H)[0] / mean_gap[LIN][-1])
     if Ns[-1] >= d_hat else float("nan"), display=False)

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
# The page counts no test. Its one pre-registered test, *the gap shrinks with $N$*, is shown as an
# illustration since the independent review, because no outcome of it could bear on the paper's bound:
#
# * The linear family's uniform gap has a log-log slope of {glue:text}`slope:.2f` at this seed, against the
#   brief's bar of $-0.3$. Over the ci seeds it passes at {repro-seeds}`gap-shrinks-with-N:method:pass`, and it
#   lies within the slope's own seed spread of the bar (at the edge) at
#   {repro-seeds}`gap-shrinks-with-N:method:edge`: even as a test it would miss the rule that a pass needs
#   at 8 of the 10 seeds.
# * Classes without the paper's structure meet the bar too. One fixed weight, no tuning (slope
#   {glue:text}`slope_fixed:.2f` at this seed), passes at {repro-seeds}`gap-slope-one-policy:method:pass` and is
#   at the edge at {repro-seeds}`gap-slope-one-policy:method:edge`; 201 randomised policies with no shared
#   parameter (slope {glue:text}`slope_random:.2f`) pass at {repro-seeds}`gap-slope-201-random-policies:method:pass`
#   and are at the edge at {repro-seeds}`gap-slope-201-random-policies:method:edge`.
# * Classes of larger, still bounded, capacity: one weight for each of two buckets of instances passes at
#   {repro-seeds}`gap-slope-2-buckets:method:pass`, four buckets at {repro-seeds}`gap-slope-4-buckets:method:pass`,
#   eight buckets at {repro-seeds}`gap-slope-8-buckets:method:pass` (at the edge at
#   {repro-seeds}`gap-slope-8-buckets:method:edge`). The only unbounded class, one weight per instance, passes
#   at {repro-seeds}`gap-slope-one-weight-per-instance:method:pass`, fails at
#   {repro-seeds}`gap-slope-one-weight-per-instance:method:fail` and is at the edge at
#   {repro-seeds}`gap-slope-one-weight-per-instance:method:edge`. It is a strawman: its gap can never fall
#   below {glue:text}`abl_floor:.1f` nodes at this seed, whatever $N$, yet over $N\le16$ that floor often
#   leaves its slope only at the edge of the bar, not beyond it.
#
# What this means: over $N\le16$ the criterion sorts classes by their capacity relative to $N$, not by whether
# their pseudo-dimension is bounded (every class above but the last is bounded), and classes with none of the
# paper's structure meet it too. So it cannot test the paper's bound, and its outcome says nothing either way
# about whether the paper's ingredient is needed. The page's evidence for the first headline claim covers
# only the prior-work case (Balcan et al.'s one-parameter linear family), and it is not specific. In that
# family the infinite class behaves like a finite one (its exact sup over every $\mu$ differs from the grid's
# by at most {glue:text}`exact_minus_grid:.2f` nodes), because the profiles have few pieces. Whether the paper's bound for
# richer (multi-parameter, ReLU) scores is needed, and whether it is tight, our miniature cannot tell.
#
# The other checks are shown and not counted. Our branch-and-bound returns the optimum found by enumeration on
# every instance and its tree size equals the exact profile's (implementation checks); the grid sees
# {glue:text}`bp_grid` of the {glue:text}`bp_exact` exact breakpoints (an implementation check of the grid);
# the count of distinct cost vectors stays under $1+\sum_i b_i$ (the counting step, which cannot fail).
# Tuning $\mu$ by ERM is not claimed by the paper; at this seed the learning problem is nearly flat (the mean
# test tree size moves by {glue:text}`test_spread_pct:.0f`% across $\mu$), and the weight tuned on
# {glue:text}`N_max` instances reaches {glue:text}`erm_test_Nmax:.1f` test nodes against the default's
# {glue:text}`default_test:.1f`. The textbook bound drawn with our constants lies far above the measured gap, as
# such bounds do at these sizes. Full-scale values ($n=12$, 256 training and 200 test instances, $N$ up to 128)
# are in the full-scale column of the judged table.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page, the
# record and the brief. The reviewer regenerated the page's instances at every design seed and put every naive
# class of policies they could think of under the test's own measurement and criterion; what they tried is now
# measured by this notebook, on the same instances, splits and test set (slopes at this seed; counts over the ci
# seeds 0-9 for the classes recorded in the claims table):
#
# * *One policy, no tuning*: $\mu=0.5$ has slope {glue:text}`slope_fixed:.2f` (passes at
#   {repro-seeds}`gap-slope-one-policy:method:pass`), $\mu=0$ (ratio only) {glue:text}`slope_mu0:.2f`, and
#   $\mu=1$ (fractionality only) {glue:text}`slope_mu1:.2f`. The gap of one policy is the difference of two
#   sample means, and the law of large numbers makes it shrink.
# * *Small menus*: the two policies $\mu\in\{0,1\}$ have slope {glue:text}`slope_two:.2f`, the 11-point grid
#   {glue:text}`slope_eleven:.2f`.
# * *Randomised policies*: 201 of them have slope {glue:text}`slope_random:.2f` (passes at
#   {repro-seeds}`gap-slope-201-random-policies:method:pass`), and even 10,000 have slope
#   {glue:text}`slope_random_big:.2f` (gap from {glue:text}`gap_random_big_N1:.1f` to
#   {glue:text}`gap_random_big_Nmax:.1f` nodes). Hoeffding's inequality and a union bound make the gap of a
#   finite class of $K$ policies shrink like $\sqrt{\ln K/N}$, whatever the policies are.
# * *What a practitioner measures: the weight chosen by ERM, its own train-test gap*: from
#   {glue:text}`gap_erm_N1:.1f` to {glue:text}`gap_erm_Nmax:.1f` nodes, slope {glue:text}`slope_erm:.2f`.
# * *The infinite class itself*: the exact sup over every $\mu\in[0,1]$ is {glue:text}`gap_exact_Nmax:.1f` nodes
#   at $N=${glue:text}`N_max` (slope {glue:text}`slope_exact:.2f`), within {glue:text}`exact_minus_grid:.2f` nodes
#   of the grid's at every split: the grid loses nothing of the family here.
# * *An intermediate control, one weight per bucket of instances* (the review's suggestion): with $B=2,4,8$
#   buckets the slopes are {glue:text}`slope_b2:.2f`, {glue:text}`slope_b4:.2f` and {glue:text}`slope_b8:.2f`
#   (counts in the verdict). Eight weights are a bounded class; at this seed their gap falls from
#   {glue:text}`gap_b8_N1:.1f` to {glue:text}`gap_b8_Nmax:.1f` nodes, and over the ci seeds it meets the criterion
#   at {repro-seeds}`gap-slope-8-buckets:method:pass`.
# * *One weight per instance* (the page's first ablation, now labelled a strawman): slope
#   {glue:text}`slope_abl:.2f`, from {glue:text}`gap_abl_N1:.1f` to {glue:text}`gap_abl_Nmax:.1f` nodes, above its
#   floor of {glue:text}`abl_floor:.1f` nodes (half the mean range of a profile over $\mu$, train and test). The
#   floor is built in, and whatever this class's slope does says nothing about the paper.
# * *The floor of a finite test set*: the standard error of the test mean at the default weight is
#   {glue:text}`se_test:.1f` nodes, {glue:text}`se_over_gap:.2f` of the family's gap at the largest $N$. Part of
#   every measured gap is the test set's own noise, which does not shrink with $N$ and flattens every slope
#   alike.
# * *The slope's own noise*: the page first judged the slope with the band of a count, far narrower than the
#   slope's spread over seeds. The band is now that spread, {glue:text}`spread_band:.2f` (the standard deviation
#   of the family's slope over the design seeds in the page's first ci sweep): a slope within it of $-0.3$ is at
#   the edge, never a pass.
# * *The reference optimum*: `scipy.optimize.milp` at HiGHS's default relative gap disagreed with enumeration
#   and with our B&B on one full-scale instance of the first version; the page's optima come from enumeration,
#   and `K.milp_optimum` (used by the unit tests, which now include that instance) asks for a gap of 0.
# * *The sawtooth control of the page's first version* ($\mu\mapsto\{64\mu\}$ through the same family) was
#   dropped: the family it defines is the same set of cost functions as the linear family, re-parametrised, so
#   it could only show that the grid misses pieces narrower than its step.
# * *Textbook bound*: with our constants and $d\le${glue:text}`d_hat`, it is {glue:text}`bound_over_gap:.0f`
#   times the measured gap at the largest $N$; it could not be refuted by anything we measure.
#
# ## What the miniature cannot show
#
# * The paper's bound itself: its constants and its dependence on the number of pieces, the degree, the
#   parameter dimension and the tree size were not available, and a bound of this kind is far above the
#   measured gap at these sizes (the solid line of the gap figure).
# * What is new in the paper: multi-parameter and neural (piecewise-polynomial) scores, cuts and node
#   selection. We learn one linear branching weight, the case of Balcan et al. With $d$ parameters the profile
#   becomes piecewise constant on a polynomial arrangement in $\mathbb R^d$, which is what the paper counts,
#   and the pieces multiply; that is where a finite grid would no longer stand in for the class.
# * A test that separates the paper's bound from a naive one: any class of small capacity relative to $N$, a
#   single policy or a finite menu, shows a shrinking gap, and a bounded class of larger capacity may not, so
#   "the gap shrinks" cannot be specific to the paper's argument at these sizes. A specific test would need the
#   bound's constants (to check it against a Monte Carlo gap where it is tight), which we do not have.
# * Realistic instances: solver-scale trees have thousands of nodes, many more pieces per profile, and the
#   gap's constant grows with them; our knapsacks have 10-12 items and trees of tens to a few hundred
#   nodes.
# * The expectation: we estimate it by a finite test set, whose own noise floors the measured gap.
