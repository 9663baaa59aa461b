r"""Outcome-based online RL: optimism from trajectory-level rewards, on small tabular MDPs (our instantiation).

Paper map
---------
*Outcome-Based Online Reinforcement Learning: Algorithms and Fundamental Limits*, Fan Chen, Zeyu Jia,
Alexander Rakhlin and Tengyang Xie, NeurIPS 2025, https://arxiv.org/abs/2505.20268 . A theory paper
without experiments or code; we read only its abstract and its setting (through summaries). The learners
below are **our tabular instantiation** of "optimism + outcome regression", not the paper's Algorithm 1,
whose confidence sets and constants we did not see. Notation (paper -> here):

=====================================================  ===================================================
paper                                                  here
=====================================================  ===================================================
MDP :math:`(S, A, T, \rho, R, H)`                       :class:`TabularMDPs` (a batch of ``B`` MDPs):
                                                       ``P[b, h, s, a, s']``, ``R[b, h, s, a]``, ``rho[b, s]``
trajectory :math:`\tau=(s_1,a_1,\dots,s_H,a_H)`          ``states[b, h]``, ``actions[b, h]`` (0-based ``h``)
outcome :math:`r` with :math:`E[r\mid\tau]=R(\tau)=\sum_h R_h(s_h,a_h)`   ``outcome = rewards.sum(-1)``
per-step feedback :math:`(r_1,\dots,r_H)`               ``rewards[b, h]`` (mean ``R[h, s_h, a_h]``,
                                                       Gaussian noise of s.d. ``sigma`` per step)
return :math:`J(\pi)`                                   :func:`value_of_policy`
reward class (tabular) :math:`R(\tau)=\langle\theta,\phi(\tau)\rangle`   :func:`trajectory_features`,
                                                       ``theta`` of length ``H*S*A``
=====================================================  ===================================================

Kernels
-------
* Exact dynamic programming: :func:`value_of_policy`, :func:`optimistic_plan` (backward induction with
  bonuses, values clipped at the largest achievable return; zero bonus = exact optimal planning).
* Outcome regression: :func:`outcome_ridge` (ridge regression of outcomes on trajectory features),
  :func:`sherman_morrison` (its online update), :func:`gauge_fix` (the per-step constant shifts that no
  outcome can see are removed).
* Online learners: :func:`run_outcome_rl` runs, for a batch of MDPs at once, the optimistic learner
  with ``feedback="outcome"`` (ridge on trajectory features, elliptical bonus split over the visited
  cells) or ``"per_step"`` (the same rule when each step's reward is seen: the design matrix is diagonal),
  and the ablation ``explore="greedy"`` (no bonus); the naive comparators ``explore="eps_greedy"``,
  ``"uniform"`` and ``"commit"`` (explore-then-commit), ``credit="uniform"`` (the outcome split equally over
  the steps, no regression), and ``prior=`` (the ridge prior's mean, 0 by default, e.g. mid-range).
* Preference feedback: :func:`preference_logistic` (Bradley-Terry logistic regression on feature
  differences, Newton's method with a ridge term), and two naive comparators: :func:`preference_linear`
  (the same ridge without the logistic link) and :func:`preference_win_rate` (each cell's share of won
  comparisons, no model).
* The separating example: a combination lock on a binary tree (:func:`lock_step_rewards`) whose per-step
  rewards reveal the correct prefix while the outcome only says "opened" or "not opened";
  :func:`run_lock` runs the same version-space (eliminate inconsistent hypotheses, play an optimistic
  consistent one) learner under either feedback.

Used by ``notebooks/outcome-based-online-rl.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from repro.validate import check_int, check_positive, finite_array

FEEDBACKS: tuple[str, ...] = ("outcome", "per_step")
EXPLORES: tuple[str, ...] = ("optimistic", "greedy", "eps_greedy", "uniform", "commit")
CREDITS: tuple[str, ...] = ("regression", "uniform")


# --------------------------------------------------------------------------- MDPs
@dataclass(frozen=True)
class TabularMDPs:
    """A batch of ``B`` finite-horizon tabular MDPs with the same sizes.

    Attributes
    ----------
    P : ndarray, shape (B, H, S, A, S)
        ``P[b, h, s, a]`` is the distribution of the next state after ``(s, a)`` at step ``h``.
    R : ndarray, shape (B, H, S, A)
        Mean rewards :math:`R_h(s, a)`.
    rho : ndarray, shape (B, S)
        Initial-state distributions.
    """

    P: np.ndarray
    R: np.ndarray
    rho: np.ndarray

    def __post_init__(self) -> None:
        P, R, rho = self.P, self.R, self.rho
        if P.ndim != 5 or R.ndim != 4 or rho.ndim != 2:
            raise ValueError(f"need P (B,H,S,A,S), R (B,H,S,A), rho (B,S); got {P.shape}, {R.shape}, {rho.shape}")
        B, H, S, A, S2 = P.shape
        if S2 != S or R.shape != (B, H, S, A) or rho.shape != (B, S):
            raise ValueError(f"inconsistent shapes P {P.shape}, R {R.shape}, rho {rho.shape}")
        if np.any(P < 0) or not np.allclose(P.sum(-1), 1.0) or np.any(rho < 0) or not np.allclose(rho.sum(-1), 1.0):
            raise ValueError("P[b, h, s, a] and rho[b] must be probability distributions")

    @property
    def sizes(self) -> tuple[int, int, int, int]:
        """``(B, H, S, A)``."""
        B, H, S, A, _ = self.P.shape
        return B, H, S, A


def make_tabular_mdps(n: int, S: int, A: int, H: int, rng: np.random.Generator,
                      deterministic: bool = False) -> TabularMDPs:
    """``n`` random MDPs: transitions Dirichlet(1) (or one random next state if ``deterministic``),
    mean rewards uniform on [0, 1], initial state uniform.

    Returns a :class:`TabularMDPs` with ``B = n``.
    """
    n, S, A, H = (check_int(v, k, least=1) for v, k in ((n, "n"), (S, "S"), (A, "A"), (H, "H")))
    if deterministic:
        nxt = rng.integers(0, S, size=(n, H, S, A))
        P = np.zeros((n, H, S, A, S))
        np.put_along_axis(P, nxt[..., None], 1.0, axis=-1)
    else:
        P = rng.dirichlet(np.ones(S), size=(n, H, S, A))
    R = rng.random((n, H, S, A))
    rho = np.full((n, S), 1.0 / S)
    return TabularMDPs(P, R, rho)


def make_tabular_mdp(S: int, A: int, H: int, seed: int) -> TabularMDPs:
    """One random MDP (a batch of one) from its own seed; see :func:`make_tabular_mdps`."""
    return make_tabular_mdps(1, S, A, H, np.random.default_rng(check_int(seed, "seed", least=0)))


def _check_policy(mdp: TabularMDPs, pi: ArrayLike) -> np.ndarray:
    B, H, S, A = mdp.sizes
    pi = np.asarray(pi)
    if pi.shape != (B, H, S) or pi.dtype.kind not in "iu" or np.any(pi < 0) or np.any(pi >= A):
        raise ValueError(f"pi must be integer actions in [0, {A}) of shape {(B, H, S)}; got {pi.shape}, {pi.dtype}")
    return pi


def value_of_policy(mdp: TabularMDPs, pi: ArrayLike) -> np.ndarray:
    r"""Exact return :math:`J(\pi)=E_\pi[\sum_h R_h(s_h,a_h)]` of deterministic policies by backward induction.

    Parameters
    ----------
    mdp : TabularMDPs (batch ``B``)
    pi : int array, shape (B, H, S)
        ``pi[b, h, s]`` is the action taken in state ``s`` at step ``h``.

    Returns
    -------
    ndarray, shape (B,)
    """
    pi = _check_policy(mdp, pi)
    B, H, S, A = mdp.sizes
    ix = (np.arange(B)[:, None, None], np.arange(H)[None, :, None], np.arange(S)[None, None, :], pi)
    R_pi, P_pi = mdp.R[ix], mdp.P[ix]  # (B, H, S), (B, H, S, S)
    V = np.zeros((B, S, 1))
    for h in range(H - 1, -1, -1):
        V = R_pi[:, h, :, None] + P_pi[:, h] @ V
    return (mdp.rho[:, None, :] @ V)[:, 0, 0]


def optimistic_plan(P_hat: ArrayLike, R_hat: ArrayLike, bonus: ArrayLike | None = None,
                    clip: bool = True) -> tuple[np.ndarray, np.ndarray]:
    r"""Backward induction on a model with bonuses (UCB-VI style planning).

    :math:`Q_h = \hat R_h + b_h + \hat P_h V_{h+1}`, :math:`\pi_h=\arg\max_a Q_h` (ties to the lowest
    index), :math:`V_h=\min\{\max_a Q_h,\ H-h\}` (the clip at the largest return still achievable,
    ``H - h`` steps of reward at most 1, only when ``clip``). The clip acts on the propagated value, not on
    the choice: clipping :math:`Q` itself would tie every optimistic action at the cap and send the
    choice to the lowest index.

    Parameters
    ----------
    P_hat : array, shape (B, H, S, A, S)
    R_hat, bonus : arrays, shape (B, H, S, A); ``bonus=None`` means zero
    clip : bool

    Returns
    -------
    pi : int array, shape (B, H, S)
    V1 : array, shape (B, S), the (optimistic) value at step 0
    """
    P_hat = finite_array(P_hat, "P_hat", ndim=5)
    R_hat = finite_array(R_hat, "R_hat", ndim=4)
    B, H, S, A, _ = P_hat.shape
    if R_hat.shape != (B, H, S, A):
        raise ValueError(f"R_hat must have shape {(B, H, S, A)}; got {R_hat.shape}")
    U = R_hat if bonus is None else R_hat + finite_array(bonus, "bonus", ndim=4)
    pi = np.empty((B, H, S), dtype=np.int64)
    V = np.zeros((B, S))
    for h in range(H - 1, -1, -1):
        Q = U[:, h] + (P_hat[:, h] @ V[:, None, :, None])[..., 0]
        pi[:, h] = Q.argmax(-1)
        V = np.minimum(Q.max(-1), H - h) if clip else Q.max(-1)
    return pi, V


def optimal_values(mdp: TabularMDPs) -> tuple[np.ndarray, np.ndarray]:
    """Optimal policies and returns :math:`J(\\pi^*)` (exact planning without bonus or clip): ``(pi, J)``."""
    pi, V = optimistic_plan(mdp.P, mdp.R, None, clip=False)
    return pi, np.einsum("bs,bs->b", mdp.rho, V)


def rollout(mdp: TabularMDPs, pi: ArrayLike, sigma: float, rng: np.random.Generator
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One episode of each of the ``B`` MDPs under deterministic policies ``pi`` (B, H, S).

    Returns ``states``, ``actions`` (int, (B, H)) and noisy per-step ``rewards`` (B, H):
    ``R[h, s_h, a_h] + sigma * N(0, 1)``. The outcome of the episode is ``rewards.sum(-1)``.
    """
    pi = _check_policy(mdp, pi)
    sigma = check_positive(sigma, "sigma", strict=False)
    B, H, S, A = mdp.sizes
    bi = np.arange(B)
    states = np.empty((B, H), dtype=np.int64)
    actions = np.empty((B, H), dtype=np.int64)
    u = rng.random((B, H))
    noise = rng.standard_normal((B, H))

    def draw(p: np.ndarray, uu: np.ndarray) -> np.ndarray:
        return np.minimum((np.cumsum(p, -1) < uu[:, None]).sum(-1), S - 1)

    s = draw(mdp.rho, u[:, 0])
    for h in range(H):
        a = pi[bi, h, s]
        states[:, h], actions[:, h] = s, a
        if h + 1 < H:
            s = draw(mdp.P[bi, h, s, a], u[:, h + 1])
    rewards = mdp.R[bi[:, None], np.arange(H)[None, :], states, actions] + sigma * noise
    return states, actions, rewards


