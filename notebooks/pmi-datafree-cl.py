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
from myst_nb import glue

from repro import continual as CL
from repro.claims import Claims, Comparator, at_least, at_most, less_than, tolerance
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
# exemplar replay (real data, not data-free) is an upper reference, never a comparator: run at full scale only,
# to keep the ci page within its time budget
METHODS = [m for m in K.METHODS if m != "exemplar" or P.scale == "full"]
_net = K.MLP(SIZES)
# the random start given as many multiply-adds as the PMI start spends (per-layer phase + INV_STEPS full steps):
# a fixed rule, computed from the cost model, not chosen from any run
MATCHED_STEPS = INV_STEPS + int(round(K.per_layer_macs(_net, PMI_STEPS) / K.full_iteration_macs(_net)))
LABELS = {"finetune": "fine-tune", "lwf": "LwF", "feature-replay": "Gaussian feature replay at the head (no inversion)",
          "inv-random": "inversion, random start", "inv-random-matched": f"inversion, random start, {MATCHED_STEPS} steps",
          "inv-pmi": "inversion, PMI start", "inv-pmi-shuffled": "inversion, shuffled PMI start (ablation)",
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
# - *Gaussian feature replay* (a naive baseline, added when the page gained comparators): LwF plus 20 draws per
#   old class from the same stored class Gaussians, replayed at the head only (their logits join the
#   cross-entropy batch). Data-free and with no inversion at all;
# - *inversion, random start*: LwF plus replay of 20 synthetic samples per old class. Each is inverted towards a
#   Gaussian feature draw from uniform random pixels (DeepInversion-style), for 50 full-model steps;
# - *inversion, random start, matched budget* (a naive baseline, added with the comparators): the same random
#   start given as many full-model steps as the PMI start's multiply-adds buy (its per-layer phase plus its 50
#   full steps; the rule is fixed, the count is computed from the cost model below);
# - *inversion, PMI start*: the same, starting from the per-layer inversion of the same feature draw
#   (50 steps per layer), then 50 full-model steps;
# - *inversion, shuffled PMI start*: the ablation. The per-layer inversion is of another class's feature draw
#   (class $k$ takes the start of class $k + C/2$). It costs the same, but the start does not match the target;
# - *exemplar replay*: LwF plus 20 stored real images per old class. This is the upper reference and is not
#   data-free; it runs at full scale only.
#
# **Inversion cost.** A separate network is trained jointly on all ten classes (`joint_steps` Adam steps).
# We draw `n_speed` feature targets per class, so 50 or 100 samples. Each target is inverted from a random start
# for 500 steps. That sets the threshold $\tau_i$ of sample $i$: the loss that the random start reaches after
# 500 steps (the brief's definition, per sample). From the PMI start, from the shuffled PMI start, from a
# zero image and from a one-shot linearised inversion (the feature extractor inverted as if it had no ReLUs, in
# one ridge solve), we count the steps until sample $i$'s loss first falls below $\tau_i$. The linearised
# start's ridge $\lambda$ is chosen by a fixed library rule that looks at no inversion: scikit-learn's `RidgeCV`
# (generalised cross-validation on the linearised regression, one $\lambda$ for all samples) over its default
# grid $\{0.1, 1, 10\}$. The page's first version used PMI's per-layer $\lambda = 10^{-3}$, which failed by
# construction (see the Verdict). Cost is counted in multiply-adds per sample, with forward plus backward taken as
# 3 forward passes. So PMI pays for its per-layer phase: the ridge start of each layer and 50 Adam steps on each
# hidden layer (the page's first version counted the Adam steps only; the correction added the ridge solves,
# which only raises PMI's cost, and makes this test post hoc). The linearised start pays for its solve and for
# the cross-validation.
#
# **Feature alignment.** On the same joint network, `fd_per_class` samples per class are inverted from random
# starts for `fd_steps` steps, in six ways: towards Gaussian feature draws; with cross-entropy only (no feature
# term); towards the class mean only (the ablation: no covariance, every sample has the same target); towards
# draws from one Gaussian fitted to all classes' features together (a naive baseline: class-agnostic feature
# moments, the analogue of DeepInversion's batch-norm statistics); towards another class's Gaussian (a
# baseline of the page's first version); and towards the class mean plus isotropic noise (a naive baseline added
# by the review: no covariance, its scale by a fixed rule, the class's average feature variance
# $\mathrm{tr}\,\Sigma_c / d$, so it has the class Gaussian's total variance). We then compute the Fréchet distance between each class's synthetic and
# real training features, averaged over classes.
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
# - **Budgets are ours.** 20 synthetic samples per class; 50 full-model inversion steps per task (the brief's
#   "equal budget of 50 steps"). The PMI start also spends its per-layer phase (each layer's ridge solve and 50
#   Adam steps), as much as {glue:text}`pl_steps_equiv:.0f` full-model steps: it is counted in the cost test, and in
#   the accuracy runs a random start given the same multiply-adds ({glue:text}`matched_steps` full-model steps)
#   matches it; full-batch training for 60 (ci) or 200 (full) Adam steps per task; distillation
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
                                       pmi_steps=PMI_STEPS, inv_steps=INV_STEPS, n_exemplars=N_EXEMPLARS,
                                       matched_steps=MATCHED_STEPS))
