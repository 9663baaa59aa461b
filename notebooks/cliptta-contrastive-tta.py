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
import re
import time

import matplotlib.pyplot as plt
import numpy as np
import torch
from myst_nb import glue
from sklearn.metrics import roc_auc_score

from repro.claims import Claims, Comparator, at_least, at_most, tolerance
from repro.papers import cliptta_contrastive_tta as K
from repro.runtime import progress, setup_notebook
from repro.textenc import embed_texts

P = setup_notebook(scale, seed, presets={
    # about 10-12 s of CPU on one thread, comparators included (measured)
    "ci": dict(n_seeds=2, pretrain_steps=200, n_stream=192, n_imb=192, n_open_id=96, n_open_ood=96,
               lr_sweep=False),
    "full": dict(n_seeds=5, pretrain_steps=300, n_stream=None, n_imb=640, n_open_id=384, n_open_ood=384,
                 lr_sweep=True),
})
SEEDS = [P.seed * P.n_seeds + k for k in range(P.n_seeds)]  # disjoint training seeds across notebook seeds
BATCH, OPEN_BATCH = 16, 32   # closed-set stream batches; open-set batches of 16 ID + 16 OOD on average
OFFICIAL_BATCH, OFFICIAL_OPEN_BATCH = 128, 256  # the official scripts: 128 images; 128 ID + 128 OOD
MAJOR_SHARE = 0.7            # imbalanced stream: 70 % of the samples from one class
STRESS_LR = 1e-2             # the collapse stress test: 10x TENT's default, no regulariser
CLASSES = "zero one two three four five six seven eight nine".split()
PROMPTS = [f"a photo of the digit {w}." for w in CLASSES]
T = torch.as_tensor(embed_texts(PROMPTS, cache=K.__file__.replace(".py", ".minilm.npz")))  # (10, 384)
CFG = K.TTAConfig
# every configuration the page runs, by stream type; zero-shot and TDA (no gradient) are run apart
BAL = {"tent": K.method_config("tent"),                                   # official TENT script
       "cliptta": K.method_config("cliptta"),                             # official CLIPTTA script, no memory
       "entropy+reg": K.method_config("tent+reg"),                        # the ablation: CLIPTTA, entropy as loss
       "tent lr 1e-4": CFG("entropy", lr=1e-4),
       "tent lr 1e-2": CFG("entropy", lr=1e-2),
       "cliptta lr 1e-3": CFG("soft-contrastive", lr=1e-3, beta_reg=1.0),  # the post-hoc equal-step test
       "entropy+reg lr 1e-3": CFG("entropy", lr=1e-3, beta_reg=1.0),
       "soft contrastive lr 1e-3": CFG("soft-contrastive", lr=1e-3)}
TENT_GRID = ("tent lr 1e-4", "tent", "tent lr 1e-2")                       # the tuned-TENT baseline's grid
IMB = {"cliptta": BAL["cliptta"], "entropy+reg": BAL["entropy+reg"], "tent": BAL["tent"],
       "cliptta+memory": CFG("soft-contrastive", lr=1e-4, beta_reg=1.0, memory_shots=4),
       "soft contrastive lr 1e-3": BAL["soft contrastive lr 1e-3"],
       "hard pseudo-labels lr 1e-3": CFG("hard-pseudo-label", lr=1e-3),
       "soft contrastive lr 1e-2": CFG("soft-contrastive", lr=STRESS_LR),
       "entropy lr 1e-2": CFG("entropy", lr=STRESS_LR),
       "entropy+reg lr 1e-2": CFG("entropy", lr=STRESS_LR, beta_reg=1.0),
       "hard pseudo-labels lr 1e-2": CFG("hard-pseudo-label", lr=STRESS_LR)}
OFFICIAL = {"tent": BAL["tent"], "cliptta+memory": IMB["cliptta+memory"],
            "entropy+reg+memory": CFG("entropy", lr=1e-4, beta_reg=1.0, memory_shots=4),
            "tent lr 1e-4": BAL["tent lr 1e-4"]}
OPEN = {"tent": BAL["tent"], "tent lr 1e-4": BAL["tent lr 1e-4"], "cliptta": BAL["cliptta"],
        "cliptta+oce": K.method_config("cliptta", ood=True)}
OPEN_OFFICIAL = {"tent": BAL["tent"], "tent lr 1e-4": BAL["tent lr 1e-4"],
                 "cliptta+memory": CFG("soft-contrastive", lr=1e-4, beta_reg=1.0, memory_shots=16),
                 "cliptta+oce+memory": CFG("soft-contrastive", lr=1e-4, beta_reg=1.0, memory_shots=16, ood=True)}
LABELS = {"zero-shot": "no adaptation", "tent": "TENT (entropy min.)", "cliptta": "CLIPTTA",
          "entropy+reg": "entropy + CLIPTTA's regulariser (ablation)", "tent lr 1e-4": "TENT, lr 1e-4",
          "tent lr 1e-2": "TENT, lr 1e-2", "tda": "TDA (training-free cache)",
          "cliptta lr 1e-3": "CLIPTTA, lr 1e-3", "entropy+reg lr 1e-3": "entropy + regulariser, lr 1e-3",
          "soft contrastive lr 1e-3": "soft contrastive alone, lr 1e-3",
          "centred": "centred cosines (training-free)"}
plt.rcParams["savefig.dpi"] = 90
claims = Claims("cliptta-contrastive-tta",
                title="CLIPTTA: Robust Contrastive Vision-Language Test-Time Adaptation",
                authors="Marc Lafon, Gustavo Adolfo Vargas Hakim, Clément Rambour, Christian Desrosiers, Nicolas Thome",
                paper_url="https://arxiv.org/abs/2507.14312", scale=scale, seed=seed)


def run_streams(tower, X, batch, cfgs):
    """Adapt every configuration of ``cfgs`` on each of the shifted streams X (n_shifts, N, 64) at once.
    Returns ({name: (n_shifts, N) predictions}, {name: scores}, {name: LayerNorm parameters})."""
    names, n = list(cfgs), len(X)
    out = K.adapt_streams(tower, T, np.concatenate([X] * len(names)), batch, [cfgs[m] for m in names for _ in X])
    cut = lambda a: {m: a[i * n:(i + 1) * n] for i, m in enumerate(names)}  # noqa: E731
    return cut(out["pred"]), cut(out["score"]), {m: [p[i * n:(i + 1) * n] for p in out["params"]]
                                                 for i, m in enumerate(names)}


def gk(name):
    """A glue key for a method's name (letters, digits and underscores)."""
    return re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_")


