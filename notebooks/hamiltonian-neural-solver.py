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
# # Hamiltonian neural PDE solvers: learn the energy, not the update
#
# *A network that outputs one number per state, a Hamiltonian, and moves the field along the skew
# derivative of its functional gradient conserves mass and its own energy by construction; the paper says this
# also makes it more stable and more accurate past the training horizon than a network that predicts
# $u_t$ directly. We test that on periodic KdV and linear advection against exact solutions.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import time

import matplotlib.pyplot as plt
import numpy as np
import torch

from repro.claims import Claims, less_than, tolerance
from repro.papers import hamiltonian_neural_solver as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 14 s of CPU on one thread (measured with 8-10 jobs sharing 2 cores; 19 s with the kernel's
    # start): N = 32 nodes, 16 training trajectories, 150 Adam steps per model, RK4 rollouts with dt = 0.05
    "ci": dict(N=32, n_train=16, steps=150, batch=32, dt=0.05,
               kdv_hidden=24, kdv_channels=11, adv_hidden=8, adv_channels=4),
    # about 2 min of CPU (114 s measured on the loaded machine, 8 min wall): N = 64 (the brief's grid),
    # 64 trajectories, 1500 steps, dt = 0.005
    "full": dict(N=64, n_train=64, steps=1500, batch=64, dt=0.005,
                 kdv_hidden=32, kdv_channels=14, adv_hidden=8, adv_channels=4),
})
claims = Claims(
    "hamiltonian-neural-solver",
    title="Hamiltonian Neural PDE Solvers through Functional Approximation",
    authors="Anthony Zhou, Amir Barati Farimani",
    paper_url="https://arxiv.org/abs/2505.13275",
    scale=scale, seed=seed,
)
torch.set_default_dtype(torch.float64)
L = 20.0                 # period of the domain [0, L)
T_TRAIN, T_TEST = 2.0, 4.0   # training horizon and rollout horizon (2x)
SAVE = 0.1               # spacing of the saved snapshots
DT_DATA = 0.005          # step of the exact (spectral) solver
N_TEST = 8               # test initial conditions (brief)
A_ADV = 1.0              # advection speed
N_IDX_T = round(T_TRAIN / SAVE)
gen = torch.Generator().manual_seed(seed)

