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
# *To estimate a model's test risk from few labels, the paper labels the points that a cheap, fixed surrogate
# expects to be costly, corrects the bias with LURE weights, and reads the estimate's error off a bootstrap of the
# same run; it reports estimates more accurate than those from randomly chosen labels. In our small-model
# miniature the gain over random labelling is inside the noise or matched by plain stratification on the same
# score, it is gone with the official 50-example surrogate, and the bootstrap does not track a run's error.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import warnings
import zlib

import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue
from scipy.stats import spearmanr
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.neural_network import MLPClassifier

from repro.claims import Claims, Comparator, at_least, at_most, between, greater_than, tolerance
from repro.papers import active_testing_llm as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    "ci": dict(repeats=300, boot_runs=100, precise=3000),
    "full": dict(repeats=3000, boot_runs=1000, precise=10000),
})
N_TRAIN, N_CONTEXT, N_POOL = 300, 150, 1000   # target's training set, surrogate's "context", test pool
N_CONTEXT_OFFICIAL = 50                       # the official code's 50 in-context examples
BUDGETS = (10, 25, 50, 100)                   # labels acquired M
M_CLAIM = 50                                  # the budget of the brief's checks
MIX = 0.1                                     # our proposal: mixed once with 10 % uniform
CLIP_EST, CLIP_BOOT = 0.1, 0.01               # the official floors: estimation runs, bootstrap runs
STRATA = 5                                    # strata of the stratified-sampling baselines
LEAST = 2                                     # the fewest labels per stratum with score allocation
B = 200                                       # bootstrap resamples per run
CHUNK = 2500                                  # acquisitions per batch in the precise measurement (memory)
warnings.filterwarnings("ignore", category=ConvergenceWarning)
plt.rcParams["savefig.dpi"] = 90
claims = Claims("active-testing-llm", title="Scaling Up Active Testing to Large Language Models",
                authors="Gabrielle Berrada, Jannik Kossen, Freddie Bickford Smith, Muhammed Razzak, Yarin Gal, "
                        "Tom Rainforth",
                paper_url="https://arxiv.org/abs/2508.09093", scale=scale, seed=seed)


def stream(name):
    """An independent random stream per comparator, so that adding one leaves the others' draws unchanged."""
    return np.random.default_rng([P.seed, zlib.crc32(name.encode())])


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
# 2. **Proposal** $q_i = 0.9\,s_i/\sum_j s_j + 0.1/N$ (ours). The official code instead renormalises the scores
#    of the points not yet drawn at every step and floors them at $0.1/(\text{points left})$ (0.01 in its bootstrap
#    runs); both are run below.
# 3. **Sampling.** $M$ points without replacement, each from $q$ renormalised over the points left, so draw $m$
#    has probability $q_m(i_m) = q_{i_m}/(1-\sum_{k<m}q_{i_k})$.
# 4. **LURE** (unbiased for $R$ for any proposal that keeps every probability positive):
#
# $$\hat R_{\rm LURE} = \frac1M\sum_{m=1}^M v_m L_{i_m},\qquad
#   v_m = 1 + \frac{N-M}{N-m}\left(\frac{1}{(N-m+1)\,q_m(i_m)} - 1\right).$$
#
#    `K.lure_estimate(losses, probs)` takes the losses in the order drawn and the proposal over the whole pool
#    listed in the same order; `K.lure_estimates(losses, q_at_pick, N)` takes the probabilities at the picks for
#    a batch of runs.
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
# two references drawn in the first figure only: LURE with the *true* losses as scores (an oracle that no one has)
# and LURE with the CE scores shuffled across the pool (a surrogate that knows nothing). These, and the bootstrap
# runs, draw from one random stream in the order the page first used, so that the pre-registered values are
# the ones first recorded, draw for draw (`K.shared_stream_estimates`, `K.shared_stream_bootstrap`).
#
# **The measurement** of the two accuracy tests is the MSE of the risk estimate at $M = 50$ divided by that of
# random labelling, both estimated from the same number of acquisitions (300 at ci). Every comparator below is
# measured the same way, from its own random stream.
#
# **Comparators** (added when the page was converted to the current claim model, and after its review):
#
# - *ablation of the CE test*: LURE with the **target as its own surrogate**, its predictive entropy as score
#   (the official code's `SelfEntropyAcquisition`; the paper's "70B surrogate for the 70B target"). It replaces
#   the separate, cheaper surrogate by the target itself;
# - *ablation of the target-free test*: LURE with a **uniform proposal**, the same estimator without its
#   target-free score. In law it is random labelling (every weight is 1), so its expected ratio is 1: it shows what
#   the score adds, and the specificity of the test rests on the naive baselines;
# - *stratified sampling with labels allocated by the same cheap score* (the strongest naive rival the review
#   found): five quantile strata of the method's own score, labels in proportion to stratum size times mean score
#   (the mean score standing in for the stratum's spread in Neyman's allocation), and the plain stratified mean
#   (Cochran, 1977, ch. 5). It uses the same information as active testing, with no importance weights;
# - *stratified random sampling with proportional allocation* on five equal strata of the method's own score,
#   and, for CE acquisition, which needs the target's predictions anyway, on strata of the target's own entropy;
# - *uncertainty sampling without the LURE correction*: the method's own acquisitions, averaged without weights
#   (the official code's `iidEstimator` with a surrogate acquisition);
# - *uniform sampling with more labels* (**miniature only**): the $M$ random pool labels pooled with the losses on
#   the surrogate's 150 context images, which in this miniature are labelled, drawn from the same distribution as
#   the pool and unseen by the target. It spends as many labels as the method does. In the paper the in-context
#   examples come from the training split and the target sees in-context examples too, so this baseline has no
#   counterpart there.
#
# The bootstrap test compares the bootstrap of LURE with the textbook standard error of the same weighted terms
# (no resampling; the ablation), with the classical bootstrap of random labelling, and with the bootstrap of the
# unweighted mean of the same acquisitions.
#
# **Three further settings**, each a post-hoc test beside an unchanged pre-registered one:
#
# - *the official configuration*: the surrogate fitted on 50 context images (the official 50 in-context examples)
#   and the official proposal (floor 0.1 in the estimation runs, 0.01 in the bootstrap runs), with every
#   comparator recomputed in it;
# - *the precise measurement*: the same two accuracy tests measured with 3,000 acquisitions per estimator at ci
#   (10,000 at full) and the closed-form MSE of random labelling, $\frac{\sigma^2}{M}\frac{N-M}{N-1}$
#   (`K.random_labelling_mse`), as the denominator. The review found the 300-acquisition measurement dominated by
#   Monte Carlo noise (below);
# - *the official bootstrap criterion*: the coverage of the interval of $\pm 2$ bootstrap standard deviations,
#   which the official plots set against a 95 % line.
#
# | preset | acquisitions per estimator and budget | precise measurement | single runs for the bootstrap checks |
# |---|---|---|---|
# | ci | 300 | 3,000 | 100 |
# | full | 3,000 (the official RUNS) | 10,000 | 1,000 |
#
# **Deviations from the paper**
#
# - **No language models.** Target and surrogate are small classifiers trained here; "in-context learning" becomes
#   fitting a logistic regression on 150 labelled examples.
# - **Context against budget.** The 150 context images were chosen in an exploratory run, outside the brief's
#   20-50, so that, as in the official SST-2 notebook (7B surrogate with 50 examples, 93 % against the 70B
#   target's 94 %), the surrogate is nearly as accurate as the target. They are three times the label budget of
#   50, where the paper's 50 in-context examples are an eighth of its 400 labels: our surrogate has seen far more
#   labels, relative to the budget, than the paper's. The official count of 50 examples is run as the second
#   setting, where our surrogate is much weaker than the target.
# - **Data.** Digit images instead of text classification (SST-2, FPB, HateSpeech, Subjectivity).
# - **Proposal.** Mixed once with 10 % uniform and renormalised over the remaining points; the official floor,
#   re-applied at every step, is part of the second setting.
# - **Budget.** Up to 100 labels in a pool of 1,000 (5-10 % of the pool), instead of the official 400 labels in pools
#   of 2,000-10,000 (4-20 %). Our pool cannot hold the official budget at the official fraction.
# - **Surrogate updates.** Never refit, as in the paper; a surrogate refit in the loop, the comparison that "need not
#   be updated" calls for, is not run (see the headline claims).

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
    small = LogisticRegression(max_iter=500).fit(X[ctx[:N_CONTEXT_OFFICIAL]], y[ctx[:N_CONTEXT_OFFICIAL]])
    L_ctx = K.cross_entropy_losses(target.predict_proba(X[ctx]), y[ctx])
    return (target.predict_proba(X[pool]), surrogate.predict_proba(X[pool]), small.predict_proba(X[pool]),
            y[pool], L_ctx)


