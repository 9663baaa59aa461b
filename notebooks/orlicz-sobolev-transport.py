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
# # Orlicz-Sobolev transport for unbalanced measures on a graph
#
# *On a graph with a root, a transport distance between measures of different total mass that carries an
# Orlicz (convex-function) geometry can be computed by a single one-dimensional root-finding problem; the paper
# reports it orders of magnitude faster than the Orlicz entropy partial transport problem it regularises, which
# needs a binary search over full optimal-transport solves. In our miniature that speed is shared by any tree
# method: Sobolev transport, without the Orlicz function, clears the same bar.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import time

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
import ot
from myst_nb import glue
from scipy.stats import spearmanr

from repro.claims import Claims, Comparator, at_least, at_most, between, greater_than, is_true, tolerance
from repro.papers import orlicz_sobolev_transport as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    "ci": dict(sizes=(25, 50, 100, 200), timing_pairs=5, n_agree=50, agree_pairs=20, n_triples=200, tree_n=60,
               eps_sizes=(100,), eps_pairs=2),
    "full": dict(sizes=(25, 50, 100, 200, 400, 800), timing_pairs=10, n_agree=100, agree_pairs=100,
                 n_triples=1000, tree_n=200, eps_sizes=(50, 100, 200), eps_pairs=3),
})
claims = Claims("orlicz-sobolev-transport",
                title="An Efficient Orlicz-Sobolev Approach for Transporting Unbalanced Measures on a Graph",
                authors="Tam Le, Truyen Nguyen, Hideitsu Hino, Kenji Fukumizu",
                paper_url="https://arxiv.org/abs/2502.00739", scale=scale, seed=seed)
PHIS = {"Phi0": K.PHI0, "Phi1": K.PHI1, "Phi2": K.PHI2}

# %% [markdown]
# ## The claim
#
# Optimal transport between measures of *unequal* total mass needs a rule for mass that is created or
# destroyed. Entropy partial transport (EPT) charges a weight $w_1(x)$ for every unit of $\mu$ left
# untransported at $x$, $w_2(y)$ for every unit of $\nu$ left at $y$, and $b\,(d_G(x,y)-\lambda)$ per unit
# moved. The paper puts an *Orlicz* geometry on top of this: instead of paying the cost linearly, one asks for
# the smallest scale $t$ at which the plan's average of $\Phi(\text{cost}/t)$ is at most one, for a convex
# "N-function" $\Phi$ such as $\Phi_1(t)=e^t-t-1$ or $\Phi_2(t)=e^{t^2}-1$ (the $L^p$ case is $\Phi=t^p$).
# That problem, Orlicz-EPT, is a two-level optimisation: a binary search over $t$, each step a full OT problem.
#
# The paper's contribution is Orlicz-Sobolev transport (OST): a regularised version, built from the *dual* of
# EPT and the graph's tree structure, which reduces to a **univariate** convex problem. The paper reports OST
# to be at least 250x (for $\Phi_0=t$), 13 800x ($\Phi_1$) and 11 200x ($\Phi_2$) faster than entropic
# Orlicz-EPT on graphs of $10^3$ nodes, and proves that OST is a divergence obeying the triangle inequality,
# with closed forms in special cases (linear $\Phi$ gives a tree-Wasserstein-like distance plus a mass term).
#
# ## The method, in our words
#
# **Tree structure.** Fix a root $z_0$. Shortest paths from $z_0$ (Dijkstra, networkx) form a tree. For an edge
# $e$ let $\gamma_e$ be the set of nodes whose root path crosses $e$, and $h_\mu(e)=\mu(\gamma_e)$ the mass
# "below" $e$. With the subtree indicator matrix $S$ (sparse, $S_{ue}=1$ iff $u\in\gamma_e$), $h_\mu=S^\top\mu$.
#
# **OST (the paper's Corollary 4.3).** With $\Delta_e = |h_\mu(e)-h_\nu(e)|$ and edge lengths $w_e$,
#
# $$\mathrm{OS}_{\Phi,\alpha}(\mu,\nu) = \Theta\,|\mu(G)-\nu(G)| + \inf_{k>0}\frac1k\Big[1+\sum_e w_e\,\Phi(k\,b\,\Delta_e)\Big],
# \qquad \Theta = w_1(z_0)+\tfrac{b\lambda}{2}-\alpha$$
#
# (with $w_2(z_0)$ in place of $w_1(z_0)$ when $\nu$ is heavier). The bracket is convex in $1/k$; setting its
# derivative to zero gives $\sum_e w_e[\,s_e\Phi'(s_e)-\Phi(s_e)\,]=1$ with $s_e = k b\Delta_e$, whose left side
# increases in $k$. We bracket the root by doubling $k$ and solve with Brent's method (`scipy.optimize.brentq`).
# For $\Phi_0(t)=t$ the infimum is the limit $b\sum_e w_e\Delta_e$ (Proposition 5.5).
#
# **Orlicz-EPT (the baseline, eq. 8).** Add a point $\hat s$ outside the graph. Put the other measure's mass on
# it, $\hat\mu = (\mu+\nu(G)\delta_{\hat s})/(\mu(G)+\nu(G))$ and likewise $\hat\nu$, and extend the cost:
# $\hat c = b\,d_G$ inside $G$, $w_1(x)+b\lambda$ from $x$ to $\hat s$, $w_2(y)+b\lambda$ from $\hat s$ to $y$,
# $b\lambda$ from $\hat s$ to itself (Proposition 3.1). Then
#
# $$\mathrm{OE}_\Phi(\mu,\nu) = (\mu(G)+\nu(G))\,\big(t^\star - b\lambda\big),\qquad
# t^\star = \min\Big\{t>0 : A(t)=\min_{\gamma\in\Pi(\hat\mu,\hat\nu)} \textstyle\sum \Phi(\hat c/t)\,\gamma \le 1\Big\}.$$
#
# $A$ is non-increasing (Proposition 3.3), $A(W_{\hat c}/\Phi^{-1}(1))\ge 1$ by Jensen and
# $A(L/\Phi^{-1}(1))\le1$ with $L$ the largest cost (Proposition 3.5), so we bisect this bracket to relative
# width $10^{-6}$, solving each $A(t)$ exactly with POT's network simplex (`ot.emd2`).
#
# **Counting work.** Both methods are charged in one unit: *array entries processed*, each entry that a pass of
# the method's numerical work reads or writes, counted once per pass, at the sizes actually run. OST's count is
# exact: the difference $\mu-\nu$ ($n$ entries), the sparse product $S^\top(\mu-\nu)$ (its nonzeros), the
# sparsity mask ($n$) and one pass over the active edges for every objective evaluation of the root finder.
# Orlicz-EPT's is a *lower bound*: for every OT problem it solved, the cost matrix $\Phi(\hat c/t)$ it formed
# ($(n+1)^2$ entries), the arcs POT's network simplex loads and scans once more to prove optimality (support of
# $\hat\mu$ times support of $\hat\nu$), and one pricing block of $\sqrt{\text{arcs}}$ arcs per pivot (POT's
# block-search rule scans at least one block per pivot; the tree updates are not counted). POT does not report
# its pivots, so we read them from the solver: it is deterministic and reports whether it reached optimality
# within a given iteration limit, and the pivot count is the smallest limit at which it does (found by search,
# outside the timed region). The ratio of the two counts is the speed claim we check; the wall-clock ratio is
# measured too and set beside it, but only as a volatile value. The count is meant to track the clock within a
# factor of 2 (`count-vs-wall`); it mostly does not for the exact solver and does not at all for the entropic
# one: it overstates the wall-clock speed-up (see the Verdict).
#
# *(An earlier version of this page counted Orlicz-EPT as OT solves $\times(n+1)^2$ and OST as root-finder calls
# $\times$ edges. That ratio is about $2.5\,n$ by construction, whatever either code does, and it left out both
# the simplex's pivots and OST's subtree product; the count above replaces it.)*

