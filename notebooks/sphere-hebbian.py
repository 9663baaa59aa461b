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
# # SPHeRe: Hebbian learning with an orthogonality term and a structure-preserving projection
#
# *A layer trained only by its own local loss, which asks a small side projection of its output to keep the
# angles between the inputs and to have decorrelated features, should learn better features than the classic
# Hebbian rules. We test this on handwritten digits with a linear probe.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
import torch
from IPython.display import Markdown, display

from repro.claims import Claims, at_least, at_most, tolerance
from repro.papers import sphere_hebbian as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 8 s of CPU on one thread (measured on a loaded machine): 2 initialisations, 4 epochs of 9 steps
    "ci": dict(inits=2, epochs=4, patch_epochs=6),
    # about 2-3 min of CPU: 5 initialisations, 30 epochs (270 steps of 128 images) per trained block
    "full": dict(inits=5, epochs=30, patch_epochs=40),
})
claims = Claims("sphere-hebbian",
                title="Rethinking Hebbian Principle: Low-Dimensional Structural Projection for Unsupervised Learning",
                authors=None, paper_url="https://arxiv.org/abs/2510.14810", scale=scale, seed=seed)
C, KSIZE, PROJ = 16, 5, 32         # filters, filter size, projection size
BATCH, LR, WD = 128, 1e-2, 0.05    # minibatch, AdamW rate (official 1e-3), AdamW weight decay (official)
LR_PATCH, LR_SOFTHEBB, T_INV = 0.05, 0.08, 1.0   # Oja / Hebb rate; SoftHebb base rate and inverse temperature
ALPHA = 1.0                        # ridge penalty of the linear probe
PT = 100.0                         # accuracies are reported in percentage points

