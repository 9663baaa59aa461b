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
# # Rectified flows are not optimal transport, even with a gradient constraint
#
# *One rectification only gives the optimal transport map in special cases (commuting Gaussian covariances,
# one dimension), and asking the rectified velocity to be a gradient does not fix this in general: zero-loss
# gradient fixed points can still transport at a cost far above the optimum.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
import scipy.linalg
from matplotlib.patches import Ellipse
from myst_nb import glue

from repro.claims import Claims, at_most, greater_than, less_than, tolerance
from repro.papers import rectified_flow_ot as K
from repro.runtime import setup_notebook

P = setup_notebook(scale, seed, presets={
    "ci": dict(n_mc=20_000, n_ot=800, n_gmm=500, n_1d=400, n_blob=200, n_rect=6, n_draw=25),
    "full": dict(n_mc=400_000, n_ot=3000, n_gmm=2500, n_1d=3000, n_blob=2000, n_rect=10, n_draw=40),
})
claims = Claims("rectified-flow-ot", title="On the Relation between Rectified Flows and Optimal Transport",
                authors="Johannes Hertrich, Antonin Chambolle, Julie Delon",
                paper_url="https://arxiv.org/abs/2505.19712", scale=scale, seed=seed)
rng = P.rng
rng_ctrl = np.random.default_rng([seed, 1])  # draws of the controls only, so the method's draws are unchanged


def bound(x, b):
    """An error printed at its precision: below ``b`` it is noise, shown as the bound."""
    return f"< {b:g}" if abs(x) < b else f"{x:.2g}"

# %% [markdown]
# ## The claim
#
# Rectified flow (Liu et al., 2022) takes any coupling $(X_0, X_1)$ of a source $\mu_0$ and a target
# $\mu_1$, follows the straight interpolation $X_t=(1-t)X_0+tX_1$, and fits the velocity field that is best
# in mean square, $v_t(x)=\mathbb E[X_1-X_0\mid X_t=x]$. Integrating $\dot z=v_t(z)$ from $z_0=X_0$ gives a
# new, deterministic coupling $(X_0, Z_1)$ with the same marginals and a transport cost
# $\mathbb E\|Z_1-X_0\|^2$ that is no larger. It is tempting to read this as a way of computing the
# optimal transport (OT) map. Liu also claimed that if the fitted velocity is constrained to be a gradient,
# $v_t=\nabla\varphi_t$, the fixed points of this "gradient-constrained rectification" are exactly the OT couplings.
#
# Hertrich, Chambolle and Delon examine both ideas. Their points that we check here are below. We read the
# abstract; the theorem and proposition numbers, and the details of each statement, come from a secondary
# (AI-written) summary of the paper that we could not check against its text, so the numbers may not match
# every arXiv version.
#
# 1. For Gaussians the rectified velocity is explicit and linear (their Theorem 3); one rectification gives
#    the OT map when the two covariances commute, and in one dimension (Proposition 4), **but not in general**.
# 2. The gradient-constrained velocity is the $L^2(\mu_t)$ projection of $v_t$ onto gradient fields (Proposition 8);
#    for a standard normal source and the independent coupling the unconstrained field already is a gradient (Corollary 9).
# 3. **Counterexamples** to "fixed point of the gradient-constrained rectification $\Rightarrow$ OT":
#    a coupling on disconnected supports (Proposition 10) and the non-rectifiable coupling $X_1=-X_0$
#    (Proposition 13), whose loss is zero but whose cost is not optimal; by perturbing the latter the loss
#    can be made as small as one likes while the cost stays far from optimal (Corollary 17).
#    Equivalence needs an extra assumption such as full support of $X_t$ (Theorem 11).

# %% [markdown]
# ## The method
#
# **Gaussian couplings.** Let $X_0\sim\mathcal N(0,\Sigma_0)$, $X_1\sim\mathcal N(0,\Sigma_1)$ be jointly Gaussian with
# cross-covariance $\Sigma_{01}=\mathbb E[X_0X_1^\top]$ ($\Sigma_{01}=0$ for the independent coupling). Then $X_t$ is Gaussian with
# covariance $\Sigma_t=(1-t)^2\Sigma_0+t(1-t)(\Sigma_{01}+\Sigma_{01}^\top)+t^2\Sigma_1$ and the conditional expectation is linear,
# $$v_t(x)=A_tx,\qquad A_t=\big(t\Sigma_1-(1-t)\Sigma_0+(1-t)\Sigma_{01}^\top-t\Sigma_{01}\big)\Sigma_t^{-1}.$$
# The rectified map is $Z_1=MX_0$ where $\dot M_t=A_tM_t$, $M_0=I$ (we integrate this $d\times d$ ODE with
# `scipy.integrate.solve_ivp`). The OT (Brenier) map between centred Gaussians is the symmetric positive definite matrix
# $$T=\Sigma_0^{-1/2}\big(\Sigma_0^{1/2}\Sigma_1\Sigma_0^{1/2}\big)^{1/2}\Sigma_0^{-1/2},\qquad
# W_2^2=\operatorname{tr}\Sigma_0+\operatorname{tr}\Sigma_1-2\operatorname{tr}\big(\Sigma_0^{1/2}\Sigma_1\Sigma_0^{1/2}\big)^{1/2},$$
# which we take from POT (`ot.gaussian.bures_wasserstein_mapping`, `bures_distance`). A linear map is an OT map iff it is
# symmetric positive semi-definite, so the asymmetry $\|M-M^\top\|$ certifies non-optimality.
#
# **Gradient constraint.** On a Gaussian marginal $\mathcal N(0,\Sigma_t)$ the $L^2$ projection of $x\mapsto A_tx$ onto gradient
# fields is $x\mapsto S_tx$ with $S_t$ symmetric solving the Lyapunov equation
# $$S_t\Sigma_t+\Sigma_tS_t=A_t\Sigma_t+\Sigma_tA_t^\top$$
# (`scipy.linalg.solve_continuous_lyapunov`): the residual $(A_t-S_t)x$ is divergence-free with respect to $\mu_t$, so the marginal
# path $\mu_t$ is unchanged and the kinetic energy is minimal. Iterating, the $(k{+}1)$-th rectification starts from the
# deterministic coupling $(X_0, M_kX_0)$, i.e. $\Sigma_{01}=\Sigma_0M_k^\top$.
#
# **Gaussian mixtures.** For independent mixtures $\sum_ia_i\mathcal N(m^0_i,\Sigma^0_i)$ and $\sum_jb_j\mathcal N(m^1_j,\Sigma^1_j)$, given the
# component pair $(i,j)$ the velocity is the affine Gaussian one above, and $v_t(x)=\sum_{ij}w_{ij}(x)v^{ij}_t(x)$ with
# posterior weights $w_{ij}(x)\propto a_ib_j\mathcal N(x;m^{ij}_t,\Sigma^{ij}_t)$ (their Theorem 5). We push particles through it and
# compare the rectified pairing with the exact OT pairing of the same point clouds (POT `ot.emd2`): the pairing of a cloud by
# a true OT map is already optimal (cyclical monotonicity), so any gap is a certificate that the map is not OT.
#
# **One dimension.** There the OT map from a continuous $\mu_0$ to $\mu_1$ is the monotone rearrangement $F_1^{-1}\circ F_0$
# ($F$ the CDFs). A map $x\mapsto z(x)$ is that map iff $F_1(z(x))=F_0(x)$: the quantile level it reaches equals the one it left.
# We measure $\max_i|F_1(z^i_1)-F_0(x^i_0)|$ over the source points. This needs both that the map is increasing *and* that it
# pushes $\mu_0$ to $\mu_1$; Proposition 4 asserts both of the 1-rectified flow. (Comparing its pairing cost with `emd2` of the
# same clouds, as our first version did, only tests that the map is increasing, which every 1-d flow map is.)
#
# **Rectification loss.** The loss of a coupling is $\int_0^1\mathbb E\|X_1-X_0-v_t(X_t)\|^2dt$ at the best $v$; for Gaussians it is
# $\int_0^1\operatorname{tr}(\operatorname{Var}(X_1-X_0)-A_t\Sigma_tA_t^\top)dt$.

