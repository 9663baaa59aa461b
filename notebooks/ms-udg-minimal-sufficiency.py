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
# # MS-UDG: minimal sufficient representations for unsupervised domain generalisation
#
# *A self-supervised representation that keeps what two augmented views share (sufficiency, InfoNCE) and is
# pushed to drop everything else (minimality: a semantic-variation disentanglement loss plus a reconstruction
# branch that gives the variation its own code) is claimed to generalise to unseen domains better than plain
# contrastive learning, without class or domain labels.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
import torch
from myst_nb import glue
from sklearn.decomposition import PCA

from repro.claims import Claims, Comparator, at_least, greater_than, tolerance
from repro.claims.judge import rule_of, value_status
from repro.papers import ms_udg_minimal_sufficiency as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 15 s on one thread: 3 runs x 3 methods x 20 epochs over 1,258 images, plus the pixel baselines
    "ci": dict(n_runs=3, epochs=20, methods=("simclr", "infonce-half", "ms-udg")),
    # minutes: 5 runs x 6 methods (adds the autoencoder and the two single-term ablations) x 100 epochs
    "full": dict(n_runs=5, epochs=100,
                 methods=("simclr", "ae", "infonce-half", "ms-udg -dis", "ms-udg -rec", "ms-udg")),
})
claims = Claims("ms-udg-minimal-sufficiency",
                title="Minimal Semantic Sufficiency Meets Unsupervised Domain Generalization",
                authors="Tan Pan, Kaiyu Guo, Dongli Xu, Zhaorui Tan, Chen Jiang, Deshu Chen, Xin Guo, "
                        "Brian C. Lovell, Limei Han, Yuan Cheng, Mahsa Baktashmotlagh",
                paper_url="https://arxiv.org/abs/2509.15791", scale=scale, seed=seed)
TRAIN = dict(batch_size=256, lr=1e-3, hidden=256, rep_dim=64, tau=0.2, lam_dis=1.0, lam_rec=1.0)
LABEL_FRAC = 0.1
N_PCA = TRAIN["rep_dim"] // 2  # PCA baseline: as many dimensions as MS-UDG-lite's probed h_s (a rule, not tuned)
LABELS = {"simclr": "SimCLR", "ae": "autoencoder", "infonce-half": "InfoNCE on h_s only",
          "ms-udg -dis": "MS-UDG − disentangle", "ms-udg -rec": "MS-UDG − reconstruct", "ms-udg": "MS-UDG-lite"}

