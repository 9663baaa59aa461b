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
# # Online learning of pure states is as hard as learning mixed states
#
# *When an adversary chooses the measurements and reveals outcomes one round at a time, restricting the
# unknown state to be pure does not lower the regret: the paper shows that both classes cost
# $\Theta(\sqrt{nT})$ for $n$ qubits and $T$ rounds. We show the two known halves of that rate in miniature:
# the classical lower-bound construction, whose best comparator is a pure state and which costs every learner
# the same, and the upper bound of matrix multiplicative weights, which covers pure comparators unchanged.
# Nothing here tests the paper's new argument.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue

from repro.claims import Claims, at_most, between, tolerance
from repro.papers import online_pure_vs_mixed_states as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    # n <= 4 qubits, one record per state adversary and n, 100 commuting records (the first run used two
    # state records, about twice the time)
    "ci": dict(ns=(1, 2, 3, 4), Ts=(500, 2000, 8000), state_records=1, commuting_records=100),
    # about 2 min of CPU (estimated from per-record profiles): n <= 5 qubits (N = 32), 8 records per
    # state adversary and n, 400 commuting records
    "full": dict(ns=(1, 2, 3, 4, 5), Ts=(500, 2000, 8000), state_records=8, commuting_records=400),
})
claims = Claims(
    "online-pure-vs-mixed-states",
    title="Online Learning of Pure States is as Hard as Mixed States",
    authors="Maxime Meyer, Soumik Adhikary, Naixu Guo, Patrick Rebentrost",
    paper_url="https://arxiv.org/abs/2502.00823",
    scale=scale, seed=seed,
)
TS = np.array(P.Ts)
T_MAX = int(TS.max())
MIXED_BLOCH = 0.5  # Bloch-vector length of each qubit of the mixed adversary (1 = pure)

