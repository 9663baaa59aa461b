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
# # CLIPTTA: contrastive test-time adaptation of a two-tower model
#
# *Adapting a vision-language model at test time with a soft version of its own contrastive loss, computed
# between a batch's images and their pseudo-captions, should beat entropy minimisation and resist class
# collapse; an outlier term on the same scores should also separate out-of-distribution inputs.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import copy
import time

import matplotlib.pyplot as plt
import numpy as np
import torch
from sklearn.metrics import roc_auc_score

from repro.claims import Claims, at_least, at_most, tolerance
from repro.papers import cliptta_contrastive_tta as K
from repro.runtime import progress, setup_notebook
from repro.textenc import embed_texts

P = setup_notebook(scale, seed, presets={
    "ci": dict(n_seeds=2, pretrain_steps=200, n_stream=192, n_imb=192, n_open_id=96, n_open_ood=96,
               lr_sweep=False),
    "full": dict(n_seeds=5, pretrain_steps=300, n_stream=None, n_imb=640, n_open_id=384, n_open_ood=384,
                 lr_sweep=True),
})
SEEDS = [P.seed * P.n_seeds + k for k in range(P.n_seeds)]  # disjoint training seeds across notebook seeds
BATCH, OPEN_BATCH = 16, 32   # closed-set stream batches; open-set batches of 16 ID + 16 OOD on average
MAJOR_SHARE = 0.7            # imbalanced stream: 70 % of the samples from one class
STRESS_LR = 1e-2             # the collapse stress test: 10x TENT's default, no regulariser
CLASSES = "zero one two three four five six seven eight nine".split()
PROMPTS = [f"a photo of the digit {w}." for w in CLASSES]
T = torch.as_tensor(embed_texts(PROMPTS, cache=K.__file__.replace(".py", ".minilm.npz")))  # (10, 384)
METHODS = ["zero-shot", "tent", "tent+reg", "cliptta", "cliptta-noreg"]
LABELS = {"zero-shot": "no adaptation", "tent": "TENT (entropy min.)",
          "tent+reg": "entropy + CLIPTTA's regulariser (control)", "cliptta": "CLIPTTA",
          "cliptta-noreg": "CLIPTTA without regulariser"}
