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
# # BayesCoxCP: contextual pricing on a discrete price grid
#
# *When only a few prices can be posted, a Bayesian proportional-hazards pricing policy that models the
# demand at each grid price separately should pay regret that grows like $\sqrt T$, while a method built
# for continuous prices pays $T^{2/3}$; as the grid gets denser the advantage should fade.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from IPython.display import Markdown, display

from repro.claims import Claims, at_least, at_most, is_true, tolerance
from repro.papers import bayescoxcp_discrete_pricing as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    # about 4 s of CPU on one thread (measured, imports included): horizons 500..4000, 5 replicates
    "ci": dict(Ts=(500, 1000, 2000, 4000), reps=5),
    # about 45 s of CPU on one thread (measured): horizons 625..20000, 20 replicates
    "full": dict(Ts=(625, 1250, 2500, 5000, 10000, 20000), reps=20),
})
claims = Claims(
    "bayescoxcp-discrete-pricing",
    title="A Bayesian Approach to Contextual Dynamic Pricing using the Proportional Hazards Model with Discrete Price Data",
    authors=None,
    paper_url="https://openreview.net/forum?id=qpFAZyMhwz",
    scale=scale, seed=seed,
)
D = 5                                              # covariate dimension
BETA = np.array([1.0, -1.0, 1.0, -1.0, 1.0]) / np.sqrt(D)  # true coefficients, |beta| = 1
LAM = 1.0                                          # exponential baseline: S0(p) = exp(-LAM p)
P_LO, P_HI = 0.5, 2.5                              # price range of every grid
K_SPARSE = 5                                       # the sparse grid: 5 prices whatever T
GAMMAS = (0.2, 1 / 3, 0.5)                         # denser grids: K = ceil(T^gamma)
PRIOR = dict(sd_first=2.0, rw_sd=1.0, sd_beta=2.0, a0=0.0)  # Gaussian prior (see the method)
T_MAX = max(P.Ts)

