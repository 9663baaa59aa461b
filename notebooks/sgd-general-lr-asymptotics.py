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
# # Asymptotic theory of SGD with a general learning rate
#
# *For online least squares with Gaussian design, one covariance recursion predicts the error of SGD under
# every step-size schedule we tried (constant, polynomial, $c/t$, cyclical, linear decay to zero); there it is
# exact by construction. In logistic regression the same recursion is only a linearisation: its intervals hold
# under polynomial and linear decay but under-cover under a cyclical rate. By our derivation, linear decay to
# zero leaves a final error that shrinks like $T^{-1/2}$ in the horizon $T$. On this page every check is an
# illustration or an implementation check: the paper's theorems were not available to us, and what we can
# compute (the classical linear stochastic-approximation recursion and our own rates) tests our reading of the
# framework, not the paper.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue
from scipy.linalg import solve_continuous_lyapunov
from scipy.stats import norm

from repro.claims import Claims, at_most, between, less_than
from repro.runtime import progress, setup_notebook
from repro.stats import ks_distance, loglog_slope
from repro.papers import sgd_general_lr_asymptotics as K

P = setup_notebook(scale, seed, presets={
    # R chains, horizon T of the main runs, horizons for the Monte Carlo rate fits, logistic run
    "ci": dict(R=2000, T=4000, horizons=[500, 1000, 2000, 4000], R_log=2000, T_log=2000),
    "full": dict(R=10_000, T=16_000, horizons=[1000, 2000, 4000, 8000, 16_000], R_log=10_000, T_log=8000),
})
claims = Claims(
    "sgd-general-lr-asymptotics",
    title="Asymptotic theory of SGD with a general learning-rate",
    authors="Or Goldreich, Ziyang Wei, Soham Bonnerjee, Jiaqi Li, Wei Biao Wu",
    paper_url="https://openreview.net/forum?id=y5Diyh9XEQ",
    scale=scale, seed=seed,
)

