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
from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, is_true, tolerance
from repro.papers import bayescoxcp_discrete_pricing as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    # about 15 s of CPU time on one thread, comparators and imports included (measured): horizons 500..4000, 5 replicates
    "ci": dict(Ts=(500, 1000, 2000, 4000), reps=5),
    # about 2-3 min of CPU on one thread (estimated from the largest runs): horizons 625..20000, 20 replicates
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
PER_PRICE_SCALE = 0.25                             # posterior scale of the per-price logistic baseline (tuned, see below)
EPS_C = 2.0                                        # epsilon-greedy's exploration constant, eps_t = min(1, c/sqrt t) (tuned, see below)
COXCP_C_TUNED = 2.0                                # CoxCP-like's exploration constant, c T^(2/3) rounds (tuned, see below)
COXCP_C_SCAN = (0.5, 1.0, 2.0, 3.0, 4.0)           # the constants it was tuned over, re-measured at this seed
T_MAX = max(P.Ts)
# the log-log slope over our horizons of the paper's rates with one logarithmic factor (the O~ of the bounds)
TS_ARR = np.array(P.Ts, dtype=float)
REF_SLOPE = {"sqrt": loglog_slope(P.Ts, np.sqrt(TS_ARR) * np.log(TS_ARR)),
             "two_thirds": loglog_slope(P.Ts, TS_ARR ** (2 / 3) * np.log(TS_ARR)),
             "log": loglog_slope(P.Ts, np.log(TS_ARR))}  # what one log factor adds to any exponent
glue("ref_slope_sqrt", float(REF_SLOPE["sqrt"]), display=False)
glue("ref_slope_two_thirds", float(REF_SLOPE["two_thirds"]), display=False)
glue("ref_slope_log", float(REF_SLOPE["log"]), display=False)

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
# designed from the abstract and the reproduction brief**; its tests compare regret *exponents* and regret
# ratios, the only kind of numbers the abstract speaks of.
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
# **The comparators** (every one sees the same buyers and the same sale uniforms as the method):
#
# * **CoxCP-like continuous-price method** (the "existing method"). It explores for $\lceil cT^{2/3}\rceil$
#   rounds with uniformly random grid prices, then commits to the greedy price under its estimate. Its
#   baseline is smooth in price and blind to where the grid points are: piecewise linear in $p$ with
#   $\lceil T^{1/3}\rceil$ equal bins on $[0.5, 2.5]$ (the bin count of continuous-price nonparametric
#   pricing), fitted by the same penalised likelihood (MAP with the same prior on the knots). It knows $T$;
#   BayesCoxCP-lite does not. The pre-registered test uses the textbook constant $c=1$. **Tuned
#   CoxCP-like** ($c=2$): after the review, the constant was tuned as the per-price baseline's scale was, on
#   its own runs: on the sparse grid at $T=4000$, $c=2$ had the lowest mean regret of $\{1/2,1,2,3,4\}$
#   over design seeds 0-9 (it was also the best on the densest grid); the notebook re-measures the whole
#   scan at its own seed (below).
# * **Proportional-odds Thompson sampling** (the ablation of the proportional-hazards structure):
#   BayesCoxCP-lite with one change, the sale probability at grid price $k$ is
#   $1/(1+e^{a_k+x^\top\beta})$ (logit link: a logistic valuation model) instead of
#   $\exp(-e^{a_k+x^\top\beta})$ (the Cox model's complementary log-log link). The same per-price values
#   and shared $\beta$, prior, Laplace refits and sampling (`K.thompson_pricing(..., link="logit")`).
# * **Epsilon-greedy on the Cox grid model** (the naive exploration baseline): BayesCoxCP-lite's model,
#   prior and refits, posting the best price under the MAP, except that with probability
#   $\varepsilon_t=\min(1,c/\sqrt t)$ it posts a uniformly random grid price (`K.epsilon_greedy_pricing`):
#   forced exploration spread over the whole horizon, no posterior sampling. We tuned $c$ on its own runs:
#   of $\{0.1,1/4,1/2,1,2\}$, $c=2$ had the lowest mean regret at $T=4000$ over design seeds 0-9, summed over
#   the sparse and the densest grid ($c=1$ was marginally better on the sparse grid alone).
# * **Grid-blind Thompson sampling** (the ablation of the grid-aware baseline): BayesCoxCP-lite's sampler,
#   prior and schedule on the CoxCP-like smooth baseline ($\lceil T^{1/3}\rceil$ bins, knots that ignore
#   the grid). One point matters for reading the results: the likelihood of current-status sales on a grid
#   depends on the baseline only through its values at the $K$ grid prices, so a smooth model with at least
#   $K$ free knots is the grid model under another Gaussian prior. On a sparse grid ($K<T^{1/3}$, which is
#   what $\gamma<1/3$ means) the grid-blind model therefore loses nothing; only on a dense grid does it have
#   fewer unknowns than the grid has prices.
# * **Greedy** (an ablation of the sampling, recorded among the baselines): BayesCoxCP-lite's model and
#   refits, but it posts the price that is best under the posterior *mean*: no exploration at all.
# * **Per-price logistic Thompson sampling** (the naive contextual bandit, none of the paper's ideas): the
#   textbook contextual bandit on a discrete grid, one Bayesian logistic regression of the sale on $(1,x)$
#   per price ($K(d+1)$ unknowns, no shared $\beta$, no hazard structure), prior $N(0,2^2I)$, Laplace
#   posteriors refitted on the same schedule, Thompson sampling with the posterior standard deviations
#   scaled by $1/4$. The scale was tuned to make this baseline as strong as we could: on the sparse grid
#   at $T=4000$ it had the lowest mean regret of $\{1, 0.7, 1/2, 0.35, 1/4\}$ on design seeds 0-3
#   (unscaled sampling costs it about a quarter more regret).
# * **BayesCoxCP-lite with independent grid values** (the ablation of the dense-grid test): the prior
#   without the random walk, $a_k\sim N(0,2^2)$ independently, so neighbouring prices share nothing.
# * Shown, not counted: a **non-contextual Beta-Bernoulli Thompson sampler** over the grid (it ignores the
#   covariates, so its regret grows linearly at the loss of the best fixed grid price: a cost it pays by
#   definition), **explore-then-commit** with the grid model and a $\lceil\sqrt T\rceil$-round exploration,
#   BayesCoxCP-lite with its **prior scales halved or doubled**, and the **null policy** (a uniformly random
#   grid price every round, regret linear in $T$).
#
# ## The experiment
#
# * **Data.** $d=5$, $x_t\sim N(0,I_d/d)$, $\beta=(1,-1,1,-1,1)/\sqrt5$, $\lambda=1$, so the continuous
#   optimum $p^*(x)=e^{-x^\top\beta}$ ranges over about $[0.4, 2.5]$. Grids of equally spaced prices on
#   $[0.5,2.5]$: **sparse** $K=5$ for every $T$ ($\gamma\to0$), and $K=\lceil T^\gamma\rceil$ for
#   $\gamma\in\{0.2, 1/3, 0.5\}$ (at $T=4000$: $K=6, 16, 64$).
# * **Runs.** Horizons $T\in\{500,1000,2000,4000\}$ with 5 replicates (ci), $T\in\{625,\dots,20000\}$ with
#   20 replicates (full). All policies see the same covariates and the same uniforms (a sale at price $p$
#   iff $U_t<S(p\mid x_t)$). On the sparse grid, where nothing depends on $T$, one run to $T_{\max}$ gives
#   every horizon of the policies that do not know $T$ (BayesCoxCP-lite, greedy, epsilon-greedy, the
#   proportional-odds sampler, the per-price and non-contextual baselines); the policies that know $T$
#   (CoxCP-like, tuned or not, grid-blind Thompson sampling, explore-then-commit) and every policy on the
#   denser grids run each horizon separately. To keep the ci run short, the comparators run on the sparse
#   and the densest grid (tuned CoxCP-like on the sparse grid only); the two middle grids run
#   BayesCoxCP-lite, the grid-blind sampler and CoxCP-like, for the figures.
# * **Measured.** Cumulative expected regret at horizon $T$ (mean and spread over replicates) and its
#   log-log slope in $T$ (`repro.stats.loglog_slope` on the mean over replicates).
#
# **Tests, with criteria fixed before the first run** (the brief's checks C1-C3 made sharper where the
# theory allows, plus the dense-grid rate). When the page moved to the current claim model, each test
# gained the comparators above, measured the same way; after the independent review it gained the
# proportional-odds sampler and epsilon-greedy (and test 2 the tuned CoxCP-like). The method, the settings
# and the criteria are unchanged, so these four stay pre-registered.
#
# 1. `beats-coxcp-sparse` (brief C1): at $K=5$ and $T=T_{\max}$, regret / regret(CoxCP-like, $c=1$) $\le0.7$.
#    Ablation: proportional-odds Thompson sampling (no proportional-hazards structure); baselines:
#    epsilon-greedy on the Cox grid model, greedy, per-price logistic Thompson sampling, grid-blind Thompson
#    sampling (on this grid the grid model under another prior; it was the ablation before the review).
#    (The page's first control, the same ratio on the dense grid, is the method in another setting, not a
#    comparator; it is shown in the table of exponents.)
# 2. `sparse-slope` (brief C2, sharpened): the log-log slope of regret at $K=5$ is at most $7/12$, the
#    midpoint between the sparse rate $1/2$ and the continuous rate $2/3$; "partial" up to the brief's
#    $0.75$. Ablation: grid-blind Thompson sampling; baselines: greedy, epsilon-greedy, proportional-odds
#    Thompson sampling, per-price logistic Thompson sampling, CoxCP-like and tuned CoxCP-like.
# 3. `adapts-to-sparsity` (brief C3, as exponents): slope at $\gamma=1/2$ minus slope at $K=5$ $\ge1/12$
#    (theory: $2/3-1/2=1/6$). It is test 4's measurement minus test 2's, not a third measurement. Ablation:
#    grid-blind Thompson sampling, whose number of unknowns does not grow with the grid; baselines: greedy,
#    epsilon-greedy, proportional-odds Thompson sampling, per-price logistic Thompson sampling, CoxCP-like
#    (its exploration does not depend on the grid: theory $0$; it was the page's first control).
# 4. `dense-slope` ($\gamma\ge1/3$: $T^{2/3}$): the slope at $\gamma=1/2$ is at most $0.71$ (between $2/3$ and
#    the $(1+\gamma)/2=3/4$ of the sparse-grid formula); "partial" up to $0.75$. Ablation: independent grid
#    values (the page's first control); baselines: greedy, epsilon-greedy, proportional-odds Thompson
#    sampling, per-price logistic Thompson sampling, CoxCP-like, grid-blind Thompson sampling.
#
# **What the slope bars can and cannot tell.** The paper's rates hold up to logarithmic factors. Over our
# horizons a curve $\sqrt T\log T$ has a log-log slope of {glue:text}`ref_slope_sqrt:.2f` and $T^{2/3}\log T$ one
# of {glue:text}`ref_slope_two_thirds:.2f` (drawn in the figure of exponents): both lie *above* the bars $7/12$
# and $0.71$, which were set on the bare exponents. A stand-in whose regret grows exactly at the paper's
# rates, with one log factor, would fail tests 2 and 4 at these horizons. The bars of tests 2 and 4 therefore
# cannot tell whether our stand-in attains the paper's rates, and their failure is not evidence against the
# paper; we read the fitted slopes against the log-adjusted references instead (shown, not counted). Test 3
# compares two slopes, so a common log factor cancels in it.
#
# **Post-hoc test, added after the review** (its criterion is test 1's, fixed by the brief; it moves the
# badge only once confirmed on seeds 10-19, and the confirmation sweep judged it not reproduced, so it does not):
#
# 5. `beats-tuned-coxcp-sparse`: test 1's ratio with the tuned CoxCP-like ($c=2$) as the denominator, same
#    bar $0.7$ and tolerance. Ablation: proportional-odds Thompson sampling; baselines: epsilon-greedy,
#    greedy, per-price logistic Thompson sampling, grid-blind Thompson sampling (all divided by the tuned
#    CoxCP-like's regret).
#
# **Deviations from the paper**
#
# * The algorithm is ours, designed from the abstract and the brief: Gaussian priors, a Laplace
#   approximation refitted on a geometric schedule and Thompson sampling, where the paper's prior,
#   sampler and schedule were not available. In particular the random-walk prior that links neighbouring
#   grid prices was chosen after a first prototype (before this notebook ran) with independent grid values
#   had a dense-grid slope near $0.9$; that version is kept as the ablation of test 4.
# * The existing method is a CoxCP-*like* explore-then-commit with a smoothed baseline, not CoxCP itself
#   (Choi et al. 2023 use epochs, a partial-likelihood estimate of $\beta$ and a nonparametric baseline
#   estimate); its exploration length $\lceil T^{2/3}\rceil$ (constant 1) and bin count
#   $\lceil T^{1/3}\rceil$ are the textbook continuous-price choices in the pre-registered test; the
#   post-hoc test uses the constant $2$, tuned on design seeds (the bin count is not tuned).
# * The comparators are ours: the grid-blind sampler, greedy, epsilon-greedy (constant tuned on design
#   seeds), the proportional-odds sampler, the per-price logistic bandit (posterior scale tuned on design
#   seeds, see above), the non-contextual sampler and explore-then-commit.
# * One synthetic truth (exponential baseline, $d=5$, fixed $\beta$); the baseline is known to be smooth in
#   our data, which favours every smoothed baseline (CoxCP-like, grid-blind) on dense grids.
# * Horizons up to $4000$ (ci) and $20000$ (full) with 5 and 20 replicates; exponents are fitted over a
#   factor of 8 (ci) or 32 (full) in $T$, so the logarithmic factors of the bounds bias them upwards.
# * The brief's grid $K=\lceil T^{0.2}\rceil$ is run, and $\gamma=1/3$ added (the paper's threshold); the
#   brief's $d$-dependence study is not run. No official code was found, so there is no official
#   configuration to compare with.