# %% [markdown]
# ## The claim
#
# Unsupervised domain generalisation (UDG): learn a representation from unlabelled images of several source
# domains, pooled and without domain labels, then fit a linear classifier on a few labelled source images and
# test it on a domain never seen. The paper argues that the right target is a *minimal sufficient semantic
# representation*: it should keep all the information two augmented views of an image share (sufficiency) and
# as little as possible of the rest (minimality), and it shows that optimising both lowers a bound on the
# out-of-distribution risk. Its method, MS-UDG, is reported (through a secondary summary; the brief could not
# verify it) at **72.89% on PACS, 1.5 points above CycleMAE**, the best earlier UDG method; the protocol behind
# that number (label fraction, backbone, average over target domains) was not found. No official code was found.
#
# ## The method
#
# An encoder maps an image $x$ to $h = (h_s, h_v)$: a semantic part and a variation part. For two augmented
# views $x^{(1)}, x^{(2)}$ of a batch of images, MS-UDG-lite minimises
#
# $$\mathcal{L} = \underbrace{\tfrac12\big[\mathrm{NCE}(z^{(1)}, z^{(2)}) + \mathrm{NCE}(z^{(2)}, z^{(1)})\big]}_{\text{sufficiency}}
#   + \lambda_d \underbrace{\tfrac12 \sum_a \mathrm{nHSIC}\big(h_s^{(a)}, h_v^{(a)}\big)}_{\text{disentanglement}}
#   + \lambda_r \underbrace{\tfrac14 \sum_{a, b} \big\| \mathrm{Dec}\big(h_s^{(b)}, h_v^{(a)}\big) - x^{(a)} \big\|^2}_{\text{reconstruction}} ,$$
#
# with $z = g(h_s)$ a projection of the semantic part, and
# $\mathrm{NCE}(z^{(1)}, z^{(2)}) = \frac1N \sum_i -\log \frac{\exp(\cos(z^{(1)}_i, z^{(2)}_i)/\tau)}{\sum_k
# \exp(\cos(z^{(1)}_i, z^{(2)}_k)/\tau)}$ (`K.info_nce(z1, z2, tau)`, the shared `repro.ssl.info_nce`).
# InfoNCE lower-bounds the mutual information between the two views' codes: maximising it keeps what they share.
# The disentanglement term is the normalised Hilbert-Schmidt independence criterion (kernel alignment; RBF kernels,
# median bandwidth) between $h_s$ and $h_v$ in the batch: zero when the two parts are independent. The
# reconstruction term (mean squared pixel error) asks the decoder to rebuild each view from the semantic part of
# *either* view and the variation part of *that* view, so whatever differs between views (style, noise, shift)
# must be carried by $h_v$, which the disentanglement term keeps separate from $h_s$. Downstream, only $h_s$ is
# probed. The paper's exact losses were not retrieved: this is the brief's design, with the cross-view
# ("swap") reconstruction our own choice. The kernels are in `src/repro/papers/ms_udg_minimal_sufficiency.py`.
#
# ## The experiment
#
# **Domains** (scikit-learn's 1,797 8x8 digits, intensities in [0, 1]): D1 the original images, D2
# intensity-inverted, D3 with an additive sinusoidal grating (period 3 pixels, random orientation and phase), and
# the held-out D4, rotated by 15 degrees, blurred (Gaussian, 0.6 pixel) and at 75% contrast. Each run draws a
# 70/30 split of the digits: each training image is rendered in a random one of D1-D3 (1,258 images, no labels,
# no domain labels), each test image once in a random one of D1-D3 (in-domain test) and once in D4 (out-of-domain
# test), so the two test sets hold the same 539 digits.
#
# **Methods**, all with the same views, trunk, budget and probe. Views (`K.make_views`): Fourier amplitude
# mixing with another image of the batch (weight uniform in [0, 0.5], the augmentation the paper's pipeline
# uses), then a random shift of up to one pixel and Gaussian noise (`repro.ssl.augment_digits`). Trunk: the
# MLP 64-256-64 of `repro.ssl.MLPEncoder`. Budget: the same epochs, batch 256, Adam at $10^{-3}$
# (`repro.ssl.train_ssl`), seeded identically.
#
# * **SimCLR**: InfoNCE (temperature 0.2, symmetrised) on a projection of the whole 64-d $h$; probed on $h$.
#   It is the reference of both tests (the brief's comparison), not a comparator; its first 32 dimensions,
#   probed alone, are a baseline of both tests (below).
# * **autoencoder** (full scale only): reconstruct each view from $h$; probed on $h$.
# * **InfoNCE on $h_s$ only**: MS-UDG-lite with $\lambda_d = \lambda_r = 0$, the method without its two
#   minimality terms: the *ablation* of both tests; probed on the 32-d $h_s$.
# * **MS-UDG-lite**: $\lambda_d = \lambda_r = 1$ (fixed before the first run, not tuned); probed on $h_s$.
# * full scale adds the single-term ablations **MS-UDG − disentangle** ($\lambda_d = 0$) and
#   **MS-UDG − reconstruct** ($\lambda_r = 0$).
#
# **Naive baselines** (no training, no views, none of the paper's ideas; each is what a skeptic tries first
# against a domain shift of small grey images), probed by the same probe on the same labelled images:
#
# * **raw pixels**: the 64 pixel intensities;
# * **PCA of the pixels**: the first 32 principal components (as many as MS-UDG-lite's $h_s$, a rule fixed before
#   the run), fitted on the unlabelled training images (`K.pca_features`);
# * **per-image standardised pixels**: each image shifted to mean 0 and scaled to standard deviation 1
#   (`K.instance_normalize`), the classical normalisation against brightness and contrast, which removes D4's
#   contrast change exactly.
#
# **Dimension-matched SimCLR** (a baseline of both tests, added after the skeptic's review): the same SimCLR run
# probed on the first 32 of its 64 dimensions (`K.representation(model, X, "s")`, the slice the nHSIC check
# already calls SimCLR's first half), by a fixed rule: as many dimensions as MS-UDG-lite's probed $h_s$. It is
# plain contrastive learning without the minimality terms, and it removes the difference in the probe's input
# size between the method and its reference.
#
# **Evaluation**: the shared linear probe (`repro.ssl.linear_probe_accuracy`: standardised features,
# multinomial logistic regression, $C = 1$) fitted on 10% of the training images with their labels (126
# images, any of D1-D3), tested in domain and on D4; the domain information in the probed features (5-fold
# cross-validated logistic regression predicting D1/D2/D3 on the in-domain test images; chance 33%); and the
# normalised HSIC between the two halves of each representation on the in-domain test images (for SimCLR, the
# two halves of its $h$). Each notebook seed runs `n_runs` independent runs (split, labels, initialisation and
# views drawn from seed `100 * seed + r`); we report mean and standard deviation over runs.
# ci: 3 runs, 20 epochs, SimCLR, the ablation and MS-UDG-lite; full: 5 runs, 100 epochs, and the autoencoder
# and the two single-term ablations; the pixel baselines at both scales. A diagnostic probes the same features on
# the test digits moved towards D4 one shift at a time (rotation, then blur, then contrast), to see which shift
# costs the accuracy.
#
# **Deviations from the paper**
#
# * Data: four synthetic digit domains at 8x8 pixels instead of PACS, DomainNet and the other UDG benchmarks;
#   one held-out domain instead of leave-one-domain-out over all domains.
# * Model: a two-layer MLP trunk instead of a ResNet; the semantic and variation parts are the two halves of one
#   output layer.
# * Losses: the paper's disentanglement loss and its two modules (information disentanglement, semantic
#   representation optimisation) were not retrieved; we use normalised HSIC between $h_s$ and $h_v$ and a
#   cross-view reconstruction (the brief's design and our swap term). The loss weights 1 and 1 are our choice,
#   not tuned.
# * Baselines: SimCLR and an autoencoder trained by us under the same budget, instead of the paper's table of
#   SSL and UDG methods (BYOL, MoCo, DARLING, DiMAE, CycleMAE, ...).
# * D4's contrast change is a scaling to 75%: a pilot with the brief's wording read as a grey offset
#   ($0.2 + 0.6x$) put SimCLR and MS-UDG-lite near chance (11% and 16% on D4), so nothing could be compared.
#   The pilot used no claim and no threshold; the D4 recipe was fixed before the claims were first run.
# * The ci budget was cut from 30 to 20 epochs, and the autoencoder moved to full scale, after the first ci run,
#   for runtime only (that run took about twice the ci budget); the claims and their thresholds were not changed.
#   In that first run, MS-UDG-lite was 1.3 points above SimCLR on D4 and the ablation (then called the control)
#   8.3 points.
# * The probe sees 64 dimensions for SimCLR and the autoencoder, 32 for the split models (only $h_s$): a small
#   handicap for MS-UDG-lite, kept because probing $h_s$ is the method; SimCLR probed on 32 dimensions is a
#   baseline of both tests.
# * Comparators (added when the page moved to the claim model; the tests' settings and thresholds are unchanged):
#   the ablation is InfoNCE on $h_s$ alone, the naive baselines are raw pixels, PCA of the pixels and
#   per-image standardised pixels, chosen by rule (no training, the same probe, PCA at the dimension of $h_s$)
#   before their first run. The skeptic's review added SimCLR probed on its first 32 dimensions as a baseline of
#   both tests (a fixed rule: the dimension of $h_s$); the tests' settings and thresholds did not change. The
#   brief's third check (independent halves) is shown as an illustration, since the disentanglement loss
#   optimises the statistic it measures.

