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
# orders built by an adversary that knows a deterministic pivot rule (illustration 8): sequence name -> rule
ORDERS = {"against-middle": "middle", "against-last": "last"}

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
#    learner can be made to refute them one at a time, $2^d-1$ mistakes. That count is $|\mathcal H|-1$, not
#    a function of $d_\mathrm{LD}$: thresholds on $N=2^d-1$ points are the one class here where
#    $|\mathcal H|=2^{d_\mathrm{LD}}$. To show the difference we also run the class of singletons plus the
#    empty hypothesis on $2^d-1$ points ($|\mathcal H|=2^d$ again, but $d_\mathrm{LD}=1$).
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
#    $O(\log T)$ mistakes and ERM calls in expectation (our argument, sketched, not proved here). Each round
#    between mistakes makes 2 or 3 calls, so a run with $m$ mistakes makes between $2m$ and $3(m+1)$ calls:
#    its calls and its mistakes are one measurement seen twice. The random draw is the ingredient the abstract
#    credits ("randomized algorithms"); the same learner with a *deterministic* pivot (the middle point of
#    $U$ in the order of the sequence; its first and last points are run too) is its ablation. A deterministic
#    rule can be defeated by an adversary that knows it: `K.order_adversary_threshold_sequence` simulates such
#    a learner and hands out the hidden ranks so that every mistake settles at most two points of $U$ (the
#    pivot $z$ gets the lowest free rank, the next uncertain point shown the one above it, both labelled 0),
#    which forces about $T/2$ mistakes on the pivot rule it was built against. Our argument (not a result we
#    found in the abstract, and not proved here) is that a random pivot is not fooled by an order fixed in
#    advance, whatever rule the order was built against; the same construction shows, though, that the
#    deterministic middle and last pivots are each fooled only by the order built against *it*.
# 3. *Weak consistency, transductive halving.* The learner enumerates the labelings of $x_1..x_T$ that
#    the class realizes, prefix by prefix: each realizable labeling of $x_{1:t}$ is extended by both
#    labels of $x_{t+1}$, one consistency query each, so it spends
#    $$ \text{calls}(T)=\sum_{t=0}^{T-1}2\,\bigl|\mathcal H|_{x_{1:t}}\bigr| = O\!\left(T^{d_\mathrm{VC}+1}\right)$$
#    queries, because the Sauer–Shelah lemma bounds the number of labelings of $t$ points by $O(t^{d_\mathrm{VC}})$.
#    It then predicts by the majority vote of the labelings still consistent with the history
#    (**halving**), which errs at most $\log_2|\mathcal H|_{x_{1:T}}|$ times: $\log_2(T+1)$ for thresholds.
#    That is halving's classical bound, not the *optimal* transductive mistake bound the abstract speaks of,
#    which can be smaller. For each sequence we compute both exactly by backward induction over the game
#    (`K.transductive_game_values`): halving's worst case over every realizable labelling, and the optimal
#    learner's.
#
# ## The experiment
#
# * **Classes:** thresholds on $N=2^d-1$ points for $d=2..6$ (ci) or $2..8$ (full), and singletons plus the
#   empty hypothesis on as many points, for experiment 1; thresholds on $T$ points in a hidden random order
#   for experiments 2 and 3; unions of at most $k=1$ and $k=2$ intervals on $T$ points in a hidden random
#   order for experiment 3.
# * **Experiment 1:** $T=N+16$ rounds (enough for every mistake the adversary can force), one
#   deterministic run per $d$ and class.
# * **Experiment 2:** $T=16..256$ (ci) or $16..1024$ (full), four sequence families (ascending order with
#   every label 0, descending with every label 1, alternately the smallest and largest remaining point with
#   the threshold in the middle, random order with a uniform threshold), 60 (ci) or 200 (full) runs of the
#   random-pivot learner per family and $T$. A claim uses, at each $T$, the family with the largest mean.
#   Comparators, on the same sequences with the same oracle (added after the page first ran, some of them
#   after the independent review; the learner, the families and the criteria are unchanged):
#   * **ablation: the deterministic middle pivot**, the same learner with $z=U[\lfloor|U|/2\rfloor]$ instead
#     of a random draw. On the ascending and descending families its middle *is* the middle of the hidden
#     order, so it runs a binary search.
#   * **baseline: the deterministic last pivot** $z=U[-1]$ (the last uncertain point to be shown), a rule
#     none of our sequences was built against (suggested by the review).
#   * **baseline: random-labels ERM** (`K.random_labels_erm_learner`, suggested by the review): no pivot and
#     no uncertain set; after each mistake *one* ERM call on the history repeated $T+1$ times (so the answer
#     is consistent) plus one example with a fresh uniformly random label on every point. It is the plainest
#     randomized use of an ERM oracle, and it works for any class.
#   * **baseline, a strawman here: lazy ERM with the same oracle**: keep the last ERM answer and ask the
#     oracle again, on the plain history, only after a mistake (one call per mistake). Its ties go to the
#     oracle's first row, the consistent cut with the fewest ones, and the descending family is exactly the
#     order built against that tie-break, so its failure is fixed by construction. It stays in the table
#     because it was the page's baseline before the review. (The page's first version used lazy ERM with a
#     *colluding* tie-break, which errs at every round: dropped.)
#   * The first point of $U$ as the pivot (the brief's example) is run too and shown in "What a skeptic
#     would try"; the ascending family is the order built against it.
#   * Two more sequences, **built against the middle pivot** and **against the last pivot** by the adversary
#     above, are used by illustration 8 only (their own random streams, so the four families' draws and the
#     random pivot's draws on them are unchanged; the random-labels learner draws from a stream of its own).
# * **Experiment 3:** $T\in\{8,16,32,64\}$ (ci; up to 128 at full) for thresholds and $\{8,16,32\}$ (ci;
#   up to 64 at full) for intervals; one hidden order per class; halving's exact worst case and the optimal
#   learner's, by backward induction over the game on that order (the page's first version used a greedy
#   adversary that labels against the vote whenever it can, which understates halving's worst case; it is
#   shown beside).
#
# **Checks.** Criteria 1-7 were fixed before the notebook first ran (the numbers come from the brief,
# except two of ours, marked; a smoke test of the kernels at small sizes ran before the notebook existed).
# When the page moved to the current claim model, checks that cannot fail became illustrations (shown, never
# counted), the two tests of our random-pivot learner gained comparators (the last pivot and random-labels
# ERM after the review), and check 8 was added; after the review, check 8 became an illustration too.
#
# *Illustrations* (a classical result, a value fixed by our own construction, or a comparison whose
# outcome the construction decides):
#
# 1. *Exponential mistakes for follow-ERM.* On thresholds with $d_\mathrm{LD}=d_{\max}$, follow-ERM with
#    the colluding oracle makes $\ge 2^{d_{\max}}-2$ mistakes (brief: $\ge N-1$). The adversary refutes one
#    hypothesis per round by construction, so the count is $|\mathcal H|-1=2^d-1$ at every seed.
#    *1b.* The same learner on singletons plus the empty hypothesis, $|\mathcal H|=2^{d_{\max}}$ but
#    $d_\mathrm{LD}=1$: again $\ge 2^{d_{\max}}-2$ mistakes, so the count follows $|\mathcal H|$, not
#    $2^{d_\mathrm{LD}}$.
# 2. *SOA stays within $d_\mathrm{LD}$*: $\le d_{\max}$ mistakes (Littlestone 1988).
# 5. *Halving with weak consistency.* On thresholds, halving's exact worst case over every realizable
#    labelling, $\max_T \text{mistakes}/\log_2(T+1)\le1$ (the halving bound).
# 6. *$O(T^{d_\mathrm{VC}+1})$ consistency calls, thresholds.* Log-log slope of calls against $T$
#    $\le d_\mathrm{VC}+1+0.2=2.2$: the enumeration spends exactly $T(T+1)$ calls, a closed form.
# 7. *The same for 1-intervals*: slope $\le 3.2$ (Sauer-Shelah; the count does not depend on the seed).
# 8. *Against orders built against a deterministic rule.* Test 3's measurement and criterion ($\le 0.35$),
#    with the worst sequence taken over the four families and the orders built against the middle and the
#    last pivot. It was a post-hoc test; the review showed that every deterministic rule fails only on the
#    order built against it, so the comparison is decided by construction and is shown, not counted.
#
# *Tests* (our random-pivot learner, beside its ablation and the baselines above):
#
# 3. *$O(\log T)$ ERM calls for thresholds.* The log-log slope of the worst family's mean number of ERM
#    calls against $T$ is $\le 0.35$ (ours: a count $a+b\log T$ has local log-log slope $b/(a+b\ln T)\le
#    1/\ln 16\approx0.36$ on our grid, a count linear in $T$ has slope 1).
# 4. *Few mistakes too.* At the largest $T$ the worst family's mean number of mistakes, divided by
#    $\log_2(T+1)$, is $\le 2$ (ours: within a factor 2 of the halving bound, the abstract's "similar mistake
#    bounds").
#
# Tests 3 and 4 stand or fall together: a run with $m$ mistakes makes between $2m$ and $3(m+1)$ calls, so
# few mistakes mean few calls and conversely. They are one piece of evidence, not two.
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
# * The comparators are ours or the review's: the deterministic pivots (middle, first and last point of the
#   uncertain set), random-labels ERM, lazy ERM with the oracle's own ties (the oracle returns its first
#   minimising row, which for thresholds is the consistent cut with the fewest ones), the adversary that builds
#   an order against a deterministic rule (its tie between labelling the mistake 0 or 1 goes to 0, a fixed
#   convention), and the "buy the order, then halve" learner. The page's first version compared the random
#   pivot with lazy ERM under a colluding tie-break, which fails by construction; that control was dropped
#   when the page moved to the current claim model, and the five checks that could not fail became
#   illustrations.
# * Experiment 1 runs follow-ERM, which is not the learner behind the paper's matching upper bound (the
#   "tight" half of the abstract's statement); that upper bound is not tested here either.
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
runs, sing = {}, {}  # thresholds (|H| = 2^d, d_LD = d); singletons plus the empty hypothesis (|H| = 2^d, d_LD = 1)
for d in progress(P.ldims, desc="thresholds and singletons, follow-ERM and SOA"):
    H, S = K.thresholds(2**d - 1), K.singletons(2**d - 1, with_empty=True)
    for learner in K.LEARNERS:
        runs[learner, d] = K.worst_case_online_run(H, learner, 2**d - 1 + 16)
        sing[learner, d] = K.worst_case_online_run(S, learner, 2**d - 1 + 16)
