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
# Orlicz (convex-function) geometry can be computed by a single one-dimensional root-finding problem, orders of
# magnitude faster than the Orlicz entropy partial transport problem it regularises, which needs a binary search
# over full optimal-transport solves.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import time

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
import ot
from scipy.stats import spearmanr

from repro.claims import Claims, at_least, at_most, between, greater_than, is_true, tolerance
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
# outside the timed region). The ratio of the two counts is the checked speed claim; the wall-clock ratio is
# measured too and set beside it, but only as a volatile value.
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
# * **Claim checks and their controls.** Each counted claim is checked twice under the same criterion: on the
#   method, and on a *control* for which the paper's claim should not hold; it counts only if the control fails.
#   - `speed-count`: median counted-work ratio Orlicz-EPT / OST at $n=100$ at least 100 (the brief's "> 100 on
#     $n=50$-$100$"). Control: *plain EPT*, the same LP without the Orlicz bisection (one exact OT solve, which is
#     what Orlicz-EPT reduces to for $\Phi_0$, Proposition 5.6), counted the same way against OST. The paper's
#     claim is that the *two-level* problem is what makes Orlicz-EPT slow, so a single OT solve should not be
#     100x OST's work at this size.
#   - `speed-count-growth`: the log-log slope of the work ratio against $n$ at least 0.8 (it should grow like
#     $n$: each EPT step is an OT problem on $(n+1)^2$ entries, OST is linear in the edges). Control: the same
#     slope with a baseline that is itself linear in the graph, OST with $\Phi_0$ (its closed form, one pass over
#     the edges), in place of Orlicz-EPT; that ratio should not grow.
#   - `tree-w1` (a theorem): with $\Phi_0$ and balanced measures on a tree, $\max|\mathrm{OST}-W_1|\le10^{-9}$,
#     $W_1$ from `ot.emd2` on the tree metric. Control (wrong input): the same comparison on the graph *with*
#     cycles of the agreement experiment, with $W_1$ on its shortest-path metric $d_G$; there OST measures the
#     tree's metric, not the graph's, so they should differ.
#   - `ost-above-ept` (a theorem): Proposition 5.7, $\mathrm{OS}\ge\mathrm{OE}+\tfrac{b\lambda}2(\mu(G)+\nu(G))$
#     for $\Phi_0$, on every pair. Control (wrong kernel): OST without its mass term $\Theta|\mu(G)-\nu(G)|$.
#   - `triangle` (a theorem, Proposition 5.1): the largest relative triangle violation over random triples at
#     most $10^{-9}$, for $\Phi_1$ and $\Phi_2$. Control (wrong kernel): the *squared* OST on the same triples, a
#     divergence that is not a metric.
#   - `rank-agreement`: Spearman $\rho(\mathrm{OST},\mathrm{OE})>0.6$ for $\Phi_1$ (a plausibility check of
#     ours, not a claim of the paper). Control: the mass difference $|\mu(G)-\nu(G)|$ alone, ranked against OE.
#   - `speed-count-entropic` (added for issue 11, flagged post hoc): the same count and criterion with the
#     authors' solver for Orlicz-EPT (entropic, $\varepsilon=0.1$, their bracket and search), on the first pairs
#     at $n=100$. Its control is one Sinkhorn solve of plain EPT.
#   - Shown but not counted (volatile): `speed-wall`, the median wall-clock ratio at $n=100$ above 100;
#     `speed-wall-largest`, the same at our largest graph; `count-vs-wall`, the counted ratio over the wall-clock
#     ratio at $n=100$, which should lie in $[0.5, 2]$ if the count measures what the clock does; and the same
#     two for the authors' solver (`speed-wall-entropic`, `count-vs-wall-entropic`).
#   - Moved to the unit tests: OST's symmetry for $w_1=w_2$. Both directions compute the same $|h_\mu-h_\nu|$
#     and the same $\Theta$, so the two values are bit-identical by construction of our code; it is an identity
#     of the implementation, not evidence for the paper.
#
# **Deviations from the paper**
#
# * Small synthetic graphs ($n\le 200$ at ci scale, $\le 800$ at full). The paper's speed comparison
#   (its Section 7.1, the numbers quoted above) uses graphs of $M=10^3$ nodes; its classification and TDA
#   experiments use $M=10^4$ nodes ($10^3$ for MPEG7). Its graphs are built from word embeddings or
#   persistence diagrams. We run no document-classification or TDA experiment, and no kNN robustness test with
#   outliers, which the brief proposed.
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
         "side")
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
                                        c_ept["t_star"], int(round(np.sqrt(N))))):
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
lin_ratio = np.array([med_ratio("w_ost", "w_ost0", n) for n in sizes])  # control: a linear-time baseline
wall_ratio = np.array([med_ratio("t_ept", "t_ost", n) for n in sizes])
print("median OT solves per Orlicz-EPT call:", {int(n): med("lp", n) for n in sizes})
print("median simplex pivots per OT solve:", {int(n): round(med("pivots", n) / med("lp", n)) for n in sizes})
print("median entries processed, OST:", {int(n): med("w_ost", n) for n in sizes})
print("median entries processed, Orlicz-EPT (lower bound):", {int(n): med("w_ept", n) for n in sizes})
print("median counted-work ratio EPT/OST:", dict(zip(sizes.tolist(), np.round(count_ratio).astype(int).tolist())))
print("control, one OT solve / OST:", dict(zip(sizes.tolist(), np.round(lp1_ratio, 1).tolist())))

