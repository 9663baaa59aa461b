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
# # DOP: continual model merging by dual orthogonal projections
#
# *When fine-tuned experts arrive one at a time, the paper pulls the merged weights toward each model only
# inside that model's own singular subspaces and balances the two pulls by multi-gradient descent. It claims
# that this keeps old tasks and learns the new one better than running averages, task arithmetic and OPCM.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue
from sklearn.datasets import load_digits

from repro.claims import Claims, Comparator, at_least, is_true, tolerance
from repro.continual import average_accuracy, plot_accuracy_matrix, summarize_runs
from repro.papers import dop_continual_merging as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 10 s on one thread (measured): 3 runs x 5 tasks, MLP 64-64-64-10, every method merged in the page's
    # task order and in the official shuffled orders at once (6 batched runs)
    "ci": dict(n_tasks=5, n_runs=3, hidden=64, n_train=600, pre_steps=200, ft_steps=80),
    # minutes: 5 runs x 8 tasks (adds inversion and more permutations), MLP 64-128-128-10
    "full": dict(n_tasks=8, n_runs=5, hidden=128, n_train=1200, pre_steps=400, ft_steps=150),
})
claims = Claims("dop-continual-merging",
                title="Continual Model Merging without Data: Dual Projections for Balancing Stability and Plasticity",
                authors="Enneng Yang, Anke Tang, Li Shen, Guibing Guo, Xingwei Wang, Xiaochun Cao, Jie Zhang",
                paper_url="https://openreview.net/forum?id=zD5cUX67b9", scale=scale, seed=seed)
DOP = dict(eps=0.99999, steps=200, lr=1e-4, ema_beta=0.999, alpha0=0.8, mode="uv")   # fusion_bench dop.yaml
TA_LAMBDAS = (0.3, 0.5, 1.0)
OFFICIAL_TA = 0.3   # fusion_bench config/method/opcm/task_arithmetic.yaml: scaling_factor 0.3
MID = "running midpoint"   # DOP's start point at every merge, no optimisation (kernel method "dop-start")
FIXED = "DOP fixed alpha"    # DOP with fusion_bench's mgda: false (alpha stays at 0.8): the ablation of MGDA
IDENT_HALF = "DOP-identity, alpha 0.5"   # the ablation at the symmetric weight: its minimiser is the midpoint
NEWEST, EMA, KEEP = "newest expert", "EMA merge 0.6", "keep first expert"   # the review's naive merges
EMA_W = 0.6   # the review's fixed weight of the newest expert in the exponential-moving merge (named by the review)

