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

from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, between, tolerance
from repro.papers import relu_regression_queries as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    # three dimensions, five accuracies, 30 trials per point (runtime: see the record's runtime_s)
    "ci": dict(dims=(10, 20, 40), log_eps=(2.0, 2.5, 3.0, 3.5, 4.0), trials=30, t_sweep=9, sweep_trials=20),
    # four dimensions up to 80, nine accuracies, 200 trials
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
# $p(t_\epsilon)$ is only {glue:text}`p_over_eps_lo:.0f` to {glue:text}`p_over_eps_hi:.0f` times $\epsilon$ on our range, and a learner that sees random samples meets
# a positive label only once every $1/p\approx 1/\epsilon$ samples. To pin down $d$ parameters it needs about
# $d$ of them, so about $d/p\approx d/\epsilon$ labels. This family is hard for *passive* least squares only: an
# adaptive pool-based learner that ranks a pool of a few times that size by its current fit needs about as few
# labels as our query learner (a comparator below), so it is **not** a hard instance for the
# $\tilde\Omega(d/\epsilon)$ pool-based bound (the paper's own hard instance was not available, and its
# "super-polynomial pool" has no meaning at $d=20$).
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
# {glue:text}`cap_ratio_lo:.1f` times $\epsilon$ on our range ({glue:text}`cap_ratio_claim:.1f` times at $\epsilon=10^{-4}$), so
# $\lceil1/\epsilon\rceil$ draws miss the active region with probability at most about
# {glue:text}`cap_miss:.0f` % (a little more, as the label must also clear $\tau$).
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
#   $t_\epsilon$ runs from {glue:text}`t_eps_lo:.2f` to {glue:text}`t_eps_hi:.2f` and $p$ from {glue:text}`p_eps_hi:.3f`
#   to {glue:text}`p_eps_lo:.4f`.
# * **Labels to reach $\epsilon$.** For each trial we follow one run of each learner as it receives more labels
#   (passive: one stream of samples, evaluated on a grid of sample sizes with ratio $2^{1/8}$ up to $6d/p$;
#   query: its search, then local queries on a grid from $d+1$ to $16d$), and record the first number of labels
#   at which its excess loss is at most $\epsilon$ (interpolated log-linearly between grid points; never reached
#   counts as infinite). The reported count is the **median over trials** (30 at ci, 200 at full), its spread the
#   interquartile range. Query labels = search labels + local labels.
# * **Dimensions** $d\in\{10,20,40\}$ (ci), $\{10,20,40,80\}$ (full).
# * **Runtime.** The page's record holds the measured runtime of each run (`runtime_s`); we quote no typed
#   figure here, as the shared machine's load moves it several-fold.
#
# **Checks.** The thresholds below were fixed before the first run of this notebook, from the brief and the
# abstract's rates; the roles (counted test or illustration) and the comparators were assigned later, under
# the book's evidence rubric, without changing any method, setting, criterion or threshold.
#
# *Counted tests*, each beside its ablation (the learner without the ingredient the test is about) and the
# naive baselines a skeptic would try, under the same measurement and criterion:
#
# 1. *query-gain* (brief's C1): at $d=20$, $\epsilon=10^{-4}$ on the hard family, query labels / passive labels
#    $\le 0.25$. The bar 0.25 is the brief's design (tagged [I] there), not a number of the paper, which reports
#    none; and the setting moved from the brief's C1 (see the deviations). Ingredient: the local queries.
#    Ablation: the query learner *without its local queries*, which after its search asks for labels at fresh
#    Gaussian points and fits the same least squares; its labels are its search plus a passive run on an
#    independent stream, so its ratio is about 1 or more **by construction** (it is kept as the named ablation,
#    but it cannot pass and tells nothing about where labels must be placed). Naive baselines: *leverage-score
#    sampling* from a Gaussian pool with the same least squares (non-adaptive), and the independent review's
#    *adaptive pool-based learner* (`K.pool_adaptive_labels`: label random pool points until one is positive,
#    then repeatedly label the 4 unlabelled pool points ranked highest by the current fit), at two pool sizes
#    fixed by rules stated before its first run: the passive learner's own sample size at this seed (its
#    median label count: the same amount of unlabelled data) and 5 times that. All are divided by the same
#    passive count. Passive least squares on uniformly random samples (passive ERM) is the denominator, so its
#    own ratio is 1 by definition and is not listed. On this family the structure alone puts any learner that
#    finds the active region and then fits there near $(\ln 2/p+O(d))/(d/p)\sim 1/d$, well under the bar.
# 2. *min-branch* (brief's C3): at $\epsilon=10^{-4}$, $d=20$ and a bias $t^*=4.0$ ($p=3.2\cdot10^{-5}<\epsilon$,
#    so the zero function is $\epsilon$-good), the share of trials in which the learner ends with excess
#    $\le\epsilon$ having used at most $2\cdot10^4$ labels is $\ge0.9$; the local phase uses $4d=80$ queries
#    when the search succeeds. Ingredient: the cap of the search at $1/\epsilon$. Ablation: the same learner
#    with an uncapped search (about $1/p$ draws); since $1/p$ exceeds the budget of $2\cdot10^4$ labels, its share
#    is set by the budget (about $1-e^{-2\cdot10^4p}$) and it fails **by construction** (kept as the named
#    ablation). Naive baselines: the zero function (no labels), and passive least squares on $2\cdot10^4$ random
#    labelled samples.
#
# *Illustrations* (shown, never counted: each is fixed by our construction or is a classical fact):
#
# 3. *passive-rate-in-eps*: at $d=20$ the log-log slope of passive labels against $1/\epsilon$ on the hard
#    family is in $[0.7,1.3]$. Our hard family makes $p(t_\epsilon)$ a few times $\epsilon$, and least squares
#    needs about $d$ positive labels at $1/p$ samples each, so the slope follows from the construction; the
#    fixed-bias run ($t^*=t_{0.01}$, where the active region does not shrink with $\epsilon$) shows where the
#    $1/\epsilon$ comes from.
# 4. *passive-linear-in-d*: at $\epsilon=10^{-4}$, the log-log slope of passive labels against $d$ is in
#    $[0.8,1.2]$ (least squares needs about $d+1$ active labels: classical).
# 5. *query-additive-in-d*: at $\epsilon=10^{-4}$, the log-log slope of query labels against $d$ is $\le 0.5$.
#    Our search draws do not depend on $d$ and cost about $\ln2/p$ to $1/p$ labels ($1/p\approx$
#    {glue:text}`inv_p:.0f`), far above the $O(d)$ local
#    term at these sizes, so the slope is near zero by construction up to the search's noise; and its query
#    counts are the numerator of *query-gain* (one measurement, counted once).
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
# * *query-gain* (the brief's C1) moved setting: the brief puts C1 at $t^*=2.5$ ($p\approx0.006$),
#   $\epsilon=0.01\,E[y^2]$, median of 5 seeds; we run it on the hard family at $\epsilon=10^{-4}$
#   ($t^*=t_\epsilon$, the largest bias of the family) with the median over trials at one seed. The bar 0.25 is the
#   brief's, kept unchanged.
# * *min-branch* (item 2) uses $t^*=4.0$ instead of the brief's $3.5$: at $3.5$ ($1/p\approx4300$) the uncapped ablation
#   would also stay under $2\cdot10^4$ labels in almost every trial and the claim could not tell them apart
#   (decided from $1/p$ before any run). The brief's claim that query counts grow with $d$ with slope
#   $\le1.3$ is replaced by the stricter *query-additive-in-d* at one accuracy (now an illustration) and
#   complemented by *passive-linear-in-d*.
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


