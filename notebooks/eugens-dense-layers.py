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
# *The paper replaces a dense layer with a polynomial activation by random features of the (norm-augmented)
# input, and says the estimate is unbiased, costs linear rather than quadratic time in the width, and can be
# fitted to a trained layer in closed form. Here the one counted test, fitting a digits MLP's hidden layer at the
# brief's flop budget, fails: the EUGen loses too much accuracy, while a plain low-rank layer passes.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
import torch
from myst_nb import glue
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

from repro.claims import Claims, Comparator, at_least, at_most, between, greater_than, tolerance
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
#   standard errors. A sensitivity check (not a comparator): the same construction with one projection
#   reused by both orders ($G_2 = G_1$), which is biased for degree 2.
# - **Error rate**: relative mean squared error over 8 inputs and 16 outputs, averaged over 40 (full: 50)
#   draws of $G$, for $m = 32, \dots, 512$ (full: up to 2048), with and without the norm coordinate; we fit
#   the log-log slope of the root-mean-square error, beside the tied-projection estimator again.
# - **Cost against width**: square layers $d = L = 256, \dots, 2048$ (full: up to 8192) with $m = 128$, $K = 2$.
#   We run a float32 forward pass of each layer on a batch of 32 and count the arithmetic operations it
#   performs (deterministic), measure its peak memory with `tracemalloc`, and time it (one thread, best of
#   5; volatile). The same measurement at width 256, where $Km$ equals the width, shows where no saving
#   is predicted.
# - **Transfer into a trained MLP**: scikit-learn's digits (1797 images of $8\times 8$ pixels, 70/30 stratified
#   split, standardised). The teacher is a $64 \to 256 \to 10$ MLP with $f(u) = u + u^2/2$, trained with Adam
#   for 300 full-batch steps. We replace its hidden layer, fitted on the training images, and keep the
#   output layer. Compared layers: the dense teacher; the EUGen fitted by ridge (with and without
#   $\|x\|$); the unbiased EUGen copy of $W$ (the ablation: no transfer); and two naive baselines with no
#   fitting, a truncated-SVD (low-rank) layer and a sketch that keeps input columns of $W$ sampled in
#   proportion to their squared norms, rescaled so that it is unbiased for $Wx$. After the independent review
#   two more naive baselines were added, at the same budget: *input PCA* (project the input on the top principal
#   directions of the training inputs, then apply the teacher layer) and *unit pruning* (keep the hidden units
#   with the largest $\|W_2\text{ column}\|\cdot\mathrm{std}(h)$, set the others to their training mean). The
#   budget, fixed before the run from the brief, is **at most 0.6 × the dense layer's flops**. We take the largest
#   $m$ (rank, number of columns, number of units) that fits it.
# - **Shown beside the test, not counted**: the fitted EUGen with a constant (the mean training norm) in the slot
#   of $\|x\|$, the review's control for the norm coordinate; order-1 random features only ($K = 1$, the same
#   number of features); and the fitted EUGen at about 0.7 × the dense layer's *parameters*, the budget unit of the
#   paper's ViT comparison as the secondary summary reports it.
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
#   the running layers. In the conversion to the book's claim model they became illustrations: the
#   ratios follow from the layer's definition. Unbiasedness and the error rate, which check our own
#   reconstruction of a prior-work estimator against our own derivation, became illustrations too, and the
#   former "beats low-rank" claim, the same measurement as the transfer test, is shown as an illustration.
# - The column-sampling baseline is ours (added in the conversion); input PCA and unit pruning were added after
#   the independent review. The paper compares with low rank.
# - The budget is in **flops**, as the brief sets it. The paper's ViT comparison (per the secondary summary) is at
#   about 70 % of the *parameters*. We show the fitted EUGen at that budget beside the test; it is not counted.
# - The replaced layer is the $64 \to 256$ hidden layer of a two-layer MLP, as the brief sets it. It is narrow:
#   at 0.6 × its flops the EUGen gets few random features. A wider layer of a deeper digits MLP was not run here.

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
est_tied, max_abs_z_tied = max_z(False)  # sensitivity check: one projection reused by both orders (biased)

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
# change the rate. The sensitivity check, the same estimator with one projection reused by both orders (grey), levels
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
                 label=f"sensitivity check: tied projections, {'with' if use_norm else 'without'} $\\|x\\|$ "
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
c_budget = max(c for c in range(1, 4 * d_in) if K.flops_sampled(d_in, L_h, c, DEG) <= 0.6 * f_dense)


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
    idx_c, W_c = K.column_sample_from_dense(W1, c_budget, seed=P.seed)  # sketching baseline, same flop budget
    acc_cs = K.accuracy(K.poly_activation(Xte.double()[:, idx_c] @ W_c.T + b1, COEFFS), W2, b2, yte)
    # the review's naive baselines, same flop budget: input PCA (rank r_budget) and hidden-unit pruning
    A_p, B_p, b_p = K.input_pca_layer(Xtr, W1, b1, r_budget)
    acc_pca = K.accuracy(K.poly_activation(Xte.double() @ B_p.T @ A_p.T + b_p, COEFFS), W2, b2, yte)
    n_keep = max(n for n in range(1, L_h + 1) if K.flops_dense(d_in, n, DEG) <= 0.6 * f_dense)
    keep, fill = K.prune_hidden_units(H_tr, W2, n_keep)
    acc_prune = K.accuracy(K.pruned_hidden(H_te, keep, fill), W2, b2, yte)
    # control for the norm coordinate: a constant (the mean training norm) in the slot of ||x||
    norm_bar = float(Xtr.norm(dim=1).mean())
    const = K.fit_eugen_layerwise(K.append_constant(Xtr, norm_bar), H_tr, m_budget, DEG, P.ridge, seed=P.seed,
                                  use_norm=False)
    acc_const = K.accuracy(const(K.append_constant(Xte, norm_bar)), W2, b2, yte)
    # order-1 random features only (K = 1), the same number of features (2 m_budget), ridge transfer
    acc_k1 = K.accuracy(K.fit_eugen_layerwise(Xtr, H_tr, DEG * m_budget, 1, P.ridge, seed=P.seed)(Xte), W2, b2, yte)
    # the paper's budget unit (per the secondary summary): about 0.7 x the dense layer's parameters
    m_par = max(m for m in range(1, 512) if K.params_eugen(d_in, L_h, m, DEG) <= 0.7 * K.params_dense(d_in, L_h))
    acc_par = K.accuracy(K.fit_eugen_layerwise(Xtr, H_tr, m_par, DEG, P.ridge, seed=P.seed)(Xte), W2, b2, yte)
