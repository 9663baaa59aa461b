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
# active algorithm of our own against spectral seriation on passively sampled pairs.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from scipy.stats import norm

from repro.claims import Claims, at_least, between, less_than, tolerance
from repro.papers import active_seriation as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    # about 7 s of CPU on one thread (measured): two sizes, 200 trials per point, half-octave budget grid
    "ci": dict(ns=(20, 40), trials=200, grid=(12, 34), exp_grid=(8, 24)),
    # about 6-7 min of CPU (estimated from per-point profiles; 13 min wall on a loaded 2-core machine):
    # four sizes up to n = 160, 1000 trials per point
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
# algorithm that we designed from the reproduction brief, not the paper's algorithm**, and its checks
# are qualitative stand-ins for the paper's theorems: exact recovery at a budget of order
# $n\log n\,\sigma^2/\Delta^2$, an error probability that falls exponentially in the number of samples per
# item, and a budget that grows about linearly in $n$ where passive sampling should need more.
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
# **The passive baseline** spreads the same budget uniformly over all $n(n-1)/2$ pairs, averages, and
# applies *spectral seriation* (`K.spectral_seriation`): sort the Fiedler vector (eigenvector of the
# second smallest eigenvalue) of the Laplacian $L=\operatorname{diag}(S\mathbf 1)-S$ of the averaged matrix
# $S$. For a noiseless Robinson matrix with positive entries the Fiedler vector is monotone along the
# order (Atkins, Boman and Hendrickson, 1998), so this recovers the order exactly without noise.
#
# ## The experiment
#
# * **Data.** Profile $g(k)=1-k/n$, so $\Delta=1/n$ and all entries lie in $(0,1]$; $\sigma=0.1$;
#   a fresh uniform hidden order in every trial. For this profile the problem depends on $\sigma$ and
#   $\Delta$ only through $\sigma/\Delta=\sigma n$ (multiply the data by $n$), and both methods are
#   unchanged by an affine map of the similarities, so we report budgets in units of $\sigma^2/\Delta^2$:
#   the **normalised budget** $b=B\,\Delta^2/\sigma^2$. At $n=20$, $b=100$ means $B=400$ queries. With $\sigma$
#   fixed, the ratio $\sigma/\Delta=\sigma n$ grows with $n$ (2 at $n=20$, 16 at $n=160$). *Correction made
#   after the first run:* this bullet first said that equal $b$ meant fixed $\Delta/\sigma$ across sizes, which
#   is wrong; see the added sweep at fixed $\sigma/\Delta$ below.
# * **Methods** at the same budget: our active algorithm; spectral seriation of the passive average;
#   and, as the ablation, our algorithm *without the endpoint step* (the whole budget sorts the pivot's
#   own row, which is unimodal rather than monotone).
# * **Measured:** exact-recovery rate up to reversal over the trials (its complement is the error
#   probability), the mean Kendall distance (share of item pairs in the wrong order), and the
#   normalised budget at which the exact-recovery rate first reaches 0.9 (interpolated linearly in
#   $\log b$ between the grid points around the crossing), on the grid $b = 2^{6}, 2^{6.5},\dots,2^{17}$.
# * **Calibration** (brief: "$c$ calibrated once at $n=20$, then fixed"). On a separate calibration
#   run (its own random stream), $c$ is the smallest value on the grid $2^{j/4}$ for which the active
#   algorithm recovers the order in at least 90% of the trials at $n=20$ with budget
#   $B = c\,n\ln n\,\sigma^2/\Delta^2$. Code chooses it; it is then used unchanged at the largest size.
# * **Sizes:** $n\in\{20,40\}$ at ci scale, $\{20,40,80,160\}$ at full scale, 200 and 1000 trials per
#   point. The claims at a single size use the largest one.
#
# **Claims, fixed before the first run** (from the brief's checks; each with its control):
#
# 1. *Calibrated budget.* At the largest $n$ and $B=c\,n\ln n\,\sigma^2/\Delta^2$, the active exact-recovery
#    rate is $\ge 0.9$. Control: spectral seriation of the passive average at the same budget.
# 2. *Active beats passive.* At that budget, active rate minus passive rate $\ge 0.3$. Control: the
#    ablation (no endpoint step) minus the passive rate.
# 3. *Exponential decay.* At the largest $n$, on budgets $f\cdot c\,n\ln n\,\sigma^2/\Delta^2$ with
#    $f=0.5,0.625,\dots,2$, the least-squares line of $\ln\hat P(\text{error})$ against the normalised budget
#    per item $b/n$, fitted over the points with $2/T\le\hat P\le 0.5$ ($T$ trials; fewer than three such
#    points count as no decay, slope and $R^2$ zero), has slope $<0$ (claim 3a) and $R^2\ge0.8$ (3b).
#    Control for both: the same algorithm and fit under Cauchy noise of scale $\sigma$, whose averages
#    do not concentrate, so the premise of the bound (light-tailed noise) fails.
# 4. *Budget scaling.* The log-log slope of the 90%-success normalised budget against $n$ lies in
#    $[0.8,1.4]$ for the active method (4a; control: the passive method's slope), and is $\ge1.8$ for the
#    passive method (4b, the brief's "$\approx 2$ or more"; control: the active slope).
#
# **Deviations from the paper**
#
# * The algorithm is ours (designed from the brief), not the paper's, which we could not read: the
#   checks test the phenomena the abstract names, not the paper's theorem or its constants.
# * Fixed budget instead of fixed confidence: the brief's kernels stop when confidence intervals
#   separate (a random budget); ours spend exactly $B$ queries, so that active and passive can be
#   compared at equal budgets. Our choices, with no counterpart we could check in the paper: pivot = item 0
#   (a uniformly random position, since the order is random), a quarter of the budget for the endpoint,
#   sequential halving, three adaptive rounds, intervals of $\pm2\sigma/\sqrt k$, $\sigma$ known.
# * No partial prior knowledge of the order (the arXiv version allows it); seriation from scratch only.
# * One profile for the claims, $g(k)=1-k/n$, the case in which the separation condition is tight at
#   every distance, and one noise level ($\sigma=0.1$; the brief also lists 0.05, which for this profile
#   only rescales $b$). The exponential profile $e^{-k/\ell}$ appears as an illustration without a claim.
# * The brief's scaling check "budget against $n$" is measured, as the brief's data design says, with
#   $\Delta=1/n$ and $\sigma=0.1$ fixed, in units of $\sigma^2/\Delta^2$ (the raw number of queries carries a
#   further factor $\sigma^2n^2$). Our first text read this as a comparison at fixed $\Delta/\sigma$, which
#   it is not: $\sigma/\Delta$ grows with $n$, and the $n^2/2$ queries needed to see every pair once stay at
#   a constant $b=50$. At fixed $\sigma/\Delta$ that floor grows like $n^2$, which is where the brief's
#   quadratic passive budget should appear. **After the first run** we therefore added the same scaling
#   study at fixed $\sigma/\Delta=2$ (the ratio of the $n=20$ runs), with the criteria of claims 4a and
#   4b, as claims 5a and 5b, flagged post hoc (†).
# * The passive baseline is spectral seriation, the brief's choice, not the minimax-optimal passive
#   estimator of the seriation literature; the budget is spread uniformly over all pairs (on our grid
#   every pair is observed at least once).
# * Observations are drawn through their sufficient statistics (the sum of $k$ Gaussian observations is
#   drawn as $kM+\sigma\sqrt k\,Z$), an exact shortcut that makes a trial's cost independent of $B$.
# * Heavy-tailed noise appears only as the control of claim 3, not as a robustness study; the brief's
#   sizes $n\le80$ are extended to $n=160$ at full scale.
# * Claim 4b is the brief's expectation about the baseline, not a statement of the paper's abstract.

