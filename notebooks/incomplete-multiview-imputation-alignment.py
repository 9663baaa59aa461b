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

from repro.claims import Claims, at_least, at_most, between, tolerance
from repro.papers import incomplete_multiview_imputation_alignment as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    # about 8 s of CPU on one thread: synthetic n = 240, 3 data seeds at eta = 0.5 (the claims) and 1 at 0.1 and
    # 0.3, no-alignment ablation at eta = 0.5 only, digits (500 samples) at eta = 0.5 once, timing up to n = 2000
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
# chosen with the labels (an oracle choice, favourable to the baseline). *No alignment*: our method with
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
# **Claims, fixed before the first run of this page** (thresholds from the brief where it gives them):
#
# 1. *Beats mean imputation* (brief C1): mean ACC(ours) − ACC(mean imputation) $\ge0.05$ at $\eta=0.5$.
#    Control: ACC(best single view) − ACC(mean imputation).
# 2. *Imputes better than the mean* (brief C2): RMSE(ours)/RMSE(mean imputation) $\le0.8$ at $\eta=0.5$.
#    Control: the same decoders on shuffled latents.
# 3. *Alignment does not hurt* (brief C3): ACC(ours) − ACC(no alignment) $\ge-0.01$ at $\eta=0.5$. Control:
#    ACC(mean imputation) − ACC(no alignment), the same criterion for a method without a learned latent.
# 4. *Linear memory*: the log-log slope in $n$ of the peak memory of `linear_alignment` is $\le1$. Control: the
#    $n\times n$ version.
# 5. *Beats PCA* (†, added after a pilot on scratch data, see the deviations): ACC(ours) − ACC(zero imputation
#    + PCA) $\ge0.05$ at $\eta=0.5$. Control: ACC(mean imputation) − ACC(zero imputation + PCA).
#
# The flop ratio is a count by formula (recorded as an implementation identity), and the wall-clock slope and
# speed-up are volatile.
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
# * Claim 5 and the control of claim 1 were chosen after a scratch pilot (the ci setting at $\eta=0.5$, seeds
#   of a different stream) showed that PCA + k-means beats mean imputation by more than 5 points, so it would
#   have passed claim 1 as a control. Claim 5 is flagged post hoc (†).

# %%
def standardized_truth(views, mask):
    """The complete views in the units of the observed-row standardisation (ground truth for imputation)."""
    out = []
    for v, X in enumerate(views):
        mu, sd = X[mask[:, v]].mean(0), X[mask[:, v]].std(0)
        out.append((X - mu) / np.where(sd < 1e-12, 1.0, sd))
    return out


def run_setting(views, y, mask, r, latent, n_clusters, ablate):
    """All methods on one data set and mask; returns scores per method and imputation errors."""
    res = {}
    fit = K.fit_imvc(views, mask, latent, lam=LAM, seed=1000 * seed + r)
    res["ours"] = K.clustering_scores(y, K.kmeans_labels(fit["Z"], n_clusters, seed=r, n_init=KM_INIT))
    if ablate:
        fit0 = K.fit_imvc(views, mask, latent, lam=0.0, seed=1000 * seed + r)
        res["no alignment"] = K.clustering_scores(y, K.kmeans_labels(fit0["Z"], n_clusters, seed=r, n_init=KM_INIT))
    res["mean imputation"] = K.clustering_scores(
        y, K.kmeans_labels(K.baseline_features(views, mask, "mean-concat")[0], n_clusters, seed=r, n_init=KM_INIT))
    res["zero imputation + PCA"] = K.clustering_scores(
        y, K.kmeans_labels(K.baseline_features(views, mask, "zero-pca", n_components=latent)[0], n_clusters, seed=r, n_init=KM_INIT))
    singles = [K.clustering_scores(y, K.kmeans_labels(F, n_clusters, seed=r, n_init=KM_INIT))
               for F in K.baseline_features(views, mask, "single")]
    res["best single view"] = max(singles, key=lambda s: s["acc"])
    truth = standardized_truth(views, mask)
    rng_perm = np.random.default_rng([seed, r, 7])
    shuffled = K.decode_views(fit["decoders"], fit["Z"][rng_perm.permutation(len(y))])
    rmse = {"ours": K.imputation_rmse(truth, fit["completed"], mask),
            "mean imputation": K.imputation_rmse(truth, fit["standardized"], mask),
            "shuffled latents": K.imputation_rmse(truth, shuffled, mask)}
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
METHODS = ["ours", "no alignment", "mean imputation", "zero imputation + PCA", "best single view"]
acc = {m: np.full((len(P.etas), P.reps), np.nan) for m in METHODS}
nmi = {m: np.full((len(P.etas), P.reps), np.nan) for m in METHODS}
rmse = {m: np.full((len(P.etas), P.reps), np.nan) for m in ("ours", "mean imputation", "shuffled latents")}
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
         "zero imputation + PCA": ("C2", "D", "-"), "best single view": ("0.5", "v", ":")}
