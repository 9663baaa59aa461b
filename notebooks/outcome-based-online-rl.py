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
# *An optimistic learner that sees only the total reward of each episode still finds near-optimal
# policies on small MDPs at a modest extra cost over per-step rewards, but on a combination lock the
# same learner needs exponentially many more episodes.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np

from repro.claims import Claims, at_least, at_most, tolerance
from repro.papers import outcome_based_online_rl as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 6 s of CPU on one thread (measured): 5 random MDPs x 1500 episodes x 3 learners, lock up to H = 8
    "ci": dict(n_mdps=5, episodes=1500, horizons=(5,), lock_H=tuple(range(2, 9)), lock_seeds=30,
               pairs=(3000,), eval_every=10),
    # a few minutes of CPU: 20 MDPs x 4000 episodes at H = 3, 5, 8; lock up to H = 10 with 100 keys each;
    # the preference fit at four sample sizes
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

# %% [markdown]
# ## The claim
#
# In *outcome-based* reinforcement learning the agent plays a whole episode $\tau=(s_1,a_1,\dots,s_H,a_H)$
# and then receives one noisy number $r$ with $E[r\mid\tau]=R(\tau)=\sum_h R_h(s_h,a_h)$: a grade for the
# whole attempt, as when a language model's answer is scored at the end or a treatment's result is
# known after the last dose. It does not learn which of its $H$ decisions earned the reward. The paper
# (a theory paper, no experiments, no code) proves three things about this setting, which its abstract
# states without constants:
#
# 1. an optimistic algorithm that fits the reward from outcomes with a function class and explores by
#    optimism finds an $\varepsilon$-optimal policy from $\widetilde O(C_{\rm cov}H^3/\varepsilon^2)$ episodes,
#    $C_{\rm cov}$ being the coverability of the MDP: polynomial, as with per-step rewards;
# 2. there are MDPs on which outcome feedback is *exponentially* more expensive than per-step feedback, and
#    this cannot be avoided;
# 3. deterministic MDPs admit a simpler algorithm, and preference (pairwise comparison) feedback is as
#    efficient as outcomes.
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
# observation. Transitions are known, so the only thing learned is the reward.
#
# **The per-step baseline** runs the same rule on the $H$ observations $(e_{h s_h a_h}, r_h)$ of each
# episode: $\Sigma_k$ becomes diagonal, $\lambda+n_k(h,s,a)$, and $\nu=\sigma$ instead of $\sigma\sqrt H$ (the
# outcome is the sum of the per-step rewards, so per-step feedback carries strictly more information). The
# **ablation** is outcome regression without optimism: it plays the greedy policy of $\hat\theta$.
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
# needed; with outcomes a failed episode removes exactly one of the $2^H$ keys, so the key's position in a
# random order, $(2^H+1)/2$ episodes on average, is what the learner pays.
#
# **Preference feedback.** Pairs of episodes from the uniformly random policy, labelled
# $y\sim\mathrm{Bernoulli}(\sigma(R(\tau)-R(\tau')))$ (Bradley–Terry), fitted by ridge-penalised logistic
# regression on $\phi(\tau)-\phi(\tau')$ (`K.preference_logistic`, Newton's method, checked against
# scikit-learn in the unit tests). Preferences see neither per-step shifts nor a common constant, so we
# compare rewards after removing each step's mean (`K.gauge_fix`).
#
# ## The experiment
#
# * **Random MDPs** (the brief's): $S=6$, $A=3$, $H=5$, transitions Dirichlet(1), mean rewards uniform on
#   $[0,1]$, Gaussian noise of s.d. $\sigma=0.1$ on each step's reward, $\lambda=1$. Five MDPs at ci scale,
#   1500 episodes per learner; twenty MDPs and 4000 episodes at full scale, where $H=3$ and $H=8$ are run too.
#   The three learners run on the same MDPs with the same random stream. Measured: the exact gap
#   $J(\pi^*)-J(\pi_k)$ of each played policy (regret), and every 10 episodes (20 at full scale) the gap of
#   the greedy policy of the current estimate (the learner's output).
# * **Lock**: $H=2,\dots,8$ at ci scale (30 random keys each), up to $H=10$ with 100 keys at full scale;
#   measured: the episode at which the key is first played.
# * **Preferences**: 3000 pairs on one random MDP with $H=5$ (full scale adds 300, 1000 and 10000).
#
# **Claims, fixed before the first run** (thresholds from the brief; each with its control):
#
# 1. *Outcome learning is sample-efficient* (brief C1): on every random MDP the outcome learner's output
#    is within $0.05H$ of optimal at the end of the run (fraction of MDPs $\ge1$; partial $\ge0.6$).
#    Control: the ablation without optimism.
# 2. *The price of outcomes is polynomial on random MDPs*: cumulative regret of the outcome learner over
#    that of the per-step learner is at most $H$ (a polynomial factor; the paper's rate is
#    $H^3/\varepsilon^2$ against the $H^2/\varepsilon^2$-type rates known for per-step rewards, our reading).
#    Control: the same ratio on the lock at the largest $H$ run, built to make it exponential.
# 3. *Exponential separation*: on the lock, the least-squares slope of $\log_2$(mean episodes to open)
#    against $H$ is at least 0.7 for outcome feedback (theory: close to 1, a doubling per step).
#    Control: the same slope for per-step feedback.
# 4. *Per-step feedback opens the lock in at most $H+1$ episodes* (a theorem about our learner, proved
#    above): the largest ratio episodes$/(H+1)$ over all keys and horizons is at most 1. Control: the same
#    ratio for outcome feedback.
# 5. *Preferences identify the reward* (brief C3): after 3000 pairs the gauge-fixed fitted reward has
#    Pearson correlation $\ge0.9$ with the gauge-fixed truth. Control: the same fit on labels shuffled
#    across pairs (no information).
#
# **Deviations from the paper**
#
# * The learners are our tabular instantiation (ridge outcome regression, per-cell elliptical bonus by the
#   triangle inequality, known transitions), not the paper's Algorithm 1 with general function classes and
#   its confidence sets; the paper's constants are unknown to us. Our $\beta_k$ omits the $\sqrt d$ factor of
#   the self-normalised bound (that choice makes every learner explore for far longer than our budget).
# * Transitions are known to every learner, so that the experiment isolates credit assignment; the kernels
#   also support estimated transitions with a count bonus (unit-tested, not used on this page).
# * Design choices made **after a first trial run** in which no learner converged within the budget, before
#   any claim was evaluated: the reward noise was lowered from $\sigma=0.5$ to $0.1$, the ridge-bias term
#   $\sqrt\lambda$ was added to $\beta_k$ (without it unvisited actions looked worse than visited ones), and
#   the gauge was fixed in the outcome regression (see the method). Thresholds were not touched.
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

