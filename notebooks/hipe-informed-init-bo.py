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

from myst_nb import glue

from repro.claims import Claims, Comparator, at_most, tolerance
from repro.papers import hipe_informed_init_bo as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    "ci": dict(functions=("gp4", "branin"), n_seeds=2, q=8, n_candidates=96, n_theta=8, n_mc=16),
    "full": dict(functions=("gp4", "branin", "hartmann6"), n_seeds=4, q=16, n_candidates=192, n_theta=16,
                 n_mc=16),
})
warnings.filterwarnings("ignore", message=".*balance properties of Sobol.*")
SEEDS = [P.seed * P.n_seeds + k for k in range(P.n_seeds)]  # disjoint seed sets across notebook seeds
DESIGNS = list(K.DESIGNS)  # hipe, sobol, random, lhs, maximin, bald, epig (ablation), hipe-tuned (post hoc)
LABELS = {"hipe": "HIPE (EPIG + BALD)", "sobol": "Sobol", "random": "random", "lhs": "LHS (baseline)",
          "maximin": "maximin (baseline)", "bald": "BALD only", "epig": "EPIG only (ablation)", "hipe-tuned": "HIPE, official beta (post hoc)"}
COLORS = {"hipe": "C3", "sobol": "C0", "random": "C7", "lhs": "C5", "maximin": "C8", "bald": "C1", "epig": "C2",
          "hipe-tuned": "C4"}
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
# For each test function and seed we draw an initial batch of $q$ points by eight designs: **HIPE**
# ($\beta=1$, the pre-registered configuration), **Sobol** (scrambled) and **random** (uniform), the two
# standard initialisations the claims compare against; **LHS** (scipy's Latin hypercube), a third standard
# design a skeptic would try; **maximin**, a greedy maximin-distance batch over HIPE's own Sobol candidates
# (no GP, no information criterion; added after the independent review as a second naive space-filling
# baseline); **EPIG only** ($\beta=0$: HIPE without its hyperparameter term, akin to NIPV),
# the ablation; **BALD only** (the hyperparameter term alone, no space filling), shown but not a comparator;
# and **HIPE with the official $\beta$**, added after the first run (post hoc, see the claims): $\beta$ follows
# the BoTorch community rule, the largest over 32 Sobol batches of size $q$ of the test-point-averaged
# conditional hyperparameter information $\frac1M\sum_{x_*} I(y(x_*);\theta\mid X_b)$, which is a fraction of a
# nat here instead of 1. We then fit botorch's `SingleTaskGP` (default priors, MLL fit) to the
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
# **Deviations from the paper and from the official code** (the BoTorch community
# `qHyperparameterInformedPredictiveExploration`, botorch 0.18.1, commit `cd0249c6` of meta-pytorch/botorch;
# we have not confirmed that it is the paper's experiment code)
#
# * **Surrogate model, not disclosed before this revision.** Our hyperparameter samples are 8 (ci) or 16 (full)
#   lengthscale vectors from LogNormal(log 0.5, 1) per dimension, with an RBF kernel, output scale fixed at 1,
#   noise variance $10^{-3}$, mean 0 and uniform weights. The official code uses a fully Bayesian GP fitted by
#   NUTS, with a Matern-5/2 kernel and *sampled* output scale, noise and constant mean. With our fixed output
#   scale and noise, the law of a single observation does not depend on $\theta$, so a one-point batch has BALD
#   exactly 0 (the official model gives it a positive value). Running the official model (NUTS needs JAX, which
#   is not installed, and its cost does not fit the ci budget) was not done: this departure can move every claim.
# * $\beta = 1$ (both terms in nats) for the pre-registered claims; the official code tunes $\beta$ as the
#   largest conditional hyperparameter information over 32 Sobol batches. We run that rule as a second,
#   post-hoc configuration (`hipe-tuned`), computing the 1-D mixture entropies by deterministic quadrature
#   instead of 128 QMC draws (our kernel agrees with the official class, see "Against the official code"). An
#   earlier version of this page used 8 batches and a 16-point quantile rule that was biased low by about
#   0.03 nats per batch; it was replaced by the official rule.
# * Greedy batch construction over 96 (ci) or 192 (full) Sobol candidates instead of gradient-based
#   joint optimisation of the batch; BALD by Monte Carlo with 16 draws per component and common random
#   numbers (official: 512 QMC samples).
# * Only one BO batch after initialisation; the GP-sample objective is a random-Fourier-feature
#   approximation (512 features); few seeds; no entropy-based baselines, no active-learning benchmarks.
# * After the initial batch we fit botorch's `SingleTaskGP` by maximum likelihood (default priors) and judge
#   prediction, lengthscales and the BO batch on that point estimate; the paper's pipeline uses a fully
#   Bayesian (SAAS/NUTS) model, and possibly measures hyperparameter identification on its posterior (not
#   retrieved).
# * The paper's brief describes $\beta$ as a mean ratio of the two terms; the official code instead takes the
#   largest conditional hyperparameter information over 32 Sobol batches, and we follow the code.
#
# **Against the official code.** The golden file `tests/papers/golden/hipe-informed-init-bo.json` holds the
# official classes' outputs (run from the installed botorch 0.18.1, whose files' sha256 it stores, with the
# model's kernel swapped to our RBF surrogate and "no data" emulated by one far-away training point) on fixed
# inputs, and the unit tests hold our kernels to them: TSIG agrees to rounding; the conditional hyperparameter
# information within the official sampler's Monte Carlo error; the $\beta$ rule, where the golden file runs the
# official `_compute_tuning_factor` itself on its own 32 Sobol batches and our `tuned_beta` on the same batches
# agrees within that Monte Carlo error; BALD and HIPE's forward at a fixed $\beta$ within Monte Carlo error; a
# single point's BALD is 0 on both sides (true by construction of the unit output scale, so it documents the
# deviation rather than tests anything). The golden file checks our arithmetic on our surrogate model, not the
# model. Further unit tests pin `initial_design`'s dispatch (HIPE uses $\beta=1$, EPIG only $\beta=0$, the
# official $\beta$ comes from 32 Sobol batches of size $q$). What differs is listed above: the model, $\beta=1$,
# the batch optimiser and the sample counts.

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
# Each claim pools the (function, seed) pairs: for a design $A$ against a reference $B$ we take the median over
# pairs of the per-pair ratio (RMSE) or difference (regret, lengthscale error), and the claim must hold
# against both Sobol and random (the worse of the two is reported). Every comparator is measured by the same
# statistic in HIPE's place: the ablation is EPIG only (HIPE without its hyperparameter term, $\beta=0$), and
# the naive baselines are a Latin hypercube and a greedy maximin-distance batch (for the lengthscale test also
# the random design, against Sobol). The tolerance band is wide: at the prediction threshold
# {glue:text}`thr_pred:.2f` a ratio must be below {glue:text}`pred_pass_below:.3f` to pass outside the band, a gain
# of several percent over the better of Sobol and random, so most designs land "at the edge".
#
# Headline mapping: `hipe-predicts-better` and `hipe-tuned-beta-predicts-better` are one measurement in two
# configurations ($\beta=1$ pre-registered, the official $\beta$ post hoc) that share the ablation, baselines
# and references, so at most one of them may count for the prediction headline. The regret test maps to the
# few-shot BO headline, but our miniature ($q=8$ at ci, one BO batch) cannot test "especially with large
# batches". Active learning, half of the paper's title, is out of scope: no active-learning benchmark is run
# here, so it is not among the headlines mapped below (the book allows at most four).

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


