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

from repro.claims import Claims, at_least, at_most, greater_than, is_true
from repro.papers import orlicz_sobolev_transport as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    "ci": dict(sizes=(25, 50, 100, 200), timing_pairs=5, n_agree=50, agree_pairs=20, n_triples=200, tree_n=60),
    "full": dict(sizes=(25, 50, 100, 200, 400, 800), timing_pairs=10, n_agree=100, agree_pairs=100,
                 n_triples=1000, tree_n=200),
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
# **Counting work.** OST's cost is counted as the number of $\Phi$ evaluations (objective evaluations times
# edges that carry a difference). Orlicz-EPT's is counted as the number of cost entries $\Phi(\hat c/t)$ it
# forms, (number of OT solves) $\times\,(n+1)^2$: a *lower bound* on its work, since the network simplex must at
# least read its cost matrix. Both counts are deterministic; their ratio is the checked speed claim. Wall-clock
# times are measured too, and shown, but only as volatile values.

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
# * **Claim checks (fixed before the run):** `speed-count` median counted-work ratio at $n=100$ at least 100
#   (the brief's "> 100 on $n=50$-$100$"); `speed-count-growth` log-log slope of that ratio against $n$ at least
#   0.8 (it should grow like $n$); `speed-wall` (volatile) median wall-clock ratio at $n=100$ above 100;
#   `speed-wall-largest` (volatile) the same at our largest graph; `tree-w1` $\max|\mathrm{OST}_{\Phi_0}-W_1|\le
#   10^{-9}$; `ost-above-ept` Proposition 5.7 ($\mathrm{OS}\ge\mathrm{OE}+\tfrac{b\lambda}2(\mu(G)+\nu(G))$ for
#   $\Phi_0$) on every pair; `symmetry` and `triangle` violations at most $10^{-9}$; `rank-agreement` Spearman
#   $\rho(\mathrm{OST},\mathrm{OE})>0.6$ for $\Phi_1$ (a plausibility check of ours, not a claim of the paper).
#
# **Deviations from the paper**
#
# * Small synthetic graphs ($n\le 200$ at ci scale, $\le 800$ at full) instead of $10^4$-node graphs built from
#   word embeddings or persistence diagrams; no document-classification or TDA experiment (and no kNN
#   robustness test with outliers, which the brief proposed).
# * Orlicz-EPT is solved with the *exact* network simplex inside the bisection, not with Sinkhorn at
#   $\varepsilon=0.1$. This is the stronger baseline at our sizes (POT's C++ simplex on $\le 801$ points is
#   fast), so our wall-clock ratios are expected to be smaller than the paper's.
# * Measures are charged on all node types alike and dense (half of the nodes); the paper's measures are sparse
#   word histograms.
# * OST's root is found by bracketing plus Brent's method on the stationarity condition; the paper does not
#   say which univariate solver it uses.

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
# For each size we draw one graph and a few pairs, and run both methods with $\Phi_1$.

# %%
speed = {k: [] for k in ("n", "t_ost", "t_ept", "c_ost", "c_ept", "lp")}
for n in progress(P.sizes, desc="sizes"):
    G, T, D, w = instance(n)
    M = K.random_unbalanced_measures(n, 2 * P.timing_pairs, rng)
    for i in range(P.timing_pairs):
        (v_ost, c_ost), t_ost = timed(K.ost, M[2 * i], M[2 * i + 1], T, K.PHI1)
        (v_ept, c_ept), t_ept = timed(K.orlicz_ept, M[2 * i], M[2 * i + 1], D, w, w, K.PHI1)
        for key, val in zip(speed, (n, t_ost, t_ept, c_ost, c_ept["cost_entries"], c_ept["lp"])):
            speed[key].append(val)
speed = {k: np.array(v) for k, v in speed.items()}
sizes = np.array(P.sizes)


def med(key, n):
    return float(np.median(speed[key][speed["n"] == n]))


count_ratio = np.array([med("c_ept", n) / med("c_ost", n) for n in sizes])
wall_ratio = np.array([float(np.median((speed["t_ept"] / speed["t_ost"])[speed["n"] == n])) for n in sizes])
print("median OT solves per Orlicz-EPT call:", {int(n): med("lp", n) for n in sizes})
print("median counted-work ratio EPT/OST:", dict(zip(sizes.tolist(), np.round(count_ratio, 1).tolist())))

# %% [markdown]
# The figure shows median wall-clock time per pair (left; bars span the pairs' min to max) and the two ratios
# (right). The counted ratio is what we check; the wall-clock ratio moves with machine load.

# %%
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9.5, 3.8))
for key, label, c in (("t_ost", "OST (univariate root)", "C0"), ("t_ept", "Orlicz-EPT (bisection + exact OT)", "C1")):
    m = np.array([med(key, n) for n in sizes])
    lo = np.array([speed[key][speed["n"] == n].min() for n in sizes])
    hi = np.array([speed[key][speed["n"] == n].max() for n in sizes])
    ax1.errorbar(sizes, m, yerr=[m - lo, hi - m], fmt="o-", color=c, capsize=3, label=label)
