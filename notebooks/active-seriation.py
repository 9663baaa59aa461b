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
# *A learner that chooses which pairs of items to compare can recover a hidden order exactly, with high
# probability, from about $n\log n\,\sigma^2/\Delta^2$ noisy similarity queries; we test an illustrative
# active algorithm of our own against its non-adaptive ablation, spectral seriation on passively sampled
# pairs, and a naive two-stage active scheme.*

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
    # about 8 s of CPU on one thread (measured, comparators included): two sizes, 200 trials per point,
    # half-octave budget grid
    "ci": dict(ns=(20, 40), trials=200, grid=(12, 34), exp_grid=(8, 24)),
    # about 7-8 min of CPU (estimated from per-point profiles): four sizes up to n = 160, 1000 trials per point
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
# item, and a budget that grows about linearly in $n$ where passive sampling should need more.
#
# **The paper's headline claims, in our words** (mapped to the tests in the claims cell below):
#
# 1. An active learner that chooses its pairs recovers the exact order with high probability.
# 2. Its error probability is optimal: it falls exponentially in the number of samples per item.
# 3. The number of observations it needs is optimal, of order $n\log n\,\sigma^2/\Delta^2$, where passive
#    observation of the pairs would need more.
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
#   a fresh uniform hidden order in every trial. For this profile the problem depends on $\sigma$ and
#   $\Delta$ only through $\sigma/\Delta=\sigma n$ (multiply the data by $n$), and every method here is
#   unchanged by an affine map of the similarities, so we report budgets in units of $\sigma^2/\Delta^2$:
#   the **normalised budget** $b=B\,\Delta^2/\sigma^2$. At $n=20$, $b=100$ means $B=400$ queries. With $\sigma$
#   fixed, the ratio $\sigma/\Delta=\sigma n$ grows with $n$ (2 at $n=20$, 16 at $n=160$). *Correction made
#   after the first run:* this bullet first said that equal $b$ meant fixed $\Delta/\sigma$ across sizes, which
#   is wrong; see the added sweep at fixed $\sigma/\Delta$ below.
# * **Methods** at the same budget: our active algorithm; its ablation without the adaptive allocation;
#   spectral seriation of the passive average; the naive two-stage active scheme; and, in the figures only,
#   our algorithm *without the endpoint step* (the whole budget sorts the pivot's own row, which is unimodal
#   rather than monotone: it succeeds only when the pivot happens to be an end, a strawman).
# * **Measured:** exact-recovery rate up to reversal over the trials (its complement is the error
#   probability), the mean Kendall distance (share of item pairs in the wrong order), and the
#   normalised budget at which the exact-recovery rate first reaches 0.9 (interpolated linearly in
#   $\log b$ between the grid points around the crossing), on the grid $b = 2^{6}, 2^{6.5},\dots,2^{17}$.
# * **Calibration** (brief: "$c$ calibrated once at $n=20$, then fixed"). On a separate calibration
#   run (its own random stream), $c$ is the smallest value on the grid $2^{j/4}$ for which the active
#   algorithm recovers the order in at least 90% of the trials at $n=20$ with budget
#   $B = c\,n\ln n\,\sigma^2/\Delta^2$. Code chooses it; it is then used unchanged at the largest size.
#   The error-decay tests measure every method by this same protocol: each comparator gets its own
#   calibration run and its own $c$.
# * **Sizes:** $n\in\{20,40\}$ at ci scale, $\{20,40,80,160\}$ at full scale, 200 and 1000 trials per
#   point. The tests at a single size use the largest one.
#
# **Tests.** The method, setting and criterion of each are the ones fixed before the first run (from the
# brief's checks). When the book asked every test for an ablation and naive baselines (issue 32), each gained
# them, measured under the same criterion; they run on their own random streams, so the method's values at
# every seed are the ones of the first version. The old controls were dropped: the endpoint-free ablation
# fails by construction, and Cauchy noise is a deliberately wrong input, which only a theorem test may use
# (both stay in the figures).
#
# 1. *Calibrated budget* (`calibrated-budget-recovers`). At the largest $n$ and $B=c\,n\ln n\,\sigma^2/\Delta^2$,
#    the active exact-recovery rate is $\ge 0.9$. Comparators at the same budget: the ablation, passive
#    spectral seriation, the naive two-stage scheme.
# 2. *Active beats passive* (`active-beats-passive`). At that budget, active rate minus passive rate
#    $\ge 0.3$. Comparators: the ablation's rate minus the passive rate, and the two-stage scheme's.
# 3. *Exponential decay.* At the largest $n$, on budgets $f\cdot c\,n\ln n\,\sigma^2/\Delta^2$ with
#    $f=0.5,0.625,\dots,2$, the least-squares line of $\ln\hat P(\text{error})$ against the normalised budget
#    per item $b/n$, fitted over the points with $2/T\le\hat P\le 0.5$ ($T$ trials; fewer than three such
#    points count as no decay, slope and $R^2$ zero), has slope $<0$ (`error-decays`) and $R^2\ge0.8$
#    (`error-decay-log-linear`). Comparators: the ablation and passive spectral seriation, each on the grid of
#    its own calibrated $c$ (the same protocol, so that no comparator scores zero merely because a grid built
#    for our algorithm puts its errors below the fit window).
# 4. *Budget scaling* (`budget-scaling-active`). The log-log slope of the 90%-success normalised budget
#    against $n$ lies in $[0.8,1.4]$. Comparators: the ablation's slope and passive spectral's slope. The
#    brief's expectation that the passive slope is $\ge1.8$ (first recorded as a claim of its own) measures
#    the baseline only, not the paper's method, and its number is this test's baseline: it is shown as an
#    illustration (`budget-scaling-passive`), not counted a second time.
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
#   every distance, and one noise level ($\sigma=0.1$; the brief also lists 0.05, which for this profile
#   only rescales $b$). The exponential profile $e^{-k/\ell}$ appears as an illustration without a test.
# * The brief's scaling check "budget against $n$" is measured, as the brief's data design says, with
#   $\Delta=1/n$ and $\sigma=0.1$ fixed, in units of $\sigma^2/\Delta^2$ (the raw number of queries carries a
#   further factor $\sigma^2n^2$). Our first text read this as a comparison at fixed $\Delta/\sigma$, which
#   it is not: $\sigma/\Delta$ grows with $n$, and the $n^2/2$ queries needed to see every pair once stay at
#   a constant $b=50$. At fixed $\sigma/\Delta$ that floor grows like $n^2$, which is where the brief's
#   quadratic passive budget should appear. **After the first run** we therefore added the same scaling
#   study at fixed $\sigma/\Delta=2$ (the ratio of the $n=20$ runs), with the criterion of test 4, as
#   `budget-scaling-active-fixed-ratio`, flagged post hoc (†); its passive counterpart is an illustration.
# * The passive baseline is spectral seriation, the brief's choice, not the minimax-optimal passive
#   estimator of the seriation literature; the budget is spread uniformly over all pairs (on our grid
#   every pair is observed at least once).
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
# ### The same study at fixed noise-to-separation ratio (added after the first run, post hoc)
#
# Here $\sigma = 2/n$, so $\sigma/\Delta = 2$ at every size, as in the $n=20$ runs above (whose curves are
# reused). Criterion, fixed before this sweep first ran: active slope in $[0.8,1.4]$ (the passive slope
# $\ge1.8$ was the brief's expectation, now an illustration). The sweep draws from its own random stream, so
# the numbers of the pre-registered tests are unchanged. When the budget is below $n(n-1)/2$ the passive
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
# quadratic floor the brief expected does not bind at these sizes.
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
# two-stage scheme (passive spectral seriation at that budget is measured above); and, for the decay tests,
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
# {glue:text}`succ_noend:.3f`. On the grid of its own calibrated $c$ ({glue:text}`c_active:.2f`) the
# active error probability falls with slope {glue:text}`decay_slope_active:.3f` per unit of $b/n$
# ($R^2=${glue:text}`decay_r2_active:.3f`); the ablation ($c=${glue:text}`c_uniform:.2f`) with slope
# {glue:text}`decay_slope_uniform:.3f` ($R^2=${glue:text}`decay_r2_uniform:.3f`), and passive spectral
# seriation ($c=${glue:text}`c_passive:.2f`) with slope {glue:text}`decay_slope_passive:.3f`
# ($R^2=${glue:text}`decay_r2_passive:.3f`). Under Cauchy noise the fit window holds
# {glue:text}`cauchy_points` points.
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
    tests=["calibrated-budget-recovers"])
