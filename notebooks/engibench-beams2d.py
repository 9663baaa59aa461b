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
# # EngiBench Beams2D: a data-driven generator against the topology optimiser
#
# *On EngiBench's beam problem, a design read off a learned map from conditions to density fields is worse
# than the optimiser's, misses the material budget, and a few changed pixels already cost a lot of
# stiffness; the optimiser itself is what the benchmark measures them against.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import time

import matplotlib.pyplot as plt
import numpy as np

from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, greater_than, tolerance
from repro.papers import engibench_beams2d as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 8 s of CPU on one thread: 24 optimised designs on a 30 x 15 mesh, 8 held out
    "ci": dict(nelx=30, nely=15, n_data=24, n_test=8, hidden=64, epochs=1000, flips=3),
    # about 3 min of CPU: 160 optimised designs on a 60 x 30 mesh, 32 held out
    "full": dict(nelx=60, nely=30, n_data=160, n_test=32, hidden=128, epochs=1500, flips=3),
})
claims = Claims(
    "engibench-beams2d",
    title="EngiBench: A Framework for Data-Driven Engineering Design Research",
    authors="Florian Felten, Gabriel Apaza, Gerhard Bäunlich, Cashen Diniz, Xuliang Dong, Arthur Drake, "
            "Milad Habibi, Nathaniel J. Hoffman, Matthew Keeler, Soheyl Massoudi, Francis G. VanGessel, Mark Fuge",
    paper_url="https://arxiv.org/abs/2508.00831",
    scale=scale, seed=seed,
)
NX, NY = P.nelx, P.nely
VOL_TOL = 0.01      # EngiBench's volume-fraction tolerance
FLIP = 0.01         # share of pixels set from solid to void in the sensitivity test
OFFICIAL = dict(volfrac=(0.15, 0.4), rmin=(1.5, 4.0))   # EngiBench's condition grid, as ranges
CLIP = 1e-3         # EngiOpt's evaluation scripts clip generated designs to [1e-3, 1] before simulating
SIGMA = 10.0        # the kernel width EngiOpt's evaluation scripts pass to MMD and DPP

# %% [markdown]
# ## The claim
#
# EngiBench is a library of engineering design problems behind one interface: each problem can
# `simulate` a design under given conditions, `optimize` one from a start, check its constraints, and ships
# a dataset of optimised designs for its conditions. Its companion EngiOpt holds generative models and
# surrogates trained on those datasets. The paper uses the pair to compare learning methods with the
# classical optimisers on equal terms, and concludes that these problems are hard for standard machine
# learning: the designs live on a narrow, constrained manifold on which small changes matter.
#
# We reproduce this on one of its problems, **Beams2D**: the half MBB beam of the classic "88-line"
# topology-optimisation code. The paper's tables were not available to us (the brief found no beams2d
# numbers), so the claims below are the qualitative ones of the abstract, made measurable by the
# reproduction brief, and scored with EngiOpt's own metrics (initial and final optimality gap,
# volume violation, MMD, DPP diversity).
#
# ## The method
#
# **The simulator.** The right half of a simply supported beam is cut into $n_x\times n_y$ unit square
# elements with densities $x_e\in[0,1]$. Under SIMP the stiffness of element $e$ is
# $E_e = E_{\min} + x_e^{p}(E_0-E_{\min})$ with $p=3$, $E_0=1$, $E_{\min}=10^{-9}$, so that
#
# $$ K(x) = \sum_e E_e K_e,\qquad K(x)\,u = f,\qquad c(x) = f^\top u = \sum_e E_e\, u_e^\top K_e u_e , $$
#
# with $K_e$ the $8\times8$ bilinear plane-stress element matrix ($\nu=0.3$). The left edge is the
# symmetry line (horizontal displacement fixed), the bottom-right corner sits on a roller, and a unit
# downward load acts on the top edge at the fraction `forcedist` of the length from the symmetry line.
# The compliance $c$ (the work of the load) is the objective: lower is stiffer. We assemble $K$ in
# vectorised form and solve by banded Cholesky (`K.compliance(x, nelx, nely)`).
#
# **The optimiser** (EngiBench's `optimize`, the 88-line algorithm). The sensitivity is
# $\partial c/\partial x_e = -p x_e^{p-1}(E_0-E_{\min})\,u_e^\top K_e u_e$. A density filter of radius
# $r_{\min}$ maps design variables to physical densities, $\tilde x = Hx/H\mathbf 1$ with weights
# $\max(0, r_{\min}-\text{dist})$, and the sensitivities go back through it. The optimality-criteria step
# multiplies each $x_e$ by $\sqrt{-\partial_e c/(\lambda\,\partial_e V)}$ within a move limit of 0.2, with
# $\lambda$ found by bisection so that the filtered volume equals `volfrac`. The run stops when no
# variable moves by more than 0.025, or after 100 iterations (`K.simp_optimize`).
#
# **The data-driven designs.** A dataset of optimised designs is generated here with that optimiser, over
# conditions drawn uniformly: `volfrac` in $[0.3,0.6]$, `rmin` in $[1.2,2.5]$, `forcedist` in $[0,1]$.
# On held-out conditions we compare
#
# 1. a **conditional MLP generator** (conditions $\to$ density image, two hidden ReLU layers, sigmoid
#    output, trained by full-batch Adam on the pixel-wise squared error): the simplest of EngiOpt's
#    families, the regression baseline of its conditional generators;
# 2. **nearest-neighbour retrieval**: the training design whose (standardised) conditions are closest;
# 3. the **uniform design** $x = $ `volfrac`, the optimiser's own start;
# 4. the **MLP design refined by the optimiser** (warm start, run to its stopping rule), EngiOpt's
#    "final optimality gap" protocol.
#
# Every design is scored by the same simulator, against the optimiser's design for the same
# conditions: the compliance ratio $c(\text{design})/c(\text{optimised})$ (EngiOpt's initial and final
# optimality gaps, as ratios), the volume error $|\bar x-\text{volfrac}|$ against EngiBench's tolerance
# 0.01, and the iterations the optimiser needs from the design.
#
# ## The experiment
#
# * **Sizes.** ci: a $30\times15$ mesh, 24 optimised designs, 16 for training and 8 held out. Full: a
#   $60\times30$ mesh, 160 designs, 128 and 32. The seed sets the conditions, the split, the MLP's
#   initialisation and the flipped pixels.
# * **Tests** (the brief's checks, fixed before the first run; issue 32 added the comparators, each measured
#   the same way and judged by the same criterion). Two comparators recur: the **MLP without its
#   conditioning** (each held-out condition gets the MLP design of another held-out condition: the ablation
#   of the generator's one ingredient) and **nearest-neighbour retrieval** (the naive data-driven baseline:
#   no learning at all).
#   1. `sensitive-manifold`: setting 1% of the pixels of an optimised design from solid to void (random
#      pixels among those with $x\ge\max x/2$, three draws per design, all designs) raises its compliance
#      by a median of more than 5%. Ablation: the uniform design with the same conditions (no optimisation),
#      losing the same share of its material as the optimised design does (added after the independent review;
#      1% of the pixels of a design with volume fraction $v$ is about $1/v$ % of its material, so the first
#      registered ablation, 1% of the uniform design's pixels, lost a smaller share). Baselines: a
#      hand-made frame with the same pixel count (a load path with no optimisation, also added after the
#      review), and, as context, the two comparators first registered, which lose by construction: a random
#      solid/void design of the same volume (salt and pepper, no load path) and the uniform design losing 1% of
#      its pixels.
#   2. `generator-compliance-gap`: the median compliance ratio of the MLP designs on held-out conditions is
#      above 1.05. Ablation: the MLP without its conditioning. Baseline: retrieval.
#   3. `generator-volume-violation`: at least 20% of the MLP designs miss the volume fraction by 0.01 or more
#      (EngiOpt's `viol`, before any projection). Ablation and baseline as in 2, and (added after the review)
#      the MLP's designs shifted in logit space onto the budget, which meet it by construction.
#   4. `warm-start-helps`: the median number of optimiser iterations from the MLP designs is at most 0.9
#      times that from the uniform start. Ablation and baseline as in 2 (retrieved designs as starts), and
#      (added after the review) the mean training design shifted onto each condition's volume: a start with
#      roughly the right layout and no conditioning. This is EngiOpt's protocol, not one of the paper's
#      headlines, so no headline lists it.
#   5. The same four tests under **EngiBench's condition ranges** with EngiOpt's clip of generated designs
#      (the `-official` tests: a second configuration, added after the page first ran, so post hoc).
#
#   For tests 2 and 3 the claim is negative (the generator falls short), so a comparator that "passes" falls
#   short as well: the test is then not specific to the learned generator. The refined designs (MLP plus
#   optimiser), the old control of 2 and 3, meet both bars by construction and are shown, not compared.
# * **Not a test:** the simulator against Timoshenko beam theory (a solid slender beam, $120\times10$) is a
#   check of our code, recorded as an implementation check beside the golden tests against EngiBench.
#
# **Deviations from the paper**
#
# * One problem of the benchmark (Beams2D), not its photonics, airfoil, heat-conduction and other
#   problems, and no claim about the API itself beyond the functions we re-implement.
# * Our own FE solver and optimiser, written from the equations of the 88-line code; EngiBench's code is
#   not used at run time (it pins old numpy and downloads its datasets). Our load sits on the top-edge
#   node nearest to `forcedist` (see "Against the official code" for the official index, which leaves the
#   top edge when `forcedist * nelx` is not an integer). No overhang constraint (EngiBench's default).
# * Our dataset instead of EngiBench's Hugging Face datasets: a $30\times15$ (ci) or $60\times30$ (full)
#   mesh instead of $50\times25$, $100\times50$, $200\times100$; 24 or 160 designs instead of 4851 per
#   resolution; conditions drawn at random (`volfrac` $\in[0.3,0.6]$, `rmin` $\in[1.2,2.5]$, as the brief
#   designs) instead of EngiBench's grid (`volfrac` $\in[0.15,0.4]$, `rmin` $\in[1.5,4]$, `forcedist` in
#   steps of 0.05). The official ranges are run as a second configuration (uniform draws over the grid's box).
# * One generator, a conditional MLP, instead of EngiOpt's GANs, VAEs, diffusion models and VQGAN; the
#   paper's comparison is among those, ours is of the data-driven family against the optimiser.
# * The brief's stopping rule for the warm-start count was "change < 0.01"; we keep EngiBench's own rule
#   (0.025, 100 iterations) for the dataset and for every warm start.
# * The brief's sensitivity check also asked that the perturbation change the design by at most 0.1 in
#   relative L2 norm. That cannot hold: setting 1% of the pixels of a design with volume fraction $v$
#   from 1 to 0 changes it by $\sqrt{0.01/v}\ge0.13$ for $v\le0.6$. We report the relative L1 change (the
#   share of material removed) and the L2 change instead, and keep only the compliance criterion.
# * The MMD and DPP diversity use the kernel width $\sigma=10$ that EngiOpt's evaluation scripts pass
#   (its `metrics.py` defaults to 1, which on images of hundreds of pixels makes every distinct set look
#   maximally diverse). Neither enters a test.
# * EngiOpt's evaluation scripts clip generated designs to $[10^{-3},1]$ before simulating them. The page's
#   own configuration scores the raw sigmoid output (as first registered); the official configuration clips.
#   The clip raises a design's mean density by at most $10^{-3}$; on the page's configuration the clipped MLP
#   designs have a median compliance ratio of {glue:text}`clip_ratio:.3f` against
#   {glue:text}`generator-compliance-gap_m:.3f` unclipped.
# * The official configuration draws `forcedist` uniformly and keeps our top-edge load, not EngiBench's
#   0.05 grid and load index (see "Against the official code"). Not run. Why we do not expect it to move a
#   status: every test measures a ratio against the optimised design for the same conditions and the same
#   load (the compliance ratios, the iteration ratios and the relative increases all share the load on both
#   sides), the grid and the uniform draw cover the same interval, and the volume test does not involve the
#   load at all. A load that walks down the column can still change which members carry it, so this is an
#   argument, not a measurement.