D = max(P.ldims)
size_D = len(K.singletons(2**D - 1, with_empty=True))  # = len(thresholds(2^D - 1)) = 2^D
ldim_sing = K.littlestone_dimension(K.singletons(2**D - 1, with_empty=True))
fe_max, soa_max = int(runs["follow-erm", D]["mistakes"][-1]), int(runs["soa", D]["mistakes"][-1])
fe_sing, soa_sing = int(sing["follow-erm", D]["mistakes"][-1]), int(sing["soa", D]["mistakes"][-1])
print("thresholds, follow-ERM mistakes:", {d: int(runs["follow-erm", d]["mistakes"][-1]) for d in P.ldims})
print("thresholds, SOA mistakes:       ", {d: int(runs["soa", d]["mistakes"][-1]) for d in P.ldims})
print("singletons, follow-ERM mistakes:", {d: int(sing["follow-erm", d]["mistakes"][-1]) for d in P.ldims})
print("singletons, SOA mistakes:       ", {d: int(sing["soa", d]["mistakes"][-1]) for d in P.ldims})
print(f"at d = {D}: |H| = {size_D} for both classes; d_LD(singletons + empty) = {ldim_sing}; ERM calls of "
      f"follow-ERM: {int(runs['follow-erm', D]['calls'][-1])} (one per round)")

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
size = 2.0**ds  # |H| of both classes at each d
b.loglog(size, [runs["follow-erm", d]["mistakes"][-1] for d in ds], "o-", color="C0",
         label="follow-ERM, thresholds ($d_{LD}=\\log_2|H|$)")
b.loglog(size, [sing["follow-erm", d]["mistakes"][-1] for d in ds], "D--", color="C3", mfc="none", ms=8,
         label="follow-ERM, singletons + empty ($d_{LD}=1$)")
b.loglog(size, [runs["soa", d]["mistakes"][-1] for d in ds], "s-", color="C1", label="SOA, thresholds ($d_{LD}$)")
b.loglog(size, [sing["soa", d]["mistakes"][-1] for d in ds], "v--", color="C2", label="SOA, singletons + empty")
b.loglog(size, size - 1, "k:", label="$|H|-1$")
b.set(xlabel="class size $|H|$ (= $2^d$ for both classes)", ylabel="total mistakes",
      title="Follow-ERM tracks $|H|-1$, not $2^{d_{LD}}$")
b.set_xticks(size, [str(int(v)) for v in size])
b.set_xticks([], minor=True)
b.legend(fontsize=7)
plt.show()

# %% [markdown]
# The left panel shows mistakes against the round on thresholds: follow-ERM keeps erring until it has refuted
# all but one of the $2^d$ thresholds, while SOA stops after $d$ mistakes. The right panel shows the totals
# against the size of the class: follow-ERM sits on $|\mathcal H|-1$ on *both* classes (at
# $|\mathcal H|=${glue:text}`size_D`: {glue:text}`fe_max` mistakes on thresholds, where
# $d_\mathrm{LD}=${glue:text}`D`, and {glue:text}`fe_sing` on singletons plus the empty hypothesis, where
# $d_\mathrm{LD}=${glue:text}`ldim_sing`), while SOA makes {glue:text}`soa_max` and {glue:text}`soa_sing`. So
# what this learner and this colluding oracle exhibit is $|\mathcal H|-1$ mistakes; it coincides with
# $2^{d_\mathrm{LD}}-1$ only on thresholds on $2^d-1$ points, the one class here with
# $|\mathcal H|=2^{d_\mathrm{LD}}$. Nor is follow-ERM the learner behind the paper's matching upper bound, so
# neither half of the "tight" $\Omega(2^{d_\mathrm{LD}})$ statement is tested. All these counts are fixed by
# the construction (a colluding oracle, Littlestone's theorem), so they are shown as illustrations.
#
# ### 2. Thresholds on an unknown order: $O(\log T)$ ERM calls