# %%
print(f"scale={P.scale}: n in {P.ns}, {P.trials} trials per point, sigma={SIGMA}, "
      f"normalised budgets 2^{P.grid[0] / 2:g} .. 2^{P.grid[1] / 2:g}")


def raw_budget(b, n, sigma=SIGMA):
    """Queries for a normalised budget b = B Delta^2 / sigma^2 with Delta = 1/n."""
    return int(round(b * (sigma * n) ** 2))


def run(method, n, b, rng, noise="gaussian", trials=None, sigma=SIGMA):
    return K.simulate(method, n, raw_budget(b, n, sigma), trials or P.trials, sigma, K.linear_profile(n), rng, noise)


# %% [markdown]
# ### Calibration of the budget constant (separate run, $n=20$)

# %%
rng_cal = np.random.default_rng([seed, 1])  # the calibration's own stream: the runs below never see it
c_grid = 2.0 ** (np.arange(0, 41) / 4)
cal = {}
for c in c_grid:  # smallest c on the grid with success >= 0.9; the search stops there
    b = c * N_CAL * np.log(N_CAL)
    if raw_budget(b, N_CAL) < K.active_min_budget(N_CAL):
        continue
    cal[c] = run("active", N_CAL, b, rng_cal)["success"]
    if cal[c] >= LEVEL:
        break