# %% [markdown]
# ## The claim
#
# Many PDEs are Hamiltonian: the field moves along a skew operator applied to the functional derivative of an
# energy, and quantities such as mass and energy stay constant. Neural surrogates that predict the next state
# (or $u_t$) directly know nothing of this and drift. The paper proposes to learn the Hamiltonian *functional*
# $\mathcal H[u]$ itself, a map from a whole field to one number, with a *neural functional*: an integral
# $\int\kappa_\theta(x, u(x))\,dx$ of a learned kernel, motivated by the Riesz representation theorem. The
# functional derivative $\delta\mathcal H/\delta u$ comes from automatic differentiation, and the known
# Poisson structure of the PDE turns it into $u_t$. The resulting *Hamiltonian Neural Solver* (HNS) is claimed
# to be more stable, to conserve energy-like quantities, and to generalise to longer horizons and unseen
# initial conditions than direct surrogates (FNO, U-Net), on 1-D advection and KdV and 2-D shallow water.
#
# What we know of the paper: its abstract, a summary, and the official code (read for this page; see
# "Against the official code"). **We found no table of rollout numbers**, so the three checks below are the
# brief's qualitative versions of the claims. The only numbers found are the outputs kept in the official
# `examples.ipynb` for a functional-approximation toy; they are listed in the results, but that toy is not
# rerun here (see "What the miniature cannot show").
#
# ## The method
#
# **1-D Hamiltonian PDEs.** For a periodic field $u(x,t)$ on $[0, L)$ the PDEs here have the form
#
# $$ u_t = \partial_x \frac{\delta \mathcal H}{\delta u}. $$
#
# KdV, $u_t + 6uu_x + u_{xxx} = 0$, has $\mathcal H_{\rm true}[u] = \int(-u^3 + \tfrac12 u_x^2)\,dx$, so
# $\delta\mathcal H/\delta u = -3u^2 - u_{xx}$. Linear advection $u_t + a u_x = 0$ has
# $\mathcal H = -\tfrac a2\int u^2\,dx$. Since $\partial_x$ is skew-adjoint, $\frac{d}{dt}\mathcal H =
# \int \frac{\delta\mathcal H}{\delta u}\,\partial_x\frac{\delta\mathcal H}{\delta u}\,dx = 0$, and the mass
# $\int u\,dx$ is conserved whatever $\mathcal H$ is (a Casimir).
#
# **HNS (our miniature).** On $N$ nodes with spacing $\Delta x$, the learned Hamiltonian is the kernel integral
#
# $$ \mathcal H_\theta[u] = \sum_i \kappa_\theta\big(u_i, (D_x u)_i\big)\,\Delta x, $$
#
# with $\kappa_\theta$ a small tanh MLP and $D_x$ the periodic central difference (the brief's design: the
# kernel also sees the local slope because the KdV density contains $u_x^2$). Autograd gives
# $\delta\mathcal H_\theta/\delta u_i = (\partial\mathcal H_\theta/\partial u_i)/\Delta x$, and
# $u_t = D_x\,\delta\mathcal H_\theta/\delta u$ (`K.hns_rhs`). Because $D_x$ is skew-symmetric, the
# semi-discrete flow conserves $\sum_i u_i\Delta x$ and $\mathcal H_\theta$ *exactly*; RK4 leaves only its
# own small error in $\mathcal H_\theta$ and none in the mass (a linear invariant). It does *not* conserve the true
# $\mathcal H_{\rm true}$ unless $\mathcal H_\theta$ matches it up to a Casimir.
#
# **Direct baseline ("Newtonian").** A periodic 3-layer CNN (kernel width 5, tanh) maps $u$ to $u_t$ directly,
# with about the same number of parameters. Both models are trained on the same pairs $(u, u_t)$ with a
# relative mean-square loss and rolled out with the same RK4 step.
#
# **Controls.** (i) The direct CNN for mass conservation. (ii) A *null model* that never moves,
# $u(t)=u_0$ (persistence), for the error at twice the horizon: if it also beats the CNN, the win only says the
# CNN went wrong. (iii) The *HNS without its skew bracket*: the same learned $\mathcal H_\theta$, but
# $u_t = D^+\delta\mathcal H_\theta/\delta u$ with the one-sided difference $D^+$ (the key structural
# ingredient removed at inference), for the energy drift.
#
# ## The experiment
#
# * **KdV data.** $L = 20$, $N = 32$ (ci) or $64$ (full). Initial conditions are sums of one or two solitons
#   $\tfrac c2\,\mathrm{sech}^2(\tfrac{\sqrt c}2(x - x_0))$ with speeds $c\sim U(0.4, 1.2)$ and centres
#   $x_0\sim U(0, L)$. The exact solver is our integrating-factor RK4 pseudo-spectral scheme
#   (`K.kdv_spectral_step(u, dt, L)`, $dt = 0.005$), unit-tested for the soliton's exact speed and the three
#   invariants. Training: `n_train` trajectories to $T = 2$, snapshots every 0.1, with the exact spectral
#   $u_t$ as target. Test: 8 fresh initial conditions rolled out to $2T = 4$.
# * **Advection data.** $u_t + u_x = 0$ on the same grid; random zero-mean fields with Fourier modes 1–3
#   (amplitudes $\propto 1/k$); exact solution by spectral shift (`K.advection_exact`).
# * **Models.** KdV: HNS kernel MLP $2\to24\to24\to1$ (697 parameters, ci) against a CNN with 11 channels
#   (738); full: width 32 (1185) against 14 channels (1149). Advection: width 8 (105) against 4 channels
#   (129). Adam (lr $5\cdot10^{-3}$, cosine decay), batches of 32 (ci) or 64 (full) pairs, `steps` steps, in
#   float32; rollouts and all measurements in float64.
# * **Rollout.** RK4 with $dt = 0.05$ (ci) or $0.005$ (full) from the test initial conditions to $t = 4$.
# * **Measures** (mean over the 8 test initial conditions): relative $L^2$ error against the exact solution at
#   $t = 2T$; the largest relative drift over the rollout, $\max_t |Q(t) - Q(0)|/|Q(0)|$, of the mass
#   $Q = \int u$ and of the energy $Q = \mathcal H_{\rm true}$ (KdV, spectral) or $\int u^2/2$ (advection).
#   A reference line: HNS with the *true* KdV Hamiltonian on the same grid, whose error is the discretisation
#   floor of the central-difference bracket.
#
# **Claims, fixed before the first run** (the brief's three checks, with our controls):
#
# 1. *kdv-mass* (theorem of the structure): the HNS relative mass drift is $< 10^{-6}$. Control: the CNN.
# 2. *kdv-extrapolation*: at $2T$, relL2(HNS) / relL2(CNN) $< 1$. Control: persistence / CNN.
# 3. *kdv-energy*: drift of $\mathcal H_{\rm true}$, HNS / CNN $< 1$. Control: HNS with $D^+$ / CNN.
# 4. *adv-extrapolation* and 5. *adv-energy*: claims 2 and 3 on advection (energy $\int u^2/2$).
#
# **Deviations from the paper**
#
# * Scale: $N = 32$/64 nodes on $L = 20$, 16/64 training trajectories, 150/1500 Adam steps, minutes of CPU;
#   the official KdV runs use 256 nodes, 200 time steps per trajectory, 250 epochs on a GPU.
# * Kernel: a tanh MLP of $(u_i, (D_xu)_i)$, summed with the rectangle rule on the periodic grid. The official
#   neural functional is $\int\kappa_\theta(x, u)\,u\,dx$ with a SIREN kernel (32×4) modulated by FiLM from a
#   CNN over the whole field (`film_type: global`), a trapezoidal rule and Fourier features of $x$.
# * Bracket: a second-order central difference. The official KdV configuration uses an 8th-order smoothed
#   difference (`derivative_mode: smooth`, `derivative_order: 8`).
# * Training target: $u_t$ through the bracket. The official KdV configuration trains on
#   $\delta\mathcal H/\delta u$ directly (`optimize_grad: True`, labels from the analytic
#   $-\tfrac12u^2 - u_{xx}$), with a scaled $L^2$ loss, AdamW (lr $2\cdot10^{-5}$) and a learning-rate step
#   schedule.
# * Integrator: RK4 on both models. The official rollout is Adams–Bashforth 2 on $u_t$ at the data's time step.
# * Baseline: a small periodic CNN. The paper compares with FNO and U-Net.
# * KdV convention: $u_t + 6uu_x + u_{xxx} = 0$ (the brief). The official code uses
#   $u_t + uu_x + u_{xxx} = 0$ ($w = 6u$ maps one onto the other), with data from the authors' own solver
#   (on Hugging Face, not used here).
# * Data: solitons (brief). The official data set has other initial conditions; shallow water (2-D) is left out.

