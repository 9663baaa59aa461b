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
# # Stagger and Warm-Stagger: imitation learning with annotation cost counted per state
#
# *If every expert label costs the same whether it comes from an offline demonstration or from a query at
# a state the learner itself reached, does querying one state per round (Stagger) beat behaviour cloning,
# and does starting it from offline demonstrations (Warm-Stagger) keep the better of both?*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np

from repro.claims import Claims, at_least, at_most, is_true, less_than, tolerance
from repro.papers import stagger_hybrid_imitation as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 10 s on one thread with imports (measured): 100 replicates of each tabular learner, 8 pendulum replicates
    "ci": dict(R=100, budgets=(10, 20, 30, 40, 50, 60), R_pen=8, episodes=4, pen_budgets=(10, 20, 40)),
    # about 6 min wall on a loaded 2-core machine: 1000 tabular replicates and budgets to 120, 40 pendulum replicates to 80 labels
    "full": dict(R=1000, budgets=(10, 20, 30, 40, 50, 60, 80, 100, 120), R_pen=40, episodes=10,
                 pen_budgets=(10, 20, 40, 80)),
})
claims = Claims(
    "stagger-hybrid-imitation",
    title="Interactive and Hybrid Imitation Learning: Provably Beating Behavior Cloning",
    authors="Yichen Li, Chicheng Zhang",
    paper_url="https://arxiv.org/abs/2412.07057",
    scale=scale, seed=seed,
)
# fixed before the first run (see "The experiment")
N_PATH, N_ACT, H = 20, 3, 30          # the cliff MDP
CS = (1, 2, 4)                        # cost ratios C of an interactive label to an offline one
WARM = 0.2                            # Warm-Stagger's share of the budget spent on offline labels
B_CLAIM = 60                          # the budget of claims 1 and 3
B_WARM = (20, 40, 60)                 # the budgets of claim 2
SLACK = 0.05 * H                      # claim 2: "not much worse" = within 5% of the largest possible cost
PEN = dict(horizon=100, x0_scale=0.1, action_noise=0.3)   # the pendulum task
LAM = 0.01                            # ridge penalty of the pendulum learner
rng = P.rng

