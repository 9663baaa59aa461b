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

from repro.claims import Claims, at_most, is_true, tolerance
from repro.papers import bnc_policy_generalization as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    # about 6 s of CPU on one thread: 64 knapsacks with 10 items, 2 constraints
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
TEETH = 64                          # sawtooth control: mu -> frac(64 mu)

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
# code**. Everything below is our numerical illustration of the theorem's mechanism and its
# consequence on a toy problem, not a check of its constants.
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
# the simplest case of the paper's piecewise-polynomial scores (one piece, degree 1, one parameter).
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
# averaged over disjoint training sets of size $N$ cut from a pool of training instances.
#
# ## The experiment
#
# * **Instances** (generated in code): random binary multi-dimensional knapsacks with $m=2$ constraints,
#   weights $a_{ij}\sim U(1,10)$, capacities half the total weight, profits weakly correlated with the
#   weights ($p_j=\bar a_j+U(0,5)$), written as minimisation of $-p^\top x$. $n=10$ items at ci scale,
#   $n=12$ at full scale.
# * **Every incumbent is checked**: for every instance, $z^*$ from `scipy.optimize.milp` (HiGHS), our
#   B&B at $\mu=0.5$ must return the same objective, and its tree size must equal the exact profile's
#   value at $0.5$.
# * **Training pool and test set**: 32 and 32 instances at ci ($N\in\{2,4,8,16\}$, so 16, 8, 4 and 2
#   disjoint training sets), 256 and 200 at full scale ($N\in\{2,\dots,128\}$).
#
# **Claims, fixed before the first run** (each with its control):
#
# 1. *The gap shrinks with $N$* (the theorem's consequence): the least-squares log-log slope of
#    $\mathrm{gap}(N)$ against $N$ is $\le-0.3$ (the brief's threshold; the bound's shape
#    $\sqrt{d\log N/N}$ has slope about $-0.4$ to $-0.5$). *Control*: the same gap for a class of unbounded
#    pseudo-dimension, in which every instance gets its own $\mu$ (as a rule that looks up $\mu$ in a hash
#    of the instance would), computed on the same cost matrices (`K.per_instance_gap`). Its gap should not
#    shrink.
# 2. *The profile has few, resolvable pieces* (the mechanism): doubling the grid from 201 to 401 points
#    raises the total number of breakpoints counted on the instances' profiles by at most 10% (the
#    brief's threshold). *Control*: a deliberately wrong input, the same family composed with a
#    64-tooth sawtooth $\mu\mapsto\{64\mu\}$. Its scores are still piecewise linear in $\mu$, but with 64
#    times as many pieces, more than the grid resolves.
#
# Implementation checks (listed apart, not counted): every incumbent equals `milp`'s optimum; B&B tree
# sizes equal the exact profile; the distinct cost vectors number at most $1+\sum_i b_i$.
#
# **Deviations from the paper**
#
# * The paper proves bounds and runs nothing; there is no setting of the paper to match. Data, sizes,
#   features and policy class are the brief's design or ours.
# * Branch-and-*bound* only: no cuts and no learned node selection (best-bound first is fixed). The paper
#   covers node, cut and branching scores; we learn only the branching score.
# * One parameter, a linear score. The brief's two-parameter ReLU unit (full scale) and Gomory cuts were
#   not built in the time available.
# * The expectation in the bound is replaced by a held-out test mean of 32 (ci) or 200 (full) instances. Its
#   own noise, of order $\sigma/\sqrt M$, puts a floor under the measured gap and flattens the slope at
#   large $N$.
# * The sup over $\mu$ is over the 201-point grid, not over $[0,1]$. The exact profiles show that this
#   misses at most the pieces narrower than the grid step (claim 2).
# * Instances: $n=10$ (ci) and $12$ (full) items, $m=2$ constraints, weak correlation $\rho=1$, our choices
#   within the brief's 12-15 items and 2-3 constraints ($n=10$ at ci for the time budget).
# * LP relaxations: an exact Lagrangian-dual solver for packing constraints (`K.dual_lp_relaxation`; each
#   solution is certified by primal feasibility and a zero duality gap, with a fall-back to HiGHS), about
#   10 times faster than `scipy.optimize.linprog` at these sizes. Unit tests compare it with HiGHS.
# * The bound drawn in the figures is a textbook pseudo-dimension bound with our constants
#   (`K.uniform_convergence_bound`), not the paper's, which we could not read; only its shape is
#   compared.

