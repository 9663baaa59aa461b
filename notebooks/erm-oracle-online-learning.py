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
# # Mistakes against oracle calls: online learning through ERM and consistency oracles
#
# *A learner that can touch its concept class only through an ERM oracle may pay mistakes exponential in
# the Littlestone dimension, or many oracle calls; knowing the sequence in advance and clever queries
# trade one for the other (for thresholds, logarithmically many ERM calls suffice).*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, tolerance
from repro.papers import erm_oracle_online_learning as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    # about 4 s of CPU on one thread, comparators included (measured)
    "ci": dict(ldims=(2, 3, 4, 5, 6), pivot_T=(16, 32, 64, 128, 256), reps=60, control_reps=3,
               wc_thr_T=(8, 16, 32, 64), wc_int_T=(8, 16, 32)),
    # about 1-2 min of CPU: Littlestone dimension up to 8 (255 points), T up to 1024 and 128
    "full": dict(ldims=(2, 3, 4, 5, 6, 7, 8), pivot_T=(16, 32, 64, 128, 256, 512, 1024), reps=200, control_reps=5,
                 wc_thr_T=(8, 16, 32, 64, 128), wc_int_T=(8, 16, 32, 64)),
})
claims = Claims(
    "erm-oracle-online-learning",
    title="Tradeoffs between Mistakes and ERM Oracle Calls in Online and Transductive Online Learning",
    authors="Idan Attias, Steve Hanneke, Arvind Ramaswami",
    paper_url="https://arxiv.org/abs/2506.00135",
    scale=scale, seed=seed,
)
FAMILIES = ("ascending", "descending", "inward", "random")
ADVERSARY = "against-middle"  # the order built against the deterministic middle pivot (test 8, post hoc)