# %% [markdown]
# ## The claim
#
# Imitation learning trains a policy from an expert's actions. *Behaviour cloning* (BC) fits the policy to
# states and actions taken from the expert's own demonstrations; *interactive* methods such as DAgger
# roll out the learner and ask the expert what it would do at the states the learner reached, so the
# learner sees, and learns to correct, its own mistakes. Recent lower bounds say that, when the cost of
# supervision is counted in whole expert *trajectories*, BC cannot be beaten in general. Li and Zhang
# count it per *state* instead and argue, with proofs and MuJoCo experiments:
#
# 1. **Stagger** (State-wise DAgger), which queries the expert on a single state of each learner roll-out,
#    beats BC when the expert can recover cheaply from the learner's mistakes (small recovery cost $\mu$);
# 2. **Warm-Stagger**, Stagger started from offline demonstrations, is never much worse than either data
#    source alone, and on a constructed MDP much better than both (BC suffers compounding errors,
#    Stagger a cold start);
# 3. on MuJoCo control tasks, with a modest cost ratio $C$ between an interactive and an offline label,
#    interactive and hybrid learners consistently beat BC.
#
# The paper reports no numeric table that we could retrieve (the brief found only the abstract and a
# secondary summary: Stagger's suboptimality $O(\mu H\log B/N)$ against a larger bound for BC); there is
# no official code. Our checks are therefore directional.
#
# ## The method
#
# A finite-horizon problem with horizon $H$ and per-step costs in $[0,1]$; the cost of a policy is
# $J(\pi)=\mathbb E_\pi\big[\sum_{t=1}^H c(s_t,a_t)\big]$, zero for the expert. An offline label (a state of an
# expert roll-out with the expert's action) costs 1, an interactive label (the expert's action at a state
# chosen by the learner) costs $C\ge1$. With budget $B$:
#
# * **BC** buys $B$ offline labels: the first $B$ states of expert roll-outs;
# * **Stagger** buys $\lfloor B/C\rfloor$ interactive labels, one per round: roll out the current learner
#   $\pi_i$, draw a step $t$ uniformly from $1..H$, label $s_t$, refit;
# * **Warm-Stagger** spends $N_0=0.2B$ on offline labels, the rest on Stagger rounds started from them;
# * **DAgger** (reference, no claim) labels every state of each roll-out, $H$ labels per round.
#
# **The cliff MDP** (`K.make_cliff_mdp`). $n=20$ path states and $A=3$ actions. On path state $s$ the
# expert's action costs 0 and leads to a uniformly drawn path state; any other action costs 1 and drops the
# agent into the fallen state beside $s$, where every step costs 1. In the **recoverable** cliff one
# action of each fallen state (the expert's label there) climbs back to the path: the expert recovers in
# one step, the small-$\mu$ regime of claim 1. In the **absorbing** cliff the fallen state is a trap
# ($\mu=H$): a learner that errs with probability $\varepsilon$ per path state pays, from its first error on,
# 1 per step, and its exact expected cost is
#
# $$\texttt{cliff\_expected\_cost}(\varepsilon,H)=\sum_{t=1}^{H}\big(1-(1-\varepsilon)^t\big)\approx\frac{\varepsilon H^2}{2},$$
#
# computed by the recursion $V_h=\varepsilon h+(1-\varepsilon)V_{h-1}$ (`K.cliff_expected_cost`); the cost of a
# learner that never errs twice in a row, against $\varepsilon H$ without compounding. The tabular learner
# votes: in a labelled state it takes the labelled action, in an unlabelled one it acts uniformly at random.
# Costs are exact, by dynamic programming over the learner's state distributions (`K.expected_cost`); only
# the data are random.
#
# **The MuJoCo task**: gymnasium's `InvertedPendulum-v5` (a cart with a hinged pole, 4 state variables,
# one force), stepped by MuJoCo. The expert is a discrete LQR controller $u=-Kx$ on a finite-difference
# linearisation of one control step about the upright state (`K.linearize_pendulum`, `K.lqr_gain`,
# $Q=I$, $R=0.1$). Episodes start from a uniform state in $[-0.1,0.1]^4$, the applied force carries Gaussian
# noise of standard deviation 0.3 (the actuator range is $\pm3$), and last $H=100$ steps; the cost of an
# episode is the number of steps from the moment the pole leaves $\pm0.2$ rad (gymnasium's failure
# condition) to the end, the continuous analogue of the cliff. The learner is ridge regression of the
# expert's action on the state ($\lambda=0.01$, no intercept), a linear policy that can represent the
# expert exactly once it has enough informative states.

