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
# # Bisecle: binding and separation for continual video question answering
#
# *When a frozen video-language model is adapted to one question type after another through a small
# adapter, extra supervision in three directions (answer, question, video) and a contrastive loss that
# ties prompts to question types are said to cut forgetting well below plain adapter tuning and
# prompt-pool methods such as L2P.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from dataclasses import replace

from IPython.display import Markdown, display
from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, tolerance
from repro.continual import average_accuracy, forgetting, plot_accuracy_matrix
from repro.papers import bisecle_video_continual as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 10 s of training on one quiet thread: 3 seeds x 25 models, 40 AdamW steps per task
    "ci": dict(n_seeds=3, n_train=200, n_test=100, steps=40),
    # minutes: 5 seeds, 2.5x the data, 250 steps per task
    "full": dict(n_seeds=5, n_train=500, n_test=250, steps=250),
})
claims = Claims(
    "bisecle-video-continual",
    title="Bisecle: Binding and Separation in Continual Learning for Video Language Understanding",
    authors="Yue Tan, Xiaoqian Hu, Hao Xue, Celso M. de Melo, Flora D. Salim",
    paper_url="https://arxiv.org/abs/2507.00469",
    scale=scale, seed=seed,
)
# fixed before the first run: the methods, the model sizes (K.Config defaults, official values where the
# code has them) and the claims' thresholds (from the brief)
CFG = K.with_steps(K.Config(), P.steps)
MAIN = ["adapter", "lq-only", "lv-only", "lp-only", "lq+lv", "lv+lp", "lq+lp", "bisecle", "lq-shuffled"]
# added when the page gained its comparators (issue 32): the naive baselines, trained in the same call
# (K.Config: replay buffer of 20 samples per finished task, 16 of them joined to each batch; EWC's penalty
# 2000, the best final ACC of the grid 1e2, 1e3, 2e3, 3e3, 5e3, 1e4, ..., 1e7 over the design seeds 0-9)
BASE = ["l2p", "replay", "ewc"]
# the official configuration (a second setting of every test): the question's share of q-bar (94 of 102
# tokens), L_P weighted per sample by 1 / (training questions of its type), the per-task warm-up and cosine
# schedule, and the official learning rate (base 0.09 x batch / 256)
CFG_OFF = replace(CFG, q_tokens=94, schedule="warmup-cosine", lr=0.09 * CFG.batch / 256)
OFFICIAL = ["adapter", "lp-only", "lv+lp", "lq+lv", "bisecle", "l2p", "replay", "ewc"]
LABEL = {"adapter": "adapter (sequential FT)", "l2p": "L2P-style pool", "bisecle": "Bisecle (L_Q+L_V+L_P)",
         "lq-only": "L_Q only", "lv-only": "L_V only", "lp-only": "L_P only", "lq+lv": "L_Q+L_V",
         "lv+lp": "L_V+L_P", "lq+lp": "L_Q+L_P", "lq-shuffled": "L_Q, shuffled targets (null)",
         "replay": "fine-tuning + replay buffer", "ewc": "fine-tuning + EWC", "probe": "linear probe per task",
         "centroid": "nearest task centroid (MiniLM)"}