# %% [markdown]
# ## The claim
#
# Theory for SGD has mostly been written for polynomially decaying step sizes $\eta_t \propto t^{-\alpha}$,
# while practitioners use constant rates, cyclical rates and, more and more, a linear decay of the rate to
# zero at the end of a fixed budget. The paper gives one framework that quantifies the uncertainty of the
# online SGD iterate under an *arbitrary* learning-rate sequence, and with it the first full convergence
# characterisation of two schedules used in practice: cyclical rates and linear decay to zero. It says the
# framework also yields tools for statistical inference, and that simulations corroborate the theory. What
# "uncertainty" means precisely (which moments, which limit) we read as the covariance of the iterate and a
# Gaussian limit; that reading, and the confidence intervals we build on it, are ours.
#
# We could read only the abstract and metadata of the paper: its theorems, normalisations and numbers were
# not available to us. This page is therefore a **numerical verification of the phenomena the abstract
# names**, built on the standard linear stochastic-approximation view of SGD. The rates below
# ($T^{-1/2}$ for linear decay, $T^{-1}$ for $c/t$, no decay for a constant rate) are our own derivations,
# not numbers quoted from the paper. The abstract gives no numbers, so there is no table of the paper's
# numbers beside ours.
#
# ## The method
#
# Online SGD takes one fresh sample per step, $\theta_{t+1} = \theta_t - \eta_t \nabla \ell(\theta_t; z_{t+1})$.
# Writing $\delta_t = \theta_t - \theta^\star$, near the optimum
# $$\delta_{t+1} \approx (I - \eta_t H)\,\delta_t - \eta_t \xi_{t+1},$$
# with $H$ the Hessian and $\xi$ the gradient noise of covariance $S$. The second moment
# $\Sigma_t = \mathbb E[\delta_t\delta_t^\top]$ then follows a deterministic recursion that takes the schedule
# $(\eta_t)$ as an input, whatever it is:
# $$\Sigma_{t+1} = (I-\eta_t H)\,\Sigma_t\,(I-\eta_t H)^\top + \eta_t^2 S .$$
# For least squares with Gaussian design $x\sim N(0,H)$, $y = x^\top\theta^\star + \sigma\varepsilon$, the gradient
# noise also depends on $\delta_t$; Isserlis' theorem ($\mathbb E[xx^\top A xx^\top] = 2HAH + \operatorname{tr}(HA)H$)
# makes the recursion **exact**:
# $$\Sigma_{t+1} = \Sigma_t - \eta_t(H\Sigma_t + \Sigma_t H) + \eta_t^2\bigl(2H\Sigma_tH + \operatorname{tr}(H\Sigma_t)H + \sigma^2 H\bigr).$$
# This is `second_moment_recursion(H, sigma, etas, Sigma0)`, returning $\Sigma_0,\dots,\Sigma_T$.
#
# *Why linear decay gives $T^{-1/2}$ (our derivation).* In one eigendirection (curvature $h$, noise $s$) and
# with $\eta_t = \eta_0(1-t/T)$, the variance tracks its local equilibrium $\eta_t s/(2h)$ as long as the
# relaxation time $1/(\eta_t h)$ is shorter than the remaining time $T-t$. That stops when
# $T-t \approx \sqrt{T/(\eta_0 h)}$, where the rate is $\eta \approx \sqrt{\eta_0/(hT)}$; this frozen level is the
# final error. A Laplace approximation of the sum gives
# $$v_T \approx \tfrac{\sqrt\pi}{4}\, s\, h^{-3/2}\sqrt{\eta_0/T},$$
# an error of order $T^{-1/2}$, between a constant rate (no decay, $v\approx\eta s/2h$) and $c/t$ with
# $ch>1/2$ (order $T^{-1}$). In the scalar additive case ($h=s=1$, $\eta_0=0.1$, $v_0=0$,
# $T\in\{10^3,\dots,6.4\cdot10^4\}$) the scalar recursion, computed below, gives log-log slopes
# {glue:text}`brief_slope_lin:.4f` (linear decay), {glue:text}`brief_slope_ct:.3f` ($\eta_t=2/(t+20)$, i.e.
# $\eta\approx2/(ht)$) and {glue:text}`brief_slope_const:.3f` (constant, absolute value); these are our numbers,
# not the paper's.
#
# For a nonlinear model (logistic regression) the same additive recursion, with $H$ the Hessian and $S$ the
# gradient-noise covariance at $\theta^\star$, should give the covariance of an asymptotically Gaussian last
# iterate, so $u^\top\theta_T \pm 1.96\sqrt{u^\top\Sigma_T u}$ should be a 95% confidence interval for $u^\top\theta^\star$.
#
# ## The experiment
#
# * **Model.** Online least squares in $d=5$, $H=\operatorname{diag}(1, .5, .25, .1, .05)$ (condition number 20),
#   $\sigma=1$, $\theta^\star=\mathbf 1$, start $\theta_0=0$ (so $\Sigma_0=\theta^\star\theta^{\star\top}$).
# * **Schedules** (all with peak rate $0.25$, half the mean-square stability limit $2/(2\lambda_{\max}+\operatorname{tr}H)\approx0.51$):
#   constant $0.25$; polynomial $0.25\,(t+1)^{-0.6}$; $c/t$ as $20/(t+80)$ so that $c\lambda_{\min}=1>1/2$;
#   cyclical triangular between $0.01$ and $0.25$ with period 200; linear decay $0.25(1-t/T)$.
#   Constant, polynomial and $c/t$ are the classical baselines for the two schedules the paper singles out.
# * **Monte Carlo.** $R$ independent SGD chains, all advanced at once as one array (numpy);
#   second moments and $\mathbb E\|\delta_T\|^2$ are averages over chains.
# * **Rates.** Log-log slope of $\mathbb E\|\delta_T\|^2$ against $T$ (shared helper `loglog_slope`), from
#   Monte Carlo over the horizons of the preset, and from the exact recursion over $T\in\{10^3,\dots,6.4\cdot10^4\}$.
# * **Gaussian limit.** Logistic regression, $d=3$, $x\sim N(0,I)$, $\theta^\star=(1,-1,0.5)$,
#   $\eta_t = (t+1)^{-0.6}$, $\theta_0=0$; KS distance (shared helper `ks_distance`) of
#   $u^\top\delta_T/\sqrt{u^\top\Sigma_T u}$ from $N(0,1)$, with $u=\mathbf 1/\sqrt3$, and coverage of the 95% intervals.
# * **Roles of the checks: all are illustrations or implementation checks.** We could not read the paper's
#   theorems, so no measurement here can be compared with what the paper states. What we can compute is not
#   the paper's: (i) for Gaussian least squares the second-moment recursion is *exact* (Isserlis), so the Monte
#   Carlo average agreeing with it checks our simulator against our formula (implementation checks);
#   (ii) the $T^{-1/2}$ rate of linear decay and the constant in front are our own derivation, evaluated by our
#   own recursion, or by simulation of a model in which the recursion is exact; (iii) the $1/T$ rate of $c/t$
#   with $c\lambda_{\min}>1/2$, the flat error of a constant rate and the periodic steady state of a periodic
#   linear recursion are classical facts of stochastic approximation; (iv) in the nonlinear (logistic) model, the
#   Gaussian limit of the last iterate under polynomial decay, with a covariance from the linearised recursion,
#   is the classical decaying-step CLT (Fabian 1968; Polyak and Juditsky 1992); both of its bars are also
#   passed by the classical $\eta_{T-1}X$ covariance, which ignores the schedule, and the coverage window by a
#   case where the Gaussian approximation is off (below). None of these would fail if the paper
#   were wrong, so none is counted, and the page is *illustrated, not tested*. A test would need the paper's own
#   statement of the linear-decay or cyclical result (its rate, normalisation and constant), measured by Monte
#   Carlo in a model where our linearisation is not exact.
# * **Contrasts shown beside the illustrations** (the same measurement where the phenomenon should not
#   appear, or a naive skeptic's alternative). *Recursion vs Monte Carlo* and *cyclical level:*
#   the quasi-static prediction, the constant-rate fixed point of the recursion at the current rate
#   (`K.stationary_second_moment`), which forgets the schedule's history. *Linear-decay rate:* other decaying
#   schedules under the same measurement and window: $c/t$ with small $c$ (below) and polynomial decay. Both can
#   land in the window $[-0.6,-0.4]$, so the window does not single out linear decay. The constant rate is no
#   comparison for the rate, since it is flat by construction (last bullet). *$c/t$ rate:* $5/(t+20)$, same peak
#   rate but $c\lambda_{\min}=1/4<1/2$, for which the classical rate is slower than $1/T$ (its chains draw
#   from a separate random stream, so the other runs are unchanged). *Cyclical steady state:* the $c/t$
#   schedule sampled at the same cycle ends, which keeps decaying. *Gaussian limit and coverage:* the same
#   logistic run with $\eta_0=0.5$, where $\sum_t\eta_t\lambda_{\min}<4$ and the start is not forgotten; and the
#   same $\eta_0=1$ chains standardised by the classical small-step covariance $\eta_{T-1}X$ ($HX+XH=S$) in place
#   of the recursion.
# * **Logistic regression under the schedules the paper singles out** (added after the independent review, so
#   shown as a contrast and not counted). The same KS and coverage measurement, with the same bars, under linear
#   decay $\eta_t=\eta_0(1-t/T)$ and under a triangular cyclical rate between $0.05\,\eta_0$ and $\eta_0$ with
#   period 200. The peak is fixed by a rule, not tuned: $\eta_0=1$, the page's logistic peak, and the cyclical
#   shape of the least-squares runs (minimum a twentieth of the peak, period 200). Each run has its own random
#   stream. Beside the recursion, the classical $\eta_{T-1}X$ covariance, which ignores the schedule. Here the
#   recursion is only a linearisation, so the Monte Carlo is an independent computation and the check can fail.
#   It still tests our reading of the framework, not the paper's unseen theorem.
# * The constant-rate slope is listed only as a check of our implementation: every horizon is many relaxation
#   times $1/(\eta\lambda_{\min})=80$ steps long, so a flat final error holds by the choice of horizons.
#
# Deviations from the paper:
#
# * We do not know the paper's theorems; the recursion, the rates and the formula for linear decay are ours
#   (standard linear stochastic approximation), so agreement with the paper can only be qualitative.
# * Synthetic problems only (Gaussian-design least squares, $d=5$; logistic regression, $d=3$), no real data.
# * Horizons up to $T=4000$ ($16\,000$ at full scale) in Monte Carlo; larger horizons only through the recursion.
# * The confidence intervals use the true $H$ and $S$ (an oracle plug-in), not estimates from the data, so
#   they test the Gaussian approximation, not a complete inference procedure.
# * The logistic step $\eta_0=1$ was chosen so that the start is forgotten ($\sum_t\eta_t\lambda_{\min}(H)\ge4$),
#   after $\eta_0=0.5$ had been seen to fail at `ci` scale. With $\eta_0=0.5$ the leftover bias of the start
#   dominates (shown below as a contrast). Both logistic checks are illustrations now, so the choice moves no
#   badge; it is named here because it was made after seeing a run.