# %% [markdown]
# ## The claim
#
# Learning an unknown quantum state usually gets much cheaper when the state is known to be pure:
# full tomography of a pure state of dimension $N$ needs about $N$ copies instead of about $N^2$. The
# paper asks whether this gap survives in the **online** setting, where nothing is random: in each
# round an adversary picks a two-outcome measurement $E_t$ ($0\preceq E_t\preceq I$), the learner
# commits to a state $\omega_t$ and predicts the probability $\mathrm{Tr}(E_t\omega_t)$, and the adversary
# reveals a value $b_t\in[0,1]$; the learner pays $|\mathrm{Tr}(E_t\omega_t)-b_t|$. Its **regret** is its
# total loss minus that of the best state in hindsight, the best state being taken in a *class*: all
# density matrices (mixed states) or only the pure ones.
#
# The paper's answer (Meyer, Adhikary, Guo and Rebentrost, NeurIPS 2025) is no: the two classes have
# almost the same *sequential fat-shattering dimension*, the combinatorial quantity that fixes the
# minimax regret of online learning, so both are learnable at the same rate $\Theta(\sqrt{nT})$ for
# $n$ qubits, the rate that Aaronson, Chen, Hazan, Kale and Nayak (2018) proved for mixed states with
# matrix multiplicative weights. It also extends the online results to an $\epsilon$-realizable setting
# and to partial learning through smoothed analysis; this page does not touch those.
#
# What we know of the paper: its abstract, its OpenReview and arXiv listings and a secondary summary.
# The exact fat-shattering statement, its constants and any figures were not available, the paper reports
# no numbers, and **we found no official code**, so there is no comparison with an official implementation.
# The statements below that are *theorems* are the regret upper bound of matrix multiplicative weights
# (prior work, with the constant we derive below) and the $\Omega(\sqrt{nT})$ lower bound for pure
# states (the paper's). Everything we check are **numerical stand-ins** for them: regret measured on
# particular adversaries at $n\le4$ qubits (5 at full scale), not a minimax rate.
#
# ## The method
#
# **The learner: matrix multiplicative weights (MMW).** The loss is convex in the state, with
# subgradient $g_t=\mathrm{sign}(\mathrm{Tr}(E_t\omega_t)-b_t)\,E_t$. MMW plays the Gibbs state of the
# summed subgradients,
#
# $$ \omega_t = \frac{\exp(-\eta G_t)}{\mathrm{Tr}\,\exp(-\eta G_t)},\qquad G_t=\sum_{s<t} g_s,\qquad
#    \eta=\sqrt{\ln N/T}, $$
#
# which is follow-the-regularised-leader with the von Neumann entropy as regulariser (Aaronson et al.'s
# algorithm) and the matrix version of the classical Hedge / multiplicative-weights rule; on diagonal
# (commuting) measurements it *is* classical multiplicative weights over the $N$ basis states (a unit test
# checks this). `K.mmw_state` computes the exponential through one eigendecomposition.
#
# **The upper bound and its constant.** Our derivation, the standard matrix-Hedge argument (Tsuda, Rätsch
# and Warmuth 2005; Arora and Kale 2007): the potential $\Phi_t=\mathrm{Tr}\,e^{-\eta G_t}$ starts at $N$;
# the Golden–Thompson inequality and $e^{-x}\le1-x+x^2$ for $x\ge-1$ give
# $\Phi_{t+1}\le\Phi_t\exp(-\eta\,\mathrm{Tr}(\omega_tg_t)+\eta^2\mathrm{Tr}(\omega_tg_t^2))$, and
# $\Phi_{T+1}\ge e^{-\eta\lambda_{\min}(G_{T+1})}$. Since $g_t^2=E_t^2\preceq I$ and the loss is convex,
#
# $$ R_T \;\le\; \frac{\ln N}{\eta}+\eta\sum_t\mathrm{Tr}(\omega_tg_t^2)\;\le\;\frac{\ln N}{\eta}+\eta T
#    \;=\;2\sqrt{T\ln N}\quad\text{at }\eta=\sqrt{\ln N/T}, $$
#
# against every density matrix, hence against every pure state too. The constant 2 comes from balancing
# the entropy term $\ln N/\eta$ (the regulariser's range over the states: $\ln N$) against the stability
# term $\eta T$ (the squared operator norm of each subgradient, at most 1). With $\ln N=n\ln2$ this is
# $2\sqrt{\ln 2}\,\sqrt{nT}\approx1.67\sqrt{nT}$. (Aaronson et al. state their bound as $O(\sqrt{Tn})$ with an
# RFTL argument; we did not check their constant.)
#
# **Measurement records make the loss linear.** All our adversaries reveal actual measurement outcomes,
# $b_t\in\{0,1\}$. Since $\mathrm{Tr}(E_t\rho)\in[0,1]$, the loss is then
# $|\mathrm{Tr}(E_t\rho)-b_t| = b_t+(1-2b_t)\,\mathrm{Tr}(E_t\rho)$, a *linear* function of the state. Two
# consequences: (i) the best state in hindsight is the bottom eigenvector of $\sum_t(1-2b_t)E_t$, a **pure**
# state, so on such records the regret against the best pure state *equals* the regret against the best
# mixed state (`K.best_state_in_hindsight`; checked against random pure and mixed states in the unit tests);
# (ii) the subgradient $(1-2b_t)E_t$ does not depend on what the learner played, so all $T$ iterates
# follow from prefix sums and one batched eigendecomposition (`K.mmw_binary_losses`, equal to the round-by-round
# protocol `K.mmw_online` in the tests). Fact (i) is the heart of the lower bound.
#
# **The lower bound (the paper's side).** Measure $|1\rangle\langle1|$ on qubit $t\bmod n$ and reveal a fair
# coin. Any learner, whatever it predicts, loses $1/2$ per round in expectation, while the best state in
# hindsight, the computational basis state holding the majority outcome of each qubit, saves
# $|2O_i-k_i|/2$ on qubit $i$ ($k_i$ rounds, $O_i$ ones). So every learner's expected regret is
#
# $$ \mathbb E R_T=\sum_{i=1}^n\tfrac12\,\mathbb E|2O_i-k_i|\;\approx\;\sqrt{\frac{nT}{2\pi}}, $$
#
# computed exactly by `K.random_label_regret_mean`, and the comparator that achieves it is **pure**. The coins
# are also the physical measurement record of a pure state: $|+\rangle^{\otimes n}$ gives fair coins under
# these measurements, exactly as the maximally mixed state $I/N$ does. This is the construction behind the
# brief's "pure states are as hard": $n$ commuting directions, each settable independently by a pure
# product state.
#
# ## The experiment
#
# Three adversaries, each revealing measurement outcomes drawn by Born's rule from a hidden state:
#
# * **Commuting (lower-bound) adversary.** $E_t=|1\rangle\langle1|$ on qubit $t \bmod n$, outcomes from
#   $|+\rangle^{\otimes n}$ (fair coins). Regret of MMW against the best pure state.
# * **Pure-state adversary.** A random pure product state (unit Bloch vectors in uniform random directions),
#   measured by random local Pauli projectors $E_t=(I+s_tP_t)/2$, with $P_t$ one of $X,Y,Z$ on a uniformly
#   chosen qubit and a fair sign $s_t=\pm1$ (rank-$N/2$, non-commuting two-outcome measurements).
# * **Mixed-state adversary.** The same, with every qubit's Bloch vector shortened to length 1/2
#   (each qubit halfway to maximally mixed; purity $0.625^n$).
#
# For each adversary, $n\in\{1,2,3,4\}$ ($N\le16$; $n\le5$ at full scale) and $T\in\{500,2000,8000\}$, with
# $\eta=\sqrt{\ln N/T}$ fixed by the horizon. The regret at horizon $T$ is measured on the first $T$ rounds
# of one record of length 8000 (one record per state adversary and $n$ at ci scale, 8 at full; 100 commuting
# records at ci, 400 at full). Beside MMW we run three learners on the same records: **MMW with $\eta=0$**,
# which never leaves $I/N$ (the method without learning), **sign-flipped MMW**, $\omega_t\propto
# e^{+\eta G_t}$ (a deliberately wrong kernel that moves towards the loss), and, on the two state adversaries,
# **follow-the-leader** (FTL, `K.ftl_binary_losses`): the naive learner a skeptic tries first, which plays the best
# state in hindsight of the rounds so far (a bottom eigenvector of $G_t$, a *pure* state away from ties) with no
# regulariser. FTL was added when the page was converted to the claim model (issue 33), as a skeptic's baseline.
# After the independent review two more were added: on the state adversaries, **MMW with one fixed step size**
# $\eta=\sqrt{\ln N/500}$ at every horizon, and on the commuting adversary the **no-learning learner** $\eta=0$
# (which predicts 1/2 every round).
#
# **Checks, fixed before the first run** (thresholds from the brief; each with its control). All four are
# shown as *illustrations*, never counted: see "Claims" below for why each cannot fail as a test of the paper.
#
# 1. *Under the bound* (theorem, prior work). Over every adversary, $n$, $T$ and record, the largest
#    $R_T/(2\sqrt{T\ln N})$ is $\le1$. Control: the sign-flipped kernel on the same records.
# 2. *$\sqrt T$ growth against the pure-state adversary.* For every $n$, the log-log slope of the mean regret
#    in $T$ lies in $[0.35,0.65]$ (brief: $\sqrt T$); we record the slope farthest from $1/2$. Control: the
#    same slope for $\eta=0$ (no learning: linear regret, slope near 1).
# 3. *$\sqrt T$ growth against the mixed-state adversary.* The same, on the mixed adversary.
# 4. *Pure comparators cost $\sqrt n$* (stand-in for the paper's lower bound). On the commuting adversary, the
#    log-log slope of MMW's mean regret against the best pure state at $T=8000$, over $n$, lies in
#    $[0.35,0.65]$. Control: the same adversary restricted to qubit 0 (one measured direction, so nothing
#    for the extra qubits to pay for: slope near 0).
#
# **Deviations from the paper**
#
# * No reimplementation of the paper's proofs: the sequential fat-shattering dimension (the paper's main
#   object, and its dependence on the scale $\epsilon$) is not computed. We measure one algorithm's regret on
#   three fixed adversaries; a minimax rate would need the worst adversary, which no simulation finds.
# * The learner is the prior work's MMW (Aaronson et al. 2018), not an algorithm of this paper; the step
#   size $\eta=\sqrt{\ln N/T}$ is the one that minimises our bound (the brief's choice too), with the horizon
#   known in advance (no doubling trick).
# * Revealed values are binary measurement outcomes only, which makes the $L_1$ loss linear and the best
#   mixed and best pure comparators identical (see the method). The brief's real-valued $\epsilon$-realizable
#   labels (noisy expectation values, where the best mixed state in hindsight is an SDP) are not run. Not for
#   want of tools: cvxpy is pinned in the book's environment and the independent review solved that SDP in well
#   under a second per instance at $n\le3$. They are not run because the brief's check there (regret against
#   the best pure and the best mixed state differ by less than 25 % for a pure target) cannot fail: with a
#   pure target the two best losses nearly coincide, and the review found that every learner passes, the
#   no-learning one included. A sound criterion would need the paper's $\epsilon$-realizable rates, which we
#   did not read.
# * Measurements: single-qubit Pauli projectors (rank $N/2$) for the state adversaries, instead of the
#   brief's Haar-random rank-1 projectors, which reveal almost nothing per round at $N=16$ (an outcome
#   probability near $1/N$); the commuting adversary visits qubits in turn ($t\bmod n$) instead of at random,
#   so that its expected regret has the exact form above.
# * Hidden states: random *product* states (pure: unit Bloch vectors; mixed: length 1/2). An entangled
#   Haar-random pure state has nearly maximally mixed single-qubit marginals, so local measurements would
#   see it as almost $I/N$.
# * Scale: $n\le4$ ($N\le16$) at ci scale, $n\le5$ at full; $T\le8000$; one (ci) or 8 (full) records per
#   state adversary and size, 100 (ci) or 400 (full) commuting records. The paper has no experiments. *Changed
#   after the first run, for the time budget only:* the ci preset had two records per state adversary and
#   took about twice the ci budget; criteria and measurements are unchanged (all four checks held in that
#   run too).
# * Not run: the $\epsilon$-realizable extension, smoothed analysis and partial learning, and the
#   $L_2$-loss / Rademacher link.