# --------------------------------------------------------------------------- outcome regression
def trajectory_features(states: ArrayLike, actions: ArrayLike, S: int, A: int) -> np.ndarray:
    r"""One-hot visit counts :math:`\phi(\tau)\in\{0,1\}^{H S A}` of trajectories, index ``(h*S + s)*A + a``.

    Parameters
    ----------
    states, actions : int arrays, shape (..., H)

    Returns
    -------
    ndarray, shape (..., H*S*A), with exactly one 1 per step, so that :math:`R(\tau)=\langle\theta,\phi(\tau)\rangle`
    for ``theta = R.reshape(-1)``.
    """
    S, A = check_int(S, "S", least=1), check_int(A, "A", least=1)
    states, actions = np.asarray(states), np.asarray(actions)
    if states.shape != actions.shape or states.ndim < 1:
        raise ValueError(f"states and actions must have the same shape (..., H); got {states.shape}, {actions.shape}")
    if np.any(states < 0) or np.any(states >= S) or np.any(actions < 0) or np.any(actions >= A):
        raise ValueError("states must lie in [0, S) and actions in [0, A)")
    H = states.shape[-1]
    idx = (np.arange(H) * S + states) * A + actions
    phi = np.zeros((*states.shape[:-1], H * S * A))
    np.put_along_axis(phi, idx, 1.0, axis=-1)
    return phi