# %% [markdown]
# ## The setting: learning without backpropagation
#
# A deep network is normally trained by **backpropagation**: the error at the output is sent backwards
# through every layer, and each weight moves along the gradient of that one global loss. Brains do not
# seem to do this. A synapse sees only the activity of the two neurons it connects, and *Hebb's
# principle* ("neurons that fire together wire together") says that it strengthens when both are active.
# **Local learning rules** take this as a constraint for machine learning: each layer updates its
# weights from its own input and output (and perhaps a signal that stays inside the layer), with no
# error sent down from the layers above. The hope is cheaper, parallel and more brain-like training.
#
# The textbook rules act on a single linear layer $y = Wx$:
#
# * **plain Hebb**, $\Delta w_c = \eta\,y_c\,x$, grows without bound; with the weights renormalised after
#   each step it becomes a power iteration, and *every* unit converges to the same vector, the first
#   principal component of the inputs. The units collapse onto one feature.
# * **Oja's rule** adds a decay that keeps the weights bounded: $\Delta W = \eta\,(y x^\top - y y^\top W)$
#   (the subspace form for several units). Its stable fixed points are orthonormal bases of the
#   top principal subspace, so a layer of Oja units learns PCA.
# * **SoftHebb** (Journé et al., ICLR 2023), the strongest earlier rule that the paper compares with, makes
#   the units compete: a soft winner-take-all picks the unit that responds most, that unit learns
#   Hebbian-ly and the others anti-Hebbian-ly.
#
# How good are features learned this way? The standard test is the **linear probe**: freeze the learned
# layers, feed the data through them, and train only a linear classifier on their outputs with the labels.
# The probe's test accuracy measures how much of the class information the unsupervised features expose
# linearly. Two references bracket it: the same architecture with frozen **random** weights (what learning
# must beat), and the same architecture trained **end to end by backpropagation** with the labels (what
# local, unsupervised learning is not expected to beat).
#
# ## The claim
#
# The paper (SPHeRe, NeurIPS 2025) proposes a local, unsupervised loss for each block of a convolutional
# network and reports the best linear-probe accuracy among synaptic-plasticity methods on CIFAR-10,
# CIFAR-100 and Tiny-ImageNet, plus good continual and transfer learning. The numbers we could find: a log
# file once committed to the official repository reads 81.4% best (81.2% last) test accuracy, with the
# default dataset CIFAR-10; SoftHebb reports 80.3% on CIFAR-10. Transfer and reconstruction figures appear
# only in an AI summary and are not used. The authors' names were not found.
#
# ## The method
#
# Each block $f_\theta$ (convolution, batch norm, LeakyReLU, max-pooling) is trained only on its own loss,
# and its output is detached before the next block, so no gradient crosses blocks. A small **auxiliary
# projection** $g_\phi$ (a 1×1 convolution to half the channels, batch norm, ReLU, global average pooling and
# a linear map to $P$ numbers) turns the block's output $Y=f_\theta(X)$ into $Z=g_\phi(Y)\in\mathbb R^{B\times P}$
# for a batch of $B$ inputs. With the cosine Gram matrix $K(X)_{ij}=\langle x_i,x_j\rangle/(\|x_i\|\|x_j\|)$,
# the block's loss (official `main.py`, `HebbLayer.cal_loss`) is
#
# $$\mathcal L = \underbrace{\operatorname{mean}_{ij}\big(K(X)-K(Z)\big)_{ij}^2}_{\text{structure: keep the angles between inputs}}
#   \;+\;0.8\,\underbrace{\operatorname{mean}_{kl}\big(K(Z^\top)-I_P\big)_{kl}^2}_{\text{orthogonality: decorrelate the } P \text{ features}} .$$
#
# The gradient of $\mathcal L$ reaches $\theta$ only through the short path $g_\phi$ inside the block: this
# is the "feedback mediation" of the title. The paper derives the structural term from the loss whose
# gradient flow is Oja's subspace rule, $\tfrac14\operatorname{Tr}[(YY^\top-XX^\top)(XX^\top)^{-1}(YY^\top-XX^\top)]$,
# by dropping the inverse and normalising the Gram matrices. So SPHeRe keeps Oja's goal (an output whose
# similarity structure matches the input's), adds an explicit orthogonality constraint that stops the units
# from collapsing, and lets a nonlinear projection decide which low-dimensional view of the output must
# keep the structure. The kernels are in `src/repro/papers/sphere_hebbian.py` (`K.sphere_loss`,
# `K.SPHeReBlock`, `K.train_local`).
#
# ## The experiment
#
# * **Data.** scikit-learn's 1,797 handwritten digits (8×8 pixels, 10 classes; read from the file that
#   scikit-learn ships, without importing it), split 2:1 into training
#   and test sets, stratified, with the split drawn from the notebook's seed; pixels standardised with the
#   training mean and standard deviation.
# * **Architecture**, the same for every method: one block, a 5×5 convolution with 16 filters (padding 2),
#   batch norm, LeakyReLU(0.2) and max-pooling (4, stride 2, padding 1), giving 16×4×4 = 256 features.
#   SPHeRe's projection: 1×1 convolution to 8 channels, batch norm, ReLU, global average pooling, linear to
#   $P=32$.
# * **Methods** (only the 16 filters, and for the gradient-trained ones the batch-norm scale and shift,
#   differ between methods; all start from the same random initialisation):
#   random frozen filters; plain Hebb with weight normalisation, Oja's subspace rule and SoftHebb, each on
#   the 5×5 input patches that the filters see; **SPHeRe**; SPHeRe *without the orthogonality term*
#   ($0.8\to0$); SPHeRe *without the auxiliary projection* (the loss computed on the 256 block outputs
#   directly); and end-to-end backpropagation with a linear classifier (the upper reference). SPHeRe and
#   backprop use AdamW (learning rate $10^{-2}$, weight decay 0.05, cosine schedule) on batches of 128.
# * **Probe.** Ridge regression on ±1 one-hot targets ($\alpha=1$, standardised features, argmax), fitted on
#   the training set's frozen features, scored on the test set; batch-norm statistics are set to those of
#   the training set before the features are read. Raw pixels through the same probe are a reference.
# * **Scale.** ci: 2 initialisations, 4 epochs (36 steps) for the gradient-trained blocks, 6 epochs for
#   the patch rules. full: 5 initialisations, 30 epochs (270 steps) and 40 epochs. Mean and spread are over
#   the initialisations; the sweep (`make sweep`) repeats the whole page over seeds 0–9 (data split
#   included). CPU time of the notebook's cells, measured here on a shared machine with a load of about 7 on
#   2 cores: about 15 s at ci scale (4.5 s of it imports), 139 s at full scale (with the Jupyter kernel). The
#   "about 8 s" in the presets' comment is our estimate for a quiet machine, which we could not measure.
# * **Continual check.** Task A = digits 0–4, task B = digits 5–9, seen one after the other with no
#   replay. SPHeRe trains unsupervised on A's images and then on B's; backprop trains on A's labels and
#   then on B's (one 10-way head). After task A a linear probe for A is fitted on the features; after
#   task B the *same* probe is applied to the new features of A's test images (batch-norm statistics are
#   always those of the task just trained). **Forgetting** is A's test
#   accuracy after task A minus after task B, in points. We also refit the probe after task B, to see how much
#   of A's information the features still hold.
#
# **Claims, fixed before the first run** (each with its control, which should not satisfy it):
#
# 1. *Beats random features* (the brief's check C1): mean probe accuracy of SPHeRe minus that of the frozen
#    random block $\ge 3$ points. Control: the same difference for plain Hebb, whose units collapse.
# 2. *Beats the local rules* (the paper's headline): mean probe accuracy of SPHeRe minus the best of Oja,
#    plain Hebb and SoftHebb $\ge 0.5$ points (the paper's margin over SoftHebb on CIFAR-10 is about 1 point).
#    Control: the same margin for SPHeRe without the auxiliary projection, the ingredient in the paper's title.
# 3. *The local loss is optimised* (the brief's check C2): both terms of the loss, measured over the
#    training set, fall by at least 30% from their value at initialisation (the smaller of the two relative
#    decreases, mean over initialisations). Control: SPHeRe without the orthogonality term, whose
#    orthogonality loss is measured but not optimised.
# 4. *Little forgetting* (the abstract's continual-learning claim; our threshold, the paper gives no number we
#    could find): forgetting of SPHeRe $\le 5$ points. Control: end-to-end backprop trained on the same
#    sequence.
#
# The brief's third check (SPHeRe no better than backprop + 1 point) is shown in the figures but is not a
# claim: nothing natural could serve as its control.
#
# **Added after the first run (†).** The first run showed that the probe on all 256 outputs saturates: frozen
# random filters reach 98%, so claims 1 and 2 cannot separate the methods. Claims 1 and 2 were therefore
# repeated, with the same thresholds and controls and on the same trained blocks, for a narrow readout: each
# filter's 4×4 map averaged to one number, 16 features in all (the same global pooling that SPHeRe's projection
# applies), so that the probe depends on every filter. The pre-registered claims are kept unchanged.
#
# **Deviations from the paper**
#
# * Data and scale: 8×8 digits instead of CIFAR-10/100 and Tiny-ImageNet; one block of 16 filters instead of
#   three blocks of 384, 768 and 1,536 channels (no residual connection); projection size 32 instead of 256;
#   36 (ci) or 270 (full) AdamW steps instead of 100 epochs of CIFAR (about 39,000 steps).
# * Learning rate $10^{-2}$ instead of the official $10^{-3}$, to make up for about 150 times fewer steps; the
#   cosine schedule is stepped per epoch over our epochs, as the official one is over its 100. The same rate
#   and schedule for the backprop reference.
# * The official script trains the linear classifier on top at the same time as the blocks, on the labels,
#   and reports its test accuracy. We train the block first and then fit a ridge probe on frozen features,
#   the usual linear-probe protocol; no label reaches the SPHeRe block in either case.
# * Baselines on the same block: SoftHebb's own architecture (input batch norm, triangle activation, its
#   initialisation with large weights and reflect padding, a batch of 10 for one epoch) is replaced by our
#   block with zero padding, the shared random initialisation, batches of 128 and the epochs above; its
#   update rule, base rate 0.08 and inverse temperature 1 are the official first-layer ones. Oja and
#   plain Hebb are textbook rules (rate 0.05, chosen from a convergence check of Oja's rule on digit
#   patches before any accuracy was computed). The patch rules learn no bias and no batch-norm parameters.
# * The AdamW update is written out in the kernels (same numbers as `torch.optim.AdamW`, checked in the unit
#   tests): PyTorch's optimiser imports `torch._dynamo` on first use, about 2.7 s of CPU, a third of this
#   page's ci budget.
# * The narrow readout of the † claims (16 globally pooled features) is ours, added after the first run.
# * Projection size 32 for a batch of 128, where the official 256 exceeds the batch of 128: there the 256
#   feature columns cannot all be orthogonal over a batch, and the orthogonality loss cannot reach 0.
# * The continual-learning protocol (two tasks of five digits, a fixed probe, forgetting $\le5$ points) is our
#   own design: we could not find the paper's protocol or numbers. Transfer learning and image
#   reconstruction are not tested.