etas = np.array(P.etas)
for i, m in enumerate(METHODS):
    ok = ~np.isnan(acc[m]).all(1)
    mu, sd = np.nanmean(acc[m][ok], 1), np.nanstd(acc[m][ok], 1)  # sd = 0 where only one data seed ran
    c, mk, ls = style[m]
    x = etas[ok] + (i - 2) * 0.006
    a1.errorbar(x, mu, yerr=sd, color=c, marker=mk, ls=ls, capsize=3, label=m)
a1.set(xlabel=r"missing rate $\eta$ (probability that a view of a sample is missing)", ylabel="clustering accuracy",
       title=f"Synthetic 3-view data, n = {P.n}: mean $\\pm$ sd over data seeds", xticks=etas)
a1.legend(fontsize=8)
for m, c in (("ours", "C0"), ("mean imputation", "C3"), ("shuffled latents", "0.5")):
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
dig_rmse = {m: [] for m in ("ours", "mean imputation", "shuffled latents")}
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
# The paper's code: [XiaojianDing/2025-NeurIPS-HSACC](https://github.com/XiaojianDing/2025-NeurIPS-HSACC)
# (commit `fb7e7e9`). **It is not this paper's code.** The brief names it as the nearest official repository it
# found (HSACC, "Incomplete Multi-view Clustering via Hierarchical Semantic Alignment and Cooperative
# Completion", NeurIPS 2025), but HSACC learns one autoencoder *per view*, aligns the view latents with an MMD and
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

# %%
i_eta = list(P.etas).index(CLAIM_ETA)
m_acc = {m: float(np.mean(acc[m][i_eta])) for m in METHODS}
m_rmse = {m: float(np.mean(rmse[m][i_eta])) for m in rmse}
ACC_TOL = tolerance(abs=0.03, why=f"k-means on latents after 100 Adam steps, averaged over {P.reps} data seeds: "
                    "other float kernels move the end point and may flip a few of the samples")
RMSE_TOL = tolerance(rel=0.05, why="ratio of imputation errors after 100 Adam steps")
MEM_TOL = tolerance(abs=0.05, why="slope of traced peak allocations, which depend on NumPy's temporaries")
PAPER = "state-of-the-art clustering on benchmark data sets (abstract); no numbers retrieved"
claims.check("beats-mean-imputation",
             statement=f"Mean ACC of our shared-latent method minus mean ACC of mean imputation + k-means "
                       f"(synthetic, eta = {CLAIM_ETA}, {P.reps} data seeds)",
             paper=PAPER, criterion=at_least(0.05), measured=m_acc["ours"] - m_acc["mean imputation"],
             control=m_acc["best single view"] - m_acc["mean imputation"],
             control_label="best single view (chosen with the labels) minus mean imputation", tol=ACC_TOL)