# %%
t0 = time.perf_counter()
data = K.make_beams_dataset(P.n_data, NX, NY, seed, progress=progress)
t_data = time.perf_counter() - t0
perm = P.rng.permutation(P.n_data)
test, train = perm[:P.n_test], perm[P.n_test:]
cond, designs, c_opt = data["conditions"], data["designs"], data["compliance"]
print(f"scale={P.scale}: {NX} x {NY} mesh, {P.n_data} optimised designs ({len(train)} train, {len(test)} test); "
      f"iterations median {np.median(data['iterations']):.0f} (max {data['iterations'].max()}); "
      f"{t_data / P.n_data:.2f} s per design")

# %% [markdown]
# ### Is the simulator right?
#
# Before anything is learned: the FE compliance of a solid beam against beam theory. The half beam with a
# unit load on the symmetry line is a full beam of span $2L$ under a central load 2, so
# $c = 2\left[\frac{(2L)^3}{48EI} + \frac{2L}{4\kappa G h}\right]$ with $I=h^3/12$, $G=E/(2(1+\nu))$ and
# $\kappa=5/6$ (Timoshenko). The same code is checked in the unit tests against a dense direct solve, the
# exact scaling $c(s\mathbf 1)=c(\mathbf 1)/(E_{\min}+s^p(1-E_{\min}))$ of a uniform design, central finite
# differences of the sensitivity, and EngiBench's own `simulate` and `optimize`.

# %%
NU = 0.3


def beam_theory(L, h, nu=NU):
    G = 1 / (2 * (1 + nu))
    return 2 * ((2 * L) ** 3 / (48 * h**3 / 12) + 2 * L / (4 * 5 / 6 * G * h))


def plane_strain_compliance(x, nelx, nely):
    # plane strain = plane stress with E* = E / (1 - nu^2), nu* = nu / (1 - nu): compliance scales by 1 / E*
    return (1 - NU**2) * K.compliance(x, nelx, nely, nu=NU / (1 - NU))


rows = []
for L in (20, 40, 80, 120):
    c_fe = K.compliance(np.ones((10, L)), L, 10)
    rows.append((L, 10, c_fe, beam_theory(L, 10), plane_strain_compliance(np.ones((10, L)), L, 10)))
print("  L x h    c (FE)    c (Timoshenko)  FE/theory  plane-strain FE/theory")
for L, h, cf, cb, cs in rows:
    print(f"{L:4d} x {h:<3d}{cf:10.1f} {cb:14.1f} {cf / cb:10.4f} {cs / cb:14.4f}")
fe_err = abs(rows[-1][2] / rows[-1][3] - 1)
fe_err_wrong = abs(rows[-1][4] / rows[-1][3] - 1)

# %% [markdown]
# Short beams are softer than beam theory (the point load indents the top and the section does not stay
# plane); at span/height 24 the two agree within a fraction of a percent.
#
# ### Designs from data against the optimiser
#
# The MLP is trained on the training designs; all four design sources are then scored on the held-out
# conditions.

# %%
t0 = time.perf_counter()
mlp, losses = K.fit_conditional_mlp(cond[train], designs[train], hidden=P.hidden, epochs=P.epochs, seed=seed)
t_train = time.perf_counter() - t0
t0 = time.perf_counter()
gen = {"MLP generator": mlp.generate(cond[test])}
t_gen = (time.perf_counter() - t0) / len(test)
gen["nearest neighbour"] = K.nearest_neighbour_designs(cond[train], designs[train], cond[test])
gen["uniform"] = cond[test, 0][:, None, None] * np.ones((len(test), NY, NX))
print(f"MLP: {K.parameter_count(mlp)} parameters, training loss {losses[0]:.4f} -> {losses[-1]:.4f}")


def score(D):
    ratio = np.array([K.compliance(d, NX, NY, forcedist=cond[i, 2]) for d, i in zip(D, test)]) / c_opt[test]
    vol_err = np.abs(D.mean(axis=(1, 2)) - cond[test, 0])
    return ratio, vol_err


