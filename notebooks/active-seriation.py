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
# # Active seriation: ordering items from noisy similarity queries
#
# *The paper says that a learner that chooses which pairs of items to compare can recover a hidden order
# exactly, with high probability, from about $n\log n\,\sigma^2/\Delta^2$ noisy similarity queries. We test
# an illustrative active algorithm of our own against its non-adaptive ablation, spectral seriation on passively
# sampled pairs (with the missing pairs completed where the budget cannot cover them all), and a naive two-stage
# active scheme. Our algorithm recovers the order, but in our runs passive spectral seriation does as well at
# the same budget, so nothing here shows that choosing the pairs is needed.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue
from scipy.stats import norm

from repro.claims import Claims, Comparator, at_least, between, less_than, tolerance
from repro.papers import active_seriation as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    # CPU time on one thread, imports and comparators included (wall time is longer on a loaded machine):
    # about 11 s at ci (measured): two sizes, 200 trials per point, half-octave budget grid, low-noise test at n = 80
    "ci": dict(ns=(20, 40), trials=200, grid=(12, 34), exp_grid=(8, 24)),
    # about 8 min of CPU (estimated from per-point profiles): four sizes up to n = 160, 1000 trials per point
    "full": dict(ns=(20, 40, 80, 160), trials=1000, grid=(12, 34), exp_grid=(8, 24)),
})
claims = Claims(
    "active-seriation",
    title="Active Seriation: Efficient Ordering Recovery with Statistical Guarantees",
    authors="James Cheshire, Yann Issartel",
    paper_url="https://arxiv.org/abs/2603.15336",
    scale=scale, seed=seed,
)
SIGMA = 0.1               # noise standard deviation of one query
N_CAL = 20                # the size at which the budget constant c is calibrated
N_TEST = max(P.ns)        # the size at which the calibrated budget is tested
LEVEL = 0.9               # success level of the budget scaling study
FACTORS = np.arange(0.5, 2.001, 0.125)  # multiples of the calibrated budget for the error-decay fit
N_LOW = 80                # the low-noise test: the smallest of the brief's sizes at which our algorithm accepts
RATIO_LOW = 0.5           # a budget below n(n-1)/2; sigma/Delta at the edge of the low-noise regime

