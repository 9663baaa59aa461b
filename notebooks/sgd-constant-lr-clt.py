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
# # Gaussian approximation and tails of constant-step SGD
#
# *With a constant step size $\eta$, the SGD error $(\theta_k-\theta^*)/\sqrt\eta$ becomes Gaussian from any
# starting point, its distance to the Gaussian shrinks like a power of $\eta$, and under heavy-tailed noise its
# tails are polynomial with the exponent of the noise.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from scipy import stats

from repro.claims import Claims, at_most, between, less_than
from repro.papers import sgd_constant_lr_clt as K
from repro.runtime import progress, setup_notebook
from repro.stats import ks_distance, loglog_slope

P = setup_notebook(scale, seed, presets={
    "ci":   dict(etas=[0.2, 0.1, 0.05, 0.025], R=50_000, R_tail=500_000, R_logit=20_000),
    "full": dict(etas=[0.2, 0.1, 0.05, 0.025, 0.0125, 0.00625], R=400_000, R_tail=5_000_000, R_logit=200_000),
})
claims = Claims("sgd-constant-lr-clt",
                title="Gaussian Approximation and Concentration of Constant Learning-Rate Stochastic Gradient Descent",
                authors="Ziyang Wei, Jiaqi Li, Zhipeng Lou, Wei Biao Wu",
                paper_url="https://openreview.net/forum?id=aCPFvEg22L", scale=scale, seed=seed)
# fixed design (from the brief, before any run)
start = 5.0                                   # theta_0 = theta* +/- 5 in the 1-D models
nu = 4.5                                      # Student-t degrees of freedom, tail model
eta_tail, eta_logit = 0.2, 0.05
theta_star, x_var = np.array([1.0, -0.5]), np.array([1.0, 0.5])   # logistic model
rm_eta0, rm_alpha = 0.5, 0.6                  # decaying-step baseline eta_k = 0.5 k^-0.6
tail_probs = np.geomspace(1e-2, 1e-4, 9)      # "polynomial regime" of the tail check
pareto_alpha = 1.5                            # control noise: infinite variance (outside the CLT's conditions)
eta_big = 0.4                                 # control step size for the logistic model (no small-eta regime)
rng_ctrl = np.random.default_rng([seed, 1])   # controls draw from their own stream, so they leave the measurements as they were

