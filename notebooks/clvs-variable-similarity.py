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
# # CLVS: contrastive learning with a target similarity that falls with the augmentation extent
#
# *Two heavily distorted views of an image should not be forced to look as alike as two lightly distorted
# ones: lowering the target similarity of strongly augmented positive pairs is claimed to give better
# self-supervised representations than SimCLR's fixed "positives are identical" target.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

from repro.claims import Claims, at_least, at_most, greater_than, less_than, tolerance
from repro.papers import clvs_variable_similarity as K
from repro.runtime import progress, setup_notebook
from repro.ssl import MLPEncoder, covariance_spectrum

P = setup_notebook(scale, seed, presets={
    # about 10 s on one quiet thread: 3 seeds x 3 objectives x 20 epochs (80 Adam steps each)
    "ci": dict(seeds=3, epochs=20),
    # about 2-3 min: 5 seeds x 3 objectives x 150 epochs (600 Adam steps each)
    "full": dict(seeds=5, epochs=150),
})
claims = Claims("clvs-variable-similarity", title="Enhancing Contrastive Learning with Variable Similarity",
                authors=None, paper_url="https://openreview.net/forum?id=oUf6lhK52B", scale=scale, seed=seed)
TAU, ALPHA = 0.2, 0.5              # temperature; strength of the variable target (fixed before the first run)
MAX_SHIFT, NOISE = 2, 0.8          # augmentation at extent 1: shifts up to 2 pixels, noise sd 0.8 (intensities in [0, 1])
REP_DIM = 16                       # width of the probed representation h
RUN_SEEDS = [1000 * seed + k for k in range(P.seeds)]

