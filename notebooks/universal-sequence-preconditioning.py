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
# # Universal Sequence Preconditioning
#
# *Convolving the target sequence with the coefficients of a monic Chebyshev (or Legendre) polynomial turns a
# long-memory linear dynamical system into a short-memory one, so the same online learner predicts it with far
# smaller error, including for asymmetric transition matrices whose eigenvalues are close to the real axis.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np

from repro.claims import Claims, at_most, between
from repro.runtime import progress, setup_notebook
from repro.papers import universal_sequence_preconditioning as K

P = setup_notebook(scale, seed, presets={
    "ci":   dict(R=4, T=4000, d=50, dims=[10, 50, 200], gains=[0.5, 1.0, 2.0, 3.0], L=1000),
    "full": dict(R=20, T=20000, d=50, dims=[10, 50, 200, 500], gains=[0.5, 1.0, 2.0, 3.0, 5.0], L=2000),
})
claims = Claims("universal-sequence-preconditioning", title="Universal Sequence Preconditioning",
                authors="Annie Marsden, Elad Hazan", paper_url="https://arxiv.org/abs/2502.06545",
                scale=scale, seed=seed)
m, k_sf, noise, lam = 10, 16, 0.01, 1.0   # window, spectral filters, noise std, ridge (fixed design)
degrees = [2, 4, 6, 8, 10]

# %% [markdown]
# ## The claim
#
# Marsden and Hazan study *preconditioning* for sequence prediction: before learning, replace the target
# sequence $y_t$ by a fixed linear combination of its recent past,
#
# $$\tilde y_t = \sum_{i=0}^{n} c_i\, y_{t-i}, \qquad c_0 = 1 .$$
#
# Differencing ($c = (1, -1)$, the Box–Jenkins trick) is the classical example. The paper's observation is that
# if $y$ comes from a linear dynamical system (LDS) $x_{t+1} = A x_t + B u_t$, $y_t = C x_t$, this convolution
# applies the polynomial $p_n(z) = \sum_i c_i z^{n-i}$ to the hidden matrix $A$:
#
# $$\tilde y_t = C\, p_n(A)\, x_{t-n} + \sum_{j=1}^{n} \Big(\sum_{i<j} c_i\, C A^{j-1-i}\Big) B\, u_{t-j}.$$
#
# The second term only involves the last $n$ inputs. The first term still carries the whole past, but scaled by
# $p_n(A)$. If $p_n$ is small on the spectrum of $A$, the preconditioned target has (almost) *$n$-step memory*
# and a learner that sees a short window of inputs can fit it. The monic polynomial with the smallest maximum
# on $[-1, 1]$ is the rescaled Chebyshev polynomial $M_n = 2^{1-n} T_n$, with $\max |M_n| = 2^{1-n}$; the
# paper also uses the monic Legendre polynomial. The coefficients are fixed in advance, whatever the system:
# that is what "universal" means here. The paper proves regret bounds for online regression and for
# spectral filtering with this preconditioner, free of the hidden dimension up to logs, for marginally stable
# and asymmetric $A$ whose eigenvalues have imaginary parts of order $1/\log T$ (the authors call this
# condition near-tight). A text copy of the paper states the rates as $\tilde O(T^{-2/13})$ with online
# regression and Chebyshev coefficients and $\tilde O(T^{-3/13})$ with modified spectral filters; the copy
# drops the equations, and we read these as regret per step. Its experiments report that
# preconditioning "drastically" lowers errors for regression, spectral filtering and LSTMs, on LDS,
# nonlinear-system and RNN data. They also report that Chebyshev and Legendre are nearly identical and that
# quality degrades past degree 5–10.
#
# **Convention.** `K.chebyshev_monic_coeffs(n)` returns the coefficients of $2^{1-n}T_n$, highest power first:
# $n = 2$ gives $(1, 0, -\tfrac12)$, i.e. $z^2 - \tfrac12$. The paper's text appears to index the degree
# differently (its "$n = 2$" setting is said to give $c = (1, -1)$). We use the true polynomial degree, and we
# run differencing $(1, -1)$ as a separate baseline.

