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
import functools

import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, less_than, tolerance
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
LAM0 = 1e-6                           # the BC baseline's penalty: least squares, up to a numerical jitter
rng = P.rng
rng_cmp = np.random.default_rng([seed, 11])   # the comparators' own stream: the methods' draws are those of the first run
rng_dag = np.random.default_rng([seed, 13])   # DAgger with an expert first round (added after the review), its own stream

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
# * **DAgger** (a baseline) labels every state of each roll-out, $H$ labels per round. We run it in two forms:
#   *started cold*, whose first round, like Stagger's, rolls out the untrained (uniformly random) learner, and
#   the *textbook* form ($\beta_1=1$), whose first round rolls out the expert.
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
# **Tests, fixed before the first run** (the brief's checks, written for costs, lower is better; their
# settings and criteria are unchanged, and the comparators below were added with the claim model):
#
# 1. *Stagger beats BC* (recoverable cliff, $C=1$, $B=60$): $\bar J_\text{BC}-\bar J_\text{Stagger}\ge0$.
#    The ingredient is that the learner chooses where it is labelled (a state of its own roll-out). Ablation:
#    the same one label per round, taken at a uniformly drawn step of a fresh *expert* roll-out. Naive
#    baselines: a passive design that labels states drawn uniformly from all 40 states (it needs a reset
#    anywhere, which a skeptic with a simulator has), and DAgger (the learner's whole roll-out labelled), started
#    cold and, added after the independent review, in its textbook form with an expert first round. On this
#    cliff the expert's states are i.i.d. uniform over the path, so the ablation is BC in law (BC with other
#    draws): its value says nothing either way about the ingredient, and BC itself is the comparison that counts.
# 2. *Warm-Stagger is never much worse than either source* (recoverable cliff, $C=1$):
#    $\max_{B\in\{20,40,60\}}\big[\bar J_\text{X}-\min(\bar J_\text{BC},\bar J_\text{Stagger})\big]\le0.05H=1.5$.
#    The ingredient is the warm start. Ablation: the same offline labels pooled with a cold Stagger run of the
#    same length, whose roll-outs never saw them. Naive baselines: each single source fixed in advance (BC
#    alone, Stagger alone).
# 3. *Interactive beats BC on MuJoCo at a modest cost ratio* (pendulum, $C=1$, the largest budget):
#    $\bar J_\text{BC}-\bar J_\text{X}\ge0$. Ablation: as in test 1, one label per fresh expert roll-out at a
#    uniformly drawn step. Naive baselines: the expert labels states drawn from the task's start law (no
#    roll-out); and, added after the review, BC on its own data fit by least squares (a ridge of $10^{-6}$, a
#    numerical jitter, by a fixed rule) instead of the tuned $\lambda=0.01$.
# 4. *Warm-Stagger near the better source on MuJoCo* ($C=1$, every pendulum budget): the statistic of test 2,
#    at most $0.05H=5$ steps, with the same comparators and, added after the review, BC alone fit by least
#    squares (ridge $10^{-6}$).
#
# The brief's third check, *the interactive advantage shrinks with the cost ratio*
# ($[\bar J_\text{BC}-\bar J_\text{Stagger}]_{C=4}<[\ldots]_{C=1}$), is an illustration: BC does not pay the
# ratio and Stagger at $C=4$ is the same run stopped at a quarter of the labels, so it holds for any learner
# whose cost falls with its labels. The old controls (the absorbing cliff for test 1, the worse single source
# for tests 2 and 4, $C=4$ for test 3) were other settings, not the method without its ingredient; the
# absorbing cliff and $C=4$ are still shown, not counted. Comparators draw from their own random stream, so the
# methods' data are those of the first run. Every comparator is measured once, at its budget, with no
# setting tuned.
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
#   the equal-cost comparison of tests 2 and 4 is at $C=1$.
# * The brief asked for 10 seeds; we average 100 (1000) tabular and 8 (40) pendulum replicates per run and
#   report the spread across 10 notebook seeds in the robustness table.
# * The pendulum's noise levels (initial states in $[-0.1,0.1]^4$, force noise 0.3) and the ridge penalty
#   $\lambda=0.01$ were chosen by looking at BC's learning curve alone, before any interactive run, so that
#   BC neither fails outright nor succeeds at once on our budgets. The learners of the method (BC, Stagger,
#   Warm-Stagger) all use that $\lambda$. Because it was chosen on BC's curve, the independent review's baseline
#   enters tests 3 and 4: BC on the same data with the penalty replaced by a numerical jitter of $10^{-6}$
#   (unregularised least squares, a fixed rule, not tuned). The brief put MuJoCo at full scale only; we run a
#   small version at ci scale too.
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
    n_ints = [K.labels_for_budget(B, 1, WARM)[1] for B in budgets]
    ks = sorted({K.labels_for_budget(B, C)[1] for B in budgets for C in CS} | {0} | set(n_ints))
    # the cold run's label counts are kept at every checkpoint (the draws do not depend on the checkpoints):
    # the warm start's ablation reuses its prefixes
    _, st, snaps = K.interactive_imitation(mdp, max(ks), P.R, rng, checkpoints=ks, keep_counts=True)
    for C in CS:  # Stagger's labels are nested: its cost at budget B and ratio C is its cost after floor(B/C) labels
        res[f"Stagger C={C}"] = st[:, [ks.index(K.labels_for_budget(B, C)[1]) for B in budgets]]
    warm, dag, w0s = [], [], []
    for B in budgets:
        n_off, n_int = K.labels_for_budget(B, 1, WARM)
        w0 = K.expert_state_counts(mdp, n_off, P.R, rng)
        w0s.append(w0)
        warm.append(K.interactive_imitation(mdp, n_int, P.R, rng, warm_counts=w0)[1][:, 0])
        dag.append(K.interactive_imitation(mdp, int(B), P.R, rng, per_round="trajectory")[1][:, 0])
    res["Warm-Stagger C=1"] = np.stack(warm, 1)
    res["DAgger C=1"] = np.stack(dag, 1)
    # comparators (added with the claim model, on their own random stream):
    # the ablation of Stagger's ingredient: its one label per round taken on a fresh *expert* roll-out
    # (each drawn once for the largest budget; a budget takes its first B labels, as BC's are nested)
    Bm = int(budgets.max())
    pos = np.arange(Bm)
    lab_e = K.expert_step_counts(mdp, 1, P.R * Bm, rng_cmp).reshape(P.R, Bm, mdp.n_states, N_ACT)
    res["Stagger on expert roll-outs C=1"] = np.stack(
        [K.expected_cost(mdp, K.majority_vote_policy(lab_e[:, pos < B].sum(1))) for B in budgets], 1)
    # a naive passive design: B labels at states drawn uniformly from all states (reset anywhere)
    lab_u = K.uniform_state_counts(mdp, 1, P.R * Bm, rng_cmp).reshape(P.R, Bm, mdp.n_states, N_ACT)
    res["uniform states C=1"] = np.stack(
        [K.expected_cost(mdp, K.majority_vote_policy(lab_u[:, pos < B].sum(1))) for B in budgets], 1)
    # the ablation of Warm-Stagger's warm start: the same offline labels, pooled with the cold Stagger run's
    # first n_int labels (its roll-outs never saw the offline labels)
    res["cold Stagger + offline C=1"] = np.stack(
        [K.expected_cost(mdp, K.majority_vote_policy(w0 + snaps[ks.index(n)])) for n, w0 in zip(n_ints, w0s)], 1)
    # textbook DAgger (beta_1 = 1, a baseline added after the review): its first round labels the H states of an
    # expert roll-out, every later round the whole roll-out of the learner trained so far (the page's DAgger above
    # starts cold: its first round rolls out the untrained, uniformly random learner)
    dag_e = []
    for B in budgets:
        n_first = min(H, int(B))
        w_e = K.expert_state_counts(mdp, n_first, P.R, rng_dag)
        dag_e.append(K.interactive_imitation(mdp, int(B) - n_first, P.R, rng_dag, warm_counts=w_e,
                                             per_round="trajectory")[1][:, 0])
    res["DAgger, expert first round C=1"] = np.stack(dag_e, 1)
    tab[name] = res


