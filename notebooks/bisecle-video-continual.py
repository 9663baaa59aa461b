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

from repro.claims import Claims, at_least, at_most, tolerance
from repro.continual import average_accuracy, forgetting, plot_accuracy_matrix
from repro.papers import bisecle_video_continual as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 10 s of training on one quiet thread: 3 seeds x 17 models, 40 AdamW steps per task
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
LABEL = {"adapter": "adapter (sequential FT)", "l2p": "L2P-style pool", "bisecle": "Bisecle (L_Q+L_V+L_P)",
         "lq-only": "L_Q only", "lv-only": "L_V only", "lp-only": "L_P only", "lq+lv": "L_Q+L_V",
         "lv+lp": "L_V+L_P", "lq+lp": "L_Q+L_P", "lq-shuffled": "L_Q, shuffled targets (null)"}

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
# **Baselines, same stream, same frozen parts:** *adapter*, sequential fine-tuning with $\mathcal L_A$
# only (the paper's LLaMA-Adapter row); an *L2P-style* prompt pool (Wang et al., 2022: the prompt whose key
# is nearest in cosine to the frozen question token is used, keys pulled towards their queries); each
# ablation of Table 2; *joint training* on all tasks mixed (the upper bound); and a null model,
# $\mathcal L_Q$ towards a fixed random relabelling of the questions (the same extra loss, nothing to bind).
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
#   full (joint training: 4 times as many steps on the mixed tasks). All methods and seeds are trained side by side as a batch of independent models; the frozen
#   backbone of a seed is shared by all methods.
# * **Measured** (`repro.continual`): accuracy matrix $A_{ij}$ (after task $i$, on task $j$), final average
#   accuracy ACC, forgetting (each old task's drop from its best accuracy, the official definition);
#   prompt-selection accuracy: the share of test questions of the tasks seen so far whose query-weighted
#   prompt is closest to their own type embedding (no task id at test time). Mean and standard deviation
#   over seeds (3 at ci, 5 at full; each seed draws its own attribute patterns, data and initialisation).
#
# **Claims, thresholds from the brief and fixed before the first run of this notebook** (we ran the
# kernels once at these sizes to time them before writing it; the controls are the paper's own baselines):
#
# 1. *Forgetting halved:* forgetting(Bisecle) / forgetting(adapter) $\le 0.5$ (paper, NExT-QA: 0.39).
#    Control: the same ratio for the L2P-style pool (paper: 0.89).
# 2. *Not below L2P:* ACC(Bisecle) $-$ ACC(L2P) $\ge -1$ point (paper: $+13.6$). Control: the plain adapter
#    in place of Bisecle (paper: $-2.2$).
# 3. *Prompts separate the tasks:* prompt-selection accuracy after the last task $\ge 90\%$ with
#    $\mathcal L_P$ (Bisecle). Control: the same model without $\mathcal L_P$ ($\mathcal L_Q+\mathcal L_V$).
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
# * $\bar q$ is the mean of the video tokens and the one question token (the official mean runs over the
#   whole text-and-video input sequence); per-sample type weights are off (official: inverse type counts).
# * $\mathcal L_V$ scores against all 8 frames with temperature 1 at width 32 (official $\tau=100$ at width
#   4096); learning rate 0.01 and step counts are ours; weight decay applies to every trainable tensor
#   (official: not to biases and norms).
# * L2P is our minimal version (one prompt chosen per sample, no prompt-length sweep); DualPrompt, LAE,
#   DAM, ProgPrompt and ColPro are not run.
# * Scale: 200 training and 100 test questions per task and 3 seeds at ci scale (500/250 and 5 at full).

