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
# tails are polynomial, tending to the noise's exponent far out. On this page every check is an illustration:
# in our small models these statements are classical results, and nothing here could tell the paper's theorems
# from them.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue
from scipy import stats

from repro.claims import Claims, at_most, between, less_than, tolerance
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
eta_big = 0.4                                 # the same logistic model at an 8x larger step (larger O(eta) bias)
rng_ctrl = np.random.default_rng([seed, 1])   # contrast cases draw from their own stream, so they leave the measurements as they were

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
#    abstract does not say in which joint limit of $k$ and $\eta$; we look at $k\to\infty$ at small $\eta$.
#    It also says the paper's conditions are much milder than those of the classical SGD CLTs; we do not
#    test conditions.
# 2. **Berry–Esseen bound.** The paper gives the first bound on the distance between the law of the
#    rescaled iterate and that normal for constant-step SGD, and calls it sharp compared with what is known
#    for decaying learning rates. Its metric and its rate in $\eta$ were not available to us; that the
#    distance shrinks like a power of $\eta$ (about $\eta^{1/2}$) is our expectation, derived below.
# 3. **Nagaev-type inequality.** A non-asymptotic bound on the tail $P(|\theta_k-\theta^*|>x)$, obtained
#    through the autoregressive approximation. Its exact form was not available to us. Inequalities of this
#    type (Nagaev 1979) bound the tail, for noise with $p$ finite moments, by a polynomial term
#    $\propto x^{-p}$ plus a Gaussian term; that is the shape we illustrate.
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
# term. The abstract says the paper's Nagaev-type inequality comes from an autoregressive approximation; that
# it has this shape is our assumption, since its form and constants were not retrieved. The polynomial term with its sharp constant is the
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
# * **Roles of the checks: all are illustrations.** Models (a) and (c) are *linear*: there the iterate is
#   exactly a weighted sum of independent noise draws, and its normality (Lindeberg), its skewness (a cumulant
#   identity) and its polynomial tail under heavy-tailed noise (the classical single-big-jump / Fuk–Nagaev
#   picture) are classical facts that hold whatever the paper says. Model (b) is nonlinear, but what it
#   measures is also prior work: that the stationary law of constant-step SGD, scaled by $\sqrt\eta$, tends to
#   $N(0,\Sigma)$ with $A\Sigma+\Sigma A=S$, with a mean offset of order $\eta$, is the classical
#   constant-step limit (Pflug 1986; Kushner and Yin 2003, ch. 10; Dieuleveut, Durmus and Bach 2020, who treat
#   logistic regression). The abstract of our paper gives no covariance; its own contributions are the
#   quenched statement under *milder* conditions, a Berry–Esseen rate and a Nagaev bound, and all our models
#   satisfy the classical conditions. So no check here could fail if the paper were wrong, and none is
#   counted. A test of the paper would need a model where its milder conditions hold and the classical ones
#   fail, and the paper's rate or inequality in explicit form (see "What the miniature cannot show").
#   In model (b) we also show a popular naive picture, "SGD is Langevin dynamics", whose Gibbs law with
#   isotropic noise of the same mean variance, $\Sigma_\text{Gibbs}=\tfrac{\operatorname{tr}S}{2d}A^{-1}$
#   (`K.langevin_isotropic_cov`), replaces the Lyapunov solution, and the same measurement at an 8 times
#   larger step $\eta=0.4$, where the $O(\eta)$ bias is larger.
# * **Cases that break the illustrations** (drawn from their own random stream, so adding them left the
#   measured values exactly as they were). *CLT:* the chains of model (a) at $\eta=0.025$ from $\theta^*+5$
#   driven by symmetric Pareto noise of tail index 1.5 (`K.symmetric_pareto_noise`): infinite variance, so the
#   limit is a stable law; they are standardised by the normal scale with the same interquartile range
#   (`K.iqr_normal_scale`). *Rate:* the slope fitted to the Gaussian-noise chains (i). *Tails:* the same chains
#   and fit window with Gaussian noise. Nothing we ran breaks the skewness formula: the decaying-step chains
#   (iii) read against the constant-step closed form fall within the same 10 % bar.
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
# are close to $N(0,1)$; at the largest step size the right skew inherited from the $\mathrm{Exp}(1)-1$ noise is visible.
# Right: the Kolmogorov distance falls along a straight line on log–log axes. Gaussian noise sits at the Monte
# Carlo floor, so the skewed line is a real Berry–Esseen error and not sampling noise.

