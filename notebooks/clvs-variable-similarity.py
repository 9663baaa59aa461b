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
from myst_nb import glue
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

from repro.claims import Claims, Comparator, at_most, at_least, greater_than, less_than, tolerance
from repro.papers import clvs_variable_similarity as K
from repro.runtime import progress, setup_notebook
from repro.ssl import MLPEncoder, covariance_spectrum

P = setup_notebook(scale, seed, presets={
    # 3 run seeds x 20 epochs (100 Adam steps) for each of the 3 objectives in two augmentation settings, and
    # for the 2 trained comparators in the default setting: 24 trainings, about 17 s on one quiet thread
    "ci": dict(seeds=3, epochs=20),
    # a few minutes: 5 run seeds x 150 epochs (750 Adam steps each)
    "full": dict(seeds=5, epochs=150),
})
claims = Claims("clvs-variable-similarity", title="Enhancing Contrastive Learning with Variable Similarity",
                authors=None, paper_url="https://openreview.net/forum?id=oUf6lhK52B", scale=scale, seed=seed)
TAU, ALPHA = 0.2, 0.5              # temperature; strength of the variable target (fixed before the first run)
MAX_SHIFT, NOISE = 2, 0.8          # augmentation at extent 1: shifts up to 2 pixels, noise sd 0.8 (intensities in [0, 1])
REP_DIM = 16                       # width of the probed representation h
RUN_SEEDS = [1000 * seed + k for k in range(P.seeds)]
# added when the page gained its comparators (issue 32), fixed before they were run:
STRONG_ERASE = 4                   # post-hoc setting: an occluding square of side up to 4 pixels (a quarter of the image)
# added after the independent review, fixed before they were run here:
MILD_HIGH = 0.5                    # SimCLR on milder views: training extents e ~ U[0, 0.5] (half the range)

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
# CLVS has two ingredients that a test can separate: it *softens* the contrastive target (mass $1-s$ moves to
# the negatives, a kind of label smoothing), and it *ties* the softening to the extent of each pair. The
# second is the paper's idea; the first is not new.
#
# Note what is *not* an experimental question: that a strongly augmented pair gets a lower target than a weakly
# augmented one is true of $s$ by construction (the unit test
# `test_variable_similarity_is_symmetric_and_strictly_decreasing`). What the tests below can ask is whether
# that target changes what the encoder learns: how its similarities order the pairs, and how well a linear
# probe reads its representation.
#
# ## The experiment
#
# * **Data**: scikit-learn's 1 797 handwritten 8×8 digits (intensities scaled to [0, 1]), split into 1 203
#   training and 594 test images (stratified, split seeded by the notebook's seed). Labels are used only by
#   the probe.
# * **Views** (`K.augment_with_extent`, built on `repro.ssl.augment_digits`): each view draws its extent
#   $e\sim U[0,1]$, then a shift of up to $2e$ pixels per axis (zero fill) and Gaussian noise of standard
#   deviation $0.8e$. At $e=1$ a digit is often hard to read. In the *strong* setting (the post-hoc test
#   below) a square of side $\operatorname{round}(4e)$ pixels at a random place is also set to 0: at $e=1$ a
#   quarter of the image is occluded, and part of the digit is gone.
# * **Encoder** (`repro.ssl.MLPEncoder`): 64 → 256 → 16 (the probed representation $h$), projection head
#   16 → 16 → 32 ($z$, what the loss sees).
# * **Objectives**, trained from the same initial weights on the same batches and views per run seed:
#   *SimCLR* (NT-Xent, $\tau=0.2$); *CLVS* ($\alpha=0.5$, $\tau=0.2$); and *CLVS-shuffled*: the same soft
#   targets, permuted across the pairs of the batch, so the targets have the same distribution but no link to
#   how strongly each pair was augmented: **CLVS without the paper's ingredient** (it keeps the softening).
# * **Comparators** (none is the paper's method; all trained on the same batches, views and initial weights,
#   and measured exactly as CLVS):
#   * *PCA-16* (`K.PCAEncoder`): the first 16 principal components of the training images, the same width as
#     $h$: no training, no augmentation, the representation a skeptic builds first.
#   * *SimCLR on milder views*: SimCLR trained only on views with extents $e\sim U[0, 0.5]$ (half the range;
#     evaluated on the same pairs as every other encoder, which reach $e=1$). The skeptic's simplest way to
#     stop the loss from forcing strongly distorted pairs together: do not show it any. It also stands in for
#     changing SimCLR in the knob that bears on the extent, its augmentation range (the page's earlier SimCLR
#     with a tuned temperature is gone; see the skeptic's section).
#   * *NT-Xent weighted by $s(e)$* (`K.weighted_nt_xent`): the brief's "hard-weighting" alternative, SimCLR's
#     loss with each pair's terms weighted by the same $s(e_i,e_j)$ that CLVS uses as a target. It uses the
#     extent, but keeps SimCLR's one-hot target: a competitor to the paper's way of using it.
#   * in the strong setting, *SimCLR with the default (milder) augmentation*, the skeptic's fix for views that
#     are too strong.
# * **Budget**: Adam, learning rate $10^{-3}$, batches of 256 images (5 steps per epoch), $\tau=0.2$. ci: 3 run
#   seeds × 20 epochs (100 steps, far from converged); full: 5 run seeds × 150 epochs (750 steps).
# * **Evaluation**, identical for every representation: a linear probe (`repro.ssl.linear_probe_accuracy`:
#   standardised features, multinomial logistic regression, $C=1$) trained on $h$ of the clean training
#   images and scored on the clean test images; the same probe on the untrained encoder and on the raw
#   pixels as references. For the mechanism: three view pairs per test image (1 782 pairs, the same pairs
#   for every representation), the cosine of their projections ($z$; for PCA-16 its features), and its
#   Spearman correlation with the pair's mean extent.
#
# **Checks fixed before the first run** (the brief's; means over the run seeds). When the book asked every
# counted test for its ablation and the strongest naive baseline (issue 31), and again after an independent
# review, they kept their measurement, setting, criterion and tolerance and gained comparators; two of them
# are now shown as illustrations, because they cannot tell the paper's idea from its absence:
#
# 1. `steeper-than-simclr` (brief C2, second half; **counted**): CLVS's Spearman correlation minus SimCLR's
#    < 0. Comparators: CLVS-shuffled (ablation), PCA-16, SimCLR on milder views, and the weighted
#    NT-Xent, each minus SimCLR.
# 2. `probe-non-inferior` (brief C1; now an **illustration**): probe accuracy of CLVS minus SimCLR's ≥ −1
#    point. A "does not hurt" criterion where the paper claims a gain, which SimCLR, the reference of the
#    measurement, meets against itself (its value is 0 by construction), and so do the comparators.
#    Its measurement is counted once, by the gain test below.
# 3. `extent-ordering` (brief C2, first half; now an **illustration**): Spearman correlation between the
#    positive-pair cosine and the extent ≤ −0.2 for CLVS. Views that differ more stay less alike whatever the
#    loss: SimCLR and even the untrained encoder pass it. It also shares CLVS's correlation with test 1, which
#    asks the discriminating question (steeper than SimCLR?): one measurement, one test.
#
# **Counted tests added after the page first ran, post hoc** (designed on seeds 0-9, counted only once
# confirmed on seeds 10-19):
#
# 4. `probe-gain`: the brief's third check (C3), the paper's headline: the probe accuracy of CLVS exceeds
#    SimCLR's (> 0 points, the brief's criterion; the 1-point tolerance of every accuracy on this page). The
#    brief pre-registered it at full scale only and the page had left it out of the ci tests; it is the
#    measurement of check 2 with the criterion that matches the paper, so it replaces check 2 as the counted
#    test on that measurement. Its values at seeds 0-9 had been seen when it was added. Comparators as in
#    test 1, on probe accuracy.
# 5. `probe-gain-strong-aug`: the same gain (> 0 points) in the setting where the paper says its ingredient
#    matters: views strong enough to lose part of the content (the occluding square above, fixed before it
#    was run). Comparators: CLVS-shuffled (ablation), PCA-16, and SimCLR trained with the default, milder
#    augmentation, each minus SimCLR in the strong setting.
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
#   ImageNet-100/1k and a ResNet; shifts, noise and (strong setting) an occluding square instead of crops,
#   colour jitter, blur.
# * Extent: one scalar strength per view (shift range, noise level and the occluding square scale together)
#   instead of the paper's measure of augmentation extent, which we could not find.
# * Baselines: SimCLR (also on milder views), a weighted NT-Xent and PCA; the paper compares with several
#   state-of-the-art methods.
# * Scale: 20 (ci) or 150 (full) epochs on 1 203 images; 3 or 5 run seeds.
# * No official code was found (the brief names none; a search of public code found none), so there is no
#   cross-check against it, no golden file and no section "Against the official code".

