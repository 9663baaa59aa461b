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
# *The paper lowers a smooth surrogate of Gromov's δ-hyperbolicity by gradient descent, to move a metric to a
# nearby, almost tree-like one, and reports that the Gromov tree of the result fits the original distances better
# than the classic baselines; at our sizes that advantage is not shown.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
import torch
from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, tolerance
from repro.papers import deltazero_tree_metrics as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    "ci": dict(n_tree=20, noise=0.3, n_seeds=5, n_roots=5, epochs=100, batch_size=10, n_batches=32,
               graphs=["karate"], bound_graphs=["florentine", "karate", "geometric"], record_every=20,
               official=["grid"], big_n_repeats=1),
    "full": dict(n_tree=30, noise=0.3, n_seeds=5, n_roots=10, epochs=300, batch_size=12, n_batches=32,
                 graphs=["florentine", "davis", "karate", "geometric"],
                 bound_graphs=["florentine", "davis", "karate", "geometric", "lesmis"],
                 official=["grid", "bench", "loop"], big_n_repeats=None, record_every=10),
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
# The paper's headline guarantee is **not tested here**. Its optimisation problem comes with a worst-case
# bound that it shows is better than the classical one (its Theorem 3.1, built on a Gromov tree). We did not
# retrieve that theorem's statement. The only bound this page shows (as an illustration) is Gromov's classical
# $2\delta\lceil\log_2 n\rceil$ for the tree of the raw metric.
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
# weight δ. After epochs 10, 20, … and after the last one, negative weights are clipped and $W$ is projected
# onto a metric by shortest paths (Floyd–Warshall). The final projected metric $\hat D$ goes through Gromov's
# tree construction, and we measure the tree's distortion **against the original $D$**. The official loop
# differs in its schedule, its stopping rule and the matrix it hands to the tree (see "Against the official
# code", which also runs it).
#
# **Gromov tree** (`K.gromov_tree`). From root $r$: take the Gromov products $G_{ij}=(i|j)_r$, replace them by
# their max–min closure $G'$ (the bottleneck of a maximum spanning tree), and set
# $D_T=d_{ir}+d_{jr}-2G'_{ij}$. **Neighbour joining** (`K.neighbor_joining`, our implementation) is the
# second baseline.
#
# **Comparators.** Each counted test measures, under the same measurement and criterion:
# (i) the *ablation*, DeltaZero without its smooth surrogate: the same loop, subsets, Adam steps, penalty and
# projections on the hard batched δ (max over subsets and quadruples, min inside, `K.hard_delta_batched`). Its
# subgradient moves only the six distances of the worst quadruple at each step, where the log-sum-exp spreads
# the step over every quadruple near the maximum. (ii) The *naive baselines*, which use none of the paper's
# ideas: the Gromov tree of the raw metric from the same roots (DeltaZero without any descent), the raw Gromov
# tree from the best of all $n$ roots (the choice a skeptic makes first), and neighbour joining. For the two ℓ∞
# tests against neighbour joining, also the raw Gromov tree plus one constant $c$ added to every off-diagonal
# distance (`K.linf_offset_tree`), from the same roots and from the best root. A Gromov tree never overestimates
# $D$, so its residuals $D-D_T$ lie in $[0,e]$; $c=(\max+\min)/2$ of the residuals halves the range of the
# error, and the result is still a tree metric (a pendant edge $c/2$ on each point). Gromov's
# bound, a classical theorem, is shown as an illustration, beside a deliberately wrong δ (the *mean*
# four-point gap over quadruples, `K.four_point_delta_mean`) with which it breaks.

# %% [markdown]
# ## The experiment
#
# - **Noisy synthetic trees:** random labelled trees on `n_tree` nodes (ci 20, full 30) with edge
#   weights U(0.5, 1.5). Each distance is multiplied by $1+0.3\,U(-1,1)$ and the result projected back onto a
#   metric, which gives $\delta>0$. We use 5 seeds.
# - **Graphs from networkx:** Florentine families (15 nodes), karate club (34), Davis southern women
#   (32, full scale), a random geometric graph (20 nodes, radius 0.35, largest component), and
#   Les Misérables (77, full scale, bound check only). Distances are unweighted shortest paths. At ci scale
#   DeltaZero runs on the karate club only; Florentine families and the geometric graph enter the Gromov-bound
#   illustration at both scales, and are fitted by DeltaZero at full scale.
# - **Methods:** DeltaZero followed by the Gromov tree, the Gromov tree on the raw metric, and neighbour
#   joining. The Gromov-tree distortions are averaged over `n_roots` roots (ci 5, full 10), the same
#   roots for both.
# - **Settings:** lr 0.1 and λ = 0.01 from the official grid-search configuration, β = 20, batch size 10
#   (full 12), 32 batches, 100 epochs (full 300). They were fixed after a look at three alternatives on the
#   karate club (see "What the miniature cannot show"), before the recorded runs; so the karate tests are
#   flagged post hoc. The ablation runs at the same step size, lr 0.1, which was chosen for the smooth method.
#
# **Deviations from the paper**
#
# - Small networkx graphs and synthetic trees instead of the paper's data sets (C. elegans, CS PhD,
#   cora, airport, wiki).
# - **Batch configuration.** Each epoch draws 32 subsets of 10 points (full 12) and takes one soft-max
#   over them. The official grid's "32 × 1000" means subsets of 32 points, drawn in ⌈1000/32⌉ = 32 rounds of 32.
#   Each round is its own soft-max, and each adds its own δ term to the gradient. That is 1024 subsets of 32 points per
#   epoch, about 3000 times our per-epoch work on the karate club.
# - **Training loop.** 100 epochs (full 300), no early stopping, projections after epochs 10, 20, … and the
#   last, float64, and the last projected metric goes into the tree. The official loop runs up to 1000
#   epochs with early stopping (patience 50) and projects after epochs 0, 10, 20, … (counted from 0). It works
#   in float32 and builds the tree from the lowest-loss weights, which need not be a metric.
# - **Temperature.** β = 20 is our choice. The official configuration files give other values: β = 1 in
#   `expes/configs/grid_search.yaml` (with lr 0.1, λ = 0.01, 1000 epochs, 32 × 1000), and β = 10 in the run that
#   `expes/launch_files/benchmark.sh` evaluates on C. elegans (λ = 0.1, 32 × 100). The README example
#   uses β = 0.01, and the Figure 1 notebook β = 2000. "Against the official code" runs the first two.
# - Baselines: only neighbour joining and Gromov's tree. TreeRep, HCC and layering trees are left out.
# - The loss uses $\tfrac12\hat\delta^2$, our reading of the official gradient scaling. The paper's
#   loss may be written differently.
# - The ablation (descent on the hard δ) and the best-root Gromov tree are ours, not the paper's. The
#   earlier control, a random change of the metric as large as DeltaZero's, was dropped (issue 32): it cannot
#   lower δ and fails by construction.
# - DeltaZero is fitted on Florentine families at full scale only (issue 32, to fit the ci budget with the
#   ablation); at ci the graph enters only the Gromov-bound illustration, and no counted test.

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