# %%
KS_TOL = tolerance(abs=1e-4, why="KS distance of Monte Carlo samples (R >= 2e4): one sample crossing the "
                                  "normal CDF after a rounding change moves it by 1/R")
SLOPE_TOL = tolerance(abs=2e-3, why="log-log slope fitted to four Monte Carlo KS distances")
TAIL_SLOPE_TOL = tolerance(abs=2e-3, why="log-log slope fitted to nine empirical tail quantiles of Monte Carlo "
                                         "draws (R_tail >= 5e5)")
claims.illustrate("clt-quenched", statement="Model (a), eta=0.025, start theta*+5: KS distance of the "
                  "standardised iterate to N(0,1)", paper="quenched CLT: Gaussian limit for any initialisation "
                  "(no number given)", criterion=less_than(0.03), measured=float(ks_skew[P.etas.index(0.025)]),
                  tol=KS_TOL,
                  why="model (a) is linear: the iterate is exactly a weighted sum of iid Exp(1)-1 draws plus a start "
                      "term 5(1-eta)^K that the burn-in makes negligible, so its normality at small eta is "
                      "Lindeberg's classical CLT and the 'quenched' half holds by construction; the decaying-step "
                      "chains (no constant step) are closer to normal still, and only infinite-variance noise "
                      "(outside every CLT) breaks it")
claims.illustrate("berry-esseen-slope", statement="Model (a): log-log slope of KS against eta over eta in "
                  "{0.2, ..., 0.025}", paper="first Berry-Esseen bound for constant-step SGD (metric and rate not "
                  "retrieved; ~eta^0.5 is our expectation, not the paper's number)", criterion=between(0.35, 0.70),
                  measured=float(loglog_slope(P.etas[:4], ks_skew[:4])), tol=SLOPE_TOL,
                  why="the window comes from our own Edgeworth derivation (skewness ~ sqrt(eta)), not from the paper, "
                      "whose rate and metric we could not read; the paper's bound is an upper bound and sharpness "
                      "cannot be checked without its exponent; and at full scale the Gaussian-noise chains, which "
                      "have no Berry-Esseen error, also land in the window")
claims.illustrate("skewness-closed-form", statement="Model (a): largest relative gap between the "
                  "empirical skewness and gamma*sum w^3/(sum w^2)^1.5 over the eta grid", paper="mechanism: "
                  "weighted sum of iid noise (autoregressive approximation)", criterion=at_most(0.10),
                  measured=skew_gap, tol=tolerance(abs=1e-3, why="sample skewness of Monte Carlo draws"),
                  why="an exact cumulant identity of a weighted sum of iid variables, checked with our own simulator; "
                      "the decaying-step chains, read against the constant-step formula, fall within 10% too")

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
# contrast: the same measurement at an 8x larger step, where the O(eta) bias of the stationary mean is larger
th_big = K.sgd_chains(K.logistic_grad, np.zeros(2), eta_big, K.n_steps_for(eta_big, rate=np.linalg.eigvalsh(A).min(),
                      factor=3.0), P.R_logit, K.logistic_sampler(theta_star, x_var), rng_ctrl)
u_big = (th_big - theta_star) / np.sqrt(eta_big)
ks_logit_big = [ks_distance(u_big[:, i] / np.sqrt(Sigma0[i, i]), stats.norm.cdf) for i in range(2)]
# wrong input: the naive "SGD is Langevin" Gibbs law with isotropic noise of the same mean variance, on the same chains
Sigma_gibbs = K.langevin_isotropic_cov(A, A)
ks_logit_gibbs = [ks_distance(u[:, i] / np.sqrt(Sigma_gibbs[i, i]), stats.norm.cdf) for i in range(2)]
print("A =", np.round(A, 4).tolist(), " Lyapunov Sigma =", np.round(Sigma0, 4).tolist(),
      " exact linearised Sigma_eta =", np.round(C_lin, 4).tolist())
