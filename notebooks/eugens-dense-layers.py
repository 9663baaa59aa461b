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
# # EUGens: random-feature dense layers with linear inference cost
#
# *A dense layer with a polynomial activation can be replaced by random features of the (norm-augmented)
# input: the estimate is unbiased, its cost grows linearly rather than quadratically with the width, and it
# can be fitted to a trained layer in closed form, without backpropagation.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

from repro.claims import Claims, at_least, at_most, between, is_true
from repro.papers import eugens_dense_layers as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    "ci": dict(d=64, L=16, m_unb=64, draws=400, ms=[32, 64, 128, 256, 512], reps=40,
               widths=[256, 512, 1024, 2048], m_speed=128, batch=32, repeats=5,
               hidden=256, steps=300, lr=1e-2, ridge=1e-3, m_curve=[4, 8, 15, 32, 64, 128, 256],
               r_curve=[2, 4, 8, 16, 29, 64]),
    "full": dict(d=256, L=16, m_unb=64, draws=1000, ms=[32, 64, 128, 256, 512, 1024, 2048], reps=50,
                 widths=[256, 512, 1024, 2048, 4096, 8192], m_speed=128, batch=32, repeats=10,
                 hidden=256, steps=1000, lr=1e-2, ridge=1e-3, m_curve=[4, 8, 15, 32, 64, 128, 256, 512, 1024],
                 r_curve=[2, 4, 8, 16, 29, 64]),
})
claims = Claims(
    "eugens-dense-layers",
    title="EUGens: Efficient, Unified, and General Dense Layers",
    authors="Sang Min Kim, Byeongchan Kim, Arijit Sehanobish, Somnath Basu Roy Chowdhury, Rahul Kidambi, "
            "Dongseok Shim, Avinava Dubey, Snigdha Chaturvedi, Min-hwan Oh, Krzysztof Choromanski",
    paper_url="https://arxiv.org/abs/2601.22563",
    scale=scale, seed=seed,
)
COEFFS = (0.0, 1.0, 0.5)  # f(u) = u + u^2 / 2, the degree-2 activation of the brief
DEG = len(COEFFS) - 1