C = float(c)
if cal[c] < LEVEL:
    print(f"WARNING: no c on the grid reached {LEVEL} at n = {N_CAL}; the largest one is used")
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
                label=f"{method}, n = {n}" if method != "no-endpoint" else f"no endpoint step (ablation), n = {n}")
ax.axhline(floor, color="0.6", lw=0.8)
ax.text(grid[0], floor * 1.15, f"no error in {P.trials} trials", fontsize=8, color="0.4")
ax.axhline(1 - LEVEL, color="0.3", lw=0.8, ls="-.")
ax.set(xscale="log", yscale="log", ylim=(floor / 1.5, 1.5), xlabel=r"normalised budget $b = B\,\Delta^2/\sigma^2$",
       ylabel="P(order not recovered exactly)", title=r"Error probability vs budget ($g(k)=1-k/n$, $\sigma=0.1$)")
ax.legend(fontsize=7, loc="center right")
plt.show()

# %% [markdown]
# ### Budget for 90% success against $n$

# %%
b90 = {m: np.array([K.budget_at_success(curves[m, n][0], curves[m, n][1], LEVEL) for n in P.ns])
       for m in ("active", "passive")}
slope = {m: loglog_slope(P.ns, b90[m]) for m in b90}
print(f"{'n':>5} {'b90 active':>11} {'b90 passive':>12} {'raw B active':>13} {'raw B passive':>14} {'passive/active':>15}")
for i, n in enumerate(P.ns):
    print(f"{n:>5} {b90['active'][i]:>11.0f} {b90['passive'][i]:>12.0f} {b90['active'][i] * (SIGMA * n) ** 2:>13.0f} "
          f"{b90['passive'][i] * (SIGMA * n) ** 2:>14.0f} {b90['passive'][i] / b90['active'][i]:>15.2f}")
print(f"log-log slope of b90 against n: active {slope['active']:.2f}, passive {slope['passive']:.2f}")

# %%
fig, ax = plt.subplots(figsize=(6.4, 4))
ns = np.array(P.ns, dtype=float)
nn = np.geomspace(ns[0], ns[-1], 50)
for m, mk, col in (("active", "o", "C0"), ("passive", "s", "C3")):
    ax.plot(ns, b90[m], mk + "-", color=col, label=f"{m}: fitted slope {slope[m]:.2f}")
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
# ### The same study at fixed noise-to-separation ratio (added after the first run, post hoc)
#
# Here $\sigma = 2/n$, so $\sigma/\Delta = 2$ at every size, as in the $n=20$ runs above (whose curves are
# reused). Criteria, fixed before this sweep first ran: active slope in $[0.8,1.4]$ (claim 5a, control: the
# passive slope) and passive slope $\ge1.8$ (claim 5b, control: the active slope). The sweep draws from its
# own random stream, so the numbers of the pre-registered claims are unchanged. When the budget is below
# $n(n-1)/2$ the passive method leaves pairs unobserved and fills them with the mean of the observed entries.

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
        ok = [b for b in grid if method == "passive" or raw_budget(b, n, sig) >= K.active_min_budget(n)]
        fixed[method, n] = (np.array(ok), np.array([run(method, n, b, rng_fix, sigma=sig)["success"] for b in ok]))