def features(tower, X):
    """The unadapted tower's features of images X (N, 64), as a float64 array."""
    with torch.no_grad():
        return tower(torch.as_tensor(X)).double().numpy()

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
# The paper's headline claims, in our words (each is mapped to its tests in "Checking the claims"):
#
# 1. CLIPTTA improves a vision-language model under distribution shift, more than entropy-based TTA does.
# 2. Entropy minimisation drifts and collapses; CLIPTTA's batch-aware contrastive loss mitigates collapse.
# 3. In open-set TTA, the OCE loss improves the detection of OOD samples.
# 4. Over 75 datasets it is competitive with the state of the art and more stable across shifts.
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
# prediction, as in the official code. This "diversity" term is older than CLIPTTA: it is the second half of
# information maximisation (Liang et al. 2020, SHOT), which is why "entropy + regulariser" is both the
# ablation of CLIPTTA's loss and a classical baseline.
#
# **Memory.** The official scripts also keep a class-balanced memory: every sample is filed under its
# pseudo-label, and each class keeps the 4 samples the model is most confident about. At every step, the loss
# and the regulariser are also computed on the whole memory (40 samples at most) and added.
#
# **Open set (OCE).** Each image gets a score $\sigma_i = \max_c \log\mathrm{softmax}_c(z_i^\top t_c)$ (the
# official `max_log_prob`, OOD scale 1). A threshold $\alpha$ starts at the Otsu threshold of the batch's
# scores and is then learnt. With soft memberships $w_i = \mathrm{sigmoid}((\sigma_i - \alpha)/\gamma)$,
# $\gamma = 0.005$, the loss $\mathcal L_{\text{OCE}} = -(\mu_{\text{in}} - \mu_{\text{out}})^2$ pushes apart
# the weighted mean scores of the two groups. The TTA loss then uses only samples scored above $\alpha$. The
# kernels are in `src/repro/papers/cliptta_contrastive_tta.py`; `soft_contrastive_tta_loss(image_features,
# text_features, scale)` is $\mathcal L_{\text{s-TTA}}$, and `adapt_streams` runs many streams at once (each
# with its own LayerNorm parameters and Adam state; the unit tests check it against the one-stream loop).
#
# ## The experiment
#
# **A toy two-tower model.** The *text tower* is frozen MiniLM (all-MiniLM-L6-v2, 384-d). The ten prompt
# embeddings are read from a committed cache, which the page's tests check against the live model. Their
# pairwise cosines lie between {glue:text}`proto_cos_min:.2f` and {glue:text}`proto_cos_max:.2f`, so the class
# prototypes are close together, as CLIP's often are. The
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
# - *official*: the whole shifted test half (≈ 900 images) in batches of 128, CLIPTTA with the memory, as the
#   official scripts run it;
# - *imbalanced*: `n_imb` images, 70 % of them from one class (a different class for each seed and shift),
#   drawn with replacement. After adapting on it, the model is evaluated on the whole balanced shifted test
#   set. **Collapse diagnostics**: the number of classes that receive at least 2 % of those predictions (a
#   fifth of a class's true share), and the entropy of the prediction marginal relative to that of the
#   unadapted model;
# - *open set*: `n_open_id` shifted digits mixed with `n_open_ood` OOD images, in batches of 32, and, in the
#   official configuration, in batches of 256 with a 16-shot memory. The OOD images are random patches of
#   scikit-learn's two bundled photographs, block-averaged to 8 × 8, under the same shift. OOD detection is
#   measured by the AUROC of the score $\sigma_i$.
#
# **Methods, all on the same tower, streams and seeds** (Adam, 10 steps per batch, as the official scripts):
#
# - no adaptation (zero-shot);
# - *TENT*: entropy minimisation with the official TENT script's settings (learning rate 10⁻³,
#   $\beta_{\text{reg}} = 0$);
# - *CLIPTTA*: soft contrastive loss with the official CLIPTTA script's settings (learning rate 10⁻⁴,
#   $\beta_{\text{reg}} = 1$), without the memory on the batch-16 streams, with it in the official configuration;
# - *the ablation*, CLIPTTA without its loss: entropy in place of the soft contrastive loss, everything else
#   CLIPTTA's (learning rate 10⁻⁴, $\beta_{\text{reg}} = 1$, and the memory where CLIPTTA has it);
# - *naive baselines* a skeptic would try: TENT at another learning rate (10⁻⁴, and the best of 10⁻⁴, 10⁻³
#   and 10⁻² chosen on the test labels of the run: an oracle no TTA method has); TDA (Karmanov et al. 2024), the
#   training-free cache of confident test features that the official repository compares with, at its
#   official settings; self-training on hard pseudo-labels (Lee 2013); no adaptation at all; and, added after
#   the independent review, *centred cosines*: each class's running mean cosine over the stream so far is
#   subtracted before the argmax (`centred_cosine_stream`). It trains nothing and uses no label; like CLIPTTA's
#   regulariser, it assumes that the classes are balanced over the stream;
# - collapse stress test: the losses alone ($\beta_{\text{reg}} = 0$) at learning rate 10⁻², on the
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
# - **Batch size 16** (the brief's) on the main streams, where the official scripts use 128 (run as the
#   official configuration). Small batches are where collapse shows.
# - **No memory on the batch-16 streams.** The official scripts replay a class-balanced memory of confident
#   past samples (`--use_memory`, 4 shots per class, 16 in the open set). It is used in the official
#   configuration only, and its sample is the whole memory (the official closed-set sample of 40 is the whole
#   memory too; the open-set sample of 128 draws 12 of each class's 16).
# - **Which side of the loss.** With the text tower frozen, the official code uses the image-to-caption rows
#   of $L$ twice. We therefore use the row entropy only. The two-sided form (used when the text encoder is
#   adapted) is a kernel too, checked against the official code, but it is not run.
# - **Learning rates are the official ones** (TENT 10⁻³, CLIPTTA 10⁻⁴), even though our parameters are not
#   CLIP's. We did not tune them. The stress test uses a common 10⁻² for both losses, and a post-hoc test gives
#   CLIPTTA TENT's 10⁻³.
# - **Pre-training** is one-sided cross-entropy over the ten prompts. With one caption per class, this is
#   CLIP's image-to-text loss.
# - **The brief's collapse check, one branch of two.** The brief's check 2 reads "TENT predicts at most 5
#   classes *or* its marginal entropy falls by more than 50 %, while CLIPTTA keeps at least 8 classes". We
#   pre-registered only the entropy branch (`tent-collapses`) and split the CLIPTTA half into its own check;
#   the "at most 5 classes" branch was dropped without saying so until the independent review. It would not
#   change the outcome: TENT keeps {glue:text}`ncls_tent:.2f` classes on average in this run, far above 5.
# - **No FPR95.** The brief names AUROC and FPR95 for the open set; we report and test AUROC only.
# - **The accuracy tolerance** (2 points, as large as the criterion) was set before the first run from the
#   sampling noise of a stream of a few hundred images. Measured since, it is about what repeatability needs:
#   under other numerics (`ATEN_CPU_CAPABILITY=default`, `OPENBLAS_CORETYPE=Sandybridge`) the 200 Adam steps of
#   pre-training end elsewhere, and the paired accuracy differences moved by up to 1.4 points at notebook seed
#   0; their standard deviation over the ten ci seeds stays below the 2-point tolerance. It is kept, since a
#   pre-registered tolerance never moves, and it makes the band of "at the edge" run from 0 to 4 points: a
#   method or comparator must gain more than 4 points to pass an accuracy test.

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
NS = len(K.SHIFTS)
towers, data, clean_acc = {}, {}, {}
BAL_ALL = ["zero-shot", "tda", "centred", *BAL]
OFF_ALL = ["zero-shot", "tda", "centred", *OFFICIAL]
acc = {m: np.zeros((len(SEEDS), NS)) for m in BAL_ALL}          # online accuracy, batch-16 streams
acc_off = {m: np.zeros((len(SEEDS), NS)) for m in OFF_ALL}      # online accuracy, official configuration
online = {}  # per-sample hits along the stream, first training seed
top_prob = []  # mean top softmax probability (scale 100) of the unadapted tower on each shifted stream
for si, s in enumerate(progress(SEEDS, desc="seeds")):
    rng = np.random.default_rng(s)
    d = data[s] = K.load_digits_split(rng)
    tw = towers[s] = K.ImageTower(seed=s)
    K.pretrain_tower(tw, d["X_train"], d["y_train"], T, P.pretrain_steps, seed=s)
    clean_acc[s] = float((K.predict(tw, T, d["X_test"]) == d["y_test"]).mean())
    streams = [shift_stream(d["X_test"], d["y_test"], kind, P.n_stream, rng) for kind in K.SHIFTS]
    X, Y = np.stack([x for x, _ in streams]), np.stack([y for _, y in streams])
    pred, _, _ = run_streams(tw, X, BATCH, BAL)
    pred["zero-shot"] = np.stack([K.predict(tw, T, x) for x in X])
    pred["tda"] = np.stack([K.tda_stream(features(tw, x), T.double().numpy())[0] for x in X])
    pred["centred"] = np.stack([K.centred_cosine_stream(features(tw, x), T.double().numpy(), BATCH) for x in X])
    top_prob += [float((100 * torch.as_tensor(features(tw, x)).float() @ T.T).softmax(1).max(1).values.mean())
                 for x in X]
    for m in BAL_ALL:
        acc[m][si] = (pred[m] == Y).mean(1)
        if si == 0:
            online.update({(m, kind): pred[m][k] == Y[k] for k, kind in enumerate(K.SHIFTS)})
    # the official configuration: the whole shifted test half, batches of 128, CLIPTTA with its memory
    rng_off = np.random.default_rng(5000 + s)
    streams = [shift_stream(d["X_test"], d["y_test"], kind, None, rng_off) for kind in K.SHIFTS]
    X, Y = np.stack([x for x, _ in streams]), np.stack([y for _, y in streams])
    pred, _, _ = run_streams(tw, X, OFFICIAL_BATCH, OFFICIAL)
    pred["zero-shot"] = np.stack([K.predict(tw, T, x) for x in X])
    pred["tda"] = np.stack([K.tda_stream(features(tw, x), T.double().numpy())[0] for x in X])
    pred["centred"] = np.stack([K.centred_cosine_stream(features(tw, x), T.double().numpy(), OFFICIAL_BATCH)
                                for x in X])
    for m in OFF_ALL:
        acc_off[m][si] = (pred[m] == Y).mean(1)
tent_best = max(TENT_GRID, key=lambda m: acc[m].mean())  # the oracle's choice of TENT's learning rate
acc["tent, best lr"] = acc[tent_best]
print(f"clean test accuracy of the pre-trained towers: {np.round(list(clean_acc.values()), 3)}")
print(f"mean top softmax probability of the unadapted towers on the shifted streams: {min(top_prob):.2f}-{max(top_prob):.2f}")
print(f"TENT's best learning rate on these streams (oracle): {tent_best}")
for title, table in (("batch-16 streams", acc), ("official configuration (batch 128, memory)", acc_off)):
    print(f"\n{title}\n{'method':44s}" + "".join(f"{k:>20s}" for k in K.SHIFTS) + f"{'mean':>10s}")
    for m, a in table.items():
        print(f"{LABELS.get(m, m):44s}" + "".join(f"{100 * a[:, k].mean():13.1f} ± {100 * a[:, k].std():4.1f}"
                                                  for k in range(NS)) + f"{100 * a.mean():10.1f}")
