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
# # SIGMA: keeping test-time parameter updates on an inverse-gamma law (a miniature)
#
# *If the updates of a test-time-adapted network are seen as a stochastic differential equation, their
# log-variance follows an inverse-gamma law while adaptation is healthy; scaling each update so that the law is
# kept should make adaptation on non-i.i.d. test streams more stable.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import copy

import matplotlib.pyplot as plt
import numpy as np
import torch
from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, tolerance
from repro.papers import sigma_tta_inverse_gamma as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    "ci": dict(n_seeds=2, shifts=("gaussian-noise", "blur", "contrast"), mc_paths=20_000),
    "full": dict(n_seeds=6, shifts=K.CORRUPTIONS, mc_paths=200_000),
})
SEVERITY = {"gaussian-noise": 0.4, "blur": 1.0, "contrast": 0.7, "impulse-noise": 0.2, "pixel-shift": 1}
LR = 1e-2             # Adam learning rate of the base method (TENT), for every adapting method
LR_HI = 10 * LR       # the collapse runs: one decade above LR, as the damped baseline is one decade below (a rule)
BATCH = 16            # test batch size
RHO = 0.9             # EMA factor of the transition second moments
CLIP = (0.1, 2.0)     # range of the SIGMA multipliers
REF_BATCHES = 20      # clean i.i.d. batches of the reference phase
SOURCE_STEPS = 300    # Adam steps (batch 128) of source training
SEEDS = [P.seed * P.n_seeds + k for k in range(P.n_seeds)]   # disjoint seed sets across notebook seeds
ORDERS = {"iid": "i.i.d. stream", "sorted": "label-sorted stream (non-i.i.d.)"}
LABELS = {"source": "source (no adaptation)", "bn-batch": "BN, test-batch statistics",
          "ema-norm": "EMA normalisation only (no parameter steps)",
          "tent": "TENT (base)", "tent+sigma": "TENT + SIGMA-analogue",
          "tent+sigma-mean": "TENT + SIGMA's mean multiplier (ablation)",
          "tent+anti-sigma": "TENT + anti-aligned multipliers", "tent-lr/10": "TENT, every step x 0.1 (lr 1e-3)",
          "tent+sigma-normal": "TENT + SIGMA rule with a normal reference law",
          "tent+sigma-perm": "TENT + SIGMA multipliers, randomly permuted"}
