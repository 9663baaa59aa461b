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
# # Adaptive conformal bands with kernel sum-of-squares
#
# *A band whose width is a kernel sum-of-squares function, fitted through its dual by accelerated gradient and
# calibrated by split conformal prediction, keeps marginal coverage and tracks heteroscedastic noise better than
# a constant-width band; an HSIC criterion picks its lengthscale.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np

from repro.claims import Claims, at_least, at_most, between, tolerance
from repro.papers import ksos_conformal_bands as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    "ci": dict(reps=20, n_mean=200, n_fit=200, n_cal=500, n_val=500, n_test=2000, landmarks=30,
               iters=400, n_dual=60, landmarks_dual=20, iters_dual=2000),
    "full": dict(reps=40, n_mean=500, n_fit=500, n_cal=1000, n_val=1000, n_test=5000, landmarks=50,
                 iters=600, n_dual=60, landmarks_dual=60, iters_dual=5000),
})
claims = Claims("ksos-conformal-bands",
                title="Scalable and adaptive prediction bands with kernel sum-of-squares",
                authors="Louis Allain, Sébastien da Veiga, Brian Staber",
                paper_url="https://arxiv.org/abs/2505.21039", scale=scale, seed=seed)
rng = np.random.default_rng(seed)
ALPHA, LAM1, LAM2 = 0.1, 1e-3, 1e-1          # miscoverage; trace and Frobenius penalties (fixed before the run)
GRID = np.array([0.25, 0.5, 1.0, 2.0, 4.0])  # kSoS lengthscales searched by HSIC (the median heuristic is added)
N_BINS = 10

# %% [markdown]
# ## The claim
#
# Conformal prediction gives finite-sample marginal coverage for any score, but the usual absolute-residual
# score yields a band of constant width, which over-covers where the noise is small and under-covers where it
# is large. The paper learns the score's scale $f(x)$ as a kernel sum-of-squares (a PSD operator in an RKHS),
# shows a representer theorem and a dual problem that accelerated gradient solves for thousands of points
# (where generic SDP solvers stall), and tunes the kernel lengthscale with the Hilbert-Schmidt Independence
# Criterion between the inputs and the coverage indicator. The brief found no numbers from the paper (its code
# is on GitLab, outside our index), so this page checks the qualitative claims only.
#
# ## The method
#
# With a mean model $m$ fitted on one fold and residuals $r_i = y_i - m(x_i)$ on a second fold, the band's
# scale is $f(x) = \phi(x)^\top B\,\phi(x)$ with $B \succeq 0$ (non-negative for every $x$ by construction):
#
# $$\min_{B\succeq 0}\ \frac1n\sum_i f(x_i) + \lambda_1 \operatorname{tr}B + \lambda_2\|B\|_F^2
# \quad\text{s.t.}\quad f(x_i) \ge r_i^2 .$$
#
# Its dual (our derivation; strong duality is checked below against cvxpy) is
#
# $$\max_{a\ge 0}\ \sum_i a_i r_i^2 - \frac{1}{4\lambda_2}\Big\|\Big[\sum_i (a_i - \tfrac1n)\phi_i\phi_i^\top
# - \lambda_1 I\Big]_+\Big\|_F^2, \qquad B = \frac{[\cdot]_+}{2\lambda_2},$$
#
# a smooth concave problem whose gradient is the constraint slack $r_i^2 - f(x_i)$; we solve it by projected
# FISTA with adaptive restart (one $p\times p$ eigendecomposition per step). The score is
# $S = |y - m(x)|/\sqrt{f(x)}$, its split-conformal quantile $q$ on a calibration fold gives the band
# $m(x) \pm q\sqrt{f(x)}$. The lengthscale $\ell$ of $\phi$ is the one that minimises
# $\mathrm{HSIC}(X, \mathbb 1\{y\in\text{band}\})$ on a validation fold: coverage independent of $x$ is
# conditional coverage. Kernels: `src/repro/papers/ksos_conformal_bands.py`.
#
# ## The experiment
#
# Data $y = \sin 2x + (0.1 + 0.5|x|)\,\varepsilon$, $x\sim U(-3,3)$, $\varepsilon\sim N(0,1)$: the noise
# standard deviation grows sixteen-fold from the centre to the edges. Each repetition draws fresh folds (mean,
# SoS fit, calibration, validation, test); all repetitions and lengthscales run as one batch of arrays. Methods,
# all with the same kernel-ridge mean $m$ and $\alpha = 0.1$:
#
# * **kSoS** (HSIC-tuned $\ell$), and kSoS at every $\ell$ of the grid;
# * **split CP**: score $|y - m(x)|$ (constant width);
# * **locally weighted CP (LW-CP)**: score $|y-m(x)|/\hat\sigma(x)$ with $\hat\sigma$ a kernel-ridge fit of
#   $|r|$ on the SoS fold (the adaptive baseline);
# * the **plug-in band** $m \pm 1.645\,\hat\sigma$ (no conformal step), a control for coverage.
#
# Conditional coverage is measured as the worst deviation $\max_b|\widehat{\mathrm{cov}}_b - 0.9|$ over 10
# equal-width bins of $x$ on the test fold (an oracle band with the true noise gets about 0.04 from binning noise
# alone at ci scale).
#
# **Deviations from the paper**
#
# * Objective: ours is Liang's SDP band with trace and Frobenius penalties ("kSoS-style"); the paper's exact
#   objective, its two-RKHS score and its defaults were not available to us.
# * Feature map: a Nyström span of 30 (ci) / 50 (full) landmarks at evenly spaced ranks instead of the full
#   representer span of the fitting fold; squared residuals are divided by their mean before fitting (the
#   conformal step absorbs the scale).
# * Score floor: $f + 10^{-6}\,\overline{r^2}$ under the square root, so that scores stay finite.
# * Adaptive baseline: LW-CP only; CQR (quantile gradient boosting) is left out to keep the ci run short.
# * Data: one synthetic 1-D heteroscedastic problem; the paper uses several benchmarks and thousands of points.
# * Duality reference: cvxpy (Clarabel) on $n=60$ points with 20 (ci) / 60 (full) landmarks.