def leverage_labels(d, t, eps, rng, trials=None):
    """Per-trial labels for least squares on leverage-score sampled points to reach excess <= eps."""
    grid = np.unique(np.round(2.0 ** np.arange(np.log2(d + 2), np.log2(6 * d / K.relu_bias(t)), 1 / 8))).astype(int)
    return K.labels_to_reach(grid, K.leverage_excess_curve(d, t, SIGMA, TAU, grid, trials or P.trials, rng), eps)


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
# active side, and each costs $1/p$ random samples. The query learner (solid) follows about $\ln2/p$ to $1/p$
# (the median of its geometric search) plus a few times $d$: its cost is the search, and the dimension only adds.
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
# ### Comparators: a fixed bias, the query learner without its local queries, and two pool-based learners
#
# At a fixed bias $t^*=t_{0.01}$ the active region keeps its mass however small $\epsilon$ is, so the
# passive learner's floor $d/p$ does not move. The query learner without local queries asks for labels at
# fresh Gaussian points after its search, which is passive learning: its search plus a passive run, so it
# cannot beat passive least squares by construction. Leverage-score sampling is a non-adaptive pool-based
# learner: it asks for the labels of pool points drawn with probability proportional to their leverage
# $1+\lVert x\rVert^2$ (`K.leverage_excess_curve`), which tilts the draws towards large $|x_1|$, and fits the same
# least squares. The adaptive pool-based learner (`K.pool_adaptive_labels`, from the independent review) labels
# only points of a fixed Gaussian pool but chooses them by its current fit; it is the strong pool-based baseline.