# %% [markdown]
# The figure shows median wall-clock time per pair (left; bars span the pairs' min to max) and the ratios
# (right): the counted-work ratio we check, the wall-clock ratio beside it (it moves with machine load), and the
# counted ratio of the control, a single OT solve without the bisection. The diamonds are the authors' choice of
# solver for Orlicz-EPT (entropic, Sinkhorn with $\varepsilon=0.1$), run on the first pairs of size 100 (full
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
ax2.loglog(sizes, lp1_ratio, "^:", color="C7", label="control: one OT solve / OST")
ax2.loglog(esizes, [emed("w_eps", n, "w_ost") for n in esizes], "D", color="C4", label="counted, Sinkhorn (authors')")
ax2.axhline(100, color="k", lw=0.8, ls=":", label="100x")
ax2.set(xlabel="graph size $n$ (nodes)", ylabel="Orlicz-EPT / OST", title="speed-up")
ax2.legend(fontsize=8)
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
# (Proposition 5.7), so the left panel plots that shifted Orlicz-EPT against OST. Note that EPT values can be
# negative: moving mass costs $b(d-\lambda)$, which is below zero for nearby points.

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
gap57_ctrl = gap57 - theta * dmass  # control: OST without its mass term
rho = {name: float(spearmanr(v[:, 0], v[:, 1]).statistic) for name, v in vals.items()}
rho_mass = {name: float(spearmanr(dmass, v[:, 1]).statistic) for name, v in vals.items()}
print("Spearman rho(OST, Orlicz-EPT):", {k: round(v, 3) for k, v in rho.items()})
print("control, Spearman rho(|mu(G) - nu(G)|, Orlicz-EPT):", {k: round(v, 3) for k, v in rho_mass.items()})
print(f"Prop. 5.7 gap OST - (OE + tot/2) for Phi0: min {gap57.min():.4f}, median {np.median(gap57):.4f}")
print(f"control (OST without its mass term): min gap {gap57_ctrl.min():.4f}, "
      f"pairs below the bound {int((gap57_ctrl < -1e-9).sum())} of {len(pairs)}")

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
# numbers are kept as golden tests (`tests/papers/golden/orlicz-sobolev-transport.json`).
#
# **What agrees.**
#
# * *GST's univariate problem* ($\Phi_1$ and $\Phi_2$, four random rows of 20 edges): our `gst` gives their
#   objective's minimum to $2\times10^{-16}$ relative (first row: 3.1253938184575 for $\Phi_1$, 4.2007369117034
#   for $\Phi_2$).
# * *Unbalanced Sobolev transport*, $p=1$ and $p=2$. We ran their script with $a=b=\lambda=1$, $\alpha=0$ on a
#   24-node graph with cycles and on a 24-node tree, with six unbalanced measures. Our OST with $\Phi_0$ and with
#   $\Phi(t)=t^2/4$ (Propositions 5.4-5.5) equals their $US_p$ to within $2\times10^{-15}$. This includes the
#   mass term $\Theta|\mu(G)-\nu(G)|$ with $\Theta=1.5$.
# * *EPT's normalisation.* On the tree, their EPT expression ($US_1-\tfrac{b\lambda}{2}(\mu(G)+\nu(G))$) equals
#   our Orlicz-EPT with $\Phi_0$ to within $2\times10^{-12}$. Ours adds the point $\hat s$, rescales by
#   $\mu(G)+\nu(G)$, solves exact OT and bisects.
# * *Their entropic Orlicz solver*, given our balanced problem ($\hat\mu,\hat\nu,\hat c$ on a 12-node tree,
#   $\varepsilon=0.1$). Our entropic option (below) reproduces their $t^\star$ to within $5\times10^{-10}$
#   (1.36967149 for $\Phi_1$, 2.05745777 for $\Phi_2$), with the same number of Sinkhorn solves (24 and 25).
#
# **Where we depart from their code**, in method and defaults:
#
# * *The Orlicz-EPT solver.* Ours is the exact problem ($\varepsilon=0$): POT's network simplex (`ot.emd2`)
#   inside a bisection to relative width $10^{-6}$, with the bracket of Proposition 3.5 taken over the supports.
#   Theirs is entropic: log-domain Sinkhorn with $\varepsilon$ (0.1 in their timing) and a fixed $10^4$
#   iterations per solve. Their bracket is Proposition 3.5 with $\varepsilon$, their tolerance on $t$ is an
#   absolute $10^{-6}$, and they return the upper end. The two solve different problems. On the golden tree
#   $t^\star$ is 1.36424 (exact) against 1.36967 (theirs) for $\Phi_1$, +0.40%, and 2.05184 against 2.05746 for
#   $\Phi_2$, +0.27%. (The issue that asked for this comparison found 0.788 against 0.792 on another tree.)
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
#   (`sinkhorn_log_plan`, tested against `ot.bregman.sinkhorn_log`), because POT's numpy backend spends about
#   0.5 ms per call in scipy's `logsumexp` here. Work is counted both ways below.
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
# actually ran, and separately the $10^4$ per solve that their code runs. The control is the same as for the
# exact solver: one Sinkhorn solve of plain EPT (the linear cost), without the Orlicz search. The table sets
# these beside the paper's reported speed-ups, each row with its setting.

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
claims.check("speed-count", statement="At n = 100, Orlicz-EPT (bisection over exact OT) processes at least 100x "
             "more array entries than OST (median over pairs; a lower bound on EPT's work)",
             paper=PAPER_SPEED,
             criterion=at_least(100), measured=float(count_ratio[i100]),
             control=float(lp1_ratio[i100]),
             control_label="plain EPT: one exact OT solve of the same instance, no Orlicz bisection (Prop. 5.6)",
             tol=COUNT_TOL, post_hoc=POST_HOC_COUNT)