# %% [markdown]
# ## The claim
#
# In the textbook model of online learning the learner knows the concept class $\mathcal H$ and can
# run, say, Littlestone's Standard Optimal Algorithm (SOA), which makes at most $d_\mathrm{LD}$ mistakes
# on any realizable sequence, $d_\mathrm{LD}$ being the Littlestone dimension. The paper asks what
# happens when the class is a black box that the learner can only *query*: an **ERM oracle** returns some
# hypothesis of minimal empirical loss on a labelled set the learner chooses, and a **weak consistency
# oracle** only answers whether a labelled set is realizable by the class. The learner pays for mistakes
# and for oracle calls. The abstract states (its theorems; we could read only the abstract, not the proofs):
#
# * with ERM access, in the ordinary online model, $\Omega(2^{d_\mathrm{LD}})$ mistakes are unavoidable
#   for some classes (realizable case), and $\Omega(\sqrt{T\,2^{d_\mathrm{LD}}})$ regret in the agnostic case,
#   and these bounds are tight (the NeurIPS version writes $d_\mathrm{LD}$; one arXiv abstract writes
#   $d_\mathrm{VC}$ in the mistake bound; we follow the NeurIPS text);
# * weak consistency costs only $O(T)$ extra calls compared with ERM;
# * if the sequence $x_1,\dots,x_T$ is known in advance (**transductive** model), the optimal mistake
#   bound is reached with $O(T^{d_\mathrm{VC}+1})$ weak consistency calls, $d_\mathrm{VC}$ being the VC
#   dimension; $\Omega(T)$ calls are necessary, and $\Omega(T)$ ERM calls are needed to avoid a mistake bound
#   exponential in $d_\mathrm{LD}$;
# * for special classes randomization helps: for **thresholds on an unknown order**, $O(\log T)$ ERM calls
#   suffice, and for $k$-intervals $O(T^3 2^{2k})$ weak consistency calls.
#
# The paper is theory and reports no numbers. We found no official code.
#
# ## The method
#
# **Classes as matrices.** On a finite domain a class is a 0/1 matrix, rows = hypotheses, columns =
# points. Its two dimensions are computed exactly (`K.littlestone_dimension`, `K.vc_dimension`):
#
# $$ \mathrm{Ldim}(\emptyset)=-1,\qquad
#    \mathrm{Ldim}(\mathcal H)=\max\Bigl(0,\ \max_{x\ \text{splitting}\ \mathcal H}\ 1+\min_{y\in\{0,1\}}
#    \mathrm{Ldim}(\mathcal H_{x,y})\Bigr),\qquad \mathcal H_{x,y}=\{h\in\mathcal H: h(x)=y\}, $$
#
# (the depth of the deepest mistake tree the class shatters), and $d_\mathrm{VC}$ = the size of the largest
# point set on which the class realizes all $2^d$ labelings. Always $d_\mathrm{VC}\le d_\mathrm{LD}\le\log_2|\mathcal H|$.
# Thresholds on $N$ ordered points, $h_\theta(x)=1[x\ge\theta]$, have $d_\mathrm{VC}=1$ but
# $d_\mathrm{LD}=\lfloor\log_2(N+1)\rfloor$: with $N=2^d-1$ points the class has $2^d$ hypotheses and
# Littlestone dimension $d$.
#
# **Three experiments**, each a learner against an adversary that keeps the sequence realizable.
#
# 1. *ERM access, worst case (ordinary online model).* **Follow-ERM** predicts at every round with the
#    hypothesis that the ERM oracle returns on the history (one call per round). The oracle's ties are
#    broken by a colluding adversary: among the consistent hypotheses it returns one that a single new
#    example can refute while keeping the most hypotheses alive, and the adversary then shows exactly that
#    example. Against the same adaptive adversary we run SOA, which knows the class and predicts the label
#    $y$ whose subclass $\mathcal H_{x,y}$ has the larger Littlestone dimension. SOA makes at most
#    $d_\mathrm{LD}$ mistakes (Littlestone's theorem); on thresholds with $2^d$ hypotheses a consistent
#    learner can be made to refute them one at a time, $2^d-1$ mistakes.
# 2. *Thresholds on an unknown order, few ERM calls (transductive).* The learner knows which $T$ points
#    will come but not their order. Our **random-pivot learner** (our design; the paper's algorithm was
#    not available) keeps one hypothesis between mistakes and, after each mistake, makes 2 or 3 ERM calls
#    on multisets in which the history is repeated $T+1$ times, so that every minimiser is consistent:
#    "history + every point labelled 0" returns the consistent threshold with the fewest ones (rightmost
#    cut), "history + every point labelled 1" the leftmost cut; the points between them are the uncertain
#    set $U$, and "history + every point labelled 0 + $(z,1)$ repeated" returns the cut exactly at a pivot
#    $z$ drawn uniformly from $U$ (or the rightmost cut, with probability $1/(|U|+1)$). Each answer is the
#    *unique* minimiser, so an adversarial tie-break cannot hurt. A mistake removes the part of the version
#    space on the wrong side of the pivot, on average at least a quarter of it, which gives
#    $O(\log T)$ mistakes and ERM calls in expectation. The random draw is the ingredient the abstract
#    credits ("randomized algorithms"); the same learner with a *deterministic* pivot (the middle point of
#    $U$ in the order of the sequence; its first point is run too) is its ablation. A deterministic rule can be
#    defeated by an adversary that knows it: `K.order_adversary_threshold_sequence` simulates such a
#    learner and hands out the hidden ranks so that every mistake settles at most two points of $U$
#    (the pivot $z$ gets the lowest free rank, the next uncertain point shown the one above it, both
#    labelled 0), which forces about $T/2$ mistakes and $3T/2$ calls on the middle pivot. A random pivot is not fooled by an
#    order fixed in advance, whatever rule the order was built against.
# 3. *Weak consistency, transductive halving.* The learner enumerates the labelings of $x_1..x_T$ that
#    the class realizes, prefix by prefix: each realizable labeling of $x_{1:t}$ is extended by both
#    labels of $x_{t+1}$, one consistency query each, so it spends
#    $$ \text{calls}(T)=\sum_{t=0}^{T-1}2\,\bigl|\mathcal H|_{x_{1:t}}\bigr| = O\!\left(T^{d_\mathrm{VC}+1}\right)$$
#    queries, because the Sauer–Shelah lemma bounds the number of labelings of $t$ points by $O(t^{d_\mathrm{VC}})$.
#    It then predicts by the majority vote of the labelings still consistent with the history
#    (**halving**), which errs at most $\log_2|\mathcal H|_{x_{1:T}}|$ times: $\log_2(T+1)$ for thresholds.
#
# ## The experiment
#
# * **Classes:** thresholds on $N=2^d-1$ points for $d=2..6$ (ci) or $2..8$ (full), for experiment 1;
#   thresholds on $T$ points in a hidden random order for experiments 2 and 3; unions of at most $k=1$ and
#   $k=2$ intervals on $T$ points in a hidden random order for experiment 3.
# * **Experiment 1:** $T=N+16$ rounds (enough for every mistake the adversary can force), one
#   deterministic run per $d$.
# * **Experiment 2:** $T=16..256$ (ci) or $16..1024$ (full), four sequence families (ascending order with
#   every label 0, descending with every label 1, alternately the smallest and largest remaining point with
#   the threshold in the middle, random order with a uniform threshold), 60 (ci) or 200 (full) runs of the
#   random-pivot learner per family and $T$. A claim uses, at each $T$, the family with the largest mean.
#   Comparators, on the same sequences with the same oracle (added when the page moved to the current claim
#   model; the learner, the families and the criteria are unchanged):
#   * **ablation: the deterministic middle pivot**, the same learner with $z=U[\lfloor|U|/2\rfloor]$ instead
#     of a random draw. Of the deterministic rules we could think of, it is the one we expected to do best
#     (on the ascending and descending families its middle *is* the middle of the hidden order, so it runs a
#     binary search); the brief's example, the first point of $U$, is also run and shown in "What a skeptic
#     would try".
#   * **naive baseline: lazy ERM with the same oracle**: keep the last ERM answer and ask the oracle again,
#     on the plain history, only after a mistake (one call per mistake). Its ties go to the oracle's first
#     row, which for thresholds is the consistent cut with the fewest ones. (The page's first version used
#     lazy ERM with a *colluding* tie-break, which errs at every round by construction: a strawman, dropped.)
#   * A fifth sequence, **built against the middle pivot** by the adversary above, is added for test 8 only
#     (its own random stream, so the four families' draws are unchanged).
# * **Experiment 3:** $T\in\{8,16,32,64\}$ (ci; up to 128 at full) for thresholds and $\{8,16,32\}$ (ci;
#   up to 64 at full) for intervals; one hidden order per class; halving against the adversary that labels
#   against the learner's vote whenever a consistent labeling allows it.
#
# **Checks.** Criteria 1-7 were fixed before the notebook first ran (the numbers come from the brief,
# except two of ours, marked; a smoke test of the kernels at small sizes ran before the notebook existed).
# When the page moved to the current claim model, checks that cannot fail became illustrations (shown, never
# counted), the two tests of our random-pivot learner gained the comparators above, and test 8 was added.
#
# *Illustrations* (a classical result, or a value fixed by our own construction):
#
# 1. *Exponential mistakes for follow-ERM.* On thresholds with $d_\mathrm{LD}=d_{\max}$, follow-ERM with
#    the colluding oracle makes $\ge 2^{d_{\max}}-2$ mistakes (brief: $\ge N-1$). The adversary refutes one
#    threshold per round by construction, so the count is $2^d-1$ at every seed.
# 2. *SOA stays within $d_\mathrm{LD}$*: $\le d_{\max}$ mistakes (Littlestone 1988).
# 5. *Halving with weak consistency.* On thresholds, $\max_T \text{mistakes}/\log_2(T+1)\le1$ (the halving bound).
# 6. *$O(T^{d_\mathrm{VC}+1})$ consistency calls, thresholds.* Log-log slope of calls against $T$
#    $\le d_\mathrm{VC}+1+0.2=2.2$: the enumeration spends exactly $T(T+1)$ calls, a closed form.
# 7. *The same for 1-intervals*: slope $\le 3.2$ (Sauer-Shelah; the count does not depend on the seed).
#
# *Tests* (our random-pivot learner, beside its ablation and a naive baseline):
#
# 3. *$O(\log T)$ ERM calls for thresholds.* The log-log slope of the worst family's mean number of ERM
#    calls against $T$ is $\le 0.35$ (ours: a count $a+b\log T$ has local log-log slope $b/(a+b\ln T)\le
#    1/\ln 16\approx0.36$ on our grid, a count linear in $T$ has slope 1).
# 4. *Few mistakes too.* At the largest $T$ the worst family's mean number of mistakes, divided by
#    $\log_2(T+1)$, is $\le 2$ (ours: within a factor 2 of the halving bound, the abstract's "similar mistake
#    bounds").
# 8. *Against an adversary that knows a deterministic rule* (post hoc, added at the conversion and designed on
#    seeds 0-9 only; it counts once confirmed on seeds 10-19): claim 3's measurement and criterion ($\le 0.35$),
#    with the worst family taken over the four families and the order built against the middle pivot. Every
#    comparator then meets the order built against its own rule (the descending family is the one built
#    against lazy ERM's rightmost cut), so their failing is the premise; what could fail is the random-pivot
#    learner on orders built against rules it does not follow.
#
# **Deviations from the paper**
#
# * We read only the abstract. Every learner here is either classical (follow-ERM, SOA, halving) or ours
#   (the random-pivot threshold learner); the paper's algorithms, constants and lower-bound constructions
#   were not available, and no official code was found.
# * Experiment 1 illustrates the $\Omega(2^{d_\mathrm{LD}})$ lower bound with *one* learner (follow-ERM)
#   against a colluding oracle on *one* class (thresholds). The paper's theorem says that *every* learner
#   with ERM access can be forced to err that often on some class; no simulation can show that.
# * Our ERM oracle accepts multisets (an example repeated $w$ times, a weight); the random-pivot learner
#   needs them to make the minimiser unique. Whether the paper's oracle allows repeats we do not know.
# * Finite domains only: the thresholds and intervals live on the $T$ points of the sequence, and the
#   "unknown order" is a hidden permutation of those points (fixed for three families and for the order
#   built by the adversary, random for the fourth family).
# * Defaults we chose: the adversary's rule (refute the prediction where the most hypotheses survive,
#   lowest index on ties), SOA's tie rule (predict 1), halving's tie rule (predict 1), the four sequence
#   families, the multiplicity $T+1$ of the history, the number of runs, the grids of $T$.
# * The comparators are ours: the deterministic pivots (middle and first point of the uncertain set), lazy
#   ERM with the oracle's own ties (the oracle returns its first minimising row, which for thresholds is the
#   consistent cut with the fewest ones), the adversary that builds an order against a deterministic rule (its
#   tie between labelling the mistake 0 or 1 goes to 0, a fixed convention), and the "buy the order, then
#   halve" learner. The page's first version compared the random pivot with lazy ERM under a colluding
#   tie-break, which fails by construction; that control was dropped when the page moved to the current claim
#   model, and the five checks that could not fail became illustrations.
# * Not run: the agnostic case (the brief's regret study at full scale, $\Omega(\sqrt{T2^{d_\mathrm{LD}}})$),
#   the $O(T)$ conversion from ERM to weak consistency, the lower bounds on the number of calls, and the
#   $O(T^32^{2k})$ algorithm for $k$-intervals (our experiment 3 uses the general $O(T^{d_\mathrm{VC}+1})$
#   enumeration instead). Random finite classes appear only in the unit tests and the table below.