# %% [markdown]
# ## The claim
#
# Video question answering (VideoQA) with a large vision-language model is usually adapted by training a
# few parameters (an adapter, prompts) on top of a frozen LLM. If the question types arrive one after the
# other (NExT-QA's eight types: temporal, causal, descriptive, ...), this parameter-efficient training
# forgets the earlier types. Bisecle (Tan et al., NeurIPS 2025) borrows two ideas from the hippocampus:
#
# * **binding**: besides the answer given video and question, the model is also trained to predict the
#   question from video and answer ($\mathcal L_Q$) and the video from question and answer
#   ($\mathcal L_V$), so that the adapter ties all three modalities of one episode together;
# * **separation**: a contrastive loss ($\mathcal L_P$) makes the query-weighted prompt of a sample close to
#   a learned embedding of its own question type and far from those of earlier types, so that different
#   tasks are stored in different prompt directions.
#
# The paper reports (Table 1, LLaMA-Adapter backbone) final accuracy and forgetting on NExT-QA of
# 62.37 / 5.34 for Bisecle against 46.58 / 13.83 for the plain adapter and 48.82 / 12.25 for L2P, and
# the same ordering on DramaQA and STAR. Its ablation (Table 2) credits most of the gain to the question
# loss $\mathcal L_Q$. What we test is the relative pattern, in a miniature: forgetting at most half the
# plain adapter's, accuracy not below L2P's, and prompts that identify the task at test time.
#
# ## The method
#
# The official model (read at commit 99396f5) inserts projected video features
# $\bar v_t = W_v x_t + e^{\mathrm{time}}_t$ into the token sequence of a frozen LLaMA, with ten trainable
# prompt rows $P\in\mathbb R^{L\times D}$ per adapted layer behind a zero-initialised gate. Per training
# sample $(V, Q, A)$ it adds
#
# $$\mathcal L = \underbrace{-\log p(A\mid V,Q)}_{\mathcal L_A} \;\underbrace{-\log p(Q\mid V,A)}_{\mathcal L_Q}
#   \;+\;\mathcal L_V \;+\; 0.1\,\mathcal L_P ,$$
#
# where $\mathcal L_V$ scores the LLM's output at each video position against the projected frames of the
# same video (cross-entropy, the true frame as label), and, with $\bar q$ the mean of the input token
# embeddings, $\alpha=\mathrm{softmax}(P\bar q)$, $p=\alpha^\top P$,
#
# $$\mathcal L_P = -\frac1B\sum_b \log\frac{e^{p_b\cdot e^+_b/\kappa}}{\sum_{b'}e^{p_b\cdot e^+_{b'}/\kappa}
#   + \sum_{b',n} e^{p_b\cdot e^-_{b'n}/\kappa}},\qquad \kappa = 0.1,$$
#
# with $e^+$ the embedding of the sample's question type and $e^-$ those of the types trained before.
#
# **Our miniature** (kernels in `src/repro/papers/bisecle_video_continual.py`) keeps this structure at
# width $D=32$: trainable $W_v$, temporal embeddings, prompt rows $P$ with gate $\tanh(g)$, type
# embeddings $E$; a *frozen* two-layer ReLU network stands in for the LLM; question and answer tokens are
# frozen random projections of frozen **MiniLM** sentence embeddings (`repro.textenc`, cached in
# `bisecle_video_continual.minilm.npz`). $\mathcal L_A$ scores the four answers of the question's type,
# $\mathcal L_Q$ scores all 40 question texts, $\mathcal L_V$ predicts each frame from the previous token,
# and $\mathcal L_P$ is the official function (checked against it, below). The prompt enters the frozen
# network as the gated query-weighted prompt $\tanh(g)\,p$.
#
# **Comparators, same stream, same frozen parts, same measurement.**
#
# * *Ablations* (the paper's Table 2): Bisecle without one or two of its losses. Each test names the
#   ingredient it is about and takes as its ablation Bisecle without it: forgetting, the binding losses
#   ($\mathcal L_P$ only); accuracy, the question loss that the paper's ablation credits most
#   ($\mathcal L_V+\mathcal L_P$); prompt selection, the contrastive loss ($\mathcal L_Q+\mathcal L_V$).
# * *Plain adapter*: sequential fine-tuning with $\mathcal L_A$ only (the paper's LLaMA-Adapter row).
# * *L2P-style pool* (Wang et al., 2022): the prompt whose key is nearest in cosine to the frozen question
#   token is used, keys pulled towards their queries.
# * *Fine-tuning with a small replay buffer* (experience replay): the adapter trained with $\mathcal L_A$ on each
#   batch of 32 current-task samples joined by 16 samples drawn from a buffer that keeps 20 random training
#   samples of every finished task (10% of a task's data at ci scale).
# * *Fine-tuning with EWC* (online elastic weight consolidation, Kirkpatrick et al., 2017): $\mathcal L_A$ plus
#   $\frac\lambda2\sum_i F_i(\theta_i-\theta_i^*)^2$, with $F$ the summed mean squared mini-batch gradient of
#   $\mathcal L_A$ on each finished task (8 batches) and $\theta^*$ the parameters after the last one;
#   $\lambda = 2000$, the best final accuracy of a grid from $10^2$ to $10^7$ on the design seeds 0-9 (a
#   tuned baseline).
# * *A linear probe per task on frozen features*: a ridge classifier (least squares on the one-hot answers,
#   penalty 1, scikit-learn's default, not tuned) on the standardised mean frame and ramp-weighted mean frame of
#   the raw video, fitted on one task's training data
#   and never touched again; the question's type picks the probe (the question names its type, as it
#   names the four answer options). It forgets nothing by construction.
# * For prompt selection: L2P's own key matching (each key stands for the task whose training questions
#   chose it most often), and a *nearest task centroid* of the frozen MiniLM question embeddings (no
#   training at all).
# * Shown, not comparators: *joint training* on all tasks mixed (the upper bound) and a null model,
#   $\mathcal L_Q$ towards a fixed random relabelling of the questions (the same extra loss, nothing to bind).
#
# ## The experiment
#
# * **Stream.** Synthetic "videos" of 8 frame vectors (32 dimensions) made from four latent attributes:
#   colour, shape and size are static patterns, the direction of motion shows only in how frames change,
#   plus noise. Four tasks in a fixed order, one question type each: *what colour is the <shape>?*,
#   *what shape is the <colour> object?*, *which way does the <colour> <shape> move?*, *how big is the
#   <colour> <shape>?* (40 question texts, 16 answer texts). Each task is 4-way multiple choice.
# * **Training.** One AdamW optimiser for the whole stream (official betas 0.9/0.95, weight decay 0.14),
#   learning rate 0.01, batches of 32 from the current task only; 40 steps per task at ci scale, 250 at
#   full (joint training: 4 times as many steps on the mixed tasks). All methods and seeds are trained side
#   by side as a batch of independent models; the frozen backbone of a seed is shared by all methods.
# * **The official configuration** (a second setting of every test, added when the page gained its
#   comparators): the question counts for 94 of the 102 tokens of $\bar q$ (the official share: 10 video
#   features in a 128-token sequence), $\mathcal L_P$ is weighted per sample by one over the number of training
#   questions of its type (what the official loader does, since it reads one file per type), the learning rate
#   warms up over the first 2 of 5 "epochs" of each task and then follows a half cosine to zero (the official
#   schedule, restarted with each task), and the learning rate is $0.09\times32/256$.
# * **Measured** (`repro.continual`): accuracy matrix $A_{ij}$ (after task $i$, on task $j$), final average
#   accuracy ACC, forgetting (each old task's drop from its best accuracy, the official definition);
#   prompt-selection accuracy: the share of test questions of the tasks seen so far whose query-weighted
#   prompt is closest to their own type embedding (no task id at test time). Mean and standard deviation
#   over seeds (3 at ci, 5 at full; each seed draws its own attribute patterns, data and initialisation).
#
# **Tests, thresholds from the brief and fixed before the first run of this notebook** (we ran the
# kernels once at these sizes to time them before writing it). When the book asked every counted test for its
# ablation and its naive baselines (issue 32), the three kept their method, setting and criterion and gained
# comparators under the same measurement; their old single controls became comparators too (the L2P ratio a
# baseline of the first, the plain adapter a baseline of the second, $\mathcal L_Q+\mathcal L_V$ the ablation
# of the third).
#
# 1. *Forgetting halved* (`forgetting-halved`): forgetting(learner) / forgetting(adapter) $\le 0.5$ (paper,
#    NExT-QA: 0.39). Ablation: $\mathcal L_P$ only (paper: 0.65); baselines: the L2P-style pool (paper: 0.89),
#    replay, EWC, the per-task probe.
# 2. *Not below L2P* (`acc-not-below-l2p`): ACC(learner) $-$ ACC(L2P) $\ge -1$ point (paper: $+13.6$).
#    Ablation: $\mathcal L_V+\mathcal L_P$ (paper: $+3.1$); baselines: the plain adapter (paper: $-2.2$),
#    replay, EWC, the per-task probe.
# 3. *Prompts separate the tasks* (`prompt-selection`): prompt-selection accuracy after the last task
#    $\ge 90\%$. Ablation: $\mathcal L_Q+\mathcal L_V$; baselines: L2P's key matching, the nearest task centroid.
#
# **Added when the page gained its comparators, post hoc** (counted only once confirmed on seeds 10-19): the
# same three tests in the official configuration (`forgetting-halved-official`, `acc-not-below-l2p-official`,
# `prompt-selection-official`), every learner retrained in it; the probe and the centroid do not depend on it.
#
# **Deviations from the paper**
#
# * Data: synthetic attribute videos and template questions instead of NExT-QA, DramaQA and STAR videos;
#   4 question types instead of 8 (NExT-QA); multiple choice among 4 answers instead of 5.
# * Model: a random frozen two-layer ReLU network of width 32 stands in for LLaMA-7B; video features are
#   our synthetic frames, not CLIP features; MiniLM embeddings projected by a frozen random matrix stand in
#   for LLaMA's token embeddings; answers and questions are single tokens, so $\mathcal L_A$ and
#   $\mathcal L_Q$ are one softmax each rather than token-by-token language-model losses.
# * Prompts: one set of 10 prompt rows feeding the network input as a gated, query-weighted sum, instead
#   of 10 prompt rows attended in each of 32 adapted layers.
# * In the pre-registered setting $\bar q$ is the mean of the video tokens and the one question token, the
#   per-sample type weights are off and the learning rate is constant; the official values of all three are
#   run as the second setting.
# * $\mathcal L_V$ scores against all 8 frames with temperature 1 at width 32 (official $\tau=100$ at width
#   4096); step counts are ours; weight decay applies to every trainable tensor (official: not to biases,
#   norms and the gate).
# * L2P is our minimal version (one prompt chosen per sample, no prompt-length sweep); DualPrompt, LAE,
#   DAM, ProgPrompt and ColPro are not run. Replay, EWC and the probe are not in the paper's tables: they are
#   the naive baselines a skeptic would try.
# * The official code never selects prompts at test time; prompt-selection accuracy is our read-out of the
#   separation $\mathcal L_P$ trains for, and for L2P the accuracy of its key matching.
# * Scale: 200 training and 100 test questions per task and 3 seeds at ci scale (500/250 and 5 at full).