claims.check("speed-count-growth", statement="The counted work ratio Orlicz-EPT / OST grows about linearly with "
             "the graph size (log-log slope against n)", paper="OST is linear in edges; EPT solves OT of size n^2 "
             "per step", criterion=at_least(0.8), measured=round(loglog_slope(sizes, count_ratio), 2),
             control=round(loglog_slope(sizes, lin_ratio), 2),
             control_label="a baseline linear in the graph (OST with Phi0, closed form) in place of Orlicz-EPT",
             tol=tolerance(rel=0.1, abs=0.02, why="a slope of the counts above, which carry a 10% tolerance"),
             post_hoc=POST_HOC_COUNT)
claims.check("speed-wall", statement="Median wall-clock ratio Orlicz-EPT / OST at n = 100 (Phi1)",
             paper="several orders of magnitude faster", criterion=greater_than(100),
             measured=float(wall_ratio[i100]), volatile=True)
claims.check("speed-wall-largest", statement=f"Median wall-clock ratio at our largest graph, n = {sizes[-1]} (Phi1)",
             paper="several orders of magnitude faster", criterion=greater_than(100),
             measured=float(wall_ratio[-1]), volatile=True)
claims.check("count-vs-wall", statement="Counted-work ratio over wall-clock ratio at n = 100 (the count should "
             "track the clock within a factor of 2)", paper="not reported (our check of the count)",
             criterion=between(0.5, 2.0), measured=float(count_ratio[i100] / wall_ratio[i100]), volatile=True)
