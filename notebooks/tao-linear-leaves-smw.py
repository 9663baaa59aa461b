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
# # Faster TAO for regression trees with linear leaves (Sherman–Morrison–Woodbury)
#
# *Solving each leaf's ridge regression in its $n_\ell\times n_\ell$ dual form gives exactly the same
# TAO tree, and past a critical depth (about $\log_2(N/D)$ by our count) a deeper tree makes the leaf step
# cheaper.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import time

import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue
from sklearn.datasets import make_friedman1
from sklearn.linear_model import Ridge
from sklearn.tree import DecisionTreeRegressor

from repro.claims import Claims, at_least, at_most, between, is_true, less_than, tolerance
from repro.papers import tao_linear_leaves_smw as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # ci: D kept moderate so the primal D^3 solves stay cheap; flop claims at the paper's sizes are analytic
    "ci": dict(N=2000, D=300, depth=5, iters=5, lam=10.0, depths=[2, 3, 4, 5, 6, 7],
               sweep_iters=1, repeats=3, D_low=10, lams=[0.1, 1.0, 10.0]),
    "full": dict(N=3000, D=1000, depth=5, iters=5, lam=10.0, depths=[1, 2, 3, 4, 5, 6, 7, 8],
                 sweep_iters=3, repeats=3, D_low=10, lams=[0.01, 0.1, 1.0, 10.0, 100.0]),
})
claims = Claims(
    "tao-linear-leaves-smw",
    title="A faster training algorithm for regression trees with linear leaves, and an analysis of its complexity",
    authors="Kuat Gazizov, Miguel Á. Carreira-Perpiñán",
    paper_url="https://openreview.net/forum?id=urDdBuhbLx",
    scale=scale, seed=seed,
)

# %% [markdown]
# ## The claim
#
# Tree Alternating Optimization (TAO) trains a tree of fixed structure by repeatedly re-optimising
# one set of nodes while all others stay fixed. For a regression tree whose leaves hold linear
# models, the leaf step is a ridge regression on the instances that reach that leaf. The paper
# observes that this step can be computed *exactly* but more cheaply by the Sherman–Morrison–Woodbury
# (push-through) identity, because each leaf sees only a few of the $N$ training points. Three
# consequences are claimed. We show each one, but, as explained under *The method*, none of them can be
# tested here, so this page is illustrated, not tested:
#
# 1. **The same tree.** The modified TAO returns exactly the tree standard TAO returns; only the
#    arithmetic differs.
# 2. **Much faster.** The saving is largest for high input dimension $D$ and deep trees.
# 3. **Deeper is faster.** Past a critical depth, a deeper tree (more leaves and more parameters) is
#    *faster* to train, and the paper adds that this can make learning the tree asymptotically faster than
#    fitting one linear regression. We show this on the leaf step, the part the modification changes.
#
# The abstract gives no numbers, and we could not reach the paper's text: its complexity statement, data
# sets and measured speed-ups were not available to us. There is therefore no table of the paper's numbers
# beside ours on this page; every number below is ours.
#
# TAO's guarantee that the objective never increases, and its better accuracy than greedy CART trees,
# come from earlier TAO work. The first holds in our code by construction (every step is exact or
# accepted only if it lowers the objective), so it is a check of our implementation, not a claim. The
# second is shown as an illustration, beside TAO with constant leaves: the leaf solver cannot change it.
#
# ## The method
#
# **Tree and objective.** We use a complete oblique binary tree of depth $\Delta$. Decision node $i$
# sends $x$ right iff $w_i^\top x + b_i > 0$, and leaf $\ell$ predicts $\theta_\ell^\top x + c_\ell$.
# TAO minimises
#
# $$E = \sum_{n=1}^N \big(y_n - f(x_n)\big)^2 + \lambda \sum_{\ell} \|\theta_\ell\|^2 .$$
#
# **Leaf step.** With every decision node fixed, leaf $\ell$ owns a reduced set of $n_\ell$ instances,
# $X_\ell \in \mathbb{R}^{n_\ell\times D}$ (centred, which handles the unpenalised intercept $c_\ell$), and its
# exact update is a ridge regression. The two forms are equal by the push-through identity:
#
# $$\theta_\ell = (X_\ell^\top X_\ell + \lambda I_D)^{-1} X_\ell^\top y_\ell
#              = X_\ell^\top (X_\ell X_\ell^\top + \lambda I_{n_\ell})^{-1} y_\ell .$$
#
# The primal form costs about $n_\ell D^2 + D^3/3$ flops (Gram matrix, then Cholesky). The dual
# (Woodbury) form costs about $n_\ell^2 D + n_\ell^3/3$. The two counts are equal at $n_\ell = D$.
# Both are solved with `scipy.linalg.cho_factor`/`cho_solve` (`K.ridge_primal`, `K.ridge_woodbury`).
# The fast TAO ("auto") takes the cheaper form for each leaf.
#
# **Our complexity model.** For $L = 2^\Delta$ balanced leaves ($n_\ell = N/L$) the leaf step costs
#
# $$\text{primal: } N D^2 + L\,D^3/3, \qquad \text{Woodbury: } N^2 D/L + N^3/(3L^2).$$
#
# The primal cost *grows* with depth and the Woodbury cost *falls* with depth. The cheaper of the two
# is largest where $N/L = D$, that is at the **critical depth $\Delta^\ast = \log_2(N/D)$**. Deeper than
# that, the leaf step gets cheaper with every level. It also undercuts one global ridge regression
# ($N D^2 + D^3/3$) once roughly $L > N/D$. This is our own derivation; the paper's exact statement
# was not available to us. A secondary summary gives the same critical depth.
#
# **Decision-node step (kept simple).** The instances that reach node $i$ are split between its two
# subtrees, which stay fixed. Each instance gets the label of the child that gives it the lower squared
# error, weighted by the difference in error. We fit the oblique split by weighted ridge least squares
# on $\pm 1$ targets and **accept it only if it lowers the node's share of $E$**. So every step, leaf or
# decision node, leaves $E$ no larger, by construction; we still check this numerically. Nodes at the
# same depth own disjoint sets of instances, so they are updated together. One TAO iteration is: all
# leaves, then the decision levels from the bottom up. The decision step is identical in every variant
# below; only the leaf solver differs.
#
# **Counting the work.** Both leaf solvers are counted in the same unit: the arithmetic operations the
# leaf step actually performs at the leaf sizes of the run, that is the solve above plus the centring
# ($2n_\ell D$ for the means and subtractions) and the intercept, which every solver does alike
# (`K.leaf_work`). A count is only a proxy for time, so each counted speed ratio is set beside the
# wall-clock ratio of the same two computations. We ask the two to agree within a factor of 2, and where
# they do not, the Verdict says why.
#
# **Why the speed claims are illustrations, not tests.** Each counted ratio is our own formula
# (`K.leaf_work`) read at leaf sizes that the setting fixes: the initial tree splits every node at its
# median, so the leaves hold about $N/L$ instances each, and they still do after the TAO iteration of the
# depth sweep. The balanced formula at the preset sizes predicts each ratio before any tree is trained; the
# Verdict sets the prediction beside the count. Nothing the tree learns can make these ratios fail unless $N$, $D$ or the depth
# changes. The saving itself is classical. It is the dual (kernel) ridge solve, which is cheaper when
# $n_\ell < D$; scikit-learn's own `Ridge` switches to it when a problem has more features than instances.
# The one measurement that is independent of our formula is the clock. Under the book's rules wall-clock
# times vary with the machine and the load, so they are never counted. The three speed ratios are therefore
# recorded as illustrations, and the page's verdict is "illustrated, not tested".
#
# **Comparisons.** Each counted ratio of the fast TAO's leaf step is shown beside two others, under the same
# count:
#
# - the same TAO **without the Woodbury form** (standard TAO: every leaf solved in the primal,
#   `K.ridge_primal`);
# - a *naive* exact solver that uses none of the paper's ideas: every leaf solved **exactly by the thin SVD**
#   of its reduced set, $\theta_\ell = V\,\mathrm{diag}(s/(s^2+\lambda))\,U^\top y_\ell$ (`K.ridge_svd`, the
#   textbook ridge solve and scikit-learn's `solver="svd"`). Its cost, about $6mk^2+20k^3$ flops for
#   $m=\max(n_\ell,D)$, $k=\min(n_\ell,D)$ (Golub and Van Loan's count for the R-SVD), also shrinks with the
#   leaf, but with a larger constant than the dual Cholesky solve. It has no hyper-parameter to choose.
#
# Two other comparisons are shown but not counted: TAO with a fast but **inexact** dual leaf step (10
# conjugate-gradient steps, `K.ridge_dual_cg`), which shows that the "same tree" measurement can see a leaf
# step that is not exact; and TAO with **constant leaves** beside CART.