# %% [markdown]
# ## The claim
#
# A fully connected layer $y = f(Wx + b)$ with $W \in \mathbb{R}^{L\times d}$ costs $O(dL)$ per input:
# quadratic in the width when $d \approx L$. The paper proposes *EUGens*, layers of the form
# $\mathrm{EUGen}(w, x) = g(w)^\top \phi(x)$. Here $\phi$ is a random-feature map of the input, augmented with
# its norm $\|x\|_2$, and $g$ is a map of the weights. The paper claims that:
#
# 1. for any **polynomial** activation $f$, the EUGen output is an **unbiased** estimate of $f(w^\top x)$
#    (its Theorem 3.1), and the error concentrates as the number $m$ of random features grows;
# 2. inference costs $O(m d k^2 + m L)$ for order $k$, **linear** in the width, so EUGens speed up
#    inference (up to 27 %) and save memory (up to 30 %) in Transformers, MLPs and NeRFs;
# 3. an EUGen can be fitted to a pretrained layer **layer-wise, in closed form**, without backpropagation,
#    and keeps close to the original accuracy (better than a low-rank layer with the same budget).
#
# ## The method
#
# **Unbiased polynomial features.** Write $f(u) = \sum_{k=0}^{K} a_k u^k$. For independent Gaussian vectors
# $g_1, \dots, g_k \sim \mathcal N(0, I)$,
#
# $$\mathbb E\Big[\prod_{j=1}^k (g_j^\top w)(g_j^\top x)\Big] = \prod_{j=1}^k w^\top \mathbb E[g_j g_j^\top]\, x = (w^\top x)^k .$$
#
# Stack $m$ such draws per order as matrices $G_1, \dots, G_K \in \mathbb R^{m\times D}$ and define the
# order-$k$ features as Hadamard products of the first $k$ projections,
# $\phi_k(x) = m^{-1/2}\, (G_1 x) \odot \cdots \odot (G_k x)$. Then
#
# $$\widehat{f}(w, x) = a_0 + \sum_{k=1}^K a_k\, \phi_k(w)^\top \phi_k(x), \qquad \mathbb E\,\widehat f(w,x) = f(w^\top x).$$
#
# For a whole layer, $V_k = a_k \phi_k(W) \in \mathbb R^{L\times m}$ is computed once, and each input costs
# $K$ projections ($2KmD$ flops) plus the output map ($2KmL$ flops). With $m$ and $K$ fixed, that is linear
# in the width. The variance of one feature, $\|w\|^2\|x\|^2 + (w^\top x)^2$ for $k=1$, falls like $1/m$,
# so the error (root-mean-square) falls like $m^{-1/2}$.
#
# **Norm dependence.** EUGens feed $x^+ = [x; \|x\|_2]$ (and a constant 1 for a bias) to the projections.
# In the unbiased copy of a dense layer the weight rows get a 0 in the norm slot ($w^+ = [w; b; 0]$), so the
# estimate stays unbiased. When $V$ is *fitted*, the features can use $\|x\|$ and its products with $x$,
# which a dense layer cannot.
#
# **Layer-wise transfer.** With $G$ fixed, the layer is linear in $V$. Given calibration inputs $X$ and the
# teacher layer's outputs $Y = f(XW^\top + b)$, we solve the ridge problem
# $\min_{V, c} \|\phi(X) V^\top + c - Y\|^2 + \lambda\|V\|^2$ in closed form. No gradients are involved.
#
# **Assumption.** We did not have the paper's exact formulas, only secondary summaries. The construction
# above is the standard random-Maclaurin estimator, which gives exactly the unbiasedness the paper states.
# The paper's layers may differ in details, for example orthogonal instead of i.i.d. Gaussian projections,
# or how the orders share projections.

# %% [markdown]
# ## The experiment
#
# - **Unbiasedness** (float64): one unit-norm input $x$ and a dense layer $W$ with $L = 16$ outputs, entries
#   $\mathcal N(0, 1/d)$, $d = 64$ (full: 256), no bias, $f(u) = u + u^2/2$. We draw 400 (full: 1000)
#   independent copies of $G$ ($m = 64$) and compare the mean of the estimates with the exact output, in
#   standard errors.
# - **Error rate**: relative mean squared error over 8 inputs and 16 outputs, averaged over 40 (full: 50)
#   draws of $G$, for $m = 32, \dots, 512$ (full: up to 2048), with and without the norm coordinate; we fit
#   the log-log slope of the root-mean-square error.
# - **Cost against width**: square layers $d = L = 256, \dots, 2048$ (full: up to 8192) with $m = 128$, $K = 2$. We count flops,
#   stored parameters and the peak bytes of tensors in a forward pass on a batch of 32, all deterministic,
#   and time the forward passes (float32, one thread, best of 5; volatile).
# - **Transfer into a trained MLP**: scikit-learn's digits (1797 images of $8\times 8$ pixels, 70/30 stratified
#   split, standardised). The teacher is a $64 \to 256 \to 10$ MLP with $f(u) = u + u^2/2$, trained with Adam
#   for 300 full-batch steps. We replace its hidden layer, fitted on the training images, and keep the
#   output layer. Compared layers: the dense teacher; the EUGen fitted by ridge (with and without
#   $\|x\|$); the unbiased EUGen copy of $W$; and a truncated-SVD (low-rank) layer. The budget, fixed before
#   the run from the brief, is **at most 0.6 × the dense layer's flops**. We take the largest $m$ (and rank)
#   that fits it.
#
# **Deviations from the paper**
#
# - No Transformers, NeRFs or ImageNet. Our largest model is a two-layer MLP on the 64-pixel digits, and our
#   speed study uses isolated layers on one CPU thread.
# - Our own reconstruction of the EUGen estimator: i.i.d. Gaussian projections shared across orders; no
#   orthogonal random features.
# - Only degree-2 polynomial activations; the paper's extension to ReLU/GeLU by polynomial approximation
#   (its Theorem 3.4) is not tested.
# - Transfer uses a ridge fit of one layer's outputs, not the paper's fine-tuning schedules.
# - Speed and memory are backed by flop and byte counts. Wall-clock times are recorded but not counted.