# %%
q_emb, a_emb = K.text_embeddings()  # MiniLM, from the committed cache
seeds = [seed * P.n_seeds + i for i in range(P.n_seeds)]
stream = K.make_stream(seeds, P.n_train, P.n_test, q_emb, a_emb)
JOINT = ["adapter", "lq+lv", "bisecle"]
DIAG = ["lq+lv", "bisecle"]
# official q-bar: 10 video features in a 128-token sequence; our 8 video tokens keep that share when the
# question counts as 8 * 118 / 10 = 94 tokens
CFG_Q = replace(CFG, q_tokens=94)
jobs = {
    "main": lambda: K.continual_train(stream, MAIN, CFG, init_seed=seed),
    "l2p": lambda: K.continual_train(stream, ["l2p"], CFG, init_seed=seed),
    "joint": lambda: K.continual_train(stream, JOINT, CFG, init_seed=seed, joint=True),
    # post-hoc diagnostic (added after the first run): the question weighted in q-bar as in the official code
    "seq-q94": lambda: K.continual_train(stream, DIAG, CFG_Q, init_seed=seed),
    "joint-q94": lambda: K.continual_train(stream, DIAG, CFG_Q, init_seed=seed, joint=True),
}
runs = {name: job() for name, job in progress(jobs.items(), total=len(jobs), desc="training")}

acc = {m: runs["main"]["acc"][i] for i, m in enumerate(MAIN)}  # (S, 4, 4) per method
acc["l2p"] = runs["l2p"]["acc"][0]
sel = {m: runs["main"]["selection"][i] for i, m in enumerate(MAIN)}  # (S, 4)
joint = {m: runs["joint"]["acc"][i, :, 0].mean(-1) for i, m in enumerate(JOINT)}  # (S,)
METHODS = ["adapter", "l2p"] + MAIN[1:]
ACC = {m: np.array([average_accuracy(A) for A in acc[m]]) for m in METHODS}
FGT = {m: np.array([forgetting(A) for A in acc[m]]) for m in METHODS}
for m in METHODS:
    print(f"{LABEL[m]:30s} ACC {100 * ACC[m].mean():5.1f} ± {100 * ACC[m].std():4.1f}   "
          f"forgetting {100 * FGT[m].mean():5.1f} ± {100 * FGT[m].std():4.1f}")
for m in joint:
    print(f"joint training, {LABEL[m]:15s} ACC {100 * joint[m].mean():5.1f} ± {100 * joint[m].std():4.1f}")

# %% [markdown]
# ## Results
#
# Each panel follows one method through the stream: the accuracy on each task (one line per task) after
# each training stage, mean over seeds with a band of one standard deviation.

# %%
TASK_NAMES = [t.capitalize() for t in K.TASKS]
colors = plt.cm.viridis(np.linspace(0, 0.9, 4))
fig, axes = plt.subplots(2, 5, figsize=(11, 4.6), sharex=True, sharey=True)
for ax, m in zip(axes.flat, METHODS):
    A = 100 * acc[m]
    for j in range(4):
        x = np.arange(j, 4) + 1
        mu, sd = np.nanmean(A[:, j:, j], 0), np.nanstd(A[:, j:, j], 0)
        ax.plot(x, mu, "o-", color=colors[j], label=f"task {j + 1}: {TASK_NAMES[j]}")
        ax.fill_between(x, mu - sd, mu + sd, color=colors[j], alpha=0.2)
    ax.axhline(25, color="grey", ls=":", lw=1)
    ax.set_title(LABEL[m], fontsize=10)
for ax in axes[1]:
    ax.set_xlabel("tasks trained")
for ax in axes[:, 0]:
    ax.set_ylabel("test accuracy (%)")
axes[0, 0].legend(fontsize=7, loc="lower left")
axes[0, 0].set_xticks([1, 2, 3, 4])
fig.suptitle(f"Accuracy on each task through the stream ({len(seeds)} seeds, band: ±1 sd; dotted: chance)")
fig.set_dpi(72)  # ten panels of bands: a lighter image keeps the page under 1 MB
plt.show()

# %% [markdown]
# Final accuracy against forgetting, ours on the left (mean ± sd over seeds; the dashed lines mark
# joint training, the upper bound), the paper's NExT-QA numbers on the right (Tables 1 and 2).
# A good method sits at the top left.

# %%
PAPER = {  # NExT-QA: (ACC %, forgetting %), Tables 1 and 2 of the paper
    "adapter": (46.58, 13.83), "l2p": (48.82, 12.25), "bisecle": (62.37, 5.34), "lq-only": (61.13, 6.63),
    "lv-only": (53.94, 9.61), "lp-only": (55.82, 8.93), "lq+lv": (59.78, 6.58), "lv+lp": (51.95, 11.73),
    "lq+lp": (61.38, 7.20),
}
mcol = dict(zip(METHODS, plt.cm.tab10(np.arange(len(METHODS)))))
fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
for m in METHODS:
    a1.errorbar(100 * FGT[m].mean(), 100 * ACC[m].mean(), xerr=100 * FGT[m].std(), yerr=100 * ACC[m].std(),
                fmt="o", color=mcol[m], label=LABEL[m], capsize=3)
    if m in PAPER:
        a2.plot(PAPER[m][1], PAPER[m][0], "s", color=mcol[m], label=LABEL[m])