# %% [markdown]
# ## The claim
#
# Dynamic pricing: in each round a buyer arrives with covariates $x_t$, the seller posts a price $p_t$,
# and the buyer buys if her valuation is at least $p_t$. Most regret analyses treat $p_t$ as a continuous
# variable. The paper observes that real prices live on a grid (\$9.99, \$10.49, ...) and that this
# discreteness can be exploited: with a semi-parametric Cox proportional-hazards model of the valuation
# and a grid of about $T^\gamma$ prices, its Bayesian algorithm **BayesCoxCP** has high-probability regret
#
# $$\widetilde O\big(T^{(1+\gamma)/2}+\sqrt{dT}\big)\ \ (\gamma<1/3),\qquad \widetilde O\big(T^{2/3}+\sqrt{dT}\big)\ \ (\gamma\ge 1/3),$$
#
# against $\widetilde O(T^{2/3}d)$ for the earlier continuous-price method CoxCP (Choi et al., ICML 2023).
# A sparse grid (small $\gamma$) should therefore give regret close to $\sqrt T$; a dense grid, the
# continuous rate $T^{2/3}$. Numerically the paper reports that BayesCoxCP "significantly outperforms an
# existing method, particularly in scenarios with sparse discrete price points".
#
# What we know of the paper: the title, the abstract and its OpenReview listing. The authors, the
# algorithm's details (prior, sampler, schedule), the proof's assumptions and the experiments' numbers
# were not found, and no official code was found. **This page tests a stand-in, "BayesCoxCP-lite", that we
# designed from the abstract and the reproduction brief**; its checks compare regret *exponents*, the only
# numbers the abstract gives.
#
# ## The method
#
# **Model.** The valuation $v_t$ of a buyer with covariates $x_t$ has survival function
# $P(v_t\ge p\mid x_t)=S(p\mid x_t)=S_0(p)^{\exp(x_t^\top\beta)}$ (Cox proportional hazards). A sale at
# price $p$ reveals only whether $v_t\ge p$ (a *current-status* observation). Our truth has the exponential
# baseline $S_0(p)=e^{-\lambda p}$, so
#
# $$S(p\mid x)=\exp\!\big(-\lambda p\,e^{x^\top\beta}\big),\qquad
#   \text{revenue } r(p\mid x)=p\,S(p\mid x),\qquad p^*(x)=\frac{e^{-x^\top\beta}}{\lambda}.$$
#
# The seller may post only grid prices $p_1<\dots<p_K$. `K.optimal_grid_price(x, beta, lam, grid)`
# returns $\arg\max_k r(p_k\mid x)$: since $\log r$ is strictly concave in $p$, only the two grid
# neighbours of $p^*(x)$ need comparing. Regret is
# $\sum_t\big[\max_k r(p_k\mid x_t)-r(p_t\mid x_t)\big]$, computed exactly from the true model.
#
# **BayesCoxCP-lite (ours).** The learner does *not* know that $S_0$ is exponential. It keeps one unknown
# per grid price, the baseline log cumulative hazard $a_k=\log\Lambda_0(p_k)$, so the sale probability at
# grid price $k$ is $\exp(-e^{a_k+x^\top\beta})$: a binary regression with the complementary log-log link
# and $K+d$ parameters. This is where discreteness enters: a grid of $K$ prices needs $K$ baseline values,
# not a whole function. The prior is Gaussian: $\beta\sim N(0,2^2I)$, $a_1\sim N(0,2^2)$ and a random walk
# in price, $a_k-a_{k-1}\sim N(0,\tau^2(p_k-p_{k-1}))$ with $\tau=1$ (the Gaussian analogue of independent
# gamma hazard increments: neighbouring prices share information, distant ones barely). The posterior is
# approximated by Laplace's method (Newton's method to the MAP, precision = observed information + prior
# precision), refitted at rounds $20, 25, 32,\dots$ (ratio $1.25$). In each round a parameter is drawn from
# the current approximation and the grid price that maximises the sampled revenue is posted (Thompson
# sampling).
#
# **CoxCP-like continuous-price baseline.** A method designed for continuous prices explores for
# $\lceil T^{2/3}\rceil$ rounds with uniformly random prices, then commits to the greedy price under its
# estimate. Its baseline is smooth in price and blind to where the grid points are: piecewise linear in
# $p$ with $\lceil T^{1/3}\rceil$ equal bins on $[0.5, 2.5]$ (the bin count of continuous-price
# nonparametric pricing), fitted by the same penalised likelihood (MAP with the same prior on the knots).
# It knows $T$; BayesCoxCP-lite does not.
#
# **Null policy.** A uniformly random grid price every round (regret linear in $T$).
#
# ## The experiment
#
# * **Data.** $d=5$, $x_t\sim N(0,I_d/d)$, $\beta=(1,-1,1,-1,1)/\sqrt5$, $\lambda=1$, so the continuous
#   optimum $p^*(x)=e^{-x^\top\beta}$ ranges over about $[0.4, 2.5]$. Grids of equally spaced prices on
#   $[0.5,2.5]$: **sparse** $K=5$ for every $T$ ($\gamma\to0$), and $K=\lceil T^\gamma\rceil$ for
#   $\gamma\in\{0.2, 1/3, 0.5\}$ (at $T=4000$: $K=6, 16, 64$).
# * **Runs.** Horizons $T\in\{500,1000,2000,4000\}$ with 5 replicates (ci), $T\in\{625,\dots,20000\}$ with
#   20 replicates (full). All methods see the same covariates and the same uniforms (a sale at price $p$
#   iff $U_t<S(p\mid x_t)$): the baselines run in the same replicate as the method. On the sparse grid,
#   where nothing depends on $T$, one run to $T_{\max}$ gives BayesCoxCP-lite's regret at every horizon; the
#   other settings run each horizon separately.
# * **Measured.** Cumulative expected regret at horizon $T$ (mean and spread over replicates) and its
#   log-log slope in $T$ (`repro.stats.loglog_slope` on the mean over replicates).
#
# **Claims, with criteria fixed before the first run** (the brief's checks C1-C3 made sharper where the
# theory allows, plus the dense-grid rate):
#
# 1. *Beats the continuous-price baseline on the sparse grid* (brief C1): at $K=5$ and $T=T_{\max}$,
#    regret(BayesCoxCP-lite) / regret(CoxCP-like) $\le0.7$. Control: the same ratio on the dense grid
#    $K=\lceil T^{1/2}\rceil$, where the two bounds coincide ($T^{2/3}$), so the paper's "particularly with
#    sparse grids" says the advantage should shrink there.
# 2. *$\sqrt T$ regret on the sparse grid* (brief C2, sharpened): the log-log slope of BayesCoxCP-lite's
#    regret at $K=5$ is at most $7/12$, the midpoint between the sparse rate $1/2$ and the continuous rate
#    $2/3$; "partial" up to the brief's $0.75$. Control: the CoxCP-like slope on the same grid.
# 3. *The exponent adapts to the grid* (brief C3, as exponents): slope at $\gamma=1/2$ minus slope at
#    $K=5$ $\ge1/12$ (theory: $2/3-1/2=1/6$). Control: the same difference for the CoxCP-like baseline,
#    whose $T^{2/3}$ does not depend on the grid (theory: $0$).
# 4. *The dense-grid rate* ($\gamma\ge1/3$: $T^{2/3}$): BayesCoxCP-lite's slope at $\gamma=1/2$ is at most
#    $0.71$ (between $2/3$ and the $(1+\gamma)/2=3/4$ of the sparse-grid formula); "partial" up to $0.75$.
#    Control: BayesCoxCP-lite with independent grid values (prior without the random walk), which cannot
#    share information between neighbouring prices.
#
# **Deviations from the paper**
#
# * The algorithm is ours, designed from the abstract and the brief: Gaussian priors, a Laplace
#   approximation refitted on a geometric schedule and Thompson sampling, where the paper's prior,
#   sampler and schedule were not available. In particular the random-walk prior that links neighbouring
#   grid prices was chosen after a first prototype (before this notebook ran) with independent grid values
#   had a dense-grid slope near $0.9$; that version is kept as the control of claim 4.
# * The existing method is a CoxCP-*like* explore-then-commit with a smoothed baseline, not CoxCP itself
#   (Choi et al. 2023 use epochs, a partial-likelihood estimate of $\beta$ and a nonparametric baseline
#   estimate); its exploration length $\lceil T^{2/3}\rceil$ (constant 1) and bin count
#   $\lceil T^{1/3}\rceil$ are the textbook continuous-price choices, not tuned.
# * One synthetic truth (exponential baseline, $d=5$, fixed $\beta$); the baseline is known to be smooth in
#   our data, which favours the smoothed baseline of the CoxCP-like method on dense grids.
# * Horizons up to $4000$ (ci) and $20000$ (full) with 5 and 20 replicates; exponents are fitted over a
#   factor of 8 (ci) or 32 (full) in $T$, so the logarithmic factors of the bounds bias them upwards.
# * The brief's grid $K=\lceil T^{0.2}\rceil$ is run, and $\gamma=1/3$ added (the paper's threshold); the
#   brief's $d$-dependence study is not run.