print(f"({len(SEEDS)} training seeds, {time.perf_counter() - t0:.1f} s)")

# %%
SHOWN = ["zero-shot", "tent", "cliptta", "entropy+reg", "tent lr 1e-4", "tda", "cliptta lr 1e-3",
         "entropy+reg lr 1e-3", "centred"]
fig, ax = plt.subplots(figsize=(12, 4))
w = 0.8 / len(SHOWN)
for j, m in enumerate(SHOWN):
    x = np.arange(NS) + (j - (len(SHOWN) - 1) / 2) * w
    ax.bar(x, 100 * acc[m].mean(0), w, yerr=100 * acc[m].std(0), capsize=2, label=LABELS[m])
    ax.plot(np.repeat(x[None], len(SEEDS), 0).ravel(), 100 * acc[m].ravel(), "k.", ms=2)
ax.axhline(10, color="grey", ls=":", lw=0.8, label="chance (10 %)")
ax.set_xticks(range(NS), K.SHIFTS)
ax.set_ylabel("online accuracy on the stream (%)")
ax.set_title(f"Balanced streams, batch 16: mean ± std over {len(SEEDS)} training seeds (dots: seeds)")
ax.legend(fontsize=7, ncol=3, loc="upper right")
ax.set_ylim(0, 110)
plt.show()

# %% [markdown]
# At the official learning rates, CLIPTTA, its ablation and TENT at 10⁻⁴ stay close to the unadapted tower:
# ten Adam steps of 10⁻⁴ on each of twelve batches barely move the LayerNorm parameters. The bars on the right
# give both CLIPTTA and its ablation TENT's step, 10⁻³. Pseudo-label drift would show up as accuracy that
# falls along the stream as errors are reinforced. Here is the running accuracy along each stream for the
# first training seed:

# %%
fig, axes = plt.subplots(1, NS, figsize=(13, 3.2), sharey=True)
for ax, kind in zip(axes, K.SHIFTS):
    for m in ["zero-shot", "tent", "cliptta", "tda", "cliptta lr 1e-3", "entropy+reg lr 1e-3", "centred"]:
        hit = online[(m, kind)]
        ax.plot(np.arange(1, len(hit) + 1), 100 * np.cumsum(hit) / np.arange(1, len(hit) + 1), label=LABELS[m])
    ax.set_title(kind, fontsize=9)
    ax.set_xlabel("samples seen in the stream")
axes[0].set_ylabel("running accuracy (%)")
axes[-1].legend(fontsize=6)
fig.suptitle(f"Running online accuracy along the balanced streams (training seed {SEEDS[0]})")
plt.show()

# %% [markdown]
# At full scale we also sweep the learning rate, on the balanced streams, for both losses with and without the
# regulariser (two training seeds, 320 images per shift). This sweep is descriptive and backs no test.

# %%
LRS = [1e-4, 1e-3, 1e-2, 3e-2]
SWEEP = {"entropy": ("entropy", 0.0), "entropy + reg.": ("entropy", 1.0),
         "soft contrastive": ("soft-contrastive", 0.0), "CLIPTTA (soft contrastive + reg.)": ("soft-contrastive", 1.0)}
if P.lr_sweep:
    sweep_acc = {k: np.zeros((2, len(LRS))) for k in SWEEP}
    for si, s in enumerate(progress(SEEDS[:2], desc="learning-rate sweep")):
        rng = np.random.default_rng(s)
        streams = [shift_stream(data[s]["X_test"], data[s]["y_test"], kind, 320, rng) for kind in K.SHIFTS]
        X, Y = np.stack([x for x, _ in streams]), np.stack([y for _, y in streams])
        grid = {(k, lr): CFG(loss, lr=lr, beta_reg=beta) for k, (loss, beta) in SWEEP.items() for lr in LRS}
        pred, _, _ = run_streams(towers[s], X, BATCH, grid)
        for (k, lr), p in pred.items():
            sweep_acc[k][si, LRS.index(lr)] = (p == Y).mean()
    fig, ax = plt.subplots(figsize=(7, 3.8))
    for k in SWEEP:
        ax.errorbar(LRS, 100 * sweep_acc[k].mean(0), yerr=100 * sweep_acc[k].std(0), marker="o", capsize=3, label=k)
    ax.axhline(100 * acc["zero-shot"].mean(), color="grey", ls=":", label="no adaptation (main streams)")
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
IMB_ALL = ["zero-shot", "tda", *IMB]
ncls = {m: np.zeros((len(SEEDS), NS)) for m in IMB_ALL}
hrat = {m: np.zeros((len(SEEDS), NS)) for m in IMB_ALL}
bal_acc = {m: np.zeros((len(SEEDS), NS)) for m in IMB_ALL}
imb_acc = {m: np.zeros((len(SEEDS), NS)) for m in IMB_ALL}  # online accuracy on the imbalanced stream
major_share = {}
for si, s in enumerate(progress(SEEDS, desc="imbalanced streams")):
    d, rng, tw = data[s], np.random.default_rng(1000 + s), towers[s]
    Xi, Xe, yi, majors = [], [], [], []
    for ki, kind in enumerate(K.SHIFTS):
        majors.append((s + ki) % 10)
        idx = K.imbalanced_indices(d["y_test"], P.n_imb, majors[-1], MAJOR_SHARE, rng)
        Xi.append(K.corrupt(d["X_test"][idx], kind, rng))
        Xe.append(K.corrupt(d["X_test"], kind, rng))
        yi.append(d["y_test"][idx])
    Xi, Xe, yi = np.stack(Xi), np.stack(Xe), np.stack(yi)
    pred, _, params = run_streams(tw, Xi, BATCH, IMB)
    pe = {m: K.predict_streams(tw, params[m], T, Xe) for m in IMB}   # after adaptation, on the balanced set
    pred["zero-shot"] = np.stack([K.predict(tw, T, x) for x in Xi])
    pe["zero-shot"] = np.stack([K.predict(tw, T, x) for x in Xe])
    pred["tda"], pe["tda"] = np.zeros_like(yi), np.zeros_like(pe["zero-shot"])
    for k in range(NS):
        pred["tda"][k], cache = K.tda_stream(features(tw, Xi[k]), T.double().numpy())
        pe["tda"][k] = K.tda_logits(features(tw, Xe[k]), T.double().numpy(), cache).argmax(1)
    h0 = np.array([K.collapse_diagnostics(p)["entropy"] for p in pe["zero-shot"]])
    for m in IMB_ALL:
        dg = [K.collapse_diagnostics(p) for p in pe[m]]
        ncls[m][si] = [g["n_classes"] for g in dg]
        hrat[m][si] = np.array([g["entropy"] for g in dg]) / h0
        bal_acc[m][si] = (pe[m] == d["y_test"]).mean(1)
        imb_acc[m][si] = (pred[m] == yi).mean(1)
        if si == 0:
            for k, kind in enumerate(K.SHIFTS):
                n_b = len(pred[m][k]) // BATCH
                major_share[(m, kind)] = (pred[m][k][:n_b * BATCH] == majors[k]).reshape(n_b, BATCH).mean(1)
print(f"{'method':28s} {'classes kept (>= 2 %)':>22s} {'H(marginal) / zero-shot':>24s} {'balanced acc. after (%)':>24s}"
      f" {'acc. on the stream (%)':>23s}")
for m in IMB_ALL:
    print(f"{m:28s} {ncls[m].mean():15.2f} ± {ncls[m].std():4.2f} {hrat[m].mean():17.2f} ± {hrat[m].std():4.2f}"
          f" {100 * bal_acc[m].mean():17.1f} ± {100 * bal_acc[m].std():4.1f}"
          f" {100 * imb_acc[m].mean():16.1f} ± {100 * imb_acc[m].std():4.1f}")

# %%
SHOWN_IMB = ["zero-shot", "tent", "cliptta", "entropy+reg", "tda", "soft contrastive lr 1e-2", "entropy lr 1e-2",
             "entropy+reg lr 1e-2", "hard pseudo-labels lr 1e-2"]
COLOR = {m: f"C{j}" for j, m in enumerate(SHOWN_IMB)}
fig, axes = plt.subplots(1, 2, figsize=(14, 4.2))
w = 0.8 / len(SHOWN_IMB)
for j, m in enumerate(SHOWN_IMB):
    x = np.arange(NS) + (j - (len(SHOWN_IMB) - 1) / 2) * w
    axes[0].bar(x, ncls[m].mean(0), w, yerr=ncls[m].std(0), capsize=2, label=m, color=COLOR[m])