# %% [markdown]
# ## The experiment
#
# * **(A) Gaussians in 2-d.** Non-commuting pair $\Sigma_0=\operatorname{diag}(1,0.2)$, $\Sigma_1=\begin{pmatrix}1&0.7\\0.7&1\end{pmatrix}$;
#   commuting controls. Closed-form velocity checked against Monte Carlo regression; $k$ rectifications with and without the
#   gradient constraint, costs against the Bures–Wasserstein cost.
# * **(B) Gaussian mixtures.** 1-d: $\mathcal N(0,1)\to0.3\,\mathcal N(-2,0.25)+0.7\,\mathcal N(1.5,0.5)$. 2-d: $\mathcal N(0,I)\to$ two
#   tilted components at $\pm(2,1)$. Particles through the closed-form mixture velocity; cost against `ot.emd2`.
# * **(C) Counterexamples.** Disconnected supports: two discs of radius 0.5 at $(-2,1)$ and $(2,-1)$ sent to discs at $(-2,-1)$ and
#   $(2,1)$, either horizontally (cost 16) or vertically (cost 4). Non-rectifiable: $X_1=-X_0\sim\mathcal N(0,1)$, and its perturbations
#   $X_1=-\rho X_0+sW$, $\rho=\sqrt{1-s^2}$.
#
# **Roles and wrong inputs.** The paper proves theorems, so our checks are of two kinds (section "Claim checks: roles"
# below). A check counts as a test only where the paper states something for a whole class of measures, our instance is
# measured by a computation that does not use its argument, and a naive or wrong alternative fails the same
# measurement. None of our checks meets that bar (an independent review showed naive maps and buggy kernels passing
# the three we had counted), so every check on this page is an illustration. Each is shown beside a companion:
#
# * *Closed-form velocity*: the same Monte Carlo comparison for a wrong kernel, the closed form with the
#   cross-covariance $\Sigma_{01}$ dropped.
# * *Marginals kept*: the flow of the naive gradient field $x\mapsto\tfrac12(A_t+A_t^\top)x$. It is a gradient,
#   but not the $L^2(\mu_t)$ projection, so it does not keep $\mu_t$.
# * *One step is OT for commuting covariances*: the non-commuting pair. The naive whitening map and two kernel bugs
#   also pass (section "What a skeptic would try").
# * *1-d mixture*: two strawmen that fail only because they do not reach $\mu_1$, the flow of an arbitrary increasing
#   field $3\sin x+1$ and the rectified flow towards the mixture with its weights swapped ($0.7/0.3$). A flow with no
#   rectification in it passes (section "What a skeptic would try").
# * *Gradient field, Corollary 9*: the anisotropic source $\mathcal N(0,\operatorname{diag}(1,0.2))$, same target. Two
#   wrong or naive velocities pass (section "What a skeptic would try").
# * *Counterexamples*: beside the zero-loss gradient field on discs, the same disc-to-disc assignment with
#   the points shuffled within each disc (crossing paths); beside the cost gaps, the optimal couplings (vertical discs;
#   $X_1=X_0$); beside the zero and small losses, the independent coupling of the same marginals ($s=1$).
#
# Deviations from the paper:
#
# * The paper is theoretical; it reports no benchmark. We verify its statements numerically on our own small instances; the
#   specific numbers (e.g. 0.6168 vs 0.4880) are ours, derived in the brief, not quoted from the paper.
# * Our disconnected-support example is our own construction in the spirit of Proposition 10 (we could not read the paper's
#   exact construction). A secondary summary gives costs 4 and 16 for the paper's example; we placed our discs so that
#   the two couplings cost exactly 16 and 4, so that match holds by construction and is not a reproduced number.
# * The gradient-constrained rectification is computed exactly only for Gaussians (linear fields). For the disconnected-support
#   counterexample we exhibit an explicit smooth gradient field of (numerically) zero loss instead of training a network.
# * No neural network is trained; all velocities are closed forms, integrated by `solve_ivp`. Point clouds are small
#   (at ci scale 500 points for the 2-d mixture, 800 for the Gaussian check, 400 in 1-d; see the presets), so
#   `ot.emd2` is exact but the mixture costs carry Monte Carlo error.
# * The controls were added after the first run (review, issue 10). Their random draws come from a separate stream, so the
#   method's own draws, and its numbers, are those of the first run. The 1-d mixture claim was redesigned after review
#   (flagged post hoc): its first measurement could not fail. In the re-grading of issue 34 twelve of the fifteen checks
#   became illustrations (section "Claim checks: roles"); no threshold, setting or measurement changed. After the
#   independent review the remaining three became illustrations too, and the naive alternatives the reviewer tried
#   are now computed on the page ("What a skeptic would try"); again no threshold or measurement changed.

# %% [markdown]
# ## Results
#
# ### (A) Gaussians: the closed-form velocity, and the maps of one or more rectifications

# %%
S0 = np.diag([1.0, 0.2])
S1 = np.array([[1.0, 0.7], [0.7, 1.0]])
S01_corr = 0.3 * np.array([[1.0, 0.2], [-0.1, 0.5]])  # a correlated (non-independent) coupling as well
t_check = [0.1, 0.3, 0.5, 0.7, 0.9]
rel_err, rel_err_wrong = [], []
for S01 in (np.zeros((2, 2)), S01_corr):
    J = np.block([[S0, S01], [S01.T, S1]])
    xy = rng.multivariate_normal(np.zeros(4), J, size=P.n_mc)
    for t in t_check:
        A, _ = K.gaussian_rf_velocity_matrix(t, S0, S1, S01)
        A_wrong, _ = K.gaussian_rf_velocity_matrix(t, S0, S1, None)  # control: cross-covariance ignored
        A_mc = K.mc_velocity_matrix(t, xy[:, :2], xy[:, 2:])
        rel_err.append(np.linalg.norm(A_mc - A) / np.linalg.norm(A))
        rel_err_wrong.append(np.linalg.norm(A_mc - A_wrong) / np.linalg.norm(A_wrong))
print(f"max relative error vs Monte Carlo ({P.n_mc} samples per t): closed form {max(rel_err):.4f}; "
      f"closed form without the cross-covariance (control) {max(rel_err_wrong):.4f}")

# %%
T = K.bures_ot_map(S0, S1)
ot_cost = K.bures_wasserstein_cost(S0, S1)
maps_rf = K.iterate_rectification(S0, S1, P.n_rect)
maps_gp = K.iterate_rectification(S0, S1, P.n_rect, grad_constrained=True)
cost_rf = [K.linear_transport_cost(M, S0) for M in maps_rf]
cost_gp = [K.linear_transport_cost(M, S0) for M in maps_gp]
M1, Mp1 = maps_rf[0], maps_gp[0]
push_err = max(np.abs(M @ S0 @ M.T - S1).max() for M in (M1, Mp1))
# control: the naive gradient field x -> sym(A_t) x (symmetric part, not the L2(mu_t) projection)
M_sym = K.linear_flow_map(lambda t: 0.5 * (K.gaussian_rf_velocity_matrix(t, S0, S1)[0]
                                           + K.gaussian_rf_velocity_matrix(t, S0, S1)[0].T), 2)
push_err_sym = float(np.abs(M_sym @ S0 @ M_sym.T - S1).max())
# control for the asymmetry: isotropic source, same target (Cor. 9: the field is already a gradient)
Mp_iso = K.rf_linear_flow_map(np.eye(2), S1, grad_constrained=True)
print(f"OT cost {ot_cost:.5f}; 1-RF {cost_rf[0]:.5f}; gradient-constrained 1-RF {cost_gp[0]:.5f}")
print("asymmetry |M - M^T|max: 1-RF", round(float(np.abs(M1 - M1.T).max()), 4),
      " constrained", round(float(np.abs(Mp1 - Mp1.T).max()), 4),
      f" constrained from an isotropic source {bound(np.abs(Mp_iso - Mp_iso.T).max(), 1e-9)}")
print(f"pushforward error: 1-RF maps {bound(push_err, 1e-9)}; naive symmetrised field (control) {push_err_sym:.3f}")

# %% [markdown]
# The Brenier map from POT is symmetric positive definite, pushes $\Sigma_0$ to $\Sigma_1$ and its cost is the Bures–Wasserstein
# formula. On samples: pairing a cloud $x_0$ with $Tx_0$ is already the exact `ot.emd2` optimum, and that cost is a Monte Carlo
# estimate of $W_2^2$. (`ot.emd2` between two *independent* clouds is a poorer check: in 2-d it carries an upward bias and sampling noise of
# several percent at these sizes, so we do not use it for the claim.)

# %%
x0g = rng.multivariate_normal(np.zeros(2), S0, size=P.n_ot)
x1g = rng.multivariate_normal(np.zeros(2), S1, size=P.n_ot)
emd_map = K.empirical_ot_cost(x0g, x0g @ T.T)
pair_map = K.coupling_cost(x0g, x0g @ T.T)
emd_indep = K.empirical_ot_cost(x0g, x1g)
bures_ok = bool(np.allclose(T, T.T, atol=1e-12) and np.linalg.eigvalsh(T).min() > 0
                and np.abs(T @ S0 @ T - S1).max() < 1e-8
                and abs(K.linear_transport_cost(T, S0) - ot_cost) < 1e-10)
print(f"W2^2 (Bures) {ot_cost:.4f} | emd2(x0, T x0) {emd_map:.4f} (pairing cost {pair_map:.4f}) | "
      f"emd2 of independent clouds {emd_indep:.4f}")

# %%
commuting = [  # (S0, S1, S01): 1-RF should be the OT map exactly
    (np.eye(2), S1, None),
    (np.diag([1.0, 0.3]), np.diag([2.0, 0.5]), None),
    (np.eye(1), np.eye(1), -np.sqrt(1 - 0.3**2) * np.eye(1)),  # correlated, commuting (reflection-like coupling)
]
comm_gap = max(abs(K.linear_transport_cost(K.rf_linear_flow_map(a, b, c), a) - K.bures_wasserstein_cost(a, b))
               for a, b, c in commuting)