b90_fix = {m: np.array([K.budget_at_success(*fixed[m, n], LEVEL) for n in P.ns]) for m in ("active", "passive")}
slope_fix = {m: loglog_slope(P.ns, b90_fix[m]) for m in b90_fix}
print(f"sigma/Delta = {RATIO:g} at every n")
print(f"{'n':>5} {'b90 active':>11} {'b90 passive':>12} {'all pairs once (b)':>19}")
for i, n in enumerate(P.ns):
    print(f"{n:>5} {b90_fix['active'][i]:>11.0f} {b90_fix['passive'][i]:>12.0f} {n * (n - 1) / 2 / RATIO**2:>19.0f}")
print(f"log-log slope of b90 against n: active {slope_fix['active']:.2f}, passive {slope_fix['passive']:.2f}")

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
for m, mk, col in (("active", "o", "C0"), ("passive", "s", "C3")):
    a2.plot(ns, b90_fix[m], mk + "-", color=col, label=f"{m}: fitted slope {slope_fix[m]:.2f}")
a0f = b90_fix["active"][0]
a2.plot(nn, a0f * nn * np.log(nn) / (ns[0] * np.log(ns[0])), "k--", lw=1, label=r"$\propto n\ln n$")
a2.plot(nn, nn * (nn - 1) / 2 / RATIO**2, "k:", lw=1, label=r"every pair once, $n(n-1)/2$ queries")
a2.set(xscale="log", yscale="log", xlabel="number of items n", ylabel=r"$b_{90}$", title="Budget for 90% success, fixed ratio")
a2.set_xticks(ns, [str(int(v)) for v in ns])
a2.xaxis.set_minor_formatter(plt.NullFormatter())
a2.legend(fontsize=8)
plt.show()

# %% [markdown]
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

# %%
fig, ax = plt.subplots(figsize=(6.4, 4))
x, p_err, sl, r2, m = decay["gaussian"]
use = (p_err >= 2 / P.trials) & (p_err <= 0.5)
ax.semilogy(x, np.maximum(p_err, floor), "o", color="C0", mfc="none", label="active, Gaussian noise")
ax.semilogy(x[use], p_err[use], "o", color="C0", label="points in the fit window")
if m >= 3:
    icpt = np.mean(np.log(p_err[use]) - sl * x[use])
    ax.semilogy(x, np.exp(icpt + sl * x), "C0-", lw=1, label=f"fit: slope {sl:.3f}, $R^2$ = {r2:.2f}")
xc, pc, *_ = decay["cauchy"]
ax.semilogy(xc, np.maximum(pc, floor), "^", color="C3", label="active, Cauchy noise (control)")
k_entry = 0.75 * x * n / (n - 1)  # normalised samples per entry of the end's row, uniform allocation
ax.semilogy(x, np.minimum((n - 2) * norm.sf(np.sqrt(k_entry / 2)), 1), "k--", lw=1,
            label=r"union bound $(n-2)\Phi(-\sqrt{k\Delta^2/2\sigma^2})$, uniform $k$")
ax.axhline(floor, color="0.6", lw=0.8)
ax.set(xlabel=r"normalised budget per item $b/n$", ylabel="P(order not recovered exactly)", ylim=(floor / 1.5, 1.5),
       title=f"Error probability decays exponentially (n = {n})")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### Outside the uniform-separation regime: an exponential profile (no claim)