STYLE_ORDER = ("BC", "Stagger C=1", "Stagger C=2", "Stagger C=4", "Warm-Stagger C=1", "DAgger C=1",
               "DAgger, expert first round C=1",
               "Stagger on expert roll-outs C=1", "uniform states C=1", "cold Stagger + offline C=1")


def mean(name, method, B):
    return float(tab[name][method][:, list(budgets).index(B)].mean())


for name in mdps:
    print(f"{name} cliff, mean cost by budget:")
    print("  B:" + " " * 29 + " ".join(f"{int(B):6d}" for B in budgets))
    for m in STYLE_ORDER:
        print(f"  {m:31s}" + " ".join(f"{mean(name, m, B):6.2f}" for B in budgets))

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
    return _pen_eval(w.tobytes(), w.shape)


@functools.lru_cache(maxsize=None)
def _pen_eval(wb, shape):  # the same weights on the same episodes give the same cost: evaluate them once
    w = np.frombuffer(wb).reshape(shape)
    return K.pendulum_cost(env, w, P.episodes, PEN["horizon"], PEN["x0_scale"], PEN["action_noise"],
                           np.random.default_rng([seed, 7]))


expert_cost = float(pen_eval(np.tile(-K_lqr[0], (1, 1)))[0])
Xb, yb = K.pendulum_bc_data(env, K_lqr, Bmax, P.R_pen, PEN["horizon"], PEN["x0_scale"], PEN["action_noise"], rng)
Xs, ys = K.pendulum_stagger(env, K_lqr, Bmax, P.R_pen, PEN["horizon"], PEN["x0_scale"], PEN["action_noise"], LAM, rng)
# comparators, on their own stream: Stagger's one label per round on fresh expert roll-outs (the ablation), and
# expert labels at states drawn from the task's start law (a passive design); both nested in the budget like BC's
Xe, ye = K.pendulum_expert_step_data(env, K_lqr, Bmax, P.R_pen, PEN["horizon"], PEN["x0_scale"], PEN["action_noise"],
                                     rng_cmp)
