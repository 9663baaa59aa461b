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
# a constant-width band, though by less than the margin we asked for; an HSIC criterion picks its lengthscale.
# In this miniature the band is no more adaptive than locally weighted conformal prediction, and at the seed
# shown less adaptive than conformalised quantile regression or bin-wise split conformal prediction; HSIC's pick
# does no better than a fixed small lengthscale.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np

from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, between, tolerance
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
# * **ridge scale** (the ablation of the sum-of-squares scale): the same features, lengthscale and conformal
#   step, with $f(x) = \max(\phi(x)^\top w,\ 0.01)$ and $w$ a ridge fit of the normalised $r^2$ (ridge
#   $10^{-3}$, as in the page's other kernel-ridge fits): a plain linear function in the RKHS instead of a PSD
#   quadratic form fitted as an envelope;
# * **split CP**: score $|y - m(x)|$ (constant width);
# * **locally weighted CP (LW-CP)**: score $|y-m(x)|/\hat\sigma(x)$ with $\hat\sigma$ a kernel-ridge fit of
#   $|r|$ on the SoS fold (the first adaptive baseline);
# * **CQR** (conformalised quantile regression, Romano et al. 2019): linear quantile regressions at levels
#   $\alpha/2$ and $1-\alpha/2$ on a cubic B-spline basis of $x$ (8 knots on $[-3,3]$, solved exactly as a
#   linear programme), trained on the mean and SoS folds together, with the score
#   $\max(\hat q_{lo}(x) - y,\ y - \hat q_{hi}(x))$ calibrated on the same calibration fold (the second
#   adaptive baseline; it does not use $m$);
# * **LW-CP with a kNN scale**: $\hat\sigma(x)$ the mean $|r|$ of the {glue:text}`k_nn` nearest SoS-fold points
#   (a fifth of the fold; the value an independent reviewer tried, not tuned here);
# * **bin-wise (Mondrian) split CP**: one conformal quantile of $|y - m(x)|$ per bin of $x$, with the 10 bins of
#   the metric below (the obvious naive method for a binned conditional-coverage metric);
# * the **plug-in band** $m \pm 1.645\,\hat\sigma$ (no conformal step), a control for coverage.
#
# Conditional coverage is measured as the worst deviation $\max_b|\widehat{\mathrm{cov}}_b - 0.9|$ over 10
# equal-width bins of $x$ on the test fold (an oracle band with the true noise gets {glue:text}`dev_oracle:.3f` from
# binning noise alone at ci scale).
#
# **Deviations from the paper**
#
# * Objective: ours is Liang's SDP band with trace and Frobenius penalties ("kSoS-style"); the paper's exact
#   objective, its two-RKHS score and its defaults were not available to us.
# * Feature map: a Nyström span of 30 (ci) / 50 (full) landmarks at evenly spaced ranks instead of the full
#   representer span of the fitting fold; squared residuals are divided by their mean before fitting (the
#   conformal step absorbs the scale).
# * Score floor: $f + 10^{-6}\,\overline{r^2}$ under the square root, so that scores stay finite.
# * Adaptive baselines: LW-CP and CQR. The brief suggested CQR with quantile gradient boosting; we use a
#   spline quantile regression (an exact LP), which is cheaper at ci scale and suits a smooth 1-D problem.
# * Lengthscale grid $\{0.25, 0.5, 1, 2, 4\}$, penalties $\lambda_1 = 10^{-3}$, $\lambda_2 = 10^{-1}$ and the
#   HSIC kernel on $x$ at the median-heuristic lengthscale: our choices, fixed before the first run.
# * HSIC chooses only among the grid: the median-heuristic lengthscale is fitted too, but only as the reference
#   of the HSIC test, never as a candidate.
# * The brief's HSIC check (validation HSIC of the HSIC pick no larger than that of the median heuristic) is
#   replaced by our own, stronger measurement: the *test* worst-bin deviation of the two lengthscales. The
#   brief's version compares the quantity HSIC minimises on the fold where it minimises it (it would hold by
#   construction were the median heuristic a candidate); the test-fold comparison can fail.
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
Phi_all = K.rbf_kernel(per_ls(Xrest), lm, LS) @ W
f_all = K.ksos_predict_f(fit["B"], Phi_all)
f_f, f_c, f_v, f_t = np.split(f_all, cuts, axis=-1)
# ablation of the kSoS scale: the same Nystrom features, a ridge fit of r^2 (no PSD quadratic form, no envelope
# constraint), ridge 1e-3 as in the page's other kernel-ridge fits, floored at 1e-2 of the mean squared residual
f_rd = K.ridge_scale_fit_predict(Phi_f, per_ls(r2), Phi_all, 1e-3, 1e-2)
_, f_rd_c, _, f_rd_t = np.split(f_rd, cuts, axis=-1)
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