# %% [markdown]
# ## The claim
#
# *Seriation* asks for the order of $n$ items when all one sees are pairwise similarities that
# are larger for items close together in the order, in archaeology (graves ordered by shared
# artefacts), genome assembly (reads ordered by overlap) or clock synchronisation. In the *active*
# version the learner chooses, one query at a time, which pair to measure, and each measurement is
# noisy. The paper proposes an active algorithm that recovers the exact order with high probability,
# and proves that its error probability and its number of queries are optimal, under a *uniform
# separation* condition on the similarities (the arXiv version also lets the learner start from a
# partial order).
#
# What we know of the paper: its abstract, the arXiv listing
# ([2603.15336](https://arxiv.org/abs/2603.15336), probably the extended version of the NeurIPS 2025
# paper; the NeurIPS listing itself was not found) and the opening words of its main theorem. The
# algorithm, the exact rates and the constants were not available, the paper reports no numbers that we
# could retrieve, and we found no official code. **This page therefore tests an illustrative active
# algorithm that we designed from the reproduction brief, not the paper's algorithm**, and its tests
# are qualitative stand-ins for the paper's theorems: exact recovery at a budget of order
# $n\log n\,\sigma^2/\Delta^2$, an error probability that falls exponentially in the number of samples per
# item, and a budget that grows about linearly in $n$. That active queries beat passive observation is
# *not* in the abstract: it is the brief's expectation (its check 1: passive at least $0.3$ below active),
# and we test it as such.
#
# **The paper's headline claims, in our words** (mapped to the tests in the claims cell below):
#
# 1. An active learner that chooses its pairs recovers the exact order with high probability (tested on
#    our algorithm: `calibrated-budget-recovers`, and the post-hoc `recovers-below-all-pairs`).
# 2. Its error probability is optimal. Untestable here: optimality needs a lower bound and the paper's
#    rate, neither of which we have; we only illustrate the exponential decay, which any estimator built on
#    averages of Gaussian noise shows.
# 3. The number of observations it needs is optimal, of order $n\log n\,\sigma^2/\Delta^2$. Untestable
#    for the same reason; the growth of our algorithm's budget with $n$ is an illustration.
# 4. The algorithm can start from partial knowledge of the order (arXiv version). Untestable: we
#    implement seriation from scratch only.
#
# ## The method
#
# **Model.** Item $i$ sits at position $\pi_i$ of a hidden order. The similarity of two items is
# $M_{ij} = g(|\pi_i-\pi_j|)$ for a decreasing profile $g$ (a permuted *Robinson* matrix), with
# uniform separation $g(k)-g(k+1)\ge\Delta$ for every $k$. A query of $(i,j)$ returns
# $M_{ij}+\varepsilon$ with $\varepsilon\sim N(0,\sigma^2)$, independent across queries. The goal is the
# order up to reversal (the data cannot tell a sequence from its mirror image).
#
# **Our active algorithm** (fixed budget $B$; `K.active_seriation`) rests on two facts about Robinson
# matrices.
#
# 1. *The least similar item to any pivot is an end of the order*: $g(|\pi_a-\pi_j|)$ is smallest where
#    $|\pi_a-\pi_j|$ is largest, at position $0$ or $n-1$. A quarter of the budget finds it on the pivot's
#    row by *sequential halving* (Karnin, Koren and Somekh, 2013): $\lceil\log_2(n-1)\rceil$ rounds, each
#    spending its share evenly over the surviving entries and keeping the half with the lowest running
#    means; the last round resamples the two best candidates.
# 2. *The row of an end is monotone along the order*: if $\pi_e=0$ then $M_{ej}=g(\pi_j)$ decreases
#    strictly with $\pi_j$, by at least $\Delta$ per step, so sorting the $n-1$ estimated entries
#    $\bar y_{ej}$ gives the order. The rest of the budget goes to that row: half of it uniformly, the
#    other half in three rounds, each spread over the entries whose interval
#    $\bar y_{ej}\pm 2\sigma/\sqrt{k_j}$ still overlaps a neighbour's in the current sorted order (a
#    fixed-budget form of successive elimination).
#
# The algorithm queries about $2n$ distinct pairs. Sorting fails only if two neighbours in the order
# swap, and with $k$ samples per entry a swap has probability $\Phi(-\Delta\sqrt{k/2}/\sigma)$, so by a
# union bound
#
# $$ P(\text{error}\mid\text{end found}) \;\le\; (n-2)\,\Phi\!\Big(-\frac{\Delta}{\sigma}\sqrt{k/2}\Big)
#    \;\approx\; n\,e^{-k\Delta^2/(4\sigma^2)}, $$
#
# which is small once $k\approx 4(\sigma^2/\Delta^2)\ln n$, a total of order $n\ln n\,\sigma^2/\Delta^2$
# queries (our back-of-the-envelope version of the brief's $O(n\,\sigma^2/\Delta^2\log(n/\delta))$). The
# same bound says that $\log P(\text{error})$ falls linearly in the number of samples per item.
#
# **Its ablation** (`adaptive=False`): the same two rows, each sampled *uniformly*: one round spread evenly
# over the pivot's row, whose smallest mean is taken as the end, then one round spread evenly over the end's
# row. It keeps the endpoint idea and drops the adaptive allocation (sequential halving and the elimination
# rounds), the part of the algorithm that decides *how many* times to query each pair.
#
# **The passive baseline** (the brief's) spreads the same budget uniformly over all $n(n-1)/2$ pairs,
# averages, and applies *spectral seriation* (`K.spectral_seriation`): sort the Fiedler vector
# (eigenvector of the second smallest eigenvalue) of the Laplacian $L=\operatorname{diag}(S\mathbf 1)-S$ of
# the averaged matrix $S$. For a noiseless Robinson matrix with positive entries the Fiedler vector is
# monotone along the order (Atkins, Boman and Hendrickson, 1998), so this recovers the order exactly
# without noise.
#
# **A naive active baseline** (`K.refine_seriation`, ours, not from the paper): what a skeptic would try
# before a purpose-built algorithm. Half the budget goes passively to all pairs and spectral seriation orders
# the average; the other half goes evenly to the pairs at most two apart in that order (the entries that decide
# swaps of near neighbours); both stages are averaged together and spectral seriation is applied again.
#
# ## The experiment
#
# * **Data.** Profile $g(k)=1-k/n$, so $\Delta=1/n$ and all entries lie in $(0,1]$; $\sigma=0.1$;
#   a fresh uniform hidden order in every trial (the post-hoc low-noise test: $\sigma=0.5/n$, see below).
#   For this profile the problem depends on $\sigma$ and
#   $\Delta$ only through $\sigma/\Delta=\sigma n$ (multiply the data by $n$), and every method here is
#   unchanged by an affine map of the similarities, so we report budgets in units of $\sigma^2/\Delta^2$:
#   the **normalised budget** $b=B\,\Delta^2/\sigma^2$. At $n=20$, $b=100$ means $B=400$ queries. With $\sigma$
#   fixed, the ratio $\sigma/\Delta=\sigma n$ grows with $n$ (2 at $n=20$, 16 at $n=160$). *Correction made
#   after the first run:* this bullet first said that equal $b$ meant fixed $\Delta/\sigma$ across sizes, which
#   is wrong; see the added sweep at fixed $\sigma/\Delta$ below.
# * **Methods** at the same budget: our active algorithm; its ablation without the adaptive allocation;
#   spectral seriation of the passive average; the naive two-stage active scheme; and, in the figures only,
#   our algorithm *without the endpoint step* (the whole budget sorts the pivot's own row, which is unimodal
#   rather than monotone: it succeeds only when the pivot happens to be an end, a strawman). Below
#   $n(n-1)/2$ queries (the post-hoc test) the passive designs also complete the unobserved pairs before
#   spectral seriation, by low-rank imputation or along the estimated order.
# * **Measured:** exact-recovery rate up to reversal over the trials (its complement is the error
#   probability), the mean Kendall distance (share of item pairs in the wrong order), and the
#   normalised budget at which the exact-recovery rate first reaches 0.9 (interpolated linearly in
#   $\log b$ between the grid points around the crossing), on the grid $b = 2^{6}, 2^{6.5},\dots,2^{17}$.
# * **Calibration** (brief: "$c$ calibrated once at $n=20$, then fixed"). On a separate calibration
#   run (its own random stream), $c$ is the smallest value on the grid $2^{j/4}$ for which the active
#   algorithm recovers the order in at least 90% of the trials at $n=20$ with budget
#   $B = c\,n\ln n\,\sigma^2/\Delta^2$. Code chooses it; it is then used unchanged at the largest size.
#   The grid's steps are 19% apart, so the chosen $c$ overshoots the 90% point by up to one step (the
#   success it reaches at $n=20$ is printed below) and moves by a grid step from seed to seed.
#   The error-decay illustration measures every method by this same protocol: each comparator gets its own
#   calibration run and its own $c$.
# * **Sizes:** $n\in\{20,40\}$ at ci scale, $\{20,40,80,160\}$ at full scale, 200 and 1000 trials per
#   point. The tests at a single size use the largest one.
#
# **Tests.** The two counted tests keep the method, setting and criterion fixed before the first run (the
# brief's check 1). When the book asked every test for an ablation and naive baselines (issue 32), each gained
# them, measured under the same criterion; they run on their own random streams, so the method's values at
# every seed are the ones of the first version. The old controls were dropped: the endpoint-free ablation
# fails by construction, and Cauchy noise is a deliberately wrong input, which only a theorem test may use
# (both stay in the figures).
#
# 1. *Calibrated budget* (`calibrated-budget-recovers`). At the largest $n$ and $B=c\,n\ln n\,\sigma^2/\Delta^2$,
#    the active exact-recovery rate is $\ge 0.9$. Comparators at the same budget: the ablation, passive
#    spectral seriation, the naive two-stage scheme.
# 2. *Active beats passive* (`active-beats-passive`, the brief's expectation). At that budget, active rate
#    minus passive rate $\ge 0.3$. Comparators: the ablation's rate minus the passive rate, and the two-stage
#    scheme's.
# 3. *Recovery below the all-pairs budget* (`recovers-below-all-pairs`, added after the independent review,
#    post hoc, †). The brief's check 1 in the one regime where a passive design cannot see every pair: at
#    $n=80$, $\sigma/\Delta=0.5$ and the smallest budget our algorithm accepts there (below $n(n-1)/2$), the
#    active exact-recovery rate is $\ge0.9$. Comparators: the ablation, and two passive designs that complete
#    the unobserved pairs before spectral seriation (described with the test below).
#
# The brief's other checks are shown as illustrations, not counted (each illustration says why):
#
# * *Exponential decay* (`error-decays`). At the largest $n$, on budgets $f\cdot c\,n\ln n\,\sigma^2/\Delta^2$
#   with $f=0.5,0.625,\dots,2$, the least-squares line of $\ln\hat P(\text{error})$ against the normalised
#   budget per item $b/n$, fitted over the points with $2/T\le\hat P\le 0.5$ ($T$ trials; fewer than three
#   such points count as no decay, slope and $R^2$ zero): the brief asked for slope $<0$ and $R^2\ge0.8$. First
#   recorded as two counted tests; on a grid centred on each method's own 90% point the slope is almost sure
#   to be negative, and the ablation and passive seriation, measured by the same protocol, meet both criteria.
#   It is one fit, so it is now one illustration.
# * *Budget scaling* (`budget-scaling-active`, first a counted test). The log-log slope of the 90%-success
#   normalised budget against $n$, against the brief's window $[0.8,1.4]$. At ci it rests on two sizes, and an
#   exact $n\ln n$ budget has a slope between them inside the tolerance band of the window's upper end, so a
#   method scaling exactly as the brief expects would be "at the edge" at every seed, and passive seriation
#   falls in the same window: the test could not tell the methods apart. The brief's expectation of a passive
#   slope $\ge1.8$ (`budget-scaling-passive`) measures the baseline alone.
# * *The same scaling at fixed $\sigma/\Delta=2$* (`budget-scaling-active-fixed-ratio`, added after the first
#   run, first a post-hoc test): at ci it reuses the $n=20$ curves of the scaling study and its all-pairs floor
#   does not bind, so it measured the same thing twice.
#
# **Deviations from the paper**
#
# * The algorithm is ours (designed from the brief), not the paper's, which we could not read: the
#   tests probe the phenomena the abstract names, not the paper's theorem or its constants. No official
#   code was found, so there is no official configuration to run beside ours.
# * Fixed budget instead of fixed confidence: the brief's kernels stop when confidence intervals
#   separate (a random budget); ours spend exactly $B$ queries, so that the methods can be compared at equal
#   budgets. Our choices, with no counterpart we could check in the paper: pivot = item 0
#   (a uniformly random position, since the order is random), a quarter of the budget for the endpoint,
#   sequential halving, three adaptive rounds, intervals of $\pm2\sigma/\sqrt k$, $\sigma$ known. The naive
#   two-stage baseline's half-and-half split and band of width two were fixed before it was run, not tuned.
# * No partial prior knowledge of the order (the arXiv version allows it); seriation from scratch only.
# * One profile for the tests, $g(k)=1-k/n$, the case in which the separation condition is tight at
#   every distance, and one noise level ($\sigma=0.1$) for the pre-registered tests. The brief also lists
#   $\sigma=0.05$, which for this profile rescales $b$, but only up to the rounding of $B$ to whole queries and
#   to the floors that are counted in queries, not in $b$: the $n(n-1)/2$ queries of seeing every pair once
#   and the smallest budget our algorithm accepts. The post-hoc test runs at $\sigma/\Delta=0.5$, where those
#   floors bind. The exponential profile $e^{-k/\ell}$ appears as an illustration without a test.
# * The brief's scaling check "budget against $n$" is measured, as the brief's data design says, with
#   $\Delta=1/n$ and $\sigma=0.1$ fixed, in units of $\sigma^2/\Delta^2$ (the raw number of queries carries a
#   further factor $\sigma^2n^2$). Our first text read this as a comparison at fixed $\Delta/\sigma$, which
#   it is not: $\sigma/\Delta$ grows with $n$, and the $n^2/2$ queries needed to see every pair once stay at
#   a constant $b=50$. At fixed $\sigma/\Delta$ that floor grows like $n^2$, which is where the brief's
#   quadratic passive budget should appear. After the first run we therefore added the same scaling
#   study at fixed $\sigma/\Delta=2$ (the ratio of the $n=20$ runs), first as a post-hoc test, now an
#   illustration (see the tests above).
# * The passive baseline of the pre-registered tests is spectral seriation, the brief's choice, not the
#   minimax-optimal passive estimator of the seriation literature; the budget is spread uniformly over all
#   pairs (on the main grid every pair is observed at least once). Below $n(n-1)/2$ queries that baseline
#   fills the unobserved pairs with the mean of the observed ones, which a skeptic would not do: the post-hoc
#   test compares with two passive designs that complete the missing pairs (iterative low-rank imputation,
#   and the similarity profile estimated along an alternately re-estimated order), our choices, not the
#   literature's best.
# * Observations are drawn through their sufficient statistics (the sum of $k$ Gaussian observations is
#   drawn as $kM+\sigma\sqrt k\,Z$), an exact shortcut that makes a trial's cost independent of $B$.
# * Heavy-tailed noise appears only in a figure, not as a robustness study; the brief's sizes $n\le80$ are
#   extended to $n=160$ at full scale.

# %%
print(f"scale={P.scale}: n in {P.ns}, {P.trials} trials per point, sigma={SIGMA}, "
      f"normalised budgets 2^{P.grid[0] / 2:g} .. 2^{P.grid[1] / 2:g}")


