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
from sklearn.decomposition import PCA

from repro.claims import Claims, at_least, greater_than, tolerance
from repro.papers import ms_udg_minimal_sufficiency as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 12 s on one thread: 3 runs x 3 methods x 20 epochs over 1,258 images
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
# * **autoencoder** (full scale only): reconstruct each view from $h$; probed on $h$.
# * **InfoNCE on $h_s$ only**: MS-UDG-lite with $\lambda_d = \lambda_r = 0$, the method without minimality
#   (the control of every claim); probed on the 32-d $h_s$.
# * **MS-UDG-lite**: $\lambda_d = \lambda_r = 1$ (fixed before the first run, not tuned); probed on $h_s$.
# * full scale adds the single-term ablations **MS-UDG − disentangle** ($\lambda_d = 0$) and
#   **MS-UDG − reconstruct** ($\lambda_r = 0$).
#
# **Evaluation**: the shared linear probe (`repro.ssl.linear_probe_accuracy`: standardised features,
# multinomial logistic regression, $C = 1$) fitted on 10% of the training images with their labels (126
# images, any of D1-D3), tested in domain and on D4; the domain information in the probed features (5-fold
# cross-validated logistic regression predicting D1/D2/D3 on the in-domain test images; chance 33%); and the
# normalised HSIC between the two halves of each representation on the in-domain test images (for SimCLR, the
# two halves of its $h$). Each notebook seed runs `n_runs` independent runs (split, labels, initialisation and
# views drawn from seed `100 * seed + r`); we report mean and standard deviation over runs.
# ci: 3 runs, 20 epochs, SimCLR, the control and MS-UDG-lite; full: 5 runs, 100 epochs, and the autoencoder and
# the two ablations. A diagnostic probes the same features on the test digits moved towards D4 one shift at a
# time (rotation, then blur, then contrast), to see which shift costs the accuracy.
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
#   In that first run, MS-UDG-lite was 1.3 points above SimCLR on D4 and the control 8.3 points.
# * The probe sees 64 dimensions for SimCLR and the autoencoder, 32 for the split models (only $h_s$): a small
#   handicap for MS-UDG-lite, kept because probing $h_s$ is the method.

# %%
runs = [100 * seed + r for r in range(P.n_runs)]
rows = {m: {"in": [], "out": [], "dom": [], "hsic": [], "steps": []} for m in P.methods}
raw = {"in": [], "out": []}
keep = {}
for r in progress(runs, total=len(runs), desc="runs"):
    D = K.make_digit_domains(r)
    (Xtr, ytr, _), (Xi, yi, di), (Xo, yo, _) = D["train"], D["test_in"], D["test_out"]
    lab = np.random.default_rng(r).choice(len(ytr), int(round(LABEL_FRAC * len(ytr))), replace=False)
    flat = lambda X: X.reshape(len(X), -1)
    raw["in"].append(K.linear_probe(flat(Xtr[lab]), ytr[lab], flat(Xi), yi))
    raw["out"].append(K.linear_probe(flat(Xtr[lab]), ytr[lab], flat(Xo), yo))
    for m in P.methods:
        model, hist = K.train_method(m, Xtr, seed=r, epochs=P.epochs, **TRAIN)
        f_tr, f_in, f_out = (K.representation(model, X) for X in (Xtr[lab], Xi, Xo))
        rows[m]["in"].append(K.linear_probe(f_tr, ytr[lab], f_in, yi))
        rows[m]["out"].append(K.linear_probe(f_tr, ytr[lab], f_out, yo))
        rows[m]["dom"].append(K.domain_accuracy(f_in, di, seed=r))
        s, v = (K.representation(model, Xi, part) for part in ("s", "v"))
        rows[m]["hsic"].append(float(K.normalized_hsic(*(torch.as_tensor(a) for a in (s, v)))))
        steps = K.d4_steps(D["test_clean"][0])
        rows[m]["steps"].append([K.linear_probe(f_tr, ytr[lab], K.representation(model, S.astype(np.float32)), yi)
                                 for S in steps.values()])
        if r == runs[0]:
            keep[m] = dict(hist=hist, f_in=f_in, f_out=f_out, yi=yi, yo=yo, di=di)
R = {m: {k: 100 * np.array(v) if k != "hsic" else np.array(v) for k, v in d.items()} for m, d in rows.items()}
STEPS = list(steps)
RAW = {k: 100 * np.array(v) for k, v in raw.items()}