def outcome_ridge(Phi: ArrayLike, r: ArrayLike, lam: float) -> tuple[np.ndarray, np.ndarray]:
    r"""Ridge regression of outcomes on trajectory features.

    :math:`\Sigma=\lambda I+\Phi^\top\Phi`, :math:`\hat\theta=\Sigma^{-1}\Phi^\top r`.

    Parameters
    ----------
    Phi : array, shape (n, d)
    r : array, shape (n,)
    lam : float > 0

    Returns
    -------
    theta : (d,), Sigma_inv : (d, d)
    """
    Phi = finite_array(Phi, "Phi", ndim=2)
    r = finite_array(r, "r", ndim=1)
    if r.shape[0] != Phi.shape[0]:
        raise ValueError(f"r must have one outcome per row of Phi; got {r.shape[0]} and {Phi.shape[0]}")
    lam = check_positive(lam, "lam")
    Sigma = lam * np.eye(Phi.shape[1]) + Phi.T @ Phi
    return np.linalg.solve(Sigma, Phi.T @ r), np.linalg.inv(Sigma)


def sherman_morrison(Sigma_inv: ArrayLike, phi: ArrayLike) -> np.ndarray:
    r"""Rank-one update :math:`(\Sigma+\phi\phi^\top)^{-1}` from :math:`\Sigma^{-1}`, batched.

    Parameters
    ----------
    Sigma_inv : array, shape (B, d, d), symmetric positive definite
    phi : array, shape (B, d)
    """
    Si = np.asarray(Sigma_inv, dtype=float)
    phi = np.asarray(phi, dtype=float)
    if Si.ndim != 3 or phi.shape != Si.shape[:2] or Si.shape[1] != Si.shape[2]:
        raise ValueError(f"need Sigma_inv (B, d, d) and phi (B, d); got {Si.shape}, {phi.shape}")
    u = Si @ phi[:, :, None]  # (B, d, 1)
    denom = 1.0 + phi[:, None, :] @ u  # (B, 1, 1)
    return Si - (u / denom) @ u.transpose(0, 2, 1)