# %% [markdown]
# ## The claim
#
# Wei, Li, Lou and Wu study SGD run with a **constant** learning rate $\eta$,
# $\theta_{k+1} = \theta_k - \eta\,\nabla\ell(\theta_k;\xi_{k+1})$, where the target is
# $\theta^* = \arg\min_\theta E\,\ell(\theta;\xi)$. With a constant step the iterates never converge; they
# settle into a stationary cloud of width about $\sqrt\eta$ around $\theta^*$. The paper says three things about
# that cloud:
#
# 1. **Quenched CLT.** For *every* deterministic starting point, $(\theta_k-\theta^*)/\sqrt\eta$ converges
#    in law to a multivariate normal ("quenched": no averaging over the initialisation is needed). The
#    abstract does not say in which joint limit of $k$ and $\eta$; we test it as $k\to\infty$ at small $\eta$.
#    It also says the paper's conditions are much milder than those of the classical SGD CLTs; we do not
#    test conditions.
# 2. **Berry–Esseen bound.** The paper gives the first bound on the distance between the law of the
#    rescaled iterate and that normal for constant-step SGD, and calls it sharp compared with what is known
#    for decaying learning rates. Its metric and its rate in $\eta$ were not available to us; that the
#    distance shrinks like a power of $\eta$ (about $\eta^{1/2}$) is our expectation, derived below.
# 3. **Nagaev-type inequality.** A non-asymptotic bound on the tail $P(|\theta_k-\theta^*|>x)$, obtained
#    through the autoregressive approximation. Its exact form was not available to us. Inequalities of this
#    type (Nagaev 1979) bound the tail, for noise with $p$ finite moments, by a polynomial term
#    $\propto x^{-p}$ plus a Gaussian term; that is the shape we test.
#
# We could reach only the abstract: the paper's exact rate, constants and figures were not available (see
# the brief). Every number below is our own measurement of these qualitative statements, against
# thresholds fixed in the brief, and there is no table of the paper's numbers beside ours because the
# abstract gives none.
#
# ## The method
#
# Write $\delta_k=\theta_k-\theta^*$, $A=\nabla^2F(\theta^*)$ and $\varepsilon=\nabla\ell(\theta^*;\xi)$ with
# covariance $S$. Near $\theta^*$, SGD is an autoregression
#
# $$\delta_{k+1} = (I-\eta A)\,\delta_k - \eta\,\varepsilon_{k+1}
#   \quad\Longrightarrow\quad
#   \delta_k = (I-\eta A)^k\delta_0 - \sum_{j=0}^{k-1}\eta\,(I-\eta A)^{j}\,\varepsilon_{k-j},$$
#
# which is exact when the loss is quadratic. The first term forgets $\delta_0$ geometrically (the quenched
# part); the second is a weighted sum of independent vectors with weights $w_j=\eta(I-\eta A)^j$. Its
# covariance $C$ solves the discrete Lyapunov equation
#
# $$C = (I-\eta A)\,C\,(I-\eta A)^\top + \eta^2 S, \qquad\text{equivalently}\qquad
#   A\Sigma_\eta+\Sigma_\eta A^\top-\eta A\Sigma_\eta A^\top = S,\ \ \Sigma_\eta = C/\eta,$$
#
# (`K.stationary_cov_linear`), which tends to the continuous Lyapunov solution $A\Sigma+\Sigma A^\top=S$ as
# $\eta\to0$ (`K.lyapunov_cov`). In one dimension $C=\eta s/(a(2-\eta a))$.
#
# *Why a rate $\sqrt\eta$.* A sum of about $1/(\eta a)$ effective terms keeps a skewness of
# $\gamma\sum_j w_j^3/(\sum_j w_j^2)^{3/2}\approx\gamma\,\tfrac{2^{3/2}}{3}\sqrt{\eta a}$ for noise of skewness
# $\gamma$ (`K.weighted_sum_skewness`), and by an Edgeworth argument the Kolmogorov distance to the normal is
# of that order. We therefore expect $\mathrm{KS}\propto\eta^{1/2}$ when the noise is skewed, and no visible
# error when the noise is Gaussian (then the linear iterate is exactly normal).
#
# *Tails.* For independent terms with $p>2$ moments the Fuk–Nagaev inequality (Nagaev 1979) gives
#
# $$P\Big(\big|\textstyle\sum_j w_j\varepsilon_j\big|\ge x\Big) \le \big(1+\tfrac2p\big)^p
#   \frac{E|\varepsilon|^p\sum_j w_j^p}{x^p} + 2\exp\!\Big(-\frac{2x^2}{(p+2)^2e^p\,E\varepsilon^2\sum_j w_j^2}\Big),$$
#
# with $\sum_j w_j^p=\eta^p/(1-(1-\eta a)^p)$ (`K.fuk_nagaev_bound`): a polynomial term plus a Gaussian
# term. The paper derives an inequality of this shape for SGD through the same autoregressive
# approximation; its constants were not retrieved. The polynomial term with its sharp constant is the
# *single big jump* picture: far out, one large noise draw makes the excursion,
#
# $$P(|\delta|>x)\approx\sum_j P\big(|\varepsilon|>x/w_j\big)\;\sim\;2c\,x^{-\nu}\sum_j w_j^{\nu}
#   \quad\text{if } P(\varepsilon>t)\sim c\,t^{-\nu}$$
#
# (`K.big_jump_tail`). So under Student-$t$ noise with $\nu$ degrees of freedom the tail should fall like
# $x^{-\nu}$, whereas the Gaussian approximation falls like $e^{-x^2/2\sigma^2}$.
#
# ## The experiment
#
# All data are synthetic online streams (a fresh sample at every step); `K.sgd_chains` advances all $R$
# independent chains at once.
#
# * **(a) skewed quadratic:** $\theta\leftarrow(1-\eta)\theta+\eta Z$ with $Z\sim\mathrm{Exp}(1)-1$
#   ($a=s=1$, skewness $\gamma=2$, $\theta^*=0$), started at $\theta_0=\theta^*+5$, run for
#   $K=\lceil 8\log(1/\eta)/\eta\rceil$ steps for each $\eta$ in the grid; we compare
#   $\delta_K/\sqrt{C}$ with $N(0,1)$ by the Kolmogorov–Smirnov distance (`repro.stats.ks_distance`) and fit
#   the log–log slope of KS against $\eta$ (`repro.stats.loglog_slope`). At the smallest $\eta$ we also start
#   $R$ chains at $\theta^*-5$ and compare the two clouds with a two-sample KS test.
# * **Baselines, same run:** (i) the same chains with **Gaussian** noise $Z\sim N(0,1)$ (no skew, so only Monte
#   Carlo error should remain); (ii) the skewed chains standardised by the **small-$\eta$ Lyapunov variance**
#   $s/(2a)$ instead of the exact $C/\eta$; (iii) a **decaying learning rate** (Robbins–Monro,
#   $\eta_k=0.5\,k^{-0.6}$) from the same start $\theta^*+5$, read off when $\eta_k$ first drops below each
#   grid value, standardised by its exact variance (`K.linear_sgd_moments`) and centred at $\theta^*$.
# * **Controls** (chosen for each claim before looking at their values; each is the same measurement under the
#   same criterion on a case where the paper's statement should not hold, and each claim counts only if its
#   control fails). *CLT:* the chains of model (a) at $\eta=0.025$ from $\theta^*+5$ driven by symmetric Pareto
#   noise of tail index 1.5 (`K.symmetric_pareto_noise`): infinite variance, outside the moment conditions of
#   any CLT, so the limit is a stable law, not a normal. There is no variance to standardise by, so we use the
#   normal scale with the same interquartile range (`K.iqr_normal_scale`), which favours the control.
#   *Rate:* the slope fitted to the Gaussian-noise chains (i), which have no Berry–Esseen error to decay.
#   *Skewness mechanism:* the decaying-step chains (iii) against the constant-step closed form, i.e. the
#   formula with the wrong weights. *Logistic CLT:* the same model and measurement at a large step
#   $\eta=0.4$, outside the small-$\eta$ regime the CLT describes. *Tails:* the same chains and fit window
#   with Gaussian noise, whose tail is Gaussian. The controls draw from their own random stream, so adding
#   them left the measured values exactly as they were.
# * **(b) logistic regression** in 2-D: $x\sim N(0,\mathrm{diag}(1,0.5))$,
#   $y\sim\mathrm{Bernoulli}(\sigma(x^\top\theta^*))$, $\theta^*=(1,-0.5)$, a nonlinear model. For a
#   well-specified model $S=A$ (Fisher information, computed by quadrature in `K.logistic_fisher`), so the
#   Lyapunov limit is $\Sigma=I/2$. Started at $\theta_0=0$, $\eta=0.05$.
# * **(c) heavy tails:** model (a) with Student-$t$ noise, $\nu=4.5$, at $\eta=0.2$ (few effective terms,
#   so the heaviest single noise draw dominates the tail); $R_\text{tail}$ chains. We fit the slope of
#   $\log P(|\delta|>x)$ against $\log x$ where the empirical tail runs from $10^{-2}$ to $10^{-4}$.
#
# **Deviations from the paper**
#
# * The two-sample comparison of starts $\theta^*\pm5$ in model (a) is no longer a claim: after
#   $K=\lceil8\log(1/\eta)/\eta\rceil$ steps the start term is $5(1-\eta)^K\approx5\eta^8$, so the two clouds
#   have the same law by construction of the burn-in. It is a unit test of our simulator now; the figure still
#   shows it.
# * Synthetic one- and two-dimensional models only; the paper's own simulation settings were not retrieved.
# * The metric is the one-dimensional Kolmogorov distance (per coordinate in model (b)); the paper's metric
#   for its Berry–Esseen bound (possibly over convex sets) was not retrieved.
# * The fitted exponent is *our* measurement; the paper's exact exponent in $\eta$ is unknown to us.
# * The tail curve drawn is the single-big-jump approximation (the polynomial part of a Nagaev-type
#   estimate), not the paper's own inequality; the classical Fuk–Nagaev bound with textbook constants is
#   computed but is vacuous at the simulated scales.
# * Model (b) is run for $K=\lceil 3\log(1/\eta)/(\eta\lambda_{\min}(A))\rceil$ steps (the brief's
#   $8\log(1/\eta)/\eta$ assumes curvature 1, whereas here $\lambda_{\min}(A)\approx0.09$), with fewer chains
#   than model (a) to fit the time budget.
# * Scale: $R=5\cdot10^4$ chains per step size in model (a) at `ci` scale and $4\cdot10^5$ at `full` (the
#   brief's full run uses $10^6$); $5\cdot10^5$ / $5\cdot10^6$ chains for the tails; $2\cdot10^4$ /
#   $2\cdot10^5$ for the logistic model. `full` adds $\eta=0.0125, 0.00625$ to the plot; the checked slope
#   always uses the brief's four step sizes $0.2,\dots,0.025$.

