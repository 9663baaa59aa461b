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
# # DeltaZero: gradient descent towards a tree metric through a smooth Gromov δ
#
# *Lowering a smooth surrogate of Gromov's δ-hyperbolicity by gradient descent moves a metric to a nearby,
# almost tree-like metric, whose Gromov tree fits the original distances better than the classic baselines.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import networkx as nx
import numpy as np

from repro.claims import Claims, at_least, at_most, tolerance
from repro.papers import deltazero_tree_metrics as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    "ci": dict(n_tree=20, noise=0.3, n_seeds=5, n_roots=5, epochs=100, batch_size=10, n_batches=32,
               graphs=["florentine", "karate"], bound_graphs=["florentine", "davis", "karate", "geometric"]),
    "full": dict(n_tree=30, noise=0.3, n_seeds=5, n_roots=10, epochs=300, batch_size=12, n_batches=32,
                 graphs=["florentine", "davis", "karate", "geometric"],
                 bound_graphs=["florentine", "davis", "karate", "geometric", "lesmis"]),
})
FIT = dict(beta=20.0, lr=0.1, distance_reg=0.01, epochs=P.epochs, batch_size=P.batch_size,
           n_batches=P.n_batches)  # lr and distance_reg: the official grid-search config; beta fixed by us
claims = Claims("deltazero-tree-metrics",
                title="Bridging Arbitrary and Tree Metrics via Differentiable Gromov Hyperbolicity",
                authors="Pierre Houedry, Nicolas Courty, Florestan Martin-Baillon, Laetitia Chapel, Titouan Vayer",
                paper_url="https://arxiv.org/abs/2505.21073", scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# Many data sets are "almost" hierarchical: their distances are close to the shortest-path distances of
# a weighted tree. Gromov's $\delta$-hyperbolicity measures how far a metric is from being a tree metric:
# $\delta = 0$ exactly for tree metrics. The classic way to build a tree from a metric, Gromov's
# construction from a root, has a worst-case ℓ∞ error of $2\delta\lceil\log_2 n\rceil$, so it is good when $\delta$
# is small. The paper, DeltaZero, first *lowers* $\delta$. It replaces the maxima and minima in $\delta$ by
# log-sum-exp, so that $\delta$ becomes differentiable, and runs gradient descent on the metric while a
# penalty keeps it close to the data. It then builds the Gromov tree of the optimised metric. The paper reports
# state-of-the-art ℓ∞ distortion against neighbour joining, TreeRep, HCC, layering trees and Gromov's
# tree on graph and non-graph data sets. We did not retrieve the paper's table values, so we compare
# with the baselines qualitatively.
#
# ## The method
#
# **Four-point δ.** For points $i,j,k,l$ form the three pair sums
# $S_1=d_{ij}+d_{kl}$, $S_2=d_{ik}+d_{jl}$, $S_3=d_{il}+d_{jk}$ and sort them, $S_{(1)}\ge S_{(2)}\ge S_{(3)}$. Then
#
# $$\delta(d)=\max_{i,j,k,l}\ \tfrac12\big(S_{(1)}-S_{(2)}\big).$$
#
# `K.four_point_delta` evaluates this for all $n^4$ index tuples at once with numpy broadcasting.
# Equivalently, with Gromov products $(x|y)_w=\tfrac12(d_{xw}+d_{yw}-d_{xy})$,
# $\delta=\max_{x,y,z,w}\big[\min\{(x|y)_w,(y|z)_w\}-(x|z)_w\big]$.
#
# **Smooth surrogate.** Replace the min by $\mathrm{softmin}_\beta$ and the outer max by
# $\mathrm{softmax}_\beta(v)=\beta^{-1}\log\sum e^{\beta v}$. The result $\delta_\beta$ lies within
# $[\delta-\log 2/\beta,\ \delta+\log(n^4)/\beta]$ and tends to $\delta$ as $\beta\to\infty$ (unit-tested). To keep
# the cost manageable, the paper's batched version takes a soft-max of $\delta_\beta$ over random subsets of
# `batch_size` points.
#
# **DeltaZero.** The variables are the edge weights $W$ of the complete graph on the $n$ points,
# initialised at $D$. With torch autograd and Adam we minimise
#
# $$\mathcal L(W)=\tfrac12\,\hat\delta_\beta(W)^2+\lambda\,\operatorname{mean}_{ij}(D_{ij}-W_{ij})^2 .$$
#
# The square reproduces the official code's gradient scaling: there the δ term is back-propagated with
# weight δ. Every 10 epochs, negative weights are clipped and $W$ is projected onto a metric by shortest
# paths (Floyd–Warshall). The final metric $\hat D$ goes through Gromov's tree construction, and we
# measure the tree's distortion **against the original $D$**.
#
# **Gromov tree** (`K.gromov_tree`). From root $r$: take the Gromov products $G_{ij}=(i|j)_r$, replace them by
# their max–min closure $G'$ (the bottleneck of a maximum spanning tree), and set
# $D_T=d_{ir}+d_{jr}-2G'_{ij}$. **Neighbour joining** (`K.neighbor_joining`, our implementation) is the
# second baseline.
#
# **Controls.** Each counted claim is also measured on something for which it should fail.
# (i) A *random change of the metric as large as DeltaZero's*: we add to $D$ a random symmetric Gaussian
# direction scaled to the same Frobenius norm as $\hat D - D$, clip and project it by shortest paths as
# DeltaZero does, and build its Gromov trees from the same roots (`K.random_perturbation_metric`). If lowering
# δ is what helps, a change of the same size that is not aimed at δ should neither lower δ nor the distortion.
# (ii) The *Gromov tree of the raw metric*, that is DeltaZero's pipeline without the descent, against neighbour
# joining. (iii) For Gromov's bound, a theorem, a deliberately wrong δ: the *mean* four-point gap over
# quadruples instead of the maximum (`K.four_point_delta_mean`), with which the bound should break.

# %% [markdown]
# ## The experiment
#
# - **Noisy synthetic trees:** random labelled trees on `n_tree` nodes (ci 20, full 30) with edge
#   weights U(0.5, 1.5). Each distance is multiplied by $1+0.3\,U(-1,1)$ and the result projected back onto a
#   metric, which gives $\delta>0$. We use 5 seeds.
# - **Graphs from networkx:** Florentine families (15 nodes), karate club (34), Davis southern women
#   (32, full scale), a random geometric graph (20 nodes, radius 0.35, largest component; full scale), and
#   Les Misérables (77, full scale, bound check only). Distances are unweighted shortest paths.
# - **Methods:** DeltaZero followed by the Gromov tree, the Gromov tree on the raw metric, and neighbour
#   joining. The Gromov-tree distortions are averaged over `n_roots` roots (ci 5, full 10), the same
#   roots for both.
# - **Settings (fixed before the runs):** lr 0.1 and λ = 0.01 from the official grid-search
#   configuration, β = 20, batch size 10 (full 12), 32 batches, 100 epochs (full 300).
#
# **Deviations from the paper**
#
# - Small networkx graphs and synthetic trees instead of the paper's data sets (C. elegans, CS PhD,
#   cora, airport, wiki).
# - 100 epochs without early stopping (the official grid runs 1000 epochs with patience 50), and small
#   sub-batches (10 points instead of 32).
# - β was fixed by us: the paper's value was not retrieved.
# - Baselines: only neighbour joining and Gromov's tree. TreeRep, HCC and layering trees are left out.
# - The loss uses $\tfrac12\hat\delta^2$, our reading of the official gradient scaling. The paper's
#   loss may be written differently.
# - The controls (a random change of the metric of DeltaZero's size, the raw Gromov tree against NJ, the
#   mean four-point gap in Gromov's bound) are ours, not the paper's.
# - β = 20 and the other settings were fixed after looking at three alternatives on the karate club
#   (see below), so the three karate claims are flagged post hoc.

# %%
def load_graph(name: str) -> np.ndarray:
    if name == "florentine":
        G = nx.florentine_families_graph()
    elif name == "karate":
        G = nx.Graph(nx.karate_club_graph().edges())  # drop the 'weight' (interaction count) attribute
    elif name == "davis":
        G = nx.davis_southern_women_graph()
    elif name == "lesmis":
        G = nx.Graph(nx.les_miserables_graph().edges())
    elif name == "geometric":
        G = nx.random_geometric_graph(20, 0.35, seed=P.seed)
        G = G.subgraph(max(nx.connected_components(G), key=len))
    G = nx.convert_node_labels_to_integers(nx.Graph(G.edges()))
    return K.graph_metric(G)


def evaluate(D: np.ndarray, M: np.ndarray, roots: np.ndarray) -> dict:
    """Gromov trees of metric M from each root, distortion against D, averaged over roots."""
    ds = [K.distortion(D, K.gromov_tree(M, int(r))) for r in roots]
    return {k: float(np.mean([d[k] for d in ds])) for k in ("linf", "l1")}


def compare(D: np.ndarray, fit_seed: int) -> dict:
    roots = np.random.default_rng(fit_seed).choice(len(D), size=min(P.n_roots, len(D)), replace=False)
    h = K.deltazero_fit(D, seed=fit_seed, **FIT)
    # null model (control): a change of the metric as large as DeltaZero's, in a random direction
    M_rand = K.random_perturbation_metric(D, float(np.linalg.norm(h["D_opt"] - D)),
                                          np.random.default_rng(10_000 + fit_seed))
    return dict(D=D, n=len(D), delta0=h["delta"][0], delta1=h["delta"][-1], hist=h, roots=roots,
                gromov=evaluate(D, D, roots), nj=K.distortion(D, K.neighbor_joining(D)),
                dz=evaluate(D, h["D_opt"], roots), rand=evaluate(D, M_rand, roots),
                delta_rand=K.four_point_delta(M_rand),
                curve=[evaluate(D, M, roots) for M in h["metric"]])


# %%
synth = []
for s in progress(range(P.n_seeds), desc="synthetic trees"):
    _, Dn = K.noisy_tree_metric(P.n_tree, P.noise, np.random.default_rng(1000 * P.seed + s))
    synth.append(compare(Dn, P.seed + s))
graphs = {g: compare(load_graph(g), P.seed) for g in progress(P.graphs, desc="graphs")}

# %% [markdown]
# ## Results
#
# ### Distortion along the optimisation (karate club)
#
# At each recorded epoch we build Gromov trees from the current metric $W$ (the same roots as the
# baseline) and measure their distortion against the original graph distances. The horizontal lines are
# the Gromov tree of the raw metric and neighbour joining.

# %%
kc = graphs["karate"]
ep = kc["hist"]["epoch"]
fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.4))
for ax, key, lab in zip(axes, ("linf", "l1"), ("ℓ∞ distortion max|D − D_T| (hops)",
                                              "mean |D − D_T| over pairs (hops)")):
    ax.plot(ep, [c[key] for c in kc["curve"]], "o-", ms=3, label="DeltaZero → Gromov tree")
    ax.axhline(kc["gromov"][key], color="C1", ls="--", label="Gromov tree on raw D")
    ax.axhline(kc["nj"][key], color="C2", ls=":", label="neighbour joining")
    ax.set_xlabel("epoch")
    ax.set_ylabel(lab)