Xu, yu = K.pendulum_start_state_data(K_lqr, Bmax, P.R_pen, PEN["x0_scale"], rng_cmp)
pen = {"BC": [], "BC, lambda = 1e-6": [], "Stagger C=1": [], "Stagger C=4": [], "Warm-Stagger C=1": [], "Stagger on expert roll-outs C=1": [],
       "start-state design C=1": [], "cold Stagger + offline C=1": []}
for B in progress(pb, desc="pendulum budgets"):
    pen["BC"].append(pen_eval(K.ridge_fit(Xb[:, :B], yb[:, :B], LAM)))  # BC's labels are nested too
    # a baseline added after the review: BC's own data, fit without the tuned penalty (least squares, jitter 1e-6)
    pen["BC, lambda = 1e-6"].append(pen_eval(K.ridge_fit(Xb[:, :B], yb[:, :B], LAM0)))
    for C in (1, 4):
        n = K.labels_for_budget(B, C)[1]
        pen[f"Stagger C={C}"].append(pen_eval(K.ridge_fit(Xs[:, :n], ys[:, :n], LAM)))
    n_off, n_int = K.labels_for_budget(B, 1, WARM)
    w0 = K.pendulum_bc_data(env, K_lqr, n_off, P.R_pen, PEN["horizon"], PEN["x0_scale"], PEN["action_noise"], rng)
    Xw, yw = K.pendulum_stagger(env, K_lqr, n_int, P.R_pen, PEN["horizon"], PEN["x0_scale"], PEN["action_noise"],
                                LAM, rng, warm=w0)
    pen["Warm-Stagger C=1"].append(pen_eval(K.ridge_fit(Xw, yw, LAM)))
    pen["Stagger on expert roll-outs C=1"].append(pen_eval(K.ridge_fit(Xe[:, :B], ye[:, :B], LAM)))
    pen["start-state design C=1"].append(pen_eval(K.ridge_fit(Xu[:, :B], yu[:, :B], LAM)))
    # the warm start's ablation: the same offline labels pooled with cold Stagger's first n_int labels
    pen["cold Stagger + offline C=1"].append(pen_eval(K.ridge_fit(np.concatenate([w0[0], Xs[:, :n_int]], 1),
                                                                  np.concatenate([w0[1], ys[:, :n_int]], 1), LAM)))
pen = {k: np.stack(v, 1) for k, v in pen.items()}  # (R_pen, budgets)
print(f"expert cost {expert_cost:g}; mean cost (steps of {PEN['horizon']}) by budget:")
print("  B:" + " " * 29 + " ".join(f"{int(B):6d}" for B in pb))
for k, v in pen.items():
    print(f"  {k:31s}" + " ".join(f"{x:6.1f}" for x in v.mean(0)))

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
print("BC - Stagger at B = 60 by number of fallen states:",
      {m: round(float(g), 2) for m, g in zip(N_FALLEN, sweep_gap[:, 0])})

# %% [markdown]
# ## Results
#
# ### Learning curves on the cliff
#
# Mean cost over the replicates against the annotation budget, with a band of two standard errors. Left:
# the recoverable cliff; right: the absorbing one. Stagger is drawn at the three cost ratios; the comparators
# of the tests (one label per expert roll-out, orange dashed; uniformly drawn states, purple dotted; the offline
# labels pooled with a cold Stagger run, red dashed; DAgger started cold, green dash-dotted, and the textbook
# DAgger with an expert first round, green dotted) at $C=1$.

# %%
STYLE = {"BC": ("k", "-"), "Stagger C=1": ("C0", "-"), "Stagger C=2": ("C0", "--"), "Stagger C=4": ("C0", ":"),
         "Warm-Stagger C=1": ("C3", "-"), "DAgger C=1": ("C2", "-."),
         "DAgger, expert first round C=1": ("C2", ":"), "BC, lambda = 1e-6": ("0.5", "--"), "Stagger on expert roll-outs C=1": ("C1", "--"),
         "uniform states C=1": ("C4", ":"), "start-state design C=1": ("C4", ":"),
         "cold Stagger + offline C=1": ("C3", "--")}


def band(ax, x, Y, label):
    m, se = Y.mean(0), Y.std(0) / np.sqrt(Y.shape[0])
    color, ls = STYLE[label]
    ax.plot(x, m, color=color, ls=ls, marker="o", ms=3, label=label)
    ax.fill_between(x, m - 2 * se, m + 2 * se, color=color, alpha=0.15)


fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
for ax, name in zip(axes, mdps):
    for method in STYLE_ORDER:
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
# replicates; the LQR expert costs {glue:text}`expert_cost:.0f` on these episodes. The comparators of the tests
# are drawn as on the cliff (the passive design here labels states from the start law); BC's data fit by least
# squares instead of the tuned penalty is grey dashed.

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
LABEL = {
    "ablation": "Stagger's one label per round taken on a fresh expert roll-out instead of the learner's",
    "uniform": "a passive design: the expert labels states drawn uniformly from all 40 states (reset anywhere)",
    "dagger": "DAgger started cold: every state of each learner roll-out labelled (H labels per round), the first "
              "round a roll-out of the untrained (uniformly random) learner",
    "dagger_e": "textbook DAgger (beta_1 = 1): the first round labels an expert roll-out (H labels), each later "
                "round every state of the learner's roll-out",
    "bc0": "BC on the same single expert roll-out, fit by least squares (ridge 1e-6, a numerical jitter) instead "
           "of the tuned lambda = 0.01",
    "cold": "the same offline labels pooled with a cold Stagger run of the same length (no warm start)",
    "bc": "BC alone, the whole budget on offline labels (a single source fixed in advance)",
    "stagger": "Stagger alone, the whole budget on interactive labels (a single source fixed in advance)",
    "start": "a passive design: the expert labels states drawn from the task's start law (no roll-out)",
}
ING_STAGGER = "the learner choosing the labelled state (its own roll-outs)"
ING_WARM = "the warm start (interactive roll-outs of the learner trained on the offline labels)"

claims.headline(
    "stagger-beats-bc",
    "With annotation cost counted per state, Stagger (one expert label per round, at a state of the learner's own "
    "roll-out) beats behaviour cloning when the expert recovers cheaply from mistakes (small recovery cost mu). "
    "Tested: the direction, on our recoverable cliff; the bound itself (its constants, log B factors, online "
    "learner) is not available to us",
    tests=["stagger-beats-bc-cliff"])
claims.headline(
    "warm-stagger-near-best",
    "Warm-Stagger, Stagger started from offline demonstrations, is not much worse than either source alone",
    tests=["warm-stagger-near-best-cliff", "pendulum-warm-stagger-near-best"])
claims.headline(
    "warm-stagger-constructed-mdp",
    "On a constructed MDP (compounding errors for BC, a cold start for Stagger) Warm-Stagger is much better than both",
    untestable="the paper's MDP example was not available to us (we hold the abstract and a secondary summary); "
               "our cliff is not that MDP, and building one so that Warm-Stagger wins would test our construction")
claims.headline(
    "mujoco-interactive-beats-bc",
    "On MuJoCo control tasks, with a modest cost ratio between interactive and offline labels, interactive and "
    "hybrid learners consistently beat BC. Tested: the inverted pendulum with an LQR expert and a linear learner, "
    "not the paper's locomotion tasks",
    tests=["pendulum-stagger-beats-bc"])

gap_cmp = {m: mean("recoverable", "BC", B_CLAIM) - mean("recoverable", m, B_CLAIM)
           for m in ("Stagger on expert roll-outs C=1", "uniform states C=1", "DAgger C=1",
                     "DAgger, expert first round C=1")}
claims.test("stagger-beats-bc-cliff",
            statement=f"Recoverable cliff, C = 1, B = {B_CLAIM}: mean cost of BC minus mean cost of Stagger "
                      f"({P.R} replicates)",
            paper="Stagger provably beats BC when the recovery cost is low (abstract; no number)",
            criterion=at_least(0.0), measured=gap[1],
            ablation=Comparator(LABEL["ablation"], gap_cmp["Stagger on expert roll-outs C=1"], ingredient=ING_STAGGER),
            baselines=[Comparator(LABEL["uniform"], gap_cmp["uniform states C=1"]),
                       Comparator(LABEL["dagger"], gap_cmp["DAgger C=1"]),
                       Comparator(LABEL["dagger_e"], gap_cmp["DAgger, expert first round C=1"])])

WARM_SOURCES = ("Warm-Stagger C=1", "cold Stagger + offline C=1", "BC", "Stagger C=1")
excess = {m: max(mean("recoverable", m, B) - min(mean("recoverable", "BC", B), mean("recoverable", "Stagger C=1", B))
                 for B in B_WARM) for m in WARM_SOURCES}
claims.test("warm-stagger-near-best-cliff",
            statement=f"Recoverable cliff, C = 1: largest excess over B in {list(B_WARM)} of the learner's mean cost "
                      "over the better of BC and Stagger at the same budget",
            paper="Warm-Stagger's guarantee is not much worse than either source alone (abstract; no number)",
            criterion=at_most(SLACK), measured=excess["Warm-Stagger C=1"],
            ablation=Comparator(LABEL["cold"], excess["cold Stagger + offline C=1"], ingredient=ING_WARM),
            baselines=[Comparator(LABEL["bc"], excess["BC"]), Comparator(LABEL["stagger"], excess["Stagger C=1"])])