# %%
def make_instances(count, rng, desc):
    """Draw `count` instances; return their exact profiles, z*, and the B&B incumbent checks at mu = 0.5."""
    out = dict(profiles=[], z=[], ok_incumbent=[], ok_size=[], n_lp=0, n_fallback=0)
    for _ in progress(range(count), desc=desc):
        c, A, b = K.random_knapsack(P.n, P.m, rng)
        z = K.milp_optimum(c, A, b)
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
# ### The uniform gap against the number of training instances

# %%
gaps, gaps_ctrl, erm_rows = {}, {}, []
for N in P.Ns:
    splits = np.arange(P.pool // N * N).reshape(-1, N)  # disjoint training sets of size N
    gaps[N] = np.array([K.uniform_gap(C_train[s], C_test) for s in splits])
    gaps_ctrl[N] = np.array([K.per_instance_gap(C_train[s], C_test) for s in splits])
    for s in splits:
        mu_hat = K.erm_select(C_train[s], GRID)
        g = np.searchsorted(GRID, mu_hat)
        erm_rows.append((N, C_train[s][:, g].mean(), C_test[:, g].mean()))
Ns = np.array(P.Ns, dtype=float)
mean_gap = np.array([gaps[N].mean() for N in P.Ns])
mean_ctrl = np.array([gaps_ctrl[N].mean() for N in P.Ns])
slope, slope_ctrl = loglog_slope(Ns, mean_gap), loglog_slope(Ns, mean_ctrl)
b_max = int(K.count_breakpoints(np.vstack([C_train, C_test])).max())
d_hat = K.pdim_upper_bound(b_max)
H = float(max(C_train.max(), C_test.max()))
print("N:", list(P.Ns), " mean gap:", np.round(mean_gap, 2), f" slope {slope:.2f}")
print("per-instance class (control):", np.round(mean_ctrl, 2), f" slope {slope_ctrl:.2f}")
print(f"max breakpoints per profile on the grid b = {b_max} -> pseudo-dimension bound d <= {d_hat}; H = {H:g} nodes")

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 4))
ax = axes[0]
for N in P.Ns:
    ax.plot(np.full(gaps[N].size, N), gaps[N], ".", color="C0", alpha=0.35, ms=5)
ax.loglog(Ns, mean_gap, "o-", color="C0", label=f"linear class, mean over splits (slope {slope:.2f})")
ax.loglog(Ns, mean_ctrl, "s-", color="C3", label=f"per-instance $\\mu$, control (slope {slope_ctrl:.2f})")
big = Ns >= d_hat  # the textbook bound is stated for N >= d
if big.any():
    ax.loglog(Ns[big], K.uniform_convergence_bound(Ns[big], d_hat, H), "k-", lw=1,
              label=f"pseudo-dim. bound, our constants ($d\\leq{d_hat}$, $H={H:g}$, $\\delta=0.1$)")
shape = np.sqrt((d_hat * np.log(np.e * Ns) + np.log(10)) / Ns)
ax.loglog(Ns, shape * mean_gap[0] / shape[0], "k--", lw=1,
          label=r"bound's shape $\sqrt{(d\ln eN+\ln 1/\delta)/N}$, through the first point")
ax.set(xlabel="training instances N", ylabel=r"$\sup_\mu$ |train mean - test mean| (nodes)",
       title="Uniform generalisation gap", xticks=Ns, xticklabels=[f"{N:g}" for N in Ns])
ax.minorticks_off()
ax.legend(fontsize=7)
erm = np.array(erm_rows)
ax = axes[1]
for col, lab, mk in ((1, "ERM policy, training mean", "v"), (2, "ERM policy, test mean", "^")):
    means = [erm[erm[:, 0] == N, col].mean() for N in P.Ns]
    sds = [erm[erm[:, 0] == N, col].std() for N in P.Ns]
    ax.errorbar(Ns, means, yerr=sds, marker=mk, capsize=3, label=lab)