sv2 = torch.linalg.svdvals(W1) ** 2
energy_r = float(sv2[:r_budget].sum() / sv2.sum())  # share of ||W1||_F^2 in the top r_budget singular values
km_breakeven = d_in * L_h / (d_in + 2 + L_h)  # Km below which the EUGen is cheaper: dL / (D + L)
print(f"teacher test accuracy {acc_teacher:.3f}; budget 0.6 x dense flops -> m = {m_budget}, rank = {r_budget}, "
      f"{c_budget} sampled columns, {n_keep} pruned units")
print(f"EUGen fitted, m={m_budget}: with ||x|| {acc_fit[m_budget]:.3f}, without {acc_nonorm:.3f}, with the constant "
      f"{norm_bar:.2f} instead {acc_const:.3f}; K=1 with {DEG * m_budget} features {acc_k1:.3f}; "
      f"0.7 x params (m={m_par}) {acc_par:.3f}; top-{r_budget} share of ||W1||_F^2 {energy_r:.3f}")

# %% [markdown]
# The table compares the hidden-layer replacements at the brief's flop budget. Parameters count stored numbers
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
    (f"sampled columns, c={c_budget}", K.params_dense(c_budget, L_h), "", K.flops_sampled(d_in, L_h, c_budget, DEG),
     float("nan"), K.peak_bytes_dense(n_te, c_budget, L_h), acc_cs),
    (f"input PCA, r={r_budget}", K.params_lowrank(d_in, L_h, r_budget), "", K.flops_lowrank(d_in, L_h, r_budget, DEG),
     float("nan"), K.peak_bytes_lowrank(n_te, d_in, L_h, r_budget), acc_pca),
    (f"unit pruning, {n_keep} units", K.params_dense(d_in, n_keep), "", K.flops_dense(d_in, n_keep, DEG),
     float("nan"), K.peak_bytes_dense(n_te, d_in, n_keep), acc_prune),
]
print(f"{'layer':<30} {'params':>14} {'flops/input':>11} {'time ratio':>10} {'peak KiB':>9} {'test acc':>8}")
for name, p, pG, fl, tr, mem, acc in rows:
    ps = f"{p}" + (f" ({pG})" if pG != "" else "")
    ts = "not timed" if np.isnan(tr) else f"{tr:.2f}"
    print(f"{name:<30} {ps:>14} {fl:>11} {ts:>10} {mem / 1024:>9.1f} {acc:>8.3f}")