claims.illustrate("advantage-shrinks-with-cost-ratio",
                  statement=f"Recoverable cliff, B = {B_CLAIM}: (J_BC - J_Stagger) at C = 4 minus the same at C = 1",
                  paper="BC's bound carries the cost ratio, Stagger's does not (interactive labels cost C each)",
                  criterion=less_than(0.0), measured=gap[4] - gap[1],
                  why="follows from the pricing: BC does not pay the ratio, and Stagger at C = 4 is the same nested "
                      "run stopped after a quarter of the labels, so the difference is the drop of Stagger's own "
                      "learning curve between 15 and 60 labels; any learner whose cost falls with its labels passes")

pen_cmp = {m: float(pen["BC"][:, -1].mean() - pen[m][:, -1].mean())
           for m in ("Stagger on expert roll-outs C=1", "start-state design C=1", "BC, lambda = 1e-6")}
claims.test("pendulum-stagger-beats-bc",
            statement=f"InvertedPendulum-v5, C = 1, B = {Bmax}: mean cost of BC minus mean cost of the learner "
                      f"({P.R_pen} replicates x {P.episodes} episodes)",
            paper="with a modest cost ratio, interactive and hybrid methods consistently beat BC on MuJoCo (abstract)",
            criterion=at_least(0.0), measured=pen_gap[1],
            ablation=Comparator(LABEL["ablation"], pen_cmp["Stagger on expert roll-outs C=1"], ingredient=ING_STAGGER),
            baselines=[Comparator(LABEL["start"], pen_cmp["start-state design C=1"]),
                       Comparator(LABEL["bc0"], pen_cmp["BC, lambda = 1e-6"])], tol=PENDULUM_TOL)

pen_excess = {m: float(max(pen[m][:, i].mean() - min(pen["BC"][:, i].mean(), pen["Stagger C=1"][:, i].mean())
                           for i in range(len(pb)))) for m in WARM_SOURCES + ("BC, lambda = 1e-6",)}
claims.test("pendulum-warm-stagger-near-best",
            statement=f"InvertedPendulum-v5, C = 1: largest excess over B in {[int(b) for b in pb]} of the learner's mean cost "
                      "over the better of BC and Stagger",
            paper="Warm-Stagger not much worse than either source; hybrid beats BC on MuJoCo (abstract)",
            criterion=at_most(0.05 * PEN["horizon"]), measured=pen_excess["Warm-Stagger C=1"],
            ablation=Comparator(LABEL["cold"], pen_excess["cold Stagger + offline C=1"], ingredient=ING_WARM),
            baselines=[Comparator(LABEL["bc"], pen_excess["BC"]), Comparator(LABEL["stagger"], pen_excess["Stagger C=1"]),
                       Comparator(LABEL["bc0"] + " (BC alone, at that penalty)", pen_excess["BC, lambda = 1e-6"])],
            tol=PENDULUM_TOL)

eps_bc = tab["absorbing"]["BC eps"]
dp_gap = float(np.max(np.abs(K.cliff_expected_cost(eps_bc, H) - tab["absorbing"]["BC"])))
claims.check("cliff-expected-cost-matches-dp",
             statement="On the absorbing cliff, every BC learner's exact cost equals cliff_expected_cost of its "
                       "per-step error (largest absolute difference)",
             paper="compounding error: a learner that never recovers pays about eps H^2 / 2",
             criterion=at_most(1e-9), measured=dp_gap, kind="implementation")

# numbers of the prose (glued, never typed)
gl = {"B_claim": B_CLAIM, "R": P.R, "R_pen": P.R_pen, "episodes": P.episodes, "Bmax": Bmax, "slack": SLACK,
      "pen_slack": 0.05 * PEN["horizon"], "warm_pct": 100 * WARM,
      "gap1": gap[1], "gap2": gap[2], "gap4": gap[4], "gap_abs": gap_abs, "shrink": gap[4] - gap[1],
      "gap_abl": gap_cmp["Stagger on expert roll-outs C=1"], "gap_unif": gap_cmp["uniform states C=1"],
      "gap_dagger": gap_cmp["DAgger C=1"], "gap_dagger_e": gap_cmp["DAgger, expert first round C=1"],
      "ex_warm": excess["Warm-Stagger C=1"], "ex_cold": excess["cold Stagger + offline C=1"], "ex_bc": excess["BC"],
      "ex_st": excess["Stagger C=1"],
      "pgap1": pen_gap[1], "pgap4": pen_gap[4], "pgap_abl": pen_cmp["Stagger on expert roll-outs C=1"],
      "pgap_start": pen_cmp["start-state design C=1"], "pgap_bc0": pen_cmp["BC, lambda = 1e-6"],
      "pex_bc0": pen_excess["BC, lambda = 1e-6"], "lam0": LAM0, "lam": LAM,
      "pex_warm": pen_excess["Warm-Stagger C=1"], "pex_cold": pen_excess["cold Stagger + offline C=1"],
      "pex_bc": pen_excess["BC"], "pex_st": pen_excess["Stagger C=1"], "expert_cost": expert_cost,
      "sweep_min": float(sweep_gap[:, 0].min()), "sweep_max": float(sweep_gap[:, 0].max())}