# ridge-scale band at the lengthscale HSIC chose for kSoS (the ablation of the SoS structure)
q_rd = K.conformal_quantile(K.ksos_scores(per_ls(yc), per_ls(mc), f_rd_c, delta), ALPHA)   # (reps, G)
half_rd = q_rd[r, sel][:, None] * np.sqrt(f_rd_t[r, sel] + delta)
# LW-CP with a k-nearest-neighbour scale (k = 40, a fifth of the SoS fold) and bin-wise (Mondrian) split CP
K_NN = 40
sig_n = K.knn_scale(Xf[..., 0], np.sqrt(r2_raw), np.concatenate([Xc, Xt], 1)[..., 0], K_NN)
q_n = K.conformal_quantile(np.abs(yc - mc) / sig_n[:, :P.n_cal], ALPHA)
half_n = q_n[:, None] * sig_n[:, P.n_cal:]
half_mo = K.mondrian_half_width(Xc[..., 0], np.abs(yc - mc), xt, ALPHA, N_BINS, -3, 3)

# CQR: spline quantile regressions at alpha/2 and 1 - alpha/2, trained on the mean and SoS folds together
x_tr, y_tr = np.concatenate([Xm, Xf], 1)[..., 0], np.concatenate([ym, yf], 1)
x_ct = np.concatenate([Xc, Xt], 1)[..., 0]
q_lo, q_hi = (K.spline_quantile_fit_predict(x_tr, y_tr, x_ct, tau, -3, 3) for tau in (ALPHA / 2, 1 - ALPHA / 2))
q_q = K.conformal_quantile(K.cqr_scores(yc, q_lo[:, :P.n_cal], q_hi[:, :P.n_cal]), ALPHA)
lo_t, hi_t = q_lo[:, P.n_cal:] - q_q[:, None], q_hi[:, P.n_cal:] + q_q[:, None]
cov_q = (yt >= lo_t) & (yt <= hi_t)

methods = {"kSoS (HSIC ℓ)": (cov_k[r, sel], half_k[r, sel]), "split CP": (band_cover(yt, mt, half_s), half_s),
           "LW-CP": (band_cover(yt, mt, half_l), half_l), "CQR (spline)": (cov_q, (hi_t - lo_t) / 2),
           "ridge scale (HSIC ℓ)": (band_cover(yt, mt, half_rd), half_rd),
           "LW-CP kNN": (band_cover(yt, mt, half_n), half_n),
           "Mondrian CP": (band_cover(yt, mt, half_mo), half_mo),
           "plug-in (no CP)": (band_cover(yt, mt, half_p), half_p),
           "oracle (true sd)": (band_cover(yt, np.sin(2 * xt), 1.645 * sd_t), 1.645 * sd_t)}
summary = {}
for name, (cov, half) in methods.items():
    per_rep = cov.mean(1)
    bins = K.coverage_by_bins(xt, cov, N_BINS, -3, 3)
    summary[name] = dict(cov=per_rep.mean(), mc=per_rep.std(ddof=1) / np.sqrt(P.reps), width=2 * half.mean(),
                         dev=K.worst_bin_deviation(bins, 1 - ALPHA).mean(), bins=bins)
print(f"{'method':21s} {'coverage':>16s} {'width':>7s} {'worst-bin dev':>14s}   ({P.reps} repetitions)")
for name, s in summary.items():
    print(f"{name:21s} {s['cov']:.3f} ± {s['mc']:.3f} (MC) {s['width']:7.2f} {s['dev']:14.3f}")
print("HSIC picks (grid", GRID, "):", np.bincount(sel, minlength=len(GRID)), "; median heuristic ℓ ≈",
      f"{ls_med.mean():.2f}")