# %%
digits = load_digits()
X = torch.tensor(digits.images / 16.0, dtype=torch.float32)
y = digits.target
i_tr, i_te = train_test_split(np.arange(len(y)), test_size=0.33, stratify=y, random_state=seed)
X_tr, X_te, y_tr, y_te = X[i_tr], X[i_te], y[i_tr], y[i_te]
X_pairs = X_te.repeat(3, 1, 1)                                  # three view pairs per test image
TRAIN = dict(epochs=P.epochs, alpha=ALPHA, max_shift=MAX_SHIFT, noise=NOISE, rep_dim=REP_DIM)
SHUF, PCA, MILDV, WEIGHTED, MILD = ("CLVS-shuffled", "PCA-16", "SimCLR, milder views", "NT-Xent weighted",
                                    "SimCLR, default augmentation")


def pairs_gen(rs):
    """The generator of the evaluation pairs of run seed rs: the same pairs for every representation."""
    return torch.Generator().manual_seed(rs + 7)


def evaluate(model, rs):
    """Probe accuracy (%) on the clean test images, and the cosines of run seed rs's evaluation pairs."""
    return 100 * K.probe_accuracy(model, X_tr, y_tr, X_te, y_te), K.positive_cosines(
        model, X_pairs, pairs_gen(rs), MAX_SHIFT, NOISE)


# the default setting: the three objectives, the two trained comparators, the untrained encoder
TRAINED = (*K.METHODS, MILDV, WEIGHTED)
HOW = {m: dict(method=m) for m in K.METHODS} | {MILDV: dict(method="SimCLR", high=MILD_HIGH),
                                               WEIGHTED: dict(method="NT-Xent weighted")}
acc = {m: [] for m in (*TRAINED, "untrained")}
cos = {m: [] for m in (*TRAINED, "untrained")}
spectra = {m: [] for m in K.METHODS}
extent = []
for rs in progress(RUN_SEEDS, desc="run seeds (default setting)"):
    torch.manual_seed(rs)
    a, (c, e) = evaluate(MLPEncoder(rep_dim=REP_DIM), rs)
    acc["untrained"].append(a)
    cos["untrained"].append(c)
    for m in TRAINED:
        model, _ = K.train_encoder(X_tr, seed=rs, tau=TAU, **HOW[m], **TRAIN)
        a, (c, e) = evaluate(model, rs)
        acc[m].append(a)
        cos[m].append(c)
        if m in K.METHODS:
            with torch.no_grad():
                spectra[m].append(covariance_spectrum(model(X_te)[0]))
    extent.append(e)                                            # identical pairs for every representation

