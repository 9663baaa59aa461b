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
    # about 15 s on one quiet thread: 3 run seeds x 20 epochs (100 Adam steps) for each of the 3 objectives in
    # two augmentation settings, plus the tuned-temperature SimCLR (2 to 4 more trainings)
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
TAU_GRID = (TAU, 0.1, 0.5)         # the tuned SimCLR's temperatures (the reference first: it wins ties)
STRONG_ERASE = 4                   # post-hoc setting: an occluding square of side up to 4 pixels (a quarter of the image)

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
# ## The experiment
#
# * **Data**: scikit-learn's 1 797 handwritten 8×8 digits (intensities scaled to [0, 1]), split into 1 203
#   training and 594 test images (stratified, split seeded by the notebook's seed). Labels are used only by
#   the probe (and by the validation split that tunes a baseline's temperature, below).
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
# * **Naive baselines** (added when the page gained its comparators; none uses an idea of the paper):
#   *PCA-16* (`K.PCAEncoder`), the first 16 principal components of the training images, the same width as
#   $h$: no training, no augmentation, the representation a skeptic builds first; *SimCLR with a tuned
#   temperature*: $\tau\in\{0.1, 0.2, 0.5\}$ chosen by the probe's accuracy on a validation third of the
#   *training* images (`K.select_by_validation`; the test images are not looked at), tuned once per notebook
#   seed on its first run seed, then trained at the chosen $\tau$ on every run seed; and, for the strong
#   setting, *SimCLR with the default (milder) augmentation*, the skeptic's fix for views that are too strong.
# * **Budget**: Adam, learning rate $10^{-3}$, batches of 256 images (5 steps per epoch), $\tau=0.2$. ci: 3 run
#   seeds × 20 epochs (100 steps, far from converged); full: 5 run seeds × 150 epochs (750 steps).
# * **Evaluation**, identical for every representation: a linear probe (`repro.ssl.linear_probe_accuracy`:
#   standardised features, multinomial logistic regression, $C=1$) trained on $h$ of the clean training
#   images and scored on the clean test images; the same probe on the untrained encoder and on the raw
#   pixels as references. For the mechanism: three view pairs per test image (1 782 pairs, the same pairs
#   for every representation), the cosine of their projections ($z$; for PCA-16 its features), and its
#   Spearman correlation with the pair's mean extent.
#
# **Tests, fixed before the first run** (the brief's checks; means over the run seeds). When the book asked
# every counted test for its ablation and the strongest naive baseline (issue 31), they kept their
# measurement, setting and criterion and gained comparators; the old single control of the first test (the
# untrained encoder, whose width 16 was chosen in a pilot so that it would probe worse than a trained one) was
# a strawman and is now shown only in the figures.
#
# 1. `probe-non-inferior` (brief C1): probe accuracy of CLVS minus SimCLR's ≥ −1 point. A "does not hurt"
#    criterion, where the paper claims a gain; and SimCLR, the reference of the measurement, would pass it
#    against itself (its value is 0 by construction). Comparators: CLVS-shuffled (ablation), PCA-16 and the
#    tuned-temperature SimCLR, each minus SimCLR.
# 2. `extent-ordering` (brief C2, first half): Spearman correlation between the positive-pair cosine and the
#    extent ≤ −0.2 for CLVS. Comparators: SimCLR (ablation: no variable similarity at all), PCA-16 and the
#    tuned-temperature SimCLR. Views that differ more are less alike whatever the loss, so we expected SimCLR
#    to pass too.
# 3. `steeper-than-simclr` (brief C2, second half): CLVS's Spearman correlation minus SimCLR's < 0.
#    Comparators: CLVS-shuffled (ablation), PCA-16 and the tuned-temperature SimCLR, each minus SimCLR.
#
# The brief's third check, a probe gain of CLVS over SimCLR (> 0 points), was pre-registered at full scale
# only; it is the measurement of test 1 with a stricter criterion (one measurement is one test), and a test
# that the ci sweep cannot judge gives the page no status, so it is no longer recorded as its own check: the
# full-scale gain is shown in the table of the paper's numbers when the page runs at that scale.
#
# **Added when the page gained its comparators, post hoc** (designed on seeds 0-9, counted only once confirmed
# on seeds 10-19):
#
# 4. `probe-gain-strong-aug`: the paper's claim, a gain in probe accuracy over SimCLR (> 0 points), in the
#    setting where the paper says its ingredient matters: views strong enough to lose part of the content
#    (the occluding square above, fixed before it was run). Comparators: CLVS-shuffled (ablation), PCA-16, and
#    SimCLR trained with the default, milder augmentation, each minus SimCLR in the strong setting. The
#    tuned-temperature SimCLR is not run in this setting (time budget); PCA-16 is the stronger baseline of
#    the two in the default setting.
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
# * Baselines: SimCLR (fixed and tuned temperature) and PCA; the paper compares with several state-of-the-art
#   methods.
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