# %%
def prefix(env, T):
    """The first T rounds of an environment (common random numbers across horizons)."""
    return K.PricingEnv(env.grid, env.beta, env.lam, env.X[:, :T], env.U[:, :T])


def knots_for(T):
    """The CoxCP-like smooth baseline's knots: ceil(T^(1/3)) equal bins on the price range."""
    return np.linspace(P_LO, P_HI, int(np.ceil(T ** (1 / 3) - 1e-9)) + 1)


def run_bayes(env, rw=True, seed_tag=0, sample=True, prior=PRIOR):
    grid = env.grid
    pri = K.random_walk_prior(grid, D, **(prior if rw else prior | dict(rw_sd=None)))
    return K.thompson_pricing(env, np.eye(grid.size), pri, [seed, 1, seed_tag, grid.size, env.shape[1]],
                              sample=sample)


def run_blind(env):
    T = env.shape[1]
    knots = knots_for(T)
    return K.thompson_pricing(env, K.hat_basis(env.grid, knots), K.random_walk_prior(knots, D, **PRIOR),
                              [seed, 6, env.grid.size, T])


def run_coxcp(env, c=1.0):
    T = env.shape[1]
    knots = knots_for(T)
    prior = K.random_walk_prior(knots, D, **PRIOR)
    basis = K.hat_basis(env.grid, knots)
    return K.explore_then_commit(env, basis, prior, int(np.ceil(c * T ** (2 / 3) - 1e-9)), [seed, 2, env.grid.size, T])


