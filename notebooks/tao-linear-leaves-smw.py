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
# TAO tree, and past a critical depth $\approx\log_2(N/D)$ a deeper tree makes the leaf step cheaper.*

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

from repro.claims import Claims, at_least, at_most, between, is_true, less_than
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
# 3. **Deeper is faster.** Past a critical depth, a deeper tree (more leaves and more parameters) has a
#    *cheaper* leaf step, cheaper even than one global linear regression.
#
# TAO's guarantee that the objective never increases, and its better accuracy than greedy CART trees,
# come from earlier TAO work. We check both as sanity checks of our implementation.
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

# %% [markdown]
# ## The experiment
#
# - **Speed and equality data:** `make_friedman1` with $N$ training and $N$ test points and $D$ features,
#   only 5 of which matter (ci: $N=2000$, $D=200$; full: $N=3000$, $D=1000$), and leaf penalty $\lambda=10$.
# - **Same tree:** TAO at depth 5 for 5 iterations from one random initial tree (balanced random oblique
#   splits), once with primal leaves and once with Woodbury leaves. We compare the predictions, the
#   routing and the objective traces.
# - **Depth sweep:** one tree per depth $\Delta = 1,\dots,7$ (trained by fast TAO). On each tree we run the
#   leaf step with the primal, the Woodbury and the auto solver. We **count** its flops with the model
#   above, using the actual leaf sizes, and **time** it (best of 3, one thread).
# - **Flop model at the paper-scale sizes:** $N=2000$, $D=1000$, evaluated analytically. It is a formula,
#   so it costs nothing at any size.
# - **Accuracy:** test RMSE of TAO at depth 5 against scikit-learn's CART (`DecisionTreeRegressor`,
#   same depth) and a global ridge regression. The leaf penalty is picked from a small grid on a
#   validation split of the training data. We use two settings: Friedman1 with $D=10$ (where linear leaves
#   make sense) and the high-dimensional speed data set.
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
Xall = np.vstack([Xtr, Xte])
fp, fw = K.tree_predict(Tp, Xall), K.tree_predict(Tw, Xall)
pred_rel_diff = float(np.max(np.abs(fp - fw)) / np.max(np.abs(fp)))
same_routing = bool(np.array_equal(K.route(Tp, Xall), K.route(Tw, Xall)))
print(f"max relative prediction difference {pred_rel_diff:.1e}; identical routing: {same_routing}")

# %% [markdown]
# ## Results
#
# ### Same tree, monotone objective
#
# The two runs start from the same tree and differ only in how each leaf's ridge system is solved. The
# objective traces below lie on top of each other and never go up. Each marker is one TAO step: one leaf
# step, or one level of decision nodes.

# %%
fig, ax = plt.subplots(figsize=(6.4, 3.2))
steps = np.arange(len(hist_p))
ax.plot(steps, hist_p, "o-", ms=4, label="primal leaves $(X^TX+\\lambda I)^{-1}X^Ty$")
ax.plot(steps, hist_w, "x--", ms=6, label="Woodbury leaves $X^T(XX^T+\\lambda I)^{-1}y$")
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
# leaves. The right panel shows the flops counted in our run, using the actual (unbalanced) leaf sizes
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
    ax.axhline(K.leaf_flops(N_, D_, "primal"), color="grey", lw=1, label="one global ridge")
    ax.axvline(K.critical_depth(N_, D_), color="k", ls=":", lw=1)
    ax.set_yscale("log")
    ax.set_xlabel("tree depth $\\Delta$ (leaves $=2^\\Delta$)")
    ax.set_ylabel("leaf-step flops")
    ax.set_title(f"N={N_}, D={D_}, $\\log_2(N/D)$={K.critical_depth(N_, D_):.2f}")
for m, mk in zip(K.SOLVERS, ["o", "s", "^"]):
    axes[1].plot(depths, flops[m], mk, ms=5, label=f"{m} (counted)")
axes[0].legend(fontsize=8)
axes[1].legend(fontsize=7, ncol=2)
plt.show()

# %% [markdown]
# The wall-clock times below come from one CPU thread and vary from machine to machine and from run
# to run. The checked claims rest on the flop counts above; the times are recorded as volatile.

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
# brief's "deeper is faster" check. Only the primal solves at $D=1000$ are too slow for CI.

# %%
Xp, yp = make_friedman1(n_samples=N_p, n_features=D_p, noise=1.0, random_state=P.seed)
paper_time = {}
for depth in (3, 7):
    T_d = K.init_tree(Xp, yp, depth, P.rng)
    leaf = K.route(T_d, Xp)
    paper_time[depth] = K.best_time(lambda: K.leaf_step(T_d, Xp, yp, P.lam, "auto", leaf), P.repeats)