def pairs_gen(rs):
    """The generator of the evaluation pairs of run seed rs: the same pairs for every representation."""
    return torch.Generator().manual_seed(rs + 7)


# the default setting: the three objectives, the untrained encoder, and the evaluation of each
acc = {m: [] for m in K.METHODS}
rho = {m: [] for m in K.METHODS}
cos = {m: [] for m in K.METHODS}
spectra = {m: [] for m in K.METHODS}
models = {m: [] for m in K.METHODS}
acc_untrained, extent = [], []
for rs in progress(RUN_SEEDS, desc="run seeds (default setting)"):
    torch.manual_seed(rs)
    acc_untrained.append(K.probe_accuracy(MLPEncoder(rep_dim=REP_DIM), X_tr, y_tr, X_te, y_te))
    for m in K.METHODS:
        model, _ = K.train_encoder(X_tr, m, rs, tau=TAU, **TRAIN)
        models[m].append(model)
        acc[m].append(K.probe_accuracy(model, X_tr, y_tr, X_te, y_te))
        c, e = K.positive_cosines(model, X_pairs, pairs_gen(rs), MAX_SHIFT, NOISE)
        cos[m].append(c)
        rho[m].append(K.spearman(c, e))
        with torch.no_grad():
            spectra[m].append(covariance_spectrum(model(X_te)[0]))
    extent.append(e)                                            # identical pairs for every representation

# naive baseline 1: PCA-16 (one fit per split; the evaluation pairs of every run seed)
pca = K.PCAEncoder(X_tr, REP_DIM)
acc_pca = K.probe_accuracy(pca, X_tr, y_tr, X_te, y_te)
cos_pca = [K.positive_cosines(pca, X_pairs, pairs_gen(rs), MAX_SHIFT, NOISE)[0] for rs in RUN_SEEDS]
rho_pca = np.array([K.spearman(c, e) for c, e in zip(cos_pca, extent)])

# naive baseline 2: SimCLR with its temperature tuned on a validation split of the training images, once per
# notebook seed on the first run seed, then trained at the chosen temperature on every run seed
candidates = {TAU: models["SimCLR"][0]}
for t in TAU_GRID[1:]:
    candidates[t] = K.train_encoder(X_tr, "SimCLR", RUN_SEEDS[0], tau=t, **TRAIN)[0]
tau_tuned, val_acc = K.select_by_validation(candidates, X_tr, y_tr, seed)
acc_tuned, rho_tuned = [], []
for k, rs in enumerate(RUN_SEEDS):
    if tau_tuned == TAU:
        model = models["SimCLR"][k]
    elif k == 0:
        model = candidates[tau_tuned]
    else:
        model = K.train_encoder(X_tr, "SimCLR", rs, tau=tau_tuned, **TRAIN)[0]
    acc_tuned.append(K.probe_accuracy(model, X_tr, y_tr, X_te, y_te))
    rho_tuned.append(K.spearman(K.positive_cosines(model, X_pairs, pairs_gen(rs), MAX_SHIFT, NOISE)[0], extent[k]))

