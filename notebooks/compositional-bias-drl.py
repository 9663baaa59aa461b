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
# # Compositional bias for disentanglement: remix the latents, ask the remix to look real and to read back
#
# *If an autoencoder's latent blocks are remixed between images by the rule that each factor takes one value
# per image, and every remix must decode to a realistic image whose code is the remix itself, the blocks
# should line up with the factors, with no change to the network. Here: procedural sprites, an MLP autoencoder,
# and the DCI disentanglement score against a plain autoencoder and a β-VAE with the same training budget.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
import torch

from repro.claims import Claims, at_least, at_most, tolerance
from repro.papers import compositional_bias_drl as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    "ci": dict(steps=150, prior_steps=150, n_seeds=2, n_estimators=10, n_pairs=60),
    "full": dict(steps=3000, prior_steps=3000, n_seeds=3, n_estimators=100, n_pairs=200),
})
# settings shared by both scales
K_BLOCKS, D_BLOCK, HIDDEN, BATCH, LR, BETA = 4, 2, 128, 64, 2e-3, 4.0
LAM_PRIOR, LAM_CONS, PRIOR_LATENT = 1.0, 1.0, 8
plt.rcParams["savefig.dpi"] = 80
claims = Claims("compositional-bias-drl",
                title="Disentangled Representation Learning via Modular Compositional Bias",
                authors="Whie Jung, Dong Hoon Lee, Seunghoon Hong",
                paper_url="https://arxiv.org/abs/2510.21402", scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# Methods for disentangled representation learning usually build their assumption about the factors into the
# model. Attribute methods (β-VAE and relatives) add a statistical-independence objective. Object methods (slot
# attention) add an architecture with spatially exclusive slots. Jung, Lee and Hong argue that one bias covers
# both, and it lives in neither the objective nor the architecture. It is a *mixing strategy*: a rule for
# recombining the latents of two images into a new latent that should also describe a real image. Global
# attributes are mutually exclusive (a sprite has one colour), so each attribute block of the remix comes from
# exactly one of the two images. Objects share a support (any subset of objects can appear together), so a remix
# of objects is any subset of the union of the two images' slots. Two losses make the encoder discover the factor
# structure that the rule reflects:
#
# 1. a **prior loss**: every remix must decode to a realistic image;
# 2. a **compositional consistency loss** (from Wiedemer et al.): encoding the decoded remix must return the
#    remix.
#
# The paper reports disentanglement competitive with attribute and object methods, and joint disentanglement
# of global style and objects. **Numbers.** Our brief did not retrieve any score from the paper (it names
# Shapes3D and CLEVR). So the thresholds below come from the brief, fixed before the first run, and the paper
# column of the table is qualitative.
#
# ## The method
#
# Encoder $E$ and decoder $D$ are a plain autoencoder. Its code $z = (z_1,\dots,z_K)$ is $K = 4$ blocks of $d = 2$
# dimensions. A batch is paired with itself rolled by half a batch, as in the authors' earlier slot-mixing code. For
# each image $i$ and block $k$, a fair coin $m_{ik}$ picks the source:
#
# $$z^{mix}_{ik} = m_{ik}\, z^{a}_{ik} + (1 - m_{ik})\, z^{b}_{ik}.$$
#
# The loss per batch is
#
# $$\mathcal L = \underbrace{\|D(E(x)) - x\|^2}_{\text{reconstruction}}
#   + \lambda_p\, \underbrace{\ell_{prior}\big(D(z^{mix})\big)}_{\text{prior}}
#   + \lambda_c\, \underbrace{\frac{\|E(D(z^{mix})) - \mathrm{sg}(z^{mix})\|^2}{\mathrm{tr}\,\widehat{\mathrm{Cov}}(z^{mix})}}_{\text{consistency}},$$
#
# with $\mathrm{sg}$ the stop-gradient and $\lambda_p = \lambda_c = 1$. The paper's prior is a generative model of
# real images. Ours is a small VAE ($\beta = 1$, 8 latent dimensions) pretrained on the real sprites and then
# frozen. $\ell_{prior}$ is its negative ELBO, computed at the encoder mean. We divide the consistency term by the
# total variance of the remixed codes, so that shrinking the code cannot lower it. The object rule
# (`K.mix_objects`: a random $K$-subset of the $2K$ slots) is implemented and unit-tested, but not trained here.
#
# **Evaluation.** The DCI disentanglement score (Eastwood & Williams). One gradient-boosted tree classifier per
# factor, fitted on the codes of all 432 sprites, gives an importance matrix $R$ (code dimensions × factors). Then
#
# $$D = \sum_i \rho_i\,\big(1 - H_{4}(R_{i\cdot}/\textstyle\sum_j R_{ij})\big),\qquad \rho_i = \sum_j R_{ij} / \sum_{ij} R_{ij}.$$
#
# $D = 1$ when every dimension matters for one factor only. MIG is reported beside it. A **swap test** probes the
# blocks directly. Take two sprites that differ in every factor, and decode the first one's code with one block
# taken from the second. Then count how many factors change, read by the nearest clean sprite in pixel space. A
# disentangled code changes exactly one factor per block swap.
#
# ## The experiment
#
# **Data.** 16 × 16 RGB sprites drawn in code: background hue (4) × shape (square, disk, triangle) × object colour
# (4) × position on a 3 × 3 grid (9), all 432 combinations, no noise. Models train on all of them (the measure is
# disentanglement, not generalisation).
#
# **Methods, with the same network (MLP 768–128–128–8 and back) and the same budget.** Each trains for `steps`
# Adam steps (learning rate 2e-3) on batches of 64, from the same initialisation seed:
#
# - *plain AE*: reconstruction only. Its remixes' prior and consistency losses are recorded, not optimised;
# - *β-VAE* (β = 4): the standard attribute baseline. Its code is the encoder mean;
# - *mixing*: AE + attribute mixing + prior + consistency. It also uses the frozen prior VAE, trained once
#   beforehand for `prior_steps` steps. That is extra compute the baselines do not get.
#
# Each method runs for `n_seeds` seeds (seed, seed + 1, ...: initialisation and batches). The page reports mean
# and standard deviation. ci: 150 steps, 2 seeds, DCI with 10 trees per factor. Full: 3000 steps, 3 seeds, DCI with
# the standard 100 trees (`K.dci_disentanglement` exactly).
#
# **Deviations from the paper**
#
# - **Data**: procedural 16 × 16 sprites with 4 factors, instead of Shapes3D, MPI3D, CLEVR-style scenes and real
#   images. Only the attribute rule is trained; the object and joint (style + objects) settings are not run.
# - **Architecture**: a 2-layer MLP autoencoder with 8 latent dimensions, instead of the paper's encoders and
#   decoders.
# - **Prior loss**: negative ELBO under a frozen small VAE trained on the same sprites, instead of the paper's
#   generative prior (the authors' earlier work uses a diffusion model and score distillation; the form used in
#   this paper was not retrieved).
# - **Consistency loss** normalised by the variance of the remixed codes, with the target detached (our choices;
#   the official code was not available).
# - **Loss weights** $\lambda_p = \lambda_c = 1$, learning rate 2e-3, batch 64: our defaults, not tuned; the
#   paper's values were not retrieved.
# - **Budget**: 150 (ci) or 3000 (full) steps. The paper trains for far longer on GPUs.
# - **DCI at ci** uses 10 trees per factor instead of disentanglement_lib's 100, and fits on all 432 codes with no
#   train/test split, because only the importances are used.

# %% [markdown]
# First the frozen prior, then the three methods for every seed.

# %%
imgs, factors = K.sprite_grid()
X = torch.tensor(imgs)
prior = K.train_prior_vae(X, P.prior_steps, latent=PRIOR_LATENT, batch=BATCH, lr=LR, seed=P.seed + 1000)
with torch.no_grad():
    g = torch.Generator().manual_seed(P.seed)
    i, j = torch.randint(0, len(X), (200,), generator=g), torch.randint(0, len(X), (200,), generator=g)
    elbo_real = float(K.negative_elbo(prior, X[i], sample=False).mean())
    elbo_blend = float(K.negative_elbo(prior, 0.5 * X[i] + 0.5 * X[j], sample=False).mean())
print(f"prior VAE, negative ELBO: real sprites {elbo_real:.1f}, 50/50 pixel blends of two sprites {elbo_blend:.1f}")

METHODS = ("plain AE", "β-VAE", "mixing")
KIND = {"plain AE": "ae", "β-VAE": "beta-vae", "mixing": "mix"}
seeds = [P.seed + s for s in range(P.n_seeds)]
models, hists, codes, R = {}, {}, {}, {}
for s in progress(seeds, desc="seeds"):
    for m in METHODS:
        torch.manual_seed(s)
        net = K.BlockAE(k=K_BLOCKS, d=D_BLOCK, hidden=HIDDEN, variational=(m == "β-VAE"))
        hists[m, s] = K.train_model(net, X, KIND[m], P.steps, batch=BATCH, lr=LR, beta=BETA,
                                    prior=None if m == "β-VAE" else prior,
                                    lam_prior=LAM_PRIOR, lam_cons=LAM_CONS, seed=s)
        models[m, s] = net
        codes[m, s] = K.codes_of(net, X)
        R[m, s] = K.dci_importance(codes[m, s], factors, n_estimators=P.n_estimators)

# %%
dci = {k: K.dci_from_importance(r) for k, r in R.items()}
D = {m: np.array([dci[m, s][0] for s in seeds]) for m in METHODS}
C = {m: np.array([dci[m, s][1] for s in seeds]) for m in METHODS}
MIG = {m: np.array([K.mig(codes[m, s], factors) for s in seeds]) for m in METHODS}
# null model: the mixing model's own codes under a random rotation of all 8 dimensions
D_rot = np.array([K.dci_from_importance(K.dci_importance(codes["mixing", s] @ K.random_rotation(8, s), factors,
                                                         n_estimators=P.n_estimators))[0] for s in seeds])
swaps = {(m, s): K.swap_test(models[m, s], X, factors, P.n_pairs, seed=s) for m in METHODS for s in seeds}
one = {m: np.array([np.mean(swaps[m, s] == 1) for s in seeds]) for m in METHODS}
recon = {m: np.array([np.mean(hists[m, s]["recon"][-max(1, P.steps // 10):]) for s in seeds]) for m in METHODS}
print(f"{'method':<10}{'DCI-D':>15}{'DCI-C':>15}{'MIG':>15}{'swaps: 1 factor':>18}{'recon SSE':>12}")
for m in METHODS:
    print(f"{m:<10}{D[m].mean():>9.3f} ± {D[m].std():.3f}{C[m].mean():>9.3f} ± {C[m].std():.3f}"
          f"{MIG[m].mean():>9.3f} ± {MIG[m].std():.3f}{one[m].mean():>12.3f} ± {one[m].std():.3f}{recon[m].mean():>12.2f}")
print(f"mixing, codes randomly rotated: DCI-D {D_rot.mean():.3f} ± {D_rot.std():.3f}")

# %% [markdown]
# ## Results
#
# ### Disentanglement scores
#
# DCI disentanglement and MIG per method: the bar is the mean over seeds, the whisker ±1 standard deviation,
# the dots the seeds. The grey bar is the null model, the mixing model's codes after a random rotation of all
# eight dimensions. The dashed line is the brief's target: the plain AE's mean plus 0.10.

# %%
fig, axes = plt.subplots(1, 3, figsize=(12, 3.4))
labels = list(METHODS) + ["mixing, rotated"]
for ax, (name, vals) in zip(axes, (("DCI disentanglement", {**D, "mixing, rotated": D_rot}),
                                   ("MIG", MIG), ("single-block swaps changing exactly 1 factor", one))):
    keys = [k for k in labels if k in vals]
    for x, k in enumerate(keys):
        v = vals[k]
        ax.bar(x, v.mean(), yerr=v.std(), color="0.7" if "rotated" in k else f"C{x}", capsize=4, alpha=0.8)
        ax.scatter(np.full(len(v), x), v, color="k", s=12, zorder=3)
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels(keys, rotation=20, fontsize=8)
    ax.set_ylabel(name + (" (fraction)" if "swap" in name else " (0-1, unitless)"), fontsize=8)
axes[0].axhline(D["plain AE"].mean() + 0.10, ls="--", color="k", lw=1, label="AE + 0.10 (brief's target)")
axes[0].legend(fontsize=7)
axes[2].axhline(0.6, ls="--", color="k", lw=1, label="0.6 (brief's target)")
axes[2].legend(fontsize=7)
plt.show()

# %% [markdown]
# ### Importance matrices
#
# The DCI importance matrix $R$ of each method at the first seed: rows are the 8 code dimensions (grouped in
# 4 blocks of 2), columns the 4 factors. Each column sums to 1. A disentangled code has one bright cell per row,
# and the two rows of one block point at the same factor.

# %%
fig, axes = plt.subplots(1, 3, figsize=(10, 3.6))
for ax, m in zip(axes, METHODS):
    h = ax.imshow(R[m, seeds[0]], cmap="viridis", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(4))
    ax.set_xticklabels(["bg hue", "shape", "colour", "position"], fontsize=8, rotation=20)
    ax.set_yticks(range(8))
    ax.set_yticklabels([f"block {i // 2 + 1}, dim {i % 2 + 1}" for i in range(8)], fontsize=7)
    ax.set_title(f"{m}: D = {dci[m, seeds[0]][0]:.2f}", fontsize=9)
    for b in (1.5, 3.5, 5.5):
        ax.axhline(b, color="w", lw=0.5)
fig.colorbar(h, ax=axes, fraction=0.02, label="importance (fraction of a factor's total)")
plt.show()

# %% [markdown]
# ### Latent traversals
#
# One sprite, each code dimension of the mixing model (rows) swept over its 2nd–98th percentile (columns), all
# other dimensions fixed. A disentangled dimension changes one attribute along its row.

# %%
net = models["mixing", seeds[0]]
trav = K.traversal(net, X[0], codes["mixing", seeds[0]], steps=7)
fig, axes = plt.subplots(8, 7, figsize=(5.6, 6.6))
for r in range(8):
    for c in range(7):
        axes[r, c].imshow(trav[r, c].permute(1, 2, 0).numpy())
        axes[r, c].set_xticks([])
        axes[r, c].set_yticks([])
    axes[r, 0].set_ylabel(f"b{r // 2 + 1}d{r % 2 + 1}", fontsize=7)
for c in range(7):
    axes[-1, c].set_xlabel(f"{c / 6:.2f}", fontsize=7)
fig.suptitle("mixing model: traversal (x: quantile position from 2nd to 98th percentile)", fontsize=9)
plt.show()

# %% [markdown]
# ### Remixes and training
#
# Left: remixes decoded by the mixing model and by the plain AE. Each pair of images (columns a and b) gives
# four remixes, with blocks 1–4 taken from b in turn. Right: the three loss terms of the mixing model per step,
# with the prior and consistency losses of the plain AE's remixes recorded alongside (smoothed over 5% of the
# steps, mean over seeds).

# %%
fig = plt.figure(figsize=(12, 3.6))
gs = fig.add_gridspec(2, 8, width_ratios=[1] * 6 + [0.3, 4])
rng_pairs = np.random.default_rng(P.seed)
pa, pb = rng_pairs.integers(0, len(X), 2)
for row, m in enumerate(("mixing", "plain AE")):
    net = models[m, seeds[0]]
    with torch.no_grad():
        za, zb = net.encode(X[[pa]]), net.encode(X[[pb]])
        tiles = [X[pa], X[pb]]
        for k in range(4):
            mask = torch.ones(1, 4, dtype=torch.bool)
            mask[0, k] = False
            tiles.append(net.decode(K.mix_attributes(za, zb, mask))[0])
    for c, (t, name) in enumerate(zip(tiles, ["a", "b", "swap b1", "swap b2", "swap b3", "swap b4"])):
        ax = fig.add_subplot(gs[row, c])
        ax.imshow(t.permute(1, 2, 0).numpy())
        ax.set_xticks([])
        ax.set_yticks([])
        if row == 0:
            ax.set_title(name, fontsize=7)
        if c == 0:
            ax.set_ylabel(m, fontsize=7)
ax = fig.add_subplot(gs[:, 7])
w = max(1, P.steps // 20)


def smooth(v):
    return np.convolve(v, np.ones(w) / w, mode="valid")


for key, ls in (("recon", "-"), ("prior", "--"), ("cons", ":")):
    for m, col in (("mixing", "C2"), ("plain AE", "C0")):
        v = np.mean([hists[m, s][key] for s in seeds], axis=0)
        tag = " (recorded)" if m == "plain AE" and key != "recon" else ""
        ax.plot(smooth(v), ls=ls, color=col, label=f"{m}: {key}{tag}")
ax.set_yscale("log")
ax.set_xlabel("optimiser step")
ax.set_ylabel("loss (squared error per image; consistency relative)")
ax.legend(fontsize=6, ncol=2)
plt.show()

# %% [markdown]
# ### Side by side with the paper
#
# The brief found no scores from the paper, so its column is qualitative. Each row: method | the paper
# (Shapes3D/CLEVR-scale, qualitative) | our DCI-D, mean ± sd over seeds | our MIG, at this page's scale.

# %%
paper_col = {"plain AE": "not reported (no disentanglement expected)",
             "β-VAE": "attribute baseline; the method is competitive or better (no number retrieved)",
             "mixing": "competitive attribute disentanglement (no number retrieved)"}
for m in METHODS:
    print(f"| {m} | {paper_col[m]} | {D[m].mean():.3f} ± {D[m].std():.3f} | {MIG[m].mean():.3f} ± {MIG[m].std():.3f} |")

# %% [markdown]
# ## Against the official code
#
# The paper's repository, [whieya/Compositional-DRL](https://github.com/whieya/Compositional-DRL), could not be
# fetched here, and it is not in the index. Its training code, prior and consistency loss could not be read or
# run. Two official pieces of the same pipeline were run instead, outside the project, with the project's
# Python on one thread (`tests/papers/golden/compositional-bias-drl.json`):
#
# - **The metric**: `compute_importance_gbt`, `disentanglement` and `completeness` from
#   [google-research/disentanglement_lib](https://github.com/google-research/disentanglement_lib) (commit
#   `86a644d`), the reference implementation of DCI. Only `absl`, `gin` and `six` were stubbed. On seeded codes
#   (300 samples, 4 codes, 2 factors) our `dci_importance` gives the same importance matrix to 1e-6, and the same
#   disentanglement (0.887) and completeness (0.839). On a fixed matrix, `dci_from_importance` matches to 1e-12.
#   One detail matters. The official classifiers have no `random_state` and draw from numpy's global state, which
#   breaks ties between equal splits. We pass one seeded `RandomState` shared by all factors, the same stream.
#   Without it, the importances differ by up to 2e-3.
# - **The remix**: `random_mix` from the authors' earlier slot-mixing paper
#   ([whieya/Learning-to-compose](https://github.com/whieya/Learning-to-compose), commit `93b71a9`). We
#   extracted it unchanged from its class, since the module imports diffusers. Our `random_block_mask` +
#   `mix_attributes` give the same mask and the same mixed slots, exactly, from the same seed.
#
# **Departures that cannot be checked:** the prior (a frozen VAE's ELBO here), the normalised consistency
# loss, the loss weights, the architecture and the data (see "Deviations from the paper").

# %%
DCI_TOL = tolerance(abs=0.08, why="DCI of codes after a few hundred to a few thousand Adam steps and a "
                                   "tree ensemble fitted on them: moves with float rounding across machines")
FRAC_TOL = tolerance(abs=0.1, why="fraction of swaps judged on decoded images of a trained network")
RATIO_TOL = tolerance(abs=0.15, why="ratio of mean losses over stretches of a stochastic training run")
gain = float(D["mixing"].mean() - D["plain AE"].mean())
claims.check("dci-gain-over-ae",
             statement="Mean DCI disentanglement (over seeds) of the mixing model exceeds that of the plain "
                       "autoencoder trained with the same network and budget by at least 0.10.",
             paper="Mixing attribute latents with prior and consistency losses disentangles attributes without "
                   "changing the architecture (competitive scores; no number retrieved). Threshold from the brief.",
             criterion=at_least(0.10), measured=round(gain, 3),
             control=round(float(D_rot.mean() - D["plain AE"].mean()), 3),
             control_label="null model: the mixing model's own codes after a random rotation of all 8 dimensions",
             tol=DCI_TOL)
claims.check("swap-changes-one-factor",
             statement="Swapping one latent block between two sprites that differ in every factor changes exactly "
                       "one factor of the decoded sprite in at least 60% of swaps (mean over seeds).",
             paper="Each block of the mixing model captures one factor, so block swaps edit one attribute "
                   "(qualitative; threshold from the brief).",
             criterion=at_least(0.6), measured=round(float(one["mixing"].mean()), 3),
             control=round(float(one["plain AE"].mean()), 3),
             control_label="plain autoencoder (same network and budget, no mixing)", tol=FRAC_TOL)
n10 = max(1, P.steps // 10)


def worst_ratio(m):
    """Largest (last 10% of steps)/(first 10%) ratio of the prior and consistency losses, mean over seeds."""
    return max(np.mean([np.mean(hists[m, s][k][-n10:]) / np.mean(hists[m, s][k][:n10]) for s in seeds])
               for k in ("prior", "cons"))


claims.check("mixing-losses-decrease",
             statement="Training lowers both mixing losses: the prior and consistency losses over the last 10% of "
                       "steps are at most 0.8 times those over the first 10% (worst of the two, mean over seeds).",
             paper="The prior and consistency losses can be met jointly by an unchanged autoencoder (the method's "
                   "premise; brief's check 1).",
             criterion=at_most(0.8), measured=round(worst_ratio("mixing"), 3),
             control=round(worst_ratio("plain AE"), 3),
             control_label="the same losses recorded on the plain autoencoder's remixes (not optimised)",
             tol=RATIO_TOL)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Not reproduced at this scale.** Remixing the blocks of an MLP autoencoder's code, with a frozen-VAE prior
# and a consistency loss, did not disentangle the four sprite factors, at either scale.
#
# - **DCI gain over the plain AE (brief's threshold 0.10): not reproduced.** At ci (150 steps, 2 seeds) the
#   mixing model's mean DCI disentanglement is 0.016 *below* the plain AE's. At full scale (3000 steps, 3 seeds,
#   the standard 100-tree DCI) it is 0.026 above: 0.140 ± 0.004 against 0.114 ± 0.020 (mean ± sd over seeds), with
#   the β-VAE (β = 4) at 0.067 ± 0.019. The null model makes the size of that gain clear. The mixing model's own
#   codes, randomly rotated, score 0.121 ± 0.020, so almost nothing of the small gain is axis- or block-aligned
#   structure. All DCI values here are low (≤ 0.15). On this data none of the three methods, with this network and
#   budget, separates background, shape, colour and position into different dimensions.
# - **Single-block swaps changing exactly one factor (threshold 0.6): not reproduced.** The mixing model
#   managed 0.0 at ci and 0.136 ± 0.043 at full scale, *below* the plain AE (0.233 ± 0.006). Its remixes
#   (figure above) change several attributes at once, or blur them.
# - **Both mixing losses fall during training (at most 0.8 × their starting level).** At ci this is
#   *uninformative*: after 150 steps the ratio is 0.185, but the plain AE's remixes, which never see these losses,
#   improve just as much (0.13), because any autoencoder that starts to reconstruct also makes its remixes look
#   less like noise. At full scale it is **reproduced**: the mixing model ends at 0.643 of its starting level,
#   while the AE's remix losses grow to 2.3 times theirs. So the two losses are learnable by an unchanged
#   autoencoder, and they do shape its remixes. They did not, however, produce disentanglement.
#
# **The best explanation is our prior, not the mixing rule.** The line printed before training compares the
# prior VAE's negative ELBO on real sprites with that on 50/50 pixel blends of two sprites. At full scale the blends
# score *better* (20.7 against 30.9 for real sprites). A VAE with a squared-error decoder and an 8-dimensional
# code finds low-contrast blends easier to explain than sharp sprites. A prior that prefers blends rewards the
# entangled remixes that the method is meant to rule out. The paper relies on a strong generative prior, and our
# stand-in is too weak a judge of realism. Whether the compositional bias works, given a prior that rejects
# blends, remains open on this page. The gain was not shown at full scale either, so "needs full scale" is not
# the explanation. The training length (3000 steps) and the untuned loss weights are further suspects.
#
# **Over seeds** (robustness table above; each ci seed draws new initialisations and batches for all methods and
# for the prior). At ci, over ten seeds, the DCI gain over the AE ranges from −0.11 to +0.04 (median −0.06). The
# mixing model's swaps never change exactly one factor (0.0 at every seed), while the AE's change one in
# 0.18–0.35 of them. The loss-decrease claim is uninformative at every seed: the mixing model's ratio is
# 0.08–0.22, the AE's recorded one 0.07–0.28. The full-scale run (seed 0, three training seeds inside) gives
# the statuses above. It took 18.5 minutes of wall time on the shared machine (load around 10 on 2 cores),
# an estimated 4 minutes on a quiet core.
#
# ## What the miniature cannot show
#
# - **The paper's datasets and scores.** No DCI, MIG or FactorVAE value from the paper was retrieved, and
#   16 × 16 sprites with four factors are far from Shapes3D, MPI3D or CLEVR.
# - **Objects and the joint setting.** The object rule (any subset of two images' slots) is implemented and
#   unit-tested, but no slot model is trained here. The paper's distinctive result, disentangling global style and
#   objects at once, is not tested.
# - **The paper's prior.** A frozen 8-dimensional VAE on 432 images separates real sprites from blends only
#   weakly (see the printed ELBOs). A strong generative prior is what makes an unrealistic remix costly. Our
#   miniature tests the idea with a much weaker judge of realism.
# - **Training length.** The method has to find, from a random start, a grouping of dimensions under which every
#   remix is a real image. Our budget (hundreds to thousands of CPU steps) may be far too short for that search.