# %%
H = np.diag([1.0, 0.5, 0.25, 0.1, 0.05])
sigma, d = 1.0, 5
theta_star, theta0 = np.ones(d), np.zeros(d)
Sigma0 = np.outer(theta0 - theta_star, theta0 - theta_star)
PEAK = 0.25
SPEC = {  # schedule name -> keyword arguments of K.lr_schedule
    "constant": dict(kind="constant", eta0=PEAK),
    "polynomial": dict(kind="polynomial", eta0=PEAK, alpha=0.6),
    "c/t": dict(kind="inverse", c=20.0, t0=80.0),
    "cyclical": dict(kind="cyclic", eta0=PEAK, eta_min=0.01, period=200),
    "linear decay": dict(kind="linear", eta0=PEAK),
}


def schedule(name, T):
    return K.lr_schedule(T=T, **SPEC[name])


T = P.T
track = np.unique(np.r_[np.geomspace(1, T, 30).astype(int), P.horizons, np.arange(200, T + 1, 200)])
rec_runs, mc_runs = {}, {}
for name in progress(SPEC, desc="schedules"):
    etas = schedule(name, T)
    rec_runs[name] = K.second_moment_recursion(H, sigma, etas, Sigma0)
    mc_runs[name] = K.sgd_linreg_mc(H, theta_star, sigma, etas, theta0, P.R, P.rng, record=track)

rel_err = {n: K.relative_frobenius_error(K.second_moment(mc_runs[n][-1]), rec_runs[n][T]) for n in SPEC}
# control (naive baseline): the quasi-static prediction, the constant-rate fixed point at each schedule's
# final rate, which forgets the schedule's history
qs_err = {n: K.relative_frobenius_error(K.second_moment(mc_runs[n][-1]),
                                        K.stationary_second_moment(H, sigma, schedule(n, T)[-1])) for n in SPEC}
for n, e in rel_err.items():
    print(f"{n:13s} relative Frobenius error of the MC second moment at T={T}: recursion {e:.3f}, "
          f"quasi-static {qs_err[n]:.3f}")

# %% [markdown]
# ## Results
#
# **The recursion against simulation.** Lines are the recursion, markers the average over the $R$ chains, for the
# mean squared error $\mathbb E\|\theta_t-\theta^\star\|^2 = \operatorname{tr}\Sigma_t$.

# %%
fig, ax = plt.subplots(figsize=(6.4, 3.8))
for i, name in enumerate(SPEC):
    col = f"C{i}"
    ax.plot(np.arange(T + 1), np.trace(rec_runs[name], axis1=1, axis2=2), color=col, lw=1.2, label=name)
    sel = np.isin(track, np.geomspace(1, T, 30).astype(int))
    ax.plot(track[sel], (mc_runs[name][sel] ** 2).sum(-1).mean(-1), "o", color=col, ms=3.5, mfc="none")
ax.plot([], [], "ko", mfc="none", ms=3.5, label=f"Monte Carlo, R={P.R}")
ax.set(xscale="log", yscale="log", xlabel="step t", ylabel=r"$\mathbb{E}\,\|\theta_t-\theta^\star\|^2$",
       title=f"Predicted (lines) vs simulated (markers) error, horizon T={T}")
ax.legend(ncol=2)
plt.show()

# %% [markdown]
# **Final error against the horizon.** For each horizon $T$ we run the schedule for $T$ steps (the linear
# decay is re-stretched to end at $T$; the other schedules do not depend on $T$, so one run gives all horizons)
# and plot the final mean squared error. Markers: Monte Carlo; lines: the recursion out to $T=64\,000$;
# dashed: our large-$T$ formula for linear decay, summed over the five eigendirections
# ($s_i=\sigma^2\lambda_i$, multiplicative noise neglected).
#
# The paper's numbers were not available; the table below gives the slopes for the $d=5$ problem, beside our
# own scalar derivation (see the method).

# %%
Ts = np.array(P.horizons)
mc_final = {}
for name in ("constant", "polynomial", "c/t"):
    mc_final[name] = (mc_runs[name][np.searchsorted(track, Ts)] ** 2).sum(-1).mean(-1)
lin = []
for Th in progress(Ts, desc="linear-decay horizons"):
    if Th == T:
        lin.append((mc_runs["linear decay"][-1] ** 2).sum(-1).mean())
    else:
        D = K.sgd_linreg_mc(H, theta_star, sigma, schedule("linear decay", int(Th)), theta0, P.R, P.rng)
        lin.append((D**2).sum(-1).mean())
mc_final["linear decay"] = np.array(lin)
mc_slope = {n: loglog_slope(Ts, v) for n, v in mc_final.items()}

T_big = np.array([1000, 4000, 16_000, 64_000])  # horizons of the recursion-based slopes
T_line = np.unique(np.r_[Ts, T_big])  # horizons drawn for linear decay (one recursion per horizon)
T_dense = np.unique(np.geomspace(Ts[0], T_big[-1], 40).astype(int))
rec_line, rec_final = {}, {}
for name in ("constant", "polynomial", "c/t"):
    tr = np.trace(K.second_moment_recursion(H, sigma, schedule(name, int(T_big[-1])), Sigma0), axis1=1, axis2=2)
    rec_line[name], rec_final[name] = (T_dense, tr[T_dense]), tr[T_big]
lin_rec = np.array(
    [np.trace(K.second_moment_recursion(H, sigma, schedule("linear decay", int(Th)), Sigma0)[-1]) for Th in T_line])