# %%
def kdv_ics(n: int) -> torch.Tensor:
    """Sums of one or two solitons with random speeds in [0.4, 1.2] and centres in [0, L)."""
    two = torch.randint(1, 3, (n, 1), generator=gen) == 2
    c = 0.4 + 0.8 * torch.rand(n, 2, generator=gen)
    x0 = L * torch.rand(n, 2, generator=gen)
    return K.kdv_soliton(x, c[:, :1], x0[:, :1], L) + two * K.kdv_soliton(x, c[:, 1:], x0[:, 1:], L)


def adv_ics(n: int) -> torch.Tensor:
    """Random zero-mean fields with Fourier modes 1-3, amplitudes ~ N(0, 1/k^2) / 2."""
    k = torch.arange(1, 4)
    a, b = torch.randn(n, 3, generator=gen) / k, torch.randn(n, 3, generator=gen) / k
    ph = 2 * np.pi * k[None, :, None] * x[None, None, :] / L
    return 0.5 * (a[:, :, None] * torch.cos(ph) + b[:, :, None] * torch.sin(ph)).sum(1)


N = P.N
dx = L / N
x = torch.arange(N) * dx
times = torch.arange(round(T_TEST / SAVE) + 1) * SAVE
every = round(SAVE / DT_DATA)

# KdV: exact trajectories (spectral solver), training pairs (u, u_t) with the exact spectral u_t
u_train0, u_test0 = kdv_ics(P.n_train), kdv_ics(N_TEST)
U_train = K.kdv_spectral_solve(u_train0, L, T_TRAIN, DT_DATA, save_every=every)
U_test = K.kdv_spectral_solve(u_test0, L, T_TEST, DT_DATA, save_every=every)   # (41, 8, N), the reference
X_kdv = U_train.reshape(-1, N)
Y_kdv = K.kdv_spectral_rhs(X_kdv, L)

# advection: exact shifts
a_train0, a_test0 = adv_ics(P.n_train), adv_ics(N_TEST)
X_adv = torch.stack([K.advection_exact(a_train0, A_ADV, float(t), L) for t in times[:N_IDX_T + 1]]).reshape(-1, N)
Y_adv = -A_ADV * K.spectral_derivative(X_adv, L, 1)
A_test = torch.stack([K.advection_exact(a_test0, A_ADV, float(t), L) for t in times])
print(f"KdV: {X_kdv.shape[0]} training pairs, advection: {X_adv.shape[0]}; grid N = {N}, dx = {dx:.3f}")

