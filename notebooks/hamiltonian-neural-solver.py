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

from myst_nb import glue

from repro.claims import Claims, Comparator, less_than, tolerance
from repro.papers import hamiltonian_neural_solver as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 14 s of user CPU on one thread for the whole execution (kernel start and imports included; measured
    # with /usr/bin/time on the loaded machine), both configurations: N = 32 nodes, 16 training trajectories,
    # 150 Adam steps per model, rollouts with dt = 0.05
    "ci": dict(N=32, n_train=16, steps=150, batch=32, dt=0.05,
               kdv_hidden=24, kdv_channels=11, adv_hidden=8, adv_channels=4),
    # about 2 min of CPU with one configuration (114 s measured on the loaded machine, 8 min wall); not rerun
    # since the official-settings configuration and the flux CNN were added (expect about twice): N = 64 (the
    # brief's grid), 64 trajectories, 1500 steps, dt = 0.005
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
# "Against the official code"). **We found no table of rollout numbers**, so the tests below are the
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
# **Comparators** (added when the page gained its comparators; same data, training and rollout). Every counted
# test is a ratio against the direct CNN, so the CNN is in every test; beside the HNS the same ratio is measured
# for:
#
# * the **flux CNN**, a CNN of the same size whose output $g_\theta(u)$ replaces $\delta\mathcal H_\theta/\delta u$,
#   with $u_t = D_x g_\theta(u)$ (`K.flux_rhs`): the skew bracket kept, the learned *energy* removed. It is the
#   ablation of the horizon tests (the ingredient: a scalar Hamiltonian whose gradient is the flux) and a naive
#   baseline of the energy tests (the conservative form a skeptic would try first);
# * the **HNS with a diffusive bracket**: the same learned $\mathcal H_\theta$, $u_t = D_x\,\delta\mathcal
#   H_\theta/\delta u + \nu D_{xx}u$ with $\nu = \Delta x/2$ (`K.viscous_bracket`), the ablation of the energy
#   tests (the ingredient: skew-symmetry). It is stable and keeps the mass, but is not skew, so it conserves
#   neither $\mathcal H_\theta$ nor $\int u^2$. $\nu$ is the numerical viscosity of first-order upwinding at unit
#   speed (for advection it *is* upwinding, $D^-$ applied to $-u$), fixed before the run, not tuned;
# * **persistence**, $u(t) = u_0$: the null model of the horizon tests (if it also beats the CNN, a win only says
#   the CNN went wrong), and a baseline of the energy tests, where it passes by doing nothing (drift 0): a
#   conservation criterion alone cannot tell an accurate solver from a frozen one, so each energy result below
#   is read beside the same model's error.
#
# Shown but not a comparator: the HNS with the one-sided *downwind* bracket $D^+$ (same $\mathcal H_\theta$,
# $u_t = D^+\delta\mathcal H_\theta/\delta u$). Applied to advection's $\delta\mathcal H/\delta u = -u$ and to KdV's
# $-3u^2$ term it is a downwind, anti-diffusive difference, so once $\mathcal H_\theta$ resembles the true energy it
# blows up by construction: a strawman, kept in the table and figures only to
# show that a non-skew bracket can fail for reasons that have nothing to do with the learned energy.
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
#   (129). The flux CNN has the direct CNN's architecture and size. Adam (lr $5\cdot10^{-3}$, cosine decay), batches of 32 (ci) or 64 (full) pairs, `steps` steps, in
#   float32; rollouts and all measurements in float64.
# * **Rollout.** RK4 with $dt = 0.05$ (ci) or $0.005$ (full) from the test initial conditions to $t = 4$.
# * **Measures** (mean over the 8 test initial conditions): relative $L^2$ error against the exact solution at
#   $t = 2T$; the largest relative drift over the rollout, $\max_t |Q(t) - Q(0)|/|Q(0)|$, of the mass
#   $Q = \int u$ and of the energy $Q = \mathcal H_{\rm true}$ (KdV, spectral) or $\int u^2/2$ (advection).
#   A reference line: HNS with the *true* KdV Hamiltonian on the same grid, whose error is the discretisation
#   floor of the central-difference bracket.
#
# * **Official settings (second configuration).** The same data, models and steps, with the official code's
#   settings together: training pairs only up to $t = 1$ for KdV and $t = 0.8$ for advection, so that $t = 4$ is
#   4× and 5× the training horizon (the official protocol: KdV trains on the first 50 of 200 steps, advection on
#   a fifth); the HNS and the flux CNN fit $\delta\mathcal H/\delta u$ directly (`optimize_grad: True` in both
#   official configurations; labels $-3u^2 - u_{xx}$ and $-au$, spectral), the direct CNN fits $u_t$; the loss is
#   the official ScaledLp (mean over samples of $\|p - y\|_2/\|y\|_2$); Adams–Bashforth 2 instead of RK4; and for
#   KdV the official 11-point smooth bracket (`K.smooth_diff`). Advection's official bracket is
#   `periodic_enforced`, the central difference on a grid whose last node repeats the first; we keep our
#   $N$-periodic central difference.
#
# **Claims, fixed before the first run** (the brief's three checks; comparators added later):
#
# 1. *kdv-extrapolation*: at $t = 4$ (2× the horizon), relL2(HNS) / relL2(CNN) $< 1$.
# 2. *kdv-energy*: largest drift of $\mathcal H_{\rm true}$, HNS / CNN $< 1$.
# 3. *adv-extrapolation* and 4. *adv-energy*: claims 1 and 2 on advection (energy $\int u^2/2$).
# 5. *kdv-mass*, the HNS mass drift $< 10^{-6}$, was counted before issue 33 and is now an illustration: the
#    skew bracket keeps $\sum_iu_i\Delta x$ for any $\mathcal H_\theta$, trained or not.
#
# The four tests are repeated under the official settings (`*-official`, post hoc: added after the first run
# as a second configuration, with the same measurement and criterion).
#
# **Deviations from the paper and its code**
#
# * Scale: $N = 32$/64 nodes on $L = 20$, 16/64 training trajectories, 150/1500 Adam steps, minutes of CPU;
#   the official KdV runs use 256 nodes, 200 time steps per trajectory, 250 epochs on a GPU.
# * Kernel: a tanh MLP of $(u_i, (D_xu)_i)$, summed with the rectangle rule on the periodic grid; it sees no $x$,
#   so it is translation invariant, and perturbing one node moves its $\delta\mathcal H_\theta/\delta u$ at most
#   {glue:text}`hns_reach` nodes either side (measured below on the trained KdV model). The official neural
#   functional is $\int\kappa_\theta(x, u)\,u\,dx$ with a SIREN kernel (32×4), and the two configurations differ:
#   - *KdV* (`kernel_type: global`): the SIREN is modulated by FiLM from a convolutional encoder of the field
#     (`film_type: global`), with Fourier features of the absolute position $x$. Despite the name "global", the
#     encoder is a stack of three width-3 convolutions, so its receptive field is finite, a few nodes either side
#     (an attribution from the architecture, not measured here: the official model is not run on this page).
#     Through the Fourier features of $x$ it is *not* translation invariant.
#   - *Advection* (`kernel_type: nonlinear`): the SIREN's FiLM is local (`film_type: local`) and
#     `periodic_embedding: False`; we did not establish how its input encodes $x$, so we make no claim on its
#     translation invariance.
#
#   Both use a trapezoidal rule.
# * Bracket: the second-order central difference. The official KdV configuration uses
#   `derivative_mode: smooth`, `derivative_order: 8`, which is Holoborodko's 11-point smooth noise-robust
#   difference (`K.smooth_diff`). The "8" is not its order of accuracy: it is exact only for quadratics, and its
#   error falls at order about 2 (measured below, illustration `smooth-bracket-order`); on coarse grids it is
#   far less accurate than the central difference (it damps high wavenumbers). Advection's official bracket is
#   `periodic_enforced`: the central difference on a grid whose last node duplicates the first (ours is
#   $N$-periodic with no duplicate node).
# * Training target: $u_t$ through the bracket, relative mean-square loss, Adam (lr $5\cdot10^{-3}$, cosine).
#   Both official configurations (KdV *and* advection) train on $\delta\mathcal H/\delta u$ directly
#   (`optimize_grad: True`; KdV labels from the analytic $-\tfrac12u^2 - u_{xx}$), with the ScaledLp loss,
#   AdamW (lr $2\cdot10^{-5}$ for KdV, $10^{-5}$ for advection) and a step schedule. Run as the second
#   configuration (not the optimiser).
# * Horizon: we train to $T = 2$ and test at $2T = 4$. The official protocol extrapolates 4× (KdV) and 5×
#   (advection). Run as the second configuration.
# * Integrator: RK4 on all models. The official rollout is Adams–Bashforth 2 on $u_t$ at the data's time step.
#   Run as the second configuration (at our $dt$).
# * Baseline: a small periodic CNN. The paper compares with FNO and U-Net.
# * Advection direction: we use $a = +1$ (rightward, label $\delta\mathcal H/\delta u = -u$); the official
#   configuration has $c = -1$ (leftward, `dH_du = u`), the mirror image of ours.
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
def train(pred, params, X, Y, steps, label, loss_kind="relmse"):
    """Adam on the relative mean-square error of the target (or the official per-sample scaled L2), float32."""
    X, Y = X.float(), Y.float()
    opt = torch.optim.Adam(params, lr=5e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    for _ in progress(range(steps), total=steps, desc=label):
        idx = torch.randint(0, X.shape[0], (P.batch,), generator=gen)
        p, y = pred(X[idx]), Y[idx]
        if loss_kind == "scaled":   # the official ScaledLpLoss (p = 2): mean over samples of |p - y| / |y|
            loss = (torch.linalg.vector_norm(p - y, dim=-1) / torch.linalg.vector_norm(y, dim=-1)).mean()
        else:
            loss = ((p - y) ** 2).mean() / (y ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
    return float(loss.detach())


NU = dx / 2   # the diffusive bracket's viscosity: first-order upwinding's at unit speed (fixed before the run)
OURS = dict(name="ours", target="u_t", bracket=K.central_diff, integrator=K.rollout, loss="relmse")


def run_pde(name, X, Y, G, u0, U_ref, hidden, channels, energy, true_H=None, cfg=OURS):
    """Train HNS, direct CNN and flux CNN; roll them out (and the controls) from u0; return trajectories and stats.

    cfg: the bracket D_x, the HNS / flux-CNN target (u_t through the bracket, or dH/du = G directly), the loss
    and the integrator (RK4 or AB2)."""
    torch.manual_seed(seed)
    hns = K.IKFHamiltonian(hidden=hidden, layers=2).float()
    cnn = K.DirectCNN(channels=channels, depth=3, kernel_size=5).float()
    flux = K.DirectCNN(channels=channels, depth=3, kernel_size=5).float()
    D = cfg["bracket"]
    tag = f"{name} ({cfg['name']})"
    if cfg["target"] == "u_t":
        loss_h = train(lambda u: K.hns_rhs(hns, u, dx, create_graph=True, bracket=D), hns.parameters(), X, Y,
                       P.steps, f"{tag} HNS", cfg["loss"])
        loss_f = train(lambda u: K.flux_rhs(flux, u, dx, bracket=D), flux.parameters(), X, Y, P.steps,
                       f"{tag} flux CNN", cfg["loss"])
    else:   # the official optimize_grad: fit dH/du (and the flux) to the analytic functional derivative
        def grad_h(u):
            uu = u.detach().requires_grad_(True)
            return K.functional_derivative(hns(uu, dx), uu, dx, create_graph=True)
        loss_h = train(grad_h, hns.parameters(), X, G, P.steps, f"{tag} HNS", cfg["loss"])
        loss_f = train(lambda u: flux(u), flux.parameters(), X, G, P.steps, f"{tag} flux CNN", cfg["loss"])
    loss_c = train(lambda u: cnn(u), cnn.parameters(), X, Y, P.steps, f"{tag} CNN", cfg["loss"])
    for m in (hns, cnn, flux):
        m.double()
    n_steps, save = round(T_TEST / P.dt), round(SAVE / P.dt)
    B = u0.shape[0]
    integ = cfg["integrator"]

    def hns_and_ablation(u):   # one autograd call: the HNS (rows :B), the D+ bracket (B:2B), the diffusive one (2B:)
        with torch.enable_grad():
            uu = u.detach().requires_grad_(True)
            g = K.functional_derivative(hns(uu, dx), uu, dx)
        return torch.cat([D(g[:B], dx), K.forward_diff(g[B:2 * B], dx),
                          K.viscous_bracket(g[2 * B:], u[2 * B:], dx, NU, bracket=D)])

    t0 = time.perf_counter()
    both = integ(hns_and_ablation, torch.cat([u0, u0, u0]), P.dt, n_steps, save)
    t_hns = time.perf_counter() - t0
    t0 = time.perf_counter()
    with torch.no_grad():
        R_cnn = integ(cnn, u0, P.dt, n_steps, save)
        t_cnn = time.perf_counter() - t0
        R_flux = integ(lambda u: K.flux_rhs(flux, u, dx, bracket=D), u0, P.dt, n_steps, save)
    R = {"HNS": both[:, :B], "CNN": R_cnn, "flux CNN": R_flux, "HNS, D+ bracket": both[:, B:2 * B],
         "HNS, diffusive bracket": both[:, 2 * B:],
         "persistence": u0.expand_as(U_ref)}
    if true_H is not None:
        R["HNS, true H"] = integ(lambda u: K.hns_rhs(true_H, u, dx, bracket=D), u0, P.dt, n_steps, save)
    stats = {}
    for k, U in R.items():
        m, e = K.kdv_mass(U, dx), energy(U)
        stats[k] = dict(
            err=K.relative_l2(U, U_ref).numpy(),                                    # (T, B)
            mass=((m - m[0]).abs() / m[0].abs()).numpy(),                          # (T, B)
            energy=((e - e[0]).abs() / e[0].abs()).numpy(),                        # (T, B)
        )
    params = dict(HNS=K.count_parameters(hns), CNN=K.count_parameters(cnn), flux=K.count_parameters(flux))
    return dict(R=R, stats=stats, params=params, loss={"HNS": loss_h, "CNN": loss_c, "flux CNN": loss_f},
                wall=dict(HNS=t_hns / 3, CNN=t_cnn), hns=hns)


true_kdv_H = K.IKFHamiltonian(kernel=lambda v, dv: -v**3 + 0.5 * dv**2)
G_kdv = -3 * X_kdv**2 - K.spectral_derivative(X_kdv, L, 2)     # exact dH/du (the official optimize_grad labels)
G_adv = -A_ADV * X_adv                                           # dH/du of H = -(a/2) int u^2
kdv = run_pde("KdV", X_kdv, Y_kdv, G_kdv, u_test0, U_test, P.kdv_hidden, P.kdv_channels,
              energy=lambda U: K.kdv_energy(U, L), true_H=true_kdv_H)
adv = run_pde("advection", X_adv, Y_adv, G_adv, a_test0, A_test, P.adv_hidden, P.adv_channels,
              energy=lambda U: K.kdv_momentum(U, dx))

# the official settings together: 4x (KdV) and 5x (advection) extrapolation, dH/du targets, ScaledLp loss,
# AB2, and the smooth 11-point bracket for KdV (advection's official bracket is the central difference)
n_kdv_off, n_adv_off = round(T_TEST / 4 / SAVE) + 1, round(T_TEST / 5 / SAVE) + 1   # snapshots kept per trajectory
OFF = dict(name="official", target="dH/du", integrator=K.ab2_rollout, loss="scaled")
Xk_off, Xa_off = X_kdv.reshape(-1, P.n_train, N)[:n_kdv_off].reshape(-1, N), X_adv.reshape(-1, P.n_train, N)[:n_adv_off].reshape(-1, N)
kdv_off = run_pde("KdV", Xk_off, K.kdv_spectral_rhs(Xk_off, L), -3 * Xk_off**2 - K.spectral_derivative(Xk_off, L, 2),
                  u_test0, U_test, P.kdv_hidden, P.kdv_channels, energy=lambda U: K.kdv_energy(U, L),
                  cfg=dict(OFF, bracket=K.smooth_diff))
adv_off = run_pde("advection", Xa_off, -A_ADV * K.spectral_derivative(Xa_off, L, 1), -A_ADV * Xa_off,
                  a_test0, A_test, P.adv_hidden, P.adv_channels, energy=lambda U: K.kdv_momentum(U, dx),
                  cfg=dict(OFF, bracket=K.central_diff))


def summary(res, k):
    s = res["stats"][k]
    drift = lambda a: float(np.nan_to_num(a, nan=np.inf).max(0).mean())   # max over time, mean over ICs
    return dict(err_T=float(s["err"][N_IDX_T].mean()), err_2T=float(s["err"][-1].mean()),
                mass=drift(s["mass"]), energy=drift(s["energy"]))


RUNS = {"KdV": kdv, "advection": adv, "KdV, official": kdv_off, "advection, official": adv_off}
S = {pde: {k: summary(res, k) for k in res["stats"]} for pde, res in RUNS.items()}
print(f"{'':20} {'model':16} {'params':>6} {'train loss':>10} {'relL2 @2':>9} {'relL2 @4':>9} {'mass drift':>10} {'energy drift':>12}")
for pde, res in RUNS.items():
    for k, v in S[pde].items():
        p = {"HNS": res["params"]["HNS"], "CNN": res["params"]["CNN"], "flux CNN": res["params"]["flux"]}.get(
            k, "shared" if "bracket" in k else 0)
        lo = f"{res['loss'][k]:.3g}" if k in res["loss"] else "-"
        mass = f"{v['mass']:.1e}" if pde.startswith("KdV") else "(zero mean)"
        print(f"{pde:20} {k:16} {p!s:>6} {lo:>10} {v['err_T']:9.3f} {v['err_2T']:9.3f} {mass:>10} {v['energy']:12.2e}")

MODELS = {"hns": "HNS", "cnn": "CNN", "flux": "flux CNN", "dp": "HNS, D+ bracket", "visc": "HNS, diffusive bracket",
          "pers": "persistence",
          "true": "HNS, true H"}
for rk, run in (("k", "KdV"), ("a", "advection"), ("ko", "KdV, official"), ("ao", "advection, official")):
    for mk, model in MODELS.items():
        if model in S[run]:
            v, c = S[run][model], S[run]["CNN"]
            glue(f"{rk}_{mk}_err", v["err_2T"], display=False)
            glue(f"{rk}_{mk}_en", v["energy"], display=False)
            glue(f"{rk}_{mk}_rerr", v["err_2T"] / c["err_2T"], display=False)
            glue(f"{rk}_{mk}_ren", v["energy"] / c["energy"], display=False)
            glue(f"{rk}_{mk}_mass", v["mass"], display=False)
    for mk, model in (("hns", "HNS"), ("cnn", "CNN"), ("flux", "flux CNN")):
        glue(f"{rk}_{mk}_loss", RUNS[run]["loss"][model], display=False)
smooth_orders = K.observed_order(K.smooth_diff, L)
central_orders = K.observed_order(K.central_diff, L)
glue("ord_smooth_lo", min(smooth_orders), display=False)
glue("ord_smooth_hi", max(smooth_orders), display=False)
glue("ord_central", central_orders[-1], display=False)
glue("err32_smooth", K.max_relative_error(K.smooth_diff, L, 32, 3), display=False)
glue("err32_central", K.max_relative_error(K.central_diff, L, 32, 3), display=False)
reach = [K.derivative_reach(kdv["hns"], u_test0[j], dx, node=N // 2) for j in range(N_TEST)]
glue("hns_reach", max(reach), display=False)   # nodes either side that one node's perturbation moves dH/du at
glue("wall_ratio", kdv["wall"]["HNS"] / max(kdv["wall"]["CNN"], 1e-9), display=False)
print(f"observed order of the smooth 'order 8' difference (N = 32..256, sin(6 pi x / L)): "
      f"{', '.join(f'{o:.2f}' for o in smooth_orders)}; central difference: "
      f"{', '.join(f'{o:.2f}' for o in central_orders)}")

# %% [markdown]
# ## Results
#
# The table above lists, per PDE, configuration and model, the parameter count, the final training loss
# (relative MSE of $u_t$ for ours; ScaledLp of $\delta\mathcal H/\delta u$ or $u_t$ for the official settings),
# the mean relative $L^2$ error at $t = 2$ and at $t = 4$, and the mean largest relative drift of mass and energy
# over the rollout. "HNS, diffusive bracket" and "HNS, D+ bracket" share the HNS's parameters; "HNS, true H" has none (the exact KdV
# Hamiltonian on our grid, the discretisation floor of the bracket).
#
# At this seed, with our settings, the KdV error at $t = 4$ is {glue:text}`k_hns_err:.3f` for the HNS,
# {glue:text}`k_cnn_err:.3f` for the direct CNN, {glue:text}`k_flux_err:.3f` for the flux CNN and
# {glue:text}`k_pers_err:.3f` for persistence; on advection {glue:text}`a_hns_err:.3f`, {glue:text}`a_cnn_err:.3f`,
# {glue:text}`a_flux_err:.3f` and {glue:text}`a_pers_err:.3f`. Under the official settings (4× and 5× the
# training horizon) the KdV errors are {glue:text}`ko_hns_err:.3f`, {glue:text}`ko_cnn_err:.3f`,
# {glue:text}`ko_flux_err:.3f` and {glue:text}`ko_pers_err:.3f`, the advection errors {glue:text}`ao_hns_err:.3f`,
# {glue:text}`ao_cnn_err:.3f`, {glue:text}`ao_flux_err:.3f` and {glue:text}`ao_pers_err:.3f`.
#
# The official "order 8" smooth difference converges at observed orders {glue:text}`ord_smooth_lo:.2f` to
# {glue:text}`ord_smooth_hi:.2f` over $N = 32 \to 256$ on $\sin(6\pi x/L)$ (the central difference:
# {glue:text}`ord_central:.2f`), and at $N = 32$ its relative error on that field is
# {glue:text}`err32_smooth:.3f`, against {glue:text}`err32_central:.3f` for the central difference (printed above).
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
         "HNS, diffusive bracket": dict(color="C1", ls="--"),
         "flux CNN": dict(color="C2", ls="-."),
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
# Relative drift $|Q(t) - Q(0)|/|Q(0)|$, mean over the test initial conditions, our settings. The mass drifts
# of the HNS and of the flux CNN sit at rounding level (both step through the skew bracket), so the left panel
# is on a log scale clipped at $10^{-17}$.

# %%
fig, axes = plt.subplots(1, 3, figsize=(12, 3.4))
panels = [(axes[0], kdv, "mass", "KdV: mass drift", ("HNS", "CNN", "flux CNN", "HNS, true H")),
          (axes[1], kdv, "energy", "KdV: drift of H_true", ("HNS", "CNN", "flux CNN", "HNS, diffusive bracket",
                                                          "HNS, D+ bracket", "HNS, true H")),
          (axes[2], adv, "energy", "advection: drift of int u^2/2", ("HNS", "CNN", "flux CNN",
                                                                   "HNS, diffusive bracket", "HNS, D+ bracket"))]
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
# which we did not rerun: about 2,500 Adam steps per model (100 functions × 25 epochs at batch 1) for three
# models would not fit this page's ci budget beside the PDE runs, and it was not ported in the time of this
# conversion. That is a budget reason, not an impossibility.

# %%
rows = [
    ("toy F = int u^3: validation MSE of F (official notebook)", "MLP 0.1163, FNO 0.02677, NF 0.002311", "not run"),
    ("toy: MSE of dF/du against 3u^2 (official notebook)", "MLP 1.996, FNO 2.003, NF 0.0898", "not run"),
    ("toy: MSE of dF/du on x in [-2, 2] (official notebook)", "MLP 74.69, FNO 70.28, NF 29.51", "not run"),
    ("KdV, relL2 at t = 4 (2x horizon), HNS / direct", "qualitative: HNS more stable, better at long horizons",
     f"{S['KdV']['HNS']['err_2T']:.3f} / {S['KdV']['CNN']['err_2T']:.3f} ({scale})"),
    ("KdV, drift of H_true, HNS / direct", "qualitative: HNS conserves energy-like quantities",
     f"{S['KdV']['HNS']['energy']:.3g} / {S['KdV']['CNN']['energy']:.3g} ({scale})"),
    ("advection, relL2 at t = 4 (2x horizon), HNS / direct", "qualitative (as KdV)",
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
# * Added after a second reading (the golden file had exercised neither the bracket, the slope input, the solver
#   nor the integrator): the official smooth `first_derivative(u, dx, order=8)`, run from the official file on
#   a seeded 2×16 array, equals our `smooth_diff` to $10^{-12}$. The other new cases are generated from *our*
#   kernels, since the official wrapper cannot be built (below): the bracket with the slope input (`hns_rhs` of
#   the closed-form density $-u^3 + \tfrac12(D_xu)^2$, with the central and the smooth bracket; it re-derives the
#   official `poisson_bracket` formula $D_x\,\delta\mathcal H/\delta u$ of the `kdv`/`advection` branch and is
#   also checked in closed form), ten steps of the spectral KdV solver, and an RK4 and an AB2 rollout.
#   `tests/papers/golden/hamiltonian-neural-solver.py` regenerates them and says which re-derive official
#   formulas. Nine mutants of the kernels (slope input, smooth-stencil weight, default bracket, the solver's
#   nonlinear sign and one stage, an RK4 and an AB2 weight, the $1/\Delta x$ of the functional derivative and
#   the quadrature weight) each fail a golden test.

# The official `Hamiltonian_Wrapper.__init__` (`modules/models/Hamiltonian.py`) assigns `self.filer = filter`
# and then reads `self.filter`, so `mode: hamiltonian` raises an `AttributeError` before the model is built: the
# committed code cannot train the HNS as released (a one-character fix, presumably what the authors ran).
#
# Departures in method and defaults are listed under "Deviations from the paper and its code". Those that can
# move a claim (the horizon, the $\delta\mathcal H/\delta u$ targets, the loss, the integrator and the KdV
# bracket) are run together as the second configuration, tests `*-official`. The kernel (SIREN with FiLM and
# Fourier features of $x$), the optimiser and the scale are not. We did not run the official training (it needs
# the authors' data set, Lightning and a GPU-sized budget).

# %%
ratio_tol = tolerance(rel=0.3, why="ratio of rollout quantities of two models trained in float32; the end "
                      "points move with the CPU's kernels")
OFF_WHY = ("second configuration added after the page first ran (issue 33, item 8): the official code's settings "
           "together (4x / 5x extrapolation, dH/du targets, ScaledLp loss, AB2, the smooth bracket for KdV); "
           "criterion and measurement as the pre-registered test")


def ratio(run, k, q):
    """Model k's quantity q (err_2T: relL2 at t = 4; energy: largest drift) over the direct CNN's."""
    return S[run][k][q] / S[run]["CNN"][q]


FLUX = "flux CNN: a CNN outputs the flux and the same skew bracket makes u_t (no energy functional)"
VISC = ("the same learned H through a stable bracket that is not skew: central difference plus diffusion "
        "nu = dx/2 (first-order upwinding's viscosity at unit speed)")
PERSIST = "persistence u(t) = u0 (null model)"
claims.headline("longer-horizons", "A learned Hamiltonian stepped through the Poisson bracket is more stable and "
                "stays accurate past the training horizon better than a surrogate that predicts u_t directly "
                "(FNO, U-Net)",
                tests=["kdv-extrapolation", "adv-extrapolation", "kdv-extrapolation-official",
                       "adv-extrapolation-official"])
claims.headline("conserves-energy", "The Hamiltonian solver conserves energy-like quantities better than "
                "direct surrogates", tests=["kdv-energy", "adv-energy", "kdv-energy-official",
                                                  "adv-energy-official"])
claims.headline("neural-functionals", "Neural functionals (kernel integrals) learn a functional and its derivative "
                "better than MLPs and FNOs", untestable="not ported, for budget: the official toy (learn int u^3 dx with an MLP, "
                "an FNO and a neural functional; 100 functions x 25 epochs at batch 1, about 2,500 Adam steps per "
                "model) would not fit the ci budget beside the PDE runs and was not ported in the time of this "
                "conversion; it is not untestable in principle. Its stored outputs are listed in the table of the "
                "paper's numbers")
claims.headline("shallow-water", "The method extends to 2-D shallow water with a vorticity bracket",
                untestable="2-D shallow water is left out of the miniature (CPU budget)")

for run, sfx, setting in (("", "", None), (", official", "-official", "official settings")):
    extra = dict(post_hoc=OFF_WHY, setting=setting) if setting else {}
    hz = "4x (KdV) / 5x (advection) the training horizon" if setting else "twice the training horizon"
    for pde, short in (("KdV", "kdv"), ("advection", "adv")):
        r = pde + run
        claims.test(
            f"{short}-extrapolation{sfx}",
            statement=f"At t = 4 ({hz}) the HNS has a lower {pde} rollout error than the direct CNN: mean "
                      "relL2(HNS) / mean relL2(CNN) below 1" + (" (official settings)" if setting else ""),
            paper="better generalisation to longer horizons than FNO/U-Net (abstract); no number found",
            criterion=less_than(1.0), measured=ratio(r, "HNS", "err_2T"),
            ablation=Comparator(FLUX + " / CNN", ratio(r, "flux CNN", "err_2T"),
                                ingredient="the learned scalar Hamiltonian (its gradient as the flux)"),
            baselines=[Comparator(PERSIST + " / CNN", ratio(r, "persistence", "err_2T"))], tol=ratio_tol, **extra)
        q = "H_true" if pde == "KdV" else "int u^2/2"
        claims.test(
            f"{short}-energy{sfx}",
            statement=f"The HNS conserves {q} better than the direct CNN: largest relative drift over [0, 4], "
                      "HNS / CNN, below 1" + (" (official settings)" if setting else ""),
            paper="conserves energy-like quantities (abstract); no number found",
            criterion=less_than(1.0), measured=ratio(r, "HNS", "energy"),
            ablation=Comparator(VISC + " / CNN", ratio(r, "HNS, diffusive bracket", "energy"),
                                ingredient="the skew-symmetric bracket"),
            baselines=[Comparator(FLUX + " / CNN", ratio(r, "flux CNN", "energy")),
                       Comparator(PERSIST + ": drift 0, whatever its error / CNN", ratio(r, "persistence", "energy"))],
            tol=ratio_tol, **extra)

claims.illustrate(
    "kdv-mass",
    statement="The HNS rollout of KdV conserves the mass: largest relative drift of sum(u) dx over t in [0, 4] "
              "below 1e-6 (mean over the test ICs)",
    paper="Hamiltonian structure conserves energy-like quantities (abstract); brief: HNS drift < 1e-6, "
          "baseline > 1e-4",
    criterion=less_than(1e-6), measured=S["KdV"]["HNS"]["mass"],
    tol=tolerance(rel=0.5, abs=1e-12, why="rounding-level drifts"),
    why="fixed by construction: any field stepped by a skew (or any zero-sum) difference of any g keeps sum(u) "
        "to rounding, trained or not; the flux CNN, with no Hamiltonian, keeps it too (see the table)")
claims.illustrate(
    "smooth-bracket-order",
    statement="Observed order of accuracy of the official 'order 8' smooth difference (N = 32 to 256, "
              "sin(6 pi x / L)), last doubling",
    paper="official KdV configuration: derivative_mode smooth, derivative_order 8",
    criterion=less_than(3.0), measured=smooth_orders[-1], tol=tolerance(abs=1e-6, why="float64 stencil arithmetic"),
    why="a property of a fixed stencil (exact for polynomials of degree 2 only), computed on a closed-form field")
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
# ```{repro-verdict}
# ```
#
# Eight tests are recorded: four pre-registered (they kept their measurement, setting and criterion and only
# gained comparators) and the same four under the official code's settings (post hoc, a second configuration).
# Every test is a ratio against the direct CNN; beside the HNS it is measured for the flux CNN (the skew bracket
# without an energy), persistence, and for the energy tests the HNS through a stable diffusive bracket. Values
# quoted with a number are from seed 0 at ci scale; counts over the ci seeds come from the sweep, through the
# seed counts below, and no sentence here generalises from seed 0.
#
# * **KdV, longer horizon** ({repro-status}`kdv-extrapolation`). At $t = 4$ the HNS error is
#   {glue:text}`k_hns_rerr:.2f` times the CNN's and the flux CNN's {glue:text}`k_flux_rerr:.2f` times (seed 0).
#   The judge counts a ratio within the ratio tolerance of 1 as at the edge, not a pass. Over the ci seeds the
#   HNS ratio is a clean pass at {repro-seeds}`kdv-extrapolation:method:pass` and at the edge at
#   {repro-seeds}`kdv-extrapolation:method:edge`; the flux CNN, with the bracket and no learned energy, passes
#   at {repro-seeds}`kdv-extrapolation:ablation:pass`. Persistence is {glue:text}`k_pers_rerr:.2f` times the CNN at
#   seed 0, so the CNN is not broken. All learned KdV models are far from the truth at $t = 4$ (seed 0: relL2
#   {glue:text}`k_hns_err:.2f` HNS, {glue:text}`k_cnn_err:.2f` CNN, {glue:text}`k_flux_err:.2f` flux CNN, against
#   {glue:text}`k_true_err:.2f` for the exact Hamiltonian through the same bracket): this compares under-trained
#   surrogates, far from the paper's regime, so a pass or a fail here says little about it. Under the official
#   settings ({repro-status}`kdv-extrapolation-official`) the seed-0 ratios are HNS {glue:text}`ko_hns_rerr:.2f`,
#   flux CNN {glue:text}`ko_flux_rerr:.2f`, persistence {glue:text}`ko_pers_rerr:.2f`; over the ci seeds the HNS
#   passes at {repro-seeds}`kdv-extrapolation-official:method:pass` and is at the edge at
#   {repro-seeds}`kdv-extrapolation-official:method:edge`.
# * **KdV, true energy** ({repro-status}`kdv-energy`). At seed 0 the HNS drifts $\mathcal H_{\rm true}$ by
#   {glue:text}`k_hns_ren:.2f` times as much as the CNN, the flux CNN by {glue:text}`k_flux_ren:.2f` times and the
#   HNS through the diffusive bracket by {glue:text}`k_visc_ren:.2f` times. On 32 nodes even the exact Hamiltonian
#   through the central bracket drifts $\mathcal H_{\rm true}$ by {glue:text}`k_true_en:.3f` (the bracket conserves
#   the *grid* Hamiltonian), and the under-trained $\mathcal H_\theta$ adds to that. Over the ci seeds the HNS
#   passes at {repro-seeds}`kdv-energy:method:pass`, the flux CNN at {repro-seeds}`kdv-energy:baseline1:pass`.
#   Persistence passes by doing nothing (drift 0), at {repro-seeds}`kdv-energy:baseline2:pass`.
#   Official settings ({repro-status}`kdv-energy-official`): seed 0, HNS {glue:text}`ko_hns_ren:.2f` and flux
#   CNN {glue:text}`ko_flux_ren:.2f`; over the ci seeds the HNS passes at
#   {repro-seeds}`kdv-energy-official:method:pass` and fails at {repro-seeds}`kdv-energy-official:method:fail`.
# * **Advection, longer horizon** ({repro-status}`adv-extrapolation`). The 105-parameter HNS is under-trained
#   (seed 0: training loss {glue:text}`a_hns_loss:.3f` against the CNN's {glue:text}`a_cnn_loss:.4f`; the CNN only
#   has to learn a linear stencil), and its error at $t = 4$ is {glue:text}`a_hns_rerr:.2f` times the CNN's (flux
#   CNN {glue:text}`a_flux_rerr:.2f`). Over the ci seeds the HNS passes at
#   {repro-seeds}`adv-extrapolation:method:pass`. Official settings ({repro-status}`adv-extrapolation-official`):
#   seed 0, {glue:text}`ao_hns_rerr:.2f` (flux CNN {glue:text}`ao_flux_rerr:.2f`); the HNS passes at
#   {repro-seeds}`adv-extrapolation-official:method:pass`.
# * **Advection energy** ({repro-status}`adv-energy`). At seed 0 the HNS drifts $\int u^2/2$ by
#   {glue:text}`a_hns_ren:.3f` times the CNN's; the diffusive bracket by {glue:text}`a_visc_ren:.2f` times and the
#   flux CNN by {glue:text}`a_flux_ren:.2f` times, so the flux CNN, with the bracket but no energy, does not
#   conserve it better than the CNN at this seed. Over the ci seeds the HNS passes at
#   {repro-seeds}`adv-energy:method:pass`, the diffusive-bracket ablation at {repro-seeds}`adv-energy:ablation:pass`,
#   the flux CNN at {repro-seeds}`adv-energy:baseline1:pass`, and persistence at
#   {repro-seeds}`adv-energy:baseline2:pass`. The HNS's conservation comes with a larger error than the CNN's
#   (seed 0: relL2 {glue:text}`a_hns_err:.3f` against {glue:text}`a_cnn_err:.3f` at $t = 4$, the
#   `adv-extrapolation` test), which is why persistence, frozen and wrong, shows what the energy criterion
#   alone is worth. Official settings ({repro-status}`adv-energy-official`): seed 0, HNS
#   {glue:text}`ao_hns_ren:.2f` and flux CNN {glue:text}`ao_flux_ren:.2f`; over the ci seeds the HNS passes at
#   {repro-seeds}`adv-energy-official:method:pass` and the flux CNN at
#   {repro-seeds}`adv-energy-official:baseline1:pass`.
#
# The one-sided downwind bracket, shown in the table and figures, blows up as expected (seed 0, energy drift
# {glue:text}`k_dp_ren:.3g` and {glue:text}`a_dp_ren:.3g` times the CNN's on KdV and advection); it is no
# evidence either way. Mass is kept to rounding by the HNS (illustration `kdv-mass`, {glue:text}`k_hns_mass:.1e`)
# and equally by the flux CNN ({glue:text}`k_flux_mass:.1e`), while the direct CNN drifts by
# {glue:text}`k_cnn_mass:.3f`: that is the skew bracket, whatever is put through it, and not evidence for the
# learned functional.
#
# In short: energy conservation alone does not show an accurate solver. Persistence, which does nothing, has
# zero drift and so passes every energy test; no energy test can count as reproduced here (where the HNS passes
# one, the judge records it as not specific), and each energy result has to be read beside the same model's
# rollout error, the horizon tests, where the paper's "more stable, more accurate past the horizon" claim lives.
# There the HNS clears the bar cleanly at {repro-seeds}`kdv-extrapolation:method:pass` (KdV) and
# {repro-seeds}`adv-extrapolation:method:pass` (advection) in our settings and at
# {repro-seeds}`kdv-extrapolation-official:method:pass` and {repro-seeds}`adv-extrapolation-official:method:pass`
# under the official ones, while the flux CNN, the bracket without a learned energy, clears the KdV bar at
# {repro-seeds}`kdv-extrapolation:ablation:pass`. The candidate for an effect specific to the learned energy is
# the conservation of advection's quadratic energy in our settings: the HNS keeps it better than the CNN at
# {repro-seeds}`adv-energy:method:pass`, the flux CNN at {repro-seeds}`adv-energy:baseline1:pass` and the diffusive
# ablation at {repro-seeds}`adv-energy:ablation:pass`; under the official settings the HNS does at
# {repro-seeds}`adv-energy-official:method:pass` and the flux CNN at
# {repro-seeds}`adv-energy-official:baseline1:pass`. It comes with the HNS's larger rollout error on advection.
# The cost is one autograd pass per right-hand side: the HNS rollout took {glue:text}`wall_ratio:.1f` times the
# CNN's wall-clock time here (timed, not counted).
#
# ## What a skeptic would try
#
# Measured by this notebook (seed 0, ci; counts over the ci seeds in the verdict):
#
# * *A conservative CNN* (the flux CNN, $u_t = D_x\,\mathrm{CNN}(u)$): same size, same data, same bracket. Its
#   KdV error at $t = 4$ is {glue:text}`k_flux_err:.3f` against the HNS's {glue:text}`k_hns_err:.3f`, and it keeps
#   mass to rounding; its advection energy drift is {glue:text}`a_flux_ren:.2f` times the CNN's. It is the
#   ablation of the horizon tests and a baseline of the energy tests.
# * *Do nothing* (persistence): relL2 {glue:text}`k_pers_err:.3f` (KdV) and {glue:text}`a_pers_err:.3f`
#   (advection) at $t = 4$; under the official 4× horizon on KdV, {glue:text}`ko_pers_err:.3f` against the CNN's
#   {glue:text}`ko_cnn_err:.3f`. Its energy drift is 0, so it passes every energy test: it is now a baseline of
#   all four.
# * *A stable bracket that is not skew* (central difference plus diffusion $\nu = \Delta x/2$): the ablation of
#   the energy tests in place of the downwind $D^+$, which blows up by construction. Energy drift, seed 0:
#   {glue:text}`k_visc_ren:.2f` (KdV) and {glue:text}`a_visc_ren:.2f` (advection) times the CNN's; KdV relL2 at
#   $t = 4$ {glue:text}`k_visc_err:.3f`.
# * *The official settings* (4×/5× horizon, $\delta\mathcal H/\delta u$ targets, ScaledLp, AB2, smooth KdV
#   bracket), all four tests rerun: see the `*-official` rows.
# * *The exact Hamiltonian* through the same bracket: KdV error {glue:text}`k_true_err:.3f` at $t = 4$ and energy
#   drift {glue:text}`k_true_en:.3f`, the floor a perfectly learned $\mathcal H_\theta$ would reach on our grid.
# * *The receptive field of the learned energy*: perturbing one node of a KdV test field moves our trained
#   $\delta\mathcal H_\theta/\delta u$ at most {glue:text}`hns_reach` nodes either side (the kernel sees $u_i$ and
#   the central slope).
#
# Reviewed by an independent skeptic (a helper that did not write the page; the rubric, the page, its record,
# the official code at `58ccf71`, and a rerun of the page's compute cells on ci seeds 0-9, one thread, beside
# the flux CNN, persistence, and two linear 5-tap stencils trained the same way, as a direct model and as a flux
# through the bracket); what they tried is above. They found that persistence passes every energy test, that the
# downwind $D^+$ ablation was a strawman, that the official-settings prose generalised from seed 0, and stale
# prose on the official kernel; the linear stencils are not rerun by this notebook, so their numbers are not
# quoted. An earlier second reading (issue 33, item 7) checked the stencils, the functional derivative and the
# bracket against the official code, measured the smooth bracket's order and ran mutants against the golden
# file.
#
# ## What the miniature cannot show
#
# * The paper's 2-D shallow-water results (Poisson bracket with vorticity), its FNO and U-Net baselines, and its
#   tests on unseen initial-condition families.
# * The official neural functional (a SIREN kernel modulated by FiLM, with Fourier features of $x$ for KdV) at
#   its resolution (256 nodes) and training length (250 epochs).
# * The functional-approximation toy of the official notebook (MLP, FNO and neural functional learning
#   $\int u^3dx$; its stored numbers are in the table above): about 2,500 small Adam steps per model, which do not
#   fit the ci budget beside the PDE runs and were not ported in the time available. It could be run in a later
#   version (for example at full scale); it is not untestable by nature.
# * Whether a better-trained $\mathcal H_\theta$ closes the gap to the true Hamiltonian: our ci training is a
#   few hundred steps.
# * The official KdV kernel's dependence on absolute position (Fourier features of $x$) and its FiLM encoder; the
#   official optimiser (AdamW at lr $10^{-5}$ to $2\cdot10^{-5}$) and 256-node grid: with them, the AB2 rollout
#   runs at the data's finer step, while ours uses AB2 at our coarser $dt$.
