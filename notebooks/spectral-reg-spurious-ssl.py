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
# # Spectral regularisation against spurious features in contrastive learning
#
# *Contrastive learning that latches onto an easy spurious cue concentrates its features in a few dominant
# modes early in training; pushing the feature covariance spectrum towards uniform, without labels, is claimed
# to give back worst-group accuracy.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
import torch

from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, tolerance
from repro.papers import spectral_reg_spurious_ssl as K
from repro.plotting import use_style
from repro.runtime import progress, setup_notebook
from repro.ssl import group_accuracies, linear_probe_accuracy

P = setup_notebook(scale, seed, presets={
    "ci": dict(n_seeds=3, epochs=15, lams=(10.0,)),                     # about 10 s on one thread
    "full": dict(n_seeds=5, epochs=40, lams=(1.0, 3.0, 10.0, 30.0)),    # about 2 min on one thread
})
P_SPURIOUS, N_TRAIN = 0.95, 1200   # the patch agrees with the label in 95 % of the 1200 training images
LAM = 10.0                         # the method's weight of the spectral term (see "Deviations")
EARLY = 3                          # "early": after 3 epochs (the brief's check)
EARLY1 = 1                         # the rubric's naive early stop: after one epoch
NO_PATCH = 1e-6                    # patch amplitude of the "no patch" data (spectral-signature illustration)
SEEDS = [P.seed * P.n_seeds + k for k in range(P.n_seeds)]   # disjoint seed sets across notebook seeds
BASE, METHOD, ABL = "SimCLR", f"+ spectral, λ={LAM:g}", f"+ diagonal (ablation), λ={LAM:g}"
ENTROPY = f"+ spectral entropy, λ={LAM:g}"
# arm -> (weight, form of the extra term); the ablation puts the same penalty, with the same weight, on the
# per-feature variances instead of the eigenvalues; the full preset adds the λ sweep and the brief's other form
ARMS = {BASE: (0.0, "spectral"), **{f"+ spectral, λ={lam:g}": (lam, "spectral") for lam in P.lams},
        ABL: (LAM, "diagonal")}
if scale == "full":
    ARMS[ENTROPY] = (LAM, "entropy")
