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
# # Incomplete multi-view clustering with a shared latent, imputation and linear alignment
#
# *Giving every sample one latent vector, decoded into all of its views, lets a model fill in the views that are
# missing and compare all samples through an alignment that costs linear, not quadratic, time in the number of
# samples; we test whether this beats the standard imputation baselines of incomplete multi-view clustering.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import time
import tracemalloc

import matplotlib.pyplot as plt
import numpy as np
from IPython.display import Markdown, display
from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, between, tolerance
from repro.papers import incomplete_multiview_imputation_alignment as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    # about 31-48 s on one thread on the shared machine (over the ~16 s budget; comparators + HSACC configuration):
    # synthetic n = 240, 3 data seeds at eta = 0.5 (the claims) and 1 at 0.1 and 0.3, no-alignment ablation at
    # eta = 0.5 only, the same 3 seeds under HSACC's conventions, digits (500 samples) at eta = 0.5 once, timing
    # up to n = 2000
    "ci": dict(n=240, etas=(0.1, 0.3, 0.5), reps=3, reps_other=1, ablate_all=False, digits_n=500, digits_etas=(0.5,),
               digits_reps=1, digits_ablate=False, time_ns=(250, 500, 1000, 2000), time_reps=3),
    # a few minutes: n = 600, four missing rates x 5 data seeds, ablation everywhere, all 1797 digits at three
    # missing rates x 3 seeds, alignment timed up to n = 4000
    "full": dict(n=600, etas=(0.1, 0.3, 0.5, 0.7), reps=5, reps_other=5, ablate_all=True, digits_n=None,
                 digits_etas=(0.1, 0.3, 0.5), digits_reps=3, digits_ablate=True, time_ns=(250, 500, 1000, 2000, 4000),
                 time_reps=5),
})
claims = Claims("incomplete-multiview-imputation-alignment", title=None, authors=None, paper_url=None,
                scale=scale, seed=seed)
CLAIM_ETA = 0.5            # the brief's claim setting
N_CLUSTERS, LATENT = 5, 8  # synthetic data: 5 clusters, 8-d generating latent; the model's latent has 8 dimensions
LAM = 1.0                  # weight of the alignment term (our choice; the paper's value is unknown)
D_TIME, K_TIME = 100, 20   # view and latent widths of the timing study
KM_INIT = 5                # k-means restarts (k-means++), for every method
KEY = {"ours": "ours", "no alignment": "noal", "mean imputation": "mean", "zero imputation + PCA": "pca",
       "low-rank imputation": "low", "kNN imputation": "knn", "best single view": "single", "shuffled latents": "shuf"}  # glue keys