def raw_budget(b, n, sigma=SIGMA):
    """Queries for a normalised budget b = B Delta^2 / sigma^2 with Delta = 1/n."""
    return int(round(b * (sigma * n) ** 2))


def run(method, n, b, rng, noise="gaussian", trials=None, sigma=SIGMA):
    return K.simulate(method, n, raw_budget(b, n, sigma), trials or P.trials, sigma, K.linear_profile(n), rng, noise)


def calibrate(method, rng):
    """Smallest c on the grid 2^(j/4) with success >= LEVEL at n = N_CAL and b = c n ln n (the search stops there)."""
    found = {}
    for c in c_grid:
        b = c * N_CAL * np.log(N_CAL)
        if raw_budget(b, N_CAL) < K.min_budget(method, N_CAL):
            continue
        found[c] = run(method, N_CAL, b, rng)["success"]
        if found[c] >= LEVEL:
            break
    if found[c] < LEVEL:
        print(f"WARNING: {method}: no c on the grid reached {LEVEL} at n = {N_CAL}; the largest one is used")
    return float(c), found


# %% [markdown]
# ### Calibration of the budget constant (separate run, $n=20$)

# %%
rng_cal = np.random.default_rng([seed, 1])  # the calibration's own stream: the runs below never see it
c_grid = 2.0 ** (np.arange(0, 41) / 4)
C, cal = calibrate("active", rng_cal)
print("calibration at n = 20 (c: success):", ", ".join(f"{k:.3g}: {v:.3f}" for k, v in cal.items()))
print(f"calibrated c = {C:.4g}: B = c n ln n sigma^2/Delta^2, i.e. b = {C:.4g} n ln n")

# %% [markdown]
# ## Results
#
# ### What the two methods see
#
# One instance at $n=20$ and the calibrated budget: the true matrix (rows and columns in item order,
# then in the hidden order), the passive average (in the hidden order), and the number of queries the
# active algorithm spent on each pair (in the hidden order).

# %%
n0 = N_CAL
perm0 = K.random_permutations(1, n0, P.rng)
M0 = K.robinson_matrix(n0, K.linear_profile(n0), perm0)
B0 = raw_budget(C * n0 * np.log(n0), n0)
o_pass = K.NoisyOracle(M0, SIGMA, P.rng)
S0 = K.passive_average(o_pass, B0, P.rng)
o_act = K.NoisyOracle(M0, SIGMA, P.rng, track_pairs=True)
order0 = K.active_seriation(o_act, B0)
h = np.argsort(perm0[0])  # items in the hidden order
fig, axes = plt.subplots(1, 4, figsize=(12, 3.2))
panels = [(M0[0], "true M, item order"), (M0[0][np.ix_(h, h)], "true M, hidden order"),
          (S0[0][np.ix_(h, h)], f"passive average, B = {B0}"), (o_act.pair_counts[0][np.ix_(h, h)], "active: queries per pair")]
for ax, (A, title) in zip(axes, panels):
    im = ax.imshow(A, cmap="viridis")
    ax.set(title=title, xticks=[], yticks=[])
    fig.colorbar(im, ax=ax, fraction=0.046)
plt.show()
print("active exact recovery on this instance:", bool(K.exact_recovery(order0, perm0)[0]),
      "| passive spectral:", bool(K.exact_recovery(K.spectral_seriation(S0), perm0)[0]))

# %% [markdown]
# The passive average carries every entry, each with few samples; the active algorithm spends its
# queries on two rows: the pivot's (spread thin, then concentrated on the candidates for the far end) and
# the row of the end it found (many samples on every entry).
#
# ### Error probability against the query budget

# %%
grid = 2.0 ** (np.arange(P.grid[0], P.grid[1] + 1) / 2)
curves = {}
for n in progress(P.ns, desc="sizes"):
    for method in ("active", "passive") + (("no-endpoint",) if n == N_TEST else ()):
        ok = [b for b in grid if method == "passive" or raw_budget(b, n) >= K.active_min_budget(n)]
        res = [run(method, n, b, P.rng) for b in ok]
        curves[method, n] = (np.array(ok), np.array([r["success"] for r in res]), np.array([r["kendall"] for r in res]))

# %%
fig, ax = plt.subplots(figsize=(7, 4.2))
floor = 0.5 / P.trials
for i, n in enumerate(P.ns):
    for method, ls, mk in (("active", "-", "o"), ("passive", "--", "s"), ("no-endpoint", ":", "^")):
        if (method, n) not in curves:
            continue
        b, s, _ = curves[method, n]
        ax.plot(b, np.maximum(1 - s, floor), ls=ls, marker=mk, ms=3, color=f"C{i}",
                label=f"{method}, n = {n}" if method != "no-endpoint" else f"no endpoint step (strawman), n = {n}")
ax.axhline(floor, color="0.6", lw=0.8)
ax.text(grid[0], floor * 1.15, f"no error in {P.trials} trials", fontsize=8, color="0.4")
ax.axhline(1 - LEVEL, color="0.3", lw=0.8, ls="-.")
ax.set(xscale="log", yscale="log", ylim=(floor / 1.5, 1.5), xlabel=r"normalised budget $b = B\,\Delta^2/\sigma^2$",
       ylabel="P(order not recovered exactly)", title=r"Error probability vs budget ($g(k)=1-k/n$, $\sigma=0.1$)")
ax.legend(fontsize=7, loc="center right")
plt.show()

# %% [markdown]
# ### Budget for 90% success against $n$
#
# The ablation (uniform sampling of the same two rows) runs on its own random stream, on the same budget grid,
# up to the first budget at which it reaches 90% (which fixes its $b_{90}$).

# %%
b90 = {m: np.array([K.budget_at_success(curves[m, n][0], curves[m, n][1], LEVEL) for n in P.ns])
       for m in ("active", "passive")}
slope = {m: loglog_slope(P.ns, b90[m]) for m in b90}
rng_cmp = np.random.default_rng([seed, 3])  # the comparators' own stream: the pre-registered runs never see it


def b90_curve(method, n, rng, sigma=SIGMA):
    """Success on the budget grid, in increasing budget, up to the first point at or above LEVEL."""
    bs, ss = [], []
    for b in grid:
        if raw_budget(b, n, sigma) < K.min_budget(method, n):
            continue
        bs.append(b)
        ss.append(run(method, n, b, rng, sigma=sigma)["success"])
        if ss[-1] >= LEVEL:
            break
    return np.array(bs), np.array(ss)


uni_curves = {n: b90_curve("active-uniform", n, rng_cmp) for n in P.ns}
b90["uniform"] = np.array([K.budget_at_success(*uni_curves[n], LEVEL) for n in P.ns])
slope["uniform"] = loglog_slope(P.ns, b90["uniform"])
print(f"{'n':>5} {'b90 active':>11} {'b90 ablation':>13} {'b90 passive':>12} {'raw B active':>13} {'raw B passive':>14} "
      f"{'passive/active':>15}")
for i, n in enumerate(P.ns):
    print(f"{n:>5} {b90['active'][i]:>11.0f} {b90['uniform'][i]:>13.0f} {b90['passive'][i]:>12.0f} "
          f"{b90['active'][i] * (SIGMA * n) ** 2:>13.0f} {b90['passive'][i] * (SIGMA * n) ** 2:>14.0f} "
          f"{b90['passive'][i] / b90['active'][i]:>15.2f}")
print(f"log-log slope of b90 against n: active {slope['active']:.2f}, ablation {slope['uniform']:.2f}, "
      f"passive {slope['passive']:.2f}")

# %%
fig, ax = plt.subplots(figsize=(6.4, 4))
ns = np.array(P.ns, dtype=float)
nn = np.geomspace(ns[0], ns[-1], 50)
for m, mk, col, lab in (("active", "o", "C0", "active"), ("uniform", "D", "C2", "ablation: uniform rows"),
                        ("passive", "s", "C3", "passive spectral")):
    ax.plot(ns, b90[m], mk + "-", color=col, label=f"{lab}: fitted slope {slope[m]:.2f}")
a0 = b90["active"][0]
ax.plot(nn, a0 * nn * np.log(nn) / (ns[0] * np.log(ns[0])), "k--", lw=1, label=r"$\propto n\ln n$ (brief's rate)")
ax.plot(nn, a0 * (nn / ns[0]) ** 2, "k:", lw=1, label=r"$\propto n^2$ (all pairs)")
ax.plot(nn, C * nn * np.log(nn), color="0.6", lw=1, label=rf"calibrated budget $c\,n\ln n$, c = {C:.3g}")
ax.set(xscale="log", yscale="log", xlabel="number of items n", ylabel=r"normalised budget $b_{90}$ for 90% success",
       title="Budget for exact recovery in 90% of trials")
