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
# *One covariance recursion predicts the error of online SGD under any step-size schedule (constant,
# polynomial, $c/t$, cyclical, linear decay to zero); by our derivation, linear decay to zero leaves a final
# error that shrinks like $T^{-1/2}$ in the horizon $T$.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from scipy.stats import norm

from repro.claims import Claims, at_most, between, less_than, tolerance
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
# $ch>1/2$ (order $T^{-1}$).
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
# * **Controls** (one per claim, the same measurement and criterion on a case where the claim should not hold;
#   a claim counts only if its control fails). *Recursion vs Monte Carlo* and *cyclical level:* the
#   quasi-static prediction, the constant-rate fixed point of the recursion at the current rate
#   (`K.stationary_second_moment`), which forgets the schedule's history. *Linear-decay rate:* the constant
#   rate (no decay), in the same simulation and in the same recursion. *$c/t$ rate:* $5/(t+20)$, same peak
#   rate but $c\lambda_{\min}=1/4<1/2$, for which the classical rate is slower than $1/T$ (its chains draw
#   from a separate random stream, so the other runs are unchanged). *Cyclical steady state:* the $c/t$
#   schedule sampled at the same cycle ends, which keeps decaying. *Gaussian limit and coverage:* the same
#   logistic run with $\eta_0=0.5$, where $\sum_t\eta_t\lambda_{\min}<4$ and the start is not forgotten.
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
#   after $\eta_0=0.5$ had been seen to fail at `ci` scale; the two logistic claims therefore carry the post-hoc
#   flag (†). With $\eta_0=0.5$ the leftover bias of the start dominates (shown below, and used as control).

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
# The paper's numbers were not available. For comparison, our own scalar derivation (one direction,
# $h=s=1$, $\eta_0=0.1$, additive noise, $T\in\{10^3,\dots,6.4\cdot10^4\}$) gives slopes $-0.501$ (linear decay),
# $-0.996$ ($c/t$) and $0.000$ (constant); the table below gives the same quantities for the $d=5$ problem.

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
lam = np.diag(H)
lin_formula = sum(K.linear_decay_final_variance(l, sigma**2 * l, PEAK, T_line) for l in lam)
print("slope of log E|delta_T|^2 vs log T")
print(f"{'schedule':13s} {'MC, T<=' + str(Ts[-1]):>12s} {'recursion, T<=64000':>20s}")
for n in mc_slope:
    print(f"{n:13s} {mc_slope[n]:12.3f} {rec_slope[n]:20.3f}")
print(f"{'c/t, c=5':13s} {mc_slope_small_c:12.3f}   (control: c*lambda_min = 1/4 < 1/2)")
print("linear decay: recursion / formula at T =", T_line, ":", np.round(lin_rec / lin_formula, 3))

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
    clt[eta0] = dict(z=z, ks=ks_distance(z, norm.cdf), cover=K.ci_coverage((D + ts_log) @ u, sd, float(u @ ts_log)),
                     forget=float(etas.sum() * np.linalg.eigvalsh(H_log).min()))
    print(f"eta0={eta0}: sum eta*lambda_min={clt[eta0]['forget']:.2f}, KS={clt[eta0]['ks']:.3f}, "
          f"mean z={z.mean():+.3f}, sd z={z.std():.3f}, 95% CI coverage={clt[eta0]['cover']:.3f}")

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
# The claim checks below were fixed before the run from the reproduction brief: relative Frobenius error
# $\le 0.10$ for every schedule; slopes in $[-0.6,-0.4]$ (linear decay), $[-1.1,-0.9]$ ($c/t$) and
# $[-0.1,0.1]$ (constant); KS $<0.05$ and coverage in $[0.93,0.97]$ for the logistic model; cycle-end
# change $<1\%$ from cycle 10 on and Monte Carlo within 10% of the recursion. The controls were added later
# (see the experiment); the logistic claims are flagged post hoc because of the choice of $\eta_0$.

# %%
PAPER = "not retrieved (abstract only); the rate is our derivation"
ETA0_RULE = ("eta0 = 1 was chosen so that the start is forgotten (sum eta*lambda_min >= 4) after eta0 = 0.5 "
             "was seen to fail at ci scale")