# %% [markdown]
# ## The experiment
#
# * **Graphs:** $n$ uniform points in the unit square; edges between points closer than
#   $1.5\sqrt{\log n/n}$ plus a Euclidean minimum spanning tree (so the graph is connected), weighted by
#   Euclidean length. Root: node 0. $d_G$ for Orlicz-EPT: all-pairs shortest paths (networkx).
# * **Measures:** each charges a random half of the nodes with exponential weights; total masses uniform in
#   $[0.7, 1.3]$, so the pairs are unbalanced.
# * **Settings (the paper's):** $b=\lambda=1$, $\alpha=0$, $w_1=w_2=d_G(z_0,\cdot)+1$, so $\Theta = 1.5$;
#   $\Phi_0, \Phi_1, \Phi_2$ as above.
# * **Speed:** graph sizes $n$ = 25, 50, 100, 200 (ci; full adds 400 and 800), 5 random pairs per size (full:
#   10), both methods with $\Phi_1$ (tree preprocessing and $d_G$ are computed once per graph and timed for
#   neither method).
# * **Agreement and geometry:** 20 pairs on a graph of $n=50$ (full: 100 pairs, $n=100$), all three $\Phi$;
#   200 random triples (full: 1000) for symmetry and the triangle inequality.
# * **Special case:** on a random tree ($n=60$; full 200; the spanning tree alone), with *balanced*
#   (normalised) measures and $\Phi_0$, OST must equal the 1-Wasserstein distance with the tree metric, computed
#   by POT's exact solver `ot.emd2`.
# * **Tests, illustrations and their comparators.** A counted test is measured on OST beside its *ablation*,
#   Sobolev transport (OST with $\Phi_0=t$: the same tree and mass term without the Orlicz function, the
#   unbalanced tree-$W_1$ closed form of Proposition 5.5), and beside the naive solver a skeptic would use
#   instead, under the same measurement and criterion; it counts only if OST passes and every comparator fails.
#   - `speed-count` (post hoc: its unit of work changed after the first run): median counted-work ratio
#     Orlicz-EPT / X at $n=100$ at least 100 (the brief's "> 100 on $n=50$-$100$"), for X = OST, for Sobolev
#     transport (ablation) and for the mass difference $|\mu(G)-\nu(G)|$ alone ($2n$ entries; baseline), any
#     linear-time quantity a skeptic would try. (An earlier version used one exact OT solve of plain EPT as the
#     baseline. Its ratio is about the number of LPs in the bisection, so it fell below 100 by construction; it is
#     still printed, but it is no comparator.)
#   - `speed-count-entropic` (post hoc, issue 11): the same count and criterion with the authors' solver for
#     Orlicz-EPT (entropic, $\varepsilon=0.1$, their bracket and search) on the first pairs at $n=100$; the
#     baselines are one Sinkhorn solve and one exact OT solve of plain EPT.
#   - `ost-above-ept` (a theorem test): Proposition 5.7, $\mathrm{OS}\ge\mathrm{OE}+\tfrac{b\lambda}2(\mu(G)+\nu(G))$
#     for $\Phi_0$ on every pair of the graph with cycles, with OE from an independent LP (network simplex inside
#     the bisection). Wrong inputs: OST without its mass term $\Theta|\mu(G)-\nu(G)|$ (the pre-registered one);
#     added after the review, the mass coefficient without its $b\lambda/2$ part ($\Theta=1$), $\alpha=1$, and
#     weights $w=3d_G(z_0,\cdot)+1$ that are not $b$-Lipschitz. On this graph the bound has slack, so a plausible
#     wrong coefficient can pass.
#   - `ost-above-ept-tree` (post hoc, added after the review): the same inequality on a tree, where it holds with
#     equality, with the same wrong inputs, and a tolerance derived from the bisection's width.
#   - `rank-agreement`: Spearman $\rho(\mathrm{OST},\mathrm{OE})>0.6$ for $\Phi_1$ (our plausibility check,
#     not a claim of the paper), beside Sobolev transport and the mass difference $|\mu(G)-\nu(G)|$ alone.
#   - Illustrations (shown, not counted): `speed-count-growth`, the log-log slope of the counted ratio against
#     $n$ at least 0.8, which follows from the two algorithms' known costs and reuses the counts of
#     `speed-count`; `triangle`, the largest relative triangle violation of OST over random triples
#     ($\Phi_1$, $\Phi_2$) at most $10^{-9}$, which our formula (a mass term plus a Luxemburg-type norm) obeys by
#     construction.
#   - Implementation checks: `bisection-bracket` (Props. 3.3-3.5: $A(t)$ non-increasing on the bracket, which
#     it brackets), and `tree-w1`, with $\Phi_0$ and balanced measures on a tree,
#     $\max|\mathrm{OST}-W_1|\le10^{-9}$ with $W_1$ from `ot.emd2` (the classical tree-$W_1$ closed form).
#   - Timings (volatile, not compared): `speed-wall`, `speed-wall-largest`, `count-vs-wall` (counted ratio over
#     wall-clock ratio, which should lie in $[0.5, 2]$ if the count measures what the clock does; it mostly lies
#     above it), and the same for the authors' solver (`speed-wall-entropic`, `count-vs-wall-entropic`, far above
#     it).
#   - In the unit and golden tests (implementation checks, not counted): the reductions of OST to GST, Sobolev
#     and unbalanced Sobolev transport (Props. 5.2-5.5), OST's symmetry for $w_1=w_2$ (bit-identical by
#     construction of our code), the closed forms for $\Phi=t^p$ and the reduction to GST for equal masses.
#
# **Deviations from the paper**
#
# * Small synthetic graphs ($n\le 200$ at ci scale, $\le 800$ at full). The paper's speed comparison
#   (its Section 7.1, the numbers quoted above) uses graphs of $M=10^3$ nodes; its classification and TDA
#   experiments use $M=10^4$ nodes ($10^3$ for MPEG7). Its graphs are built from word embeddings or
#   persistence diagrams. We run no document-classification or TDA experiment, and no kNN robustness test with
#   outliers, which the brief proposed.
# * Proposition 5.7 may not be new: for $\Phi_0$, OST is the unbalanced Sobolev transport $US_1$ of the authors'
#   earlier paper (Le, Nguyen, Fukumizu 2023; Props. 5.4-5.5), which advertises relations between it and other
#   transport distances. Neither we nor the reviewer could check whether that paper already states
#   $US_1\ge\mathrm{EPT}+\tfrac{b\lambda}2(\mu(G)+\nu(G))$. If it does, the two theorem tests check a prior-work
#   result and would be illustrations.
# * Orlicz-EPT's bisection runs to relative width $10^{-6}$ on the page and returns the upper end of its bracket;
#   the golden tests run it to $10^{-10}$-$10^{-12}$. At $10^{-6}$ it overstates OE by up to
#   $(\mu(G)+\nu(G))\cdot10^{-6}\cdot t_{\rm hi}$, which the tree test's tolerance accounts for. (For $\Phi_0$ the
#   search is not needed: $A(t)=W/t$, so $t^\star=W$, the lower end of the bracket.) The bracket and the
#   monotonicity of $A(t)$ (Props. 3.3-3.5), on which the search relies, are an implementation check
#   (`bisection-bracket`).
# * Our Orlicz-EPT is solved with the *exact* network simplex inside the bisection. The paper's is entropic,
#   with Sinkhorn at $\varepsilon=0.1$ inside the search. At our sizes the exact solver is the stronger baseline
#   (POT's C++ simplex on $\le 801$ points is fast), so our wall-clock ratios are expected to be smaller than
#   the paper's. Since issue 11 the authors' entropic solver also runs beside ours, on fewer pairs; see
#   "Against the official code", which also lists every other departure from their code.
# * Timings leave out preprocessing (shortest-path tree, $d_G$) for both methods; the paper's include it.
# * Measures are charged on all node types alike and dense (half of the nodes); the paper's measures are sparse
#   word histograms.
# * OST's root is found by bracketing plus Brent's method on the stationarity condition; the paper does not
#   say which univariate solver it uses.
# * The speed claim is checked on counted work (array entries processed, with the simplex's pivots read from
#   the solver), not on wall-clock time, which the paper reports; the count and its controls were changed after
#   the page first ran (see "Counting work"), and those claims are flagged post hoc.

# %%
print({k: v for k, v in vars(P).items() if k != "rng"})
rng = P.rng


def instance(n):
    """A graph, its shortest-path tree, d_G over the tree's node order, and the EPT weights."""
    G = K.random_geometric_graph(n, rng)
    T = K.root_path_tree(G, 0)
    d = dict(nx.all_pairs_dijkstra_path_length(G))
    D = np.array([[d[u][v] for v in T.nodes] for u in T.nodes])
    return G, T, D, T.depth + 1.0


def timed(f, *args, **kw):
    t0 = time.perf_counter()
    out = f(*args, **kw)
    return out, time.perf_counter() - t0


# %% [markdown]
# ## Results
#
# ### Speed as the graph grows
#
# For each size we draw one graph and a few pairs, and run both methods with $\Phi_1$. After the timed runs,
# each method's work is counted (for Orlicz-EPT by replaying the OT problems it solved, outside the timed region).

# %%
keys = ("n", "t_ost", "t_ept", "w_ost", "w_ept", "w_lp1", "w_ost0", "lp", "pivots")
speed = {k: [] for k in keys}
ekeys = ("n", "t_eps", "t_ost", "w_eps", "w_eps1", "w_eps_fixed", "w_ost", "lp", "iters", "tstar_eps", "tstar_exact",
         "side", "w_ost0", "w_lp1")
ent = {k: [] for k in ekeys}  # the authors' solver: entropic Orlicz-EPT, eps = 0.1, on the first pairs of eps_sizes
EPS = 0.1
for n in progress(P.sizes, desc="sizes"):
    G, T, D, w = instance(n)
    M = K.random_unbalanced_measures(n, 2 * P.timing_pairs, rng)
    for i in range(P.timing_pairs):
        mu, nu = M[2 * i], M[2 * i + 1]
        (v_ost, c_ost), t_ost = timed(K.ost, mu, nu, T, K.PHI1)
        (v_ept, c_ept), t_ept = timed(K.orlicz_ept, mu, nu, D, w, w, K.PHI1)
        work = K.orlicz_ept_work(mu, nu, D, w, w, K.PHI1, c_ept["t"])
        assert work["lp"] == c_ept["lp"]
        w_ost0 = K.ost(mu, nu, T, K.PHI0)[1]["elements"]  # closed form: linear in the graph
        for key, val in zip(keys, (n, t_ost, t_ept, c_ost["elements"], work["elements"], work["first_lp_elements"],
                                   w_ost0, work["lp"], work["pivots"])):
            speed[key].append(val)
        if n in P.eps_sizes and i < P.eps_pairs:
            (v_eps, c_eps), t_eps = timed(K.orlicz_ept, mu, nu, D, w, w, K.PHI1, eps=EPS)
            N = c_eps["cost_entries"] // c_eps["lp"]  # entries of one (support-restricted) cost matrix
            for key, val in zip(ekeys, (n, t_eps, t_ost, c_eps["elements"],
                                        K.sinkhorn_log_elements(N, c_eps["sinkhorn_iters"][0]),  # plain entropic EPT
                                        c_eps["lp"] * K.sinkhorn_log_elements(N, 10**4),  # the authors' fixed 1e4 iterations
                                        c_ost["elements"], c_eps["lp"], sum(c_eps["sinkhorn_iters"]), c_eps["t_star"],
                                        c_ept["t_star"], int(round(np.sqrt(N))), w_ost0,
                                        work["first_lp_elements"])):
                ent[key].append(val)
