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
# # Semi-dual OT map estimation with a sieved convex conjugate
#
# *A Tanh-network potential trained on the semi-dual objective, with its convex conjugate taken over a
# growing compact "sieve", recovers the Brenier map, also between laws with unbounded support, and its error
# is governed by sample size, sieve radius and network size.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from scipy.stats import spearmanr

from repro.claims import Claims, at_most, greater_than, less_than, tolerance
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope
from repro.papers import semidual_ot_map_sieve as K

P = setup_notebook(scale, seed, presets={
    # about 11 s of CPU: 6 small network fits of 150 Adam steps, 3 Sinkhorn solves, one repetition
    "ci": dict(ns_a=[250, 500], ns_b=[500], radii=[1.0, 4.0, 8.0], reps=1, steps=150, lr=1e-2, width=32,
               depth=2, n_grid=16, refine=1, n_test=2000, snap_every=15, n_fresh=1000),
    # a few minutes: the brief's n-grid on both cases, 4 radii, 2 repetitions, 4x the steps
    "full": dict(ns_a=[250, 500, 1000, 2000], ns_b=[250, 500, 1000, 2000], radii=[1.0, 2.0, 4.0, 8.0],
                 reps=2, steps=600, lr=1e-2, width=32, depth=2, n_grid=20, refine=1, n_test=5000,
                 snap_every=40, n_fresh=2000),
})
claims = Claims("semidual-ot-map-sieve", title=None, authors=None, paper_url=None, scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# We only had the paper's abstract. Its title, authors and link were not found: the brief's searches and a
# second round for this page (arXiv pages, documentation and public code, by the abstract's phrases "sieved
# convex conjugate", "sieved bias" and "semi-dual OT map estimation") returned only neighbouring papers, such
# as Ding, Li and Xue's sieve plug-in estimators (arXiv 2412.08064). That is why the card says "title not
# found"; the heading above is our own short title. This page tests the abstract's claims in our own
# formalisation. For the quadratic cost, Brenier's theorem gives the
# optimal transport map from $P$ to $Q$ as the gradient $T_0=\nabla\varphi_0$ of a convex potential, and
# $\varphi_0$ minimises the *semi-dual* risk
#
# $$J(\varphi)=\int\varphi\,dP+\int\varphi^*\,dQ,\qquad \varphi^*(y)=\sup_x\ \langle x,y\rangle-\varphi(x).$$
#
# The paper studies estimators that minimise an empirical version of $J$ over a function class and output
# $\hat T=\nabla\hat\varphi$. Its abstract claims (i) a *stability* bound, linking the map error to the
# excess semi-dual risk without second-order smoothness of $\varphi_0$ (the abstract names a map stability
# bound without second-order regularity; that it compares the map error with the excess risk is our
# reading); (ii) an *oracle inequality* splitting the error into a statistical part (finite $n$), a
# *sieved bias* (in our reading, the conjugate is taken over a compact set $K_n$ instead of
# $\mathbb R^d$) and an approximation part measured in $L^\infty$ rather than a Sobolev norm; (iii) as a
# consequence, guarantees for Tanh-network estimators between *general* laws, including laws with
# unbounded support. The paper's rates and constants were not available to us, so agreement here is
# qualitative: the error falls with $n$, the sieve bias is real and vanishes as the sieve grows, the risk
# and the map error move together, and the estimator works with unbounded support.
#
# ## The method
#
# **Sieved conjugate.** For a compact sieve $K\subset\mathbb R^d$,
# $$\varphi^*_K(y)=\max_{x\in K}\ \langle x,y\rangle-\varphi(x)\ \le\ \varphi^*(y).$$
# We take $K_n$ = the ball of radius $R_n=1+\sqrt{2\log n}$, discretised by the source points inside it and a
# square grid, and refine each discrete argmax by a projected gradient-ascent step
# $x\leftarrow\Pi_{B_{R}}\big(x+\tfrac12(y-\nabla\varphi(x))\big)$ (kept only if it improves the value).
#
# **Empirical semi-dual risk and estimator.** With $X_1..X_n\sim P$ and $Y_1..Y_n\sim Q$,
# $$J_n(\varphi)=\frac1n\sum_i\varphi(X_i)+\frac1n\sum_j\varphi^*_{K_n}(Y_j),\qquad
# \varphi_\theta(x)=\tfrac12\|x\|^2+f_\theta(x),$$
# where $f_\theta$ is a Tanh MLP (2 hidden layers of 32 units, last layer initialised at zero so that the
# starting map is the identity). $\varphi_\theta$ is *not* constrained to be convex. We minimise $J_n$ with
# full-batch Adam; the gradient of $\varphi^*_{K}(y)$ in $\theta$ is $-\partial_\theta\varphi_\theta(x^*(y))$
# at the maximiser (envelope theorem). The map is $\hat T=\nabla\varphi_{\hat\theta}$, by autograd.
#
# **Baselines.** (1) The *entropic map* of Pooladian and Niles-Weed: solve entropic OT between the two
# samples with POT's `ot.sinkhorn` (log domain, cost $\tfrac12\|x-y\|^2$, regularisation
# $\varepsilon_n=0.5\,n^{-1/4}$, a rule we fixed before any run), and map
# $x\mapsto\sum_j w_j(x)Y_j$ with $w_j(x)\propto v_j e^{-\|x-Y_j\|^2/2\varepsilon}$, the barycentric
# projection of the Sinkhorn plan extended out of sample by its dual potential. (2) Discrete OT (`ot.emd`)
# with barycentric projection and a 1-nearest-neighbour extension.
#
# **Error.** $\mathrm{err}(\hat T)=\mathbb E_{X\sim P}\|\hat T(X)-T_0(X)\|^2$ on fresh test points, and the
# relative error $\mathrm{err}/\mathbb E\|T_0(X)-\mathbb E T_0(X)\|^2$ (1 = predicting the mean, identity
# map is about 0.5 to 0.8 here).
#
# ## The experiment
#
# Two synthetic 2-D cases with closed-form Brenier maps:
#
# * **(a) Gaussian to Gaussian**: $P=N(0,\Sigma_1)$, $Q=N(m_2,\Sigma_2)$,
#   $T_0(x)=m_2+A x$ with $A=\Sigma_1^{-1/2}(\Sigma_1^{1/2}\Sigma_2\Sigma_1^{1/2})^{1/2}\Sigma_1^{-1/2}$.
# * **(b) Unbounded support, non-Lipschitz map**: $P=N(0,I_2)$, $T_0(x)=(1+\tfrac12\|x\|)\,x
#   =\nabla\big(\tfrac12\|x\|^2+\tfrac16\|x\|^3\big)$, whose Hessian grows without bound; $Q=T_0\#P$ is
#   sampled as $T_0(X')$ with fresh $X'$.
#
# We vary the three knobs of the oracle inequality that a laptop can reach: $n$ (statistical error), the
# sieve radius $R$ on case (b) (sieve bias), and, through training checkpoints, the excess risk (stability).
#
# **Deviations from the paper** (all forced by having only the abstract, or by the CPU budget):
#
# * The sieve construction (ball + grid + one or two ascent steps), the radius rule $R_n$, the network
#   (width 32, depth 2), the optimiser and the entropic $\varepsilon_n$ rule are our choices, not the paper's.
# * CI scale is tiny so the whole page runs in about 10 s of one CPU core: $n\in\{250,500\}$ on case (a),
#   $n=500$ on case (b), radii $R\in\{1,4,8\}$, 150 Adam steps, one repetition, 2000 test points. The full
#   scale ($n$ up to 2000, $R\in\{1,2,4,8\}$, 600 steps, 2 repetitions) takes a few minutes.
# * No width sweep: the approximation term of the oracle inequality is not varied.
# * Two dimensions only; no image or single-cell data.
# * The thresholds of the checks below come from our brief, not from numbers in the paper (none were found).
# * The controls beside each check (the discrete-OT map, a larger sieve, a permuted null) are our own
#   choices; the CI radius sweep gained $R=8$ for one of them.

# %% [markdown]
# The next cell draws the data, fits every estimator and measures the errors (the loop body calls kernels
# only; a progress bar shows at full scale).

# %%
cases = {name: K.make_case(name) for name in K.CASES}
X_test = {name: c.source(P.n_test, P.rng) for name, c in cases.items()}
fit_kw = dict(steps=P.steps, lr=P.lr, width=P.width, depth=P.depth, n_grid=P.n_grid, refine_steps=P.refine)


def relerr(T_hat, name):
    return K.relative_map_error(T_hat, cases[name].T, X_test[name])


errors = {}   # (case, estimator, n) -> list over repetitions
models = {}   # (case, estimator, n) -> last fitted map, for the figures
jobs = [("gaussian", n) for n in P.ns_a] + [("radial", n) for n in P.ns_b]
for name, n in progress(jobs, desc="n-sweep"):
    for rep in range(P.reps):
        X, Y = cases[name].pair(n, P.rng)
        fit = K.fit_semidual_map(X, Y, sieve_radius=K.sieve_radius_rule(n), seed=P.seed + rep,
                                 snapshot_every=P.snap_every if (name, n, rep) == ("gaussian", max(P.ns_a), 0) else 0,
                                 **fit_kw)
        maps = {"semi-dual (Tanh, sieve)": fit.map,
                "entropic (Sinkhorn)": K.entropic_map(X, Y, K.entropic_eps(n)),
                "discrete OT (emd, 1-NN)": K.emd_nn_map(X, Y)}
        for est, T_hat in maps.items():
            errors.setdefault((name, est, n), []).append(relerr(T_hat, name))
            models[(name, est, n)] = T_hat
        if fit.snapshots:
            snapshots, X_snap = fit.snapshots, X

# Sieve-radius sweep on the unbounded case (b), at the largest n
n_R = max(P.ns_b)
X_R, Y_R = cases["radial"].pair(n_R, P.rng)
err_R, map_R = {}, {}
for R in progress(P.radii, desc="radius sweep"):
    fit = K.fit_semidual_map(X_R, Y_R, sieve_radius=R, seed=P.seed, **fit_kw)
    err_R[R], map_R[R] = relerr(fit.map, "radial"), fit.map

mean_err = {k: float(np.mean(v)) for k, v in errors.items()}
ESTIMATORS = ["semi-dual (Tanh, sieve)", "entropic (Sinkhorn)", "discrete OT (emd, 1-NN)"]
for name, ns in (("gaussian", P.ns_a), ("radial", P.ns_b)):
    print(name, {est: [round(mean_err[(name, est, n)], 4) for n in ns] for est in ESTIMATORS})
print("radius sweep (case b, relative error):", {R: round(e, 4) for R, e in err_R.items()})

# %% [markdown]
# ## Results
#
# ### The estimated maps
#
# Each panel pushes a grid of source points (thin lines) through a map. The grid is the square $[-2,2]^2$
# in whitened coordinates $u$, i.e. the points $x=Lu$ with $LL^\top=\Sigma_1$, so it covers where $P$ has
# mass (about 91% of it). The semi-dual and entropic estimates should deform the grid the way the true
# Brenier map does; on case (b) the true map stretches
# the outer grid lines much more than the inner ones (the map is not Lipschitz).

# %%
line = np.linspace(-2.0, 2.0, 60)
levels = np.linspace(-2.0, 2.0, 9)
fig, axes = plt.subplots(2, 3, figsize=(9, 6), sharex="row", sharey="row")
for row, (name, n) in enumerate((("gaussian", max(P.ns_a)), ("radial", max(P.ns_b)))):
    panels = [("true map $T_0$", cases[name].T), ("semi-dual $\\nabla\\hat\\varphi$",
              models[(name, ESTIMATORS[0], n)]), ("entropic map", models[(name, ESTIMATORS[1], n)])]
    for ax, (label, T_map) in zip(axes[row], panels):
        for c in levels:
            for u in (np.c_[line, np.full_like(line, c)], np.c_[np.full_like(line, c), line]):
                img = T_map(u @ cases[name].chol.T)  # grid in whitened coordinates: where P has mass
                ax.plot(img[:, 0], img[:, 1], lw=0.7, color="C0" if label.startswith("true") else "C1")
        ax.set_title(f"case ({'ab'[row]}), {label}", fontsize=9)
        ax.set_xlabel("$T(x)_1$")
    axes[row, 0].set_ylabel("$T(x)_2$")
fig.suptitle(f"Images of a grid covering the bulk of P (n = {max(P.ns_a)} / {max(P.ns_b)} samples)")
plt.show()

# %% [markdown]
# ### Error against sample size
#
# The relative $L^2(P)$ map error of the three estimators as $n$ grows, on log-log axes (at CI scale the
# unbounded case (b) has a single $n$). The fitted log-log slopes are printed below the figure.

# %%
fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
slopes = {}
for ax, (name, ns) in zip(axes, (("gaussian", P.ns_a), ("radial", P.ns_b))):
    for est, mk in zip(ESTIMATORS, "osd"):
        e = [mean_err[(name, est, n)] for n in ns]
        ax.plot(ns, e, marker=mk, label=est)
        if len(ns) >= 2:
            slopes[(name, est)] = loglog_slope(ns, e)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("sample size n (log scale)")
    ax.set_title(f"case ({'ab'[name == 'radial']}): {name}")
axes[0].set_ylabel("relative map error $\\|\\hat T-T_0\\|^2_{L^2(P)}/\\mathrm{Var}\\,T_0$")
axes[0].legend()
plt.show()
print({f"{k[0]}, {k[1]}": round(v, 2) for k, v in slopes.items()})

# %% [markdown]
# ### Sieve bias on the unbounded case
#
# With a small sieve the conjugate only "sees" potentials on the ball $B_R$, so nothing in $J_n$ stops the
# network from pushing $\varphi$ down outside it: the source term $\frac1n\sum_i\varphi(X_i)$ rewards that
# and the conjugate term does not notice. That is the sieve bias of the oracle inequality. Left: the first
# coordinate of the map along the axis $x=(t,0)$; right: the error against $R$.

# %%
t = np.linspace(-4, 4, 161)
pts = np.c_[t, np.zeros_like(t)]
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.4))
ax1.plot(t, cases["radial"].T(pts)[:, 0], color="k", lw=2, label="true $T_0$")
for R in P.radii:
    ax1.plot(t, map_R[R](pts)[:, 0], label=f"semi-dual, R = {R:g}")