# %%
q_emb, a_emb = K.text_embeddings()  # MiniLM, from the committed cache
seeds = [seed * P.n_seeds + i for i in range(P.n_seeds)]
stream = K.make_stream(seeds, P.n_train, P.n_test, q_emb, a_emb)
TRAINED = MAIN + BASE
JOINT = ["adapter", "lq+lv", "bisecle"]
DIAG = ["lq+lv", "bisecle"]
# official q-bar: 10 video features in a 128-token sequence; our 8 video tokens keep that share when the
# question counts as 8 * 118 / 10 = 94 tokens
CFG_Q = replace(CFG, q_tokens=94)
jobs = {
    "main": lambda: K.continual_train(stream, TRAINED, CFG, init_seed=seed),
    "official": lambda: K.continual_train(stream, OFFICIAL, CFG_OFF, init_seed=seed, type_weight=1.0 / P.n_train),
    "joint": lambda: K.continual_train(stream, JOINT, CFG, init_seed=seed, joint=True),
    # post-hoc diagnostic (added after the first run): the question weighted in q-bar as in the official code,
    # all types mixed in each batch (in the stream, the official configuration's run above has the same q-bar)
    "joint-q94": lambda: K.continual_train(stream, DIAG, CFG_Q, init_seed=seed, joint=True),
}
runs = {name: job() for name, job in progress(jobs.items(), total=len(jobs), desc="training")}

acc = {m: runs["main"]["acc"][i] for i, m in enumerate(TRAINED)}  # (S, 4, 4) per method
acc["probe"] = K.per_task_probe(stream)
sel = {m: runs["main"]["selection"][i] for i, m in enumerate(TRAINED)}  # (S, 4)
acc_off = {m: runs["official"]["acc"][i] for i, m in enumerate(OFFICIAL)}
sel_off = {m: runs["official"]["selection"][i] for i, m in enumerate(OFFICIAL)}
joint = {m: runs["joint"]["acc"][i, :, 0].mean(-1) for i, m in enumerate(JOINT)}  # (S,)
# the naive task selector: nearest centroid of the frozen MiniLM question embeddings, per seed
sel_centroid = np.array([K.nearest_centroid_task_accuracy(q_emb[stream.train["q"][s]], stream.train["task"][s],
                                                          q_emb[stream.test["q"][s]], stream.test["task"][s])
                         for s in range(len(seeds))])
METHODS = ["adapter", "l2p", "replay", "ewc", "probe"] + MAIN[1:]
ACC = {m: np.array([average_accuracy(A) for A in acc[m]]) for m in METHODS}
FGT = {m: np.array([forgetting(A) for A in acc[m]]) for m in METHODS}
ACC_OFF = {m: np.array([average_accuracy(A) for A in acc_off[m]]) for m in OFFICIAL}
FGT_OFF = {m: np.array([forgetting(A) for A in acc_off[m]]) for m in OFFICIAL}
for m in ("probe",):  # the probe does not depend on the configuration
    ACC_OFF[m], FGT_OFF[m] = ACC[m], FGT[m]
for m in METHODS:
    print(f"{LABEL[m]:30s} ACC {100 * ACC[m].mean():5.1f} ± {100 * ACC[m].std():4.1f}   "
          f"forgetting {100 * FGT[m].mean():5.1f} ± {100 * FGT[m].std():4.1f}")
for m in joint:
    print(f"joint training, {LABEL[m]:15s} ACC {100 * joint[m].mean():5.1f} ± {100 * joint[m].std():4.1f}")

# %% [markdown]
# ## Results
#
# Each panel follows one learner through the stream: the accuracy on each task (one line per task) after
# each training stage, mean over seeds with error bars of one standard deviation.

# %%
TASK_NAMES = [t.capitalize() for t in K.TASKS]
colors = plt.cm.viridis(np.linspace(0, 0.9, 4))
PANELS = [m for m in METHODS if m != "probe"]  # the probe's matrix is all but flat: see the table below
fig, axes = plt.subplots(3, 4, figsize=(11, 6.6), sharex=True, sharey=True)
for ax, m in zip(axes.flat, PANELS):
    A = 100 * acc[m]
    for j in range(4):
        x = np.arange(j, 4) + 1
        mu, sd = np.nanmean(A[:, j:, j], 0), np.nanstd(A[:, j:, j], 0)
        ax.errorbar(x, mu, yerr=sd, fmt="o-", ms=4, capsize=2, color=colors[j], label=f"task {j + 1}: {TASK_NAMES[j]}")
    ax.axhline(25, color="grey", ls=":", lw=1)
    ax.set_title(LABEL[m], fontsize=9)