# %%
rng_pivot = np.random.default_rng([seed, 2])
rng_adv = {"against-middle": np.random.default_rng([seed, 4]),  # the random pivot on the two built orders: their
           "against-last": np.random.default_rng([seed, 5])}    # own streams, so the families' draws are unchanged
rng_noisy = np.random.default_rng([seed, 6])  # random-labels ERM: its own stream
SEQS = (*FAMILIES, *ORDERS)
RIVALS = ("middle", "last", "first", "noisy", "lazy")  # every comparator of the random pivot
DETERMINISTIC = ("middle", "last", "first", "lazy")
# runs2[learner][sequence]: (T, run, [mistakes, calls]); a deterministic learner on a fixed sequence gives the same
# numbers at every run, so it is run once there and its value fills the row (the mean over runs is that value)
runs2 = {ln: {f: np.zeros((len(P.pivot_T), P.reps, 2), int) for f in SEQS} for ln in ("random", *RIVALS)}
halve = np.zeros((len(FAMILIES), P.control_reps, 2), int)  # order-then-halving at the largest T (skeptic)


def rival(name, H, y):
    """One run of a comparator on the class H over the sequence with labels y."""
    if name == "lazy":  # the oracle's own ties: its first row, the consistent cut with the fewest ones
        return K.lazy_erm_learner(K.ERMOracle(H), y)
    if name == "noisy":
        return K.random_labels_erm_learner(K.ERMOracle(H), y, rng_noisy)
    return K.random_pivot_threshold_learner(K.ERMOracle(H), y, pivot=name)


for i, T in enumerate(progress(P.pivot_T, desc="threshold learners")):
    built = {name: K.order_adversary_threshold_sequence(T, rule) for name, rule in ORDERS.items()}
    for f in SEQS:
        for r in range(P.reps):
            if f in ORDERS:
                (ranks, y), rng = built[f], rng_adv[f]
            else:
                ranks, y = K.threshold_sequence(T, f, rng_pivot)
                rng = rng_pivot
            H = K.on_sequence(K.thresholds(T), ranks)
            out = K.random_pivot_threshold_learner(K.ERMOracle(H), y, rng)
            runs2["random"][f][i, r] = out["mistakes"], out["calls"]
            for name in RIVALS:
                if name in DETERMINISTIC and f != "random" and r > 0:
                    continue
                out = rival(name, H, y)
                runs2[name][f][i, r:] = out["mistakes"], out["calls"]
            if T == P.pivot_T[-1] and f in FAMILIES and r < P.control_reps:
                out = K.order_then_halving_learner(K.ERMOracle(H), y)
                halve[FAMILIES.index(f), r] = out["mistakes"], out["calls"]
piv = runs2["random"]
Ts = np.array(P.pivot_T)
log2T1 = np.log2(Ts[-1] + 1)


def worst(learner, sequences, what):
    """Per T, the largest mean over runs among the sequences (what: 0 mistakes, 1 calls)."""
    return np.array([max(runs2[learner][f][i, :, what].mean() for f in sequences) for i in range(len(Ts))])


mean_calls = np.array([[piv[f][i, :, 1].mean() for f in SEQS] for i in range(len(Ts))])
worst_calls, worst_mist = worst("random", FAMILIES, 1), worst("random", FAMILIES, 0)
slope_pivot = loglog_slope(Ts, worst_calls)
mist_ratio = float(worst_mist[-1] / log2T1)
wc4 = {ln: worst(ln, FAMILIES, 1) for ln in RIVALS}  # worst calls of each comparator, four families
wm4 = {ln: worst(ln, FAMILIES, 0) for ln in RIVALS}
slope4 = {ln: loglog_slope(Ts, wc4[ln]) for ln in RIVALS}
ratio4 = {ln: float(wm4[ln][-1] / log2T1) for ln in RIVALS}
wc6 = {ln: worst(ln, SEQS, 1) for ln in ("random", *RIVALS)}  # illustration 8: the two built orders included
slope6 = {ln: loglog_slope(Ts, wc6[ln]) for ln in ("random", *RIVALS)}
# each learner on each built order alone: mean mistakes and calls at the largest T, slope of calls over T
on_order = {(f, ln): (runs2[ln][f][-1, :, 0].mean(), runs2[ln][f][-1, :, 1].mean(),
                      float(np.round(loglog_slope(Ts, runs2[ln][f][:, :, 1].mean(axis=1)), 6)) + 0.0)  # flat: 0, not -0
            for f in ORDERS for ln in ("random", *RIVALS)}
halve_ratio = float(halve[:, :, 0].mean(axis=1).max() / log2T1)
halve_calls = float(halve[:, :, 1].mean(axis=1).max())
# calls and mistakes are one measurement: every run makes between 2m and 3(m+1) calls for m mistakes
pairs = np.concatenate([runs2[ln][f].reshape(-1, 2) for ln in ("random", "middle", "last", "first") for f in SEQS])
calls_within = bool(np.all((2 * pairs[:, 0] <= pairs[:, 1]) & (pairs[:, 1] <= 3 * (pairs[:, 0] + 1))))
slope_pure_log = loglog_slope(Ts, np.log(Ts))  # a pure logarithm on this grid
NAMES = {"random": "random pivot", "middle": "middle pivot", "last": "last pivot", "first": "first pivot",
         "noisy": "random-labels ERM", "lazy": "lazy ERM"}
print(f"worst of the four families at each T, mean ERM calls / mistakes; T = {Ts.tolist()}")
for ln in ("random", *RIVALS):
    c, m = worst(ln, FAMILIES, 1), worst(ln, FAMILIES, 0)
    print(f"  {NAMES[ln]:18s} " + "  ".join(f"{a:6.1f}/{b:5.1f}" for a, b in zip(c, m))
          + f"   slope {loglog_slope(Ts, c):.3f}, mistakes/log2(T+1) at T = {Ts[-1]}: {m[-1] / log2T1:.3f}")
print(f"order-then-halving at T = {Ts[-1]}: {halve_ratio:.3f} x log2(T+1) mistakes with {halve_calls:.0f} calls")
print(f"every pivot run makes between 2m and 3(m+1) calls: {calls_within}; slope of ln T on this grid: "
      f"{slope_pure_log:.3f}")