def evaluate(D: np.ndarray, M: np.ndarray, roots: np.ndarray, offset: bool = False, trees: dict | None = None) -> dict:
    """Gromov trees of metric M from each root, distortion against D, averaged over roots; with offset=True each
    tree first gets the ℓ∞-optimal constant shift towards D (`K.linf_offset_tree`). `trees` may hold them already."""
    Ts = [trees[int(r)] if trees is not None else K.gromov_tree(M, int(r)) for r in roots]
    ds = [K.distortion(D, K.linf_offset_tree(D, T) if offset else T) for T in Ts]
    return {k: float(np.mean([d[k] for d in ds])) for k in ("linf", "l1")}


def best_root_tree(D: np.ndarray, trees: dict, offset: bool = False) -> dict:
    """Naive baseline: the Gromov tree of the raw metric from the root (of all n) with the smallest ℓ∞ error
    (with offset=True, after the ℓ∞-optimal constant shift of each tree). `trees`: root -> raw Gromov tree."""
    ds = [K.distortion(D, K.linf_offset_tree(D, T) if offset else T) for T in trees.values()]
    return min(ds, key=lambda d: d["linf"])


def compare(D: np.ndarray, fit_seed: int) -> dict:
    roots = np.random.default_rng(fit_seed).choice(len(D), size=min(P.n_roots, len(D)), replace=False)
    h = K.deltazero_fit(D, seed=fit_seed, record_every=P.record_every, **FIT)
    # ablation: the same loop, subsets and steps on the hard batched delta (no log-sum-exp smoothing)
    h_hard = K.deltazero_fit(D, seed=fit_seed, smooth=False, record_every=P.epochs, **FIT)  # δ at the end only
    raw = {q: K.gromov_tree(D, q) for q in range(len(D))}  # raw Gromov trees from every root, built once
    dz_trees = {int(r): K.gromov_tree(h["D_opt"], int(r)) for r in roots}
    return dict(D=D, n=len(D), delta0=h["delta"][0], delta1=h["delta"][-1], hist=h, roots=roots,
                gromov=evaluate(D, D, roots, trees=raw), nj=K.distortion(D, K.neighbor_joining(D)),
                best=best_root_tree(D, raw), gromov_off=evaluate(D, D, roots, offset=True, trees=raw),
                best_off=best_root_tree(D, raw, offset=True), dz=evaluate(D, h["D_opt"], roots, trees=dz_trees),
                hard=evaluate(D, h_hard["D_opt"], roots), dz_off=evaluate(D, h["D_opt"], roots, True, dz_trees),
                delta_hard=h_hard["delta"][-1], curve=[evaluate(D, M, roots) for M in h["metric"]])


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
# The exact four-point δ of the projected metric, recorded every 20 epochs at ci (10 at full scale), for the karate club and the
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
# ℓ∞ distortion against the original distances: DeltaZero, its ablation (the same descent on the hard δ,
# without the log-sum-exp smoothing), and the naive baselines: the Gromov tree of the raw metric (same roots),
# the raw Gromov tree from its best root among all $n$, and neighbour joining.

# %%
rows = {f"tree s{i}": r for i, r in enumerate(synth)} | graphs
names = list(rows)
x = np.arange(len(names))
fig, ax = plt.subplots(figsize=(8.0, 3.4))
for k, (key, lab) in enumerate([("gromov", "Gromov tree (raw D)"), ("best", "Gromov tree (raw D), best root"),
                                ("nj", "neighbour joining"), ("hard", "DeltaZero on the hard δ (ablation)"),
                                ("dz", "DeltaZero")]):
    ax.bar(x + 0.16 * (k - 2), [rows[n][key]["linf"] for n in names], 0.16, label=lab)
ax.set_xticks(x, names, rotation=30)
ax.set_ylabel("ℓ∞ distortion (distance units)")
ax.legend(ncol=2, fontsize=8)
plt.show()
COLS = ("gromov", "best", "nj", "hard", "dz", "gromov_off", "best_off", "dz_off")
print(f"{'data':>10} {'n':>3} {'δ':>6} {'δ DZ':>6} {'δ hard':>6} | ℓ∞: " + " ".join(f"{c:>6}" for c in COLS)
      + " | mean: " + " ".join(f"{c:>6}" for c in COLS))
for n in names:
    r = rows[n]
    print(f"{n:>10} {r['n']:>3} {r['delta0']:>6.3f} {r['delta1']:>6.3f} {r['delta_hard']:>6.3f} | "
          + " ".join(f"{r[c]['linf']:>6.3f}" for c in COLS) + " |       "
          + " ".join(f"{r[c]['l1']:>6.3f}" for c in COLS))
print("gromov: raw Gromov tree, mean over the same roots; best: raw Gromov tree from its best root; nj: neighbour "
      "joining; hard: DeltaZero on the hard δ (ablation); dz: DeltaZero; *_off: the same tree plus the ℓ∞-optimal "
      "constant offset")

# %% [markdown]
# ### Gromov's worst-case bound on the raw metrics (an illustration)
#
# Gromov's classical result, not the paper's: on every data set and from every root, the Gromov tree's ℓ∞
# error stays below $2\delta\lceil\log_2 n\rceil$. It is recorded as an illustration and never counted: a
# classical theorem holds whatever the paper does. Beside it, the same ratio with a wrong δ (the mean
# four-point gap over quadruples instead of the maximum) shows that δ's role in the bound is not vacuous.