runs = {m: np.stack(v) for m, v in runs.items()}
summary = {m: CL.summarize_runs(runs[m]) for m in METHODS}
acc = {m: np.array([CL.average_accuracy(A) for A in runs[m]]) for m in METHODS}
print(f"{len(SEEDS)} seeds x {len(METHODS)} methods in {time.perf_counter() - t0:.1f} s")

# %%
fig, axes = plt.subplots(2, 4, figsize=(14, 7), constrained_layout=True)
for ax in axes.ravel()[len(METHODS):]:
    ax.axis("off")
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
print(f"{'method':52s} {'ACC':>14s} {'avg. incr.':>14s} {'forgetting':>14s} {'BWT':>14s}")
for m in METHODS:
    row = [f"{100 * summary[m][k][0]:6.1f} ± {100 * summary[m][k][1]:4.1f}"
           for k in ("acc", "avg_incremental", "forgetting", "bwt")]
    print(f"{LABELS[m]:52s} " + " ".join(f"{r:>14s}" for r in row))

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
# the linearised one-shot start, its ridge lambda by scikit-learn's RidgeCV over its default grid (a fixed rule);
# the first version's lambda = 1e-3 (PMI's per-layer value) is shown for its start only: it saturates the pixels
lin_alpha = K.ridge_gcv_reg(joint, target)
starts["linearised one-shot"] = K.linear_inversion(joint, target, reg=lin_alpha)
x_lin_old = K.linear_inversion(joint, target)
lin_old_saturated = float(((x_lin_old == 0) | (x_lin_old == 1)).float().mean())
lin_saturated = float(((starts["linearised one-shot"] == 0) | (starts["linearised one-shot"] == 1)).float().mean())
for name, x0 in starts.items():
    t = time.perf_counter()
    _, hist[name] = K.full_inversion(joint, x0, labels, target, P.n_ref, record=True)
    wall[name] = (time.perf_counter() - t) / P.n_ref  # seconds per full-model step
tau = hist["random"][-1]  # per sample: the loss the random start reaches after n_ref steps
it_macs, pl_macs = K.full_iteration_macs(joint), K.per_layer_macs(joint, PMI_STEPS)
extra = {"random": 0, "PMI": pl_macs, "shuffled PMI (control)": pl_macs, "zero image": 0,
         "linearised one-shot": K.linear_inversion_macs(joint, len(lab), gcv_alphas=len(K.RIDGE_ALPHAS))}
