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
# unknown state to be pure does not lower the regret: both classes cost $\Theta(\sqrt{nT})$ for $n$ qubits
# and $T$ rounds. We watch matrix multiplicative weights pay that price against pure and mixed adversaries.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np

from repro.claims import Claims, at_most, between, tolerance
from repro.papers import online_pure_vs_mixed_states as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    # about 6 s of CPU on one thread (measured): n <= 4 qubits, one record per state adversary and n,
    # 100 commuting records (the first run used two state records: 10 s, over budget)
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
# records at ci, 400 at full). Beside MMW we run two learners on the same records: **MMW with $\eta=0$**,
# which never leaves $I/N$ (the method without learning), and **sign-flipped MMW**, $\omega_t\propto
# e^{+\eta G_t}$ (a deliberately wrong kernel that moves towards the loss).
#
# **Claims, fixed before the first run** (thresholds from the brief; each with its control):
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
#   labels (noisy expectation values, where the two comparators differ and the best mixed state needs an
#   SDP) are not run; cvxpy is not in the book's environment.
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
#   took 10 s of CPU; criteria and measurements are unchanged (all four claims held in that run too, with
#   slopes 0.488 and 0.585 as the extremes of claims 2 and 3).
# * Not run: the $\epsilon$-realizable extension, smoothed analysis and partial learning, and the
#   $L_2$-loss / Rademacher link.

# %%
print(f"scale={P.scale}: n in {P.ns}, T in {P.Ts}, {P.state_records} records per state adversary and n, "
      f"{P.commuting_records} commuting records")
LEARNERS = ("MMW", "sign-flipped", "eta = 0")


def state_adversary(n, bloch_length, rng):
    """One record of local Pauli measurements on a random product state; regrets (learner, horizon)."""
    sigma = K.product_state(K.random_bloch_vectors(n, bloch_length, rng))
    E = K.local_pauli_projectors(n, rng.integers(0, n, T_MAX), rng.integers(0, 3, T_MAX), rng.choice([-1, 1], T_MAX))
    b = K.born_outcomes(E, sigma, rng)
    etas = np.array([K.mmw_step_size(int(T), 2**n) for T in TS])
    losses = K.mmw_binary_losses(E, b, np.concatenate([etas, -etas, [0.0]]))  # (2 len(TS) + 1, T)
    best = K.best_losses_in_hindsight(E, b, TS)
    R = np.empty((3, len(TS)))
    for h, T in enumerate(TS):  # learner k uses the step size of horizon T (eta = 0 is the same for all)
        R[:, h] = [losses[h, :T].sum(), losses[len(TS) + h, :T].sum(), losses[-1, :T].sum()]
    return R - best


def commuting_adversary(n, qubits, records, rng, horizons=TS, chunk=100):
    """Fair-coin records on |1><1| of the given qubit per round; regrets (learner: MMW, sign-flipped; record; horizon)."""
    D = K.z_one_projector_diagonals(n, qubits)
    out = []
    for start in range(0, records, chunk):  # chunks bound the memory at full scale
        b = (rng.random((min(chunk, records - start), T_MAX)) < 0.5).astype(float)
        best = K.best_diagonal_state_in_hindsight(D, b, horizons)
        R = np.empty((2, b.shape[0], len(horizons)))
        for h, T in enumerate(horizons):  # each horizon runs on its own prefix with its own step size
            eta = K.mmw_step_size(int(T), 2**n)
            R[:, :, h] = K.multiplicative_weights_losses(D[:T], b[:, :T], [eta, -eta]).sum(axis=-1)
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
# the horizon $T$, with the bound $2\sqrt{T\ln N}$ dashed in the same colour, and the no-learning learner
# ($\eta=0$) faint. The regret is measured against the best state in hindsight, which on these records is
# pure for both adversaries.

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
slopes = {}
for ax, adv in zip(axes, ("pure", "mixed")):
    for j, n in enumerate(P.ns):
        R = state[adv, n]
        mean = R[:, 0].mean(0)
        slopes[adv, n] = (loglog_slope(TS, mean), loglog_slope(TS, R[:, 2].mean(0)))
        ax.loglog(TS, mean, "o-", color=f"C{j}", label=f"n = {n}: slope {slopes[adv, n][0]:.2f}")
        ax.fill_between(TS, R[:, 0].min(0), R[:, 0].max(0), color=f"C{j}", alpha=0.2)
        ax.loglog(TS, K.mmw_regret_bound(TS, 2**n), "--", color=f"C{j}", lw=1)
        ax.loglog(TS, R[:, 2].mean(0), ":", color=f"C{j}", lw=1, alpha=0.6)
    ax.plot([], [], "k--", lw=1, label=r"bound $2\sqrt{T\ln N}$")
    ax.plot([], [], "k:", lw=1, label=r"$\eta=0$ (control)")
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
          f"eta=0 {slopes['pure', n][1]:.3f} / {slopes['mixed', n][1]:.3f}")