def gauge_fix(theta: ArrayLike, S: int, A: int, H: int) -> np.ndarray:
    r"""Remove the per-step constant shifts that outcomes cannot see.

    Adding :math:`c_h` to every :math:`R_h(s,a)` changes every :math:`R(\tau)` by :math:`\sum_h c_h`;
    shifts with :math:`\sum_h c_h=0` are invisible to outcomes and all shifts are invisible to
    preferences. We return :math:`\theta_{hsa}-\operatorname{mean}_{s,a}\theta_{hsa}`, a representative
    that is the same for every :math:`\theta` of the class (shape ``(..., H*S*A)`` in and out).
    """
    S, A, H = check_int(S, "S", least=1), check_int(A, "A", least=1), check_int(H, "H", least=1)
    theta = np.asarray(theta, dtype=float)
    if theta.shape[-1:] != (H * S * A,):
        raise ValueError(f"theta must end with H*S*A = {H * S * A} entries; got shape {theta.shape}")
    t = theta.reshape(*theta.shape[:-1], H, S * A)
    return (t - t.mean(-1, keepdims=True)).reshape(theta.shape)


def gauge_projector(S: int, A: int, H: int) -> np.ndarray:
    r"""Orthogonal projector :math:`\Pi_G` onto the gauge: per-step constant shifts with zero sum.

    :math:`G=\{\theta:\theta_{hsa}=c_h,\ \sum_h c_h=0\}` (dimension :math:`H-1`). Every trajectory feature
    is orthogonal to it (one visit per step), so outcomes carry no information along it and every policy
    value is unchanged along it. Returns a (d, d) matrix, ``d = H*S*A``.
    """
    S, A, H = check_int(S, "S", least=1), check_int(A, "A", least=1), check_int(H, "H", least=1)
    U = np.kron(np.eye(H), np.ones((S * A, 1))) / np.sqrt(S * A)  # (d, H): orthonormal per-step indicators
    c = np.ones((H, 1)) / np.sqrt(H)
    Q = U @ (np.eye(H) - c @ c.T)  # spans G
    return Q @ U.T


def preference_logistic(dPhi: ArrayLike, y: ArrayLike, lam: float, n_iter: int = 30) -> np.ndarray:
    r"""Bradley-Terry fit of a reward from pairwise preferences, by Newton's method.

    Labels :math:`y\sim\mathrm{Bernoulli}(\sigma(\langle\theta,\phi(\tau)-\phi(\tau')\rangle))`; we
    minimise :math:`\sum_i \log(1+e^{x_i^\top\theta}) - y_i x_i^\top\theta + \tfrac\lambda2\|\theta\|^2`
    with :math:`x_i=\phi(\tau_i)-\phi(\tau'_i)` (a strictly convex problem, so Newton converges from 0).

    Parameters
    ----------
    dPhi : array, shape (n, d); y : array of 0/1, shape (n,); lam : float > 0; n_iter : int >= 1

    Returns
    -------
    theta : array, shape (d,)
    """
    X = finite_array(dPhi, "dPhi", ndim=2)
    y = finite_array(y, "y", ndim=1)
    if y.shape[0] != X.shape[0] or not np.all((y == 0) | (y == 1)):
        raise ValueError("y must hold one 0/1 label per row of dPhi")
    lam = check_positive(lam, "lam")
    n_iter = check_int(n_iter, "n_iter", least=1)
    theta = np.zeros(X.shape[1])
    for _ in range(n_iter):
        p = 1.0 / (1.0 + np.exp(-(X @ theta)))
        g = X.T @ (p - y) + lam * theta
        Hm = (X * (p * (1 - p))[:, None]).T @ X + lam * np.eye(X.shape[1])
        step = np.linalg.solve(Hm, g)
        theta = theta - step
        if np.max(np.abs(step)) < 1e-12:
            break
    return theta