def warm_start(D, which=None):
    """Optimiser iterations and final designs from the designs D (for the held-out conditions)."""
    iters, finals, hists = [], [], []
    for d, i in progress(list(zip(D, test)), desc=which or "warm starts"):
        x, h = K.simp_optimize(K.topopt_setup(NX, NY, *cond[i]), x0=np.clip(d, 0, 1))
        iters.append(h["iterations"])
        finals.append(x)
        hists.append(h["c"])
    return np.array(iters), np.stack(finals), hists


t0 = time.perf_counter()
it_mlp, refined, hist_mlp = warm_start(gen["MLP generator"], "from MLP designs")
t_warm = (time.perf_counter() - t0) / len(test)
shift = np.roll(np.arange(len(test)), len(test) // 2)          # each condition gets another's MLP design
it_perm, _, hist_perm = warm_start(gen["MLP generator"][shift], "from mismatched MLP designs")
it_unif = data["iterations"][test]                               # the dataset runs started from the uniform design
gen["MLP + optimiser"] = refined
scores = {k: score(v) for k, v in gen.items()}
viol_frac = {k: float(np.mean(v[1] >= VOL_TOL)) for k, v in scores.items()}   # EngiOpt's viol: |err| >= 0.01
shifted = score(gen["MLP generator"][shift])                     # the MLP without its conditioning
it_nn, _, _ = warm_start(gen["nearest neighbour"], "from retrieved designs")
clipped = score(np.clip(gen["MLP generator"], CLIP, 1))          # the official clip, on this configuration
# added after the independent review: the MLP's designs shifted in logit space onto the volume budget, and the
# unconditional mean training design, shifted onto each held-out condition's volume, as a start for the optimiser
projected = score(np.stack([K.project_to_volume(d, cond[i, 0]) for d, i in zip(gen["MLP generator"], test)]))
mean_start = np.stack([K.project_to_volume(designs[train].mean(axis=0), cond[i, 0]) for i in test])
it_mean, _, _ = warm_start(mean_start, "from the projected mean design")

# %% [markdown]
# ## Results
#
# ### Designs
#
# Held-out conditions (rows) and the design each source proposes for them (columns), with the compliance
# ratio to the optimised design and the volume error under each image.

# %%
cols = ["optimised", "MLP generator", "nearest neighbour", "uniform", "MLP + optimiser"]
show = np.arange(min(4, len(test)))
fig, axes = plt.subplots(len(show), len(cols), figsize=(11, 1.15 * len(show) + 0.6))
for r, j in enumerate(show):
    i = test[j]
    for k, name in enumerate(cols):
        ax = axes[r, k]
        d = designs[i] if name == "optimised" else gen[name][j]
        ax.imshow(1 - d, cmap="gray", vmin=0, vmax=1, interpolation="nearest")
        ax.set_xticks([])
        ax.set_yticks([])
        if name == "optimised":
            ax.set_ylabel(f"vf {cond[i, 0]:.2f}\nrmin {cond[i, 1]:.1f}\nfd {cond[i, 2]:.2f}", fontsize=7)
            ax.set_xlabel(f"c = {c_opt[i]:.0f}", fontsize=7)
        else:
            ratio, err = scores[name][0][j], scores[name][1][j]
            ax.set_xlabel(f"c ratio {ratio:.3g}, |vol err| {err:.3f}", fontsize=7)
        ax.plot([cond[i, 2] * NX - 0.5], [-0.5], "v", color="tab:red", ms=5, clip_on=False)
        if r == 0:
            ax.set_title(name, fontsize=9)
fig.suptitle("Half MBB beam designs on held-out conditions (black = solid; red arrow = load; "
             "symmetry line on the left)", fontsize=9)
plt.show()

# %% [markdown]
# ### Scores: optimality gap, volume, parameters
#
# EngiOpt's metrics for each design source on the held-out conditions. "Parameters" counts what each
# source learns or stores: the MLP's weights, the retrieval's stored designs, nothing for the uniform
# design; the optimiser learns nothing but pays with FE solves at every iteration.

# %%
n_px = NX * NY
params = {"MLP generator": K.parameter_count(mlp), "nearest neighbour": len(train) * (n_px + 3),
          "uniform": 0, "MLP + optimiser": K.parameter_count(mlp)}
ref = designs[test]
print(f"{'source':<27}{'learned/stored':>15}{'median c ratio':>15}{'max':>10}{'viol (>=0.01)':>13}"
      f"{'MAE vol':>9}{'MMD':>7}{'DPP':>7}{'FE solves':>10}")
for k, (ratio, err) in scores.items():
    solves = f"{np.median(it_mlp) + 1:.0f}" if k == "MLP + optimiser" else "1"
    print(f"{k:<27}{params[k]:>15}{np.median(ratio):>15.3f}{ratio.max():>10.3g}{viol_frac[k]:>13.2f}"
          f"{err.mean():>9.4f}{K.mmd(gen[k], ref, SIGMA):>7.3f}{K.dpp_diversity(gen[k], SIGMA):>7.3f}{solves:>10}")
print(f"{'optimiser (uniform start)':<27}{0:>15}{1.0:>15.3f}{1.0:>10.3g}{0.0:>13.2f}"
      f"{np.abs(ref.mean(axis=(1, 2)) - cond[test, 0]).mean():>9.4f}{0.0:>7.3f}{K.dpp_diversity(ref, SIGMA):>7.3f}"
      f"{np.median(it_unif) + 1:>10.0f}")
print(f"(FE solves: median per design, including the final one; MMD against the optimised designs; "
      f"viol: share with |vol err| >= {VOL_TOL}; MMD and DPP with sigma = {SIGMA:g}, as EngiOpt's evaluation scripts)")
print("\nthe paper's beams2d values: not retrieved (see the brief); EngiOpt reports these metrics per model")

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
names = list(scores)
for k, name in enumerate(names):
    ratio, err = scores[name]
    jit = k + np.linspace(-0.15, 0.15, len(ratio))
    axes[0].plot(jit, ratio, "o", ms=4, alpha=0.7)
    axes[0].plot([k - 0.25, k + 0.25], [np.median(ratio)] * 2, "k-", lw=2)
    axes[1].plot(jit, err, "o", ms=4, alpha=0.7)
axes[0].axhline(1.05, color="tab:red", ls="--", lw=1, label="claim 2 threshold (1.05)")
axes[0].axhline(1.0, color="gray", lw=0.8)
axes[0].set_yscale("log")
axes[0].set(ylabel="compliance / optimised compliance", title="optimality gap on held-out conditions (bar: median)")
axes[1].axhline(VOL_TOL, color="tab:red", ls="--", lw=1, label="EngiBench tolerance (0.01)")
axes[1].set_yscale("symlog", linthresh=1e-3)
axes[1].set(ylabel="|mean density - volfrac|", title="volume-fraction error (linear below 0.001)", ylim=(0, None))
for ax in axes:
    ax.set_xticks(range(len(names)), [n.replace(" + ", "\n+ ") for n in names], fontsize=8)
    ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### Warm starts
#
# The optimiser started from the MLP design, from the MLP design of another held-out condition, and from
# the uniform design (the dataset's own runs).

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 3.4))
j = 0
COL = {"uniform": "tab:green", "MLP": "tab:blue", "mismatched": "tab:orange"}
axes[0].semilogy(np.arange(1, 1 + len(hist_mlp[j])), hist_mlp[j] / c_opt[test[j]], color=COL["MLP"],
                 label="from MLP design")
axes[0].semilogy(np.arange(1, 1 + len(hist_perm[j])), hist_perm[j] / c_opt[test[j]], color=COL["mismatched"],
                 label="from mismatched MLP design")
h0 = data["histories"][test[j]]
axes[0].semilogy(np.arange(1, 1 + len(h0)), h0 / c_opt[test[j]], color=COL["uniform"], label="from uniform design")
axes[0].set(xlabel="optimiser iteration", ylabel="compliance / final optimised compliance",
            title="one held-out condition")
axes[0].legend(fontsize=8)
bins = np.arange(0, 105, 5)
for it, lab, col in [(it_unif, "uniform start", COL["uniform"]), (it_mlp, "MLP start", COL["MLP"]),
                     (it_perm, "mismatched MLP start", COL["mismatched"])]:
    axes[1].hist(it, bins=bins, histtype="step", lw=2, color=col, label=f"{lab} (median {np.median(it):.0f})")