# %% [markdown]
# ## Results
#
# ### Unbiasedness and the $m^{-1/2}$ error rate

# %%
g = torch.Generator().manual_seed(P.seed)
x_syn = torch.randn(8, P.d, generator=g, dtype=torch.float64) / np.sqrt(P.d)
x_syn = x_syn / x_syn.norm(dim=1, keepdim=True)  # unit-norm inputs
W_syn = torch.randn(P.L, P.d, generator=g, dtype=torch.float64) / np.sqrt(P.d)
exact = K.dense_poly_layer(x_syn, W_syn, None, COEFFS)

est = K.eugen_estimates(x_syn[:1], W_syn, None, COEFFS, P.m_unb, P.draws, seed=P.seed)[:, 0]  # (draws, L)
z = (est.mean(0) - exact[0]) / (est.std(0, unbiased=True) / np.sqrt(P.draws))
max_abs_z = float(z.abs().max())

rmse = {}
for use_norm in (False, True):
    rmse[use_norm] = []
    for i, m in enumerate(progress(P.ms, desc=f"error vs m (norm={use_norm})")):
        e = K.eugen_estimates(x_syn, W_syn, None, COEFFS, m, P.reps, seed=P.seed + 1000 * (i + 1), use_norm=use_norm)
        rel_mse = ((e - exact) ** 2).sum(-1) / (exact**2).sum(-1)  # (reps, n)
        rmse[use_norm].append(float(rel_mse.mean().sqrt()))
slope = {k: loglog_slope(P.ms, v) for k, v in rmse.items()}
print(f"max |z| over {P.L} outputs: {max_abs_z:.2f}; RMSE slopes: without norm {slope[False]:.3f}, "
      f"with norm {slope[True]:.3f}")

# %% [markdown]
# The left panel shows, for each of the 16 outputs, the mean of 400 independent estimates against the exact
# value, with ±2 standard errors: they scatter around the diagonal with no systematic offset. The right
# panel shows the relative error against $m$ on log-log axes. Both variants follow the $m^{-1/2}$ line.
# Appending $\|x\|$ adds variance to the unbiased copy, because its weight slot is zero, but does not
# change the rate.

# %%
fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.6))
se = est.std(0) / np.sqrt(P.draws)
axes[0].errorbar(exact[0].numpy(), est.mean(0).numpy(), yerr=2 * se.numpy(), fmt="o", ms=4, capsize=2,
                 label=f"mean of {P.draws} EUGen estimates ±2 s.e.")
lim = [float(exact[0].min()) - 0.05, float(exact[0].max()) + 0.05]
axes[0].plot(lim, lim, "k--", lw=1, label="exact $f(w^\\top x)$")
axes[0].set_xlabel("exact dense-layer output $f(w_l^\\top x)$")
axes[0].set_ylabel("EUGen estimate (mean)")
axes[0].set_title(f"unbiasedness, m={P.m_unb}, d={P.d}")
axes[0].legend()
ms = np.array(P.ms)
for use_norm, mk in ((False, "o-"), (True, "s--")):
    axes[1].plot(ms, rmse[use_norm], mk, ms=5, label=f"{'with' if use_norm else 'without'} $\\|x\\|$ "
                 f"(slope {slope[use_norm]:.2f})")