claims.check("speed-count-entropic", statement="At n = 100, entropic Orlicz-EPT as the authors' code computes it "
             "(log-domain Sinkhorn, eps = 0.1, their bracket and bisection; Sinkhorn stopped by POT's rule) processes at "
             "least 100x more array entries than OST (median over pairs; a lower bound on its work)",
             paper=PAPER_SPEED, criterion=at_least(100), measured=float(eps_count), control=float(eps_ctrl),
             control_label="plain entropic EPT: one Sinkhorn solve of the same instance, no Orlicz search",
             tol=tolerance(rel=0.1, why="Sinkhorn iteration counts follow a floating-point stopping test (marginal "
                           "error below 1e-9, checked every 10 iterations), which another machine's rounding can "
                           "move by a check or two"), post_hoc=POST_HOC_OFFICIAL)
claims.check("speed-wall-entropic", statement="Median wall-clock ratio entropic Orlicz-EPT (authors' solver) / OST "
             "at n = 100 (Phi1)", paper=PAPER_SPEED, criterion=greater_than(100), measured=float(eps_wall),
             volatile=True, post_hoc=POST_HOC_OFFICIAL)
claims.check("count-vs-wall-entropic", statement="Counted-work ratio over wall-clock ratio at n = 100 for the "
             "authors' solver (the count should track the clock within a factor of 2)",
             paper="not reported (our check of the count)", criterion=between(0.5, 2.0),
             measured=float(eps_count / eps_wall), volatile=True, post_hoc=POST_HOC_OFFICIAL)
claims.check("tree-w1", kind="theorem",
             statement="Linear Phi, balanced measures, on a tree: OST equals W1 from ot.emd2 (max abs difference)",
             paper="Prop. 5.5 (closed form); OST generalises tree-W1 / Sobolev transport",
             criterion=at_most(1e-9), measured=float(w1_err), control=float(w1_err_graph),
             control_label="wrong input: a graph with cycles, W1 on its shortest-path metric")
claims.check("ost-above-ept", kind="theorem",
             statement="Linear Phi: OST >= Orlicz-EPT + b*lam/2*(mu(G)+nu(G)) on every pair",
             paper="Proposition 5.7", criterion=is_true("all pairs"), measured=bool(gap57.min() >= -1e-9),
             control=bool(gap57_ctrl.min() >= -1e-9),
             control_label="wrong kernel: OST without its mass term Theta*|mu(G) - nu(G)|")
claims.check("triangle", kind="theorem",
             statement="OST obeys the triangle inequality (max over triples of (d_ac - d_as - d_sc) / d_ac; "
             "negative = slack)", paper="Prop. 5.1(ii)", criterion=at_most(1e-9), measured=round(float(tri), 4),
             control=round(float(tri_sq), 4), control_label="wrong kernel: squared OST on the same triples")
