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
# # Learned branching policies generalise: tree size as a piecewise-constant function of the policy
#
# *A branching rule whose scores are piecewise polynomial in its parameters induces a tree size that is
# piecewise constant in those parameters, so a rule tuned on N sample instances performs on new
# instances as it did on the sample, up to a gap that shrinks like $\sqrt{\log N/N}$.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue

from repro.claims import Claims, Comparator, at_most, is_true, tolerance
from repro.papers import bnc_policy_generalization as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    # about 6 s of CPU on one thread on a quiet machine, comparators included: 64 knapsacks with 10 items
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
MU_DEFAULT = 0.5                    # the untuned default of the naive baseline (the middle of the family)

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
# code**. Everything below is our numerical illustration of the theorem's mechanism and one test of its
# consequence on a toy problem, not a check of its constants.
#
# **The paper's headline claims, in our words** (each mapped in the claims table to the checks that bear on it):
#
# 1. Learning branch-and-cut policies whose scores are piecewise polynomial in their parameters has bounded
#    pseudo-dimension, so the policies' mean cost on $N$ sample instances converges to their expected cost
#    uniformly over the class (sample-complexity bounds). *Tested* by the uniform-gap test below.
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
# averaged over disjoint training sets of size $N$ cut from a pool of training instances. The same
# quantity is computed, on the same instances and the same splits, for three other classes of policies
# (the comparators of the test):
#
# * **the ablation, one $\mu$ per instance**: the same linear scores, but the weight is chosen separately
#   for every instance (as a rule that looks $\mu$ up in a hash of the instance would). The ingredient it
#   leaves out is the one the paper's bound rests on: one weight shared by all instances through a score
#   with finitely many pieces, hence a bounded pseudo-dimension. This class has unbounded pseudo-dimension,
#   and its sup splits over the instances (`K.per_instance_gap`).
# * **naive baseline 1, a fixed default $\mu=0.5$**: no tuning at all, a class of one policy. Its gap is the
#   difference of two sample means of one cost, which shrinks by the law of large numbers alone.
# * **naive baseline 2, 201 randomised policies**: policy $k$ solves each instance with a weight drawn
#   uniformly at random afresh for that instance (`K.random_policy_costs`). It is a finite class of the
#   grid's size with no parameter shared across instances and no structure, for which the textbook union
#   bound gives a gap of order $H\sqrt{\ln 201/N}$ without any counting of pieces.
#
# A skeptic's point behind the two baselines: the sup over a 201-point grid is a sup over 201 policies, and
# every finite class generalises; what the paper adds is a bound for the *infinite* class. We therefore also
# compute the exact sup over every $\mu\in[0,1]$ from the exact profiles (`K.exact_uniform_gap`) and show it
# beside the grid's.
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
# * **The randomised policies** draw their weights from a random stream of their own, so the instances are
#   the same draws as before the comparators were added.
#
# **The test** (pre-registered: its measurement, setting and criterion were fixed before the page first ran;
# its comparators were added when the page moved to the current claim model):
#
# * *The gap shrinks with $N$* (the theorem's consequence): the least-squares log-log slope of
#   $\mathrm{gap}(N)$ against $N$ is $\le-0.3$ (the brief's threshold; the bound's shape
#   $\sqrt{d\log N/N}$ has slope about $-0.4$ to $-0.5$), beside the ablation and the two naive baselines
#   above under the same measurement and criterion. The page first recorded it as a theorem check beside
#   the one-$\mu$-per-instance class alone; the held-out gap is no independent computation that could refute
#   the bound (the bound's constants are unknown and a textbook version lies far above the measurement), so
#   it is now an empirical test of the consequence.
#
# **Shown, not counted.** *Implementation checks*: every incumbent equals the optimum found by enumeration;
# B&B tree sizes equal the exact profile; the 201-point grid resolves the profiles' pieces (doubling the grid
# raises the counted breakpoints by at most 10%, the brief's threshold; this was a counted claim in the page's
# first version, beside a sawtooth re-parametrisation of the family, and it checks our grid, not the paper).
# *Illustration*: the distinct cost vectors number at most $1+\sum_i b_i$, the counting step of the argument,
# a fact about partitions of an interval that cannot fail.
#
# **Deviations from the paper**
#
# * The paper proves bounds and runs nothing; there is no setting of the paper to match. Data, sizes,
#   features and policy class are the brief's design or ours, and so are the comparators.
# * Branch-and-*bound* only: no cuts and no learned node selection (best-bound first is fixed). The paper
#   covers node, cut and branching scores; we learn only the branching score.
# * One parameter, a linear score: the case Balcan et al. had already bounded. The brief's two-parameter
#   ReLU unit (full scale) and Gomory cuts were not built in the time available, so the paper's own
#   extension (piecewise-polynomial, multi-parameter scores) is not exercised.
# * The expectation in the bound is replaced by a held-out test mean of 32 (ci) or 200 (full) instances. Its
#   own noise, of order $\sigma/\sqrt M$, puts a floor under the measured gap and flattens the slope at
#   large $N$.
# * The sup over $\mu$ is over the 201-point grid, not over $[0,1]$; the exact sup over $[0,1]$ is shown
#   beside it.
# * Instances: $n=10$ (ci) and $12$ (full) items, $m=2$ constraints, weak correlation $\rho=1$, our choices
#   within the brief's 12-15 items and 2-3 constraints ($n=10$ at ci for the time budget).
# * LP relaxations: an exact Lagrangian-dual solver for packing constraints (`K.dual_lp_relaxation`; each
#   solution is certified by primal feasibility and a zero duality gap, with a fall-back to HiGHS), about
#   10 times faster than `scipy.optimize.linprog` at these sizes. Unit tests compare it with HiGHS.
# * The bound drawn in the figures is a textbook pseudo-dimension bound with our constants
#   (`K.uniform_convergence_bound`), not the paper's, which we could not read; only its shape is
#   compared.
# * The optimum $z^*$ of every instance comes from enumerating its $2^n$ points (the brief's brute-force
#   check), not from `scipy.optimize.milp` as in the page's first version: the same values, at a fraction
#   of the time.
# * The comparators' defaults are ours: the default weight $\mu=0.5$ (the middle of the family), and 201
#   randomised policies (the grid's size).

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
# on one instance). The mean test tree size varies by {glue:text}`test_spread_pct:.0f`% across $\mu$ (from its
# smallest to its largest value), much less than tree sizes vary from one instance to the next (tens to a few
# hundred nodes).
#
# ### The uniform gap against the number of training instances
#
# The paper's class (the linear family, sup over the grid) beside its ablation (one $\mu$ per instance) and the
# two naive baselines (a fixed default $\mu$; 201 randomised policies), each under the same measurement.