def preference_linear(dPhi: ArrayLike, y: ArrayLike, lam: float) -> np.ndarray:
    r"""Preferences fitted without the logistic link: ridge regression of :math:`2y-1` on feature differences.

    The linear-probability model :math:`E[2y-1\mid x]\approx\langle\theta,x\rangle` (the first-order
    expansion of Bradley-Terry around equal rewards, :math:`2\sigma(z)-1\approx z/2`), a naive comparator of
    :func:`preference_logistic`. Same shapes; returns ``theta`` of shape (d,).
    """
    X = finite_array(dPhi, "dPhi", ndim=2)
    y = finite_array(y, "y", ndim=1)
    if y.shape[0] != X.shape[0] or not np.all((y == 0) | (y == 1)):
        raise ValueError("y must hold one 0/1 label per row of dPhi")
    return outcome_ridge(X, 2.0 * y - 1.0, lam)[0]


def preference_win_rate(Phi_first: ArrayLike, Phi_second: ArrayLike, y: ArrayLike) -> np.ndarray:
    r"""Per-cell win rate of pairwise comparisons: no reward model at all.

    Cell :math:`c` scores :math:`\sum_i [y_i\phi_c(\tau_i)+(1-y_i)\phi_c(\tau'_i)]\,/\,\sum_i[\phi_c(\tau_i)
    +\phi_c(\tau'_i)]`, the share of the comparisons it took part in that its trajectory won (0 where it never
    took part); ``y[i] = 1`` when the first trajectory of pair ``i`` is preferred. A Borda-style count per cell.

    Parameters
    ----------
    Phi_first, Phi_second : arrays, shape (n, d), the features of the two trajectories of each pair
    y : array of 0/1, shape (n,)

    Returns
    -------
    ndarray, shape (d,), in [0, 1]
    """
    F = finite_array(Phi_first, "Phi_first", ndim=2)
    G = finite_array(Phi_second, "Phi_second", ndim=2)
    y = finite_array(y, "y", ndim=1)
    if F.shape != G.shape or y.shape[0] != F.shape[0] or not np.all((y == 0) | (y == 1)):
        raise ValueError("need two feature arrays of the same shape (n, d) and one 0/1 label per pair")
    if np.any(F < 0) or np.any(G < 0):
        raise ValueError("features must be visit counts (>= 0)")
    wins = y @ F + (1.0 - y) @ G
    seen = F.sum(0) + G.sum(0)
    return np.where(seen > 0, wins / np.maximum(seen, 1.0), 0.0)