axes[0].axhline(8, color="k", ls="--", lw=0.8, label="criterion: >= 8 classes")
axes[0].set_xticks(range(NS), K.SHIFTS, fontsize=8)
axes[0].set_ylabel("classes with >= 2 % of predictions\n(balanced eval. after adaptation)")
axes[0].set_ylim(0, 11)
axes[0].legend(fontsize=6, loc="lower left", ncol=2)
axes[0].set_title(f"Classes kept after a 70 %-one-class stream (mean ± std, {len(SEEDS)} seeds)", fontsize=9)
for m in SHOWN_IMB:
    sh = np.mean([major_share[(m, k)] for k in K.SHIFTS], 0)
    axes[1].plot(np.arange(1, len(sh) + 1), 100 * sh, marker=".", label=m, color=COLOR[m],
                 ls=":" if m == "zero-shot" else "-")
axes[1].axhline(100 * MAJOR_SHARE, color="k", ls="--", lw=0.8, label="true share (70 %)")
axes[1].set_xlabel("batch of 16 in the imbalanced stream")
axes[1].set_ylabel("share predicted as the majority class (%)")
axes[1].set_title(f"Drift towards the majority class (seed {SEEDS[0]}, mean over shifts)", fontsize=9)
axes[1].legend(fontsize=6)
plt.show()

# %% [markdown]
# The left panel counts classes; the right panel shows what the count hides. At learning rate 10⁻², entropy
# minimisation and hard pseudo-labels drift towards the class that dominates the stream, while the soft
# contrastive loss, and entropy with the regulariser, push the majority class's share far *below* its true
# 70 %: they resist collapse by over-correcting, and both keep as many classes as the unadapted tower does.
#
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
loss_at_collapse = float(K.soft_contrastive_tta_loss(zc, T.double(), 100.0).detach())
print(f"soft contrastive loss at collapse = {loss_at_collapse:.6f} (log 16 = {np.log(16):.6f})")

# %% [markdown]
# ### Open set: OOD detection with Outlier Contrastive Exposure

# %%
OPEN_ALL = ["zero-shot", *OPEN]
auroc = {m: np.zeros((len(SEEDS), NS)) for m in OPEN_ALL}
id_acc = {m: np.zeros((len(SEEDS), NS)) for m in OPEN_ALL}
auroc_off = {m: np.zeros((len(SEEDS), NS)) for m in ["zero-shot", *OPEN_OFFICIAL]}
for si, s in enumerate(progress(SEEDS, desc="open-set streams")):
    d, rng, tw = data[s], np.random.default_rng(2000 + s), towers[s]
    Xo, ido, yo = [], [], []
    for kind in K.SHIFTS:
        ids = rng.choice(len(d["y_test"]), P.n_open_id, replace=False)
        X = np.concatenate([d["X_test"][ids], K.outlier_images(P.n_open_ood, rng)])
        is_id = np.r_[np.ones(P.n_open_id, bool), np.zeros(P.n_open_ood, bool)]
        y = np.r_[d["y_test"][ids], -np.ones(P.n_open_ood, int)]
        order = rng.permutation(len(y))
        Xo.append(K.corrupt(X[order], kind, rng))
        ido.append(is_id[order])
        yo.append(y[order])
    Xo = np.stack(Xo)
    pred, score, _ = run_streams(tw, Xo, OPEN_BATCH, OPEN)
    pred["zero-shot"] = np.stack([K.predict(tw, T, x) for x in Xo])
    score["zero-shot"] = np.stack([K.max_log_prob_score(torch.as_tensor(features(tw, x)), T.double()).numpy()
                                   for x in Xo])
    for m in OPEN_ALL:
        auroc[m][si] = [roc_auc_score(ido[k], score[m][k]) for k in range(NS)]
        id_acc[m][si] = [(pred[m][k][ido[k]] == yo[k][ido[k]]).mean() for k in range(NS)]
    _, score_off, _ = run_streams(tw, Xo, OFFICIAL_OPEN_BATCH, OPEN_OFFICIAL)
    score_off["zero-shot"] = score["zero-shot"]
    for m in auroc_off:
        auroc_off[m][si] = [roc_auc_score(ido[k], score_off[m][k]) for k in range(NS)]
print(f"{'method':22s} {'AUROC (ID vs OOD)':>20s} {'ID accuracy (%)':>18s}")
for m in OPEN_ALL:
    print(f"{m:22s} {auroc[m].mean():13.3f} ± {auroc[m].std():.3f} {100 * id_acc[m].mean():11.1f} ± "
          f"{100 * id_acc[m].std():.1f}")
print(f"\nofficial configuration (batches of {OFFICIAL_OPEN_BATCH}, 16-shot memory)")
for m, a in auroc_off.items():
    print(f"{m:22s} {a.mean():13.3f} ± {a.std():.3f}")
print(f"(all streams: {time.perf_counter() - t0:.1f} s)")

# %%
fig, axes = plt.subplots(1, 2, figsize=(12, 3.8))
w = 0.8 / len(OPEN_ALL)
for j, m in enumerate(OPEN_ALL):
    x = np.arange(NS) + (j - (len(OPEN_ALL) - 1) / 2) * w
    axes[0].bar(x, auroc[m].mean(0), w, yerr=auroc[m].std(0), capsize=3, label=m)
    axes[1].bar(x, 100 * id_acc[m].mean(0), w, yerr=100 * id_acc[m].std(0), capsize=3, label=m)
axes[0].axhline(0.5, color="grey", ls=":", lw=0.8, label="chance")
axes[0].set_ylabel("AUROC, ID vs OOD (score: max log-prob)")
axes[0].set_ylim(0.2, 1.0)
axes[1].set_ylabel("accuracy on the ID samples (%)")
for ax in axes:
    ax.set_xticks(range(NS), K.SHIFTS, fontsize=8)
    ax.legend(fontsize=7)
fig.suptitle(f"Open-set streams (50 % OOD photo patches), mean ± std over {len(SEEDS)} training seeds")
plt.show()

# %% [markdown]
# ### The paper's numbers beside ours
#
# | quantity | paper (setting) | ours (setting) |
# |---|---|---|
# | accuracy gain of CLIPTTA over TENT / over zero-shot | not retrieved (75 datasets; "consistently outperforms entropy-based objectives") | tests `cliptta-beats-tent`, `cliptta-beats-zero-shot` and their official-configuration and equal-step variants (toy two-tower model, 4 shifts of 8 × 8 digits) |
# | collapse under entropy minimisation | described, no number retrieved | test `tent-collapses`; illustrations `cliptta-keeps-classes`, `soft-contrastive-resists-collapse-at-stress` |
# | OOD detection with OCE | AUROC / FPR95 on open-set benchmarks, not retrieved | tests `oce-improves-ood-auroc`, `oce-improves-ood-auroc-official` (photo patches as OOD) |
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
# at a collapsed batch, 9·10⁻¹⁵ in both: zero up to rounding. The memory (`ttavlm/memory/ccm.py`) and TDA
# (`ttavlm/methods/tda.py`) are reimplemented from the official files and checked by unit tests (the memory
# against a hand replay of its update). What we found in the code, and where we depart from it:
#
# - the soft loss is the entropy of the *rows* of $L$ (image to pseudo-caption); with a frozen text tower the
#   official code adds the same rows twice rather than the columns, and so do we;
# - a $10^{-6}$ offset on the logits inside the entropies (it cancels in the softmax) is kept;
# - **batch size and memory** (they can move the accuracy and collapse claims): the official scripts use
#   batches of 128 (256 in the open set: 128 ID + 128 OOD) and the class-balanced memory (4 shots, sample 40;
#   16 shots, sample 128 in the open set). Both are *run*, as the official configuration of the accuracy and
#   OCE tests (`...-official`), and CLIPTTA with the memory is also run on the imbalanced stream. Our open-set
#   stream holds 192 images at ci, so its one batch is smaller than 256, and the open-set memory sample is the
#   whole memory rather than 12 of each class's 16;
# - **learning rates** (they can move every claim): the official values are used (TENT 10⁻³, the optimiser's
#   default in `configuration.py`; CLIPTTA 10⁻⁴ from its scripts). Since they are CLIP's values, not ours, the
#   page also runs TENT at 10⁻⁴ and 10⁻², and CLIPTTA and its ablation at 10⁻³;
# - the SAM option and the $\alpha$ learning-rate details are not used. The OOD threshold $\alpha$ is reset
#   to the batch's Otsu threshold before each batch, as `init_otsu` does, and is then updated with the same
#   Adam step as the norm parameters;
# - TDA runs with batch size 1 and its official defaults (positive cache 3 shots, $\alpha=2$, $\beta=5$;
#   negative cache 2 shots, $\alpha=0.117$, $\beta=1$, entropy band 0.2-0.5, mask band 0.03-1);
# - TTA parameters: every LayerNorm of the image tower (two here), as `collect_params` collects CLIP's norm
#   layers.