# %% [markdown]
# ## The experiment
#
# - **Speed and equality data:** `make_friedman1` with $N$ training and $N$ test points and $D$ features,
#   only 5 of which matter (ci: $N=2000$, $D=300$; full: $N=3000$, $D=1000$), and leaf penalty $\lambda=10$.
# - **Same tree:** TAO at depth 5 for 5 iterations from one random initial tree (balanced random oblique
#   splits), once with primal leaves and once with Woodbury leaves. We compare the predictions, the
#   routing and the objective traces.
# - **Depth sweep:** one tree per depth ($\Delta = 2,\dots,7$ at ci, $1,\dots,8$ at full; trained by fast
#   TAO). On each tree we run the leaf step with the primal, the Woodbury and the auto solver (and the
#   thin-SVD solver at depths 3, 5 and 7). We **count** its arithmetic at the actual leaf sizes and **time**
#   it (best of 3, one thread). One global ridge regression, computed by the same code as a tree of depth 0
#   (`K.global_ridge_step`), is counted and timed as the reference for "faster than one regression".
# - **Flop model at the paper-scale sizes:** $N=2000$, $D=1000$, drawn in the first figure. It is a
#   formula evaluated at fixed sizes, so its values are properties of the formula, not measurements: they
#   are unit tests of our code (`test_flop_model_at_the_paper_sizes`), not claims. At these sizes we time
#   the fast leaf step and the thin-SVD leaf step at depths 3 and 7, and one global ridge regression. The
#   primal leaf solves at $D=1000$ are too slow for CI.
# - **Accuracy:** test RMSE of TAO at depth 5 against scikit-learn's CART (`DecisionTreeRegressor`,
#   same depth) and a global ridge regression. The leaf penalty is picked from a small grid on a
#   validation split of the training data. We use two settings: Friedman1 with $D=10$ (where linear leaves
#   make sense) and the high-dimensional speed data set. The control is TAO from the same initial tree with
#   constant leaves.
#
# **Deviations from the paper**
#
# - Synthetic data (Friedman1) instead of the paper's UCI sets, Fashion-MNIST patches and CIFAR10, and
#   $N$ in the thousands rather than larger.
# - Our own decision-node step: weighted least-squares surrogate plus an accept-if-better test. The
#   paper's TAO solves a weighted classification problem at each node, for example with logistic
#   regression.
# - Random initial tree, 5 TAO iterations (the paper reports 20), no pruning, complete trees only.
# - The "faster" claim is about the **leaf step**, timed separately. We do not apply Woodbury to the
#   decision nodes' own solves; they use the cheaper form in every variant, so they do not bias the comparison.
# - The complexity analysis is our own derivation. The paper's exact theorem and its timing numbers
#   were not available to us, so there is no paper number to set beside ours.
# - The comparators (primal-only TAO as the ablation, thin-SVD leaves as the naive baseline) and the shown
#   controls (inexact CG leaf step, constant leaves) are our choice; the paper compares against standard TAO,
#   CART, M5 and others on real data.
# - Changed after the first run (marked † in the claims table): the work count now includes the
#   centring every solver does; "deeper is cheaper" and "cheaper than one regression" are counted at the
#   sizes we actually run instead of being read off the formula at $D=1000$; the wall-clock
#   "deeper is faster" check was moved from $D=300$ to $D=1000$ after the first run.
# - Changed for issue 34 (the claim model): the three counted tests keep their measurement and threshold and
#   gain their comparators (primal-only TAO, thin-SVD leaves). "Same tree" and "same routing" became
#   implementation checks (the push-through identity is algebra), the critical depth an illustration (our
#   flop model at our sizes), and TAO against CART an illustration (prior TAO work, which the leaf solver
#   cannot change). The single controls of the old page are gone from the record.
# - Changed after the independent review: the three counted speed tests became illustrations. Each is our own
#   work formula read at sizes the setting fixes, and the saving is the classical dual ridge solve (see
#   *The method*). Their ids, measurements and thresholds are unchanged. The wall clock of "faster than one
#   regression" (depth-7 leaf step over one global ridge, at $D=300$ and at $D=1000$) was added as a timing,
#   and so were the thin-SVD leaves in the $D=1000$ "deeper" timing.

# %%
X, y = make_friedman1(n_samples=2 * P.N, n_features=P.D, noise=1.0, random_state=P.seed)
Xtr, ytr, Xte, yte = X[: P.N], y[: P.N], X[P.N :], y[P.N :]
T0 = K.init_tree(Xtr, ytr, P.depth, P.rng)

fits, wall_fit = {}, {}
for solver in ("primal", "woodbury"):
    t0 = time.perf_counter()
    fits[solver] = K.tao_fit(T0, Xtr, ytr, P.lam, P.iters, solver)
    wall_fit[solver] = time.perf_counter() - t0

