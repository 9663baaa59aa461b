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
# # Learning from outcomes only: optimism, credit assignment and an exponential price
#
# *An optimistic learner that sees only the total reward of each episode finds near-optimal policies on
# small random MDPs at a modest extra cost over per-step rewards; but so do naive explorers and a learner that
# splits the outcome equally over the steps, and a Bradley-Terry fit of preferences is matched by a plain
# linear fit. On a combination lock, outcome feedback costs exponentially many episodes by construction.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, is_true, tolerance
from repro.papers import outcome_based_online_rl as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 6 s of CPU on one thread for the runs, about 14 s for the whole execution with kernel start, imports
    # and figures (user time, measured on a loaded machine; the record's runtime_s is wall-clock and grows with
    # the load): 5 random MDPs x 1500 episodes x 10 learners, lock up to H = 8
    "ci": dict(n_mdps=5, episodes=1500, horizons=(5,), lock_H=tuple(range(2, 9)), lock_seeds=30,
               pairs=(3000,), eval_every=10),
    # a few minutes of CPU: 20 MDPs x 4000 episodes at H = 3, 5, 8; lock up to H = 10 with 100 keys each;
    # the preference fits at four sample sizes
    "full": dict(n_mdps=20, episodes=4000, horizons=(3, 5, 8), lock_H=tuple(range(2, 11)), lock_seeds=100,
                 pairs=(300, 1000, 3000, 10000), eval_every=20),
})
claims = Claims(
    "outcome-based-online-rl",
    title="Outcome-Based Online Reinforcement Learning: Algorithms and Fundamental Limits",
    authors="Fan Chen, Zeyu Jia, Alexander Rakhlin, Tengyang Xie",
    paper_url="https://arxiv.org/abs/2505.20268",
    scale=scale, seed=seed,
)
S, A, H_MAIN = 6, 3, 5      # the brief's random MDPs: 6 states, 3 actions, horizon 5
SIGMA = 0.1                 # s.d. of the noise of each step's reward (the outcome's noise is SIGMA * sqrt(H))
EPS = 0.05                  # the brief's accuracy: J(pi*) - J(pi) <= EPS * H
N_PAIRS_CLAIM = 3000        # the brief's number of preference pairs
# added when the page gained its comparators (issue 33), fixed before they were first run:
EPS_GREEDY = 0.1            # exploration rate of the epsilon-greedy baseline (the textbook default, not tuned)
LAM_PREF = 1.0              # ridge of every preference fit (the Bradley-Terry fit's, unchanged)
# added after the independent review, with the values its reviewer fixed before running them:
PRIOR_MID = 0.5             # ridge prior at the middle of the reward range [0, 1] (greedy without a zero start)
N_COMMIT = 100              # uniformly random episodes of explore-then-commit

