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
# # Robust regression of general ReLUs with queries: label counts for a biased ReLU
#
# *When the learner may choose where to ask for labels, fitting a biased ReLU to accuracy $\epsilon$ costs
# about $d$ labels plus the $\min\{1/p, 1/\epsilon\}$ needed to find the rare active region, where learning
# from random labelled samples costs about $d/\epsilon$; we show this separation with a toy query learner of
# our own, not the paper's robust algorithm.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np

from repro.claims import Claims, at_least, at_most, between, tolerance
from repro.papers import relu_regression_queries as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    # about 6 s of CPU on one thread (measured): three dimensions, five accuracies, 30 trials per point
    "ci": dict(dims=(10, 20, 40), log_eps=(2.0, 2.5, 3.0, 3.5, 4.0), trials=30, t_sweep=9, sweep_trials=20),
    # about 2 minutes of CPU on one thread (measured): four dimensions up to 80, nine accuracies, 200 trials
    "full": dict(dims=(10, 20, 40, 80), log_eps=tuple(np.arange(2.0, 4.01, 0.25)), trials=200, t_sweep=17,
                 sweep_trials=200),
})
claims = Claims(
    "relu-regression-queries",
    title="Robust Regression of General ReLUs with Queries",
    authors="Ilias Diakonikolas, Daniel M. Kane, Mingchen Ma",
    paper_url="https://openreview.net/forum?id=soYT1bfsPj",
    scale=scale, seed=seed,
)
SIGMA = 0.02              # label noise standard deviation (the brief)
TAU = 5 * SIGMA           # a label above TAU counts as "on the active side" (noise alone: probability 3e-7)
FACTOR = 2.0              # hard family: the zero function's loss is FACTOR * eps
D_CLAIM = 20              # the dimension of the single-dimension claims (the brief's d = 20)
T_MIN_BRANCH = 4.0        # bias of the min{1/p, 1/eps} claim (p = 3.2e-5 < eps)
BUDGET_MIN_BRANCH = 20_000  # the brief's label budget for that claim
EPS = 10.0 ** -np.array(P.log_eps)
EPS_CLAIM = float(EPS[-1])  # the accuracy of the single-accuracy claims: the smallest, 1e-4