(Tp, hist_p), (Tw, hist_w) = fits["primal"], fits["woodbury"]
Tcg, hist_cg = K.tao_fit(T0, Xtr, ytr, P.lam, P.iters, "dual-cg")  # control: inexact leaf step
Xall = np.vstack([Xtr, Xte])
fp, fw, fcg = (K.tree_predict(T, Xall) for T in (Tp, Tw, Tcg))
pred_rel_diff = float(np.max(np.abs(fp - fw)) / np.max(np.abs(fp)))
pred_rel_diff_cg = float(np.max(np.abs(fp - fcg)) / np.max(np.abs(fp)))
same_routing = bool(np.array_equal(K.route(Tp, Xall), K.route(Tw, Xall)))
same_routing_cg = bool(np.array_equal(K.route(Tp, Xall), K.route(Tcg, Xall)))
print(f"Woodbury leaves: max relative prediction difference {pred_rel_diff:.1e}; identical routing: {same_routing}")
print(f"control, {K.CG_STEPS} CG steps: max relative prediction difference {pred_rel_diff_cg:.1e}; "
      f"identical routing: {same_routing_cg}")

# %% [markdown]
# ## Results
#
# ### Same tree, monotone objective
#
# The two runs start from the same tree and differ only in how each leaf's ridge system is solved. The
# objective traces below lie on top of each other and never go up. Each marker is one TAO step: one leaf
# step, or one level of decision nodes. The grey trace is the control, whose leaves are solved inexactly
# by 10 conjugate-gradient steps: it is a different tree.

# %%
fig, ax = plt.subplots(figsize=(6.4, 3.2))
steps = np.arange(len(hist_p))
ax.plot(steps, hist_p, "o-", ms=4, label="primal leaves $(X^TX+\\lambda I)^{-1}X^Ty$")
ax.plot(steps, hist_w, "x--", ms=6, label="Woodbury leaves $X^T(XX^T+\\lambda I)^{-1}y$")
ax.plot(steps, hist_cg, ".-", color="grey", lw=1, label=f"control: {K.CG_STEPS} CG steps on the dual (inexact)")
ax.set_yscale("log")
ax.set_xlabel(f"TAO step (leaf step + {P.depth} decision levels per iteration)")
ax.set_ylabel("objective $E$ (squared error + penalty)")
ax.set_title(f"TAO, depth {P.depth}, Friedman1 N={P.N}, D={P.D}")
ax.legend()
plt.show()

# %% [markdown]
# ### Depth sweep: counted flops and wall-clock time of the leaf step

# %%
sweep = {m: {"flops": [], "time": []} for m in K.COUNTED_SOLVERS}
n_max, trees = [], {}
for depth in progress(P.depths, desc="depth sweep"):
    T_d, _ = K.tao_fit(K.init_tree(Xtr, ytr, depth, P.rng), Xtr, ytr, P.lam, P.sweep_iters, "auto")
    leaf = K.route(T_d, Xtr)  # routing is fixed during a leaf step: time only the leaf solves
    n_max.append(int(np.bincount(leaf, minlength=2**depth).max()))
    trees[depth] = (T_d, leaf)
    for m in K.COUNTED_SOLVERS:
        if m == "svd" and depth not in (3, P.depth, 7):  # the naive baseline is needed at the tests' depths only
            sweep[m]["flops"].append(np.nan)
            sweep[m]["time"].append(np.nan)
            continue
        counted = []  # the count is the same at every repeat: keep the timed calls' own counts
        sweep[m]["time"].append(K.best_time(lambda: counted.append(K.leaf_step(T_d, Xtr, ytr, P.lam, m, leaf)),
                                            P.repeats))
        sweep[m]["flops"].append(counted[0])

depths = np.array(P.depths)
d_crit = K.critical_depth(P.N, P.D)
flops = {m: np.array(sweep[m]["flops"], dtype=float) for m in K.COUNTED_SOLVERS}
times = {m: np.array(sweep[m]["time"]) for m in K.COUNTED_SOLVERS}
i5 = P.depths.index(P.depth)
# one global ridge regression by the same code (a tree of depth 0): the reference of "faster than one regression"
global_ridge = K.global_ridge_step(Xtr, ytr, P.lam)[2]
time_ridge = K.best_time(lambda: K.global_ridge_step(Xtr, ytr, P.lam), P.repeats)

# %% [markdown]
# The left panel shows the flop model at the paper-scale sizes ($N=2000$, $D=1000$) for balanced
# leaves. The right panel shows the arithmetic counted in our run, using the actual (unbalanced) leaf sizes
# of the fitted trees, with the balanced model as thin lines. In both, the primal cost climbs with
# depth and the Woodbury cost falls. The auto solver, which is the fast TAO, peaks near
# $\log_2(N/D)$ (dotted line) and gets cheaper after that.

# %%
N_p, D_p = 2000, 1000
dd = np.arange(0, 11)
fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.6))
for ax, (N_, D_) in zip(axes, [(N_p, D_p), (P.N, P.D)]):
    for m, style in zip(K.COUNTED_SOLVERS, ["-", "--", ":", "-."]):
        model = [K.balanced_leaf_step_flops(N_, D_, int(d), m) for d in dd]
        ax.plot(dd, model, style, lw=1 if ax is axes[1] else 2, label=f"{m} (model)")
    ax.axhline(K.leaf_work(N_, D_, "primal"), color="grey", lw=1, label="one global ridge")
    ax.axvline(K.critical_depth(N_, D_), color="k", ls=":", lw=1)
    ax.set_yscale("log")
    ax.set_xlabel("tree depth $\\Delta$ (leaves $=2^\\Delta$)")
    ax.set_ylabel("leaf-step flops (solve + centring)")
    ax.set_title(f"N={N_}, D={D_}, $\\log_2(N/D)$={K.critical_depth(N_, D_):.2f}")
for m, mk in zip(K.COUNTED_SOLVERS, ["o", "s", "^", "d"]):
    axes[1].plot(depths, flops[m], mk, ms=5, label=f"{m} (counted)")
axes[0].legend(fontsize=8)
axes[1].legend(fontsize=7, ncol=2)
plt.show()

# %% [markdown]
# The wall-clock times below come from one CPU thread and vary from machine to machine and from run
# to run. The speed illustrations rest on the counts above; the times are recorded as volatile, and each
# counted ratio is set beside its wall-clock ratio in the table after the next figure.

# %%
fig, ax = plt.subplots(figsize=(6.4, 3.4))
for m, mk in zip(K.COUNTED_SOLVERS, ["o-", "s--", "^:", "d-."]):
    ax.plot(depths, 1e3 * times[m], mk, ms=5, label=f"{m} leaf solve")