ax.axhline(C_test.mean(axis=0).min(), color="k", lw=1, ls="--", label=r"best $\mu$ on the test set")
ax.axhline(C_test.mean(), color="0.5", lw=1, ls=":", label=r"$\mu$ uniform at random (test)")
ax.set(xscale="log", xlabel="training instances N", ylabel="mean tree size (nodes)",
       title="Tuning mu by ERM (mean ± sd over splits)", xticks=Ns, xticklabels=[f"{N:g}" for N in Ns])
ax.minorticks_off()
ax.legend(fontsize=7)
plt.show()

# %% [markdown]
# ### Do the pieces resolve on the grid?
#
# The brief's check of the mechanism: count the breakpoints of every profile on the 201-point grid and
# on a grid twice as fine. A profile with a few wide pieces loses nothing; the sawtooth control, the same
# family with 64 teeth in $\mu$, has more pieces than either grid can see.

# %%
C_all = np.vstack([C_train, C_test])
C_all2 = np.array([K.profile_on_grid(e, s, GRID2) for e, s in train["profiles"] + test["profiles"]])
saw = lambda mus: np.minimum((TEETH * mus) % 1.0, 1.0 - 1e-12)  # noqa: E731
C_saw = np.array([[K.profile_on_grid(e, s, [v])[0] for v in saw(GRID)] for e, s in train["profiles"][:8]])
C_saw2 = np.array([[K.profile_on_grid(e, s, [v])[0] for v in saw(GRID2)] for e, s in train["profiles"][:8]])
bp1, bp2 = K.count_breakpoints(C_all).sum(), K.count_breakpoints(C_all2).sum()
exact_bp = int(sum(len(s) - 1 for _, s in train["profiles"] + test["profiles"]))
rise = (bp2 - bp1) / bp1
rise_saw = (K.count_breakpoints(C_saw2).sum() - K.count_breakpoints(C_saw).sum()) / K.count_breakpoints(C_saw).sum()
print(f"breakpoints: exact {exact_bp}, on 401 points {bp2}, on 201 points {bp1} (rise {rise:.3f}); "
      f"sawtooth control rise {rise_saw:.3f}")

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
# ### The paper's numbers
#
# | setting | the paper | ours (this run) |
# |---|---|---|
# | any | no experiments: a pseudo-dimension bound, constants not retrieved | gap slope and pieces in the claims table below |
# | bound's shape | $\sqrt{(d\log N+\log 1/\delta)/N}$ (standard uniform convergence) | dashed line in the gap figure |
#
# There are no reported numbers to set beside ours (a reviewer found experiments "nice, but not
# required").

# %%
COUNT = tolerance(rel=0.05, abs=0.02, why="tree sizes are counts decided by LP bounds compared at a 1e-9 slack; "
                  "a near-tie could move a count under other float kernels")
claims.check("gap-shrinks-with-N", kind="theorem",
             statement=f"log-log slope of sup_mu |train mean - test mean| tree size against N (N in {list(P.Ns)}, "
                       f"{P.test} test instances, linear score family)",
             paper="uniform convergence at rate ~ sqrt(pdim log N / N) for piecewise-polynomial scores; no numbers",
             criterion=at_most(-0.3), measured=slope, control=slope_ctrl,
             control_label="class with a separate mu per instance (unbounded pseudo-dimension), same cost matrices",
             tol=COUNT)
claims.check("grid-resolves-pieces", kind="theorem",
             statement="relative rise of the breakpoints counted on all profiles when the mu grid doubles (201 -> 401)",
             paper="cost is piecewise constant in the parameters with finitely many pieces (mechanism of the bound)",
             criterion=at_most(0.1), measured=float(rise), control=float(rise_saw),
             control_label=f"same family through a {TEETH}-tooth sawtooth mu -> frac({TEETH} mu) (8 instances)",
             tol=COUNT)
claims.check("incumbents-match-milp", kind="implementation",
             statement=f"our B&B (mu = 0.5) returns scipy.optimize.milp's optimum on all {P.pool + P.test} instances",
             paper="(our code)", criterion=is_true(), measured=bool(all(train["ok_incumbent"] + test["ok_incumbent"])))
