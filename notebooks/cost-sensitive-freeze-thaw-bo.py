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
# # Cost-sensitive freeze-thaw BO: tune hyperparameters only while it still pays
#
# *Put the price of compute into the objective: a utility that subtracts the budget spent from the best score,
# an acquisition that picks the configuration whose next epochs should raise that utility most, and a stopping
# rule that ends the search once further gains look unlikely to pay. Under that utility, the search should end
# ahead of freeze-thaw and plain BO run to a fixed budget.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import time

import matplotlib.pyplot as plt
import numpy as np

from repro.claims import Claims, Comparator, at_least, greater_than, is_true, less_than, tolerance
from repro.papers import cost_sensitive_freeze_thaw_bo as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    "ci": dict(config_stride=3, targets=("digits",), runs=5, n_samples=64),
    "full": dict(config_stride=1, targets=K.DATASETS, runs=10, n_samples=128),
})
T = 20                      # epochs per configuration (the learning-curve length)
B = 5 * T                   # total budget, in epochs (official: B = 300; curves of 51, 50 or 20 epochs)
ALPHAS = (0.5, 1.0)         # the brief's cost weights for the claims, with c = 1
C = 1.0
GRID = dict(alpha=(0.25, 0.5, 1.0), c=(0.5, 1.0, 2.0))   # full scale only: the utility grid of the heat map
N_INIT = 2                  # plain BO: random configurations before the GP takes over
plt.rcParams["savefig.dpi"] = 80
claims = Claims("cost-sensitive-freeze-thaw-bo",
                title="Cost-Sensitive Freeze-thaw Bayesian Optimization for Efficient Hyperparameter Tuning",
                authors="Dong Bok Lee, Aoxuan Silvia Zhang, Byungjoo Kim, Junhyeon Park, Steven Adriaensen, "
                        "Juho Lee, Sung Ju Hwang, Hae Beom Lee",
                paper_url="https://arxiv.org/abs/2510.21379", scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# Hyperparameter optimisation (HPO) usually runs to a budget fixed in advance. *Freeze-thaw* BO (Swersky et al.,
# 2014) already saves compute: it trains many configurations a few epochs at a time, pauses ("freezes") the
# unpromising ones and resumes ("thaws") the promising ones, guided by a model that extrapolates learning curves.
# The budget it spends is still a number chosen by the user before the search.
#
# Lee et al. (NeurIPS 2025) make the trade-off between compute and performance part of the objective. A user
# states how much a unit of accuracy is worth in epochs, through a **utility**. The optimiser then
# (i) picks the configuration whose continued training is expected to raise the utility most, and
# (ii) **stops by itself** when the utility is unlikely to rise again. On the LCBench, TaskSet, PD1 and ODBench
# learning-curve benchmarks they report a better cost-performance trade-off than earlier freeze-thaw BO (DyHPO,
# ifBO) and transfer-BO baselines. Their model is a learning-curve transformer (LC-PFN), pre-trained on the
# benchmark's other tasks for **transfer**. The brief found no headline number, only this ordering.
#
# ## The method
#
# **Utility.** After $b$ epochs in total (all configurations together) with best validation score $\tilde y_b$,
#
# $$U(b, \tilde y_b) = \tilde y_b - \alpha\,(b/B)^c, \qquad U = -\infty \text{ for } b > B,$$
#
# with $B$ the largest budget the user allows, $\alpha \in [0, 1]$ the price of the whole budget in units of score
# and $c$ the shape of that price ($\alpha = 0$ is ordinary HPO). `K.utility`.
#
# **Acquisition** (official `CFBO.hpo`). For every configuration $x$ with $m_x$ epochs observed, the model draws
# $K$ future learning curves $\hat y_{x,t}$. Each draw is floored at the current best, turned into its running
# maximum, and scored with the utility at the budget that training $x$ up to epoch $t$ would cost:
# $u_{x,t} = U\big(b + t - m_x,\ \max(\tilde y_b, \max_{m_x < t' \le t}\hat y_{x,t'})\big)$ for $t > m_x$. Then
#
# $$a(x) = \max_{t > m_x} \mathbb E\big[(u_{x,t} - U_{\rm now})^+\big], \qquad
#   p(x) = \max_{t > m_x} P(u_{x,t} \ge U_{\rm now}),$$
#
# and the argmax of $a$ is trained for **one** more epoch. `K.cfbo_acquisition`.
#
# **Stopping rule** (official `_compute_stop_sign`). Let $u_{\max}$ be the best utility reached so far and
# $u_{\min} = U(B, \text{first score})$. Stop when the utility has fallen far enough from its best, relative to how
# likely the chosen configuration $x^*$ is to improve it:
#
# $$\frac{u_{\max} - U_{\rm now}}{u_{\max} - u_{\min}} \ \ge\ I_{p(x^*)}\!\big(e^{\beta}, e^{\beta}\big)^{\gamma},
#   \qquad \gamma = -\log_2(0.2),\ \beta = -1,$$
#
# where $I$ is the regularised incomplete Beta function (a Beta CDF). At $p = 1/2$ the right-hand side is exactly
# 0.2, the fixed ratio at which the official code stops its baselines; a configuration likely to improve raises
# the bar, an unlikely one lowers it. `K.stop_threshold`, `K.cfbo_should_stop`.
#
# **Learning-curve model: our stand-in for LC-PFN.** An exact Bayesian power law per configuration,
#
# $$y_t = y_\infty\,(1 - t^{-\kappa}) + y_1\,t^{-\kappa} + \varepsilon_t,\qquad
#   (y_\infty, y_1) \sim \mathcal N(\mu_0, \Sigma_0),\ \kappa \in \text{grid},\ \varepsilon_t \sim \mathcal N(0, \sigma^2),$$
#
# conjugate for each grid value of $\kappa$, so its posterior and the weights of the grid are closed-form
# (`K.curve_posterior`, `K.sample_future_curves`). The power law is one of the curve families in LC-PFN's training
# prior. **Transfer** replaces the generic prior by one fitted to the *other* tasks' complete curves of the same
# configurations: a per-configuration mean, a pooled covariance, an empirical histogram of $\kappa$ and a noise
# level (`K.fit_source_prior`). The paper pre-trains its transformer on other tasks' curves instead.
#
# ## The experiment
#
# **Benchmark (real learning curves, computed here).** 48 configurations of scikit-learn's
# `SGDClassifier(loss="log_loss")`: regularisation $\alpha_{\rm reg} \in \{10^{-4}, \dots, 10^{-1}\}$, initial
# step size $\eta_0 \in \{3\cdot10^{-4}, 3\cdot10^{-3}, 3\cdot10^{-2}\}$, constant or inverse-scaling step
# size, L2 or L1 penalty. Each is trained for 20 epochs with `partial_fit` on a stratified half of a bundled
# dataset (digits, wine, breast cancer), and its validation accuracy on the other half is recorded after every
# epoch. One epoch costs one unit of budget; $B = 100$ epochs.
#
# **Methods**, all given the *same* surrogate (generic prior) unless named otherwise, so that differences come
# from what they do with it:
#
# - **CFBO**: the acquisition and the stopping rule above.
# - **CFBO without its stop**: the same runs, read at $B$ (ablation).
# - **FT-BO, fixed budget**: freeze-thaw BO that trains, one epoch at a time, the configuration with the largest
#   expected improvement of its *final* score (`K.final_value_ei`), for all $B$ epochs.
# - **FT-BO + threshold stop**: the same runs, stopped by the official baselines' fixed rule, ratio $\ge 0.2$
#   (`K.threshold_stop_budget`).
# - **Plain BO**: no freeze-thaw. Each evaluation trains a configuration to its 20th epoch. The first two are
#   random, then botorch's log-EI of a `SingleTaskGP` on the four hyperparameters picks the next; fixed budget.
# - **Random search**: configurations in random order, each trained to its 20th epoch; fixed budget.
# - **CFBO + transfer**, and its ablation **CFBO + shuffled transfer** (the per-configuration prior means assigned
#   to the wrong configurations).
#
# **Naive baselines**: for each test, the strongest alternative a skeptic would try that does without the idea the
# test is about, measured exactly as the method is:
#
# - **One epoch of a random configuration, then stop** (`K.one_epoch_runs`). Every configuration is taken once,
#   so the mean over these runs is the exact expectation over the random pick.
# - **Best first epoch + patience** (`K.first_epoch_patience_runs`): one epoch of every configuration, then the
#   one with the best first score, trained until an epoch fails to improve it (patience 1).
# - **Best of 3 random first epochs, then stop** (`K.best_of_k_first_epochs_runs`): three configurations drawn at
#   random, one epoch each, keep the best; every 3-subset is taken once, so the mean is the exact expectation over
#   the draw. Added after the independent review, which tried 1 to 8 first epochs; 3 is the value it reported.
# - **FT-BO + patience 1** (`K.patience_stop_budget` on FT-BO's runs): the fixed-budget FT-BO trajectory, stopped
#   at the first epoch that does not improve the incumbent. Also added after the review.
# - For the stopping test, two other stops read on **CFBO's own trajectories**: the official baselines' fixed
#   0.2-ratio rule (`K.threshold_stop_budget`; the ablation: CFBO's rule without the bar that moves with $p^*$) and
#   plain early stopping on the incumbent with patience 1 (`K.patience_stop_budget`).
# - For transfer, **CFBO + warm-start order**: the generic prior, but whenever CFBO opens a configuration it has
#   not trained, it takes the next one in the order of their mean rank of final accuracy on the other tasks
#   (`K.source_visit_order`). Under the generic prior untrained configurations are exchangeable, so this changes
#   only *which* new configuration is opened, not *when*. And, added after the review, the plainest transfer of
#   all: **the configuration that ranked best on the other tasks, one epoch, then stop**
#   (`K.source_best_one_epoch_runs`).
#
# Every run continues to $B$ after its stopping rule first fires (as the official `--not_stop` flag does), so the
# whole trajectory is known; the realised utility is read at the stop.
#
# **Measures.** The realised utility $U(b_{\rm stop}, \tilde y_{b_{\rm stop}})$. The normalised regret of the
# official `run_bo.py`: $(u^\star - U_{\rm stop})/(u^\star - u_{\rm lo})$, with $u^\star = \max_{x,t} U(t, y_{x,t})$
# (the right configuration trained alone, an oracle) and $u_{\rm lo} = \min_x U(B, y_{x,1})$. The budget
# $b^\star$ that maximises the utility along the run's own trajectory, for the stopping check. To explain that
# check, the brief's *trajectory regret* of a stop,
# $(U^\star_{\rm traj} - U_{\rm stop})/(U^\star_{\rm traj} - u_{\min})$ with
# $U^\star_{\rm traj} = U(b^\star, \tilde y_{b^\star})$ (`K.trajectory_regret`), and what the stopping rule would
# need to fire near $b^\star$ (`K.stop_ratio_trace`, `K.p_star_for_bar`, `K.stop_window_requirement`).
#
# | preset | configurations | target tasks | BO runs per method | curve samples $K$ | utility grid |
# |---|---|---|---|---|---|
# | ci | 16 (every third) | digits (transfer from wine, breast cancer) | 5 | 64 | $\alpha \in \{0, 0.5, 1\}$, $c = 1$ |
# | full | 48 | digits, wine, breast cancer (each from the other two) | 10 | 128 | also $\alpha \times c \in \{0.25, 0.5, 1\} \times \{0.5, 1, 2\}$ |
#
# **Deviations from the paper**
#
# - **Surrogate.** A closed-form Bayesian power law instead of the LC-PFN transformer. It has no input for the
#   hyperparameters: a configuration's curve is predicted from its own epochs and its prior only. Our generic
#   prior ($y_\infty \sim \mathcal N(0.7, 0.3^2)$, $y_1 \sim \mathcal N(0.5, 0.3^2)$, 24 exponents on a log grid
#   over $[0.05, 5]$, $\sigma = 0.02$) is our choice, fixed before the first run.
# - **Transfer.** A prior fitted to two other tasks' curves (MAP shrinkage), instead of a transformer pre-trained
#   with learning-curve mixup on many tasks of the same benchmark. Our "tasks" are three unrelated datasets.
# - **Benchmark.** 16 (ci) or 48 (full) SGD configurations on three small scikit-learn datasets, 20 epochs each,
#   instead of LCBench, TaskSet, PD1 and ODBench, whose data cannot be downloaded here. The budget is
#   $B = 5T = 100$ epochs; the official runs use $B = 300$ with curves of 51 epochs (LCBench), 50 (TaskSet, PD1)
#   or 20 (ODBench): `run_bo.py` passes each benchmark's length over the default of 52 in `algorithm/base.py`.
# - **Baselines.** The same surrogate with another acquisition (FT-BO), instead of DyHPO's deep-kernel GP and
#   ifBO's FT-PFN, which the official code runs. Plain BO and random search are our additions, asked for by the
#   issue; the naive baselines (one epoch and stop, best first epoch with patience, the patience stop, the
#   warm-start order) are ours too, added after an independent review of the page, and so are those a second
#   independent review asked for (the best of three first epochs, FT-BO stopped by patience 1, the configuration
#   that ranked best on the other tasks for one epoch).
# - **Monte Carlo.** $K = 64$ (ci) or 128 (full) plain draws from the posterior predictive per configuration and
#   step. The official `hpo` draws 5,000 curves per configuration and averages them in groups of five into 1,000
#   with `.view(H, 5, 1000, T).mean(1)`. On its transfer path this averages five draws of the same configuration
#   (`predict_with_transfer` permutes its samples to configurations × draws × epochs), which narrows the spread by
#   about $\sqrt5$. On its no-transfer path `predict_without_transfer` returns draws × configurations × epochs
#   without that permute, so the same `view` groups draws of *different* configurations: at commit 33a6bbf the
#   official CFBO without transfer scores each configuration from curves drawn for the others, and is nearly blind
#   to which configuration is which. Our generic-prior CFBO scores each configuration from its own draws.
# - **First step.** Without transfer, the official CFBO picks its first configuration at random. Ours scores it
#   from the prior like any other step; with a shared prior this is a random pick among near-equal scores.
#
# **Departures from the brief**
#
# - **Regret normalisation.** The brief normalises the regret by the run's own best utility,
#   $(U^\star_{\rm traj} - U_{\rm stop})/(U^\star_{\rm traj} - u_{\min})$. The transfer test uses the official
#   `run_bo.py` normalisation instead, by the oracle $u^\star$ over the whole benchmark, so that runs that find
#   different configurations are compared on one scale; the brief's trajectory regret is shown for the stopping
#   rules only.
# - **Transfer at ci.** The brief scoped the transfer check to full scale ("full only"); the page runs it at ci as
#   well (two source datasets, one target), so that it has a ci sweep like every counted test.
# - **Surrogate.** The brief proposed an ensemble of parametric curve fits with a parametric bootstrap; we use the
#   exact Bayesian version of the same power law (closed-form posterior), which needs no refitting per sample.
# - **The fixed-budget comparison.** The brief's first check (CFBO's utility above fixed-budget freeze-thaw BO's,
#   at $\alpha = 0.5$ and $1$) is shown as two illustrations, not counted: a fixed budget pays the whole price
#   $\alpha$ by construction (see the claims).

# %% [markdown]
# ## Results
#
# ### The benchmark and what the surrogate believes

# %%
t0 = time.perf_counter()
configs = K.config_grid()[::P.config_stride]
tables = {d: K.make_lc_benchmark(d, configs, T, P.seed) for d in K.DATASETS}
t_bench = time.perf_counter() - t0
generic = K.generic_prior()
priors = {d: K.fit_source_prior(np.stack([tables[s] for s in K.DATASETS if s != d])) for d in P.targets}
for d, Y in tables.items():
    print(f"{d:14s} {len(configs)} configurations: accuracy after epoch 1 {Y[:, 0].min():.3f}-{Y[:, 0].max():.3f}, "
          f"after epoch {T} {Y[:, -1].min():.3f}-{Y[:, -1].max():.3f}")
print(f"benchmark built in {t_bench:.1f} s")

# %% [markdown]
# How well calibrated is the stand-in surrogate? Below, each configuration of the first target task reveals its
# first $m$ epochs; the model's central 80 % predictive interval is checked on the epochs it has not seen.

# %%
target0 = P.targets[0]
Y0 = tables[target0]
cal_rng = np.random.default_rng(500 + P.seed)
coverage = {}
for name, prior in (("generic prior", generic), ("transfer prior", priors[target0])):
    for m_obs in (1, 3, 5):
        m = np.full(len(Y0), m_obs)
        s = K.sample_future_curves(Y0, m, prior, 400, cal_rng)
        lo, hi = np.quantile(s, [0.1, 0.9], axis=1)
        inside = ((Y0 >= lo) & (Y0 <= hi))[:, m_obs:]
        cov = float(inside.mean())
        coverage[name, m_obs] = (cov, float(np.sqrt(cov * (1 - cov) / inside.size)))
for (name, m_obs), (cov, se) in coverage.items():
    print(f"{name:15s} m = {m_obs}: coverage of the 80 % interval {cov:.2f} ± {se:.2f} (binomial s.e.)")

# %%
show = np.argsort(Y0[:, -1])[[0, len(Y0) // 2, -1]]
fig, axes = plt.subplots(1, 2, figsize=(9, 3.3))
for j in range(len(Y0)):
    axes[0].plot(np.arange(1, T + 1), Y0[j], color="0.6", lw=0.7)
axes[0].set_xlabel("epoch")
axes[0].set_ylabel(f"validation accuracy ({target0})")
axes[0].set_title(f"{len(Y0)} SGD configurations")
s = K.sample_future_curves(Y0[show], np.full(3, 3), generic, 400, cal_rng)
for k, j in enumerate(show):
    lo, mid, hi = np.quantile(s[k], [0.1, 0.5, 0.9], axis=0)
    t = np.arange(1, T + 1)
    axes[1].fill_between(t[3:], lo[3:], hi[3:], alpha=0.25, color=f"C{k}")
    axes[1].plot(t[3:], mid[3:], color=f"C{k}", lw=1)
    axes[1].plot(t, Y0[j], "o", ms=2.5, color=f"C{k}", mfc="none")
    axes[1].plot(t[:3], Y0[j, :3], "o", ms=3.5, color=f"C{k}")
axes[1].set_xlabel("epoch")
axes[1].set_ylabel("validation accuracy")
axes[1].set_title("generic prior after 3 epochs: 80 % band, median, truth")
plt.show()

# %% [markdown]
# ### The runs

# %%
def fixed_budget_order_runs(Y, rng, plain_bo):
    """Best-so-far of plain BO (or random search) runs, trained to completion config by config: (runs, B)."""
    n_evals = -(-B // T)
    out = np.zeros((P.runs, B))
    feats = K.config_features(configs)
    for r in range(P.runs):
        order = (K.plain_bo_order(Y, feats, n_evals, N_INIT, rng) if plain_bo
                 else rng.permutation(len(Y))[:n_evals])
        out[r] = K.full_training_incumbent(Y, order, B)
    return out


runs, stops, pstar = {}, {}, {}
t0 = time.perf_counter()
for d in progress(P.targets, desc="target tasks"):
    Y = np.repeat(tables[d][None], P.runs, axis=0)
    rng = np.random.default_rng(1000 * (K.DATASETS.index(d) + 1) + P.seed)
    for a in (0.0, *ALPHAS):
        out = K.run_freeze_thaw(Y, "cfbo", generic, B, alpha=a, c=C, n_samples=P.n_samples, rng=rng)
        runs[d, "CFBO", a], stops[d, "CFBO", a] = out["incumbent"], out["stop"]
        pstar[d, a] = out["p"]        # p* of the configuration picked at each step (for the stopping diagnosis)
    for a in ALPHAS:
        for name, prior in (("CFBO + transfer", priors[d]),
                            ("CFBO + shuffled transfer", K.permuted_prior(priors[d], rng))):
            out = K.run_freeze_thaw(Y, "cfbo", prior, B, alpha=a, c=C, n_samples=P.n_samples, rng=rng)
            runs[d, name, a], stops[d, name, a] = out["incumbent"], out["stop"]
    ft = K.run_freeze_thaw(Y, "ftbo", generic, B, alpha=0.0, c=C, n_samples=P.n_samples, rng=rng)["incumbent"]
    plain, rand = fixed_budget_order_runs(tables[d], rng, True), fixed_budget_order_runs(tables[d], rng, False)
    for a in ALPHAS:
        runs[d, "CFBO without its stop", a], stops[d, "CFBO without its stop", a] = runs[d, "CFBO", a], np.full(P.runs, B)
        runs[d, "FT-BO, fixed budget", a], stops[d, "FT-BO, fixed budget", a] = ft, np.full(P.runs, B)
        runs[d, "FT-BO + threshold stop", a] = ft
        stops[d, "FT-BO + threshold stop", a] = K.threshold_stop_budget(ft, a, C, B)
        runs[d, "plain BO, fixed budget", a], stops[d, "plain BO, fixed budget", a] = plain, np.full(P.runs, B)
        runs[d, "random search, fixed budget", a], stops[d, "random search, fixed budget", a] = rand, np.full(P.runs, B)
t_runs = time.perf_counter() - t0
print(f"all runs: {t_runs:.1f} s")

# %% [markdown]
# The naive baselines a skeptic would try, each on its own random stream (the runs above are unchanged by them):
# one epoch of a random configuration and stop; the best of three random first epochs and stop; one epoch of every
# configuration, then the best of them until an epoch fails to improve it; FT-BO's own runs stopped by patience 1;
# and, for transfer, CFBO with the generic prior that opens new configurations in the order of their mean rank on
# the other tasks, and the configuration that ranked best there, trained for one epoch.

# %%
t0 = time.perf_counter()
for d in P.targets:
    naive_rng = np.random.default_rng(3000 * (K.DATASETS.index(d) + 1) + P.seed)
    one = K.one_epoch_runs(tables[d], B)
    pat = K.first_epoch_patience_runs(tables[d], B, P.runs, naive_rng)
    sources = np.stack([tables[s] for s in K.DATASETS if s != d])
    order = K.source_visit_order(sources)
    best3 = K.best_of_k_first_epochs_runs(tables[d], B, 3)
    src_best = K.source_best_one_epoch_runs(tables[d], sources, B)
    Y = np.repeat(tables[d][None], P.runs, axis=0)
    for a in ALPHAS:
        runs[d, "one epoch of a random configuration", a] = one["incumbent"]
        stops[d, "one epoch of a random configuration", a] = one["stop"]
        runs[d, "best of 3 random first epochs", a] = best3["incumbent"]
        stops[d, "best of 3 random first epochs", a] = best3["stop"]
        ft = runs[d, "FT-BO, fixed budget", a]
        runs[d, "FT-BO + patience 1", a], stops[d, "FT-BO + patience 1", a] = ft, K.patience_stop_budget(ft, 1)
        runs[d, "source-best configuration, one epoch", a] = src_best["incumbent"]
        stops[d, "source-best configuration, one epoch", a] = src_best["stop"]
        runs[d, "best first epoch + patience", a] = pat["incumbent"]
        stops[d, "best first epoch + patience", a] = pat["stop"]
        out = K.run_freeze_thaw(Y, "cfbo", generic, B, alpha=a, c=C, n_samples=P.n_samples, rng=naive_rng,
                                visit_order=order)
        runs[d, "CFBO + warm-start order", a], stops[d, "CFBO + warm-start order", a] = out["incumbent"], out["stop"]
print(f"naive baselines: {time.perf_counter() - t0:.1f} s")

# %%
METHODS = ["CFBO", "CFBO without its stop", "FT-BO, fixed budget", "FT-BO + threshold stop",
           "plain BO, fixed budget", "random search, fixed budget", "one epoch of a random configuration",
           "best first epoch + patience", "best of 3 random first epochs", "FT-BO + patience 1",
           "CFBO + transfer", "CFBO + shuffled transfer", "CFBO + warm-start order",
           "source-best configuration, one epoch"]
util = {(d, k, a): K.realised_utility(runs[d, k, a], stops[d, k, a], a, C, B)
        for d in P.targets for k in METHODS for a in ALPHAS}
regret = {}
for d in P.targets:
    for a in ALPHAS:
        hi, lo = K.oracle_utility_range(tables[d], a, C, B)
        for k in METHODS:
            regret[d, k, a] = K.normalised_regret(util[d, k, a], hi, lo)
print(f"{'method':36s} " + "  ".join(f"U (a={a}) | regret | stop" for a in ALPHAS))
for k in METHODS:
    cells = []
    for a in ALPHAS:
        u = np.concatenate([util[d, k, a] for d in P.targets])
        g = np.concatenate([regret[d, k, a] for d in P.targets])
        st = np.concatenate([stops[d, k, a] for d in P.targets])
        cells.append(f"{u.mean():7.3f} | {g.mean():6.3f} | {np.median(st):4.0f}")
    print(f"{k:36s} " + "     ".join(cells))

# %%
SHOWN = ["CFBO", "FT-BO, fixed budget", "FT-BO + threshold stop", "plain BO, fixed budget",
         "random search, fixed budget", "CFBO + transfer"]
b_axis = np.arange(1, B + 1)
fig, axes = plt.subplots(1, len(ALPHAS), figsize=(10, 3.6), sharey=False)
for ax, a in zip(axes, ALPHAS):
    for i, k in enumerate(SHOWN):
        u = np.concatenate([K.utility(b_axis, runs[d, k, a], a, C, B) for d in P.targets])
        med, q1, q3 = np.median(u, 0), np.quantile(u, 0.25, 0), np.quantile(u, 0.75, 0)
        ax.plot(b_axis, med, color=f"C{i}", lw=1.2, label=k)
        ax.fill_between(b_axis, q1, q3, color=f"C{i}", alpha=0.15)
        if "fixed" not in k:
            st = np.concatenate([stops[d, k, a] for d in P.targets])
            us = np.concatenate([util[d, k, a] for d in P.targets])
            ax.plot(st, us, "v", color=f"C{i}", ms=5, mec="k", mew=0.4)
    for k, mk, ms, fill in (("one epoch of a random configuration", "s", 6, "w"),
                            ("best first epoch + patience", "D", 6, "w"), ("FT-BO + patience 1", "o", 9, "w"),
                            ("best of 3 random first epochs", "^", 5, "k")):
        st = np.concatenate([stops[d, k, a] for d in P.targets])
        us = np.concatenate([util[d, k, a] for d in P.targets])
        ax.plot([np.mean(st)], [np.mean(us)], mk, color="k", mfc=fill, ms=ms, label=f"{k} (mean stop, mean U)")
    ax.set_xscale("log")
    ax.set_xlabel("budget spent b (epochs, log scale)")
    ax.set_ylabel(r"utility $U(b, \tilde y_b)$")
    ax.set_title(rf"$\alpha$ = {a}, c = {C:g}: median and quartiles; ▼ = stops", fontsize=9)
axes[0].legend(fontsize=7, loc="lower left")
plt.show()

# %% [markdown]
# ### Where does CFBO stop, compared with the best moment on its own trajectory?

# %%
b_star = {(d, a): K.best_budget_on_trajectory(runs[d, "CFBO", a], a, C, B) for d in P.targets for a in ALPHAS}
best_b = np.concatenate([b_star[d, a] for d in P.targets for a in ALPHAS])


def share_near(rule):
    """Share of CFBO's runs (both prices) whose stop under ``rule`` lies within ±25 % of b* on the same trajectory."""
    st = np.concatenate([rule(d, a) for d in P.targets for a in ALPHAS])
    return st, float(np.mean(np.abs(st - best_b) <= 0.25 * best_b))


stop_cfbo, near_cfbo = share_near(lambda d, a: stops[d, "CFBO", a])
stop_ratio, near_ratio = share_near(lambda d, a: K.threshold_stop_budget(runs[d, "CFBO", a], a, C, B))
stop_pat, near_pat = share_near(lambda d, a: K.patience_stop_budget(runs[d, "CFBO", a], patience=1))
for name, st, nr in (("CFBO's rule", stop_cfbo, near_cfbo), ("fixed 0.2-ratio rule", stop_ratio, near_ratio),
                     ("patience 1 on the incumbent", stop_pat, near_pat)):
    print(f"{name:28s} within ±25 % of b* in {nr:.2f} of {len(st)} runs; median stop {np.median(st):.0f} epochs")
print(f"median best budget b* on CFBO's trajectories: {np.median(best_b):.0f} epochs")
never = np.concatenate([stops[d, "CFBO", 0.0] for d in P.targets])
print(f"alpha = 0 (no cost): CFBO's rule fired in {np.mean(never < B):.2f} of the runs")

# %% [markdown]
# Why does the rule fire late? It fires after $b$ epochs once the ratio $(u_{\max} - U_{\rm now})/(u_{\max} - u_{\min})$
# reaches the bar $I_{p^*}(e^\beta, e^\beta)^\gamma$. At $b^\star$ the ratio is $0$ (the utility is at its best), and
# each further epoch on a flat incumbent adds only $\alpha/B$ to the numerator, against a denominator
# $u_{\max} - u_{\min}$ of the order of $\alpha$. So to fire inside the ±25 % window the bar must be tiny, which
# needs a tiny $p^*$ (`K.stop_window_requirement`: the largest ratio in the window, and the $p^*$ whose bar equals
# it, `K.p_star_for_bar`). Below, on CFBO's own runs: the $p^*$ the rule would need to fire in the window and one
# epoch after $b^\star$, the smallest $p^*$ the surrogate actually gave there, and $p^*$ when the rule did fire. The
# brief's trajectory regret of each stop (`K.trajectory_regret`) says how much of the trajectory's best utility each
# rule gives away.

# %%
WINDOW = 0.25     # the test's window: |b_stop - b*| <= 0.25 b*
need = {}
for d in P.targets:
    for a in ALPHAS:
        inc, bs = runs[d, "CFBO", a], b_star[d, a]
        need[d, a, "window"] = K.stop_window_requirement(inc, pstar[d, a], np.ceil((1 - WINDOW) * bs).astype(int),
                                                         np.floor((1 + WINDOW) * bs).astype(int), a, C, B)
        need[d, a, "next"] = K.stop_window_requirement(inc, pstar[d, a], bs + 1, bs + 1, a, C, B)


def pooled_need(where, field):
    """A field of K.stop_window_requirement over every CFBO run (target tasks and both prices)."""
    return np.concatenate([need[d, a, where][field] for d in P.targets for a in ALPHAS])


fired = {(d, a): np.flatnonzero(stops[d, "CFBO", a] < B) for d in P.targets for a in ALPHAS}
p_at_stop = np.concatenate([pstar[d, a][fired[d, a], stops[d, "CFBO", a][fired[d, a]]]      # p* read at the stop
                            for d in P.targets for a in ALPHAS])
for where, what in (("window", "inside the ±25 % window"), ("next", "one epoch after b*")):
    pn, pw = pooled_need(where, "p_needed"), pooled_need(where, "p_window")
    print(f"to fire {what:24s}: p* must be <= {pn.min():.3f}-{pn.max():.3f} (bar <= "
          f"{pooled_need(where, 'bar_needed').max():.4f}); smallest p* the surrogate gave there "
          f"{pw.min():.3f}-{pw.max():.3f}")
print(f"p* when CFBO's rule fired: {p_at_stop.min():.3f}-{p_at_stop.max():.3f} (median {np.median(p_at_stop):.3f})")
traj = {name: np.concatenate([K.trajectory_regret(runs[d, "CFBO", a], rule(d, a), a, C, B)
                              for d in P.targets for a in ALPHAS])
        for name, rule in (("CFBO's rule", lambda d, a: stops[d, "CFBO", a]),
                           ("fixed 0.2-ratio rule", lambda d, a: K.threshold_stop_budget(runs[d, "CFBO", a], a, C, B)),
                           ("patience 1 on the incumbent",
                            lambda d, a: K.patience_stop_budget(runs[d, "CFBO", a], patience=1)))}
for name, g in traj.items():
    print(f"trajectory regret, {name:28s} mean {g.mean():.3f} (range {g.min():.3f}-{g.max():.3f})")

# %%
fig, (ax, ax2) = plt.subplots(1, 2, figsize=(10, 4))
a_lab = np.concatenate([[a] * len(b_star[d, a]) for d in P.targets for a in ALPHAS])
for i, a in enumerate(ALPHAS):
    sel = a_lab == a
    ax.scatter(best_b[sel], stop_cfbo[sel], s=18, color=f"C{i}", label=rf"CFBO, $\alpha$ = {a}", alpha=0.8)
jit = np.exp(np.random.default_rng(0).uniform(-0.06, 0.06, size=len(best_b)))   # display only: separates ties
ax.scatter(best_b * jit, stop_ratio, s=16, marker="x", color="0.4", label="fixed 0.2-ratio rule (ablation)")
ax.scatter(best_b / jit, stop_pat, s=22, marker="+", color="C3", label="patience 1 (naive)")
xs = np.array([1, B])
ax.plot(xs, xs, "k-", lw=0.8, label="stop = best budget")
ax.fill_between(xs, 0.75 * xs, 1.25 * xs, color="k", alpha=0.08, label="±25 %")
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlabel(r"best budget on the run's own trajectory $b^\star$ (epochs)")
ax.set_ylabel("budget at the stop (epochs)")
ax.set_title("stops on CFBO's own trajectories", fontsize=9)
ax.legend(fontsize=7)
for where, mk, lab in (("window", "o", "to fire within ±25 % of $b^\\star$"),
                       ("next", "s", "to fire at $b^\\star + 1$")):
    ax2.scatter(pooled_need(where, "p_needed"), pooled_need(where, "p_window"), s=20, marker=mk, alpha=0.7,
                label=lab)
top = 1.05 * max(pooled_need("window", "p_window").max(), pooled_need("next", "p_window").max())
ax2.plot([0, top], [0, top], "k-", lw=0.8)
ax2.fill_between([0, top], [0, top], [top, top], color="k", alpha=0.06)
ax2.text(0.02 * top, 0.9 * top, "above the line the rule cannot fire there", fontsize=7)
ax2.set_xlim(-0.01, top)
ax2.set_ylim(-0.01, top)
ax2.set_xlabel(r"largest $p^*$ at which the rule could fire there")
ax2.set_ylabel(r"smallest $p^*$ the surrogate gave there")
ax2.set_title(r"CFBO's runs: the $p^*$ needed near $b^\star$ and the $p^*$ seen", fontsize=9)
ax2.legend(fontsize=7, loc="lower right")
plt.show()

# %% [markdown]
# ### Transfer
#
# The per-configuration prior from the other tasks, against the same prior shuffled across configurations
# (its pooled parts, the covariance, exponent histogram and noise level, stay the same), and against the naive
# transfers a skeptic would try first: the generic prior, with new configurations opened in the order of their mean
# rank on the other tasks; and, with no model at all, the configuration that ranked best on the other tasks,
# trained for one epoch, then stop.

# %%
def pooled(k, table):
    return float(np.mean(np.concatenate([table[d, k, a] for d in P.targets for a in ALPHAS])))


d_transfer = pooled("CFBO + transfer", regret) - pooled("CFBO", regret)
d_shuffled = pooled("CFBO + shuffled transfer", regret) - pooled("CFBO", regret)
d_warm = pooled("CFBO + warm-start order", regret) - pooled("CFBO", regret)
d_srcbest = pooled("source-best configuration, one epoch", regret) - pooled("CFBO", regret)
for k in ("CFBO", "CFBO + transfer", "CFBO + shuffled transfer", "CFBO + warm-start order",
          "source-best configuration, one epoch"):
    print(f"mean normalised regret, {k:36s} {pooled(k, regret):.3f}")

# %% [markdown]
# ### The utility grid (full scale only)
#
# Gain of CFBO's realised utility over the official baselines' threshold stop, for other prices $\alpha$ and
# shapes $c$ (mean over target tasks and runs).

# %%
if P.scale == "full":
    gain = np.zeros((len(GRID["alpha"]), len(GRID["c"])))
    for i, a in enumerate(progress(GRID["alpha"], desc="alpha")):
        for j, cc in enumerate(GRID["c"]):
            diffs = []
            for d in P.targets:
                Y = np.repeat(tables[d][None], P.runs, axis=0)
                rng = np.random.default_rng(5000 + 10 * i + j + P.seed)
                out = K.run_freeze_thaw(Y, "cfbo", generic, B, alpha=a, c=cc, n_samples=P.n_samples, rng=rng)
                ft = runs[d, "FT-BO, fixed budget", ALPHAS[0]]
                u_c = K.realised_utility(out["incumbent"], out["stop"], a, cc, B)
                u_t = K.realised_utility(ft, K.threshold_stop_budget(ft, a, cc, B), a, cc, B)
                diffs.append(u_c - u_t)
            gain[i, j] = np.mean(diffs)
    fig, ax = plt.subplots(figsize=(4.6, 3.6))
    lim = np.abs(gain).max()
    im = ax.imshow(gain, cmap="RdBu", vmin=-lim, vmax=lim)
    for (i, j), v in np.ndenumerate(gain):
        ax.text(j, i, f"{v:+.3f}", ha="center", va="center", fontsize=8,
                color="w" if abs(v) > 0.6 * lim else "k")
    ax.set_xticks(range(len(GRID["c"])), [str(c) for c in GRID["c"]])
    ax.set_yticks(range(len(GRID["alpha"])), [str(a) for a in GRID["alpha"]])
    ax.set_xlabel("utility shape c")
    ax.set_ylabel(r"price of the budget $\alpha$")
    fig.colorbar(im, ax=ax, label="CFBO − FT-BO + threshold stop (utility)")
    plt.show()
else:
    print("the utility grid runs at full scale only")

# %% [markdown]
# ### The paper's numbers beside ours
#
# | quantity | paper (setting) | ours (setting: seed 0 of this run) |
# |---|---|---|
# | ranking by normalised regret of the utility | CFBO ahead of DyHPO, ifBO and transfer-BO baselines (LCBench, TaskSet, PD1, ODBench; no number found in the brief) | CFBO {glue:text}`reg_cfbo_05:.3f` / {glue:text}`reg_cfbo_1:.3f`, FT-BO + threshold stop {glue:text}`reg_ftthr_05:.3f` / {glue:text}`reg_ftthr_1:.3f`, one epoch of a random configuration {glue:text}`reg_oneep_05:.3f` / {glue:text}`reg_oneep_1:.3f` ($\alpha$ = 0.5 / 1; SGD curves on digits, same surrogate for the BO methods) |
# | stops near the maximum utility | "automatically stop the HPO process around the maximum utility" (no number found) | share of stops within ±25 % of $b^\star$: {glue:text}`near_cfbo:.2f` |
# | transfer improves sample efficiency | yes (LC-mixup pre-training; no number found) | regret change {glue:text}`d_transfer:+.3f` (a prior from two other datasets) |

# %%
TOL = tolerance(abs=0.02, rel=0.1, why="argmax decisions on Monte Carlo acquisition values; one flipped near-tie "
                                      "changes a whole trajectory")


def mean_u(k, a):
    """Mean realised utility of method k over every run and target task."""
    return float(np.mean(np.concatenate([util[d, k, a] for d in P.targets])))


def gap(k, base, a):
    """Mean realised utility of k minus that of base (means over each one's own runs)."""
    return mean_u(k, a) - mean_u(base, a)


BASELINES = ["FT-BO, fixed budget", "FT-BO + threshold stop", "plain BO, fixed budget", "random search, fixed budget"]


def min_gap(k):
    """The smallest, over the four baselines, of k's utility gap averaged over the two prices."""
    return min(float(np.mean([gap(k, b, a) for a in ALPHAS])) for b in BASELINES)


NO_STOP = ("CFBO without its stopping rule (the same runs read at B)",
           "the stopping rule (with the acquisition's improvement probability p*)")
ONE_EPOCH = "one epoch of a random configuration, then stop"
PATIENCE = "one epoch of every configuration, then the best one until it stops improving (patience 1)"

BEST3 = "best of 3 random first epochs, then stop"
FT_PATIENCE = "FT-BO's own runs, stopped at the first epoch that does not improve the incumbent (patience 1)"

claims.headline("beats-freeze-thaw-baselines",
                "Under a utility that charges for the budget, CFBO's acquisition and stopping rule reach a higher "
                "utility than earlier freeze-thaw BO baselines (the paper's transfer-BO baselines are not run here; "
                "transfer is tested only as CFBO with and without it)",
                tests=["beats-every-baseline"])
claims.headline("stops-near-maximum-utility", "CFBO ends the search by itself close to the budget of maximum utility",
                tests=["stops-near-utility-peak"])
claims.headline("transfer-improves-efficiency",
                "A learning-curve model pre-trained on other tasks (transfer) makes freeze-thaw BO more "
                "sample-efficient",
                tests=["transfer-lowers-regret"])
claims.headline("utility-from-preferences", "The utility's trade-off can be estimated from a user's preference data",
                untestable="we fix alpha and c; there are no users' preference data to fit them from")

for a in ALPHAS:
    claims.illustrate(f"beats-fixed-budget-ftbo-alpha-{a:g}",
                      statement=f"Mean realised utility of CFBO minus that of fixed-budget freeze-thaw BO > 0 "
                                f"(alpha = {a:g}, c = 1)",
                      paper="CFBO beats freeze-thaw BO baselines on the utility achieved (no number found)",
                      criterion=greater_than(0.0), measured=gap("CFBO", "FT-BO, fixed budget", a), tol=TOL,
                      why="fixed by construction: the fixed-budget run pays the whole price alpha, so any policy that "
                          "stops early with a comparable score is ahead by about alpha (1 - b_stop/B); CFBO's own "
                          "runs read at B (its ablation) equal the fixed-budget control, and the two prices are one "
                          "measurement read at two prices. Pre-registered as tests (the brief's first check), made "
                          "illustrations after the independent review; the comparison with every baseline is counted "
                          "in beats-every-baseline")
claims.test("beats-every-baseline",
            statement="The smallest gap in mean realised utility between CFBO and each of the four baselines "
                      "(FT-BO fixed budget, FT-BO + threshold stop, plain BO, random search), over alpha in "
                      "{0.5, 1}, is > 0",
            paper="CFBO outperforms all previous freeze-thaw BO and transfer-BO baselines considered",
            criterion=greater_than(0.0), measured=min_gap("CFBO"),
            ablation=Comparator(NO_STOP[0], min_gap("CFBO without its stop"), ingredient=NO_STOP[1]),
            baselines=[Comparator(ONE_EPOCH, min_gap("one epoch of a random configuration")),
                       Comparator(PATIENCE, min_gap("best first epoch + patience")),
                       Comparator(BEST3, min_gap("best of 3 random first epochs")),
                       Comparator(FT_PATIENCE, min_gap("FT-BO + patience 1"))],
            tol=TOL)
claims.test("stops-near-utility-peak",
            statement="CFBO's stop lies within ±25 % of the budget that maximises the utility along its own "
                      "trajectory in >= 60 % of runs (alpha in {0.5, 1})",
            paper="stops the HPO process automatically around the maximum utility",
            criterion=at_least(0.6), measured=near_cfbo,
            ablation=Comparator("the official baselines' fixed 0.2-ratio stop on CFBO's own trajectories", near_ratio,
                                ingredient="the bar adjusted by the improvement probability p* (Beta CDF)"),
            baselines=[Comparator("stop at the first epoch that does not improve the incumbent (patience 1), on "
                                  "CFBO's own trajectories", near_pat)],
            tol=TOL)
claims.illustrate("stop-gives-away-less-than-fixed-ratio",
                  statement="Mean trajectory regret (U*_traj - U_stop)/(U*_traj - u_min) of CFBO's stop on its own "
                            "trajectories minus that of the official baselines' fixed 0.2-ratio stop on the same "
                            "trajectories < 0 (alpha in {0.5, 1})",
                  paper="stops the HPO process automatically around the maximum utility (the brief's regret measure)",
                  criterion=less_than(0.0),
                  measured=float(traj["CFBO's rule"].mean() - traj["fixed 0.2-ratio rule"].mean()), tol=TOL,
                  why="a diagnosis of stops-near-utility-peak on the same trajectories (one measurement, added after "
                      "the independent review), not a claim of the paper: the p*-adjusted bar lies below the fixed "
                      "0.2 whenever p* < 1/2, so wherever p* stays below 1/2 CFBO's rule fires no later than the "
                      "fixed ratio, largely by construction. Patience 1 on the incumbent, which uses no model, gives "
                      "away less than either (shown beside it on the page)")
claims.test("transfer-lowers-regret",
            statement="Mean normalised regret of CFBO with the transferred prior minus that with the generic prior "
                      "< 0 (alpha in {0.5, 1})",
            paper="transfer learning improves the sample efficiency of freeze-thaw BO",
            criterion=less_than(0.0), measured=d_transfer,
            ablation=Comparator("the transferred prior with its per-configuration means shuffled across "
                                "configurations", d_shuffled,
                                ingredient="which configuration each source fit belongs to"),
            baselines=[Comparator("the generic prior, opening new configurations in the order of their mean rank on "
                                  "the other tasks (warm-start order)", d_warm),
                       Comparator("the configuration that ranked best on the other tasks, one epoch, then stop "
                                  "(no model)", d_srcbest)],
            tol=TOL)
_ = claims.check("cost-free-runs-to-the-end",
                 statement="With alpha = 0, CFBO's stopping rule never fires (an identity of the rule)",
                 paper="alpha = 0 recovers conventional BO",
                 criterion=is_true(), measured=bool(np.all(never == B)), kind="implementation")

# %%
from myst_nb import glue

for a in ALPHAS:
    tag = f"{a:g}".replace(".", "")
    for key, k in (("cfbo", "CFBO"), ("nostop", "CFBO without its stop"), ("ftfixed", "FT-BO, fixed budget"),
                   ("ftthr", "FT-BO + threshold stop"), ("plain", "plain BO, fixed budget"),
                   ("rand", "random search, fixed budget"), ("oneep", "one epoch of a random configuration"),
                   ("pat", "best first epoch + patience"), ("best3", "best of 3 random first epochs"),
                   ("ftpat", "FT-BO + patience 1"), ("srcbest", "source-best configuration, one epoch")):
        glue(f"u_{key}_{tag}", mean_u(k, a), display=False)
        glue(f"reg_{key}_{tag}", float(np.mean(np.concatenate([regret[d, k, a] for d in P.targets]))),
             display=False)
    glue(f"gap_cfbo_{tag}", gap("CFBO", "FT-BO, fixed budget", a), display=False)
    glue(f"gap_nostop_{tag}", gap("CFBO without its stop", "FT-BO, fixed budget", a), display=False)
    glue(f"gap_oneep_{tag}", gap("one epoch of a random configuration", "FT-BO, fixed budget", a), display=False)
    glue(f"gap_pat_{tag}", gap("best first epoch + patience", "FT-BO, fixed budget", a), display=False)
    glue(f"cfbo_minus_oneep_{tag}", gap("CFBO", "one epoch of a random configuration", a), display=False)
    glue(f"cfbo_minus_pat_{tag}", gap("CFBO", "best first epoch + patience", a), display=False)
    glue(f"best3_minus_cfbo_{tag}", gap("best of 3 random first epochs", "CFBO", a), display=False)
    glue(f"ftpat_minus_cfbo_{tag}", gap("FT-BO + patience 1", "CFBO", a), display=False)
for key, k in (("cfbo", "CFBO"), ("nostop", "CFBO without its stop"), ("oneep", "one epoch of a random configuration"),
               ("pat", "best first epoch + patience"), ("best3", "best of 3 random first epochs"),
               ("ftpat", "FT-BO + patience 1")):
    glue(f"mingap_{key}", min_gap(k), display=False)
glue("ftpat_stop_median", float(np.median(np.concatenate([stops[d, "FT-BO + patience 1", a]
                                                          for d in P.targets for a in ALPHAS]))), display=False)
glue("n_tests", sum(r["role"] == "test" for r in claims.results), display=False)
glue("n_illustrations", sum(r["role"] == "illustration" for r in claims.results), display=False)
# the benchmark: where the best accuracy is reached, and where the utility peaks
Yt = tables[P.targets[0]]
glue("bench_max_acc", float(Yt.max()), display=False)
glue("bench_max_epoch", int(np.unravel_index(np.argmax(Yt), Yt.shape)[1] + 1), display=False)
glue("bench_first_epoch_max", float(Yt[:, 0].max()), display=False)
glue("bstar_min", int(best_b.min()), display=False)
glue("bstar_max", int(best_b.max()), display=False)
# the stopping diagnosis
for where in ("window", "next"):
    for field in ("p_needed", "p_window"):
        v = pooled_need(where, field)
        glue(f"{field}_{where}_min", float(v.min()), display=False)
        glue(f"{field}_{where}_max", float(v.max()), display=False)
    glue(f"bar_needed_{where}_max", float(pooled_need(where, "bar_needed").max()), display=False)
glue("share_p_needed_zero", float(np.mean(pooled_need("window", "p_needed") == 0.0)), display=False)
glue("p_at_stop_min", float(p_at_stop.min()), display=False)
glue("p_at_stop_max", float(p_at_stop.max()), display=False)
glue("p_at_stop_median", float(np.median(p_at_stop)), display=False)
for key, name in (("cfbo", "CFBO's rule"), ("ratio", "fixed 0.2-ratio rule"), ("pat", "patience 1 on the incumbent")):
    glue(f"traj_{key}", float(traj[name].mean()), display=False)
glue("traj_cfbo_over_pat", float(traj["CFBO's rule"].mean() / traj["patience 1 on the incumbent"].mean()),
     display=False)
glue("pat_stop_median", float(np.median(np.concatenate([stops[d, "best first epoch + patience", ALPHAS[0]]
                                                        for d in P.targets]))), display=False)
glue("n_configs", len(configs), display=False)
glue("n_stops", len(stop_cfbo), display=False)
for key, st, nr in (("cfbo", stop_cfbo, near_cfbo), ("ratio", stop_ratio, near_ratio), ("pat", stop_pat, near_pat)):
    glue(f"near_{key}", nr, display=False)
    glue(f"stop_median_{key}", float(np.median(st)), display=False)
glue("bstar_median", float(np.median(best_b)), display=False)
for key, k in (("generic", "CFBO"), ("transfer", "CFBO + transfer"), ("shuffled", "CFBO + shuffled transfer"),
               ("warm", "CFBO + warm-start order")):
    glue(f"regret_{key}", pooled(k, regret), display=False)
glue("d_transfer", d_transfer, display=False)
glue("d_shuffled", d_shuffled, display=False)
glue("d_warm", d_warm, display=False)
glue("d_srcbest", d_srcbest, display=False)
glue("regret_srcbest", pooled("source-best configuration, one epoch", regret), display=False)
for name in ("generic", "transfer"):
    covs = [cov for (n, _), (cov, _) in coverage.items() if n.startswith(name)]
    glue(f"cov_{name}_min", min(covs), display=False)
    glue(f"cov_{name}_max", max(covs), display=False)

# %% [markdown]
# ## Against the official code
#
# The paper's code: [db-Lee/CFBO](https://github.com/db-Lee/CFBO), commit
# `33a6bbfcac8eacdd86d8a8dd794572f2756226be`. We ran its `CFBO.hpo` (`algorithm/cfbo.py`) with its utility
# (`get_utility_function`, `utils.py`) and its stopping rule (`_compute_stop_sign`, `algorithm/base.py`) outside
# the project. The transformer was replaced by fixed, seeded curve draws. The run used four configurations,
# ten observed epochs, four utilities and a grid of eight stopping cases
# (`tests/papers/golden/cost-sensitive-freeze-thaw-bo.json`). Our `cfbo_acquisition` reproduces its acquisition
# values to 2e-6 (the official tensors are float32) and its improvement probabilities exactly. It picks the same
# configuration, and `utility`, `u_max`, `u_min`, `stop_threshold` and `cfbo_should_stop` agree. Departures:
#
# - **Surrogate.** Everything the transformer does is replaced (see the deviations). With transfer, the official
#   `hpo` averages each of its 1,000 curve draws over five transformer draws of the same configuration before
#   scoring them, so its acquisition sees a narrower spread than the model's predictive; we score 64 or 128 plain
#   draws.
# - **The official no-transfer path mixes configurations.** `predict_without_transfer` returns its samples as
#   (5,000, H, T) without the `permute(1, 0, 2)` of the transfer path, and `hpo` then reads them with
#   `.view(H, 5, 1000, T).mean(1)`: the 1,000 averaged curves that score configuration $h$ are rows
#   $5000h, \dots, 5000h + 4999$ of the flattened draws, which cycle through all $H$ configurations. At this commit
#   the official CFBO without transfer is therefore nearly blind to which configuration is which. Our CFBO with the
#   generic prior (the page's "CFBO") scores each configuration from its own posterior; it is the method as the
#   paper describes it, not as that path of the code runs it, and any comparison with the official no-transfer
#   runs should be read with this in mind.
# - **Curve lengths.** The official runs use $B = 300$ on curves of 51 (LCBench), 50 (TaskSet, PD1) and 20
#   (ODBench) epochs; ours have 20 epochs and $B = 100$.
# - **Tie-breaking.** The official `argmax` takes the first configuration among equal acquisition values. We pick
#   one of them at random; equal values are common when every improvement probability is zero.
# - **Baselines.** The official baselines are DyHPO (a deep-kernel GP with EI at the next epoch) and ifBO
#   (FT-PFN with a randomised probability of improvement), stopped by the 0.2-ratio rule. Ours use our surrogate
#   and EI of the final score; the 0.2 rule is the same.

# %% [markdown]
# ## Claims
#
# {glue:text}`n_tests:.0f` counted tests, each measured beside its ablation (the method without the ingredient the
# test is about) and the naive baselines above, under the same measurement and criterion; the criteria are the
# brief's, fixed before the first run, and none has changed. {glue:text}`n_illustrations:.0f` illustrations, shown
# and not counted:
#
# - the brief's first check, CFBO against freeze-thaw BO run to a fixed budget at $\alpha = 0.5$ and $\alpha = 1$,
#   pre-registered as two tests and made illustrations after the independent review. A fixed budget pays the whole
#   price $\alpha$ by construction, so any policy that stops early with a similar score is ahead by about
#   $\alpha(1 - b_{\rm stop}/B)$; the ablation, CFBO's own runs read at $B$, *is* the fixed-budget control (its gap
#   is zero at every seed); and the two prices are one measurement read twice. The comparison with every baseline,
#   this one included, is counted once, in `beats-every-baseline`;
# - a diagnosis of the stopping test: the brief's trajectory regret of CFBO's stop, beside the fixed ratio's and
#   patience's, on the same trajectories.
#
# One implementation check: with $\alpha = 0$ the utility is the best score, so $U_{\rm now} = u_{\max}$ and the
# left-hand side of the rule is 0, while every draw floored at the best score reaches $U_{\rm now}$, so $p^* = 1$
# and the right-hand side is 1: the rule cannot fire. It is an identity of the rule (also a unit test), shown, not
# counted.
#
# The paper's headline claims and the tests that bear on them: the utility-aware acquisition and stop beat earlier
# freeze-thaw BO baselines (`beats-every-baseline`; the paper also names transfer-BO baselines, which we do not
# run, so the headline is mapped to the freeze-thaw baselines only); the search stops by itself near the maximum
# utility (`stops-near-utility-peak`); transfer improves sample efficiency (`transfer-lowers-regret`: CFBO with and
# without transfer, beside a shuffled prior and two naive transfers, not the paper's transfer-BO baselines); the
# utility can be fitted to a user's preferences (not testable here: we have no preference data).

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# Numbers below are from this run (ci, seed 0: digits, {glue:text}`n_configs:.0f` configurations, five BO runs per
# method); each test's status is the ci sweep's over seeds 0-9. The judged table shows every comparator at every
# seed, and the full-scale sweep in its full-scale column.
#
# - **CFBO against every baseline we ran** ({repro-status}`beats-every-baseline`). On this benchmark CFBO is
#   *dominated* by naive stopping, not matched. The best of three random first epochs, then stop, reaches a mean
#   realised utility of {glue:text}`u_best3_05:.3f` at $\alpha = 0.5$ and {glue:text}`u_best3_1:.3f` at $\alpha = 1$,
#   against CFBO's {glue:text}`u_cfbo_05:.3f` and {glue:text}`u_cfbo_1:.3f` (differences
#   {glue:text}`best3_minus_cfbo_05:+.3f` and {glue:text}`best3_minus_cfbo_1:+.3f`). FT-BO's own runs, stopped at the
#   first epoch that does not improve the incumbent (median stop {glue:text}`ftpat_stop_median:.0f` epochs), reach
#   {glue:text}`u_ftpat_05:.3f` and {glue:text}`u_ftpat_1:.3f` (differences {glue:text}`ftpat_minus_cfbo_05:+.3f` and
#   {glue:text}`ftpat_minus_cfbo_1:+.3f`). At this seed both beat CFBO at both prices (the judged table gives each
#   one's value on the test's measure at every design seed). On the test's own measure, the smallest
#   lead over the four baselines (FT-BO at a fixed budget, FT-BO + the fixed $0.2$-ratio stop, plain BO, random
#   search) averaged over the two prices, CFBO scores {glue:text}`mingap_cfbo:.3f`, the best of three first epochs
#   {glue:text}`mingap_best3:.3f` and FT-BO + patience 1 {glue:text}`mingap_ftpat:.3f`; the weaker naive policies
#   score {glue:text}`mingap_oneep:.3f` (one epoch of a random configuration) and {glue:text}`mingap_pat:.3f` (one
#   epoch of every configuration, then the best one with patience 1). The closest of the four baselines to CFBO is
#   the official baselines' own stop, FT-BO + the $0.2$ ratio ({glue:text}`u_ftthr_05:.3f` and
#   {glue:text}`u_ftthr_1:.3f`). Without its stop, CFBO's runs fall behind the baseline that stops (smallest
#   gap {glue:text}`mingap_nostop:.3f`).
# - **CFBO against freeze-thaw BO run to a fixed budget** (two illustrations, not counted). CFBO's mean realised
#   utility is higher by {glue:text}`gap_cfbo_05:.2f` at $\alpha = 0.5$ and by {glue:text}`gap_cfbo_1:.2f` at
#   $\alpha = 1$, but the fixed budget pays the whole price $\alpha$: one random configuration trained for one epoch
#   beats fixed-budget FT-BO by {glue:text}`gap_oneep_05:.2f` and {glue:text}`gap_oneep_1:.2f`, and CFBO's own runs
#   read at $B$ tie it ({glue:text}`gap_nostop_05:.2f` and {glue:text}`gap_nostop_1:.2f`). The utility rewards
#   stopping early because on these curves it peaks early, not because the accuracy does: the benchmark's best
#   accuracy on digits, {glue:text}`bench_max_acc:.3f`, is reached only at epoch {glue:text}`bench_max_epoch:.0f`,
#   but the best first-epoch accuracy is already {glue:text}`bench_first_epoch_max:.3f`, so the budget that
#   maximises the utility along CFBO's runs, $b^\star$, lies between {glue:text}`bstar_min:.0f` and
#   {glue:text}`bstar_max:.0f` epochs at this seed.
# - **Where CFBO stops** ({repro-status}`stops-near-utility-peak`). A share of {glue:text}`near_cfbo:.2f` of its
#   {glue:text}`n_stops:.0f` stops lies within ±25 % of $b^\star$ (median stop {glue:text}`stop_median_cfbo:.0f`
#   epochs, median $b^\star$ {glue:text}`bstar_median:.0f`). On the same trajectories the fixed $0.2$-ratio rule,
#   CFBO's rule without the bar that moves with $p^*$, scores {glue:text}`near_ratio:.2f` (median stop
#   {glue:text}`stop_median_ratio:.0f`), and early stopping with patience 1 scores {glue:text}`near_pat:.2f` (median
#   stop {glue:text}`stop_median_pat:.0f`). In this miniature the test cannot pass, and the failure reflects our
#   stand-in surrogate and the geometry of the rule more than CFBO. The rule fires once the utility has fallen from
#   its best by the bar times $u_{\max} - u_{\min}$. At $b^\star$ the utility is at its best, and each later epoch on
#   a flat incumbent lowers it only by $\alpha/B$, so inside the window the ratio is at most
#   {glue:text}`bar_needed_window_max:.4f`. To fire there the rule needs $p^*$ of at most
#   {glue:text}`p_needed_window_max:.3f` in the most favourable run, and exactly zero in a share
#   {glue:text}`share_p_needed_zero:.2f` of the runs (their window holds no epoch at which the utility has fallen
#   from its best, so the bar itself would have to be zero); even one epoch after $b^\star$ it needs $p^*$ of at
#   most {glue:text}`p_needed_next_min:.3f` to {glue:text}`p_needed_next_max:.3f`. The surrogate with our generic
#   prior gives $p^*$ of {glue:text}`p_window_window_min:.2f`-{glue:text}`p_window_window_max:.2f` in the window
#   and {glue:text}`p_window_next_min:.2f`-{glue:text}`p_window_next_max:.2f` one epoch after $b^\star$: its
#   predictive bands are wide (its 80 % intervals cover {glue:text}`cov_generic_min:.2f` to
#   {glue:text}`cov_generic_max:.2f` of the unseen epochs), so it keeps expecting improvement. When the rule did
#   fire, $p^*$ was {glue:text}`p_at_stop_min:.3f`-{glue:text}`p_at_stop_max:.3f` (median
#   {glue:text}`p_at_stop_median:.3f`). What the late stop costs, in the brief's trajectory regret
#   $(U^\star_{\rm traj} - U_{\rm stop})/(U^\star_{\rm traj} - u_{\min})$ (an illustration, not counted): CFBO's rule
#   gives away {glue:text}`traj_cfbo:.3f`, the fixed ratio {glue:text}`traj_ratio:.3f` and patience 1
#   {glue:text}`traj_pat:.3f`, so patience 1 loses {glue:text}`traj_cfbo_over_pat:.1f` times less than CFBO's rule.
# - **Transfer** ({repro-status}`transfer-lowers-regret`). The brief scoped this check to full scale; the page runs
#   it at ci as well (one target, two source datasets), so that it has a ci sweep like every counted test. The
#   prior fitted to wine and breast cancer changes CFBO's mean normalised regret on digits from
#   {glue:text}`regret_generic:.3f` to {glue:text}`regret_transfer:.3f` ({glue:text}`d_transfer:+.3f`), inside the
#   test's own tolerance band ($0.02$ around 0). The ablation, the same prior shuffled across configurations, gives
#   {glue:text}`regret_shuffled:.3f` ({glue:text}`d_shuffled:+.3f`). The naive transfers do better: the generic
#   prior opening configurations in the order of their mean rank on the other two datasets gives
#   {glue:text}`regret_warm:.3f` ({glue:text}`d_warm:+.3f`), and the configuration that ranked best there, trained
#   for one epoch and stopped, with no model at all, {glue:text}`regret_srcbest:.3f` ({glue:text}`d_srcbest:+.3f`).
#   A ranking of configurations from other tasks helps far more than our transferred prior, which is also
#   overconfident: its 80 % intervals cover between {glue:text}`cov_transfer_min:.2f` and
#   {glue:text}`cov_transfer_max:.2f` of the unseen epochs.
# - **$\alpha = 0$ never stops**: an implementation check (an identity of the rule), not counted.
#
# In this miniature, then, the paper's ideas are not what makes the difference: on SGD learning curves whose
# utility peaks after a few epochs, naive policies that stop almost at once beat CFBO under the paper's own
# utility, and CFBO's stop comes late, for reasons that lie in our surrogate and in the geometry of the rule. This
# is a finding about our benchmark as much as about CFBO: where curves keep rising and cross (LCBench, PD1),
# stopping at once would cost more. The full-scale sweep (48 configurations, three target tasks, ten runs per
# method) is the judged table's full-scale column.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page, the
# record and the brief. The reviewer copied the notebook's runs and added naive policies: the best of 1 to 8 random
# first epochs, then stop; FT-BO's runs stopped by patience 1 or after 1 or 2 epochs; one random configuration
# trained with patience 1; the configuration that ranked best on the other tasks, for one epoch or with patience 1.
# They read other stops on CFBO's own trajectories, worked out the bar CFBO's rule would need near $b^\star$, and
# checked the surrogate's calibration. They graded the fixed-budget comparisons as fixed by construction, found
# CFBO dominated at both prices by the best of three first epochs and by FT-BO with patience 1, showed why the
# stopping test cannot pass here, and found the naive transfers several times stronger than our transferred prior.
# What they tried against each counted test is now measured by this notebook, under the test's own measurement
# (seed 0 of this run):
#
# - **Best of 3 random first epochs, then stop** (`beats-every-baseline`): utility {glue:text}`u_best3_05:.3f` at
#   $\alpha = 0.5$ and {glue:text}`u_best3_1:.3f` at $\alpha = 1$, smallest lead over the four baselines
#   {glue:text}`mingap_best3:.3f`, against CFBO's {glue:text}`u_cfbo_05:.3f`, {glue:text}`u_cfbo_1:.3f` and
#   {glue:text}`mingap_cfbo:.3f`.
# - **FT-BO + patience 1** (`beats-every-baseline`): {glue:text}`u_ftpat_05:.3f` and {glue:text}`u_ftpat_1:.3f`,
#   smallest lead {glue:text}`mingap_ftpat:.3f`.
# - **One epoch of a random configuration, then stop** (`beats-every-baseline`): {glue:text}`u_oneep_05:.3f` and
#   {glue:text}`u_oneep_1:.3f`, smallest lead {glue:text}`mingap_oneep:.3f`; normalised regret
#   {glue:text}`reg_oneep_05:.3f` and {glue:text}`reg_oneep_1:.3f` against CFBO's {glue:text}`reg_cfbo_05:.3f` and
#   {glue:text}`reg_cfbo_1:.3f`.
# - **One epoch of every configuration, then the best one with patience 1** (`beats-every-baseline`):
#   {glue:text}`u_pat_05:.3f` and {glue:text}`u_pat_1:.3f`; it stops after a median of
#   {glue:text}`pat_stop_median:.0f` epochs, most of them spent on the first epochs of every configuration.
# - **CFBO without its stop** (the ablation): {glue:text}`u_nostop_05:.3f` and {glue:text}`u_nostop_1:.3f`, the
#   same as fixed-budget FT-BO ({glue:text}`u_ftfixed_05:.3f` and {glue:text}`u_ftfixed_1:.3f`): the reason the
#   fixed-budget comparisons are illustrations.
# - **Other stops on CFBO's own trajectories** (`stops-near-utility-peak`): share within ±25 % of $b^\star$, the
#   fixed $0.2$ ratio {glue:text}`near_ratio:.2f`, patience 1 {glue:text}`near_pat:.2f`, CFBO's rule
#   {glue:text}`near_cfbo:.2f`; trajectory regret {glue:text}`traj_ratio:.3f`, {glue:text}`traj_pat:.3f` and
#   {glue:text}`traj_cfbo:.3f`. The rule would need $p^*$ at most {glue:text}`p_needed_next_max:.3f` to fire even
#   one epoch after $b^\star$; the surrogate gave at least {glue:text}`p_window_next_min:.2f` there.
# - **Naive transfers** (`transfer-lowers-regret`): regret change {glue:text}`d_srcbest:+.3f` for the best-ranked
#   configuration of the other tasks trained for one epoch and {glue:text}`d_warm:+.3f` for the warm-start order,
#   against the transferred prior's {glue:text}`d_transfer:+.3f` and the shuffled prior's
#   {glue:text}`d_shuffled:+.3f`.
#
# An earlier review of this page, graded in the book's evidence review, had found that the fixed-budget
# comparisons could not fail, that a random configuration stopped after one epoch beats the threshold-stop
# baseline, and that the transfer gain lay inside its own tolerance.
#
# ## What the miniature cannot show
#
# - **LC-PFN and its transfer.** Our curve model is a closed-form power law with no hyperparameter input, and our
#   transfer a fitted prior. The paper's gains over ifBO and DyHPO come partly from a much stronger model, which
#   this page does not test.
# - **Benchmark scale.** 16-48 configurations of one linear model with 20-epoch curves, most of which have
#   flattened after a few epochs. On LCBench or PD1, curves cross and keep rising for longer, and the trade-off
#   between training on and stopping is harder. That is where the naive policies that stop almost at once, which
#   beat CFBO here, would be expected to fall behind; this page cannot show whether they do.
# - **A calibrated surrogate near the plateau.** The stopping rule can fire near $b^\star$ only if $p^*$ falls close
#   to zero once a curve has flattened. Our power law with a generic prior keeps wide predictive bands there; an
#   LC-PFN trained on many curves might not, and might stop near the peak. This page cannot tell.
# - **User preferences.** The paper suggests estimating $\alpha$ and $c$ from a user's preference data; we fix
#   them.