ax.set_xticks(ns, [str(int(v)) for v in ns])
ax.xaxis.set_minor_formatter(plt.NullFormatter())
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# Passive spectral seriation reaches 90% exact recovery with {glue:text}`ratio_b90_min:.2f` to
# {glue:text}`ratio_b90_max:.2f` times the active budget across the sizes run, and in this run the three
# budgets grow with similar slopes: active {glue:text}`slope_active:.2f`, ablation {glue:text}`slope_uniform:.2f`, passive
# {glue:text}`slope_passive:.2f` (a pure $n\ln n$ has slope {glue:text}`slope_nlogn:.2f` between the two
# ci sizes).
#
# ### The same study at fixed noise-to-separation ratio (added after the first run; an illustration)
#
# Here $\sigma = 2/n$, so $\sigma/\Delta = 2$ at every size, as in the $n=20$ runs above (whose curves are
# reused: at ci, with two sizes, this study shares half its points with the one above, which is one reason it
# is not counted). The sweep draws from its own random stream, so the numbers of the pre-registered tests are
# unchanged. When the budget is below $n(n-1)/2$ the passive
# method leaves pairs unobserved and fills them with the mean of the observed entries. At the largest size the
# passive curve, the last one drawn from this stream, stops at its 90% crossing (to save time; its $b_{90}$ is
# the same).

# %%
RATIO = 2.0
rng_fix = np.random.default_rng([seed, 2])  # own stream: the pre-registered runs above and below never see it
fixed = {}
for n in progress(P.ns, desc="fixed ratio"):
    for method in ("active", "passive"):
        if n == N_CAL:  # sigma = 2/20 = 0.1: the main sweep's curves
            fixed[method, n] = curves[method, n][:2]
            continue
        sig = RATIO / n
        if method == "passive" and n == N_TEST:  # the stream's last draws: stop at the 90% crossing (same b90)
            fixed[method, n] = b90_curve(method, n, rng_fix, sigma=sig)
            continue
        ok = [b for b in grid if method == "passive" or raw_budget(b, n, sig) >= K.active_min_budget(n)]
        fixed[method, n] = (np.array(ok), np.array([run(method, n, b, rng_fix, sigma=sig)["success"] for b in ok]))
b90_fix = {m: np.array([K.budget_at_success(*fixed[m, n], LEVEL) for n in P.ns]) for m in ("active", "passive")}
slope_fix = {m: loglog_slope(P.ns, b90_fix[m]) for m in b90_fix}
uni_fix = {n: uni_curves[n] if n == N_CAL else b90_curve("active-uniform", n, rng_cmp, sigma=RATIO / n) for n in P.ns}
b90_fix["uniform"] = np.array([K.budget_at_success(*uni_fix[n], LEVEL) for n in P.ns])
slope_fix["uniform"] = loglog_slope(P.ns, b90_fix["uniform"])
print(f"sigma/Delta = {RATIO:g} at every n")
print(f"{'n':>5} {'b90 active':>11} {'b90 ablation':>13} {'b90 passive':>12} {'all pairs once (b)':>19}")
for i, n in enumerate(P.ns):
    print(f"{n:>5} {b90_fix['active'][i]:>11.0f} {b90_fix['uniform'][i]:>13.0f} {b90_fix['passive'][i]:>12.0f} "
          f"{n * (n - 1) / 2 / RATIO**2:>19.0f}")
print(f"log-log slope of b90 against n: active {slope_fix['active']:.2f}, ablation {slope_fix['uniform']:.2f}, "
      f"passive {slope_fix['passive']:.2f}")

# %%
fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4))
for i, n in enumerate(P.ns):
    for m, ls in (("active", "-"), ("passive", "--")):
        b, s_ = fixed[m, n]
        a1.plot(b, s_, ls=ls, color=f"C{i}", marker="o", ms=2.5, label=f"{m}, n = {n}")
    a1.axvline(n * (n - 1) / 2 / RATIO**2, color=f"C{i}", lw=0.8, ls=":")
a1.set(xscale="log", xlabel=r"normalised budget $b = B\,\Delta^2/\sigma^2$", ylabel="exact-recovery rate",
       title=rf"$\sigma/\Delta = {RATIO:g}$ at every n (dotted: every pair seen once)")
a1.legend(fontsize=7, ncol=2)
for m, mk, col, lab in (("active", "o", "C0", "active"), ("uniform", "D", "C2", "ablation: uniform rows"),
                        ("passive", "s", "C3", "passive spectral")):
    a2.plot(ns, b90_fix[m], mk + "-", color=col, label=f"{lab}: fitted slope {slope_fix[m]:.2f}")
a0f = b90_fix["active"][0]
a2.plot(nn, a0f * nn * np.log(nn) / (ns[0] * np.log(ns[0])), "k--", lw=1, label=r"$\propto n\ln n$")
a2.plot(nn, nn * (nn - 1) / 2 / RATIO**2, "k:", lw=1, label=r"every pair once, $n(n-1)/2$ queries")
a2.set(xscale="log", yscale="log", xlabel="number of items n", ylabel=r"$b_{90}$", title="Budget for 90% success, fixed ratio")
a2.set_xticks(ns, [str(int(v)) for v in ns])
a2.xaxis.set_minor_formatter(plt.NullFormatter())
a2.legend(fontsize=8)
plt.show()

# %% [markdown]
# At $\sigma/\Delta=2$ the slopes are {glue:text}`slope_fix_active:.2f` (active),
# {glue:text}`slope_fix_uniform:.2f` (ablation) and {glue:text}`slope_fix_passive:.2f` (passive); at the
# largest size run the passive method needs {glue:text}`ratio_fix_last:.2f` times the active budget. Seeing
# every pair once costs a normalised budget of $n(n-1)/8$ here ({glue:text}`all_pairs_last:.0f` at
# $n=${glue:text}`n_test`, against a passive $b_{90}$ of {glue:text}`b90_fix_passive_last:.0f`): the
# quadratic floor the brief expected does not bind at these sizes. With two sizes at ci the slopes are
# two-point estimates; at full scale ($n$ up to 160, where the floor reaches the passive budget) the same
# illustration compares the active slope with the passive one.
#
# ### At the calibrated budget, and the decay of the error probability

# %%
n = N_TEST
b_star = C * n * np.log(n)
at = {m: run(m, n, b_star, P.rng) for m in ("active", "passive", "no-endpoint")}
print(f"n = {n}, calibrated budget b = {b_star:.0f} (B = {raw_budget(b_star, n)} queries):")
for m, r in at.items():
    print(f"  {m:12s} exact recovery {r['success']:.3f}, mean Kendall distance {r['kendall']:.4f}")

decay = {}
for noise in progress(("gaussian", "cauchy"), desc="decay"):
    p_err = np.array([1 - run("active", n, f * b_star, P.rng, noise)["success"] for f in FACTORS])
    x = FACTORS * b_star / n  # normalised budget per item
    decay[noise] = (x, p_err, *K.log_error_fit(x, p_err, P.trials))
for noise, (x, p_err, sl, r2, m) in decay.items():
    print(f"{noise:9s} noise: slope of ln P(error) per unit of b/n {sl:.3f}, R^2 {r2:.3f} over {m} points")

# %% [markdown]
# The comparators, on their own random stream: at the same calibrated budget, the ablation and the naive
# two-stage scheme (passive spectral seriation at that budget is measured above); and, for the decay
# illustration,
# the ablation and passive spectral seriation each calibrated at $n=20$ by the same rule and fitted on the
# grid of its own $c$.

# %%
cmp_at = {m: run(m, n, b_star, rng_cmp) for m in ("active-uniform", "passive-refine")}
c_own = {}
for m in progress(("active-uniform", "passive"), desc="comparators' decay"):
    c_m, _ = calibrate(m, rng_cmp)
    b_m = c_m * n * np.log(n)
    p_err = np.array([1 - run(m, n, f * b_m, rng_cmp)["success"] for f in FACTORS])
    x = FACTORS * b_m / n
    c_own[m] = c_m
    decay[m] = (x, p_err, *K.log_error_fit(x, p_err, P.trials))
for m, r in cmp_at.items():
    print(f"  {m:15s} at b = {b_star:.0f}: exact recovery {r['success']:.3f}, mean Kendall distance {r['kendall']:.4f}")
for m in c_own:
    sl, r2, k = decay[m][2:]
    print(f"  {m:15s} own c = {c_own[m]:.3g}: slope of ln P(error) {sl:.3f}, R^2 {r2:.3f} over {k} points")

# %%
fig, ax = plt.subplots(figsize=(6.8, 4.2))
for key, col, mk, lab in (("gaussian", "C0", "o", "active"), ("active-uniform", "C2", "D", "ablation: uniform rows"),
                          ("passive", "C3", "s", "passive spectral")):
    x, p_err, sl, r2, m = decay[key]
    use = (p_err >= 2 / P.trials) & (p_err <= 0.5)
    ax.semilogy(x, np.maximum(p_err, floor), mk, color=col, mfc="none", ms=4)
    ax.semilogy(x[use], p_err[use], mk, color=col, ms=4, label=f"{lab} (filled: fit window)")
    if m >= 3:
        icpt = np.mean(np.log(p_err[use]) - sl * x[use])
        ax.semilogy(x, np.exp(icpt + sl * x), "-", color=col, lw=1, label=f"fit: slope {sl:.3f}, $R^2$ = {r2:.2f}")