# --------------------------------------------------------------------------- online learners
def run_outcome_rl(mdp: TabularMDPs, n_episodes: int, feedback: str = "outcome", seed: int = 0, *,
                   explore: str = "optimistic", sigma: float = 0.1, lam: float = 1.0,
                   known_transitions: bool = True, eval_every: int = 0, credit: str = "regression",
                   eps: float = 0.1, n_explore: int = 0, prior: float = 0.0) -> dict:
    r"""Online optimistic RL from outcome-only or per-step feedback, on a batch of ``B`` MDPs at once.

    Episode :math:`k`: take the transitions as known (``known_transitions``, the default: only the reward
    is learned, so the two feedbacks differ in nothing else) or estimate them by counts :math:`\hat P`
    (uniform where unvisited, with the transition bonus below); estimate the reward vector :math:`\theta` by ridge regression,

    * ``"outcome"``: :math:`\Sigma_k=\lambda I+\kappa\Pi_G+\sum_{j<k}\phi(\tau_j)\phi(\tau_j)^\top` with
      :math:`\kappa\to\infty` (:func:`gauge_projector`: the estimate is gauge-fixed; without it the
      variance along the gauge never shrinks and inflates the bonus of every visited cell above that of the
      unvisited ones, which stalls exploration),
      :math:`\hat\theta=\Sigma_k^{-1}\sum_j\phi(\tau_j)\,y_j` with :math:`y_j=\sum_h r_{j,h}` (noise
      s.d. :math:`\nu=\sigma\sqrt H`);
    * ``"per_step"``: the same ridge rule on the :math:`H` observations :math:`(e_{h s_h a_h}, r_h)` of
      each episode, so :math:`\Sigma_k` is diagonal, :math:`\lambda+n_k(h,s,a)` (noise s.d. :math:`\nu=\sigma`);

    then plan (:func:`optimistic_plan`) on :math:`\hat\theta+b^R` with the per-cell reward bonus
    :math:`b^R_{hsa}=\beta_k\sqrt{[\Sigma_k^{-1}]_{hsa,hsa}}`, :math:`\beta_k=\nu\sqrt{2\ln(1+k)}+\sqrt\lambda`
    (noise width plus the ridge bias of a reward in [0, 1]; with ``k`` counted from 1)
    (by the triangle inequality, :math:`\sum_h b^R_{h s_h a_h}\ge\beta_k\|\phi(\tau)\|_{\Sigma_k^{-1}}`, the
    elliptical bonus of the whole trajectory), plus, when transitions are estimated, the transition bonus
    :math:`b^P_{hsa}=(H-h-1)\sqrt{\ln(1+k)/(2\max(n_k(h,s,a),1))}`. ``explore="greedy"`` sets both bonuses
    to zero (the ablation). The two feedbacks share the random stream: with ``H = 1`` they coincide.

    Comparators without the paper's ingredients (the estimate, the output and ``eval_gap`` are computed as
    above; only what is played, or how the outcome is credited, changes):

    * ``explore="eps_greedy"``: the greedy policy, with each action (each step's entry of the policy table)
      replaced by a uniformly random one with probability ``eps`` (textbook exploration, no bonus);
    * ``explore="uniform"``: a uniformly random action at every step (pure exploration; the output is still
      the greedy policy of the estimate);
    * ``explore="commit"``: explore-then-commit, uniformly random actions (drawn as for ``"uniform"``) in the
      first ``n_explore`` episodes, the greedy policy of the estimate afterwards (``n_explore = 0`` is
      ``"greedy"``);
    * ``prior``: the mean of the ridge prior of every cell's reward (0 by default, below every reward in
      [0, 1]: untried cells look worse than tried ones). The learner runs on the rewards minus ``prior``,
      which is exactly ridge regression towards ``prior``: with :math:`m=\text{prior}\cdot\mathbf 1`,
      :math:`m+\Sigma^{-1}\Phi^\top(y-\Phi m)` minimises :math:`\|y-\Phi\theta\|^2+\lambda\|\theta-m\|^2`,
      and :math:`m` is orthogonal to the gauge. Every policy's return moves by ``-prior * H``, so gaps do not
      change; the planner's clip stays at ``H - h``. The returned ``theta`` and ``J_star`` are on the original scale;
    * ``credit="uniform"`` (with ``feedback="outcome"``): no outcome regression; every step of the episode is
      credited with the same share :math:`y/H` of the outcome and fed to the per-step learner's rule
      (diagonal :math:`\Sigma_k`, noise s.d. :math:`\nu=\sigma/\sqrt H`, the s.d. of :math:`y/H`), the
      simplest credit assignment, with the same optimism.

    Parameters
    ----------
    mdp : TabularMDPs (batch ``B``: each MDP is an independent run)
    n_episodes : int >= 1
    feedback : {"outcome", "per_step"}
    seed : int (the learner's random stream: transitions and reward noise; the exploration of
        ``eps_greedy``, ``uniform`` and ``commit`` draws from a second stream of the same seed)
    explore : {"optimistic", "greedy", "eps_greedy", "uniform", "commit"}
    sigma : float >= 0, s.d. of the Gaussian noise of each step's reward
    lam : float > 0, ridge parameter
    known_transitions : bool
    eval_every : int >= 0; if positive, the greedy policy (plan on :math:`\hat P,\hat\theta`, no bonus)
        is evaluated exactly every ``eval_every`` episodes
    credit : {"regression", "uniform"}; ``"uniform"`` only with ``feedback="outcome"``
    eps : float in [0, 1], the exploration rate of ``explore="eps_greedy"``
    n_explore : int >= 0, the uniformly random episodes of ``explore="commit"`` (0 for every other rule)
    prior : float, the mean of the ridge prior of every cell's reward

    Returns
    -------
    dict with ``gap`` (B, n_episodes): :math:`J(\pi^*)-J(\pi_k)` of the played policies;
    ``final_gap`` (B,): gap of the greedy policy after the last episode; ``eval_at`` (m,) and ``eval_gap``
    (B, m) when ``eval_every > 0``; ``theta`` (B, H*S*A): the final reward estimate; ``J_star`` (B,).
    """
    if not isinstance(mdp, TabularMDPs):
        raise ValueError("mdp must be a TabularMDPs")
    n_episodes = check_int(n_episodes, "n_episodes", least=1)
    if feedback not in FEEDBACKS:
        raise ValueError(f"feedback must be one of {FEEDBACKS}; got {feedback!r}")
    if explore not in EXPLORES:
        raise ValueError(f"explore must be one of {EXPLORES}; got {explore!r}")
    if credit not in CREDITS:
        raise ValueError(f"credit must be one of {CREDITS}; got {credit!r}")
    if credit == "uniform" and feedback != "outcome":
        raise ValueError("credit='uniform' splits an outcome: it needs feedback='outcome'")
    eps = check_positive(eps, "eps", strict=False)
    if eps > 1:
        raise ValueError(f"eps must lie in [0, 1]; got {eps}")
    n_explore = check_int(n_explore, "n_explore", least=0)
    if n_explore and explore != "commit":
        raise ValueError("n_explore is the exploration phase of explore='commit'")
    prior = float(prior)
    if not np.isfinite(prior):
        raise ValueError(f"prior must be finite; got {prior}")
    if prior:  # ridge towards prior == ridge towards 0 on the rewards minus prior (see above)
        mdp = TabularMDPs(mdp.P, mdp.R - prior, mdp.rho)
    seed = check_int(seed, "seed", least=0)
    sigma = check_positive(sigma, "sigma", strict=False)
    lam = check_positive(lam, "lam")
    eval_every = check_int(eval_every, "eval_every", least=0)
    rng = np.random.default_rng(seed)
    rng_explore = np.random.default_rng([seed, 1])
    B, H, S, A = mdp.sizes
    d = H * S * A
    bi = np.arange(B)
    _, J_star = optimal_values(mdp)
    N = np.zeros((B, H, S, A))
    C = np.zeros((B, H, S, A, S))
    sum_r = np.zeros((B, d))            # per step: sum of rewards per cell; outcome: Phi^T y
    # outcome: the ridge prior is infinitely tight along the gauge G (no information there, no effect on
    # any policy value), so Sigma_k^{-1} starts at (I - Pi_G) / lam and the bonus has no gauge part
    regress = feedback == "outcome" and credit == "regression"
    Sinv = (np.repeat(((np.eye(d) - gauge_projector(S, A, H)) / lam)[None], B, axis=0)
            if regress else None)
    nu = sigma * np.sqrt(H) if regress else (sigma / np.sqrt(H) if feedback == "outcome" else sigma)
    steps_left = (H - 1 - np.arange(H))[None, :, None, None]
    gap = np.empty((B, n_episodes))
    eval_at, eval_gap = [], []

    def estimates() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if known_transitions:
            P_hat = mdp.P
        else:
            P_hat = np.where(N[..., None] > 0, C / np.maximum(N[..., None], 1), 1.0 / S)
        if regress:
            theta = (Sinv @ sum_r[:, :, None])[..., 0]
            var = Sinv.reshape(B, d * d)[:, :: d + 1]
        else:
            theta = sum_r / (lam + N.reshape(B, d))
            var = 1.0 / (lam + N.reshape(B, d))
        return P_hat, theta, var

    for k in range(n_episodes):
        P_hat, theta, var = estimates()
        R_hat = theta.reshape(B, H, S, A)
        if explore == "optimistic":
            beta = nu * np.sqrt(2.0 * np.log(1.0 + k + 1)) + np.sqrt(lam)
            bonus = beta * np.sqrt(var).reshape(B, H, S, A)
            if not known_transitions:
                bonus = bonus + steps_left * np.sqrt(np.log(1.0 + k + 1) / (2.0 * np.maximum(N, 1)))
            pi, _ = optimistic_plan(P_hat, R_hat, bonus, clip=True)
        elif explore == "uniform" or (explore == "commit" and k < n_explore):
            pi = rng_explore.integers(0, A, size=(B, H, S))
        else:
            pi, _ = optimistic_plan(P_hat, R_hat, None, clip=True)
            if explore == "eps_greedy":
                flip = rng_explore.random((B, H, S)) < eps
                pi = np.where(flip, rng_explore.integers(0, A, size=(B, H, S)), pi)
        gap[:, k] = J_star - value_of_policy(mdp, pi)
        states, actions, rewards = rollout(mdp, pi, sigma, rng)
        hh = np.arange(H)[None, :]
        np.add.at(N, (bi[:, None], hh, states, actions), 1.0)
        if H > 1 and not known_transitions:
            np.add.at(C, (bi[:, None], hh[:, :-1], states[:, :-1], actions[:, :-1], states[:, 1:]), 1.0)
        idx = (hh * S + states) * A + actions
        if regress:
            phi = trajectory_features(states, actions, S, A)
            Sinv = sherman_morrison(Sinv, phi)
            sum_r += phi * rewards.sum(-1, keepdims=True)
        elif feedback == "outcome":  # uniform credit: each step gets y / H
            np.add.at(sum_r, (bi[:, None], idx), np.repeat(rewards.mean(-1, keepdims=True), H, axis=-1))
        else:
            np.add.at(sum_r, (bi[:, None], idx), rewards)
        if eval_every and (k + 1) % eval_every == 0:
            P_hat, theta, _ = estimates()
            pg, _ = optimistic_plan(P_hat, theta.reshape(B, H, S, A), None, clip=False)
            eval_at.append(k + 1)
            eval_gap.append(J_star - value_of_policy(mdp, pg))
    P_hat, theta, _ = estimates()
    pg, _ = optimistic_plan(P_hat, theta.reshape(B, H, S, A), None, clip=False)
    out = {"gap": gap, "final_gap": J_star - value_of_policy(mdp, pg), "theta": theta + prior,
           "J_star": J_star + prior * H}
    if eval_every:
        out["eval_at"] = np.asarray(eval_at)
        out["eval_gap"] = np.stack(eval_gap, axis=1) if eval_gap else np.zeros((B, 0))
    return out