# %% [markdown]
# ## The claim
#
# In *outcome-based* reinforcement learning the agent plays a whole episode $\tau=(s_1,a_1,\dots,s_H,a_H)$
# and then receives one noisy number $r$ with $E[r\mid\tau]=R(\tau)=\sum_h R_h(s_h,a_h)$: a grade for the
# whole attempt, as when a language model's answer is scored at the end or a treatment's result is
# known after the last dose. It does not learn which of its $H$ decisions earned the reward. The paper
# (a theory paper, no experiments, no code) proves four things about this setting, which its abstract
# states without constants:
#
# 1. an optimistic algorithm that fits the reward from outcomes with a function class and explores by
#    optimism finds an $\varepsilon$-optimal policy from $\widetilde O(C_{\rm cov}H^3/\varepsilon^2)$ episodes,
#    $C_{\rm cov}$ being the coverability of the MDP: polynomial, as with per-step rewards;
# 2. there are MDPs on which outcome feedback is *exponentially* more expensive than per-step feedback, and
#    this cannot be avoided;
# 3. deterministic MDPs admit a simpler algorithm that needs no completeness assumption;
# 4. preference (pairwise comparison) feedback allows the same statistical efficiency as outcomes.
#
# We could read only the abstract and summaries: not the algorithms' confidence sets, not the theorems'
# constants, not the lower-bound construction. Everything below is our tabular stand-in for these
# statements, built from the reproduction brief.
#
# ## The method
#
# **Tabular outcome regression.** With $\phi(\tau)\in\{0,1\}^{HSA}$ the indicator of the visited
# (step, state, action) cells, $R(\tau)=\langle\theta,\phi(\tau)\rangle$ with $\theta=R$ flattened. The learner
# fits $\theta$ by ridge regression of the outcomes on the features,
# $\hat\theta_k=\Sigma_k^{-1}\sum_{j<k}\phi(\tau_j)y_j$, $\Sigma_k=\lambda I+\sum_{j<k}\phi(\tau_j)\phi(\tau_j)^\top$.
# Outcomes cannot separate a reward from the same reward with $c_h$ added at every cell of step $h$ when
# $\sum_h c_h=0$: every trajectory, hence every policy, has the same return. We fix this *gauge* by giving the
# ridge prior infinite weight along it (`K.gauge_projector`); without this the variance along the gauge
# never shrinks, and it inflates the optimism of every visited cell until unvisited actions are never tried
# (our first version stalled this way on a 2-state test MDP).
#
# **Optimism.** The confidence width of a trajectory's predicted outcome is
# $\beta_k\|\phi(\tau)\|_{\Sigma_k^{-1}}\le\sum_h\beta_k\sqrt{[\Sigma_k^{-1}]_{h s_h a_h}}$ (triangle
# inequality), so a per-cell bonus $b_{hsa}=\beta_k\sqrt{[\Sigma_k^{-1}]_{hsa}}$ gives an upper bound that
# dynamic programming can maximise: the learner plays the policy that maximises
# $\sum_h(\hat\theta+b)_{h s_h a_h}$ in expectation (backward induction, values clipped at the largest
# achievable return), with $\beta_k=\nu\sqrt{2\ln(1+k)}+\sqrt\lambda$, $\nu$ the noise s.d. of one
# observation. Transitions are known, so the only thing learned is the reward. The learner's *output* after
# episode $k$ is the greedy policy of $\hat\theta_k$ (planning without bonus).
#
# **The per-step learner** (the reference of the price test) runs the same rule on the $H$ observations
# $(e_{h s_h a_h}, r_h)$ of each episode: $\Sigma_k$ becomes diagonal, $\lambda+n_k(h,s,a)$, and $\nu=\sigma$
# instead of $\sigma\sqrt H$ (the outcome is the sum of the per-step rewards, so per-step feedback carries
# strictly more information).
#
# **Comparators** (added when the page gained its comparators; same MDPs, same episodes, same output rule):
#
# * *without optimism* (**the ablation of optimism**): the same regression, playing the greedy policy of
#   $\hat\theta$. Unvisited cells keep the ridge prior's estimate $0$, below every reward in $[0,1]$, so it stops
#   trying new actions early. That failure comes from the zero start, not from outcome feedback (the same greedy
#   rule with per-step rewards fails as well, see "What a skeptic would try"), so this ablation is a weak
#   comparator; the two learners with a mid-range prior below are the fairer versions of "no bonus";
# * *without outcome regression* (**the ablation of the credit assignment**): every step of an episode is
#   credited with the same share $y/H$ of its outcome, and the per-step learner's rule (optimism included)
#   runs on these shares, noise s.d. $\sigma/\sqrt H$. This is the simplest credit assignment, and it is biased:
#   a cell's estimate is the mean outcome of the episodes through it, divided by $H$;
# * *$\varepsilon$-greedy* (**naive baseline**): the regression's greedy policy with each action replaced by a
#   uniformly random one with probability $\varepsilon=0.1$ (the textbook rate, fixed before the first run);
# * *uniform exploration* (**naive baseline**): a uniformly random action at every step, the regression fitted
#   on what it sees, and the greedy policy of that fit as the output. It pays the random policy's regret in every
#   episode by construction, so it is a comparator of the output test only;
# * *greedy* and *$\varepsilon$-greedy with the prior at mid-range* (**naive baselines**, added after the
#   independent review): the same two learners with the ridge prior of every cell at $0.5$, the middle of the
#   reward range, instead of $0$, so that untried cells are neither favoured nor penalised (the same as running
#   them on $ $: every policy's return moves by $0.5H$, so no gap changes); no bonus;
# * *explore-then-commit* (**naive baseline**, added after the review): uniformly random actions for the first
#   100 episodes (the reviewer's choice, fixed before any run), then the greedy policy of the regression.
#
# **The separating example (ours).** A combination lock on the binary tree of action sequences
# ($A=2$, state = the actions so far, deterministic). The reward class holds one reward per key
# $a^*\in\{0,1\}^H$: with $m$ the number of leading actions that match the key, the step rewards are $1/H$ on
# each of the first $m$ steps, $-m/H$ at the first wrong step, and $0$ after it. The sum is 1 if the lock
# opens and 0 otherwise, so every policy has the same return under both feedbacks; per-step rewards show
# *where* the first mistake was, the outcome only whether there was one. The learner is the
# deterministic-MDP form of optimism: keep the keys consistent with everything observed, play the key of a
# consistent hypothesis (all promise return 1, so one is drawn at random), eliminate. With per-step
# feedback every failed episode reveals the key's next symbol at least, so at most $H+1$ episodes are
# needed; with outcomes a failed episode removes exactly one of the $2^H$ keys, whatever the learner plays, so
# the key's position in a random order, $(2^H+1)/2$ episodes on average, is what the learner pays. Both numbers
# follow from the construction: the lock *illustrates* a separation, it cannot test one.
#
# **Preference feedback.** Pairs of episodes from the uniformly random policy, labelled
# $y\sim\mathrm{Bernoulli}(\sigma(R(\tau)-R(\tau')))$ (Bradley–Terry), fitted by ridge-penalised logistic
# regression on $\phi(\tau)-\phi(\tau')$ (`K.preference_logistic`, Newton's method, checked against
# scikit-learn in the unit tests). Preferences see neither per-step shifts nor a common constant, so we
# compare rewards after removing each step's mean (`K.gauge_fix`). Comparators on the same pairs: the same
# ridge *without the logistic link*, a linear regression of $2y-1$ on $\phi(\tau)-\phi(\tau')$
# (`K.preference_linear`, **the ablation of the Bradley–Terry likelihood**), and each cell's *win rate*, the
# share of the comparisons it took part in that its trajectory won (`K.preference_win_rate`, **naive
# baseline**, no model at all).
#
# ## The experiment
#
# * **Random MDPs** (the brief's): $S=6$, $A=3$, $H=5$, transitions Dirichlet(1), mean rewards uniform on
#   $[0,1]$, Gaussian noise of s.d. $\sigma=0.1$ on each step's reward, $\lambda=1$. Five MDPs at ci scale,
#   1500 episodes per learner; twenty MDPs and 4000 episodes at full scale, where $H=3$ and $H=8$ are run too.
#   All learners run on the same MDPs. Measured: the exact gap $J(\pi^*)-J(\pi_k)$ of each played policy
#   (regret), and every 10 episodes (20 at full scale) the gap of the learner's output.
# * **Lock**: $H=2,\dots,8$ at ci scale (30 random keys each), up to $H=10$ with 100 keys at full scale;
#   measured: the episode at which the key is first played.
# * **Preferences**: 3000 pairs on one random MDP with $H=5$ (full scale adds 300, 1000 and 10000).
#
# **Claims.** Five checks were fixed before the first run, each beside a single control. Only two thresholds
# come from the brief: $0.05H$ on all five MDPs (its C1) and a correlation of at least $0.9$ after 3000 pairs
# (its C3). The others are this page's own: the partial level of 60% of the MDPs, the regret ratio "at most
# $H$" (the brief's C2 asks instead that the ratio be at least 1 at every $H$ and larger at $H=8$ than at
# $H=3$), the lock slope of at least $0.7$ and the bound $H+1$. When the book asked every counted test for its
# ablation and the strongest naive baseline (issue 33), three tests gained the comparators above; two of them
# kept their measurement, setting and criterion and stay pre-registered, the third was also re-encoded and is
# post hoc (below). The single controls were dropped, because each failed by construction (a fit on shuffled
# labels, the lock built to be exponential, the other feedback of a construction); two checks became an
# illustration and an implementation check.
#
# 1. *Outcome learning is sample-efficient* (`outcome-learns-random-mdps`, brief C1): the outcome learner's
#    output is within $0.05H$ of optimal on every random MDP at the end of the run (partial: on 60% of them).
#    **Post hoc.** The page's first version recorded the share of MDPs with a tolerance of one MDP. A share of 1
#    against its threshold of 1 lies inside that tolerance, so it was "at the edge" at every seed. After those
#    runs the share was re-encoded as an exact count, which can pass. The criterion is equivalent, but the
#    tolerance, which sets the band of "at the edge", changed once the result was known, so the test counts only
#    after it is confirmed on unseen seeds (10–19). The exact tolerance rests on the margin: at this seed the
#    worst final gap of the method over the MDPs is {glue:text}`worstfinal_opt:.4f` $H$, against the target
#    $0.05H$.
# 2. *The price of outcomes is polynomial on random MDPs* (`outcome-price-polynomial`): cumulative regret of
#    the outcome learner over that of the per-step learner is at most $H$ (our threshold, not the brief's: a
#    polynomial factor; the paper's rate is $H^3/\varepsilon^2$ against the $H^2/\varepsilon^2$-type rates known
#    for per-step rewards, our reading). Comparators: the same ratio for the learners without optimism, without
#    regression, $\varepsilon$-greedy, and (added after the review) greedy and $\varepsilon$-greedy with a
#    mid-range prior and explore-then-commit.
# 3. *Preferences identify the reward* (`preference-recovers-reward`, brief C3): after 3000 pairs the
#    gauge-fixed fitted reward has Pearson correlation $\ge0.9$ with the gauge-fixed truth.
# 4. *Exponential separation on the lock* (`lock-separation-exponential`, now an **illustration**): the
#    least-squares slope of $\log_2$(mean episodes to open) against $H$ is at least 0.7 with outcome feedback.
#    The mean is $(2^H+1)/2$ for any learner by the construction above, so the slope is fixed up to Monte
#    Carlo noise.
# 5. *Per-step feedback opens the lock in at most $H+1$ episodes* (`lock-per-step-at-most-h-plus-one`, now an
#    **implementation check**): our learner against our own proof, also a unit test.
#
# **Deviations from the paper**
#
# * The learners are our tabular instantiation (ridge outcome regression, per-cell elliptical bonus by the
#   triangle inequality, known transitions), not the paper's Algorithm 1 with general function classes and
#   its confidence sets; the paper's constants are unknown to us. Our $\beta_k$ omits the $\sqrt d$ factor of
#   the self-normalised bound (that choice makes every learner explore for far longer than our budget).
# * The output is the greedy policy of the current estimate; PAC guarantees of optimistic algorithms are
#   often stated for the played policies (or a mixture of them), which our regret test measures instead.
# * Transitions are known to every learner, so that the experiment isolates credit assignment; the kernels
#   also support estimated transitions with a count bonus (unit-tested, not used on this page).
# * Design choices made **after a first trial run** in which no learner converged within the budget, before
#   any claim was evaluated: the reward noise was lowered from $\sigma=0.5$ to $0.1$, the ridge-bias term
#   $\sqrt\lambda$ was added to $\beta_k$ (without it unvisited actions looked worse than visited ones), and
#   the gauge was fixed in the outcome regression (see the method). Thresholds were not touched. The lower
#   noise, together with transitions known to every learner, is also part of why the naive learners pass: it
#   made the miniature easy.
# * The separating MDP is our combination lock; the paper's lower-bound construction was not available.
#   Our lock has exponential coverability ($2^H$ leaves), so it shows an information gap between the two
#   feedbacks for the same learner and reward class, not the paper's statement that the gap persists for
#   MDPs of small coverability. Lock rewards are noise-free.
# * "Deterministic MDP" algorithm: our lock learner (eliminate inconsistent hypotheses, play an optimistic
#   consistent one) is in the spirit of the paper's simplified algorithm; the paper's version was not read.
# * Preference feedback is tested offline (pairs from the uniformly random policy), not with the paper's
#   online preference algorithm.
# * Budget: 1500 episodes at ci scale (the brief allows 4000, used at full scale); five MDPs at ci, twenty at
#   full scale. The brief's full-scale slope of episodes against $1/\varepsilon$ is not measured (see "What the
#   miniature cannot show").
# * No official code exists (the paper says so), so there is no golden file against it and no official
#   setting to run as a second configuration.

