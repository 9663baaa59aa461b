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

from repro.claims import Claims, at_least, at_most, between, tolerance
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
#    inference (up to 27 %) and save memory (up to 30 %) in whole Transformers, MLPs and NeRFs;
# 3. an EUGen can be fitted to a pretrained layer **layer-wise, in closed form**, without backpropagation,
#    and keeps close to the original accuracy. A secondary summary of the paper (we could not check its text)
#    adds that on ViT-Base this beats a low-rank layer with the same budget.
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
#   standard errors. The control is a deliberately wrong estimator: the same construction with one
#   projection reused by both orders ($G_2 = G_1$), which is biased for degree 2.
# - **Error rate**: relative mean squared error over 8 inputs and 16 outputs, averaged over 40 (full: 50)
#   draws of $G$, for $m = 32, \dots, 512$ (full: up to 2048), with and without the norm coordinate; we fit
#   the log-log slope of the root-mean-square error; the control is the tied-projection estimator again.
# - **Cost against width**: square layers $d = L = 256, \dots, 2048$ (full: up to 8192) with $m = 128$, $K = 2$.
#   We run a float32 forward pass of each layer on a batch of 32 and count the arithmetic operations it
#   performs (deterministic), measure its peak memory with `tracemalloc`, and time it (one thread, best of
#   5; volatile). The control is the same measurement at width 256, where $Km$ equals the width and no
#   saving is predicted.
# - **Transfer into a trained MLP**: scikit-learn's digits (1797 images of $8\times 8$ pixels, 70/30 stratified
#   split, standardised). The teacher is a $64 \to 256 \to 10$ MLP with $f(u) = u + u^2/2$, trained with Adam
#   for 300 full-batch steps. We replace its hidden layer, fitted on the training images, and keep the
#   output layer. Compared layers: the dense teacher; the EUGen fitted by ridge (with and without
#   $\|x\|$); the unbiased EUGen copy of $W$; and a truncated-SVD (low-rank) layer. The budget, fixed before
#   the run from the brief, is **at most 0.6 × the dense layer's flops**. We take the largest $m$ (and rank)
#   that fits it. Controls: the unbiased EUGen copy at the same $m$ (no transfer) for the accuracy loss, and
#   the fitted EUGen without $\|x\|$ for the comparison with low rank.
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
# - Speed and memory are claims about single layers: arithmetic operations counted while running one
#   forward pass, and peak bytes measured with `tracemalloc` on a NumPy version of the same pass. The paper's
#   27 % and 30 % are whole-model inference time and memory, a different quantity. Wall-clock times
#   are recorded but not counted.
# - The page first checked closed-form flop and byte formulas evaluated at fixed sizes. Those are identities
#   of our code and now live in the unit tests; the speed and memory claims were changed to measurements of
#   the running layers (flagged post hoc).

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

def max_z(independent):
    """Max |mean - exact| over the L outputs, in standard errors of the mean of `draws` estimates."""
    e = K.eugen_estimates(x_syn[:1], W_syn, None, COEFFS, P.m_unb, P.draws, seed=P.seed,
                          independent=independent)[:, 0]  # (draws, L)
    return e, float(((e.mean(0) - exact[0]) / (e.std(0, unbiased=True) / np.sqrt(P.draws))).abs().max())


est, max_abs_z = max_z(True)
est_tied, max_abs_z_tied = max_z(False)  # control: one projection reused by both orders (biased)

rmse = {}
for use_norm in (False, True):
    for independent in (True, False):
        rmse[use_norm, independent] = []
        for i, m in enumerate(progress(P.ms, desc=f"error vs m (norm={use_norm}, independent={independent})")):
            e = K.eugen_estimates(x_syn, W_syn, None, COEFFS, m, P.reps, seed=P.seed + 1000 * (i + 1),
                                  use_norm=use_norm, independent=independent)
            rel_mse = ((e - exact) ** 2).sum(-1) / (exact**2).sum(-1)  # (reps, n)
            rmse[use_norm, independent].append(float(rel_mse.mean().sqrt()))
slope = {k: loglog_slope(P.ms, v) for k, v in rmse.items()}
print(f"max |z| over {P.L} outputs: {max_abs_z:.2f} (tied projections: {max_abs_z_tied:.1f}); RMSE slopes: "
      f"without norm {slope[False, True]:.3f} (tied {slope[False, False]:.3f}), "
      f"with norm {slope[True, True]:.3f} (tied {slope[True, False]:.3f})")