ax1.set_ylim(-15, 15)
ax1.set_xlabel("$t$ (point $x=(t,0)$)")
ax1.set_ylabel("$\\hat T(x)_1$")
ax1.legend()
ax2.plot(P.radii, [err_R[R] for R in P.radii], marker="o")
ax2.set_xscale("log", base=2)
ax2.set_yscale("log")
ax2.set_xlabel("sieve radius R (log scale)")
ax2.set_ylabel("relative map error")
ax2.set_title(f"case (b), n = {n_R}")
plt.show()

# %% [markdown]
# ### Stability: excess risk against map error
#
# Along the training run of case (a) at the largest $n$ we keep a copy of the potential every
# few steps and measure, on fresh samples, its excess semi-dual risk $J(\hat\varphi)-J(\varphi_0)$ (both
# conjugates over a fine sieve with refinement) and its map error. A stability bound says the second is
# controlled by the first.

# %%
Xf, Yf = cases["gaussian"].pair(P.n_fresh, P.rng)
R_f = K.sieve_radius_rule(P.n_fresh)
steps_snap = [s for s, _ in snapshots]
excess = [K.excess_semi_dual_risk(phi, cases["gaussian"].phi0, Xf, Yf, R_f) for _, phi in snapshots]
map_err = [K.map_l2_error(K.gradient_map(phi), cases["gaussian"].T, X_test["gaussian"]) for _, phi in snapshots]
rho = float(spearmanr(excess, map_err).statistic)
fig, ax = plt.subplots(figsize=(4.8, 3.4))
sc = ax.scatter(np.maximum(excess, 1e-6), map_err, c=steps_snap, cmap="viridis", s=25)
fig.colorbar(sc, label="Adam step")
ax.set_xscale("log")
ax.set_yscale("log")
ax.xaxis.set_minor_formatter(plt.NullFormatter())
ax.yaxis.set_minor_formatter(plt.NullFormatter())
ax.set_xlabel("excess semi-dual risk $J(\\hat\\varphi)-J(\\varphi_0)$")
ax.set_ylabel("map error $\\|\\hat T-T_0\\|^2_{L^2(P)}$")
ax.set_title(f"case (a), n = {max(P.ns_a)}: Spearman rho = {rho:.2f}")
plt.show()
ratio_se = np.array(map_err) / np.maximum(excess, 1e-12)
print(f"map error / excess risk over checkpoints: min {ratio_se.min():.2f}, max {ratio_se.max():.2f}")