for ax in axes[-1]:
    ax.set_xlabel("tasks trained")
for ax in axes[:, 0]:
    ax.set_ylabel("test accuracy (%)")
axes[0, 0].legend(fontsize=6, loc="lower left")
axes[0, 0].set_xticks([1, 2, 3, 4])
fig.suptitle(f"Accuracy on each task through the stream ({len(seeds)} seeds, bars: ±1 sd; dotted: chance)")
fig.set_dpi(60)  # twelve panels: a lighter image keeps the page under 1 MB
plt.show()

# %% [markdown]
# Final accuracy against forgetting, ours on the left (mean ± sd over seeds; the dashed lines mark
# joint training, the upper bound), the paper's NExT-QA numbers on the right (Tables 1 and 2).
# A good learner sits at the top left. The plain adapter ends at an ACC of {glue:text}`acc_adapter:.1f` %
# with {glue:text}`fgt_adapter:.1f` points of forgetting, Bisecle at {glue:text}`acc_bisecle:.1f` % and
# {glue:text}`fgt_bisecle:.1f` points, the L2P-style pool at {glue:text}`acc_l2p:.1f` % and
# {glue:text}`fgt_l2p:.1f` points; replay reaches {glue:text}`acc_replay:.1f` % and the per-task probe
# {glue:text}`acc_probe:.1f` % (seed 0, mean over its seeds).

# %%
PAPER = {  # NExT-QA: (ACC %, forgetting %), Tables 1 and 2 of the paper
    "adapter": (46.58, 13.83), "l2p": (48.82, 12.25), "bisecle": (62.37, 5.34), "lq-only": (61.13, 6.63),
    "lv-only": (53.94, 9.61), "lp-only": (55.82, 8.93), "lq+lv": (59.78, 6.58), "lv+lp": (51.95, 11.73),
    "lq+lp": (61.38, 7.20),
}
mcol = dict(zip(METHODS, plt.cm.tab20(np.linspace(0, 1, len(METHODS)))))
fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.2))
for m in METHODS:
    a1.errorbar(100 * FGT[m].mean(), 100 * ACC[m].mean(), xerr=100 * FGT[m].std(), yerr=100 * ACC[m].std(),
                fmt="o" if m in PAPER else "D", color=mcol[m], label=LABEL[m], capsize=3)
    if m in PAPER:
        a2.plot(PAPER[m][1], PAPER[m][0], "s", color=mcol[m], label=LABEL[m])
for m, ls in (("adapter", "--"), ("lq+lv", ":"), ("bisecle", "-.")):
    a1.axhline(100 * joint[m].mean(), color=mcol[m], ls=ls, lw=1, label=f"joint training, {LABEL[m]}")
a1.set_xlabel("forgetting (percentage points)")
a1.set_ylabel("final average accuracy ACC (%)")
a1.set_title("miniature (synthetic video QA, 4 tasks; diamonds: naive baselines)", fontsize=9)
a1.legend(fontsize=6, ncol=2)
a2.set_xlabel("forgetting (percentage points)")
a2.set_ylabel("final average accuracy (%)")
a2.set_title("paper, NExT-QA (8 tasks, LLaMA-Adapter)", fontsize=9)
a2.legend(fontsize=7)
fig.set_dpi(72)
plt.show()

# %% [markdown]
# Prompt selection without a task id: after $k$ tasks, the share of the seen tasks' test questions whose
# query-weighted prompt is closest to their own type embedding (for L2P: whose chosen key stands for their
# own type). Chance is $1/k$; a model that sends every question to the same type also scores $1/k$.

# %%
fig, ax = plt.subplots(figsize=(7, 4.5))
k = np.arange(1, 5)
for m in ["bisecle", "lp-only", "lq+lp", "lv+lp", "lq+lv", "adapter", "l2p"]:
    s = 100 * sel[m]
    ax.errorbar(k, s.mean(0), yerr=s.std(0), fmt="o-", capsize=3, color=mcol[m], label=LABEL[m])
ax.plot(k, 100 / k, "k:", lw=2, zorder=5, label="chance, 1/k")
ax.plot([4], [100 * sel_centroid.mean()], "k*", ms=12, label=LABEL["centroid"] + ", 4 tasks")
ax.axhline(90, color="red", ls="--", lw=1, label="test threshold (90%)")
ax.set_xticks(k)
ax.set_xlabel("tasks trained, k")
ax.set_ylabel("prompt-selection accuracy (%)")
ax.set_ylim(0, 105)
ax.legend(fontsize=7)
fig.set_dpi(72)
plt.show()

# %% [markdown]
# **Post-hoc diagnostic (added after the first run; not a test).** Why do the prompts not separate the
# tasks? Two candidates: our $\bar q$ is dominated by the video tokens, which do not depend on the task,
# whereas the official $\bar q$ averages a 128-token sequence in which only 10 tokens are video; and in a
# stream each batch holds one type only. We rerun the question-weighted variant ($\bar q$ with the
# question counted as 94 tokens, the official share) with all types mixed (joint training), beside the
# pre-registered setting; in the stream, the official configuration has the same $\bar q$ (and, besides, the
# official type weights and schedule). With the question weighted as officially and all types mixed in each
# batch, Bisecle's prompts identify {glue:text}`diag_mixed_q94:.0f` % of the test questions; in the stream, in
# the official configuration, {glue:text}`diag_stream_q94:.0f` %.

# %%
diag = {("ours", "stream"): runs["main"]["selection"][[TRAINED.index(m) for m in DIAG], :, -1],
        ("ours", "mixed"): runs["joint"]["selection"][[JOINT.index(m) for m in DIAG], :, 0],
        ("official config.", "stream"): runs["official"]["selection"][[OFFICIAL.index(m) for m in DIAG], :, -1],
        ("official share", "mixed"): runs["joint-q94"]["selection"][:, :, 0]}
fig, ax = plt.subplots(figsize=(8, 4.5))
width = 0.38
for i, m in enumerate(DIAG):
    vals = [100 * v[i] for v in diag.values()]
    ax.bar(np.arange(4) + (i - 0.5) * width, [v.mean() for v in vals], width, yerr=[v.std() for v in vals],
           capsize=3, color=mcol[m], label=LABEL[m])
