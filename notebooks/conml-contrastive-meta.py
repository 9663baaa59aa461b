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
# # ConML: contrasting the models a meta-learner builds
#
# *A meta-learner should build nearly the same model from any two subsets of one task and clearly
# different models for different tasks; adding that contrast to episodic meta-training is claimed to make
# several kinds of meta-learner generalise better to new few-shot tasks.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
import torch

from repro.claims import Claims, Comparator, at_most, greater_than, tolerance
from repro.papers import conml_contrastive_meta as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 6 s of CPU for the runs: 2 seeds; the CNP read after 200 steps (pre-registered) and, trained on, after
    # 1000 (post hoc); the ProtoNet after 100 steps
    "ci": dict(seeds=2, tasks=8, steps_cnp=200, steps_proto=100, test_tasks=100, lr=3e-3,
               steps_trained=1000, test_tasks_trained=500),
    # about 2 min of CPU: 5 seeds, 3000 / 1500 steps, the CNP trained on to 6000, 1000 held-out tasks
    "full": dict(seeds=5, tasks=8, steps_cnp=3000, steps_proto=1500, test_tasks=1000, lr=3e-3,
                 steps_trained=6000, test_tasks_trained=1000),
})
claims = Claims(
    "conml-contrastive-meta",
    title="Learning to Learn with Contrastive Meta-Objective",
    authors="Shiguang Wu, Yaqing Wang, Yatao Bian, Quanming Yao",
    paper_url="https://arxiv.org/abs/2410.05975",
    scale=scale, seed=seed,
)
LAM = 0.5                       # weight of the contrastive term (fixed before the claimed runs, see deviations)
N_VIEWS = 2                     # subsets per task for the inner-task distance
LR_GRID = (1e-3, 1e-2)          # the skeptic's other learning rates for the plain learner (ours: P.lr = 3e-3)
WD = 1e-3                       # the weight-decay baseline's L2 coefficient (Adam's weight_decay; not tuned)
# the variants trained side by side, per seed: replica r = v * S + s
VARIANTS = ("plain", "ConML", "null pairing", "plain, other stream", f"plain, lr {LR_GRID[0]:g}",
            f"plain, lr {LR_GRID[1]:g}", f"plain, weight decay {WD:g}", "plain, subset training")
LAMBDAS = (0.0, LAM, LAM, 0.0, 0.0, 0.0, 0.0, 0.0)
SHUFFLED = (False, False, True, False, False, False, False, False)
STREAMS = (0, 0, 0, 1, 0, 0, 0, 0)    # the fourth variant trains on its own stream of tasks
LRS = (P.lr, P.lr, P.lr, P.lr, *LR_GRID, P.lr, P.lr)
WDS = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, WD, 0.0)
SUBSET = (False, False, False, False, False, False, False, True)
PLAIN, CONML, NULL, RERUN, DECAY, SUBSET_V = 0, 1, 2, 3, 6, 7
LR_CANDIDATES = (PLAIN, 4, 5)   # the tuned learning rate: 3e-3 (the plain learner itself), 1e-3 or 1e-2
S, V = P.seeds, len(VARIANTS)
lam = torch.tensor(LAMBDAS, dtype=torch.float32).repeat_interleave(S)
shuffled = torch.tensor(SHUFFLED).repeat_interleave(S)
lrs = torch.tensor(LRS, dtype=torch.float32).repeat_interleave(S)
wds = torch.tensor(WDS, dtype=torch.float32).repeat_interleave(S)
subset = torch.tensor(SUBSET).repeat_interleave(S)
gen = torch.Generator().manual_seed(1000 + seed)