axes[0].set_title(f"karate club (n = {kc['n']}), mean over {len(kc['roots'])} roots")
axes[1].legend()
plt.show()

# %% [markdown]
# ### δ along the optimisation
#
# The exact four-point δ of the projected metric, recorded every 10 epochs, for the karate club and the
# five noisy trees.

# %%
fig, ax = plt.subplots(figsize=(6.4, 3.4))
ax.plot(ep, kc["hist"]["delta"], "o-", ms=3, color="C0", label="karate club")
for i, r in enumerate(synth):
    ax.plot(r["hist"]["epoch"], r["hist"]["delta"], "-", color="C3", alpha=0.6,
            label=f"noisy trees (n = {P.n_tree}, 5 seeds)" if i == 0 else None)
ax.set_xlabel("epoch")
ax.set_ylabel("four-point δ of the current metric (distance units)")
ax.set_yscale("log")
ax.legend()
plt.show()

# %% [markdown]
# ### Final distortion per data set
#
# ℓ∞ distortion against the original distances for the two baselines, DeltaZero, and the control: a random
# change of the metric as large as DeltaZero's, projected and turned into Gromov trees in the same way.

# %%
rows = {f"tree s{i}": r for i, r in enumerate(synth)} | graphs
names = list(rows)
x = np.arange(len(names))
fig, ax = plt.subplots(figsize=(8.0, 3.4))
for k, (key, lab) in enumerate([("gromov", "Gromov tree (raw D)"), ("nj", "neighbour joining"),
                                ("dz", "DeltaZero"), ("rand", "random change of DeltaZero's size (control)")]):
    ax.bar(x + 0.2 * (k - 1.5), [rows[n][key]["linf"] for n in names], 0.2, label=lab)