fix_err = max(np.abs(K.rf_linear_flow_map(S0, S1, S0 @ T.T, grad_constrained=g) - T).max() for g in (False, True))
# control: re-rectify the non-OT deterministic coupling (X0, Mp1 X0) the same way
fix_err_ctrl = max(np.abs(K.rf_linear_flow_map(S0, Mp1 @ S0 @ Mp1.T, S0 @ Mp1.T, grad_constrained=g) - Mp1).max()
                   for g in (False, True))
print(f"commuting pairs: max |1-RF cost - OT cost| = {bound(comm_gap, 1e-9)}; OT coupling re-rectified: error {bound(fix_err, 1e-9)}; "
      f"non-OT coupling (X0, Mp1 X0) re-rectified: error {fix_err_ctrl:.2e}")
print("cost per rectification, unconstrained:", np.round(cost_rf, 6))
print("cost per rectification, constrained:  ", np.round(cost_gp, 6))

# %% [markdown]
# ### (B) Gaussian mixtures

# %%
g_std = K.make_gmm([1.0], [[0.0, 0.0]], [np.eye(2)])
g_two = K.make_gmm([0.5, 0.5], [[-2.0, -1.0], [2.0, 1.0]],
                   [[[0.5, 0.4], [0.4, 0.5]], [[0.5, -0.4], [-0.4, 0.5]]])
v2d = lambda t, x: K.gmm_rf_velocity(t, x, g_std, g_two)  # noqa: E731
t_path = np.linspace(0.0, 1.0, 21)
t01 = np.array([0.0, 1.0])
x0m = K.gmm_sample(g_std, P.n_gmm, rng)
traj = K.integrate_flow(v2d, x0m, t_path)
z1m = traj[-1]
rf_cost_2d, ot_cost_2d = K.coupling_cost(x0m, z1m), K.empirical_ot_cost(x0m, z1m)
perm = K.empirical_ot_pairing(x0m, z1m)
asym_pts = {t: x0m[:50] * (1 - t) + z1m[:50] * t for t in (0.1, 0.5, 0.9)}
asym_2d = max(K.velocity_jacobian_asymmetry(v2d, t, x) for t, x in asym_pts.items())
g_aniso = K.make_gmm([1.0], [[0.0, 0.0]], [S0])  # control: anisotropic source N(0, diag(1, 0.2))
asym_2d_aniso = max(K.velocity_jacobian_asymmetry(lambda t, x: K.gmm_rf_velocity(t, x, g_aniso, g_two), t, x)
                    for t, x in asym_pts.items())
# control for the OT gap: the same particle pipeline to a single Gaussian N(0, S1), where 1-RF is OT (Thm 3)
g_gauss = K.make_gmm([1.0], [[0.0, 0.0]], [S1])
z1g = K.integrate_flow(lambda t, x: K.gmm_rf_velocity(t, x, g_std, g_gauss), x0m, t01)[-1]
gap_gauss = (K.coupling_cost(x0m, z1g) - K.empirical_ot_cost(x0m, z1g)) / K.empirical_ot_cost(x0m, z1g)

g1d_0 = K.make_gmm([1.0], [[0.0]], [[[1.0]]])
g1d_1 = K.make_gmm([0.3, 0.7], [[-2.0], [1.5]], [[[0.25]], [[0.5]]])
x0_1d = K.gmm_sample(g1d_0, P.n_1d, rng)
g1d_wrong = K.make_gmm([0.7, 0.3], [[-2.0], [1.5]], [[[0.25]], [[0.5]]])  # control: weights swapped
z1_1d = K.integrate_flow(lambda t, x: K.gmm_rf_velocity(t, x, g1d_0, g1d_1), x0_1d, t01)[-1]
z1_sin = K.integrate_flow(lambda t, x: 3 * np.sin(x) + 1, x0_1d, t01)[-1]  # control: an arbitrary field
z1_wmix = K.integrate_flow(lambda t, x: K.gmm_rf_velocity(t, x, g1d_0, g1d_wrong), x0_1d, t01)[-1]
q_err_1d = K.transport_cdf_error_1d(x0_1d, z1_1d, g1d_0, g1d_1)
q_err_sin = K.transport_cdf_error_1d(x0_1d, z1_sin, g1d_0, g1d_1)
q_err_wmix = K.transport_cdf_error_1d(x0_1d, z1_wmix, g1d_0, g1d_1)
rf_cost_1d, ot_cost_1d = K.coupling_cost(x0_1d, z1_1d), K.empirical_ot_cost(x0_1d, z1_1d)
# the old measurement, for the record: the pairing cost of any increasing map equals emd2 of its own clouds
old_gap = {name: (K.coupling_cost(x0_1d, z) - K.empirical_ot_cost(x0_1d, z)) / K.empirical_ot_cost(x0_1d, z)
           for name, z in (("1-RF", z1_1d), ("3 sin x + 1", z1_sin), ("wrong mixture", z1_wmix))}
print(f"2-d mixture: 1-RF cost {rf_cost_2d:.4f} vs emd2 on the same clouds {ot_cost_2d:.4f} "
      f"(relative gap {(rf_cost_2d - ot_cost_2d) / ot_cost_2d:.4f}; Gaussian target control {bound(gap_gauss, 1e-9)})")
print(f"Jacobian asymmetry: standard normal source {bound(asym_2d, 1e-8)}; anisotropic source (control) {asym_2d_aniso:.3f}")
print(f"1-d mixture, max |F1(z1) - F0(x0)|: 1-RF {bound(q_err_1d, 1e-6)}; field 3 sin x + 1 {q_err_sin:.3f}; "
      f"RF field of the wrong mixture {q_err_wmix:.3f}")
print("old measurement (pairing cost vs emd2 of the same clouds, relative gap):",
      {k: bound(v, 1e-12) for k, v in old_gap.items()})

# %% [markdown]
# ### (C) Counterexamples to "gradient-constrained fixed point $\Rightarrow$ OT"

# %%
half = P.n_blob
xa, xb = K.uniform_disc_sample(half, [-2, 1], 0.5, rng), K.uniform_disc_sample(half, [2, -1], 0.5, rng)
x0c = np.concatenate([xa, xb])
u_up, u_down, e2 = np.array([4.0, 0.0]), np.array([-4.0, 0.0]), np.array([0.0, 1.0])
x1_h = x0c + np.where(x0c[:, 1:] > 0, u_up, u_down)            # horizontal coupling (cost 16)
x1_v = x0c + np.where(x0c[:, 1:] > 0, -2 * e2, 2 * e2)          # vertical coupling (cost 4)
v_grad = lambda t, x: K.split_translation_velocity(x, u_up, u_down, e2)  # noqa: E731  (= grad of a smooth potential)
loss_cx1 = K.rectification_loss_mc(v_grad, x0c, x1_h, np.linspace(0, 1, 11))
flow_err_cx1 = np.abs(K.integrate_flow(v_grad, x0c, np.array([0.0, 1.0]))[-1] - x1_h).max()
cost_h, cost_v, emd_cx1 = K.coupling_cost(x0c, x1_h), K.coupling_cost(x0c, x1_v), K.empirical_ot_cost(x0c, x1_h)
emd_cx1_v = K.empirical_ot_cost(x0c, x1_v)  # the control's own target cloud
# control: the same disc-to-disc assignment with the points shuffled within each disc (crossing paths)
shuf = np.concatenate([rng_ctrl.permutation(half), half + rng_ctrl.permutation(half)])
x1_shuf = x1_h[shuf]
loss_shuf = K.rectification_loss_mc(v_grad, x0c, x1_shuf, np.linspace(0, 1, 11))
flow_err_shuf = np.abs(K.integrate_flow(v_grad, x0c, t01)[-1] - x1_shuf).max()
print(f"disconnected supports: loss {bound(loss_cx1, 1e-9)}, flow error {bound(flow_err_cx1, 1e-9)} (shuffled control: loss "
      f"{loss_shuf:.3f}, flow error {flow_err_shuf:.3f}); cost {cost_h:.3f} (horizontal) vs {cost_v:.3f} (vertical) "
      f"vs emd2 {emd_cx1:.3f} (vertical cloud: emd2 {emd_cx1_v:.3f})")

