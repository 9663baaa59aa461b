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
# *A set embedding can turn containment into a coordinatewise inequality, $S \subseteq T \iff F(S) \le F(T)$,
# only if it has at least as many coordinates as the ground set has elements; a relaxed, learnable version
# (MASNet) is monotone by construction and does better than sum-pooling set models on containment tasks.*

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
               n_seeds=3, n_max_dim=6, n_mono=1000),
    "full": dict(n_train=10000, n_test=2000, n_ground=120, channels=64, hidden=32, steps=2000, batch=256, lr=0.003,
                 n_seeds=3, n_max_dim=7, n_mono=5000),
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
# 2. MASNet, a parametric family, is *weakly* MAS (monotone always, separating for some parameters) and
#    Hölder-stable.
# 3. On containment tasks it beats DeepSets and Set Transformer, models without containment as a built-in
#    bias. A public reviewer summary calls the gains "slight"; we found no headline number.
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
makers = {"MASNet": lambda: K.MASNetPair(2, P.channels, P.hidden),
          "DeepSets": lambda: K.DeepSetsPair(2, P.hidden),
          "signed hat": lambda: K.MASNetPair(2, P.channels, P.hidden, act="signed_hat")}
ap = {name: {"in": [], "long": []} for name in makers}
models, scores = {}, {}
for s, name in progress([(s, n) for s in range(P.n_seeds) for n in makers], desc="training"):
    torch.manual_seed(P.seed + s)
    model = makers[name]()
    K.train_pair_model(model, tr, P.steps, lr=P.lr, batch_size=P.batch, seed=P.seed + s)
    with torch.no_grad():
        for key, te in (("in", te_in), ("long", te_long)):
            sc = model(te["XS"], te["mS"], te["XT"], te["mT"]).numpy()
            ap[name][key].append(average_precision_score(te["y"].numpy(), sc))
            if s == 0 and key == "long":
                scores[name] = sc
    if s == 0:
        models[name] = model
ap_mean = {n: {k: float(np.mean(v)) for k, v in d.items()} for n, d in ap.items()}

# %% [markdown]
# Monotonicity of the trained embeddings (seed 0) on `n_mono` random pairs $S \subset S \cup E$ drawn from the
# pool, with $|S|$ up to 30 and up to 10 added elements, and the forward-pass cost of the two models on the
# long test set (best of 5 wall-clock runs).

# %%
Xm, mS, mT = K.random_superset_pairs(P.n_mono, K.make_ground_pool(P.n_ground, seed=10_000), seed=P.seed)
viol = {n: K.monotonicity_violations(models[n].embed, Xm, mS, mT) for n in models}
with torch.no_grad():
    gap = {n: (models[n].embed(Xm, mS) - models[n].embed(Xm, mT)).max(1).values.numpy() for n in models}


fwd = {}
with torch.no_grad():
    for n, mdl in models.items():
        fwd[n] = best_time(lambda: mdl(te_long["XS"], te_long["mS"], te_long["XT"], te_long["mT"]), repeats=5)
print(f"{'model':<12}{'parameters':>11}{'fwd time / DeepSets':>21}{'AP (5-15)':>11}{'AP (5-30)':>11}"
      f"{'monotonicity violations':>25}")
for n in models:
    print(f"{n:<12}{K.n_parameters(models[n]):>11}{fwd[n] / fwd['DeepSets']:>21.2f}"
          f"{ap_mean[n]['in']:>11.3f}{ap_mean[n]['long']:>11.3f}{viol[n]:>18d} / {P.n_mono}")
print("per-seed AP (5-30):", {n: np.round(ap[n]["long"], 3).tolist() for n in ap})

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
for n in models:
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
for n in models:
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
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# All five counted claims hold at ci scale, each against a control that fails; three of them are flagged
# post hoc (one measurement redesigned, two whose widths were set during development). They hold at full
# scale too (10 000 training pairs, 2 000 steps, 64 channels, controls included; about 6 minutes on a
# loaded machine, seed 0), with the numbers below.
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
#   from the in-distribution sizes. The gap to DeepSets is +0.28 at ci and +0.46 to +0.47 at full scale.
#   **DeepSets sits at chance** (AP 0.50 to 0.52 at both scales, at every learning rate we tried from
#   $10^{-3}$ to $10^{-2}$), so the gap is measured against a straw man and is far larger than the "slight"
#   gains a reviewer reports for the paper's benchmarks. What the control adds: the signed-hat ablation,
#   the same model without nonnegative summands, also sits at chance (ci: AP 0.49 in distribution, 0.51 on
#   the long sets; full: 0.51 and 0.52). Its gain over DeepSets is within 0.02 of zero. At ci it counts as
#   "partial" on the long sets only because it is not negative; at full scale it is slightly negative. So on this task the gain comes from the monotone construction, as the paper says, and not
#   from the score, the loss or the architecture around it. It does not show that MASNet beats a *good*
#   set model: we have no Set Transformer, and a unit test shows our DeepSets learns an easy instance (small
#   one-hot sets, random negatives) but not this one. Our gap should not be read as the size of the paper's
#   gain.
# * **Cost.** MASNet's forward pass took between about 3 and 9 times as long as DeepSets' across our runs
#   (wall clock, volatile). It keeps a `channels`-wide activation per element, where DeepSets keeps a
#   `hidden`-wide one, and it embeds both sets with the piecewise-linear hat. This is a property of our
#   small implementation, not a claim of the paper.
#
# **What the miniature cannot show.** It cannot show the infinite-ground-set impossibility (a finite point
# pool stands in for $\mathbb R^2$), the Hölder stability, the weakly-MAS separation guarantee, the universality
# of monotone models built on MAS maps, the Set Transformer baseline, or the text and point-cloud benchmarks.
#
# **What was hard.** Finding a check of the lower bound that is a computation, not the proof retyped. The
# critical-pair colouring test decides the order dimension exactly, and an independent enumeration of
# linear extensions for $n = 3$ cross-checks it. The other hard part was making the baseline comparison fair
# on a tight CPU budget: both models get the same steps, batch and data, and the widths were set for the
# time budget (a first try with 64 channels and width 32 was too slow for ci), not tuned per model.