# %% [markdown]
# ## The claim
#
# The target is a *general* ReLU $f^*(x)=\sigma(w^*\cdot x-t^*)$, $\sigma(z)=\max(z,0)$, with a bias $t^*$
# that need not be zero, under Gaussian inputs $x\sim N(0,I_d)$ and the squared loss. The labels are
# *agnostic*: $y$ is any function of $x$ plus anything, and $\mathrm{opt}$ is the squared loss of the best ReLU.
# The *bias* of the target is $p=P(w^*\cdot x>t^*)$, the mass of the region where the ReLU is not zero. A large
# positive $t^*$ makes $p$ tiny: almost every random sample then has label zero and tells the learner nothing
# about $w^*$.
#
# The paper (Diakonikolas, Kane and Ma, NeurIPS 2025) proves three statements, as its abstract reports them:
#
# 1. **Upper bound (theorem).** A computationally efficient learner with *black-box label queries* (it may ask
#    for the label of any point it chooses) reaches squared loss $O(\mathrm{opt})+\epsilon$ with
#    $d\,\mathrm{polylog}(1/\epsilon)+\tilde O(\min\{1/p,1/\epsilon\})$ queries.
# 2. **Near-optimality (theorem).** This query count cannot be improved much, even by inefficient learners.
# 3. **Queries are needed (theorem).** A *pool-based* active learner, which may only ask for labels of points
#    drawn from the distribution, needs $\tilde\Omega(d/\epsilon)$ labels unless its pool is super-polynomially
#    large; passive learning (earlier work) uses $\mathrm{poly}(d,1/\epsilon)$ samples.
#
# The paper has no experiments and reports no numbers, and no official code was found. What we can set beside
# it is the *shape* of the separation: $d$ enters the query count additively, next to a search term of about
# $1/p$ capped at $1/\epsilon$, while it multiplies $1/\epsilon$ for learners that see only random samples.
# **Everything measured on this page comes from a toy query learner that we designed from the reproduction
# brief, on realizable labels with small Gaussian noise, not from the paper's agnostic algorithm**; the checks
# below are numerical stand-ins for the theorems' scaling, not tests of the theorems.
#
# ## The method
#
# **Why the bias matters.** For a unit $w^*$, $u=w^*\cdot x$ is standard normal, and the squared loss of the
# zero function is
#
# $$ E[\sigma(u-t)^2] \;=\; (1+t^2)\,\bar\Phi(t)\;-\;t\,\varphi(t) \;\approx\; \frac{2\,p}{t^2}\quad(t\to\infty), $$
#
# with $p=\bar\Phi(t)$ (`K.relu_square_mean`, checked in the unit tests against scipy quadrature and Monte
# Carlo). So once $p$ falls below a few times $\epsilon$, the zero function is already $\epsilon$-good and
# there is nothing to learn; while $p$ is larger, the learner has to find the active half-space
# $\{w^*\cdot x>t\}$, which costs about $1/p$ random draws. That is where $\min\{1/p,1/\epsilon\}$ comes from
# (the brief's reading of the abstract).
#
# **A family on which passive learning is hard.** For each $\epsilon$ we set the bias $t_\epsilon$ so that the
# zero function misses by a factor of 2, $E[\sigma(u-t_\epsilon)^2]=2\epsilon$ (`K.hard_bias`); then
# $p(t_\epsilon)$ is only 6 to 13 times $\epsilon$ on our range, and a learner that sees random samples meets
# a positive label only once every $1/p\approx 1/\epsilon$ samples. To pin down $d$ parameters it needs about
# $d$ of them, so about $d/p\approx d/\epsilon$ labels: our reading of the $\tilde\Omega(d/\epsilon)$ bound
# (the paper's own hard instance was not available).
#
# **Passive learner** (`K.passive_excess_curve`). Least squares of $y$ on $(x,1)$ over the samples whose label
# exceeds $\tau=5s$ ($s$ the noise level): on the active side the ReLU is the linear function
# $w^*\cdot x-t^*$. With fewer than $d+2$ such samples it returns the zero function.
#
# **Toy query learner** (ours). (i) *Search* (`K.search_positive`): ask for labels at fresh Gaussian points
# until one exceeds $\tau$, at most $\lceil 1/\epsilon\rceil$ times; if none does, return the zero function.
# (ii) *Local fit* (`K.local_excess_curve`): around the point $x_0$ found, with label $y_0$ (about its margin
# $w^*\cdot x_0-t^*$), ask for labels at $x_0+h\,g_j$, $g_j\sim N(0,I_d)$, $h=y_0/4$, so that the margin moves by
# $h\,(w^*\cdot g_j)\sim N(0,h^2)$ and the points stay on the active side; fit $(w,t)$ by the same least
# squares. Locally the ReLU is linear, so about $d$ well-placed labels determine it; the search costs about
# $\min\{1/p,1/\epsilon\}$. The cap is set with the closed form: where the zero function is *not*
# $\epsilon$-good, $p\ge p(t_{\epsilon,1})$ with $E[\sigma(u-t_{\epsilon,1})^2]=\epsilon$, which is more than
# 3.5 times $\epsilon$ on our range (7 times at $\epsilon=10^{-4}$), so $\lceil1/\epsilon\rceil$ draws miss the active region with probability
# about $e^{-3.5}\approx3\%$ (a little more, as the label must also clear $\tau$).
#
# **Error.** The excess squared loss $E_x[(\sigma(\hat w\cdot x-\hat t)-\sigma(w^*\cdot x-t^*))^2]$, computed
# exactly (`K.excess_loss`: closed forms plus a one-dimensional Gauss-Legendre integral for the cross term);
# the noise adds $s^2$ to every hypothesis' loss. For realizable labels $\mathrm{opt}=s^2$, and we ask for the
# stronger goal *excess* $\le\epsilon$.
#
# ## The experiment
#
# * **Data.** $x\sim N(0,I_d)$, $w^*=e_1$ (both learners are unchanged by a rotation of the inputs, and so is
#   the excess loss), $y=\sigma(x_1-t^*)+\xi$, $\xi\sim N(0,0.02^2)$ as in the brief. Hard family $t^*=t_\epsilon$
#   for $\epsilon\in\{10^{-2},10^{-2.5},\dots,10^{-4}\}$ (ci; steps of $10^{-0.25}$ at full scale), so
#   $t_\epsilon$ runs from 1.55 to 3.0 and $p$ from 0.06 to 0.0013.
# * **Labels to reach $\epsilon$.** For each trial we follow one run of each learner as it receives more labels
#   (passive: one stream of samples, evaluated on a grid of sample sizes with ratio $2^{1/8}$ up to $6d/p$;
#   query: its search, then local queries on a grid from $d+1$ to $16d$), and record the first number of labels
#   at which its excess loss is at most $\epsilon$ (interpolated log-linearly between grid points; never reached
#   counts as infinite). The reported count is the **median over trials** (30 at ci, 200 at full), its spread the
#   interquartile range. Query labels = search labels + local labels.
# * **Dimensions** $d\in\{10,20,40\}$ (ci), $\{10,20,40,80\}$ (full).
# * **Runtime.** ci: about 8 s of CPU on one thread, excluding imports. full: about 3 to 4 minutes of CPU per
#   seed (the sweep of three full seeds took 12 minutes of user time in all); the "about 2 minutes" in the
#   preset's comment was an estimate written before the first full run.
#
# **Claims, fixed before the first run of this notebook** (thresholds from the brief and the abstract's
# rates; each with a control measured in the same way):
#
# 1. *Query gain* (brief's C1): at $d=20$, $\epsilon=10^{-4}$ on the hard family, query labels / passive labels
#    $\le 0.25$. Control: the query learner *without its local queries*, which after its search asks for labels
#    at fresh Gaussian points and fits the same least squares (so it learns passively; its labels are its
#    search plus a passive run on an independent stream).
# 2. *Passive labels grow like $1/\epsilon$* (abstract: $\tilde\Omega(d/\epsilon)$): at $d=20$ the log-log
#    slope of passive labels against $1/\epsilon$ on the hard family is in $[0.7,1.3]$ (the lower end allows
#    the logarithmic factor: $p(t_\epsilon)\approx t_\epsilon^2\epsilon$). Control, a deliberately wrong input
#    for the lower bound: the same slope at a *fixed* bias $t^*=t_{0.01}=1.55$, where the zero function is
#    never good enough but the active region does not shrink with $\epsilon$.
# 3. *Passive labels grow like $d$*: at $\epsilon=10^{-4}$, the log-log slope of passive labels against $d$ is
#    in $[0.8,1.2]$. Control: the same slope for the query learner.
# 4. *For queries, $d$ is additive*: at $\epsilon=10^{-4}$, the log-log slope of query labels against $d$ is
#    $\le 0.5$ (at $\epsilon=10^{-4}$ the search term, about $1/p\approx750$, outweighs the $O(d)$ local
#    term). Control: the same slope for the passive learner.
# 5. *The $\min\{1/p,1/\epsilon\}$ branch* (brief's C3): at $\epsilon=10^{-4}$, $d=20$ and a bias
#    $t^*=4.0$ ($p=3.2\cdot10^{-5}<\epsilon$, so the zero function is $\epsilon$-good), the share of trials in
#    which the learner ends with excess $\le\epsilon$ having used at most $2\cdot10^4$ labels is $\ge0.9$; the
#    local phase uses $4d=80$ queries when the search succeeds. Control: the same learner with an uncapped
#    search (it looks for a positive label however long it takes, about $1/p$ draws).
#
# **Deviations from the paper**
#
# * The algorithm is ours, for realizable labels with small Gaussian noise; the paper's algorithm is robust to
#   agnostic (adversarial) labels, which ours is not: a few corrupted labels near $x_0$ would wreck the local
#   fit. We do not test the $O(\mathrm{opt})$ factor, the near-optimality lower bound, or the pool-based
#   lower bound, only the label counts of one passive learner and one query learner.
# * Our passive learner (least squares on the labels above $\tau$) is one reasonable passive method, not the
#   efficient agnostic learner of the earlier work the abstract cites; "passive needs about $d/\epsilon$" is
#   measured for this learner, on the hard family we chose, not proved for all learners.
# * We ask for excess loss $\le\epsilon$ (a stronger goal than $O(\mathrm{opt})+\epsilon$ when
#   $\epsilon<\mathrm{opt}=4\cdot10^{-4}$) and report *median* label counts over trials rather than
#   high-probability bounds.
# * Choices of ours with no counterpart in the paper: noise $s=0.02$ (brief), threshold $\tau=5s$, hard family
#   with factor 2, search cap $\lceil1/\epsilon\rceil$, local step $h=y_0/4$ with Gaussian directions (the
#   brief proposed coordinate finite differences $x_0\pm h e_i$ with repeats; Gaussian directions use every
#   query for every coordinate and need about $d$ rather than $2d\cdot r$ queries), $w^*=e_1$, grids of labels with
#   ratio $2^{1/8}$.
# * Claim 5 uses $t^*=4.0$ instead of the brief's $3.5$: at $3.5$ ($1/p\approx4300$) the uncapped control
#   would also stay under $2\cdot10^4$ labels in almost every trial and the claim could not tell them apart
#   (decided from $1/p$ before any run). The brief's claim that query counts grow with $d$ with slope
#   $\le1.3$ is replaced by the stricter claim 4 at one accuracy and complemented by claim 3.
# * Sampling shortcuts, exact in distribution: the passive stream draws only $x_1$ and the noise for every
#   sample and the other $d-1$ coordinates only for the samples the fit keeps; the search draws only $x_1$.