ax.axhline(25, color="k", ls=":", lw=1.5, label="chance over 4 types")
ax.axhline(90, color="red", ls="--", lw=1, label="test threshold")
ax.set_xticks(np.arange(4), [f"q-bar: {a}\n{b} batches" for a, b in diag])
ax.set_ylabel("prompt-selection accuracy, 4 types (%)")
ax.set_ylim(0, 105)
ax.legend(fontsize=8, loc="upper left")
fig.set_dpi(72)
plt.show()
glue("diag_mixed_q94", float(100 * diag[("official share", "mixed")][1].mean()), display=False)
glue("diag_stream_q94", float(100 * diag[("official config.", "stream")][1].mean()), display=False)

# %%
fig, axes = plt.subplots(1, 4, figsize=(13, 3.4))
for ax, m in zip(axes, ["adapter", "l2p", "replay", "bisecle"]):
    plot_accuracy_matrix(ax, acc[m].mean(0), title=f"{LABEL[m]} (mean of {len(seeds)} seeds)")
fig.set_dpi(72)
plt.show()

# %% [markdown]
# ### The paper's numbers beside ours
#
# ACC and forgetting in %; ours: mean ± sd over seeds at this scale, in the pre-registered and in the
# official configuration.

# %%
rows = ["| setting | paper NExT-QA ACC | paper NExT-QA forgetting | ours ACC | ours forgetting "
        "| ours ACC, official config. | ours forgetting, official config. |", "|---|---|---|---|---|---|---|"]
for m in METHODS:
    pa, pf = PAPER.get(m, ("–", "–"))
    off = (f"{100 * ACC_OFF[m].mean():.1f} ± {100 * ACC_OFF[m].std():.1f} | "
           f"{100 * FGT_OFF[m].mean():.1f} ± {100 * FGT_OFF[m].std():.1f}") if m in ACC_OFF else "– | –"
    rows.append(f"| {LABEL[m]} | {pa} | {pf} | {100 * ACC[m].mean():.1f} ± {100 * ACC[m].std():.1f} | "
                f"{100 * FGT[m].mean():.1f} ± {100 * FGT[m].std():.1f} | {off} |")
for m in joint:
    rows.append(f"| joint training, {LABEL[m]} | – | – | {100 * joint[m].mean():.1f} ± {100 * joint[m].std():.1f} "
                "| – | – | – |")
display(Markdown("\n".join(rows)))

# %% [markdown]
# ## Against the official code
#
# The paper's code: [cruiseresearchgroup/Bisecle](https://github.com/cruiseresearchgroup/Bisecle)
# (commit 99396f5b997b82371dd1bc5503ebf7caaf0ef59e).
#
# * **What agrees, checked.** The contrastive prompt loss `Transformer.compute_tqcp_loss` of
#   `llama/model.py` was run outside the project on seeded inputs (golden file
#   `tests/papers/golden/bisecle-video-continual.json`): 2.489789 with two negative types, 1.098612
#   ($=\log 3$) on a first task without negatives, 3.199298 with per-sample type weights. Our `K.tqcp_loss`
#   gives the same three values within $10^{-6}$ (test `test_tqcp_loss_matches_the_official_code`).
# * **What agrees, read.** The total loss $\mathcal L_A+\mathcal L_Q+\mathcal L_V+0.1\,\mathcal L_P$
#   (`engine.train_one_epoch`), $\kappa = 0.1$, negatives = all earlier types (`_get_negative_qtypes`, at most
#   7 of them), one AdamW optimiser kept across tasks with betas (0.9, 0.95) and weight decay 0.14, the
#   zero-initialised gate, 10 prompt rows, the accuracy matrix and the forgetting formula of `train_nextQA.py`.
# * **Departures run as the official configuration** (the second setting of every test, above): the question's
#   share of $\bar q$; the per-sample type weight, which the loader computes as (number of types in the file) /
#   (count of the sample's type) and, reading one file per type, makes $1/n_{\text{type}}$, so that the
#   effective weight of $\mathcal L_P$ is $0.1/n_{\text{type}}$ (with NExT-QA's thousands of questions per type,
#   far below $10^{-3}$); the learning-rate schedule (`util/lr_sched.adjust_learning_rate`: 2 warm-up epochs
#   from zero, then a half cosine to zero at epoch 5; the epoch counter restarts with every type, so the
#   schedule restarts with every task); the learning rate $0.09\times32/256$. Our pre-registered setting has
#   none of these: type weights off, a constant rate of 0.01, $\bar q$ over the video tokens and one question
#   token.
# * **Departures named, not run**: the frozen network, single-token texts, one layer of prompts used as a
#   query-weighted sum (their effect cannot be isolated in a miniature); the temperature of $\mathcal L_V$
#   (official 100 for LLaMA's width 4096; a scale convention with no counterpart at width 32); weight decay on
#   the gate (official: none for one-dimensional parameters); steps per task (ours: 40 batches of 32 over 200
#   questions, about 6 passes; official: 5 epochs). The official code never selects prompts at test time
#   (every row is attended in every layer); the prompt-selection accuracy is our read-out of the separation that
#   $\mathcal L_P$ trains for.
# * **Two properties of the official code we noticed.** Within one batch of one task every positive column
#   $e^+_{b'}$ of $\mathcal L_P$ is the same vector, so the loss cannot tell samples apart: it is at least
#   $\log B$ and its gradient moves every sample's weighted prompt towards the current type, old tasks'
#   questions included. And the README's example commands (`train_nextQA.py --batch_size 32 --adapter_layer
#   32 --tqcp_weight 0.1 --weight_decay 0.14`) do not pass `--vaq` or `--qav`, which default to off, so as
#   written they train $\mathcal L_A + 0.1\,\mathcal L_P$ only; we follow the paper, which reports all three
#   losses.

# %% [markdown]
# ## Checking the tests
#
# Each test's measured value for Bisecle (red), its ablation (orange) and the naive baselines (blue), in the
# pre-registered configuration (solid) and in the official one (pale); the dashed line is the threshold,
# the grey band the declared tolerance around it (a value inside it is "at the edge"). Values are means over
# the seeds of this run, as the tests record them.