# %%
print(f"scale={P.scale}: step sizes {P.etas}, R={P.R:,} chains (model a), "
      f"R_tail={P.R_tail:,} (model c), R_logit={P.R_logit:,} (model b)")

# %% [markdown]
# ## Results
#
# ### (a) Normality from any start, and the rate in $\eta$

# %%
exp_noise = lambda g, m: g.standard_exponential(m) - 1.0      # skewness 2
gauss_noise = lambda g, m: g.standard_normal(m)
grad = K.quadratic_grad(1.0)
ks_skew, ks_lyap, ks_gauss, skew_emp, skew_th, keep = [], [], [], [], [], {}
for eta in progress(P.etas, desc="step sizes"):
    n = K.n_steps_for(eta)
    sd = np.sqrt(K.stationary_cov_linear([[1.0]], [[1.0]], eta)[0, 0])
    d = K.sgd_chains(grad, [start], eta, n, P.R, exp_noise, P.rng)[:, 0]
    g = K.sgd_chains(grad, [start], eta, n, P.R, gauss_noise, P.rng)[:, 0]
    ks_skew.append(ks_distance(d / sd, stats.norm.cdf))
    ks_lyap.append(ks_distance(d / np.sqrt(eta / 2), stats.norm.cdf))
    ks_gauss.append(ks_distance(g / sd, stats.norm.cdf))
    skew_emp.append(stats.skew(d))
    skew_th.append(K.weighted_sum_skewness(eta, 1.0, 2.0))
    keep[eta] = d / sd
