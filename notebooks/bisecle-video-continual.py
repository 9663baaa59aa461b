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

from repro.claims import Claims, Comparator, at_least, at_most, greater_than, tolerance
from repro.continual import average_accuracy, forgetting, plot_accuracy_matrix
from repro.papers import bisecle_video_continual as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 10 s of training on one quiet thread: 3 seeds x 40 models, 40 AdamW steps per task
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
# after the independent review: the null of L_P (a random seen type per sample) joins the ablations
MAIN = ["adapter", "lq-only", "lv-only", "lp-only", "lq+lv", "lv+lp", "lq+lp", "bisecle", "lq-shuffled", "lp-shuffled"]
# the naive baselines, trained in the same call (K.Config: replay buffer of 20 samples per finished task, 16 of
# them joined to each batch; EWC with two penalties, one per test criterion, tuned by K.tune_ewc_lambdas on
# streams that no test uses: "ewc" the best final ACC, "ewc-fgt" the least forgetting at no loss of final ACC)
BASE = ["l2p", "replay", "ewc", "ewc-fgt"]
# the official configuration (a second setting of the first two tests): the question's share of q-bar (94 of 102
# tokens), L_P weighted per sample by 1 / (training questions of its type), the per-task warm-up and cosine
# schedule, and the official learning rate (base 0.09 x batch / 256); EWC's penalties tuned in it
LAM_OFF = K.EWC_TUNED["official"]
CFG_OFF = replace(CFG, q_tokens=94, schedule="warmup-cosine", lr=0.09 * CFG.batch / 256,
                  ewc_lambda=LAM_OFF[0], ewc_lambda_fgt=LAM_OFF[1])