# %% [markdown]
# ## The setting: episodic few-shot meta-learning
#
# In *few-shot learning* a model must solve a new task from a handful of labelled examples: fit a
# curve from ten points, or tell four unseen kinds of handwritten digit apart from five pictures of each.
# One task alone is far too little data, so *meta-learning* trains on many related tasks and learns
# **how to learn** a task quickly. Training is organised in *episodes*. Each episode is one task
# $\tau$ with a small labelled **support set** $\mathcal D^{tr}_\tau$ (the few examples the learner is
# given) and a **query set** $\mathcal D^{val}_\tau$ of other examples of the same task on which its
# answer is scored. A **meta-learner** $g_\theta$ maps a support set to a task-specific model
# $h_\tau = g_\theta(\mathcal D^{tr}_\tau)$, and meta-training adjusts the shared parameters $\theta$ so
# that $h_\tau$ does well on the query set, averaged over a *meta-batch* of tasks:
#
# $$ \min_\theta\; \mathbb E_\tau\, \mathcal L_{val}\big(g_\theta(\mathcal D^{tr}_\tau),\, \mathcal D^{val}_\tau\big)
#    \qquad\text{("train as you test")}. $$
#
# At *meta-test* time the learned $g_\theta$ meets tasks it has never seen (new sinusoids, or digit
# classes never used in training), builds a model from their support sets in one shot, and is scored on
# their query sets. Meta-learners differ in what $g_\theta$ is: a network that *encodes* the support set
# into a vector (amortisation: neural processes), a learned *metric* with class averages (prototypical
# networks), or a few steps of an *optimiser* (MAML, closed-form heads).
#
# ## The claim
#
# The paper observes that episodic training hands the learner a free label that the usual objective
# ignores: which examples belong to the same task. It proposes to use it as extra supervision on *what
# the meta-learner outputs*, the task model $h_\tau$ itself. Models built from two different subsets of
# one task should agree (**alignment**), and models of two different tasks should differ
# (**discrimination**). The resulting *contrastive meta-objective* (ConML) is added to the ordinary
# meta-training loss; the paper reports that it plugs into optimisation-based, metric-based and
# amortisation-based meta-learners and into in-context learners, and improves few-shot performance on
# classification, cross-domain and in-context benchmarks at a small extra cost. The sources available to
# us (the abstracts of arXiv versions 2 to 4 and a secondary summary) give **no numbers**, so only the
# direction can be compared here.
#
# ## The method
#
# For each task of a meta-batch, draw $K$ random subsets $\mathcal S^1_\tau,\dots,\mathcal S^K_\tau$ of its
# support set and run the meta-learner on each and on the whole support set, giving $K+1$ models
# $h^k_\tau = g_\theta(\mathcal S^k_\tau)$, each flattened into a vector. With the cosine distance
# $\phi(a,b) = 1-\frac{a\cdot b}{\|a\|\|b\|}$,
#
# $$ d_{in} = \operatorname*{mean}_{\tau}\operatorname*{mean}_{k\ne l}\phi(h^k_\tau,h^l_\tau), \qquad
#    d_{out} = \operatorname*{mean}_{\tau\ne\tau'}\operatorname*{mean}_{k,l}\phi(h^k_\tau,h^l_{\tau'}), $$
#
# and the meta-objective becomes
#
# $$ \mathcal L = \mathcal L_{val} + \lambda\,(d_{in} - d_{out}). $$
#
# Minimising it pulls the models of one task together and pushes different tasks' models apart, through
# the parameters $\theta$ of the meta-learner (`K.conml_distances`, `K.conml_loss`; an InfoNCE variant
# over the tasks of the meta-batch is `K.conml_infonce`, tested but not used below). What the "model" is
# depends on the learner; we use two learners of different families:
#
# * **Conditional neural process** (CNP, amortisation-based; `K.CNP`). An encoder maps each support pair
#   $(x_i,y_i)$ to a vector, their mean $r_\tau$ is the task model, and a decoder predicts $y$ at a query
#   $x$ from $[r_\tau, x]$. ConML contrasts $h_\tau=r_\tau$.
# * **Prototypical network** (ProtoNet, metric-based; `K.ProtoNet`). An encoder embeds images, each
#   class's *prototype* is the mean embedding of its support images, and a query goes to the class of the
#   nearest prototype (softmax over negative squared distances). ConML contrasts $h_\tau$ = the prototypes
#   concatenated in label order.
#
# Both learners build a subset's model with a masked mean of the same embeddings, so the $K$ extra models
# cost little: a ConML step costs little more than a plain one (in our batched code, where every replica
# computes the contrast and the plain ones weight it by zero, exactly the same), and comparing the two at equal
# numbers of steps is comparing them at about equal compute.
#
# ## The experiment
#
# * **Tasks.** *Sinusoid regression* (the brief's ci task, after Finn et al. 2017):
#   $y=A\sin(x-\varphi)$ with $A\sim U[0.1,5]$, $\varphi\sim U[0,\pi]$, $x\sim U[-5,5]$; 10 support and 10
#   query points per task; score = query mean squared error (MSE). *Few-shot digit classification* (the
#   brief's ProtoNet task): scikit-learn's 8×8 digits, 4-way 5-shot with 5 queries per class;
#   meta-training classes are the digits 0–5 and their rotations, meta-test tasks use the unseen digits 6–9
#   (every test task is the four of them in a random label order); score = query error rate.
# * **The method and what it is compared with.** Per seed, eight copies of each learner start from the same
#   initial weights and are trained side by side as independent replicas of one batched model
#   (`K.BatchedMLP`; no parameter is shared):
#   * *plain*, the standard meta-learner ($\lambda=0$), the reference every measure is relative to;
#   * *ConML* ($\lambda=0.5$, $K=2$ subsets of half the support points, resp. 3 of the 5 shots of every
#     class), on the same stream of training tasks as the reference;
#   * the **ablation**, the meta-learner without the contrastive meta-objective: the plain learner again
#     ($\lambda=0$), from the same initial weights but on *another stream* of training tasks. It is the
#     reference with nothing of the paper changed, so how far it lands from the reference is how far a
#     learner lands by chance; whatever ConML does must exceed that;
#   * the **naive baselines** that are meta-trained, using none of the paper's ideas, on the reference's
#     stream of tasks:
#     * the plain learner with its *learning rate tuned*: trained also at $10^{-3}$ and at $10^{-2}$, and the
#       best of these two and ours ($3\cdot10^{-3}$, the reference itself) on meta-validation tasks kept, per
#       seed (`K.select_by_validation`; sinusoids freshly drawn, resp. episodes of the meta-training classes);
#     * the plain learner with *L2 weight decay* $10^{-3}$ (Adam's `weight_decay`), the usual regulariser;
#     * *subset training*: the plain learner whose query loss is half the usual one and half that of the
#       models built from the same random support subsets ConML draws (`K.subset_query_loss`), as CNPs are
#       usually trained with random context sizes: ConML's subsets without its contrast;
#   * the naive baselines that are **not meta-trained**: on sinusoids, Gaussian-process regression with an
#     RBF kernel whose three hyper-parameters are fitted on meta-training tasks (`K.fit_rbf_gp`,
#     `K.rbf_gp_mean`); on digits, *pre-trained features with a fine-tuned head* (Chen et al. 2019; Tian et
#     al. 2020): the ProtoNet's encoder, from its initial weights, trained as an ordinary 24-way classifier on
#     the meta-training images for as many steps and images as the ProtoNet sees (`K.pretrain_classifier`),
#     then a logistic-regression head fitted on each test task's support set (`K.logistic_head_error`); and
#     prototypes with no training at all (`K.FixedEncoderProtoNet`): *nearest class means of raw pixels*, and
#     *prototypes in the ProtoNet's initial, untrained embedding*;
#   * a second control, *null pairing*: ConML's term with the same weight, but the task identities of the
#     $K+1$ models permuted within the meta-batch at each step, so that "same task" pairs are mostly pairs of
#     different tasks: the extra term without the task identity it is built on.
# * **Training**: Adam (learning rate $3\cdot10^{-3}$ unless stated), meta-batches of 8 tasks. ci: 2
#   seeds, the CNP read after 200 steps and, trained on with the same optimiser, after 1000 steps; the
#   ProtoNet after 100 steps; 100 held-out tasks (500 for the CNP at 1000 steps). Full: 5 seeds, the CNP
#   read after 3000 and 6000 steps, the ProtoNet after 1500; 1000 held-out tasks.
# * **Measured** on held-out tasks: the score, and $d_{in}/d_{out}$ of the models (the $K+1$ models per
#   task built with the true task identities).
#
# **Tests.** Six checks were fixed before the first run (the brief's checks C1 to C3, for each of the two
# learners); their method, setting and criterion are unchanged, and they gained the comparators above when
# the page was converted to the current claim model and after its independent reviews. Four are counted:
#
# 1. *Alignment* (C1): on held-out tasks, $d_{in}/d_{out}$ with ConML is at most $0.8\times$ that of the
#    plain learner at every seed (measured: the largest ratio over seeds).
# 2. *Gain* (C3): the relative improvement $1-\overline{\text{score}}_{ConML}/\overline{\text{score}}_{plain}$
#    of the seed-averaged score is positive.
#
# The third, *no harm* (C2: the held-out score with ConML at most $1.03\times$ the plain learner's at every
# seed, measured as the largest ratio), is a "does not hurt" criterion that a no-op passes where the paper
# claims a gain, and it reads the same held-out scores as the gain test; since the second review it is shown
# as an illustration, never counted.
#
# Every comparator is measured the same way, its score or its $d_{in}/d_{out}$ over the reference's; the
# Gaussian process and the pre-trained features enter only the score tests (their "models" are of another
# kind), the prototypes without training both. As context for the CNP, predicting $0$ everywhere (the mean of
# every sinusoid over its phase) is scored too; it is no comparator, as it is at chance. At ci the
# pre-registered CNP readings come after 200 steps, early in training (an independent review graded the CNP
# no-harm pass of the earlier page as noise for that reason). Two tests were therefore **added after that
# review** (post hoc), on the same CNP runs trained on to 1000 steps, the longest the ci budget allows: the
# *alignment* and the *gain* tests again, with the same criteria and comparators.
#
# **Deviations from the paper**
#
# * The method is rebuilt from the abstracts and the brief: no official code and no full text of the
#   method were available. The distance form $\lambda(d_{in}-d_{out})$ with cosine distances is the brief's
#   reading; the paper also describes an InfoNCE form, which we implemented but did not run.
# * Two meta-learners (a CNP and a ProtoNet) on two toy task families, small MLPs, a few thousand steps on
#   a CPU; no MAML, no in-context learner, no image benchmarks (miniImageNet etc.) and no cross-domain
#   tests, which the paper uses. The brief's MAML and linear-regression in-context learner are left out for
#   time; a closed-form ridge-head learner (`K.RidgeHead`, optimisation-based) is implemented and tested
#   but not run on the page, as it was 2.5 times slower per step.
# * ProtoNet: the six meta-training digits are augmented with their rotations by 90°, 180° and 270° as new
#   classes (24 meta-training classes, Omniglot-style). *Chosen before the claimed runs* after a pilot in
#   which a ProtoNet trained on only six classes overfitted them so badly that its meta-test error rose well
#   above its error at initialisation, and further above that of prototypes of raw pixels (the pilot is not
#   in the record). With the rotations,
#   at ci, the meta-trained plain ProtoNet still errs clearly more than its untrained embedding at
#   {repro-seeds}`protonet-gain:baseline6:pass` seeds of the sweep and than raw pixels at
#   {repro-seeds}`protonet-gain:baseline5:pass` (both are now comparators of the page).
# * $\lambda=0.5$, $K=2$ subsets and the subset sizes are our choices (the paper's values were not
#   available). $\lambda$ was chosen from $\{0.1, 0.5\}$ on a pilot run with seed 100 (not a seed reported
#   here): at $0.1$ the held-out distances of the CNP hardly moved. Every seed of the page uses the same
#   value, for both learners.
# * "Every seed" means the seeds trained inside one run (2 at ci, 5 at full), not the brief's 3 separate
#   runs; the page's own seed changes the initial weights and task streams of all of them.
# * $d_{in}$ averages over all pairs of the $K+1$ models of a task (the subsets and the whole support set)
#   and $d_{out}$ over all pairs of models of different tasks, rather than only subset pairs and only
#   whole-set pairs; the null pairing and the comparators are ours. An earlier version of the page also
#   trained a *reversed* objective ($\lambda=-0.5$) as the no-harm control; it pays a cost by construction
#   and was dropped.
# * Adam is our per-replica implementation of PyTorch's (`K.ReplicaAdam`, equal to `torch.optim.Adam` up to
#   rounding), so that learning rates can differ between replicas.
# * The comparators' settings are ours: the learning-rate grid $\{10^{-3}, 3\cdot10^{-3}, 10^{-2}\}$ with ours
#   in it, so that the tuned arm is the plain learner itself where ours scores best on meta-validation tasks
#   (an earlier version left ours out of the grid, which can only make that baseline weaker); the weight decay
#   $10^{-3}$ and subset training's even split of the loss (added after the second review, not tuned); the
#   Gaussian process's grid (length scale $0.5$ to $4$, signal variance $1$ to $16$, noise variance
#   $10^{-6}$ to $10^{-2}$, chosen for the lowest query MSE on 128 meta-training tasks); the pre-training
#   (Adam at $3\cdot10^{-3}$, batches of 320 images, no tuning) and the head (L2-normalised features, $C=1$ as
#   scikit-learn's default).
# * The pre-registered tests keep the tolerance declared before the first run ($\pm 30$ % relative, plus
#   $0.02$), far wider than the drift measured since under other CPU numerics (given in the tolerance's
#   reason in the record). It raises the bars: an alignment ratio passes only below about $0.54$, a
#   gain only above about $0.029$, and every worst-seed score ratio between about $0.7$ and $1.5$ sits at the
#   edge of the no-harm bar, a literal no-op included. The two post-hoc tests declare the tolerance measured
#   under other CPU kernels (see their records).