# the strong setting (post-hoc test): the same three objectives with the occluding square
acc_strong = {m: [] for m in K.METHODS}
for rs in progress(RUN_SEEDS, desc="run seeds (strong setting)"):
    for m in K.METHODS:
        model, _ = K.train_encoder(X_tr, m, rs, tau=TAU, erase=STRONG_ERASE, **TRAIN)
        acc_strong[m].append(K.probe_accuracy(model, X_tr, y_tr, X_te, y_te))

acc_raw = 100 * K.probe_accuracy(None, X_tr, y_tr, X_te, y_te)
acc = {m: 100 * np.array(v) for m, v in acc.items()}
acc_strong = {m: 100 * np.array(v) for m, v in acc_strong.items()}
acc_untrained, acc_tuned, acc_pca = 100 * np.array(acc_untrained), 100 * np.array(acc_tuned), 100 * acc_pca
rho = {m: np.array(v) for m, v in rho.items()}
rho_tuned = np.array(rho_tuned)

# %% [markdown]
# ## Results
#
# Linear-probe accuracy on the 594 clean test digits, mean ± standard deviation over the run seeds, in the
# default setting and (last rows) in the strong setting. The temperature chosen for the tuned SimCLR on the
# validation split is $\tau =$ {glue:text}`tau_tuned:.1f` at this seed.

# %%
rows = [(f"{m}", acc[m]) for m in K.METHODS] + [(f"SimCLR, tuned tau = {tau_tuned}", acc_tuned),
                                                 ("untrained encoder", acc_untrained)]
rows += [(f"{m}, strong setting", acc_strong[m]) for m in K.METHODS]
print(f"{'representation':<34} {'probe accuracy (%)':>20}   per run seed")
for name, a in rows:
    print(f"{name:<34} {a.mean():>12.2f} ± {a.std(ddof=1):.2f}   " + " ".join(f"{v:.2f}" for v in a))
print(f"{'PCA-16 (no training)':<34} {acc_pca:>12.2f}")
print(f"{'raw pixels (64-d)':<34} {acc_raw:>12.2f}")
print("\nvalidation accuracy of SimCLR by temperature (first run seed): "
      + ", ".join(f"tau = {t}: {100 * a:.2f}" for t, a in val_acc.items()))
print("\nSpearman(positive cosine, extent), mean ± sd over run seeds:")
for name, r in [(m, rho[m]) for m in K.METHODS] + [(f"SimCLR, tuned tau = {tau_tuned}", rho_tuned),
                                                     ("PCA-16", rho_pca)]:
    print(f"  {name:<28} {r.mean():+.3f} ± {r.std(ddof=1):.3f}   " + " ".join(f"{v:+.3f}" for v in r))

# %%
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 3.9), gridspec_kw=dict(width_ratios=[5, 3]))
for ax, groups, title in (
        (ax1, [(m, acc[m]) for m in K.METHODS] + [("SimCLR\ntuned τ", acc_tuned), ("untrained", acc_untrained)],
         "Default setting"),
        (ax2, [(m, acc_strong[m]) for m in K.METHODS], f"Strong setting (occluding square up to {STRONG_ERASE}×{STRONG_ERASE})")):
    for i, (name, v) in enumerate(groups):
        ax.scatter(np.full(len(v), i) + np.linspace(-0.08, 0.08, len(v)), v, s=18, color=f"C{i}", alpha=0.7)
        ax.errorbar(i + 0.22, v.mean(), yerr=v.std(ddof=1), fmt="o", color=f"C{i}", capsize=4)
    ax.axhline(acc_pca, color="k", ls="--", lw=1, label="PCA-16 (no training)")
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
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
curves = [(m, cos[m], rho[m]) for m in K.METHODS] + [("PCA-16 (features)", cos_pca, rho_pca)]
for i, (name, cs, r) in enumerate(curves):
    per_seed = []
    for c, e in zip(cs, extent):
        idx = np.clip(np.digitize(e, bins) - 1, 0, len(centres) - 1)
        per_seed.append([c[idx == b].mean() if np.any(idx == b) else np.nan for b in range(len(centres))])
    per_seed = np.array(per_seed)
    mu, sd = np.nanmean(per_seed, 0), np.nanstd(per_seed, 0)
    ax1.plot(centres, mu, marker="o", color=f"C{i}", ms=3, ls="--" if name.startswith("PCA") else "-",
             label=f"{name} (ρ = {r.mean():+.2f})")
    ax1.fill_between(centres, mu - sd, mu + sd, color=f"C{i}", alpha=0.2)
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
d_clvs = acc["CLVS"] - acc["SimCLR"]
d_shuf = acc["CLVS-shuffled"] - acc["SimCLR"]
d_strong = acc_strong["CLVS"] - acc_strong["SimCLR"]
d_pca = acc_pca - acc["SimCLR"]
print(f"{'setting':<62} {'gain (points)':>16}")
print(f"{'paper: ImageNet-100, linear eval, vs state of the art':<62} {'+2.1':>16}")
print(f"{'paper: ImageNet-1k, linear eval, vs state of the art':<62} {'+1.4':>16}")
print(f"{f'ours ({scale}): digits 8x8, linear probe, CLVS vs SimCLR':<62} "
      f"{f'{d_clvs.mean():+.2f} ± {d_clvs.std(ddof=1):.2f}':>16}")