# %%
print(f"scale={P.scale}: Littlestone dimensions {P.ldims}; pivot T in {P.pivot_T} x {P.reps} runs x "
      f"{len(FAMILIES)} families; weak-consistency T in {P.wc_thr_T} (thresholds), {P.wc_int_T} (intervals)")

# %% [markdown]
# ### The classes and their dimensions
#
# The two functions the page exposes, on classes whose dimensions are known in closed form and on random
# ones (computed exactly, by the definitions above).

# %%
rng_tab = np.random.default_rng([seed, 7])
examples = {"thresholds, N = 7": K.thresholds(7), "thresholds, N = 63": K.thresholds(63),
            "singletons, n = 8": K.singletons(8), "{0,1}^6": K.all_labelings(6),
            "1-intervals, N = 8": K.k_intervals(8, 1), "2-intervals, N = 8": K.k_intervals(8, 2),
            "random, 40 x 10": (rng_tab.random((40, 10)) < 0.5).astype(np.uint8)}
print(f"{'class':22s} {'|H|':>5s} {'d_VC':>5s} {'d_LD':>5s} {'log2|H|':>8s}")
for name, H in examples.items():
    m = len(K.as_class(H))
    print(f"{name:22s} {m:5d} {K.vc_dimension(H):5d} {K.littlestone_dimension(H):5d} {np.log2(m):8.2f}")

# %% [markdown]
# ## Results
#
# ### 1. ERM access in the ordinary online model: mistakes exponential in $d_\mathrm{LD}$

# %%
runs = {}
for d in progress(P.ldims, desc="thresholds, follow-ERM and SOA"):
    H = K.thresholds(2**d - 1)
    for learner in K.LEARNERS:
        runs[learner, d] = K.worst_case_online_run(H, learner, 2**d - 1 + 16)
D = max(P.ldims)
fe_max, soa_max = int(runs["follow-erm", D]["mistakes"][-1]), int(runs["soa", D]["mistakes"][-1])
print("follow-ERM mistakes:", {d: int(runs["follow-erm", d]["mistakes"][-1]) for d in P.ldims})
print("SOA mistakes:       ", {d: int(runs["soa", d]["mistakes"][-1]) for d in P.ldims})
print(f"ERM calls of follow-ERM at d = {D}: {int(runs['follow-erm', D]['calls'][-1])} (one per round)")

# %%
fig, (a, b) = plt.subplots(1, 2, figsize=(11, 3.8))
for i, d in enumerate(P.ldims[-3:]):
    t = np.arange(1, len(runs["follow-erm", d]["mistakes"]) + 1)
    a.plot(t, runs["follow-erm", d]["mistakes"], color=f"C{i}", label=f"follow-ERM, $d_{{LD}}$ = {d}")
    a.plot(t, runs["soa", d]["mistakes"], color=f"C{i}", ls="--", label=f"SOA, $d_{{LD}}$ = {d}")
a.set(xscale="log", yscale="log", xlabel="round t", ylabel="cumulative mistakes",
      title="Thresholds on $2^d-1$ points, adaptive adversary")
a.legend(fontsize=7, ncol=2)
ds = np.array(P.ldims)
b.semilogy(ds, [runs["follow-erm", d]["mistakes"][-1] for d in ds], "o-", label="follow-ERM (colluding ERM ties)")
b.semilogy(ds, [runs["soa", d]["mistakes"][-1] for d in ds], "s-", label="SOA (knows the class)")
b.semilogy(ds, 2.0**ds, "k:", label=r"paper: $\Omega(2^{d_{LD}})$ for ERM access (drawn as $2^d$)")
b.semilogy(ds, ds, "k--", lw=0.8, label=r"$d_{LD}$ (SOA's bound)")
b.set(xlabel="Littlestone dimension $d_{LD}$", ylabel="total mistakes", title="Worst-case mistakes against $d_{LD}$")
b.legend(fontsize=7)
plt.show()