for m, ls in (("adapter", "--"), ("lq+lv", ":"), ("bisecle", "-.")):
    a1.axhline(100 * joint[m].mean(), color=mcol[m], ls=ls, lw=1, label=f"joint training, {LABEL[m]}")
a1.set_xlabel("forgetting (percentage points)")
a1.set_ylabel("final average accuracy ACC (%)")
a1.set_title("miniature (synthetic video QA, 4 tasks)")
a1.legend(fontsize=7)
a2.set_xlabel("forgetting (percentage points)")
a2.set_ylabel("final average accuracy (%)")
a2.set_title("paper, NExT-QA (8 tasks, LLaMA-Adapter)")
a2.legend(fontsize=7)
plt.show()

# %% [markdown]
# Prompt selection without a task id: after $k$ tasks, the share of the seen tasks' test questions whose
# query-weighted prompt is closest to their own type embedding. Chance is $1/k$; a model that sends every
# question to the same type also scores $1/k$.

# %%
fig, ax = plt.subplots(figsize=(7, 4.5))
k = np.arange(1, 5)
for m in ["bisecle", "lp-only", "lq+lp", "lv+lp", "lq+lv", "adapter"]:
    s = 100 * sel[m]
    ax.errorbar(k, s.mean(0), yerr=s.std(0), fmt="o-", capsize=3, color=mcol[m], label=LABEL[m])
ax.plot(k, 100 / k, "k:", lw=2, zorder=5, label="chance, 1/k")
ax.axhline(90, color="red", ls="--", lw=1, label="claim 3 threshold (90%)")
ax.set_xticks(k)
ax.set_xlabel("tasks trained, k")
ax.set_ylabel("prompt-selection accuracy (%)")
ax.set_ylim(0, 105)
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# **Post-hoc diagnostic (added after the first run; not a claim).** Why do the prompts not separate the
# tasks? Two candidates: our $\bar q$ is dominated by the video tokens, which do not depend on the task,
# whereas the official $\bar q$ averages a 128-token sequence in which only 10 tokens are video; and in a
# stream each batch holds one type only. We rerun the question-weighted variant ($\bar q$ with the
# question counted as 94 tokens, the official share), once in the stream and once with all types mixed
# (joint training), beside the pre-registered setting.

# %%
diag = {("ours", "stream"): runs["main"]["selection"][[MAIN.index(m) for m in DIAG], :, -1],
        ("ours", "mixed"): runs["joint"]["selection"][[JOINT.index(m) for m in DIAG], :, 0],
        ("official share", "stream"): runs["seq-q94"]["selection"][:, :, -1],
        ("official share", "mixed"): runs["joint-q94"]["selection"][:, :, 0]}
fig, ax = plt.subplots(figsize=(8, 4.5))
width = 0.38
for i, m in enumerate(DIAG):
    vals = [100 * v[i] for v in diag.values()]
    ax.bar(np.arange(4) + (i - 0.5) * width, [v.mean() for v in vals], width, yerr=[v.std() for v in vals],
           capsize=3, color=mcol[m], label=LABEL[m])
ax.axhline(25, color="k", ls=":", lw=1.5, label="chance over 4 types")
ax.axhline(90, color="red", ls="--", lw=1, label="claim 3 threshold")
ax.set_xticks(np.arange(4), [f"q-bar: {a}\n{b} batches" for a, b in diag])
ax.set_ylabel("prompt-selection accuracy, 4 types (%)")
ax.set_ylim(0, 105)
ax.legend(fontsize=8, loc="upper left")
plt.show()
fb = np.array([forgetting(A) for A in runs["seq-q94"]["acc"][1]])
ab = np.array([average_accuracy(A) for A in runs["seq-q94"]["acc"][1]])
print(f"Bisecle in the stream with the official q-bar share: forgetting {100 * fb.mean():.1f} ± {100 * fb.std():.1f}, "
      f"ACC {100 * ab.mean():.1f} ± {100 * ab.std():.1f} (pre-registered q-bar: {100 * FGT['bisecle'].mean():.1f}, "
      f"{100 * ACC['bisecle'].mean():.1f}; plain adapter: {100 * FGT['adapter'].mean():.1f}, {100 * ACC['adapter'].mean():.1f})")