p_t, p_s, p_s50, y_pool, L_ctx = make_models(P.seed)
L = K.cross_entropy_losses(p_t, y_pool)
N = len(L)
R = float(L.mean())
acc_t, acc_s, acc_s50 = (float(np.mean(p.argmax(1) == y_pool)) for p in (p_t, p_s, p_s50))
scores = {"CE": K.expected_loss_under_surrogate(p_t, p_s),       # the method
          "target-free": K.surrogate_entropy(p_s),                # the target-free method
          "self": K.surrogate_entropy(p_t),                       # the CE test's ablation: the target scores itself
          "uniform": np.ones(N),                                  # the target-free test's ablation: no score
          "CE, 50 examples": K.expected_loss_under_surrogate(p_t, p_s50),
          "target-free, 50 examples": K.surrogate_entropy(p_s50)}
scores["oracle"] = L
rho_score = {k: float(spearmanr(scores[k], L)[0]) for k in ("CE", "target-free", "self")}
print(f"accuracy: target {acc_t:.3f}, surrogate {acc_s:.3f} (50 examples: {acc_s50:.3f}); pool risk R = {R:.4f} "
      "nats; Spearman(score, true loss): " + ", ".join(f"{k} {v:.2f}" for k, v in rho_score.items()))

# %%
# The pre-registered draws: one stream, consumed in the order of the page as first run (the shuffled scores,
# then every budget's random labels and LURE acquisitions run by run, then the bootstrap runs).
rng = np.random.default_rng(10_000 + P.seed)
scores["shuffled"] = rng.permutation(scores["CE"])
Q = {k: K.acquisition_probs(scores[k], MIX) for k in ("CE", "target-free", "oracle", "shuffled")}
est_random, est_lure, picks = K.shared_stream_estimates(L, Q, BUDGETS, P.repeats, rng, keep_picks_at=M_CLAIM)
boot_idx, boot_qp, boot_sd, plain_boot_sd = K.shared_stream_bootstrap(L, Q["CE"], M_CLAIM, P.boot_runs, B, rng)

# The comparators, each from its own stream.
MB = max(BUDGETS)
est = {"random labels": est_random, **{f"LURE, {k}": v for k, v in est_lure.items()}}
for k in ("self", "uniform"):
    idx, qp = K.sample_sequential_runs(K.acquisition_probs(scores[k], MIX), MB, P.repeats, stream(f"lure {k}"))
    est[f"LURE, {k}"] = np.array([K.lure_estimates(L[idx[:, :M]], qp[:, :M], N) for M in BUDGETS])
for k in ("CE", "target-free"):
    est[f"Neyman-proxy, {k}"] = np.array([
        K.stratified_estimates(scores[k], L, M, P.repeats, stream(f"neyman {k} {M}"), STRATA, "score", LEAST)
        for M in BUDGETS])
for k in ("CE", "target-free", "self"):
    est[f"stratified, {k}"] = np.array([K.stratified_estimates(scores[k], L, M, P.repeats, stream(f"strat {k} {M}"),
                                                                STRATA) for M in BUDGETS])
est["random + context labels"] = np.array([K.uniform_estimates(L, M, P.repeats, stream(f"ctx {M}"), extra=L_ctx)
                                           for M in BUDGETS])
mse = {k: ((v - R) ** 2).mean(1) for k, v in est.items()}
bM = BUDGETS.index(M_CLAIM)
e50 = {k: v[bM] for k, v in est.items()}
for k in ("CE", "target-free"):                 # the method's own acquisitions at M = 50, unweighted
    e50[f"plain mean, {k}"] = L[picks[k]].mean(1)
ratio, ratio_se = {}, {}
for k, v in e50.items():
    if k != "random labels":
        ratio[k], ratio_se[k] = K.mse_ratio(v, R, e50["random labels"])
mse_exact = K.random_labelling_mse(L, M_CLAIM)
random_mc = float(((e50["random labels"] - R) ** 2).mean() / mse_exact)
for k in ratio:
    print(f"{k:26s} ratio to random at M={M_CLAIM}: {ratio[k]:.3f} ± {ratio_se[k]:.3f}")
print(f"random labelling's Monte Carlo MSE / its exact MSE: {random_mc:.3f}")

# %%
SHOW = {"random labels": ("k", "-"), "LURE, CE": ("C0", "-"), "LURE, target-free": ("C1", "-"),
        "LURE, self": ("C2", "--"), "Neyman-proxy, CE": ("C4", "-."), "Neyman-proxy, target-free": ("C6", "-."),
        "random + context labels": ("C5", "-."), "LURE, oracle": ("0.6", ":"), "LURE, shuffled": ("0.4", ":")}
LABEL = {"LURE, self": "LURE, target as its own surrogate", "LURE, oracle": "LURE, true-loss oracle",
         "LURE, shuffled": "LURE, shuffled CE scores", "Neyman-proxy, CE": "stratified, labels by CE score",
         "Neyman-proxy, target-free": "stratified, labels by surrogate entropy",
         "random + context labels": "random + the 150 context labels"}
fig, ax = plt.subplots(figsize=(7.5, 4.2))
for k, (c, ls) in SHOW.items():
    se = ((est[k] - R) ** 2).std(1) / np.sqrt(P.repeats)
    ax.errorbar(BUDGETS, mse[k], yerr=se, marker="o", ms=4, capsize=3, color=c, ls=ls, label=LABEL.get(k, k))
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xticks(BUDGETS, [str(M) for M in BUDGETS])
ax.set_xlabel("labels acquired $M$ (pool of 1,000)")
ax.set_ylabel("MSE of the risk estimate (nats$^2$)")
ax.set_title(f"Risk-estimation error, {P.repeats} acquisitions per point (± standard error)")
ax.legend(fontsize=7, ncol=2)
plt.show()

# %% [markdown]
# At $M = 50$ the error of LURE with CE acquisition is {glue:text}`r_LURE_CE:.2f` times that of random labelling,
# and {glue:text}`r_LURE_target_free:.2f` times with target-free acquisition. Stratified sampling that spends its
# labels by the same cheap score, with no importance weights, reaches {glue:text}`r_Neyman_proxy_CE:.2f` on the CE
# score and {glue:text}`r_Neyman_proxy_target_free:.2f` on the surrogate's entropy: the closest naive rival (the
# verdict counts the seeds at which it passes). The target as its own surrogate reaches
# {glue:text}`r_LURE_self:.2f`. The reason is visible in the rank correlations with the true losses:
# {glue:text}`rho_score_ce:.2f` for the CE score, {glue:text}`rho_score_tf:.2f` for the surrogate's entropy, {glue:text}`rho_score_self:.2f` for the target's own
# entropy. For a correctly classified image the loss is minus the log of the probability the target gives its own
# prediction, which its entropy tracks; a separate surrogate can only add information about the target's mistakes.
# Proportional stratification on the CE score reaches {glue:text}`r_stratified_CE:.2f`, on the target's entropy
# {glue:text}`r_stratified_self:.2f`; random labels pooled with the {glue:text}`n_context` context labels
# {glue:text}`r_random_context_labels:.2f` (the context's own mean loss misses the pool's by a different amount at
# every seed). The oracle (true losses as scores) reaches {glue:text}`r_LURE_oracle:.3f`, and shuffled CE scores,
# a proposal that knows nothing, {glue:text}`r_LURE_shuffled:.2f`.
#
# **These ratios are noisy.** Each is a ratio of two Monte Carlo MSEs from {glue:text}`repeats` acquisitions; its
# standard error by the delta method is {glue:text}`se_LURE_CE:.3f` for CE acquisition and
# {glue:text}`se_Neyman_proxy_CE:.3f` for the stratified rival at this seed, wider than the tolerance band of the
# CE criterion ($0.7 \pm 0.055$). Random labelling's own Monte Carlo MSE is {glue:text}`random_mc:.2f` times its
# exact value here. At 300 acquisitions a seed can pass or fail by noise alone, and so can a comparator.
#
# ### The precise measurement
#
# The same ratios with {glue:text}`precise` acquisitions per estimator and the exact MSE of random labelling as
# the denominator (a post-hoc measurement; the pre-registered tests keep theirs).

# %%
pre = {}
for k in ("CE", "target-free", "self", "uniform"):
    q = K.acquisition_probs(scores[k], MIX)
    rs, parts, plain = stream(f"precise lure {k}"), [], []
    for n0 in range(0, P.precise, CHUNK):
        idx, qp = K.sample_sequential_runs(q, M_CLAIM, min(CHUNK, P.precise - n0), rs)
        parts.append(K.lure_estimates(L[idx], qp, N))
        plain.append(L[idx].mean(1))
    pre[f"LURE, {k}"] = np.concatenate(parts)
    if k in ("CE", "target-free"):
        pre[f"plain mean, {k}"] = np.concatenate(plain)