claims.check("recursion-matches-mc", kind="theorem",
             statement="The second-moment recursion predicts the Monte Carlo second moment of theta_T - theta* "
                       "for all five schedules (max relative Frobenius error)",
             paper="a unified framework for arbitrary learning rates (abstract); no numbers retrieved",
             criterion=at_most(0.10), measured=float(max(rel_err.values())),
             control=float(max(qs_err.values())),
             control_label="quasi-static prediction: constant-rate fixed point at each schedule's final rate")
claims.check("rate-linear-decay-mc",
             statement="Linear decay to zero: final E|delta_T|^2 falls like T^(-1/2) (Monte Carlo log-log slope)",
             paper=PAPER, criterion=between(-0.6, -0.4), measured=float(mc_slope["linear decay"]),
             control=float(mc_slope["constant"]), control_label="constant rate 0.25 (no decay), same chains")
claims.check("rate-linear-decay-recursion", kind="theorem",
             statement="Same slope from the exact recursion over T = 1e3 ... 6.4e4",
             paper=PAPER, criterion=between(-0.6, -0.4), measured=float(rec_slope["linear decay"]),
             control=float(rec_slope["constant"]), control_label="constant rate 0.25 (no decay), same recursion",
             tol=tolerance(abs=1e-9, why="the control's slope is zero up to rounding (a stationary 64,000-step "
                           "recursion); shown as a bound"))
claims.check("rate-c-over-t-mc",
             statement="Baseline c/t with c*lambda_min > 1/2: final error falls like 1/T (Monte Carlo slope)",
             paper="classical rate, not from the paper", criterion=between(-1.1, -0.9), measured=float(mc_slope["c/t"]),
             control=float(mc_slope_small_c), control_label="5/(t+20): c*lambda_min = 1/4 < 1/2, same peak rate")
claims.check("rate-constant-mc", kind="implementation",
             statement="Baseline constant rate: final error does not decay with T (Monte Carlo slope); every horizon "
                       "is many relaxation times 1/(eta*lambda_min) = 80 long, so this holds by the choice of horizons",
             paper="classical behaviour, not from the paper", criterion=between(-0.1, 0.1),
             measured=float(mc_slope["constant"]))
claims.check("cyclical-steady-state", kind="theorem",
             statement="Cyclical rate: cycle-end error reaches a periodic steady state (cycles until the "
                       "relative change between consecutive cycle ends stays below 1%, recursion)",
             paper="cyclical rates characterised (abstract); no numbers retrieved",
             criterion=at_most(10), measured=cyc_settle,
             control=ct_settle, control_label="c/t schedule sampled at the same cycle ends (keeps decaying)")
claims.check("cyclical-mc-level",
             statement="Cyclical rate: Monte Carlo cycle-end error within 10% of the recursion after 10 cycles",
             paper="cyclical rates characterised (abstract); no numbers retrieved",
             criterion=at_most(0.10), measured=cyc_mc_dev,
             control=qs_cyc_dev, control_label="quasi-static prediction at the cycle-end rate instead of the recursion")
claims.check("clt-logistic-ks",
             statement="Logistic SGD, polynomial decay: standardised projection of the last iterate is N(0,1) (KS)",
             paper="uncertainty quantification / inference tools (abstract)",
             criterion=less_than(0.05), measured=float(clt[1.0]["ks"]),
             control=float(clt[0.5]["ks"]), control_label="eta0 = 0.5: the start is not yet forgotten at this horizon",
             post_hoc=ETA0_RULE)