# %%
t_fix = K.hard_bias(EPS[0], FACTOR)
fixed = {e: float(np.median(passive_labels(D_CLAIM, t_fix, e, P.rng)[0])) for e in EPS}
slope_fixed = loglog_slope(1 / EPS, list(fixed.values()))
t_c = K.hard_bias(EPS_CLAIM, FACTOR)
s_abl = K.search_positive(t_c, SIGMA, TAU, int(np.ceil(1 / EPS_CLAIM)), P.trials, P.rng)
no_local = float(np.median(s_abl["queries"] + passive_labels(D_CLAIM, t_c, EPS_CLAIM, P.rng)[0]))
lev = float(np.median(leverage_labels(D_CLAIM, t_c, EPS_CLAIM, P.rng)))
gain = med["query", D_CLAIM, EPS_CLAIM] / med["passive", D_CLAIM, EPS_CLAIM]
gain_control = no_local / med["passive", D_CLAIM, EPS_CLAIM]
gain_leverage = lev / med["passive", D_CLAIM, EPS_CLAIM]
# the adaptive pool-based learner of the independent review, at two pool sizes fixed by rules stated before its
# first run: the passive learner's own sample size (its median label count here: the same unlabelled data), and 5x
POOL_1 = int(round(med["passive", D_CLAIM, EPS_CLAIM]))
POOL_5 = 5 * POOL_1
pool_lab = {m: K.pool_adaptive_labels(D_CLAIM, t_c, SIGMA, TAU, EPS_CLAIM, m, P.trials, P.rng) for m in (POOL_1, POOL_5)}
n_pool = {m: float(np.median(v)) for m, v in pool_lab.items()}
gain_pool1 = n_pool[POOL_1] / med["passive", D_CLAIM, EPS_CLAIM]
gain_pool5 = n_pool[POOL_5] / med["passive", D_CLAIM, EPS_CLAIM]
print(f"fixed bias t = {t_fix:.2f}: passive labels", {f"{e:.1e}": round(v) for e, v in fixed.items()},
      f"slope {slope_fixed:.2f}")
print(f"d = {D_CLAIM}, eps = {EPS_CLAIM:g}: query/passive = {gain:.3f}; without local queries: {gain_control:.2f}; "
      f"leverage-score sampling: {gain_leverage:.2f} ({lev:.0f} labels)")