hits = {n: K.iterations_to_reach(h, tau) for n, h in hist.items()}
cost = {n: np.median(hits[n] * it_macs + extra[n]) for n in hist}  # median multiply-adds per sample
ratio = {n: float(cost[n] / cost["random"]) for n in hist}
for n in hist:
    print(f"{n:24s} median steps to reach tau: {np.median(hits[n]):6.1f}   reached: "
          f"{np.mean(np.isfinite(hits[n])):4.0%}   cost / random: {ratio[n]:.3f}")
print(f"per-layer phase = {pl_macs / it_macs:.1f} full-model steps; joint network test accuracy {joint_test_acc:.3f}")
print(f"linearised start: RidgeCV lambda = {lin_alpha:g}, pixels at 0 or 1: {lin_saturated:.0%} "
      f"(with the first version's lambda = 1e-3: {lin_old_saturated:.0%})")

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
CAP = 1.5  # a median cost that is never reached (infinite) is drawn at the cap, hatched
heights = [min(ratio[n], CAP) for n in names]
bars = axes[1].bar(range(len(names)), heights, color=["C0", "C1", "C2", "C3", "C4"])
for bar, n in zip(bars, names):
    if not np.isfinite(ratio[n]):
        bar.set_hatch("//")
        axes[1].text(bar.get_x() + bar.get_width() / 2, CAP, "not reached\n(median)", ha="center", va="bottom",
                     fontsize=7)
axes[1].set_ylim(0, CAP * 1.2)
axes[1].axhline(0.5, color="k", ls="--", lw=0.8, label="claim: at most 0.5")
axes[1].set_xticks(range(len(names)), names, rotation=15, fontsize=7)
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
mean_t = torch.as_tensor(np.stack([stats[int(c)][0] for c in lab2]), dtype=torch.float32)
pooled = K.fit_class_gaussians(real_feats, np.zeros(len(real_feats), dtype=int))
t_pool = torch.as_tensor(K.sample_class_features(pooled, [0], len(lab2), rng)[0], dtype=torch.float32)
variants = {"Gaussian feature targets": t2, "cross-entropy only": None, "class mean only (ablation)": mean_t,
            "one Gaussian, all classes": t_pool,
            "another class's Gaussian (control)": t2[torch.as_tensor(K.derange_by_class(lab2))]}
# class mean plus isotropic noise (no covariance): a fixed rule for its scale, the class's average feature variance
# tr(Sigma_c) / d, so the isotropic Gaussian has the class Gaussian's total variance; clipped at 0 like the draws
iso_sd = np.array([np.sqrt(np.trace(stats[int(c)][1]) / len(stats[int(c)][0])) for c in lab2])
iso = np.maximum(mean_t.numpy() + iso_sd[:, None] * rng.standard_normal(tuple(mean_t.shape)), 0.0)
variants["class mean + isotropic noise"] = torch.as_tensor(iso, dtype=torch.float32)
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
fig, ax = plt.subplots(figsize=(8, 3.8))
ax.bar(range(len(fd)), list(fd.values()), color=["C1", "C0", "C2", "C3", "C4", "C5"])
ax.axhline(fd_floor, color="k", ls="--", lw=0.8, label="real vs real (two halves of the training set)")
ax.set_xticks(range(len(fd)), list(fd), fontsize=7, rotation=15, ha="right")
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
TOL_ACC = tolerance(abs=0.03, why="test accuracy after Adam training; about 540 test images")
TOL_FD = tolerance(rel=0.1, why="end point of Adam inversion; Frechet distance of small samples")
gain = {m: acc[m] - acc["finetune"] for m in METHODS}            # per training seed, fraction
over_random = {m: acc[m] - acc["inv-random"] for m in METHODS}
fd_ratio = {n: float(fd[n] / fd["cross-entropy only"]) for n in fd}

claims.headline("pmi-cuts-inversion-cost",
                "Inverting the network one layer at a time gives full-model inversion a starting point from which "
                "it needs far fewer iterations",
                tests=["pmi-init-cuts-inversion-cost"])