def run_logit(env):
    """The proportional-odds ablation: BayesCoxCP-lite's sampler with the logit instead of the cloglog link."""
    pri = K.random_walk_prior(env.grid, D, **PRIOR)
    return K.thompson_pricing(env, np.eye(env.grid.size), pri, [seed, 1, 11, env.grid.size, env.shape[1]], link="logit")


def run_eps(env):
    pri = K.random_walk_prior(env.grid, D, **PRIOR)
    return K.epsilon_greedy_pricing(env, np.eye(env.grid.size), pri, [seed, 8, env.grid.size, env.shape[1]], c=EPS_C)


def run_etc_sqrt(env):
    T = env.shape[1]
    prior = K.random_walk_prior(env.grid, D, **PRIOR)
    return K.explore_then_commit(env, np.eye(env.grid.size), prior, int(np.ceil(np.sqrt(T) - 1e-9)),
                                 [seed, 7, env.grid.size, T])


def run_per_price(env):
    return K.per_price_thompson(env, [seed, 4, env.grid.size, env.shape[1]], scale=PER_PRICE_SCALE)


def run_beta_bernoulli(env):
    return K.beta_bernoulli_pricing(env, [seed, 5, env.grid.size, env.shape[1]])


def run_uniform(env):
    return K.uniform_pricing(env, [seed, 3, env.grid.size, env.shape[1]])


def cum_regret(k_idx, env):
    return K.expected_regret(k_idx, env).cumsum(axis=1)


SETTINGS = ("K=5",) + tuple(f"gamma={g:.3g}" for g in GAMMAS)
DENSE = SETTINGS[-1]
reg = {}     # (setting, policy) -> (reps, len(Ts)) cumulative regret at each horizon
curves = {}  # (setting, policy) -> (reps, T_MAX) cumulative regret of the T_MAX run
Ks = {}      # setting -> grid sizes per horizon
ti = np.array(P.Ts) - 1

# sparse grid: the policies that do not know T run once to T_MAX
grid5 = K.price_grid(K_SPARSE, P_LO, P_HI)
env5 = K.make_env(T_MAX, grid5, BETA, LAM, P.reps, [seed, 0, K_SPARSE])
Ks["K=5"] = [K_SPARSE] * len(P.Ts)
ANYTIME = {
    "BayesCoxCP-lite": run_bayes,
    "greedy": lambda e: run_bayes(e, sample=False),
    "per-price logistic TS": run_per_price,
    "epsilon-greedy": run_eps,
    "proportional-odds TS": run_logit,
    "BayesCoxCP-lite, other draws": lambda e: run_bayes(e, seed_tag=1),  # same buyers, fresh sampling randomness
    "non-contextual TS": run_beta_bernoulli,
    "independent values": lambda e: run_bayes(e, rw=False),
    "prior scales x1/2": lambda e: run_bayes(e, prior=dict(sd_first=1.0, rw_sd=0.5, sd_beta=1.0, a0=0.0)),
    "prior scales x2": lambda e: run_bayes(e, prior=dict(sd_first=4.0, rw_sd=2.0, sd_beta=4.0, a0=0.0)),
    "uniform": run_uniform,
}
for name, fn in progress(list(ANYTIME.items()), desc="K=5, one run to T_max"):
    c = cum_regret(fn(env5), env5)
    curves["K=5", name], reg["K=5", name] = c, c[:, ti]
for name, fn in (("CoxCP-like", run_coxcp), ("tuned CoxCP-like", lambda e: run_coxcp(e, COXCP_C_TUNED)),
                 ("grid-blind TS", run_blind), ("explore-then-commit sqrt(T)", run_etc_sqrt)):
    out = []
    for T in P.Ts:
        e = prefix(env5, T)
        c = cum_regret(fn(e), e)
        out.append(c[:, -1])
        if T == T_MAX:
            curves["K=5", name] = c
    reg["K=5", name] = np.stack(out, axis=1)

# denser grids K = ceil(T^gamma): one environment per horizon
PER_HORIZON = {"BayesCoxCP-lite": run_bayes, "grid-blind TS": run_blind, "CoxCP-like": run_coxcp, "uniform": run_uniform}
DENSE_ONLY = {"independent values": lambda e: run_bayes(e, rw=False), "greedy": lambda e: run_bayes(e, sample=False),
              "per-price logistic TS": run_per_price, "epsilon-greedy": run_eps, "proportional-odds TS": run_logit}
for g, setting in zip(GAMMAS, SETTINGS[1:]):
    Ks[setting] = [K.grid_size(T, g) for T in P.Ts]
    policies = PER_HORIZON | (DENSE_ONLY if setting == DENSE else {})
    out = {m: [] for m in policies}
    for T, Kk in progress(list(zip(P.Ts, Ks[setting])), desc=setting):
        env = K.make_env(T, K.price_grid(Kk, P_LO, P_HI), BETA, LAM, P.reps, [seed, 0, Kk, T])
        for m, fn in policies.items():
            c = cum_regret(fn(env), env)
            out[m].append(c[:, -1])
            if T == T_MAX:
                curves[setting, m] = c
    for m, v in out.items():
        reg[setting, m] = np.stack(v, axis=1)
slope = {key: loglog_slope(P.Ts, v.mean(axis=0)) for key, v in reg.items()}
final = {key: float(v.mean(axis=0)[-1]) for key, v in reg.items()}  # mean regret at T_MAX
# the loss per round of the best fixed grid price against the contextual optimum (what a non-contextual policy pays)
rev5 = K.revenue_curve(grid5, env5.X, BETA, LAM)
fixed_loss = float((rev5.max(axis=-1) - rev5[..., rev5.mean(axis=(0, 1)).argmax()]).mean())
# the CoxCP-like exploration constants it was tuned over (on design seeds 0-9), re-measured at this seed, T_MAX
env5_T = prefix(env5, T_MAX)
coxcp_scan = {c: float(cum_regret(run_coxcp(env5_T, c), env5_T)[:, -1].mean()) for c in COXCP_C_SCAN}
print(f"scale={P.scale}: T in {P.Ts}, {P.reps} replicates; grid sizes:",
      "; ".join(f"{s}: {Ks[s]}" for s in SETTINGS))
for s in SETTINGS:
    print(f"{s:12s} regret at T_max / slope: " + "; ".join(
        f"{m} {final[s, m]:.1f} / {slope[s, m]:.3f}" for (s2, m) in reg if s2 == s))

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
# deviation for BayesCoxCP-lite and CoxCP-like. The CoxCP-like method pays a linear cost while it explores
# (its first $T_{\max}^{2/3}$ rounds), then a flat or linear one depending on how good its one estimate is.
# On the sparse grid the best fixed price loses {glue:text}`fixed_loss:.3f` per round against the contextual
# optimum, which is the slope the non-contextual sampler tends to.

# %%
STYLES = {"BayesCoxCP-lite": ("C0", "-"), "grid-blind TS": ("C2", "-"), "greedy": ("C1", "--"),
          "per-price logistic TS": ("C4", "-."), "CoxCP-like": ("C3", "-"), "tuned CoxCP-like": ("C3", "--"),
          "epsilon-greedy": ("C6", "-"), "proportional-odds TS": ("C8", "-."), "independent values": ("C0", ":"),
          "non-contextual TS": ("C5", ":"), "uniform": ("0.5", ":")}
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), sharey=False)
t = np.arange(1, T_MAX + 1)
for ax, setting in zip(axes, ("K=5", DENSE)):
    for m, (col, ls) in STYLES.items():
        if (setting, m) not in curves:
            continue
        c = curves[setting, m]
        ax.plot(t, c.mean(0), color=col, ls=ls, label=m)
        if m in ("BayesCoxCP-lite", "CoxCP-like"):
            ax.fill_between(t, c.mean(0) - c.std(0), c.mean(0) + c.std(0), color=col, alpha=0.15)
    ax.set(xlabel="round t (buyers)", ylabel="cumulative expected regret (revenue units)",
           title=f"{setting}: K = {Ks[setting][-1]} prices, T = {T_MAX}, {P.reps} replicates",
           ylim=(0, 1.6 * max(curves[setting, "CoxCP-like"].mean(0)[-1], curves[setting, "BayesCoxCP-lite"].mean(0)[-1])))
    ax.legend(fontsize=7)