ax.set_xticks(x, names, rotation=30)
ax.set_ylabel("ℓ∞ distortion (distance units)")
ax.legend(ncol=2, fontsize=8)
plt.show()
print(f"{'data':>12} {'n':>3} {'delta':>6} {'delta DZ':>8} {'delta rand':>10} | linf: {'Gromov':>6} {'NJ':>6} "
      f"{'DZ':>6} {'rand':>6} | mean: {'Gromov':>6} {'NJ':>6} {'DZ':>6} {'rand':>6}")
for n in names:
    r = rows[n]
    print(f"{n:>12} {r['n']:>3} {r['delta0']:>6.3f} {r['delta1']:>8.3f} {r['delta_rand']:>10.3f} | "
          f"{r['gromov']['linf']:>12.3f} {r['nj']['linf']:>6.3f} {r['dz']['linf']:>6.3f} {r['rand']['linf']:>6.3f} | "
          f"{r['gromov']['l1']:>12.3f} {r['nj']['l1']:>6.3f} {r['dz']['l1']:>6.3f} {r['rand']['l1']:>6.3f}")
print("rand: the control, a random change of the metric as large as DeltaZero's")

# %% [markdown]
# ### Gromov's worst-case bound on the raw metrics
#
# A sanity check of the baseline and of our δ: on every data set and from every root, the Gromov tree's
# ℓ∞ error stays below $2\delta\lceil\log_2 n\rceil$.