# %% [markdown]
# ## The claim
#
# Contrastive self-supervised learning (SimCLR and its kin) makes two random augmentations ("views") of the
# same image and trains an encoder so that the two views are more similar to each other than to the views of
# any other image in the batch. The loss treats every such *positive pair* as equally similar: the target is
# "these are the same thing", whether the views are two slight crops or one slight crop and one that has lost
# half the object. The paper argues that this is a wrong (pseudo-)label: how similar two views really are
# depends on how strongly they were augmented. Its method, **CLVS** (Contrastive Learning with Variable
# Similarity), sets the target similarity of a positive pair from the augmentation extent so that strongly
# augmented pairs always get a *lower* target than weakly augmented ones; a theoretical analysis argues that
# this improves generalisation, and the paper reports linear-evaluation gains of **+2.1 points on
# ImageNet-100 and +1.4 points on ImageNet-1k** over the best competing methods. That is all that could be
# found: the paper's loss, backbone, baselines and code were not available to us (authors not found), so the
# loss below is our design from the abstract, not the paper's equation.
#
# ## The method
#
# Each view $k$ carries an augmentation extent $e_k\in[0,1]$: the strength that scales its shift range and
# noise level ($e=0$: the image unchanged). With $2N$ projections $z_k$ from a batch of $N$ images, cosine
# logits $\ell_{kl}=\cos(z_k,z_l)/\tau$ and $p_{kl}=\operatorname{softmax}_{l\ne k}(\ell_{k\cdot})$, SimCLR's
# NT-Xent is the cross-entropy of each anchor against a one-hot target on its positive $k^+$:
#
# $$ L_{\text{SimCLR}} = \frac{1}{2N}\sum_k -\log p_{k k^+}. $$
#
# CLVS (our reading) replaces the one-hot target by a soft one whose mass on the positive is the pair's
# *variable similarity*
#
# $$ s(e_i,e_j) = 1-\alpha\,\frac{e_i+e_j}{2}, \qquad
#    L_{\text{CLVS}} = \frac{1}{2N}\sum_k\Big[-s_k\log p_{kk^+} - \sum_{l\ne k,k^+}\frac{1-s_k}{2N-2}\log p_{kl}\Big], $$
#
# strictly decreasing in each extent (the paper's ordering). The gradient with respect to the positive logit
# is $p_{kk^+}-s_k$, so the loss stops pulling a pair together once its softmax probability reaches $s_k$: a
# strongly augmented pair is pulled less than a weak one. With $\alpha=0$ it is exactly NT-Xent (unit test).
# Kernels: `K.variable_similarity`, `K.soft_targets`, `K.clvs_loss`; `K.nt_xent` is the shared one of
# `repro.ssl`, re-exported as the issue asks.
#
# ## The experiment
#
# * **Data**: scikit-learn's 1 797 handwritten 8×8 digits (intensities scaled to [0, 1]), split into 1 203
#   training and 594 test images (stratified, split seeded by the notebook's seed). Labels are used only by
#   the probe.
# * **Views** (`K.augment_with_extent`, built on `repro.ssl.augment_digits`): each view draws its extent
#   $e\sim U[0,1]$, then a shift of up to $2e$ pixels per axis (zero fill) and Gaussian noise of standard
#   deviation $0.8e$. At $e=1$ a digit is often hard to read.
# * **Encoder** (`repro.ssl.MLPEncoder`): 64 → 256 → 16 (the probed representation $h$), projection head
#   16 → 16 → 32 ($z$, what the loss sees).
# * **Objectives**, trained from the same initial weights on the same batches and views per run seed:
#   *SimCLR* (NT-Xent, the baseline); *CLVS* ($\alpha=0.5$); and the control *CLVS-shuffled*: the same soft
#   targets, permuted across the pairs of the batch, so the targets have the same distribution but no link
#   to how strongly each pair was augmented (CLVS without its key ingredient).
# * **Budget**: Adam, learning rate $10^{-3}$, batches of 256 images, $\tau=0.2$. ci: 3 run seeds × 20
#   epochs (80 steps, far from converged); full: 5 run seeds × 150 epochs (600 steps).
# * **Evaluation**, identical for every objective: a linear probe (`repro.ssl.linear_probe_accuracy`:
#   standardised features, multinomial logistic regression) trained on $h$ of the clean training images and
#   scored on the clean test images; the same probe on the untrained encoder and on the raw pixels as
#   references. For the mechanism: three view pairs per test image (1 782 pairs, the same pairs for every
#   objective), the cosine of their projections, and its Spearman correlation with the pair's mean extent.
#
# **Claims, fixed before the first run** (the brief's checks; means over the run seeds):
#
# 1. `probe-non-inferior` (brief C1): probe accuracy of CLVS minus SimCLR ≥ −1 point. Control: the
#    untrained encoder (same architecture and initial weights, no contrastive training).
# 2. `extent-ordering` (brief C2, first half): Spearman correlation between the positive-pair cosine and
#    the extent ≤ −0.2 for CLVS. Control: SimCLR. Views that differ more are less alike whatever the loss,
#    so we expect SimCLR to pass too (the check would then be uninformative, and say so).
# 3. `steeper-than-simclr` (brief C2, second half): CLVS's Spearman correlation minus SimCLR's < 0.
#    Control: CLVS-shuffled minus SimCLR.
# 4. `probe-gain` (brief C3, **full scale only**: a gain of 1-2 points is within seed noise at ci scale):
#    probe accuracy of CLVS minus SimCLR > 0 points. Control: CLVS-shuffled minus SimCLR: if it gains as
#    much, the gain is not due to ordering the targets by extent.
#
# The hyper-parameters above ($\tau$, $\alpha$, augmentation strength, $h$ of width 16) were set while
# writing the kernels, with a pilot run of a few seeds; the width 16 was chosen there because with a
# 64-wide $h$ the untrained encoder probed as well as a trained one (raw 8×8 digits are almost linearly
# separable), which would leave the probe unable to tell training from none.
#
# **Deviations from the paper**
#
# * Loss: the paper's formula was not found; the soft-target NT-Xent with $s=1-\alpha(e_i+e_j)/2$ is the
#   brief's design, matching only the abstract's stated property (strong pairs get lower similarity).
# * Data and model: 8×8 digits and a 2-layer MLP encoder with a 16-wide representation instead of
#   ImageNet-100/1k and a ResNet; shifts and noise instead of crops, colour jitter, blur.
# * Extent: one scalar strength per view (shift range and noise level scale together) instead of the
#   paper's measure of augmentation extent, which we could not find.
# * Baseline: SimCLR only; the paper compares with several state-of-the-art methods.
# * Scale: 20 (ci) or 150 (full) epochs on 1 203 images; 3 or 5 run seeds.
# * No official code was found, so there is no cross-check against it and no golden file.

