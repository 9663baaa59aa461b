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
# # DINOZAUR: a heat-kernel multiplier in place of the FNO's dense spectral weights
#
# *If each Fourier layer only diffuses its channels, one learnable time per channel, a neural operator
# needs far fewer parameters and loses little accuracy; priors on those times make it a Bayesian operator whose
# predictive intervals are calibrated.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import time

import matplotlib.pyplot as plt
import numpy as np
import torch

from repro.claims import Claims, at_most, between, tolerance
from repro.papers import dinozaur_diffusion_operator as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    "ci": dict(n_grid=64, n_train=160, n_test=100, width=16, n_blocks=2, modes=16, epochs=10, batch_size=32,
               lr=1e-2, n_pred=16),
    "full": dict(n_grid=128, n_train=600, n_test=200, width=32, n_blocks=4, modes=16, epochs=20, batch_size=40,
                 lr=3e-3, n_pred=100),
})
LENGTHSCALE, NOISE_LR, DROPOUT, DROPOUT_LOGVAR = 0.1, 0.05, 0.1, -4.0
ACC_RATIO = {"ci": 1.5, "full": 1.2}[scale]  # the brief's thresholds, fixed before the first run
plt.rcParams["savefig.dpi"] = 90  # keep the page small
claims = Claims("dinozaur-diffusion-operator",
                title="Light-Weight Diffusion Multiplier and Uncertainty Quantification for Fourier Neural Operators",
                authors="Albert Matveev, Sanmitra Ghosh, Aamal Hussain, James-Michael Leahy, Michalis Michaelides",
                paper_url="https://arxiv.org/abs/2508.00643", scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# A Fourier neural operator (FNO) layer transforms each channel to Fourier space, keeps the lowest modes and
# mixes channels there with a dense complex tensor $R_k \in \mathbb C^{C\times C}$, one per kept mode. That
# tensor holds almost all of the network's parameters, and its size grows with the number of modes and, in
# $d$ dimensions, with their product. DINOZAUR replaces it by the spectral form of the heat equation: every channel
# $c$ is diffused for its own learnable time $\tau_c$, so the layer has $C$ parameters whatever the modes
# or the dimension. Gradient features give back some anisotropy, and a pointwise MLP mixes the channels.
# The paper reports accuracy that matches or beats FNO/TFNO on Darcy and Navier–Stokes, and GINO on ShapeNet-car
# and Ahmed bodies, with far fewer parameters. Its Bayesian variant places log-normal priors on the times,
# trains a variational posterior over them, and reports better negative log-likelihood, miscalibration area and
# interval score than MC dropout and Laplace approximations. **We did not retrieve any of the paper's numbers**,
# so this page checks direction, not values. The only values it can compare with the paper's setting
# are parameter counts, which we take from the official code (table below).
#
# ## The method
#
# For a channel $v_c$ on a periodic box of length $L$, with Fourier coefficients $\hat v_{k,c}$ and Laplacian
# eigenvalues $\lambda_k = (2\pi k/L)^2$,
#
# $$\text{FNO:}\quad \hat y_{k,o} = \sum_i R_{k,i,o}\,\hat v_{k,i}, \qquad
#   \text{DINOZAUR:}\quad \hat y_{k,c} = e^{-\lambda_k \tau_c}\,\hat v_{k,c},\ \ \tau_c \ge 10^{-8}.$$
#
# The second is the heat semigroup $e^{\tau_c\Delta}$ restricted to the kept modes. `K.diffusion_multiplier(u, tau)`
# applies it to a whole periodic signal on $[0,1)$, and the unit tests check it against closed forms: a sine of
# wavenumber $k$ decays by exactly $e^{-\tau(2\pi k)^2}$; two steps $\tau_1,\tau_2$ equal one step $\tau_1+\tau_2$;
# it matches the periodic Gaussian heat kernel and an explicit finite-difference heat solver. The *gradient
# features* differentiate the diffused field spectrally, $g = \partial_x v$, and append
# $\tanh\big((W g)\odot g\big)$ as $C$ more channels. This costs $C^2$ parameters per layer, but no more with
# more modes. Each block then follows the official "double skip" layout:
# $h = \mathrm{GELU}(\mathrm{LN}(\mathcal K v) + W_1 v)$, $v' = \mathrm{GELU}(\mathrm{LN}(\mathrm{MLP}(h) + W_2 v))$.
#
# **Bayesian DINOZAUR.** Prior $\tau_c \sim \mathrm{LogNormal}(\log 0.01, 1)$. The posterior is
# $q(\tau) = \exp_\#\mathcal N(\mu, LL^\top)$ with a full Cholesky factor. Each forward pass draws one
# $\tau \sim q$ by reparameterisation. Training minimises, per sample, the summed Gaussian NLL with a learned
# homoscedastic variance $\sigma^2$, plus the single-sample KL estimate $\log q(\tau) - \log p(\tau)$, as the official
# trainer does. The prediction averages forward passes with fresh $\tau$ draws plus $\mathcal N(0,\sigma^2)$ noise.
#
# **Baselines and controls.** The FNO with the same width, modes, blocks and lifting/projection MLPs. For
# uncertainty, an *MC-dropout FNO* as in the official dropout configurations: dropout 0.1 in the block MLPs,
# trained with the relative-L2 loss, and sampled with dropout on plus the official fixed noise
# $\log\sigma^2 = -4$ in normalised units. The control for accuracy is a *pointwise network*: the same blocks
# with the spectral operator removed, i.e. DINOZAUR without its diffusion. The paper's claim that a global
# diffusion is enough should fail for it. The control for calibration is the *Bayesian DINOZAUR without its
# noise term*: the spread of the $\tau$ posterior alone.

# %% [markdown]
# ## The experiment
#
# **Data (1-D Darcy flow).** $-(a u')' = 1$ on $[0,1]$, $u(0)=u(1)=0$, with $a = e^{g}$ and $g$ a Gaussian field
# with squared-exponential covariance (length-scale 0.1, unit variance). The reference solver is a finite-volume scheme with
# harmonic-mean face conductivities on `n_grid` nodes (ci 64, full 128), vectorised over samples
# (`K.darcy1d_solve`). We check it below against the exact solution, $u(x)=\int_0^x (c-s)/a(s)\,ds$, computed by
# quadrature on a 16× finer grid. Inputs are $[\log a, x]$ and the target is $u$, each standardised with the
# training mean and standard deviation, as the official `GaussianScaler` does. Errors and uncertainty
# metrics are computed in physical units. Sizes: ci 160 training / 100 test samples, width 16, 2 blocks; full
# 600 / 200, width 32, 4 blocks. Modes 16 in the official convention, i.e. the rfft coefficients $k=0..8$
# are kept. Zero padding is one-sided, 0.125 of the grid, as in the official Darcy configuration.
#
# **Training.** AdamW (weight decay 1e-4) with a one-cycle schedule, as the official Darcy config uses. Peak
# learning rate 1e-2 at ci and 3e-3 at full scale (official: 1e-3). Batch 32 (ci) or 40 (full). 10 (ci, 50 steps)
# or 20 (full, 300 steps) epochs. The loss is relative L2, or the ELBO for the Bayesian model. All models share the data, the
# initialisation seed and the schedule.
#
# **Deviations from the paper**
#
# - **Data and task.** 1-D Darcy flow generated here, not the paper's 2-D Darcy, Navier–Stokes, ShapeNet-car or
#   Ahmed-body data (22 GB on Hugging Face). The brief's full-scale second task (1-D Burgers) and its 2-D Darcy
#   run are not done. The UQ comparison is made on Darcy, whereas the paper makes it on ShapeNet-car.
# - **Scale.** 10–20 epochs (50–300 optimiser steps) instead of 150 epochs (about 9,400 steps at batch 16; 200
#   epochs for the Bayesian model), and width 16 with 2 blocks at ci, instead of width 32 with 4 blocks. The
#   ci models are far from converged (errors of 20–30%); the full-scale run is the meaningful one.
# - **Learning rates, input, changed after the first run.** The peak rate is 1e-2 (ci) and 3e-3 (full) instead of
#   1e-3, and the coefficient enters as $\log a$. Our first ci run used $a$ itself and a rate of 3e-3, and left
#   every model at 30–50% error. We changed both for all models alike, and flag every claim post hoc.
# - **Noise learning rate.** The Bayesian model's noise log-variance has its own peak learning rate, 0.05.
#   Under Adam a scalar moves by at most about one learning rate per step, so over our 60–450 steps a rate of
#   1e-3 would leave $\sigma^2$ at its initial value $e^{-3}$ and decide the coverage by itself.
# - **Inputs.** We feed $\log a$, not $a$ (a log-normal field spans two orders of magnitude), and append the
#   coordinate $x$ as a second input channel. The official Darcy config feeds the coefficient only, with no
#   positional encoding.
# - **Periodic length.** The eigenvalues use the physical length of the padded grid, $L = (n+p)/(n-1)$.
#   The official Darcy config uses its default extent $2\pi$, i.e. $\lambda_k = k^2$. This only rescales $\tau$.
# - **Baselines.** FNO and MC-dropout FNO only. No TFNO, GINO or Laplace approximation. The MC-dropout baseline
#   is an FNO. The paper's dropout baselines on ShapeNet-car are DINOZAUR-, GINO- and TGINO-dropout.
# - **Metrics.** NLL, 90% coverage and miscalibration area are computed over all test points together, with
#   our own implementation (the official code calls uncertainty-toolbox per sample). The interval score is
#   not computed.
# - **Controls** (pointwise network; τ-posterior spread without noise) are ours.

# %%
xg = np.linspace(0.0, 1.0, P.n_grid)
a_tr = K.sample_lognormal_grf(P.n_train, P.n_grid, LENGTHSCALE, P.rng)
a_te = K.sample_lognormal_grf(P.n_test, P.n_grid, LENGTHSCALE, P.rng)
u_tr, u_te = K.darcy1d_solve(a_tr), K.darcy1d_solve(a_te)

# the reference solver against the exact solution (quadrature of 1/a, log a interpolated on a 16x finer grid)
xf = np.linspace(0.0, 1.0, 16 * (P.n_grid - 1) + 1)
inv_a_fine = np.exp(-np.stack([np.interp(xf, xg, r) for r in np.log(a_te)]))
u_exact = K.darcy1d_exact(xf, inv_a_fine)[:, ::16]
solver_err = float(K.relative_l2(u_te, u_exact).max())
print(f"reference solver vs exact quadrature: max relative L2 error over {P.n_test} test samples = {solver_err:.2e}")

a_m, a_s, u_m, u_s = np.log(a_tr).mean(), np.log(a_tr).std(), u_tr.mean(), u_tr.std()


def features(a):
    return torch.tensor(np.stack([(np.log(a) - a_m) / a_s, np.broadcast_to(xg, a.shape)], -1), dtype=torch.float32)


X_tr, X_te = features(a_tr), features(a_te)
Y_tr = torch.tensor(((u_tr - u_m) / u_s)[..., None], dtype=torch.float32)

# %% [markdown]
# The five networks are trained one after the other on the same data. The Bayesian model and the MC-dropout FNO
# are then sampled `n_pred` times (ci 16, full 100) on the test set.

# %%
ARCH = dict(c_in=2, c_out=1, width=P.width, modes=P.modes, n_blocks=P.n_blocks, n_grid=P.n_grid)
SPECS = {"FNO": dict(kind="fno"), "DINOZAUR": dict(kind="dinozaur"), "Bayesian DINOZAUR": dict(kind="bayesian"),
         "MC-dropout FNO": dict(kind="fno", dropout=DROPOUT), "pointwise (control)": dict(kind="pointwise")}
models, hist, cpu = {}, {}, {}
# warm-up: torch's first backward pass and optimiser cost a one-off ~2 s of CPU; keep it out of the timings
K.train_operator(K.NeuralOperator1d("pointwise", **ARCH), X_tr[:8], Y_tr[:8], epochs=1, batch_size=8)
for name in progress(SPECS, desc="training"):
    torch.manual_seed(P.seed)
    m = K.NeuralOperator1d(**SPECS[name], **ARCH)
    t0 = time.process_time()
    hist[name] = K.train_operator(m, X_tr, Y_tr, epochs=P.epochs, batch_size=P.batch_size, lr=P.lr, seed=P.seed,
                                  noise_lr=NOISE_LR)
    cpu[name] = time.process_time() - t0
    models[name] = m


def to_phys(z):
    return np.asarray(z)[..., 0] * u_s + u_m


with torch.no_grad():
    pred = {n: to_phys(models[n](X_te).numpy()) for n in SPECS}
samples = {
    "Bayesian DINOZAUR": K.predictive_samples(models["Bayesian DINOZAUR"], X_te, P.n_pred, seed=P.seed),
    "Bayesian DINOZAUR, no noise (control)": K.predictive_samples(models["Bayesian DINOZAUR"], X_te, P.n_pred,
                                                                   seed=P.seed, noise="none"),
    "MC-dropout FNO": K.predictive_samples(models["MC-dropout FNO"], X_te, P.n_pred, seed=P.seed,
                                           noise=DROPOUT_LOGVAR, dropout=True),
}
uq = {}
for n, s in samples.items():
    s = to_phys(s)
    mu, sd = s.mean(0), s.std(0, ddof=1)
    uq[n] = dict(mu=mu, sd=sd, nll=K.gaussian_nll(mu, sd**2, u_te), cov90=K.interval_coverage(mu, sd, u_te, 0.9),
                 ma=K.miscalibration_area(mu, sd, u_te), rel=K.relative_l2(mu, u_te))
pred["Bayesian DINOZAUR"] = uq["Bayesian DINOZAUR"]["mu"]  # its prediction is the predictive mean
pred["MC-dropout FNO"] = uq["MC-dropout FNO"]["mu"]
rel = {n: K.relative_l2(pred[n], u_te) for n in SPECS}
n_par = {n: K.parameter_count(models[n]) for n in SPECS}
n_mult = {n: sum(K.parameter_count(b.spectral.multiplier) for b in models[n].blocks if b.spectral is not None)
          for n in SPECS}

# %% [markdown]
# ## Results
#
# ### Parameters and error, side by side
#
# Relative L2 error on the test set, in physical units, against the reference solver. The bars span the
# 10th to 90th percentile over test samples. The table also gives the parameters in the spectral multipliers
# and in the whole network.

# %%
print(f"{'model':<22}{'params':>9}{'multiplier':>12}{'rel. L2 mean':>14}{'median':>9}{'p90':>9}")
for n in SPECS:
    r = rel[n]
    print(f"{n:<22}{n_par[n]:>9}{n_mult[n]:>12}{r.mean():>14.4f}{np.median(r):>9.4f}{np.quantile(r, 0.9):>9.4f}")
print(f"\nreference solver vs exact solution: {solver_err:.1e} (max over test samples)")

fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
ax = axes[0]
for i, n in enumerate(SPECS):
    r = rel[n]
    lo, med, hi = np.quantile(r, [0.1, 0.5, 0.9])
    ax.errorbar(n_par[n], med, yerr=[[med - lo], [hi - med]], fmt="o", color=f"C{i}", capsize=3, label=n)
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlabel("trainable parameters (whole network)")
ax.set_ylabel("test relative L2 error (median, 10–90%)")
ax.set_title(f"1-D Darcy, {scale} scale")
ax.legend(fontsize=7)
ax = axes[1]
for i, n in enumerate(SPECS):
    ax.plot(np.arange(1, P.epochs + 1), hist[n], color=f"C{i}", label=n)
ax.set_xlabel("epoch")
ax.set_ylabel("training loss (rel. L2; ELBO per sample for Bayesian)")
ax.set_yscale("symlog", linthresh=1.0)
ax.set_title("training curves")
plt.show()

# %% [markdown]
# The parameter count of the multiplier grows with the number of modes and the dimension for the FNO, but not for
# DINOZAUR. The official code gives the counts at the paper's **2-D Darcy configuration** (width 32, modes
# [12, 12], gradient features on for DINOZAUR). We ran it outside this project (golden file), and our
# closed form `K.multiplier_parameter_count` reproduces them:

# %%
print(f"{'setting':<44}{'FNO':>10}{'DINOZAUR':>10}{'ratio':>8}")
for label, modes, fno_tot, dz_tot in [("1-D, width 32, modes 16, 4 blocks (official code)", [16], 91169, 28065),
                                      ("2-D Darcy config, width 32, modes [12, 12]", [12, 12], 705505, 28001)]:
    f_m = 4 * K.multiplier_parameter_count("fno", 32, modes)
    d_m = 4 * K.multiplier_parameter_count("dinozaur", 32, modes)
    print(f"{label:<44}")
    print(f"{'   multipliers (4 blocks)':<44}{f_m:>10}{d_m:>10}{f_m / d_m:>8.0f}")
    print(f"{'   whole network':<44}{fno_tot:>10}{dz_tot:>10}{fno_tot / dz_tot:>8.1f}")
print(f"{'3-D, width 32, modes [24, 24, 24] (multipliers)':<44}{4 * K.multiplier_parameter_count('fno', 32, [24] * 3):>10}"
      f"{4 * K.multiplier_parameter_count('dinozaur', 32, [24] * 3):>10}")

# %% [markdown]
# ### Fields and predictive intervals
#
# One test coefficient (top), and the reference solution with each model's prediction (bottom). For the Bayesian
# DINOZAUR the band is its central 90% predictive interval. The dotted lines bound the same model without its noise
# term, i.e. the spread of the diffusion-time posterior alone.

# %%
i = int(np.argsort(rel["FNO"])[len(rel["FNO"]) // 2])  # the test sample of median FNO error
fig, axes = plt.subplots(2, 1, figsize=(7.5, 5.2), sharex=True, gridspec_kw=dict(height_ratios=[1, 2]))
axes[0].semilogy(xg, a_te[i], color="k")
axes[0].set_ylabel("coefficient a(x)")
ax = axes[1]
ax.plot(xg, u_te[i], color="k", lw=2.5, label="reference solver")
for n, c in (("FNO", "C0"), ("DINOZAUR", "C1"), ("pointwise (control)", "C4")):
    ax.plot(xg, pred[n][i], color=c, lw=1.2, label=n)
b, b0 = uq["Bayesian DINOZAUR"], uq["Bayesian DINOZAUR, no noise (control)"]
z = 1.6448536269514722
ax.plot(xg, b["mu"][i], color="C2", lw=1.2, label="Bayesian DINOZAUR (mean)")
ax.fill_between(xg, b["mu"][i] - z * b["sd"][i], b["mu"][i] + z * b["sd"][i], color="C2", alpha=0.25,
                label="90% predictive interval")
ax.plot(xg, b0["mu"][i] - z * b0["sd"][i], color="C2", ls=":", lw=1, label="τ-posterior spread only")
ax.plot(xg, b0["mu"][i] + z * b0["sd"][i], color="C2", ls=":", lw=1)
ax.set_xlabel("x (domain units)")
ax.set_ylabel("pressure u(x)")
ax.legend(fontsize=7, ncol=2)
plt.show()

# %% [markdown]
# ### Calibration
#
# The observed coverage of central Gaussian intervals $\mu\pm z\sigma$ against their nominal level, over all
# test points. A calibrated model lies on the diagonal. The miscalibration area is the area between its curve
# and the diagonal.

# %%
from scipy.stats import norm

levels = np.linspace(0.0, 1.0, 41)
fig, ax = plt.subplots(figsize=(5.0, 4.0))
ax.plot([0, 1], [0, 1], color="gray", ls="--", lw=1)
for (n, d), c in zip(uq.items(), ("C2", "C5", "C3")):
    zz = np.abs(u_te - d["mu"]).ravel() / d["sd"].ravel()
    obs = [(zz <= norm.ppf(0.5 + lv / 2)).mean() for lv in levels]
    ax.plot(levels, obs, color=c, label=f"{n}: MA {d['ma']:.3f}")
ax.axvline(0.9, color="k", lw=0.6, ls=":")
ax.set_xlabel("nominal level of the central interval")
ax.set_ylabel("observed fraction of test points inside")
ax.legend(fontsize=7)
plt.show()
print(f"{'model':<40}{'NLL (nats/point)':>17}{'90% coverage':>14}{'MA':>8}{'rel. L2':>9}")
for n, d in uq.items():
    print(f"{n:<40}{d['nll']:>17.3f}{d['cov90']:>14.3f}{d['ma']:>8.3f}{d['rel'].mean():>9.4f}")
print(f"learned noise std (physical units): {np.exp(0.5 * float(models['Bayesian DINOZAUR'].log_noise_var.detach())) * u_s:.2e};"
      f" MC-dropout fixed noise std: {np.exp(0.5 * DROPOUT_LOGVAR) * u_s:.2e}; test |u| mean {np.abs(u_te).mean():.2e}")

# %% [markdown]
# ### What the diffusion layers learned
#
# Each DINOZAUR channel applies the heat-kernel filter $e^{-\lambda_k\tau_c}$ to its kept modes. Below, the filters
# of every channel of the first and last block (thin lines). For the Bayesian model we draw the filter at the
# posterior median of each $\tau_c$.

# %%
fig, axes = plt.subplots(1, 2, figsize=(10, 3.4), sharey=True)
for ax, name in zip(axes, ("DINOZAUR", "Bayesian DINOZAUR")):
    for bi, c in ((0, "C0"), (P.n_blocks - 1, "C3")):
        layer = models[name].blocks[bi].spectral
        mult = layer.multiplier
        with torch.no_grad():
            tau = mult.times() if name == "DINOZAUR" else torch.exp(mult.posterior_mean)
            lam = layer.eigvals
            filt = torch.exp(-lam[:, None] * tau[None, :].double()).numpy()
        k = np.arange(layer.n_modes)
        ax.plot(k, filt, color=c, lw=0.7, alpha=0.6)
        ax.plot([], [], color=c, label=f"block {bi + 1}: median τ = {float(tau.detach().median()):.1e}")
    ax.set_xlabel("wavenumber k (padded period)")
    ax.set_title(name)
    ax.legend(fontsize=7)
axes[0].set_ylabel("filter exp(−λ_k τ_c)")
plt.show()

# %% [markdown]
# ## Against the official code
#
# The paper's code: [PhysicsXLtd/DINOZAUR](https://github.com/PhysicsXLtd/DINOZAUR) (commit `8ce47fd`).
# We read its multipliers, its Fourier convolution, blocks, models, trainer, losses and configurations. We then
# ran its layers outside this project, in float64 on one thread, on small seeded inputs. Three stubs were
# needed: `tltorch` (only the dense multiplier is used), `open3d` and `torch_scatter` (only the geometry
# models import them). One shim was needed too. In 1-D the official `FourierConvolution` calls
# `torch.fft.fftshift(x, dim=[])`, which torch 2.13 rejects ("`shifts` required"), so the shim treats a shift over
# no dimension as the identity. The outputs are in `tests/papers/golden/dinozaur-diffusion-operator.json`, and the
# `test_golden_*` unit tests check our kernels against them.
#
# **What agrees** (to 1e-10 or better, float64):
#
# - the `DiffusionMultiplier` on a random complex spectrum with times (0, 1e-3, 1e-2), including its clamp of
#   τ = 0 to 1e-8;
# - `FourierConvolution` with a diffusion multiplier and all 16 modes of a 16-point signal, with extent 1, against our
#   `diffusion_multiplier(u, tau)`: the official layer is exactly the heat semigroup;
# - the same layer with modes truncated to 8 (5 rfft coefficients), with and without gradient features
#   (a seeded gradient-feature weight);
# - the `BayesianDiffusionMultiplier`: its KL estimate $\log q(\tau)-\log p(\tau)$ at a fixed τ (−1.42683), and one
#   seeded forward pass, including its reparameterised draw (the same draw from torch's generator) and KL;
# - parameter counts: the official 1-D FNO (width 32, modes 16, 4 blocks, 2 input channels) has 91,169 parameters
#   and DINOZAUR with gradient features 28,065. Our networks have the same counts. Our closed form gives the
#   multiplier counts of the 2-D Darcy configuration (688,128 against 128).
#
# **Departures** (ours → official):
#
# 1. *Training length and learning rates*: 10–20 epochs, peak learning rate 1e-2 (ci) or 3e-3 (full) → 150 epochs at
#    1e-3, batch 16 (Darcy). Our noise log-variance has its own peak rate of 0.05; in the official code it shares the
#    single rate.
# 2. *Extent*: $L$ = the padded grid's physical length → $2\pi$ in the Darcy config (extent [1, 1, 1] in the Bayesian
#    ShapeNet config). This rescales τ only.
# 3. *Inputs*: $[\log a, x]$ → $a$ only for Darcy.
# 4. *UQ baseline*: MC-dropout on an FNO → dropout on DINOZAUR, GINO and TGINO (ShapeNet-car), plus a Laplace
#    approximation. Our dropout and its fixed noise ($\log\sigma^2=-4$ in normalised units) follow the official
#    `_generate_samples`.
# 5. *Metrics*: NLL, coverage and miscalibration area are pooled over all test points, with our own code →
#    uncertainty-toolbox per test sample, then averaged.
# 6. *Not used*: TFNO/TGINO factorisations, positional encodings, the geometry (GINO) encoders and decoders.

# %%
ctrl_rel = rel["pointwise (control)"].mean() / rel["FNO"].mean()
bz, b0, dr = uq["Bayesian DINOZAUR"], uq["Bayesian DINOZAUR, no noise (control)"], uq["MC-dropout FNO"]
TRAINED = tolerance(rel=0.25, why=f"ratio of the end points of two {P.epochs}-epoch AdamW trainings: moves with "
                                  "float rounding across machines")
COVER = tolerance(abs=0.05, why=f"coverage of intervals from {P.n_pred} posterior draws of a trained model")
NLLD = tolerance(abs=0.5, rel=0.25, why="difference of two NLLs of trained models (nats per point)")
NO_NOISE = "Bayesian DINOZAUR without its noise term (spread of the τ posterior alone)"
REDESIGN = ("criterion and control fixed before the first run, but the input (log a instead of a) and the learning "
            "rates (ci 1e-2, full 3e-3) were changed after it, for all models alike: the first ci run left every "
            "model at 30-50% error")

claims.check("multiplier-params", kind="implementation",
             statement="spectral-multiplier parameters, DINOZAUR / FNO, at our width and modes",
             paper="a single learnable time per channel instead of a dense tensor multiplier (no count found); "
                   "brief: ≤ 1/20", criterion=at_most(1 / 20),
             measured=n_mult["DINOZAUR"] / n_mult["FNO"])
claims.check("solver-vs-exact", kind="implementation",
             statement="reference Darcy solver vs exact quadrature solution: max relative L2 over test samples",
             paper="(our check of the data)", criterion=at_most(0.01), measured=solver_err,
             tol=tolerance(rel=1e-3, why="finite-volume and quadrature of sampled fields"))
claims.check("accuracy-competitive",
             statement="mean test relative L2: DINOZAUR / FNO (same width, modes, blocks, schedule)",
             paper="competitive or superior accuracy to FNO on Darcy and Navier–Stokes (values not retrieved); "
                   f"brief: ≤ {ACC_RATIO}×",
             criterion=at_most(ACC_RATIO), measured=rel["DINOZAUR"].mean() / rel["FNO"].mean(),
             control=ctrl_rel, control_label="pointwise network (DINOZAUR without its diffusion layer) / FNO",
             tol=TRAINED, post_hoc=REDESIGN)
claims.check("coverage-90", statement="Bayesian DINOZAUR: fraction of test points inside its central 90% "
             "predictive interval", paper="calibrated uncertainty (better miscalibration area than MC dropout and "
             "Laplace on ShapeNet-car; values not retrieved); brief: in [0.75, 0.98]",
             criterion=between(0.75, 0.98), measured=bz["cov90"], control=b0["cov90"], control_label=NO_NOISE,
             tol=COVER, post_hoc=REDESIGN)
claims.check("nll-vs-dropout", statement="test NLL per point (nats): Bayesian DINOZAUR minus MC-dropout FNO",
             paper="lower NLL than MC dropout (values not retrieved); brief: ≤ 0 at full scale (we check it at ci too)",
             criterion=at_most(0.0), measured=bz["nll"] - dr["nll"], control=b0["nll"] - dr["nll"],
             control_label=NO_NOISE + ", minus MC-dropout FNO", tol=NLLD, post_hoc=REDESIGN)
for n in SPECS:
    claims.check(f"train-cpu-{n.split(' (')[0].lower().replace(' ', '-')}", statement=f"CPU seconds to train {n}",
                 paper="(not a claim of the paper)", criterion=at_most(1e9), measured=cpu[n], volatile=True)

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
# **Parameters: reproduced by construction.** The diffusion multiplier has $C$ parameters per layer against
# the FNO's $2C^2(m/2+1)$: 1/288 of it at our ci width (16), 1/576 at width 32. This is a count, not a measurement, so the
# page lists it as an implementation check. The whole network is less dramatic, because the gradient features, the
# skip connections and the MLPs remain. In 1-D, DINOZAUR has 2.8× (ci) to 3.2× (official 1-D count) fewer parameters
# than the FNO. The "orders of magnitude" appear with dimension: 25× for the whole network at the paper's 2-D Darcy
# configuration (from the official code), and the FNO's multipliers alone reach 61 million parameters in 3-D with
# modes 24, where DINOZAUR's stay at 128.
#
# **Accuracy: reproduced at ci in the weak form the brief asks, but seed-sensitive.** At seed 0, DINOZAUR's mean test
# error is 1.41× the FNO's (0.290 against 0.206), within the brief's 1.5×. The control, the same network without
# its spectral layer, is at 2.15× and fails. Over ci seeds 0–9 the ratio holds at 7 of 10 seeds (median 1.17, range
# 0.76–1.93), and the control fails at all 10. So a per-channel heat kernel does most of the FNO's work with a third
# of the parameters, and at some seeds it does better. But at 50 optimiser steps every model is far from converged
# (errors of 20–40%, against a reference solver accurate to 1%), and the ranking moves with the seed. The
# full-scale row of the robustness table (seed 0, 300 steps, the stricter 1.2×) is the closer test of "competitive".
# There the claim does not hold: DINOZAUR's error is 1.28× the FNO's, above the 1.2× threshold, and the control
# fails by an order of magnitude (11×). An earlier full-scale record (made before a change to the project's
# input hashing, on a heavily loaded machine) gave 1.19× and passed. The two values differ by less than the 25 %
# this page declares for a ratio of two trained end points, so the honest summary is: slightly less accurate than
# the FNO, right at the edge of the brief's 1.2×.
#
# **Calibration: partly reproduced, and not by the mechanism the paper credits.** At seed 0 the Bayesian DINOZAUR's
# 90% intervals cover 70% of the test points, below the brief's 0.75 (not reproduced). Over ci seeds 0–9 the
# coverage is in range at 6 of 10 seeds (median 0.76, range 0.63–0.82). Its NLL is lower than the MC-dropout FNO's at
# 9 of 10 seeds (2.6 nats per point lower at seed 0). Its miscalibration area at seed 0 (0.15) is about the same as
# dropout's (0.14). The control fails both checks at every seed, by a wide margin: without the learned noise, the τ
# posterior alone covers 24–56%, and its NLL is 6–81 nats per point above the dropout FNO's. So at ci the
# coverage comes mostly from the learned homoscedastic noise, not from the priors on the diffusion times. The
# full-scale run (seed 0; robustness table) turns this around. The Bayesian model's intervals there are too wide
# (coverage at the top of the range), its NLL is worse than the dropout FNO's (not reproduced), and the τ-posterior
# spread alone lands inside the coverage range too, so the coverage claim is uninformative there. In that run the
# τ spread alone has the smallest miscalibration area of the three (rerun with `scale="full"` to see it). The
# posterior means of $\log\tau$ barely move from their initial value of −5 in 50–300 steps (the filter figure). The
# Bayesian model's mean prediction is the least accurate of the four operators at both scales (0.41 at ci seed 0).
# The paper's calibration result comes from 200 epochs on ShapeNet-car, which we cannot run here.
#
# The robustness table below the claims gives each claim's pass rate over ci seeds 0–9 and its full-scale status.
# All three counted claims are flagged post hoc (†). Their criteria and controls were fixed before the first run,
# but the input ($\log a$) and the learning rates were changed after it, for all models alike (see the deviations).

# ## What the miniature cannot show
#
# - **Dimension.** The parameter saving grows with dimension: the FNO multiplier scales as $C^2\prod_i m_i$ and
#   DINOZAUR's stays at $C$. In 1-D the saving is about 3× for the whole network. The paper's 2-D Darcy and 3-D
#   geometry settings (25× and more in the table above) and their accuracy are not run here.
# - **Geometry and GINO.** ShapeNet-car and Ahmed bodies, and the GINO encoder/decoder, need the 22 GB data set
#   and a GPU.
# - **The paper's UQ comparison.** It uses ShapeNet-car with Laplace and dropout baselines on the same backbone,
#   and the interval score. Ours is a 1-D stand-in with an FNO dropout baseline.
# - **Training length.** Our models train for minutes, not 150 epochs. The ranking at convergence may differ,
#   and the sweep's full-scale row is one such run.