# %% [markdown]
# ## The setting
#
# In **multi-view** data every sample is described several times, by different sensors or feature extractors: a
# web page by its text and by the links pointing to it, a handwritten digit by its pixels and by its shape
# descriptors. Each description is a *view*, a matrix $X_v\in\mathbb R^{n\times d_v}$ over the same $n$ samples.
# **Multi-view clustering** groups the samples without labels, using all views together, and is scored against
# hidden classes by clustering accuracy (ACC, the share of samples labelled correctly under the best one-to-one
# map from clusters to classes), normalised mutual information (NMI) and the adjusted Rand index (ARI).
#
# **Incomplete** multi-view clustering is the realistic case where some views of some samples were never
# recorded: sample $i$ may come with views 1 and 3 but not view 2. Which views are present is given by a
# binary observation pattern (`mask[i, v]`). The missing rate $\eta$ says how much is absent; every sample
# keeps at least one view. The standard baselines fill the holes with the mean of the view (or zeros after
# standardisation), concatenate the views and run k-means, possibly after PCA; deep methods learn a
# representation per view and fuse them.
#
# ## The claim
#
# The paper (we have its abstract only: the brief found neither its title, nor its authors, nor its numbers)
# argues that methods which learn one representation *per view* and then fuse them miss two things: a sample is
# one object, so it should have one latent representation shared by all of its views, and the pairwise
# similarities involving missing observations should inform learning too. It proposes:
#
# 1. one latent vector $z_i$ per sample, decoded by a neural network $g_v$ into every view; the decoders
#    reconstruct the observed entries and, for free, *impute* the missing ones as $g_v(z_i)$;
# 2. a *linear alignment* between the similarities of all samples in each (completed) view and in the latent
#    space, computed in time linear in $n$;
# 3. alternating the two, then k-means on the latents; state-of-the-art clustering on benchmarks (no numbers
#    retrieved).
#
# These are the page's headline claims. Where they are tested: (1) the imputation by test
# `imputes-better-than-mean`; (2) the alignment only as the ablation ($\lambda=0$) of the accuracy test
# `beats-mean-imputation` (the direct difference with and without it is an illustration, its linear cost is
# algebra, also an illustration); (3) the clustering gain by `beats-mean-imputation`, against the standard
# imputation baselines, a low-rank and a nearest-neighbour completion. The state-of-the-art part of (3), against
# the deep methods of the paper's tables on real benchmarks, is untestable here and recorded as such.
#
# ## The method
#
# **Decoder-only model.** With standardised views, $Z\in\mathbb R^{n\times k}$ is a matrix of free parameters and
# $g_v(z)=W_2^v\,\mathrm{ReLU}(W_1^{v\top}z+b_1^v)+b_2^v$ (`K.ViewDecoders`). The reconstruction loss reads only
# observed rows $O_v$ (`K.masked_reconstruction_loss`):
# $$\mathcal L_{\rm rec}=\frac1V\sum_v\frac{1}{|O_v|\,d_v}\sum_{i\in O_v}\lVert x_i^v-g_v(z_i)\rVert^2 .$$
# The completed view $\tilde X_v$ keeps the observed rows and holds $g_v(z_i)$ in the missing ones.
#
# **Linear alignment.** The similarity of samples $i,j$ in view $v$ is $(\tilde X_v\tilde X_v^\top)_{ij}$ and in the
# latent space $(ZZ^\top)_{ij}$. Their agreement, the Frobenius inner product of the two $n\times n$ matrices, needs
# no $n\times n$ matrix at all:
# $$\langle \tilde X_v\tilde X_v^\top, ZZ^\top\rangle_F=\operatorname{tr}(\tilde X_v\tilde X_v^\top ZZ^\top)
#   =\lVert \tilde X_v^\top Z\rVert_F^2 ,$$
# which costs $2nd_vk$ flops and a $d_v\times k$ buffer instead of $2n^2(d_v+k+1)$ flops and two $n\times n$ matrices
# (`K.linear_alignment`). As the brief proposes, we use it normalised and centred, CKA-style,
# $\mathrm{CKA}(\tilde X_v,Z)=\lVert\bar{\tilde X}_v^\top\bar Z\rVert_F^2/(\lVert\bar{\tilde X}_v^\top\bar{\tilde X}_v\rVert_F\lVert\bar Z^\top\bar Z\rVert_F)\in[0,1]$
# (`K.cka`), so that it cannot be raised by inflating $Z$. Because $\tilde X_v$ contains the imputed rows, the
# alignment includes the similarities of missing observations, as the abstract asks.
#
# **Alternation** (`K.fit_imvc`). $Z$ starts from the PCA scores of the zero-filled views, $\tilde X_v$ from zero
# imputation. Then, `n_outer` = 4 times: (a) 25 Adam steps (learning rate 0.01) on $Z$ and the decoders, with the
# imputations fixed, minimising
# $\mathcal L_{\rm rec}-\lambda\frac1V\sum_v\mathrm{CKA}(\tilde X_v,Z)+\mu\frac{1}{nk}\lVert Z\rVert_F^2$ with $\lambda=1$,
# $\mu=0.1$; (b) refresh the imputations $\tilde X_v[i]=g_v(z_i)$, $i\notin O_v$. Finally k-means (5 restarts) on $Z$.
#
# **Baselines and controls.** *Mean imputation*: fill missing views with the view mean (zero after
# standardisation on the observed rows), concatenate, k-means. *Zero imputation + PCA*: the same fill, the top
# 8 principal components, k-means. *Best single view*: k-means on each mean-filled view alone, the best of them
# chosen with the labels (an oracle choice, favourable to the baseline). *Low-rank imputation* (added in the
# conversion to the claim model): fill with the mean, then 100 sweeps of replacing the missing entries by those of
# the rank-8 truncated SVD of the concatenated views (hard-impute), concatenate, k-means; the linear analogue of
# a shared latent with decoders. *kNN imputation* (added after the independent review): fill each missing view
# with its mean over the 10 nearest samples that observe it (scikit-learn's `KNNImputer`, k = 10 fixed before
# running), concatenate, k-means. *No alignment*: our method with
# $\lambda=0$. *Shuffled latents* (null model for imputation): the trained decoders applied to the latents of
# randomly permuted samples.
#
# ## The experiment
#
# * **Synthetic data** (brief): 5 balanced clusters in an 8-dimensional latent space (cluster means with standard
#   deviation 2, unit spread), mapped into three views of 20, 30 and 40 features by random two-layer tanh maps
#   plus Gaussian noise (standard deviation 0.3); $n=240$ (ci) or 600 (full). `K.make_multiview_gmm`.
# * **Missingness** (brief): each view of each sample is missing with probability $\eta$ independently, and a
#   sample that lost all views gets one back at random (`K.apply_missing_mask`), so the share of observed
#   entries is $1-\eta+\eta^3/3$; $\eta\in\{0.1,0.3,0.5\}$ (full: also 0.7).
# * **Seeds:** each $(\eta,\text{replicate})$ draws new data and a new mask; at ci 3 replicates at $\eta=0.5$ and
#   one at the other rates (the budget), at full 5 everywhere; the claims average the replicates at $\eta=0.5$,
#   the brief's setting (3 seeds, as the brief asks, at ci).
# * **Digits** (brief, full scale; a subsample of 500 at $\eta=0.5$ at ci): scikit-learn's 8x8 digits as three
#   views, raw pixels (64), the 4x4 low-frequency block of the 2-D DCT (16) and the row and column intensity
#   profiles (16), 10 classes, latent dimension 10. No claim; shown beside the synthetic results.
# * **Imputation error:** RMSE over the missing entries, in the units of the views standardised on their observed
#   rows (mean imputation then scores about 1).
# * **Linear scaling:** `K.linear_alignment` against the $n\times n$ version (`K.linear_alignment_bruteforce`) on
#   Gaussian $X\in\mathbb R^{n\times100}$, $Z\in\mathbb R^{n\times20}$, $n$ from 250 to 2000 (full: 4000): the flop count
#   (exact), the peak memory allocated (traced by Python's `tracemalloc`, a deterministic measurement) and the
#   wall-clock time (volatile).
#
# **Checks, fixed before the first run of this page** (thresholds from the brief where it gives them; the
# comparators were added in the conversion to the book's claim model, with method, setting, criterion and
# threshold unchanged):
#
# 1. *Beats mean imputation* (brief C1, test): mean ACC(ours) − ACC(mean imputation) $\ge0.05$ at $\eta=0.5$.
# 2. *Imputes better than the mean* (brief C2, test): RMSE(ours)/RMSE(mean imputation) $\le0.8$ at $\eta=0.5$.
# 3. *Beats PCA* (†, post hoc, see the deviations): ACC(ours) − ACC(zero imputation + PCA) $\ge0.05$ at
#    $\eta=0.5$. An illustration since the independent review: it is the same measurement as check 1 (our
#    method's accuracy) against a second reference, and that reference is already a baseline of check 1;
#    counting both would count one measurement twice.
# 4. *Alignment does not hurt* (brief C3): ACC(ours) − ACC(no alignment) $\ge-0.01$. An illustration: a
#    "does not hurt" bar that the model without alignment, a no-op, passes by definition, where the paper claims
#    a gain.
# 5. *Linear memory*: the log-log slope in $n$ of the peak memory of `linear_alignment` $\le1$. An illustration:
#    our kernel allocates a $d\times k$ buffer whatever $n$, by construction.
#
# Each test is measured beside, under the same measurement and criterion, its **ablation**, our model without
# the alignment term ($\lambda=0$), and the **naive baselines** a skeptic would try: mean imputation, zero
# imputation + PCA, the best single view (chosen with the labels), **iterative low-rank imputation**
# (`K.lowrank_impute`, hard-impute: fill the holes with the mean, then 100 times replace them by the entries of
# the rank-8 truncated SVD of the concatenated views; a shared latent per sample with *linear* decoders and no
# alignment) and **kNN imputation** (`K.knn_impute`, k = 10), each followed by k-means on the completed,
# concatenated views; for the imputation test the ablation's, the low-rank and the kNN completions' RMSE. The
# imputation test is about decoding a shared latent; $\lambda=0$ keeps that ingredient and removes only the
# alignment, so the test has no ablation of its own ingredient (mean imputation, its reference, is the model
# without a latent). The shuffled-latent decoders (a null model, worse than the mean
# by construction) are shown, not used as a comparator. The flop ratio is a count by formula (an implementation
# identity); the wall-clock slope and speed-up are timings (volatile), shown and never counted.
#
# **Deviations from the paper**
#
# * The method is rebuilt from the abstract and the brief: the paper's text, architecture, loss weights,
#   alignment normalisation and benchmarks were not available. The free latents, the two-layer decoders
#   (hidden width 32), the CKA normalisation, $\lambda=1$, the latent penalty $\mu=0.1$ (ours, to stop free latents
#   of single-view samples from drifting), PCA initialisation and the schedule (4 x 25 Adam steps, learning
#   rate 0.01) are our choices. They were settled in a short scratch pilot (a handful of settings of the latent
#   penalty, schedule and width, on data from another random stream), mostly for run time and for stability
#   (without the penalty, longer runs let the imputations and the latents inflate each other); that pilot also
#   showed clustering and imputation numbers, so the choices are not blind. After the first run of this page
#   only the run-time settings changed (k-means restarts 10 → 5, one data seed instead of three at
#   $\eta\in\{0.1,0.3\}$ at ci scale); no criterion moved.
# * Synthetic data and scikit-learn digits instead of the paper's benchmarks (unknown; the field's usual ones are
#   Caltech101-20, Scene-15, LandUse-21, NoisyMNIST, Handwritten).
# * Missingness follows the brief (each view missing independently with probability $\eta$). The field's usual
#   protocol, used by the official HSACC code, removes views from a share $\eta$ of the samples only; at
#   $\eta=0.5$ with three views it keeps 91.5% of the entries, ours 54%. Our $\eta$ is therefore much harsher.
# * Hyperparameters are shared by all missing rates and data sets; no per-view weighting (the brief's full
#   variant).
# * Conventions of the HSACC code that we do not follow (see "Against the official code"): HSACC trains its
#   networks on the complete samples only, scales every feature to [0, 1] (min-max), and runs k-means with 10
#   restarts. We fit every sample (our free latents need it: at $\eta=0.5$ with our protocol only one sample in
#   eight keeps all three views), standardise on the observed rows and use 5 restarts. Min-max scaling with 10
#   restarts is run as a second configuration (the robustness table below the claims); training on complete
#   samples only is not run. Our min-max scaling divides by the observed range but keeps the centring on the
#   observed mean instead of HSACC's shift to [0, 1]: a per-feature shift changes nothing downstream (k-means,
#   PCA, decoders with biases and the centred alignment are shift-invariant) and keeps zero imputation equal to
#   mean imputation. The latent penalty $\mu=0.1$ was set for standardised units and is **not** rescaled in that
#   configuration.
# * The low-rank imputation baseline (rank 8 = the latent width, 100 sweeps, fixed before it was run) and the
#   comparators of the tests were added when the page was converted to the book's claim model, after its first
#   runs; the kNN imputation baseline (k = 10) after the independent review.
# * Check 3 (*Beats PCA*, †) was chosen after a scratch pilot (the ci setting at $\eta=0.5$, seeds of a
#   different stream) showed that PCA + k-means beats mean imputation by more than 5 points, so that it could
#   not serve as a failing reference for check 1. It is post hoc, and now an illustration.