claims.check("imputes-better-than-mean",
             statement=f"RMSE of the decoder's imputations of missing entries / RMSE of mean imputation (eta = {CLAIM_ETA})",
             paper="missing observations are imputed by decoding the shared latent (abstract); no numbers",
             criterion=at_most(0.8), measured=m_rmse["ours"] / m_rmse["mean imputation"],
             control=m_rmse["shuffled latents"] / m_rmse["mean imputation"],
             control_label="the same decoders on the latents of randomly permuted samples", tol=RMSE_TOL)
claims.check("alignment-does-not-hurt",
             statement=f"Mean ACC with the alignment term minus mean ACC without it (lambda = 0), eta = {CLAIM_ETA}",
             paper="the linear alignment of all observations improves the latents (abstract); no numbers",
             criterion=at_least(-0.01), measured=m_acc["ours"] - m_acc["no alignment"],
             control=m_acc["mean imputation"] - m_acc["no alignment"],
             control_label="mean imputation + k-means minus the no-alignment model", tol=ACC_TOL)
claims.check("alignment-memory-linear",
             statement=f"Log-log slope in n (n = {P.time_ns[0]}..{P.time_ns[-1]}) of the peak memory allocated by "
                       "linear_alignment(X, Z)",
             paper="a linear alignment measurement of linear complexity (abstract)", criterion=at_most(1.0),
             measured=slopes["linear"]["mem"], control=slopes["quadratic"]["mem"],
             control_label="the same measure through the n x n similarity matrices", tol=MEM_TOL)
claims.check("beats-pca-baseline",
             statement=f"Mean ACC of our method minus mean ACC of zero imputation + PCA + k-means (eta = {CLAIM_ETA})",
             paper=PAPER, criterion=at_least(0.05), measured=m_acc["ours"] - m_acc["zero imputation + PCA"],
             control=m_acc["mean imputation"] - m_acc["zero imputation + PCA"],
             control_label="mean imputation minus zero imputation + PCA", tol=ACC_TOL,
             post_hoc="added after a scratch pilot showed PCA + k-means to be a stronger baseline than mean "
                      "imputation (and therefore not a failing control for claim 1)")
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