# PCA-16: one fit per split, the evaluation pairs of every run seed
pca = K.PCAEncoder(X_tr, REP_DIM)
acc[PCA] = [100 * K.probe_accuracy(pca, X_tr, y_tr, X_te, y_te)] * len(RUN_SEEDS)
cos[PCA] = [K.positive_cosines(pca, X_pairs, pairs_gen(rs), MAX_SHIFT, NOISE)[0] for rs in RUN_SEEDS]

# the strong setting (post-hoc test): the same three objectives with the occluding square
acc_strong = {m: [] for m in K.METHODS}
for rs in progress(RUN_SEEDS, desc="run seeds (strong setting)"):
    for m in K.METHODS:
        model, _ = K.train_encoder(X_tr, m, rs, tau=TAU, erase=STRONG_ERASE, **TRAIN)
        acc_strong[m].append(100 * K.probe_accuracy(model, X_tr, y_tr, X_te, y_te))
ink = K.occluded_ink_fraction(X_tr, torch.Generator().manual_seed(seed), STRONG_ERASE)  # what the square removes

acc_raw = 100 * K.probe_accuracy(None, X_tr, y_tr, X_te, y_te)
acc = {m: np.array(v) for m, v in acc.items()}
acc_strong = {m: np.array(v) for m, v in acc_strong.items()}
rho = {m: np.array([K.spearman(c, e) for c, e in zip(cs, extent)]) for m, cs in cos.items()}

# %% [markdown]
# ## Results
#
# Linear-probe accuracy on the 594 clean test digits, mean ± standard deviation over the run seeds, in the
# default setting and (last rows) in the strong setting, then the Spearman correlation between a positive
# pair's cosine and its extent.

# %%
LONG = {MILDV: f"SimCLR, views e ~ U[0, {MILD_HIGH}]",
        WEIGHTED: "NT-Xent weighted by s(e)", "untrained": "untrained encoder", PCA: "PCA-16 (no training)"}
print(f"{'representation':<34} {'probe accuracy (%)':>20}   per run seed")
for m in (*TRAINED, "untrained", PCA):
    a = acc[m]
    print(f"{LONG.get(m, m):<34} {a.mean():>12.2f} ± {a.std(ddof=1):.2f}   " + " ".join(f"{x:.2f}" for x in a))
for m in K.METHODS:
    a = acc_strong[m]
    print(f"{m + ', strong setting':<34} {a.mean():>12.2f} ± {a.std(ddof=1):.2f}   " + " ".join(f"{x:.2f}" for x in a))
print(f"{'raw pixels (64-d)':<34} {acc_raw:>12.2f}")
print(f"ink removed by the strong setting's square (training images): mean {100 * ink.mean():.1f} %, "
      f"median {100 * np.median(ink):.1f} %")
print("\nSpearman(positive cosine, extent), mean ± sd over run seeds:")
for m in (*TRAINED, "untrained", PCA):
    r = rho[m]
    print(f"  {LONG.get(m, m):<32} {r.mean():+.3f} ± {r.std(ddof=1):.3f}   " + " ".join(f"{x:+.3f}" for x in r))

# %%
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.1), gridspec_kw=dict(width_ratios=[7, 3]))
SHORT = {MILDV: "SimCLR\nmilder views", WEIGHTED: "NT-Xent\nweighted",
         SHUF: "CLVS-\nshuffled", "untrained": "untrained"}
for ax, groups, title in (
        (ax1, [(SHORT.get(m, m), acc[m]) for m in (*TRAINED, "untrained")], "Default setting"),
        (ax2, [(SHORT.get(m, m), acc_strong[m]) for m in K.METHODS],
         f"Strong setting (occluding square up to {STRONG_ERASE}×{STRONG_ERASE})")):
    for i, (name, v) in enumerate(groups):
        ax.scatter(np.full(len(v), i) + np.linspace(-0.08, 0.08, len(v)), v, s=18, color=f"C{i}", alpha=0.7)
        ax.errorbar(i + 0.22, v.mean(), yerr=v.std(ddof=1), fmt="o", color=f"C{i}", capsize=4)
    ax.axhline(acc[PCA][0], color="k", ls="--", lw=1, label="PCA-16 (no training)")
    ax.axhline(acc_raw, color="gray", ls=":", label="raw pixels (64-d)")
    ax.set_xticks(range(len(groups)), [g[0] for g in groups], fontsize=8)
    ax.set_title(title, fontsize=10)
ax1.axhline(acc["SimCLR"].mean(), color="C0", lw=0.6)
ax2.axhline(acc["SimCLR"].mean(), color="C0", lw=0.6, ls="-.", label="SimCLR, default setting (mean)")
ax1.set_ylabel("linear-probe test accuracy (%)")
ax1.legend(loc="lower left", fontsize=8)
ax2.legend(loc="lower left", fontsize=7)
fig.suptitle(f"Probe accuracy (dots: run seeds; bar: mean ± sd), seed {seed}", fontsize=10)
plt.show()

# %% [markdown]
# The mechanism: how similar the two views of a test image end up, as a function of how strongly they were
# augmented (mean extent of the pair, in ten bins of equal width; the line is the mean over run seeds of the
# per-bin mean cosine, the band ± one standard deviation over run seeds), and the spectrum of the learned
# representation.