eta_min = P.etas[-1]
sd_min = np.sqrt(K.stationary_cov_linear([[1.0]], [[1.0]], eta_min)[0, 0])
d_minus = K.sgd_chains(grad, [-start], eta_min, K.n_steps_for(eta_min), P.R, exp_noise, P.rng)[:, 0] / sd_min
two_sample = stats.ks_2samp(keep[eta_min], d_minus).statistic
# control of the CLT check: the same chains (start +5, eta=0.025, K steps) with infinite-variance noise,
# standardised by the normal scale with the same interquartile range (there is no variance to use)
d_heavy = K.sgd_chains(grad, [start], eta_min, K.n_steps_for(eta_min), P.R,
                       K.symmetric_pareto_noise(pareto_alpha), rng_ctrl)[:, 0]
ks_heavy = ks_distance(d_heavy / K.iqr_normal_scale(d_heavy), stats.norm.cdf)

# decaying-step baseline: one set of chains, read off where eta_k first falls below each grid value
rm_k = [int(np.ceil((rm_eta0 / e) ** (1 / rm_alpha))) for e in P.etas]
rm_steps = K.robbins_monro_steps(rm_eta0, rm_alpha, max(rm_k))
rm_paths = K.sgd_chains(grad, [start], rm_steps, len(rm_steps), P.R, exp_noise, P.rng, record_at=rm_k)
_, rm_var = K.linear_sgd_moments(rm_steps, 1.0, 1.0, delta0=start)
ks_rm = [ks_distance(rm_paths[i, :, 0] / np.sqrt(rm_var[k - 1]), stats.norm.cdf) for i, k in enumerate(rm_k)]

slope = loglog_slope(P.etas, ks_skew)
slope_rm = loglog_slope([rm_steps[k - 1] for k in rm_k], ks_rm)
slope_gauss = loglog_slope(P.etas[:4], ks_gauss[:4])
skew_rm = [stats.skew(rm_paths[i, :, 0]) for i in range(len(rm_k))]
skew_gap = float(np.max(np.abs(np.array(skew_emp) / np.array(skew_th) - 1)))
skew_gap_rm = float(np.max(np.abs(np.array(skew_rm) / np.array(skew_th) - 1)))
mc_floor = 0.87 / np.sqrt(P.R)   # mean KS of an exact sample of size R
print(" eta    K   KS skewed  KS Lyapunov-std  KS Gaussian noise  KS decaying (k)   skew emp / closed form")
for i, e in enumerate(P.etas):
    print(f"{e:6.4f} {K.n_steps_for(e):5d}   {ks_skew[i]:.4f}      {ks_lyap[i]:.4f}           {ks_gauss[i]:.4f}"
          f"            {ks_rm[i]:.4f} ({rm_k[i]})    {skew_emp[i]:.3f} / {skew_th[i]:.3f}")
print(f"fitted slope of KS vs eta: constant step {slope:.3f}, decaying baseline {slope_rm:.3f}, "
      f"Gaussian noise {slope_gauss:.3f}; two-sample KS (+5 vs -5 start, eta={eta_min}) {two_sample:.4f}; "
      f"MC floor ~{mc_floor:.4f}")
print(f"control, Pareto(alpha={pareto_alpha}) noise at eta={eta_min}: KS to N(0,1) after IQR standardisation "
      f"{ks_heavy:.4f}; decaying-step skewness vs constant-step closed form: largest gap {skew_gap_rm:.2f} "
      f"(constant step {skew_gap:.3f})")