claims.headline("gaussian-feature-alignment",
                "Class-wise Gaussian feature models (kept with a contrastive model) keep synthetic and real "
                "features aligned, so that inversion does not drift",
                untestable="the brief's measurement, the class-wise Frechet distance of synthetic to real features "
                           "against cross-entropy-only inversion, is close to true by construction for any feature "
                           "target (it measures the two moments the targets are drawn from, and cross-entropy-only "
                           "inversion has no feature term), so it is shown as the illustration "
                           "gaussian-targets-closer-features; a test of the class Gaussian against its strongest "
                           "comparator would be new, so post hoc, and none was added")
claims.headline("data-free-cl-gains",
                "Combining PMI and feature modelling, replaying inverted data lets a class-incremental learner keep "
                "its old classes without stored data, better than data-free baselines",
                tests=["pmi-replay-beats-finetune", "pmi-replay-beats-random-start-replay"])
claims.headline("clip-semantic-projection",
                "With CLIP, a semantic-aware projection of text features lets the model learn new classes from "
                "pseudo image features",
                untestable="needs CLIP weights and text encoders, which cannot be had offline; omitted (see the end "
                           "of the page)")

claims.test("pmi-init-cuts-inversion-cost",
            statement="From the per-layer (PMI) start, full-model inversion reaches the loss that a random start "
                      "reaches after 500 steps at no more than half the cost (median over samples, multiply-adds, "
                      "per-layer phase included)",
            paper="PMI initialisation significantly reduces the iterations full-model inversion needs "
                  "('3.2x' in an unverified summary)",
            criterion=at_most(0.5), measured=ratio["PMI"],
            post_hoc="its measurement changed after the page first ran: the per-layer phase's cost now counts each "
                     "layer's ridge solve as well as its Adam steps (a correction towards the brief's 'per-layer "
                     "phase included'; it can only raise PMI's cost)",
            ablation=Comparator("per-layer start of another class's target (same cost, start not matched)",
                                ratio["shuffled PMI (control)"],
                                ingredient="the per-layer inversion of the sample's own feature target"),
            baselines=[Comparator("all-zero image as the start (no cost)", ratio["zero image"]),
                       Comparator("one-shot linearised inversion: the feature extractor inverted as if it had no "
                                  "ReLUs, one ridge solve, its lambda by scikit-learn's RidgeCV over its default "
                                  "grid (0.1, 1, 10) (its cost counted)", ratio["linearised one-shot"])],
            tol=tolerance(rel=0.15, abs=0.02, why="the step at which an Adam trajectory crosses a threshold "
                                                  "moves with float rounding"))
claims.test("pmi-replay-beats-finetune",
            statement="Replaying PMI-started inversions of class-Gaussian features raises final average accuracy "
                      "(ACC) by at least 15 points over fine-tuning (mean over seeds)",
            paper="data-free replay by inversion beats non-replay baselines in class-incremental learning",
            criterion=at_least(0.15), measured=float(gain["inv-pmi"].mean()),
            ablation=Comparator("LwF: distillation without synthetic data", float(gain["lwf"].mean()),
                                ingredient="replay of synthetic inputs obtained by model inversion"),
            baselines=[Comparator("LwF plus Gaussian feature draws replayed at the head (no inversion)",
                                  float(gain["feature-replay"].mean())),
                       Comparator("inversion replay from random starts (no PMI; DeepInversion-style, same Gaussian "
                                  "targets and 50 steps)", float(gain["inv-random"].mean()))],
            tol=TOL_ACC)
claims.test("pmi-replay-beats-random-start-replay",
            statement="At an equal budget of 50 full-model steps per synthetic sample, replay from PMI starts beats "
                      "replay from random starts by at least 3 points of ACC (mean over seeds)",
            paper="PMI improves data-free CL over inversion without it",
            criterion=at_least(0.03), measured=float(over_random["inv-pmi"].mean()),
            ablation=Comparator("shuffled PMI start (per-layer inversion of another class's target)",
                                float(over_random["inv-pmi-shuffled"].mean()),
                                ingredient="a per-layer start matched to the sample's own feature target"),
            baselines=[Comparator(f"random start given the PMI start's multiply-adds ({MATCHED_STEPS} full-model "
                                  "steps)", float(over_random["inv-random-matched"].mean()))],
            tol=TOL_ACC)