# %% [markdown]
# ## The claim
#
# In *continual* model merging, the experts (models fine-tuned from one pretrained model on different tasks)
# arrive one after the other. Only the current merged model, the pretrained model and the newest expert are at
# hand: no data and no older experts. The paper defines the merge's **stability** as how little the merged
# model changes the outputs of the previous merged model on old data, and its **plasticity** as how close it
# comes to the new expert on new data. It claims that its data-free method, DOP, balances the two better than
# continual weight averaging, continual task arithmetic and OPCM (the same group's earlier method). Its
# experiments merge CLIP vision transformers over 8 to 20 tasks. The brief found no headline accuracy of the
# paper. The numbers it did find are context: OPCM's abstract reports 5 to 8 points over earlier
# continual-merging methods.
#
# The paper's headline claims, in our words, and where this page tests them:
#
# 1. *DOP is more accurate than the continual-merging baselines* (averaging, task arithmetic, OPCM): the tests
#    `beats-seq-avg`, `beats-seq-ta` and `beats-opcm`, each also under the official configuration. Every one of
#    them also stands beside two naive merges that use none of the paper's ideas: the newest expert alone, and a
#    fixed exponential-moving merge that gives the newest expert the weight 0.6.
# 2. *Its two projections keep old tasks while taking in the new one*: `least-forgetting` (both configurations),
#    beside a no-op merge that keeps the first expert and so forgets nothing.
# 3. *Recast as a multi-objective problem, MGDA balances stability and plasticity better than a fixed weighting*:
#    `mgda-over-fixed-alpha` (both configurations): what DOP's optimisation adds to its start point (the running
#    midpoint), with its fixed-$\alpha$ form as the ablation under the same criterion, so MGDA is compared with a
#    fixed weight only indirectly. That MGDA's weights
#    stay on the simplex and that each layer's optimisation descends are properties of the optimiser, shown by the
#    implementation checks `alpha-in-simplex` and `pareto-descent`.
#
# ## The method
#
# Take one linear layer with pretrained weight $W_0$, merged weight so far $W_{\text{prev}}$ and new expert
# $W_{\text{new}}$. Each model $i$ has a task vector $\tau_i = W_i - W_0 = U_i S_i V_i^\top$. A weight update
# of a linear layer is a sum of outer products $\delta x^\top$, so the top right singular vectors $V_{i,k}$
# approximate the span of the task's inputs, and the left ones $U_{i,k}$ that of its output gradients.
# Without any data, DOP measures the distance of a candidate $W$ to model $i$ only inside those spaces,
# weighted by the singular values:
#
# $$L_i(W) = \|S_{i,k} U_{i,k}^\top (W - W_i)\|_F^2 + \|(W - W_i) V_{i,k} S_{i,k}\|_F^2 ,$$
#
# where $k$ is the number of leading singular values whose cumulative share stays below $\varepsilon$. The
# method is "dual" because it uses both the left and the right projection. Stability is $L_{\text{prev}}$ and
# plasticity is $L_{\text{new}}$. Adam starts from the midpoint $(W_{\text{prev}} + W_{\text{new}})/2$ and
# descends $\alpha L_{\text{prev}} + (1-\alpha) L_{\text{new}}$. At each step, $\alpha$ is the weight of the
# minimum-norm point between the two loss-normalised gradients (MGDA, a Pareto-stationary direction),
# smoothed by an exponential moving average. Biases are averaged. The kernels
# (`src/repro/papers/dop_continual_merging.py`) follow fusion_bench's `dop.py` with its configuration
# defaults: $\varepsilon = 0.99999$, 200 Adam steps at learning rate $10^{-4}$, EMA $\beta = 0.999$ started
# at $\alpha = 0.8$, projections "uv". Our Adam step uses the closed-form gradient
# $2(U S^2 U^\top \Delta + \Delta V S^2 V^\top)$ instead of autograd (the same numbers, faster).
#
# ## The experiment
#
# This is a miniature of the paper's protocol on scikit-learn's digits (8x8 images, intensities scaled to
# [0, 1]). The tasks are input **domains** of the same 10-class problem: the identity, rotations by 90 and 180
# degrees, the transpose and a fixed random pixel permutation. Full scale adds the inverted image and three
# more permutations, some inverted (8 tasks). Each run draws a random 600/1197 train/test split (full:
# 1200/597), trains an MLP on the identity domain as the "pretrained" model, and fine-tunes one expert per
# domain from it (full-batch Adam). After each arrival, every method produces a merged model, which is
# evaluated on the test images of every domain seen so far. This gives the accuracy matrix $A_{ij}$ (after
# task $i$, on task $j$), its final average (ACC), the average incremental accuracy and the forgetting
# (`repro.continual`). All methods merge the same experts in the same runs:
#
# * **DOP**, the paper's method.
# * **DOP-identity** (**the ablation** of tests 1 to 6): the same MGDA-Adam optimisation with the projections
#   replaced by identities, so plain distances to both models with no data spaces. It removes exactly the
#   paper's ingredient, the dual projections.
#   With $\alpha$ held at $0.5$, this ablation's objective $\tfrac12\|W - W_{\text{prev}}\|^2 + \tfrac12\|W -
#   W_{\text{new}}\|^2$ is smallest exactly at its start point, the midpoint: at the symmetric weight the
#   ablation *is* the running midpoint below. The notebook runs it to show this (an implementation check,
#   `identity-half-is-midpoint`). With fusion_bench's start at $\alpha = 0.8$ it is pulled toward the merged model.
# * **DOP with a fixed $\alpha$** (the ablation of MGDA, test 7): the same projections and Adam steps, with the
#   weight held at fusion_bench's $\alpha = 0.8$ (its `mgda: false` alternative).
# * **DOP without its optimisation** (the running midpoint, a second ablation, listed first among each test's
#   baselines): each merge averages the merged model and the new expert 1:1, with no optimisation. This is
#   DOP's start point, and an exponential running average of the experts. The independent review found that it
#   passes the first test.
# * **The newest expert** alone: each merge simply keeps the latest fine-tuned model.
# * **A fixed exponential-moving merge**: each merge takes 0.6 of the newest expert and 0.4 of the merged model,
#   with no optimisation and no data. The reviewer named the weight 0.6, and we kept it.
# * **A no-op merge**: the first expert, kept unchanged. It forgets nothing by construction, and is the
#   comparator of the forgetting tests only.
# * **seq-avg**: continual weight averaging, the running mean of the experts.
# * **seq-TA**: continual task arithmetic $\theta_0 + \lambda\sum_i\tau_i$ with $\lambda \in \{0.3, 0.5,
#   1.0\}$. Two versions are compared. The *oracle* version takes the $\lambda$ with the best final ACC *on the
#   test sets*. It is a tuned naive baseline and stronger than the paper's. *seq-TA 0.3* is fusion_bench's
#   fixed `scaling_factor`, the paper's own baseline.
# * **OPCM**: fusion_bench's OPCM. The new task vector is projected off the merged one's leading singular
#   block ($\alpha = 0.5$), and the merged task vector is rescaled to the mean task-vector norm.
#
# **Two configurations per run.** *Page order*: the experts arrive in domain order (identity first). This was
# the page's design before the official code was read. *Official order*: each run draws its own random task
# order, as fusion_bench's `shuffle_order: true` does (`K.shuffled_orders`), and merges the same experts in
# that order. Both configurations are merged in one batch.
#
# ci: 3 runs (seeds `100*seed + 0..2`), 5 tasks, MLP 64-64-64-10, 200 pretraining and 80 fine-tuning steps.
# full: 5 runs, 8 tasks, MLP 64-128-128-10, 400 and 150 steps.
#
# **Tests.** The first four were fixed before the first run. Their thresholds come from the brief: 2 points
# over weight averaging, 1 point over the best task arithmetic, at least OPCM's ACC, and no more forgetting
# than the least-forgetting baseline. When the book asked every test for its ablation and naive baselines
# (issue 31), their method, setting and criterion stayed as they were. The old single control became the
# ablation, and baselines were added under the same measurement. Each value is a mean over the runs of one
# notebook seed, in points. Every test's ablation is DOP-identity (no projections), and its first baseline is DOP
# without its optimisation (the running midpoint), the comparator the first review asked to stand beside
# `beats-seq-avg`. The independent review of the converted page added the newest expert and the 0.6 moving merge
# to every accuracy test, and the no-op merge to the forgetting tests. Adding a comparator leaves a test's
# measurement and criterion as they were, and can only take a pass away from DOP.
#
# 1. `beats-seq-avg`: ACC(DOP) $-$ ACC(seq-avg) $\ge 2$. Baselines: running midpoint, oracle seq-TA, seq-TA 0.3,
#    newest expert, moving merge 0.6.
# 2. `beats-seq-ta`: ACC(DOP) $-$ ACC(oracle seq-TA) $\ge 1$. Baselines: running midpoint, OPCM, newest expert,
#    moving merge 0.6.
# 3. `beats-opcm`: ACC(DOP) $-$ ACC(OPCM) $\ge 0$. Baselines: running midpoint, oracle seq-TA, seq-TA 0.3, newest
#    expert, moving merge 0.6.
# 4. `least-forgetting`: min(forgetting of seq-avg, oracle seq-TA, OPCM) $-$ forgetting(DOP) $\ge 0$. Baselines:
#    running midpoint, no-op merge.
#
# Added post hoc for issue 32, because the official code departs from the page in two ways that can move a
# claim. They were designed on seeds 0-9 and would count only once confirmed on seeds 10-19; none of the
# post-hoc tests on this page (these and test 7) was confirmed there, so none counts. The thresholds are
# the ones above.
#
# 5. `beats-seq-ta-lambda03`: test 2 against the paper's own baseline, seq-TA at the fixed $\lambda = 0.3$
#    (page order). The oracle seq-TA is one of its baselines.
# 6. `beats-seq-avg-official`, `beats-seq-ta-official`, `beats-opcm-official`, `least-forgetting-official`:
#    tests 1 to 4 under the official configuration, with shuffled task orders and seq-TA at $\lambda = 0.3$. In
#    tests 1, 3 and 4 the oracle seq-TA is re-chosen on this configuration's runs.
#
# Added post hoc after the independent review, because the paper's MGDA headline had no test. Designed on seeds
# 0-9:
#
# 7. `mgda-over-fixed-alpha` (and `-official`): ACC(DOP) $-$ ACC(running midpoint) $\ge 0$, outside the tolerance
#    band, so a gain of more than about one point. Both DOP and its fixed-$\alpha$ form start every merge at the
#    midpoint, so each one's value is what its optimisation adds. The ablation is DOP with $\alpha$ fixed at 0.8;
#    the test does not measure DOP against it directly.
#    Baselines: newest expert and moving merge 0.6, measured from the same midpoint. The threshold is the one of
#    `beats-opcm`: no worse, outside the band.
#
# **Deviations from the paper**
#
# * Data and models: digits domains and a 3-layer MLP, where the paper uses CLIP ViT-B/32, B/16 and L/14 on 8, 14
#   and 20 image-classification tasks. The "pretrained" model saw only one domain, so the task vectors are large
#   and conflict strongly (every domain needs its own first layer). This is far from the small, nearly
#   orthogonal task vectors of fine-tuned CLIP models.
# * Heads: fusion_bench merges only the CLIP *vision* model. Each task is evaluated with its own frozen
#   zero-shot classification head, built from that task's class names and never merged. Our domains share their
#   labels, so an MLP's last layer plays the head. Each expert fine-tunes it, and every method merges it like
#   the other layers. This is not run in the official form (see "Against the official code").
# * Task order: the page's order is fixed; fusion_bench shuffles it. Both are run (the official-order tests).
# * Continual task arithmetic: fusion_bench fixes $\lambda = 0.3$; the page's pre-registered test compares with
#   the test-set oracle over $\{0.3, 0.5, 1.0\}$. Both are run.
# * DOP's and OPCM's hyper-parameters are fusion_bench's defaults, tuned for CLIP and not for this MLP. We tuned
#   nothing.
# * No continual TIES-merging, MagMax or other baselines of the paper.