# %%
x0r = rng.standard_normal((P.n_1d, 1))
x1r = -x0r
v_refl = lambda t, x: -2.0 * x / (1.0 - 2.0 * t)  # noqa: E731  Thm 3 with S01 = -I; singular at t = 1/2
t_loss = np.array([0.0, 0.2, 0.4, 0.49, 0.51, 0.6, 0.8, 1.0])  # any t except 1/2
loss_cx2 = K.rectification_loss_mc(v_refl, x0r, x1r, t_loss)
# control: the independent coupling of the same marginals with its own Theorem-3 velocity
x1_ind = rng_ctrl.standard_normal((P.n_1d, 1))
v_ind = lambda t, x: K.gaussian_rf_velocity(t, x, [0.0], np.eye(1), [0.0], np.eye(1))  # noqa: E731
loss_ind = K.rectification_loss_mc(v_ind, x0r, x1_ind, t_loss)
gap_identity = K.coupling_cost(x0r, x0r) - K.empirical_ot_cost(x0r, x0r)  # control: X1 = X0 (optimal)
cost_cx2 = K.coupling_cost(x0r, x1r)
emd_cx2 = K.empirical_ot_cost(x0r, x1r)
s_grid = np.logspace(-4, -0.3, 12)
loss_s = np.array([K.gaussian_rectification_loss(np.eye(1), np.eye(1), -np.sqrt(1 - s * s) * np.eye(1)) for s in s_grid])
cost_s = 2 * (1 + np.sqrt(1 - s_grid**2))  # E|X1 - X0|^2 of the perturbed coupling
loss_small = K.gaussian_rectification_loss(np.eye(1), np.eye(1), -np.sqrt(1 - 1e-6) * np.eye(1))
loss_indep = K.gaussian_rectification_loss(np.eye(1), np.eye(1), np.zeros((1, 1)))  # control: s = 1
print(f"X1 = -X0: loss {bound(loss_cx2, 1e-12)}, cost {cost_cx2:.3f}, emd2 {emd_cx2:.3f}; independent coupling (control): "
      f"loss {loss_ind:.3f}")
print(f"perturbed (s = 1e-3): loss {loss_small:.2e}, cost {2 * (1 + np.sqrt(1 - 1e-6)):.4f}, 1-RF map = I (cost 0); "
      f"independent coupling (s = 1, control): loss {loss_indep:.3f}")

# %% [markdown]
# **Figure 1: flow trajectories.** Left: the independent Gaussian coupling of the non-commuting pair. The rectified flow (blue)
# follows curved paths and ends at a different point from the OT map (black, straight); the gradient-constrained flow (orange)
# ends close to, but not at, the OT target. Right: a standard normal sent to a two-component mixture. The rectified paths
# bend, and the exact OT pairing of the same clouds (dashed grey) reassigns some endpoints.

# %%
def cov_ellipse(ax, S, **kw):
    w, V = np.linalg.eigh(S)
    ang = np.degrees(np.arctan2(V[1, 1], V[0, 1]))
    ax.add_patch(Ellipse((0, 0), 4 * np.sqrt(w[1]), 4 * np.sqrt(w[0]), angle=ang, fill=False, **kw))

fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.8))
ax = axes[0]
pts = np.array([[np.cos(a), np.sqrt(0.2) * np.sin(a)] for a in np.linspace(0, 2 * np.pi, 9)[:-1]]) * 1.5
z = np.zeros(2)
tr_rf = K.integrate_flow(lambda t, x: K.gaussian_rf_velocity(t, x, z, S0, z, S1), pts, t_path)
cov_ellipse(ax, S0, color="0.5", ls=":", label=r"$\mu_0$ (2 sd)")
cov_ellipse(ax, S1, color="0.2", ls="--", label=r"$\mu_1$ (2 sd)")
for i in range(len(pts)):
    ax.plot(tr_rf[:, i, 0], tr_rf[:, i, 1], color="C0", lw=1.4, label="rectified flow" if i == 0 else None)
    e_ot, e_gp = T @ pts[i], Mp1 @ pts[i]
    ax.plot([pts[i, 0], e_ot[0]], [pts[i, 1], e_ot[1]], color="k", lw=1, label="OT map" if i == 0 else None)
    ax.plot(*e_gp, "o", color="C1", ms=4, label="gradient-constrained 1-RF end" if i == 0 else None)
    ax.plot(*tr_rf[-1, i], "x", color="C0", ms=5, label="1-RF end" if i == 0 else None)
ax.plot(*pts.T, "k.", ms=5)
ax.set(xlabel="$x_1$", ylabel="$x_2$", title="Gaussians, non-commuting covariances", aspect="equal")
ax.legend(loc="upper left", fontsize=7)
ax = axes[1]
k = P.n_draw
for i in range(k):
    ax.plot(traj[:, i, 0], traj[:, i, 1], color="C0", lw=0.9, label="rectified flow" if i == 0 else None)
    ax.plot([x0m[i, 0], z1m[perm[i], 0]], [x0m[i, 1], z1m[perm[i], 1]], color="0.4", ls="--", lw=0.8,
            label="exact OT pairing (emd)" if i == 0 else None)
ax.plot(*x0m[:k].T, "k.", ms=4, label="source points")
ax.set(xlabel="$x_1$", ylabel="$x_2$", title=r"$\mathcal{N}(0,I)\to$ 2-component mixture")
ax.legend(loc="upper left", fontsize=7)
plt.show()

# %% [markdown]
# **Figure 2: transport cost of each map against the OT cost.** Left: iterated rectification of the Gaussian pair. Without
# the constraint the cost drops once and then stays put, above $W_2^2$: the 1-rectified coupling is deterministic and
# non-crossing, hence already a fixed point. With the constraint (full-support Gaussians, the setting of Theorem 11) the cost
# decreases towards $W_2^2$ step after step, by a factor of about {glue:text}`gp_factor:.0f` per step over the first
# four steps, and ends {glue:text}`gp_final_txt` above it (the integrator's accuracy). Right: cost of each coupling (bars) against the exact OT cost (black tick) in
# the mixture and counterexample settings.

# %%
fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.8))
ax = axes[0]
ks = np.arange(1, P.n_rect + 1)
ax.semilogy(ks, np.array(cost_rf) - ot_cost, "o-", label="rectified flow")
ax.semilogy(ks, np.maximum(np.array(cost_gp) - ot_cost, 1e-16), "s-", label="gradient-constrained")
ax.set(xlabel="number of rectifications $k$", ylabel=r"cost $-\ W_2^2$ (squared units)",
       title=r"Gaussians: excess cost over $W_2^2=%.4f$" % ot_cost)
ax.legend()
ax = axes[1]
names = ["1-d mixture\n1-RF", "2-d mixture\n1-RF", "discs,\nhorizontal", r"$X_1=-X_0$"]
cost_bar = [rf_cost_1d, rf_cost_2d, cost_h, cost_cx2]
ot_bar = [ot_cost_1d, ot_cost_2d, emd_cx1, emd_cx2]
xs = np.arange(len(names))
ax.bar(xs, cost_bar, color="C0", width=0.6, label="coupling cost")
ax.scatter(xs, ot_bar, marker="_", s=600, color="k", zorder=3, label="exact OT cost (emd2)")
ax.set_xticks(xs, names, fontsize=8)
ax.set(ylabel=r"$E\|X_1-X_0\|^2$ (squared units)", title="Cost of each coupling vs OT")
ax.legend(fontsize=8, loc="upper left")
plt.show()

# %% [markdown]
# **Figure 3: the two counterexamples.** Left: disconnected supports. Both the horizontal coupling (cost 16) and the vertical
# one (cost 4) move each disc rigidly along non-crossing straight lines, so each is reproduced by the flow of a smooth gradient
# field with zero loss: both are fixed points of the gradient-constrained rectification, but only the vertical one is optimal.
# Middle: $X_1=-X_0$; all straight paths pass through the origin at $t=1/2$, where the velocity $-2x/(1-2t)$ blows up.
# Right: perturbing it ($X_1=-\rho X_0+sW$) gives couplings whose minimal loss goes to zero like $\pi s$ while their cost tends
# to 4, far from the OT cost 0.

# %%
fig, axes = plt.subplots(1, 3, figsize=(11, 3.6))
ax = axes[0]
sub = np.r_[0:6, half:half + 6]
for i in sub:
    ax.annotate("", x1_h[i], x0c[i], arrowprops=dict(arrowstyle="->", color="C1", lw=0.8))
    ax.annotate("", x1_v[i], x0c[i], arrowprops=dict(arrowstyle="->", color="C2", lw=0.8))
ax.plot(*x0c.T, ".", color="C0", ms=1.5, label=r"$\mu_0$")
ax.plot(*x1_v.T, ".", color="0.6", ms=1.5, label=r"$\mu_1$")
ax.plot([], [], color="C1", label=f"horizontal, cost {cost_h:.0f}")
ax.plot([], [], color="C2", label=f"vertical, cost {cost_v:.0f}")
ax.set(xlabel="$x_1$", ylabel="$x_2$", title="Disconnected supports", aspect="equal", ylim=(-2.2, 2.8))
ax.legend(fontsize=7, loc="upper center", ncol=2)
ax = axes[1]
tt = np.linspace(0, 1, 41)
for x in np.linspace(-2, 2, 9):
    ax.plot(tt, (1 - 2 * tt) * x, color="C0", lw=1)