# %% [markdown]
# ## The experiment
#
# * **Cliff MDP**, $n=20$, $A=3$, $H=30$, recoverable and absorbing; budgets $B=10,\dots,60$ (to 120 at
#   full scale) for $C\in\{1,2,4\}$; 100 independent replicates of every learner (1000 at full scale), each
#   with its own data; mean and standard error over replicates.
# * **Pendulum**: budgets 10, 20, 40 (and 80 at full scale) at $C=1$ and $C=4$; 8 replicates (40 at full
#   scale), each learner's cost averaged over 4 (10) episodes that all methods share (common random
#   numbers).
#
# **Claims, fixed before the first run** (the brief's checks, written for costs, lower is better):
#
# 1. *Stagger beats BC* (recoverable cliff, $C=1$, $B=60$): $\bar J_\text{BC}-\bar J_\text{Stagger}\ge0$.
#    Control: the same difference on the absorbing cliff, where recovery is impossible and the labels
#    Stagger takes after a fall are wasted.
# 2. *Warm-Stagger is never much worse than either source* (recoverable cliff, $C=1$):
#    $\max_{B\in\{20,40,60\}}\big[\bar J_\text{Warm}-\min(\bar J_\text{BC},\bar J_\text{Stagger})\big]\le0.05H=1.5$.
#    Control: the same statistic for a learner committed in advance to a single source (the worse of BC
#    and Stagger on this grid).
# 3. *The interactive advantage shrinks with the cost ratio* (recoverable cliff, $B=60$):
#    $[\bar J_\text{BC}-\bar J_\text{Stagger}]_{C=4}<[\bar J_\text{BC}-\bar J_\text{Stagger}]_{C=1}$. Control: the
#    same difference when Stagger is not charged the ratio (its labels priced like BC's), which cannot shrink.
# 4. *Interactive beats BC on MuJoCo at a modest cost ratio* (pendulum, $C=1$, the largest budget):
#    $\bar J_\text{BC}-\bar J_\text{Stagger}\ge0$. Control: the same at $C=4$, a cost ratio that is not modest.
# 5. *Warm-Stagger near the better source on MuJoCo* ($C=1$, every pendulum budget):
#    $\max_B\big[\bar J_\text{Warm}-\min(\bar J_\text{BC},\bar J_\text{Stagger})\big]\le0.05H=5$ steps. Control:
#    the worse single source, as in claim 2.
#
# **Deviations from the paper**
#
# * Our cliff MDP, learner and pendulum set-up are ours (the paper's MDP example, its learners and its
#   MuJoCo tasks were not available to us). The brief proposed a line of 20 states with slips; we use the
#   classic cliff of the imitation-learning literature, in a recoverable and an absorbing form, because the
#   issue's `cliff_expected_cost` is defined on it and it separates small from large recovery cost.
# * The learners are a tabular majority vote and ridge regression, refitted after every label: the
#   paper's Stagger runs an online learner with guarantees (its bounds carry $\log B$ factors we do not
#   test); its theorem's constants and exact conditions were not available.
# * Budgets are small (at most 120 labels on the cliff, 80 on the pendulum) and the MuJoCo task is the
#   inverted pendulum with an analytic LQR expert, not the paper's locomotion tasks with trained experts.
# * "Not much worse" is read as within $0.05H$ (the brief's 5% of the expert's return, with costs in $[0,H]$);
#   the equal-cost comparison of claims 2 and 5 is at $C=1$.
# * The brief asked for 10 seeds; we average 100 (1000) tabular and 8 (40) pendulum replicates per run and
#   report the spread across 10 notebook seeds in the robustness table.
# * The pendulum's noise levels (initial states in $[-0.1,0.1]^4$, force noise 0.3) and the ridge penalty
#   $\lambda=0.01$ were chosen by looking at BC's learning curve alone, before any interactive run, so that
#   BC neither fails outright nor succeeds at once on our budgets. The brief put MuJoCo at full scale only;
#   we run a small version at ci scale too.
# * After the first run we added an exploratory sweep (no claim) over the number of fallen states, which
#   sets how many labels it takes to learn to recover.

# %%
mdps = {"recoverable": K.make_cliff_mdp(N_PATH, N_ACT, H, True),
        "absorbing": K.make_cliff_mdp(N_PATH, N_ACT, H, False)}
budgets = np.array(P.budgets)
uniform_cost = {k: float(K.expected_cost(m, np.full((m.n_states, N_ACT), 1 / N_ACT))) for k, m in mdps.items()}
print("cost of the uniform (untrained) learner:", {k: round(v, 2) for k, v in uniform_cost.items()}, f"(H = {H})")


def bc_costs(mdp, n_labels, R):
    counts = K.expert_state_counts(mdp, n_labels, R, rng)
    pol = K.majority_vote_policy(counts)
    return K.expected_cost(mdp, pol), K.per_step_error(mdp, pol)


tab = {}
for name, mdp in mdps.items():
    res = {}
    bc = [bc_costs(mdp, int(B), P.R) for B in budgets]
    res["BC"] = np.stack([c for c, _ in bc], 1)                         # (R, budgets)
    res["BC eps"] = np.stack([e for _, e in bc], 1)
    ks = sorted({K.labels_for_budget(B, C)[1] for B in budgets for C in CS} | {0})
    _, st = K.interactive_imitation(mdp, max(ks), P.R, rng, checkpoints=ks)
    for C in CS:  # Stagger's labels are nested: its cost at budget B and ratio C is its cost after floor(B/C) labels
        res[f"Stagger C={C}"] = st[:, [ks.index(K.labels_for_budget(B, C)[1]) for B in budgets]]
    warm, dag = [], []
    for B in budgets:
        n_off, n_int = K.labels_for_budget(B, 1, WARM)
        w0 = K.expert_state_counts(mdp, n_off, P.R, rng)
        warm.append(K.interactive_imitation(mdp, n_int, P.R, rng, warm_counts=w0)[1][:, 0])
        dag.append(K.interactive_imitation(mdp, int(B), P.R, rng, per_round="trajectory")[1][:, 0])
    res["Warm-Stagger C=1"] = np.stack(warm, 1)
    res["DAgger C=1"] = np.stack(dag, 1)
    tab[name] = res


