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
# # Entropy-calibrated label distribution learning
#
# *Label-distribution learners fit peaked (low-entropy) label distributions worst; the paper blames anchor
# vectors that sit too close together, and proposes a penalty that spreads them apart plus an evaluation that
# scores low- and high-entropy test samples separately.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, greater_than, tolerance
from repro.papers import ldl_entropy_calibration as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # ci: about 15 s of CPU on one thread for the whole `pipeline execute` (user time, measured on a loaded
    # 2-core machine; the wall-clock time there is several times longer): 2 run seeds x 7 variants on the page's
    # data and 8 run seeds x 5 variants on the brief's, 300 Adam steps each, and 2 + 2 runs of 900 steps (the
    # baseline trained 3x longer), each data set's runs trained side by side (K.train_ldl_many)
    "ci": dict(seeds=2, seeds_b=8, n_train=2000, n_test=2000, steps=300),
    # minutes: 4 run seeds on the page's data (8 on the brief's), more data, 2000 Adam steps
    "full": dict(seeds=4, seeds_b=8, n_train=5000, n_test=5000, steps=2000),
})
claims = Claims("ldl-entropy-calibration", title="Entropy-Calibrated Label Distribution Learning", authors=None,
                paper_url="https://openreview.net/forum?id=uGjTP2kFcX", scale=scale, seed=seed)
D, C, M = 10, 6, 8                  # input size, labels, feature size
R, S = 1.0, 6.0                     # feature norm r and anchor norm s
LOW_FRAC = 0.2                      # share of samples drawn with a peaked (low-entropy) distribution
THETA0, LAM = 90.0, 1.0             # angular regulariser: smallest unpenalised angle (degrees), weight
TAU = 0.5 * np.log(C)               # entropy threshold (nats) of the low/high split: half the maximum entropy
RERUN_OFFSET = 500                  # the no-op comparator: the baseline from run seed + 500 (another start)
LONGER = 3                          # the skeptic's "train longer" baseline: 3x the steps
K_GRID = (5, 10, 20, 40)            # AA-kNN's neighbour counts, one picked on a validation quarter of the training set
NET = dict(theta0=THETA0, m=M, r=R, s=S)
VARIANTS = {                        # keyword arguments of a run of K.train_ldl_many
    "baseline": dict(),
    "angular": dict(reg="angular", lam=LAM),
    "simplex": dict(anchors="simplex"),
    "balanced": dict(weighting="entropy-balanced", tau=TAU),
    "l2": dict(reg="l2", lam=LAM),
    "ang60": dict(reg="angular", lam=LAM, theta0=60.0),
    "rerun": dict(),                # the baseline, from run seed + RERUN_OFFSET
}
PAGE = ["baseline", "angular", "simplex", "balanced", "l2", "ang60", "rerun"]     # trained on the page's data
BRIEF = ["baseline", "angular", "simplex", "balanced", "rerun"]                   # trained on the brief's data
LABEL = {
    "baseline": "KL only (baseline)",
    "angular": "+ angular regulariser (the paper's)",
    "simplex": "anchors fixed at a regular simplex (the spread imposed, no penalty)",
    "balanced": "entropy-balanced KL loss",
    "temp": "the baseline sharpened by one temperature fitted on the training set",
    "long": "the baseline trained 3x longer",
    "rerun": "the baseline from another initialisation (no-op)",
    "l2": "scale penalty on a scale-invariant parameter (strawman: it only changes the optimiser's step)",
    "ang60": "angular penalty with theta0 = 60 degrees (nearly inactive)",
    "knn": "AA-kNN (no anchors)",
    "bayes": "best prediction in mean KL, E[d | x] (oracle)",
}
RUN_SEEDS = [1000 * seed + k for k in range(P.seeds)]
RUN_SEEDS_B = [1000 * seed + k for k in range(P.seeds_b)]    # the brief's data: more run seeds (less noise)