# %%
print(f"scale={P.scale}: n in {P.ns}, T in {P.Ts}, {P.state_records} records per state adversary and n, "
      f"{P.commuting_records} commuting records")
LEARNERS = ("MMW", "sign-flipped", "eta = 0", "FTL", "fixed-eta MMW")


def state_adversary(n, bloch_length, rng):
    """One record of local Pauli measurements on a random product state; regrets (learner in LEARNERS, horizon)."""
    sigma = K.product_state(K.random_bloch_vectors(n, bloch_length, rng))
    E = K.local_pauli_projectors(n, rng.integers(0, n, T_MAX), rng.integers(0, 3, T_MAX), rng.choice([-1, 1], T_MAX))
    b = K.born_outcomes(E, sigma, rng)
    etas = np.array([K.mmw_step_size(int(T), 2**n) for T in TS])
    fixed = K.mmw_step_size(int(TS[0]), 2**n)  # skeptic's learner: one step size for every horizon
    losses = K.mmw_binary_losses(E, b, np.concatenate([etas, -etas, [0.0, fixed]]))  # (2 len(TS) + 2, T)
    best = K.best_losses_in_hindsight(E, b, TS)
    ftl = K.ftl_binary_losses(E, b)  # the naive baseline: no step size to choose
    R = np.empty((len(LEARNERS), len(TS)))
    for h, T in enumerate(TS):  # MMW and its sign flip use the step size of horizon T; eta = 0 and fixed eta do not
        R[:, h] = [losses[h, :T].sum(), losses[len(TS) + h, :T].sum(), losses[-2, :T].sum(), ftl[:T].sum(),
                   losses[-1, :T].sum()]
    return R - best


def commuting_adversary(n, qubits, records, rng, horizons=TS, chunk=100):
    """Fair-coin records on |1><1| of the given qubit per round; regrets (learner: MMW, sign-flipped, eta = 0; record; horizon)."""
    D = K.z_one_projector_diagonals(n, qubits)
    out = []
    for start in range(0, records, chunk):  # chunks bound the memory at full scale
        b = (rng.random((min(chunk, records - start), T_MAX)) < 0.5).astype(float)
        best = K.best_diagonal_state_in_hindsight(D, b, horizons)
        R = np.empty((3, b.shape[0], len(horizons)))
        for h, T in enumerate(horizons):  # each horizon runs on its own prefix with its own step size
            eta = K.mmw_step_size(int(T), 2**n)
            R[:, :, h] = K.multiplicative_weights_losses(D[:T], b[:, :T], [eta, -eta, 0.0]).sum(axis=-1)
        out.append(R - best[None])
    return np.concatenate(out, axis=1)


state = {}
for adv, length in (("pure", 1.0), ("mixed", MIXED_BLOCH)):
    for n in progress(P.ns, desc=f"{adv}-state adversary"):
        state[adv, n] = np.stack([state_adversary(n, length, P.rng) for _ in range(P.state_records)])  # (rec, learner, T)
commuting, single = {}, {}
for n in progress(P.ns, desc="commuting adversary"):
    commuting[n] = commuting_adversary(n, K.round_robin_qubits(n, T_MAX), P.commuting_records, P.rng)
    single[n] = commuting_adversary(n, np.zeros(T_MAX, int), P.commuting_records, P.rng, horizons=TS[-1:])