plt.show()

# %% [markdown]
# At $T_{\max}$ on the sparse grid BayesCoxCP-lite's regret is {glue:text}`reg5_method:.1f` against
# {glue:text}`reg5_coxcp:.1f` for CoxCP-like (ratio {glue:text}`ratio_method:.2f`) and
# {glue:text}`reg5_coxcp_tuned:.1f` for the tuned CoxCP-like (ratio {glue:text}`ratioT_method:.2f`);
# epsilon-greedy on the same Cox model reaches {glue:text}`reg5_eps:.1f`, the proportional-odds sampler
# {glue:text}`reg5_logit:.1f`, grid-blind Thompson sampling {glue:text}`reg5_blind:.1f`, greedy
# {glue:text}`reg5_greedy:.1f`, per-price logistic Thompson sampling {glue:text}`reg5_per_price:.1f` and the
# non-contextual sampler {glue:text}`reg5_noncontextual:.1f`. On the densest grid the values are
# {glue:text}`regD_method:.1f` (BayesCoxCP-lite), {glue:text}`regD_coxcp:.1f` (CoxCP-like),
# {glue:text}`regD_eps:.1f` (epsilon-greedy), {glue:text}`regD_logit:.1f` (proportional-odds),
# {glue:text}`regD_blind:.1f` (grid-blind), {glue:text}`regD_greedy:.1f` (greedy),
# {glue:text}`regD_per_price:.1f` (per-price) and {glue:text}`regD_indep:.1f` (independent grid values).
#
# ### Regret against the horizon (log-log)
#
# Regret at horizon $T$ for every grid rule (error bars: $\pm1$ standard deviation over replicates; the
# legend gives the fitted slope). Grey guides: slopes $1/2$ and $2/3$ through the first point of
# BayesCoxCP-lite.

# %%
fig, axes = plt.subplots(1, len(SETTINGS), figsize=(4 * len(SETTINGS), 4.2), sharey=True)
Ts = np.array(P.Ts)
for ax, setting in zip(axes, SETTINGS):
    for m, (col, ls) in STYLES.items():
        if (setting, m) not in reg or m == "non-contextual TS":
            continue
        v = reg[setting, m]
        ax.errorbar(Ts, v.mean(0), yerr=v.std(0) if m in ("BayesCoxCP-lite", "CoxCP-like") else None, color=col,
                    ls=ls, marker="o", ms=3, capsize=2, label=f"{m}: slope {slope[setting, m]:.2f}")
    y0 = reg[setting, "BayesCoxCP-lite"].mean(0)[0]
    for a, lsg in ((0.5, "-."), (2 / 3, "--")):
        ax.plot(Ts, y0 * (Ts / Ts[0]) ** a, color="0.6", ls=lsg, lw=1)
    ax.set(xscale="log", yscale="log", xlabel="horizon T (buyers)", title=f"{setting} (K = {Ks[setting][0]}..{Ks[setting][-1]})")
    ax.set_xticks(Ts, [f"{T:g}" for T in Ts], rotation=45)
    ax.minorticks_off()
    ax.legend(fontsize=6, loc="upper left")
axes[0].set_ylabel("regret at horizon T (revenue units)")
plt.show()

# %% [markdown]
# ### Fitted exponent against the grid's sparsity
#
# The paper's bound for BayesCoxCP, $\min\{(1+\gamma)/2,\,2/3\}$ (the sparse grid is drawn at
# $\gamma=0$), and CoxCP's $2/3$, beside the slopes we fit. The bounds hold up to logarithmic factors,
# which raise a slope fitted over a short range of $T$: the dash-dotted curve is the bound with one log
# factor, the log-log slope that $T^e\log T$ has over our horizons ($e$ plus
# {glue:text}`ref_slope_log:.2f`). The short grey ticks mark the bars of `sparse-slope` (left, $7/12$)
# and `dense-slope` (right, $0.71$).

# %%
gam = np.array([0.0, *GAMMAS])
fig, ax = plt.subplots(figsize=(6.4, 3.8))
gg = np.linspace(0, 0.6, 100)
ax.plot(gg, np.minimum((1 + gg) / 2, 2 / 3), color="C0", ls="--", lw=1, label="BayesCoxCP bound (paper)")
ax.plot(gg, np.minimum((1 + gg) / 2, 2 / 3) + REF_SLOPE["log"], color="C0", ls="-.", lw=1,
        label="the same with one log factor, over these T")
ax.axhline(2 / 3, color="C3", ls=":", lw=1, label="CoxCP bound $2/3$")
ax.axhline(7 / 12, color="0.4", lw=0.6, xmax=0.1)
ax.axhline(0.71, color="0.4", lw=0.6, xmin=0.75)
for m in ("BayesCoxCP-lite", "grid-blind TS", "CoxCP-like"):
    ax.plot(gam, [slope[s, m] for s in SETTINGS], "o-", color=STYLES[m][0], label=f"{m}, fitted")
for m, mk in (("greedy", "^"), ("per-price logistic TS", "D"), ("independent values", "s"), ("epsilon-greedy", "v"),
              ("proportional-odds TS", "P")):
    ax.plot([0.0, 0.5] if ("K=5", m) in slope else [0.5], [slope[s, m] for s in ("K=5", DENSE) if (s, m) in slope],
            mk, mfc="none", color=STYLES[m][0], label=f"{m}, fitted")
ax.set(xlabel=r"grid sparsity $\gamma$ ($K=\lceil T^\gamma\rceil$; sparse $K=5$ at $\gamma=0$)",
       ylabel="log-log slope of regret in T", title=f"Regret exponents, T = {P.Ts[0]}..{T_MAX}")
ax.legend(fontsize=7, loc="lower right")
plt.show()

# %% [markdown]
# BayesCoxCP-lite's exponent rises from {glue:text}`slope5_method:.2f` on the sparse grid to
# {glue:text}`slopeG02_method:.2f`, {glue:text}`slopeG033_method:.2f` and {glue:text}`slopeD_method:.2f` as
# the grid gets denser; the grid-blind sampler's goes from {glue:text}`slope5_blind:.2f` to
# {glue:text}`slopeD_blind:.2f`, and the per-price logistic bandit's from {glue:text}`slope5_per_price:.2f`
# to {glue:text}`slopeD_per_price:.2f`. With one log factor the paper's rates would give
# {glue:text}`ref_slope_sqrt:.2f` (sparse) and {glue:text}`ref_slope_two_thirds:.2f` (dense) over these
# horizons. Epsilon-greedy, with the same model and no posterior sampling, fits
# {glue:text}`slope5_eps:.2f` and {glue:text}`slopeD_eps:.2f`; the proportional-odds sampler
# {glue:text}`slope5_logit:.2f` and {glue:text}`slopeD_logit:.2f`.
#
# ### The paper's numbers beside ours
#
# The abstract reports rates, not numbers; the table sets the exponent of each bound, and the slope the
# bound with one log factor has over our horizons, beside the slope we fit (this run; the full-scale values
# are in the judged table's full-scale column) and the regret ratio at $T_{\max}$ against CoxCP-like.

# %%
rows = ["| setting | $K$ at $T_{\\max}$ | BayesCoxCP bound (paper) | the bound with one log factor, over these $T$ | BayesCoxCP-lite slope | grid-blind TS slope | CoxCP bound | CoxCP-like slope | regret ratio at $T_{\\max}$ (lite / CoxCP-like) | (grid-blind / CoxCP-like) |",
        "|---|---|---|---|---|---|---|---|---|---|"]