THR_PRED = 1.05  # the brief: RMSE at most 1.05 x Sobol
TOL = tolerance(rel=0.1, abs=0.02, why="GP fits by L-BFGS and MC entropies move with the platform's numerics")
ABL = "EPIG-only batch (HIPE without its hyperparameter term, beta = 0; NIPV-like space filling)"
ING = "the hyperparameter-information (BALD) term"
LHS = "Latin hypercube design (scipy, no GP, no information criterion)"
MAXIMIN = "greedy maximin-distance batch over HIPE's own Sobol candidates (no GP, no information criterion)"
pred = {dz: worst_vs_baselines(dz, "rmse", "ratio") for dz in DESIGNS if dz not in ("sobol", "random")}
regr = {dz: worst_vs_baselines(dz, "regret", "diff") for dz in DESIGNS if dz not in ("sobol", "random")}
ls_err = {dz: metric("gp4", dz, "ls_err") for dz in DESIGNS}
lsd = {dz: float(np.median(ls_err[dz] - ls_err["sobol"])) for dz in DESIGNS if dz != "sobol"}

claims.headline("predicts-better", "An initial batch chosen by HIPE gives a GP that predicts better than "
                "standard (quasi-)random initial designs",
                tests=["hipe-predicts-better", "hipe-tuned-beta-predicts-better"])