# %% [markdown]
# ## Checking the claims
#
# Every counted test measures the paper's method beside its ablation (the method without the ingredient the
# test is about) and the naive baselines, under the same measurement and criterion (the judged table after
# "Claims" shows them side by side). Where the method is TENT (`tent-collapses`, the paper's claim about entropy
# minimisation), the ingredient is the entropy objective. The accuracy tests are differences of online accuracy
# (mean over the four shifts and the training seeds); their criterion, the brief's "at least 2 points", is a
# gain, so no adaptation cannot pass it. Two collapse checks that were pre-registered as tests,
# `cliptta-keeps-classes` and `soft-contrastive-resists-collapse-at-stress`, are recorded as illustrations since
# the independent review: doing nothing passes the first, and the second could not pass as pre-registered (its
# reasons are in the record and in the verdict).

# %%
A = {m: float(a.mean()) for m, a in acc.items()}
AO = {m: float(a.mean()) for m, a in acc_off.items()}
NC = {m: float(a.mean()) for m, a in ncls.items()}
HR = {m: float(a.mean()) for m, a in hrat.items()}
AU = {m: float(a.mean() - auroc["zero-shot"].mean()) for m, a in auroc.items()}
AUO = {m: float(a.mean() - auroc_off["zero-shot"].mean()) for m, a in auroc_off.items()}
CENTRED = ("centred cosines: each class's running mean cosine over the stream so far subtracted, no training "
           "(independent review)")
# test -> {key: (label, value)}; the first key is the method, the second the ablation, the rest baselines
V = {
    "cliptta-beats-tent": {
        "method": ("CLIPTTA minus TENT", A["cliptta"] - A["tent"]),
        "ablation": ("entropy in place of the soft contrastive loss (lr 1e-4, beta_reg 1), minus TENT",
                     A["entropy+reg"] - A["tent"]),
        "best": ("TENT at its best learning rate of 1e-4, 1e-3, 1e-2 (oracle on the test labels), minus TENT",
                 A["tent, best lr"] - A["tent"]),
        "tda": ("TDA, the training-free cache (official defaults), minus TENT", A["tda"] - A["tent"]),
        "centred": (CENTRED + ", minus TENT", A["centred"] - A["tent"])},
    "cliptta-beats-zero-shot": {
        "method": ("CLIPTTA minus no adaptation", A["cliptta"] - A["zero-shot"]),
        "ablation": ("entropy in place of the soft contrastive loss, minus no adaptation",
                     A["entropy+reg"] - A["zero-shot"]),
        "tent": ("TENT (official settings) minus no adaptation", A["tent"] - A["zero-shot"]),
        "best": ("TENT at its best learning rate (oracle) minus no adaptation", A["tent, best lr"] - A["zero-shot"]),
        "tda": ("TDA minus no adaptation", A["tda"] - A["zero-shot"]),
        "centred": (CENTRED + ", minus no adaptation", A["centred"] - A["zero-shot"])},
    "cliptta-beats-tent-same-lr": {
        "method": ("CLIPTTA at lr 1e-3 minus TENT", A["cliptta lr 1e-3"] - A["tent"]),
        "ablation": ("entropy in place of the soft contrastive loss at lr 1e-3 (entropy + regulariser), minus TENT",
                     A["entropy+reg lr 1e-3"] - A["tent"]),
        "best": ("TENT at its best learning rate (oracle) minus TENT", A["tent, best lr"] - A["tent"]),
        "tda": ("TDA minus TENT", A["tda"] - A["tent"]),
        "centred": (CENTRED + ", minus TENT", A["centred"] - A["tent"])},
    "cliptta-beats-tent-official": {
        "method": ("CLIPTTA with its memory minus TENT, batches of 128", AO["cliptta+memory"] - AO["tent"]),
        "ablation": ("entropy in place of the soft contrastive loss, with the memory, minus TENT",
                     AO["entropy+reg+memory"] - AO["tent"]),
        "tent4": ("TENT at lr 1e-4 minus TENT", AO["tent lr 1e-4"] - AO["tent"]),
        "tda": ("TDA minus TENT", AO["tda"] - AO["tent"]),
        "centred": (CENTRED + " (batches of 128), minus TENT", AO["centred"] - AO["tent"])},
    "cliptta-beats-zero-shot-official": {
        "method": ("CLIPTTA with its memory minus no adaptation, batches of 128",
                   AO["cliptta+memory"] - AO["zero-shot"]),
        "ablation": ("entropy in place of the soft contrastive loss, with the memory, minus no adaptation",
                     AO["entropy+reg+memory"] - AO["zero-shot"]),
        "tent": ("TENT minus no adaptation", AO["tent"] - AO["zero-shot"]),
        "tent4": ("TENT at lr 1e-4 minus no adaptation", AO["tent lr 1e-4"] - AO["zero-shot"]),
        "tda": ("TDA minus no adaptation", AO["tda"] - AO["zero-shot"]),
        "centred": (CENTRED + " (batches of 128), minus no adaptation", AO["centred"] - AO["zero-shot"])},
    "tent-collapses": {
        "method": ("TENT (official settings)", HR["tent"]),
        "ablation": ("TENT's update with the soft contrastive loss in place of entropy (lr 1e-3, no regulariser)",
                     HR["soft contrastive lr 1e-3"]),
        "hpl": ("self-training on hard pseudo-labels (lr 1e-3)", HR["hard pseudo-labels lr 1e-3"]),
        "tda": ("TDA (its cache after the stream)", HR["tda"])},
    "cliptta-keeps-classes": {
        "method": ("CLIPTTA (official settings)", NC["cliptta"]),
        "ablation": ("entropy in place of the soft contrastive loss (lr 1e-4, beta_reg 1)", NC["entropy+reg"]),
        "zs": ("no adaptation", NC["zero-shot"]),
        "tent": ("TENT (official settings)", NC["tent"]),
        "tda": ("TDA (its cache after the stream)", NC["tda"])},
    "soft-contrastive-resists-collapse-at-stress": {
        "method": ("soft contrastive loss alone, lr 1e-2", NC["soft contrastive lr 1e-2"]),
        "ablation": ("entropy minimisation alone at the same settings", NC["entropy lr 1e-2"]),
        "im": ("entropy + the marginal-entropy (diversity) term of information maximisation, lr 1e-2",
               NC["entropy+reg lr 1e-2"]),
        "hpl": ("self-training on hard pseudo-labels, lr 1e-2", NC["hard pseudo-labels lr 1e-2"]),
        "zs": ("no adaptation", NC["zero-shot"])},
    "oce-improves-ood-auroc": {
        "method": ("CLIPTTA + OCE, AUROC minus no adaptation's", AU["cliptta+oce"]),
        "ablation": ("CLIPTTA without the OCE term", AU["cliptta"]),
        "tent": ("TENT (official settings)", AU["tent"]),
        "tent4": ("TENT at lr 1e-4", AU["tent lr 1e-4"])},
    "oce-improves-ood-auroc-official": {
        "method": ("CLIPTTA + OCE with a 16-shot memory, batches of 256, AUROC minus no adaptation's",
                   AUO["cliptta+oce+memory"]),
        "ablation": ("the same without the OCE term", AUO["cliptta+memory"]),
        "tent": ("TENT, batches of 256", AUO["tent"]),
        "tent4": ("TENT at lr 1e-4, batches of 256", AUO["tent lr 1e-4"])},
}
for t, vals in V.items():
    for k, (_, x) in vals.items():
        glue(f"{t}_{k}", float(x), display=False)
        if t.startswith("cliptta-beats"):
            glue(f"{t}_{k}_pts", 100 * float(x), display=False)  # the same in points of accuracy

# %%
OFFICIAL_SETTING = ("official configuration: batches of 128 (closed set) or 256 (open set), CLIPTTA and its ablation "
                    "with the class-balanced memory (4 shots; 16 in the open set), the whole shifted test half")
WHY_OFFICIAL = ("the official configuration (batch size and memory of the official scripts), run as a second setting "
                "when the page gained its comparators (issue 32); the method, the measurement and the criterion are "
                "the pre-registered test's")
WHY_SAME_LR = ("added when the page gained its comparators (issue 32): at CLIPTTA's official learning rate of 1e-4, "
               "ten Adam steps per batch leave our tower's LayerNorms where they started (CLIPTTA, its ablation and "
               "TENT at 1e-4 all stay within about a point of no adaptation), so cliptta-beats-tent cannot show what "
               "the loss does. Here CLIPTTA and its ablation take TENT's official step, 1e-3, so that both objectives "
               "move the tower as far; the measurement and criterion are cliptta-beats-tent's; designed on seeds 0-9")