# %%
def prefix(env, T):
    """The first T rounds of an environment (common random numbers across horizons)."""
    return K.PricingEnv(env.grid, env.beta, env.lam, env.X[:, :T], env.U[:, :T])


def run_bayes(env, rw=True, seed_tag=0):
    grid = env.grid
    prior = K.random_walk_prior(grid, D, **(PRIOR if rw else PRIOR | dict(rw_sd=None)))
    return K.thompson_pricing(env, np.eye(grid.size), prior, [seed, 1, seed_tag, grid.size, env.shape[1]])


def run_coxcp(env):
    T = env.shape[1]
    knots = np.linspace(P_LO, P_HI, int(np.ceil(T ** (1 / 3) - 1e-9)) + 1)
    prior = K.random_walk_prior(knots, D, **PRIOR)
    basis = K.hat_basis(env.grid, knots)
    return K.explore_then_commit(env, basis, prior, int(np.ceil(T ** (2 / 3) - 1e-9)), [seed, 2, env.grid.size, T])


def run_uniform(env):
    return K.uniform_pricing(env, [seed, 3, env.grid.size, env.shape[1]])


def cum_regret(k_idx, env):
    return K.expected_regret(k_idx, env).cumsum(axis=1)


METHODS = ("BayesCoxCP-lite", "CoxCP-like", "uniform")
SETTINGS = ("K=5",) + tuple(f"gamma={g:.3g}" for g in GAMMAS)
reg = {}     # (setting, method) -> (reps, len(Ts)) cumulative regret at each horizon
curves = {}  # (setting, method) -> (reps, T_MAX) cumulative regret of the T_MAX run
Ks = {}      # setting -> grid sizes per horizon
ti = np.array(P.Ts) - 1