#
# With $g(k)=e^{-4k/n}$ the similarities flatten far from the diagonal: neighbouring entries of an end's
# row differ by as little as $\Delta\approx 0.005$ at $n=20$ (against $0.05$ for the linear profile), while
# entries near the diagonal still differ a lot. Raw budgets here, $n=20$.

# %%
n_e = N_CAL
g_exp = K.exponential_profile(n_e / 4)
raw_grid = 2 ** np.arange(P.exp_grid[0], P.exp_grid[1] + 1)
exp_curves = {}
for m in progress(("active", "passive"), desc="exponential profile"):
    ok = [B for B in raw_grid if m == "passive" or B >= K.active_min_budget(n_e)]
    exp_curves[m] = (np.array(ok), np.array([K.simulate(m, n_e, int(B), P.trials, SIGMA, g_exp, P.rng)["success"]
                                             for B in ok]))
print(f"exponential profile, n = {n_e}: Delta = {K.min_separation(g_exp, n_e):.4f}; raw budget for 90% success: "
      + ", ".join(f"{m} {K.budget_at_success(*exp_curves[m], LEVEL):.3g}" for m in exp_curves))

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
# ### The paper's numbers
#
# None: the paper's figures and tables were out of reach, and its abstract states guarantees without
# numbers, so there is no row of the paper's values to put beside ours. The claims below compare our
# algorithm with the brief's thresholds and with controls measured in the same run.

# %%
RATE = tolerance(abs=0.02, why=f"share of {P.trials} random trials: exact for a seed, but a trial near a tie "
                 "(two noisy means, or a Fiedler vector entry) may flip under other float kernels")
FIT = tolerance(rel=0.1, abs=0.02, why="fit to Monte Carlo rates over random trials (see the rate tolerance)")
PAPER = "exact recovery with high probability at an optimal number of observations (abstract); no numbers retrieved"
claims.check("calibrated-budget-recovers",
             statement=f"At n = {N_TEST} and B = c n ln n sigma^2/Delta^2 (c = {C:.3g}, calibrated at n = 20 on a "
                       "separate run), our active algorithm recovers the exact order (up to reversal) in >= 90% of trials",
             paper=PAPER, criterion=at_least(0.9), measured=at["active"]["success"],
             control=at["passive"]["success"], control_label="spectral seriation of the passive average, same budget",
             tol=RATE)
claims.check("active-beats-passive",
             statement=f"At that budget, active exact-recovery rate minus passive rate (n = {N_TEST})",
             paper="active queries beat passive observation (abstract: optimal guarantees); no numbers retrieved",
             criterion=at_least(0.3), measured=at["active"]["success"] - at["passive"]["success"],
             control=at["no-endpoint"]["success"] - at["passive"]["success"],
             control_label="ablation without the endpoint step (sorts the pivot's own row) minus passive", tol=RATE)
claims.check("error-decays",
             statement=f"ln P(error) of the active algorithm falls with the budget per item (slope of the fit, n = {N_TEST})",
             paper="optimal error probability (abstract); no rate retrieved", criterion=less_than(0.0),
             measured=decay["gaussian"][2], control=decay["cauchy"][2],
             control_label="same algorithm under Cauchy noise of scale sigma (averages do not concentrate)", tol=FIT)
claims.check("error-decay-log-linear",
             statement=f"ln P(error) is linear in the budget per item (R^2 of the fit, n = {N_TEST})",
             paper="optimal error probability (abstract); no rate retrieved", criterion=at_least(0.8),
             measured=decay["gaussian"][3], control=decay["cauchy"][3],
             control_label="same algorithm under Cauchy noise of scale sigma (averages do not concentrate)", tol=FIT)
claims.check("budget-scaling-active",
             statement=f"Log-log slope in n of the normalised budget for 90% success, active (n in {list(P.ns)})",
             paper="optimal number of observations (abstract); the brief expects about n log n", criterion=between(0.8, 1.4),
             measured=slope["active"], control=slope["passive"],
             control_label="the same slope for spectral seriation of passive averages", tol=FIT)