# %%
fig, axes = plt.subplots(1, 2, figsize=(9.0, 3.4))
ax = axes[0]
z = np.linspace(-4, 4, 161)
for e, c in [(P.etas[0], "C1"), (eta_min, "C0")]:
    h, edges = np.histogram(keep[e], bins=60, range=(-4, 4), density=True)
    ax.stairs(h, edges, color=c, label=f"start $+5$, $\\eta={e}$")
h, edges = np.histogram(d_minus, bins=60, range=(-4, 4), density=True)
ax.stairs(h, edges, color="C2", ls="--", label=f"start $-5$, $\\eta={eta_min}$")
ax.plot(z, stats.norm.pdf(z), "k:", label="$N(0,1)$")
ax.set(xlabel=r"standardised error $\delta_K/\sqrt{C_\eta}$", ylabel="density", title="stationary cloud, model (a)")
ax.legend(loc="upper left", fontsize=7)
ax = axes[1]
e = np.asarray(P.etas)
ax.loglog(e, ks_skew, "o", color="C0", label=f"constant step, skewed noise (slope {slope:.2f})")
ax.loglog(e, np.exp(np.polyval(np.polyfit(np.log(e), np.log(ks_skew), 1), np.log(e))), "-", color="C0", lw=1)
ax.loglog(e, ks_lyap, "s", mfc="none", color="C3", label="same, standardised by Lyapunov $s/2a$")
ax.loglog([rm_steps[k - 1] for k in rm_k], ks_rm, "^-", color="C1", lw=1,
          label=f"decaying step $0.5k^{{-0.6}}$ (slope {slope_rm:.2f})")
ax.loglog(e, ks_gauss, "x", color="C2", label="constant step, Gaussian noise")
ax.axhline(mc_floor, color="k", ls=":", lw=1, label="Monte Carlo floor $0.87/\\sqrt{R}$")
ax.set_xticks(e, [f"{v:g}" for v in e], minor=False)
ax.set_xticks([], minor=True)
ax.set(xlabel=r"step size $\eta$ (current $\eta_k$ for the decaying baseline)", ylabel="KS distance to $N(0,1)$",
       title="Berry–Esseen error vs step size")
ax.legend(fontsize=7)
plt.show()

# %% [markdown]
# Left: the iterate cloud after $K$ steps, standardised by the exact stationary standard deviation. From
# $\theta^*+5$ and $\theta^*-5$ the clouds at the smallest step size coincide (the quenched statement), and they
# are close to $N(0,1)$; at $\eta=0.2$ the right skew inherited from the $\mathrm{Exp}(1)-1$ noise is visible.
# Right: the Kolmogorov distance falls along a straight line on log–log axes. Gaussian noise sits at the Monte
# Carlo floor, so the skewed line is a real Berry–Esseen error and not sampling noise.

# %%
claims.check("clt-quenched", statement="Model (a), eta=0.025, start theta*+5: KS distance of the standardised "
             "iterate to N(0,1)", paper="quenched CLT: Gaussian limit for any initialisation (no number given)",
             criterion=less_than(0.03), measured=float(ks_skew[P.etas.index(0.025)]),
             control=float(ks_heavy), control_label="same chains with symmetric Pareto noise, tail index 1.5 "
             "(infinite variance, outside the CLT's moment conditions), standardised by its IQR-matched normal scale")
claims.check("berry-esseen-slope", statement="Model (a): log-log slope of KS against eta over eta in "
             "{0.2, ..., 0.025}", paper="first Berry-Esseen bound for constant-step SGD (metric and rate not "
             "retrieved; ~eta^0.5 is our expectation, not the paper's number)", criterion=between(0.35, 0.70),
             measured=float(loglog_slope(P.etas[:4], ks_skew[:4])),
             control=float(slope_gauss), control_label="same chains with Gaussian noise (no skew, hence no "
             "Berry-Esseen error to decay: only Monte Carlo noise)")
claims.check("skewness-closed-form", kind="theorem", statement="Model (a): largest relative gap between the "
             "empirical skewness and gamma*sum w^3/(sum w^2)^1.5 over the eta grid", paper="mechanism: weighted "
             "sum of iid noise (autoregressive approximation)", criterion=at_most(0.10), measured=skew_gap,
             control=skew_gap_rm, control_label="decaying-step chains eta_k=0.5k^-0.6 read at the same current "
             "step, against the constant-step closed form (wrong weights)")

# %% [markdown]
# ### (b) A nonlinear model: logistic regression