rec_line["linear decay"], rec_final["linear decay"] = (T_line, lin_rec), lin_rec[np.isin(T_line, T_big)]
rec_slope = {n: loglog_slope(T_big, v) for n, v in rec_final.items()}
# control of the c/t rate: c/t with c*lambda_min = 1/4 < 1/2 (same peak rate 0.25), own random stream
rng_ctrl = np.random.default_rng([seed, 1])
small_c = K.lr_schedule(T=T, kind="inverse", c=5.0, t0=20.0)
mc_small_c = K.sgd_linreg_mc(H, theta_star, sigma, small_c, theta0, P.R, rng_ctrl, record=track)
mc_slope_small_c = loglog_slope(Ts, (mc_small_c[np.searchsorted(track, Ts)] ** 2).sum(-1).mean(-1))
# is the polynomial slope a variance rate? Share of the error at the largest MC horizon that the starting
# point leaves (the recursion without noise, sigma = 0), against the full recursion
poly_bias_share = float(np.trace(K.second_moment_recursion(H, 0.0, schedule("polynomial", int(Ts[-1])), Sigma0)[-1])
                        / rec_runs["polynomial"][int(Ts[-1])].trace())
# the window of the linear-decay rate, applied to the other decaying schedules
in_window = {n: bool(-0.6 <= v <= -0.4) for n, v in {**mc_slope, "small c": mc_slope_small_c}.items()}


def scalar_final_variance(etas, h=1.0, s=1.0):
    """v_T of the scalar additive recursion v_{t+1} = (1 - eta_t h)^2 v_t + eta_t^2 s from v_0 = 0, unrolled."""
    log_a = 2.0 * np.log(np.abs(1.0 - etas * h))
    after = np.r_[np.cumsum(log_a[::-1])[::-1][1:], 0.0]  # log prod_{u>t} (1 - eta_u h)^2
    return float(np.sum(etas**2 * s * np.exp(after)))


# the brief's check of our derivation (h = s = 1, eta0 = 0.1), recomputed here
brief_slope = {k: loglog_slope(T_big, [scalar_final_variance(K.lr_schedule(T=int(Th), **kw)) for Th in T_big])
               for k, kw in {"lin": dict(kind="linear", eta0=0.1), "ct": dict(kind="inverse", c=2.0, t0=20.0),
                             "const": dict(kind="constant", eta0=0.1)}.items()}
lam = np.diag(H)
lin_formula = sum(K.linear_decay_final_variance(l, sigma**2 * l, PEAK, T_line) for l in lam)
print("slope of log E|delta_T|^2 vs log T")
print(f"{'schedule':13s} {'MC, T<=' + str(Ts[-1]):>12s} {'recursion, T<=64000':>20s}")
for n in mc_slope:
    print(f"{n:13s} {mc_slope[n]:12.3f} {rec_slope[n]:20.3f}")
print(f"{'c/t, c=5':13s} {mc_slope_small_c:12.3f}   (control: c*lambda_min = 1/4 < 1/2)")
print("linear decay: recursion / formula at T =", T_line, ":", np.round(lin_rec / lin_formula, 3))
print(f"polynomial: share of the starting point in the error at T={Ts[-1]}: {poly_bias_share:.2f}")
print("in the linear-decay window [-0.6, -0.4] (MC):", in_window)
print("scalar check of the derivation (slopes): " + ", ".join(f"{k} {v:.4f}" for k, v in brief_slope.items()))

# %%
fig, ax = plt.subplots(figsize=(6.4, 3.8))
for i, name in enumerate(["constant", "polynomial", "c/t", "linear decay"]):
    col = f"C{[0, 1, 2, 4][i]}"
    ax.plot(*rec_line[name], "-", color=col, lw=1.2,
            label=f"{name}: slope {mc_slope[name]:.2f} (MC), {rec_slope[name]:.2f} (rec.)")
    ax.plot(Ts, mc_final[name], "o", color=col, ms=5, mfc="none")
ax.plot(T_line, lin_formula, "k--", lw=1, label=r"linear decay, formula $\propto T^{-1/2}$")
ax.set(xscale="log", yscale="log", xlabel="horizon T (steps)", ylabel=r"final $\mathbb{E}\,\|\theta_T-\theta^\star\|^2$",
       title="Final error vs horizon (markers: Monte Carlo, lines: recursion)")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# The polynomial baseline is not in the rate checks: over these horizons its curve still carries the slowly
# forgotten initial error (see the verdict), so no single slope describes it.
#
# **Cyclical rates.** The error oscillates with the cycle; sampled at the end of each cycle (where the rate is
# back at its minimum) it settles to a periodic steady state rather than decaying, because each cycle is the
# same contraction plus the same injected noise.

# %%
period = SPEC["cyclical"]["period"]
ends = np.arange(period, T + 1, period)
rec_cyc = np.trace(rec_runs["cyclical"][ends], axis1=1, axis2=2)
mc_cyc = (mc_runs["cyclical"][np.searchsorted(track, ends)] ** 2).sum(-1).mean(-1)
late = np.arange(len(ends)) >= 10  # cycles 11, 12, ...
cyc_settle = K.cycles_to_steady_state(rec_cyc, rtol=0.01)  # cycles until every later change is < 1%
cyc_mc_dev = float(np.max(np.abs(mc_cyc[late] - rec_cyc[late]) / rec_cyc[late]))
# controls: a decaying schedule (c/t) sampled at the same cycle ends, which should not settle; and the
# quasi-static prediction at the cycle-end rate in place of the recursion
ct_settle = K.cycles_to_steady_state(np.trace(rec_runs["c/t"][ends], axis1=1, axis2=2), rtol=0.01)
qs_cyc = np.array([np.trace(K.stationary_second_moment(H, sigma, schedule("cyclical", T)[e - 1])) for e in ends])
qs_cyc_dev = float(np.max(np.abs(mc_cyc[late] - qs_cyc[late]) / qs_cyc[late]))
print(f"steady cycle-end level (recursion): {rec_cyc[-1]:.4f}; constant rate 0.25: {np.trace(rec_runs['constant'][T]):.4f}")
print(f"cycles until cycle-end changes stay below 1%: {cyc_settle} (c/t control: {ct_settle} of {len(ends)}); "
      f"max |MC-rec|/rec after cycle 10: {cyc_mc_dev:.3f} (quasi-static: {qs_cyc_dev:.2f})")