# %% [markdown]
# ## The claim
#
# In *label distribution learning* (LDL) every sample carries a whole distribution over labels (how much
# each label describes it), and a model predicts that distribution. The paper makes three points. (1)
# LDL algorithms do systematically worse on samples whose true distribution has **low entropy** (one label
# dominates), which are often the ones a decision depends on; and the usual evaluation, a mean over a test
# set dominated by high-entropy samples, hides this. (2) The cause, by empirical and theoretical analysis, is
# **cohesion of the anchor vectors**: with a softmax over $W f(x)$, the rows $w_k$ of $W$ (one anchor per
# label) end up at small angles to each other, which caps how peaked a prediction can be. (3) The fixes: an
# **inter-anchor angular regulariser** that penalises over-small angles, and an **entropy-calibrated
# aggregation** that evaluates the low- and high-entropy test subsets separately and averages the two. The
# paper reports improvements on real LDL data sets; no numbers, code or formula could be retrieved (authors not
# found), so the regulariser and data below are the brief's design.
#
# The paper's headline claims, in our words, and where this page tests them:
#
# 1. *LDL learners do systematically worse on low-entropy samples*: the test `entropy-bias` (the baseline's
#    ratio of low- to high-entropy error).
# 2. *Excessive cohesion of the anchors contributes significantly to that bias*: answered by the ablation of
#    the same test, which holds the anchors at a regular simplex, where no two of them can cohere. The baseline's
#    own ratio says nothing about the cause; whether the bias survives without cohesion does.
# 3. *The angular regulariser mitigates the bias*: the tests `low-entropy-gain` and `low-cut-and-high-kept`
#    (post hoc) on the page's data, and `low-entropy-gain-brief-data` (post hoc) on the brief's data.
# 4. *Entropy-calibrated aggregation removes the evaluation's bias towards the high-entropy majority*: not a
#    test. It is an evaluation protocol: its insensitivity to the subsets' sizes holds by definition (the
#    implementation check `calibrated-invariance`), and the illustration `aggregation-reversal` shows its
#    observable effect in miniature, two learners that the usual mean and the calibrated aggregate rank in
#    opposite orders. Whether its order is the more useful one on real data cannot be judged here.
#
# ## The method
#
# Prediction $\hat d_x = \operatorname{softmax}(W f(x))$ with $\|f(x)\| = r$ and anchors of norm $s$ (only
# their directions are learned; `K.LDLNet`). Since $o_k - o_j = f\cdot(w_k - w_j) \le r\|w_k - w_j\|
# = rs\sqrt{2-2\cos\theta_{kj}}$,
#
# $$ \hat d_{x,k} \;\le\; \Big(1+\sum_{j\ne k} e^{-r\|w_k-w_j\|}\Big)^{-1} \qquad\text{(`K.max\_prob\_bound`)}, $$
#
# so anchors at small angles forbid confident, low-entropy predictions. The regulariser (`K.angular_regularizer`)
#
# $$ R(W) = \sum_{k<l}\max\big(0, \cos\theta_{kl}-\cos\theta_0\big)^2 $$
#
# is zero once every pair is at least $\theta_0$ apart; the training loss is the mean
# $\mathrm{KL}(d_x\,\|\,\hat d_x)$ plus $\lambda R(W)$. The calibrated aggregate of a per-sample measure $m$ is
# $\tfrac12\big(\overline m_{\,H<\tau} + \overline m_{\,H\ge\tau}\big)$ (`K.calibrated_aggregate`).
#
# ## The experiment
#
# * **The page's data** (`K.make_ldl_data`): $x\sim N(0, I_{10})$, a random teacher $V$ (6 × 10) and
#   $d_x = \operatorname{softmax}(\beta_x V x/\sqrt{10})$; 20 % of samples draw a sharpness $\beta_x\sim U[4,8]$
#   (peaked distributions), 80 % draw $\beta_x\sim U[0.2,1]$ (nearly flat ones): an imbalanced entropy profile.
#   The sharpness is drawn **independently of $x$**, so no learner can tell from the input whether a sample's
#   distribution is peaked. The prediction with the lowest expected KL is then $E[d_x\mid x]$, a mixture over
#   the sharpness, which we compute by quadrature from the teacher (`K.bayes_ldl`, an oracle). It is best in
#   mean KL over all samples, not on the low-entropy subset alone: a learner that predicts more sharply than it
#   can do better on the peaked samples by doing worse on the flat ones. The page has drawn its data this way
#   from the start; the brief asked for a sharpness $\beta(x)$ that depends on the input.
# * **The brief's data** (a second setting, post hoc): the same inputs and teacher, with the sharpness a
#   function of the input (`sharpness="input"`): with $u = \Phi(x_1)$, the samples with $u > 0.8$ are peaked,
#   and $\beta$ rises linearly in $u$ across $[4, 8]$ there and across $[0.2, 1]$ below. Every learner can fit
#   this sharpness; the oracle's error is zero.
# * Train and test sets are drawn from the same teacher; the test set is split at $\tau = \tfrac12\ln 6 \approx
#   0.90$ nats.
# * **Model**: a 10 → 64 → 8 MLP feature map rescaled to norm $r=1$, 6 anchors of norm $s=6$; Adam, learning
#   rate $10^{-2}$, batches of 256, 300 steps at ci. All runs of one data set are trained side by side
#   (`K.train_ldl_many`: the parameters of the runs stacked, the same iterates as one run at a time).
# * **Variants**, trained from the same initial weights and batches per run seed:
#   * *baseline*: KL only. It is also the method without its ingredient: every test of the regulariser measures
#     a change relative to it, which is 0 for the baseline by construction;
#   * *angular*: + $\lambda R(W)$ with $\lambda = 1$, $\theta_0 = 90°$ (the paper's regulariser, the brief's form);
#   * *simplex anchors* (**the ablation** of every test): the anchors held at a regular simplex (every pair at
#     about 101.5°, the widest spread six directions can have), never learned, no penalty. It removes
#     cohesion by fiat, so it stands for the anchors without cohesion in `entropy-bias`, and for the spread the
#     penalty aims at, with no penalty, in the regulariser's tests;
#   * *entropy-balanced loss* (**naive baseline**): each training sample's KL weighted so that the low- and
#     high-entropy training samples weigh the same in total (`K.entropy_balanced_weights`), the textbook answer
#     to an imbalance, with none of the paper's ideas;
#   * *temperature sharpening* (**naive baseline**, no training): the baseline's predictions raised to the power
#     $1/T$ and renormalised (`K.sharpen`), with the one temperature $T$ on a grid from 0.3 to 1.5 that gives the
#     lowest calibrated KL on the *training* set (`K.fit_temperature`);
#   * *the baseline trained 3× longer* (**naive baseline**, page's data; on the brief's data only reported):
#     900 steps instead of 300;
#   * *the baseline from another initialisation* (**naive baseline**, a no-op): the same training from run seed
#     + 500, to show how far a rerun alone moves the error;
#   * *scale penalty* $\lambda\|V\|^2$ on the free anchor matrix (a **strawman**, page's data only, kept from the
#     conversion, when it was called the ablation): the anchors are $s\,V/\|V\|$, so the model does not depend on $\|V\|$ and this
#     penalty cannot change what the loss prefers. It only shrinks $V$, and then Adam's steps, of roughly fixed
#     size, turn the anchors much faster: what it changes is the optimiser's step, not the angles' weight;
#   * *angular penalty with $\theta_0 = 60°$* (page's data, reported only): nearly inactive, since it acts only
#     on pairs of anchors closer than 60°, which the baseline's rarely are (the anchor figure).
# * **Learners with no anchors** (naive baselines of `entropy-bias`): AA-kNN, the mean label distribution of the
#   $k$ nearest training inputs (Geng, 2016; `K.knn_ldl`, $k$ picked from 5, 10, 20 and 40 by mean KL on the last
#   quarter of the training set), and the oracle $E[d_x\mid x]$ above.
# * **Scale**: ci: 2 run seeds on the page's data and 8 on the brief's, 2 000 training and 2 000 test samples,
#   300 steps; full: 4 and 8 run seeds, 5 000 + 5 000 samples, 2 000 steps.
#
# **Tests** (means over run seeds). The first two were fixed before the first run, with the brief's
# thresholds. When the book asked every test for its ablation and naive baselines (issue 33), and again after
# the independent review, their method, setting and criterion stayed as they were and only the comparators
# changed (the random split of `entropy-bias`, a ratio near 1 by construction, was a strawman and is gone).
#
# 1. `entropy-bias`: the baseline's mean KL on the low-entropy test subset is at least 2× its KL on the
#    high-entropy subset. Ablation: simplex anchors. Baselines: AA-kNN, the oracle.
# 2. `low-entropy-gain`: the regulariser cuts the low-entropy KL by at least 10 % relative to the baseline.
#    Ablation: simplex anchors. Baselines: the entropy-balanced loss, temperature sharpening, the baseline
#    trained 3× longer, the no-op rerun, and the l2 strawman.
#
# Post hoc (designed on seeds 0-9, counted only once confirmed on seeds 10-19):
#
# 3. `low-cut-and-high-kept` (added after the review): the brief's claim check 2 as the brief wrote it, one
#    conjunction: the regulariser cuts the low-entropy KL by at least 10 % *and* changes the high-entropy KL by
#    at most 5 %. Measured as its margin $\min(\text{cut} - 0.10,\ 0.05 - |\text{change}|)$, which passes at 0 or
#    above; its band is the two halves' own bands (0.03 each at its threshold). Same comparators as test 2.
#    It contains test 2: it cannot pass where test 2 fails.
# 4. `low-entropy-gain-brief-data` (added at the conversion, redesigned after the review): test 2 on the
#    brief's data, where a better fit can lower the low-entropy error, over 8 run seeds instead of 2. Its
#    band, 0.05 around the bar, is the spread of the no-op rerun's cut over seeds 0-9 at this design, and it was
#    the noise that chose the design (more run seeds halved it; more steps did not). Comparators as test 2,
#    without the longer baseline and the l2 strawman.
#
# Shown, never counted: `high-entropy-kept` (the regulariser changes the high-entropy KL by at most 5 %:
# pre-registered as a test, but a "does not hurt" criterion that the baseline itself passes by construction),
# `anchor-spread` (the regulariser raises the mean anchor angle: the quantity it penalises),
# `oracle-low-entropy-cut` (what the best predictor in mean KL gains on the low-entropy subset of the page's
# data), `aggregation-reversal` (the two aggregations rank the baseline and the balanced loss in opposite
# orders) and `calibrated-invariance` (an implementation check).
#
# **Deviations from the paper**
#
# * Data: one synthetic teacher instead of the paper's real-world LDL data sets (the brief's semi-real digits
#   variant is not run). On the page's data the sharpness does not depend on the input, unlike the brief's
#   $\beta(x)$; the brief's form is run as a second setting.
# * Regulariser: the brief's squared hinge on cosines with $\theta_0 = 90°$, $\lambda = 1$; the paper's exact
#   penalty and settings were not found.
# * Model: fixed anchor and feature norms ($s = 6$, $r = 1$) so that angles alone set the cap; the paper's
#   models are the usual LDL learners.
# * Threshold $\tau$: half the maximum entropy, not a data-set statistic.
# * Measures: KL is the claimed one; the other five are reported in the table only.
# * No official code was found (a supplementary archive on OpenReview, not accessed; no public repository), so
#   there is no cross-check against it and no golden file.