claims.check("budget-scaling-passive",
             statement=f"Log-log slope in n of the normalised budget for 90% success, passive spectral (n in {list(P.ns)})",
             paper="not in the abstract: the brief expects about n^2 (or more) for passive observation of all pairs",
             criterion=at_least(1.8), measured=slope["passive"], control=slope["active"],
             control_label="the same slope for our active algorithm", tol=FIT)

FIXED_RATIO = ("added after the first run, which showed that the pre-registered scaling study holds sigma fixed, "
               "so sigma/Delta grows with n; this is the brief's scaling check at fixed sigma/Delta = 2")
claims.check("budget-scaling-active-fixed-ratio",
             statement=f"Log-log slope in n of the normalised budget for 90% success at sigma/Delta = 2, active (n in {list(P.ns)})",
             paper="optimal number of observations (abstract); the brief expects about n log n", criterion=between(0.8, 1.4),
             measured=slope_fix["active"], control=slope_fix["passive"],
             control_label="the same slope for spectral seriation of passive averages", tol=FIT, post_hoc=FIXED_RATIO)
claims.check("budget-scaling-passive-fixed-ratio",
             statement=f"Log-log slope in n of the normalised budget for 90% success at sigma/Delta = 2, passive spectral (n in {list(P.ns)})",
             paper="not in the abstract: the brief expects about n^2 (or more) for passive observation of all pairs",
             criterion=at_least(1.8), measured=slope_fix["passive"], control=slope_fix["active"],
             control_label="the same slope for our active algorithm", tol=FIT, post_hoc=FIXED_RATIO)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Partial, and mostly not in the direction the brief expected.** Of the four pre-registered claims that