# %%
X, y = load_digits(return_X_y=True)
runs = [100 * seed + r for r in range(P.n_runs)]
Z = K.build_experts(X / 16.0, y, P.n_tasks, runs, hidden=P.hidden, n_train=P.n_train,
                    pre_steps=P.pre_steps, ft_steps=P.ft_steps)
orders = K.shuffled_orders(P.n_tasks, runs)       # the official configuration: one random order per run
both = K.concat_zoos(Z, K.reorder_zoo(Z, orders))  # runs 0..B-1: page order; B..2B-1: official order
B, T = P.n_runs, P.n_tasks
print("expert accuracy on its own domain (mean over runs):", np.round(Z["expert_acc"].mean(0), 3))
print("official (shuffled) task orders per run:", orders.tolist())

# %%
methods = {"seq-avg": ("seq-avg", {})}
methods.update({f"seq-TA {lam}": ("seq-ta", {"lam": lam}) for lam in TA_LAMBDAS})
methods.update({"OPCM": ("opcm", {}), "DOP": ("dop", DOP), "DOP-identity": ("dop-identity", DOP),
                MID: ("dop-start", {}), FIXED: ("dop", {**DOP, "mgda": False}),
                IDENT_HALF: ("dop-identity", {**DOP, "mgda": False, "alpha0": 0.5}),
                NEWEST: ("newest", {}), EMA: ("ema", {"w": EMA_W}), KEEP: ("keep-first", {})})
A, infos, kept = {"page": {}, "official": {}}, {}, {}
for name, (method, kw) in progress(methods.items(), total=len(methods), desc="methods"):
    infos[name] = []
    models = K.merge_sequence(method, both["params0"], both["experts"], infos=infos[name], **kw)
    if name in (MID, IDENT_HALF):
        kept[name] = models
    M = K.accuracy_matrix(models, both["X_test"], both["y_test"])        # (2B, T, T)
    A["page"][name], A["official"][name] = M[:B], M[B:]
S = {cfg: {name: summarize_runs(M) for name, M in A[cfg].items()} for cfg in A}
acc = {cfg: {n: 100 * np.array([average_accuracy(M) for M in A[cfg][n]]) for n in A[cfg]} for cfg in A}
forg = {cfg: {n: 100 * S[cfg][n]["forgetting"][0] for n in A[cfg]} for cfg in A}
# the oracle seq-TA of each configuration: the lambda with the best mean final ACC on the test sets
best_ta = {cfg: max((n for n in A[cfg] if n.startswith("seq-TA")), key=lambda n: acc[cfg][n].mean()) for cfg in A}
TA03 = f"seq-TA {OFFICIAL_TA}"
print("oracle seq-TA (chosen on test):", best_ta)
# the identity ablation at alpha = 0.5 against the running midpoint: largest weight difference over runs, merges, layers
half_gap = max(float((Wa - Wb).abs().max()) for ma, mb in zip(kept[IDENT_HALF], kept[MID])
               for (Wa, _), (Wb, _) in zip(ma, mb))
print(f"DOP-identity at alpha = 0.5 vs the running midpoint: max |weight difference| {half_gap:.1e}")

# %% [markdown]
# ## Results
#
# Final average accuracy (ACC), average incremental accuracy, forgetting and backward transfer, in points, as
# mean ± standard deviation over the runs. All methods merge the same experts, first in the page's order and
# then in the official shuffled orders:

# %%
own = 100 * Z["expert_acc"].mean(1)      # per run: mean over tasks of each expert on its own domain
for cfg, title in (("page", "page order (identity first)"), ("official", "official configuration (shuffled orders)")):
    print(f"\n{title}")
    print(f"{'method':26s} {'ACC':>13s} {'avg incr.':>13s} {'forgetting':>13s} {'BWT':>13s}")
    print(f"{'experts (own domain)':26s} {own.mean():6.1f} ± {own.std():4.1f}")
    for name, s in S[cfg].items():
        cells = " ".join(f"{100 * s[k][0]:6.1f} ± {100 * s[k][1]:4.1f}"
                         for k in ("acc", "avg_incremental", "forgetting", "bwt"))
        print(f"{name:26s} {cells}")

# %% [markdown]
# At seed 0, in the page's order, DOP ends at {glue:text}`acc_page_dop:.1f`% against
# {glue:text}`acc_page_seqavg:.1f`% for weight averaging, {glue:text}`acc_page_mid:.1f`% for the running
# midpoint, {glue:text}`acc_page_opcm:.1f`% for OPCM, {glue:text}`acc_page_oracle:.1f`% for the oracle task
# arithmetic and {glue:text}`acc_page_ta03:.1f`% for task arithmetic at $\lambda = 0.3$. Its ablation
# DOP-identity ends at {glue:text}`acc_page_ident:.1f`%. In the official orders the same methods end at
# {glue:text}`acc_official_dop:.1f`%, {glue:text}`acc_official_seqavg:.1f`%, {glue:text}`acc_official_mid:.1f`%,
# {glue:text}`acc_official_opcm:.1f`%, {glue:text}`acc_official_oracle:.1f`%, {glue:text}`acc_official_ta03:.1f`%
# and {glue:text}`acc_official_ident:.1f`%. DOP forgets {glue:text}`forg_page_dop:.1f` points (page order)
# against {glue:text}`forg_page_seqavg:.1f` for weight averaging. The review's naive merges end, in the page's
# order, at {glue:text}`acc_page_newest:.1f`% (the newest expert alone) and {glue:text}`acc_page_ema:.1f`% (the
# moving merge with weight {glue:text}`ema_w:.1f` on the newest expert). DOP with a fixed $\alpha$ ends at
# {glue:text}`acc_page_fixed:.1f`%.
#
# The accuracy matrices in the page's order, averaged over the runs. Rows are "after the $i$-th expert
# arrived" and columns are the domain evaluated. The diagonal is plasticity; the columns below it are stability.

# %%
shown = ["seq-avg", best_ta["page"], "OPCM", "DOP", "DOP-identity", MID]
fig, axes = plt.subplots(2, 3, figsize=(11, 7.2))
for ax, name in zip(axes.ravel(), shown):
    im = plot_accuracy_matrix(ax, A["page"][name].mean(0), title=f"{name}: ACC {acc['page'][name].mean():.1f}%")
fig.colorbar(im, ax=axes, shrink=0.7, label="test accuracy (fraction), mean over runs")
plt.show()

# %%
steps = np.arange(1, T + 1)
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), layout="constrained")
for name in shown:
    avg = np.array([[average_accuracy(M, i) for i in range(T)] for M in A["page"][name]]) * 100    # (runs, T)
    diag = 100 * np.diagonal(A["page"][name], axis1=1, axis2=2)
    axes[0].errorbar(steps, avg.mean(0), yerr=avg.std(0), capsize=3, marker="o", ms=3, label=name)
    axes[1].errorbar(steps, diag.mean(0), yerr=diag.std(0), capsize=3, marker="o", ms=3, label=name)
axes[0].plot(steps, 100 * np.array([Z["expert_acc"][:, :i + 1].mean() for i in range(T)]), "k--", label="experts")
axes[0].set(xlabel="experts merged", ylabel="accuracy on the tasks seen (%)", title="average accuracy after each merge")
axes[1].set(xlabel="task (just merged)", ylabel="accuracy on the newest task (%)", title="plasticity: diagonal of A")
axes[0].legend(fontsize=7)
for ax in axes:
    ax.set_xticks(steps)
plt.show()