# %%
lam_grid = np.linspace(0, 1, 401)
fig, ax = plt.subplots(figsize=(6.4, 3.2))
ax.plot(lam_grid, np.abs(np.polyval([1.0, -1.0], lam_grid)), "k:", label="differencing $z-1$")
for n, ls in [(4, "-"), (8, "--")]:
    ax.plot(lam_grid, np.abs(np.polyval(K.chebyshev_monic_coeffs(n), lam_grid)), ls, color="C0",
            label=f"Chebyshev $M_{n}$")
    ax.plot(lam_grid, np.abs(np.polyval(K.legendre_monic_coeffs(n), lam_grid)), ls, color="C1",
            label=f"Legendre, n={n}")
ax.set(xlabel=r"real eigenvalue $\lambda$ of $A$", ylabel=r"$|p_n(\lambda)|$ (gain on the memory term)",
       yscale="log", ylim=(1e-4, 2))
ax.legend(ncol=3, fontsize=8)
ax.set_title("How strongly each preconditioner damps a hidden mode")
plt.show()

# %% [markdown]
# The figure shows what each preconditioner does to a hidden mode with eigenvalue $\lambda$. Chebyshev and
# Legendre keep $|p_n(\lambda)|$ below $2^{1-n}$ (about) across the whole interval. Differencing instead
# vanishes at $\lambda = 1$, exactly where the slowest, longest-memory modes live, and is large near
# $\lambda = 0$, where modes die out on their own anyway. This explains a result below.
#
# ## The method
#
# The base learner is the same in every arm: **online ridge regression** (recursive least squares,
# follow-the-regularised-leader for the square loss, $\lambda_{\text{ridge}} = 1$). At step $t$ it predicts
# from the window of past inputs $(u_{t-1}, \dots, u_{t-10})$ using only data before $t$, then updates.
#
# * **No preconditioning** ($c = (1)$): the learner predicts $y_t$ directly.
# * **USP**: the learner predicts $\tilde y_t$. The forecast of $y_t$ is
#   $\hat y_t = \text{pred}_t - \sum_{i\ge1} c_i y_{t-i}$, which uses only outputs already seen. Because
#   $c_0 = 1$, the error $y_t - \hat y_t$ equals $\tilde y_t - \text{pred}_t$ exactly (unit-tested).
#
# A second learner, **spectral filtering**, replaces the input window by 16 projections of the last $L$ inputs
# onto the top eigenvectors of the Hankel matrix $Z_{ij} = 2/((i+j)^3-(i+j))$ (scaled by $\sigma_j^{1/4}$), plus
# the two most recent inputs. We run it with and without USP.
#
# Baselines in the same run: the unpreconditioned learner; **differencing** $c = (1,-1)$, the classical
# preconditioner; and a **learned ARX model**, online ridge on $(y_{t-1..t-10}, u_{t-1..t-10})$. ARX is not
# universal: it learns its own "coefficients" from the data. We show it as a strong reference and do not claim
# that USP beats it.
#
# **Control.** Every claim is also measured, with the same learner and criterion, for a preconditioner that the
# paper's argument says should *not* help: the monic Chebyshev polynomial of the same degree built for the
# wrong interval $[-1, 0]$ (`K.chebyshev_monic_coeffs_on(n, -1, 0)`). It is as small as possible on $[-1, 0]$
# but large near $\lambda = 1$ (4.5 for $n = 4$, 20 for $n = 8$), where the slow modes of our systems live. A
# claim counts only if this control fails it. For C7 (dimension) the control is the learner without
# preconditioning.
#
# ## The experiment
#
# * Systems: hidden dimension $d = 50$, scalar input $u_t \sim N(0,1)$ and scalar output, process and
#   observation noise of standard deviation 0.01, $x_0 = 0$, $B, C \sim N(0, 1/d)$.
#   **Symmetric**: $A = Q\,\mathrm{diag}(\lambda)\,Q^\top$ with $\lambda_i \sim U[0, 0.999]$.
#   **Asymmetric**: 25 rotation–scaling blocks with radius $U[0.9, 0.999]$ and angle $U[0, 0.3]$ rad,
#   conjugated by a random orthogonal $Q$.
#   **Non-LDS**: the symmetric system with the state passed through $\tanh$,
#   $x_{t+1} = \tanh(A x_t + B u_t) + w_t$, and input gain $g$ ($u_t \sim N(0, g^2)$). Larger $g$ means
#   stronger saturation.
# * Degrees $n \in \{2,4,6,8,10\}$ for Chebyshev and Legendre; window $m = 10$.
# * Metric: the average online squared error over the whole run, $\frac1T\sum_t (y_t-\hat y_t)^2$ (regret per
#   step against the zero-error predictor), averaged over independent random systems. We also give the
#   paper's metric, the mean absolute error over the last 200 steps.
#
# **Deviations from the paper**
#
# * Scale: at `ci` scale, 4 random systems per setting with $T = 4000$; at `full`, 20 systems with
#   $T = 20000$. The paper uses 200 sequences of length 2000.
# * Learners: online ridge regression and standard spectral filtering only. There is no LSTM/GRU arm, and we
#   use the classical Hazan et al. filters, not the paper's modified filters for complex eigenvalues. ETTh1
#   and the RNN-generated data are not reproduced.
# * The nonlinear system is our own stand-in (a $\tanh$ state map). The paper's exact nonlinear generator was
#   not available to us.
# * The degree $n$ is the true polynomial degree (see the convention above). Learned coefficients and the
#   paper's learning-rate sweep are omitted.
# * Thresholds C1 and C2 come from the brief's calibration prototype. The others were fixed by us before the
#   run. C4b and C7 were added after a development run (flagged post hoc, see the non-LDS claims).
# * The check that the generic convolution with $c = (1, -1)$ is differencing is an identity of our code; it is a
#   unit test now, not a claim.