use_style()
claims = Claims("spectral-reg-spurious-ssl",
                title="Mitigating Spurious Features in Contrastive Learning with Spectral Regularization",
                authors="Naghmeh Ghanooni, Waleed Mustafa, Dennis Wagner, Sophie Fellenz, Anthony Widjaja Lin, "
                        "Marius Kloft",
                paper_url="https://openreview.net/forum?id=TPMsCus3r0", scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# Networks pick up simple features first. When a simple feature is spuriously correlated with the label, a
# self-supervised encoder such as SimCLR's may build its representation mostly from that feature, and a linear
# probe trained on top then fails on the under-represented groups (the images where cue and label disagree).
# The paper makes two points:
#
# 1. **A spectral signature.** The failure shows early in training: the covariance of the learned features
#    is dominated by a few leading modes (a low effective rank).
# 2. **A label-free remedy.** A regulariser that pushes the eigenvalues of the feature covariance towards
#    equal values gives more diverse features. It raises worst-group accuracy, and average accuracy too, on
#    five spurious-correlation benchmarks (SpurCIFAR-10 among them), with SimCLR and SimSiam. It needs neither
#    group nor class labels.
#
# The paper's theory bounds the error of linear downstream classifiers by an "expected inverse energy" over
# random tasks. For a fixed trace, that quantity is smallest when all eigenvalues of $FF^\top$ are equal.
# **No numbers from the paper could be retrieved** (the brief found only the claims, through review summaries).
# This page therefore checks directions: the thresholds are the brief's.
#
# ## The method
#
# For a batch of representations $F \in \mathbb R^{n\times d}$ (the encoder's output, which the probe later
# sees) let $C = \frac{1}{n-1}(F-\bar F)^\top(F-\bar F)$ have eigenvalues $\lambda_1\ge\dots\ge\lambda_d$ and
# normalised spectrum $p_i = \lambda_i/\sum_j\lambda_j$. Two functions of $p$ do the work:
#
# $$\operatorname{erank}(F) = \exp\Big(-\sum_i p_i\log p_i\Big), \qquad R(F) = \sum_{i=1}^d \big(p_i - \tfrac1d\big)^2 .$$
#
# The effective rank (`K.effective_rank`) is $d$ for a flat spectrum and 1 for a single mode. The penalty
# (`K.uniform_spectrum_penalty`) is 0 exactly for a flat spectrum. Since $R = \sum_i p_i^2 - 1/d$, lowering
# it raises the order-2 effective rank $1/\sum_i p_i^2$. We train SimCLR with
#
# $$\mathcal L = \text{NT-Xent}(z_1, z_2;\tau) + \lambda\,\tfrac12\big[R(F_1) + R(F_2)\big],$$
#
# where $F_1, F_2$ are the representations of the two views, $z = g(F)$ their projections, and the
# eigenvalues come from `torch.linalg.eigvalsh`, with gradient (`K.spectral_simclr_loss`). $\lambda = 0$ is
# plain SimCLR.
#
# **Comparators.** The ingredient the robustness tests are about is *equal eigenvalues* of the representation
# covariance. The **ablation** keeps everything else: the same penalty, the same weight $\lambda = 10$ and the
# same place, on the per-feature variances (the diagonal of $C$) instead of the eigenvalues,
# $R_\text{diag} = \sum_i (C_{ii}/\operatorname{tr}C - 1/d)^2$ (`K.diagonal_uniformity_penalty`). It equalises
# the features' spreads but leaves their correlations, and so the spectrum, free. The **naive baselines** use no
# spectral idea and need no tuning: the same probe on the raw pixels, on the untrained encoder (SimCLR's
# initialisation, random features), on SimCLR stopped after 3 epochs (early stopping, the epoch where the
# brief places the spectral signature) and after 1 epoch (the rubric's "stop after one epoch"). The last
# baseline, added after the independent review, is the training-free version of "equal eigenvalues": plain
# SimCLR's frozen features **whitened after training** (`K.zca_whiten`, ZCA fitted on the 1200 training
# representations, $x \mapsto (x-\mu)V(\Lambda+\epsilon I)^{-1/2}V^\top$ with the usual small ridge
# $\epsilon = 10^{-5}\operatorname{tr}C/d$, fixed before it was run), so the encoder is trained without any
# regulariser. Every comparator is scored by the same probe, on the same seeds, as a mean paired difference from
# SimCLR under the test's own criterion.
#
# ## The experiment
#
# *Spurious digits* (`K.make_spur_digits`): scikit-learn's 8×8 digits (1797 images, scaled to [0, 1]), binary
# label "digit ≥ 5". The spurious cue is a bright 2×2 patch in the top-left corner. In the 1200 training images
# the patch is present exactly when a coin with $P=0.95$ says "agree with the label": it predicts the label 95 %
# of the time. In the 597 test images the patch is a fair coin independent of the label, so all four groups
# (label × patch) are about equally large. Worst-group accuracy is the minimum of the four group accuracies;
# the minority groups are "low digit with patch" and "high digit without patch".
#
# Every arm gets the same encoder (MLP 64→256→64, projector 64→64→32, `repro.ssl.MLPEncoder`), the same
# views (±1-pixel shifts with zero fill and Gaussian pixel noise of σ = 0.1, both of which keep the patch),
# NT-Xent with τ = 0.5, batch 256, Adam with step 10⁻³, the same number of epochs and the same initialisation
# per seed. Every arm is then scored by the same probe: a logistic regression on the frozen, standardised
# 64-d representation, trained on the 1200 training images and labels (which carry the same 95 % correlation,
# as a downstream task would), and scored per test group. No arm sees labels or groups during pre-training.
# The covariance spectrum of the whole training split's representations is recorded at every epoch.
#
# | preset | seeds | epochs | spectral weights λ |
# |---|---|---|---|
# | ci | 3 | 15 | 10 |
# | full | 5 | 40 | 1, 3, 10, 30 (claims use λ = 10) |
#
# **Deviations from the paper**
#
# * Data: 8×8 digits with a synthetic corner patch instead of SpurCIFAR-10, CelebA, Waterbirds and the other
#   benchmarks; binary label; 1200 training images.
# * Model: a two-layer MLP encoder instead of a ResNet. SimCLR only; SimSiam is not run.
# * Scale: 15 (ci) or 40 (full) epochs instead of hundreds.
# * Regulariser: the paper's Algorithm 1 (its Appendix E) and its code were not available. We use the brief's
#   form $R = \sum_i(p_i - 1/d)^2$ on the covariance of the representation (not the projection), averaged over
#   the two views. The paper may normalise, weight or place the term differently.
# * λ = 10 is our choice, made before the claims were written: NT-Xent is about $\log(2\cdot256-1)\approx 6$
#   at the start, and $R \le 1$, so λ = 10 puts the two terms on the same scale. A pilot on ci seeds 0–2, run
#   before the claims were written, tried λ = 1 and λ = 10. Both raised the effective rank and neither changed
#   worst-group accuracy much. The early top-mode ratio reached the brief's 1.5 only at λ = 10. The claim that
#   depends on that choice is marked post hoc. The full preset sweeps λ.
# * Probe: logistic regression (scikit-learn, C = 1) trained on the spurious training split. The paper's
#   downstream protocol per benchmark was not seen.
# * Comparators (ours, not the paper's): the diagonal ablation uses the method's λ = 10 unchanged; the naive
#   baselines have no hyper-parameter but the early-stopping epoch, fixed at the brief's "early" epoch 3 and at
#   the rubric's one epoch, and the whitening ridge, fixed at the usual $10^{-5}$ of the mean eigenvalue. The
#   first version of this page compared against the same term with a flipped sign (λ = −1), a control built to
#   fail; it is no longer run.
# * Form of the regulariser: the brief names two, $R$ and the negative spectral entropy $-\log\operatorname{erank}$.
#   The claims use $R$; the full preset also runs the entropy form at the same λ (printed in the table of numbers,
#   not a test).
# * Augmentations: shifts and noise only (no random erasing), so the patch always survives into both views.

# %%
data = {s: K.make_spur_digits(P_SPURIOUS, seed=s, n_train=N_TRAIN) for s in SEEDS}
runs = {arm: {} for arm in ARMS}
for s in progress(SEEDS, desc="seeds"):
    for arm, (lam, form) in ARMS.items():
        out = K.train_spectral_simclr(data[s]["X_train"], lam, epochs=P.epochs, seed=s, regulariser=form,
                                      snapshots=(0, EARLY1, EARLY) if arm == BASE else ())
        runs[arm][s] = {"spectra": out["spectra"], "losses": out["losses"], **K.evaluate_probe(out["model"], data[s])}
        if arm == BASE:   # naive baselines from the same run: the untrained encoder, SimCLR stopped at epoch
            # 1 or 3, and SimCLR's final features whitened after training (no regulariser)
            runs[arm][s]["init"] = K.evaluate_probe(out["snapshots"][0], data[s])
            runs[arm][s]["early1"] = K.evaluate_probe(out["snapshots"][EARLY1], data[s])
            runs[arm][s]["early"] = K.evaluate_probe(out["snapshots"][EARLY], data[s])
            runs[arm][s]["white"] = K.evaluate_probe(out["model"], data[s], whiten=True)
            with torch.no_grad():
                h3 = out["snapshots"][EARLY](torch.as_tensor(data[s]["X_train"]))[0].numpy()
            runs[arm][s]["corr_patch"] = K.top_component_correlation(h3, data[s]["a_train"])

# the spectral signature (illustration): plain SimCLR for 3 epochs on the same split without the patch
no_patch = {}
for s in SEEDS:
    d0 = K.make_spur_digits(P_SPURIOUS, seed=s, n_train=N_TRAIN, amplitude=NO_PATCH)
    out = K.train_spectral_simclr(d0["X_train"], 0.0, epochs=EARLY, seed=s)
    with torch.no_grad():
        h3 = out["model"](torch.as_tensor(d0["X_train"]))[0].numpy()
    no_patch[s] = {"p1": K.top_mode_fraction(out["spectra"][EARLY]),
                   "corr_patch": K.top_component_correlation(h3, d0["a_train"])}

# %%
# reference: the same probe on the raw pixels (no encoder)
raw = []
for s in SEEDS:
    d = data[s]
    acc_raw, pred = linear_probe_accuracy(d["X_train"].reshape(len(d["X_train"]), -1), d["y_train"],
                                          d["X_test"].reshape(len(d["X_test"]), -1), d["y_test"])
    raw.append((acc_raw, min(group_accuracies(pred, d["y_test"], d["g_test"]).values())))
raw = np.array(raw)


def per_seed(arm, key):
    """One number per seed for an arm: probe results, or a function of the spectra."""
    return np.array([runs[arm][s][key] for s in SEEDS])


def spectral_curve(arm, f):
    """f applied to the spectrum at every recorded epoch: array (seeds, epochs + 1)."""
    return np.array([[f(ev) for ev in runs[arm][s]["spectra"]] for s in SEEDS])


top = {arm: spectral_curve(arm, K.top_mode_fraction) for arm in ARMS}
erank = {arm: spectral_curve(arm, K.effective_rank) for arm in ARMS}
acc = {arm: per_seed(arm, "accuracy") for arm in ARMS}
wg = {arm: per_seed(arm, "worst_group") for arm in ARMS}
# the naive baselines (no spectral idea): the same probe on the raw pixels, on the untrained encoder, and on
# SimCLR stopped after 3 epochs (same seeds, same probe)
INIT, EARLYSTOP, RAW = "untrained encoder (SimCLR's initialisation)", f"SimCLR stopped after {EARLY} epochs", \
    "raw pixels (no encoder)"
EARLYSTOP1, WHITE = f"SimCLR stopped after {EARLY1} epoch", "SimCLR, features whitened after training"
for name, key in ((INIT, "init"), (EARLYSTOP, "early"), (EARLYSTOP1, "early1"), (WHITE, "white")):
    acc[name] = np.array([runs[BASE][s][key]["accuracy"] for s in SEEDS])
    wg[name] = np.array([runs[BASE][s][key]["worst_group"] for s in SEEDS])
acc[RAW], wg[RAW] = raw[:, 0], raw[:, 1]
SHOWN = [*ARMS, INIT, EARLYSTOP1, EARLYSTOP, RAW, WHITE]
corr_patch = np.array([runs[BASE][s]["corr_patch"] for s in SEEDS])
corr_no_patch = np.array([no_patch[s]["corr_patch"] for s in SEEDS])
p1_no_patch = np.array([no_patch[s]["p1"] for s in SEEDS])

# %% [markdown]
# ## Results
#
# **The spectrum over training.** The left panel shows the share of variance in the leading mode of the
# representation covariance; the right panel the effective rank (out of 64). Bands are ±1 standard deviation
# over seeds; the dotted line marks epoch 3, where the brief checks the early signature.

# %%
epochs_axis = np.arange(P.epochs + 1)
colors = {BASE: "C0", METHOD: "C1", ABL: "C2"}
fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
for ax, curves, ylabel in ((axes[0], top, "top-mode variance share $p_1$"),
                           (axes[1], erank, "effective rank (of 64)")):
    for arm in ARMS:
        m, sd = curves[arm].mean(0), curves[arm].std(0, ddof=1)
        style = dict(color=colors.get(arm, "0.6"), lw=2 if arm in colors else 1,
                     alpha=1 if arm in colors else 0.7, ls="-" if arm in colors else "--")
        ax.plot(epochs_axis, m, label=arm, **style)
        if arm in colors:
            ax.fill_between(epochs_axis, m - sd, m + sd, color=colors[arm], alpha=0.2)
    ax.axvline(EARLY, color="k", ls=":", lw=1)
    ax.set_xlabel("epoch (passes over the 1200 training images)")
    ax.set_ylabel(ylabel)
axes[1].legend(fontsize=7, loc="upper left")
fig.suptitle(f"Representation spectrum during training (mean ± sd over {len(SEEDS)} seeds)", fontsize=10)
plt.show()

# %% [markdown]
# **The whole spectrum** at initialisation, at epoch 3 and at the end: the normalised eigenvalues $p_i$,
# largest first, on a log scale (mean over seeds). A flat spectrum would be the horizontal line $1/64$.

# %%
fig, axes = plt.subplots(1, 3, figsize=(11, 3.4), sharey=True)
for ax, e in zip(axes, (0, EARLY, P.epochs)):
    for arm in (BASE, METHOD, ABL):
        p = np.mean([runs[arm][s]["spectra"][e] / runs[arm][s]["spectra"][e].sum() for s in SEEDS], axis=0)
        ax.semilogy(np.arange(1, len(p) + 1), np.clip(p, 1e-8, None), color=colors[arm], label=arm)
    ax.axhline(1 / 64, color="k", ls=":", lw=1, label="flat spectrum, 1/64")
    ax.set_title(f"after {e} epochs", fontsize=9)
    ax.set_xlabel("mode index $i$ (largest first)")
axes[0].set_ylabel("normalised eigenvalue $p_i$")
axes[0].set_ylim(1e-6, 1.2)
axes[2].legend(fontsize=7)
plt.show()

# %% [markdown]
# **Probe accuracy.** The left panel shows, for each group (label × patch) of the balanced test split, the
# linear-probe accuracy per arm, mean ± sd over seeds; the two minority groups are the middle pair. The right
# panel shows average and worst-group accuracy against λ. With the full preset it covers the whole λ sweep;
# λ = 0, the leftmost point, is plain SimCLR; the horizontal lines are comparators' worst groups.

# %%
group_names = ["low digit,\nno patch", "low digit,\npatch", "high digit,\nno patch", "high digit,\npatch"]
fig, axes = plt.subplots(1, 2, figsize=(11, 3.6), gridspec_kw=dict(width_ratios=[1.3, 1]))
ax = axes[0]
width = 0.8 / 3
for j, arm in enumerate((BASE, METHOD, ABL)):
    g = np.array([[runs[arm][s]["groups"][k] for k in range(4)] for s in SEEDS]) * 100
    ax.bar(np.arange(4) + (j - 1) * width, g.mean(0), width, yerr=g.std(0, ddof=1), color=colors[arm], label=arm,
           capsize=2)
ax.set_xticks(np.arange(4), group_names, fontsize=8)
ax.set_ylabel("probe accuracy in group (%)")
ax.set_ylim(0, 130)
ax.legend(fontsize=7, loc="upper center", ncol=2)
ax = axes[1]
sweep = [BASE] + [f"+ spectral, λ={lam:g}" for lam in P.lams]
lams = np.array([0.0, *P.lams])
for key, vals, marker, color in (("average", acc, "o", "k"), ("worst group", wg, "s", "0.45")):
    m = np.array([vals[a].mean() for a in sweep]) * 100
    sd = np.array([vals[a].std(ddof=1) for a in sweep]) * 100
    ax.errorbar(np.arange(len(lams)), m, yerr=sd, marker=marker, color=color, capsize=3, label=f"{key} accuracy")
for name, ls in ((ABL, "--"), (RAW, ":"), (EARLYSTOP, "-."), (WHITE, (0, (1, 3)))):
    ax.axhline(wg[name].mean() * 100, color="0.45", ls=ls, lw=1, label=f"worst group, {name}")
ax.set_xticks(np.arange(len(lams)), [f"{v:g}" for v in lams])
ax.set_xlabel("spectral weight λ (0: SimCLR)")
ax.set_ylabel("test accuracy (%)")
ax.legend(fontsize=7)
plt.show()

# %% [markdown]
# **The numbers** behind the figures: mean ± sd over seeds of the probe's average and worst-group accuracy,
# the top-mode share after 3 epochs, and the final effective rank.

# %%
print(f"{'arm':44s} {'probe acc (%)':>15s} {'worst group (%)':>17s} {'p1 @ epoch 3':>14s} {'final erank':>12s}")
for arm in SHOWN:
    spec = (f"{top[arm][:, EARLY].mean():8.3f} ± {top[arm][:, EARLY].std(ddof=1):.3f} "
            f"{erank[arm][:, -1].mean():7.1f} ± {erank[arm][:, -1].std(ddof=1):.1f}") if arm in ARMS else ""
    print(f"{arm:44s} {acc[arm].mean()*100:8.1f} ± {acc[arm].std(ddof=1)*100:4.1f} "
          f"{wg[arm].mean()*100:10.1f} ± {wg[arm].std(ddof=1)*100:4.1f} {spec}")
print(f"({len(SEEDS)} seeds: {SEEDS}; {P.epochs} epochs; sd over seeds)")
print(f"\nspectral signature, SimCLR after {EARLY} epochs (mean ± sd over seeds):")
for name, p1, c in (("with the patch", top[BASE][:, EARLY], corr_patch),
                    ("patch removed", p1_no_patch, corr_no_patch)):
    print(f"  {name:16s} top-mode share {p1.mean():.3f} ± {p1.std(ddof=1):.3f}   "
          f"|corr(top PC, patch)| {c.mean():.2f} ± {c.std(ddof=1):.2f}")
print("\npaired differences from SimCLR, same seed (mean ± sd over seeds, points):")
for arm in SHOWN[1:]:
    dw, da = (wg[arm] - wg[BASE]) * 100, (acc[arm] - acc[BASE]) * 100
    print(f"  {arm:44s} worst group {dw.mean():+6.1f} ± {dw.std(ddof=1):4.1f}   average {da.mean():+6.1f} ± "
          f"{da.std(ddof=1):4.1f}   worst group higher at {int((dw > 0).sum())} of {len(SEEDS)} seeds")

# %% [markdown]
# **The paper's numbers beside ours.** The brief found no number from the paper, so there is nothing to set
# beside ours:
#
# | quantity | paper (setting) | ours (setting) |
# |---|---|---|
# | worst-group accuracy, SimCLR vs + regulariser | "improves", no number retrieved (SpurCIFAR-10 and four other benchmarks, ResNet) | table above (spurious digits, MLP) |
# | average accuracy | "also improves", no number retrieved | table above |
# | spectral signature | "early reliance on dominant singular modes", no number retrieved | top-mode share at epoch 3, table above |

# %% [markdown]
# ## Against the official code
#
# The paper's code, [NaghmehGh/SpuriousCorrelation_SSRL](https://github.com/NaghmehGh/SpuriousCorrelation_SSRL),
# **could not be obtained here**: no snapshot of it could be fetched (tried again for issue 34) and it is not in
# the code index. Its configurations are therefore unknown, and no setting of this page can be run at an
# official value: λ, the form of the penalty, the layer it acts on, the augmentations, the epochs and the probe
# are all departures that could move a claim, each named in "Deviations". No
# function of the paper's own code was run, and the regulariser's exact form (the paper's Algorithm 1) is the
# brief's reading, not the authors' code.
#
# The golden file `tests/papers/golden/spectral-reg-spurious-ssl.json` is therefore a **stand-in**. It checks
# only our effective rank, against an independent public implementation: `compute_effective_rank` of
# [lxy-alexander/LD-SB](https://github.com/lxy-alexander/LD-SB) (`utils.py`, commit `827dfdd`), run unchanged
# outside the project on three seeded matrices (Gaussian 12×6, rank-2 12×6, diag(3, 1, 1, 0.5)). Its 4.1606,
# 1.8896 and 2.0005 agree with `effective_rank` of the eigenvalues of $W^\top W$ to 1e-14. That code drops
# $p_i \le 10^{-10}$ where ours uses $0\log 0 = 0$; the difference is below 1e-8. The penalty
# `uniform_spectrum_penalty`, the placement of the term and its weight have no official counterpart here.

# %%
def ratio_mean(num, den):
    """Ratio of the seed means (a ratio of averages, as in a 'spectrum of the average run')."""
    return float(np.mean(num) / np.mean(den))


d_wg = {arm: float((wg[arm] - wg[BASE]).mean()) for arm in SHOWN}
d_acc = {arm: float((acc[arm] - acc[BASE]).mean()) for arm in SHOWN}
WG_GAIN = 0.0 if scale == "ci" else 0.02      # the brief: ci ">= baseline", full ">= +2 points"
INGREDIENT = ("equal eigenvalues of the representation covariance (the spectral term); kept: the same penalty, "
              "weight and placement on the per-feature variances")
BASELINES = {RAW: "linear probe on the raw pixels (no encoder)",
             INIT: "linear probe on the untrained encoder (SimCLR's initialisation, 0 epochs)",
             EARLYSTOP: f"linear probe on SimCLR stopped after {EARLY} epochs (early stopping)",
             EARLYSTOP1: f"linear probe on SimCLR stopped after {EARLY1} epoch (early stopping)",
             WHITE: "linear probe on SimCLR's frozen features, ZCA-whitened after training (eps = 1e-5 of the "
                    "mean eigenvalue; no regulariser)"}

claims.headline(
    "spectral-signature",
    "Contrastive learning that fails on spurious correlations shows it early in training: the learned features "
    "rely on a few dominant singular modes",
    untestable="not tested as a counted claim: the signature is a link between early spectral concentration and "
               "the spurious failure across benchmarks, and no pre-registered test of it was written; it is "
               "testable here, and is shown as the illustration patch-in-dominant-mode (SimCLR with and "
               "without the patch), measured but not counted")
claims.headline(
    "uniform-spectrum-robustness",
    "A label-free regulariser that pushes the feature covariance towards a uniform eigenspectrum raises "
    "worst-group accuracy, and average accuracy too, on spurious-correlation benchmarks",
    tests=["worst-group-gain", "average-accuracy-kept"])
claims.headline(
    "simsiam-and-transfer",
    "The gains hold for SimCLR and SimSiam and carry over to transfer tasks",
    untestable="SimSiam and transfer tasks are not run in this miniature (SimCLR on one synthetic data set only)")

claims.illustrate(
    "dominant-mode-early",
    statement=f"After {EARLY} epochs, SimCLR's top-mode variance share is at least 1.5 times that of the "
              f"spectrally regularised model (λ = {LAM:g}; ratio of seed means)",
    paper="spurious-feature failure shows as early reliance on the dominant singular modes; the "
          "regulariser removes it (no number retrieved)",
    criterion=at_least(1.5), measured=ratio_mean(top[BASE][:, EARLY], top[METHOD][:, EARLY]),
    why="the regulariser minimises sum_i p_i^2, which bounds the top-mode share p_1 from above: that it lowers "
        "p_1 is what it is built to do, and λ was chosen in a pilot where it did (counted as a post-hoc test "
        "before issue 34, against a sign-flipped regulariser built to fail)",
    tol=tolerance(rel=0.1, why="spectra after 3 epochs of Adam training; float rounding moves the path"))
claims.illustrate(
    "flatter-final-spectrum",
    statement="The final effective rank of the representation with the regulariser is at least 1.3 times "
              "SimCLR's (ratio of seed means)",
    paper="the regulariser promotes a uniform eigenspectrum, i.e. a higher effective rank (no number retrieved)",
    criterion=at_least(1.3), measured=ratio_mean(erank[METHOD][:, -1], erank[BASE][:, -1]),
    why="the penalty R = sum_i p_i^2 - 1/d is a monotone function of the order-2 effective rank, so raising the "
        "(order-1) effective rank is the optimisation target itself, not a consequence that could fail",
    tol=tolerance(rel=0.1, why="end point of Adam training"))
claims.illustrate(
    "patch-in-dominant-mode",
    statement=f"After {EARLY} epochs, SimCLR's top principal component of the representation correlates with "
              "the spurious patch (|Pearson correlation| on the training images, mean over seeds, at least 0.5)",
    paper="spurious-feature failure shows as early reliance on the dominant singular modes (no number retrieved)",
    criterion=at_least(0.5), measured=float(corr_patch.mean()),
    why="added after the independent review, which measured it (post hoc, not a pre-registered test): one "
        "synthetic cue in one miniature, so it shows that the signature can appear here, not that it predicts "
        "the spurious failure across benchmarks; the reference run without the patch is shown beside it",
    tol=tolerance(abs=0.1, why="top principal component after 3 epochs of Adam training"))
claims.test(
    "worst-group-gain",
    statement=f"The regulariser raises the linear probe's worst-group accuracy over SimCLR by at least "
              f"{WG_GAIN * 100:g} points (mean paired difference over seeds)",
    paper="improves worst-group accuracy on five spurious-correlation benchmarks (no number retrieved)",
    criterion=at_least(WG_GAIN), measured=d_wg[METHOD],
    ablation=Comparator(f"SimCLR + the same penalty on the per-feature variances (diagonal of C), λ = {LAM:g}",
                        d_wg[ABL], ingredient=INGREDIENT),
    baselines=[Comparator(label, d_wg[name]) for name, label in BASELINES.items()],
    tol=tolerance(abs=0.03, why="accuracy on about 150 test images per group after Adam training"))
claims.test(
    "average-accuracy-kept",
    statement="The regulariser does not lower the probe's average accuracy by more than 1 point (mean "
              "paired difference over seeds)",
    paper="average accuracy improves as well (no number retrieved)",
    criterion=at_least(-0.01), measured=d_acc[METHOD],
    ablation=Comparator(f"SimCLR + the same penalty on the per-feature variances (diagonal of C), λ = {LAM:g}",
                        d_acc[ABL], ingredient=INGREDIENT),
    baselines=[Comparator(label, d_acc[name]) for name, label in BASELINES.items()],
    tol=tolerance(abs=0.02, why="accuracy on 597 test images after Adam training"))

KEYS = {BASE: "base", METHOD: "method", ABL: "abl", RAW: "raw", INIT: "init", EARLYSTOP: "early",
        EARLYSTOP1: "early1", WHITE: "white"}
for name, k in KEYS.items():
    glue(f"wg_{k}", float(wg[name].mean() * 100), display=False)
    glue(f"acc_{k}", float(acc[name].mean() * 100), display=False)
    glue(f"dwg_{k}", d_wg[name] * 100, display=False)
    glue(f"dacc_{k}", d_acc[name] * 100, display=False)
for name, k in ((BASE, "base"), (METHOD, "method"), (ABL, "abl")):
    glue(f"p1early_{k}", float(top[name][:, EARLY].mean() * 100), display=False)
    glue(f"p1init_{k}", float(top[name][:, 0].mean() * 100), display=False)
    glue(f"p1final_{k}", float(top[name][:, -1].mean() * 100), display=False)
    glue(f"erank_{k}", float(erank[name][:, -1].mean()), display=False)
glue("ratio_top", ratio_mean(top[BASE][:, EARLY], top[METHOD][:, EARLY]), display=False)
glue("ratio_erank", ratio_mean(erank[METHOD][:, -1], erank[BASE][:, -1]), display=False)
glue("ratio_erank_abl", ratio_mean(erank[ABL][:, -1], erank[BASE][:, -1]), display=False)
glue("wg_gain_pts", WG_GAIN * 100, display=False)
glue("corr_patch", float(corr_patch.mean()), display=False)
glue("corr_no_patch", float(corr_no_patch.mean()), display=False)
glue("p1early_no_patch", float(p1_no_patch.mean() * 100), display=False)
glue("dwg_method_vs_white", float((wg[METHOD] - wg[WHITE]).mean() * 100), display=False)
glue("dwg_method_vs_best_naive",
     float((wg[METHOD] - np.max([wg[RAW], wg[INIT], wg[WHITE]], axis=0)).mean() * 100), display=False)
glue("n_seeds", len(SEEDS), display=False)
glue("minority_max", float(max(np.mean([runs[METHOD][s]["groups"][g] for s in SEEDS]) for g in (1, 2)) * 100),
     display=False)

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
# Two tests are counted, both pre-registered: they kept their measurement, setting and criterion and gained
# comparators (the whitened SimCLR features and the one-epoch stop were added after the independent review). The
# spectral checks are shown as illustrations. Values below are from the committed ci run (notebook seed 0,
# training seeds 0–2, 15 epochs); counts over seeds come from the ci sweep.
#
# - **Worst-group accuracy** ({repro-status}`worst-group-gain`). At seed 0 the probe's worst group rises from
#   {glue:text}`wg_base:.1f` % (SimCLR) to {glue:text}`wg_method:.1f` % with the regulariser, a paired gain of
#   {glue:text}`dwg_method:+.1f` points (criterion at least {glue:text}`wg_gain_pts:g`, with a band of 3
#   points at the edge). Over the ci sweep the method passes at {repro-seeds}`worst-group-gain:method:pass`
#   seeds, but so do comparators that use no training-time regulariser: the untrained encoder at
#   {repro-seeds}`worst-group-gain:baseline2:pass`, the raw pixels at
#   {repro-seeds}`worst-group-gain:baseline1:pass`, and SimCLR's own features whitened after training at
#   {repro-seeds}`worst-group-gain:baseline5:pass`; the method passes and a comparator passes too at
#   {repro-seeds}`worst-group-gain:test:not-specific` seeds. At seed 0 these gain {glue:text}`dwg_init:+.1f`,
#   {glue:text}`dwg_raw:+.1f` and {glue:text}`dwg_white:+.1f` points. So in this miniature plain SimCLR is
#   itself worse than random features or the raw pixels on the minority groups, and a criterion of "at least
#   SimCLR" sits below doing no training at all. Whitening the frozen SimCLR features, the training-free version
#   of equal eigenvalues, gives a gain like the regulariser's (method minus whitened: {glue:text}`dwg_method_vs_white:+.1f`
#   points at seed 0): **the gain does not need the training-time regulariser here**, and nothing on this page
#   shows that the regulariser changes which features the encoder learns, which is the paper's mechanism. The
#   ablation, the same penalty on the per-feature variances, gains {glue:text}`dwg_abl:+.1f` points at seed 0
#   (passing at {repro-seeds}`worst-group-gain:ablation:pass` seeds) and leaves the spectrum almost as peaked as
#   SimCLR's (effective rank {glue:text}`erank_abl:.1f` against {glue:text}`erank_base:.1f` and the method's
#   {glue:text}`erank_method:.1f`). Early stopping gains {glue:text}`dwg_early1:+.1f` points after 1 epoch and
#   {glue:text}`dwg_early:+.1f` after 3 (passing at {repro-seeds}`worst-group-gain:baseline4:pass` and
#   {repro-seeds}`worst-group-gain:baseline3:pass` seeds). The gain is small next to the gap that remains: the
#   minority groups stay at or below {glue:text}`minority_max:.0f` %, because the probe is trained on labels
#   that carry the same 95 % correlation and keeps using the patch.
# - **Average accuracy kept** ({repro-status}`average-accuracy-kept`). The regulariser changes average probe
#   accuracy by {glue:text}`dacc_method:+.1f` points at seed 0 (criterion: not lower by more than 1). This is a
#   "does not hurt" criterion where the paper claims a gain, and comparators that do nothing spectral during
#   training meet it: at seed 0 the whitened SimCLR features change it by {glue:text}`dacc_white:+.1f` points,
#   the untrained encoder by {glue:text}`dacc_init:+.1f`, SimCLR stopped after 1 epoch by
#   {glue:text}`dacc_early1:+.1f` and after 3 by {glue:text}`dacc_early:+.1f`, the raw pixels by
#   {glue:text}`dacc_raw:+.1f` and the ablation by {glue:text}`dacc_abl:+.1f`. Over the ci sweep the method
#   passes at {repro-seeds}`average-accuracy-kept:method:pass` seeds, the whitened features at
#   {repro-seeds}`average-accuracy-kept:baseline5:pass`, the untrained encoder at
#   {repro-seeds}`average-accuracy-kept:baseline2:pass` and the one-epoch stop at
#   {repro-seeds}`average-accuracy-kept:baseline4:pass`; the method passes and a comparator passes too at
#   {repro-seeds}`average-accuracy-kept:test:not-specific` seeds. The paper's claimed gain in average accuracy
#   is not tested by this criterion.
# - **The spectrum (illustrations).** After 3 epochs plain SimCLR puts {glue:text}`p1early_base:.0f` % of the
#   representation's variance in its leading mode (from {glue:text}`p1init_base:.0f` % at initialisation; it
#   falls back to {glue:text}`p1final_base:.0f` % after 15 epochs), the regularised model
#   {glue:text}`p1early_method:.0f` % (ratio {glue:text}`ratio_top:.1f`, against the brief's threshold of one
#   and a half), and the final effective rank is {glue:text}`ratio_erank:.1f` times SimCLR's. Both follow from
#   what the penalty minimises, so they show that the regulariser works as built, not that the paper's signature
#   is right.
# - **The signature (illustration, measured after the review).** The patch does show in SimCLR's early
#   spectrum. After 3 epochs the top principal component of SimCLR's representation correlates with the patch
#   at |r| = {glue:text}`corr_patch:.2f` (mean over seeds), and its leading mode holds
#   {glue:text}`p1early_base:.0f` % of the variance. Trained on the same images with the patch removed, the
#   top component correlates with the (now invisible) patch draw at only {glue:text}`corr_no_patch:.2f`, and
#   the leading mode holds {glue:text}`p1early_no_patch:.0f` %. So the dominant early mode encodes the spurious
#   cue in this miniature. It is shown, not counted: it was designed after the review, and it does not link
#   the signature to the failure across benchmarks.
#
# **Headline claims.** The label-free robustness claim is tested by the two tests above, whose statuses
# are given there. The spectral signature is shown by a measured illustration, not by a counted test. The
# SimSiam and transfer claims are not testable here (see the claims table for why).
#
# ## What a skeptic would try
#
# The page was converted for issue 34 by a helper who did not write it, and then reviewed by an independent
# skeptic. The naive baselines below are measured by this notebook (seed 0, ci scale, with the seeds and probe
# of the tests); counts over seeds come from the ci sweep:
#
# - **Skip self-supervision: probe the raw pixels.** Worst group {glue:text}`wg_raw:.1f` %, average
#   {glue:text}`acc_raw:.1f` %, against SimCLR's {glue:text}`wg_base:.1f` % and {glue:text}`acc_base:.1f` %.
#   On 8×8 digits the pixels are already a good representation for a linear probe, and SimCLR is below them on
#   the worst group.
# - **Random features: probe the untrained encoder.** Worst group {glue:text}`wg_init:.1f` %, average
#   {glue:text}`acc_init:.1f` %. Its spectrum at initialisation is already flatter than SimCLR's after 3 epochs
#   (top-mode share {glue:text}`p1init_base:.0f` % against {glue:text}`p1early_base:.0f` %). It beats SimCLR
#   on both accuracies at seed 0 and meets the average-accuracy criterion without any training.
# - **Stop SimCLR early.** After 1 epoch: worst group {glue:text}`wg_early1:.1f` %, average
#   {glue:text}`acc_early1:.1f` %. After 3 epochs: worst group {glue:text}`wg_early:.1f` %, average
#   {glue:text}`acc_early:.1f` %.
# - **Whiten SimCLR's features after training** (no regulariser, ZCA with a fixed small ridge). Worst group
#   {glue:text}`wg_white:.1f` %, average {glue:text}`acc_white:.1f` %, against the method's
#   {glue:text}`wg_method:.1f` % and {glue:text}`acc_method:.1f` %: the method's worst-group gain over it is
#   {glue:text}`dwg_method_vs_white:+.1f` points at seed 0, and over the sweep it passes the worst-group criterion
#   at {repro-seeds}`worst-group-gain:baseline5:pass` seeds.
# - **The method against the strongest naive baseline** at each seed (the best of the raw pixels, the untrained
#   encoder and the whitened features): {glue:text}`dwg_method_vs_best_naive:+.1f` points of worst-group
#   accuracy at seed 0. This is shown, not tested: a test of it would be post hoc.
# - **Equalise the features' variances, not the eigenvalues** (the ablation): worst group
#   {glue:text}`wg_abl:.1f` %, average {glue:text}`acc_abl:.1f` %, final effective rank {glue:text}`erank_abl:.1f`.
# - **Does the patch drive the early spectrum?** SimCLR with and without the patch, 3 epochs: the top component's
#   |correlation| with the patch is {glue:text}`corr_patch:.2f` against {glue:text}`corr_no_patch:.2f` (the
#   illustration patch-in-dominant-mode).
# - **The old control**, the same term with a flipped sign, rewarded a peaked spectrum and was built to lose.
#   It was the only comparator of all four claims, and it is gone. The two spectral claims, which the penalty
#   satisfies by construction, are now illustrations.
#
# Reviewed by an independent skeptic (2026-12-07); what they tried is above. They re-ran the tests at ci scale
# with the raw pixels, the untrained encoder, SimCLR stopped after 1 and 3 epochs, and SimCLR's features
# whitened after training as baselines, and measured whether the patch moves SimCLR's early spectrum. Each of
# these is now measured by this notebook, as listed above.
#
# ## What the miniature cannot show
#
# * **Real spurious benchmarks.** Our cue is one fixed corner patch on 8×8 images. SpurCIFAR-10, CelebA or
#   Waterbirds cues are textures, backgrounds and colours, entangled with the object, and learnt by a ResNet
#   over hundreds of epochs. Whether flattening the spectrum recovers the core feature there cannot be
#   read off this page.
# * **The paper's regulariser.** Without Algorithm 1 or the code we do not know the paper's normalisation,
#   which layer it regularises, or its weight. A different form, for example the negative spectral entropy,
#   may behave differently. Whitening after training, measured above, is not the paper's method.
# * **SimSiam and transfer.** The paper also reports SimSiam and transfer to other downstream tasks; neither
#   is run.
# * **The theory.** The expected-inverse-energy bound is not tested numerically here.