# %% [markdown]
# The left panel shows, for each of the 16 outputs, the mean of 400 independent estimates against the exact
# value, with ±2 standard errors: they scatter around the diagonal with no systematic offset. The right
# panel shows the relative error against $m$ on log-log axes. Both variants follow the $m^{-1/2}$ line.
# Appending $\|x\|$ adds variance to the unbiased copy, because its weight slot is zero, but does not
# change the rate. The control, the same estimator with one projection reused by both orders (grey), levels
# off at its bias instead of falling.

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
    axes[1].plot(ms, rmse[use_norm, True], mk, ms=5, label=f"{'with' if use_norm else 'without'} $\\|x\\|$ "
                 f"(slope {slope[use_norm, True]:.2f})")
    axes[1].plot(ms, rmse[use_norm, False], mk, ms=4, color="grey", alpha=0.7,
                 label=f"control: tied projections, {'with' if use_norm else 'without'} $\\|x\\|$ "
                 f"(slope {slope[use_norm, False]:.2f})")
axes[1].plot(ms, rmse[False, True][0] * (ms / ms[0]) ** -0.5, "k:", lw=1, label="$\\propto m^{-1/2}$")
axes[1].set_xscale("log")
axes[1].set_yscale("log")
axes[1].set_xticks(ms, [str(m) for m in ms], minor=False)
axes[1].set_xticks([], minor=True)
axes[1].set_xlabel("random features per order $m$")
axes[1].set_ylabel("relative RMS error of the layer output")
axes[1].set_title("Monte Carlo error against $m$")
axes[1].legend(fontsize=7)
plt.show()

# %% [markdown]
# ### Cost against width
#
# At each width we **run** a forward pass of both layers on the same batch of 32 and count the work that
# pass performs. `K.count_work` runs the pass under the torch profiler and adds up the arithmetic of every
# aten kernel it executes: $2nkm$ operations for an $(n, k) \times (k, m)$ product, one per element for the
# elementwise ops, reductions and the cumulative product, none for views and copies. The unit is the same
# for both layers and the counts are taken at the sizes run; nothing is assumed about either layer's cost. Peak memory is measured as
# well: the bytes of the weights and batch plus the peak of the allocations `tracemalloc` sees during a
# NumPy forward pass of each layer (float32). The wall-clock times are best-of-5 forward passes of the same
# torch layers. The closed-form counts of the kernel module (`K.flops_eugen`, `K.peak_bytes_eugen`) are
# identities of our own code; the unit tests check them against these measured counts.

# %%
widths = np.array(P.widths)
cost = {k: [] for k in ("flops_d", "flops_e", "par_d", "par_e", "mem_d", "mem_e", "t_d", "t_e")}
for w in progress(P.widths, desc="width sweep"):
    w = int(w)
    xb = torch.randn(P.batch, w, generator=g)
    Wd, bd = torch.randn(w, w, generator=g) / np.sqrt(w), torch.zeros(w)
    layer = K.EUGenLinear(w, w, P.m_speed, DEG, seed=P.seed, dtype=torch.float32).requires_grad_(False)
    with torch.no_grad():
        work_d = K.count_work(lambda: K.dense_poly_layer(xb, Wd, bd, COEFFS))
        work_e = K.count_work(lambda: layer(xb))
        cost["t_d"].append(K.best_time(lambda: K.dense_poly_layer(xb, Wd, bd, COEFFS), P.repeats))
        cost["t_e"].append(K.best_time(lambda: layer(xb), P.repeats))
    cost["flops_d"].append(work_d["flops"])
    cost["flops_e"].append(work_e["flops"])
    cost["par_d"].append(K.params_dense(w, w))
    cost["par_e"].append(K.params_eugen(w, w, P.m_speed, DEG))
    x_np, W_np, b_np = xb.numpy(), Wd.numpy(), bd.numpy()
    G_np, V_np, c_np = layer.G.numpy(), layer.V.detach().numpy(), layer.c.detach().numpy()
    cost["mem_d"].append(K.traced_peak_bytes(K.numpy_forward_dense, x_np, W_np, b_np))
    cost["mem_e"].append(K.traced_peak_bytes(K.numpy_forward_eugen, x_np, G_np, V_np, c_np))