axes[1].plot(ms, rmse[False][0] * (ms / ms[0]) ** -0.5, "k:", lw=1, label="$\\propto m^{-1/2}$")
axes[1].set_xscale("log")
axes[1].set_yscale("log")
axes[1].set_xticks(ms, [str(m) for m in ms], minor=False)
axes[1].set_xticks([], minor=True)
axes[1].set_xlabel("random features per order $m$")
axes[1].set_ylabel("relative RMS error of the layer output")
axes[1].set_title("Monte Carlo error against $m$")
axes[1].legend()
plt.show()

# %% [markdown]
# ### Cost against width
#
# Flops, stored parameters and peak tensor bytes are counted with the formulas of the kernel module
# (`K.flops_eugen`, `K.params_eugen`, `K.peak_bytes_eugen`, cross-checked against `tracemalloc` in the unit
# tests). The wall-clock times are real forward passes.

# %%
widths = np.array(P.widths)
cost = {k: [] for k in ("flops_d", "flops_e", "par_d", "par_e", "mem_d", "mem_e", "t_d", "t_e")}
for w in progress(P.widths, desc="width sweep"):
    w = int(w)
    xb = torch.randn(P.batch, w, generator=g)
    Wd, bd = torch.randn(w, w, generator=g) / np.sqrt(w), torch.zeros(w)
    layer = K.EUGenLinear(w, w, P.m_speed, DEG, seed=P.seed, dtype=torch.float32).requires_grad_(False)
    cost["flops_d"].append(K.flops_dense(w, w, DEG))
    cost["flops_e"].append(K.flops_eugen(w, w, P.m_speed, DEG))
    cost["par_d"].append(K.params_dense(w, w))
    cost["par_e"].append(K.params_eugen(w, w, P.m_speed, DEG))
    cost["mem_d"].append(K.peak_bytes_dense(P.batch, w, w))
    cost["mem_e"].append(K.peak_bytes_eugen(P.batch, w, w, P.m_speed, DEG))
    with torch.no_grad():
        cost["t_d"].append(K.best_time(lambda: K.dense_poly_layer(xb, Wd, bd, COEFFS), P.repeats))
        cost["t_e"].append(K.best_time(lambda: layer(xb), P.repeats))
cost = {k: np.array(v, dtype=float) for k, v in cost.items()}
flop_slope_e, flop_slope_d = loglog_slope(widths, cost["flops_e"]), loglog_slope(widths, cost["flops_d"])

# %%
fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.6))
axes[0].plot(widths, cost["flops_d"], "o-", label=f"dense (slope {flop_slope_d:.2f})")
axes[0].plot(widths, cost["flops_e"], "s--", label=f"EUGen m={P.m_speed}, K={DEG} (slope {flop_slope_e:.2f})")
axes[0].set_ylabel("flops per input (counted)")
axes[1].plot(widths, 1e3 * cost["t_d"], "o-", label="dense")
axes[1].plot(widths, 1e3 * cost["t_e"], "s--", label=f"EUGen m={P.m_speed}")
axes[1].set_ylabel(f"forward time, batch {P.batch} (ms, best of {P.repeats})")
for ax in axes:
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("layer width $d = L$")
    ax.legend()
axes[0].set_title("counted cost")
axes[1].set_title("wall clock, one CPU thread")
plt.show()
print(f"{'width':>6} {'flops E/D':>10} {'params E/D':>11} {'peak bytes E/D':>15} {'time E/D':>9}")
for i, w in enumerate(widths):
    print(f"{w:>6} {cost['flops_e'][i] / cost['flops_d'][i]:>10.3f} {cost['par_e'][i] / cost['par_d'][i]:>11.3f} "
          f"{cost['mem_e'][i] / cost['mem_d'][i]:>15.3f} {cost['t_e'][i] / cost['t_d'][i]:>9.3f}")

# %% [markdown]
# ### Transfer into a trained MLP on digits

# %%
digits = load_digits()
Xtr, Xte, ytr, yte = train_test_split(digits.data, digits.target, test_size=0.3, stratify=digits.target,
                                      random_state=P.seed)