print(f"{f'ours ({scale}): same, CLVS-shuffled (ablation) vs SimCLR':<62} "
      f"{f'{d_shuf.mean():+.2f} ± {d_shuf.std(ddof=1):.2f}':>16}")
print(f"{f'ours ({scale}): same, PCA-16 (no training) vs SimCLR':<62} "
      f"{f'{d_pca.mean():+.2f}':>16}")
print(f"{f'ours ({scale}): strong setting, CLVS vs SimCLR':<62} "
      f"{f'{d_strong.mean():+.2f} ± {d_strong.std(ddof=1):.2f}':>16}")

# %% [markdown]
# ## Checking the claims
#
# Every counted test measures CLVS beside its ablation and the naive baselines, under the same measurement and
# criterion. The figure shows each test's values over the run seeds of this seed: the bar is the mean the check
# records, the whiskers the spread over the run seeds, the dashed line the threshold and the grey band the
# declared tolerance around it (a value inside it is "at the edge", never a pass). SimCLR, the reference of
# tests 1, 3 and 4, is not drawn there: its value would be 0 by construction.

# %%
ACC_TOL = tolerance(abs=1.0, why="mean probe accuracy of Adam-trained encoders: the training end point moves "
                    "with the kernel dispatch")
RHO_TOL = tolerance(abs=0.05, why="rank correlation on the projections of Adam-trained encoders")
SHUF, PCA, TUNED, MILD = "CLVS-shuffled", "PCA-16", "SimCLR, tuned temperature", "SimCLR, default augmentation"
LABEL = {SHUF: "CLVS-shuffled: the same soft targets permuted across the pairs (softened, not tied to the extent)",
         "SimCLR": "SimCLR (NT-Xent: target similarity 1 for every pair)",
         PCA: "PCA-16: the first 16 principal components of the training images (no training, no augmentation)",
         TUNED: "SimCLR with its temperature tuned on a validation split of the training images (0.1, 0.2, 0.5)",
         MILD: "SimCLR trained with the default, milder augmentation (no occluding square)"}
EXTENT_LINK = "tying each pair's target similarity to its augmentation extent (the variable similarity)"
VARIABLE = "the variable similarity: SimCLR keeps the target similarity at 1 for every pair"
per_run = {  # test -> ({who: values per run seed}, threshold, tolerance)
    "probe-non-inferior": ({"CLVS": acc["CLVS"] - acc["SimCLR"], SHUF: acc[SHUF] - acc["SimCLR"],
                            PCA: acc_pca - acc["SimCLR"], TUNED: acc_tuned - acc["SimCLR"]}, -1.0, ACC_TOL),
    "extent-ordering": ({"CLVS": rho["CLVS"], "SimCLR": rho["SimCLR"], PCA: rho_pca, TUNED: rho_tuned}, -0.2,
                        RHO_TOL),
    "steeper-than-simclr": ({"CLVS": rho["CLVS"] - rho["SimCLR"], SHUF: rho[SHUF] - rho["SimCLR"],
                             PCA: rho_pca - rho["SimCLR"], TUNED: rho_tuned - rho["SimCLR"]}, 0.0, RHO_TOL),
    "probe-gain-strong-aug": ({"CLVS": acc_strong["CLVS"] - acc_strong["SimCLR"],
                               SHUF: acc_strong[SHUF] - acc_strong["SimCLR"], PCA: acc_pca - acc_strong["SimCLR"],
                               MILD: acc["SimCLR"] - acc_strong["SimCLR"]}, 0.0, ACC_TOL),
}
v = {t: {w: float(np.mean(x)) for w, x in vals.items()} for t, (vals, _, _) in per_run.items()}  # what is recorded