xc, pc, *_ = decay["cauchy"]
ax.semilogy(xc, np.maximum(pc, floor), "^", color="0.5", label="active, Cauchy noise (wrong input, not a comparator)")
x = decay["gaussian"][0]
k_entry = 0.75 * x * n / (n - 1)  # normalised samples per entry of the end's row, uniform allocation
ax.semilogy(x, np.minimum((n - 2) * norm.sf(np.sqrt(k_entry / 2)), 1), "k--", lw=1,
            label=r"union bound $(n-2)\Phi(-\sqrt{k\Delta^2/2\sigma^2})$, uniform $k$")
ax.axhline(floor, color="0.6", lw=0.8)
ax.set(xlabel=r"normalised budget per item $b/n$", ylabel="P(order not recovered exactly)", ylim=(floor / 1.5, 1.5),
       title=f"Error probability against budget per item (n = {n})")
ax.legend(fontsize=7)
plt.show()

# %% [markdown]
# At the calibrated budget ($b=${glue:text}`b_star:.0f`, $n=${glue:text}`n_test`) our algorithm recovers the
# exact order in a share {glue:text}`succ_active:.3f` of the trials, its ablation in
# {glue:text}`succ_uniform:.3f`, passive spectral seriation in {glue:text}`succ_passive:.3f` and the naive
# two-stage scheme in {glue:text}`succ_refine:.3f`; without the endpoint step (strawman) the rate is
# {glue:text}`succ_noend:.3f`. The calibrated $c$ is generous: at $n=20$ it gives a success of
# {glue:text}`cal_success:.3f` on the calibration run, because the grid's steps are
# {glue:text}`cal_step:.0%` apart. At $\sigma/\Delta=${glue:text}`ratio_test:.0f` this budget gives the passive
# design about {glue:text}`pass_per_pair:.0f` observations of every pair. On the grid of its own calibrated $c$ ({glue:text}`c_active:.2f`) the
# active error probability falls with slope {glue:text}`decay_slope_active:.3f` per unit of $b/n$
# ($R^2=${glue:text}`decay_r2_active:.3f`); the ablation ($c=${glue:text}`c_uniform:.2f`) with slope
# {glue:text}`decay_slope_uniform:.3f` ($R^2=${glue:text}`decay_r2_uniform:.3f`), and passive spectral
# seriation ($c=${glue:text}`c_passive:.2f`) with slope {glue:text}`decay_slope_passive:.3f`
# ($R^2=${glue:text}`decay_r2_passive:.3f`). Under Cauchy noise the fit window holds
# {glue:text}`cauchy_points` points.
#
# ### Below the all-pairs budget at low noise (added after the review, post hoc)
#
# In the runs above every pair is observed many times and $\sigma/\Delta$ is 2 to 4, so a passive design has
# all the information an active one has (see the verdict). Theory says where passive observation must pay:
# where the noise is low enough that a few queries per item suffice, and the budget is below the $n(n-1)/2$
# queries needed to see every pair once, so that a passive design leaves pairs unseen while an active one
# chooses the pairs it needs. The setting, fixed from that argument before the test was run:
#
# * $\sigma/\Delta=0.5$ ($\sigma=0.5/n$), the edge of the low-noise regime $\sigma/\Delta\le0.5$ (the
#   hardest setting within it);
# * $n=80$, the smallest of the brief's sizes $\{20,40,80\}$ at which our algorithm accepts a budget below
#   $n(n-1)/2$ (its sequential halving needs $\lceil\log_2(n-1)\rceil(n-1)$ queries on a quarter of the
#   budget, more than $n(n-1)/2$ for every $n$ up to {glue:text}`n_overhead`);
# * $B$ = the smallest budget our algorithm accepts there, {glue:text}`B_low` queries, a share
#   {glue:text}`share_low:.2f` of the {glue:text}`pairs_low` pairs;
# * criterion: active exact recovery $\ge0.9$, the brief's check-1 level. The brief also expects the passive
#   designs to fall below it; that half is not part of the recorded criterion, and the comparators are judged
#   against the same level.
#
# The passive comparators spread the same budget uniformly over the pairs, so each observed pair is seen
# once and the others not at all, and complete the unobserved pairs before spectral seriation (both ours, not
# the literature's best passive estimators; `K.completion_seriation`):
#
# * *low-rank completion*: iterative rank-4 imputation (hard impute: replace the unobserved entries by those
#   of the best rank-4 approximation, twenty times; rank 4 is the smallest that holds $99.9\%$ of the squared
#   eigenvalues of the noiseless matrix at these sizes), with the diagonal held at the largest observed
#   similarity;
# * *profile completion*: start from the mean-filled matrix's spectral order, then five times fill each
#   unobserved pair with the mean observed similarity at the same distance in the current order (the model
#   says $M_{ij}$ depends only on that distance) and re-order.
#
# The brief's passive baseline, which fills the unobserved pairs with the mean of the observed ones, is shown
# but is not a comparator here: the filled entries err by far more than $\Delta$, so it is at chance in this
# regime. Its own random stream; 200 (ci) or 1000 (full) trials.

# %%
n_low = N_LOW
sig_low = RATIO_LOW / n_low
B_low = K.active_min_budget(n_low)
pairs_low = n_low * (n_low - 1) // 2
rng_low = np.random.default_rng([seed, 4])  # own stream: the runs above and below never see it
LOW_METHODS = {"active": "active (ours)", "active-uniform": "ablation: uniform rows",
               "passive-lowrank": "passive, low-rank completion", "passive-toeplitz": "passive, profile completion",
               "passive": "passive, mean fill (brief's)"}
low = {m: K.simulate(m, n_low, B_low, P.trials, sig_low, K.linear_profile(n_low), rng_low)
       for m in progress(LOW_METHODS, desc="low noise")}
print(f"n = {n_low}, sigma/Delta = {RATIO_LOW}, B = {B_low} queries ({B_low / pairs_low:.2f} of the {pairs_low} pairs):")
for m, r in low.items():
    print(f"  {LOW_METHODS[m]:30s} exact recovery {r['success']:.3f}, mean Kendall distance {r['kendall']:.2e}")

# %%
fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 3.6))
labels = list(LOW_METHODS.values())
cols = ["C0", "C2", "C1", "C4", "C3"]
a1.barh(labels, [low[m]["success"] for m in LOW_METHODS], color=cols)
a1.axvline(LEVEL, color="0.3", ls="-.", lw=0.8)
a1.set(xlim=(0, 1.02), xlabel="exact-recovery rate", title=rf"$n={n_low}$, $\sigma/\Delta={RATIO_LOW:g}$, $B={B_low}$ queries")
a1.invert_yaxis()
a2.barh(labels, [max(low[m]["kendall"], 1e-6) for m in LOW_METHODS], color=cols)
a2.set(xscale="log", xlabel="mean Kendall distance (share of pairs misordered; floor 1e-6)",
       title=f"budget = {B_low / pairs_low:.0%} of the {pairs_low} pairs")
a2.set_yticks([])
a2.invert_yaxis()
plt.show()

# %% [markdown]
# At $n=${glue:text}`n_low`, $\sigma/\Delta=0.5$ and $B=${glue:text}`B_low` queries, our algorithm recovers the
# exact order in a share {glue:text}`low_active:.3f` of the trials and its ablation in
# {glue:text}`low_uniform:.3f`; the passive designs that complete the missing pairs reach
# {glue:text}`low_lowrank:.3f` (low-rank) and {glue:text}`low_toeplitz:.3f` (profile), while the brief's
# mean-filled passive baseline reaches {glue:text}`low_meanfill:.3f`. Active minus the better completed passive
# design is {glue:text}`gap_low:+.3f`, against the brief's expected gap of $0.3$. Seeing a random share
# {glue:text}`share_low:.2f` of the pairs once is enough for a passive design that does not fill the gaps with
# a constant: the order is over-determined by the similarities, every item keeps dozens of observed partners,
# and at this noise level each of them carries almost exact information about distances in the order.
#
# ### Outside the uniform-separation regime: an exponential profile (no test)
#
# With $g(k)=e^{-4k/n}$ the similarities flatten far from the diagonal: neighbouring entries of an end's
# row differ by as little as $\Delta=${glue:text}`delta_exp:.4f` at $n=20$ (against $1/n$ for the linear
# profile), while entries near the diagonal still differ a lot. Raw budgets here, $n=20$.

# %%
n_e = N_CAL
g_exp = K.exponential_profile(n_e / 4)
raw_grid = 2 ** np.arange(P.exp_grid[0], P.exp_grid[1] + 1)
exp_curves = {}
for m in progress(("active", "passive"), desc="exponential profile"):
    ok = [B for B in raw_grid if m == "passive" or B >= K.active_min_budget(n_e)]
    exp_curves[m] = (np.array(ok), np.array([K.simulate(m, n_e, int(B), P.trials, SIGMA, g_exp, P.rng)["success"]
                                             for B in ok]))