# %%
def run_setting(views, y, mask, r, latent, n_clusters, ablate, scaling="standard", n_init=KM_INIT):
    """All methods on one data set and mask; returns scores per method and imputation errors (in the units of
    the scaled views: standardised on the observed rows, or min-max scaled for the HSACC conventions)."""
    res = {}
    km = lambda F: K.clustering_scores(y, K.kmeans_labels(F, n_clusters, seed=r, n_init=n_init))  # noqa: E731
    fit = K.fit_imvc(views, mask, latent, lam=LAM, seed=1000 * seed + r, scaling=scaling)
    res["ours"] = km(fit["Z"])
    truth = K.scale_views(views, mask, scaling, fill_missing=False)
    rmse = {"ours": K.imputation_rmse(truth, fit["completed"], mask),
            "mean imputation": K.imputation_rmse(truth, fit["standardized"], mask)}
    if ablate:
        fit0 = K.fit_imvc(views, mask, latent, lam=0.0, seed=1000 * seed + r, scaling=scaling)
        res["no alignment"] = km(fit0["Z"])
        rmse["no alignment"] = K.imputation_rmse(truth, fit0["completed"], mask)
    res["mean imputation"] = km(K.baseline_features(views, mask, "mean-concat", scaling=scaling)[0])
    res["zero imputation + PCA"] = km(K.baseline_features(views, mask, "zero-pca", n_components=latent,
                                                          scaling=scaling)[0])
    low = K.lowrank_impute(views, mask, latent, scaling=scaling)
    res["low-rank imputation"] = km(np.concatenate(low, axis=1))
    rmse["low-rank imputation"] = K.imputation_rmse(truth, low, mask)
    knn = K.knn_impute(views, mask, n_neighbors=10, scaling=scaling)
    res["kNN imputation"] = km(np.concatenate(knn, axis=1))
    rmse["kNN imputation"] = K.imputation_rmse(truth, knn, mask)
    res["best single view"] = max((km(F) for F in K.baseline_features(views, mask, "single", scaling=scaling)),
                                  key=lambda s: s["acc"])
    rng_perm = np.random.default_rng([seed, r, 7])
    shuffled = K.decode_views(fit["decoders"], fit["Z"][rng_perm.permutation(len(y))])
    rmse["shuffled latents"] = K.imputation_rmse(truth, shuffled, mask)
    return res, rmse


# %% [markdown]
# ## Results
#
# ### One run: the method against the standard baselines
#
# The first synthetic data set at $\eta=0.5$: how much is missing, and what each method makes of it.

# %%
rng0 = np.random.default_rng([seed, 0])
views0, y0 = K.make_multiview_gmm(P.n, n_clusters=N_CLUSTERS, latent_dim=LATENT, rng=rng0)
mask0 = K.apply_missing_mask(P.n, 3, CLAIM_ETA, rng0)
counts = np.bincount(mask0.sum(1), minlength=4)[1:]
print(f"n = {P.n}, views of {[X.shape[1] for X in views0]} features, eta = {CLAIM_ETA}: "
      f"{mask0.mean():.0%} of the view entries observed; samples with 1, 2, 3 views: {counts.tolist()}")
res0, rmse0 = run_setting(views0, y0, mask0, 0, LATENT, N_CLUSTERS, ablate=True)
print(f"{'method':24s} {'ACC':>6s} {'NMI':>6s} {'ARI':>6s}")
for m, s in res0.items():
    print(f"{m:24s} {s['acc']:6.3f} {s['nmi']:6.3f} {s['ari']:6.3f}")
print("imputation RMSE of the missing entries (standardised units): "
      + ", ".join(f"{m} {v:.3f}" for m, v in rmse0.items()))

# %% [markdown]
# ### Accuracy against the missing rate

# %%
METHODS = ["ours", "no alignment", "mean imputation", "zero imputation + PCA", "low-rank imputation",
           "kNN imputation", "best single view"]
RMSE_METHODS = ["ours", "no alignment", "mean imputation", "low-rank imputation", "kNN imputation",
                "shuffled latents"]
acc = {m: np.full((len(P.etas), P.reps), np.nan) for m in METHODS}
nmi = {m: np.full((len(P.etas), P.reps), np.nan) for m in METHODS}
rmse = {m: np.full((len(P.etas), P.reps), np.nan) for m in RMSE_METHODS}
runs = [(x, r) for x in enumerate(P.etas) for r in range(P.reps if x[1] == CLAIM_ETA else P.reps_other)]
for (a, eta), r in progress(runs, desc="synthetic"):
    if eta == CLAIM_ETA and r == 0:
        res, rm = res0, rmse0  # the run shown above
    else:
        rng = np.random.default_rng([seed, r] if eta == CLAIM_ETA else [seed, r, a + 1])
        views, y = K.make_multiview_gmm(P.n, n_clusters=N_CLUSTERS, latent_dim=LATENT, rng=rng)
        mask = K.apply_missing_mask(P.n, 3, eta, rng)
        res, rm = run_setting(views, y, mask, r, LATENT, N_CLUSTERS, ablate=P.ablate_all or eta == CLAIM_ETA)
    for m, s in res.items():
        acc[m][a, r], nmi[m][a, r] = s["acc"], s["nmi"]
    for m, v in rm.items():
        rmse[m][a, r] = v

# %%
fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4))
style = {"ours": ("C0", "o", "-"), "no alignment": ("C1", "^", "--"), "mean imputation": ("C3", "s", "-"),
         "zero imputation + PCA": ("C2", "D", "-"), "low-rank imputation": ("C4", "P", "-."),
         "kNN imputation": ("C5", "X", "-."), "best single view": ("0.5", "v", ":")}