for s, g in zip(SETTINGS, gam):
    e = 0.5 if g == 0 else min((1 + g) / 2, 2 / 3)
    bound = "1/2 (fixed $K$)" if g == 0 else f"{e:.3f}"
    rows.append(f"| {s} | {Ks[s][-1]} | {bound} | {e + REF_SLOPE['log']:.2f} | {slope[s, 'BayesCoxCP-lite']:.2f} | {slope[s, 'grid-blind TS']:.2f} | 2/3 "
                f"| {slope[s, 'CoxCP-like']:.2f} | {final[s, 'BayesCoxCP-lite'] / final[s, 'CoxCP-like']:.2f} "
                f"| {final[s, 'grid-blind TS'] / final[s, 'CoxCP-like']:.2f} |")
display(Markdown("\n".join(rows)))

# %%
REG = tolerance(rel=0.15, why="Thompson-sampling paths: a last-digit change in a Laplace fit can flip one posted price and "
                              "change a replicate's path; the band is fixed at 15 % whatever the number of replicates "
                              "(5 at ci, 20 at full), not scaled to the replicates' spread")
SLOPE = tolerance(abs=0.05, why="slope of simulated regret: a changed Thompson-sampling path moves it")


def ratio_to_coxcp(setting, m, denominator="CoxCP-like"):
    """Mean regret at T_MAX of policy m over that of CoxCP-like (or of another denominator), in the same replicates."""
    return final[setting, m] / final[setting, denominator]


def slope_rise(m):
    """Slope on the densest grid minus slope on the sparse grid, for policy m."""
    return slope[DENSE, m] - slope["K=5", m]


SPARSE_RATIO = ("BayesCoxCP-lite", "grid-blind TS", "greedy", "per-price logistic TS", "epsilon-greedy", "proportional-odds TS",
                "non-contextual TS", "explore-then-commit sqrt(T)", "independent values", "prior scales x1/2",
                "prior scales x2", "tuned CoxCP-like", "BayesCoxCP-lite, other draws")
ratio = {m: ratio_to_coxcp("K=5", m) for m in SPARSE_RATIO}
ratio_tuned = {m: ratio_to_coxcp("K=5", m, "tuned CoxCP-like") for m in SPARSE_RATIO if m != "tuned CoxCP-like"}
rise = {m: slope_rise(m) for m in ("BayesCoxCP-lite", "grid-blind TS", "greedy", "per-price logistic TS", "CoxCP-like",
                                   "epsilon-greedy", "proportional-odds TS")}

BLIND = "grid-blind Thompson sampling: the same sampler on the CoxCP-like smooth baseline (ceil(T^1/3) bins)"
GRID_MODEL = "one baseline value per grid price (the grid-aware model)"
GREEDY = "greedy: BayesCoxCP-lite's model and refits, posting the best price under the posterior mean (no sampling)"
PER_PRICE = "per-price logistic Thompson sampling: one logistic regression of the sale on (1, x) per grid price, no Cox structure"
COXCP = "CoxCP-like: ceil(T^2/3) uniform rounds, then greedy on a smooth baseline with ceil(T^1/3) bins"
COXCP_TUNED = f"tuned CoxCP-like: ceil({COXCP_C_TUNED:g} T^2/3) uniform rounds (constant tuned on design seeds), then greedy"
INDEP = "BayesCoxCP-lite with independent grid values (no random walk linking neighbouring prices)"
EPS = (f"epsilon-greedy on the Cox grid model: MAP price, a uniform grid price with probability min(1, {EPS_C:g}/sqrt t) "
       "(constant tuned on design seeds)")
LOGIT = "proportional-odds Thompson sampling: BayesCoxCP-lite with the logit link instead of the Cox model's cloglog"
PH = "the proportional-hazards (Cox) form of the sale probability, exp(-exp(a_k + x^T beta))"

claims.headline(
    "discreteness-helps",
    "Using the discreteness of the price grid inside a semi-parametric (Cox proportional-hazards) pricing model "
    "improves performance, the more so the fewer the prices relative to the horizon",
    untestable="not separable in this miniature: on a sparse grid a continuous-price model with at least K knots is the "
               "grid model under another prior (grid-blind Thompson sampling is the same model at K = 5), and on dense "
               "grids our smooth true baseline favours every smooth model; the grid-blind comparisons are shown beside "
               "tests 1-4")
claims.headline(
    "regret-rates",
    "BayesCoxCP's high-probability regret is O~(T^((1+gamma)/2) + sqrt(dT)) for a grid of about T^gamma prices with "
    "gamma < 1/3, and O~(T^(2/3) + sqrt(dT)) for gamma >= 1/3 (we measure exponents of mean regret, not "
    "high-probability bounds, and do not vary d; adapts-to-sparsity is dense-slope's measurement minus sparse-slope's)",
    tests=["sparse-slope", "dense-slope", "adapts-to-sparsity"])
claims.headline(
    "beats-existing-method",
    "In simulations BayesCoxCP clearly outperforms an existing method (CoxCP), especially with sparse price grids "
    "(our stand-ins of both; against CoxCP-like with its textbook and its tuned exploration constant)",
    tests=["beats-coxcp-sparse", "beats-tuned-coxcp-sparse"])

SPARSE_BASELINES = lambda r: [Comparator(EPS, r["epsilon-greedy"]), Comparator(GREEDY, r["greedy"]),  # noqa: E731
                              Comparator(PER_PRICE, r["per-price logistic TS"]), Comparator(BLIND, r["grid-blind TS"])]
claims.test(
    "beats-coxcp-sparse",
    statement=f"Sparse grid K=5, T={T_MAX}: mean regret over {P.reps} replicates divided by the CoxCP-like "
              "continuous-price method's in the same replicates",
    paper="BayesCoxCP significantly outperforms an existing method, particularly with sparse discrete price points (no number found)",
    criterion=at_most(0.7), measured=ratio["BayesCoxCP-lite"],
    ablation=Comparator(LOGIT, ratio["proportional-odds TS"], ingredient=PH),
    baselines=SPARSE_BASELINES(ratio),
    tol=REG)
claims.test(
    "beats-tuned-coxcp-sparse",
    statement=f"Sparse grid K=5, T={T_MAX}: mean regret over {P.reps} replicates divided by that of CoxCP-like with its "
              f"exploration constant tuned on design seeds ({COXCP_C_TUNED:g} T^2/3 rounds), in the same replicates",
    paper="BayesCoxCP significantly outperforms an existing method, particularly with sparse discrete price points (no number found)",
    criterion=at_most(0.7), measured=ratio_tuned["BayesCoxCP-lite"],
    ablation=Comparator(LOGIT, ratio_tuned["proportional-odds TS"], ingredient=PH),
    baselines=SPARSE_BASELINES(ratio_tuned),
    tol=REG,
    post_hoc="the review found that test 1's margin comes from an untuned denominator: CoxCP-like's exploration "
             "constant, tuned on design seeds as the per-price baseline's scale was, is the fair existing method")
claims.test(
    "sparse-slope",
    statement=f"Sparse grid K=5: log-log slope of mean regret in T, T in {list(P.Ts)}",
    paper="O~(T^((1+gamma)/2) + sqrt(dT)) for gamma < 1/3: about T^(1/2) for a fixed grid",
    criterion=at_most(7 / 12, partial=0.75), measured=slope["K=5", "BayesCoxCP-lite"],
    ablation=Comparator(BLIND, slope["K=5", "grid-blind TS"], ingredient=GRID_MODEL),
    baselines=[Comparator(GREEDY, slope["K=5", "greedy"]), Comparator(PER_PRICE, slope["K=5", "per-price logistic TS"]),
               Comparator(COXCP, slope["K=5", "CoxCP-like"]), Comparator(EPS, slope["K=5", "epsilon-greedy"]),
               Comparator(LOGIT, slope["K=5", "proportional-odds TS"]),
               Comparator(COXCP_TUNED, slope["K=5", "tuned CoxCP-like"])],
    tol=SLOPE)