print(f"on the orders built against a deterministic pivot, at T = {Ts[-1]}: mean mistakes / calls (slope of calls)")
for f in ORDERS:
    print(f"  {f:15s} " + "; ".join(f"{NAMES[ln]} {on_order[f, ln][0]:.1f} / {on_order[f, ln][1]:.1f} "
                                    f"({on_order[f, ln][2]:.2f})" for ln in ("random", *RIVALS)))
print("slope of calls, worst of the four families and the two built orders: "
      + ", ".join(f"{NAMES[ln]} {slope6[ln]:.3f}" for ln in ("random", *RIVALS)))

# %%
fig, axs = plt.subplots(2, 2, figsize=(12, 8))
a, b, c, e = axs.ravel()
for j, f in enumerate(SEQS):
    q = np.percentile(piv[f][:, :, 1], [10, 90], axis=1)
    a.fill_between(Ts, q[0], q[1], color=f"C{j}", alpha=0.15)
    a.plot(Ts, mean_calls[:, j], "o-" if f not in ORDERS else "s--", ms=3, color=f"C{j}",
           label=f"{f} (mean, 10-90%)")
a.plot(Ts, 3 * np.log2(Ts + 1), "k--", lw=0.8, label=r"$3\log_2(T+1)$: shape of the paper's $O(\log T)$")
a.set(xscale="log", yscale="log", xlabel="horizon T (rounds)", ylabel="ERM oracle calls",
      title="Random pivot, by sequence")
a.legend(fontsize=7)
styles = {"random": ("C0", "o-", "random pivot (method)"), "middle": ("C1", "s-", "middle pivot (ablation)"),
          "last": ("C4", "D-", "last pivot (baseline)"), "noisy": ("C5", "P-", "random-labels ERM (baseline)"),
          "lazy": ("C3", "^:", "lazy ERM (strawman)"), "first": ("C2", "v:", "first pivot (skeptic)")}
for ln, (col, mk, lab) in styles.items():
    b.plot(Ts, worst(ln, FAMILIES, 1), mk, ms=4, color=col, label=f"{lab}: slope {slope4.get(ln, slope_pivot):.2f}")
    c.plot(Ts, worst(ln, FAMILIES, 0), mk, ms=4, color=col, label=lab)
b.plot(Ts, Ts, "k:", lw=0.8, label="follow-ERM: one call per round")
b.set(xscale="log", yscale="log", xlabel="horizon T (rounds)", ylabel="ERM oracle calls (worst family mean)",
      title="Test 3: calls, four families")
b.legend(fontsize=7)
c.plot(Ts, np.log2(Ts + 1), "k--", lw=0.8, label=r"$\log_2(T+1)$: halving, full knowledge")
c.plot(Ts, 2 * np.log2(Ts + 1), "k-.", lw=0.8, label=r"$2\log_2(T+1)$: test 4's bar")
c.set(xscale="log", yscale="log", xlabel="horizon T (rounds)", ylabel="mistakes (worst family mean)",
      title="Test 4: mistakes of the same runs")
c.legend(fontsize=7)
for ln in ("random", "middle", "last", "noisy"):
    col, mk, lab = styles[ln]
    for f, ls in (("against-middle", "-"), ("against-last", "--")):
        big = ln == "last"  # hollow and larger: the two deterministic pivots' curves coincide pairwise
        e.plot(Ts, runs2[ln][f][:, :, 1].mean(axis=1), mk[0] + ls, ms=8 if big else 4, mfc="none" if big else col,
               color=col, label=f"{lab.split(' (')[0]}, order {f}")
e.set(xscale="log", yscale="log", xlabel="horizon T (rounds)", ylabel="ERM oracle calls (mean)",
      title="Illustration 8: orders built against one deterministic pivot")
e.legend(fontsize=7, ncol=2)
for ax in (a, b, c, e):
    ax.set_xticks(Ts, [str(t) for t in Ts])
    ax.set_xticks([], minor=True)
plt.show()

# %% [markdown]
# The top-left panel shows the random-pivot learner on each sequence, the two orders built against a
# deterministic pivot included (dashed): every curve bends like a logarithm. At $T=${glue:text}`T_max` its
# worst family costs {glue:text}`calls_random_Tmax:.1f` ERM calls on average, against
# {glue:text}`calls_random_Tmin:.1f` at $T=${glue:text}`T_min` (log-log slope {glue:text}`slope_random:.3f`,
# bar $0.35$), and {glue:text}`mist_random_Tmax:.2f` mistakes, {glue:text}`ratio_random:.2f` times
# $\log_2(T+1)$ (bar $2$).
#
# The top-right and bottom-left panels are the comparisons the two tests make. Every comparator that is not
# defeated by its own sequence does as well as the random pivot. The deterministic middle pivot costs
# {glue:text}`calls_middle_Tmax:.0f` calls at the largest $T$ (slope {glue:text}`slope_middle:.3f`) and makes
# {glue:text}`ratio_middle:.2f` times $\log_2(T+1)$ mistakes; its worst family is the ascending one, whose
# order of presentation *is* the hidden order, so its middle is a true median and it runs a binary search. The
# deterministic last pivot, a rule none of these sequences was built against, costs
# {glue:text}`calls_last_Tmax:.1f` calls (slope {glue:text}`slope_last:.3f`) and makes
# {glue:text}`ratio_last:.2f` times $\log_2(T+1)$ mistakes. Random-labels ERM, with no pivot and no uncertain
# set, costs {glue:text}`calls_noisy_Tmax:.1f` calls (slope {glue:text}`slope_noisy:.3f`) and makes
# {glue:text}`ratio_noisy:.2f` times $\log_2(T+1)$ mistakes. Lazy ERM errs at every round of the descending
# family ({glue:text}`calls_lazy_Tmax:.0f` calls and as many mistakes at the largest $T$); that family is
# exactly the order built against its tie-break, so its failure is fixed by construction (a strawman), and
# so is the first pivot's on the ascending family. Lazy ERM and random-labels ERM both return a consistent
# hypothesis after each mistake; what separates them is only whether the choice among the consistent ones is
# one the order was built against.
#
# The bottom-right panel is illustration 8. On the order built against it, the middle pivot makes
# {glue:text}`adv_mist_middle:.0f` mistakes and {glue:text}`adv_calls_middle:.0f` calls at the largest $T$,
# and the last pivot {glue:text}`adv_mist_last:.0f` mistakes and {glue:text}`adv_calls_last:.0f` calls on the
# order built against it; on each other's order they cost {glue:text}`cross_calls_middle:.0f` (middle pivot,
# order built against the last pivot) and {glue:text}`cross_calls_last:.0f` calls (last pivot, order built
# against the middle pivot). The random pivot spends {glue:text}`adv_calls_random:.1f` and
# {glue:text}`adv_calls_random_last:.1f` calls on the two orders, and random-labels ERM
# {glue:text}`adv_calls_noisy:.1f` and {glue:text}`adv_calls_noisy_last:.1f`. What the panel shows: an order
# built against the middle or the last pivot defeats that rule and not the other one (the first pivot, whose
# cut always calls the next point a 1, loses on every sequence labelled all 0). What it does not show: that
# randomization is needed. Every deterministic rule loses only to the order aimed at it, so a comparison on
# such an order is decided by which rule we chose to aim at.
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
    game = [K.transductive_game_values(L[:, :T]) for T in g]  # exact worst cases, by backward induction
    greedy = [K.halving_run(L[:, :T]) for T in g]  # halving against the greedy adversary (the first version)
    minority = [K.halving_run(L[:, :T], "minority") for T in g]
    sizes = [len(K.as_class(L[:, :T])) for T in g]
    wc[name, tuple(grid)] = dict(T=g, calls=calls[g - 1].tolist(), slope=loglog_slope(g, calls[g - 1]), dvc=dvc,
                                 halving=np.array([v["halving"] for v in game]),
                                 optimal=np.array([v["optimal"] for v in game]), greedy=np.array(greedy),
                                 minority=np.array(minority), sizes=np.array(sizes))