# %%
claims.timings()

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Mostly reproduced, qualitatively, for our reconstruction of the method.** Of the four pre-registered claims
# that count, three are reproduced and one is not; the claim added after the pilot (†) is reproduced too. Every
# control fails its criterion, so every claim is informative. Numbers are seed 0 at ci scale ($n=240$, 3 data
# seeds at $\eta=0.5$) unless said otherwise; the full-scale statuses and the pass rates over seeds 0–9 are in the
# table "Across seeds and scales" above. Over seeds 0–9 at ci scale every claim keeps its seed-0 status at every
# seed, and every control fails at every seed: the four reproduced claims hold at 10 of 10 seeds, the
# imputation claim fails at 10 of 10 (ratios 0.87 to 0.95).
#
# * *The shared latent beats the standard baselines* (claims 1 and 5). At $\eta=0.5$ our method clusters with mean
#   accuracy 0.926 against 0.725 for mean imputation and 0.731 for zero imputation + PCA: 0.20 (20 points) of
#   accuracy over each, four times the brief's margin of 0.05 (over seeds 0–9: +0.14 to +0.25 over mean
#   imputation, +0.11 to +0.23 over PCA). The best single view, even chosen with the
#   labels, stays 0.125 *below* mean imputation (control). The gap opens with the missing rate: all methods tie
#   at $\eta=0.1$ (0.996), and in the full-scale run of seed 0 ($n=600$, 5 data seeds per rate) our accuracy falls from 0.985 to 0.871 between
#   $\eta=0.1$ and $0.7$ while mean imputation falls to 0.52. On digits (no claim) the ordering is the same:
#   0.62 against 0.41 at $\eta=0.5$ on 500 digits, and 0.72 against 0.43 (mean imputation) and 0.49 (PCA) on
#   all 1797 digits at $\eta=0.5$, full scale, seed 0 (the no-alignment ablation on digits runs at full scale only).
#   NMI and ARI tell the same story (first table).
# * *The imputations are better than the mean, but not by the brief's margin on synthetic data* (claim 2, **not
#   reproduced**). The decoders' imputations of the missing entries have RMSE 0.92 times that of mean imputation
#   at $\eta=0.5$ (0.85 at full scale, seed 0), against the required 0.8; they are well under it at low missing rates
#   (0.65 at $\eta=0.1$, second panel of the first figure) and on digits (0.72 at $\eta=0.5$). The control, the same
#   decoders fed the latents of other samples, is worse than the mean (1.27), so the per-sample latent does carry
#   the missing views' information. Why not more: at $\eta=0.5$ half of the samples have a single view, their free
#   latent is fitted to that one view only, and our short schedule (100 Adam steps, a small Gaussian prior on
#   $Z$) leaves the decoders of the other views extrapolating. Clustering needs the latent to land in the right
#   cluster, not the decoders to predict every feature, so the accuracy gain does not need a good imputation.
# * *The alignment does not hurt* (claim 3): accuracy with the alignment minus without it is +0.065 at ci
#   (+0.008 to +0.10 over seeds 0–9; +0.02 at full scale, seed 0), above the −0.01 limit at every seed, while mean
#   imputation is 0.14 below the no-alignment model (control). The alignment mostly *stabilises* the model: without it the accuracy at $\eta=0.5$ varies from
#   seed to seed with a standard deviation of 0.12 (ours 0.02), and at $\eta=0.7$ (full scale, seed 0) it is 0.74 ± 0.14
#   against 0.87 ± 0.06 with it. At low missing rates the two tie. Whether the alignment *improves* accuracy on
#   average is not what the brief asked and would need more seeds.
# * *Linear cost* (claim 4). The peak memory allocated by `linear_alignment` is 32 kB at every $n$ (the $d\times k$
#   product and its square; slope 0.0), against $2n^2$ floats for the $n\times n$ form (64 MB at $n=2000$; slope
#   2.0). The flop ratio at $n=2000$, $d=100$, $k=20$ is 121 (implementation identity, by formula), 242 at $n=4000$.
#   The measured wall-clock ratio is larger, from about 180 to over 1000 in our runs (volatile; see the timings): the $n\times n$
#   form also streams two $n\times n$ matrices through memory for the elementwise product, which a flop count does
#   not see, while $X^\top Z$ stays in cache. The fitted time slopes (about 1 and 2.7–2.9) are noisy on this
#   loaded machine and are not counted.
#
# **What this says about the paper.** The model tested is ours, built from the abstract: one free latent per
# sample, per-view decoders, a CKA-normalised linear alignment and alternation. The page reproduces the
# qualitative claims of the abstract for that design (a shared latent with decoder imputation beats the
# standard imputation baselines, increasingly with the missing rate; the alignment over all observations costs
# linear time and memory and does not hurt), not the paper's numbers, which we do not know, nor its comparison
# with deep incomplete multi-view methods.
#
# ## What the miniature cannot show
#
# * The paper's own model, losses, weights and benchmarks: everything here is rebuilt from its abstract, and the
#   paper's numbers are unknown, so nothing on this page says how close we are to them.
# * Deep encoders, mini-batches and real benchmarks (thousands of samples, up to hundreds of classes), where a
#   free latent per sample has to be re-fitted for every new sample and where the speed of the linear alignment
#   starts to matter inside training.
# * Comparisons with the deep incomplete multi-view methods of the literature (COMPLETER, DSIMVC, HSACC, ...),
#   which we did not run.
# * The field's missing-data protocol (views removed from a share of the samples only), under which all methods
#   score higher and the gaps may differ.