# %%
rng_mdp = np.random.default_rng([seed, 1])
LEARNERS = {  # name: keyword arguments of K.run_outcome_rl
    "outcome, optimistic": dict(feedback="outcome"),
    "per-step, optimistic": dict(feedback="per_step"),
    "outcome, greedy (no optimism)": dict(feedback="outcome", explore="greedy"),
    "outcome, uniform credit (no regression)": dict(feedback="outcome", credit="uniform"),
    "outcome, epsilon-greedy": dict(feedback="outcome", explore="eps_greedy", eps=EPS_GREEDY),
    "outcome, uniform exploration": dict(feedback="outcome", explore="uniform"),
    # added after the independent review:
    "outcome, greedy, prior 0.5": dict(feedback="outcome", explore="greedy", prior=PRIOR_MID),
    "outcome, epsilon-greedy, prior 0.5": dict(feedback="outcome", explore="eps_greedy", eps=EPS_GREEDY,
                                               prior=PRIOR_MID),
    "outcome, explore-then-commit": dict(feedback="outcome", explore="commit", n_explore=N_COMMIT),
    "per-step, greedy (no optimism)": dict(feedback="per_step", explore="greedy"),
}
KEY = dict(zip(LEARNERS, ("opt", "ps", "greedy", "ucred", "epsg", "unif", "greedymid", "epsgmid", "etc",
                          "psgreedy")))  # glue keys
runs = {}
for H in progress(P.horizons, desc="random MDPs"):
    mdps = K.make_tabular_mdps(P.n_mdps, S, A, H, rng_mdp)
    runs[H] = {name: K.run_outcome_rl(mdps, P.episodes, seed=seed, sigma=SIGMA, eval_every=P.eval_every, **kw)
               for name, kw in LEARNERS.items()}
main = runs[H_MAIN]
print(f"{P.n_mdps} random MDPs (S={S}, A={A}), horizons {P.horizons}, {P.episodes} episodes per learner")

# %% [markdown]
# ## Results
#
# ### Learning curves on random MDPs
#
# Left: the gap of the policy played in each episode, as a fraction of $H$ (running mean over 50
# episodes), so the area under a curve is the regret. Right: the gap of each learner's output (the greedy
# policy of its current reward estimate), every 10 episodes (20 at full scale), with the brief's target $0.05H$.
# Lines: mean over the MDPs; bands: smallest to largest MDP. At this seed, the outcome learner's output is
# within $0.05H$ on {glue:text}`ok_opt` of {glue:text}`n_mdps` MDPs at the end, and so is the output of the
# learner without regression ({glue:text}`ok_ucred`), of $\varepsilon$-greedy ({glue:text}`ok_epsg`) and of
# uniform exploration ({glue:text}`ok_unif`); the learner without optimism gets there on {glue:text}`ok_greedy`,
# but with its prior at mid-range on {glue:text}`ok_greedymid`, and explore-then-commit on {glue:text}`ok_etc`.

# %%
def band(ax, x, Y, label, color, ls="-"):
    ax.plot(x, Y.mean(0), color=color, label=label, ls=ls)
    ax.fill_between(x, Y.min(0), Y.max(0), color=color, alpha=0.15, lw=0)


COLORS = dict(zip(LEARNERS, ("C0", "C1", "C7", "C2", "C4", "C3", "C5", "C6", "C8", "C9")))
STYLE = dict(zip(LEARNERS, ("-", "-", "-", "--", "--", ":", "-.", "-.", ":", "-")))
w = 50
fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.2))
for name, out in main.items():
    g = out["gap"] / H_MAIN
    sm = np.apply_along_axis(lambda v: np.convolve(v, np.ones(w) / w, mode="valid"), 1, g)
    band(a, np.arange(w, P.episodes + 1), sm, name, COLORS[name], STYLE[name])
    band(b, out["eval_at"], out["eval_gap"] / H_MAIN, name, COLORS[name], STYLE[name])
b.axhline(EPS, color="k", ls="--", lw=1, label=r"target $0.05H$")
a.set(xlabel="episode", ylabel=r"gap of played policy / $H$", title=f"Played policies (H = {H_MAIN}, {P.n_mdps} MDPs)",
      xscale="log")
