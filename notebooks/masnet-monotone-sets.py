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

from repro.claims import Claims, at_least, greater_than, is_true, less_than, tolerance
from repro.papers import masnet_monotone_sets as K
from repro.runtime import progress, setup_notebook
from repro.timing import best_time

P = setup_notebook(scale, seed, presets={
    "ci": dict(n_train=2000, n_test=1000, n_ground=120, channels=32, hidden=16, steps=150, batch=128, lr=0.01,
               n_seeds=3, n_max_dim=6, n_mono=1000, official_runs=("official choices",)),
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
# If the paper is right that the containment bias is what helps, this model should not beat DeepSets.
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
# * **Containment task.** Ground set: a pool of `n_ground` points of a Gaussian mixture in the plane (a
#   stand-in for an infinite domain: the models see only coordinates). Pairs are half positive, $S \subseteq T$
#   with $|S| \in [5, 15]$ and $|T \setminus S| \in [1, 5]$; half negative, the same with one element of $S$
#   replaced by its nearest pool point outside $T$ (a hard negative). Test sets: in-distribution sizes
#   $[5, 15]$, and longer sets $|S| \in [5, 30]$. Metric: average precision (AP).
# * **Models and training:** MASNet (hat, `channels` channels, $\phi$ a 2-layer MLP of width `hidden`) and
#   DeepSets (width `hidden`), and the signed-hat ablation of MASNet, the same number of Adam steps and batch
#   size, 3 seeds each.
#
# **Claim checks (criteria fixed before the run), each with its control:**
#
# * `mas-dim-bound` (theorem): for every $n$ tried, no MAS map into $\mathbb R^{n-1}$ and one into
#   $\mathbb R^n$. Control: the same exhaustive test of a wrong boundary, $m \ge n-1$ (none into
#   $\mathbb R^{n-2}$, one into $\mathbb R^{n-1}$), which the search must reject.
# * `low-dim-linear-fail` (theorem): the LP search finds no linear MAS map into $\mathbb R^{n-1}$. Control:
#   the same search at $m = n$, where the paper says MAS maps exist, so the claim "none exists" must fail
#   there. The first version of this check drew 200 random nonnegative $W$ with $m < 5$; random $W$ fail
#   at $m = 5$ too, so that check could not fail. It is flagged post hoc.
# * `deepsets-not-monotone`: more than 0 of `n_mono` random $(S, S\cup E)$ pairs violate $E(S) \le E(T)$
#   (tolerance $10^{-6}$) for trained DeepSets. Control: trained MASNet, which should have none.
# * `ap-gain-long`, `ap-gain-in-dist`: mean AP(MASNet) $-$ AP(DeepSets) over 3 seeds $\ge 0.03$ ("beats";
#   partial if $\ge 0$). Control: the same difference for the signed-hat ablation. The brief suggested
#   relaxing the ci criterion to $\ge -0.01$; we keep the same claim at both scales. The widths and learning
#   rate were set during development (see the deviations), so these two claims are flagged post hoc.
# * `ap-gain-long-official`, `ap-gain-in-dist-official` (added for issue 11, so post hoc): the same
#   difference and criterion for MASNet trained with the official code's loss, initialisation and element-MLP
#   shape (see "Against the official code"), against the same control.
#
# Two former claims are identities of our own code and are now unit tests
# (`tests/papers/test_masnet_monotone_sets.py`): the count embedding is MAS on all 59 049 pairs of
# multisets (it compares containment with itself), and MASNet has no monotonicity violations (a sum of
# nonnegative hat terms cannot decrease). The printout below still shows the first. Forward-pass time is
# reported as a ratio, not checked.
#
# **Deviations from the paper**
#
# * Synthetic data only: no text (MSWEB, MSNBC, Amazon) or point-cloud sets, no facility-location task.
# * A finite pool of 2-d points stands in for the infinite ground set; no Set Transformer baseline, no
#   ReLU-MASNet or learnable-hat variants, no outer monotone MLP.
# * Far fewer pairs and steps than the paper's code defaults (10 000 pairs, up to 100 epochs): at ci scale
#   2 000 training pairs and 150 Adam steps of 128 pairs; at full scale 10 000 pairs and 2 000 steps.
# * Small widths (ci: 32 channels, width 16) chosen to fit the time budget, not tuned per model. They and
#   the learning rate were set during development, after a first try at 64 channels and width 32 was too
#   slow for ci and after DeepSets was tried at learning rates $10^{-3}$ to $10^{-2}$. This is why the AP
#   claims are flagged post hoc.
# * Control of the task claims: a signed-hat MASNet ablation of our own (not in the paper), not Set
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
ap_mean = {n: {k: float(np.mean(v)) for k, v in d.items()} for n, d in ap.items()}
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
print("per-seed AP (5-30):", {n: np.round(ap[n]["long"], 3).tolist() for n in ours3})

# %% [markdown]
# ## Results
#
# The table above puts the three models side by side: parameters, forward time per pass relative to DeepSets
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
ax.axvspan(5, 15, color="grey", alpha=0.15, label="training sizes")
ax.axhline(0.5, color="k", ls=":", lw=1, label="chance (half positive)")
ax.set(xlabel="$|S|$ (elements)", ylabel="average precision", title="Containment AP by set size (seed 0)",
       ylim=(0.4, 1.0))
ax.legend()
plt.show()

# %% [markdown]
# ## Claim checks

# %%
WIDTHS = ("ci widths (32 channels, width 16) and the learning rate were set during development, after a first "
          "try at 64 channels and width 32 was too slow for ci, with DeepSets tried at learning rates 1e-3 to 1e-2")
TRAINED = tolerance(rel=0.05, abs=0.02, why=f"mean AP after {P.steps} Adam steps: the training end point moves "
                                             "with float rounding across machines")
claims.check("mas-dim-bound", kind="theorem",
             statement=f"Exhaustive, n = 2..{ns[-1]}: no MAS map of all subsets into R^(n-1), one into R^n",
             paper="MAS maps on a finite ground set exist iff m >= |V|",
             criterion=is_true(), measured=bool(not any(dim_below.values()) and all(dim_at.values())),
             control=bool(not any(dim_two_below.values()) and all(dim_below.values())),
             control_label="the same exhaustive test of a wrong bound m >= n-1 (none into R^(n-2), one into R^(n-1))")
claims.check("low-dim-linear-fail", kind="theorem",
             statement=f"n = 2..{ns[-1]}: no linear sum embedding W count(S) into R^(n-1) is MAS "
                       "(exact LP search over every assignment of the critical pairs to coordinates)",
             paper="no MAS map for m < |V|", criterion=is_true(),
             measured=bool(all(W is None for W in lin_below.values())),
             control=bool(not all(lin_at_ok.values())),
             control_label="the same search at m = n, where the paper says MAS maps exist "
                           "(a map found there is confirmed by brute force)",
             post_hoc="measurement changed after the first run: 200 random nonnegative linear maps (which fail at "
                      "every dimension, even m = n) replaced by an exact LP search, so that m = n can be the control")
claims.check("deepsets-not-monotone",
             statement=f"Trained DeepSets: pairs S < S+E (of {P.n_mono}) whose embedding violates monotonicity",
             paper="standard set models lack the containment bias", criterion=greater_than(0),
             measured=int(viol["DeepSets"]), control=int(viol["MASNet"]),
             control_label="trained MASNet (monotone by construction)",
             tol=tolerance(rel=0.05, why=f"a count over the embedding of a network after {P.steps} Adam steps: "
                                         "it depends on the training end point"))
claims.check("ap-gain-long",
             statement="Mean AP(MASNet) - AP(DeepSets), 3 seeds, test |S| in [5, 30] (hard negatives)",
             paper="MASNet beats DeepSets on containment (no number found)",
             criterion=at_least(0.03, partial=0.0),
             measured=float(ap_mean["MASNet"]["long"] - ap_mean["DeepSets"]["long"]),
             control=float(ap_mean["signed hat"]["long"] - ap_mean["DeepSets"]["long"]),
             control_label="MASNet without nonnegative summands (signed hat, not monotone) - DeepSets",
             tol=TRAINED, post_hoc=WIDTHS)
claims.check("ap-gain-in-dist",
             statement="Mean AP(MASNet) - AP(DeepSets), 3 seeds, test |S| in [5, 15] (hard negatives)",
             paper="MASNet beats DeepSets on containment (no number found)",
             criterion=at_least(0.03, partial=0.0),
             measured=float(ap_mean["MASNet"]["in"] - ap_mean["DeepSets"]["in"]),
             control=float(ap_mean["signed hat"]["in"] - ap_mean["DeepSets"]["in"]),
             control_label="MASNet without nonnegative summands (signed hat, not monotone) - DeepSets",
             tol=TRAINED, post_hoc=WIDTHS)
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
# identical. The set embedding agrees to about $10^{-6}$, with and without a $d \to h \to d$ element MLP and
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
# (official loss alone; official initialisation and $\phi$ shape alone, with our loss), and train DeepSets as
# the official code does (`DeepSets, set loss`: embedding, set loss, coordinatewise score). The trainable
# hat, the official data, metric and training schedule are not run. To stay within its time budget, the ci
# page runs only the combined variant; the table marks the others "full only", and the verdict gives their
# full-scale numbers.

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
for key, sizes in (("long", "[5, 30]"), ("in", "[5, 15]")):
    _ = claims.check(f"ap-gain-{'long' if key == 'long' else 'in-dist'}-official",
                     statement=f"Mean AP(MASNet, official loss + init + phi shape) - AP(DeepSets), 3 seeds, test |S| "
                               f"in {sizes} (hard negatives)",
                     paper="MASNet beats DeepSets on containment (no number found)",
                     criterion=at_least(0.03, partial=0.0),
                     measured=float(ap_mean["official choices"][key] - ap_mean["DeepSets"][key]),
                     control=float(ap_mean["signed hat"][key] - ap_mean["DeepSets"][key]),
                     control_label="MASNet without nonnegative summands (signed hat, our choices) - DeepSets",
                     tol=tolerance(rel=0.05, abs=0.08, why=f"mean AP after {P.steps} Adam steps with the official "
                                   "loss and init: the end point moves between CPU families (long sets 0.272 on an "
                                   "AVX-512 machine, 0.325 without SIMD kernels)"), post_hoc=OFFICIAL)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# All seven counted claims hold at ci scale, each against a control that fails. Five are flagged post hoc:
# one measurement was redesigned, two claims have widths set during development, and two were added for
# issue 11 to run the official code's choices. They hold at full scale too (10 000 training pairs, 2 000
# steps, 64 channels, controls included, seed 0; the last column of the table "Across seeds and scales"), and
# at every one of the ten ci seeds: no claim of this page is seed- or scale-sensitive. The full-scale run,
# with the four official-choice variants, took 28 to 36 minutes on a heavily loaded machine; we estimate 8
# minutes on a quiet one, so the full sweep has seed 0 only.
#
# * **Reproduced, exactly: the dimension bound.** An exhaustive search over the subset lattice finds no MAS
#   map into $\mathbb R^{n-1}$ and finds one into $\mathbb R^n$, for every $n$ from 2 to 6 (ci) or 7 (full),
#   and rejects the wrong boundary $m \ge n-1$ (the control). For linear sum embeddings an exact LP search
#   finds none into $\mathbb R^{n-1}$ and finds one into $\mathbb R^n$, confirmed by brute force (the
#   control, where "none exists" fails). This is the finite-ground-set half of the paper's characterisation,
#   checked by computation rather than proof, and only for sets, not multisets of bounded size. The old
#   random-linear-map check was dropped: random nonnegative maps fail at $m = n$ as well, so it could not
#   tell the bound from its absence.
# * **Reproduced: DeepSets is not monotone, MASNet is.** Trained DeepSets violated $E(S) \le E(T)$ on all
#   1 000 ci pairs and all 5 000 full-scale pairs (an earlier version of this page reported 95 of 5 000 at
#   full scale; the current run does not repeat it). Trained MASNet, the control, had none, as its
#   construction guarantees; that guarantee itself is now a unit test, not a claim.
# * **Reproduced, against a weak baseline: the containment task.** With hard negatives, MASNet reached a mean
#   AP of about 0.78 at ci scale and 0.98 at full scale on sets up to twice the training size, with no drop
#   from the in-distribution sizes. The gap to DeepSets is about +0.28 at ci and +0.46 at full scale (the
#   table gives both, the ci one as a median over seeds).
#   **DeepSets sits at chance** (AP 0.50 to 0.52 at both scales, at every learning rate we tried from
#   $10^{-3}$ to $10^{-2}$), so the gap is measured against a straw man and is far larger than the "slight"
#   gains a reviewer reports for the paper's benchmarks. What the control adds: the signed-hat ablation,
#   the same model without nonnegative summands, also sits at chance (ci: AP 0.49 in distribution, 0.51 on
#   the long sets; full: 0.51 and 0.52). Its gain over DeepSets is within 0.02 of zero. At ci it counts as
#   "partial" on the long sets only because it is not negative; at full scale it is slightly negative. So on
#   this task the gain comes from the monotone construction, as the paper says, and not from the score, the
#   loss or the architecture around it. It does not show that MASNet beats a *good*
#   set model: we have no Set Transformer, and a unit test shows our DeepSets learns an easy instance (small
#   one-hot sets, random negatives) but not this one. Our gap should not be read as the size of the paper's
#   gain.
# * **Reproduced under the official code's choices too (issue 11, post hoc).** We trained MASNet with the
#   official set loss ($\delta = 0.1$), the official initialisation and the $d \to h \to d$ element MLP,
#   keeping our data, steps, learning rate and widths. It reached a mean AP of 0.84 (in distribution) and
#   0.83 (long sets) at ci, and 0.96 at full scale. Its gains over DeepSets are +0.34 and +0.33 at ci, and
#   +0.45 and +0.44 at full scale. Our choices give +0.28 at ci and +0.47 and +0.46 at full scale. So the
#   two official-choice claims hold at both scales: better than ours at ci, slightly worse at full scale.
#   Taken apart at full scale, the official loss alone gives AP 0.956 and 0.953, and the official
#   initialisation and MLP shape alone (with our loss) 0.903 and 0.898, against 0.978 for ours. The loss does
#   not decide the claims. We also trained DeepSets as the official code does: an embedding with the set loss,
#   scored coordinatewise. It moves off chance but not far (full scale: AP 0.57 and 0.58; 3 618 of 5 000
#   superset pairs still violate monotonicity). MASNet's margin over it is still about +0.4. Each variant
#   was run once (3 seeds) at our learning rate, untuned. None of them uses the official trainable hat, the
#   official data (random negatives in $[0,1]^4$), metric (accuracy) or schedule, so these are not the
#   paper's experiments.
# * **Cost.** MASNet's forward pass took between about 3 and 14 times as long as DeepSets' across our runs
#   (wall clock, volatile, under varying machine load). It keeps a `channels`-wide activation per element,
#   where DeepSets keeps a `hidden`-wide one, and it embeds both sets with the piecewise-linear hat. This is
#   a property of our small implementation, not a claim of the paper.
#
# **What the miniature cannot show.** It cannot show the infinite-ground-set impossibility (a finite point
# pool stands in for $\mathbb R^2$), the Hölder stability, the weakly-MAS separation guarantee, the universality
# of monotone models built on MAS maps, the Set Transformer baseline, the text and point-cloud benchmarks, the
# official trainable hat, or the authors' own synthetic benchmark (random negatives, scored by accuracy).
#
# **What was hard.** Finding a check of the lower bound that is a computation, not the proof retyped. The
# critical-pair colouring test decides the order dimension exactly, and an independent enumeration of
# linear extensions for $n = 3$ cross-checks it. The other hard part was making the baseline comparison fair
# on a tight CPU budget: both models get the same steps, batch and data, and the widths were set for the
# time budget (a first try with 64 channels and width 32 was too slow for ci), not tuned per model.