for m in (POOL_1, POOL_5):
    print(f"adaptive pool-based learner, pool {m}: median {n_pool[m]:.0f} labels, ratio {n_pool[m] / med['passive', D_CLAIM, EPS_CLAIM]:.3f}, "
          f"{np.mean(np.isfinite(pool_lab[m])):.2f} of trials reach eps within the pool")

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
# naive baselines at the same bias: the zero function (no labels at all), and passive least squares on
# BUDGET_MIN_BRANCH random labelled samples
share_zero = float(K.relu_square_mean(T_MIN_BRANCH) <= EPS_CLAIM)
ex_pb = K.passive_excess_curve(D_CLAIM, T_MIN_BRANCH, SIGMA, TAU, np.array([BUDGET_MIN_BRANCH]), P.trials, P.rng)[:, 0]
share_passive_budget = float(np.mean(ex_pb <= EPS_CLAIM))
print(f"t = {T_MIN_BRANCH}: p = {K.relu_bias(T_MIN_BRANCH):.2e}, zero-function loss {K.relu_square_mean(T_MIN_BRANCH):.1e}; "
      f"share within eps and {BUDGET_MIN_BRANCH} labels: capped {share_capped:.2f}, uncapped {share_uncapped:.2f}, "
      f"zero function {share_zero:.2f}, "
      f"passive least squares on {BUDGET_MIN_BRANCH} samples {share_passive_budget:.2f}")

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
GAIN_BAR = 0.25  # the brief's C1 (its design, tagged [I]; the paper reports no numbers)
LOCAL = "the local queries around the positive point found (choosing where to ask)"
claims.test("query-gain",
            statement=f"Hard family, d = {D_CLAIM}, eps = {EPS_CLAIM:g}: labels of the toy query learner / labels of "
                      "passive least squares (medians over trials)",
            paper="d polylog(1/eps) + O~(min{1/p,1/eps}) queries against Omega~(d/eps) for pool-based learners "
                  "(abstract; no numbers reported)",
            criterion=at_most(GAIN_BAR), measured=gain,
            ablation=Comparator("the query learner without its local queries (labels at fresh Gaussian points "
                                "after the search; search + a passive run, so about 1 or more by construction)",
                                gain_control, ingredient=LOCAL),
            baselines=[Comparator("leverage-score sampling from a Gaussian pool, same least squares (non-adaptive "
                                  "pool-based learner)", gain_leverage),
                       Comparator("adaptive pool-based learner (ranks the pool by the current fit; independent "
                                  "review), pool = the passive learner's sample size", gain_pool1),
                       Comparator("adaptive pool-based learner (ranks the pool by the current fit; independent "
                                  "review), pool = 5x the passive learner's sample size", gain_pool5)],
            tol=CNT)
claims.test("min-branch",
            statement=f"t = {T_MIN_BRANCH} (p = {K.relu_bias(T_MIN_BRANCH):.1e}), eps = {EPS_CLAIM:g}, d = {D_CLAIM}: "
                      f"share of trials ending with excess <= eps after at most {BUDGET_MIN_BRANCH} labels "
                      "(search capped at 1/eps)",
            paper="the query count has a min{1/p, 1/eps} term (abstract; no numbers reported)",
            criterion=at_least(0.9), measured=share_capped,
            ablation=Comparator("the same learner with an uncapped search (about 1/p labels; 1/p > the budget, so it "
                                "fails by construction)", share_uncapped,
                                ingredient="the cap of the search at 1/eps (falling back to the zero function)"),
            baselines=[Comparator("the zero function, no labels", share_zero),
                       Comparator(f"passive least squares on {BUDGET_MIN_BRANCH} random labelled samples",
                                  share_passive_budget)],
            tol=SHARE)