# %%
def ratio(F, m):
    """Forgetting of learner m over the plain adapter's, ratio of the means over seeds."""
    return float(F[m].mean() / F["adapter"].mean())


def gap(A, m):
    """Final ACC of learner m minus the L2P-style pool's, points."""
    return float(100 * (A[m].mean() - A["l2p"].mean()))


sel_last = {m: float(v[:, -1].mean()) for m, v in sel.items()}
sel_last_off = {m: float(v[:, -1].mean()) for m, v in sel_off.items()}
sel_last["centroid"] = sel_last_off["centroid"] = float(sel_centroid.mean())
WHO = {  # test -> (method, ablation, baselines)
    "forgetting-halved": ("bisecle", "lp-only", ["l2p", "replay", "ewc", "probe"]),
    "acc-not-below-l2p": ("bisecle", "lv+lp", ["adapter", "replay", "ewc", "probe"]),
    "prompt-selection": ("bisecle", "lq+lv", ["l2p", "centroid"]),
}
MEASURE = {"forgetting-halved": (lambda m: ratio(FGT, m), lambda m: ratio(FGT_OFF, m)),
           "acc-not-below-l2p": (lambda m: gap(ACC, m), lambda m: gap(ACC_OFF, m)),
           "prompt-selection": (lambda m: sel_last[m], lambda m: sel_last_off[m])}
v = {t: {m: MEASURE[t][0](m) for m in [w[0], w[1], *w[2]]} for t, w in WHO.items()}
v_off = {t: {m: MEASURE[t][1](m) for m in [w[0], w[1], *w[2]]} for t, w in WHO.items()}
TOL = {"forgetting-halved": tolerance(abs=0.1, why="ratio of forgetting after AdamW training through the stream, "
                                                   "100 test questions per task"),
       "acc-not-below-l2p": tolerance(abs=3.0, why="difference of accuracies (points) after AdamW training through "
                                                   "the stream, 3 seeds"),
       "prompt-selection": tolerance(abs=0.05, why="share of 400 test questions after AdamW training through the "
                                                   "stream")}
THR = {"forgetting-halved": 0.5, "acc-not-below-l2p": -1.0, "prompt-selection": 0.9}
UNIT = {"forgetting-halved": "forgetting / adapter's forgetting", "acc-not-below-l2p": "ACC minus L2P's (points)",
        "prompt-selection": "prompt-selection accuracy, 4 tasks"}
fig, axes = plt.subplots(1, 3, figsize=(14, 3.8))
for ax, (t, (meth, abl, base)) in zip(axes, WHO.items()):
    who = [meth, abl, *base]
    y = np.arange(len(who))[::-1]
    col = ["C3" if m == meth else "C1" if m == abl else "C0" for m in who]
    ax.barh(y + 0.2, [v[t][m] for m in who], 0.4, color=col, label="pre-registered")
    ax.barh(y - 0.2, [v_off[t][m] for m in who], 0.4, color=col, alpha=0.45, label="official config.")
    ax.axvline(THR[t], color="k", ls="--", lw=1)
    ax.axvspan(THR[t] - TOL[t].abs, THR[t] + TOL[t].abs, color="0.85", zorder=0)
    ax.set_yticks(y, [LABEL[m] for m in who], fontsize=7)
    ax.set_xlabel(UNIT[t], fontsize=8)
    ax.set_title(t, fontsize=9)
axes[0].legend(fontsize=7)
fig.suptitle(f"Each test: Bisecle (red), its ablation (orange), the naive baselines (blue); seed {seed}")
fig.set_dpi(72)
plt.show()

# %%
claims.headline("mitigates-forgetting",
                "In parameter-efficient continual VideoQA (a frozen VLM, a small adapter, one question type after "
                "another), Bisecle mitigates catastrophic forgetting: it forgets far less than the plain adapter",
                tests=["forgetting-halved", "forgetting-halved-official"])
claims.headline("beats-prompt-learners",
                "Bisecle ends the stream more accurate than prompt-based continual learners such as L2P",
                tests=["acc-not-below-l2p", "acc-not-below-l2p-official"])
claims.headline("separation",
                "Its contrastive prompt learning isolates task-specific knowledge in the prompts (pattern separation)",
                tests=["prompt-selection", "prompt-selection-official"])
claims.headline("binding-generalises",
                "Multi-directional supervision (binding) captures cross-modal relationships and improves "
                "cross-task generalisation on several VideoQA benchmarks",
                untestable="our question and answer texts are single tokens through a random frozen network, so "
                           "L_Q is a 40-way classification, not language modelling of the question; no measure of "
                           "cross-task generalisation (forward transfer) was fixed before the run; and NExT-QA, "
                           "DramaQA and STAR with a LLaMA-based VLM cannot run here. The binding losses are the "
                           "ablated ingredient of forgetting-halved")

INGREDIENT = {"forgetting-halved": "the binding losses L_Q and L_V (multi-directional supervision)",
              "acc-not-below-l2p": "the question-prediction loss L_Q, which the paper's ablation credits most",
              "prompt-selection": "the contrastive prompt loss L_P (separation)"}
CLABEL = {  # comparator labels, per test where they differ
    ("forgetting-halved", "lp-only"): "Bisecle without L_Q and L_V (L_P only; paper: 0.65)",
    ("forgetting-halved", "l2p"): "L2P-style prompt pool (paper: 0.89)",
    ("acc-not-below-l2p", "lv+lp"): "Bisecle without L_Q (L_V+L_P; paper: +3.1 points)",
    ("acc-not-below-l2p", "adapter"): "plain adapter, sequential fine-tuning (paper: -2.2 points)",
    ("prompt-selection", "lq+lv"): "Bisecle without L_P (L_Q+L_V)",
    ("prompt-selection", "l2p"): "L2P-style pool: its key matching, keys mapped to tasks by the training questions",
    ("prompt-selection", "centroid"): "nearest task centroid of the frozen MiniLM question embeddings (no training)",
}
BLABEL = {"replay": "fine-tuning with a replay buffer of 20 samples per finished task",
          "ewc": "fine-tuning with online EWC (lambda 2000, tuned for final ACC on the design seeds)",
          "probe": "a linear probe per task on frozen video features, picked by the question's type"}
