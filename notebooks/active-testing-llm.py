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
# # Active testing with a cheap surrogate: LURE and its bootstrap (small models in place of LLMs)
#
# *To estimate a model's test risk from few labels, label the points that a cheap, fixed surrogate expects to
# be costly, correct the bias with LURE weights, and read the estimate's error off a bootstrap of the same run;
# the estimate is then more accurate than one from randomly chosen labels.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import warnings

import matplotlib.pyplot as plt
import numpy as np
from scipy.stats import spearmanr
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.neural_network import MLPClassifier

from repro.claims import Claims, at_least, at_most, between, greater_than, tolerance
from repro.papers import active_testing_llm as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    "ci": dict(repeats=300, boot_runs=100),
    "full": dict(repeats=3000, boot_runs=1000),
})
N_TRAIN, N_CONTEXT, N_POOL = 300, 150, 1000   # target's training set, surrogate's "context", test pool
BUDGETS = (10, 25, 50, 100)                   # labels acquired M
M_CLAIM = 50                                  # the budget of the brief's checks
MIX = 0.1                                     # proposal mixed with 10 % uniform
B = 200                                       # bootstrap resamples per run
warnings.filterwarnings("ignore", category=ConvergenceWarning)
plt.rcParams["savefig.dpi"] = 90
claims = Claims("active-testing-llm", title="Scaling Up Active Testing to Large Language Models",
                authors="Gabrielle Berrada, Jannik Kossen, Freddie Bickford Smith, Muhammed Razzak, Yarin Gal, "
                        "Tom Rainforth",
                paper_url="https://arxiv.org/abs/2508.09093", scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# Evaluating a model needs labelled test data, and labels are expensive. *Active testing* (Kossen et al., 2021)
# chooses which test points to label: points where the model is likely to incur a large loss are drawn more
# often. The bias this creates is removed by the LURE weights (Farquhar et al., 2021). The paper (Berrada et al.,
# NeurIPS 2025) makes this cheap enough for large language models. The surrogate that guides the acquisition can
# be built by in-context learning; it need not be updated during the loop; it can be smaller than the target;
# and acquisition can even ignore the target's predictions. Risk estimates are then "much more accurate" than with
# randomly labelled data. A secondary summary quotes a 25-80 % lower estimation error (not verified by us). A
# bootstrap of the acquired points is proposed as an error estimate available within a single run.
#
# **Here the large language models are replaced by small models trained in this notebook**: the target is a
# small neural network, the surrogate a logistic regression fitted once on a small labelled "context" set. Nothing
# on this page involves a language model.
#
# ## The method
#
# A pool of $N$ inputs, target $f$, loss $L_i = -\log f(y_i\mid x_i)$, risk $R = \frac1N\sum_i L_i$.
#
# 1. **Acquisition scores.** With the surrogate $\pi$, $s_i = \mathbb E_{y\sim\pi(\cdot\mid x_i)}[-\log f(y\mid x_i)]
#    = -\sum_c \pi(c\mid x_i)\log f(c\mid x_i)$, the official default ("CE"). Target-free variant: the
#    surrogate's predictive entropy $-\sum_c\pi(c\mid x_i)\log\pi(c\mid x_i)$, which needs no target prediction.
# 2. **Proposal** $q_i = 0.9\,s_i/\sum_j s_j + 0.1/N$.
# 3. **Sampling.** $M$ points without replacement, each from $q$ renormalised over the points left, so draw $m$
#    has probability $q_m(i_m) = q_{i_m}/(1-\sum_{k<m}q_{i_k})$.
# 4. **LURE** (unbiased for $R$):
#
# $$\hat R_{\rm LURE} = \frac1M\sum_{m=1}^M v_m L_{i_m},\qquad
#   v_m = 1 + \frac{N-M}{N-m}\left(\frac{1}{(N-m+1)\,q_m(i_m)} - 1\right).$$
#
#    `K.lure_estimate(losses, probs)` takes the losses in the order drawn and the proposal over the whole pool
#    listed in the same order (acquired points first); the pool size is `len(probs)`.
# 5. **Bootstrap.** Resample the $M$ pairs $(v_m, L_{i_m})$ with replacement $B = 200$ times and take the
#    standard deviation of $\frac1M\sum v L$: an error bar from a single run.
#
# ## The experiment
#
# **Data.** scikit-learn's 8 × 8 digits (1,797 images), split at random per seed: 300 images train the target,
# 150 are the surrogate's labelled context, 1,000 form the test pool; the rest is unused.
#
# **Models.** Target: an MLP with one hidden layer of 32 units (scikit-learn, 300 epochs of Adam). Surrogate: a
# logistic regression fitted once on the 150 context images and never updated: cheaper than the target, and
# trained on less data.
#
# **Estimators** at budgets $M \in \{10, 25, 50, 100\}$, each over many independent acquisitions of the same pool:
# random labelling (the mean of $M$ random losses); LURE with CE acquisition; LURE with target-free acquisition;
# two references: LURE with the *true* losses as scores (an oracle that no one has) and LURE with the CE scores
# shuffled across the pool (a surrogate that knows nothing: the control).
#
# | preset | acquisitions per estimator and budget | single runs for the bootstrap check |
# |---|---|---|
# | ci | 300 | 100 |
# | full | 3,000 (the official RUNS) | 1,000 |
#
# **Deviations from the paper**
#
# - **No language models.** Target and surrogate are small classifiers trained here; "in-context learning" becomes
#   fitting a logistic regression on 150 labelled examples. The 150 were chosen in an exploratory run so that, as
#   in the official SST-2 notebook (7B surrogate with 50 examples, 93 % against the 70B target's 94 %), the
#   surrogate is nearly as accurate as the target; with 50 examples ours reached about 81 %.
# - **Data.** Digit images instead of text classification (SST-2, FPB, HateSpeech, Subjectivity).
# - **Proposal.** Mixed once with 10 % uniform and renormalised over the remaining points. The official code
#   instead floors the renormalised weights at `clip_percentage / remaining` at every step; both keep every
#   point's probability positive.
# - **Budget.** Up to 100 labels in a pool of 1,000, instead of the official 400 labels.

# %% [markdown]
# ## Results

# %%
def make_models(s):
    rng = np.random.default_rng(s)
    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    perm = rng.permutation(len(y))
    tr, ctx = perm[:N_TRAIN], perm[N_TRAIN:N_TRAIN + N_CONTEXT]
    pool = perm[len(y) - N_POOL:]
    target = MLPClassifier((32,), max_iter=300, random_state=s).fit(X[tr], y[tr])
    surrogate = LogisticRegression(max_iter=500).fit(X[ctx], y[ctx])
    return target.predict_proba(X[pool]), surrogate.predict_proba(X[pool]), y[pool]


p_t, p_s, y_pool = make_models(P.seed)
L = K.cross_entropy_losses(p_t, y_pool)
R = float(L.mean())
rng = np.random.default_rng(10_000 + P.seed)
scores = {"LURE, CE acquisition": K.expected_loss_under_surrogate(p_t, p_s),
          "LURE, target-free": K.surrogate_entropy(p_s),
          "LURE, true-loss oracle": L,
          "LURE, shuffled scores (control)": None}
scores["LURE, shuffled scores (control)"] = rng.permutation(scores["LURE, CE acquisition"])
Q = {k: K.acquisition_probs(v, MIX) for k, v in scores.items()}
print(f"target accuracy {np.mean(p_t.argmax(1) == y_pool):.3f}, surrogate accuracy {np.mean(p_s.argmax(1) == y_pool):.3f}, "
      f"pool risk R = {R:.4f} nats; Spearman(CE score, true loss) = {spearmanr(scores['LURE, CE acquisition'], L)[0]:.2f}")


# %%
def lure_run(q, M):
    idx, _ = K.sample_sequential(q, M, rng)
    rest = np.ones(len(q), bool)
    rest[idx] = False
    probs = np.concatenate([q[idx], q[rest]])
    return idx, probs


est = {k: np.zeros((len(BUDGETS), P.repeats)) for k in ["random labels", *Q]}
naive_active = np.zeros(P.repeats)      # the unweighted mean of the actively acquired losses (biased)
for b, M in enumerate(progress(BUDGETS, desc="budgets")):
    for r in range(P.repeats):
        est["random labels"][b, r] = L[rng.choice(len(L), M, replace=False)].mean()
        for k, q in Q.items():
            idx, probs = lure_run(q, M)
            est[k][b, r] = K.lure_estimate(L[idx], probs)
            if M == M_CLAIM and k == "LURE, CE acquisition":
                naive_active[r] = L[idx].mean()
mse = {k: ((v - R) ** 2).mean(1) for k, v in est.items()}
bM = BUDGETS.index(M_CLAIM)
for k in est:
    print(f"{k:34s} MSE " + "  ".join(f"M={M}: {mse[k][b]:.2e}" for b, M in enumerate(BUDGETS))
          + f"   ratio to random at M={M_CLAIM}: {mse[k][bM] / mse['random labels'][bM]:.3f}")

# %%
fig, ax = plt.subplots(figsize=(7, 4))
for k, v in est.items():
    err2 = (v - R) ** 2
    se = err2.std(1) / np.sqrt(P.repeats)
    ax.errorbar(BUDGETS, mse[k], yerr=se, marker="o", capsize=3, label=k,
                ls=":" if "oracle" in k or "control" in k else "-")
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xticks(BUDGETS, [str(M) for M in BUDGETS])
ax.set_xlabel("labels acquired $M$ (pool of 1,000)")
ax.set_ylabel("MSE of the risk estimate (nats$^2$)")
ax.set_title(f"Risk-estimation error, {P.repeats} acquisitions per point (± standard error)")
ax.legend(fontsize=7)
plt.show()

# %% [markdown]
# ### Is LURE unbiased, and what happens without its weights?

# %%
lure50 = est["LURE, CE acquisition"][bM]
z_lure = float(abs(lure50.mean() - R) / (lure50.std() / np.sqrt(P.repeats)))
z_naive = float(abs(naive_active.mean() - R) / (naive_active.std() / np.sqrt(P.repeats)))
fig, ax = plt.subplots(figsize=(7, 3.6))
bins = np.linspace(min(lure50.min(), naive_active.min()), max(lure50.max(), naive_active.max()), 40)
ax.hist(est["random labels"][bM], bins, alpha=0.5, label="random labels")
ax.hist(lure50, bins, alpha=0.5, label="LURE, CE acquisition")
ax.hist(naive_active, bins, alpha=0.5, label="same acquisitions, unweighted mean (biased)")
ax.axvline(R, color="k", lw=1.2, label=f"true pool risk R = {R:.3f}")
ax.set_xlabel(f"risk estimate from M = {M_CLAIM} labels (nats)")
ax.set_ylabel("number of acquisitions")
ax.legend(fontsize=7)
plt.show()
print(f"|bias| / standard error: LURE {z_lure:.2f}, unweighted active mean {z_naive:.1f}")

# %% [markdown]
# ### The bootstrap as an in-run error bar
#
# For `boot_runs` independent single runs of LURE with CE acquisition at $M = 50$, we compare the bootstrap
# standard deviation with the run's actual error $|\hat R - R|$.

# %%
boot_sd, abs_err = np.zeros(P.boot_runs), np.zeros(P.boot_runs)
naive_sd, naive_err = np.zeros(P.boot_runs), np.zeros(P.boot_runs)
for r in range(P.boot_runs):
    idx, probs = lure_run(Q["LURE, CE acquisition"], M_CLAIM)
    abs_err[r] = abs(K.lure_estimate(L[idx], probs) - R)
    boot_sd[r] = K.bootstrap_lure_std(L[idx], probs, B, rng)
    # the same acquired losses without weights: unit proposal, so the bootstrap of a plain mean
    naive_err[r] = abs(L[idx].mean() - R)
    naive_sd[r] = K.bootstrap_lure_std(L[idx], np.ones(len(L)), B, rng)
rho_boot = float(spearmanr(boot_sd, abs_err)[0])
rho_null = float(spearmanr(rng.permutation(boot_sd), abs_err)[0])
var_ratio = float(np.mean(boot_sd**2) / np.mean(abs_err**2))
var_ratio_naive = float(np.mean(naive_sd**2) / np.mean(naive_err**2))
print(f"Spearman(bootstrap sd, |error|) = {rho_boot:.2f} (bootstrap sd of another run: {rho_null:.2f}); "
      f"mean bootstrap variance / MSE = {var_ratio:.2f} (unweighted mean of the same runs: {var_ratio_naive:.2f})")

# %%
fig, ax = plt.subplots(figsize=(6, 4))
ax.scatter(boot_sd, abs_err, s=10, alpha=0.6)
lim = max(boot_sd.max(), abs_err.max())
ax.plot([0, lim], [0, lim], "k--", lw=0.8, label="|error| = bootstrap sd")
ax.set_xlabel("bootstrap standard deviation of one run (nats)")
ax.set_ylabel("actual |error| of that run (nats)")
ax.set_title(f"{P.boot_runs} single runs, M = {M_CLAIM}: Spearman ρ = {rho_boot:.2f}")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### The paper's numbers beside ours
#
# | quantity | paper (setting) | ours (setting) |
# |---|---|---|
# | reduction of the risk-estimation error against random labelling | 25-80 % (secondary summary; several datasets, Llama-2 targets) | 1 − the MSE ratio printed above, at M = 50 (digits MLP, logistic-regression surrogate) |
# | SST-2 risk-estimate MSE at 400 labels | about 1e-3 for random and for the 7B-surrogate LURE (official notebook; 70B target) | not comparable: our MSEs are in the figure, for up to 100 labels |

# %%
ratio = {k: float(mse[k][bM] / mse["random labels"][bM]) for k in Q}
TOL = tolerance(rel=0.05, abs=0.02, why="Monte Carlo over seeded acquisitions; MLP training end point")
claims.check("lure-unbiased",
             statement=f"Over the acquisitions at M = {M_CLAIM}, the mean LURE estimate (CE acquisition) is within "
                       "3 standard errors of the pool risk",
             paper="LURE is an unbiased risk estimator under active acquisition (Farquhar et al. 2021)",
             criterion=at_most(3.0), measured=z_lure, control=z_naive,
             control_label="the unweighted mean of the same actively acquired losses", tol=TOL)
claims.check("lure-beats-random",
             statement=f"At M = {M_CLAIM}, MSE(LURE, CE acquisition) <= 0.7 x MSE(random labelling)",
             paper="much more accurate LLM risk estimates than random acquisition (25-80 % lower error in a summary)",
             criterion=at_most(0.7), measured=ratio["LURE, CE acquisition"],
             control=ratio["LURE, shuffled scores (control)"],
             control_label="LURE with the CE scores shuffled across the pool (an uninformative surrogate)", tol=TOL)
claims.check("target-free-beats-random",
             statement=f"At M = {M_CLAIM}, MSE(LURE, target-free acquisition) <= 0.9 x MSE(random labelling)",
             paper="good acquisition decisions without target-model predictions",
             criterion=at_most(0.9), measured=ratio["LURE, target-free"],
             control=ratio["LURE, shuffled scores (control)"],
             control_label="LURE with the CE scores shuffled across the pool (an uninformative surrogate)", tol=TOL)
claims.check("bootstrap-tracks-error",
             statement=f"Across single runs at M = {M_CLAIM}, Spearman correlation of the bootstrap sd with the actual "
                       "|error| > 0.2",
             paper="the bootstrap estimator is a useful indicator of how well active testing works within one run",
             criterion=greater_than(0.2), measured=rho_boot, control=rho_null,
             control_label="the bootstrap sd of another, independent run (a null model)",
             tol=tolerance(abs=0.1, why="rank correlation of 100-1000 Monte Carlo runs"))
claims.check("bootstrap-variance-calibrated",
             statement=f"Mean bootstrap variance within a factor 2 of the MSE of LURE at M = {M_CLAIM}",
             paper="the bootstrap estimates the evaluation error",
             criterion=between(0.5, 2.0), measured=var_ratio,
             control=var_ratio_naive,
             control_label="bootstrap of the unweighted mean of the same acquired losses (a biased estimator)",
             tol=tolerance(rel=0.15, why="Monte Carlo over 100-1000 seeded runs"))

# %% [markdown]
# ## Against the official code
#
# The paper's code: [gabrielleberrada/scaling-up-active-testing](https://github.com/gabrielleberrada/scaling-up-active-testing)
# (commit `f13249462fe60087814797dd1bb0dd45737fdf7d`). We ran its `LUREEstimator.estimate` (from `estimators.py`)
# and its acquisition function `entropy_loss` (from `metrics.py`) once, outside the project, on a small seeded
# input (`tests/papers/golden/active-testing-llm.json`): a pool of 20, six draws. Our `lure_weights` and
# `lure_estimate` reproduce its weights and estimate to within 2e-16. Our `expected_loss_under_surrogate` and
# `surrogate_entropy` reproduce its "CE" and "entropy" scores to within 3e-16. Departures:
#
# - **Proposal.** The official loop renormalises the scores over the remaining points and floors them at
#   `clip_percentage / remaining` at every step. We mix with 10 % uniform once and renormalise. Both are valid
#   proposals for LURE, but their variances differ.
# - **Sampler.** The official loop draws one multinomial sample per step; ours draws all $M$ at once with
#   Gumbel top-$k$, which has the same law (unit-tested against sequential probabilities).
# - **Bootstrap.** As in the official `run_bootstrap`, we resample the $(v_m, L_{i_m})$ pairs with the weights held
#   fixed. The official code stores bootstrap draws for every prefix of the run; we compute only the final one.
# - **Interface.** `lure_estimate(losses, probs)` takes the proposal over the whole pool in draw order, and derives
#   $N$ and $q_m(i_m)$ from it. The official estimator takes $q_m(i_m)$ and the pool size separately.

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Partly reproduced, with small models in place of the language models.** Numbers quoted here are from the
# committed ci run (seed 0, 300 acquisitions per estimator). The robustness table on this page gives the ci
# sweep over ten notebook seeds and the full-scale runs (3,000 acquisitions).
#
# - **LURE is unbiased: reproduced.** Its mean over 300 acquisitions at $M = 50$ lies 0.5 standard errors from
#   the pool risk. The unweighted mean of the same actively chosen losses is 12 standard errors too high: the
#   weights are what makes active selection safe.
# - **A cheap, fixed surrogate beats random labelling: reproduced.** With CE acquisition the MSE of the risk
#   estimate at $M = 50$ is 0.60 times that of random labelling (the brief asked for at most 0.7). That is a 40 %
#   lower error, inside the 25-80 % that a summary attributes to the paper. The surrogate is a logistic
#   regression fitted once on 150 labelled images and never updated. Shuffling its scores across the pool, the
#   control, makes LURE *worse* than random (1.46): a bad surrogate costs accuracy, it does not merely fail to
#   help. The gain is far from the oracle's (true losses as scores, 0.005), because the surrogate ranks losses
#   only moderately well (Spearman 0.42 between CE score and true loss). **The margin is thin across seeds:**
#   over the ten ci seeds of the sweep the ratio ranges from 0.55 to 0.77 (median 0.69), so the claim holds at 5
#   of 10 seeds and is seed-sensitive. The error is always lower than random's (25-45 % lower), but not always by
#   the 30 % that the brief asked for. The control fails at every seed (1.03-1.68).
# - **Target-free acquisition also beats random: reproduced.** With the surrogate's own predictive entropy, which
#   needs no target prediction, the ratio is 0.68 (at most 0.9 required). At $M = 100$ it is even slightly
#   ahead of CE acquisition (figure). It holds at all ten ci seeds (0.46-0.70, median 0.60), and beats CE
#   acquisition at most of them. Here the target-free score is the more reliable of the two, which fits the
#   paper's finding that acquisition can do without the target's predictions.
# - **The bootstrap tracks the error of a run: not reproduced at this scale.** Across 100 single runs, the
#   bootstrap standard deviation and the actual error are *negatively* rank-correlated (Spearman −0.22;
#   required > 0.2). The scatter plot shows why. Runs that miss the few points with a large loss have a small
#   bootstrap spread, because their weighted losses are all alike, and a large error, because they
#   underestimate the risk. The bootstrap cannot see what the run never sampled. This is a known weakness of
#   importance-weighted estimates with heavy-tailed losses, and our target's losses are heavy-tailed (94.8 %
#   accuracy, a few confident mistakes). The correlation is below 0.2 at all ten ci seeds (−0.22 to +0.09).
# - **The bootstrap variance is calibrated on average: uninformative.** The mean bootstrap variance is 1.34 times
#   LURE's MSE (within the factor 2 asked). But the bootstrap of the unweighted, biased mean of the same runs is
#   also within a factor 2 (0.83): at $M = 50$ its bias is smaller than its spread, so this check cannot tell
#   a good error bar from a poor one. Over the ten ci seeds the ratio stays within 0.83-1.34, but the control
#   also passes at nine of them.
#
# So the statistical core holds in miniature: LURE is unbiased, and a cheap, fixed, even target-free surrogate
# lowers the error. The size of the gain with CE acquisition is at the edge of the brief's threshold.
#
# **At full scale** (3,000 acquisitions, 1,000 bootstrap runs, seeds 0-2; robustness table) the picture is the
# same. LURE is unbiased and CE acquisition beats random at 2 of 3 seeds (ratios 0.64-0.70). Target-free
# acquisition beats random at all three (0.61-0.64). The bootstrap's rank correlation with the error is about
# zero (−0.06 to +0.02) rather than negative, and its mean variance matches the MSE closely (1.02-1.07), but the
# unweighted control passes as well. The within-run diagnostic does not: on average its size is right, but run by run it points the
# wrong way.
#
# ## What the miniature cannot show
#
# - **Language models.** Every cost-saving decision of the paper concerns LLMs: in-context-learned surrogates,
#   a 7B surrogate for a 70B target, no surrogate retraining because retraining an LLM is expensive. Our small
#   models make all of this nearly free, so the page tests the statistics of active testing with a fixed, weaker
#   surrogate, not its cost at LLM scale.
# - **Text tasks and their loss profiles.** On SST-2 the official notebook shows almost no gain at 400 labels.
#   Gains depend on how concentrated the loss is on a few points, which differs between tasks; one image task
#   cannot say how large the gain is on the paper's datasets.
# - **Label budgets.** We stop at 100 labels of 1,000; the paper evaluates up to 400.