for name in ("recoverable", "absorbing"):
    k = name[:3]
    for m, short in (("BC", "bc"), ("Stagger C=1", "st"), ("Warm-Stagger C=1", "warm"), ("DAgger C=1", "dag"),
                     ("DAgger, expert first round C=1", "dage"),
                     ("Stagger on expert roll-outs C=1", "abl"), ("uniform states C=1", "unif"),
                     ("cold Stagger + offline C=1", "cold")):
        gl[f"{k}_{short}_60"] = mean(name, m, B_CLAIM)
for B in B_WARM:
    for m, short in (("BC", "bc"), ("Stagger C=1", "st"), ("Warm-Stagger C=1", "warm"), ("cold Stagger + offline C=1", "cold")):
        gl[f"rec_{short}_{B}"] = mean("recoverable", m, B)
for i, B in enumerate(pb):
    for m, short in (("BC", "bc"), ("Stagger C=1", "st"), ("Stagger C=4", "st4"), ("Stagger on expert roll-outs C=1", "abl"),
                     ("start-state design C=1", "start"), ("cold Stagger + offline C=1", "cold"), ("Warm-Stagger C=1", "warm"),
                     ("BC, lambda = 1e-6", "bc0")):
        gl[f"pen_{short}_{int(B)}"] = float(pen[m][:, i].mean())
        if B == Bmax:
            gl[f"pen_{short}_max"] = float(pen[m][:, i].mean())