etas = np.array(P.etas)
for i, m in enumerate(METHODS):
    ok = ~np.isnan(acc[m]).all(1)
    mu, sd = np.nanmean(acc[m][ok], 1), np.nanstd(acc[m][ok], 1)  # sd = 0 where only one data seed ran
    c, mk, ls = style[m]
    x = etas[ok] + (i - 3) * 0.006
    a1.errorbar(x, mu, yerr=sd, color=c, marker=mk, ls=ls, capsize=3, label=m)
a1.set(xlabel=r"missing rate $\eta$ (probability that a view of a sample is missing)", ylabel="clustering accuracy",
       title=f"Synthetic 3-view data, n = {P.n}: mean $\\pm$ sd over data seeds", xticks=etas)
a1.legend(fontsize=8)
for m, c in (("ours", "C0"), ("mean imputation", "C3"), ("low-rank imputation", "C4"), ("kNN imputation", "C5"),
             ("shuffled latents", "0.5")):
    a2.errorbar(etas, np.nanmean(rmse[m], 1), yerr=np.nanstd(rmse[m], 1), color=c, marker="o", capsize=3, label=m)
a2.axhline(0.8, color="k", lw=0.8, ls=":")
a2.text(etas[0], 0.81, "claim 2: 0.8 x mean imputation (about 1)", fontsize=8)
a2.set(xlabel=r"missing rate $\eta$", ylabel="RMSE of imputed entries (standardised units)",
       title="Imputation error on the missing entries", xticks=etas)
a2.legend(fontsize=8)
plt.show()

# %%
print(f"{'eta':>5s} " + " ".join(f"{m[:18]:>19s}" for m in METHODS))
for a, eta in enumerate(P.etas):
    print(f"{eta:5.1f} " + " ".join(
        f"{np.nanmean(acc[m][a]):8.3f} ± {np.nanstd(acc[m][a]):5.3f}  " if not np.isnan(acc[m][a]).all() else f"{'-':>19s}"
        for m in METHODS))
print("(ACC, mean ± sd over data seeds; NMI at eta = 0.5: "
      + ", ".join(f"{m} {np.nanmean(nmi[m][list(P.etas).index(CLAIM_ETA)]):.3f}" for m in METHODS) + ")")

# %% [markdown]
# ### Digits as three views

# %%
dig = {m: [] for m in METHODS}
dig_rmse = {m: [] for m in RMSE_METHODS}
for eta, r in progress([(e, r) for e in P.digits_etas for r in range(P.digits_reps)], desc="digits"):
    rng = np.random.default_rng([seed, r, 100])
    dviews, dy = K.digits_views(P.digits_n, rng)
    dmask = K.apply_missing_mask(len(dy), 3, eta, rng)
    res, rm = run_setting(dviews, dy, dmask, r, 10, 10, ablate=P.digits_ablate)
    for m in res:
        dig[m].append((eta, res[m]["acc"]))
    for m, v in rm.items():
        dig_rmse[m].append((eta, v))
print(f"digits, {len(dy)} samples, views of 64 / 16 / 16 features, {P.digits_reps} seed(s) per missing rate")
print(f"{'eta':>5s} " + " ".join(f"{m[:18]:>19s}" for m in METHODS) + f" {'RMSE ours/mean':>15s}")
for eta in P.digits_etas:
    row = [np.mean([v for e, v in dig[m] if e == eta]) if dig[m] else np.nan for m in METHODS]
    ratio = np.mean([v for e, v in dig_rmse["ours"] if e == eta]) / np.mean([v for e, v in dig_rmse["mean imputation"] if e == eta])
    print(f"{eta:5.1f} " + " ".join(f"{v:19.3f}" for v in row) + f" {ratio:15.3f}")

# %% [markdown]
# ### The cost of the alignment: linear against quadratic in $n$
#
# Flops by formula (`K.alignment_flops`), the peak memory allocated during one call (traced), and the best of a
# few wall-clock timings, for $d=100$ view features and $k=20$ latent dimensions.

# %%
def peak_bytes(f, X, Z):
    tracemalloc.start()
    f(X, Z)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def best_time(f, X, Z, reps):
    best = np.inf
    for _ in range(reps):
        t0 = time.perf_counter()
        f(X, Z)
        best = min(best, time.perf_counter() - t0)
    return best


rng_t = np.random.default_rng([seed, 9])
cost = {m: {"mem": [], "time": [], "flops": []} for m in ("linear", "quadratic")}
for n in progress(P.time_ns, desc="timing"):
    X, Z = rng_t.normal(size=(n, D_TIME)), rng_t.normal(size=(n, K_TIME))
    assert np.isclose(K.linear_alignment(X, Z), K.linear_alignment_bruteforce(X, Z), rtol=1e-9)
    fl = K.alignment_flops(n, D_TIME, K_TIME)
    for m, f in (("linear", K.linear_alignment), ("quadratic", K.linear_alignment_bruteforce)):
        cost[m]["mem"].append(peak_bytes(f, X, Z))
        cost[m]["time"].append(best_time(f, X, Z, P.time_reps))
        cost[m]["flops"].append(fl[m])
ns = np.array(P.time_ns, dtype=float)
slopes = {m: {q: round(loglog_slope(ns, np.maximum(cost[m][q], 1e-12)), 3) for q in ("mem", "time", "flops")}
          for m in cost}  # rounded: a slope of exactly 0 would otherwise print its float noise
for m in cost:
    print(f"{m:9s} log-log slope in n: flops {slopes[m]['flops']:.2f}, peak memory {slopes[m]['mem']:.2f}, "
          f"time {slopes[m]['time']:.2f}")
flop_ratio = cost["quadratic"]["flops"][-1] / cost["linear"]["flops"][-1]
time_ratio = cost["quadratic"]["time"][-1] / cost["linear"]["time"][-1]
print(f"at n = {int(ns[-1])}: flop ratio {flop_ratio:.0f}, wall-clock ratio {time_ratio:.0f}, "
      f"peak memory {cost['linear']['mem'][-1] / 1e3:.0f} kB against {cost['quadratic']['mem'][-1] / 1e6:.0f} MB")

# %%
fig, (b1, b2) = plt.subplots(1, 2, figsize=(11, 4))
for m, c in (("linear", "C0"), ("quadratic", "C3")):
    lab = r"$\|X^\top Z\|_F^2$ (linear)" if m == "linear" else r"$\langle XX^\top, ZZ^\top\rangle_F$ ($n\times n$)"
    b1.plot(ns, np.array(cost[m]["time"]) * 1e3, "o-", color=c, label=f"{lab}: slope {slopes[m]['time']:.2f}")
    b2.plot(ns, np.array(cost[m]["mem"]) / 1e6, "o-", color=c, label=f"{lab}: slope {slopes[m]['mem']:.2f}")
b1.plot(ns, cost["linear"]["time"][0] * 1e3 * ns / ns[0], "k:", lw=1, label=r"$\propto n$")
b1.plot(ns, cost["quadratic"]["time"][0] * 1e3 * (ns / ns[0]) ** 2, "k--", lw=1, label=r"$\propto n^2$")
b1.set(xscale="log", yscale="log", xlabel="number of samples n", ylabel="wall-clock time (ms, best of runs)",
       title=f"Alignment of X (n x {D_TIME}) and Z (n x {K_TIME})")