# %% [markdown]
# The two configurations side by side: the final ACC of every run (dots) and its mean over the runs (bar), in
# the page's order and in the official shuffled orders. The official orders change which expert is merged
# first and last, so they also change which domains the later, heavier merges favour:

# %%
names = ["DOP", "DOP-identity", FIXED, MID, EMA, NEWEST, "OPCM", "seq-avg", "seq-TA 0.3", "seq-TA 0.5", "seq-TA 1.0"]
fig, ax = plt.subplots(figsize=(11, 3.6), layout="constrained")
for j, cfg in enumerate(("page", "official")):
    x = np.arange(len(names)) + (j - 0.5) * 0.38
    ax.bar(x, [acc[cfg][n].mean() for n in names], width=0.36, alpha=0.5, label=f"{cfg} order")
    for xi, n in zip(x, names):
        ax.plot(np.full(B, xi), acc[cfg][n], "k.", ms=4)
ax.set_xticks(np.arange(len(names)), [n.replace(" ", "\n", 1) for n in names], fontsize=7)
ax.set(ylabel="final ACC (%)", title="final ACC per run, page order vs official shuffled orders")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# DOP's MGDA weight $\alpha$ (the weight of stability) along the 200 Adam steps of each merge, per layer, as the
# mean over the runs in the page's order. It starts at fusion_bench's $0.8$. With EMA $\beta = 0.999$ it can
# travel only {glue:text}`max_alpha_travel:.2f` of the way to the instantaneous min-norm solution in 200 steps:

# %%
fig, ax = plt.subplots(figsize=(6.5, 3.6))
for t, step_info in enumerate(infos["DOP"], start=2):
    for li, info in enumerate(step_info):
        ax.plot(info["alpha"][:, :B].mean(1), color=plt.cm.viridis((t - 2) / max(T - 2, 1)), ls=["-", "--", ":"][li % 3],
                label=f"merge {t}" if li == 0 else None)
ax.set(xlabel="Adam step", ylabel=r"stability weight $\alpha$", title="MGDA weights (line style: layer 1, 2, 3)")
ax.legend(fontsize=7, ncol=2)
plt.show()

# %% [markdown]
# ### The paper's numbers beside ours
#
# The brief found no accuracy table of the paper. The paper's row says so and gives the one comparable
# number the brief found (OPCM's reported gain over earlier continual-merging methods).

# %%
gap = lambda cfg, other: float(acc[cfg]["DOP"].mean() - acc[cfg][other].mean())
print(f"{'setting':62s} {'DOP - seq-avg':>14s} {'DOP - TA':>10s} {'DOP - OPCM':>11s}")
print(f"{'paper: CLIP ViT, 8-20 tasks (DOP numbers not retrieved)':62s} {'n/a':>14s} {'n/a':>10s} {'n/a':>11s}")
print(f"{'context: OPCM abstract, OPCM over earlier CMM methods':62s} {'5 to 8':>14s} {'5 to 8':>10s} {'-':>11s}")
for cfg, ta, label in (("page", best_ta["page"], "page order, oracle TA"), ("official", TA03, "official orders, TA 0.3")):
    print(f"{'ours (' + label + '), ' + str(T) + ' tasks, ' + str(B) + ' runs':62s} "
          f"{gap(cfg, 'seq-avg'):14.1f} {gap(cfg, ta):10.1f} {gap(cfg, 'OPCM'):11.1f}")

# %% [markdown]
# ## Against the official code
#
# The paper's code is [tanganke/fusion_bench](https://github.com/tanganke/fusion_bench) at commit `54c9e8c`:
# the files `fusion_bench/method/dop/dop.py`, `min_norm_solvers.py` and `utils.py`, and for the baselines
# `fusion_bench/method/opcm/opcm.py` and `task_arithmetic.py`, with their configs `config/method/dop/dop.yaml`
# and `config/method/opcm/*.yaml`. fusion_bench does not import here, because it needs lightning,
# transformers and omegaconf. The golden file `tests/papers/golden/dop-continual-merging.json` keeps seeded
# float64 inputs, the configurations and the outputs:
#
# * The per-layer DOP optimisation (`ContinualDOPForCLIP._optimize_weight`) was run on three configurations:
#   the `dop.yaml` defaults with MGDA and EMA; $\varepsilon = 0.9$ with lr $10^{-2}$; and fixed $\alpha$
#   with the "v" projection only. The loss `cal_loss_i`, the two-gradient min-norm weight (interior and
#   boundary: the official solver returns 0.999, not 1) and OPCM's `merge_linear_weights` were also run. For
#   these cases the official function bodies were executed unchanged, outside the project, with the framework
#   stubbed. `dop_merge_layer`, `dop_loss`, `min_norm_2` and `opcm_clean` agree with them to within $10^{-15}$.
# * Three cases were added after an official-code re-check found five mutants of our kernels that the earlier
#   cases let through: the `ema` flag ignored, biases taking the new expert, OPCM's split-rank threshold
#   shifted, `previous_lambda_t` dropped, and OPCM's $r\times r$ block zeroing removed (the earlier OPCM case
#   has $r = 1$). The new cases are a layer with MGDA *without* EMA, a whole continual DOP run on a two-layer
#   MLP with biases (MGDA without EMA), and a whole OPCM run over three merges with $r = 2$ at every layer and
#   merge. Their expected values come from our own transcription of the official `run()` functions (autograd
#   and `torch.optim.Adam`, as fusion_bench uses them); they were not executed from the official files. That
#   transcription reproduces every earlier golden case to $4\times10^{-16}$. A unit test pins OPCM's rule
#   $r = \arg\max(\text{cumulative share} > \alpha)$ (strictly above) on singular values with exactly known
#   shares. Each of the five mutants, applied to our kernels, fails at least one of these tests.
#
# Departures, and what was done about each:
#
# * **Task order (can move a claim: run).** Every fusion_bench continual method's config sets
#   `shuffle_order: true`, so each run draws its own order. The page's pre-registered tests use a fixed order.
#   The official order is run as a second configuration: one random order per run, and the tests `*-official`.
# * **Continual task arithmetic's $\lambda$ (can move a claim: run).** `config/method/opcm/task_arithmetic.yaml`
#   fixes `scaling_factor: 0.3`. The page's pre-registered `beats-seq-ta` compares with the best of
#   $\{0.3, 0.5, 1.0\}$ *chosen on the test sets*. That oracle is a tuned naive baseline, legitimate as such and
#   stronger than the paper's, but it is not the paper's baseline. The fixed $0.3$ is run as
#   `beats-seq-ta-lambda03` (page order) and inside the official configuration.
# * **Heads (named, not run).** fusion_bench merges only the CLIP vision model. Each task keeps its own frozen
#   zero-shot head, which is never merged. Our tasks share their ten labels, so the official analogue is one
#   head frozen at the pretrained model's, with experts fine-tuned under it: that changes the experts, not the
#   merge methods. We merge the fine-tuned last layer like every other layer, for every method alike.
# * **Gradient and solver.** Our gradient is the closed form, not autograd (same values). Our MGDA uses the
#   two-gradient closed form that `MinNormSolver.find_min_norm_element` returns for two tasks. The rank rule is
#   the official `searchsorted`, so the singular triplet that reaches $\varepsilon$ is dropped.
# * **Other parameters.** OPCM merges non-linear parameters (LayerNorm) like biases; our MLP has none.
#   Everything else in the methods' defaults is unchanged.