plt.rcParams["savefig.dpi"] = 90
claims = Claims("sigma-tta-inverse-gamma", title="SIGMA: Structured Inverse-Gamma Model Alignment (title not found)",
                authors=None, paper_url="https://openreview.net/forum?id=pdlepT2alu", scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# Test-time adaptation (TTA) updates a trained network on unlabelled test batches, for example by making its
# predictions more confident (TENT minimises their entropy). When the test stream is not i.i.d., say all
# images of one class arrive together, these updates can run away and adaptation becomes unstable. The paper
# (NeurIPS 2025, OpenReview `pdlepT2alu`; title, authors and code not found by our brief) treats the adapted
# parameters as a stochastic process described by an SDE. It reports an empirical regularity: during stable,
# accurate adaptation the log-variance of the parameter transitions follows an **inverse-gamma** law. Its
# method, SIGMA, regulates the parameter updates to keep that alignment during adaptation, and is said to
# improve state-of-the-art TTA methods consistently across models, datasets and scenarios.
#
# We found **no number** from the paper: only the abstract. This page is therefore an analogue built from the
# abstract, with a regulation rule of our own, and can only agree or disagree qualitatively.
#
# ## The method
#
# **The SDE view.** Take one parameter $\theta$ pulled back to its rest value with rate $\kappa$ and shaken by
# noise of size $\sigma$: $d\theta = -\kappa\theta\,dt + \sigma\,dW$ (an Ornstein-Uhlenbeck process). A
# gradient step of size $h$ is its Euler-Maruyama discretisation,
# $\theta_{n+1} = (1-\kappa h)\,\theta_n + \sigma\sqrt h\,\xi_n$. Its stationary variance solves
# $V = (1-\kappa h)^2 V + \sigma^2 h$:
#
# $$V_h = \frac{\sigma^2}{\kappa\,(2-\kappa h)} \quad (0<\kappa h<2), \qquad V_h \to \frac{\sigma^2}{2\kappa}\ \text{as } h\to 0 .$$
#
# This is `K.em_stationary_variance(kappa, sigma, h)`. With a finite step the spread of the parameters is
# larger than the SDE's by the factor $2/(2-\kappa h)$, and it blows up as $\kappa h\to 2$: the step size alone
# decides how far the parameters wander.
#
# **The statistic and its law.** For the base method's proposed step $\Delta_{t,i}$ of parameter $i$ we track
# the running second moment $v_{t,i} = \rho\,v_{t-1,i} + (1-\rho)\Delta_{t,i}^2$ ($\rho = 0.9$) and the statistic
# $s_{t,i} = -\log v_{t,i}$ (positive, since the steps are small; the paper's exact transform is not public).
# Before deployment, the base method runs for 20 batches on *clean, i.i.d.* held-out source images (the
# "stable phase"). An inverse-gamma law $\mathrm{IG}(\alpha,\beta)$ is fitted by maximum likelihood to the
# statistic of all parameters at the end of this phase, and the model is reset.
#
# **The regulation (our SIGMA analogue).** At every test step, the current statistics are mapped onto the
# reference law by quantiles, $s^{\rm ref}_i = F^{-1}_{\rm IG}(\hat F_t(s_{t,i}))$, with $\hat F_t$ the empirical
# distribution over the parameters. Scaling a step by $m$ scales its variance by $m^2$, so each proposed step is
# multiplied by
#
# $$m_i = \mathrm{clip}\big(\exp((s_{t,i} - s^{\rm ref}_i)/2),\ 0.1,\ 2\big),$$
#
# which is below 1 where a parameter moves more than the reference law allows and above 1 where it moves less.
#
# **Base method.** TENT: entropy minimisation over the batch-norm scales and shifts (Adam, learning rate
# $10^{-2}$), all other weights frozen; the prediction on a batch is made before the update on it (online
# accuracy).
#
# ## The experiment
#
# **Data and model.** scikit-learn's 8 × 8 digits, split per class into 50 % source training, 10 % clean
# reference and 40 % test (719 images). The source model is an MLP 64-64-64-10 with batch norm after each hidden
# layer, trained for 300 Adam steps on the clean training split. Each seed redraws the split, the network and
# the shifts.
#
# **Shifts** (generated with scipy): Gaussian noise (σ = 0.4), Gaussian blur (1 pixel), contrast reduced by
# 70 %; at full scale also impulse noise (20 % of pixels) and a one-pixel shift.
#
# **Streams.** The shifted test split arrives in batches of 16, either in random order (i.i.d.) or sorted by
# label, classes in a random order (the non-i.i.d. stream that the paper targets).
#
# **Methods, on the same shifted images and the same batches:** source model; batch norm with the test batch's
# statistics; TENT; TENT + SIGMA analogue. Comparators of the tests (see "Claims"):
#
# - *the ablation*, TENT + SIGMA's **mean** multiplier: at every step the SIGMA multipliers are computed as above
#   and their mean over the parameters is applied to every parameter. It keeps SIGMA's overall step-size schedule
#   and removes what is specific to the paper's idea, the per-parameter alignment of the statistic to the
#   reference inverse-gamma law;
# - *naive baselines*, chosen by a fixed rule, not tuned: TENT with every step multiplied by 0.1, which with Adam
#   is exactly TENT at its usual learning rate $10^{-3}$ (uniform damping: the simplest way to calm parameter
#   dynamics); and the EMA normalisation that every TENT variant here uses, with no parameter step at all (the
#   simplest test-time adaptation, as in the deviations below);
# - *collapsing runs*, the ablation of the inverse-gamma test: TENT on the label-sorted streams at ten times the
#   page's learning rate ($10^{-1}$: one decade above it, as the damped baseline is one decade below; a rule, not
#   tuned), where it does collapse, with the analogue beside it (its reference phase at the same rate, on the
#   same batches);
# - shown, not used as a comparator: TENT with the *inverted* multipliers $1/m_i$ (pushing away from the
#   reference law), the control of this page's first version, which pays a cost by construction; and the
#   independent reviewer's two variants of the regulator, the same rule against a *normal* reference law
#   (fitted by maximum likelihood to the same reference statistic) and SIGMA's multipliers randomly permuted
#   over the parameters at every step.
#
# | preset | seeds per run | shifts | Monte Carlo paths (SDE check) |
# |---|---|---|---|
# | ci | 2 | noise, blur, contrast | 20,000 |
# | full | 6 | + impulse noise, pixel shift | 200,000 |
#
# **Deviations from the paper**
#
# - **Everything about the method is reconstructed.** The paper's statistic, reference law, fitting procedure and
#   regulation rule were not found. Ours: $-\log$ of an EMA of squared proposed steps, an IG fitted on a clean
#   warm-up, quantile mapping, clipped multipliers on the step.
# - **The reference phase uses clean held-out source images** (180 of them). The paper may fit its law
#   differently, possibly without any source data.
# - **Normalisation statistics.** All TENT variants normalise with an exponential moving average of test-batch
#   statistics (momentum 0.05, started from the source statistics), as robust TTA methods do, instead of TENT's
#   own per-batch statistics. With per-batch statistics every label-sorted batch collapses (see "BN, test-batch
#   statistics" in the figure) whatever the parameters do, and no parameter regulator could help.
# - **Base learning rate 10⁻².** In an exploratory run at TENT's usual 10⁻³, the parameter updates changed no
#   accuracy (TENT and TENT with steps × 0.1 agreed to 0.5 point), so a regulator of parameter dynamics had
#   nothing to act on. We chose 10⁻² before fixing the claims; the "steps × 0.1" baseline is TENT at 10⁻³.
# - **Data, model, scale.** Digits and a 3-layer MLP instead of CIFAR/ImageNet corruptions with ResNets or
#   ViTs; one base method (TENT), not several state-of-the-art ones; streams of 45 batches.
# - **Claims** are the brief's checks (C1-C3), fixed before the first run of this notebook; issue 34 added their
#   comparators (the ablation and the two naive baselines above) without changing a method, a setting or a
#   criterion; after the independent review, the inverse-gamma test's ablation became the collapsing runs and
#   its former ablation (the label-sorted runs at the page's rate, which do not collapse) a baseline, again
#   without changing its measurement or criterion. The brief's C1 is two tests (against TENT, and against the
#   source model). The SDE check is our derivation of a classical result and is shown as an illustration.

# %% [markdown]
# ## Results
#
# ### The SDE view: stationary variance of the discretised process

# %%
rng_mc = np.random.default_rng(1000 + P.seed)
kappa, sig = 1.0, 1.0
kh_grid = np.array([0.05, 0.25, 0.5, 1.0, 1.5, 1.8])
v_formula = np.array([K.em_stationary_variance(kappa, sig, h) for h in kh_grid])
v_sde = np.full_like(kh_grid, sig**2 / (2 * kappa))
v_mc = np.array([np.mean(K.simulate_em_ou(kappa, sig, h, int(np.ceil(40 / min(h, 2 - h))), P.mc_paths, rng_mc,
                                          theta0=0.0) ** 2) for h in kh_grid])
err_formula = float(np.max(np.abs(v_formula / v_mc - 1)))
err_sde = float(np.max(np.abs(v_sde / v_mc - 1)))
for h, a, b, c in zip(kh_grid, v_mc, v_formula, v_sde):
    print(f"kappa h = {h:4.2f}: Monte Carlo {a:7.4f}   EM formula {b:7.4f}   SDE sigma^2/(2 kappa) {c:6.4f}")
print(f"largest relative error: EM formula {err_formula:.4f}, SDE formula {err_sde:.3f}")

# %%
fig, ax = plt.subplots(figsize=(6.5, 3.6))
hh = np.linspace(0.01, 1.9, 200)
ax.plot(hh, [K.em_stationary_variance(kappa, sig, h) for h in hh], label="Euler-Maruyama: $\\sigma^2/(\\kappa(2-\\kappa h))$")
ax.axhline(sig**2 / (2 * kappa), color="k", ls="--", lw=0.8, label="SDE: $\\sigma^2/(2\\kappa)$")
ax.plot(kh_grid, v_mc, "o", color="C3", label=f"Monte Carlo ({P.mc_paths:,} paths)")
ax.set_yscale("log")
ax.set_xlabel("$\\kappa h$ (step size in units of the relaxation time)")
ax.set_ylabel("stationary variance of $\\theta$ (units of $\\sigma^2/\\kappa$)")
ax.set_title("Discretised OU process: the step size sets the spread")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### Test-time adaptation on shifted digits

# %%
acc = {o: {m: np.zeros((len(SEEDS), len(P.shifts))) for m in K.METHODS} for o in ORDERS}
traces = {o: {m: {"drift": [], "ks": [], "mult": []} for m in ("tent", "tent+sigma", "tent+sigma-mean")}
          for o in ORDERS}
ks_own = {o: [] for o in ORDERS}       # KS of the end-of-stream statistic of TENT to its own IG fit
ks_norm = {o: [] for o in ORDERS}      # ... to its own normal fit (the alternative law)
alpha_own = {o: [] for o in ORDERS}    # the fitted IG shape
ref_laws = []
acc_sk = {o: {m: np.zeros((len(SEEDS), len(P.shifts))) for m in K.SKEPTIC_METHODS} for o in ORDERS}
acc_hi = {m: np.zeros((len(SEEDS), len(P.shifts))) for m in ("tent", "tent+sigma")}  # lr LR_HI, label-sorted
ks_hi = []                             # KS of the collapsed TENT runs' statistic to its own IG fit
for a, s in enumerate(progress(SEEDS, desc="seeds")):
    rng = np.random.default_rng(s)
    torch.manual_seed(s)
    data = K.load_digit_splits(rng)
    model = K.train_source_model(data["X_train"], data["y_train"], seed=s, steps=SOURCE_STEPS)
    # the collapse runs' reference phase: same batches (a copy of the generator), at their own rate
    ref_hi = K.reference_phase(model, data["X_ref"], REF_BATCHES, BATCH, LR_HI, RHO, copy.deepcopy(rng))
    ref = K.reference_phase(model, data["X_ref"], REF_BATCHES, BATCH, LR, RHO, rng)
    ref_laws.append(ref)
    for b, shift in enumerate(P.shifts):
        Xc = K.corrupt(data["X_test"], shift, SEVERITY[shift], rng)
        for o in ORDERS:
            batches = K.make_stream(data["y_test"], o, BATCH, rng)
            for m in K.METHODS:
                r = K.run_stream(model, Xc, data["y_test"], batches, m, lr=LR, ref=ref, rho=RHO, clip=CLIP)
                acc[o][m][a, b] = r.accuracy
                if m in traces[o]:
                    traces[o][m]["drift"].append(r.drift)
                    traces[o][m]["ks"].append(r.ks_ref)
                    traces[o][m]["mult"].append(r.mean_multiplier)
                if m == "tent":
                    a_ig, b_ig = K.fit_inverse_gamma(r.final_stat)
                    ks_own[o].append(K.ks_inverse_gamma(r.final_stat, a_ig, b_ig))
                    ks_norm[o].append(K.ks_normal_fit(r.final_stat))
                    alpha_own[o].append(a_ig)
            for m in K.SKEPTIC_METHODS:
                r = K.run_stream(model, Xc, data["y_test"], batches, m, lr=LR, ref=ref, rho=RHO, clip=CLIP)
                acc_sk[o][m][a, b] = r.accuracy
            if o == "sorted":
                for m in acc_hi:
                    r = K.run_stream(model, Xc, data["y_test"], batches, m, lr=LR_HI, ref=ref_hi, rho=RHO,
                                     clip=CLIP)
                    acc_hi[m][a, b] = r.accuracy
                    if m == "tent":
                        ks_hi.append(K.ks_inverse_gamma(r.final_stat, *K.fit_inverse_gamma(r.final_stat)))
mean_acc = {o: {m: float(acc[o][m].mean()) for m in K.METHODS} for o in ORDERS}
print(f"{'method':46s} " + " ".join(f"{o + ' stream':>16s}" for o in ORDERS))
for m in K.METHODS:
    print(f"{LABELS[m]:46s} " + " ".join(
        f"{100 * mean_acc[o][m]:7.1f} ± {100 * acc[o][m].mean(1).std():4.1f} " for o in ORDERS))
print("online accuracy (%), mean over shifts; ± is the std over seeds of the per-seed mean")

# %%
fig, axes = plt.subplots(1, 2, figsize=(12, 4), sharey=True, constrained_layout=True)
width = 0.8 / len(K.METHODS)
for ax, o in zip(axes, ORDERS):
    for k, m in enumerate(K.METHODS):
        x = np.arange(len(P.shifts)) + (k - (len(K.METHODS) - 1) / 2) * width
        ax.bar(x, 100 * acc[o][m].mean(0), width, yerr=100 * acc[o][m].std(0), capsize=2, label=LABELS[m])
    ax.set_xticks(np.arange(len(P.shifts)), P.shifts)
    ax.set_title(ORDERS[o])
    ax.set_xlabel("shift")
axes[0].set_ylabel(f"online accuracy (%), mean ± std over {len(SEEDS)} seeds")
axes[1].legend(fontsize=7, loc="upper right")
fig.suptitle("Accuracy across shifts for every method")
plt.show()

# %% [markdown]
# ### Parameter dynamics along the stream
#
# Left: how far the adapted batch-norm parameters have moved from the source ones. Middle: the mean SIGMA
# multiplier (1 for plain TENT; the ablation applies this mean to every parameter). Right: the
# Kolmogorov-Smirnov distance between the statistic $s_{t,i}$ of all parameters and the reference inverse-gamma
# law (0 = perfectly aligned). Means over shifts and seeds, with the spread (std) shaded.

# %%
fig, axes = plt.subplots(1, 3, figsize=(13, 3.6), constrained_layout=True)
styles = {"iid": "--", "sorted": "-"}
colors = {"tent": "C2", "tent+sigma": "C3", "tent+sigma-mean": "C5"}
for o in ORDERS:
    for m, tr in traces[o].items():
        for ax, key in zip(axes, ("drift", "mult", "ks")):
            y = np.array(tr[key])
            t = np.arange(1, y.shape[1] + 1)
            ax.plot(t, y.mean(0), styles[o], color=colors[m], label=f"{LABELS[m].split(' (')[0]}, {o}")
            ax.fill_between(t, y.mean(0) - y.std(0), y.mean(0) + y.std(0), color=colors[m], alpha=0.12)
axes[0].set_ylabel("$\\|\\theta_t - \\theta_0\\|_2$ (parameter units)")
axes[1].set_ylabel("mean step multiplier $m_i$")
axes[2].set_ylabel("KS distance to the reference IG law")
for ax in axes:
    ax.set_xlabel("test batch $t$ (16 images each)")
axes[0].legend(fontsize=7)
plt.show()

# %% [markdown]
# ### Is the statistic inverse-gamma distributed?
#
# Left: the reference statistic of the first seed with its fitted law. Right: for every TENT run, the KS distance
# between the statistic at the end of the stream and an inverse-gamma law fitted to that same statistic (how
# well *any* inverse-gamma law describes it), for both streams and for TENT runs that collapse (label-sorted
# streams at ten times the page's learning rate, the ablation of the test `ig-fits-stable-run`), beside the KS
# distance of the i.i.d. runs' statistic to a *normal* law fitted to it (its first baseline).

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 3.6), constrained_layout=True)
alpha0, beta0, v0 = ref_laws[0]
s0 = K.log_variance_statistic(v0)
axes[0].hist(s0, bins=30, density=True, alpha=0.6, label="reference statistic $-\\log v_i$")
xx = np.linspace(s0.min() - 0.5, s0.max() + 0.5, 300)
from scipy.stats import invgamma
axes[0].plot(xx, invgamma.pdf(xx, alpha0, scale=beta0), "k", label=f"IG fit (α = {alpha0:.0f}, β = {beta0:.0f})")
axes[0].set_xlabel("$s = -\\log v$ (v in squared parameter units)")
axes[0].set_ylabel("density")
axes[0].legend(fontsize=8)
axes[1].boxplot([ks_own["iid"], ks_own["sorted"], ks_hi, ks_norm["iid"]],
                tick_labels=["IG fit, i.i.d.", "IG fit, label-sorted", "IG fit, collapsed\n(lr x 10, sorted)",
                             "normal fit, i.i.d."])