# %%
bins = np.linspace(0, 1, 11)
centres = (bins[:-1] + bins[1:]) / 2
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
for i, m in enumerate((*TRAINED, PCA)):
    per_seed = []
    for c, e in zip(cos[m], extent):
        idx = np.clip(np.digitize(e, bins) - 1, 0, len(centres) - 1)
        per_seed.append([c[idx == b].mean() if np.any(idx == b) else np.nan for b in range(len(centres))])
    per_seed = np.array(per_seed)
    mu, sd = np.nanmean(per_seed, 0), np.nanstd(per_seed, 0)
    ax1.plot(centres, mu, marker="o", color=f"C{i}", ms=3, ls="--" if m == PCA else "-",
             label=f"{LONG.get(m, m)} (ρ = {rho[m].mean():+.2f})")
    ax1.fill_between(centres, mu - sd, mu + sd, color=f"C{i}", alpha=0.15)
for i, m in enumerate(K.METHODS):
    ev = np.array(spectra[m])
    ev = ev / ev.sum(1, keepdims=True)
    ax2.semilogy(np.arange(1, ev.shape[1] + 1), ev.mean(0), "o-", color=f"C{i}", ms=3, label=m)
    ax2.fill_between(np.arange(1, ev.shape[1] + 1), ev.min(0), ev.max(0), color=f"C{i}", alpha=0.2)
ax1.set_xlabel("mean augmentation extent of the pair (0: unchanged, 1: strongest)")
ax1.set_ylabel("cosine of the two views' projections")
ax1.set_title("Positive-pair similarity vs extent (test digits)")
ax1.legend(fontsize=7)
ax2.set_xlabel("eigenvalue index (of the 16-d representation's covariance)")
ax2.set_ylabel("share of the total variance")
ax2.set_title("Spectrum of h (mean; band: min-max over run seeds)")
ax2.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### The paper's numbers beside ours
#
# The paper's gains are over the best competing methods on ImageNet with its own backbone; ours are over
# SimCLR on 8×8 digits, means ± sd over the run seeds of this run (at full scale, the default setting's row is
# the brief's pre-registered full-scale gain).

# %%
rows = [("ours ({}): digits 8x8, linear probe, CLVS vs SimCLR", acc["CLVS"] - acc["SimCLR"]),
        ("ours ({}): same, CLVS-shuffled (ablation) vs SimCLR", acc[SHUF] - acc["SimCLR"]),
        ("ours ({}): same, NT-Xent weighted vs SimCLR", acc[WEIGHTED] - acc["SimCLR"]),
        ("ours ({}): same, PCA-16 (no training) vs SimCLR", acc[PCA] - acc["SimCLR"]),
        ("ours ({}): strong setting, CLVS vs SimCLR", acc_strong["CLVS"] - acc_strong["SimCLR"])]
print(f"{'setting':<62} {'gain (points)':>16}")
print(f"{'paper: ImageNet-100, linear eval, vs state of the art':<62} {'+2.1':>16}")
print(f"{'paper: ImageNet-1k, linear eval, vs state of the art':<62} {'+1.4':>16}")
for name, d in rows:
    print(f"{name.format(scale):<62} {f'{round(d.mean(), 10) + 0.0:+.2f} ± {d.std(ddof=1):.2f}':>16}")

# %% [markdown]
# ## Checking the claims
#
# Every counted test measures CLVS beside its ablation and the comparators, under the same measurement and
# criterion. The figure shows each check's values over the run seeds of this seed: the bar is the mean the
# check records, the whiskers the spread over the run seeds, the dashed line the threshold and the grey band
# the declared tolerance around it (a value inside it is "at the edge", never a pass). SimCLR, the reference
# of the tests that subtract it, is not drawn there: its value would be 0 by construction. The last panel is
# an illustration, not a test.

# %%
ACC_TOL = tolerance(abs=1.0, why="mean probe accuracy of Adam-trained encoders: the training end point moves "
                    "with the kernel dispatch")
RHO_TOL = tolerance(abs=0.05, why="an effect-size floor declared before the first run, not a measure of noise: a "
                    "difference of rank correlations smaller than this is not counted as an effect. It is wider "
                    "than the run-seed standard error of the mean (the page measures it) and far wider than the "
                    "drift of a training end point between machines")
LABEL = {SHUF: "CLVS-shuffled: the same soft targets permuted across the pairs (softened, not tied to the extent)",
         "SimCLR": "SimCLR (NT-Xent: target similarity 1 for every pair)",
         PCA: "PCA-16: the first 16 principal components of the training images (no training, no augmentation)",
         MILDV: f"SimCLR trained on milder views only (extents U[0, {MILD_HIGH}])",
         WEIGHTED: "NT-Xent with each pair weighted by s(e) (the brief's hard-weighting alternative; one-hot target)",
         MILD: "SimCLR trained with the default, milder augmentation (no occluding square)"}
EXTENT_LINK = "tying each pair's target similarity to its augmentation extent (the variable similarity)"
COMPARED = (PCA, MILDV, WEIGHTED)                             # the baselines of both default-setting tests


def minus_simclr(values):
    """Each representation's per-run-seed value minus SimCLR's (the measurement of the default-setting tests)."""
    return {w: values[w] - values["SimCLR"] for w in ("CLVS", SHUF, *COMPARED)}