# %%
X, Pd, _ = K.make_ldl_data(P.n_train + P.n_test, D, C, LOW_FRAC, seed)
X_tr, P_tr, X_te, P_te = X[:P.n_train], Pd[:P.n_train], X[P.n_train:], Pd[P.n_train:]
Xb, Pb, _ = K.make_ldl_data(P.n_train + P.n_test, D, C, LOW_FRAC, seed, sharpness="input")   # the brief's data
Xb_tr, Pb_tr, Xb_te, Pb_te = Xb[:P.n_train], Pb[:P.n_train], Xb[P.n_train:], Pb[P.n_train:]


def runs_of(names, run_seeds, data=0):
    """The runs of K.train_ldl_many: each variant at each run seed (the rerun from run seed + RERUN_OFFSET)."""
    return [dict(VARIANTS[v], seed=rs + (RERUN_OFFSET if v == "rerun" else 0), data=data)
            for rs in run_seeds for v in names]


def evaluate(models, names, run_seeds, X_tr, P_tr, X_te, P_te):
    """Per-sample test measures, anchor angles, caps and free-anchor norms per variant; and the baseline
    sharpened by the temperature that minimises its calibrated KL on the training set ("temp")."""
    out = {v: dict(measures=[], angles=[], bounds=[], vnorm=[]) for v in names}
    out["temp"] = dict(measures=[], T=[])
    fitted = iter(models)
    for _ in run_seeds:
        for v in names:
            model = next(fitted)
            Q = K.predict(model, X_te)
            out[v]["measures"].append(K.ldl_measures(P_te, Q))
            out[v]["angles"].append(K.anchor_angles(model.W))
            out[v]["bounds"].append(K.max_prob_bound(model.W, R))
            out[v]["vnorm"].append(float(model.V.detach().norm(dim=1).mean()))
            if v == "baseline":
                T = K.fit_temperature(K.predict(model, X_tr), P_tr, TAU)
                out["temp"]["measures"].append(K.ldl_measures(P_te, K.sharpen(Q, T)))
                out["temp"]["T"].append(T)
    return out


# every run of one data set and budget is trained side by side (the same iterates as one run at a time)
fits = {}
for stage in progress(("page", "brief", "long"), desc="training"):
    if stage == "page":
        fits[stage] = K.train_ldl_many(X_tr, P_tr, runs_of(PAGE, RUN_SEEDS), steps=P.steps, **NET)[0]
    elif stage == "brief":
        fits[stage] = K.train_ldl_many(Xb_tr, Pb_tr, runs_of(BRIEF, RUN_SEEDS_B), steps=P.steps, **NET)[0]
    else:   # the baseline trained LONGER times as long, on both data sets (first P.seeds run seeds)
        fits[stage] = K.train_ldl_many([X_tr, Xb_tr], [P_tr, Pb_tr],
                                       runs_of(["baseline"], RUN_SEEDS, 0) + runs_of(["baseline"], RUN_SEEDS, 1),
                                       steps=LONGER * P.steps, **NET)[0]
res = evaluate(fits["page"], PAGE, RUN_SEEDS, X_tr, P_tr, X_te, P_te)
res_b = evaluate(fits["brief"], BRIEF, RUN_SEEDS_B, Xb_tr, Pb_tr, Xb_te, Pb_te)
n_long = len(RUN_SEEDS)
res["long"] = dict(measures=[K.ldl_measures(P_te, K.predict(m, X_te)) for m in fits["long"][:n_long]])
long_b = [K.ldl_measures(Pb_te, K.predict(m, Xb_te))["kl"] for m in fits["long"][n_long:]]


def knn_pick(X_tr, P_tr):
    """AA-kNN's k: the lowest mean KL on the last quarter of the training set, fitted on the rest."""
    n_fit = int(0.75 * len(X_tr))
    val = {k: K.ldl_measures(P_tr[n_fit:], K.knn_ldl(X_tr[:n_fit], P_tr[:n_fit], X_tr[n_fit:], k))["kl"].mean()
           for k in K_GRID}
    return min(val, key=val.get)


low, low_b = K.split_by_entropy(P_te, TAU), K.split_by_entropy(Pb_te, TAU)
H_te = K.entropy(P_te)
kl = {v: np.array([m["kl"] for m in r["measures"]]) for v, r in res.items()}           # (run seeds, n_test)
kl_b = {v: np.array([m["kl"] for m in r["measures"]]) for v, r in res_b.items()}
k_knn = knn_pick(X_tr, P_tr)
kl["knn"] = K.ldl_measures(P_te, K.knn_ldl(X_tr, P_tr, X_te, k_knn))["kl"][None, :]
kl["bayes"] = K.ldl_measures(P_te, K.bayes_ldl(X_te, K.teacher_matrix(D, C, seed), LOW_FRAC))["kl"][None, :]
kl["uniform"] = K.ldl_measures(P_te, np.full_like(P_te, 1.0 / C))["kl"][None, :]               # no learning at all
kl["trainmean"] = K.ldl_measures(P_te, np.tile(P_tr.mean(0), (len(P_te), 1)))["kl"][None, :]
kl_low = {v: kl[v][:, low].mean(1) for v in kl}
kl_high = {v: kl[v][:, ~low].mean(1) for v in kl}
klb_low = {v: kl_b[v][:, low_b].mean(1) for v in kl_b}
klb_high = {v: kl_b[v][:, ~low_b].mean(1) for v in kl_b}
print(f"page's data: {low.sum()} low-entropy and {(~low).sum()} high-entropy test samples (tau = {TAU:.3f} nats); "
      f"brief's data: {low_b.sum()} and {(~low_b).sum()}; AA-kNN k = {k_knn}")

# %% [markdown]
# ## Results
#
# Error per entropy bin on the page's data (mean KL divergence of the test samples in each bin of true entropy;
# line: mean over run seeds, band: ± one standard deviation), for the baseline, the regulariser, three naive
# learners and the oracle; and the number of test samples per bin. The oracle has the lowest KL averaged over
# all samples; within bins chosen by the true entropy a learner can beat it, as the temperature-sharpened
# baseline does on the peaked samples, by paying for it on the flat ones.