# %%
runs = [100 * seed + r for r in range(P.n_runs)]
rows = {m: {"in": [], "out": [], "dom": [], "hsic": [], "steps": []} for m in P.methods}
BASES = {"raw": "raw pixels", "pca": f"PCA of the pixels ({N_PCA} components)",
         "inst": "per-image standardised pixels"}
base = {b: {"in": [], "out": [], "dom": []} for b in BASES}
half32 = {"in": [], "out": [], "dom": []}  # SimCLR probed on its first 32 dimensions: a baseline of both tests
OTHER = {"inst_pca": f"standardised pixels, then PCA ({N_PCA} components)",
         "simclr_v": f"SimCLR's last {N_PCA} dimensions", "simclr_pca": f"PCA of SimCLR's h ({N_PCA} components)"}
other = {o: [] for o in OTHER}  # the skeptic's further variants: D4 accuracy only, shown, not comparators
keep = {}
flat = lambda X: X.reshape(len(X), -1)
for r in progress(runs, total=len(runs), desc="runs"):
    D = K.make_digit_domains(r)
    (Xtr, ytr, _), (Xi, yi, di), (Xo, yo, _) = D["train"], D["test_in"], D["test_out"]
    lab = np.random.default_rng(r).choice(len(ytr), int(round(LABEL_FRAC * len(ytr))), replace=False)
    feats = {"raw": [flat(X) for X in (Xtr[lab], Xi, Xo)],
             "pca": K.pca_features(Xtr, Xtr[lab], Xi, Xo, n_components=N_PCA),
             "inst": [K.instance_normalize(X) for X in (Xtr[lab], Xi, Xo)]}
    for b, (f_tr, f_in, f_out) in feats.items():
        acc_in, acc_out = K.probe_accuracies(f_tr, ytr[lab], [(f_in, yi), (f_out, yo)])
        base[b]["in"].append(acc_in)
        base[b]["out"].append(acc_out)
        if b != "raw":  # raw pixels carry every domain cue by construction: no comparator for the domain test
            base[b]["dom"].append(K.domain_accuracy(f_in, di, seed=r))
    f_ip = K.pca_features(*(K.instance_normalize(X) for X in (Xtr, Xtr[lab], Xi, Xo)), n_components=N_PCA)
    other["inst_pca"].append(K.probe_accuracies(f_ip[0], ytr[lab], [(f_ip[2], yo)])[0])
    steps = K.d4_steps(D["test_clean"][0])
    for m in P.methods:
        model, hist = K.train_method(m, Xtr, seed=r, epochs=P.epochs, **TRAIN)
        f_tr, f_in, f_out = (K.representation(model, X) for X in (Xtr[lab], Xi, Xo))
        # one probe per representation, fitted once, tested in domain, on D4 and on the steps towards D4
        acc = K.probe_accuracies(f_tr, ytr[lab], [(f_in, yi), (f_out, yo)]
                                 + [(K.representation(model, S.astype(np.float32)), yi) for S in steps.values()])
        rows[m]["in"].append(acc[0])
        rows[m]["out"].append(acc[1])
        rows[m]["steps"].append(acc[2:])
        rows[m]["dom"].append(K.domain_accuracy(f_in, di, seed=r))
        s, v = (K.representation(model, Xi, part) for part in ("s", "v"))
        rows[m]["hsic"].append(float(K.normalized_hsic(*(torch.as_tensor(a) for a in (s, v)))))
        if m == "simclr":  # the first N_PCA dimensions of h, K.representation(model, X, "s"): a fixed rule
            h = N_PCA
            acc_in, acc_out = K.probe_accuracies(f_tr[:, :h], ytr[lab], [(f_in[:, :h], yi), (f_out[:, :h], yo)])
            half32["in"].append(acc_in)
            half32["out"].append(acc_out)
            half32["dom"].append(K.domain_accuracy(f_in[:, :h], di, seed=r))
            other["simclr_v"].append(K.probe_accuracies(f_tr[:, h:], ytr[lab], [(f_out[:, h:], yo)])[0])
            f_hp = K.pca_features(K.representation(model, Xtr), f_tr, f_out, n_components=h)
            other["simclr_pca"].append(K.probe_accuracies(f_hp[0], ytr[lab], [(f_hp[1], yo)])[0])
        if r == runs[0]:
            keep[m] = dict(hist=hist, f_in=f_in, f_out=f_out, yi=yi, yo=yo, di=di)
R = {m: {k: 100 * np.array(v) if k != "hsic" else np.array(v) for k, v in d.items()} for m, d in rows.items()}
STEPS = list(steps)
B = {b: {k: 100 * np.array(v) for k, v in d.items()} for b, d in base.items()}
H32 = {k: 100 * np.array(v) for k, v in half32.items()}
O = {o: {"out": 100 * np.array(v)} for o, v in other.items()}