ax1.set(xscale="log", yscale="log", xlabel="graph size $n$ (nodes)", ylabel="time per pair (s)",
        title=r"runtime, $\Phi_1(t)=e^t-t-1$")
ax1.legend()
ax2.loglog(sizes, count_ratio, "s-", color="C2", label="counted work (checked)")
ax2.loglog(sizes, wall_ratio, "o--", color="C3", label="wall clock (volatile)")
ax2.axhline(100, color="k", lw=0.8, ls=":", label="100x")
ax2.set(xlabel="graph size $n$ (nodes)", ylabel="Orlicz-EPT / OST", title="speed-up")
ax2.legend()
for ax in (ax1, ax2):
    ax.set_xticks(sizes, labels=[str(n) for n in sizes])
    ax.xaxis.set_minor_locator(plt.NullLocator())
plt.show()

# %%
i100 = int(np.where(sizes == 100)[0][0])
print("Timing table (wall clock, one thread; volatile)")
for n, ro, re, cr in zip(sizes, [med("t_ost", n) for n in sizes], [med("t_ept", n) for n in sizes], wall_ratio):
    print(f"  n={n:4d}  OST {ro * 1e3:8.3f} ms   Orlicz-EPT {re * 1e3:9.2f} ms   ratio {cr:7.1f}")

# %% [markdown]
# ### Agreement, special cases and geometry
#
# On one graph of $n$ = `n_agree` nodes we compute OST and Orlicz-EPT for every pair and all three
# N-functions. For $\Phi_0$ the paper proves $\mathrm{OS}\ge\mathrm{OE}+\tfrac{b\lambda}{2}(\mu(G)+\nu(G))$
# (Proposition 5.7), so the right panel plots that shifted Orlicz-EPT against OST. Note that EPT values can be
# negative: moving mass costs $b(d-\lambda)$, which is below zero for nearby points.

# %%
G, T, D, w = instance(P.n_agree)
M = K.random_unbalanced_measures(P.n_agree, 2 * P.agree_pairs, rng)
pairs = [(M[2 * i], M[2 * i + 1]) for i in range(P.agree_pairs)]
vals = {name: np.array([[K.ost(a, c, T, phi)[0], K.orlicz_ept(a, c, D, w, w, phi)[0]] for a, c in pairs])
        for name, phi in progress(PHIS.items(), desc="agreement")}
tot = np.array([a.sum() + c.sum() for a, c in pairs])
gap57 = vals["Phi0"][:, 0] - (vals["Phi0"][:, 1] + 0.5 * tot)
rho = {name: float(spearmanr(v[:, 0], v[:, 1]).statistic) for name, v in vals.items()}
print("Spearman rho(OST, Orlicz-EPT):", {k: round(v, 3) for k, v in rho.items()})
print(f"Prop. 5.7 gap OST - (OE + tot/2) for Phi0: min {gap57.min():.4f}, median {np.median(gap57):.4f}")

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
print(f"tree: {nx.is_tree(Gt)}, max |OST_Phi0 - W1 (ot.emd2)| over {P.agree_pairs} pairs = {w1_err:.2e}")

# %% [markdown]
# **Divergence properties.** Symmetry and the triangle inequality on random triples ($\Phi_1$ and $\Phi_2$).
# Violations are reported relative to the distances involved.

# %%
Mtri = K.random_unbalanced_measures(P.n_agree, 3 * P.n_triples, rng).reshape(P.n_triples, 3, -1)
asym, tri = 0.0, -np.inf
for phi in (K.PHI1, K.PHI2):
    for a, c, s in Mtri:
        d_ac, d_ca = K.ost(a, c, T, phi)[0], K.ost(c, a, T, phi)[0]
        d_as, d_sc = K.ost(a, s, T, phi)[0], K.ost(s, c, T, phi)[0]
        asym = max(asym, abs(d_ac - d_ca) / d_ac)
        tri = max(tri, (d_ac - d_as - d_sc) / d_ac)
same = K.ost(Mtri[0, 0], Mtri[0, 0], T, K.PHI1)[0]
print(f"max relative asymmetry {asym:.1e}; max relative triangle violation {tri:.2e} (negative = slack); OST(mu,mu) = {same}")

# %% [markdown]
# ### Checks

# %%
claims.check("speed-count", statement="At n = 100, Orlicz-EPT (bisection over exact OT) forms at least 100x more "
             "Phi evaluations than OST (median over pairs; a lower bound on EPT's work)",
             paper=">= 250x (Phi0), 13 800x (Phi1), 11 200x (Phi2) in wall-clock time on 1000-node graphs",
             criterion=at_least(100), measured=float(count_ratio[i100]))
claims.check("speed-count-growth", statement="The counted work ratio grows about linearly with the graph size "
             "(log-log slope against n)", paper="OST is linear in edges; EPT solves OT of size n^2 per step",
             criterion=at_least(0.8), measured=round(loglog_slope(sizes, count_ratio), 2))