# %%
wall_ratio = times["primal"][i5] / times["woodbury"][i5]
print("Timing table (wall clock, one thread; volatile)")
print(f"{'depth':>5} {'max n_l':>8} {'primal ms':>10} {'woodbury ms':>12} {'auto ms':>8} {'primal/woodbury':>16}")
for k, d in enumerate(P.depths):
    print(f"{d:>5} {n_max[k]:>8} {1e3 * times['primal'][k]:>10.2f} {1e3 * times['woodbury'][k]:>12.2f} "
          f"{1e3 * times['auto'][k]:>8.2f} {times['primal'][k] / times['woodbury'][k]:>16.2f}")
print(f"auto leaf step at N={N_p}, D={D_p}: depth 3 {1e3 * paper_time[3]:.1f} ms, depth 7 "
      f"{1e3 * paper_time[7]:.1f} ms (ratio {paper_time[7] / paper_time[3]:.2f}); at D={P.D}: depth 7 / depth 3 "
      f"= {times['auto'][P.depths.index(7)] / times['auto'][P.depths.index(3)]:.2f}")
print(f"whole TAO fit, depth {P.depth}, {P.iters} iterations: primal {wall_fit['primal']:.2f} s, "
      f"woodbury {wall_fit['woodbury']:.2f} s (decision steps included)")

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
    T, h = K.tao_fit(K.init_tree(Atr, btr, P.depth, P.rng), Atr, btr, lam, P.iters, "auto")
    cart = DecisionTreeRegressor(max_depth=P.depth, random_state=P.seed).fit(Atr, btr)
    ridge = Ridge(alpha=1.0).fit(Atr, btr)
    acc[name] = dict(lam=lam, hist=h, tao=K.rmse(bte, K.tree_predict(T, Ate)),
                     cart=K.rmse(bte, cart.predict(Ate)), ridge=K.rmse(bte, ridge.predict(Ate)))

fig, ax = plt.subplots(figsize=(6.4, 3.2))
names = list(acc)
for k, (key, lab) in enumerate([("tao", f"TAO linear leaves, depth {P.depth}"),
                                ("cart", f"CART, depth {P.depth}"), ("ridge", "global ridge")]):
    ax.bar(np.arange(len(names)) + 0.27 * (k - 1), [acc[n][key] for n in names], 0.27, label=lab)
ax.set_xticks(np.arange(len(names)), [f"Friedman1, {n}" for n in names])
ax.set_ylabel("test RMSE (units of $y$)")
ax.legend()
plt.show()
for n in names:
    print(n, {k: (round(v, 3) if isinstance(v, float) else "...") for k, v in acc[n].items()})

# %% [markdown]
# ### Checking the claims
#
# The thresholds are those of the reproduction brief, fixed before the run. The flop-model claims at
# the paper-scale sizes are evaluated analytically. The counted-flop claims use our ci-size run. The
# two wall-clock checks are volatile.

# %%
all_hists = [hist_p, hist_w] + [a["hist"] for a in acc.values()]
max_rel_increase = max(float(np.max(np.diff(h) / np.array(h[:-1]))) for h in all_hists)

flop_ratio_paper = (K.balanced_leaf_step_flops(N_p, D_p, 5, "primal")
                    / K.balanced_leaf_step_flops(N_p, D_p, 5, "woodbury"))
w7, w3 = (K.balanced_leaf_step_flops(N_p, D_p, d, "woodbury") for d in (7, 3))
global_ridge = K.leaf_flops(N_p, D_p, "primal")
peak_depth = int(depths[np.argmax(flops["auto"])])

claims.check("same-tree", statement="Primal and Woodbury leaf solves give the same TAO tree "
             f"(max relative prediction difference, depth {P.depth}, {P.iters} iterations)",
             paper="exactly the same result as standard TAO", criterion=less_than(1e-6),
             measured=pred_rel_diff)
claims.check("same-routing", statement="Both runs send every train and test instance to the same leaf",
             paper="exactly the same tree", criterion=is_true(), measured=same_routing)
claims.check("monotone", statement="TAO objective never increases (max relative increase over all steps of all runs)",
             paper="TAO decreases the objective monotonically", criterion=at_most(1e-10),
             measured=max_rel_increase)
claims.check("flops-ratio-N2000-D1000-d5", statement="Flop model, N=2000, D=1000, depth 5: primal / Woodbury leaf step",
             paper="much faster for high D or deep trees (no number found)", criterion=at_least(3),
             measured=float(flop_ratio_paper))
claims.check("flops-ratio-counted", statement=f"Counted flops in our run (D={P.D}, depth {P.depth}): primal / Woodbury",
             paper="much faster (no number found)", criterion=at_least(3),
             measured=float(flops["primal"][i5] / flops["woodbury"][i5]))
claims.check("deeper-is-cheaper", statement="Flop model, D=1000: Woodbury leaf step at depth 7 / at depth 3",
             paper="past a critical depth, deeper trees train faster", criterion=less_than(1),
             measured=w7 / w3)
claims.check("cheaper-than-linreg", statement="Flop model, D=1000: Woodbury leaf step at depth 7 / one global ridge",
             paper="a tree can be faster to learn than a linear regression", criterion=less_than(1),
             measured=w7 / global_ridge)