# other ways to pick the lengthscale on the same validation fold (comparators of the HSIC test)
dev_val = K.worst_bin_deviation(K.coverage_by_bins(per_ls(Xv[..., 0]), cov_v, N_BINS, -3, 3), 1 - ALPHA)
width_v = (q_k[..., None] * np.sqrt(f_v + delta)).mean(-1)
sel_dev = dev_val[:, :-1].argmin(1)       # the binned conditional-coverage error itself (possible in 1-D)
sel_width = width_v[:, :-1].argmin(1)     # the narrowest band (efficiency tuning)
gain_sel = {"HSIC": (dev_k[:, MED] - dev_k[r, sel]).mean(),
            "random": (dev_k[:, MED, None] - dev_k[:, :-1]).mean(),
            "val-dev": (dev_k[:, MED] - dev_k[r, sel_dev]).mean(),
            "width": (dev_k[:, MED] - dev_k[r, sel_width]).mean(),
            "anti": (dev_k[:, MED] - dev_k[r, anti]).mean()}
print("test worst-bin gain over the median heuristic, by selection rule:",
      {k: round(float(v), 3) for k, v in gain_sel.items()})
# no selection at all: every lengthscale of the grid held fixed (the middle one, 1, is the test's baseline)
gain_fixed = {float(g): float((dev_k[:, MED] - dev_k[:, j]).mean()) for j, g in enumerate(GRID)}
L_MID = float(GRID[len(GRID) // 2])
print("test worst-bin gain over the median heuristic, fixed lengthscale:",
      {k: round(v, 3) for k, v in gain_fixed.items()})

# %% [markdown]
# ### Dual against cvxpy
#
# On one small problem the FISTA dual value must meet the primal optimum that cvxpy finds for the SDP. This is
# an implementation check of our solver against our own derivation, not a test of the paper. For scale, the
# same multipliers in a deliberately wrong dual (without the positive part $[\cdot]_+$, the dual of the problem
# *without* $B\succeq 0$) are printed too.

# %%
Xd, yd, _ = K.make_heteroscedastic(rng, (P.n_dual,))
rd = (yd - np.sin(2 * Xd[:, 0])) ** 2
rd = rd / rd.mean()
Phi_d, _ = K.nystrom_features(Xd, K.spread_landmarks(Xd, P.landmarks_dual), 1.0)
dual_d = K.ksos_fit_dual(Phi_d, rd, LAM1, LAM2, iters=P.iters_dual)
ref = K.ksos_fit_cvxpy(Phi_d, rd, LAM1, LAM2)
wrong, _, B_wrong = K.ksos_dual_objective(dual_d["alpha"], Phi_d, rd, LAM1, LAM2, psd=False)
ev = np.linalg.eigvalsh(B_wrong)          # eigenvalues of M(a) / (2 lam2) at the FISTA multipliers
n_neg, share_neg = int((ev < 0).sum()), float((ev[ev < 0] ** 2).sum() / (ev ** 2).sum())
gap = abs(float(dual_d["dual"]) - ref["primal"]) / abs(ref["primal"])
gap_wrong = abs(float(wrong) - ref["primal"]) / abs(ref["primal"])
print(f"cvxpy ({ref['status']}): primal {ref['primal']:.6f}; FISTA dual {float(dual_d['dual']):.6f} "
      f"(relative gap {gap:.1e}, primal violation {float(dual_d['violation']):.1e}); "
      f"dual without [.]_+: {float(wrong):.6f} (gap {gap_wrong:.1e})")
print("largest entry of |B_FISTA - B_cvxpy|:", f"{np.abs(dual_d['B'] - ref['B']).max():.1e}")
print(f"dual matrix M(a): {n_neg} of {ev.size} eigenvalues negative, carrying {share_neg:.1e} of its squared "
      "Frobenius norm (what [.]_+ removes)")

# %% [markdown]
# ## Results
#
# The first figure shows one repetition's bands over the test inputs (CQR's band is not symmetric about $m$, so
# both of its edges are drawn) and, below, the coverage in each bin of
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
a0.plot(xt[0][order], (hi_t - mt)[0][order], "C4", lw=1, label="CQR (spline), upper and lower edge")
a0.plot(xt[0][order], (lo_t - mt)[0][order], "C4", lw=1)
a0.plot(xt[0][order], 1.645 * sd_t[0][order], "k:", label="oracle ±1.645 sd")
a0.plot(xt[0][order], -1.645 * sd_t[0][order], "k:")
a0.set_ylabel("residual and band half-width (units of y)")
a0.legend(fontsize=8, ncol=2)
a0.set_title("repetition 0: bands around the mean model")
centres = -3 + (np.arange(N_BINS) + 0.5) * 6 / N_BINS
for k_, (name, c) in enumerate([("kSoS (HSIC ℓ)", "C0"), ("split CP", "C1"), ("LW-CP", "C2"),
                                 ("CQR (spline)", "C4")]):
    b = summary[name]["bins"]
    a1.errorbar(centres + 0.06 * (k_ - 1.5), b.mean(0), yerr=b.std(0, ddof=1) / np.sqrt(P.reps), fmt="o-",
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
b0.axhline(summary["CQR (spline)"]["dev"], c="C4", ls="--", label="CQR (spline)")
b0.axhline(summary["oracle (true sd)"]["dev"], c="k", ls=":", label="oracle (binning noise)")
b0.set_xlabel("kSoS lengthscale ℓ (units of x)")
b0.set_ylabel("max over bins |coverage − 0.9|")
b0.legend(fontsize=7)
bb = b0.twinx()
bb.errorbar(GRID, hsic_v[:, :-1].mean(0), yerr=se(hsic_v[:, :-1]), fmt="s:", c="C3", capsize=2, ms=4)
bb.set_ylabel("validation HSIC(x, covered) (red squares)", color="C3")
b1.errorbar(GRID, (2 * half_k[:, :-1]).mean((0, 2)), yerr=se((2 * half_k[:, :-1]).mean(2)), fmt="o-", c="C0",
            capsize=2, label="kSoS")
for name, c in [("split CP", "C1"), ("LW-CP", "C2"), ("CQR (spline)", "C4"), ("oracle (true sd)", "k")]:
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
# Criteria fixed before the first run. The margin of 0.10 in worst-bin deviation below split CP is the brief's
# threshold (its check 2), not a number from the paper. "HSIC tuning no worse than the median heuristic on fresh
# test data" is the page's own, stronger version of the brief's check 4 (see the deviations). Both tests kept
# their method, setting, criterion and threshold when comparators were added or replaced after the independent
# review, so they stay pre-registered. Each is measured beside the method without its own ingredient and the
# naive baselines a skeptic would try first, on the same folds, with the same metric:
#
# * *conditional-coverage-gain* is about the kernel sum-of-squares scale; its ablation keeps the features, the
#   HSIC-chosen lengthscale and the conformal step and replaces the PSD quadratic form by a ridge fit of $r^2$.
#   Its baselines are LW-CP (kernel-ridge and kNN scales), CQR and bin-wise split CP.
# * *hsic-tuning* is about the HSIC selection criterion; its ablation is a lengthscale drawn at random from the
#   grid. That ablation is weak by construction (the grid holds $\ell = 2$ and $4$, both worse than the
#   reference), so it is kept only as a sensitivity control. The informative comparators are the other
#   selection rules and no selection at all: the lengthscale fixed at the middle of the grid
#   ($\ell =$ {glue:text}`l_mid:g`, a rule set without looking at the results).
#
# The paper's headline "outperforms or matches related adaptive conformal methods" is mapped to
# conditional-coverage-gain, but that test measures a margin over *split CP*, a non-adaptive method, with a
# threshold from our brief. Its failure is a failure against our margin, not directly the paper's headline. The
# "matches" half is not a criterion of any test; it shows only through the comparators (LW-CP, CQR, kNN LW-CP,
# bin-wise CP), whose values sit in the record beside the method's.
#
# Marginal coverage (criterion $[0.87, 0.95]$) is shown as an illustration: split conformal prediction
# guarantees it for any score. The duality check (relative gap at most $10^{-3}$ against cvxpy) is an
# implementation check of our solver.

# %%
MC = tolerance(abs=0.01, why="coverage over random folds: a last-digit change can move a few test points across the band edge")
DEV = tolerance(abs=0.02, why="worst-bin deviation over random folds; a changed quantile moves a bin's coverage")
S = summary
MARGIN = 0.10                             # pre-registered gain over split CP (the brief's check 2)
gain = {k: float(S["split CP"]["dev"] - S[k]["dev"]) for k in S}
gain_med = float(S["split CP"]["dev"] - dev_k[:, MED].mean())

claims.headline(
    "valid-coverage", "Conformal calibration of the learned kSoS score keeps finite-sample marginal coverage",
    untestable="the split-conformal guarantee holds for any score under exchangeability (a classical result); "
               "it is shown as the illustration marginal-coverage, never counted")
claims.headline(
    "dual-scales", "A representer theorem and a dual problem let accelerated gradient fit the kSoS band for "
                   "hundreds to thousands of points, where off-the-shelf SDP solvers do not scale",
    untestable="our dual is our own derivation of a kSoS-style objective (the paper's was not read); its agreement "
               "with cvxpy is an implementation check, and no SDP solver was timed at thousands of points")
claims.headline(
    "hsic-tuning-adaptivity", "An HSIC criterion between inputs and coverage tunes the kernel lengthscale "
                              "towards test-conditional coverage", tests=["hsic-tuning"])
claims.headline(
    "adaptive-competitive", "kSoS bands are adaptive and outperform or match related adaptive conformal methods",
    tests=["conditional-coverage-gain"])

claims.illustrate("marginal-coverage",
                  statement=f"kSoS bands cover a fresh point with probability 1 - alpha = 0.9 (mean over {P.reps} splits)",
                  paper="finite-sample marginal coverage of split conformal (no number found)",
                  criterion=between(0.87, 0.95), measured=float(S["kSoS (HSIC ℓ)"]["cov"]), tol=MC,
                  why="split conformal covers at 1 - alpha for any score under exchangeability (Vovk et al.; Lei et "
                      "al. 2018), so split CP, LW-CP and CQR meet it too; a classical result, not the paper's")
claims.test("conditional-coverage-gain",
            statement=f"Worst-bin coverage deviation ({N_BINS} bins of x, mean over {P.reps} splits) of split CP minus "
                      f"that of kSoS with the HSIC-chosen lengthscale is at least {MARGIN:.2f}",
            paper="kSoS is adaptive; outperforms or matches adaptive CP methods (no number found)",
            criterion=at_least(MARGIN), measured=gain["kSoS (HSIC ℓ)"],
            ablation=Comparator("the same conformal pipeline and lengthscale with the scale f a ridge fit of r^2 on "
                                "the same Nystrom features (floored at 1e-2), no PSD sum-of-squares form",
                                gain["ridge scale (HSIC ℓ)"], ingredient="the kernel sum-of-squares scale"),
            baselines=[Comparator("locally weighted split CP: |y - m| / sigma(x), sigma a kernel-ridge fit of |r| "
                                  "on the SoS fold", gain["LW-CP"]),
                       Comparator("CQR: cubic-spline quantile regressions (5% and 95%) on the mean and SoS folds, "
                                  "conformalised", gain["CQR (spline)"]),
                       Comparator(f"locally weighted split CP with sigma(x) the mean |r| of the {K_NN} nearest "
                                  "SoS-fold points", gain["LW-CP kNN"]),
                       Comparator(f"bin-wise (Mondrian) split CP: one conformal quantile of |y - m| per bin of x "
                                  f"({N_BINS} equal bins, the metric's)", gain["Mondrian CP"])],
            tol=DEV)
claims.check("dual-matches-cvxpy", kind="implementation",
             statement=f"the FISTA dual value equals the cvxpy SDP optimum (n = {P.n_dual}), relative gap <= 1e-3",
             paper="dual formulation of the kSoS problem (representer theorem + duality)",
             criterion=at_most(1e-3), measured=float(gap),
             tol=tolerance(rel=0.5, abs=1e-6, why="solver end points (Clarabel tolerance, FISTA iterations)"))
claims.test("hsic-tuning",
            statement="Test worst-bin deviation at the median-heuristic lengthscale minus that at the lengthscale "
                      f"chosen by validation HSIC (mean over {P.reps} splits) is at least 0",
            paper="HSIC criterion tunes lengthscales towards test-conditional coverage",
            criterion=at_least(0.0), measured=float(gain_sel["HSIC"]),
            ablation=Comparator("a lengthscale of the grid drawn at random (mean over the grid)",
                                float(gain_sel["random"]), ingredient="the HSIC selection criterion"),
            baselines=[Comparator("the lengthscale with the smallest validation worst-bin deviation (binned "
                                  "coverage, possible in 1-D)", float(gain_sel["val-dev"])),
                       Comparator("the lengthscale with the narrowest validation band (efficiency tuning)",
                                  float(gain_sel["width"])),
                       Comparator(f"no selection: the lengthscale fixed at the middle of the grid (l = {L_MID:g})",
                                  gain_fixed[L_MID])],
            tol=DEV)

for k, name in (("ksos", "kSoS (HSIC ℓ)"), ("split", "split CP"), ("lw", "LW-CP"), ("cqr", "CQR (spline)"),
                ("plug", "plug-in (no CP)"), ("oracle", "oracle (true sd)"), ("ridge", "ridge scale (HSIC ℓ)"),
                ("knn", "LW-CP kNN"), ("mond", "Mondrian CP")):
    glue(f"cov_{k}", float(S[name]["cov"]), display=False)
    glue(f"mc_{k}", float(S[name]["mc"]), display=False)
    glue(f"width_{k}", float(S[name]["width"]), display=False)
    glue(f"dev_{k}", float(S[name]["dev"]), display=False)
    glue(f"gain_{k}", gain[name], display=False)
glue("dev_med", float(dev_k[:, MED].mean()), display=False)
glue("gain_med", gain_med, display=False)
glue("ls_med", float(ls_med.mean()), display=False)
for k, v in gain_sel.items():
    glue(f"sel_{k.replace('-', '_')}", float(v), display=False)
glue("dual_gap", float(gap), display=False)
glue("dual_gap_wrong", float(gap_wrong), display=False)
glue("dual_B_diff", float(np.abs(dual_d["B"] - ref["B"]).max()), display=False)
glue("reps", int(P.reps), display=False)
for g, v in gain_fixed.items():
    glue(f"fixed_{str(g).replace('.', '_')}", v, display=False)
glue("l_mid", L_MID, display=False)
glue("hsic_minus_fixed025", float(gain_sel["HSIC"] - gain_fixed[0.25]), display=False)
glue("hsic_picks_small", int((GRID[sel] <= 1).sum()), display=False)
glue("hsic_picks_total", int(sel.size), display=False)
glue("k_nn", K_NN, display=False)
glue("n_neg", n_neg, display=False)
glue("n_ev", int(ev.size), display=False)
glue("share_neg", share_neg, display=False)
glue("margin", MARGIN, display=False)

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# Two tests are counted, both pre-registered. Values are from seed 0 at ci scale, over {glue:text}`reps` random
# splits; the judged table gives the other seeds.
#
# * *kSoS bands are more adaptive than split CP* ({repro-status}`conditional-coverage-gain`). The HSIC-tuned kSoS
#   band lowers the worst-bin coverage deviation from {glue:text}`dev_split:.3f` (split CP) to
#   {glue:text}`dev_ksos:.3f`, a gain of {glue:text}`gain_ksos:.3f` against the {glue:text}`margin:.2f` of our
#   brief, with a band of mean width {glue:text}`width_ksos:.2f` against {glue:text}`width_split:.2f`. Without
#   the sum-of-squares structure (a ridge fit of $r^2$ on the same features, same lengthscale) the gain is
#   {glue:text}`gain_ridge:.3f`, so the PSD form adds little. Locally weighted CP gains {glue:text}`gain_lw:.3f`
#   (width {glue:text}`width_lw:.2f`), with a kNN scale {glue:text}`gain_knn:.3f` (width
#   {glue:text}`width_knn:.2f`); CQR with a spline quantile regression gains {glue:text}`gain_cqr:.3f` (width
#   {glue:text}`width_cqr:.2f`), and bin-wise split CP, which calibrates each bin of the metric separately,
#   gains {glue:text}`gain_mond:.3f`. kSoS beats split CP, but it misses the margin, and it is no better than
#   the standard adaptive baselines: at this seed CQR beats it on both conditional coverage and width, and the
#   kNN and bin-wise baselines beat it too. All of them are far from the oracle band ({glue:text}`dev_oracle:.3f`,
#   which is binning noise alone). Over the ci sweep the method reaches the margin at
#   {repro-seeds}`conditional-coverage-gain:method:pass` seeds, the ridge-scale ablation at
#   {repro-seeds}`conditional-coverage-gain:ablation:pass`, LW-CP at
#   {repro-seeds}`conditional-coverage-gain:baseline1:pass`, CQR at
#   {repro-seeds}`conditional-coverage-gain:baseline2:pass`, kNN LW-CP at
#   {repro-seeds}`conditional-coverage-gain:baseline3:pass` and bin-wise CP at
#   {repro-seeds}`conditional-coverage-gain:baseline4:pass`. Our reading of the first figure (top), not a
#   measured quantity: the fitted envelope $f \ge r^2$ is pulled by the largest residuals and wiggles at the
#   small lengthscales HSIC prefers.
# * *HSIC tuning targets conditional coverage* ({repro-status}`hsic-tuning`). On fresh test data the HSIC-chosen
#   lengthscale has a worst-bin deviation {glue:text}`sel_HSIC:.3f` lower than the median heuristic
#   ($\ell \approx$ {glue:text}`ls_med:.2f`). But no selection at all clears the same criterion: the
#   lengthscale fixed at the middle of the grid ($\ell =$ {glue:text}`l_mid:g`, the test's baseline) gains
#   {glue:text}`fixed_1_0:.3f` and $\ell = 0.5$ gains {glue:text}`fixed_0_5:.3f`, and a fixed smaller one,
#   $\ell = 0.25$, does as well as HSIC: it gains {glue:text}`fixed_0_25:.3f` (HSIC minus that:
#   {glue:text}`hsic_minus_fixed025:.3f`). HSIC picks
#   $\ell \le 1$ in {glue:text}`hsic_picks_small` of {glue:text}`hsic_picks_total` repetitions. Choosing the
#   lengthscale with the smallest *validation* worst-bin deviation, possible in one dimension, gains
#   {glue:text}`sel_val_dev:.3f`; the narrowest validation band gains {glue:text}`sel_width:.3f`, and a
#   lengthscale drawn at random from the grid {glue:text}`sel_random:.3f` (weak by construction, see above).
#   So the gain measures how poor the median heuristic is as a default here, not what HSIC's selection adds:
#   a smaller lengthscale helps, and HSIC finds one, but so does a fixed small one. Over the sweep, HSIC passes
#   at {repro-seeds}`hsic-tuning:method:pass` seeds, the binned rule at
#   {repro-seeds}`hsic-tuning:baseline1:pass` and the fixed middle lengthscale at
#   {repro-seeds}`hsic-tuning:baseline3:pass`. What HSIC might add is that it works in higher dimensions, where
#   bins do not and no fixed default is known to be good. We do not test that.
#
# Shown, not counted: the HSIC-tuned kSoS band covers {glue:text}`cov_ksos:.3f` ±
# {glue:text}`mc_ksos:.3f` of fresh points (Monte Carlo standard error). Split CP ({glue:text}`cov_split:.3f`),
# LW-CP ({glue:text}`cov_lw:.3f`) and CQR ({glue:text}`cov_cqr:.3f`) cover about as much, because split
# conformal prediction guarantees coverage for any score. The plug-in band $m \pm 1.645\hat\sigma$, which skips
# the conformal step, covers {glue:text}`cov_plug:.3f`. Our FISTA dual meets the cvxpy SDP optimum to a relative
# {glue:text}`dual_gap:.1e` and recovers the same $B$ (entries within {glue:text}`dual_B_diff:.1e`). This
# checks our solver against our own derivation of a kSoS-style objective, not the paper's representer theorem.
# The deliberately wrong dual without $[\cdot]_+$ is only {glue:text}`dual_gap_wrong:.1e` away at this size:
# {glue:text}`n_neg` of the {glue:text}`n_ev` eigenvalues of the dual matrix are negative, but they carry only
# {glue:text}`share_neg:.1e` of its squared Frobenius norm, which is all that $[\cdot]_+$ removes. It could not
# have served as a control.
#
# **What this says about the paper.** In this miniature, a kSoS-style band is valid, and it is more adaptive
# than a constant-width band, by less than the margin our brief asked for. Learning the scale as a kernel sum
# of squares brings nothing over a plain ridge fit of $r^2$ on the same features, nor over the standard
# adaptive conformal methods: LW-CP is level with it, and CQR, kNN LW-CP and bin-wise CP beat it at seed 0.
# Choosing a smaller lengthscale than the median heuristic helps; HSIC's choice is no better than a fixed
# small lengthscale or a binned validation rule. Our objective is not the paper's (see the deviations), so this
# is a statement about a kSoS-style band, not a refutation of the paper's method.
#
# ## What a skeptic would try
#
# Reviewed by an independent skeptic (a helper that did not write the page), with the rubric, the page before
# and after its conversion, its record and the executed notebook. They re-ran the page's kernels single-threaded
# on seeds 0-9 beside naive alternatives: locally weighted CP with a smoother kernel-ridge scale and with a kNN
# scale; bin-wise split CP with 10 and with 5 bins; every grid lengthscale held fixed; a lengthscale picked by a
# 5-bin validation error. They also read the prose against the record. What they tried is above and below: the
# kNN and bin-wise baselines and the fixed lengthscale are now comparators of the tests, and the ridge-scale
# ablation replaces one that removed HSIC rather than the sum-of-squares scale. The numbers below are measured by
# this notebook (seed 0, ci scale, the same folds); the judged table gives the other seeds.
#
# * **Normalise the residual by a fitted scale** (LW-CP, kernel ridge on $|r|$): worst-bin deviation
#   {glue:text}`dev_lw:.3f`, width {glue:text}`width_lw:.2f`; kSoS: {glue:text}`dev_ksos:.3f`, width
#   {glue:text}`width_ksos:.2f`. With a kNN scale ({glue:text}`k_nn` neighbours): deviation
#   {glue:text}`dev_knn:.3f`, width {glue:text}`width_knn:.2f`.
# * **Drop the sum-of-squares form** (a ridge fit of $r^2$ on the same features, same lengthscale): deviation
#   {glue:text}`dev_ridge:.3f`, width {glue:text}`width_ridge:.2f`.
# * **Calibrate each bin separately** (bin-wise split CP on the metric's bins): deviation
#   {glue:text}`dev_mond:.3f`, width {glue:text}`width_mond:.2f`, coverage {glue:text}`cov_mond:.3f`. Its bins are
#   those of the metric, which favours it; it is still the first thing to try for a binned metric in 1-D.
# * **Conformalise a quantile regression** (CQR, spline basis): deviation {glue:text}`dev_cqr:.3f`, width
#   {glue:text}`width_cqr:.2f`, coverage {glue:text}`cov_cqr:.3f`.
# * **Skip HSIC and use the median heuristic**: deviation {glue:text}`dev_med:.3f`.
# * **Skip selection and fix a small lengthscale**: test gains over the median heuristic of
#   {glue:text}`fixed_0_25:.3f` ($\ell = 0.25$), {glue:text}`fixed_0_5:.3f` ($\ell = 0.5$) and
#   {glue:text}`fixed_1_0:.3f` ($\ell = 1$), against HSIC's {glue:text}`sel_HSIC:.3f`.
# * **Pick the lengthscale by the binned validation error, or by the narrowest validation band**: test gains
#   over the median heuristic of {glue:text}`sel_val_dev:.3f` and {glue:text}`sel_width:.3f` (HSIC:
#   {glue:text}`sel_HSIC:.3f`). The lengthscale HSIC likes least gains {glue:text}`sel_anti:.3f`. This shows
#   that the criterion's ranking means something. It is not counted, because that control is built to fail.
#
# ## Against the official code
#
# The paper's code (gitlab.com/drti/ksos-bands) is outside our index and was not read. The objective, score,
# defaults and datasets here are ours (see the deviations). So no departure from its configurations can be
# named or run as a second configuration. This is the page's largest gap: the paper's two-RKHS score and
# its exact objective could change the adaptivity comparison.
#
# ## What the miniature cannot show
#
# * The paper's scalability claim (hundreds to thousands of points where SDP solvers stall) is seen only in
#   passing: our problems are small, and the Nyström span keeps the matrix at 30-60 landmarks. No SDP solver
#   is timed.
# * The paper's exact objective and score, real benchmarks, and the baselines it compares with (CQR with its
#   own quantile models, other learned-score methods).
# * One input dimension: binning gives a direct view of conditional coverage here. In higher dimensions HSIC
#   stands in for it, and there our binned metric and the binned lengthscale rule would not work.