# %%
cheb = {n: K.chebyshev_monic_coeffs(n) for n in degrees}
leg = {n: K.legendre_monic_coeffs(n) for n in degrees}
# control arms: the same monic Chebyshev construction aimed at the wrong interval [-1, 0] (small there, large
# near +1 where the slow modes of our systems live)
wrong = {n: K.chebyshev_monic_coeffs_on(n, -1.0, 0.0) for n in (4, 8)}
arms = {"none": np.array([1.0]), "diff": np.array([1.0, -1.0]),
        **{f"cheb{n}": c for n, c in cheb.items()}, **{f"leg{n}": c for n, c in leg.items()},
        **{f"wrong{n}": c for n, c in wrong.items()}}
names, coeff_list = list(arms), list(arms.values())


def run_setting(kind, d=P.d, gain=1.0, nonlinearity=None, spectral=True, arx=True):
    """Simulate P.R systems; online squared errors (R, T) per arm and learner."""
    Y, U = K.simulate_batch(P.R, d, kind, P.T, noise, P.rng, gain=gain, nonlinearity=nonlinearity)
    out = {"Y": Y}
    E = K.usp_squared_errors(K.input_window_features(U, m), Y, coeff_list, lam)
    out["reg"] = {a: E[..., j] for j, a in enumerate(names)}
    if spectral:
        Xs = np.stack([np.concatenate([K.spectral_features(u, P.L, k_sf), K.input_window_features(u, 2)], -1)
                       for u in U])
        E = K.usp_squared_errors(Xs, Y, coeff_list, lam)
        out["sf"] = {a: E[..., j] for j, a in enumerate(names)}
    if arx:
        out["arx"] = K.usp_squared_errors(K.arx_features(Y, U, 10, m), Y, [np.array([1.0])], lam)[..., 0]
    return out


mse = lambda e: float(e.mean())                       # average over time and systems
res = {name: run_setting(*spec) for name, spec in progress(
    [("symmetric", ("symmetric",)), ("asymmetric", ("asymmetric",)),
     ("tanh g=3", ("symmetric", P.d, 3.0, "tanh"))], desc="systems")}

# %% [markdown]
# ## Results
#
# ### Error over time, with and without preconditioning

# %%
def running_mean(e):
    return np.cumsum(e.mean(0)) / np.arange(1, e.shape[1] + 1)


