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

from repro.claims import Claims, at_least, at_most, greater_than, tolerance
from repro.papers import ldl_entropy_calibration as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 10 s on one quiet thread: 2 run seeds x 3 variants x 300 Adam steps
    "ci": dict(seeds=2, n_train=2000, n_test=2000, steps=300),
    # a few minutes: 4 run seeds x 3 variants x 2000 Adam steps, more data
    "full": dict(seeds=4, n_train=5000, n_test=5000, steps=2000),
})
claims = Claims("ldl-entropy-calibration", title="Entropy-Calibrated Label Distribution Learning", authors=None,
                paper_url="https://openreview.net/forum?id=uGjTP2kFcX", scale=scale, seed=seed)
D, C, M = 10, 6, 8                  # input size, labels, feature size
R, S = 1.0, 6.0                     # feature norm r and anchor norm s
LOW_FRAC = 0.2                      # share of samples drawn with a peaked (low-entropy) distribution
THETA0, LAM = 90.0, 1.0             # angular regulariser: smallest unpenalised angle (degrees), weight
TAU = 0.5 * np.log(C)               # entropy threshold (nats) of the low/high split: half the maximum entropy
VARIANTS = ("baseline", "angular", "l2")
RUN_SEEDS = [1000 * seed + k for k in range(P.seeds)]

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
# * **Data** (the brief's synthetic set, `K.make_ldl_data`): $x\sim N(0, I_{10})$, a random teacher $V$
#   (6 × 10) and $d_x = \operatorname{softmax}(\beta_x V x/\sqrt{10})$; 20 % of samples draw a sharpness
#   $\beta_x\sim U[4,8]$ (peaked distributions), 80 % draw $\beta_x\sim U[0.2,1]$ (nearly flat ones): an
#   imbalanced entropy profile. Train and test sets are drawn from the same teacher; the test set is split at
#   $\tau = \tfrac12\ln 6 \approx 0.90$ nats.
# * **Model**: a 10 → 64 → 8 MLP feature map rescaled to norm $r=1$, 6 anchors of norm $s=6$; Adam, learning
#   rate $10^{-2}$, batches of 256.
# * **Variants** (same initial weights and batches per run seed): *baseline* (KL only); *angular* (+ $\lambda
#   R(W)$ with $\lambda = 1$, $\theta_0 = 90°$); *l2* (control: + $\lambda\|V\|^2$ on the free anchor
#   parameters, a generic penalty of the same weight that does not look at angles).
# * **Scale**: ci: 2 run seeds, 2 000 training and 2 000 test samples, 300 steps; full: 4 run seeds, 5 000 +
#   5 000 samples, 2 000 steps.
#
# **Claims, fixed before the first run** (the brief's checks; means over run seeds):
#
# 1. `entropy-bias`: the baseline's mean KL on the low-entropy test subset is at least 2× its KL on the
#    high-entropy subset. Control: the same ratio for a random split of the test set into subsets of the
#    same sizes (no entropy in it).
# 2. `low-entropy-gain`: the regulariser cuts the low-entropy KL by at least 10 % relative to the baseline.
#    Control: the l2 penalty.
# 3. `high-entropy-kept`: it changes the high-entropy KL by at most 5 % (relative). Control: the l2 penalty.
# 4. `anchor-spread`: it raises the mean pairwise anchor angle (degrees, over the baseline's). Control: the
#    l2 penalty.
# 5. The calibrated aggregate does not move when every high-entropy test sample is duplicated, while the
#    conventional mean does: an identity of the definition, shown as an implementation check.
#
# **Deviations from the paper**
#
# * Data: one synthetic teacher instead of the paper's real-world LDL data sets (the brief's semi-real digits
#   variant is not run).
# * Regulariser: the brief's squared hinge on cosines with $\theta_0 = 90°$, $\lambda = 1$; the paper's exact
#   penalty and settings were not found.
# * Model: fixed anchor and feature norms ($s = 6$, $r = 1$) so that angles alone set the cap; the paper's
#   models are the usual LDL learners.
# * Threshold $\tau$: half the maximum entropy, not a data-set statistic.
# * Measures: KL is the claimed one; the other five are reported in the table only.
# * No official code was accessed, so there is no cross-check against it and no golden file.

