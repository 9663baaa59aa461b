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
# *The paper: a Tanh-network potential trained on the semi-dual objective, with its convex conjugate taken
# over a growing compact "sieve", provably recovers the Brenier map, also between laws with unbounded support,
# with an error bound split into statistical, sieve and approximation terms. Here, in 2-D: the estimator does
# recover the map, but so do the same network without a compact sieve and maps with a few numbers, and neither
# the bound nor the network-size term is tested.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue
from scipy.stats import spearmanr

from repro.claims import Claims, Comparator, at_most, greater_than, less_than, tolerance
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope
from repro.papers import semidual_ot_map_sieve as K

P = setup_notebook(scale, seed, presets={
    # about 15-20 s of one CPU core on a quiet machine (the record's runtime_s, measured on a loaded one, is larger):
    # 5 sieved fits of 150 Adam steps, 3 sample-only and 2 unrestricted-conjugate fits, 3 Sinkhorn solves
    "ci": dict(ns_a=[250, 500], ns_b=[500], radii=[1.0, 4.0], reps=1, steps=150, lr=1e-2, width=32,
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
# unbounded support. The paper's rates and constants were not available to us, so agreement here can
# only be qualitative: we test that the error is small and falls with $n$, also with unbounded support, and
# illustrate the sieve bias (a too small sieve breaks the estimator) and the co-movement of risk and map error.
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
# relative error $\mathrm{err}/\mathbb E\|T_0(X)-\mathbb E T_0(X)\|^2$ (1 = predicting the mean; the identity
# map, which uses no data, scores {glue:text}`err_a_id:.2f` on case (a) and {glue:text}`err_b_id:.2f` on case
# (b) below).
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
# * CI scale is tiny so the whole page needs about 15 to 20 s of one CPU core (its wall-clock time on a loaded
#   machine, the record's `runtime_s`, is often a minute or more): $n\in\{250,500\}$ on case (a),
#   $n=500$ on case (b), radii $R\in\{1,4\}$, 150 Adam steps, one repetition, 2000 test points. The full
#   scale ($n$ up to 2000, $R\in\{1,2,4,8\}$, 600 steps, 2 repetitions) takes a few minutes.
# * No width sweep: the approximation term of the oracle inequality is not varied.
# * Our residual $f_\theta$ is a Tanh network, hence bounded; with the quadratic skip term this makes the
#   conjugate over all of $\mathbb R^d$ well posed without any sieve (see "What the miniature cannot show").
#   The paper's class may differ; a sieve is presumably needed for unbounded or non-coercive residuals.
# * Two dimensions only; no image or single-cell data.
# * The thresholds of the checks below come from our brief, not from numbers in the paper (none were found).
# * The comparators of the tests (the sample-only conjugate as the ablation of the sieve's grid and
#   refinement; the entropic, discrete-OT and affine moment-fit maps as naive baselines) are our own choices;
#   the ablation and the affine fit were added when the page was converted to the claim model, and the mean
#   translation, the isotropic shift-and-scale, the method stopped after 30 Adam steps and the conjugate over
#   $\mathbb R^2$ after the independent review, without changing any test's method, setting, criterion or
#   threshold. The conjugate over $\mathbb R^2$ is fitted at the largest $n$ only (CPU budget), so it is not a
#   comparator of `error-falls-with-n`. The CI radius sweep dropped $R=8$, used only by the old control of the
#   sieve-bias check (now an illustration), to pay for the ablation's fits; the full scale keeps
#   $R\in\{1,2,4,8\}$.
# * There is no official code, so no configuration of the paper's could be run as a second setting.

# %% [markdown]
# The next cell draws the data, fits every estimator and measures the errors (the loop body calls kernels
# only; a progress bar shows at full scale).

# %%
cases = {name: K.make_case(name) for name in K.CASES}
X_test = {name: c.source(P.n_test, P.rng) for name, c in cases.items()}
fit_kw = dict(steps=P.steps, lr=P.lr, width=P.width, depth=P.depth, n_grid=P.n_grid, refine_steps=P.refine)


def relerr(T_hat, name):
    return K.relative_map_error(T_hat, cases[name].T, X_test[name])


EARLY = 30    # Adam steps of the early-stopped comparator (a round number, fixed from the review)
errors = {}   # (case, estimator, n) -> list over repetitions
models = {}   # (case, estimator, n) -> last fitted map, for the figures
jobs = [("gaussian", n) for n in P.ns_a] + [("radial", n) for n in P.ns_b]
net_kw = dict(steps=P.steps, lr=P.lr, width=P.width, depth=P.depth)
for name, n in progress(jobs, desc="n-sweep"):
    for rep in range(P.reps):
        X, Y = cases[name].pair(n, P.rng)
        fit = K.fit_semidual_map(X, Y, sieve_radius=K.sieve_radius_rule(n), seed=P.seed + rep,
                                 snapshot_every=P.snap_every if (name, n, rep) == ("gaussian", max(P.ns_a), 0) else 0,
                                 keep_at=(EARLY,), **fit_kw)
        abl = K.fit_sample_conjugate_map(X, Y, seed=P.seed + rep, **net_kw)
        maps = {"semi-dual (Tanh, sieve)": fit.map,
                "entropic (Sinkhorn)": K.entropic_map(X, Y, K.entropic_eps(n)),
                "discrete OT (emd, 1-NN)": K.emd_nn_map(X, Y),
                "semi-dual, sample-only conjugate": abl.map,
                "affine (Gaussians fitted)": K.affine_gaussian_map(X, Y),
                "mean translation": K.translation_map(X, Y),
                "shift and isotropic scale": K.isotropic_affine_map(X, Y),
                f"semi-dual stopped at {EARLY} Adam steps": K.early_stopped_map(fit, EARLY),
                "identity (no data)": K.identity_map}
        if n == max(P.ns_a if name == "gaussian" else P.ns_b):  # the costly one only where its tests look
            maps["semi-dual, conjugate over R^2"] = K.fit_unrestricted_conjugate_map(X, Y, seed=P.seed + rep,
                                                                                     **net_kw).map
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
ESTIMATORS = ["semi-dual (Tanh, sieve)", "entropic (Sinkhorn)", "discrete OT (emd, 1-NN)",
              "semi-dual, sample-only conjugate", "affine (Gaussians fitted)"]
NAIVE = ["mean translation", "shift and isotropic scale", f"semi-dual stopped at {EARLY} Adam steps"]
NOCOMPACT, IDENTITY = "semi-dual, conjugate over R^2", "identity (no data)"
for name, ns in (("gaussian", P.ns_a), ("radial", P.ns_b)):
    print(name, {est: [round(mean_err[(name, est, n)], 4) for n in ns] for est in ESTIMATORS + NAIVE + [IDENTITY]})
    print(f"  {NOCOMPACT} at n={max(ns)}:", round(mean_err[(name, NOCOMPACT, max(ns))], 4))
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
# The relative $L^2(P)$ map error of the five estimators as $n$ grows, on log-log axes (at CI scale the
# unbounded case (b) has a single $n$). The fitted log-log slopes are printed below the figure.

# %%
fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
slopes = {}
for ax, (name, ns) in zip(axes, (("gaussian", P.ns_a), ("radial", P.ns_b))):
    for est, mk in zip(ESTIMATORS, "osd^v"):
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
# ### The paper's numbers beside ours
#
# We could read only the abstract, which reports no numbers; the table sets each of its statements beside what
# we measure on our stand-in (seed and scale of this run).

# %%
rows = [
    ("estimator works between general laws", "guarantee (no number)",
     f"case (a) n={max(P.ns_a)}: rel. error {mean_err[('gaussian', ESTIMATORS[0], max(P.ns_a))]:.3f}; "
     f"case (b) n={max(P.ns_b)}: {mean_err[('radial', ESTIMATORS[0], max(P.ns_b))]:.3f}"),
    ("statistical error falls with n", "rate not found",
     f"log-log slope {slopes[('gaussian', ESTIMATORS[0])]:.2f} on case (a)"),
    ("sieved bias term", "term of an oracle inequality",
     f"case (b): err(R=1) {err_R[1.0]:.0f}, err(R=4) {err_R[4.0]:.3f}"),
    ("stability without 2nd-order regularity", "bound (no constant)",
     f"Spearman {rho:.2f}; map error / excess risk in [{ratio_se.min():.2f}, {ratio_se.max():.2f}]"),
    ("L-infinity approximation error (Tanh nets)", "term of an oracle inequality", "not varied"),
]
print(f"{'statement':42s} {'paper (abstract)':30s} ours (seed {seed}, {scale} scale)")
for r in rows:
    print(f"{r[0]:42s} {r[1]:30s} {r[2]}")

# %% [markdown]
# ## Checking the claims
#
# Thresholds were fixed before the first run (from the brief; the paper gives none we could find), and none
# moved when the comparators below were added:
#
# 1. `gauss-rel-error` (test): case (a) at the largest $n$, relative error below 0.20 (CI, $n=500$) or 0.10
#    (full, $n=2000$).
# 2. `error-falls-with-n` (test): log-log slope of the error against $n$ on case (a), below 0 at CI
#    (equivalently err(500) < err(250)) and below $-0.3$ at full scale.
# 3. `unbounded-rel-error` (test): on case (b), relative error at the largest $n$ below the thresholds of check 1.
# 4. `competitive-with-entropic` (test, our addition): the semi-dual error is at most 1.5 times the entropic
#    map's at the largest $n$, in the worse of the two cases.
# 5. `sieve-bias` (illustration): on case (b), err($R=4$) / err($R=1$) below 0.8.
# 6. `stability-spearman` (illustration): Spearman correlation of excess risk and map error across
#    training checkpoints above 0.8.
#
# **Comparators of the tests.** The ingredient of the page is the *sieved conjugate*: the conjugate taken
# over a compact ball $K_n$ of radius $R_n$ growing with $n$ (source points, a grid and a gradient
# refinement), so that the semi-dual risk sees the potential everywhere on $K_n$. Its ablation is the same
# Tanh estimator, same steps and initialisation, with the conjugate taken over the *source sample only*
# ($\max_i\langle X_i,y\rangle-\varphi(X_i)$: the plain empirical conjugate). That removes the ball's grid
# and the refinement, not compactness: the sample is itself a compact, data-driven sieve. A second comparator
# removes compactness too: the conjugate over $\mathbb R^2$, from the sample argmax by two gradient-ascent
# steps projected on no ball (at the largest $n$ only). The naive baselines, measured under the same error and
# criterion, are the entropic map (Sinkhorn), discrete OT with a 1-NN extension, the *affine* map between
# Gaussians fitted to the two samples (a basis of fixed size that does not grow with $n$), a mean translation,
# a shift with an isotropic scale, and the method itself stopped after 30 of its Adam steps. In check 4 the
# entropic map is the reference, so it is not among that check's comparators.
#
# **Why checks 5 and 6 are not counted.** Check 5 is fixed by our construction: the potential is not
# constrained outside the sieve, so with $R=1$ the source term of $J_n$ pushes it down wherever the sieve
# cannot see, and the error explodes whatever the truth of the paper. Check 6 is a theorem of the paper (map error bounded by excess risk) whose
# constant and form we do not have; along one training run both quantities fall together for any estimator
# that converges, so a rank correlation cannot refute the bound, and the only control we had (the risks in a
# random order) fails by construction.
#
# The semi-dual errors are end points of 150 Adam steps and the entropic map comes out of Sinkhorn
# iterations, so their values are compared across machines within a declared relative tolerance
# (statuses exactly).

# %%
full = scale == "full"
thr = 0.10 if full else 0.20
ENT_MAX, SIEVE_MAX = 1.5, 0.8  # the brief's thresholds (check 4 is ours, fixed before the first run)
na, nb = max(P.ns_a), max(P.ns_b)
sd, ent, emd, abl, aff = ESTIMATORS
ADAM = "end point of full-batch Adam on the semi-dual risk (and, for comparators, Sinkhorn iterations)"
ING = ("the grid and gradient refinement of the conjugate over the ball of radius R_n (the sample-only "
       "conjugate still restricts it to a compact, data-driven set)")
tra, iso, early = NAIVE
LAB = {ent: "entropic map (Sinkhorn, barycentric projection)",
       emd: "discrete OT (emd, barycentric projection, 1-NN extension)",
       abl: "the same Tanh semi-dual estimator, conjugate over the source sample only",
       aff: "affine map between Gaussians fitted to the two samples (fixed-size basis)",
       tra: "mean translation x - mean(X) + mean(Y) (d numbers)",
       iso: "shift and isotropic scale matching the total variance (d + 1 numbers)",
       early: f"the same sieved estimator stopped after {EARLY} Adam steps",
       NOCOMPACT: "the same Tanh estimator, conjugate over R^2 (sample argmax and 2 unprojected ascent steps: "
                  "no compact restriction)"}


def comps(value_of, exclude=()):
    """Ablation and baselines of one test: ``value_of(estimator)`` is the test's measurement for it."""
    return dict(ablation=Comparator(LAB[abl], value_of(abl), ingredient=ING),
                baselines=[Comparator(LAB[e], value_of(e)) for e in (ent, emd, aff, tra, iso, early, NOCOMPACT)
                           if e not in exclude])


claims.headline(
    "general-laws-guarantee",
    "Semi-dual estimators with Tanh networks recover the Brenier map between general laws, including laws with "
    "unbounded support, under mild conditions on the true map. Tested here only by two lax consistency "
    "thresholds, which a mean translation or a moment fit also clears (not specific)",
    tests=["gauss-rel-error", "unbounded-rel-error"])
claims.headline(
    "oracle-inequality",
    "An oracle inequality splits the map error into statistical error, sieved bias and an L-infinity "
    "approximation error. Tested here: only that the error falls with n, by the sign of a slope through two "
    "single draws, which any consistent estimator passes; the sieve bias is illustrated and the approximation "
    "term (network width) is not varied",
    tests=["error-falls-with-n"])
claims.headline(
    "stability-without-regularity",
    "A map stability bound holds without second-order regularity of the true Brenier potential",
    untestable="a bound with a constant and form we could not read; the rank correlation of excess risk and map "
               "error along one training run (the illustration stability-spearman) cannot refute it")

claims.test("gauss-rel-error",
            statement=f"Case (a) Gaussian: relative L2 map error of the semi-dual Tanh estimator at n={na}",
            paper="consistency of the semi-dual estimator (no number found)",
            criterion=less_than(thr), measured=mean_err[("gaussian", sd, na)],
            **comps(lambda e: mean_err[("gaussian", e, na)]), tol=tolerance(rel=0.05, why=ADAM))
slope = {e: loglog_slope(P.ns_a, [mean_err[("gaussian", e, n)] for n in P.ns_a]) for e in ESTIMATORS + NAIVE}
claims.test("error-falls-with-n",
            statement=f"Case (a): log-log slope of the error against n over n={P.ns_a}",
            paper="statistical error term shrinks with n (rate not found)",
            criterion=less_than(-0.3 if full else 0.0), measured=slope[sd],
            **comps(slope.get, exclude=(NOCOMPACT,)),  # fitted at the largest n only (CPU budget)
            tol=tolerance(rel=0.05, abs=0.1, why="slope through errors that are Adam end points"))
claims.test("unbounded-rel-error",
            statement=f"Case (b), unbounded support and non-Lipschitz map: relative error at n={nb}, R=R_n",
            paper="guarantee between general laws with unbounded support (no number found)",
            criterion=less_than(thr), measured=mean_err[("radial", sd, nb)],
            **comps(lambda e: mean_err[("radial", e, nb)]), tol=tolerance(rel=0.05, why=ADAM))
vs_ent = {e: max(mean_err[(name, e, n)] / mean_err[(name, ent, n)] for name, n in (("gaussian", na), ("radial", nb)))
          for e in ESTIMATORS + NAIVE + [NOCOMPACT]}
claims.test("competitive-with-entropic",
            statement="Worse case of err(estimator) / err(entropic map) at the largest n (our addition)",
            paper="not claimed in the abstract; our sanity check against the standard entropic estimator",
            criterion=at_most(ENT_MAX), measured=vs_ent[sd], **comps(vs_ent.get, exclude=(ent,)),
            tol=tolerance(rel=0.05, why=ADAM))
claims.illustrate("sieve-bias",
                  statement=f"Case (b), n={n_R}: error ratio err(R=4) / err(R=1); the sieve bias falls as R grows",
                  paper="oracle inequality with a sieved-bias term (abstract); that it vanishes as the sieve grows "
                  "is our reading; no rate found",
                  criterion=less_than(SIEVE_MAX), measured=err_R[4.0] / err_R[1.0],
                  why="fixed by our construction: the potential is unconstrained outside the sieve, so at R=1 the "
                      "source term pushes it down where the conjugate cannot see and the map diverges, whatever "
                      "the paper's bound",
                  tol=tolerance(rel=0.2, why="ratio of two Adam end points; err(R=1) is a diverging map's error"))
claims.illustrate("stability-spearman",
                  statement="Case (a): Spearman correlation of excess semi-dual risk and map error over checkpoints",
                  paper="map stability bound without second-order regularity (abstract); that it bounds the map "
                  "error by the excess semi-dual risk is our reading; no constant found",
                  criterion=greater_than(0.8), measured=rho,
                  why="a theorem whose constant we lack: along one training run both quantities fall together for "
                      "any converging estimator, so a rank correlation cannot refute the bound; the old control "
                      "(the risks in a random order) failed by construction",
                  tol=tolerance(rel=0, abs=0.1, why="ranks of Adam checkpoints whose excess risks differ in the "
                                "third digit"))

KEY = {sd: "sd", ent: "ent", emd: "emd", abl: "abl", aff: "aff", tra: "tra", iso: "iso", early: "early",
       NOCOMPACT: "noc", IDENTITY: "id"}
glue("thr", thr, display=False)
glue("ent_max", ENT_MAX, display=False)
glue("sieve_max", SIEVE_MAX, display=False)
glue("na", na, display=False)
glue("nb", nb, display=False)
for e, k in KEY.items():
    glue(f"err_a_{k}", mean_err[("gaussian", e, na)], display=False)
    glue(f"err_b_{k}", mean_err[("radial", e, nb)], display=False)
    if e in slope:
        glue(f"slope_{k}", slope[e], display=False)
    if e in vs_ent:
        glue(f"vsent_{k}", vs_ent[e], display=False)
glue("id_b_gap", mean_err[("radial", IDENTITY, nb)] - thr, display=False)
glue("early", EARLY, display=False)
for R in P.radii:
    glue(f"errR_{R:g}", err_R[R], display=False)
glue("ratio_R41", err_R[4.0] / err_R[1.0], display=False)
glue("rho", rho, display=False)
glue("rho_null", float(spearmanr(np.random.default_rng(seed).permutation(excess), map_err).statistic),
     display=False)
glue("se_min", float(ratio_se.min()), display=False)
glue("se_max", float(ratio_se.max()), display=False)

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
# Four tests are counted, all pre-registered: their method, setting, criterion and threshold are those of the
# page's first version; they only gained comparators (at conversion, and after the independent review). Two
# former checks are now illustrations. Values below are from seed 0 at the page's scale; the judged table gives
# the other seeds.
#
# * *Consistency on Gaussians* ({repro-status}`gauss-rel-error`). At $n=$ {glue:text}`na` the semi-dual Tanh
#   estimator's relative error is {glue:text}`err_a_sd:.3f` (threshold {glue:text}`thr:.2f`). With the conjugate
#   over the source sample only (no grid, no refinement) it is {glue:text}`err_a_abl:.3f`, and with the conjugate
#   over all of $\mathbb R^2$ (no compact set at all) {glue:text}`err_a_noc:.3f`; the entropic map
#   {glue:text}`err_a_ent:.3f`, discrete OT {glue:text}`err_a_emd:.3f`, the affine Gaussian fit
#   {glue:text}`err_a_aff:.4f` (the right model here), a plain mean translation {glue:text}`err_a_tra:.3f`, a shift
#   with an isotropic scale {glue:text}`err_a_iso:.3f`, and the method stopped after {glue:text}`early` Adam steps
#   {glue:text}`err_a_early:.3f`. Every comparator passes, the translation included: the threshold does not
#   separate the paper's estimator from a map with two numbers, and on this case the sieve is not needed. Over the
#   ci sweep the method passes at {repro-seeds}`gauss-rel-error:method:pass` seeds, the ablation at
#   {repro-seeds}`gauss-rel-error:ablation:pass`, the affine fit at {repro-seeds}`gauss-rel-error:baseline3:pass`
#   and the mean translation at {repro-seeds}`gauss-rel-error:baseline4:pass`.
# * *The error falls with n* ({repro-status}`error-falls-with-n`). Log-log slope {glue:text}`slope_sd:.2f`
#   between the two sample sizes; the ablation {glue:text}`slope_abl:.2f`, the entropic map
#   {glue:text}`slope_ent:.2f`, discrete OT {glue:text}`slope_emd:.2f`, the affine fit {glue:text}`slope_aff:.2f`,
#   the translation {glue:text}`slope_tra:.2f`, the isotropic map {glue:text}`slope_iso:.2f` and the early-stopped
#   method {glue:text}`slope_early:.2f`. Any consistent estimator falls with $n$, and with one draw per $n$ the
#   sign mostly measures the draw: two points and one repetition are not a rate.
# * *Unbounded support, non-Lipschitz map* ({repro-status}`unbounded-rel-error`). On case (b) the error is
#   {glue:text}`err_b_sd:.3f`; with the sample-only conjugate {glue:text}`err_b_abl:.3f`, with the conjugate over
#   $\mathbb R^2$ {glue:text}`err_b_noc:.3f`, the entropic map {glue:text}`err_b_ent:.3f`, discrete OT
#   {glue:text}`err_b_emd:.3f`, the affine fit {glue:text}`err_b_aff:.3f`, the isotropic map
#   {glue:text}`err_b_iso:.3f` and the method stopped after {glue:text}`early` steps {glue:text}`err_b_early:.3f`.
#   Only the translation fails ({glue:text}`err_b_tra:.3f`), and the identity map, which uses no data, scores
#   {glue:text}`err_b_id:.3f`: the threshold sits only {glue:text}`id_b_gap:.2f` below a map that does nothing. The
#   estimator does work with unbounded support and no convexity constraint, but so does a map with three numbers:
#   in the bulk of $N(0,I_2)$ the map $(1+\tfrac12\|x\|)x$ is close to a scaling. Neither the grid and refinement
#   nor the compactness of the sieve is what makes the estimator work on this case at this $n$.
# * *Against the entropic map* ({repro-status}`competitive-with-entropic`, our addition, not a claim of the
#   paper). Worse-case error ratio to the entropic map {glue:text}`vsent_sd:.2f` (at most
#   {glue:text}`ent_max:.1f`); the sample-only conjugate {glue:text}`vsent_abl:.2f`, the conjugate over
#   $\mathbb R^2$ {glue:text}`vsent_noc:.2f`, discrete OT {glue:text}`vsent_emd:.2f`, the affine fit
#   {glue:text}`vsent_aff:.2f`, the translation {glue:text}`vsent_tra:.2f`, the isotropic map
#   {glue:text}`vsent_iso:.2f` and the early-stopped method {glue:text}`vsent_early:.2f`. The ablation and the
#   affine fit pass; discrete OT fails here, though close to the threshold at some seeds (at the edge at
#   {repro-seeds}`competitive-with-entropic:baseline1:edge` seeds). The test reuses the errors of the two
#   consistency tests.
#
# **Illustrations.** The sieve bias is real and large by construction: at $R=1$ the relative error is
# {glue:text}`errR_1:.0f`, at $R=4$ {glue:text}`errR_4:.3f` (ratio {glue:text}`ratio_R41:.1e`). With $R=1$ the
# objective sees $\varphi$ outside the unit ball only through $\frac1n\sum_i\varphi(X_i)$, which rewards
# pushing it down, and the fitted map explodes outside the ball (about 60% of the mass of $N(0,I_2)$). That is
# why the check is shown and not counted: it would hold whatever the paper's bound. Along the training run of
# case (a), excess semi-dual risk and map error fall together (Spearman {glue:text}`rho:.2f`; the risks in a
# random order give {glue:text}`rho_null:.2f`), and the ratio of map error to excess risk stays between
# {glue:text}`se_min:.2f` and {glue:text}`se_max:.2f`, as a bound
# $\|\hat T-T_0\|^2\le C\,(J(\hat\varphi)-J(\varphi_0))$ would have it; but after the first steps the
# checkpoints sit on a plateau whose order our
# estimate of the excess risk on fresh points cannot resolve, and a correlation along one run is not a test of
# a bound.
#
# **What this says about the paper.** In our two 2-D cases the semi-dual Tanh estimator with a sieved conjugate
# recovers the Brenier map well, also with unbounded support and a non-Lipschitz map, and is about as accurate
# as the entropic map (worse-case error ratio {glue:text}`vsent_sd:.2f` at seed 0). None of the counted checks
# needs the paper's ingredient: the same estimator with the conjugate over the sample points, or over all of
# $\mathbb R^2$ with no compact set, does as well, and maps with two to five numbers clear the consistency
# thresholds. The page does not refute the paper (whose statements are bounds we could not read); it says that
# our miniature is too easy, and our network class too tame (see below), to show what the sieve buys.
#
# ## What a skeptic would try
#
# The notebook measures these naive alternatives beside the method (seed 0, the page's scale; all are
# comparators of the counted tests):
#
# * **Drop the grid and refinement** (the ablation): conjugate over the source sample only. Relative errors
#   {glue:text}`err_a_abl:.3f` (a) and {glue:text}`err_b_abl:.3f` (b), against the method's
#   {glue:text}`err_a_sd:.3f` and {glue:text}`err_b_sd:.3f`. On samples of a few hundred points the sample
#   already covers where the test points are. The sample is itself a compact, data-driven sieve, so this
#   ablation does not remove compactness.
# * **Drop compactness altogether**: the conjugate over $\mathbb R^2$, by the sample argmax and two gradient
#   ascent steps that are not projected on any ball (run at the largest $n$ only, to keep the CPU budget):
#   {glue:text}`err_a_noc:.3f` (a) and {glue:text}`err_b_noc:.3f` (b). It matches the method; the next section
#   says why.
# * **A mean translation** $x-\bar X+\bar Y$: {glue:text}`err_a_tra:.3f` (a), which passes the consistency
#   threshold, and {glue:text}`err_b_tra:.3f` (b), which does not.
# * **A shift and an isotropic scale** (three numbers): {glue:text}`err_a_iso:.3f` (a) and
#   {glue:text}`err_b_iso:.3f` (b): it passes both consistency tests.
# * **Fit an affine map by moments** (Gaussians fitted to both samples, closed-form Brenier map): relative
#   errors {glue:text}`err_a_aff:.4f` (a) and {glue:text}`err_b_aff:.3f` (b). It is exact in the limit on (a),
#   and on (b) its error is the nonlinearity of the map in the bulk of $P$.
# * **Stop the method early**, after {glue:text}`early` of its Adam steps: {glue:text}`err_a_early:.3f` (a) and
#   {glue:text}`err_b_early:.3f` (b); it passes both consistency tests.
# * **Do nothing** (the identity map, the estimator's starting point): {glue:text}`err_a_id:.3f` (a) and
#   {glue:text}`err_b_id:.3f` (b). On case (b) it misses the threshold {glue:text}`thr:.2f` by only
#   {glue:text}`id_b_gap:.2f`.
# * **Entropic map** (Sinkhorn, $\varepsilon_n=0.5\,n^{-1/4}$ fixed before any run): {glue:text}`err_a_ent:.3f`
#   and {glue:text}`err_b_ent:.3f`.
# * **Discrete OT with 1-NN extension**: {glue:text}`err_a_emd:.3f` and {glue:text}`err_b_emd:.3f`; it passes
#   the consistency thresholds but fails the comparison with the entropic map.
#
# Reviewed by an independent skeptic (a helper that did not write the page, with the rubric, the page, its
# record and its kernels, on seeds 0-9 in a small script outside the project); what they tried is above. They
# also tried two things the notebook does not run: a fixed small sieve radius that does not grow with $n$,
# which passed both consistency tests on the seeds they ran, and the entropic map at a quarter of our
# $\varepsilon_n$, which is a weaker reference than ours, so our $\varepsilon_n$ is not a strawman.
#
# ## What the miniature cannot show
#
# * The paper's rates, constants and exact sieve construction were not available, so nothing here tests a
#   rate; two sample sizes at CI give a sign, not a slope.
# * **What a sieve buys, in our network class.** Our potential is $\varphi_\theta=\tfrac12\|x\|^2+f_\theta$ with
#   $f_\theta$ a Tanh network, which is bounded, $|f_\theta|\le M$. Then
#   $\langle x,y\rangle-\varphi_\theta(x)=\tfrac12\|y\|^2-\tfrac12\|x-y\|^2-f_\theta(x)$ is maximised within
#   distance $2\sqrt M$ of $y$, so the conjugate over all of $\mathbb R^d$ is finite and found near $y$ without
#   any sieve. This class cannot exhibit the sieve's role, except by making the sieve too small (the $R=1$
#   illustration). The paper's sieve presumably matters for classes whose residual is unbounded or not coercive
#   (a linear-tailed, ReLU or softplus $f$), which we did not run.
# * **The harder case, not built.** A post-hoc test where the translation, the moment fits and the sample-only
#   conjugate should fail (a heavy-tailed source, test points beyond the sample's hull, $d\ge 5$, fewer samples),
#   with an unbounded residual so that the compact sieve could matter, would be the place for a counted test
#   that could come out (c). It would have to be declared `post_hoc` and confirmed on seeds 10-19; there was no
#   time to do that here. The same holds for a redesign of `error-falls-with-n` (nested samples, several
#   repetitions, a common test set), so that it measures the estimator rather than the draw.
# * We do not vary the network width, so the approximation term (and the paper's point that it is measured in
#   $L^\infty$ rather than a Sobolev norm) is not tested.
# * Our cases are 2-D and light-tailed, where an affine fit, and on case (a) a translation, is already good.
# * **What was hard:** the unconstrained potential makes the sieve bias severe rather than mild (the network
#   is free to go down outside the sieve); POT's NumPy log-domain Sinkhorn was too slow for the CI budget, so we
#   pass torch tensors to `ot.sinkhorn` to use its torch backend.
