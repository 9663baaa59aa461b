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
# consequences are claimed, and we check each one:
#
# 1. **The same tree.** The modified TAO returns exactly the tree standard TAO returns; only the
#    arithmetic differs.
# 2. **Much faster.** The saving is largest for high input dimension $D$ and deep trees.
# 3. **Deeper is faster.** Past a critical depth, a deeper tree (more leaves and more parameters) is
#    *faster* to train, and the paper adds that this can make learning the tree asymptotically faster than
#    fitting one linear regression. We test this on the leaf step, the part the modification changes.
#
# The abstract gives no numbers, and we could not reach the paper's text: its complexity statement, data
# sets and measured speed-ups were not available to us. There is therefore no table of the paper's numbers
# beside ours on this page; every number below is ours.
#
# TAO's guarantee that the objective never increases, and its better accuracy than greedy CART trees,
# come from earlier TAO work. The first holds in our code by construction (every step is exact or
# accepted only if it lowers the objective), so it is a check of our implementation, not a claim. The
# second we check against a control.
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
# wall-clock ratio of the same two computations, and the two should agree within a factor of 2.
#
# **Controls.** Every claim is also measured, with the same criterion, on something for which it should
# *not* hold:
#
# - *same tree*: TAO with a fast but **inexact** dual leaf step, 10 conjugate-gradient steps on
#   $(X_\ell X_\ell^\top+\lambda I)\alpha=y_\ell$ (`K.ridge_dual_cg`). A measurement that cannot tell this
#   tree from the primal one could not detect a leaf step that is not exact.
# - *Woodbury is cheaper*: the same count on the low-dimensional data ($D=10$), where the leaves hold more
#   instances than features and the dual form should cost more.
# - *deeper is cheaper, cheaper than one regression, critical depth*: the same count for TAO **without**
#   the Woodbury form (primal leaf solves), whose leaf step should get dearer with depth.
# - *more accurate than CART*: TAO of the same depth with **constant leaves** (each leaf predicts its mean
#   target), i.e. the method without its linear leaves.

# %% [markdown]
# ## The experiment
#
# - **Speed and equality data:** `make_friedman1` with $N$ training and $N$ test points and $D$ features,
#   only 5 of which matter (ci: $N=2000$, $D=200$; full: $N=3000$, $D=1000$), and leaf penalty $\lambda=10$.
# - **Same tree:** TAO at depth 5 for 5 iterations from one random initial tree (balanced random oblique
#   splits), once with primal leaves and once with Woodbury leaves. We compare the predictions, the
#   routing and the objective traces.
# - **Depth sweep:** one tree per depth ($\Delta = 2,\dots,7$ at ci, $1,\dots,8$ at full; trained by fast
#   TAO). On each tree we run the leaf step with the primal, the Woodbury and the auto solver. We **count**
#   its arithmetic at the actual leaf sizes and **time** it (best of 3, one thread).
# - **Flop model at the paper-scale sizes:** $N=2000$, $D=1000$, drawn in the first figure. It is a
#   formula evaluated at fixed sizes, so its values are properties of the formula, not measurements: they
#   are unit tests of our code (`test_flop_model_at_the_paper_sizes`), not claims. At these sizes we time
#   only the fast leaf step (the primal solves at $D=1000$ are too slow for CI).
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
# - The controls (inexact CG leaf step, $D=10$ data, primal-only TAO, constant leaves) are our choice; the
#   paper compares against standard TAO, CART, M5 and others on real data.
# - Changed after the first run (marked † in the claims table): the work count now includes the
#   centring every solver does; "deeper is cheaper" and "cheaper than one regression" are counted at the
#   sizes we actually run instead of being read off the formula at $D=1000$; the wall-clock
#   "deeper is faster" check was moved from $D=300$ to $D=1000$ after the first run.

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
sweep = {m: {"flops": [], "time": []} for m in K.SOLVERS}
n_max = []
for depth in progress(P.depths, desc="depth sweep"):
    T_d, _ = K.tao_fit(K.init_tree(Xtr, ytr, depth, P.rng), Xtr, ytr, P.lam, P.sweep_iters, "auto")
    leaf = K.route(T_d, Xtr)  # routing is fixed during a leaf step: time only the leaf solves
    n_max.append(int(np.bincount(leaf, minlength=2**depth).max()))
    for m in K.SOLVERS:
        sweep[m]["flops"].append(K.leaf_step(T_d, Xtr, ytr, P.lam, m, leaf))
        sweep[m]["time"].append(K.best_time(lambda: K.leaf_step(T_d, Xtr, ytr, P.lam, m, leaf), P.repeats))