# %% [markdown]
# The left panel shows mistakes against the round: follow-ERM keeps erring until it has refuted all but
# one of the $2^d$ thresholds, while SOA stops after $d$ mistakes. The right panel shows the totals: follow-ERM
# sits on $2^d-1$, SOA on $d$ (at $d_\mathrm{LD}=${glue:text}`D`: {glue:text}`fe_max` mistakes against
# {glue:text}`soa_max`). Both counts are fixed by the construction (a colluding oracle, Littlestone's theorem),
# so they are shown as illustrations, not counted as tests.
#
# ### 2. Thresholds on an unknown order: $O(\log T)$ ERM calls

# %%
rng_pivot = np.random.default_rng([seed, 2])
rng_adv = np.random.default_rng([seed, 4])  # the fifth sequence's own stream: the four families' draws are unchanged
SEQS = (*FAMILIES, ADVERSARY)
RIVALS = ("middle", "first", "lazy")  # deterministic comparators: the two fixed pivots and lazy ERM
# runs[learner][family]: (T, run, [mistakes, calls]); a deterministic learner on a fixed sequence gives the same
# numbers at every run, so it is run once there and its value fills the row (the mean over runs is that value)
runs2 = {ln: {f: np.zeros((len(P.pivot_T), P.reps, 2), int) for f in SEQS} for ln in ("random", *RIVALS)}
halve = np.zeros((len(FAMILIES), P.control_reps, 2), int)  # order-then-halving at the largest T (skeptic)


def rival(name, H, y):
    """One run of a deterministic comparator on the class H over the sequence with labels y."""
    if name == "lazy":  # the oracle's own ties: its first row, the consistent cut with the fewest ones
        return K.lazy_erm_learner(K.ERMOracle(H), y)
    return K.random_pivot_threshold_learner(K.ERMOracle(H), y, pivot=name)


for i, T in enumerate(progress(P.pivot_T, desc="threshold learners")):
    adv_ranks, adv_y = K.order_adversary_threshold_sequence(T, "middle")
    for f in SEQS:
        for r in range(P.reps):
            if f == ADVERSARY:
                ranks, y, rng = adv_ranks, adv_y, rng_adv
            else:
                ranks, y = K.threshold_sequence(T, f, rng_pivot)
                rng = rng_pivot
            H = K.on_sequence(K.thresholds(T), ranks)
            out = K.random_pivot_threshold_learner(K.ERMOracle(H), y, rng)
            runs2["random"][f][i, r] = out["mistakes"], out["calls"]
            if f == "random" or r == 0:
                for name in RIVALS:
                    out = rival(name, H, y)
                    runs2[name][f][i, r:] = out["mistakes"], out["calls"]
            if T == P.pivot_T[-1] and f in FAMILIES and r < P.control_reps:
                out = K.order_then_halving_learner(K.ERMOracle(H), y)
                halve[FAMILIES.index(f), r] = out["mistakes"], out["calls"]
piv = runs2["random"]
Ts = np.array(P.pivot_T)
log2T1 = np.log2(Ts[-1] + 1)


def worst(learner, families, what):
    """Per T, the largest mean over runs among the families (what: 0 mistakes, 1 calls)."""
    return np.array([max(runs2[learner][f][i, :, what].mean() for f in families) for i in range(len(Ts))])


mean_calls = np.array([[piv[f][i, :, 1].mean() for f in SEQS] for i in range(len(Ts))])
mean_mist = np.array([[piv[f][i, :, 0].mean() for f in SEQS] for i in range(len(Ts))])
worst_calls, worst_mist = worst("random", FAMILIES, 1), worst("random", FAMILIES, 0)
slope_pivot = loglog_slope(Ts, worst_calls)
mist_ratio = float(worst_mist[-1] / log2T1)
wc4 = {ln: worst(ln, FAMILIES, 1) for ln in RIVALS}  # worst calls of each comparator, four families
wm4 = {ln: worst(ln, FAMILIES, 0) for ln in RIVALS}
slope4 = {ln: loglog_slope(Ts, wc4[ln]) for ln in RIVALS}
ratio4 = {ln: float(wm4[ln][-1] / log2T1) for ln in RIVALS}
wc5 = {ln: worst(ln, SEQS, 1) for ln in ("random", *RIVALS)}  # test 8: the fifth sequence included
slope5 = {ln: loglog_slope(Ts, wc5[ln]) for ln in ("random", *RIVALS)}
halve_ratio = float(halve[:, :, 0].mean(axis=1).max() / log2T1)
halve_calls = float(halve[:, :, 1].mean(axis=1).max())
for i, T in enumerate(Ts):
    print(f"T = {T:4d}, worst of the four families (mean calls / mistakes): random pivot {worst_calls[i]:5.1f} / "
          f"{worst_mist[i]:4.1f};  middle pivot {wc4['middle'][i]:5.1f} / {wm4['middle'][i]:4.1f};  first pivot "
          f"{wc4['first'][i]:5.0f} / {wm4['first'][i]:4.0f};  lazy ERM {wc4['lazy'][i]:4.0f} / {wm4['lazy'][i]:4.0f}")
print(f"log-log slope of calls, four families: random {slope_pivot:.3f}, middle {slope4['middle']:.3f}, "
      f"first {slope4['first']:.3f}, lazy ERM {slope4['lazy']:.3f}")
print(f"mistakes / log2(T+1) at T = {Ts[-1]}: random {mist_ratio:.3f}, middle {ratio4['middle']:.3f}, "
      f"first {ratio4['first']:.3f}, lazy ERM {ratio4['lazy']:.3f}; order-then-halving {halve_ratio:.3f} "
      f"with {halve_calls:.0f} calls")
print(f"with the order built against the middle pivot: slope random {slope5['random']:.3f}, middle "
      f"{slope5['middle']:.3f}, lazy ERM {slope5['lazy']:.3f}; at T = {Ts[-1]} on that order: random "
      f"{piv[ADVERSARY][-1, :, 1].mean():.1f} calls, middle {runs2['middle'][ADVERSARY][-1, 0, 1]} calls "
      f"({runs2['middle'][ADVERSARY][-1, 0, 0]} mistakes)")