claims.headline(
    "optimal-error-probability",
    "The error probability of the active algorithm is optimal: it falls exponentially in the samples per item "
    "(we test the exponential shape; optimality needs a lower bound and the paper's constants, which we do not have)",
    tests=["error-decays", "error-decay-log-linear"])
claims.headline(
    "optimal-sample-count",
    "The number of observations needed is optimal, of order n log n sigma^2/Delta^2, fewer than passive "
    "observation of the pairs would need",
    tests=["budget-scaling-active", "active-beats-passive", "budget-scaling-active-fixed-ratio"])

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
    paper="active queries beat passive observation (abstract: optimal guarantees); no numbers retrieved",
    criterion=at_least(0.3), measured=at["active"]["success"] - at["passive"]["success"],
    ablation=Comparator(ABL + ", minus passive", cmp_at["active-uniform"]["success"] - at["passive"]["success"],
                        ingredient=ADAPT),
    baselines=[Comparator(REFINE + ", minus passive", cmp_at["passive-refine"]["success"] - at["passive"]["success"])],
    tol=RATE)
claims.test(
    "error-decays",
    statement=f"ln P(error) falls with the budget per item (slope of the fit over f c n ln n, f in [0.5, 2], "
              f"n = {N_TEST})",
    paper="optimal error probability (abstract); no rate retrieved", criterion=less_than(0.0),
    measured=decay["gaussian"][2],
    ablation=Comparator(ABL + OWN_C, decay["active-uniform"][2], ingredient=ADAPT),
    baselines=[Comparator(PASSIVE + OWN_C, decay["passive"][2])], tol=FIT)