ACC_TOL = tolerance(abs=0.02, why="paired differences of online accuracy after Adam pre-training and adaptation. "
                    "Pre-registered from the sampling noise of ~800 stream images; measured since: under other numerics "
                    "(ATEN_CPU_CAPABILITY=default, OPENBLAS_CORETYPE=Sandybridge) the pre-trained tower ends elsewhere "
                    "and these differences moved by up to 1.4 points at notebook seed 0; their seed-to-seed spread "
                    "(standard deviation) over the first ci sweep was 0.2 to 1.9 points")
AUC_TOL = tolerance(abs=0.02, why="AUROC after Adam training on a few hundred samples")
LOSS = "the soft contrastive loss (entropy minimisation in its place, all else CLIPTTA's)"


def test(id, measured_paper, statement, criterion, tol, **extra):
    """Record test `id` from V[id]: its method, its ablation and its baselines."""
    vals = V[id]
    keys = list(vals)
    ingredient = extra.pop("ingredient", LOSS)
    claims.test(id, statement=statement, paper=measured_paper, criterion=criterion, measured=float(vals[keys[0]][1]),
                ablation=Comparator(vals[keys[1]][0], float(vals[keys[1]][1]), ingredient=ingredient),
                baselines=[Comparator(vals[k][0], float(vals[k][1])) for k in keys[2:]], tol=tol, **extra)


claims.headline("improves-over-entropy-tta",
                "Adapting CLIP at test time with a soft contrastive loss aligned with its pre-training (CLIPTTA) "
                "improves it under distribution shift, and more than entropy-based TTA does",
                tests=["cliptta-beats-tent", "cliptta-beats-zero-shot", "cliptta-beats-tent-same-lr",
                       "cliptta-beats-tent-official", "cliptta-beats-zero-shot-official"])
claims.headline("resists-collapse",
                "Entropy minimisation leads to pseudo-label drift and class collapse; CLIPTTA's batch-aware "
                "contrastive gradients mitigate the risk of collapse",
                tests=["tent-collapses", "cliptta-keeps-classes", "soft-contrastive-resists-collapse-at-stress",
                       "zero-gradient-at-collapse"])
claims.headline("oce-detects-ood",
                "In open-set TTA, the Outlier Contrastive Exposure loss improves the detection of OOD samples",
                tests=["oce-improves-ood-auroc", "oce-improves-ood-auroc-official"])
claims.headline("broad-and-stable",
                "Over 75 datasets CLIPTTA consistently outperforms entropy-based objectives, is competitive with the "
                "state of the art (TDA, WATT, CLIPArTT and others) and is more stable across shifts",
                untestable="it needs CLIP, the paper's 75 datasets and the other TTA methods at their scale; our toy "
                           "two-tower model on four shifts of 8 x 8 digits can test the mechanism and the comparison "
                           "with entropy minimisation only, and the paper's numbers were not found")

test("cliptta-beats-tent", "CLIPTTA consistently outperforms entropy-based objectives (75 datasets; no number retrieved)",
     "On balanced shifted streams (mean over 4 shifts and the training seeds), CLIPTTA's online accuracy exceeds "
     "TENT's by at least 2 points", at_least(0.02), ACC_TOL)
test("cliptta-beats-zero-shot", "TTA with CLIPTTA improves on zero-shot CLIP under distribution shift",
     "On the same streams, CLIPTTA's accuracy exceeds no adaptation by at least 2 points", at_least(0.02), ACC_TOL)
test("cliptta-beats-tent-same-lr",
     "CLIPTTA consistently outperforms entropy-based objectives (75 datasets; no number retrieved)",
     "On the same streams, CLIPTTA run with TENT's learning rate (1e-3) exceeds TENT's online accuracy by at least "
     "2 points", at_least(0.02), ACC_TOL, post_hoc=WHY_SAME_LR)
test("cliptta-beats-tent-official", "CLIPTTA consistently outperforms entropy-based objectives (official scripts)",
     "In the official configuration (batches of 128, CLIPTTA with its memory, the whole shifted test half), "
     "CLIPTTA's online accuracy exceeds TENT's by at least 2 points", at_least(0.02), ACC_TOL,
     setting=OFFICIAL_SETTING, post_hoc=WHY_OFFICIAL)
test("cliptta-beats-zero-shot-official", "TTA with CLIPTTA improves on zero-shot CLIP (official scripts)",
     "In the official configuration, CLIPTTA's online accuracy exceeds no adaptation by at least 2 points",
     at_least(0.02), ACC_TOL, setting=OFFICIAL_SETTING, post_hoc=WHY_OFFICIAL)
test("tent-collapses", "entropy minimisation leads to class collapse",
     "After a 70 %-one-class stream, TENT's prediction-marginal entropy on the balanced set falls to at most half of "
     "the unadapted model's (mean ratio over shifts and seeds)", at_most(0.5),
     tolerance(abs=0.05, why="entropy of predictions after Adam training"),
     ingredient="the entropy objective (the soft contrastive loss in its place, TENT's settings)")
claims.illustrate(
    "cliptta-keeps-classes",
    statement="After a 70 %-one-class stream (official settings), CLIPTTA still gives at least 2 % of its balanced-set "
              "predictions to at least 8 classes (mean over shifts and seeds)",
    paper="the batch-aware contrastive loss mitigates class collapse", criterion=at_least(8),
    measured=V["cliptta-keeps-classes"]["method"][1],
    tol=tolerance(abs=0.5, why="class counts after Adam training; a class near the 2 % line can flip"),
    why="a 'does not hurt' criterion that doing nothing passes: the unadapted tower keeps as many classes (it "
        "passes or is at the edge at every seed of the first ci sweep), and so does the ablation; the count could "
        "only show collapse resistance where TENT collapses, which it does not on this stream (tent-collapses). "
        "Pre-registered as a test; relabelled an illustration after the independent review")
claims.illustrate(
    "soft-contrastive-resists-collapse-at-stress",
    statement="With no regulariser and learning rate 1e-2, the soft contrastive loss alone keeps at least 8 classes "
              "after the imbalanced stream (mean over shifts and seeds)",
    paper="CLIPTTA's batch-aware gradients resist collapse (gradient analysis)", criterion=at_least(8),
    measured=V["soft-contrastive-resists-collapse-at-stress"]["method"][1],
    tol=tolerance(abs=1.5, why="class counts after Adam training; entropy minimisation at lr 1e-2 collapses "
                               "chaotically: under other numerics it ended at 5.6 instead of 6.25 classes"),
    why="as pre-registered it cannot pass: the tolerance of 1.5 classes, which the chaotic collapse of its ablation "
        "forced, makes the band around 8 reach 9.5, so the method would need more than 9.5 of 10 classes on "
        "average; and it is not specific either way, since doing nothing and entropy with the classical diversity "
        "term of information maximisation keep at least 8 classes too. Pre-registered as a test; relabelled an "
        "illustration after the independent review; its comparators are shown in the verdict")
test("oce-improves-ood-auroc", "the Outlier Contrastive Exposure loss improves OOD detection in open-set TTA",
     "On open-set streams, CLIPTTA with OCE raises the ID-vs-OOD AUROC of the max-log-prob score by at least 0.03 "
     "over no adaptation (mean over shifts and seeds)", at_least(0.03), AUC_TOL,
     ingredient="the OCE term and its Otsu filter")
test("oce-improves-ood-auroc-official",
     "the Outlier Contrastive Exposure loss improves OOD detection in open-set TTA (official scripts)",
     "In the official open-set configuration (batches of 256, a 16-shot memory), CLIPTTA with OCE raises the AUROC "
     "by at least 0.03 over no adaptation", at_least(0.03), AUC_TOL,
     ingredient="the OCE term and its Otsu filter", setting=OFFICIAL_SETTING, post_hoc=WHY_OFFICIAL)
claims.illustrate("zero-gradient-at-collapse",
                  statement="On a batch whose pseudo-labels are all equal, the soft contrastive loss has zero gradient "
                            "with respect to the image features (|grad| < 1e-7)",
                  paper="gradient analysis: the loss stops pushing once the batch has collapsed",
                  criterion=at_most(1e-7), measured=grad_norm["soft contrastive"],
                  tol=tolerance(abs=1e-12, why="zero up to float64 rounding (of order 1e-14)"),
                  why="algebra fixes it: a batch collapsed by construction has equal pseudo-captions, so every row "
                      "of L is constant, the loss is log B and its gradient is zero whatever the features; no "
                      "implementation of the loss could fail it (the golden file checks ours against the official "
                      "code at such a batch)")

glue("tent_best_lr", float(BAL[tent_best].lr), display=False)
for m in ["zero-shot", "tent", "cliptta", "tda", "tent lr 1e-4", "cliptta lr 1e-3", "entropy+reg lr 1e-3",
          "soft contrastive lr 1e-3", "entropy+reg", "centred"]:
    glue(f"acc_{gk(m)}", 100 * A[m], display=False)