# %%
fig, (a, b, c) = plt.subplots(1, 3, figsize=(15, 3.9))
for j, f in enumerate(SEQS):
    q = np.percentile(piv[f][:, :, 1], [10, 90], axis=1)
    a.fill_between(Ts, q[0], q[1], color=f"C{j}", alpha=0.15)
    a.plot(Ts, mean_calls[:, j], "o-" if f != ADVERSARY else "s--", ms=3, color=f"C{j}",
           label=f"{f} (mean, 10-90%)")
a.plot(Ts, 3 * np.log2(Ts + 1), "k--", lw=0.8, label=r"$3\log_2(T+1)$: shape of the paper's $O(\log T)$")
a.set(xscale="log", yscale="log", xlabel="horizon T (rounds)", ylabel="ERM oracle calls",
      title="Random pivot, by sequence family")
a.legend(fontsize=7)
styles = {"random": ("C0", "o-", "random pivot"), "middle": ("C1", "s-", "middle pivot (ablation)"),
          "first": ("C2", "v-", "first pivot"), "lazy": ("C3", "^-", "lazy ERM (baseline)")}
for ln, (col, mk, lab) in styles.items():
    b.plot(Ts, worst(ln, FAMILIES, 1), mk, ms=4, color=col, label=f"{lab}: slope {loglog_slope(Ts, worst(ln, FAMILIES, 1)):.2f}")
    if ln in ("random", "middle"):
        b.plot(Ts, runs2[ln][ADVERSARY][:, :, 1].mean(axis=1), mk[0] + ":", ms=4, color=col,
               label=f"{lab}, order built against the middle pivot")
b.plot(Ts, Ts, "k:", lw=0.8, label="follow-ERM: one call per round")
b.set(xscale="log", yscale="log", xlabel="horizon T (rounds)", ylabel="ERM oracle calls (worst family mean)",
      title="Calls: random pivot against its comparators")
b.legend(fontsize=7)
for ln, (col, mk, lab) in styles.items():
    c.plot(Ts, worst(ln, FAMILIES, 0), mk, ms=4, color=col, label=lab)
c.plot(Ts, np.log2(Ts + 1), "k--", lw=0.8, label=r"$\log_2(T+1)$: halving, full knowledge")
c.plot(Ts, 2 * np.log2(Ts + 1), "k-.", lw=0.8, label=r"$2\log_2(T+1)$: test 4's bar")
c.set(xscale="log", yscale="log", xlabel="horizon T (rounds)", ylabel="mistakes (worst family mean)",
      title="Mistakes of the same runs")
c.legend(fontsize=7)
plt.show()

# %% [markdown]
# The left panel shows the random-pivot learner on each sequence family, the order built against the middle
# pivot included (dashed): every curve bends like a logarithm. At $T=${glue:text}`T_max` its worst family
# costs {glue:text}`calls_random_Tmax:.1f` ERM calls on average, against {glue:text}`calls_random_Tmin:.1f`
# at $T=${glue:text}`T_min` (log-log slope {glue:text}`slope_random:.3f`, bar $0.35$), and
# {glue:text}`mist_random_Tmax:.2f` mistakes, {glue:text}`ratio_random:.2f` times $\log_2(T+1)$ (bar $2$).
#
# The middle panel is the comparison the tests make. The deterministic middle pivot does as well on the four
# families: {glue:text}`calls_middle_Tmax:.0f` calls at the largest $T$ (slope {glue:text}`slope_middle:.3f`)
# and {glue:text}`ratio_middle:.2f` times $\log_2(T+1)$ mistakes. Its worst family is the ascending one, whose
# order of presentation *is* the hidden order, so its middle is a true median and it runs a binary search; on
# the random family the middle of $U$ in the order of the sequence is a uniformly random point of the hidden
# order, which is what the random draw provides. Lazy ERM errs at every round of the descending family
# ({glue:text}`calls_lazy_Tmax:.0f` calls and as many mistakes at the largest $T$, slope
# {glue:text}`slope_lazy:.2f`). On the order built against it, the middle pivot makes
# {glue:text}`adv_mist_middle` mistakes and {glue:text}`adv_calls_middle` calls at the largest $T$ (slope over
# the five sequences {glue:text}`slope5_middle:.2f`), while the random pivot, given that same order, spends
# {glue:text}`adv_calls_random:.1f` calls and makes {glue:text}`adv_mist_random:.2f` mistakes (slope over the
# five sequences {glue:text}`slope5_random:.3f`).
#
# ### 3. Weak consistency in the transductive model: calls polynomial in $T$, halving's mistakes

# %%
rng_wc = np.random.default_rng([seed, 3])
wc = {}
for name, grid, make, dvc in progress([("thresholds", P.wc_thr_T, lambda n: K.thresholds(n), 1),
                                       ("1-intervals", P.wc_thr_T, lambda n: K.k_intervals(n, 1), 2),
                                       ("1-intervals", P.wc_int_T, lambda n: K.k_intervals(n, 1), 2),
                                       ("2-intervals", P.wc_int_T, lambda n: K.k_intervals(n, 2), 4)],
                                      desc="consistency enumeration"):
    Tmax = max(grid)
    H = K.on_sequence(make(Tmax), rng_wc.permutation(Tmax))
    oracle = K.WeakConsistencyOracle(H)
    L, calls = K.enumerate_realizable_labelings(oracle, Tmax)
    g = np.array(grid)
    halving = [K.halving_run(L[:, :T]) for T in g]
    minority = [K.halving_run(L[:, :T], "minority") for T in g]
    sizes = [len(K.as_class(L[:, :T])) for T in g]
    wc[name, tuple(grid)] = dict(T=g, calls=calls[g - 1].tolist(), slope=loglog_slope(g, calls[g - 1]), dvc=dvc,
                                 halving=np.array(halving), minority=np.array(minority), sizes=np.array(sizes))
for (name, grid), r in wc.items():
    print(f"{name:11s} T = {r['T'].tolist()}: calls {r['calls']}, slope {r['slope']:.3f} (d_VC + 1 = {r['dvc'] + 1});"
          f" halving mistakes {r['halving'].tolist()}, labelings {r['sizes'].tolist()}")
thr, int_on_thr = wc["thresholds", P.wc_thr_T], wc["1-intervals", P.wc_thr_T]
int1, int2 = wc["1-intervals", P.wc_int_T], wc["2-intervals", P.wc_int_T]
ratio_halving = float(np.max(thr["halving"] / np.log2(thr["T"] + 1)))
ratio_minority = float(np.max(thr["minority"] / np.log2(thr["T"] + 1)))