ax.axvline(0.5, color="k", ls=":", lw=1)
ax.set(xlabel="time $t$", ylabel="$X_t$", title=r"$X_1=-X_0$: paths meet at $t=1/2$")
ax = axes[2]
ax.loglog(s_grid, loss_s, "o-", label="minimal rectification loss")
ax.loglog(s_grid, np.pi * s_grid, ":", color="k", label=r"$\pi s$")
ax.loglog(s_grid, cost_s, "s-", label=r"cost $E|X_1-X_0|^2$ (OT cost 0)")
ax.set(xlabel="perturbation $s$", ylabel="loss / cost (squared units)", title="Small loss, far from OT")
ax.legend(fontsize=7)
plt.show()

# %% [markdown]
# **Figure 4: one dimension, does the flow reach the target law?** For each source point, the quantile level its image
# reaches under the target CDF, $F_1(z_1)$, against the level it left, $F_0(x_0)$. The 1-rectified flow lies on the
# diagonal (Proposition 4: it is the monotone map onto the target law). The two strawman controls are increasing maps, so
# they pass the old cost-versus-`emd2` check, but they end at the wrong quantiles: the flow of $3\sin x+1$, and the
# rectified flow towards the mixture with swapped weights.

# %%
fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.8))
order = np.argsort(x0_1d[:, 0])
u0 = K.gmm_cdf_1d(g1d_0, x0_1d[order, 0])
ax = axes[0]
for z, lab, sty in ((z1_1d, "1-RF (Thm. 5 field)", "-"), (z1_sin, r"control: flow of $3\sin x+1$", "--"),
                    (z1_wmix, "control: RF to swapped-weight mixture", ":")):
    ax.plot(u0, K.gmm_cdf_1d(g1d_1, z[order, 0]), sty, lw=1.6, label=lab)
ax.plot([0, 1], [0, 1], color="0.6", lw=0.8)
ax.set(xlabel=r"quantile level left, $F_0(x_0)$", ylabel=r"quantile level reached, $F_1(z_1)$",
       title="Pushed quantiles against the target's", aspect="equal")
ax.legend(fontsize=7, loc="upper left")
ax = axes[1]
xs_plot = np.linspace(-4.5, 4.5, 400)
ax.hist(z1_1d[:, 0], bins=40, density=True, color="C0", alpha=0.5, label="1-RF images $z_1$")
dens = sum(w * np.exp(-(xs_plot - m[0]) ** 2 / (2 * c[0, 0])) / np.sqrt(2 * np.pi * c[0, 0]) for w, m, c in zip(*g1d_1))
ax.plot(xs_plot, dens, "k", lw=1.2, label=r"target density $\mu_1$")
ax.hist(z1_sin[:, 0], bins=40, density=True, histtype="step", color="C1", label=r"images under $3\sin x+1$")
ax.set(xlabel="$x$", ylabel="density (1 / unit of $x$)", title="Where the 1-d flows end")
ax.legend(fontsize=7)
plt.show()

# %% [markdown]
# ### Claim checks: roles
#
# The paper is a theoretical one, so every check on this page is about a theorem, and the rubric
# (`evidence-rubric.md`) decides its role. A check would be a counted **test** only where the paper states something for
# *all* measures of a class, our measurement of an instance is a computation that does not use the paper's argument
# and could refute the statement, and a naive or wrong alternative fails it. Three checks were counted until an
# independent review; none of them qualifies, and all three are illustrations now:
#
# * `rf-ot-commuting` (Theorem 3's commuting case): commuting covariances diagonalise jointly, so the instance splits
#   into one-dimensional problems, where any flow is increasing and any increasing map that keeps the marginals is OT.
#   The check follows from marginal preservation (prior work) and classical 1-d OT. The naive whitening map and two
#   deliberate kernel bugs pass it, and it has no randomness.
# * `gmm-1d-ot` (Proposition 4): the same two facts, Liu et al.'s marginal preservation and the monotonicity of 1-d
#   flows. A density-interpolation flow with no rectification in it passes, and the two wrong inputs are strawmen.
#   What it does check is our implementation of the Theorem 5 mixture velocity (a prior-weight formula error fails
#   it). It was redesigned after review (post hoc) and never confirmed.
# * `gmm-grad-field` (Corollary 9): from $\mathcal N(0,I)$ the velocity is $x/t+\tfrac{1-t}{t}\nabla\log p_t$
#   (Tweedie's identity), a gradient whatever the target, and the measured side differentiates our own closed form.
#   A prior-weight velocity and a moment-matched single-Gaussian velocity pass it.
#
# The other checks are **illustrations** too, shown and never counted. The paper's counterexamples are existence statements.
# A counterexample can be checked, but an instance that we chose cannot refute the paper, and its values are fixed by
# the way we built it: the discs sit where their costs are 16 and 4, $X_1=-X_0$ has cost 4 by algebra, and the
# non-commuting pair's gap was derived in the brief before the first run. The same holds for our own test case
# `gmm-2d-not-ot`, which the paper does not claim. Other checks are prior work or classical results: the Gaussian
# conditional expectation behind the closed-form velocity, and Liu et al.'s facts that rectification keeps the marginals,
# that the OT coupling is a fixed point, and that a deterministic non-crossing coupling is its own rectification.
# Three further identities (POT's Bures map is symmetric positive definite, pushes $\Sigma_0$ to $\Sigma_1$ and has the
# Bures–Wasserstein cost; `emd2` of a cloud and its image under that map is $W_2^2$ up to Monte Carlo error; the cost never
# increases over our iterated rectifications) are unit tests in `tests/papers/test_rectified_flow_ot.py`.
#
# Thresholds are the brief's, fixed before the first run: numerical tolerances for exact identities, gaps of 1e-2 for
# "not OT". Errors at the level of rounding or of the ODE solver's accuracy are recorded as bounds at that precision.

# %%
ODE_TOL = tolerance(abs=1e-9, why="matrix ODE solved by DOP853 to rtol 1e-11, atol 1e-13: errors below 1e-9 are "
                    "integrator and rounding noise, recorded as that bound")
EXISTENCE = ("an existence statement (a counterexample) shown on an instance we chose: an instance cannot refute "
             "the paper, and the value is fixed by our construction")
claims.headline(
    "gaussian-and-1d-one-step",
    "Rectified flows have explicit velocity fields for Gaussians with any joint covariance and for Gaussian mixtures; "
    "one rectification gives the OT map when the Gaussian covariances commute, and always in one dimension",
    untestable="the velocity fields are closed forms (a Gaussian conditional expectation; Thm. 5 is a mixture of "
               "them), so checking them checks our code. Commuting covariances split into 1-d problems, and in 1-d "
               "every flow is increasing, so any flow that keeps the marginals (prior work, Liu et al.) is OT: the "
               "naive whitening map, two kernel bugs and a flow with no rectification pass our checks. Shown as "
               "illustrations: velocity-closed-form, rf-ot-commuting, gmm-1d-ot, rf-not-ot-noncommuting")
claims.headline(
    "gradient-constrained-solutions",
    "The gradient-constrained rectification problem has a solution, the L2(mu_t) projection of the velocity onto "
    "gradients; from a standard normal source with the independent coupling the velocity already is a gradient",
    untestable="we compute the projection only for Gaussian marginals, where it is a Lyapunov solve of our own "
               "derivation (illustration rf-pushforward); for mixtures it would need an elliptic PDE solve. From "
               "N(0, I) the velocity is a gradient by Tweedie's identity whatever the target, so wrong and naive "
               "velocities pass the Jacobian check too (illustration gmm-grad-field)")
claims.headline(
    "counterexamples-to-equivalence",
    "Fixed points of gradient-constrained rectification need not be OT couplings: counterexamples (disconnected "
    "supports, the non-rectifiable X1 = -X0) invalidate the earlier equivalence results, which need much stronger "
    "assumptions such as full support of X_t",
    untestable="existence statements: a counterexample can be checked but not tested, since no instance we build "
               "could refute them and their values follow from the construction. Ours are illustrations: "
               "cx1-gradient-fixed-point, cx1-cost-gap, cx2-zero-loss, cx2-cost-gap, cx2-small-loss, "
               "grad-one-step-not-ot")
claims.headline(
    "gradient-constraint-unreliable-for-ot",
    "Enforcing a gradient constraint on rectified flows is, in general, not a reliable way to compute OT maps",
    untestable="a judgement about practice, with trained velocity networks; we train none. On the one smooth "
               "instance we tried (gmm-2d-not-ot, an illustration) the one-step map of a gradient field misses OT "
               "by far less than the 1% we had fixed")
claims.illustrate(
    "velocity-closed-form", statement="The closed-form Gaussian rectified velocity (Thm. 3) matches a Monte Carlo "
    "regression of X1-X0 on X_t (max relative Frobenius error over 5 times, independent and correlated couplings)",
    paper="Thm. 3 gives v_t in closed form", criterion=less_than(0.05), measured=float(max(rel_err)),
    why="the conditional expectation of jointly Gaussian variables is a classical formula (linear regression); the "
        "Monte Carlo side only measures its own sampling noise, which at ci sizes straddles the 5% bar")