claims.test(
    "error-decay-log-linear",
    statement=f"ln P(error) is linear in the budget per item (R^2 of the same fit, n = {N_TEST})",
    paper="optimal error probability (abstract); no rate retrieved", criterion=at_least(0.8),
    measured=decay["gaussian"][3],
    ablation=Comparator(ABL + OWN_C, decay["active-uniform"][3], ingredient=ADAPT),
    baselines=[Comparator(PASSIVE + OWN_C, decay["passive"][3])], tol=FIT)
claims.test(
    "budget-scaling-active",
    statement=f"Log-log slope in n of the normalised budget for 90% success, active (n in {list(P.ns)})",
    paper="optimal number of observations (abstract); the brief expects about n log n", criterion=between(0.8, 1.4),
    measured=slope["active"],
    ablation=Comparator(ABL, slope["uniform"], ingredient=ADAPT),
    baselines=[Comparator(PASSIVE, slope["passive"])], tol=FIT)

FIXED_RATIO = ("added after the first run, which showed that the pre-registered scaling study holds sigma fixed, "
               "so sigma/Delta grows with n; this is the brief's scaling check at fixed sigma/Delta = 2")
claims.test(
    "budget-scaling-active-fixed-ratio",
    statement=f"Log-log slope in n of the normalised budget for 90% success at sigma/Delta = 2, active "
              f"(n in {list(P.ns)})",
    paper="optimal number of observations (abstract); the brief expects about n log n", criterion=between(0.8, 1.4),
    measured=slope_fix["active"],
    ablation=Comparator(ABL, slope_fix["uniform"], ingredient=ADAPT),
    baselines=[Comparator(PASSIVE, slope_fix["passive"])], tol=FIT, post_hoc=FIXED_RATIO)