OFFICIAL = ["adapter", "lp-only", "lv+lp", "bisecle", "l2p", "replay", "ewc", "ewc-fgt"]
# added after the second independent review: the plain adapter at a third and at a tenth of the learning rate, naive
# baselines of the forgetting tests (a slower learner forgets less), trained in each configuration
SLOW = {"adapter-lr3": 3.0, "adapter-lr10": 10.0}
LABEL = {"adapter": "adapter (sequential FT)", "l2p": "L2P-style pool", "bisecle": "Bisecle (L_Q+L_V+L_P)",
         "lq-only": "L_Q only", "lv-only": "L_V only", "lp-only": "L_P only", "lq+lv": "L_Q+L_V",
         "lv+lp": "L_V+L_P", "lq+lp": "L_Q+L_P", "lq-shuffled": "L_Q, another sample's question (null)",
         "lp-shuffled": "L_P, random types (null)",
         "replay": "fine-tuning + replay buffer", "ewc": "fine-tuning + EWC (tuned for ACC)",
         "ewc-fgt": "fine-tuning + EWC (tuned for forgetting)",
         "adapter-lr3": "adapter, a third of the learning rate", "adapter-lr10": "adapter, a tenth of the learning rate",
         "probe": "linear probe per task (reference)", "noop": "adapter never updated (no-op)",
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
# loss $\mathcal L_Q$. What it shows for $\mathcal L_P$ is mixed: $\mathcal L_P$ alone forgets less than the backbone
# on all three benchmarks, and all three losses forget less than $\mathcal L_Q+\mathcal L_V$, but on NExT-QA adding
# $\mathcal L_P$ to $\mathcal L_Q$ or to $\mathcal L_V$ forgets more (6.63 to 7.20 and 9.61 to 11.73), and on
# DramaQA adding it to $\mathcal L_Q$ forgets more too (10.90 to 14.63). What we test is
# the relative pattern, in a miniature: forgetting at most half the plain adapter's, accuracy not below L2P's,
# and (added after the review) the paper's own evidence for each idea: $\mathcal L_Q$ raises accuracy,
# $\mathcal L_P$ cuts forgetting.
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
#   ingredient it is about and takes as its ablation the learner without it: forgetting, the binding losses
#   ($\mathcal L_P$ only); accuracy, the question loss that the paper's ablation credits most
#   ($\mathcal L_V+\mathcal L_P$).
# * *Null models* (the ablations of the two post-hoc tests): the same extra loss with what it is meant to carry
#   taken out. $\mathcal L_Q$ with each sample's target replaced by the question of another sample of its batch,
#   drawn afresh at each step (a question of the same type whose attributes are independent of this video and
#   answer: nothing to bind; after the second review, replacing a fixed relabelling of the 40 questions, which
#   is a bijection and so carries the same information as the true target), and
#   $\mathcal L_P$ with each sample's positive type drawn at random among the types seen so far and the other
#   seen types as negatives (nothing to separate; on the first task it is $\mathcal L_P$ itself).
# * *Plain adapter*: sequential fine-tuning with $\mathcal L_A$ only (the paper's LLaMA-Adapter row).
# * *Slower plain adapters* (added after the second review): the plain adapter at a third and at a tenth of the
#   learning rate, in each configuration. A learner that learns less forgets less, and a criterion on forgetting
#   alone rewards that; these are the naive baselines a skeptic tries first against it.
# * *L2P-style pool* (Wang et al., 2022): the prompt whose key is nearest in cosine to the frozen question
#   token is used, keys pulled towards their queries.
# * *Fine-tuning with a small replay buffer* (experience replay): the adapter trained with $\mathcal L_A$ on each
#   batch of 32 current-task samples joined by 16 samples drawn from a buffer that keeps 20 random training
#   samples of every finished task (10% of a task's data at ci scale).
# * *Fine-tuning with EWC* (online elastic weight consolidation, Kirkpatrick et al., 2017): $\mathcal L_A$ plus
#   $\frac\lambda2\sum_i F_i(\theta_i-\theta_i^*)^2$, with $F$ the summed mean squared mini-batch gradient of
#   $\mathcal L_A$ on each finished task (8 batches) and $\theta^*$ the parameters after the last one. Two
#   penalties, one per test criterion, each the strongest of a grid from $10^2$ to $10^7$
#   (`K.tune_ewc_lambdas`) on tuning streams that no test uses (stream seeds 60-89, ten ci-sized runs; the ci
#   sweep uses stream seeds 0-29 and the confirmation sweep 30-59): the best final ACC (for the accuracy tests)
#   and the least forgetting among the penalties that do not end below the plain adapter's ACC (for the
#   forgetting tests; without that condition the least forgetting belongs to a penalty so large that the adapter
#   stops learning after the first task). Both are tuned again in the official configuration.
# * *Shown, not comparators.* A *linear probe per task on frozen features* (a ridge classifier, penalty 1, on the
#   standardised mean and ramp-weighted mean frame, fitted on one task's data and never touched again, picked by
#   the question's type): an upper-bound reference, not a learner of the same problem, since it gets the task id
#   from the question, fixed answer classes per type and a pooling that matches how we generate the videos, and it
#   forgets nothing by construction. The adapter *never updated* (a no-op: it forgets nothing and learns nothing).
#   *Joint training* on all tasks mixed (the upper bound of a stream).
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
# * **The official configuration** (a second setting of the first two tests, added when the page gained its
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
# ablation and its naive baselines (issue 32), they kept their method, setting and criterion and gained
# comparators under the same measurement; after the independent review the per-task probe left the comparators
# (it is an oracle; shown as a reference) and EWC was tuned again, once per criterion, on streams no test uses.
#
# 1. *Forgetting halved* (`forgetting-halved`): forgetting(learner) / forgetting(adapter) $\le 0.5$ (paper,
#    NExT-QA: 0.39; on STAR 0.66, which would fail it). Ablation: $\mathcal L_P$ only (paper: 0.65); baselines: the
#    L2P-style pool (paper: 0.89), replay, EWC tuned for accuracy, EWC tuned for forgetting, and (added after the
#    second review) the plain adapter at a third and at a tenth of the learning rate. A criterion on forgetting alone
#    is met by a learner that learns less: a pass here could at best have been "not specific".
# 2. *Not below L2P* (`acc-not-below-l2p`): ACC(learner) $-$ ACC(L2P) $\ge -1$ point (paper: $+13.6$).
#    Ablation: $\mathcal L_V+\mathcal L_P$ (paper: $+3.1$); baselines: the plain adapter (paper: $-2.2$),
#    replay, EWC tuned for accuracy. This criterion is weaker than the claim it tests (the paper has Bisecle far
#    ahead of L2P, we only ask that it not fall behind): a pass would be weak evidence, and since L2P here is about
#    the plain adapter, replay and EWC clear it by far (a pass could at best have been "not specific").
#
# The brief's third check, prompt selection after the last task $\ge 90\%$ (`prompt-selection`), is now an
# illustration, not a test: the official model never selects a prompt at test time (every prompt row is attended
# in every layer), our template questions give their type away (a nearest centroid of the frozen question
# embeddings, with no training, identifies it), and without $\mathcal L_P$ the type embeddings get no gradient at
# all, so its ablation is at chance by construction.
#
# **Post hoc** (counted only once confirmed on seeds 10-19; the confirmation sweep has run and none of them holds
# there, each judged not reproduced):
#
# * the first two tests in the official configuration (`forgetting-halved-official`,
#   `acc-not-below-l2p-official`), every learner retrained in it (added when the page gained its comparators);
# * added after the independent review, for the paper's own evidence (Table 2 beside Table 1's backbone), each
#   with a null model as its ablation:
#   3. *The prompt loss cuts forgetting* (`prompt-loss-cuts-forgetting`): forgetting($\mathcal L_P$ only) /
#      forgetting(adapter) $\le 0.9$, at least a tenth less forgetting; with the tolerance band of $0.1$ that the
#      forgetting ratios share, a pass needs a ratio below $0.8$, a fifth less (paper: 0.65, 0.78 and 0.80 on NExT-QA,
#      DramaQA and STAR; all three losses against $\mathcal L_Q+\mathcal L_V$: 0.81, 0.82, 0.82; these are the
#      favourable pairs of a mixed Table 2, see above). Ablation: the
#      null $\mathcal L_P$ (random types); baselines: the L2P-style pool, replay, EWC tuned for forgetting, the
#      slower adapters (added after the second review). We
#      add $\mathcal L_P$ to the plain adapter rather than to $\mathcal L_Q+\mathcal L_V$ because in our
#      miniature the binding losses already fail without any stream (see the verdict); the other pair is
#      shown beside it.
#   4. *The question loss binds* (`question-loss-binds`): ACC($\mathcal L_Q$ only) $-$ ACC(adapter) $> 0$
#      points, outside the tolerance band of 3 points, so a gain of more than 3 points (paper: $+14.6$, $+10.4$,
#      $+2.8$; its STAR gain would fail it). Ablation: the null $\mathcal L_Q$ (another sample's question as target;
#      changed after the second review, see above); baselines: replay, EWC tuned for accuracy.
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
#   DAM, ProgPrompt and ColPro are not run. Replay and EWC are not in the paper's tables: they are the naive
#   baselines a skeptic would try. EWC's penalties were tuned at ci scale only; a full-scale run uses them
#   unchanged.
# * The official code never selects prompts at test time; prompt-selection accuracy is our read-out of the
#   separation $\mathcal L_P$ trains for, and for L2P the accuracy of its key matching.
# * Scale: 200 training and 100 test questions per task and 3 seeds at ci scale (500/250 and 5 at full).

# %%
q_emb, a_emb = K.text_embeddings()  # MiniLM, from the committed cache
seeds = [seed * P.n_seeds + i for i in range(P.n_seeds)]
stream = K.make_stream(seeds, P.n_train, P.n_test, q_emb, a_emb)
TRAINED = MAIN + BASE
JOINT = ["adapter", "lq-only", "lq+lv", "bisecle"]
DIAG = ["lq+lv", "bisecle"]
# official q-bar: 10 video features in a 128-token sequence; our 8 video tokens keep that share when the
# question counts as 8 * 118 / 10 = 94 tokens
CFG_Q = replace(CFG, q_tokens=94)
jobs = {
    "main": lambda: K.continual_train(stream, TRAINED, CFG, init_seed=seed),
    "official": lambda: K.continual_train(stream, OFFICIAL, CFG_OFF, init_seed=seed, type_weight=1.0 / P.n_train),
    "joint": lambda: K.continual_train(stream, JOINT, CFG, init_seed=seed, joint=True),
    # post-hoc diagnostic (added after the first run): the question weighted in q-bar as in the official code,
    # all types mixed in each batch; and (added after the review) in the stream with L_P at its full weight
    "joint-q94": lambda: K.continual_train(stream, ["bisecle"], CFG_Q, init_seed=seed, joint=True),
    "stream-q94": lambda: K.continual_train(stream, ["bisecle"], CFG_Q, init_seed=seed),
    # the no-op (shown, not a comparator): the adapter as initialised, in effect never updated (one step per
    # task at a learning rate of 1e-12)
    "noop": lambda: K.continual_train(stream, ["adapter"], replace(CFG, lr=1e-12, steps=1), init_seed=seed),
    # added after the second review: the slower adapters in both configurations (baselines of the forgetting
    # tests); and, shown beside the tests, not comparators: Bisecle at a tenth of the learning rate, Bisecle with
    # its binding losses at a tenth of their weight and with L_P at ten times its weight, replay of 100 per task
    **{m: (lambda d=d: K.continual_train(stream, ["adapter"], replace(CFG, lr=CFG.lr / d), init_seed=seed))
       for m, d in SLOW.items()},
    **{m + "-off": (lambda d=d: K.continual_train(stream, ["adapter"], replace(CFG_OFF, lr=CFG_OFF.lr / d),
                                                   init_seed=seed, type_weight=1.0 / P.n_train))
       for m, d in SLOW.items()},
    "bisecle-lr10": lambda: K.continual_train(stream, ["bisecle"], replace(CFG, lr=CFG.lr / 10), init_seed=seed),
    "variants": lambda: K.continual_train(stream, ["bisecle-w0.1", "bisecle-lpx10"], CFG, init_seed=seed),
    "replay100": lambda: K.continual_train(stream, ["replay"], replace(CFG, buffer_per_task=100), init_seed=seed),
}
runs = {name: job() for name, job in progress(jobs.items(), total=len(jobs), desc="training")}

acc = {m: runs["main"]["acc"][i] for i, m in enumerate(TRAINED)}  # (S, 4, 4) per method
acc["probe"] = K.per_task_probe(stream)
acc["noop"] = runs["noop"]["acc"][0]
sel = {m: runs["main"]["selection"][i] for i, m in enumerate(TRAINED)}  # (S, 4)
acc_off = {m: runs["official"]["acc"][i] for i, m in enumerate(OFFICIAL)}
for m in SLOW:
    acc[m], acc_off[m] = runs[m]["acc"][0], runs[m + "-off"]["acc"][0]
SHOWN = {"bisecle-lr10": runs["bisecle-lr10"]["acc"][0], "bisecle-w0.1": runs["variants"]["acc"][0],
         "bisecle-lpx10": runs["variants"]["acc"][1], "replay100": runs["replay100"]["acc"][0]}
sel_off = {m: runs["official"]["selection"][i] for i, m in enumerate(OFFICIAL)}
joint = {m: runs["joint"]["acc"][i, :, 0].mean(-1) for i, m in enumerate(JOINT)}  # (S,)
# the naive task selector: nearest centroid of the frozen MiniLM question embeddings, per seed
sel_centroid = np.array([K.nearest_centroid_task_accuracy(q_emb[stream.train["q"][s]], stream.train["task"][s],
                                                          q_emb[stream.test["q"][s]], stream.test["task"][s])
                         for s in range(len(seeds))])
METHODS = ["adapter", "l2p", "replay", "ewc", "ewc-fgt", *SLOW, "probe", "noop"] + MAIN[1:]
ACC = {m: np.array([average_accuracy(A) for A in acc[m]]) for m in METHODS}
FGT = {m: np.array([forgetting(A) for A in acc[m]]) for m in METHODS}
ACC_OFF = {m: np.array([average_accuracy(A) for A in acc_off[m]]) for m in acc_off}
FGT_OFF = {m: np.array([forgetting(A) for A in acc_off[m]]) for m in acc_off}
for m, A in SHOWN.items():
    ACC[m], FGT[m] = np.array([average_accuracy(a) for a in A]), np.array([forgetting(a) for a in A])
# forward transfer (added after the second review): the accuracy on task j after training up to task j - 1, over
# the untrained adapter's (the no-op's) on task j, averaged over j = 2, 3, 4; per seed
acc_all = {m: runs["main"]["acc_all"][i] for i, m in enumerate(TRAINED)}
FWT_WHO = ["adapter", "l2p", "replay", "ewc", "lq-only", "lv-only", "lp-only", "lq+lv", "bisecle", "lq-shuffled"]
FWT = {m: np.mean([acc_all[m][:, j - 1, j] - runs["noop"]["acc_all"][0][:, j - 1, j] for j in range(1, 4)], 0)
       for m in FWT_WHO}
for m in ("probe",):  # the probe does not depend on the configuration
    ACC_OFF[m], FGT_OFF[m] = ACC[m], FGT[m]
for m in METHODS:
    print(f"{LABEL[m]:42s} ACC {100 * ACC[m].mean():5.1f} ± {100 * ACC[m].std():4.1f}   "
          f"forgetting {100 * FGT[m].mean():5.1f} ± {100 * FGT[m].std():4.1f}")
for m in joint:
    print(f"joint training, {LABEL[m]:26s} ACC {100 * joint[m].mean():5.1f} ± {100 * joint[m].std():4.1f}")

# %% [markdown]
# ## Results
#
# Each panel follows one learner through the stream: the accuracy on each task (one line per task) after
# each training stage, mean over seeds with error bars of one standard deviation.

# %%
TASK_NAMES = [t.capitalize() for t in K.TASKS]
colors = plt.cm.viridis(np.linspace(0, 0.9, 4))
PANELS = [m for m in METHODS if m not in ("probe", "noop")]  # their matrices are flat: see the table below
fig, axes = plt.subplots(4, 4, figsize=(11, 8.4), sharex=True, sharey=True)
for ax, m in zip(axes.flat, PANELS):
    A = 100 * acc[m]
    for j in range(4):
        x = np.arange(j, 4) + 1
        mu, sd = np.nanmean(A[:, j:, j], 0), np.nanstd(A[:, j:, j], 0)
        ax.errorbar(x, mu, yerr=sd, fmt="o-", ms=4, capsize=2, color=colors[j], label=f"task {j + 1}: {TASK_NAMES[j]}")
    ax.axhline(25, color="grey", ls=":", lw=1)
    ax.set_title(LABEL[m], fontsize=9)
for ax in axes.flat[len(PANELS):]:
    ax.set_visible(False)
for ax in axes.flat[len(PANELS) - 4:len(PANELS)]:  # the lowest panel of each column
    ax.set_xlabel("tasks trained")
    ax.xaxis.set_tick_params(labelbottom=True)
for ax in axes[:, 0]:
    ax.set_ylabel("test accuracy (%)")
axes[0, 0].legend(fontsize=6, loc="lower left")
axes[0, 0].set_xticks([1, 2, 3, 4])
fig.suptitle(f"Accuracy on each task through the stream ({len(seeds)} seeds, bars: ±1 sd; dotted: chance)")
fig.set_dpi(50)  # fourteen panels: a lighter image keeps the page under 1 MB
plt.show()

# %% [markdown]
# Final accuracy against forgetting, ours on the left (mean ± sd over seeds; the dashed lines mark
# joint training, the upper bound), the paper's NExT-QA numbers on the right (Tables 1 and 2).
# A good learner sits at the top left. The plain adapter ends at an ACC of {glue:text}`acc_adapter:.1f` %
# with {glue:text}`fgt_adapter:.1f` points of forgetting, Bisecle at {glue:text}`acc_bisecle:.1f` % and
# {glue:text}`fgt_bisecle:.1f` points, the L2P-style pool at {glue:text}`acc_l2p:.1f` % and
# {glue:text}`fgt_l2p:.1f` points; replay reaches {glue:text}`acc_replay:.1f` %, EWC tuned for forgetting
# {glue:text}`acc_ewcfgt:.1f` % with {glue:text}`fgt_ewcfgt:.1f` points of forgetting, and the per-task probe,
# the reference, {glue:text}`acc_probe:.1f` % (seed 0, mean over its seeds).

# %%
PAPER = {  # NExT-QA: (ACC %, forgetting %), Tables 1 and 2 of the paper
    "adapter": (46.58, 13.83), "l2p": (48.82, 12.25), "bisecle": (62.37, 5.34), "lq-only": (61.13, 6.63),
    "lv-only": (53.94, 9.61), "lp-only": (55.82, 8.93), "lq+lv": (59.78, 6.58), "lv+lp": (51.95, 11.73),
    "lq+lp": (61.38, 7.20),
}
REFERENCE = ("probe", "noop")  # shown, not comparators
mcol = dict(zip(METHODS, plt.cm.tab20(np.linspace(0, 1, len(METHODS)))))
fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.2))
for m in METHODS:
    a1.errorbar(100 * FGT[m].mean(), 100 * ACC[m].mean(), xerr=100 * FGT[m].std(), yerr=100 * ACC[m].std(),
                fmt="o" if m in PAPER else "*" if m in REFERENCE else "D", ms=10 if m in REFERENCE else 6,
                color=mcol[m], label=LABEL[m], capsize=3)
    if m in PAPER:
        a2.plot(PAPER[m][1], PAPER[m][0], "s", color=mcol[m], label=LABEL[m])