# %%
TOL = tolerance(rel=0.05, abs=1.0, why="accuracy gaps in points after float32 training; a few test images "
                "(one image is 0.08 points of one run at ci, 0.17 at full) may move on another CPU")
DOP_ING = ("the dual projections onto the task vectors' singular subspaces (replaced by identities: plain "
           "distances to both models, the same MGDA-Adam optimisation)")
OPT_ING = "the MGDA-Adam optimisation of the projected losses (DOP stops at its start point, the midpoint)"
LABEL = {"DOP-identity": "DOP-identity: DOP's MGDA-Adam merge with identity projections",
         MID: "DOP without its optimisation (running midpoint: each merge averages the merged model and the new "
              "expert 1:1, DOP's start point)",
         "oracle": "continual task arithmetic, lambda in {0.3, 0.5, 1.0} chosen on the test sets (tuned)",
         TA03: "continual task arithmetic, lambda = 0.3 (fusion_bench's fixed value)",
         "OPCM": "OPCM (fusion_bench, alpha = 0.5)",
         FIXED: "DOP with a fixed alpha = 0.8 (fusion_bench's mgda: false): the same projections and Adam, no MGDA",
         NEWEST: "the newest expert alone (each merge keeps only the latest fine-tuned model)",
         EMA: f"fixed exponential-moving merge: each merge weights the newest expert {EMA_W:g} and the merged model "
              f"{1 - EMA_W:.1f}, no optimisation",
         KEEP: "no-op merge: the first expert kept unchanged (nothing merged after it)"}
MGDA_ING = ("MGDA's adaptive weight between the stability and plasticity losses (replaced by fusion_bench's fixed "
            "alpha = 0.8, mgda: false)")
NAIVE = [NEWEST, EMA]   # the review's naive merges, comparators of every accuracy test
WHY_REVIEW = ("independent review: the paper's MGDA headline had no test; DOP against its fixed-alpha form "
              "(fusion_bench's mgda: false, alpha 0.8), both measured from their common start point (the running "
              "midpoint), beside the review's naive merges; threshold 0 as in beats-opcm (no worse, outside the "
              "tolerance band); designed on seeds 0-9")
WHY_LAMBDA = ("issue 32: fusion_bench's continual task arithmetic fixes scaling_factor 0.3, while the pre-registered "
              "beats-seq-ta compares with a test-set oracle over {0.3, 0.5, 1.0}; the official value is run as a "
              "second configuration, with the pre-registered threshold and criterion; designed on seeds 0-9")
WHY_ORDER = ("issue 32: fusion_bench's configs shuffle the task order (shuffle_order: true, one order per run), while "
             "the pre-registered tests use a fixed order; the pre-registered test rerun under the official "
             "configuration (shuffled order per run, continual task arithmetic at its fixed 0.3), with the same "
             "threshold and criterion; designed on seeds 0-9")
ORDER_SETTING = "official configuration: a random task order per run (shuffle_order: true), seq-TA at lambda = 0.3"
v = {}   # test id -> {who: value}, glued below


def gap_acc(cfg, method, ref):
    """ACC(method) - ACC(ref), points, mean over the runs of one configuration."""
    return float(acc[cfg][method].mean() - acc[cfg][ref].mean())


def acc_test(id, cfg, ref, threshold, ref_text, baselines, **extra):
    """A test 'ACC(X) - ACC(ref) >= threshold' with DOP as X, its ablation and the named baselines."""
    value = {"DOP": gap_acc(cfg, "DOP", ref), "DOP-identity": gap_acc(cfg, "DOP-identity", ref)}
    for b in baselines:
        value[b] = gap_acc(cfg, best_ta[cfg] if b == "oracle" else b, ref)
    v[id] = value
    where = "in the page's task order" if cfg == "page" else "in the official shuffled task orders"
    claims.test(id, statement=f"DOP's final ACC exceeds {ref_text} by >= {threshold:g} points {where} (mean over runs)",
                paper="DOP outperforms the continual-merging baselines on CLIP ViT (numbers not retrieved)",
                criterion=at_least(threshold), measured=value["DOP"], tol=TOL,
                ablation=Comparator(LABEL["DOP-identity"], value["DOP-identity"], ingredient=DOP_ING),
                baselines=[Comparator(LABEL[b], value[b], ingredient=OPT_ING if b == MID else None)
                           for b in baselines], **extra)


def forgetting_test(id, cfg, refs, **extra):
    """min forgetting of the reference methods - forgetting(X) >= 0, X = DOP, its ablation, the running midpoint and
    the no-op merge (which forgets nothing by construction: the test's 'does not forget more' is won by not merging)."""
    base = min(forg[cfg][r] for r in refs)
    value = {n: float(base - forg[cfg][n]) for n in ("DOP", "DOP-identity", MID, KEEP)}
    v[id] = value
    where = "in the page's task order" if cfg == "page" else "in the official shuffled task orders"
    claims.test(id, statement=f"DOP forgets no more than the least-forgetting of {', '.join(refs)} {where}: "
                              "their minimum forgetting - DOP's >= 0 points (mean over runs)",
                paper="DOP keeps old tasks (stability) better than the baselines",
                criterion=at_least(0.0), measured=value["DOP"], tol=TOL,
                ablation=Comparator(LABEL["DOP-identity"], value["DOP-identity"], ingredient=DOP_ING),
                baselines=[Comparator(LABEL[MID], value[MID], ingredient=OPT_ING), Comparator(LABEL[KEEP], value[KEEP])], **extra)


def mgda_test(id, cfg, **extra):
    """ACC(X) - ACC(running midpoint) >= 0: what the MGDA-Adam optimisation adds to DOP's start point, X = DOP, its
    fixed-alpha form (the ablation of MGDA), and the review's naive merges."""
    value = {n: gap_acc(cfg, n, MID) for n in ("DOP", FIXED, *NAIVE)}
    v[id] = value
    where = "in the page's task order" if cfg == "page" else "in the official shuffled task orders"
    claims.test(id, statement=f"DOP's MGDA-weighted optimisation raises the final ACC above its start point, the running "
                              f"midpoint, by >= 0 points beyond the tolerance band {where} (mean over runs); its "
                              "fixed-alpha form is the ablation",
                paper="MGDA resolves the conflict between stability and plasticity with a Pareto-optimal weighting "
                      "(no number retrieved)",
                criterion=at_least(0.0), measured=value["DOP"], tol=TOL,
                ablation=Comparator(LABEL[FIXED], value[FIXED], ingredient=MGDA_ING),
                baselines=[Comparator(LABEL[b], value[b]) for b in NAIVE], post_hoc=WHY_REVIEW, **extra)


# pre-registered: method, setting and criterion unchanged; the comparators are new (the running midpoint, the newest
# expert and the 0.6 exponential-moving merge were added after the independent review)
acc_test("beats-seq-avg", "page", "seq-avg", 2.0, "continual weight averaging's", [MID, "oracle", TA03, *NAIVE])
acc_test("beats-seq-ta", "page", best_ta["page"], 1.0,
         "the best continual task arithmetic's (lambda in {0.3, 0.5, 1.0} chosen on the test sets)", [MID, "OPCM", *NAIVE])