# %%
digits = load_digits()
X = torch.tensor(digits.images / 16.0, dtype=torch.float32)
y = digits.target
i_tr, i_te = train_test_split(np.arange(len(y)), test_size=0.33, stratify=y, random_state=seed)
X_tr, X_te, y_tr, y_te = X[i_tr], X[i_te], y[i_tr], y[i_te]
X_pairs = X_te.repeat(3, 1, 1)                                  # three view pairs per test image

acc = {m: [] for m in K.METHODS}
rho = {m: [] for m in K.METHODS}
cos = {m: [] for m in K.METHODS}
spectra = {m: [] for m in K.METHODS}
history = {m: [] for m in K.METHODS}
acc_untrained, extent = [], []
for rs in progress(RUN_SEEDS, desc="run seeds"):
    torch.manual_seed(rs)
    untrained = MLPEncoder(rep_dim=REP_DIM)
    acc_untrained.append(K.probe_accuracy(untrained, X_tr, y_tr, X_te, y_te))
    for m in K.METHODS:
        model, hist = K.train_encoder(X_tr, m, rs, epochs=P.epochs, tau=TAU, alpha=ALPHA, max_shift=MAX_SHIFT,
                                      noise=NOISE, rep_dim=REP_DIM)
        history[m].append(hist)
        acc[m].append(K.probe_accuracy(model, X_tr, y_tr, X_te, y_te))
        c, e = K.positive_cosines(model, X_pairs, torch.Generator().manual_seed(rs + 7), MAX_SHIFT, NOISE)
        cos[m].append(c)
        rho[m].append(K.spearman(c, e))
        with torch.no_grad():
            spectra[m].append(covariance_spectrum(model(X_te)[0]))
    extent.append(e)                                            # identical pairs for every objective
acc_raw = K.probe_accuracy(None, X_tr, y_tr, X_te, y_te)
acc = {m: 100 * np.array(v) for m, v in acc.items()}
acc_untrained, acc_raw = 100 * np.array(acc_untrained), 100 * acc_raw
rho = {m: np.array(v) for m, v in rho.items()}

# %% [markdown]
# ## Results
#
# Linear-probe accuracy on the 594 clean test digits, mean ± standard deviation over the run seeds:

# %%
rows = [(m, acc[m]) for m in K.METHODS] + [("untrained encoder", acc_untrained)]
print(f"{'representation':<20} {'probe accuracy (%)':>20}   per seed")
for name, a in rows:
    print(f"{name:<20} {a.mean():>12.2f} ± {a.std(ddof=1):.2f}   " + " ".join(f"{v:.2f}" for v in a))
print(f"{'raw pixels (64-d)':<20} {acc_raw:>12.2f}")
print("\nSpearman(positive cosine, extent), mean ± sd:")
for m in K.METHODS:
    print(f"  {m:<15} {rho[m].mean():+.3f} ± {rho[m].std(ddof=1):.3f}   " + " ".join(f"{v:+.3f}" for v in rho[m]))