# %% [markdown]
# ### Checks
#
# Thresholds were fixed before the run (from the brief; the paper gives none we could find):
#
# 1. `gauss-rel-error`: case (a) at the largest $n$, relative error below 0.20 (CI, $n=500$) or 0.10 (full, $n=2000$).
# 2. `error-falls-with-n`: log-log slope of the semi-dual error against $n$ on case (a) below 0 at CI
#    (equivalently err(500) < err(250)) and below $-0.3$ at full scale.
# 3. `unbounded-rel-error`: on case (b), relative error at the largest $n$ below the same thresholds as check 1.
# 4. `sieve-bias`: on case (b), err($R=4$) / err($R=1$) below 0.8.
# 5. `stability-spearman`: Spearman correlation of excess risk and map error across checkpoints above 0.8.
# 6. `competitive-with-entropic` (our addition): the semi-dual error is at most 1.5 times the entropic
#    map's at the largest $n$, in the worse of the two cases.
#
# Each check has a **control**, the same measurement under the same criterion on something for which
# the claim should not hold:
#
# * checks 1 to 3: the naive discrete-OT map (`ot.emd` with barycentric projection and a 1-nearest-neighbour
#   extension), which has none of the paper's machinery. It is also consistent, so if it passes too, the
#   check says nothing about the semi-dual estimator;
# * check 4: the same error ratio between two sieves that both already cover the sample, err($R=8$) /
#   err($R=4$); once the sieve covers the data its bias is gone and a larger sieve should not help;
# * check 5: a null model, the same excess risks taken in a random (seeded) order;
# * check 6: the discrete-OT map's error against the entropic map's, in the worse case.
#
# The semi-dual errors are end points of 150 Adam steps and the entropic map comes out of Sinkhorn
# iterations, so their values are compared across machines within a declared relative tolerance
# (statuses exactly).