cost = {k: np.array(v, dtype=float) for k, v in cost.items()}
flop_slope_e, flop_slope_d = loglog_slope(widths, cost["flops_e"]), loglog_slope(widths, cost["flops_d"])
ratio = {k: cost[k + "_e"] / cost[k + "_d"] for k in ("flops", "par", "mem", "t")}

# %%
fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.6))
axes[0].plot(widths, cost["flops_d"], "o-", label=f"dense (slope {flop_slope_d:.2f})")
axes[0].plot(widths, cost["flops_e"], "s--", label=f"EUGen m={P.m_speed}, K={DEG} (slope {flop_slope_e:.2f})")
axes[0].set_ylabel(f"arithmetic ops of one forward pass, batch {P.batch}")
axes[1].plot(widths, 1e3 * cost["t_d"], "o-", label="dense")
axes[1].plot(widths, 1e3 * cost["t_e"], "s--", label=f"EUGen m={P.m_speed}")
axes[1].set_ylabel(f"forward time, batch {P.batch} (ms, best of {P.repeats})")
for ax in axes:
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("layer width $d = L$")
    ax.legend()
axes[0].set_title("work counted while running")
axes[1].set_title("wall clock, one CPU thread")
plt.show()
print("ratios EUGen / dense (ops counted while running; peak bytes measured; time: wall clock)")
print(f"{'width':>6} {'ops':>7} {'params':>7} {'peak bytes':>11} {'time':>7} {'ops/time':>9}")
for i, w in enumerate(widths):
    print(f"{w:>6} {ratio['flops'][i]:>7.3f} {ratio['par'][i]:>7.3f} "
          f"{ratio['mem'][i]:>11.3f} {ratio['t'][i]:>7.3f} {ratio['flops'][i] / ratio['t'][i]:>9.2f}")

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
# ### The paper's numbers beside ours
#
# The paper's percentages are savings of whole models: inference time and memory of Transformers, MLPs and
# NeRFs with some layers replaced. Ours are ratios for one isolated layer, or for the hidden layer of the
# digits MLP. The rows are *not* the same quantity measured twice: they are set side by side so that a reader
# sees what the paper measured and what we measured. Only the two "up to" figures come from the abstract. The
# per-task figures come from a secondary, AI-written summary of the paper (the brief's source); we could not
# check them against the paper's text.
# One row is worth reading twice: at width 256, the width of a standard NeRF MLP, our layer with $m = 128$
# does twice the dense work, so a NeRF saving must come from fewer features or other parts of the model than
# the ones our miniature times.

# %%
i_w = len(P.widths) - 1
paper_vs_ours = [
    ("paper (abstract): whole models, best task", "inference time", "up to 27 % faster",
     f"ours: one layer, width {P.widths[i_w]}, m={P.m_speed}, batch {P.batch}", "arithmetic ops",
     f"{100 * (1 - ratio['flops'][i_w]):.0f} % fewer"),
    ("paper (abstract): whole models, best task", "memory", "up to 30 % less",
     f"ours: one layer, width {P.widths[i_w]}", "peak bytes of a forward pass",
     f"{100 * (1 - ratio['mem'][i_w]):.0f} % less"),
    ("paper (summary): GPT-2 124M, 6 FFN layers replaced", "parameters", "about 30 % fewer",
     f"ours: one layer, width {P.widths[i_w]} (G from its seed)", "parameters",
     f"{100 * (1 - ratio['par'][i_w]):.0f} % fewer"),
    ("paper (summary): NeRF / Mip-NeRF 360 / iSDF", "inference time", "24 % / 27 % / 22.6 % faster",
     f"ours: one layer, width {P.widths[0]} (NeRF's MLP width), m={P.m_speed}", "arithmetic ops",
     f"{ratio['flops'][0]:.1f} × the dense layer"),
    ("paper (summary): ViT-Base, ImageNet, ~70 % of params", "accuracy", "near the baseline, above low-rank",
     f"ours: digits MLP, 0.6 × flops (m={m_budget})", "test accuracy lost",
     f"{100 * (acc_teacher - acc_fit[m_budget]):.1f} points (low-rank r={r_budget}: "
     f"{100 * (acc_teacher - acc_lr[r_budget]):.1f})"),
]
print(f"{'paper: setting':<52} {'quantity':<15} {'paper reports':<33} | {'ours: setting':<46} "
      f"{'quantity':<29} ours")