# %%
print(f"scale={P.scale}: {S} seeds x {V} variants trained side by side; lambda={LAM}, {N_VIEWS} subsets per task")


def per_variant(ev):
    """Evaluation outputs reshaped to (variant, seed)."""
    return {k: v.reshape(V, S).numpy() for k, v in ev.items()}


# %% [markdown]
# ### Sinusoid regression with a conditional neural process

# %%
rng_cnp, rng_cnp_other = np.random.default_rng([seed, 1]), np.random.default_rng([seed, 11])
cnp = K.CNP(32, S, V, generator=gen)
opt_cnp = K.ReplicaAdam(cnp.parameters(), lrs, weight_decay=wds)


def cnp_batch():
    return K.stack_streams([K.sinusoid_batch(S, 1, P.tasks, 10, 10, N_VIEWS, 5, rng_cnp),
                            K.sinusoid_batch(S, 1, P.tasks, 10, 10, N_VIEWS, 5, rng_cnp_other)], STREAMS)


hist_cnp = K.meta_train(cnp, cnp_batch, P.steps_cnp, lam, shuffled, lrs, rng_cnp, optimizer=opt_cnp,
                        subset_training=subset, wrap=lambda it: progress(it, total=P.steps_cnp, desc="CNP"))
test_cnp = K.sinusoid_batch(S, V, P.test_tasks, 10, 10, N_VIEWS, 5, np.random.default_rng([seed, 2]))
val_cnp = K.sinusoid_batch(S, V, 200, 10, 10, N_VIEWS, 5, np.random.default_rng([seed, 5]))
ev_cnp, val_ev_cnp = per_variant(K.evaluate(cnp, *test_cnp)), per_variant(K.evaluate(cnp, *val_cnp))

# the same replicas, trained on with the same optimiser (post-hoc tests)
more = P.steps_trained - P.steps_cnp
hist_more = K.meta_train(cnp, cnp_batch, more, lam, shuffled, lrs, rng_cnp, optimizer=opt_cnp,
                         subset_training=subset, wrap=lambda it: progress(it, total=more, desc="CNP, trained on"))
test_tr = K.sinusoid_batch(S, V, P.test_tasks_trained, 10, 10, N_VIEWS, 5, np.random.default_rng([seed, 7]))
ev_tr, val_ev_tr = per_variant(K.evaluate(cnp, *test_tr)), per_variant(K.evaluate(cnp, *val_cnp))

# the classical baseline: GP regression, hyper-parameters fitted on meta-training tasks
(gx, gy), (gxq, gyq), _ = K.sinusoid_batch(1, 1, 128, 10, 10, N_VIEWS, 5, np.random.default_rng([seed, 6]))
gp = K.fit_rbf_gp(gx[0], gy[0], gxq[0], gyq[0], np.geomspace(0.5, 4, 10), np.geomspace(1, 16, 5),
                  (1e-6, 1e-5, 1e-4, 1e-3, 1e-2))


def gp_mse(batch):
    """The GP's held-out query MSE per seed (every variant of a seed sees the same tasks)."""
    (xs, ys), (xq, yq), _ = batch
    pred = K.rbf_gp_mean(xs[:S], ys[:S], xq[:S], gp["lengthscale"], gp["signal_var"], gp["noise_var"])
    return ((pred - yq[:S].double()) ** 2).mean((-1, -2, -3)).numpy()


gp_cnp, gp_tr = gp_mse(test_cnp), gp_mse(test_tr)
# context, not a comparator (it is at chance): predicting 0 everywhere, the middle of every sinusoid's range
zero_cnp = float((test_cnp[1][1][:S] ** 2).mean())

# %% [markdown]
# ### Few-shot digit classification with a prototypical network

# %%
X, y = K.digits_meta_split()
Xr, yr = K.rotation_classes(X, y)
TRAIN_CLASSES = tuple(d + 10 * k for d in range(6) for k in range(4))   # digits 0-5 and their rotations
TEST_CLASSES = (6, 7, 8, 9)                                            # unseen digits, upright
rng_pn, rng_pn_other = np.random.default_rng([seed, 3]), np.random.default_rng([seed, 13])
proto = K.ProtoNet((64, 64, 32), S, V, generator=gen)
pre_encoder = K.replicas_of(proto.encoder, list(range(S)))             # the plain replicas' initial weights
init_protonet = K.FixedEncoderProtoNet(K.replicas_of(proto.encoder, list(range(S))))   # never trained


def pn_batch():
    return K.stack_streams([K.digits_batch(Xr, yr, TRAIN_CLASSES, S, 1, P.tasks, 4, 5, 5, N_VIEWS, 3, rng_pn),
                            K.digits_batch(Xr, yr, TRAIN_CLASSES, S, 1, P.tasks, 4, 5, 5, N_VIEWS, 3, rng_pn_other)],
                           STREAMS)


hist_pn = K.meta_train(proto, pn_batch, P.steps_proto, lam, shuffled, lrs, rng_pn, weight_decay=wds,
                       subset_training=subset, wrap=lambda it: progress(it, total=P.steps_proto, desc="ProtoNet"))
test_pn = K.digits_batch(Xr, yr, TEST_CLASSES, S, V, P.test_tasks, 4, 5, 5, N_VIEWS, 3, np.random.default_rng([seed, 4]))
val_pn = K.digits_batch(Xr, yr, TRAIN_CLASSES, S, V, 100, 4, 5, 5, N_VIEWS, 3, np.random.default_rng([seed, 15]))
ev_pn, val_ev_pn = per_variant(K.evaluate(proto, *test_pn)), per_variant(K.evaluate(proto, *val_pn))

# pre-trained features + fine-tuned head: as many steps and images per step as the ProtoNet
pre = K.pretrain_classifier(pre_encoder, Xr, yr, TRAIN_CLASSES, P.steps_proto, P.tasks * 4 * (5 + 5), P.lr,
                            np.random.default_rng([seed, 14]), torch.Generator().manual_seed(2000 + seed))