claims.headline("identifies-hyperparameters", "HIPE's initial batch identifies the GP's hyperparameters "
                "better than standard initial designs", tests=["hipe-identifies-lengthscales"])
claims.headline("better-few-shot-bo", "Subsequent few-shot BO, especially with large batches, does better "
                "after a HIPE initial batch", tests=["hipe-optimises-better"])
claims.headline("closed-form", "HIPE has a closed form for Gaussian processes",
                untestable="a derivation, not an empirical statement; the predictive term's closed form is "
                           "checked as an implementation against the official community code (golden file), "
                           "and the hyperparameter term is a Monte Carlo estimate on both sides")

claims.test("hipe-predicts-better",
            statement="HIPE's initial batch gives a GP whose test RMSE is at most 1.05 x that of Sobol and of "
                      "random designs (median over functions and seeds of the per-pair RMSE ratio; the worse "
                      "baseline reported)",
            paper="HIPE outperforms standard initialisations in predictive accuracy (no number retrieved)",
            criterion=at_most(THR_PRED), measured=pred["hipe"],
            ablation=Comparator(ABL, pred["epig"], ingredient=ING),
            baselines=[Comparator(LHS, pred["lhs"]), Comparator(MAXIMIN, pred["maximin"])], tol=TOL)
claims.test("hipe-optimises-better",
            statement="After one qLogEI batch, HIPE's simple regret is no larger than after a Sobol or a "
                      "random initial batch (median over pairs of the regret difference <= 0; worse baseline)",
            paper="HIPE improves subsequent few-shot, large-batch BO over standard initialisations "
                  "(no number retrieved)",
            criterion=at_most(0.0), measured=regr["hipe"],
            ablation=Comparator(ABL, regr["epig"], ingredient=ING),
            baselines=[Comparator(LHS, regr["lhs"]), Comparator(MAXIMIN, regr["maximin"])], tol=TOL)
claims.test("hipe-identifies-lengthscales",
            statement="On the GP sample with known lengthscales, HIPE's batch gives a fitted lengthscale log "
                      "error no larger than Sobol's (median over seeds of the difference <= 0)",
            paper="HIPE improves hyperparameter identification over standard initialisations "
                  "(no number retrieved)",
            criterion=at_most(0.0), measured=lsd["hipe"],
            ablation=Comparator(ABL, lsd["epig"], ingredient=ING),
            baselines=[Comparator("uniformly random design", lsd["random"]), Comparator(LHS, lsd["lhs"]),
                       Comparator(MAXIMIN, lsd["maximin"])],
            tol=TOL)
claims.test("hipe-tuned-beta-predicts-better",
            statement="HIPE with the official community rule for beta (largest conditional hyperparameter "
                      "information over 32 Sobol batches) gives a test RMSE at most 1.05 x that of Sobol and "
                      "of random designs (same statistic as hipe-predicts-better)",
            paper="HIPE outperforms standard initialisations in predictive accuracy (no number retrieved)",
            criterion=at_most(THR_PRED), measured=pred["hipe-tuned"],
            ablation=Comparator(ABL, pred["epig"], ingredient=ING),
            baselines=[Comparator(LHS, pred["lhs"]), Comparator(MAXIMIN, pred["maximin"])], tol=TOL,
            post_hoc="added after the first run, where beta = 1 lost to Sobol; its beta rule was changed again "
                     "in the issue-33 revision from 8 batches and a biased 16-point quadrature to the official "
                     "32 batches and an accurate entropy, so it is post hoc twice over")

for dz in DESIGNS:
    k = dz.replace("-", "_")
    if dz in pred:
        glue(f"pred_{k}", pred[dz], display=False)
        glue(f"regr_{k}", regr[dz], display=False)
    if dz in lsd:
        glue(f"lsd_{k}", lsd[dz], display=False)
    glue(f"mpd_gp4_{k}", float(np.median(metric("gp4", dz, "mpd"))), display=False)