# %%
rng_mdp = np.random.default_rng([seed, 1])
LEARNERS = {"outcome, optimistic": ("outcome", "optimistic"), "per-step, optimistic": ("per_step", "optimistic"),
            "outcome, greedy (no optimism)": ("outcome", "greedy")}
runs = {}
for H in progress(P.horizons, desc="random MDPs"):
    mdps = K.make_tabular_mdps(P.n_mdps, S, A, H, rng_mdp)
    runs[H] = {name: K.run_outcome_rl(mdps, P.episodes, fb, seed=seed, explore=ex, sigma=SIGMA,
                                       eval_every=P.eval_every)
               for name, (fb, ex) in LEARNERS.items()}
main = runs[H_MAIN]
print(f"{P.n_mdps} random MDPs (S={S}, A={A}), horizons {P.horizons}, {P.episodes} episodes per learner")

# %% [markdown]
# ## Results
#
# ### Learning curves on random MDPs
#
# Left: the gap of the policy played in each episode, as a fraction of $H$ (running mean over 50
# episodes), so the area under a curve is the regret. Right: the gap of each learner's output (the greedy
# policy of its current reward estimate), every 10 episodes (20 at full scale), with the brief's target $0.05H$. Lines: mean
# over the MDPs; bands: smallest to largest MDP.

# %%
def band(ax, x, Y, label, color):
    ax.plot(x, Y.mean(0), color=color, label=label)
    ax.fill_between(x, Y.min(0), Y.max(0), color=color, alpha=0.2, lw=0)


COLORS = dict(zip(LEARNERS, ("C0", "C1", "C7")))
w = 50
fig, (a, b) = plt.subplots(1, 2, figsize=(11, 3.8))
for name, out in main.items():
    g = out["gap"] / H_MAIN
    sm = np.apply_along_axis(lambda v: np.convolve(v, np.ones(w) / w, mode="valid"), 1, g)
    band(a, np.arange(w, P.episodes + 1), sm, name, COLORS[name])
    band(b, out["eval_at"], out["eval_gap"] / H_MAIN, name, COLORS[name])