speed = {k: np.array(v) for k, v in speed.items()}
ent = {k: np.array(v) for k, v in ent.items()}
sizes = np.array(P.sizes)


def med(key, n):
    return float(np.median(speed[key][speed["n"] == n]))


def med_ratio(num, den, n):
    """Median over the pairs of size n of the per-pair ratio num / den."""
    sel = speed["n"] == n
    return float(np.median(speed[num][sel] / speed[den][sel]))


count_ratio = np.array([med_ratio("w_ept", "w_ost", n) for n in sizes])
lp1_ratio = np.array([med_ratio("w_lp1", "w_ost", n) for n in sizes])  # control: one OT solve, no bisection
wall_ratio = np.array([med_ratio("t_ept", "t_ost", n) for n in sizes])
print("median OT solves per Orlicz-EPT call:", {int(n): med("lp", n) for n in sizes})
print("median simplex pivots per OT solve:", {int(n): round(med("pivots", n) / med("lp", n)) for n in sizes})
print("median entries processed, OST:", {int(n): med("w_ost", n) for n in sizes})
print("median entries processed, Orlicz-EPT (lower bound):", {int(n): med("w_ept", n) for n in sizes})
print("median counted-work ratio EPT/OST:", dict(zip(sizes.tolist(), np.round(count_ratio).astype(int).tolist())))
print("one OT solve of plain EPT / OST:", dict(zip(sizes.tolist(), np.round(lp1_ratio, 1).tolist())))

# %% [markdown]
# The figure shows median wall-clock time per pair (left; bars span the pairs' min to max) and the ratios
# (right): the counted-work ratio we check, the wall-clock ratio beside it (it moves with machine load), and the
# counted ratios of the comparators under the same measurement: Orlicz-EPT's work over Sobolev transport's (OST
# with $\Phi_0$, the ablation) and over the mass difference alone (the baseline). The grey dotted line is one
# exact OT solve without the bisection: its ratio is about the number of LPs in the bisection, so it is no
# comparator. The diamonds are the authors' choice of solver for Orlicz-EPT (entropic, Sinkhorn with
# $\varepsilon=0.1$), run on the first pairs of size 100 (full
# scale: 50, 100, 200); see "Against the official code".

# %%
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9.5, 3.8))
for key, label, c in (("t_ost", "OST (univariate root)", "C0"), ("t_ept", "Orlicz-EPT (bisection + exact OT)", "C1")):
    m = np.array([med(key, n) for n in sizes])
    lo = np.array([speed[key][speed["n"] == n].min() for n in sizes])
    hi = np.array([speed[key][speed["n"] == n].max() for n in sizes])
    ax1.errorbar(sizes, m, yerr=[m - lo, hi - m], fmt="o-", color=c, capsize=3, label=label)
esizes = np.array(P.eps_sizes)


def emed(key, n, den=None):
    """Median over the entropic pairs of size n of key (or of key / den)."""
    sel = ent["n"] == n
    return float(np.median(ent[key][sel] / (ent[den][sel] if den else 1)))


ax1.plot(esizes, [emed("t_eps", n) for n in esizes], "D", color="C4", label=r"Orlicz-EPT, Sinkhorn $\varepsilon=0.1$ (authors')")
ax1.set(xscale="log", yscale="log", xlabel="graph size $n$ (nodes)", ylabel="time per pair (s)",
        title=r"runtime, $\Phi_1(t)=e^t-t-1$")
ax1.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0.0, 0.15))  # the empty band between the curves
ax2.loglog(sizes, count_ratio, "s-", color="C2", label="counted work (checked)")
ax2.loglog(sizes, wall_ratio, "o--", color="C3", label="wall clock (volatile)")
ax2.loglog(sizes, [med_ratio("w_ept", "w_ost0", n) for n in sizes], "v-.", color="C0",
           label="ablation: Orlicz-EPT / Sobolev transport")
ax2.loglog(sizes, [np.median(speed["w_ept"][speed["n"] == n] / (2 * n)) for n in sizes], "^-", color="C1",
           label="baseline: Orlicz-EPT / mass difference")
ax2.loglog(sizes, [med_ratio("w_ept", "w_lp1", n) for n in sizes], ":", color="C7",
           label="Orlicz-EPT / one OT solve (~ LP count)")
ax2.loglog(esizes, [emed("w_eps", n, "w_ost") for n in esizes], "D", color="C4", label="counted, Sinkhorn (authors')")
ax2.axhline(100, color="k", lw=0.8, ls=":", label="100x")
ax2.set(xlabel="graph size $n$ (nodes)", ylabel="Orlicz-EPT / OST", title="speed-up")
ax2.legend(fontsize=7)
for ax in (ax1, ax2):
    ax.set_xticks(sizes, labels=[str(n) for n in sizes])
    ax.xaxis.set_minor_locator(plt.NullLocator())
plt.show()

# %% [markdown]
# The table sets the two ratios side by side, with the time each method spends per counted entry. The two
# costs per entry are of different kinds: OST's few hundred entries per pair are processed by numpy calls issued
# one root-finder step at a time from Python, so its time per entry carries the interpreter's fixed cost per
# call, while the simplex's pricing loop runs in C++ at a few nanoseconds per entry. Where the two costs per
# entry differ by more than a factor of two, so will the counted and the wall-clock ratio.

# %%
i100 = int(np.where(sizes == 100)[0][0])
ns_ost = np.array([med("t_ost", n) / med("w_ost", n) * 1e9 for n in sizes])
ns_ept = np.array([med("t_ept", n) / med("w_ept", n) * 1e9 for n in sizes])
print("Timing table (wall clock, one thread; volatile)")
for n, ro, re, cr, kr, a_, b_ in zip(sizes, [med("t_ost", n) for n in sizes], [med("t_ept", n) for n in sizes],
                                    wall_ratio, count_ratio, ns_ost, ns_ept):
    print(f"  n={n:4d}  OST {ro * 1e3:8.3f} ms   Orlicz-EPT {re * 1e3:9.2f} ms   wall ratio {cr:7.1f}"
          f"   counted ratio {kr:7.1f}   ns per entry: OST {a_:6.1f}, EPT {b_:6.1f}")

# %% [markdown]
# ### Agreement, special cases and geometry
#
# On one graph of $n$ = `n_agree` nodes we compute OST and Orlicz-EPT for every pair and all three
# N-functions. For $\Phi_0$ the paper proves $\mathrm{OS}\ge\mathrm{OE}+\tfrac{b\lambda}{2}(\mu(G)+\nu(G))$
# (the bound tested as `ost-above-ept` below; its proof is one line: with $\alpha=0$ the dual feasible set that
# defines OST contains EPT's dual set, so a supremum over the larger set is at least the one over the smaller),
# so the left panel plots that shifted Orlicz-EPT against OST.
# Note that EPT values can be negative: moving mass costs $b(d-\lambda)$, which is below zero for nearby points.

# %%
G, T, D, w = instance(P.n_agree)
M = K.random_unbalanced_measures(P.n_agree, 2 * P.agree_pairs, rng)
pairs = [(M[2 * i], M[2 * i + 1]) for i in range(P.agree_pairs)]
vals = {name: np.array([[K.ost(a, c, T, phi)[0], K.orlicz_ept(a, c, D, w, w, phi)[0]] for a, c in pairs])
        for name, phi in progress(PHIS.items(), desc="agreement")}
tot = np.array([a.sum() + c.sum() for a, c in pairs])
dmass = np.array([abs(a.sum() - c.sum()) for a, c in pairs])
theta = w[0] + 0.5  # w1(z0) + b*lam/2 - alpha with the paper's settings (= 1.5)
gap57 = vals["Phi0"][:, 0] - (vals["Phi0"][:, 1] + 0.5 * tot)
gap57_ctrl = gap57 - theta * dmass  # wrong input: OST without its mass term
# wrong inputs that break the proposition's constant or hypotheses (the skeptic's review)
gap57_theta1 = gap57 - 0.5 * dmass  # Theta = w1(z0) = 1.0: the mass coefficient without its b*lam/2 part
ost_a1 = np.array([K.ost(a, c, T, K.PHI0, alpha=1.0)[0] for a, c in pairs])
gap57_alpha1 = ost_a1 - (vals["Phi0"][:, 1] + 0.5 * tot)  # alpha = 1 (the proposition needs alpha = 0)
w_nl = 3 * (w - 1) + 1  # w = 3 d_G(z0, .) + 1: not b-Lipschitz (w(z0) = 1, so OST is unchanged)
oe_nl = np.array([K.orlicz_ept(a, c, D, w_nl, w_nl, K.PHI0)[0] for a, c in pairs])
gap57_nl = vals["Phi0"][:, 0] - (oe_nl + 0.5 * tot)
rel57 = gap57 / vals["Phi0"][:, 0]  # the bound's relative slack on this graph with cycles
# Props. 3.3-3.5, on which the bisection relies: A(t) non-increasing on the bracket, A(lo) >= 1 >= A(hi)
bracket_ok = True
for phi in (K.PHI1, K.PHI2):
    _, (lo_, hi_) = K.orlicz_ept_A(*pairs[0], D, w, w, phi, [1.0])
    A_ = K.orlicz_ept_A(*pairs[0], D, w, w, phi, np.linspace(lo_, hi_, 9))[0]
    bracket_ok &= bool(np.all(np.diff(A_) <= 1e-12) and A_[0] >= 1 - 1e-12 and A_[-1] <= 1 + 1e-12)