# %%
bound_ratio, wrong_ratio = {}, {}  # wrong input: the same ratio with delta replaced by its mean over quadruples
metrics = {g: load_graph(g) for g in P.bound_graphs} | {f"tree s{i}": r["D"] for i, r in enumerate(synth)}
for name, D in metrics.items():
    worst = max(K.distortion(D, K.gromov_tree(D, q))["linf"] for q in range(len(D)))
    bound_ratio[name] = worst / K.gromov_bound(K.four_point_delta(D), len(D))
    wrong_ratio[name] = worst / K.gromov_bound(K.four_point_delta_mean(D), len(D))
print("l_inf error / bound:             ", {k: round(v, 3) for k, v in bound_ratio.items()})
print("same with mean delta (wrong δ):  ", {k: round(v, 3) for k, v in wrong_ratio.items()})

# %% [markdown]
# ### Checking the claims
#
# The thresholds come from the reproduction brief and the issue and were fixed before the first run; they are
# unchanged. Each test now records, under its own measurement and criterion, the **ablation** (DeltaZero
# without its smooth surrogate: the same loop, subsets, Adam steps, penalty and projections on the hard batched
# δ, whose subgradient moves the six distances of one quadruple per step) and the **naive baselines** (the
# raw Gromov tree from the same roots, the raw Gromov tree from its best root among all $n$, neighbour
# joining), wherever the measurement is not the baseline itself. After the independent review, the two ℓ∞ tests
# against neighbour joining also carry the raw Gromov tree plus the ℓ∞-optimal constant offset (same roots, and
# best root) as naive baselines; `synth-vs-nj` stays pre-registered, since its method, setting and criterion are
# unchanged and a test that gains comparators keeps its registration (added comparators can only take a pass
# away). `synth-vs-gromov` stays pre-registered too; the karate tests were already post hoc (the karate club
# was used to look at settings before the first run). Gromov's bound and the drop of δ are illustrations.

# %%
def frac(xs: list, ys: list) -> float:
    """Share of the noisy trees on which the ℓ∞ distortion of xs is at most that of ys."""
    return float(np.mean([x["linf"] <= y["linf"] for x, y in zip(xs, ys)]))


S = {k: [r[k] for r in synth] for k in ("dz", "hard", "gromov", "best", "nj", "gromov_off", "best_off", "dz_off")}
NO_SMOOTH = "the log-sum-exp smoothing of δ (the descent runs on the hard batched δ)"
HARD = "DeltaZero on the hard δ (ablation)"
GROMOV = "Gromov tree of the raw metric, same roots"
BEST = "Gromov tree of the raw metric from its best root (of all n)"
GROMOV_OFF = "Gromov tree of the raw metric + ℓ∞-optimal constant offset, same roots"
BEST_OFF = "Gromov tree of the raw metric + ℓ∞-optimal constant offset, best root (of all n)"
OFFSET = ("naive baselines added after the independent review: the raw Gromov tree plus the ℓ∞-optimal constant "
          "offset, from the same roots and from the best root (method, setting and criterion unchanged)")
NJ = "neighbour joining"
KARATE = ("β = 20 was fixed after looking at three alternative settings (lr 0.05, β = 5, λ = 0.1) on the "
          "karate club itself, before the first recorded runs; comparators added for issue 32 (criterion unchanged)")
SEEDS = tolerance(abs=0.2, why=f"a fraction of {P.n_seeds} seeds, each comparing the end point of "
                               f"{P.epochs} Adam epochs with a baseline: a seed within training noise may flip")
FITTED = tolerance(rel=0.05, why=f"end point of {P.epochs} Adam epochs (with metric projections): it moves with "
                                 "float rounding across machines")
CRIT = {"synth-vs-gromov": at_least(1.0, partial=0.6), "synth-vs-nj": at_least(1.0, partial=0.6),
        "karate-mean-vs-gromov": at_most(0.95), "karate-linf-vs-nj": at_most(1.0), "karate-delta-drop": at_most(0.5)}
SOTA = ("abstract: DeltaZero 'consistently achieves state-of-the-art distortion' (ℓ∞) on synthetic and real data "
        "against NJ, TreeRep, HCC, layering and Gromov trees; the table values were not retrieved")
V = {"synth-vs-gromov": {"dz": frac(S["dz"], S["gromov"]), "hard": frac(S["hard"], S["gromov"]),
                         "nj": frac(S["nj"], S["gromov"])},
     "synth-vs-nj": {"dz": frac(S["dz"], S["nj"]), "hard": frac(S["hard"], S["nj"]),
                     "gromov": frac(S["gromov"], S["nj"]), "best": frac(S["best"], S["nj"]),
                     "gromov_off": frac(S["gromov_off"], S["nj"]), "best_off": frac(S["best_off"], S["nj"]),
                     "dz_off": frac(S["dz_off"], S["nj"])},
     "karate-mean-vs-gromov": {k: float(kc[k]["l1"] / kc["gromov"]["l1"]) for k in ("dz", "hard", "best", "nj")},
     "karate-linf-vs-nj": {k: float(kc[k]["linf"] / kc["nj"]["linf"])
                           for k in ("dz", "hard", "gromov", "best", "gromov_off", "best_off", "dz_off")},
     "karate-delta-drop": {"dz": float(kc["delta1"] / kc["delta0"]), "hard": float(kc["delta_hard"] / kc["delta0"])}}

claims.headline("closer-to-tree", "A smooth surrogate of Gromov's δ makes δ differentiable, so that gradient "
                "descent moves an arbitrary metric towards a tree metric whose Gromov tree fits the data better",
                tests=["synth-vs-gromov", "karate-mean-vs-gromov"])
claims.headline("better-guarantee", "The optimisation problem comes with a better worst-case guarantee than "
                "existing bounds, and the batched estimator is statistically justified",
                untestable="the paper's theorems (its 3.1 and 3.3) were not retrieved, so there is no statement to "
                           "refute by an independent computation; Gromov's classical bound, on which they build, is "
                           "shown as an illustration")
claims.headline("sota-distortion", "DeltaZero achieves state-of-the-art ℓ∞ distortion on synthetic and real data",
                tests=["synth-vs-nj", "karate-linf-vs-nj"])

claims.test("synth-vs-gromov", statement=f"Noisy trees (n={P.n_tree}): fraction of {P.n_seeds} seeds where "
            "DeltaZero's ℓ∞ distortion (mean over roots) <= Gromov tree on raw D",
            paper=SOTA, criterion=CRIT["synth-vs-gromov"], measured=V["synth-vs-gromov"]["dz"], tol=SEEDS,
            ablation=Comparator(HARD, V["synth-vs-gromov"]["hard"], ingredient=NO_SMOOTH),
            baselines=[Comparator(NJ, V["synth-vs-gromov"]["nj"])])