axes[1].axhline(0.1, color="k", ls="--", lw=0.8, label="brief's threshold 0.1")
axes[1].set_ylabel("KS distance to its own fitted law")
axes[1].set_title(f"TENT, end of stream ({len(ks_own['iid'])} runs per stream)")
axes[1].legend(fontsize=8)
plt.show()

# %% [markdown]
# Does the criterion need adaptation at all? The same statistic of pure noise: Gaussian "steps" with fixed
# per-parameter scales, no network and no gradient, tracked over as many steps as the reference phase and one
# stream (the skeptic's draw: scales $e^{\mathcal N(-6,\,1)}$, or two groups of scales $10^{-3}$ and $10^{-2}$
# with a 30 % log-normal spread; as many draws as the test has runs).

# %%
rng_noise = np.random.default_rng(2000 + P.seed)
n_noise_steps = REF_BATCHES + int(np.ceil(len(data["y_test"]) / BATCH))
ks_noise = {"lognormal": [], "two-group": []}
for _ in range(len(ks_own["iid"])):
    for name in ks_noise:
        scales = (np.exp(rng_noise.normal(-6.0, 1.0, 256)) if name == "lognormal" else
                  np.repeat([1e-3, 1e-2], 128) * np.exp(rng_noise.normal(0.0, 0.3, 256)))
        tr = K.TransitionTracker((scales * rng_noise.standard_normal(256)) ** 2, RHO)
        for _ in range(n_noise_steps - 1):
            tr.update(scales * rng_noise.standard_normal(256))
        ks_noise[name].append(K.ks_inverse_gamma(tr.stats(), *K.fit_inverse_gamma(tr.stats())))