per_run = {  # check -> ({who: values per run seed}, threshold, tolerance)
    "steeper-than-simclr": (minus_simclr(rho), 0.0, RHO_TOL),
    "probe-gain": (minus_simclr(acc), 0.0, ACC_TOL),
    "probe-gain-strong-aug": ({"CLVS": acc_strong["CLVS"] - acc_strong["SimCLR"],
                               SHUF: acc_strong[SHUF] - acc_strong["SimCLR"], PCA: acc[PCA] - acc_strong["SimCLR"],
                               MILD: acc["SimCLR"] - acc_strong["SimCLR"]}, 0.0, ACC_TOL),
    "extent-ordering": ({w: rho[w] for w in ("CLVS", "SimCLR", *COMPARED, "untrained")}, -0.2, RHO_TOL),
}
# what is recorded: means over the run seeds, rounded to 1e-10 (+ 0.0: equal accuracies give 0, not -4e-15 or -0)
v = {t: {w: round(float(np.mean(x)), 10) + 0.0 for w, x in vals.items()} for t, (vals, _, _) in per_run.items()}
# the run-seed standard error of each recorded mean of the steeper test (the noise of one seed's value)
se = {w: float(np.std(x, ddof=1) / np.sqrt(len(x))) for w, x in per_run["steeper-than-simclr"][0].items()}

units = {"steeper-than-simclr": "Spearman minus SimCLR's",
         "probe-gain": "probe accuracy minus SimCLR's (points)",
         "probe-gain-strong-aug": "strong setting: accuracy minus SimCLR's (points)",
         "extent-ordering": "Spearman(cosine, extent)"}
fig, axes = plt.subplots(1, 4, figsize=(17, 3.9))
for ax, (t, (vals, thr, tol)) in zip(axes, per_run.items()):
    who = list(vals)
    y_pos = np.arange(len(who))[::-1]
    colors = ["tab:red" if w == "CLVS" else "tab:orange" if w in (SHUF, "SimCLR") else "tab:blue" for w in who]
    ax.barh(y_pos, [v[t][w] for w in who], xerr=[np.std(vals[w]) for w in who], color=colors, capsize=3)
    ax.axvline(thr, color="k", ls="--", lw=1)
    ax.axvspan(thr - tol.abs, thr + tol.abs, color="0.85", zorder=0)
    ax.set_yticks(y_pos, [w.replace(", ", ",\n") for w in who], fontsize=7)
    ax.set_xlabel(units[t], fontsize=8)
    ax.set_title(t + {"probe-gain": " (post hoc)", "probe-gain-strong-aug": " (post hoc)",
                      "extent-ordering": " (illustration)"}.get(t, ""), fontsize=9)
fig.suptitle(f"Each check: CLVS (red), its ablation (orange), the comparators (blue); mean ± sd over "
             f"{P.seeds} run seeds, seed {seed}", fontsize=10)
plt.show()

# %%
claims.headline("extent-ordered-similarity",
                "CLVS assigns strongly augmented positive pairs a lower target similarity than weakly augmented "
                "ones, instead of SimCLR's single target for every pair. Of the target this holds by "
                "construction (a unit test of the kernel); the test checks only its downstream effect: that the "
                "learned similarity falls with the extent more steeply than SimCLR's, and more than without the "
                "tie to the extent",
                tests=["steeper-than-simclr"])
claims.headline("linear-eval-gain",
                "The variable similarity gives better self-supervised representations: +2.1 points of linear "
                "evaluation accuracy on ImageNet-100 and +1.4 on ImageNet-1k over the state of the art. We cannot "
                "run ImageNet or the paper's backbone and baselines; here the tests ask for a gain in probe "
                "accuracy over SimCLR on 8x8 digits, in the default and in a strong augmentation setting",
                tests=["probe-gain", "probe-gain-strong-aug"])
claims.headline("generalisation-theory",
                "A theoretical analysis guarantees that the variable similarity improves the model's "
                "generalisation",
                untestable="the paper's theorem, its assumptions and its bound were not found (only the abstract); "
                           "there is nothing to evaluate or to refute by an independent computation")