acc_test("beats-opcm", "page", "OPCM", 0.0, "OPCM's", [MID, "oracle", TA03, *NAIVE])
forgetting_test("least-forgetting", "page", ["seq-avg", best_ta["page"], "OPCM"])
# post hoc (issue 32): the official configuration
acc_test("beats-seq-ta-lambda03", "page", TA03, 1.0, "continual task arithmetic's at fusion_bench's lambda = 0.3",
         [MID, "OPCM", "oracle", *NAIVE], post_hoc=WHY_LAMBDA,
         setting="official baseline: seq-TA at fusion_bench's fixed lambda = 0.3 (page order)")
acc_test("beats-seq-avg-official", "official", "seq-avg", 2.0, "continual weight averaging's",
         [MID, "oracle", TA03, *NAIVE],
         post_hoc=WHY_ORDER, setting=ORDER_SETTING)
acc_test("beats-seq-ta-official", "official", TA03, 1.0, "continual task arithmetic's at lambda = 0.3",
         [MID, "OPCM", "oracle", *NAIVE], post_hoc=WHY_ORDER, setting=ORDER_SETTING)
acc_test("beats-opcm-official", "official", "OPCM", 0.0, "OPCM's", [MID, "oracle", TA03, *NAIVE],
         post_hoc=WHY_ORDER, setting=ORDER_SETTING)
forgetting_test("least-forgetting-official", "official", ["seq-avg", TA03, "OPCM"], post_hoc=WHY_ORDER,
                setting=ORDER_SETTING)
# post hoc (independent review): the MGDA headline, DOP against its fixed-alpha form
mgda_test("mgda-over-fixed-alpha", "page")
mgda_test("mgda-over-fixed-alpha-official", "official", setting=ORDER_SETTING)

claims.headline("beats-baselines", "Data-free DOP merges experts arriving one at a time into a more accurate model "
                "than continual weight averaging, continual task arithmetic and OPCM",
                tests=["beats-seq-avg", "beats-seq-ta", "beats-opcm", "beats-seq-ta-lambda03", "beats-seq-avg-official",
                       "beats-seq-ta-official", "beats-opcm-official"])
claims.headline("stability-plasticity", "Projecting the differences to the old and the new model onto their own data "
                "spaces keeps the old tasks (stability) while taking in the new one (plasticity)",
                tests=["least-forgetting", "least-forgetting-official"])
claims.headline("pareto-mgda", "Recast as a multi-objective problem, DOP balances stability and plasticity by "
                "multi-gradient descent (MGDA), which finds a Pareto-optimal weighting, better than a fixed one",
                tests=["mgda-over-fixed-alpha", "mgda-over-fixed-alpha-official"])

# per layer, run and merge: at the final MGDA weight, the weighted loss at DOP's weights vs at the midpoint
descent, dominated, alpha_ok = [], [], []
for step_info in infos["DOP"]:
    for info in step_info:
        a = info["final_alpha"]
        start = a * info["loss_prev"][0] + (1 - a) * info["loss_new"][0]
        end = a * info["loss_prev_end"] + (1 - a) * info["loss_new_end"]
        descent.append(end <= start)
        dominated.append((info["loss_prev_end"] > info["loss_prev"][0]) & (info["loss_new_end"] > info["loss_new"][0]))
        alpha_ok.append((info["alpha"] >= 0).all() & (info["alpha"] <= 1).all())
claims.check("pareto-descent", statement="at the final MGDA weight, every layer's weighted DOP loss is lower at "
             "the DOP weights than at the midpoint of the two models, and no layer ends with both losses higher "
             "(both configurations)",
             paper="the MGDA solution is Pareto-stationary", kind="implementation", criterion=is_true(),
             measured=bool(np.all(np.concatenate(descent)) and not np.any(np.concatenate(dominated))))
claims.check("identity-half-is-midpoint", statement="DOP-identity with alpha fixed at 0.5 stays at its start point, "
             "the running midpoint: every weight of every merge within 1e-6 (its objective's minimiser is the start)",
             paper="(our derivation: the ablation at the symmetric weight is the running midpoint)", kind="implementation",
             criterion=is_true(), measured=bool(half_gap < 1e-6))
claims.check("alpha-in-simplex", statement="the MGDA weights stay in [0, 1] (they sum to 1 by construction)",
             paper="MGDA weights are a convex combination", kind="implementation", criterion=is_true(),
             measured=bool(np.all(alpha_ok)))

KEY = {"DOP": "dop", "DOP-identity": "ident", MID: "mid", "OPCM": "opcm", "seq-avg": "seqavg", "oracle": "oracle",
       TA03: "ta03", "seq-TA 0.5": "ta05", "seq-TA 1.0": "ta10", FIXED: "fixed", IDENT_HALF: "ihalf",
       NEWEST: "newest", EMA: "ema", KEEP: "keep"}
for cfg in A:
    for name in [*A[cfg], "oracle"]:
        src = best_ta[cfg] if name == "oracle" else name
        glue(f"acc_{cfg}_{KEY[name]}", float(acc[cfg][src].mean()), display=False)
        glue(f"forg_{cfg}_{KEY[name]}", float(forg[cfg][src]), display=False)
        glue(f"incr_{cfg}_{KEY[name]}", float(100 * S[cfg][src]["avg_incremental"][0]), display=False)
    glue(f"oracle_lambda_{cfg}", float(best_ta[cfg].split()[-1]), display=False)
    glue(f"sd_{cfg}_dop", float(acc[cfg]["DOP"].std()), display=False)
for t, vals in v.items():
    for who, x in vals.items():
        glue(f"{t}_{KEY[who]}", x, display=False)
