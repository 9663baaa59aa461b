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
# smaller error, including for asymmetric transition matrices whose eigenvalues are close to the real axis. On
# our systems the gain is real but not specific: plain first differencing gives it too, and a learned ARX model
# does better.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np

from myst_nb import glue

from repro.claims import Claims, Comparator, at_most, between
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
m_long = 4 * m                            # the longer window of a naive baseline (rule: four times m)
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
# **Comparators.** Every test is measured, under the same learner, data and criterion, beside
#
# * its **ablation**, USP without the Chebyshev choice of coefficients: a monic polynomial of the *same degree*
#   with every root at 1, $(z-1)^n$ ($n$-fold Box–Jenkins differencing, `K.repeated_differencing_coeffs`). It
#   removes the slowest modes exactly, as Chebyshev's roots near 1 do, but it is not small on the rest of
#   $[-1, 1]$ and its $\|c\|_1 = 2^n$ amplifies noise (Chebyshev: $\|c\|_1$ grows like $((1+\sqrt2)/2)^n$);
# * three **naive baselines** that use none of the paper's ideas: plain **first differencing** $c = (1, -1)$
#   with the same learner (the classical preconditioner, the paper's motivating example); the learner
#   **without preconditioning but with a four times longer input window** ($m = 40$, a rule of thumb fixed
#   before the run: "just remember more"); and a **learned ARX model**, online ridge on
#   $(y_{t-1..t-10}, u_{t-1..t-10})$, which fits its own filter of the past outputs to each system.
#   C5 (Legendre against Chebyshev) also has a fourth: another degree-4 monic polynomial, with its roots
#   equally spaced over $[0.1, 0.9]$ (the naive way to spread roots over the positive half of the spectrum).
#
# A test is reproduced only where the method passes and all of these fail. The page's first version compared
# each claim with a monic Chebyshev polynomial built for the wrong interval $[-1, 0]$, which is large exactly
# where our slow modes live: it failed by construction, so it is no longer a comparator (its numbers are in
# "What a skeptic would try").
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
#   run. C4b and C7 were added after a development run (C4b is flagged post hoc, see the non-LDS claims; C7 is
#   now shown as an illustration, because it cannot fail). The comparators (ablation and baselines) were added
#   later under the skeptic's rules; no measurement, setting or threshold of a test changed, so the other tests
#   stay pre-registered. C5's baseline with equally spaced roots was added after the independent review.
# * Baselines' settings, by fixed rules: the ARX model uses the window of the brief's prototype (10 past
#   outputs, 10 past inputs, ridge 1 as every arm); the longer input window is four times ours ($m = 40$).
# * The paper's theorems allow real eigenvalues anywhere in $[-1, 1]$; the brief's systems (and ours) have
#   spectra in $[0, 1)$ or near the positive real axis, where a root at 1 already removes the slow modes.
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
        **{f"wrong{n}": c for n, c in wrong.items()},
        **{f"rep{n}": K.repeated_differencing_coeffs(n) for n in (4, 8)},   # ablation: (z-1)^n
        "eq4": np.poly(np.linspace(0.1, 0.9, 4)),   # C5 baseline: 4 roots equally spaced in [0.1, 0.9]
        # the skeptic's arms ("What a skeptic would try"): partial differencing (z-0.9) and (z-1)^2
        "ar09": np.array([1.0, -0.9]), "diff2": K.repeated_differencing_coeffs(2)}
names, coeff_list = list(arms), list(arms.values())


def run_setting(kind, d=P.d, gain=1.0, nonlinearity=None, spectral=True, arx=True, long=True, long200=False):
    """Simulate P.R systems; online squared errors (R, T) per arm and learner (baselines need no randomness).

    ``arx`` also runs the skeptic's minimal ARX (1 past output, 10 inputs); ``long200`` the skeptic's window
    m = 200 (its cost is why it runs on one system only)."""
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
        out["arx1"] = K.usp_squared_errors(K.arx_features(Y, U, 1, m), Y, [np.array([1.0])], lam)[..., 0]
    if long:
        out["long"] = K.usp_squared_errors(K.input_window_features(U, m_long), Y, [np.array([1.0])], lam)[..., 0]
    if long200:
        out["long200"] = K.usp_squared_errors(K.input_window_features(U, 200), Y, [np.array([1.0])], lam)[..., 0]
    return out