for m, ls in (("adapter", "--"), ("lq+lv", ":"), ("bisecle", "-.")):
    a1.axhline(100 * joint[m].mean(), color=mcol[m], ls=ls, lw=1, label=f"joint training, {LABEL[m]}")
a1.set_xlabel("forgetting (percentage points)")
a1.set_ylabel("final average accuracy ACC (%)")
a1.set_title("miniature (synthetic video QA, 4 tasks; diamonds: naive baselines, stars: references)", fontsize=8)
a1.legend(fontsize=5.5, ncol=2)
a2.set_xlabel("forgetting (percentage points)")
a2.set_ylabel("final average accuracy (%)")
a2.set_title("paper, NExT-QA (8 tasks, LLaMA-Adapter)", fontsize=9)
a2.legend(fontsize=7)
fig.set_dpi(72)
plt.show()

# %% [markdown]
# Prompt selection without a task id (an illustration, not a test): after $k$ tasks, the share of the seen tasks'
# test questions whose query-weighted prompt is closest to their own type embedding (for L2P: whose chosen key
# stands for their own type). Chance is $1/k$; a model that sends every question to the same type also scores
# $1/k$.

# %%
fig, ax = plt.subplots(figsize=(7, 4.5))
k = np.arange(1, 5)
for m in ["bisecle", "lp-only", "lq+lp", "lv+lp", "lq+lv", "lp-shuffled", "adapter", "l2p"]:
    s = 100 * sel[m]
    ax.errorbar(k, s.mean(0), yerr=s.std(0), fmt="o-", capsize=3, color=mcol[m], label=LABEL[m])
ax.plot(k, 100 / k, "k:", lw=2, zorder=5, label="chance, 1/k")
ax.plot([4], [100 * sel_centroid.mean()], "k*", ms=12, label=LABEL["centroid"] + ", 4 tasks")
ax.axhline(90, color="red", ls="--", lw=1, label="the brief's level (90%)")
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
# question counted as 94 tokens, the official share) with all types mixed (joint training), and, added after
# the review, in the stream with $\mathcal L_P$ at its full weight; the official configuration has the same
# $\bar q$ but also the official type weight, which divides $\mathcal L_P$ by the number of training questions
# of a type. With the question weighted as officially and all types mixed in each batch, Bisecle's prompts
# identify {glue:text}`diag_mixed_q94:.0f` % of the test questions; in the stream with the same $\bar q$ and
# $\mathcal L_P$ at full weight, {glue:text}`diag_stream_q94:.0f` %; in the official configuration,
# {glue:text}`diag_stream_off:.0f` %.

