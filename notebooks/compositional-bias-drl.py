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
# and the DCI disentanglement score against the same method without the remix or with a per-dimension remix, a
# plain autoencoder, a plain VAE, a β-VAE, PCA and ICA.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
import torch

from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, tolerance
from repro.papers import compositional_bias_drl as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # ci: about 18 s of CPU time on one thread, comparators and figures included (the wall-clock time of a run on
    # a loaded shared machine is longer: the CPU time is the measure of its cost)
    "ci": dict(steps=150, prior_steps=150, n_seeds=2, n_estimators=10, n_pairs=60, kde_row=False),
    "full": dict(steps=3000, prior_steps=3000, n_seeds=3, n_estimators=100, n_pairs=200, kde_row=True),
})
# settings shared by both scales
K_BLOCKS, D_BLOCK, HIDDEN, BATCH, LR, BETA = 4, 2, 128, 64, 2e-3, 4.0
LAM_PRIOR, LAM_CONS, PRIOR_LATENT, KDE_BANDWIDTH = 1.0, 1.0, 8, 0.7
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
# (4) × position on a 3 × 3 grid (9), all 432 combinations, no noise. Every model trains on all of them (the
# measure is disentanglement, not generalisation).
#
# **The method and its comparators, with the same network (MLP 768–128–128–8 and back) and the same budget.**
# Each network trains for `steps` Adam steps (learning rate 2e-3) on batches of 64, from the same initialisation
# seed:
#
# - *mixing* (the paper's method): AE + attribute mixing + prior + consistency. It uses the frozen prior VAE,
#   trained once beforehand for `prior_steps` steps, extra compute the others do not get (except the ablation).
# - *no remix* (the **ablation**): the same network, the same prior VAE and the same two losses, applied to each
#   image's own code ($z^{mix} = z$: every block from the image itself) instead of a remix of two images. It
#   leaves out the compositional bias itself, the mixing strategy, and keeps the objectives; it sees the same
#   batches as the mixing model.
# - *per-dimension remix* (a second ablation, added after the independent review): the mixing model with every
#   latent **dimension**, not every block, drawn from one of the two images (`K.mix_dimensions`). It keeps the
#   remix, the prior and the consistency loss and leaves out the rule's grouping: that all dimensions of one
#   factor's block take their value from the same image. It sees the same batches. It is recorded beside the
#   naive baselines (the claim record holds one ablation per test).
# - *plain AE*: reconstruction only. The prior and consistency losses of its remixes are recorded, not optimised.
#   It is the reference of the brief's DCI threshold and a naive baseline of the swap test.
# - *β-VAE* ($\beta = 4$, the brief's value): the standard attribute baseline, with the statistical-independence
#   objective the paper says it does without. Its code is the encoder mean. At ci its posterior collapses (its
#   codes barely move between images, see "Results"), so there it is a strawman, not a competitor; it is kept
#   for the full scale, where it trains twenty times longer.
# - *plain VAE* ($\beta = 1$, added after the independent review): the same variational network with the
#   ordinary ELBO, less pressure towards independence and less towards collapse than $\beta = 4$.
# - *PCA* and *ICA* (naive baselines a skeptic tries first, `K.fit_linear_code`): the leading 8 principal
#   components of the pixels, or 8 FastICA sources (scikit-learn, unit-variance whitening), as 4 blocks of 2
#   consecutive components, decoded by the inverse linear map. No training loop, no network.
#
# Each network runs for `n_seeds` training seeds (initialisation and batches): page seed $s$ uses the training
# seeds $s\,n, \dots, s\,n + n - 1$ with $n$ = `n_seeds`, so no two seeds of a sweep share a training run. (Changed
# at the review: before, page seed $s$ used $s, s + 1, \dots$, so neighbouring sweep seeds shared a run and the
# last design seed reached into the confirmation seeds. Now the design seeds 0–9 train on seeds 0–19 at ci and the
# confirmation seeds 10–19 on seeds 20–39. Page seed 0 is unchanged; the tests' method, setting and criteria are
# unchanged.) ICA is fitted from the same training seeds. PCA is deterministic and the DCI's tree
# ensembles take one fixed seed, so PCA's DCI is the same number at every seed: its gain over the plain AE moves
# only with the plain AE. The page reports mean and standard deviation over the training seeds. ci: 150 steps,
# 2 training seeds, DCI with 10 trees per factor. Full: 3000 steps, 3 training seeds, DCI with the standard 100
# trees (`K.dci_disentanglement` exactly).
#
# **Did the networks learn the sprites at all?** Two diagnostics, not tests, read every score below. The
# *read-back* (`K.readback_accuracy`): the share of sprites whose own reconstruction $D(E(x))$ is read back, by
# the nearest-sprite reader of the swap test, as the same sprite (1 for a network that reconstructs; $1/432$ for
# one whose every output is the same image). The *code spread* (`K.code_spread`): the mean standard deviation of
# each code dimension over the 432 sprites (near 0 when the encoder has collapsed). An *untrained network* (the
# same MLP at its initialisation) gives the floor of the DCI score. A swap share of 0 with a read-back near
# $1/432$ means a network that has not learned, not entangled blocks.
#
# **A second prior (not counted).** Our VAE prior is a stand-in for the paper's generative prior, and a weak one:
# at ci it collapses itself (its read-back, code spread and KL are printed below and quoted in the verdict).
# The first printed line below scores three kinds of image under it. At ci it scores the mean image of all
# sprites, the image a collapsed decoder outputs, far better than real sprites, and 50/50 blends of two sprites
# better too.
# The mixing model is also trained with a kernel density prior over the 432 real sprites (`K.kde_prior_loss`,
# bandwidth $h = 0.7$: about the squared distance to the nearest real sprite), which rejects both the mean image
# and blends. It is shown beside the tests as a robustness row, at full scale only. It was not run at ci: there
# no network, the plain AE without any prior included, learns to reconstruct the sprites, so a second prior has
# nothing to show, and the ci budget has no room for a fifth network.
#
# **Tests** (thresholds from the brief, fixed before the page first ran; the comparators were added when the
# page moved to the current claim model, the method, its setting and the criteria unchanged; both tests are
# pre-registered):
#
# 1. *DCI gain* (`dci-gain-over-ae`): mean DCI disentanglement minus the plain AE's, at least $0.10$. The
#    comparators are measured the same way: the ablation's, the β-VAE's, PCA's, ICA's (and, since the review, the
#    per-dimension remix's and the plain VAE's) DCI minus the plain
#    AE's.
# 2. *Single-block swaps* (`swap-changes-one-factor`): the share of single-block swaps that change exactly one
#    factor, at least $0.6$ (mean over seeds); for the ablation, the plain AE, the β-VAE, PCA and ICA alike (and,
#    since the review, the per-dimension remix and the plain VAE). The comparators added at the review leave
#    each test's method, measurement and criterion unchanged; they can only make a pass harder.
#
# **Not counted.** *The mixing losses fall* (`mixing-losses-decrease`, the brief's check 1): the worse of the
# prior and consistency losses of the remixes, over the last 10 % of steps against the first 10 %, at most $0.8$.
# It was a test on the page before the review; it is now an implementation check of the training loop. A falling
# loss is what any optimiser of it shows, and it is no evidence of disentanglement: the remix losses recorded on
# the plain AE, which never optimises them, fall below the bar too, and a decoder that collapses towards the mean
# image lowers our prior loss (see above). The plain AE's recorded ratio is quoted beside it in the verdict. *The mixing model
# learns the sprites* (`mixing-reads-back-sprites`): its read-back at least $0.5$ (half of the sprites come back
# as themselves), a diagnostic of the training budget, recorded as an illustration so that the sweep counts it.
#
# **Deviations from the paper**
#
# - **Data**: procedural 16 × 16 sprites with 4 factors, instead of Shapes3D, MPI3D, CLEVR-style scenes and real
#   images. Only the attribute rule is trained; the object and joint (style + objects) settings are not run.
# - **Architecture**: a 2-layer MLP autoencoder with 8 latent dimensions, instead of the paper's encoders and
#   decoders.
# - **Prior loss**: negative ELBO under a frozen small VAE trained on the same sprites, instead of the paper's
#   generative prior (the authors' earlier work uses a diffusion model and score distillation; the form used in
#   this paper was not retrieved). A kernel density prior is run as a second configuration.
# - **Consistency loss** normalised by the variance of the remixed codes, with the target detached (our choices;
#   the official code was not available).
# - **Loss weights** $\lambda_p = \lambda_c = 1$, learning rate 2e-3, batch 64: our defaults, not tuned; the
#   paper's values were not retrieved.
# - **Budget**: 150 (ci) or 3000 (full) steps. The paper trains for far longer on GPUs. The prior VAE trains for
#   `prior_steps`, also 150 at ci (3000 at full): at ci it is barely trained either.
# - **DCI at ci** uses 10 trees per factor instead of disentanglement_lib's 100, and fits on all 432 codes with no
#   train/test split, because only the importances are used.
# - **Swap test**: a design of the brief, not a measurement of the paper or its official code (the paper reports
#   disentanglement scores; no swap count was retrieved). Where the brief reads the changed factors with a
#   factor classifier trained on real images, we read them with the nearest clean sprite in pixel space
#   (`K.nearest_factors`), exact on clean sprites and defined for any decoded image. Swaps are drawn only
#   between sprites that differ in every factor, one block of the first image's code replaced by the second's,
#   and the factors read on the swap are compared with those read on the first image's own reconstruction, not
#   with its true factors. 60 pairs (ci) or 200 (full) per training seed; the bar $0.6$ and the plain AE's
#   $0.3$ of the brief became one bar for every comparator.
# - **Comparators** are ours: the ablation without the remix, the per-dimension remix, the plain VAE, PCA and ICA, and the plain AE's recorded remix
#   losses. The paper compares with VAE-, GAN- and diffusion-based disentanglement methods and object-centric
#   models (no numbers retrieved).