# %% [markdown]
# The curve below shows test accuracy against the counted flops of the replaced layer, for the fitted EUGen
# at several $m$ and the low-rank layer at several ranks. The dotted line marks the brief's budget.

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
# does {glue:text}`ops_ratio_narrow:.1f` × the dense work, so a NeRF saving must come from fewer features or other parts of the model than
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
# The rule is the book's evidence rubric: a check counts only if the paper's method could have failed it and the
# method without its ingredient, or the strongest naive baseline, fails it under the same measurement. Most of
# this page cannot meet that rule, and says so.
#
# - **Illustrations (shown, not counted).** Unbiasedness and the $m^{-1/2}$ rate are properties of our own
#   reconstruction of the estimator, the random-Maclaurin construction of prior work; the Monte Carlo check
#   compares it with our own derivation. The wide-layer work and memory ratios follow from the layer's
#   definition: $K m (D + L)$ against $dL$ operations, $KmL$ against $dL$ weights. Counting them while the
#   layer runs checks our code, not the paper. The tied-projection estimator and the width-256 layer stay on
#   the figures as sensitivity checks, not as comparators.
# - **One test: transfer at 0.6 × the dense flops.** Its threshold (at most 2 points lost) and budget come from
#   the brief, fixed before the first run and unchanged. The ingredient is the closed-form layer-wise transfer
#   of the EUGen; its ablation is the unbiased EUGen copy of the teacher layer at the same $m$ (no transfer).
#   The naive baselines, under the same budget and criterion and with no fitting at all, are the truncated-SVD
#   layer (the best rank-$r$ approximation of $W$) and a sketch that keeps $c$ input columns of $W$ sampled in
#   proportion to their squared norms and rescaled (unbiased for $Wx$). The review added input PCA and unit
#   pruning at the same budget; adding comparators leaves the test pre-registered. A smaller dense layer with the same
#   parameter count would need the output layer retrained, which is more than replacing one layer; we did
#   not run it.
# - The former claim "beats low-rank" measured the same EUGen accuracy against the same SVD layer: it is the
#   test's baseline read the other way round, so it is shown as an illustration (one measurement is counted once).
#   The $\|x\|$ coordinate's effect on the fitted layer is shown the same way, beside its control: a constant
#   in the slot of $\|x\|$.

# %%
i_max = len(P.widths) - 1
TRAINED = tolerance(rel=0.2, abs=1.0, why="accuracies of a teacher trained by 300 full-batch Adam steps; another "
                    "machine's rounding moves its end point, and each test image is 0.19 points")
claims.illustrate("unbiased-4se",
                  statement=f"Degree-2 activation: max |mean − exact| over {P.L} outputs, in standard "
                  f"errors of the mean of {P.draws} independent EUGen draws (m={P.m_unb})",
                  paper="unbiased for any polynomial activation (Thm 3.1)", criterion=at_most(4.0), measured=max_abs_z,
                  why="our reconstruction is the random-Maclaurin estimator of prior work (Kar and Karnick 2012), "
                  "unbiased by the two-line derivation above; Monte Carlo checks our code against our own derivation, "
                  "not the paper's (unseen) layer")
claims.illustrate("rate-slope",
                  statement=f"Log-log slope of relative RMS error against m ({P.ms[0]}..{P.ms[-1]}), "
                  "without the norm coordinate", paper="error concentrates as m grows (Thms 3.2-3.3)",
                  criterion=between(-0.625, -0.375), measured=slope[False, True],
                  why="an average of m i.i.d. unbiased terms has RMS error ∝ m^-1/2: a classical Monte Carlo fact "
                  "about our own estimator")