for name, v in ks_noise.items():
    print(f"pure noise, {name} scales: KS to its own IG fit {np.mean(v):.3f} (range {min(v):.3f}-{max(v):.3f})")
print(f"collapsed TENT (lr {LR_HI:g}, label-sorted): {np.mean(ks_hi):.3f}; i.i.d. TENT (lr {LR:g}): "
      f"{np.mean(ks_own['iid']):.3f}")

# %% [markdown]
# ### The paper's numbers beside ours
#
# | quantity | paper (setting) | ours (setting) |
# |---|---|---|
# | accuracy gain of SIGMA over its base TTA method | "consistently enhances" (no number found; CIFAR/ImageNet-type benchmarks, several models) | `sigma-beats-tent-noniid` below (digits MLP, label-sorted stream, TENT base) |
# | inverse-gamma alignment under stable adaptation | "aligns closely" (no number found) | `ig-fits-stable-run` below (KS distance, i.i.d. stream) |
#
# The paper gives no number that could serve as a criterion; the criteria are the brief's.

# %%
ACC_TOL = tolerance(abs=0.01, why="online accuracy after Adam updates; 719 test images per stream")
d_tent = {o: {m: float((acc[o][m] - acc[o]["tent"]).mean()) for m in K.METHODS} for o in ORDERS}  # vs TENT
d_src = {m: float((acc["sorted"][m] - acc["sorted"]["source"]).mean()) for m in K.METHODS}  # vs source, sorted
ALIGN = ("SIGMA's per-parameter alignment of the statistic to the reference inverse-gamma law (the ablation "
         "applies the mean of SIGMA's multipliers to every parameter: the same overall step-size schedule)")