b.set(xlabel="episode", ylabel=r"gap of output policy / $H$", title="Output (greedy) policies", xscale="log")
a.legend(fontsize=7)
b.legend(fontsize=7)
plt.show()

# %% [markdown]
# Cumulative regret and the number of episodes each learner's output needs to stay within $\varepsilon H$, for
# three accuracies. At this seed the outcome learner's cumulative regret is {glue:text}`reg_opt:.0f` (in units of
# $H$), the per-step learner's {glue:text}`reg_ps:.0f`, the learner without regression's {glue:text}`reg_ucred:.0f`,
# $\varepsilon$-greedy's {glue:text}`reg_epsg:.0f`, the learner without optimism's {glue:text}`reg_greedy:.0f`
# and uniform exploration's {glue:text}`reg_unif:.0f`; with a mid-range prior, greedy's is {glue:text}`reg_greedymid:.0f`
# and $\varepsilon$-greedy's {glue:text}`reg_epsgmid:.0f`, and explore-then-commit's {glue:text}`reg_etc:.0f`. On the
# median MDP the outcome learner's output stays within
# $0.05H$ from episode {glue:text}`ep05_opt:.0f` on, the per-step learner's from {glue:text}`ep05_ps:.0f`,
# uniform exploration's from {glue:text}`ep05_unif:.0f`.

# %%
def episodes_to(eval_at, eval_gap, tol):
    """First checkpoint after which the output gap stays <= tol (inf if never)."""
    ok = eval_gap <= tol
    stays = np.flip(np.cumprod(np.flip(ok, 1), 1), 1).astype(bool)
    return np.where(stays.any(1), eval_at[stays.argmax(1)], np.inf)


print("cumulative regret / H after the run (mean over MDPs, [min, max]); median episodes until the output"
      " stays within eps*H")
for H, rr in runs.items():
    for name, out in rr.items():
        reg = out["gap"].sum(1) / H
        e = [np.median(episodes_to(out["eval_at"], out["eval_gap"], f * H)) for f in (0.2, 0.1, 0.05)]
        print(f"  H={H} {name:40s} regret/H {reg.mean():7.1f} [{reg.min():6.1f}, {reg.max():6.1f}]   "
              f"episodes to eps=0.2/0.1/0.05: {e[0]:g} / {e[1]:g} / {e[2]:g}")

# %% [markdown]
# ### The combination lock (an illustration)
#
# Episodes until the key is first played, against $H$ (log scale). The dashed line is the outcome
# learner's expectation $(2^H+1)/2$ (a uniformly random position among the $2^H$ keys); the dotted line the
# per-step learner's guarantee $H+1$. Error bars: $\pm$ one standard error over the keys; crosses: the
# worst key. The outcome learner's log2-slope is {glue:text}`slope_outcome:.2f` and the per-step learner's
# {glue:text}`slope_per_step:.2f`; both curves are what the construction predicts.

# %%
lock = {fb: np.array([[K.run_lock(H, 2, fb, np.random.default_rng([seed, 2, H, i])) for i in range(P.lock_seeds)]
                      for H in progress(P.lock_H, desc=f"lock, {fb}")])
        for fb in K.FEEDBACKS}
Hs = np.array(P.lock_H)
fig, ax = plt.subplots(figsize=(6, 4))
for fb, c in zip(K.FEEDBACKS, ("C0", "C1")):
    E = lock[fb]
    ax.errorbar(Hs, E.mean(1), yerr=E.std(1, ddof=1) / np.sqrt(P.lock_seeds), color=c, marker="o", capsize=3,
                label=f"{fb.replace('_', '-')} feedback (mean over {P.lock_seeds} keys)")
    ax.plot(Hs, E.max(1), "x", color=c)
ax.plot(Hs, (2.0**Hs + 1) / 2, "k--", lw=1, label=r"$(2^H+1)/2$")
ax.plot(Hs, Hs + 1, "k:", lw=1, label=r"$H+1$")
ax.set(yscale="log", xlabel="horizon H (steps)", ylabel="episodes until the lock opens",
       title="Outcome vs per-step feedback on the combination lock")
ax.legend(fontsize=8)
plt.show()


def log2_slope(Hs, E):
    return float(np.polyfit(Hs, np.log2(E.mean(1)), 1)[0])


slope = {fb: log2_slope(Hs, lock[fb]) for fb in K.FEEDBACKS}
worst = {fb: float((lock[fb] / (Hs[:, None] + 1)).max()) for fb in K.FEEDBACKS}
slope_theory = float(np.polyfit(Hs, np.log2((2.0**Hs + 1) / 2), 1)[0])
print("log2 slope of mean episodes against H:", {k: round(v, 3) for k, v in slope.items()},
      f"(the expectation (2^H+1)/2: {slope_theory:.3f})")
print("largest episodes/(H+1):", {k: round(v, 2) for k, v in worst.items()})

# %% [markdown]
# ### Preference feedback
#
# Left: the gauge-fixed reward fitted from 3000 preference pairs against the truth (each dot one
# (step, state, action) cell), by the Bradley–Terry fit, by the same ridge without the logistic link and by
# the cells' win rates (scaled to the truth's spread for display: only the correlation is measured). At this
# seed the correlations with the truth are {glue:text}`corr_bt:.3f`, {glue:text}`corr_lin:.3f` and
# {glue:text}`corr_wr:.3f`; a fit on labels shuffled across pairs reaches {glue:text}`corr_shuf:.2f`, and a ridge
# regression of noisy outcomes of the first episode of each pair (outcome feedback from as many episodes)
# {glue:text}`corr_outcome:.3f`. At full scale, right: the correlations against the number of pairs.