# %%
def fold(n):
    """One fold for every repetition: X (reps, n, 1), y (reps, n), true sd (reps, n)."""
    return K.make_heteroscedastic(rng, (P.reps, n))

(Xm, ym, _), (Xf, yf, _), (Xc, yc, _), (Xv, yv, _), (Xt, yt, sd_t) = [
    fold(n) for n in (P.n_mean, P.n_fit, P.n_cal, P.n_val, P.n_test)]
Xrest = np.concatenate([Xf, Xc, Xv, Xt], 1)
cuts = np.cumsum([P.n_fit, P.n_cal, P.n_val])
mf, mc, mv, mt = np.split(K.krr_fit_predict(Xm, ym, Xrest, 0.5, 1e-3), cuts, axis=1)
r2_raw = (yf - mf) ** 2
r2 = r2_raw / r2_raw.mean(1, keepdims=True)
delta = 1e-6

# lengthscales: the grid plus the median heuristic of each repetition's fitting fold
iu = np.triu_indices(P.n_fit, 1)
ls_med = np.median(np.abs(Xf[:, :, None, 0] - Xf[:, None, :, 0])[:, iu[0], iu[1]], axis=1)
LS = np.concatenate([np.broadcast_to(GRID, (P.reps, len(GRID))), ls_med[:, None]], 1)   # (reps, G)
G = LS.shape[1]

def per_ls(a):
    """Repeat a per-repetition array along a new lengthscale axis 1."""
    return np.broadcast_to(a[:, None], (a.shape[0], G) + a.shape[1:])

lm = per_ls(K.spread_landmarks(Xf, P.landmarks))
Phi_f, W = K.nystrom_features(per_ls(Xf), lm, LS)
fit = K.ksos_fit_dual(Phi_f, per_ls(r2), LAM1, LAM2, iters=P.iters)
f_all = K.ksos_predict_f(fit["B"], K.rbf_kernel(per_ls(Xrest), lm, LS) @ W)
f_f, f_c, f_v, f_t = np.split(f_all, cuts, axis=-1)
print(f"kSoS fits: {P.reps} x {G} problems, largest relative duality gap "
      f"{np.max(np.abs(fit['primal'] - fit['dual']) / fit['primal']):.1e}, "
      f"largest constraint violation {fit['violation'].max():.1e} (residuals normalised to mean 1)")

