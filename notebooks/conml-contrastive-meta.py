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

from repro.claims import Claims, at_most, greater_than, tolerance
from repro.papers import conml_contrastive_meta as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 8 s of CPU on one thread: 2 seeds, a few hundred meta-training steps (far from converged)
    "ci": dict(seeds=2, tasks=8, steps_cnp=200, steps_proto=100, test_tasks=100, lr=3e-3),
    # about 1.5 min of CPU: 5 seeds, 3000 / 1500 steps, 1000 held-out tasks
    "full": dict(seeds=5, tasks=8, steps_cnp=3000, steps_proto=1500, test_tasks=1000, lr=3e-3),
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
VARIANTS = ("plain", "ConML", "null pairing", "reversed")
LAMBDAS = (0.0, LAM, LAM, -LAM)
SHUFFLED = (False, False, True, False)
S, V = P.seeds, len(VARIANTS)
lam = torch.tensor(LAMBDAS, dtype=torch.float32).repeat_interleave(S)       # replica r = v * S + s
shuffled = torch.tensor(SHUFFLED).repeat_interleave(S)
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
# cost almost nothing.
#
# ## The experiment
#
# * **Tasks.** *Sinusoid regression* (the brief's ci task, after Finn et al. 2017):
#   $y=A\sin(x-\varphi)$ with $A\sim U[0.1,5]$, $\varphi\sim U[0,\pi]$, $x\sim U[-5,5]$; 10 support and 10
#   query points per task in training, 10 support and 10 query points on held-out tasks; score = query
#   mean squared error (MSE). *Few-shot digit classification* (the brief's ProtoNet task): scikit-learn's
#   8×8 digits, 4-way 5-shot with 5 queries per class; meta-training classes are the digits 0–5,
#   meta-test tasks use the unseen digits 6–9 (every test task is the four of them in a random label
#   order); score = query error rate.
# * **Variants**, each trained on the same task stream from the same initial weights, per seed:
#   *plain* (the standard baseline, $\lambda=0$); *ConML* ($\lambda=0.5$, $K=2$ subsets of half the
#   support points, resp. 3 of the 5 shots of every class); and two controls for which the paper's claim
#   should not hold. *Null pairing*: the same term and weight, but the task identities of the $K+1$ models
#   are randomly permuted within the meta-batch at each step, so "same task" pairs are mostly pairs of
#   different tasks (the contrast without its key ingredient, task identity). *Reversed*: $\lambda=-0.5$,
#   which pulls different tasks together and pushes one task's subsets apart.
# * **Training**: Adam (learning rate $3\cdot10^{-3}$), meta-batches of 8 tasks, all seeds and variants
#   trained side by side as independent replicas of one batched model (`K.BatchedMLP`; no parameter is
#   shared). ci: 2 seeds, 200 (CNP) and 100 (ProtoNet) steps, 100 held-out tasks, far too short to train
#   either learner (a smoke test of the pipeline); full: 5 seeds, 3000 and 1500 steps, 1000 held-out tasks.
# * **Measured** on held-out tasks: the score, and $d_{in}/d_{out}$ of the models (the $K+1$ models per
#   task built with the true task identities).
#
# **Claims, fixed before the first run** (the brief's checks C1 to C3, for each of the two learners):
#
# 1. *Alignment* (C1): on held-out tasks, $d_{in}/d_{out}$ with ConML is at most $0.8\times$ that of the
#    plain learner at every seed (measured: the largest ratio over seeds). Control: the null pairing.
# 2. *No harm* (C2): the held-out score (MSE or error rate) with ConML is at most $1.03\times$ the plain
#    learner's at every seed (measured: the largest ratio). Control: the reversed objective.
# 3. *Gain* (C3): the relative improvement $1-\overline{\text{score}}_{ConML}/\overline{\text{score}}_{plain}$
#    of the seed-averaged score is positive. Control: the null pairing. (The brief asserts this one only at
#    full scale; we record it at both, and the ci value is a short-training reading.)
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
#   which a ProtoNet trained on only six classes overfitted them so badly that its meta-test error rose
#   from 0.2 at initialisation to 0.5, worse than prototypes of raw pixels (0.08).
# * $\lambda=0.5$, $K=2$ subsets and the subset sizes are our choices (the paper's values were not
#   available). $\lambda$ was chosen from $\{0.1, 0.5\}$ on a pilot run with seed 100 (not a seed reported
#   here): at $0.1$ the held-out distances of the CNP hardly moved. Every seed of the page uses the same
#   value, for both learners.
# * "Every seed" means the seeds trained inside one run (2 at ci, 5 at full), not the brief's 3 separate
#   runs; the page's own seed changes the initial weights and task streams of all of them.
# * $d_{in}$ averages over all pairs of the $K+1$ models of a task (the subsets and the whole support set)
#   and $d_{out}$ over all pairs of models of different tasks, rather than only subset pairs and only
#   whole-set pairs; the null pairing and reversed controls are ours.