claims.illustrate("passive-rate-in-eps",
                  statement=f"Log-log slope of passive labels against 1/eps on the hard family (d = {D_CLAIM})",
                  paper="pool-based learners need Omega~(d/eps) labels (abstract)", criterion=between(0.7, 1.3),
                  measured=slope_eps["passive", D_CLAIM], tol=FIT,
                  why="fixed by our construction: the hard family sets p(t_eps) to a few times eps, and least squares "
                      "on the active side needs about d positive labels, each costing 1/p samples; it measures one "
                      "passive learner on our family, not the lower bound for all pool-based learners")
claims.illustrate("passive-linear-in-d",
                  statement=f"Log-log slope of passive labels against d (d in {list(P.dims)}, eps = {EPS_CLAIM:g}, "
                            "hard family)",
                  paper="pool-based learners need Omega~(d/eps) labels (abstract)", criterion=between(0.8, 1.2),
                  measured=slope_d["passive"], tol=FIT,
                  why="a classical fact of least squares (about d + 1 labels on the active side determine an affine "
                      "function), not a result of the paper")
claims.illustrate("query-additive-in-d",
                  statement=f"Log-log slope of query labels against d (d in {list(P.dims)}, eps = {EPS_CLAIM:g}, "
                            "hard family)",
                  paper="d polylog(1/eps) + O~(min{1/p,1/eps}) queries: d enters additively (abstract)",
                  criterion=at_most(0.5), measured=slope_d["query"], tol=FIT,
                  why=f"fixed by our construction: our search does not depend on d and costs about 1/p = {1 / p_c:.0f} labels, "
                      "far above the local fit's few times d, so the slope is near 0 up to the search's noise; its "
                      "query labels are also the numerator of query-gain (one measurement, counted once)")
claims.headline("query-upper-bound",
                "An efficient learner with black-box label queries reaches O(opt) + eps with about "
                "d polylog(1/eps) + min{1/p, 1/eps} queries",
                tests=["query-gain", "min-branch"])
claims.headline("near-optimal",
                "No learner, efficient or not, can use qualitatively fewer queries",
                untestable="a lower bound over all learners; no exhaustive search or solver over learners is "
                           "possible at any size we can run, and one learner's count cannot refute it")
claims.headline("queries-needed",
                "Pool-based active learners need Omega~(d/eps) labels unless the pool is super-polynomial",
                untestable="a lower bound over all pool-based learners with a super-polynomial pool size, which has "
                           "no meaning at d = 20; our hard family is hard for passive least squares, not for an "
                           "adaptive pool-based learner (a comparator of query-gain), so the query-vs-pool "
                           "separation is not shown at these sizes")
claims.headline("agnostic",
                "The learner is robust: error O(opt) + eps under agnostic (adversarial) labels",
                untestable="the paper's robust algorithm is not available and our toy learner assumes realizable "
                           "labels with Gaussian noise")

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %%
glue("gain", 100 * gain, display=False)
glue("gain_bar", GAIN_BAR, display=False)
glue("gain_d40", 100 * med["query", 40, EPS_CLAIM] / med["passive", 40, EPS_CLAIM], display=False)
glue("gain_ablation", gain_control, display=False)
glue("gain_leverage", gain_leverage, display=False)
glue("n_query", med["query", D_CLAIM, EPS_CLAIM], display=False)
glue("n_passive", med["passive", D_CLAIM, EPS_CLAIM], display=False)
glue("n_no_local", no_local, display=False)
glue("n_leverage", lev, display=False)
glue("inv_p", 1 / p_c, display=False)
glue("slope_passive_eps", slope_eps["passive", D_CLAIM], display=False)
glue("slope_passive_d", slope_d["passive"], display=False)
glue("slope_fixed", slope_fixed, display=False)
glue("slope_query_d", slope_d["query"], display=False)
glue("slope_query_eps_lo", min(slope_eps["query", d] for d in P.dims), display=False)
glue("slope_query_eps_hi", max(slope_eps["query", d] for d in P.dims), display=False)
glue("passive_over_floor", med["passive", D_CLAIM, EPS_CLAIM] / (D_CLAIM / p_c), display=False)
for d in P.dims:
    glue(f"n_query_d{d}", med["query", d, EPS_CLAIM], display=False)