# %% [markdown]
# ## Results
#
# Linear-probe accuracy in domain (D1-D3) and out of domain (D4), the domain information left in the probed
# features, and the dependence between the two halves of the representation; mean ± standard deviation over
# the runs (percent, except nHSIC):

# %%
print(f"{'method':32s} {'in-domain':>14s} {'D4 (unseen)':>14s} {'domain acc.':>14s} {'nHSIC halves':>14s}")
for b, label in BASES.items():
    d = B[b]
    print(f"{label:32s} " + " ".join(f"{d[k].mean():7.1f} ± {d[k].std():4.1f}" if len(d[k]) else f"{'-':>14s}"
                                    for k in ("in", "out", "dom")))
for m in P.methods:
    d = R[m]
    print(f"{LABELS[m]:32s} " + " ".join(f"{d[k].mean():7.{3 if k == 'hsic' else 1}f} ± {d[k].std():4.{3 if k == 'hsic' else 1}f}"
                                      for k in ("in", "out", "dom", "hsic")))

# %%
names = list(P.methods)
allnames = list(BASES) + names
vals = {**B, **R}
xs = np.arange(len(allnames))
fig, axes = plt.subplots(1, 2, figsize=(11, 3.9), layout="constrained")
for ax, key, title in ((axes[0], "in", "in domain (D1-D3)"), (axes[1], "out", "held-out domain D4")):
    means = [vals[m][key].mean() for m in allnames]
    ax.bar(xs, means, yerr=[vals[m][key].std() for m in allnames], capsize=4,
           color=["C3" if m == "ms-udg" else "C7" if m in BASES else "C0" for m in allnames], alpha=0.8)
    for i, m in enumerate(allnames):
        ax.plot(np.full(len(runs), i) + np.linspace(-0.15, 0.15, len(runs)), vals[m][key], "k.", ms=4)
    ax.axhline(10, color="gray", ls=":", label="chance")
    ax.set_xticks(xs, [BASES.get(m, LABELS.get(m)) for m in allnames], rotation=25, ha="right", fontsize=8)
    ax.set(ylabel="linear-probe accuracy (%)", title=title)
axes[1].legend(fontsize=8)
plt.show()

# %% [markdown]
# The learned representation of the first run: a 2-d PCA of the probed features (SimCLR's $h$, MS-UDG-lite's
# $h_s$) of the test digits in their in-domain rendering and in D4, coloured by digit (left) and by domain
# (right). A representation that generalises puts each D4 digit near the same digit from D1-D3.

# %%
fig, axes = plt.subplots(2, 2, figsize=(8, 6.8), layout="constrained")
dom_colors = np.array(["C0", "C1", "C2", "C3"])
for row, m in zip(axes, ("simclr", "ms-udg")):
    k = keep[m]
    F = np.vstack([k["f_in"], k["f_out"]])
    Fs = (F - F.mean(0)) / (F.std(0) + 1e-9)
    Y2 = PCA(2, random_state=0).fit_transform(Fs)
    y_all = np.concatenate([k["yi"], k["yo"]])
    d_all = np.concatenate([k["di"], np.full(len(k["yo"]), 3)])
    sc = row[0].scatter(Y2[:, 0], Y2[:, 1], c=y_all, cmap="tab10", s=6, vmin=-0.5, vmax=9.5)
    row[1].scatter(Y2[:, 0], Y2[:, 1], c=dom_colors[d_all], s=6)
    for ax, by in zip(row, ("digit", "domain")):
        ax.set(xlabel="PC 1 (standardised features)", ylabel="PC 2", title=f"{LABELS[m]}: coloured by {by}")
fig.colorbar(sc, ax=axes[:, 0], label="digit", ticks=range(10), shrink=0.6)
for i, name in enumerate(K.DOMAINS):
    axes[0, 1].scatter([], [], c=dom_colors[i], s=12, label=name)
axes[0, 1].legend(fontsize=7, loc="best")
fig.set_dpi(72)  # four scatter panels: a lighter image keeps the page under 1 MB
plt.show()

# %% [markdown]
# Where the accuracy is lost: the probe (fitted on the labelled training images, as above) tested on the same
# test digits in D1, then rotated, then also blurred, then also at 75% contrast (that is D4); mean ± standard
# deviation over runs.

# %%
fig, ax = plt.subplots(figsize=(7.5, 3.8))
for m in names:
    A = R[m]["steps"]
    ax.errorbar(np.arange(len(STEPS)), A.mean(0), yerr=A.std(0), capsize=3, marker="o", label=LABELS[m])
ax.axhline(10, color="gray", ls=":", label="chance")
ax.set_xticks(range(len(STEPS)), STEPS)
ax.set(xlabel="test digits moved towards D4, one shift at a time", ylabel="linear-probe accuracy (%)",
       title="which shift costs the accuracy")
ax.legend(fontsize=7)
plt.show()

# %% [markdown]
# Training curves of the first run (each method's own loss, so the levels are not comparable across methods),
# and, per method, the domain information against the dependence of the two halves:

# %%
fig, axes = plt.subplots(1, 2, figsize=(9.5, 3.4), layout="constrained")
for m in names:
    axes[0].plot(np.arange(1, P.epochs + 1), keep[m]["hist"], label=LABELS[m])
axes[0].set(xlabel="epoch", ylabel="training loss (its own units)", yscale="log", title="training loss, run 1")
axes[0].legend(fontsize=7)
for m in names:
    axes[1].errorbar(R[m]["hsic"].mean(), R[m]["dom"].mean(), xerr=R[m]["hsic"].std(), yerr=R[m]["dom"].std(),
                     fmt="o", capsize=3, label=LABELS[m])