# %%
edges = np.linspace(0, np.log(C), 9)
centres = (edges[:-1] + edges[1:]) / 2
bin_of = np.clip(np.digitize(H_te, edges) - 1, 0, len(centres) - 1)
SHOWN = {"baseline": "C0", "angular": "C1", "simplex": "C2", "balanced": "C4", "temp": "C6", "knn": "C5",
         "bayes": "k"}
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8), gridspec_kw=dict(width_ratios=[2, 1]))
for v, colour in SHOWN.items():
    per = np.array([[k[bin_of == b].mean() if np.any(bin_of == b) else np.nan for b in range(len(centres))]
                    for k in kl[v]])
    mu, sd = np.nanmean(per, 0), np.nanstd(per, 0)
    ax1.plot(centres, mu, "o-" if v != "bayes" else "--", color=colour, ms=3, label=LABEL[v])
    ax1.fill_between(centres, mu - sd, mu + sd, color=colour, alpha=0.15)
ax1.axvline(TAU, color="gray", ls=":", label="low/high split τ")
ax1.set_yscale("log")
ax1.set_xlabel("entropy of the true label distribution (nats)")
ax1.set_ylabel("mean KL(true ‖ predicted) (nats)")
ax1.set_title("Error per entropy bin (page's data, test set)")
ax1.legend(fontsize=7)
ax2.bar(centres, np.bincount(bin_of, minlength=len(centres)), width=edges[1] - edges[0], color="0.6")
ax2.axvline(TAU, color="gray", ls=":")
ax2.set_xlabel("entropy (nats)")
ax2.set_ylabel("test samples per bin (count)")
ax2.set_title("The imbalance")
plt.show()

# %% [markdown]
# The anchors themselves on the page's data: the angles between all pairs of anchors (pooled over run seeds)
# and the cap on the largest probability they allow (the bound above, smallest over the labels), per variant.

# %%
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.6))
for i, v in enumerate(("baseline", "angular", "l2")):
    ax1.hist(np.concatenate(res[v]["angles"]), bins=np.linspace(0, 180, 37), histtype="step", lw=1.5,
             color=f"C{i}", label=f"{v} (mean {np.mean(res[v]['angles']):.0f}°)")
for i, v in enumerate(("baseline", "angular", "l2", "simplex", "rerun")):
    b = np.array([bb.min() for bb in res[v]["bounds"]])
    ax2.scatter(np.full(len(b), i), b, color=f"C{i}", s=20)
ax1.axvline(THETA0, color="k", ls=":", lw=1, label="θ₀ = 90°")
ax1.axvline(np.degrees(np.arccos(-1 / (C - 1))), color="gray", ls="--", lw=1, label="regular simplex")
ax1.set_xlabel("angle between two anchors (degrees)")
ax1.set_ylabel("anchor pairs (count)")
ax1.set_title("Anchor angles")
ax1.legend(fontsize=8)
ax2.axhline(np.quantile(P_te.max(1), 0.95), color="gray", ls=":", label="95th pct of true max prob")
ax2.set_xticks(range(5), ("baseline", "angular", "l2", "simplex", "rerun"))
ax2.set_ylabel("cap on the largest probability")
ax2.set_title("max_prob_bound (smallest over labels; dots: run seeds)")
ax2.legend(fontsize=8)
plt.show()

# %% [markdown]
# Each test's measurement for the method and its comparators (mean over run seeds at this notebook seed; the
# dashed line is the test's threshold, the grey band its tolerance band, inside which a value is at the edge
# and never a pass). The third panel is the brief's two-part check as one number, its margin
# $\min(\text{cut} - 0.10,\ 0.05 - \text{change})$, which is at least 0 only when both parts hold.

# %%
CUT = ("angular", "simplex", "balanced", "temp", "long", "rerun", "l2", "ang60")
CUT_B = ("angular", "simplex", "balanced", "temp", "rerun")
BIAS_MIN, GAIN_MIN, HIGH_MAX = 2.0, 0.10, 0.05   # the brief's thresholds, fixed before the first run
ratio = {v: float(np.mean(kl_low[v] / kl_high[v])) for v in kl}
gain = {v: float(np.mean(1 - kl_low[v] / kl_low["baseline"])) for v in CUT}
high_change = {v: float(np.mean(np.abs(kl_high[v] / kl_high["baseline"] - 1))) for v in CUT}
margin = {v: K.brief_check_margin(gain[v], high_change[v], GAIN_MIN, HIGH_MAX) for v in CUT}
gain_b = {v: float(np.mean(1 - klb_low[v] / klb_low["baseline"])) for v in CUT_B}
high_change_b = {v: float(np.mean(np.abs(klb_high[v] / klb_high["baseline"] - 1))) for v in CUT_B}
klb_low_long = np.array([k[low_b].mean() for k in long_b])
gain_b_long = float(np.mean(1 - klb_low_long / klb_low["baseline"][:n_long]))   # same run seeds as the 3x runs
spread = {v: float(np.mean([a.mean() - b.mean() for a, b in zip(res[v]["angles"], res["baseline"]["angles"])]))
          for v in ("angular", "l2")}
gain_oracle = float(np.mean(1 - kl_low["bayes"][0] / kl_low["baseline"]))


def aggregates(kls):
    """(conventional mean KL, entropy-calibrated KL aggregate), each a mean over run seeds."""
    return (float(np.mean([k.mean() for k in kls])),
            float(np.mean([K.calibrated_aggregate(k, P_te, TAU) for k in kls])))


conv, calib = {}, {}
for v in ("baseline", "angular", "balanced", "temp"):
    conv[v], calib[v] = aggregates(kl[v])
reversal = min(conv["balanced"] - conv["baseline"], calib["baseline"] - calib["balanced"])

TRAIN_TOL = "end point of a few hundred to thousands of Adam steps: moves with the kernel dispatch"
TOL_RATIO = tolerance(rel=0.1, why=TRAIN_TOL)
TOL_GAIN = tolerance(abs=0.03, why=TRAIN_TOL)
TOL_HIGH = tolerance(rel=0.2, abs=0.02, why=TRAIN_TOL + "; the l2 control's ratio moves most")
TOL_GAIN_B = tolerance(abs=0.05, why="the noise of this measurement: the no-op rerun's relative cut (the baseline "
                       "from run seed + 500 against the baseline) has a standard deviation of 0.053 over seeds 0-9 "
                       "at 8 run seeds (0.105 at the 2 run seeds used before the review); under foreign numerics a "
                       "300-step Adam end point moves like a rerun")
TOL_MARGIN = tolerance(abs=0.03, why="each half's band at its threshold: 0.03 around the 10 % cut (as in "
                       "low-entropy-gain) and 0.02 + 20 % of 0.05 around the 5 % change (as in high-entropy-kept); "
                       + TRAIN_TOL)
TOL_REV = tolerance(abs=0.01, why=TRAIN_TOL)
TESTED = ["simplex", "balanced", "temp", "long", "rerun", "l2"]     # comparators of tests 2 and 3: ablation first
TESTED_B = ["simplex", "balanced", "temp", "rerun"]
PANELS = [   # test, axis label, threshold, tolerance, values, who (method first, then ablation, then baselines)
    ("entropy-bias", "low / high KL ratio", BIAS_MIN, TOL_RATIO, ratio, ["baseline", "simplex", "knn", "bayes"]),
    ("low-entropy-gain", "relative cut in low-entropy KL", GAIN_MIN, TOL_GAIN, gain, ["angular", *TESTED]),
    ("low-cut-and-high-kept", "margin of the two-part check", 0.0, TOL_MARGIN, margin, ["angular", *TESTED]),
    ("low-entropy-gain-brief-data", "relative cut in low-entropy KL", GAIN_MIN, TOL_GAIN_B, gain_b,
     ["angular", *TESTED_B]),
]
fig, axes = plt.subplots(1, 4, figsize=(15, 3.6))
for ax, (tid, ylabel, thr, tol, vals, names) in zip(axes, PANELS):
    band = tol.abs + tol.rel * abs(thr)
    colours = ["C3"] + ["C1"] + ["C0"] * (len(names) - 2)
    ax.bar(range(len(names)), [vals[n] for n in names], color=colours)
    ax.axhline(thr, color="k", ls="--", lw=1)
    ax.axhspan(thr - band, thr + band, color="0.8", alpha=0.6)
    ax.set_xticks(range(len(names)), names, rotation=40, fontsize=8)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.set_title(tid, fontsize=9)
    if tid == "low-cut-and-high-kept":
        ax.set_yscale("symlog", linthresh=0.1)