# %%
diag = {("ours", "stream"): {m: runs["main"]["selection"][TRAINED.index(m), :, -1] for m in DIAG},
        ("ours", "mixed"): {m: runs["joint"]["selection"][JOINT.index(m), :, 0] for m in DIAG},
        ("official share,\nL_P full weight", "stream"): {"bisecle": runs["stream-q94"]["selection"][0, :, -1]},
        ("official config.,\nL_P x 1/n_type", "stream"): {"bisecle": runs["official"]["selection"][
            OFFICIAL.index("bisecle"), :, -1]},
        ("official share,\nL_P full weight", "mixed"): {"bisecle": runs["joint-q94"]["selection"][0, :, 0]}}
fig, ax = plt.subplots(figsize=(9, 4.5))
width = 0.38
for i, m in enumerate(DIAG):
    xs = [j for j, d in enumerate(diag.values()) if m in d]
    vals = [100 * d[m] for d in diag.values() if m in d]
    ax.bar(np.array(xs) + (i - 0.5) * width, [v.mean() for v in vals], width, yerr=[v.std() for v in vals],
           capsize=3, color=mcol[m], label=LABEL[m])
ax.axhline(25, color="k", ls=":", lw=1.5, label="chance over 4 types")
ax.axhline(90, color="red", ls="--", lw=1, label="the brief's level")
ax.set_xticks(np.arange(len(diag)), [f"q-bar: {a}\n{b} batches" for a, b in diag], fontsize=7)
ax.set_ylabel("prompt-selection accuracy, 4 types (%)")
ax.set_ylim(0, 105)
ax.legend(fontsize=8, loc="upper left")
fig.set_dpi(72)
plt.show()
glue("diag_mixed_q94", float(100 * diag[("official share,\nL_P full weight", "mixed")]["bisecle"].mean()),
     display=False)
glue("diag_stream_q94", float(100 * diag[("official share,\nL_P full weight", "stream")]["bisecle"].mean()),
     display=False)
glue("diag_stream_off", float(100 * diag[("official config.,\nL_P x 1/n_type", "stream")]["bisecle"].mean()),
     display=False)
acc_q94 = np.array([average_accuracy(A) for A in runs["stream-q94"]["acc"][0]])
glue("diag_stream_q94_gap", float(100 * (acc_q94.mean() - ACC["l2p"].mean())), display=False)

# %%
fig, axes = plt.subplots(1, 4, figsize=(13, 3.4))
for ax, m in zip(axes, ["adapter", "l2p", "replay", "bisecle"]):
    plot_accuracy_matrix(ax, acc[m].mean(0), title=f"{LABEL[m]} (mean of {len(seeds)} seeds)")
fig.set_dpi(72)
plt.show()

# %% [markdown]
# **Forward transfer** (added after the second review; an illustration, not a test). The abstract's "cross-task
# generalisation" has no number in the paper; in the miniature the nearest measure is forward transfer: the accuracy
# on a task after training on the tasks before it only, less the untrained adapter's on that task, averaged over tasks
# 2 to 4 (points; mean over seeds in the table). Bisecle's is {glue:text}`fwt_bisecle:.1f`, the plain adapter's
# {glue:text}`fwt_adapter:.1f`, L2P's {glue:text}`fwt_l2p:.1f`, $\mathcal L_Q$ only {glue:text}`fwt_lqonly:.1f` and
# its null {glue:text}`fwt_lqshuf:.1f` (seed 0, mean over its seeds).

# %%
display(Markdown("\n".join(["| learner | forward transfer (points) |", "|---|---|"] + [
    f"| {LABEL[m]} | {100 * FWT[m].mean():.1f} ± {100 * FWT[m].std():.1f} |" for m in FWT])))

# %% [markdown]
# ### The paper's numbers beside ours
#
# ACC and forgetting in %; ours: mean ± sd over seeds at this scale, in the pre-registered and in the
# official configuration. The per-task probe and the no-op are references, not comparators.

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
# Each test's measured value for the paper's learner (red), its ablation (orange) and the naive baselines (blue),
# in the pre-registered configuration (solid) and, for the first two tests, in the official one (pale); the dashed
# line is the threshold, the grey band the declared tolerance around it (a value inside it is "at the edge").
# Values are means over the seeds of this run, as the tests record them.

# %%
def ratio(F, m):
    """Forgetting of learner m over the plain adapter's, ratio of the means over seeds."""
    return float(F[m].mean() / F["adapter"].mean())


def gap(A, m, ref="l2p"):
    """Final ACC of learner m minus that of ``ref``, points."""
    return float(100 * (A[m].mean() - A[ref].mean()))


WHO = {  # test -> (the paper's learner, ablation, baselines)
    "forgetting-halved": ("bisecle", "lp-only", ["l2p", "replay", "ewc", "ewc-fgt", *SLOW]),
    "acc-not-below-l2p": ("bisecle", "lv+lp", ["adapter", "replay", "ewc"]),
    "prompt-loss-cuts-forgetting": ("lp-only", "lp-shuffled", ["l2p", "replay", "ewc-fgt", *SLOW]),
    "question-loss-binds": ("lq-only", "lq-shuffled", ["replay", "ewc"]),
}
OFFICIAL_TESTS = ("forgetting-halved", "acc-not-below-l2p")
MEASURE = {"forgetting-halved": lambda A, F, m: ratio(F, m),
           "acc-not-below-l2p": lambda A, F, m: gap(A, m),
           "prompt-loss-cuts-forgetting": lambda A, F, m: ratio(F, m),
           "question-loss-binds": lambda A, F, m: gap(A, m, ref="adapter")}
v = {t: {m: MEASURE[t](ACC, FGT, m) for m in [w[0], w[1], *w[2]]} for t, w in WHO.items()}
v_off = {t: {m: MEASURE[t](ACC_OFF, FGT_OFF, m) for m in [w[0], w[1], *w[2]]}
         for t, w in WHO.items() if t in OFFICIAL_TESTS}
TOL_RATIO = tolerance(abs=0.1, why="ratio of forgetting after AdamW training through the stream, 100 test "
                                   "questions per task")
TOL_GAP = tolerance(abs=3.0, why="difference of accuracies (points) after AdamW training through the stream, 3 seeds")
TOL = {"forgetting-halved": TOL_RATIO, "acc-not-below-l2p": TOL_GAP, "prompt-loss-cuts-forgetting": TOL_RATIO,
       "question-loss-binds": TOL_GAP}
CRIT = {"forgetting-halved": at_most(0.5), "acc-not-below-l2p": at_least(-1.0),
        "prompt-loss-cuts-forgetting": at_most(0.9), "question-loss-binds": greater_than(0.0)}
THR = {"forgetting-halved": 0.5, "acc-not-below-l2p": -1.0, "prompt-loss-cuts-forgetting": 0.9,
       "question-loss-binds": 0.0}
UNIT = {"forgetting-halved": "forgetting / adapter's forgetting", "acc-not-below-l2p": "ACC minus L2P's (points)",
        "prompt-loss-cuts-forgetting": "forgetting / adapter's forgetting",
        "question-loss-binds": "ACC minus the adapter's (points)"}
fig, axes = plt.subplots(1, 4, figsize=(17, 3.8))
for ax, (t, (meth, abl, base)) in zip(axes, WHO.items()):
    who = [meth, abl, *base]
    y = np.arange(len(who))[::-1]
    col = ["C3" if m == meth else "C1" if m == abl else "C0" for m in who]
    off = t in OFFICIAL_TESTS
    ax.barh(y + (0.2 if off else 0), [v[t][m] for m in who], 0.4 if off else 0.6, color=col, label="pre-registered")
    if off:
        ax.barh(y - 0.2, [v_off[t][m] for m in who], 0.4, color=col, alpha=0.45, label="official config.")
    ax.axvline(THR[t], color="k", ls="--", lw=1)
    ax.axvspan(THR[t] - TOL[t].abs, THR[t] + TOL[t].abs, color="0.85", zorder=0)
    ax.set_yticks(y, [LABEL[m] for m in who], fontsize=7)
    ax.set_xlabel(UNIT[t], fontsize=8)
    ax.set_title(t + ("" if t in OFFICIAL_TESTS else " (post hoc)"), fontsize=9)