axes[1].axhline(100 / 3, color="gray", ls=":", label="chance (3 domains)")
axes[1].set(xlabel="nHSIC between the two halves of h (0 = independent)",
            ylabel="domain-classifier accuracy (%)", title="variation left in the probed features")
axes[1].legend(fontsize=7)
plt.show()

# %% [markdown]
# ### The paper's numbers beside ours
#
# The paper's headline is a PACS accuracy from a secondary summary; our miniature can only be compared in
# direction (MS-UDG above the best baseline on an unseen domain).

# %%
gap = R["ms-udg"]["out"].mean() - R["simclr"]["out"].mean()
print(f"{'setting':62s} {'MS-UDG acc. (%)':>16s} {'gain over baseline':>20s}")
print(f"{'paper (secondary summary, unverified): PACS, vs CycleMAE':62s} {'72.89':>16s} {'+1.5':>20s}")
print(f"{'ours: digits, held-out D4, 10% labels, vs SimCLR, ' + str(len(runs)) + ' runs':62s} "
      f"{R['ms-udg']['out'].mean():16.1f} {gap:+20.1f}")

# %% [markdown]
# There is no "Against the official code" section: the brief found no official repository for this paper, and a
# search of public repositories for the method's name found none either.
#
# ## Checking the claims
#
# Every check, its role and its comparators (see the book's evidence rubric):
#
# 1. **ood-gain-over-simclr** (test, the brief's claim check 1, unchanged): on D4, MS-UDG-lite's probe accuracy
#    minus SimCLR's is at least 2 points (mean over the runs of a seed). Ingredient: the two minimality terms.
#    Ablation: InfoNCE on $h_s$ alone (the same split encoder, views, budget and probe). Naive baselines, each
#    minus the same SimCLR accuracy: raw pixels, PCA of the pixels, per-image standardised pixels, and SimCLR
#    probed on its first 32 dimensions. The tolerance (2 points, fixed before the first run) makes every value between 0 and 4 points "at the edge".
# 2. **less-domain-information** (test, the brief's claim check 2, unchanged): SimCLR's domain-classifier
#    accuracy minus that on the probed features is above 0. Ingredient: the minimality terms. Ablation: InfoNCE on
#    $h_s$ alone. Baselines: PCA of the pixels and per-image standardised pixels (both can lose domain cues
#    without any learning; raw pixels carry them all by construction and are not a comparator here), and SimCLR
#    probed on its first 32 dimensions.
# 3. **halves-independent** (the brief's claim check 3, now an *illustration*): nHSIC between $h_s$ and $h_v$
#    is lower for MS-UDG-lite than between the halves of SimCLR's $h$. The disentanglement term minimises this
#    very statistic on every training batch, so the check measures whether our optimiser lowers its own loss
#    term on held-out images: it cannot fail as a test of the paper's claim (grade (a) in the rubric, like a
#    training objective measured after training).

# %%
TOL_ACC = tolerance(rel=0.1, abs=2.0, why="accuracy gaps in points, means over runs of trained float32 networks; "
                    "the end point of the Adam runs moves under other CPU kernels")
ABL = "InfoNCE on h_s only (MS-UDG-lite without its two minimality terms, same split encoder and probe)"
MINIMALITY = "the two minimality terms (HSIC disentanglement and cross-view reconstruction)"
H32_LABEL = (f"SimCLR probed on the first {N_PCA} of its {TRAIN['rep_dim']} dimensions (as many as MS-UDG-lite's "
             "probed h_s, a fixed rule), no minimality terms")


def gain_d4(x):
    """D4 probe accuracy minus SimCLR's, points (mean over runs)."""
    return float(x["out"].mean() - R["simclr"]["out"].mean())


def less_domain(x):
    """SimCLR's domain-classifier accuracy minus that on x's features, points (mean over runs)."""
    return float(R["simclr"]["dom"].mean() - x["dom"].mean())


claims.test("ood-gain-over-simclr",
            statement="on the held-out domain D4, MS-UDG-lite's linear-probe accuracy exceeds SimCLR's by >= 2 "
            "points (mean over runs)",
            paper="MS-UDG beats SSL and UDG baselines on unseen domains: 72.89% on PACS, +1.5 over CycleMAE "
            "(secondary summary, unverified)",
            criterion=at_least(2.0), measured=gain_d4(R["ms-udg"]),
            ablation=Comparator(ABL, gain_d4(R["infonce-half"]), ingredient=MINIMALITY),
            baselines=[Comparator(f"{BASES[b]}, no representation learning", gain_d4(B[b])) for b in BASES]
            + [Comparator(H32_LABEL, gain_d4(H32))],
            tol=TOL_ACC)
claims.test("less-domain-information",
            statement="a domain classifier (D1/D2/D3) on the probed features is less accurate for MS-UDG-lite "
            "than for SimCLR: SimCLR's accuracy minus MS-UDG-lite's > 0 points",
            paper="minimality removes the variation (domain) information from the semantic representation",
            criterion=greater_than(0.0), measured=less_domain(R["ms-udg"]),
            ablation=Comparator(ABL, less_domain(R["infonce-half"]), ingredient=MINIMALITY),
            baselines=[Comparator(f"{BASES[b]}, no representation learning", less_domain(B[b]))
                       for b in ("pca", "inst")] + [Comparator(H32_LABEL, less_domain(H32))],
            tol=TOL_ACC)