# %%
fig, (a, b) = plt.subplots(1, 2, figsize=(11, 3.8))
for j, r in enumerate((thr, int1, int2)):
    name = ("thresholds", "1-intervals", "2-intervals")[j]
    a.plot(r["T"], r["calls"], "o-", color=f"C{j}", label=f"{name} ($d_{{VC}}$ = {r['dvc']}): slope {r['slope']:.2f}")
    a.plot(r["T"], r["calls"][-1] * (r["T"] / r["T"][-1]) ** (r["dvc"] + 1), ":", color=f"C{j}", lw=1,
           label=f"$T^{{{r['dvc'] + 1}}}$ (the paper's $O(T^{{d_{{VC}}+1}})$)")
a.set(xscale="log", yscale="log", xlabel="horizon T (points in the sequence)", ylabel="weak-consistency calls",
      title="Enumerating the realizable labelings")
a.legend(fontsize=7)
for j, r in enumerate((thr, int1, int2)):
    name = ("thresholds", "1-intervals", "2-intervals")[j]
    b.plot(r["T"], r["halving"], "o-", color=f"C{j}", label=f"halving, {name}")
    b.plot(r["T"], np.log2(r["sizes"]), ":", color=f"C{j}", lw=1, label=r"bound $\log_2|\mathcal{H}|_{x_{1:T}}|$")
b.plot(thr["T"], thr["minority"], "k^--", ms=4, label="minority vote, thresholds (a wrong kernel)")
b.set(xscale="log", yscale="log", xlabel="horizon T", ylabel="mistakes", title="Halving against an adaptive adversary")
b.legend(fontsize=7)
plt.show()

# %% [markdown]
# Enumerating the realizable labelings costs exactly $T(T+1)$ queries for thresholds (slope
# {glue:text}`slope_wc_thr:.2f`), and slopes {glue:text}`slope_wc_int1:.2f` and {glue:text}`slope_wc_int2:.2f`
# for 1- and 2-intervals, close to $d_\mathrm{VC}+1$ ($2$, $3$ and $5$) on these short grids. With the
# labelings in hand, halving's mistakes stay at or under {glue:text}`ratio_halving:.2f` times $\log_2(T+1)$,
# while the minority vote reaches {glue:text}`ratio_minority:.2f` times it. Counts of labelings are fixed by the
# classes (Sauer-Shelah) and the halving bound is classical, so these are illustrations too.
#
# ### The paper's numbers beside ours
#
# The paper proves asymptotic bounds and reports no numbers, so the table sets each bound beside what
# our miniature measures in the same setting (values from this run; the claims table below checks them).

# %%
rows = [
    ("ERM access, realizable, online", "Omega(2^d_LD) mistakes (some class, every learner)",
     f"follow-ERM on thresholds, d_LD = {D}: {fe_max} mistakes (2^d = {2**D}); SOA: {soa_max}"),
    ("thresholds, unknown order, transductive", "O(log T) ERM calls",
     f"random pivot: {worst_calls[-1]:.1f} calls at T = {Ts[-1]} (slope {slope_pivot:.2f}); middle pivot: "
     f"{wc4['middle'][-1]:.0f}; lazy ERM: {wc4['lazy'][-1]:.0f}"),
    ("transductive, weak consistency", "optimal mistakes with O(T^(d_VC+1)) calls",
     f"slopes {thr['slope']:.2f} (thresholds, d_VC=1), {int1['slope']:.2f} (1-intervals, d_VC=2), "
     f"{int2['slope']:.2f} (2-intervals, d_VC=4)"),
    ("transductive, thresholds", "optimal mistake bound (log2(T+1) by halving)",
     f"halving: max mistakes / log2(T+1) = {ratio_halving:.2f}"),
]
print(f"{'setting':42s} | {'paper (abstract)':52s} | ours")
for r in rows:
    print(f"{r[0]:42s} | {r[1]:52s} | {r[2]}")

# %%
MC = tolerance(rel=0.05, abs=0.02, why="mean over random pivots and random sequences: exact for a seed, "
               "but the generator's stream is the only source of the value")
claims.headline(
    "erm-lower-bounds",
    "With access to the class only through an ERM oracle, some classes force Omega(2^d_LD) mistakes in the "
    "realizable case and Omega(sqrt(T 2^d_LD)) regret in the agnostic case, and both bounds are tight",
    untestable="a lower bound over every learner with ERM access: simulating one learner (follow-ERM, shown in the "
               "illustration follow-erm-exponential-mistakes) can neither confirm nor refute it, and the agnostic "
               "case was not run")
claims.headline(
    "weak-consistency-transductive",
    "A weak consistency oracle costs only O(T) more calls than ERM, and in the transductive model the optimal "
    "mistake bounds are reached with O(T^(d_VC+1)) weak-consistency calls",
    untestable="our enumeration's call count is a closed form (T(T+1) for thresholds, Sauer-Shelah in general) and "
               "halving's mistake bound is classical, so the checks of this page (wc-calls-slope-*, "
               "halving-mistakes-thresholds) are illustrations; the O(T) conversion from ERM was not run")
claims.headline(
    "oracle-call-lower-bounds",
    "Omega(T) weak-consistency queries are necessary for transductive learnability, and Omega(T) ERM queries "
    "are necessary to avoid a mistake bound exponential in d_LD",
    untestable="lower bounds over every learner: a simulation of particular learners cannot test them")
claims.headline(
    "randomized-thresholds",
    "For thresholds on an unknown order a randomized learner needs only O(log T) ERM queries, with a mistake "
    "bound like the optimal one (and O(T^3 2^(2k)) weak-consistency queries suffice for k-intervals, not run here)",
    tests=["threshold-erm-calls-logarithmic", "threshold-pivot-mistakes", "threshold-calls-order-adversary"])

claims.illustrate(
    "follow-erm-exponential-mistakes",
    statement=f"Follow-ERM with a colluding ERM oracle makes >= 2^d - 2 mistakes on thresholds with d_LD = {D}",
    paper="Omega(2^d_LD) mistakes for realizable online learning with ERM access (abstract; a lower bound over "
          "all learners, which one learner cannot verify)",
    criterion=at_least(2**D - 2), measured=fe_max,
    why="fixed by construction: the colluding oracle and the adversary refute one threshold per round, so the "
        "count is 2^d - 1 at every seed")