for row in paper_vs_ours:
    print(f"{row[0]:<52} {row[1]:<15} {row[2]:<33} | {row[3]:<46} {row[4]:<29} {row[5]}")

# %% [markdown]
# ### Checking the claims
#
# Thresholds come from the brief and the issue and were fixed before the run: 4 standard errors for
# unbiasedness; an RMSE slope in $[-0.625, -0.375]$ (the brief's MSE slope range $[-1.25, -0.75]$, halved);
# the paper's whole-model "up to 27 % faster / 30 % less memory", borrowed as thresholds for one layer's ops
# and peak bytes at our largest width (a different quantity, see the verdict); and at most 2 points of accuracy
# lost at 0.6 × the dense flops.
#
# Each counted claim has a control: the same measurement under the same criterion on something for which
# the paper's claim should not hold.
#
# - *Unbiasedness and rate* (demonstrations of the paper's theorems): the same estimator with **one
#   projection reused by both orders** ($G_2 = G_1$). Its order-2 feature is $(g^\top w)^2 (g^\top x)^2$,
#   whose mean is $\|w\|^2\|x\|^2 + 2(w^\top x)^2$, not $(w^\top x)^2$. It is biased, so its error should
#   level off instead of falling like $m^{-1/2}$.
# - *Work and memory at the widest layer*: the same two layers, run and measured the same way, at the
#   narrowest width (256). There $K m = 256$ equals the width, and the linear-cost argument predicts no
#   saving. A count whose ratio followed from the counting convention would pass here too.
# - *Transfer accuracy*: the **unbiased EUGen copy** of the teacher's layer at the same $m$, which is the
#   method without its closed-form transfer.
# - *Beats low-rank*: the ridge-fitted EUGen **without the $\|x\|$ coordinate**, the ingredient by which the
#   paper says EUGens go beyond dense layers.

# %%
i_max = len(P.widths) - 1
TRAINED = tolerance(rel=0.2, abs=1.0, why="accuracies of a teacher trained by 300 full-batch Adam steps; another "
                    "machine's rounding moves its end point, and each test image is 0.19 points")
claims.check("unbiased-4se", kind="theorem",
             statement=f"Degree-2 activation: max |mean − exact| over {P.L} outputs, in standard "
             f"errors of the mean of {P.draws} independent EUGen draws (m={P.m_unb})",
             paper="unbiased for any polynomial activation (Thm 3.1)", criterion=at_most(4.0), measured=max_abs_z,
             control=max_abs_z_tied, control_label="wrong estimator: one projection reused by both orders "
             "(G_2 = G_1), biased for degree 2")
claims.check("rate-slope", kind="theorem",
             statement=f"Log-log slope of relative RMS error against m ({P.ms[0]}..{P.ms[-1]}), "
             "without the norm coordinate", paper="error concentrates as m grows (Thms 3.2-3.3)",
             criterion=between(-0.625, -0.375), measured=slope[False, True],
             control=slope[False, False], control_label="wrong estimator: tied projections (G_2 = G_1), biased")
claims.check("rate-slope-norm", kind="theorem", statement="Same slope with the norm coordinate ||x|| appended",
             paper="error concentrates as m grows (Thms 3.2-3.3)", criterion=between(-0.625, -0.375),
             measured=slope[True, True],
             control=slope[True, False], control_label="wrong estimator: tied projections (G_2 = G_1), biased")
claims.check("work-ratio-widest",
             statement=f"Arithmetic ops counted while running one forward pass (batch {P.batch}), EUGen (m={P.m_speed}, "
             f"K={DEG}) / dense, at width {P.widths[-1]}",
             paper="up to 27% faster inference, whole models (abstract); a time saving, not a layer's op count", criterion=at_most(0.73),
             measured=float(ratio["flops"][i_max]), control=float(ratio["flops"][0]),
             control_label=f"the same two layers at width {P.widths[0]} = K·m, where no saving is predicted",
             post_hoc="measurement changed: was the closed-form flop formula, now the ops counted while running "
             "both layers (issue 10)")