print(f"K={n_logit} steps; empirical Cov(delta/sqrt(eta)) =", np.round(np.cov(u.T), 4).tolist(),
      f"; mean of delta/sqrt(eta) = {np.round(u.mean(0), 4).tolist()}; KS per coordinate = {np.round(ks_logit, 4).tolist()}")
# what the KS is made of: the same chains centred at their own mean (the O(eta) offset removed), against the
# Lyapunov and Gibbs variances and against their own variance; and two covariances that use no eta -> 0 limit
u_c = u - u.mean(0)
ks_per = lambda v, var: [ks_distance(v[:, i] / np.sqrt(var[i]), stats.norm.cdf) for i in range(2)]
emp_var = np.var(u, axis=0)
ks_centred = ks_per(u_c, np.var(u_c, axis=0))                      # plug-in Gaussian: empirical mean and variance
ks_lyap_centred = ks_per(u_c, np.diag(Sigma0))
ks_gibbs_centred = ks_per(u_c, np.diag(Sigma_gibbs))
ks_lin_exact = ks_per(u, np.diag(C_lin))                           # exact linearised Sigma_eta, centred at theta*
ks_plugin_var = ks_per(u, np.mean(u**2, axis=0))                   # empirical second moment, centred at theta*
mc_floor_logit = 0.87 / np.sqrt(P.R_logit)
print(f"centred at the cloud's mean: KS to its own variance {np.round(ks_centred, 4).tolist()}, to the Lyapunov "
      f"variance {np.round(ks_lyap_centred, 4).tolist()}, to the Gibbs variance {np.round(ks_gibbs_centred, 4).tolist()} "
      f"(MC floor ~{mc_floor_logit:.4f}); centred at theta*: exact linearised Sigma_eta "
      f"{np.round(ks_lin_exact, 4).tolist()}, plug-in second moment {np.round(ks_plugin_var, 4).tolist()}")
print("naive Gibbs covariance (tr S / 2d) A^-1 =", np.round(Sigma_gibbs, 4).tolist(),
      f"; KS per coordinate against it = {np.round(ks_logit_gibbs, 4).tolist()}")
print(f"same model at the 8x step eta={eta_big}: mean of delta/sqrt(eta) = {np.round(u_big.mean(0), 3).tolist()}, "
      f"KS per coordinate = {np.round(ks_logit_big, 4).tolist()}")
claims.illustrate("logistic-ks", statement="Model (b), logistic regression, eta=0.05, start 0: largest "
                  "per-coordinate KS of (theta-theta*)/sqrt(eta) to the Lyapunov normal N(0, Sigma), Sigma solving "
                  "A Sigma + Sigma A = S", paper="quenched CLT for SGD iterates (the abstract gives no covariance; the "
                  "Lyapunov covariance is the classical constant-step limit)", criterion=less_than(0.04),
                  measured=float(max(ks_logit)), tol=KS_TOL,
                  why="the Gaussian stationary limit of constant-step SGD with the Lyapunov covariance, and its O(eta) "
                      "mean offset, are classical prior work (Pflug 1986, SIAM J. Control Optim.; Kushner and Yin "
                      "2003, ch. 10; Dieuleveut, Durmus and Bach 2020, Ann. Stat., who treat logistic regression), "
                      "and the model satisfies their conditions, so the check would pass whatever the truth of the "
                      "paper's milder-condition theorem; centred at its own mean the cloud is Gaussian to Monte Carlo "
                      "precision, so the KS measures the classical O(eta) bias against a bar the paper does not give, "
                      "and covariances that use no eta -> 0 limit (exact linearised Sigma_eta, plug-in variance) give "
                      "the same distance")

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
# experiment shows.

# %%
claims.illustrate("nagaev-tail-slope", statement="Model (c), Student-t(4.5) noise, eta=0.2: log-log slope of "
                  "the empirical tail where it runs from 1e-2 to 1e-4", paper="Nagaev-type tail inequality (form "
                  "not retrieved; the classical form has a polynomial x^-p term for noise with p moments)",
                  criterion=between(-nu - 1.5, -nu + 1.5), measured=float(tail_slope), tol=TAIL_SLOPE_TOL,
                  why="model (c) is linear, so the iterate is a weighted sum of iid Student-t draws and its tail "
                      "inherits the noise's power law (the classical single-big-jump result for regularly varying "
                      "sums, Nagaev 1979); the paper's own inequality and constants were not available, and the "
                      "window [-6, -3] is the brief's, not the paper's")