for k in ("CE", "target-free"):
    pre[f"Neyman-proxy, {k}"] = K.stratified_estimates(scores[k], L, M_CLAIM, P.precise, stream(f"precise neyman {k}"),
                                                        STRATA, "score", LEAST)
for k in ("CE", "target-free", "self"):
    pre[f"stratified, {k}"] = K.stratified_estimates(scores[k], L, M_CLAIM, P.precise, stream(f"precise strat {k}"),
                                                      STRATA)
pre["random + context labels"] = K.uniform_estimates(L, M_CLAIM, P.precise, stream("precise ctx"), extra=L_ctx)
pre["random labels"] = K.uniform_estimates(L, M_CLAIM, P.precise, stream("precise random"))   # a check of the formula
ratio_p, ratio_p_se = {}, {}
for k, v in pre.items():
    ratio_p[k], ratio_p_se[k] = K.mse_ratio(v, R, mse_exact)
print(f"MSE / exact MSE(random labels) at M = {M_CLAIM}, {P.precise} acquisitions each")
for k in pre:
    print(f"{k:26s} {ratio_p[k]:.3f} ± {ratio_p_se[k]:.3f}   "
          f"(300-acquisition ratio: {ratio.get(k, float('nan')):.3f})")

# %% [markdown]
# With {glue:text}`precise` acquisitions and the exact denominator the standard error falls to
# {glue:text}`pse_LURE_CE:.3f` (CE acquisition). LURE's ratio is {glue:text}`p_LURE_CE:.2f` with CE acquisition
# and {glue:text}`p_LURE_target_free:.2f` target-free; stratification by the same score
# {glue:text}`p_Neyman_proxy_CE:.2f` and {glue:text}`p_Neyman_proxy_target_free:.2f`; the target as its own
# surrogate {glue:text}`p_LURE_self:.2f`; LURE with a uniform proposal {glue:text}`p_LURE_uniform:.2f` (it is
# random labelling in law); random labelling itself, simulated, {glue:text}`p_random_labels:.2f` of its closed
# form.
#
# ### The official configuration
#
# The same measurement with the surrogate fitted on 50 context images and the official proposal (floor
# $0.1/(\text{points left})$, re-applied at every step). The CE test's ablation uses the same proposal rule with the
# target's own entropy; the target-free test's ablation, a uniform proposal, is the same law under either rule.
# The stratified baselines stratify on the 50-example scores (and on the target's entropy, which does not depend on
# the surrogate); the "more labels" baseline pools the 50 context labels. Two further rows separate the two
# departures (each alone).

# %%
off = {}
for k in ("CE, 50 examples", "target-free, 50 examples", "self", "CE", "target-free"):
    idx, qp = K.sample_clipped_runs(scores[k], M_CLAIM, CLIP_EST, P.repeats, stream(f"clip {k}"))
    off[f"LURE, {k}"] = K.lure_estimates(L[idx], qp, N)
    if k.endswith("50 examples"):
        off[f"plain mean, {k}"] = L[idx].mean(1)
        off[f"stratified, {k}"] = K.stratified_estimates(scores[k], L, M_CLAIM, P.repeats, stream(f"strat {k}"),
                                                           STRATA)
        off[f"Neyman-proxy, {k}"] = K.stratified_estimates(scores[k], L, M_CLAIM, P.repeats, stream(f"neyman {k}"),
                                                             STRATA, "score", LEAST)
for k in ("CE, 50 examples", "target-free, 50 examples"):   # the 50-example surrogate with our proposal
    idx, qp = K.sample_sequential_runs(K.acquisition_probs(scores[k], MIX), M_CLAIM, P.repeats, stream(f"mix {k}"))
    off[f"mixed proposal, {k}"] = K.lure_estimates(L[idx], qp, N)
off["random + 50 context labels"] = K.uniform_estimates(L, M_CLAIM, P.repeats, stream("ctx50"),
                                                        extra=L_ctx[:N_CONTEXT_OFFICIAL])
ratio_off = {k: K.mse_ratio(v, R, e50["random labels"])[0] for k, v in off.items()}

rows = [("ours: 150 examples, mixed once", ratio["LURE, CE"], ratio["LURE, target-free"], ratio["LURE, self"]),
        ("official proposal only (150 examples)", ratio_off["LURE, CE"], ratio_off["LURE, target-free"],
         ratio_off["LURE, self"]),
        ("official 50 examples only (mixed once)", ratio_off["mixed proposal, CE, 50 examples"],
         ratio_off["mixed proposal, target-free, 50 examples"], ratio["LURE, self"]),
        ("official configuration (both)", ratio_off["LURE, CE, 50 examples"],
         ratio_off["LURE, target-free, 50 examples"], ratio_off["LURE, self"])]
print(f"MSE / MSE(random labels) at M = {M_CLAIM}\n{'configuration':40s} {'CE':>6s} {'target-free':>12s} "
      f"{'target as surrogate':>20s}")
for name, a, b, c in rows:
    print(f"{name:40s} {a:6.3f} {b:12.3f} {c:20.3f}")

# %%
groups = [("ours", [("LURE, CE", ratio["LURE, CE"]), ("LURE, target-free", ratio["LURE, target-free"]),
                    ("LURE, target as surrogate", ratio["LURE, self"]),
                    ("LURE, uniform proposal", ratio["LURE, uniform"]),
                    ("stratified by CE score", ratio["Neyman-proxy, CE"]),
                    ("stratified by target-free score", ratio["Neyman-proxy, target-free"]),
                    ("proportional strata, CE score", ratio["stratified, CE"]),
                    ("proportional strata, target entropy", ratio["stratified, self"]),
                    ("proportional strata, target-free score", ratio["stratified, target-free"]),
                    ("plain mean, CE acquisitions", ratio["plain mean, CE"]),
                    ("plain mean, target-free acq.", ratio["plain mean, target-free"]),
                    ("random + context labels", ratio["random + context labels"])]),
          ("official configuration", [
              ("LURE, CE", ratio_off["LURE, CE, 50 examples"]),
              ("LURE, target-free", ratio_off["LURE, target-free, 50 examples"]),
              ("LURE, target as surrogate", ratio_off["LURE, self"]),
              ("LURE, uniform proposal", ratio["LURE, uniform"]),
              ("stratified by CE score", ratio_off["Neyman-proxy, CE, 50 examples"]),
              ("stratified by target-free score", ratio_off["Neyman-proxy, target-free, 50 examples"]),
              ("proportional strata, CE score", ratio_off["stratified, CE, 50 examples"]),
              ("proportional strata, target entropy", ratio["stratified, self"]),
              ("proportional strata, target-free score", ratio_off["stratified, target-free, 50 examples"]),
              ("plain mean, CE acquisitions", ratio_off["plain mean, CE, 50 examples"]),
              ("plain mean, target-free acq.", ratio_off["plain mean, target-free, 50 examples"]),
              ("random + context labels", ratio_off["random + 50 context labels"])])]
fig, axes = plt.subplots(1, 2, figsize=(9.5, 4.6), sharey=True)
colors = ["C0", "C1", "C2", "0.5", "C4", "C6", "C4", "C4", "C4", "C3", "C3", "C5"]
for ax, (title, items) in zip(axes, groups):
    names = [n for n, _ in items]
    vals = np.array([v for _, v in items])
    ax.barh(range(len(vals)), np.minimum(vals, 3.0), color=colors)
    for i, v in enumerate(vals):
        if v > 3.0:
            ax.text(2.95, i, f"{v:.1f} →", ha="right", va="center", fontsize=7, color="w")
    ax.axvline(0.7, color="k", lw=1, ls="--", label="0.7 (CE criterion)")
    ax.axvline(0.9, color="k", lw=1, ls=":", label="0.9 (target-free criterion)")
    ax.axvline(1.0, color="0.5", lw=0.8)
    ax.set_yticks(range(len(names)), names, fontsize=8)
    ax.set_xlim(0, 3.0)
    ax.set_xlabel(f"MSE / MSE(random labels), M = {M_CLAIM}")
    ax.set_title(title, fontsize=9)
axes[0].invert_yaxis()                       # shared y axis: invert once, the method on top
axes[0].legend(fontsize=7, loc="lower right")
plt.show()