STATEMENT = {
    "forgetting-halved": "Bisecle's forgetting is at most half that of the plain adapter trained sequentially",
    "acc-not-below-l2p": "Bisecle's final average accuracy is not more than 1 point below the L2P-style pool's",
    "prompt-selection": "with the contrastive prompt loss, the query-weighted prompt identifies the task of at least "
                        "90% of the test questions after the last task",
}
PAPER_TXT = {
    "forgetting-halved": "NExT-QA forgetting 5.34 vs 13.83 (ratio 0.39); DramaQA 0.43; STAR 0.66 (Table 1)",
    "acc-not-below-l2p": "NExT-QA ACC 62.37 vs 48.82 (+13.6 points); backbone 46.58 (-2.2) (Table 1)",
    "prompt-selection": "not reported as a number; L_P is meant to isolate task-specific knowledge in the prompts",
}
CRIT = {"forgetting-halved": at_most(0.5), "acc-not-below-l2p": at_least(-1.0), "prompt-selection": at_least(0.9)}
OFFICIAL_SETTING = ("official configuration: q-bar with the question's official share (94 of 102 tokens), L_P "
                    "weighted per sample by 1 / (training questions of its type), per-task warm-up and cosine "
                    "learning rate, learning rate 0.09 x 32 / 256")
for t, crit in CRIT.items():  # the criteria are the brief's constants, fixed before the first run
    meth, abl, base = WHO[t]
    for suffix, vals in (("", v), ("-official", v_off)):
        extra = dict(setting=OFFICIAL_SETTING,
                     post_hoc="added when the page gained its comparators (issue 32): the brief asks that a departure "
                              "from the official code that can move a test be run with the official values; every "
                              "learner is retrained in that configuration, the method and the criterion are "
                              "unchanged") if suffix else {}
        claims.test(
            t + suffix, statement=STATEMENT[t] + (" (official configuration)" if suffix else ""),
            paper=PAPER_TXT[t], criterion=crit, measured=vals[t][meth], tol=TOL[t],
            ablation=Comparator(CLABEL[(t, abl)], vals[t][abl], ingredient=INGREDIENT[t]),
            baselines=[Comparator(CLABEL.get((t, b), BLABEL.get(b, LABEL[b])), vals[t][b]) for b in base],
            **extra)

KEY = {"lp-only": "lponly", "lv+lp": "lvlp", "lq+lv": "lqlv", "lq-only": "lqonly", "lv-only": "lvonly",
       "lq+lp": "lqlp", "lq-shuffled": "lqshuf"}
for t, vals in v.items():
    for m, x in vals.items():
        glue(f"{t}_{KEY.get(m, m)}", 100 * x if t == "prompt-selection" else x, display=False)
for t, vals in v_off.items():
    for m, x in vals.items():
        glue(f"{t}-official_{KEY.get(m, m)}", 100 * x if t == "prompt-selection" else x, display=False)
for m in METHODS:
    glue(f"acc_{KEY.get(m, m)}", float(100 * ACC[m].mean()), display=False)
    glue(f"fgt_{KEY.get(m, m)}", float(100 * FGT[m].mean()), display=False)
for m in JOINT:
    glue(f"joint_{KEY.get(m, m)}", float(100 * joint[m].mean()), display=False)
