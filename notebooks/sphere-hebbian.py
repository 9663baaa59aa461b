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

from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, tolerance
from repro.papers import sphere_hebbian as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 11 s of CPU on one thread: 2 initialisations, 4 epochs of 9 steps, and the official 3x3 configuration
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
# file once committed to the official repository (with `hebb.py` at commit `502ffc4`) reads 81.4% best (81.2%
# last) test accuracy on CIFAR-10; SoftHebb reports 80.3% on CIFAR-10. Two caveats on that log: the script
# that wrote it uses a structural loss built on pairwise distances (`pdist`), not the cosine-Gram loss of the
# later `main.py` that we implement, and its "best" is the best epoch chosen on the test set itself. Transfer and reconstruction figures appear
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
#   directly); SPHeRe stopped after one epoch; two naive filter learners without a gradient, exact PCA filters
#   of the patches and spherical k-means centroids of the contrast-normalised patches (`K.pca_filters`,
#   `K.spherical_kmeans_filters`, added after the independent review); and end-to-end backpropagation with a
#   linear classifier (the upper reference). SPHeRe and
#   backprop use AdamW (learning rate $10^{-2}$, weight decay 0.05, cosine schedule) on batches of 128.
# * **Probe.** Ridge regression on ±1 one-hot targets ($\alpha=1$, standardised features, argmax), fitted on
#   the training set's frozen features, scored on the test set; batch-norm statistics are set to those of
#   the training set before the features are read. Raw pixels through the same probe are a reference.
# * **Scale.** ci: 2 initialisations, 4 epochs (36 steps) for the gradient-trained blocks, 6 epochs for
#   the patch rules. full: 5 initialisations, 30 epochs (270 steps) and 40 epochs. Mean and spread are over
#   the initialisations; the sweep (`make sweep`) repeats the whole page over seeds 0–9 (data split
#   included). The page's run time at each scale is on its card. The pooled tests are run a second time with
#   the official kernel size and batching (3×3 filters, padding 1, last partial batch kept; backprop left out).
# * **Continual check.** Task A = digits 0–4, task B = digits 5–9, seen one after the other with no
#   replay. SPHeRe trains unsupervised on A's images and then on B's; backprop trains on A's labels and
#   then on B's (one 10-way head). After task A a linear probe for A is fitted on the features; after
#   task B the *same* probe is applied to the new features of A's test images (batch-norm statistics are
#   always those of the task just trained). **Forgetting** is A's test
#   accuracy after task A minus after task B, in points. We also refit the probe after task B, to see how much
#   of A's information the features still hold.
#
# **Claims, fixed before the first run** (the criteria and thresholds below are unchanged since; the
# comparators were added when the page was converted to the book's claim model, issue 33: each test now stands
# beside its ablation, the method without the ingredient it is about, and the strongest naive baselines, all
# measured the same way):
#
# 1. *Beats random features* (the brief's check C1): mean probe accuracy of SPHeRe minus that of the frozen
#    random block $\ge 3$ points. Ablation: SPHeRe without the orthogonality term. Baselines: Oja's subspace
#    rule and SoftHebb, minus the same random block (plain Hebb, whose units collapse, was the first control:
#    a strawman, dropped). Added after the independent review, all minus the same random block: exact PCA
#    filters of the patches, spherical k-means centroids of the patches as filters (two naive filter learners
#    without a gradient), SPHeRe without the projection, and SPHeRe stopped after one epoch.
# 2. *Beats the local rules* (the paper's headline): mean probe accuracy of SPHeRe minus the best of Oja,
#    plain Hebb and SoftHebb $\ge 0.5$ points (the paper's margin over SoftHebb on CIFAR-10 is about 1 point).
#    Ablation: SPHeRe without the auxiliary projection, the ingredient in the paper's title. Baselines (since the
#    review), minus the same best local rule: PCA filters, k-means filters, SPHeRe stopped after one epoch. (The
#    frozen random block was the baseline before; it was the negative of claim 1's Oja baseline whenever Oja's
#    rule is the best local rule, one measurement counted twice, and was dropped.)
# 3. *The local loss is optimised* (the brief's check C2): both terms of the loss, measured over the
#    training set, fall by at least 30% from their value at initialisation (the smaller of the two relative
#    decreases, mean over initialisations). Now an illustration, not a test: an optimiser lowering its own loss
#    is a property of our code, and SPHeRe without the orthogonality term lowers both terms as much.
# 4. *Little forgetting* (the abstract's continual-learning claim; our threshold, the paper gives no number we
#    could find): forgetting of SPHeRe $\le 5$ points. Ablation: SPHeRe without the projection. Baselines:
#    frozen random filters (nothing learned, batch norm re-fitted to each task), Oja's rule, and end-to-end
#    backprop trained on the same sequence (the first control).
#
# The brief's third check (SPHeRe no better than backprop + 1 point) is shown in the figures but is not a
# claim: nothing natural could serve as its control.
#
# **Added after the first run (†).** The first run showed that the probe on all 256 outputs saturates: frozen
# random filters reach 98%, so claims 1 and 2 cannot separate the methods. Claims 1 and 2 were therefore
# repeated, with the same thresholds and controls and on the same trained blocks, for a narrow readout: each
# filter's 4×4 map averaged to one number, 16 features in all (the same global pooling that SPHeRe's projection
# applies), so that the probe depends on every filter. The pre-registered claims are kept unchanged. A second
# reading against the official code (issue 34) added the two pooled tests once more with the official kernel
# size and batching (3×3 filters, padding 1, last partial batch kept), thresholds unchanged (†). The † tests
# are not yet confirmed on fresh seeds (10–19); until they are, they do not move the page's badge.
#
# **Deviations from the paper**
#
# * Data and scale: 8×8 digits instead of CIFAR-10/100 and Tiny-ImageNet; one block of 16 filters instead of
#   three blocks of 384, 768 and 1,536 channels (no residual connection); projection size 32 instead of 256;
#   36 (ci) or 270 (full) AdamW steps instead of 100 epochs of CIFAR (about 39,000 steps).
# * Kernel size and batching: the official blocks use 3×3 convolutions with padding 1 and keep the last
#   partial batch of each epoch; ours are 5×5 (padding 2) and drop it (1,198 training digits: 9 batches of 128,
#   46 digits left out each epoch, at a new random draw). Both are run as a second configuration for the pooled
#   tests (the `-3x3` rows of the claims table). Two details of that configuration: only the SPHeRe variants
#   keep the last partial batch there, the patch rules (Oja, Hebb, SoftHebb) still drop it; and a 3×3 patch has
#   9 dimensions, so 16 Oja units cannot be orthonormal: the Oja baseline there is an overcomplete, degenerate
#   PCA, and the PCA filters fill only 9 of the 16 filters (the other 7 keep their random start).
# * Learning rate $10^{-2}$ instead of the official $10^{-3}$, to make up for far fewer steps (about 1,000 times
#   fewer at ci scale, 36 steps, and about 145 times fewer at full scale, 270 steps); the
#   cosine schedule is stepped per epoch over our epochs, as the official one is over its 100. The same rate
#   and schedule for the backprop reference.
# * The official script trains the linear classifier on top at the same time as the blocks, on the labels,
#   and reports its test accuracy. We train the block first and then fit a ridge probe on frozen features,
#   the usual linear-probe protocol; no label reaches the SPHeRe block in either case.
# * Baselines on the same block: SoftHebb's own architecture (input batch norm, triangle activation, its
#   initialisation with large weights and reflect padding, a batch of 10 for one epoch) is replaced by our
#   block (but with SoftHebb's reflect padding, where the other methods pad with zeros: on 8×8 digits most
#   patches touch the border, and zero padding changed SoftHebb's update by about half its norm at our random
#   start; the first version of this page used zero padding), the shared random initialisation, batches of 128
#   and the epochs above; its
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