# %%
def band_cover(y, m, half):
    return np.abs(y - m) <= half

# kSoS, every lengthscale: calibrate, then validation-fold HSIC and test-fold coverage
q_k = K.conformal_quantile(K.ksos_scores(per_ls(yc), per_ls(mc), f_c, delta), ALPHA)      # (reps, G)
cov_v = band_cover(per_ls(yv), per_ls(mv), q_k[..., None] * np.sqrt(f_v + delta))
hsic_v = K.hsic(per_ls(Xv), cov_v, ls_med[:, None])
half_k = q_k[..., None] * np.sqrt(f_t + delta)
cov_k = band_cover(per_ls(yt), per_ls(mt), half_k)                                        # (reps, G, n_test)
xt = Xt[..., 0]
dev_k = K.worst_bin_deviation(K.coverage_by_bins(per_ls(xt), cov_k, N_BINS, -3, 3), 1 - ALPHA)
r = np.arange(P.reps)
sel = hsic_v[:, :-1].argmin(1)            # HSIC choice among the grid
anti = hsic_v[:, :-1].argmax(1)           # the lengthscale HSIC likes least (control)
MED = G - 1                               # median-heuristic column

# split CP and LW-CP
q_s = K.conformal_quantile(np.abs(yc - mc), ALPHA)
half_s = np.broadcast_to(q_s[:, None], yt.shape)
sig = np.maximum(K.krr_fit_predict(Xf, np.sqrt(r2_raw), np.concatenate([Xc, Xt], 1), 0.5, 1e-3), 1e-2)
sig_c, sig_t = sig[:, :P.n_cal], sig[:, P.n_cal:]
q_l = K.conformal_quantile(np.abs(yc - mc) / sig_c, ALPHA)
half_l = q_l[:, None] * sig_t
half_p = 1.645 * sig_t                    # plug-in band, no conformal step

methods = {"kSoS (HSIC ℓ)": (cov_k[r, sel], half_k[r, sel]), "split CP": (band_cover(yt, mt, half_s), half_s),
           "LW-CP": (band_cover(yt, mt, half_l), half_l), "plug-in (no CP)": (band_cover(yt, mt, half_p), half_p),
           "oracle (true sd)": (band_cover(yt, np.sin(2 * xt), 1.645 * sd_t), 1.645 * sd_t)}
summary = {}
for name, (cov, half) in methods.items():
    per_rep = cov.mean(1)
    bins = K.coverage_by_bins(xt, cov, N_BINS, -3, 3)
    summary[name] = dict(cov=per_rep.mean(), mc=per_rep.std(ddof=1) / np.sqrt(P.reps), width=2 * half.mean(),
                         dev=K.worst_bin_deviation(bins, 1 - ALPHA).mean(), bins=bins)
print(f"{'method':18s} {'coverage':>16s} {'width':>7s} {'worst-bin dev':>14s}   ({P.reps} repetitions)")
for name, s in summary.items():
    print(f"{name:18s} {s['cov']:.3f} ± {s['mc']:.3f} (MC) {s['width']:7.2f} {s['dev']:14.3f}")
print("HSIC picks (grid", GRID, "):", np.bincount(sel, minlength=len(GRID)), "; median heuristic ℓ ≈",
      f"{ls_med.mean():.2f}")

# %% [markdown]
# ### Dual against cvxpy
#
# On one small problem the FISTA dual value must meet the primal optimum that cvxpy finds for the SDP. The
# control evaluates the same multipliers in a deliberately wrong dual: the one without the positive part
# $[\cdot]_+$, which is the dual of the problem *without* the constraint $B\succeq 0$.