with torch.no_grad():
    pre_pn = K.logistic_head_error(pre_encoder(test_pn[0][0][:S]), pre_encoder(test_pn[1][0][:S])).numpy()

# prototypes without meta-training: raw pixels (identity features) and the ProtoNet's initial encoder
test_pn_seeds = ((test_pn[0][0][:S],), (test_pn[1][0][:S],), test_pn[2][:S])
ev_raw = {k: v.numpy() for k, v in K.evaluate(K.FixedEncoderProtoNet(), *test_pn_seeds).items()}
ev_init = {k: v.numpy() for k, v in K.evaluate(init_protonet, *test_pn_seeds).items()}

# %% [markdown]
# ## Results
#
# ### What the learners do on held-out tasks
#
# Three held-out sinusoids (10 support points each), with the predictions of the plain and the ConML CNP of
# the first seed after the longer training, and of the Gaussian process fitted on meta-training tasks.

# %%
xs_all = torch.linspace(-5, 5, 200).reshape(1, 1, 200, 1)
(xs, ys), _, _ = test_tr
fig, axes = plt.subplots(1, 3, figsize=(11, 3.0), sharey=True)
with torch.no_grad():
    r = cnp.represent(xs[:, :3], ys[:, :3])                             # (R, 3, h)
    pred = cnp.predict(r, xs_all.expand(V * S, 3, 200, 1))
    gp_pred = K.rbf_gp_mean(xs[:1, :3], ys[:1, :3], xs_all.expand(1, 3, 200, 1), gp["lengthscale"],
                            gp["signal_var"], gp["noise_var"])
for b, ax in enumerate(axes):
    ax.scatter(xs[0, b, :, 0], ys[0, b, :, 0], color="k", s=18, zorder=3, label="support points")
    for v, style in ((PLAIN, "C0-"), (CONML, "C3--")):
        ax.plot(xs_all[0, 0, :, 0], pred[v * S, b, :, 0], style, label=f"{VARIANTS[v]} CNP")
    ax.plot(xs_all[0, 0, :, 0], gp_pred[0, b, :, 0], "C2:", label="Gaussian process")
    ax.set(xlabel="x (arbitrary units)", title=f"held-out task {b + 1}")
axes[0].set_ylabel("y (arbitrary units)")
axes[0].legend(fontsize=8)
fig.suptitle(f"Predictions from 10 support points (seed 1 of {S}; CNPs after {P.steps_trained} meta-training steps)")
plt.show()

# %% [markdown]
# ### The method beside its ablation and baselines, over seeds
#
# Left: the held-out score of each arm (dots: seeds; bar: mean; line: ± one standard deviation). Right: the
# alignment/discrimination ratio $d_{in}/d_{out}$ of the held-out task models (lower: subsets of one task
# agree more, relative to how much different tasks differ). "Tuned lr" is, per seed, whichever of the three
# learning rates (ours and the two others) scored best on meta-validation tasks; "raw pixels" and "untrained
# encoder" are prototypes with no training at all.

# %%
tuned_cnp = K.select_by_validation(val_ev_cnp["metric"], LR_CANDIDATES)
tuned_tr = K.select_by_validation(val_ev_tr["metric"], LR_CANDIDATES)
tuned_pn = K.select_by_validation(val_ev_pn["metric"], LR_CANDIDATES)
SEEDS = np.arange(S)


def arms(ev, tuned, others):
    """Per arm, the per-seed (score, d_in/d_out); the tuned-lr arm picked per seed; the learners that are not
    meta-trained (others: name -> (score, ratio or None)) as given."""
    m, r = ev["metric"], ev["ratio"]
    out = {"plain": (m[PLAIN], r[PLAIN]), "ConML": (m[CONML], r[CONML]), "other stream": (m[RERUN], r[RERUN]),
           "tuned lr": (m[tuned, SEEDS], r[tuned, SEEDS]), "weight decay": (m[DECAY], r[DECAY]),
           "subset training": (m[SUBSET_V], r[SUBSET_V]), "null pairing": (m[NULL], r[NULL])}
    out.update(others)
    return out


REGIMES = {
    "cnp": (f"CNP, sinusoids, {P.steps_cnp} steps", arms(ev_cnp, tuned_cnp, {"GP": (gp_cnp, None)}),
            "held-out query MSE"),
    "cnpt": (f"CNP, sinusoids, {P.steps_trained} steps", arms(ev_tr, tuned_tr, {"GP": (gp_tr, None)}),
             "held-out query MSE"),
    "pn": (f"ProtoNet, digits 6-9, {P.steps_proto} steps",
           arms(ev_pn, tuned_pn, {"raw pixels": (ev_raw["metric"], ev_raw["ratio"]),
                                  "untrained encoder": (ev_init["metric"], ev_init["ratio"]),
                                  "pre-trained": (pre_pn, None)}), "held-out error rate"),
}
colors = {"plain": "C0", "ConML": "C3", "other stream": "C7", "tuned lr": "C1", "weight decay": "C5",
          "subset training": "C9", "null pairing": "C4", "GP": "C2", "pre-trained": "C2", "raw pixels": "C8",
          "untrained encoder": "C6"}
fig, axes = plt.subplots(3, 2, figsize=(12, 10))
for i, (name, arm, ylab) in enumerate(REGIMES.values()):
    for j, lab in enumerate((ylab, "held-out $d_{in}/d_{out}$ (dimensionless)")):
        ax = axes[i, j]
        names = [a for a in arm if arm[a][j] is not None]
        for k, a in enumerate(names):
            vals = arm[a][j]
            ax.bar(k, vals.mean(), yerr=vals.std(ddof=1) if S > 1 else None, color=colors[a], alpha=0.5, capsize=4)
            ax.scatter(np.full(S, k) + np.linspace(-0.15, 0.15, S), vals, color=colors[a], s=14, zorder=3)
        ax.set_xticks(range(len(names)), names, fontsize=7, rotation=25, ha="right")
        ax.set(ylabel=lab, title=name)
        if j == 0 and "MSE" in ylab:
            ax.set_yscale("log")
plt.show()

# %% [markdown]
# ### Meta-training curves
#
# The query loss during meta-training (moving average over the last 50 steps, or a tenth of a shorter run;
# line: mean over seeds, band: ± one standard deviation); the dotted line marks where the pre-registered CNP
# reading is taken.