# %%
full = scale == "full"
thr = 0.10 if full else 0.20
na, nb = max(P.ns_a), max(P.ns_b)
sd, ent, emd = ESTIMATORS
ADAM = "end point of full-batch Adam on the semi-dual risk (and, for controls, Sinkhorn iterations)"
naive = "discrete OT (emd, 1-NN): the naive baseline"
claims.check("gauss-rel-error",
             statement=f"Case (a) Gaussian: relative L2 map error of the semi-dual Tanh estimator at n={na}",
             paper="consistency of the semi-dual estimator (no number found)",
             criterion=less_than(thr), measured=mean_err[("gaussian", sd, na)],
             control=mean_err[("gaussian", emd, na)], control_label=naive,
             tol=tolerance(rel=0.05, why=ADAM))
slope_a = loglog_slope(P.ns_a, [mean_err[("gaussian", sd, n)] for n in P.ns_a])
claims.check("error-falls-with-n",
             statement=f"Case (a): log-log slope of the semi-dual error against n over n={P.ns_a}",
             paper="statistical error term shrinks with n (rate not found)",
             criterion=less_than(-0.3 if full else 0.0), measured=slope_a,
             control=loglog_slope(P.ns_a, [mean_err[("gaussian", emd, n)] for n in P.ns_a]), control_label=naive,
             tol=tolerance(rel=0.05, abs=0.1, why="slope through errors that are Adam end points"))
