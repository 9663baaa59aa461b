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

from repro.claims import Claims, at_least, at_most, tolerance
from repro.papers import cupid_mri as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    "ci": dict(n=32, n_train=16, acs=4, steps=100, sup_steps=100, sup_batch=2, perts_per_step=2, features=8,
               n_res=1, n_unroll=3, lr=3e-3, cs_iters=100),
    "full": dict(n=48, n_train=32, acs=6, steps=300, sup_steps=400, sup_batch=4, perts_per_step=6, features=12,
                 n_res=2, n_unroll=4, lr=3e-3, cs_iters=300),
})
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
# **Numbers.** Our brief did not retrieve any PSNR or SSIM value from the paper. The claims below are
# relative, and the thresholds come from the brief, fixed before the first run.
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
# - *compressibility only* ($\lambda = 0$): CUPID without its PIF term. This is the control.
# - *CUPID with λ = 20*: an arm added after the first runs, flagged post hoc. At the official λ = 200 the
#   PIF term won outright, and CUPID returned the clinical image (see the verdict). λ = 20 is the only other
#   value we tried.
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
#   is tiny: 3–4 unrolls, 8–12 features, 1–2 residual blocks (1,441 or 4,321 parameters), instead of 10 unrolls
#   of a 15-block, 64-channel ResNet (592,128 parameters). 100–400 optimiser steps.
# - **Data consistency** is solved exactly. The mask is constant along the readout axis, so $E^H E$ splits into
#   one small Hermitian matrix per image row. Its eigendecomposition gives $(E^HE+\mu I)^{-1}$ for any $\mu$ with two
#   matrix products. The official code runs 15 CG steps, which approach the same solution; the golden test checks
#   both.
# - **Learning rate** 3e-3 at both scales (official 5e-4): a tiny network and far fewer steps.
# - **Perturbations.** Our own 5 × 7 block glyphs of the official letters (A, R, O, N, P, B), tiled 2 × 2 to
#   fill the image, instead of Arial letters drawn with PIL. Same intensities (golden test). At ci, 2 of the 6
#   perturbations per step, drawn at random (an unbiased estimate of $L_{PIF}$).
# - **Wavelet.** Orthonormal Haar (3 levels, written in torch), instead of the dual-tree complex wavelet (4
#   levels) of the official configuration; pytorch_wavelets is not installed. The weights $x_m$ come from our
#   FISTA-Haar CS, not the official 10-unroll DTCWT CS, and only one reweighting is done (official default).
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
print("CS weight chosen on the training phantoms:", LAM_CS,
      {k: round(float(v), 2) for k, v in cs_train.items()})

# %% [markdown]
# Three networks, same architecture and initialisation seed: supervised on the training phantoms' k-space,
# CUPID zero-shot on the test image's $x_{PI}$, and CUPID without PIF ($\lambda=0$).

# %%
SPEC = dict(n_iters=P.n_unroll, features=P.features, n_res_blocks=P.n_res)
perts = K.make_perturbations((n, n), K_PERT, M_PERT)


def bar(desc):
    return lambda it: progress(it, total=len(it), desc=desc)


torch.manual_seed(P.seed)
net_sup = K.UnrolledNet(**SPEC)
h_sup = K.train_supervised(net_sup, y[:-1], y_full[:-1], op, P.sup_steps, P.lr, P.sup_batch, seed=P.seed,
                           progress_fn=bar("supervised"))
nets, hists = {}, {}
for name, lam in (("CUPID", LAM), ("CUPID, λ = 20", LAM_SMALL), ("compressibility only", 0.0)):
    torch.manual_seed(P.seed)
    nets[name] = K.UnrolledNet(**SPEC)
    hists[name] = K.train_cupid(nets[name], x_pi[-1:], x_m, perts, op, support, lam, P.steps, P.lr, batch=1,
                                perts_per_step=P.perts_per_step if lam else None, eps=EPS, level=LEVEL,
                                seed=P.seed, progress_fn=bar(name))

z_test = op.apply(x_pi[-1:])
with torch.no_grad():
    recon = {"zero-filled": K.E_adjoint(y[-1:], maps, mask), "clinical PI": x_pi[-1:], "CS": x_cs,
             "supervised PD-DL": net_sup(K.E_adjoint(y[-1:], maps, mask), op),
             **{nm: net(z_test, op) for nm, net in nets.items()}}