# %%
X, Pd, _ = K.make_ldl_data(P.n_train + P.n_test, D, C, LOW_FRAC, seed)
X_tr, P_tr, X_te, P_te = X[:P.n_train], Pd[:P.n_train], X[P.n_train:], Pd[P.n_train:]
H_te = K.entropy(P_te)
low = K.split_by_entropy(P_te, TAU)
measures = {v: [] for v in VARIANTS}
angles = {v: [] for v in VARIANTS}
bounds = {v: [] for v in VARIANTS}
for rs in progress(RUN_SEEDS, desc="run seeds"):
    for v in VARIANTS:
        model, _ = K.train_ldl(X_tr, P_tr, rs, steps=P.steps, reg="none" if v == "baseline" else v,
                               lam=0.0 if v == "baseline" else LAM, theta0=THETA0, m=M, r=R, s=S)
        measures[v].append(K.ldl_measures(P_te, K.predict(model, X_te)))
        angles[v].append(K.anchor_angles(model.W))
        bounds[v].append(K.max_prob_bound(model.W, R))
kl = {v: np.array([m["kl"] for m in measures[v]]) for v in VARIANTS}        # (run seeds, n_test)
kl_low = {v: kl[v][:, low].mean(1) for v in VARIANTS}
kl_high = {v: kl[v][:, ~low].mean(1) for v in VARIANTS}
print(f"test set: {low.sum()} low-entropy and {(~low).sum()} high-entropy samples (tau = {TAU:.3f} nats)")

# %% [markdown]
# ## Results
#
# Per-entropy-bin error of the predicted distributions (mean KL divergence of the test samples in each bin of
# true entropy; line: mean over run seeds, band: ± one standard deviation), with and without the regulariser,
# and the number of test samples per bin:

# %%
edges = np.linspace(0, np.log(C), 9)
centres = (edges[:-1] + edges[1:]) / 2
bin_of = np.clip(np.digitize(H_te, edges) - 1, 0, len(centres) - 1)
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8), gridspec_kw=dict(width_ratios=[2, 1]))
for i, v in enumerate(VARIANTS):
    per = np.array([[k[bin_of == b].mean() if np.any(bin_of == b) else np.nan for b in range(len(centres))]
                    for k in kl[v]])
    mu, sd = np.nanmean(per, 0), np.nanstd(per, 0)
    ax1.plot(centres, mu, "o-", color=f"C{i}", ms=3, label=v)
    ax1.fill_between(centres, mu - sd, mu + sd, color=f"C{i}", alpha=0.2)
ax1.axvline(TAU, color="gray", ls=":", label="low/high split τ")
ax1.set_yscale("log")
ax1.set_xlabel("entropy of the true label distribution (nats)")
ax1.set_ylabel("mean KL(true ‖ predicted) (nats)")
ax1.set_title("Error per entropy bin (test set)")
ax1.legend(fontsize=8)
ax2.bar(centres, np.bincount(bin_of, minlength=len(centres)), width=edges[1] - edges[0], color="0.6")
ax2.axvline(TAU, color="gray", ls=":")
ax2.set_xlabel("entropy (nats)")
ax2.set_ylabel("test samples per bin (count)")
ax2.set_title("The imbalance")
plt.show()

# %% [markdown]
# The anchors themselves: the angles between all pairs of anchors (pooled over run seeds) and the cap on the
# largest probability they allow (the bound above, smallest over the labels), per variant.

# %%
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.6))
for i, v in enumerate(VARIANTS):
    ax1.hist(np.concatenate(angles[v]), bins=np.linspace(0, 180, 37), histtype="step", lw=1.5, color=f"C{i}",
             label=f"{v} (mean {np.mean(angles[v]):.0f}°)")
    b = np.array([bb.min() for bb in bounds[v]])
    ax2.scatter(np.full(len(b), i), b, color=f"C{i}", s=20)
ax1.axvline(THETA0, color="k", ls=":", lw=1, label="θ₀ = 90°")
ax1.axvline(np.degrees(np.arccos(-1 / (C - 1))), color="gray", ls="--", lw=1, label="regular simplex")
ax1.set_xlabel("angle between two anchors (degrees)")
ax1.set_ylabel("anchor pairs (count)")
ax1.set_title("Anchor angles")
ax1.legend(fontsize=8)
ax2.axhline(np.quantile(P_te.max(1), 0.95), color="gray", ls=":", label="95th pct of true max prob")
ax2.set_xticks(range(len(VARIANTS)), VARIANTS)
ax2.set_ylabel("cap on the largest probability")
ax2.set_title("max_prob_bound (smallest over labels; dots: run seeds)")
ax2.legend(fontsize=8)
plt.show()