claims.check("peak-memory-ratio-widest",
             statement=f"Measured peak bytes (weights, batch and traced allocations of a NumPy forward pass, "
             f"batch {P.batch}), EUGen / dense, at width {P.widths[-1]}",
             paper="up to 30% memory saving, whole models (abstract); not a single layer's peak bytes", criterion=at_most(0.70),
             measured=float(ratio["mem"][i_max]), control=float(ratio["mem"][0]),
             control_label=f"the same two layers at width {P.widths[0]} = K·m, where no saving is predicted",
             tol=tolerance(rel=0.02, why="tracemalloc also sees the small Python allocations of the kernel's other "
                           "threads: a few KB, 0.3 % run to run at width 256"),
             post_hoc="measurement changed: was a closed-form byte count, now measured with tracemalloc while "
             "running both layers (issue 10)")
claims.check("transfer-accuracy", statement=f"Digits MLP: teacher accuracy − accuracy after ridge transfer of the "
             f"hidden layer at 0.6 × dense flops (m={m_budget}), in points",
             paper="near-baseline accuracy after layer-wise transfer (ViT, GPT-2, NeRF; no number retrieved)", criterion=at_most(2.0),
             measured=100 * (acc_teacher - acc_fit[m_budget]), tol=TRAINED,
             control=100 * (acc_teacher - acc_unb),
             control_label=f"unbiased EUGen copy of the teacher layer at m={m_budget} (no transfer)")
claims.check("beats-lowrank", statement=f"Digits MLP, same 0.6 flop budget: EUGen fitted − low-rank (r={r_budget}) "
             "accuracy, in points", paper="ViT-Base at ~70% of inference params: above a low-rank layer of equal budget (secondary summary)",
             criterion=at_least(0.0), measured=100 * (acc_fit[m_budget] - acc_lr[r_budget]), tol=TRAINED,
             control=100 * (acc_nonorm - acc_lr[r_budget]),
             control_label="EUGen fitted without the ||x|| coordinate")
formula = np.array([K.flops_eugen(int(w), int(w), P.m_speed, DEG) / K.flops_dense(int(w), int(w), DEG)
                    for w in P.widths])
claims.check("work-count-vs-formula", kind="implementation",
             statement="Largest relative gap, over the widths run, between the counted ops ratio and the closed-form "
             "flop formulas of the kernel module", paper="(our code)", criterion=at_most(0.01),
             measured=float(np.max(np.abs(ratio["flops"] / formula - 1))))
claims.check("wall-ratio-widest", statement=f"Wall clock EUGen / dense forward at width {P.widths[-1]}",
             paper="up to 27% faster inference, whole models (abstract)", criterion=at_most(0.73),
             measured=float(ratio["t"][i_max]), volatile=True)
claims.check("work-vs-wall-widest", statement=f"Counted ops ratio / wall-clock ratio at width {P.widths[-1]}",
             paper="(a count must agree with the clock within a factor of 2)", criterion=between(0.5, 2.0),
             measured=float(ratio["flops"][i_max] / ratio["t"][i_max]), volatile=True)
claims.check("wall-slope-eugen", statement="Log-log slope of EUGen forward time against width",
             paper="linear in the width", criterion=at_most(1.3),
             measured=loglog_slope(widths, cost["t_e"]), volatile=True)
claims.check("wall-ratio-digits", statement=f"Wall clock EUGen (m={m_budget}) / dense hidden layer on the digits "
             "test set", paper="faster inference", criterion=at_most(1.0), measured=float(t_eug / t_dense),
             volatile=True)