claims.test("synth-vs-nj", statement=f"Noisy trees (n={P.n_tree}): fraction of {P.n_seeds} seeds where "
            "DeltaZero's ℓ∞ distortion <= neighbour joining",
            paper=SOTA, criterion=CRIT["synth-vs-nj"], measured=V["synth-vs-nj"]["dz"], tol=SEEDS,
            ablation=Comparator(HARD, V["synth-vs-nj"]["hard"], ingredient=NO_SMOOTH),
            baselines=[Comparator(GROMOV, V["synth-vs-nj"]["gromov"]), Comparator(BEST, V["synth-vs-nj"]["best"]),
                       Comparator(GROMOV_OFF, V["synth-vs-nj"]["gromov_off"]),
                       Comparator(BEST_OFF, V["synth-vs-nj"]["best_off"])])
claims.test("karate-mean-vs-gromov", statement="Karate club: mean |D − D_T| / Gromov-on-raw-D mean |D − D_T| "
            "(same roots)",
            paper="lower distortion than Gromov's tree (the official benchmark reports the mean ℓ1 beside ℓ∞; "
                  "no karate-club value)", criterion=CRIT["karate-mean-vs-gromov"],
            measured=V["karate-mean-vs-gromov"]["dz"], tol=FITTED, post_hoc=KARATE,
            ablation=Comparator(HARD, V["karate-mean-vs-gromov"]["hard"], ingredient=NO_SMOOTH),
            baselines=[Comparator(NJ, V["karate-mean-vs-gromov"]["nj"]),
                       Comparator(BEST, V["karate-mean-vs-gromov"]["best"])])
claims.test("karate-linf-vs-nj", statement="Karate club: ℓ∞ distortion / neighbour joining ℓ∞",
            paper="state-of-the-art ℓ∞ distortion, NJ among the baselines (no karate-club value)",
            criterion=CRIT["karate-linf-vs-nj"], measured=V["karate-linf-vs-nj"]["dz"], tol=FITTED,
            post_hoc=KARATE + "; " + OFFSET,
            ablation=Comparator(HARD, V["karate-linf-vs-nj"]["hard"], ingredient=NO_SMOOTH),
            baselines=[Comparator(GROMOV, V["karate-linf-vs-nj"]["gromov"]),
                       Comparator(BEST, V["karate-linf-vs-nj"]["best"]),
                       Comparator(GROMOV_OFF, V["karate-linf-vs-nj"]["gromov_off"]),
                       Comparator(BEST_OFF, V["karate-linf-vs-nj"]["best_off"])])
claims.illustrate("karate-delta-drop", statement="Karate club: δ after / δ before DeltaZero",
                  paper="gradient descent on the smooth δ drives the metric towards a tree metric (no value reported)",
                  criterion=CRIT["karate-delta-drop"], measured=V["karate-delta-drop"]["dz"], tol=FITTED,
                  why="δ is the objective the descent minimises, so its drop checks our optimiser rather than the "
                      "paper; any tree metric (neighbour joining's, say) has δ = 0 by definition")
claims.illustrate("gromov-bound", statement="Gromov tree on the raw metric: max over data sets and roots of ℓ∞ "
                  "error / (2 δ ⌈log2 n⌉)",
                  paper="Gromov's classical bound 2δ⌈log2 n⌉, on which the paper's Theorem 3.1 builds (the paper's "
                        "own, better worst-case guarantee is not tested)",
                  criterion=at_most(1.0), measured=float(max(bound_ratio.values())),
                  tol=tolerance(rel=1e-6, abs=1e-12, why="exact δ and Gromov trees of fixed metrics"),
                  why="a classical theorem (Gromov 1987) evaluated on our data: it holds whatever the paper does")

for t, vals in V.items():
    for k, x in vals.items():
        glue(f"{t}_{k}", x, display=False)
glue("bound_max", float(max(bound_ratio.values())), display=False)
glue("wrong_min", float(min(wrong_ratio.values())), display=False)
glue("wrong_max", float(max(wrong_ratio.values())), display=False)
glue("kc_delta0", float(kc["delta0"]), display=False)
glue("kc_delta1", float(kc["delta1"]), display=False)
glue("kc_delta_hard", float(kc["delta_hard"]), display=False)
for k in ("dz", "hard", "gromov", "best", "nj", "gromov_off", "best_off", "dz_off"):
    glue(f"kc_linf_{k}", float(kc[k]["linf"]), display=False)
    glue(f"kc_l1_{k}", float(kc[k]["l1"]), display=False)
    glue(f"synth_linf_{k}_min", float(min(d["linf"] for d in S[k])), display=False)
    glue(f"synth_linf_{k}_max", float(max(d["linf"] for d in S[k])), display=False)