# %%
print(f"scale={P.scale}: d in {P.dims}, eps in {[f'1e-{v:g}' for v in P.log_eps]}, {P.trials} trials per point")
T_EPS = np.array([K.hard_bias(e, FACTOR) for e in EPS])
P_EPS = K.relu_bias(T_EPS)
print("hard family: t_eps =", np.round(T_EPS, 3), "| p / eps =", np.round(P_EPS / EPS, 1))


def passive_labels(d, t, eps, rng, trials=None):
    """Per-trial labels for passive least squares to reach excess <= eps."""
    grid = np.unique(np.round(2.0 ** np.arange(np.log2(d + 2), np.log2(6 * d / K.relu_bias(t)), 1 / 8))).astype(int)
    ex = K.passive_excess_curve(d, t, SIGMA, TAU, grid, trials or P.trials, rng)
    return K.labels_to_reach(grid, ex, eps), grid, ex


def query_labels(d, t, eps, rng, trials=None, cap="eps"):
    """Per-trial labels for the toy query learner (search + local least squares) to reach excess <= eps."""
    s = K.search_positive(t, SIGMA, TAU, int(np.ceil(1 / eps)) if cap == "eps" else cap, trials or P.trials, rng)
    grid = np.unique(np.round(2.0 ** np.arange(np.log2(d + 1), np.log2(16 * d) + 1e-9, 1 / 8))).astype(int)
    ex = K.local_excess_curve(s["u0"], s["y0"], d, t, SIGMA, TAU, grid, rng)
    return s["queries"] + K.labels_to_reach(grid, ex, eps), s, grid, ex