# %%
bound_ratio, wrong_ratio = {}, {}  # control: the same ratio with delta replaced by its mean over quadruples
metrics = {g: load_graph(g) for g in P.bound_graphs} | {f"tree s{i}": r["D"] for i, r in enumerate(synth)}
for name, D in metrics.items():
    worst = max(K.distortion(D, K.gromov_tree(D, q))["linf"] for q in range(len(D)))
    bound_ratio[name] = worst / K.gromov_bound(K.four_point_delta(D), len(D))
    wrong_ratio[name] = worst / K.gromov_bound(K.four_point_delta_mean(D), len(D))
print("l_inf error / bound:             ", {k: round(v, 3) for k, v in bound_ratio.items()})
print("same with mean delta (control):  ", {k: round(v, 3) for k, v in wrong_ratio.items()})

# %% [markdown]
# ### Checking the claims
#
# The thresholds come from the reproduction brief and the issue and were fixed before the runs. Each claim
# has a control (see the method): `gromov-bound` (a theorem) the mean four-point gap in place of δ;
# `synth-vs-gromov`, `karate-mean-vs-gromov` and `karate-delta-drop` the random change of the metric of
# DeltaZero's size; `synth-vs-nj` and `karate-linf-vs-nj` the raw Gromov tree against neighbour joining. The
# karate claims are flagged post hoc because the karate club was used to look at settings before the runs.

# %%
beats_gromov = np.mean([r["dz"]["linf"] <= r["gromov"]["linf"] for r in synth])
beats_nj = np.mean([r["dz"]["linf"] <= r["nj"]["linf"] for r in synth])
rand_beats_gromov = np.mean([r["rand"]["linf"] <= r["gromov"]["linf"] for r in synth])  # controls
gromov_beats_nj = np.mean([r["gromov"]["linf"] <= r["nj"]["linf"] for r in synth])
RANDOM = "a random change of the metric as large as DeltaZero's (same Frobenius norm), projected like it"
NO_DESCENT = "Gromov tree of the raw metric (DeltaZero's pipeline without the descent on δ)"
KARATE = ("β = 20 was fixed after looking at three alternative settings (lr 0.05, β = 5, λ = 0.1) on the "
          "karate club itself, before the recorded runs")