# %%
X_all, y_all = K.load_digits_images()
idx_tr, idx_te = K.stratified_split(y_all, 1 / 3, np.random.default_rng([seed, 7]))
mu, sd = X_all[idx_tr].mean(), X_all[idx_tr].std()
X_all = (X_all - mu) / sd
Xtr, ytr, Xte, yte = X_all[idx_tr], y_all[idx_tr], X_all[idx_te], y_all[idx_te]
print(f"scale={P.scale}: {len(ytr)} training and {len(yte)} test digits; {P.inits} initialisations, "
      f"{P.epochs} epochs ({P.epochs * (len(ytr) // BATCH)} steps) per gradient-trained block")
pixels_acc = PT * K.probe_accuracy(Xtr.flatten(1), ytr, Xte.flatten(1), yte, ALPHA)
print(f"linear probe on the raw pixels: {pixels_acc:.1f}%")

METHODS = ["random", "hebb", "oja", "softhebb", "sphere", "sphere_no_ortho", "sphere_no_proj", "backprop"]
LABELS = {"random": "random (frozen)", "hebb": "plain Hebb", "oja": "Oja subspace", "softhebb": "SoftHebb",
          "sphere": "SPHeRe", "sphere_no_ortho": "SPHeRe, no orthogonality", "sphere_no_proj": "SPHeRe, no projection",
          "backprop": "backprop (labels)"}