truth = x_true[-1].numpy()
psnr = {k: K.psnr(truth, v[0].numpy()) for k, v in recon.items()}
ssim = {k: K.ssim(truth, v[0].numpy()) for k, v in recon.items()}
resid = {k: float(K.relative_residual(v, x_pi[-1:], maps, mask)[0]) for k, v in recon.items()}
print(f"{'method':<22}{'PSNR (dB)':>10}{'SSIM':>8}{'|E(x - x_PI)|/|E x_PI|':>25}")
for k in recon:
    print(f"{k:<22}{psnr[k]:>10.2f}{ssim[k]:>8.3f}{resid[k]:>25.4f}")
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
    diff = {nm: (nets[nm](z_test + op.apply(pk), op) - nets[nm](z_test, op))[0] for nm in nets}
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
paper_rank = {"zero-filled": "not reported", "clinical PI": "clearly worst of the PD-DL inputs",
              "CS": "below CUPID", "supervised PD-DL": "reference (needs fully sampled k-space)",
              "CUPID": "on par with k-space-trained PD-DL", "CUPID, λ = 20": "not run (official λ = 200)",
              "compressibility only": "ablation (not retrieved)"}
for k in recon:
    print(f"| {k} | {paper_rank[k]} | {psnr[k]:.2f} | {ssim[k]:.3f} |")

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
# **Not run** (pytorch_wavelets is not installed): `wavelet_loss_function` and the CS module. Our
# `wavelet_reweighted_l1` is tested against a hand trace of its 'dwt' branch: sum of ratios over $H\cdot W$.
#
# **Departures** (ours → official):
#
# 1. Exact row-wise data consistency → 15 CG steps. The official CG sums its inner products over the batch;
#    ours takes them per sample (the same for one slice).
# 2. Haar, 3 levels → DTCWT, 4 levels (config `dctwt`), for both the loss and the CS that gives $x_m$.
# 3. $x_m$ from FISTA-Haar with a weight tuned on phantoms → 10 unrolls of CG(μ = 0.1) and DTCWT soft
#    thresholding at 1% of the largest coefficient of $x_{PI}$.
# 4. Block glyphs tiled 2 × 2 → Arial letters at size 80, four per band, on a 320 × 368 slice.
# 5. 2 of 6 perturbations per step at ci → all 6 at every step (we use all 6 at full scale).
# 6. 3–4 unrolls, 8–12 features, 1–2 blocks; Adam 3e-3 for 100–400 steps → 10 unrolls, 64 features,
#    15 blocks, 5e-4 for 300 epochs.
# 7. $x_{PI}$: 10 CG steps on our simulated data → 30 steps on fastMRI k-space.

# %%
dB = tolerance(abs=1.0, why=f"PSNR difference (dB) involving networks after {P.steps}-{P.sup_steps} Adam steps: "
                            "moves with float rounding across machines")
RATIO = tolerance(rel=0.3, why="k-space residual of a trained network over the noise level")
gain = psnr["CUPID"] - psnr["clinical PI"]
claims.check("cupid-beats-clinical-pi",
             statement="Zero-shot CUPID, trained on the clinical PI image alone, improves on that image by at least "
                       "1 dB PSNR on the Shepp-Logan test phantom (R = 4).",
             paper="CUPID images are much better than the PI images they are trained from (figures; no number "
                   "retrieved). Threshold from the brief.",
             criterion=at_least(1.0), measured=round(gain, 2),
             control=round(psnr["compressibility only"] - psnr["clinical PI"], 2),
             control_label="the same network trained without the PIF term (λ = 0, compressibility only)", tol=dB)
claims.check("cupid-near-supervised",
             statement="The PSNR of supervised PD-DL (trained on fully sampled k-space of other phantoms) exceeds "
                       "that of zero-shot CUPID by at most 2 dB.",
             paper="CUPID is on par with PD-DL trained on raw k-space (no number retrieved). Threshold from the brief.",
             criterion=at_most(2.0), measured=round(psnr["supervised PD-DL"] - psnr["CUPID"], 2),
             control=round(psnr["supervised PD-DL"] - psnr["clinical PI"], 2),
             control_label="the clinical PI image itself (no training)", tol=dB)