# %%
Xd, yd, _ = K.make_heteroscedastic(rng, (P.n_dual,))
rd = (yd - np.sin(2 * Xd[:, 0])) ** 2
rd = rd / rd.mean()
Phi_d, _ = K.nystrom_features(Xd, K.spread_landmarks(Xd, P.landmarks_dual), 1.0)
dual_d = K.ksos_fit_dual(Phi_d, rd, LAM1, LAM2, iters=P.iters_dual)
ref = K.ksos_fit_cvxpy(Phi_d, rd, LAM1, LAM2)
wrong, _, _ = K.ksos_dual_objective(dual_d["alpha"], Phi_d, rd, LAM1, LAM2, psd=False)
gap = abs(float(dual_d["dual"]) - ref["primal"]) / abs(ref["primal"])
gap_wrong = abs(float(wrong) - ref["primal"]) / abs(ref["primal"])
print(f"cvxpy ({ref['status']}): primal {ref['primal']:.6f}; FISTA dual {float(dual_d['dual']):.6f} "
      f"(relative gap {gap:.1e}, primal violation {float(dual_d['violation']):.1e}); "
      f"dual without [.]_+: {float(wrong):.6f} (gap {gap_wrong:.1e})")
print("largest entry of |B_FISTA - B_cvxpy|:", f"{np.abs(dual_d['B'] - ref['B']).max():.1e}")

# %% [markdown]
# ## Results
#
# The first figure shows one repetition's bands over the test inputs and, below, the coverage in each bin of
# $x$ averaged over the repetitions (bars: ± one standard error over repetitions). The second shows what the
# lengthscale does: the test-fold worst-bin deviation and the mean band width against $\ell$, with the
# validation-fold HSIC that chooses it.

# %%
order = np.argsort(xt[0])
fig, (a0, a1) = plt.subplots(2, 1, figsize=(8, 7.5), sharex=True)
a0.scatter(xt[0], yt[0] - mt[0], s=2, c="0.7", label="test residuals $y - m(x)$")
for name, c in [("kSoS (HSIC ℓ)", "C0"), ("split CP", "C1"), ("LW-CP", "C2")]:
    h = methods[name][1][0][order]
    a0.plot(xt[0][order], h, c, label=name)
    a0.plot(xt[0][order], -h, c)
a0.plot(xt[0][order], 1.645 * sd_t[0][order], "k:", label="oracle ±1.645 sd")
a0.plot(xt[0][order], -1.645 * sd_t[0][order], "k:")
a0.set_ylabel("residual and band half-width (units of y)")
a0.legend(fontsize=8, ncol=2)
a0.set_title("repetition 0: bands around the mean model")
centres = -3 + (np.arange(N_BINS) + 0.5) * 6 / N_BINS
for k_, (name, c) in enumerate([("kSoS (HSIC ℓ)", "C0"), ("split CP", "C1"), ("LW-CP", "C2")]):
    b = summary[name]["bins"]
    a1.errorbar(centres + 0.08 * (k_ - 1), b.mean(0), yerr=b.std(0, ddof=1) / np.sqrt(P.reps), fmt="o-",
                c=c, ms=4, capsize=2, label=name)
a1.axhline(1 - ALPHA, c="k", ls="--", lw=1, label="target 0.9")
a1.set_xlabel("x (input, dimensionless)")
a1.set_ylabel("coverage in bin (fraction)")
a1.set_title(f"conditional coverage over {N_BINS} bins, mean of {P.reps} repetitions")
a1.legend(fontsize=8)
plt.show()

# %%
fig, (b0, b1) = plt.subplots(1, 2, figsize=(10, 3.8))
se = lambda a: a.std(0, ddof=1) / np.sqrt(P.reps)
b0.errorbar(GRID, dev_k[:, :-1].mean(0), yerr=se(dev_k[:, :-1]), fmt="o-", c="C0", capsize=2,
            label="kSoS, worst-bin deviation (test)")