for m in ["zero-shot", "tent", "cliptta+memory", "tda", "centred"]:
    glue(f"acc_off_{gk(m)}", 100 * AO[m], display=False)
for m in ["zero-shot", "cliptta", "cliptta+memory", "tent", "soft contrastive lr 1e-2", "entropy lr 1e-2",
          "entropy+reg lr 1e-2", "hard pseudo-labels lr 1e-2"]:
    glue(f"ncls_{gk(m)}", NC[m], display=False)
    glue(f"imbacc_{gk(m)}", 100 * float(imb_acc[m].mean()), display=False)
    glue(f"balacc_{gk(m)}", 100 * float(bal_acc[m].mean()), display=False)
glue("soft_minus_tent_same_lr", 100 * (A["soft contrastive lr 1e-3"] - A["tent"]), display=False)
glue("cliptta_minus_ablation_same_lr", 100 * (A["cliptta lr 1e-3"] - A["entropy+reg lr 1e-3"]), display=False)
glue("grad_soft", grad_norm["soft contrastive"], display=False)
glue("grad_tent", grad_norm["entropy (TENT)"], display=False)
glue("grad_twosided", grad_norm["two-sided soft contrastive"], display=False)
glue("loss_at_collapse", loss_at_collapse, display=False)
glue("top_prob_min", min(top_prob), display=False)
glue("top_prob_max", max(top_prob), display=False)
glue("auroc_zero_shot", float(auroc["zero-shot"].mean()), display=False)
glue("auroc_zero_shot_min", float(auroc["zero-shot"].min()), display=False)  # over training seeds and shifts
glue("auroc_zero_shot_max", float(auroc["zero-shot"].max()), display=False)
proto_cos = (T @ T.T).numpy()[~np.eye(len(T), dtype=bool)]
glue("proto_cos_min", float(proto_cos.min()), display=False)
glue("proto_cos_max", float(proto_cos.max()), display=False)
glue("centred_minus_cliptta_lr_1e_3", 100 * (A["centred"] - A["cliptta lr 1e-3"]), display=False)
print(f"ci runtime so far: {time.perf_counter() - t0:.1f} s")

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
# The numbers below are from this run (notebook seed 0: two training seeds, streams of 192 images per
# shift); the counts are over the ci sweep of ten notebook seeds. Accuracy differences are in points of online
# accuracy.
#
# - *CLIPTTA beats TENT and no adaptation, at the official settings* ({repro-status}`cliptta-beats-tent`,
#   {repro-status}`cliptta-beats-zero-shot`). At CLIPTTA's official learning rate, ten Adam steps of 10⁻⁴ on
#   each of the twelve batches of a ci stream barely move our tower: CLIPTTA's online accuracy is
#   {glue:text}`acc_cliptta:.1f` % against {glue:text}`acc_zero_shot:.1f` % without adaptation and
#   {glue:text}`acc_tent:.1f` % for TENT, a gain of {glue:text}`cliptta-beats-tent_method_pts:.1f` points over
#   TENT and {glue:text}`cliptta-beats-zero-shot_method_pts:.1f` over no adaptation, where the brief asks for 2
#   (and the declared tolerance of 2 more, so a pass needs more than 4). The ablation, entropy in place of the
#   soft contrastive loss with everything else CLIPTTA's, gains as much
#   ({glue:text}`cliptta-beats-zero-shot_ablation_pts:.1f` points), and TDA, which trains nothing, gains
#   {glue:text}`cliptta-beats-zero-shot_tda_pts:.1f`. Over the ci sweep the method's gain over no adaptation
#   lies inside the tolerance band at {repro-seeds}`cliptta-beats-zero-shot:method:edge` seeds; its gain over
#   TENT is inside the band at {repro-seeds}`cliptta-beats-tent:method:edge` and below it at
#   {repro-seeds}`cliptta-beats-tent:method:fail`. Part of that failure belongs to short streams: in the
#   full-scale run (the whole shifted test half, batches of 16) CLIPTTA at 10⁻⁴ passes both tests narrowly, but
#   not specifically. Its ablation passes beside it over TENT and ends just short, at the edge, over no
#   adaptation, and the centred cosines pass both by far.
# - *A training-free debiasing beats every adapted method.* Subtracting each class's running mean cosine over
#   the stream (the review's baseline, no training, no labels) gains
#   {glue:text}`cliptta-beats-tent_centred_pts:.1f` points over TENT and
#   {glue:text}`cliptta-beats-zero-shot_centred_pts:.1f` over no adaptation on the same streams, and
#   {glue:text}`cliptta-beats-zero-shot-official_centred_pts:.1f` over no adaptation in the official
#   configuration; it is {glue:text}`centred_minus_cliptta_lr_1e_3:.1f` points above even CLIPTTA at 10⁻³. In
#   this miniature the shift is largely a per-class bias of close-together prototypes, and any correction that
#   assumes balanced classes removes it, CLIPTTA's regulariser included. It passes the accuracy criteria at
#   {repro-seeds}`cliptta-beats-tent:baseline3:pass` seeds against TENT and
#   {repro-seeds}`cliptta-beats-zero-shot:baseline4:pass` against no adaptation.
# - *The official configuration* ({repro-status}`cliptta-beats-tent-official`,
#   {repro-status}`cliptta-beats-zero-shot-official`): batches of 128, CLIPTTA with its class-balanced memory,
#   the whole shifted test half. The statuses do not change: CLIPTTA gains
#   {glue:text}`cliptta-beats-zero-shot-official_method_pts:.1f` points over no adaptation and
#   {glue:text}`cliptta-beats-tent-official_method_pts:.1f` over TENT; its ablation with the same memory
#   {glue:text}`cliptta-beats-zero-shot-official_ablation_pts:.1f` and
#   {glue:text}`cliptta-beats-tent-official_ablation_pts:.1f`; TDA {glue:text}`cliptta-beats-zero-shot-official_tda_pts:.1f`
#   over no adaptation. With the memory, as without it on the batch-16 streams, CLIPTTA and its ablation stay
#   within a fraction of a point of each other.
# - *With the same step as TENT* (post hoc, {repro-status}`cliptta-beats-tent-same-lr`). Given TENT's 10⁻³,
#   CLIPTTA beats TENT by {glue:text}`cliptta-beats-tent-same-lr_method_pts:.1f` points. So does its ablation,
#   entropy with the regulariser at the same step ({glue:text}`cliptta-beats-tent-same-lr_ablation_pts:.1f`
#   points; it passes at {repro-seeds}`cliptta-beats-tent-same-lr:ablation:pass` seeds): CLIPTTA is only
#   {glue:text}`cliptta_minus_ablation_same_lr:.1f` points above it. The soft contrastive loss *alone* beats
#   entropy alone by {glue:text}`soft_minus_tent_same_lr:.1f` points, but the regulariser, a diversity term
#   older than CLIPTTA, does the same for entropy minimisation. In this miniature the gain over TENT comes from
#   what both CLIPTTA and information maximisation have, not from the contrastive form of the loss.
# - *Collapse* ({repro-status}`tent-collapses`, and two illustrations). At the official settings nothing
#   collapses on a stream of 192 images: TENT's marginal entropy keeps {glue:text}`tent-collapses_method:.2f` of
#   the unadapted model's (the brief asks for at most half), and its ablation and baselines fail as it does.
#   CLIPTTA keeps {glue:text}`cliptta-keeps-classes_method:.2f` classes; so do its ablation
#   ({glue:text}`cliptta-keeps-classes_ablation:.2f`) and the unadapted tower
#   ({glue:text}`cliptta-keeps-classes_zs:.2f`), and TENT keeps {glue:text}`cliptta-keeps-classes_tent:.2f`;
#   with the memory, CLIPTTA keeps {glue:text}`ncls_cliptta_memory:.2f`. A count of classes that doing nothing
#   passes cannot show collapse resistance, so `cliptta-keeps-classes` is an illustration. Under stress
#   (learning rate 10⁻², no regulariser) entropy minimisation keeps
#   {glue:text}`soft-contrastive-resists-collapse-at-stress_ablation:.2f` classes and hard pseudo-labels
#   {glue:text}`soft-contrastive-resists-collapse-at-stress_hpl:.2f`, while the soft contrastive loss keeps
#   {glue:text}`soft-contrastive-resists-collapse-at-stress_method:.2f`. That is the paper's mechanism, but the
#   count does not tell it from doing nothing ({glue:text}`soft-contrastive-resists-collapse-at-stress_zs:.2f`
#   classes) or from entropy with the classical diversity term
#   ({glue:text}`soft-contrastive-resists-collapse-at-stress_im:.2f`): in this run both keep at least 8 classes,
#   as the soft contrastive loss does, so the check is not specific. As pre-registered it could not even pass: the chaotic
#   collapse of entropy minimisation forced a tolerance of $1.5$ classes, so a pass needs more than $9.5$ of 10
#   classes. It is therefore shown as an illustration (`soft-contrastive-resists-collapse-at-stress`), not
#   counted. Resisting collapse also costs accuracy on this stream: the soft contrastive loss pushes the
#   majority class's share far below its true 70 % (the collapse figure), and its online accuracy on the
#   imbalanced stream is {glue:text}`imbacc_soft_contrastive_lr_1e_2:.1f` %, against
#   {glue:text}`imbacc_zero_shot:.1f` % without adaptation and {glue:text}`imbacc_entropy_lr_1e_2:.1f` % for
#   collapsing entropy minimisation.
# - *The gradient at collapse* (an illustration: algebra fixes it). On a batch whose 16 pseudo-labels are equal
#   the soft contrastive loss is {glue:text}`loss_at_collapse:.4f` nats ($\log 16$) and its gradient
#   {glue:text}`grad_soft:.1e`, while TENT's is {glue:text}`grad_tent:.2f` and the two-sided variant's
#   {glue:text}`grad_twosided:.1f`: the property belongs to the image-side form that the official code uses
#   with a frozen text tower.
# - *OCE* ({repro-status}`oce-improves-ood-auroc`, {repro-status}`oce-improves-ood-auroc-official`): a weak
#   miniature, read these as "not testable here" more than as a refutation. Before any adaptation the score
#   barely separates our OOD photo patches from the digits: the unadapted tower's AUROC is
#   {glue:text}`auroc_zero_shot:.3f` on average and ranges from {glue:text}`auroc_zero_shot_min:.2f` to
#   {glue:text}`auroc_zero_shot_max:.2f` over the training seeds and shifts of this run, on both sides of chance ($0.5$): on some shifts the OOD
#   patches score higher than the digits.
#   CLIPTTA with OCE changes the AUROC by {glue:text}`oce-improves-ood-auroc_method:.3f` over no adaptation,
#   and by {glue:text}`oce-improves-ood-auroc_ablation:.3f` without the OCE term; in the official configuration,
#   by {glue:text}`oce-improves-ood-auroc-official_method:.3f` and
#   {glue:text}`oce-improves-ood-auroc-official_ablation:.3f`. The brief asks for $0.03$. Our max-log-prob
#   scores (OOD scale 1 on cosines that all lie close together) are not bimodal, so the Otsu split and the
#   sigmoid of temperature $\gamma = 0.005$ have little to separate.
#
# In short, the page shows the zero gradient at collapse, which algebra fixes. Under stress the soft contrastive
# loss keeps more classes than entropy minimisation, but doing nothing also keeps at least 8, and the loss keeps
# them by over-correcting, at a cost in accuracy, so the page does not show collapse resistance. The counted
# tests do not support the paper's claims in this miniature: at the official settings CLIPTTA hardly moves our tower over a short stream, and where it does
# move it, the ingredient the paper names is not what makes the difference: its ablation gains as much, and a
# training-free, balanced-prior correction of the cosines gains more.
#
# ## What a skeptic would try
#
# Reviewed by: an independent skeptic review (someone who did not write the page read the brief, the page, the
# record and the sweeps, and ran naive baselines against every counted test in a script outside the project).
# The baselines below come from that review and from the conversion of the page; each is measured by this
# notebook on the same streams (seed 0, points of online accuracy unless stated).
#
# - **Centred cosines** (the review's strongest baseline): subtract each class's running mean cosine over the
#   stream so far, train nothing. It reaches {glue:text}`acc_centred:.1f` % on the batch-16 streams (TENT
#   {glue:text}`acc_tent:.1f` %, CLIPTTA {glue:text}`acc_cliptta:.1f` %, CLIPTTA at 10⁻³
#   {glue:text}`acc_cliptta_lr_1e_3:.1f` %) and {glue:text}`acc_off_centred:.1f` % in the official configuration.
#   It is a baseline of all five accuracy tests, and the verdict gives its counts. The review also tried a
#   prior correction of the log-probabilities (the log of the running mean prediction subtracted), which sits
#   between no adaptation and centring; it is not run here.
# - **Longer streams** (the full-scale run: the whole shifted test half in batches of 16): CLIPTTA at its
#   official step passes both accuracy tests narrowly. Its ablation passes beside it over TENT and is at the edge
#   over no adaptation, and the centred cosines pass both, so neither pass is specific. The failures at ci are
#   partly a short-stream effect.
# - **TENT at another learning rate.** At 10⁻⁴ TENT reaches {glue:text}`acc_tent_lr_1e_4:.1f` % (CLIPTTA
#   {glue:text}`acc_cliptta:.1f` %); the best of 10⁻⁴, 10⁻³ and 10⁻², chosen on the test labels (an oracle), is
#   {glue:text}`cliptta-beats-tent_best_pts:.1f` points above TENT and
#   {glue:text}`cliptta-beats-zero-shot_best_pts:.1f` above no adaptation. A comparator of the accuracy tests. The
#   oracle often picks TENT's own 10⁻³; there this comparator is TENT against itself (zero) in
#   `cliptta-beats-tent`, and the same value as "TENT (official settings)" in `cliptta-beats-zero-shot`. It is
#   kept, since it is a different measurement wherever the oracle picks another step, but it adds no evidence at
#   those seeds.
# - **Entropy with the diversity term (information maximisation).** At CLIPTTA's settings it is the ablation,
#   {glue:text}`acc_entropy_reg:.1f` %; at 10⁻³ it reaches {glue:text}`acc_entropy_reg_lr_1e_3:.1f` %, against
#   {glue:text}`acc_cliptta_lr_1e_3:.1f` % for CLIPTTA at the same step; at 10⁻² on the imbalanced stream it
#   keeps {glue:text}`ncls_entropy_reg_lr_1e_2:.2f` classes.
# - **TDA**, the training-free cache of confident test features: {glue:text}`acc_tda:.1f` % on the batch-16
#   streams and {glue:text}`acc_off_tda:.1f` % in the official configuration (no adaptation
#   {glue:text}`acc_off_zero_shot:.1f` %, CLIPTTA with memory {glue:text}`acc_off_cliptta_memory:.1f` %). It
#   beats CLIPTTA at the official settings without training anything.
# - **Self-training on hard pseudo-labels**: on the imbalanced stream it keeps
#   {glue:text}`tent-collapses_hpl:.2f` of the marginal entropy at 10⁻³ and
#   {glue:text}`ncls_hard_pseudo_labels_lr_1e_2:.2f` classes at 10⁻², where it drifts like entropy minimisation.
# - **No adaptation**: keeps {glue:text}`ncls_zero_shot:.2f` classes after the imbalanced stream, and its
#   online accuracy there, {glue:text}`imbacc_zero_shot:.1f` %, is far above that of the two losses that keep
#   their classes at 10⁻², the soft contrastive loss ({glue:text}`imbacc_soft_contrastive_lr_1e_2:.1f` %) and
#   entropy with the diversity term ({glue:text}`imbacc_entropy_reg_lr_1e_2:.1f` %).
# - **BN-statistics adaptation** does not apply: the tower has LayerNorms, which normalise each sample on its own.
#
# ## What the miniature cannot show
#
# - **CLIP itself.** Our "CLIP" is an MLP trained on 900 clean digits towards ten frozen sentence embeddings.
#   It ends up nearly saturated: its mean top probability at scale 100 stays between
#   {glue:text}`top_prob_min:.2f` and {glue:text}`top_prob_max:.2f` on the shifted streams. CLIP's zero-shot
#   predictions are softer and its errors more structured. Its pre-training is a true many-caption contrastive
#   loss, while ours, with one caption per class, is a ten-way cross-entropy. So the paper's motivating
#   argument, that a TTA loss aligned with the *pre-training* loss adapts better, cannot really be tested here.
#   We can test the batch-level mechanism it rests on.
# - **The official learning rates.** They are CLIP's. On our LayerNorms CLIPTTA's 10⁻⁴ is too small to move
#   anything over a short stream, which is why the page also runs CLIPTTA at 10⁻³; the full-scale
#   learning-rate sweep shows the whole curve.
# - **Scale and breadth of shifts.** The paper evaluates on 75 datasets: natural shifts (ImageNet-A/R/V2/
#   Sketch), 15 corruptions at 5 severities, and fine-grained and domain datasets. We have four synthetic
#   shifts of 8 × 8 images at one severity, and the LayerNorms of a two-layer MLP as the only adapted
#   parameters.
# - **The other TTA baselines** of the paper (CLIPArTT, WATT, UniEnt) are not run; TDA is.
# - **Open-set detection at realistic scale.** The paper's OOD sets (SVHN, Places, NINCO and others) differ
#   semantically from the ID classes, and CLIP's scores separate them partly before any adaptation. Our photo
#   patches, with scores squeezed into a narrow band, are a weak stand-in. The failure of the OCE tests here
#   says little about its effect with CLIP.