mse = lambda e: float(e.mean())                       # average over time and systems
res = {name: run_setting(*spec) for name, spec in progress(
    [("symmetric", ("symmetric",)), ("asymmetric", ("asymmetric", P.d, 1.0, None, True, True, True, True)),
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
# What the degree sweep shows (numbers from this run; `full` moves them a little):
#
# * **LDS, regression.** On both LDS every degree beats no preconditioning. The best Chebyshev degree is
#   {glue:text}`best_deg_sym` for the symmetric system ({glue:text}`gain_sym:.0f` times lower error) and
#   {glue:text}`best_deg_asym` for the asymmetric one ({glue:text}`gain_asym:.0f` times). The asymmetric system
#   needs higher degrees because its eigenvalues sit off the real axis, where a low-degree polynomial is not
#   small. On the symmetric system the error creeps back up past the best degree, as the paper reports:
#   $\|c\|_1$ grows with $n$ and amplifies the noise. The asymmetric system need not show this within our
#   degrees: its errors at $n = 8$ and $n = 10$ are {glue:text}`asym_n8:.2e` and {glue:text}`asym_n10:.2e`.
# * **Chebyshev vs Legendre.** Over the degrees, MSE(Legendre)/MSE(Chebyshev) on the symmetric system lies
#   between {glue:text}`leg_lo:.2f` and {glue:text}`leg_hi:.2f`.
# * **Spectral filtering.** USP helps strongly on the asymmetric system, where plain spectral filtering (made
#   for real, symmetric spectra) is weak. On the symmetric system plain spectral filtering is already good:
#   there the error ratio with USP is {glue:text}`sf_sym4:.2f` at $n = 4$ and {glue:text}`sf_sym8:.2f` at
#   $n = 8$. In our spectral arm only the two most recent inputs enter as raw lags, so the $n$-term
#   short-memory part of $\tilde y_t$ must be carried by the smooth filters. This is a limit of our simplified
#   learner, not necessarily of the paper's.
# * **Baselines.** Plain differencing gives {glue:text}`diff_sym:.3f` times the unpreconditioned error on the
#   symmetric system (Chebyshev $n = 4$: {glue:text}`c1_m:.3f`) and {glue:text}`diff_asym:.3f` times on the
#   asymmetric one (Chebyshev $n = 8$: {glue:text}`c2_m:.3f`). Our spectra lie in $[0, 1)$ or near the positive
#   real axis, and the modes near 1 carry most of the error; differencing kills those exactly (first figure).
#   The learned ARX model is the best arm on both LDS, as the brief's calibration anticipated. It is not a
#   universal preconditioner, because it fits its filter to each system.
# * **Non-LDS ($\tanh$, $g = 3$).** Preconditioning does not help: the error ratio is {glue:text}`nl3_n2:.2f` at
#   $n = 2$ and {glue:text}`nl3_n10:.1f` at $n = 10$.

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
    r = res["tanh g=3"] if g == 3.0 else run_setting("symmetric", P.d, g, "tanh", spectral=False, arx=g == 1.0,
                                                     long=g == 1.0)
    res[f"tanh g={g:g}"] = r
    gain_ratio.append(mse(r["reg"]["cheb4"]) / mse(r["reg"]["none"]))
dim_mse = {"none": [], "cheb8": [], "diff": [], "arx": []}
for d in progress(P.dims, desc="dimension"):
    r = res["asymmetric"] if d == P.d else run_setting("asymmetric", d, spectral=False, long=False)
    for a in dim_mse:
        dim_mse[a].append(mse(r["arx"] if a == "arx" else r["reg"][a]))

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
# ### The paper's numbers beside ours
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
# ## Claims
#
# The thresholds were written before the run. C1 and C2 come from the brief's calibration prototype
# (0.0013 vs 0.097 and 0.018 vs 0.48). The others are our own reading of the paper's qualitative statements.
# Every test is a ratio of mean squared errors under the same learner; its comparators (see "The method") are
# the same ratio for the ablation $(z-1)^n$ and for the three naive baselines. Adding them changed no
# measurement, setting or threshold.
#
# **About the non-LDS claims, plainly.** We fixed the thresholds of C4, C5 and C6 before a development run of
# this same experiment. That run used the same seed, so it saw the same numbers as this page. It showed no gain
# for the $\tanh$ system at gain 3 (C4). We kept C4 and its threshold unchanged. After seeing that result we
# added C4b (same threshold, milder gain $g = 1$) and C7 (neither had been measured yet). Both carry the
# post-hoc flag (†). C7 cannot fail (see the verdict), so it is shown as an illustration and not counted.

# %%
r_sym, r_asym = res["symmetric"], res["asymmetric"]
r_nl3, r_nl1 = res["tanh g=3"], res["tanh g=1"]


def err(r, arm, learner="reg"):
    """Mean squared error of one arm: a preconditioner of `learner`, or the ARX / long-window baselines."""
    return mse(r[arm]) if arm in ("arx", "arx1", "long", "long200") else mse(r[learner][arm])


def ratio(r, arm, learner="reg", ref="none"):
    """MSE of `arm` over the MSE of the same learner with the reference preconditioner (default: none)."""
    return err(r, arm, learner) / err(r, ref, learner)


ING = "the Chebyshev coefficients: roots spread over [-1, 1], so that |p_n| <= 2^(1-n) on all of it"
ABL = "USP with the same degree and every root at 1: (z-1)^{} ({}-fold differencing)"
B_DIFF = "first differencing c = (1, -1) (Box-Jenkins), same learner"
B_LONG = f"no preconditioning, a four times longer input window (m = {m_long})"
B_ARX = "learned ARX: online ridge on (y_t-1..t-10, u_t-1..t-10)"


def comparators(r, n, learner="reg", ref="none", long=True):
    """The ablation and the naive baselines of a test, as the same ratio as the method's."""
    abl = Comparator(ABL.format(n, n) + ("" if learner == "reg" else ", spectral filtering"),
                     ratio(r, f"rep{n}", learner, ref), ingredient=ING)
    base = [Comparator(B_DIFF if learner == "reg" else B_DIFF.replace("same learner", "spectral filtering"),
                       ratio(r, "diff", learner, ref)),
            Comparator(B_ARX, err(r, "arx") / err(r, ref, learner))]
    if long:
        base.insert(1, Comparator(B_LONG, err(r, "long") / err(r, ref, learner)))
    return dict(ablation=abl, baselines=base)


claims.test("C1-symmetric-n4", statement="Symmetric LDS (d=50): online regression with USP (Chebyshev, n=4) has "
            "at most 0.2x the mean squared error of the same learner without preconditioning",
            paper="preconditioning drastically lowers regression error on LDS data (table values not retrieved)",
            criterion=at_most(0.2), measured=ratio(r_sym, "cheb4"), **comparators(r_sym, 4))
claims.test("C2-asymmetric-n8", statement="Asymmetric LDS (rotation blocks, angle <= 0.3): USP (Chebyshev, n=8) "
            "error ratio vs no preconditioning",
            paper="sublinear, dimension-free regret for asymmetric A with small imaginary parts",
            criterion=at_most(0.2), measured=ratio(r_asym, "cheb8"), **comparators(r_asym, 8))
claims.test("C4-nonlds-tanh-g3", statement="Non-LDS (tanh state map, input gain 3): USP (Chebyshev, n=4) error "
            "ratio vs no preconditioning",
            paper="USP also lowers errors on data from a noisy nonlinear dynamical system",
            criterion=at_most(0.5), measured=ratio(r_nl3, "cheb4"), **comparators(r_nl3, 4))
claims.test("C4b-nonlds-tanh-g1", statement="Non-LDS (tanh state map, input gain 1): USP (Chebyshev, n=4) error "
            "ratio vs no preconditioning",
            paper="USP also lowers errors on data from a noisy nonlinear dynamical system",
            criterion=at_most(0.5), measured=ratio(r_nl1, "cheb4"), **comparators(r_nl1, 4),
            post_hoc="registered after C4 (gain 3) was seen to fail in a development run with the same seed")
c5 = comparators(r_sym, 4, ref="cheb4")
c5["ablation"] = Comparator(ABL.format(4, 4) + ", over Chebyshev", ratio(r_sym, "rep4", ref="cheb4"),
                            ingredient="a monic polynomial small on all of [-1, 1] (what Legendre shares with "
                            "Chebyshev)")
c5["baselines"].append(Comparator("a degree-4 monic polynomial with its roots equally spaced over [0.1, 0.9] "
                                  "(the naive spread over the positive half of the spectrum), over Chebyshev",
                                  ratio(r_sym, "eq4", ref="cheb4")))
claims.test("C5-chebyshev-vs-legendre", statement="Symmetric LDS, n=4: MSE(Legendre) / MSE(Chebyshev) "
            "within a factor 2", paper="Chebyshev and Legendre coefficients perform nearly identically",
            criterion=between(0.5, 2.0), measured=ratio(r_sym, "leg4", ref="cheb4"), **c5)
claims.test("C6-spectral-filtering-asym", statement="Asymmetric LDS: spectral filtering with USP (Chebyshev, "
            "n=8) has at most 0.5x the error of spectral filtering without",
            paper="USP + spectral filtering: first dimension-free sublinear regret for asymmetric A",
            criterion=at_most(0.5), measured=ratio(r_asym, "cheb8", "sf"), **comparators(r_asym, 8, "sf", long=False))
dim_ratio = {a: v[-1] / v[0] for a, v in dim_mse.items()}
claims.illustrate("C7-dimension-free", statement=f"Asymmetric LDS, USP (Chebyshev, n=8): MSE at d={P.dims[-1]} "
                  f"over MSE at d={P.dims[0]} at most 3", paper="regret free of the hidden dimension up to logarithms",
                  criterion=at_most(3.0), measured=dim_ratio["cheb8"],
                  why="B, C ~ N(0, 1/d) fix the output scale at every hidden dimension, so every arm (no "
                  "preconditioning, differencing, ARX) passes too: the measurement cannot fail for any method")

claims.headline("convolution-is-polynomial", "Convolving the target sequence with coefficients c applies the "
                "polynomial p(z) = sum_i c_i z^(n-i) to the hidden transition matrix of a linear dynamical system",
                untestable="an algebraic identity: it holds for every LDS by construction (our unit tests check it "
                "on a noiseless system), so no run can refute it")
claims.headline("usp-improves-learners", "Fixed Chebyshev or Legendre coefficients lower the error of online "
                "regression and spectral filtering on linear dynamical systems, symmetric or not",
                tests=["C1-symmetric-n4", "C2-asymmetric-n8", "C5-chebyshev-vs-legendre", "C6-spectral-filtering-asym"])
claims.headline("dimension-free-asymmetric", "With spectral filtering, USP gives sublinear regret free of the "
                "hidden dimension (up to logs), even for asymmetric A",
                untestable="C6 measures an error ratio only (not regret, not its rate, not dimension-freeness), and "
                "the dimension sweep (C7) cannot fail: B, C ~ N(0, 1/d) keep the output scale fixed at every hidden "
                "dimension, so every arm passes it; it is shown as an illustration")
claims.headline("beyond-lds", "The gain carries over to data that are not from an LDS (tested here on our tanh "
                "stand-in); the other half, recurrent networks as learners, is untested here (no RNN arm)",
                tests=["C4-nonlds-tanh-g3", "C4b-nonlds-tanh-g1"])

# %%
glue_values = {
    "c1_m": ratio(r_sym, "cheb4"), "c1_rep": ratio(r_sym, "rep4"), "c1_diff": ratio(r_sym, "diff"),
    "c1_long": err(r_sym, "long") / err(r_sym, "none"), "c1_arx": err(r_sym, "arx") / err(r_sym, "none"),
    "c2_m": ratio(r_asym, "cheb8"), "c2_rep": ratio(r_asym, "rep8"), "c2_diff": ratio(r_asym, "diff"),
    "c2_long": err(r_asym, "long") / err(r_asym, "none"), "c2_arx": err(r_asym, "arx") / err(r_asym, "none"),
    "c4_m": ratio(r_nl3, "cheb4"), "c4_rep": ratio(r_nl3, "rep4"), "c4_diff": ratio(r_nl3, "diff"),
    "c4_long": err(r_nl3, "long") / err(r_nl3, "none"), "c4_arx": err(r_nl3, "arx") / err(r_nl3, "none"),
    "c4b_m": ratio(r_nl1, "cheb4"), "c4b_rep": ratio(r_nl1, "rep4"), "c4b_diff": ratio(r_nl1, "diff"),
    "c4b_long": err(r_nl1, "long") / err(r_nl1, "none"), "c4b_arx": err(r_nl1, "arx") / err(r_nl1, "none"),
    "c5_m": ratio(r_sym, "leg4", ref="cheb4"), "c5_rep": ratio(r_sym, "rep4", ref="cheb4"),
    "c5_diff": ratio(r_sym, "diff", ref="cheb4"), "c5_arx": err(r_sym, "arx") / err(r_sym, "cheb4"),
    "c5_long": err(r_sym, "long") / err(r_sym, "cheb4"),
    "c6_m": ratio(r_asym, "cheb8", "sf"), "c6_rep": ratio(r_asym, "rep8", "sf"),
    "c6_diff": ratio(r_asym, "diff", "sf"), "c6_arx": err(r_asym, "arx") / err(r_asym, "none", "sf"),
    "c7_m": dim_ratio["cheb8"], "c7_none": dim_ratio["none"], "c7_diff": dim_ratio["diff"],
    "c7_arx": dim_ratio["arx"],
    "wrong_c1": ratio(r_sym, "wrong4"), "wrong_c2": ratio(r_asym, "wrong8"),
    "wrong_c6": ratio(r_asym, "wrong8", "sf"),
    "arx_vs_cheb_sym": err(r_sym, "arx") / err(r_sym, "cheb4"),
    "arx_vs_cheb_asym": err(r_asym, "arx") / err(r_asym, "cheb8"),
    "gain_sym": mse(r_sym["reg"]["none"]) / mse(r_sym["reg"][f"cheb{best_deg['symmetric']}"]),
    "gain_asym": mse(r_asym["reg"]["none"]) / mse(r_asym["reg"][f"cheb{best_deg['asymmetric']}"]),
    "leg_lo": min(ratio(r_sym, f"leg{n}", ref=f"cheb{n}") for n in degrees),
    "leg_hi": max(ratio(r_sym, f"leg{n}", ref=f"cheb{n}") for n in degrees),
    "sf_sym4": ratio(r_sym, "cheb4", "sf"), "sf_sym8": ratio(r_sym, "cheb8", "sf"),
    "diff_sym": ratio(r_sym, "diff"), "diff_asym": ratio(r_asym, "diff"),
    "nl3_n2": ratio(r_nl3, "cheb2"), "nl3_n10": ratio(r_nl3, "cheb10"),
    "slope_sym": slope_sym,
    # the skeptic's arms, at this seed
    "c1_ar09": ratio(r_sym, "ar09"), "c2_ar09": ratio(r_asym, "ar09"), "c4b_ar09": ratio(r_nl1, "ar09"),
    "c6_ar09": ratio(r_asym, "ar09", "sf"), "c5_ar09": ratio(r_sym, "ar09", ref="cheb4"),
    "c1_diff2": ratio(r_sym, "diff2"), "c2_diff2": ratio(r_asym, "diff2"), "c4b_diff2": ratio(r_nl1, "diff2"),
    "c1_arx1": err(r_sym, "arx1") / err(r_sym, "none"), "c2_arx1": err(r_asym, "arx1") / err(r_asym, "none"),
    "c4b_arx1": err(r_nl1, "arx1") / err(r_nl1, "none"),
    "c6_arx1": err(r_asym, "arx1") / err(r_asym, "none", "sf"),
    "c2_long200": err(r_asym, "long200") / err(r_asym, "none"),
    "c5_eq4": ratio(r_sym, "eq4", ref="cheb4"),
    "c5_sys_lo": float(np.min(r_sym["reg"]["leg4"].mean(1) / r_sym["reg"]["cheb4"].mean(1))),
    "c5_sys_hi": float(np.max(r_sym["reg"]["leg4"].mean(1) / r_sym["reg"]["cheb4"].mean(1))),
    "c5_mode": (np.polyval(leg[4], 1.0) / np.polyval(cheb[4], 1.0)) ** 2,   # (p_L(1) / p_C(1))^2
    "asym_n8": mse(r_asym["reg"]["cheb8"]), "asym_n10": mse(r_asym["reg"]["cheb10"]),
}
for key, x in glue_values.items():
    glue(key, float(x), display=False)
glue("best_deg_sym", int(best_deg["symmetric"]), display=False)
glue("best_deg_asym", int(best_deg["asymmetric"]), display=False)
glue("d_lo", int(P.dims[0]), display=False)
glue("d_hi", int(P.dims[-1]), display=False)

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# Six tests, five pre-registered and one post hoc (C4b), and one illustration (C7). Each test compares USP with
# the same learner without preconditioning, beside the ablation $(z-1)^n$ (the same degree with every root at 1)
# and naive baselines under the same ratio. Values are from seed 0 at ci scale; the judged table gives the other seeds.
#
# * *USP lowers the error of online regression on LDS* ({repro-status}`C1-symmetric-n4`,
#   {repro-status}`C2-asymmetric-n8`). With Chebyshev coefficients the error falls to {glue:text}`c1_m:.3f` of
#   the plain learner's on the symmetric system ($n = 4$) and to {glue:text}`c2_m:.3f` on the asymmetric one
#   ($n = 8$), under the brief's bar of a fifth. The ablation $(z-1)^n$ gives {glue:text}`c1_rep:.2f` and
#   {glue:text}`c2_rep:.1f`, and a four times longer input window {glue:text}`c1_long:.2f` and
#   {glue:text}`c2_long:.2f`. More memory can get there with a much longer window: with $m = 200$ inputs the
#   plain learner reaches {glue:text}`c2_long200:.3f` on the asymmetric system against the bar of a fifth (the
#   skeptic found that $m = 200$ passes C1 and C2 at several ci seeds). Plain first differencing gives
#   {glue:text}`c1_diff:.3f` and {glue:text}`c2_diff:.3f`, and a learned ARX model {glue:text}`c1_arx:.4f` and
#   {glue:text}`c2_arx:.4f`. Over the ci sweep, differencing passes C1 at
#   {repro-seeds}`C1-symmetric-n4:baseline1:pass` seeds and C2 at {repro-seeds}`C2-asymmetric-n8:baseline1:pass`.
#   The gain is real, but on these systems it does not need the Chebyshev coefficients: any filter with a root
#   near 1 removes the slow modes that carry the error.
# * *USP helps spectral filtering on an asymmetric system* ({repro-status}`C6-spectral-filtering-asym`): ratio
#   {glue:text}`c6_m:.3f` against the bar of one half (an error ratio only: it says nothing about the rate of
#   the regret or its dependence on the hidden dimension); the ablation gives {glue:text}`c6_rep:.0f` (noise
#   amplified by $\|c\|_1 = 256$), but differencing gives {glue:text}`c6_diff:.3f` and ARX
#   {glue:text}`c6_arx:.4f` of plain spectral filtering's error.
# * *Chebyshev and Legendre alike* ({repro-status}`C5-chebyshev-vs-legendre`): MSE(Legendre)/MSE(Chebyshev) is
#   {glue:text}`c5_m:.2f`, against the factor-2 band; over the ci sweep it is inside at
#   {repro-seeds}`C5-chebyshev-vs-legendre:method:pass` seeds. The ablation ({glue:text}`c5_rep:.1f` times
#   Chebyshev's error) and the long window fail trivially for an equivalence claim. The band also holds
#   differencing ({glue:text}`c5_diff:.2f`), ARX ({glue:text}`c5_arx:.2f`) and four roots equally spaced over
#   $[0.1, 0.9]$ ({glue:text}`c5_eq4:.2f`; inside at {repro-seeds}`C5-chebyshev-vs-legendre:baseline4:pass`
#   seeds): it cannot single out Legendre as a close cousin of Chebyshev. The ratio is also fragile: per system
#   it is either near 1 or near $(p_L(1)/p_C(1))^2 =$ {glue:text}`c5_mode:.1f` on a system dominated by an
#   eigenvalue near 1 (at this seed the four systems range from {glue:text}`c5_sys_lo:.2f` to
#   {glue:text}`c5_sys_hi:.2f`), and the band's edge of 2 sits between the two modes, so the status depends on
#   which system dominates the pooled mean. The skeptic found a seed that falls outside by a fraction of a
#   percent, and stays outside under small changes of the ridge or of $T$.
# * *Dimension-free error* ({repro-status}`C7-dimension-free`, an illustration, not counted): from
#   $d =$ {glue:text}`d_lo` to $d =$ {glue:text}`d_hi` the error of USP changes by a factor
#   {glue:text}`c7_m:.2f`, but without preconditioning by {glue:text}`c7_none:.2f`: with $B, C \sim N(0, 1/d)$
#   the output scale does not depend on $d$, so this measurement cannot fail for any method and cannot show
#   that USP's regret is dimension-free. The headline on dimension-free regret is therefore marked untestable
#   here.
# * *Beyond LDS* ({repro-status}`C4-nonlds-tanh-g3`, {repro-status}`C4b-nonlds-tanh-g1`, post hoc): on the
#   strongly saturated $\tanh$ system ($g = 3$) USP raises the error ({glue:text}`c4_m:.2f` times); at $g = 1$
#   it gives {glue:text}`c4b_m:.2f` against the bar of one half, where differencing gives
#   {glue:text}`c4b_diff:.2f` and ARX {glue:text}`c4b_arx:.2f`. Over the ci sweep the method passes C4b at
#   {repro-seeds}`C4b-nonlds-tanh-g1:method:pass` seeds and differencing at
#   {repro-seeds}`C4b-nonlds-tanh-g1:baseline1:pass`. Our explanation of the failure at $g = 3$: saturation
#   shrinks the effective state Jacobian $\mathrm{diag}(1-\tanh^2)\,A$, so the sequence no longer has long
#   linear memory for a polynomial in $A$ to cancel, and the preconditioner's larger coefficients mostly amplify
#   noise and the nonlinear residue. The paper's nonlinear generator may be milder; we could not check. The
#   headline's other half, recurrent networks as learners, is untested: there is no RNN arm.
#
# **What this says about the paper.** The mechanism reproduces: convolving the target with a fixed monic
# polynomial that is small on the spectrum cuts the online error of the same learner by an order of magnitude
# or more, for two learners and for asymmetric $A$. What our systems cannot show is that the *universal*
# Chebyshev choice is needed: their spectra sit near the positive real axis, where first differencing, the
# classical preconditioner the paper generalises, works as well, and a learned ARX filter is better than both
# (by a factor {glue:text}`arx_vs_cheb_sym:.2f` and {glue:text}`arx_vs_cheb_asym:.2f` of USP's error at the
# tested degrees). The paper's guarantees (regret bounds free of the hidden dimension for every marginally
# stable system with nearly real spectrum) are about worst cases, which these averages do not reach.
#
# ## What a skeptic would try
#
# The comparators were added when the page was converted to the claim model; an independent skeptic then
# tried further baselines on ci seeds 0–9 in scripts outside the project. What was tried, measured by this
# notebook at seed 0:
#
# * **Plain first differencing** $c = (1, -1)$ with the same learner: ratios {glue:text}`c1_diff:.3f` (C1),
#   {glue:text}`c2_diff:.3f` (C2), {glue:text}`c6_diff:.3f` (C6, spectral filtering). Over the ci sweep it passes
#   C1 at {repro-seeds}`C1-symmetric-n4:baseline1:pass` seeds, C2 at {repro-seeds}`C2-asymmetric-n8:baseline1:pass`
#   and C6 at {repro-seeds}`C6-spectral-filtering-asym:baseline1:pass`. Our spectra have no eigenvalue near $-1$, where differencing doubles a mode
#   and Chebyshev would not; that regime, which the paper's theorems cover, is not run here.
# * **A learned ARX model** (10 past outputs and 10 past inputs, online ridge): {glue:text}`c1_arx:.4f` (C1),
#   {glue:text}`c2_arx:.4f` (C2), {glue:text}`c4b_arx:.2f` (C4b), {glue:text}`c4_arx:.2f` (C4). It is the best
#   arm everywhere, as the brief's calibration said; it is not universal, since it fits its filter to each system.
# * **A minimal ARX model** (1 past output, 10 past inputs; the skeptic's): {glue:text}`c1_arx1:.3f` (C1),
#   {glue:text}`c2_arx1:.3f` (C2), {glue:text}`c4b_arx1:.2f` (C4b), and {glue:text}`c6_arx1:.3f` of plain
#   spectral filtering's error (C6). One learned lag already does about what the Chebyshev filter does here, so the
#   "not specific" finding does not hang on the ARX settings.
# * **Just remember more** (no preconditioning, input window $m = 40$): {glue:text}`c1_long:.2f` (C1),
#   {glue:text}`c2_long:.2f` (C2), {glue:text}`c4b_long:.2f` (C4b): four times our window does not reach the
#   bars. It is the weakest window the skeptic tried: with $m = 200$ (the skeptic's value, run here on the
#   asymmetric system only, for its cost) the plain learner reaches {glue:text}`c2_long200:.3f` on C2, against
#   the bar of a fifth. The skeptic found that $m = 100$ and $m = 200$ pass C1 and C2 at several ci seeds, and that no window
#   passes C4b at more than a few.
# * **Partial differencing** $c = (1, -0.9)$, a fixed root at $0.9$ (the skeptic's): {glue:text}`c1_ar09:.3f` (C1),
#   {glue:text}`c2_ar09:.3f` (C2), {glue:text}`c4b_ar09:.2f` (C4b), {glue:text}`c6_ar09:.3f` (C6, spectral
#   filtering), and {glue:text}`c5_ar09:.2f` of Chebyshev's error on the symmetric system (C5). The skeptic found
#   it under the bars of C1, C2, C4b and C6 and inside C5's band at every ci seed, more often than Legendre.
# * **Second-order differencing** $(z-1)^2$, the ablation at a lower degree (the skeptic's):
#   {glue:text}`c1_diff2:.3f` (C1), {glue:text}`c2_diff2:.4f` (C2, against the method's {glue:text}`c2_m:.3f`),
#   {glue:text}`c4b_diff2:.2f` (C4b). The skeptic found that on the asymmetric system it beats Chebyshev $n = 8$
#   at every ci seed: the degree-8 ablation fails because of its degree, not for want of the Chebyshev idea.
# * **C5 with other degree-4 filters**: four roots equally spaced over $[0.1, 0.9]$ give {glue:text}`c5_eq4:.2f`
#   of Chebyshev's error (now a baseline of C5), and the per-system ratios of Legendre to Chebyshev are bimodal
#   (see the verdict). The skeptic found that dropping one of the four systems moves the pooled ratio from well
#   inside the band to outside it.
# * **Same degree, roots at 1** (the ablation): {glue:text}`c1_rep:.2f` (C1), {glue:text}`c2_rep:.1f` (C2),
#   {glue:text}`c4b_rep:.1f` (C4b). Its failures at $n = 8$ come from noise amplification ($\|c\|_1 = 2^n$);
#   at $n = 4$ it passes C1 at {repro-seeds}`C1-symmetric-n4:ablation:pass` seeds of the ci sweep.
# * **The old control**, the monic Chebyshev polynomial of the wrong interval $[-1, 0]$: {glue:text}`wrong_c1:.1f`
#   (C1), {glue:text}`wrong_c2:.0f` (C2), {glue:text}`wrong_c6:.0f` (C6) times the plain learner's error. It
#   is large exactly where our slow modes live and fails by construction, so it no longer counts.
# * **Is the dimension test informative?** Without preconditioning the error ratio between the largest and the
#   smallest $d$ is {glue:text}`c7_none:.2f` and with differencing {glue:text}`c7_diff:.2f`, both under the
#   bar: the test cannot fail for any method on these systems, so it is now an illustration.
#
# Reviewed by an independent skeptic (2026-12-07); what they tried is above. They also found that the degree
# sweep's rise past the best degree is clear on the symmetric system only, and that the headline on
# dimension-free regret and the RNN half of the non-LDS headline have no test here; the page now says so.
#
# ## What the miniature cannot show
#
# * No LSTM/GRU arm, no ETTh1, and no learned coefficients. We use standard spectral filters, not the paper's
#   modified filters for complex spectra.
# * Spectra that reach $-1$ (real negative eigenvalues, or rotations by angles near $\pi$), where fixed
#   differencing fails and Chebyshev's smallness over all of $[-1, 1]$ would matter; our systems, the brief's,
#   stay near the positive real axis.
# * No theorem exponent ($T^{-2/13}$, $T^{-3/13}$) is tested: those are worst-case upper bounds, and our fitted
#   slopes (symmetric, Chebyshev $n = 4$: {glue:text}`slope_sym:.2f`) are descriptive only. The means over 4
#   (ci) or 20 (full) systems are heavy-tailed: one system with an eigenvalue very close to 1 can dominate an
#   average.
# * The paper's degree indexing differs from ours (see the convention above). The follow-up paper notes that
#   preconditioned sequences can have much larger gradients; we see the mild version of this on the symmetric
#   system, as error grows again at high degree.