glue("q", int(P.q), display=False)
glue("thr_pred", THR_PRED, display=False)
glue("n_seeds", len(SEEDS), display=False)
glue("pred_pass_below", THR_PRED - TOL.slack(THR_PRED, THR_PRED), display=False)
# regret test at this seed: how many designs (all but the Sobol and random references) pass outside the band
regr_pass = [dz for dz in regr if regr[dz] < 0 and abs(regr[dz]) > TOL.slack(regr[dz], 0.0)]
glue("n_regr_pass", len(regr_pass), display=False)
glue("n_regr_designs", len(regr), display=False)
print({"pred": pred, "regr": regr, "lsd": lsd})

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# The page has four tests; three are pre-registered (`hipe-predicts-better`, `hipe-optimises-better`,
# `hipe-identifies-lengthscales`: their method, setting and criterion are those of the page's first run, and
# they only gained comparators) and one is post hoc (`hipe-tuned-beta-predicts-better`). Values below are from
# the notebook's own run ({glue:text}`n_seeds` seeds per function at $q=$ {glue:text}`q`); the counts over
# seeds come from the ci sweep.
#
# * *Prediction* ({repro-status}`hipe-predicts-better`). HIPE's median RMSE ratio to the worse of Sobol and
#   random is {glue:text}`pred_hipe:.2f` (criterion: at most {glue:text}`thr_pred:.2f`); without its hyperparameter term (EPIG only)
#   it is {glue:text}`pred_epig:.2f`, a Latin hypercube gets {glue:text}`pred_lhs:.2f` and the maximin batch
#   {glue:text}`pred_maximin:.2f`. Over the sweep HIPE passes at {repro-seeds}`hipe-predicts-better:method:pass`
#   seeds, EPIG only at {repro-seeds}`hipe-predicts-better:ablation:pass`, LHS at
#   {repro-seeds}`hipe-predicts-better:baseline1:pass` and maximin at
#   {repro-seeds}`hipe-predicts-better:baseline2:pass`.
# * *One BO batch later* ({repro-status}`hipe-optimises-better`). The median regret difference to the worse of
#   Sobol and random is {glue:text}`regr_hipe:.3f` for HIPE (criterion: at most 0), {glue:text}`regr_epig:.3f`
#   for EPIG only, {glue:text}`regr_lhs:.3f` for LHS and {glue:text}`regr_maximin:.3f` for maximin; over the
#   sweep HIPE passes at {repro-seeds}`hipe-optimises-better:method:pass` seeds, EPIG only at
#   {repro-seeds}`hipe-optimises-better:ablation:pass`, LHS at {repro-seeds}`hipe-optimises-better:baseline1:pass`
#   and maximin at {repro-seeds}`hipe-optimises-better:baseline2:pass`. **This test has no power at ci.** In
#   this run {glue:text}`n_regr_pass` of the {glue:text}`n_regr_designs` designs compared with Sobol and random
#   pass outside the band; with one batch of 8 points the median of 4 regret differences is often a tie at 0,
#   and the ci sweep table shows how rarely any design, HIPE or naive, passes at any seed. Its "not reproduced"
#   is therefore no evidence against the paper's large-batch claim.
# * *Lengthscales* ({repro-status}`hipe-identifies-lengthscales`). On the GP sample HIPE's fitted lengthscale
#   log error is {glue:text}`lsd_hipe:.3f` nats from Sobol's (criterion: at most 0); EPIG only,
#   {glue:text}`lsd_epig:.3f`; random, {glue:text}`lsd_random:.3f`; LHS, {glue:text}`lsd_lhs:.3f`; maximin,
#   {glue:text}`lsd_maximin:.3f`. Over the sweep HIPE passes at
#   {repro-seeds}`hipe-identifies-lengthscales:method:pass` seeds, EPIG only at
#   {repro-seeds}`hipe-identifies-lengthscales:ablation:pass` and maximin at
#   {repro-seeds}`hipe-identifies-lengthscales:baseline3:pass`. If the space-filling ablation or the maximin
#   batch passes at least as often as HIPE, the hyperparameter term is not what helps in our miniature.
# * *Official $\beta$, post hoc* ({repro-status}`hipe-tuned-beta-predicts-better`). With the community rule for
#   $\beta$ the ratio is {glue:text}`pred_hipe_tuned:.2f`; over the sweep it passes at
#   {repro-seeds}`hipe-tuned-beta-predicts-better:method:pass` seeds, against the same ablation and baselines as
#   the $\beta=1$ test. It moves the badge only once confirmed on seeds 10-19, and then counts for the
#   prediction headline instead of, not beside, the $\beta=1$ test.
#
# Why HIPE's batch differs from Sobol's: the hyperparameter term pulls points together (on gp4 the median minimum pairwise
# distance of the batch is {glue:text}`mpd_gp4_sobol:.2f` for Sobol, {glue:text}`mpd_gp4_hipe:.2f` for HIPE with
# $\beta=1$, {glue:text}`mpd_gp4_hipe_tuned:.2f` with the official $\beta$, {glue:text}`mpd_gp4_maximin:.2f`
# for maximin and {glue:text}`mpd_gp4_bald:.2f` for BALD only), which a GP fitted by maximum likelihood with
# botorch's default priors need not turn into better predictions with 8 points. Our surrogate for the
# hyperparameter posterior (RBF, fixed output scale and noise) differs from the official fully Bayesian Matern
# model, so a verdict against HIPE here is a verdict against our miniature of it as much as against the method.
#
# At full scale ($q=16$, gp4, Branin and Hartmann-6, 4 seeds per function) the statuses of this revision are
# those of the full-scale sweep table; this page states no full-scale number of its own.
#
# ## What a skeptic would try
#
# Under the tests' own statistic ({glue:text}`n_seeds` seeds per function in this run):
#
# * **A Latin hypercube** instead of Sobol or random: RMSE ratio {glue:text}`pred_lhs:.2f`, regret difference
#   {glue:text}`regr_lhs:.3f`, lengthscale error difference {glue:text}`lsd_lhs:.3f`.
# * **A greedy maximin-distance batch** over HIPE's own candidates, with no GP at all: RMSE ratio
#   {glue:text}`pred_maximin:.2f`, regret difference {glue:text}`regr_maximin:.3f`, lengthscale error difference
#   {glue:text}`lsd_maximin:.3f`. It is a comparator of every test.
# * **Drop the hyperparameter term** (EPIG only, a NIPV-like space-filling design from the same candidates and
#   test points): RMSE ratio {glue:text}`pred_epig:.2f`, regret difference {glue:text}`regr_epig:.3f`,
#   lengthscale error difference {glue:text}`lsd_epig:.3f`.
# * **Only the hyperparameter term** (BALD only): RMSE ratio {glue:text}`pred_bald:.2f`, regret difference
#   {glue:text}`regr_bald:.3f`, lengthscale error difference {glue:text}`lsd_bald:.3f`. Not a comparator: it
#   gives up space filling by construction.
# * **The official $\beta$** instead of 1: RMSE ratio {glue:text}`pred_hipe_tuned:.2f`, regret difference
#   {glue:text}`regr_hipe_tuned:.3f`, lengthscale error difference {glue:text}`lsd_hipe_tuned:.3f`. Its
#   lengthscale result is not a test; were it one, it would face the same ablation and maximin comparators, whose
#   pass counts on the lengthscale test are in the sweep table.
#
# Reviewed by an independent skeptic (own scripts, ci preset, notebook seeds 0-9 only, single-threaded); what
# they tried is above. They also ran a second scrambled Sobol design against the reference Sobol and random
# designs, which passes the prediction and lengthscale criteria at about as many seeds as EPIG only and LHS do:
# that is the noise floor of these criteria at ci, and a design must clear it, not just pass, to show an
# effect. A design of Sobol points each paired with a close neighbour (a classic trick for lengthscales) did
# no better than HIPE in their runs. These two are not run here, so the page shows no numbers for them. The reviewer also ran the
# official $\beta$ rule itself; the golden file now does so too (see "Against the official code").
#
# ## What the miniature cannot show
#
# * The paper's fully Bayesian hyperparameter treatment (NUTS samples of lengthscales, output scale, noise and
#   mean with a Matern-5/2 kernel): our fixed RBF prior samples with unit scale are one point of the design
#   space, and HIPE's balance depends on them; with them a single point carries no hyperparameter information.
# * Large-batch, higher-dimensional problems (the paper's motivating regime) and several BO rounds: we run one
#   initial batch of 8 or 16 points and one BO batch in 2 to 6 dimensions.
# * Statistical strength: 2 (ci) or 4 (full) seeds per function give medians with wide spread; the sweeps over
#   seeds show how stable each status is.