axes[1].set(xlabel="iterations to the stopping rule (max 100)", ylabel="held-out conditions",
            title="iterations over held-out conditions")
axes[1].legend(fontsize=8)
plt.show()

# %% [markdown]
# ### Sensitivity: 1% of the pixels
#
# Every optimised design of the dataset loses 1% of its solid pixels (solid to void), three random draws each.
# Beside it, under the same flip rule: the uniform design with the same conditions, losing either 1% of its
# pixels (1% of its material) or the same share of its material as the optimised design; a hand-made frame
# with the optimised design's pixel count; and a random solid/void design with the same volume (each pixel
# solid or void, the solid ones drawn at random).

# %%
def flip_increase(D, frac=FLIP, rng=None, conditions=None):
    rng = P.rng if rng is None else rng
    rel, l1, l2 = [], [], []
    fracs = np.broadcast_to(np.asarray(frac, float), (len(D),))    # one share of pixels per design, or one for all
    for d, f, (vf, rm, fd) in zip(D, fracs, cond if conditions is None else conditions):
        c0 = K.compliance(d, NX, NY, forcedist=fd)
        for _ in range(P.flips):
            e = K.flip_solid_pixels(d, f, rng)
            rel.append(K.compliance(e, NX, NY, forcedist=fd) / c0 - 1)
            l1.append(np.abs(e - d).sum() / d.sum())
            l2.append(np.linalg.norm(e - d) / np.linalg.norm(d))
    return np.array(rel), np.array(l1), np.array(l2)


sens_opt, l1_opt, l2_opt = flip_increase(designs)
uniform_all = cond[:, 0][:, None, None] * np.ones((P.n_data, NY, NX))
sens_unif, l1_unif, l2_unif = flip_increase(uniform_all)
rng_rand = np.random.default_rng([seed, 11])                       # its own stream: the values above are unchanged
random_all = np.stack([K.random_solid_void_design(vf, NX, NY, rng_rand) for vf in cond[:, 0]])
sens_rand, _, _ = flip_increase(random_all, rng=rng_rand)
# added after the independent review, each on its own stream (the values above are unchanged):
# the uniform design losing the same share of its material as the optimised design of the same conditions
share_opt = l1_opt.reshape(len(designs), P.flips).mean(axis=1)
sens_unif_m, l1_unif_m, _ = flip_increase(uniform_all, frac=share_opt, rng=np.random.default_rng([seed, 12]))
# a frame laid out by hand (flanges, end post, diagonals) with the optimised design's pixel count
frame_all = np.stack([K.hand_made_frame(vf, NX, NY) for vf in cond[:, 0]])
sens_frame, _, _ = flip_increase(frame_all, rng=np.random.default_rng([seed, 13]))
ratio_to_opt = lambda D, cd, co: np.median([K.compliance(x, NX, NY, forcedist=c[2]) for x, c in zip(D, cd)] / co)
ratio_frame, ratio_rand = ratio_to_opt(frame_all, cond, c_opt), ratio_to_opt(random_all, cond, c_opt)
ratio_unif_all = ratio_to_opt(uniform_all, cond, c_opt)
print(f"random solid/void designs: median compliance increase {np.median(sens_rand):.3f} "
      f"(compliance {ratio_rand:.3g} times the optimised design's)")
print(f"hand-made frames:  median compliance increase {np.median(sens_frame):.3f} "
      f"(compliance {ratio_frame:.3g} times the optimised design's)")
print(f"uniform designs, same share of material removed as from the optimised design: median compliance "
      f"increase {np.median(sens_unif_m):.3f} (relative L1 change {np.median(l1_unif_m):.3f})")
print(f"optimised designs: median compliance increase {np.median(sens_opt):.3f} "
      f"(relative L1 change {np.median(l1_opt):.3f}, relative L2 change {np.median(l2_opt):.3f})")
print(f"uniform designs:   median compliance increase {np.median(sens_unif):.3f} "
      f"(relative L1 change {np.median(l1_unif):.3f}, relative L2 change {np.median(l2_unif):.3f})")