# %%
rng_random = np.random.default_rng([seed, 3])  # the randomised policies' own stream
R_all = K.random_policy_costs(train["profiles"] + test["profiles"], GRID.size, rng_random)
R_train, R_test = R_all[:P.pool], R_all[P.pool:]
g0 = int(np.argmin(np.abs(GRID - MU_DEFAULT)))  # the default weight's column of the grid
CLASSES = {  # name -> the gap of one training split against the test set
    "linear family (grid)": lambda s: K.uniform_gap(C_train[s], C_test),
    "ablation: one mu per instance": lambda s: K.per_instance_gap(C_train[s], C_test),
    f"fixed default mu = {MU_DEFAULT}": lambda s: K.uniform_gap(C_train[s][:, [g0]], C_test[:, [g0]]),
    "201 randomised policies": lambda s: K.uniform_gap(R_train[s], R_test),
    "linear family (exact sup over [0, 1])": lambda s: K.exact_uniform_gap([train["profiles"][i] for i in s],
                                                                            test["profiles"]),
}
gaps = {name: {} for name in CLASSES}
erm_rows = []
for N in P.Ns:
    splits = np.arange(P.pool // N * N).reshape(-1, N)  # disjoint training sets of size N
    for name, gap_of in CLASSES.items():
        gaps[name][N] = np.array([gap_of(s) for s in splits])
    for s in splits:
        mu_hat = K.erm_select(C_train[s], GRID)
        g = np.searchsorted(GRID, mu_hat)
        erm_rows.append((N, C_train[s][:, g].mean(), C_test[:, g].mean()))
Ns = np.array(P.Ns, dtype=float)
mean_gap = {name: np.array([gaps[name][N].mean() for N in P.Ns]) for name in CLASSES}
slopes = {name: loglog_slope(Ns, mean_gap[name]) for name in CLASSES}
LIN, ABL, FIX, RND, EXA = CLASSES
slope, slope_abl, slope_fixed, slope_random = slopes[LIN], slopes[ABL], slopes[FIX], slopes[RND]
b_max = int(K.count_breakpoints(np.vstack([C_train, C_test])).max())
d_hat = K.pdim_upper_bound(b_max)
H = float(max(C_train.max(), C_test.max()))
se_test = float(C_test[:, g0].std(ddof=1) / np.sqrt(P.test))  # the test mean's own noise at the default weight
for name in CLASSES:
    print(f"{name:40s} mean gap {np.round(mean_gap[name], 2)}  slope {slopes[name]:.3f}")
print(f"max breakpoints per profile on the grid b = {b_max} -> pseudo-dimension bound d <= {d_hat}; H = {H:g} nodes; "
      f"standard error of the test mean at mu = {MU_DEFAULT}: {se_test:.2f} nodes")

# %%
STYLE = {LIN: ("o-", "C0"), ABL: ("s-", "C3"), FIX: ("v--", "C2"), RND: ("D--", "C1"), EXA: ("x:", "k")}
fig, axes = plt.subplots(1, 2, figsize=(11.5, 4.2))
ax = axes[0]
for N in P.Ns:
    ax.plot(np.full(gaps[LIN][N].size, N), gaps[LIN][N], ".", color="C0", alpha=0.35, ms=5)
for name, (mk, col) in STYLE.items():
    ax.loglog(Ns, mean_gap[name], mk, color=col, ms=5, label=f"{name} (slope {slopes[name]:.2f})")
big = Ns >= d_hat  # the textbook bound is stated for N >= d
if big.any():
    ax.loglog(Ns[big], K.uniform_convergence_bound(Ns[big], d_hat, H), "k-", lw=1,
              label=f"pseudo-dim. bound, our constants ($d\\leq{d_hat}$, $H={H:g}$, $\\delta=0.1$)")
ax.axhline(se_test, color="0.6", lw=1, ls="-.", label="standard error of the test mean (the floor)")
ax.set(xlabel="training instances N", ylabel=r"$\sup$ |train mean - test mean| (nodes)",
       title="Uniform generalisation gap, mean over splits", xticks=Ns, xticklabels=[f"{N:g}" for N in Ns])
ax.minorticks_off()
ax.legend(fontsize=6.5)
erm = np.array(erm_rows)
ax = axes[1]
for col, lab, mk in ((1, "ERM policy, training mean", "v"), (2, "ERM policy, test mean", "^")):
    means = [erm[erm[:, 0] == N, col].mean() for N in P.Ns]
    sds = [erm[erm[:, 0] == N, col].std() for N in P.Ns]
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
# Left: the gap of the linear family falls from {glue:text}`gap_N1:.1f` nodes at $N=${glue:text}`N_min` to
# {glue:text}`gap_Nmax:.1f` at $N=${glue:text}`N_max` (slope {glue:text}`slope:.2f`). The fixed default weight's
# gap falls from {glue:text}`gap_fixed_N1:.1f` to {glue:text}`gap_fixed_Nmax:.1f` (slope
# {glue:text}`slope_fixed:.2f`), the 201 randomised policies' from {glue:text}`gap_random_N1:.1f` to
# {glue:text}`gap_random_Nmax:.1f` (slope {glue:text}`slope_random:.2f`), and the one-$\mu$-per-instance class's
# only from {glue:text}`gap_abl_N1:.1f` to {glue:text}`gap_abl_Nmax:.1f` (slope {glue:text}`slope_abl:.2f`).
# The exact sup over every $\mu$ differs from the grid's by at most {glue:text}`exact_minus_grid:.2f` nodes.
# Right: the policy tuned by ERM is optimistic on its training set: at $N=${glue:text}`N_max` it averages
# {glue:text}`erm_train_Nmax:.1f` nodes there and {glue:text}`erm_test_Nmax:.1f` on the test set, against {glue:text}`default_test:.1f` for the
# default weight and {glue:text}`best_test:.1f` for the best weight chosen on the test set itself.
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
    tests=["gap-shrinks-with-N", "dual-count"])
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