DAMP = "TENT at its usual learning rate 1e-3 (every step x 0.1: uniform damping, not tuned)"
EMA = "EMA normalisation only, no parameter step (TENT's test statistics without its entropy steps)"

claims.headline(
    "sde-view",
    "Test-time adaptation can be modelled as a stochastic differential equation of the parameters, which makes "
    "the dynamics of their distribution analysable",
    untestable="a modelling framework, not a statement a measurement could refute, and the paper's SDE was not "
               "available; the Euler-Maruyama Ornstein-Uhlenbeck chain is shown as the illustration "
               "em-stationary-variance")
claims.headline(
    "ig-alignment",
    "Under stable, high-performing adaptation the log-variance of the parameter transitions closely follows an "
    "inverse-gamma law",
    tests=["ig-fits-stable-run"])
claims.headline(
    "sigma-improves-base",
    "SIGMA, which regulates the updates to keep that alignment, consistently improves state-of-the-art TTA "
    "methods across models, datasets and scenarios (here: one base method, TENT, on digits, both streams)",
    tests=["sigma-beats-tent-noniid", "sigma-harmless-iid"])
claims.headline(
    "stable-non-iid",
    "The regulation keeps adaptation stable in non-i.i.d. environments, where unregulated TTA becomes unstable "
    "(here unregulated TENT is not unstable at the page's learning rate: it stays far above the source model on "
    "label-sorted streams; where it does collapse, at ten times that rate, the analogue does not keep it near the "
    "source model; see \"What a skeptic would try\")",
    tests=["sigma-within-1pt-of-source-noniid"])

claims.illustrate(
    "em-stationary-variance",
    statement="The stationary variance of the Euler-Maruyama OU chain is sigma^2/(kappa(2 - kappa h)): "
              "largest relative error against Monte Carlo over kappa h in [0.05, 1.8] at most 5 %",
    paper="models TTA parameter dynamics as an SDE (discretised by the optimiser's steps)",
    criterion=at_most(0.05), measured=err_formula,
    why="the stationary variance of an AR(1) chain, a classical result we derived, checked against a Monte "
        "Carlo of the same recursion (agreement up to Monte Carlo noise by construction); it is not the "
        "paper's claim. Counted as a theorem test before issue 34; also a unit test",
    tol=tolerance(rel=0.02, abs=1e-3, why="Monte Carlo estimate from a seeded generator; summation order"))
claims.test(
    "sigma-beats-tent-noniid",
    statement="On label-sorted streams, TENT + SIGMA-analogue is at least as accurate as TENT "
              "(mean difference over shifts and seeds >= 0)",
    paper="SIGMA consistently enhances state-of-the-art TTA methods (no number found)",
    criterion=at_least(0.0), measured=d_tent["sorted"]["tent+sigma"],
    ablation=Comparator(LABELS["tent+sigma-mean"], d_tent["sorted"]["tent+sigma-mean"], ingredient=ALIGN),
    baselines=[Comparator(DAMP, d_tent["sorted"]["tent-lr/10"]), Comparator(EMA, d_tent["sorted"]["ema-norm"])],
    tol=ACC_TOL)
claims.test(
    "sigma-within-1pt-of-source-noniid",
    statement="On label-sorted streams, TENT + SIGMA-analogue loses at most 1 point to the unadapted "
              "source model (mean over shifts and seeds)",
    paper="SIGMA stabilises adaptation on non-i.i.d. streams",
    criterion=at_least(-0.01), measured=d_src["tent+sigma"],
    ablation=Comparator("TENT without the SIGMA regulation", d_src["tent"],
                        ingredient="the SIGMA regulation of the parameter updates"),
    baselines=[Comparator(DAMP, d_src["tent-lr/10"]), Comparator(EMA, d_src["ema-norm"])],
    tol=ACC_TOL)
claims.test(
    "sigma-harmless-iid",
    statement="On i.i.d. streams, TENT + SIGMA-analogue costs at most 1 point against TENT "
              "(mean over shifts and seeds)",
    paper="SIGMA is a plug-in that improves its base method",
    criterion=at_most(0.01), measured=-d_tent["iid"]["tent+sigma"],
    ablation=Comparator(LABELS["tent+sigma-mean"], -d_tent["iid"]["tent+sigma-mean"], ingredient=ALIGN),
    baselines=[Comparator(DAMP, -d_tent["iid"]["tent-lr/10"]), Comparator(EMA, -d_tent["iid"]["ema-norm"])],
    tol=ACC_TOL)
claims.test(
    "ig-fits-stable-run",
    statement="In i.i.d. TENT runs the end-of-stream statistic -log v is inverse-gamma: KS distance to its "
              "own maximum-likelihood IG fit at most 0.1 (mean over shifts and seeds)",
    paper="the log-variance of the parameter transitions aligns closely with an inverse-gamma law under "
          "stable, high-performing adaptation",
    criterion=at_most(0.1), measured=float(np.mean(ks_own["iid"])),
    ablation=Comparator("the same statistic and fit in collapsing TENT runs (label-sorted streams, learning rate "
                        "x 10: one decade above the page's, a rule, not tuned)", float(np.mean(ks_hi)),
                        ingredient="stable, high-performing adaptation"),
    baselines=[Comparator("a normal law fitted to the same i.i.d. statistic (KS to its own fit)",
                          float(np.mean(ks_norm["iid"]))),
               Comparator("the same statistic and fit in label-sorted TENT runs at the page's learning rate (a "
                          "second, less accurate stream; not unstable adaptation)", float(np.mean(ks_own["sorted"])))],
    tol=tolerance(abs=0.02, why="KS distance of a statistic of Adam steps; 256 parameters"))