mu, sd = Xtr.mean(0), Xtr.std(0) + 1.0
Xtr, Xte = (torch.tensor((a - mu) / sd, dtype=torch.float32) for a in (Xtr, Xte))
ytr, yte = torch.tensor(ytr), torch.tensor(yte)
T = K.train_mlp(Xtr, ytr, P.hidden, COEFFS, P.steps, P.lr, P.seed)
W1, b1, W2, b2 = (T[k].double() for k in ("W1", "b1", "W2", "b2"))
H_tr = K.dense_poly_layer(Xtr.double(), W1, b1, COEFFS)
H_te = K.dense_poly_layer(Xte.double(), W1, b1, COEFFS)
acc_teacher = K.accuracy(H_te, W2, b2, yte)

d_in, L_h = Xtr.shape[1], P.hidden
f_dense = K.flops_dense(d_in, L_h, DEG)
m_budget = max(m for m in range(1, 512) if K.flops_eugen(d_in, L_h, m, DEG) <= 0.6 * f_dense)
r_budget = max(r for r in range(1, d_in + 1) if K.flops_lowrank(d_in, L_h, r, DEG) <= 0.6 * f_dense)


def lowrank_hidden(X, r):
    A, B = K.lowrank_from_dense(W1, r)
    return K.poly_activation(X.double() @ B.T @ A.T + b1, COEFFS)


with torch.no_grad():
    fitted = {m: K.fit_eugen_layerwise(Xtr, H_tr, m, DEG, P.ridge, seed=P.seed) for m in P.m_curve + [m_budget]}
    acc_fit = {m: K.accuracy(lay(Xte), W2, b2, yte) for m, lay in fitted.items()}
    nonorm = K.fit_eugen_layerwise(Xtr, H_tr, m_budget, DEG, P.ridge, seed=P.seed, use_norm=False)
    acc_nonorm = K.accuracy(nonorm(Xte), W2, b2, yte)
    unbiased = K.eugen_from_dense(W1, b1, COEFFS, m_budget, seed=P.seed)
    acc_unb = K.accuracy(unbiased(Xte), W2, b2, yte)
    acc_lr = {r: K.accuracy(lowrank_hidden(Xte, r), W2, b2, yte) for r in P.r_curve + [r_budget]}
print(f"teacher test accuracy {acc_teacher:.3f}; budget 0.6 x dense flops -> m = {m_budget}, rank = {r_budget}")

# %% [markdown]
# The table compares the hidden-layer replacements at the 0.6-flop budget. Parameters count stored numbers
# ($G$ regenerated from its seed; in brackets, with $G$ stored). Peak memory is the counted tensor bytes of a
# float32 forward pass on the test batch. Times are float32 forward passes of the hidden layer on the test
# set, relative to the dense layer (volatile).

# %%
n_te = Xte.shape[0]
X32 = Xte.float()
W1f, b1f = W1.float(), b1.float()
A_r, B_r = (t.float() for t in K.lowrank_from_dense(W1, r_budget))
fit32 = K.fit_eugen_layerwise(Xtr, H_tr, m_budget, DEG, P.ridge, seed=P.seed).float().requires_grad_(False)
with torch.no_grad():
    t_dense = K.best_time(lambda: K.dense_poly_layer(X32, W1f, b1f, COEFFS), P.repeats)
    t_eug = K.best_time(lambda: fit32(X32), P.repeats)
    t_lr = K.best_time(lambda: K.poly_activation(X32 @ B_r.T @ A_r.T + b1f, COEFFS), P.repeats)