for key, v in gl.items():
    glue(key, v, display=False)

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# Four tests are counted, all pre-registered: their settings and criteria are those of the first run, and each
# gained an ablation (the method without the ingredient the test is about) and naive baselines, measured the
# same way. Values below are from seed 0 at ci scale; the judged table gives the other seeds.
#
# * *Stagger beats BC on the cliff* ({repro-status}`stagger-beats-bc-cliff`). On the recoverable cliff at $C=1$
#   and $B=$ {glue:text}`B_claim`, $\bar J_\text{BC}-\bar J_\text{Stagger}=$ {glue:text}`gap1:.2f` steps
#   (BC {glue:text}`rec_bc_60:.2f`, Stagger {glue:text}`rec_st_60:.2f`): BC is ahead, and Stagger passes at
#   {repro-seeds}`stagger-beats-bc-cliff:method:pass` seeds of the ci sweep. Its ablation, one label per round on
#   the expert's roll-outs, scores {glue:text}`gap_abl:.2f` and passes at
#   {repro-seeds}`stagger-beats-bc-cliff:ablation:pass` seeds; on this cliff the expert's states are i.i.d. over
#   the path, so the ablation is BC in law, with other draws: its sign is noise and is no evidence either way.
#   The passive uniform design scores {glue:text}`gap_unif:.2f`, DAgger started cold {glue:text}`gap_dagger:.2f`,
#   and the textbook DAgger with an expert first round {glue:text}`gap_dagger_e:.2f` (it passes at
#   {repro-seeds}`stagger-beats-bc-cliff:baseline3:pass` seeds). Why BC wins here, as far as we can tell: BC trains on exactly the states the
#   learner meets while it stays on the path, and its only blind spot is recovery; an untrained recovery
#   succeeds with probability 1/3 per step, so recovery knowledge is worth at most a factor 2 on the cost of an
#   error. Stagger pays for it twice: its first roll-outs are of a random policy that spends most of its time
#   off the path (a cold start), and its labels are spread over 40 states instead of BC's 20. Sharing the fallen
#   states (the exploratory sweep, last figure, right) narrows the gap without reversing it
#   (from {glue:text}`sweep_min:.2f` to {glue:text}`sweep_max:.2f`). On the absorbing cliff, where recovery is
#   impossible, the gap is {glue:text}`gap_abs:.2f` (shown, not counted). The paper's result compares upper
#   bounds under a recoverability condition; our MDP satisfies that condition but is not the paper's example.
# * *Warm-Stagger near the better source on the cliff* ({repro-status}`warm-stagger-near-best-cliff`). Its largest
#   excess over the better of BC and Stagger is {glue:text}`ex_warm:.2f` steps (allowed: {glue:text}`slack:.1f`),
#   at $B=20$, where it costs {glue:text}`rec_warm_20:.2f` against BC's {glue:text}`rec_bc_20:.2f`; at $B=40$ and
#   $60$ it is at {glue:text}`rec_warm_40:.2f` and {glue:text}`rec_warm_60:.2f` against BC's
#   {glue:text}`rec_bc_40:.2f` and {glue:text}`rec_bc_60:.2f`. The method passes at
#   {repro-seeds}`warm-stagger-near-best-cliff:method:pass` seeds. At this seed the warm start helps: without it
#   (the same offline labels pooled with a cold Stagger run) the excess is {glue:text}`ex_cold:.2f`, and the
#   pooled learner costs {glue:text}`rec_cold_60:.2f` at $B=60$ against Warm-Stagger's
#   {glue:text}`rec_warm_60:.2f`. But BC alone, committed to in advance, has excess {glue:text}`ex_bc:.2f` (it is
#   the better source at every budget here) and passes at
#   {repro-seeds}`warm-stagger-near-best-cliff:baseline1:pass` seeds, Stagger alone {glue:text}`ex_st:.2f`: even a
#   pass of the method would have been *not specific*, since committing to BC in advance does as well. At equal cost Warm-Stagger
#   spends 80% of the budget on interactive labels, which in this MDP are worth less than offline ones; the
#   paper's guarantee may compare it with each source given its own share of the data, and we tested the brief's
#   equal-cost reading.
# * *Interactive beats BC on the pendulum* ({repro-status}`pendulum-stagger-beats-bc`). At $B=$
#   {glue:text}`Bmax`, $C=1$, Stagger's cost is {glue:text}`pen_st_max:.1f` steps (of 100) against BC's
#   {glue:text}`pen_bc_max:.1f`: a gap of {glue:text}`pgap1:.1f`, passing at
#   {repro-seeds}`pendulum-stagger-beats-bc:method:pass` seeds. The comparators reach the same gap, or nearly: one
#   label per fresh expert roll-out {glue:text}`pgap_abl:.1f`, expert labels at states drawn from the start law,
#   with no roll-out at all, {glue:text}`pgap_start:.1f`, and, decisively, BC's own data fit by least squares
#   (ridge {glue:text}`lam0:.0e` instead of {glue:text}`lam:.2f`) {glue:text}`pgap_bc0:.1f`: that BC costs
#   {glue:text}`pen_bc0_max:.1f` steps at $B=$ {glue:text}`Bmax` (the baseline passes at
#   {repro-seeds}`pendulum-stagger-beats-bc:baseline2:pass` seeds). BC's failure on the pendulum is therefore an
#   artefact of the penalty $\lambda$ = {glue:text}`lam:.2f`, which we chose by looking at BC's learning curve so
#   that BC neither fails outright nor succeeds at once (see the deviations): BC's first $B$ states of one expert
#   roll-out lie within a few hundredths of upright, and on states of such small norm the penalty shrinks the
#   fitted gain below what holds the pole. Without it, the same data fit the linear expert at the test's budget:
#   neither the learner choosing its states nor interaction is needed there. At $C=4$ (not a modest ratio) Stagger's gap at $B=$ {glue:text}`Bmax` is also
#   {glue:text}`pgap4:.1f`.
# * *Warm-Stagger near the better source on the pendulum* ({repro-status}`pendulum-warm-stagger-near-best`). Its
#   largest excess is {glue:text}`pex_warm:.1f` steps (allowed {glue:text}`pen_slack:.0f`), passing at
#   {repro-seeds}`pendulum-warm-stagger-near-best:method:pass` seeds; without the warm start
#   {glue:text}`pex_cold:.1f`, and Stagger alone {glue:text}`pex_st:.1f` (it is the better source at every budget),
#   against BC alone's {glue:text}`pex_bc:.1f`; BC alone fit by least squares has excess {glue:text}`pex_bc0:.1f`
#   (it passes at {repro-seeds}`pendulum-warm-stagger-near-best:baseline3:pass` seeds; its largest excess is at the
#   smallest budget, where it costs {glue:text}`pen_bc0_10:.1f` against Stagger's {glue:text}`pen_st_10:.1f`): most
#   of BC alone's excess is the tuned penalty. Neither the warm start nor the offline labels are needed: the test
#   cannot tell Warm-Stagger from its ablation or from Stagger alone.
# * *The advantage shrinks with the cost ratio* (an illustration, not counted): the gap to BC at $B=60$ falls
#   from {glue:text}`gap1:.2f` at $C=1$ to {glue:text}`gap2:.2f` at $C=2$ and {glue:text}`gap4:.2f` at $C=4$. BC
#   does not pay the ratio and Stagger at $C=4$ is its own run stopped at a quarter of the labels, so this
#   cannot fail for a learner that improves with labels.
# * *Per-state counting* (no claim). At equal numbers of labels on the recoverable cliff at $B=60$, DAgger
#   started cold costs {glue:text}`rec_dag_60:.2f` against Stagger's {glue:text}`rec_st_60:.2f`, but most of that
#   difference is the cold start: its first round spends $H$ of the labels on a roll-out of the random learner.
#   The textbook DAgger, whose first round follows the expert, costs {glue:text}`rec_dage_60:.2f`, close to
#   Stagger. Our miniature does not show that state-wise rounds spend labels better than whole-trajectory ones.
# * The implementation check confirms that the DP cost of every BC learner on the absorbing cliff equals
#   `cliff_expected_cost` of its per-step error (the figure of compounding errors).
#
# **What this says about the paper.** On our cliff the paper's first two statements are not reproduced: BC
# beats Stagger at equal per-state cost, and Warm-Stagger is more than $0.05H$ behind BC at the smallest budget of
# the test. On the pendulum both hold, but not because of the paper's ingredients: BC fails there only at the
# ridge penalty we chose on its own curve, and fit by least squares it does as well as Stagger at the test's
# budget; a passive
# design of states from the start law does as well too, and Stagger alone as well as Warm-Stagger. None of our tests
# separates the paper's method from the naive alternatives in its favour; whether a natural task with low
# recovery cost does is left open by our runs.
#
# ## What a skeptic would try
#
# Reviewed by an independent skeptic (2026-12-07); what they tried is above and below, measured by this notebook at
# seed 0 (their own scripts drew other streams, so their numbers differ a little). They graded the four tests
# sound (the cliff) or very weak (the pendulum), confirmed that the cost-ratio check cannot fail (now an
# illustration), and added two baselines that the page now measures:
#
# * **Fit BC without the tuned penalty** (tests 3 and 4): BC's own single expert roll-out, least squares with a
#   jitter of {glue:text}`lam0:.0e`, costs {glue:text}`pen_bc0_10:.1f`, {glue:text}`pen_bc0_20:.1f` and
#   {glue:text}`pen_bc0_40:.1f` steps at $B=10,20,40$, against {glue:text}`pen_bc_10:.1f`,
#   {glue:text}`pen_bc_20:.1f` and {glue:text}`pen_bc_40:.1f` at $\lambda$ = {glue:text}`lam:.2f` (Stagger
#   {glue:text}`pen_st_10:.1f`, {glue:text}`pen_st_20:.1f`, {glue:text}`pen_st_40:.1f`). The pendulum's BC deficit
#   is the penalty, not the data.
# * **DAgger as the textbook runs it** (test 1), its first round on the expert: {glue:text}`rec_dage_60:.2f` at
#   $B=60$ on the recoverable cliff, against {glue:text}`rec_dag_60:.2f` started cold, Stagger
#   {glue:text}`rec_st_60:.2f` and BC {glue:text}`rec_bc_60:.2f`.
#
# * **Label where the expert goes, one state at a time** (the ablation of tests 1 and 3): on the cliff
#   $\bar J=$ {glue:text}`rec_abl_60:.2f` at $B=60$ (BC {glue:text}`rec_bc_60:.2f`, Stagger
#   {glue:text}`rec_st_60:.2f`); on the pendulum {glue:text}`pen_abl_10:.1f`, {glue:text}`pen_abl_20:.1f` and
#   {glue:text}`pen_abl_40:.1f` steps at $B=10,20,40$ (BC {glue:text}`pen_bc_10:.1f`, {glue:text}`pen_bc_20:.1f`,
#   {glue:text}`pen_bc_40:.1f`): on the pendulum, independent expert roll-outs already fix most of BC's problem.
# * **Label random states** (a simulator that resets anywhere): on the recoverable cliff
#   {glue:text}`rec_unif_60:.2f` at $B=60$, worse than BC because half its labels land on fallen states a
#   good learner rarely visits; on the pendulum, states from the start law give {glue:text}`pen_start_10:.1f`,
#   {glue:text}`pen_start_20:.1f` and {glue:text}`pen_start_40:.1f` steps at $B=10,20,40$.
# * **Pool both sources without the warm start**: on the cliff {glue:text}`rec_cold_20:.2f`,
#   {glue:text}`rec_cold_40:.2f` and {glue:text}`rec_cold_60:.2f` at $B=20,40,60$ (Warm-Stagger
#   {glue:text}`rec_warm_20:.2f`, {glue:text}`rec_warm_40:.2f`, {glue:text}`rec_warm_60:.2f`); on the pendulum
#   {glue:text}`pen_cold_10:.1f`, {glue:text}`pen_cold_20:.1f`, {glue:text}`pen_cold_40:.1f`.
# * **Commit to one source in advance**: BC on the cliff (excess {glue:text}`ex_bc:.2f`), Stagger on the
#   pendulum (excess {glue:text}`pex_st:.1f`); the better source differs between the two tasks, which is the
#   case the paper's hybrid is for, but in each task alone the better single source passes.
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