# %% [markdown]
# **Gaussian limit and confidence intervals (logistic regression).**

# %%
ts_log = np.array([1.0, -1.0, 0.5])
H_log = K.logistic_hessian_gaussian(ts_log)  # equals the gradient-noise covariance at theta*
u = np.ones(3) / np.sqrt(3)
clt = {}
for eta0 in (1.0, 0.5):
    etas = K.lr_schedule("polynomial", P.T_log, eta0=eta0, alpha=0.6)
    Sig_T = K.linear_sa_recursion(H_log, H_log, etas, np.outer(ts_log, ts_log))[-1]
    D = K.sgd_logreg_mc(ts_log, etas, np.zeros(3), P.R_log, P.rng)
    sd = float(np.sqrt(u @ Sig_T @ u))
    z = D @ u / sd
    # skeptic's alternative: the classical small-step covariance eta_{T-1} X, with H X + X H = S (S = H here)
    sd_cls = float(np.sqrt(etas[-1] * u @ solve_continuous_lyapunov(H_log, H_log) @ u))
    clt[eta0] = dict(z=z, ks=ks_distance(z, norm.cdf), cover=K.ci_coverage((D + ts_log) @ u, sd, float(u @ ts_log)),
                     forget=float(etas.sum() * np.linalg.eigvalsh(H_log).min()),
                     ks_cls=ks_distance(D @ u / sd_cls, norm.cdf), sd_ratio_cls=sd_cls / sd,
                     cover_cls=K.ci_coverage((D + ts_log) @ u, sd_cls, float(u @ ts_log)))
    print(f"eta0={eta0}: sum eta*lambda_min={clt[eta0]['forget']:.2f}, KS={clt[eta0]['ks']:.3f}, "
          f"mean z={z.mean():+.3f}, sd z={z.std():.3f}, 95% CI coverage={clt[eta0]['cover']:.3f}; "
          f"classical eta_(T-1) X covariance: KS={clt[eta0]['ks_cls']:.3f}, coverage={clt[eta0]['cover_cls']:.3f}")

# %% [markdown]
# **The schedules the paper singles out, in the logistic model** (a contrast added after the review, not
# counted). Peak $\eta_0=1$ for both; the cyclical rate runs between $0.05$ and $1$ with period 200.

# %%
BARS = dict(ks=0.05, cover=(0.93, 0.97))  # the brief's bars, as in clt-logistic-ks and ci-coverage
X_log = solve_continuous_lyapunov(H_log, H_log)
sched_log = {"linear": K.lr_schedule("linear", P.T_log, eta0=1.0),
             "cyclic": K.lr_schedule("cyclic", P.T_log, eta0=1.0, eta_min=0.05, period=200)}
log_sched = {}
for k, (name, etas) in enumerate(sched_log.items()):
    D = K.sgd_logreg_mc(ts_log, etas, np.zeros(3), P.R_log, np.random.default_rng([seed, 2 + k]))  # own stream
    Sig_T = K.linear_sa_recursion(H_log, H_log, etas, np.outer(ts_log, ts_log))[-1]
    row = {}
    for who, sd in {"rec": np.sqrt(u @ Sig_T @ u), "cls": np.sqrt(etas[-1] * u @ X_log @ u)}.items():
        ks = ks_distance(D @ u / sd, norm.cdf)
        cover = K.ci_coverage((D + ts_log) @ u, float(sd), float(u @ ts_log))
        row[who] = dict(ks=ks, cover=cover,
                        passes=bool(ks < BARS["ks"] and BARS["cover"][0] <= cover <= BARS["cover"][1]))
    log_sched[name] = row
    print(f"{name:7s} recursion: KS={row['rec']['ks']:.3f}, coverage={row['rec']['cover']:.3f}; "
          f"classical eta_(T-1) X: KS={row['cls']['ks']:.3f}, coverage={row['cls']['cover']:.3f}")

# %%
fig, (a1, a2) = plt.subplots(1, 2, figsize=(7.6, 3.2))
grid = np.linspace(-4, 4, 200)
a1.hist(clt[1.0]["z"], bins=40, density=True, color="C0", alpha=0.6, label=r"$\eta_0=1$")
a1.hist(clt[0.5]["z"], bins=40, density=True, histtype="step", color="C1", label=r"$\eta_0=0.5$")
a1.plot(grid, norm.pdf(grid), "k", lw=1, label="N(0,1)")
a1.set(xlabel=r"$u^\top(\theta_T-\theta^\star)/\sqrt{u^\top\Sigma_T u}$", ylabel="density",
       title=f"Logistic SGD, T={P.T_log}")
a1.legend(fontsize=8)
a2.plot(ends / period, rec_cyc, "-", color="C3", label="recursion")
a2.plot(ends / period, mc_cyc, "o", color="C3", mfc="none", ms=4, label="Monte Carlo")
a2.set(xlabel="cycle k (end of cycle)", ylabel=r"$\mathbb{E}\,\|\theta_{kP}-\theta^\star\|^2$",
       title="Cyclical rate: cycle-end error")
a2.legend(fontsize=8)
plt.show()

# %% [markdown]
# The thresholds below are the reproduction brief's, fixed before the first run: relative Frobenius error
# $\le 0.10$ for every schedule; slopes in $[-0.6,-0.4]$ (linear decay), $[-1.1,-0.9]$ ($c/t$) and
# $[-0.1,0.1]$ (constant); KS $<0.05$ and coverage in $[0.93,0.97]$ for the logistic model; cycle-end
# change $<1\%$ within 10 cycles and Monte Carlo within 10% of the recursion. None is the paper's (the paper's
# numbers were not available), and every check is an illustration or an implementation check (see "Roles of
# the checks" in the experiment).

# %%
PAPER = "not retrieved (abstract only); the rate is our derivation"
NO_THEOREM = "the paper's theorems were not available, so this cannot be compared with what the paper states; "
claims.check("recursion-matches-mc", kind="implementation",
             statement="The second-moment recursion predicts the Monte Carlo second moment of theta_T - theta* "
                       "for all five schedules (max relative Frobenius error); for Gaussian least squares the "
                       "recursion is exact (Isserlis), so this checks our simulator against our formula",
             paper="a unified framework for arbitrary learning rates (abstract); no numbers retrieved",
             criterion=at_most(0.10), measured=float(max(rel_err.values())))