# %% [markdown]
# ## Results
#
# ### Regret against the pure and the mixed adversary
#
# Mean regret of MMW over the records (markers; the band spans the records' minimum to maximum, empty with
# the single record of the ci scale) against
# the horizon $T$, with the bound $2\sqrt{T\ln N}$ dashed in the same colour, the no-learning learner
# ($\eta=0$) dotted and faint, and follow-the-leader (the naive learner with no regulariser) dash-dotted. The regret is measured against the best state in hindsight, which on these records is
# pure for both adversaries.

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
slopes = {}
for ax, adv in zip(axes, ("pure", "mixed")):
    for j, n in enumerate(P.ns):
        R = state[adv, n]
        mean = R[:, 0].mean(0)
        slopes[adv, n] = (loglog_slope(TS, mean), loglog_slope(TS, R[:, 2].mean(0)), loglog_slope(TS, R[:, 3].mean(0)),
                          loglog_slope(TS, R[:, 4].mean(0)))
        ax.loglog(TS, mean, "o-", color=f"C{j}", label=f"n = {n}: slope {slopes[adv, n][0]:.2f}")
        ax.fill_between(TS, R[:, 0].min(0), R[:, 0].max(0), color=f"C{j}", alpha=0.2)
        ax.loglog(TS, K.mmw_regret_bound(TS, 2**n), "--", color=f"C{j}", lw=1)
        ax.loglog(TS, R[:, 2].mean(0), ":", color=f"C{j}", lw=1, alpha=0.6)
        ax.loglog(TS, R[:, 3].mean(0), "-.", color=f"C{j}", lw=1)
    ax.plot([], [], "k--", lw=1, label=r"bound $2\sqrt{T\ln N}$")
    ax.plot([], [], "k:", lw=1, label=r"$\eta=0$ (control)")
    ax.plot([], [], "k-.", lw=1, label="follow-the-leader (naive)")
    title = "pure product state" if adv == "pure" else f"mixed product state (Bloch length {MIXED_BLOCH})"
    ax.set(xlabel="horizon T (rounds)", title=f"{adv}-state adversary: {title}")
    ax.legend(fontsize=7, loc="upper left")
axes[0].set_ylabel("regret $R_T$ (loss units)")
plt.show()

# %%
ratio_rows = []
for n in P.ns:
    ratio_rows.append((n, *(state[adv, n][:, 0, -1].mean() / K.mmw_regret_bound(T_MAX, 2**n) for adv in ("pure", "mixed")),
                       state["pure", n][:, 0, -1].mean() / state["mixed", n][:, 0, -1].mean()))
print(f"at T = {T_MAX}: mean regret / bound and the pure/mixed ratio of mean regrets")
for n, rp, rm, q in ratio_rows:
    print(f"  n = {n}: pure {rp:.3f}, mixed {rm:.3f}, pure/mixed {q:.2f}; "
          f"slopes in T: pure {slopes['pure', n][0]:.3f}, mixed {slopes['mixed', n][0]:.3f}, "
          f"eta=0 {slopes['pure', n][1]:.3f} / {slopes['mixed', n][1]:.3f}, "
          f"FTL {slopes['pure', n][2]:.3f} / {slopes['mixed', n][2]:.3f}, "
          f"fixed-eta MMW {slopes['pure', n][3]:.3f} / {slopes['mixed', n][3]:.3f}")
ftl_over_mmw = {adv: [state[adv, n][:, 3, -1].mean() / state[adv, n][:, 0, -1].mean() for n in P.ns]
                for adv in ("pure", "mixed")}
print(f"at T = {T_MAX}: FTL regret / MMW regret, pure adversary", np.round(ftl_over_mmw["pure"], 3),
      "mixed adversary", np.round(ftl_over_mmw["mixed"], 3))

# %% [markdown]
# ### The lower-bound adversary: pure comparators cost $\sqrt n$
#
# Left: MMW's regret against the best pure state on the commuting fair-coin adversary at $T=8000$, against
# the number of qubits (mean over records with $\pm2$ standard errors), beside the exact expectation that
# *every* learner pays on it, the learner that never learns ($\eta=0$), the upper bound, and the control in
# which all rounds measure qubit 0. Right:
# the same regret divided by $\sqrt{T\log_2N}=\sqrt{nT}$ at every horizon; the lower-bound construction
# predicts $1/\sqrt{2\pi}\approx0.40$.

# %%
ns = np.array(P.ns)
mean_c = np.array([commuting[n][0, :, -1].mean() for n in ns])
se_c = np.array([commuting[n][0, :, -1].std(ddof=1) / np.sqrt(P.commuting_records) for n in ns])
mean_s = np.array([single[n][0, :, -1].mean() for n in ns])
se_s = np.array([single[n][0, :, -1].std(ddof=1) / np.sqrt(P.commuting_records) for n in ns])
mean_0 = np.array([commuting[n][2, :, -1].mean() for n in ns])  # eta = 0: predicts 1/2 every round
slope_n, slope_n_single, slope_n_zero = loglog_slope(ns, mean_c), loglog_slope(ns, mean_s), loglog_slope(ns, mean_0)
fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4.2))
ax.errorbar(ns, mean_c, 2 * se_c, fmt="o-", color="C0", capsize=3, label=f"MMW, qubit t mod n (slope {slope_n:.2f})")
ax.errorbar(ns, mean_s, 2 * se_s, fmt="s-", color="C3", capsize=3, label=f"control: qubit 0 only (slope {slope_n_single:.2f})")
ax.plot(ns, mean_0, "^:", color="C2", label=f"no learning, $\\eta=0$ (slope {slope_n_zero:.2f})")
ax.plot(ns, [K.random_label_regret_mean(int(n), T_MAX) for n in ns], "k-", lw=1, label="exact expectation, any learner")
ax.plot(ns, K.mmw_regret_bound(T_MAX, 2.0**ns), "k--", lw=1, label=r"MMW bound $2\sqrt{T\ln N}$")
ax.set(xscale="log", yscale="log", xticks=ns, xticklabels=[str(n) for n in ns], xlabel="qubits n",
       ylabel="regret $R_T$ at T = %d (loss units)" % T_MAX, title="Commuting fair-coin adversary")