glue("share_capped", 100 * share_capped, display=False)
glue("share_uncapped", 100 * share_uncapped, display=False)
glue("share_zero", 100 * share_zero, display=False)
glue("share_passive_budget", 100 * share_passive_budget, display=False)
glue("zero_loss_branch", float(K.relu_square_mean(T_MIN_BRANCH)), display=False)
glue("gain_pool1", gain_pool1, display=False)
glue("gain_pool5", gain_pool5, display=False)
glue("n_pool1", n_pool[POOL_1], display=False)
glue("n_pool5", n_pool[POOL_5], display=False)
glue("pool1", POOL_1, display=False)
glue("pool5", POOL_5, display=False)
glue("reach_pool1", 100 * float(np.mean(np.isfinite(pool_lab[POOL_1]))), display=False)
glue("reach_pool5", 100 * float(np.mean(np.isfinite(pool_lab[POOL_5]))), display=False)
glue("p_over_eps_lo", float(np.min(P_EPS / EPS)), display=False)
glue("p_over_eps_hi", float(np.max(P_EPS / EPS)), display=False)
glue("t_eps_lo", float(T_EPS.min()), display=False)
glue("t_eps_hi", float(T_EPS.max()), display=False)
glue("p_eps_hi", float(P_EPS.max()), display=False)
glue("p_eps_lo", float(P_EPS.min()), display=False)
P_EPS1 = K.relu_bias(np.array([K.hard_bias(e, 1.0) for e in EPS]))  # where the zero function is exactly eps-good
glue("cap_ratio_lo", float(np.min(P_EPS1 / EPS)), display=False)
glue("cap_ratio_claim", float(P_EPS1[-1] / EPS_CLAIM), display=False)
glue("cap_miss", 100 * float(np.exp(-np.min(P_EPS1 / EPS))), display=False)

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# **Neither counted test separates our toy query learner from the learners a skeptic would try: at each a naive
# comparator passes too, so this page illustrates the shape of the paper's bounds and does not test them.** The
# query-vs-pool separation, the paper's point, is not shown at these sizes. Everything measured comes from our own
# toy learner on realizable labels with small Gaussian noise, not from the paper's agnostic algorithm. The values
# below are those of ci seed 0; counts of seeds are over the ci sweep.
#
# * *Queries against random samples* ({repro-status}`query-gain`). On the hard family at $d=20$,
#   $\epsilon=10^{-4}$ the toy query learner needs {glue:text}`gain:.1f` % of the labels of passive least squares
#   ({glue:text}`n_query:.0f` against {glue:text}`n_passive:.0f`; {glue:text}`gain_d40:.1f` % at $d=40$), under
#   the brief's bar of {glue:text}`gain_bar:.2f` (not a number of the paper). But the independent review's
#   adaptive pool-based learner, which may only label points of a fixed Gaussian pool, needs
#   {glue:text}`gain_pool5:.3f` times the passive count ({glue:text}`n_pool5:.0f` labels) with a pool of 5 times
#   the passive sample size ({glue:text}`pool5:.0f` points), about as few as the query learner. With a pool of the
#   passive learner's own sample size ({glue:text}`pool1:.0f` points) it reaches $\epsilon$ in only
#   {glue:text}`reach_pool1:.0f` % of the trials (median label count {glue:text}`n_pool1:.0f` and ratio
#   {glue:text}`gain_pool1:.2f`, infinite when fewer than half the trials get there): such a pool holds only a few dozen positive points, and the fit needs nearly all
#   of them. Non-adaptive leverage-score sampling needs {glue:text}`gain_leverage:.2f` times the passive count
#   ({glue:text}`n_leverage:.0f` labels). The ablation without local queries ({glue:text}`gain_ablation:.2f` times,
#   {glue:text}`n_no_local:.0f` labels) fails by construction, being the search plus a passive run. Over the ci
#   sweep the learner meets the bar at {repro-seeds}`query-gain:method:pass` seeds, leverage sampling at
#   {repro-seeds}`query-gain:baseline1:pass`, the adaptive pool learner at
#   {repro-seeds}`query-gain:baseline2:pass` (pool = passive sample size) and
#   {repro-seeds}`query-gain:baseline3:pass` (5x). So the gain comes from *adaptively* choosing where to ask, which
#   a pool-based learner with a modest pool can also do on this realizable family; the hard family is hard for
#   passive least squares, not for pool-based active learning. The size of the gain, of order $1/d$, is set by the
#   structure: any learner that finds the active region and then fits there pays about $\ln2/p+O(d)$ labels
#   against passive's $d/p$, so the bar is slack by several times for all of them.
# * *The $\min\{1/p,1/\epsilon\}$ branch* ({repro-status}`min-branch`). At $t^*=4$ ($p<\epsilon$) the capped
#   learner meets $\epsilon$ within $2\cdot10^4$ labels in {glue:text}`share_capped:.0f` % of the trials (beyond
#   the tolerance band of the 90 % bar at {repro-seeds}`min-branch:method:pass` seeds), an uncapped search in
#   {glue:text}`share_uncapped:.0f` %. But the zero function, with no labels at all, meets the target in
#   {glue:text}`share_zero:.0f` % (its loss is {glue:text}`zero_loss_branch:.1e`), and so does passive least
#   squares on $2\cdot10^4$ random samples ({glue:text}`share_passive_budget:.0f` %), which almost never sees
#   $d+2$ positive labels and therefore returns the zero function. The uncapped ablation fails by construction:
#   $1/p$ exceeds the budget, so its share is set by the budget. So a comparator passes too: where $p<\epsilon$
#   nothing needs to be learnt, and the cap only keeps a learner that searches from overspending. What the
#   paper's $\min$ means, one learner that is cheap at every bias without knowing $p$, is shown by the bias sweep
#   figure, not tested.
#
# Illustrations (shown, not counted). Passive labels grow like $d/\epsilon$ on our family: their log-log slope
# against $1/\epsilon$ is {glue:text}`slope_passive_eps:.2f` at $d=20$ (`passive-rate-in-eps`; short of 1 by the
# logarithmic factor, since $p(t_\epsilon)$ is several times $\epsilon$), against $d$
# {glue:text}`slope_passive_d:.2f` (`passive-linear-in-d`), and the passive counts sit
# {glue:text}`passive_over_floor:.1f` times above the floor $d/p$. At a fixed bias the passive count hardly moves
# with $\epsilon$ (slope {glue:text}`slope_fixed:.2f`). For the query learner the dimension only adds: slope
# {glue:text}`slope_query_d:.2f` in $d$ at $\epsilon=10^{-4}$ (`query-additive-in-d`; medians
# {glue:text}`n_query_d10:.0f`, {glue:text}`n_query_d20:.0f` and {glue:text}`n_query_d40:.0f` labels at $d=10$, 20,
# 40, whose differences are the spread of the search, about $1/p\approx$ {glue:text}`inv_p:.0f` labels). This was
# a counted claim before the conversion and failed at one ci seed of ten: with 30 trials per point the median of a
# geometric search cost moves by tens of percent between seeds, enough to tilt a slope fitted over a factor of 4
# in $d$. The query count still grows with $1/\epsilon$ (slopes {glue:text}`slope_query_eps_lo:.2f` to
# {glue:text}`slope_query_eps_hi:.2f`), because the search costs $1/p(t_\epsilon)$: the $\min\{1/p,1/\epsilon\}$
# term of the bound.
#
# What this illustrates is the shape of the query bound, $d+\min\{1/p,1/\epsilon\}$ against passive least
# squares' $d/\epsilon$, for one query learner on realizable labels. It does not show that queries beat
# pool-based learners (an adaptive one with a pool of 5 times the passive sample does as well here), and it says
# nothing about robustness to agnostic labels, which is what the paper's algorithm is built for, nor about the
# lower bounds.
#
# ## What a skeptic would try
#
# Reviewed by an independent skeptic (a helper that did not write the page), with the rubric, the page, its record
# and seeds 0-9: they re-ran the page's kernels beside an adaptive pool-based active learner at several pool
# sizes, a "search, then least squares" query learner (which is this page's learner), and leverage sampling, and
# read the prose against the record; what they tried is above. Their adaptive pool learner is now a kernel and a
# comparator of *query-gain*, measured by this notebook at two pool sizes fixed in advance. Values at ci seed 0:
#
# * *Passive ERM on the same labels* (least squares on uniformly random samples): the denominator of
#   *query-gain*; it needs {glue:text}`n_passive:.0f` labels at $d=20$, $\epsilon=10^{-4}$.
# * *Adaptive pool-based learner* (independent review): {glue:text}`gain_pool5:.3f` of passive with a pool of
#   {glue:text}`pool5:.0f` points (5 times the passive sample), under the bar of {glue:text}`gain_bar:.2f` like the
#   query learner ({glue:text}`gain:.1f` %); with a pool of {glue:text}`pool1:.0f` points (the passive sample size)
#   it reaches $\epsilon$ in {glue:text}`reach_pool1:.0f` % of the trials (ratio {glue:text}`gain_pool1:.2f`;
#   infinite when fewer than half the trials get there).
# * *Leverage-score sampling* (non-adaptive): {glue:text}`n_leverage:.0f` labels, {glue:text}`gain_leverage:.2f` of
#   passive, above the bar.
# * *Uniform random queries after finding a positive point* (the ablation): {glue:text}`gain_ablation:.2f` of
#   passive, about 1 or more by construction (the search plus an independent passive run); it is not evidence of
#   where labels must be placed.
# * *Return the zero function* at $p<\epsilon$: it passes *min-branch* ({glue:text}`share_zero:.0f` %), as does
#   passive least squares at the same budget ({glue:text}`share_passive_budget:.0f` %); the uncapped ablation
#   ({glue:text}`share_uncapped:.0f` %) fails by construction of the budget.
#
# ## What the miniature cannot show
#
# * **Agnostic labels.** The paper's algorithm reaches $O(\mathrm{opt})+\epsilon$ against labels that an
#   adversary may corrupt; ours assumes realizable labels with small Gaussian noise, and a handful of corrupted
#   labels around the point it found would break its local fit. Making the local step robust is the paper's
#   contribution and is not tested here.
# * **The lower bounds.** That no efficient or inefficient query learner does much better, and that every
#   pool-based learner with a polynomial pool needs $\tilde\Omega(d/\epsilon)$ labels, are statements about all
#   learners; we measure one passive learner and two pool-based learners on one family of targets, and the
#   adaptive pool learner is not slowed by our family at a pool of a few times the passive sample, so the
#   family is not a hard instance for the pool-based bound.
# * **The $\min$ branch as a uniform guarantee.** The harder setting for *min-branch* is a sweep of biases on both
#   sides of $p=\epsilon$ with one budget, where the zero function fails for $p\gg\epsilon$ and passive least
#   squares fails in between; a test there (the learner within budget at every bias) would be post hoc and was
#   not added in this conversion.
# * **The polylog factor and the constants.** With $\epsilon$ over two decades and $d\le80$, the local phase
#   costs a small multiple of $d$ and its growth with $1/\epsilon$ is hidden under the spread; the theorem's
#   $\mathrm{polylog}(1/\epsilon)$ and its $\tilde O$ factors are not resolved.
# * **Other input distributions** (the proofs use Gaussian-specific tools) and other ways to place the queries.