ax.axvline(d_crit, color="k", ls=":", lw=1, label="$\\log_2(N/D)$")
ax.set_yscale("log")
ax.set_xlabel("tree depth $\\Delta$")
ax.set_ylabel("leaf-step wall time (ms, best of %d)" % P.repeats)
ax.set_title(f"Friedman1 N={P.N}, D={P.D}, one thread")
ax.legend()
plt.show()

# %% [markdown]
# The fast leaf step at the paper-scale sizes ($N=2000$, $D=1000$) is cheap enough to time even at
# ci scale: there we time the auto leaf step on balanced random trees of depth 3 and 7, as in the
# brief's "deeper is faster" check. Only the primal solves at $D=1000$ are too slow for CI. The first
# version of this page timed "deeper is faster" at the run's own $D$; this size was chosen after that
# run, so the check is flagged post hoc. The same ratio at the run's $D$ is timed too.

# %%
Xp, yp = make_friedman1(n_samples=N_p, n_features=D_p, noise=1.0, random_state=P.seed)
paper_time, paper_time_svd, paper_count = {}, {}, {}
for depth in (3, 7):
    T_d = K.init_tree(Xp, yp, depth, P.rng)
    leaf = K.route(T_d, Xp)
    paper_count[depth] = K.leaf_step(T_d, Xp, yp, P.lam, "auto", leaf)
    paper_time[depth] = K.best_time(lambda: K.leaf_step(T_d, Xp, yp, P.lam, "auto", leaf), P.repeats)
    paper_time_svd[depth] = K.best_time(lambda: K.leaf_step(T_d, Xp, yp, P.lam, "svd", leaf), P.repeats)
paper_ridge_count = K.leaf_work(N_p, D_p, "primal")
paper_time_ridge = K.best_time(lambda: K.global_ridge_step(Xp, yp, P.lam), P.repeats)

# %%
i3, i7 = P.depths.index(3), P.depths.index(7)
wall_ratio = times["primal"][i5] / times["woodbury"][i5]
count_ratio = flops["primal"][i5] / flops["woodbury"][i5]
wall_deeper = times["auto"][i7] / times["auto"][i3]
count_deeper = flops["auto"][i7] / flops["auto"][i3]
# the naive baseline: every leaf solved by the thin SVD (exact, no Woodbury form)
wall_ratio_svd = times["primal"][i5] / times["svd"][i5]
count_ratio_svd = flops["primal"][i5] / flops["svd"][i5]
wall_deeper_svd = times["svd"][i7] / times["svd"][i3]
count_deeper_svd = flops["svd"][i7] / flops["svd"][i3]
# "faster than one regression": the depth-7 leaf step against one global ridge, counted and timed
count_linreg = flops["auto"][i7] / global_ridge
wall_linreg = times["auto"][i7] / time_ridge
wall_linreg_paper = paper_time[7] / paper_time_ridge
count_linreg_paper = paper_count[7] / paper_ridge_count
# the balanced formula at the preset sizes, before any tree is trained: what the counted ratios must come out as
bal = {m: {d: K.balanced_leaf_step_flops(P.N, P.D, d, m) for d in (3, P.depth, 7)} for m in K.COUNTED_SOLVERS}
model_ratio = bal["primal"][P.depth] / bal["woodbury"][P.depth]
model_deeper = bal["auto"][7] / bal["auto"][3]
model_linreg = bal["auto"][7] / global_ridge
print("Timing table (wall clock, one thread; volatile)")
print(f"{'depth':>5} {'max n_l':>8} {'primal ms':>10} {'woodbury ms':>12} {'auto ms':>8} {'primal/woodbury':>16} "
      f"{'count ratio':>12} {'primal Gflop/s':>15} {'woodbury Gflop/s':>17}")
for k, d in enumerate(P.depths):
    print(f"{d:>5} {n_max[k]:>8} {1e3 * times['primal'][k]:>10.2f} {1e3 * times['woodbury'][k]:>12.2f} "
          f"{1e3 * times['auto'][k]:>8.2f} {times['primal'][k] / times['woodbury'][k]:>16.2f} "
          f"{flops['primal'][k] / flops['woodbury'][k]:>12.2f} {1e-9 * flops['primal'][k] / times['primal'][k]:>15.1f} "
          f"{1e-9 * flops['woodbury'][k] / times['woodbury'][k]:>17.1f}")
print("naive baseline, thin-SVD leaves: ms per depth", [round(1e3 * float(t), 2) for t in times["svd"]],
      "; primal/svd at depth", P.depth, f"count {count_ratio_svd:.2f}, wall {wall_ratio_svd:.2f}; "
      f"svd depth 7 / depth 3: count {count_deeper_svd:.3f}, wall {wall_deeper_svd:.2f}")
print(f"auto leaf step at N={N_p}, D={D_p}: depth 3 {1e3 * paper_time[3]:.1f} ms, depth 7 "
      f"{1e3 * paper_time[7]:.1f} ms (ratio {paper_time[7] / paper_time[3]:.2f}); at D={P.D}: depth 7 / depth 3 "
      f"= {times['auto'][P.depths.index(7)] / times['auto'][P.depths.index(3)]:.2f}")
print(f"thin-SVD leaf step at N={N_p}, D={D_p}: depth 3 {1e3 * paper_time_svd[3]:.1f} ms, depth 7 "
      f"{1e3 * paper_time_svd[7]:.1f} ms (ratio {paper_time_svd[7] / paper_time_svd[3]:.2f})")
print(f"one global ridge: D={P.D} {1e3 * time_ridge:.1f} ms, D={D_p} {1e3 * paper_time_ridge:.1f} ms; "
      f"auto depth 7 / one ridge at D={P.D}: count {count_linreg:.3f}, wall {wall_linreg:.2f}; "
      f"at D={D_p}: count {count_linreg_paper:.3f}, wall {wall_linreg_paper:.2f}")
print(f"balanced formula at N={P.N}, D={P.D}, before any training: primal/Woodbury at depth {P.depth} "
      f"{model_ratio:.2f} (counted {count_ratio:.2f}); auto depth 7 / depth 3 {model_deeper:.4f} "
      f"(counted {count_deeper:.4f}); auto depth 7 / one ridge {model_linreg:.4f} (counted {count_linreg:.4f})")
print(f"whole TAO fit, depth {P.depth}, {P.iters} iterations: primal {wall_fit['primal']:.2f} s, "
      f"woodbury {wall_fit['woodbury']:.2f} s (decision steps included)")
print(f"counted vs wall clock at D={P.D}: primal/Woodbury at depth {P.depth}: count {count_ratio:.1f}, "
      f"wall {wall_ratio:.1f}; auto depth 7 / depth 3: count {count_deeper:.3f}, wall {wall_deeper:.2f}")