# %% [markdown]
# With 50 context images our surrogate's accuracy falls to {glue:text}`acc_s50:.3f` (the target's is
# {glue:text}`acc_t:.3f`; the 150-image surrogate's {glue:text}`acc_s:.3f`). In the official configuration LURE's
# ratio to random labelling is {glue:text}`o_LURE_CE_50_examples:.2f` with CE acquisition and
# {glue:text}`o_LURE_target_free_50_examples:.2f` target-free; stratification by the same scores
# {glue:text}`o_Neyman_proxy_CE_50_examples:.2f` and {glue:text}`o_Neyman_proxy_target_free_50_examples:.2f`; the
# target as its own surrogate {glue:text}`o_LURE_self:.2f`. The official proposal alone, with the 150-image
# surrogate, gives {glue:text}`o_LURE_CE:.2f` and {glue:text}`o_LURE_target_free:.2f`; the 50-image surrogate alone,
# with our proposal, {glue:text}`o_mixed_proposal_CE_50_examples:.2f` and
# {glue:text}`o_mixed_proposal_target_free_50_examples:.2f`. Each is a ratio of two {glue:text}`repeats`-acquisition
# Monte Carlo estimates, with the noise described above.
#
# ### Is LURE unbiased, and what happens without its weights?

# %%
lure50 = e50["LURE, CE"]
naive50 = e50["plain mean, CE"]
z_lure = float(abs(lure50.mean() - R) / (lure50.std() / np.sqrt(P.repeats)))
z_naive = float(abs(naive50.mean() - R) / (naive50.std() / np.sqrt(P.repeats)))
fig, ax = plt.subplots(figsize=(7, 3.6))
bins = np.linspace(min(lure50.min(), naive50.min()), max(lure50.max(), naive50.max()), 40)
ax.hist(e50["random labels"], bins, alpha=0.5, label="random labels")
ax.hist(lure50, bins, alpha=0.5, label="LURE, CE acquisition")
ax.hist(naive50, bins, alpha=0.5, label="same acquisitions, unweighted mean (biased)")
ax.axvline(R, color="k", lw=1.2, label=f"true pool risk R = {R:.3f}")
ax.set_xlabel(f"risk estimate from M = {M_CLAIM} labels (nats)")
ax.set_ylabel("number of acquisitions")
ax.legend(fontsize=7)
plt.show()
print(f"|bias| / standard error: LURE {z_lure:.2f}, unweighted active mean {z_naive:.1f}")

# %% [markdown]
# Over the acquisitions at $M = 50$ the mean LURE estimate lies {glue:text}`z_lure:.2f` standard errors from the
# pool risk; the unweighted mean of the same actively chosen losses lies {glue:text}`z_naive:.1f` standard errors
# too high. The weights are what make a score-guided draw safe: without them the estimate is biased towards the
# costly points it was told to find.
#
# ### The bootstrap as an in-run error bar
#
# For `boot_runs` independent single runs at $M = 50$ we compare each run's error bar with its actual error
# $|\hat R - R|$: the bootstrap of LURE (CE acquisition), the textbook standard error of the same weighted terms,
# the classical bootstrap of random labelling, and the bootstrap of the unweighted mean of the same acquisitions.
# For the coverage of $\pm 2$ error bars two more bars are set around LURE's estimates: the textbook standard error
# of the unweighted picked losses, and a constant, random labelling's exact standard error at $M = 50$ (it needs
# the pool's loss variance, which a single run does not have). The official configuration repeats the LURE runs
# with the 50-example surrogate and the bootstrap runs' floor of $0.01/(\text{points left})$.

# %%
def error_bars(idx, qp, rng):
    """Per run: |error| and bootstrap sd of LURE, the plug-in sd, and |error| and bootstrap sd of the plain mean."""
    out = np.zeros((len(idx), 5))
    for r in range(len(idx)):
        terms = K.lure_weights(qp[r], N) * L[idx[r]]
        out[r] = (abs(terms.mean() - R), K.bootstrap_mean_std(terms, B, rng), K.plugin_mean_std(terms),
                  abs(L[idx[r]].mean() - R), K.bootstrap_mean_std(L[idx[r]], B, rng))
    return out


def bar_stats(err, sd):
    """Spearman(sd, |error|), mean sd^2 / mean error^2, and the coverage of the +-2 sd interval (official plot)."""
    rho = float(spearmanr(sd, err)[0]) if np.ptp(sd) > 0 else float("nan")
    return rho, float(np.mean(sd**2) / np.mean(err**2)), float(np.mean(err <= 2 * sd))


terms = np.array([K.lure_weights(boot_qp[r], N) for r in range(P.boot_runs)]) * L[boot_idx]
eb = np.column_stack([abs(terms.mean(1) - R), boot_sd, [K.plugin_mean_std(t) for t in terms],
                      abs(L[boot_idx].mean(1) - R), plain_boot_sd])
uidx, uqp = K.sample_sequential_runs(np.full(N, 1.0 / N), M_CLAIM, P.boot_runs, stream("boot random"))
ebu = error_bars(uidx, uqp, stream("boot random resample"))
idx, qp = K.sample_clipped_runs(scores["CE, 50 examples"], M_CLAIM, CLIP_BOOT, P.boot_runs, stream("boot official"))
ebo = error_bars(idx, qp, stream("boot official resample"))
picked_se = np.array([K.plugin_mean_std(L[i]) for i in boot_idx])    # the unweighted picks' textbook SE
const_se = np.full(P.boot_runs, np.sqrt(mse_exact))                 # random labelling's exact SE, every run
bars = {"ours": {"bootstrap": bar_stats(eb[:, 0], eb[:, 1]), "plug-in": bar_stats(eb[:, 0], eb[:, 2]),
                 "random": bar_stats(ebu[:, 3], ebu[:, 4]), "unweighted": bar_stats(eb[:, 3], eb[:, 4]),
                 "picked": bar_stats(eb[:, 0], picked_se), "constant": bar_stats(eb[:, 0], const_se)},
        "official": {"bootstrap": bar_stats(ebo[:, 0], ebo[:, 1]), "plug-in": bar_stats(ebo[:, 0], ebo[:, 2]),
                     "random": bar_stats(ebu[:, 3], ebu[:, 4]), "unweighted": bar_stats(ebo[:, 3], ebo[:, 4])}}
for cfg, d in bars.items():
    for k, (rho, vr, cov) in d.items():
        print(f"{cfg:8s} {k:10s} Spearman(sd, |error|) = {rho:+.2f}  mean sd^2 / MSE = {vr:.2f}  "
              f"coverage of +-2 sd = {cov:.2f}")

# %%
fig, axes = plt.subplots(1, 2, figsize=(9, 3.8))
for ax, (x, e, title) in zip(axes, [(eb[:, 1], eb[:, 0], "LURE, CE acquisition: bootstrap sd"),
                                     (ebu[:, 4], ebu[:, 3], "random labels: bootstrap sd of the mean")]):
    ax.scatter(x, e, s=10, alpha=0.6)
    lim = max(x.max(), e.max())
    ax.plot([0, lim], [0, lim], "k--", lw=0.8, label="|error| = sd")
    ax.plot([0, lim / 2], [0, lim], "k:", lw=0.8, label="|error| = 2 sd")
    ax.set_xlabel("error bar of one run (nats)")
    ax.set_ylabel("actual |error| of that run (nats)")
    ax.set_title(f"{title}\nSpearman ρ = {spearmanr(x, e)[0]:.2f}, {P.boot_runs} runs, M = {M_CLAIM}", fontsize=9)
    ax.legend(fontsize=7)
plt.show()