# %%
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
names = list(K.METHODS) + ["untrained"]
vals = [acc[m] for m in K.METHODS] + [acc_untrained]
for i, v in enumerate(vals):
    ax1.scatter(np.full(len(v), i) + np.linspace(-0.08, 0.08, len(v)), v, s=18, color=f"C{i}", alpha=0.7)
    ax1.errorbar(i + 0.22, v.mean(), yerr=v.std(ddof=1), fmt="o", color=f"C{i}", capsize=4)
ax1.axhline(acc_raw, color="gray", ls=":", label="raw pixels (64-d)")
ax1.set_xticks(range(len(names)), names)
ax1.set_ylabel("linear-probe test accuracy (%)")
ax1.set_title("Probe accuracy (dots: run seeds; bar: mean ± sd)")
ax1.legend(loc="lower left")
d_clvs = acc["CLVS"] - acc["SimCLR"]
d_shuf = acc["CLVS-shuffled"] - acc["SimCLR"]
for i, (lab, d) in enumerate((("CLVS − SimCLR", d_clvs), ("CLVS-shuffled − SimCLR", d_shuf))):
    ax2.scatter(np.full(len(d), i) + np.linspace(-0.08, 0.08, len(d)), d, s=18, color=f"C{i + 1}", alpha=0.7)
    ax2.errorbar(i + 0.22, d.mean(), yerr=d.std(ddof=1), fmt="o", color=f"C{i + 1}", capsize=4)
ax2.axhline(2.1, color="k", ls="--", lw=1, label="paper: +2.1 (ImageNet-100)")
ax2.axhline(1.4, color="k", ls=":", lw=1, label="paper: +1.4 (ImageNet-1k)")
ax2.axhline(-1.0, color="C3", ls="-.", lw=1, label="non-inferiority margin (−1)")
ax2.axhline(0.0, color="gray", lw=0.8)
ax2.set_xticks([0, 1], ["CLVS − SimCLR", "CLVS-shuffled − SimCLR"])
ax2.set_xlim(-0.5, 1.5)
ax2.set_ylabel("probe accuracy difference (points)")
ax2.set_title("Gain over SimCLR, per run seed")
ax2.legend(fontsize=8, loc="upper right", frameon=True, framealpha=0.95)
plt.show()

# %% [markdown]
# The mechanism: how similar the two views of a test image end up, as a function of how strongly they were
# augmented (mean extent of the pair, in bins of 0.1; the line is the mean over run seeds of the per-bin mean
# cosine, the band ± one standard deviation over run seeds), and the spectrum of the learned representation.

# %%
bins = np.linspace(0, 1, 11)
centres = (bins[:-1] + bins[1:]) / 2
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
for i, m in enumerate(K.METHODS):
    per_seed = []
    for c, e in zip(cos[m], extent):
        idx = np.clip(np.digitize(e, bins) - 1, 0, len(centres) - 1)
        per_seed.append([c[idx == b].mean() if np.any(idx == b) else np.nan for b in range(len(centres))])
    per_seed = np.array(per_seed)
    mu, sd = np.nanmean(per_seed, 0), np.nanstd(per_seed, 0)
    ax1.plot(centres, mu, "o-", color=f"C{i}", ms=3, label=f"{m} (ρ = {rho[m].mean():+.2f})")
    ax1.fill_between(centres, mu - sd, mu + sd, color=f"C{i}", alpha=0.2)
    ev = np.array(spectra[m])
    ev = ev / ev.sum(1, keepdims=True)
    ax2.semilogy(np.arange(1, ev.shape[1] + 1), ev.mean(0), "o-", color=f"C{i}", ms=3, label=m)
    ax2.fill_between(np.arange(1, ev.shape[1] + 1), ev.min(0), ev.max(0), color=f"C{i}", alpha=0.2)