b2.set(xscale="log", yscale="log", xlabel="number of samples n", ylabel="peak memory allocated (MB, traced)",
       title="Memory of one alignment evaluation")
for ax in (b1, b2):
    ax.set_xticks(ns, [str(int(v)) for v in ns])
    ax.xaxis.set_minor_formatter(plt.NullFormatter())
    ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### The paper's numbers
#
# None: the brief found the abstract only, which reports no numbers, so there is no row of the paper's values to
# set beside ours. The claims compare the method with the brief's thresholds and with controls measured in the
# same run.
#
# ## Against the official code
#
# The official code named for this page is HSACC,
# [XiaojianDing/2025-NeurIPS-HSACC](https://github.com/XiaojianDing/2025-NeurIPS-HSACC) (commit `fb7e7e9`),
# "Incomplete Multi-view Clustering via Hierarchical Semantic Alignment and Cooperative Completion" (NeurIPS
# 2025), the nearest official repository the brief found. Its model differs from the abstract's: HSACC learns one
# autoencoder *per view*, aligns the view latents with an MMD and
# a contrastive loss, and completes missing views in latent space by cross-view "dual inference" networks: the
# design this paper's abstract argues against. There is no shared latent and no linear alignment in it. We read it
# for the setting's conventions and ran two of its functions once, outside the project, on small seeded inputs
# (`tests/papers/golden/incomplete-multiview-imputation-alignment.json`; `munkres`, not installed here, was
# stubbed by SciPy's Hungarian solver, and `np.int` restored for NumPy 2):
#
# * **Clustering metrics agree.** Its `clustering_metric` (k-means labels mapped to classes by the Hungarian
#   algorithm, NMI, ARI, rounded to 4 decimals) and our `K.clustering_scores` give the same ACC, NMI and ARI on
#   two seeded label sets (0.815 / 0.5691 / 0.585 and 0.6701 / 0.3027 / 0.295), within the rounding.
# * **Its view weights have a linear form.** HSACC weights view $v$ by $\exp(-w_v)$ with
#   $w_v=[\mathbf 1^\top Z_vZ_v^\top\mathbf 1+\mathbf 1^\top HH^\top\mathbf 1-2\,\mathbf 1^\top Z_vH^\top\mathbf 1]/n^2$, and forms
#   three $n\times n$ matrices to get it. The bracket is $\lVert\mathbf 1^\top(Z_v-H)\rVert^2$, the linear alignment of
#   the all-ones vector with $Z_v-H$: `K.view_weights` computes it in $O(nk)$ and matches the official
#   `compute_view_value` to $10^{-12}$ on two seeded inputs (3 and 4 views). The same identity that our
#   alignment rests on.
# * **Departures.** The missing-data protocol: HSACC's `get_mask` keeps all views for $\lfloor n(1-\eta)\rfloor$
#   samples and removes views only from the rest (run once: at $\eta=0.5$, 3 views, $n=1000$, 78% of the samples
#   complete and 91.5% of entries observed), while the brief's protocol, used here, drops each entry with
#   probability $\eta$ (54% observed). HSACC's defaults (encoders 1024-1024-1024, latent 40-128, 200-500 epochs,
#   batch 256, Adam $10^{-4}$, best accuracy over training epochs reported) are those of a different model and
#   were not transferred; note that reporting the best epoch's accuracy uses the labels, which we do not do.
# * **Undisclosed conventions of the HSACC code** (a second reading of the repository found the statements above
#   correct and these three conventions, which the earlier page did not name): it trains its networks on the
#   complete samples only and infers the missing views of the others afterwards; it scales every feature to
#   [0, 1] by its minimum and maximum; and its k-means uses `n_init=10`. Ours: every sample is fitted (a free
#   latent per sample has nothing to be inferred from otherwise), standardisation on the observed rows, 5
#   restarts. Min-max scaling and 10 restarts can move a clustering accuracy, so they are run as a second
#   configuration (the robustness table under the claims, same data seeds and masks, every method); training on
#   complete samples only would leave our model one sample in eight at $\eta=0.5$ and is named, not run.

# %% [markdown]
# ## Results under a second configuration: the HSACC code's conventions
#
# The HSACC code (see "Against the official code" above) scales every feature to [0, 1] with its minimum and
# maximum and runs k-means with 10 restarts; the page standardises and uses 5. Both can move a clustering
# accuracy, so the claim setting ($\eta=0.5$, the same data seeds and masks) is run again with min-max scaling
# and 10 restarts for every method. It is shown as a robustness table below the claims, not counted. Our latent
# penalty $\mu=0.1$ is kept as it is (set for standardised units, not rescaled for min-max units); the cell also
# measures how much smaller the min-max units are.

# %%
HS = {m: [] for m in METHODS}
HS_RMSE = {m: [] for m in RMSE_METHODS}
UNIT_RATIO = []  # mean variance of the observed entries, standardised / min-max scaled (a units check, not a setting)
for r in progress(range(P.reps), desc="HSACC conventions"):
    rng = np.random.default_rng([seed, r])  # the same data seeds and masks as the claim setting
    views, y = K.make_multiview_gmm(P.n, n_clusters=N_CLUSTERS, latent_dim=LATENT, rng=rng)
    mask = K.apply_missing_mask(P.n, 3, CLAIM_ETA, rng)
    res, rm = run_setting(views, y, mask, r, LATENT, N_CLUSTERS, ablate=True, scaling="minmax", n_init=10)
    UNIT_RATIO.append(np.mean([X[mask[:, v]].var() for v, X in enumerate(K.scale_views(views, mask))])
                      / np.mean([X[mask[:, v]].var() for v, X in enumerate(K.scale_views(views, mask, "minmax"))]))
    for m, sc in res.items():
        HS[m].append(sc["acc"])
    for m, v in rm.items():
        HS_RMSE[m].append(v)

# %%
i_eta = list(P.etas).index(CLAIM_ETA)
m_acc = {"page": {m: float(np.mean(acc[m][i_eta])) for m in METHODS},
         "hsacc": {m: float(np.mean(HS[m])) for m in METHODS}}
m_rmse = {"page": {m: float(np.mean(rmse[m][i_eta])) for m in RMSE_METHODS},
          "hsacc": {m: float(np.mean(HS_RMSE[m])) for m in RMSE_METHODS}}
ACC_TOL = tolerance(abs=0.03, why=f"k-means on latents after 100 Adam steps, averaged over {P.reps} data seeds: "
                    "other float kernels move the end point and may flip a few of the samples")
RMSE_TOL = tolerance(rel=0.05, why="ratio of imputation errors after 100 Adam steps")
MEM_TOL = tolerance(abs=0.05, why="slope of traced peak allocations, which depend on NumPy's temporaries")
PAPER = "state-of-the-art clustering on benchmark data sets (abstract); no numbers retrieved"
ALIGN = "the linear alignment term (the method with lambda = 0)"
ALIGN_IMP = ("the linear alignment term only (the method with lambda = 0); the test's ingredient, decoding a shared "
             "latent, has no ablation here: mean imputation, the test's reference, is the no-latent model")