# %%
A = K.logistic_fisher(theta_star, x_var)
Sigma0 = K.lyapunov_cov(A, A)                       # = I/2 since S = A
C_lin = K.stationary_cov_linear(A, A, eta_logit) / eta_logit
n_logit = K.n_steps_for(eta_logit, rate=np.linalg.eigvalsh(A).min(), factor=3.0)
th = K.sgd_chains(K.logistic_grad, np.zeros(2), eta_logit, n_logit, P.R_logit,
                  K.logistic_sampler(theta_star, x_var), P.rng)
u = (th - theta_star) / np.sqrt(eta_logit)
ks_logit = [ks_distance(u[:, i] / np.sqrt(Sigma0[i, i]), stats.norm.cdf) for i in range(2)]
# control: the same measurement at a large step size, where the eta -> 0 Gaussian limit is not claimed
th_big = K.sgd_chains(K.logistic_grad, np.zeros(2), eta_big, K.n_steps_for(eta_big, rate=np.linalg.eigvalsh(A).min(),
                      factor=3.0), P.R_logit, K.logistic_sampler(theta_star, x_var), rng_ctrl)
u_big = (th_big - theta_star) / np.sqrt(eta_big)
ks_logit_big = [ks_distance(u_big[:, i] / np.sqrt(Sigma0[i, i]), stats.norm.cdf) for i in range(2)]
print("A =", np.round(A, 4).tolist(), " Lyapunov Sigma =", np.round(Sigma0, 4).tolist(),
      " exact linearised Sigma_eta =", np.round(C_lin, 4).tolist())
print(f"K={n_logit} steps; empirical Cov(delta/sqrt(eta)) =", np.round(np.cov(u.T), 4).tolist(),
      f"; mean of delta/sqrt(eta) = {np.round(u.mean(0), 4).tolist()}; KS per coordinate = {np.round(ks_logit, 4).tolist()}")
print(f"control eta={eta_big}: mean of delta/sqrt(eta) = {np.round(u_big.mean(0), 3).tolist()}, "
      f"KS per coordinate = {np.round(ks_logit_big, 4).tolist()}")
claims.check("logistic-ks", statement="Model (b), logistic regression, eta=0.05, start 0: largest per-coordinate KS "
             "of (theta-theta*)/sqrt(eta) to the Lyapunov normal N(0, Sigma)", paper="quenched CLT for SGD iterates (our reading: not "
             "limited to quadratic losses; no number given)", criterion=less_than(0.04), measured=float(max(ks_logit)),
             control=float(max(ks_logit_big)), control_label=f"same model at a large step eta={eta_big}, outside "
             "the small-eta regime the CLT describes")

# %% [markdown]
# ### (c) Heavy-tailed noise: polynomial tails

# %%
t_noise = lambda g, m: g.standard_t(nu, m)
d_tail = K.sgd_chains(grad, [0.0], eta_tail, K.n_steps_for(eta_tail), P.R_tail, t_noise, P.rng)[:, 0]
x_q = K.tail_quantiles(d_tail, tail_probs)
tail_slope = loglog_slope(x_q, tail_probs)
# control: the same chains and fit window with Gaussian noise (light tails: the CLT decides the whole tail)
d_tail_g = K.sgd_chains(grad, [0.0], eta_tail, K.n_steps_for(eta_tail), P.R_tail, gauss_noise, rng_ctrl)[:, 0]
tail_slope_g = loglog_slope(K.tail_quantiles(d_tail_g, tail_probs), tail_probs)
var_t = nu / (nu - 2)
sd_tail = np.sqrt(K.stationary_cov_linear([[1.0]], [[var_t]], eta_tail)[0, 0])
p_fn = 4.0                                             # a moment order below nu
m_p = 3 * nu**2 / ((nu - 2) * (nu - 4))                # E|T|^4 for Student-t(nu)
x_grid = np.geomspace(0.2, np.abs(d_tail).max(), 40)
emp_tail = np.array([(np.abs(d_tail) > x).mean() for x in x_grid])
jump_tail = K.big_jump_tail(x_grid, eta_tail, 1.0, stats.t(nu).sf, K.n_steps_for(eta_tail))
gauss_tail = 2 * stats.norm.sf(x_grid / sd_tail)
x_far = np.geomspace(0.1, 1e3, 400)
fn_far = K.fuk_nagaev_bound(x_far, eta_tail, 1.0, p_fn, m_p, var_t)
x_useful = x_far[np.argmax(fn_far < 1e-2)]   # first threshold where the classical bound drops below 1e-2
print(f"tail slope over P in [1e-2, 1e-4]: {tail_slope:.2f} (noise exponent -nu = {-nu}; Gaussian-noise control "
      f"{tail_slope_g:.2f}); "
      f"x range {x_q[0]:.2f}..{x_q[-1]:.2f}; Gaussian approximation at x={x_q[-1]:.2f}: "
      f"{2 * stats.norm.sf(x_q[-1] / sd_tail):.1e}, big-jump approximation "
      f"{K.big_jump_tail(x_q[-1:], eta_tail, 1.0, stats.t(nu).sf, K.n_steps_for(eta_tail))[0]:.1e}, vs empirical 1e-4")