depths = np.array(P.depths)
d_crit = K.critical_depth(P.N, P.D)
flops = {m: np.array(sweep[m]["flops"], dtype=float) for m in K.SOLVERS}
times = {m: np.array(sweep[m]["time"]) for m in K.SOLVERS}
i5 = P.depths.index(P.depth)

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
    for m, style in zip(K.SOLVERS, ["-", "--", ":"]):
        model = [K.balanced_leaf_step_flops(N_, D_, int(d), m) for d in dd]
        ax.plot(dd, model, style, lw=1 if ax is axes[1] else 2, label=f"{m} (model)")
    ax.axhline(K.leaf_work(N_, D_, "primal"), color="grey", lw=1, label="one global ridge")
    ax.axvline(K.critical_depth(N_, D_), color="k", ls=":", lw=1)
    ax.set_yscale("log")
    ax.set_xlabel("tree depth $\\Delta$ (leaves $=2^\\Delta$)")
    ax.set_ylabel("leaf-step flops (solve + centring)")
    ax.set_title(f"N={N_}, D={D_}, $\\log_2(N/D)$={K.critical_depth(N_, D_):.2f}")
for m, mk in zip(K.SOLVERS, ["o", "s", "^"]):
    axes[1].plot(depths, flops[m], mk, ms=5, label=f"{m} (counted)")
axes[0].legend(fontsize=8)
axes[1].legend(fontsize=7, ncol=2)
plt.show()

# %% [markdown]
# The wall-clock times below come from one CPU thread and vary from machine to machine and from run
# to run. The checked claims rest on the counts above; the times are recorded as volatile, and each counted
# ratio is set beside its wall-clock ratio in the table after the next figure.

# %%
fig, ax = plt.subplots(figsize=(6.4, 3.4))
for m, mk in zip(K.SOLVERS, ["o-", "s--", "^:"]):
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
paper_time = {}
for depth in (3, 7):
    T_d = K.init_tree(Xp, yp, depth, P.rng)
    leaf = K.route(T_d, Xp)
    paper_time[depth] = K.best_time(lambda: K.leaf_step(T_d, Xp, yp, P.lam, "auto", leaf), P.repeats)

# %%
i3, i7 = P.depths.index(3), P.depths.index(7)
wall_ratio = times["primal"][i5] / times["woodbury"][i5]
count_ratio = flops["primal"][i5] / flops["woodbury"][i5]
wall_deeper = times["auto"][i7] / times["auto"][i3]
count_deeper = flops["auto"][i7] / flops["auto"][i3]
print("Timing table (wall clock, one thread; volatile)")
print(f"{'depth':>5} {'max n_l':>8} {'primal ms':>10} {'woodbury ms':>12} {'auto ms':>8} {'primal/woodbury':>16} "
      f"{'count ratio':>12} {'primal Gflop/s':>15} {'woodbury Gflop/s':>17}")
for k, d in enumerate(P.depths):
    print(f"{d:>5} {n_max[k]:>8} {1e3 * times['primal'][k]:>10.2f} {1e3 * times['woodbury'][k]:>12.2f} "
          f"{1e3 * times['auto'][k]:>8.2f} {times['primal'][k] / times['woodbury'][k]:>16.2f} "
          f"{flops['primal'][k] / flops['woodbury'][k]:>12.2f} {1e-9 * flops['primal'][k] / times['primal'][k]:>15.1f} "
          f"{1e-9 * flops['woodbury'][k] / times['woodbury'][k]:>17.1f}")
