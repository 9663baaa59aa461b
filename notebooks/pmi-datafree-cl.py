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
# # PMI: per-layer model inversion for data-free continual learning
#
# *Inverting a network one layer at a time gives full-model inversion a starting point from which it converges in
# far fewer iterations; inputs inverted from class-wise Gaussian feature models can then be replayed so that a
# class-incremental learner keeps its old classes without storing any of their data.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import time

import matplotlib.pyplot as plt
import numpy as np
import torch

from repro import continual as CL
from repro.claims import Claims, at_least, at_most, less_than, tolerance
from repro.papers import pmi_datafree_cl as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    "ci": dict(n_seeds=2, train_steps=60, joint_steps=150, n_ref=500, n_speed=5, fd_per_class=20, fd_steps=150),
    "full": dict(n_seeds=5, train_steps=200, joint_steps=400, n_ref=500, n_speed=10, fd_per_class=50,
                 fd_steps=300),
})
SIZES = (64, 128, 64, 10)       # MLP 64 -> 128 -> 64 -> 10, ReLU (the brief's network)
LR = 1e-2                       # Adam, full batch, for every training run
N_SYN, PMI_STEPS, INV_STEPS = 20, 50, 50  # replay: 20 synthetic samples per old class, 50 + 50 steps
N_EXEMPLARS = 20                # exemplar replay: 20 real images per old class (not data-free)
SEEDS = [P.seed * P.n_seeds + k for k in range(P.n_seeds)]  # disjoint seed sets across notebook seeds
METHODS = list(K.METHODS)
LABELS = {"finetune": "fine-tune", "lwf": "LwF", "inv-random": "inversion, random start",
          "inv-pmi": "inversion, PMI start", "inv-pmi-shuffled": "inversion, shuffled PMI start (control)",
          "exemplar": "exemplar replay (real data)"}