claims.illustrate("rate-slope-norm", statement="Same slope with the norm coordinate ||x|| appended",
                  paper="error concentrates as m grows (Thms 3.2-3.3)", criterion=between(-0.625, -0.375),
                  measured=slope[True, True],
                  why="the same classical Monte Carlo rate; the norm slot has weight 0 in the unbiased copy")
claims.illustrate("work-ratio-widest",
                  statement=f"Arithmetic ops counted while running one forward pass (batch {P.batch}), EUGen "
                  f"(m={P.m_speed}, K={DEG}) / dense, at width {P.widths[-1]}",
                  paper="up to 27% faster inference, whole models (abstract); a time saving, not a layer's op count",
                  criterion=at_most(0.73), measured=float(ratio["flops"][i_max]),
                  why="the ratio follows from the layer's definition, 2Km(D+L) against 2dL operations, at sizes we "
                  "chose; counting it while running checks our code (it matches the formula), not the paper")
claims.illustrate("peak-memory-ratio-widest",
                  statement=f"Measured peak bytes (weights, batch and traced allocations of a NumPy forward pass, "
                  f"batch {P.batch}), EUGen / dense, at width {P.widths[-1]}",
                  paper="up to 30% memory saving, whole models (abstract); not a single layer's peak bytes",
                  criterion=at_most(0.70), measured=float(ratio["mem"][i_max]),
                  tol=tolerance(rel=0.02, why="tracemalloc also sees the small Python allocations of the kernel's "
                                "other threads: a few KB, 0.3 % run to run at width 256"),
                  why="dominated by the stored weights, KmL against dL numbers at sizes we chose: the ratio follows "
                  "from the definition, whatever the paper's layers do")
claims.test("transfer-accuracy", statement=f"Digits MLP: teacher accuracy − accuracy after replacing the hidden "
            f"layer at 0.6 × dense flops (EUGen by ridge transfer, m={m_budget}), in points",
            paper="near-baseline accuracy after layer-wise transfer (ViT, GPT-2, NeRF; no number retrieved); ViT-Base: "
            "above a low-rank layer of equal budget (secondary summary)", criterion=at_most(2.0),
            measured=100 * (acc_teacher - acc_fit[m_budget]), tol=TRAINED,
            ablation=Comparator(f"unbiased EUGen copy of the teacher layer, m={m_budget} (no transfer)",
                                  100 * (acc_teacher - acc_unb), ingredient="the closed-form layer-wise transfer"),
            baselines=[Comparator(f"truncated-SVD layer, rank {r_budget}, same flops",
                                    100 * (acc_teacher - acc_lr[r_budget])),
                       Comparator(f"{c_budget} input columns sampled ∝ squared norm and rescaled, same flops",
                                    100 * (acc_teacher - acc_cs)),
                       Comparator(f"input PCA: top-{r_budget} principal directions of the training inputs, then "
                                  "the teacher layer, same flops (added after the review)",
                                  100 * (acc_teacher - acc_pca)),
                       Comparator(f"unit pruning: keep {n_keep} hidden units by ||W2 col|| × std(h), the others at "
                                  "their training mean, same flops (added after the review)",
                                  100 * (acc_teacher - acc_prune))])
claims.illustrate("beats-lowrank", statement=f"Digits MLP, same 0.6 flop budget: EUGen fitted − low-rank "
                  f"(r={r_budget}) accuracy, in points",
                  paper="ViT-Base at ~70% of inference params: above a low-rank layer of equal budget (secondary "
                  "summary)", criterion=at_least(0.0), measured=100 * (acc_fit[m_budget] - acc_lr[r_budget]),
                  tol=TRAINED, why="the same two accuracies as transfer-accuracy and its SVD baseline, read as a "
                  "difference: one measurement is counted once")
claims.illustrate("norm-coordinate-helps-fit", statement=f"Digits MLP, m={m_budget}: accuracy of the ridge-fitted "
                  "EUGen with ||x|| − without it, in points",
                  paper="EUGens go beyond dense layers through a direct dependence on ||x|| (abstract)",
                  criterion=greater_than(0.0), measured=100 * (acc_fit[m_budget] - acc_nonorm), tol=TRAINED,
                  why="shares the fitted layer's accuracy with transfer-accuracy (one measurement is counted once); an "
                  "observation on the page, not a claim fixed before the run; see norm-vs-constant for its control")