# %% [markdown]
# The six LDL measures, conventional mean over the test set and entropy-calibrated aggregate, mean over run
# seeds (distances: lower is better; cosine and intersection: higher is better). The paper reports no numbers
# that we could retrieve, so there is no column for them.

# %%
print(f"{'measure':<13}" + "".join(f"{v + ' mean':>16}{v + ' calib':>16}" for v in ("baseline", "angular")))
for key in ("kl", "chebyshev", "clark", "canberra", "cosine", "intersection"):
    row = f"{key:<13}"
    for v in ("baseline", "angular"):
        vals = [m[key] for m in measures[v]]
        row += f"{np.mean([x.mean() for x in vals]):>16.4f}"
        row += f"{np.mean([K.calibrated_aggregate(x, P_te, TAU) for x in vals]):>16.4f}"
    print(row)
print(f"\nKL low / high subsets: " + ", ".join(f"{v}: {kl_low[v].mean():.4f} / {kl_high[v].mean():.4f}"
                                            for v in VARIANTS))

# %%
rng = np.random.default_rng(seed)
rand_low = np.zeros(len(low), bool)
rand_low[rng.choice(len(low), int(low.sum()), replace=False)] = True
ratio = float(np.mean(kl_low["baseline"] / kl_high["baseline"]))
ratio_null = float(np.mean(kl["baseline"][:, rand_low].mean(1) / kl["baseline"][:, ~rand_low].mean(1)))
gain = {v: float(np.mean(1 - kl_low[v] / kl_low["baseline"])) for v in ("angular", "l2")}
high_change = {v: float(np.mean(np.abs(kl_high[v] / kl_high["baseline"] - 1))) for v in ("angular", "l2")}
spread = {v: float(np.mean([a.mean() - b.mean() for a, b in zip(angles[v], angles["baseline"])]))
          for v in ("angular", "l2")}