axes[0].legend(fontsize=7)
fig.suptitle(f"Each test: the paper's learner (red), its ablation (orange), the naive baselines (blue); seed {seed}")
fig.set_dpi(65)
plt.show()

# %%
claims.headline("mitigates-forgetting",
                "In parameter-efficient continual VideoQA (a frozen VLM, a small adapter, one question type after "
                "another), Bisecle mitigates catastrophic forgetting: it forgets far less than the plain adapter and "
                "ends more accurate than prompt-based continual learners such as L2P",
                tests=["forgetting-halved", "forgetting-halved-official", "acc-not-below-l2p",
                       "acc-not-below-l2p-official"])
claims.headline("binding",
                "Multi-directional supervision (binding: predicting the question and the video as well as the "
                "answer) captures cross-modal relationships that make the answers better",
                tests=["question-loss-binds"])
claims.headline("separation",
                "Contrastive prompt learning (pattern separation) isolates task-specific knowledge in the prompts, "
                "so that the model forgets less",
                tests=["prompt-loss-cuts-forgetting"])
claims.headline("generalises-on-benchmarks",
                "Together they enhance cross-task generalisation on several VideoQA benchmarks",
                untestable="the claim is about NExT-QA, DramaQA and STAR with a LLaMA-based VLM, which cannot run "
                           "here, and the paper gives no number for it; in the miniature, forward transfer (accuracy "
                           "on a task before it is trained) is shown as an illustration (forward-transfer), not counted")

INGREDIENT = {"forgetting-halved": "the binding losses L_Q and L_V (multi-directional supervision)",
              "acc-not-below-l2p": "the question-prediction loss L_Q, which the paper's ablation credits most",
              "prompt-loss-cuts-forgetting": "the task identity in L_P (which type's embedding each prompt is pulled "
                                             "towards): the same loss towards a random seen type",
              "question-loss-binds": "the video-answer-question correspondence that L_Q learns: the same loss with each "
                                     "sample's question target replaced by that of another sample of its batch"}
CLABEL = {  # comparator labels, per test where they differ
    ("forgetting-halved", "lp-only"): "Bisecle without L_Q and L_V (L_P only; paper: 0.65)",
    ("forgetting-halved", "l2p"): "L2P-style prompt pool (paper: 0.89)",
    ("acc-not-below-l2p", "lv+lp"): "Bisecle without L_Q (L_V+L_P; paper: +3.1 points)",
    ("acc-not-below-l2p", "adapter"): "plain adapter, sequential fine-tuning (paper: -2.2 points)",
    ("prompt-loss-cuts-forgetting", "lp-shuffled"): "the adapter with the null L_P (a random seen type per sample)",
    ("prompt-loss-cuts-forgetting", "l2p"): "L2P-style prompt pool (paper: 0.89)",
    ("question-loss-binds", "lq-shuffled"): "the adapter with the null L_Q (the question of another sample of the "
                                            "batch as target)",
}
BLABEL = {"replay": "fine-tuning with a replay buffer of 20 samples per finished task",
          "ewc": "fine-tuning with online EWC, penalty tuned for final ACC on streams no test uses",
          "ewc-fgt": "fine-tuning with online EWC, penalty tuned for least forgetting at no loss of ACC, on streams "
                     "no test uses",
          "adapter-lr3": "plain adapter at a third of the learning rate (a slower learner)",
          "adapter-lr10": "plain adapter at a tenth of the learning rate (a slower learner)"}
STATEMENT = {
    "forgetting-halved": "Bisecle's forgetting is at most half that of the plain adapter trained sequentially",
    "acc-not-below-l2p": "Bisecle's final average accuracy is not more than 1 point below the L2P-style pool's",
    "prompt-loss-cuts-forgetting": "adding the contrastive prompt loss L_P to the plain adapter cuts its forgetting "
                                   "by at least a tenth",
    "question-loss-binds": "adding the question-prediction loss L_Q to the plain adapter raises its final average "
                           "accuracy by more than the 3-point tolerance",
}
PAPER_TXT = {
    "forgetting-halved": "NExT-QA forgetting 5.34 vs 13.83 (ratio 0.39); DramaQA 0.43; STAR 0.66 (Table 1)",
    "acc-not-below-l2p": "NExT-QA ACC 62.37 vs 48.82 (+13.6 points); backbone 46.58 (-2.2) (Table 1)",
    "prompt-loss-cuts-forgetting": "forgetting with L_P only over the backbone's: 8.93/13.83 = 0.65 (NExT-QA), "
                                   "0.78 (DramaQA), 0.80 (STAR); all three losses over L_Q+L_V: 0.81, 0.82, 0.82 "
                                   "(Tables 1 and 2)",
    "question-loss-binds": "ACC with L_Q only minus the backbone's: 61.13 - 46.58 = +14.6 (NExT-QA), +10.4 "
                           "(DramaQA), +2.8 (STAR) (Tables 1 and 2)",
}
OFFICIAL_SETTING = ("official configuration: q-bar with the question's official share (94 of 102 tokens), L_P "
                    "weighted per sample by 1 / (training questions of its type), per-task warm-up and cosine "
                    "learning rate, learning rate 0.09 x 32 / 256; EWC's penalties tuned in it")
POST_HOC = {
    "prompt-loss-cuts-forgetting": "added after the independent review: the separation headline is mapped to the "
                                   "paper's own evidence for L_P (Table 2 beside Table 1's backbone) instead of "
                                   "test-time prompt selection, which the official model never performs",
    "question-loss-binds": "added after the independent review: the binding headline ('captures cross-modal "
                           "relationships') is mapped to the paper's row L_Q only against its backbone, with a null "
                           "L_Q as the ablation; after the second review the null was changed from a fixed "
                           "relabelling of the questions (a bijection, which carries the same information) to the "
                           "question of another sample of the batch",
}
for t, crit in CRIT.items():  # the criteria are the brief's constants (and the paper's, for the post-hoc tests)
    meth, abl, base = WHO[t]
    for suffix, vals in (("", v), ("-official", v_off)):
        if suffix and t not in OFFICIAL_TESTS:
            continue
        extra = dict(setting=OFFICIAL_SETTING,
                     post_hoc="added when the page gained its comparators (issue 32): the brief asks that a departure "
                              "from the official code that can move a test be run with the official values; every "
                              "learner is retrained in that configuration, the method and the criterion are "
                              "unchanged") if suffix else ({"post_hoc": POST_HOC[t]} if t in POST_HOC else {})
        claims.test(
            t + suffix, statement=STATEMENT[t] + (" (official configuration)" if suffix else ""),
            paper=PAPER_TXT[t], criterion=crit, measured=vals[t][meth], tol=TOL[t],
            ablation=Comparator(CLABEL[(t, abl)], vals[t][abl], ingredient=INGREDIENT[t]),
            baselines=[Comparator(CLABEL.get((t, b), BLABEL.get(b, LABEL[b])), vals[t][b]) for b in base],
            **extra)

# forward transfer (added after the second review): the abstract's "cross-task generalisation" in the miniature
claims.illustrate(
    "forward-transfer",
    statement="Bisecle's forward transfer (accuracy on a task before it is trained, over the untrained adapter's, "
              "mean over tasks 2 to 4) exceeds the plain adapter's",
    paper="no number: the abstract says binding and separation enhance cross-task generalisation",
    criterion=greater_than(0.0), measured=float(100 * (FWT["bisecle"].mean() - FWT["adapter"].mean())),
    why="the paper reports no measure of cross-task generalisation, so neither the measure nor a threshold comes "
        "from it; chosen after the page had run (the second review), shown and not counted",
    tol=tolerance(abs=3.0, why="difference of accuracies (points) after AdamW training through the stream, 3 seeds"))