# %%
pref_mdp = K.make_tabular_mdps(1, S, A, H_MAIN, np.random.default_rng([seed, 3]))
rng_p = np.random.default_rng([seed, 4])
truth = K.gauge_fix(pref_mdp.R.reshape(-1), S, A, H_MAIN)
n_max = max(P.pairs)
Mrep = K.TabularMDPs(*(np.broadcast_to(x, (2 * n_max, *x.shape[1:])) for x in (pref_mdp.P, pref_mdp.R, pref_mdp.rho)))
pi_rand = rng_p.integers(0, A, size=(2 * n_max, H_MAIN, S))  # a fresh random policy per episode = uniform actions
st, ac, _ = K.rollout(Mrep, pi_rand, 0.0, rng_p)
Phi = K.trajectory_features(st, ac, S, A)
dPhi = Phi[:n_max] - Phi[n_max:]
p_pref = 1 / (1 + np.exp(-(dPhi @ pref_mdp.R.reshape(-1))))
y_all = (rng_p.random(n_max) < p_pref).astype(float)
y_shuf = rng_p.permutation(y_all)
# outcome feedback from the first episode of each pair (noise s.d. SIGMA * sqrt(H)), for scale; drawn after
# everything above, so that the preference data are those of the page's first version
y_out = Phi[:n_max] @ pref_mdp.R.reshape(-1) + SIGMA * np.sqrt(H_MAIN) * rng_p.standard_normal(n_max)
PREF_FITS = {
    "Bradley-Terry": lambda n, y: K.preference_logistic(dPhi[:n], y[:n], lam=LAM_PREF),
    "linear, no link": lambda n, y: K.preference_linear(dPhi[:n], y[:n], lam=LAM_PREF),
    "win rate": lambda n, y: K.preference_win_rate(Phi[:n], Phi[n_max:n_max + n], y[:n]),
}
corr, fits = {}, {}
for n in P.pairs:
    for name, fit in PREF_FITS.items():
        fits[n, name] = K.gauge_fix(fit(n, y_all), S, A, H_MAIN)
        corr[n, name] = float(np.corrcoef(fits[n, name], truth)[0, 1])
    fits[n, "shuffled"] = K.gauge_fix(PREF_FITS["Bradley-Terry"](n, y_shuf), S, A, H_MAIN)
    corr[n, "shuffled"] = float(np.corrcoef(fits[n, "shuffled"], truth)[0, 1])
    th_out = K.outcome_ridge(Phi[:n], y_out[:n], lam=LAM_PREF)[0]
    corr[n, "outcomes"] = float(np.corrcoef(K.gauge_fix(th_out, S, A, H_MAIN), truth)[0, 1])
# added after the review: outcomes of a tenth as many episodes as the test's pairs (the same episodes' first tenth)
N_TENTH = N_PAIRS_CLAIM // 10
th_tenth = K.outcome_ridge(Phi[:N_TENTH], y_out[:N_TENTH], lam=LAM_PREF)[0]
corr_outcome_tenth = float(np.corrcoef(K.gauge_fix(th_tenth, S, A, H_MAIN), truth)[0, 1])
PCOL = {"Bradley-Terry": "C0", "linear, no link": "C2", "win rate": "C4", "shuffled": "C7", "outcomes": "C1"}
wide = len(P.pairs) > 1
fig, axes = plt.subplots(1, 2 if wide else 1, figsize=(11 if wide else 5.5, 4), squeeze=False)
ax = axes[0, 0]
for name in ("Bradley-Terry", "linear, no link", "win rate"):
    f = fits[N_PAIRS_CLAIM, name]
    ax.scatter(truth, f * truth.std() / f.std(), s=10, color=PCOL[name], alpha=0.7,
               label=f"{name} (r = {corr[N_PAIRS_CLAIM, name]:.3f})")
lim = np.abs(truth).max() * 1.1
ax.plot([-lim, lim], [-lim, lim], "k--", lw=1)
ax.set(xlabel="true reward, per-step mean removed", ylabel="fitted reward, per-step mean removed (rescaled)",
       title=f"Three fits of {N_PAIRS_CLAIM} preference pairs")
ax.legend(fontsize=8)
if wide:
    for name, c in PCOL.items():
        axes[0, 1].plot(P.pairs, [corr[n, name] for n in P.pairs], "o-", color=c,
                        label=name if name != "outcomes" else "ridge on outcomes (as many episodes)")
    axes[0, 1].axhline(0.9, color="k", ls="--", lw=1, label="threshold 0.9")
    axes[0, 1].set(xscale="log", xlabel="preference pairs", ylabel="Pearson correlation with truth",
                   title="Reward recovery against the number of pairs")
    axes[0, 1].legend(fontsize=8)
plt.show()

# %% [markdown]
# ### The paper's numbers beside ours
#
# The paper reports rates, not numbers. The table sets each statement of its abstract beside what we
# measure on our stand-in.

# %%
reg = {name: out["gap"].sum(1) / H_MAIN for name, out in main.items()}
ratio = {name: float(reg[name].mean() / reg["per-step, optimistic"].mean()) for name in LEARNERS}
n_ok = {name: int(np.sum(out["final_gap"] <= EPS * H_MAIN)) for name, out in main.items()}
Hmax = int(Hs[-1])
ratio_lock = float((lock["outcome"][-1].mean() - 1) / (lock["per_step"][-1].mean() - 1))
rows = [
    ("sample complexity with outcomes", r"Õ(C_cov H^3/eps^2): polynomial",
     f"H={H_MAIN}: output within 0.05H on {n_ok['outcome, optimistic']} of {P.n_mdps} MDPs after {P.episodes} "
     "episodes"),
    ("outcome vs per-step, random MDPs", "polynomial price (upper bound)",
     f"regret ratio {ratio['outcome, optimistic']:.2f} at H={H_MAIN}"),
    ("exponential separation", "unavoidable for some MDPs",
     f"lock: log2-slope {slope['outcome']:.2f} (outcome) vs {slope['per_step']:.2f} (per-step); "
     f"regret ratio {ratio_lock:.0f} at H={Hmax}"),
    ("preference feedback", "same efficiency as outcomes",
     f"reward correlation {corr[N_PAIRS_CLAIM, 'Bradley-Terry']:.3f} after {N_PAIRS_CLAIM} pairs; outcome ridge "
     f"{corr_outcome_tenth:.3f} after {N_TENTH} episodes (identifiability only, efficiency not tested)"),
]
print(f"{'statement':36s} {'paper (abstract)':36s} ours (seed {seed}, {scale} scale)")
for r in rows:
    print(f"{r[0]:36s} {r[1]:36s} {r[2]}")

# %%
RATIO = tolerance(rel=0.25, why="ratio of regrets of learning runs (argmax near-ties may move under other float kernels)")
PREF = tolerance(rel=1e-4, why="Newton fit of a logistic regression (solver end point); the other fits are "
                 "linear solves and counts")
PAPER_RATE = "Õ(C_cov H^3 / eps^2) episodes with outcome feedback (abstract); no numbers (theory paper)"
OPT, PS, GREEDY, UCRED, EPSG, UNIF, GREEDYMID, EPSGMID, ETC, PSGREEDY = LEARNERS
LABEL = {
    GREEDY: "the same outcome regression without optimism: the greedy policy of the estimate",
    UCRED: "the same optimistic learner without outcome regression: each step credited with outcome / H",
    EPSG: f"the outcome regression played epsilon-greedily (epsilon = {EPS_GREEDY}, textbook rate, no bonus)",
    UNIF: "uniformly random actions, the outcome regression fitted on them, its greedy policy as the output",
    GREEDYMID: f"the same outcome regression without optimism, its ridge prior at mid-range ({PRIOR_MID}) instead "
               "of 0: the greedy policy of the estimate",
    EPSGMID: f"the outcome regression with its prior at mid-range ({PRIOR_MID}), played epsilon-greedily "
             f"(epsilon = {EPS_GREEDY})",
    ETC: f"explore-then-commit: uniformly random actions for {N_COMMIT} episodes, then the greedy policy of the "
         "outcome regression",
}
COUNT_EXACT = tolerance(why="a count of MDPs, exact: the final gaps behind it sit far below the 0.05 H target "
                        "(the worst is shown on the page), so no near-tie can move an MDP across it")