print(f"auto leaf step at N={N_p}, D={D_p}: depth 3 {1e3 * paper_time[3]:.1f} ms, depth 7 "
      f"{1e3 * paper_time[7]:.1f} ms (ratio {paper_time[7] / paper_time[3]:.2f}); at D={P.D}: depth 7 / depth 3 "
      f"= {times['auto'][P.depths.index(7)] / times['auto'][P.depths.index(3)]:.2f}")
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
# ### Checking the claims
#
# The thresholds are those of the reproduction brief, fixed before the run; each claim's control is the
# one described in the method. All counts are of work done in our run, at the leaf sizes of the trees we
# trained. The wall-clock values, and the factor-2 agreement of each counted ratio with its wall-clock
# ratio, are volatile: shown below, never counted.

# %%
all_hists = [hist_p, hist_w] + [a["hist"] for a in acc.values()]
max_rel_increase = max(float(np.max(np.diff(h) / np.array(h[:-1]))) for h in all_hists)
global_ridge = K.leaf_work(P.N, P.D, "primal")
peak = {m: int(depths[np.argmax(flops[m])]) for m in ("auto", "primal")}
TAO_TOL = tolerance(rel=0.2, why="end point of TAO training: its accept-if-better tests and the leaf of an "
                    "instance on a split boundary change under other rounding (the D=10 tree's work ratio moved "
                    "by 7% under the foreign-numerics check)")
POST_COUNT = "measured on the leaf-step arithmetic at the sizes run (issue 10); before: the flop formula at N=2000, D=1000"

claims.check("same-tree", kind="theorem", statement="Primal and Woodbury leaf solves give the same TAO tree "
             f"(max relative prediction difference, depth {P.depth}, {P.iters} iterations)",
             paper="exactly the same result as standard TAO", criterion=less_than(1e-6),
             measured=pred_rel_diff, control=pred_rel_diff_cg,
             control_label=f"inexact dual leaf step ({K.CG_STEPS} CG steps) against primal", tol=TAO_TOL)
claims.check("same-routing", kind="theorem", statement="Both runs send every train and test instance to the same leaf",
             paper="exactly the same tree", criterion=is_true(), measured=same_routing,
             control=same_routing_cg, control_label=f"inexact dual leaf step ({K.CG_STEPS} CG steps) against primal")
claims.check("monotone", kind="implementation",
             statement="TAO objective never increases (max relative increase over all steps of all runs); "
             "holds by construction: exact leaf steps, accept-if-better decision steps",
             paper="TAO decreases the objective monotonically", criterion=at_most(1e-10),
             measured=max_rel_increase)
claims.check("flops-ratio-counted", statement=f"Counted leaf-step arithmetic (D={P.D}, depth {P.depth}): primal / Woodbury",
             paper="much faster for high D or deep trees (no number found)", criterion=at_least(3),
             measured=float(count_ratio), control=float(acc[f"D={P.D_low}"]["work_ratio"]),
             control_label=f"same count on the D={P.D_low} data (leaves hold more instances than features)",
             tol=TAO_TOL, post_hoc="the count now includes the centring every solver does (issue 10)")
claims.check("deeper-is-cheaper-counted", statement=f"Counted auto (fast TAO) leaf-step arithmetic, N={P.N}, D={P.D}: "
             "depth 7 / depth 3", paper="past a critical depth, deeper trees train faster (abstract; no number)", criterion=less_than(1),
             measured=float(count_deeper), control=float(flops["primal"][i7] / flops["primal"][i3]),
             control_label="TAO without the Woodbury form (primal leaf solves)", tol=TAO_TOL, post_hoc=POST_COUNT)
claims.check("cheaper-than-linreg-counted", statement=f"Counted auto leaf-step arithmetic at depth 7 / one global ridge "
             f"(N={P.N}, D={P.D})", paper="can make learning the tree asymptotically faster than a linear regression (abstract; no number)",
             criterion=less_than(1), measured=float(flops["auto"][i7] / global_ridge),
             control=float(flops["primal"][i7] / global_ridge),
             control_label="TAO without the Woodbury form (primal leaf solves)", tol=TAO_TOL, post_hoc=POST_COUNT)