print(f"Fuk-Nagaev bound (p=4): {K.fuk_nagaev_bound(x_q[-1:], eta_tail, 1.0, p_fn, m_p, var_t)[0]:.2f} at x={x_q[-1]:.2f}; "
      f"it first drops below 1e-2 at x={x_useful:.1f} (largest simulated |delta|: {np.abs(d_tail).max():.1f})")

# %%
fig, ax = plt.subplots(figsize=(6.4, 3.8))
ok = emp_tail > 0
ax.loglog(x_grid[ok], emp_tail[ok], "o-", ms=3, color="C0", label=f"SGD, Student-$t$ noise, $\\nu={nu}$, $\\eta={eta_tail}$")
ax.loglog(x_grid, gauss_tail, "--", color="C2", label="Gaussian approximation (CLT)")
ax.loglog(x_grid, jump_tail, "-", color="C1", label="single big jump $\\sum_j P(|\\varepsilon|>x/w_j)$")
ref = tail_probs[-1] * (x_grid / x_q[-1]) ** (-nu)
ax.loglog(x_grid, ref, ":", color="k", label=f"reference slope $-\\nu=-{nu}$")
ax.axhspan(tail_probs[-1], tail_probs[0], color="0.9", zorder=0, label="fit window")
ax.set(xlabel=r"threshold $x$ (units of $\theta$)", ylabel=r"$P(|\theta_K-\theta^*|>x)$",
       ylim=(0.5 / P.R_tail, 1.5), title=f"Tails under heavy-tailed noise (fitted slope {tail_slope:.2f})")
ax.legend(fontsize=7, loc="lower left")
plt.show()

# %% [markdown]
# The empirical tail leaves the Gaussian curve early and bends towards a straight line of slope $-\nu$:
# the rare large noise draws, not the central limit, decide the far tail, and the single-big-jump formula
# predicts it. With its textbook constants the Fuk–Nagaev inequality is valid but vacuous (above 1) over the
# whole simulated range, so we do not check it as a claim; only its *shape*, polynomial in $x$, is what the
# experiment tests.