claims.test(
    "adapts-to-sparsity",
    statement="Slope of regret in T on the grid K = ceil(T^1/2) minus the slope on the sparse grid K = 5",
    paper="the bound's exponent grows with the grid's sparsity gamma: 1/2 (fixed K) to 2/3 (gamma >= 1/3), a difference of 1/6",
    criterion=at_least(1 / 12), measured=rise["BayesCoxCP-lite"],
    ablation=Comparator(BLIND, rise["grid-blind TS"], ingredient=GRID_MODEL + ", whose size grows with the grid"),
    baselines=[Comparator(GREEDY, rise["greedy"]), Comparator(PER_PRICE, rise["per-price logistic TS"]),
               Comparator(COXCP, rise["CoxCP-like"]), Comparator(EPS, rise["epsilon-greedy"]),
               Comparator(LOGIT, rise["proportional-odds TS"])],
    tol=SLOPE)
claims.test(
    "dense-slope",
    statement=f"Grid K = ceil(T^1/2) (gamma = 1/2): log-log slope of mean regret in T, T in {list(P.Ts)}",
    paper="O~(T^(2/3) + sqrt(dT)) for gamma >= 1/3",
    criterion=at_most(0.71, partial=0.75), measured=slope[DENSE, "BayesCoxCP-lite"],
    ablation=Comparator(INDEP, slope[DENSE, "independent values"],
                        ingredient="information shared between neighbouring grid prices (the random-walk prior)"),
    baselines=[Comparator(GREEDY, slope[DENSE, "greedy"]), Comparator(PER_PRICE, slope[DENSE, "per-price logistic TS"]),
               Comparator(COXCP, slope[DENSE, "CoxCP-like"]), Comparator(BLIND, slope[DENSE, "grid-blind TS"]),
               Comparator(EPS, slope[DENSE, "epsilon-greedy"]), Comparator(LOGIT, slope[DENSE, "proportional-odds TS"])],
    tol=SLOPE)
# the kernel, checked on this run's buyers against a brute-force argmax over the grid (not counted)
Xall = env5.X.reshape(-1, D)
brute = grid5[np.argmax(K.revenue_curve(grid5, Xall, BETA, LAM), axis=1)]
claims.check("optimal-grid-price",
             statement=f"optimal_grid_price (two grid neighbours of p*) equals the brute-force argmax over the grid for all {Xall.shape[0]} buyers of the sparse-grid run",
             paper="the revenue-maximising grid price under S(p|x) = exp(-lam p exp(x^T beta))",
             criterion=is_true("identical"), measured=bool(np.array_equal(K.optimal_grid_price(Xall, BETA, LAM, grid5), brute)),
             kind="implementation")

# %%
KEYS = {"method": "BayesCoxCP-lite", "blind": "grid-blind TS", "greedy": "greedy", "per_price": "per-price logistic TS",
        "coxcp": "CoxCP-like", "indep": "independent values", "noncontextual": "non-contextual TS",
        "etc": "explore-then-commit sqrt(T)", "uniform": "uniform", "prior_half": "prior scales x1/2",
        "prior_double": "prior scales x2", "eps": "epsilon-greedy", "logit": "proportional-odds TS",
        "coxcp_tuned": "tuned CoxCP-like", "redraw": "BayesCoxCP-lite, other draws"}
for key, m in KEYS.items():
    if ("K=5", m) in reg:
        glue(f"reg5_{key}", final["K=5", m], display=False)
        glue(f"slope5_{key}", float(slope["K=5", m]), display=False)
    if (DENSE, m) in reg:
        glue(f"regD_{key}", final[DENSE, m], display=False)
        glue(f"slopeD_{key}", float(slope[DENSE, m]), display=False)
    if m in ratio:
        glue(f"ratio_{key}", float(ratio[m]), display=False)
    if m in rise:
        glue(f"rise_{key}", float(rise[m]), display=False)
    if m in ratio_tuned:
        glue(f"ratioT_{key}", float(ratio_tuned[m]), display=False)
for i, c in enumerate(COXCP_C_SCAN):
    glue(f"coxcp_scan_{i}", coxcp_scan[c], display=False)
    glue(f"coxcp_scan_ratio_{i}", final["K=5", "BayesCoxCP-lite"] / coxcp_scan[c], display=False)
glue("coxcp_scan_best_c", float(min(coxcp_scan, key=coxcp_scan.get)), display=False)
glue("ratio_eps_to_method", final["K=5", "epsilon-greedy"] / final["K=5", "BayesCoxCP-lite"], display=False)
glue("ratioD_eps_to_method", final[DENSE, "epsilon-greedy"] / final[DENSE, "BayesCoxCP-lite"], display=False)
for s, key in zip(SETTINGS[1:3], ("G02", "G033")):
    for k2, m in (("method", "BayesCoxCP-lite"), ("blind", "grid-blind TS"), ("coxcp", "CoxCP-like")):
        glue(f"slope{key}_{k2}", float(slope[s, m]), display=False)
        glue(f"ratio{key}_{k2}", float(ratio_to_coxcp(s, m)), display=False)
glue("ratioD_method", float(ratio_to_coxcp(DENSE, "BayesCoxCP-lite")), display=False)
glue("ratioD_blind", float(ratio_to_coxcp(DENSE, "grid-blind TS")), display=False)
glue("fixed_loss", fixed_loss, display=False)
glue("fixed_loss_T", fixed_loss * T_MAX, display=False)
glue("T_max", int(T_MAX), display=False)
glue("K_dense", int(Ks[DENSE][-1]), display=False)
glue("blind_knots", int(knots_for(T_MAX).size), display=False)