# %% [markdown]
# ### Accuracy against CART
#
# The leaf penalty $\lambda$ is chosen on a validation split of the training data, from a fixed grid.
# The test set is used only for the numbers reported here.

# %%
X10, y10 = make_friedman1(n_samples=2 * P.N, n_features=P.D_low, noise=1.0, random_state=P.seed + 1)
acc = {}
for name, (A, b) in {f"D={P.D_low}": (X10, y10), f"D={P.D}": (X, y)}.items():
    Atr, btr, Ate, bte = A[: P.N], b[: P.N], A[P.N :], b[P.N :]
    lam = K.select_lam(Atr, btr, P.depth, P.lams, P.iters, P.seed)
    T_init = K.init_tree(Atr, btr, P.depth, P.rng)
    T, h = K.tao_fit(T_init, Atr, btr, lam, P.iters, "auto")
    T_const, _ = K.tao_fit(T_init, Atr, btr, lam, P.iters, "constant")  # control: no linear leaves
    cart = DecisionTreeRegressor(max_depth=P.depth, random_state=P.seed).fit(Atr, btr)
    ridge = Ridge(alpha=1.0).fit(Atr, btr)
    leaf = K.route(T, Atr)
    work = {m: K.leaf_step(T.copy(), Atr, btr, lam, m, leaf) for m in ("primal", "woodbury")}
    acc[name] = dict(lam=lam, hist=h, tao=K.rmse(bte, K.tree_predict(T, Ate)),
                     const=K.rmse(bte, K.tree_predict(T_const, Ate)),
                     cart=K.rmse(bte, cart.predict(Ate)), ridge=K.rmse(bte, ridge.predict(Ate)),
                     work_ratio=work["primal"] / work["woodbury"])

fig, ax = plt.subplots(figsize=(6.4, 3.2))
names = list(acc)
for k, (key, lab) in enumerate([("tao", f"TAO linear leaves, depth {P.depth}"),
                                ("const", f"control: TAO constant leaves, depth {P.depth}"),
                                ("cart", f"CART, depth {P.depth}"), ("ridge", "global ridge")]):
    ax.bar(np.arange(len(names)) + 0.2 * (k - 1.5), [acc[n][key] for n in names], 0.2, label=lab)
ax.set_xticks(np.arange(len(names)), [f"Friedman1, {n}" for n in names])
ax.set_ylabel("test RMSE (units of $y$)")
ax.legend(fontsize=8)
plt.show()
for n in names:
    print(n, {k: (round(v, 3) if isinstance(v, float) else "...") for k, v in acc[n].items()})

# %% [markdown]
# ### Skeptic's extra: a library ridge per leaf
#
# A practitioner would not write a leaf solver at all: they would call scikit-learn's `Ridge` (library
# defaults) on each leaf. We time that on the depth-5 tree of the sweep and check which branch it takes.

# %%
def sklearn_leaf_step(T, X, y, lam, leaf):
    """Every leaf refitted by scikit-learn's Ridge with its defaults (solver 'auto', intercept fitted)."""
    for l in range(2**T.depth):
        m = leaf == l
        if m.any():
            r = Ridge(alpha=lam).fit(X[m], y[m])
            T.W_leaves[l], T.b_leaves[l] = r.coef_, r.intercept_
    return T


T5, leaf5 = trees[P.depth]
T_ref = T5.copy()
K.leaf_step(T_ref, Xtr, ytr, P.lam, "woodbury", leaf5)
sk_diff = float(np.max(np.abs(sklearn_leaf_step(T5.copy(), Xtr, ytr, P.lam, leaf5).W_leaves - T_ref.W_leaves))
                / np.max(np.abs(T_ref.W_leaves)))
time_sk = K.best_time(lambda: sklearn_leaf_step(T5.copy(), Xtr, ytr, P.lam, leaf5), P.repeats)
sizes5 = np.bincount(leaf5, minlength=2**P.depth)
sk_kernel_share = float(np.mean(sizes5[sizes5 > 0] < P.D))  # scikit-learn's Cholesky solver goes dual when D > n
print(f"scikit-learn Ridge per leaf at depth {P.depth}: relative difference to the Woodbury leaves {sk_diff:.1e}; "
      f"share of leaves on its kernel (dual) branch {sk_kernel_share:.2f}; primal / scikit-learn wall clock "
      f"{times['primal'][i5] / time_sk:.2f} (volatile)")

# %% [markdown]
# ### Checking the claims
#
# The thresholds are those of the reproduction brief, fixed before the run. Nothing on this page is counted.
# The three speed ratios (more work saved, deeper is cheaper, cheaper than one regression) are the counted
# leaf-step arithmetic of the fast TAO. The thin-SVD and primal leaf steps are shown beside them in the
# prose, but the ratios are recorded as illustrations: they are our own work formula read at leaf sizes the
# setting fixes, and the saving is the classical dual ridge solve (see *The method*). The identity of the
# two trees is a property of our code (the push-through identity is algebra), so it is an implementation
# check. The critical depth is our own flop model read at our sizes, and TAO against CART is prior work:
# both are illustrations. The wall-clock values, and the factor-2 agreement of each counted ratio with its
# wall-clock ratio, are volatile: shown below, never counted.

# %%
all_hists = [hist_p, hist_w] + [a["hist"] for a in acc.values()]
max_rel_increase = max(float(np.max(np.diff(h) / np.array(h[:-1]))) for h in all_hists)
peak = {m: int(depths[np.argmax(flops[m])]) for m in K.SOLVERS}
TAO_TOL = tolerance(rel=0.2, why="end point of TAO training: its accept-if-better tests and the leaf of an "
                    "instance on a split boundary change under other rounding (the D=10 tree's work ratio moved "
                    "by 7% under the foreign-numerics check)")

WHY_COUNT = ("our own work formula (K.leaf_work) read at leaf sizes that the setting fixes: the median-split initial "
             "tree makes the leaves hold about N/L instances, and the balanced formula at the preset sizes gives "
             "{:.3g} before any training; the saving is the classical dual (kernel) ridge solve for n_l < D. Only "
             "the clock is independent of the formula, and wall-clock times are never counted (see the timings)")
claims.headline("same-tree-faster", "The modified TAO returns exactly the tree TAO returns, but much faster, "
                "most for high input dimension and deep trees",
                untestable="'the same tree' is the push-through identity, an implementation check here (same-tree); "
                "'much faster' is illustrated by flops-ratio-counted, our work formula at sizes the setting fixes, "
                "and only the clock, which is never counted, could measure it independently")
claims.headline("deeper-is-faster", "Past a critical depth, a deeper tree trains faster",
                untestable="illustrated by deeper-is-cheaper-counted (our work formula at sizes the setting fixes); "
                "the clock is never counted, and any exact solver whose cost scales with min(n_l, D), the thin SVD "
                "included, shows the same fall")