exp_b90 = {m: K.budget_at_success(*exp_curves[m], LEVEL) for m in exp_curves}
print(f"exponential profile, n = {n_e}: Delta = {K.min_separation(g_exp, n_e):.4f}; raw budget for 90% success: "
      + ", ".join(f"{m} {exp_b90[m]:.3g}" for m in exp_curves))

# %%
fig, ax = plt.subplots(figsize=(6.4, 3.8))
for m, ls in (("active", "-"), ("passive", "--")):
    ax.plot(*exp_curves[m], ls=ls, marker="o", ms=3, color="C2", label=f"{m}, $g=e^{{-4k/n}}$")
    b, s, _ = curves[m, n_e]
    ax.plot(np.array([raw_budget(v, n_e) for v in b]), s, ls=ls, marker="o", ms=3, color="C0", label=f"{m}, $g=1-k/n$")
ax.set(xscale="log", xlabel="budget B (queries)", ylabel="exact-recovery rate", title=f"Two profiles, n = {n_e}, $\\sigma$ = {SIGMA}")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# Our algorithm needs {glue:text}`exp_ratio:.1f` times the passive budget for 90% exact recovery on this
# profile (raw budgets {glue:text}`exp_b90_active:.3g` against {glue:text}`exp_b90_passive:.3g`): the end's
# row, which it must sort, has its smallest gaps exactly where it looks, while the passive average still sees
# the large gaps near the diagonal.
#
# ### The paper's numbers beside ours
#
# None: the paper's figures and tables were out of reach, and its abstract states guarantees without
# numbers, so there is no row of the paper's values to put beside ours. The tests below compare our
# algorithm with the brief's thresholds and with comparators measured in the same run.

# %%
RATE = tolerance(abs=0.02, why=f"share of {P.trials} random trials: exact for a seed, but a trial near a tie "
                 "(two noisy means, or a Fiedler vector entry) may flip under other float kernels")
FIT = tolerance(rel=0.1, abs=0.02, why="fit to Monte Carlo rates over random trials (see the rate tolerance)")
PAPER = "exact recovery with high probability at an optimal number of observations (abstract); no numbers retrieved"
ABL = "our algorithm with both rows sampled uniformly (no sequential halving, no elimination rounds)"
ADAPT = "the adaptive allocation (sequential halving on the pivot's row, elimination rounds on the end's row)"
PASSIVE = "spectral seriation of the passive average (budget spread over all pairs)"
REFINE = "naive two-stage active scheme: passive spectral on half the budget, the rest on pairs <= 2 apart in its order"
OWN_C = " (own calibrated c, same protocol)"

claims.headline(
    "exact-recovery-whp",
    "An active learner that chooses which pairs to query recovers the exact order with high probability "
    "(tested on our own active algorithm; the paper's was not available)",
    tests=["calibrated-budget-recovers", "recovers-below-all-pairs"])
claims.headline(
    "optimal-error-probability",
    "The error probability of the active algorithm is optimal",
    untestable="optimality needs a lower bound and the paper's rate, which we could not read; we illustrate only "
               "that the error falls exponentially in the samples per item (error-decays), which any estimator "
               "built on averages of Gaussian noise shows, passive seriation included")
claims.headline(
    "optimal-sample-count",
    "The number of observations needed for recovery is optimal (of order n log n sigma^2/Delta^2 in the brief's reading)",
    untestable="optimality needs a lower bound and the paper's rate, which we could not read; the growth of our "
               "algorithm's budget with n is an illustration (budget-scaling-active): at ci two sizes cannot resolve "
               "n log n from its neighbours. That active queries need fewer observations than passive ones is the "
               "brief's expectation, not the abstract's (tested as active-beats-passive and recovers-below-all-pairs)")
claims.headline(
    "partial-prior-order",
    "The algorithm can start from partial knowledge of the order, seriation from scratch being a special case",
    untestable="we implement seriation from scratch only; no partial prior order is modelled")

claims.test(
    "calibrated-budget-recovers",
    statement=f"At n = {N_TEST} and B = c n ln n sigma^2/Delta^2 (c = {C:.3g}, calibrated at n = 20 on a separate run), "
              "our active algorithm recovers the exact order (up to reversal) in >= 90% of trials",
    paper=PAPER, criterion=at_least(0.9), measured=at["active"]["success"],
    ablation=Comparator(ABL, cmp_at["active-uniform"]["success"], ingredient=ADAPT),
    baselines=[Comparator(PASSIVE + ", same budget", at["passive"]["success"]),
               Comparator(REFINE + ", same budget", cmp_at["passive-refine"]["success"])],
    tol=RATE)
claims.test(
    "active-beats-passive",
    statement=f"At that budget, exact-recovery rate minus the rate of spectral seriation of the passive average "
              f"(n = {N_TEST})",
    paper="not in the abstract: the brief's check 1 expects passive exact recovery at least 0.3 below active; "
          "no numbers retrieved",
    criterion=at_least(0.3), measured=at["active"]["success"] - at["passive"]["success"],
    ablation=Comparator(ABL + ", minus passive", cmp_at["active-uniform"]["success"] - at["passive"]["success"],
                        ingredient=ADAPT),
    baselines=[Comparator(REFINE + ", minus passive", cmp_at["passive-refine"]["success"] - at["passive"]["success"])],
    tol=RATE)

LOW_WHY = ("added after the independent review, which found that the pre-registered setting (sigma/Delta 2 to 4, every "
           "pair observed many times) leaves a passive design nothing to lose; the setting is fixed from the theory, "
           "not from any comparator: sigma/Delta = 0.5 (the edge of the low-noise regime), n = 80 (the smallest of the "
           "brief's sizes at which our algorithm accepts a budget below n(n-1)/2), B = the smallest budget it accepts "
           "there; the criterion is the brief's check-1 level, fixed before the run; designed on seeds 0-9")
claims.test(
    "recovers-below-all-pairs",
    statement=f"At n = {N_LOW}, sigma/Delta = {RATIO_LOW}, B = {B_low} queries (below the {pairs_low} pairs), our "
              "active algorithm recovers the exact order (up to reversal) in >= 90% of trials",
    paper="exact recovery with high probability (abstract); the brief's check 1: active >= 0.9, passive below it",
    criterion=at_least(0.9), measured=low["active"]["success"],
    ablation=Comparator(ABL, low["active-uniform"]["success"], ingredient=ADAPT),
    baselines=[Comparator("passive: B random pairs observed once, rank-4 low-rank completion, spectral seriation",
                          low["passive-lowrank"]["success"]),
               Comparator("passive: B random pairs observed once, profile completion along a re-estimated order, "
                          "spectral seriation", low["passive-toeplitz"]["success"])],
    tol=RATE, post_hoc=LOW_WHY)

claims.illustrate(
    "error-decays",
    statement=f"ln P(error) falls linearly with the budget per item: slope of the fit over f c n ln n, f in [0.5, 2] "
              f"(n = {N_TEST}; R^2 = {decay['gaussian'][3]:.3f})",
    paper="optimal error probability (abstract); no rate retrieved; the brief expects slope < 0 and R^2 >= 0.8",
    criterion=less_than(0.0), measured=decay["gaussian"][2], tol=FIT,
    why="one fit on a grid centred on the method's own 90% point, where a negative slope is all but certain; the "
        "exponential shape follows from averaging Gaussian noise, and the ablation (slope "
        f"{decay['active-uniform'][2]:.3f}, R^2 {decay['active-uniform'][3]:.3f}) and passive spectral seriation "
        f"(slope {decay['passive'][2]:.3f}, R^2 {decay['passive'][3]:.3f}), measured by the same protocol, meet the "
        "brief's criteria too; first recorded as two counted tests (slope and R^2 of the same fit)")
claims.illustrate(
    "budget-scaling-active",
    statement=f"Log-log slope in n of the normalised budget for 90% success, active (n in {list(P.ns)}; passive "
              f"{slope['passive']:.2f}, ablation {slope['uniform']:.2f})",
    paper="optimal number of observations (abstract); the brief expects about n log n", criterion=between(0.8, 1.4),
    measured=slope["active"], tol=FIT,
    why="pre-registered as a test, turned into an illustration after the review: with two sizes at ci the slope is a "
        "two-point estimate, an exact n ln n budget has a slope inside the tolerance band of the window's upper end "
        "(so a method scaling as the brief expects is at the edge), and passive seriation falls in the same window")
claims.illustrate(
    "budget-scaling-active-fixed-ratio",
    statement=f"Log-log slope in n of the normalised budget for 90% success at sigma/Delta = 2, active "
              f"(n in {list(P.ns)}; passive {slope_fix['passive']:.2f}, ablation {slope_fix['uniform']:.2f})",
    paper="optimal number of observations (abstract); the brief expects about n log n", criterion=between(0.8, 1.4),
    measured=slope_fix["active"], tol=FIT,
    why="added after the first run as a post-hoc test; at ci it reuses the n = 20 curves of budget-scaling-active and "
        "its all-pairs floor is far below every budget for 90% success, so it measures the same thing twice")