# %% [markdown]
# ### The lower-bound adversary: pure comparators cost $\sqrt n$
#
# Left: MMW's regret against the best pure state on the commuting fair-coin adversary at $T=8000$, against
# the number of qubits (mean over records with $\pm2$ standard errors), beside the exact expectation that
# *every* learner pays on it, the upper bound, and the control in which all rounds measure qubit 0. Right:
# the same regret divided by $\sqrt{T\log_2N}=\sqrt{nT}$ at every horizon; the lower-bound construction
# predicts $1/\sqrt{2\pi}\approx0.40$.

# %%
ns = np.array(P.ns)
mean_c = np.array([commuting[n][0, :, -1].mean() for n in ns])
se_c = np.array([commuting[n][0, :, -1].std(ddof=1) / np.sqrt(P.commuting_records) for n in ns])
mean_s = np.array([single[n][0, :, -1].mean() for n in ns])
se_s = np.array([single[n][0, :, -1].std(ddof=1) / np.sqrt(P.commuting_records) for n in ns])
slope_n, slope_n_single = loglog_slope(ns, mean_c), loglog_slope(ns, mean_s)
fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4.2))
ax.errorbar(ns, mean_c, 2 * se_c, fmt="o-", color="C0", capsize=3, label=f"MMW, qubit t mod n (slope {slope_n:.2f})")
ax.errorbar(ns, mean_s, 2 * se_s, fmt="s-", color="C3", capsize=3, label=f"control: qubit 0 only (slope {slope_n_single:.2f})")
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
claims.check("regret-under-bound", kind="theorem",
             statement=f"MMW's regret stays under 2 sqrt(T ln N) on every adversary, n in {list(P.ns)}, T in {list(P.Ts)} "
                       "and record (largest R_T / 2 sqrt(T ln N))",
             paper="O(sqrt(Tn)) regret of MMW for learning states online (Aaronson et al. 2018, the rate this paper "
                   "extends to pure states); constant 2 from our matrix-Hedge derivation",
             criterion=at_most(1.0), measured=max_ratio[0], control=max_ratio[1],
             control_label="sign-flipped MMW (iterate exp(+eta G): a wrong kernel moving towards the loss), same records",
             tol=RATIO)
claims.check("sqrt-T-pure-adversary",
             statement=f"Against the pure-state adversary, MMW's mean regret grows like sqrt(T) for every n in {list(P.ns)} "
                       "(log-log slope in T farthest from 1/2)",
             paper="Theta(sqrt(nT)) regret for pure states (abstract: same scaling as mixed)",
             criterion=between(0.35, 0.65), measured=worst["pure"], control=worst0["pure"],
             control_label="MMW with eta = 0 (stays at I/N, no learning), same records", tol=SLOPE)
claims.check("sqrt-T-mixed-adversary",
             statement=f"Against the mixed-state adversary, MMW's mean regret grows like sqrt(T) for every n in {list(P.ns)} "
                       "(log-log slope in T farthest from 1/2)",
             paper="Theta(sqrt(nT)) regret for mixed states (Aaronson et al. 2018; abstract: same as pure)",
             criterion=between(0.35, 0.65), measured=worst["mixed"], control=worst0["mixed"],
             control_label="MMW with eta = 0 (stays at I/N, no learning), same records", tol=SLOPE)
claims.check("pure-comparator-regret-grows-as-sqrt-n", kind="theorem",
             statement=f"On the commuting fair-coin adversary (the record of |+>^n), MMW's mean regret against the best "
                       f"pure state at T = {T_MAX} grows like sqrt(n) (log-log slope over n in {list(P.ns)})",
             paper="Omega(sqrt(nT)) lower bound holds for the pure class: pure and mixed states have almost the same "
                   "sequential fat-shattering dimension (abstract)",
             criterion=between(0.35, 0.65), measured=slope_n, control=slope_n_single,
             control_label="the same adversary measuring qubit 0 only (one direction; extra qubits cost nothing)",
             tol=SLOPE)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Reproduced, as numerical stand-ins, at this scale.** All four pre-registered claims hold in the seed-0