b.axhline(EPS, color="k", ls="--", lw=1, label=r"target $0.05H$")
a.set(xlabel="episode", ylabel=r"gap of played policy / $H$", title=f"Played policies (H = {H_MAIN}, {P.n_mdps} MDPs)",
      xscale="log")
b.set(xlabel="episode", ylabel=r"gap of output policy / $H$", title="Output (greedy) policies", xscale="log")
a.legend(fontsize=8)
b.legend(fontsize=8)
plt.show()

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
        print(f"  H={H} {name:32s} regret/H {reg.mean():7.1f} [{reg.min():6.1f}, {reg.max():6.1f}]   "
              f"episodes to eps=0.2/0.1/0.05: {e[0]:g} / {e[1]:g} / {e[2]:g}")

# %% [markdown]
# ### The combination lock
#
# Episodes until the key is first played, against $H$ (log scale). The dashed line is the outcome
# learner's expectation $(2^H+1)/2$ (a uniformly random position among the $2^H$ keys); the dotted line the
# per-step learner's guarantee $H+1$. Error bars: $\pm$ one standard error over the keys; crosses: the
# worst key.

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
print("log2 slope of mean episodes against H:", {k: round(v, 3) for k, v in slope.items()})
print("largest episodes/(H+1):", {k: round(v, 2) for k, v in worst.items()})

# %% [markdown]
# ### Preference feedback
#
# Left: the gauge-fixed reward fitted from 3000 preference pairs against the truth (each dot one
# (step, state, action) cell), beside the fit on shuffled labels. At full scale, right: the correlation
# against the number of pairs.

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
corr, fits = {}, {}
for n in P.pairs:
    for lab, y in (("labels", y_all), ("shuffled", y_shuf)):
        fits[n, lab] = K.gauge_fix(K.preference_logistic(dPhi[:n], y[:n], lam=1.0), S, A, H_MAIN)
        corr[n, lab] = float(np.corrcoef(fits[n, lab], truth)[0, 1])
fig, axes = plt.subplots(1, 2 if len(P.pairs) > 1 else 1, figsize=(11 if len(P.pairs) > 1 else 5.5, 4), squeeze=False)
ax = axes[0, 0]
for lab, c in (("labels", "C0"), ("shuffled", "C7")):
    ax.scatter(truth, fits[N_PAIRS_CLAIM, lab], s=12, color=c,
               label=f"{lab} (r = {corr[N_PAIRS_CLAIM, lab]:.2f})")
lim = np.abs(truth).max() * 1.1
ax.plot([-lim, lim], [-lim, lim], "k--", lw=1)
ax.set(xlabel="true reward, per-step mean removed", ylabel="fitted reward, per-step mean removed",
       title=f"Bradley-Terry fit from {N_PAIRS_CLAIM} pairs")
ax.legend(fontsize=8)
if len(P.pairs) > 1:
    axes[0, 1].plot(P.pairs, [corr[n, "labels"] for n in P.pairs], "o-", label="labels")
    axes[0, 1].plot(P.pairs, [corr[n, "shuffled"] for n in P.pairs], "o-", color="C7", label="shuffled labels")
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
ratio_random = float(reg["outcome, optimistic"].mean() / reg["per-step, optimistic"].mean())
Hmax = int(Hs[-1])
ratio_lock = float((lock["outcome"][-1].mean() - 1) / (lock["per_step"][-1].mean() - 1))
rows = [
    ("sample complexity with outcomes", r"Õ(C_cov H^3/eps^2): polynomial",
     f"H={H_MAIN}: output within 0.05H on {np.mean(main['outcome, optimistic']['final_gap'] <= EPS * H_MAIN):.0%} "
     f"of {P.n_mdps} MDPs after {P.episodes} episodes"),
    ("outcome vs per-step, random MDPs", "polynomial price (upper bound)",
     f"regret ratio {ratio_random:.2f} at H={H_MAIN}"),
    ("exponential separation", "unavoidable for some MDPs",
     f"lock: log2-slope {slope['outcome']:.2f} (outcome) vs {slope['per_step']:.2f} (per-step); "
     f"regret ratio {ratio_lock:.0f} at H={Hmax}"),
    ("preference feedback", "same efficiency as outcomes",
     f"reward correlation {corr[N_PAIRS_CLAIM, 'labels']:.3f} after {N_PAIRS_CLAIM} pairs"),
]
print(f"{'statement':36s} {'paper (abstract)':36s} ours")
for r in rows:
    print(f"{r[0]:36s} {r[1]:36s} {r[2]}")