METHODS = ["random", "hebb", "oja", "softhebb", "pca", "kmeans", "sphere", "sphere_1ep", "sphere_no_ortho",
           "sphere_no_proj", "backprop"]
LABELS = {"random": "random (frozen)", "hebb": "plain Hebb", "oja": "Oja subspace", "softhebb": "SoftHebb",
          "pca": "PCA filters", "kmeans": "k-means filters", "sphere": "SPHeRe", "sphere_1ep": "SPHeRe, 1 epoch",
          "sphere_no_ortho": "SPHeRe, no orthogonality", "sphere_no_proj": "SPHeRe, no projection",
          "backprop": "backprop (labels)"}


def init_block(r: int, ksize: int = KSIZE, **kw) -> K.SPHeReBlock:
    """The shared random initialisation of initialisation r (the same filters for every method)."""
    torch.manual_seed(10_000 * seed + r)
    return K.SPHeReBlock(1, C, ksize, PROJ, **kw)


def gen(r: int) -> torch.Generator:
    return torch.Generator().manual_seed(10_000 * seed + r)


def train(method: str, r: int, X: torch.Tensor, y: torch.Tensor, block: K.SPHeReBlock | None = None, head=None,
          ksize: int = KSIZE, drop_last: bool = True):
    """Train (in place) the block of one method on (X, y); returns the block, the head and the loss history.

    ``ksize=3, drop_last=False`` is the official configuration's kernel (3x3, padding 1) and batching."""
    kw = {"sphere_no_ortho": dict(ortho_weight=0.0), "sphere_no_proj": dict(use_projection=False)}.get(method, {})
    block = init_block(r, ksize, **kw) if block is None else block
    hist = None
    if method in ("hebb", "oja"):
        K.train_patch_rule(method, block.conv, X, P.patch_epochs, BATCH, LR_PATCH, gen(r))
    elif method == "softhebb":
        block.conv.padding_mode = "reflect"   # as SoftHebb's own convolutions pad, in training and in the features
        K.train_patch_rule("softhebb", block.conv, X, P.patch_epochs, BATCH, LR_SOFTHEBB, gen(r), t_invert=T_INV)
    elif method in ("pca", "kmeans"):   # naive filter learners, no gradient (added after the independent review)
        patches = K.extract_patches(X, ksize, ksize // 2)
        W0 = block.conv.weight.detach().reshape(C, -1)
        W = K.pca_filters(patches, W0) if method == "pca" else K.spherical_kmeans_filters(patches, C, gen(r))
        with torch.no_grad():
            block.conv.weight.copy_(W.reshape(block.conv.weight.shape))
            block.conv.bias.zero_()
    elif method == "sphere_1ep":        # SPHeRe stopped after its first epoch (constant rate over that epoch)
        hist = K.train_local(block, X, 1, BATCH, LR, WD, gen(r), drop_last=drop_last)
    elif method.startswith("sphere"):
        hist = K.train_local(block, X, P.epochs, BATCH, LR, WD, gen(r), drop_last=drop_last)
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

# The official configuration's kernel and batching (3x3 filters, padding 1, last partial batch kept), issue 34
# item 8: the same methods (backprop left out), both readouts.
OFFICIAL = ["random", "hebb", "oja", "softhebb", "pca", "kmeans", "sphere", "sphere_1ep", "sphere_no_ortho",
            "sphere_no_proj"]
acc3 = {m: [] for m in OFFICIAL}
acc3_pool = {m: [] for m in OFFICIAL}
for r in progress(range(P.inits), desc="official 3x3 kernels"):
    for m in OFFICIAL:
        block, _, _ = train(m, r, Xtr, ytr, ksize=3, drop_last=False)
        F_tr, F_te = K.block_features(block, Xtr), K.block_features(block, Xte)
        acc3[m].append(PT * K.probe_accuracy(F_tr, ytr, F_te, yte, ALPHA))
        acc3_pool[m].append(PT * K.probe_accuracy(pooled(F_tr), ytr, pooled(F_te), yte, ALPHA))
mean3 = {m: float(np.mean(v)) for m, v in acc3.items()}
mean3_pool = {m: float(np.mean(v)) for m, v in acc3_pool.items()}
print("linear-probe test accuracy (%), per initialisation; 256 features | 16 pooled features")
for m in METHODS:
    print(f"{LABELS[m]:>26}: {mean[m]:5.1f} ({', '.join(f'{a:.1f}' for a in acc[m])}) | "
          f"{mean_pool[m]:5.1f} ({', '.join(f'{a:.1f}' for a in acc_pool[m])})")
print("official kernel (3x3, padding 1, last partial batch kept); 256 features | 16 pooled features")
for m in OFFICIAL:
    print(f"{LABELS[m]:>26}: {mean3[m]:5.1f} | {mean3_pool[m]:5.1f}")

# %% [markdown]
# ### Continual check: digits 0–4, then digits 5–9

# %%
A_tr, A_te = ytr < 5, yte < 5
B_tr = ~A_tr
CONT = ("sphere", "sphere_no_proj", "random", "oja", "backprop")
cont = {m: {"after A": [], "after B, same probe": [], "after B, new probe": []} for m in CONT}
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
fig, axes = plt.subplots(2, 1, figsize=(9.5, 6.6), sharex=True)
xs = np.arange(len(METHODS))
colors = ["0.6", "tab:olive", "tab:cyan", "tab:purple", "tab:green", "tab:brown", "tab:red", "rosybrown", "salmon",
          "lightcoral", "tab:blue"]
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
# with the probe fitted after task A ("same probe") or refitted ("new probe"), for SPHeRe, its ablation without
# the projection, the frozen random block, Oja's rule and backprop with labels. One dot per initialisation.

# %%
fig, ax = plt.subplots(figsize=(7, 3.2))
stages = list(next(iter(cont.values())))
CCOL = {"sphere": "tab:red", "sphere_no_proj": "lightcoral", "random": "0.6", "oja": "tab:cyan", "backprop": "tab:blue"}
for j, m in enumerate(CONT):
    col = CCOL[m]
    for i, st in enumerate(stages):
        x = i + (j - 2) * 0.17
        ax.bar(x, np.mean(cont[m][st]), width=0.16, color=col, alpha=0.6, label=LABELS[m] if i == 0 else None)
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
rows = [("CIFAR-10, SPHeRe, repository log of hebb.py at 502ffc4, pdist loss (best epoch on test / last)", "81.4 / 81.2", "—"),
        ("CIFAR-10, SoftHebb (its own paper)", "80.3", "—")]
rows += [(f"digits, one block of {C} filters, {LABELS[m]} (256 features; 16 pooled)", "—",
          f"{mean[m]:.1f} ± {np.std(acc[m]):.1f}; {mean_pool[m]:.1f} ± {np.std(acc_pool[m]):.1f}")
         for m in ("sphere", "softhebb", "oja", "hebb", "pca", "kmeans", "random", "backprop")]
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
# a few hundred steps, learning rate $10^{-2}$); 5×5 kernels with padding 2 where the official blocks use 3×3
# with padding 1, and the last partial batch dropped where the official loader keeps it (both run as a second
# configuration: the `-3x3` tests); the classifier fitted after training (ridge probe) rather than
# trained alongside; the SoftHebb baseline run on our block with our initialisation and batch size (with its
# own reflect padding since the second reading; zero padding before). The CIFAR-10 log we quote (81.4%) was written by the older
# `hebb.py` (commit `502ffc4`), whose structural loss compares pairwise distances (`pdist`) rather than cosine
# Gram matrices, and reports the best epoch on the test set. We did not
# run the official training script: it needs CIFAR-10, which this machine cannot download, and a GPU-sized
# budget.

# %%
TRAINED = tolerance(abs=1.0, why="end point of a few hundred float32 AdamW / Hebbian steps; a few of 599 test digits can flip")
PAPER_LOCAL = ("best among unsupervised plasticity rules: 81.4% best / 81.2% last epoch on CIFAR-10 in a log committed "
               "with the repository's hebb.py (pairwise-distance loss; 'best' chosen on the test set) vs SoftHebb's 80.3%")
POOLED = ("added after the first run: with all 256 features the probe saturates (random filters already reach 98%), "
          "so this readout, one number per filter, asks the same question where the filters matter")
OFFICIAL_WHY = ("issue 34 item 8: the official blocks use 3x3 kernels with padding 1 and keep the last partial batch "
                "(ours 5x5 and dropped); the same test rerun with the official values, threshold unchanged")
NO_ORTHO = "SPHeRe without the orthogonality term (0.8 -> 0)"
NO_PROJ = "SPHeRe without the auxiliary projection (the loss on the 256 block outputs)"
PCA_F = "exact PCA filters of the patches (top principal directions; no gradient)"
KMEANS_F = "spherical k-means centroids of contrast-normalised patches as filters"
ONE_EPOCH = "SPHeRe stopped after one epoch (early stopping)"


def beats_random(M: dict, statement: str, **kw) -> None:
    """The beats-random test on the accuracies M (a readout, a configuration)."""
    claims.test(kw.pop("id"), statement=statement,
                paper="the brief's check C1 (SPHeRe >= random features + 3 points); the paper reports only CIFAR-scale accuracies",
                criterion=at_least(3.0), measured=M["sphere"] - M["random"],
                ablation=Comparator(f"{NO_ORTHO}, minus random", M["sphere_no_ortho"] - M["random"],
                                    ingredient="the orthogonality term, which keeps the units apart")
                if "sphere_no_ortho" in M else
                Comparator(f"{NO_PROJ}, minus random", M["sphere_no_proj"] - M["random"],
                           ingredient="the auxiliary projection (feedback mediation)"),
                baselines=[Comparator("Oja's subspace rule on the same patches, minus random", M["oja"] - M["random"]),
                           Comparator("SoftHebb's update (its reflect padding) on the same block, minus random", M["softhebb"] - M["random"]),
                           Comparator(f"{PCA_F}, minus random", M["pca"] - M["random"]),
                           Comparator(f"{KMEANS_F}, minus random", M["kmeans"] - M["random"]),
                           Comparator(f"{NO_PROJ}, minus random", M["sphere_no_proj"] - M["random"]),
                           Comparator(f"{ONE_EPOCH}, minus random", M["sphere_1ep"] - M["random"])],
                tol=TRAINED, **kw)


def beats_local(M: dict, statement: str, **kw) -> None:
    """The beats-local-rules test on the accuracies M (a readout, a configuration)."""
    best = max(M["oja"], M["hebb"], M["softhebb"])
    claims.test(kw.pop("id"), statement=statement, paper=PAPER_LOCAL, criterion=at_least(0.5),
                measured=M["sphere"] - best,
                ablation=Comparator(f"{NO_PROJ}, minus the same best local rule", M["sphere_no_proj"] - best,
                                    ingredient="the auxiliary projection (feedback mediation)"),
                baselines=[Comparator(f"{PCA_F}, minus the same best local rule", M["pca"] - best),
                           Comparator(f"{KMEANS_F}, minus the same best local rule", M["kmeans"] - best),
                           Comparator(f"{ONE_EPOCH}, minus the same best local rule", M["sphere_1ep"] - best)],
                tol=TRAINED, **kw)


claims.headline("beats-plasticity-rules",
                "Features learned block by block with SPHeRe's local loss give a better linear probe than those of "
                "earlier synaptic-plasticity rules (the paper: SoftHebb; here the rule actually beaten or not is Oja's "
                "subspace rule, i.e. PCA, since SoftHebb run on our block falls below random filters here)",
                tests=["beats-local-rules", "beats-local-rules-pooled", "beats-local-rules-pooled-3x3"])
claims.headline("learns-useful-features",
                "Our check, not a claim of the paper's abstract (the brief's C1): SPHeRe's local loss learns features "
                "worth learning, better than the block left at its random start (the orthogonality term is ablated, "
                "the projection dropped as a comparator; a loss without the structural term is not run)",
                tests=["beats-random", "beats-random-pooled", "beats-random-pooled-3x3"])
claims.headline("continual-learning",
                "SPHeRe is effective in continual learning (little forgetting of earlier tasks)",
                tests=["continual-forgetting"])
claims.headline("transfer-reconstruction",
                "SPHeRe's features transfer across data sets and support image reconstruction",
                untestable="one data set of 8x8 digits; the paper's transfer and reconstruction protocols and numbers "
                           "were not found")
beats_random(mean, id="beats-random",
             statement=f"Mean linear-probe accuracy of SPHeRe minus frozen random filters, digits ({P.inits} initialisations), points")
beats_local(mean, id="beats-local-rules",
            statement="Mean probe accuracy of SPHeRe minus the best of Oja, plain Hebb and SoftHebb, points")
beats_random(mean_pool, id="beats-random-pooled",
             statement="As beats-random, with the probe on the 16 pooled features (each filter's map averaged), points",
             post_hoc=POOLED)
beats_local(mean_pool, id="beats-local-rules-pooled",
            statement="As beats-local-rules, with the probe on the 16 pooled features, points", post_hoc=POOLED)
beats_random(mean3_pool, id="beats-random-pooled-3x3",
             statement="As beats-random-pooled, with the official 3x3 kernels (padding 1, last partial batch kept), points",
             post_hoc=OFFICIAL_WHY, setting="official kernel size and batching")
beats_local(mean3_pool, id="beats-local-rules-pooled-3x3",
            statement="As beats-local-rules-pooled, with the official 3x3 kernels (padding 1, last partial batch kept), points",
            post_hoc=OFFICIAL_WHY, setting="official kernel size and batching")
decrease = {m: float(np.mean([min(1 - l1[0] / l0[0], 1 - l1[1] / l0[1]) for l0, l1 in zip(loss0[m], loss1[m])]))
            for m in ("sphere", "sphere_no_ortho")}
claims.illustrate("local-losses-decrease",
                  statement="Smaller of the relative decreases of the structural and orthogonality losses from initialisation (training set)",
                  paper="the brief's check C2 (both local losses fall by >= 30%); the paper shows no loss curves that we could read",
                  criterion=at_least(0.30), measured=decrease["sphere"],
                  why="gradient descent lowering the loss it descends is a property of our optimiser, not of the paper; "
                      "and the ablation without the orthogonality term lowers both terms as much (shown beside it), so "
                      "the 30% criterion cannot tell the ingredient apart",
                  tol=tolerance(abs=0.03, why="ratio of losses at the end point of a few hundred float32 AdamW steps"))
claims.test("continual-forgetting",
            statement="Forgetting of task A (digits 0-4) after task B (5-9), same probe, SPHeRe, points",
            paper="abstract: 'strong effectiveness in continual learning'; no protocol or number found (threshold ours)",
            criterion=at_most(5.0), measured=forget["sphere"],
            ablation=Comparator(f"{NO_PROJ}, on the same sequence", forget["sphere_no_proj"],
                                ingredient="the auxiliary projection (feedback mediation)"),
            baselines=[Comparator("frozen random filters (batch norm re-fitted to each task, nothing learned)", forget["random"]),
                       Comparator("Oja's subspace rule on the same sequence", forget["oja"]),
                       Comparator("end-to-end backprop with labels on the same sequence", forget["backprop"])],
            tol=tolerance(abs=1.5, why=TRAINED.why))

G = {"sphere": "sp", "sphere_no_ortho": "noortho", "sphere_no_proj": "noproj", "random": "rand", "hebb": "hebb",
     "oja": "oja", "softhebb": "sh", "backprop": "bp", "pca": "pca", "kmeans": "km", "sphere_1ep": "sp1"}
for m, k in G.items():
    glue(f"acc_{k}", mean[m], display=False)
    glue(f"pool_{k}", mean_pool[m], display=False)
    if m in OFFICIAL:
        glue(f"acc3_{k}", mean3[m], display=False)
        glue(f"pool3_{k}", mean3_pool[m], display=False)
    if m in cont:
        glue(f"forget_{k}", forget[m], display=False)
        glue(f"newprobe_{k}", float(np.mean(cont[m]["after B, new probe"])), display=False)
glue("pixels", pixels_acc, display=False)
glue("sd_pool_rand", float(np.std(acc_pool["random"])), display=False)   # spread over the initialisations
glue("sd_pool_sp", float(np.std(acc_pool["sphere"])), display=False)
glue("dec_sp", PT * decrease["sphere"], display=False)
glue("dec_noortho", PT * decrease["sphere_no_ortho"], display=False)
glue("best_local", max(mean["oja"], mean["hebb"], mean["softhebb"]), display=False)
glue("best_local_pool", max(mean_pool["oja"], mean_pool["hebb"], mean_pool["softhebb"]), display=False)
glue("best_local_pool3", max(mean3_pool["oja"], mean3_pool["hebb"], mean3_pool["softhebb"]), display=False)

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
# The numbers below are from seed 0 at ci scale (2 initialisations, 36 AdamW steps); the counts over seeds are
# from the ci sweep (seeds 0–9, each redrawing the data split and the initialisations), and the full-scale values
# are in the table "Across seeds and scales".
#
# * *Pre-registered readout, all 256 block outputs: SPHeRe beats neither the random block nor the local rules*
#   ({repro-status}`beats-random`, {repro-status}`beats-local-rules`). With the ridge probe, the frozen random
#   block reaches {glue:text}`acc_rand:.1f`%, Oja's rule {glue:text}`acc_oja:.1f`%, SoftHebb
#   {glue:text}`acc_sh:.1f`%, SPHeRe {glue:text}`acc_sp:.1f`% and backprop with labels {glue:text}`acc_bp:.1f`%
#   (raw pixels: {glue:text}`pixels:.1f`%). This is a ceiling, not a verdict on the rule: sixteen filters
#   followed by max-pooling keep almost everything a linear probe needs on 8×8 digits, whatever the filters are.
#   Only plain Hebb, whose units collapse onto one filter, falls clearly behind ({glue:text}`acc_hebb:.1f`%).
#   SPHeRe passes at {repro-seeds}`beats-random:method:pass` and {repro-seeds}`beats-local-rules:method:pass`
#   seeds of the sweep.
# * *Narrow readout, one number per filter († added after the first run), against the random block*
#   ({repro-status}`beats-random-pooled`). SPHeRe's 16 pooled features give {glue:text}`pool_sp:.1f`%, the
#   random block's {glue:text}`pool_rand:.1f`%; SPHeRe without the orthogonality term {glue:text}`pool_noortho:.1f`%,
#   Oja's rule {glue:text}`pool_oja:.1f`%, SoftHebb {glue:text}`pool_sh:.1f`% and plain Hebb
#   {glue:text}`pool_hebb:.1f`%. Over the sweep SPHeRe clears the 3-point margin at
#   {repro-seeds}`beats-random-pooled:method:pass` seeds, the ablation at
#   {repro-seeds}`beats-random-pooled:ablation:pass`, Oja's rule at {repro-seeds}`beats-random-pooled:baseline1:pass`
#   and SoftHebb at {repro-seeds}`beats-random-pooled:baseline2:pass`. The two naive filter learners that the
#   independent review added, which use no gradient and none of the paper's ideas, reach
#   {glue:text}`pool_pca:.1f`% (exact PCA filters) and {glue:text}`pool_km:.1f`% (k-means filters) and clear the
#   same margin at {repro-seeds}`beats-random-pooled:baseline3:pass` and
#   {repro-seeds}`beats-random-pooled:baseline4:pass` seeds; SPHeRe without its projection at
#   {repro-seeds}`beats-random-pooled:baseline5:pass`, and SPHeRe stopped after one epoch
#   ({glue:text}`pool_sp1:.1f`%) at {repro-seeds}`beats-random-pooled:baseline6:pass`.
# * *Narrow readout, against the best local rule* ({repro-status}`beats-local-rules-pooled`). The best of the three
#   local rules (values in the bullet above) reaches {glue:text}`best_local_pool:.1f`% at seed 0, SPHeRe
#   {glue:text}`pool_sp:.1f`%; but SPHeRe *without its auxiliary projection* reaches {glue:text}`pool_noproj:.1f`%:
#   the projection, the ingredient in the paper's title, is not what beats the local rules here. Over the sweep: method at
#   {repro-seeds}`beats-local-rules-pooled:method:pass` seeds, the ablation at
#   {repro-seeds}`beats-local-rules-pooled:ablation:pass`, PCA filters at
#   {repro-seeds}`beats-local-rules-pooled:baseline1:pass`, k-means filters at
#   {repro-seeds}`beats-local-rules-pooled:baseline2:pass` and SPHeRe after one epoch at
#   {repro-seeds}`beats-local-rules-pooled:baseline3:pass`.
# * *The official kernel size and batching* (3×3 filters, padding 1, last partial batch kept;
#   {repro-status}`beats-random-pooled-3x3`, {repro-status}`beats-local-rules-pooled-3x3`). With the official
#   filters SPHeRe's pooled features give {glue:text}`pool3_sp:.1f`%, the random block's
#   {glue:text}`pool3_rand:.1f`% and the best local rule's {glue:text}`best_local_pool3:.1f`% (Oja's rule
#   {glue:text}`pool3_oja:.1f`%; PCA filters {glue:text}`pool3_pca:.1f`%, k-means filters
#   {glue:text}`pool3_km:.1f`%). Over the sweep the method passes at
#   {repro-seeds}`beats-random-pooled-3x3:method:pass` and {repro-seeds}`beats-local-rules-pooled-3x3:method:pass`
#   seeds, far from the 8 a test needs: the narrow-readout finding depends on our 5×5 kernels, a departure from
#   the official code. Without the projection SPHeRe passes the second test at
#   {repro-seeds}`beats-local-rules-pooled-3x3:ablation:pass` seeds.
# * *Both local losses fall: an illustration, not a test.* The smaller of the two relative decreases is
#   {glue:text}`dec_sp:.0f`% for SPHeRe and {glue:text}`dec_noortho:.0f`% for the ablation without the
#   orthogonality term, whose orthogonality loss is only monitored: asking the projection to keep the angles between
#   digits already spreads its 32 features apart. The term sets the level the loss reaches (the loss-curve figure),
#   not whether it falls.
# * *Continual check* ({repro-status}`continual-forgetting`). After digits 5–9, SPHeRe's features give
#   {glue:text}`forget_sp:.1f` points less on digits 0–4 through the probe fitted after the first task (our
#   threshold: at most 5). Without the projection SPHeRe loses {glue:text}`forget_noproj:.1f` points, and backprop
#   with labels on the same sequence {glue:text}`forget_bp:.1f`. But the frozen random block, which learns nothing,
#   loses {glue:text}`forget_rand:.1f`, and Oja's rule {glue:text}`forget_oja:.1f`: little forgetting is what any
#   slow unsupervised rule on a small block shows here, not evidence for SPHeRe. At seed 0 the ablation without
#   the projection forgets more than SPHeRe; over the sweep it passes at
#   {repro-seeds}`continual-forgetting:ablation:pass` seeds, against SPHeRe's
#   {repro-seeds}`continual-forgetting:method:pass`. At full scale SPHeRe's own forgetting is above our
#   5-point threshold: the full-scale row of the table "Across seeds and scales" shows it. With a refitted probe SPHeRe's features still give
#   {glue:text}`newprobe_sp:.1f`% on digits 0–4 and backprop's {glue:text}`newprobe_bp:.1f`%: what drifts is
#   where the information sits, not whether it is there. Over the sweep: the random block at
#   {repro-seeds}`continual-forgetting:baseline1:pass`, Oja's rule at
#   {repro-seeds}`continual-forgetting:baseline2:pass` and backprop at
#   {repro-seeds}`continual-forgetting:baseline3:pass` seeds.
#
# **What this says about the paper.** The page's only positive finding is narrow, and it is not SPHeRe's. On
# 8×8 digits with one block of 16 filters and the 16-number pooled readout, SPHeRe's loss learns filters that
# the probe reads better than random filters, with our 5×5 kernels, at the number of seeds the sweep counts
# above. Exact PCA filters and k-means filters of the patches, which use no gradient and none of the paper's
# ideas, clear the same margin over random filters at a similar number of seeds, and so does SPHeRe without its
# auxiliary projection, the ingredient in the paper's title: beating random filters on this readout is what any
# learner of patch statistics does here, not evidence for SPHeRe's loss. Beating the local rules (in practice
# Oja's rule, i.e. PCA: SoftHebb on our block falls below the random block) also happens without the
# projection. With the official 3×3 kernels even these margins are mostly gone, so the finding depends on our
# 5×5 departure. With the wide readout all methods tie at the ceiling. The continual-learning claim is not
# specific: methods that learn nothing or learn PCA forget as little. None of this reaches the paper's setting
# (CIFAR, three wide blocks, 100 epochs), where its margin over SoftHebb is about one point. The † tests are
# unconfirmed and do not move the badge.
#
# ## What a skeptic would try
#
# Naive baselines against the counted tests, measured by this notebook (seed 0, ci scale). They come from the
# page's conversion to the claim model (issue 33), from a second reading of the page against the official
# repository (issue 34), which asked for the official kernel size and named SoftHebb's padding, and from the
# independent review below.
#
# Reviewed by an independent skeptic (a helper that did not write the page), with the rubric, the page, its record
# and the official code. They re-ran the page's kernels on seeds 0–9 at ci scale, in both kernel configurations,
# beside exact PCA filters, spherical k-means filters, SPHeRe stopped after one epoch and orthonormalised random
# filters, and read the prose against the record. The first three are now comparators of the tests, measured
# below and counted over the sweep in the verdict; what they tried is above and here:
#
# * **Exact PCA filters of the patches** (no gradient): {glue:text}`acc_pca:.1f`% with all 256 features and
#   {glue:text}`pool_pca:.1f`% pooled; with the 3×3 kernels {glue:text}`pool3_pca:.1f`% pooled.
# * **Spherical k-means filters** (centroids of contrast-normalised patches): {glue:text}`acc_km:.1f`% and
#   {glue:text}`pool_km:.1f`%; with the 3×3 kernels {glue:text}`pool3_km:.1f`% pooled.
# * **Stop SPHeRe after one epoch** (9 steps): {glue:text}`acc_sp1:.1f`% and {glue:text}`pool_sp1:.1f`%; with the 3×3
#   kernels {glue:text}`pool3_sp1:.1f`%.
# * **The noise of a two-initialisation mean.** The pooled accuracy of the random block spreads by
#   {glue:text}`sd_pool_rand:.1f` points (standard deviation over the initialisations of this run) and SPHeRe's by
#   {glue:text}`sd_pool_sp:.1f`, beside a declared tolerance of 1 point: a pass at a 3-point margin is closer to the
#   noise than the tolerance band says, which is why the counts over seeds, not seed 0, decide.
#
# * **Leave the block at its random start.** The frozen random block reaches {glue:text}`acc_rand:.1f`% with all
#   256 features and {glue:text}`pool_rand:.1f`% with the 16 pooled ones; it forgets
#   {glue:text}`forget_rand:.1f` points in the continual check, which passes the 5-point criterion.
# * **PCA of the patches (Oja's subspace rule).** {glue:text}`acc_oja:.1f`% and {glue:text}`pool_oja:.1f`%; it
#   forgets {glue:text}`forget_oja:.1f` points, also within the criterion.
# * **Drop the projection** (the loss on the block outputs directly): {glue:text}`acc_noproj:.1f`% and
#   {glue:text}`pool_noproj:.1f`%, level with SPHeRe on the narrow readout; it forgets
#   {glue:text}`forget_noproj:.1f` points.
# * **Drop the orthogonality term:** {glue:text}`acc_noortho:.1f`% and {glue:text}`pool_noortho:.1f`%.
# * **Use the official 3×3 kernels:** SPHeRe {glue:text}`pool3_sp:.1f`%, the random block
#   {glue:text}`pool3_rand:.1f`%, Oja's rule {glue:text}`pool3_oja:.1f`%, SPHeRe without the projection
#   {glue:text}`pool3_noproj:.1f`% on the narrow readout; with all 256 features {glue:text}`acc3_sp:.1f`%,
#   {glue:text}`acc3_rand:.1f`% and {glue:text}`acc3_oja:.1f`%.
# * **The raw pixels** through the same probe: {glue:text}`pixels:.1f`%.
# * **SoftHebb with its own reflect padding** (the second reading's point; zero padding before): {glue:text}`acc_sh:.1f`%
#   and {glue:text}`pool_sh:.1f`%, below the random block on the pooled readout: on our block it is close to a
#   strawman, so the "best local rule" of the tests is in practice Oja's rule. Not tried: SoftHebb's own
#   architecture and schedule (see the deviations).
#
# ## What the miniature cannot show
#
# * CIFAR-10/100 and Tiny-ImageNet, the paper's benchmarks, and its accuracies (81.4% on CIFAR-10 in a log of the
#   repository's older `hebb.py`, best epoch chosen on the test set): our data are 8×8 digits, on which random
#   features already saturate a wide probe.
# * Depth: the paper stacks three wide blocks (384, 768 and 1,536 channels), each trained on the detached output
#   of the one before. The claim that the projection's "feedback mediation" lets local learning scale to deep
#   networks needs several blocks; we train one.
# * SoftHebb at its best: we ran its update rule (with its reflect padding) on our block, initialisation and
#   batch size for a few epochs, not its own architecture, initialisation and schedule, so its low numbers here
#   say little about SoftHebb.
# * The official setting of the orthogonality term: there the projection has 256 features and the batch 128
#   samples, so the 256 feature columns cannot all be orthogonal and the loss cannot reach 0; ours has 32
#   features, which can.
# * Transfer learning, image reconstruction, and continual learning over longer task sequences or with the
#   paper's protocol, which we did not find.