# sparse grid: BayesCoxCP-lite and uniform do not depend on T, one run to T_MAX
grid5 = K.price_grid(K_SPARSE, P_LO, P_HI)
env5 = K.make_env(T_MAX, grid5, BETA, LAM, P.reps, [seed, 0, K_SPARSE])
Ks["K=5"] = [K_SPARSE] * len(P.Ts)
for name, fn in (("BayesCoxCP-lite", run_bayes), ("uniform", run_uniform)):
    c = cum_regret(fn(env5), env5)
    curves["K=5", name], reg["K=5", name] = c, c[:, ti]
reg["K=5", "CoxCP-like"] = np.stack([cum_regret(run_coxcp(prefix(env5, T)), prefix(env5, T))[:, -1] for T in P.Ts], axis=1)
curves["K=5", "CoxCP-like"] = cum_regret(run_coxcp(env5), env5)

# denser grids K = ceil(T^gamma): one environment per horizon
for g, setting in zip(GAMMAS, SETTINGS[1:]):
    Ks[setting] = [K.grid_size(T, g) for T in P.Ts]
    out = {m: [] for m in METHODS + ("independent values",)}
    for T, Kk in progress(list(zip(P.Ts, Ks[setting])), desc=setting):
        env = K.make_env(T, K.price_grid(Kk, P_LO, P_HI), BETA, LAM, P.reps, [seed, 0, Kk, T])
        runs = {"BayesCoxCP-lite": run_bayes(env), "CoxCP-like": run_coxcp(env), "uniform": run_uniform(env)}
        if g == 0.5:
            runs["independent values"] = run_bayes(env, rw=False)
        for m, k in runs.items():
            c = cum_regret(k, env)
            out[m].append(c[:, -1])
            if T == T_MAX:
                curves[setting, m] = c
    for m, v in out.items():
        if v:
            reg[setting, m] = np.stack(v, axis=1)
DENSE = SETTINGS[-1]
slope = {key: loglog_slope(P.Ts, v.mean(axis=0)) for key, v in reg.items()}
print(f"scale={P.scale}: T in {P.Ts}, {P.reps} replicates; grid sizes:",
      "; ".join(f"{s}: {Ks[s]}" for s in SETTINGS))

# %% [markdown]
# ## Results
#
# ### The model and the grid
#
# Revenue curves $p\,S(p\mid x)$ for three buyers, with the sparse grid ($K=5$) and the grid price that
# `optimal_grid_price` returns for each (a filled dot) beside the continuous optimum $p^*(x)$ (a cross).
# Because the grid is coarse, the best grid price can be far from $p^*$, and only a few of the five
# prices are ever optimal: most learning is about the two or three prices in the middle.