rows = [
    ("dense teacher", K.params_dense(d_in, L_h), "", f_dense, 1.0, K.peak_bytes_dense(n_te, d_in, L_h), acc_teacher),
    (f"EUGen fitted, m={m_budget}", K.params_eugen(d_in, L_h, m_budget, DEG),
     K.params_eugen(d_in, L_h, m_budget, DEG, store_G=True), K.flops_eugen(d_in, L_h, m_budget, DEG),
     t_eug / t_dense, K.peak_bytes_eugen(n_te, d_in, L_h, m_budget, DEG), acc_fit[m_budget]),
    (f"EUGen fitted, no ||x||, m={m_budget}", K.params_eugen(d_in, L_h, m_budget, DEG, use_norm=False),
     K.params_eugen(d_in, L_h, m_budget, DEG, store_G=True, use_norm=False),
     K.flops_eugen(d_in, L_h, m_budget, DEG, use_norm=False), float("nan"),
     K.peak_bytes_eugen(n_te, d_in, L_h, m_budget, DEG, use_norm=False), acc_nonorm),
    (f"EUGen unbiased copy, m={m_budget}", K.params_eugen(d_in, L_h, m_budget, DEG),
     K.params_eugen(d_in, L_h, m_budget, DEG, store_G=True), K.flops_eugen(d_in, L_h, m_budget, DEG),
     t_eug / t_dense, K.peak_bytes_eugen(n_te, d_in, L_h, m_budget, DEG), acc_unb),
    (f"low-rank SVD, r={r_budget}", K.params_lowrank(d_in, L_h, r_budget), "", K.flops_lowrank(d_in, L_h, r_budget, DEG),
     t_lr / t_dense, K.peak_bytes_lowrank(n_te, d_in, L_h, r_budget), acc_lr[r_budget]),
]
print(f"{'layer':<30} {'params':>14} {'flops/input':>11} {'time ratio':>10} {'peak KiB':>9} {'test acc':>8}")
for name, p, pG, fl, tr, mem, acc in rows:
    ps = f"{p}" + (f" ({pG})" if pG != "" else "")
    ts = "not timed" if np.isnan(tr) else f"{tr:.2f}"
    print(f"{name:<30} {ps:>14} {fl:>11} {ts:>10} {mem / 1024:>9.1f} {acc:>8.3f}")

# %% [markdown]
# The curve below shows test accuracy against the counted flops of the replaced layer, for the fitted EUGen
# at several $m$ and the low-rank layer at several ranks. The dotted line marks the 0.6 budget.

# %%
fig, ax = plt.subplots(figsize=(6.4, 3.6))
fe = [K.flops_eugen(d_in, L_h, m, DEG) / f_dense for m in P.m_curve]
fl = [K.flops_lowrank(d_in, L_h, r, DEG) / f_dense for r in P.r_curve]
ax.plot(fe, [100 * acc_fit[m] for m in P.m_curve], "s-", label="EUGen, ridge transfer (m = 4 ... )")
ax.plot(fl, [100 * acc_lr[r] for r in P.r_curve], "o--", label="low-rank SVD (r = 2 ... )")
ax.axhline(100 * acc_teacher, color="k", lw=1, label="dense teacher")
ax.axhline(100 * acc_teacher - 2, color="grey", lw=1, ls="--", label="teacher − 2 points")
ax.axvline(0.6, color="k", ls=":", lw=1, label="budget: 0.6 × dense flops")
ax.set_xscale("log")
ax.set_xlabel("flops of the replaced hidden layer / dense flops")
ax.set_ylabel("digits test accuracy (%)")
ax.set_title(f"replacing the {d_in}→{L_h} hidden layer")
ax.legend(fontsize=8)
plt.show()
print("EUGen (m: flops ratio, accuracy):", {m: (round(fe[i], 2), round(acc_fit[m], 3)) for i, m in enumerate(P.m_curve)})
print("low-rank (r: flops ratio, accuracy):", {r: (round(fl[i], 2), round(acc_lr[r], 3)) for i, r in enumerate(P.r_curve)})