BASELINE_ONLY = ("it measures the naive baseline alone, not the paper's method (the brief's expectation about passive "
                 "sampling, which the abstract does not state), and its number is already the baseline of {}, where a "
                 "passive slope inside [0.8, 1.4] makes that test not specific: one measurement is counted once")
claims.illustrate(
    "budget-scaling-passive",
    statement=f"Log-log slope in n of the normalised budget for 90% success, passive spectral (n in {list(P.ns)}); "
              "the brief expects about 2",
    paper="not in the abstract: the brief expects about n^2 (or more) for passive observation of all pairs",
    criterion=at_least(1.8), measured=slope["passive"], tol=FIT,
    why=BASELINE_ONLY.format("budget-scaling-active"))
claims.illustrate(
    "budget-scaling-passive-fixed-ratio",
    statement=f"The same slope at sigma/Delta = 2, passive spectral (n in {list(P.ns)}; added after the first run)",
    paper="not in the abstract: the brief expects about n^2 (or more) for passive observation of all pairs",
    criterion=at_least(1.8), measured=slope_fix["passive"], tol=FIT,
    why=BASELINE_ONLY.format("budget-scaling-active-fixed-ratio"))

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
# are from this run (ci, seed 0: $n\in\{20,40\}$, 200 trials per point); each test's status is the ci sweep's
# over seeds 0-9, and the judged table shows the full-scale sweep beside it.
#
# * *Exact recovery at the calibrated budget*, {repro-status}`calibrated-budget-recovers`. With $c$ fixed at
#   $n=20$, our algorithm recovers the exact order in a share {glue:text}`succ_active:.3f` of the trials at
#   $n=${glue:text}`n_test`. But at the same budget its ablation reaches {glue:text}`succ_uniform:.3f`, passive
#   spectral seriation {glue:text}`succ_passive:.3f` and the naive two-stage scheme {glue:text}`succ_refine:.3f`:
#   at this seed the budget suffices for every method we ran. Over the ci seeds the passive baseline passes at
#   {repro-seeds}`calibrated-budget-recovers:baseline1:pass` seeds, so the test is not specific; the ablation
#   passes at {repro-seeds}`calibrated-budget-recovers:ablation:pass` and fails at
#   {repro-seeds}`calibrated-budget-recovers:ablation:fail` (the others at the edge), and the two-stage scheme
#   passes at {repro-seeds}`calibrated-budget-recovers:baseline2:pass`.
# * *Active beats passive*, {repro-status}`active-beats-passive`. Active minus passive exact recovery is
#   {glue:text}`gain_active:+.3f` (criterion $\ge0.3$); the method passes at
#   {repro-seeds}`active-beats-passive:method:pass` seeds. In this run passive spectral seriation is the better
#   method at both sizes: it reaches 90% with {glue:text}`ratio_b90_min:.2f` to {glue:text}`ratio_b90_max:.2f`
#   times the active budget.
# * *Exponential decay of the error*, {repro-status}`error-decays` and
#   {repro-status}`error-decay-log-linear`. Our algorithm's $\ln P(\text{error})$ falls linearly in the budget
#   per item (slope {glue:text}`decay_slope_active:.3f`, $R^2=${glue:text}`decay_r2_active:.3f`; the figure
#   draws our union bound for uniform sampling beside it). Measured by the same protocol, passive spectral seriation gives slope
#   {glue:text}`decay_slope_passive:.3f` and $R^2=${glue:text}`decay_r2_passive:.3f`, and the ablation slope
#   {glue:text}`decay_slope_uniform:.3f` and $R^2=${glue:text}`decay_r2_uniform:.3f`. The
#   passive baseline passes the slope criterion at {repro-seeds}`error-decays:baseline1:pass` seeds and the
#   $R^2$ criterion at {repro-seeds}`error-decay-log-linear:baseline1:pass`; the ablation passes them at
#   {repro-seeds}`error-decays:ablation:pass` and {repro-seeds}`error-decay-log-linear:ablation:pass`. An
#   exponential tail is what any estimator built on averages of Gaussian noise shows, so the shape is not
#   evidence for the active design.
# * *Budget scaling*, {repro-status}`budget-scaling-active`. The active budget for 90% success grows with
#   log-log slope {glue:text}`slope_active:.2f` (an $n\ln n$ budget has {glue:text}`slope_nlogn:.2f` between the
#   two ci sizes), the ablation's with {glue:text}`slope_uniform:.2f` and the passive method's with
#   {glue:text}`slope_passive:.2f`. With two sizes at ci scale each slope is a two-point estimate, and the
#   test's declared tolerance (a tenth of the value, for a fit to Monte Carlo rates) puts most values near the
#   window's upper end $1.4$ in its band: the method is at the edge at
#   {repro-seeds}`budget-scaling-active:method:edge` seeds and passes at
#   {repro-seeds}`budget-scaling-active:method:pass`, the passive baseline is at the edge at
#   {repro-seeds}`budget-scaling-active:baseline1:edge` and passes at
#   {repro-seeds}`budget-scaling-active:baseline1:pass`. The ci sweep cannot tell the three slopes apart,
#   which is why the test is not reproduced rather than not specific. The brief's expectation of a passive
#   slope of about 2 (the illustration `budget-scaling-passive`) is far from every value we measure.
# * *At fixed $\sigma/\Delta=2$* (post hoc, {repro-status}`budget-scaling-active-fixed-ratio`) the slopes are
#   {glue:text}`slope_fix_active:.2f` (active), {glue:text}`slope_fix_uniform:.2f` (ablation) and
#   {glue:text}`slope_fix_passive:.2f` (passive), again mostly inside the tolerance band of $1.4$ (the method
#   at the edge at {repro-seeds}`budget-scaling-active-fixed-ratio:method:edge` seeds). This is where the
#   $n^2/2$ queries of seeing every pair should eventually make the passive method pay; at the sizes we ran it
#   does not yet.
#
# **Why, as far as we can tell.** Under uniform separation every similarity carries information about
# the order: items at positions $p$ and $p+1$ differ by at least $\Delta$ in their similarity to *every*
# other item. Passive sampling of all pairs therefore collects evidence about each adjacent swap from
# about $n$ entries, each with about $2B/n^2$ samples, and an active learner that reads one row puts about
# $B/n$ samples on one entry per item: the same order, $B\Delta^2/(n\sigma^2)$, in both cases. Spectral
# seriation aggregates all of it through the Fiedler vector, while our algorithm spends a quarter of the
# budget on the endpoint and compares each pair of neighbours through two noisy entries. Observing all
# pairs costs $n^2/2$ queries, which with $\Delta=1/n$ and $\sigma$ fixed is a constant $b=50$, so the
# $\Theta(n^2)$ of "observing every pair" never binds in the pre-registered study. At fixed $\sigma/\Delta$
# it grows like $n^2$ and, for large enough $n$, overtakes the passive method's cost of the noise; our
# algorithm's own overhead keeps the ci sizes out of that regime at any noise level: sequential halving needs
# $\lceil\log_2(n-1)\rceil(n-1)$ queries on a quarter of the budget, so the smallest budget our algorithm
# accepts exceeds the $n(n-1)/2$ queries of seeing every pair once for every $n$ up to
# {glue:text}`n_overhead`. The brief's expectation of a quadratic passive budget is therefore a statement about low noise or
# large $n$, not about the sizes and noise level it proposed.
#
# Within our algorithm the adaptive allocation buys a modest saving: sampling the same two rows uniformly needs
# {glue:text}`ratio_uniform_min:.2f` to {glue:text}`ratio_uniform_max:.2f` times its budget for 90% success
# in this run, and at the calibrated budget it mostly falls short of 90% (above). But passive spectral
# seriation, with no adaptivity at all, needs less than either. The endpoint step is what makes our algorithm
# work (without it the rate is {glue:text}`succ_noend:.3f`, about the chance that the pivot is an end), and
# that step is a property of Robinson matrices, not of active sampling.
#
# **What this does and does not say about the paper.** The algorithm tested here is ours. Its failure to
# beat passive seriation is evidence against the brief's design and against the brief's reading of the
# separation (a quadratic budget for passive sampling), not against the paper's theorem: the paper proves
# optimality among active algorithms under its own separation condition, which we could not read, and its
# algorithm may use local comparisons that ours does not. What our active algorithm shows is the shape of an
# active guarantee (exact recovery with high probability at a budget of order $n\ln n\,\sigma^2/\Delta^2$, an
# error probability falling exponentially in the samples per item); passive spectral seriation shows the same
# shape at a smaller budget, so in our setting none of it needs active queries.
#
# ## What a skeptic would try
#
# The book's evidence review of the first version of this page found its controls weak: the endpoint-free
# ablation fails by construction (it succeeds only when the pivot is an end), Cauchy noise is a wrong input
# that scores zero from the fit rule, and passive spectral seriation, run by the reviewer, passed the decay
# claims. The page now measures these comparators itself, under each test's own criterion (seed 0 of this
# run):
#
# * **Passive spectral seriation** (every test): {glue:text}`succ_passive:.3f` exact recovery at the calibrated
#   budget; on the grid of its own calibrated $c=${glue:text}`c_passive:.2f`, error slope
#   {glue:text}`decay_slope_passive:.3f` and $R^2=${glue:text}`decay_r2_passive:.3f` over
#   {glue:text}`decay_points_passive` points in the window; budget slope {glue:text}`slope_passive:.2f`
#   ({glue:text}`slope_fix_passive:.2f` at fixed $\sigma/\Delta$).
# * **Our algorithm without its adaptive allocation** (the ablation of every test): {glue:text}`succ_uniform:.3f`
#   at the calibrated budget (gain over passive {glue:text}`gain_uniform:+.3f`); own $c=${glue:text}`c_uniform:.2f`,
#   error slope {glue:text}`decay_slope_uniform:.3f`, $R^2=${glue:text}`decay_r2_uniform:.3f`; budget slope
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
# Reviewed by: (pending). The independent reviewer of this version will record here what they tried against each
# counted test, with its numbers, and where the prose disagrees with the record.
#
# ## What the miniature cannot show
#
# * The paper's algorithm, its separation condition and its constants: none were available, and there
#   are no reported numbers to set beside ours.
# * The regime where active sampling should win: at fixed $\sigma/\Delta$ and large $n$, where the $n^2/2$
#   queries of passive observation exceed the $n\ln n\,\sigma^2/\Delta^2$ an active learner needs. Our
#   algorithm's minimum budget exceeds $n(n-1)/2$ for every $n$ up to {glue:text}`n_overhead`, so the ci sizes
#   cannot reach it.
# * Whether an active learner can beat passive sampling by more than a constant factor in settings where
#   most similarities carry no information about the order (banded or saturating profiles, which break
#   uniform separation), or with partial prior knowledge of the order, which the arXiv version allows.
# * Minimax optimality: that needs lower bounds; we show one algorithm's upper-bound behaviour at
#   $n\le160$, with slopes fitted over a factor of 8 in $n$ (a factor of 2 at ci scale, where the slope
#   rests on two sizes).
# * Other baselines for passive seriation (the minimax-optimal estimators of the seriation literature), a
#   noise scale unknown to the algorithm, and noise that is heavy-tailed but handled by a robust mean
#   (the median would restore concentration under Cauchy noise).