# %%
def smooth(h, w=50):
    """Moving average over w steps, at most a tenth of the run (each value placed at the last step of its window)."""
    w = max(1, min(w, len(h) // 10))
    k = np.ones(w) / w
    return np.stack([np.convolve(h[:, r], k, mode="valid") for r in range(h.shape[1])], 1), w


CURVE_COLORS = ("C0", "C3", "C4", "C7", "C5", "C1", "y", "C9")   # in the order of VARIANTS
fig, axes = plt.subplots(1, 2, figsize=(11, 3.4))
full_cnp = np.concatenate([hist_cnp["val_loss"], hist_more["val_loss"]])
for ax, name, hist in ((axes[0], "CNP (query MSE)", full_cnp), (axes[1], "ProtoNet (query cross-entropy, nats)",
                                                                   hist_pn["val_loss"])):
    h, w = smooth(hist)
    h = h.reshape(-1, V, S)
    steps = np.arange(h.shape[0]) + w
    for v in range(V):
        m, sd = h[:, v].mean(1), h[:, v].std(1)
        ax.plot(steps, m, label=VARIANTS[v], color=CURVE_COLORS[v], lw=1.2)
        ax.fill_between(steps, m - sd, m + sd, alpha=0.15, color=CURVE_COLORS[v])
    ax.set(xlabel="meta-training step", ylabel="query loss", title=name, yscale="log")
axes[0].axvline(P.steps_cnp, color="k", ls=":", lw=0.8)
axes[0].legend(fontsize=7)
plt.show()

# %% [markdown]
# ### The numbers
#
# Mean ± standard deviation over the seeds of this run.

# %%
print(f"{'regime':34s} {'arm':18s} {'held-out score':>18s} {'d_in/d_out':>11s}")
for name, arm, _ in REGIMES.values():
    for a, (m, r) in arm.items():
        sd = m.std(ddof=1) if S > 1 else 0.0
        rt = f"{r.mean():11.4f}" if r is not None else f"{'':>11s}"
        print(f"{name:34s} {a:18s} {m.mean():9.4f} ± {sd:.4f} {rt}")
print(f"tuned learning rate chosen per seed: CNP {P.steps_cnp} steps {[LRS[v] for v in tuned_cnp]}, "
      f"{P.steps_trained} steps {[LRS[v] for v in tuned_tr]}, ProtoNet {[LRS[v] for v in tuned_pn]}")
print(f"GP hyper-parameters: lengthscale {gp['lengthscale']:.3g}, signal variance {gp['signal_var']:.3g}, "
      f"noise variance {gp['noise_var']:.1e}")

# %% [markdown]
# ### The paper's numbers beside ours
#
# | quantity | paper (setting) | ours (ci, seed 0, mean of 2 seeds) |
# |---|---|---|
# | few-shot performance with ConML against without | "significant boost" for every meta-learner tried (few-shot image classification, cross-domain, in-context learning; no number found) | CNP held-out MSE {glue:text}`cnpt_score_ConML:.3f` against {glue:text}`cnpt_score_plain:.3f` after {glue:text}`steps_trained:.0f` steps; ProtoNet error rate {glue:text}`pn_score_ConML:.3f` against {glue:text}`pn_score_plain:.3f` |
# | inner-task distance down, inter-task distance up | yes (no number found) | CNP $d_{in}/d_{out}$ {glue:text}`cnpt_ratio_ConML:.3f` against {glue:text}`cnpt_ratio_plain:.3f`; ProtoNet {glue:text}`pn_ratio_ConML:.3f` against {glue:text}`pn_ratio_plain:.3f` |

# %%
TRAINED = tolerance(rel=0.3, abs=0.02, why=(
    "declared before the first run and kept unchanged, as a pre-registered tolerance must be; it is far wider than "
    "the drift measured since: under other CPU numerics (ATEN_CPU_CAPABILITY=default, OPENBLAS_CORETYPE=Sandybridge) "
    "the ratios of seed 0 moved by at most 0.001 and the gains by at most 0.003. It moves the bars: a pass needs an "
    "alignment ratio below 0.54 and a gain above 0.029, and a literal no-op (score ratio 1) reads 'at the edge' of "
    "no harm"))
ON_GAIN = tolerance(rel=0.2, abs=0.02, why="end point of 1000 float32 Adam steps: under other CPU numerics the "
                    "gains of seed 0 moved by up to 0.012 (ATEN_CPU_CAPABILITY=avx2) and 0.013 "
                    "(ATEN_CPU_CAPABILITY=default, OPENBLAS_CORETYPE=Sandybridge), and by 0.04 for a gain of -0.2")
ON_RATIO = tolerance(rel=0.05, abs=0.02, why="end point of 1000 float32 Adam steps: under other CPU numerics the "
                     "ratios of seed 0 moved by up to 0.025 (ATEN_CPU_CAPABILITY=avx2) and 0.021 "
                     "(ATEN_CPU_CAPABILITY=default, OPENBLAS_CORETYPE=Sandybridge)")


def worst_ratio(arm, name, j):
    """Largest over seeds of arm `name`'s score (j = 0) or d_in/d_out (j = 1) over the plain learner's."""
    return float((arm[name][j] / arm["plain"][j]).max())


def gain(arm, name):
    """1 - seed-mean score of arm `name` / seed-mean score of the plain learner."""
    return float(1.0 - arm[name][0].mean() / arm["plain"][0].mean())


ABLATION = "the plain learner (no contrastive term), same initial weights, another stream of training tasks"
NO_TERM = "the contrastive meta-objective (lambda = 0)"
LABELS = {
    "tuned lr": "the plain learner with its learning rate tuned on meta-validation tasks (1e-3, 3e-3 = ours, or 1e-2)",
    "weight decay": f"the plain learner with L2 weight decay {WD:g} (Adam's weight_decay; not tuned)",
    "subset training": "the plain learner whose query loss also scores the models of random support subsets "
                       "(subset training, no contrast)",
    "null pairing": "ConML's term with the task identities permuted (null pairing: the term without task identity)",
    "GP": "Gaussian-process regression, RBF kernel fitted on meta-training tasks (no meta-learner)",
    "raw pixels": "prototypes of raw pixels (nearest class mean, no learning)",
    "untrained encoder": "prototypes in the ProtoNet's initial, untrained embedding (no meta-training)",
    "pre-trained": "pre-trained features (24-way classifier) + a logistic-regression head per task",
}
META_TRAINED = ("tuned lr", "weight decay", "subset training", "null pairing")
BASELINES = {  # per regime, for the alignment test (models comparable by d_in/d_out) and the score tests
    "cnp": (META_TRAINED, META_TRAINED + ("GP",)),
    "cnpt": (META_TRAINED, META_TRAINED + ("GP",)),
    "pn": (META_TRAINED + ("raw pixels", "untrained encoder"),
           META_TRAINED + ("raw pixels", "untrained encoder", "pre-trained")),
}


def comparators(arm, names, value):
    return [Comparator(LABELS[n], value(arm, n)) for n in names]


POST_HOC = ("added when the page was converted (issue 32), after the independent review found every CNP variant "
            "early in training at the pre-registered ci reading (200 steps): the same runs trained on to 1000 steps, "
            "the longest the ci budget allows; criterion and comparators as in the pre-registered test (the "
            "comparators extended after the second review); designed on seeds 0-9")
NO_HARM_WHY = ("a 'does not hurt' criterion, which a no-op passes where the paper claims a gain, measured on the "
               "same held-out scores as the gain test (one measurement is counted once); shown as context")

claims.headline("boosts-meta-learners",
                "Adding the contrastive meta-objective to episodic meta-training improves the few-shot performance "
                "of existing meta-learners of several families (here an amortisation-based CNP and a metric-based "
                "ProtoNet)",
                tests=["cnp-gain", "protonet-gain", "cnp-gain-trained"])
claims.headline("aligns-and-discriminates",
                "The objective makes a meta-learner build similar models from subsets of one task and distinct "
                "models for different tasks",
                tests=["cnp-alignment", "protonet-alignment", "cnp-alignment-trained"])
claims.headline("beyond-few-shot-benchmarks",
                "ConML also improves in-context learners (transformers) and cross-domain meta-learning, at a small "
                "implementation and compute cost",
                untestable="no in-context learner and no cross-domain benchmark is run here (the brief's "
                           "linear-regression transformer was left out for the CPU budget), and the cost of our "
                           "subset models is our design's, not the paper's implementations'")
claims.headline("generalisation-theory",
                "Using task identity as additional supervision provably improves the meta-learner's generalisation",
                untestable="the statement of the paper's generalisation result was not in the sources available "
                           "to us (the abstracts and a secondary summary), so there is nothing to check it against")

for tag, key, name, score in (("cnp", "cnp", f"CNP (sinusoid, {P.steps_cnp} steps)", "query MSE"),
                              ("protonet", "pn", "ProtoNet (digits)", "query error rate")):
    arm = REGIMES[key][1]
    align_names, score_names = BASELINES[key]
    claims.test(f"{tag}-alignment",
                statement=f"{name}: held-out d_in/d_out with ConML over that of the plain learner, largest over {S} seeds",
                paper="ConML reduces the inner-task distance and enlarges the inter-task distance (no numbers); "
                      "brief C1: ratio <= 0.8 at every seed",
                criterion=at_most(0.8), measured=worst_ratio(arm, "ConML", 1),
                ablation=Comparator(ABLATION, worst_ratio(arm, "other stream", 1), ingredient=NO_TERM),
                baselines=comparators(arm, align_names, lambda a, n: worst_ratio(a, n, 1)),
                tol=TRAINED)
    claims.illustrate(f"{tag}-no-harm",
                      statement=f"{name}: held-out {score} with ConML over the plain learner's, largest over {S} seeds",
                      paper="ConML brings a boost for every meta-learner tried (no numbers); brief C2: ratio <= 1.03 "
                            "at every seed",
                      criterion=at_most(1.03), measured=worst_ratio(arm, "ConML", 0), why=NO_HARM_WHY, tol=TRAINED)
    claims.test(f"{tag}-gain",
                statement=f"{name}: relative improvement of the seed-mean held-out {score}, 1 - ConML / plain",
                paper="significant boost in few-shot performance (no numbers); brief C3: mean score(ConML) < "
                      "mean score(plain), soft, asserted only at full scale",
                criterion=greater_than(0.0), measured=gain(arm, "ConML"),
                ablation=Comparator(ABLATION, gain(arm, "other stream"), ingredient=NO_TERM),
                baselines=comparators(arm, score_names, gain),
                tol=TRAINED)

arm = REGIMES["cnpt"][1]
align_names, score_names = BASELINES["cnpt"]
TRAINED_SETTING = f"the CNP runs trained on to {P.steps_trained} steps"
claims.test("cnp-alignment-trained",
            statement=f"CNP (sinusoid, {P.steps_trained} steps): held-out d_in/d_out with ConML over that of the "
                      f"plain learner, largest over {S} seeds",
            paper="ConML reduces the inner-task distance and enlarges the inter-task distance (no numbers); "
                  "brief C1: ratio <= 0.8 at every seed",
            criterion=at_most(0.8), measured=worst_ratio(arm, "ConML", 1),
            ablation=Comparator(ABLATION, worst_ratio(arm, "other stream", 1), ingredient=NO_TERM),
            baselines=comparators(arm, align_names, lambda a, n: worst_ratio(a, n, 1)),
            tol=ON_RATIO, post_hoc=POST_HOC, setting=TRAINED_SETTING)
claims.test("cnp-gain-trained",
            statement=f"CNP (sinusoid, {P.steps_trained} steps): relative improvement of the seed-mean held-out "
                      "query MSE, 1 - ConML / plain",
            paper="significant boost in few-shot performance (no numbers); brief C3: mean score(ConML) < "
                  "mean score(plain), soft, asserted only at full scale",
            criterion=greater_than(0.0), measured=gain(arm, "ConML"),
            ablation=Comparator(ABLATION, gain(arm, "other stream"), ingredient=NO_TERM),
            baselines=comparators(arm, score_names, gain),
            tol=ON_GAIN, post_hoc=POST_HOC, setting=TRAINED_SETTING)

# %%
from myst_nb import glue

ARM_KEYS = {"plain": "plain", "ConML": "ConML", "other stream": "rerun", "tuned lr": "tuned",
            "weight decay": "wd", "subset training": "subset", "null pairing": "null", "GP": "gp",
            "pre-trained": "pre", "raw pixels": "raw", "untrained encoder": "init"}
for key, (_, arm, _) in REGIMES.items():
    for a, (m, r) in arm.items():
        k = ARM_KEYS[a]
        glue(f"{key}_score_{k}", float(m.mean()), display=False)
        if r is not None:
            glue(f"{key}_ratio_{k}", float(r.mean()), display=False)
            glue(f"{key}_align_{k}", worst_ratio(arm, a, 1), display=False)
        if a != "plain":
            glue(f"{key}_gain_{k}", gain(arm, a), display=False)
            glue(f"{key}_harm_{k}", worst_ratio(arm, a, 0), display=False)
for key, ev in (("cnp", ev_cnp), ("cnpt", ev_tr), ("pn", ev_pn)):
    for v, k in ((PLAIN, "plain"), (CONML, "ConML")):
        glue(f"{key}_din_{k}", float(ev["d_in"][v].mean()), display=False)
        glue(f"{key}_dout_{k}", float(ev["d_out"][v].mean()), display=False)
glue("steps_cnp", P.steps_cnp, display=False)
glue("steps_trained", P.steps_trained, display=False)
glue("steps_proto", P.steps_proto, display=False)
glue("gp_lengthscale", gp["lengthscale"], display=False)
glue("gp_over_plain_trained", float(gp_tr.mean() / ev_tr["metric"][PLAIN].mean()), display=False)
for key, tuned in (("cnp", tuned_cnp), ("tr", tuned_tr), ("pn", tuned_pn)):
    for v, k in zip(LR_CANDIDATES, ("ours", "low", "high")):
        glue(f"n_tuned_{k}_{key}", int(np.sum(tuned == v)), display=False)
glue("cnp_score_zero", zero_cnp, display=False)
glue("cnp_plain_over_zero", float(ev_cnp["metric"][PLAIN].mean() / zero_cnp), display=False)
glue("pn_plain_over_raw", float(ev_pn["metric"][PLAIN].mean() / ev_raw["metric"].mean()), display=False)
glue("pn_conml_over_raw", float(ev_pn["metric"][CONML].mean() / ev_raw["metric"].mean()), display=False)
glue("n_seeds", S, display=False)

# %% [markdown]
# ## Against the official code
#
# The brief found no official code, and a search of the public-code index for "ConML" at the conversion found
# only unrelated projects (EconML and others), so there is no repository to compare against and no golden
# file. Every choice the paper would fix (the form of the contrastive term, $\lambda$, the number and size of
# the subsets, the distance, the learners' architectures and training) is ours or the brief's, listed under
# the deviations; none could be run in an official configuration.
#
# ## Claims
#
# Six tests, each measured beside its ablation (the plain learner on another stream of tasks) and its
# naive baselines (the plain learner with a tuned learning rate, with weight decay, or trained on support
# subsets; ConML's term without task identity; for the scores, a Gaussian process or pre-trained features with
# a fine-tuned head; for the ProtoNet, prototypes of raw pixels and of the untrained embedding), under the same
# measurement and criterion. Four were fixed before the first run, are unchanged and are counted; two, the
# CNP's alignment and gain after {glue:text}`steps_trained:.0f` steps, were added after the first independent
# review and would count only once confirmed on seeds nobody looked at (10–19). The confirmation run did not
# confirm either, so they are not counted. The brief's two no-harm checks are shown as illustrations: a
# no-op passes them, and they read the same scores as the gain tests.
#
# The paper's headline claims: ConML improves existing meta-learners of several families (the gain tests, both
# learners); the objective aligns a task's models and separates different tasks' (the alignment tests); it also
# improves in-context learners and cross-domain meta-learning at a small cost, and it provably improves
# generalisation (neither tested here: no in-context learner and no cross-domain benchmark is run, the cost of
# our implementation is our design's, and the statement of the generalisation result was not in the sources
# available to us).

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# Numbers below are from this run (ci, seed 0, means over its {glue:text}`n_seeds:.0f` seeds); each test's
# status is the ci sweep's over seeds 0–9, and the judged table shows every comparator at every seed and the
# full-scale column. The two tests on the longer-trained CNP were added after the first review; neither was
# confirmed on seeds 10–19, so neither moves the badge.
#
# * **Does ConML improve a trained CNP?** After {glue:text}`steps_trained:.0f` steps
#   ({repro-status}`cnp-gain-trained`) the ConML CNP's held-out MSE is {glue:text}`cnpt_score_ConML:.3f`
#   against the plain learner's {glue:text}`cnpt_score_plain:.3f`, a relative gain of
#   {glue:text}`cnpt_gain_ConML:+.3f`. Over the ci sweep ConML's gain is clearly positive at
#   {repro-seeds}`cnp-gain-trained:method:pass` seeds. The comparators without the task identity do at least
#   as well: the plain learner trained on another stream of tasks comes out clearly ahead of the same reference at
#   {repro-seeds}`cnp-gain-trained:ablation:pass` (seed 0: {glue:text}`cnpt_gain_rerun:+.3f`), the plain learner
#   with weight decay at {repro-seeds}`cnp-gain-trained:baseline2:pass` ({glue:text}`cnpt_gain_wd:+.3f`), with
#   subset training at {repro-seeds}`cnp-gain-trained:baseline3:pass` ({glue:text}`cnpt_gain_subset:+.3f`), and
#   ConML's term with the task identities shuffled at {repro-seeds}`cnp-gain-trained:baseline4:pass`
#   ({glue:text}`cnpt_gain_null:+.3f`). At this scale (two seeds per run, {glue:text}`steps_trained:.0f`
#   steps) a gain of ConML's size is what another run of the same learner gives by chance, and the task
#   identity, the paper's ingredient, adds nothing we can see at ci. Tuning the learning rate on meta-validation
#   tasks kept ours at {glue:text}`n_tuned_ours_tr:.0f` of the {glue:text}`n_seeds:.0f` seeds of this run
#   (gain {glue:text}`cnpt_gain_tuned:+.3f`). The full-scale run averages five seeds trained for 3000 and 6000
#   steps, where run-to-run noise is smaller, and there the picture changes: in both CNP readings ConML's gain
#   clears the bar by far, well ahead of another run of the plain learner and of every meta-trained comparator
#   (tuned learning rate, weight decay, subset training, null pairing). The judge reads it
#   "not specific" only because the Gaussian process passes too. It is one full-scale run, not a sweep, so it
#   is a signal to follow up rather than a result.
# * **The pre-registered CNP reading** after {glue:text}`steps_cnp:.0f` steps ({repro-status}`cnp-gain`)
#   comes early in training: the plain CNP's MSE is {glue:text}`cnp_score_plain:.2f`,
#   {glue:text}`cnp_plain_over_zero:.2f` times that of predicting $0$ everywhere
#   ({glue:text}`cnp_score_zero:.2f`), against {glue:text}`cnpt_score_plain:.2f` after
#   {glue:text}`steps_trained:.0f` steps. There ConML's gain is {glue:text}`cnp_gain_ConML:+.3f`, clearly
#   negative at {repro-seeds}`cnp-gain:method:fail` seeds and inside the tolerance band at the others, while
#   the tuned learning rate ($10^{-2}$ at {glue:text}`n_tuned_high_cnp:.0f` of the {glue:text}`n_seeds:.0f`
#   seeds) gains {glue:text}`cnp_gain_tuned:+.3f` at seed 0 and clearly at
#   {repro-seeds}`cnp-gain:baseline1:pass` seeds of the sweep: early in training a larger step does what
#   ConML does not.
# * **A classical learner is far ahead on this task.** Gaussian-process regression with an RBF kernel, its
#   three hyper-parameters fitted on meta-training tasks (length scale {glue:text}`gp_lengthscale:.2f`),
#   reaches a held-out MSE of {glue:text}`cnpt_score_gp:.3f`, {glue:text}`gp_over_plain_trained:.2f` times the
#   plain CNP's after {glue:text}`steps_trained:.0f` steps, and passes both CNP gain tests at every seed of the
#   sweep ({repro-seeds}`cnp-gain:baseline5:pass` and {repro-seeds}`cnp-gain-trained:baseline5:pass`). On
#   ten-point sinusoids a practitioner needs neither a CNP nor ConML; the CNP comparison still says whether the
#   contrastive term helps this learner, which is the paper's claim, and it does not.
# * **ProtoNet on digits: ConML makes a failing meta-learner worse** ({repro-status}`protonet-gain`). On the
#   unseen digits 6–9 the ConML ProtoNet's error rate is {glue:text}`pn_score_ConML:.3f` against the plain
#   learner's {glue:text}`pn_score_plain:.3f` (gain {glue:text}`pn_gain_ConML:+.3f`); its gain is clearly
#   negative at {repro-seeds}`protonet-gain:method:fail` seeds. But at this scale the plain ProtoNet is itself
#   no working meta-learner: prototypes of raw pixels, with no learning at all, err at
#   {glue:text}`pn_score_raw:.3f` (the plain ProtoNet's error rate is {glue:text}`pn_plain_over_raw:.1f` times
#   theirs, ConML's {glue:text}`pn_conml_over_raw:.1f` times; a clear gain over the plain learner at
#   {repro-seeds}`protonet-gain:baseline5:pass` seeds), and prototypes in the ProtoNet's untrained initial
#   embedding at {glue:text}`pn_score_init:.3f` (a clear gain at {repro-seeds}`protonet-gain:baseline6:pass`):
#   at many seeds, {glue:text}`steps_proto:.0f` steps of meta-training on the rotated digits 0–5 leave the
#   embedding worse for the digits 6–9 than it started, and ConML makes it worse still. Tuning the plain learner's learning rate helps
#   (error rate {glue:text}`pn_score_tuned:.3f`, with $10^{-2}$ chosen at {glue:text}`n_tuned_high_pn:.0f` of
#   the {glue:text}`n_seeds:.0f` seeds; a clear gain at {repro-seeds}`protonet-gain:baseline1:pass` seeds);
#   pre-trained features with a fine-tuned logistic head reach {glue:text}`pn_score_pre:.3f`
#   ({glue:text}`pn_gain_pre:+.3f`; a clear gain at {repro-seeds}`protonet-gain:baseline7:pass`). We have no
#   confirmed explanation for ConML's harm. In our digit tasks every meta-test episode uses the same four
#   classes in a random label order, and meta-training episodes share classes heavily, so "different tasks"
#   differ mostly by the order of the same prototypes; pushing such models apart in cosine distance is a
#   different pressure from separating classes, and the paper's benchmarks (many classes per split) rarely put
#   the same classes in two tasks of a meta-batch.
# * **Alignment is not what the objective delivers** ({repro-status}`cnp-alignment-trained`,
#   {repro-status}`cnp-alignment`, {repro-status}`protonet-alignment`). After {glue:text}`steps_trained:.0f`
#   steps the ConML CNP's held-out models of different tasks are further apart than the plain learner's
#   ($d_{out}$ {glue:text}`cnpt_dout_ConML:.3f` against {glue:text}`cnpt_dout_plain:.3f`), but so are the
#   subsets of one task ($d_{in}$ {glue:text}`cnpt_din_ConML:.4f` against {glue:text}`cnpt_din_plain:.4f`), and
#   the worst seed's ratio of $d_{in}/d_{out}$ to the plain learner's is {glue:text}`cnpt_align_ConML:.2f`
#   (the other stream's {glue:text}`cnpt_align_rerun:.2f`); it is clearly above the brief's $0.8$ at
#   {repro-seeds}`cnp-alignment-trained:method:fail` seeds. At the pre-registered readings the worst-seed ratio
#   is {glue:text}`cnp_align_ConML:.2f` for the CNP and {glue:text}`pn_align_ConML:.2f` for the ProtoNet,
#   inside the wide tolerance band around $0.8$ at {repro-seeds}`cnp-alignment:method:edge` and
#   {repro-seeds}`protonet-alignment:method:edge` seeds, and a pass at none. The optimiser lowers
#   $d_{in}-d_{out}$ mostly through $d_{out}$, which the difference form rewards as much as a smaller $d_{in}$.
# * **No harm**, the brief's C2, shown as an illustration: ConML's worst score ratio to the plain learner is
#   {glue:text}`cnp_harm_ConML:.3f` after {glue:text}`steps_cnp:.0f` steps (the other stream's
#   {glue:text}`cnp_harm_rerun:.3f`), {glue:text}`cnpt_harm_ConML:.3f` after {glue:text}`steps_trained:.0f`
#   and {glue:text}`pn_harm_ConML:.3f` for the ProtoNet. A no-op scores $1$ and passes "at most $1.03$", and
#   the tolerance declared before the first run puts every worst-seed ratio between about $0.7$ and $1.5$
#   inside the band around $1.03$, where a value is never a pass: the narrow seed-0 pass of an earlier page
#   was noise, as the first review said.
#
# **What this says about the paper.** At ci scale the contrastive meta-objective, as we rebuilt it, does not
# give a CNP a gain beyond what another run of the same learner, weight decay or subset training gives; it makes
# worse a ProtoNet that prototypes of raw pixels already beat; and it does not do what its name says (the
# brief's bar, $d_{in}/d_{out}$ at most $0.8$ times the plain learner's, is met at no seed). With $\lambda$, the
# subset sizes and the form of the objective chosen by us (the paper's were not available), and toy tasks on
# which a Gaussian process or prototypes of raw pixels are better than either meta-learner, these are
# statements about our reading of ConML at CPU scale, not about the paper's tuned method on its benchmarks.
# The full-scale run (CNP read after 3000 and 6000 steps, ProtoNet after 1500, five seeds) is the judged
# table's full-scale column; its one positive signal, a CNP gain well beyond every meta-trained comparator,
# is described in the first bullet above.
#
# ## What a skeptic would try
#
# Reviewed by: two independent reviews. The first, of an earlier version of this page, graded the CNP no-harm
# pass as noise (every CNP variant early in training at ci; the pass held at one seed of ten) and the other
# checks as real failures. The second, of the converted page, asked for stronger naive baselines (weight
# decay, subset training without contrast, prototypes of raw pixels and of the untrained encoder, predicting
# $0$ for the CNP), a tuned learning rate whose grid includes ours, the no-harm checks shown as illustrations
# since a no-op passes them, the headline claims as the abstract states them, and an honest reason for the
# pre-registered tolerance; its text was lost, and this list is reconstructed from the changes made for it.
# What a skeptic would try against every counted test is measured by this notebook under the test's own
# measurement (ci, seed 0; gains are $1 - \overline{\text{score}}/\overline{\text{score}}_{plain}$, ratios the
# worst seed's over the plain learner's; three values are the CNP after {glue:text}`steps_cnp:.0f` and
# {glue:text}`steps_trained:.0f` steps and the ProtoNet):
#
# * **Another run of the plain learner** (the ablation of every test), from the same initial weights on
#   another stream of tasks: gains {glue:text}`cnp_gain_rerun:+.3f`, {glue:text}`cnpt_gain_rerun:+.3f` and
#   {glue:text}`pn_gain_rerun:+.3f`; $d_{in}/d_{out}$ ratios {glue:text}`cnp_align_rerun:.2f`,
#   {glue:text}`cnpt_align_rerun:.2f` and {glue:text}`pn_align_rerun:.2f`. ConML's: gains
#   {glue:text}`cnp_gain_ConML:+.3f`, {glue:text}`cnpt_gain_ConML:+.3f` and {glue:text}`pn_gain_ConML:+.3f`;
#   $d_{in}/d_{out}$ ratios {glue:text}`cnp_align_ConML:.2f`, {glue:text}`cnpt_align_ConML:.2f` and
#   {glue:text}`pn_align_ConML:.2f`.
# * **A tuned learning rate** for the plain learner, the best of $10^{-3}$, ours ($3\cdot10^{-3}$) and
#   $10^{-2}$ on meta-validation tasks (ours kept at {glue:text}`n_tuned_ours_cnp:.0f`,
#   {glue:text}`n_tuned_ours_tr:.0f` and {glue:text}`n_tuned_ours_pn:.0f` of the {glue:text}`n_seeds:.0f`
#   seeds, $10^{-2}$ chosen at {glue:text}`n_tuned_high_cnp:.0f`, {glue:text}`n_tuned_high_tr:.0f` and
#   {glue:text}`n_tuned_high_pn:.0f`): gains {glue:text}`cnp_gain_tuned:+.3f`,
#   {glue:text}`cnpt_gain_tuned:+.3f` and {glue:text}`pn_gain_tuned:+.3f`; $d_{in}/d_{out}$ ratios
#   {glue:text}`cnp_align_tuned:.2f`, {glue:text}`cnpt_align_tuned:.2f` and {glue:text}`pn_align_tuned:.2f`.
# * **Weight decay** ($10^{-3}$, not tuned): gains {glue:text}`cnp_gain_wd:+.3f`, {glue:text}`cnpt_gain_wd:+.3f`
#   and {glue:text}`pn_gain_wd:+.3f`; $d_{in}/d_{out}$ ratios {glue:text}`cnp_align_wd:.2f`,
#   {glue:text}`cnpt_align_wd:.2f` and {glue:text}`pn_align_wd:.2f`.
# * **Subset training without contrast** (the query loss of ConML's subset models, no contrast): gains
#   {glue:text}`cnp_gain_subset:+.3f`, {glue:text}`cnpt_gain_subset:+.3f` and {glue:text}`pn_gain_subset:+.3f`;
#   $d_{in}/d_{out}$ ratios {glue:text}`cnp_align_subset:.2f`, {glue:text}`cnpt_align_subset:.2f` and
#   {glue:text}`pn_align_subset:.2f`.
# * **ConML's term without task identity** (null pairing): gains {glue:text}`cnp_gain_null:+.3f`,
#   {glue:text}`cnpt_gain_null:+.3f` and {glue:text}`pn_gain_null:+.3f`; $d_{in}/d_{out}$ ratios
#   {glue:text}`cnp_align_null:.2f`, {glue:text}`cnpt_align_null:.2f` and {glue:text}`pn_align_null:.2f`.
# * **Gaussian-process regression** (sinusoids, no meta-learner): gains {glue:text}`cnp_gain_gp:+.3f` and
#   {glue:text}`cnpt_gain_gp:+.3f` over the plain CNP.
# * **Predicting $0$ everywhere** (sinusoids; context, not a comparator, as it is at chance): MSE
#   {glue:text}`cnp_score_zero:.2f`; the plain CNP after {glue:text}`steps_cnp:.0f` steps has
#   {glue:text}`cnp_plain_over_zero:.2f` times that error.
# * **Prototypes with no training** (digits): of raw pixels, gain {glue:text}`pn_gain_raw:+.3f` over the plain
#   ProtoNet and $d_{in}/d_{out}$ ratio {glue:text}`pn_align_raw:.2f`; in the untrained initial embedding, gain
#   {glue:text}`pn_gain_init:+.3f` and ratio {glue:text}`pn_align_init:.2f`.
# * **Pre-trained features with a fine-tuned head** (digits): gain {glue:text}`pn_gain_pre:+.3f` over the
#   plain ProtoNet.
# * **Longer training**: the post-hoc tests are the same runs trained five times longer. A ConML step costs
#   little more than a plain one (the subset models reuse the embeddings), so equal steps are about equal
#   compute, and no comparator is given more steps than the method.
#
# ## What the miniature cannot show
#
# * The paper's benchmarks (few-shot image classification on standard datasets, cross-domain transfer,
#   in-context learning with transformers) and its reported numbers, which we could not find.
# * Optimisation-based learners (MAML and its relatives) and in-context learners: not run here (a
#   closed-form ridge-head learner is implemented and tested but not on the page).
# * The paper's own choices of $\lambda$, of the number and size of subsets, of the distance and of the
#   InfoNCE form, and any tuning of them; we ran one value of $\lambda$ chosen on a pilot.
# * Whether ConML helps after long training with larger networks, on tasks where a meta-learner is needed:
#   at ci, on our sinusoids a Gaussian process beats every CNP, and on our digits prototypes of raw pixels
#   beat every ProtoNet, so neither task is one where the paper's setting (meta-learners that beat such baselines)
#   holds.