TRAIN_TOL = "end point of a few hundred to thousands of Adam steps: moves with the kernel dispatch"
claims.check(
    "entropy-bias",
    statement="the baseline's KL on low-entropy test samples is at least twice its KL on high-entropy ones "
              "(ratio, mean over run seeds)",
    paper="LDL algorithms systematically underperform on low-entropy samples (no number retrieved)",
    criterion=at_least(2.0), measured=ratio, control=ratio_null,
    control_label="the same ratio for a random split of the test set into subsets of the same sizes",
    tol=tolerance(rel=0.1, why=TRAIN_TOL),
)
claims.check(
    "low-entropy-gain",
    statement="the angular regulariser cuts the low-entropy KL by at least 10 % relative to the baseline",
    paper="the inter-anchor angular regulariser mitigates the entropy bias (no number retrieved)",
    criterion=at_least(0.10), measured=gain["angular"], control=gain["l2"],
    control_label="an L2 penalty of the same weight on the anchor parameters (ignores angles)",
    tol=tolerance(abs=0.03, why=TRAIN_TOL),
)
claims.check(
    "high-entropy-kept",
    statement="the angular regulariser changes the high-entropy KL by at most 5 % (|relative change|)",
    paper="the fix targets low-entropy samples without harming the rest (brief's design)",
    criterion=at_most(0.05), measured=high_change["angular"], control=high_change["l2"],
    control_label="an L2 penalty of the same weight on the anchor parameters (ignores angles)",
    tol=tolerance(rel=0.2, abs=0.02, why=TRAIN_TOL + "; the l2 control's ratio moves most"),
)
claims.check(
    "anchor-spread",
    statement="the angular regulariser raises the mean pairwise anchor angle over the baseline's (degrees)",
    paper="the regulariser mitigates cohesion by penalising over-small angles",
    criterion=greater_than(0.0), measured=spread["angular"], control=spread["l2"],
    control_label="an L2 penalty of the same weight on the anchor parameters (ignores angles)",
    tol=tolerance(abs=3.0, why=TRAIN_TOL),
)
high = ~low
dup_P, dup_v = np.concatenate([P_te, P_te[high]]), np.concatenate([kl["baseline"][0], kl["baseline"][0][high]])
calib_shift = abs(K.calibrated_aggregate(dup_v, dup_P, TAU) - K.calibrated_aggregate(kl["baseline"][0], P_te, TAU))
mean_shift = abs(dup_v.mean() - kl["baseline"][0].mean())
print(f"duplicating the high-entropy test samples moves the conventional mean KL by {mean_shift:.4f} nats")
claims.check(
    "calibrated-invariance",
    statement="duplicating every high-entropy test sample moves the calibrated KL aggregate by nothing "
              "(while the conventional mean moves)",
    paper="entropy-calibrated aggregation removes the weight of the high-entropy majority",
    criterion=at_most(1e-12), measured=float(calib_shift), kind="implementation",
    tol=tolerance(abs=1e-12),
)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# Read at ci scale (seed 0: 2 run seeds, 300 steps) and at full scale (seed 0: 4 run seeds, 2 000 steps); the
# robustness table above gives the statuses over the sweep's seeds.
#
# * **The entropy bias exists (reproduced).** The baseline's KL on low-entropy test samples is about ten
#   times its KL on high-entropy ones (ci: 0.64 against 0.060 nats, ratio 10.8; full: ratio 10.5; a random
#   split of the same sizes gives 1.0-1.1); it holds at every seed of both sweeps (ratios 8.7 to 12.1). The
#   per-bin figure shows the error falling steadily with the entropy of the true
#   distribution. The conventional mean over the test set (0.16 nats at both scales), dominated by the 82 %
#   of high-entropy samples, hides this; the calibrated aggregate (0.34-0.35 nats) does not.
# * **The regulariser spreads the anchors (reproduced)** — by about 14° (ci) and 19° (full) on average, every
#   pair ending at ≥ 90°, where the L2 control lets them close up (−14° and −5°) — **and leaves the
#   high-entropy error alone (reproduced:** a 2.6 % (ci) and 1.7 % (full) change, against 29 % and 16 % for
#   the control). Over the sweeps: both hold at all 3 full-scale seeds and at 8 of the 10 ci seeds; at the
#   other two ci seeds the short L2 run happened to pass too (uninformative), while the regulariser's own
#   numbers stayed within criterion (spread +5° to +17°, high-entropy change at most 3.9 %).
# * **It does not cut the low-entropy error (not reproduced at this scale).** The low-entropy KL falls by
#   0.5 % at ci and 0.6 % at full scale (between −1 % and +1 % at every seed of both sweeps), far from the
#   10 % of the brief's criterion; the per-bin curves of
#   the baseline and the regularised model lie on top of each other. The anchor figure says why: in our miniature the baseline's
#   anchors are not cohesive enough to matter. Their cap on the largest probability,
#   $1/(1+\sum_j e^{-r\|w_k-w_j\|})$, is already about 0.99, as high as the 95th percentile of the true
#   largest probabilities, so spreading them further removes a constraint that was not binding; the
#   low-entropy error here comes from fitting the peaked targets (a small error in the feature direction costs
#   much more KL when the target is sharp), which the angles cannot fix. Where anchors are truly cohesive
#   (more labels than feature dimensions, smaller norms, the paper's real data sets), the regulariser may
#   matter; this page does not show that case. A telling detail at full scale: the L2 control leaves the
#   anchors *more* cohesive than the baseline at some run seeds (caps of 0.93-0.95) and still has a slightly
#   lower low-entropy KL (0.613 against 0.624 nats), so cohesion is not what limits the fit here.
# * **Calibrated aggregation** is invariant to duplicating the high-entropy test samples, which move the
#   conventional mean KL by about 0.05 nats (implementation check: it holds by definition).
#
# ## What the miniature cannot show
#
# * **The paper's data and learners.** One synthetic teacher with 6 labels and an 8-dimensional feature
#   space; the paper uses real LDL data sets and established LDL algorithms, where cohesion may arise for
#   other reasons (many labels, label correlations, weight decay).
# * **The paper's regulariser and theory.** The exact penalty, its weight and threshold, and the theorem
#   linking the softmax hypothesis space to low-entropy error were not found; we test the brief's squared
#   hinge and a simple norm bound.
# * **The evaluation protocol.** The paper's choice of entropy threshold and its comparison of rankings of
#   methods under the two aggregations are not reproduced; we fix $\tau$ at half the maximum entropy.