COUNT = tolerance(rel=0.05, abs=0.02, why="tree sizes are counts decided by LP bounds compared at a 1e-9 slack; "
                  "a near-tie could move a count under other float kernels")
claims.test(
    "gap-shrinks-with-N",
    statement=f"log-log slope of sup_mu |train mean - test mean| tree size against N (N in {list(P.Ns)}, "
              f"{P.test} test instances, linear score family)",
    paper="uniform convergence at rate ~ sqrt(pdim log N / N) for piecewise-polynomial scores; no numbers",
    criterion=at_most(-0.3), measured=slope,
    ablation=Comparator("the same linear scores with mu chosen separately for every instance (unbounded "
                        "pseudo-dimension), same cost matrices", slope_abl,
                        ingredient="one weight shared by all instances through a score with finitely many pieces "
                                   "(bounded pseudo-dimension)"),
    baselines=[Comparator(f"a fixed default mu = {MU_DEFAULT}, no tuning (a class of one policy)", slope_fixed),
               Comparator("201 randomised policies, each drawing mu uniformly afresh for every instance (a finite "
                          "class of the grid's size, no shared parameter)", slope_random)],
    tol=COUNT)
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
        "of an interval (the counting step of Balcan et al.'s and the paper's argument), true of any profiles")

# %%
test_mean_mu = C_test.mean(axis=0)
erm_arr = np.array(erm_rows)
glue("pieces_median", float(np.median(n_pieces)), display=False)
glue("pieces_max", int(n_pieces.max()), display=False)
glue("test_spread_pct", float(100 * (test_mean_mu.max() - test_mean_mu.min()) / test_mean_mu.min()), display=False)
glue("N_min", int(P.Ns[0]), display=False)
glue("N_max", int(P.Ns[-1]), display=False)
glue("slope", float(slope), display=False)
glue("slope_abl", float(slope_abl), display=False)
glue("slope_fixed", float(slope_fixed), display=False)
glue("slope_random", float(slope_random), display=False)
glue("slope_exact", float(slopes[EXA]), display=False)
glue("gap_N1", float(mean_gap[LIN][0]), display=False)
glue("gap_Nmax", float(mean_gap[LIN][-1]), display=False)
glue("gap_fixed_N1", float(mean_gap[FIX][0]), display=False)
glue("gap_fixed_Nmax", float(mean_gap[FIX][-1]), display=False)
glue("gap_random_N1", float(mean_gap[RND][0]), display=False)
glue("gap_random_Nmax", float(mean_gap[RND][-1]), display=False)
glue("gap_abl_N1", float(mean_gap[ABL][0]), display=False)
glue("gap_abl_Nmax", float(mean_gap[ABL][-1]), display=False)
glue("gap_exact_Nmax", float(mean_gap[EXA][-1]), display=False)
glue("exact_minus_grid", float(max(np.max(gaps[EXA][N] - gaps[LIN][N]) for N in P.Ns)), display=False)
glue("se_test", se_test, display=False)
glue("se_over_gap", float(se_test / mean_gap[LIN][-1]), display=False)
glue("erm_test_Nmax", float(erm_arr[erm_arr[:, 0] == P.Ns[-1], 2].mean()), display=False)
glue("erm_train_Nmax", float(erm_arr[erm_arr[:, 0] == P.Ns[-1], 1].mean()), display=False)
glue("default_test", float(C_test[:, g0].mean()), display=False)
glue("random_mu_test", float(C_test.mean()), display=False)
glue("best_test", float(test_mean_mu.min()), display=False)
glue("bp_grid", bp1, display=False)
glue("bp_exact", exact_bp, display=False)
glue("rise_pct", float(100 * rise), display=False)
glue("d_hat", int(d_hat), display=False)
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
# The page has one counted test, and it says that the paper's ingredient is not needed for what our miniature
# can measure.
#
# * *The gap shrinks with $N$*, {repro-status}`gap-shrinks-with-N`. The uniform gap of the linear family has
#   a log-log slope of {glue:text}`slope:.2f` at this seed, against the brief's bar of $-0.3$; over the ci seeds the family
#   passes at {repro-seeds}`gap-shrinks-with-N:method:pass`. Without a weight shared across instances (one
#   $\mu$ per instance, the ablation) the gap barely falls (slope {glue:text}`slope_abl:.2f`; it fails at
#   {repro-seeds}`gap-shrinks-with-N:ablation:fail`). But the two naive classes fall about as fast: a fixed default
#   weight with no tuning (slope {glue:text}`slope_fixed:.2f`; passes at
#   {repro-seeds}`gap-shrinks-with-N:baseline1:pass`) and 201 randomised policies with no structure at all
#   (slope {glue:text}`slope_random:.2f`; passes at {repro-seeds}`gap-shrinks-with-N:baseline2:pass`). The
#   test holds, with every comparator failing, at {repro-seeds}`gap-shrinks-with-N:test:reproduced`.
#
# What this means: a gap that shrinks with $N$ is what every class of bounded capacity shows, a single policy
# by the law of large numbers and any finite class by the union bound. It separates bounded from unbounded
# classes (the ablation), but it cannot single out the paper's way of bounding the capacity, which matters
# for infinite classes with many parameters. In our one-parameter family the infinite class behaves like a
# finite one: its exact sup over every $\mu$ differs from the grid's by at most
# {glue:text}`exact_minus_grid:.2f` nodes, because the profiles have few pieces. Whether the paper's bound
# for richer (multi-parameter, ReLU) scores is needed, and whether it is tight, our miniature cannot tell.
#
# The other checks are shown and not counted. Our branch-and-bound returns the optimum found by enumeration on
# every instance and its tree size equals the exact profile's (implementation checks); the grid sees
# {glue:text}`bp_grid` of the {glue:text}`bp_exact` exact breakpoints (an implementation check of the grid);
# the count of distinct cost vectors stays under $1+\sum_i b_i$ (the counting step, which cannot fail).
# Tuning $\mu$ by ERM is not claimed by the paper: at ci scale the mean test tree size varies by
# {glue:text}`test_spread_pct:.0f`% across $\mu$, and at this seed the weight tuned on
# {glue:text}`N_max` instances reaches {glue:text}`erm_test_Nmax:.1f` test nodes against the default's
# {glue:text}`default_test:.1f`.
# The textbook bound drawn with our constants lies far above the measured gap, as such bounds do at these
# sizes. Full-scale values ($n=12$, 256 training and 200 test instances, $N$ up to 128) are in the full-scale
# column of the judged table.
#
# ## What a skeptic would try
#
# Reviewed by: (pending). An independent reviewer comes after this conversion; until then this list is the
# converting author's. Each alternative is measured by this notebook on the same instances, the same training
# splits and the same test set (values at this seed; counts over the ci seeds 0-9):
#
# * *No tuning at all: a fixed default $\mu=0.5$* (baseline 1). Its gap falls from
#   {glue:text}`gap_fixed_N1:.1f` to {glue:text}`gap_fixed_Nmax:.1f` nodes, slope {glue:text}`slope_fixed:.2f`; it
#   passes the test's criterion at {repro-seeds}`gap-shrinks-with-N:baseline1:pass`. The criterion rewards the
#   law of large numbers.
# * *A finite class of the grid's size without structure: 201 randomised policies* (baseline 2). Its gap falls
#   from {glue:text}`gap_random_N1:.1f` to {glue:text}`gap_random_Nmax:.1f` nodes, slope
#   {glue:text}`slope_random:.2f`; it passes at {repro-seeds}`gap-shrinks-with-N:baseline2:pass`. The sup over a
#   201-point grid is a sup over 201 policies, and the union bound alone makes it shrink.
# * *The infinite class itself*: the exact sup over every $\mu\in[0,1]$, from the exact profiles, is
#   {glue:text}`gap_exact_Nmax:.1f` nodes at $N=${glue:text}`N_max` (slope {glue:text}`slope_exact:.2f`), within
#   {glue:text}`exact_minus_grid:.2f` nodes of the grid's at every split. So the finite-class baseline is a fair
#   stand-in: the grid loses nothing of the infinite family here.
# * *One $\mu$ per instance* (the ablation, the page's first control): slope {glue:text}`slope_abl:.2f`. It
#   fails at {repro-seeds}`gap-shrinks-with-N:ablation:fail` and passes at
#   {repro-seeds}`gap-shrinks-with-N:ablation:pass`; its gap falls a little
#   because the larger of two noisy differences of means is smaller on average at larger $N$, not because it
#   generalises.
# * *The floor of a finite test set*: the standard error of the test mean at the default weight is
#   {glue:text}`se_test:.1f` nodes, {glue:text}`se_over_gap:.2f` of the family's gap at the largest $N$. Part of
#   every measured gap is the test set's own noise, which does not shrink with $N$ and flattens every slope
#   alike.
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
# * A test that separates the paper's bound from a naive one: any class of bounded capacity, a single
#   policy or a finite menu, shows a shrinking gap, so "the gap shrinks" cannot be specific to the paper's
#   argument at any scale. A specific test would need the bound's constants (to check it against a Monte
#   Carlo gap where it is tight), which we do not have.
# * Realistic instances: solver-scale trees have thousands of nodes, many more pieces per profile, and the
#   gap's constant grows with them; our knapsacks have 10-12 items and trees of tens to a few hundred
#   nodes.
# * The expectation: we estimate it by a finite test set, whose own noise floors the measured gap.