# %%
p = np.linspace(0.05, 3.2, 400)
fig, ax = plt.subplots(figsize=(6.4, 3.6))
for xb, col in zip((-0.6, 0.0, 0.6), ("C0", "C1", "C2")):
    x = np.full(D, xb / BETA.sum())  # covariates with x^T beta = xb
    ax.plot(p, K.revenue_curve(p, x, BETA, LAM), color=col, label=fr"$x^\top\beta={xb:+.1f}$")
    ax.plot(grid5, K.revenue_curve(grid5, x, BETA, LAM), "o", mfc="none", color=col)
    pg = K.optimal_grid_price(x, BETA, LAM, grid5)
    ax.plot(pg, pg * K.cox_survival([pg], x, BETA, LAM)[0], "o", color=col, ms=8)
    ps = np.exp(-xb) / LAM
    ax.plot(ps, ps * np.exp(-1.0), "x", color=col, ms=9)
ax.set(xlabel="price $p$ (currency units)", ylabel=r"expected revenue $p\,S(p\mid x)$ per buyer",
       title="Exponential-baseline Cox model; sparse grid K = 5")
ax.legend()
plt.show()

# %% [markdown]
# ### Learning curves at $T_{\max}$
#
# Cumulative regret against the number of buyers, in the $T_{\max}$ run of the sparse grid and of the
# densest grid ($K=\lceil T_{\max}^{1/2}\rceil$); mean over replicates with a band of $\pm1$ standard
# deviation. The CoxCP-like baseline pays a linear cost while it explores (its first $T_{\max}^{2/3}$
# rounds), then a flat or linear one depending on how good its one estimate is.

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), sharey=False)
t = np.arange(1, T_MAX + 1)
styles = {"BayesCoxCP-lite": ("C0", "-"), "CoxCP-like": ("C3", "-"), "uniform": ("0.5", ":"),
          "independent values": ("C0", "--")}
for ax, setting in zip(axes, ("K=5", DENSE)):
    for m in ("BayesCoxCP-lite", "independent values", "CoxCP-like", "uniform"):
        if (setting, m) not in curves:
            continue
        c = curves[setting, m]
        col, ls = styles[m]
        label = m if m != "independent values" else "BayesCoxCP-lite, independent grid values"
        ax.plot(t, c.mean(0), color=col, ls=ls, label=label)
        ax.fill_between(t, c.mean(0) - c.std(0), c.mean(0) + c.std(0), color=col, alpha=0.15)
    K_here = Ks[setting][-1]
    ax.set(xlabel="round t (buyers)", ylabel="cumulative expected regret (revenue units)",
           title=f"{setting}: K = {K_here} prices, T = {T_MAX}, {P.reps} replicates")
for ax in axes:
    ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### Regret against the horizon (log-log)
#
# Regret at horizon $T$ for every grid rule, BayesCoxCP-lite against the CoxCP-like baseline in the same
# replicates (error bars: $\pm1$ standard deviation over replicates; the legend gives the fitted slope).
# Grey guides: slopes $1/2$ and $2/3$ through the first point of BayesCoxCP-lite.

# %%
fig, axes = plt.subplots(1, len(SETTINGS), figsize=(4 * len(SETTINGS), 3.8), sharey=True)
Ts = np.array(P.Ts)
for ax, setting in zip(axes, SETTINGS):
    for m in ("BayesCoxCP-lite", "independent values", "CoxCP-like", "uniform"):
        if (setting, m) not in reg:
            continue
        v = reg[setting, m]
        col, ls = styles[m]
        label = m if m != "independent values" else "independent grid values"
        ax.errorbar(Ts, v.mean(0), yerr=v.std(0), color=col, ls=ls, marker="o", ms=3, capsize=2,
                    label=f"{label}: slope {slope[setting, m]:.2f}")
    y0 = reg[setting, "BayesCoxCP-lite"].mean(0)[0]
    for a, lsg in ((0.5, "-."), (2 / 3, "--")):
        ax.plot(Ts, y0 * (Ts / Ts[0]) ** a, color="0.6", ls=lsg, lw=1)
    ax.set(xscale="log", yscale="log", xlabel="horizon T (buyers)", title=f"{setting} (K = {Ks[setting][0]}..{Ks[setting][-1]})")
    ax.set_xticks(Ts, [f"{T:g}" for T in Ts], rotation=45)
    ax.minorticks_off()
    ax.legend(fontsize=7, loc="upper left")