print("A(t) non-increasing on the bracket with A(lo) >= 1 >= A(hi) (Phi1, Phi2; first pair):", bracket_ok)
rho = {name: float(spearmanr(v[:, 0], v[:, 1]).statistic) for name, v in vals.items()}
rho_mass = {name: float(spearmanr(dmass, v[:, 1]).statistic) for name, v in vals.items()}
rho_st = float(spearmanr(vals["Phi0"][:, 0], vals["Phi1"][:, 1]).statistic)  # Sobolev transport against Orlicz-EPT
print("Spearman rho(OST, Orlicz-EPT):", {k: round(v, 3) for k, v in rho.items()})
print("control, Spearman rho(|mu(G) - nu(G)|, Orlicz-EPT):", {k: round(v, 3) for k, v in rho_mass.items()})
print(f"Prop. 5.7 gap OST - (OE + tot/2) for Phi0: min {gap57.min():.4f}, median {np.median(gap57):.4f}")
print(f"relative slack gap / OST: min {rel57.min():.3f}, median {np.median(rel57):.3f}")
for lab, g in (("OST without its mass term", gap57_ctrl), ("Theta = 1.0 (no b*lam/2)", gap57_theta1),
               ("alpha = 1", gap57_alpha1), ("w = 3 d_G(z0, .) + 1 (not b-Lipschitz)", gap57_nl)):
    print(f"wrong input, {lab}: min gap {g.min():.4f}, pairs below the bound {int((g < -1e-9).sum())} of {len(pairs)}")

# %%
fig, axes = plt.subplots(1, 3, figsize=(10, 3.4))
for ax, (name, v) in zip(axes, vals.items()):
    y = v[:, 1] + (0.5 * tot if name == "Phi0" else 0)
    ax.plot(v[:, 0], y, "o", ms=4)
    lim = [min(v[:, 0].min(), y.min()), max(v[:, 0].max(), y.max())]
    if name == "Phi0":
        ax.plot(lim, lim, "k:", lw=0.8, label="OE + tot/2 = OST")
        ax.legend()
    ax.set(xlabel=f"OST, {PHIS[name].name}", ylabel="Orlicz-EPT" + (" + tot/2" if name == "Phi0" else ""),
           title=rf"{name}: Spearman $\rho$ = {rho[name]:.2f}")
plt.show()

# %% [markdown]
# **The univariate problem.** For one pair, the OST objective $\frac1k[1+\sum_e w_e\Phi(k\Delta_e)]$ as a
# function of $k$: a single smooth valley, whose bottom (marked) is what the root finder returns. This is all
# the work OST does per pair, against a sequence of full OT problems for Orlicz-EPT.

# %%
a, c = pairs[0]
dh = K.edge_subtree_mass(T, a) - K.edge_subtree_mass(T, c)
ks = np.logspace(-1, 2.5, 200)
fig, ax = plt.subplots(figsize=(5.5, 3.4))
for name, col in (("Phi1", "C0"), ("Phi2", "C1")):
    phi = PHIS[name]
    ax.plot(ks, K.gst_objective(ks, dh, T.w, phi), color=col, label=phi.name)
    v, _ = K.gst(dh, T.w, phi)
    ax.axhline(v, color=col, ls=":", lw=0.8)
ax.axhline(T.w @ np.abs(dh), color="k", ls="--", lw=0.8, label=r"$\Phi_0$ limit $\sum_e w_e\Delta_e$")
ax.set(xscale="log", ylim=(0, 3 * T.w @ np.abs(dh)), xlabel="$k$",
       ylabel=r"$\frac{1}{k}[1+\sum_e w_e\Phi(k\Delta_e)]$", title="OST's univariate problem (one pair, n = %d)" % P.n_agree)
ax.legend()
plt.show()

# %% [markdown]
# **Tree Wasserstein-1.** On a tree, with balanced measures and $\Phi_0$, OST is $\sum_e w_e|h_\mu(e)-h_\nu(e)|$,
# the closed form of 1-Wasserstein distance on a tree. We compare with `ot.emd2` on the tree's shortest-path
# metric.

# %%
Gt = K.random_geometric_graph(P.tree_n, rng, radius=0.0)
Tt = K.root_path_tree(Gt, 0)
dt = dict(nx.all_pairs_dijkstra_path_length(Gt))
Dt = np.array([[dt[u][v] for v in Tt.nodes] for u in Tt.nodes])
Mt = K.random_unbalanced_measures(P.tree_n, 2 * P.agree_pairs, rng)
Mt_unb = Mt.copy()  # the same draws, unbalanced, for the tight setting of Prop. 5.7 below
Mt /= Mt.sum(1, keepdims=True)
w1_err = max(abs(K.ost(Mt[2 * i], Mt[2 * i + 1], Tt, K.PHI0)[0] - ot.emd2(Mt[2 * i], Mt[2 * i + 1], Dt))
             for i in range(P.agree_pairs))
print(f"tree: {nx.is_tree(Gt)}, max |OST_Phi0 - W1 (ot.emd2)| over {P.agree_pairs} pairs = {w1_err:.1e}")
# control (wrong input): the graph with cycles of the agreement experiment, W1 on its own metric d_G
Mg = np.array([x for pair in pairs for x in pair])
Mg /= Mg.sum(1, keepdims=True)
w1_err_graph = max(abs(K.ost(Mg[2 * i], Mg[2 * i + 1], T, K.PHI0)[0] - ot.emd2(Mg[2 * i], Mg[2 * i + 1], D))
                   for i in range(P.agree_pairs))
print(f"control: graph with cycles (a tree: {nx.is_tree(G)}), max |OST_Phi0 - W1(d_G)| = {w1_err_graph:.4f}")

# %% [markdown]
# **The EPT bound where it is tight.** On the tree, with the unbalanced measures drawn above (before they were
# normalised) and the paper's settings, the bound $\mathrm{OS}\ge\mathrm{OE}+\tfrac{b\lambda}2(\mu(G)+\nu(G))$
# holds with equality, so any smaller mass coefficient or broken hypothesis shows. Orlicz-EPT is the same
# bisection over exact LPs as above (relative width `RTOL57`). It returns the upper end of its bracket, so it
# overstates OE by at most $(\mu(G)+\nu(G))\cdot$ `RTOL57` $\cdot\,t_{\rm hi}$: that, plus $10^{-12}$ for
# rounding in the sums, is the tolerance of the check, derived from the solver and not from the results.

# %%
RTOL57 = 1e-6  # orlicz_ept's default bisection width, as in the agreement experiment
wt = Tt.depth + 1.0
wt_nl = 3 * Tt.depth + 1.0  # not b-Lipschitz
pairs_t = [(Mt_unb[2 * i], Mt_unb[2 * i + 1]) for i in range(P.agree_pairs)]
ost_t = np.array([K.ost(a, c, Tt, K.PHI0)[0] for a, c in pairs_t])
ost_t_a1 = np.array([K.ost(a, c, Tt, K.PHI0, alpha=1.0)[0] for a, c in pairs_t])
oe_t, tol_t = [], []
for a, c in pairs_t:
    v, cnt = K.orlicz_ept(a, c, Dt, wt, wt, K.PHI0, rtol=RTOL57)
    oe_t.append(v)
    tol_t.append((a.sum() + c.sum()) * RTOL57 * cnt["t_star"] + 1e-12)
oe_t, tol_t = np.array(oe_t), np.array(tol_t)
oe_t_nl = np.array([K.orlicz_ept(a, c, Dt, wt_nl, wt_nl, K.PHI0, rtol=RTOL57)[0] for a, c in pairs_t])
tot_t = np.array([a.sum() + c.sum() for a, c in pairs_t])
dmass_t = np.array([abs(a.sum() - c.sum()) for a, c in pairs_t])
gapt = ost_t - (oe_t + 0.5 * tot_t)
gapt_wrong = {"no mass term": gapt - 1.5 * dmass_t, "Theta = 1.0": gapt - 0.5 * dmass_t,
              "alpha = 1": ost_t_a1 - (oe_t + 0.5 * tot_t), "w = 3 d + 1": ost_t - (oe_t_nl + 0.5 * tot_t)}
print(f"tree, Prop. 5.7 gap: min {gapt.min():.2e}, max {gapt.max():.2e}; tolerance (max) {tol_t.max():.1e}")
for lab, g in gapt_wrong.items():
    print(f"  wrong input {lab}: pairs below the bound by more than the tolerance {int((g < -tol_t).sum())} of "
          f"{len(pairs_t)}, min gap {g.min():.3f}")

# %% [markdown]
# **The triangle inequality** on random triples ($\Phi_1$ and $\Phi_2$), reported relative to the distances
# involved, for OST and for its square (the control). OST's symmetry for $w_1=w_2$ is checked in the unit tests:
# with our code the two directions are bit-identical by construction.