fig, axes = plt.subplots(1, 2, figsize=(7.6, 3.3), sharey=True)
for ax, (name, n) in zip(axes, [("symmetric", 4), ("asymmetric", 8)]):
    r = res[name]
    t = np.arange(1, P.T + 1)
    ax.plot(t, running_mean(r["reg"]["none"]), color="C1", label="regression, no preconditioning")
    ax.plot(t, running_mean(r["reg"][f"cheb{n}"]), color="C0", label="regression + USP Chebyshev (n=4 left, n=8 right)")
    ax.plot(t, running_mean(r["reg"]["diff"]), ":", color="C2", label="regression + differencing")
    ax.plot(t, running_mean(r["arx"]), "--", color="k", lw=1, label="learned ARX (reference)")
    ax.set(xscale="log", yscale="log", xlabel="time step t", title=f"{name} LDS, d={P.d}")
axes[0].set_ylabel("running mean squared error\n(regret / t)")
fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=2, fontsize=8)
plt.show()

# %% [markdown]
# To measure how fast the error per step falls, we fit the log–log slope of the running mean error against
# $t$ over the last 90% of the run. A negative slope means sublinear regret; a slope near 0 means the error per
# step stays flat. These numbers are descriptive, not a claim.

# %%
from repro.stats import loglog_slope

tt = np.arange(1, P.T + 1)
late = tt >= P.T // 10
for name, n in [("symmetric", 4), ("asymmetric", 8)]:
    r = res[name]
    slopes = {a: loglog_slope(tt[late], running_mean(e)[late]) for a, e in
              [("none", r["reg"]["none"]), (f"USP cheb{n}", r["reg"][f"cheb{n}"]), ("diff", r["reg"]["diff"]),
               ("ARX", r["arx"])]}
    print(f"{name:11s} slope of regret/t vs t: " + ", ".join(f"{a} {v:+.2f}" for a, v in slopes.items()))

# %% [markdown]
# ### Final error against degree and system

# %%
fig, axes = plt.subplots(1, 3, figsize=(9.6, 3.3))
for ax, (name, r) in zip(axes, res.items()):
    for learner, mk in [("reg", "o"), ("sf", "s")]:
        lbl = "regression" if learner == "reg" else "spectral filt."
        ax.plot(degrees, [mse(r[learner][f"cheb{n}"]) for n in degrees], mk + "-", color="C0" if learner == "reg" else "C5",
                label=f"{lbl} + Chebyshev")
        ax.plot(degrees, [mse(r[learner][f"leg{n}"]) for n in degrees], mk + "--", color="C1" if learner == "reg" else "C3",
                label=f"{lbl} + Legendre")
        ax.axhline(mse(r[learner]["none"]), color="C1" if learner == "reg" else "C3", lw=2, alpha=0.35,
                   label=f"{lbl}, none")
    ax.axhline(mse(r["reg"]["diff"]), color="C2", ls=":", label="regression + differencing")
    ax.axhline(mse(r["arx"]), color="k", ls="--", lw=1, label="learned ARX")
    ax.set(yscale="log", xlabel="degree n", title=name, xticks=degrees)
axes[0].set_ylabel("mean squared error over the run")
fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=4, fontsize=7.5)
plt.show()

# %% [markdown]
# What the degree sweep shows (the numbers quoted in this and the next sections are from the `ci` run; `full`
# moves them a little):
#
# * **LDS, regression.** On both LDS every degree beats no preconditioning. The best degree is 4–6 for the
#   symmetric system (about 30x lower error) and 8–10 for the asymmetric one (about 60x). The asymmetric system
#   needs higher degrees because its eigenvalues sit off the real axis, where a low-degree polynomial is not
#   small. Past the best degree the error creeps back up, as the paper reports. The sum $\|c\|_1$ grows with
#   $n$ and amplifies the noise.
# * **Chebyshev vs Legendre.** They are close, within about a factor of 2 everywhere, and nearly equal from $n = 6$.
# * **Spectral filtering.** USP helps strongly on the asymmetric system, where plain spectral filtering (made
#   for real, symmetric spectra) is weak. On the symmetric system plain spectral filtering is already good,
#   and USP helps only at $n \le 4$. At high $n$ it hurts. In our spectral arm only the two most recent inputs
#   enter as raw lags, so the $n$-term short-memory part of $\tilde y_t$ must be carried by the smooth filters.
#   This is a limit of our simplified learner, not necessarily of the paper's.
# * **Baselines.** Plain differencing is as good as or better than Chebyshev on the symmetric system. Our
#   spectra lie in $[0, 1)$, and the modes near 1 carry most of the error; differencing kills those exactly
#   (first figure). The learned ARX model is the best arm everywhere, as the brief's calibration anticipated.
#   It is not a universal preconditioner, because it fits its filter to each system.
# * **Non-LDS ($\tanh$, $g = 3$).** Preconditioning does not help, and it hurts more as $n$ grows.