fig.suptitle("in each panel: the method (red), its ablation (orange), the naive baselines (blue; l2 is a "
             "strawman); the entropy-bias panel's method is the baseline learner", fontsize=9)
plt.show()

# %% [markdown]
# The six LDL measures on the page's data, conventional mean over the test set and entropy-calibrated aggregate,
# mean over run seeds (distances: lower is better; cosine and intersection: higher is better). The paper
# reports no numbers that we could retrieve, so there is no column for them.

# %%
print(f"{'measure':<13}" + "".join(f"{v + ' mean':>16}{v + ' calib':>16}" for v in ("baseline", "angular")))
for key in ("kl", "chebyshev", "clark", "canberra", "cosine", "intersection"):
    row = f"{key:<13}"
    for v in ("baseline", "angular"):
        vals = [m[key] for m in res[v]["measures"]]
        row += f"{np.mean([x.mean() for x in vals]):>16.4f}"
        row += f"{np.mean([K.calibrated_aggregate(x, P_te, TAU) for x in vals]):>16.4f}"
    print(row)
print("\nKL low / high subsets, page's data: " + ", ".join(f"{v}: {kl_low[v].mean():.4f} / {kl_high[v].mean():.4f}"
                                                         for v in kl))
print("KL low / high subsets, brief's data: " + ", ".join(f"{v}: {klb_low[v].mean():.4f} / {klb_high[v].mean():.4f}"
                                                          for v in kl_b))

# %%
claims.headline("low-entropy-underperformance",
                "LDL learners do systematically worse on samples whose label distribution has low entropy",
                tests=["entropy-bias"])
claims.headline("anchor-cohesion-causes-it",
                "Excessive cohesion (small angles) among the anchor vectors of the softmax model contributes "
                "significantly to that bias",
                tests=["entropy-bias"])
claims.headline("angular-regulariser-mitigates",
                "An inter-anchor angular regulariser that penalises over-small angles mitigates the bias",
                tests=["low-entropy-gain", "low-cut-and-high-kept", "low-entropy-gain-brief-data"])
claims.headline("calibrated-aggregation",
                "Entropy-calibrated aggregation, scoring the low- and high-entropy test subsets separately, removes the "
                "evaluation's bias towards the high-entropy majority",
                untestable="an evaluation protocol, not a method that can fail a test: that it weighs both subsets "
                           "equally whatever their sizes holds by definition (implementation check "
                           "calibrated-invariance), and that it can rank two learners in the opposite order to the "
                           "usual mean is shown in miniature (illustration aggregation-reversal); whether its "
                           "rankings are the more useful ones on real LDL data needs the paper's data sets and "
                           "methods")

ING_PENALTY = ("the angular penalty: the method without it is the baseline, the reference of the relative change "
               "(0 by construction); this ablation imposes the spread the penalty aims at, with no penalty")


def comparators(values, names):
    """The ablation (first name) and the naive baselines (the rest) of a test, under its measurement."""
    return (Comparator(LABEL[names[0]], values[names[0]], ingredient=ING_PENALTY),
            [Comparator(LABEL[v], values[v]) for v in names[1:]])


claims.test(
    "entropy-bias",
    statement="the baseline's KL on low-entropy test samples is at least twice its KL on high-entropy ones "
              "(ratio, mean over run seeds)",
    paper="LDL algorithms systematically underperform on low-entropy samples, and anchor cohesion is a main cause "
          "(no number retrieved)",
    criterion=at_least(BIAS_MIN), measured=ratio["baseline"], tol=TOL_RATIO,
    ablation=Comparator(LABEL["simplex"], ratio["simplex"],
                        ingredient="learned anchor directions, the only place where cohesion can arise"),
    baselines=[Comparator(LABEL["knn"], ratio["knn"]), Comparator(LABEL["bayes"], ratio["bayes"])],
)
abl, base = comparators(gain, TESTED)
claims.test(
    "low-entropy-gain",
    statement="the angular regulariser cuts the low-entropy KL by at least 10 % relative to the baseline "
              "(mean over run seeds)",
    paper="the inter-anchor angular regulariser mitigates the entropy bias (no number retrieved)",
    criterion=at_least(GAIN_MIN), measured=gain["angular"], tol=TOL_GAIN, ablation=abl, baselines=base,
)
abl, base = comparators(margin, TESTED)
claims.test(
    "low-cut-and-high-kept",
    statement="the angular regulariser cuts the low-entropy KL by at least 10 % and changes the high-entropy KL "
              "by at most 5 %, both relative to the baseline (the brief's claim check 2, one conjunction; "
              "measured: its margin min(cut - 0.10, 0.05 - |change|), means over run seeds)",
    paper="the inter-anchor angular regulariser mitigates the entropy bias (no number retrieved)",
    criterion=at_least(0.0), measured=margin["angular"], tol=TOL_MARGIN, ablation=abl, baselines=base,
    post_hoc="added after the independent review: the brief pre-registered its claim check 2 as one conjunction, "
             "which the page had split into low-entropy-gain and high-entropy-kept, so that a naive comparator "
             "could pass each half on its own (the balanced loss and temperature sharpening pass the first, a no-op "
             "the second). The brief's thresholds and the two halves' own bands, no new numbers. Designed on "
             "seeds 0-9",
)
abl, base = comparators(gain_b, TESTED_B)
claims.test(
    "low-entropy-gain-brief-data",
    statement="on the brief's data (sharpness a function of the input), the angular regulariser cuts the "
              "low-entropy KL by at least 10 % relative to the baseline (mean over 8 run seeds)",
    paper="the inter-anchor angular regulariser mitigates the entropy bias (no number retrieved)",
    criterion=at_least(GAIN_MIN), measured=gain_b["angular"], tol=TOL_GAIN_B, ablation=abl, baselines=base,
    setting="the brief's data: the sharpness beta(x) is a function of the input",
    post_hoc="added at the conversion (issue 33) to run low-entropy-gain unchanged on the data the brief "
             "describes, where the sharpness can be predicted from the input. Redesigned after the independent "
             "review, on seeds 0-9 and for the noise of the measurement alone (the no-op rerun's cut, never a "
             "comparator's status): 8 run seeds instead of 2 halved the rerun's spread, while 2, 3 or 5 times as "
             "many steps did not lower it; the band is that spread. Comparators since the review: simplex anchors as "
             "the ablation, temperature sharpening and the no-op rerun added, the l2 strawman dropped",
)
claims.illustrate(
    "high-entropy-kept",
    statement="the angular regulariser changes the high-entropy KL by at most 5 % (|relative change|, mean over "
              "run seeds)",
    paper="the fix targets low-entropy samples without harming the rest (brief's design)",
    criterion=at_most(HIGH_MAX), measured=high_change["angular"], tol=TOL_HIGH,
    why="a 'does not hurt' criterion where the paper claims a gain: the method without its ingredient (the baseline) "
        "changes nothing and passes by construction, and so does a nearly inactive penalty; pre-registered as a "
        "test, an illustration since the independent review (the brief's check is now the conjunction "
        "low-cut-and-high-kept)",
)
claims.illustrate(
    "anchor-spread",
    statement="the angular regulariser raises the mean pairwise anchor angle over the baseline's (degrees)",
    paper="the regulariser mitigates cohesion by penalising over-small angles",
    criterion=greater_than(0.0), measured=spread["angular"], tol=tolerance(abs=3.0, why=TRAIN_TOL),
    why="the regulariser penalises exactly the angles below 90 degrees, so raising the angles is what it is built "
        "to do; pre-registered as a test, an illustration since the conversion",
)
claims.illustrate(
    "oracle-low-entropy-cut",
    statement="on the page's data, the oracle's relative cut in low-entropy KL over the baseline "
              "(1 - KL_low(oracle) / KL_low(baseline)), against test 2's 10 %: what the best predictor in mean KL "
              "gains on the low-entropy subset, not a ceiling for predictors that give up mean KL",
    paper="(our analysis of the page's data: the sharpness is drawn independently of the input)",
    criterion=at_least(GAIN_MIN), measured=gain_oracle, tol=TOL_GAIN,
    why="a property of our data generator and of the baseline's fit, not of the paper's method: the oracle E[d | x] "
        "minimises the expected KL given x, not the KL of a subset selected by the true distribution",
)
claims.illustrate(
    "aggregation-reversal",
    statement="the conventional mean KL ranks the baseline above the entropy-balanced loss and the calibrated "
              "aggregate ranks them the other way (measured: the smaller of the two gaps, nats)",
    paper="entropy-calibrated aggregation changes what an imbalanced test set rewards",
    criterion=greater_than(0.0), measured=reversal, tol=TOL_REV,
    why="close to definitional: a loss re-weighted towards the minority subset is expected to lose on the mean that "
        "the majority dominates and may gain on the equal-weight one; it shows that the protocol can reorder "
        "learners, not that its order is the more useful one",
)
high = ~low
base0 = kl["baseline"][0]
dup_P, dup_v = np.concatenate([P_te, P_te[high]]), np.concatenate([base0, base0[high]])
calib_shift = abs(K.calibrated_aggregate(dup_v, dup_P, TAU) - K.calibrated_aggregate(base0, P_te, TAU))
mean_shift = abs(dup_v.mean() - base0.mean())
print(f"duplicating the high-entropy test samples moves the conventional mean KL by {mean_shift:.4f} nats")
claims.check(
    "calibrated-invariance",
    statement="duplicating every high-entropy test sample moves the calibrated KL aggregate by nothing "
              "(while the conventional mean moves)",
    paper="entropy-calibrated aggregation removes the weight of the high-entropy majority",
    criterion=at_most(1e-12), measured=float(calib_shift), kind="implementation",
    tol=tolerance(abs=1e-12),
)