claims.illustrate("gaussian-targets-closer-features",
                  statement="Inverting towards class-Gaussian feature draws gives synthetic features closer "
                            "(class-wise Frechet distance) to real ones than cross-entropy-only inversion: ratio < 1",
                  paper="feature modelling aligns synthetic and real feature distributions",
                  criterion=less_than(1.0), measured=fd_ratio["Gaussian feature targets"],
                  why="close to true by construction: the Frechet distance measures the two moments the targets "
                      "are drawn from, and cross-entropy-only inversion has no feature term; every feature target "
                      "passes it (class mean only, one Gaussian over all classes, another class's Gaussian, class "
                      "mean plus isotropic noise: see the verdict), so it cannot single out the class Gaussian",
                  tol=TOL_FD)
wall_ratio = (wall["pmi-start"] + np.median(hits["PMI"]) * wall["PMI"]) / (np.median(hits["random"]) * wall["random"])
claims.check("pmi-init-wall-clock", statement="Wall-clock ratio, PMI start (per-layer phase + full steps) over "
             "random start, to reach the random start's 500-step loss (median sample)",
             paper="PMI is more efficient", criterion=at_most(0.5), measured=float(wall_ratio), volatile=True)

glue("n_train_seeds", len(SEEDS), display=False)
glue("matched_steps", MATCHED_STEPS, display=False)
glue("pl_steps_equiv", float(pl_macs / it_macs), display=False)
for n, k in (("PMI", "pmi"), ("shuffled PMI (control)", "shuf"), ("zero image", "zero"),
             ("linearised one-shot", "lin")):
    glue(f"cost_{k}", ratio[n], display=False)
    glue(f"reached_{k}", 100 * float(np.mean(np.isfinite(hits[n]))), display=False)
glue("speedup_pmi", 1 / ratio["PMI"], display=False)
glue("lin_alpha", lin_alpha, display=False)
glue("lin_sat", 100 * lin_saturated, display=False)
glue("lin_old_sat", 100 * lin_old_saturated, display=False)
glue("wall_ratio", float(wall_ratio), display=False)
glue("joint_acc", 100 * joint_test_acc, display=False)
KEYS = {"finetune": "ft", "lwf": "lwf", "feature-replay": "feat", "inv-random": "rand",
        "inv-random-matched": "matched", "inv-pmi": "pmi", "inv-pmi-shuffled": "shuf", "exemplar": "ex"}
for m, k in KEYS.items():
    if m not in METHODS:
        continue
    glue(f"acc_{k}", 100 * float(acc[m].mean()), display=False)
    glue(f"fgt_{k}", 100 * summary[m]["forgetting"][0], display=False)
    glue(f"gain_{k}", 100 * float(gain[m].mean()), display=False)
    glue(f"over_rand_{k}", 100 * float(over_random[m].mean()), display=False)
for n, k in (("Gaussian feature targets", "gauss"), ("cross-entropy only", "ce"), ("class mean only (ablation)", "mean"),
             ("one Gaussian, all classes", "pool"), ("another class's Gaussian (control)", "other"),
             ("class mean + isotropic noise", "iso")):
    glue(f"fd_{k}", float(fd[n]), display=False)
    glue(f"fdr_{k}", fd_ratio[n], display=False)