claims.illustrate(
    "rf-pushforward", statement="The 1-RF map and the gradient-constrained 1-RF map both push N(0,S0) to N(0,S1) "
    "(max entry error)", paper="rectification preserves marginals; the projection keeps mu_t (Prop. 8)",
    criterion=less_than(1e-6), measured=float(push_err), tol=ODE_TOL,
    why="marginal preservation is Liu et al.'s (prior work); that the Lyapunov projection keeps mu_t is our derivation, "
        "checked here with our own code")
claims.illustrate(
    "rf-not-ot-noncommuting", statement="Non-commuting Gaussians: 1-RF cost minus W2^2",
    paper="one step is OT when the covariances commute, not in general (Thm. 3, per a secondary summary); "
    "no number: 0.6168 vs 0.4880 is our brief's derivation",
    criterion=greater_than(1e-2), measured=cost_rf[0] - ot_cost, tol=ODE_TOL,
    why=EXISTENCE + " (the brief derived the gap for this pair before the first run)")
claims.illustrate(
    "rf-ot-commuting",
    statement="Commuting pairs (two 2-d, one 1-d correlated coupling): |1-RF cost - W2^2|, max over 3 pairs",
    paper="jointly diagonalisable covariances: one rectification gives OT (Thm. 3)",
    criterion=less_than(1e-6), measured=float(comm_gap), tol=ODE_TOL,
    why="commuting covariances diagonalise jointly, so the instance is a set of 1-d problems, where any flow is "
        "increasing and any increasing map that keeps the marginals is OT: it follows from marginal preservation "
        "(prior work) and classical 1-d OT. The naive whitening map and two kernel bugs (A_t's factors swapped; the "
        "cross-covariance dropped) pass it too; it has no randomness")
claims.illustrate(
    "grad-one-step-not-ot", statement="Gradient-constrained 1-RF map is not symmetric (max |M - M^T|), hence not OT",
    paper="a gradient constraint does not in general yield OT (abstract); no number: asymmetry 0.08 and cost "
    "0.48898 vs 0.48799 are our brief's derivation",
    criterion=greater_than(1e-3), measured=float(np.abs(Mp1 - Mp1.T).max()), tol=ODE_TOL,
    why=EXISTENCE + " (the brief derived the asymmetry for this pair before the first run)")
claims.illustrate(
    "ot-fixed-point", statement="Rectifying the OT coupling returns the OT map (with and without constraint; max error)",
    paper="OT couplings are fixed points of rectification", criterion=less_than(1e-6), measured=float(fix_err),
    tol=ODE_TOL, why="prior work (Liu et al., 2022): a deterministic coupling with straight non-crossing paths is its "
                     "own rectification")
claims.illustrate(
    "rf-stalls-above-ot", statement=f"Unconstrained rectification is stuck: cost minus W2^2 after {P.n_rect} steps",
    paper="fixed points of unconstrained rectification need not be OT", criterion=greater_than(1e-2),
    measured=cost_rf[-1] - ot_cost, tol=ODE_TOL,
    why="the 1-rectified coupling is deterministic and non-crossing, hence its own rectification (prior work), so "
        "this is the number of rf-not-ot-noncommuting again")
claims.illustrate(
    "gmm-1d-ot",
    statement="1-d mixture: the 1-RF flow map is the 1-d OT map F1^-1(F0(x)): max over the source points of "
              "|F1(z1) - F0(x0)| (quantile level reached against quantile level left)",
    paper="in 1-d one rectification gives the OT coupling (Prop. 4)", criterion=less_than(1e-4),
    measured=q_err_1d,
    tol=tolerance(abs=1e-6, why="particles integrated by DOP853 to rtol 1e-8, atol 1e-10: quantile-level errors below "
                  "1e-6 are integrator error, recorded as that bound"),
    why="a corollary of prior work and a classical fact (rectification keeps the marginals; a 1-d flow is "
        "increasing), so any marginal-preserving 1-d flow passes, one with no rectification in it included; it "
        "checks our Thm. 5 mixture-velocity code (a prior-weight formula error fails it). Redesigned after review "
        "(post hoc) and never confirmed; its two companions (3 sin x + 1, swapped weights) are strawmen")
claims.illustrate(
    "gmm-grad-field",
    statement="Standard normal source, 2-d mixture target: velocity Jacobian asymmetry (max relative)",
    paper="with X0 ~ N(0, I) and independent coupling v_t is a gradient (Cor. 9)", criterion=less_than(1e-5),
    measured=float(asym_2d),
    tol=tolerance(abs=1e-8, why="Jacobian by central differences with step 1e-5: truncation (h^2 ~ 1e-10) and "
                  "rounding (~1e-16/h relative) put values below 1e-8 within differencing error"),
    why="Tweedie's identity: from N(0, I), v_t(x) = x/t + (1-t)/t grad log p_t(x), a gradient whatever the target; "
        "the measured side differentiates our own Thm. 5 closed form, and a prior-weight velocity and a "
        "moment-matched single-Gaussian velocity pass it too")
claims.illustrate(
    "gmm-2d-not-ot",
    statement="N(0, I) to a 2-d mixture: relative gap of the 1-RF pairing cost over emd2 of the same clouds",
    paper="our test case, not a number of the paper: a gradient velocity field need not give an OT flow map",
    criterion=greater_than(1e-2), measured=(rf_cost_2d - ot_cost_2d) / ot_cost_2d,
    tol=tolerance(rel=1e-3, abs=1e-9, why="a small difference of two costs of particles integrated to rtol "
                  "1e-8; gaps below 1e-9 are integrator noise"),
    why="an instance of ours that the paper does not discuss: the paper claims no gap for it, so neither outcome could "
        "refute the paper (it was counted, and not reproduced, before the re-grading of issue 34)")
claims.illustrate(
    "cx1-gradient-fixed-point", statement="Disconnected supports: a smooth gradient field reproduces the horizontal "
    "coupling with zero loss (max of loss, flow error)", paper="Prop. 10: zero-loss fixed point of R_p",
    criterion=less_than(1e-6), measured=float(max(loss_cx1, flow_err_cx1)),
    tol=tolerance(abs=1e-9, why="rounding and integrator noise (the field is constant on the support up to "
                  "e^-50, particles integrated to rtol 1e-8): values below 1e-9 are recorded as that bound"),
    why=EXISTENCE + " (the field is a constant translation on each disc)")
claims.illustrate(
    "cx1-cost-gap", statement="...but its cost exceeds the exact OT cost (emd2) by",
    paper="Prop. 10: zero-loss fixed point above the OT cost; secondary summary of its example: cost 16 vs OT 4",
    criterion=greater_than(1.0), measured=cost_h - emd_cx1,
    why=EXISTENCE + " (we placed the discs so that the two couplings cost 16 and 4)")
claims.illustrate(
    "cx2-zero-loss", statement="X1 = -X0: the velocity -2x/(1-2t) has zero rectification loss (MC, t != 1/2)",
    paper="Prop. 13: non-rectifiable coupling with zero loss", criterion=less_than(1e-10), measured=float(loss_cx2),
    why=EXISTENCE + " (X1 - X0 = -2x/(1-2t) along every path, an identity)")
claims.illustrate(
    "cx2-cost-gap", statement="...while its cost exceeds the exact OT cost (emd2) by",
    paper="Prop. 13: zero loss, not optimal (in 1-d its cost is 4, OT 0)",
    criterion=greater_than(1.0), measured=cost_cx2 - emd_cx2,
    why=EXISTENCE + " (E|2 X0|^2 = 4 and X1 = X0 in law, OT cost 0)")
claims.illustrate(
    "cx2-small-loss", statement="Perturbed coupling (s = 1e-3, cost 4.00): minimal rectification loss",
    paper="Cor. 17: loss arbitrarily small, cost far from optimal", criterion=at_most(1e-2), measured=float(loss_small),
    why="a closed form (the Gaussian loss integral) evaluated at a preset s; it is about pi s")

# %%
naive_map = lambda a, b: np.real(scipy.linalg.sqrtm(b)) @ np.linalg.inv(np.real(scipy.linalg.sqrtm(a)))  # noqa: E731
naive_comm = max(abs(K.linear_transport_cost(naive_map(a, b), a) - K.bures_wasserstein_cost(a, b))
                 for a, b, c in commuting if c is None)
naive_noncomm = K.linear_transport_cost(naive_map(S0, S1), S0) - ot_cost
w1d, m1d, c1d = g1d_1
mean_1d = float(np.sum(w1d * m1d[:, 0]))
sd_1d = float(np.sqrt(np.sum(w1d * (c1d[:, 0, 0] + m1d[:, 0] ** 2)) - mean_1d**2))
q_err_affine = K.transport_cdf_error_1d(x0_1d, mean_1d + sd_1d * x0_1d, g1d_0, g1d_1)


def rf_map_swapped(a, b, c):
    """Kernel bug: A_t = Sigma_t^-1 K instead of K Sigma_t^-1 (the two factors swapped)."""
    def afield(t):
        A, C = K.gaussian_rf_velocity_matrix(t, a, b, c)
        return np.linalg.solve(C, A @ C)
    return K.linear_flow_map(afield, a.shape[0])