# %% [markdown]
# The table gives the average online squared error (mean ± standard deviation over systems) and the paper's
# metric, the mean absolute error over the last 200 steps, for the regression learner.

# %%
def row(e):
    per = e.mean(1)
    return f"{per.mean():.2e} ± {per.std():.1e}", f"{np.sqrt(e[:, -200:]).mean():.3f}"   # |error| = sqrt(sq.)


print(f"{'system':12s} {'arm':10s} {'MSE (mean ± sd)':>22s} {'MAE last 200':>13s}")
for name, r in res.items():
    for a in ["none", "diff", "cheb4", "leg4", "cheb8", "leg8"]:
        print(f"{name:12s} {a:10s} {row(r['reg'][a])[0]:>22s} {row(r['reg'][a])[1]:>13s}")
    print(f"{name:12s} {'ARX':10s} {row(r['arx'])[0]:>22s} {row(r['arx'])[1]:>13s}")

# %% [markdown]
# ### Non-LDS sequences and hidden dimension
#
# Two sweeps, each with the same regression learner: the gain $g$ of the $\tanh$ system, from nearly linear to
# strongly saturated, and the hidden dimension $d$ of the asymmetric LDS.

# %%
gain_ratio, sat = [], []
for g in progress(P.gains, desc="gain"):
    r = res["tanh g=3"] if g == 3.0 else run_setting("symmetric", P.d, g, "tanh", spectral=False, arx=False)
    res[f"tanh g={g:g}"] = r
    gain_ratio.append(mse(r["reg"]["cheb4"]) / mse(r["reg"]["none"]))
dim_mse = {"none": [], "cheb8": []}
for d in progress(P.dims, desc="dimension"):
    r = res["asymmetric"] if d == P.d else run_setting("asymmetric", d, spectral=False, arx=False)
    for a in dim_mse:
        dim_mse[a].append(mse(r["reg"][a]))

fig, axes = plt.subplots(1, 2, figsize=(7.6, 3.2))
axes[0].plot(P.gains, gain_ratio, "o-")
axes[0].axhline(1.0, color="k", lw=1)
axes[0].set(xlabel="input gain g of the tanh system", ylabel="MSE(USP n=4) / MSE(none)", ylim=(0, None),
            title="non-LDS: gain of preconditioning")
axes[1].plot(P.dims, dim_mse["none"], "o-", color="C1", label="no preconditioning")
axes[1].plot(P.dims, dim_mse["cheb8"], "o-", color="C0", label="USP Chebyshev n=8")
axes[1].set(xscale="log", yscale="log", xlabel="hidden dimension d", ylabel="mean squared error",
            title="asymmetric LDS")
axes[1].legend()
plt.show()

# %% [markdown]
# ### The paper's findings beside ours
#
# The paper's tables were not available to us (the text copy we found drops them), so the left column holds
# what its text says, with its setting; the right column holds our number in our setting. Its metric is the
# mean absolute error over the last 200 predictions; ours is the mean squared error over the run, with the
# paper's metric beside it where it fits.