# %% [markdown]
# First the frozen prior, then every method for every seed.

# %%
imgs, factors = K.sprite_grid()
X = torch.tensor(imgs)
prior = K.train_prior_vae(X, P.prior_steps, latent=PRIOR_LATENT, batch=BATCH, lr=LR, seed=P.seed + 1000)
with torch.no_grad():
    g = torch.Generator().manual_seed(P.seed)
    i, j = torch.randint(0, len(X), (200,), generator=g), torch.randint(0, len(X), (200,), generator=g)
    blend = 0.5 * X[i] + 0.5 * X[j]
    mean_img = X.mean(0, keepdim=True)  # the image a collapsed decoder outputs
    elbo_real = float(K.negative_elbo(prior, X[i], sample=False).mean())
    elbo_blend = float(K.negative_elbo(prior, blend, sample=False).mean())
    elbo_mean = float(K.negative_elbo(prior, mean_img, sample=False).mean())
    kde_real = float(K.kde_prior_loss(X, X[i], KDE_BANDWIDTH))
    kde_blend = float(K.kde_prior_loss(X, blend, KDE_BANDWIDTH))
    kde_mean = float(K.kde_prior_loss(X, mean_img, KDE_BANDWIDTH))
    prior_rb = K.readback_accuracy(prior, X, factors)  # does the stand-in prior itself reconstruct the sprites?
    prior_sd = K.code_spread(K.codes_of(prior, X))
    mu_p, logvar_p = prior.encode_stats(X)
    prior_kl = float((0.5 * (mu_p ** 2 + logvar_p.exp() - 1.0 - logvar_p)).flatten(1).sum(1).mean())
print(f"prior VAE ({P.prior_steps} steps), negative ELBO: real sprites {elbo_real:.1f}, 50/50 pixel blends of two "
      f"sprites {elbo_blend:.1f}, the mean image {elbo_mean:.2f}")
print(f"prior VAE: reads back {prior_rb:.3f} of the sprites from its own reconstruction (chance {1 / len(X):.4f}); "
      f"spread of its mean codes {prior_sd:.3f}; KL to N(0, I) per sprite {prior_kl:.2f} nats")
print(f"kernel density prior (h = {KDE_BANDWIDTH}): real sprites {kde_real:.1f}, blends {kde_blend:.1f}, "
      f"the mean image {kde_mean:.1f}")

# the networks: key -> (what train_model gets); "KDE prior" is the robustness row, not a comparator. The plain AE
# records the remix losses of its codes (not optimised); the β-VAE trains without a prior (nothing recorded).
NETS = {"plain AE": dict(method="ae"), "β-VAE": dict(method="beta-vae", prior=None), "mixing": dict(method="mix"),
        "no remix": dict(method="mix", remix="none"),
        # added after the independent review: the block rule's ablation and a plain VAE
        "dim remix": dict(method="mix", remix="dims"), "VAE β=1": dict(method="beta-vae", prior=None, beta=1.0)}
if P.kde_row:
    NETS["KDE prior"] = dict(method="mix", prior=X)