# %%
print(f"scale={P.scale}: {S} seeds x {V} variants trained side by side; lambda={LAM}, {N_VIEWS} subsets per task")

# %% [markdown]
# ### Sinusoid regression with a conditional neural process

# %%
rng_cnp = np.random.default_rng([seed, 1])
cnp = K.CNP(32, S, V, generator=gen)
hist_cnp = K.meta_train(
    cnp, lambda: K.sinusoid_batch(S, V, P.tasks, 10, 10, N_VIEWS, 5, rng_cnp),
    P.steps_cnp, lam, shuffled, P.lr, rng_cnp, wrap=lambda it: progress(it, total=P.steps_cnp, desc="CNP"))
test_cnp = K.sinusoid_batch(S, V, P.test_tasks, 10, 10, N_VIEWS, 5, np.random.default_rng([seed, 2]))
ev_cnp = {k: v.reshape(V, S).numpy() for k, v in K.evaluate(cnp, *test_cnp).items()}

# %% [markdown]
# ### Few-shot digit classification with a prototypical network

# %%
X, y = K.digits_meta_split()
Xr, yr = K.rotation_classes(X, y)
TRAIN_CLASSES = tuple(d + 10 * k for d in range(6) for k in range(4))   # digits 0-5 and their rotations
TEST_CLASSES = (6, 7, 8, 9)                                            # unseen digits, upright
rng_pn = np.random.default_rng([seed, 3])
proto = K.ProtoNet((64, 64, 32), S, V, generator=gen)
hist_pn = K.meta_train(
    proto, lambda: K.digits_batch(Xr, yr, TRAIN_CLASSES, S, V, P.tasks, 4, 5, 5, N_VIEWS, 3, rng_pn),
    P.steps_proto, lam, shuffled, P.lr, rng_pn, wrap=lambda it: progress(it, total=P.steps_proto, desc="ProtoNet"))
test_pn = K.digits_batch(Xr, yr, TEST_CLASSES, S, V, P.test_tasks, 4, 5, 5, N_VIEWS, 3, np.random.default_rng([seed, 4]))
ev_pn = {k: v.reshape(V, S).numpy() for k, v in K.evaluate(proto, *test_pn).items()}

# %% [markdown]
# ## Results
#
# ### What the learners do on held-out tasks
#
# Three held-out sinusoids (10 support points each) and the predictions of the plain and the ConML CNP of
# the first seed; the error rate of the ProtoNet on the unseen digits 6–9 is in the next figure.

# %%
xs_all = torch.linspace(-5, 5, 200).reshape(1, 1, 200, 1)
(xs, ys), _, _ = test_cnp
fig, axes = plt.subplots(1, 3, figsize=(11, 3.0), sharey=True)
with torch.no_grad():
    r = cnp.represent(xs[:, :3], ys[:, :3])                             # (R, 3, h)
    pred = cnp.predict(r, xs_all.expand(V * S, 3, 200, 1))
for b, ax in enumerate(axes):
    ax.scatter(xs[0, b, :, 0], ys[0, b, :, 0], color="k", s=18, zorder=3, label="support points")
    for v, style in ((0, "C0-"), (1, "C3--")):
        ax.plot(xs_all[0, 0, :, 0], pred[v * S, b, :, 0], style, label=f"{VARIANTS[v]} CNP")
    ax.set(xlabel="x (arbitrary units)", title=f"held-out task {b + 1}")
axes[0].set_ylabel("y (arbitrary units)")
axes[0].legend(fontsize=8)
fig.suptitle(f"CNP predictions from 10 support points (seed 1 of {S}, {P.steps_cnp} meta-training steps)")
plt.show()

# %% [markdown]
# ### Method against the baseline and the controls, over seeds
#
# Left: the held-out score of each variant (dots: seeds; bar: mean; line: ± one standard deviation).
# Right: the alignment/discrimination ratio $d_{in}/d_{out}$ of the held-out task models (lower: subsets of
# one task agree more, relative to how much different tasks differ).

# %%
fig, axes = plt.subplots(2, 2, figsize=(11, 6.4))
colors = ["C0", "C3", "C7", "C1"]
rows = (("CNP, sinusoid", ev_cnp, "held-out query MSE"), ("ProtoNet, digits 6-9", ev_pn, "held-out error rate"))
for i, (name, ev, ylab) in enumerate(rows):
    for j, (key, lab) in enumerate((("metric", ylab), ("ratio", "held-out $d_{in}/d_{out}$"))):
        ax = axes[i, j]
        vals = ev[key]
        ax.bar(range(V), vals.mean(1), yerr=vals.std(1, ddof=1) if S > 1 else None, color=colors, alpha=0.5,
               capsize=4)
        for v in range(V):
            ax.scatter(np.full(S, v) + np.linspace(-0.15, 0.15, S), vals[v], color=colors[v], s=14, zorder=3)
        ax.set_xticks(range(V), VARIANTS)
        ax.set(ylabel=lab + (" (dimensionless)" if key == "ratio" else ""), title=name)