def init_block(r: int, **kw) -> K.SPHeReBlock:
    """The shared random initialisation of initialisation r (the same filters for every method)."""
    torch.manual_seed(10_000 * seed + r)
    return K.SPHeReBlock(1, C, KSIZE, PROJ, **kw)


def gen(r: int) -> torch.Generator:
    return torch.Generator().manual_seed(10_000 * seed + r)


def train(method: str, r: int, X: torch.Tensor, y: torch.Tensor, block: K.SPHeReBlock | None = None, head=None):
    """Train (in place) the block of one method on (X, y); returns the block, the head and the loss history."""
    kw = {"sphere_no_ortho": dict(ortho_weight=0.0), "sphere_no_proj": dict(use_projection=False)}.get(method, {})
    block = init_block(r, **kw) if block is None else block
    hist = None
    if method in ("hebb", "oja"):
        K.train_patch_rule(method, block.conv, X, P.patch_epochs, BATCH, LR_PATCH, gen(r))
    elif method == "softhebb":
        K.train_patch_rule("softhebb", block.conv, X, P.patch_epochs, BATCH, LR_SOFTHEBB, gen(r), t_invert=T_INV)
    elif method.startswith("sphere"):
        hist = K.train_local(block, X, P.epochs, BATCH, LR, WD, gen(r))
    elif method == "backprop":
        if head is None:
            torch.manual_seed(10_000 * seed + r + 5_000)
            head = torch.nn.Linear(C * 16, 10)
        hist = K.train_backprop(block, head, X, y, P.epochs, BATCH, LR, WD, gen(r))
    K.calibrate_batchnorm(block, X)
    return block, head, hist


# %%
def pooled(F: torch.Tensor) -> torch.Tensor:
    """The narrow readout: each filter's 4x4 map averaged to one number (16 features)."""
    return F.reshape(F.shape[0], C, -1).mean(2)


acc = {m: [] for m in METHODS}
acc_pool = {m: [] for m in METHODS}
loss0, loss1, hists, blocks = {}, {}, {}, {}
for r in progress(range(P.inits), desc="initialisations"):
    for m in METHODS:
        if m in ("sphere", "sphere_no_ortho"):
            loss0.setdefault(m, []).append(K.evaluate_local_loss(init_block(r, ortho_weight=0.8 if m == "sphere" else 0.0), Xtr, BATCH))
        block, _, hist = train(m, r, Xtr, ytr)
        F_tr, F_te = K.block_features(block, Xtr), K.block_features(block, Xte)
        acc[m].append(PT * K.probe_accuracy(F_tr, ytr, F_te, yte, ALPHA))
        acc_pool[m].append(PT * K.probe_accuracy(pooled(F_tr), ytr, pooled(F_te), yte, ALPHA))
        if m in ("sphere", "sphere_no_ortho"):
            loss1.setdefault(m, []).append(K.evaluate_local_loss(block, Xtr, BATCH))
            hists.setdefault(m, []).append(hist)
        if r == 0:
            blocks[m] = block
mean = {m: float(np.mean(v)) for m, v in acc.items()}
mean_pool = {m: float(np.mean(v)) for m, v in acc_pool.items()}
print("linear-probe test accuracy (%), per initialisation; 256 features | 16 pooled features")
for m in METHODS:
    print(f"{LABELS[m]:>26}: {mean[m]:5.1f} ({', '.join(f'{a:.1f}' for a in acc[m])}) | "
          f"{mean_pool[m]:5.1f} ({', '.join(f'{a:.1f}' for a in acc_pool[m])})")

# %% [markdown]
# ### Continual check: digits 0–4, then digits 5–9

# %%
A_tr, A_te = ytr < 5, yte < 5
B_tr = ~A_tr
cont = {m: {"after A": [], "after B, same probe": [], "after B, new probe": []} for m in ("sphere", "backprop")}
for r in progress(range(P.inits), desc="continual"):
    for m in cont:
        block, head, _ = train(m, r, Xtr[A_tr], ytr[A_tr])
        probe = K.RidgeProbe(ALPHA).fit(K.block_features(block, Xtr[A_tr]), ytr[A_tr])
        cont[m]["after A"].append(PT * probe.accuracy(K.block_features(block, Xte[A_te]), yte[A_te]))
        block, _, _ = train(m, r + 100, Xtr[B_tr], ytr[B_tr], block=block, head=head)   # task B: no replay of A
        FA_tr, FA_te = K.block_features(block, Xtr[A_tr]), K.block_features(block, Xte[A_te])
        cont[m]["after B, same probe"].append(PT * probe.accuracy(FA_te, yte[A_te]))
        cont[m]["after B, new probe"].append(PT * K.probe_accuracy(FA_tr, ytr[A_tr], FA_te, yte[A_te], ALPHA))