claims.check("bnb-equals-exact-profile", kind="implementation",
             statement="B&B tree size at mu = 0.5 equals the exact profile's value on every instance",
             paper="(our code)", criterion=is_true(), measured=bool(all(train["ok_size"] + test["ok_size"])))
claims.check("dual-count", kind="implementation",
             statement="distinct cost vectors of the training pool over the grid <= 1 + total breakpoints",
             paper="counting step of the pseudo-dimension argument",
             criterion=is_true(),
             measured=bool(K.distinct_cost_vectors(C_train) <= 1 + K.count_breakpoints(C_train).sum()))

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Reproduced at ci scale, seed 0 (one draw), with a small margin on the central claim.** Both
# pre-registered claims hold against controls that fail. The statements are our numerical stand-ins for
# the paper's theorem: the theorem itself (its constants, its count of pieces) was not available.
#
# Over ci seeds 0-9 (the table "Across seeds and scales" above, from `make sweep`) the central claim is
# **seed-sensitive**: the gap's slope is $\le-0.3$ at 9 of 10 seeds (median $-0.41$, range $-0.69$ to
# $-0.26$), it fails at seed 3 ($-0.26$), and at seed 6 the per-instance control reaches $-0.33$ too, so the
# claim is uninformative there; it counts as reproduced at 8 seeds. The grid check holds at every seed
# (rise 1.1% to 3.6%, the sawtooth control 49% to 78%). At full scale (seeds 0-2, $n=12$, 256 training
# and 200 test instances, $N$ from 2 to 128) both claims hold at every seed, with controls that fail at
# every seed; the same table carries the values. With seven sizes over a factor of 64 and a larger test
# set, the slope there is less exposed to the test-set floor than the ci slope, which rests on four sizes.
#
# * *The gap shrinks with N.* The uniform gap between training and test mean tree size falls from about 35
#   nodes at $N=2$ to about 17 at $N=16$, a log-log slope of $-0.37$ against the brief's $\le-0.3$. The
#   class that gives every instance its own $\mu$ (unbounded pseudo-dimension) keeps a gap of 27-44 nodes,
#   slope $-0.24$: its gap falls a little because the larger of two noisy differences is smaller on average
#   at larger $N$, not because it generalises. The margin between the two slopes is small: with 32
#   test instances the test mean's own noise floors the gap at large $N$, and at ci the slope rests on
#   four sizes with only 2 disjoint training sets at $N=16$.
# * *The pieces are few.* The exact profiles have a median of 7 pieces (at most 24) on $[0,1]$; the
#   201-point grid sees 427 of the 437 exact breakpoints, and doubling it adds 1.4% (criterion $\le10\%$).
#   The 64-tooth sawtooth control, still piecewise linear in $\mu$ but with 64 times the pieces, gains 61%.
# * *Our code.* Every incumbent equals `scipy.optimize.milp`'s optimum, and the B&B tree size equals the
#   exact profile at $\mu=0.5$ on all 64 instances (implementation checks, not counted).
# * *Not claimed, shown:* tuning $\mu$ by ERM (right panel of the gap figure) is optimistic on the
#   training set by roughly the measured gap, and at ci scale it does not beat a random $\mu$ on the test
#   set: mean tree sizes vary by only about 15% across $\mu$, less than the noise of small training sets.
#   The bound drawn with textbook constants is an order of magnitude above the measured gap, as such bounds
#   are at these sizes; only its shape can be compared.
#
# ## What the miniature cannot show
#
# * The paper's bound itself: its constants and its dependence on the number of pieces, the degree, the
#   parameter dimension and the tree size were not available, and a bound of this kind is far above the
#   measured gap at these sizes (the solid line of the gap figure).
# * Cuts, node selection and multi-parameter or neural scores: we learn one linear branching weight.
#   With $d$ parameters the profile becomes piecewise constant on a polynomial arrangement in
#   $\mathbb R^d$, which is what the paper counts, and the pieces multiply.
# * Realistic instances: solver-scale trees have thousands of nodes, many more pieces per profile, and the
#   gap's constant grows with them; our knapsacks have 10-12 items and trees of tens to a few hundred
#   nodes.
# * The expectation: we estimate it by a finite test set, whose own noise floors the measured gap.