# %%
Mtri = K.random_unbalanced_measures(P.n_agree, 3 * P.n_triples, rng).reshape(P.n_triples, 3, -1)
tri, tri_sq = -np.inf, -np.inf
for phi in (K.PHI1, K.PHI2):
    for a, c, s in Mtri:
        d_ac, d_as, d_sc = K.ost(a, c, T, phi)[0], K.ost(a, s, T, phi)[0], K.ost(s, c, T, phi)[0]
        tri = max(tri, (d_ac - d_as - d_sc) / d_ac)
        tri_sq = max(tri_sq, (d_ac**2 - d_as**2 - d_sc**2) / d_ac**2)  # control: squared OST
same = K.ost(Mtri[0, 0], Mtri[0, 0], T, K.PHI1)[0]
print(f"max relative triangle violation {tri:.2e} (negative = slack); squared OST (control) {tri_sq:.3f}; "
      f"OST(mu,mu) = {same}")

# %% [markdown]
# ## Against the official code
#
# The paper's own repository (its footnote 2, `lttam/OST_OrliczEPT`) could not be fetched here. The authors'
# sibling repositories could: `lttam/Generalized-Sobolev-Transport` (commit `12ec656`), which holds their GST
# objective and the Orlicz-Wasserstein solver that Orlicz-EPT applies to the balanced problem of
# Proposition 3.1, and `lttam/UnbalancedSobolevTransport` (commit `71f09ce`). We ran their MATLAB code unchanged
# under GNU Octave on small seeded inputs, outside the project. The only stubs are for two pieces of MATLAB that
# Octave lacks: `fmincon` and the graph toolbox's `shortestpathtree`, fed with networkx's shortest paths. The
# numbers are kept as golden tests (`tests/papers/golden/orlicz-sobolev-transport.json`). The official outputs
# quoted below are read from that record by this notebook; the agreement bounds and the remaining numbers in
# this section are from the runs that made the golden record, outside the project, not from this run.
#
# **What agrees.**
#
# * *GST's univariate problem* ($\Phi_1$ and $\Phi_2$, four random rows of 20 edges): our `gst` gives their
#   objective's minimum to machine precision, within the golden tolerance of $10^{-10}$ relative (their first row:
#   {glue:text}`g_gst1:.13f` for $\Phi_1$, {glue:text}`g_gst2:.13f` for $\Phi_2$).
# * *Unbalanced Sobolev transport*, $p=1$ and $p=2$. We ran their script with $a=b=\lambda=1$, $\alpha=0$ on a
#   24-node graph with cycles and on a 24-node tree, with six unbalanced measures. Our OST with $\Phi_0$ and with
#   $\Phi(t)=t^2/4$ (Propositions 5.4-5.5) equals their $US_p$ within the golden tolerance of $10^{-12}$
#   (agreement at the golden run: $2\times10^{-15}$). This includes the
#   mass term $\Theta|\mu(G)-\nu(G)|$ with $\Theta=1.5$.
# * *EPT's normalisation.* On the tree, their EPT expression ($US_1-\tfrac{b\lambda}{2}(\mu(G)+\nu(G))$) equals
#   our Orlicz-EPT with $\Phi_0$ within the golden tolerance of $10^{-9}$ (agreement at the golden run:
#   $2\times10^{-12}$), *with the bisection run to relative width $10^{-12}$*; at the page's default width of
#   $10^{-6}$ it agrees only to about $10^{-6}$. Ours adds the point $\hat s$, rescales by
#   $\mu(G)+\nu(G)$, solves exact OT and bisects.
# * *Their entropic Orlicz solver*, given our balanced problem ($\hat\mu,\hat\nu,\hat c$ on a 12-node tree,
#   $\varepsilon=0.1$). Our entropic option (below) reproduces their $t^\star$ within the golden tolerance of
#   $10^{-8}$ (theirs: {glue:text}`g_t1:.8f` for $\Phi_1$, {glue:text}`g_t2:.8f` for $\Phi_2$), with the same
#   number of Sinkhorn solves ({glue:text}`g_n1` and {glue:text}`g_n2`).
#
# **Where we depart from their code**, in method and defaults:
#
# * *The Orlicz-EPT solver.* Ours is the exact problem ($\varepsilon=0$): POT's network simplex (`ot.emd2`)
#   inside a bisection to relative width $10^{-6}$, with the bracket of Proposition 3.5 taken over the supports.
#   Theirs is entropic: log-domain Sinkhorn with $\varepsilon$ (0.1 in their timing) and a fixed $10^4$
#   iterations per solve. Their bracket is Proposition 3.5 with $\varepsilon$, their tolerance on $t$ is an
#   absolute $10^{-6}$, and they return the upper end. The two solve different problems: on the golden tree the
#   exact $t^\star$ lies below theirs (by 0.40% for $\Phi_1$ and 0.27% for $\Phi_2$ at the golden run; this run's
#   median gap on its own pairs is in the Verdict).
#   The entropic root always lies above the exact one. The Sinkhorn plan's cost exceeds the exact optimum by at
#   most $\varepsilon\min(H(\hat\mu),H(\hat\nu))$, and the golden test checks that bracket. So the page's speed
#   comparison with the exact solver is not a comparison with the paper's solver. Below we run theirs too.
# * *Their "regula falsi" is a bisection.* The interpolation point is where the chord through the bracket's
#   ends reaches 0, not 1. The objective is positive, so that point always lies beyond the bracket, and the code
#   falls back to the midpoint every time. Our entropic option therefore runs a bisection on their bracket.
# * *Zero masses.* Their Sinkhorn adds each new potential to the previous one. A point with no mass in one of
#   the measures then gives $-\infty+\infty$ = NaN; we checked this under Octave on a three-point example. Their
#   timing script keeps the union of the two supports, where such points remain. We cannot see how the OST
#   repository handles them. Our entropic option restricts the problem to the union of the supports in the same
#   way, and uses POT's update, which handles $\log 0$.
# * *Sinkhorn's stopping rule.* They always run $10^4$ iterations. We use POT's rule: stop once the marginal
#   error is below $10^{-9}$, checked every 10 iterations. We run the same iteration in numpy
#   (`sinkhorn_log_plan`, tested against `ot.bregman.sinkhorn_log`), because POT's numpy backend spent most of
#   its time per call in scipy's `logsumexp` when we profiled it (outside this run). Work is counted both ways below.
# * *OST's univariate problem.* They use MATLAB's `fmincon` (trust-region-reflective) from $k=1$, with
#   tolerances $10^{-3}$ and at most 100 evaluations. We use Brent's method on the stationarity condition, to
#   $10^{-13}$. The minimum is the same up to their tolerance.
# * *What is timed.* The paper's times include preprocessing: the shortest-path tree for OST, and in the
#   sibling timing scripts the ground metric for Orlicz-Wasserstein. Ours leave preprocessing out for both
#   methods.
# * *Root and graphs.* They use a random root in the timing and pick one of 10 random roots by
#   cross-validation for classification; the UST code averages up to 20 roots. We use node 0. Their graphs
#   ($G_{Sqrt}$, $G_{Log}$) join cluster centroids of word embeddings by random edges, with $M=10^3$ nodes in the
#   timing and $10^4$ in the classification, and their measures are unnormalised word counts. Ours are random
#   geometric graphs of 25-200 nodes (full scale: up to 800) with random measures of total mass in
#   $[0.7, 1.3]$.
#
# **The authors' solver, run beside ours.** On the first pairs at $n=100$ of the speed experiment (full scale:
# $n$ = 50, 100, 200, three pairs each) we also run entropic Orlicz-EPT as their code does it ($\Phi_1$,
# $\varepsilon=0.1$, their bracket and bisection). Work is counted in the same unit as before, array entries
# processed. Per Sinkhorn solve the count is a lower bound: the cost matrix formed and scaled, four passes over
# it per iteration (two half-steps, each forming the shifted matrix and reducing it by a log-sum-exp), a
# marginal check every 10th iteration, and the final plan. We count the iterations POT's stopping rule
# actually ran, and separately the $10^4$ per solve that their code runs. The comparators are Sobolev transport
# (the ablation), one Sinkhorn solve of plain EPT (the linear cost, without the Orlicz search) and one exact OT
# solve of plain EPT. The table sets these beside the paper's reported speed-ups, each row with its setting.

# %%
# the official code's numbers quoted in this section, read from the golden record (run outside the project)
import json
from pathlib import Path

GOLD = {c["name"]: c for c in json.loads((Path(K.__file__).resolve().parents[3] / "tests" / "papers" / "golden"
                                          / "orlicz-sobolev-transport.json").read_text())["cases"]}
for key, val in dict(g_gst1=GOLD["gst_phi1"]["output"][0], g_gst2=GOLD["gst_phi2"]["output"][0],
                     g_t1=GOLD["orlicz_ept_entropic_phi1"]["output"]["t_star"],
                     g_t2=GOLD["orlicz_ept_entropic_phi2"]["output"]["t_star"]).items():
    glue(key, float(val), display=False)
for key, val in dict(g_n1=GOLD["orlicz_ept_entropic_phi1"]["output"]["sinkhorn_solves"],
                     g_n2=GOLD["orlicz_ept_entropic_phi2"]["output"]["sinkhorn_solves"]).items():
    glue(key, int(val), display=False)