ax1.set_xlabel("mean augmentation extent of the pair (0: unchanged, 1: strongest)")
ax1.set_ylabel("cosine of the two views' projections")
ax1.set_title("Positive-pair similarity vs extent (test digits)")
ax1.legend(fontsize=8)
ax2.set_xlabel("eigenvalue index (of the 16-d representation's covariance)")
ax2.set_ylabel("share of the total variance")
ax2.set_title("Spectrum of h (mean; band: min-max over seeds)")
ax2.legend(fontsize=8)
plt.show()

# %% [markdown]
# **The paper's numbers beside ours.** The paper's gains are over the best competing methods on ImageNet with
# its own backbone; ours are over SimCLR on 8×8 digits, means ± sd over the run seeds of this run.

# %%
print(f"{'setting':<52} {'gain (points)':>16}")
print(f"{'paper: ImageNet-100, linear eval, vs state of the art':<52} {'+2.1':>16}")
print(f"{'paper: ImageNet-1k, linear eval, vs state of the art':<52} {'+1.4':>16}")
print(f"{f'ours ({scale}): digits 8x8, linear probe, CLVS vs SimCLR':<52} "
      f"{f'{d_clvs.mean():+.2f} ± {d_clvs.std(ddof=1):.2f}':>16}")
print(f"{f'ours ({scale}): same, CLVS-shuffled (control) vs SimCLR':<52} "
      f"{f'{d_shuf.mean():+.2f} ± {d_shuf.std(ddof=1):.2f}':>16}")

# %%
ACC_TOL = tolerance(abs=1.0, why="mean probe accuracy of Adam-trained encoders: the training end point moves "
                    "with the kernel dispatch")