# %%
mae_last = lambda e: float(np.sqrt(e[:, -200:]).mean())  # noqa: E731  (|error| = sqrt of the squared error)
best_deg = {nm: min(degrees, key=lambda n: mse(res[nm]["reg"][f"cheb{n}"])) for nm in ("symmetric", "asymmetric")}
slope_sym = loglog_slope(tt[late], running_mean(res["symmetric"]["reg"]["cheb4"])[late])
paper_vs_ours = [
    ("LDS data, regression; 200 seqs, T=2000, deg 2-20", "'drastically' lower error (values not retrieved)",
     f"symmetric LDS d={P.d}, {P.R} systems, T={P.T}, Chebyshev n=4",
     f"MSE x{mse(res['symmetric']['reg']['cheb4']) / mse(res['symmetric']['reg']['none']):.3f}; MAE last 200 "
     f"{mae_last(res['symmetric']['reg']['none']):.3f} -> {mae_last(res['symmetric']['reg']['cheb4']):.3f}"),
    ("Chebyshev vs Legendre, same settings", "nearly identical",
     "symmetric LDS, n=4 / n=8",
     f"MSE Legendre/Chebyshev {mse(res['symmetric']['reg']['leg4']) / mse(res['symmetric']['reg']['cheb4']):.2f}"
     f" / {mse(res['symmetric']['reg']['leg8']) / mse(res['symmetric']['reg']['cheb8']):.2f}"),
    ("degree sweep {2, 5, 10, 20}", "quality degrades past degree 5-10",
     f"degrees {degrees[0]}..{degrees[-1]}, regression", f"best degree: symmetric {best_deg['symmetric']}, "
     f"asymmetric {best_deg['asymmetric']}"),
    ("noisy nonlinear dynamical system (generator not retrieved)", "preconditioning still lowers error",
     "our tanh state map, gain g=1 / g=3", f"MSE x{gain_ratio[P.gains.index(1.0)]:.2f} / "
     f"x{gain_ratio[P.gains.index(3.0)]:.2f}"),
    ("spectral filtering, asymmetric A (modified filters)", "lower error; regret O~(T^-3/13) (bound)",
     f"asymmetric LDS, standard filters, n=8", f"MSE x{mse(res['asymmetric']['sf']['cheb8']) / mse(res['asymmetric']['sf']['none']):.3f}"),
    ("theorem: regression + Chebyshev", "regret O~(T^-2/13) (upper bound)",
     "symmetric LDS, Chebyshev n=4", f"fitted slope of regret/t: {slope_sym:+.2f} (descriptive)"),
]
print(f"{'paper: setting':<58} {'paper reports':<50} | {'ours: setting':<46} ours")
for a, b, c, d_ in paper_vs_ours:
    print(f"{a:<58} {b:<50} | {c:<46} {d_}")

# %% [markdown]
# ### Claim checks
#
# The thresholds were written before the run. C1 and C2 come from the brief's calibration prototype
# (0.0013 vs 0.097 and 0.018 vs 0.48). The others are our own reading of the paper's qualitative statements.
# The controls (wrong-interval Chebyshev; no preconditioning for C7) were added later without changing any
# measurement or threshold.

# %%
r_sym, r_asym = res["symmetric"], res["asymmetric"]
ratio = lambda r, arm, learner="reg": mse(r[learner][arm]) / mse(r[learner]["none"])  # noqa: E731
WRONG = "the same monic Chebyshev construction for the wrong interval [-1, 0] (degree {})"
claims.check("C1-symmetric-n4", statement="Symmetric LDS (d=50): online regression with USP (Chebyshev, n=4) has "
             "at most 0.2x the mean squared error of the same learner without preconditioning",
             paper="preconditioning drastically lowers regression error on LDS data (table values not retrieved)",
             criterion=at_most(0.2), measured=ratio(r_sym, "cheb4"),
             control=ratio(r_sym, "wrong4"), control_label=WRONG.format(4))
claims.check("C2-asymmetric-n8", statement="Asymmetric LDS (rotation blocks, angle <= 0.3): USP (Chebyshev, n=8) "
             "error ratio vs no preconditioning",
             paper="sublinear, dimension-free regret for asymmetric A with small imaginary parts",
             criterion=at_most(0.2), measured=ratio(r_asym, "cheb8"),
             control=ratio(r_asym, "wrong8"), control_label=WRONG.format(8))

# %% [markdown]
# **About the non-LDS claims, plainly.** We fixed the thresholds of C4, C5 and C6 before a development run of
# this same experiment. That run used the same seed, so it saw the same numbers as this page. It showed no gain
# for the $\tanh$ system at gain 3 (C4). We kept C4 and its threshold unchanged. After seeing that result we
# added C4b (same threshold, milder gain $g = 1$) and C7 (neither had been measured yet). Both carry the
# post-hoc flag (†).