# %% [markdown]
# Across {glue:text}`boot_runs` single runs, the rank correlation between the bootstrap standard deviation of LURE
# and the run's actual error is {glue:text}`b_ours_bootstrap_rho:.2f` (the brief asks for more than $0.2$); the
# textbook standard error of the same weighted terms gives {glue:text}`b_ours_plugin_rho:.2f`, the classical
# bootstrap of random labelling {glue:text}`b_ours_random_rho:.2f`, and the bootstrap of the unweighted mean
# {glue:text}`b_ours_unweighted_rho:.2f`. The last is high for a reason that has nothing to do with a good error
# bar: that estimate is biased upwards, and the runs that drew the most costly points have both the widest spread
# and the largest error. On average the bootstrap variance is {glue:text}`b_ours_bootstrap_var:.2f` times the
# mean squared error; the textbook standard error gives {glue:text}`b_ours_plugin_var:.2f`, nearly the same number
# (the bootstrap of a mean is that standard error up to a factor $(M-1)/M$ and resampling noise), and random
# labelling's bootstrap {glue:text}`b_ours_random_var:.2f`. The interval of $\pm 2$ bootstrap standard deviations,
# the paper's coverage check, holds the pool risk in {glue:text}`b_ours_bootstrap_cov:.2f` of the runs (textbook
# standard error {glue:text}`b_ours_plugin_cov:.2f`, random labelling's bootstrap {glue:text}`b_ours_random_cov:.2f`,
# the unweighted picks' standard error {glue:text}`b_ours_picked_cov:.2f`, the constant bar
# {glue:text}`b_ours_constant_cov:.2f`). In the official configuration the correlation is
# {glue:text}`b_official_bootstrap_rho:.2f`, the variance ratio {glue:text}`b_official_bootstrap_var:.2f` and the
# coverage {glue:text}`b_official_bootstrap_cov:.2f`. Runs that miss the few costly points have alike weighted
# losses, hence a small bootstrap spread, and underestimate the risk: the bootstrap cannot see what the run never
# drew.
#
# ### The paper's numbers beside ours
#
# | quantity | paper (setting) | ours (setting) |
# |---|---|---|
# | reduction of the risk-estimation error against random labelling | 25-80 % (secondary summary; several datasets, Llama-2 targets) | 1 − the MSE ratios printed above, at M = 50 (digits MLP, logistic-regression surrogate) |
# | SST-2 risk-estimate MSE at 400 labels | about 1e-3 for random and for the 7B-surrogate LURE; about 4e-3 for the 70B target as its own surrogate (official notebook) | not comparable: our MSEs are in the first figure, for up to 100 labels |
# | bootstrap coverage of the ±2 sd interval | plotted against a 95 % line (official `plot_bootstrap_error_estimation`); values not retrieved | printed above, at M = 50 |

# %%
TOL = tolerance(rel=0.05, abs=0.02, why="Monte Carlo over seeded acquisitions; MLP training end point")
TOL_RHO = tolerance(abs=0.1, why="rank correlation of 100-1000 Monte Carlo runs")
TOL_VAR = tolerance(rel=0.15, why="Monte Carlo over 100-1000 seeded runs")
TOL_COV = tolerance(abs=0.02, why="binomial noise of a coverage over 100-1000 runs (sd about 0.02 at 95 % over 100)")
OFFICIAL = ("official configuration: surrogate fitted on 50 context examples, proposal floored at 0.1 / points left "
            "at every step (0.01 in the bootstrap runs)")
WHY_OFFICIAL = ("the official configuration (50 in-context examples, the official proposal floor), run as a second "
                "setting when the page was converted; the method, the measurement and the criterion are the "
                "pre-registered test's")
PRECISE = ("precise measurement: 3,000 acquisitions per estimator at ci (10,000 at full), denominator the exact MSE "
           "of random labelling, sigma^2 / M (N - M) / (N - 1)")
WHY_PRECISE = ("added after the independent review found the 300-acquisition ratio dominated by Monte Carlo noise "
               "(a standard error of about 0.07-0.09 per seed, wider than the tolerance band); a changed measurement "
               "of the pre-registered test's method and criterion, designed on seeds 0-9")
WHY_COVERAGE = ("the official code's bootstrap criterion (coverage of +-2 sd against a 95 % line), added after the "
                "independent review; the pre-registered bootstrap checks used a rank correlation and a variance "
                "ratio")
SELF = "LURE with the target as its own surrogate (its predictive entropy; official SelfEntropyAcquisition)"
NO_SURROGATE = "the separate, cheaper surrogate (the target's own predictions score the pool instead)"
UNIFORM = "LURE with a uniform proposal (in law, random labelling: its expected ratio is 1)"
NO_SCORE = "the target-free acquisition score (the surrogate's entropy)"
NEYMAN = ("stratified sampling, 5 quantile strata of {}, labels allocated by stratum size x mean score "
          "(a proxy of Neyman allocation), plain stratified mean")
STRAT = "stratified random sampling, 5 equal strata of {}, proportional allocation"
PLAIN = "uncertainty sampling without the LURE correction: the same {} acquisitions, unweighted mean"
MORE = ("miniature only: uniform sampling with more labels, M random pool labels pooled with the surrogate's {} "
        "context labels")

claims.headline(
    "cheap-surrogate",
    "A cheap surrogate, smaller than the target and fitted on a few labelled examples, guides acquisition well "
    "enough that the risk estimate is much more accurate than one from randomly chosen labels",
    tests=["lure-beats-random", "lure-beats-random-precise", "lure-beats-random-official"])
claims.headline(
    "target-free",
    "Good acquisition decisions can be made without the target model's predictions",
    tests=["target-free-beats-random", "target-free-beats-random-precise", "target-free-beats-random-official"])
claims.headline(
    "bootstrap-indicator",
    "A bootstrap of the acquired points estimates the evaluation error and indicates, within a single run, how well "
    "active testing is working",
    tests=["bootstrap-tracks-error", "bootstrap-tracks-error-official", "bootstrap-coverage"])
claims.headline(
    "llm-cost-savings",
    "The surrogate can be built by in-context learning and need not be updated inside the acquisition loop, "
    "savings that make active testing affordable for large language models",
    untestable="no language model on this page: in-context learning becomes a logistic regression fitted once, and "
               "the cost of running an LLM surrogate, which is what the paper saves, does not arise. The comparison "
               "that 'need not be updated' calls for, a surrogate refit after every acquired label, is not run: at "
               "ci it means about 15,000 surrogate fits (one per label and run), beyond the page's compute budget")

claims.illustrate(
    "lure-unbiased",
    statement=f"Over the acquisitions at M = {M_CLAIM}, the mean LURE estimate (CE acquisition) is within "
              "3 standard errors of the pool risk",
    paper="LURE is an unbiased risk estimator under active acquisition (Farquhar et al. 2021)",
    criterion=at_most(3.0), measured=z_lure, tol=TOL,
    why="a result of prior work (Farquhar et al. 2021), exact by construction for any proposal that keeps every "
        "probability positive (unit-tested by enumeration); a z-score <= 3 passes at about 99.7 % of seeds whatever "
        "the paper's claims")

claims.test(
    "lure-beats-random",
    statement=f"At M = {M_CLAIM}, MSE(LURE, CE acquisition) <= 0.7 x MSE(random labelling)",
    paper="much more accurate LLM risk estimates than random acquisition (25-80 % lower error in a summary)",
    criterion=at_most(0.7), measured=ratio["LURE, CE"],
    ablation=Comparator(SELF, ratio["LURE, self"], ingredient=NO_SURROGATE),
    baselines=[Comparator(NEYMAN.format("the same CE score"), ratio["Neyman-proxy, CE"]),
               Comparator(STRAT.format("the same CE score"), ratio["stratified, CE"]),
               Comparator(STRAT.format("the target's own entropy"), ratio["stratified, self"]),
               Comparator(PLAIN.format("CE"), ratio["plain mean, CE"]),
               Comparator(MORE.format(N_CONTEXT), ratio["random + context labels"])], tol=TOL)
claims.test(
    "target-free-beats-random",
    statement=f"At M = {M_CLAIM}, MSE(LURE, target-free acquisition) <= 0.9 x MSE(random labelling)",
    paper="good acquisition decisions without target-model predictions",
    criterion=at_most(0.9), measured=ratio["LURE, target-free"],
    ablation=Comparator(UNIFORM, ratio["LURE, uniform"], ingredient=NO_SCORE),
    baselines=[Comparator(NEYMAN.format("the same score (the surrogate's entropy)"),
                          ratio["Neyman-proxy, target-free"]),
               Comparator(STRAT.format("the same score (the surrogate's entropy)"), ratio["stratified, target-free"]),
               Comparator(PLAIN.format("target-free"), ratio["plain mean, target-free"]),
               Comparator(MORE.format(N_CONTEXT), ratio["random + context labels"])], tol=TOL)
claims.test(
    "lure-beats-random-precise",
    statement=f"At M = {M_CLAIM}, MSE(LURE, CE acquisition) <= 0.7 x the exact MSE of random labelling, from "
              f"{P.precise} acquisitions",
    paper="much more accurate LLM risk estimates than random acquisition (25-80 % lower error in a summary)",
    criterion=at_most(0.7), measured=ratio_p["LURE, CE"],
    ablation=Comparator(SELF, ratio_p["LURE, self"], ingredient=NO_SURROGATE),
    baselines=[Comparator(NEYMAN.format("the same CE score"), ratio_p["Neyman-proxy, CE"]),
               Comparator(STRAT.format("the same CE score"), ratio_p["stratified, CE"]),
               Comparator(STRAT.format("the target's own entropy"), ratio_p["stratified, self"]),
               Comparator(PLAIN.format("CE"), ratio_p["plain mean, CE"]),
               Comparator(MORE.format(N_CONTEXT), ratio_p["random + context labels"])],
    tol=TOL, setting=PRECISE, post_hoc=WHY_PRECISE)