# %% [markdown]
# ## Results
#
# ### Labels against accuracy on the hard family

# %%
lab = {}
curves = {}
for d in progress(P.dims, desc="dimensions"):
    for e, t in zip(EPS, T_EPS):
        lp, gp, exp_ = passive_labels(d, t, e, P.rng)
        lq, s, gq, exq = query_labels(d, t, e, P.rng)
        lab["passive", d, e], lab["query", d, e] = lp, lq
        curves[d, e] = (gp, exp_, gq, exq, s)
med = {k: float(np.median(v)) for k, v in lab.items()}
slope_eps = {(m, d): loglog_slope(1 / EPS, [med[m, d, e] for e in EPS]) for m in ("passive", "query") for d in P.dims}
print(f"{'d':>4} {'eps':>8} {'t_eps':>6} {'1/p':>7} {'passive':>9} {'query':>7} {'query/passive':>14}")
for d in P.dims:
    for e, t, p in zip(EPS, T_EPS, P_EPS):
        print(f"{d:>4} {e:>8.1e} {t:>6.2f} {1 / p:>7.0f} {med['passive', d, e]:>9.0f} {med['query', d, e]:>7.0f} "
              f"{med['query', d, e] / med['passive', d, e]:>14.3f}")
print("log-log slopes against 1/eps:", {f"{m}, d={d}": round(v, 2) for (m, d), v in slope_eps.items()})

# %%
fig, ax = plt.subplots(figsize=(7.2, 4.6))
inv = 1 / EPS
for i, d in enumerate(P.dims):
    for m, mk, ls in (("passive", "s", "--"), ("query", "o", "-")):
        q = np.array([np.percentile(lab[m, d, e], [25, 50, 75]) for e in EPS])
        ax.errorbar(inv, q[:, 1], yerr=[q[:, 1] - q[:, 0], q[:, 2] - q[:, 1]], fmt=mk + ls, color=f"C{i}", ms=4,
                    capsize=2, label=f"{m}, d = {d}: slope {slope_eps[m, d]:.2f}")
    ax.plot(inv, d / P_EPS, color=f"C{i}", lw=0.8, ls=":")
ax.plot(inv, 1 / P_EPS, color="k", lw=1, ls="-.", label=r"$1/p(t_\epsilon)$ (search alone)")
ax.plot([], [], color="0.4", lw=0.8, ls=":", label=r"$d/p(t_\epsilon)$ (passive floor: $d$ positive labels)")
ax.set(xscale="log", yscale="log", xlabel=r"$1/\epsilon$ (target excess squared loss $\epsilon$)",
       ylabel="labels to reach excess loss $\\leq\\epsilon$ (median, IQR)",
       title=r"Hard family $E[\sigma(u-t_\epsilon)^2]=2\epsilon$: passive vs queries")