claims.illustrate("rate-linear-decay-mc",
                  statement="Linear decay to zero: final E|delta_T|^2 falls like T^(-1/2) (Monte Carlo log-log slope)",
                  paper=PAPER, criterion=between(-0.6, -0.4), measured=float(mc_slope["linear decay"]),
                  why=NO_THEOREM + "the T^(-1/2) rate is our own derivation, and the simulated model is one in "
                      "which the recursion we derived it from is exact, so Monte Carlo adds only noise")
claims.illustrate("rate-linear-decay-recursion",
                  statement="Same slope from the exact recursion over T = 1e3 ... 6.4e4",
                  paper=PAPER, criterion=between(-0.6, -0.4), measured=float(rec_slope["linear decay"]),
                  why="our own derivation evaluated by our own recursion: it checks our algebra, not the paper")
claims.illustrate("rate-c-over-t-mc",
                  statement="Baseline c/t with c*lambda_min > 1/2: final error falls like 1/T (Monte Carlo slope)",
                  paper="classical rate, not from the paper", criterion=between(-1.1, -0.9),
                  measured=float(mc_slope["c/t"]),
                  why="the 1/T rate of c/t steps with c*lambda_min > 1/2 is a classical stochastic-approximation "
                      "result (prior work), not a claim of the paper")
claims.check("rate-constant-mc", kind="implementation",
             statement="Baseline constant rate: final error does not decay with T (Monte Carlo slope); every horizon "
                       "is many relaxation times 1/(eta*lambda_min) = 80 long, so this holds by the choice of horizons",
             paper="classical behaviour, not from the paper", criterion=between(-0.1, 0.1),
             measured=float(mc_slope["constant"]))
claims.illustrate("cyclical-steady-state",
                  statement="Cyclical rate: cycle-end error reaches a periodic steady state (cycles until the "
                            "relative change between consecutive cycle ends stays below 1%, recursion)",
                  paper="cyclical rates characterised (abstract); no numbers retrieved",
                  criterion=at_most(10), measured=cyc_settle,
                  why=NO_THEOREM + "a linear recursion with periodic coefficients that contracts over a period "
                      "converges to a periodic steady state (classical); the count is read off our own recursion")
claims.check("cyclical-mc-level", kind="implementation",
             statement="Cyclical rate: Monte Carlo cycle-end error within 10% of the recursion after 10 cycles "
                       "(the recursion is exact for this model: our simulator against our formula)",
             paper="cyclical rates characterised (abstract); no numbers retrieved",
             criterion=at_most(0.10), measured=cyc_mc_dev)
claims.illustrate("clt-logistic-ks",
                  statement="Logistic SGD, polynomial decay eta0 (t+1)^-0.6 with eta0 = 1: standardised projection "
                            "of the last iterate is N(0,1) (KS)",
                  paper="uncertainty quantification / inference tools (abstract)",
                  criterion=less_than(0.05), measured=float(clt[1.0]["ks"]),
                  why="the Gaussian limit of the last iterate under polynomially decaying steps is the classical "
                      "decaying-step CLT (Fabian 1968; Polyak-Juditsky 1992), which the paper says has long been "
                      "known; the classical eta_(T-1) X covariance, which ignores the schedule, passes the same bar; "
                      "eta0 = 1 was chosen after eta0 = 0.5 had been seen to fail at ci scale")
claims.illustrate("ci-coverage",
                  statement="Recursion-based 95% intervals for u'theta* cover at the nominal rate (eta0 = 1)",
                  paper="inference tools (abstract)", criterion=between(0.93, 0.97), measured=float(clt[1.0]["cover"]),
                  why="oracle intervals (true H and S) under the classical decaying-step CLT; the classical "
                      "eta_(T-1) X covariance, which ignores the schedule, can reach the window too; and the window is "
                      "also reached by eta0 = 0.5, whose standardised iterate is shifted and too narrow, so "
                      "coverage in it does not show the Gaussian approximation is right")

# %%
claims.headline("unified-framework",
                "One framework quantifies the uncertainty of online SGD under any learning-rate schedule",
                untestable="the paper's framework and theorems were not available (abstract only); the recursion we "
                           "can compute is the classical linear stochastic-approximation second-moment recursion, "
                           "exact for Gaussian least squares by construction, so agreement with simulation "
                           "(recursion-matches-mc, cyclical-mc-level) checks our code, not the paper; in logistic "
                           "regression it is a linearisation, shown as an uncounted contrast (added after the review) "
                           "that tests our reading of the framework, not the paper's theorem")
claims.headline("cyclical-and-linear-decay",
                "It gives the first full convergence characterisations of cyclical learning rates and of linear "
                "decay to zero",
                untestable="the paper's rates, normalisations and constants for these schedules were not retrieved; "
                           "the T^(-1/2) rate of linear decay and the periodic steady state of cyclical rates shown "
                           "here are our own derivation and a classical fact (illustrations rate-linear-decay-mc, "
                           "rate-linear-decay-recursion, cyclical-steady-state)")
claims.headline("inference-tools",
                "The framework yields tools for statistical inference and algorithm design",
                untestable="the paper's inference procedure is unknown to us; our oracle intervals under polynomial "
                           "decay rest on the classical decaying-step CLT (illustrations clt-logistic-ks, "
                           "ci-coverage), and no algorithm-design rule of the paper was available")