ax.minorticks_off()
ax.legend(fontsize=7)
norm_c = {n: commuting[n][0].mean(0) / np.sqrt(n * TS) for n in ns}
for j, n in enumerate(ns):
    bx.plot(TS, norm_c[n], "o-", color=f"C{j}", label=f"n = {n}")
bx.axhline(1 / np.sqrt(2 * np.pi), color="k", lw=1, label=r"$1/\sqrt{2\pi}$ (large-T limit)")
bx.axhline(2 * np.sqrt(np.log(2)), color="k", ls="--", lw=1, label=r"bound: $2\sqrt{\ln 2}$")
bx.set(xscale="log", ylim=(0, 1.8), xlabel="horizon T (rounds)", ylabel=r"$R_T/\sqrt{nT}$",
       title="Regret in units of $\\sqrt{T\\log_2 N}$")
bx.legend(fontsize=7)
plt.show()

# %% [markdown]
# ### Every run against the bound
#
# $R_T/(2\sqrt{T\ln N})$ for every adversary, size, horizon and record, for MMW and for the sign-flipped
# control; the theorem says MMW stays below 1.

# %%
def bound_ratios(learner):
    out = {}
    for n in P.ns:
        bound = K.mmw_regret_bound(TS, 2**n)
        for adv in ("pure", "mixed"):
            out.setdefault(adv, []).append((state[adv, n][:, learner] / bound).ravel())
        out.setdefault("commuting", []).append((commuting[n][learner] / bound).ravel())
    return {k: np.concatenate(v) for k, v in out.items()}


ratios = {k: bound_ratios(k) for k in (0, 1)}
max_ratio = {k: max(v.max() for v in ratios[k].values()) for k in (0, 1)}
fig, ax = plt.subplots(figsize=(7, 3.8))
for j, adv in enumerate(("commuting", "pure", "mixed")):
    for k, (marker, lab) in enumerate((("o", "MMW"), ("x", "sign-flipped (control)"))):
        r = ratios[k][adv]
        ax.plot(r, np.full(r.size, j) + (0.15 if k else -0.15) + 0.05 * P.rng.standard_normal(r.size), marker,
                ms=3, color=f"C{j}", alpha=0.5, label=lab if j == 0 else None)
ax.axvline(1, color="k", ls="--", lw=1)
ax.set(xscale="log", yticks=[0, 1, 2], yticklabels=["commuting", "pure", "mixed"],
       xlabel=r"$R_T / 2\sqrt{T\ln N}$ (dimensionless)", title="Regret over the bound, every run")
ax.legend(fontsize=8)
plt.show()
print(f"largest ratio: MMW {max_ratio[0]:.3f}, sign-flipped control {max_ratio[1]:.3f}")

# %% [markdown]
# ### The paper's numbers
#
# The paper reports rates, not numbers. The table puts each rate beside what we measured, in the setting
# of each row (slopes are log-log slopes; "brief" marks the reproduction brief's own calibration, not the paper).

# %%
worst = {adv: max((slopes[adv, n][0] for n in P.ns), key=lambda s: abs(s - 0.5)) for adv in ("pure", "mixed")}
worst0 = {adv: max((slopes[adv, n][1] for n in P.ns), key=lambda s: abs(s - 0.5)) for adv in ("pure", "mixed")}
norm_all = np.concatenate([norm_c[n] for n in ns])
rows = [
    ("paper: minimax regret of pure states, L1 loss", "Theta(sqrt(nT))",
     f"commuting adversary, T={T_MAX}: R grows as n^{slope_n:.2f} (n <= {max(ns)})"),
    ("paper: minimax regret of mixed states, L1 loss", "Theta(sqrt(nT)), same as pure",
     "same records: best mixed = best pure state (binary outcomes)"),
    ("Aaronson et al. 2018: MMW regret", "O(sqrt(Tn)); ours: <= 2 sqrt(T ln N)",
     f"largest R_T / 2sqrt(T ln N) over all runs: {max_ratio[0]:.2f}"),
    ("rate in T, pure-state adversary (Pauli projectors)", "sqrt(T): slope 1/2",
     "slopes " + ", ".join(f"{slopes['pure', n][0]:.2f}" for n in P.ns) + f" (n = {', '.join(map(str, P.ns))})"),
    ("rate in T, mixed-state adversary (Pauli projectors)", "sqrt(T): slope 1/2",
     "slopes " + ", ".join(f"{slopes['mixed', n][0]:.2f}" for n in P.ns)),
    ("brief: R/sqrt(nT), commuting adversary", "0.30-0.43 (brief's prototype)",
     f"{norm_all.min():.2f}-{norm_all.max():.2f} over n <= {max(ns)}, T in {list(P.Ts)}"),
]
w = [max(len(r[i]) for r in rows) for i in range(3)]
print(f"{'setting':{w[0]}}  {'paper / prior work':{w[1]}}  ours (seed {seed}, {scale})")
for r in rows:
    print(f"{r[0]:{w[0]}}  {r[1]:{w[1]}}  {r[2]}")

# %%
SLOPE = tolerance(rel=1e-6, abs=1e-9, why="log-log fit to sums of 1e4 eigendecomposition-based losses: exact up to float rounding")
RATIO = tolerance(rel=1e-6, abs=1e-9, why="largest of sums of eigendecomposition-based losses: exact up to float rounding")
worst_ftl = {adv: max((slopes[adv, n][2] for n in P.ns), key=lambda s: abs(s - 0.5)) for adv in ("pure", "mixed")}