# %% [markdown]
# ## Claims
#
# Five tests, each measured beside its ablation and the baselines named above, under the same measurement and
# criterion: four pre-registered, which the badge counts, and `beats-tuned-coxcp-sparse`, post hoc (added after
# the review), which it does not count because it did not hold on the confirmation seeds 10-19; and one
# implementation check (`optimal_grid_price` against a brute-force argmax on this run's
# buyers), shown and not counted. The paper's headline claims map to them as follows:
#
# * *the discreteness of the grid helps*: untestable in this miniature. On a sparse grid a continuous-price
#   model with at least $K$ knots *is* the grid model under another prior (grid-blind Thompson sampling is
#   BayesCoxCP-lite at $K=5$), so no sparse-grid measurement can separate them; on dense grids our smooth
#   true baseline favours every smooth model. The grid-blind comparisons are shown beside tests 1-4.
# * *the regret rates*: `sparse-slope`, `dense-slope` and `adapts-to-sparsity` (exponents of mean regret,
#   not high-probability bounds). They share measurements: `adapts-to-sparsity` is `dense-slope`'s value
#   minus `sparse-slope`'s.
# * *the simulation win over the existing method*: `beats-coxcp-sparse` (CoxCP-like with its textbook
#   constant, pre-registered) and `beats-tuned-coxcp-sparse` (with its tuned constant, post hoc); both
#   use the method's same regret, divided by two different denominators.

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# Numbers below are from this run (ci, seed 0: $T\le4000$, 5 replicates); each status is the ci sweep's
# over seeds 0-9, and the judged table shows every comparator at every seed and the full-scale sweep in its
# full-scale column. We test BayesCoxCP-lite, a stand-in of our own design, not the paper's algorithm.
#
# * *Beating the continuous-price method on the sparse grid*, {repro-status}`beats-coxcp-sparse`
#   (pre-registered, against CoxCP-like with the textbook constant). BayesCoxCP-lite's regret is
#   {glue:text}`ratio_method:.2f` times CoxCP-like's at $T_{\max}$ (bar $0.7$; a band of $\pm15\%$ around it,
#   fixed whatever the number of replicates, counts as the edge); the method passes at
#   {repro-seeds}`beats-coxcp-sparse:method:pass` seeds and is at the edge at
#   {repro-seeds}`beats-coxcp-sparse:method:edge`. Epsilon-greedy on the same Cox model scores
#   {glue:text}`ratio_eps:.2f` and passes at {repro-seeds}`beats-coxcp-sparse:baseline1:pass`; the
#   proportional-odds sampler (the ablation of the proportional-hazards structure) scores
#   {glue:text}`ratio_logit:.2f` and passes at {repro-seeds}`beats-coxcp-sparse:ablation:pass`; greedy
#   {glue:text}`ratio_greedy:.2f` (passes at {repro-seeds}`beats-coxcp-sparse:baseline2:pass`), the per-price
#   logistic bandit {glue:text}`ratio_per_price:.2f` (passes at {repro-seeds}`beats-coxcp-sparse:baseline3:pass`)
#   and the grid-blind sampler, the same model on this grid, {glue:text}`ratio_blind:.2f` (passes at
#   {repro-seeds}`beats-coxcp-sparse:baseline4:pass`).
# * *The same against the tuned CoxCP-like*, {repro-status}`beats-tuned-coxcp-sparse` (post hoc; the
#   confirmation sweep on seeds 10-19 judges it not reproduced too, so it does not count). With its exploration constant tuned to $c=2$ on design seeds,
#   CoxCP-like's regret falls from {glue:text}`reg5_coxcp:.1f` to {glue:text}`reg5_coxcp_tuned:.1f` here and
#   the method's ratio rises to {glue:text}`ratioT_method:.2f`: it passes at
#   {repro-seeds}`beats-tuned-coxcp-sparse:method:pass` seeds. At ci scale most of test 1's margin came from an
#   untuned denominator. Epsilon-greedy scores {glue:text}`ratioT_eps:.2f` against the tuned denominator (passes
#   at {repro-seeds}`beats-tuned-coxcp-sparse:baseline1:pass`). At full scale ($T$ up to 20000) the method's
#   ratio to the tuned CoxCP-like is below the bar at most seeds, but epsilon-greedy and the grid-blind sampler
#   clear it with it: not specific there.
# * *$\sqrt T$ on the sparse grid*, {repro-status}`sparse-slope`. The fitted exponent is
#   {glue:text}`slope5_method:.2f` (bar $7/12$, partial up to $0.75$): it passes at
#   {repro-seeds}`sparse-slope:method:pass` seeds, is partial at {repro-seeds}`sparse-slope:method:partial` and
#   within the band of a bar at {repro-seeds}`sparse-slope:method:edge`. The paper's rate with one log factor
#   would fit {glue:text}`ref_slope_sqrt:.2f` over these horizons, above the bar: our exponent is close to
#   what $\widetilde O(\sqrt T)$ predicts, and a bar below both rates' log-adjusted slopes cannot tell them
#   apart at this scale. Beside it: epsilon-greedy
#   {glue:text}`slope5_eps:.2f` (passes at {repro-seeds}`sparse-slope:baseline4:pass`), the tuned CoxCP-like
#   {glue:text}`slope5_coxcp_tuned:.2f` (passes at {repro-seeds}`sparse-slope:baseline6:pass`), the
#   proportional-odds sampler {glue:text}`slope5_logit:.2f`, grid-blind {glue:text}`slope5_blind:.2f`, greedy
#   {glue:text}`slope5_greedy:.2f`, per-price {glue:text}`slope5_per_price:.2f`, CoxCP-like
#   {glue:text}`slope5_coxcp:.2f`.
# * *The exponent adapts to the grid*, {repro-status}`adapts-to-sparsity` (`dense-slope`'s value minus
#   `sparse-slope`'s, so a common log factor cancels). BayesCoxCP-lite's slope rises by
#   {glue:text}`rise_method:.2f` from the sparse to the densest grid (bar $1/12$; it passes at
#   {repro-seeds}`adapts-to-sparsity:method:pass` seeds). The per-price logistic bandit, whose unknowns
#   also grow with the grid, rises by {glue:text}`rise_per_price:.2f` (passes at
#   {repro-seeds}`adapts-to-sparsity:baseline2:pass`); the grid-blind sampler by {glue:text}`rise_blind:.2f`
#   (passes at {repro-seeds}`adapts-to-sparsity:ablation:pass`), greedy by {glue:text}`rise_greedy:.2f`,
#   epsilon-greedy by {glue:text}`rise_eps:.2f`, the proportional-odds sampler by {glue:text}`rise_logit:.2f`,
#   and CoxCP-like, whose exploration ignores the grid, by {glue:text}`rise_coxcp:.2f` (passes at
#   {repro-seeds}`adapts-to-sparsity:baseline3:pass`: its single commit decision makes its exponents noisy).
#   A regret exponent that grows with the number of prices is what any bandit with one unknown per price
#   shows; it is not specific to the paper's model.
# * *The dense-grid rate $T^{2/3}$*, {repro-status}`dense-slope`. At $\gamma=1/2$ our stand-in's exponent is
#   {glue:text}`slopeD_method:.2f` (bar $0.71$, partial up to $0.75$; it passes at
#   {repro-seeds}`dense-slope:method:pass` seeds, is partial at {repro-seeds}`dense-slope:method:partial` and
#   within the band of the partial bar at {repro-seeds}`dense-slope:method:edge`). The paper's $T^{2/3}$ with
#   one log factor would fit {glue:text}`ref_slope_two_thirds:.2f` over these horizons, above both bars:
#   our exponent is consistent with the paper's $\widetilde O(T^{2/3})$, and the test's failure is a limit of
#   its bar at this scale, not evidence against the paper. The random-walk prior helps (independent grid
#   values: {glue:text}`slopeD_indep:.2f`, beyond even the partial bar at
#   {repro-seeds}`dense-slope:ablation:fail` seeds). The comparators: epsilon-greedy
#   {glue:text}`slopeD_eps:.2f` (passes at {repro-seeds}`dense-slope:baseline5:pass`), the proportional-odds
#   sampler {glue:text}`slopeD_logit:.2f` (passes at {repro-seeds}`dense-slope:baseline6:pass`), the
#   grid-blind sampler with only $\lceil T^{1/3}\rceil$ knots {glue:text}`slopeD_blind:.2f` (passes at
#   {repro-seeds}`dense-slope:baseline4:pass`), CoxCP-like {glue:text}`slopeD_coxcp:.2f` (passes at
#   {repro-seeds}`dense-slope:baseline3:pass`), greedy {glue:text}`slopeD_greedy:.2f` (passes at
#   {repro-seeds}`dense-slope:baseline1:pass`) and the per-price bandit {glue:text}`slopeD_per_price:.2f`
#   (passes at {repro-seeds}`dense-slope:baseline2:pass`).
#
# In short: in our miniature what beats CoxCP-like on five prices is *continuing* exploration against a
# one-shot commit after $T^{2/3}$ rounds, not Thompson sampling as such: epsilon-greedy on the same Cox model,
# with forced exploration spread over the horizon and no posterior sampling, has
# {glue:text}`ratio_eps_to_method:.2f` times the method's regret on the sparse grid and
# {glue:text}`ratioD_eps_to_method:.2f` times on the densest, and it passes test 1 at
# {repro-seeds}`beats-coxcp-sparse:baseline1:pass` seeds. Against a CoxCP-like whose exploration constant is
# tuned, the method's margin mostly disappears at ci scale. At full scale BayesCoxCP-lite's regret is below
# epsilon-greedy's at every seed and its ratio to the tuned CoxCP-like clears the bar at most seeds, but
# epsilon-greedy still passes both ratio tests there: at the larger scale posterior sampling gains a little, not
# enough to make the tests specific. The proportional-hazards structure does matter in our data
# (the proportional-odds sampler, the same sampler with the logit link, is behind at most seeds), but our
# truth *is* a proportional-hazards model, so this is a correctly specified model beating a misspecified one.
# The discreteness of the grid is not an ingredient we can isolate (see the claims). The regret exponents we
# fit are close to the paper's rates with one log factor on both grids; the slope bars, set on the bare
# exponents, are too strict to confirm or refute them at ci. On the dense grid the grid model's exponent is
# not lower than those of models with fewer or equally many unknowns (grid-blind with fewer knots,
# epsilon-greedy and the proportional-odds sampler with the same number), so nothing here shows that one
# unknown per grid price is what steepens it.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page,
# the record and the brief. They re-ran the page's comparators, tried naive baselines against every counted
# test on seeds 0-9, tuned CoxCP-like's exploration constant, and read the prose against the record; every
# baseline below that they found strong is now measured by this notebook (values at this seed) and recorded
# beside the tests.
#
# * *Tune the existing method* (the review's first finding): CoxCP-like's regret at $T_{\max}$ on the sparse
#   grid for exploration constants $c=1/2, 1, 2, 3, 4$ is {glue:text}`coxcp_scan_0:.1f`,
#   {glue:text}`coxcp_scan_1:.1f`, {glue:text}`coxcp_scan_2:.1f`, {glue:text}`coxcp_scan_3:.1f` and
#   {glue:text}`coxcp_scan_4:.1f` at this seed (best here: $c=${glue:text}`coxcp_scan_best_c:g`), so the
#   method's ratio ranges over {glue:text}`coxcp_scan_ratio_0:.2f`, {glue:text}`coxcp_scan_ratio_1:.2f`,
#   {glue:text}`coxcp_scan_ratio_2:.2f`, {glue:text}`coxcp_scan_ratio_3:.2f`, {glue:text}`coxcp_scan_ratio_4:.2f`.
#   The constant $c=2$, chosen on design seeds 0-9, is the denominator of the post-hoc test.
# * *Explore without posterior sampling* (epsilon-greedy on the Cox grid model, $\varepsilon_t=\min(1,2/\sqrt t)$,
#   constant tuned): ratio {glue:text}`ratio_eps:.2f` to CoxCP-like and {glue:text}`ratioT_eps:.2f` to the
#   tuned one, regret {glue:text}`reg5_eps:.1f` against BayesCoxCP-lite's {glue:text}`reg5_method:.1f` on the
#   sparse grid and {glue:text}`regD_eps:.1f` against {glue:text}`regD_method:.1f` on the densest; exponents
#   {glue:text}`slope5_eps:.2f` and {glue:text}`slopeD_eps:.2f`. The strongest comparator on the page.
# * *Drop the proportional-hazards form* (the same sampler with the logit link): ratio
#   {glue:text}`ratio_logit:.2f` ({glue:text}`ratioT_logit:.2f` to the tuned CoxCP-like), exponents
#   {glue:text}`slope5_logit:.2f` and {glue:text}`slopeD_logit:.2f`. Behind the method on regret at this
#   seed, where the truth is a proportional-hazards model.
# * *Model the price as continuous, ignore the grid* (grid-blind Thompson sampling): regret ratio
#   {glue:text}`ratio_blind:.2f` against CoxCP-like on the sparse grid, exponents {glue:text}`slope5_blind:.2f`
#   (sparse) and {glue:text}`slopeD_blind:.2f` (dense). On five prices with {glue:text}`blind_knots` knots it
#   is BayesCoxCP-lite under another prior.
# * *A textbook contextual bandit on the grid without the Cox structure* (per-price logistic Thompson sampling,
#   posterior scale tuned): ratio {glue:text}`ratio_per_price:.2f`, regret {glue:text}`reg5_per_price:.1f`
#   on the sparse grid and {glue:text}`regD_per_price:.1f` on the densest; exponents
#   {glue:text}`slope5_per_price:.2f` and {glue:text}`slopeD_per_price:.2f`. Sharing $\beta$ across prices is
#   what the other comparators have and this one lacks.
# * *A non-contextual bandit on the grid* (Beta-Bernoulli Thompson sampling over the five prices): regret
#   {glue:text}`reg5_noncontextual:.1f` (ratio {glue:text}`ratio_noncontextual:.2f`, exponent
#   {glue:text}`slope5_noncontextual:.2f`). Ignoring the covariates costs the best fixed price's loss,
#   {glue:text}`fixed_loss:.3f` per round ({glue:text}`fixed_loss_T:.0f` over $T_{\max}$ rounds), by
#   definition; it is shown, not counted.
# * *Greedy on the posterior mean* (no exploration beyond the covariates' own variety): ratio
#   {glue:text}`ratio_greedy:.2f`, exponents {glue:text}`slope5_greedy:.2f` and {glue:text}`slopeD_greedy:.2f`.
#   At some seeds a replicate locks onto a wrong price and its regret grows linearly; at others greedy
#   beats Thompson sampling.
# * *Explore-then-commit with the grid model and $\lceil\sqrt T\rceil$ exploration rounds*: ratio
#   {glue:text}`ratio_etc:.2f`, exponent {glue:text}`slope5_etc:.2f`. One commit decision after a short
#   exploration is a gamble.
# * *BayesCoxCP-lite with an untuned prior*: independent grid values {glue:text}`ratio_indep:.2f`, every prior
#   scale halved {glue:text}`ratio_prior_half:.2f`, doubled {glue:text}`ratio_prior_double:.2f` (ratios to
#   CoxCP-like on the sparse grid, against {glue:text}`ratio_method:.2f` for the prior we use), and sparse-grid
#   exponents {glue:text}`slope5_indep:.2f`, {glue:text}`slope5_prior_half:.2f` and
#   {glue:text}`slope5_prior_double:.2f` against {glue:text}`slope5_method:.2f` (bar of `sparse-slope`: $7/12$).
#   At this seed every untuned prior does better than ours on the sparse grid, and without the random walk the
#   exponent is below the bar that our prior misses: our prior is not what makes the sparse-grid result, and
#   its random walk pays only on the dense grid (`dense-slope`'s ablation).
# * *Is the tolerance band the cause?* Re-drawing only BayesCoxCP-lite's sampling randomness (same buyers,
#   same sale uniforms) gives a ratio of {glue:text}`ratio_redraw:.2f` against {glue:text}`ratio_method:.2f`
#   here; at some design seeds the review saw moves as wide as the $\pm15\%$ band itself, which it judged
#   defensible (the band is fixed, not scaled to the number of replicates).
# * *The page's first control for test 1*, the same ratio on the densest grid ({glue:text}`K_dense` prices):
#   {glue:text}`ratioD_method:.2f` (grid-blind sampler there: {glue:text}`ratioD_blind:.2f`). It is the method
#   in another setting, not a comparator, and is shown only in the table of exponents.