fig, axes = plt.subplots(1, 3, figsize=(12, 3.2), gridspec_kw=dict(width_ratios=[1, 1, 1.5]))
i = int(np.argsort(sens_opt[::P.flips])[len(designs) // 2])        # a design with a median first-draw increase
rng_show = np.random.default_rng([seed, 7])
e = K.flip_solid_pixels(designs[i], FLIP, rng_show)
c_i, c_e = K.compliance(designs[i], NX, NY, forcedist=cond[i, 2]), K.compliance(e, NX, NY, forcedist=cond[i, 2])
axes[0].imshow(1 - designs[i], cmap="gray", vmin=0, vmax=1)
axes[0].set(title=f"optimised, c = {c_i:.1f}", xticks=[], yticks=[])
axes[1].imshow(1 - e, cmap="gray", vmin=0, vmax=1)
yy, xx = np.nonzero(e != designs[i])
axes[1].plot(xx, yy, "s", mfc="none", mec="tab:red", ms=6)
axes[1].set(title=f"1% flipped (red), c = {c_e:.1f} (+{c_e / c_i - 1:.0%})", xticks=[], yticks=[])
bins = np.linspace(min(sens_opt.min(), sens_unif.min(), 0),
                   np.quantile(np.r_[sens_opt, sens_unif, sens_unif_m], 0.98), 30)
axes[2].hist(sens_unif, bins=bins, alpha=0.6, label="uniform design, 1% of pixels")
axes[2].hist(sens_opt, bins=bins, alpha=0.6, label="optimised design")
axes[2].hist(np.clip(sens_unif_m, bins[0], bins[-1]), bins=bins, histtype="step", lw=1.5, color="tab:purple",
             label="uniform design, same material removed")
axes[2].hist(np.clip(sens_frame, bins[0], bins[-1]), bins=bins, histtype="step", lw=1.5, color="tab:brown",
             label="hand-made frame (clipped)")
axes[2].hist(np.clip(sens_rand, bins[0], bins[-1]), bins=bins, histtype="step", lw=1.5, color="k",
             label="random solid/void design")
axes[2].axvline(0.05, color="tab:red", ls="--", lw=1, label="claim 1 threshold (5%)")
axes[2].set(xlabel="relative compliance increase", ylabel="perturbations", title="1% of pixels to void")
axes[2].legend(fontsize=7)
plt.show()

# %% [markdown]
# ### The official condition ranges
#
# The same experiment on EngiBench's own condition ranges (`volfrac` from $0.15$ to $0.4$, `rmin` from $1.5$ to $4$,
# drawn uniformly, as a box around its grid), with the generated designs clipped to $[10^{-3}, 1]$ before
# they are simulated, as EngiOpt's evaluation scripts do. The same sizes, MLP and comparators; a dataset, a
# split, a network and flips of its own.

# %%
def official_configuration():
    rng = np.random.default_rng([seed, 2])
    d = K.make_beams_dataset(P.n_data, NX, NY, seed, progress=progress, **OFFICIAL)
    pm = rng.permutation(P.n_data)
    te, tr = pm[:P.n_test], pm[P.n_test:]
    cd, ds, co = d["conditions"], d["designs"], d["compliance"]
    net, _ = K.fit_conditional_mlp(cd[tr], ds[tr], hidden=P.hidden, epochs=P.epochs, seed=seed)
    src = {"MLP generator": net.generate(cd[te]),
           "nearest neighbour": K.nearest_neighbour_designs(cd[tr], ds[tr], cd[te])}
    src["MLP, projected to the volume"] = np.stack([K.project_to_volume(x, cd[i, 0]) for x, i in
                                                    zip(src["MLP generator"], te)])
    src["mean design, projected"] = np.stack([K.project_to_volume(ds[tr].mean(axis=0), cd[i, 0]) for i in te])
    src = {k: np.clip(v, CLIP, 1) for k, v in src.items()}
    src["MLP, conditioning removed"] = src["MLP generator"][shift]
    out = {"designs": ds, "conditions": cd, "test": te}
    for k, D in src.items():
        ratio = np.array([K.compliance(x, NX, NY, forcedist=cd[i, 2]) for x, i in zip(D, te)]) / co[te]
        err = np.abs(D.mean(axis=(1, 2)) - cd[te, 0])
        its = ([K.simp_optimize(K.topopt_setup(NX, NY, *cd[i]), x0=x)[1]["iterations"] for x, i in zip(D, te)]
               if k != "MLP, projected to the volume" else [np.nan])
        out[k] = dict(ratio=float(np.median(ratio)), viol=float(np.mean(err >= VOL_TOL)),
                      iters=float(np.median(its) / np.median(d["iterations"][te])))
    out["uniform"] = dict(ratio=float(np.median([K.compliance(cd[i, 0] * np.ones((NY, NX)), NX, NY, forcedist=cd[i, 2])
                                                 for i in te] / co[te])))
    flips = {"optimised": ds, "uniform": cd[:, 0][:, None, None] * np.ones((P.n_data, NY, NX)),
             "random solid/void": np.stack([K.random_solid_void_design(vf, NX, NY, rng) for vf in cd[:, 0]])}
    sens = {k: flip_increase(D, rng=rng, conditions=cd) for k, D in flips.items()}
    out["sens"] = {k: float(np.median(v[0])) for k, v in sens.items()}
    # added after the independent review, on their own streams: the uniform design losing the same share of
    # its material as the optimised design, and a hand-made frame with the optimised design's pixel count
    share = sens["optimised"][1].reshape(len(ds), P.flips).mean(axis=1)
    out["sens"]["uniform, same material removed"] = float(np.median(flip_increase(
        flips["uniform"], frac=share, rng=np.random.default_rng([seed, 2, 12]), conditions=cd)[0]))
    fr = np.stack([K.hand_made_frame(vf, NX, NY) for vf in cd[:, 0]])
    out["sens"]["hand-made frame"] = float(np.median(flip_increase(
        fr, rng=np.random.default_rng([seed, 2, 13]), conditions=cd)[0]))
    out["share"] = float(np.median(share))
    out["ratio_frame"] = float(ratio_to_opt(fr, cd, co))
    out["ratio_unif_all"] = float(ratio_to_opt(flips["uniform"], cd, co))
    return out


off = official_configuration()
print(f"{'official ranges':<27}{'median c ratio':>15}{'viol (>=0.01)':>14}{'iterations / uniform':>22}")
for k in ("MLP generator", "MLP, conditioning removed", "nearest neighbour", "MLP, projected to the volume",
          "mean design, projected"):
    print(f"{k:<29}{off[k]['ratio']:>13.3f}{off[k]['viol']:>14.2f}{off[k]['iters']:>22.3f}")
print(f"{'uniform':<27}{off['uniform']['ratio']:>15.3f}")
print("median compliance increase from 1% of solid pixels to void: "
      + ", ".join(f"{k} {v:.3f}" for k, v in off["sens"].items()))

# %%
fig, axes = plt.subplots(1, 4, figsize=(11, 1.6))
for ax, j in zip(axes, range(4)):
    i = off["test"][j]
    ax.imshow(1 - off["designs"][i], cmap="gray", vmin=0, vmax=1, interpolation="nearest")
    ax.set(xticks=[], yticks=[], title=f"vf {off['conditions'][i, 0]:.2f}, rmin {off['conditions'][i, 1]:.1f}",
           xlabel=f"fd {off['conditions'][i, 2]:.2f}")
    ax.title.set_fontsize(8)
    ax.xaxis.label.set_fontsize(8)
fig.suptitle("optimised designs under the official condition ranges (held-out conditions)", fontsize=9)
plt.show()

# %% [markdown]
# ## Against the official code
#
# We read EngiBench's Beams2D problem ([IDEALLab/EngiBench](https://github.com/IDEALLab/EngiBench), commit
# `4952381`, files `engibench/problems/beams2d/backend.py` and `v0.py`) and EngiOpt's metrics
# (`engiopt/metrics.py`) before writing the kernels, and ran the official `simulate` and `optimize` once
# outside this project. `cvxopt` (its sparse Cholesky) is not installed here, so its solve was stubbed with
# SciPy's sparse LU; `gymnasium`'s box, the constraint decorators and the problem base class (with its
# dataset download) were stubbed too; the two Beams2D files ran unchanged. The numbers are kept in
# `tests/papers/golden/engibench-beams2d.json`, and the unit tests `test_golden_*` check ours against them.
# No official code is copied here.
#
# **What agrees.**
#
# - *`simulate`* on seeded random density fields ($12\times6$ and $20\times10$, loads at `forcedist` 0 and
#   0.5), a uniform 0.5 field ($30\times15$) and a solid one ($12\times6$): 751.2245, 286.9539, 372.4468 and
#   42.9742. Ours agree to $10^{-12}$ (relative).
# - *`optimize`* from the uniform start ($30\times15$, volfrac 0.4, rmin 1.5, and $20\times10$, volfrac 0.5,
#   rmin 2, load at mid-span): 59 and 24 iterations, final compliances 130.6259 and 41.5501. Ours take the
#   same number of iterations and agree to $10^{-9}$ at every recorded step: same filter, same chain rule,
#   same clipping of positive sensitivities, same bisection and stopping rule.
#
# **Departures.**
#
# 1. *Load position.* EngiBench puts the load on dof `int(1 + 2 forcedist nelx (nely+1))`. That is the
#    top-edge node at column `forcedist * nelx` only when that number is an integer; otherwise the index
#    walks down the column (the fractional part times the height) and can even be a horizontal dof. At
#    $20\times10$ with `forcedist` 0.52 it is node (column 10, row 4) inside the beam: compliance 280.2760 for
#    the seeded field, against 286.9539 with the load on the top edge. Half of EngiBench's own grid
#    (`forcedist` in steps of 0.05 on a 50-element-long mesh) has a non-integer column. We put the load on the
#    nearest top-edge node (`load_rule="official"` reproduces the official index; the golden test checks both).
# 2. *Linear solver.* CHOLMOD there, LAPACK's banded Cholesky here (the nodes are numbered along the short
#    side, so $K$ is banded); the same solution to rounding.
# 3. *Dataset.* EngiBench's datasets are downloaded from Hugging Face (meshes $50\times25$ to $200\times100$,
#    4851 designs each, a grid of conditions); ours are generated on the page at smaller meshes, on the
#    brief's condition ranges (see the deviations above).
# 4. *Metrics.* EngiOpt reports the mean simulated objective of the generated designs (`iog`), the summed and final
#    optimality gaps of a warm-started `optimize` (`cog`, `fog`, as differences), MMD and DPP (the evaluation
#    scripts pass $\sigma=10$), and `viol`, the share of designs with $|\bar x-\text{volfrac}|\ge0.01$, on
#    designs clipped to $[10^{-3},1]$. We report the gaps as ratios (the designs have different loads and
#    volumes, so differences do not pool), `viol` as EngiOpt defines it (and the mean volume error beside
#    it), MMD and DPP at $\sigma=10$; the clip is applied in the official configuration.

# %%
SENS_TOL = tolerance(rel=0.05, why="median over optimised designs whose OC stopping point can move under other "
                     "rounding")
GAP_TOL = tolerance(rel=0.05, why="end point of Adam training and of OC runs")
VIOL_TOL = tolerance(abs=0.15, why="share of 8 (ci) or 32 (full) trained designs; one design crossing the band "
                     "moves it by 1/8")
WARM_TOL = tolerance(rel=0.15, why="ratio of median iteration counts of OC runs whose stopping iteration can move")
OPT = "the optimisation (a load path laid out by SIMP)"
COND = "conditioning on the target conditions (each held-out condition gets the MLP design of another)"
L_UNIF_M = ("the uniform design with the same conditions (the optimiser's start), losing the same share of its "
            "material as the optimised design")
L_FRAME = "a hand-made frame (flanges, end post, diagonals; no optimisation) with the same pixel count"
L_RAND = ("a random solid/void design with the same volume (salt and pepper: no load path, compliance about 1e8 "
          "times the optimum)")
L_UNIF = ("the uniform design, 1% of its pixels to void (it loses only 1% of its material, a smaller share than "
          "the optimised design)")
L_PROJ = "the MLP's designs shifted in logit space onto the volume budget (viol 0 by construction)"
L_MEAN = "the mean training design (no conditioning), shifted onto each condition's volume"
L_SHIFT = "the MLP design of another held-out condition (conditioning removed)"
L_NN = "nearest-neighbour retrieval of a training design (no learning)"
POST_OFFICIAL = ("added after the page first ran (issue 32, items 7 and 8): the same test on EngiBench's condition "
                 "ranges (volfrac 0.15-0.4, rmin 1.5-4) with EngiOpt's 1e-3 clip of generated designs, a second "
                 "configuration of an official setting that can move the claim; criterion and tolerance as the "
                 "page's test, designed on seeds 0-9")

claims.check("fe-matches-beam-theory", kind="implementation",
             statement="FE compliance of a solid 120 x 10 half beam is within 2% of Timoshenko beam theory",
             paper="EngiBench's Beams2D simulator is the 88-line Q4 plane-stress SIMP model (checked against "
                   "the official simulate in the golden tests)",
             criterion=at_most(0.02), measured=float(fe_err))
claims.test("sensitive-manifold",
            statement="setting 1% of an optimised design's solid pixels to void raises its compliance by a "
                      "median of more than 5%",
            paper="abstract: the design manifolds are highly sensitive and constrained (no number reported)",
            criterion=greater_than(0.05), measured=float(np.median(sens_opt)), tol=SENS_TOL,
            ablation=Comparator(L_UNIF_M, float(np.median(sens_unif_m)), ingredient=OPT),
            baselines=[Comparator(L_RAND, float(np.median(sens_rand))),
                       Comparator(L_FRAME, float(np.median(sens_frame))),
                       Comparator(L_UNIF, float(np.median(sens_unif)))])
claims.test("generator-compliance-gap",
            statement="the MLP generator's designs have a median compliance ratio above 1.05 to the "
                      "optimiser's on held-out conditions",
            paper="abstract: standard ML methods struggle on these problems (EngiOpt's iog/fog; beams2d "
                  "numbers not retrieved)",
            criterion=greater_than(1.05), measured=float(np.median(scores["MLP generator"][0])), tol=GAP_TOL,
            ablation=Comparator(L_SHIFT, float(np.median(shifted[0])), ingredient=COND),
            baselines=[Comparator(L_NN, float(np.median(scores["nearest neighbour"][0])))])
claims.test("generator-volume-violation",
            statement="at least 20% of the MLP generator's designs miss the volume fraction by 0.01 or more "
                      "(EngiOpt's viol)",
            paper="abstract: the design space is constrained; EngiOpt's viol metric",
            criterion=at_least(0.2), measured=viol_frac["MLP generator"], tol=VIOL_TOL,
            ablation=Comparator(L_SHIFT, float(np.mean(shifted[1] >= VOL_TOL)), ingredient=COND),
            baselines=[Comparator(L_NN, viol_frac["nearest neighbour"]),
                       Comparator(L_PROJ, float(np.mean(projected[1] >= VOL_TOL)))])
claims.test("warm-start-helps",
            statement="the optimiser needs at most 0.9 times as many iterations (median) from the MLP designs "
                      "as from the uniform design",
            paper="EngiOpt's warm-start protocol (cog/fog): generated designs as starting points",
            criterion=at_most(0.9), measured=float(np.median(it_mlp) / np.median(it_unif)), tol=WARM_TOL,
            ablation=Comparator(L_SHIFT, float(np.median(it_perm) / np.median(it_unif)), ingredient=COND),
            baselines=[Comparator(L_NN, float(np.median(it_nn) / np.median(it_unif))),
                       Comparator(L_MEAN, float(np.median(it_mean) / np.median(it_unif)))])
claims.test("sensitive-manifold-official", setting="official condition ranges", post_hoc=POST_OFFICIAL,
            statement="official ranges: setting 1% of an optimised design's solid pixels to void raises its "
                      "compliance by a median of more than 5%",
            paper="abstract: the design manifolds are highly sensitive and constrained (no number reported)",
            criterion=greater_than(0.05), measured=off["sens"]["optimised"], tol=SENS_TOL,
            ablation=Comparator(L_UNIF_M, off["sens"]["uniform, same material removed"], ingredient=OPT),
            baselines=[Comparator(L_RAND, off["sens"]["random solid/void"]),
                       Comparator(L_FRAME, off["sens"]["hand-made frame"]),
                       Comparator(L_UNIF, off["sens"]["uniform"])])
claims.test("generator-compliance-gap-official", setting="official condition ranges", post_hoc=POST_OFFICIAL,
            statement="official ranges: the MLP generator's clipped designs have a median compliance ratio above "
                      "1.05 to the optimiser's on held-out conditions",
            paper="abstract: standard ML methods struggle on these problems (EngiOpt's iog/fog)",
            criterion=greater_than(1.05), measured=off["MLP generator"]["ratio"], tol=GAP_TOL,
            ablation=Comparator(L_SHIFT, off["MLP, conditioning removed"]["ratio"], ingredient=COND),
            baselines=[Comparator(L_NN, off["nearest neighbour"]["ratio"])])
claims.test("generator-volume-violation-official", setting="official condition ranges", post_hoc=POST_OFFICIAL,
            statement="official ranges: at least 20% of the MLP generator's clipped designs miss the volume "
                      "fraction by 0.01 or more (EngiOpt's viol)",
            paper="abstract: the design space is constrained; EngiOpt's viol metric",
            criterion=at_least(0.2), measured=off["MLP generator"]["viol"], tol=VIOL_TOL,
            ablation=Comparator(L_SHIFT, off["MLP, conditioning removed"]["viol"], ingredient=COND),
            baselines=[Comparator(L_NN, off["nearest neighbour"]["viol"]),
                       Comparator(L_PROJ, off["MLP, projected to the volume"]["viol"])])
claims.test("warm-start-helps-official", setting="official condition ranges", post_hoc=POST_OFFICIAL,
            statement="official ranges: the optimiser needs at most 0.9 times as many iterations (median) from "
                      "the MLP's clipped designs as from the uniform design",
            paper="EngiOpt's warm-start protocol (cog/fog): generated designs as starting points",
            criterion=at_most(0.9), measured=off["MLP generator"]["iters"], tol=WARM_TOL,
            ablation=Comparator(L_SHIFT, off["MLP, conditioning removed"]["iters"], ingredient=COND),
            baselines=[Comparator(L_NN, off["nearest neighbour"]["iters"]),
                       Comparator(L_MEAN, off["mean design, projected"]["iters"])])
claims.headline("unified-benchmark",
                "EngiBench gives engineering design problems from several domains one interface (simulate, "
                "optimise, check constraints, datasets) so that optimisers and learning methods can be compared "
                "fairly and reproducibly",
                untestable="a software contribution: the interface is re-implemented for one problem and shown "
                           "working, which no measurement of ours could refute")
claims.headline("companion-algorithms",
                "EngiOpt, a companion library of generative and surrogate models, runs on every EngiBench problem",
                untestable="its models (GANs, VAEs, diffusion, VQGAN) and trained checkpoints are not run here; one "
                           "regression generator stands in for the family")
claims.headline("hard-for-ml",
                "the problems are hard for standard machine learning because their design manifolds are highly "
                "sensitive and constrained",
                tests=["sensitive-manifold", "generator-compliance-gap", "generator-volume-violation",
                       "sensitive-manifold-official", "generator-compliance-gap-official",
                       "generator-volume-violation-official"])
claims.check("generator-time-per-design", statement="wall-clock seconds: one MLP design vs one optimiser run",
             paper="a generator amortises the optimiser's cost", criterion=greater_than(1.0),
             measured=float(t_data / P.n_data / max(t_gen, 1e-9)), volatile=True)

for r in claims.results:                                         # every test's values, for the prose
    if r["role"] == "test":
        glue(f"{r['id']}_m", r["measured"], display=False)
        glue(f"{r['id']}_a", r["ablation"]["value"], display=False)
        for k, bl in enumerate(r["baselines"], 1):
            glue(f"{r['id']}_b{k}", bl["value"], display=False)
glue("fe_err", 100 * float(fe_err), display=False)
glue("fe_err_wrong", 100 * float(fe_err_wrong), display=False)
glue("l1_opt", 100 * float(np.median(l1_opt)), display=False)
glue("l2_opt", float(np.median(l2_opt)), display=False)
glue("sens_max", 100 * float(np.max(sens_opt)), display=False)
glue("unif_ratio", float(np.median(scores["uniform"][0])), display=False)
glue("refined_ratio", float(np.median(scores["MLP + optimiser"][0])), display=False)
glue("refined_viol", viol_frac["MLP + optimiser"], display=False)
glue("mlp_worst", float(np.max(scores["MLP generator"][0])), display=False)
glue("n_viol", int(np.sum(scores["MLP generator"][1] >= VOL_TOL)), display=False)
glue("n_test", int(len(test)), display=False)
glue("it_mlp", float(np.median(it_mlp)), display=False)
glue("it_unif", float(np.median(it_unif)), display=False)
glue("clip_ratio", float(np.median(clipped[0])), display=False)
glue("clip_viol", float(np.mean(clipped[1] >= VOL_TOL)), display=False)
glue("off_unif_ratio", off["uniform"]["ratio"], display=False)
glue("share_opt", 100 * float(np.median(share_opt)), display=False)
glue("share_opt_off", 100 * off["share"], display=False)
glue("l1_unif", 100 * float(np.median(l1_unif)), display=False)
glue("ratio_frame", float(ratio_frame), display=False)
glue("ratio_frame_off", off["ratio_frame"], display=False)
glue("ratio_rand", float(ratio_rand), display=False)
glue("ratio_unif_all", float(ratio_unif_all), display=False)
glue("ratio_unif_all_off", off["ratio_unif_all"], display=False)
glue("sens_gap", float(np.median(sens_opt) / np.median(sens_unif_m)), display=False)
glue("proj_ratio", float(np.median(projected[0])), display=False)
glue("proj_ratio_off", off["MLP, projected to the volume"]["ratio"], display=False)
glue("mean_ratio", float(np.median(score(mean_start)[0])), display=False)
glue("mmd_mlp", K.mmd(gen["MLP generator"], ref, SIGMA), display=False)
glue("mmd_nn", K.mmd(gen["nearest neighbour"], ref, SIGMA), display=False)
glue("dpp_mlp", K.dpp_diversity(gen["MLP generator"], SIGMA), display=False)
glue("dpp_nn", K.dpp_diversity(gen["nearest neighbour"], SIGMA), display=False)
glue("dpp_mlp_s1", K.dpp_diversity(gen["MLP generator"], 1.0), display=False)


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
# The simulator and optimiser are EngiBench's: they reproduce the official `simulate` and `optimize`
# (golden tests), and a solid slender beam comes within {glue:text}`fe_err:.1f` % of Timoshenko beam theory
# (a plane-strain element is {glue:text}`fe_err_wrong:.1f` % off). That is a check of our code, not of the
# paper, and it is not counted.
#
# * *Sensitive manifold* ({repro-status}`sensitive-manifold`, pre-registered). Removing 1% of the solid
#   pixels of an optimised design raises its compliance by a median of {glue:text}`sensitive-manifold_m:.3f`
#   (relative); those pixels are {glue:text}`share_opt:.1f` % of its material. The uniform design losing the
#   same share of its material rises by {glue:text}`sensitive-manifold_a:.3f`, and a hand-made frame of the same
#   pixel count, laid out without any optimisation and {glue:text}`ratio_frame:.1f` times less stiff than the
#   optimum, by {glue:text}`sensitive-manifold_b2:.3f`. Over the ci sweep the method passes the 5% bar at
#   {repro-seeds}`sensitive-manifold:method:pass` seeds, the matched uniform design at
#   {repro-seeds}`sensitive-manifold:ablation:pass` and the frame at
#   {repro-seeds}`sensitive-manifold:baseline2:pass`: the bar does not need the optimisation. The two comparators
#   first registered lose by construction and are kept only as context: the uniform design losing 1% of its
#   pixels (only {glue:text}`l1_unif:.1f` % of its material) rises by {glue:text}`sensitive-manifold_b3:.3f`,
#   and a random solid/void design, which has no load path (compliance {glue:text}`ratio_rand:.2g` times the
#   optimum), by {glue:text}`sensitive-manifold_b1:.3f`. What the test does see is a difference of degree: the
#   optimised design's increase is {glue:text}`sens_gap:.1f` times the matched uniform design's. Under the
#   official condition ranges ({repro-status}`sensitive-manifold-official`, post hoc) the optimised design rises
#   by {glue:text}`sensitive-manifold-official_m:.3f`, the matched uniform design by
#   {glue:text}`sensitive-manifold-official_a:.3f` and the frame by {glue:text}`sensitive-manifold-official_b2:.3f`.
#   Part of the larger increase there is the flip rule itself: at volume fractions down to $0.15$ the same 1% of
#   pixels is {glue:text}`share_opt_off:.1f` % of the material, and the matched uniform design rises more as well.
#   At these volumes our frame cannot close (too few pixels for both flanges and the end post) and its
#   compliance is {glue:text}`ratio_frame_off:.3g` times the optimum.
# * *The generator falls short of the optimiser* ({repro-status}`generator-compliance-gap`). The MLP's
#   designs have a median compliance {glue:text}`generator-compliance-gap_m:.2f` times the optimiser's, but
#   the MLP without its conditioning ({glue:text}`generator-compliance-gap_a:.2f`) and plain retrieval of a
#   training design ({glue:text}`generator-compliance-gap_b1:.2f`) fall short too, at this seed and at
#   {repro-seeds}`generator-compliance-gap:baseline1:pass` ci seeds for retrieval. The gap is real (the
#   uniform design is {glue:text}`unif_ratio:.1f` times worse, and the optimiser closes it from the MLP's
#   start: {glue:text}`refined_ratio:.3f`), but nothing here says the learned map is what fails: in our
#   miniature every data-driven guess without the optimiser is far from optimal. Under the official ranges:
#   {glue:text}`generator-compliance-gap-official_m:.2f` for the MLP,
#   {glue:text}`generator-compliance-gap-official_a:.2f` without conditioning and
#   {glue:text}`generator-compliance-gap-official_b1:.2f` for retrieval
#   ({repro-status}`generator-compliance-gap-official`, post hoc).
# * *The generator misses the volume budget* ({repro-status}`generator-volume-violation`).
#   {glue:text}`n_viol` of {glue:text}`n_test` MLP designs (share {glue:text}`generator-volume-violation_m:.3f`)
#   miss the volume fraction by $0.01$ or more; without conditioning the share is
#   {glue:text}`generator-volume-violation_a:.3f` and for retrieval {glue:text}`generator-volume-violation_b1:.3f`.
#   A regression on the densities is not constrained to meet the budget, and neither is a retrieved design for
#   other conditions; a one-line logit shift of the MLP's output onto the volume meets it exactly (share
#   {glue:text}`generator-volume-violation_b2:.3f`) at a median compliance ratio of {glue:text}`proj_ratio:.2f`
#   (official ranges {glue:text}`proj_ratio_off:.2f`), so the missed budget is not what makes the designs
#   worse. Official ranges: {glue:text}`generator-volume-violation-official_m:.3f`,
#   {glue:text}`generator-volume-violation-official_a:.3f`, {glue:text}`generator-volume-violation-official_b1:.3f`
#   ({repro-status}`generator-volume-violation-official`, post hoc).
# * *Warm starts* ({repro-status}`warm-start-helps`). From the MLP's designs the optimiser needs
#   {glue:text}`warm-start-helps_m:.2f` times the iterations of the uniform start (median
#   {glue:text}`it_mlp:.0f` against {glue:text}`it_unif:.0f`), from the MLP design of another condition
#   {glue:text}`warm-start-helps_a:.2f` times and from a retrieved design {glue:text}`warm-start-helps_b1:.2f`
#   times; from the mean training design shifted onto the volume (no conditioning at all)
#   {glue:text}`warm-start-helps_b2:.2f` times. The method passes at {repro-seeds}`warm-start-helps:method:pass`
#   ci seeds and sits within the 15% band of the bar at {repro-seeds}`warm-start-helps:method:edge`; the test
#   fails mainly because the MLP's own saving is small and unstable, not because a comparator matches it.
#   Retrieval passes at {repro-seeds}`warm-start-helps:baseline1:pass` seeds and the shifted mean design at
#   {repro-seeds}`warm-start-helps:baseline2:pass`. Official ranges: {glue:text}`warm-start-helps-official_m:.2f`,
#   {glue:text}`warm-start-helps-official_a:.2f`, {glue:text}`warm-start-helps-official_b1:.2f` and
#   {glue:text}`warm-start-helps-official_b2:.2f` ({repro-status}`warm-start-helps-official`, post hoc).
#
# The paper's third headline, that these problems are hard for standard learning because the design
# manifold is sensitive and constrained, is not supported by any test that could single it out here. A few
# pixels do cost a lot of stiffness in an optimised design, but the 5% bar is also met by a hand-made frame
# with no optimisation (at {repro-seeds}`sensitive-manifold:baseline2:pass` ci seeds) and, in part, by the
# uniform design losing as much material (at {repro-seeds}`sensitive-manifold:ablation:pass`, and at
# {repro-seeds}`sensitive-manifold-official:ablation:pass` under the official ranges), so the sensitivity is
# not specific to the optimised manifold at this bar; the optimised designs are only more sensitive in degree.
# The shortfall of the generator in objective and budget is shared by a generator without conditioning and
# by retrieval, so it does not single out learning, and the budget is met by a one-line projection. The other two headlines (the library
# and its companion) are software, not claims a measurement here can refute.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page, the
# record and the brief. They re-created the page's streams on ci seeds 0-9, re-ran the sensitivity test with
# seven further designs under the same flip rule, and ran naive sources against the generator and warm-start
# tests (seeds 0-6). The comparators they found to matter are now measured by this notebook (seed 0 below; the
# ci sweep counts are from the record):
#
# * **The uniform design losing as much material as the optimised one** (now the sensitivity test's
#   ablation): {glue:text}`sensitive-manifold_a:.3f` against {glue:text}`sensitive-manifold_m:.3f` (official
#   ranges {glue:text}`sensitive-manifold-official_a:.3f` against {glue:text}`sensitive-manifold-official_m:.3f`);
#   it passes the 5% bar at {repro-seeds}`sensitive-manifold:ablation:pass` ci seeds
#   ({repro-seeds}`sensitive-manifold-official:ablation:pass` official). The first registered ablation lost
#   1% of the uniform design's material against {glue:text}`share_opt:.1f` % of the optimised design's. (The
#   reviewer matched the pixel count divided by the design's total density, an upper bound on what is removed,
#   since a flipped pixel need only be half solid; the page matches the density actually removed, which is
#   why its matched design passes at fewer seeds than the reviewer's did.) The SIMP
#   law alone explains most of it: a uniform loss of a share $\ell$ of the material raises the compliance by
#   about $3\ell$.
# * **A hand-made frame of the same pixel count** (now a baseline): {glue:text}`sensitive-manifold_b2:.3f`,
#   passing at {repro-seeds}`sensitive-manifold:baseline2:pass` ci seeds
#   ({repro-seeds}`sensitive-manifold-official:baseline2:pass` official), although it is
#   {glue:text}`ratio_frame:.1f` times less stiff than the optimum (the uniform design:
#   {glue:text}`ratio_unif_all:.1f` times). A load path, laid out by hand or by SIMP, is enough to meet the bar.
# * **The random solid/void design** was the only first-registered baseline; its compliance is
#   {glue:text}`ratio_rand:.2g` times the optimum, so its stiffness is void material and removing solid pixels
#   barely changes it ({glue:text}`sensitive-manifold_b1:.3f`). It shows only that a design with no load path
#   is insensitive, not that solid/void material is.
# * **The MLP projected onto the volume** (a logit shift; now a baseline of the volume test): no design misses
#   the budget, at a median compliance ratio {glue:text}`proj_ratio:.2f` against
#   {glue:text}`generator-compliance-gap_m:.2f` unprojected.
# * **The mean training design shifted onto the volume** as a warm start (now a baseline of the warm-start
#   test): {glue:text}`warm-start-helps_b2:.2f` times the uniform start's iterations, against
#   {glue:text}`warm-start-helps_m:.2f` for the MLP; it passes the test's bar at
#   {repro-seeds}`warm-start-helps:baseline2:pass` ci seeds. Its compliance ratio before the optimiser is
#   {glue:text}`mean_ratio:.2f`.
# * **Retrieval** (the training design with the nearest conditions) against every generator test: compliance
#   ratio {glue:text}`generator-compliance-gap_b1:.2f`, volume misses {glue:text}`generator-volume-violation_b1:.3f`,
#   iteration ratio {glue:text}`warm-start-helps_b1:.2f`. Over the ci sweep it passes the generator tests'
#   bars at {repro-seeds}`generator-compliance-gap:baseline1:pass`,
#   {repro-seeds}`generator-volume-violation:baseline1:pass` and
#   {repro-seeds}`warm-start-helps:baseline1:pass` seeds; wherever it passes, the test is not specific to the
#   learned generator.
# * **The MLP without its conditioning** (each condition gets another's design): compliance ratio
#   {glue:text}`generator-compliance-gap_a:.2f`, volume misses {glue:text}`generator-volume-violation_a:.3f`,
#   iteration ratio {glue:text}`warm-start-helps_a:.2f`.
# * **EngiOpt's clip** on the page's own configuration: the clipped MLP designs have a median compliance
#   ratio {glue:text}`clip_ratio:.2f` and a volume-miss share {glue:text}`clip_viol:.3f` (unclipped
#   {glue:text}`generator-compliance-gap_m:.2f` and {glue:text}`generator-volume-violation_m:.3f`).
# * **The metrics' kernel width.** At EngiOpt's $\sigma=10$ the MMD to the optimised designs is
#   {glue:text}`mmd_mlp:.3f` for the MLP and {glue:text}`mmd_nn:.3f` for retrieval, the DPP diversity
#   {glue:text}`dpp_mlp:.3g` and {glue:text}`dpp_nn:.3g`; at $\sigma=1$ the MLP's DPP diversity is
#   {glue:text}`dpp_mlp_s1:.3g`, saturated. The page's earlier critique of $\sigma=1$ was aimed at a width
#   the evaluation scripts do not use.
#
# The reviewer also found, and this page does not measure: a leave-one-out retrieved optimised design, the
# optimised design blurred (grey, same layout) and the MLP's own grey designs meet the 5% bar as well, while
# only structures with no connected path (salt and pepper, thresholded random blobs) miss it. Not tried by
# anyone: a stronger generator, and a larger training set at ci. A test of the difference of degree (the
# optimised design more sensitive than a matched non-optimised one by a factor the paper would name) was
# not added: the paper gives no such factor.
#
# ## What the miniature cannot show
#
# * The benchmark's breadth: its other problems (photonics, airfoils, heat conduction in 2-D and 3-D,
#   thermoelasticity, power electronics) need simulators or datasets we do not have offline, and the
#   paper's conclusion is about all of them.
# * The paper's numbers: its beams2d table and the EngiOpt models it compares (GANs, VAEs, diffusion,
#   VQGAN) were not available to us; we test one regression generator, its ablation and retrieval.
# * Scale: EngiBench's datasets hold 4851 designs per resolution at $50\times25$ to $200\times100$; ours
#   24 (ci) or 160 (full) at $30\times15$ or $60\times30$, drawn uniformly over the brief's ranges (the
#   page's configuration) or over the box of the official grid (the second configuration), not on the grid.
#   Whether a generator trained on thousands of designs separates from retrieval is the question the paper's
#   table answers and ours cannot. Even the generator's shortfall may not survive more data: the full-scale
#   run of the page's earlier version, with 128 training designs, found the MLP's median compliance within 5%
#   of the optimiser's at its seed. That record predates the current tests and is to be re-run; no full-scale
#   number is quoted here.
# * The overhang (additive-manufacturing) constraint of Beams2D, which is off by default and not
#   implemented here.