COUNT_POST_HOC = ("re-encoded after the first runs from a share with a one-MDP tolerance (at the edge at every "
                  "seed) to an exact count")

claims.headline(
    "sample-efficient-outcomes",
    "With outcome feedback only and general function approximation, an optimistic algorithm finds an "
    "eps-optimal policy from O~(C_cov H^3 / eps^2) episodes (C_cov the coverability): polynomial, as with "
    "per-step rewards, and in large state spaces",
    tests=["outcome-learns-random-mdps", "outcome-price-polynomial"])
claims.headline(
    "exponential-separation",
    "For some MDPs, outcome feedback is unavoidably exponentially more expensive than per-step rewards",
    untestable="a lower bound over every learner: simulating one learner cannot refute it, and on our combination "
               "lock any learner needs (2^H + 1) / 2 episodes on average with outcomes by construction (one key "
               "eliminated per failed episode), so the lock is shown as the illustration "
               "lock-separation-exponential; the paper's construction, with small coverability, was not available")
claims.headline(
    "deterministic-no-completeness",
    "For deterministic MDPs the completeness assumption can be dropped, with a much simpler algorithm",
    untestable="our tabular reward class is complete, so there is no assumption to drop; the paper's simplified "
               "algorithm was not read (our lock learner only echoes it)")
claims.headline(
    "preference-feedback",
    "With preference (pairwise comparison) feedback the same statistical efficiency can be reached as with "
    "outcomes. Tested here: only identifiability (preferences recover the reward at one sample size); the "
    "efficiency, a statement about rates, is not tested",
    tests=["preference-recovers-reward"])

claims.test(
    "outcome-learns-random-mdps",
    statement=f"Number of the {P.n_mdps} random MDPs (S={S}, A={A}, H={H_MAIN}) on which the outcome-only "
              f"optimistic learner's output is within {EPS}H of optimal after {P.episodes} episodes (all of them; "
              "partial: 60%)",
    paper=PAPER_RATE, criterion=at_least(P.n_mdps, partial=0.6 * P.n_mdps), measured=n_ok[OPT],
    ablation=Comparator(LABEL[GREEDY], n_ok[GREEDY], ingredient="optimism (the exploration bonus)"),
    baselines=[Comparator(LABEL[UCRED], n_ok[UCRED]), Comparator(LABEL[EPSG], n_ok[EPSG]),
               Comparator(LABEL[UNIF], n_ok[UNIF]), Comparator(LABEL[GREEDYMID], n_ok[GREEDYMID]),
               Comparator(LABEL[EPSGMID], n_ok[EPSGMID]), Comparator(LABEL[ETC], n_ok[ETC])],
    tol=COUNT_EXACT, post_hoc=COUNT_POST_HOC)
claims.test(
    "outcome-price-polynomial",
    statement=f"Cumulative regret of the outcome learner over that of the per-step learner on random MDPs "
              f"(H={H_MAIN}, mean over the MDPs) is at most H = {H_MAIN}",
    paper="outcome feedback is sample-efficient (polynomial), like per-step rewards (abstract)",
    criterion=at_most(float(H_MAIN)), measured=ratio[OPT],
    ablation=Comparator(LABEL[UCRED], ratio[UCRED],
                        ingredient="credit assignment by regressing outcomes on trajectory features"),
    baselines=[Comparator(LABEL[EPSG], ratio[EPSG]), Comparator(LABEL[GREEDY], ratio[GREEDY]),
               Comparator(LABEL[GREEDYMID], ratio[GREEDYMID]), Comparator(LABEL[EPSGMID], ratio[EPSGMID]),
               Comparator(LABEL[ETC], ratio[ETC])],
    tol=RATIO)
claims.test(
    "preference-recovers-reward",
    statement=f"Pearson correlation of the gauge-fixed Bradley-Terry reward fitted from {N_PAIRS_CLAIM} "
              f"preference pairs with the gauge-fixed truth (H={H_MAIN})",
    paper="preference feedback: equivalent statistical efficiency (abstract); no numbers",
    criterion=at_least(0.9), measured=corr[N_PAIRS_CLAIM, "Bradley-Terry"],
    ablation=Comparator("the same ridge fit without the logistic link (linear regression of 2y - 1 on the "
                        "feature differences)", corr[N_PAIRS_CLAIM, "linear, no link"],
                        ingredient="the Bradley-Terry (logistic) likelihood"),
    baselines=[Comparator("each cell's win rate over the comparisons it took part in (no model)",
                          corr[N_PAIRS_CLAIM, "win rate"])],
    tol=PREF)
claims.illustrate(
    "lock-separation-exponential",
    statement=f"On the combination lock, slope of log2(mean episodes to open) against H = {Hs[0]}..{Hmax} "
              "with outcome feedback",
    paper="an unavoidable exponential separation between outcome and per-step feedback for some MDPs (abstract)",
    criterion=at_least(0.7), measured=slope["outcome"],
    why="fixed by our construction: a failed episode eliminates exactly one key whatever the learner plays, so the "
        "mean is (2^H + 1) / 2 up to Monte Carlo noise and the slope is that curve's; counted as a test before "
        "issue 33, against the per-step learner, whose H + 1 episodes also follow from the construction")
claims.check(
    "lock-per-step-at-most-h-plus-one", kind="implementation",
    statement=f"On the lock, every one of the {P.lock_seeds} keys at every H = {Hs[0]}..{Hmax} opens within H + 1 "
              "episodes with per-step feedback (our learner against our own proof; also a unit test)",
    paper="per-step rewards make the separating MDPs easy (abstract: the separation is between the two feedbacks)",
    criterion=is_true(), measured=bool(worst["per_step"] <= 1.0))

glue("n_mdps", int(P.n_mdps), display=False)
glue("Hmax", Hmax, display=False)
for name, k in KEY.items():
    out = main[name]
    glue(f"ok_{k}", n_ok[name], display=False)
    glue(f"reg_{k}", float(reg[name].mean()), display=False)
    glue(f"ratio_{k}", ratio[name], display=False)
    glue(f"ep05_{k}", float(np.median(episodes_to(out["eval_at"], out["eval_gap"], EPS * H_MAIN))), display=False)
    glue(f"worstfinal_{k}", float(out["final_gap"].max() / H_MAIN), display=False)
glue("greedy_played", float(main[GREEDY]["gap"][:, -100:].mean() / H_MAIN), display=False)
glue("slope_outcome", slope["outcome"], display=False)
glue("slope_per_step", slope["per_step"], display=False)
glue("slope_theory", slope_theory, display=False)
glue("worst_outcome", worst["outcome"], display=False)
glue("ratio_lock", ratio_lock, display=False)
for name, k in (("Bradley-Terry", "bt"), ("linear, no link", "lin"), ("win rate", "wr"), ("shuffled", "shuf"),
                ("outcomes", "outcome")):
    glue(f"corr_{k}", corr[N_PAIRS_CLAIM, name], display=False)