STYLE_ORDER = ("BC", "Stagger C=1", "Stagger C=2", "Stagger C=4", "Warm-Stagger C=1", "DAgger C=1")


def mean(name, method, B):
    return float(tab[name][method][:, list(budgets).index(B)].mean())


for name in mdps:
    print(f"{name} cliff, mean cost by budget:")
    print("  B:               " + " ".join(f"{int(B):6d}" for B in budgets))
    for m in STYLE_ORDER:
        print(f"  {m:17s}" + " ".join(f"{mean(name, m, B):6.2f}" for B in budgets))

# %% [markdown]
# ### The MuJoCo pendulum

# %%
env = K.make_pendulum("InvertedPendulum-v5")
A_lin, B_lin = K.linearize_pendulum(env)
K_lqr = K.lqr_gain(A_lin, B_lin, np.eye(4), 0.1 * np.eye(1))
rho = float(np.max(np.abs(np.linalg.eigvals(A_lin - B_lin @ K_lqr))))
print(f"LQR gain {np.round(K_lqr[0], 3)}; spectral radius of A - BK = {rho:.4f} (open loop "
      f"{np.max(np.abs(np.linalg.eigvals(A_lin))):.4f})")
pb = np.array(P.pen_budgets)
Bmax = int(pb.max())


def pen_eval(w):
    """Mean cost of each replicate's linear learner, on episodes shared by every method (common random numbers)."""
    return K.pendulum_cost(env, w, P.episodes, PEN["horizon"], PEN["x0_scale"], PEN["action_noise"],
                           np.random.default_rng([seed, 7]))


expert_cost = float(pen_eval(np.tile(-K_lqr[0], (1, 1)))[0])
Xb, yb = K.pendulum_bc_data(env, K_lqr, Bmax, P.R_pen, PEN["horizon"], PEN["x0_scale"], PEN["action_noise"], rng)
Xs, ys = K.pendulum_stagger(env, K_lqr, Bmax, P.R_pen, PEN["horizon"], PEN["x0_scale"], PEN["action_noise"], LAM, rng)
pen = {"BC": [], "Stagger C=1": [], "Stagger C=4": [], "Warm-Stagger C=1": []}
for B in progress(pb, desc="pendulum budgets"):
    pen["BC"].append(pen_eval(K.ridge_fit(Xb[:, :B], yb[:, :B], LAM)))  # BC's labels are nested too
    for C in (1, 4):
        n = K.labels_for_budget(B, C)[1]
        pen[f"Stagger C={C}"].append(pen_eval(K.ridge_fit(Xs[:, :n], ys[:, :n], LAM)))
    n_off, n_int = K.labels_for_budget(B, 1, WARM)
    w0 = K.pendulum_bc_data(env, K_lqr, n_off, P.R_pen, PEN["horizon"], PEN["x0_scale"], PEN["action_noise"], rng)
    Xw, yw = K.pendulum_stagger(env, K_lqr, n_int, P.R_pen, PEN["horizon"], PEN["x0_scale"], PEN["action_noise"],
                                LAM, rng, warm=w0)
    pen["Warm-Stagger C=1"].append(pen_eval(K.ridge_fit(Xw, yw, LAM)))
pen = {k: np.stack(v, 1) for k, v in pen.items()}  # (R_pen, budgets)
print(f"expert cost {expert_cost:g}; mean cost (steps of {PEN['horizon']}) by budget:")
print("  B:               " + " ".join(f"{int(B):6d}" for B in pb))
for k, v in pen.items():
    print(f"  {k:17s}" + " ".join(f"{x:6.1f}" for x in v.mean(0)))