claims.illustrate("halves-independent",
                  statement="after training, nHSIC(h_s, h_v) of MS-UDG-lite is lower than nHSIC between the two "
                  "halves of SimCLR's representation: SimCLR's minus MS-UDG-lite's > 0",
                  paper="the disentanglement loss separates semantics from variation",
                  criterion=greater_than(0.0),
                  measured=float(R["simclr"]["hsic"].mean() - R["ms-udg"]["hsic"].mean()),
                  tol=tolerance(rel=0.1, abs=0.03, why="kernel statistics of trained float32 networks"),
                  why="the disentanglement term minimises this very statistic (nHSIC between h_s and h_v) on every "
                  "training batch: measured on held-out images it shows our optimiser lowering its own loss term, "
                  "not that the semantic half is more semantic")
claims.headline("ood-generalisation",
                "Learned without class or domain labels, the minimal sufficient representation generalises to "
                "unseen domains better than SSL and UDG baselines (SOTA on UDG benchmarks)",
                tests=["ood-gain-over-simclr"])
claims.headline("minimality-removes-variation",
                "The disentanglement and reconstruction terms remove variation (domain) information from the "
                "semantic representation",
                tests=["less-domain-information"])
claims.headline("infonce-keeps-semantics",
                "While the minimality terms act, InfoNCE keeps the semantics (sufficiency)",
                untestable="the brief pre-registered no check of sufficiency, and the paper states it as mutual "
                "information between the views, which our miniature does not estimate; in-domain probe accuracy is "
                "only a proxy, confounded by the probe's dimension (32 for h_s, 64 for SimCLR), so it is shown "
                "(Results, What a skeptic would try) and not counted; a test added after the run would be post hoc")
claims.headline("theory-ood-risk",
                "Optimising sufficiency and minimality provably lowers the out-of-distribution risk",
                untestable="the formal statement and its bound were not retrieved (only a secondary summary), and "
                "no term of a bound can be computed for our miniature; the tests above bear on its conclusion only")

# %%
for m in P.methods:
    k = m.replace(" ", "").replace("-", "_")
    for q in ("in", "out", "dom"):
        glue(f"{q}_{k}", float(R[m][q].mean()), display=False)
    glue(f"outsd_{k}", float(R[m]["out"].std()), display=False)
    glue(f"hsic_{k}", float(R[m]["hsic"].mean()), display=False)
    glue(f"gain_{k}", gain_d4(R[m]), display=False)
    glue(f"less_{k}", less_domain(R[m]), display=False)
    for j, step in enumerate(STEPS):
        glue(f"step{j}_{k}", float(R[m]["steps"][:, j].mean()), display=False)
for b in BASES:
    glue(f"in_{b}", float(B[b]["in"].mean()), display=False)
    glue(f"out_{b}", float(B[b]["out"].mean()), display=False)
    glue(f"gain_{b}", gain_d4(B[b]), display=False)
    if len(B[b]["dom"]):
        glue(f"dom_{b}", float(B[b]["dom"].mean()), display=False)
        glue(f"less_{b}", less_domain(B[b]), display=False)
per_run_gain = R["ms-udg"]["out"] - R["simclr"]["out"]
glue("gain_sd_runs", float(per_run_gain.std()), display=False)
glue("gain_min_run", float(per_run_gain.min()), display=False)
glue("gain_max_run", float(per_run_gain.max()), display=False)
glue("in_h32", float(H32["in"].mean()), display=False)
glue("out_h32", float(H32["out"].mean()), display=False)
glue("gain_h32", gain_d4(H32), display=False)
glue("dom_h32", float(H32["dom"].mean()), display=False)
for o in OTHER:
    glue(f"gain_{o}", gain_d4(O[o]), display=False)