# %% [markdown]
# ## Results
#
# Linear-probe accuracy in domain (D1-D3) and out of domain (D4), the domain information left in the probed
# features, and the dependence between the two halves of the representation; mean ± standard deviation over
# the runs (percent, except nHSIC):

# %%
print(f"{'method':24s} {'in-domain':>14s} {'D4 (unseen)':>14s} {'domain acc.':>14s} {'nHSIC halves':>14s}")
print(f"{'raw pixels':24s} {RAW['in'].mean():7.1f} ± {RAW['in'].std():4.1f} {RAW['out'].mean():7.1f} ± {RAW['out'].std():4.1f}")
for m in P.methods:
    d = R[m]
    print(f"{LABELS[m]:24s} " + " ".join(f"{d[k].mean():7.{3 if k == 'hsic' else 1}f} ± {d[k].std():4.{3 if k == 'hsic' else 1}f}"
                                      for k in ("in", "out", "dom", "hsic")))

# %%
names = list(P.methods)
xs = np.arange(len(names))
fig, axes = plt.subplots(1, 2, figsize=(11, 3.9), layout="constrained")
for ax, key, title in ((axes[0], "in", "in domain (D1-D3)"), (axes[1], "out", "held-out domain D4")):
    means = [R[m][key].mean() for m in names]
    ax.bar(xs, means, yerr=[R[m][key].std() for m in names], capsize=4,
           color=["C3" if m == "ms-udg" else "C0" for m in names], alpha=0.8)
    for i, m in enumerate(names):
        ax.plot(np.full(len(runs), i) + np.linspace(-0.15, 0.15, len(runs)), R[m][key], "k.", ms=4)
    ax.axhline(RAW[key].mean(), color="gray", ls="--", label="raw pixels")
    ax.axhline(10, color="gray", ls=":", label="chance")
    ax.set_xticks(xs, [LABELS[m] for m in names], rotation=25, ha="right", fontsize=8)
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
# The paper's numbers beside ours. The paper's headline is a PACS accuracy from a secondary summary; our
# miniature can only be compared in direction (MS-UDG above the best baseline on an unseen domain).

# %%
gap = R["ms-udg"]["out"].mean() - R["simclr"]["out"].mean()
print(f"{'setting':62s} {'MS-UDG acc. (%)':>16s} {'gain over baseline':>20s}")
print(f"{'paper (secondary summary, unverified): PACS, vs CycleMAE':62s} {'72.89':>16s} {'+1.5':>20s}")
print(f"{'ours: digits, held-out D4, 10% labels, vs SimCLR, ' + str(len(runs)) + ' runs':62s} "
      f"{R['ms-udg']['out'].mean():16.1f} {gap:+20.1f}")

# %% [markdown]
# There is no "Against the official code" section: the brief found no official repository for this paper.

# %%
TOL_ACC = tolerance(rel=0.1, abs=2.0, why="accuracy gaps in points, means over runs of trained float32 networks; "
                    "the end point of the Adam runs moves under other CPU kernels")
ctl = "InfoNCE on h_s only (MS-UDG-lite without its two minimality terms, same split encoder and probe)"
claims.check("ood-gain-over-simclr",
             statement="on the held-out domain D4, MS-UDG-lite's linear-probe accuracy exceeds SimCLR's by >= 2 "
             "points (mean over runs)",
             paper="MS-UDG beats SSL and UDG baselines on unseen domains: 72.89% on PACS, +1.5 over CycleMAE "
             "(secondary summary, unverified)",
             criterion=at_least(2.0), measured=float(R["ms-udg"]["out"].mean() - R["simclr"]["out"].mean()),
             control=float(R["infonce-half"]["out"].mean() - R["simclr"]["out"].mean()), control_label=ctl,
             tol=TOL_ACC)
claims.check("less-domain-information",
             statement="a domain classifier (D1/D2/D3) on the probed features is less accurate for MS-UDG-lite "
             "than for SimCLR: SimCLR's accuracy minus MS-UDG-lite's > 0 points",
             paper="minimality removes the variation (domain) information from the semantic representation",
             criterion=greater_than(0.0), measured=float(R["simclr"]["dom"].mean() - R["ms-udg"]["dom"].mean()),
             control=float(R["simclr"]["dom"].mean() - R["infonce-half"]["dom"].mean()), control_label=ctl,
             tol=TOL_ACC)