# %% [markdown]
# ### Exploration added after the first run: how many labels recovery needs
#
# The first run showed BC ahead of Stagger on the recoverable cliff. One reason to examine: with a fallen
# state beside every path state, Stagger must learn 20 recoveries, one fall at a time. The sweep below
# shares the fallen states among the path states ($1,2,5,10,20$ distinct fallen states) and records the
# gap $\bar J_\text{BC}-\bar J_\text{Stagger}$ at $B=60$, $C=1$. It carries no claim.

# %%
N_FALLEN = (1, 2, 5, 10, 20)
sweep_gap = []
for m in N_FALLEN:
    mdp_m = K.make_cliff_mdp(N_PATH, N_ACT, H, True, n_fallen=m)
    jb = bc_costs(mdp_m, B_CLAIM, P.R)[0]
    js = K.interactive_imitation(mdp_m, B_CLAIM, P.R, rng)[1][:, 0]
    sweep_gap.append((jb.mean() - js.mean(), np.sqrt(jb.var() / P.R + js.var() / P.R)))
sweep_gap = np.array(sweep_gap)
print("BC - Stagger at B = 60 by number of fallen states:", dict(zip(N_FALLEN, np.round(sweep_gap[:, 0], 2))))

# %% [markdown]
# ## Results
#
# ### Learning curves on the cliff
#
# Mean cost over the replicates against the annotation budget, with a band of two standard errors. Left:
# the recoverable cliff; right: the absorbing one. Stagger is drawn at the three cost ratios.

# %%
STYLE = {"BC": ("k", "-"), "Stagger C=1": ("C0", "-"), "Stagger C=2": ("C0", "--"), "Stagger C=4": ("C0", ":"),
         "Warm-Stagger C=1": ("C3", "-"), "DAgger C=1": ("C2", "-.")}


def band(ax, x, Y, label):
    m, se = Y.mean(0), Y.std(0) / np.sqrt(Y.shape[0])
    color, ls = STYLE[label]
    ax.plot(x, m, color=color, ls=ls, marker="o", ms=3, label=label)
    ax.fill_between(x, m - 2 * se, m + 2 * se, color=color, alpha=0.15)


fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
for ax, name in zip(axes, mdps):
    for method in STYLE:
        band(ax, budgets, tab[name][method], method)
    ax.set(title=f"{name} cliff (n = {N_PATH}, H = {H}; {P.R} replicates)", xlabel="annotation budget B (cost units)",
           ylabel="expected cost J (steps off the path)")
axes[0].legend(fontsize=8)
plt.show()

# %% [markdown]
# ### Compounding errors: cost against the per-step error
#
# Every BC learner of the runs above, placed by its per-step error on the path $\varepsilon$ (the chance
# of leaving the expert's action at a path state) and its exact cost. On the absorbing cliff the points lie
# on `cliff_expected_cost`$(\varepsilon,H)$, which grows like $\varepsilon H^2/2$ for small
# $\varepsilon$; on the recoverable cliff an error costs only the steps needed to climb back (about
# $1/(1-\text{recovery chance})$ for the untrained recovery, here 3), and the cost is close to linear
# in $\varepsilon$.

# %%
fig, ax = plt.subplots(figsize=(6.5, 4.2))
eg = np.linspace(0, 0.7, 200)
ax.plot(eg, K.cliff_expected_cost(eg, H), "k-", label="cliff_expected_cost(eps, H) (never recovers)")
ax.plot(eg, eg * H * (H + 1) / 2, "k:", label=r"$\varepsilon H(H+1)/2$ (first order)")
ax.plot(eg, eg * H, "k--", lw=0.8, label=r"$\varepsilon H$ (no compounding)")
for name, color in (("absorbing", "C3"), ("recoverable", "C0")):
    ax.scatter(tab[name]["BC eps"].ravel(), tab[name]["BC"].ravel(), s=6, alpha=0.3, color=color,
               label=f"BC learners, {name} cliff")
ax.set(xlabel=r"per-step error on the path $\varepsilon$", ylabel="expected cost J (steps)", ylim=(0, H + 1),
       title=f"H = {H}")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### The pendulum