axes[0].set_ylabel("regret at horizon T (revenue units)")
plt.show()

# %% [markdown]
# ### Fitted exponent against the grid's sparsity
#
# The paper's bound for BayesCoxCP, $\min\{(1+\gamma)/2,\,2/3\}$ (the sparse grid is drawn at
# $\gamma=0$), and CoxCP's $2/3$, beside the slopes we fit. The bounds hold up to logarithmic factors,
# which raise a slope fitted over a short range of $T$.

# %%
gam = np.array([0.0, *GAMMAS])
fig, ax = plt.subplots(figsize=(6.4, 3.8))
gg = np.linspace(0, 0.6, 100)
ax.plot(gg, np.minimum((1 + gg) / 2, 2 / 3), color="C0", ls="--", lw=1, label="BayesCoxCP bound (paper)")
ax.axhline(2 / 3, color="C3", ls=":", lw=1, label="CoxCP bound $2/3$")
for m in ("BayesCoxCP-lite", "CoxCP-like"):
    ax.plot(gam, [slope[s, m] for s in SETTINGS], "o-", color=styles[m][0], label=f"{m}, fitted")
ax.plot([0.5], [slope[DENSE, "independent values"]], "s", mfc="none", color="C0", label="independent grid values, fitted")
ax.set(xlabel=r"grid sparsity $\gamma$ ($K=\lceil T^\gamma\rceil$; sparse $K=5$ at $\gamma=0$)",
       ylabel="log-log slope of regret in T", title=f"Regret exponents, T = {P.Ts[0]}..{T_MAX}")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### The paper's exponents beside ours
#
# The abstract reports rates, not numbers; the table sets the exponent of each bound beside the slope we
# fit (ci: $T\le4000$, 5 replicates; the full-scale values are in the robustness table) and the regret
# ratio at $T_{\max}$.

# %%
rows = ["| setting | $K$ at $T_{\\max}$ | BayesCoxCP bound (paper) | BayesCoxCP-lite slope | CoxCP bound | CoxCP-like slope | regret ratio at $T_{\\max}$ (lite / CoxCP-like) |",
        "|---|---|---|---|---|---|---|"]
for s, g in zip(SETTINGS, gam):
    bound = "1/2 (fixed $K$)" if g == 0 else f"{min((1 + g) / 2, 2 / 3):.3f}"
    ratio = reg[s, "BayesCoxCP-lite"].mean(0)[-1] / reg[s, "CoxCP-like"].mean(0)[-1]
    rows.append(f"| {s} | {Ks[s][-1]} | {bound} | {slope[s, 'BayesCoxCP-lite']:.2f} | 2/3 | {slope[s, 'CoxCP-like']:.2f} | {ratio:.2f} |")
display(Markdown("\n".join(rows)))

# %% [markdown]
# ## Claims

# %%
REG = tolerance(rel=0.15, why="Thompson-sampling paths: a last-digit change in a Laplace fit can flip one posted price and change a replicate's path")
SLOPE = tolerance(abs=0.05, why="slope of simulated regret: a changed Thompson-sampling path moves it")
ratio = {s: reg[s, "BayesCoxCP-lite"].mean(0)[-1] / reg[s, "CoxCP-like"].mean(0)[-1] for s in SETTINGS}
claims.check("beats-coxcp-sparse",
             statement=f"Sparse grid K=5, T={T_MAX}: regret of BayesCoxCP-lite / regret of the CoxCP-like continuous-price baseline (mean over {P.reps} replicates)",
             paper="BayesCoxCP significantly outperforms an existing method, particularly with sparse discrete price points (no number found)",
             criterion=at_most(0.7), measured=float(ratio["K=5"]), control=float(ratio[DENSE]),
             control_label=f"the same ratio on the dense grid K = ceil(T^1/2) = {Ks[DENSE][-1]}, where both bounds are T^(2/3)", tol=REG)
