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
# # Monotone and separating set embeddings (MASNet)
#
# *On a finite ground set, with sets of any size allowed, a set embedding can turn containment into a
# coordinatewise inequality, $S \subseteq T \iff F(S) \le F(T)$, only if it has at least as many coordinates
# as the ground set has elements. A relaxed, learnable version (MASNet) is monotone by construction and, the
# paper reports, does better on containment tasks than standard set models (DeepSets, Set Transformer).*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%

import matplotlib.pyplot as plt
import numpy as np
import torch
from sklearn.metrics import average_precision_score

from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, greater_than, is_true, less_than, tolerance
from repro.papers import masnet_monotone_sets as K
from repro.runtime import progress, setup_notebook
from repro.timing import best_time

P = setup_notebook(scale, seed, presets={
    "ci": dict(n_train=2000, n_test=1000, n_ground=120, channels=32, hidden=16, steps=150, batch=128, lr=0.01,
               n_seeds=3, n_max_dim=6, n_mono=1000, official_runs=("official choices", "DeepSets, set loss")),
    "full": dict(n_train=10000, n_test=2000, n_ground=120, channels=64, hidden=32, steps=2000, batch=256, lr=0.003,
                 n_seeds=3, n_max_dim=7, n_mono=5000,
                 official_runs=("official loss", "official init + phi", "official choices", "DeepSets, set loss")),
})
claims = Claims("masnet-monotone-sets",
                title="Monotone and Separable Set Functions: Characterizations and Neural Models",
                authors="Soutrik Sarangi, Yonatan Sverdlov, Nadav Dym, Abir De",
                paper_url="https://arxiv.org/abs/2510.23634", scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# Many retrieval questions are containment questions: is every item of this query in that document, every
# point of this shape in that one? If a set-to-vector map $F$ satisfied
#
# $$S \subseteq T \iff F(S) \le F(T) \quad\text{(coordinatewise)},$$
#
# containment could be read off the vectors. The paper calls such maps *monotone and separating* (MAS).
# "Monotone" is the $\Rightarrow$ direction (a bigger set never has a smaller coordinate), "separating" the
# $\Leftarrow$ direction (if $S \not\subseteq T$, some coordinate shows it). Its results, as far as we could
# read them (the brief's sources give no numbers):
#
# 1. On a finite ground set $V$, MAS maps into $\mathbb R^m$ exist **if and only if $m \ge |V|$** (with
#    sharper bounds when sets have bounded size); on an infinite ground set they do not exist at all.
# 2. MASNet, a parametric family, is *weakly* MAS: monotone for every choice of its weights, and every pair
#    with $S \not\subseteq T$ is told apart by some choice of the weights (not necessarily one choice for
#    all pairs). It is also Hölder-stable.
# 3. MAS functions yield universal models of monotone set functions (not tested here).
# 4. In experiments on synthetic, text and point-cloud containment tasks, MASNet does better than DeepSets and
#    Set Transformer, models without containment as a built-in bias. The abstract states a benefit without
#    numbers; a public reviewer summary calls the gains slight; we found no headline number.
#
# ## The method, in our words
#
# **Why $m \ge |V|$.** A MAS map is an order embedding of the subset lattice $2^V$ into $(\mathbb R^m, \le)$.
# Each coordinate induces a ranking of the sets that extends inclusion, and inclusion must be exactly the
# intersection of the $m$ rankings, so $m$ is at least the *order dimension* of $2^V$. The pairs that force
# this are $(\{i\}, V\setminus\{i\})$: $\{i\} \not\subseteq V\setminus\{i\}$, so some coordinate $c(i)$ must
# rank $\{i\}$ above $V\setminus\{i\}$. If two elements $i \ne j$ shared a coordinate $c$, then
# $F_c(\{i\}) > F_c(V\setminus\{i\}) \ge F_c(\{j\}) > F_c(V\setminus\{j\}) \ge F_c(\{i\})$ (using
# $\{j\} \subseteq V\setminus\{i\}$ and $\{i\} \subseteq V\setminus\{j\}$), a contradiction. So $m \ge n$,
# and the count embedding $F(S)_v = \#\{x \in S: x = v\}$ shows $m = n$ is enough. We do not just trust this
# argument: `mas_dimension_feasible(n, m)` decides the question *exhaustively*. It builds the whole subset
# lattice as a graph, tests which groups of critical pairs can be reversed in one ranking (an acyclicity test
# with networkx), and tries every assignment of the $n$ pairs to $m$ coordinates. The unit tests cross-check
# $n = 3$ by enumerating all 48 rankings of the 8 subsets and every pair and triple of them.
#
# **MASNet.** Each channel counts, softly, the elements that fall in a slab:
#
# $$F_c(S) = \sum_{x \in S} \sigma\!\left(\frac{a_c \cdot \phi(x) - b_c}{c_c}\right), \qquad
# \sigma(t) = \mathrm{hat}(t) = \mathrm{relu}(t) - 2\,\mathrm{relu}(t - \tfrac12) + \mathrm{relu}(t-1),$$
#
# with $\|a_c\| = 1$, $c_c > 0$ and $\phi$ a small elementwise MLP. Every summand is $\ge 0$, so adding
# elements can only raise the embedding: **monotone for every value of the weights**. Separation is learned.
# A pair is scored by $s(S,T) = -\sum_c \mathrm{relu}(F_c(S) - F_c(T))$, which is $0$ exactly when
# $F(S) \le F(T)$, and trained with the hinge $\mathrm{relu}(1 + s)$ on non-contained pairs. A positive pair
# always scores 0, so the loss only has to push the negatives down.
#
# **Baseline.** DeepSets: $E(S) = \rho(\sum_{x\in S} \phi(x))$ with MLPs $\phi, \rho$, and a classifier MLP on
# $[E(S), E(T), E(S) - E(T)]$ trained with binary cross-entropy. Nothing in it relates $E(S)$ to $E(T)$
# when $S \subseteq T$.
#
# **Ablation (the control of the task claims).** MASNet without its key ingredient: the same model, score,
# loss and training, with the hat replaced by $\mathrm{hat}(t) - \tfrac14$. The summands keep the hat's shape
# but can be negative, so adding an element can lower a coordinate and the embedding is no longer monotone.
# If the paper is right that the containment bias is what helps, this model should not beat DeepSets. A design
# note: $\mathrm{hat} - \tfrac14$ also adds a size-dependent offset, $-\tfrac14$ per element and channel
# wherever an element misses the slab, so it removes nonnegativity in one particular way. A second learned
# embedding without nonnegativity, DeepSets trained as the official code trains it (an embedding, the set loss, the
# same coordinatewise score), is run beside it as a baseline.
#
# **Linear sum embeddings.** For $F(S) = W\,\mathrm{count}(S)$ monotonicity forces $W \ge 0$, and $F$ is MAS
# exactly when each critical pair $(\{i\}, V\setminus\{i\})$ is reversed by some row,
# $W_{ri} > \sum_{j \ne i} W_{rj}$. `linear_mas_embedding(n, m)` decides by linear programming (scipy's HiGHS)
# which groups of critical pairs one row can reverse, tries every assignment of the $n$ pairs to $m$ rows, and
# returns a $W$ when one exists; we confirm any $W$ it returns by brute force on all pairs of subsets.

# %% [markdown]
# ## The experiment
#
# * **Finite ground sets (exact).** (i) Order dimension: for $n = 2, \dots,$ `n_max_dim`, exhaustively decide
#   whether MAS maps into $\mathbb R^{n-1}$ and $\mathbb R^n$ exist. (ii) The count embedding on every pair of
#   multisets of $n = 5$ elements with multiplicities $\le 2$ ($3^5 = 243$ multisets, 59 049 ordered pairs).
#   (iii) Linear sum embeddings $F(S) = \sum_{x \in S} W_{:,x}$: an exact LP search for a MAS one into
#   $\mathbb R^{n-1}$ and into $\mathbb R^n$, for $n = 2, \dots,$ `n_max_dim`.
# * **Containment task.** Ground set: a pool of `n_ground` points of a Gaussian mixture in the plane. The models
#   see only coordinates, but the pool is the same 120 points (drawn once, seed 10 000) in training and in every
#   test set, so no test set holds an unseen element: the task is on a finite 120-element ground set. Pairs are half positive, $S \subseteq T$
#   with $|S| \in [5, 15]$ and $|T \setminus S| \in [1, 5]$; half negative, the same with one element of $S$
#   replaced by its nearest pool point outside $T$ (a hard negative). Test sets: in-distribution sizes
#   $[5, 15]$, and longer sets $|S| \in [5, 30]$. Metric: average precision (AP).
# * **Models and training:** MASNet (hat, `channels` channels, $\phi$ a 2-layer MLP of width `hidden`) and
#   DeepSets (width `hidden`), and the signed-hat ablation of MASNet, the same number of Adam steps and batch
#   size, 3 seeds each.
#
# **The paper's headline claims and what this page does with them.**
#
# 1. *The dimension bound* (MAS maps on a finite ground set exist iff $m \ge |V|$; none on an infinite one).
#    For sets this is the order dimension of the subset lattice, a classical result (Komm, 1948). The page shows
#    it by exhaustive search and an exact LP search (`mas-dim-bound`, `low-dim-linear-fail`: illustrations, not
#    counted, since they confirm a known fact at preset sizes). The multiset refinements and the infinite case
#    are not computed: untestable here.
# 2. *MASNet is weakly MAS and Hölder-stable.* Monotonicity holds for every weight: a unit test, and the
#    illustration `deepsets-not-monotone` shows it beside trained DeepSets. Separation "for some weights" and
#    stability are existence statements: untestable here.
# 3. *Universal monotone models*: untestable here (no monotone-regression task).
# 4. *MASNet beats set models without the containment bias on containment tasks*: the two counted tests below
#    (DeepSets only; our DeepSets reference is at chance, and the tests turn out not specific).
#
# **Counted tests.** `ap-gain-long`: mean AP(MASNet) $-$ AP(DeepSets) over 3 seeds on the long test set
# ($|S|$ up to 30, twice the training sizes) $\ge 0.03$ ("beats"; partial if $\ge 0$). The ingredient is the
# nonnegative summand that makes the embedding monotone. Beside MASNet, the same difference is measured for
#
# * the **ablation**, the signed-hat MASNet (same model, score, loss and training, summands that can be
#   negative), and
# * four **baselines** a skeptic would try: the score
#   $-\max_{x \in S} \min_{y \in T} \lVert x - y \rVert$ (minus the directed Hausdorff distance from $S$ to $T$,
#   no learning), which is 0 exactly when every point of $S$ also occurs in $T$; MASNet at its random
#   initialisation (0 training steps, the same 3 seeds); a fixed monotone embedding, the counts of a set's points
#   in a $6 \times 6$ grid over the pool's bounding box (36 coordinates, the same score); and DeepSets trained as
#   the official code trains it (a 32-dimensional embedding, the official set loss, the same score), a learned
#   embedding without nonnegativity.
#
# The test counts as reproduced only if MASNet passes and every comparator fails. The brief suggested relaxing
# the ci criterion to $\ge -0.01$; we keep the same criterion at both scales. The widths and learning rate were set
# during development (see the deviations), so the test is flagged post hoc. `ap-gain-long-official` (added for
# issue 11, post hoc) is the same test for MASNet trained with the official code's loss, initialisation and
# element-MLP shape (a second setting; see "Against the official code"), with the same comparators. Both are
# post hoc and neither has been confirmed on fresh seeds (10-19) yet, so neither can move the page's badge.
# The same gains on the in-distribution test set ($|S| \in [5, 15]$), `ap-gain-in-dist` and
# `ap-gain-in-dist-official`, come from the same trained models on a test set of the same kind: one measurement,
# so they are shown as robustness rows (illustrations), not counted a second time.
#
# **Not counted.** `mas-dim-bound`, `low-dim-linear-fail` and `deepsets-not-monotone` are illustrations (each
# says why it cannot fail). Two identities of our own code are unit tests
# (`tests/papers/test_masnet_monotone_sets.py`): the count embedding is MAS on all 59 049 pairs of multisets (it
# compares containment with itself), and MASNet has no monotonicity violations (a sum of nonnegative hat terms
# cannot decrease). The printout below still shows the first. Forward-pass time is reported as a ratio, not
# checked.
#
# **Deviations from the paper**
#
# * Synthetic data only: no text (MSWEB, MSNBC, Amazon) or point-cloud sets, no facility-location task.
# * A finite ground set, not an infinite one: the 120 pool points are shared by training and every test set,
#   the opposite of the paper's infinite-ground-set regime. By the dimension bound above, a 32-channel embedding
#   cannot be exactly MAS on these 120 elements, whatever its weights. No Set Transformer baseline, no
#   ReLU-MASNet or learnable-hat variants, no outer monotone MLP.
# * Far fewer pairs and steps than the paper's code defaults (10 000 pairs, up to 100 epochs): at ci scale
#   2 000 training pairs and 150 Adam steps of 128 pairs; at full scale 10 000 pairs and 2 000 steps.
# * Small widths (ci: 32 channels, width 16) chosen to fit the time budget, not tuned per model. They and
#   the learning rate were set during development, after a first try at 64 channels and width 32 was too
#   slow for ci and after DeepSets was tried at learning rates $10^{-3}$ to $10^{-2}$ (a development note: those
#   runs are not on this page). This is why the AP claims are flagged post hoc.
# * Control of the task claims: a signed-hat MASNet ablation of our own (not in the paper), and baselines a
#   skeptic would try (point matching, an untrained MASNet, a grid histogram, DeepSets with the set loss), not Set
#   Transformer.
# * The lower bound is checked for sets ($n \le$ `n_max_dim`); the refined bounds for bounded-size multisets
#   and the Hölder-stability result are not tested.
# * Loss, initialisation, element MLP, activation, baseline training and metric differ from the authors' code:
#   see "Against the official code" below, where the official choices are also run beside ours.

# %%
ns = list(range(2, P.n_max_dim + 1))
dim_below = {n: K.mas_dimension_feasible(n, n - 1) for n in ns}
dim_at = {n: K.mas_dimension_feasible(n, n) for n in ns}
print("MAS map exists into R^(n-1):", dim_below)
print("MAS map exists into R^n:    ", dim_at)

# control of the bound: the same exhaustive test of the wrong boundary m >= n - 1
dim_two_below = {n: K.mas_dimension_feasible(n, n - 2) for n in ns if n >= 3}
print("MAS map exists into R^(n-2):", dim_two_below)

# linear sum embeddings F(S) = W count(S): exact LP search below the bound (m = n - 1) and at it (m = n)
lin_below = {n: K.linear_mas_embedding(n, n - 1) for n in ns}
lin_at = {n: K.linear_mas_embedding(n, n) for n in ns}
lin_at_ok = {n: W is not None and K.is_mas_bruteforce(K.linear_sum_embedding(W), K.all_multisets(n, 1))[0]
             for n, W in lin_at.items()}
print("linear MAS map found into R^(n-1):", {n: W is not None for n, W in lin_below.items()})
print("linear MAS map found into R^n (and confirmed by brute force on all pairs of subsets):", lin_at_ok)

n5 = 5  # the count embedding is MAS (unit-tested on all 59 049 pairs of multisets with multiplicity <= 2)
count_ok, count_ce = K.is_mas_bruteforce(lambda c: K.count_embedding(np.repeat(np.arange(n5), c), n5),
                                         K.all_multisets(n5, 2))
print(f"count embedding MAS on 243 multisets: {count_ok}")

# %% [markdown]
# The first figure shows the exhaustive search: for each ground-set size $n$ and target dimension $m$,
# whether a MAS map exists. The boundary sits exactly on the diagonal $m = n$.

# %%
grid = np.array([[K.mas_dimension_feasible(n, m) for n in ns] for m in range(1, ns[-1] + 1)])
fig, ax = plt.subplots(figsize=(4.8, 3.6))
ax.imshow(grid, origin="lower", cmap="Greens", vmin=-0.3, vmax=1.2,
          extent=(ns[0] - 0.5, ns[-1] + 0.5, 0.5, ns[-1] + 0.5))
ax.plot([ns[0] - 0.5, ns[-1] + 0.5], [ns[0] - 0.5, ns[-1] + 0.5], "k--", lw=1)
for j, n in enumerate(ns):
    for m in range(1, ns[-1] + 1):
        ax.text(n, m, "yes" if grid[m - 1, j] else "no", ha="center", va="center", fontsize=7,
                color="white" if grid[m - 1, j] else "black")
ax.set(xlabel="ground-set size $n$", ylabel="embedding dimension $m$",
       title="Does a MAS map $2^V \\to \\mathbb{R}^m$ exist?\n(exhaustive search; dashed: $m = n$)")
ax.grid(False)
plt.show()

# %% [markdown]
# ## Containment task

# %%
tr = K.make_containment_pairs(P.n_train, "r2", n_ground=P.n_ground, seed=P.seed)
te_in = K.make_containment_pairs(P.n_test, "r2", n_ground=P.n_ground, size_range=(5, 15), seed=P.seed + 1)
te_long = K.make_containment_pairs(P.n_test, "r2", n_ground=P.n_ground, size_range=(5, 30), seed=P.seed + 2)
# name: (model, training loss); the official-choice runs are described in "Against the official code"
makers = {"MASNet": (lambda: K.MASNetPair(2, P.channels, P.hidden), "ours"),
          "DeepSets": (lambda: K.DeepSetsPair(2, P.hidden), "ours"),
          "signed hat": (lambda: K.MASNetPair(2, P.channels, P.hidden, act="signed_hat"), "ours")}
official_makers = {
    "official loss": (lambda: K.MASNetPair(2, P.channels, P.hidden), "official"),
    "official init + phi": (lambda: K.MASNetPair(2, P.channels, P.hidden, init="official", phi_shape="official"),
                            "ours"),
    "official choices": (lambda: K.MASNetPair(2, P.channels, P.hidden, init="official", phi_shape="official"),
                         "official"),
    "DeepSets, set loss": (lambda: K.DeepSetsContainment(2, P.hidden, P.channels), "official"),
}
makers.update({n: official_makers[n] for n in P.official_runs})
ap = {name: {"in": [], "long": []} for name in makers}
models, scores = {}, {}
for s, name in progress([(s, n) for s in range(P.n_seeds) for n in makers], desc="training"):
    torch.manual_seed(P.seed + s)
    make, loss = makers[name]
    model = make()
    K.train_pair_model(model, tr, P.steps, lr=P.lr, batch_size=P.batch, seed=P.seed + s, loss=loss)
    with torch.no_grad():
        for key, te in (("in", te_in), ("long", te_long)):
            sc = model(te["XS"], te["mS"], te["XT"], te["mT"]).numpy()
            ap[name][key].append(average_precision_score(te["y"].numpy(), sc))
            if s == 0 and key == "long":
                scores[name] = sc
    if s == 0:
        models[name] = model
# a skeptic's no-learning baseline: MASNet at its random initialisation (0 steps), the same seeds and init
ap["MASNet untrained"] = {"in": [], "long": []}
for s in range(P.n_seeds):
    torch.manual_seed(P.seed + s)
    model = K.MASNetPair(2, P.channels, P.hidden)
    with torch.no_grad():
        for key, te in (("in", te_in), ("long", te_long)):
            ap["MASNet untrained"][key].append(average_precision_score(
                te["y"].numpy(), model(te["XS"], te["mS"], te["XT"], te["mT"]).numpy()))
ap_mean = {n: {k: float(np.mean(v)) for k, v in d.items()} for n, d in ap.items()}
# a fixed monotone embedding (no learning): counts of the set's points in a 6 x 6 grid over the pool's box (36 dims)
pool = K.make_ground_pool(P.n_ground, seed=10_000)
box = (pool.min(0) - 1e-6, pool.max(0) + 1e-6)
ap_hist = {key: float(average_precision_score(te["y"].numpy(), K.containment_score(
    K.grid_histogram_embedding(te["XS"], te["mS"], *box, cells=6),
    K.grid_histogram_embedding(te["XT"], te["mT"], *box, cells=6)).numpy()))
    for key, te in (("in", te_in), ("long", te_long))}
# a skeptic's training-free baseline: minus the directed Hausdorff distance from S to T (no seeds: no training)
ap_nn = {key: float(average_precision_score(
    te["y"].numpy(), K.nearest_neighbour_containment_score(te["XS"], te["mS"], te["XT"], te["mT"]).numpy()))
    for key, te in (("in", te_in), ("long", te_long))}
ours3 = ("MASNet", "DeepSets", "signed hat")  # the models of the results table and figures

# %% [markdown]
# Monotonicity of the trained embeddings (seed 0) on `n_mono` random pairs $S \subset S \cup E$ drawn from the
# pool, with $|S|$ up to 30 and up to 10 added elements, and the forward-pass cost of the two models on the
# long test set (best of 5 wall-clock runs).

# %%
Xm, mS, mT = K.random_superset_pairs(P.n_mono, K.make_ground_pool(P.n_ground, seed=10_000), seed=P.seed)
viol = {n: K.monotonicity_violations(models[n].embed, Xm, mS, mT) for n in models}
with torch.no_grad():
    gap = {n: (models[n].embed(Xm, mS) - models[n].embed(Xm, mT)).max(1).values.numpy() for n in ours3}


fwd = {}
with torch.no_grad():
    for n in ours3:
        mdl = models[n]
        fwd[n] = best_time(lambda: mdl(te_long["XS"], te_long["mS"], te_long["XT"], te_long["mT"]), repeats=5)
print(f"{'model':<12}{'parameters':>11}{'fwd time / DeepSets':>21}{'AP (5-15)':>11}{'AP (5-30)':>11}"
      f"{'monotonicity violations':>25}")
for n in ours3:
    print(f"{n:<12}{K.n_parameters(models[n]):>11}{fwd[n] / fwd['DeepSets']:>21.2f}"
          f"{ap_mean[n]['in']:>11.3f}{ap_mean[n]['long']:>11.3f}{viol[n]:>18d} / {P.n_mono}")
print(f"{'nearest neighbour (no training)':<44}{ap_nn['in']:>11.3f}{ap_nn['long']:>11.3f}")
print(f"{'MASNet untrained (random init, 0 steps)':<44}{ap_mean['MASNet untrained']['in']:>11.3f}"
      f"{ap_mean['MASNet untrained']['long']:>11.3f}")
print(f"{'6 x 6 grid histogram (no training)':<44}{ap_hist['in']:>11.3f}{ap_hist['long']:>11.3f}")
print("per-seed AP (5-30):", {n: np.round(ap[n]["long"], 3).tolist() for n in ours3})

# %% [markdown]
# ## Results
#
# The table above puts the three trained models side by side (and, below them, the AP of the three scores
# without learning): parameters, forward time per pass relative to DeepSets
# (wall clock, varies between runs), mean AP over the seeds on in-distribution and longer test sets, and
# monotonicity violations. The second figure shows, for each $S \subset T$ pair, the largest coordinate by
# which $F(S)$ exceeds $F(T)$: MASNet's never goes above 0 (it cannot), DeepSets' and the signed-hat
# ablation's often do. The third
# figure breaks the long test set's AP down by $|S|$, to show how each model copes with sets larger than any
# seen in training.

# %%
fig, ax = plt.subplots()
bins = np.linspace(min(g.min() for g in gap.values()), max(g.max() for g in gap.values()) + 1e-3, 40)
for n in ours3:
    ax.hist(gap[n], bins=bins, alpha=0.6, label=f"{n} ({viol[n]} of {P.n_mono} pairs > 0)")
ax.axvline(0, color="k", lw=1)
ax.set(xlabel=r"$\max_c\,[F_c(S) - F_c(T)]$ for $S \subset T$ (embedding units)", ylabel="pairs",
       title="Monotonicity of the trained embeddings", yscale="log")
ax.legend()
plt.show()

# %%
size_S = te_long["mS"].sum(1).numpy()
edges = [5, 10, 15, 20, 25, 31]
fig, ax = plt.subplots()
for n in ours3:
    vals = [average_precision_score(te_long["y"].numpy()[(size_S >= a) & (size_S < b)],
                                    scores[n][(size_S >= a) & (size_S < b)]) for a, b in zip(edges, edges[1:])]
    ax.plot([(a + b - 1) / 2 for a, b in zip(edges, edges[1:])], vals, "o-", label=n)
nn_long = K.nearest_neighbour_containment_score(te_long["XS"], te_long["mS"], te_long["XT"], te_long["mT"]).numpy()
ax.plot([(a + b - 1) / 2 for a, b in zip(edges, edges[1:])],
        [average_precision_score(te_long["y"].numpy()[(size_S >= a) & (size_S < b)],
                                 nn_long[(size_S >= a) & (size_S < b)]) for a, b in zip(edges, edges[1:])],
        "k^--", label="nearest neighbour (no training)")
ax.axvspan(5, 15, color="grey", alpha=0.15, label="training sizes")
ax.axhline(0.5, color="k", ls=":", lw=1, label="chance (half positive)")
ax.set(xlabel="$|S|$ (elements)", ylabel="average precision", title="Containment AP by set size (seed 0)",
       ylim=(0.4, 1.02))
ax.legend()
plt.show()

# %% [markdown]
# ## Claim checks

# %%
WIDTHS = ("ci widths (32 channels, width 16) and the learning rate were set during development, after a first "
          "try at 64 channels and width 32 was too slow for ci, with DeepSets tried at learning rates 1e-3 to 1e-2")
TRAINED = tolerance(rel=0.05, abs=0.02, why=f"mean AP after {P.steps} Adam steps: the training end point moves "
                                             "with float rounding across machines")
NONNEG = "nonnegative summands (the hat), which make the embedding monotone"
ABL = "MASNet without nonnegative summands (signed hat, not monotone) - DeepSets"
NN = "nearest-neighbour score -max_x min_y |x - y| (directed Hausdorff, no training) - DeepSets"


def baselines_for(key):
    """The skeptic's baselines of the AP-gain tests, under the same measurement (gain over DeepSets)."""
    ref = ap_mean["DeepSets"][key]
    return [Comparator(NN, float(ap_nn[key] - ref)),
            Comparator("MASNet untrained (random initialisation, 0 steps; no learning) - DeepSets",
                       float(ap_mean["MASNet untrained"][key] - ref)),
            Comparator("fixed 6 x 6 grid-count histogram (36 dims, monotone, no learning), same score - DeepSets",
                       float(ap_hist[key] - ref)),
            Comparator("DeepSets embedding trained with the official set loss (learned, not monotone), "
                       "coordinatewise score - DeepSets", float(ap_mean["DeepSets, set loss"][key] - ref))]


ROBUST = ("the same trained models as the counted long-set test, scored on the in-distribution test set; the two "
          "test sets are drawn from one distribution up to set size and scored by one model, so the two gains are "
          "one measurement counted twice; only the long-set gain, the paper's length-generalisation case, is counted; this is a robustness row")
claims.illustrate("mas-dim-bound",
                  statement=f"Exhaustive, n = 2..{ns[-1]}: no MAS map of all subsets into R^(n-1), one into R^n "
                            "(the same search rejects the wrong boundary m >= n-1)",
                  paper="MAS maps on a finite ground set exist iff m >= |V|",
                  criterion=is_true(), measured=bool(not any(dim_below.values()) and all(dim_at.values())
                                                     and not (not any(dim_two_below.values())
                                                              and all(dim_below.values()))),
                  why="for sets (not bounded-size multisets) the bound is the order dimension of the subset lattice, "
                      "which is |V| (Komm 1948, a classical result), and the page's argument above proves it; the "
                      "exhaustive search confirms a known fact at preset sizes, so it could not fail unless our code "
                      "were wrong. The paper's new refinements for multisets of bounded size are not computed")
claims.illustrate("low-dim-linear-fail",
                  statement=f"n = 2..{ns[-1]}: no linear sum embedding W count(S) into R^(n-1) is MAS, one into R^n "
                            "(exact LP search; the map found at m = n confirmed by brute force)",
                  paper="no MAS map for m < |V|", criterion=is_true(),
                  measured=bool(all(W is None for W in lin_below.values()) and all(lin_at_ok.values())),
                  why="a linear sum embedding is a special MAS candidate, so 'none into R^(n-1)' follows from the "
                      "dimension bound (one result counted once), and the count embedding W = I is MAS at m = n")
claims.illustrate("deepsets-not-monotone",
                  statement=f"Trained DeepSets: pairs S < S+E (of {P.n_mono}) whose embedding violates monotonicity; "
                            "trained MASNet has none",
                  paper="standard set models lack the containment bias", criterion=greater_than(0),
                  measured=int(viol["DeepSets"]),
                  tol=tolerance(rel=0.05, why=f"a count over the embedding of a network after {P.steps} Adam steps: "
                                              "it depends on the training end point"),
                  why="an unconstrained network is generically not monotone, and MASNet's 0 violations hold for "
                      "every weight (a sum of nonnegative terms; a unit test): neither side could come out otherwise")
claims.test("ap-gain-long",
            statement="Mean AP(MASNet) - AP(DeepSets), 3 seeds, test |S| in [5, 30] (hard negatives)",
            paper="MASNet beats DeepSets on containment (no number found)",
            criterion=at_least(0.03, partial=0.0),
            measured=float(ap_mean["MASNet"]["long"] - ap_mean["DeepSets"]["long"]),
            ablation=Comparator(ABL, float(ap_mean["signed hat"]["long"] - ap_mean["DeepSets"]["long"]),
                                ingredient=NONNEG),
            baselines=baselines_for("long"), tol=TRAINED, post_hoc=WIDTHS)
claims.illustrate("ap-gain-in-dist",
                  statement="Mean AP(MASNet) - AP(DeepSets), 3 seeds, test |S| in [5, 15] (hard negatives)",
                  paper="MASNet beats DeepSets on containment (no number found)",
                  criterion=at_least(0.03, partial=0.0),
                  measured=float(ap_mean["MASNet"]["in"] - ap_mean["DeepSets"]["in"]), tol=TRAINED, why=ROBUST)
_ = claims.check("fwd-time-ratio",
             statement="Wall clock, one forward pass on the long test set: MASNet / DeepSets",
                 paper="(not a paper claim; cost context)", criterion=less_than(3.0),
                 measured=float(fwd["MASNet"] / fwd["DeepSets"]), volatile=True)

# %% [markdown]
# The forward-time ratio, measured with a wall clock, varies between runs and machines, so it is shown here
# and does not count towards the verdict.

# %%
claims.timings()

# %% [markdown]
# ## Against the official code
#
# The authors' repository (github.com/structlearning/MASNET, commit `86fd099`) has a synthetic part
# (`MonotoneModel_synthetic`) and a real-data part (`MonotoneModel_real`). We ran its hat, its set embedding
# and its set loss on small seeded inputs, outside this project, and stored the numbers in
# `tests/papers/golden/masnet-monotone-sets.json`; unit tests check our kernels against them. The cell below
# recomputes the comparison from that file.

# %%
import json
from pathlib import Path

golden = json.loads((Path(K.__file__).resolve().parents[3] / "tests/papers/golden/masnet-monotone-sets.json")
                    .read_text())
case = {c["name"]: c for c in golden["cases"]}
f64 = lambda x: torch.tensor(x, dtype=torch.float64)  # noqa: E731


def copied_embed(d, sd_a, sd_b, sd_c, phi=None):
    """Our MASNetEmbed with the official parameters copied in (log c = log of their c)."""
    net = K.MASNetEmbed(d, len(sd_b), phi_hidden=None if phi is None else len(phi["mlp.model.0.bias"]),
                        phi_shape="official").double()
    with torch.no_grad():
        net.a.copy_(f64(sd_a)), net.b.copy_(f64(sd_b)), net.log_c.copy_(torch.log(f64(sd_c)))
        for i, key in ((0, "mlp.model.0"), (2, "mlp.model.2")) if phi is not None else ():
            net.phi[i].weight.copy_(f64(phi[f"{key}.weight"])), net.phi[i].bias.copy_(f64(phi[f"{key}.bias"]))
    return net


with torch.no_grad():
    c = case["hat"]
    d_hat = float((K.hat(f64(c["input"]["t"])) - f64(c["output"])).abs().max())
    c = case["set_embedding"]
    i = c["input"]
    X = f64(i["X"])
    d_emb = float((copied_embed(3, i["a"], i["b"], i["c"])(X, torch.ones(X.shape[:2], dtype=torch.float64))
                   - f64(c["output"])).abs().max())
    c = case["set_embedding_mlp_mask"]
    sd = c["input"]["state_dict"]
    net = copied_embed(3, sd["special_layer.a"], sd["special_layer.b"], sd["special_layer.c"], phi=sd)
    d_mlp = float((net(f64(c["input"]["X"]), f64(c["input"]["mask"])) - f64(c["output"])).abs().max())
    emb2 = net(f64(c["input"]["X2"]), f64(c["input"]["mask2"]))
    c = case["set_loss"]
    i = c["input"]
    FSg, FTg, yg = f64(i["FS"]), f64(i["FT"]), f64(i["y"])
    loss_off, loss_ours_impl = c["output"], float(K.official_set_loss(FSg, FTg, yg, i["delta"]))
    loss_hinge = float(K.hinge_containment_loss(FSg, FTg, yg))
    pred_agree = int(((-K.containment_score(FSg, FTg) < 0.01).long() == torch.tensor(case["predict"]["output"])).sum())
glue("d_embed_max", max(d_emb, d_mlp), display=False)
print(f"{'official function':<58}{'largest |ours - official|':>27}")
print(f"{'hat (40 points)':<58}{d_hat:>27.1e}")
print(f"{'SigmaLayer, 4 sets of 7 points in R^3, 6 channels':<58}{d_emb:>27.1e}")
print(f"{'MLP d->h->d + SigmaLayer with mask, 5 sets, 8 channels':<58}{d_mlp:>27.1e}")
print(f"{'set_loss (delta 0.1) on 16 embedding pairs':<58}{abs(loss_ours_impl - loss_off):>27.1e}")
print(f"real-data predict (sum relu(F_S - F_T) < 0.01) vs our score thresholded: {pred_agree} of 16 pairs agree")
print(f"on those 16 pairs the official set loss is {loss_off:.4f}; our hinge loss (margin 1) is {loss_hinge:.4f}")
notes = case["set_embedding_mlp_mask"]["notes"]
print("official real-data forward returns the first set's embedding twice:",
      notes["forward_returns_first_embedding_twice"], "(largest |its second output - our embedding of the second set|:",
      f"{float((f64(notes['second_output_of_forward']) - emb2).abs().max()):.2f})")

# %% [markdown]
# **What agrees.** Where we implement the same function, we agree with the official code to rounding. The hat is
# identical. The set embedding agrees to within {glue:text}`d_embed_max:.0e`, with and without a $d \to h \to d$ element MLP and
# padding masks. The official code adds $10^{-6}$ to $\|a_c\|$ (and, on real data, to $c_c$), we do not. Our
# implementation of the official set loss gives the official value exactly. The real-data code decides
# "contained" when $\sum_c \mathrm{relu}(F_c(S) - F_c(T)) < 0.01$, which is our score thresholded. Both use
# sum aggregation in the synthetic task.
#
# **Where we depart** (each read in the code at that commit):
#
# | | official code | this page |
# |---|---|---|
# | set loss | margin $\delta = 0.1$; a positive pays $\max_c \mathrm{relu}(\delta + F_c(S) - F_c(T))$, a negative $\min_c \mathrm{relu}(\delta + F_c(T) - F_c(S))$ (`general_utils.set_loss`, called with `delta=0.1`) | a positive pays $\sum_c \mathrm{relu}(F_c(S) - F_c(T))$, a negative $\mathrm{relu}(1 - \sum_c \mathrm{relu}(F_c(S) - F_c(T)))$ |
# | initialisation | $a_c \sim U(0,1)^d$, $b_c \sim U(0,1)$, $c_c = 1$ as a free parameter (divided by directly); Xavier-uniform MLP weights | $a_c \sim N(0, I)$, $b_c \sim N(0, 1/4)$, $c_c = e^{\ell_c}$ with $\ell_c = 0$; PyTorch's default MLP weights |
# | element MLP $\phi$ | $d \to h \to d$, ReLU (real-data configs, $h = 1000$); a single linear map $d \to d$ in the synthetic `SubSet` config (`hidden_dims: []`) | $d \to h \to h$, ReLU |
# | activation | by default the *trainable* hat (learned start, width and peak position per channel): synthetic `SubSet` config, real-data `--hat_act`; the fixed hat in the three-pair `HardPair` toy and as the "Tri" variants of the real-data script's synthetic plots | the fixed hat |
# | aggregation | sum (synthetic), max (real-data `MonotoneNet` config) | sum |
# | DeepSets baseline | an embedding into $\mathbb R^{64}$ trained with the same set loss, decided by $F(S) \le F(T)$ | a classifier on $[E_S, E_T, E_S - E_T]$ trained with cross-entropy |
# | data | $T$: $n$ uniform points in $[0,1]^4$; $S$: $m$ of them, or $m$ fresh uniform points (random negatives); $(m, n) \in \{(1,2), (1,10), (10,30), (10,100)\}$, fixed sizes, no padding | a pool of 120 points of a Gaussian mixture in $\mathbb R^2$; $\lvert S\rvert \in [5, 15]$, 1 to 5 extra points; hard negatives; test sets up to $\lvert S\rvert = 30$ |
# | metric | accuracy of the decision $F(S) \le F(T) + 10^{-6}$ (synthetic) or $\sum_c \mathrm{relu}(F_c(S)-F_c(T)) < 0.01$ (real data) | average precision of the score (no threshold) |
# | training | 10 000 pairs, Adam lr $10^{-3}$, batch 64, up to 100 epochs, learning rate $\times 0.7$ on plateaus, best checkpoint by validation accuracy; 256 channels | ci: 2 000 pairs, 150 steps, lr $10^{-2}$, 32 channels; full: 10 000 pairs, 2 000 steps, lr $3 \cdot 10^{-3}$, 64 channels; last weights |
#
# The brief found no number in the paper's tables, and we could not read them here, so there is no table of
# the paper's results beside ours; the table above sets the official settings beside ours instead.
#
# One more finding, about the official code itself: at this commit the real-data model's `forward` returns the
# first set's embedding twice (`return self.outer_layer(out1), self.outer_layer(out1)`; the golden file records
# it). Trained that way, every pair compares a set with itself and the set loss is the constant $\delta$. We do
# not know which version of the code produced the paper's real-data tables.
#
# **The official choices run beside ours.** The loss is the departure we judged most likely to decide the task claims,
# so we train MASNet with the official loss, initialisation and element-MLP shape together ("official
# choices"): same data, steps, learning rate, widths and seeds as ours. At full scale we also separate them
# (official loss alone; official initialisation and $\phi$ shape alone, with our loss). DeepSets trained as the
# official code does (`DeepSets, set loss`: embedding, set loss, coordinatewise score) runs at both scales and is
# a baseline of the counted tests. The trainable hat, the official data, metric and training schedule are not
# run. To stay within its time budget, the ci page runs only the combined MASNet variant; the table marks the
# others "full only". The full-scale run has not been repeated since the page moved to the claim model, so this
# page quotes no full-scale number.

# %%
describe = {"MASNet": ("ours (hinge)", "ours", "d-h-h"), "official loss": ("official", "ours", "d-h-h"),
            "official init + phi": ("ours (hinge)", "official", "d-h-d"),
            "official choices": ("official", "official", "d-h-d"),
            "signed hat": ("ours (hinge)", "ours", "d-h-h"),
            "DeepSets": ("cross-entropy", "PyTorch", "pair classifier"),
            "DeepSets, set loss": ("official", "PyTorch", "embedding")}
print(f"{'model':<21}{'loss':<15}{'init':<10}{'phi / head':<17}{'AP (5-15)':>10}{'AP (5-30)':>10}"
      f"{'gain (5-15)':>12}{'gain (5-30)':>12}{'violations':>12}")
for n in describe:
    if n not in ap_mean:
        print(f"{n:<21}{'(full only)':<15}")
        continue
    g_in, g_long = (ap_mean[n][k] - ap_mean["DeepSets"][k] for k in ("in", "long"))
    print(f"{n:<21}{describe[n][0]:<15}{describe[n][1]:<10}{describe[n][2]:<17}{ap_mean[n]['in']:>10.3f}"
          f"{ap_mean[n]['long']:>10.3f}{g_in:>+12.3f}{g_long:>+12.3f}{viol[n]:>7d} / {P.n_mono}")
print("gain: mean AP minus that of DeepSets (ours, cross-entropy), 3 seeds; violations: seed 0, of the pairs S < S+E")

# %%
OFFICIAL = "issue 11: official choices run beside ours"
OFF_TOL = tolerance(rel=0.05, abs=0.06, why=f"mean AP after {P.steps} Adam steps with the official loss and "
                    "init: the foreign-numerics check (no SIMD kernels) moved this gain by 0.053 (long sets 0.272 on "
                    "an AVX-512 machine, 0.325 without), so its end point repeats to about 0.06, not to the 0.02 of "
                    "our loss; the official loss's max/min over channels follows one channel, which float rounding "
                    "can switch")
_ = claims.test("ap-gain-long-official",
                statement="Mean AP(MASNet, official loss + init + phi shape) - AP(DeepSets), 3 seeds, test |S| in "
                          "[5, 30] (hard negatives)",
                paper="MASNet beats DeepSets on containment (no number found)",
                criterion=at_least(0.03, partial=0.0),
                measured=float(ap_mean["official choices"]["long"] - ap_mean["DeepSets"]["long"]),
                ablation=Comparator(ABL.replace("hat,", "hat, our choices,"),
                                    float(ap_mean["signed hat"]["long"] - ap_mean["DeepSets"]["long"]),
                                    ingredient=NONNEG),
                baselines=baselines_for("long"), tol=OFF_TOL, post_hoc=OFFICIAL,
                setting="the official code's loss, initialisation and element-MLP shape")
_ = claims.illustrate("ap-gain-in-dist-official",
                      statement="Mean AP(MASNet, official loss + init + phi shape) - AP(DeepSets), 3 seeds, test |S| "
                                "in [5, 15] (hard negatives)",
                      paper="MASNet beats DeepSets on containment (no number found)",
                      criterion=at_least(0.03, partial=0.0),
                      measured=float(ap_mean["official choices"]["in"] - ap_mean["DeepSets"]["in"]), tol=OFF_TOL,
                      why=ROBUST.replace("counted long-set test", "counted official-setting long-set test"))

AP_TESTS = ["ap-gain-long", "ap-gain-long-official"]
claims.headline("dimension-bound",
                "On a finite ground set, an embedding that turns containment into a coordinatewise inequality needs "
                "as many coordinates as the ground set has elements (sharper bounds for bounded-size multisets); on "
                "an infinite ground set none exists",
                untestable="for sets the bound is the classical order dimension of the subset lattice: the page "
                           "illustrates it by exhaustive search (mas-dim-bound, low-dim-linear-fail), which could "
                           "not fail; the multiset refinements and the infinite-ground-set impossibility are proofs "
                           "we cannot refute by a finite computation here")
claims.headline("weakly-mas-stable",
                "MASNet is monotone for every weight and separates every non-contained pair for some weights "
                "(weakly MAS), and it is Hoelder-stable",
                untestable="monotonicity holds by construction (a unit test); separation for some weights and "
                           "Hoelder stability are existence and continuity statements with no finite computation "
                           "that could refute them at our sizes")
claims.headline("universal-monotone",
                "MAS functions give models that are monotone by construction and approximate every monotone set "
                "function", untestable="a universality theorem; no monotone-regression task is run here")
claims.headline("containment-gain",
                "On set-containment tasks MASNet does better than standard set models without the containment bias "
                "(DeepSets, Set Transformer). Tested here against DeepSets only (no Set Transformer), and our "
                "DeepSets pair classifier is at chance; the tests are not specific, since exact point matching, "
                "an untrained MASNet and a fixed grid histogram also clear the bar", tests=AP_TESTS)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %%
# numbers for the prose (glued, never typed)
KEY = {"MASNet": "mas", "DeepSets": "ds", "signed hat": "signed", "official choices": "off"}
for n, k in KEY.items():
    if n in ap_mean:
        for part in ("in", "long"):
            glue(f"ap_{k}_{part}", ap_mean[n][part], display=False)
            glue(f"gain_{k}_{part}", ap_mean[n][part] - ap_mean["DeepSets"][part], display=False)
KEY.update({"MASNet untrained": "untr", "DeepSets, set loss": "dsset"})
for n in ("MASNet untrained", "DeepSets, set loss"):
    for part in ("in", "long"):
        glue(f"ap_{KEY[n]}_{part}", ap_mean[n][part], display=False)
        glue(f"gain_{KEY[n]}_{part}", ap_mean[n][part] - ap_mean["DeepSets"][part], display=False)
for part in ("in", "long"):
    glue(f"ap_hist_{part}", ap_hist[part], display=False)
    glue(f"gain_hist_{part}", ap_hist[part] - ap_mean["DeepSets"][part], display=False)
    glue(f"train_gain_{part}", ap_mean["MASNet"][part] - ap_mean["MASNet untrained"][part], display=False)
for part in ("in", "long"):
    glue(f"ap_nn_{part}", ap_nn[part], display=False)
    glue(f"gain_nn_{part}", ap_nn[part] - ap_mean["DeepSets"][part], display=False)
glue("viol_ds", int(viol["DeepSets"]), display=False)
glue("viol_mas", int(viol["MASNet"]), display=False)
glue("viol_signed", int(viol["signed hat"]), display=False)
glue("n_mono", int(P.n_mono), display=False)
glue("n_max", int(ns[-1]), display=False)
glue("fwd_ratio", float(fwd["MASNet"] / fwd["DeepSets"]), display=False)

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# * **The containment task: MASNet beats DeepSets, and so do three scores without learning.** With hard
#   negatives, MASNet reaches a mean AP of {glue:text}`ap_mas_long:.2f` on sets up to twice the training sizes
#   ({glue:text}`ap_mas_in:.2f` on the training sizes, a robustness row of the same measurement), against
#   {glue:text}`ap_ds_long:.2f` and {glue:text}`ap_ds_in:.2f` for DeepSets: a gain of
#   {glue:text}`gain_mas_long:+.2f` ({repro-status}`ap-gain-long`; MASNet clears the bar at
#   {repro-seeds}`ap-gain-long:method:pass` ci seeds). The ablation behaves as the paper predicts: without
#   nonnegative summands the same model sits where DeepSets does (gain {glue:text}`gain_signed_long:+.2f`; it
#   clears the bar at {repro-seeds}`ap-gain-long:ablation:pass` seeds), and DeepSets trained as the official code
#   trains it, another learned embedding without nonnegativity, does too (gain {glue:text}`gain_dsset_long:+.2f`).
#   So among the *learned* embeddings, the monotone construction is what helps. But the test cannot tell the
#   paper's idea from no learning. Minus the directed Hausdorff distance from $S$ to $T$ reaches AP
#   {glue:text}`ap_nn_long:.2f` (gain {glue:text}`gain_nn_long:+.2f`, passing at
#   {repro-seeds}`ap-gain-long:baseline1:pass` seeds). MASNet at its random initialisation, never trained,
#   reaches AP {glue:text}`ap_untr_long:.2f` (gain {glue:text}`gain_untr_long:+.2f`), and a fixed 6 × 6 grid
#   histogram reaches {glue:text}`ap_hist_long:.2f` (gain {glue:text}`gain_hist_long:+.2f`). So a large part of
#   MASNet's gain over chance comes from random monotone hat features; training adds
#   {glue:text}`train_gain_long:+.2f` AP over the untrained MASNet, and no test here measures that part. Our
#   DeepSets reference is at chance, so "gain over DeepSets $\ge 0.03$" amounts to "AP at least $0.03$ above chance". On our
#   task the elements are exact copies of pool points, so containment can be read off by matching points, and
#   the task does not need the paper's idea. A page that wanted to test the paper's case for an embedding that
#   can be indexed and compared coordinatewise would need a task where pairwise matching is ruled out (unseen
#   pool points at test, noisy copies of elements), a reference that is not at chance, and the untrained MASNet
#   as a baseline.
# * **DeepSets is a weak reference.** Our pair classifier is at chance on both test sets. During development it
#   stayed at chance at learning rates from $10^{-3}$ to $10^{-2}$ (a development note, not measured on this
#   page). We have no Set Transformer. DeepSets with the official set loss reaches AP
#   {glue:text}`ap_dsset_long:.2f` on the long sets, close to chance too.
# * **The official code's choices** (loss, initialisation, element-MLP shape) give MASNet a mean AP of
#   {glue:text}`ap_off_long:.2f` on the long sets ({glue:text}`ap_off_in:.2f` in distribution; gain
#   {glue:text}`gain_off_long:+.2f`, {repro-status}`ap-gain-long-official`). This status is "not specific" for the
#   same reason as ours: the comparators that need no learning pass. That the status does not change is therefore
#   no evidence about these choices. The value is less repeatable than ours: under foreign numerics (no SIMD
#   kernels) it moved by more than twice our loss's tolerance, so its declared tolerance is wider than the
#   threshold itself (the reason is in the claims table), and a comparator whose gain lies within it of the
#   threshold is "at the edge", not failing. The variant was run once (3 seeds) at our learning rate, untuned;
#   it does not use the official trainable hat, data (random negatives in $[0,1]^4$), metric (accuracy) or
#   schedule.
# * **Both counted tests are post hoc and unconfirmed.** They have not been re-run on fresh seeds (10-19), so
#   they cannot move the page's badge, whatever their status.
# * **Illustrated, not tested: the dimension bound.** The exhaustive search finds no MAS map into
#   $\mathbb R^{n-1}$ and one into $\mathbb R^n$ for every $n$ up to {glue:text}`n_max:.0f`, and rejects the wrong
#   boundary; the LP search says the same for linear sum embeddings. For sets this is the classical order
#   dimension of the subset lattice, so these checks confirm what had to hold; the paper's new bounds for
#   bounded-size multisets are not computed.
# * **Illustrated, not tested: monotonicity.** Trained DeepSets violates $E(S) \le E(T)$ on
#   {glue:text}`viol_ds:.0f` of {glue:text}`n_mono:.0f` superset pairs, the signed-hat ablation on
#   {glue:text}`viol_signed:.0f`, MASNet on {glue:text}`viol_mas:.0f`, as its construction guarantees.
# * **Cost.** MASNet's forward pass took {glue:text}`fwd_ratio:.1f` times as long as DeepSets' in this run (wall
#   clock, volatile: it has moved between runs of this page by more than a factor of two, with the machine's
#   load). It keeps a `channels`-wide activation per element where DeepSets keeps a `hidden`-wide one.
#
# ## What a skeptic would try
#
# Reviewed by an independent skeptic (a helper that did not write or convert the page), with the rubric, the
# page, its record and sweeps. They re-ran the page's kernels single-threaded on seeds 0-9 beside naive
# alternatives: MASNet untrained, fixed grid histograms of 16 and 36 cells, an unconstrained learned embedding
# with our loss and with the official set loss, and the DeepSets pair classifier given four times the steps; and
# they read the prose against the record. What they tried is above and below; the numbers here are measured by
# this notebook (seed 0, mean over 3 training seeds), under the same AP and the same criterion (gain over
# DeepSets $\ge 0.03$):
#
# | comparator | what it leaves out | gain, sizes 5-15 | gain, sizes 5-30 |
# |---|---|---|---|
# | signed-hat MASNet (ablation) | nonnegative summands (monotonicity) | {glue:text}`gain_signed_in:+.3f` | {glue:text}`gain_signed_long:+.3f` |
# | DeepSets embedding, official set loss | nonnegative summands (learned, not monotone) | {glue:text}`gain_dsset_in:+.3f` | {glue:text}`gain_dsset_long:+.3f` |
# | nearest-neighbour score | any learned embedding | {glue:text}`gain_nn_in:+.3f` | {glue:text}`gain_nn_long:+.3f` |
# | MASNet untrained (random init, 0 steps) | learning | {glue:text}`gain_untr_in:+.3f` | {glue:text}`gain_untr_long:+.3f` |
# | 6 × 6 grid-count histogram | learning (a fixed monotone embedding) | {glue:text}`gain_hist_in:+.3f` | {glue:text}`gain_hist_long:+.3f` |
# | MASNet (ours, for reference) | | {glue:text}`gain_mas_in:+.3f` | {glue:text}`gain_mas_long:+.3f` |
#
# The three scores without learning pass, so the counted tests are "not specific". The two learned embeddings
# without nonnegativity fail, which supports the narrower reading: among learned embeddings of this size, the
# monotone construction is what helps. We did not add a post-hoc test in a harder regime: in the official
# synthetic task too, $S$ is made of exact copies of points of $T$ (or of fresh random points), so point matching
# would solve it as well. A sounder test would measure what the paper's idea must win, e.g. AP(MASNet) minus
# AP(untrained MASNet), with unseen pool points at test; we leave it for a later revision. Baselines not run: a
# Set Transformer and a monotone-by-penalty network.
#
# ## What the miniature cannot show
#
# The infinite-ground-set impossibility (a finite point pool stands in for $\mathbb R^2$), the Hölder
# stability, the weakly-MAS separation guarantee, the universality of monotone models built on MAS maps, the
# bounded-multiset dimension bounds, the Set Transformer baseline, the text and point-cloud benchmarks, the
# official trainable hat, and the authors' own synthetic benchmark (random negatives, scored by accuracy). Nor
# can it show a regime where an embedding is required (indexing, a compute budget per pair), which is where the
# paper's idea would have to beat pairwise matching.
#
# **What was hard.** Finding a check of the lower bound that is a computation, not the proof retyped. The
# critical-pair colouring test decides the order dimension exactly, and an independent enumeration of
# linear extensions for $n = 3$ cross-checks it. The other hard part was making the baseline comparison fair
# on a tight CPU budget: both models get the same steps, batch and data, and the widths were set for the
# time budget (a first try with 64 channels and width 32 was too slow for ci), not tuned per model.