units = {"probe-non-inferior": "probe accuracy minus SimCLR's (points)",
         "extent-ordering": "Spearman(cosine, extent)",
         "steeper-than-simclr": "Spearman minus SimCLR's",
         "probe-gain-strong-aug": "strong setting: accuracy minus SimCLR's (points)"}
fig, axes = plt.subplots(1, 4, figsize=(16, 3.6))
for ax, (t, (vals, thr, tol)) in zip(axes, per_run.items()):
    who = list(vals)
    y_pos = np.arange(len(who))[::-1]
    colors = ["tab:red" if w == "CLVS" else "tab:orange" if w in (SHUF, "SimCLR") else "tab:blue" for w in who]
    ax.barh(y_pos, [v[t][w] for w in who], xerr=[np.std(vals[w]) for w in who], color=colors, capsize=3)
    ax.axvline(thr, color="k", ls="--", lw=1)
    ax.axvspan(thr - tol.abs, thr + tol.abs, color="0.85", zorder=0)
    ax.set_yticks(y_pos, [w.replace(", ", ",\n") for w in who], fontsize=7)
    ax.set_xlabel(units[t], fontsize=8)
    ax.set_title(t + (" (post hoc)" if t == "probe-gain-strong-aug" else ""), fontsize=9)
fig.suptitle(f"Each test: CLVS (red), its ablation (orange), the naive baselines (blue); mean ± sd over "
             f"{P.seeds} run seeds, seed {seed}", fontsize=10)
plt.show()

# %%
claims.headline("extent-ordered-similarity",
                "CLVS assigns strongly augmented positive pairs a lower similarity than weakly augmented ones, "
                "instead of SimCLR's single target for every pair",
                tests=["extent-ordering", "steeper-than-simclr"])
claims.headline("linear-eval-gain",
                "The variable similarity gives better self-supervised representations: +2.1 points of linear "
                "evaluation accuracy on ImageNet-100 and +1.4 on ImageNet-1k over the state of the art. We cannot "
                "run ImageNet or the paper's backbone and baselines; here the tests compare probe accuracy with "
                "SimCLR's on 8x8 digits, in the default and in a strong augmentation setting",
                tests=["probe-non-inferior", "probe-gain-strong-aug"])
claims.headline("generalisation-theory",
                "A theoretical analysis guarantees that the variable similarity improves the model's "
                "generalisation",
                untestable="the paper's theorem, its assumptions and its bound were not found (only the abstract); "
                           "there is nothing to evaluate or to refute by an independent computation")