plt.show()

# %% [markdown]
# ### Meta-training curves
#
# The query loss during meta-training (moving average over 50 steps; line: mean over seeds, band: ± one
# standard deviation), and the contrast $d_{in}-d_{out}$ that each variant sees with the task identities it
# is given (for the null pairing, the shuffled ones).

# %%
def smooth(h, w=50):
    w = min(w, len(h))
    k = np.ones(w) / w
    return np.stack([np.convolve(h[:, r], k, mode="valid") for r in range(h.shape[1])], 1)


fig, axes = plt.subplots(1, 4, figsize=(14, 3.2))
for i, (name, hist) in enumerate((("CNP", hist_cnp), ("ProtoNet", hist_pn))):
    for j, (key, lab) in enumerate((("val_loss", "query loss (MSE or cross-entropy, nats)"),
                                    ("contrast", "$d_{in}-d_{out}$ (dimensionless)"))):
        ax = axes[2 * i + j]
        h = smooth(hist[key]).reshape(-1, V, S)
        steps = np.arange(h.shape[0]) + 1
        for v in range(V):
            m, sd = h[:, v].mean(1), h[:, v].std(1)
            ax.plot(steps, m, color=colors[v], label=VARIANTS[v])
            ax.fill_between(steps, m - sd, m + sd, color=colors[v], alpha=0.2)
        ax.set(xlabel="meta-training step", ylabel=lab, title=name)
        if key == "val_loss":
            ax.set_yscale("log")
axes[0].legend(fontsize=8)
plt.show()

# %% [markdown]
# ### The numbers
#
# Mean ± standard deviation over the seeds of this run. The paper reports no numbers for these settings
# (none were found for any setting), so there is no column to set beside ours.

# %%
print(f"{'learner':10s} {'variant':13s} {'held-out score':>18s} {'d_in':>8s} {'d_out':>8s} {'d_in/d_out':>11s}")
for name, ev in (("CNP", ev_cnp), ("ProtoNet", ev_pn)):
    for v in range(V):
        m = ev["metric"][v]
        print(f"{name:10s} {VARIANTS[v]:13s} {m.mean():9.4f} ± {m.std(ddof=1):.4f} "
              f"{ev['d_in'][v].mean():8.4f} {ev['d_out'][v].mean():8.4f} {ev['ratio'][v].mean():11.4f}")

# %% [markdown]
# ## The checks

# %%
TRAINED = tolerance(rel=0.3, abs=0.02, why="end point of a few hundred to a few thousand float32 Adam steps; "
                    "kernel dispatch and BLAS change the trajectory")


def ratios(ev, key, v):
    """Per seed: variant v over the plain learner (variant 0)."""
    return ev[key][v] / ev[key][0]


def gain(ev, v):
    return 1.0 - ev["metric"][v].mean() / ev["metric"][0].mean()


for tag, name, ev, score in (("cnp", "CNP (sinusoid)", ev_cnp, "query MSE"),
                             ("protonet", "ProtoNet (digits)", ev_pn, "query error rate")):
    claims.check(f"{tag}-alignment",
                 statement=f"{name}: held-out d_in/d_out with ConML over that of the plain learner, largest over {S} seeds",
                 paper="ConML reduces the inner-task distance and enlarges the inter-task distance (no numbers); "
                       "brief C1: ratio <= 0.8 at every seed",
                 criterion=at_most(0.8), measured=float(ratios(ev, "ratio", 1).max()),
                 control=float(ratios(ev, "ratio", 2).max()),
                 control_label="the same term with randomly permuted task identities (null pairing)", tol=TRAINED)
    claims.check(f"{tag}-no-harm",
                 statement=f"{name}: held-out {score} with ConML over the plain learner's, largest over {S} seeds",
                 paper="ConML brings a boost for every meta-learner tried (no numbers); brief C2: ratio <= 1.03 at every seed",
                 criterion=at_most(1.03), measured=float(ratios(ev, "metric", 1).max()),
                 control=float(ratios(ev, "metric", 3).max()),
                 control_label="the reversed objective (lambda = -0.5: tasks pulled together, subsets pushed apart)",
                 tol=TRAINED)
    claims.check(f"{tag}-gain",
                 statement=f"{name}: relative improvement of the seed-mean held-out {score}, 1 - ConML / plain",
                 paper="significant boost in few-shot performance (no numbers); brief C3: mean score(ConML) < mean score(plain)",
                 criterion=greater_than(0.0), measured=float(gain(ev, 1)), control=float(gain(ev, 2)),
                 control_label="the same term with randomly permuted task identities (null pairing)", tol=TRAINED)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Mostly not reproduced at our scale; one learner shows the gain at full scale.** Of the six