# %%
r_nl3, r_nl1 = res["tanh g=3"], res["tanh g=1"]
claims.check("C4-nonlds-tanh-g3", statement="Non-LDS (tanh state map, input gain 3): USP (Chebyshev, n=4) error "
             "ratio vs no preconditioning",
             paper="USP also lowers errors on data from a noisy nonlinear dynamical system",
             criterion=at_most(0.5), measured=ratio(r_nl3, "cheb4"),
             control=ratio(r_nl3, "wrong4"), control_label=WRONG.format(4))
claims.check("C4b-nonlds-tanh-g1", statement="Non-LDS (tanh state map, input gain 1): USP (Chebyshev, n=4) error "
             "ratio vs no preconditioning",
             paper="USP also lowers errors on data from a noisy nonlinear dynamical system",
             criterion=at_most(0.5), measured=ratio(r_nl1, "cheb4"),
             control=ratio(r_nl1, "wrong4"), control_label=WRONG.format(4),
             post_hoc="registered after C4 (gain 3) was seen to fail in a development run with the same seed")
claims.check("C5-chebyshev-vs-legendre", statement="Symmetric LDS, n=4: MSE(Legendre) / MSE(Chebyshev) "
             "within a factor 2", paper="Chebyshev and Legendre coefficients perform nearly identically",
             criterion=between(0.5, 2.0), measured=mse(r_sym["reg"]["leg4"]) / mse(r_sym["reg"]["cheb4"]),
             control=mse(r_sym["reg"]["wrong4"]) / mse(r_sym["reg"]["cheb4"]),
             control_label="MSE(wrong-interval Chebyshev, n=4) / MSE(Chebyshev): a monic degree-4 polynomial that "
             "is not small on the spectrum")
claims.check("C6-spectral-filtering-asym", statement="Asymmetric LDS: spectral filtering with USP (Chebyshev, "
             "n=8) has at most 0.5x the error of spectral filtering without",
             paper="USP + spectral filtering: first dimension-free sublinear regret for asymmetric A",
             criterion=at_most(0.5), measured=ratio(r_asym, "cheb8", "sf"),
             control=ratio(r_asym, "wrong8", "sf"), control_label=WRONG.format(8) + ", spectral filtering")