KEY = {"source": "source", "bn-batch": "bnbatch", "ema-norm": "ema", "tent": "tent", "tent+sigma": "sigma",
       "tent+sigma-mean": "mean", "tent+anti-sigma": "anti", "tent-lr/10": "damp"}
for o in ORDERS:
    for m, k in KEY.items():
        glue(f"acc_{o}_{k}", 100 * float(acc[o][m].mean()), display=False)
        glue(f"dt_{o}_{k}", 100 * d_tent[o][m], display=False)
for m, k in KEY.items():
    glue(f"ds_{k}", 100 * d_src[m], display=False)
noise = list(P.shifts).index("gaussian-noise")
for m, k in (("tent", "tent"), ("tent+sigma", "sigma"), ("tent-lr/10", "damp"), ("ema-norm", "ema")):
    glue(f"noise_{k}", 100 * float((acc["sorted"][m][:, noise] - acc["sorted"]["source"][:, noise]).mean()),
         display=False)
for o in ORDERS:
    for m, k in (("tent+sigma-normal", "normal"), ("tent+sigma-perm", "perm")):
        glue(f"dt_{o}_{k}", 100 * float((acc_sk[o][m] - acc[o]["tent"]).mean()), display=False)
for m, k in (("tent", "tent"), ("tent+sigma", "sigma")):
    glue(f"acc_hi_{k}", 100 * float(acc_hi[m].mean()), display=False)
    glue(f"ds_hi_{k}", 100 * float((acc_hi[m] - acc["sorted"]["source"]).mean()), display=False)
glue("lr_hi", LR_HI, display=False)
glue("ks_hi", float(np.mean(ks_hi)), display=False)
glue("ks_noise_logn", float(np.mean(ks_noise["lognormal"])), display=False)
glue("ks_noise_two", float(np.mean(ks_noise["two-group"])), display=False)
glue("err_formula_pct", 100 * err_formula, display=False)
glue("err_sde_pct", 100 * err_sde, display=False)
glue("ks_iid", float(np.mean(ks_own["iid"])), display=False)
glue("ks_sorted", float(np.mean(ks_own["sorted"])), display=False)
glue("ks_norm_iid", float(np.mean(ks_norm["iid"])), display=False)
alpha_min = float(min(min(alpha_own["iid"]), min(alpha_own["sorted"])))
glue("alpha_min", alpha_min, display=False)
glue("skew_max", float(4 * np.sqrt(alpha_min - 2) / (alpha_min - 3)), display=False)  # IG skewness, largest at alpha_min
mult = np.array(traces["sorted"]["tent+sigma"]["mult"] + traces["iid"]["tent+sigma"]["mult"]).mean(0)
glue("mult_min", float(mult.min()), display=False)
glue("mult_end", float(mult[-1]), display=False)
ks_ref = np.array(traces["sorted"]["tent"]["ks"] + traces["iid"]["tent"]["ks"]).mean(0)
glue("ks_ref_start", float(ks_ref[0]), display=False)
glue("ks_ref_end", float(ks_ref[-1]), display=False)
glue("n_train_seeds", len(SEEDS), display=False)
glue("n_shifts", len(P.shifts), display=False)