claims.test(
    "steeper-than-simclr",
    statement="CLVS orders positive pairs by extent more strongly than SimCLR: its Spearman correlation "
              "minus SimCLR's (mean over run seeds)",
    paper="the variable similarity assigns strongly augmented pairs lower similarity (no number)",
    criterion=less_than(0.0), measured=v["steeper-than-simclr"]["CLVS"], tol=RHO_TOL,
    ablation=Comparator(LABEL[SHUF] + ", minus SimCLR", v["steeper-than-simclr"][SHUF], ingredient=EXTENT_LINK),
    baselines=[Comparator(LABEL[w] + ", minus SimCLR", v["steeper-than-simclr"][w]) for w in COMPARED],
)
claims.test(
    "probe-gain",
    statement="CLVS's linear-probe accuracy exceeds SimCLR's (mean over run seeds; points)",
    paper="+2.1 points on ImageNet-100, +1.4 on ImageNet-1k over the state of the art (linear evaluation)",
    criterion=greater_than(0.0), measured=v["probe-gain"]["CLVS"], tol=ACC_TOL,
    ablation=Comparator(LABEL[SHUF] + ", minus SimCLR", v["probe-gain"][SHUF], ingredient=EXTENT_LINK),
    baselines=[Comparator(LABEL[w] + ", minus SimCLR", v["probe-gain"][w]) for w in COMPARED],
    post_hoc="the brief pre-registered this gain check (C3: mean probe accuracy of CLVS above SimCLR's) at full "
             "scale only, and the page had kept at ci only the non-inferiority check of the same measurement, which "
             "a no-op passes; the independent review asked that the criterion matching the paper's headline be the "
             "counted test. Made a ci test after the page first ran: its criterion (> 0 points) is the brief's and "
             "its tolerance that of every accuracy on the page, but its values at seeds 0-9 had been seen",
)
claims.test(
    "probe-gain-strong-aug",
    statement=f"with strong augmentations (an occluding square of side up to {STRONG_ERASE} pixels that grows with "
              "the extent, on top of the shifts and noise), CLVS's linear-probe accuracy exceeds SimCLR's trained "
              "with the same views (mean over run seeds; points)",
    paper="+2.1 points on ImageNet-100, +1.4 on ImageNet-1k over the state of the art; the paper says the fixed "
          "target misleads most when strong augmentations distort the content",
    criterion=greater_than(0.0), measured=v["probe-gain-strong-aug"]["CLVS"], tol=ACC_TOL,
    ablation=Comparator(LABEL[SHUF] + ", strong setting, minus SimCLR", v["probe-gain-strong-aug"][SHUF],
                        ingredient=EXTENT_LINK),
    baselines=[Comparator(LABEL[PCA] + ", minus SimCLR in the strong setting", v["probe-gain-strong-aug"][PCA]),
               Comparator(LABEL[MILD] + ", minus SimCLR in the strong setting", v["probe-gain-strong-aug"][MILD])],
    post_hoc="added when the page gained its comparators (issue 32): the paper's claim is a gain, but the "
             "pre-registered ci test asks only for non-inferiority, and the brief's gain check was full-scale only "
             "and shares that test's measurement; this test asks for the gain (> 0 points, the brief's C3 criterion) "
             f"in the setting where the paper says its ingredient matters: views strong enough to lose content (an "
             f"occluding square up to {STRONG_ERASE}x{STRONG_ERASE}, a quarter of the image, fixed before it was "
             "run); designed on seeds 0-9",
)
claims.illustrate(
    "probe-non-inferior",
    statement="CLVS's linear-probe accuracy is at most 1 point below SimCLR's (mean over run seeds; points)",
    paper="+2.1 points on ImageNet-100, +1.4 on ImageNet-1k over the state of the art (linear evaluation); this "
          "check asks only that CLVS not fall more than 1 point below SimCLR (the brief's C1 bar), not for a gain",
    criterion=at_least(-1.0), measured=v["probe-gain"]["CLVS"], tol=ACC_TOL,
    why="a 'does not hurt' criterion where the paper claims a gain: SimCLR, the reference, meets its bar against "
        "itself (value 0 by construction), and so do the comparators, PCA-16 by several points; its "
        "measurement is counted once, by probe-gain, under the criterion that matches the paper",
)
claims.illustrate(
    "extent-ordering",
    statement="with CLVS, the cosine of a positive pair falls with its augmentation extent "
              "(Spearman correlation over test pairs, mean over run seeds)",
    paper="strongly augmented views are always assigned lower similarity than weakly augmented ones",
    criterion=at_most(-0.2), measured=v["extent-ordering"]["CLVS"], tol=RHO_TOL,
    why="views that differ more stay less alike whatever the loss: SimCLR without any variable similarity and even "
        "the untrained encoder pass it; and it shares CLVS's correlation with steeper-than-simclr, which asks the "
        "discriminating question (one measurement, one test)",
)

KEY = {"CLVS": "clvs", SHUF: "shuf", "SimCLR": "simclr", PCA: "pca", MILD: "mild", MILDV: "mildv",
       WEIGHTED: "weighted", "untrained": "untrained"}
for t, vals in v.items():
    for w, x in vals.items():
        glue(f"{t}_{KEY[w]}", x, display=False)
for m in (*TRAINED, "untrained", PCA):
    glue(f"acc_{KEY[m]}", float(acc[m].mean()), display=False)
for m in K.METHODS:
    glue(f"acc_strong_{KEY[m]}", float(acc_strong[m].mean()), display=False)