# --------------------------------------------------------------------------- the separating example
def all_sequences(H: int, A: int) -> np.ndarray:
    """Every action sequence of length ``H`` over ``A`` actions, shape (A**H, H), in lexicographic order."""
    H, A = check_int(H, "H", least=1), check_int(A, "A", least=2)
    if A**H > 2**22:
        raise ValueError(f"A**H = {A**H} sequences is too many")
    return np.stack(np.unravel_index(np.arange(A**H), (A,) * H), axis=-1)


def lock_step_rewards(a_star: ArrayLike, actions: ArrayLike) -> np.ndarray:
    r"""Per-step rewards of the combination lock with key ``a_star`` for the played ``actions``.

    The MDP is the tree of action prefixes (state = prefix, deterministic). With
    :math:`m` the number of leading steps on which ``actions`` agrees with the key,
    :math:`r_h=1/H` for :math:`h<m` (0-based), :math:`r_m=-m/H` if :math:`m<H`, and 0 after. So the
    outcome :math:`\sum_h r_h` is 1 if the lock opens (:math:`m=H`) and 0 otherwise, while the per-step
    rewards reveal :math:`m` (where the first wrong action was). The return of every policy is the same
    under both feedbacks; only what is observed differs.

    Parameters
    ----------
    a_star : int array, shape (..., H), keys (broadcast against ``actions``)
    actions : int array, shape (..., H)

    Returns
    -------
    ndarray, shape broadcast(a_star, actions)
    """
    a_star, actions = np.asarray(a_star), np.asarray(actions)
    if a_star.shape[-1:] != actions.shape[-1:] or a_star.ndim < 1:
        raise ValueError(f"a_star and actions must end with the same horizon; got {a_star.shape}, {actions.shape}")
    H = a_star.shape[-1]
    m = np.cumprod(a_star == actions, axis=-1).sum(-1)  # (...,)
    h = np.arange(H)
    r = np.where(h < m[..., None], 1.0 / H, 0.0)
    return r - np.where(h == m[..., None], m[..., None] / H, 0.0)