#
# Mean cost (steps after the pole fell, out of 100) against the budget, two standard errors over the
# replicates; the LQR expert costs 0 on these episodes.

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 4))
for method in pen:
    band(axes[0], pb, pen[method], method)
axes[0].set(xlabel="annotation budget B (cost units)", ylabel="cost (steps after the fall, of 100)",
            title=f"InvertedPendulum-v5, ridge learner ({P.R_pen} replicates x {P.episodes} episodes)",
            ylim=(-2, PEN["horizon"]))
axes[0].legend(fontsize=8)
axes[1].errorbar(N_FALLEN, sweep_gap[:, 0], yerr=2 * sweep_gap[:, 1], marker="o", capsize=3)
axes[1].axhline(0, color="k", lw=0.8)
axes[1].set(xscale="log", xlabel="number of distinct fallen states (recoverable cliff)",
            ylabel=r"$\bar J_{BC}-\bar J_{Stagger}$ at B = 60, C = 1 (steps)",
            title="exploratory (after the first run): Stagger ahead above 0")
plt.show()

# %% [markdown]
# ### What the paper reports, beside ours
#
# The paper's statements are directional; the table sets each beside our measurement.

# %%
gap = {C: mean("recoverable", "BC", B_CLAIM) - mean("recoverable", f"Stagger C={C}", B_CLAIM) for C in CS}
gap_abs = mean("absorbing", "BC", B_CLAIM) - mean("absorbing", "Stagger C=1", B_CLAIM)
pen_gap = {C: float(pen["BC"][:, -1].mean() - pen[f"Stagger C={C}"][:, -1].mean()) for C in (1, 4)}
rows = [
    ("Stagger beats BC, low recovery cost", "cliff, recoverable, B=60, C=1", "yes (proved; no number)",
     f"J_BC - J_Stagger = {gap[1]:.2f}"),
    ("... not when recovery is impossible", "cliff, absorbing, B=60, C=1", "(mu large: no guarantee)",
     f"J_BC - J_Stagger = {gap_abs:.2f}"),
    ("advantage falls with C", "cliff, recoverable, B=60", "implied by the bounds",
     f"gap C=1: {gap[1]:.2f}, C=2: {gap[2]:.2f}, C=4: {gap[4]:.2f}"),
    ("interactive beats BC on MuJoCo", f"InvertedPendulum-v5, B={Bmax}, C=1", "consistently (no number found)",
     f"J_BC - J_Stagger = {pen_gap[1]:.1f} steps"),
    ("... at a large cost ratio", f"InvertedPendulum-v5, B={Bmax}, C=4", "not claimed", f"J_BC - J_Stagger = {pen_gap[4]:.1f} steps"),
]
w = [max(len(r[i]) for r in rows) for i in range(4)]
head = ("statement", "setting", "paper", "ours")
print("  ".join(h.ljust(w[i]) for i, h in enumerate(head)))
for r in rows:
    print("  ".join(c.ljust(w[i]) for i, c in enumerate(r)))

# %% [markdown]
# ## Claims
#
# The tabular costs are exact given the sampled data (dynamic programming), so their values repeat to
# rounding; the pendulum's come from roll-outs of an unstable system, in which a last-digit change of the
# ridge solve can move a failure by a step: they carry a tolerance.

# %%
PENDULUM_TOL = tolerance(rel=0.05, abs=1.0, why="closed-loop MuJoCo roll-outs of an unstable system: a last-digit "
                         "change in the ridge solve can move the step at which a pole falls")
claims.check("stagger-beats-bc-cliff",
             statement=f"Recoverable cliff, C = 1, B = {B_CLAIM}: mean cost of BC minus mean cost of Stagger "
                       f"({P.R} replicates)",
             paper="Stagger provably beats BC when the recovery cost is low (abstract; no number)",
             criterion=at_least(0.0), measured=gap[1], control=gap_abs,
             control_label="the same difference on the absorbing cliff (recovery impossible)")

excess = {m: max(mean("recoverable", m, B) - min(mean("recoverable", "BC", B), mean("recoverable", "Stagger C=1", B))
                 for B in B_WARM) for m in ("Warm-Stagger C=1", "BC", "Stagger C=1")}