claims.check("critical-depth", statement=f"Depth where the counted auto leaf-step arithmetic peaks (N={P.N}, D={P.D}); "
             f"log2(N/D) = {d_crit:.2f}", paper="a critical depth exists (abstract); ~log2(N/D) per a secondary AI summary, not the paper's text",
             criterion=between(np.floor(d_crit), np.ceil(d_crit)), measured=peak["auto"], control=peak["primal"],
             control_label="peak of TAO without the Woodbury form (primal leaf solves)")
claims.check("wall-ratio", statement=f"Wall clock, depth {P.depth}, D={P.D}: primal / Woodbury leaf step",
             paper="much faster (no number found)", criterion=at_least(1.5), measured=float(wall_ratio),
             volatile=True)
claims.check("wall-vs-count-ratio", statement=f"Wall-clock ratio / counted ratio, primal / Woodbury, depth {P.depth}",
             paper="(our check that the count measures real work)", criterion=between(0.5, 2),
             measured=float(wall_ratio / count_ratio), volatile=True, post_hoc="added for issue 10")
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
for n in names:
    claims.check(f"tao-vs-cart-{n.replace('=', '')}", statement=f"Friedman1 {n}, depth {P.depth}: TAO test RMSE / CART test RMSE",
                 paper="TAO gives smaller, much more accurate trees than CART (abstract; no number)",
                 criterion=less_than(1),
                 measured=acc[n]["tao"] / acc[n]["cart"], control=acc[n]["const"] / acc[n]["cart"],
                 control_label="TAO of the same depth with constant leaves", tol=TAO_TOL)