claims.test(
    "target-free-beats-random-precise",
    statement=f"At M = {M_CLAIM}, MSE(LURE, target-free acquisition) <= 0.9 x the exact MSE of random labelling, "
              f"from {P.precise} acquisitions",
    paper="good acquisition decisions without target-model predictions",
    criterion=at_most(0.9), measured=ratio_p["LURE, target-free"],
    ablation=Comparator(UNIFORM, ratio_p["LURE, uniform"], ingredient=NO_SCORE),
    baselines=[Comparator(NEYMAN.format("the same score (the surrogate's entropy)"),
                          ratio_p["Neyman-proxy, target-free"]),
               Comparator(STRAT.format("the same score (the surrogate's entropy)"),
                          ratio_p["stratified, target-free"]),
               Comparator(PLAIN.format("target-free"), ratio_p["plain mean, target-free"]),
               Comparator(MORE.format(N_CONTEXT), ratio_p["random + context labels"])],
    tol=TOL, setting=PRECISE, post_hoc=WHY_PRECISE)
claims.test(
    "lure-beats-random-official",
    statement=f"At M = {M_CLAIM}, MSE(LURE, CE acquisition) <= 0.7 x MSE(random labelling), official configuration",
    paper="much more accurate LLM risk estimates than random acquisition (25-80 % lower error in a summary)",
    criterion=at_most(0.7), measured=ratio_off["LURE, CE, 50 examples"],
    ablation=Comparator(SELF + ", same proposal floor", ratio_off["LURE, self"], ingredient=NO_SURROGATE),
    baselines=[Comparator(NEYMAN.format("the same CE score (50-example surrogate)"),
                          ratio_off["Neyman-proxy, CE, 50 examples"]),
               Comparator(STRAT.format("the same CE score (50-example surrogate)"),
                          ratio_off["stratified, CE, 50 examples"]),
               Comparator(STRAT.format("the target's own entropy"), ratio["stratified, self"]),
               Comparator(PLAIN.format("CE"), ratio_off["plain mean, CE, 50 examples"]),
               Comparator(MORE.format(N_CONTEXT_OFFICIAL), ratio_off["random + 50 context labels"])],
    tol=TOL, setting=OFFICIAL, post_hoc=WHY_OFFICIAL)
claims.test(
    "target-free-beats-random-official",
    statement=f"At M = {M_CLAIM}, MSE(LURE, target-free acquisition) <= 0.9 x MSE(random labelling), official "
              "configuration",
    paper="good acquisition decisions without target-model predictions",
    criterion=at_most(0.9), measured=ratio_off["LURE, target-free, 50 examples"],
    ablation=Comparator(UNIFORM + "; a floored uniform proposal is uniform", ratio["LURE, uniform"],
                        ingredient=NO_SCORE),
    baselines=[Comparator(NEYMAN.format("the same score (the 50-example surrogate's entropy)"),
                          ratio_off["Neyman-proxy, target-free, 50 examples"]),
               Comparator(STRAT.format("the same score (the 50-example surrogate's entropy)"),
                          ratio_off["stratified, target-free, 50 examples"]),
               Comparator(PLAIN.format("target-free"), ratio_off["plain mean, target-free, 50 examples"]),
               Comparator(MORE.format(N_CONTEXT_OFFICIAL), ratio_off["random + 50 context labels"])],
    tol=TOL, setting=OFFICIAL, post_hoc=WHY_OFFICIAL)

PLUGIN = "the textbook standard error s/sqrt(M) of the same weighted terms, no resampling"
RESAMPLING = "the bootstrap resampling"
RAND_BOOT = "random labelling with the classical bootstrap of its mean"
UNW_BOOT = "the unweighted mean of the same acquisitions with its bootstrap (a biased estimator)"
for suffix, cfg, extra in (("", "ours", {}), ("-official", "official", dict(setting=OFFICIAL, post_hoc=WHY_OFFICIAL))):
    d = bars[cfg]
    where = ", official configuration" if suffix else ""
    claims.test(
        f"bootstrap-tracks-error{suffix}",
        statement=f"Across single runs at M = {M_CLAIM}, Spearman correlation of the bootstrap sd with the actual "
                  f"|error| > 0.2{where}",
        paper="the bootstrap estimator is a useful indicator of how well active testing works within one run",
        criterion=greater_than(0.2), measured=d["bootstrap"][0],
        ablation=Comparator(PLUGIN, d["plug-in"][0], ingredient=RESAMPLING),
        baselines=[Comparator(RAND_BOOT, d["random"][0]), Comparator(UNW_BOOT, d["unweighted"][0])],
        tol=TOL_RHO, **extra)
    claims.illustrate(
        f"bootstrap-variance-calibrated{suffix}",
        statement=f"Mean bootstrap variance within a factor 2 of the MSE of LURE at M = {M_CLAIM}{where}",
        paper="the bootstrap estimates the evaluation error",
        criterion=between(0.5, 2.0), measured=d["bootstrap"][1], tol=TOL_VAR,
        why="the bootstrap of a mean of fixed terms is their textbook standard error up to (M-1)/M and resampling "
            "noise (the textbook standard error gives nearly the same ratio); the standard error of an unbiased "
            "estimator matches its MSE on average; and a factor-2 band is passed by any average-sized error bar, a "
            "constant one included: it cannot tell a good in-run indicator from a poor one")
claims.test(
    "bootstrap-coverage",
    statement=f"Across single runs at M = {M_CLAIM}, the interval LURE +- 2 bootstrap sd covers the pool risk in at "
              "least 95 % of the runs",
    paper="the bootstrap estimates the evaluation error (official plots: coverage of +-2 sd against a 95 % line)",
    criterion=at_least(0.95), measured=bars["ours"]["bootstrap"][2],
    ablation=Comparator(PLUGIN, bars["ours"]["plug-in"][2], ingredient=RESAMPLING),
    baselines=[Comparator(RAND_BOOT, bars["ours"]["random"][2]),
               Comparator("LURE with the textbook standard error of the unweighted picked losses",
                          bars["ours"]["picked"][2]),
               Comparator("LURE with a constant error bar, random labelling's exact standard error at M = 50 (it "
                          "needs the pool's loss variance)", bars["ours"]["constant"][2])],
    tol=TOL_COV, post_hoc=WHY_COVERAGE)

# %%
def key(k):
    return k.replace(", ", "_").replace(" + ", "_").replace(" ", "_").replace("-", "_")


g = {"acc_t": acc_t, "acc_s": acc_s, "acc_s50": acc_s50, "R": R, "z_lure": z_lure, "z_naive": z_naive,
     "rho_score_ce": rho_score["CE"], "rho_score_tf": rho_score["target-free"], "rho_score_self": rho_score["self"],
     "random_mc": random_mc}
for prefix, d in (("r_", ratio), ("se_", ratio_se), ("p_", ratio_p), ("pse_", ratio_p_se), ("o_", ratio_off)):
    for k, v in d.items():
        g[prefix + key(k)] = v
for cfg, d in bars.items():
    for k, (rho, vr, cov) in d.items():
        k = k.replace("-", "")
        g[f"b_{cfg}_{k}_rho"], g[f"b_{cfg}_{k}_var"], g[f"b_{cfg}_{k}_cov"] = rho, vr, cov
g["ase0"] = (scores["CE"].mean() - R) ** 2 / mse_exact   # the official ASE's zero-label estimate: mean CE score
for k, v in g.items():
    glue(k, float(v), display=False)
tests = [c for c in claims.results if c["role"] == "test"]
for k, v in {"n_context": N_CONTEXT, "boot_runs": P.boot_runs, "repeats": P.repeats, "precise": P.precise,
             "n_pre": sum(not c["post_hoc"] for c in tests), "n_post": sum(c["post_hoc"] for c in tests),
             "n_illustrations": sum(c["role"] == "illustration" for c in claims.results)}.items():
    glue(k, int(v), display=False)
print(sorted(g))