forget = {m: float(np.mean(np.subtract(c["after A"], c["after B, same probe"]))) for m, c in cont.items()}
for m, c in cont.items():
    print(f"{LABELS[m]:>18}: " + "; ".join(f"{k} {np.mean(v):.1f}%" for k, v in c.items()) + f"; forgetting {forget[m]:.1f} points")

# %% [markdown]
# ## Results
#
# ### What the filters look like
#
# The 16 filters (5×5 pixels each) learned from the same random start by each method, first
# initialisation. Plain Hebb's units have collapsed onto one pattern, up to sign (a vertical edge).
# Oja's subspace rule makes the filters orthonormal and spanning the principal subspace of the patches,
# but any rotation of a basis of that subspace is a fixed point, and 16 of the 25 patch dimensions are most of
# them: single filters need not look like principal components, and they do not (at full scale either). SoftHebb's competing units settle on a few stroke-like patterns, several of them near copies. SPHeRe's
# and backprop's filters stay close to the random start in appearance: a few hundred steps move them, but
# nothing in either loss asks for smooth filters.

# %%
show = ["random", "hebb", "oja", "softhebb", "sphere", "backprop"]
fig, axes = plt.subplots(len(show), 1, figsize=(7.5, 0.62 * len(show) + 0.4))
for ax, m in zip(axes, show):
    W = blocks[m].conv.weight.detach().reshape(C, KSIZE, KSIZE).numpy()
    W = W / np.abs(W).max(axis=(1, 2), keepdims=True)   # each filter scaled to [-1, 1]
    mosaic = np.full((KSIZE, C * (KSIZE + 1) - 1), np.nan)
    for c in range(C):
        mosaic[:, c * (KSIZE + 1):c * (KSIZE + 1) + KSIZE] = W[c]
    ax.imshow(mosaic, cmap="RdBu_r", vmin=-1, vmax=1)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_ylabel(LABELS[m].replace(" (", "\n("), rotation=0, ha="right", va="center", fontsize=8)
fig.suptitle("16 learned 5×5 filters per method (each scaled to its largest weight; red +, blue −)", fontsize=9)
plt.show()

# %% [markdown]
# ### Linear-probe accuracy
#
# Test accuracy of the ridge probe on the frozen features of each block: one dot per initialisation, the
# bar at their mean, the error bar one standard deviation. Top: the pre-registered readout, all 256 block
# outputs (the dashed line is the probe on the raw 64 pixels). Bottom: the narrow readout added after the
# first run (see the claims), each filter's map averaged to one number, so that the probe sees 16 features and
# each filter has to carry information on its own.

# %%
fig, axes = plt.subplots(2, 1, figsize=(8, 6.4), sharex=True)
xs = np.arange(len(METHODS))
colors = ["0.6", "tab:olive", "tab:cyan", "tab:purple", "tab:red", "salmon", "lightcoral", "tab:blue"]
for ax, A, what in ((axes[0], acc, f"all {C * 16} features (16 filters x 4x4 positions)"),
                    (axes[1], acc_pool, "16 pooled features (each filter's map averaged)")):
    for i, m in enumerate(METHODS):
        ax.bar(i, np.mean(A[m]), color=colors[i], alpha=0.6, yerr=np.std(A[m]), capsize=3)
        ax.scatter(np.full(len(A[m]), i), A[m], color="k", s=10, zorder=3)
    lo = min(min(v) for v in A.values())
    ax.set_ylim(max(0, lo - 5), 100)
    ax.set_ylabel("probe test accuracy (%)")
    ax.set_title(f"Probe on {what}", fontsize=9)
axes[0].axhline(pixels_acc, ls="--", color="k", lw=1, label=f"raw 64 pixels ({pixels_acc:.1f}%)")
axes[0].legend(loc="lower right", fontsize=8)
axes[1].set_xticks(xs, [LABELS[m].replace(", ", ",\n").replace(" (", "\n(") for m in METHODS], fontsize=8)
fig.suptitle(f"Digits, one block of {C} filters; {P.inits} initialisations, {P.epochs} epochs ({P.scale} scale)", fontsize=10)
plt.show()

# %% [markdown]
# ### The two terms of the local loss during training
#
# Per-step training values on the current batch, mean over the initialisations (band: min to max). Without
# the orthogonality term (dashed) the orthogonality loss is only monitored.

# %%
fig, axes = plt.subplots(1, 2, figsize=(9, 3.2))
for ax, term in zip(axes, ("structural", "orthogonality")):
    for m, col, ls in (("sphere", "tab:red", "-"), ("sphere_no_ortho", "salmon", "--")):
        H = np.array([h[term] for h in hists[m]])
        steps = np.arange(1, H.shape[1] + 1)
        ax.plot(steps, H.mean(0), color=col, ls=ls, label=LABELS[m])
        ax.fill_between(steps, H.min(0), H.max(0), color=col, alpha=0.2)
    ax.set_yscale("log")
    ax.set_xlabel("training step (batch of 128 digits)")
    ax.set_ylabel(f"{term} loss (mean squared error)")