# %% [markdown]
# The wall-clock measurements of this run. They vary from run to run and machine to machine, so they are shown
# but not counted; the checked speed claim rests on the operations counted while the layers ran.
# `work-vs-wall-widest` divides the counted ratio by the clock ratio at the widest layer; the two should agree
# within a factor of 2. On a quiet machine they do: an earlier run of this page measured a wall-clock ratio of
# 0.24 at width 2048 against a counted 0.25. On a loaded, shared machine the clock ratio at width 2048 has come
# out several times lower in some runs, because the dense pass slowed while the EUGen pass did not. A count of
# arithmetic cannot see that. Our guess at the cause is memory bandwidth: the dense pass streams a 16 MB
# weight matrix, which other processes compete for, while the EUGen pass reads about 4 MB. We did not measure
# this.

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
# **In one line.** Five of the seven counted claims are reproduced, each against a control that fails; two
# of those five were changed after the first run (post hoc). The two transfer claims are not reproduced at
# this scale. Three of the page's former claims were closed-form counts; they are now unit tests.
#
# **Reproduced, against a wrong estimator: unbiasedness and the Monte Carlo rate.** For the degree-2
# activation $f(u) = u + u^2/2$, the mean of 400 independent EUGen estimates lies within 2.7 standard errors
# of the exact dense output on all 16 outputs (criterion: 4). The same construction with one projection
# reused by both orders misses by 51 standard errors. The relative error falls like $m^{-1/2}$: the fitted
# slopes are $-0.50$ without and $-0.49$ with the norm coordinate. The biased control levels off at its bias
# (slopes $-0.07$ and $-0.05$). These checks demonstrate the paper's Theorems 3.1-3.3 for our reconstruction
# of the estimator. We checked only degree 2, one input distribution and Gaussian (not orthogonal)
# projections.
#
# **Reproduced, measured on running layers: work and memory of a wide layer.** At width 2048 ($m = 128$,
# $K = 2$, batch 32), a forward pass of the EUGen layer performs 25 % of the arithmetic operations of the
# dense pass and needs 29 % of its peak bytes. The same two measurements at width 256 give 2.0 and 2.0: the
# EUGen costs twice the dense layer there, as the linear-cost argument predicts when $Km$ equals the width.
# Break-even is at width 512. The counted operations agree with the closed-form counts within 0.1 %, and
# they grow with slope 1.00 in the width against 2.00 for the dense layer. These ratios are for one isolated
# layer on a CPU. The paper's "up to 27 % faster inference and 30 % less memory" are savings of whole
# models (Transformers, MLPs, NeRFs) on the paper's hardware. A fraction of a layer's arithmetic is not a
# fraction of a model's run time, and a layer's peak bytes are not a model's memory, so our 25 % and 29 % are
# different quantities from the paper's 27 % and 30 %. They neither confirm nor exceed the paper's numbers;
# only the direction (the wide EUGen layer does less work and needs fewer bytes) is comparable. The table
# "The paper's numbers beside ours" sets the two side by side with their settings. The 0.73 and 0.70
# thresholds were taken from the paper's percentages before the run; they are our criteria for one layer,
# not a test of the paper's figures. Both claims changed after the first run, from formulas to measurements
# (flagged post hoc). The timings show whether the clock follows the count on the machine that ran this
# page (see the note above them).
#
# **Not reproduced at this scale: transfer at 0.6 × the dense flops.** The digits teacher's hidden layer is
# only $64 \to 256$. The 0.6 flop budget then allows just $m = 15$ features per order, 30 random features
# for a 256-unit layer. The ridge-transferred EUGen reaches 89.4 % test accuracy against the teacher's
# 98.0 % (8.5 points lost; criterion: at most 2). Its control, the unbiased EUGen copy of the same layer
# without transfer, loses 72 points, so the transfer helps a lot, but not enough. A truncated-SVD layer with
# the same flops (rank 29) loses nothing, so the paper's "better than low-rank at equal budget" is not
# reproduced here either (−8.5 points; the control without $\|x\|$ does worse, −14.3). Both transfer
# claims and their controls fail, so they count as not reproduced. The accuracy
# curve shows the EUGen needs $m = 32$ (1.2 × the dense layer's flops) to come within 2 points. The cause
# is structural rather than a matter of fitting. An EUGen is cheaper than the dense layer
# only if $Km \lesssim dL/(D + L)$, about 30 features here. A random projection to that few dimensions keeps
# much less of a trained layer than the best rank-29 projection, since the teacher's weight spectrum
# decays fast. The paper's budgets are set on layers hundreds to thousands wide, where the same fraction
# of flops buys hundreds of features. Our miniature cannot reach that regime on 64-pixel inputs, and we do
# not shrink the claim to fit it. These statuses hold at every one of the ten ci seeds (the points lost
# range from 8.5 to 15.7), and the full-scale runs ($d = 256$, teacher trained for 1000 steps, widths up to
# 8192; the last column of the table "Across seeds and scales") give the same statuses for all seven claims
# and their controls; at width 8192 the EUGen pass performs a small fraction of the dense operations and
# needs a similar fraction of its peak bytes.
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
# digits batch is *higher* for the EUGen (980 KiB against 740 KiB, counted by formula). With 540 inputs and a
# small layer, the $n \times Km$ intermediate activations outweigh the saved weights. The measured saving at
# width 2048 holds for a batch of 32.
#
# **What was hard.** The exact EUGen formula was not available to us, so the estimator is our
# reconstruction, checked against the properties the paper states. Choosing the transfer budget before
# the run, from the brief, is what exposed the narrow-layer failure.