# %%
FRACTION = tolerance(abs=0.2, why="share of a few MDPs whose learning runs pass through argmax decisions: "
                     "another float kernel may break a near-tie and send one run elsewhere")
RATIO = tolerance(rel=0.25, why="ratio of regrets of learning runs (argmax near-ties may move under other float kernels)")
PREF = tolerance(rel=1e-4, why="Newton fit of a logistic regression (solver end point)")
PAPER_RATE = "Õ(C_cov H^3 / eps^2) episodes with outcome feedback (abstract); no numbers (theory paper)"
frac_opt = float(np.mean(main["outcome, optimistic"]["final_gap"] <= EPS * H_MAIN))
frac_greedy = float(np.mean(main["outcome, greedy (no optimism)"]["final_gap"] <= EPS * H_MAIN))
claims.check("outcome-learns-random-mdps",
             statement=f"Fraction of {P.n_mdps} random MDPs (S={S}, A={A}, H={H_MAIN}) on which the outcome-only "
                       f"optimistic learner's output is within {EPS}H of optimal after {P.episodes} episodes",
             paper=PAPER_RATE, criterion=at_least(1.0, partial=0.6), measured=frac_opt,
             control=frac_greedy, control_label="outcome regression without optimism (greedy), same MDPs and episodes",
             tol=FRACTION)
claims.check("outcome-price-polynomial",
             statement=f"Cumulative regret of the outcome learner over the per-step learner on random MDPs (H={H_MAIN}) "
                       f"is at most H = {H_MAIN}",
             paper="outcome feedback is sample-efficient (polynomial), like per-step rewards (abstract)",
             criterion=at_most(float(H_MAIN)), measured=ratio_random,
             control=ratio_lock,
             control_label=f"the same ratio on the combination lock at H = {Hmax} (built to make it exponential)",
             tol=RATIO)
claims.check("lock-separation-exponential",
             statement=f"On the combination lock, slope of log2(mean episodes to open) against H = {Hs[0]}..{Hmax} "
                       "with outcome feedback",
             paper="an unavoidable exponential separation between outcome and per-step feedback for some MDPs (abstract)",
             criterion=at_least(0.7), measured=slope["outcome"],
             control=slope["per_step"], control_label="the same learner with per-step feedback")
claims.check("lock-per-step-at-most-h-plus-one",
             statement=f"On the lock, the largest episodes/(H+1) over {P.lock_seeds} keys and H = {Hs[0]}..{Hmax} "
                       "with per-step feedback (proved <= 1 for our learner)",
             paper="per-step rewards make the separating MDPs easy (abstract: the separation is between the two feedbacks)",
             kind="theorem", criterion=at_most(1.0), measured=worst["per_step"],
             control=worst["outcome"], control_label="the same learner with outcome feedback")
claims.check("preference-recovers-reward",
             statement=f"Pearson correlation of the gauge-fixed Bradley-Terry reward fitted from {N_PAIRS_CLAIM} "
                       "preference pairs with the gauge-fixed truth (H=5)",
             paper="preference feedback: equivalent statistical efficiency (abstract); no numbers",
             criterion=at_least(0.9), measured=corr[N_PAIRS_CLAIM, "labels"],
             control=corr[N_PAIRS_CLAIM, "shuffled"], control_label="the same fit on labels shuffled across pairs",
             tol=PREF)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Reproduced at our scale, on our stand-ins: all five claims at seed 0, each against a control that