plt.rcParams["savefig.dpi"] = 90
claims = Claims("pmi-datafree-cl",
                title="Model Inversion with Layer-Specific Modeling and Alignment for Data-Free Continual Learning",
                authors="Ruilin Tong, Haodong Lu, Yuhang Liu, Dong Gong",
                paper_url="https://openreview.net/forum?id=yruGxKsZyH", scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# Data-free continual learning may not keep any image of an old task. One way to still rehearse old classes is
# *model inversion*: optimise synthetic inputs until the current network classifies them as the old classes,
# and replay those. The paper (Tong, Lu, Liu and Gong, NeurIPS 2025) names two problems with it. Inversion is
# slow, because every step back-propagates through the whole network and many steps are needed. And inputs
# inverted from a class label alone drift away from the real data: their features do not look like real
# features. Its answers:
#
# 1. **Per-layer model inversion (PMI).** Invert the network one layer at a time, from the top down. Each
#    single-layer problem is small and converges fast. The result is a starting point from which full-model
#    inversion needs far fewer iterations.
# 2. **Class-wise feature modelling.** Store a Gaussian $\mathcal N(\mu_c, \Sigma_c)$ of each old class's
#    features. Invert towards features *sampled* from it, so that synthetic and real features stay aligned.
# 3. With CLIP, a semantic-aware projection from text to image features also brings in new classes. That part
#    needs CLIP and is out of reach here (see the end of the page).
#
# The paper reports gains over data-free baselines on ResNet and CLIP backbones. Our brief found no number we
# could verify. An AI-written summary says inversion becomes "3.2×" more efficient, and a leaderboard lists
# "CUB-200 A_last 81.64" without naming the method or backbone. The criteria below therefore come from the
# brief, and were fixed before the first run.
#
# ## The method
#
# The network is $f = g \circ \phi$: a feature extractor $\phi$ (two ReLU layers) and a linear head $g$.
# After each task we fit, for each of its classes, the mean $\mu_c$ and covariance $\Sigma_c$ (plus
# $10^{-3} I$) of the training features. The images themselves are discarded.
#
# **Per-layer inversion.** Without activations, a stack of invertible layers
# $x \mapsto W_L(\cdots(W_1x + b_1)\cdots) + b_L$ is inverted exactly by solving one layer at a time from the
# top: $h_L = y$, then $h_{l-1} = W_l^{-1}(h_l - b_l)$. The kernel `invert_per_layer` does this with linear
# solves, never explicit inverses. With ReLUs, we solve, from the top down,
#
# $$h_{l-1} = \arg\min_{h \in \text{box}} \big\|(W_l h + b_l - h_l)_A\big\|^2 + \big\|\mathrm{relu}(W_l h + b_l)_{\bar A}\big\|^2
#   + \lambda\|h\|^2, \qquad A = \{k : (h_l)_k > 0\}.$$
#
# This is the brief's $\|\sigma(W_l h + b_l) - h_l\|^2 + \lambda\|h\|^2$, written in a convex form. A zero
# output of a ReLU only asks for a non-positive pre-activation. We start from the ridge solution on the active
# outputs and take 50 projected Adam steps. The box is $h \ge 0$ for a hidden layer (a ReLU output) and
# $[0, 1]$ for the pixels. $\lambda = 10^{-3}$.
#
# **Full-model inversion** starts from $x_0$ and minimises, per sample, with projected Adam (pixels kept in $[0, 1]$):
#
# $$\mathcal L(x) = \mathrm{CE}\big(f(x), c\big) + \beta\,\overline{(\phi(x) - \tilde f)^2} + \gamma\,\overline{x^2},
#   \qquad \tilde f \sim \mathcal N(\mu_c, \Sigma_c)\ \text{clipped at } 0,\quad \beta = 1,\ \gamma = 10^{-3}.$$
#
# All synthetic samples are one tensor, optimised together. The loss is a sum over samples and Adam acts
# coordinate-wise, so every sample follows its own trajectory.
#
# **Continual training.** On task $t$, Adam (full batch, learning rate $10^{-2}$) minimises the cross-entropy
# over the classes seen so far, on the new data plus the replay set. A distillation term
# $T^2\,\mathrm{KL}$ ($T = 2$) then keeps the old-class logits of the frozen previous model on every input.
#
# ## The experiment
#
# **Data.** scikit-learn's 8 × 8 digits (1,797 images, pixels scaled to $[0, 1]$), 70 % / 30 % train/test split
# per class. Class-incremental: 5 tasks of 2 classes, in a random class order drawn per seed. One head predicts
# among all classes seen so far.
#
# **Methods, all in the same run, on the same task sequence, split and initial network per seed:**
#
# - *fine-tune*: cross-entropy on the new task only (the lower bound);
# - *LwF*: fine-tune plus distillation of the old logits on the new data;
# - *inversion, random start*: LwF plus replay of 20 synthetic samples per old class. Each is inverted towards a
#   Gaussian feature draw from uniform random pixels (DeepInversion-style), for 50 full-model steps;
# - *inversion, PMI start*: the same, starting from the per-layer inversion of the same feature draw
#   (50 steps per layer), then 50 full-model steps;
# - *inversion, shuffled PMI start*: a control. The per-layer inversion is of another class's feature draw
#   (class $k$ takes the start of class $k + C/2$). It costs the same, but the start does not match the target;
# - *exemplar replay*: LwF plus 20 stored real images per old class. This is the upper reference and is not
#   data-free.
#
# **Inversion cost.** A separate network is trained jointly on all ten classes (`joint_steps` Adam steps).
# We draw `n_speed` feature targets per class, so 50 or 100 samples. Each target is inverted from a random start
# for 500 steps. That sets the threshold $\tau_i$ of sample $i$: the loss that the random start reaches after
# 500 steps (the brief's definition, per sample). From the PMI start, from the shuffled PMI start and from a
# zero image, we count the steps until sample $i$'s loss first falls below $\tau_i$. Cost is counted in
# multiply-adds per sample, with forward plus backward taken as 3 forward passes. So PMI pays for its per-layer
# phase: 50 steps on each hidden layer cost as much as 48 full-model steps here.
#
# **Feature alignment.** On the same joint network, `fd_per_class` samples per class are inverted from random
# starts for `fd_steps` steps, in three ways: towards Gaussian feature draws; with cross-entropy only (no feature
# term); and towards another class's Gaussian (the control). We then compute the Fréchet distance between each
# class's synthetic and real training features, averaged over classes.
#
# | preset | seeds per run | Adam steps per task | joint-network steps | inversion-cost samples | alignment samples / steps |
# |---|---|---|---|---|---|
# | ci | 2 | 60 | 150 | 50 | 20 per class / 150 |
# | full | 5 | 200 | 400 | 100 | 50 per class / 300 |
#
# **Deviations from the paper**
#
# - **Data and network.** 8 × 8 digits and a 64-128-64-10 MLP, instead of CIFAR-100, Tiny-ImageNet or
#   ImageNet-R with ResNet-18/32 or CLIP ViT-B/16. The MLP has no batch-norm, so there is no batch-norm
#   statistics prior, and we use no total-variation prior (8 × 8 images). The image prior is an $\ell_2$ term
#   and the $[0, 1]$ box.
# - **No contrastive model.** The paper keeps the feature distribution with a contrastive model. We keep only
#   the class Gaussians, and they are frozen when their task ends: the features of the drifting network are
#   not re-estimated.
# - **No CLIP and no semantic projection.** The brief says these cannot be reproduced offline.
# - **Per-layer problem.** A convex form of the single-layer ReLU objective (above), with ridge start and
#   50 projected Adam steps per layer. The paper's exact per-layer solver and its step counts were not available.
# - **Budgets are ours.** 20 synthetic samples per class; 50 + 50 inversion steps per task (the brief's "equal
#   budget of 50 steps"; the PMI start spends 50 more steps per layer, counted in the cost claim but not
#   matched in the accuracy runs); full-batch training for 60 (ci) or 200 (full) Adam steps per task; distillation
#   weight 1 and temperature 2.
# - **Replay loss.** Cross-entropy over seen classes plus LwF distillation, the same for every replay method.
#   The paper's exact combination of regularisers was not available.

# %% [markdown]
# ## Results
#
# ### Accuracy matrices
#
# Every method runs on the same seeds. A seed fixes the split, the class order, the initial network, the
# synthetic draws and the exemplars.

# %%
runs = {m: [] for m in METHODS}
t0 = time.perf_counter()
for s in progress(SEEDS, desc="seeds"):
    rng = np.random.default_rng(s)
    data = K.load_digit_data(rng)
    tasks = CL.class_incremental_tasks(np.arange(10), 2, rng)
    for m in METHODS:
        runs[m].append(K.run_continual(m, data, tasks, SIZES, P.train_steps, LR, s, n_syn=N_SYN,
                                       pmi_steps=PMI_STEPS, inv_steps=INV_STEPS, n_exemplars=N_EXEMPLARS))
runs = {m: np.stack(v) for m, v in runs.items()}
summary = {m: CL.summarize_runs(runs[m]) for m in METHODS}
acc = {m: np.array([CL.average_accuracy(A) for A in runs[m]]) for m in METHODS}
print(f"{len(SEEDS)} seeds x {len(METHODS)} methods in {time.perf_counter() - t0:.1f} s")

# %%
fig, axes = plt.subplots(2, 3, figsize=(11, 7), constrained_layout=True)
for ax, m in zip(axes.ravel(), METHODS):
    im = CL.plot_accuracy_matrix(ax, runs[m].mean(0), f"{LABELS[m]}\nACC {100 * summary[m]['acc'][0]:.1f} %")
    ax.title.set_fontsize(9)
fig.colorbar(im, ax=axes, shrink=0.6, label="test accuracy (fraction), mean over seeds")
fig.suptitle(f"Accuracy matrix A[i, j]: accuracy on task j after training task i ({len(SEEDS)} seeds)")
plt.show()

# %% [markdown]
# Average accuracy after the last task (ACC), average incremental accuracy, forgetting (Chaudhry et al.) and
# backward transfer, in percent, as mean ± standard deviation over the seeds:

# %%
print(f"{'method':42s} {'ACC':>14s} {'avg. incr.':>14s} {'forgetting':>14s} {'BWT':>14s}")
for m in METHODS:
    row = [f"{100 * summary[m][k][0]:6.1f} ± {100 * summary[m][k][1]:4.1f}"
           for k in ("acc", "avg_incremental", "forgetting", "bwt")]
    print(f"{LABELS[m]:42s} " + " ".join(f"{r:>14s}" for r in row))

# %%
fig, ax = plt.subplots(figsize=(7, 3.8))
steps_axis = np.arange(1, 6)
for m in METHODS:
    curves = np.array([[CL.average_accuracy(A, i) for i in range(5)] for A in runs[m]]) * 100
    ax.errorbar(steps_axis, curves.mean(0), yerr=curves.std(0), marker="o", capsize=3, label=LABELS[m])
ax.set_xlabel("after training task")
ax.set_ylabel("average accuracy on tasks seen (%)")
ax.set_xticks(steps_axis)
ax.set_title(f"Average accuracy after each task (mean ± std over {len(SEEDS)} seeds)")
ax.legend(fontsize=7)
plt.show()

# %% [markdown]
# ### Inversion cost: how far does the PMI start put full-model inversion ahead?

# %%
rng = np.random.default_rng(10_000 + P.seed)
joint_data = K.load_digit_data(rng)
joint = K.MLP(SIZES, seed=P.seed)
Xtr, ytr = torch.as_tensor(joint_data["X_train"]), torch.as_tensor(joint_data["y_train"])
K.train_task(joint, Xtr, ytr, list(range(10)), P.joint_steps, LR)
with torch.no_grad():
    joint_test_acc = float((joint(torch.as_tensor(joint_data["X_test"])).argmax(1).numpy()
                            == joint_data["y_test"]).mean())
    real_feats = joint.features(Xtr).numpy()
stats = K.fit_class_gaussians(real_feats, joint_data["y_train"])
f, lab = K.sample_class_features(stats, range(10), P.n_speed, rng)
target, labels = torch.as_tensor(f, dtype=torch.float32), torch.as_tensor(lab)
perm = torch.as_tensor(K.derange_by_class(lab))
starts, hist, wall = {}, {}, {}
t = time.perf_counter()
starts["random"] = torch.as_tensor(rng.uniform(0, 1, (len(lab), SIZES[0])), dtype=torch.float32)
wall["random-start"] = time.perf_counter() - t
t = time.perf_counter()
starts["PMI"] = K.per_layer_inversion(joint, target, steps=PMI_STEPS)
wall["pmi-start"] = time.perf_counter() - t
starts["shuffled PMI (control)"] = K.per_layer_inversion(joint, target[perm], steps=PMI_STEPS)
starts["zero image"] = torch.zeros(len(lab), SIZES[0])
for name, x0 in starts.items():
    t = time.perf_counter()
    _, hist[name] = K.full_inversion(joint, x0, labels, target, P.n_ref, record=True)
    wall[name] = (time.perf_counter() - t) / P.n_ref  # seconds per full-model step
tau = hist["random"][-1]  # per sample: the loss the random start reaches after n_ref steps
it_macs, pl_macs = K.full_iteration_macs(joint), K.per_layer_macs(joint, PMI_STEPS)
extra = {"random": 0, "PMI": pl_macs, "shuffled PMI (control)": pl_macs, "zero image": 0}
hits = {n: K.iterations_to_reach(h, tau) for n, h in hist.items()}
cost = {n: np.median(hits[n] * it_macs + extra[n]) for n in hist}  # median multiply-adds per sample
ratio = {n: float(cost[n] / cost["random"]) for n in hist}
for n in hist:
    print(f"{n:24s} median steps to reach tau: {np.median(hits[n]):6.1f}   reached: "
          f"{np.mean(np.isfinite(hits[n])):4.0%}   cost / random: {ratio[n]:.3f}")
print(f"per-layer phase = {pl_macs / it_macs:.1f} full-model steps; joint network test accuracy {joint_test_acc:.3f}")

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
for n, h in hist.items():
    x_axis = (np.arange(h.shape[0]) * it_macs + extra[n]) / it_macs
    rel = h / tau[None, :]
    med, lo, hi = np.median(rel, 1), np.quantile(rel, 0.25, 1), np.quantile(rel, 0.75, 1)
    axes[0].plot(x_axis, med, label=n)
    axes[0].fill_between(x_axis, lo, hi, alpha=0.2)
axes[0].axhline(1, color="k", lw=0.8, ls="--", label=r"$\tau_i$ (random start after 500 steps)")
axes[0].set_yscale("log")
axes[0].set_xlabel("cost (full-model step equivalents, multiply-adds; per-layer phase included)")
axes[0].set_ylabel(r"inversion loss / $\tau_i$ (median, IQR band)")
axes[0].legend(fontsize=7)
names = list(hist)
axes[1].bar(range(len(names)), [ratio[n] for n in names], color=["C0", "C1", "C2", "C3"])
axes[1].axhline(0.5, color="k", ls="--", lw=0.8, label="claim: at most 0.5")
axes[1].set_xticks(range(len(names)), names, rotation=15, fontsize=8)
axes[1].set_ylabel("median cost to reach $\\tau_i$ / random start")
axes[1].legend(fontsize=8)
fig.suptitle(f"Full-model inversion of {len(lab)} Gaussian feature targets (joint network, seed {P.seed})")
plt.show()

# %% [markdown]
# ### Feature alignment: do Gaussian feature targets keep synthetic features real-looking?

# %%
f2, lab2 = K.sample_class_features(stats, range(10), P.fd_per_class, rng)
t2, l2 = torch.as_tensor(f2, dtype=torch.float32), torch.as_tensor(lab2)
x0 = torch.as_tensor(rng.uniform(0, 1, (len(lab2), SIZES[0])), dtype=torch.float32)
variants = {"Gaussian feature targets": t2, "cross-entropy only": None,
            "another class's Gaussian (control)": t2[torch.as_tensor(K.derange_by_class(lab2))]}
fd = {}
for name, tg in variants.items():
    x, _ = K.full_inversion(joint, x0, l2, tg, P.fd_steps)
    with torch.no_grad():
        fd[name] = K.classwise_frechet(joint.features(x).numpy(), lab2, real_feats, joint_data["y_train"])
half = np.arange(len(real_feats)) % 2 == 0
fd_floor = K.classwise_frechet(real_feats[half], joint_data["y_train"][half], real_feats[~half],
                               joint_data["y_train"][~half])
for n, v in fd.items():
    print(f"{n:36s} class-wise Frechet distance to real features: {v:8.2f}")
print(f"{'real vs real (two halves)':36s} {fd_floor:8.2f}")

# %%
fig, ax = plt.subplots(figsize=(7, 3.5))
ax.bar(range(len(fd)), list(fd.values()), color=["C1", "C0", "C2"])
ax.axhline(fd_floor, color="k", ls="--", lw=0.8, label="real vs real (two halves of the training set)")
ax.set_xticks(range(len(fd)), list(fd), fontsize=8)
ax.set_yscale("log")
ax.set_ylabel("class-wise Fréchet distance\nto real features (feature units²)")
ax.set_title(f"Synthetic vs real penultimate features ({P.fd_per_class} per class, {P.fd_steps} steps)")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### The paper's numbers beside ours
#
# | quantity | paper (setting) | ours (setting) |
# |---|---|---|
# | inversion speed-up from the PMI start | "3.2×" (unverified AI summary; setting unknown) | see `pmi-init-cuts-inversion-cost` below: 1 / ratio of multiply-adds to reach the random start's 500-step loss (digits MLP) |
# | final accuracy $A_{last}$ | 81.64 on CUB-200 (unverified leaderboard; method and backbone unknown) | ACC of the PMI replay in the table above (digits, 5 tasks × 2 classes): not comparable |
#
# Neither number could be checked against the paper, so neither is used as a criterion.

# %%
d_ft = acc["inv-pmi"] - acc["finetune"]
claims.check("pmi-init-cuts-inversion-cost",
             statement="From the per-layer (PMI) start, full-model inversion reaches the loss that a random start "
                       "reaches after 500 steps at no more than half the cost (median over samples, multiply-adds, "
                       "per-layer phase included)",
             paper="PMI initialisation significantly reduces the iterations full-model inversion needs "
                   "('3.2x' in an unverified summary)",
             criterion=at_most(0.5), measured=ratio["PMI"],
             control=ratio["shuffled PMI (control)"],
             control_label="per-layer start of another class's target (same cost, start not matched)",
             tol=tolerance(rel=0.15, abs=0.02, why="the step at which an Adam trajectory crosses a threshold "
                                                   "moves with float rounding"))
claims.check("pmi-replay-beats-finetune",
             statement="Replaying PMI-started inversions of class-Gaussian features raises final average accuracy "
                       "(ACC) by at least 15 points over fine-tuning (mean over seeds)",
             paper="data-free replay by inversion beats non-replay baselines in class-incremental learning",
             criterion=at_least(0.15), measured=float(d_ft.mean()),
             control=float((acc["lwf"] - acc["finetune"]).mean()),
             control_label="LwF: distillation without synthetic data",
             tol=tolerance(abs=0.03, why="test accuracy after Adam training; about 540 test images"))
claims.check("pmi-replay-beats-random-start-replay",
             statement="At an equal budget of 50 full-model steps per synthetic sample, replay from PMI starts beats "
                       "replay from random starts by at least 3 points of ACC (mean over seeds)",
             paper="PMI improves data-free CL over inversion without it",
             criterion=at_least(0.03), measured=float((acc["inv-pmi"] - acc["inv-random"]).mean()),
             control=float((acc["inv-pmi-shuffled"] - acc["inv-random"]).mean()),
             control_label="shuffled PMI start (per-layer inversion of another class's target)",
             tol=tolerance(abs=0.03, why="test accuracy after Adam training; about 540 test images"))
claims.check("gaussian-targets-closer-features",
             statement="Inverting towards class-Gaussian feature draws gives synthetic features closer (class-wise "
                       "Frechet distance) to real ones than cross-entropy-only inversion: ratio < 1",
             paper="feature modelling aligns synthetic and real feature distributions",
             criterion=less_than(1.0), measured=float(fd["Gaussian feature targets"] / fd["cross-entropy only"]),
             control=float(fd["another class's Gaussian (control)"] / fd["cross-entropy only"]),
             control_label="targets drawn from another class's Gaussian",
             tol=tolerance(rel=0.1, why="end point of Adam inversion; Frechet distance of small samples"))
claims.check("gaussian-targets-4x-closer",
             statement="The same ratio is at most 0.25 (features at least 4 times closer)",
             paper="feature modelling aligns synthetic and real feature distributions",
             criterion=at_most(0.25), measured=float(fd["Gaussian feature targets"] / fd["cross-entropy only"]),
             control=float(fd["another class's Gaussian (control)"] / fd["cross-entropy only"]),
             control_label="targets drawn from another class's Gaussian",
             tol=tolerance(rel=0.1, why="end point of Adam inversion; Frechet distance of small samples"),
             post_hoc="threshold set after an exploratory run showed that the brief's 'smaller' (ratio < 1) "
                      "cannot separate matched from class-shuffled Gaussian targets")
wall_ratio = (wall["pmi-start"] + np.median(hits["PMI"]) * wall["PMI"]) / (np.median(hits["random"]) * wall["random"])
claims.check("pmi-init-wall-clock", statement="Wall-clock ratio, PMI start (per-layer phase + full steps) over "
             "random start, to reach the random start's 500-step loss (median sample)",
             paper="PMI is more efficient", criterion=at_most(0.5), measured=float(wall_ratio), volatile=True)

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
# **Partly reproduced, in miniature.** The numbers quoted here are from the committed ci run (seed 0, two
# training seeds). The robustness table on this page gives the ci sweep over ten notebook seeds and the
# full-scale run (seed 0). The cost claim, the gain over fine-tuning and the post-hoc feature-alignment claim
# hold at all ten ci seeds and at full scale, each against a failing control.
#
# - **The per-layer start makes inversion cheaper: reproduced.** From the PMI start, full-model inversion reached
#   each sample's 500-step random-start loss at 0.27 of the random start's cost (median over 50 samples). This
#   counts the per-layer phase, which here costs as much as 48 full-model steps. The speed-up is about 3.7×.
#   Wall-clock agrees (0.37; volatile, see the timings). The control fails clearly: a per-layer start of another
#   class's target costs as much and needs 0.88 of the random cost. So the gain comes from a start matched to the
#   target, not from the per-layer phase as such. The trivial all-zero image also gets under one half (0.47),
#   though far behind PMI. Half of the random start's handicap is its distance from the data (uniform noise in a
#   digit space that is mostly zeros).
#   Over the ten ci seeds the ratio ranges from 0.22 to 0.33, and the control's from 0.72 to 1.0.
# - **Replay of inversions beats fine-tuning: reproduced.** ACC rose from 19 % (fine-tune) to 50 % (PMI-start
#   replay), +30 points against the required +15. The control, LwF, does not help at all in this class-incremental
#   setting (−3 points): distillation alone cannot stop the head from favouring the new classes.
# - **PMI start beats random start at an equal 50-step budget: not shown, and sensitive to the seed.** At seed 0
#   the gain was +0.5 points of ACC against the required +3 (the shuffled-PMI control got −0.3), so here it is
#   not reproduced. Over the ten ci seeds of the sweep, the gain reaches 3 points at 8 seeds (median about
#   +10). But the control, a per-layer start of *another* class's target, also gains 3 points at 5 of those 8.
#   So the claim holds against a failing control at only 3 seeds, is uninformative at 5 and fails at 2. At full
#   scale (seed 0, five training seeds) both gain (+6.6 and +8.5 points): uninformative. Whatever helps is a
#   per-layer start as such, a smoother and more digit-like image than uniform noise. It is not a start matched to
#   the target. On this tiny network, 50 full-model steps already give replay samples of the right class, so a
#   better start changes the replay set little. Training seeds spread widely (about 7–8 points of ACC at full
#   scale). The large remaining forgetting (about 62–65 %, against 8–9 % for 20 real exemplars per class) comes
#   from elsewhere: the class Gaussians are frozen while the features drift, and synthetic inputs are not real
#   digits.
# - **Gaussian feature targets align synthetic with real features: shown, but the brief's criterion is
#   uninformative.** The class-wise Fréchet distance to real features is 26 with Gaussian targets, against 562
#   with cross-entropy only (ratio 0.05). The floor between two halves of the real data is 13. But targets from
#   *another* class's Gaussian also come out below cross-entropy-only inversion (ratio 0.78), so "smaller" does
#   not separate the method from its control. With a threshold set after seeing this (ratio ≤ 0.25, flagged †)
#   the claim holds and the control fails.
#
# Each notebook seed averages two (ci) or five (full) training seeds.
#
# ## What the miniature cannot show
#
# - **CLIP and the semantic projection.** The paper's most distinctive setting adds new classes to a CLIP model
#   through text-to-image feature projection. Without CLIP weights offline, nothing here tests it.
# - **Depth and scale.** Two hidden layers of a 64-128-64 MLP are easy to invert from anywhere. On a ResNet with
#   batch-norm, inversion from noise takes thousands of steps and its images drift from real ones. That is where
#   a per-layer start should matter most, and where it could change replay accuracy. We could only show the cost
#   side. The accuracy side (claim 3) is not shown here, and the miniature cannot say whether it holds at
#   scale.
# - **Feature drift and the contrastive model.** We freeze each class's Gaussian when its task ends. The paper
#   keeps the feature distribution with a contrastive model, which this page does not implement. The gap between
#   inversion replay (about 50 % ACC) and exemplar replay (about 90 %) is the part of the paper's problem we leave
#   open.
# - **Settings and baselines.** There is one class-incremental protocol on one dataset, with no task-incremental
#   or domain-incremental setting, and no comparison with the paper's data-free baselines (ABD, R-DFCIL and others).
