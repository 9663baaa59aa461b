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
# # CUPID: training an MRI reconstruction network from exported images, without raw k-space
#
# *A physics-driven reconstruction network can be trained from the scanner's own parallel-imaging images alone:
# a compressibility loss asks for a sparser image, and perturbations check that the network still behaves like a
# parallel-imaging inversion. The paper reports quality close to k-space-supervised training and better than
# compressed sensing.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
import torch

from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, tolerance
from repro.papers import cupid_mri as K
from repro.runtime import progress, setup_notebook

PRESETS = {
    "ci": dict(n=32, n_train=16, acs=4, steps=100, sup_steps=100, sup_batch=2, perts_per_step=2, features=8,
               n_res=1, n_unroll=3, lr=3e-3, cs_iters=100),
    "full": dict(n=48, n_train=32, acs=6, steps=300, sup_steps=400, sup_batch=4, perts_per_step=6, features=12,
                 n_res=2, n_unroll=4, lr=3e-3, cs_iters=300),
}
P = setup_notebook(scale, seed, presets=PRESETS)
# acquisition and loss settings shared by both scales (official values where the official code has one)
N_COILS, COIL_WIDTH, R, SIGMA, PI_ITERS = 8, 0.45, 4, 0.01, 10
K_PERT, M_PERT, LAM, EPS, LEVEL = 6, 5e-2, 200.0, 1e-4, 3
LAM_SMALL = 20.0  # exploratory arm, added after the first run (see the claims)
CS_GRID = (5e-4, 1e-3, 2e-3, 4e-3)
plt.rcParams["savefig.dpi"] = 90
claims = Claims("cupid-mri", title="Fast MRI for All: Bridging Access Gaps by Training without Raw Data",
                authors="Yaşar Utku Alçalar, Merve Gülle, Mehmet Akçakaya",
                paper_url="https://arxiv.org/abs/2411.13022", scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# Physics-driven deep-learning (PD-DL) reconstruction unrolls an iterative solver: a small CNN alternates with a
# data-consistency step that uses the coil sensitivities and the sampling mask. Training it normally needs raw
# multi-coil k-space, either fully sampled (supervised) or undersampled (self-supervised, e.g. SSDU). Most sites
# cannot export raw k-space. They can export the scanner's reconstructed images, which come from a
# parallel-imaging (PI) method such as SENSE or GRAPPA. CUPID trains the PD-DL network from these images only,
# together with the coil maps and the mask. The paper claims that
#
# 1. CUPID's images are much better than the clinical PI images it was trained from;
# 2. their quality is close to that of the same network trained with k-space supervision;
# 3. they beat compressed sensing (CS), and diffusion-based methods, also when trained zero-shot on one scan.
#
# **Numbers.** Our brief did not retrieve any PSNR or SSIM value from the paper, so every check below is relative.
# The brief fixes two thresholds: a gain of at least 1 dB over the clinical image, and at most 2 dB below
# supervised training. The other two bars are this page's own, set when its tests were written: CUPID at least
# level with CS (≥ 0 dB), and a k-space residual of at most twice the noise level (the discrepancy principle).
# The brief's third check was relative (without PIF, a larger residual and a lower PSNR than full CUPID); it is
# not run as a test here.
#
# ## The method
#
# With coil maps $C$, Cartesian mask $\Omega$ and centred orthonormal DFT $F$, the encoding operator is
# $E = \Omega F C$. The clinical image $x_{PI}$ is all CUPID sees. The network input is
# $z = E^H E\,x_{PI}$, the zero-filled image that $x_{PI}$'s own k-space would give. The network $f$ unrolls
# $x \leftarrow (E^H E + \mu I)^{-1}(z + \mu\,R_\theta(x))$ with a ResNet $R_\theta$ and a learnable $\mu$.
# Its loss has two parts.
#
# *Parallel-imaging fidelity (PIF).* Add the k-space of a known perturbation $p_k$ to the input. A network that
# inverts the acquisition the way PI does must return the same perturbation in its output:
#
# $$L_{PIF} = \frac1K\sum_{k=1}^{K}\frac{\big\|\,f(z + E^H E p_k) - f(z) - p_k\,\big\|_2}{\|p_k\|_2}.$$
#
# The $p_k$ are letter-shaped patches of constant complex value, with magnitude $5\cdot10^{-2}$ and six phases
# (K = 6). This term stops the network from drifting away from the data, and from hallucinating, without any
# raw k-space.
#
# *Compressibility.* A reweighted $\ell_1$ norm of the output's wavelet coefficients, with weights from a
# compressed-sensing image $x_m$ computed from the same clinical data:
#
# $$L_{comp} = \frac{1}{HW}\sum_i \frac{|(W f(z))_i|}{|(W x_m)_i| + \epsilon},\qquad \epsilon = 10^{-4}.$$
#
# The total loss is $\lambda L_{PIF} + L_{comp}$, with $\lambda = 200$ (official value). In the zero-shot
# setting (the official script) the network is trained on the single scan it reconstructs.
#
# ## The experiment
#
# **Data.** Images are complex: a magnitude times a smooth random phase. The test image is scikit-image's bundled
# Shepp–Logan phantom, resized to `n` × `n` (ci 32, full 48). The training set for the supervised reference is
# `n_train` random Shepp–Logan-like ellipse phantoms (ci 16, full 32). Eight synthetic coils (Gaussian bumps
# around the field of view, linear phases, SENSE-normalised so that $\sum_c|c|^2=1$). The mask is the official
# equidistant pattern: every 4th phase-encode line plus `acs` centre lines (ci 4, full 6). Complex Gaussian noise
# of standard deviation 0.01 per k-space sample, then the official normalisation: the fully sampled k-space is
# divided by its largest magnitude.
#
# **The clinical image** $x_{PI}$: CG-SENSE without regularisation, stopped after 10 iterations, as a scanner
# would export it. (The official code runs 30 iterations on a 320 × 368 slice.) Only its pixels go to CUPID.
#
# **Methods compared** on the test image:
#
# - *zero-filled* $E^H y$ and the *clinical PI* image $x_{PI}$;
# - *CS*: FISTA on $\tfrac12\|Ex-y\|^2 + \lambda_{CS}\|W_{detail}x\|_1$ with a 3-level orthonormal Haar
#   transform, on the raw k-space. $\lambda_{CS}$ is chosen from a grid by the mean PSNR on the training phantoms,
#   against their ground truth: CS gets the best weight it could have;
# - *supervised PD-DL*: the same unrolled network trained on the training phantoms, with a normalised
#   $\ell_1$–$\ell_2$ loss against their fully sampled noisy k-space. This is the k-space-hungry upper reference;
# - *CUPID* zero-shot on the test image's $x_{PI}$, with $x_m$ = the CS recon of $E x_{PI}$ (same $\lambda_{CS}$);
# - *compressibility only* ($\lambda = 0$): CUPID without its PIF term. This is the **ablation** of every test.
# - *$x_m$ alone*: the CS image of the clinical image's own k-space $E x_{PI}$, which CUPID uses as its
#   compressibility reference. It needs no network and no idea from the paper, and sees only what CUPID sees:
#   the **naive baseline** a skeptic tries first. The consistency check (an illustration) also shows the no-op
#   that returns $x_{PI}$ unchanged.
# - *Image-domain baselines* (added after the independent review): total-variation denoising of $x_{PI}$ (a second
#   naive baseline of the tests against $x_{PI}$), Gaussian smoothing of $x_{PI}$, Tikhonov-regularised SENSE and
#   early-stopped CG on $E x_{PI}$. Like $x_m$ they see only what CUPID sees, and each has one knob, chosen from a
#   small grid by the mean PSNR on the training phantoms, as the CS weight is.
# - *CUPID with λ = 20*: an arm added after the first runs, flagged post hoc. At the official λ = 200 the
#   PIF term won outright, and CUPID returned the clinical image (see the verdict). λ = 20 is the only other
#   value we tried.
# - *The official configuration* (a comparator setting, added in the re-grading): the same three CUPID arms
#   trained with the official compressibility loss (DTCWT, near_sym_b / qshift_b, 4 levels, every band divided by
#   its own size), with $x_m$ from the official CS module (10 × [CG(μ = 0.1, 10 steps), soft thresholding of a
#   4-level periodized bior1.5 DWT at 1% of the largest coefficient of $x_{PI}$]), and with the letters placed as
#   the official code places them (one per quarter of the rows, staggered diagonally). Every test is recorded in
#   both settings; the official ones are flagged post hoc.
#
# Network (both scales use the official layout: bias-free convs, N(0, 0.05) initialisation, residual blocks
# that apply one conv twice, one ResNet and one $\mu$ shared by all unrolls, $\mu_0 = 0.05$): ci 3 unrolls,
# 8 features, 1 residual block; full 4 unrolls, 12 features, 2 blocks. Adam at learning rate 3e-3: ci 100 steps
# for every network; full 300 steps for CUPID (as the official 300 epochs on one slice) and 400 steps of batch 4
# for the supervised network (ci: batch 2). At ci each
# CUPID step draws 2 of the 6 perturbations; at full scale it uses all 6, as the official code does.
#
# **Deviations from the paper**
#
# - **Data.** Simulated phantoms with synthetic coils and noise, instead of fastMRI knee and brain scans with
#   ESPIRiT maps. The "clinical" image is our CG-SENSE, not a vendor reconstruction. PSNR is measured against the
#   noiseless ground truth, not against the reference reconstructed from noisy fully sampled k-space.
# - **Scale.** 32 × 32 (ci) or 48 × 48 (full) images, instead of 320 × 368; 8 coils instead of 15. The network
#   is tiny: 3–4 unrolls, 8–12 features, 1–2 residual blocks ({glue:text}`n_par_ci:,.0f` or
#   {glue:text}`n_par_full:,.0f` parameters), instead of 10 unrolls of a 15-block, 64-channel ResNet
#   ({glue:text}`n_par_paper:,.0f` parameters in the ResNet). 100–400 optimiser steps.
# - **Data consistency** is solved exactly. The mask is constant along the readout axis, so $E^H E$ splits into
#   one small Hermitian matrix per image row. Its eigendecomposition gives $(E^HE+\mu I)^{-1}$ for any $\mu$ with two
#   matrix products. The official code runs 15 CG steps, which approach the same solution; the golden test checks
#   both.
# - **Learning rate** 3e-3 at both scales (official 5e-4): a tiny network and far fewer steps.
# - **Perturbations.** Our own 5 × 7 block glyphs of the official letters (A, R, O, N, P, B), tiled 2 × 2 to
#   fill the image, instead of Arial letters drawn with PIL. Same intensities (golden test). At ci, 2 of the 6
#   perturbations per step, drawn at random (an unbiased estimate of $L_{PIF}$).
# - **Wavelet (page setting).** Orthonormal Haar (3 levels), instead of the dual-tree complex wavelet (4 levels)
#   of the official configuration, and $x_m$ from our FISTA-Haar CS instead of the official CS module (which
#   thresholds a bior1.5 DWT). Only one reweighting (official default). The official loss, CS and letters are run
#   as the second configuration, through our torch translation of pytorch_wavelets' DTCWT and DWT, checked against
#   pytorch_wavelets 1.3.0 (golden file) so that the project needs no new dependency.
# - **Perturbation size.** Our tiled letters cover {glue:text}`pert_frac:.0%` of the pixels (official layout:
#   {glue:text}`pert_frac_off:.1%`). The perturbation magnitude is {glue:text}`pert_ratio:.2f` of the largest
#   magnitude of the test image's $x_{PI}$. On a 320 × 368 fastMRI slice, with the official k-space
#   normalisation, that ratio differs. We did not measure it there, and we did not run it.
# - **SSIM** uses `skimage`'s default `data_range` from the ground truth; the official `cal_SSIM` sets its own.
#   No test uses SSIM.
# - **CS baseline.** FISTA with Haar and a weight tuned on ground truth, instead of the paper's CS setting.
# - **Supervised reference.** Trained on a database of other phantoms (it needs ground truth), while CUPID is
#   zero-shot on the test scan. The paper also compares database-trained CUPID, SSDU-style self-supervision and
#   diffusion models. We run none of these.
# - **Coil support.** Our maps are nonzero everywhere, so the support mask of the official losses is the whole image.
# - **μ is clamped at 1e-4** inside the network. The official parameter is unconstrained. In our runs at
#   λ = 200, Adam pushed it below zero, where the data-consistency system is no longer positive definite. We
#   added the clamp after the first runs.
# - **λ = 20 arm** (post hoc): the official λ = 200 balances the official loss scales (DTCWT coefficients
#   of a 320 × 368 slice). Ours are different, and the page reports both values.

# %%
n = P.n
mag = np.concatenate([K.random_ellipse_phantoms(P.n_train, n, P.rng), K.shepp_logan(n)[None]])
x_true = torch.tensor(mag * np.exp(1j * K.smooth_phase(len(mag), n, P.rng)), dtype=torch.complex64)
maps = K.make_coil_maps((n, n), N_COILS, seed=P.seed, width=COIL_WIDTH)
mask = K.cartesian_mask((n, n), R, P.acs)
full = torch.ones_like(mask)
op = K.RowNormalOperator(maps, mask)
support = torch.ones(n, n, dtype=torch.bool)
g = torch.Generator().manual_seed(P.seed)
noise = SIGMA / np.sqrt(2) * torch.complex(torch.randn(len(mag), N_COILS, n, n, generator=g),
                                           torch.randn(len(mag), N_COILS, n, n, generator=g))
y_full = K.E_forward(x_true, maps, full) + noise
kmax = y_full.abs().amax(dim=(1, 2, 3), keepdim=True)  # official normalisation: max |k| = 1
y_full, x_true, noise = y_full / kmax, x_true / kmax[:, 0], noise / kmax
y = y_full * mask
x_pi = K.cg_sense(y, maps, mask, 0.0, PI_ITERS)  # the exported clinical images
noise_level = float(torch.linalg.vector_norm(noise[-1] * mask) / torch.linalg.vector_norm(y[-1]))
print(f"{int(mask[0].sum())} of {n} phase-encode lines (R = {R} plus {P.acs} ACS); "
      f"relative noise in the test k-space {noise_level:.3f}")

# CS weight by mean PSNR over the training phantoms (ground truth: CS gets its best weight)
cs_train = {lam: np.mean([K.psnr(x_true[i].numpy(), xr.numpy()) for i, xr in
                          enumerate(K.fista_cs(y[:8], maps, mask, lam, P.cs_iters))]) for lam in CS_GRID}
LAM_CS = max(cs_train, key=cs_train.get)
x_cs = K.fista_cs(y[-1:], maps, mask, LAM_CS, P.cs_iters)
x_m = K.fista_cs(K.E_forward(x_pi[-1:], maps, mask), maps, mask, LAM_CS, P.cs_iters)  # CUPID's x_m, from x_PI only
# the official configuration's x_m: its CS module (10 x [CG(0.1, 10 steps), soft threshold of a 4-level bior1.5 DWT])
x_m_off = K.official_cs(K.EhE(x_pi[-1:], maps, mask), x_pi[-1:], maps, mask)
print("CS weight chosen on the training phantoms:", LAM_CS,
      {k: round(float(v), 2) for k, v in cs_train.items()})

# naive image-domain baselines (added after the independent review): each sees only x_PI, the maps and the mask,
# and its one knob is chosen as the CS weight is, by mean PSNR on the first 8 training phantoms (never the test image)
NAIVE = {"TV of x_PI": (K.tv_denoise, (0.001, 0.003, 0.01, 0.03)),
         "smoothed x_PI": (K.gaussian_smooth, (0.3, 0.5, 0.7, 1.0)),
         "Tikhonov SENSE of E x_PI": (lambda u, a: K.tikhonov_sense(u, op, a), (0.003, 0.01, 0.03, 0.1, 0.3)),
         "early-stopped CG of E x_PI": (lambda u, k: K.early_stopped_cg(u, maps, mask, k), (2, 3, 4, 6))}
knob, x_naive = {}, {}
for nm, (fn, grid) in NAIVE.items():
    knob[nm], _ = K.tune_on_training(fn, grid, x_pi[:8], x_true[:8])
    x_naive[nm] = fn(x_pi[-1:], knob[nm])
print("knobs chosen on the training phantoms:", knob)

# %% [markdown]
# Three networks, same architecture and initialisation seed: supervised on the training phantoms' k-space,
# CUPID zero-shot on the test image's $x_{PI}$, and CUPID without PIF ($\lambda=0$).

# %%
SPEC = dict(n_iters=P.n_unroll, features=P.features, n_res_blocks=P.n_res)
perts = K.make_perturbations((n, n), K_PERT, M_PERT)
perts_off = K.make_perturbations((n, n), K_PERT, M_PERT, layout="official")  # official letter layout


def bar(desc):
    return lambda it: progress(it, total=len(it), desc=desc)


torch.manual_seed(P.seed)
net_sup = K.UnrolledNet(**SPEC)
h_sup = K.train_supervised(net_sup, y[:-1], y_full[:-1], op, P.sup_steps, P.lr, P.sup_batch, seed=P.seed,
                           progress_fn=bar("supervised"))
nets, hists = {}, {}
ARMS = (("CUPID", LAM), ("CUPID, λ = 20", LAM_SMALL), ("compressibility only", 0.0))
# page setting: Haar loss (3 levels), x_m from FISTA-Haar, tiled letters; official setting (comparator
# configuration): the official DTCWT loss (4 levels), x_m from the official CS module, the official letter layout
SETTINGS = {"": dict(x_m=x_m, perts=perts, wavelet="haar", level=LEVEL),
            " (official)": dict(x_m=x_m_off, perts=perts_off, wavelet="dtcwt", level=4)}
for suffix, cfg in SETTINGS.items():
    for name, lam in ARMS:
        torch.manual_seed(P.seed)
        nets[name + suffix] = K.UnrolledNet(**SPEC)
        hists[name + suffix] = K.train_cupid(
            nets[name + suffix], x_pi[-1:], cfg["x_m"], cfg["perts"], op, support, lam, P.steps, P.lr, batch=1,
            perts_per_step=P.perts_per_step if lam else None, eps=EPS, level=cfg["level"], seed=P.seed,
            progress_fn=bar(name + suffix), wavelet=cfg["wavelet"])

z_test = op.apply(x_pi[-1:])
with torch.no_grad():
    recon = {"zero-filled": K.E_adjoint(y[-1:], maps, mask), "clinical PI": x_pi[-1:], "CS": x_cs,
             "x_m (CS of E x_PI)": x_m, "x_m (official CS)": x_m_off, **x_naive,
             "supervised PD-DL": net_sup(K.E_adjoint(y[-1:], maps, mask), op),
             **{nm: net(z_test, op) for nm, net in nets.items()}}
truth = x_true[-1].numpy()
psnr = {k: K.psnr(truth, v[0].numpy()) for k, v in recon.items()}
ssim = {k: K.ssim(truth, v[0].numpy()) for k, v in recon.items()}
resid = {k: float(K.relative_residual(v, x_pi[-1:], maps, mask)[0]) for k, v in recon.items()}
print(f"{'method':<34}{'PSNR (dB)':>10}{'SSIM':>8}{'|E(x - x_PI)|/|E x_PI|':>25}")
for k in recon:
    print(f"{k:<34}{psnr[k]:>10.2f}{ssim[k]:>8.3f}{resid[k]:>25.4f}")
print("learned mu (used clamped at 1e-4):", {nm: round(float(m.mu.detach()), 4)
                                             for nm, m in {"supervised PD-DL": net_sup, **nets}.items()})

# %% [markdown]
# ## Results
#
# ### Reconstructions
#
# Magnitude images of the test phantom (top) and the error magnitude against the ground truth (bottom, five
# times brighter), all on the scale of the ground truth. PSNR in dB in each title.

# %%
show = ["clinical PI", "CS", "supervised PD-DL", "CUPID", "CUPID, λ = 20", "compressibility only"]
vmax = float(np.abs(truth).max())
fig, axes = plt.subplots(2, len(show) + 1, figsize=(2.1 * (len(show) + 1), 4.6))
axes[0, 0].imshow(np.abs(truth), cmap="gray", vmin=0, vmax=vmax)
axes[0, 0].set_title("ground truth", fontsize=8)
axes[1, 0].imshow(mask.numpy(), cmap="gray")
axes[1, 0].set_title("mask (ky →)", fontsize=8)
for j, k in enumerate(show, start=1):
    im = np.abs(recon[k][0].numpy())
    axes[0, j].imshow(im, cmap="gray", vmin=0, vmax=vmax)
    axes[0, j].set_title(f"{k}\n{psnr[k]:.1f} dB", fontsize=8)
    axes[1, j].imshow(np.abs(im - np.abs(truth)), cmap="magma", vmin=0, vmax=vmax / 5)
    axes[1, j].set_title("|error|", fontsize=8)
for ax in axes.ravel():
    ax.set_xticks([])
    ax.set_yticks([])
axes[0, 0].set_ylabel("magnitude (a.u.)")
axes[1, 0].set_ylabel("pixels")
plt.show()

# %% [markdown]
# ### What the perturbation term asks of the network
#
# One perturbation $p_k$ (its magnitude), its zero-filled image $E^HEp_k$ that is added to the network
# input, and the difference $f(z+E^HEp_k)-f(z)$ that each network returns. PIF asks that difference to be $p_k$
# itself. The relative error is printed in each title.

# %%
k_show = 1
pk = perts[k_show:k_show + 1]
with torch.no_grad():
    diff = {nm: (nets[nm](z_test + op.apply(pk), op) - nets[nm](z_test, op))[0] for nm, _ in ARMS}
fig, axes = plt.subplots(1, 5, figsize=(11, 2.6))
pm = float(pk.abs().max())
panels = [("$p_k$", pk[0]), ("$E^HE p_k$ (input)", op.apply(pk)[0])] + [
    (f"{nm}: {float(torch.linalg.vector_norm(d - pk[0]) / torch.linalg.vector_norm(pk[0])):.2f}", d)
    for nm, d in diff.items()]
for ax, (t, im) in zip(axes, panels):
    h = ax.imshow(np.abs(im.numpy()), cmap="gray", vmin=0, vmax=pm)
    ax.set_title(t, fontsize=8)
    ax.set_xticks([])
    ax.set_yticks([])
fig.colorbar(h, ax=axes, fraction=0.02, label="magnitude (normalised units)")
plt.show()

# %% [markdown]
# ### Training
#
# The two terms of the CUPID loss per step (PIF weighted by λ = 200), for CUPID and for the control without PIF,
# and the supervised loss.

# %%
fig, axes = plt.subplots(1, 2, figsize=(10, 3.4))
ax = axes[0]
ax.plot(LAM * np.array(hists["CUPID"]["pif"]), label="CUPID: λ·L_PIF")
ax.plot(hists["CUPID"]["comp"], label="CUPID: L_comp")
ax.plot(LAM_SMALL * np.array(hists["CUPID, λ = 20"]["pif"]), label="λ = 20: λ·L_PIF")
ax.plot(hists["CUPID, λ = 20"]["comp"], label="λ = 20: L_comp")
ax.plot(hists["compressibility only"]["comp"], label="λ = 0: L_comp")
ax.set_yscale("log")
ax.set_xlabel("optimiser step")
ax.set_ylabel("loss term (dimensionless)")
ax.legend(fontsize=7)
ax = axes[1]
ax.plot(h_sup["total"], color="C3")
ax.set_xlabel("optimiser step")
ax.set_ylabel("supervised loss (normalised ℓ1 + ℓ2)")
plt.show()

# %% [markdown]
# ### Side by side with the paper
#
# The brief found no PSNR or SSIM values from the paper, so the paper's column holds its qualitative ranking.
# Each line below gives: method | the paper (fastMRI knee and brain, R = 4; qualitative) | our PSNR (dB) |
# our SSIM, at this page's scale and seed.

# %%
paper_rank = {"zero-filled": "not reported", "clinical PI": "not retrieved", "CS": "not retrieved", "supervised PD-DL": "reference (needs fully sampled k-space)",
              "CUPID": "on par with k-space-trained PD-DL", "CUPID, λ = 20": "not run (official λ = 200)",
              "compressibility only": "ablation (not retrieved)"}
for k in recon:
    base = k.replace(" (official)", "")
    print(f"| {k} | {paper_rank.get(base, 'not reported')} | {psnr[k]:.2f} | {ssim[k]:.3f} |")

# %% [markdown]
# ## Against the official code
#
# The paper's code: [ualcalar17/CUPID](https://github.com/ualcalar17/CUPID) (commit `8aa5c2c`). We read
# `train.py`, `perturbations.py`, the MRI operators, the loader, the data-consistency layer, the ResNet, the
# unrolled network, the CS baseline and the sparsity loss. We then ran the parts that import with the project's
# Python outside the project, in float64 on one thread, on a seeded 8 × 12, 4-coil input
# (`tests/papers/golden/cupid-mri.json`). One stub was needed: `torchvision.transforms.ToTensor`, which the letter
# drawing uses. The `test_golden_*` unit tests compare our kernels with the stored outputs.
#
# **What agrees:**
#
# - `generate_mask` (equidistant, R = 4, 4 ACS lines) is our `cartesian_mask`, exactly.
# - `E`, `EH`, `EHE` are our `E_forward`, `E_adjoint`, `EhE` and the row-wise `RowNormalOperator.apply` (to 1e-12).
# - `cg_operator` and `Data_consistency` (μ = 0.05, 15 CG steps) match our `data_consistency` to 1e-10.
#   Our exact solve differs from their 15 steps by less than 2e-4: the CG is not fully converged.
# - `get_x_PI` (k-space divided by its maximum, unregularised CG, 30 steps) matches our `cg_sense` to 1e-9.
# - `UnrolledNet` with 2 unrolls of a 1-block, 8-channel ResNet and the official seeded weights loaded into ours:
#   the ResNet output to 1e-12, the network to 1e-10 with CG data consistency. With our exact solve, the network
#   differs by less than 1e-3.
# - The parameter count of the paper's ResNet (15 blocks, 64 channels): 592,128, ours the same.
# - `process_p_k`: the six complex intensities, one constant value per letter.
#
# **The wavelet code** (`wavelet_loss_function`, the CS module and the whole loss of `train.py`), run with
# pytorch_wavelets 1.3.0 in a scratch environment outside the project
# (`tests/papers/golden/cupid-mri-wavelets.py`, cases `wav_*` of the golden file), on seeded 32 × 32 inputs:
#
# - our `dtcwt2d` is `DTCWTForward(J, 'near_sym_b', 'qshift_b')` to 1e-15 (also on a 16 × 24 image, where the
#   transform pads); our `dwt2d` / `idwt2d` are `DWTForward` / `DWTInverse` with 'periodization' (bior1.5 and
#   Haar) to 1e-14, in the official 'dwt' layout;
# - `dtcwt_reweighted_l1` is the 'dctwt' branch of `wavelet_loss_function`, and `wavelet_reweighted_l1` its
#   'dwt' Haar branch, to 1e-10 relative; `official_cs` is the CS module to 1e-10;
# - the whole CUPID loss of `train.py` (λ = 200, two perturbations, $x_m$ from the CS module, the DTCWT loss, a
#   seeded official network) is our `cupid_loss(..., wavelet="dtcwt")` to 1e-9 relative.
#
# **Departures** (ours → official):
#
# 1. Exact row-wise data consistency → 15 CG steps. The official CG sums its inner products over the batch;
#    ours takes them per sample (the same for one slice).
# 2. Haar, 3 levels → the DTCWT, 4 levels (config `dctwt`), for the loss (run as the official configuration).
# 3. $x_m$ from FISTA-Haar with a weight tuned on phantoms → 10 unrolls of CG(μ = 0.1) and soft thresholding of
#    every coefficient of a 4-level periodized **bior1.5 DWT** (the CS module never passes `wavelet_type`, so it
#    takes its 'dwt' default) at 1% of the largest coefficient of $x_{PI}$ (run as the official configuration).
#    On our 32 × 32 image that CS is poor ({glue:text}`xm_gain-official:.1f` dB against $x_{PI}$): four levels of
#    a 10-tap filter leave 2 × 2 coarse bands.
# 4. Block glyphs tiled 2 × 2 → Arial letters at size 80, one per 80-row band, staggered diagonally, on a
#    320 × 368 slice (our `layout="official"` places block glyphs there; run as the official configuration).
# 5. `pif_loss` now masks only $p_k$ by the coil support, as `train.py`; the earlier version masked the whole
#    difference. Our support is the whole image, so no number changed.
# 6. 2 of 6 perturbations per step at ci → all 6 at every step (we use all 6 at full scale).
# 7. 3–4 unrolls, 8–12 features, 1–2 blocks; Adam 3e-3 for 100–400 steps → 10 unrolls, 64 features,
#    15 blocks, 5e-4 for 300 epochs.
# 8. $x_{PI}$: 10 CG steps on our simulated data → 30 steps on fastMRI k-space.

# %%
dB = tolerance(abs=1.0, why=f"PSNR difference (dB) involving networks trained for {P.steps} (CUPID) and "
                            f"{P.sup_steps} (supervised) Adam steps: a band declared with the tests, not a measured "
                            "cross-machine spread")
RATIO = tolerance(rel=0.3, why="k-space residual of a trained network over the noise level")
POST = ("arm and claim added after the first runs: at the official λ = 200 the PIF term drove μ to its floor and "
        "CUPID's output to x_PI itself; λ = 20 was the one other value tried")
OFFICIAL = ("official configuration: the official DTCWT compressibility loss (4 levels), x_m from the official CS "
            "module (bior1.5 DWT), the official letter layout")
WHY_OFFICIAL = ("comparator setting added in the re-grading (issue 32): the official loss, CS and letters, run as "
                "a second configuration; designed on seeds 0-9")
PIF = "the PIF term (λ = 0: compressibility only)"
with torch.random.fork_rng():  # parameter counts (both scales, and the paper's ResNet); no draw leaks out
    n_params = {f"n_par_{sc}": sum(p.numel() for p in K.UnrolledNet(pr["n_unroll"], pr["features"],
                                                                    n_res_blocks=pr["n_res"]).parameters())
                for sc, pr in PRESETS.items()}
    n_params["n_par_paper"] = sum(p.numel() for p in K.ResNetRegularizer(features=64, n_res_blocks=15).parameters())
G = {}
for suffix, extra in (("", {}), (" (official)", dict(setting=OFFICIAL))):
    tag = "-official" if suffix else ""
    where = " Official configuration." if suffix else ""
    m200, m20, m0 = "CUPID" + suffix, "CUPID, λ = 20" + suffix, "compressibility only" + suffix
    xm = "x_m (official CS)" if suffix else "x_m (CS of E x_PI)"
    XM = (f"{xm}: wavelet CS of the clinical image's own k-space E x_PI, no network (CUPID's compressibility "
          "reference; " + ("the official CS module)" if suffix else "FISTA-Haar, weight tuned on ground truth)"))
    TV = ("TV of x_PI: total-variation denoising of the clinical image (Chambolle), weight chosen on the training "
          "phantoms; no network (added after the independent review)")
    pre = dict(post_hoc=WHY_OFFICIAL, **extra) if suffix else {}
    post = dict(post_hoc=WHY_OFFICIAL if suffix else POST, **extra)
    for arm, kw, lam_txt, ids in ((m200, pre, "", ("cupid-beats-clinical-pi", "cupid-beats-cs")),
                                  (m20, post, " With λ = 20 instead of 200.",
                                   ("cupid-lambda20-beats-clinical-pi", "cupid-lambda20-beats-cs"))):
        claims.test(ids[0] + tag,
                    statement="Zero-shot CUPID, trained on the clinical PI image alone, improves on that image by at "
                              "least 1 dB PSNR on the Shepp-Logan test phantom (R = 4)." + lam_txt + where,
                    paper="CUPID images are much better than the PI images they are trained from (figures; no "
                          "number retrieved). Threshold from the brief.",
                    criterion=at_least(1.0), measured=round(psnr[arm] - psnr["clinical PI"], 2),
                    ablation=Comparator("the same network trained without the PIF term (λ = 0)",
                                        round(psnr[m0] - psnr["clinical PI"], 2), ingredient=PIF),
                    baselines=[Comparator(XM, round(psnr[xm] - psnr["clinical PI"], 2)),
                               Comparator(TV, round(psnr["TV of x_PI"] - psnr["clinical PI"], 2))], tol=dB, **kw)
        claims.test(ids[1] + tag,
                    statement="Zero-shot CUPID has a PSNR at least as high as wavelet compressed sensing on the raw "
                              "k-space whose weight was tuned on ground truth." + lam_txt + where,
                    paper="CUPID outperforms CS (no number retrieved).",
                    criterion=at_least(0.0), measured=round(psnr[arm] - psnr["CS"], 2),
                    ablation=Comparator("the same network trained without the PIF term (λ = 0)",
                                        round(psnr[m0] - psnr["CS"], 2), ingredient=PIF),
                    baselines=[Comparator(XM, round(psnr[xm] - psnr["CS"], 2))], tol=dB, **kw)
    claims.test("cupid-near-supervised" + tag,
                statement="The PSNR of supervised PD-DL (trained on fully sampled k-space of other phantoms) exceeds "
                          "that of zero-shot CUPID by at most 2 dB." + where,
                paper="CUPID is on par with PD-DL trained on raw k-space (no number retrieved). Threshold from the "
                      "brief.",
                criterion=at_most(2.0), measured=round(psnr["supervised PD-DL"] - psnr[m200], 2),
                ablation=Comparator("the same network trained without the PIF term (λ = 0)",
                                    round(psnr["supervised PD-DL"] - psnr[m0], 2), ingredient=PIF),
                baselines=[Comparator("the clinical PI image itself (no training)",
                                      round(psnr["supervised PD-DL"] - psnr["clinical PI"], 2)),
                           Comparator(XM, round(psnr["supervised PD-DL"] - psnr[xm], 2))], tol=dB, **pre)
    claims.illustrate("pif-keeps-data-consistency" + tag,
                      statement="CUPID's output agrees with the clinical image on the sampled k-space to within twice "
                                "the noise level: |E(f(z) - x_PI)| / |E x_PI| <= 2 x |noise| / |y| (discrepancy "
                                "principle; our threshold, not the brief's)." + where,
                      paper="The PIF term keeps the output consistent with the PI reconstruction (the paper's design "
                            "argument).",
                      criterion=at_most(2.0), measured=round(resid[m200] / noise_level, 3), tol=RATIO,
                      why="cannot fail for the paper's idea: a no-op that returns x_PI has residual 0 by construction, "
                          "and CUPID at λ = 200 is, up to μ's floor, that no-op; the ablation, x_m and every "
                          "image-domain baseline pass the same bar in the page setting (shown in the prose). "
                          "A counted test until the independent review")
    for key, arm in (("200", m200), ("20", m20), ("0", m0)):
        G[f"gain{key}{tag}"] = psnr[arm] - psnr["clinical PI"]
        G[f"cs{key}{tag}"] = psnr[arm] - psnr["CS"]
        G[f"res{key}{tag}"] = resid[arm] / noise_level
        G[f"mu{key}{tag}"] = float(nets[arm].mu.detach())
    G[f"xm_gain{tag}"] = psnr[xm] - psnr["clinical PI"]
    G[f"xm_cs{tag}"] = psnr[xm] - psnr["CS"]
    G[f"xm_res{tag}"] = resid[xm] / noise_level
    G[f"sup_xm{tag}"] = psnr["supervised PD-DL"] - psnr[xm]
for nm, short in (("TV of x_PI", "tv"), ("smoothed x_PI", "smooth"), ("Tikhonov SENSE of E x_PI", "tik"),
                  ("early-stopped CG of E x_PI", "cgstop")):
    G[f"{short}_gain"] = psnr[nm] - psnr["clinical PI"]
    G[f"{short}_res"] = resid[nm] / noise_level
    G[f"{short}_knob"] = knob[nm]
G.update(psnr_pi=psnr["clinical PI"], psnr_cs=psnr["CS"], psnr_sup=psnr["supervised PD-DL"],
         sup_gap=psnr["supervised PD-DL"] - psnr["CUPID"], sup_gap_pi=psnr["supervised PD-DL"] - psnr["clinical PI"],
         sup_cs=psnr["supervised PD-DL"] - psnr["CS"], sup_steps=P.sup_steps, margin20=psnr["CUPID, λ = 20"] - psnr["compressibility only"],
         pert_ratio=M_PERT / float(x_pi[-1].abs().max()),
         **n_params,
         noise2=2 * noise_level, lam_cs=LAM_CS,
         pert_frac=float((perts[0] != 0).float().mean()), pert_frac_off=float((perts_off[0] != 0).float().mean()))
for key, v in G.items():
    glue(key, float(v), display=False)

claims.headline("beats-clinical", "CUPID, trained from exported clinical images alone, reconstructs much better "
                "images than those clinical parallel-imaging images", tests=["cupid-beats-clinical-pi", "cupid-beats-clinical-pi-official", "cupid-lambda20-beats-clinical-pi",
                       "cupid-lambda20-beats-clinical-pi-official"])
claims.headline("near-kspace-training", "CUPID's quality is similar to physics-driven networks trained on raw k-space",
                tests=["cupid-near-supervised", "cupid-near-supervised-official"])
claims.headline("beats-cs", "CUPID outperforms compressed sensing",
                tests=["cupid-beats-cs", "cupid-beats-cs-official", "cupid-lambda20-beats-cs",
                       "cupid-lambda20-beats-cs-official"])
claims.headline("beyond-the-miniature", "CUPID outperforms diffusion-based generative methods, and zero-shot CUPID "
                "works on prospectively undersampled scans",
                untestable="no diffusion model is trained or run here (a generative prior needs a training set and "
                           "compute far beyond a 32 × 32 phantom miniature), and a prospective scan needs a real "
                           "acquisition; our data are simulated phantoms (the retrospective zero-shot case is the "
                           "setting of every test above)")

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
# Numbers below are from this run (ci scale, seed 0 unless the book was built otherwise); statuses and seed
# counts are over the ci sweep.
#
# **At the official λ = 200 CUPID returns the clinical image.** With $z = E^HE\,x_{PI}$ and an exact
# data-consistency step, a network with $\mu\to 0$ is the pseudo-inverse of $E^HE$: it returns every
# perturbation and returns $x_{PI}$ itself. At λ = 200 that optimum outweighs the compressibility term; Adam
# drives μ below its floor (learned {glue:text}`mu200:.3f`, used at 1e-4) and the gain over $x_{PI}$ is
# {glue:text}`gain200:.2f` dB. So {repro-status}`cupid-beats-clinical-pi` and {repro-status}`cupid-beats-cs`
# (CUPID trails CS by {glue:text}`cs200:.2f` dB). The official configuration gives the same picture:
# {glue:text}`gain200-official:.2f` dB ({repro-status}`cupid-beats-clinical-pi-official`).
#
# **Naive baselines beat CUPID's gain.** The CS image $x_m$ of the clinical image's own k-space, which
# CUPID uses only as a weight, is already {glue:text}`xm_gain:.2f` dB above $x_{PI}$ with no network. It passes
# the 1 dB criterion at {repro-seeds}`cupid-beats-clinical-pi:baseline1:pass` seeds. Total-variation denoising
# of $x_{PI}$ (weight {glue:text}`tv_knob:g`, chosen on the training phantoms) gains {glue:text}`tv_gain:.2f` dB,
# inside the band around the bar ({repro-seeds}`cupid-beats-clinical-pi:baseline2:edge` seeds at the edge).
#
# **With λ = 20 (post hoc), the page's setting.** CUPID gains {glue:text}`gain20:.2f` dB over $x_{PI}$ (μ
# {glue:text}`mu20:.4f`); the same network without PIF gains {glue:text}`gain0:.2f` dB, a margin of
# {glue:text}`margin20:.2f` dB at this seed. The ablation fails the bar at
# {repro-seeds}`cupid-lambda20-beats-clinical-pi:ablation:fail` seeds. So with a smaller λ the PIF term helps the
# compressibility loss, in the page setting. This is a post-hoc finding, and a weak one: at some seeds the margin
# over the ablation is smaller than the 1 dB tolerance, and $x_m$, with no network, passes the bar at
# {repro-seeds}`cupid-lambda20-beats-clinical-pi:baseline1:pass` seeds. The test is
# {repro-status}`cupid-lambda20-beats-clinical-pi` and holds at no seed:
# {repro-seeds}`cupid-lambda20-beats-clinical-pi:test:at-the-edge` at the edge (a gain inside the 1 dB tolerance of
# the 1 dB bar); at {repro-seeds}`cupid-lambda20-beats-clinical-pi:test:not-specific` the gain clears the band,
# but $x_m$ clears it too. In our miniature the gain over the clinical image does not need
# CUPID's network. **In the official configuration the λ = 20 gain disappears**:
# {glue:text}`gain20-official:.2f` dB ({repro-status}`cupid-lambda20-beats-clinical-pi-official`). Its μ also
# goes below the floor ({glue:text}`mu20-official:.3f`): against the DTCWT loss λ = 20 is still large enough
# for the pseudo-inverse to win. Neither arm comes near our tuned CS ({glue:text}`cs20:.2f` dB for λ = 20,
# {repro-status}`cupid-lambda20-beats-cs`).
#
# **Close to supervised** is {repro-status}`cupid-near-supervised`: the gap ({glue:text}`sup_gap:.2f` dB here)
# lies within the 1 dB tolerance of the 2 dB threshold at {repro-seeds}`cupid-near-supervised:method:edge` seeds.
# The reference is weak. Trained for {glue:text}`sup_steps:.0f` steps at ci, the supervised network is only
# {glue:text}`sup_gap_pi:.2f` dB above the clinical image and {glue:text}`sup_cs:+.2f` dB from CS: it is
# under-trained, and below CS, so it is no upper reference. The untrained clinical image sits about as close to
# it, and $x_m$ passes the same criterion at {repro-seeds}`cupid-near-supervised:baseline2:pass` seeds
# (supervised minus $x_m$: {glue:text}`sup_xm:.2f` dB here). With the reference trained longer, the gap grows
# (see "What a skeptic would try"). The test's recorded outcome is left as it is: it was pre-registered with
# this reference.
#
# **Data consistency is an illustration, not a test** (since the independent review). CUPID's residual is
# {glue:text}`res200:.3f` of the noise level (bar 2). But a no-op that returns $x_{PI}$ has residual 0 and
# passes by construction, and CUPID at λ = 200 *is* that no-op. The ablation passes too
# ({glue:text}`res0:.2f`), and so do $x_m$ ({glue:text}`xm_res:.2f`) and TV denoising
# ({glue:text}`tv_res:.2f`). The check cannot tell PIF from its absence. In the official configuration the
# ablation's residual is {glue:text}`res0-official:.1f` times the noise, and its PSNR is far below $x_{PI}$.
# Its compressibility reference, the official CS image, is itself {glue:text}`xm_gain-official:.1f` dB from
# $x_{PI}$ on our 32 × 32 image (departure 3 below). What that shows is a reference broken by the miniature's
# size, not a PIF mechanism.
#
# **In short.** Not reproduced: any gain over the clinical image at the official λ = 200, in either
# configuration, and beating compressed sensing. λ = 20's gain (page setting only, post hoc) and "close to
# supervised" are inside the PSNR tolerance and matched by a naive baseline. "Close to supervised" also rests on an
# under-trained reference. What the miniature does show is narrower. A large λ turns the network into the
# parallel-imaging inverse. At λ = 20, in the page setting only, compressibility with PIF gains more than
# without it, but less than the CS image $x_m$ that CUPID is handed as its reference.
#
# This page quotes no full-scale number. The full-scale column of the claims table is the current word once its
# sweep has been re-run on the present code.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page, its
# record and its ci sweep. They re-ran the page's baselines, four image-domain baselines and a longer-trained
# supervised reference on ci seeds 0-9, single-threaded. At two seeds they also replaced the exact
# data-consistency solve with the official 15-step CG. What fits the ci budget is now measured by this notebook
# (this run's numbers):
#
# - **CS on the clinical image's own k-space** ($x_m$, no network): {glue:text}`xm_gain:.2f` dB above $x_{PI}$
#   (CUPID λ = 20: {glue:text}`gain20:.2f`), {glue:text}`xm_cs:.2f` dB against CS on the raw k-space, residual
#   {glue:text}`xm_res:.2f` of the noise. With the official CS module instead: {glue:text}`xm_gain-official:.2f`
#   dB, residual {glue:text}`xm_res-official:.1f`.
# - **Image-domain baselines**, each knob chosen on the training phantoms (gain over $x_{PI}$, residual over the
#   noise level): TV denoising (weight {glue:text}`tv_knob:g`, now a comparator of the four tests against
#   $x_{PI}$) {glue:text}`tv_gain:.2f` dB, {glue:text}`tv_res:.2f`; Gaussian smoothing (σ =
#   {glue:text}`smooth_knob:g` pixel) {glue:text}`smooth_gain:.2f` dB, {glue:text}`smooth_res:.3f`; Tikhonov
#   SENSE on $E x_{PI}$ (α = {glue:text}`tik_knob:g`) {glue:text}`tik_gain:.2f` dB, {glue:text}`tik_res:.2f`;
#   early-stopped CG on $E x_{PI}$ ({glue:text}`cgstop_knob:.0f` steps) {glue:text}`cgstop_gain:.2f` dB,
#   {glue:text}`cgstop_res:.2f`. In the reviewer's runs none of the four cleared the 1 dB bar by more than the
#   tolerance at any ci seed, and every one met the consistency bar at every seed.
# - **Return the clinical image unchanged**: residual 0, inside the consistency bar; PSNR gap to
#   supervised {glue:text}`sup_gap_pi:.2f` dB against CUPID's {glue:text}`sup_gap:.2f`.
# - **Drop the PIF term** (λ = 0): {glue:text}`gain0:.2f` dB (page), {glue:text}`gain0-official:.2f` dB
#   (official configuration), residual {glue:text}`res0:.2f` and {glue:text}`res0-official:.1f` of the noise.
# - **Run the official loss, CS and letters**: λ = 20 goes from {glue:text}`gain20:.2f` to
#   {glue:text}`gain20-official:.2f` dB; λ = 200 from {glue:text}`gain200:.2f` to {glue:text}`gain200-official:.2f`.
# - **Train the supervised reference longer** (reviewer only): 400 steps, the page's full-scale budget, with the
#   same initialisation, seed, learning rate and batch. The near-supervised gap then fails the 2 dB bar outside
#   the tolerance at all but one ci seed (at the edge there). Even so, the longer-trained network stays below CS.
#   It is not re-run here: it would add about as much compute as the rest of the ci page, beyond its budget.
# - **The official 15-step CG instead of the exact solve** (reviewer only, two seeds): the collapse at λ = 200
#   persists (μ is still driven below zero), so the exact solve does not cause it.
# - **The 1 dB tolerance.** The reviewer's reruns reproduced the ci sweep to the rounding of the record on one
#   machine. No cross-machine spread has been measured, so the band is an effect-size floor declared with the
#   tests, not a noise level, and its stated reason now says so. It is unchanged, since the tests are
#   pre-registered. Because of the band, a gain of exactly 0 over $x_{PI}$ reads "at the edge", not "fail".
# - Not tried: the official perturbation-to-image ratio, a λ grid.
#
# ## What the miniature cannot show
#
# - **Real clinical images.** Vendor PI reconstructions are GRAPPA or regularised SENSE with their own filters,
#   and the coil maps must be estimated from them. Our "clinical" image is an exact-model CG-SENSE on simulated
#   phantoms with known maps.
# - **The paper's quality level.** No PSNR or SSIM was retrieved from the paper, and the network here has about
#   {glue:text}`n_par_ci:,.0f` to {glue:text}`n_par_full:,.0f` parameters against the official
#   {glue:text}`n_par_paper:,.0f`. Whether CUPID matches supervised training on knee
#   and brain data, and beats diffusion priors, is beyond a 32 × 32 phantom.
# - **The λ balance at scale.** Our result says only that λ must be set against the scale of the two loss
#   terms. Whether λ = 200 is right for DTCWT coefficients of a 320 × 368 slice, as the paper uses it, cannot be
#   tested here.
# - **Database training, prospective undersampling, SSDU and diffusion baselines, and rare pathologies** (the
#   paper's motivation) are not run.