# %%
sel = ent["n"] == 100
eps_count, eps_ctrl = emed("w_eps", 100, "w_ost"), emed("w_eps1", 100, "w_ost")
eps_fixed, eps_wall = emed("w_eps_fixed", 100, "w_ost"), emed("t_eps", 100, "t_ost")
eps_gap = float(np.median(ent["tstar_eps"][sel] / ent["tstar_exact"][sel] - 1))
print(f"entropic Orlicz-EPT at n = 100 ({int(sel.sum())} pairs): Sinkhorn solves per pair {ent['lp'][sel].tolist()}, "
      f"iterations per pair {ent['iters'][sel].tolist()} on matrices of side {ent['side'][sel].tolist()} (the union "
      f"of the supports and s^); t* above the exact t* by {100 * eps_gap:.2f}% (median)")
rows = [
    ("paper", "G_Sqrt, M = 10^3 nodes, 10^4 AMAZON pairs, Orlicz-EPT with Sinkhorn eps = 0.1; wall clock incl. preprocessing", "Phi0", ">= 250"),
    ("paper", "same", "Phi1", ">= 13 800"),
    ("paper", "same", "Phi2", ">= 11 200"),
    ("paper", "same, per pair (totals / 10^4): Orlicz-EPT >= 2.6 days, OST < 21 s", "Phi1, Phi2", ">= 22 s vs < 2.1 ms"),
    ("ours", f"n = 100 random geometric graph, median of {P.timing_pairs} pairs; exact Orlicz-EPT (network simplex); counted entries", "Phi1", f"{count_ratio[i100]:,.0f}"),
    ("ours", "same; wall clock, preprocessing excluded (volatile)", "Phi1", f"{wall_ratio[i100]:,.0f}"),
    ("ours", f"n = 100, median of {int(sel.sum())} pairs; Sinkhorn eps = 0.1, the authors' search, POT's stopping rule; counted entries", "Phi1", f"{eps_count:,.0f}"),
    ("ours", "same; wall clock, preprocessing excluded (volatile)", "Phi1", f"{eps_wall:,.0f}"),
    ("ours", "same pairs, counted as the authors' code runs it (10^4 Sinkhorn iterations per solve)", "Phi1", f"{eps_fixed:,.0f}"),
    ("ours", f"n = {sizes[-1]}, exact Orlicz-EPT; counted / wall clock (volatile)", "Phi1", f"{count_ratio[-1]:,.0f} / {wall_ratio[-1]:,.0f}"),
]
print(f"\n{'':6s}{'setting':118s}{'Phi':12s}Orlicz-EPT / OST")
for who, setting, phi, val in rows:
    print(f"{who:6s}{setting:118s}{phi:12s}{val}")
print(f"\nper pair at n = 100 (ours, volatile): OST {med('t_ost', 100) * 1e3:.2f} ms, exact Orlicz-EPT "
      f"{med('t_ept', 100) * 1e3:.0f} ms, entropic Orlicz-EPT {emed('t_eps', 100):.2f} s")

# %% [markdown]
# ## Checks

# %%
COUNT_TOL = tolerance(rel=0.1, why="pivot and root-finder step counts follow floating-point comparisons (the "
                      "simplex's reduced costs, brentq's steps), which another machine's last-bit rounding can "
                      "tip; the page's earlier count moved by 3.5% between two machines")
PAPER_SPEED = (">= 250x (Phi0), 13 800x (Phi1), 11 200x (Phi2) in wall-clock time incl. preprocessing, 10^4 "
               "AMAZON pairs on G_Sqrt with M = 10^3 nodes, Orlicz-EPT with Sinkhorn eps = 0.1 (Sec. 7.1)")
POST_HOC_OFFICIAL = "issue 11: official choices run beside ours"
POST_HOC_COUNT = ("measurement changed after the first run (issue 10): work is now counted as array entries "
                  "processed by both methods, with the simplex's pivots read from the solver, replacing a ratio "
                  "that followed from the counting convention")
ST_LABEL = "Sobolev transport (OST with Phi0 = t, closed form; unbalanced tree-W1 plus the mass term), same pairs"
ORLICZ = "the Orlicz function solved by OST's univariate root (Phi1 in place of the linear Phi0)"
# the comparators of the speed tests: Orlicz-EPT's counted work over each comparator's, per pair, median
st_ratio = np.array([med_ratio("w_ept", "w_ost0", n) for n in sizes])  # ablation: Sobolev transport
lp1_speed = np.array([med_ratio("w_ept", "w_lp1", n) for n in sizes])  # one exact OT solve: ~ the bisection's LP count
mass_speed = np.array([float(np.median(speed["w_ept"][speed["n"] == n] / (2 * n))) for n in sizes])  # baseline
claims.headline("univariate-fast", "OST reduces to a univariate problem and is orders of magnitude faster than "
                "Orlicz-EPT, which needs a binary search over OT problems",
                tests=["speed-count", "speed-count-entropic"])
claims.headline("relates-to-ept", "OST is bounded below by EPT plus half the total mass (Prop. 5.7, linear Phi)",
                tests=["ost-above-ept", "ost-above-ept-tree"])
claims.headline("divergence-reductions", "OST is a divergence with the triangle inequality, and reduces to GST and "
                "(unbalanced) Sobolev transport in special cases", untestable="the divergence and triangle "
                "properties hold by construction of the formula (shown, not counted, by the illustration triangle); "
                "the reductions to GST, Sobolev and unbalanced Sobolev transport (Props. 5.2-5.5) are implementation "
                "checks in the unit and golden tests, not claims that could fail here")
claims.headline("downstream", "OST shows advantages in document classification and topological data analysis",
                untestable="the paper's word-embedding document sets (TWITTER, RECIPE, CLASSIC, AMAZON) and its TDA "
                "data (Orbit, MPEG7) are not available offline; this miniature runs no classification")
claims.test("speed-count", statement="At n = 100, Orlicz-EPT (bisection over exact OT) processes at least 100x "
            "more array entries than OST (median over pairs; a lower bound on EPT's work)",
            paper=PAPER_SPEED, criterion=at_least(100), measured=float(count_ratio[i100]),
            ablation=Comparator(ST_LABEL, float(st_ratio[i100]), ingredient=ORLICZ),
            baselines=[Comparator("the mass difference |mu(G) - nu(G)| alone (2n entries), same pairs",
                                  float(mass_speed[i100]))],
            tol=COUNT_TOL, post_hoc=POST_HOC_COUNT)
claims.illustrate("speed-count-growth", statement="The counted work ratio Orlicz-EPT / OST grows about linearly "
                  "with the graph size (log-log slope against n)", paper="OST is linear in edges; EPT solves OT of "
                  "size n^2 per step", criterion=at_least(0.8), measured=round(loglog_slope(sizes, count_ratio), 2),
                  why="follows from the known costs of the two algorithms (each OT solve touches (n+1)^2 entries, "
                  "OST one pass over the edges per step) and reuses the counts of speed-count: one measurement")
claims.check("speed-wall", statement="Median wall-clock ratio Orlicz-EPT / OST at n = 100 (Phi1)",
             paper="several orders of magnitude faster", criterion=greater_than(100),
             measured=float(wall_ratio[i100]), volatile=True)
claims.check("speed-wall-largest", statement=f"Median wall-clock ratio at our largest graph, n = {sizes[-1]} (Phi1)",
             paper="several orders of magnitude faster", criterion=greater_than(100),
             measured=float(wall_ratio[-1]), volatile=True)
claims.check("count-vs-wall", statement="Counted-work ratio over wall-clock ratio at n = 100 (the count should "
             "track the clock within a factor of 2)", paper="not reported (our check of the count)",
             criterion=between(0.5, 2.0), measured=float(count_ratio[i100] / wall_ratio[i100]), volatile=True)
eps_st, eps_lp1 = emed("w_eps", 100, "w_ost0"), emed("w_eps", 100, "w_lp1")
claims.test("speed-count-entropic", statement="At n = 100, entropic Orlicz-EPT as the authors' code computes it "
            "(log-domain Sinkhorn, eps = 0.1, their bracket and bisection; Sinkhorn stopped by POT's rule) processes "
            "at least 100x more array entries than OST (median over pairs; a lower bound on its work)",
            paper=PAPER_SPEED, criterion=at_least(100), measured=float(eps_count),
            ablation=Comparator(ST_LABEL, float(eps_st), ingredient=ORLICZ),
            baselines=[Comparator("plain entropic EPT: one Sinkhorn solve of the same instance, no Orlicz search",
                                  float(emed("w_eps", 100, "w_eps1"))),
                       Comparator("plain EPT: one exact OT solve of the same instance, no Orlicz search",
                                  float(eps_lp1))],
            tol=tolerance(rel=0.1, why="Sinkhorn iteration counts follow a floating-point stopping test (marginal "
                          "error below 1e-9, checked every 10 iterations), which another machine's rounding can "
                          "move by a check or two"), post_hoc=POST_HOC_OFFICIAL)
claims.check("speed-wall-entropic", statement="Median wall-clock ratio entropic Orlicz-EPT (authors' solver) / OST "
             "at n = 100 (Phi1)", paper=PAPER_SPEED, criterion=greater_than(100), measured=float(eps_wall),
             volatile=True)
claims.check("count-vs-wall-entropic", statement="Counted-work ratio over wall-clock ratio at n = 100 for the "
             "authors' solver (the count should track the clock within a factor of 2)",
             paper="not reported (our check of the count)", criterion=between(0.5, 2.0),
             measured=float(eps_count / eps_wall), volatile=True)