# %% [markdown]
# ### Checking the claims
#
# Thresholds come from the brief and the issue and were fixed before the run: 4 standard errors for
# unbiasedness; an RMSE slope in $[-0.625, -0.375]$ (the brief's MSE slope range $[-1.25, -0.75]$, halved);
# the paper's "up to 27 % faster / 30 % less memory" at our largest width; and at most 2 points of accuracy
# lost at 0.6 × the dense flops.

# %%
i_max = len(P.widths) - 1
claims.check("unbiased-4se", statement=f"Degree-2 activation: max |mean − exact| over {P.L} outputs, in standard "
             f"errors of the mean of {P.draws} independent EUGen draws (m={P.m_unb})",
             paper="unbiased for any polynomial activation (Thm 3.1)", criterion=at_most(4.0), measured=max_abs_z)
claims.check("rate-slope", statement=f"Log-log slope of relative RMS error against m ({P.ms[0]}..{P.ms[-1]}), "
             "without the norm coordinate", paper="error concentrates as m grows (Thms 3.2-3.3)",
             criterion=between(-0.625, -0.375), measured=slope[False])
claims.check("rate-slope-norm", statement="Same slope with the norm coordinate ||x|| appended",
             paper="error concentrates as m grows (Thms 3.2-3.3)", criterion=between(-0.625, -0.375),
             measured=slope[True])
claims.check("flops-linear", statement=f"Log-log slope of counted EUGen flops against width "
             f"{P.widths[0]}..{P.widths[-1]} (m={P.m_speed}, K={DEG}); dense slope {flop_slope_d:.2f}",
             paper="inference cost linear, not quadratic, in the width", criterion=between(0.9, 1.1),
             measured=flop_slope_e)
claims.check("flops-ratio-widest", statement=f"Counted flops EUGen / dense at width {P.widths[-1]}",
             paper="up to 27% faster inference", criterion=at_most(0.73),
             measured=float(cost["flops_e"][i_max] / cost["flops_d"][i_max]))
claims.check("memory-ratio-widest", statement=f"Counted peak tensor bytes EUGen / dense at width {P.widths[-1]}, "
             f"batch {P.batch}", paper="up to 30% memory saving", criterion=at_most(0.70),
             measured=float(cost["mem_e"][i_max] / cost["mem_d"][i_max]))
claims.check("transfer-accuracy", statement=f"Digits MLP: teacher accuracy − accuracy after ridge transfer of the "
             f"hidden layer at 0.6 × dense flops (m={m_budget}), in points",
             paper="near-baseline accuracy after layer-wise transfer", criterion=at_most(2.0),
             measured=100 * (acc_teacher - acc_fit[m_budget]))
claims.check("beats-lowrank", statement=f"Digits MLP, same 0.6 flop budget: EUGen fitted − low-rank (r={r_budget}) "
             "accuracy, in points", paper="better than a low-rank layer with the same budget (ViT)",
             criterion=at_least(0.0), measured=100 * (acc_fit[m_budget] - acc_lr[r_budget]))
claims.check("wall-ratio-widest", statement=f"Wall clock EUGen / dense forward at width {P.widths[-1]}",
             paper="up to 27% faster inference", criterion=at_most(0.73),
             measured=float(cost["t_e"][i_max] / cost["t_d"][i_max]), volatile=True)
claims.check("wall-slope-eugen", statement="Log-log slope of EUGen forward time against width",
             paper="linear in the width", criterion=at_most(1.3),
             measured=loglog_slope(widths, cost["t_e"]), volatile=True)
claims.check("wall-ratio-digits", statement=f"Wall clock EUGen (m={m_budget}) / dense hidden layer on the digits "
             "test set", paper="faster inference", criterion=at_most(1.0), measured=float(t_eug / t_dense),
             volatile=True)