claims.headline("faster-than-linreg", "Training the tree can be asymptotically faster than fitting one linear "
                "regression", untestable="illustrated on the leaf step only by cheaper-than-linreg-counted (our work "
                "formula at sizes the setting fixes; its wall clock against one ridge, at D=300 and D=1000, is a timing); "
                "the whole fit is dominated by our decision-node step, which the paper does not change")

claims.illustrate("flops-ratio-counted", statement=f"Counted leaf-step arithmetic (D={P.D}, depth {P.depth}): "
                  "standard TAO (primal leaves) / the fast TAO's (Woodbury) leaf step",
                  paper="much faster for high D or deep trees (no number found)", criterion=at_least(3),
                  measured=float(count_ratio), why=WHY_COUNT.format(model_ratio), tol=TAO_TOL)
claims.illustrate("deeper-is-cheaper-counted", statement=f"Counted leaf-step arithmetic, N={P.N}, D={P.D}: depth 7 / "
                  "depth 3", paper="past a critical depth, deeper trees train faster (abstract; no number)",
                  criterion=less_than(1), measured=float(count_deeper), why=WHY_COUNT.format(model_deeper), tol=TAO_TOL)
claims.illustrate("cheaper-than-linreg-counted", statement=f"Counted leaf-step arithmetic at depth 7 / one global ridge "
                  f"(N={P.N}, D={P.D})",
                  paper="can make learning the tree asymptotically faster than a linear regression (abstract; no number)",
                  criterion=less_than(1), measured=float(count_linreg), why=WHY_COUNT.format(model_linreg), tol=TAO_TOL)

claims.check("same-tree", kind="implementation", statement="Primal and Woodbury leaf solves give the same TAO tree "
             f"(max relative prediction difference, depth {P.depth}, {P.iters} iterations); the push-through "
             "identity makes the two leaf solves equal in exact arithmetic",
             paper="exactly the same result as standard TAO", criterion=less_than(1e-6), measured=pred_rel_diff, tol=TAO_TOL)
claims.check("same-routing", kind="implementation", statement="Both runs send every train and test instance to the "
             "same leaf", paper="exactly the same tree", criterion=is_true(), measured=same_routing)
claims.check("monotone", kind="implementation",
             statement="TAO objective never increases (max relative increase over all steps of all runs); "
             "holds by construction: exact leaf steps, accept-if-better decision steps",
             paper="TAO decreases the objective monotonically", criterion=at_most(1e-10),
             measured=max_rel_increase)
claims.illustrate("critical-depth", statement=f"Depth where the counted fast-TAO leaf-step arithmetic peaks "
                  f"(N={P.N}, D={P.D}); log2(N/D) = {d_crit:.2f}",
                  paper="a critical depth exists (abstract); ~log2(N/D) per a secondary AI summary, not the paper's text",
                  criterion=between(np.floor(d_crit), np.ceil(d_crit)), measured=peak["auto"],
                  why="our own flop model (min of the primal and dual counts per leaf) read at our leaf sizes: "
                  "its peak sits at n_l = D by construction")
for n in names:
    claims.illustrate(f"tao-vs-cart-{n.replace('=', '')}", statement=f"Friedman1 {n}, depth {P.depth}: TAO test RMSE "
                      "/ CART test RMSE", paper="TAO gives smaller, much more accurate trees than CART (abstract; "
                      "prior TAO work, no number)", criterion=less_than(1), measured=acc[n]["tao"] / acc[n]["cart"],
                      why="TAO's accuracy against CART is prior work, not what this paper adds; the leaf solver "
                      "does not change the tree, so the paper's modification cannot move this number", tol=TAO_TOL)
claims.check("wall-ratio", statement=f"Wall clock, depth {P.depth}, D={P.D}: primal / Woodbury leaf step",
             paper="much faster (no number found)", criterion=at_least(1.5), measured=float(wall_ratio),
             volatile=True)
claims.check("wall-vs-count-ratio", statement=f"Wall-clock ratio / counted ratio, primal / Woodbury, depth {P.depth}",
             paper="(our check that the count measures real work)", criterion=between(0.5, 2),
             measured=float(wall_ratio / count_ratio), volatile=True, post_hoc="added for issue 10")
claims.check("wall-ratio-svd", statement=f"Wall clock, depth {P.depth}, D={P.D}: primal / thin-SVD leaf step "
             "(naive baseline)", paper="(the baseline's speed-up, in seconds)", criterion=at_least(1.5),
             measured=float(wall_ratio_svd), volatile=True)
claims.check("wall-vs-count-svd", statement=f"Wall-clock ratio / counted ratio, primal / thin SVD, depth {P.depth}",
             paper="(our check that the count measures real work)", criterion=between(0.5, 2),
             measured=float(wall_ratio_svd / count_ratio_svd), volatile=True)
claims.check("wall-deeper-faster-run", statement=f"Wall clock, N={P.N}, D={P.D}: auto leaf step at depth 7 / at depth 3",
             paper="past a critical depth, deeper trees train faster", criterion=less_than(1),
             measured=float(wall_deeper), volatile=True, post_hoc="added for issue 10: the wall clock at the sizes counted")
claims.check("wall-vs-count-deeper", statement=f"Wall-clock ratio / counted ratio, auto depth 7 / depth 3, D={P.D}",
             paper="(our check that the count measures real work)", criterion=between(0.5, 2),
             measured=float(wall_deeper / count_deeper), volatile=True, post_hoc="added for issue 10")
claims.check("wall-deeper-faster", statement=f"Wall clock, N={N_p}, D={D_p}: auto leaf step at depth 7 / at depth 3",
             paper="past a critical depth, deeper trees train faster", criterion=less_than(1),
             measured=float(paper_time[7] / paper_time[3]), volatile=True,
             post_hoc="size moved from D=300 (the run's D) to D=1000 after the first run")
claims.check("wall-deeper-faster-svd", statement=f"Wall clock, N={N_p}, D={D_p}: thin-SVD leaf step at depth 7 / "
             "at depth 3 (the naive exact solver)", paper="past a critical depth, deeper trees train faster",
             criterion=less_than(1), measured=float(paper_time_svd[7] / paper_time_svd[3]), volatile=True,
             post_hoc="added after the independent review")
claims.check("wall-cheaper-than-linreg", statement=f"Wall clock, N={P.N}, D={P.D}: auto leaf step at depth 7 / one "
             "global ridge (same code, a tree of depth 0)", paper="can make learning the tree asymptotically faster "
             "than a linear regression", criterion=less_than(1), measured=float(wall_linreg), volatile=True,
             post_hoc="added after the independent review")
claims.check("wall-vs-count-linreg", statement=f"Wall-clock ratio / counted ratio, auto depth 7 / one ridge, D={P.D}",
             paper="(our check that the count measures real work)", criterion=between(0.5, 2),
             measured=float(wall_linreg / count_linreg), volatile=True, post_hoc="added after the independent review")