glue("acc_raw", float(acc_raw), display=False)
glue("raw_minus_simclr", float(acc_raw - acc["SimCLR"].mean()), display=False)
glue("untrained_minus_simclr", float((acc["untrained"] - acc["SimCLR"]).mean()), display=False)
glue("strong_minus_default_simclr", float((acc_strong["SimCLR"] - acc["SimCLR"]).mean()) + 0.0, display=False)
glue("se_steeper_clvs", se["CLVS"], display=False)
glue("se_steeper_shuf", se[SHUF], display=False)
glue("tol_over_se", float(RHO_TOL.abs / se["CLVS"]), display=False)
glue("ink_mean", 100 * float(ink.mean()), display=False)
glue("ink_median", 100 * float(np.median(ink)), display=False)
glue("n_clvs_steeper", int(np.sum(rho["CLVS"] < rho["SimCLR"])), display=False)
glue("n_runs", int(P.seeds), display=False)

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
# The tests check only what the variable target does to the learned encoder; that the target itself ranks
# strongly augmented pairs below weakly augmented ones holds by construction (a unit test), not by experiment.
#
# * *CLVS orders pairs more steeply than SimCLR* ({repro-status}`steeper-than-simclr`, pre-registered). At this
#   seed CLVS's correlation is below SimCLR's at {glue:text}`n_clvs_steeper` of {glue:text}`n_runs` run seeds,
#   by {glue:text}`steeper-than-simclr_clvs:+.3f` on average (run-seed standard error
#   {glue:text}`se_steeper_clvs:.3f`), while the ablation with the same soft targets not tied to the extent
#   moves it by {glue:text}`steeper-than-simclr_shuf:+.3f`. The sign is not in doubt: CLVS's correlation lies
#   below SimCLR's at every ci seed. What the page cannot do is attribute it to the tie between target and
#   extent, because objectives without that tie order the pairs about as steeply or more: SimCLR trained only
#   on milder views ({glue:text}`steeper-than-simclr_mildv:+.3f`; steeper than CLVS at every ci seed) and
#   SimCLR's own loss with each pair weighted by the same $s(e)$ ({glue:text}`steeper-than-simclr_weighted:+.3f`),
#   whose target stays one-hot; PCA-16
#   ({glue:text}`steeper-than-simclr_pca:+.3f`, a weaker rank correlation) does not. Over the ci sweep CLVS
#   clears the band of the declared tolerance at
#   {repro-seeds}`steeper-than-simclr:method:pass` seeds (one of them only by a hair) and is inside it at
#   {repro-seeds}`steeper-than-simclr:method:edge`; the milder-view SimCLR clears it at
#   {repro-seeds}`steeper-than-simclr:baseline2:pass` and the weighted NT-Xent at
#   {repro-seeds}`steeper-than-simclr:baseline3:pass`. The test is not specific at
#   {repro-seeds}`steeper-than-simclr:test:not-specific` seeds and at the edge at
#   {repro-seeds}`steeper-than-simclr:test:at-the-edge`. The tolerance ($0.05$), declared before the first
#   run, is an effect-size floor rather than a noise level: it is {glue:text}`tol_over_se:.1f` times the
#   run-seed standard error of CLVS's value at this seed (the spread between ci seeds, where the split changes
#   too, is larger), and about as large as the effect itself. A smaller band
#   would not rescue the test: the milder-view SimCLR is steeper than CLVS. After 150 epochs the difference
#   was smaller than at ci in the page's earlier full-scale record; the judged table's full-scale column, re-run
#   with the comparators above, is the current word (this ci page quotes none of its numbers).
# * *A gain in probe accuracy* (post hoc, {repro-status}`probe-gain`; the brief's C3 and the paper's headline).
#   CLVS ends {glue:text}`probe-gain_clvs:+.2f` points from SimCLR at this seed; the ablation
#   {glue:text}`probe-gain_shuf:+.2f`, the weighted NT-Xent {glue:text}`probe-gain_weighted:+.2f`, SimCLR on
#   milder views {glue:text}`probe-gain_mildv:+.2f`, and PCA-16, with no training at all,
#   {glue:text}`probe-gain_pca:+.2f`.
#   Over the ci sweep CLVS gains more than the 1-point tolerance at {repro-seeds}`probe-gain:method:pass` seeds,
#   PCA-16 at {repro-seeds}`probe-gain:baseline1:pass`: at this scale SimCLR probes below 16 principal
#   components, so this test cannot come out reproduced (and, being post hoc, it counts only once confirmed on
#   seeds 10-19, which it was not: on those seeds it is at the edge or not specific). The pre-registered non-inferiority check on the same measurement (CLVS at most 1 point below
#   SimCLR) is kept as an illustration: it is weak, since SimCLR meets its bar against itself and the
#   comparators meet it too.
# * *A gain where the augmentations destroy content* (post hoc, {repro-status}`probe-gain-strong-aug`). With the
#   occluding square, CLVS ends {glue:text}`probe-gain-strong-aug_clvs:+.2f` points from SimCLR trained on the
#   same views (ablation {glue:text}`probe-gain-strong-aug_shuf:+.2f`). PCA-16 is
#   {glue:text}`probe-gain-strong-aug_pca:+.2f` points above that SimCLR, and SimCLR trained with the milder
#   default views {glue:text}`probe-gain-strong-aug_mild:+.2f`. Over the ci sweep CLVS gains more than the
#   tolerance at {repro-seeds}`probe-gain-strong-aug:method:pass` seeds, its ablation at
#   {repro-seeds}`probe-gain-strong-aug:ablation:pass`, PCA-16 at {repro-seeds}`probe-gain-strong-aug:baseline1:pass`
#   and the milder SimCLR at {repro-seeds}`probe-gain-strong-aug:baseline2:pass`: with PCA-16 above SimCLR this
#   test, too, can never be confirmed here. Nor does the setting create the paper's premise. The square removes
#   on average {glue:text}`ink_mean:.0f` % of a digit's ink (median {glue:text}`ink_median:.0f` %), and SimCLR is
#   not hurt by it: its probe accuracy moves by {glue:text}`strong_minus_default_simclr:+.2f` points with the
#   square ({glue:text}`acc_strong_simclr:.2f` % against {glue:text}`acc_simclr:.2f` % without, at this seed).
#   Where the fixed target does not mislead SimCLR, there is nothing for the variable one to repair.
# * *Illustrations.* Similarity falls with the extent (`extent-ordering`) for every encoder: CLVS
#   {glue:text}`extent-ordering_clvs:+.2f`, SimCLR {glue:text}`extent-ordering_simclr:+.2f`, even the untrained
#   encoder {glue:text}`extent-ordering_untrained:+.2f`, all below the bar of $-0.2$; views that were distorted
#   more stay less alike whatever the loss. And CLVS is not worse than SimCLR by more than a point
#   (`probe-non-inferior`), like every comparator at this seed.
#
# In our miniature the paper's ingredient is not needed for anything the tests can resolve. The probe accuracy
# of every contrastive representation, CLVS's included, stays below that of 16 principal components at every
# ci seed (the shuffled ablation draws level with it at a full-scale seed); the
# extent ordering is there without the variable similarity; and the one effect of CLVS that has a consistent
# sign, a steeper ordering, is reached as well by training SimCLR on milder views or by weighting its pairs
# with the same $s(e)$.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page, the
# record and the brief. They re-ran the page's objectives beside naive alternatives on seeds 0-3, re-judged the
# ci sweep under other tolerances, and measured how much the strong setting occludes. What they found is now
# measured by this notebook on the same split, run seeds and evaluation pairs (seed 0, mean over the run
# seeds):
#
# * **SimCLR on milder views** ($e\sim U[0, 0.5]$ in training; a comparator of the two default-setting tests):
#   its correlation is {glue:text}`steeper-than-simclr_mildv:+.3f` from SimCLR's, steeper than CLVS's
#   ({glue:text}`steeper-than-simclr_clvs:+.3f`), at a probe accuracy of {glue:text}`acc_mildv:.2f` %
#   ({glue:text}`probe-gain_mildv:+.2f` points from SimCLR). This is what makes `steeper-than-simclr` not
#   specific: the steeper ordering is what any objective does that pulls strongly augmented pairs together
#   less, with or without a variable target.
# * **NT-Xent weighted by $s(e)$** (the brief's hard-weighting alternative, missing from the page before the
#   review; a comparator of the same two tests): {glue:text}`steeper-than-simclr_weighted:+.3f` from SimCLR's
#   correlation and {glue:text}`probe-gain_weighted:+.2f` points of probe accuracy
#   ({glue:text}`acc_weighted:.2f` %).
# * **The tuned-temperature SimCLR** (the page's earlier baseline: $\tau\in\{0.1,0.2,0.5\}$ chosen on a
#   validation split) was SimCLR itself wherever validation kept $\tau=0.2$, and so sat exactly on the
#   threshold of every test that subtracts SimCLR. The reviewer proposed the runner-up temperature instead.
#   We removed it: its four trainings did not fit the ci budget beside the two comparators the review asked
#   for. SimCLR on milder views now stands for a SimCLR changed in the knob that bears on the extent, its augmentation range (fixed
#   at half the range, not tuned).
# * **The tolerance of the rank correlations.** Its stated reason had been the drift of the training end point
#   between machines, which the reviewer measured and found far smaller; the band is an effect-size floor.
#   The page now measures the noise within one seed: the run-seed standard error of CLVS's difference from
#   SimCLR is {glue:text}`se_steeper_clvs:.3f` at this seed (the ablation's {glue:text}`se_steeper_shuf:.3f`);
#   between ci seeds, where the split changes too, the values spread more, though in the ci sweep still less
#   than the band. The criterion and the band are unchanged (the test is pre-registered);
#   only the text of the band's reason changed.
# * **PCA-16** (the first 16 principal components, no training; a comparator of every test): probe accuracy
#   {glue:text}`acc_pca:.2f` %, against {glue:text}`acc_simclr:.2f` % for SimCLR and {glue:text}`acc_clvs:.2f` %
#   for CLVS, and {glue:text}`probe-gain-strong-aug_pca:+.2f` points above SimCLR in the strong setting. It
#   passes both gain tests, so neither can be confirmed at this scale.
# * **The untrained encoder** (not a comparator: its width was chosen in a pilot so that it would probe
#   worse): {glue:text}`acc_untrained:.2f` % ({glue:text}`untrained_minus_simclr:+.2f` points from SimCLR), but a
#   correlation of {glue:text}`extent-ordering_untrained:+.2f` with the extent, below the bar of
#   `extent-ordering`: that check is why it is an illustration.
# * **The strong setting**: the occluding square removes on average {glue:text}`ink_mean:.0f` % of a digit's ink,
#   and SimCLR trained with it probes {glue:text}`strong_minus_default_simclr:+.2f` points from SimCLR without
#   it: the setting does not mislead the fixed target.
# * **Raw pixels** (64 wide, four times the width of $h$, so not a comparator): {glue:text}`acc_raw:.2f` %,
#   {glue:text}`raw_minus_simclr:+.2f` points above SimCLR.
#
# Tried by the reviewer and not re-run here (time budget): a constant soft target at CLVS's mean (label
# smoothing with no extent), whose ordering lay between SimCLR's and CLVS's, the role the shuffled ablation
# plays on the page; SimCLR trained twice as long, which gained more probe accuracy than any difference between
# the objectives here: every encoder is undertrained at ci (the full-scale sweep trains for 150 epochs); and
# the loss in the form it had before the comparators were added (a full target matrix), which gave the same
# probe accuracies and correlations up to rounding. Not tried: a tuned probe (every representation gets the
# same probe with $C=1$), and the milder-view SimCLR and the weighted NT-Xent in the strong setting.
#
# ## What the miniature cannot show
#
# * **The paper's loss.** We did not find the paper's formula for the variable similarity, nor how it
#   measures the augmentation extent; the page tests one reading (soft targets with
#   $s=1-\alpha(e_i+e_j)/2$). A different reading (a similarity margin, a re-weighting, a learned mapping
#   from extent to similarity) might behave differently; the one re-weighting we ran orders pairs like CLVS.
# * **Semantic damage at scale.** The premise is that strong crops can remove the object, so that "same image"
#   is a wrong label. Our strong setting occludes up to a quarter of an 8×8 digit, a crude stand-in for crops
#   of natural images, and it does not hurt SimCLR; we did not search for a setting in which CLVS gains, and
#   one may exist.
# * **Scale and baselines.** A 2-layer MLP on 1 203 images for at most 150 epochs against SimCLR and PCA; the
#   paper's claims are about ResNets on ImageNet-100 and ImageNet-1k against the strongest contrastive
#   methods, where a 1-2 point gain is far above seed noise and here it is not. At ci scale the contrastive
#   encoders are far from converged: they probe below PCA.
# * **The theory.** The paper's generalisation guarantee was not found and is not examined.