RHO_TOL = tolerance(abs=0.05, why="rank correlation on the projections of Adam-trained encoders")
claims.check(
    "probe-non-inferior",
    statement="CLVS's linear-probe accuracy is at most 1 point below SimCLR's (mean over run seeds; points)",
    paper="+2.1 points on ImageNet-100, +1.4 on ImageNet-1k over the state of the art (linear evaluation)",
    criterion=at_least(-1.0), measured=float(d_clvs.mean()),
    control=float((acc_untrained - acc["SimCLR"]).mean()),
    control_label="untrained encoder (same initial weights, no contrastive training) minus SimCLR",
    tol=ACC_TOL,
)
claims.check(
    "extent-ordering",
    statement="with CLVS, the cosine of a positive pair falls with its augmentation extent "
              "(Spearman correlation over test pairs, mean over run seeds)",
    paper="strongly augmented views are always assigned lower similarity than weakly augmented ones",
    criterion=at_most(-0.2), measured=float(rho["CLVS"].mean()),
    control=float(rho["SimCLR"].mean()), control_label="SimCLR (fixed target similarity 1)",
    tol=RHO_TOL,
)
claims.check(
    "steeper-than-simclr",
    statement="CLVS orders positive pairs by extent more strongly than SimCLR: its Spearman correlation "
              "minus SimCLR's (mean over run seeds)",
    paper="the variable similarity assigns strongly augmented pairs lower similarity (no number)",
    criterion=less_than(0.0), measured=float((rho["CLVS"] - rho["SimCLR"]).mean()),
    control=float((rho["CLVS-shuffled"] - rho["SimCLR"]).mean()),
    control_label="CLVS-shuffled (same soft targets, not linked to the extent) minus SimCLR",
    tol=RHO_TOL,
)
if scale == "full":
    claims.check(
        "probe-gain",
        statement="CLVS's linear-probe accuracy exceeds SimCLR's (mean over run seeds; points)",
        paper="+2.1 points on ImageNet-100, +1.4 on ImageNet-1k over the state of the art",
        criterion=greater_than(0.0), measured=float(d_clvs.mean()),
        control=float(d_shuf.mean()),
        control_label="CLVS-shuffled (same soft targets, not linked to the extent) minus SimCLR",
        tol=ACC_TOL,
    )

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# Read at ci scale (seed 0: 3 run seeds × 20 epochs) and at full scale (seed 0: 5 run seeds × 150 epochs);
# the robustness table above gives the statuses over the sweep's seeds.
#
# * **Non-inferiority (brief C1): reproduced.** CLVS's probe accuracy is within a point of SimCLR's (ci:
#   +0.11 points, 92.4 % against 92.3 %; full: −0.17 points), while the untrained encoder, the control, is 5
#   to 8 points below SimCLR; so the probe does tell a trained representation from an untrained one, and the
#   variable target costs nothing measurable. The ci sweep agrees: the claim holds at all 10 seeds, with CLVS
#   between −0.5 and +1.6 points of SimCLR (median +0.8).
# * **Similarity falls with the extent (brief C2, first half): uninformative, as expected.** With CLVS the
#   Spearman correlation between a positive pair's cosine and its extent is −0.44 (ci) and −0.53 (full),
#   well below −0.2, but SimCLR's is −0.37 and −0.52: views that were distorted more stay less alike whatever
#   the loss, so this half of the claim does not isolate CLVS.
# * **CLVS orders pairs more strongly than SimCLR (brief C2, second half): uninformative at ci (seed 0),
#   reproduced at full scale (all 3 seeds of the full sweep), by a small margin.** This is the mechanism the
#   paper describes. At ci, seed 0, CLVS's correlation is 0.06 below SimCLR's on average (below it at every
#   run seed), but the control with the same soft targets shuffled across pairs is also below SimCLR (by
#   0.02), so part of the effect comes from softening the targets at all. Over the 10 seeds of the ci sweep
#   CLVS is steeper than SimCLR every time (by 0.01 to 0.06) and steeper than the shuffled control at 9 of
#   10, but the control is also steeper than SimCLR at 6 of them, so the claim counts at 4 of 10 ci seeds.
#   At full scale CLVS ends 0.015-0.019 below SimCLR and the shuffled control 0.009-0.016 above it at each of
#   the 3 sweep seeds, so the claim holds against its control each time (at seed 0, CLVS is below SimCLR at 4
#   of the 5 run seeds). The differences are a few hundredths of a rank correlation: a consistent but small
#   effect of tying the targets to the extent.
# * **Gain in probe accuracy (brief C3, full scale only): not reproduced at this scale.** At full scale and
#   seed 0, CLVS is 0.17 points *below* SimCLR (±1.4 over 5 run seeds) while the control with shuffled targets
#   is 0.6 points above it. At seeds 1 and 2 of the full sweep CLVS gains about 1.1-1.2 points over SimCLR,
#   but the shuffled control gains nearly as much (0.8-1.1), so the check is uninformative there: whatever
#   the soft targets gain on the probe comes from softening the contrastive target (a kind of label smoothing)
#   rather than from tying it to the augmentation extent. The paper's gains (+2.1 and +1.4 points) are of the
#   size of our seed-to-seed spread, so this miniature could not confirm them even if they carried over; a
#   1-2 point gain needs ImageNet-scale runs with many seeds, as the paper's are.
#
# ## What the miniature cannot show
#
# * **The paper's loss.** We did not find the paper's formula for the variable similarity, nor how it
#   measures the augmentation extent; the page tests one reading (soft targets with
#   $s=1-\alpha(e_i+e_j)/2$). A different reading (a similarity margin, a re-weighting, a learned mapping
#   from extent to similarity) might behave differently.
# * **Semantic damage.** The premise is that strong crops can remove the object, so that "same image" is a
#   wrong label. Shifts of at most two pixels and additive noise on 8×8 digits rarely change what digit it
#   is, so the situation in which the fixed target is most misleading hardly arises here.
# * **Scale and baselines.** A 2-layer MLP on 1 203 images for at most 150 epochs against SimCLR only; the
#   paper's claims are about ResNets on ImageNet-100 and ImageNet-1k against the strongest contrastive
#   methods, where a 1-2 point gain is far above seed noise and here it is not.
# * **The theory.** The paper's generalisation guarantee is not examined.