axes[0].legend(fontsize=8)
plt.show()

# %% [markdown]
# ### Continual check
#
# Test accuracy on task A (digits 0–4) after training on task A, and after training on task B (digits 5–9)
# with the probe fitted after task A ("same probe") or refitted ("new probe"). One dot per initialisation.

# %%
fig, ax = plt.subplots(figsize=(7, 3.2))
stages = list(next(iter(cont.values())))
for j, (m, col) in enumerate((("sphere", "tab:red"), ("backprop", "tab:blue"))):
    for i, st in enumerate(stages):
        x = i + (j - 0.5) * 0.35
        ax.bar(x, np.mean(cont[m][st]), width=0.33, color=col, alpha=0.6, label=LABELS[m] if i == 0 else None)
        ax.scatter(np.full(P.inits, x), cont[m][st], color="k", s=10, zorder=3)
ax.set_xticks(range(len(stages)), stages)
ax.set_ylabel("task-A test accuracy (%)")
ax.set_ylim(0, 100)
ax.legend(loc="lower left", fontsize=8)
ax.set_title("Digits 0-4, then 5-9, without replay")
plt.show()

# %% [markdown]
# ### Beside the paper's numbers
#
# The paper's setting (CIFAR-10, three wide blocks, 100 epochs) is far from ours; the rows are shown side by
# side only to place the orders of magnitude. Our rows are means over the initialisations of this run.

# %%
rows = [("CIFAR-10, SPHeRe, official repository log (best / last epoch)", "81.4 / 81.2", "—"),
        ("CIFAR-10, SoftHebb (its own paper)", "80.3", "—")]
rows += [(f"digits, one block of {C} filters, {LABELS[m]} (256 features; 16 pooled)", "—",
          f"{mean[m]:.1f} ± {np.std(acc[m]):.1f}; {mean_pool[m]:.1f} ± {np.std(acc_pool[m]):.1f}")
         for m in ("sphere", "softhebb", "oja", "hebb", "random", "backprop")]
rows += [("digits, raw pixels", "—", f"{pixels_acc:.1f}")]
display(Markdown("| setting | paper / repository (%) | ours (%) |\n|---|---|---|\n"
                 + "\n".join(f"| {a} | {b} | {c} |" for a, b, c in rows)))

# %% [markdown]
# ## Against the official code
#
# We read the official repository ([brain-intelligence-lab/SPHeRe](https://github.com/brain-intelligence-lab/SPHeRe),
# commit `7f3414e`, files `main.py` and `softhebb.py`) and ran its functions once outside this project, on CPU
# and in float64, on small seeded inputs; both files import `torchvision` for data loading only, which we
# stubbed. The outputs are kept in `tests/papers/golden/sphere-hebbian.json`, and the unit tests `test_golden_*`
# check our kernels against them. No official code is copied here.
#
# **What agrees** (to $10^{-12}$ absolute, or $10^{-9}$ relative for the gradients):
#
# * The cosine Gram matrix (`HebbLayer.normal_kernel`), including the official handling of an all-zero sample
#   (its row and column are 0).
# * The structural loss (`hebb_loss`): 0.143338 on a batch of 6; the orthogonality loss (`ortho_loss`): 0.143020
#   and 0.033880 on projections of 6×5 and 16×5.
# * A whole `HebbLayer` in training mode (a 3×3 convolution with 4 filters, batch norm, LeakyReLU, max-pooling,
#   and the projection to 5 numbers, every weight set from a seeded generator): its loss (1.448165), its output
#   (detached: no gradient leaves the block) and the gradient that the loss sends into the 36 filter weights
#   and the 4 biases. Our `SPHeReBlock` has the same parameters in the same order.
# * SoftHebb's plastic update (`SoftHebbConv2d.forward`, the update it stores in `weight.grad`) at inverse
#   temperatures 1 and 0.65, computed by us from the input patches.
#
# **Departures** (all listed under the deviations): the size of everything (one block of 16 filters, $P=32$,
# a few hundred steps, learning rate $10^{-2}$); the classifier fitted after training (ridge probe) rather than
# trained alongside; the SoftHebb baseline run on our block with our initialisation and batch size. We did not
# run the official training script: it needs CIFAR-10, which this machine cannot download, and a GPU-sized
# budget.