# %%
fig, axes = plt.subplots(1, 3, figsize=(10.5, 3.4))
for ax, m in zip(axes, ["adapter", "l2p", "bisecle"]):
    plot_accuracy_matrix(ax, acc[m].mean(0), title=f"{LABEL[m]} (mean of {len(seeds)} seeds)")
plt.show()

# %% [markdown]
# The paper's numbers beside ours (ACC and forgetting in %; ours: mean ± sd over seeds at this scale).

# %%
rows = ["| setting | paper NExT-QA ACC | paper NExT-QA forgetting | ours ACC | ours forgetting |",
        "|---|---|---|---|---|"]
for m in METHODS:
    pa, pf = PAPER.get(m, ("–", "–"))
    rows.append(f"| {LABEL[m]} | {pa} | {pf} | {100 * ACC[m].mean():.1f} ± {100 * ACC[m].std():.1f} | "
                f"{100 * FGT[m].mean():.1f} ± {100 * FGT[m].std():.1f} |")
for m in joint:
    rows.append(f"| joint training, {LABEL[m]} | – | – | {100 * joint[m].mean():.1f} ± {100 * joint[m].std():.1f} | – |")
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
#   (`engine.train_one_epoch`), $\kappa = 0.1$, negatives = all earlier types (`_get_negative_qtypes`),
#   one AdamW optimiser kept across tasks with betas (0.9, 0.95) and weight decay 0.14, the zero-initialised
#   gate, 10 prompt rows, the accuracy matrix and the forgetting formula of `train_nextQA.py`.
# * **Departures** (listed above under Deviations): the frozen network, single-token texts, one layer of
#   prompts used as a query-weighted sum, $\bar q$ over video tokens and one question token, no type
#   weights, our learning rate and temperature of $\mathcal L_V$. The official code never selects prompts at
#   test time (every row is attended in every layer); the prompt-selection accuracy is our read-out of the
#   separation that $\mathcal L_P$ trains for.
# * **A property of the official loss we noticed.** Within one batch of one task every positive column
#   $e^+_{b'}$ is the same vector, so the loss cannot tell samples apart: it is at least $\log B$ and its
#   gradient moves every sample's weighted prompt towards the current type, old tasks' questions included.