SEEDS = tolerance(abs=0.2, why=f"a fraction of {P.n_seeds} seeds, each comparing the end point of "
                               f"{P.epochs} Adam epochs with a baseline: a seed within training noise may flip")
FITTED = tolerance(rel=0.05, why=f"end point of {P.epochs} Adam epochs (with metric projections): it moves with "
                                 "float rounding across machines")
claims.check("gromov-bound", kind="theorem", statement="Gromov tree on the raw metric: max over data sets and "
             "roots of ℓ∞ error / (2 δ ⌈log2 n⌉)", paper="worst-case bound 2δ⌈log2 n⌉ (Gromov)",
             criterion=at_most(1.0), measured=float(max(bound_ratio.values())),
             control=float(max(wrong_ratio.values())),
             control_label="the same bound with a wrong δ: the mean four-point gap instead of the maximum")
claims.check("synth-vs-gromov", statement=f"Noisy trees (n={P.n_tree}): fraction of {P.n_seeds} seeds where "
             "DeltaZero's ℓ∞ distortion (mean over roots) <= Gromov tree on raw D",
             paper="DeltaZero achieves lower ℓ∞ distortion than the baselines", criterion=at_least(1.0, partial=0.6),
             measured=float(beats_gromov), control=float(rand_beats_gromov), control_label=RANDOM, tol=SEEDS)
claims.check("synth-vs-nj", statement=f"Noisy trees (n={P.n_tree}): fraction of {P.n_seeds} seeds where "
             "DeltaZero's ℓ∞ distortion <= neighbour joining",
             paper="DeltaZero achieves lower ℓ∞ distortion than the baselines", criterion=at_least(1.0, partial=0.6),
             measured=float(beats_nj), control=float(gromov_beats_nj), control_label=NO_DESCENT, tol=SEEDS)
claims.check("karate-mean-vs-gromov", statement="Karate club: DeltaZero mean |D − D_T| / Gromov-on-raw-D mean "
             "|D − D_T| (same roots)", paper="lower distortion than Gromov's tree", criterion=at_most(0.95),
             measured=float(kc["dz"]["l1"] / kc["gromov"]["l1"]),
             control=float(kc["rand"]["l1"] / kc["gromov"]["l1"]), control_label=RANDOM, tol=FITTED, post_hoc=KARATE)
claims.check("karate-linf-vs-nj", statement="Karate club, seed 0: DeltaZero ℓ∞ distortion / neighbour joining ℓ∞",
             paper="state-of-the-art ℓ∞ distortion (beats NJ)", criterion=at_most(1.0),
             measured=float(kc["dz"]["linf"] / kc["nj"]["linf"]),
             control=float(kc["gromov"]["linf"] / kc["nj"]["linf"]), control_label=NO_DESCENT, tol=FITTED,
             post_hoc=KARATE)
claims.check("karate-delta-drop", statement="Karate club: δ after / δ before DeltaZero",
             paper="gradient descent on the smooth δ drives the metric towards a tree metric",
             criterion=at_most(0.5), measured=float(kc["delta1"] / kc["delta0"]),
             control=float(kc["delta_rand"] / kc["delta0"]), control_label=RANDOM, tol=FITTED, post_hoc=KARATE)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Mostly reproduced at this scale, against controls that fail.** Five of the six counted claims hold at ci