# %% [markdown]
# ## Against the official code
#
# The paper's code: [gabrielleberrada/scaling-up-active-testing](https://github.com/gabrielleberrada/scaling-up-active-testing)
# (commit `f13249462fe60087814797dd1bb0dd45737fdf7d`). We ran its `LUREEstimator.estimate` (`estimators.py`), its
# acquisition function `entropy_loss` (`metrics.py`) and its proposal `Acquisition.get_pmf_distr`
# (`acquisition.py`) outside the project on small seeded inputs (`tests/papers/golden/active-testing-llm.json`).
# Our `lure_weights` and `lure_estimate` reproduce its weights and estimate to within 2e-16,
# `expected_loss_under_surrogate` and `surrogate_entropy` its "CE" and "entropy" scores to within 3e-16, and
# `clipped_proposal` its proposal at each step of a fixed sequence of draws to within 1e-12. Departures, and what
# was run about each:
#
# - **Proposal** (can move the claims; run). The official loop renormalises the scores of the remaining points and
#   floors them at `clip_percentage / remaining` at every step (0.1 in its estimation runs, 0.01 in its bootstrap
#   runs); we mix with 10 % uniform once. The official rule is part of the second setting, and the table in the
#   results shows it alone.
# - **Surrogate context** (can move the claims; run). The official surrogates see 50 in-context examples against a
#   budget of 400 labels; ours is fitted on 150 images against a budget of 50, chosen in an exploratory run so that
#   it is nearly as accurate as the target, as the official 7B surrogate is. The official count is part of the
#   second setting; there our surrogate is much weaker than the target.
# - **Ablation's floor.** The official `SelfEntropyAcquisition` with LURE uses a floor of 0.01; our ablation uses the
#   method's own proposal rule in each setting, so that only the surrogate differs.
# - **Budget** (named, not run). The official budget is 400 labels in pools of 2,000-10,000; a pool of 1,000 digits
#   cannot hold it at the official fraction, so we stop at 100 (the first figure covers 10 to 100).
# - **Sampler.** The official loop draws one multinomial sample per step; ours draws all $M$ at once with Gumbel
#   top-$k$ for our proposal (the same law, unit-tested) and step by step for the official one.
# - **Bootstrap.** As in the official `run_bootstrap`, we resample the $(v_m, L_{i_m})$ pairs with the weights held
#   fixed, at $M = 50$ only (the official code does it after every draw). The official plots show the coverage of
#   the $\pm 2$ standard-deviation interval and the median squared error of the bootstrap variance; the brief's
#   checks use a rank correlation and a mean variance ratio, and the coverage is a post-hoc test beside them.
# - **Not run.** The official "NLL" acquisition needs the labels of the whole pool; its ASE estimator (Kossen et
#   al., 2022) is represented only by its zero-label estimate, quoted in the skeptic's section.