def run_lock(H: int, A: int, feedback: str, rng: np.random.Generator, key: ArrayLike | None = None) -> int:
    r"""Episodes until a version-space learner first opens the lock (plays the key), under one feedback.

    The reward class is :math:`\{R_{a^*}\}` over all :math:`A^H` keys (:func:`lock_step_rewards`). Each
    episode the learner plays the optimal sequence of a hypothesis still consistent with all observations
    (every consistent hypothesis promises the maximal return 1, so optimism picks one uniformly at random),
    observes the outcome (``"outcome"``) or the per-step rewards (``"per_step"``), and discards the
    hypotheses that predict other observations. Noise-free, so elimination is exact. Returns the episode
    index (1-based) at which the key is played.
    """
    if feedback not in FEEDBACKS:
        raise ValueError(f"feedback must be one of {FEEDBACKS}; got {feedback!r}")
    hyps = all_sequences(H, A)
    key = hyps[rng.integers(len(hyps))] if key is None else np.asarray(key)
    if key.shape != (H,):
        raise ValueError(f"key must have shape {(H,)}")
    alive = np.ones(len(hyps), dtype=bool)
    for k in range(1, len(hyps) + 1):
        cand = np.flatnonzero(alive)
        a = hyps[cand[rng.integers(len(cand))]]
        if np.array_equal(a, key):
            return k
        obs = lock_step_rewards(key, a)
        pred = lock_step_rewards(hyps[cand], a)  # (n_alive, H): what each hypothesis predicts
        if feedback == "outcome":
            ok = np.isclose(pred.sum(-1), obs.sum())
        else:
            ok = np.all(np.isclose(pred, obs), axis=-1)
        alive[cand[~ok]] = False
    raise RuntimeError("the key was eliminated: inconsistent feedback")  # pragma: no cover