def bw_gap(M, a, b):
    return abs(K.linear_transport_cost(M, a) - K.bures_wasserstein_cost(a, b))


bug_swap_comm = max(bw_gap(rf_map_swapped(a, b, c), a, b) for a, b, c in commuting)
bug_swap_noncomm = bw_gap(rf_map_swapped(S0, S1, None), S0, S1)
bug_s01_comm = max(bw_gap(K.rf_linear_flow_map(a, b, None), a, b) for a, b, c in commuting)  # bug: S01 dropped


def v_density_interp(t, x):
    """1-d flow of the linear density interpolation p_t = (1-t) p0 + t p1: no rectification in it."""
    x = x[:, 0]
    pdf = lambda g: np.sum(g.weights * np.exp(-(x[:, None] - g.means[:, 0]) ** 2 / (2 * g.covs[:, 0, 0]))  # noqa: E731
                           / np.sqrt(2 * np.pi * g.covs[:, 0, 0]), axis=1)
    return ((K.gmm_cdf_1d(g1d_0, x) - K.gmm_cdf_1d(g1d_1, x)) / ((1 - t) * pdf(g1d_0) + t * pdf(g1d_1)))[:, None]


def v_prior_weights(t, x, g0, g1):
    """Thm. 5 with a plausible formula error: prior weights a_i b_j instead of the posterior ones."""
    return sum(a * b * K.gaussian_rf_velocity(t, x, m0, c0, m1, c1)
               for a, m0, c0 in zip(*g0) for b, m1, c1 in zip(*g1))


q_err_interp = K.transport_cdf_error_1d(x0_1d, K.integrate_flow(v_density_interp, x0_1d, t01)[-1], g1d_0, g1d_1)
q_err_prior = K.transport_cdf_error_1d(
    x0_1d, K.integrate_flow(lambda t, x: v_prior_weights(t, x, g1d_0, g1d_1), x0_1d, t01)[-1], g1d_0, g1d_1)
mean_2d = g_two.weights @ g_two.means
cov_2d = sum(w * (c + np.outer(m - mean_2d, m - mean_2d)) for w, m, c in zip(*g_two))
asym_prior = max(K.velocity_jacobian_asymmetry(lambda t, x: v_prior_weights(t, x, g_std, g_two), t, x)
                 for t, x in asym_pts.items())
asym_mm = max(K.velocity_jacobian_asymmetry(
    lambda t, x: K.gaussian_rf_velocity(t, x, np.zeros(2), np.eye(2), mean_2d, cov_2d), t, x)
    for t, x in asym_pts.items())
exc_gp = np.abs(np.array(cost_gp) - ot_cost)
gp_factor = (exc_gp[0] / exc_gp[3]) ** (1 / 3)  # mean factor per step over the first four steps
for key, x in {"gap_noncomm": cost_rf[0] - ot_cost, "naive_noncomm": naive_noncomm, "q_err_affine": q_err_affine,
               "q_err_sin": q_err_sin, "q_err_wmix": q_err_wmix, "asym_aniso": asym_2d_aniso,
               "gap_2d_pct": 100 * (rf_cost_2d - ot_cost_2d) / ot_cost_2d, "rel_err": max(rel_err),
               "rel_err_wrong": max(rel_err_wrong), "cost_rf1": cost_rf[0], "ot_cost": ot_cost, "cost_gp1": cost_gp[0],
               "push_err_sym": push_err_sym, "asym_gp1": np.abs(Mp1 - Mp1.T).max(), "cost_h": cost_h, "cost_v": cost_v,
               "emd_cx1": emd_cx1, "flow_err_shuf": flow_err_shuf, "loss_ind": loss_ind, "cost_cx2": cost_cx2,
               "emd_cx2": emd_cx2, "loss_small": loss_small, "loss_indep": loss_indep,
               "whiten_ratio": (cost_rf[0] - ot_cost) / naive_noncomm, "bug_swap_noncomm": bug_swap_noncomm,
               "q_err_prior": q_err_prior, "gp_factor": gp_factor, "gap_gp1": cost_gp[0] - ot_cost}.items():
    glue(key, float(x), display=False)
glue("naive_comm_txt", bound(naive_comm, 1e-9), display=False)
glue("q_err_1d_txt", bound(q_err_1d, 1e-6), display=False)
glue("asym_2d_txt", bound(asym_2d, 1e-8), display=False)
glue("mp_iso_txt", bound(np.abs(Mp_iso - Mp_iso.T).max(), 1e-9), display=False)
glue("comm_gap_txt", bound(comm_gap, 1e-9), display=False)
glue("loss_cx2_txt", bound(loss_cx2, 1e-12), display=False)
glue("cx1_txt", bound(max(loss_cx1, flow_err_cx1), 1e-9), display=False)
for key, x, b in (("bug_swap_comm_txt", bug_swap_comm, 1e-9), ("bug_s01_comm_txt", bug_s01_comm, 1e-9),
                  ("q_err_interp_txt", q_err_interp, 1e-6), ("asym_prior_txt", asym_prior, 1e-8),
                  ("asym_mm_txt", asym_mm, 1e-8), ("gp_final_txt", exc_gp[-1], 1e-9)):
    glue(key, bound(x, b), display=False)
print(f"naive whitening map: commuting gap {bound(naive_comm, 1e-9)}, non-commuting gap {naive_noncomm:.4f}; "
      f"moment-matched affine 1-d map: quantile error {q_err_affine:.3f}")
print(f"kernel bugs on the commuting pairs: A_t factors swapped {bound(bug_swap_comm, 1e-9)} (non-commuting pair "
      f"{bug_swap_noncomm:.3f}), cross-covariance dropped {bound(bug_s01_comm, 1e-9)}")
print(f"1-d quantile error: density-interpolation flow {bound(q_err_interp, 1e-6)}, prior-weight velocity "
      f"{q_err_prior:.3f}; Jacobian asymmetry: prior-weight velocity {bound(asym_prior, 1e-8)}, moment-matched "
      f"Gaussian velocity {bound(asym_mm, 1e-8)}")