claims.headline(
    "pure-as-hard-as-mixed",
    "Pure and mixed n-qubit states have almost the same sequential fat-shattering dimension, so restricting "
    "the unknown state to be pure does not lower the minimax regret of online learning: both cost "
    "Theta(sqrt(nT)) under the L1 loss",
    untestable="a minimax statement (a supremum over every adversary, an infimum over every learner) and a "
               "combinatorial dimension at every scale: running one learner on a few adversaries cannot refute "
               "it. On our binary-outcome records the best pure and the best mixed state in hindsight coincide "
               "by linearity of the loss (an identity), and on the lower-bound adversary every learner's "
               "expected regret is fixed by the construction, so what the page computes is shown as the "
               "illustrations regret-under-bound, sqrt-T-pure-adversary, sqrt-T-mixed-adversary and "
               "pure-comparator-regret-grows-as-sqrt-n. The brief's comparison with real-valued labels (best mixed state "
               "by an SDP in cvxpy, which is installed and fast at n <= 3) is not run because its criterion "
               "cannot fail: with a pure target the best pure and best mixed losses nearly coincide, so the "
               "regrets against the two classes agree for every learner, the no-learning one included (found "
               "by the independent review); and the paper's exact statement, which could supply a sound "
               "criterion, was not read")
claims.headline(
    "eps-realizable",
    "The online results for full state tomography extend to the eps-realizable setting",
    untestable="not run: the paper's eps-realizable rates were not read, so there is no criterion to "
               "pre-register; the setting itself (real-valued labels, best mixed state by an SDP in cvxpy) "
               "is feasible at ci scale")
claims.headline(
    "smoothed-partial-learning",
    "The online results extend to learning the density matrix only partially, using smoothed analysis",
    untestable="not run: the paper's smoothed model and its bounds were not available to us (abstract only)")

claims.illustrate(
    "regret-under-bound",
    statement=f"MMW's regret stays under 2 sqrt(T ln N) on every adversary, n in {list(P.ns)}, T in {list(P.Ts)} "
              "and record (largest R_T / 2 sqrt(T ln N))",
    paper="O(sqrt(Tn)) regret of MMW for learning states online (Aaronson et al. 2018, the rate this paper "
          "extends to pure states); constant 2 from our matrix-Hedge derivation",
    criterion=at_most(1.0), measured=max_ratio[0], tol=RATIO,
    why="a prior-work theorem (Aaronson et al. 2018; matrix Hedge) with the constant of our own derivation, "
        "evaluated on our own implementation: it holds on every record by the proof, so it checks our code "
        "(also a unit test), not the paper. Counted as a theorem claim before issue 33, against the "
        "sign-flipped kernel, a strawman that moves towards the loss")
claims.illustrate(
    "sqrt-T-pure-adversary",
    statement=f"Against the pure-state adversary, MMW's mean regret grows like sqrt(T) for every n in {list(P.ns)} "
              "(log-log slope in T farthest from 1/2)",
    paper="Theta(sqrt(nT)) regret for pure states (abstract: same scaling as mixed)",
    criterion=between(0.35, 0.65), measured=worst["pure"], tol=SLOPE,
    why="the slope is fixed by our choice of step size: on these Born-rule records MMW's regret is about its "
        "entropy term ln N / eta = sqrt(T ln N), so eta = sqrt(ln N / T) makes it grow as sqrt(T) whatever "
        "the class; MMW with one fixed step size for every horizon has a slope far below 1/2 on the same records, "
        "and follow-the-leader has several times less regret (numbers in the Verdict) and a slope far below 1/2 (both shown), so the "
        "adversary does not force sqrt(T). Counted before issue 33, against eta = 0, which pays linear regret "
        "by construction")
claims.illustrate(
    "sqrt-T-mixed-adversary",
    statement=f"Against the mixed-state adversary, MMW's mean regret grows like sqrt(T) for every n in {list(P.ns)} "
              "(log-log slope in T farthest from 1/2)",
    paper="Theta(sqrt(nT)) regret for mixed states (Aaronson et al. 2018; abstract: same as pure)",
    criterion=between(0.35, 0.65), measured=worst["mixed"], tol=SLOPE,
    why="as sqrt-T-pure-adversary: the slope is set by MMW's step size, and fixed-step MMW and "
        "follow-the-leader show that the adversary does not force sqrt(T); the regret is also taken against the best state in hindsight, "
        "which on binary outcomes is pure for both adversaries, so pure and mixed comparators cannot differ")
claims.illustrate(
    "pure-comparator-regret-grows-as-sqrt-n",
    statement=f"On the commuting fair-coin adversary (the record of |+>^n), MMW's mean regret against the best "
              f"pure state at T = {T_MAX} grows like sqrt(n) (log-log slope over n in {list(P.ns)})",
    paper="Omega(sqrt(nT)) lower bound holds for the pure class: pure and mixed states have almost the same "
          "sequential fat-shattering dimension (abstract)",
    criterion=between(0.35, 0.65), measured=slope_n, tol=SLOPE,
    why="the classical lower-bound construction: fair coins give every learner, MMW or any other, the same "
        "expected regret sum_i E|2 O_i - k_i| / 2 ~ sqrt(nT / 2 pi) (computed exactly, K.random_label_regret_mean), "
        "and its best comparator is a basis state, pure by construction; the slope measures that closed form "
        "plus Monte Carlo noise, and the learner that never learns (eta = 0) has a slope in the window too (shown). Counted as a theorem claim before issue 33, against a one-qubit adversary "
        "that has no sqrt(n) to pay by construction")