claims.illustrate(
    "soa-within-ldim",
    statement=f"SOA makes <= d_LD = {D} mistakes on thresholds against the same adversary",
    paper="the standard model's optimal mistake bound d_LD (Littlestone 1988; the paper's point of comparison)",
    criterion=at_most(D), measured=soa_max,
    why="a classical theorem (Littlestone 1988) that holds for our exact implementation by construction")
claims.illustrate(
    "halving-mistakes-thresholds",
    statement=f"Transductive halving on thresholds: max over T in {list(P.wc_thr_T)} of mistakes / log2(T+1)",
    paper="the optimal transductive mistake bound is reached with weak-consistency access (abstract)",
    criterion=at_most(1.0), measured=ratio_halving,
    why="the classical halving bound (each mistake halves the surviving labelings): it cannot fail for a "
        "correct implementation")
claims.illustrate(
    "wc-calls-slope-thresholds",
    statement=f"Log-log slope in T of weak-consistency calls, thresholds (d_VC = 1), T in {list(P.wc_thr_T)}",
    paper="O(T^(d_VC+1)) weak-consistency calls (abstract); brief: slope <= d_VC + 1 + 0.2",
    criterion=at_most(2.2), measured=thr["slope"],
    why="a closed form at preset sizes: the enumeration spends exactly T(T+1) calls on thresholds, at every seed")
claims.illustrate(
    "wc-calls-slope-intervals",
    statement=f"Log-log slope in T of weak-consistency calls, 1-intervals (d_VC = 2), T in {list(P.wc_int_T)}",
    paper="O(T^(d_VC+1)) weak-consistency calls (abstract); brief: slope <= d_VC + 1 + 0.2",
    criterion=at_most(3.2), measured=int1["slope"],
    why="a closed form at preset sizes: the number of labelings of t distinct points by 1-intervals does not depend "
        "on their hidden order, so the count is the same at every seed (Sauer-Shelah bounds it)")

MIDDLE = "the same learner with a deterministic pivot: the middle point of the uncertain set"
LAZY = "lazy ERM with the same oracle: ask again on the plain history after each mistake (the oracle's ties)"
claims.test(
    "threshold-erm-calls-logarithmic",
    statement=f"Log-log slope in T of the mean ERM calls of our random-pivot learner, worst of four sequence "
              f"families (T in {list(P.pivot_T)})",
    paper="Thresholds on an unknown ordering: O(log T) ERM queries suffice (abstract)",
    criterion=at_most(0.35), measured=slope_pivot,
    ablation=Comparator(MIDDLE, slope4["middle"], ingredient="the random draw of the pivot"),
    baselines=[Comparator(LAZY, slope4["lazy"])], tol=MC)
claims.test(
    "threshold-pivot-mistakes",
    statement=f"Mean mistakes of the random-pivot learner at T = {Ts[-1]} (worst family), in units of "
              "log2(T+1) (the halving bound)",
    paper="randomized algorithms keep similar mistake bounds (abstract); no constant given",
    criterion=at_most(2.0), measured=mist_ratio,
    ablation=Comparator(MIDDLE, ratio4["middle"], ingredient="the random draw of the pivot"),
    baselines=[Comparator(LAZY, ratio4["lazy"])], tol=MC)
claims.test(
    "threshold-calls-order-adversary",
    statement=f"Log-log slope in T of the mean ERM calls of the random-pivot learner, worst of the four families and "
              f"the order built against the deterministic middle pivot by an adversary that knows that rule "
              f"(T in {list(P.pivot_T)})",
    paper="Thresholds on an unknown ordering: O(log T) ERM queries suffice with randomization (abstract)",
    criterion=at_most(0.35), measured=slope5["random"],
    ablation=Comparator(MIDDLE + ", on the same five sequences", slope5["middle"],
                        ingredient="the random draw of the pivot"),
    baselines=[Comparator(LAZY + ", on the same five sequences", slope5["lazy"])], tol=MC,
    post_hoc="added when the page moved to the current claim model, to test the ingredient (randomization) "
             "against an adversary that knows a deterministic learner's rule; same criterion as the "
             "pre-registered threshold-erm-calls-logarithmic (the paper's O(log T)); designed on seeds 0-9")

# %%
glue("D", int(D), display=False)
glue("fe_max", int(fe_max), display=False)
glue("soa_max", int(soa_max), display=False)
glue("T_min", int(Ts[0]), display=False)
glue("T_max", int(Ts[-1]), display=False)
glue("calls_random_Tmin", float(worst_calls[0]), display=False)
glue("calls_random_Tmax", float(worst_calls[-1]), display=False)
glue("mist_random_Tmax", float(worst_mist[-1]), display=False)
glue("slope_random", float(slope_pivot), display=False)
glue("ratio_random", float(mist_ratio), display=False)
for ln in RIVALS:
    glue(f"slope_{ln}", float(slope4[ln]), display=False)
    glue(f"ratio_{ln}", float(ratio4[ln]), display=False)
    glue(f"calls_{ln}_Tmax", float(wc4[ln][-1]), display=False)
    glue(f"mist_{ln}_Tmax", float(wm4[ln][-1]), display=False)
