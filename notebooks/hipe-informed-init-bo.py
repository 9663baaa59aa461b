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
# # HIPE: an initial batch that also learns the GP's hyperparameters
#
# *When BO gets only one or two large batches, the first batch should be chosen to teach the surrogate its
# hyperparameters as well as to cover the space; a batch that trades the two off should then predict and
# optimise better than a Sobol or random one.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import warnings

import matplotlib.pyplot as plt
import numpy as np

from repro.claims import Claims, at_most, tolerance
from repro.papers import hipe_informed_init_bo as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    "ci": dict(functions=("gp4", "branin"), n_seeds=2, q=8, n_candidates=96, n_theta=8, n_mc=16),
    "full": dict(functions=("gp4", "branin", "hartmann6"), n_seeds=4, q=16, n_candidates=192, n_theta=16,
                 n_mc=16),
})
warnings.filterwarnings("ignore", message=".*balance properties of Sobol.*")
SEEDS = [P.seed * P.n_seeds + k for k in range(P.n_seeds)]  # disjoint seed sets across notebook seeds
DESIGNS = list(K.DESIGNS)  # hipe, sobol, random, bald (control), epig (control), hipe-tuned (post hoc)
LABELS = {"hipe": "HIPE (EPIG + BALD)", "sobol": "Sobol", "random": "random",
          "bald": "BALD only (control)", "epig": "EPIG only (control)", "hipe-tuned": "HIPE, tuned beta (post hoc)"}