claims.check("unbounded-rel-error",
             statement=f"Case (b), unbounded support and non-Lipschitz map: relative error at n={nb}, R=R_n",
             paper="guarantee between general laws with unbounded support (no number found)",
             criterion=less_than(thr), measured=mean_err[("radial", sd, nb)],
             control=mean_err[("radial", emd, nb)], control_label=naive,
             tol=tolerance(rel=0.05, why=ADAM))
claims.check("sieve-bias",
             statement=f"Case (b), n={n_R}: error ratio err(R=4) / err(R=1); the sieve bias falls as R grows",
             paper="oracle inequality with a sieved-bias term (abstract); that it vanishes as the sieve grows is "
             "our reading; no rate found",
             criterion=less_than(0.8), measured=err_R[4.0] / err_R[1.0],
             control=err_R[8.0] / err_R[4.0], control_label="err(R=8) / err(R=4): both sieves already cover the sample",
             tol=tolerance(rel=0.2, why="ratio of two Adam end points; err(R=1) is a diverging map's error"))
claims.check("stability-spearman",
             statement="Case (a): Spearman correlation of excess semi-dual risk and map error over checkpoints",
             paper="map stability bound without second-order regularity (abstract); that it bounds the map error "
             "by the excess semi-dual risk is our reading; no constant found",
             criterion=greater_than(0.8), measured=rho,
             control=float(spearmanr(np.random.default_rng(seed).permutation(excess), map_err).statistic),
             control_label="null model: the same excess risks in a random (seeded) order",
             tol=tolerance(rel=0, abs=0.1, why="ranks of Adam checkpoints whose excess risks differ in the third digit"))