# pre-registered claims (three brief checks for each of two meta-learners, none changed since the first
# run), the ci run at seed 0 reproduces one against a failing control (CNP no-harm, 1.028 against the
# bound 1.03, a narrow pass), and the full-scale run at seed 0 reproduces a different one (CNP gain). The
# ci run is a smoke test: 200 steps leave the CNP untrained (held-out MSE about 2.1 for every variant,
# against 0.3 to 0.4 after 3000 steps), so its readings say little about the paper. The full-scale values
# quoted below are from the run at seed 0 (5 seeds trained inside it); the table "Across seeds and scales"
# above gives the ci statuses over seeds 0–9 and the full-scale status.
#
# Over seeds 0–9 at ci scale no claim holds at every seed. The seed-0 pass of CNP no-harm holds at that
# seed only (the ratio is 1.05 to 1.55 at the other nine), CNP alignment passes at one seed (seed 4) and
# ProtoNet no-harm at one (seed 8, exactly at the bound); the two gain claims and ProtoNet alignment fail at
# all ten. ConML's seed-mean score is worse than the plain learner's at every ci seed for both learners:
# after 100 to 200 steps the contrastive term slows the learning of the task itself.
#
# * *CNP on sinusoids, full scale.* ConML lowers the seed-mean held-out MSE from 0.382 ± 0.066 to
#   0.315 ± 0.034 (a relative gain of 0.176), while the null pairing makes it worse (0.425, gain −0.114)
#   and so does the reversed objective (0.393): **the gain claim is reproduced** at full scale, and the
#   failing null control says that it comes from the task identities, not from the extra term as such.
#   But it is not a gain at every seed: at the worst of the five seeds ConML's MSE is 1.06 times the plain
#   learner's, so the brief's *no harm at every seed* (≤ 1.03) is **not reproduced** at full scale.
# * *Alignment is not what the objective delivers.* With ConML the CNP's held-out task representations
#   move far apart (mean $d_{out}$ 0.24 → 0.99) but the subsets of one task move apart too
#   ($d_{in}$ 0.017 → 0.058), so $d_{in}/d_{out}$ falls only from 0.071 to 0.058 on average, and not at all at
#   the worst seed (ratio 1.0 at full scale; 0.84 at ci): the brief's ≤ 0.8 at every seed is **not
#   reproduced** for either learner. The optimiser reaches a lower $d_{in}-d_{out}$ mostly through
#   $d_{out}$, which the difference form rewards as much as a smaller $d_{in}$.
# * *ProtoNet on digits: ConML hurts.* On the unseen digits 6–9 the ConML ProtoNet errs more often than the
#   plain one at both scales (full: error rate 0.247 ± 0.048 against 0.213 ± 0.039, gain −0.16; ci: 0.320
#   against 0.243), and its held-out $d_{in}/d_{out}$ does not fall (0.109 against 0.108). All three ProtoNet
#   claims are **not reproduced**. We have no confirmed explanation. In our digit tasks every meta-test
#   episode uses the same four classes in a random label order, and meta-training episodes share classes
#   heavily, so "different tasks" differ mostly by the order of the same prototypes; pushing such models
#   apart in cosine distance is a different pressure from separating classes, and the paper's
#   benchmarks (many classes per split) rarely put the same classes in two tasks of a meta-batch.
#
# **What this says about the paper.** Our miniature supports the paper's direction for one amortisation-based
# learner (a CNP on sinusoids, where the null-pairing control shows that task identity is what helps), and
# does not support it for a metric-based learner on a toy digit benchmark that is unlike the paper's. The
# brief's stricter checks (a 20% drop of $d_{in}/d_{out}$ and no loss at any seed) fail for both learners. With
# $\lambda$, the subset sizes and the exact form of the objective chosen by us (the paper's were not
# available), these are statements about our reading of ConML at CPU scale, not about the paper's tuned
# method.
#
# ## What the miniature cannot show
#
# * The paper's benchmarks (few-shot image classification on standard datasets, cross-domain transfer,
#   in-context learning with transformers) and its reported numbers, which we could not find.
# * Optimisation-based learners (MAML and its relatives) and in-context learners: not run here (a
#   closed-form ridge-head learner is implemented and tested but not on the page).
# * The paper's own choices of $\lambda$, of the number and size of subsets, of the distance and of the
#   InfoNCE form, and any tuning of them; we ran one value of $\lambda$ chosen on a pilot.
# * Whether ConML still helps after long training with larger networks, where the plain learners are much
#   better than ours (the CNP's held-out MSE of 0.3 to 0.4 is far from converged).