# %%
def train(rhs, params, X, Y, steps, label):
    """Adam on the relative mean-square error of u_t, random batches, float32."""
    X, Y = X.float(), Y.float()
    opt = torch.optim.Adam(params, lr=5e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    for _ in progress(range(steps), total=steps, desc=label):
        idx = torch.randint(0, X.shape[0], (P.batch,), generator=gen)
        loss = ((rhs(X[idx]) - Y[idx]) ** 2).mean() / (Y[idx] ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
    return float(loss.detach())


def run_pde(name, X, Y, u0, U_ref, hidden, channels, energy, true_H=None):
    """Train HNS and CNN on (u, u_t), roll both out (and the controls) from u0; return trajectories and stats."""
    torch.manual_seed(seed)
    hns = K.IKFHamiltonian(hidden=hidden, layers=2).float()
    cnn = K.DirectCNN(channels=channels, depth=3, kernel_size=5).float()
    loss_h = train(lambda u: K.hns_rhs(hns, u, dx, create_graph=True), hns.parameters(), X, Y, P.steps, f"{name} HNS")
    loss_c = train(lambda u: cnn(u), cnn.parameters(), X, Y, P.steps, f"{name} CNN")
    hns.double()
    cnn.double()
    n_steps, save = round(T_TEST / P.dt), round(SAVE / P.dt)
    B = u0.shape[0]

    def hns_and_ablation(u):   # one autograd call for the HNS (rows :B) and its D+ ablation (rows B:)
        with torch.enable_grad():
            uu = u.detach().requires_grad_(True)
            g = K.functional_derivative(hns(uu, dx), uu, dx)
        return torch.cat([K.central_diff(g[:B], dx), K.forward_diff(g[B:], dx)])

    t0 = time.perf_counter()
    both = K.rollout(hns_and_ablation, torch.cat([u0, u0]), P.dt, n_steps, save)
    t_hns = time.perf_counter() - t0
    t0 = time.perf_counter()
    with torch.no_grad():
        R_cnn = K.rollout(cnn, u0, P.dt, n_steps, save)
    t_cnn = time.perf_counter() - t0
    R = {"HNS": both[:, :B], "CNN": R_cnn, "HNS, D+ bracket": both[:, B:], "persistence": u0.expand_as(U_ref)}
    if true_H is not None:
        R["HNS, true H"] = K.rollout(lambda u: K.hns_rhs(true_H, u, dx), u0, P.dt, n_steps, save)
    stats = {}
    for k, U in R.items():
        m, e = K.kdv_mass(U, dx), energy(U)
        stats[k] = dict(
            err=K.relative_l2(U, U_ref).numpy(),                                    # (T, B)
            mass=((m - m[0]).abs() / m[0].abs()).numpy(),                          # (T, B)
            energy=((e - e[0]).abs() / e[0].abs()).numpy(),                        # (T, B)
        )
    params = dict(HNS=K.count_parameters(hns), CNN=K.count_parameters(cnn))
    return dict(R=R, stats=stats, params=params, loss=dict(HNS=loss_h, CNN=loss_c), wall=dict(HNS=t_hns / 2, CNN=t_cnn))


true_kdv_H = K.IKFHamiltonian(kernel=lambda v, dv: -v**3 + 0.5 * dv**2)
kdv = run_pde("KdV", X_kdv, Y_kdv, u_test0, U_test, P.kdv_hidden, P.kdv_channels,
              energy=lambda U: K.kdv_energy(U, L), true_H=true_kdv_H)
adv = run_pde("advection", X_adv, Y_adv, a_test0, A_test, P.adv_hidden, P.adv_channels,
              energy=lambda U: K.kdv_momentum(U, dx))


def summary(res, k):
    s = res["stats"][k]
    drift = lambda a: float(np.nan_to_num(a, nan=np.inf).max(0).mean())   # max over time, mean over ICs
    return dict(err_T=float(s["err"][N_IDX_T].mean()), err_2T=float(s["err"][-1].mean()),
                mass=drift(s["mass"]), energy=drift(s["energy"]))


S = {pde: {k: summary(res, k) for k in res["stats"]} for pde, res in (("KdV", kdv), ("advection", adv))}
print(f"{'':10} {'model':16} {'params':>6} {'train loss':>10} {'relL2 @T':>9} {'relL2 @2T':>9} {'mass drift':>10} {'energy drift':>12}")
for pde, res in (("KdV", kdv), ("advection", adv)):
    for k, v in S[pde].items():
        p = {"HNS": res["params"]["HNS"], "CNN": res["params"]["CNN"]}.get(k, "shared" if "D+" in k else 0)
        lo = f"{res['loss'][k]:.3g}" if k in res["loss"] else "-"
        mass = f"{v['mass']:.1e}" if pde == "KdV" else "(zero mean)"
        print(f"{pde:10} {k:16} {p!s:>6} {lo:>10} {v['err_T']:9.3f} {v['err_2T']:9.3f} {mass:>10} {v['energy']:12.2e}")

# %% [markdown]
# ## Results
#
# The table above lists, per PDE and model, the parameter count, the final training loss (relative MSE of
# $u_t$), the mean relative $L^2$ error at the training horizon $T = 2$ and at $2T = 4$, and the mean largest
# relative drift of mass and energy over the rollout. "HNS, D+ bracket" shares the HNS's parameters;
# "HNS, true H" has none (it is the exact KdV Hamiltonian on our grid, the discretisation floor).
#
# ### The fields
#
# One KdV test initial condition, exact solution against the two learned solvers (space on the horizontal axis,
# time going up; the dashed line is the end of the training horizon).

# %%
j = int((u_test0 > 0.05).sum(-1).argmax())   # the widest test initial condition (two solitons if any)
panels = [("exact (spectral)", U_test[:, j]), ("HNS", kdv["R"]["HNS"][:, j]), ("direct CNN", kdv["R"]["CNN"][:, j])]
vmax = float(U_test[:, j].max())
fig, axes = plt.subplots(1, 3, figsize=(11, 3.1), sharey=True)
for ax, (title, U) in zip(axes, panels):
    im = ax.imshow(U.numpy(), origin="lower", aspect="auto", extent=[0, L, 0, T_TEST], cmap="viridis",
                   vmin=-0.1 * vmax, vmax=vmax)
    ax.axhline(T_TRAIN, color="w", ls="--", lw=1)
    ax.set_title(title)
    ax.set_xlabel("x (length units)")
axes[0].set_ylabel("t (time units)")
fig.colorbar(im, ax=axes, fraction=0.02, label="u")
plt.show()

# %% [markdown]
# ### Error against time

# %%
STYLE = {"HNS": dict(color="C0"), "CNN": dict(color="C3"), "HNS, D+ bracket": dict(color="C0", ls="--"),
         "persistence": dict(color="0.5", ls=":"), "HNS, true H": dict(color="k", lw=1)}
fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
for ax, (pde, res) in zip(axes, (("KdV", kdv), ("advection", adv))):
    for k, s in res["stats"].items():
        e = np.nan_to_num(s["err"], nan=np.inf, posinf=1e3)
        ax.plot(times, e.mean(1), label=k, **STYLE[k])
        ax.fill_between(times, e.min(1), e.max(1), alpha=0.12, color=STYLE[k]["color"])
    ax.axvline(T_TRAIN, color="k", ls="--", lw=0.8)
    ax.set_yscale("log")
    ax.set_ylim(1e-3, 20)
    ax.set_xlabel("t (time units)")
    ax.set_ylabel("relative L2 error vs exact")
    ax.set_title(f"{pde}: mean over {N_TEST} test ICs (band: min-max)")
axes[0].legend(fontsize=8, loc="lower right")
plt.show()

# %% [markdown]
# ### Conservation against time
#
# Relative drift $|Q(t) - Q(0)|/|Q(0)|$, mean over the test initial conditions. The HNS mass drift sits at
# rounding level ($10^{-16}$), so the left panel is on a log scale clipped at $10^{-17}$.

# %%
fig, axes = plt.subplots(1, 3, figsize=(12, 3.4))
panels = [(axes[0], kdv, "mass", "KdV: mass drift", ("HNS", "CNN", "HNS, true H")),
          (axes[1], kdv, "energy", "KdV: drift of H_true", ("HNS", "CNN", "HNS, D+ bracket", "HNS, true H")),
          (axes[2], adv, "energy", "advection: drift of int u^2/2", ("HNS", "CNN", "HNS, D+ bracket"))]
for ax, res, q, title, keys in panels:
    for k in keys:
        d = np.nan_to_num(res["stats"][k][q], nan=np.inf, posinf=1e3).mean(1)
        ax.plot(times, np.maximum(d, 1e-17), label=k, **STYLE[k])
    ax.axvline(T_TRAIN, color="k", ls="--", lw=0.8)
    ax.set_yscale("log")
    ax.set_ylim(1e-17, 1e3)
    ax.set_xlabel("t (time units)")
    ax.set_ylabel("relative drift (dimensionless)")
    ax.set_title(title, fontsize=10)
axes[1].legend(fontsize=8)
plt.show()

# %% [markdown]
# ### What the paper reports, beside ours
#
# The paper's rollout numbers were not found; the only numbers the brief lists are the outputs stored in the
# official `examples.ipynb` for a toy (learn $F[u] = \int u^3dx$ from random quadratics on 100 points, seed 0),
# which we did not rerun (its training alone costs more than this page's budget).

# %%
rows = [
    ("toy F = int u^3: validation MSE of F (official notebook)", "MLP 0.1163, FNO 0.02677, NF 0.002311", "not run"),
    ("toy: MSE of dF/du against 3u^2 (official notebook)", "MLP 1.996, FNO 2.003, NF 0.0898", "not run"),
    ("toy: MSE of dF/du on x in [-2, 2] (official notebook)", "MLP 74.69, FNO 70.28, NF 29.51", "not run"),
    ("KdV, relL2 at 2T, HNS / direct", "qualitative: HNS more stable, better at long horizons",
     f"{S['KdV']['HNS']['err_2T']:.3f} / {S['KdV']['CNN']['err_2T']:.3f} ({scale})"),
    ("KdV, drift of H_true, HNS / direct", "qualitative: HNS conserves energy-like quantities",
     f"{S['KdV']['HNS']['energy']:.3g} / {S['KdV']['CNN']['energy']:.3g} ({scale})"),
    ("advection, relL2 at 2T, HNS / direct", "qualitative (as KdV)",
     f"{S['advection']['HNS']['err_2T']:.3f} / {S['advection']['CNN']['err_2T']:.3f} ({scale})"),
    ("parameters, KdV: HNS / direct", "NF: SIREN 32x4 kernel with FiLM; FNO 12 modes, width 32, 5 layers",
     f"{kdv['params']['HNS']} / {kdv['params']['CNN']}"),
]
for setting, paper, ours in rows:
    print(f"{setting:<56} | paper: {paper:<68} | ours: {ours}")

# %% [markdown]
# ## Against the official code
#
# The paper's code: [anthonyzhou-1/hamiltonian_pdes](https://github.com/anthonyzhou-1/hamiltonian_pdes)
# (commit `58ccf71f0c3ef8df6931cfb2270c03d27bee8e8a`). We read the Hamiltonian wrapper, the neural functional,
# the derivative stencils and the KdV configuration, and ran four of its functions outside the project on small
# seeded inputs (float64, one thread, with a 20-line stub of `einops`, which is not installed; the rest ran
# unchanged). The outputs are in `tests/papers/golden/hamiltonian-neural-solver.json` and the unit tests assert
# our kernels against them:
#
# * `first_derivative(u, dx, order=2, mode="periodic")` on a 2×16 Gaussian array equals our `central_diff` to
#   $10^{-12}$.
# * `calculate_dH_du(w, dx, pde="kdv")` $= -\tfrac12w^2 - w_{xx}$ at $w = 6u$ (a soliton with $c = 1$, $N = 64$)
#   equals $6\times$ our `kdv_functional_derivative(u)` at the 62 interior nodes to $10^{-10}$. The official
#   second difference is one-sided at the two end nodes; ours is periodic.
# * `calculate_Hamiltonian(w, ..., "kdv", "trapezoidal", order=4)` gives $-7.20025$; $36\times$ our spectral
#   `kdv_energy(u)` gives $-7.20000$, the closed form $36\cdot(-c^{5/2}/5) = -7.2$ (relative gap
#   $3.5\cdot10^{-5}$, the official finite-difference and trapezoid error).
# * `Integral_Kernel_Functional` (left Riemann rule) with the kernel $u^2$, and `Neural_Functional.get_derivative`,
#   give $F = \sum_{i<N-1}u_i^3\Delta x$ and $\delta F/\delta u = 3u^2$ (autograd divided by $\Delta x$),
#   equal to our `functional_derivative` of `IKFHamiltonian` to $10^{-12}$ on the first $N-1$ nodes. The official
#   left Riemann rule drops the last node and copies its neighbour's derivative there; ours sums every periodic
#   node.
#
# Departures in method and defaults are listed under "Deviations from the paper". Those that may matter for the
# claims: the official KdV model trains on $\delta\mathcal H/\delta u$ directly (`optimize_grad: True`) and uses
# an 8th-order smoothed difference in the bracket, so its learned Hamiltonian is pinned pointwise, not only
# through $D_x$; its kernel sees the whole field through FiLM, not just $(u_i, (D_xu)_i)$; and it integrates
# with Adams–Bashforth 2. We did not run the official training (it needs the authors' data set, Lightning and
# a GPU-sized budget).

# %%
drift_tol = tolerance(rel=0.5, abs=1e-12, why="drifts of models trained for a few hundred Adam steps in "
                      "float32; the training end point moves with the CPU's kernels")
ratio_tol = tolerance(rel=0.3, why="ratio of rollout quantities of two models trained in float32; the end "
                      "points move with the CPU's kernels")
cnn_adv, cnn_kdv = S["advection"]["CNN"], S["KdV"]["CNN"]
claims.check(
    "kdv-mass", kind="theorem",
    statement="The HNS rollout of KdV conserves the mass: largest relative drift of sum(u) dx over t in [0, 2T] "
              "below 1e-6 (mean over the test ICs), by the skew central-difference bracket.",
    paper="Hamiltonian structure conserves energy-like quantities (abstract); brief: HNS drift < 1e-6, "
          "baseline > 1e-4",
    criterion=less_than(1e-6), measured=S["KdV"]["HNS"]["mass"],
    control=cnn_kdv["mass"], control_label="direct CNN (predicts u_t, no bracket)", tol=drift_tol)
claims.check(
    "kdv-extrapolation",
    statement="At twice the training horizon the HNS has a lower KdV rollout error than the direct CNN: "
              "mean relL2(HNS) / mean relL2(CNN) at t = 2T below 1.",
    paper="better generalisation to longer horizons than FNO/U-Net (abstract); no number found",
    criterion=less_than(1.0), measured=S["KdV"]["HNS"]["err_2T"] / cnn_kdv["err_2T"],
    control=S["KdV"]["persistence"]["err_2T"] / cnn_kdv["err_2T"],
    control_label="persistence u(t) = u0 (null model) / CNN", tol=ratio_tol)
claims.check(
    "kdv-energy",
    statement="The HNS conserves the true KdV energy better than the direct CNN: largest relative drift of "
              "H_true over [0, 2T], HNS / CNN, below 1.",
    paper="conserves energy-like quantities (abstract); no number found",
    criterion=less_than(1.0), measured=S["KdV"]["HNS"]["energy"] / cnn_kdv["energy"],
    control=S["KdV"]["HNS, D+ bracket"]["energy"] / cnn_kdv["energy"],
    control_label="same learned H with a one-sided D+ bracket (not skew) / CNN", tol=ratio_tol)
claims.check(
    "adv-extrapolation",
    statement="At twice the training horizon the HNS has a lower advection rollout error than the direct CNN: "
              "relL2 ratio HNS / CNN at t = 2T below 1.",
    paper="better generalisation to longer horizons (abstract; advection is one of the paper's 1-D PDEs)",
    criterion=less_than(1.0), measured=S["advection"]["HNS"]["err_2T"] / cnn_adv["err_2T"],
    control=S["advection"]["persistence"]["err_2T"] / cnn_adv["err_2T"],
    control_label="persistence u(t) = u0 (null model) / CNN", tol=ratio_tol)
claims.check(
    "adv-energy",
    statement="The HNS conserves the advection energy int u^2/2 better than the direct CNN: largest relative "
              "drift over [0, 2T], HNS / CNN, below 1.",
    paper="conserves energy-like quantities (abstract)",
    criterion=less_than(1.0), measured=S["advection"]["HNS"]["energy"] / cnn_adv["energy"],
    control=S["advection"]["HNS, D+ bracket"]["energy"] / cnn_adv["energy"],
    control_label="same learned H with a one-sided D+ bracket (not skew) / CNN", tol=ratio_tol)
claims.check(
    "wall-rollout-ratio", statement="Wall-clock time of a KdV rollout, HNS (autograd in every RK4 stage) / CNN.",
    paper="not reported", criterion=less_than(100.0),
    measured=kdv["wall"]["HNS"] / max(kdv["wall"]["CNN"], 1e-9), volatile=True)

# %%
claims.timings()

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **At ci scale (seed 0, the run above): 3 of 5 claims reproduced; at full scale (seed 0): 5 of 5.** Each
# counted claim has a control that fails. The robustness table above gives every claim's pass rate over ten
# ci seeds and its full-scale status; in short, across the ten ci seeds the mass claim holds at every seed, the
# KdV horizon claim at 9 (at the tenth the null model also beats the CNN, so that seed is uninformative), the
# advection energy claim at 9, and the KdV energy and advection horizon claims at none.
#
# * **Mass (kdv-mass), reproduced at both scales and every ci seed.** The HNS's mass drift stays at rounding
#   level (below $10^{-12}$; about $10^{-16}$ in the figure) over the whole rollout, while the direct CNN, of the
#   same size and trained on the same pairs, drifts by 2% to 18% (ci seeds) or 1% (full). This is the
#   structural part of the paper's argument: any $\mathcal H_\theta$ stepped through a skew bracket keeps
#   $\sum_iu_i\Delta x$, trained or not.
# * **Longer horizon (kdv-extrapolation), reproduced at both scales.** At $t = 2T$ the HNS error is 0.92 times
#   the CNN's at ci seed 0 (0.68 to 0.97 across the ci seeds), and 0.10 times at full scale (relL2 0.014 against
#   0.136). The null model (persistence) is 1.7 (ci) and 6.5 (full) times worse than the CNN, so the CNN is not
#   a broken baseline. The ci margin is small but it is there at every seed.
# * **Energy (kdv-energy), not reproduced at ci (no seed), reproduced at full scale.** At ci seed 0 the HNS
#   drifts the true KdV energy by 1.5 times as much as the CNN (1.5 to 14 times across seeds). The reason is
#   visible in the conservation figure: on 32 nodes even the HNS with the *exact* KdV Hamiltonian drifts
#   $\mathcal H_{\rm true}$ by about 5%, because the quantity the discrete bracket conserves is the grid
#   Hamiltonian, not the spectral $\mathcal H_{\rm true}$; the under-trained $\mathcal H_\theta$ (150 steps)
#   adds to that. At full scale (64 nodes, 1500 steps) the HNS drift falls to 0.11%, as low as the
#   exact-Hamiltonian reference, and 40 times below the CNN's. The ablation with the one-sided bracket $D^+$
#   (the same $\mathcal H_\theta$, no skew-symmetry) blows the energy up by orders of magnitude at both scales:
#   the bracket, not the learned functional alone, does the conserving.
# * **Advection (adv-extrapolation), not reproduced at ci (no seed), reproduced at full scale.** At ci the
#   105-parameter HNS is under-trained (training loss 0.03 against the CNN's 0.004 at seed 0; the CNN only has
#   to learn a linear stencil), and its error at $2T$ is 1.3 to 4.9 times the CNN's. At full scale it is half
#   the CNN's (0.017 against 0.033).
# * **Advection energy (adv-energy), reproduced at full scale and at 9 of 10 ci seeds.** The HNS keeps
#   $\int u^2/2$ to $10^{-3}$ at ci seed 0 and $3\cdot10^{-5}$ at full scale; its drift is 0.04 (ci seed 0),
#   a median 0.39 across the ci seeds, and 0.004 (full) times the CNN's. At one ci seed its under-trained
#   $\mathcal H_\theta$ drifts $\int u^2/2$ slightly more than the CNN (ratio 1.2).
#
# In short: conservation of mass and of the learned energy is structural and holds at any size; the paper's
# accuracy claims (longer horizons, the true energy) need the HNS to have actually learned $\mathcal H$,
# which our ci budget does not give it, and which the full-scale run (one seed) does. The cost is one autograd
# pass per right-hand side: the HNS rollout took 1.4 to 1.8 times the CNN's wall-clock time in our runs (timed,
# not counted).
#
# ## What the miniature cannot show
#
# * The paper's 2-D shallow-water results (Poisson bracket with vorticity), its FNO and U-Net baselines, and its
#   tests on unseen initial-condition families.
# * The official neural functional (SIREN kernel, FiLM conditioning on the whole field, Fourier features) at its
#   resolution (256 nodes) and training length (250 epochs).
# * The functional-approximation toy of the official notebook (MLP, FNO and neural functional learning
#   $\int u^3dx$; numbers in the table above): its training is longer than this page's CPU budget.
# * Whether a better-trained $\mathcal H_\theta$ closes the gap to the true Hamiltonian: our ci training is a
#   few hundred steps.