# prompt selection after the last task: the brief's third check, now an illustration
sel_last = {m: float(x[:, -1].mean()) for m, x in sel.items()}
sel_last_off = {m: float(x[:, -1].mean()) for m, x in sel_off.items()}
SEL_WHY = ("not a test of the paper: the official model never selects a prompt at test time (every prompt row is "
           "attended in every layer); our template questions give their type away (the nearest centroid of the frozen "
           "question embeddings identifies it with no training); and without L_P the type embeddings get no gradient, "
           "so the ablation is at chance by construction")
for suffix, s_last in (("", sel_last), ("-official", sel_last_off)):
    claims.illustrate(
        "prompt-selection" + suffix,
        statement="with the contrastive prompt loss, the query-weighted prompt identifies the task of at least 90% of "
                  "the test questions after the last task" + (" (official configuration)" if suffix else ""),
        paper="not reported as a number; L_P is meant to isolate task-specific knowledge in the prompts",
        criterion=at_least(0.9), measured=s_last["bisecle"], why=SEL_WHY,
        tol=tolerance(abs=0.05, why="share of 400 test questions after AdamW training through the stream"))

KEY = {"lp-only": "lponly", "lv+lp": "lvlp", "lq+lv": "lqlv", "lq-only": "lqonly", "lv-only": "lvonly",
       "lq+lp": "lqlp", "lq-shuffled": "lqshuf", "lp-shuffled": "lpshuf", "ewc-fgt": "ewcfgt",
       "adapter-lr3": "adapterlr3", "adapter-lr10": "adapterlr10"}
for t, vals in v.items():
    for m, x in vals.items():
        glue(f"{t}_{KEY.get(m, m)}", x, display=False)
for t, vals in v_off.items():
    for m, x in vals.items():
        glue(f"{t}-official_{KEY.get(m, m)}", x, display=False)
for m in METHODS:
    glue(f"acc_{KEY.get(m, m)}", float(100 * ACC[m].mean()), display=False)
    glue(f"fgt_{KEY.get(m, m)}", float(100 * FGT[m].mean()), display=False)
for m in JOINT:
    glue(f"joint_{KEY.get(m, m)}", float(100 * joint[m].mean()), display=False)
glue("joint_cost_bisecle", float(100 * (joint["adapter"].mean() - joint["bisecle"].mean())), display=False)
for m in ["bisecle", "lq+lv", "l2p", "lp-only"]:
    glue(f"sel_{KEY.get(m, m)}", 100 * sel_last[m], display=False)
glue("sel_centroid", float(100 * sel_centroid.mean()), display=False)
glue("sel_bisecle_min", float(100 * sel["bisecle"][:, -1].min()), display=False)
glue("sel_bisecle_max", float(100 * sel["bisecle"][:, -1].max()), display=False)
glue("sel_official_bisecle", 100 * sel_last_off["bisecle"], display=False)
glue("ratio_bisecle_over_lqlv", float(FGT["bisecle"].mean() / FGT["lq+lv"].mean()), display=False)
glue("acc_bisecle_minus_lqlv", gap(ACC, "bisecle", ref="lq+lv"), display=False)
glue("noop_ratio", ratio(FGT, "noop"), display=False)
glue("noop_gap", gap(ACC, "noop"), display=False)
glue("probe_gap", gap(ACC, "probe"), display=False)
glue("ewc_gap_adapter", gap(ACC, "ewc-fgt", ref="adapter"), display=False)
glue("lam_acc", CFG.ewc_lambda, display=False)
glue("lam_fgt", CFG.ewc_lambda_fgt, display=False)
glue("lam_acc_off", CFG_OFF.ewc_lambda, display=False)
glue("lam_fgt_off", CFG_OFF.ewc_lambda_fgt, display=False)
for name, m in (("ewc", "ewc"), ("ewcfgt", "ewc-fgt")):
    glue(f"off_ratio_{name}", ratio(FGT_OFF, m), display=False)
    glue(f"off_gap_{name}", gap(ACC_OFF, m), display=False)
glue("gap_ewcfgt", gap(ACC, "ewc-fgt"), display=False)
# added after the second review: the slower adapters, Bisecle at a tenth of the learning rate and other loss weights,
# replay of 100 per task, forward transfer, and the paper's numbers that the prose cites
for m in ("adapter-lr3", "adapter-lr10", "bisecle-lr10", "bisecle-w0.1", "bisecle-lpx10", "replay100"):
    k = m.replace("-", "_").replace(".", "")
    glue(f"ratio_{k}", ratio(FGT, m), display=False)
    glue(f"gapl2p_{k}", gap(ACC, m), display=False)
    glue(f"acc_{k}", float(100 * ACC[m].mean()), display=False)
for m in SLOW:
    k = m.replace("-", "_")
    glue(f"off_ratio_{k}", ratio(FGT_OFF, m), display=False)
    glue(f"off_gap_{k}", gap(ACC_OFF, m), display=False)
glue("ratio_bisecle_lr10_over_adapter_lr10", float(FGT["bisecle-lr10"].mean() / FGT["adapter-lr10"].mean()),
     display=False)
for m in FWT:
    glue(f"fwt_{KEY.get(m, m)}", float(100 * FWT[m].mean()), display=False)
