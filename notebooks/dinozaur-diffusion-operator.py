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
from myst_nb import glue

from repro.claims import Claims, Comparator, at_most, between, tolerance
from repro.papers import dinozaur_diffusion_operator as K
from repro.runtime import progress, setup_notebook

PRESETS = {
    "ci": dict(n_grid=64, n_train=160, n_test=100, width=16, n_blocks=2, modes=16, epochs=10, batch_size=32,
               lr=1e-2, n_pred=16),
    "full": dict(n_grid=128, n_train=600, n_test=200, width=32, n_blocks=4, modes=16, epochs=20, batch_size=40,
                 lr=3e-3, n_pred=100),
}
P = setup_notebook(scale, seed, presets=PRESETS)
STEPS = {k: v["epochs"] * -(-v["n_train"] // v["batch_size"]) for k, v in PRESETS.items()}  # optimiser steps
RIDGE_ALPHA = 1.0  # the ridge baseline's regularisation, fixed before its first run (the reviewer's choice)
LENGTHSCALE, NOISE_LR, DROPOUT, DROPOUT_LOGVAR = 0.1, 0.05, 0.1, -4.0
ACC_RATIO = {"ci": 1.5, "full": 1.2}[scale]  # the brief's thresholds, fixed before the first run
OFFICIAL_EXTENT = 2 * np.pi  # the extent of the official Darcy config (its default), run as a second setting
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
# **Comparators.** Each counted test names the ingredient it is about and runs the method without it (the
# ablation) beside the strongest naive baselines we could think of, under the same measurement and criterion.
#
# - *Accuracy* (the ingredient: the learned diffusion times). The reference is the FNO with the same width, modes,
#   blocks and lifting/projection MLPs. The ablation is DINOZAUR with its times frozen at their initial value
#   ($\tau = 10^{-8}$), i.e. a plain low-pass truncation of the kept modes plus the gradient features. A second
#   ablation (added after the independent review) freezes the times at a fixed, untrained bank: the quantiles of
#   the official prior $\mathrm{LogNormal}(\log 0.01, 1)$ at the levels $(i+\tfrac12)/C$, one per channel
#   (`K.prior_quantile_times`), so each channel keeps a different low-pass filter that is never learned. The naive
#   baselines are two FNOs with as many parameters as DINOZAUR or fewer (the largest width that fits, at the same
#   modes and at 4 modes), since the claim is "as accurate with far fewer parameters", the same blocks with
#   no spectral operator at all (a pointwise network), and (added after the review) no network at all: a ridge
#   regression from $1/a$ on the grid to $u$ with a fixed $\alpha = 1$ (`K.RidgeMap`), a linear map with about
#   DINOZAUR's parameter count. The exact solution $u(x)=\int_0^x (c-s)/a(s)\,ds$ is linear in $1/a$ except
#   through the constant $c$, so this is the obvious linear guess.
# - *Uncertainty* (the ingredient: the posterior over the diffusion times). The ablation is DINOZAUR with point
#   times trained on the same Gaussian likelihood with the same learned homoscedastic noise: the Bayesian model
#   without its posterior. The naive baselines are the FNO with a constant Gaussian noise whose variance is its
#   mean squared training residual, and the MC-dropout FNO of the official dropout configurations (dropout 0.1 in
#   the block MLPs, sampled with dropout on plus the official fixed noise $\log\sigma^2 = -4$ in normalised
#   units), with that fixed noise and with its noise fitted in the same way as the FNO's (its mean squared
#   training residual added to the dropout variance): the same model, at the same error, with a fixed and with a
#   fitted noise level. The fixed-noise dropout FNO is a strawman: a fixed noise level under-covers by construction
#   once the model's error exceeds it. It stays because the paper's comparison is against it, and the NLL test
#   measures the difference from it; the test's verdict rests on the other comparators. After the review, the same
#   constant-noise recipe is also applied to two models with no spectral operator, the pointwise network and the
#   ridge map.

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
# learning rate 1e-2 at ci and 3e-3 at full scale (official: 1e-3). Batch 32 (ci) or 40 (full).
# {glue:text}`epochs_ci` (ci, {glue:text}`steps_ci` steps) or {glue:text}`epochs_full` (full,
# {glue:text}`steps_full` steps) epochs. The loss is relative L2, or the ELBO for the Bayesian model. All models share the data, the
# initialisation seed and the schedule.
#
# **Deviations from the paper**
#
# - **Data and task.** 1-D Darcy flow generated here, not the paper's 2-D Darcy, Navier–Stokes, ShapeNet-car or
#   Ahmed-body data (22 GB on Hugging Face). The brief's full-scale second task (1-D Burgers) and its 2-D Darcy
#   run are not done. The UQ comparison is made on Darcy, whereas the paper makes it on ShapeNet-car.
# - **Scale.** {glue:text}`epochs_ci`–{glue:text}`epochs_full` epochs ({glue:text}`steps_ci`–{glue:text}`steps_full`
#   optimiser steps) instead of 150 epochs (about 9,400 steps at batch 16; 200 epochs for the Bayesian model), and
#   width 16 with 2 blocks at ci, instead of width 32 with 4 blocks. The models are far from converged (the FNO's
#   error is {glue:text}`rel_fno:.2f` in this run). The full-scale run trains longer, but it too is far from the paper's
#   150 epochs.
# - **Learning rates, input, changed after the first run.** The peak rate is 1e-2 (ci) and 3e-3 (full) instead of
#   1e-3, and the coefficient enters as $\log a$. Our first ci run used $a$ itself and a rate of 3e-3, and left
#   every model at 30–50% error. We changed both for all models alike, and flag every claim post hoc.
# - **Noise learning rate.** The Bayesian model's noise log-variance has its own peak learning rate, 0.05.
#   Under Adam a scalar moves by at most about one learning rate per step, so over our
#   {glue:text}`steps_ci`–{glue:text}`steps_full` steps a rate of 1e-3 would leave $\sigma^2$ at its initial value
#   $e^{-3}$ and decide the coverage by itself.
# - **Inputs.** We feed $\log a$, not $a$ (a log-normal field spans two orders of magnitude), and append the
#   coordinate $x$ as a second input channel. The official Darcy config feeds the coefficient only, with no
#   positional encoding.
# - **Periodic length (extent).** The eigenvalues and the gradient wavenumbers use the physical length of the
#   padded grid, $L = (n+p)/(n-1) \approx 1.14$. The official Darcy config uses its default extent $2\pi$, i.e.
#   $\lambda_k = k^2$. This is not a mere rescaling of $\tau$: AdamW moves $\tau$ by about one learning rate per
#   step whatever its scale, so the extent sets how far the filters can move in a given number of steps. The page
#   therefore runs the official extent as a second setting of the accuracy test (and of its ablation).
# - **The Bayesian model** is our 1-D uniform-grid network with Bayesian multipliers, not the official
#   `BayesianDINOZAURd` (a GINO-style decoder on ShapeNet-car). Three departures from its configuration: our
#   projection MLP has one hidden layer of $2W$ (official: two, $[2W, 2W]$); our padding is one-sided (official
#   Bayesian config: symmetric); and we train in batches of 32 with one $\tau$ draw per batch, shared by its 32
#   samples, where the official batch size 1 draws one $\tau$ per sample. Our ELBO averages the summed NLL over
#   the batch, the official one sums it (equal at its batch size 1).
# - **Baselines.** FNO and MC-dropout FNO only. No TFNO, GINO or Laplace approximation. The MC-dropout baseline
#   is an FNO. The paper's dropout baselines on ShapeNet-car are DINOZAUR-, GINO- and TGINO-dropout.
# - **Metrics.** NLL, 90% coverage and miscalibration area are computed over all test points together, with
#   our own implementation (the official code calls uncertainty-toolbox per sample). The interval score is
#   not computed.
# - **Comparators** (frozen times, the prior-quantile bank of times, parameter-matched FNOs, the pointwise network,
#   the ridge map, point times with a learned noise, fitted constant noises) are ours.

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
# The {glue:text}`n_nets` networks (the method, its ablations and the baselines of every test) are trained one
# after the other on the same data, from the same initialisation seed; the ridge map is fitted in closed form.
# The Bayesian model, the point-time DINOZAUR with a learned noise and the MC-dropout FNO are then sampled
# `n_pred` times (ci 16, full 100) on the test set.

# %%
ARCH = dict(c_in=2, c_out=1, width=P.width, modes=P.modes, n_blocks=P.n_blocks, n_grid=P.n_grid)
n_dz = K.parameter_count(K.NeuralOperator1d("dinozaur", **ARCH))


def matched_width(modes):
    """The largest width at which an FNO with these modes has no more parameters than DINOZAUR."""
    return max(w for w in range(2, P.width + 1)
               if K.parameter_count(K.NeuralOperator1d("fno", **{**ARCH, "width": w, "modes": modes})) <= n_dz)


W_NARROW, W_M4 = matched_width(P.modes), matched_width(4)
TAU_BANK = K.prior_quantile_times(P.width)  # the official prior's quantiles at levels (i + 1/2) / C, untrained
SPECS = {"FNO": dict(kind="fno"), "DINOZAUR": dict(kind="dinozaur"),
         "DINOZAUR, τ frozen": dict(kind="dinozaur", learn_tau=False),
         "DINOZAUR, τ prior bank": dict(kind="dinozaur", tau_init=TAU_BANK, learn_tau=False),
         "DINOZAUR, extent 2π": dict(kind="dinozaur", length=OFFICIAL_EXTENT),
         "DINOZAUR, extent 2π, τ frozen": dict(kind="dinozaur", length=OFFICIAL_EXTENT, learn_tau=False),
         "DINOZAUR, extent 2π, τ prior bank": dict(kind="dinozaur", length=OFFICIAL_EXTENT, tau_init=TAU_BANK,
                                                   learn_tau=False),
         "FNO, narrow": dict(kind="fno", width=W_NARROW), "FNO, 4 modes": dict(kind="fno", modes=4, width=W_M4),
         "pointwise network": dict(kind="pointwise"),
         "Bayesian DINOZAUR": dict(kind="bayesian"), "DINOZAUR, learned noise": dict(kind="dinozaur", learn_noise=True),
         "MC-dropout FNO": dict(kind="fno", dropout=DROPOUT)}
models, hist, cpu = {}, {}, {}
# warm-up: torch's first backward pass and optimiser cost a one-off ~2 s of CPU; keep it out of the timings
K.train_operator(K.NeuralOperator1d("pointwise", **ARCH), X_tr[:8], Y_tr[:8], epochs=1, batch_size=8)
for name in progress(SPECS, desc="training"):
    torch.manual_seed(P.seed)
    m = K.NeuralOperator1d(**{**ARCH, **SPECS[name]})
    t0 = time.process_time()
    hist[name] = K.train_operator(m, X_tr, Y_tr, epochs=P.epochs, batch_size=P.batch_size, lr=P.lr, seed=P.seed,
                                  noise_lr=NOISE_LR)
    cpu[name] = time.process_time() - t0
    models[name] = m


def to_phys(z):
    return np.asarray(z)[..., 0] * u_s + u_m


with torch.no_grad():
    pred = {n: to_phys(models[n](X_te).numpy()) for n in SPECS}
# the linear baseline: a ridge map from 1/a on the grid to u (fixed alpha), no network
t0 = time.process_time()
ridge = K.RidgeMap(RIDGE_ALPHA).fit(1.0 / a_tr, u_tr)
cpu["ridge on 1/a"] = time.process_time() - t0
RIDGE = "ridge on 1/a"
pred[RIDGE] = ridge.predict(1.0 / a_te)
samples = {
    "Bayesian DINOZAUR": K.predictive_samples(models["Bayesian DINOZAUR"], X_te, P.n_pred, seed=P.seed),
    "Bayesian DINOZAUR, no noise": K.predictive_samples(models["Bayesian DINOZAUR"], X_te, P.n_pred, seed=P.seed,
                                                        noise="none"),
    "DINOZAUR, learned noise": K.predictive_samples(models["DINOZAUR, learned noise"], X_te, P.n_pred, seed=P.seed),
    "MC-dropout FNO": K.predictive_samples(models["MC-dropout FNO"], X_te, P.n_pred, seed=P.seed,
                                           noise=DROPOUT_LOGVAR, dropout=True),
}


def uq_of(mu, sd):
    return dict(mu=mu, sd=sd, nll=K.gaussian_nll(mu, sd**2, u_te), cov90=K.interval_coverage(mu, sd, u_te, 0.9),
                ma=K.miscalibration_area(mu, sd, u_te), rel=K.relative_l2(mu, u_te))


uq = {n: uq_of(to_phys(s).mean(0), to_phys(s).std(0, ddof=1)) for n, s in samples.items()}
# naive noise levels: the mean squared training residual (normalised units) of the model's mean prediction
with torch.no_grad():
    lv_fno = float(np.log(np.mean((models["FNO"](X_tr).numpy() - Y_tr.numpy()) ** 2)))
drop_tr = K.predictive_samples(models["MC-dropout FNO"], X_tr, P.n_pred, seed=P.seed, noise="none", dropout=True)
lv_drop = float(np.log(np.mean((drop_tr.mean(0) - Y_tr.numpy()) ** 2)))
drop_te = to_phys(K.predictive_samples(models["MC-dropout FNO"], X_te, P.n_pred, seed=P.seed, noise="none",
                                       dropout=True))
with torch.no_grad():
    mu_fno = to_phys(models["FNO"](X_te).numpy())
uq["FNO, fitted constant noise"] = uq_of(mu_fno, np.full_like(mu_fno, np.exp(0.5 * lv_fno) * u_s))
uq["MC-dropout FNO, fitted noise"] = uq_of(drop_te.mean(0), np.sqrt(drop_te.var(0, ddof=1) + np.exp(lv_drop) * u_s**2))
# the same constant-noise recipe on the two models that have no spectral operator at all
with torch.no_grad():
    lv_pw = float(np.log(np.mean((models["pointwise network"](X_tr).numpy() - Y_tr.numpy()) ** 2)))
uq["pointwise network, fitted constant noise"] = uq_of(pred["pointwise network"],
                                                       np.full_like(pred["pointwise network"], np.exp(0.5 * lv_pw) * u_s))
sd_ridge = float(np.sqrt(np.mean((ridge.predict(1.0 / a_tr) - u_tr) ** 2)))  # physical units
uq["ridge on 1/a, fitted constant noise"] = uq_of(pred[RIDGE], np.full_like(pred[RIDGE], sd_ridge))
pred["Bayesian DINOZAUR"] = uq["Bayesian DINOZAUR"]["mu"]  # its prediction is the predictive mean
pred["MC-dropout FNO"] = uq["MC-dropout FNO"]["mu"]
ALL = [*SPECS, RIDGE]
rel = {n: K.relative_l2(pred[n], u_te) for n in ALL}
n_par = {**{n: K.parameter_count(models[n]) for n in SPECS}, RIDGE: ridge.n_params}
n_mult = {**{n: sum(K.parameter_count(b.spectral.multiplier) for b in models[n].blocks if b.spectral is not None)
             for n in SPECS}, RIDGE: 0}

# %% [markdown]
# ## Results
#
# ### Parameters and error, side by side
#
# Relative L2 error on the test set, in physical units, against the reference solver. The bars span the
# 10th to 90th percentile over test samples. The table also gives the parameters in the spectral multipliers
# and in the whole network.

# %%
print(f"{'model':<35}{'params':>9}{'multiplier':>12}{'rel. L2 mean':>14}{'median':>9}{'p90':>9}")
for n in ALL:
    r = rel[n]
    print(f"{n:<35}{n_par[n]:>9}{n_mult[n]:>12}{r.mean():>14.4f}{np.median(r):>9.4f}{np.quantile(r, 0.9):>9.4f}")
print(f"\nreference solver vs exact solution: {solver_err:.1e} (max over test samples)")

fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
ax = axes[0]
for i, n in enumerate(ALL):
    r = rel[n]
    lo, med, hi = np.quantile(r, [0.1, 0.5, 0.9])
    ax.errorbar(n_par[n], med, yerr=[[med - lo], [hi - med]], fmt="o" if i < 10 else "s", color=f"C{i % 10}",
                capsize=3, label=n)
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlabel("trainable parameters (whole network)")
ax.set_ylabel("test relative L2 error (median, 10–90%)")
ax.set_title(f"1-D Darcy, {scale} scale")
ax.legend(fontsize=5.5, ncol=2)
ax = axes[1]
for i, n in enumerate(SPECS):
    ax.plot(np.arange(1, P.epochs + 1), hist[n], color=f"C{i % 10}", ls="-" if i < 10 else "--", label=n)
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
for n, c in (("FNO", "C0"), ("DINOZAUR", "C1"), ("pointwise network", "C7")):
    ax.plot(xg, pred[n][i], color=c, lw=1.2, label=n)
b, b0 = uq["Bayesian DINOZAUR"], uq["Bayesian DINOZAUR, no noise"]
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
for j, (n, d) in enumerate(uq.items()):
    c = f"C{j}"
    zz = np.abs(u_te - d["mu"]).ravel() / d["sd"].ravel()
    obs = [(zz <= norm.ppf(0.5 + lv / 2)).mean() for lv in levels]
    ax.plot(levels, obs, color=c, label=f"{n}: MA {d['ma']:.3f}")
ax.axvline(0.9, color="k", lw=0.6, ls=":")
ax.set_xlabel("nominal level of the central interval")
ax.set_ylabel("observed fraction of test points inside")
ax.legend(fontsize=7)
plt.show()
print(f"{'model':<42}{'NLL (nats/point)':>17}{'90% coverage':>14}{'MA':>8}{'rel. L2':>9}")
for n, d in uq.items():
    print(f"{n:<42}{d['nll']:>17.3f}{d['cov90']:>14.3f}{d['ma']:>8.3f}{d['rel'].mean():>9.4f}")
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
#   multiplier counts of the 2-D Darcy configuration (688,128 against 128);
# - the **whole networks' forward passes** (lifting, one-sided padding, two double-skip blocks, unpadding,
#   projection; width 4, modes 8, a 16-point grid) with the official weights loaded into ours: DINOZAUR with
#   gradient features and nonzero diffusion times at **two extents**, the padded grid's length (our default) and the
#   official $2\pi$ (the two outputs differ, and each is reproduced only with its own extent), and the FNO;
# - the **training losses**: the official `RelativeLpLoss`, and `ELBOLoss` (full Gaussian NLL summed, plus the KL)
#   at batch size 1, against our `relative_l2_loss` and `gaussian_elbo`.
#
# **Departures** (ours → official):
#
# 1. *Training length and learning rates*: 10–20 epochs, peak learning rate 1e-2 (ci) or 3e-3 (full) → 150 epochs at
#    1e-3, batch 16 (Darcy). Our noise log-variance has its own peak rate of 0.05; in the official code it shares the
#    single rate.
# 2. *Extent*: $L$ = the padded grid's physical length → $2\pi$ in the Darcy config (extent [1, 1, 1] in the Bayesian
#    ShapeNet config). This does not only rescale τ: under AdamW a time moves by about one learning rate per step
#    whatever its scale, so the extent decides how far the filters move in our {glue:text}`steps_ci`–{glue:text}`steps_full`
#    steps. **Run**: the test
#    `accuracy-competitive-official-extent` repeats the accuracy test with the extent $2\pi$.
# 2b. *The Bayesian model*: our 1-D grid network with Bayesian multipliers → the official `BayesianDINOZAURd`
#    (a GINO-style decoder). Ours has a one-hidden-layer projection $[2W]$ (official $[2W, 2W]$), one-sided
#    padding (official Bayesian config: symmetric), and batches of 32 sharing one $\tau$ draw (official batch size
#    1: one draw per sample). Our ELBO averages the per-sample summed NLL over the batch; the official one sums it
#    over the batch (the golden test checks that the two agree at batch size 1). Not run: the batch-size-1
#    training alone would cost more than this page's whole ci budget.
# 3. *Inputs*: $[\log a, x]$ → $a$ only for Darcy.
# 4. *UQ baseline*: MC-dropout on an FNO → dropout on DINOZAUR, GINO and TGINO (ShapeNet-car), plus a Laplace
#    approximation. Our dropout and its fixed noise ($\log\sigma^2=-4$ in normalised units) follow the official
#    `_generate_samples`.
# 5. *Metrics*: NLL, coverage and miscalibration area are pooled over all test points, with our own code →
#    uncertainty-toolbox per test sample, then averaged.
# 6. *Not used*: TFNO/TGINO factorisations, positional encodings, the geometry (GINO) encoders and decoders.

# %%
R = {n: float(rel[n].mean() / rel["FNO"].mean()) for n in ALL}  # mean test error relative to the FNO's
bz, dr = uq["Bayesian DINOZAUR"], uq["MC-dropout FNO"]
TRAINED = tolerance(rel=0.25, why=f"ratio of the end points of two {P.epochs}-epoch AdamW trainings: moves with "
                                  "float rounding across machines")
COVER = tolerance(abs=0.05, why=f"coverage of intervals from {P.n_pred} posterior draws of a trained model")
NLLD = tolerance(abs=0.5, rel=0.25, why="difference of two NLLs of trained models (nats per point)")
REDESIGN = ("criterion fixed before the first run, but the input (log a instead of a) and the learning "
            "rates (ci 1e-2, full 3e-3) were changed after it, for all models alike: the first ci run left every "
            "model at 30-50% error; comparators added under issue 32; the prior-quantile bank of times, the ridge map "
            "and the constant-noise pointwise and ridge models added after the independent review")
OFFICIAL_SETTING = "the official Darcy config's extent 2π (λ_k = k², gradient wavenumbers k) for DINOZAUR and its ablation"
WHY_OFFICIAL = ("issue 32: a second reading of the official code found that the extent moves this test; the official "
                "extent is run as a second setting, with the method, measurement and criterion of accuracy-competitive")
TAU = "the learned diffusion times (frozen at their initial 1e-8: a plain low-pass truncation)"
POST = "the posterior over the diffusion times (point times, the same learned noise and likelihood)"
BANK = ("learning the diffusion times (a second ablation: the times fixed, untrained, at the official prior's "
        "quantiles)")
NAIVE_ACC = [Comparator(f"ridge regression from 1/a to u, alpha {RIDGE_ALPHA} (a linear map, {n_par[RIDGE]} "
                        "parameters, no network) / FNO", R[RIDGE]),
             Comparator(f"FNO with matched parameters: width {W_NARROW}, modes {P.modes} "
                        f"({n_par['FNO, narrow']} parameters against DINOZAUR's {n_dz}) / FNO", R["FNO, narrow"]),
             Comparator(f"FNO with matched parameters: width {W_M4}, modes 4 ({n_par['FNO, 4 modes']} parameters) "
                        "/ FNO", R["FNO, 4 modes"]),
             Comparator("the same blocks with no spectral operator (pointwise network) / FNO", R["pointwise network"])]
ACC_BASELINES = [Comparator("DINOZAUR with its times fixed at the official prior's quantiles (untrained) / FNO",
                            R["DINOZAUR, τ prior bank"], ingredient=BANK), *NAIVE_ACC]
ACC_BASELINES_2PI = [Comparator("DINOZAUR with the extent 2π and its times fixed at the official prior's quantiles "
                                "(untrained) / FNO", R["DINOZAUR, extent 2π, τ prior bank"], ingredient=BANK),
                     *NAIVE_ACC]

claims.headline("light-and-competitive",
                "Replacing the FNO's dense spectral multiplier by a diffusion multiplier with one learnable time per "
                "channel cuts the parameters drastically without compromising accuracy",
                tests=["accuracy-competitive", "accuracy-competitive-official-extent"])
claims.headline("bayesian-uq",
                "Priors over the diffusion times make DINOZAUR a Bayesian operator with calibrated uncertainty, better "
                "than MC dropout",
                tests=["coverage-90", "nll-vs-dropout"])
claims.headline("bayesian-vs-laplace",
                "The Bayesian DINOZAUR's uncertainty is better than that of Laplace approximations",
                untestable="no Laplace approximation is run on this page (the paper's comparison is on ShapeNet-car, "
                           "which needs the 22 GB data set)")
claims.headline("benchmarks",
                "Competitive or superior accuracy on Darcy, Navier-Stokes, ShapeNet-car and Ahmed bodies against "
                "FNO, TFNO, GINO and TGINO",
                untestable="the 2-D/3-D benchmarks need the 22 GB data set and a GPU; the page runs a 1-D Darcy "
                           "stand-in, which the first headline's tests cover")
claims.illustrate("multiplier-params",
                  statement="spectral-multiplier parameters, DINOZAUR / FNO, at our width and modes",
                  paper="a single learnable time per channel instead of a dense tensor multiplier (no count found); "
                        "brief: ≤ 1/20", criterion=at_most(1 / 20),
                  measured=n_mult["DINOZAUR"] / n_mult["FNO"],
                  why="a count fixed by the architecture: C against 2C²(m/2+1) per layer, whatever the data; "
                      "the golden file checks the counts against the official code")
claims.check("solver-vs-exact", kind="implementation",
             statement="reference Darcy solver vs exact quadrature solution: max relative L2 over test samples",
             paper="(our check of the data)", criterion=at_most(0.01), measured=solver_err,
             tol=tolerance(rel=1e-3, why="finite-volume and quadrature of sampled fields"))
claims.test("accuracy-competitive",
            statement="mean test relative L2: DINOZAUR / FNO (same width, modes, blocks, schedule)",
            paper="competitive or superior accuracy to FNO on Darcy and Navier–Stokes (values not retrieved); "
                  f"brief: ≤ {ACC_RATIO}×",
            criterion=at_most(ACC_RATIO), measured=R["DINOZAUR"],
            ablation=Comparator("DINOZAUR with its diffusion times frozen / FNO", R["DINOZAUR, τ frozen"],
                                ingredient=TAU),
            baselines=ACC_BASELINES, tol=TRAINED, post_hoc=REDESIGN)
claims.test("accuracy-competitive-official-extent",
            statement="mean test relative L2: DINOZAUR with the official extent 2π / FNO",
            paper="competitive or superior accuracy to FNO (official Darcy config: extent 2π); "
                  f"brief: ≤ {ACC_RATIO}×",
            criterion=at_most(ACC_RATIO), measured=R["DINOZAUR, extent 2π"],
            ablation=Comparator("DINOZAUR with the extent 2π and its diffusion times frozen / FNO",
                                R["DINOZAUR, extent 2π, τ frozen"], ingredient=TAU),
            baselines=ACC_BASELINES_2PI, tol=TRAINED, post_hoc=WHY_OFFICIAL, setting=OFFICIAL_SETTING)
claims.test("coverage-90", statement="Bayesian DINOZAUR: fraction of test points inside its central 90% "
            "predictive interval", paper="calibrated uncertainty (better miscalibration area than MC dropout and "
            "Laplace on ShapeNet-car; values not retrieved); brief: in [0.75, 0.98]",
            criterion=between(0.75, 0.98), measured=bz["cov90"],
            ablation=Comparator("DINOZAUR with point diffusion times and the same learned noise",
                                uq["DINOZAUR, learned noise"]["cov90"], ingredient=POST),
            baselines=[Comparator("FNO with a constant noise (its mean squared training residual)",
                                  uq["FNO, fitted constant noise"]["cov90"]),
                       Comparator("MC-dropout FNO with the official fixed noise (a strawman: a fixed noise level "
                                  "under-covers by construction once the error exceeds it)", dr["cov90"]),
                       Comparator("MC-dropout FNO with its noise fitted (mean squared training residual)",
                                  uq["MC-dropout FNO, fitted noise"]["cov90"]),
                       Comparator("pointwise network (no spectral operator) with a constant noise (its mean squared "
                                  "training residual)", uq["pointwise network, fitted constant noise"]["cov90"]),
                       Comparator(f"ridge map from 1/a (alpha {RIDGE_ALPHA}) with a constant noise (its root mean "
                                  "squared training residual)", uq["ridge on 1/a, fitted constant noise"]["cov90"])],
            tol=COVER, post_hoc=REDESIGN)
claims.test("nll-vs-dropout", statement="test NLL per point (nats): Bayesian DINOZAUR minus MC-dropout FNO with "
            "the official fixed noise (the paper's comparison; that reference is a strawman, it pays a fixed noise)",
            paper="lower NLL than MC dropout (values not retrieved); brief: ≤ 0 at full scale (we check it at ci too)",
            criterion=at_most(0.0), measured=bz["nll"] - dr["nll"],
            ablation=Comparator("DINOZAUR with point diffusion times and the same learned noise, minus MC-dropout FNO",
                                uq["DINOZAUR, learned noise"]["nll"] - dr["nll"], ingredient=POST),
            baselines=[Comparator("FNO with a constant noise (its mean squared training residual), minus MC-dropout "
                                  "FNO", uq["FNO, fitted constant noise"]["nll"] - dr["nll"]),
                       Comparator("MC-dropout FNO with its noise fitted instead of fixed (same predictions, same "
                                  "error), minus MC-dropout FNO", uq["MC-dropout FNO, fitted noise"]["nll"] - dr["nll"]),
                       Comparator("pointwise network (no spectral operator) with a constant noise (its mean squared "
                                  "training residual), minus MC-dropout FNO",
                                  uq["pointwise network, fitted constant noise"]["nll"] - dr["nll"]),
                       Comparator(f"ridge map from 1/a (alpha {RIDGE_ALPHA}) with a constant noise, minus MC-dropout "
                                  "FNO", uq["ridge on 1/a, fitted constant noise"]["nll"] - dr["nll"])],
            tol=NLLD, post_hoc=REDESIGN)
for n in SPECS:
    tid = "train-cpu-" + "".join(ch if ch.isalnum() else "-" for ch in n.lower().replace("τ", "tau").replace("π", "pi"))
    claims.check(tid.replace("--", "-").strip("-"), statement=f"CPU seconds to train {n}",
                 paper="(not a claim of the paper)", criterion=at_most(1e9), measured=cpu[n], volatile=True)

# %%
import re


def gkey(n):
    return re.sub(r"[^a-z0-9]+", "_", n.lower().replace("τ", "tau").replace("π", "pi")).strip("_")


for n in ALL:
    glue(f"ratio_{gkey(n)}", R[n], display=False)
    glue(f"rel_{gkey(n)}", float(rel[n].mean()), display=False)
    glue(f"par_{gkey(n)}", n_par[n], display=False)
glue("ridge_alpha", RIDGE_ALPHA, display=False)
glue("n_nets", len(SPECS), display=False)
glue("tau_bank_lo", float(TAU_BANK.min()), display=False)
glue("tau_bank_hi", float(TAU_BANK.max()), display=False)
glue("bank_gain", R["DINOZAUR, τ prior bank"] - R["DINOZAUR"], display=False)
for k, v in STEPS.items():
    glue(f"steps_{k}", v, display=False)
    glue(f"epochs_{k}", PRESETS[k]["epochs"], display=False)
for n, d in uq.items():
    for k in ("cov90", "nll", "ma"):
        glue(f"{k}_{gkey(n)}", float(d[k]), display=False)
    glue(f"dnll_{gkey(n)}", float(d["nll"] - dr["nll"]), display=False)
glue("w_narrow", W_NARROW, display=False)
glue("w_m4", W_M4, display=False)
glue("par_ratio", n_par["FNO"] / n_dz, display=False)
glue("mult_ratio_inv", n_mult["FNO"] / n_mult["DINOZAUR"], display=False)
glue("sigma_learned", float(np.exp(0.5 * float(models["Bayesian DINOZAUR"].log_noise_var.detach())) * u_s), display=False)
glue("sigma_point", float(np.exp(0.5 * float(models["DINOZAUR, learned noise"].log_noise_var.detach())) * u_s),
     display=False)
glue("sigma_dropout", float(np.exp(0.5 * DROPOUT_LOGVAR) * u_s), display=False)
glue("sigma_fno_fit", float(np.exp(0.5 * lv_fno) * u_s), display=False)
glue("bayes_error_vs_dropout", float(bz["rel"].mean() / dr["rel"].mean()), display=False)
glue("solver_err", solver_err, display=False)
glue("acc_ratio", ACC_RATIO, display=False)
# the posterior over the times alone: its spread against the learned noise
sig_b = float(np.exp(0.5 * float(models["Bayesian DINOZAUR"].log_noise_var.detach())) * u_s)
glue("post_sd_over_sigma", float(np.median(uq["Bayesian DINOZAUR, no noise"]["sd"]) / sig_b), display=False)
glue("rel_bayes_mean", float(bz["rel"].mean()), display=False)
glue("rel_dropout_mean", float(dr["rel"].mean()), display=False)
glue("sigma_ridge", sd_ridge, display=False)

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
# Numbers are from this run (ci seed 0); counts are over the ci sweep of seeds 0–9. Errors are mean test
# relative L2 errors divided by the FNO's. "Passes" means outside the declared tolerance band; a value inside the
# band is "at the edge" and never a pass. The judged table shows the full-scale status once the full sweep has
# been run on the current inputs; this prose quotes no full-scale number.
#
# - *Parameters* (an illustration). The diffusion multiplier has $C$ parameters per layer against the FNO's
#   $2C^2(m/2+1)$, {glue:text}`mult_ratio_inv:.0f` times fewer at our ci width: a count fixed by the
#   architecture, so it is shown, not counted. The whole network saves less, {glue:text}`par_ratio:.1f`× here,
#   because the gradient features, skips and MLPs remain; the saving grows with dimension (table above).
# - *Accuracy* ({repro-status}`accuracy-competitive`). DINOZAUR's error is {glue:text}`ratio_dinozaur:.2f`× the
#   FNO's, against the brief's {glue:text}`acc_ratio`×. Over the sweep it passes at
#   {repro-seeds}`accuracy-competitive:method:pass` seeds and lies inside the tolerance band at
#   {repro-seeds}`accuracy-competitive:method:edge`. Learning the times beats the identity filter: with the times
#   frozen at $10^{-8}$ (a plain low-pass truncation) the ratio is {glue:text}`ratio_dinozaur_tau_frozen:.2f`×.
#   It gains much less over a fixed, untrained bank of times at the prior's quantiles
#   ({glue:text}`tau_bank_lo:.4f` to {glue:text}`tau_bank_hi:.3f`), which is at
#   {glue:text}`ratio_dinozaur_tau_prior_bank:.2f`× ({glue:text}`bank_gain:+.2f` from the method here; it passes
#   at {repro-seeds}`accuracy-competitive:baseline1:pass` seeds). Most of what the times do is give each channel a
#   different low-pass filter, and a spread of filters fixed in advance does a good part of that. The claim "as
#   accurate with fewer parameters" also does not need the diffusion multiplier, nor a neural operator: an FNO with
#   DINOZAUR's parameter budget spent on fewer modes (width {glue:text}`w_m4`, 4 modes) is at
#   {glue:text}`ratio_fno_4_modes:.2f`× (passes at {repro-seeds}`accuracy-competitive:baseline4:pass` seeds), and
#   a ridge map from $1/a$ to $u$ with {glue:text}`par_ridge_on_1_a` parameters is at
#   {glue:text}`ratio_ridge_on_1_a:.2f`× (passes at {repro-seeds}`accuracy-competitive:baseline2:pass` seeds).
#   The narrow FNO at the same modes is at {glue:text}`ratio_fno_narrow:.2f`× and the pointwise network at
#   {glue:text}`ratio_pointwise_network:.2f`×. On this smooth 1-D problem the solution map is close to linear in
#   $1/a$, and a linear map is competitive with the FNO at our training length.
# - *The official extent* ({repro-status}`accuracy-competitive-official-extent`). With the extent $2\pi$ of the
#   official Darcy config, and nothing else changed, DINOZAUR's error is {glue:text}`ratio_dinozaur_extent_2pi:.2f`×
#   the FNO's (times frozen at $10^{-8}$: {glue:text}`ratio_dinozaur_extent_2pi_tau_frozen:.2f`×; at the prior's
#   quantiles: {glue:text}`ratio_dinozaur_extent_2pi_tau_prior_bank:.2f`×). The method passes at
#   {repro-seeds}`accuracy-competitive-official-extent:method:pass` seeds. With $\lambda_k = k^2$ the times
#   must grow about $(2\pi/L)^2 \approx 30$ times larger to give the same filters, and AdamW moves them by about
#   one learning rate per step, so in our few steps they stay near the identity filter. The accuracy claim at
#   our extent rests on a departure from the official setting. Even where it passed, the 4-mode FNO and the ridge
#   map are the same comparators as above, so it could not be specific.
# - *Calibration* ({repro-status}`coverage-90`). The Bayesian DINOZAUR's 90% intervals cover
#   {glue:text}`cov90_bayesian_dinozaur:.2f` of the test points; over the sweep it passes at
#   {repro-seeds}`coverage-90:method:pass` seeds, is at the edge at {repro-seeds}`coverage-90:method:edge` and
#   fails at {repro-seeds}`coverage-90:method:fail`. Where it misses, it under-covers: its learned noise is too small
#   for its error. Its predictive mean is {glue:text}`bayes_error_vs_dropout:.2f` times the dropout FNO's error
#   ({glue:text}`rel_bayes_mean:.3f` against {glue:text}`rel_dropout_mean:.3f`). The posterior over the times
#   does widen the intervals (without the noise term they cover {glue:text}`cov90_bayesian_dinozaur_no_noise:.2f`,
#   with a median standard deviation {glue:text}`post_sd_over_sigma:.2f` times the learned noise level), but not
#   enough for an error that large. Its ablation, point times with the same
#   learned noise and a lower error, covers {glue:text}`cov90_dinozaur_learned_noise:.2f` (passes at
#   {repro-seeds}`coverage-90:ablation:pass` seeds). Any model with a constant noise fitted to its training
#   residual lands in the window: the FNO covers {glue:text}`cov90_fno_fitted_constant_noise:.2f` (passes at
#   {repro-seeds}`coverage-90:baseline1:pass` seeds, edge at {repro-seeds}`coverage-90:baseline1:edge`), the
#   pointwise network {glue:text}`cov90_pointwise_network_fitted_constant_noise:.2f` (passes at
#   {repro-seeds}`coverage-90:baseline4:pass`), and the ridge map
#   {glue:text}`cov90_ridge_on_1_a_fitted_constant_noise:.2f` (passes at {repro-seeds}`coverage-90:baseline5:pass`).
#   The dropout FNO covers {glue:text}`cov90_mc_dropout_fno:.2f` with the official fixed noise (a strawman) and
#   {glue:text}`cov90_mc_dropout_fno_fitted_noise:.2f` with a fitted one. Coverage in a wide window is what a
#   fitted noise level gives; it does not test the posterior over the times.
# - *NLL against dropout* ({repro-status}`nll-vs-dropout`). The Bayesian DINOZAUR's NLL differs from the
#   MC-dropout FNO's by {glue:text}`dnll_bayesian_dinozaur:+.2f` nats per point, at
#   {glue:text}`bayes_error_vs_dropout:.2f` times its error. The gap comes from the noise level: the Bayesian
#   model learns a noise standard deviation of {glue:text}`sigma_learned:.3f` where the official dropout sampler
#   fixes {glue:text}`sigma_dropout:.3f`, so the reference is a strawman. Give the dropout FNO a noise fitted to
#   its training residual, with the same predictions and so the same error, and its NLL changes by
#   {glue:text}`dnll_mc_dropout_fno_fitted_noise:+.2f` nats. The point-time DINOZAUR with a learned noise
#   ({glue:text}`dnll_dinozaur_learned_noise:+.2f`), the FNO with a constant noise
#   ({glue:text}`dnll_fno_fitted_constant_noise:+.2f`), the pointwise network with a constant noise
#   ({glue:text}`dnll_pointwise_network_fitted_constant_noise:+.2f`) and the ridge map with a constant noise
#   ({glue:text}`dnll_ridge_on_1_a_fitted_constant_noise:+.2f`) all beat the same reference. Over the sweep the
#   method passes at {repro-seeds}`nll-vs-dropout:method:pass` seeds, its ablation at
#   {repro-seeds}`nll-vs-dropout:ablation:pass`, the dropout FNO with a fitted noise at
#   {repro-seeds}`nll-vs-dropout:baseline2:pass`, the pointwise network at
#   {repro-seeds}`nll-vs-dropout:baseline3:pass` and the ridge map at {repro-seeds}`nll-vs-dropout:baseline4:pass`.
#   The NLL "win" is a learned against a fixed noise level, not the posterior over the times.
#
# All four tests are post hoc (†), so none is counted yet: they count only once confirmed on seeds 10–19. Their
# criteria were fixed before the first run, but the input ($\log a$) and the learning rates were changed after it
# for all models alike; the official-extent test was added with the first comparators, and the prior-quantile
# bank, the ridge map and the constant-noise pointwise and ridge models after the independent review.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page, its
# record and the ci sweep. They re-ran the four tests' measurements on ci seeds 0–9 beside naive alternatives with
# settings fixed in advance: ridge maps from $1/a$ and from $\log a$, a 2-mode FNO, DINOZAUR with its times fixed
# at the prior's quantiles, at the prior mean and at 1, and constant-noise versions of the pointwise network, the
# ridge map and the deterministic DINOZAUR. The comparators they found decisive are now part of the tests; every
# number below is measured by this notebook (ci seed 0 here, counts over the ci sweep in the verdict).
#
# - **A linear map, no network** (review). Ridge regression from $1/a$ on the grid to $u$, $\alpha$ =
#   {glue:text}`ridge_alpha` fixed in advance, {glue:text}`par_ridge_on_1_a` parameters against DINOZAUR's
#   {glue:text}`par_dinozaur`: error {glue:text}`rel_ridge_on_1_a:.3f` against DINOZAUR's
#   {glue:text}`rel_dinozaur:.3f` and the FNO's {glue:text}`rel_fno:.3f`. With its root mean squared training
#   residual ({glue:text}`sigma_ridge:.4f`) as a constant noise: coverage
#   {glue:text}`cov90_ridge_on_1_a_fitted_constant_noise:.2f`, NLL {glue:text}`nll_ridge_on_1_a_fitted_constant_noise:.2f`
#   (the Bayesian DINOZAUR: {glue:text}`cov90_bayesian_dinozaur:.2f`, {glue:text}`nll_bayesian_dinozaur:.2f`).
# - **A fixed bank of times** (review). DINOZAUR with its times frozen at the official prior's quantiles, untrained:
#   error {glue:text}`rel_dinozaur_tau_prior_bank:.3f`; at the official extent
#   {glue:text}`rel_dinozaur_extent_2pi_tau_prior_bank:.3f` (DINOZAUR there: {glue:text}`rel_dinozaur_extent_2pi:.3f`).
#   The reviewer also tried a log-spaced bank whose range they chose after seeing the learned times; it is not run
#   here, because its range was picked from results.
# - **A constant noise on a network that cannot couple points** (review). The pointwise network with its training
#   residual as the noise: coverage {glue:text}`cov90_pointwise_network_fitted_constant_noise:.2f`, NLL
#   {glue:text}`nll_pointwise_network_fitted_constant_noise:.2f`, miscalibration area
#   {glue:text}`ma_pointwise_network_fitted_constant_noise:.3f`, at an error of
#   {glue:text}`rel_pointwise_network:.3f`.
# - **An FNO with DINOZAUR's parameter budget.** Width {glue:text}`w_m4` with 4 modes
#   ({glue:text}`par_fno_4_modes` parameters): error {glue:text}`rel_fno_4_modes:.3f`. Width
#   {glue:text}`w_narrow` at the same modes ({glue:text}`par_fno_narrow` parameters):
#   {glue:text}`rel_fno_narrow:.3f`. Spending a small budget on modes, not channels, is enough here.
# - **DINOZAUR without learning its times** (a low-pass truncation plus gradient features):
#   {glue:text}`rel_dinozaur_tau_frozen:.3f`; at the official extent {glue:text}`rel_dinozaur_extent_2pi_tau_frozen:.3f`.
# - **A constant noise on the FNO.** Its training-residual noise (standard deviation
#   {glue:text}`sigma_fno_fit:.3f`): NLL {glue:text}`nll_fno_fitted_constant_noise:.2f`, coverage
#   {glue:text}`cov90_fno_fitted_constant_noise:.2f`, miscalibration area
#   {glue:text}`ma_fno_fitted_constant_noise:.3f`; the Bayesian DINOZAUR: miscalibration area
#   {glue:text}`ma_bayesian_dinozaur:.3f`.
# - **Point times with a learned noise** (the Bayesian model without its posterior; learned noise standard deviation
#   {glue:text}`sigma_point:.3f`): NLL {glue:text}`nll_dinozaur_learned_noise:.2f`, coverage
#   {glue:text}`cov90_dinozaur_learned_noise:.2f`, miscalibration area {glue:text}`ma_dinozaur_learned_noise:.3f`,
#   error {glue:text}`rel_dinozaur_learned_noise:.3f` (the Bayesian model's mean: {glue:text}`rel_bayesian_dinozaur:.3f`).
# - **MC dropout with a fitted rather than fixed noise**: NLL {glue:text}`nll_mc_dropout_fno_fitted_noise:.2f`
#   against {glue:text}`nll_mc_dropout_fno:.2f` with the official fixed noise.
#
# Not taken from the review: its ridge map from $\log a$ and its 2-mode FNO (baselines of the same kinds as the
# ridge map from $1/a$ and the 4-mode FNO already in the tests), and its times frozen at one value for every
# channel (the prior mean, or 1); the prior-quantile bank is the fixed-times ablation that keeps a different
# filter per channel, as the method does.
#
# ## What the miniature cannot show
#
# - **Dimension.** The parameter saving grows with dimension: the FNO multiplier scales as $C^2\prod_i m_i$ and
#   DINOZAUR's stays at $C$. In 1-D the saving is about 3× for the whole network. The paper's 2-D Darcy and 3-D
#   geometry settings (25× and more in the table above) and their accuracy are not run here.
# - **Geometry and GINO.** ShapeNet-car and Ahmed bodies, and the GINO encoder/decoder, need the 22 GB data set
#   and a GPU.
# - **The paper's UQ comparison.** It uses ShapeNet-car with Laplace and dropout baselines on the same backbone,
#   and the interval score. Ours is a 1-D stand-in with an FNO dropout baseline.
# - **Training length.** Our models train for seconds, not 150 epochs. The ranking at convergence may differ,
#   and the sweep's full-scale row is one such run. In particular the official extent needs many more steps for
#   the times to move, and the paper's 150 epochs may give them that.
# - **The official Bayesian training** (batch size 1, one τ draw per sample, symmetric padding, a deeper
#   projection) is not run.
