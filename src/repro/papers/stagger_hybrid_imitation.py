r"""Interactive and hybrid imitation learning with annotation cost counted per state (Stagger, Warm-Stagger).

Paper map
---------
*Interactive and Hybrid Imitation Learning: Provably Beating Behavior Cloning*, Yichen Li and Chicheng Zhang,
NeurIPS 2025, https://arxiv.org/abs/2412.07057 (no official code found).
Notebook: ``notebooks/stagger-hybrid-imitation.py``.

We read the abstract and secondary summaries only; the algorithms below follow their description
(Stagger: one expert-labelled state per round, sampled from the learner's own roll-out; Warm-Stagger:
the same, started from offline expert demonstrations), with our own choices of learner and MDP.

Notation (paper -> here):

- horizon :math:`H` -> ``horizon`` / ``H``; states :math:`s`, actions :math:`a`; expert :math:`\pi^E` ->
  ``mdp.expert`` (tabular) or :func:`lqr_gain` (MuJoCo);
- cost of a policy :math:`J(\pi)=\mathbb E_\pi[\sum_{t=1}^H c(s_t,a_t)]` (lower is better) ->
  :func:`expected_cost` (exact, by dynamic programming over the tabular MDP);
- offline (BC) annotations :math:`N_\text{off}` at price 1 each, interactive annotations :math:`N_\text{int}`
  at price :math:`C` each -> :func:`annotation_cost`; a total budget :math:`B` -> :func:`labels_for_budget`;
- recovery cost :math:`\mu` (how much the expert loses by recovering from a learner's mistake) -> the
  ``recoverable`` flag of :func:`make_cliff_mdp` (recoverable: one step back to the path; not: absorbing).

Kernels
-------
* :func:`make_cliff_mdp`, :func:`expected_cost`, :func:`state_distributions`, :func:`cliff_expected_cost`
  (the issue's closed case: a learner that errs with probability ``eps`` at every path state and never
  recovers);
* learners and data: :func:`majority_vote_policy` (tabular; uniform on unseen states),
  :func:`expert_state_counts` (BC data), :func:`interactive_imitation` (Stagger / DAgger, cold or warm);
  comparators: :func:`expert_step_counts` (Stagger's sampling on expert roll-outs, the ablation),
  :func:`uniform_state_counts` (a passive random design);
* MuJoCo: :func:`pendulum_step`, :func:`linearize_pendulum`, :func:`lqr_gain`, :func:`pendulum_rollouts`,
  :func:`pendulum_bc_data`, :func:`ridge_fit`, :func:`pendulum_stagger`, :func:`pendulum_cost`;
  comparators :func:`pendulum_expert_step_data` and :func:`pendulum_start_state_data`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from repro.validate import check_int, check_positive

PER_ROUND = ("state", "trajectory")


# =========================================================================== the tabular cliff MDP
@dataclass(frozen=True)
class TabularMDP:
    """A finite-horizon tabular MDP with costs.

    Attributes
    ----------
    P : (S, A, S) transition probabilities ``P[s, a, s']``.
    cost : (S, A) cost of taking ``a`` in ``s`` (in [0, 1]).
    init : (S,) initial state distribution.
    horizon : number of steps ``H``.
    expert : (S,) the expert's (deterministic) action in every state.
    n_path : the states ``0 .. n_path-1`` are the expert's path; the others are off the path.
    """

    P: np.ndarray
    cost: np.ndarray
    init: np.ndarray
    horizon: int
    expert: np.ndarray
    n_path: int

    @property
    def n_states(self) -> int:
        return self.P.shape[0]

    @property
    def n_actions(self) -> int:
        return self.P.shape[1]

    def expert_policy(self) -> np.ndarray:
        """(S, A) one-hot policy of the expert."""
        return np.eye(self.n_actions)[self.expert]


def make_cliff_mdp(n_path: int = 20, n_actions: int = 3, horizon: int = 30, recoverable: bool = True,
                   n_fallen: int | None = None) -> TabularMDP:
    """The cliff MDP: ``n_path`` path states and ``n_fallen`` fallen states beside them (default: one each).

    On path state ``s`` the expert's action ``s mod A`` costs 0 and leads to a path state drawn uniformly
    (so the expert's states are i.i.d. uniform over the path); any other action costs 1 and drops the agent to
    the fallen state ``n_path + (s mod n_fallen)``. Every step in a fallen state costs 1. If ``recoverable``,
    the fallen state ``f``'s recovery action ``(f + 1) mod A`` (the expert's label there) leads back to a
    uniform path state, and the other actions stay put; otherwise the fallen states are absorbing whatever the
    action (the classic cliff of compounding errors) and their expert label ``0`` is useless. With fewer fallen
    states (``n_fallen = 1``: one shared ditch) recovery is learnt from fewer labels.
    """
    n = check_int(n_path, "n_path", least=1)
    A = check_int(n_actions, "n_actions", least=2)
    H = check_int(horizon, "horizon", least=1)
    m = n if n_fallen is None else check_int(n_fallen, "n_fallen", least=1)
    if m > n:
        raise ValueError(f"n_fallen must be at most n_path = {n}; got {m}")
    S = n + m
    P = np.zeros((S, A, S))
    cost = np.zeros((S, A))
    expert = np.concatenate([np.arange(n) % A, (np.arange(n, S) + 1) % A if recoverable else np.zeros(m, dtype=int)])
    for s in range(n):
        for a in range(A):
            if a == expert[s]:
                P[s, a, :n] = 1.0 / n
            else:
                P[s, a, n + s % m] = 1.0
                cost[s, a] = 1.0
    for f in range(n, S):
        cost[f, :] = 1.0
        for a in range(A):
            if recoverable and a == expert[f]:
                P[f, a, :n] = 1.0 / n
            else:
                P[f, a, f] = 1.0
    init = np.zeros(S)
    init[:n] = 1.0 / n
    return TabularMDP(P=P, cost=cost, init=init, horizon=H, expert=expert.astype(int), n_path=n)


def _check_policy(mdp: TabularMDP, policy: ArrayLike) -> np.ndarray:
    pi = np.asarray(policy, dtype=float)
    if pi.ndim < 2 or pi.shape[-2:] != (mdp.n_states, mdp.n_actions):
        raise ValueError(f"policy must have shape (..., {mdp.n_states}, {mdp.n_actions}); got {pi.shape}")
    if not np.all(np.isfinite(pi)) or np.any(pi < 0) or not np.allclose(pi.sum(-1), 1.0, atol=1e-9):
        raise ValueError("policy rows must be probability vectors")
    return pi


def state_distributions(mdp: TabularMDP, policy: ArrayLike) -> np.ndarray:
    """Exact state distributions ``d_t(s)`` of a policy for t = 1..H (forward recursion).

    ``d_1 = init``, ``d_{t+1}(s') = sum_{s,a} d_t(s) pi(a|s) P(s'|s,a)``.

    Parameters
    ----------
    policy : (..., S, A) a batch of stationary stochastic policies.

    Returns
    -------
    (..., H, S)
    """
    pi = _check_policy(mdp, policy)
    batch = pi.shape[:-2]
    T = np.einsum("...sa,sax->...sx", pi, mdp.P)  # (..., S, S): state-to-state kernel under pi
    d = np.broadcast_to(mdp.init, (*batch, mdp.n_states)).copy()
    out = np.empty((*batch, mdp.horizon, mdp.n_states))
    for t in range(mdp.horizon):
        out[..., t, :] = d
        d = np.einsum("...s,...sx->...x", d, T)
    return out


def expected_cost(mdp: TabularMDP, policy: ArrayLike) -> np.ndarray:
    """Exact expected cost ``J(pi) = sum_t E_{d_t}[sum_a pi(a|s) c(s,a)]`` of a batch of policies.

    Parameters
    ----------
    policy : (..., S, A)

    Returns
    -------
    (...) expected total cost over the horizon (0 for the expert, at most ``H``).
    """
    pi = _check_policy(mdp, policy)
    d = state_distributions(mdp, pi)  # (..., H, S)
    c = (pi * mdp.cost).sum(-1)  # (..., S)
    return np.einsum("...ts,...s->...", d, c)


def cliff_expected_cost(eps: ArrayLike, H: int) -> np.ndarray | float:
    """Exact expected cost, by dynamic programming, of a learner that errs w.p. ``eps`` and never recovers.

    The learner starts on the expert's path; at every step on the path it errs independently with
    probability ``eps``; from its first error on (the step of the error included) it pays 1 per step until
    the horizon ``H``. With ``V_h`` the expected cost with ``h`` steps to go while still on the path,
    ``V_0 = 0`` and ``V_h = eps * h + (1 - eps) * V_{h-1}`` (an error now costs the ``h`` remaining steps).
    The closed form is ``sum_{t=1}^H (1 - (1-eps)^t)`` (about ``eps H^2 / 2`` for small ``eps H``).

    Parameters
    ----------
    eps : float or array in [0, 1]
    H : int >= 1

    Returns
    -------
    ``V_H``, of the shape of ``eps`` (a float for a scalar).
    """
    H = check_int(H, "H", least=1)
    e = np.asarray(eps, dtype=float)
    if not np.all(np.isfinite(e)) or np.any(e < 0) or np.any(e > 1):
        raise ValueError(f"eps must lie in [0, 1]; got {eps!r}")
    V = np.zeros_like(e)
    for h in range(1, H + 1):
        V = e * h + (1.0 - e) * V
    return float(V) if V.ndim == 0 else V


def per_step_error(mdp: TabularMDP, policy: ArrayLike) -> np.ndarray:
    """Probability that a policy leaves the expert's action at a path state drawn from the expert's law.

    ``eps = sum_{s < n_path} init(s) (1 - pi(expert(s) | s))`` (the expert's path states are i.i.d. ``init``
    in the cliff MDP). Shape (...) for policies (..., S, A).
    """
    pi = _check_policy(mdp, policy)
    n = mdp.n_path
    p_right = pi[..., np.arange(n), mdp.expert[:n]]
    return ((1.0 - p_right) * mdp.init[:n]).sum(-1)


# =========================================================================== tabular learners and data
def majority_vote_policy(counts: ArrayLike) -> np.ndarray:
    """Tabular learner: in each state the most labelled action (ties split evenly); uniform if unlabelled.

    Parameters
    ----------
    counts : (..., S, A) non-negative label counts.

    Returns
    -------
    (..., S, A) policy.
    """
    c = np.asarray(counts, dtype=float)
    if c.ndim < 2 or np.any(c < 0) or not np.all(np.isfinite(c)):
        raise ValueError("counts must be a finite non-negative array of shape (..., S, A)")
    top = c == c.max(-1, keepdims=True)  # unlabelled rows: every action ties -> uniform
    return top / top.sum(-1, keepdims=True)


def annotation_cost(n_off: ArrayLike, n_int: ArrayLike, C: float) -> np.ndarray | float:
    """Total annotation cost ``n_off * 1 + n_int * C`` (offline labels cost 1 each, interactive ones C)."""
    C = check_positive(C, "C")
    a, b = np.asarray(n_off), np.asarray(n_int)
    if np.any(a < 0) or np.any(b < 0):
        raise ValueError("label counts must be >= 0")
    out = a * 1.0 + b * C
    return float(out) if np.ndim(out) == 0 else out


def labels_for_budget(B: float, C: float, warm_fraction: float = 0.0) -> tuple[int, int]:
    """Split a budget: ``n_off = round(warm_fraction * B)`` offline labels, then ``floor((B - n_off) / C)`` interactive.

    ``warm_fraction = 0`` is Stagger, ``1`` is BC.
    """
    B = check_positive(B, "B", strict=False)
    C = check_positive(C, "C")
    if not 0.0 <= warm_fraction <= 1.0:
        raise ValueError(f"warm_fraction must lie in [0, 1]; got {warm_fraction}")
    n_off = int(round(warm_fraction * B))
    n_int = int(np.floor((B - n_off) / C + 1e-9))
    return n_off, n_int


def _sample_rows(prob: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One categorical draw per row of ``prob`` (..., K)."""
    u = rng.random(prob.shape[:-1] + (1,))
    idx = (np.cumsum(prob, -1) < u).sum(-1)
    return np.minimum(idx, prob.shape[-1] - 1)


def sample_trajectories(mdp: TabularMDP, policy: ArrayLike, rng: np.random.Generator, steps: int | None = None) -> np.ndarray:
    """Roll out one trajectory per policy of a batch; returns the states visited, shape (R, steps).

    ``policy`` is (R, S, A) (one policy per replicate) or (S, A) (then R = 1).
    """
    pi = _check_policy(mdp, policy)
    if pi.ndim == 2:
        pi = pi[None]
    R = pi.shape[0]
    steps = mdp.horizon if steps is None else check_int(steps, "steps", least=1)
    s = _sample_rows(np.broadcast_to(mdp.init, (R, mdp.n_states)), rng)
    out = np.empty((R, steps), dtype=int)
    r = np.arange(R)
    for t in range(steps):
        out[:, t] = s
        a = _sample_rows(pi[r, s], rng)
        s = _sample_rows(mdp.P[s, a], rng)
    return out


def expert_state_counts(mdp: TabularMDP, n_labels: int, R: int, rng: np.random.Generator) -> np.ndarray:
    """BC data: the first ``n_labels`` states of expert roll-outs (whole trajectories, in time order), labelled.

    Returns label counts (R, S, A) of ``R`` independent replicates; each state costs one offline label.
    """
    n_labels = check_int(n_labels, "n_labels", least=0)
    R = check_int(R, "R", least=1)
    counts = np.zeros((R, mdp.n_states, mdp.n_actions))
    if n_labels == 0:
        return counts
    n_traj = -(-n_labels // mdp.horizon)
    pi = np.broadcast_to(mdp.expert_policy(), (R * n_traj, mdp.n_states, mdp.n_actions))
    states = sample_trajectories(mdp, pi, rng).reshape(R, n_traj * mdp.horizon)[:, :n_labels]
    np.add.at(counts, (np.arange(R)[:, None], states, mdp.expert[states]), 1.0)
    return counts


def interactive_imitation(
    mdp: TabularMDP,
    n_labels: int,
    R: int,
    rng: np.random.Generator,
    warm_counts: ArrayLike | None = None,
    per_round: str = "state",
    checkpoints: Sequence[int] | None = None,
    keep_counts: bool = False,
) -> tuple[np.ndarray, ...]:
    """Stagger (``per_round="state"``) or DAgger (``"trajectory"``) on the tabular MDP, ``R`` replicates at once.

    Each round rolls out the current learner (majority vote of the labels so far). Stagger queries the expert
    on **one** state drawn uniformly from the roll-out's ``H`` steps; DAgger labels every state of the
    roll-out (the last round is cut to the remaining labels). The learner is refitted after every round.
    ``warm_counts`` (R, S, A) are offline labels the learner starts from (Warm-Stagger); they are not counted
    in ``n_labels``.

    Returns
    -------
    counts : (R, S, A) all labels after ``n_labels`` interactive ones.
    costs : (R, len(checkpoints)) exact expected cost of the learner after ``k`` interactive labels for each
        ``k`` in ``checkpoints`` (default: ``[n_labels]``).
    snapshots : (len(checkpoints), R, S, A), only with ``keep_counts=True`` (Stagger only): the label counts at
        every checkpoint, so that a run's prefixes can be reused (the draws are the same either way).
    """
    n_labels = check_int(n_labels, "n_labels", least=0)
    R = check_int(R, "R", least=1)
    if per_round not in PER_ROUND:
        raise ValueError(f"per_round must be one of {PER_ROUND}; got {per_round!r}")
    ks = [n_labels] if checkpoints is None else [check_int(k, "checkpoint", least=0) for k in checkpoints]
    if any(k > n_labels for k in ks) or list(ks) != sorted(ks):
        raise ValueError("checkpoints must be increasing and at most n_labels")
    shape = (R, mdp.n_states, mdp.n_actions)
    counts = np.zeros(shape) if warm_counts is None else np.array(warm_counts, dtype=float)
    if counts.shape != shape:
        raise ValueError(f"warm_counts must have shape {shape}; got {counts.shape}")
    if keep_counts and per_round != "state":
        raise ValueError("keep_counts is for Stagger (per_round='state')")
    costs = np.empty((R, len(ks)))
    snaps = np.empty((len(ks), *shape)) if keep_counts else None
    r = np.arange(R)
    done, j = 0, 0
    while True:
        while j < len(ks) and ks[j] == done:
            costs[:, j] = expected_cost(mdp, majority_vote_policy(counts))
            if snaps is not None:
                snaps[j] = counts
            j += 1
        if done >= n_labels:
            break
        pi = majority_vote_policy(counts)
        if per_round == "state":
            t = rng.integers(mdp.horizon, size=R)
            traj = sample_trajectories(mdp, pi, rng, steps=int(t.max()) + 1)
            s = traj[r, t]
            counts[r, s, mdp.expert[s]] += 1.0
            done += 1
        else:
            m = min(mdp.horizon, n_labels - done)
            # the checkpoints inside this round are taken after the whole (cut) trajectory
            traj = sample_trajectories(mdp, pi, rng, steps=m)
            np.add.at(counts, (r[:, None], traj, mdp.expert[traj]), 1.0)
            nxt = done + m
            while j < len(ks) and ks[j] < nxt:
                costs[:, j] = np.nan
                j += 1
            done = nxt
    return (counts, costs, snaps) if keep_counts else (counts, costs)


def expert_step_counts(mdp: TabularMDP, n_labels: int, R: int, rng: np.random.Generator) -> np.ndarray:
    """Stagger without the learner's roll-outs: one label per round at a uniformly drawn step of an *expert* roll-out.

    Round ``i`` rolls out the expert (not the learner) from the initial law, draws ``t`` uniformly from
    ``0..H-1`` and labels ``s_t`` (one label per round, as Stagger). This is the ablation of Stagger's
    ingredient, the learner choosing where it is labelled: the same one-state-per-round sampling on the
    expert's state law instead of the current learner's.

    Returns label counts (R, S, A) of ``R`` independent replicates (``n_labels`` each).
    """
    n_labels = check_int(n_labels, "n_labels", least=0)
    R = check_int(R, "R", least=1)
    counts = np.zeros((R, mdp.n_states, mdp.n_actions))
    if n_labels == 0:
        return counts
    pi = np.broadcast_to(mdp.expert_policy(), (R * n_labels, mdp.n_states, mdp.n_actions))
    t = rng.integers(mdp.horizon, size=R * n_labels)
    traj = sample_trajectories(mdp, pi, rng, steps=int(t.max()) + 1)
    states = traj[np.arange(R * n_labels), t].reshape(R, n_labels)
    np.add.at(counts, (np.arange(R)[:, None], states, mdp.expert[states]), 1.0)
    return counts


def uniform_state_counts(mdp: TabularMDP, n_labels: int, R: int, rng: np.random.Generator) -> np.ndarray:
    """A passive random design: the expert labels ``n_labels`` states drawn uniformly from all ``S`` states.

    A naive baseline that needs a reset to any state (path or fallen) and no roll-out at all; it uses no
    learner and no expert demonstration. Returns label counts (R, S, A).
    """
    n_labels = check_int(n_labels, "n_labels", least=0)
    R = check_int(R, "R", least=1)
    counts = np.zeros((R, mdp.n_states, mdp.n_actions))
    states = rng.integers(mdp.n_states, size=(R, n_labels))
    np.add.at(counts, (np.arange(R)[:, None], states, mdp.expert[states]), 1.0)
    return counts


# =========================================================================== MuJoCo: pendulum, LQR expert, k-NN learner
def lqr_gain(A: ArrayLike, B: ArrayLike, Q: ArrayLike, R: ArrayLike) -> np.ndarray:
    """Discrete-time LQR gain ``K`` (u = -K x) from the Riccati solution of ``scipy.linalg.solve_discrete_are``.

    ``K = (R + B^T X B)^{-1} B^T X A`` for the stabilising solution ``X`` of the discrete algebraic Riccati
    equation. Shapes: A (n, n), B (n, m), Q (n, n), R (m, m); returns (m, n).
    """
    import scipy.linalg

    A, B, Q, R = (np.atleast_2d(np.asarray(x, dtype=float)) for x in (A, B, Q, R))
    n, m = B.shape
    if A.shape != (n, n) or Q.shape != (n, n) or R.shape != (m, m):
        raise ValueError(f"inconsistent shapes A{A.shape} B{B.shape} Q{Q.shape} R{R.shape}")
    X = scipy.linalg.solve_discrete_are(A, B, Q, R)
    return np.linalg.solve(R + B.T @ X @ B, B.T @ X @ A)


def make_pendulum(env_id: str = "InvertedPendulum-v5"):
    """The gymnasium MuJoCo environment (unwrapped) whose model and data the roll-outs below step."""
    import gymnasium as gym

    env = gym.make(env_id)
    env.reset(seed=0)
    return env.unwrapped


def pendulum_step(env, x: np.ndarray, u: np.ndarray) -> np.ndarray:
    """One control step (``frame_skip`` MuJoCo physics steps, action held) from states x (N, 2nv) under u (N,).

    Stepped by ``mujoco.rollout`` with the environment's own model (its integrator, RK4 for the pendulums).
    """
    import mujoco
    from mujoco import rollout

    m = env.model
    nq, nv = m.nq, m.nv
    x = np.atleast_2d(np.asarray(x, dtype=float))
    spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
    full = np.zeros((x.shape[0], mujoco.mj_stateSize(m, spec)))
    full[:, 1 : 1 + nq + nv] = x
    k = int(env.frame_skip)
    u = np.asarray(u, dtype=float).reshape(x.shape[0], 1, m.nu)
    out, _ = rollout.rollout(m, mujoco.MjData(m), full, np.repeat(u, k, axis=1), nstep=k)
    return out[:, -1, 1 : 1 + nq + nv]


def linearize_pendulum(env, h: float = 1e-5) -> tuple[np.ndarray, np.ndarray]:
    """Linearisation ``x' = f(0, 0) + A x + B u`` of one control step around the upright state (x = 0, u = 0).

    (The model's pole is tilted by 0.001/0.6 rad, so x = 0 is nearly, not exactly, an equilibrium:
    ``f(0, 0)`` is of order 1e-3; the LQR expert built on ``A, B`` still holds the pole up.)

    Centred finite differences of :func:`pendulum_step` (``mujoco.mjd_transitionFD`` refuses the RK4
    integrator of the pendulum models): column ``j`` of ``A`` is ``(f(h e_j, 0) - f(-h e_j, 0)) / 2h``.
    Returns (A (2nv, 2nv), B (2nv, nu)).
    """
    m = env.model
    nx, nu = 2 * m.nv, m.nu
    E = np.eye(nx + nu) * h
    Z = np.concatenate([E, -E])  # (2(nx+nu), nx+nu) perturbations
    f = pendulum_step(env, Z[:, :nx], Z[:, nx:])
    J = (f[: nx + nu] - f[nx + nu :]).T / (2 * h)  # (nx, nx+nu)
    return J[:, :nx], J[:, nx:]


Policy = Callable[[np.ndarray], np.ndarray]  # (N, 2nv) observations -> (N,) actions


def pendulum_rollouts(
    env,
    policy: Policy,
    x0: np.ndarray,
    horizon: int,
    action_noise: float = 0.0,
    rng: np.random.Generator | None = None,
    fail_angle: float = 0.2,
) -> tuple[np.ndarray, np.ndarray]:
    """Closed-loop roll-outs of a batch of pendulums, stepped by MuJoCo (``mujoco.rollout``, one call per step).

    Parameters
    ----------
    x0 : (N, 2nv) initial (qpos, qvel).
    policy : maps the (N, 2nv) current states to (N,) actions (clipped to the actuator range).
    action_noise : std of Gaussian noise added to the applied action (the environment's disturbance).

    Returns
    -------
    states : (N, horizon, 2nv) the state at every control step (frozen after a failure).
    alive : (N, horizon) bool, whether the pole is still within ``fail_angle`` of upright at that step.
    The cost of a roll-out is the number of steps from its first failure on: ``(~alive).sum(1)``.
    """
    import mujoco
    from mujoco import rollout

    m = env.model
    nq, nv = m.nq, m.nv
    x0 = np.asarray(x0, dtype=float)
    N = x0.shape[0]
    H = check_int(horizon, "horizon", least=1)
    spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
    nstate = mujoco.mj_stateSize(m, spec)
    d = mujoco.MjData(m)
    full = np.zeros((N, nstate))
    full[:, 1 : 1 + nq + nv] = x0  # FULLPHYSICS = (time, qpos, qvel, act, ...)
    lo, hi = m.actuator_ctrlrange[0]
    k = int(env.frame_skip)
    states = np.empty((N, H, nq + nv))
    alive = np.ones((N, H), dtype=bool)
    live = np.ones(N, dtype=bool)
    for t in range(H):
        x = full[:, 1 : 1 + nq + nv]
        live &= np.abs(x[:, 1]) <= fail_angle
        states[:, t] = x
        alive[:, t] = live
        if not live.any():
            alive[:, t + 1 :] = False
            states[:, t + 1 :] = x[:, None]
            break
        u = np.asarray(policy(x), dtype=float).reshape(N)
        if action_noise > 0:
            u = u + action_noise * rng.standard_normal(N)
        u = np.clip(u, lo, hi)
        idx = np.flatnonzero(live)
        out, _ = rollout.rollout(m, d, full[idx], np.repeat(u[idx, None, None], k, axis=1), nstep=k)
        full[idx] = out[:, -1]
    return states, alive


def pendulum_expert(K: np.ndarray) -> Policy:
    """The LQR expert ``u = -K x`` (first actuator)."""
    K = np.atleast_2d(K)
    return lambda x: -(x @ K[0])


def pendulum_bc_data(env, K: np.ndarray, n_labels: int, R: int, horizon: int, x0_scale: float,
                     action_noise: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """BC data: the first ``n_labels`` states of expert roll-outs per replicate, labelled by the expert.

    Returns X (R, n_labels, 2nv) and y (R, n_labels).
    """
    n_labels = check_int(n_labels, "n_labels", least=1)
    n_traj = -(-n_labels // horizon)
    nx = 2 * env.model.nv
    x0 = rng.uniform(-x0_scale, x0_scale, size=(R * n_traj, nx))
    expert = pendulum_expert(K)
    states, _ = pendulum_rollouts(env, expert, x0, horizon, action_noise, rng)
    X = states.reshape(R, n_traj * horizon, nx)[:, :n_labels]
    return X, expert(X.reshape(-1, nx)).reshape(R, n_labels)


def pendulum_expert_step_data(env, K: np.ndarray, n_labels: int, R: int, horizon: int, x0_scale: float,
                              action_noise: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Stagger without the learner's roll-outs on the pendulum: one label per fresh *expert* roll-out, at a step
    ``t`` drawn uniformly from ``0..H-1`` (the ablation of the learner choosing its states).

    Returns X (R, n_labels, 2nv) and y (R, n_labels), the expert's actions ``-K x``.
    """
    n_labels = check_int(n_labels, "n_labels", least=1)
    R = check_int(R, "R", least=1)
    nx = 2 * env.model.nv
    N = R * n_labels
    t = rng.integers(horizon, size=N)
    x0 = rng.uniform(-x0_scale, x0_scale, size=(N, nx))
    expert = pendulum_expert(K)
    X = np.empty((N, nx))
    edges = np.quantile(t, [0.25, 0.5, 0.75])  # four groups by labelled step: a roll-out stops near its step
    group = np.searchsorted(edges, t, side="left")
    for g in range(4):
        idx = np.flatnonzero(group == g)
        if idx.size:
            states, _ = pendulum_rollouts(env, expert, x0[idx], int(t[idx].max()) + 1, action_noise, rng)
            X[idx] = states[np.arange(idx.size), t[idx]]
    X = X.reshape(R, n_labels, nx)
    return X, expert(X.reshape(-1, nx)).reshape(R, n_labels)


def pendulum_start_state_data(K: np.ndarray, n_labels: int, R: int, x0_scale: float,
                              rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A passive random design on the pendulum: the expert labels states drawn from the task's start law,
    uniform on ``[-x0_scale, x0_scale]^{2nv}`` (no roll-out, no learner).

    Returns X (R, n_labels, 2nv) and y (R, n_labels).
    """
    n_labels = check_int(n_labels, "n_labels", least=1)
    R = check_int(R, "R", least=1)
    x0_scale = check_positive(x0_scale, "x0_scale")
    K = np.atleast_2d(np.asarray(K, dtype=float))
    nx = K.shape[1]
    X = rng.uniform(-x0_scale, x0_scale, size=(R, n_labels, nx))
    return X, pendulum_expert(K)(X.reshape(-1, nx)).reshape(R, n_labels)


def linear_policy(w: np.ndarray) -> Policy:
    """The linear learner ``u = x . w_r`` of replicates ``w`` (R, d), on (R * m, d) states in replicate-major order."""
    w = np.asarray(w, dtype=float)
    R = w.shape[0]
    return lambda x: np.einsum("rmd,rd->rm", x.reshape(R, -1, x.shape[-1]), w).reshape(-1)


def pendulum_stagger(env, K: np.ndarray, n_labels: int, R: int, horizon: int, x0_scale: float,
                     action_noise: float, lam: float, rng: np.random.Generator,
                     warm: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Stagger on the pendulum with a ridge-regression learner, ``R`` replicates at once (Warm-Stagger with ``warm``).

    Round i: fit the learner on the labels so far (:func:`ridge_fit`; no labels -> ``u = 0``), roll it out from
    a fresh initial state to a step ``t`` drawn uniformly from ``0..H-1`` (a roll-out that failed earlier
    stays at its state of failure), query the expert at that state (one interactive label), add it.
    Returns the labelled data X (R, n0 + n_labels, 2nv), y (R, n0 + n_labels).
    """
    n_labels = check_int(n_labels, "n_labels", least=0)
    R = check_int(R, "R", least=1)
    nx = 2 * env.model.nv
    expert = pendulum_expert(K)
    X = np.zeros((R, 0, nx)) if warm is None else np.asarray(warm[0], dtype=float)
    y = np.zeros((R, 0)) if warm is None else np.asarray(warm[1], dtype=float)
    if X.shape[0] != R or y.shape != X.shape[:2]:
        raise ValueError("warm data must be X (R, n0, 2nv), y (R, n0)")
    r = np.arange(R)
    for _ in range(n_labels):
        t = rng.integers(horizon, size=R)
        x0 = rng.uniform(-x0_scale, x0_scale, size=(R, nx))
        states, _ = pendulum_rollouts(env, linear_policy(ridge_fit(X, y, lam)), x0, int(t.max()) + 1, action_noise, rng)
        s = states[r, t]
        X = np.concatenate([X, s[:, None]], axis=1)
        y = np.concatenate([y, expert(s)[:, None]], axis=1)
    return X, y


def pendulum_cost(env, w: np.ndarray, episodes: int, horizon: int, x0_scale: float, action_noise: float,
                  rng: np.random.Generator) -> np.ndarray:
    """Mean cost (steps from the first failure on) of each replicate's linear learner over ``episodes`` roll-outs.

    ``w`` (R, 2nv); returns (R,).
    """
    w = np.asarray(w, dtype=float)
    R, nx = w.shape
    E = check_int(episodes, "episodes", least=1)
    x0 = rng.uniform(-x0_scale, x0_scale, size=(R * E, nx))
    _, alive = pendulum_rollouts(env, linear_policy(np.repeat(w, E, axis=0)), x0, horizon, action_noise, rng)
    return (~alive).sum(1).reshape(R, E).mean(1)


def ridge_fit(X: ArrayLike, y: ArrayLike, lam: float) -> np.ndarray:
    """Ridge regression without intercept, batched: ``w = (X^T X + lam I)^{-1} X^T y`` per replicate.

    Parameters
    ----------
    X : (R, n, d), y : (R, n), lam > 0.

    Returns
    -------
    (R, d) weights; the linear learner acts ``u = x . w``.
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    if X.ndim != 3 or y.shape != X.shape[:2]:
        raise ValueError(f"shapes must be X (R,n,d), y (R,n); got {X.shape}, {y.shape}")
    lam = check_positive(lam, "lam")
    G = np.einsum("rnd,rne->rde", X, X) + lam * np.eye(X.shape[2])
    return np.linalg.solve(G, np.einsum("rnd,rn->rd", X, y)[..., None])[..., 0]