# ## What the miniature cannot show
#
# * The paper's algorithm, prior and constants, and its experiments: we test a stand-in of our own
#   design against a CoxCP-like stand-in, on one synthetic truth.
# * High-probability bounds: we show mean regret over 5 (ci) or 20 (full) replicates and its spread,
#   not the tails of the regret distribution.
# * Asymptotic exponents: slopes fitted over $T\le4000$ (ci) or $20000$ (full) include the logarithmic
#   factors of the bounds and pre-asymptotic effects (the CoxCP-like method's single estimate after
#   $T^{2/3}$ rounds is still poor at these horizons); exponents only emerge at larger $T$.
# * Whether the grid's discreteness helps where a continuous-price model has *fewer* knots than the grid
#   has prices and the truth is not smooth: our truth is smooth, which favours every smoothed baseline.
# * Whether the proportional-hazards structure helps when the truth is not a proportional-hazards model:
#   our truth is one, so the proportional-odds ablation is misspecified by construction of the data.
# * Whether Thompson sampling beats other continuing exploration (epsilon-greedy) at the paper's horizons
#   or with the paper's sampler. In our miniature it does not at ci scale; at full scale ($T$ up to 20000) our
#   sampler's regret is below epsilon-greedy's at every seed, though not by enough to change a test.
# * The $\sqrt{dT}$ term and its dependence on $d$ (one $d=5$), non-exponential baselines, and buyers
#   whose covariates drift over time.