b0.axhline(summary["split CP"]["dev"], c="C1", ls="--", label="split CP")
b0.axhline(summary["LW-CP"]["dev"], c="C2", ls="--", label="LW-CP")
b0.axhline(summary["oracle (true sd)"]["dev"], c="k", ls=":", label="oracle (binning noise)")
b0.set_xlabel("kSoS lengthscale ℓ (units of x)")
b0.set_ylabel("max over bins |coverage − 0.9|")
b0.legend(fontsize=7)
bb = b0.twinx()
bb.errorbar(GRID, hsic_v[:, :-1].mean(0), yerr=se(hsic_v[:, :-1]), fmt="s:", c="C3", capsize=2, ms=4)
bb.set_ylabel("validation HSIC(x, covered) (red squares)", color="C3")
b1.errorbar(GRID, (2 * half_k[:, :-1]).mean((0, 2)), yerr=se((2 * half_k[:, :-1]).mean(2)), fmt="o-", c="C0",
            capsize=2, label="kSoS")
for name, c in [("split CP", "C1"), ("LW-CP", "C2"), ("oracle (true sd)", "k")]:
    b1.axhline(summary[name]["width"], c=c, ls="--" if c != "k" else ":", label=name)
for ax in (b0, b1):
    ax.set_xscale("log")
    ax.set_xticks(GRID, [f"{g:g}" for g in GRID])
    ax.minorticks_off()
b1.set_xlabel("kSoS lengthscale ℓ (units of x)")
b1.set_ylabel("mean band width (units of y)")
b1.legend(fontsize=7)
plt.show()

# %% [markdown]
# The paper's numbers were not retrieved (see the brief), so there is no side-by-side table of reported values;
# the table printed above (coverage with its Monte Carlo error over repetitions, width, worst-bin deviation) is
# this page's result.
#
# ## Claims
#
# Criteria fixed before the first run, from the brief: marginal coverage within $[0.87, 0.95]$ for
# $\alpha=0.1$; a worst-bin deviation at least 0.10 below that of split CP; a relative duality gap at most
# $10^{-3}$ against cvxpy; HSIC tuning no worse than the median heuristic on fresh test data.

# %%
MC = tolerance(abs=0.01, why="coverage over random folds: a last-digit change can move a few test points across the band edge")
DEV = tolerance(abs=0.02, why="worst-bin deviation over random folds; a changed quantile moves a bin's coverage")
cov_plug = summary["plug-in (no CP)"]["cov"]
claims.check("marginal-coverage",
             statement=f"kSoS bands cover a fresh point with probability 1 - alpha = 0.9 (mean over {P.reps} splits)",
             paper="finite-sample marginal coverage of split conformal (no number found)",
             criterion=between(0.87, 0.95), measured=float(summary["kSoS (HSIC ℓ)"]["cov"]),
             control=float(cov_plug), control_label="plug-in band m ± 1.645 σ̂(x), no conformal calibration",
             tol=MC)
claims.check("conditional-coverage-gain",
             statement="kSoS (HSIC ℓ) lowers the worst-bin coverage deviation by at least 0.10 versus split CP",
             paper="kSoS is adaptive; outperforms or matches adaptive CP methods (no number found)",
             criterion=at_least(0.10),
             measured=float(summary["split CP"]["dev"] - summary["kSoS (HSIC ℓ)"]["dev"]),
             control=float(summary["split CP"]["dev"] - dev_k[:, len(GRID) - 1].mean()),
             control_label=f"kSoS at the largest lengthscale ℓ = {GRID[-1]:g} (nearly constant width)", tol=DEV)
claims.check("dual-matches-cvxpy", kind="theorem",
             statement=f"the FISTA dual value equals the cvxpy SDP optimum (n = {P.n_dual}), relative gap <= 1e-3",
             paper="dual formulation of the kSoS problem (representer theorem + duality)",
             criterion=at_most(1e-3), measured=float(gap), control=float(gap_wrong),
             control_label="same multipliers in the dual without [.]_+ (no PSD constraint)",
             tol=tolerance(rel=0.5, abs=1e-6, why="solver end points (Clarabel tolerance, FISTA iterations)"))