# %%
for v in kl:
    glue(f"ratio_{v}", ratio[v], display=False)
    glue(f"kl_low_{v}", float(kl_low[v].mean()), display=False)
    glue(f"kl_high_{v}", float(kl_high[v].mean()), display=False)
for v in CUT:
    glue(f"gain_{v}", 100 * gain[v], display=False)
    glue(f"hc_{v}", 100 * high_change[v], display=False)
    glue(f"margin_{v}", margin[v], display=False)
for v in CUT_B:
    glue(f"gainb_{v}", 100 * gain_b[v], display=False)
    glue(f"hcb_{v}", 100 * high_change_b[v], display=False)
for v in kl_b:
    glue(f"klb_low_{v}", float(klb_low[v].mean()), display=False)
    glue(f"klb_high_{v}", float(klb_high[v].mean()), display=False)
for v in conv:
    glue(f"conv_{v}", conv[v], display=False)
    glue(f"calib_{v}", calib[v], display=False)
glue("gainb_long", 100 * gain_b_long, display=False)
glue("ratiob_baseline", float(np.mean(klb_low["baseline"] / klb_high["baseline"])), display=False)
glue("gain_oracle", 100 * gain_oracle, display=False)
glue("k_knn", k_knn, display=False)
glue("spread_angular", spread["angular"], display=False)
glue("spread_l2", spread["l2"], display=False)
for v in ("baseline", "angular", "l2", "simplex", "rerun", "ang60"):
    glue(f"angle_{v}", float(np.mean(res[v]["angles"])), display=False)
    glue(f"angle_min_{v}", float(np.mean([a.min() for a in res[v]["angles"]])), display=False)
    glue(f"cap_{v}", float(np.mean([b.min() for b in res[v]["bounds"]])), display=False)
for v in ("baseline", "l2"):
    glue(f"vnorm_{v}", float(np.mean(res[v]["vnorm"])), display=False)