claims.check("C7-dimension-free", statement=f"Asymmetric LDS, USP (Chebyshev, n=8): MSE at d={P.dims[-1]} over "
             f"MSE at d={P.dims[0]} at most 3", paper="regret free of the hidden dimension up to logarithms",
             criterion=at_most(3.0), measured=dim_mse["cheb8"][-1] / dim_mse["cheb8"][0],
             control=dim_mse["none"][-1] / dim_mse["none"][0],
             control_label="no preconditioning, same systems (B, C ~ N(0, 1/d) keep the output scale fixed in d)",
             post_hoc="registered after C4 was seen to fail in a development run with the same seed")

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Partially reproduced.** Of the 5 pre-registered claims, 4 reproduce, each against a control that fails;
# C4b (added after the first run) does not; C7 is uninformative. The central mechanism reproduces clearly at
# laptop scale. For marginally stable LDS, symmetric and asymmetric, convolving the target with fixed monic
# Chebyshev (or Legendre) coefficients cuts the online error of the *same* learner by more than an order of
# magnitude (C1 0.030, C2 0.016), and does so for two learners (C6 0.072). The control preconditioner, the same
# construction aimed at $[-1, 0]$, multiplies the error by 20 to 500 instead: being small on the spectrum is
# what helps. At `ci` scale Chebyshev and Legendre behave alike (C5), while the wrong-interval polynomial of the
# same degree is 700 times worse than Chebyshev. At `ci` scale the error per step of the preconditioned learner
# keeps falling, while without preconditioning it stays flat (the slopes above).
#
# Those are the statuses of seed 0. Over seeds 0–9 (the table "Across seeds and scales" above, from
# `make sweep`) two of them are seed-sensitive: C5, Chebyshev and Legendre within a factor 2 of each other,
# holds at only 6 of the 10 seeds (the ratio ranges from 0.96 to 2.7, around the edge of the band), and C4b,
# the nonlinear system at gain 1, holds at 6 of 10 (ratio 0.14 to 0.56 against the 0.5 threshold). C1, C2 and
# C6, the core of the claim, hold at every seed.
#
# What the controls do not show: the control is a strong negative (large exactly where the slow modes are).
# Plain differencing, which is small there too, passes C1 as well (see the degree sweep); so the claims show
# that a fixed polynomial small on the spectrum helps, not that Chebyshev's universality over $[-1, 1]$ is needed
# on these systems.
#
# **C7 is uninformative.** The error of the preconditioned learner does not grow between $d = 10$ and the
# largest $d$ (ratio 0.77 at `ci`), but neither does the error without preconditioning (0.28): with
# $B, C \sim N(0, 1/d)$ the output scale does not depend on $d$, so this measurement cannot show that USP's
# regret is dimension-free. C7 was also added after the development run (post hoc).
#
# **Scale matters for two claims.** The full-scale runs of the sweep (seeds 0–2: 20 systems per setting,
# $T = 20000$, $d$ up to 500; under 3 min each; the last column of the table "Across seeds and scales") give,
# at seed 0, the same values as our earlier full run before the controls were added. At all three seeds C1, C2
# and C6 hold, C7 stays uninformative and C4 is not reproduced, as at ci. Two claims move: C5 fails at every
# full seed (Legendre is 2 to 2.7 times worse than Chebyshev at $n = 4$), and C4b passes at two of the three
# (0.31 and 0.39, then 0.51 against the 0.5 threshold). Both are also the two claims whose ci status changes
# with the seed (each holds at 6 of 10 ci seeds). Our reading is that the means over systems are
# heavy-tailed. One symmetric system with an
# eigenvalue very close to 1 can dominate an average (the standard deviation across systems exceeds the mean
# for several arms), and degree-4 Legendre, which is larger than Chebyshev near $\lambda = 1$ (first figure),
# pays more on such a system. At $n = 8$ the two stay within 15% at both scales. For the same reason, the fitted
# slopes at `full` scale are near zero, or even positive for the symmetric Chebyshev arm: they are descriptive
# only. Neither C4b nor C5 should be read as settled by 4 or 20 systems.
#
# **Not reproduced: the non-LDS claim (C4, C4b).** On our $\tanh$ system the gain fades as the nonlinearity
# grows. The ratio is about 0.25 at $g = 0.5$, about 0.5–0.6 at $g = 1$–$2$, and above 1 (a loss) at
# $g = 3$ (C4 1.47, C4b 0.53 at `ci`; the wrong-interval control fails both by far more). Our explanation:
# saturation shrinks the effective state Jacobian $\mathrm{diag}(1-\tanh^2)\,A$, so the sequence no longer has
# long linear memory for a polynomial in $A$ to cancel. A window of 10 inputs already captures most of it, and
# the preconditioner's larger coefficients mostly amplify noise and the nonlinear residue. The paper's nonlinear
# generator may be milder or structured differently; we could not check which.
#
# **What the miniature cannot show.** No LSTM/GRU arm, no ETTh1, and no learned coefficients. We use standard
# spectral filters, not the paper's modified filters for complex spectra. There are no confidence intervals
# over many seeds at `ci` scale (4 systems per setting; `full` uses 20). No theorem exponent ($T^{-2/13}$,
# $T^{-3/13}$) is tested: those are worst-case upper bounds, and our fitted slopes are descriptive only.
#
# **Caveats a reader should know.** (i) On our spectra, plain differencing is a competitive preconditioner and
# sometimes beats Chebyshev. The "universal" advantage of Chebyshev is robustness over the whole interval
# $[-1, 1]$, which these systems do not need. (ii) A learned ARX model beats every fixed preconditioner here.
# (iii) The paper's degree indexing differs from ours (see the convention above).
# (iv) The follow-up paper notes that preconditioned sequences can have much larger gradients. We see the
# mild version of this: error grows again at high degree.