for (name, grid), r in wc.items():
    print(f"{name:11s} T = {r['T'].tolist()}: calls {r['calls']}, slope {r['slope']:.3f} (d_VC + 1 = {r['dvc'] + 1});"
          f" labelings {r['sizes'].tolist()} (log2: {np.round(np.log2(r['sizes']), 2).tolist()}); mistakes, exact "
          f"worst case: halving {r['halving'].tolist()}, optimal {r['optimal'].tolist()}; halving against the "
          f"greedy adversary {r['greedy'].tolist()}")
thr, int_on_thr = wc["thresholds", P.wc_thr_T], wc["1-intervals", P.wc_thr_T]
int1, int2 = wc["1-intervals", P.wc_int_T], wc["2-intervals", P.wc_int_T]
ratio_halving = float(np.max(thr["halving"] / np.log2(thr["T"] + 1)))
ratio_greedy = float(np.max(thr["greedy"] / np.log2(thr["T"] + 1)))
ratio_optimal = float(np.max(thr["optimal"] / np.log2(thr["T"] + 1)))
ratio_minority = float(np.max(thr["minority"] / np.log2(thr["T"] + 1)))
gap_halving = int(max(np.max(r["halving"] - r["optimal"]) for r in wc.values()))  # halving above the optimum
thr_halv_Tmax, thr_opt_Tmax, thr_greedy_Tmax = (int(thr[k][-1]) for k in ("halving", "optimal", "greedy"))

# %%
fig, (a, b) = plt.subplots(1, 2, figsize=(11, 3.8))
for j, r in enumerate((thr, int1, int2)):
    name = ("thresholds", "1-intervals", "2-intervals")[j]
    a.plot(r["T"], r["calls"], "o-", color=f"C{j}", label=f"{name} ($d_{{VC}}$ = {r['dvc']}): slope {r['slope']:.2f}")
    a.plot(r["T"], r["calls"][-1] * (r["T"] / r["T"][-1]) ** (r["dvc"] + 1), ":", color=f"C{j}", lw=1,
           label=f"$T^{{{r['dvc'] + 1}}}$ (the paper's $O(T^{{d_{{VC}}+1}})$)")
a.set(xscale="log", yscale="log", xlabel="horizon T (points in the sequence)", ylabel="weak-consistency calls",
      title="Enumerating the realizable labelings")
a.set_xticks(thr["T"], [str(t) for t in thr["T"]])
a.set_xticks([], minor=True)
a.legend(fontsize=7)
for j, r in enumerate((thr, int1, int2)):
    name = ("thresholds", "1-intervals", "2-intervals")[j]
    b.plot(r["T"], r["halving"], "o-", color=f"C{j}", label=f"{name}")
    b.plot(r["T"], r["optimal"], "x--", color=f"C{j}", ms=8)
    b.plot(r["T"], np.log2(r["sizes"]), ":", color=f"C{j}", lw=1)
b.plot(thr["T"], thr["greedy"], "k^--", ms=5, mfc="none", label="thresholds, halving vs the greedy adversary")
b.plot([], [], "ko-", label="halving, exact worst case")
b.plot([], [], "kx--", ms=8, label="optimal learner, exact worst case")
b.plot([], [], "k:", lw=1, label=r"halving bound $\log_2|\mathcal{H}|_{x_{1:T}}|$")
b.set(xscale="log", xlabel="horizon T", ylabel="mistakes (worst case on one order)",
      title="Transductive mistakes: halving and the optimum")
b.set_xticks(thr["T"], [str(t) for t in thr["T"]])
b.set_xticks([], minor=True)
b.legend(fontsize=7, loc="upper left")
plt.show()

# %% [markdown]
# Enumerating the realizable labelings costs exactly $T(T+1)$ queries for thresholds (slope
# {glue:text}`slope_wc_thr:.2f`), and slopes {glue:text}`slope_wc_int1:.2f` and {glue:text}`slope_wc_int2:.2f`
# for 1- and 2-intervals, close to $d_\mathrm{VC}+1$ ($2$, $3$ and $5$) on these short grids. With the
# labelings in hand, halving's exact worst case (over every realizable labelling of the sequence, by backward
# induction) stays at or under {glue:text}`ratio_halving:.2f` times $\log_2(T+1)$ on thresholds; at
# $T=${glue:text}`thr_T_max` it is {glue:text}`thr_halv_Tmax` mistakes, where the greedy adversary of the
# page's first version forced only {glue:text}`thr_greedy_Tmax` (that adversary understates halving's worst
# case). The optimal learner's exact worst case on the same order is {glue:text}`thr_opt_Tmax`; across the
# three classes halving exceeds the optimum by at most {glue:text}`gap_halving` mistakes. Halving's guarantee
# is $\log_2|\mathcal H|_{x_{1:T}}|$, which is not the optimal transductive mistake bound the abstract says
# weak consistency reaches; the abstract's algorithm for that bound was not available, so this experiment
# illustrates the $O(T^{d_\mathrm{VC}+1})$ call count, not the optimal bound. Counts of labelings are fixed by
# the classes (Sauer-Shelah) and the halving bound is classical, so these are illustrations too.
#
# ### The paper's numbers beside ours
#
# The paper proves asymptotic bounds and reports no numbers, so the table sets each bound beside what
# our miniature measures in the same setting (values from this run; the claims table below checks them).