claims.check("warm-stagger-near-best-cliff",
             statement=f"Recoverable cliff, C = 1: largest excess over B in {list(B_WARM)} of Warm-Stagger's mean cost "
                       "over the better of BC and Stagger at the same budget",
             paper="Warm-Stagger's guarantee is not much worse than either source alone (abstract; no number)",
             criterion=at_most(SLACK), measured=excess["Warm-Stagger C=1"],
             control=max(excess["BC"], excess["Stagger C=1"]),
             control_label="a single source fixed in advance (the worse of BC and Stagger on this grid)")

claims.check("advantage-shrinks-with-cost-ratio",
             statement=f"Recoverable cliff, B = {B_CLAIM}: (J_BC - J_Stagger) at C = 4 minus the same at C = 1",
             paper="BC's bound carries the cost ratio, Stagger's does not (interactive labels cost C each)",
             criterion=less_than(0.0), measured=gap[4] - gap[1], control=0.0,
             control_label="Stagger not charged the ratio (C = 4 priced as C = 1: difference 0)")

claims.check("pendulum-stagger-beats-bc",
             statement=f"InvertedPendulum-v5, C = 1, B = {Bmax}: mean cost of BC minus mean cost of Stagger "
                       f"({P.R_pen} replicates x {P.episodes} episodes)",
             paper="with a modest cost ratio, interactive and hybrid methods consistently beat BC on MuJoCo (abstract)",
             criterion=at_least(0.0), measured=pen_gap[1], control=pen_gap[4],
             control_label="the same at C = 4 (Stagger buys a quarter of the labels)", tol=PENDULUM_TOL)

pen_excess = {m: float(max(pen[m][:, i].mean() - min(pen["BC"][:, i].mean(), pen["Stagger C=1"][:, i].mean())
                           for i in range(len(pb)))) for m in ("Warm-Stagger C=1", "BC", "Stagger C=1")}
claims.check("pendulum-warm-stagger-near-best",
             statement=f"InvertedPendulum-v5, C = 1: largest excess over B in {list(pb)} of Warm-Stagger's mean cost over "
                       "the better of BC and Stagger",
             paper="Warm-Stagger not much worse than either source; hybrid beats BC on MuJoCo (abstract)",
             criterion=at_most(0.05 * PEN["horizon"]), measured=pen_excess["Warm-Stagger C=1"],
             control=max(pen_excess["BC"], pen_excess["Stagger C=1"]),
             control_label="a single source fixed in advance (the worse of BC and Stagger)", tol=PENDULUM_TOL)