claims.check("ci-coverage",
             statement="Recursion-based 95% intervals for u'theta* cover at the nominal rate",
             paper="inference tools (abstract)", criterion=between(0.93, 0.97), measured=float(clt[1.0]["cover"]),
             control=float(clt[0.5]["cover"]), control_label="eta0 = 0.5: the start is not yet forgotten at this horizon",
             post_hoc=ETA0_RULE)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Reproduced at this scale, as a numerical check of the phenomena (the paper's own theorems and numbers were
# not available to us):** all 7 informative claims reproduced, each against a control that fails (6
# pre-registered, 1 flagged post hoc); the coverage claim is uninformative, and the constant-rate slope is a
# check of our implementation. At full scale (seeds 0–2, the last column of the table "Across seeds and scales") the
# same claims pass, and the logistic CLT claim joins coverage as uninformative (below), so 6 informative claims
# hold there. What the miniature shows:
#
# * One deterministic recursion, fed the schedule as an input, predicts the simulated second moment of the SGD
#   error for all five schedules, along the whole trajectory and not only at the end (first figure). For Gaussian
#   least squares the recursion is exact, so the remaining gap (5% at $R=2000$) is Monte Carlo noise. The naive
#   quasi-static prediction (the stationary level at the current rate) is off by orders of magnitude for the
#   decaying schedules: the history of the schedule matters, which is the point of the paper's framework.
# * Linear decay to zero: the final error falls with slope close to $-1/2$ on log-log axes, in the simulation
#   ($-0.54$) and in the recursion ($-0.52$), where the constant rate gives 0; and the recursion approaches our
#   closed-form constant $\frac{\sqrt\pi}{4}\sigma^2\sum_i\lambda_i^{-1/2}\sqrt{\eta_0/T}$ as $T$ grows (ratio
#   within a few percent at $T=64\,000$). It sits between the baselines: a constant rate does not improve with
#   $T$, $c/t$ reaches $1/T$ (slope $-1.01$) when $c\lambda_{\min}>1/2$, and only $-0.57$ when
#   $c\lambda_{\min}=1/4$ (control).
# * Polynomial decay $t^{-0.6}$ is a cautionary baseline: over these horizons its error is still dominated by
#   the slowly forgotten starting point in the flattest direction ($\lambda_{\min}=0.05$; the bias decays like
#   $\exp(-2\lambda_{\min}\sum_t\eta_t)$ with $\sum_t\eta_t\propto T^{0.4}$), so its apparent slope drifts from about
#   $-0.6$ to about $-1$ instead of settling at the variance rate $-0.6$. This is the slow convergence that the
#   paper gives as the reason polynomial schedules are rarely used.
# * A cyclical rate does not converge: the error at cycle ends reaches a periodic steady state within 3 cycles
#   (a decaying $c/t$ schedule sampled the same way never settles in the 20 cycles run), at about a third of the
#   constant-rate level, and the recursion predicts that level within 5% where the quasi-static prediction at
#   the cycle-end rate is off by a factor of about 10.
# * For logistic regression the standardised last iterate is close to $N(0,1)$ (KS 0.015) once the start is
#   forgotten. With half the step size ($\eta_0=0.5$) and $T=2000$ (ci scale) the leftover bias of the start
#   shifts the distribution and the same test fails (KS about 0.10); at full scale ($T=8000$, where
#   $\sum_t\eta_t\lambda_{\min}\approx4$) the control has forgotten its start as well and passes at all three
#   full seeds (at seed 0, KS 0.025 against 0.013 for $\eta_0=1$; the table "Across seeds and scales" above), so at full scale the claim is
#   uninformative: its control only fails while the transient lasts. The choice $\eta_0=1$ was made after seeing
#   $\eta_0=0.5$ fail, hence the post-hoc flag. The Gaussian limit is asymptotic and says nothing about how
#   long the transient lasts.
# * *Coverage is uninformative.* The recursion-based 95% intervals cover at 0.947, but the control with
#   $\eta_0=0.5$ covers at 0.970, on the upper edge of the window $[0.93, 0.97]$: its standardised iterate is
#   shifted (mean $-0.21$) but also narrower (sd 0.89) than the recursion assumes, and the two errors offset in
#   the coverage. Coverage in this window therefore does not show that the Gaussian approximation is right.
#   Over seeds 0–9 (the table "Across seeds and scales" above) the intervals cover within the window at every
#   seed (0.945 to 0.959), and the control leaves the window at only 3 seeds (0.972 to 0.979), where the claim
#   then counts as reproduced. Seed 0 is one of the 7 seeds at which it is uninformative; at 3 in 10 the check
#   is a coin that mostly lands on "uninformative", and our reading above stands. At full scale (seed 0) it is
#   uninformative at all three seeds (at seed 0: 0.945, control 0.952).
#
# What the miniature cannot show: whether the paper's theorems use the same normalisation and conditions as
# our linear stochastic-approximation view; behaviour far from the optimum or in non-convex models; heavy-tailed
# noise; inference with estimated (not oracle) $H$ and $S$; the paper's own experiments, which we could not read.
# The hard part was the choice of horizons: every asymptotic statement here needs $\eta\,\lambda_{\min}T\gg1$,
# which for a condition number of 20 pushes the horizons into the thousands of steps.