# %%
i_T = int(np.searchsorted(Ts, T))
for key, x in {
    "rel_err_max": max(rel_err.values()), "qs_err_min": min(qs_err.values()), "qs_err_max": max(qs_err.values()),
    "qs_err_lin": qs_err["linear decay"], "qs_err_const": qs_err["constant"],
    "mc_slope_lin": mc_slope["linear decay"], "rec_slope_lin": rec_slope["linear decay"],
    "mc_slope_ct": mc_slope["c/t"], "mc_slope_small_c": mc_slope_small_c, "mc_slope_const": mc_slope["constant"],
    "rec_slope_const": abs(rec_slope["constant"]), "mc_slope_poly": mc_slope["polynomial"],
    "rec_slope_poly": rec_slope["polynomial"],
    "lin_formula_ratio_big": lin_rec[-1] / lin_formula[-1],
    "final_lin": mc_final["linear decay"][i_T], "final_poly": mc_final["polynomial"][i_T],
    "final_ct": mc_final["c/t"][i_T], "final_const": mc_final["constant"][i_T],
    "cyc_level": rec_cyc[-1], "const_level": np.trace(rec_runs["constant"][T]),
    "cyc_mc_dev": cyc_mc_dev, "qs_cyc_dev": qs_cyc_dev,
    "ks_1": clt[1.0]["ks"], "ks_05": clt[0.5]["ks"], "cover_1": clt[1.0]["cover"], "cover_05": clt[0.5]["cover"],
    "mean_z_05": clt[0.5]["z"].mean(), "sd_z_05": clt[0.5]["z"].std(),
    "forget_1": clt[1.0]["forget"], "forget_05": clt[0.5]["forget"],
    "ks_cls_1": clt[1.0]["ks_cls"], "cover_cls_1": clt[1.0]["cover_cls"], "sd_ratio_cls": clt[1.0]["sd_ratio_cls"],
    "brief_slope_lin": brief_slope["lin"], "brief_slope_ct": brief_slope["ct"],
    "brief_slope_const": abs(brief_slope["const"]), "poly_bias_share": poly_bias_share,
    **{f"log_{n}_{k}_{who}": log_sched[n][who][k]
       for n in log_sched for who in ("rec", "cls") for k in ("ks", "cover")},
}.items():
    glue(key, float(x), display=False)
cls_1_passes = clt[1.0]["ks_cls"] < BARS["ks"] and BARS["cover"][0] <= clt[1.0]["cover_cls"] <= BARS["cover"][1]
for key, word in {
    "cls_1_word": "passes both bars" if cls_1_passes else "does not pass both bars",
    "small_c_window": "inside" if in_window["small c"] else "outside",
    "poly_window": "inside" if in_window["polynomial"] else "outside",
    **{f"log_{n}_{who}_word": "passes both bars" if log_sched[n][who]["passes"] else "fails"
       for n in log_sched for who in ("rec", "cls")},
}.items():
    glue(key, word, display=False)