glue("T_page", float(np.mean(res["temp"]["T"])), display=False)
glue("T_brief", float(np.mean(res_b["temp"]["T"])), display=False)
glue("n_seeds_b", len(RUN_SEEDS_B), display=False)
glue("true_max_q95", float(np.quantile(P_te.max(1), 0.95)), display=False)
glue("low_share", 100 * float(low.mean()), display=False)
glue("high_share", 100 * float((~low).mean()), display=False)
glue("mean_shift", float(mean_shift), display=False)

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
# Read at ci scale (seed 0: 2 run seeds on the page's data and 8 on the brief's, 300 steps); the judged table
# gives each test's status over the ci sweep, and its full-scale column the full-scale sweep of this version
# (seeds 0-2).
#
# One fact about the page's data frames its tests. The sharpness of a sample's distribution is drawn
# independently of its input, so no learner can know which samples are peaked. The prediction with the lowest
# expected KL, $E[d_x\mid x]$, has a low-entropy KL of {glue:text}`kl_low_bayes:.3f` nats against the
# baseline's {glue:text}`kl_low_baseline:.3f` (seed 0): a cut of {glue:text}`gain_oracle:.1f` % (the
# illustration `oracle-low-entropy-cut`). That is how far a learner can cut the low-entropy error *without
# raising its mean KL*. A learner that gives up mean KL can cut it much further, as two naive baselines below
# do. Nor does the oracle's cut explain the regulariser's null result. It lies within the band of the 10 %
# bar at {repro-seeds}`oracle-low-entropy-cut:method:edge` seeds and clearly below it at
# {repro-seeds}`oracle-low-entropy-cut:method:fail`, so at most seeds a cut of several per cent was there to
# be had with no loss in mean KL, and the regulariser took none of it.
#
# * *Learners do worse on low-entropy samples* ({repro-status}`entropy-bias`). The baseline's low-entropy KL is
#   {glue:text}`ratio_baseline:.1f` times its high-entropy KL at seed 0. Learners without cohesive anchors are as
#   biased: with the anchors held at a regular simplex, where none can cohere (the ablation), the ratio is
#   {glue:text}`ratio_simplex:.1f`; AA-kNN, which has no anchors ($k$ = {glue:text}`k_knn`), gives
#   {glue:text}`ratio_knn:.1f`; and the oracle itself {glue:text}`ratio_bayes:.1f`. Over the ci sweep the
#   baseline passes at {repro-seeds}`entropy-bias:method:pass` seeds, the simplex anchors at
#   {repro-seeds}`entropy-bias:ablation:pass`, AA-kNN at {repro-seeds}`entropy-bias:baseline1:pass` and the
#   oracle at {repro-seeds}`entropy-bias:baseline2:pass`. The bias is real here, but it comes from the data and
#   from KL on peaked targets: even a constant uniform prediction shows it (below). Headline 2 is answered by
#   the ablation, and the answer is that cohesion is not needed to produce the bias on these data. With
#   {glue:text}`high_share:.0f` % high-entropy test samples the conventional mean KL is
#   {glue:text}`conv_baseline:.3f` nats and the calibrated aggregate {glue:text}`calib_baseline:.3f`.
# * *The regulariser cuts the low-entropy error by 10 %* ({repro-status}`low-entropy-gain`). It cuts it by
#   {glue:text}`gain_angular:.1f` % at seed 0; the simplex anchors (the ablation) by
#   {glue:text}`gain_simplex:.1f` %, the baseline trained 3× longer by {glue:text}`gain_long:.1f` % and the no-op
#   rerun by {glue:text}`gain_rerun:.1f` %. Over the ci sweep the regulariser fails the bar at
#   {repro-seeds}`low-entropy-gain:method:fail` seeds. Two naive baselines with none of the paper's ideas pass
#   it: the entropy-balanced loss (a cut of {glue:text}`gain_balanced:.1f` %, passing at
#   {repro-seeds}`low-entropy-gain:baseline1:pass` seeds) and temperature sharpening
#   ({glue:text}`gain_temp:.1f` %, $T$ = {glue:text}`T_page:.2f`, passing at
#   {repro-seeds}`low-entropy-gain:baseline2:pass`). Had the regulariser passed, the test would have been not
#   specific. Both buy their cut with the high-entropy samples, whose KL rises by {glue:text}`hc_balanced:.0f` %
#   and {glue:text}`hc_temp:.0f` %: a criterion on the low-entropy subset alone rewards that trade.
# * *The brief's check, both halves at once* ({repro-status}`low-cut-and-high-kept`, post hoc). The brief
#   asked for a cut of at least 10 % *and* a change of at most 5 % on the high-entropy side. The margin of that
#   conjunction is {glue:text}`margin_angular:.3f` for the regulariser at seed 0 (its cut falls short; its
#   high-entropy change, {glue:text}`hc_angular:.1f` %, does not). Every comparator fails it too: the balanced
#   loss ({glue:text}`margin_balanced:.2f`) and temperature sharpening ({glue:text}`margin_temp:.2f`) on the
#   high-entropy side only, the simplex anchors ({glue:text}`margin_simplex:.3f`) on the low-entropy side, and
#   the longer training ({glue:text}`margin_long:.3f`) and the rerun ({glue:text}`margin_rerun:.3f`) on both
#   (the margin shows the side that misses by more). Over the ci sweep the regulariser fails it at
#   {repro-seeds}`low-cut-and-high-kept:method:fail` seeds, and the test is not reproduced at
#   {repro-seeds}`low-cut-and-high-kept:test:not-reproduced`. Written as the brief wrote it, the check can no
#   longer be passed by a trade between the subsets, and no learner on the page meets it.
# * *On the brief's data* ({repro-status}`low-entropy-gain-brief-data`, post hoc), where the sharpness is a
#   function of the input and a better fit can lower the low-entropy error (the baseline's low-entropy KL is
#   {glue:text}`klb_low_baseline:.3f` nats, {glue:text}`ratiob_baseline:.1f` times its high-entropy KL), the
#   regulariser cuts it by {glue:text}`gainb_angular:.1f` % at seed 0 (mean over {glue:text}`n_seeds_b` run
#   seeds), the simplex anchors by {glue:text}`gainb_simplex:.1f` % and the no-op rerun by
#   {glue:text}`gainb_rerun:.1f` %. The band, 5 points on each side of the 10 % bar, is the standard deviation
#   of the rerun's cut over the design seeds, so a cut that reached the bar only within it could not be told
#   from a rerun that happened to land there. Over the ci sweep the
#   regulariser passes at {repro-seeds}`low-entropy-gain-brief-data:method:pass` seeds, is inside the band at
#   {repro-seeds}`low-entropy-gain-brief-data:method:edge` and below it at
#   {repro-seeds}`low-entropy-gain-brief-data:method:fail`. The balanced loss
#   ({glue:text}`gainb_balanced:.1f` %) passes at {repro-seeds}`low-entropy-gain-brief-data:baseline1:pass`
#   seeds and temperature sharpening ({glue:text}`gainb_temp:.1f` %) at
#   {repro-seeds}`low-entropy-gain-brief-data:baseline2:pass`, so here too a pass of the regulariser would
#   not have been specific. This error is reducible, and the reason is
#   plain: at 300 steps the baseline is under-fitted on these data. The same baseline trained 3× longer has a
#   low-entropy KL {glue:text}`gainb_long:.0f` % lower (first 2 run seeds), so anything that speeds up fitting
#   would pass this test. Spreading the anchors does not.
# * *The regulariser leaves the high-entropy error alone* (the illustration `high-entropy-kept`). It moves that
#   error by {glue:text}`hc_angular:.1f` % at seed 0, under the 5 % bar. Over the ci sweep it clears the band
#   around the bar at {repro-seeds}`high-entropy-kept:method:pass` seeds, lies inside it at
#   {repro-seeds}`high-entropy-kept:method:edge` and above it at {repro-seeds}`high-entropy-kept:method:fail`:
#   it does no harm, and the seeds inside the band are all under the bar itself, not failures. But the baseline, which is the method
#   without its penalty, passes this criterion by construction (a change of 0), and a nearly inactive penalty
#   ($\theta_0 = 60°$) moves the error by {glue:text}`hc_ang60:.1f` %. A "does not hurt" check cannot show the
#   gain the paper claims, so it is shown, not counted; its half of the brief's check is tested in the
#   conjunction above.
# * *Why the angles do not matter here* (the illustration `anchor-spread` and the anchor figure). The
#   regulariser does spread the anchors, by {glue:text}`spread_angular:.1f`° on average, to a smallest angle of
#   {glue:text}`angle_min_angular:.0f`°. But the baseline's anchors were not cohesive to begin with: their mean
#   angle is {glue:text}`angle_baseline:.0f`°, their smallest {glue:text}`angle_min_baseline:.0f`°, and their
#   cap on the largest probability, $1/(1+\sum_j e^{-r\|w_k-w_j\|})$, is already
#   {glue:text}`cap_baseline:.3f`, about as high as the 95th percentile of the true largest probabilities
#   ({glue:text}`true_max_q95:.3f`). Spreading them further removes a constraint that was not binding.
# * *Calibrated aggregation* is insensitive to duplicating the high-entropy test samples, which moves the
#   conventional mean KL by {glue:text}`mean_shift:.3f` nats (implementation check: it holds by definition).
#   And it changes which learner looks best (the illustration `aggregation-reversal`). The conventional mean
#   ranks the baseline ({glue:text}`conv_baseline:.3f` nats) above the balanced loss
#   ({glue:text}`conv_balanced:.3f`); the calibrated aggregate ranks them the other way
#   ({glue:text}`calib_baseline:.3f` against {glue:text}`calib_balanced:.3f`). Under the paper's own
#   aggregation the naive re-weighting is a *gain*, and with temperature sharpening
#   ({glue:text}`calib_temp:.3f`) it is the best learner on the page, while the regulariser
#   ({glue:text}`calib_angular:.3f`) ties with the baseline. That the order flips is close to definitional under
#   this imbalance; which order serves a decision better is a question for real data.
#
# In our miniature the paper's ingredient is not needed for anything the tests can resolve. The bias appears
# with anchors that cannot cohere; the regulariser spreads the anchors, but the changes it makes to either
# subset's error are of the size that retraining from another start makes; the learners that do cut the
# low-entropy error are naive ones that pay for it on the high-entropy side, and none of them, nor the
# regulariser, passes the brief's two-part check.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page, its
# record and its ci sweep. They re-ran the page's data and run seeds at ci scale on seeds 0-9 beside naive
# alternatives (constant predictions, temperature sharpening, the baseline trained 3× longer, a nearly inactive
# penalty, a no-op rerun on the brief's data), measured what the l2 penalty does to the anchors, and re-judged
# every test under its own band. What they found is now measured by this notebook (seed 0, mean over the run
# seeds), and it changed the page: the l2 penalty is labelled a strawman, temperature sharpening, the longer
# training and the rerun became comparators, `high-entropy-kept` became an illustration, the brief's
# conjunction was added as a test, and test 4 was redesigned against its noise.
#
# * **Predictions that learn nothing** (against `entropy-bias`): the uniform distribution has a low / high KL
#   ratio of {glue:text}`ratio_uniform:.1f`, the training set's mean distribution
#   {glue:text}`ratio_trainmean:.1f`, both far above 2. The bias is a property of KL on peaked targets, which
#   is why that test cannot be specific here.
# * **Sharpen the baseline after training** (one temperature fitted on the training set to the calibrated KL;
#   $T$ = {glue:text}`T_page:.2f` on the page's data, {glue:text}`T_brief:.2f` on the brief's): a low-entropy
#   cut of {glue:text}`gain_temp:.1f` % on the page's data and {glue:text}`gainb_temp:.1f` % on the brief's,
#   with the high-entropy KL up by {glue:text}`hc_temp:.0f` % and {glue:text}`hcb_temp:.0f` %. It passes the
#   low-entropy criterion without touching the model, and fails the conjunction.
# * **Train longer**: the baseline trained for 900 steps instead of 300 cuts the low-entropy KL by
#   {glue:text}`gain_long:.1f` % on the page's data (the 300-step baseline is already close to what this learner
#   reaches there) and moves the high-entropy KL by {glue:text}`hc_long:.1f` % (a better fit, which the two-sided
#   5 % criterion counts as harm). On the brief's data it cuts the low-entropy KL by
#   {glue:text}`gainb_long:.0f` %: the 300-step baseline is under-fitted there.
# * **A penalty that barely acts** ($\theta_0 = 60°$): low-entropy cut {glue:text}`gain_ang60:.1f` %,
#   high-entropy change {glue:text}`hc_ang60:.1f` %. It passes the "does not hurt" criterion as the regulariser
#   does, which is why `high-entropy-kept` is an illustration now.
# * **Train again from another start** (run seed + 500): on the page's data a low-entropy cut of
#   {glue:text}`gain_rerun:.1f` % and a high-entropy change of {glue:text}`hc_rerun:.1f` %; on the brief's data a
#   cut of {glue:text}`gainb_rerun:.1f` % (mean over {glue:text}`n_seeds_b` run seeds). At the 2 run seeds the
#   brief's test used before the review, the rerun's cut spread over seeds 0-9 about as widely as the 10 % bar
#   itself; averaging 8 run seeds halved that spread, and the band of test 4 is now that spread (its post-hoc
#   note gives the numbers). Training 2, 3 or 5 times longer did not shrink it.
# * **What the l2 penalty does.** The anchors are $s\,V/\|V\|$, so the model does not depend on the scale of
#   $V$, and $\lambda\|V\|^2$ cannot change what the loss prefers. It shrinks the rows of $V$ to a norm of
#   {glue:text}`vnorm_l2:.3f` (the baseline's: {glue:text}`vnorm_baseline:.2f`), and Adam's steps, of roughly
#   fixed size, then turn the anchors much faster. Its low-entropy cut ({glue:text}`gain_l2:.1f` %) and
#   high-entropy change ({glue:text}`hc_l2:.1f` %) are optimisation noise, not the effect of ignoring angles. It
#   stays on the page's data as a labelled strawman. The ablation slot of the regulariser's tests now holds the
#   simplex anchors; the true ablation, no penalty at all, is the baseline, the reference of every relative
#   change.
# * **The oracle is no ceiling.** On the page's data the balanced loss and temperature sharpening cut the
#   low-entropy KL by {glue:text}`gain_balanced:.0f` % and {glue:text}`gain_temp:.0f` %, against the oracle's
#   {glue:text}`gain_oracle:.1f` %: the oracle is best in mean KL, not on a subset picked by the true
#   distribution. The page had called the oracle's cut the most any learner could show; it now says what it is.
# * **The baseline's anchors**: mean angle {glue:text}`angle_baseline:.0f`°, smallest
#   {glue:text}`angle_min_baseline:.0f`°, cap {glue:text}`cap_baseline:.3f`; the simplex anchors' cap is
#   {glue:text}`cap_simplex:.3f`. A learner with no anchors, AA-kNN, has low / high KL
#   {glue:text}`kl_low_knn:.3f` / {glue:text}`kl_high_knn:.3f`, worse than the network on the low-entropy
#   samples and better on the high-entropy ones.
#
# Tried by the reviewer and not re-run here: how far the anchors turn in the last training step under the l2
# penalty (one seed; the norm above is the cause), and the statuses under other bands. Not tried by anyone:
# a data set with more labels than feature dimensions, and weight decay on the anchors.
#
# ## What the miniature cannot show
#
# * **The paper's data and learners.** One synthetic teacher with 6 labels and an 8-dimensional feature
#   space; the paper uses real LDL data sets and established LDL algorithms, where cohesion may arise for
#   other reasons (many labels, label correlations, weight decay). On the page's data the learned anchors are
#   not cohesive without the regulariser (the anchor figure), so the regime in which the paper's ingredient
#   should matter does not occur. A design pilot on seeds 0-9 with half the anchor norm ($s = 3$, where even a
#   regular simplex caps the largest probability below many peaked targets) found the baseline's anchors
#   spreading on their own and the regulariser changing nothing; it is not part of the page. We did not search
#   further (more labels than feature dimensions, weight decay on the anchors), because a setting picked until
#   the regulariser wins would not test it.
# * **The paper's regulariser and theory.** The exact penalty, its weight and threshold, and the theorem
#   linking the softmax hypothesis space to low-entropy error were not found; we test the brief's squared
#   hinge and a simple norm bound.
# * **The evaluation protocol.** The paper's choice of entropy threshold and its comparison of rankings of
#   methods on real data are not reproduced; we fix $\tau$ at half the maximum entropy, and show only that the
#   two aggregations can rank two learners in opposite orders.