claims.check("cupid-beats-cs",
             statement="Zero-shot CUPID has a PSNR at least as high as wavelet compressed sensing whose weight was "
                       "tuned on ground truth.",
             paper="CUPID outperforms CS (no number retrieved).",
             criterion=at_least(0.0), measured=round(psnr["CUPID"] - psnr["CS"], 2),
             control=round(psnr["compressibility only"] - psnr["CS"], 2),
             control_label="the same network trained without the PIF term (λ = 0)", tol=dB)
claims.check("pif-keeps-data-consistency",
             statement="CUPID's output agrees with the clinical image on the sampled k-space to within twice the "
                       "noise level: |E(f(z) - x_PI)| / |E x_PI| <= 2 x |noise| / |y| (discrepancy principle).",
             paper="The PIF term keeps the output consistent with the PI reconstruction (the paper's design "
                   "argument; brief's ablation).",
             criterion=at_most(2.0), measured=round(resid["CUPID"] / noise_level, 3),
             control=round(resid["compressibility only"] / noise_level, 3),
             control_label="the same network trained without the PIF term (λ = 0)", tol=RATIO)
POST = ("arm and claim added after the first runs: at the official λ = 200 the PIF term drove μ to its floor and "
        "CUPID's output to x_PI itself; λ = 20 was the one other value tried")
claims.check("cupid-lambda20-beats-clinical-pi",
             statement="With λ = 20 instead of 200, zero-shot CUPID improves on the clinical PI image by at least 1 dB.",
             paper="CUPID images are much better than the PI images they are trained from (no number retrieved); "
                   "the paper uses λ = 200 on its own loss scale.",
             criterion=at_least(1.0), measured=round(psnr["CUPID, λ = 20"] - psnr["clinical PI"], 2),
             control=round(psnr["compressibility only"] - psnr["clinical PI"], 2),
             control_label="the same network trained without the PIF term (λ = 0)", tol=dB, post_hoc=POST)
claims.check("cupid-lambda20-beats-cs",
             statement="With λ = 20, zero-shot CUPID has a PSNR at least as high as the tuned wavelet CS.",
             paper="CUPID outperforms CS (no number retrieved).",
             criterion=at_least(0.0), measured=round(psnr["CUPID, λ = 20"] - psnr["CS"], 2),
             control=round(psnr["compressibility only"] - psnr["CS"], 2),
             control_label="the same network trained without the PIF term (λ = 0)", tol=dB, post_hoc=POST)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **At the official λ = 200 the miniature does not reproduce CUPID's gains.** The cause is visible, not