# glue: every number the prose quotes
glue("max_ratio_mmw", float(max_ratio[0]), display=False)
glue("max_ratio_flip", float(max_ratio[1]), display=False)
for adv in ("pure", "mixed"):
    s_mmw = [slopes[adv, n][0] for n in P.ns]
    s_zero = [slopes[adv, n][1] for n in P.ns]
    s_ftl = [slopes[adv, n][2] for n in P.ns]
    s_fix = [slopes[adv, n][3] for n in P.ns]
    glue(f"slopefix_{adv}_min", float(min(s_fix)), display=False)
    glue(f"slopefix_{adv}_max", float(max(s_fix)), display=False)
    glue(f"mmw_over_ftl_{adv}_min", float(1 / max(ftl_over_mmw[adv])), display=False)
    glue(f"mmw_over_ftl_{adv}_max", float(1 / min(ftl_over_mmw[adv])), display=False)
    glue(f"slope_{adv}_min", float(min(s_mmw)), display=False)
    glue(f"slope_{adv}_max", float(max(s_mmw)), display=False)
    glue(f"slope0_{adv}_min", float(min(s_zero)), display=False)
    glue(f"slope0_{adv}_max", float(max(s_zero)), display=False)
    glue(f"slopeftl_{adv}_min", float(min(s_ftl)), display=False)
    glue(f"slopeftl_{adv}_max", float(max(s_ftl)), display=False)
    glue(f"ftl_over_mmw_{adv}_min", float(min(ftl_over_mmw[adv])), display=False)
    glue(f"ftl_over_mmw_{adv}_max", float(max(ftl_over_mmw[adv])), display=False)
    glue(f"mmw_over_bound_{adv}_min", float(min(r[1 if adv == "pure" else 2] for r in ratio_rows)), display=False)
    glue(f"mmw_over_bound_{adv}_max", float(max(r[1 if adv == "pure" else 2] for r in ratio_rows)), display=False)