print(f"iterated gradient-constrained rectification: excess cost per step {np.array2string(exc_gp, precision=1)}")

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
# Every check on this page is an illustration, so the page is illustrated, not tested. The paper is theoretical, and
# none of its statements that we can compute is one that an instance of ours could refute while a naive alternative
# fails it. Three statements were counted as tests until an independent review; what they show, at this seed:
#
# * *One rectification is OT when the Gaussian covariances commute* (Theorem 3). The flow map integrated by
#   `solve_ivp` costs $W_2^2$ to {glue:text}`comm_gap_txt` on three commuting pairs, and {glue:text}`gap_noncomm:.3f`
#   above it on the non-commuting pair. Commuting covariances diagonalise jointly, so these are one-dimensional
#   problems in disguise, where any flow that keeps the marginals is OT: the naive whitening map and two deliberate
#   kernel bugs pass as well (see "What a skeptic would try").
# * *In one dimension one rectification is OT* (Proposition 4). The flow of the mixture velocity sends every source
#   point to the quantile level it left, within {glue:text}`q_err_1d_txt`. This follows from Liu et al.'s marginal
#   preservation and the monotonicity of 1-d flows, and a flow with no rectification in it passes too. What it does
#   check is our code for the Theorem 5 mixture velocity.
# * *From a standard normal source the velocity is a gradient* (Corollary 9). The finite-difference Jacobian of the 2-d
#   mixture velocity is symmetric to {glue:text}`asym_2d_txt` along the flow; from an anisotropic source its relative
#   asymmetry is {glue:text}`asym_aniso:.2f`. From $\mathcal N(0,I)$ this is Tweedie's identity, and the measured side
#   is our own closed form; wrong and naive velocities pass it too.
#
# None of the paper's four headline claims is tested here; each is mapped to the reason. The explicit velocities are
# closed forms, and the one-step optimality results reduce to prior work and classical 1-d OT. The existence of the
# gradient projection is computed only for Gaussians, by our own Lyapunov derivation. The counterexamples are existence
# statements. The practical judgement about computing OT maps would need trained networks.
#
# The paper's central point, that gradient-constrained rectification can have non-OT fixed points, is made by
# counterexamples, and a counterexample is an existence statement: we can check one, but no instance of ours could
# refute it, and its numbers follow from how we built it. Those checks are illustrations, and they all come out as the
# paper says:
#
# * *Gaussians, non-commuting covariances.* One rectification of $\Sigma_0=\operatorname{diag}(1,0.2)$ against a correlated
#   $\Sigma_1$ costs {glue:text}`cost_rf1:.4f` against $W_2^2=$ {glue:text}`ot_cost:.4f`. Further unconstrained
#   rectifications do not move it, because a deterministic non-crossing coupling is its own rectification. Projecting the
#   velocity onto gradients keeps the marginals (the naive symmetric part of the field does not: its map misses
#   $\Sigma_1$ by {glue:text}`push_err_sym:.2f` in an entry) and lowers the cost to {glue:text}`cost_gp1:.5f`. The
#   one-step map is still not symmetric, so it is not OT: its asymmetry is {glue:text}`asym_gp1:.3f`, against
#   {glue:text}`mp_iso_txt` from an isotropic source. Iterating the constrained rectification on these full-support
#   Gaussians approaches the OT map (figure 2): the excess cost falls from {glue:text}`gap_gp1:.1e` after one step to
#   {glue:text}`gp_final_txt` after the last. That is consistent with the paper's positive result (Theorem 11), not a
#   contradiction of it. It is our own observation: we cannot confirm that the paper states convergence of the iterates,
#   only that their fixed points are OT in that setting.
# * *Disconnected supports.* A globally suboptimal coupling (cost {glue:text}`cost_h:.2f`, against
#   {glue:text}`cost_v:.2f` for the vertical one and {glue:text}`emd_cx1:.2f` for `emd2`) is reproduced by a smooth
#   gradient field, with loss and flow error within {glue:text}`cx1_txt`. The same field misses the shuffled (crossing)
#   assignment by {glue:text}`flow_err_shuf:.2f` in position.
# * *$X_1=-X_0$.* The loss is zero to rounding ({glue:text}`loss_cx2_txt`, against {glue:text}`loss_ind:.2f` for the
#   independent coupling with its own Theorem-3 field). The cost is {glue:text}`cost_cx2:.2f` and the `emd2` cost of the
#   same clouds {glue:text}`emd_cx2:.2f`. Perturbed couplings of loss about $\pi s$ keep a cost near 4: the loss is
#   {glue:text}`loss_small:.4f` at $s=10^{-3}$, against {glue:text}`loss_indep:.2f` for the independent coupling.
#
# Our own test case, `gmm-2d-not-ot`, is also an illustration now: the paper claims nothing about that instance. It
# was counted before and did not meet its bar. The exact OT pairing of the same clouds is cheaper than the rectified
# pairing, so the rectified map is not the OT map, but only by {glue:text}`gap_2d_pct:.2f` % of the cost against the
# 1 % we fixed in advance. For this mixture the one-step flow of a gradient field from a standard normal is close to
# optimal. We did not search for a more curved target after seeing this number. The closed-form velocity agrees with a
# Monte Carlo regression within {glue:text}`rel_err:.3f` relative error, against {glue:text}`rel_err_wrong:.2f` without
# the cross-covariance. That is the classical Gaussian conditional expectation, and at ci sample sizes the 5 % bar lies
# inside the Monte Carlo noise. Before the re-grading it was counted, and it was seed-sensitive.
#
# %% [markdown]
# ## What a skeptic would try
#
# Reviewed by an independent skeptic (2026-12-07); what they tried is above. A helper that did not write the page read
# it with the rubric, the record and the brief, and ran naive alternatives against the three checks then counted. They
# found that all three pass naive or buggy alternatives, and all three are illustrations now. Every number below is
# measured by this notebook at this seed.
#
# * **Commuting covariances: does a naive map or a wrong kernel pass?** The whitening–recolouring map
#   $\Sigma_1^{1/2}\Sigma_0^{-1/2}$, which uses no rectification, is OT on the commuting pairs too (largest gap
#   {glue:text}`naive_comm_txt`). So are two deliberate bugs in our kernel: swapping the two factors of $A_t$ gives
#   {glue:text}`bug_swap_comm_txt` (and {glue:text}`bug_swap_noncomm:.2f` on the non-commuting pair), and dropping the
#   cross-covariance $\Sigma_{01}$ gives {glue:text}`bug_s01_comm_txt`. Our one correlated pair is one-dimensional, so
#   it cannot catch the second bug. On the non-commuting pair, one unconstrained rectification is *worse* than the naive
#   map as a transport map: it costs {glue:text}`gap_noncomm:.3f` above $W_2^2$, against {glue:text}`naive_noncomm:.3f`
#   for whitening, {glue:text}`whiten_ratio:.1f` times as much. The check is deterministic, so a sweep over seeds repeats
#   one number.
# * **One dimension: does a flow with no rectification pass?** Yes. The flow of the linear density interpolation
#   $p_t=(1-t)p_0+tp_1$, with velocity $(F_0-F_1)/p_t$ and no conditional expectation in it, reaches the quantile level
#   it left within {glue:text}`q_err_interp_txt`, like the rectified flow ({glue:text}`q_err_1d_txt`). Any flow that keeps
#   the marginals does, because 1-d flows are increasing. A plausible implementation error does fail: Theorem 5 with
#   the prior weights $a_ib_j$ in place of the posterior ones misses by {glue:text}`q_err_prior:.2f`. So the check tests
#   our mixture-velocity code, not the proposition. The moment-matched affine map $x\mapsto m_1+\sigma_1x$ misses by
#   {glue:text}`q_err_affine:.3f`. The page's two wrong inputs, the flow of $3\sin x+1$ ({glue:text}`q_err_sin:.3f`) and
#   the flow to the mixture with swapped weights ({glue:text}`q_err_wmix:.3f`), are strawmen: they fail only because they
#   do not reach $\mu_1$.
# * **Corollary 9: do wrong velocities pass the Jacobian check?** Yes. The same finite-difference measurement at the
#   same points gives {glue:text}`asym_prior_txt` for the prior-weight velocity and {glue:text}`asym_mm_txt` for the
#   rectified velocity towards the moment-matched single Gaussian, against {glue:text}`asym_2d_txt` for the Theorem 5
#   velocity. From $\mathcal N(0,I)$ every such velocity is a gradient. Only the anisotropic source breaks symmetry
#   ({glue:text}`asym_aniso:.2f`), which shows that the measurement can fail, but not that the corollary is tested.
# * **Is there a check with a real ablation?** The reviewer's one candidate is the iterated gradient-constrained
#   rectification on full-support Gaussians (figure 2). It ends {glue:text}`gp_final_txt` above $W_2^2$, where the
#   unconstrained iterates stall at {glue:text}`gap_noncomm:.3f` and whitening sits at {glue:text}`naive_noncomm:.3f`.
#   We show it only as an illustration. It counts only if the paper states that the iterates converge, which we could
#   not check, and it has no randomness.
# * **The old failing test.** `gmm-2d-not-ot` (relative gap {glue:text}`gap_2d_pct:.2f` %, bar 1 %) is no longer
#   counted: the paper claims nothing about that instance.

# ### The paper's numbers beside ours
#
# The paper is theoretical and its statements are exact, so the only numbers to set
# beside ours are the costs of its illustrative counterexamples, as a secondary summary gives them. Each row names the
# setting; where the paper's statement has no number, the row says so.

# %%
paper_vs_ours = [
    ("disconnected supports (Prop. 10 example, summary)", "fixed-point cost vs OT cost", "16 vs 4",
     f"our discs, r=0.5, {2 * half} points", f"{cost_h:.2f} vs {emd_cx1:.2f} (emd2)"),
    ("X1 = -X0 ~ N(0, I) (Prop. 13)", "loss; cost vs OT", "0; not optimal (no number)",
     f"1-d, {P.n_1d} points", f"{bound(loss_cx2, 1e-12)}; {cost_cx2:.2f} vs {emd_cx2:.2f}"),
    ("Gaussians, non-commuting covariances (Thm. 3)", "1-RF cost vs W2^2", "not OT (no number)",
     "diag(1, .2) -> [[1, .7], [.7, 1]]", f"{cost_rf[0]:.4f} vs {ot_cost:.4f}"),
    ("same, gradient-constrained (abstract)", "constrained 1-RF cost vs W2^2", "not OT in general (no number)",
     "same pair", f"{cost_gp[0]:.5f} vs {ot_cost:.5f}"),
]
print(f"{'paper: setting':<52} {'quantity':<31} {'paper reports':<30} | {'ours: setting':<36} ours")
for a, b, c, d_, e in paper_vs_ours:
    print(f"{a:<52} {b:<31} {c:<30} | {d_:<36} {e}")

# %% [markdown]
# ## What the miniature cannot show
#
# The paper's statements are theorems about all measures, and ours are checks on a handful
# of instances. We solve the constrained problem exactly only for Gaussians. For mixtures we do not compute the
# $L^2(\mu_t)$ gradient projection, which would need an elliptic PDE solve; we only use the standard-normal case, where
# it is not needed. We train no neural velocity field, so the question of whether a network's implicit regularisation avoids
# these fixed points in practice is untouched. The hardest part was not the numerics. It was formalising what a "fixed
# point with zero loss" means on disconnected supports: we exhibit a smooth potential whose gradient matches the coupling on
# the support, which is what the loss sees.
#
# Not checked at all: the invariance properties of rectification under common affine maps (Theorem 2), and the
# smoothed rectification of Section 5 (Theorem 14). The gradient constraint as a practical method for computing OT maps
# (the last headline claim) would need trained velocity networks on curved targets; it is not tested here.