claims.test(
    "probe-non-inferior",
    statement="CLVS's linear-probe accuracy is at most 1 point below SimCLR's (mean over run seeds; points)",
    paper="+2.1 points on ImageNet-100, +1.4 on ImageNet-1k over the state of the art (linear evaluation); this "
          "test asks only that CLVS not fall more than 1 point below SimCLR (the brief's bar), not for a gain",
    criterion=at_least(-1.0), measured=v["probe-non-inferior"]["CLVS"], tol=ACC_TOL,
    ablation=Comparator(LABEL[SHUF] + ", minus SimCLR", v["probe-non-inferior"][SHUF], ingredient=EXTENT_LINK),
    baselines=[Comparator(LABEL[PCA] + ", minus SimCLR", v["probe-non-inferior"][PCA]),
               Comparator(LABEL[TUNED] + ", minus SimCLR", v["probe-non-inferior"][TUNED])],
)
claims.test(
    "extent-ordering",
    statement="with CLVS, the cosine of a positive pair falls with its augmentation extent "
              "(Spearman correlation over test pairs, mean over run seeds)",
    paper="strongly augmented views are always assigned lower similarity than weakly augmented ones",
    criterion=at_most(-0.2), measured=v["extent-ordering"]["CLVS"], tol=RHO_TOL,
    ablation=Comparator(LABEL["SimCLR"], v["extent-ordering"]["SimCLR"], ingredient=VARIABLE),
    baselines=[Comparator(LABEL[PCA] + " (cosine of its features)", v["extent-ordering"][PCA]),
               Comparator(LABEL[TUNED], v["extent-ordering"][TUNED])],
)
claims.test(
    "steeper-than-simclr",
    statement="CLVS orders positive pairs by extent more strongly than SimCLR: its Spearman correlation "
              "minus SimCLR's (mean over run seeds)",
    paper="the variable similarity assigns strongly augmented pairs lower similarity (no number)",
    criterion=less_than(0.0), measured=v["steeper-than-simclr"]["CLVS"], tol=RHO_TOL,
    ablation=Comparator(LABEL[SHUF] + ", minus SimCLR", v["steeper-than-simclr"][SHUF], ingredient=EXTENT_LINK),
    baselines=[Comparator(LABEL[PCA] + " (cosine of its features), minus SimCLR", v["steeper-than-simclr"][PCA]),
               Comparator(LABEL[TUNED] + ", minus SimCLR", v["steeper-than-simclr"][TUNED])],
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

KEY = {"CLVS": "clvs", SHUF: "shuf", "SimCLR": "simclr", PCA: "pca", TUNED: "tuned", MILD: "mild"}
for t, vals in v.items():
    for w, x in vals.items():
        glue(f"{t}_{KEY[w]}", x, display=False)
for m in K.METHODS:
    glue(f"acc_{KEY[m]}", float(acc[m].mean()), display=False)
    glue(f"acc_strong_{KEY[m]}", float(acc_strong[m].mean()), display=False)
    glue(f"rho_{KEY[m]}", float(rho[m].mean()), display=False)
glue("acc_tuned", float(acc_tuned.mean()), display=False)
glue("acc_pca", float(acc_pca), display=False)
glue("acc_raw", float(acc_raw), display=False)
glue("acc_untrained", float(acc_untrained.mean()), display=False)
glue("untrained_minus_simclr", float((acc_untrained - acc["SimCLR"]).mean()), display=False)
glue("raw_minus_simclr", float(acc_raw - acc["SimCLR"].mean()), display=False)
glue("tau_tuned", float(tau_tuned), display=False)
glue("rho_pca", float(rho_pca.mean()), display=False)
glue("rho_tuned", float(rho_tuned.mean()), display=False)
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
# * *No loss in probe accuracy* ({repro-status}`probe-non-inferior`, pre-registered). CLVS ends
#   {glue:text}`probe-non-inferior_clvs:+.2f` points from SimCLR at this seed. This is a "does not hurt" test
#   where the paper claims a gain, and its reference passes it against itself (SimCLR's own value is 0). The
#   comparators pass it too: the ablation with shuffled targets ({glue:text}`probe-non-inferior_shuf:+.2f` here;
#   a clear pass at {repro-seeds}`probe-non-inferior:ablation:pass` ci seeds), the tuned-temperature SimCLR
#   ({glue:text}`probe-non-inferior_tuned:+.2f`) and, with no training at all, PCA-16,
#   {glue:text}`probe-non-inferior_pca:+.2f` points *above* SimCLR (a clear pass at
#   {repro-seeds}`probe-non-inferior:baseline1:pass` seeds). With a tolerance of 1 point around a bar of −1, CLVS
#   itself passes only where it gains over SimCLR: at {repro-seeds}`probe-non-inferior:method:pass` seeds; it is
#   at the edge at {repro-seeds}`probe-non-inferior:method:edge`.
# * *Similarity falls with the extent* ({repro-status}`extent-ordering`). With CLVS the Spearman correlation
#   between a positive pair's cosine and its extent is {glue:text}`extent-ordering_clvs:+.2f`, below the
#   bar, but SimCLR without any variable similarity reaches {glue:text}`extent-ordering_simclr:+.2f` and passes
#   at {repro-seeds}`extent-ordering:ablation:pass` seeds, as does the tuned-temperature SimCLR
#   ({glue:text}`extent-ordering_tuned:+.2f`; {repro-seeds}`extent-ordering:baseline2:pass`): views that were
#   distorted more stay less alike whatever the loss. PCA-16's features, not trained to be invariant at all,
#   lose far more similarity with the extent (the figure of the mechanism) but vary so much from pair to pair
#   that their rank correlation is weaker ({glue:text}`extent-ordering_pca:+.2f`).
# * *CLVS orders pairs more steeply than SimCLR* ({repro-status}`steeper-than-simclr`). This is the mechanism
#   the paper describes, and the one place where tying the targets to the extent shows. At this seed CLVS's
#   correlation is below SimCLR's at {glue:text}`n_clvs_steeper` of {glue:text}`n_runs` run seeds, by
#   {glue:text}`steeper-than-simclr_clvs:+.3f` on average, while the ablation with the same soft targets not
#   tied to the extent moves it by {glue:text}`steeper-than-simclr_shuf:+.3f` and the tuned temperature by
#   {glue:text}`steeper-than-simclr_tuned:+.3f`; PCA-16's rank correlation is weaker than SimCLR's
#   ({glue:text}`steeper-than-simclr_pca:+.3f`). The differences are about the size of the declared tolerance of
#   a rank correlation ($0.05$): over the ci sweep CLVS passes clearly at
#   {repro-seeds}`steeper-than-simclr:method:pass` seeds and is at the edge at
#   {repro-seeds}`steeper-than-simclr:method:edge`, and its ablation stays inside the band at
#   {repro-seeds}`steeper-than-simclr:ablation:edge`, so the test is at the edge at
#   {repro-seeds}`steeper-than-simclr:test:at-the-edge` seeds and counts at none. (Where tuning keeps
#   $\tau=0.2$ the tuned SimCLR is SimCLR itself, and its value is exactly 0, on the threshold.) A consistent
#   sign, an effect of a few hundredths: more than the ablation shows, less than the page can resolve.
# * *A gain where the augmentations destroy content* (post hoc, {repro-status}`probe-gain-strong-aug`). With the
#   occluding square, CLVS ends {glue:text}`probe-gain-strong-aug_clvs:+.2f` points from SimCLR trained on the
#   same views (ablation {glue:text}`probe-gain-strong-aug_shuf:+.2f`). PCA-16 is
#   {glue:text}`probe-gain-strong-aug_pca:+.2f` points above that SimCLR, and SimCLR trained with the milder
#   default views {glue:text}`probe-gain-strong-aug_mild:+.2f`. Over the ci sweep CLVS gains more than the
#   tolerance at {repro-seeds}`probe-gain-strong-aug:method:pass` seeds, its ablation at
#   {repro-seeds}`probe-gain-strong-aug:ablation:pass`, PCA-16 at {repro-seeds}`probe-gain-strong-aug:baseline1:pass`
#   and the milder SimCLR at {repro-seeds}`probe-gain-strong-aug:baseline2:pass`. Where the paper says its
#   ingredient should matter most, our reading of it does not lift the probe above SimCLR's; and the occlusion
#   barely moves SimCLR's own probe accuracy ({glue:text}`acc_strong_simclr:.2f` % with the square,
#   {glue:text}`acc_simclr:.2f` % without, at this seed), so our strong setting may not be strong enough to
#   mislead SimCLR's fixed target.
#
# In our miniature the paper's ingredient is not needed for anything the tests can resolve. At this seed the
# probe accuracy of every contrastive representation, CLVS's included, stays below that of 16 principal
# components; the extent ordering is there without the variable similarity; and the one effect specific to
# tying the targets to the extent, a slightly steeper ordering, is about as large as the test's tolerance. The
# judged table's full-scale column gives each test's status at 150 epochs (from the full-scale sweep); this ci
# page quotes none of its numbers.
#
# ## What a skeptic would try
#
# Reviewed by: (pending). An independent reviewer comes after this conversion; until then this list is the
# converting author's. Each baseline is measured by this notebook on the same split, run seeds and evaluation
# pairs (seed 0, mean over the run seeds):
#
# * **PCA-16** (the first 16 principal components, no training, the same width as $h$; a comparator of every
#   test): probe accuracy {glue:text}`acc_pca:.2f` %, against {glue:text}`acc_simclr:.2f` % for SimCLR and
#   {glue:text}`acc_clvs:.2f` % for CLVS, and {glue:text}`probe-gain-strong-aug_pca:+.2f` points above SimCLR
#   in the strong setting ({glue:text}`acc_strong_simclr:.2f` %). It passes both probe tests. Its
#   positive-pair cosine falls much further with the extent than any trained encoder's, but with so much spread
#   between pairs that its rank correlation is weaker ($\rho$ = {glue:text}`rho_pca:+.2f`).
# * **SimCLR with a tuned temperature** ($\tau\in\{0.1,0.2,0.5\}$ by validation probe accuracy on a third of the
#   training images; a comparator of the three pre-registered tests): it chose $\tau$ =
#   {glue:text}`tau_tuned:.1f` here; probe accuracy {glue:text}`acc_tuned:.2f` %, $\rho$ =
#   {glue:text}`rho_tuned:+.2f`. Where it keeps $\tau=0.2$ it is SimCLR itself, and its value in the tests that
#   compare with SimCLR is exactly 0 (on the threshold of `steeper-than-simclr`).
# * **SimCLR with the milder default augmentation** (the skeptic's fix for views that are too strong; a
#   comparator of the post-hoc test): {glue:text}`acc_simclr:.2f` %, against {glue:text}`acc_strong_simclr:.2f` %
#   for SimCLR and {glue:text}`acc_strong_clvs:.2f` % for CLVS trained with the occluding square.
# * **Raw pixels** (64 wide, four times the width of $h$, so not a comparator): {glue:text}`acc_raw:.2f` %,
#   {glue:text}`raw_minus_simclr:+.2f` points above SimCLR.
# * **The untrained encoder** (the old control, a strawman: its width was chosen in a pilot so that it would
#   probe worse): {glue:text}`acc_untrained:.2f` %, {glue:text}`untrained_minus_simclr:+.2f` points from SimCLR;
#   shown only in the figure.
#
# Not tried here: the tuned temperature in the strong setting (time budget; PCA-16 is the stronger baseline
# there), a tuned probe (every representation gets the same probe with $C=1$), and longer training at ci scale
# (the full-scale sweep trains for 150 epochs).
#
# ## What the miniature cannot show
#
# * **The paper's loss.** We did not find the paper's formula for the variable similarity, nor how it
#   measures the augmentation extent; the page tests one reading (soft targets with
#   $s=1-\alpha(e_i+e_j)/2$). A different reading (a similarity margin, a re-weighting, a learned mapping
#   from extent to similarity) might behave differently.
# * **Semantic damage at scale.** The premise is that strong crops can remove the object, so that "same image"
#   is a wrong label. Our strong setting occludes up to a quarter of an 8×8 digit, a crude stand-in for crops
#   of natural images; we did not search for a setting in which CLVS gains, and one may exist.
# * **Scale and baselines.** A 2-layer MLP on 1 203 images for at most 150 epochs against SimCLR and PCA; the
#   paper's claims are about ResNets on ImageNet-100 and ImageNet-1k against the strongest contrastive
#   methods, where a 1-2 point gain is far above seed noise and here it is not. At ci scale the contrastive
#   encoders are far from converged: they probe below PCA.
# * **The theory.** The paper's generalisation guarantee was not found and is not examined.