# %%
TRAINED = tolerance(abs=1.0, why="end point of a few hundred float32 AdamW / Hebbian steps; a few of 599 test digits can flip")
best_local = max(mean["oja"], mean["hebb"], mean["softhebb"])
claims.check("beats-random",
             statement=f"Mean linear-probe accuracy of SPHeRe minus frozen random filters, digits ({P.inits} initialisations), points",
             paper="the brief's check C1 (SPHeRe >= random features + 3 points); the paper reports only CIFAR-scale accuracies",
             criterion=at_least(3.0), measured=mean["sphere"] - mean["random"],
             control=mean["hebb"] - mean["random"], control_label="plain Hebb (normalised) minus random: its units collapse",
             tol=TRAINED)
claims.check("beats-local-rules",
             statement="Mean probe accuracy of SPHeRe minus the best of Oja, plain Hebb and SoftHebb, points",
             paper="best among unsupervised plasticity rules: 81.4% on CIFAR-10 (repository log) vs SoftHebb's 80.3%",
             criterion=at_least(0.5), measured=mean["sphere"] - best_local,
             control=mean["sphere_no_proj"] - best_local,
             control_label="SPHeRe without the auxiliary projection, minus the same best local rule", tol=TRAINED)
POOLED = ("added after the first run: with all 256 features the probe saturates (random filters already reach 98%), "
          "so this readout, one number per filter, asks the same question where the filters matter")
best_local_pool = max(mean_pool["oja"], mean_pool["hebb"], mean_pool["softhebb"])
claims.check("beats-random-pooled",
             statement="As beats-random, with the probe on the 16 pooled features (each filter's map averaged), points",
             paper="the brief's check C1 (SPHeRe >= random features + 3 points)",
             criterion=at_least(3.0), measured=mean_pool["sphere"] - mean_pool["random"],
             control=mean_pool["hebb"] - mean_pool["random"], control_label="plain Hebb (normalised) minus random",
             tol=TRAINED, post_hoc=POOLED)
claims.check("beats-local-rules-pooled",
             statement="As beats-local-rules, with the probe on the 16 pooled features, points",
             paper="best among unsupervised plasticity rules: 81.4% on CIFAR-10 (repository log) vs SoftHebb's 80.3%",
             criterion=at_least(0.5), measured=mean_pool["sphere"] - best_local_pool,
             control=mean_pool["sphere_no_proj"] - best_local_pool,
             control_label="SPHeRe without the auxiliary projection, minus the same best local rule",
             tol=TRAINED, post_hoc=POOLED)
decrease = {m: float(np.mean([min(1 - l1[0] / l0[0], 1 - l1[1] / l0[1]) for l0, l1 in zip(loss0[m], loss1[m])]))
            for m in ("sphere", "sphere_no_ortho")}
claims.check("local-losses-decrease",
             statement="Smaller of the relative decreases of the structural and orthogonality losses from initialisation (training set)",
             paper="the brief's check C2 (both local losses fall by >= 30%); the paper shows no loss curves that we could read",
             criterion=at_least(0.30), measured=decrease["sphere"], control=decrease["sphere_no_ortho"],
             control_label="SPHeRe without the orthogonality term (its orthogonality loss monitored only)",
             tol=tolerance(abs=0.03, why="ratio of losses at the end point of a few hundred float32 AdamW steps"))