claims.illustrate("norm-vs-constant", statement=f"Digits MLP, m={m_budget}: accuracy of the ridge-fitted EUGen with "
                  "||x|| − with a constant (the mean training norm) in its slot, in points",
                  paper="EUGens go beyond dense layers through a direct dependence on ||x|| (abstract)",
                  criterion=greater_than(0.0), measured=100 * (acc_fit[m_budget] - acc_const), tol=TRAINED,
                  why="the review's control for norm-coordinate-helps-fit, added after the review; shares the fitted "
                  "layer's accuracy with transfer-accuracy")
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
claims.headline("unbiased-polynomial", "For any polynomial activation, the EUGen output is an unbiased estimate of "
                "the dense layer's output, the first such estimator, and its error concentrates as m grows",
                untestable="we have no text of the paper's layer; our reconstruction is the random-Maclaurin "
                "estimator of prior work, unbiased by derivation, so the Monte Carlo checks (unbiased-4se, "
                "rate-slope) are illustrations; 'the first' is a claim about the literature")
claims.headline("faster-smaller", "EUGens cut inference cost from quadratic to linear in the width, making whole "
                "Transformers, MLPs and NeRFs up to 27 % faster and 30 % smaller in memory",
                untestable="whole-model GPU timings and memory cannot be run here; a single layer's op and byte ratios "
                "follow from its definition (work-ratio-widest, peak-memory-ratio-widest, illustrations)")
claims.headline("layerwise-transfer", "An EUGen can be fitted to a pretrained layer layer-wise without backpropagation "
                "and stays near the original accuracy at a reduced budget (and, per a secondary AI-written summary, "
                "not the paper's text, above a low-rank layer of the same budget)",
                tests=["transfer-accuracy"])
for k, v in {"max_z": max_abs_z, "max_z_tied": max_abs_z_tied, "slope_nn": slope[False, True],
             "slope_n": slope[True, True], "slope_tied_nn": slope[False, False], "slope_tied_n": slope[True, False],
             "ops_pct": 100 * ratio["flops"][i_max], "mem_pct": 100 * ratio["mem"][i_max],
             "ops_ratio_narrow": ratio["flops"][0], "mem_ratio_narrow": ratio["mem"][0],
             "fslope_e": flop_slope_e, "fslope_d": flop_slope_d,
             "formula_gap_pct": 100 * float(np.max(np.abs(ratio["flops"] / formula - 1))),
             "acc_teacher": 100 * acc_teacher, "acc_fit": 100 * acc_fit[m_budget], "acc_nonorm": 100 * acc_nonorm,
             "acc_unb": 100 * acc_unb, "acc_lr": 100 * acc_lr[r_budget], "acc_cs": 100 * acc_cs,
             "acc_pca": 100 * acc_pca, "acc_prune": 100 * acc_prune, "acc_const": 100 * acc_const,
             "acc_k1": 100 * acc_k1, "acc_par": 100 * acc_par,
             "lost_pca": 100 * (acc_teacher - acc_pca), "lost_prune": 100 * (acc_teacher - acc_prune),
             "lost_k1": 100 * (acc_teacher - acc_k1), "lost_par": 100 * (acc_teacher - acc_par),
             "energy_r": energy_r, "gap_const": 100 * (acc_fit[m_budget] - acc_const),
             "gain_norm": 100 * (acc_fit[m_budget] - acc_nonorm), "gain_const": 100 * (acc_const - acc_nonorm), "km_breakeven": km_breakeven, "norm_bar": norm_bar,
             "lost_fit": 100 * (acc_teacher - acc_fit[m_budget]), "lost_unb": 100 * (acc_teacher - acc_unb),
             "lost_lr": 100 * (acc_teacher - acc_lr[r_budget]), "lost_cs": 100 * (acc_teacher - acc_cs),
             "gap_lr": 100 * (acc_fit[m_budget] - acc_lr[r_budget]),
             "gap_lr_nonorm": 100 * (acc_nonorm - acc_lr[r_budget]),
             "mem_digits_e": K.peak_bytes_eugen(n_te, d_in, L_h, m_budget, DEG) / 1024,
             "mem_digits_d": K.peak_bytes_dense(n_te, d_in, L_h) / 1024}.items():
    glue(k, float(v), display=False)