claims.check("speed-wall", statement="Median wall-clock ratio Orlicz-EPT / OST at n = 100 (Phi1)",
             paper="several orders of magnitude faster", criterion=greater_than(100),
             measured=float(wall_ratio[i100]), volatile=True)
claims.check("speed-wall-largest", statement=f"Median wall-clock ratio at our largest graph, n = {sizes[-1]} (Phi1)",
             paper="several orders of magnitude faster", criterion=greater_than(100),
             measured=float(wall_ratio[-1]), volatile=True)
claims.check("tree-w1", statement="Linear Phi, balanced measures, on a tree: OST equals W1 from ot.emd2",
             paper="Prop. 5.5 (closed form); OST generalises tree-W1 / Sobolev transport",
             criterion=at_most(1e-9), measured=float(w1_err))
claims.check("ost-above-ept", statement="Linear Phi: OST >= Orlicz-EPT + b*lam/2*(mu(G)+nu(G)) on every pair",
             paper="Proposition 5.7", criterion=is_true("all pairs"), measured=bool(gap57.min() >= -1e-9))
claims.check("symmetry", statement="OST is symmetric (max relative asymmetry, Phi1 and Phi2)",
             paper="Prop. 5.1: a metric when w1(z0) = w2(z0)", criterion=at_most(1e-9), measured=float(asym))
claims.check("triangle", statement="OST obeys the triangle inequality (max over triples of (d_ac - d_as - d_sc) / d_ac; negative = slack)",
             paper="Prop. 5.1(ii)", criterion=at_most(1e-9), measured=round(float(tri), 4))
claims.check("rank-agreement", statement="OST and Orlicz-EPT rank pairs alike (Spearman rho, Phi1)",
             paper="not reported (our plausibility check)", criterion=greater_than(0.6), measured=round(rho["Phi1"], 3))

# %% [markdown]
# The two wall-clock checks with this run's values. They move with machine load, so they are shown here but do
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
# **Reproduced at our scale: the speed claim (as counted work, with the wall clock agreeing), the special
# cases and the geometry.**
#
# * *Speed.* OST's work per pair is one sparse product $S^\top(\mu-\nu)$ and about ten evaluations of a
#   sum over edges; Orlicz-EPT needs about 23 exact OT solves of size $(n+1)^2$ per pair (the bisection to
#   relative width $10^{-6}$). The counted-work ratio passes 100 between $n=25$ and $n=50$ and grows about
#   linearly in $n$ (about 250 at $n=100$, 500 at $n=200$ at ci scale); the wall-clock ratio follows the same
#   trend (timing table above), though at $n=100$ it sits close enough to 100 (between about 120 and 190 in
#   runs on a quiet machine, as low as about 60 with another notebook running beside it) for machine load to matter, which is why the count is the checked number. In one full-scale run
#   ($n$ up to 800) the counted ratio reached about 1 950 and the wall-clock ratio about 4 800 at $n=800$: the
#   clock grows faster than the count because the network simplex needs more than one pass over its cost
#   matrix. That is within a factor of about three of the paper's $\ge$ 13 800x for $\Phi_1$ at $10^3$ nodes. The paper's
#   larger factors (and its days of compute) also come from running Sinkhorn inside the bisection, where we use
#   the exact network simplex, which is much faster at these sizes; our ratios are therefore *conservative*.
# * *Special cases.* With $\Phi(t)=t$ and balanced measures on a tree, OST equals POT's exact
#   1-Wasserstein distance to machine precision; the closed forms for $\Phi=t^p$ (Sobolev transport) and the
#   reduction to GST for equal masses hold in the unit tests; Proposition 5.7's lower bound holds on every pair,
#   with visible slack (left panel of the agreement figure).
# * *Geometry.* OST is exactly symmetric and satisfied the triangle inequality on every random triple.
# * *Agreement.* OST and Orlicz-EPT are different quantities (OST's regularisation replaces EPT's pointwise
#   bounds on the critic by a bound at the root and an Orlicz-norm bound on its derivative), but they rank
#   pairs similarly (Spearman $\rho\approx0.8$ for $\Phi_1,\Phi_2$ and $0.66$ for $\Phi_0$ at ci scale; 0.90,
#   0.94 and 0.77 over 100 pairs at full scale).
#
# **What the miniature cannot show.** Nothing here tests the paper's downstream claims (document
# classification and topological data analysis with SVMs), nor graphs with $10^4$ nodes, nor the entropic
# variant of Orlicz-EPT the paper times. The counted ratio is a lower bound for Orlicz-EPT's work (it ignores
# the simplex pivots), which is why we check it rather than the wall clock; it is not a flop count.
#
# **What was hard.** The sign conventions of EPT: with the paper's calibrated cost, the EPT value
# $(\mu(G)+\nu(G))(t^\star-b\lambda)$ is often negative, because moving mass a short distance earns
# $b(\lambda-d)$; Proposition 5.7 is the right way to compare it with OST. And the bisection bracket: Jensen's
# inequality gives the lower end $W_{\hat c}/\Phi^{-1}(1)$ for free from one linear OT solve.