# %%
F_ratio = FGT["bisecle"].mean() / FGT["adapter"].mean()
F_ratio_l2p = FGT["l2p"].mean() / FGT["adapter"].mean()
claims.check(
    "forgetting-halved",
    statement="Bisecle's forgetting is at most half that of the plain adapter trained sequentially",
    paper="NExT-QA forgetting 5.34 vs 13.83 (ratio 0.39); DramaQA 0.43; STAR 0.66 (Table 1)",
    criterion=at_most(0.5), measured=float(F_ratio),
    control=float(F_ratio_l2p), control_label="L2P-style prompt pool in place of Bisecle (paper: 0.89)",
    tol=tolerance(abs=0.1, why="ratio of forgetting after AdamW training through the stream, 100 test questions per task"),
)
d_acc = 100 * (ACC["bisecle"].mean() - ACC["l2p"].mean())
d_acc_ctrl = 100 * (ACC["adapter"].mean() - ACC["l2p"].mean())
claims.check(
    "acc-not-below-l2p",
    statement="Bisecle's final average accuracy is not more than 1 point below the L2P-style pool's",
    paper="NExT-QA ACC 62.37 vs 48.82 (+13.6 points); backbone 46.58 (-2.2) (Table 1)",
    criterion=at_least(-1.0), measured=float(d_acc),
    control=float(d_acc_ctrl), control_label="plain adapter in place of Bisecle (paper: -2.2 points)",
    tol=tolerance(abs=3.0, why="difference of accuracies (points) after AdamW training through the stream, 3 seeds"),
)
claims.check(
    "prompt-selection",
    statement="with the contrastive prompt loss, the query-weighted prompt identifies the task of at least "
              "90% of the test questions after the last task",
    paper="not reported as a number; L_P is meant to isolate task-specific knowledge in the prompts",
    criterion=at_least(0.9), measured=float(sel["bisecle"][:, -1].mean()),
    control=float(sel["lq+lv"][:, -1].mean()), control_label="Bisecle without L_P (L_Q+L_V)",
    tol=tolerance(abs=0.05, why="share of 400 test questions after AdamW training through the stream"),
)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# None of the three claims is reproduced in this miniature. The numbers below are the ci run of this page
# (seed 0, 3 seeds averaged); the robustness table gives the statuses over ten ci seeds and three full-scale
# runs (5 seeds, 2.5 times the data and 250 steps per task each). At full scale the gaps shrink but keep
# their sign: Bisecle still forgets more than the adapter and ends several points below L2P, and at two of
# the three full runs the adapter, too, falls more than a point below L2P, so there the accuracy claim's
# control fails as well and the claim is uninformative.
#
# * **Forgetting halved: not reproduced at this scale.** Bisecle forgets more than the plain adapter
#   (ratio about 1.3: 54 against 41 points), not at most half as much. $\mathcal L_P$ alone leaves
#   forgetting where the adapter has it; every combination with $\mathcal L_Q$ or $\mathcal L_V$ raises it and
#   lowers final accuracy. The null model ($\mathcal L_Q$ towards shuffled question labels) forgets as much as
#   the real $\mathcal L_Q$, so what hurts is an extra loss sharing the small adapter, not what it binds.
#   Joint training shows the same conflict without any stream: the adapter alone reaches about 95% on all
#   four tasks at once, with $\mathcal L_Q+\mathcal L_V$ (with or without $\mathcal L_P$) only about 70%.
#   The L2P-style pool does not halve forgetting either (ratio about 0.98; the paper's L2P: 0.89).
# * **Accuracy not below L2P: not reproduced.** Bisecle ends about 18 points below the L2P-style pool.
#   The control, the plain adapter, is level with L2P (within the 1-point margin, so it passes): in our
#   miniature L2P adds nothing over the adapter, where the paper has it 2.2 points ahead. The control
#   passes at every seed of the ci sweep, by less than a point at some; Bisecle misses at every seed by
#   15 to 24 points.
# * **Prompts separate the tasks: not reproduced.** With $\mathcal L_P$ the prompt-selection accuracy is
#   exactly $1/k$ after $k$ tasks, with no spread over seeds: every test question's weighted prompt points
#   to one type. The post-hoc diagnostic locates the cause in the stream, not in our loss (which matches
#   the official function): with $\bar q$ weighted as in the official token sequence and all types mixed in
#   each batch, $\mathcal L_P$ separates the four types almost perfectly (about 100%); in the stream, where
#   each batch holds a single type and all positives are one vector, it collapses to the current type
#   with either $\bar q$. The official weighting does not change forgetting in the stream either (Bisecle
#   about 54 points with both).
#
# What this says about the paper: the ordering of its Table 1 and the ablation of its Table 2 do not
# carry over to a random frozen backbone with single-token texts. Its gains may rest on what a pre-trained
# LLM brings to generating the question, and on long text inputs; our miniature cannot tell which.
#
# ## What the miniature cannot show
#
# * Whether Bisecle helps a real video-language model: the gains in the paper come from a 7B LLaMA whose
#   frozen layers already understand language and whose adapter prompts act in 32 layers; our frozen
#   network is random and two layers deep, and our question and answer "sentences" are one token each, so
#   $\mathcal L_Q$ is a 40-way classification rather than language modelling of the question.
# * Real videos: CLIP features of NExT-QA, DramaQA and STAR clips carry far richer and more entangled
#   content than our four attributes; causal and temporal questions have no counterpart here.
# * Eight question types with the imbalance of NExT-QA (and the official inverse-frequency weights), five
#   answer options, several epochs per task, and the baselines DualPrompt, LAE, DAM, ProgPrompt and ColPro.
# * Whether the collapse of the contrastive prompt loss onto the current type that we see also happens in
#   the official model: there every prompt row is attended in every layer and nothing selects a prompt at
#   test time, so a collapse in our read-out need not hurt its answers. Our diagnostic only shows that the
#   loss, fed one type per batch, cannot by itself keep old types apart.