for k, v in {"m_budget": m_budget, "r_budget": r_budget, "c_budget": c_budget, "n_keep": n_keep, "m_par": m_par,
             "m_k1": DEG * m_budget, "draws": P.draws, "L_out": P.L,
             "width_max": P.widths[-1], "width_min": P.widths[0], "m_speed": P.m_speed}.items():
    glue(k, int(v), display=False)
m_within2 = [m for m in P.m_curve if 100 * (acc_teacher - acc_fit[m]) <= 2.0]
glue("m_within2", int(m_within2[0]) if m_within2 else "none of the m run", display=False)
glue("flops_within2", float(K.flops_eugen(d_in, L_h, m_within2[0], DEG) / f_dense) if m_within2 else float("nan"),
     display=False)

# %% [markdown]
# The wall-clock measurements of this run. They vary from run to run and machine to machine, so they are shown
# but not counted. `work-vs-wall-widest` divides the counted ratio by the clock ratio at the widest layer; the
# two should agree within a factor of 2. The table shows this run's value. The page runs on a loaded, shared
# machine, and there the clock ratio at the widest width has come out several times lower than the counted
# ratio in some runs, because the dense pass slowed while the EUGen pass did not; a count of arithmetic cannot
# see that. Our guess at the cause is memory bandwidth (the dense pass streams a weight matrix about four times
# larger than the EUGen pass reads); we did not measure it. We have no recorded run on a quiet machine.

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
# ```{repro-verdict}
# ```
#
# The page has one counted test, and the paper's method fails it. Everything else is an illustration of our
# own reconstruction of the estimator, or of the cost that follows from the layer's definition. Values below
# are at seed 0; counts of seeds are over the ci sweep.
#
# **Counted: transfer into a trained layer at the brief's flop budget** ({repro-status}`transfer-accuracy`). The
# digits teacher reaches {glue:text}`acc_teacher:.1f` % test accuracy. At that budget, six tenths of the dense
# layer's flops, the EUGen gets $m =$ {glue:text}`m_budget` features per order, and after ridge transfer it
# loses {glue:text}`lost_fit:.1f` points (criterion: at most 2). The method passes at
# {repro-seeds}`transfer-accuracy:method:pass` seeds. Its ablation, the unbiased EUGen copy of the same layer
# without transfer, reaches {glue:text}`acc_unb:.1f` % and loses {glue:text}`lost_unb:.1f` points (passes at
# {repro-seeds}`transfer-accuracy:ablation:pass` seeds): the transfer recovers most of that loss, from
# {glue:text}`acc_unb:.1f` % to {glue:text}`acc_fit:.1f` %, but not enough to meet the criterion. The naive
# baselines fit nothing by ridge. The truncated-SVD layer of rank {glue:text}`r_budget`, at the same flops, loses
# {glue:text}`lost_lr:.1f` points (passes at {repro-seeds}`transfer-accuracy:baseline1:pass` seeds); a sketch
# keeping {glue:text}`c_budget` sampled, rescaled input columns loses {glue:text}`lost_cs:.1f` points (passes at
# {repro-seeds}`transfer-accuracy:baseline2:pass`); input PCA of rank {glue:text}`r_budget` loses
# {glue:text}`lost_pca:.1f` points (passes at {repro-seeds}`transfer-accuracy:baseline3:pass`); keeping
# {glue:text}`n_keep` of the 256 hidden units loses {glue:text}`lost_prune:.1f` points (passes at
# {repro-seeds}`transfer-accuracy:baseline4:pass`). So at this budget three plain reductions of the layer do what
# the paper asks of EUGens, and the EUGen does not. The secondary, AI-written summary of the paper says EUGens beat
# low-rank at equal budget on ViT-Base; here that is the test's SVD baseline read the other way round: the fitted
# EUGen ends {glue:text}`gap_lr:.1f` points from the SVD layer (without $\|x\|$: {glue:text}`gap_lr_nonorm:.1f`).
#
# **What the page measures about the failure.** An EUGen is cheaper than the dense layer only if
# $Km \lesssim dL/(D + L)$, which for this $64 \to 256$ layer is {glue:text}`km_breakeven:.0f`; at six tenths of the flops
# the EUGen has $Km =$ {glue:text}`m_k1` features. The teacher's weights are close to low rank: the top
# {glue:text}`r_budget` singular values hold {glue:text}`energy_r:.3f` of $\|W_1\|_F^2$, consistent with the SVD layer
# losing almost nothing. At this seed, order-1 random features alone ($K = 1$, the same {glue:text}`m_k1`
# features, ridge transfer) lose {glue:text}`lost_k1:.1f` points against {glue:text}`lost_fit:.1f` for the
# order-2 EUGen, so the Hadamard products appear to be part of the cost (shown, not counted). The accuracy curve shows the EUGen needs
# $m =$ {glue:text}`m_within2` ({glue:text}`flops_within2:.1f` × the dense flops) to come within 2 points. At
# the paper's budget unit, about seven tenths of the parameters ($m =$ {glue:text}`m_par`), the fitted EUGen loses
# {glue:text}`lost_par:.1f` points (shown, not counted). The page did not vary the ridge or the draw of $G$, so it
# does not show that the failure is independent of those choices. The narrow layer is the brief's choice. The
# independent review tried, outside the page's design, a wider hidden layer of a deeper digits MLP at the same
# budget, and reports that the EUGen came within the criterion there while the low-rank layer still matched it;
# we did not run that, so it is an untested possibility here. According to the secondary summary, the paper's
# budgets are set on layers hundreds to thousands wide.
#
# **Illustrated, not counted: unbiasedness and the Monte Carlo rate.** For $f(u) = u + u^2/2$ the mean of
# {glue:text}`draws` independent EUGen estimates lies within {glue:text}`max_z:.1f` standard errors of the exact
# output on all {glue:text}`L_out` outputs; the RMS error falls with slope {glue:text}`slope_nn:.2f` against $m$
# ({glue:text}`slope_n:.2f` with the norm coordinate). These are properties of the random-Maclaurin estimator of
# prior work, which is our reconstruction of the paper's layer; they check our code against our own
# derivation. The tied-projection estimator ({glue:text}`max_z_tied:.0f` standard errors; slopes
# {glue:text}`slope_tied_nn:.2f` and {glue:text}`slope_tied_n:.2f`) shows only that the check is sensitive.
#
# **Illustrated, not counted: work and memory of a wide layer.** At width {glue:text}`width_max`
# ($m =$ {glue:text}`m_speed`, $K = 2$, batch 32) a forward pass of the EUGen performs {glue:text}`ops_pct:.0f` %
# of the dense pass's arithmetic and needs {glue:text}`mem_pct:.0f` % of its peak bytes; at width
# {glue:text}`width_min` the ratios are {glue:text}`ops_ratio_narrow:.1f` and {glue:text}`mem_ratio_narrow:.1f`.
# The counted operations grow with slope {glue:text}`fslope_e:.2f` in the width against
# {glue:text}`fslope_d:.2f` for the dense layer and match the closed-form counts within
# {glue:text}`formula_gap_pct:.2f` %. All of this follows from the layer's definition at sizes we chose. The
# paper's 27 % and 30 % are whole-model savings of Transformers, MLPs and NeRFs on its hardware, a different
# quantity; the table "The paper's numbers beside ours" sets them side by side with their settings.
#
# **An observation beyond the claims.** Appending $\|x\|$ helps the *fitted* layer at this seed:
# {glue:text}`acc_fit:.1f` % against {glue:text}`acc_nonorm:.1f` % without it, at the same $m$ (a gain of
# {glue:text}`gain_norm:.1f` points; above its tolerance at {repro-seeds}`norm-coordinate-helps-fit:method:pass`
# seeds). The control gains nearly as much: a constant, the mean training norm ({glue:text}`norm_bar:.1f`), in the
# slot of $\|x\|$ gives {glue:text}`acc_const:.1f` % (a gain of {glue:text}`gain_const:.1f` points), and
# $\|x\|$ ends {glue:text}`gap_const:.1f` points above the constant, inside the accuracies' tolerance; it beats
# the constant by more than that at {repro-seeds}`norm-vs-constant:method:pass` seeds. So the page cannot tell the
# gain from that of an extra, nearly constant coordinate, which adds linear terms to the order-2 features; it is
# no evidence for a dependence on the norm. Neither number is counted: both were not fixed before the run and
# both share the fitted layer with the test. The *unbiased* copy of the teacher's layer
# reaches only {glue:text}`acc_unb:.1f` %: unbiased is not accurate. Its per-feature variance, about
# $\|w\|^2\|x\|^2$, is large compared with $(w^\top x)^2$ on real data.
#
# ## What a skeptic would try
#
# Reviewed by an independent skeptic (a helper that did not write the page, with the rubric, the page, its record
# and its own scripts on the ci preset, seeds 0-9 only); what they tried is above. They ran naive reductions of the
# layer at the same flop budget, optimistic variants of the method, and a control for the norm coordinate. The
# ones that fit the page's runtime are now measured by this notebook (seed 0; counts over the ci sweep):
#
# - *A plain low-rank layer at the same flops.* The truncated SVD of the teacher's weights, rank
#   {glue:text}`r_budget`, keeps {glue:text}`acc_lr:.1f` % accuracy ({glue:text}`lost_lr:.1f` points lost),
#   against {glue:text}`acc_fit:.1f` % for the fitted EUGen. It needs no calibration data and no fit.
# - *Input PCA at the same flops* (from the review). Projecting the input on its top {glue:text}`r_budget`
#   principal directions before the teacher layer keeps {glue:text}`acc_pca:.1f` % ({glue:text}`lost_pca:.1f`
#   points lost; passes at {repro-seeds}`transfer-accuracy:baseline3:pass` seeds).
# - *Hidden-unit pruning at the same flops* (from the review). Keeping {glue:text}`n_keep` units keeps
#   {glue:text}`acc_prune:.1f` % ({glue:text}`lost_prune:.1f` points lost; passes at
#   {repro-seeds}`transfer-accuracy:baseline4:pass` seeds).
# - *Random column sampling at the same flops.* {glue:text}`c_budget` input columns drawn in proportion to
#   their squared norms and rescaled, an unbiased sketch of $Wx$ like the EUGen, keeps {glue:text}`acc_cs:.1f` %.
#   It does worse than the fitted EUGen and better than the unbiased EUGen copy ({glue:text}`acc_unb:.1f` %).
# - *The method without its transfer.* The unbiased EUGen copy, above.
# - *Variants of the method* (shown, not counted): order-1 features only, {glue:text}`lost_k1:.1f` points lost;
#   the paper's parameter budget ($m =$ {glue:text}`m_par`), {glue:text}`lost_par:.1f` points lost. The review
#   also picked the ridge strength and the draw of $G$ on the test set, an optimistic choice, and reports that the
#   method still failed; the page does not run those grids.
# - *A constant in place of $\|x\|$*, the control for the norm observation: {glue:text}`acc_const:.1f` % against
#   {glue:text}`acc_fit:.1f` % with $\|x\|$.
# - *A smaller dense layer with the same parameter count.* Not run: it changes the hidden width, so the output
#   layer would have to be retrained, which is more than a layer-wise replacement.
# - *Unbiasedness and the $m^{-1/2}$ rate* were not given naive comparators: they are illustrations of our own
#   estimator, not tests.
#
# ## What the miniature cannot show
#
# Transformers, NeRFs and ImageNet-scale layers, where the same fraction of the flops buys hundreds of features and the
# comparison with low rank may come out the other way; GPU kernels, where the extra elementwise products and
# memory traffic of EUGens cost differently; activations other than polynomials (Theorem 3.4); orthogonal random
# features; fine-tuning after transfer; the paper's exact layer, whose formula we did not have. Peak memory on the
# digits batch is *higher* for the EUGen ({glue:text}`mem_digits_e:.0f` KiB against {glue:text}`mem_digits_d:.0f`
# KiB, counted by formula): with a test batch of hundreds of inputs and a small layer, the intermediate
# activations outweigh the saved weights. The wide-layer saving is for a batch of 32.
#
# **What was hard.** The exact EUGen formula was not available to us, so the estimator is our reconstruction,
# checked against the properties the paper states. Choosing the transfer budget before the run, from the brief,
# is what exposed the narrow-layer failure.