plt.rcParams["savefig.dpi"] = 90
claims = Claims("cliptta-contrastive-tta",
                title="CLIPTTA: Robust Contrastive Vision-Language Test-Time Adaptation",
                authors="Marc Lafon, Gustavo Adolfo Vargas Hakim, Clément Rambour, Christian Desrosiers, Nicolas Thome",
                paper_url="https://arxiv.org/abs/2507.14312", scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# Test-time adaptation (TTA) updates a model on unlabelled test batches. For CLIP-like models, it is
# usually done by minimising the entropy of the zero-shot predictions (TENT). Lafon et al. (NeurIPS 2025)
# argue that this objective does not match CLIP's contrastive pre-training. Entropy minimisation rewards
# confidence in whatever class is predicted. So wrong pseudo-labels are reinforced (pseudo-label drift), and
# on small or imbalanced batches the model can end up predicting one class for everything (class collapse).
# Their method, CLIPTTA, instead uses a soft form of CLIP's own image-text contrastive loss on the test batch.
# The captions are the pseudo-labels' prompts. The paper analyses its gradients and argues that this
# batch-aware loss resists collapse. For open-set streams, an Outlier Contrastive Exposure (OCE) term
# separates in-distribution (ID) from out-of-distribution (OOD) samples. The paper reports results on 75
# datasets. Our brief found no headline number we could verify, so the criteria below come from the brief.
# They were fixed before the first run.
#
# ## The method
#
# Image features $z_i$ and class prototypes $t_c$ (the text features of "a photo of the digit *c*.") have unit
# norm; $s$ is the logit scale (100, as in CLIP). Each image gets a pseudo-label $\hat y_i = \arg\max_c
# z_i^\top t_c$ and a pseudo-caption $p_i = t_{\hat y_i}$. The batch logits are $L_{ij} = s\,z_i^\top p_j$
# ($B \times B$). CLIP would train them towards the identity matrix. CLIPTTA's soft version (the official
# closed-set setting, text tower frozen) minimises the entropy of each row:
#
# $$\mathcal L_{\text{s-TTA}} = \frac1B \sum_i H\big(\mathrm{softmax}_j\, L_{ij}\big),\qquad
#   \mathcal L_{\text{CLIPTTA}} = \mathcal L_{\text{s-TTA}} - \beta_{\text{reg}}\,
#   H\Big(\frac1B\sum_i \mathrm{softmax}_c(s\,z_i^\top t_c)\Big).$$
#
# TENT minimises $\frac1B\sum_i H(\mathrm{softmax}_c\, s\,z_i^\top t_c)$ instead. The difference is in the
# batch. If $k$ images of the batch share a pseudo-label, its caption appears $k$ times in row $i$. An image
# that sits exactly on that class then keeps a row entropy of at least $\log k$. Crowded classes attract less
# than rare ones. In the limit where every pseudo-label is the same, every row of $L$ is constant. The loss is
# then at its maximum $\log B$ and its gradient is exactly zero, while TENT's gradient still pushes towards
# more confidence. The second term (weight $\beta_{\text{reg}} = 1$) maximises the entropy of the batch-mean
# prediction, as in the official code.
#
# **Open set (OCE).** Each image gets a score $\sigma_i = \max_c \log\mathrm{softmax}_c(z_i^\top t_c)$ (the
# official `max_log_prob`, OOD scale 1). A threshold $\alpha$ starts at the Otsu threshold of the batch's
# scores and is then learnt. With soft memberships $w_i = \mathrm{sigmoid}((\sigma_i - \alpha)/\gamma)$,
# $\gamma = 0.005$, the loss $\mathcal L_{\text{OCE}} = -(\mu_{\text{in}} - \mu_{\text{out}})^2$ pushes apart
# the weighted mean scores of the two groups. The TTA loss then uses only samples scored above $\alpha$. The
# kernels are in `src/repro/papers/cliptta_contrastive_tta.py`; `soft_contrastive_tta_loss(image_features,
# text_features, scale)` is $\mathcal L_{\text{s-TTA}}$.
#
# ## The experiment
#
# **A toy two-tower model.** The *text tower* is frozen MiniLM (all-MiniLM-L6-v2, 384-d). The ten prompt
# embeddings are read from a committed cache, which the page's tests check against the live model. Their
# pairwise cosines are 0.74-0.93, so the class prototypes are close together, as CLIP's often are. The
# *image tower* is an MLP, 64 → 128 → LayerNorm → ReLU → 128 → LayerNorm → ReLU → 384, with unit-norm output.
# It is pre-trained on the clean training half of scikit-learn's 8 × 8 digits: the image-to-text side of the
# CLIP loss, with one caption per class, scale 100, minibatch Adam (batch 128, learning rate 3·10⁻³,
# `pretrain_steps` steps) and pixel-noise augmentation. TTA then updates only the LayerNorm scales and shifts,
# as the official code updates CLIP's normalisation layers.
#
# **Shifts** (on the test half): Gaussian pixel noise (σ = 0.35), Gaussian blur (σ = 0.9 px), partial
# contrast inversion ($0.7x + 0.3(1 - x)$), and rotation by 30°.
#
# **Streams** (online and non-episodic: the adapted parameters carry over from batch to batch; each batch is
# predicted after its own adaptation steps, as in the official `forward`):
#
# - *balanced*: the shifted test images in random order (`n_stream` of them, or all ≈ 900 at full scale), in
#   batches of 16;
# - *imbalanced*: `n_imb` images, 70 % of them from one class (a different class for each seed and shift),
#   drawn with replacement. After adapting on it, the model is evaluated on the whole balanced shifted test
#   set. **Collapse diagnostics**: the number of classes that receive at least 2 % of those predictions (a
#   fifth of a class's true share), and the entropy of the prediction marginal relative to that of the
#   unadapted model;
# - *open set*: `n_open_id` shifted digits mixed with `n_open_ood` OOD images, in batches of 32. The OOD images
#   are random patches of scikit-learn's two bundled photographs, block-averaged to 8 × 8, under the same
#   shift. OOD detection is measured by the AUROC of the score $\sigma_i$.
#
# **Methods, all on the same tower, streams and seeds:**
#
# - no adaptation (zero-shot);
# - *TENT*: entropy minimisation with the official TENT script's settings (Adam, learning rate 10⁻³, 10 steps
#   per batch, $\beta_{\text{reg}} = 0$);
# - *CLIPTTA*: soft contrastive loss with the official CLIPTTA script's settings (Adam, learning rate 10⁻⁴,
#   10 steps per batch, $\beta_{\text{reg}} = 1$);
# - *entropy + CLIPTTA's regulariser*: a control. It is TENT's loss with everything else of CLIPTTA (learning
#   rate 10⁻⁴, $\beta_{\text{reg}} = 1$), so any gain that survives against it comes from the contrastive loss;
# - *CLIPTTA without regulariser* ($\beta_{\text{reg}} = 0$);
# - collapse stress test: both losses alone ($\beta_{\text{reg}} = 0$) at learning rate 10⁻², on the
#   imbalanced stream;
# - open set: CLIPTTA + OCE ($\beta_{\text{OOD}} = 1$, with Otsu filtering), against CLIPTTA without it.
#
# | preset | training seeds per run | pre-training steps | balanced stream | imbalanced stream | open set (ID + OOD) |
# |---|---|---|---|---|---|
# | ci | 2 | 200 | 192 per shift | 192 | 96 + 96 |
# | full | 5 | 300 | ≈ 900 per shift (all) | 640 | 384 + 384 |
#
# **Deviations from the paper**
#
# - **No CLIP.** Our toy two-tower model has a frozen MiniLM sentence encoder as text tower and a small MLP image
#   tower, pre-trained here on 900 digit images. CLIP is a ViT-B/16 trained on 400 M image-text pairs.
# - **Data.** 8 × 8 digits under four shifts of our own. The paper uses CIFAR-10/100-C, ImageNet and its
#   variants, and 75 datasets in all. Our OOD set is photograph patches, where the paper uses SVHN, Places and
#   others. Contrast inversion is partial (weight 0.3). Full inversion leaves every method at chance.
# - **Batch size 16** (the brief's). The official scripts use 128. Small batches are where collapse shows.
# - **No memory.** The official scripts also replay a class-balanced memory of confident past samples
#   (`--use_memory`, 4 shots per class). It is left out for every method here.
# - **Which side of the loss.** With the text tower frozen, the official code uses the image-to-caption rows
#   of $L$ twice. We therefore use the row entropy only. The two-sided form (used when the text encoder is
#   adapted) is a kernel too, checked against the official code, but it is not run.
# - **Learning rates are the official ones** (TENT 10⁻³, CLIPTTA 10⁻⁴), even though our parameters are not
#   CLIP's. We did not tune them. The stress test uses a common 10⁻² for both losses.
# - **Pre-training** is one-sided cross-entropy over the ten prompts. With one caption per class, this is
#   CLIP's image-to-text loss.

# %% [markdown]
# ## Results
#
# ### Pre-training and the balanced streams

# %%
def shift_stream(X, y, kind, n, rng):
    """The shifted test set in random order, the first n of it (all when n is None)."""
    order = rng.permutation(len(y))[: (n or len(y))]
    return K.corrupt(X[order], kind, rng), y[order]


t0 = time.perf_counter()
towers, data, clean_acc = {}, {}, {}
acc = {m: np.zeros((len(SEEDS), len(K.SHIFTS))) for m in METHODS}  # online stream accuracy
online = {}  # per-batch accuracy along the stream, first seed
top_prob = []  # mean top softmax probability (scale 100) of the unadapted tower on each shifted stream
for si, s in enumerate(progress(SEEDS, desc="seeds")):
    rng = np.random.default_rng(s)
    d = data[s] = K.load_digits_split(rng)
    tw = towers[s] = K.ImageTower(seed=s)
    K.pretrain_tower(tw, d["X_train"], d["y_train"], T, P.pretrain_steps, seed=s)
    clean_acc[s] = float((K.predict(tw, T, d["X_test"]) == d["y_test"]).mean())
    for ki, kind in enumerate(K.SHIFTS):
        Xs, ys = shift_stream(d["X_test"], d["y_test"], kind, P.n_stream, rng)
        with torch.no_grad():
            top_prob.append(float((100 * tw(torch.as_tensor(Xs)) @ T.T).softmax(1).max(1).values.mean()))
        for m in METHODS:
            out = K.adapt_stream(copy.deepcopy(tw), T, Xs, BATCH, K.method_config(m))
            hit = out["pred"] == ys
            acc[m][si, ki] = hit.mean()
            if si == 0:
                online[(m, kind)] = hit
print(f"clean test accuracy of the pre-trained towers: {np.round(list(clean_acc.values()), 3)}")
print(f"mean top softmax probability of the unadapted towers on the shifted streams: {min(top_prob):.2f}-{max(top_prob):.2f}")
print(f"{'method':44s}" + "".join(f"{k:>20s}" for k in K.SHIFTS) + f"{'mean':>10s}")
for m in METHODS:
    print(f"{LABELS[m]:44s}" + "".join(f"{100 * acc[m][:, k].mean():13.1f} ± {100 * acc[m][:, k].std():4.1f}"
                                       for k in range(len(K.SHIFTS))) + f"{100 * acc[m].mean():10.1f}")
print(f"({len(SEEDS)} training seeds, {time.perf_counter() - t0:.1f} s)")

# %%
fig, ax = plt.subplots(figsize=(10, 4))
w = 0.16
for j, m in enumerate(METHODS):
    x = np.arange(len(K.SHIFTS)) + (j - 2) * w
    ax.bar(x, 100 * acc[m].mean(0), w, yerr=100 * acc[m].std(0), capsize=3, label=LABELS[m])
    ax.plot(np.repeat(x[None], len(SEEDS), 0).ravel(), 100 * acc[m].ravel(), "k.", ms=3)
ax.axhline(10, color="grey", ls=":", lw=0.8, label="chance (10 %)")
ax.set_xticks(range(len(K.SHIFTS)), K.SHIFTS)
ax.set_ylabel("online accuracy on the stream (%)")
ax.set_title(f"Balanced streams, batch 16: mean ± std over {len(SEEDS)} training seeds (dots: seeds)")
ax.legend(fontsize=7, ncol=3, loc="upper right")
ax.set_ylim(0, 105)
plt.show()

# %% [markdown]
# Pseudo-label drift would show up as accuracy that falls along the stream as errors are reinforced. Here is
# the running accuracy along each stream for the first training seed:

# %%
fig, axes = plt.subplots(1, len(K.SHIFTS), figsize=(13, 3.2), sharey=True)
for ax, kind in zip(axes, K.SHIFTS):
    for m in METHODS:
        hit = online[(m, kind)]
        ax.plot(np.arange(1, len(hit) + 1), 100 * np.cumsum(hit) / np.arange(1, len(hit) + 1), label=LABELS[m])
    ax.set_title(kind, fontsize=9)
    ax.set_xlabel("samples seen in the stream")
axes[0].set_ylabel("running accuracy (%)")
axes[-1].legend(fontsize=6)
fig.suptitle(f"Running online accuracy along the balanced streams (training seed {SEEDS[0]})")
plt.show()

# %% [markdown]
# At the official learning rates, adaptation moves our tower very little. So at full scale we also sweep the
# learning rate, on the balanced streams, for both losses with and without the regulariser (two training
# seeds, 320 images per shift). This sweep is descriptive and backs no claim.

# %%
LRS = [1e-4, 1e-3, 1e-2, 3e-2]
SWEEP = {"entropy": ("entropy", 0.0), "entropy + reg.": ("entropy", 1.0),
         "soft contrastive": ("soft-contrastive", 0.0), "CLIPTTA (soft contrastive + reg.)": ("soft-contrastive", 1.0)}
if P.lr_sweep:
    sweep_acc = {k: np.zeros((2, len(LRS))) for k in SWEEP}
    for si, s in enumerate(progress(SEEDS[:2], desc="learning-rate sweep")):
        rng = np.random.default_rng(3000 + s)
        streams = [shift_stream(data[s]["X_test"], data[s]["y_test"], kind, 320, rng) for kind in K.SHIFTS]
        for k, (loss, beta) in SWEEP.items():
            for li, lr in enumerate(LRS):
                sweep_acc[k][si, li] = np.mean([
                    (K.adapt_stream(copy.deepcopy(towers[s]), T, Xs, BATCH,
                                    K.TTAConfig(loss, lr=lr, beta_reg=beta))["pred"] == ys).mean()
                    for Xs, ys in streams])
    zs = acc["zero-shot"].mean()
    fig, ax = plt.subplots(figsize=(7, 3.8))
    for k in SWEEP:
        ax.errorbar(LRS, 100 * sweep_acc[k].mean(0), yerr=100 * sweep_acc[k].std(0), marker="o", capsize=3, label=k)
    ax.axhline(100 * zs, color="grey", ls=":", label="no adaptation (main streams)")
    ax.set_xscale("log")
    ax.set_xlabel("Adam learning rate (10 steps per batch of 16)")
    ax.set_ylabel("online accuracy, mean of 4 shifts (%)")
    ax.set_title("Learning-rate sweep on balanced streams (mean ± std over 2 training seeds)", fontsize=9)
    ax.legend(fontsize=7)
    plt.show()
else:
    print("the learning-rate sweep runs at full scale only")

# %% [markdown]
# ### Collapse diagnostics: the imbalanced stream

# %%
STRESS = {"entropy, lr 1e-2": K.TTAConfig("entropy", lr=STRESS_LR),
          "soft contrastive, lr 1e-2": K.TTAConfig("soft-contrastive", lr=STRESS_LR)}
IMB = {"zero-shot": K.method_config("zero-shot"), "tent": K.method_config("tent"),
       "cliptta": K.method_config("cliptta"), **STRESS}
ncls = {m: np.zeros((len(SEEDS), len(K.SHIFTS))) for m in IMB}
hrat = {m: np.zeros((len(SEEDS), len(K.SHIFTS))) for m in IMB}
bal_acc = {m: np.zeros((len(SEEDS), len(K.SHIFTS))) for m in IMB}
imb_acc = {m: np.zeros((len(SEEDS), len(K.SHIFTS))) for m in IMB}  # online accuracy on the imbalanced stream
major_share = {}
COLOR = {m: f"C{j}" for j, m in enumerate(IMB)}
for si, s in enumerate(progress(SEEDS, desc="imbalanced streams")):
    d, rng = data[s], np.random.default_rng(1000 + s)
    for ki, kind in enumerate(K.SHIFTS):
        major = (s + ki) % 10
        idx = K.imbalanced_indices(d["y_test"], P.n_imb, major, MAJOR_SHARE, rng)
        Xi = K.corrupt(d["X_test"][idx], kind, rng)
        Xeval = K.corrupt(d["X_test"], kind, rng)
        h0 = None
        for m, cfg in IMB.items():
            tw = copy.deepcopy(towers[s])
            out = K.adapt_stream(tw, T, Xi, BATCH, cfg)
            pe = K.predict(tw, T, Xeval)
            dg = K.collapse_diagnostics(pe)
            h0 = dg["entropy"] if m == "zero-shot" else h0
            ncls[m][si, ki], hrat[m][si, ki] = dg["n_classes"], dg["entropy"] / h0
            bal_acc[m][si, ki] = (pe == d["y_test"]).mean()
            imb_acc[m][si, ki] = (out["pred"] == d["y_test"][idx]).mean()
            if si == 0:
                major_share[(m, kind)] = (out["pred"] == major).reshape(-1, BATCH).mean(1)
print(f"{'method':28s} {'classes kept (>= 2 %)':>22s} {'H(marginal) / zero-shot':>24s} {'balanced acc. after (%)':>24s}"
      f" {'acc. on the stream (%)':>23s}")
for m in IMB:
    print(f"{m:28s} {ncls[m].mean():15.2f} ± {ncls[m].std():4.2f} {hrat[m].mean():17.2f} ± {hrat[m].std():4.2f}"
          f" {100 * bal_acc[m].mean():17.1f} ± {100 * bal_acc[m].std():4.1f}"
          f" {100 * imb_acc[m].mean():16.1f} ± {100 * imb_acc[m].std():4.1f}")

# %%
fig, axes = plt.subplots(1, 2, figsize=(13, 4))
w = 0.16
for j, m in enumerate(IMB):
    x = np.arange(len(K.SHIFTS)) + (j - 2) * w
    axes[0].bar(x, ncls[m].mean(0), w, yerr=ncls[m].std(0), capsize=3, label=m, color=COLOR[m])
axes[0].axhline(8, color="k", ls="--", lw=0.8, label="claim: CLIPTTA keeps >= 8")
axes[0].set_xticks(range(len(K.SHIFTS)), K.SHIFTS, fontsize=8)
axes[0].set_ylabel("classes with >= 2 % of predictions\n(balanced eval. after adaptation)")
axes[0].set_ylim(0, 11)
axes[0].legend(fontsize=7, loc="lower left")
axes[0].set_title(f"Classes kept after a 70 %-one-class stream (mean ± std, {len(SEEDS)} seeds)", fontsize=9)
for m in IMB:
    if m == "zero-shot":
        continue
    sh = np.mean([major_share[(m, k)] for k in K.SHIFTS], 0)
    axes[1].plot(np.arange(1, len(sh) + 1), 100 * sh, marker=".", label=m, color=COLOR[m])
axes[1].plot(np.arange(1, len(sh) + 1), 100 * np.mean([major_share[("zero-shot", k)] for k in K.SHIFTS], 0),
             color=COLOR["zero-shot"], ls=":", label="zero-shot")
axes[1].axhline(100 * MAJOR_SHARE, color="k", ls="--", lw=0.8, label="true share (70 %)")
axes[1].set_xlabel("batch of 16 in the imbalanced stream")
axes[1].set_ylabel("share predicted as the majority class (%)")
axes[1].set_title(f"Drift towards the majority class (seed {SEEDS[0]}, mean over shifts)", fontsize=9)
axes[1].legend(fontsize=7)
plt.show()

# %% [markdown]
# ### The gradient at collapse
#
# Take a batch of 16 shifted test images that the pre-trained tower assigns to the same class. Their features
# are real, so the batch is collapsed by construction. We compare the gradients of both losses with respect
# to the features (float64).

# %%
d0, tw0 = data[SEEDS[0]], towers[SEEDS[0]]
Xg = K.corrupt(d0["X_test"], "gaussian-noise", np.random.default_rng(7))
with torch.no_grad():
    zg = tw0(torch.as_tensor(Xg)).double()
pred0 = (zg @ T.double().T).argmax(1).numpy()
cmaj = int(np.bincount(pred0).argmax())
zc = zg[np.flatnonzero(pred0 == cmaj)[:16]].clone().requires_grad_(True)
assert len(zc) == 16 and ((zc @ T.double().T).argmax(1) == cmaj).all()
grad_norm = {}
for name, f in {"soft contrastive": K.soft_contrastive_tta_loss, "entropy (TENT)": K.entropy_tta_loss,
                "two-sided soft contrastive": K.symmetric_soft_contrastive_tta_loss}.items():
    grad_norm[name] = float(torch.autograd.grad(f(zc, T.double(), 100.0), zc)[0].norm())
    print(f"{name:28s} |grad_z loss| = {grad_norm[name]:.3e}")
print(f"soft contrastive loss at collapse = {float(K.soft_contrastive_tta_loss(zc, T.double(), 100.0).detach()):.6f}"
      f" (log 16 = {np.log(16):.6f})")

# %% [markdown]
# ### Open set: OOD detection with Outlier Contrastive Exposure

# %%
OPEN = {"zero-shot": K.method_config("zero-shot"), "tent": K.method_config("tent"),
        "cliptta": K.method_config("cliptta"), "cliptta+oce": K.method_config("cliptta", ood=True)}
auroc = {m: np.zeros((len(SEEDS), len(K.SHIFTS))) for m in OPEN}
id_acc = {m: np.zeros((len(SEEDS), len(K.SHIFTS))) for m in OPEN}
for si, s in enumerate(progress(SEEDS, desc="open-set streams")):
    d, rng = data[s], np.random.default_rng(2000 + s)
    for ki, kind in enumerate(K.SHIFTS):
        ids = rng.choice(len(d["y_test"]), P.n_open_id, replace=False)
        X = np.concatenate([d["X_test"][ids], K.outlier_images(P.n_open_ood, rng)])
        is_id = np.r_[np.ones(P.n_open_id, bool), np.zeros(P.n_open_ood, bool)]
        y = np.r_[d["y_test"][ids], -np.ones(P.n_open_ood, int)]
        order = rng.permutation(len(y))
        X, is_id, y = K.corrupt(X[order], kind, rng), is_id[order], y[order]
        for m, cfg in OPEN.items():
            out = K.adapt_stream(copy.deepcopy(towers[s]), T, X, OPEN_BATCH, cfg)
            auroc[m][si, ki] = roc_auc_score(is_id, out["score"])
            id_acc[m][si, ki] = (out["pred"][is_id] == y[is_id]).mean()
print(f"{'method':14s} {'AUROC (ID vs OOD)':>20s} {'ID accuracy (%)':>18s}")
for m in OPEN:
    print(f"{m:14s} {auroc[m].mean():13.3f} ± {auroc[m].std():.3f} {100 * id_acc[m].mean():11.1f} ± "
          f"{100 * id_acc[m].std():.1f}")

# %%
fig, axes = plt.subplots(1, 2, figsize=(12, 3.8))
w = 0.2
for j, m in enumerate(OPEN):
    x = np.arange(len(K.SHIFTS)) + (j - 1.5) * w
    axes[0].bar(x, auroc[m].mean(0), w, yerr=auroc[m].std(0), capsize=3, label=m)
    axes[1].bar(x, 100 * id_acc[m].mean(0), w, yerr=100 * id_acc[m].std(0), capsize=3, label=m)
axes[0].axhline(0.5, color="grey", ls=":", lw=0.8, label="chance")
axes[0].set_ylabel("AUROC, ID vs OOD (score: max log-prob)")
axes[0].set_ylim(0.3, 1.0)
axes[1].set_ylabel("accuracy on the ID samples (%)")
for ax in axes:
    ax.set_xticks(range(len(K.SHIFTS)), K.SHIFTS, fontsize=8)
    ax.legend(fontsize=7)
fig.suptitle(f"Open-set streams (50 % OOD photo patches), mean ± std over {len(SEEDS)} training seeds")
plt.show()

# %% [markdown]
# ### The paper's numbers beside ours
#
# | quantity | paper (setting) | ours (setting) |
# |---|---|---|
# | accuracy gain of CLIPTTA over TENT / over zero-shot | not retrieved (75 datasets; "consistently outperforms entropy-based objectives") | claims `cliptta-beats-tent`, `cliptta-beats-zero-shot` below (toy two-tower model, 4 shifts of 8 × 8 digits) |
# | collapse under entropy minimisation | described, no number retrieved | claims `cliptta-keeps-classes`, `tent-collapses`, `soft-contrastive-resists-collapse-at-stress` |
# | OOD detection with OCE | AUROC / FPR95 on open-set benchmarks, not retrieved | claim `oce-improves-ood-auroc` (photo patches as OOD) |
#
# No number of the paper could be checked, so no number of the paper is used as a criterion.
#
# ## Against the official code
#
# The paper's code: [MarcLafon/cliptta](https://github.com/MarcLafon/cliptta) (commit f4221f4f). We ran its
# `CLIPTTA.compute_loss_tta` (soft option, with the text tower frozen and adapted), the TENT branch,
# `softmax_mean_entropy`, `get_scores("max_log_prob")` and `get_otsu_loss("avg_contrastive")` once, outside
# the project, on seeded random features (6 images, 4 classes, 5 dimensions, float64). Our kernels agree with
# them to within 3·10⁻¹⁶ (`tests/papers/golden/cliptta-contrastive-tta.json`). This includes the gradient norm
# at a collapsed batch, 9·10⁻¹⁵ in both: zero up to rounding. What we found in the code, and where we depart
# from it:
#
# - the soft loss is the entropy of the *rows* of $L$ (image to pseudo-caption); with a frozen text tower the
#   official code adds the same rows twice rather than the columns, and so do we;
# - a $10^{-6}$ offset on the logits inside the entropies (it cancels in the softmax) is kept;
# - the memory of confident samples, the SAM option and the $\alpha$ learning-rate details are not used here.
#   The OOD threshold $\alpha$ is reset to the batch's Otsu threshold before each batch, as `init_otsu` does,
#   and is then updated with the same Adam step as the norm parameters;
# - TTA parameters: every LayerNorm of the image tower (two here), as `collect_params` collects CLIP's norm
#   layers.

# %%
d_tent = acc["cliptta"].mean() - acc["tent"].mean()
d_ctrl = acc["tent+reg"].mean() - acc["tent"].mean()
claims.check("cliptta-beats-tent",
             statement="On balanced shifted streams (mean over 4 shifts and the training seeds), CLIPTTA's online "
                       "accuracy exceeds TENT's by at least 2 points",
             paper="CLIPTTA consistently outperforms entropy-based objectives (75 datasets; no number retrieved)",
             criterion=at_least(0.02), measured=float(d_tent), control=float(d_ctrl),
             control_label="entropy loss with CLIPTTA's regulariser and settings, minus TENT",
             tol=tolerance(abs=0.02, why="online accuracy after Adam pre-training and adaptation; ~800 stream images"))
claims.check("cliptta-beats-zero-shot",
             statement="On the same streams, CLIPTTA's accuracy exceeds no adaptation by at least 2 points",
             paper="TTA with CLIPTTA improves on zero-shot CLIP under distribution shift",
             criterion=at_least(0.02), measured=float(acc["cliptta"].mean() - acc["zero-shot"].mean()),
             control=float(acc["tent"].mean() - acc["zero-shot"].mean()),
             control_label="TENT (entropy minimisation) minus no adaptation",
             tol=tolerance(abs=0.02, why="online accuracy after Adam pre-training and adaptation"))
claims.check("cliptta-keeps-classes",
             statement="After a 70 %-one-class stream (official settings), CLIPTTA still gives at least 2 % of its "
                       "balanced-set predictions to at least 8 classes (mean over shifts and seeds)",
             paper="the batch-aware contrastive loss mitigates class collapse",
             criterion=at_least(8), measured=float(ncls["cliptta"].mean()), control=float(ncls["tent"].mean()),
             control_label="TENT (official settings)",
             tol=tolerance(abs=0.5, why="class counts after Adam training; a class near the 2 % line can flip"))
claims.check("tent-collapses",
             statement="After the same stream, TENT's prediction-marginal entropy on the balanced set falls to at "
                       "most half of the unadapted model's (mean ratio over shifts and seeds)",
             paper="entropy minimisation leads to class collapse",
             criterion=at_most(0.5), measured=float(hrat["tent"].mean()), control=float(hrat["cliptta"].mean()),
             control_label="CLIPTTA (official settings)",
             tol=tolerance(abs=0.05, why="entropy of predictions after Adam training"))
claims.check("soft-contrastive-resists-collapse-at-stress",
             statement="With no regulariser and learning rate 1e-2, the soft contrastive loss alone keeps at least 8 "
                       "classes after the imbalanced stream (mean over shifts and seeds)",
             paper="CLIPTTA's batch-aware gradients resist collapse (gradient analysis)",
             criterion=at_least(8), measured=float(ncls["soft contrastive, lr 1e-2"].mean()),
             control=float(ncls["entropy, lr 1e-2"].mean()),
             control_label="entropy minimisation alone at the same settings",
             tol=tolerance(abs=1.5, why="class counts after Adam training; the control, a collapse of entropy "
                                        "minimisation at lr 1e-2, is chaotic: under other numerics it ended at "
                                        "5.6 instead of 6.25 classes"))
claims.check("zero-gradient-at-collapse", kind="theorem",
             statement="On a batch whose pseudo-labels are all equal, the soft contrastive loss has zero gradient "
                       "with respect to the image features (|grad| < 1e-7)",
             paper="gradient analysis: the loss stops pushing once the batch has collapsed",
             criterion=at_most(1e-7), measured=grad_norm["soft contrastive"],
             control=grad_norm["entropy (TENT)"], control_label="TENT's entropy loss on the same batch",
             tol=tolerance(rel=1.5, abs=1e-12, why="the features come out of a trained tower; TENT's gradient on the "
                                                   "collapsed batch moves between CPU families (1.46 on an AVX-512 "
                                                   "machine, 0.747 without SIMD kernels)"))
claims.check("oce-improves-ood-auroc",
             statement="On open-set streams, CLIPTTA with OCE raises the ID-vs-OOD AUROC of the max-log-prob score "
                       "by at least 0.03 over no adaptation (mean over shifts and seeds)",
             paper="the Outlier Contrastive Exposure loss improves OOD detection in open-set TTA",
             criterion=at_least(0.03), measured=float(auroc["cliptta+oce"].mean() - auroc["zero-shot"].mean()),
             control=float(auroc["cliptta"].mean() - auroc["zero-shot"].mean()),
             control_label="CLIPTTA without the OCE term",
             tol=tolerance(abs=0.02, why="AUROC after Adam training on a few hundred samples"))

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Partly reproduced, in miniature; the outcome depends on stream length.** The numbers below are from the
# committed ci run (seed 0: two training seeds, streams of 192 images per shift). The robustness table on this
# page gives the ci sweep over ten notebook seeds and the full-scale run (five training seeds, streams of about
# 900 images).
#
# Over the ten ci seeds, the two counted claims that hold at seed 0 hold at every seed: the zero gradient at
# collapse, and the stress test, where entropy minimisation kept only 3.6-6.9 classes. The accuracy claims,
# `tent-collapses` and the OCE claim fail at every seed. CLIPTTA's gain over no adaptation stays between +0.6
# and +1.3 points, and the OCE gain between +0.006 and +0.009 AUROC. `cliptta-keeps-classes` is uninformative
# at nine seeds, where TENT also kept 8 classes or more, and reproduced at one. The longer full-scale streams
# change three of these outcomes, as the bullets say.
#
# - **Collapse resistance of the loss itself: reproduced.** This is the paper's mechanism, and it holds
#   clearly. On a batch whose pseudo-labels are all equal, the soft contrastive loss sits at $\log 16$ and its
#   gradient is zero up to rounding ($10^{-14}$). TENT's gradient on the same batch is about 0.75. The
#   two-sided variant's gradient does not vanish either (about 20), so the property belongs to the image-side
#   form that the official code uses with a frozen text tower. Under stress (learning rate 10⁻², no
#   regulariser, a 70 %-one-class stream), the soft contrastive loss kept 8.9 of 10 classes on average.
#   Entropy minimisation kept 6.25 at ci and 3.4 at full scale, where the balanced accuracy after adaptation
#   fell from about 62 % to 28 %.
# - **The price of that resistance: over-correction on a truly imbalanced stream.** The same batch-awareness
#   that prevents collapse also pushes predictions away from a class that really does dominate the batch. At
#   learning rate 10⁻², the soft contrastive loss drove the share of predictions for the majority class from
#   the unadapted model's 50-60 % down to 10-20 %, against a true share of 70 % (right panel of the collapse figure). Its online
#   accuracy on the imbalanced stream fell to 46 %, against 77 % without adaptation, while entropy
#   minimisation, collapsing towards the class that happens to be right 70 % of the time, kept 77 %. At the
#   official learning rate (10⁻⁴) the effect is small: 75.7 % against 76.9 %. The paper's memory of
#   class-balanced samples and its regulariser aim at balanced predictions too. Whether this over-correction
#   shows with CLIP on imbalanced streams is not something the miniature can settle.
# - **At the official settings, CLIPTTA keeps its classes and TENT drifts, but only on long streams.** On the
#   short ci streams nothing collapses. CLIPTTA kept 8.6 classes and TENT 8.0, so `cliptta-keeps-classes` is
#   uninformative at ci. TENT's marginal entropy did not fall (ratio 1.00 against the required ≤ 0.5), so
#   `tent-collapses` is not reproduced. At full scale (640-image stream) TENT fell to 7.25 classes while
#   CLIPTTA kept 9.0, and `cliptta-keeps-classes` holds against a failing control. TENT's entropy ratio fell
#   only to 0.81, so the brief's "falls by half" criterion is not met at either scale.
# - **Accuracy under shift: not shown at ci, partly at full scale.** At ci, CLIPTTA's online accuracy (mean of
#   four shifts) was 66.7 %, against 66.5 % for TENT and 65.4 % without adaptation: +0.3 and +1.3 points
#   against the required +2. So both accuracy claims are not reproduced at this scale. At learning rate 10⁻⁴
#   over 12 batches, the LayerNorm parameters barely move. On the 56-batch full-scale streams, CLIPTTA gained
#   +4.7 points over no adaptation, while TENT lost 2.9 (on contrast inversion and rotation it reinforced its
#   own errors). That reproduces `cliptta-beats-zero-shot`. The +7.6 points over TENT are uninformative,
#   because the control gains as much: entropy minimisation with CLIPTTA's regulariser and learning rate
#   gains 7.3. In this miniature, CLIPTTA's accuracy edge over TENT comes from its regulariser and its
#   smaller step, not from the contrastive form of the loss. The loss itself matters at larger steps. In the
#   learning-rate sweep of the full-scale run (seed 0; the sweep is drawn only at full scale), entropy
#   minimisation alone peaked at 64 % (10⁻³) and fell to 43 % at 3·10⁻². The soft contrastive loss *without*
#   the regulariser stayed at 75-76 % from 10⁻³ to 3·10⁻², as high as entropy minimisation *with* it. So the
#   contrastive form does on its own what the regulariser does for entropy minimisation, and the official
#   learning rate of 10⁻⁴ leaves every method close to where it started.
# - **OOD detection with OCE: not reproduced.** The OCE term changed the AUROC by nothing measurable. At ci,
#   CLIPTTA with OCE gained +0.008 AUROC over no adaptation, and +0.009 without OCE (required +0.03). At full
#   scale, both gained about +0.03 (uninformative). Whatever gain there is comes from adaptation as such. Our
#   max-log-prob scores (OOD scale 1 on cosines that all lie within 0.3 of each other) are not bimodal, so the
#   Otsu split and the $\gamma = 0.005$ sigmoid have little to separate.
#
# ## What the miniature cannot show
#
# - **CLIP itself.** Our "CLIP" is an MLP trained on 900 clean digits towards ten frozen sentence embeddings.
#   It ends up nearly saturated: its mean top probability at scale 100 stays about 0.9 even under shift (0.88-0.95
#   at ci). CLIP's zero-shot predictions are softer and its errors more structured. Its pre-training is a true many-caption
#   contrastive loss, while ours, with one caption per class, is a ten-way cross-entropy. So the paper's
#   motivating argument, that a TTA loss aligned with the *pre-training* loss adapts better, cannot really be
#   tested here. We can test the batch-level mechanism it rests on.
# - **Scale and breadth of shifts.** The paper evaluates on 75 datasets: natural shifts (ImageNet-A/R/V2/
#   Sketch), 15 corruptions at 5 severities, and fine-grained and domain datasets. We have four synthetic
#   shifts of 8 × 8 images at one severity, and the LayerNorms of a two-layer MLP as the only adapted
#   parameters.
# - **The official pipeline's other parts.** The class-balanced memory of confident samples, batches of 128,
#   and the other TTA baselines (TDA, CLIPArTT, WATT, UniEnt) are not run. In particular, the memory could
#   change how TENT and CLIPTTA behave on imbalanced streams.
# - **Open-set detection at realistic scale.** The paper's OOD sets (SVHN, Places, NINCO and others) differ
#   semantically from the ID classes, and CLIP's scores separate them partly before any adaptation. Our photo
#   patches, with scores squeezed into a narrow band, are a weak stand-in. The failure of the OCE claim here
#   says little about its effect with CLIP.