# the oracle against the fixed lambda: how much tuning task arithmetic on the test sets is worth
glue("oracle_over_ta03_page", gap_acc("page", best_ta["page"], TA03), display=False)
glue("max_alpha_travel", float(1 - DOP["ema_beta"] ** DOP["steps"]), display=False)
glue("half_gap", half_gap, display=False)
glue("half_acc_gap", gap_acc("page", IDENT_HALF, MID), display=False)
glue("ema_w", EMA_W, display=False)

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
# The pre-registered tests keep their thresholds and criteria. Each now stands beside its ablation
# (DOP-identity: DOP without its dual projections), DOP without its optimisation (the running midpoint) and
# naive merges that use none of the paper's ideas, among them the newest expert alone and the moving merge
# that gives the newest expert a fixed weight of {glue:text}`ema_w:.1f`. In our miniature, what decides DOP's
# accuracy is *how much weight the new expert gets*, not its projections and not MGDA.
#
# * *Beats weight averaging by 2 points* ({repro-status}`beats-seq-avg`). At seed 0, DOP is
#   {glue:text}`beats-seq-avg_dop:.1f` points above continual weight averaging. DOP without its optimisation
#   (the running midpoint, DOP's own start point) is {glue:text}`beats-seq-avg_mid:.1f` points above it, the oracle
#   task arithmetic {glue:text}`beats-seq-avg_oracle:.1f`, the moving merge {glue:text}`beats-seq-avg_ema:.1f` and
#   the newest expert alone {glue:text}`beats-seq-avg_newest:.1f`. The ablation gains only
#   {glue:text}`beats-seq-avg_ident:.1f`. Over the ci sweep DOP passes at {repro-seeds}`beats-seq-avg:method:pass`
#   seeds, the moving merge at {repro-seeds}`beats-seq-avg:baseline5:pass`, the newest expert at
#   {repro-seeds}`beats-seq-avg:baseline4:pass`, the oracle task arithmetic at
#   {repro-seeds}`beats-seq-avg:baseline2:pass` and DOP without its optimisation at
#   {repro-seeds}`beats-seq-avg:baseline1:pass`. Weight averaging gives the $t$-th expert the weight $1/t$, and
#   merges that give new experts more weight beat it here without DOP's projections. In the official shuffled
#   orders ({repro-status}`beats-seq-avg-official`), DOP passes at
#   {repro-seeds}`beats-seq-avg-official:method:pass` seeds (seed 0: {glue:text}`beats-seq-avg-official_dop:.1f`
#   points), the newest expert at {repro-seeds}`beats-seq-avg-official:baseline4:pass`.
# * *Beats the best task arithmetic by 1 point* ({repro-status}`beats-seq-ta`). The oracle over $\lambda$, chosen
#   on the test sets ($\lambda$ = {glue:text}`oracle_lambda_page:.1f` at seed 0), reaches
#   {glue:text}`acc_page_oracle:.1f`%. DOP is {glue:text}`beats-seq-ta_dop:.2f` points from it at seed 0 and
#   passes at {repro-seeds}`beats-seq-ta:method:pass` of the ci seeds; the moving merge is
#   {glue:text}`beats-seq-ta_ema:.2f` points from it and passes at {repro-seeds}`beats-seq-ta:baseline4:pass`. The
#   paper's own baseline is task arithmetic at the fixed $\lambda = 0.3$ ({repro-status}`beats-seq-ta-lambda03`).
#   DOP is {glue:text}`beats-seq-ta-lambda03_dop:.2f` points above it at seed 0 and passes at
#   {repro-seeds}`beats-seq-ta-lambda03:method:pass` seeds. The oracle task arithmetic, however, is itself
#   {glue:text}`beats-seq-ta-lambda03_oracle:.2f` points above the fixed $\lambda$ at seed 0 and passes at
#   {repro-seeds}`beats-seq-ta-lambda03:baseline3:pass` seeds, and the moving merge passes at
#   {repro-seeds}`beats-seq-ta-lambda03:baseline5:pass` (seed 0: {glue:text}`beats-seq-ta-lambda03_ema:.2f` points).
#   Against the paper's baseline the claim comes down to "$\lambda = 0.3$ is too small here", and a larger weight
#   on the experts fixes that without DOP. In the official configuration (shuffled orders, $\lambda = 0.3$;
#   {repro-status}`beats-seq-ta-official`), DOP passes at {repro-seeds}`beats-seq-ta-official:method:pass` seeds
#   (seed 0: {glue:text}`beats-seq-ta-official_dop:.2f` points) and the newest expert at
#   {repro-seeds}`beats-seq-ta-official:baseline4:pass`.
# * *At least OPCM's accuracy* ({repro-status}`beats-opcm`). In the page's order, DOP is {glue:text}`beats-opcm_dop:.2f`
#   points above OPCM at seed 0 and passes at {repro-seeds}`beats-opcm:method:pass` seeds. The tolerance band around the
#   threshold is about one point on each side, and DOP's ACC spreads by {glue:text}`sd_page_dop:.1f` points (standard
#   deviation) over the runs of seed 0. The oracle task arithmetic passes too, at
#   {repro-seeds}`beats-opcm:baseline2:pass` seeds (seed 0: {glue:text}`beats-opcm_oracle:.2f` points), the moving merge
#   at {repro-seeds}`beats-opcm:baseline5:pass` (seed 0: {glue:text}`beats-opcm_ema:.2f` points), and DOP without its
#   optimisation at {repro-seeds}`beats-opcm:baseline1:pass` seeds (seed 0: {glue:text}`beats-opcm_mid:.2f` points). In
#   the official shuffled orders ({repro-status}`beats-opcm-official`), DOP is {glue:text}`beats-opcm-official_dop:.2f`
#   points from OPCM at seed 0 and passes at only {repro-seeds}`beats-opcm-official:method:pass` seeds. Whether DOP
#   reaches OPCM depends on the task order.
# * *Forgets least* ({repro-status}`least-forgetting`). At seed 0, DOP forgets {glue:text}`forg_page_dop:.1f`
#   points, against {glue:text}`forg_page_seqavg:.1f` for weight averaging, {glue:text}`forg_page_opcm:.1f` for
#   OPCM and {glue:text}`forg_page_oracle:.1f` for the oracle task arithmetic. It fails at
#   {repro-seeds}`least-forgetting:method:fail` seeds in the page's order and at
#   {repro-seeds}`least-forgetting-official:method:fail` in the official orders
#   ({repro-status}`least-forgetting-official`). It learns each new task well (average incremental accuracy
#   {glue:text}`incr_page_dop:.1f`% against {glue:text}`incr_page_seqavg:.1f`% for weight averaging, page order)
#   and loses the old ones. The criterion itself is won by not merging at all: the no-op merge, which keeps the
#   first expert and forgets {glue:text}`forg_page_keep:.1f` points, passes at
#   {repro-seeds}`least-forgetting:baseline2:pass` seeds (page order) and
#   {repro-seeds}`least-forgetting-official:baseline2:pass` (official orders), at a final ACC of
#   {glue:text}`acc_page_keep:.1f`%. Even a pass of DOP here would not have been specific.
# * *MGDA balances stability and plasticity better than a fixed weight* ({repro-status}`mgda-over-fixed-alpha`,
#   post hoc). Both DOP and its fixed-$\alpha$ form start each merge at the midpoint. At seed 0, DOP's optimisation
#   adds {glue:text}`mgda-over-fixed-alpha_dop:.2f` points of final ACC to that start, and the fixed-$\alpha$ form
#   {glue:text}`mgda-over-fixed-alpha_fixed:.2f`. Over the ci sweep DOP passes at
#   {repro-seeds}`mgda-over-fixed-alpha:method:pass` seeds, its fixed-$\alpha$ ablation at
#   {repro-seeds}`mgda-over-fixed-alpha:ablation:pass`, and the moving merge at
#   {repro-seeds}`mgda-over-fixed-alpha:baseline2:pass` (seed 0: {glue:text}`mgda-over-fixed-alpha_ema:.2f` points
#   over the midpoint). In the official orders ({repro-status}`mgda-over-fixed-alpha-official`) DOP passes at
#   {repro-seeds}`mgda-over-fixed-alpha-official:method:pass` seeds and its ablation at
#   {repro-seeds}`mgda-over-fixed-alpha-official:ablation:pass`. With fusion_bench's EMA, $\alpha$ can travel at most
#   {glue:text}`max_alpha_travel:.2f` of the way from $0.8$ in 200 steps, so MGDA's weight stays close to the fixed
#   one, and the two optimisations end close together: in the page's order DOP's gain over the midpoint exceeds
#   the fixed-$\alpha$ form's by less than the one-point band at every ci seed. The test compares MGDA with the
#   fixed weight only through these two gains, and cannot tell them apart.
#
# Neither official departure rescues a claim. With the fixed $\lambda = 0.3$, DOP beats task arithmetic, but a
# tuned task arithmetic beats it too. With shuffled orders, DOP passes at fewer seeds than in the page's order:
# against weight averaging at {repro-seeds}`beats-seq-avg-official:method:pass` seeds (page order:
# {repro-seeds}`beats-seq-avg:method:pass`), against OPCM at {repro-seeds}`beats-opcm-official:method:pass`
# (page order: {repro-seeds}`beats-opcm:method:pass`), against task arithmetic at $\lambda = 0.3$ at
# {repro-seeds}`beats-seq-ta-official:method:pass` (page order: {repro-seeds}`beats-seq-ta-lambda03:method:pass`).
# None of the tests holds in either configuration. The full-scale run (eight tasks, a wider network) agrees: there
# DOP passes none of the four pre-registered tests at any of its seeds.
#
# The best explanation is the regime. Our domains ask every expert to rewrite the first layer, because a rotated or
# permuted image needs different input weights. The task vectors therefore overlap in the same singular directions, and
# there is no data space in which one model can be kept without disturbing another. DOP's projections assume such a
# space exists. DOP then behaves like its start point with a push toward the newest expert: each merge gives the new
# expert about half the weight, so old tasks decay geometrically, as the running midpoint's do. The 200 Adam steps at
# fusion_bench's learning rate of $10^{-4}$ move each weight by at most about $200 \times 10^{-4}$ (an Adam step is
# bounded by about its learning rate). The identity ablation is pulled toward the merged model ($\alpha$ starts at
# $0.8$) and, in the page's order, behaves like weight averaging: low forgetting and low plasticity. Held at
# $\alpha = 0.5$ instead, it never leaves the running midpoint (largest weight difference
# {glue:text}`half_gap:.1e`, final ACC difference {glue:text}`half_acc_gap:.2f` points at seed 0; the check
# `identity-half-is-midpoint`). The three implementation checks hold. At the final MGDA weight, every layer's weighted loss is lower at DOP's weights than at
# the midpoint, and no layer ends with both losses higher. The MGDA weights stay in [0, 1].
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the brief, the
# page, its record and its ci sweep, after the page was converted. They graded every check, ran naive merges
# against each counted test on seeds 0-9 with the page's kernels, and read the prose against the record. An
# earlier review and an official-code re-check (issue 32) had raised the running midpoint, the tuned task
# arithmetic, the official task order and $\lambda$, and five kernel mutants. This notebook now measures every
# alternative on the same experts (seed 0, mean over the runs, points, page order unless named):
#
# * **The newest expert alone** (the latest fine-tuned model, nothing merged): final ACC
#   {glue:text}`acc_page_newest:.1f`% against DOP's {glue:text}`acc_page_dop:.1f`%. It is
#   {glue:text}`beats-seq-avg_newest:.1f` points above weight averaging, {glue:text}`beats-opcm_newest:.2f` from
#   OPCM and {glue:text}`beats-seq-ta_newest:.2f` from the oracle task arithmetic. It forgets
#   {glue:text}`forg_page_newest:.1f` points, but the final ACC the paper reports does not see that. In the official
#   orders it ends at {glue:text}`acc_official_newest:.1f`% against DOP's {glue:text}`acc_official_dop:.1f`%.
# * **A fixed moving merge with weight {glue:text}`ema_w:.1f` on the newest expert** (the reviewer's value, kept):
#   ACC {glue:text}`acc_page_ema:.1f`%, {glue:text}`beats-seq-avg_ema:.1f` points above weight averaging,
#   {glue:text}`beats-opcm_ema:.2f` from OPCM, {glue:text}`beats-seq-ta_ema:.2f` from the oracle task arithmetic and
#   {glue:text}`mgda-over-fixed-alpha_ema:.2f` above the running midpoint. In the official orders:
#   {glue:text}`acc_official_ema:.1f`%.
# * **Doing nothing** against `least-forgetting` (the first expert kept): it forgets
#   {glue:text}`forg_page_keep:.1f` points and so beats the least-forgetting reference by
#   {glue:text}`least-forgetting_keep:.1f` points, at a final ACC of {glue:text}`acc_page_keep:.1f`%.
# * **DOP with a fixed $\alpha = 0.8$** (fusion_bench's `mgda: false`; the ablation of the MGDA headline): ACC
#   {glue:text}`acc_page_fixed:.1f`% against DOP's {glue:text}`acc_page_dop:.1f`%, forgetting
#   {glue:text}`forg_page_fixed:.1f` points against {glue:text}`forg_page_dop:.1f`.
# * **DOP-identity at $\alpha = 0.5$**: it coincides with the running midpoint. Its largest weight difference from
#   the midpoint merge over all runs, merges and layers is {glue:text}`half_gap:.1e`, and its final ACC is
#   {glue:text}`acc_page_ihalf:.1f`% against the midpoint's {glue:text}`acc_page_mid:.1f`%.
# * **DOP without its optimisation** (the running midpoint, DOP's start): final ACC {glue:text}`acc_page_mid:.1f`%. It
#   is {glue:text}`beats-seq-avg_mid:.1f` points above weight averaging, {glue:text}`beats-opcm_mid:.2f` from OPCM and
#   {glue:text}`beats-seq-ta_mid:.2f` from the oracle task arithmetic.
# * **Task arithmetic tuned on the test sets** (oracle $\lambda$ = {glue:text}`oracle_lambda_page:.1f`): ACC
#   {glue:text}`acc_page_oracle:.1f`%. It is {glue:text}`beats-seq-avg_oracle:.1f` points above weight
#   averaging, {glue:text}`beats-opcm_oracle:.2f` from OPCM, and {glue:text}`oracle_over_ta03_page:.2f` points
#   above task arithmetic at the fixed $\lambda = 0.3$.
# * **Task arithmetic at fusion_bench's $\lambda = 0.3$**: ACC {glue:text}`acc_page_ta03:.1f`%. At
#   $\lambda = 0.5$ it reaches {glue:text}`acc_page_ta05:.1f`% and at $\lambda = 1$
#   {glue:text}`acc_page_ta10:.1f`%. Task arithmetic's and weight averaging's final models do not depend on the
#   order.
# * **DOP without its projections** (DOP-identity, the ablation of tests 1 to 6): ACC {glue:text}`acc_page_ident:.1f`%,
#   forgetting {glue:text}`forg_page_ident:.1f` points, {glue:text}`beats-seq-avg_ident:.1f` points above weight
#   averaging.
# * **The official task orders**: DOP's ACC goes from {glue:text}`acc_page_dop:.1f`% to
#   {glue:text}`acc_official_dop:.1f`%, OPCM's from {glue:text}`acc_page_opcm:.1f`% to
#   {glue:text}`acc_official_opcm:.1f`%, and DOP's forgetting from {glue:text}`forg_page_dop:.1f` to
#   {glue:text}`forg_official_dop:.1f` points.
# * **Five mutants of our kernels** passed the earlier unit tests: the `ema` flag ignored, biases taking the new
#   expert, OPCM's threshold shifted, `previous_lambda_t` dropped, and block zeroing removed. The golden cases and
#   the split-rank test added since fail each of them (see "Against the official code").
#
# ## What the miniature cannot show
#
# The paper's setting is CLIP vision transformers fine-tuned on 8 to 20 image-classification tasks. There the
# task vectors are small perturbations of a strong pretrained model, nearly orthogonal across tasks and
# low-rank in effect. That is exactly when "the top singular vectors of a task vector approximate its data
# space" holds, and when projecting the differences can separate old from new tasks. Our experts have large,
# conflicting task vectors in a 3-layer MLP. The miniature therefore tests the algorithm, matched to the
# official code, but not the regime in which the paper's gains are claimed. It also cannot show the following:
# long sequences (20 tasks); per-task frozen heads; the language-model experiments; a comparison with continual
# TIES-merging or MagMax; the sensitivity to the learning rate, the EMA and $\varepsilon$ (we ran only the
# official defaults); and the cost of DOP (200 optimisation steps per layer and merge) against closed-form
# merges on large models.