LINEAR = ("PCA", "ICA")
METHODS = ("mixing", "no remix", "dim remix", "plain AE", "VAE β=1", "β-VAE", "PCA", "ICA")  # the tests' method and comparators
ALL = (*METHODS, "KDE prior") if P.kde_row else METHODS
# page seed s trains on seeds s*n, ..., s*n + n - 1 (n = n_seeds): no two page seeds share a training run
seeds = [P.seed * P.n_seeds + i for i in range(P.n_seeds)]
models, hists, codes, R = {}, {}, {}, {}
for s in progress(seeds, desc="seeds"):
    for m, kw in NETS.items():
        torch.manual_seed(s)
        net = K.BlockAE(k=K_BLOCKS, d=D_BLOCK, hidden=HIDDEN, variational=(kw["method"] == "beta-vae"))
        kw = {"prior": prior, "beta": BETA, **kw}
        hists[m, s] = K.train_model(net, X, steps=P.steps, batch=BATCH, lr=LR, bandwidth=KDE_BANDWIDTH,
                                    lam_prior=LAM_PRIOR, lam_cons=LAM_CONS, seed=s, **kw)
        models[m, s] = net
    torch.manual_seed(s)  # the floor of the metric: the same network at its initialisation, never trained
    models["untrained", s] = K.BlockAE(k=K_BLOCKS, d=D_BLOCK, hidden=HIDDEN)
    for m in LINEAR:  # PCA is deterministic: fitted once
        models[m, s] = models[m, seeds[0]] if (m == "PCA" and s != seeds[0]) else \
            K.fit_linear_code(imgs, m.lower(), K_BLOCKS, D_BLOCK, seed=s)
    for m in (*ALL, "untrained"):
        codes[m, s] = K.codes_of(models[m, s], X)
        R[m, s] = R[m, seeds[0]] if (m == "PCA" and s != seeds[0]) else \
            K.dci_importance(codes[m, s], factors, n_estimators=P.n_estimators)