glue("fd_floor", float(fd_floor), display=False)
glue("fd_gauss_over_iso", float(fd["Gaussian feature targets"] / fd["class mean + isotropic noise"]), display=False)

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
# ```{repro-verdict}
# ```
#
# The page has three tests. Two are pre-registered and counted: they kept the brief's measurement, setting and
# criterion and only gained comparators (when the book asked every test for its ablation and naive baselines,
# issue 33, and after the independent review). The third, `pmi-init-cuts-inversion-cost`, is post hoc (†): its
# measurement changed after the page first ran. The cost of the per-layer phase now includes each layer's ridge
# solve, which the first version left out. The correction moves towards the brief's "per-layer phase included" and
# can only raise PMI's cost, but it is a change all the same, so the test counts only once confirmed on the
# held-out seeds 10-19 (the judged table says whether it was). A fourth pre-registered check of the first version,
# `gaussian-targets-closer-features`, is now an illustration: a second independent review graded it as close to
# true by construction (below), and such a check is shown, never counted.
# A fifth test of the first version, `gaussian-targets-4x-closer`, is withdrawn: its threshold (a ratio of at
# most one quarter) was set after a run showed that the brief's criterion could not separate the method from its
# control, which is a threshold moved after seeing a run. Values below are from seed 0 at ci scale
# ({glue:text}`n_train_seeds` training seeds); the judged table gives the other seeds.
#
# * *The per-layer start makes inversion cheaper* ({repro-status}`pmi-init-cuts-inversion-cost`, post hoc). From
#   the PMI start, full-model inversion reaches each sample's 500-step random-start loss at
#   {glue:text}`cost_pmi:.2f` of the random start's cost (median over samples), a speed-up of
#   {glue:text}`speedup_pmi:.1f` times; this counts the per-layer phase, which costs as much as
#   {glue:text}`pl_steps_equiv:.0f` full-model steps. The ablation, a per-layer start of another class's target,
#   costs as much and needs {glue:text}`cost_shuf:.2f`: within PMI, the gain comes from a start matched to the
#   target. But on this network a start that costs nothing comes close to the brief's bar of one half, or meets
#   it. An all-zero image needs {glue:text}`cost_zero:.2f`: much of the random start's handicap is its
#   distance from the data (uniform noise in a digit space that is mostly zeros). A one-shot linearised inversion
#   (the feature extractor inverted as if it had no ReLUs, with the ridge $\lambda$ that `RidgeCV` picks,
#   {glue:text}`lin_alpha:g` at this seed) needs {glue:text}`cost_lin:.2f`, its cross-validated solve included. The page's
#   first version gave this baseline PMI's per-layer $\lambda = 10^{-3}$: that solve put
#   {glue:text}`lin_old_sat:.0f` % of the pixels at the box limits 0 or 1 (against {glue:text}`lin_sat:.0f` % now),
#   a start that failed by construction, so it was a strawman and is replaced. Over the ci sweep the method passes
#   at {repro-seeds}`pmi-init-cuts-inversion-cost:method:pass` seeds, the ablation at
#   {repro-seeds}`pmi-init-cuts-inversion-cost:ablation:pass`, the zero image at
#   {repro-seeds}`pmi-init-cuts-inversion-cost:baseline1:pass` (at the edge at
#   {repro-seeds}`pmi-init-cuts-inversion-cost:baseline1:edge`) and the linearised one-shot start at
#   {repro-seeds}`pmi-init-cuts-inversion-cost:baseline2:pass`. All starts share one Adam step size (the page's
#   default); a comparison at tuned step sizes was not run, and it could change the ranking of the starts. PMI's per-layer ridge start alone (no per-layer Adam steps) was not measured as a
#   start here.
# * *Inversion replay beats fine-tuning* ({repro-status}`pmi-replay-beats-finetune`). ACC rose from
#   {glue:text}`acc_ft:.1f` % (fine-tune) to {glue:text}`acc_pmi:.1f` % (PMI-start replay), a gain of
#   {glue:text}`gain_pmi:.1f` points against the required 15. The ablation, LwF (distillation without synthetic
#   inputs), gains {glue:text}`gain_lwf:.1f` points: distillation alone cannot stop the head from favouring the
#   new classes. The naive data-free baseline, replaying draws from the same class Gaussians at the head with no
#   inversion, gains {glue:text}`gain_feat:.1f` points: the stored features go stale as the feature extractor
#   drifts, and only replay through the inputs trains the extractor on the old classes. But inversion replay from
#   random starts, with no PMI (DeepInversion-style, prior work), gains {glue:text}`gain_rand:.1f` points and passes
#   too, so this test does not need PMI. Over the ci sweep the method passes at
#   {repro-seeds}`pmi-replay-beats-finetune:method:pass` seeds, the ablation at
#   {repro-seeds}`pmi-replay-beats-finetune:ablation:pass`, feature replay at
#   {repro-seeds}`pmi-replay-beats-finetune:baseline1:pass` and random-start inversion replay at
#   {repro-seeds}`pmi-replay-beats-finetune:baseline2:pass`. What carries the gain here is inverting the stored
#   feature targets, not the per-layer start.
# * *PMI start beats random start at an equal 50-step budget* ({repro-status}`pmi-replay-beats-random-start-replay`).
#   At seed 0 the gain is {glue:text}`over_rand_pmi:.1f` points of ACC against the required 3; the ablation, a
#   shuffled per-layer start, gets {glue:text}`over_rand_shuf:.1f`, and the random start given the PMI start's
#   multiply-adds ({glue:text}`matched_steps` full-model steps) gets {glue:text}`over_rand_matched:.1f`. Over the
#   ci sweep the method passes at {repro-seeds}`pmi-replay-beats-random-start-replay:method:pass` seeds (at the
#   edge at {repro-seeds}`pmi-replay-beats-random-start-replay:method:edge`), the ablation at
#   {repro-seeds}`pmi-replay-beats-random-start-replay:ablation:pass` and the matched random start at
#   {repro-seeds}`pmi-replay-beats-random-start-replay:baseline1:pass`. On this tiny network, 50 full-model steps
#   already give replay samples of the right class, so a better start changes the replay set little, and training
#   seeds spread widely.
# * *Gaussian feature targets align synthetic with real features* (`gaussian-targets-closer-features`, an
#   illustration).
#   The class-wise Fréchet distance to real features is {glue:text}`fd_gauss:.0f` with Gaussian targets, against
#   {glue:text}`fd_ce:.0f` with cross-entropy only (ratio {glue:text}`fdr_gauss:.2f`; two halves of the real data
#   are {glue:text}`fd_floor:.0f` apart). But the Fréchet distance measures exactly the two moments that the
#   targets are sampled from, while cross-entropy-only inversion has no feature term at all, so "closer than
#   cross-entropy only" is close to true by construction. Every feature target passes it: the class mean alone
#   (the ablation) gives a ratio of {glue:text}`fdr_mean:.2f`, one Gaussian over all classes
#   {glue:text}`fdr_pool:.2f`, another class's Gaussian {glue:text}`fdr_other:.2f`, and the class mean plus
#   isotropic noise {glue:text}`fdr_iso:.2f` (all at this seed). The paper's ingredient is not needed for this
#   criterion here, so the check is shown and not counted. The class Gaussian's own advantage is real at seed 0:
#   its distance is {glue:text}`fd_gauss_over_iso:.2f` of the isotropic baseline's, the strongest comparator. But the brief's
#   criterion does not measure it, and a test that did would be new, so post hoc; none was added.
#
# ## What a skeptic would try
#
# Reviewed by an independent skeptic (2026-12-07); what they tried is above. The comparators of issue 33 came
# first, from the helper that converted the page. After the review, the linearised start's $\lambda = 10^{-3}$ was
# replaced by a fixed library rule, random-start inversion replay joined the replay test's comparators, the class
# mean plus isotropic noise joined the alignment test's, and the cost test was marked post hoc. A second
# reviewer, who graded the converted page later, found the alignment check close to true by construction, so it
# is now an illustration. Numbers are this notebook's, seed 0:
#
# * **Start from a plain image, or a one-shot linearised inversion, instead of a per-layer inversion.** An
#   all-zero image reaches the random start's loss at {glue:text}`cost_zero:.2f` of its cost, and the
#   linearised start with `RidgeCV`'s $\lambda$ at {glue:text}`cost_lin:.2f`, against PMI's
#   {glue:text}`cost_pmi:.2f`; the uniform-noise random start is a weak reference on digits. Within 500 steps,
#   {glue:text}`reached_lin:.0f` % of the linearised start's samples reach the bar ({glue:text}`reached_pmi:.0f` %
#   for PMI, {glue:text}`reached_zero:.0f` % for the zero image).
# * **Check the strawman.** With PMI's per-layer $\lambda = 10^{-3}$, the linearised solve ignores the ReLUs and
#   saturates {glue:text}`lin_old_sat:.0f` % of the pixels; that version failed by construction and is no longer
#   a comparator.
# * **Count every multiply-add of the per-layer phase.** The first version counted only the per-layer Adam steps;
#   with the ridge solves the phase costs {glue:text}`pl_steps_equiv:.0f` full-model steps, and PMI's ratio is
#   {glue:text}`cost_pmi:.2f`. Wall-clock agrees in direction ({glue:text}`wall_ratio:.2f`; volatile, see the
#   timings).
# * **Replay inversions from random starts, without PMI.** ACC {glue:text}`acc_rand:.1f` %, a gain of
#   {glue:text}`gain_rand:.1f` points over fine-tuning, against {glue:text}`gain_pmi:.1f` from PMI starts.
# * **Spend PMI's budget on more full-model steps from random starts** ({glue:text}`matched_steps` steps): replay
#   ACC {glue:text}`acc_matched:.1f` %, against {glue:text}`acc_rand:.1f` % at 50 steps and
#   {glue:text}`acc_pmi:.1f` % from PMI starts.
# * **Skip inversion: replay the Gaussian features at the head.** ACC {glue:text}`acc_feat:.1f` %, against LwF's
#   {glue:text}`acc_lwf:.1f` % and fine-tuning's {glue:text}`acc_ft:.1f` %: not enough, so inversion earns its
#   place in this miniature.
# * **Match the class mean, class-agnostic moments, or the class mean plus isotropic noise instead of the class
#   Gaussian.** Fréchet distances {glue:text}`fd_mean:.0f`, {glue:text}`fd_pool:.0f` and {glue:text}`fd_iso:.0f`,
#   against {glue:text}`fd_gauss:.0f` for class-Gaussian draws and {glue:text}`fd_ce:.0f` for cross-entropy only:
#   all pass the brief's "smaller than cross-entropy only".
# * **Not run on this page** (the reviewer's extra runs, outside the notebook, so no numbers here): a zero or
#   random start at a larger Adam step; PMI's ridge start without its per-layer Adam steps; and inversion replay
#   with cross-entropy only (no Gaussian targets), which would isolate the feature targets as the ingredient that
#   carries the replay gain.
# * **Withdrawn**: the post-hoc test `gaussian-targets-4x-closer` (threshold chosen after a run so that the
#   control failed).
#
# ## What the miniature cannot show
#
# - **CLIP and the semantic projection.** The paper's most distinctive setting adds new classes to a CLIP model
#   through text-to-image feature projection. Without CLIP weights offline, nothing here tests it.
# - **Depth and scale.** Two hidden layers of a 64-128-64 MLP are easy to invert from anywhere. On a ResNet with
#   batch-norm, inversion from noise takes thousands of steps and its images drift from real ones. That is where
#   a per-layer start should matter most, and where it could change replay accuracy. We could only show the cost
#   side, and there a start that costs nothing (a zero image) comes close to the same bar on this network.
# - **Feature drift and the contrastive model.** We freeze each class's Gaussian when its task ends. The paper
#   keeps the feature distribution with a contrastive model, which this page does not implement. The gap between
#   inversion replay and exemplar replay (full scale) is the part of the paper's problem we leave open.
# - **Settings and baselines.** There is one class-incremental protocol on one dataset, with no task-incremental
#   or domain-incremental setting, and no comparison with the paper's data-free baselines (ABD, R-DFCIL and others).