glue("corr_outcome_tenth", corr_outcome_tenth, display=False)
glue("n_tenth", N_TENTH, display=False)
glue("n_commit", N_COMMIT, display=False)

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
# Three tests are counted. Two are pre-registered (`outcome-price-polynomial` and `preference-recovers-reward`
# kept their measurement, setting and criterion and only gained comparators); one is post hoc
# (`outcome-learns-random-mdps`, re-encoded after its first runs, see "Claims"). Each is measured beside the
# method without the ingredient it is about and the naive learners a skeptic would try first, under the same
# measurement. None of them needs the paper's ingredient in our setting. Values below are from seed 0 at ci scale; the
# judged table gives the other seeds.
#
# * *Outcome learning is sample-efficient* ({repro-status}`outcome-learns-random-mdps`). With rewards seen only as
#   one noisy total per episode, the optimistic learner's output is within $0.05H$ of optimal on
#   {glue:text}`ok_opt` of {glue:text}`n_mdps` MDPs after the run; without optimism on {glue:text}`ok_greedy`
#   (it keeps replaying the first actions it tried, whose estimates beat the zero estimates of untried ones, and
#   its played policy ends {glue:text}`greedy_played:.2f` $H$ from optimal). That failure is built into its
#   zero start, not into outcome feedback: the same greedy rule with per-step rewards reaches the target on
#   {glue:text}`ok_psgreedy`, and with its prior at mid-range the outcome greedy learner reaches it on
#   {glue:text}`ok_greedymid`. The learner without outcome regression reaches the target on
#   {glue:text}`ok_ucred`, $\varepsilon$-greedy on {glue:text}`ok_epsg` (with a mid-range prior on
#   {glue:text}`ok_epsgmid`), explore-then-commit on {glue:text}`ok_etc` and uniformly random exploration on
#   {glue:text}`ok_unif`. On random MDPs with Dirichlet transitions and a uniform start, random actions visit the
#   cells that matter often enough (uniform exploration's output stays within the target from episode
#   {glue:text}`ep05_unif:.0f` on for the median MDP), so the output needs neither optimism nor the regression's
#   credit assignment: only learners that stop exploring fail. Over the ci sweep the method passes at
#   {repro-seeds}`outcome-learns-random-mdps:method:pass` seeds, uniform exploration at
#   {repro-seeds}`outcome-learns-random-mdps:baseline3:pass`, $\varepsilon$-greedy with a mid-range prior at
#   {repro-seeds}`outcome-learns-random-mdps:baseline5:pass` and explore-then-commit at
#   {repro-seeds}`outcome-learns-random-mdps:baseline6:pass`.
# * *The price of outcome feedback is a small factor* ({repro-status}`outcome-price-polynomial`). The outcome
#   learner's cumulative regret is {glue:text}`ratio_opt:.2f` times the per-step learner's at $H=5$ (criterion:
#   at most $H$). The learner without regression pays {glue:text}`ratio_ucred:.2f` times, $\varepsilon$-greedy
#   {glue:text}`ratio_epsg:.2f` times and the learner without optimism {glue:text}`ratio_greedy:.1f` times. Among
#   these the method's ratio is the smallest, but the learner without optimism pays so much because of its zero
#   start: without it, learners with no bonus at all come close to the method. Greedy with a
#   mid-range prior pays {glue:text}`ratio_greedymid:.2f` times, $\varepsilon$-greedy with a mid-range prior
#   {glue:text}`ratio_epsgmid:.2f` times and explore-then-commit {glue:text}`ratio_etc:.2f` times (the method:
#   {glue:text}`ratio_opt:.2f`), and at some seeds of the sweep the first and the last pay less than the method.
#   The loose "at most $H$" criterion, which stands for "polynomial", is met by all of them: over the sweep by
#   $\varepsilon$-greedy at {repro-seeds}`outcome-price-polynomial:baseline1:pass` seeds, greedy with a mid-range
#   prior at {repro-seeds}`outcome-price-polynomial:baseline3:pass`, $\varepsilon$-greedy with a mid-range prior
#   at {repro-seeds}`outcome-price-polynomial:baseline4:pass` and explore-then-commit at
#   {repro-seeds}`outcome-price-polynomial:baseline5:pass`. A polynomial price is not evidence for the paper's
#   algorithm on these MDPs. At full scale the printout above the lock figure also gives the ratio at $H=3$ and
#   $H=8$ (the brief's check C2, that it grows with $H$); it is printed only, not recorded, so it is not a test.
# * *Preferences identify the reward* ({repro-status}`preference-recovers-reward`). From 3000 pairs of random
#   episodes, the Bradley–Terry fit correlates at {glue:text}`corr_bt:.3f` with the true reward after removing
#   each step's mean; the same ridge without the logistic link at {glue:text}`corr_lin:.3f`, and the cells'
#   plain win rates at {glue:text}`corr_wr:.3f`. The correlation cannot see the scale of a fit, and with
#   rewards of this size the logistic link changes little but the scale, so the likelihood is not needed for
#   this criterion. Over the sweep the method passes at {repro-seeds}`preference-recovers-reward:method:pass`
#   seeds, the fit without the link at {repro-seeds}`preference-recovers-reward:ablation:pass` and the win
#   rates at {repro-seeds}`preference-recovers-reward:baseline1:pass`: 3000 pairs are about where these fits
#   cross $0.9$. The test checks that preferences identify the reward at one sample size, not the paper's
#   statement that they are as efficient as outcomes: a rate cannot be refuted at one size, and on the constants
#   a ridge regression of the outcomes of only {glue:text}`n_tenth` of these episodes already reaches
#   {glue:text}`corr_outcome_tenth:.3f`.
#
# The lock is an illustration: with outcome feedback the episodes needed double with each added step (log2-slope
# {glue:text}`slope_outcome:.2f` over $H=2..$ {glue:text}`Hmax`, against {glue:text}`slope_theory:.2f` for the
# curve $(2^H+1)/2$), and with per-step feedback the same learner needs at most $H+1$ episodes for every key
# (slope {glue:text}`slope_per_step:.2f`); at $H=$ {glue:text}`Hmax` the outcome learner's regret is
# {glue:text}`ratio_lock:.0f` times the per-step learner's. All of this follows from how the lock is built:
# a failed outcome removes one key, whatever the learner plays. It shows what an exponential separation looks
# like; it does not test the paper's theorem, which is a statement about every learner on MDPs we could not read.
#
# **What this says about the paper.** Our learners are tabular stand-ins for the paper's algorithms, on small
# MDPs with known transitions, so the page checks the *phenomena* of its abstract, not its theorems. Outcome
# feedback is enough to learn these MDPs, at a price over per-step rewards that is a small factor; but the
# MDPs are easy to explore, and naive learners (random or $\varepsilon$-greedy exploration, explore-then-commit,
# greedy play without a pessimistic start, the outcome split equally over the steps) learn them too. The regime the paper's optimism is for, MDPs whose rewarding states a
# random policy rarely reaches, is not run here. Two ingredients of our instantiation were essential and are not
# in the abstract: fixing the gauge of the outcome regression (without it optimism stalls, see the method) and
# the ridge-bias term in the bonus.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page, its
# record, its ci sweep (seeds 0–9) and the judge. They re-ran the page's learners on seeds 0–9 beside three more
# naive learners (greedy and $\varepsilon$-greedy with the prior at mid-range; explore-then-commit with 30, 100
# and 300 random episodes, fixed before the runs), the greedy learner with per-step feedback, two more
# preference fits (wins minus losses per cell, and a win rate with one pseudo-win and one pseudo-loss), and an
# outcome regression on a tenth as many episodes; and they re-judged the record. What they found is now measured
# by this notebook (seed 0, ci scale, the same MDPs and pairs as the tests), and the three new learners, with
# 100 random episodes for explore-then-commit, are comparators of both learning tests:
#
# * **Do not start pessimistic** (against the ablation of optimism): the greedy learner without a bonus fails
#   ({glue:text}`ok_greedy` MDPs, regret ratio {glue:text}`ratio_greedy:.1f`), and so does the same greedy rule
#   with *per-step* rewards ({glue:text}`ok_psgreedy` MDPs, regret ratio {glue:text}`ratio_psgreedy:.1f`): the
#   failure is the zero start, below every reward, not outcome feedback. With the prior at mid-range and still
#   no bonus, greedy reaches the target on {glue:text}`ok_greedymid` MDPs (regret ratio
#   {glue:text}`ratio_greedymid:.2f`) and $\varepsilon$-greedy on {glue:text}`ok_epsgmid` (ratio
#   {glue:text}`ratio_epsgmid:.2f`). Over the sweep, greedy with a mid-range prior reaches all five MDPs at
#   {repro-seeds}`outcome-learns-random-mdps:baseline4:pass` seeds and $\varepsilon$-greedy with it at
#   {repro-seeds}`outcome-learns-random-mdps:baseline5:pass`.
# * **Explore at random, then commit** ({glue:text}`n_commit` random episodes, then the greedy policy of the
#   regression): {glue:text}`ok_etc` MDPs, regret ratio {glue:text}`ratio_etc:.2f`, against the method's
#   {glue:text}`ratio_opt:.2f`. The reviewer also ran 30 random episodes (too few for the output test) and 300
#   (enough for both tests); this page runs only 100.
# * **Explore at random throughout and fit the outcomes** (a baseline of `outcome-learns-random-mdps`): the output
#   is within $0.05H$ on {glue:text}`ok_unif` MDPs, from episode {glue:text}`ep05_unif:.0f` on for the median MDP
#   (the optimistic learner: {glue:text}`ep05_opt:.0f`); its regret is {glue:text}`reg_unif:.0f` (in units of
#   $H$) against the optimistic learner's {glue:text}`reg_opt:.0f`, which is why it is not a comparator of the
#   regret test: it pays the random policy's gap in every episode by construction.
# * **$\varepsilon$-greedy with the textbook rate** (a baseline of both learning tests): output within $0.05H$ on
#   {glue:text}`ok_epsg` MDPs; regret ratio {glue:text}`ratio_epsg:.2f`, under the criterion's $H$.
# * **Split the outcome equally over the steps** (the ablation of credit assignment): output within $0.05H$ on
#   {glue:text}`ok_ucred` MDPs, regret ratio {glue:text}`ratio_ucred:.2f`. The estimates are biased (each cell
#   gets the mean outcome of the episodes through it), but on these MDPs the bias does not change which policy
#   is best by more than the target.
# * **How far from the target are the counts?** The worst final gap over the MDPs, in units of $H$, is
#   {glue:text}`worstfinal_opt:.4f` for the method, {glue:text}`worstfinal_epsg:.3f` for $\varepsilon$-greedy,
#   {glue:text}`worstfinal_ucred:.3f` for the learner without regression and {glue:text}`worstfinal_unif:.4f` for
#   uniform exploration, against the target $0.05$: every pass is far from the threshold, which is why the count
#   is recorded exactly.
# * **Fit preferences with a straight line, or just count wins** (the comparators of
#   `preference-recovers-reward`): correlations {glue:text}`corr_lin:.3f` and {glue:text}`corr_wr:.3f` against
#   the Bradley–Terry fit's {glue:text}`corr_bt:.3f`. The reviewer's two other counts (wins minus losses, and
#   win rates with pseudo-counts) did no better than the plain win rate on these pairs and are not run here.
#   For scale, a ridge regression of noisy *outcomes* of as many episodes (one per pair) reaches
#   {glue:text}`corr_outcome:.3f`, of a tenth as many ({glue:text}`n_tenth`) {glue:text}`corr_outcome_tenth:.3f`,
#   and the Bradley–Terry fit on shuffled labels {glue:text}`corr_shuf:.2f` (the control of the page's first
#   version, which failed by construction).
# * **The old controls.** The price test's control was the same ratio on the lock (a different measurement, built
#   to be exponential: {glue:text}`ratio_lock:.0f`), and the lock tests' controls were the other feedback of the
#   construction; they are gone, and the lock checks are shown, not counted.
# * **Re-judging the record**: the reviewer found that the count test had been re-encoded after its first runs
#   (see "Claims") and should be post hoc; it now is.
#
# ## What the miniature cannot show
#
# * The rate $\widetilde O(C_{\rm cov}H^3/\varepsilon^2)$ itself: we do not fit episodes against $1/\varepsilon$
#   or against $H$, and with known transitions and our bonus the measured sample complexity is far below
#   any worst-case bound. The role of coverability, and general function classes beyond the tabular one, are
#   not tested.
# * Where optimism should matter: MDPs with small coverability whose rewarding states a random policy reaches
#   with exponentially small probability (a chain with one correct action per step, say). At our horizons
#   ($H\le8$) the paper's $H^3$ is larger than $2^H$, and falls below it only from $H=10$ on, so a bound of that
#   form cannot tell such an MDP from random exploration at the sizes a ci run affords; we did not run one (the
#   review suggests one as a post-hoc test: not done).
# * The paper's lower bound: our lock has $2^H$ leaves, so its coverability is exponential too; the paper's
#   statement that the separation is unavoidable (for MDPs where per-step learning is easy under its
#   assumptions) needs its own construction, which we could not read.
# * Completeness, and its removal for deterministic MDPs: our tabular class is complete, so the simplified
#   deterministic algorithm is only echoed by the lock learner.
# * Online learning from preferences (the paper's third algorithm): we fit a reward offline from random
#   pairs; the exploration side of preference-based RL is not run.
# * Estimated transitions, larger state spaces and noisy lock rewards.