# ci run, each against a control that fails. That run is one draw; the table "Across seeds and scales" that
# the book adds to this page shows that every claim holds at all ten ci seeds (no claim is seed-sensitive),
# and gives the full-scale statuses ($n\le5$, 8 records per state adversary, seeds 0–2), where every claim
# holds at every seed too. The closest call across seeds is the mixed adversary's worst slope (claim 3), between 0.56 and 0.60
# over the ten ci seeds against the upper limit 0.65; the other measured values barely move (largest bound
# ratio 0.53 at every seed, pure-adversary worst slope 0.49, slope in $n$ 0.47 to 0.54).
#
# * *Under the bound (theorem, prior work).* The largest $R_T/(2\sqrt{T\ln N})$ over every run is 0.53:
#   MMW's regret sits at about half of our bound on both state adversaries, for every $n$ and $T$, and at
#   about a quarter of it on the commuting adversary. Half the bound is $\sqrt{T\ln N}$, the entropy term
#   $\ln N/\eta$ alone: on these records MMW pays mostly for starting from $I/N$. The sign-flipped kernel
#   exceeds the bound by a factor of 17 (linear regret), so the check can fail.
# * *$\sqrt T$ against pure and mixed adversaries.* The log-log slopes of the mean regret in $T$ lie between
#   0.49 and 0.50 for the pure-state adversary and between 0.49 and 0.57 for the mixed-state adversary, for
#   $n=1$ to 4; the learner that never moves from $I/N$ has slopes 0.88 to 0.99 (linear regret). The two
#   adversaries cost MMW almost the same: at $T=8000$ the pure/mixed ratio of regrets is 0.98 at every $n$.
#   The mixed adversary's slopes drift above 1/2 at larger $n$ because its regret at $T=500$ is relatively
#   smaller (a weaker signal per round lets the best state in hindsight gain less early on), which is why
#   claim 3 is the one nearest its limit; at full scale (with $n=5$) it still holds, its worst slope again
#   near the top of the ci range (see the robustness table), so a larger $n$ could push it past 0.65 with
#   this $T$ grid: the drift is a small-$T$ transient, not a change of rate, but our check cannot tell the two apart.
# * *Pure comparators cost $\sqrt n$ (stand-in for the lower bound).* On the commuting fair-coin adversary,
#   the record of the pure state $|+\rangle^{\otimes n}$, MMW's regret against the best pure state grows as
#   $n^{0.54}$ at $T=8000$, on the exact expectation $\approx\sqrt{nT/2\pi}$ that every learner pays; in units
#   of $\sqrt{T\log_2N}$ it lies between 0.36 and 0.42 (the brief's prototype: 0.30 to 0.43). Measuring only
#   qubit 0 removes the growth (slope 0.04).
#
# **What this supports.** The paper's statement is a minimax one: the worst adversary forces regret
# $\Omega(\sqrt{nT})$ even on a learner that competes only with pure states, so the upper bound proved for
# mixed states cannot be improved by assuming purity. Our runs show the two ingredients of that statement
# in miniature: the lower-bound adversary's best comparator is pure and costs $\sqrt{nT/2\pi}$, and MMW's
# regret is the same order, $\sqrt{T\ln N}$, against pure and mixed adversaries alike. They do not test the
# paper's new content (the fat-shattering dimension of the pure class at every scale $\epsilon$), which no
# simulation at this size can reach.
#
# ## What the miniature cannot show
#
# * The paper's theorem itself: the sequential fat-shattering dimensions of the two classes at every scale
#   $\epsilon$, and the minimax regret, which is a supremum over all adversaries. We show one algorithm's
#   regret on three adversaries; the lower-bound adversary is only the classical construction, not the
#   paper's (unread) argument for the pure class at every scale.
# * Real-valued revealed values ($\epsilon$-realizable labels, expectation values with noise), where the loss
#   is no longer linear, the best mixed state in hindsight can beat every pure state, and comparing the two
#   classes needs an SDP; the smoothed-analysis and partial-learning results; the $L_2$ loss.
# * Large systems: $N\le16$ (32 at full scale), so $\ln N$ varies only by a factor of 4 (5); slopes in $n$ rest
#   on four or five sizes. Entangled measurements and states are absent (local Pauli measurements on
#   product states).