# %%
claims.headline("quenched-clt", "From any fixed starting point, the fluctuations of constant-step SGD around its "
                "target, scaled by the square root of the step, become Gaussian, under weaker conditions than the "
                "classical CLTs",
                untestable="all our models satisfy the classical conditions, under which the Gaussian limit (with the "
                           "Lyapunov covariance) is prior work (Pflug 1986, Kushner-Yin, Dieuleveut-Durmus-Bach 2020), "
                           "and the start is forgotten geometrically by construction of the burn-in; a test would need "
                           "a model where the paper's milder conditions hold and the classical ones fail, which the "
                           "abstract does not name; models (a) and (b) show the limit as illustrations")
claims.headline("berry-esseen", "The distance between the law of the iterate and that Gaussian obeys a "
                "Berry-Esseen bound, the first for constant steps and sharp compared with decaying-step results",
                untestable="the paper's metric, rate in eta and constants were not available to us (abstract "
                           "only), so no measurement can check the bound or its sharpness; the KS-versus-eta slope "
                           "is compared with our own derivation and shown as an illustration")
claims.headline("nagaev-tail", "A Nagaev-type inequality, from the autoregressive approximation, bounds the tail "
                "probabilities of the iterate without asymptotics",
                untestable="the inequality's form and constants were not available; the classical Fuk-Nagaev "
                           "constants make such a bound vacuous at the scales we can simulate, and the polynomial "
                           "tail shape it implies is classical (shown as an illustration)")

# %%
i_min = P.etas.index(0.025)
for key, x in {
    "ks_min": ks_skew[i_min], "ks_rm_min": ks_rm[i_min], "ks_heavy": ks_heavy, "two_sample": two_sample,
    "slope4": loglog_slope(P.etas[:4], ks_skew[:4]), "slope_gauss": slope_gauss, "slope_rm": slope_rm,
    "mc_floor": mc_floor, "skew_gap_pct": 100 * skew_gap, "skew_gap_rm_pct": 100 * skew_gap_rm,
    "ks_logit": max(ks_logit), "ks_logit_gibbs": max(ks_logit_gibbs), "ks_logit_big": max(ks_logit_big),
    "ks_logit_1": ks_logit[0], "ks_logit_2": ks_logit[1],
    "ks_gibbs_1": ks_logit_gibbs[0], "ks_gibbs_2": ks_logit_gibbs[1],
    "gibbs_var_1": Sigma_gibbs[0, 0], "gibbs_var_2": Sigma_gibbs[1, 1], "lyap_var": Sigma0[0, 0],
    "mean_off_1": u.mean(0)[0], "emp_var_1": np.cov(u.T)[0, 0], "emp_var_2": np.cov(u.T)[1, 1],
    "lam_min": np.linalg.eigvalsh(A).min(), "lam_max": np.linalg.eigvalsh(A).max(),
    "tail_slope": tail_slope, "tail_slope_g": tail_slope_g, "x_far_q": x_q[-1],
    "jump_at_far": K.big_jump_tail(x_q[-1:], eta_tail, 1.0, stats.t(nu).sf, K.n_steps_for(eta_tail))[0],
    "gauss_at_far": 2 * stats.norm.sf(x_q[-1] / sd_tail), "x_useful": x_useful,
    "ks_centred": max(ks_centred), "ks_lyap_centred": max(ks_lyap_centred),
    "ks_gibbs_centred_1": ks_gibbs_centred[0], "ks_gibbs_centred_2": ks_gibbs_centred[1],
    "ks_lin_exact": max(ks_lin_exact), "ks_plugin_var": max(ks_plugin_var), "mc_floor_logit": mc_floor_logit,
    "mean_off_big": u_big.mean(0)[0],
}.items():
    glue(key, float(x), display=False)