claims.check("tree-w1", kind="implementation",
             statement="Linear Phi, balanced measures, on a tree: OST equals W1 from ot.emd2 (max abs difference)",
             paper="Prop. 5.5 (closed form); OST generalises tree-W1 / Sobolev transport",
             criterion=at_most(1e-9), measured=float(w1_err))
claims.test("ost-above-ept", kind="theorem",
            statement="Linear Phi: OST >= Orlicz-EPT + b*lam/2*(mu(G)+nu(G)) on every pair",
            paper="Proposition 5.7", criterion=is_true("all pairs"), measured=bool(gap57.min() >= -1e-9),
            independent="Orlicz-EPT solved as an LP (POT's exact network simplex on the extended problem of "
            "Prop. 3.1, inside the bisection), on a graph with cycles where the bound is not an identity",
            wrong_inputs=[Comparator("wrong kernel: OST without its mass term Theta*|mu(G) - nu(G)|",
                                     bool(gap57_ctrl.min() >= -1e-9)),
                          Comparator("wrong coefficient: Theta = w1(z0) = 1.0, without its b*lam/2 part",
                                     bool(gap57_theta1.min() >= -1e-9)),
                          Comparator("hypothesis broken: alpha = 1 (the proposition needs alpha = 0)",
                                     bool(gap57_alpha1.min() >= -1e-9)),
                          Comparator("hypothesis broken: w1 = w2 = 3 d_G(z0, .) + 1, not b-Lipschitz",
                                     bool(gap57_nl.min() >= -1e-9))])
claims.test("ost-above-ept-tree", kind="theorem",
            statement="Linear Phi, on a tree where the bound is tight: the number of pairs with OST < Orlicz-EPT + "
            "b*lam/2*(mu(G)+nu(G)) by more than the bisection's tolerance", paper="Proposition 5.7",
            criterion=at_most(0), measured=int((gapt < -tol_t).sum()),
            independent="Orlicz-EPT solved as LPs (POT's exact network simplex inside the bisection, relative width "
            "1e-6); the tolerance per pair is tot * rtol * t_hi + 1e-12, the most the bisection's upper end can "
            "overstate OE",
            wrong_inputs=[Comparator(f"wrong {lab}", int((g < -tol_t).sum())) for lab, g in (
                ("kernel: OST without its mass term", gapt_wrong["no mass term"]),
                ("coefficient: Theta = w1(z0) = 1.0, without its b*lam/2 part", gapt_wrong["Theta = 1.0"]),
                ("hypothesis: alpha = 1", gapt_wrong["alpha = 1"]),
                ("hypothesis: w1 = w2 = 3 d_G(z0, .) + 1, not b-Lipschitz", gapt_wrong["w = 3 d + 1"]))],
            post_hoc="added after the skeptic's review: on the graph with cycles the bound has slack, and a wrong "
            "mass coefficient (Theta = 1.0) passes there at some seeds; on a tree the bound is an identity",
            setting=f"a random tree of {P.tree_n} nodes (the tree of tree-w1), unbalanced measures")
claims.check("bisection-bracket", kind="implementation",
             statement="Orlicz-EPT's search objective A(t) is non-increasing on the bracket and A(lo) >= 1 >= A(hi) "
             "(Phi1 and Phi2, first pair of the agreement graph, 9 points)", paper="Props. 3.3-3.5",
             criterion=is_true("monotone and bracketing"), measured=bool(bracket_ok))
claims.illustrate("triangle", statement="OST obeys the triangle inequality (max over triples of "
                  "(d_ac - d_as - d_sc) / d_ac; negative = slack)", paper="Prop. 5.1(ii)", criterion=at_most(1e-9),
                  measured=round(float(tri), 4),
                  why="our own OST formula evaluated on random triples: a mass term plus a Luxemburg-type norm of "
                  "the edge differences, which obeys the triangle inequality by construction; no independent "
                  "computation")
claims.test("rank-agreement", statement="OST and Orlicz-EPT rank pairs alike (Spearman rho, Phi1)",
            paper="not reported (our plausibility check)", criterion=greater_than(0.6), measured=round(rho["Phi1"], 3),
            ablation=Comparator("Sobolev transport (OST with Phi0) ranked against Orlicz-EPT with Phi1",
                                round(rho_st, 3), ingredient=ORLICZ),
            baselines=[Comparator("the mass difference |mu(G) - nu(G)| alone", round(rho_mass["Phi1"], 3))])

# %%
# numbers cited in the prose (glued; seed 0 at ci scale unless the prose says otherwise)
ost_over_st = med_ratio("w_ost", "w_ost0", 100)  # what the Orlicz root costs on top of Sobolev transport
for key, val in dict(cr100=count_ratio[i100], st100=st_ratio[i100], lp100=lp1_speed[i100], cr_first=count_ratio[0],
                     cr_last=count_ratio[-1], st_first=st_ratio[0], lp_first=lp1_speed[0], lp_last=lp1_speed[-1],
                     slope=loglog_slope(sizes, count_ratio), ost_over_st=ost_over_st, w_ost100=med("w_ost", 100),
                     w_ept100=med("w_ept", 100), lp_solves100=med("lp", 100),
                     pivots100=med("pivots", 100) / med("lp", 100), eps_count=eps_count, eps_st=eps_st,
                     eps_sink1=emed("w_eps", 100, "w_eps1"), eps_lp1=eps_lp1, eps_fixed=eps_fixed,
                     eps_gap=100 * eps_gap, eps_ctrl=eps_ctrl, w1_err=w1_err, w1_err_graph=w1_err_graph,
                     gap57_min=gap57.min(), tri=tri, tri_sq=tri_sq, rho0=rho["Phi0"], rho1=rho["Phi1"],
                     rho2=rho["Phi2"], rho_mass1=rho_mass["Phi1"], rho_st=rho_st, mass100=mass_speed[i100],
                     rel57_min=rel57.min(), rel57_med=np.median(rel57), gapt_min=gapt.min(), tol_t=tol_t.max(),
                     cw=count_ratio[i100] / wall_ratio[i100], cw_eps=eps_count / eps_wall,
                     min57_theta1=gap57_theta1.min()).items():
    glue(key, float(val), display=False)
for key, val in dict(n_first=sizes[0], n_last=sizes[-1], n_pairs=P.agree_pairs, n_eps=int(sel.sum()),
                     below57=int((gap57_ctrl < -1e-9).sum()), n_triples=P.n_triples,
                     below57_theta1=int((gap57_theta1 < -1e-9).sum()), below57_alpha1=int((gap57_alpha1 < -1e-9).sum()),
                     below57_nl=int((gap57_nl < -1e-9).sum()), tree_n=P.tree_n,
                     **{f"belowt_{i}": int((g < -tol_t).sum()) for i, g in enumerate(gapt_wrong.values())}).items():
    glue(key, int(val), display=False)