glue("acc_replay_minus_bisecle", float(100 * (ACC["replay"].mean() - ACC["bisecle"].mean())), display=False)
glue("sel_bisecle_min", float(100 * sel["bisecle"][:, -1].min()), display=False)
glue("sel_bisecle_max", float(100 * sel["bisecle"][:, -1].max()), display=False)

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
# None of the three pre-registered tests holds for Bisecle in this miniature, and the official configuration
# does not change that. The numbers below are this page's run at seed 0 (a mean over its seeds); the judged
# table gives every test's status over the ci sweep and at full scale.
#
# * *Forgetting halved* ({repro-status}`forgetting-halved`; official configuration
#   {repro-status}`forgetting-halved-official`). Bisecle forgets more than the plain adapter, not half as
#   much: the ratio is {glue:text}`forgetting-halved_bisecle:.2f` ({glue:text}`fgt_bisecle:.0f` against
#   {glue:text}`fgt_adapter:.0f` points), {glue:text}`forgetting-halved-official_bisecle:.2f` in the official
#   configuration; it fails the criterion at {repro-seeds}`forgetting-halved:method:fail` seeds of the ci
#   sweep. Its ablation without the binding losses ($\mathcal L_P$ only) is at
#   {glue:text}`forgetting-halved_lponly:.2f`: every combination with $\mathcal L_Q$ or $\mathcal L_V$ raises
#   forgetting. The null model ($\mathcal L_Q$ towards shuffled question labels) forgets
#   {glue:text}`fgt_lqshuf:.0f` points and the real $\mathcal L_Q$ {glue:text}`fgt_lqonly:.0f`, so what hurts is
#   an extra loss sharing the small adapter, not what it binds. Joint training shows the same conflict without
#   any stream: the adapter alone reaches {glue:text}`joint_adapter:.0f` % on all four tasks at once,
#   $\mathcal L_Q+\mathcal L_V$ {glue:text}`joint_lqlv:.0f` % and Bisecle {glue:text}`joint_bisecle:.0f` %.
#   Among the naive baselines, the per-task probe forgets nothing (by construction; it passes at
#   {repro-seeds}`forgetting-halved:baseline4:pass` seeds) and replay comes closest among the trained learners,
#   at a ratio of {glue:text}`forgetting-halved_replay:.2f` (inside the tolerance band of the threshold at
#   {repro-seeds}`forgetting-halved:baseline2:edge` seeds, above it at
#   {repro-seeds}`forgetting-halved:baseline2:fail`);
#   EWC, tuned for accuracy, is at {glue:text}`forgetting-halved_ewc:.2f`. In the official configuration EWC's
#   ratio drops to {glue:text}`forgetting-halved-official_ewc:.2f` and passes at
#   {repro-seeds}`forgetting-halved-official:baseline3:pass` seeds, while Bisecle's stays at
#   {glue:text}`forgetting-halved-official_bisecle:.2f`.
# * *Not below L2P* ({repro-status}`acc-not-below-l2p`; official {repro-status}`acc-not-below-l2p-official`).
#   Bisecle ends {glue:text}`acc-not-below-l2p_bisecle:.1f` points from the L2P-style pool (it fails at
#   {repro-seeds}`acc-not-below-l2p:method:fail` seeds); its ablation without $\mathcal L_Q$
#   {glue:text}`acc-not-below-l2p_lvlp:.1f`. The plain adapter is level with L2P
#   ({glue:text}`acc-not-below-l2p_adapter:.1f`): in our miniature L2P adds nothing over the adapter, where the
#   paper has it ahead of its backbone; the adapter lies inside the tolerance band at
#   {repro-seeds}`acc-not-below-l2p:baseline1:edge` seeds. Replay ends {glue:text}`acc-not-below-l2p_replay:.1f`
#   points above L2P, EWC {glue:text}`acc-not-below-l2p_ewc:.1f` and the per-task probe
#   {glue:text}`acc-not-below-l2p_probe:.1f`; they pass at {repro-seeds}`acc-not-below-l2p:baseline2:pass`,
#   {repro-seeds}`acc-not-below-l2p:baseline3:pass` and {repro-seeds}`acc-not-below-l2p:baseline4:pass` seeds:
#   naive learners pass this test where Bisecle fails it. In the official configuration Bisecle ends
#   {glue:text}`acc-not-below-l2p-official_bisecle:.1f` points from L2P.
# * *Prompts separate the tasks* ({repro-status}`prompt-selection`; official
#   {repro-status}`prompt-selection-official`). With $\mathcal L_P$ the prompt-selection accuracy after the
#   last task is {glue:text}`prompt-selection_bisecle:.1f` % (from {glue:text}`sel_bisecle_min:.1f` to
#   {glue:text}`sel_bisecle_max:.1f` % over this run's seeds), $1/k$: every test question's weighted prompt
#   points to one type. Without $\mathcal L_P$ it is {glue:text}`prompt-selection_lqlv:.1f` %, L2P's key
#   matching reaches {glue:text}`prompt-selection_l2p:.1f` %, and the nearest task centroid of the frozen
#   question embeddings, with no training at all, {glue:text}`prompt-selection_centroid:.1f` % (it passes at
#   {repro-seeds}`prompt-selection:baseline2:pass` seeds): in our miniature the question gives its task away,
#   and no loss is needed to find it. The post-hoc diagnostic locates the collapse in the stream, not in our
#   loss (which matches the official function): with all types mixed in each batch and $\bar q$ weighted as
#   officially, $\mathcal L_P$ separates the types ({glue:text}`diag_mixed_q94:.0f` %); in the stream, where
#   each batch holds a single type and all positives are one vector, it collapses to the current type. In the
#   official configuration the per-type weight shrinks $\mathcal L_P$ by the number of questions of a type,
#   and the prompts separate nothing either ({glue:text}`prompt-selection-official_bisecle:.1f` %).
#
# What this says about the paper: the ordering of its Table 1 and the ablation of its Table 2 do not
# carry over to a random frozen backbone with single-token texts, and in our miniature the learners a skeptic
# would try first (a small replay buffer, a probe per task) do better than Bisecle on both forgetting and
# accuracy. Its gains may rest on what a pre-trained LLM brings to generating the question, and on long text
# inputs; our miniature cannot tell which. The official code's own settings, notably the per-type weight that
# makes $\mathcal L_P$ negligible, leave every status as it was.
#
# ## What a skeptic would try
#
# Reviewed by: (pending). An independent reviewer comes after the author; until then this list is the author's
# own. Each baseline below is measured by this notebook on the same stream (seed 0, mean over its seeds):
#
# * **Fine-tuning with a small replay buffer** (20 samples per finished task, 16 joined to each batch of 32):
#   ACC {glue:text}`acc_replay:.1f` %, forgetting {glue:text}`fgt_replay:.1f` points, ratio to the adapter's
#   forgetting {glue:text}`forgetting-halved_replay:.2f` ({glue:text}`forgetting-halved-official_replay:.2f` in
#   the official configuration); {glue:text}`acc_replay_minus_bisecle:.1f` points of ACC above Bisecle.
# * **Online EWC**, with its penalty tuned for final ACC on the design seeds: ACC {glue:text}`acc_ewc:.1f` %,
#   forgetting {glue:text}`fgt_ewc:.1f` points (ratio {glue:text}`forgetting-halved_ewc:.2f`). A stronger
#   penalty trades accuracy for less forgetting; we did not pick it, since the tuning target was fixed first.
# * **A linear probe per task on frozen video features** (the mean and the ramp-weighted mean frame): ACC
#   {glue:text}`acc_probe:.1f` %, forgetting {glue:text}`fgt_probe:.1f` (zero by construction). It shows that
#   every task is linearly solvable from the frozen frames; what makes the stream hard for the adapter is the
#   shared trainable path through a random frozen network.
# * **The L2P-style pool**: ACC {glue:text}`acc_l2p:.1f` %, forgetting ratio
#   {glue:text}`forgetting-halved_l2p:.2f`, key matching {glue:text}`prompt-selection_l2p:.1f` % of the test
#   questions to their task.
# * **A nearest task centroid** of the frozen MiniLM question embeddings: {glue:text}`prompt-selection_centroid:.1f` %
#   of the test questions to their task, with no training.
# * **The plain adapter** in place of Bisecle: ACC {glue:text}`acc-not-below-l2p_adapter:.1f` points from
#   L2P.
#
# ## What the miniature cannot show
#
# * Whether Bisecle helps a real video-language model: the gains in the paper come from a 7B LLaMA whose
#   frozen layers already understand language and whose adapter prompts act in 32 layers; our frozen
#   network is random and two layers deep, and our question and answer "sentences" are one token each, so
#   $\mathcal L_Q$ is a 40-way classification rather than language modelling of the question.
# * Real videos: CLIP features of NExT-QA, DramaQA and STAR clips carry far richer and more entangled
#   content than our four attributes; causal and temporal questions have no counterpart here, and there a
#   probe per question type is not possible (the answers are free-text options that change with each question).
# * Eight question types with the imbalance of NExT-QA, five answer options, several epochs per task, and the
#   baselines DualPrompt, LAE, DAM, ProgPrompt and ColPro.
# * Whether the collapse of the contrastive prompt loss onto the current type that we see also happens in
#   the official model: there every prompt row is attended in every layer and nothing selects a prompt at
#   test time, so a collapse in our read-out need not hurt its answers. Our diagnostic only shows that the
#   loss, fed one type per batch, cannot by itself keep old types apart.