BASELINE_ONLY = ("it measures the naive baseline alone, not the paper's method (the brief's expectation about passive "
                 "sampling, which the abstract does not state)")
claims.illustrate(
    "budget-scaling-passive",
    statement=f"Log-log slope in n of the normalised budget for 90% success, passive spectral (n in {list(P.ns)}); "
              "the brief expects about 2",
    paper="not in the abstract: the brief expects about n^2 (or more) for passive observation of all pairs",
    criterion=at_least(1.8), measured=slope["passive"], tol=FIT, why=BASELINE_ONLY)
claims.illustrate(
    "budget-scaling-passive-fixed-ratio",
    statement=f"The same slope at sigma/Delta = 2, passive spectral (n in {list(P.ns)}; added after the first run)",
    paper="not in the abstract: the brief expects about n^2 (or more) for passive observation of all pairs",
    criterion=at_least(1.8), measured=slope_fix["passive"], tol=FIT, why=BASELINE_ONLY)

# %%
ratio_b90 = b90["passive"] / b90["active"]
for key, val in {
    "n_test": int(N_TEST), "b_star": float(b_star), "c_active": float(C),
    "c_uniform": float(c_own["active-uniform"]), "c_passive": float(c_own["passive"]),
    "succ_active": at["active"]["success"], "succ_passive": at["passive"]["success"],
    "succ_noend": at["no-endpoint"]["success"], "succ_uniform": cmp_at["active-uniform"]["success"],
    "succ_refine": cmp_at["passive-refine"]["success"],
    "gain_active": at["active"]["success"] - at["passive"]["success"],
    "gain_uniform": cmp_at["active-uniform"]["success"] - at["passive"]["success"],
    "gain_refine": cmp_at["passive-refine"]["success"] - at["passive"]["success"],
    "decay_slope_active": decay["gaussian"][2], "decay_r2_active": decay["gaussian"][3],
    "decay_slope_uniform": decay["active-uniform"][2], "decay_r2_uniform": decay["active-uniform"][3],
    "decay_slope_passive": decay["passive"][2], "decay_r2_passive": decay["passive"][3],
    "decay_points_passive": int(decay["passive"][4]), "cauchy_points": int(decay["cauchy"][4]),
    "slope_active": slope["active"], "slope_uniform": slope["uniform"], "slope_passive": slope["passive"],
    "slope_nlogn": loglog_slope(P.ns, [v * np.log(v) for v in P.ns]),
    "ratio_b90_min": float(ratio_b90.min()), "ratio_b90_max": float(ratio_b90.max()),
    "ratio_uniform_min": float((b90["uniform"] / b90["active"]).min()),
    "ratio_uniform_max": float((b90["uniform"] / b90["active"]).max()),
    "slope_fix_active": slope_fix["active"], "slope_fix_uniform": slope_fix["uniform"],
    "slope_fix_passive": slope_fix["passive"],
    "ratio_fix_last": float(b90_fix["passive"][-1] / b90_fix["active"][-1]),
    "all_pairs_last": float(N_TEST * (N_TEST - 1) / 2 / RATIO**2), "b90_fix_passive_last": float(b90_fix["passive"][-1]),
    "delta_exp": K.min_separation(g_exp, n_e), "exp_b90_active": float(exp_b90["active"]),
    "exp_b90_passive": float(exp_b90["passive"]), "exp_ratio": float(exp_b90["active"] / exp_b90["passive"]),
    "n_overhead": int(max(v for v in range(3, 200) if K.active_min_budget(v) > v * (v - 1) // 2)),
    "cal_success": float(cal[C]), "cal_step": float(2 ** 0.25 - 1),
    "headroom": 1 - at["passive"]["success"],
    "pass_per_pair": raw_budget(b_star, N_TEST) / (N_TEST * (N_TEST - 1) / 2),
    "ratio_test": float(SIGMA * N_TEST),
    "n_low": int(n_low), "B_low": int(B_low), "pairs_low": int(pairs_low), "share_low": B_low / pairs_low,
    "low_active": low["active"]["success"], "low_uniform": low["active-uniform"]["success"],
    "low_lowrank": low["passive-lowrank"]["success"], "low_toeplitz": low["passive-toeplitz"]["success"],
    "low_meanfill": low["passive"]["success"],
    "gap_low": low["active"]["success"] - max(low["passive-lowrank"]["success"], low["passive-toeplitz"]["success"]),
}.items():
    glue(key, val if isinstance(val, int) else float(val), display=False)

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
# The algorithm tested is ours, designed from the brief; the paper's was not available. Numbers in the text
# are from this run (ci, seed 0: $n\in\{20,40\}$, 200 trials per point, and $n=80$ for the post-hoc test); each
# test's status is the ci sweep's over seeds 0-9, and the judged table shows the full-scale sweep beside it.
#
# * *Exact recovery at the calibrated budget*, {repro-status}`calibrated-budget-recovers`. With $c$ fixed at
#   $n=20$, our algorithm recovers the exact order in a share {glue:text}`succ_active:.3f` of the trials at
#   $n=${glue:text}`n_test`. But at the same budget its ablation reaches {glue:text}`succ_uniform:.3f`, passive
#   spectral seriation {glue:text}`succ_passive:.3f` and the naive two-stage scheme {glue:text}`succ_refine:.3f`:
#   at this seed the budget suffices for every comparator (only the endpoint-free strawman of the figures
#   fails, at {glue:text}`succ_noend:.3f`). Over the ci seeds the passive baseline passes at
#   {repro-seeds}`calibrated-budget-recovers:baseline1:pass` seeds, so the test is not specific; the ablation
#   passes at {repro-seeds}`calibrated-budget-recovers:ablation:pass` and fails at
#   {repro-seeds}`calibrated-budget-recovers:ablation:fail` (the others at the edge), and the two-stage scheme
#   passes at {repro-seeds}`calibrated-budget-recovers:baseline2:pass`.
# * *Active beats passive* (the brief's expectation, not the abstract's),
#   {repro-status}`active-beats-passive`. Active minus passive exact recovery is {glue:text}`gain_active:+.3f`
#   (criterion $\ge0.3$); the method passes at {repro-seeds}`active-beats-passive:method:pass` seeds. No method
#   could pass this test in its setting: the passive baseline leaves a headroom of only
#   {glue:text}`headroom:.3f` above it, since the calibrated budget gives it about
#   {glue:text}`pass_per_pair:.0f` observations of every pair. In this run passive spectral seriation is the
#   better method at both sizes: it reaches 90% with {glue:text}`ratio_b90_min:.2f` to
#   {glue:text}`ratio_b90_max:.2f` times the active budget.
# * *Below the all-pairs budget at low noise* (post hoc, {repro-status}`recovers-below-all-pairs`). At
#   $n=${glue:text}`n_low`, $\sigma/\Delta=0.5$ and $B=${glue:text}`B_low`, a share {glue:text}`share_low:.2f` of
#   the pairs, our algorithm recovers {glue:text}`low_active:.3f` of the orders, its ablation
#   {glue:text}`low_uniform:.3f`, and the passive designs that complete the missing pairs
#   {glue:text}`low_lowrank:.3f` (low-rank) and {glue:text}`low_toeplitz:.3f` (profile). Over the ci seeds the
#   method passes at {repro-seeds}`recovers-below-all-pairs:method:pass`, the ablation at
#   {repro-seeds}`recovers-below-all-pairs:ablation:pass`, the low-rank design at
#   {repro-seeds}`recovers-below-all-pairs:baseline1:pass` and the profile design at
#   {repro-seeds}`recovers-below-all-pairs:baseline2:pass`. Only the brief's mean-filled passive baseline
#   fails here ({glue:text}`low_meanfill:.3f`), and it fails because of how it fills the gaps, not because it is
#   passive. The confirmation sweep on seeds 10-19 judges it not specific too (the method passes, and so do
#   comparators), so it does not move the badge.
# * *Illustrations, not counted.* The error probability falls exponentially in the budget per item (slope
#   {glue:text}`decay_slope_active:.3f`, $R^2=${glue:text}`decay_r2_active:.3f`), but so does the ablation's
#   (slope {glue:text}`decay_slope_uniform:.3f`, $R^2=${glue:text}`decay_r2_uniform:.3f`) and the passive
#   method's (slope {glue:text}`decay_slope_passive:.3f`, $R^2=${glue:text}`decay_r2_passive:.3f`): an
#   exponential tail is what any estimator built on averages of Gaussian noise shows. The budget for 90% success
#   grows with log-log slope {glue:text}`slope_active:.2f` (active), {glue:text}`slope_uniform:.2f` (ablation)
#   and {glue:text}`slope_passive:.2f` (passive); an $n\ln n$ budget has {glue:text}`slope_nlogn:.2f` between the
#   two ci sizes, inside the tolerance band of the brief's upper bound $1.4$, so two sizes cannot tell $n\ln n$
#   from its neighbours, and the three methods scale alike. At fixed $\sigma/\Delta=2$ the slopes are
#   {glue:text}`slope_fix_active:.2f`, {glue:text}`slope_fix_uniform:.2f` and {glue:text}`slope_fix_passive:.2f`.
#   The brief's expectation of a passive slope of about 2 is far from every value we measure.
#
# **Why, as far as we can tell.** Under uniform separation every similarity carries information about
# the order: items at positions $p$ and $p+1$ differ by at least $\Delta$ in their similarity to *every*
# other item. Passive sampling of all pairs therefore collects evidence about each adjacent swap from
# about $n$ entries, each with about $2B/n^2$ samples, and an active learner that reads one row puts about
# $B/n$ samples on one entry per item: the same order, $B\Delta^2/(n\sigma^2)$, in both cases. Spectral
# seriation aggregates all of it through the Fiedler vector, while our algorithm spends a quarter of the
# budget on the endpoint and compares each pair of neighbours through two noisy entries. Observing all
# pairs costs $n^2/2$ queries, which with $\Delta=1/n$ and $\sigma$ fixed is a constant $b=50$, so the
# $\Theta(n^2)$ of "observing every pair" never binds in the pre-registered study. Where it could bind, at low
# noise and a budget below $n(n-1)/2$, our algorithm cannot go below its own floor (sequential halving needs
# $\lceil\log_2(n-1)\rceil(n-1)$ queries on a quarter of the budget, more than $n(n-1)/2$ for every $n$ up to
# {glue:text}`n_overhead`), and at that floor a passive design still sees a share {glue:text}`share_low:.2f` of
# the pairs: enough, once the unseen pairs are completed rather than filled with a constant, because the order
# is over-determined by the similarities. A passive design needs at least the $\approx\tfrac12 n\ln n$ random
# pairs that leave no item unobserved, so a quadratic passive budget is not what the model implies; an active
# advantage by more than a constant factor would need an active algorithm whose floor is far below ours.
#
# Within our algorithm the adaptive allocation buys a modest saving: sampling the same two rows uniformly needs
# {glue:text}`ratio_uniform_min:.2f` to {glue:text}`ratio_uniform_max:.2f` times its budget for 90% success
# in this run, and at the calibrated budget it mostly falls short of 90% (above). But passive spectral
# seriation, with no adaptivity at all, needs less than either. The endpoint step is what makes our algorithm
# work (without it the rate is {glue:text}`succ_noend:.3f`, about the chance that the pivot is an end), and
# that step is a property of Robinson matrices, not of active sampling.
#
# **What this does and does not say about the paper.** The algorithm tested is ours. Its failure to
# beat passive seriation is evidence against the brief's design and against the brief's expectation (a
# quadratic budget for passive sampling), not against the paper's theorem: the paper proves guarantees for
# its own algorithm under its own separation condition, which we could not read, and its algorithm may use
# local comparisons that ours does not. What our active algorithm shows is the shape of an active guarantee
# (exact recovery with high probability at a budget of order $n\ln n\,\sigma^2/\Delta^2$, an error probability
# falling exponentially in the samples per item); passive designs show the same shape at a smaller or equal
# budget, so in our settings none of it needs active queries.
#
# ## What a skeptic would try
#
# This version was reviewed by an independent skeptic who did not write the page (below), after an
# earlier evidence review of the first version had found its controls weak: the endpoint-free ablation fails by
# construction (it succeeds only when the pivot is an end), Cauchy noise is a wrong input that scores zero from
# the fit rule, and passive spectral seriation passed the decay claims. The page measures every comparator
# itself, under each test's own criterion (seed 0 of this run):
#
# * **Passive spectral seriation** (the pre-registered tests): {glue:text}`succ_passive:.3f` exact recovery at
#   the calibrated budget; on the grid of its own calibrated $c=${glue:text}`c_passive:.2f`, error slope
#   {glue:text}`decay_slope_passive:.3f` and $R^2=${glue:text}`decay_r2_passive:.3f` over
#   {glue:text}`decay_points_passive` points in the window; budget slope {glue:text}`slope_passive:.2f`
#   ({glue:text}`slope_fix_passive:.2f` at fixed $\sigma/\Delta$).
# * **Passive designs that complete the unobserved pairs** (the post-hoc test, below $n(n-1)/2$ queries):
#   low-rank completion {glue:text}`low_lowrank:.3f`, profile completion {glue:text}`low_toeplitz:.3f`; the
#   brief's mean fill {glue:text}`low_meanfill:.3f`. While designing the test on seeds 0-9 we also tried spectral
#   seriation of the observed pairs alone (unobserved pairs at zero), of the correlations between rows, and a
#   shortest-path embedding of the observed dissimilarities: all recovered almost no order exactly, so we kept
#   the two strongest.
# * **Our algorithm without its adaptive allocation** (the ablation of every test): {glue:text}`succ_uniform:.3f`
#   at the calibrated budget (gain over passive {glue:text}`gain_uniform:+.3f`), {glue:text}`low_uniform:.3f`
#   below the all-pairs budget; own $c=${glue:text}`c_uniform:.2f`, error slope
#   {glue:text}`decay_slope_uniform:.3f`, $R^2=${glue:text}`decay_r2_uniform:.3f`; budget slope
#   {glue:text}`slope_uniform:.2f` ({glue:text}`slope_fix_uniform:.2f` at fixed $\sigma/\Delta$).
# * **A naive two-stage active scheme** (the calibrated-budget tests): {glue:text}`succ_refine:.3f` at the
#   calibrated budget, a gain over passive of {glue:text}`gain_refine:+.3f`.
# * **The endpoint-free strawman** (the first version's control, now in the error figure only):
#   {glue:text}`succ_noend:.3f` at the calibrated budget.
# * **Cauchy noise** (the first version's control of the decay claims, now in the decay figure only): the fit
#   window holds {glue:text}`cauchy_points` points, so the fit rule returns zero; a wrong input shows that the
#   fit can fail, not that the active design is needed.
#
# ### Reviewer's findings
#
# Reviewed by an independent skeptic (own scripts, own random streams, ci preset, seeds 0-9 only). Every
# glued number matched the record at seed 0, and the badge did not overclaim; the problems were in the test
# design, and this version answers each:
#
# * The headlines overstated the abstract: "fewer than passive observation" and "active beats passive" are the
#   brief's, not the paper's, and optimality cannot be tested here. Now: optimality untestable, the passive
#   comparison attributed to the brief, and the partial prior order listed as an untested headline.
# * The budget-scaling test could not discriminate: an exact $n\ln n$ rate sits in the edge band of its upper
#   bound, and the reviewer's passive slopes fell in the window as often as the method's. Now an illustration;
#   so is the fixed-ratio variant, which at ci reused the same curves, and the two decay tests, one fit that
#   the ablation and passive seriation also pass (the reviewer's passive slopes were at least as steep as the
#   method's).
# * "The regime where active sampling wins cannot be reached at ci sizes" was wrong: only our algorithm's
#   sequential-halving floor keeps it out below $n=80$, and with the mean-filled passive baseline the reviewer
#   found active (and the ablation) far ahead below the all-pairs budget. The reviewer asked for that setting
#   with a passive baseline that does not fill unseen pairs with a constant: the post-hoc test above, where
#   completed passive designs close the gap.
# * The active-beats-passive test cannot be passed by any method in its setting; the calibration grid's
#   overshoot; the caveats of the noise-level deviation; CPU rather than wall time for the preset: now said.
#
# ## What the miniature cannot show
#
# * The paper's algorithm, its separation condition and its constants: none were available, and there
#   are no reported numbers to set beside ours.
# * An active advantage by more than a constant factor. The regime where passive observation must pay (low
#   noise, budgets below $n(n-1)/2$) is reachable at ci sizes, but our algorithm's sequential-halving overhead
#   puts its smallest budget above $n(n-1)/2$ for every $n$ up to {glue:text}`n_overhead`, and at $n=80$ still at
#   a share {glue:text}`share_low:.2f` of the pairs, where completed passive designs recover the order too. An
#   active algorithm with a smaller floor (the paper's, perhaps) could be tested at budgets where a passive
#   design leaves items almost unobserved; ours cannot.
# * Whether an active learner can beat passive sampling in settings where most similarities carry no
#   information about the order (banded or saturating profiles, which break uniform separation), or with
#   partial prior knowledge of the order, which the arXiv version allows.
# * Optimality: that needs lower bounds; we show one algorithm's upper-bound behaviour at $n\le160$, with
#   slopes fitted over a factor of 8 in $n$ (a factor of 2 at ci scale, where the slope rests on two sizes).
# * Other baselines for passive seriation (the minimax-optimal estimators of the seriation literature; our
#   completed passive designs are simple ones of our own), a noise scale unknown to the algorithm, and noise
#   that is heavy-tailed but handled by a robust mean (the median would restore concentration under Cauchy
#   noise).