# hidden. With $z = E^HE\,x_{PI}$ and an exact data-consistency step, a network with $\mu\to 0$ is the
# pseudo-inverse of $E^HE$: it returns every perturbation almost exactly (L_PIF ≈ 0.01) and returns $x_{PI}$ itself.
# At λ = 200 that trivial optimum outweighs the compressibility term. Adam drives μ to the floor, and CUPID's
# output sits within 0.1 dB of the clinical image: 26.84 dB against 26.78 dB at ci, seed 0. Its k-space
# residual is 0.3% of the noise level. So the claims "beats the clinical image by 1 dB" and "beats CS" are not
# reproduced. The control (λ = 0) fails them too, so both count as not reproduced. Two pre-registered claims
# came out uninformative, because our controls pass them as well:
#
# - the supervised network is itself weak at this scale, only 1.7 dB above $x_{PI}$ (28.46 dB), so the clinical
#   image is also "within 2 dB of supervised";
# - the discrepancy threshold (twice the noise level, 0.074 relative) is loose enough that the λ = 0 network
#   (0.52 of the noise level) meets it.
#
# **With λ = 20 (post hoc) the mechanism works.** PIF and compressibility then trade off. μ stays positive
# (0.0095), and zero-shot CUPID, trained on the clinical image alone, reaches 28.50 dB: 1.7 dB above that
# image and level with the supervised network trained on k-space of other phantoms (28.46 dB). Its residual stays
# below the noise level (0.18 of it). Without PIF (λ = 0) the same training gains nothing (26.78 dB). The
# perturbation figure shows the balance. The λ = 200 network returns the letter exactly (relative error 0.01),
# because it is a pure inversion. The λ = 20 network returns it with error 0.18, and the λ = 0 network
# with error 0.37. Neither CUPID variant comes near our wavelet CS
# (32.65 dB). A piecewise-constant phantom is the best case for Haar sparsity, CS got its weight from ground
# truth, and our networks are tiny and trained for 100–300 steps.
#
# These are seed-0 numbers at ci scale. **Over ten ci seeds** (robustness table above), each seed draws new
# phantoms, phase, coils, noise and initialisation:
#
# - at λ = 200, CUPID's gain over $x_{PI}$ is 0.05–0.22 dB (not reproduced at every seed), and it trails CS by
#   5.2–6.1 dB;
# - the near-supervised claim is mostly uninformative. The gap to supervised is 1.5–3.1 dB (median 2.0). It
#   meets the 2 dB threshold at 5 seeds, but the clinical image meets it at 4 of those too. Both fail at the
#   other 5, where the supervised network is better;
# - the consistency claim holds for CUPID (0.003–0.006 of the noise level) and for the λ = 0 control
#   (0.37–1.42) at every seed, so it is uninformative throughout;
# - the post-hoc λ = 20 arm beats $x_{PI}$ by 0.99–2.09 dB (median 1.6). It clears 1 dB at 9 of 10 seeds and holds
#   against the control at 8: at seed 1 the λ = 0 network also gained 1.4 dB. It trails CS by 3.3–4.7 dB
#   at every seed.
#
# **At full scale** (48 × 48, 12 features, 2 blocks, 4 unrolls, all six perturbations, seed 0; robustness table)
# the picture sharpens, and the network now beats CS when it has k-space supervision:
#
# | full scale, seed 0 | PSNR (dB) | SSIM |
# |---|---|---|
# | clinical PI | 27.59 | 0.795 |
# | CS (Haar, tuned) | 32.05 | 0.854 |
# | supervised PD-DL | 33.79 | 0.872 |
# | CUPID, λ = 200 | 27.66 | 0.796 |
# | CUPID, λ = 20 (post hoc) | 28.94 | 0.823 |
# | compressibility only (λ = 0) | 22.05 | 0.732 |
#
# At λ = 200, CUPID again returns $x_{PI}$ (+0.06 dB). With λ = 20 it gains 1.35 dB. Without PIF the network
# now collapses: μ grows to 0.39, the output is over-sparsified (22.05 dB), and its k-space residual is 3.3
# times the noise level. So at full scale the consistency claim is informative and reproduced. CUPID keeps
# to the clinical data (0.003 of the noise level), and the ablation does not. The supervised network is 6.1 dB
# above CUPID (λ = 200) and 4.9 dB above CUPID (λ = 20), so "close to supervised" is not reproduced here. CS
# stays 3.1–4.4 dB above both CUPID variants. The full run took about 3 minutes of CPU; it took 19 minutes
# of wall time on the shared, heavily loaded machine.
#
# **In short.** Reproduced: the PIF term keeps a network trained on clinical images consistent with them, and
# removing it lets the compressibility term destroy the image (full scale). Reproduced only post hoc, with
# λ = 20: CUPID improves on the clinical image it learned from, by 1–2 dB, zero-shot. Not reproduced: any gain
# at the official λ = 200, matching k-space-supervised training (at full scale), and beating compressed sensing.
#
# ## What the miniature cannot show
#
# - **Real clinical images.** Vendor PI reconstructions are GRAPPA or regularised SENSE with their own filters,
#   and the coil maps must be estimated from them. Our "clinical" image is an exact-model CG-SENSE on simulated
#   phantoms with known maps.
# - **The paper's quality level.** No PSNR or SSIM was retrieved from the paper, and the network here has about
#   1.4–4.3 thousand parameters against the official 592 thousand. Whether CUPID matches supervised training on knee
#   and brain data, and beats diffusion priors, is beyond a 32 × 32 phantom.
# - **The λ balance at scale.** Our result says only that λ must be set against the scale of the two loss
#   terms. Whether λ = 200 is right for DTCWT coefficients of a 320 × 368 slice, as the paper uses it, cannot be
#   tested here.
# - **Database training, prospective undersampling, SSDU and diffusion baselines, and rare pathologies** (the
#   paper's motivation) are not run.