eps_bc = tab["absorbing"]["BC eps"]
dp_gap = float(np.max(np.abs(K.cliff_expected_cost(eps_bc, H) - tab["absorbing"]["BC"])))
claims.check("cliff-expected-cost-matches-dp",
             statement="On the absorbing cliff, every BC learner's exact cost equals cliff_expected_cost of its "
                       "per-step error (largest absolute difference)",
             paper="compounding error: a learner that never recovers pays about eps H^2 / 2",
             criterion=at_most(1e-9), measured=dp_gap, kind="implementation")

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Partly reproduced, and mostly not on the tabular cliff.** Numbers below are from the ci run (seed 0);
# the full-scale run (1000 replicates, budgets to 120 on the cliff and 80 on the pendulum) gives the same
# statuses, and the robustness table shows how they hold across seeds. Over the 10 ci seeds every status
# is the same at every seed: claims 3 and 5 hold at all 10; claim 1 fails at all 10 (BC ahead by 1.2 to
# 2.0 steps at $B=60$), claim 2 at all 10 (excess 2.1 to 2.7 steps against 1.5 allowed), and claim 4 is
# uninformative at all 10.
#
# * **Stagger against BC on the cliff (claim 1): not reproduced.** On the recoverable cliff at $C=1$ BC is
#   ahead at every budget we ran, by $\bar J_\text{BC}-\bar J_\text{Stagger}=-1.2$ steps at $B=60$ (3.1 against
#   4.3). The control behaves as expected, far worse: on the absorbing cliff Stagger stays near the
#   maximum cost (29.2 against BC's 9.4), because every label it takes after a fall lands on a trap.
#   Why BC wins here, as far as we can tell: in our cliff the expert's path states are drawn afresh at every
#   step, so BC trains on exactly the states the learner meets while it stays on the path, and its only
#   blind spot is recovery. An untrained recovery succeeds with probability 1/3 per step, so an error costs
#   BC about $1+3=4$ steps against 2 for a learner that knows how to climb back: recovery knowledge is worth
#   at most a factor 2 here. Stagger pays for that knowledge twice: its first roll-outs are of a random
#   policy that spends most of its time off the path (a cold start), and its labels are spread over 40
#   states instead of BC's 20. The exploratory sweep (last figure, right) shows that sharing the fallen
#   states, so that fewer recoveries must be learnt, narrows the gap without reversing it. The paper's
#   result compares upper bounds under a recoverability condition; our MDP satisfies that condition, but it
#   is not the paper's example, and in it BC's compounding error is mild. At full scale, with budgets to
#   120, Stagger's curve closes in on BC's as both approach zero cost, and Warm-Stagger's runs on BC's from
#   $B\approx60$ on.
# * **Warm-Stagger near the better source on the cliff (claim 2): not reproduced at equal cost.** Its
#   largest excess over the better of BC and Stagger is 2.45 steps, at $B=20$ (18.5 against BC's 16.0), above
#   the 1.5 allowed; at $B=40$ and $60$ it is within 0.4 and 0.1 of BC, so the offline start does cure
#   Stagger's cold start. At equal cost it spends 80% of the budget on interactive labels, which in this MDP
#   are worth less than offline ones. The paper's guarantee may compare Warm-Stagger with each source given
#   its own share of the data rather than the whole budget; we tested the brief's equal-cost reading. On
#   the absorbing cliff, where Stagger is useless, Warm-Stagger with 20% offline labels is far worse than BC
#   (27.1 against 9.4 at $B=60$).
# * **The advantage shrinks with the cost ratio (claim 3): reproduced**, as it must: BC does not pay the
#   ratio, Stagger does, and its gap to BC at $B=60$ falls from $-1.2$ at $C=1$ to $-18.6$ at $C=4$. The
#   control (Stagger not charged the ratio) cannot shrink; the claim is close to an accounting identity.
# * **Interactive beats BC on the pendulum (claim 4): holds, but uninformative.** Stagger reaches zero cost
#   (the pole never falls in 100 steps) from 10 labels on; BC still loses 12.5 steps per episode at
#   $B=40$. The control, $C=4$, passes too: at $B=40$ Stagger's 10 labels already suffice. The reason is not
#   the one the paper stresses (learning to correct compounding errors) but the conditioning of the fit:
#   a linear learner needs only a few states that excite every direction, and the learner's own roll-outs,
#   which stray far from upright, supply them, while the expert's states stay within a few hundredths of
#   upright, where the ridge penalty shrinks the fitted gain below what stabilises the pole.
# * **Warm-Stagger on the pendulum (claim 5): reproduced.** It costs 0 at every budget, while committing to
#   one source in advance would have cost up to 47.5 steps (BC at $B=10$).
# * **Per-state counting (no claim).** At equal numbers of labels, DAgger's whole-trajectory rounds are far
#   worse than Stagger's one label per round on the recoverable cliff (14.3 against 4.3 at $B=60$): the
#   paper's premise that state-wise interaction spends labels better holds in our miniature.
# * The implementation check confirms that the DP cost of every BC learner on the absorbing cliff equals
#   `cliff_expected_cost` of its per-step error (the figure of compounding errors).
#
# ## What the miniature cannot show
#
# * The paper's theorems (their constants, the online learner they assume, the $\log B$ factors, the exact
#   recoverability condition) and its own MDP example, which we could not read; whether some natural
#   tabular MDP with low recovery cost lets Stagger beat BC by a wide margin is left open by our runs.
# * Locomotion tasks with neural-network experts and learners, long horizons, and the cost ratios of the
#   paper's experiments; with a linear learner and an LQR expert the pendulum is too easy to separate
#   moderate from large cost ratios.
# * A cost ratio that depends on the state, noisy or suboptimal experts, and annotation costs that are not
#   linear in the number of labels.