claims.check("sparse-slope",
             statement=f"Sparse grid K=5: log-log slope of BayesCoxCP-lite's regret in T, T in {list(P.Ts)}",
             paper="O~(T^((1+gamma)/2) + sqrt(dT)) for gamma < 1/3: about T^(1/2) for a fixed grid",
             criterion=at_most(7 / 12, partial=0.75), measured=float(slope["K=5", "BayesCoxCP-lite"]),
             control=float(slope["K=5", "CoxCP-like"]), control_label="the CoxCP-like continuous-price baseline's slope (its bound: 2/3)", tol=SLOPE)
claims.check("adapts-to-sparsity",
             statement="Slope of regret in T on the grid K = ceil(T^1/2) minus the slope on the sparse grid K = 5, BayesCoxCP-lite",
             paper="the bound's exponent grows with the grid's sparsity gamma: 1/2 (fixed K) to 2/3 (gamma >= 1/3), a difference of 1/6",
             criterion=at_least(1 / 12),
             measured=float(slope[DENSE, "BayesCoxCP-lite"] - slope["K=5", "BayesCoxCP-lite"]),
             control=float(slope[DENSE, "CoxCP-like"] - slope["K=5", "CoxCP-like"]),
             control_label="the same difference for the CoxCP-like baseline (bound T^(2/3) on every grid: difference 0)", tol=SLOPE)
claims.check("dense-slope",
             statement=f"Grid K = ceil(T^1/2) (gamma = 1/2): log-log slope of BayesCoxCP-lite's regret in T, T in {list(P.Ts)}",
             paper="O~(T^(2/3) + sqrt(dT)) for gamma >= 1/3",
             criterion=at_most(0.71, partial=0.75), measured=float(slope[DENSE, "BayesCoxCP-lite"]),
             control=float(slope[DENSE, "independent values"]),
             control_label="BayesCoxCP-lite with independent grid values (no random walk linking neighbouring prices)", tol=SLOPE)