glue("pm_ratio_min", float(min(r[3] for r in ratio_rows)), display=False)
glue("pm_ratio_max", float(max(r[3] for r in ratio_rows)), display=False)
glue("slope_n", float(slope_n), display=False)
glue("slope_n_single", float(slope_n_single), display=False)
glue("slope_n_zero", float(slope_n_zero), display=False)
glue("norm_min", float(norm_all.min()), display=False)
glue("norm_max", float(norm_all.max()), display=False)
glue("commuting_over_bound", float(ratios[0]["commuting"].max()), display=False)

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
# **Illustrated, not tested.** Nothing on this page is counted. The paper's result is a minimax statement:
# over every adversary and every learner, the pure class costs as much regret as the mixed class. A
# simulation of one learner on a few adversaries cannot refute that, and every check we compute turned out,
# under the evidence rubric, to be fixed by our own construction. All four checks were counted as claims before
# the page was converted to the claim model (issue 33); they are now illustrations, with the reason recorded
# beside each in the table above. Values below are from this run (seed 0 at ci scale).
#
# * *Under the bound* ({repro-status}`regret-under-bound`). The largest $R_T/(2\sqrt{T\ln N})$ over every run
#   is {glue:text}`max_ratio_mmw:.2f`; on the commuting adversary at most {glue:text}`commuting_over_bound:.2f`.
#   At $T=8000$ MMW's mean regret is {glue:text}`mmw_over_bound_pure_min:.2f`–{glue:text}`mmw_over_bound_pure_max:.2f`
#   of the bound on the pure-state adversary and {glue:text}`mmw_over_bound_mixed_min:.2f`–{glue:text}`mmw_over_bound_mixed_max:.2f`
#   on the mixed one: about half, which is the entropy term
#   $\ln N/\eta=\sqrt{T\ln N}$ alone: on these records MMW pays mostly for starting from $I/N$. This is the
#   prior work's theorem (with our constant) evaluated on our own code; the sign-flipped kernel, which reaches
#   {glue:text}`max_ratio_flip:.1f` times the bound, shows only that the code can fail, not the paper.
# * *$\sqrt T$ against pure and mixed adversaries* ({repro-status}`sqrt-T-pure-adversary`,
#   {repro-status}`sqrt-T-mixed-adversary`). MMW's log-log slopes in $T$ lie between
#   {glue:text}`slope_pure_min:.2f` and {glue:text}`slope_pure_max:.2f` on the pure-state adversary and between
#   {glue:text}`slope_mixed_min:.2f` and {glue:text}`slope_mixed_max:.2f` on the mixed one ($n=1$ to 4), and the
#   two adversaries cost MMW almost the same (pure/mixed ratio of regrets at $T=8000$ between
#   {glue:text}`pm_ratio_min:.2f` and {glue:text}`pm_ratio_max:.2f`). **But the $\sqrt T$ is ours, not the
#   adversary's:** follow-the-leader, which has no step size, pays only {glue:text}`ftl_over_mmw_pure_min:.2f` to
#   {glue:text}`ftl_over_mmw_pure_max:.2f` of MMW's regret on the pure adversary and
#   {glue:text}`ftl_over_mmw_mixed_min:.2f` to {glue:text}`ftl_over_mmw_mixed_max:.2f` on the mixed one at
#   $T=8000$, with slopes {glue:text}`slopeftl_pure_min:.2f`–{glue:text}`slopeftl_pure_max:.2f` and
#   {glue:text}`slopeftl_mixed_min:.2f`–{glue:text}`slopeftl_mixed_max:.2f` (MMW pays
#   {glue:text}`mmw_over_ftl_pure_min:.0f` to {glue:text}`mmw_over_ftl_pure_max:.0f` times FTL's regret on the pure
#   adversary, {glue:text}`mmw_over_ftl_mixed_min:.0f` to {glue:text}`mmw_over_ftl_mixed_max:.0f` on the mixed one).
#   And the same MMW with one step size for every horizon, $\eta=\sqrt{\ln N/500}$, has slopes
#   {glue:text}`slopefix_pure_min:.2f`–{glue:text}`slopefix_pure_max:.2f` (pure) and
#   {glue:text}`slopefix_mixed_min:.2f`–{glue:text}`slopefix_mixed_max:.2f` (mixed). Measurement records drawn by
#   Born's rule from a fixed state are a stochastic, easy adversary; MMW's $\sqrt T$ there is the price of its
#   step size $\eta=\sqrt{\ln N/T}$, tuned for the worst case. The mixed adversary's slopes sit above 1/2
#   at larger $n$ because its regret at $T=500$ is relatively smaller (a weaker signal per round lets the best
#   state in hindsight gain less early on): a small-$T$ transient on this grid of horizons, not a property of
#   the class, as the fixed-step slopes above also show. Had the two slope checks been kept as tests with FTL as a
#   comparator, FTL would "fail" their criterion by having less regret, which says nothing for the paper. And
#   the regret is against the best state in hindsight, which on binary outcomes is pure for both adversaries:
#   the pure-versus-mixed comparison the paper is about cannot come out differently on these records.
# * *Pure comparators cost $\sqrt n$* ({repro-status}`pure-comparator-regret-grows-as-sqrt-n`). On the commuting
#   fair-coin adversary MMW's regret against the best pure state grows as $n$ to the power
#   {glue:text}`slope_n:.2f` at $T=8000$, on the exact expectation $\approx\sqrt{nT/2\pi}$; in units of
#   $\sqrt{T\log_2N}$ it lies between {glue:text}`norm_min:.2f` and {glue:text}`norm_max:.2f` (the brief's
#   prototype range is in the table of the paper's numbers). Every learner pays the same expected regret
#   on this adversary, and its best
#   comparator is a basis state by construction: the learner that never learns ($\eta=0$, predicting 1/2 every
#   round) grows as $n$ to the power {glue:text}`slope_n_zero:.2f`, inside the same window. Measuring only qubit 0
#   removes the growth (slope {glue:text}`slope_n_single:.2f`), also by construction. This is the classical lower-bound construction in
#   miniature, not a test of the paper's extension of it.
#
# **What this says about the paper.** The page shows the two ingredients of its statement at small size: the
# lower-bound adversary's best comparator is pure and costs $\sqrt{nT/2\pi}$, and the mixed-state learner's
# upper bound applies to pure comparators unchanged. It does not test the paper's new content, the sequential
# fat-shattering dimension of the pure class at every scale $\epsilon$, nor any setting in which pure and mixed
# comparators differ (real-valued labels), and the stochastic state adversaries are easier than the worst case:
# a naive follow-the-leader learner does far better on them than the minimax-tuned MMW.
#
# ## What a skeptic would try
#
# Tried when the page was converted to the claim model (issue 33), by its converter, and then by an
# independent reviewer. Numbers are measured by this notebook (seed 0, ci scale, the same records as the checks).
#
# * **Follow-the-leader** (play the best state so far, a pure state away from ties; no regulariser, no step
#   size): regret at $T=8000$ is {glue:text}`ftl_over_mmw_pure_min:.2f`–{glue:text}`ftl_over_mmw_pure_max:.2f`
#   of MMW's on the pure adversary and {glue:text}`ftl_over_mmw_mixed_min:.2f`–{glue:text}`ftl_over_mmw_mixed_max:.2f`
#   on the mixed one; its slopes in $T$ are {glue:text}`slopeftl_pure_min:.2f`–{glue:text}`slopeftl_pure_max:.2f`
#   (pure) and {glue:text}`slopeftl_mixed_min:.2f`–{glue:text}`slopeftl_mixed_max:.2f` (mixed). The state
#   adversaries do not force $\sqrt T$ regret; this is why the two slope checks are illustrations.
# * **MMW with one fixed step size** ($\eta=\sqrt{\ln N/500}$ at every horizon instead of the horizon-tuned
#   one; the review's baseline): slopes in $T$ {glue:text}`slopefix_pure_min:.2f`–{glue:text}`slopefix_pure_max:.2f`
#   (pure adversary) and {glue:text}`slopefix_mixed_min:.2f`–{glue:text}`slopefix_mixed_max:.2f` (mixed). The
#   $\sqrt T$ of the checks follows the step-size schedule, not the adversary.
# * **The no-learning learner** ($\eta=0$, stays at $I/N$): slopes {glue:text}`slope0_pure_min:.2f` to
#   {glue:text}`slope0_pure_max:.2f` (pure adversary) and {glue:text}`slope0_mixed_min:.2f` to
#   {glue:text}`slope0_mixed_max:.2f` (mixed): linear regret, a strawman, which is why it no longer serves as a
#   control of a counted claim.
# * **Any learner on the commuting adversary**: the same expected regret by construction (the exact curve in the
#   lower-bound figure). The review's learner that never learns ($\eta=0$, predicting 1/2) has slope in $n$
#   {glue:text}`slope_n_zero:.2f`, inside the check's window $[0.35,0.65]$, as MMW's
#   {glue:text}`slope_n:.2f` is: the check cannot tell a learner from a non-learner.
# * **The brief's pure-versus-mixed check with real-valued labels** (tried by the review, not run here): the
#   best mixed state by an SDP in cvxpy is cheap at $n\le3$, but for a pure target every learner, the
#   no-learning one included, passes the brief's "differ by less than 25 %" criterion, so it cannot be a test.
#   The review also noted a direction for a later test: with a *mixed* target, the best pure state is far
#   worse than the best mixed one at $n=1$ but about as good at $n\ge2$, where an entangled pure state
#   reproduces the mixed product state's single-qubit marginals under local measurements. That is where the
#   two classes first differ and then stop differing, in the spirit of the paper; a criterion for it would
#   need the paper's statement.
# * **Not tried:** online gradient descent over density matrices and a learner restricted to pure states.
#
# Reviewed by an independent skeptic (ten seeds of the fixed-step, follow-the-leader and no-learning learners,
# and the brief's real-valued setting with cvxpy); what they tried is above.
#
# ## What the miniature cannot show
#
# * The paper's theorem itself: the sequential fat-shattering dimensions of the two classes at every scale
#   $\epsilon$, and the minimax regret, which is a supremum over all adversaries. We show one algorithm's
#   regret on three adversaries; the lower-bound adversary is only the classical construction, not the
#   paper's (unread) argument for the pure class at every scale.
# * Real-valued revealed values ($\epsilon$-realizable labels, expectation values with noise), where the loss
#   is no longer linear and the best mixed state in hindsight can beat every pure state (we have no criterion
#   from the paper for it); the smoothed-analysis and partial-learning results; the $L_2$ loss.
# * Large systems: $N\le16$ (32 at full scale), so $\ln N$ varies only by a factor of 4 (5); slopes in $n$ rest
#   on four or five sizes. Entangled measurements and states are absent (local Pauli measurements on
#   product states).