claims.check("wall-cheaper-than-linreg-D1000", statement=f"Wall clock, N={N_p}, D={D_p}: auto leaf step at depth 7 / "
             "one global ridge", paper="can make learning the tree asymptotically faster than a linear regression",
             criterion=less_than(1), measured=float(wall_linreg_paper), volatile=True,
             post_hoc="added after the independent review")

# numbers the prose cites (glued, never typed)
for key, val in {
    "pred_rel_diff": pred_rel_diff, "pred_rel_diff_cg": pred_rel_diff_cg, "count_ratio": count_ratio,
    "count_ratio_svd": count_ratio_svd, "count_deeper": count_deeper,
    "count_deeper_primal": flops["primal"][i7] / flops["primal"][i3], "count_deeper_svd": count_deeper_svd,
    "linreg_auto": count_linreg, "linreg_primal": flops["primal"][i7] / global_ridge,
    "linreg_svd": flops["svd"][i7] / global_ridge, "work_ratio_low": acc[f"D={P.D_low}"]["work_ratio"],
    "svd_over_woodbury": flops["svd"][i5] / flops["woodbury"][i5], "d_crit": d_crit,
    "wall_ratio": wall_ratio, "wall_ratio_svd": wall_ratio_svd, "wall_deeper": wall_deeper,
    "wall_deeper_svd": wall_deeper_svd, "wall_deeper_paper": paper_time[7] / paper_time[3],
    "wall_vs_count": wall_ratio / count_ratio, "wall_vs_count_svd": wall_ratio_svd / count_ratio_svd,
    "wall_vs_count_deeper": wall_deeper / count_deeper, "sk_diff": sk_diff, "sk_kernel_share": 100 * sk_kernel_share,
    "wall_ratio_sk": times["primal"][i5] / time_sk, "wall_sk_over_woodbury": time_sk / times["woodbury"][i5],
    "fit_primal_s": wall_fit["primal"], "fit_woodbury_s": wall_fit["woodbury"],
    "n_leaf5": P.N / 2**P.depth, "n_leaf7": P.N / 2**7, "count_linreg": count_linreg,
    "wall_linreg": wall_linreg, "wall_vs_count_linreg": wall_linreg / count_linreg,
    "wall_linreg_paper": wall_linreg_paper, "count_linreg_paper": count_linreg_paper,
    "wall_deeper_svd_paper": paper_time_svd[7] / paper_time_svd[3], "model_ratio": model_ratio,
    "model_deeper": model_deeper, "model_linreg": model_linreg, "ridge_ms": 1e3 * time_ridge,
    "leaf7_ms": 1e3 * times["auto"][i7], "leaf_share_fit": 100 * P.iters * times["primal"][i5] / wall_fit["primal"],
}.items():
    glue(key, float(val), display=False)
for n in names:
    for k in ("tao", "const", "cart", "ridge"):
        glue(f"rmse_{k}_{n.replace('=', '')}", float(acc[n][k]), display=False)
    glue(f"cart_ratio_{n.replace('=', '')}", float(acc[n]["tao"] / acc[n]["cart"]), display=False)
    glue(f"const_ratio_{n.replace('=', '')}", float(acc[n]["const"] / acc[n]["cart"]), display=False)
for m in K.SOLVERS:
    glue(f"peak_{m}", peak[m], display=False)
glue("linreg_wall_word", "slower" if wall_linreg > 1 else "faster", display=False)

# %% [markdown]
# The wall-clock checks, with this run's values. They vary from run to run and machine to machine, so
# they are shown here but do not count towards the verdict. They are the only measurement of speed that is
# independent of our work formula, which is why the speed ratios are illustrations and not tests.