# %% [markdown]
# The wall-clock checks, with this run's values. They vary from run to run and machine to machine, so
# they are shown here but do not count towards the verdict; the checked speed claims above rest on counts.

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
# **Few claims are informative, and they are about arithmetic.** Of the eight claims checked against a
# control, six count; two are uninformative, and TAO's monotone objective is a check of our own code
# (it holds by construction). The speed claims hold in counted arithmetic; in seconds they hold only in
# part.
#
# **Reproduced: the same tree.** Solving each leaf's ridge problem in its dual (Woodbury) form gives the
# same TAO tree: predictions agree to rounding (below $10^{-12}$ relative) and every instance reaches the
# same leaf. The control shows the measurement can see a difference: an inexact dual leaf step (10
# conjugate-gradient steps) gives a tree whose predictions differ by about $4\times10^{-6}$, above the
# $10^{-6}$ threshold, though only by a factor of about 4. Its routing is still identical, so the
# "same routing" check is **uninformative**: it would pass for a leaf step that is not exact.
#
# **Reproduced in counted arithmetic: the speed-up and "deeper is cheaper".** At $D=300$, depth 5, the
# primal leaf step does about 11 times the arithmetic of the Woodbury one; on the $D=10$ data, where the
# leaves hold more instances than features, the same ratio is 0.04 (the dual form costs more, as it
# should). The fast leaf step's arithmetic peaks at depth 2, against $\log_2(2000/300)=2.7$, and falls
# after that: at depth 7 it is 6% of the depth-3 step and 6% of one global ridge regression. TAO without
# the Woodbury form does the opposite (depth 7 costs 5.3 times depth 3 and 7 times one regression, and
# its cost peaks at the deepest tree).
#
# **Only in part in wall clock.** The counts measure arithmetic, and at these sizes the clock does not
# follow arithmetic closely. The timing table gives both ratios side by side and each solver's effective
# Gflop/s. The primal/Woodbury wall-clock ratio at depth 5 has ranged from about 1.6 to 6.7 across our
# runs, against a count of 11: the count overstates the gain by a factor of 2 to 7, because the primal
# step's large $D\times D$ Gram and Cholesky run at several times the flop rate of the many small
# $n_\ell\times n_\ell$ ones. For "deeper is faster" the gap is wider: the count says depth 7 needs 6% of
# depth 3's arithmetic, but at $D=300$ the depth-7 leaf step takes longer than the depth-3 one (ratio
# between about 1.1 and 2 in our runs), so **"deeper is faster" in seconds is not reproduced at $D=300$**.
# With 128 leaves of about 16 instances, the fixed cost of each leaf (slicing, centring, two LAPACK
# calls, some tens of microseconds) outweighs the arithmetic saved: the Woodbury solves' effective rate
# falls tenfold or more from depth 2 to depth 7 in the timing table. At $D=1000$ the depth-7/depth-3 ratio
# on balanced random trees was 0.71 on a quiet run and between 0.9 and 1.9 on a heavily loaded machine.
# That size was picked after the first run (flagged †). These wall-clock values were taken on a shared
# 2-core machine; none of them is counted.
#
# **Accuracy: uninformative at $D=10$, not reproduced at $D=300$.** With few features (Friedman1, $D=10$),
# TAO's depth-5 oblique tree with linear leaves beats CART of the same depth (test RMSE ratio 0.66). But
# the same TAO tree with constant leaves beats CART too (0.86), so this comparison does not isolate what
# the paper adds, and it is not counted. On the high-dimensional speed data set ($D=300$, only 5 relevant
# features, about 60 points per leaf) TAO **does not** beat CART (ratio 1.72): the ridge leaves overfit,
# even with $\lambda$ chosen on validation. The constant-leaf control fails too (1.81). This is a property
# of our miniature (small $N$ against $D$, no pruning, a crude decision-node step, 5 iterations), not a
# test of the paper's speed claim. The paper tunes its trees on real data sets.
#
# **At full scale** ($N=3000$, $D=1000$, depths 1 to 8; seed 0; the last column of the table "Across seeds
# and scales") the statuses are the same as here, and the ci statuses are the same at every one of the ten
# seeds. The trees agree to below $10^{-12}$; the inexact-CG control differs by about $1.2\times10^{-6}$,
# **only just above** the $10^{-6}$ threshold, so the brief's threshold is loose for this control at this
# size. The counted primal/Woodbury ratio at depth 5 is again far above 1 (and far below it on the $D=10$
# data), and deeper trees are cheaper in counted arithmetic while primal-only TAO is not. At $D=1000$ they
# are faster in seconds too, but the count overstates that gain several-fold: the timing table shows the
# Woodbury solves falling from about 6 to 0.3 Gflop/s as the leaves shrink from about 1500 to 20 instances.
# The counted auto cost peaks at depth 1, against $\log_2(3000/1000)=1.6$. Whether the counted and the
# wall-clock ratio at depth 5 agree within a factor of 2 depends on the machine's load: they did (25 against
# 45) in an earlier full run, and did not in the sweep's run on a machine running a dozen other jobs (14
# against 45). Accuracy splits as at ci: at $D=10$ TAO beats CART but so does the constant-leaf control
# (uninformative), and at $D=1000$ the ridge leaves still lose to CART (not reproduced).
#
# **What the miniature cannot show.**
#
# - Timings on the paper's data sets and sizes.
# - The decision-node step of the paper's TAO (weighted classification, for example logistic).
# - The cost of a whole TAO iteration. Here, with the decision nodes solved the same way in both
#   variants, the whole fit takes about as long with either leaf solver (timing table); only the
#   leaf step is faster.
# - The exact constants of the paper's complexity theorem, which we did not have. Our count is the
#   leading-order arithmetic of a Cholesky-based solve plus the centring; it leaves out the per-leaf fixed
#   costs that dominate the clock for small leaves.
#
# **What was hard.** Keeping the wall-clock checks stable on a shared CPU. Best-of-3 timings still move
# by a factor of 2 or more between runs, so every checked speed claim rests on a count of the arithmetic
# done, and the wall-clock checks, with their agreement with the counts, are volatile.