claims.check("rank-agreement", statement="OST and Orlicz-EPT rank pairs alike (Spearman rho, Phi1)",
             paper="not reported (our plausibility check)", criterion=greater_than(0.6), measured=round(rho["Phi1"], 3),
             control=round(rho_mass["Phi1"], 3), control_label="the mass difference |mu(G) - nu(G)| alone")

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
# **Reproduced at our scale, each against a control that fails: the speed claim as counted work and its growth
# with the graph (both measured in a new way since the page first ran, and flagged so), and three of the paper's
# propositions. Our own ranking check is uninformative. So is the speed check against the authors' own solver
# for Orlicz-EPT (entropic, $\varepsilon=0.1$), run beside ours since issue 11 (flagged post hoc).** Against that
# solver the counted speed-up is far larger, about 270 000 at $n=100$. But one Sinkhorn solve alone already costs
# about 2 000 times OST's work, so the check cannot show that the two-level problem is what costs. The evidence
# is thin in one respect: the speed claims are the only empirical tests of the paper here. The other three
# counted checks demonstrate propositions the paper proves, and their controls show only that the checks would
# catch a wrong kernel or input.
#
# * *Speed.* Per pair at $n=100$ OST processes about 1 400 array entries (its subtree product and about twenty
#   passes of the root finder over some fifty active edges), while Orlicz-EPT solves about 23 exact OT
#   problems of about 500 simplex pivots each and processes at least about $10^6$ entries: a counted ratio of
#   about 690 (at least 100: reproduced), growing from about 135 at $n=25$ to about 1 370 at $n=200$ (log-log
#   slope 1.1 at ci scale). The controls fail, as they should: a single exact OT solve of the same instance,
#   without the Orlicz bisection, costs only about 25x OST's work at $n=100$ (5 to 47 over our sizes), so the
#   factor of 100 comes from the two-level problem the paper blames; and against a baseline that is itself linear
#   in the graph (OST's $\Phi_0$ closed form) the ratio does not grow (slope $-0.08$).
# * *Count against clock.* In the runs of this version of the page so far, the wall-clock ratio at $n=100$ was
#   between about 90 and 540, on a 2-core machine shared with other jobs whose load varied by a factor of
#   several (the page's first version recorded 64). The counted ratio over the wall-clock ratio was between
#   about 1.3 and 7.5; this run's value is `count-vs-wall` in the timings above. The count tracks the clock to
#   about a factor of two on a quieter machine and drifts further under heavy load, always in the direction of
#   overstating the speed-up. What the count does not see:
#   OST's few hundred entries are processed by numpy calls issued one root-finder step at a time, so its time
#   per entry carries the interpreter's fixed cost per call (about 1 µs per entry at $n=25$, 0.1-0.4 µs at
#   $n\ge100$ in the timing table), and the simplex's tree updates and POT's per-call overhead are left out of
#   Orlicz-EPT's lower bound. At $n=25$ the count *under*states the clock ratio; from $n=100$ on it overstates
#   it by up to about 2. The paper's $\ge$ 13 800x for $\Phi_1$ (wall clock, $10^3$ nodes, Sinkhorn inside the
#   bisection) is beyond our sizes. At full scale ($n$ up to 800, ten pairs per size, seed 0; the last column of
#   the table "Across seeds and scales") the counted ratio keeps growing with $n$ at about the ci slope while its
#   control's does not, and the count overstates the clock at $n=100$ by a factor of about 2.5 (volatile). The
#   wall-clock ratio at $n=800$ moves with the machine's load: about 8 400 in an earlier full run, about 2 700 in
#   the sweep's run beside a dozen other jobs. Our baseline uses the exact network simplex,
#   much faster than Sinkhorn at these sizes, so our ratios are *conservative*; the next point measures by how
#   much.
# * *Against the authors' solver (issue 11; two pairs at $n=100$).* Entropic Orlicz-EPT as their code runs it
#   ($\varepsilon=0.1$, their bracket and bisection) makes 24 Sinkhorn solves per pair, where the exact search
#   makes about 23 LP solves. But the Sinkhorn solves took about 5 000 and 22 000 iterations per pair in total,
#   on matrices of side about 75 (the union of the supports, printed above). Counted, that is about 270 000
#   times OST's work (the exact solver: about 690). The control, one Sinkhorn solve of plain EPT, is already
#   about 2 000 times OST's work, so the criterion of 100 cannot tell the two-level problem from the entropic
#   inner solver: the check is uninformative, not a failure. Counted as their code runs it, with a fixed $10^4$
#   Sinkhorn iterations per solve, the ratio is about 4.6 million. In wall clock it was of the order of $10^4$:
#   from a few thousand to about 32 000 across our runs, on a machine whose load moved it by a factor of
#   several (this run's value is `speed-wall-entropic` in the timings above). That is the order of the paper's
#   $\ge$13 800 for $\Phi_1$ (below it in some runs, above in others), at one tenth of its graph size and
#   without its preprocessing. Count and clock disagree here by a factor of roughly 10 to 60
#   (`count-vs-wall-entropic`, volatile, outside $[0.5, 2]$), for the reason given above for OST: its few
#   hundred entries cost hundreds of nanoseconds each in Python calls, while Sinkhorn's passes over a dense
#   matrix cost tens of nanoseconds per entry. The two solvers also answer different questions: the entropic
#   $t^\star$ sat 0.76% above the exact one (median of the two pairs; +0.40% on the golden tree). So the inner
#   solver decides the size of the speed-up as much as the Orlicz search does: with the exact simplex the ratio
#   at $n=100$ is in the hundreds, with the authors' Sinkhorn about $10^4$ in wall clock and $10^5$ counted.
#   The full-scale run (three pairs at $n=100$; the table's last column) agrees: the counted ratio and its
#   control are of the same orders as at ci (again uninformative), the wall clock was again about $3\cdot10^4$,
#   the count with the authors' fixed iterations about 4.6 million, and the entropic $t^\star$ sat 0.88% above
#   the exact one.
# * *Special cases (theorems).* With $\Phi(t)=t$ and balanced measures on a tree, OST equals POT's exact
#   1-Wasserstein distance to below $10^{-12}$; on the graph with cycles (the control) it differs from $W_1$ on
#   the graph's metric by up to 0.66, as it should, since OST sees the tree. Proposition 5.7's lower bound holds
#   on every pair with slack at least 0.27, while OST without its mass term falls below the bound on 4 of 20
#   pairs. The closed forms for $\Phi=t^p$ (Sobolev transport) and the reduction to GST for equal masses hold in
#   the unit tests.
# * *Geometry (theorem).* The triangle inequality held on every random triple with relative slack at least
#   0.098; the squared OST, which is not a metric, violates it by up to 0.39 on the same triples. Symmetry for
#   $w_1=w_2$ is now a unit test: in our code the two directions are bit-identical by construction.
# * *Agreement: uninformative.* OST and Orlicz-EPT rank pairs similarly (Spearman $\rho$ 0.79 for $\Phi_1$ and
#   $\Phi_2$, 0.66 for $\Phi_0$ at ci scale; 0.90, 0.94 and 0.77 over 100 pairs at full scale),
#   but the mass difference $|\mu(G)-\nu(G)|$ *alone* ranks them better (0.96, 0.99 and 0.82 at ci scale). With
#   total masses drawn from $[0.7, 1.3]$ both quantities are dominated by their mass terms, so this check says
#   nothing about whether OST follows EPT's geometry; it is shown and not counted.
#
# **What the miniature cannot show.** Nothing here tests the paper's downstream claims (document
# classification and topological data analysis with SVMs), nor graphs with $10^3$-$10^4$ nodes. The entropic
# variant of Orlicz-EPT that the paper times runs here only on two pairs at ci scale (three pairs at each of
# $n$ = 50, 100 and 200 at full scale). The counted ratio is a lower bound for Orlicz-EPT's work in
# array entries processed (the simplex's tree updates are not counted), not a flop count.
#
# **What was hard.** The sign conventions of EPT: with the paper's calibrated cost, the EPT value
# $(\mu(G)+\nu(G))(t^\star-b\lambda)$ is often negative, because moving mass a short distance earns
# $b(\lambda-d)$; Proposition 5.7 is the right way to compare it with OST. And the bisection bracket: Jensen's
# inequality gives the lower end $W_{\hat c}/\Phi^{-1}(1)$ for free from one linear OT solve.