claims.check("hsic-tuning",
             statement="the HSIC-chosen lengthscale gives no larger test worst-bin deviation than the median heuristic",
             paper="HSIC criterion tunes lengthscales towards test-conditional coverage",
             criterion=at_least(0.0), measured=float((dev_k[:, MED] - dev_k[r, sel]).mean()),
             control=float((dev_k[:, MED] - dev_k[r, anti]).mean()),
             control_label="the lengthscale with the largest validation HSIC", tol=DEV)

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# * **Marginal coverage: reproduced.** Over 20 random splits at ci scale the HSIC-tuned kSoS band covers
#   0.901 ± 0.004 (Monte Carlo standard error) of fresh points, inside $[0.87, 0.95]$; the plug-in band
#   $m \pm 1.645\hat\sigma$ with the same scale model but no conformal step covers only 0.79. Split CP and LW-CP
#   are valid too; the conformal step, not the score, is what guarantees coverage.
# * **Adaptivity against split CP: not reproduced at the pre-registered margin.** kSoS lowers the worst-bin
#   coverage deviation from 0.197 (split CP) to 0.119, a gain of 0.078 against the 0.10 we asked for, and its
#   band is narrower (3.10 against 3.30). It is no better than locally weighted CP (0.111, width 3.12) and far
#   from the oracle (0.038, which is binning noise alone): the fitted envelope $f \ge r^2$ is pulled by the
#   largest residuals and wiggles at the small lengthscales HSIC prefers (first figure, top). The paper's
#   "outperforms or matches" cannot be checked without its objective, datasets and numbers.
# * **Dual against cvxpy: holds, but uninformative as pre-registered.** FISTA's dual value meets the cvxpy SDP
#   optimum to a relative $10^{-9}$ and recovers the same $B$ (entries within $10^{-5}$). The control, the dual
#   without the positive part, is only $8\times10^{-4}$ away here because few eigenvalues of $M$ are negative at
#   this $(\lambda_1,\lambda_2)$, so it passes the $10^{-3}$ criterion too and the claim is not counted at ci
#   scale. With 60 landmarks (full scale, seed 0) the control is $1.1\times10^{-3}$ away and fails, so the claim counts
#   there, narrowly.
#   The strong duality of our formulation is also asserted in the unit tests.
# * **HSIC tuning: reproduced.** On fresh test data the HSIC-chosen lengthscale has a worst-bin deviation 0.05
#   lower than the median heuristic ($\ell \approx 1.8$), while the lengthscale with the largest validation HSIC
#   is 0.06 worse. Validation HSIC and test-fold deviation rise together with $\ell$ (second figure).
#
# **Across seeds** (robustness table): at ci scale over seeds 0-9, coverage holds at every seed (0.898-0.908,
# control 0.788-0.804), the HSIC claim holds at every seed (gain 0.039-0.068, control about -0.05), the
# conditional-coverage gain never reaches 0.10 (0.046-0.084), and the dual claim counts at 4 of 10 seeds: the
# FISTA-cvxpy gap is below $10^{-6}$ at every seed, but the wrong-dual control falls under $10^{-3}$ at the other
# six, which makes it uninformative there. At full scale (40 repetitions, 500 fitting points, 50 landmarks;
# seeds 0-2, 109-189 s each on the loaded build machine) the picture is the same: coverage 0.900-0.902 (control
# 0.80), HSIC gain 0.064-0.069, the conditional-coverage gain closer to but still short of 0.10 (0.091-0.097),
# and the dual claim counted at seeds 0-1 and uninformative at seed 2 (control gap $0.9\times10^{-3}$). The
# honest reading: the kSoS band is valid and clearly more adaptive than split CP, about as adaptive as
# locally weighted CP, and its dual solver agrees with the SDP; the 0.10 margin over split CP is not reached
# in this miniature, and our wrong-dual control is too weak to make the duality check count at every seed.
#
# ## What the miniature cannot show
#
# * The paper's scalability claim (hundreds to thousands of points where SDP solvers stall) is seen only in
#   passing: our problems are small, and the Nyström span keeps the matrix at 30-60 landmarks.
# * Real benchmarks, the paper's exact objective and score, and CQR as a baseline are absent.
# * One input dimension: binning gives a direct view of conditional coverage here, which is what HSIC stands in
#   for in higher dimension, where our binned metric would not work.