LABEL = {"no alignment": "our model without the alignment term (lambda = 0), same latents, decoders and schedule",
         "zero imputation + PCA": "zero imputation + PCA (8 components) + k-means",
         "mean imputation": "mean imputation + concatenation + k-means",
         "low-rank imputation": "iterative rank-8 SVD imputation (hard-impute, 100 sweeps) of the concatenated views "
                                "+ k-means: a shared latent with linear decoders, no network, no alignment",
         "kNN imputation": "k-nearest-neighbour imputation (scikit-learn KNNImputer, k = 10, fixed before running) "
                           "of the concatenated views + k-means",
         "best single view": "best single view, mean-imputed, chosen with the labels (oracle choice)"}


def acc_gap(cfg, who, ref):
    return m_acc[cfg][who] - m_acc[cfg][ref]


def rmse_ratio(cfg, who):
    return m_rmse[cfg][who] / m_rmse[cfg]["mean imputation"]


ACC_TESTS = {"beats-mean-imputation": "mean imputation", "beats-pca-baseline": "zero imputation + PCA"}
ACC_BASE = {t: [b for b in ("mean imputation", "zero imputation + PCA", "low-rank imputation", "kNN imputation",
                          "best single view")
                if b != ref] for t, ref in ACC_TESTS.items()}
claims.test("beats-mean-imputation",
            statement=f"Mean ACC of our shared-latent method minus mean ACC of mean imputation + k-means "
                      f"(synthetic, eta = {CLAIM_ETA}, {P.reps} data seeds)",
            paper=PAPER, criterion=at_least(0.05), measured=acc_gap("page", "ours", "mean imputation"),
            ablation=Comparator(LABEL["no alignment"], acc_gap("page", "no alignment", "mean imputation"),
                                ingredient=ALIGN),
            baselines=[Comparator(LABEL[b], acc_gap("page", b, "mean imputation"))
                       for b in ACC_BASE["beats-mean-imputation"]], tol=ACC_TOL)
claims.test("imputes-better-than-mean",
            statement=f"RMSE of the decoder's imputations of missing entries / RMSE of mean imputation (eta = {CLAIM_ETA})",
            paper="missing observations are imputed by decoding the shared latent (abstract); no numbers",
            criterion=at_most(0.8), measured=rmse_ratio("page", "ours"),
            ablation=Comparator(LABEL["no alignment"], rmse_ratio("page", "no alignment"), ingredient=ALIGN_IMP),
            baselines=[Comparator(LABEL[b], rmse_ratio("page", b)) for b in ("low-rank imputation", "kNN imputation")],
            tol=RMSE_TOL)
claims.illustrate("beats-pca-baseline",
                  statement=f"Mean ACC of our method minus mean ACC of zero imputation + PCA + k-means (eta = {CLAIM_ETA})",
                  paper=PAPER, criterion=at_least(0.05), measured=acc_gap("page", "ours", "zero imputation + PCA"),
                  tol=ACC_TOL,
                  why="the same measurement as beats-mean-imputation (our method's accuracy), only against another "
                      "reference, which is already a baseline of that test; counting it would count one "
                      "measurement twice. Chosen after a scratch pilot (post hoc)")
claims.illustrate("alignment-does-not-hurt",
                  statement=f"Mean ACC with the alignment term minus mean ACC without it (lambda = 0), eta = {CLAIM_ETA}",
                  paper="the linear alignment of all observations improves the latents (abstract); no numbers",
                  criterion=at_least(-0.01), measured=acc_gap("page", "ours", "no alignment"), tol=ACC_TOL,
                  why="a 'does not hurt' criterion where the paper claims a gain: a no-op (lambda = 0 itself, a "
                      "difference of 0) passes it. The no-alignment model is instead the ablation of the counted "
                      "tests")
claims.illustrate("alignment-memory-linear",
                  statement=f"Log-log slope in n (n = {P.time_ns[0]}..{P.time_ns[-1]}) of the peak memory allocated "
                            "by linear_alignment(X, Z)",
                  paper="a linear alignment measurement of linear complexity (abstract)", criterion=at_most(1.0),
                  measured=slopes["linear"]["mem"], tol=MEM_TOL,
                  why="fixed by our kernel's construction: it allocates the d x k product X^T Z whatever n, and the "
                      "n x n form allocates two n x n matrices; the identity <XX^T, ZZ^T> = ||X^T Z||^2 is algebra")
claims.check("alignment-flop-ratio", kind="implementation",
             statement=f"Flops of the n x n form / flops of the linear form at n = {P.time_ns[-1]}, d = {D_TIME}, "
                       f"k = {K_TIME} (closed-form count, n(d+k+1)/(dk+d k/n))",
             paper="linear complexity (abstract)", criterion=at_least(10.0), measured=float(flop_ratio))
claims.check("alignment-time-slope", volatile=True,
             statement="Log-log slope in n of the wall-clock time of linear_alignment",
             paper="linear complexity (abstract)", criterion=between(0.5, 1.3), measured=slopes["linear"]["time"])
claims.check("alignment-speedup", volatile=True,
             statement=f"Wall-clock time of the n x n form / linear form at n = {P.time_ns[-1]}",
             paper="linear complexity (abstract)", criterion=at_least(10.0), measured=float(time_ratio))

claims.headline("shared-latent-imputation",
                "One latent vector per sample, decoded by neural networks into every view, reconstructs the observed "
                "views and imputes the missing ones",
                tests=["imputes-better-than-mean"])
claims.headline("linear-alignment",
                "A linear-complexity alignment of the pairwise similarities of all observations, the imputed ones "
                "included, makes the latents more discriminative",
                tests=["beats-mean-imputation"])
claims.headline("beats-baselines",
                "Alternating imputation and alignment, then k-means on the latents, clusters incomplete multi-view "
                "data better than the standard imputation baselines",
                tests=["beats-mean-imputation"])
claims.headline("state-of-the-art",
                "The method is state of the art against existing incomplete multi-view clustering methods on benchmarks",
                untestable="needs the paper's model and the deep incomplete multi-view methods (COMPLETER, DSIMVC, "
                           "HSACC, ...) on real benchmarks, none of which we run; the paper's numbers are unknown")

for cfg in m_acc:
    for m, x in m_acc[cfg].items():
        glue(f"acc_{cfg}_{KEY[m]}", x, display=False)
        for t, ref in ACC_TESTS.items():
            glue(f"d_{t.split('-')[1]}_{cfg}_{KEY[m]}", x - m_acc[cfg][ref], display=False)
    for m in m_rmse[cfg]:
        glue(f"rmse_{cfg}_{KEY[m]}", rmse_ratio(cfg, m), display=False)
glue("d_align", acc_gap("page", "ours", "no alignment"), display=False)
glue("n_align_pos", int(np.sum(acc["ours"][i_eta] > acc["no alignment"][i_eta])), display=False)
glue("n_data_seeds", int(P.reps), display=False)
glue("unit_ratio", float(np.mean(UNIT_RATIO)), display=False)
glue("sd_page_ours", float(np.std(acc["ours"][i_eta])), display=False)
glue("sd_page_noal", float(np.std(acc["no alignment"][i_eta])), display=False)
for a, eta in enumerate(P.etas):
    glue(f"rmse_eta{int(round(10 * eta))}", float(np.nanmean(rmse["ours"][a]) / np.nanmean(rmse["mean imputation"][a])),
         display=False)
    glue(f"acc_eta{int(round(10 * eta))}_ours", float(np.nanmean(acc["ours"][a])), display=False)
    glue(f"acc_eta{int(round(10 * eta))}_mean", float(np.nanmean(acc["mean imputation"][a])), display=False)