# %% [markdown]
# The wall-clock measurements of this run. They vary from run to run and machine to machine, so they are shown
# but not counted; the checked speed claims rest on the flop and byte counts.

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
# **Reproduced: unbiasedness and the Monte Carlo rate.** For the degree-2 activation $f(u) = u + u^2/2$, the
# mean of 400 independent EUGen estimates lies within 2.7 standard errors of the exact dense output on all
# 16 outputs (criterion: 4). The relative error falls like $m^{-1/2}$: the fitted slopes are $-0.50$ without and
# $-0.49$ with the norm coordinate. This is what the random-Maclaurin construction promises. The paper's
# Theorems 3.1-3.3 state it in general; we checked it only for degree 2, one input distribution and Gaussian
# (not orthogonal) projections.
#
# **Reproduced, as counts: linear cost in the width.** With $m = 128$ and $K = 2$ fixed, the counted flops of
# the EUGen layer grow with slope 1.00 in the width, against 2 for the dense layer. At width 2048 the EUGen
# needs 25 % of the dense flops, 12.5 % of its stored parameters and 29 % of its peak tensor bytes, beyond
# the paper's "up to 27 % faster, 30 % less memory" (those are whole-model figures from GPU runs, so only the
# direction is comparable). The wall-clock ratios (timings table) follow the flop counts on one CPU
# thread. The saving only appears once the width exceeds about $2Km$. At width 256 the EUGen costs *twice*
# as much as the dense layer; break-even is at 512.
#
# **Not reproduced at this scale: transfer at 0.6 × the dense flops.** The digits teacher's hidden layer is
# only $64 \to 256$. The 0.6 flop budget then allows just $m = 15$ features per order, 30 random features
# for a 256-unit layer. The ridge-transferred EUGen reaches 89.4 % test accuracy against the teacher's
# 98.0 % (8.5 points lost; criterion: at most 2). A truncated-SVD layer with the same flops (rank 29) loses
# nothing, so the paper's "better than low-rank at equal budget" is not reproduced here either. The accuracy
# curve shows the EUGen needs $m = 32$ (1.2 × the dense layer's flops) to come within 2 points. The cause
# is structural rather than a matter of fitting. An EUGen is cheaper than the dense layer
# only if $Km \lesssim dL/(D + L)$, about 30 features here. A random projection to that few dimensions keeps
# much less of a trained layer than the best rank-29 projection, since the teacher's weight spectrum
# decays fast. The paper's budgets are set on layers hundreds to thousands wide, where the same fraction
# of flops buys hundreds of features. Our miniature cannot reach that regime on 64-pixel inputs, and we do
# not shrink the claim to fit it. The full-scale run (teacher trained for 1000 steps) gives the same
# picture: 10.6 points lost at $m = 15$, while the width sweep up to 8192
# brings the counted flop ratio down to 6 %.
#
# **Two observations beyond the claims.** Appending $\|x\|$ to the input helps the *fitted* layer: 89.4 %
# against 83.7 % without it at $m = 15$. That is the paper's point that EUGens go beyond dense layers. The
# *unbiased* copy of the teacher's layer, on the other hand, is useless at small $m$ (26 %): unbiased is not
# accurate. Its per-feature variance, about $\|w\|^2\|x\|^2$, is large compared with $(w^\top x)^2$ on real
# data, which is why the closed-form transfer matters in practice.
#
# **What the miniature cannot show.** Transformers, NeRFs and ImageNet-scale layers; GPU kernels, where
# the extra elementwise products and memory traffic of EUGens cost differently; activations other than
# polynomials (Theorem 3.4); orthogonal random features; fine-tuning after transfer. Peak memory on the
# digits batch is *higher* for the EUGen (980 KiB against 740 KiB). With 540 inputs and a small layer, the
# $n \times Km$ intermediate activations outweigh the saved weights. The counted saving at width 2048 holds
# for a batch of 32.
#
# **What was hard.** The exact EUGen formula was not available to us, so the estimator is our
# reconstruction, checked against the properties the paper states. Choosing the transfer budget before
# the run, from the brief, is what exposed the narrow-layer failure.