# scale and one is partial; every control fails its criterion. The three karate claims are flagged post hoc
# (the karate club was used to look at settings before the runs), and the karate ℓ∞ win over neighbour
# joining holds at seed 0 only (below).
#
# On five noisy random trees, DeltaZero's Gromov tree has a lower ℓ∞ distortion than the Gromov tree of the
# raw metric on every seed, by a wide margin: about 0.64–0.77 against 1.27–2.07 at ci scale. A random change
# of the metric as large as DeltaZero's (the control) never does (0 of 5 seeds), so the gain comes from
# *where* DeltaZero moves the metric, not from moving it. DeltaZero beats our neighbour joining on 4 of 5
# seeds; on the fifth the two are tied to two decimals (0.650 against 0.648), so that claim is recorded as
# partial. Without the descent, the raw Gromov tree beats NJ on no seed. On the karate club, the mean error
# falls to about 0.57 of the raw Gromov tree's (the random change of the same size raises it to 1.8 times),
# and the exact δ of the metric drops from 1 to about 0.05 (the random change leaves it at 0.99). Gromov's
# bound $2\delta\lceil\log_2 n\rceil$ holds with plenty of room (at most 0.4 of the bound); with the mean
# four-point gap in place of δ (the wrong-δ control) it breaks on every data set (1.4 to 2.3 times the
# "bound"), so the check does test δ's role in the bound.
#
# **The karate ℓ∞ win over neighbour joining is fragile.** At seed 0 (this page) DeltaZero's ℓ∞ error is
# 1.39 hops against NJ's 1.49 (ratio 0.93), and the raw Gromov tree (the control, ratio 1.75) is far worse.
# But the fit and its roots depend on the seed: in a separate run at ci scale with seeds 1 to 4 (not
# recorded as claims, and no seed chosen from it) the ratio was 1.17, 1.17, 1.14 and 1.09, so
# `karate-linf-vs-nj` holds at seed 0 only, and it is **not reproduced** at full scale either (1.05, below).
# We keep the seed-0 result as recorded and read it as "DeltaZero and NJ are close on the karate club".
#
# **What the numbers also show.** DeltaZero targets the ℓ∞ error, the criterion the paper reports.
# On the *mean* absolute error, neighbour joining is better on every data set we ran (for example 0.40
# against 0.42 on the karate club and 0.09 against 0.22 on one noisy tree). The Gromov tree of a
# near-tree metric is rooted and tends to make uniform, moderate errors, whereas NJ makes many small
# errors and a few large ones. On Florentine families, DeltaZero wins clearly in ℓ∞ (1.45 against
# 2.29 for NJ) but barely improves the mean error of the Gromov tree.
#
# **At full scale** (`make run PAPER=deltazero-tree-metrics SCALE=full`, seed 0, about 3 minutes, controls
# included) the picture is the same except for one claim: on the karate club DeltaZero's ℓ∞ error is then
# 1.05 times neighbour joining's, so `karate-linf-vs-nj` is **not reproduced** at full scale (it is at ci
# scale, 0.93; the raw Gromov tree, its control, is at 1.41), and `synth-vs-nj` stays partial (0.8). Every
# control still fails: the random change of DeltaZero's size raises the karate mean error to 2.07 times the
# raw Gromov tree's and leaves δ at 0.94 of its value, and the wrong-δ bound breaks (2.1). The gain over
# neighbour joining is therefore fragile at our sizes; the gain over the raw Gromov tree and the drop in δ
# (to 0.08 of its value on the karate club at full scale) hold at both scales.
#
# **What the miniature cannot show.**
#
# - The paper's data sets (C. elegans, CS PhD, cora, airport, wiki), and its other baselines (TreeRep,
#   HCC, layering trees). Our "state of the art" is only relative to NJ and Gromov's tree.
# - The paper's own table values, which we did not retrieve, so we cannot compare numbers.
# - The effect of β, λ, the batch size and early stopping. We used one fixed setting: lr and λ from
#   the official configuration and β = 20 chosen by us. Before the runs we looked at three alternatives
#   (lr 0.05, β = 5, λ = 0.1) on the karate club. All of them lowered δ, and all but β = 5 beat the raw
#   Gromov tree. Because the karate club served for this look, its three claims are flagged post hoc.
# - The statistical guarantee for the batched estimator (Theorem 3.3). We only use the estimator.
#
# **What was hard.** The exact δ costs $O(n^4)$: vectorised over all quadruples it takes about 0.06 s
# at $n=34$, but it is impractical beyond a few hundred points, which is why the paper trains on sub-batches.
# The training loop itself is dominated by the backward pass through the $b^4$ soft-max tensors.