glue("dig_ours", float(np.mean([v for e, v in dig["ours"] if e == CLAIM_ETA])), display=False)
glue("dig_mean", float(np.mean([v for e, v in dig["mean imputation"] if e == CLAIM_ETA])), display=False)
glue("dig_low", float(np.mean([v for e, v in dig["low-rank imputation"] if e == CLAIM_ETA])), display=False)
glue("dig_knn", float(np.mean([v for e, v in dig["kNN imputation"] if e == CLAIM_ETA])), display=False)
glue("dig_rmse", float(np.mean([v for e, v in dig_rmse["ours"] if e == CLAIM_ETA])
                        / np.mean([v for e, v in dig_rmse["mean imputation"] if e == CLAIM_ETA])), display=False)
glue("mem_lin_kb", cost["linear"]["mem"][-1] / 1e3, display=False)
glue("mem_quad_mb", cost["quadratic"]["mem"][-1] / 1e6, display=False)
glue("slope_mem_lin", slopes["linear"]["mem"], display=False)
glue("slope_mem_quad", slopes["quadratic"]["mem"], display=False)
glue("slope_time_lin", slopes["linear"]["time"], display=False)
glue("flop_ratio", float(flop_ratio), display=False)
glue("n_time", int(ns[-1]), display=False)

# %%
claims.timings()

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# **Robustness: the HSACC code's conventions (not counted).** Each test's measured value for the method and its
# comparators, seed 0, mean over the same data seeds at $\eta=0.5$, with the page's conventions (standardised
# features, 5 k-means restarts) and with HSACC's (min-max scaled features, 10 restarts). "passes": beyond the
# test's tolerance band on the right side of its threshold (`beats-pca-baseline`, an illustration, is shown with
# the same band). Under HSACC's conventions the latent penalty $\mu$ is not rescaled, so the no-alignment rows
# there are an artefact of our units (see the verdict).

# %%
CRIT = {"beats-mean-imputation": (0.05, ACC_TOL.abs, 1), "beats-pca-baseline": (0.05, ACC_TOL.abs, 1),
        "imputes-better-than-mean": (0.8, 0.05 * 0.8, -1)}


def verdict_cell(t, x):
    thr, band, sign = CRIT[t]
    ok = sign * (x - thr) > band
    edge = abs(x - thr) <= band
    num = f"{x:.3f}" if t == "imputes-better-than-mean" else f"{x:+.3f}"
    return f"{num} ({'passes' if ok else 'edge' if edge else 'fails'})"


rows = ["| test | method / comparator | page conventions | HSACC conventions |", "|---|---|---|---|"]
for t, ref in ACC_TESTS.items():
    for m in ["ours", "no alignment"] + ACC_BASE[t]:
        rows.append(f"| {t} | {m} | " + " | ".join(verdict_cell(t, acc_gap(c, m, ref)) for c in ("page", "hsacc"))
                    + " |")
for m in ("ours", "no alignment", "low-rank imputation", "kNN imputation"):
    rows.append(f"| imputes-better-than-mean | {m} | "
                + " | ".join(verdict_cell("imputes-better-than-mean", rmse_ratio(c, m)) for c in ("page", "hsacc"))
                + " |")