for key, x in {"cyc_settle": cyc_settle, "ct_settle": ct_settle, "n_cycles": len(ends), "T": T, "R": P.R,
               "T_log": P.T_log, "T_max": Ts[-1]}.items():
    glue(key, int(x), display=False)

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
# Every check on this page is an illustration or an implementation check, so the page is illustrated, not
# tested. We could read only the abstract: the paper's theorems, normalisations and numbers were not available,
# and everything we can compute is either the classical linear stochastic-approximation recursion (exact for
# Gaussian least squares), our own derivation, or a classical result. None of it could fail if the paper were
# wrong; the logistic contrast in the last bullet can fail, but it tests our linearisation, not the paper. What
# the miniature shows, at this seed:
#
# * For Gaussian least squares, one deterministic recursion, fed the schedule as an input, predicts the
#   simulated second moment of the SGD error for all five schedules, along the whole trajectory (first figure): the largest relative Frobenius error
#   at $T=$ {glue:text}`T` is {glue:text}`rel_err_max:.3f`, Monte Carlo noise at $R=$ {glue:text}`R`, since the
#   recursion is exact here. The quasi-static prediction (the stationary level at the current rate) has a
#   relative error of {glue:text}`qs_err_lin:.0f` for linear decay: the history of the schedule matters, which is the
#   point of a framework for arbitrary schedules.
# * Linear decay to zero: the final error falls with slope {glue:text}`mc_slope_lin:.2f` on log-log axes in the
#   simulation and {glue:text}`rec_slope_lin:.2f` in the recursion, close to the $-1/2$ of our derivation, and the
#   recursion is within a factor {glue:text}`lin_formula_ratio_big:.3f` of our closed-form constant at
#   $T=64\,000$. A constant rate does not improve with $T$; $c/t$ reaches $1/T$ (slope
#   {glue:text}`mc_slope_ct:.2f`) when $c\lambda_{\min}>1/2$, and only {glue:text}`mc_slope_small_c:.2f` when
#   $c\lambda_{\min}=1/4$. That slope is {glue:text}`small_c_window` the linear-decay window $[-0.6,-0.4]$, and
#   polynomial decay ({glue:text}`mc_slope_poly:.3f`) is {glue:text}`poly_window` it: the window does not single
#   out linear decay, so the Monte Carlo slope illustrates our derivation but could not identify the schedule.
# * Polynomial decay $t^{-0.6}$ is still dominated by the slowly forgotten starting point in the flattest
#   direction ($\lambda_{\min}=0.05$; the bias decays like $\exp(-2\lambda_{\min}\sum_t\eta_t)$ with
#   $\sum_t\eta_t\propto T^{0.4}$): at $T=$ {glue:text}`T_max` the starting point still makes up a share
#   {glue:text}`poly_bias_share:.2f` of the error in the recursion. Its Monte Carlo slope over the short horizons,
#   {glue:text}`mc_slope_poly:.2f`, is therefore a bias slope, and that it matches the variance rate $-0.6$ of
#   $t^{-0.6}$ is a coincidence of these horizons; over longer horizons the recursion gives
#   {glue:text}`rec_slope_poly:.2f`. This is the slow convergence that the abstract gives as the reason such
#   schedules are rarely used.
# * A cyclical rate does not converge: the error at cycle ends settles to a periodic steady state within
#   {glue:text}`cyc_settle` cycles ($c/t$ sampled the same way: {glue:text}`ct_settle` of {glue:text}`n_cycles`),
#   at {glue:text}`cyc_level:.4f` against {glue:text}`const_level:.4f` for the constant peak rate. The simulation
#   is within a relative {glue:text}`cyc_mc_dev:.3f` of the recursion there; the quasi-static prediction at the
#   cycle-end rate has a relative error of {glue:text}`qs_cyc_dev:.1f`.
# * Logistic regression, polynomial decay with $\eta_0=1$: the standardised last iterate is within KS
#   {glue:text}`ks_1:.3f` of $N(0,1)$ and the oracle 95% intervals cover at {glue:text}`cover_1:.3f`. With
#   $\eta_0=0.5$ ($\sum_t\eta_t\lambda_{\min}=$ {glue:text}`forget_05:.2f` against {glue:text}`forget_1:.2f`) the
#   leftover bias of the start gives KS {glue:text}`ks_05:.3f`, yet its intervals cover at
#   {glue:text}`cover_05:.3f`: its standardised iterate is shifted (mean {glue:text}`mean_z_05:.2f`) and narrower
#   (sd {glue:text}`sd_z_05:.2f`) than the recursion assumes, and the two errors offset. Coverage in the brief's
#   window therefore does not show that the Gaussian approximation is right.
# * Logistic regression under the two schedules the paper singles out (peak $\eta_0=1$; a contrast added after
#   the review, not counted). Linear decay to zero: the recursion's intervals give KS
#   {glue:text}`log_linear_ks_rec:.3f` and coverage {glue:text}`log_linear_cover_rec:.3f`
#   ({glue:text}`log_linear_rec_word`), while the schedule-blind $\eta_{T-1}X$ gives KS
#   {glue:text}`log_linear_ks_cls:.3f` and coverage {glue:text}`log_linear_cover_cls:.3f`
#   ({glue:text}`log_linear_cls_word`). Cyclical rate between $0.05$ and $1$: the recursion gives KS
#   {glue:text}`log_cyclic_ks_rec:.3f` and coverage {glue:text}`log_cyclic_cover_rec:.3f`
#   ({glue:text}`log_cyclic_rec_word`), $\eta_{T-1}X$ KS {glue:text}`log_cyclic_ks_cls:.3f` and coverage
#   {glue:text}`log_cyclic_cover_cls:.3f` ({glue:text}`log_cyclic_cls_word`). There the linearised recursion
#   under-covers, a limit of our reading of the framework under the very schedule the paper singles out. This
#   comparison could fail, unlike the others on the page; it tests our linearisation, not the paper's theorem,
#   which we could not read.
#
# ## What a skeptic would try
#
# Review: the helper that converted this page to the current claim model (it did not write the original page)
# read it against the rubric and tried the naive alternatives below; all numbers are measured by this notebook
# at this seed.
#
# * **Is the recursion needed, or does the stationary level at the current rate do?** The quasi-static
#   prediction has a relative Frobenius error from {glue:text}`qs_err_min:.3f` (constant rate, where it is exact
#   up to Monte Carlo noise) to {glue:text}`qs_err_max:.0f` across the five schedules. It fails, but this does not make
#   the recursion a test of the paper: for this model the recursion is exact by construction, and it is classical.
# * **The classical small-step covariance $\eta_{T-1}X$ ($HX+XH=S$) instead of the recursion**, on the same
#   $\eta_0=1$ logistic chains: KS {glue:text}`ks_cls_1:.3f` and coverage {glue:text}`cover_cls_1:.3f` (its
#   standard deviation is {glue:text}`sd_ratio_cls:.2f` times the recursion's), against the brief's bars of KS
#   below $0.05$ and coverage in $[0.93, 0.97]$: it {glue:text}`cls_1_word` at this seed. This prior-work formula for polynomial decay, which ignores the
#   schedule's history, does about as well as the recursion here, so even as a test of the recursion's
#   "uncertainty under the schedule" the logistic checks would not be specific to it.
# * **Does the linear-decay slope window single out linear decay?** No. $c/t$ with $c=5$
#   ($c\lambda_{\min}=1/4$) has Monte Carlo slope {glue:text}`mc_slope_small_c:.3f`, {glue:text}`small_c_window`
#   the window $[-0.6,-0.4]$, and polynomial decay {glue:text}`mc_slope_poly:.3f`, {glue:text}`poly_window` it.
#   The constant rate is flat by construction, so it is no
#   comparison for the rate.
# * **Schedules where the schedule-blind covariance should fail** (suggested by the reviewer; shown, not
#   counted, being post hoc). Logistic SGD under linear decay and under a cyclical rate, peak $\eta_0=1$:
#   see the last bullet of the verdict. Under linear decay the recursion {glue:text}`log_linear_rec_word` and
#   $\eta_{T-1}X$ {glue:text}`log_linear_cls_word`; under the cyclical rate the recursion
#   {glue:text}`log_cyclic_rec_word`, at this seed (the reviewer's counts over other seeds, from their own scripts,
#   are not repeated here: the page shows only what it measures). The reviewer suggested counting the
#   linear-decay run as a test of the "unified framework" and "inference tools" headlines; we keep it uncounted,
#   since it would be post hoc and would test our linearised reading of the framework, which we know only from the
#   abstract, not the paper's theorem.
# * **Which schedule ends lowest at the same horizon?** At $T=$ {glue:text}`T_max`: linear decay
#   {glue:text}`final_lin:.4f`, $c/t$ {glue:text}`final_ct:.4f`, polynomial {glue:text}`final_poly:.4f`,
#   constant {glue:text}`final_const:.4f` (Monte Carlo $\mathbb E\|\delta_T\|^2$). The ordering depends on the
#   peak rate and on $c$, which we chose, not the paper; it is shown, not claimed.
# * **The constant-rate slope** is flat ({glue:text}`mc_slope_const:.3f` in Monte Carlo, below
#   {glue:text}`rec_slope_const:.0e` in absolute value in the recursion) by the choice of horizons, so it is an
#   implementation check.
#
# Reviewed by an independent skeptic (2026-12-07); what they tried is above. They re-graded every check with the
# rubric (all are illustrations or implementation checks; the badge stays *illustrated, not tested*), tried the
# classical $\eta_{T-1}X$ covariance on the logistic checks, other decaying schedules against the linear-decay
# window, and logistic SGD under linear decay and cyclical rates, and read the prose against the record. Their
# findings are mended above: the lead is restricted to Gaussian least squares, the brief's typed slopes are
# recomputed by this notebook, and the polynomial slope is named as a bias slope.
#
# ## What the miniature cannot show
#
# Whether the paper's theorems use the same normalisation and conditions as our linear stochastic-approximation
# view; the paper's own rate and constant for linear decay to zero and its statement for cyclical rates (so no
# measurement here can test them); behaviour far from the optimum or in non-convex models; heavy-tailed noise;
# inference with estimated (not oracle) $H$ and $S$; the paper's own experiments, which we could not read.
# The hard part was the choice of horizons: every asymptotic statement here needs $\eta\,\lambda_{\min}T\gg1$,
# which for a condition number of 20 pushes the horizons into the thousands of steps.