claims.check("critical-depth", statement=f"Depth where the counted auto leaf-step flops peak (N={P.N}, D={P.D}); "
             f"log2(N/D) = {d_crit:.2f}", paper="critical depth ~ log2(N/D) (secondary source)",
             criterion=between(np.floor(d_crit), np.ceil(d_crit)), measured=peak_depth)
claims.check("wall-ratio", statement=f"Wall clock, depth {P.depth}, D={P.D}: primal / Woodbury leaf step",
             paper="much faster (no number found)", criterion=at_least(1.5), measured=float(wall_ratio),
             volatile=True)
claims.check("wall-deeper-faster", statement=f"Wall clock, N={N_p}, D={D_p}: auto leaf step at depth 7 / at depth 3",
             paper="past a critical depth, deeper trees train faster", criterion=less_than(1),
             measured=float(paper_time[7] / paper_time[3]), volatile=True)
for n in names:
    claims.check(f"tao-vs-cart-{n.replace('=', '')}", statement=f"Friedman1 {n}, depth {P.depth}: TAO test RMSE / CART test RMSE",
                 paper="TAO trees are much more accurate than CART", criterion=less_than(1),
                 measured=acc[n]["tao"] / acc[n]["cart"])

# %% [markdown]
# The two wall-clock checks, with this run's values. They vary from run to run and machine to machine, so
# they are shown here but do not count towards the verdict; the checked speed claims above rest on flops.

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
# **Reproduced: the same tree, a monotone objective, and the speed-up.** Solving each leaf's ridge
# problem in its dual (Woodbury) form gives the same TAO tree: predictions agree to rounding (about
# $10^{-16}$ relative) and every instance reaches the same leaf. The objective never went up in any
# run. In the flop model at the paper-scale sizes ($N=2000$, $D=1000$, depth 5), the Woodbury leaf step
# needs about 100 times fewer flops than the primal one. In our ci run ($D=300$) the counted ratio is
# about 11. Measured wall-clock ratios are smaller and noisy (between about 1.6 and 6.7 across our runs, this
# run's value in the timing table): at small $n_\ell$, per-leaf fixed costs (slicing, centring, a LAPACK call) dominate.
#
# **Reproduced: deeper is cheaper past $\log_2(N/D)$.** The cost of the fast (auto) leaf step peaks
# where the leaves hold about $D$ instances. In our run the peak sits at depth 2, against
# $\log_2(2000/300)=2.7$. Past that depth, the flop count falls with every level. At $D=1000$ a depth-7
# tree's leaf step costs about 1.5% of one global ridge regression, and in wall clock it runs faster
# than a depth-3 tree's. **What the flop model hides:** at moderate $D$ (our ci $D=300$) the wall-clock
# gain from depth 3 to depth 7 mostly disappears (the depth-7/depth-3 ratio printed above the figure).
# The dual solves become so small that the roughly 0.1 ms of fixed cost per leaf, times 128 leaves, is
# as large as the flops saved. "Deeper is faster" in seconds therefore needs $D$ large enough that the
# arithmetic, not the bookkeeping, dominates.
#
# **Accuracy: mixed.** With few features (Friedman1, $D=10$), TAO's depth-5 oblique tree with linear
# leaves beats CART of the same depth by a wide margin (test RMSE ratio about 0.66), as TAO papers
# report. On the high-dimensional speed data set ($D=300$, only 5 relevant features, about 60 points per
# leaf) **it does not**: the ridge leaves overfit, even with $\lambda$ chosen on validation, and CART and
# a global ridge are both better. This is a property of our miniature (small $N$ against $D$, no
# pruning, a crude decision-node step, 5 iterations), not a test of the paper's speed claim. The paper
# tunes its trees on real data sets.
#
# **At full scale** (`make run PAPER=tao-linear-leaves-smw SCALE=full`: $N=3000$, $D=1000$, depths 1 to 8;
# seed 0, about 70 s on one thread) the statuses are the same as here: identical trees (relative difference
# $10^{-15}$), a monotone objective, a counted primal/Woodbury flop ratio of 46 at depth 5 and a wall-clock ratio
# of about 24 in that run, and the same accuracy split (TAO/CART RMSE 0.47 at $D=10$, 1.77 at $D=1000$, the
# latter again not reproduced). The peak of the counted leaf-step flops moved to depth 1 there, against
# $\log_2(3000/1000)=1.6$.
#
# **What the miniature cannot show.**
#
# - Timings on the paper's data sets and sizes.
# - The decision-node step of the paper's TAO (weighted classification, for example logistic).
# - The cost of a whole TAO iteration. Here, with the decision nodes solved the same way in both
#   variants, the whole fit takes about as long with either leaf solver (timing table); only the
#   leaf step is faster.
# - The exact constants of the paper's complexity theorem, which we did not have. Our model counts
#   leading-order flops for a Cholesky-based solve.
#
# **What was hard.** Keeping the wall-clock checks stable on a shared CPU. Best-of-3 timings still move
# by a factor of 2 between runs, so every checked speed claim rests on a deterministic flop count, and
# the two wall-clock checks are volatile.