# %% [markdown]
# The wall-clock checks with this run's values. They move with machine load, so they are shown here but do
# not count towards the verdict; the checked speed claim is the counted-work ratio above.

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
# ```{repro-verdict}
# ```
#
# Five tests are recorded; not all of them count. Three are post hoc and do not move the badge until they are
# confirmed on seeds 10-19: `speed-count`, whose unit of work changed after the first run,
# `speed-count-entropic`, added with the authors' solver, and `ost-above-ept-tree`, added after the skeptic's
# review. The two pre-registered ones are `ost-above-ept`, a theorem test against an independent LP, and
# `rank-agreement`, our own plausibility check, not a claim of the paper. Values below are from seed 0 at ci
# scale; the judged table gives the other seeds.
#
# * *OST is much cheaper than Orlicz-EPT* ({repro-status}`speed-count`). At $n=100$ Orlicz-EPT solves about
#   {glue:text}`lp_solves100:.0f` exact OT problems of about {glue:text}`pivots100:.0f` simplex pivots each and
#   processes at least {glue:text}`w_ept100:.2e` array entries per pair, OST about {glue:text}`w_ost100:.0f`: a
#   counted ratio of {glue:text}`cr100:.0f` (criterion: at least 100), growing from {glue:text}`cr_first:.0f` at
#   $n=$ {glue:text}`n_first` to {glue:text}`cr_last:.0f` at $n=$ {glue:text}`n_last`. But Sobolev transport on
#   the same tree (the ablation) is {glue:text}`st100:.0f` times cheaper than Orlicz-EPT, and the mass difference
#   alone (the baseline) {glue:text}`mass100:.0f` times: both pass the same criterion. Any linear-time quantity on
#   the tree clears the bar; the speed comes from the tree, which OST shares with Sobolev transport. OST's Orlicz
#   root costs {glue:text}`ost_over_st:.1f` times Sobolev transport's single pass. In our setting the test cannot
#   single out the paper's ingredient; what it shows is that the Orlicz geometry is affordable on the tree, at a
#   small constant factor over the linear case. The sweep counts are {repro-seeds}`speed-count:method:pass` for
#   OST and {repro-seeds}`speed-count:ablation:pass` for Sobolev transport.
# * *The count does not track the clock.* The counted ratio is meant to measure what the clock does, within a
#   factor of 2 (`count-vs-wall`, band $[0.5, 2]$). Counted over wall-clock ratio is {glue:text}`cw:.2f` against
#   the exact solver in this run; between runs on a loaded machine it has ranged from just inside the band's upper
#   edge to well above it. Against the entropic solver it is {glue:text}`cw_eps:.1f`, far outside. The counted
#   unit fails its own consistency check for the entropic solver and mostly fails it for the exact one: it
#   overstates the wall-clock speed-up, by a factor of about {glue:text}`cw_eps:.0f` against the entropic
#   solver. The reason is in the timing table: OST's few entries are processed one Python-level call at a time,
#   the simplex's in compiled loops.
# * *Against the authors' solver* ({repro-status}`speed-count-entropic`). With entropic Orlicz-EPT
#   ($\varepsilon=0.1$, their bracket and bisection, {glue:text}`n_eps` pairs at $n=100$, so this status rests
#   on {glue:text}`n_eps` pairs) the counted ratio is {glue:text}`eps_count:.3g`. At this seed every comparator
#   passes too: Sobolev transport ({glue:text}`eps_st:.3g`), one Sinkhorn solve of plain EPT
#   ({glue:text}`eps_sink1:.0f`, close to the bar) and one exact OT solve of plain EPT ({glue:text}`eps_lp1:.3g`).
#   Against a solver this slow, anything that avoids the entropic search clears the bar of 100, so the test says
#   nothing about OST in particular. Counted with their fixed $10^4$ Sinkhorn iterations per solve, the ratio is
#   {glue:text}`eps_fixed:.3g`. The entropic $t^\star$ sat {glue:text}`eps_gap:.2f`% above the exact one
#   (median), so the two solvers answer slightly different questions.
# * *OST lies above EPT plus half the total mass* ({repro-status}`ost-above-ept`). This is the paper's
#   bound relating OST to EPT (the `paper` field of the test names the proposition); its proof is one line:
#   with $\alpha=0$ OST's dual feasible set contains EPT's, so its supremum is at least EPT's. With $\Phi_0$, OST
#   stays above the LP value of Orlicz-EPT plus
#   $\tfrac{b\lambda}2(\mu(G)+\nu(G))$ on all {glue:text}`n_pairs` pairs. On our graph with cycles the bound is
#   loose: the slack is at least {glue:text}`gap57_min:.2f` (relative to OST at least {glue:text}`rel57_min:.2f`,
#   median {glue:text}`rel57_med:.2f`). Slack makes a wrong, too-strong statement *harder* to refute, not easier.
#   The wrong inputs put this many of the {glue:text}`n_pairs` pairs below the bound: OST without its mass term
#   {glue:text}`below57`, $\alpha=1$ {glue:text}`below57_alpha1`, non-Lipschitz weights $w=3d_G(z_0,\cdot)+1$
#   {glue:text}`below57_nl`, and the plausible wrong coefficient $\Theta=1$ (the $b\lambda/2$ part forgotten)
#   only {glue:text}`below57_theta1` (its smallest gap {glue:text}`min57_theta1:.3f`). At some seeds that wrong
#   coefficient leaves no pair below the bound, and the test is then not specific; over the sweep the test is not
#   specific at {repro-seeds}`ost-above-ept:test:not-specific` seeds.
# * *The same bound where it is tight* ({repro-status}`ost-above-ept-tree`, post hoc). On a tree of
#   {glue:text}`tree_n` nodes the bound is an identity (our golden comparison with the authors' unbalanced Sobolev
#   transport code shows this; the paper states only the inequality): the gap is at least
#   {glue:text}`gapt_min:.1e`, within the bisection's tolerance (at most {glue:text}`tol_t:.1e`). Every wrong input
#   falls below the bound by more than that tolerance on this many of the {glue:text}`n_pairs` pairs: no mass
#   term {glue:text}`belowt_0`, $\Theta=1$ {glue:text}`belowt_1`, $\alpha=1$ {glue:text}`belowt_2`, non-Lipschitz
#   weights {glue:text}`belowt_3`. Both theorem tests may check a prior-work result: for $\Phi_0$ OST is the
#   authors' earlier unbalanced Sobolev transport, and we could not establish whether their earlier paper
#   already states this bound.
# * *Ranking* ({repro-status}`rank-agreement`). OST and Orlicz-EPT rank pairs alike (Spearman
#   {glue:text}`rho1:.2f` for $\Phi_1$; {glue:text}`rho0:.2f` for $\Phi_0$, {glue:text}`rho2:.2f` for
#   $\Phi_2$), but Sobolev transport ranks them as well ({glue:text}`rho_st:.2f`) and the mass difference alone
#   better ({glue:text}`rho_mass1:.2f`). With total masses drawn from $[0.7, 1.3]$ both distances are dominated
#   by their mass terms: the check says nothing about whether OST follows Orlicz-EPT's geometry.
#
# Shown, not counted: the growth of the counted ratio with $n$ (log-log slope {glue:text}`slope:.2f`), which
# follows from the two algorithms' known costs and reuses the counts above; OST on a tree against POT's exact
# $W_1$ (largest difference {glue:text}`w1_err:.1e`, an implementation check of a prior-work closed form; on the
# graph with cycles it differs from $W_1$ on $d_G$ by up to {glue:text}`w1_err_graph:.2f`, since OST sees the
# tree); and the triangle inequality on {glue:text}`n_triples` random triples (relative slack at least
#  {glue:text}`tri:.3f`, against {glue:text}`tri_sq:.2f` violation for the squared OST), which our formula
# obeys by construction. The wall-clock ratios are in the timings table and move with machine load.
#
# ## What a skeptic would try
#
# Reviewed by an independent skeptic (a helper that did not write the page, with the rubric, the page, the
# record and the brief; own scripts on seeds 0-9); what they tried is above and here, with the numbers this
# notebook measures (seed 0, ci scale):
#
# * **Is the Orlicz function what makes OST fast?** No: Sobolev transport on the same tree, with $\Phi_0$, is
#   {glue:text}`st100:.0f` times cheaper than exact Orlicz-EPT at $n=100$ (OST: {glue:text}`cr100:.0f`), and
#   {glue:text}`eps_st:.3g` times cheaper than the authors' entropic solver. The Orlicz root adds a factor of
#   {glue:text}`ost_over_st:.1f` to Sobolev transport's work.
# * **Does any linear-time quantity pass?** Yes: the mass difference alone is {glue:text}`mass100:.0f` times
#   cheaper than exact Orlicz-EPT, past the bar of 100. This replaces the page's earlier baseline, one exact OT
#   solve of plain EPT, which is only {glue:text}`lp100:.0f` times cheaper ({glue:text}`lp_first:.0f` at $n=$
#   {glue:text}`n_first`, {glue:text}`lp_last:.0f` at $n=$ {glue:text}`n_last`). That ratio is about the number
#   of LPs the bisection solves, set by its tolerance, so it fell below 100 by construction and said nothing.
#   Against the authors' entropic solver even one Sinkhorn solve ({glue:text}`eps_sink1:.0f`) and one exact
#   solve ({glue:text}`eps_lp1:.3g`) pass.
# * **Does the theorem test catch a plausible wrong kernel?** On the graph with cycles, not always: the mass
#   coefficient without its $b\lambda/2$ part puts only {glue:text}`below57_theta1` of {glue:text}`n_pairs` pairs
#   below the bound at this seed, and at some seeds none. On the tree, where the bound is tight, it puts
#   {glue:text}`belowt_1` below. The broken hypotheses fare the same way: on the graph with cycles $\alpha=1$ puts
#   {glue:text}`below57_alpha1` pairs below and non-Lipschitz weights {glue:text}`below57_nl`; on the tree
#   {glue:text}`belowt_2` and {glue:text}`belowt_3`. Hence the post hoc tree test. The reviewer also found that
#   with the page's bisection width the original criterion (gap $\ge -10^{-9}$) would fail on a tree from the
#   solver's tolerance alone; the tree test's
#   tolerance is derived from that width.
# * **Does OST track Orlicz-EPT, or just the masses?** The masses: $|\mu(G)-\nu(G)|$ alone has Spearman
#   {glue:text}`rho_mass1:.2f` with Orlicz-EPT ($\Phi_1$), OST {glue:text}`rho1:.2f`, Sobolev transport
#   {glue:text}`rho_st:.2f`.
# * **Is the bound new?** The reviewer confirmed that the bound is the paper's stated result, and that its
#   proof is the inclusion of the dual feasible sets. Whether the authors' earlier unbalanced Sobolev transport
#   paper already states it could not be established.
# * **A downstream task** (kNN or SVM accuracy with OST, Sobolev transport and exact unbalanced OT as kernels, as
#   the paper does) was not run: it would be a new, post hoc test and needs the paper's data to bear on its claim.
#
# ## What the miniature cannot show
#
# * The paper's downstream claims (document classification and topological data analysis with SVM kernels) and
#   its graphs of $10^3$-$10^4$ nodes built from word embeddings.
# * Whether the Orlicz geometry helps any task: all our tests are about cost or about agreement between
#   distances, and in our random measures the mass term dominates both distances.
# * The paper's wall-clock speed-ups of at least 13 800 times: our graphs are at most 200 nodes at ci scale
#   (800 at full), our timings leave out preprocessing, and the entropic solver runs on only a few pairs. The
#   counted ratio is a lower bound for Orlicz-EPT's work in array entries processed (the simplex's tree updates
#   are not counted), not a flop count.
#
# **What was hard.** The sign conventions of EPT: with the paper's calibrated cost, the EPT value
# $(\mu(G)+\nu(G))(t^\star-b\lambda)$ is often negative, because moving mass a short distance earns
# $b(\lambda-d)$; Proposition 5.7 is the right way to compare it with OST. And the bisection bracket: Jensen's
# inequality gives the lower end $W_{\hat c}/\Phi^{-1}(1)$ for free from one linear OT solve.