claims.check("continual-forgetting",
             statement="Forgetting of task A (digits 0-4) after task B (5-9), same probe, SPHeRe, points",
             paper="abstract: 'strong effectiveness in continual learning'; no protocol or number found (threshold ours)",
             criterion=at_most(5.0), measured=forget["sphere"], control=forget["backprop"],
             control_label="end-to-end backprop trained on the same sequence", tol=tolerance(abs=1.5, why=TRAINED.why))

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Partial: SPHeRe learns better features than random filters and, with enough training, than the classic
# Hebbian rules, but only where the readout is narrow enough for the filters to matter; with the pre-registered
# readout, digits are too easy to tell the methods apart.** Numbers are from seed 0 at ci scale (2 initialisations, 36 AdamW steps) unless said otherwise; the
# last column of the table "Across seeds and scales" gives the full-scale values (5 initialisations, 270 steps),
# and the text gives only what that table does not carry.
#
# Over seeds 0–9 at ci scale (the table "Across seeds and scales", from `make sweep`; each seed redraws the data
# split and the initialisations) the reading is the same, with two claims less firm than seed 0 suggests. The
# two pre-registered accuracy claims fail at every seed (SPHeRe minus random filters between −0.5 and +0.8 points,
# minus the best local rule between −0.8 and +0.3), and the loss claim is uninformative at every seed (the
# ablation's orthogonality loss falls by 51–63%). The narrow-readout claim against random filters holds at 9 of
# 10 seeds (margin 2.3 to 8.2 points, median 4.6). The one against the best local rule is seed-sensitive at ci
# scale: its margin runs from −2.2 to +5.8 points (median 2.1), it passes at 6 seeds, and the no-projection
# control passes as well at most of them, so it counts at 2 seeds only. Forgetting stays within 5 points at 6 of
# 10 seeds (1.2 to 7.0 points, median 3.8); backprop's is 10.8 to 36.7 points at every seed.
#
# * *Pre-registered readout (all 256 block outputs): not reproduced.* A frozen random block already reaches
#   98.2% with the ridge probe, Oja's rule 98.7%, SPHeRe 97.8% and backprop with labels 97.8%. SPHeRe minus random
#   is −0.3 points (the brief asked for +3) and SPHeRe minus the best local rule (Oja) −0.8 (we asked for +0.5).
#   This is a ceiling, not a verdict on the rule: sixteen 5×5 filters followed by max-pooling keep almost
#   everything that a linear probe needs on 8×8 digits, whatever the filters are (raw pixels give 93.0%).
#   Only the rules that destroy information fall behind: plain Hebb, whose units collapse onto one filter
#   (93.2% here, 83.4% at full scale), and SoftHebb in our miniature (96.2%).
# * *Narrow readout, one number per filter († added after the first run to escape that ceiling): reproduced
#   against random filters; against the best local rule only with longer training.*
#   With 16 features the probe reads SPHeRe's filters at 83.7% against 79.8% for random filters (+3.9 points;
#   +6.3 at full scale) and 81.6% for the best local rule, Oja's (+2.1; +3.5 at full scale). Plain Hebb (55.4%)
#   and SoftHebb (65.4%) are far behind. The ablation tells the projection's share: without the auxiliary
#   projection (the loss computed on the block outputs themselves) SPHeRe reaches 83.6% at ci scale, as good as
#   with it, so the ci claim is uninformative; with longer training the ablation falls to 75.4%, below
#   random filters, while SPHeRe with its projection rises to 85.0%, and the full-scale claim counts (seed 0
#   only: a full-scale run takes about 2.5 minutes of CPU, so the full sweep has one seed). Backprop
#   with labels stays above SPHeRe (83.1% at ci, 86.8% at full scale), as the brief's sanity check expects
#   (SPHeRe no better than backprop + 1 point; shown, not a claim).
# * *Both local losses fall: uninformative.* Over the training set the structural loss and the orthogonality
#   loss drop by at least 72% (79% at full scale) from their values at initialisation. But the ablation
#   without the orthogonality term lowers the orthogonality loss by 52% too (64% at full scale): asking the
#   projection to reproduce the angles between digits already spreads its 32 features apart. The term
#   matters for the level it reaches (the loss-curve figure: about half the ablation's final value), not for
#   whether the loss falls, so the brief's 30% criterion cannot tell them apart.
# * *Continual check: reproduced at seed 0 and at 6 of 10 seeds at ci scale, not at full scale.* After learning digits 5–9, SPHeRe's
#   features give 2.0 points less on digits 0–4 through the probe fitted after the first task (our threshold: at
#   most 5); backprop, trained on the same sequence with labels, loses 28.5 points. At full scale SPHeRe loses
#   5.5 points and misses the threshold, still five times less than backprop (26.3). With a refitted probe
#   both recover 99.7% or more: what drifts is where the information sits in the features, not whether it is
#   there. The 5-point threshold is ours; the robust finding is the ratio to backprop, not the threshold.
#
# **What this says about the paper.** On an easy task and a single narrow layer, SPHeRe's loss does what the
# paper says it should: it learns filters that are better than random and than Oja's, plain Hebb's or SoftHebb's
# for a readout that depends on every filter, and it forgets less than backprop in a two-task sequence.
# The margin over the best classic rule on the narrow readout (3.5 points at full scale; at ci scale anywhere
# between −2 and +6 points across seeds) is of the order of the paper's margin over SoftHebb on CIFAR-10 (about
# 1 point), and so is its noise at our scale. With all 256 features the comparison is uninformative
# in our setting; whether it separates the methods on harder data is what the paper's CIFAR experiments test and
# this page does not.
#
# ## What the miniature cannot show
#
# * CIFAR-10/100 and Tiny-ImageNet, the paper's benchmarks, and its accuracies (81.4% on CIFAR-10 in the
#   repository's log): our data are 8×8 digits, on which random features already saturate a wide probe.
# * Depth: the paper stacks three wide blocks (384, 768 and 1,536 channels), each trained on the detached output
#   of the one before. The claim that the projection's "feedback mediation" lets local learning scale to deep
#   networks needs several blocks; we train one.
# * SoftHebb at its best: we ran its update rule on our block, initialisation and batch size for a few epochs,
#   not its own architecture, initialisation and schedule, so its low numbers here say little about SoftHebb.
# * The official setting of the orthogonality term: there the projection has 256 features and the batch 128
#   samples, so the 256 feature columns cannot all be orthogonal and the loss cannot reach 0; ours has 32
#   features, which can.
# * Transfer learning, image reconstruction, and continual learning over longer task sequences or with the
#   paper's protocol, which we did not find.