# %%
claims.timings()

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
# Nothing on this page is tested, and that is the honest reading. The paper's three speed claims are shown on
# the counted arithmetic of the leaf step, the part of TAO the paper changes. Each count is our own work formula
# read at leaf sizes that the setting fixes: the balanced formula at the preset sizes, evaluated before any
# tree is trained, gives {glue:text}`model_ratio:.2f`, {glue:text}`model_deeper:.4f` and
# {glue:text}`model_linreg:.4f` for the three ratios below, and the run counts {glue:text}`count_ratio:.2f`,
# {glue:text}`count_deeper:.4f` and {glue:text}`count_linreg:.4f`. The saving itself is the classical dual
# (kernel) ridge solve for leaves with fewer instances than features. The only independent measure is the
# clock, which the book never counts. So the three ratios are illustrations, and the paper's headline claims
# are mapped to them with that reason.
#
# * *Much faster* (`flops-ratio-counted`). At depth 5, standard TAO's leaf step does
#   {glue:text}`count_ratio:.1f` times the arithmetic of the Woodbury one, over the brief's bar of 3. The SVD
#   leaves save only a factor {glue:text}`count_ratio_svd:.2f` (their solve costs
#   {glue:text}`svd_over_woodbury:.1f` times the Woodbury one).
# * *Deeper is faster* (`deeper-is-cheaper-counted`). The fast TAO's leaf step at depth 7 does
#   {glue:text}`count_deeper:.3f` of the arithmetic at depth 3, while standard TAO's grows
#   ({glue:text}`count_deeper_primal:.1f` times). But the SVD leaves fall even faster with depth
#   ({glue:text}`count_deeper_svd:.3f`): any exact solver whose cost scales with the smaller side of the leaf's
#   data gets cheaper as the leaves shrink below $D$. "Deeper is cheaper" is a property of such solvers, not of
#   the Woodbury form in particular; the Woodbury form adds the constant factor of the first ratio.
# * *Faster than one linear regression* (`cheaper-than-linreg-counted`). In arithmetic, the fast leaf step
#   at depth 7 costs {glue:text}`count_linreg:.3f` of one global ridge regression; standard TAO's costs
#   {glue:text}`linreg_primal:.1f` times as much, and the SVD leaves {glue:text}`linreg_svd:.2f`. **In seconds,
#   at the run's $D=300$, the clock does not follow the count:** the depth-7 leaf step took
#   {glue:text}`leaf7_ms:.1f` ms and one global ridge, computed by the same code, {glue:text}`ridge_ms:.1f` ms.
#   The leaf step was {glue:text}`linreg_wall_word` than one regression in this run (ratio
#   {glue:text}`wall_linreg:.2f`, wall over count {glue:text}`wall_vs_count_linreg:.0f`, against the factor of 2
#   we ask for). The count leaves out the fixed cost of each leaf (slicing, centring, two LAPACK calls). The
#   depth-7 tree pays it once for each of its $2^7$ leaves of about {glue:text}`n_leaf7:.0f` instances, while one
#   ridge pays it once and runs its $D\times D$ Gram and Cholesky at a high flop rate. At $D=1000$ the depth-7
#   leaf step took {glue:text}`wall_linreg_paper:.2f` of one ridge's time (count
#   {glue:text}`count_linreg_paper:.3f`). Even where the leaf step wins, it is only the leaf step: in our fit the
#   five leaf steps took about {glue:text}`leaf_share_fit:.0f` % of the primal TAO fit's time (below), and the
#   rest is our decision-node step, which the paper does not change. The headline "faster than a linear
#   regression" is therefore only partly addressed here.
#
# **Where else the clock disagrees with the counts** (volatile, one thread on a shared 2-core machine; timing
# table above). The primal/Woodbury wall-clock ratio at depth 5 was {glue:text}`wall_ratio:.1f` in this run
# against a count of {glue:text}`count_ratio:.1f` (wall over count {glue:text}`wall_vs_count:.2f`; this ratio moves
# from run to run and under load): the large $D\times D$ Gram and Cholesky of the primal step run at a higher
# flop rate than the many small $n_\ell\times n_\ell$ ones. For "deeper is faster" at $D=300$, depth 7 took
# {glue:text}`wall_deeper:.2f` times as long as depth 3 (wall over count {glue:text}`wall_vs_count_deeper:.0f`),
# for the same fixed cost per leaf. At $D=1000$ the fast leaf step at depth 7 took
# {glue:text}`wall_deeper_paper:.2f` of the depth-3 time (that size was chosen after the first run), and the
# thin-SVD leaves, timed by the same code, {glue:text}`wall_deeper_svd_paper:.2f`. The SVD baseline is slower in seconds than its count says (wall over count
# {glue:text}`wall_vs_count_svd:.2f`: LAPACK's divide-and-conquer SVD runs at a lower flop rate than a
# Cholesky, and our count uses the R-SVD constant); in seconds, primal over SVD at depth 5 was
# {glue:text}`wall_ratio_svd:.2f`. The whole TAO fit (decision steps included) took
# {glue:text}`fit_primal_s:.2f` s with primal leaves and {glue:text}`fit_woodbury_s:.2f` s with Woodbury
# leaves. The decision-node step is identical in both; the primal leaf step, timed in the depth sweep, accounts
# for about {glue:text}`leaf_share_fit:.0f` % of the primal fit.
#
# **Also shown, not counted.** The primal and Woodbury runs give the same tree (predictions agree to
# {glue:text}`pred_rel_diff:.0e` relative, every instance reaches the same leaf) and the objective never rises:
# identities of our code. The inexact CG leaf step moves the predictions by {glue:text}`pred_rel_diff_cg:.1e`, so
# the equality measurement can see an inexact leaf step, though its routing stays identical. The fast leaf
# step's counted cost peaks at depth {glue:text}`peak_auto:.0f`, against $\log_2(N/D)=$ {glue:text}`d_crit:.2f`, as
# our flop model says it must. TAO beats CART at $D=10$ (RMSE ratio {glue:text}`cart_ratio_D10:.2f`), but so does
# TAO with constant leaves ({glue:text}`const_ratio_D10:.2f`); at $D=300$ the ridge leaves overfit and TAO loses to
# CART ({glue:text}`cart_ratio_D300:.2f`). Both are prior TAO work, which the leaf solver cannot change.
#
# **What the miniature cannot show.**
#
# - Timings on the paper's data sets and sizes.
# - The decision-node step of the paper's TAO (weighted classification, for example logistic).
# - The cost of a whole TAO iteration with the paper's decision step; here only the leaf step is faster.
# - The exact constants of the paper's complexity theorem, which we did not have. Our count is the
#   leading-order arithmetic of a Cholesky-based solve plus the centring; it leaves out the per-leaf fixed
#   costs that dominate the clock for small leaves.
# - A test of the speed claims: it would need a measurement independent of our work formula, and the only one
#   here, the clock, is not counted by the book.
#
# ## What a skeptic would try
#
# Reviewed by an independent skeptic (2026-12-07); what they tried is above. A helper that did not write the
# page, with the rubric, the brief and the record, tried the naive alternatives below at ci sizes; each number
# here is measured by this notebook at this seed. They also found that the three speed tests could not fail
# (the balanced formula predicts them, as the Verdict shows), that the clock contradicts "faster than one
# regression" at $D=300$, and stale or typed prose; the page was mended accordingly.
#
# * *Solve each leaf by the thin SVD* (the textbook ridge): exact, and its cost also shrinks with the leaf.
#   It does not reach the speed-up bar (count ratio {glue:text}`count_ratio_svd:.2f`, wall clock
#   {glue:text}`wall_ratio_svd:.2f`) but meets "deeper is cheaper" ({glue:text}`count_deeper_svd:.3f`; wall clock
#   {glue:text}`wall_deeper_svd:.2f` at $D=300$, {glue:text}`wall_deeper_svd_paper:.2f` at $D=1000$) and
#   "cheaper than one regression" ({glue:text}`linreg_svd:.2f`).
# * *Time the leaf step against one ridge regression*, not only count it: at $D=300$ the depth-7 leaf step took
#   {glue:text}`wall_linreg:.2f` times as long as one global ridge; at $D=1000$, {glue:text}`wall_linreg_paper:.2f`.
# * *Call scikit-learn's `Ridge` on each leaf with its defaults*: its Cholesky solver already switches to the
#   kernel (dual) form when a leaf has more features than instances, which it did at
#   {glue:text}`sk_kernel_share:.0f` % of the depth-5 leaves; its coefficients equal the Woodbury leaves' to
#   {glue:text}`sk_diff:.0e` relative. In seconds it ran at {glue:text}`wall_sk_over_woodbury:.1f` times our Woodbury
#   leaf step (primal over scikit-learn {glue:text}`wall_ratio_sk:.2f`; its per-call overhead dominates at
#   these sizes). The leaf-level trick is thus what a library ridge already does; what the paper adds is
#   applying it inside TAO and the analysis of its cost against depth. This is one reason the speed ratios
#   are illustrations: the ingredient is classical.
# * *Use the same count on low-dimensional data* ($D=10$, leaves with more instances than features): the
#   primal/Woodbury ratio is {glue:text}`work_ratio_low:.3f`, so the gain is specific to $n_\ell < D$, as the
#   paper says ("high input dimensionality").
# * *An inexact dual leaf step* (10 CG steps) is cheaper still but changes the tree (relative prediction
#   difference {glue:text}`pred_rel_diff_cg:.1e`), which the paper's "exactly the same result" excludes.
#
# **What was hard.** Keeping the wall-clock values stable on a shared CPU. Best-of-3 timings still move by a
# factor of 2 or more between runs. The book does not count them, and our counts cannot fail, so the speed
# claims are illustrated, not tested.