display(Markdown("\n".join(rows)))

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# The page tests our reconstruction of the method (one free latent per sample, per-view decoders, a CKA-normalised
# linear alignment, alternation), not the paper's model, which we could not read. Values are seed 0 at ci scale
# ($\eta=0.5$, mean over the data seeds); counts of seeds are over the ci sweep.
#
# * *Beats mean imputation* ({repro-status}`beats-mean-imputation`, the brief's 5 points). Our accuracy is
#   {glue:text}`d_mean_page_ours:+.3f` above mean imputation's ({glue:text}`acc_page_ours:.3f` against
#   {glue:text}`acc_page_mean:.3f`), and the method clears the bar at
#   {repro-seeds}`beats-mean-imputation:method:pass` seeds. So do comparators: the model without the alignment
#   term ({glue:text}`d_mean_page_noal:+.3f`, passing at {repro-seeds}`beats-mean-imputation:ablation:pass`
#   seeds), iterative low-rank imputation + k-means ({glue:text}`d_mean_page_low:+.3f`, at
#   {repro-seeds}`beats-mean-imputation:baseline2:pass`), a linear shared latent with no network and no alignment,
#   and kNN imputation + k-means ({glue:text}`d_mean_page_knn:+.3f`, at
#   {repro-seeds}`beats-mean-imputation:baseline3:pass`), which has no latent at all. Zero imputation + PCA
#   ({glue:text}`d_mean_page_pca:+.3f`) and the best single view ({glue:text}`d_mean_page_single:+.3f`) fail. What
#   beats mean imputation here is any reasonable completion of the missing views before k-means; neither the
#   neural decoders nor the alignment are needed for it in our setting.
# * *Beats PCA* (illustration `beats-pca-baseline`, post hoc): the same accuracy of our method against zero
#   imputation + PCA, already a baseline of the test above: ours {glue:text}`d_pca_page_ours:+.3f`, without
#   alignment {glue:text}`d_pca_page_noal:+.3f`, low-rank imputation {glue:text}`d_pca_page_low:+.3f`, kNN
#   imputation {glue:text}`d_pca_page_knn:+.3f`. One measurement against two references, counted once.
# * *Imputes better than the mean* ({repro-status}`imputes-better-than-mean`). The decoders' imputations have
#   {glue:text}`rmse_page_ours:.3f` times the RMSE of mean imputation, short of the brief's bar (over the ci
#   sweep: {repro-seeds}`imputes-better-than-mean:method:pass` seeds pass). The bar is reachable: kNN imputation
#   scores {glue:text}`rmse_page_knn:.3f` (passing at {repro-seeds}`imputes-better-than-mean:baseline2:pass`
#   seeds) and the rank-8 SVD completion {glue:text}`rmse_page_low:.3f`; without the alignment our model scores
#   {glue:text}`rmse_page_noal:.3f`. So the failure is a weakness of our reconstruction of the method, not an
#   unreachable bar: the decoded shared latent imputes better than the mean (ratio below 1) but worse than a
#   nearest-neighbour fill. At $\eta=0.1$ our ratio is {glue:text}`rmse_eta1:.3f`. A possible reason, not
#   measured here (an RMSE split by the number of observed views would test it): at $\eta=0.5$ half of the
#   samples have one view, and their free latent, fitted to that view alone, may leave the other decoders
#   extrapolating. (The decoders fed the latents of other samples score {glue:text}`rmse_page_shuf:.3f`, a
#   null model worse than the mean by construction, shown for scale only.)
# * *The alignment* (illustration `alignment-does-not-hurt`): accuracy with it minus without it is
#   {glue:text}`d_align:+.3f` at seed 0 (mean over the data seeds; taken one data seed at a time it is positive at
#   {glue:text}`n_align_pos` of {glue:text}`n_data_seeds`), and the model without it varies more across data seeds
#   (standard deviation {glue:text}`sd_page_noal:.3f` against {glue:text}`sd_page_ours:.3f`). Over the ci sweep the
#   mean difference is beyond the bar's tolerance band (above the bar plus its tolerance) at
#   {repro-seeds}`alignment-does-not-hurt:method:pass` seeds. The brief's bar asks only that it does not hurt,
#   which the model without it passes by definition, so it is shown, not counted. The alignment gives a small
#   average gain over $\lambda=0$, variable from one data set to the next, and not enough to beat a linear
#   (low-rank) or nearest-neighbour completion.
# * *HSACC's conventions* (robustness table, seed 0, not counted): with min-max features and 10 k-means restarts
#   our method is {glue:text}`d_mean_hsacc_ours:+.3f` above mean imputation, a smaller margin than under the
#   page's conventions (the ci sweep does not record this configuration, so how close to the tolerance band it
#   comes at other seeds is not shown here). The model without alignment falls to
#   {glue:text}`d_mean_hsacc_noal:+.3f`. **That collapse is an artefact of our unscaled latent penalty**, not a
#   property of the alignment: $\mu=0.1$ was set for standardised units, the min-max scaled features here have
#   {glue:text}`unit_ratio:.0f` times smaller variance, so the same penalty weighs that much more against the
#   reconstruction loss, while the alignment term (CKA) is scale-free. The independent review traced the collapse
#   to this (a diagnostic with the penalty converted to min-max units, not run on the page). We did not rescale
#   $\mu$ in this configuration, so the ablation's result there says nothing about the alignment. Low-rank imputation is at
#   {glue:text}`d_mean_hsacc_low:+.3f` and kNN imputation at {glue:text}`d_mean_hsacc_knn:+.3f`, both above the
#   bar; the imputation ratios are {glue:text}`rmse_hsacc_ours:.3f` (ours), {glue:text}`rmse_hsacc_low:.3f`
#   (low-rank) and {glue:text}`rmse_hsacc_knn:.3f` (kNN). The "not specific" outcome of the accuracy test does
#   not depend on the conventions at seed 0.
# * *Linear cost* (illustration and implementation check). The linear form allocates
#   {glue:text}`mem_lin_kb:.0f` kB at every $n$ (slope {glue:text}`slope_mem_lin:.2f`), the $n\times n$ form
#   {glue:text}`mem_quad_mb:.0f` MB at $n=${glue:text}`n_time` (slope {glue:text}`slope_mem_quad:.2f`), and the flop
#   ratio there is {glue:text}`flop_ratio:.0f`: the algebra of $\langle XX^\top,ZZ^\top\rangle_F=\lVert X^\top Z\rVert_F^2$,
#   true by construction. "Linear" is a statement about flops and memory, not a timing result: the wall-clock
#   slope of the linear form at these small $n$ is {glue:text}`slope_time_lin:.2f` (BLAS and cache effects; it
#   can fall outside the band recorded for it in the timings cell), a volatile timing, shown in the timings cell and never counted.
#
# **What this says about the paper.** In our miniature, what beats the standard imputation baselines is
# completing the missing views before clustering, and naive completions (a rank-8 SVD, the 10 nearest
# neighbours) do at least as well as our shared-latent model. The alignment gives a small average accuracy gain
# over the same model without it, but not enough to beat those completions; the neural decoders impute worse
# than a nearest-neighbour fill. The paper's comparison is with deep incomplete multi-view methods on real
# benchmarks, which we did not run, so this bears on the abstract's mechanism, not on its state-of-the-art numbers.
#
# ## What a skeptic would try
#
# Against each counted test, at seed 0 (values are the tests' measured differences or ratios, judged against the
# tests' own thresholds):
#
# * *Complete the views with a rank-8 SVD and cluster them* (`K.lowrank_impute`, hard-impute, no network, no
#   alignment): {glue:text}`d_mean_page_low:+.3f` over mean imputation, above the bar and above our method; RMSE
#   ratio {glue:text}`rmse_page_low:.3f`. A comparator of both tests; it makes the accuracy test not specific.
# * *Fill each hole from the 10 nearest samples* (`K.knn_impute`, scikit-learn's `KNNImputer`, k = 10, added after
#   the independent review): {glue:text}`d_mean_page_knn:+.3f` over mean imputation and RMSE ratio
#   {glue:text}`rmse_page_knn:.3f`: it meets the brief's imputation bar that our method misses.
# * *Drop the alignment* ($\lambda=0$): {glue:text}`d_mean_page_noal:+.3f` over mean imputation, above the bar at
#   seed 0 with the page's conventions; RMSE ratio {glue:text}`rmse_page_noal:.3f`.
# * *PCA, or the best single view chosen with the labels*: {glue:text}`d_mean_page_pca:+.3f` and
#   {glue:text}`d_mean_page_single:+.3f` over mean imputation: both fail (the single view is a weak reference:
#   at $\eta=0.5$ half of any view's rows are missing).
# * *Use the official code's conventions* (min-max scaling, 10 k-means restarts): the robustness table; the
#   low-rank and kNN baselines still pass the accuracy bar ({glue:text}`d_mean_hsacc_low:+.3f` and
#   {glue:text}`d_mean_hsacc_knn:+.3f` over mean imputation); the ablation's collapse there is a units artefact
#   of our unscaled latent penalty (see the verdict).
# * On digits (500 images, $\eta=0.5$, no test): ours {glue:text}`dig_ours:.3f`, low-rank imputation
#   {glue:text}`dig_low:.3f`, kNN imputation {glue:text}`dig_knn:.3f`, mean imputation {glue:text}`dig_mean:.3f`;
#   RMSE ratio of ours {glue:text}`dig_rmse:.3f`.
#
# Reviewed by an independent skeptic (a helper that did not write the page, with the rubric, the page, its record
# and the ci sweep over seeds 0-9); what they tried is above. They re-ran the page's kernels on seeds 0-9 beside
# naive alternatives: kNN imputation (now a comparator of both tests), the low-rank completion at rank 5, PCA
# scores of the low-rank completion, a chained ridge-regression imputation of each view from the others, and,
# under HSACC's conventions, the ablation with the latent penalty converted to min-max units. Only what this
# notebook measures is quoted here; the rank-5, PCA-of-completion and chained-ridge variants are not run on the
# page (they led to the same conclusions as the low-rank and kNN comparators), and the converted penalty is not
# run either: the page states instead that the ablation's collapse under min-max units is an artefact of the
# unscaled penalty. The review also led to demoting *Beats PCA* to an illustration (one measurement counted
# twice) and to marking the state-of-the-art headline untestable.
#
# ## What the miniature cannot show
#
# * The paper's own model, losses, weights and benchmarks: everything here is rebuilt from its abstract, and the
#   paper's numbers are unknown, so nothing on this page says how close we are to them.
# * Deep encoders, mini-batches and real benchmarks (thousands of samples, up to hundreds of classes), where a
#   free latent per sample has to be re-fitted for every new sample, where a nonlinear decoder may beat a linear
#   completion, and where the speed of the linear alignment starts to matter inside training.
# * Comparisons with the deep incomplete multi-view methods of the literature (COMPLETER, DSIMVC, HSACC, ...),
#   which we did not run.
# * The field's missing-data protocol (views removed from a share of the samples only) and HSACC's training on
#   complete samples only, under which all methods score higher and the gaps may differ.