# fails; across seeds four of them hold everywhere and the preference claim at 8 of 10 seeds.** No threshold
# changed after the first run. Numbers below are from seed 0 at ci scale; the table "Across seeds and scales"
# above (from `make sweep`) gives the other seeds and the full-scale runs.
#
# Over seeds 0–9 at ci scale the four claims on learning and on the lock hold at every seed, with their
# controls failing at every seed: regret ratio between 1.42 and 1.53 (control, the lock: 25 to 38), lock
# slope between 0.88 and 0.99 (per-step control: 0.19 to 0.24). The preference claim is the fragile one: the
# correlation after 3000 pairs lies between 0.889 and 0.954 (median 0.922), below the brief's 0.9 at seeds 3
# and 7, where it is therefore not reproduced and the seed's verdict is partial. 3000 pairs are about where
# this fit crosses 0.9 (full-scale figure: 0.81 at 1000 pairs, 0.98 at 10000), so the brief's threshold sits
# on the edge of what that sample size gives. At full scale (seeds 0–2; 20 MDPs, 4000 episodes, lock up to
# $H=10$) the picture is the same: the four claims hold at every seed, with regret ratios of 1.34 to 1.35
# against lock ratios of 89 to 116 and lock slopes of 0.95 to 0.98 against 0.19 to 0.20, and the preference
# correlation is 0.942, 0.932 and 0.8996, so that claim holds at 2 of 3 seeds.
#
# * *Outcome-only learning is sample-efficient on random MDPs.* With rewards seen only as one noisy total per
#   episode, the optimistic learner's output is within $0.05H$ of optimal on all five MDPs after 1500 episodes;
#   the brief's 4000 episodes are far more than needed: on the median MDP the output stays within $0.05H$ from
#   episode 80 on (30 for the per-step learner; table above the lock figure). The
#   same regression without optimism never does (0 of 5): it keeps replaying the first actions it tried,
#   whose estimates beat the zero estimates of untried ones, and its played policy stays about $0.2H$ from
#   optimal for the whole run (first figure).
# * *The price of outcome feedback on these MDPs is a small factor.* The outcome learner's cumulative regret is
#   1.50 times the per-step learner's at $H=5$ (claim: at most $H$). At full scale the ratio grows with the
#   horizon, 1.08 at $H=3$, 1.35 at $H=5$ and 1.69 at $H=8$ (20 MDPs, 4000 episodes), which is also the brief's
#   check C2 (ratio $\ge1$ at every $H$ and larger at $H=8$ than at $H=3$), seen at full scale only. Credit
#   assignment costs something, and more for longer episodes, but nothing like the lock.
# * *On the combination lock the price is exponential.* With outcome feedback the episodes needed to open the
#   lock double with each added step (log2-slope 0.96 over $H=2..8$, on the theoretical curve $(2^H+1)/2$);
#   with per-step feedback the same learner needs at most $H+1$ episodes for every key (slope 0.22), as
#   proved in the method. At $H=8$ the regret ratio is 33 (ci); it is 89 at $H=10$ at full scale. Same
#   learner, same reward class, same returns for every policy: only what is observed differs.
# * *Preferences identify the reward up to the gauge.* From 3000 pairs of random episodes, the Bradley–Terry
#   fit correlates at 0.954 with the true reward after removing each step's mean (the control on shuffled
#   labels: 0.05); at other seeds the value ranges down to 0.889 (see above).
#
# **What this says about the paper.** Our learners are tabular stand-ins for the paper's algorithms, so the
# page checks the *phenomena* of its abstract, not its theorems: an optimism-plus-outcome-regression learner
# is sample-efficient where per-step rewards are, pays a modest, horizon-growing factor for credit
# assignment on generic MDPs, and can pay exponentially on an MDP built to hide where mistakes happen. Two
# ingredients were essential and are not in the abstract: fixing the gauge of the outcome regression (without
# it optimism stalls, see the method) and the ridge-bias term in the bonus.
#
# ## What the miniature cannot show
#
# * The rate $\widetilde O(C_{\rm cov}H^3/\varepsilon^2)$ itself: we do not fit episodes against $1/\varepsilon$
#   or against $H$, and with known transitions and our bonus the measured sample complexity is far below
#   any worst-case bound. The role of coverability, and general function classes beyond the tabular one, are
#   not tested.
# * The paper's lower bound: our lock has $2^H$ leaves, so its coverability is exponential too; the paper's
#   statement that the separation is unavoidable (for MDPs where per-step learning is easy under its
#   assumptions) needs its own construction, which we could not read.
# * Completeness, and its removal for deterministic MDPs: our tabular class is complete, so the simplified
#   deterministic algorithm is only echoed by the lock learner.
# * Online learning from preferences (the paper's third algorithm): we fit a reward offline from random
#   pairs; the exploration side of preference-based RL is not run.
# * Estimated transitions, larger state spaces and noisy lock rewards.