# %%
claims.check("nagaev-tail-slope", statement="Model (c), Student-t(4.5) noise, eta=0.2: log-log slope of the "
             "empirical tail where it runs from 1e-2 to 1e-4", paper="Nagaev-type tail inequality (form not "
             "retrieved; the classical form has a polynomial x^-p term for noise with p moments)", criterion=between(-nu - 1.5, -nu + 1.5), measured=float(tail_slope),
             control=float(tail_slope_g), control_label="same chains and window with Gaussian noise (all moments "
             "finite: Gaussian tail)")

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Reproduced at laptop scale, qualitatively, on 4 informative claims** (4 of 4 reproduced, each against a
# control that fails; the skewness check is uninformative; the paper gives us no numbers to match, so all
# thresholds are the brief's).
#
# These are the statuses of one draw, seed 0. Over seeds 0–9 (the table "Across seeds and scales" above, from
# `make sweep`) the quenched CLT, the rate and the tail slope hold at every seed. The logistic KS check holds at
# 9 of 10: its values run from 0.032 to 0.044 against the threshold 0.04, the margin is Monte Carlo noise (see
# below), and one seed lands above it. The skewness check is uninformative at 9 seeds (both the closed form and
# the decaying-step control fall within 10%) and fails at one (an error of 12%), so it never counts.
#
# At full scale (seed 0, the table's last column) every claim passes, but the rate claim no longer counts: its
# control passes too (below, under *Rate*), so the full-scale verdict rests on 3 informative claims.
#
# * *Quenched CLT.* At $\eta=0.025$ the standardised iterate started at $\theta^*+5$ is within KS
#   $\approx0.021$ of $N(0,1)$. The control, the same chains with infinite-variance Pareto noise, stays at
#   KS $\approx0.043$ even after the most favourable (interquartile) standardisation, so the 0.03 threshold does
#   separate a Gaussian limit from a non-Gaussian one. That the start is forgotten is, for linear SGD, built
#   into the burn-in (now a unit test, see the deviations), so the "quenched" half of the statement is shown
#   only in the figure.
# * *Nonlinear model.* The logistic model passes (largest KS $\approx0.036$ against 0.04) with the smallest
#   margin of the page: it keeps a visible mean offset of about $0.05\sqrt\eta$ in the first coordinate, the
#   $O(\eta)$ bias that a nonlinear gradient adds to constant-step SGD. An early draft of this page, in which
#   the controls still drew from the main random stream, measured 0.041 here, i.e. the margin is within Monte
#   Carlo noise at $R_\text{logit}=2\cdot10^4$; we report the pre-registered stream. At the large step
#   $\eta=0.4$ (control) the same measurement is 0.089.
# * *Rate.* KS falls like $\eta^{0.49}$ (the brief's own trial run found 0.516); with Gaussian noise the fitted
#   slope is $-0.05$, i.e. no rate at all, only Monte Carlo noise, so the slope is a real Berry–Esseen error
#   and not a sampling artefact. That control is weaker than it looks, and full scale shows it: there
#   ($R=4\cdot10^5$) the Gaussian chains' KS values all sit at the Monte Carlo floor (0.0008 to 0.0023 against
#   $0.87/\sqrt R\approx0.0014$), so their fitted slope is the slope of four noisy numbers, and at seed 0 it
#   lands at 0.51, inside the window. The rate claim is therefore *uninformative* at full scale, although the
#   skewed chains' own slope (0.51 over the same four step sizes, 0.48 over all six) is as expected; a control
#   that compared the KS level with the Monte Carlo floor would have separated them, but we keep the
#   pre-registered one. Using the small-$\eta$ Lyapunov variance instead of the exact $\Sigma_\eta$
#   changes almost nothing in 1-D (the variance ratio is $1/(1-\eta/2)$).
# * *Skewness mechanism: uninformative.* The empirical skewness follows the closed form
#   $\gamma\sum w^3/(\sum w^2)^{3/2}$ within 7%, but so do the decaying-step chains read at the same current
#   step (within 9%): the closed form does not distinguish constant from slowly decaying steps, so this check
#   is not evidence for anything specific to constant-step SGD.
# * *Decaying-rate baseline.* The Robbins–Monro chains $\eta_k=0.5k^{-0.6}$ are far from normal at large
#   current step size, because after 5 or 15 steps they still remember the start $\theta^*+5$. At
#   $\eta_k\approx0.025$ (148 steps) they are *closer* to normal than the constant-step chain (KS 0.014 vs
#   0.021): older, larger steps spread the weight over more noise terms, which reduces the skewness. Their
#   fitted "slope" ($\approx2$) mixes forgetting with the Berry–Esseen error and is not a rate. In the
#   full-scale run of the sweep (seed 0, $R=4\cdot10^5$) the two schemes nearly coincide at $\eta=0.0125$ and
#   $0.00625$ (KS 0.015 for both, then 0.011 against 0.012), and the constant-step slope over all six step
#   sizes is 0.48. So our miniature does not show that constant steps beat
#   decaying ones at the same current step; the paper's "sharp compared to decaying schemes" refers to its
#   bound's rate, which we cannot check numerically without its exponent.
# * *Tails.* Under Student-$t$ noise ($\nu=4.5$) the tail between $10^{-2}$ and $10^{-4}$ has slope
#   $\approx-5.5$, within the brief's window $[-6,-3]$ but steeper than $-\nu$: at $\eta=0.2$ the window still
#   mixes the Gaussian bulk with the power-law tail, and the asymptotic $x^{-4.5}$ only takes over further out.
#   With Gaussian noise (control) the same window gives $\approx-11$. The single-big-jump formula gets the far
#   tail right ($9.1\cdot10^{-5}$ predicted vs $10^{-4}$ observed at $x\approx2.9$); the Gaussian approximation
#   underestimates $P(|\delta|>2.9)$ by six orders of magnitude. The classical Fuk–Nagaev constants make that
#   inequality vacuous at the scales we can simulate, so the non-asymptotic *bound* is not tested here, only
#   the polynomial shape it predicts.
#
# **What the miniature cannot show.** The paper's exact Berry–Esseen exponent, its metric and its constants
# were not available to us, so "sharp" cannot be tested; we only see that the error is polynomial in $\eta$
# with exponent near $1/2$. All models are one- or two-dimensional, the multivariate statement is only
# checked coordinate by coordinate, and the smallest step sizes (where the error sinks below the Monte Carlo
# floor $0.87/\sqrt R$) need the `full` run. The hard part was keeping the time budget: the logistic model
# mixes at rate $\eta\lambda_{\min}(A)\approx0.005$ per step, so it needs about 1,900 steps where the
# quadratic model needs 480.