glue("synth_delta_dz_max", float(max(r["delta1"] for r in synth)), display=False)
glue("synth_delta_hard_min", float(min(r["delta_hard"] for r in synth)), display=False)
glue("synth_delta0_min", float(min(r["delta0"] for r in synth)), display=False)
glue("n_trees", int(P.n_seeds), display=False)
glue("fit_lr", float(FIT["lr"]), display=False)
REVIEW_LR = 0.03  # the hard-δ step the independent reviewer tried (their runs, not this page's)
glue("review_lr", REVIEW_LR, display=False)
glue("n_nj_better_mean", int(sum(r["nj"]["l1"] < r["dz"]["l1"] for r in synth)), display=False)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Against the official code
#
# We read the official repository ([pierrehouedry/DifferentiableHyperbolicity](https://github.com/pierrehouedry/DifferentiableHyperbolicity),
# commit `32f8399`) and ran its functions outside this project, on CPU, on small seeded inputs. The outputs are kept in
# `tests/papers/golden/deltazero-tree-metrics.json`, and the unit tests `test_golden_*` check that our kernels give
# the same numbers. No official code is copied here.
#
# **What agrees.**
#
# - *Exact four-point δ* (`compute_hyperbolicity`): 0.3935286 and 0.5138510 on two random metrics (7 and 12
#   points), and 1 on the karate club. Ours agree to 1e-12.
# - *Smooth δ* (`compute_delta_from_distances_batched`) on three 6-point metrics at β = 0.01, 1, 10 and 2000.
#   At β = 1 it gives 6.50602, 6.50616 and 6.49884; at β = 2000 it gives 0.38966, 0.36642 and 0.37394. Ours agree to 1e-12
#   (relative). Both soft-max over all $n^4$ index tuples, repeated points included.
# - *Batched estimator* on the karate club, on the subsets the official sampler drew: 1.226601 (8 subsets of 6 points,
#   β = 10) and 12.08201 (32 subsets of 10 points, β = 1). Ours agree to 1e-12 (relative). The draws themselves are not
#   matched. The official sampler calls `torch.randperm` on torch's global generator once per subset, while ours
#   takes an argsort of uniform numbers from a private generator. Matching them would mean changing our sampler,
#   and with it every result on this page. So the golden file stores the official subsets.
# - *Gromov's tree* (`gromov_tree`): the official code uses single linkage on $d_{\max}-$ Gromov products, ours a
#   max–min closure. They are identical to 1e-12 on a random metric and on the karate club from two roots, and
#   also on a non-metric matrix with negative entries, which is what the official loop can hand it.
# - *The training loop* (`train_distance_matrix`). With the official switches
#   (`K.deltazero_fit(..., project_from_zero=True, keep_best=True, dtype=torch.float32, n_repeats=K)`), our loop
#   follows it to 3e-6. We checked this on Florentine families (β = 1, 4 rounds, 25 epochs) and on a random 10-point metric (β = 10)
#   through early stopping. The official best epoch is 178 and the run stops at 228; ours are 179 and 229, because the official losses of
#   epochs 178–180 tie to 1e-7. When the point set has at most 32 points, every 32-point subset is the whole
#   set, and no draw matters.
#
# **Departures** (ours → official). The first six are switches of `K.deltazero_fit`:
#
# 1. *Temperature*: β = 20 → β = 1 in the grid configuration (lr 0.1, λ = 0.01, 1000 epochs, 32 × 1000), or
#    β = 10 in the C. elegans run that `benchmark.sh` evaluates (λ = 0.1, 32 × 100). The README uses 0.01 and Figure 1 uses 2000.
# 2. *Batch configuration*: 32 subsets of 10 points (full 12) in one soft-max → subsets of 32 points in
#    ⌈n_batches/32⌉ rounds of 32 (`n_repeats`). Each round is its own soft-max, and their δ-gradients add up. With 32 rounds,
#    the δ term weighs 32 times more against the λ penalty than with one.
# 3. *Projection schedule*: after epochs 10, 20, … and the last → after epochs 0, 10, 20, … counted from 0 (the
#    first step is projected, the last is not) (`project_from_zero`).
# 4. *Stopping*: a fixed 100 (full 300) epochs → up to 1000 epochs with early stopping (`keep_best`). The official loop
#    stops after 50 epochs without a new lowest loss. That loss is the smooth δ of its last round (not squared) plus
#    λ·mean (D − W)², taken before each step.
# 5. *What goes into the tree*: the last projected metric → the weights just after the step of the lowest-loss
#    epoch, not projected again. They need not be a metric, and can even hold negative weights (table below).
# 6. *Precision*: float64 → float32. Adam's first steps are of size lr even for near-zero gradients, so float32 and float64
#    runs drift apart (by up to 0.07 within two epochs on a 10-point example), with no systematic direction.
# 7. *Smaller details*: the official initial weights are the non-zero upper-triangle entries of D (the same thing when no
#    two points are at distance 0, as here). A subset larger than n is the whole set there; ours refuses it in
#    `smooth_delta_batched`, and `deltazero_fit` computes that case once.
# 8. *Evaluation*: the official benchmark averages its trees over 100 roots (the README example uses 20), ours over 5 (full 10). Both
#    report max |D − D_T| and the mean over pairs.
#
# ### The official choices, run
#
# The temperature, the batch configuration and the stopping rule could each decide a claim, so we rerun
# DeltaZero under the official choices, on the same data, seeds and roots as above.
#
# - At ci scale: the grid configuration (β = 1, λ = 0.01, 32 × 1000, official loop, float32).
# - At full scale, also: the benchmark run (β = 10, λ = 0.1, 32 × 100), and our β, λ and batches inside the
#   official loop, which separates the loop from the temperature.
#
# On the noisy trees (20 or 30 points) a 32-point subset is the whole set, so the official batch configuration
# runs exactly. On the karate club (34 points), 1024 subsets of 32 points per epoch are beyond a CPU page. There
# we keep our subset size, with one round at ci scale and the official number of rounds at full scale.
# These runs were added for issue 11, after the page's claims were fixed. They are reported in the table below
# and are not recorded as claims.

# %%
OFFICIAL_LOOP = dict(lr=0.1, epochs=1000, project_from_zero=True, keep_best=True, patience=50, dtype=torch.float32)
VARIANTS = {  # short name: (description, deltazero_fit settings)
    "grid": ("official grid_search.yaml: β 1, λ 0.01, 32 pts × 1000",
             dict(OFFICIAL_LOOP, beta=1.0, distance_reg=0.01, batch_size=32, n_batches=32, n_repeats=32)),
    "bench": ("official benchmark.sh run: β 10, λ 0.1, 32 pts × 100",
              dict(OFFICIAL_LOOP, beta=10.0, distance_reg=0.1, batch_size=32, n_batches=32, n_repeats=4)),
    "loop": ("our β 20, λ 0.01 and batches in the official loop",
             dict(OFFICIAL_LOOP, beta=20.0, distance_reg=0.01, batch_size=P.batch_size, n_batches=P.n_batches,
                  n_repeats=1)),
}


def run_variant(r: dict, key: str, fit_seed: int) -> dict:
    kw = dict(VARIANTS[key][1])
    if r["n"] > kw["batch_size"]:  # karate club: 32-point subsets of 34 points are beyond a CPU page
        kw.update(batch_size=P.batch_size, n_batches=P.n_batches, n_repeats=P.big_n_repeats or kw["n_repeats"])
    h = K.deltazero_fit(r["D"], seed=fit_seed, **kw)
    M = h["D_opt"]  # the best-loss weights: need not be a metric
    ds = [K.distortion(r["D"], K.gromov_tree(M, int(q), allow_nonmetric=True)) for q in r["roots"]]
    return dict(linf=float(np.mean([d["linf"] for d in ds])), l1=float(np.mean([d["l1"] for d in ds])),
                delta1=K.four_point_delta(M, allow_nonmetric=True), viol=K.triangle_violation(M),
                min_w=float(M[np.triu_indices(len(M), 1)].min()), best=h["best_epoch"], stop=h["stop_epoch"],
                batches=f"{kw['batch_size']}×{kw['n_batches']}×{kw['n_repeats']}")