ratio = max(mean_err[(name, sd, n)] / mean_err[(name, ent, n)] for name, n in (("gaussian", na), ("radial", nb)))
claims.check("competitive-with-entropic",
             statement="Worse case of err(semi-dual) / err(entropic map) at the largest n (our addition)",
             paper="not claimed in the abstract; our sanity check against the standard entropic estimator",
             criterion=at_most(1.5), measured=ratio,
             control=max(mean_err[(name, emd, n)] / mean_err[(name, ent, n)] for name, n in (("gaussian", na), ("radial", nb))),
             control_label="the same ratio for discrete OT (emd, 1-NN)",
             tol=tolerance(rel=0.05, why=ADAM))

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Partial, and thin: of six checks only two are informative at CI scale (the committed page). The
# comparison with the entropic map is reproduced; the stability check is not; the other four pass, but
# so do their controls.**
#
# These are the statuses of seed 0. Re-run over seeds 0–9 (the table "Across seeds and scales" above,
# from `make sweep`), none of the informative checks is stable: the stability check holds at 7 of the 10
# seeds (its Spearman correlation has median 0.895 against the 0.8 threshold), the comparison with the
# entropic map at 8, and the sieve-bias check, uninformative at seed 0, holds at 8. So the seed-0 verdict
# is one draw of a verdict that varies with the seed ("partial" at 4 seeds, "reproduced" at 6).
#
# * *Consistency, also with unbounded support: uninformative.* The semi-dual Tanh estimator recovers
#   both closed-form maps to about 2% relative error at $n=500$ (case (a) 0.023, case (b) 0.022), well
#   under the 0.20 threshold, with no convexity constraint on the network. But the naive discrete-OT map
#   (1-NN extension) also passes, at 0.043 and 0.054: a threshold of 0.20 does not separate a good
#   estimator from a naive one, so these two checks carry no evidence for the paper's guarantee. The
#   semi-dual errors are about half the naive ones; we did not turn that into a comparative claim after
#   seeing the numbers.
# * *Statistical error: uninformative.* On case (a) the error falls with $n$ (log-log slope $-0.78$
#   between $n=250$ and $500$, one repetition), but the discrete-OT map's error falls too ($-0.58$), and
#   any consistent estimator passes "slope below 0". Two points and one repetition are not a rate.
# * *Sieve bias: uninformative as designed.* This is still the clearest effect on the page. With $R=1$
#   the objective never looks at $\varphi$ outside the unit ball except through
#   $\frac1n\sum_i\varphi(X_i)$, which rewards pushing it down, so the fitted map explodes outside the
#   ball (about 60% of the mass of $N(0,I_2)$); the relative error is in the thousands, against about 0.05
#   at $R=4$ (ratio $2\cdot10^{-5}$). Our control, err($R=8$)/err($R=4$), was meant as a case where the
#   sieve already covers the sample and a larger one should not help; it came out at 0.69, also below
#   0.8. On reflection the control was not a null: with unbounded support the sieve bias shrinks for every
#   $R$, and at 150 steps the fit still gains from $R=8$. We keep the control as chosen and do not count
#   the claim.
# * *Stability: not reproduced at this scale by our criterion*: Spearman 0.75 < 0.8 (the null model, the
#   same risks in a random order, gives $-0.16$). Both quantities drop together by more than an order of
#   magnitude in the first 45 steps, and the ratio of map error to excess risk stays within a factor of
#   about 2 (roughly 2 to 4, printed under the figure), as a bound of the form
#   $\|\hat T-T_0\|^2\le C\,(J(\hat\varphi)-J(\varphi_0))$ predicts. But after that the checkpoints sit in a
#   narrow band (excess 0.014 to 0.019), where our estimate of the excess risk on 1000 fresh points cannot
#   rank them reliably, and the rank correlation is decided by that plateau. A Spearman check over one
#   training run was a weak design for a stability bound; a fixed-constant check would fit it better.
# * *Against the baselines: reproduced.* The semi-dual estimator is somewhat more accurate than the
#   entropic map (worse-case error ratio 0.83 ≤ 1.5), while the discrete-OT map is not competitive by the
#   same criterion (1.75). This is our own sanity check, not a claim of the abstract.
#
# **Full scale** (seed 0, $n$ up to 2000, two repetitions, 600 steps; the last column of the table "Across
# seeds and scales") gives the same picture for the consistency and rate checks: the semi-dual errors are
# smaller than at ci, but the naive maps pass the same criteria, so these checks stay uninformative. The
# comparison with the entropic map is reproduced again. Two checks move. The sieve-bias check counts at full
# scale: after 600 steps the fit with $R=4$ has converged, and its control, err($R=8$)/err($R=4$), no longer
# falls below 0.8, as we had meant it to. The stability check fails at full scale, as at seed 0 and 2 other
# ci seeds: the longer run puts 16 checkpoints on the plateau of excess risk described above, whose order our
# estimate cannot resolve. So the seed-0 verdict is "partial" at both scales, for partly different reasons.
#
# **What the miniature cannot show.** The paper's rates, constants and exact sieve construction were not
# available, so nothing here tests a rate. We do not vary the network width, so the approximation term
# (and the paper's point that it is measured in $L^\infty$ rather than a Sobolev norm) is not tested.
# Only two dimensions. **What was hard:** the unconstrained potential makes the sieve bias severe rather
# than mild (the network is free to go down outside the sieve); POT's NumPy log-domain Sinkhorn was too
# slow for the CI budget, so we pass torch tensors to `ot.sinkhorn` to use its torch backend.