ax.legend(fontsize=7, ncol=2, loc="upper left")
plt.show()

# %% [markdown]
# Passive least squares (dashed) sits close to its floor $d/p$ (dotted): it needs about $d$ labels from the
# active side, and each costs $1/p$ random samples. The query learner (solid) follows $1/p$ plus a few times
# $d$: its cost is the search, and the dimension only adds.
#
# ### Excess loss as labels come in

# %%
e_show = EPS[len(EPS) // 2]
gp, exp_, gq, exq, s = curves[D_CLAIM, e_show]
search_med = float(np.median(s["queries"]))
fig, ax = plt.subplots(figsize=(7, 4.2))
for x, ex, col, name in ((gp, exp_, "C3", "passive least squares"),
                         (search_med + gq, exq, "C0", "query learner (median search + local queries)")):
    qs = np.percentile(ex, [25, 50, 75], axis=0)
    ax.plot(x, qs[1], color=col, label=name)
    ax.fill_between(x, qs[0], qs[2], color=col, alpha=0.2)
ax.axhline(e_show, color="k", lw=0.8, ls="--", label=r"target $\epsilon$")
ax.axhline(K.relu_square_mean(T_EPS[len(EPS) // 2]), color="0.5", lw=0.8, ls=":", label="zero function")
ax.axvline(search_med, color="C0", lw=0.6, ls=":")
ax.set(xscale="log", yscale="log", xlabel="labels used", ylabel="excess squared loss (median, IQR over trials)",
       title=f"d = {D_CLAIM}, $\\epsilon$ = {e_show:.1e} ($t$ = {T_EPS[len(EPS) // 2]:.2f}, p = {P_EPS[len(EPS) // 2]:.4f})")
ax.set_ylim(bottom=e_show / 100)
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### Labels against dimension

# %%
slope_d = {m: loglog_slope(P.dims, [med[m, d, EPS_CLAIM] for d in P.dims]) for m in ("passive", "query")}
fig, ax = plt.subplots(figsize=(6.4, 4))
dd = np.array(P.dims, dtype=float)
for m, mk, col in (("passive", "s--", "C3"), ("query", "o-", "C0")):
    q = np.array([np.percentile(lab[m, d, EPS_CLAIM], [25, 50, 75]) for d in P.dims])
    ax.errorbar(dd, q[:, 1], yerr=[q[:, 1] - q[:, 0], q[:, 2] - q[:, 1]], fmt=mk, color=col, capsize=2,
                label=f"{m}: slope {slope_d[m]:.2f}")
p_c = K.relu_bias(K.hard_bias(EPS_CLAIM, FACTOR))
ax.plot(dd, dd / p_c, "k:", lw=1, label=r"$d/p$")
ax.plot(dd, 1 / p_c + dd, "k-.", lw=1, label=r"$1/p + d$")
ax.set(xscale="log", yscale="log", xlabel="dimension d", ylabel="labels to reach excess $\\leq\\epsilon$ (median, IQR)",
       title=f"$\\epsilon$ = {EPS_CLAIM:g} (hard family, p = {p_c:.4f})")
ax.set_xticks(dd, [str(int(v)) for v in dd])
ax.xaxis.set_minor_formatter(plt.NullFormatter())
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### Controls: a fixed bias, and the query learner without its local queries
#
# At a fixed bias $t^*=1.55$ the active region keeps its mass $p=0.06$ however small $\epsilon$ is, so the
# passive learner's floor $d/p$ does not move. The query learner without local queries asks for labels at
# fresh Gaussian points after its search, which is passive learning.

# %%
t_fix = K.hard_bias(EPS[0], FACTOR)
fixed = {e: float(np.median(passive_labels(D_CLAIM, t_fix, e, P.rng)[0])) for e in EPS}
slope_fixed = loglog_slope(1 / EPS, list(fixed.values()))
t_c = K.hard_bias(EPS_CLAIM, FACTOR)
s_abl = K.search_positive(t_c, SIGMA, TAU, int(np.ceil(1 / EPS_CLAIM)), P.trials, P.rng)
no_local = float(np.median(s_abl["queries"] + passive_labels(D_CLAIM, t_c, EPS_CLAIM, P.rng)[0]))
gain = med["query", D_CLAIM, EPS_CLAIM] / med["passive", D_CLAIM, EPS_CLAIM]
gain_control = no_local / med["passive", D_CLAIM, EPS_CLAIM]
print(f"fixed bias t = {t_fix:.2f}: passive labels", {f"{e:.1e}": round(v) for e, v in fixed.items()},
      f"slope {slope_fixed:.2f}")
print(f"d = {D_CLAIM}, eps = {EPS_CLAIM:g}: query/passive = {gain:.3f}; without local queries: {gain_control:.2f}")

# %% [markdown]
# ### The $\min\{1/p, 1/\epsilon\}$ branch
#
# At $\epsilon=10^{-4}$ and $d=20$ we move the bias past the hard family. The capped learner stops searching
# after $10^4$ draws and returns the zero function, which is good enough exactly when $p$ is small; the
# uncapped learner keeps searching for about $1/p$ draws.

# %%
n_loc = 4 * D_CLAIM


def branch_run(t, cap, trials, rng):
    """Labels used and final excess of the learner with a fixed local phase of n_loc queries."""
    s = K.search_positive(t, SIGMA, TAU, cap, trials, rng)
    ex = K.local_excess_curve(s["u0"], s["y0"], D_CLAIM, t, SIGMA, TAU, np.array([n_loc]), rng)[:, 0]
    return s["queries"] + np.where(s["found"], n_loc, 0), ex


cap = int(np.ceil(1 / EPS_CLAIM))
ts = np.linspace(2.5, 4.5, P.t_sweep)
sweep = {name: [branch_run(t, c, P.sweep_trials, P.rng) for t in progress(ts, desc=name)]
         for name, c in (("capped", cap), ("uncapped", None))}
ok = {name: np.array([np.mean((ex <= EPS_CLAIM) & (n <= BUDGET_MIN_BRANCH)) for n, ex in runs]) for name, runs in sweep.items()}
n_b, ex_b = branch_run(T_MIN_BRANCH, cap, P.trials, P.rng)
n_u, ex_u = branch_run(T_MIN_BRANCH, None, P.trials, P.rng)
share_capped = float(np.mean((ex_b <= EPS_CLAIM) & (n_b <= BUDGET_MIN_BRANCH)))
share_uncapped = float(np.mean((ex_u <= EPS_CLAIM) & (n_u <= BUDGET_MIN_BRANCH)))
print(f"t = {T_MIN_BRANCH}: p = {K.relu_bias(T_MIN_BRANCH):.2e}, zero-function loss {K.relu_square_mean(T_MIN_BRANCH):.1e}; "
      f"share within eps and {BUDGET_MIN_BRANCH} labels: capped {share_capped:.2f}, uncapped {share_uncapped:.2f}")

# %%
fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4))
pp = K.relu_bias(ts)
for name, col in (("capped", "C0"), ("uncapped", "C3")):
    q = np.array([np.percentile(n, [25, 50, 75]) for n, _ in sweep[name]])
    a1.errorbar(pp, q[:, 1], yerr=[q[:, 1] - q[:, 0], q[:, 2] - q[:, 1]], fmt="o-", color=col, ms=3, capsize=2,
                label=f"search {'capped at 1/eps' if name == 'capped' else 'uncapped'}")
    a2.plot(pp, ok[name], "o-", color=col, ms=3, label=name)
a1.plot(pp, 1 / pp, "k:", lw=1, label="$1/p$")
a1.plot(pp, np.minimum(1 / pp, 1 / EPS_CLAIM) + n_loc, "k-.", lw=1, label=r"$\min\{1/p,1/\epsilon\}+4d$")
a1.axhline(BUDGET_MIN_BRANCH, color="0.5", lw=0.8, ls="--", label="budget $2\\cdot10^4$")
a1.set(xscale="log", yscale="log", xlabel="bias p = P(w*.x > t)", ylabel="labels used (median, IQR)",
       title=f"$\\epsilon$ = {EPS_CLAIM:g}, d = {D_CLAIM}")
a1.invert_xaxis()
a1.legend(fontsize=8)
for a in (a1, a2):
    a.axvline(EPS_CLAIM, color="0.6", lw=0.6)
a2.set(xscale="log", xlabel="bias p", ylabel="share of trials: excess <= eps within the budget", ylim=(-0.03, 1.03),
       title="Meeting the target with at most $2\\cdot10^4$ labels")
a2.invert_xaxis()
a2.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### The paper's numbers
#
# The paper states rates, not numbers, and has no experiments; the table sets each rate beside what we
# measured for our two learners (seed 0 of the scale this page ran at).

# %%
rows = [
    ("queries, general ReLU (Thm, upper bound)", "d polylog(1/eps) + O~(min{1/p, 1/eps})",
     f"toy query learner, d = {D_CLAIM}, eps = {EPS_CLAIM:g}: {med['query', D_CLAIM, EPS_CLAIM]:.0f} labels "
     f"(1/p = {1 / p_c:.0f}); slope in d {slope_d['query']:.2f}"),
    ("pool-based / passive (Thm, lower bound)", "Omega~(d/eps) labels",
     f"passive least squares: {med['passive', D_CLAIM, EPS_CLAIM]:.0f} labels (d/p = {D_CLAIM / p_c:.0f}); "
     f"slope in 1/eps {slope_eps['passive', D_CLAIM]:.2f}, in d {slope_d['passive']:.2f}"),
    ("tiny bias p < eps", "min{1/p,1/eps}: no search beyond ~1/eps",
     f"t = {T_MIN_BRANCH}: {share_capped:.2f} of trials within eps and 2e4 labels (uncapped: {share_uncapped:.2f})"),
    ("error guarantee", "O(opt) + eps, agnostic labels", "not tested: realizable labels + N(0, 0.02^2) noise"),
]
print(f"{'setting':<42} {'paper (abstract)':<42} ours")
for r in rows:
    print(f"{r[0]:<42} {r[1]:<42} {r[2]}")

# %%
CNT = tolerance(rel=0.15, why=f"median over {P.trials} random trials of an interpolated label count; a trial near "
                "the target may cross at a neighbouring grid point under other float kernels")
FIT = tolerance(rel=0.1, abs=0.05, why="log-log slope of medians of random label counts (see the count tolerance)")
SHARE = tolerance(abs=0.05, why=f"share of {P.trials} random trials; a trial near the target may flip")
claims.check("query-gain",
             statement=f"Hard family, d = {D_CLAIM}, eps = {EPS_CLAIM:g}: labels of the toy query learner / labels of "
                       "passive least squares (medians over trials)",
             paper="d polylog(1/eps) + O~(min{1/p,1/eps}) queries against Omega~(d/eps) for pool-based learners (abstract)",
             criterion=at_most(0.25), measured=gain, control=gain_control,
             control_label="the query learner without its local queries (labels at fresh Gaussian points after the search)",
             tol=CNT)
claims.check("passive-rate-in-eps",
             statement=f"Log-log slope of passive labels against 1/eps on the hard family (d = {D_CLAIM})",
             paper="pool-based learners need Omega~(d/eps) labels (abstract)", criterion=between(0.7, 1.3),
             measured=slope_eps["passive", D_CLAIM], control=slope_fixed,
             control_label=f"the same slope at a fixed bias t = {t_fix:.2f} (active region does not shrink with eps)",
             tol=FIT)
claims.check("passive-linear-in-d",
             statement=f"Log-log slope of passive labels against d (d in {list(P.dims)}, eps = {EPS_CLAIM:g}, hard family)",
             paper="pool-based learners need Omega~(d/eps) labels (abstract)", criterion=between(0.8, 1.2),
             measured=slope_d["passive"], control=slope_d["query"],
             control_label="the same slope for the toy query learner", tol=FIT)
claims.check("query-additive-in-d",
             statement=f"Log-log slope of query labels against d (d in {list(P.dims)}, eps = {EPS_CLAIM:g}, hard family)",
             paper="d polylog(1/eps) + O~(min{1/p,1/eps}) queries: d enters additively (abstract)",
             criterion=at_most(0.5), measured=slope_d["query"], control=slope_d["passive"],
             control_label="the same slope for passive least squares", tol=FIT)
claims.check("min-branch",
             statement=f"t = {T_MIN_BRANCH} (p = {K.relu_bias(T_MIN_BRANCH):.1e}), eps = {EPS_CLAIM:g}, d = {D_CLAIM}: share of "
                       f"trials ending with excess <= eps after at most {BUDGET_MIN_BRANCH} labels (search capped at 1/eps)",
             paper="the query count has a min{1/p, 1/eps} term (abstract)", criterion=at_least(0.9),
             measured=share_capped, control=share_uncapped,
             control_label="the same learner with an uncapped search (about 1/p labels)", tol=SHARE)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Reproduced, as a numerical illustration with our toy learner; the paper's theorems are not tested.** At
# seed 0 of the ci scale (one draw; the table "Across seeds and scales" above this section gives the ten ci
# seeds and the full-scale runs) all five pre-registered claims hold, each against a control that fails. No
# criterion changed after the first run; the only change after it was to the evaluation grids (passive grid
# up to $6d/p$ instead of $10d/p$, 20 instead of 30 trials in the bias sweep) to keep the page in its time
# budget. Over the ten ci seeds four claims hold at every seed and *query-additive-in-d* at nine of ten
# (seed-sensitive, see below); at full scale ($d$ up to 80, nine accuracies, 200 trials per point) every claim
# holds at every seed run, with the values in the robustness table. The numbers below are those of ci seed 0.
#
# * *Queries beat random samples by a factor that grows with $d$.* On the hard family at $d=20$,
#   $\epsilon=10^{-4}$ the toy query learner needs about 3% of the labels of passive least squares (about 660
#   against 23 000; 2% at $d=40$). Without its local queries the same learner needs as many labels as passive
#   learning (ratio 1.0), so the gain comes from choosing where to ask.
# * *Passive labels grow like $d/\epsilon$.* Their log-log slope against $1/\epsilon$ is 0.88 at $d=20$ (the
#   shortfall from 1 is the logarithmic factor: on this family $p(t_\epsilon)$ is 6 to 13 times $\epsilon$), and
#   their slope against $d$ is 0.97; the passive counts sit about 1.5 times above the floor $d/p$ of the
#   first figure. At a fixed bias (control) the passive count hardly moves with $\epsilon$ (slope 0.07): the
#   $1/\epsilon$ comes from the active region shrinking with $\epsilon$, as in our reading of the lower bound.
# * *For queries the dimension only adds.* At $\epsilon=10^{-4}$ the query count is almost independent of $d$
#   (slope $-0.08$ over $d=10$ to 40; medians 980, 660 and 880 labels, whose differences are the spread of the
#   search): the search, about $1/p\approx750$ labels, dominates the local fit, which needs about $1.5d$
#   queries. The query count still grows with $1/\epsilon$ (slopes 0.55 to 0.73 at ci),
#   because the search costs $1/p(t_\epsilon)$; that is the $\min\{1/p,1/\epsilon\}$ term of the bound, not a
#   failure of it, and it is why we did not claim a slope in $\epsilon$ for the query learner.
#   **This claim is seed-sensitive**: over the ten ci seeds it holds at nine, and fails at seed 5 with a slope of
#   0.74 (slopes of about 0.35 at two more seeds). With 30 trials per point the median of the search cost, a
#   geometric count with mean about $1/p$, moves by tens of percent between seeds, and over a factor of 4 in
#   $d$ that is enough to tilt the fitted slope; the local phase, a few times $d$ labels, is not the cause.
# * *The $\min\{1/p,1/\epsilon\}$ branch.* At $t^*=4$ ($p=3.2\cdot10^{-5}<\epsilon$) the capped learner meets
#   $\epsilon$ within $2\cdot10^4$ labels in 97% of the trials, in about four trials out of five by giving up
#   after $10^4$ draws and returning the zero function, whose loss $3\cdot10^{-6}$ is far below $\epsilon$ (the
#   few failures found a positive point and then missed $\epsilon$ with 80 local queries); an uncapped search
#   stays within the budget in only 20% of the trials.
#
# What this supports is the shape of the paper's separation, $d+\min\{1/p,1/\epsilon\}$ against
# $d/\epsilon$, for one query learner and one passive learner on realizable labels. It says nothing about
# robustness to agnostic labels, which is what the paper's algorithm is built for, nor about the lower bounds.
#
# ## What the miniature cannot show
#
# * **Agnostic labels.** The paper's algorithm reaches $O(\mathrm{opt})+\epsilon$ against labels that an
#   adversary may corrupt; ours assumes realizable labels with small Gaussian noise, and a handful of corrupted
#   labels around the point it found would break its local fit. Making the local step robust is the paper's
#   contribution and is not tested here.
# * **The lower bounds.** That no efficient or inefficient query learner does much better, and that every
#   pool-based learner with a polynomial pool needs $\tilde\Omega(d/\epsilon)$ labels, are statements about all
#   learners; we measure one passive learner on one family of targets.
# * **The polylog factor and the constants.** With $\epsilon$ over two decades and $d\le80$, the local phase
#   costs a small multiple of $d$ and its growth with $1/\epsilon$ is hidden under the spread; the theorem's
#   $\mathrm{polylog}(1/\epsilon)$ and its $\tilde O$ factors are not resolved.
# * **Other input distributions** (the proofs use Gaussian-specific tools) and other ways to place the queries.