# count, two are reproduced (the error probability of our active algorithm falls exponentially in the
# budget per item) and two are not (the active algorithm does not beat passive spectral seriation, and
# passive sampling does not need a quadratic budget). Two more are uninformative because the passive
# control passes them too. No pre-registered criterion has changed since the first run. The two claims at
# fixed $\sigma/\Delta$ were added after it (†, see the deviations). Numbers are from seed 0 (ci:
# $n\in\{20,40\}$, 200 trials per point; full: $n\le160$, 1000 trials per point); the claims' full-scale
# values are in the last column of the table "Across seeds and scales", and the text gives only those the
# table does not carry.
#
# Over seeds 0–9 at ci scale (the table "Across seeds and scales" above, from `make sweep`) the reading does
# not change. The two decay claims hold at every seed, and the two that fail, fail at every seed: active minus
# passive exact recovery is between $-0.075$ and $-0.02$, the passive budget slope between 1.16 and 1.37. The
# uninformative claims stay uninformative except at one seed each. At seed 2 the active slope (1.45) leaves the
# window $[0.8,1.4]$, so claim 4a is not reproduced there; at seed 8 the passive slope at fixed $\sigma/\Delta$
# (1.43) leaves it, so claim 5a counts and is reproduced there. With two sizes at ci scale each slope is a
# two-point estimate, and these flips are its noise.
#
# * *Our active algorithm works as designed.* The endpoint step is essential: without it the
#   exact-recovery rate stays at the chance that the pivot happens to be an end (0.035 at $n=40$, 0.014 at
#   $n=160$). With it, the calibrated budget $b=c\,n\ln n$ ($c=6.7$ at ci, $5.7$ at full, each fixed by the
#   calibration run at $n=20$) still gives at least 90% exact recovery at the largest size ($n=40$ at ci;
#   $n=160$, eight times the calibration size, at full scale). The budget for 90% success grows with log-log
#   slope 1.26 at ci (and a similar one at full scale, over four sizes), on the $n\ln n$ reference line of the
#   second figure; likewise at fixed $\sigma/\Delta=2$.
# * *The error probability decays exponentially.* $\ln P(\text{error})$ is linear in the normalised budget
#   per item ($R^2=0.985$, slope $-0.24$ at ci; steeper and as straight at full scale), and lies under our
#   union bound for uniform sampling, whose slope tends to $-3/16\approx-0.19$ ($k\Delta^2/4\sigma^2$
#   with three quarters of the budget on the end's row). Under Cauchy noise of the same scale the same
#   algorithm never reaches an error rate below 0.5 (control).
# * *Passive spectral seriation is better, not worse.* With $\sigma$ fixed it reaches 90% exact recovery
#   with about 0.6 times the active budget at every size (0.64 and 0.63 at ci; 0.57 to 0.64 at full), and
#   its budget grows with a similar slope (1.24 at ci), far from the brief's expected $\approx2$. So claim 2
#   (active minus passive $\ge0.3$; negative at both scales) and claim 4b
#   (passive slope $\ge1.8$) are **not reproduced**, and claims 1 and 4a are uninformative: the passive
#   baseline passes them as well (0.999 exact recovery at the calibrated budget at $n=160$).
# * *At fixed $\sigma/\Delta=2$ (post hoc)* the passive budget starts to feel the cost of seeing every
#   pair: its $b_{90}$ rises towards $n(n-1)/2$ queries (3961 against 3180 at $n=160$), its slope over
#   $n=20$ to $160$ steepens (1.65 between 80 and 160), and the active slope is then the only one inside
#   $[0.8,1.4]$: claim 5a is reproduced at full scale (uninformative at ci, where two sizes give the passive
#   method a slope of 1.26). Claim 5b (passive slope $\ge1.8$) is not reproduced at either scale, and the
#   passive method still needs fewer queries than ours at every size run (0.94 times at $n=160$). If the
#   trends continue (an extrapolation we did not run), its quadratic regime, and with it an advantage for
#   our active algorithm, would begin a little beyond our largest size.
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
# it grows like $n^2$ and, at $\sigma/\Delta=2$, overtakes the passive method's $n\ln n$ cost of the noise
# near $n\approx120$ (where its curve bends upward in our runs); for lower noise it binds earlier. The brief's expectation of a quadratic passive
# budget is therefore a statement about low noise or large $n$, not about the sizes and noise level it proposed.
#
# The exponential profile (last figure, no claim) shows the same ordering for a different reason: its
# similarities flatten far from the diagonal, so the end's row, which our algorithm must sort, has its
# smallest gaps exactly where our algorithm looks, while the passive average still sees the large gaps near
# the diagonal. Our algorithm needed about 17 times the passive budget there (raw budget for 90% success
# $2.9\cdot10^4$ against $1.7\cdot10^3$ at $n=20$).
#
# **What this does and does not say about the paper.** The algorithm tested here is ours. Its failure to
# beat passive seriation is evidence against the brief's design and against the brief's reading of the
# separation (a quadratic budget for passive sampling), not against the paper's theorem: the paper proves
# optimality among active algorithms under its own separation condition, which we could not read, and its
# algorithm may use local comparisons that ours does not. What we do reproduce is the qualitative shape of
# an active guarantee: exact recovery with high probability at a budget of order $n\ln n\,\sigma^2/\Delta^2$,
# and an error probability that falls exponentially in the samples per item.
#
# ## What the miniature cannot show
#
# * The paper's algorithm, its separation condition and its constants: none were available, and there
#   are no reported numbers to set beside ours.
# * Whether an active learner can beat passive sampling by more than a constant factor in settings where
#   most similarities carry no information about the order (banded or saturating profiles, which break
#   uniform separation), or with partial prior knowledge of the order, which the arXiv version allows.
# * Minimax optimality: that needs lower bounds; we show one algorithm's upper-bound behaviour at
#   $n\le160$, with slopes fitted over a factor of 8 in $n$ (a factor of 2 at ci scale, where the slope
#   rests on two sizes).
# * Other baselines for passive seriation (the minimax-optimal estimators of the seriation literature), a
#   noise scale unknown to the algorithm, and noise that is heavy-tailed but handled by a robust mean
#   (the median would restore concentration under the Cauchy control).