COLORS = {"hipe": "C3", "sobol": "C0", "random": "C7", "bald": "C1", "epig": "C2", "hipe-tuned": "C4"}
claims = Claims("hipe-informed-init-bo",
                title="Informed Initialization for Bayesian Optimization and Active Learning",
                authors="Carl Hvarfner, David Eriksson, Eytan Bakshy, Max Balandat",
                paper_url="https://openreview.net/forum?id=S2kbLrV7mv", scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# In few-shot BO (a handful of large batches) the initial design decides how good the surrogate is when the
# first acquisition is made. Sobol or random designs fill space but ignore that the GP's lengthscales must be
# learned from the same points. The paper proposes HIPE, an acquisition for the initial batch that adds to a
# space-filling information term an information term about the hyperparameters, and reports that it beats
# standard initialisations in predictive accuracy, hyperparameter identification and the subsequent BO,
# especially for large batches. No numbers of the paper were retrieved, so the comparison here is
# directional only.
#
# ## The method
#
# With no data yet and hyperparameter samples $\theta_j$ (weights $w_j$) drawn from a prior, HIPE scores a
# batch $X$ by
#
# $$\mathrm{HIPE}(X) = \underbrace{\sum_j w_j \,\frac1M\sum_{x_*}\tfrac12\log
#   \frac{\sigma^2_{\theta_j}(x_*)+\sigma^2_\epsilon}{\sigma^2_{\theta_j,X}(x_*)+\sigma^2_\epsilon}}_{\text{EPIG: predictive information at test points}}
#   \;+\;\beta\,\underbrace{\Big(H\big[\textstyle\sum_j w_j N(0,K_j)\big]-\sum_j w_j H[N(0,K_j)]\Big)}_{\text{BALD: } I(y_X;\theta)},$$
#
# where $K_j$ is the noisy prior covariance of $y_X$ under $\theta_j$. For a fixed $\theta$ the GP's
# posterior variance does not depend on the observed values, which is why EPIG has a closed form; the mixture
# entropy of BALD is estimated by Monte Carlo. Its one-point building block is
# `gaussian_information_gain(v, s)` $=\tfrac12\log(1+v/s)$, the information a noisy observation carries about
# the latent value. The batch is built greedily over a Sobol candidate set. Kernels:
# `src/repro/papers/hipe_informed_init_bo.py`.
#
# ## The experiment
#
# For each test function and seed we draw an initial batch of $q$ points by five designs: **HIPE**
# ($\beta=1$), **Sobol** (scrambled), **random** (uniform), and two controls, **BALD only** (the
# hyperparameter term alone, no space filling) and **EPIG only** ($\beta=0$, the method without its
# hyperparameter term, akin to NIPV). A sixth design, **HIPE with tuned $\beta$**, was added after the first
# run (post hoc, see the claims): there, $\beta$ follows the BoTorch community rule, the largest over 8
# Sobol batches of the test-point-averaged information $I(y(x_*);\theta\mid X_b)$ (about 0.1 to 0.3 nats
# here instead of 1). We then fit botorch's `SingleTaskGP` (default priors, MLL fit) to the
# batch and measure (a) the test RMSE on 1024 Sobol points, divided by the function's standard deviation,
# (b) on the GP-sample function, where the true lengthscales are known, the mean absolute log error of the
# fitted lengthscales, and (c) the simple regret after one further batch of $q$ points chosen by `qLogEI`
# (discrete, over 256 Sobol candidates, 128 QMC samples), divided by $f^* - \mathrm{median}(f)$. All designs of one seed
# are run in the same loop.
#
# Test functions (to maximise, on the unit cube): **gp4**, a sample path of a 4-D RBF GP with lengthscales
# (0.2, 0.5, 2, 10) (two near-irrelevant inputs); **Branin** (2-D); at full scale also **Hartmann-6**.
# ci: gp4 and Branin, 2 seeds, $q=8$; full: the three functions, 4 seeds, $q=16$.
#
# **Deviations from the paper**
#
# * Fixed hyperparameter samples: 8 (ci) or 16 (full) lengthscale vectors from LogNormal(log 0.5, 1) per dimension, output
#   scale 1, noise variance $10^{-3}$, uniform weights; the paper (and the BoTorch community
#   `qHyperparameterInformedPredictiveExploration`) uses a fully Bayesian GP fitted by NUTS.
# * $\beta = 1$ (both terms are in nats) for the pre-registered claims; the community implementation tunes
#   $\beta$ from the hyperparameter information of Sobol batches, which we added post hoc as a sixth design
#   (computed with stratified quantiles instead of its MC sampler). No $\beta$ sweep here.
# * Greedy batch construction over 96 (ci) or 192 (full) Sobol candidates instead of gradient-based
#   joint optimisation of the batch; BALD by Monte Carlo with 16 draws per component and common random
#   numbers.
# * Only one BO batch after initialisation; the GP-sample objective is a random-Fourier-feature
#   approximation (512 features); few seeds; no LHS or entropy-based baselines, no active-learning benchmarks.
# * No official code was found; the brief's reading of the method is inferred from the abstract and the
#   BoTorch community implementation of the same name, which we read but did not run.

# %%
results = {fn: {dz: [] for dz in DESIGNS} for fn in P.functions}
batches = {}
for fn in P.functions:
    for s in progress(SEEDS, desc=fn):
        f, d, f_max, true_ls = K.make_objective(fn, s)
        for dz in DESIGNS:
            X0 = K.initial_design(dz, d, P.q, s, n_candidates=P.n_candidates, n_theta=P.n_theta, n_mc=P.n_mc)
            r = K.evaluate_design(X0, f, f_max, true_ls, seed=s)
            r["mpd"] = K.min_pairwise_distance(X0)
            results[fn][dz].append(r)
            if s == SEEDS[0]:
                batches[(fn, dz)] = X0


def metric(fn, dz, key):
    """Array over seeds of one metric."""
    return np.array([r[key] for r in results[fn][dz]])


for fn in P.functions:
    print(fn)
    for dz in DESIGNS:
        print(f"  {LABELS[dz]:22s} RMSE {np.median(metric(fn, dz, 'rmse')):.3f}  "
              f"regret {np.median(metric(fn, dz, 'regret')):.3f}  "
              f"ls err {np.median(metric(fn, dz, 'ls_err')):.3f}  min dist {np.median(metric(fn, dz, 'mpd')):.3f}")

# %% [markdown]
# ## Results
#
# Per function, the normalised test RMSE of the GP fitted to the initial batch and the simple regret after
# one qLogEI batch; dots are seeds, bars are medians.

# %%
fig, axes = plt.subplots(2, len(P.functions), figsize=(4.2 * len(P.functions), 6.4), squeeze=False)
for col, fn in enumerate(P.functions):
    for row, (key, lab) in enumerate([("rmse", "test RMSE / std f  (unitless)"),
                                      ("regret", "simple regret after 1 BO batch\n(/ (f* - median f), unitless)")]):
        ax = axes[row, col]
        for i, dz in enumerate(DESIGNS):
            v = metric(fn, dz, key)
            ax.scatter(np.full(v.size, i) + np.linspace(-0.15, 0.15, v.size), v, color=COLORS[dz], s=14)
            ax.hlines(np.median(v), i - 0.3, i + 0.3, color=COLORS[dz], lw=2.5)
        ax.set_xticks(range(len(DESIGNS)), [LABELS[dz].split(" (")[0] for dz in DESIGNS], rotation=30, fontsize=8)
        ax.set_ylabel(lab, fontsize=8)
        ax.set_title(f"{fn}, q = {P.q}, {len(SEEDS)} seeds", fontsize=9)
        ax.set_xlabel("initial design")
plt.show()

# %% [markdown]
# The first seed's initial batches on Branin (2-D), and the lengthscale error on the GP sample, where the true
# lengthscales are known (dots are seeds, bars medians).

# %%
fig, axes = plt.subplots(1, 4, figsize=(15, 3.8))
for ax, dz in zip(axes[:3], ["hipe", "sobol", "bald"]):
    X0 = batches[("branin", dz)]
    ax.scatter(X0[:, 0], X0[:, 1], color=COLORS[dz], s=30)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("x1 (unit cube)")
    ax.set_ylabel("x2 (unit cube)")
    ax.set_title(f"Branin: {LABELS[dz]}, q = {P.q}", fontsize=9)
ax = axes[3]
for i, dz in enumerate(DESIGNS):
    v = metric("gp4", dz, "ls_err")
    ax.scatter(np.full(v.size, i) + np.linspace(-0.15, 0.15, v.size), v, color=COLORS[dz], s=14)
    ax.hlines(np.median(v), i - 0.3, i + 0.3, color=COLORS[dz], lw=2.5)
ax.set_xticks(range(len(DESIGNS)), [LABELS[dz].split(" (")[0] for dz in DESIGNS], rotation=30, fontsize=8)
ax.set_ylabel("mean |log fitted ls - log true ls|  (nats)")
ax.set_xlabel("initial design")
ax.set_title("gp4: lengthscale identification", fontsize=9)
plt.show()

# %% [markdown]
# The paper's numbers were not retrieved, so there is no table of its values beside ours; the claims below
# are directional, with thresholds taken from the brief.
#
# ## Claims
#
# Each claim pools the (function, seed) pairs: for a design $A$ against a baseline $B$ we take the median over
# pairs of the per-pair ratio (RMSE) or difference (regret, lengthscale error), and the claim must hold
# against both Sobol and random (the worse of the two is reported). The control puts a design that should not
# have the property in HIPE's place.

# %%
PAIRS = [(fn, i) for fn in P.functions for i in range(len(SEEDS))]


def pooled(dz, key):
    """Values of one metric for design dz over all (function, seed) pairs."""
    return np.array([results[fn][dz][i][key] for fn, i in PAIRS])


def worst_vs_baselines(dz, key, how):
    """max over {Sobol, random} of the median over pairs of dz's ratio or difference to the baseline."""
    a = pooled(dz, key)
    vals = [np.median(a / pooled(b, key)) if how == "ratio" else np.median(a - pooled(b, key))
            for b in ("sobol", "random")]
    return float(max(vals))


TOL = tolerance(rel=0.1, abs=0.02, why="GP fits by L-BFGS and MC entropies move with the platform's numerics")
claims.check("hipe-predicts-better",
             statement="HIPE's initial batch gives a GP whose test RMSE is at most 1.05 x that of Sobol and of "
                       "random designs (median over functions and seeds of the per-pair RMSE ratio; the worse "
                       "baseline reported)",
             paper="HIPE outperforms standard initialisations in predictive accuracy (no number retrieved)",
             criterion=at_most(1.05), measured=worst_vs_baselines("hipe", "rmse", "ratio"),
             control=worst_vs_baselines("bald", "rmse", "ratio"),
             control_label="BALD-only batch (hyperparameter information, no space filling)", tol=TOL)
claims.check("hipe-optimises-better",
             statement="After one qLogEI batch, HIPE's simple regret is no larger than after a Sobol or a "
                       "random initial batch (median over pairs of the regret difference <= 0; worse baseline)",
             paper="HIPE improves subsequent few-shot, large-batch BO over standard initialisations "
                   "(no number retrieved)",
             criterion=at_most(0.0), measured=worst_vs_baselines("hipe", "regret", "diff"),
             control=worst_vs_baselines("bald", "regret", "diff"),
             control_label="BALD-only batch (hyperparameter information, no space filling)", tol=TOL)
ls_h, ls_s, ls_e = (metric("gp4", dz, "ls_err") for dz in ("hipe", "sobol", "epig"))
claims.check("hipe-identifies-lengthscales",
             statement="On the GP sample with known lengthscales, HIPE's batch gives a fitted lengthscale log "
                       "error no larger than Sobol's (median over seeds of the difference <= 0)",
             paper="HIPE improves hyperparameter identification over standard initialisations "
                   "(no number retrieved)",
             criterion=at_most(0.0), measured=float(np.median(ls_h - ls_s)),
             control=float(np.median(ls_e - ls_s)),
             control_label="EPIG-only batch (HIPE without its hyperparameter term, beta = 0)", tol=TOL)

claims.check("hipe-tuned-beta-predicts-better",
             statement="HIPE with the community's tuned beta gives a test RMSE at most 1.05 x that of Sobol and "
                       "of random designs (same statistic as hipe-predicts-better)",
             paper="HIPE outperforms standard initialisations in predictive accuracy (no number retrieved)",
             criterion=at_most(1.05), measured=worst_vs_baselines("hipe-tuned", "rmse", "ratio"),
             control=worst_vs_baselines("bald", "rmse", "ratio"),
             control_label="BALD-only batch (hyperparameter information, no space filling)", tol=TOL,
             post_hoc="added after the first run, where beta = 1 lost to Sobol: beta = 1 weights BALD far more "
                      "than the reference implementation's tuned beta (about 0.1-0.3 nats)")

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **At ci scale ($q=8$, gp4 and Branin, 2 seeds): not reproduced.** In the run shown above (claims table),
# HIPE's initial batch with $\beta=1$ gave a GP that predicted *worse* than a Sobol batch (median RMSE ratio to
# the worse of Sobol and random well above 1.05), its one-batch simple regret was not lower than Sobol's and
# random's, and its fitted lengthscale error on the GP sample was not lower than Sobol's. The post-hoc
# variant with the community's tuned $\beta$ (about 0.1 to 0.3 nats) did not change the prediction verdict.
# Over ci seeds 0-9 (sweep record in `book/sweeps/ci/`, the book's robustness table) every status is
# seed-sensitive, with the medians on the failing side: the prediction claim passed at 4 of 10 seeds (median
# ratio 1.13), the regret claim at 2 (median difference +0.046), the lengthscale claim at 3 (median +0.12), and
# the tuned-$\beta$ variant at 5 (median ratio 1.05, on the threshold). At $q=8$ HIPE is not reliably better
# than Sobol or random.
#
# **At full scale ($q=16$, gp4, Branin and Hartmann-6, 4 seeds; seed 0 in `book/sweeps/full/`): the
# prediction and optimisation claims were reproduced, each with its BALD-only control failing**: HIPE's
# RMSE came out below that of both Sobol and random (ratio below 1, control above 1.05), and its simple
# regret after one qLogEI batch was no larger (median difference 0, i.e. ties on several pairs; the control
# was worse). The tuned-$\beta$ variant also passed. The lengthscale claim passed but is *uninformative*:
# its control, EPIG only, passed too and by more, so the hyperparameter term is not what helped
# identification here. This fits the paper's statement that the gain shows in large batches, but our two
# scales also differ in functions (Hartmann-6 only at full), candidate-set size and hyperparameter samples,
# so the batch size alone is not isolated; only one full seed was swept.
#
# Why HIPE loses at ci: the hyperparameter term pulls points together (on gp4 the batch's minimum pairwise
# distance falls from about 0.4 for Sobol to about 0.15 for HIPE), which a GP fitted by maximum likelihood
# with botorch's default priors does not turn into better predictions with 8 points; with 16 points the
# close pairs cost less coverage. Our hyperparameter samples come from a fixed LogNormal prior rather than
# the paper's fully Bayesian model, and greedy selection over a small candidate set is weaker than joint
# batch optimisation.
#
# ## What the miniature cannot show
#
# * The paper's fully Bayesian hyperparameter treatment (NUTS samples re-weighted by the data) and its tuned
#   $\beta$: our fixed prior samples and $\beta=1$ are one point of the design space, and HIPE's balance
#   depends on both.
# * Large-batch, higher-dimensional problems (the paper's motivating regime) and several BO rounds: we run one
#   initial batch of 8 or 16 points and one BO batch in 2 to 6 dimensions.
# * Statistical strength: 2 (ci) or 4 (full) seeds per function give medians with wide spread; the sweeps over
#   seeds show how stable each status is.