glue("n_logit", int(n_logit), display=False)
glue("eta_big", float(eta_big), display=False)
glue("R_logit", int(P.R_logit), display=False)

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
# Every check on this page is an illustration, so the page is illustrated, not tested. In the linear models
# (a) and (c) the statements are classical facts about weighted sums of independent draws; in the nonlinear
# model (b) the measured statement, a Gaussian stationary law with the Lyapunov covariance, is the classical
# constant-step limit of prior work (Pflug; Kushner and Yin; Dieuleveut, Durmus and Bach), not something only
# this paper claims. What they show, at this seed:
#
# * *A nonlinear SGD (model b).* After {glue:text}`n_logit` steps from a fixed start, {glue:text}`R_logit`
#   logistic-SGD chains lie within a largest per-coordinate KS distance of {glue:text}`ks_logit:.4f` of the
#   Lyapunov normal (coordinates {glue:text}`ks_logit_1:.4f` and {glue:text}`ks_logit_2:.4f`), under the brief's
#   bar. Almost all of that distance is the mean offset of the first coordinate,
#   {glue:text}`mean_off_1:.3f` in units of $\sqrt\eta$: the classical $O(\eta)$ bias of constant-step SGD on a
#   nonlinear loss. Centred at its own mean and scaled by its own variance the cloud is within
#   {glue:text}`ks_centred:.4f` of a normal, at the Monte Carlo floor {glue:text}`mc_floor_logit:.4f`. Whether
#   the bias at the brief's $\eta$ falls under its bar is a matter of the brief's step and bar, neither from the paper.
#   The naive "SGD is Langevin" Gibbs law (variances {glue:text}`gibbs_var_1:.3f` and {glue:text}`gibbs_var_2:.3f`
#   where the Lyapunov solution gives {glue:text}`lyap_var:.2f` for both) gives {glue:text}`ks_logit_gibbs:.4f` on
#   the same chains, but only because its covariance error adds to the bias: against the centred cloud it gives
#   {glue:text}`ks_gibbs_centred_1:.4f` and {glue:text}`ks_gibbs_centred_2:.4f`, under the bar. The same
#   measurement at the 8 times larger step $\eta=$ {glue:text}`eta_big:.1f` gives {glue:text}`ks_logit_big:.4f`,
#   with a larger offset ({glue:text}`mean_off_big:.3f`), as the classical bias predicts.
# * *Normality from any start (model a).* At the smallest step the standardised iterate started at
#   $\theta^*+5$ is within KS {glue:text}`ks_min:.4f` of $N(0,1)$, and the clouds from $\theta^*\pm5$ differ by a
#   two-sample KS of {glue:text}`two_sample:.4f`, at the Monte Carlo floor {glue:text}`mc_floor:.4f`. Only
#   infinite-variance Pareto noise breaks it (KS {glue:text}`ks_heavy:.4f`), i.e. a case outside every CLT.
# * *Rate.* KS falls like $\eta$ to the power {glue:text}`slope4:.2f`, as our Edgeworth argument predicts;
#   Gaussian noise gives a slope of {glue:text}`slope_gauss:.2f` at this seed (no error to decay), but at full
#   scale its slope is a fit to four numbers at the Monte Carlo floor and can land anywhere, including in
#   the window. The paper's own rate is unknown to us, so this does not test its bound.
# * *Skewness.* The empirical skewness follows the weighted-sum formula within {glue:text}`skew_gap_pct:.0f` %,
#   and so do decaying-step chains read against the same formula (within {glue:text}`skew_gap_rm_pct:.0f` %).
# * *Tails (model c).* Under Student-$t$ noise the tail between $10^{-2}$ and $10^{-4}$ has slope
#   {glue:text}`tail_slope:.2f` (Gaussian noise: {glue:text}`tail_slope_g:.1f`), steeper than $-\nu$ because
#   the window still mixes the Gaussian bulk with the power law. At the far end of the window the
#   single-big-jump formula predicts {glue:text}`jump_at_far:.1e` and the Gaussian approximation
#   {glue:text}`gauss_at_far:.1e`, against the observed $10^{-4}$. The classical Fuk–Nagaev bound with textbook
#   constants first drops below $10^{-2}$ at $x=$ {glue:text}`x_useful:.0f`, far beyond anything simulated.
#
# None of the paper's three headline claims can be tested here. The Berry–Esseen bound and the Nagaev
# inequality: their forms, rates and constants were not available to us. The quenched CLT under milder
# conditions: all our models satisfy the classical conditions, so the Gaussian limit we see is the classical
# one, and the start is forgotten by construction of the burn-in.
#
# ## What a skeptic would try
#
# Reviewed by an independent skeptic (a helper that did not write the page), with the rubric, the page, its
# record and the kernels. They re-ran model (b) on the notebook's own streams at seeds 0-9 against naive
# covariances, computed the Gibbs law's population KS without Monte Carlo noise, and repeated the measurement at
# other step sizes; they found that the one check then counted (`logistic-ks`) measures a classical result, that
# its margin to the bar lies inside the spread over seeds, and that naive covariances pass it equally. It is an
# illustration now. What they tried is above and below, measured by this notebook at this seed:
#
# * **Covariances that use no $\eta\to0$ limit**, on the same chains of model (b): the exact linearised
#   $\Sigma_\eta$ gives {glue:text}`ks_lin_exact:.4f` and a plug-in Gaussian with the empirical second moment,
#   centred at $\theta^*$ (no theory at all), gives {glue:text}`ks_plugin_var:.4f`, against the Lyapunov
#   normal's {glue:text}`ks_logit:.4f`. With the empirical mean as well the plug-in gives
#   {glue:text}`ks_centred:.4f`, at the Monte Carlo floor. The Lyapunov covariance alone, against the centred
#   cloud, gives {glue:text}`ks_lyap_centred:.4f`.
# * **The Gibbs law without the bias**: against the centred cloud it gives {glue:text}`ks_gibbs_centred_1:.4f`
#   and {glue:text}`ks_gibbs_centred_2:.4f`, under the bar, so at this anisotropy (eigenvalues of $A$:
#   {glue:text}`lam_min:.3f` and {glue:text}`lam_max:.3f`) the measurement cannot tell the Lyapunov covariance
#   from the Gibbs one by itself; the empirical variances are {glue:text}`emp_var_1:.3f` and
#   {glue:text}`emp_var_2:.3f`.
# * **Other seeds and step sizes** (the reviewer's runs, not repeated here, as they would multiply the page's
#   runtime): the margin of model (b) to the bar was inside the spread over seeds 0-9, with one seed above it,
#   and the same measurement passed at a smaller step and failed at a larger one, with the offset growing like
#   $\sqrt\eta$ in these units. Pass or fail is set by the step against the bar, not by the paper.
# * **A decaying learning rate instead of a constant one** (Robbins–Monro $\eta_k=\eta_0k^{-\alpha}$ with the
#   brief's $\eta_0$ and $\alpha$, from the same
#   start, read when $\eta_k$ reaches the smallest grid step): its iterate is *closer* to normal than the
#   constant-step one (KS {glue:text}`ks_rm_min:.4f` against {glue:text}`ks_min:.4f`). Normality is not
#   specific to constant steps, which is one more reason the model-(a) check is only an illustration. Its
#   fitted "slope" ({glue:text}`slope_rm:.1f`) mixes forgetting of the start with the Berry–Esseen error and is
#   not a rate.
# * **The per-coordinate one-dimensional formula** $S_{ii}/(2A_{ii})$ was considered and is not a comparator:
#   for a well-specified model $S=A$, so it gives the same $\tfrac12$ as the Lyapunov solution, and it would
#   pass by identity, not by merit.
# * **The small-$\eta$ Lyapunov variance instead of the exact $\Sigma_\eta$** in model (a) changes almost
#   nothing (table above): the variance ratio is $1/(1-\eta/2)$.
#
# ## What the miniature cannot show
#
# * The paper's Berry–Esseen exponent, metric and constants, hence whether its bound holds or is sharp compared
#   with decaying-step schemes; we only see that our KS error is polynomial in $\eta$.
# * The paper's Nagaev-type inequality itself: its form was not available, and the classical constants are
#   vacuous at simulable scales.
# * The "milder conditions" of the paper: all our models satisfy the classical conditions (bounded or
#   Gaussian features, smooth losses), so nothing here separates the paper's CLT from the classical ones. A
#   test would need a model where the paper's conditions hold and the classical ones fail (the abstract does not
#   say which), and a quantity the paper predicts and the classical results do not.
# * High dimension: the models are one- and two-dimensional, and the multivariate statement is checked
#   coordinate by coordinate. Separating the Lyapunov and Gibbs covariances would need a more anisotropic model
#   or more chains than the ci budget allows (the logistic model mixes slowly, at rate $\eta\lambda_{\min}(A)$
#   per step), and it would still test a classical result.