# %%
rows = [
    ("ERM access, realizable, online", "Omega(2^d_LD) mistakes (some class, every learner)",
     f"follow-ERM on thresholds, d_LD = {D}: {fe_max} mistakes (|H| = {size_D}); on singletons + empty, d_LD = "
     f"{ldim_sing}: {fe_sing}; SOA: {soa_max}, {soa_sing}"),
    ("thresholds, unknown order, transductive", "O(log T) ERM calls",
     f"random pivot (ours): {worst_calls[-1]:.1f} calls at T = {Ts[-1]} (slope {slope_pivot:.2f}); middle pivot: "
     f"{wc4['middle'][-1]:.0f}; last pivot: {wc4['last'][-1]:.1f}; random-labels ERM: {wc4['noisy'][-1]:.1f}"),
    ("transductive, weak consistency", "optimal mistakes with O(T^(d_VC+1)) calls",
     f"slopes {thr['slope']:.2f} (thresholds, d_VC=1), {int1['slope']:.2f} (1-intervals, d_VC=2), "
     f"{int2['slope']:.2f} (2-intervals, d_VC=4)"),
    ("transductive, thresholds", "optimal mistake bound (halving: log2(T+1))",
     f"exact worst cases at T = {thr['T'][-1]}: halving {thr_halv_Tmax}, optimal {thr_opt_Tmax} mistakes"),
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
               "illustrations follow-erm-exponential-mistakes and follow-erm-singletons, where its count is |H| - 1, "
               "not 2^d_LD) can neither confirm nor refute it; follow-ERM is not the learner behind the matching upper "
               "bound, so the tightness is not tested either, and the agnostic case was not run")
claims.headline(
    "weak-consistency-transductive",
    "A weak consistency oracle costs only O(T) more calls than ERM, and in the transductive model the optimal "
    "mistake bounds are reached with O(T^(d_VC+1)) weak-consistency calls",
    untestable="our enumeration's call count is a closed form (T(T+1) for thresholds, Sauer-Shelah in general) and "
               "halving reaches its classical log2 |H|_x| bound, not the optimal transductive bound, so the checks "
               "of this page (wc-calls-slope-*, halving-mistakes-thresholds) are illustrations; the O(T) conversion "
               "from ERM was not run")
claims.headline(
    "oracle-call-lower-bounds",
    "Omega(T) weak-consistency queries are necessary for transductive learnability, and Omega(T) ERM queries "
    "are necessary to avoid a mistake bound exponential in d_LD",
    untestable="lower bounds over every learner: a simulation of particular learners cannot test them")
claims.headline(
    "randomized-thresholds",
    "For thresholds on an unknown order a randomized learner needs only O(log T) ERM queries, with a mistake "
    "bound like the optimal one (and O(T^3 2^(2k)) weak-consistency queries suffice for k-intervals, not run "
    "here); the paper's algorithm was not available, so the tests measure our own random-pivot learner",
    tests=["threshold-erm-calls-logarithmic", "threshold-pivot-mistakes"])

claims.illustrate(
    "follow-erm-exponential-mistakes",
    statement=f"Follow-ERM with a colluding ERM oracle makes >= 2^d - 2 mistakes on thresholds with d_LD = {D} "
              f"(|H| = 2^d: the count it shows is |H| - 1)",
    paper="Omega(2^d_LD) mistakes for realizable online learning with ERM access (abstract; a lower bound over "
          "all learners, which one learner cannot verify)",
    criterion=at_least(2**D - 2), measured=fe_max,
    why="fixed by construction: the colluding oracle and the adversary refute one hypothesis per round, so the "
        "count is |H| - 1 = 2^d - 1 at every seed; thresholds on 2^d - 1 points are the class with |H| = 2^d_LD")
claims.illustrate(
    "follow-erm-singletons",
    statement=f"Follow-ERM with a colluding ERM oracle makes >= 2^d - 2 mistakes on singletons plus the empty "
              f"hypothesis on 2^d - 1 points, d = {D} (|H| = 2^d, d_LD = 1)",
    paper="Omega(2^d_LD) mistakes with ERM access (abstract): this learner's count follows |H|, not 2^d_LD",
    criterion=at_least(2**D - 2), measured=fe_sing,
    why="fixed by construction, as for thresholds: one hypothesis refuted per round, |H| - 1 mistakes at every "
        "seed; it shows that follow-ERM's count tracks the size of the class, not its Littlestone dimension")
claims.illustrate(
    "soa-within-ldim",
    statement=f"SOA makes <= d_LD = {D} mistakes on thresholds against the same adversary",
    paper="the standard model's optimal mistake bound d_LD (Littlestone 1988; the paper's point of comparison)",
    criterion=at_most(D), measured=soa_max,
    why="a classical theorem (Littlestone 1988) that holds for our exact implementation by construction")