# the kernel, checked on this run's buyers against a brute-force argmax over the grid (not counted)
Xall = env5.X.reshape(-1, D)
brute = grid5[np.argmax(K.revenue_curve(grid5, Xall, BETA, LAM), axis=1)]
claims.check("optimal-grid-price",
             statement=f"optimal_grid_price (two grid neighbours of p*) equals the brute-force argmax over the grid for all {Xall.shape[0]} buyers of the sparse-grid run",
             paper="the revenue-maximising grid price under S(p|x) = exp(-lam p exp(x^T beta))",
             criterion=is_true("identical"), measured=bool(np.array_equal(K.optimal_grid_price(Xall, BETA, LAM, grid5), brute)),
             kind="implementation")

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Partial: at full scale three of the four claims are reproduced and the fourth (the dense-grid rate
# $T^{2/3}$) is not; at ci scale the horizons are too short and the replicates too few, and seed 0, the one
# shown on this page, is one of the two least favourable of ten (verdict "not reproduced"; partial at eight).** No criterion has changed since the first run. The page shows
# seed 0 at ci scale ($T\le4000$, 5 replicates); the table "Across seeds and scales" gives ci seeds 0–9
# and full seeds 0–2 ($T\le20000$, 20 replicates).
#
# * *Sparse grid, BayesCoxCP-lite against the CoxCP-like baseline (claim 1).* At full scale the regret
#   ratio at $T=20000$ is 0.40–0.49 on the sparse grid (seeds 0–2) and 0.84–0.93 on the dense grid
#   (control), and at seed 0 it grows with the grid's density in between (0.48 at $\gamma=0.2$, 0.54 at
#   $\gamma=1/3$): the advantage is largest on sparse grids, as the paper says. At ci scale the sparse ratio
#   is below 0.7 at 7 of 10 seeds (0.44–0.79), and the claim counts as reproduced at 5; at seed 0 (0.66)
#   the dense control (0.64) passes too and it is uninformative.
# * *$\sqrt T$ on the sparse grid (claim 2).* At full scale the fitted exponent is 0.55–0.57, inside the
#   pre-registered $7/12$, against 0.71–0.74 for the baseline (partial). At ci scale it is 0.57–0.70 over
#   the ten seeds: partial at nine, reproduced at one; at five of them the baseline is partial too
#   (uninformative, seed 0 among them).
# * *The exponent adapts to the grid (claim 3).* At full scale BayesCoxCP-lite's exponent rises with the
#   grid's density: at seed 0, 0.55 ($K=5$), 0.65 ($\gamma=0.2$), 0.72 ($\gamma=1/3$), 0.79 ($\gamma=1/2$),
#   close to $(1+\gamma)/2$ plus about 0.05 (the logarithmic factors). The difference between the densest
#   and the sparse grid is 0.23–0.24 against 0.02–0.11 for the baseline, which passes the criterion at one
#   of the three seeds (uninformative there). At ci scale the difference is 0.10–0.21 at every seed and the
#   claim counts as reproduced at 7 of 10; the baseline's exponents are dominated by its single, noisy
#   commit decision (its regret spread over replicates is several times BayesCoxCP-lite's), and at three
#   seeds (seed 0 among them) its difference passes too.
# * *The dense-grid rate (claim 4): not reproduced at any seed or scale.* At $\gamma=1/2$ our stand-in's
#   exponent is 0.76–0.83 (ci) and 0.79–0.80 (full), on the line $(1+\gamma)/2=3/4$ of the sparse-grid
#   formula rather than at the paper's $2/3$. The random-walk prior helps (independent grid values:
#   0.86–0.91) but does not bring the exponent down to $2/3$. We read this as a limit of our design, not
#   evidence against the paper: its $T^{2/3}$ for $\gamma\ge1/3$ presumably comes from a mechanism (a
#   smoothness or monotonicity argument for the baseline, or a coarsened grid) that we did not have and
#   did not build. On the densest grid the CoxCP-like baseline, whose smoothed baseline suits our smooth
#   truth, is nearly as good as BayesCoxCP-lite at $T_{\max}$ (ratio 0.84–0.93 at full scale, with a wide
#   spread).
#
# **Why ci and full disagree.** Over $T\in[500,4000]$ both methods are still pre-asymptotic: the
# Thompson-sampling policy keeps paying for the two rarely optimal high prices, and the baseline's single
# estimate after $\lceil T^{2/3}\rceil$ uniform rounds is poor, so its regret is large and very variable
# (error bars in the log-log figure). With 5 replicates and a factor of 8 in $T$, the slopes are too noisy
# to separate $1/2$ from $2/3$ reliably. Over a factor of 32 with 20 replicates the ordering the paper
# predicts appears at every seed run.
#
# ## What the miniature cannot show
#
# * The paper's algorithm, prior and constants, and its experiments: we test a stand-in of our own
#   design against a CoxCP-like stand-in, on one synthetic truth.
# * High-probability bounds: we show mean regret over 5 (ci) or 20 (full) replicates and its spread,
#   not the tails of the regret distribution.
# * Asymptotic exponents: slopes fitted over $T\le4000$ (ci) or $20000$ (full) include the logarithmic
#   factors of the bounds and pre-asymptotic effects (the CoxCP-like baseline's single estimate after
#   $T^{2/3}$ rounds is still poor at these horizons); exponents only emerge at larger $T$.
# * The $\sqrt{dT}$ term and its dependence on $d$ (one $d=5$), non-exponential baselines, and buyers
#   whose covariates drift over time.