claims.check("halves-independent",
             statement="after training, nHSIC(h_s, h_v) of MS-UDG-lite is lower than nHSIC between the two halves "
             "of SimCLR's representation: SimCLR's minus MS-UDG-lite's > 0",
             paper="the disentanglement loss separates semantics from variation",
             criterion=greater_than(0.0), measured=float(R["simclr"]["hsic"].mean() - R["ms-udg"]["hsic"].mean()),
             control=float(R["simclr"]["hsic"].mean() - R["infonce-half"]["hsic"].mean()), control_label=ctl,
             tol=tolerance(rel=0.1, abs=0.03, why="kernel statistics of trained float32 networks"))

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **The central claim is not reproduced at this scale** (the record at seed 0 reads "partial": 1 of 2 counted
# claims): MS-UDG-lite does not generalise to the unseen domain clearly better than SimCLR, though its
# disentanglement term does what it is built to do. Claim by claim (the robustness table gives
# each claim's status at every seed of the sweeps):
#
# * *Out-of-domain gain* (pre-registered: D4 probe accuracy at least 2 points above SimCLR's). At ci (seed 0,
#   3 runs, 20 epochs) MS-UDG-lite reaches 16.8 ± 4.4% on D4 against SimCLR's 15.3 ± 3.4%, +1.5 points, below the
#   threshold and well inside the spread over runs; the control (InfoNCE on $h_s$ alone) gains exactly as much (+1.5). At full
#   scale (seed 0, 5 runs, 100 epochs) the gain is +1.6 points (18.7 ± 4.0% against 17.1 ± 6.2%), the control's
#   -0.5, the autoencoder's +0.1, and the two single-term ablations lose 3 to 4 points: MS-UDG-lite is the best
#   of the six on D4 at that seed, but by less than the pre-registered margin and by much less than its
#   standard deviation over runs. Over the ci sweep (seeds 0-9) the claim holds at 4 of 10 seeds, with a median
#   gain of +1.8 points and a range from -4.5 to +7.4: the sign of the gain is a draw, not an effect. In domain,
#   SimCLR stays ahead (58.1% against 48.5% at ci, 59.5% against 56.3%
#   at full), partly because its probe sees all 64 dimensions and MS-UDG-lite's only the 32 of $h_s$.
# * *Less domain information* (SimCLR's domain-classifier accuracy minus MS-UDG-lite's > 0): uninformative. Every
#   representation, and the raw pixels, tell D1, D2 and D3 apart almost perfectly (98.5-99.8%): an inverted or
#   textured digit differs from the original in a way that no representation of ours removes, and the small
#   positive differences (0.9 points at ci, 0.07 at full) are also found for the control, at every seed of the
#   ci sweep.
# * *Independent halves* (nHSIC between the two halves lower for MS-UDG-lite than for SimCLR): reproduced at seed 0, with a
#   control that fails. MS-UDG-lite's $h_s$ and $h_v$ have an nHSIC of 0.21 at ci (0.30 at full) against 0.93 for
#   SimCLR's two halves and 0.94 for the control's. Over the ci sweep the measured difference is 0.71 to 0.84 at
#   every seed, but the brief's criterion ("lower", > 0) lets the control pass by noise: SimCLR's halves and the
#   control's differ by -0.006 to +0.029, above 0 at 8 of 10 seeds, so the claim counts (reproduced) at seeds 0
#   and 5 only and is uninformative at the others. The effect is large and stable; the pre-registered criterion
#   was too weak to separate it from its control, and we leave it as it was. This is the loss doing its job on
#   held-out images, not yet evidence that the semantic half is more *semantic*.
#
# The full-scale sweep (seed 0 only: a full run took 15-18 minutes on our shared, loaded two-core machine) gives
# the statuses quoted above: out-of-domain gain not reproduced, domain information uninformative, independent
# halves reproduced.
#
# The best explanation is the held-out domain. D4 is far from anything the views produce: the diagnostic figure
# shows the probe losing half its accuracy to the 15-degree rotation alone (an MLP on 8x8 pixels has no notion of
# rotation, and no augmentation of ours rotates), and the blur and contrast change take every method to 15-19%,
# just above chance, where differences of 1-2 points are noise of the 126-label probe. At ci, MS-UDG-lite keeps
# more accuracy than SimCLR after the rotation alone (38% against 29%), a hint that the minimality terms help
# against a moderate shift, but that is a diagnostic we did not pre-register, so it is not a claim. The
# disentanglement makes $h_s$ independent of $h_v$ in the kernel sense, yet $h_s$ still carries the domain
# almost perfectly: independence of the two halves does not imply that the domain went into $h_v$, because the
# InfoNCE views (Fourier amplitude mixing, shift, noise) never change the domain-defining properties
# (inversion, grating), so nothing tells the encoder that those are variation rather than semantics.
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