claims.illustrate(
    "halving-mistakes-thresholds",
    statement=f"Transductive halving on thresholds, exact worst case over every realizable labelling (backward "
              f"induction): max over T in {list(P.wc_thr_T)} of mistakes / log2(T+1)",
    paper="halving's classical bound log2 |H|_x| (not the optimal transductive bound, which the abstract says weak "
          "consistency reaches; the optimum is computed beside it)",
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
claims.illustrate(
    "threshold-calls-order-adversary",
    statement=f"Log-log slope in T of the mean ERM calls of the random-pivot learner, worst of the four families and "
              f"the orders built against the deterministic middle and last pivots by an adversary that knows the "
              f"rule (T in {list(P.pivot_T)})",
    paper="Thresholds on an unknown ordering: O(log T) ERM queries suffice with randomization (abstract)",
    criterion=at_most(0.35), measured=slope6["random"], tol=MC,
    why="each deterministic comparator fails only on the order built against it, by construction: a rule nobody "
        "aimed an order at (the last pivot on the order built against the middle one, and conversely) passes, "
        "so the comparison is decided by which rule the order is aimed at")

MIDDLE = "the same learner with a deterministic pivot: the middle point of the uncertain set"
LAST = "the same pivot queries with a deterministic pivot no sequence was built against: the last uncertain point"
NOISY = "random-labels ERM: one ERM call per mistake on the history (weight T+1) plus a random label per point"
LAZY = ("lazy ERM with the same oracle, asked again on the plain history after each mistake (a strawman here: the "
        "descending family is exactly the order built against its tie-break)")
claims.test(
    "threshold-erm-calls-logarithmic",
    statement=f"Log-log slope in T of the mean ERM calls of our random-pivot learner, worst of four sequence "
              f"families (T in {list(P.pivot_T)})",
    paper="Thresholds on an unknown ordering: O(log T) ERM queries suffice (abstract)",
    criterion=at_most(0.35), measured=slope_pivot,
    ablation=Comparator(MIDDLE, slope4["middle"], ingredient="the random draw of the pivot"),
    baselines=[Comparator(LAST, slope4["last"]), Comparator(NOISY, slope4["noisy"]),
               Comparator(LAZY, slope4["lazy"])], tol=MC)
claims.test(
    "threshold-pivot-mistakes",
    statement=f"Mean mistakes of the random-pivot learner at T = {Ts[-1]} (worst family), in units of "
              "log2(T+1) (the halving bound)",
    paper="randomized algorithms keep similar mistake bounds (abstract); no constant given",
    criterion=at_most(2.0), measured=mist_ratio,
    ablation=Comparator(MIDDLE, ratio4["middle"], ingredient="the random draw of the pivot"),
    baselines=[Comparator(LAST, ratio4["last"]), Comparator(NOISY, ratio4["noisy"]),
               Comparator(LAZY, ratio4["lazy"])], tol=MC)

# %%
glue("D", int(D), display=False)
glue("size_D", int(size_D), display=False)
glue("ldim_sing", int(ldim_sing), display=False)
glue("fe_max", int(fe_max), display=False)
glue("soa_max", int(soa_max), display=False)
glue("fe_sing", int(fe_sing), display=False)
glue("soa_sing", int(soa_sing), display=False)
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
for ln in ("random", *RIVALS):
    glue(f"slope6_{ln}", float(slope6[ln]), display=False)
glue("adv_calls_random", float(on_order["against-middle", "random"][1]), display=False)
glue("adv_calls_random_last", float(on_order["against-last", "random"][1]), display=False)
glue("adv_mist_random", float(on_order["against-middle", "random"][0]), display=False)
glue("adv_calls_noisy", float(on_order["against-middle", "noisy"][1]), display=False)
glue("adv_calls_noisy_last", float(on_order["against-last", "noisy"][1]), display=False)
glue("adv_calls_middle", float(on_order["against-middle", "middle"][1]), display=False)
glue("adv_mist_middle", float(on_order["against-middle", "middle"][0]), display=False)
glue("adv_calls_last", float(on_order["against-last", "last"][1]), display=False)
glue("adv_mist_last", float(on_order["against-last", "last"][0]), display=False)
glue("cross_calls_middle", float(on_order["against-last", "middle"][1]), display=False)
glue("cross_calls_last", float(on_order["against-middle", "last"][1]), display=False)
glue("adv_slope_middle_own", float(on_order["against-middle", "middle"][2]), display=False)
glue("adv_slope_last_own", float(on_order["against-last", "last"][2]), display=False)
glue("adv_slope_middle_cross", float(on_order["against-last", "middle"][2]), display=False)
glue("adv_slope_last_cross", float(on_order["against-middle", "last"][2]), display=False)
glue("slope_pure_log", float(slope_pure_log), display=False)
glue("first_on_orders", float(max(on_order[f, "first"][1] for f in ORDERS)), display=False)
glue("halve_ratio", halve_ratio, display=False)
glue("halve_calls", halve_calls, display=False)
glue("slope_wc_thr", float(thr["slope"]), display=False)
glue("slope_wc_int1", float(int1["slope"]), display=False)
glue("slope_wc_int2", float(int2["slope"]), display=False)
glue("ratio_halving", ratio_halving, display=False)
glue("ratio_greedy", ratio_greedy, display=False)
glue("ratio_optimal", ratio_optimal, display=False)
glue("ratio_minority", ratio_minority, display=False)
glue("thr_T_max", int(thr["T"][-1]), display=False)
glue("thr_halv_Tmax", thr_halv_Tmax, display=False)
glue("thr_opt_Tmax", thr_opt_Tmax, display=False)
glue("thr_greedy_Tmax", thr_greedy_Tmax, display=False)
glue("gap_halving", gap_halving, display=False)

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
# unknown order (the paper's own algorithm was not available, so they test our design, not the paper's).
# Each is measured beside the same learner with a deterministic middle pivot (the ablation of the random
# draw), the same pivot queries with a deterministic last pivot, random-labels ERM (no pivot at all), and
# lazy ERM (a strawman here), on the same sequences:
#
# * *$O(\log T)$ ERM calls*, {repro-status}`threshold-erm-calls-logarithmic`. The random pivot's worst-family
#   calls grow with slope {glue:text}`slope_random:.3f` (bar $0.35$), the middle pivot's with slope
#   {glue:text}`slope_middle:.3f`, the last pivot's with {glue:text}`slope_last:.3f` and random-labels ERM's
#   with {glue:text}`slope_noisy:.3f`; lazy ERM's slope is {glue:text}`slope_lazy:.2f`.
# * *Few mistakes*, {repro-status}`threshold-pivot-mistakes`. The random pivot makes
#   {glue:text}`ratio_random:.2f` times $\log_2(T+1)$ mistakes at the largest $T$, the middle pivot
#   {glue:text}`ratio_middle:.2f`, the last pivot {glue:text}`ratio_last:.2f` and random-labels ERM
#   {glue:text}`ratio_noisy:.2f` times, all under the bar of $2$; lazy ERM {glue:text}`ratio_lazy:.1f` times.
#
# The two tests stand or fall together: a run with $m$ mistakes makes between $2m$ and $3(m+1)$ calls
# (checked on every run of the pivot learners here), so they are one piece of evidence, not two.
#
# On our four sequence families, which are fixed in advance, neither the random draw nor the pivot
# construction is needed: a deterministic pivot does as well, and so does a learner with no pivot at all that
# makes one ERM call per mistake. What the runs show matters is that each answer is consistent with the
# history (the history weighted so that every minimiser is consistent) and that the choice among the
# consistent hypotheses is not one the sequence was built against. Lazy ERM fails only because the descending
# family is exactly the order built against its tie-break.
#
# Illustration 8 (the orders built against the middle and the last pivot) was a post-hoc test; it is now
# shown and not counted, because each deterministic comparator fails only on the order built against it. The
# random pivot's slope, worst over the four families and both built orders, is {glue:text}`slope6_random:.3f`;
# the middle and last pivots reach {glue:text}`slope6_middle:.2f` and {glue:text}`slope6_last:.2f` there, each
# because one of the two orders was aimed at it: on the order aimed at the other rule, each costs
# {glue:text}`cross_calls_middle:.0f` and {glue:text}`cross_calls_last:.0f` calls at the largest $T$.
#
# The other checks are illustrations. Follow-ERM with a colluding oracle makes {glue:text}`fe_max`
# mistakes on thresholds with $d_\mathrm{LD}=${glue:text}`D` and {glue:text}`fe_sing` on singletons plus the
# empty hypothesis with $d_\mathrm{LD}=${glue:text}`ldim_sing` (both classes have $|\mathcal H|=${glue:text}`size_D`),
# against SOA's {glue:text}`soa_max` and {glue:text}`soa_sing`; the consistency-call slopes are
# {glue:text}`slope_wc_thr:.2f` (thresholds) and {glue:text}`slope_wc_int1:.2f` (1-intervals); halving's exact
# worst ratio is {glue:text}`ratio_halving:.2f`. Each is fixed by our construction or is a classical result
# (Littlestone's theorem, the halving bound, Sauer-Shelah), so they show the setting of the paper rather than
# test it. The paper's lower bounds (over every learner) cannot be tested by simulating particular learners.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page, the
# record and the brief. The reviewer ran eleven learners on the four families and four built orders, a
# generalised order adversary, and the exact transductive game; what they tried is now measured by this
# notebook, on the same sequences, with the same oracle and criteria (values at this seed):
#
# * *A deterministic pivot in the middle of the uncertain set* (the ablation): calls slope
#   {glue:text}`slope_middle:.3f` and {glue:text}`ratio_middle:.2f` times $\log_2(T+1)$ mistakes on the four
#   families. It passes both criteria.
# * *A deterministic pivot at the last point of the uncertain set* (the review's baseline; no sequence here was
#   built against it): calls slope {glue:text}`slope_last:.3f`, {glue:text}`calls_last_Tmax:.1f` calls and
#   {glue:text}`ratio_last:.2f` times $\log_2(T+1)$ mistakes at the largest $T$; at this seed a better score
#   than the random pivot's ({glue:text}`slope_random:.3f`, {glue:text}`calls_random_Tmax:.1f` calls). It passes both.
# * *Random-labels ERM* (the review's baseline; no pivot, no uncertain set, one call per mistake): calls slope
#   {glue:text}`slope_noisy:.3f`, {glue:text}`calls_noisy_Tmax:.1f` calls and {glue:text}`ratio_noisy:.2f`
#   times $\log_2(T+1)$ mistakes. It passes both, so both tests are not specific: on these sequences the
#   random pivot's two ingredients (the random draw and the pivot queries) are not needed.
# * *Orders built against each deterministic rule* (the review's table): the middle pivot costs
#   {glue:text}`adv_calls_middle:.0f` calls on the order built against it (slope
#   {glue:text}`adv_slope_middle_own:.2f`) but {glue:text}`cross_calls_middle:.0f` on the order built against
#   the last pivot (slope {glue:text}`adv_slope_middle_cross:.2f`); the last pivot costs
#   {glue:text}`adv_calls_last:.0f` calls on its own order (slope {glue:text}`adv_slope_last_own:.2f`) but
#   {glue:text}`cross_calls_last:.0f` on the middle pivot's (slope {glue:text}`adv_slope_last_cross:.2f`).
#   Each rule is defeated only by the order aimed at it, which is why check 8 is an illustration. The random
#   pivot costs {glue:text}`adv_calls_random:.1f` and {glue:text}`adv_calls_random_last:.1f` calls on these two
#   orders, random-labels ERM {glue:text}`adv_calls_noisy:.1f` and {glue:text}`adv_calls_noisy_last:.1f`.
# * *A deterministic pivot at the first point of the uncertain set* (the brief's example): at the largest $T$
#   its worst family costs {glue:text}`calls_first_Tmax:.0f` calls and {glue:text}`mist_first_Tmax:.0f`
#   mistakes (slope {glue:text}`slope_first:.2f`). The ascending family is the order built against it; and
#   since its cut at the next point to be shown always calls that point a 1, any sequence whose labels are
#   all 0 defeats it, the two built orders included ({glue:text}`first_on_orders:.0f` calls on each at the
#   largest $T$). It is the weakest deterministic rule, not a fair stand-in for one.
# * *Lazy ERM with the oracle's own ties* (the page's baseline before the review, a strawman): calls slope
#   {glue:text}`slope_lazy:.2f` and {glue:text}`ratio_lazy:.1f` times $\log_2(T+1)$ mistakes. The oracle's
#   first row is the rightmost consistent cut, and the descending family (every label 1, in decreasing order)
#   is exactly the order built against it.
# * *Buy the order, then halve*: one pivot query per point ($T$ calls) reveals the hidden order, after which
#   halving runs with the class known. On the first few sequences of each family at the largest $T$ it makes
#   {glue:text}`halve_ratio:.2f` times $\log_2(T+1)$ mistakes with {glue:text}`halve_calls:.0f` calls. It
#   passes the mistakes criterion by construction (the halving bound) while its calls grow linearly; it is not
#   a comparator of the mistakes test because it is outside the few-calls regime the claim is about.
# * *Follow-ERM on another class*: on singletons plus the empty hypothesis ($d_\mathrm{LD}=${glue:text}`ldim_sing`,
#   $|\mathcal H|=${glue:text}`size_D`) it makes {glue:text}`fe_sing` mistakes, as on thresholds: the count of
#   illustration 1 is $|\mathcal H|-1$, not $2^{d_\mathrm{LD}}$.
# * *Halving's exact worst case*: the greedy adversary of the page's first version understated it
#   ({glue:text}`thr_greedy_Tmax` against {glue:text}`thr_halv_Tmax` mistakes on thresholds at
#   $T=${glue:text}`thr_T_max`); the exact worst case by backward induction is now what illustration 5
#   measures, and the optimal learner's exact worst case ({glue:text}`thr_opt_Tmax` there) is shown beside it.
# * *Lazy ERM with colluding ties* (the control of the page's first version) errs at every round by
#   construction. It was a strawman and is no longer a comparator.
#
# ## What the miniature cannot show
#
# * **Lower bounds over all learners.** The $\Omega(2^{d_\mathrm{LD}})$ mistake bound and the $\Omega(T)$
#   bounds on oracle calls are statements about every possible learner; we exhibit one learner
#   (follow-ERM) on two classes and one colluding oracle, and its count is $|\mathcal H|-1$, which equals
#   $2^{d_\mathrm{LD}}-1$ only on our thresholds. That follow-ERM is bad says nothing about cleverer learners
#   with ERM access, which is exactly what the paper's theorem rules out; and follow-ERM is not the learner
#   behind the paper's matching upper bound, so the "tight" half is not tested either.
# * **The agnostic case**: the $\Omega(\sqrt{T2^{d_\mathrm{LD}}})$ regret bound and the agnostic transductive
#   algorithm were not run (the brief's agnostic study was dropped for lack of time).
# * **The paper's own algorithms and constants**: our random-pivot learner is our design; the paper's
#   $O(\log T)$ algorithm and its $O(T^32^{2k})$ algorithm for $k$-intervals may differ, and their constants are
#   unknown to us. The optimal transductive mistake bound is computed here only by backward induction with the
#   class known, not reached through weak-consistency calls.
# * **Infinite domains**: every class here lives on at most a few hundred points; the statements of the
#   paper concern arbitrary (possibly infinite) domains, where only the dimensions matter.
# * **Logarithmic against small powers.** A log-log slope at most $0.35$ on $T=16..256$ cannot tell
#   $O(\log T)$ from, say, $T^{0.25}$: a pure $\ln T$ has slope {glue:text}`slope_pure_log:.2f` on this grid.
#   Test 3 separates a logarithm from a linear count, nothing finer.
# * **Asymptotic exponents** from short grids: the consistency-call slopes are fitted over a factor of 4 to 8
#   in $T$ and sit close to $d_\mathrm{VC}+1$; they cannot distinguish $O(T^{d+1})$ from, say,
#   $O(T^{d+1}\log T)$.
# * **Whether randomization is necessary.** Our adversary builds an order against one deterministic rule at a
#   time, and each order defeats only the rule it was built against; we did not search for the worst order
#   for every deterministic learner, and we do not know whether the paper shows that every deterministic
#   learner with ERM access needs more than $O(\log T)$ calls. That a random pivot is not fooled by an order
#   fixed in advance is our argument, not a result we found in the abstract; an adversary that sees the draws
#   before it labels the points is outside what we ran.