glue("slope5_random", float(slope5["random"]), display=False)
glue("slope5_middle", float(slope5["middle"]), display=False)
glue("slope5_lazy", float(slope5["lazy"]), display=False)
glue("adv_calls_random", float(piv[ADVERSARY][-1, :, 1].mean()), display=False)
glue("adv_mist_random", float(piv[ADVERSARY][-1, :, 0].mean()), display=False)
glue("adv_calls_middle", int(runs2["middle"][ADVERSARY][-1, 0, 1]), display=False)
glue("adv_mist_middle", int(runs2["middle"][ADVERSARY][-1, 0, 0]), display=False)
glue("halve_ratio", halve_ratio, display=False)
glue("halve_calls", halve_calls, display=False)
glue("slope_wc_thr", float(thr["slope"]), display=False)
glue("slope_wc_int1", float(int1["slope"]), display=False)
glue("slope_wc_int2", float(int2["slope"]), display=False)
glue("ratio_halving", ratio_halving, display=False)
glue("ratio_minority", ratio_minority, display=False)

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
# The counted tests are the two pre-registered checks of our random-pivot learner for thresholds on an
# unknown order, measured beside the same learner with a deterministic pivot (its ablation: the middle of the
# uncertain set) and lazy ERM with the same oracle (the naive baseline), on the same sequences:
#
# * *$O(\log T)$ ERM calls*, {repro-status}`threshold-erm-calls-logarithmic`. The random pivot's worst-family
#   calls grow with slope {glue:text}`slope_random:.3f` (bar $0.35$), but the middle pivot's grow with slope
#   {glue:text}`slope_middle:.3f`; lazy ERM's slope is {glue:text}`slope_lazy:.2f`.
# * *Few mistakes*, {repro-status}`threshold-pivot-mistakes`. The random pivot makes
#   {glue:text}`ratio_random:.2f` times $\log_2(T+1)$ mistakes at the largest $T$, the middle pivot
#   {glue:text}`ratio_middle:.2f` times, both under the bar of $2$; lazy ERM {glue:text}`ratio_lazy:.1f` times.
#
# So on our four sequence families, which are fixed in advance and know nothing of the learner, the random
# draw is not needed: a deterministic pivot taken from the middle of the uncertain set does as well. What the
# naive baseline's failure shows is that the pivot queries matter (queries with a unique minimiser that split
# the uncertain set, rather than whatever consistent hypothesis the oracle returns), not that the pivot must
# be random.
#
# * *Against an adversary that knows a deterministic rule*, {repro-status}`threshold-calls-order-adversary`
#   (post hoc: it counts only once confirmed on seeds 10-19). On the order built against it, the middle pivot
#   makes {glue:text}`adv_mist_middle` mistakes and {glue:text}`adv_calls_middle` calls at the largest $T$; the
#   random pivot, given the same order, spends {glue:text}`adv_calls_random:.1f` calls, and its slope over the
#   five sequences is {glue:text}`slope5_random:.3f`. This is the situation in which the abstract's
#   randomization matters. Each comparator fails here by construction (each meets the order built against its
#   own rule), so what this test can show is only that the random pivot is not fooled by orders built against
#   rules it does not follow.
#
# The other five checks are illustrations. Follow-ERM with a colluding oracle makes {glue:text}`fe_max`
# mistakes at $d_\mathrm{LD}=${glue:text}`D` against SOA's {glue:text}`soa_max`; the consistency-call slopes
# are {glue:text}`slope_wc_thr:.2f` (thresholds) and {glue:text}`slope_wc_int1:.2f` (1-intervals); halving's
# worst ratio is {glue:text}`ratio_halving:.2f`. Each is fixed by our construction or is a classical result
# (Littlestone's theorem, the halving bound, Sauer-Shelah), so they show the setting of the paper rather than
# test it. The paper's lower bounds (over every learner) cannot be tested by simulating particular learners.
#
# ## What a skeptic would try
#
# Reviewed by: (pending). The review will try naive alternatives against every counted test; until then, these
# are the alternatives the page itself runs, on the same sequences, with the same oracle and criteria:
#
# * *A deterministic pivot in the middle of the uncertain set* (the ablation): calls slope
#   {glue:text}`slope_middle:.3f` and {glue:text}`ratio_middle:.2f` times $\log_2(T+1)$ mistakes on the four
#   families. It passes both criteria, so both tests are not specific: randomization is not needed against
#   these sequences.
# * *A deterministic pivot at the first point of the uncertain set* (the brief's example): at the largest $T$
#   its worst family costs {glue:text}`calls_first_Tmax:.0f` calls and {glue:text}`mist_first_Tmax:.0f`
#   mistakes (slope {glue:text}`slope_first:.2f`). It fails only because on the ascending family the next point
#   to be shown is always the lowest uncertain one, so every cut errs at once. Had we taken it as the
#   ablation, the tests would have looked specific for that accidental reason; we took the stronger rule.
# * *Lazy ERM with the oracle's own ties* (the baseline): calls slope {glue:text}`slope_lazy:.2f` and
#   {glue:text}`ratio_lazy:.1f` times $\log_2(T+1)$ mistakes. The oracle's first row is the rightmost consistent
#   cut, and the descending family (every label 1, in decreasing order) refutes it at every round. On the
#   order built against the middle pivot, whose labels are all 0, it would make no mistake at all; that is why
#   test 8 gives every learner the same five sequences, each comparator's own adversarial order included.
# * *Buy the order, then halve*: one pivot query per point ($T$ calls) reveals the hidden order, after which
#   halving runs with the class known. On the first few sequences of each family at the largest $T$ it makes
#   {glue:text}`halve_ratio:.2f` times $\log_2(T+1)$ mistakes with {glue:text}`halve_calls:.0f` calls. It
#   passes the mistakes criterion by construction (the halving bound) while its calls grow linearly, so the
#   mistakes test means something only beside the calls test. We do not count it as a comparator of the
#   mistakes test because it is outside the few-calls regime the paper's claim is about; a reviewer may
#   disagree.
# * *Lazy ERM with colluding ties* (the control of the page's first version) errs at every round by
#   construction. It was a strawman and is no longer a comparator.
#
# ## What the miniature cannot show
#
# * **Lower bounds over all learners.** The $\Omega(2^{d_\mathrm{LD}})$ mistake bound and the $\Omega(T)$
#   bounds on oracle calls are statements about every possible learner; we exhibit one learner
#   (follow-ERM) on one class and one colluding oracle. That follow-ERM is bad says nothing about cleverer
#   learners with ERM access, which is exactly what the paper's theorem rules out.
# * **The agnostic case**: the $\Omega(\sqrt{T2^{d_\mathrm{LD}}})$ regret bound and the agnostic transductive
#   algorithm were not run (the brief's agnostic study was dropped for lack of time).
# * **The paper's own algorithms and constants**: our random-pivot learner is our design; the paper's
#   $O(\log T)$ algorithm and its $O(T^32^{2k})$ algorithm for $k$-intervals may differ, and their constants are
#   unknown to us.
# * **Infinite domains**: every class here lives on at most a few hundred points; the statements of the
#   paper concern arbitrary (possibly infinite) domains, where only the dimensions matter.
# * **Asymptotic exponents** from short grids: the slopes are fitted over a factor of 8 to 64 in $T$ and
#   sit close to $d_\mathrm{VC}+1$; they cannot distinguish $O(T^{d+1})$ from, say, $O(T^{d+1}\log T)$.
# * **Whether randomization is necessary.** Our adversary is one construction, aimed at the two deterministic
#   pivots and at lazy ERM; it is not the worst order for every deterministic learner, and we do not know
#   whether the paper shows that every deterministic learner with ERM access needs more than $O(\log T)$
#   calls. The random pivot's guarantee is an expectation over its draws against an order fixed in advance;
#   an adversary that sees the draws before it labels the points is outside what we ran.