# %% [markdown]
# ## Claims
#
# Every check has its role. The SDE calculation (`em-stationary-variance`) is an **illustration**: the
# stationary variance of a discretised Ornstein-Uhlenbeck chain is a classical result that we derived and
# checked against a simulation of the same recursion; it was counted as a theorem test before issue 34. The
# four **tests** are the brief's checks, unchanged in method, setting and criterion (so still pre-registered;
# none is post hoc). Issue 34 gave each, under the same measurement and criterion:
#
# - *the ablation* of the ingredient it is about: for the three accuracy comparisons with TENT, SIGMA's mean
#   multiplier applied to every parameter (SIGMA's step-size schedule without its per-parameter alignment); for
#   the comparison with the source model, TENT itself; for the inverse-gamma fit, the same statistic in TENT
#   runs that collapse (label-sorted streams at ten times the page's learning rate; since the independent
#   review, which found that the label-sorted runs at the page's rate, the ablation before, do not collapse);
# - *naive baselines*: TENT at its usual learning rate and normalisation alone for the accuracy tests; for the
#   fit, a normal law instead of the inverse-gamma, and the label-sorted runs at the page's rate (a second, less
#   accurate stream, not unstable adaptation).
#
# The old controls (the anti-aligned multipliers, no adaptation at all, the continuous-time variance) paid a cost
# by construction; they are gone from the tests and shown in "What a skeptic would try". The paper reports no
# number, so every threshold is the brief's.
#
# Headline claims (from the abstract) and where they are tested: the SDE view of adaptation, not testable (a
# framework, shown by the illustration); inverse-gamma alignment under stable adaptation, `ig-fits-stable-run`;
# SIGMA improves its base TTA method, `sigma-beats-tent-noniid` and `sigma-harmless-iid`; stability on
# non-i.i.d. streams, `sigma-within-1pt-of-source-noniid`. That last mapping is weaker than the headline: at the
# page's learning rate unregulated TENT is *not* unstable on label-sorted streams (it stays far above the source
# model), so the test checks that the analogue does not destabilise TENT, not that it stabilises it. Where TENT
# does collapse, at ten times that rate, the analogue does not keep it near the source model (see "What a skeptic
# would try").

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# Four tests are counted, all pre-registered, each beside the ablation of the ingredient it is about and the
# naive baselines a skeptic would try first. Values below are from seed 0 at ci scale
# ({glue:text}`n_train_seeds` training seeds, {glue:text}`n_shifts` shifts, mean over both); the judged table
# gives the other seeds and the full scale. Every result is about *our analogue* of SIGMA, built from the
# abstract alone.
#
# * *The analogue against TENT on label-sorted streams* ({repro-status}`sigma-beats-tent-noniid`). The analogue
#   is {glue:text}`dt_sorted_sigma:.1f` points above TENT, which is inside the test's declared tolerance of one
#   point; over the ci sweep it clears that band at {repro-seeds}`sigma-beats-tent-noniid:method:pass` seeds. Its
#   ablation, SIGMA's mean multiplier applied to every parameter, is {glue:text}`dt_sorted_mean:.1f` points from
#   TENT and clears the band at {repro-seeds}`sigma-beats-tent-noniid:ablation:pass` seeds. Both naive baselines
#   do better than either: TENT at its usual learning rate is {glue:text}`dt_sorted_damp:.1f` points above TENT,
#   and normalisation alone, with no parameter step, {glue:text}`dt_sorted_ema:.1f` points (clearing the band at
#   {repro-seeds}`sigma-beats-tent-noniid:baseline1:pass` and {repro-seeds}`sigma-beats-tent-noniid:baseline2:pass`
#   seeds). At our learning rate TENT's entropy steps cost accuracy on these streams; what helps is taking smaller
#   steps, or none, and the per-parameter alignment adds nothing that a smaller step does not.
# * *No worse than the source model on label-sorted streams* ({repro-status}`sigma-within-1pt-of-source-noniid`).
#   The analogue is {glue:text}`ds_sigma:.1f` points above the source model, and so is everything that adapts:
#   TENT {glue:text}`ds_tent:.1f`, TENT at its usual learning rate {glue:text}`ds_damp:.1f`, normalisation alone
#   {glue:text}`ds_ema:.1f`. Averaged over shifts the source model is a low bar, because blur and contrast ruin
#   it, and the normalisation statistics clear it without any parameter step. Per shift it is not always so: with
#   Gaussian noise TENT ends {glue:text}`noise_tent:.1f` points from the source model, the analogue
#   {glue:text}`noise_sigma:.1f`, TENT at its usual learning rate {glue:text}`noise_damp:.1f` and normalisation
#   alone {glue:text}`noise_ema:.1f`. Most of that loss comes with the test statistics of label-sorted batches,
#   and the analogue does not repair TENT's share of it. The paper's claim is about stabilising adaptation where
#   it becomes unstable, and at our learning rate TENT does not. At ten times that rate it collapses: TENT ends
#   {glue:text}`ds_hi_tent:.1f` points from the source model and the analogue {glue:text}`ds_hi_sigma:.1f`
#   (both outside the one-point band), while ten times smaller steps at that rate, which is the page's TENT, end
#   {glue:text}`ds_tent:.1f` points above it. Where stabilising is needed, our analogue does not do it and plain
#   damping does.
# * *Harmless on i.i.d. streams* ({repro-status}`sigma-harmless-iid`). The analogue *gains*
#   {glue:text}`dt_iid_sigma:.1f` points over TENT (the test's cost is minus that), its ablation
#   {glue:text}`dt_iid_mean:.1f`, TENT at its usual learning rate {glue:text}`dt_iid_damp:.1f` and normalisation
#   alone {glue:text}`dt_iid_ema:.1f`. A "costs at most one point" criterion is met by anything that steps less
#   than TENT at our learning rate; the paper's claim is a gain, which the naive baselines show more of.
# * *Inverse-gamma alignment in stable runs* ({repro-status}`ig-fits-stable-run`). The end-of-stream statistic
#   of i.i.d. TENT runs is at KS {glue:text}`ks_iid:.3f` from its own inverse-gamma fit. In TENT runs that
#   collapse (the ablation) it is at {glue:text}`ks_hi:.3f`, failing the criterion at
#   {repro-seeds}`ig-fits-stable-run:ablation:fail` seeds: the fit does tell stable adaptation from collapse.
#   But a normal law fitted to the i.i.d. statistic is at {glue:text}`ks_norm_iid:.3f` (passing at
#   {repro-seeds}`ig-fits-stable-run:baseline1:pass` seeds), and the label-sorted runs at the page's rate, which
#   are less accurate but do not collapse, at {glue:text}`ks_sorted:.3f`. The fitted shapes are at least
#   {glue:text}`alpha_min:.0f`, so the fitted laws' skewness $4\sqrt{\alpha-2}/(\alpha-3)$ is at most
#   {glue:text}`skew_max:.2f`: close to a normal law, and flexible enough to fit a single bump of 256 values. Pure
#   noise with no adaptation at all passes too (see "What a skeptic would try"). The statistic does not tell the
#   inverse-gamma law from a normal one here, and a good fit does not need adaptation.
#
# **What this says about the paper.** Nothing about SIGMA itself: its statistic, reference law and rule are not
# public. What it says about the idea, in a small setting: regulating the variance of the parameter steps is, to
# first order, choosing a step size, as the illustration's $V_h=\sigma^2/(\kappa(2-\kappa h))$ says, and a
# smaller uniform step (or none) does more here than the per-parameter regulation. Our regulator is also a weak
# stabiliser by construction: the mean multiplier falls to {glue:text}`mult_min:.2f` in the first batches and
# reaches {glue:text}`mult_end:.2f` by the end of the stream, because Adam's steps shrink along a stream while
# the reference law was fitted after 20 steps; it damps early and *amplifies* late. The KS distance of TENT's
# statistic to the reference law grows from {glue:text}`ks_ref_start:.2f` after the first batch to
# {glue:text}`ks_ref_end:.2f` at the end of the stream (mean over runs). A reference law that follows the
# optimiser's time, or a base method with plain SGD, would be the next thing to try; we did not add it as a
# post-hoc test, because it would be a second rule of our own invention, not the paper's.
#
# ## What a skeptic would try
#
# What was tried, first by the helper that converted this page to the claim model in issue 34 (not the page's
# original author), then by an independent skeptic, each measured by this notebook at this seed:
#
# * *Take smaller steps.* TENT at its usual learning rate ($10^{-3}$, the rule fixed before any run: TENT's
#   default) reaches {glue:text}`acc_sorted_damp:.1f` % on label-sorted and {glue:text}`acc_iid_damp:.1f` % on
#   i.i.d. streams, against the analogue's {glue:text}`acc_sorted_sigma:.1f` % and {glue:text}`acc_iid_sigma:.1f` %
#   and TENT's {glue:text}`acc_sorted_tent:.1f` % and {glue:text}`acc_iid_tent:.1f` %. It is a baseline of the
#   three accuracy tests.
# * *Take no parameter steps at all.* The EMA normalisation that every TENT variant uses, alone, reaches
#   {glue:text}`acc_sorted_ema:.1f` % and {glue:text}`acc_iid_ema:.1f` %. In this miniature test-time adaptation
#   is the normalisation statistics; the entropy steps at our learning rate cost accuracy. It is a baseline of the
#   three accuracy tests.
# * *Keep the schedule, drop the alignment.* SIGMA's mean multiplier on every parameter (the ablation):
#   {glue:text}`acc_sorted_mean:.1f` % and {glue:text}`acc_iid_mean:.1f` %. Most of the analogue's gain over TENT
#   on i.i.d. streams comes from its overall step size, not from which parameters it damps.
# * *Swap the law inside the regulator.* The same rule against a *normal* reference law, fitted to the same
#   reference statistic: {glue:text}`dt_sorted_normal:.1f` points from TENT on label-sorted and
#   {glue:text}`dt_iid_normal:.1f` on i.i.d. streams, against the analogue's {glue:text}`dt_sorted_sigma:.1f` and
#   {glue:text}`dt_iid_sigma:.1f`. The inverse-gamma law, the paper's named ingredient, changes next to nothing
#   in our regulator: with shapes this large it is practically a normal law.
# * *Keep the multipliers, drop their alignment.* SIGMA's multipliers randomly permuted over the parameters at
#   every step (the same spread, on the wrong parameters): {glue:text}`dt_sorted_perm:.1f` and
#   {glue:text}`dt_iid_perm:.1f` points from TENT (label-sorted, i.i.d.). Some of the analogue's gain goes with
#   the spread of its multipliers rather than with which parameters they damp, and neither variant comes near
#   plain damping.
# * *Make TENT collapse.* At ten times the page's learning rate (one decade above, a rule), on label-sorted
#   streams, TENT reaches {glue:text}`acc_hi_tent:.1f` % and the analogue (its reference law fitted at that rate)
#   {glue:text}`acc_hi_sigma:.1f` %, against the source model's {glue:text}`acc_sorted_source:.1f` % and the
#   {glue:text}`acc_sorted_tent:.1f` % of ten times smaller steps (the page's TENT). The analogue does not
#   stabilise adaptation where it is unstable.
# * *Fit another law.* A normal law fitted to the same end-of-stream statistic is at KS
#   {glue:text}`ks_norm_iid:.3f` (the inverse-gamma fit: {glue:text}`ks_iid:.3f`; collapsing runs:
#   {glue:text}`ks_hi:.3f`). It is the first baseline of `ig-fits-stable-run`.
# * *Fit pure noise.* The same statistic of Gaussian "steps" with fixed log-normal scales, no network and no
#   gradient, is at KS {glue:text}`ks_noise_logn:.3f` from its own inverse-gamma fit, inside the criterion; with
#   two groups of scales (a bimodal statistic) at {glue:text}`ks_noise_two:.3f`, outside it. The criterion can
#   fail, on a bimodal statistic or a collapse, but passing it needs no adaptation; shown, not a comparator
#   (the noise's scales are the skeptic's draw, not a rule).
# * *Push the other way.* The anti-aligned multipliers $1/m_i$ (the first version's control) are at
#   {glue:text}`dt_sorted_anti:.1f` points from TENT on label-sorted and {glue:text}`dt_iid_anti:.1f` on i.i.d.
#   streams. They amplify the steps of the parameters that already move most, which costs by construction; shown,
#   not a comparator.
# * *Normalise with each batch's own statistics.* {glue:text}`acc_sorted_bnbatch:.1f` % on label-sorted against
#   {glue:text}`acc_iid_bnbatch:.1f` % on i.i.d. streams (the source model: {glue:text}`acc_sorted_source:.1f` %):
#   a batch of one class ruins its own statistics, which is why every TENT variant here uses the EMA (a deviation).
# * *Does any result rest on the seed?* The statuses come from the ci sweep over ten notebook seeds (twenty
#   training seeds in all); the counts in the verdict are read from it.
#
# Reviewed by an independent skeptic (2026-12-07); what they tried is above: the normal reference law in the
# regulator, the permuted multipliers, TENT at a learning rate where it collapses, and the inverse-gamma fit of
# collapsing runs and of pure noise. The review also moved the inverse-gamma test's ablation from the
# label-sorted runs at the page's rate, which do not collapse, to the collapsing runs.
#
# ## What the miniature cannot show
#
# - **The paper's method.** Its statistic, reference law and regulation rule were not available; a negative or
#   positive result here is about our analogue, not about SIGMA.
# - **Scale and architectures.** 256 batch-norm parameters of an MLP on 8 × 8 digits, against ResNets and
#   transformers with many thousands of normalisation parameters on CIFAR/ImageNet corruptions. With so few
#   parameters the empirical law of the statistic is coarse, and the KS distances are noisy.
# - **Other base methods and scenarios.** Only TENT, and only one non-i.i.d. scenario (label-sorted batches).
#   The paper adds SIGMA to several state-of-the-art TTA methods, and its scenarios (for example continual
#   shifts, mixed shifts, small batches) are not tested.
# - **Long streams.** 45 batches per stream. Collapse of entropy minimisation often needs thousands of steps, and
#   a regulator of the parameter dynamics may matter most there; there, too, a smaller uniform step is the
#   baseline it would have to beat.