# %%
dci = {k: K.dci_from_importance(r) for k, r in R.items()}
D = {m: np.array([dci[m, s][0] for s in seeds]) for m in (*ALL, "untrained")}
C = {m: np.array([dci[m, s][1] for s in seeds]) for m in ALL}
MIG = {m: np.array([K.mig(codes[m, s], factors) for s in seeds]) for m in ALL}
swaps = {(m, s): K.swap_test(models[m, s], X, factors, P.n_pairs, seed=s) for m in ALL for s in seeds}
one = {m: np.array([np.mean(swaps[m, s] == 1) for s in seeds]) for m in ALL}
none_changed = {m: np.array([K.swap_histogram(swaps[m, s])[0] for s in seeds]) for m in ALL}
# did the network learn the sprites at all? its own reconstruction read back as the same sprite, and its code spread
readback = {m: np.array([K.readback_accuracy(models[m, s], X, factors) for s in seeds]) for m in ALL}
spread = {m: np.array([K.code_spread(codes[m, s]) for s in seeds]) for m in (*ALL, "untrained")}
n10 = max(1, P.steps // 10)
recon = {m: np.array([np.mean(hists[m, s]["recon"][-n10:]) for s in seeds]) for m in NETS}
gain = {m: float(D[m].mean() - D["plain AE"].mean()) for m in ALL}


def worst_ratio(m):
    """Largest (last 10% of steps)/(first 10%) ratio of the remixes' prior and consistency losses, mean over seeds."""
    return max(np.mean([np.mean(hists[m, s][k][-n10:]) / np.mean(hists[m, s][k][:n10]) for s in seeds])
               for k in ("prior", "cons"))


ratio = {m: worst_ratio(m) for m in ("mixing", "plain AE")}
print(f"{'method':<11}{'DCI-D':>15}{'DCI-C':>15}{'MIG':>15}{'swaps: 1 factor':>18}{'0 factors':>10}"
      f"{'recon SSE':>10}{'read-back':>10}{'code sd':>9}")
for m in ALL:
    rec = f"{recon[m].mean():>10.2f}" if m in recon else f"{'-':>10}"
    print(f"{m:<11}{D[m].mean():>9.3f} ± {D[m].std():.3f}{C[m].mean():>9.3f} ± {C[m].std():.3f}"
          f"{MIG[m].mean():>9.3f} ± {MIG[m].std():.3f}{one[m].mean():>12.3f} ± {one[m].std():.3f}"
          f"{none_changed[m].mean():>10.3f}{rec}{readback[m].mean():>10.3f}{spread[m].mean():>9.3f}")
print(f"{'untrained':<11}{D['untrained'].mean():>9.3f} ± {D['untrained'].std():.3f}  (the network at its "
      f"initialisation; code sd {spread['untrained'].mean():.3f})")
print(f"read-back by chance: {1 / len(X):.4f}; remix losses, last/first 10% of steps (worse of prior and consistency): "
      + ", ".join(f"{m} {r:.3f}" for m, r in ratio.items()))

# %% [markdown]
# ## Results
#
# ### Disentanglement scores
#
# DCI disentanglement, MIG, the share of single-block swaps that change exactly one factor, and the read-back of
# each model's own reconstruction, per method: the bar is the mean over training seeds, the whisker ±1 standard
# deviation, the dots the training seeds. Green is the paper's method, orange its ablation (no remix), blue the
# naive baselines (the per-dimension remix, a second ablation, orange too), purple (full scale only) the mixing model with the kernel density prior (a robustness row).
# The dashed lines are the brief's targets (the plain AE's mean plus $0.10$, and $0.6$) and the read-back that
# counts as having learned the sprites ($0.5$); the dotted lines are the untrained network's DCI and the chance
# read-back $1/432$.

# %%
COL = {"mixing": "C2", "no remix": "C1", "dim remix": "C1", "plain AE": "C0", "VAE β=1": "C0", "β-VAE": "C0", "PCA": "C0", "ICA": "C0",
       "KDE prior": "C4"}
fig, axes = plt.subplots(1, 4, figsize=(16, 3.6))
for ax, (name, vals) in zip(axes, (("DCI disentanglement", D), ("MIG", MIG),
                                   ("single-block swaps changing exactly 1 factor", one),
                                   ("own reconstruction read back", readback))):
    keys = [k for k in ALL if k in vals]
    for x, k in enumerate(keys):
        v = vals[k]
        ax.bar(x, v.mean(), yerr=v.std(), color=COL[k], capsize=4, alpha=0.8)
        ax.scatter(np.full(len(v), x), v, color="k", s=12, zorder=3)
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels(keys, rotation=30, fontsize=8)
    ax.set_ylabel(name + (" (0-1, unitless)" if name in ("DCI disentanglement", "MIG") else " (fraction)"), fontsize=8)
axes[0].axhline(D["plain AE"].mean() + 0.10, ls="--", color="k", lw=1, label="plain AE + 0.10 (brief's target)")
axes[0].axhline(D["untrained"].mean(), ls=":", color="grey", lw=1, label="untrained network")
axes[0].legend(fontsize=7)
axes[2].axhline(0.6, ls="--", color="k", lw=1, label="0.6 (brief's target)")
axes[2].legend(fontsize=7)
axes[3].axhline(1 / len(X), ls=":", color="grey", lw=1, label="chance (1/432)")
axes[3].axhline(0.5, ls="--", color="k", lw=1, label="0.5 (learned the sprites)")
axes[3].legend(fontsize=7)
plt.show()

# %% [markdown]
# The mixing model's DCI disentanglement is {glue:text}`D_mix:.3f` (mean over this run's training seeds), its
# ablation's {glue:text}`D_nomix:.3f` and the plain AE's {glue:text}`D_ae:.3f`: a gain of
# {glue:text}`gain_mix:.3f` over the plain AE against the $0.10$ the brief asks for. The per-dimension remix
# scores {glue:text}`D_dim:.3f`, the plain VAE {glue:text}`D_vae1:.3f` and the β-VAE {glue:text}`D_bvae:.3f`. The two linear baselines score highest: PCA {glue:text}`D_pca:.3f` and ICA
# {glue:text}`D_ica:.3f`, gains of {glue:text}`gain_pca:.3f` and {glue:text}`gain_ica:.3f` over the plain AE.
# Single-block swaps of the mixing model change exactly one factor in a share {glue:text}`one_mix:.3f` of the swaps; the ablation's
# {glue:text}`one_nomix:.3f`, the per-dimension remix's {glue:text}`one_dim:.3f`, the plain AE's
# {glue:text}`one_ae:.3f`, the plain VAE's {glue:text}`one_vae1:.3f`, the β-VAE's {glue:text}`one_bvae:.3f`, PCA's {glue:text}`one_pca:.3f` and ICA's {glue:text}`one_ica:.3f`. The mixing model with the kernel density
# prior: {glue:text}`kde_row`.
#
# **Read every score above through the last panel.** The mixing model reads back its own reconstruction as the
# same sprite for a share {glue:text}`rb_mix:.3f` of the sprites, its ablation {glue:text}`rb_nomix:.3f`, the
# per-dimension remix {glue:text}`rb_dim:.3f`, the plain AE {glue:text}`rb_ae:.3f`, the plain VAE
# {glue:text}`rb_vae1:.3f` and the β-VAE {glue:text}`rb_bvae:.3f`. Chance, a decoder that outputs one
# image whatever the code, is {glue:text}`rb_chance:.4f`. PCA and ICA, with no training at all, read back
# {glue:text}`rb_pca:.3f` and {glue:text}`rb_ica:.3f`. The mixing model's codes spread by
# {glue:text}`sd_mix:.3f` (mean standard deviation per dimension), its ablation's by {glue:text}`sd_nomix:.3f`
# and the β-VAE's means by {glue:text}`sd_bvae:.3f`, against {glue:text}`sd_ae:.3f` for the plain AE and
# {glue:text}`sd_untrained:.3f` for the untrained network. A share {glue:text}`zero_mix:.3f` of the mixing
# model's single-block swaps change no factor at all (its ablation {glue:text}`zero_nomix:.3f`, the β-VAE
# {glue:text}`zero_bvae:.3f`, the plain AE {glue:text}`zero_ae:.3f`). The mixing model, both ablations, the plain
# VAE and the β-VAE have collapsed to codes that barely move between images. The plain AE has not collapsed but has not
# learned the sprites either. The untrained network scores a DCI of {glue:text}`D_untrained:.3f`, the floor that
# the trained networks sit near. So at this scale the DCI and swap scores of the networks say whether training
# collapsed, not whether remixing disentangles.
#
# ### Importance matrices
#
# The DCI importance matrix $R$ at the first seed of the mixing model, its ablation, the plain AE and PCA: rows
# are the 8 code dimensions (grouped in 4 blocks of 2), columns the 4 factors. Each column sums to 1. A
# disentangled code has one bright cell per row, and the two rows of one block point at the same factor.

# %%
SHOWN = ("mixing", "no remix", "plain AE", "PCA")
fig, axes = plt.subplots(1, 4, figsize=(13, 3.6))
for ax, m in zip(axes, SHOWN):
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
trav = K.traversal(net, X[0], codes["mixing", seeds[0]], steps=7)  # (8 dims, 7 steps, 3, 16, 16)
tiles = torch.nn.functional.pad(trav, (1, 1, 1, 1), value=1.0)  # a white frame of one pixel around every sprite
sheet = tiles.permute(0, 3, 1, 4, 2).reshape(8 * 18, 7 * 18, 3).numpy()  # rows: code dims, columns: steps
fig, ax = plt.subplots(figsize=(4.6, 6.0))
ax.imshow(sheet)
ax.set_yticks(9 + 18 * np.arange(8))
ax.set_yticklabels([f"b{r // 2 + 1}d{r % 2 + 1}" for r in range(8)], fontsize=7)
ax.set_xticks(9 + 18 * np.arange(7))
ax.set_xticklabels([f"{c / 6:.2f}" for c in range(7)], fontsize=7)
ax.set_xlabel("position between the 2nd and the 98th percentile of the dimension", fontsize=8)
ax.set_ylabel("code dimension swept (block, dimension)", fontsize=8)
ax.set_title("mixing model: latent traversal", fontsize=9)
plt.show()

# %% [markdown]
# ### Remixes and training
#
# Left: remixes decoded by the mixing model, its ablation, the plain AE and PCA. Each pair of images (columns a
# and b) gives four remixes, with blocks 1–4 taken from b in turn. Right: the three loss terms of the mixing
# model per step, with the prior and consistency losses of the plain AE's remixes recorded alongside (smoothed
# over 5% of the steps, mean over training seeds).

# %%
fig, (ax_s, ax) = plt.subplots(1, 2, figsize=(12, 5.2), width_ratios=[6.3, 4])
rng_pairs = np.random.default_rng(P.seed)
pa, pb = rng_pairs.integers(0, len(X), 2)
rows = []
for m in SHOWN:
    net = models[m, seeds[0]]
    with torch.no_grad():
        za, zb = net.encode(X[[pa]]), net.encode(X[[pb]])
        tiles = [X[pa], X[pb]]
        for k in range(4):
            mask = torch.ones(1, 4, dtype=torch.bool)
            mask[0, k] = False
            tiles.append(net.decode(K.mix_attributes(za, zb, mask))[0])
    rows.append(torch.stack(tiles))
grid = torch.nn.functional.pad(torch.stack(rows), (1, 1, 1, 1), value=1.0)  # (4 models, 6 tiles, 3, 18, 18)
ax_s.imshow(grid.permute(0, 3, 1, 4, 2).reshape(4 * 18, 6 * 18, 3).numpy())  # one image: no axes per tile
ax_s.set_xticks(9 + 18 * np.arange(6))
ax_s.set_xticklabels(["a", "b", "swap b1", "swap b2", "swap b3", "swap b4"], fontsize=7)
ax_s.set_yticks(9 + 18 * np.arange(4))
ax_s.set_yticklabels(SHOWN, fontsize=7)
ax_s.tick_params(length=0)
ax_s.grid(False)
w = max(1, P.steps // 20)


def smooth(v):
    return np.convolve(v, np.ones(w) / w, mode="valid")


for key, ls in (("recon", "-"), ("prior", "--"), ("cons", ":")):
    for m in ("mixing", "plain AE"):
        v = np.mean([hists[m, s][key] for s in seeds], axis=0)
        tag = " (recorded)" if m != "mixing" and key != "recon" else ""
        ax.plot(smooth(v), ls=ls, color={"mixing": "C2", "plain AE": "C0"}[m], label=f"{m}: {key}{tag}")
ax.set_yscale("log")
ax.set_xlabel("optimiser step")
ax.set_ylabel("loss (squared error per image; consistency relative)")
ax.legend(fontsize=6, ncol=2)
plt.show()

# %% [markdown]
# Over the last tenth of the steps against the first, the worse of the two remix losses of the mixing model
# ends at {glue:text}`ratio_mix:.3f` of its starting level. The same losses, recorded and never optimised, end
# at {glue:text}`ratio_ae:.3f` of theirs on the plain AE's remixes. Both fall: the loss check says that the
# training loop runs, nothing about disentanglement.
#
# ### The paper's numbers beside ours
#
# The brief found no scores from the paper, so its column is qualitative. Each row: method | the paper
# (Shapes3D/CLEVR-scale, qualitative) | our DCI-D, mean ± sd over training seeds | our MIG | our swap share | our
# read-back, at this page's scale.

# %%
paper_col = {"mixing": "competitive attribute disentanglement (no number retrieved)",
             "no remix": "not reported (the paper's ablations were not retrieved)",
             "dim remix": "not reported (our ablation of the block rule)",
             "VAE β=1": "not reported",
             "plain AE": "not reported (no disentanglement expected)",
             "β-VAE": "attribute baseline; the method is competitive or better (no number retrieved)",
             "PCA": "not reported", "ICA": "not reported",
             "KDE prior": "not reported (our second prior)"}
for m in ALL:
    print(f"| {m} | {paper_col[m]} | {D[m].mean():.3f} ± {D[m].std():.3f} | {MIG[m].mean():.3f} ± {MIG[m].std():.3f}"
          f" | {one[m].mean():.3f} ± {one[m].std():.3f} | {readback[m].mean():.3f} |")

# %% [markdown]
# ## Against the official code
#
# The paper's repository, [whieya/Compositional-DRL](https://github.com/whieya/Compositional-DRL), could not be
# fetched here (checked again when the page moved to the current claim model), and it is not in the index. Its
# training code, prior, consistency loss and configurations could not be read or run. Two official pieces of the
# same pipeline were run instead, outside the project, with the project's Python on one thread
# (`tests/papers/golden/compositional-bias-drl.json`):
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
# **Departures that cannot be checked against official values**: the prior, the normalised consistency loss, the
# loss weights, the architecture, the training length and the data (see "Deviations from the paper"). With no
# official value to run, the one departure we run as a second configuration is the prior: a kernel density prior
# over the real sprites, which scores real sprites at {glue:text}`kde_real:.1f`, 50/50 blends at
# {glue:text}`kde_blend:.1f` and the mean image at {glue:text}`kde_mean:.1f` (the VAE prior:
# {glue:text}`elbo_real:.1f`, {glue:text}`elbo_blend:.1f` and {glue:text}`elbo_mean:.2f`, preferring the mean
# image most). It runs at full scale only (see "The experiment"); the mixing model trained with it:
# {glue:text}`kde_row` (the tests' bars: a DCI gain of $0.10$ over the plain AE, a swap share of $0.6$).

# %%
DCI_TOL = tolerance(abs=0.08, why="DCI of codes after a few hundred to a few thousand Adam steps and a tree ensemble "
                                   "fitted on them: moves with float rounding across machines")
FRAC_TOL = tolerance(abs=0.1, why="fraction of swaps judged on decoded images of a trained network")
RATIO_TOL = tolerance(abs=0.15, why="ratio of mean losses over stretches of a stochastic training run")
READ_TOL = tolerance(abs=0.1, why="share of sprites read back from the decoded images of a trained network")
ABLATION = "no remix: the same prior and consistency losses on each image's own code"
NO_REMIX = "the mixing strategy (recombining the latent blocks of two images)"
DIM_REMIX = ("per-dimension remix (ablation of the block rule, added at the review): each latent dimension from one "
             "of two images")
VAE1 = "plain VAE (β = 1, added at the review), same network and budget"
claims.headline(
    "attributes-by-mixing",
    "Remixing latents by the attribute rule (each block from one of two images), with a prior loss that asks every "
    "remix to look real and the compositional consistency loss, disentangles global attributes without changing "
    "the objective's form or the architecture",
    tests=["dci-gain-over-ae", "swap-changes-one-factor"])
claims.headline(
    "objects-by-mixing",
    "Switching only the mixing rule (any subset of two images' slots) disentangles objects, competitively with "
    "object-centric methods",
    untestable="the object rule is implemented and unit-tested (K.mix_objects), but no slot model can be trained to "
               "a meaningful state within the ci budget of this page; not run")
claims.headline(
    "joint-style-and-objects",
    "With a rule that mixes both, the same framework uniquely disentangles global style and objects jointly",
    untestable="needs the object setting and scenes with both global style and objects, neither run here; the paper's "
               "comparison methods were not available")
claims.test(
    "dci-gain-over-ae",
    statement="Mean DCI disentanglement (over seeds) of the mixing model exceeds that of the plain autoencoder "
              "trained with the same network and budget by at least 0.10; every comparator's DCI minus the same "
              "plain autoencoder's.",
    paper="Mixing attribute latents with prior and consistency losses disentangles attributes without changing the "
          "architecture (competitive scores; no number retrieved). Threshold from the brief.",
    criterion=at_least(0.10), measured=round(gain["mixing"], 3),
    ablation=Comparator(ABLATION, round(gain["no remix"], 3), ingredient=NO_REMIX),
    baselines=[Comparator("β-VAE (β = 4), same network and budget", round(gain["β-VAE"], 3)),
               Comparator("PCA, 8 components of the pixels", round(gain["PCA"], 3)),
               Comparator("FastICA, 8 sources of the pixels", round(gain["ICA"], 3)),
               Comparator(DIM_REMIX, round(gain["dim remix"], 3)),
               Comparator(VAE1, round(gain["VAE β=1"], 3))],
    tol=DCI_TOL)
claims.test(
    "swap-changes-one-factor",
    statement="Swapping one latent block between two sprites that differ in every factor changes exactly one factor "
              "of the decoded sprite in at least 60% of swaps (mean over seeds).",
    paper="Each block of the mixing model captures one factor, so block swaps edit one attribute (qualitative; "
          "threshold from the brief).",
    criterion=at_least(0.6), measured=round(float(one["mixing"].mean()), 3),
    ablation=Comparator(ABLATION, round(float(one["no remix"].mean()), 3), ingredient=NO_REMIX),
    baselines=[Comparator("plain autoencoder (same network and budget)", round(float(one["plain AE"].mean()), 3)),
               Comparator("β-VAE (β = 4), same network and budget", round(float(one["β-VAE"].mean()), 3)),
               Comparator("PCA, 4 blocks of 2 components", round(float(one["PCA"].mean()), 3)),
               Comparator("FastICA, 4 blocks of 2 sources", round(float(one["ICA"].mean()), 3)),
               Comparator(DIM_REMIX, round(float(one["dim remix"].mean()), 3)),
               Comparator(VAE1, round(float(one["VAE β=1"].mean()), 3))],
    tol=FRAC_TOL)
claims.check(
    "mixing-losses-decrease",
    statement="The training loop lowers both mixing losses it optimises: the prior and consistency losses of the "
              "remixes over the last 10% of steps are at most 0.8 times those over the first 10% (worse of the two, "
              "mean over seeds). An implementation check (a test before the review): the plain AE's remix losses, "
              "recorded and never optimised, fall below the bar as well, and a decoder collapsing towards the mean "
              "image lowers the prior loss.",
    paper="The prior and consistency losses can be met jointly by an unchanged autoencoder (the method's premise; "
          "brief's check 1).",
    criterion=at_most(0.8), measured=round(ratio["mixing"], 3), kind="implementation", tol=RATIO_TOL)
claims.illustrate(
    "mixing-reads-back-sprites",
    statement="The mixing model has learned the sprites: at least half of them are read back as themselves from its "
              "own reconstruction (nearest-sprite reader of the swap test; mean over seeds).",
    paper="Not a claim of the paper: a precondition of its tests (a network that has not learned the images cannot "
          "show disentangled blocks).",
    criterion=at_least(0.5), measured=round(float(readback["mixing"].mean()), 3), tol=READ_TOL,
    why="a diagnostic of our training budget, not of the paper's idea: it tells whether the tests' statuses at this "
        "scale measure disentanglement or only whether training collapsed")

KEY = {"mixing": "mix", "no remix": "nomix", "dim remix": "dim", "plain AE": "ae", "VAE β=1": "vae1",
       "β-VAE": "bvae", "PCA": "pca", "ICA": "ica"}
for m, k in KEY.items():
    glue(f"D_{k}", float(D[m].mean()), display=False)
    glue(f"MIG_{k}", float(MIG[m].mean()), display=False)
    glue(f"one_{k}", float(one[m].mean()), display=False)
    glue(f"gain_{k}", float(gain[m]), display=False)
    glue(f"rb_{k}", float(readback[m].mean()), display=False)
    glue(f"sd_{k}", float(spread[m].mean()), display=False)
    glue(f"zero_{k}", float(none_changed[m].mean()), display=False)
for m, k in (("mixing", "mix"), ("plain AE", "ae")):
    glue(f"ratio_{k}", float(ratio[m]), display=False)
for name, v in (("elbo_real", elbo_real), ("elbo_blend", elbo_blend), ("elbo_mean", elbo_mean),
                ("kde_real", kde_real), ("kde_blend", kde_blend), ("kde_mean", kde_mean),
                ("D_untrained", D["untrained"].mean()), ("sd_untrained", spread["untrained"].mean()),
                ("rb_chance", 1 / len(X)), ("prior_rb", prior_rb), ("prior_sd", prior_sd), ("prior_kl", prior_kl)):
    glue(name, float(v), display=False)
glue("dci_pca_seed", float(D["PCA"][0]), display=False)
glue("recon_mix", float(recon["mixing"].mean()), display=False)
glue("recon_ae", float(recon["plain AE"].mean()), display=False)
glue("pca_over_mix", float(D["PCA"].mean() - D["mixing"].mean()), display=False)
glue("kde_row", (f"DCI {D['KDE prior'].mean():.3f}, a gain of {gain['KDE prior']:.3f} over the plain AE, MIG "
                 f"{MIG['KDE prior'].mean():.3f}, swap share {one['KDE prior'].mean():.3f}, read-back "
                 f"{readback['KDE prior'].mean():.3f}" if P.kde_row
                 else "not run at this scale (full scale only)"), display=False)

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
# At ci no network learned the sprites, so this scale cannot say whether remixing the latent blocks disentangles
# them. After 150 steps the mixing model reads back its own reconstruction as the same sprite for a share
# {glue:text}`rb_mix:.3f` of the sprites (chance: {glue:text}`rb_chance:.4f`), and its codes spread by
# {glue:text}`sd_mix:.3f`: its decoder outputs nearly the same image for every code. Both ablations and the
# β-VAE have collapsed the same way (code spreads {glue:text}`sd_nomix:.3f` without remix,
# {glue:text}`sd_dim:.3f` with the per-dimension remix, {glue:text}`sd_bvae:.3f` for the β-VAE). The plain VAE
# has collapsed only in part: its codes spread by {glue:text}`sd_vae1:.3f`, and a share
# {glue:text}`zero_vae1:.3f` of its block swaps change no factor, against {glue:text}`zero_mix:.3f` for the
# mixing model. The plain AE, with no prior at
# all, has not collapsed (spread {glue:text}`sd_ae:.3f`) but reads back only {glue:text}`rb_ae:.3f`. Over the ci
# sweep the mixing model reads back at least half of its sprites at
# {repro-seeds}`mixing-reads-back-sprites:method:pass` seeds. The ci statuses of the two tests therefore measure
# whether training collapses, not whether the blocks are entangled. The full scale (3000 steps) is a separate
# run whose statuses appear only in the judged table; this text quotes none of its numbers. It is the one run
# where the networks begin to learn the sprites, and there, too, the table shows no effect of the remix: the
# mixing model's DCI gain stays within the test's tolerance of its no-remix ablation's and far below PCA's, its
# swap share is below the ablation's, and neither test passes.
#
# **The stand-in prior collapses.** The frozen VAE that plays the paper's prior has itself collapsed at ci: it
# reads back {glue:text}`prior_rb:.3f` of the sprites from its own reconstruction (chance
# {glue:text}`rb_chance:.4f`), its mean codes spread by {glue:text}`prior_sd:.3f`, and its posterior sits
# {glue:text}`prior_kl:.2f` nats from the standard normal per sprite, so it encodes almost nothing and decodes
# about the mean image for any input. That is why it scores the mean image at {glue:text}`elbo_mean:.2f`, 50/50
# blends at {glue:text}`elbo_blend:.1f` and real sprites at {glue:text}`elbo_real:.1f` (negative ELBO, lower is
# "more realistic"): it rewards the very collapse the mixing model shows, so the prior loss pulls the mixing
# model towards the mean image, not towards realistic remixes.
#
# Both counted tests are grade (b) at ci (the rubric's "very weak"): a pass by the method could not be told
# from what its comparators do.
#
# - *DCI gain over the plain AE* ({repro-status}`dci-gain-over-ae`; bar $0.10$). The criterion is not specific to the
#   paper's idea: PCA and ICA, with no network at all, pass it, PCA at {repro-seeds}`dci-gain-over-ae:baseline2:pass`
#   seeds and ICA at {repro-seeds}`dci-gain-over-ae:baseline3:pass` (gains {glue:text}`gain_pca:.3f` and
#   {glue:text}`gain_ica:.3f` at this seed). Even if the mixing model passed, the test would read "not specific":
#   the criterion does not single out the compositional bias. The mixing model gains {glue:text}`gain_mix:.3f` at
#   this seed (mean over its training seeds); over the ci sweep it reaches the bar at
#   {repro-seeds}`dci-gain-over-ae:method:pass` seeds and lies inside the tolerance band below it at
#   {repro-seeds}`dci-gain-over-ae:method:edge`, never a pass. Its DCI, {glue:text}`D_mix:.3f`, is near that of
#   the untrained network, {glue:text}`D_untrained:.3f`. The ablation gains {glue:text}`gain_nomix:.3f`, the
#   per-dimension remix {glue:text}`gain_dim:.3f`, the plain VAE {glue:text}`gain_vae1:.3f` and the collapsed
#   β-VAE {glue:text}`gain_bvae:.3f`. PCA's DCI is the same number, {glue:text}`dci_pca_seed:.3f`, at every seed (a
#   deterministic fit, scored by trees with a fixed seed), so its passes are one measurement repeated against a
#   moving plain AE.
# - *Single-block swaps change exactly one factor* ({repro-status}`swap-changes-one-factor`; bar $0.6$). The
#   mixing model's share is {glue:text}`one_mix:.3f` because a share {glue:text}`zero_mix:.3f` of its swaps change
#   no factor at all: a collapsed decoder returns the same image whatever block it is given. That is collapse, not
#   entanglement. The ablation's share is {glue:text}`one_nomix:.3f`, the per-dimension remix's
#   {glue:text}`one_dim:.3f`, the plain AE's {glue:text}`one_ae:.3f`, the plain VAE's {glue:text}`one_vae1:.3f`,
#   the β-VAE's {glue:text}`one_bvae:.3f`, PCA's {glue:text}`one_pca:.3f` and ICA's {glue:text}`one_ica:.3f`. No
#   method reaches the bar at this scale; the mixing model fails it at
#   {repro-seeds}`swap-changes-one-factor:method:fail` seeds. The test is grade (b) because a method and
#   comparators that all sit at the floor cannot tell a bias from its absence.
# - *The mixing losses fall* (`mixing-losses-decrease`) is an implementation check of the training loop, no
#   longer a test. The mixing model's worse remix loss ends at {glue:text}`ratio_mix:.3f` of its starting level,
#   and the plain AE's remix losses, recorded and never optimised, at {glue:text}`ratio_ae:.3f`: both pass the
#   old bar of $0.8$, and for the mixing model part of the fall is the collapse towards the mean image, which our
#   prior rewards.
#
# **Why.** The first limit at ci is the training length: 150 steps train none of the networks, the plain AE
# without any prior included. The second is the collapsed prior above. A kernel density prior over the real
# sprites ranks the three kinds of image the right way (real {glue:text}`kde_real:.1f`, blends
# {glue:text}`kde_blend:.1f`, mean image {glue:text}`kde_mean:.1f`). It was not run at ci (see "The experiment");
# at this scale: {glue:text}`kde_row`. No official configuration could be run (the repository was not available),
# so no status is checked against one.
#
# **What this page can and cannot show.** At ci it shows that the mechanics run (the unit tests, the golden match
# with the official remix and DCI code, the loss check), that 150 steps leave every network collapsed or
# untrained, that the stand-in prior is itself collapsed, and that PCA on the pixels, with no network, passes the
# DCI test that the networks fail. It cannot show, at ci, whether the compositional bias disentangles: neither
# test's status there bears on the paper's claim, whether it reads pass or fail.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), twice, with the rubric, the page,
# the record and the brief. The first review found that at ci every network collapses or never learns; that PCA
# passes the DCI test at every seed; that the loss test passed because of that collapse; that the page blamed
# blends where the prior prefers the mean image; and that neighbouring sweep seeds shared training runs. The
# page was changed on each point (the diagnostics above, the verdict's wording, the loss check demoted, the
# seeding). The second review graded both counted tests (b), found the DCI test not specific, asked for the
# prior's collapse to be stated plainly, and proposed two more comparators, a per-dimension remix (the block
# rule's ablation) and a plain VAE ($\beta = 1$), which this notebook now trains beside the others, and a longer
# post-hoc run (see "What the miniature cannot show"). What they tried, with the numbers this notebook measures at
# this seed (mean over its training seeds):
#
# * **Did anything learn?** Read-back of the own reconstruction: mixing {glue:text}`rb_mix:.3f`, ablation
#   {glue:text}`rb_nomix:.3f`, per-dimension remix {glue:text}`rb_dim:.3f`, plain AE {glue:text}`rb_ae:.3f`,
#   plain VAE {glue:text}`rb_vae1:.3f`, β-VAE {glue:text}`rb_bvae:.3f`, PCA {glue:text}`rb_pca:.3f`, ICA
#   {glue:text}`rb_ica:.3f` (chance {glue:text}`rb_chance:.4f`). Code spread: mixing {glue:text}`sd_mix:.3f`,
#   ablation {glue:text}`sd_nomix:.3f`, per-dimension remix {glue:text}`sd_dim:.3f`, plain VAE
#   {glue:text}`sd_vae1:.3f`, β-VAE {glue:text}`sd_bvae:.3f`, plain AE {glue:text}`sd_ae:.3f`, PCA
#   {glue:text}`sd_pca:.3f`, ICA {glue:text}`sd_ica:.3f`. Swaps that change no factor: mixing
#   {glue:text}`zero_mix:.3f`, ablation {glue:text}`zero_nomix:.3f`, per-dimension remix {glue:text}`zero_dim:.3f`,
#   plain VAE {glue:text}`zero_vae1:.3f`, β-VAE {glue:text}`zero_bvae:.3f`, plain AE {glue:text}`zero_ae:.3f`, PCA
#   {glue:text}`zero_pca:.3f`.
# * **Is the prior itself collapsed?** The frozen prior VAE reads back {glue:text}`prior_rb:.3f` of the sprites,
#   its mean codes spread by {glue:text}`prior_sd:.3f`, and its KL per sprite is {glue:text}`prior_kl:.2f` nats.
#   Negative ELBO of real sprites {glue:text}`elbo_real:.1f`, of blends {glue:text}`elbo_blend:.1f`, of the mean
#   image {glue:text}`elbo_mean:.2f`. Yes: it prefers the mean image.
# * **The block rule's ablation** (per-dimension remix: each latent dimension from one of the two images, the
#   same prior and consistency losses): DCI {glue:text}`D_dim:.3f` (gain {glue:text}`gain_dim:.3f`), MIG
#   {glue:text}`MIG_dim:.3f`, swap share {glue:text}`one_dim:.3f`. Collapsed like the mixing model, so at ci it
#   cannot tell the block rule from a rule without blocks.
# * **A plain VAE** ($\beta = 1$, same network and budget): DCI {glue:text}`D_vae1:.3f` (gain
#   {glue:text}`gain_vae1:.3f`), MIG {glue:text}`MIG_vae1:.3f`, swap share {glue:text}`one_vae1:.3f`.
# * **An untrained network** (the same MLP at its initialisation): DCI {glue:text}`D_untrained:.3f`, against the
#   mixing model's {glue:text}`D_mix:.3f` and the plain AE's {glue:text}`D_ae:.3f`. It is the metric's floor, not a
#   comparator (a strawman by the rubric).
# * **PCA on the pixels** (8 components as 4 blocks of 2): DCI {glue:text}`D_pca:.3f`, a gain of
#   {glue:text}`gain_pca:.3f` over the plain AE (the mixing model: {glue:text}`gain_mix:.3f`), MIG
#   {glue:text}`MIG_pca:.3f`, swap share {glue:text}`one_pca:.3f`. It is the strongest naive baseline here: above
#   the mixing model by {glue:text}`pca_over_mix:.3f` in DCI, and it passes the DCI bar by itself.
# * **FastICA on the pixels** (8 sources): DCI {glue:text}`D_ica:.3f` (gain {glue:text}`gain_ica:.3f`), MIG
#   {glue:text}`MIG_ica:.3f`, swap share {glue:text}`one_ica:.3f`.
# * **β-VAE** ($\beta = 4$, same network and budget): DCI {glue:text}`D_bvae:.3f` (gain {glue:text}`gain_bvae:.3f`),
#   swap share {glue:text}`one_bvae:.3f`. Its posterior has collapsed at ci (spread and read-back above): a
#   strawman at this scale.
# * **The method without its remix** (the ablation: the same prior and consistency losses on each image's own
#   code): DCI {glue:text}`D_nomix:.3f` (gain {glue:text}`gain_nomix:.3f`), swap share {glue:text}`one_nomix:.3f`;
#   collapsed like the mixing model, so at ci it cannot tell the remix from its absence.
# * **The plain AE's recorded remix losses**: {glue:text}`ratio_ae:.3f` of their start, under the bar of the old
#   loss test without ever being optimised; with the collapse, the reason that check is no longer a test.
# * **A prior that rejects blends and the mean image** (kernel density over the real sprites, the mixing model
#   trained with it): {glue:text}`kde_row`.
#
# Tried by the first reviewer outside the page, and not measured here because the ci budget has no room for
# them: a random linear projection of the pixels; the mixing model with the kernel density prior at ci; a prior
# VAE trained ten times longer; and the networks trained ten times longer on single training seeds. Their
# numbers are not on this page, so this page draws no conclusion from them; they are where a reader with more
# time would look next.
#
# The control of the old page, the mixing model's own codes after a random rotation of all eight dimensions, was
# dropped when the page moved to the current claim model: a rotation destroys axis alignment by construction, so
# it is a null model that shows the metric can fail, not an alternative a skeptic would use.
#
# ## What the miniature cannot show
#
# - **The paper's datasets and scores.** No DCI, MIG or FactorVAE value from the paper was retrieved, and
#   16 × 16 sprites with four factors are far from Shapes3D, MPI3D or CLEVR.
# - **Objects and the joint setting.** The object rule (any subset of two images' slots) is implemented and
#   unit-tested, but no slot model is trained here. The paper's distinctive result, disentangling global style and
#   objects at once, is not tested.
# - **The paper's prior.** Our stand-in, a frozen 8-dimensional VAE on 432 images, has collapsed at ci and
#   prefers the mean image, and blends, to real sprites (see the verdict). A kernel density prior rejects both
#   but is no generative model of images either. A strong generative prior is what makes an unrealistic remix
#   costly; our miniature tests the idea with weaker judges of realism.
# - **Training length, and the regime where the remix should matter.** The method has to find, from a random
#   start, a grouping of dimensions under which every remix is a real image. At 150 steps no network gets there.
#   The second review proposed a post-hoc test trained for 1500 steps, where the networks have learned the sprites
#   and the remix could show its effect against the ablations. It is not run here: the ci budget (about 20 s of
#   compute on one thread) is already spent on the method and its eight comparators, and a 1500-step run of the
#   method, its two ablations and the plain AE would cost about ten times that. The longer run this page has is
#   the full scale (3000 steps, 3 training seeds), whose statuses are in the judged table.
# - **The paper's baselines.** The VAE-, GAN- and diffusion-based methods and object-centric models the paper
#   compares with were not run; PCA and ICA are a skeptic's baselines, not the paper's.