# %% [markdown]
# ## Claims
#
# The badge counts the {glue:text}`n_pre` pre-registered tests: the brief's CE and target-free accuracy checks and
# its rank-correlation check of the bootstrap, unchanged in method, setting and criterion (and, since the review, in
# their random draws: the values first recorded), now measured beside an ablation and naive baselines. The
# {glue:text}`n_post` post-hoc tests (the official configuration, the precise measurement, the bootstrap's
# coverage) were added when the page was converted or after its review, and would count only once confirmed on
# unseen seeds; none holds on the confirmation seeds 10-19. {glue:text}`n_illustrations` illustrations are shown
# and not counted: LURE's unbiasedness
# (`lure-unbiased`), a result of prior work that holds by construction and is unit-tested exactly by enumeration;
# and the bootstrap's mean variance ratio in both configurations (`bootstrap-variance-calibrated`), which any
# average-sized error bar passes. The old control of the two accuracy tests, shuffled scores, pays variance by
# construction and is drawn in the first figure only.

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# In this miniature, acquisition guided by a cheap score and corrected by LURE weights lowers the error of the
# risk estimate against random labelling, but the paper's ingredients are not what lowers it: stratified sampling
# that spends its labels by the same cheap score, with no importance weights, does as well, and the target used as
# its own surrogate does better than the cheap surrogate. Each ratio below is a Monte Carlo estimate with a
# standard error of about {glue:text}`se_LURE_CE:.2f` at this seed, wider than the tolerance band, so the counts
# over ten seeds say where a method sits against its threshold only to within that noise.
#
# - *A cheap, fixed surrogate beats random labelling* (CE acquisition), {repro-status}`lure-beats-random`. The
#   ratio is {glue:text}`r_LURE_CE:.2f` at this seed; over the ci sweep it is at most $0.7$ at
#   {repro-seeds}`lure-beats-random:method:pass` seeds and within the tolerance band at
#   {repro-seeds}`lure-beats-random:method:edge`. Stratified sampling by the same CE score passes the same criterion
#   at {repro-seeds}`lure-beats-random:baseline1:pass`; the target as its own surrogate at
#   {repro-seeds}`lure-beats-random:ablation:pass`; random labels pooled with the {glue:text}`n_context` context
#   labels (miniature only) at {repro-seeds}`lure-beats-random:baseline5:pass`; proportional strata of the target's
#   entropy at {repro-seeds}`lure-beats-random:baseline3:pass` and of the CE score at
#   {repro-seeds}`lure-beats-random:baseline2:pass`; the unweighted mean of the same acquisitions at
#   {repro-seeds}`lure-beats-random:baseline4:pass`.
# - *The same test, measured precisely* (post hoc: {glue:text}`precise` acquisitions, exact denominator),
#   {repro-status}`lure-beats-random-precise`: LURE passes at {repro-seeds}`lure-beats-random-precise:method:pass`
#   seeds and is at the edge at {repro-seeds}`lure-beats-random-precise:method:edge`; stratification by the CE score
#   passes at {repro-seeds}`lure-beats-random-precise:baseline1:pass`, the target as its own surrogate at
#   {repro-seeds}`lure-beats-random-precise:ablation:pass`. With the noise taken out, LURE with the cheap surrogate
#   sits close to the $0.7$ threshold and is no better than the naive rival.
# - *A smaller surrogate is enough.* The paper claims that a surrogate smaller than the target suffices, not that it
#   is needed; here the target's own entropy ({glue:text}`r_LURE_self:.2f`, precisely {glue:text}`p_LURE_self:.2f`)
#   guides acquisition better than the cheap surrogate's CE score ({glue:text}`p_LURE_CE:.2f`), because our target
#   ranks its own losses well (rank correlation {glue:text}`rho_score_self:.2f`, against
#   {glue:text}`rho_score_ce:.2f` for the CE score). In this miniature the smaller surrogate costs accuracy: evidence
#   against "a smaller surrogate is enough" here, and it is kept as the CE test's ablation, a comparison.
# - *Target-free acquisition beats random*, {repro-status}`target-free-beats-random`. The surrogate's entropy, which
#   needs no target prediction, gives {glue:text}`r_LURE_target_free:.2f` at this seed and passes $\le 0.9$ at
#   {repro-seeds}`target-free-beats-random:method:pass` seeds, but stratification by the same score passes at
#   {repro-seeds}`target-free-beats-random:baseline1:pass` ({glue:text}`r_Neyman_proxy_target_free:.2f` at this
#   seed), and random labels with the context labels at {repro-seeds}`target-free-beats-random:baseline4:pass`. The
#   ablation, LURE with a uniform proposal, is random labelling in law, yet it passes at
#   {repro-seeds}`target-free-beats-random:ablation:pass` and is at the edge at
#   {repro-seeds}`target-free-beats-random:ablation:edge`: the noise of the 300-acquisition measurement. Measured
#   precisely, {repro-status}`target-free-beats-random-precise`: LURE passes at
#   {repro-seeds}`target-free-beats-random-precise:method:pass` seeds ({glue:text}`p_LURE_target_free:.2f` here), and
#   so does stratification by the same score at {repro-seeds}`target-free-beats-random-precise:baseline1:pass`
#   ({glue:text}`p_Neyman_proxy_target_free:.2f`). The target-free score works, but as a guide for where to spend
#   labels it needs no importance weighting to work.
# - *In the official configuration* (50 context examples, the official proposal floor; post hoc), CE acquisition is
#   {repro-status}`lure-beats-random-official`: it fails at {repro-seeds}`lure-beats-random-official:method:fail`
#   seeds. With the brief's and the paper's 50 examples our logistic regression is {glue:text}`acc_s50:.3f`
#   accurate, a much weaker guide than the paper's 7B surrogate, and the 50-example surrogate alone (with our
#   proposal) gives {glue:text}`o_mixed_proposal_CE_50_examples:.2f` at this seed. The CE result in our own
#   configuration rests on a context three times the label budget. Target-free acquisition is
#   {repro-status}`target-free-beats-random-official`: it passes at
#   {repro-seeds}`target-free-beats-random-official:method:pass` seeds, against
#   {repro-seeds}`target-free-beats-random:method:pass` in our configuration, and is at the edge at
#   {repro-seeds}`target-free-beats-random-official:method:edge`; stratification by the same 50-example score passes
#   at {repro-seeds}`target-free-beats-random-official:baseline1:pass`.
# - *The bootstrap tracks the error of a run*, {repro-status}`bootstrap-tracks-error`. The rank correlation between
#   the bootstrap standard deviation and the actual error exceeds $0.2$ at
#   {repro-seeds}`bootstrap-tracks-error:method:pass` seeds ({glue:text}`b_ours_bootstrap_rho:.2f` at this seed),
#   and the textbook standard error moves with it run by run. In the official configuration it is
#   {repro-status}`bootstrap-tracks-error-official`. The bootstrap cannot see the costly points a run never drew.
# - *The bootstrap interval covers the risk* (the official criterion; post hoc), {repro-status}`bootstrap-coverage`:
#   the $\pm 2$ bootstrap standard deviations cover the pool risk in {glue:text}`b_ours_bootstrap_cov:.2f` of the
#   runs at this seed and reach 95 % at {repro-seeds}`bootstrap-coverage:method:pass` seeds (at the edge at
#   {repro-seeds}`bootstrap-coverage:method:edge`); a constant error bar passes at
#   {repro-seeds}`bootstrap-coverage:baseline3:pass`. The mean bootstrap variance is within a factor 2 of the MSE
#   ({glue:text}`b_ours_bootstrap_var:.2f` here), now an illustration: the textbook standard error gives the same
#   number and any average-sized error bar passes that band.
#
# The headline that the surrogate need not be updated in the loop is not tested: a surrogate refit after every
# label, the comparison it calls for, is not run. LURE's unbiasedness, shown as an illustration, holds at this seed
# ({glue:text}`z_lure:.2f` standard errors from the pool risk); it is prior work and cannot fail for a correct
# implementation. The confirmation sweep on seeds 10-19 has run: none of the post-hoc tests holds there (each is
# judged not reproduced or not specific), so none moves the badge. The judged table's full-scale column gives the
# same tests with 3,000 acquisitions per estimator.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page, the
# record and the brief. The review found that the conversion to the claim model had given every estimator its own
# random stream, which re-drew the pre-registered values; the page now replays the first draws (the pre-registered
# values at seeds 0-9 are the ones first recorded) and only the new comparators have their own streams. What the
# reviewer and the conversion tried against every counted test, measured by this notebook at this seed under the
# same measurement and criterion:
#
# - *Stratified sampling that allocates labels by the same cheap score* (the reviewer's strongest rival: five
#   quantile strata, labels in proportion to stratum size times mean score, at least two per stratum, the plain
#   stratified mean): {glue:text}`r_Neyman_proxy_CE:.2f` on the CE score and
#   {glue:text}`r_Neyman_proxy_target_free:.2f` on the surrogate's entropy; precisely
#   {glue:text}`p_Neyman_proxy_CE:.2f` and {glue:text}`p_Neyman_proxy_target_free:.2f`, beside LURE's
#   {glue:text}`p_LURE_CE:.2f` and {glue:text}`p_LURE_target_free:.2f`; in the official configuration
#   {glue:text}`o_Neyman_proxy_CE_50_examples:.2f` and {glue:text}`o_Neyman_proxy_target_free_50_examples:.2f`. It
#   matches LURE on the CE score and beats it on the target-free score, with no importance weights.
# - *The target as its own surrogate* (the CE test's ablation; the official `SelfEntropyAcquisition`): MSE ratio
#   {glue:text}`r_LURE_self:.2f` in our setting, {glue:text}`p_LURE_self:.2f` precisely, {glue:text}`o_LURE_self:.2f`
#   with the official proposal. The reviewer pointed out that it cannot serve as the target-free test's ablation (it
#   uses the target's predictions), and that it argues against the "smaller surrogate" claim here; the target-free
#   tests now take a uniform proposal as their ablation ({glue:text}`r_LURE_uniform:.2f`, precisely
#   {glue:text}`p_LURE_uniform:.2f`).
# - *Monte Carlo noise*: the delta-method standard error of a 300-acquisition ratio is {glue:text}`se_LURE_CE:.3f`
#   for CE acquisition and {glue:text}`se_LURE_target_free:.3f` target-free, and random labelling's simulated MSE
#   is {glue:text}`random_mc:.2f` of its closed form; with {glue:text}`precise` acquisitions and the closed form as
#   denominator the standard error is {glue:text}`pse_LURE_CE:.3f`. Hence the precise post-hoc tests.
# - *The brief's context size*: with 50 context images (the official configuration's surrogate) CE acquisition with
#   our proposal gives {glue:text}`o_mixed_proposal_CE_50_examples:.2f` at this seed; the official-configuration test
#   fails at {repro-seeds}`lure-beats-random-official:method:fail` seeds.
# - *Uniform sampling with more labels* (miniature only): the 50 random pool labels pooled with the losses on the
#   surrogate's {glue:text}`n_context` context images, {glue:text}`r_random_context_labels:.2f` (with the 50
#   official-count images, {glue:text}`o_random_50_context_labels:.2f`). Its error is set mostly by how far the
#   context's mean loss happens to fall from the pool's. In this miniature the context images are held out from the
#   target, so their labels are as good as test labels; in the paper the in-context examples come from the training
#   split, so there this baseline does not exist.
# - *Proportional stratification* (five equal strata, no weights): on the CE score {glue:text}`r_stratified_CE:.2f`,
#   on the target's entropy {glue:text}`r_stratified_self:.2f`, on the surrogate's entropy
#   {glue:text}`r_stratified_target_free:.2f`.
# - *Uncertainty sampling without the LURE correction*: the unweighted mean of the method's own acquisitions,
#   {glue:text}`r_plain_mean_CE:.2f` (CE) and {glue:text}`r_plain_mean_target_free:.2f` (target-free);
#   {glue:text}`o_plain_mean_CE_50_examples:.2f` and {glue:text}`o_plain_mean_target_free_50_examples:.2f` in the
#   official configuration. Its bias ({glue:text}`z_naive:.1f` standard errors) is what LURE removes.
# - *Shuffled CE scores* (the old control of the accuracy tests): {glue:text}`r_LURE_shuffled:.2f`. A proposal
#   unrelated to the loss pays extra variance by construction: a strawman, kept in the first figure only. The true
#   loss as score (an oracle) gives {glue:text}`r_LURE_oracle:.3f`: the room that a better surrogate could fill.
# - *A zero-label estimate* (the official code's ASE without labels: the mean CE score over the pool): its squared
#   error is {glue:text}`ase0:.0f` times random labelling's MSE. The surrogate's expected loss is a biased guess of
#   the target's risk.
# - *Error bars without the bootstrap*: the textbook standard error of the same weighted terms has rank correlation
#   {glue:text}`b_ours_plugin_rho:.2f` with the actual error, variance ratio {glue:text}`b_ours_plugin_var:.2f` and
#   coverage {glue:text}`b_ours_plugin_cov:.2f`, beside the bootstrap's {glue:text}`b_ours_bootstrap_rho:.2f`,
#   {glue:text}`b_ours_bootstrap_var:.2f` and {glue:text}`b_ours_bootstrap_cov:.2f`. Random labelling's own
#   bootstrap covers the pool risk in {glue:text}`b_ours_random_cov:.2f` of its runs; a constant error bar (random
#   labelling's exact standard error) in {glue:text}`b_ours_constant_cov:.2f` and the unweighted picks' standard
#   error in {glue:text}`b_ours_picked_cov:.2f` of LURE's runs: coverage alone rewards a wide bar. The unweighted
#   mean's bootstrap correlates with its error at {glue:text}`b_ours_unweighted_rho:.2f`, because a biased estimate
#   errs most where it drew the costliest points: a rank correlation above $0.2$ does not make an error bar good.
# - *Not run here*: the reviewer also tried difference and regression estimators with the same scores (control
#   variates, no active acquisition); they were weaker than stratification by the score, which is why the page runs
#   only the latter. *Another run's bootstrap* (the old control of the rank-correlation test) is a null at chance, a
#   strawman; it was dropped.
#
# ## What the miniature cannot show
#
# - **Language models.** Every cost-saving decision of the paper concerns LLMs: in-context-learned surrogates,
#   a 7B surrogate for a 70B target, no surrogate retraining because retraining an LLM is expensive. Our small
#   models make all of this nearly free, so the page tests the statistics of active testing with a fixed, weaker
#   surrogate, not its cost at LLM scale; and it does not run a surrogate updated in the loop.
# - **A target that misjudges itself.** Our MLP's own entropy ranks its losses well, so a separate surrogate has
#   little to add. The official SST-2 notebook shows the opposite for a 70B target used as its own surrogate. Where
#   a separate surrogate helps is the case of a target that is confidently wrong; this page does not have one, and
#   we did not build one to order.
# - **Text tasks and their loss profiles.** Gains depend on how concentrated the loss is on a few points, which
#   differs between tasks; one image task cannot say how large the gain is on the paper's datasets.
# - **Label budgets.** We stop at 100 labels of 1,000; the paper evaluates up to 400 in larger pools, with 50
#   in-context examples, an eighth of its budget, where our context is three times ours.