official = {}
for key in progress(P.official, desc="official choices"):
    official[key] = {"synth": [run_variant(r, key, P.seed + s) for s, r in enumerate(synth)],
                     "karate": run_variant(kc, key, P.seed)}

# %% [markdown]
# The claims under each setting, with the claims' own criteria. "Ours" repeats the recorded claims above. The
# other columns are the same measurements after DeltaZero under the official choices.

# %%
def claim_values(dz_synth: list, dz_kc: dict) -> dict:
    return {"synth-vs-gromov": float(np.mean([d["linf"] <= r["gromov"]["linf"] for d, r in zip(dz_synth, synth)])),
            "synth-vs-nj": float(np.mean([d["linf"] <= r["nj"]["linf"] for d, r in zip(dz_synth, synth)])),
            "karate-mean-vs-gromov": dz_kc["l1"] / kc["gromov"]["l1"],
            "karate-linf-vs-nj": dz_kc["linf"] / kc["nj"]["linf"],
            "karate-delta-drop": dz_kc["delta1"] / kc["delta0"]}


settings = {"ours": claim_values([r["dz"] for r in synth], dict(kc["dz"], delta1=kc["delta1"]))}
settings |= {k: claim_values(v["synth"], v["karate"]) for k, v in official.items()}
for k, vals in settings.items():
    for cid, x in vals.items():
        glue(f"set_{k}_{cid}", float(x), display=False)
print(f"{'claim':<22} {'criterion':<21}" + "".join(f" | {k:<20}" for k in settings))
for cid in settings["ours"]:
    cells = [f"{v[cid]:.3f} {CRIT[cid](v[cid])}" for v in settings.values()]
    print(f"{cid:<22} {CRIT[cid].text:<21}" + "".join(f" | {c:<20}" for c in cells))
print("\nours: the recorded claims (β 20, λ 0.01, our batches and loop)")
for k in official:
    print(f"{k}: {VARIANTS[k][0]}")
print("\nper run (official choices; 'not metric by': largest triangle-inequality violation of the best-loss weights):")
print(f"{'setting':<10} {'data':<8} {'batches':<10} {'best':>5} {'stop':>5} {'δ after':>8} {'not metric by':>13} "
      f"{'min w':>7} {'ℓ∞':>6} {'mean':>6}")
for k, v in official.items():
    for name, d in [(f"tree s{i}", x) for i, x in enumerate(v["synth"])] + [("karate", v["karate"])]:
        print(f"{k:<10} {name:<8} {d['batches']:<10} {d['best']:>5} {d['stop']:>5} {d['delta1']:>8.3f} "
              f"{d['viol']:>13.3f} {d['min_w']:>7.3f} {d['linf']:>6.3f} {d['l1']:>6.3f}")

# %%
names = [f"tree s{i}" for i in range(len(synth))] + ["karate"]
base = synth + [kc]
bars = [("Gromov tree (raw D)", [r["gromov"]["linf"] for r in base]), ("neighbour joining", [r["nj"]["linf"] for r in base]),
        ("DeltaZero, ours", [r["dz"]["linf"] for r in base])]
bars += [(f"DeltaZero, {k}: {VARIANTS[k][0]}", [d["linf"] for d in v["synth"]] + [v["karate"]["linf"]])
         for k, v in official.items()]
x = np.arange(len(names))
wd = 0.8 / len(bars)
fig, ax = plt.subplots(figsize=(9.0, 3.6))
for i, (lab, vals) in enumerate(bars):
    ax.bar(x + wd * (i - (len(bars) - 1) / 2), vals, wd, label=lab)
ax.set_xticks(x, names)
ax.set_ylabel("ℓ∞ distortion, mean over roots (distance units)")
ax.set_title("DeltaZero under our settings and under the official ones")
ax.legend(fontsize=7, ncol=2)
plt.show()


# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# The page counts four tests, each beside DeltaZero's ablation (the same descent on the hard δ, without the
# log-sum-exp smoothing) and the naive baselines. Gromov's classical bound and the drop of δ, which the page
# used to count, are illustrations: the first is a theorem of 1987 that holds whatever DeltaZero does, the
# second is the objective the descent minimises.
#
# * *Better than the raw Gromov tree on noisy trees* ({repro-status}`synth-vs-gromov`, pre-registered).
#   DeltaZero's tree beats the Gromov tree of the raw metric on a share {glue:text}`synth-vs-gromov_dz:.1f` of
#   the {glue:text}`n_trees` noisy trees at this seed, but so does the ablation
#   ({glue:text}`synth-vs-gromov_hard:.1f`) and so does neighbour joining ({glue:text}`synth-vs-gromov_nj:.1f`).
#   Over the ci sweep the method and neighbour joining sit exactly at the threshold (every tree) at
#   {repro-seeds}`synth-vs-gromov:method:edge` and {repro-seeds}`synth-vs-gromov:baseline1:edge` seeds. A share
#   of 1 is at once the criterion and the largest possible value, so under the rule that a value within its
#   tolerance of the threshold is never a pass, this pre-registered criterion cannot pass at all; we leave it
#   unchanged. Either way, beating the raw Gromov tree is easy: neighbour joining does it on every tree, so
#   the test could not single out the smooth surrogate.
# * *Better than neighbour joining on noisy trees* ({repro-status}`synth-vs-nj`, pre-registered). The test
#   that can: DeltaZero is at or below NJ's ℓ∞ on a share {glue:text}`synth-vs-nj_dz:.1f` of the trees, while
#   the ablation ({glue:text}`synth-vs-nj_hard:.1f`), the raw Gromov tree ({glue:text}`synth-vs-nj_gromov:.1f`)
#   and even the raw Gromov tree from its best root ({glue:text}`synth-vs-nj_best:.1f`) never get there. On
#   these trees DeltaZero's ℓ∞ runs from {glue:text}`synth_linf_dz_min:.2f` to {glue:text}`synth_linf_dz_max:.2f`,
#   NJ's from {glue:text}`synth_linf_nj_min:.2f` to {glue:text}`synth_linf_nj_max:.2f`, the ablation's from
#   {glue:text}`synth_linf_hard_min:.2f` to {glue:text}`synth_linf_hard_max:.2f`. On the hard δ the exact δ of
#   the final metric stays at {glue:text}`synth_delta_hard_min:.2f` or more, where DeltaZero brings it to
#   {glue:text}`synth_delta_dz_max:.3f` or less. That ablation, however, runs at the smooth method's step size
#   (lr {glue:text}`fit_lr`), where the hard-δ descent is close to diverging: the independent reviewer reran it at lr {glue:text}`review_lr` with
#   the same 100 epochs (seeds 0-4, their measurement, not this page's) and found it ties or beats DeltaZero on
#   this test at 4 of the 5 seeds. So this page does not show that the smoothing is needed on the noisy trees.
#   A naive fix of the raw Gromov tree also closes the gap: adding the ℓ∞-optimal constant offset to the tree
#   from its best root puts it at or below NJ on a share {glue:text}`synth-vs-nj_best_off:.1f` of the trees
#   (from the same roots, {glue:text}`synth-vs-nj_gromov_off:.1f`). The criterion asks for all five trees, and a
#   share of 1 is within the tolerance of the threshold: over the ci sweep the method is at the edge at
#   {repro-seeds}`synth-vs-nj:method:edge` seeds, partial at {repro-seeds}`synth-vs-nj:method:partial` and
#   fails at {repro-seeds}`synth-vs-nj:method:fail`; the ablation fails at
#   {repro-seeds}`synth-vs-nj:ablation:fail`, the raw Gromov trees at {repro-seeds}`synth-vs-nj:baseline1:fail`
#   and {repro-seeds}`synth-vs-nj:baseline2:fail`, and the best-root tree plus offset is at the edge at
#   {repro-seeds}`synth-vs-nj:baseline4:edge` seeds, like DeltaZero at its best. A consistent win over NJ, or
#   over an offset Gromov tree, is not shown.
# * *Lower mean error than the raw Gromov tree on the karate club* ({repro-status}`karate-mean-vs-gromov`,
#   post hoc since the page first ran: the karate club was used to choose β). DeltaZero's mean error is
#   {glue:text}`karate-mean-vs-gromov_dz:.3f` of the raw Gromov tree's (ablation
#   {glue:text}`karate-mean-vs-gromov_hard:.3f`), but neighbour joining ({glue:text}`karate-mean-vs-gromov_nj:.3f`)
#   and the raw Gromov tree from its best root ({glue:text}`karate-mean-vs-gromov_best:.3f`) do as well or
#   better. The gain over the raw Gromov tree is real, but a skeptic gets it for free by choosing a root.
# * *Lower ℓ∞ than neighbour joining on the karate club* ({repro-status}`karate-linf-vs-nj`, post hoc). At this
#   seed the ratio is {glue:text}`karate-linf-vs-nj_dz:.3f` (ablation {glue:text}`karate-linf-vs-nj_hard:.3f`,
#   raw Gromov tree {glue:text}`karate-linf-vs-nj_gromov:.3f`, from its best root
#   {glue:text}`karate-linf-vs-nj_best:.3f`): among the plain trees only DeltaZero beats NJ. But the raw Gromov
#   tree plus the ℓ∞-optimal constant offset does as well without any descent:
#   {glue:text}`karate-linf-vs-nj_gromov_off:.3f` from the same roots and {glue:text}`karate-linf-vs-nj_best_off:.3f`
#   from its best root (passing at {repro-seeds}`karate-linf-vs-nj:baseline3:pass` and
#   {repro-seeds}`karate-linf-vs-nj:baseline4:pass` ci seeds). The fit and its roots move with the seed, and the
#   method passes at only {repro-seeds}`karate-linf-vs-nj:method:pass` ci seeds; seed 0 is one of the lucky draws.
#   Here the ablation fails at every ci seed ({repro-seeds}`karate-linf-vs-nj:ablation:fail`), and the reviewer
#   found it still fails at lr {glue:text}`review_lr`: on the karate club the hard-δ descent does not replace the smooth one.
#
# **Under the official temperature the distortion claims fall.** With the official grid file's settings
# ($\beta = 1$, $\lambda = 0.01$, 32-point subsets in 32 rounds, the official loop and float32; "Against the official code"),
# DeltaZero beats the raw Gromov tree on a share {glue:text}`set_grid_synth-vs-gromov:.1f` of the trees and NJ
# on {glue:text}`set_grid_synth-vs-nj:.1f`; on the karate club its mean error is
# {glue:text}`set_grid_karate-mean-vs-gromov:.2f` times the raw Gromov tree's and its ℓ∞
# {glue:text}`set_grid_karate-linf-vs-nj:.2f` times NJ's. At β = 1 the soft-max weighs all quadruples almost
# alike and the descent compresses the whole metric. Our β = 20 is our choice; the benchmark run of the
# official code used β = 10, which runs at full scale only (its numbers come from the full sweep, not this page's
# text).
#
# **What the numbers also show.** DeltaZero targets ℓ∞, the paper's criterion. On the mean absolute error NJ
# is better on {glue:text}`n_nj_better_mean` of the {glue:text}`n_trees` noisy trees, and on the karate club
# ({glue:text}`kc_l1_nj:.3f` against {glue:text}`kc_l1_dz:.3f` hops). Gromov's bound holds with room on every data
# set (at most {glue:text}`bound_max:.2f` of $2\delta\lceil\log_2 n\rceil$), and breaks with the mean
# four-point gap in place of δ ({glue:text}`wrong_min:.2f` to {glue:text}`wrong_max:.2f` times the "bound").
# On the karate club DeltaZero brings δ from {glue:text}`kc_delta0:.2f` to {glue:text}`kc_delta1:.3f`; the
# ablation only to {glue:text}`kc_delta_hard:.3f`.
#
# In short: at the smooth method's step size, descent on the hard δ fails `synth-vs-nj` and
# `karate-linf-vs-nj` at every ci seed and passes `karate-mean-vs-gromov` at
# {repro-seeds}`karate-mean-vs-gromov:ablation:pass`. On the noisy trees that rests on the step size (the
# reviewer's hard-δ run at lr {glue:text}`review_lr` ties or beats DeltaZero), so the finding that the smoothing is needed is
# limited to the karate club. At our sizes DeltaZero shows no advantage over a naive tree fit: neighbour
# joining or the best-root Gromov tree matches it on the mean error, and the Gromov tree plus one constant
# offset matches or beats it in ℓ∞ against neighbour joining.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page, its
# record and ci sweep. They re-ran DeltaZero with the page's data, roots, fit seeds and criteria on seeds 0-4,
# beside naive tree fits (constant offsets, UPGMA, NJ plus offset) and the hard-δ ablation at other step sizes.
# What they found that bears on the counted tests is now measured by this notebook (seed 0 below, over the ci
# sweep in the verdict); the rest is reported as theirs. An earlier review (of the page before comparators)
# found Gromov's bound counted and the karate δ drop weak; both are now illustrations.
#
# * **Neighbour joining** as a baseline of every test where it is not the reference: it beats the raw Gromov
#   tree on a share {glue:text}`synth-vs-gromov_nj:.1f` of the noisy trees and reaches
#   {glue:text}`karate-mean-vs-gromov_nj:.3f` of the raw Gromov tree's mean error on the karate club. This makes
#   `synth-vs-gromov` and `karate-mean-vs-gromov` not specific.
# * **The raw Gromov tree from its best root** (all $n$ roots tried, the one with the smallest ℓ∞ kept): ℓ∞
#   from {glue:text}`synth_linf_best_min:.2f` to {glue:text}`synth_linf_best_max:.2f` on the noisy trees, a share
#   {glue:text}`synth-vs-nj_best:.1f` of them at or below NJ; on the karate club {glue:text}`kc_linf_best:.2f`
#   hops (NJ {glue:text}`kc_linf_nj:.2f`, DeltaZero {glue:text}`kc_linf_dz:.2f`) and a mean error
#   {glue:text}`karate-mean-vs-gromov_best:.3f` of the same-roots raw tree's. Choosing the root is worth as much
#   as DeltaZero on the mean error; in ℓ∞ it needs the offset below.
# * **The raw Gromov tree plus one constant offset** (the reviewer's main finding; now a baseline of
#   `synth-vs-nj` and `karate-linf-vs-nj`). A Gromov tree only underestimates, so adding
#   $c=(\max+\min)/2$ of its residuals to every distance halves its ℓ∞ error and keeps a tree metric. From the
#   best root it is at or below NJ on a share {glue:text}`synth-vs-nj_best_off:.1f` of the noisy trees (ℓ∞
#   {glue:text}`synth_linf_best_off_min:.2f` to {glue:text}`synth_linf_best_off_max:.2f`, DeltaZero
#   {glue:text}`synth_linf_dz_min:.2f` to {glue:text}`synth_linf_dz_max:.2f`), and on the karate club it reaches
#   {glue:text}`kc_linf_best_off:.2f` hops, {glue:text}`karate-linf-vs-nj_best_off:.3f` of NJ's ℓ∞. From the
#   same roots as DeltaZero: a share {glue:text}`synth-vs-nj_gromov_off:.1f` of the trees and
#   {glue:text}`karate-linf-vs-nj_gromov_off:.3f` of NJ's ℓ∞ on the karate club. Both make `karate-linf-vs-nj`
#   not specific, and the best-root version ties DeltaZero's best on `synth-vs-nj`.
# * **DeltaZero plus the same offset**, for fairness: a share {glue:text}`synth-vs-nj_dz_off:.1f` of the trees
#   at or below NJ, and {glue:text}`karate-linf-vs-nj_dz_off:.3f` of NJ's ℓ∞ on the karate club. The descent
#   adds something beyond the offset on the noisy trees; on the karate club it does not beat the best-root
#   Gromov tree plus offset.
# * **DeltaZero without the smoothing** (the ablation, descent on the hard δ at the smooth method's lr {glue:text}`fit_lr`): ℓ∞
#   {glue:text}`synth_linf_hard_min:.2f` to {glue:text}`synth_linf_hard_max:.2f` on the noisy trees and
#   {glue:text}`kc_linf_hard:.2f` hops on the karate club. It still improves on the raw Gromov tree from the
#   same roots, so that comparison cannot isolate the smoothing either. The reviewer also ran it with its own
#   step size (their measurement, seeds 0-4, 100 epochs; not re-run here): at lr {glue:text}`review_lr` it ties or beats DeltaZero
#   on `synth-vs-nj` at 4 of the 5 seeds, while on the karate club it still fails `karate-linf-vs-nj`. The page's
#   ablation is therefore weak on the noisy trees, and "the smoothing is needed" holds here only for the karate
#   club. Re-tuning the ablation's step by a rule fixed in advance for both arms is left undone.
# * **Other fits the reviewer tried** (their numbers, not measured here): UPGMA, with or without the offset,
#   fails both ℓ∞ tests; a median offset on the raw Gromov tree passes `karate-mean-vs-gromov`, which neighbour
#   joining already makes not specific; neighbour joining plus the offset beats plain NJ in ℓ∞, so "at or
#   below NJ" is a low bar for an ℓ∞ criterion.
# * **A random change of the metric as large as DeltaZero's** (the page's earlier control) was dropped: it
#   cannot lower δ, so it failed by construction.
#
# Not tried: TreeRep, HCC and layering trees (the paper's other baselines), a tuned NJ variant (BioNJ), and
# a β chosen on data other than the karate club.
#
# ## What the miniature cannot show
#
# - The paper's data sets (C. elegans, CS PhD, cora, airport, wiki), and its other baselines (TreeRep,
#   HCC, layering trees). Our "state of the art" is only relative to NJ and Gromov's tree.
# - The paper's own table values, which we did not retrieve, so we cannot compare numbers.
# - A sweep over β, λ and the batch size. Our tests use one setting: lr and λ from the official grid file, and
#   β = 20 chosen by us. Before the first runs we looked at three alternatives on the karate club (lr 0.05,
#   β = 5, λ = 0.1); all lowered δ, and all but β = 5 beat the raw Gromov tree. Because the karate club served
#   for this look, its tests are post hoc. Besides our setting we ran the official grid configuration (ci and
#   full), the benchmark run and our β in the official loop (full).
# - The official batch configuration on the karate club (1024 subsets of 32 of its 34 points per epoch): there
#   the official-choice runs keep our subset size.
# - The paper's own worst-case bound (Theorem 3.1), its headline guarantee, and the statistical guarantee of
#   the batched estimator (Theorem 3.3): we did not retrieve their statements.
#
# **What was hard.** The exact δ costs $O(n^4)$: it is impractical beyond a few hundred points, which is why
# the paper trains on sub-batches. The training loop is dominated by the $b^4$ soft-max tensors of the
# subsets; the term is symmetric in two of its four indices, which halves that work.