glue("less_h32", less_domain(H32), display=False)
_ood = next(c for c in claims.results if c["id"] == "ood-gain-over-simclr")
_words = {"pass": "a pass of", "edge": "at the edge of", "fail": "a failure of"}
glue("h32_status", _words[value_status(rule_of(_ood), gain_d4(H32), TOL_ACC)], display=False)
glue("method_status", _words[value_status(rule_of(_ood), gain_d4(R["ms-udg"]), TOL_ACC)], display=False)
glue("min_effect", gain_d4(R["ms-udg"]) - gain_d4(R["infonce-half"]), display=False)
glue("in_drop", float(R["simclr"]["in"].mean() - R["ms-udg"]["in"].mean()), display=False)
CHANCE = 100.0 / len(np.unique(ytr))
out_learned = [R[m]["out"].mean() for m in P.methods] + [H32["out"].mean()]  # every learned code probed
glue("chance", CHANCE, display=False)
glue("out_min", float(min(out_learned)), display=False)
glue("out_max", float(max(out_learned)), display=False)
glue("above_min", float(min(out_learned) - CHANCE), display=False)
glue("above_max", float(max(out_learned) - CHANCE), display=False)
dom_all = [R[m]["dom"].mean() for m in P.methods] + [B[b]["dom"].mean() for b in ("pca", "inst")]
glue("dom_min", float(min(dom_all)), display=False)
glue("dom_max", float(max(dom_all)), display=False)
glue("n_runs", len(runs), display=False)
glue("epochs", P.epochs, display=False)
glue("n_labels", int(round(LABEL_FRAC * len(Xtr))), display=False)

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
# At ci seed 0 neither counted test separates MS-UDG-lite from what a skeptic tries first: on our digit domains
# the minimality terms do not make the representation generalise to the unseen domain clearly better than
# SimCLR, and a per-image standardisation of the pixels, with no learning at all, beats every learned
# representation on D4 and carries far less domain information. The values below are those of ci seed 0
# ({glue:text}`n_runs` runs, {glue:text}`epochs` epochs, {glue:text}`n_labels` labelled images); counts of seeds
# are over the ci sweep; the
# card shows the full-scale status beside the ci one, and this ci page quotes no full-scale number.
#
# The miniature is at its floor on the unseen domain: every learned representation (the three trained methods and
# the 32-dimensional SimCLR) reaches between
# {glue:text}`out_min:.1f` % and {glue:text}`out_max:.1f` % on D4, against a chance level of
# {glue:text}`chance:.0f` % (ten digits), that is only {glue:text}`above_min:.1f` to {glue:text}`above_max:.1f`
# points above chance, and the run-to-run standard deviation of MS-UDG-lite's gain ({glue:text}`gain_sd_runs:.1f`
# points) is of the order of the 2-point bar and its 2-point band. At that floor the test could hardly pass
# robustly even if the paper's claim held at its own scale.
#
# * *Out-of-domain gain* ({repro-status}`ood-gain-over-simclr`; the brief's bar of 2 points over SimCLR on D4,
#   with a tolerance band of 2 points, so only a gain above 4 points counts as a pass). MS-UDG-lite reaches
#   {glue:text}`out_ms_udg:.1f` % on D4 against SimCLR's {glue:text}`out_simclr:.1f` %, a gain of
#   {glue:text}`gain_ms_udg:.1f` points, while the gain moves between {glue:text}`gain_min_run:.1f` and
#   {glue:text}`gain_max_run:.1f` points from run to run (standard deviation {glue:text}`gain_sd_runs:.1f`). The
#   ablation without the minimality terms gains {glue:text}`gain_infonce_half:.1f` points, raw pixels
#   {glue:text}`gain_raw:.1f`, PCA of the pixels {glue:text}`gain_pca:.1f`, and per-image standardised pixels
#   {glue:text}`gain_inst:.1f` ({glue:text}`out_inst:.1f` % on D4), and SimCLR probed on its first 32 dimensions
#   {glue:text}`gain_h32:.1f`. Over the ci sweep MS-UDG-lite passes at
#   {repro-seeds}`ood-gain-over-simclr:method:pass` seeds, the ablation at
#   {repro-seeds}`ood-gain-over-simclr:ablation:pass`, raw pixels at
#   {repro-seeds}`ood-gain-over-simclr:baseline1:pass`, PCA at {repro-seeds}`ood-gain-over-simclr:baseline2:pass`,
#   standardised pixels at {repro-seeds}`ood-gain-over-simclr:baseline3:pass` and the 32-dimensional SimCLR at
#   {repro-seeds}`ood-gain-over-simclr:baseline4:pass`. A normalisation that removes
#   D4's contrast change does more for the unseen domain than any representation we learned; the paper's
#   ingredient is not what decides accuracy on D4 in our setting.
# * *Less domain information* ({repro-status}`less-domain-information`; SimCLR's domain-classifier accuracy minus
#   the method's, above 0 beyond the same 2-point band). Every learned representation tells D1, D2 and D3 apart
#   almost perfectly (SimCLR {glue:text}`dom_simclr:.1f` %, MS-UDG-lite {glue:text}`dom_ms_udg:.1f` %, the ablation
#   {glue:text}`dom_infonce_half:.1f` %): MS-UDG-lite is {glue:text}`less_ms_udg:.1f` points below SimCLR, the
#   ablation {glue:text}`less_infonce_half:.1f`, both inside the band. PCA of the pixels is
#   {glue:text}`less_pca:.1f` points below SimCLR and per-image standardised pixels {glue:text}`less_inst:.1f`
#   ({glue:text}`dom_inst:.1f` %); SimCLR probed on its first 32 dimensions is {glue:text}`less_h32:.1f` points
#   below full SimCLR, so part of any "less" of a 32-dimensional code is its size alone. Over the ci sweep the
#   method passes at {repro-seeds}`less-domain-information:method:pass` seeds, the ablation at
#   {repro-seeds}`less-domain-information:ablation:pass`, PCA at
#   {repro-seeds}`less-domain-information:baseline1:pass`, standardised pixels at
#   {repro-seeds}`less-domain-information:baseline2:pass` and the 32-dimensional SimCLR at
#   {repro-seeds}`less-domain-information:baseline3:pass`.
# * *InfoNCE keeps the semantics* (the sufficiency half of the paper's minimality claim: a headline with no test,
#   for the reason in the table of headlines). In domain, MS-UDG-lite reaches {glue:text}`in_ms_udg:.1f` %
#   against SimCLR's {glue:text}`in_simclr:.1f` % ({glue:text}`in_drop:.1f` points lower), and SimCLR probed on
#   its first 32 dimensions {glue:text}`in_h32:.1f` %: part of the drop is the probe's smaller input, the rest
#   is not explained here. Shown, not counted.
# * *Independent halves* (the illustration `halves-independent`, not counted). MS-UDG-lite's $h_s$ and $h_v$ have
#   an nHSIC of {glue:text}`hsic_ms_udg:.2f` on held-out images, against {glue:text}`hsic_simclr:.2f` between the
#   halves of SimCLR's $h$ and {glue:text}`hsic_infonce_half:.2f` for the ablation. The disentanglement term
#   minimises this statistic during training, so this shows the loss doing its job on new images, not that the
#   semantic half is more *semantic*: $h_s$ still carries the domain almost perfectly.
#
# The best explanation is the held-out domain. D4 is far from anything the views produce: the diagnostic figure
# shows the probe losing much of its accuracy to the 15-degree rotation alone (an MLP on 8x8 pixels has no notion
# of rotation, and no augmentation of ours rotates), and the blur and contrast change take every learned method
# close to chance. On the test digits in D1 the probe reaches {glue:text}`step0_simclr:.1f` % for SimCLR and
# {glue:text}`step0_ms_udg:.1f` % for MS-UDG-lite; after the rotation alone {glue:text}`step1_simclr:.1f` % and
# {glue:text}`step1_ms_udg:.1f` % (a diagnostic we did not pre-register, so not a claim). The disentanglement
# makes $h_s$ independent of $h_v$ in the kernel sense, yet $h_s$ keeps the domain, because the InfoNCE views
# (Fourier amplitude mixing, shift, noise) never change the domain-defining properties (inversion, grating), so
# nothing tells the encoder that those are variation rather than semantics.
#
# ## What a skeptic would try
#
# Every representation below is measured by this notebook (ci seed 0). The converter of this page to the claim
# model tried the three pixel representations, which became comparators of the tests; the independent review
# (last line of this section) added SimCLR probed on its first 32 dimensions as a comparator of both tests and
# the three further variants of the last bullet.
#
# * *Raw pixels* under the same probe: {glue:text}`in_raw:.1f` % in domain, {glue:text}`out_raw:.1f` % on D4
#   (SimCLR: {glue:text}`in_simclr:.1f` % and {glue:text}`out_simclr:.1f` %). Representation learning buys
#   in-domain accuracy, not out-of-domain accuracy.
# * *PCA of the pixels* ({glue:text}`out_pca:.1f` % on D4, domain accuracy {glue:text}`dom_pca:.1f` %): a
#   label-free, view-free 32-d code does about as well as the learned ones on D4.
# * *Per-image standardised pixels*: {glue:text}`out_inst:.1f` % on D4 and {glue:text}`dom_inst:.1f` % domain
#   accuracy. It removes the contrast change exactly and the brightness cue of the inverted domain partly, which
#   is the kind of variation the minimality terms are meant to remove; it passes both tests' criteria at seed 0.
# * *The probe's dimension* (now a baseline of both tests): SimCLR probed on its first 32 of 64 dimensions (as
#   many as MS-UDG-lite's $h_s$) reaches {glue:text}`in_h32:.1f` % in domain and {glue:text}`out_h32:.1f` % on
#   D4 (MS-UDG-lite: {glue:text}`in_ms_udg:.1f` % and {glue:text}`out_ms_udg:.1f` %). Its gain over full SimCLR
#   on D4 is {glue:text}`gain_h32:.1f` points, against MS-UDG-lite's {glue:text}`gain_ms_udg:.1f`, while the
#   minimality terms themselves (MS-UDG-lite minus the ablation) move D4 accuracy by {glue:text}`min_effect:.1f`
#   points. At this seed the slice's gain is {glue:text}`h32_status` the test's criterion and MS-UDG-lite's is
#   {glue:text}`method_status` it; over the ci sweep the slice passes at
#   {repro-seeds}`ood-gain-over-simclr:baseline4:pass` seeds. Its domain accuracy is {glue:text}`dom_h32:.1f` %,
#   {glue:text}`less_h32:.1f` points below full SimCLR. Halving the probe's input explains part of the split
#   models' lower in-domain accuracy, and differences of a few points on D4 are within what the probe's input
#   alone changes.
# * *Noise*: the per-run gain of MS-UDG-lite over SimCLR has a standard deviation of
#   {glue:text}`gain_sd_runs:.1f` points over the {glue:text}`n_runs` runs of a seed, of the order of the bar
#   itself.
# * *Further variants* (D4 only, shown and not comparators: each is a combination or a sibling of a comparator
#   above, chosen by the same rule of 32 dimensions): standardised pixels followed by a 32-component PCA gain
#   {glue:text}`gain_inst_pca:.1f` points over SimCLR on D4, SimCLR's last 32 dimensions
#   {glue:text}`gain_simclr_v:.1f`, and a 32-component PCA of SimCLR's $h$ (fitted on the unlabelled training
#   images) {glue:text}`gain_simclr_pca:.1f`. Which 32 dimensions of SimCLR are probed moves the gain by several
#   points: the sign of a gain of a few points on D4 is a draw.
#
# Reviewed by an independent skeptic (2026-12-07); what they tried is above: over seeds 0-9 of the ci settings,
# with their own scripts, per-image standardised pixels, PCA of the pixels, SimCLR probed on its first or last
# 32 dimensions, a 32-component PCA of SimCLR's $h$ and standardised pixels followed by PCA, against both tests;
# they read the prose against the record. The first-32-dimension SimCLR is now a comparator of both tests, and
# every variant is measured by this notebook.
#
# ## What the miniature cannot show
#
# The paper's setting is natural-image benchmarks (PACS, DomainNet subsets) with ResNet backbones, several
# source domains whose differences are texture and style, leave-one-domain-out evaluation and label fractions
# from 1% to 10%. Our 8x8 digits and a two-layer MLP test the mechanism (does adding the two minimality terms to
# InfoNCE change what a linear probe finds on an unseen domain?) but not the regime: an MLP has no built-in
# translation or rotation structure, so D4's rotation is a shift that no augmentation of ours covers, and an
# inverted domain is something a ResNet on photographs never meets. The miniature also cannot show the paper's
# theory (the bound on the out-of-distribution risk), its own disentanglement and reconstruction modules (not
# retrieved), the comparison with the UDG methods that use domain labels (DARLING, DiMAE) or with CycleMAE, the
# sensitivity to the loss weights (we ran one setting), or the cost of the extra terms on large images.