glue("paper_acc_gap", PAPER["bisecle"][0] - PAPER["l2p"][0], display=False)
glue("paper_lq_gain", PAPER["lq-only"][0] - PAPER["adapter"][0], display=False)
glue("paper_lp_ratio", PAPER["lp-only"][1] / PAPER["adapter"][1], display=False)
glue("paper_bis_over_lqlv", PAPER["bisecle"][1] / PAPER["lq+lv"][1], display=False)
glue("ratio_ewc", ratio(FGT, "ewc"), display=False)

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
# That badge holds in a miniature where the binding losses already cost accuracy before any stream, and where a
# naive baseline passes each counted test: had Bisecle passed them, they could at best have been "not specific".
#
# **First, a failed precondition.** In this miniature the binding losses hurt the answer task before any
# forgetting can happen. Trained on the four tasks mixed (joint training, no stream at all), the plain adapter
# reaches {glue:text}`joint_adapter:.0f` % and Bisecle {glue:text}`joint_bisecle:.0f` %, which is
# {glue:text}`joint_cost_bisecle:.0f` points less; $\mathcal L_Q$ alone reaches {glue:text}`joint_lqonly:.0f` % and
# $\mathcal L_Q+\mathcal L_V$ {glue:text}`joint_lqlv:.0f` %. In the paper $\mathcal L_Q$ is the single most useful
# loss. So the tests below say little about the paper: they say that our stand-in for its losses does not work, not
# that its losses do not. In the stream, too, the plain adapter (ACC {glue:text}`acc_adapter:.1f` %) and
# $\mathcal L_P$ only ({glue:text}`acc_lponly:.1f` %) end well above Bisecle ({glue:text}`acc_bisecle:.1f` %). The
# numbers below are this page's run at seed 0 (a mean over its seeds); the judged table gives every test's status
# over the ci sweep.
#
# * *Forgetting halved* ({repro-status}`forgetting-halved`; official configuration
#   {repro-status}`forgetting-halved-official`). Bisecle forgets more than the plain adapter, not half as
#   much: the ratio is {glue:text}`forgetting-halved_bisecle:.2f` ({glue:text}`fgt_bisecle:.0f` against
#   {glue:text}`fgt_adapter:.0f` points), {glue:text}`forgetting-halved-official_bisecle:.2f` in the official
#   configuration; it fails the criterion at {repro-seeds}`forgetting-halved:method:fail` seeds of the ci sweep.
#   Its ablation without the binding losses ($\mathcal L_P$ only) is at {glue:text}`forgetting-halved_lponly:.2f`.
#   The test is not specific by design: a criterion on forgetting alone is met by a learner that learns less. The
#   plain adapter at a tenth of the learning rate reaches {glue:text}`forgetting-halved_adapterlr10:.2f` (ACC
#   {glue:text}`acc_adapter_lr10:.1f` %), passing at {repro-seeds}`forgetting-halved:baseline6:pass` seeds, and at a
#   third of it {glue:text}`forgetting-halved_adapterlr3:.2f` at an ACC level with L2P's (failing at
#   {repro-seeds}`forgetting-halved:baseline5:fail` seeds); EWC tuned for the least forgetting at no loss of accuracy
#   (penalty {glue:text}`lam_fgt:.0f`, tuned on streams no test uses) reaches
#   {glue:text}`forgetting-halved_ewcfgt:.2f`, passing at {repro-seeds}`forgetting-halved:baseline4:pass` seeds and
#   at the edge at {repro-seeds}`forgetting-halved:baseline4:edge`. EWC tuned for accuracy (penalty
#   {glue:text}`lam_acc:.0f`) is at {glue:text}`forgetting-halved_ewc:.2f`, and replay at
#   {glue:text}`forgetting-halved_replay:.2f`. A smaller learning rate does not rescue the method: Bisecle at a
#   tenth of it has a ratio of {glue:text}`ratio_bisecle_lr10:.2f` to the page's adapter, under the bar, but only
#   because it barely learns (ACC {glue:text}`acc_bisecle_lr10:.1f` %, {glue:text}`gapl2p_bisecle_lr10:.1f` points
#   from L2P's), and against the adapter at the same learning rate its ratio is
#   {glue:text}`ratio_bisecle_lr10_over_adapter_lr10:.2f`: it forgets less by learning less. In the official
#   configuration, with the penalties
#   tuned there ({glue:text}`lam_acc_off:.0f` and {glue:text}`lam_fgt_off:.0f`), EWC is at
#   {glue:text}`forgetting-halved-official_ewc:.2f` and {glue:text}`forgetting-halved-official_ewcfgt:.2f`, and the
#   slower adapters at {glue:text}`forgetting-halved-official_adapterlr3:.2f` (a third of the rate; passing at
#   {repro-seeds}`forgetting-halved-official:baseline5:pass` seeds, at the edge at
#   {repro-seeds}`forgetting-halved-official:baseline5:edge`) and
#   {glue:text}`forgetting-halved-official_adapterlr10:.2f` (a tenth; passing at
#   {repro-seeds}`forgetting-halved-official:baseline6:pass`), at an ACC {glue:text}`off_gap_adapter_lr3:.1f` and
#   {glue:text}`off_gap_adapter_lr10:.1f` points from L2P's.
# * *Not below L2P* ({repro-status}`acc-not-below-l2p`; official {repro-status}`acc-not-below-l2p-official`).
#   Bisecle ends {glue:text}`acc-not-below-l2p_bisecle:.1f` points from the L2P-style pool (it fails at
#   {repro-seeds}`acc-not-below-l2p:method:fail` seeds); its ablation without $\mathcal L_Q$ at
#   {glue:text}`acc-not-below-l2p_lvlp:.1f`. This test too is not specific by design. The plain adapter is level
#   with L2P ({glue:text}`acc-not-below-l2p_adapter:.1f`; inside the tolerance band at
#   {repro-seeds}`acc-not-below-l2p:baseline1:edge` seeds): in our miniature L2P adds nothing over the adapter,
#   where the paper has it ahead of its backbone. Replay ends {glue:text}`acc-not-below-l2p_replay:.1f` points above
#   L2P and EWC tuned for accuracy {glue:text}`acc-not-below-l2p_ewc:.1f`; they pass at
#   {repro-seeds}`acc-not-below-l2p:baseline2:pass` and {repro-seeds}`acc-not-below-l2p:baseline3:pass` seeds. The
#   criterion is weaker than the claim it tests: the paper has Bisecle {glue:text}`paper_acc_gap:.2f` points ahead of
#   L2P on NExT-QA, and we only ask that it not fall more than a point behind; a sound version would ask for a gain
#   beyond the tolerance band. In the official configuration Bisecle ends
#   {glue:text}`acc-not-below-l2p-official_bisecle:.1f` points from L2P.
# * *The prompt loss cuts forgetting* (post hoc; {repro-status}`prompt-loss-cuts-forgetting`). Added to the plain
#   adapter, $\mathcal L_P$ leaves its forgetting about where it was: the ratio is
#   {glue:text}`prompt-loss-cuts-forgetting_lponly:.2f`, where the paper has {glue:text}`paper_lp_ratio:.2f` on
#   NExT-QA; it fails at {repro-seeds}`prompt-loss-cuts-forgetting:method:fail` seeds and lies inside the tolerance
#   band (a small cut at best) at {repro-seeds}`prompt-loss-cuts-forgetting:method:edge`. The null
#   $\mathcal L_P$, which pulls each prompt towards a random seen type, gives
#   {glue:text}`prompt-loss-cuts-forgetting_lpshuf:.2f`. Added to the binding losses instead (the paper:
#   {glue:text}`paper_bis_over_lqlv:.2f` on NExT-QA), $\mathcal L_P$ gives a ratio of
#   {glue:text}`ratio_bisecle_over_lqlv:.2f` (Bisecle's forgetting over that of $\mathcal L_Q+\mathcal L_V$) and
#   moves ACC by {glue:text}`acc_bisecle_minus_lqlv:.1f` points. The paper's own Table 2 is mixed on this point (see
#   the claim): the test uses its favourable pairs. Replay
#   ({glue:text}`prompt-loss-cuts-forgetting_replay:.2f`), EWC tuned for forgetting
#   ({glue:text}`prompt-loss-cuts-forgetting_ewcfgt:.2f`) and the adapter at a tenth of the learning rate
#   ({glue:text}`prompt-loss-cuts-forgetting_adapterlr10:.2f`) pass at
#   {repro-seeds}`prompt-loss-cuts-forgetting:baseline2:pass`,
#   {repro-seeds}`prompt-loss-cuts-forgetting:baseline3:pass` and
#   {repro-seeds}`prompt-loss-cuts-forgetting:baseline5:pass` seeds: not specific by design.
# * *The question loss binds* (post hoc; {repro-status}`question-loss-binds`). Adding $\mathcal L_Q$ to the plain
#   adapter changes its final ACC by {glue:text}`question-loss-binds_lqonly:.1f` points (the paper:
#   {glue:text}`paper_lq_gain:.2f` on NExT-QA); it fails at {repro-seeds}`question-loss-binds:method:fail` seeds.
#   Its null, the same loss towards the question of another sample of the batch, changes it by
#   {glue:text}`question-loss-binds_lqshuf:.1f` points. Replay ({glue:text}`question-loss-binds_replay:.1f`) and EWC
#   tuned for accuracy ({glue:text}`question-loss-binds_ewc:.1f`) pass at
#   {repro-seeds}`question-loss-binds:baseline1:pass` and {repro-seeds}`question-loss-binds:baseline2:pass` seeds:
#   not specific by design.
# * *Cross-task generalisation* (an illustration, not a test; the abstract gives no number). Forward transfer, the
#   accuracy on a task before it is trained over the untrained adapter's, is {glue:text}`fwt_bisecle:.1f` points
#   for Bisecle and {glue:text}`fwt_adapter:.1f` for the plain adapter.
# * *Prompt selection* (the brief's third check, now an illustration). With $\mathcal L_P$ the prompt-selection
#   accuracy after the last task is {glue:text}`sel_bisecle:.1f` % (from {glue:text}`sel_bisecle_min:.1f` to
#   {glue:text}`sel_bisecle_max:.1f` % over this run's seeds), $1/k$: every test question's weighted prompt points to
#   one type. Without $\mathcal L_P$ it is {glue:text}`sel_lqlv:.1f` %, L2P's key matching reaches
#   {glue:text}`sel_l2p:.1f` %, and the nearest task centroid of the frozen question embeddings, with no training at
#   all, {glue:text}`sel_centroid:.1f` %: the question gives its task away. The post-hoc diagnostic locates the
#   collapse in the stream, not in our loss (which matches the official function): with all types mixed in each
#   batch and $\bar q$ weighted as officially, $\mathcal L_P$ separates the types
#   ({glue:text}`diag_mixed_q94:.0f` %); in the stream with the same $\bar q$ and $\mathcal L_P$ at full weight it
#   does not ({glue:text}`diag_stream_q94:.0f` %), where each batch holds a single type and all positives are one
#   vector; nor in the official configuration, whose per-type weight makes $\mathcal L_P$ negligible
#   ({glue:text}`sel_official_bisecle:.1f` %).
#
# What this says about the paper: little. Our stand-in for its losses fails before the stream starts, so these
# results neither confirm nor refute it; they show that binding and separation, as losses on a small adapter over a
# random frozen network with single-token texts, do not help, and that the learners a skeptic would try first (a
# small replay buffer, EWC, a smaller learning rate) meet, between them, every criterion here that Bisecle misses,
# though not each alone: replay ({glue:text}`forgetting-halved_replay:.2f`) and EWC tuned for accuracy
# ({glue:text}`forgetting-halved_ewc:.2f`) do not halve forgetting, which the adapter at a tenth of the learning
# rate and, at this seed, EWC tuned for forgetting do. The paper's gains
# may rest on what a pre-trained LLM brings to generating the question, and on long text inputs; our miniature cannot
# tell which.
#
# ## What a skeptic would try
#
# Reviewed twice by independent reviewers (helpers that did not write the page), with the rubric, the page, the
# record and the brief. The first found the verdict honest but the tests uninformative about the paper: the binding
# losses fail without any stream; a criterion on forgetting alone is met by a learner that does not learn, and the
# per-task probe met it by construction (it was a comparator then; it is a reference now); EWC's penalty had been
# tuned for accuracy only, on seeds that overlap the sweep's; the accuracy test's criterion is weaker than its
# headline; and prompt selection is not something the official model does, while the question gives the task away.
# The second found that a slower plain adapter passes the forgetting tests (now their baselines), that the null of
# $\mathcal L_Q$ was a fixed relabelling of the questions, which carries the same information (now another sample's
# question), that the page misread the paper's Table 2 on $\mathcal L_P$, that a typed claim about Bisecle at a
# smaller learning rate was false (now measured below), and that cross-task generalisation can be read as forward
# transfer (now shown). What they tried, measured by this notebook on the same stream (seed 0, mean over its seeds):
#
# * **Joint training** (no stream): the adapter {glue:text}`joint_adapter:.1f` %, $\mathcal L_Q$ only
#   {glue:text}`joint_lqonly:.1f` %, $\mathcal L_Q+\mathcal L_V$ {glue:text}`joint_lqlv:.1f` %, Bisecle
#   {glue:text}`joint_bisecle:.1f` %.
# * **A slower learner** (the plain adapter at a tenth and at a third of the learning rate): forgetting ratios
#   {glue:text}`ratio_adapter_lr10:.2f` and {glue:text}`ratio_adapter_lr3:.2f`, ACC {glue:text}`acc_adapter_lr10:.1f`
#   and {glue:text}`acc_adapter_lr3:.1f` % ({glue:text}`gapl2p_adapter_lr10:.1f` and
#   {glue:text}`gapl2p_adapter_lr3:.1f` points from L2P); in the official configuration ratios
#   {glue:text}`off_ratio_adapter_lr10:.2f` and {glue:text}`off_ratio_adapter_lr3:.2f`. Now baselines of the
#   forgetting tests.
# * **Bisecle at a tenth of the learning rate**: forgetting ratio {glue:text}`ratio_bisecle_lr10:.2f` against the
#   page's adapter, {glue:text}`ratio_bisecle_lr10_over_adapter_lr10:.2f` against the adapter at the same rate; ACC
#   {glue:text}`acc_bisecle_lr10:.1f` % ({glue:text}`gapl2p_bisecle_lr10:.1f` points from L2P).
# * **Other loss weights for Bisecle**: the binding losses at a tenth of their weight, ratio
#   {glue:text}`ratio_bisecle_w01:.2f` and {glue:text}`gapl2p_bisecle_w01:.1f` points from L2P; $\mathcal L_P$ at ten
#   times its weight, ratio {glue:text}`ratio_bisecle_lpx10:.2f` and {glue:text}`gapl2p_bisecle_lpx10:.1f` points.
# * **A larger replay buffer** (100 samples per finished task): ratio {glue:text}`ratio_replay100:.2f`,
#   {glue:text}`gapl2p_replay100:.1f` points above L2P.
# * **The null question loss** (the question of another sample of the batch as target): ACC
#   {glue:text}`acc_lqshuf:.1f` %, forgetting {glue:text}`fgt_lqshuf:.1f` points, against {glue:text}`acc_lqonly:.1f` %
#   and {glue:text}`fgt_lqonly:.1f` for the real $\mathcal L_Q$; the ablation of `question-loss-binds`.
# * **The null prompt loss** (a random seen type per sample): ACC {glue:text}`acc_lpshuf:.1f` %, forgetting
#   {glue:text}`fgt_lpshuf:.1f` points, against {glue:text}`acc_lponly:.1f` % and {glue:text}`fgt_lponly:.1f` for the
#   real $\mathcal L_P$; the ablation of `prompt-loss-cuts-forgetting`.
# * **A learner that does not learn** (the adapter as initialised): forgetting ratio {glue:text}`noop_ratio:.2f`,
#   ACC {glue:text}`acc_noop:.1f` % ({glue:text}`noop_gap:.1f` points from L2P). At chance, so not a comparator; it
#   shows what a criterion on forgetting alone admits.
# * **EWC tuned per criterion**, on streams no test uses (stream seeds 60-89, a grid from $10^2$ to $10^7$): for
#   accuracy, penalty {glue:text}`lam_acc:.0f`: ACC {glue:text}`acc_ewc:.1f` %, forgetting ratio
#   {glue:text}`ratio_ewc:.2f`; for forgetting, penalty {glue:text}`lam_fgt:.0f`: ACC {glue:text}`acc_ewcfgt:.1f` %
#   ({glue:text}`gap_ewcfgt:.1f` points from L2P), ratio {glue:text}`forgetting-halved_ewcfgt:.2f`. In the official
#   configuration, penalties {glue:text}`lam_acc_off:.0f` and {glue:text}`lam_fgt_off:.0f`: ratios
#   {glue:text}`off_ratio_ewc:.2f` and {glue:text}`off_ratio_ewcfgt:.2f`, ACC {glue:text}`off_gap_ewc:.1f` and
#   {glue:text}`off_gap_ewcfgt:.1f` points from L2P. The rule (`K.pick_ewc_lambdas`, fixed before the tuning ran)
#   takes for accuracy the penalty of the best mean final ACC and for forgetting the penalty of the least forgetting
#   ratio among those whose mean final ACC is at least the plain adapter's.
# * **Replay** (20 samples per finished task): ACC {glue:text}`acc_replay:.1f` %, forgetting
#   {glue:text}`fgt_replay:.1f` points, ratio {glue:text}`forgetting-halved_replay:.2f`.
# * **The per-task probe**, now a reference (the task id from the question, fixed answer classes per type, a pooling
#   that matches how we generate the videos): ACC {glue:text}`acc_probe:.1f` % ({glue:text}`probe_gap:.1f` points
#   above L2P), forgetting zero by construction.
# * **The nearest task centroid** of the frozen question embeddings: {glue:text}`sel_centroid:.1f` % of the test
#   questions sent to their own task, with no training.
# * **The stream with the official $\bar q$ and $\mathcal L_P$ at full weight**: prompt selection
#   {glue:text}`diag_stream_q94:.0f` % (still $1/k$), ACC {glue:text}`diag_stream_q94_gap:.1f` points from L2P.
# * Not done: a joint criterion (forgetting ratio at most one half and ACC at least the adapter's), which would
#   rule out the passes of learners that learn less and is closer to the paper's claim (less forgetting at higher
#   accuracy); and an L2P that trains only its prompts and keys, with the shared projection frozen after the first
#   task, the form of L2P closest to the original.
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
# * Whether the binding losses help when the network that predicts the question is a pre-trained language model:
#   ours cost the answer task accuracy even without a stream, which is why no test here can speak for the paper.
