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
# # Rotation- and scale-equivariant CNNs against FGSM and PGD
#
# *Building rotation- and scale-equivariant convolutions into a CNN, beside or before ordinary ones, is
# claimed to make it harder to attack, with no adversarial training.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
import torch
from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, tolerance
from repro.papers import equivariant_adv_robustness as K
from repro.plotting import use_style
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # 6 models x 3 training seeds, 4 epochs each; attacks at the claims' budget only (the pre-registered ci run
    # also attacked at 0.05 for its figure; see SKIP_EPS)
    "ci": dict(n_seeds=3, n_train=600, epochs=4, n_eval=100, eps=(0.1,), skip_eps=(0.05,), n_clever=20,
               clever_samples=5),
    "full": dict(n_seeds=3, n_train=1200, epochs=8, n_eval=300, eps=(0.02, 0.05, 0.1, 0.2), skip_eps=(),
                 n_clever=50, clever_samples=20),
})
SIZE = 8                  # scikit-learn's digits at their own 8x8 resolution
EPS_CLAIM = 0.1           # the brief's L-infinity budget for the claims (pixel range [0, 1])
PGD_STEPS = 10            # PGD-10, step eps / 4, random start
WIDTH = 8                 # first-layer width of the parallel and cascaded models
SEEDS = [P.seed * P.n_seeds + k for k in range(P.n_seeds)]   # disjoint seed sets across notebook seeds
# added when the page gained its comparators (issue 32), fixed before they were run:
NOISE_SIGMA = EPS_CLAIM   # the naive baseline's training noise: Gaussian, of the size of the attack budget (not tuned)
use_style()
claims = Claims("equivariant-adv-robustness",
                title="Bridging Symmetry and Robustness: On the Role of Equivariance in Enhancing Adversarial "
                      "Robustness",
                authors="Longwei Wang, Ifrat Ikhtear Uddin, KC Santosh, Chaowei Zhang, Xiao Qin, Yang Zhou",
                paper_url="https://openreview.net/forum?id=xDxskDUvte", scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# Adversarial training is the usual defence against small worst-case input perturbations, and it is
# expensive. The paper asks whether architecture alone can help. It adds group-equivariant convolutions for
# rotations and scales to a standard CNN, in two designs. In the **parallel** design, standard, rotation and
# scale branches see the image side by side and their features are concatenated. In the **cascaded** design,
# equivariant layers come first and standard ones follow. Trained normally, on clean data only, both are
# reported to resist FGSM and PGD better than a standard CNN, on CIFAR-10, CIFAR-100 and CIFAR-10C. The
# theory says the symmetry constraint shrinks the hypothesis class and regularises the input gradients, and so
# tightens the CLEVER robustness bound, which is a margin divided by a local Lipschitz constant.
# **No number from the paper could be retrieved** (abstract and secondary summaries only; no official code).
# So this page checks directions, with the brief's thresholds.
#
# The paper's headline claims, in our words, and where they are tested:
#
# 1. *Equivariant CNNs trained on clean data resist FGSM and PGD better than standard CNNs*: tested for the
#    parallel design (`parallel-pgd-gain`, `parallel-fgsm-gain`) and, post hoc, for the cascaded one
#    (`cascaded-pgd-gain`).
# 2. *They also generalise better, on CIFAR-10, CIFAR-100 and CIFAR-10C*: not testable here (no CIFAR offline;
#    on 8×8 digits every model is near its ceiling). The page only shows that the parallel model keeps its
#    clean accuracy (`parallel-clean-kept`, an illustration).
# 3. *The symmetry lowers hypothesis complexity, regularises input gradients and tightens the CLEVER bound*:
#    the gradient part is tested (`parallel-smaller-gradients`, `cascaded-smaller-gradients`); complexity and
#    the bound itself are not.
#
# ## The method
#
# For the rotation group $C_4 = \{0°, 90°, 180°, 270°\}$, a **lifting convolution** correlates the image with a
# kernel $\psi$ in all four orientations, $[f\star\psi](r, x) = \sum_y f(y)\,\psi(\rho_r^{-1}(y-x))$, which
# gives a feature map with a group axis $r$. A **group convolution** then correlates such maps with kernels
# $\Psi(s, \cdot)$ that also rotate and cyclically shift along the group axis:
#
# $$[F\star\Psi](r, x) = \sum_{s\in C_4}\sum_y F(s, y)\,\Psi\big(s - r,\ \rho_r^{-1}(y - x)\big).$$
#
# Rotating the input by 90° rotates every output map and shifts $r$ by one, exactly. We build this with
# `torch.rot90` on the kernels (`K.C4LiftingConv`, `K.C4GroupConv`; `escnn` does not install here). Averaging
# over space and taking the maximum over $r$ gives features that do not change under 90° rotations
# (`K.C4InvariantCNN`). The **scale** layer (`K.ScaleConv2d`) applies one kernel at dilations 1 and 2 and
# keeps the larger response, so a pattern and its 2× enlargement excite the same weights.
#
# The attacks are **FGSM**, $x' = \mathrm{clip}_{[0,1]}(x + \epsilon\,\mathrm{sign}\,\nabla_x \ell)$, and
# **PGD-10**: a random start in the $L_\infty$ ball, then 10 sign steps of size $\epsilon/4$, each projected
# back onto the ball and $[0,1]$. For the **CLEVER-style estimate** we use the margin
# $g(x) = f_y(x) - \max_{j\ne y} f_j(x)$. The score is $g(x_0)/\hat L$, where
# $\hat L = \max_j \|\nabla g(x_j)\|_1$ is taken over the centre and points drawn uniformly in the
# $\epsilon$-ball ($L_1$ is the dual norm of $L_\infty$). It is a first-order guess at the smallest $L_\infty$
# perturbation that flips the prediction; the paper's extreme-value fit is left out (`K.clever_lite`). We also
# report the mean of $\|\nabla_x g\|_1$ at the clean test points, the "gradient regularisation" of the theory.
#
# ## The experiment
#
# Data: scikit-learn's 8×8 digits scaled to [0, 1], with a random split per seed (600 or 1200 training
# images; the test split is the rest of the 1797). Every model is trained the same way: cross-entropy, Adam
# (step 10⁻², batch 64), the same epochs and batches, no adversarial examples. The models, all with batch
# norm, ReLU and a linear head on globally pooled features:
#
# * **standard CNN**: three 3×3 convolutions (widths $w, 2w, 2w$) with one 2×2 max-pool. $w$ is chosen so
#   that its parameter count is closest to the parallel model's: the brief's "standard CNN of similar size".
#   Every test measures a model *against* this one;
# * **parallel** (the paper's method): a standard branch (width 8) ‖ a $C_4$ branch (lifting + two group
#   convolutions, 4 channels per rotation) ‖ a scale branch (two scale convolutions, 8 channels), concatenated;
# * **parallel, equivariance off** (its ablation): the same three-branch design with the $C_4$ branch replaced by
#   a plain CNN branch of similar size, and the scale branch at dilation 1 only (the same weights, no maximum
#   over scales). If the gains come from the symmetry, this model should not have them;
# * **cascaded** (the paper's method): $C_4$ lifting + group convolution, max over rotations, then a scale
#   convolution and a standard convolution;
# * **cascaded, equivariance off** (its ablation, added with the comparators): the same cascade with plain
#   3×3 convolutions ($1\to 4w\to w$, the group convolution's input width kept) in place of the lifting and
#   group convolutions, no maximum over rotations, and the scale convolution at dilation 1 only;
# * **standard CNN + noise** (the naive baseline, added with the comparators): the standard CNN trained on
#   images with Gaussian noise of standard deviation $\sigma=\epsilon$ added (clipped to [0, 1]). Noise
#   augmentation is the cheapest defence a skeptic reaches for, it uses none of the paper's ideas, and it pays
#   no cost by construction: it is trained as long as the others, on the same batches.
#
# Attacks (FGSM and PGD-10) run on the first `n_eval` test images of each seed, at every budget $\epsilon$ of
# the preset; the tests use $\epsilon = 0.1$. The CLEVER-style score runs on the first `n_clever` test images.
# The fully $C_4$-invariant CNN of the page's first version (`K.C4InvariantCNN`, which cannot tell 6 from 9) was
# the control of the clean-accuracy claim only; it is gone with that claim's role (see the verdict), and it is
# kept in the unit tests.
#
# | preset | seeds | training images | epochs | attacked images | ε | CLEVER samples |
# |---|---|---|---|---|---|---|
# | ci | 3 | 600 | 4 | 100 | 0.1 | 5 per image, 20 images |
# | full | 3 | 1200 | 8 | 300 | 0.02, 0.05, 0.1, 0.2 | 20 per image, 50 images |
#
# The ci preset is the page's first ci run, unchanged for the tests: it attacked at ε = 0.05 as well, for
# its figure only. That attack is now left out to fit the ci budget, and its random start is drawn and
# discarded, so that the attack at ε = 0.1 sees the same start as before and the pre-registered values repeat.
#
# **Deviations from the paper**
#
# * Data: 8×8 digits instead of CIFAR-10/100 and CIFAR-10C; no corruption benchmark. The brief suggested
#   upsampling to 16×16; we stay at 8×8 so that six models × several seeds fit the ci budget.
# * Models: tiny CNNs of {glue:text}`n_params_min:,` to {glue:text}`n_params_max:,` parameters (results table),
#   instead of the paper's networks and below the brief's suggested size of about 20-40 thousand. The size was
#   cut so that six models, three training seeds each, fit the ci budget of about ten seconds on one thread.
#   Size matters here: the independent review found a plain CNN four times wider more robust under attack than
#   the page's equivariant models (see "What a skeptic would try"), so the comparisons hold only at this matched, small size;
#   the $C_4$ group only (no $C_8$ or continuous rotations); our scale layer is a shared kernel at two
#   dilations, not the paper's scale-equivariant layer, whose exact form was not available.
# * Attacks: our own FGSM and PGD-10 (step ε/4, one random start), with budgets chosen by us; the paper's
#   budgets were not found.
# * CLEVER: sampled maximum of gradient norms without the reverse-Weibull fit, on a few images.
# * Training: a few epochs of Adam, no learning-rate schedule, no data augmentation (except the naive
#   baseline's noise); batch-norm statistics re-estimated with the final weights (a short run leaves the running
#   averages behind the weights).
# * No official code was found, so no setting of the paper's could be run as a second configuration.

# %%
data = {s: K.digits_images(SIZE, seed=s, n_train=P.n_train) for s in SEEDS}
torch.manual_seed(0)
par_params = K.n_parameters(K.ParallelEquivCNN(width=WIDTH))
W_STD = min(range(4, 40), key=lambda w: abs(K.n_parameters(K.StandardCNN(width=w)) - par_params))
MODELS = {  # name: (constructor, training augmentation)
    "standard CNN": (lambda: K.StandardCNN(width=W_STD), None),
    "parallel (equivariant)": (lambda: K.ParallelEquivCNN(width=WIDTH), None),
    "parallel, equivariance off (ablation)": (lambda: K.ParallelEquivCNN(width=WIDTH, equivariant=False), None),
    "cascaded (equivariant)": (lambda: K.CascadedEquivCNN(width=WIDTH), None),
    "cascaded, equivariance off (ablation)": (lambda: K.CascadedEquivCNN(width=WIDTH, equivariant=False), None),
    "standard CNN + noise (baseline)": (lambda: K.StandardCNN(width=W_STD), K.noise_augment(NOISE_SIGMA)),
}
STD, PAR, OFF, CAS, CAS_OFF, NOISE = list(MODELS)
torch.manual_seed(0)
n_params = {name: K.n_parameters(make()) for name, (make, _) in MODELS.items()}

res = {name: {} for name in MODELS}
for s in progress(SEEDS, desc="seeds"):
    Xtr, ytr, Xte, yte = data[s]
    Xe, ye = Xte[:P.n_eval], yte[:P.n_eval]
    for name, (make, augment) in MODELS.items():
        torch.manual_seed(s)
        model = make()
        K.train_classifier(model, Xtr, ytr, epochs=P.epochs, seed=s, lr=1e-2, augment=augment)
        gen = torch.Generator().manual_seed(1000 + s)
        r = {"clean": K.accuracy(model, Xte, yte), "rot90": K.accuracy(model, K.rot90(Xe), ye),
             "clean_eval": K.accuracy(model, Xe, ye), "fgsm": [], "pgd": []}
        for _ in P.skip_eps:  # the random start of the pre-registered run's attack at that budget, discarded
            torch.rand(Xe.shape, generator=gen)
        for eps in P.eps:
            r["fgsm"].append(K.accuracy(model, K.fgsm(model, Xe, ye, eps), ye))
            r["pgd"].append(K.accuracy(model, K.pgd(model, Xe, ye, eps, eps / 4, PGD_STEPS, gen), ye))
        r["grad"] = float(K.input_gradient_norm(model, Xe, ye).mean())
        if name == STD:  # the same network with its logits halved: same predictions, attacks and CLEVER score
            r["grad_half"] = float(K.input_gradient_norm(lambda x: 0.5 * model(x), Xe, ye).mean())
        Xc, yc = Xte[:P.n_clever], yte[:P.n_clever]
        score, lip = K.clever_lite(model, Xc, yc, EPS_CLAIM, P.clever_samples, gen)
        r["clever"] = float(score.clamp_min(0).median())
        r["lip"] = float(lip.median())
        res[name][s] = r


def stat(name, key, i=None):
    """Per-seed values of one measurement: array (seeds,)."""
    return np.array([res[name][s][key] if i is None else res[name][s][key][i] for s in SEEDS])


i_claim = list(P.eps).index(EPS_CLAIM)

# %% [markdown]
# ## Results
#
# **Accuracy under attack.** Each panel shows test accuracy on the attacked images against the $L_\infty$
# budget (pixel range [0, 1]), mean ± sd over training seeds; FGSM on the left, PGD-10 on the right. At
# $\epsilon = 0$ the curves start from clean accuracy. At ci the only budget is the tests' one; the full
# preset draws the whole curve. Dashed lines are the comparators.

# %%
eps_axis = np.array((0.0,) + tuple(P.eps))
colors = {STD: "C0", PAR: "C1", OFF: "C1", CAS: "C2", CAS_OFF: "C2", NOISE: "C3"}
dashed = (OFF, CAS_OFF, NOISE)
fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
for ax, attack in zip(axes, ("fgsm", "pgd")):
    for name in MODELS:
        curve = np.array([[res[name][s]["clean_eval"]] + res[name][s][attack] for s in SEEDS]) * 100
        m, sd = curve.mean(0), curve.std(0, ddof=1)
        ax.errorbar(eps_axis, m, yerr=sd, marker="o", ms=3, capsize=2, color=colors[name],
                    ls="--" if name in dashed else "-", label=f"{name} ({n_params[name]:,} params)")
    ax.axvline(EPS_CLAIM, color="k", ls=":", lw=1)
    ax.set_xlabel("$L_\\infty$ budget ε (pixel range [0, 1])")
    ax.set_title({"fgsm": "FGSM", "pgd": f"PGD-{PGD_STEPS}, step ε/4"}[attack], fontsize=10)
axes[0].set_ylabel("accuracy under attack (%)")
axes[1].legend(fontsize=7)
plt.show()

# %% [markdown]
# **Gradients and the CLEVER-style score.** The left panel shows the mean $L_1$ norm of the input gradient of
# the class margin at clean test images; a smaller norm means the logits move less per unit of perturbation.
# The right panel shows the median CLEVER-style score, margin over the sampled local Lipschitz constant:
# the estimated $L_\infty$ distance to the decision boundary. Dots are training seeds; bars are means.

# %%
SHORT = {STD: "standard", PAR: "parallel", OFF: "parallel,\nequiv. off", CAS: "cascaded",
         CAS_OFF: "cascaded,\nequiv. off", NOISE: "standard\n+ noise"}
fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
names = list(MODELS)
for ax, key, ylabel in ((axes[0], "grad", "mean $\\|\\nabla_x g\\|_1$ at clean inputs (logit units)"),
                        (axes[1], "clever", "median CLEVER-style score (ε units)")):
    for j, name in enumerate(names):
        v = stat(name, key)
        ax.bar(j, v.mean(), color=colors[name], alpha=0.35 if name in dashed else 0.7)
        ax.plot(np.full(len(v), j), v, "k.", ms=5)
    ax.set_xticks(range(len(names)), [SHORT[n] for n in names], fontsize=8)
    ax.set_ylabel(ylabel)
plt.show()

# %% [markdown]
# **The numbers**, mean ± sd over training seeds. Accuracies are in %, attacks at the tests' budget; "rot 90°"
# is clean accuracy on the attacked test images rotated by 90°.

# %%
def fmt(v, factor=100.0, nd=1):
    """mean ± sd over seeds, times factor."""
    return f"{v.mean() * factor:.{nd}f} ± {v.std(ddof=1) * factor:.{nd}f}"


print(f"{'model':38s} {'params':>7s} {'clean':>12s} {'rot 90°':>12s} {'FGSM':>12s} {'PGD-10':>12s} "
      f"{'grad L1':>12s} {'CLEVER':>14s}")
for name in MODELS:
    print(f"{name:38s} {n_params[name]:7d} {fmt(stat(name, 'clean')):>12s} {fmt(stat(name, 'rot90')):>12s} "
          f"{fmt(stat(name, 'fgsm', i_claim)):>12s} {fmt(stat(name, 'pgd', i_claim)):>12s} "
          f"{fmt(stat(name, 'grad'), 1, 2):>12s} {fmt(stat(name, 'clever'), 1, 4):>14s}")
print(f"({len(SEEDS)} seeds {SEEDS}; {P.epochs} epochs; attacks on {P.n_eval} test images; standard width {W_STD})")

# %% [markdown]
# ### The paper's numbers beside ours
#
# None could be retrieved:
#
# | quantity | paper (setting) | ours (setting) |
# |---|---|---|
# | PGD / FGSM accuracy, parallel vs standard CNN | "clearly better" (secondary summary; CIFAR-10/100; budgets not found) | table above (8×8 digits, ε = 0.1) |
# | CLEVER bound | "tighter" (theory; no number) | CLEVER-style score above |
# | clean accuracy | "improves generalisation" (no number) | table above |

# %% [markdown]
# ## Checking the claims
#
# Every test compares a model with the standard CNN trained on the same seed, and records the same difference
# (or ratio) for the test's ablation and for the naive baseline. Thresholds and tolerances are the page's first
# ones, set from the brief before the first run.

# %%
def diff(key, i=None):
    """Mean over training seeds of (model - standard CNN), for every model."""
    return {n: float((stat(n, key, i) - stat(STD, key, i)).mean()) for n in MODELS}


d_pgd, d_fgsm, d_clean = diff("pgd", i_claim), diff("fgsm", i_claim), diff("clean")
grad_ratio = {n: float(stat(n, "grad").mean() / stat(STD, "grad").mean()) for n in MODELS}
clever_ratio = {n: float(stat(n, "clever").mean() / stat(STD, "clever").mean()) for n in MODELS}
ACC_TOL = tolerance(abs=0.04, why="accuracy after a few epochs of Adam on 100-300 attacked images")
GRAD_TOL = tolerance(rel=0.1, why="gradient norms of a trained network; end point of Adam")
SYMMETRY = "the rotation and scale symmetry: C4 lifting and group convolutions (max over rotations) and the max over dilations"
ABL_PAR = "parallel design, equivariance off"
ABL_CAS = "cascaded design, equivariance off"
NOISE_LABEL = f"standard CNN trained with Gaussian noise (sd {NOISE_SIGMA})"


def comparators(values, abl, abl_label, what):
    """The ablation and the naive baseline of a test, under the test's own measurement."""
    return dict(ablation=Comparator(f"{abl_label}, {what}", values[abl], ingredient=SYMMETRY),
                baselines=[Comparator(f"{NOISE_LABEL}, {what}", values[NOISE])])


claims.headline("robust-without-adversarial-training",
                "Parallel and cascaded equivariant CNNs, trained on clean data only, resist FGSM and PGD better "
                "than standard CNNs",
                tests=["parallel-pgd-gain", "parallel-fgsm-gain", "cascaded-pgd-gain"])
claims.headline("better-generalisation",
                "The equivariant designs also generalise better, on CIFAR-10, CIFAR-100 and CIFAR-10C",
                untestable="CIFAR-10, CIFAR-100 and CIFAR-10C cannot be had offline here, and on 8x8 digits every "
                           "model is near its clean-accuracy ceiling; the page only illustrates that the parallel "
                           "model keeps its clean accuracy (parallel-clean-kept)")
claims.headline("gradient-regularisation",
                "The symmetry constraint regularises input gradients",
                tests=["parallel-smaller-gradients", "cascaded-smaller-gradients"])
claims.headline("complexity-and-clever-bound",
                "The symmetry constraint lowers hypothesis complexity and tightens CLEVER robustness bounds",
                untestable="hypothesis complexity is a theoretical quantity with no measurement on this page, and "
                           "the CLEVER bound needs the paper's reverse-Weibull estimate on its networks; the page "
                           "only shows a sampled CLEVER-style score relative to the standard CNN, untested")

claims.test("parallel-pgd-gain",
            statement=f"PGD-{PGD_STEPS} accuracy at ε = {EPS_CLAIM}: the parallel equivariant model beats the "
                      "standard CNN of similar size by at least 3 points (mean over seeds)",
            paper="the parallel rotation + scale design clearly beats standard CNNs under PGD without adversarial "
                  "training (no number retrieved)",
            criterion=at_least(0.03), measured=d_pgd[PAR],
            **comparators(d_pgd, OFF, ABL_PAR, "minus the standard CNN"), tol=ACC_TOL)
claims.test("parallel-fgsm-gain",
            statement=f"FGSM accuracy at ε = {EPS_CLAIM}: the parallel equivariant model beats the standard CNN "
                      "by at least 3 points (mean over seeds)",
            paper="improved robustness under FGSM (no number retrieved)",
            criterion=at_least(0.03), measured=d_fgsm[PAR],
            **comparators(d_fgsm, OFF, ABL_PAR, "minus the standard CNN"), tol=ACC_TOL)
claims.test("parallel-smaller-gradients",
            statement="The mean input-gradient norm of the class margin of the parallel model is at most 0.9 times "
                      "the standard CNN's"
                      " (a criterion that is not scale-free, since halving the logits halves the norm, and has no "
                      "guard on accuracy, so an underfitted network can meet it)",
            paper="equivariance regularises gradients and tightens the CLEVER bound",
            criterion=at_most(0.9), measured=grad_ratio[PAR],
            **comparators(grad_ratio, OFF, ABL_PAR, "over the standard CNN"), tol=GRAD_TOL)
claims.test("cascaded-smaller-gradients",
            statement="The mean input-gradient norm of the cascaded model is at most 0.9 times the standard CNN's"
                      " (a criterion that is not scale-free, since halving the logits halves the norm, and has no "
                      "guard on accuracy, so an underfitted network can meet it)",
            paper="equivariance regularises gradients and tightens the CLEVER bound",
            criterion=at_most(0.9), measured=grad_ratio[CAS],
            **comparators(grad_ratio, CAS_OFF, ABL_CAS, "over the standard CNN"), tol=GRAD_TOL)
claims.test("cascaded-pgd-gain",
            statement=f"PGD-{PGD_STEPS} accuracy at ε = {EPS_CLAIM}: the cascaded equivariant model beats the "
                      "standard CNN of similar size by at least 3 points (mean over seeds)",
            paper="both symmetry-aware designs improve robustness under PGD without adversarial training "
                  "(no number retrieved)",
            criterion=at_least(0.03), measured=d_pgd[CAS],
            **comparators(d_pgd, CAS_OFF, ABL_CAS, "minus the standard CNN"), tol=ACC_TOL,
            post_hoc="added when the page gained its comparators (issue 32): the paper's robustness claim covers "
                     "the cascaded design too, which the page had measured but tested only for its gradients; "
                     "same measurement, threshold and tolerance as parallel-pgd-gain, designed on seeds 0-9")
clean_kept = claims.illustrate("parallel-clean-kept",
                               statement="Clean accuracy of the parallel model is at most 1 point below the "
                                         "standard CNN's",
                               paper="robustness comes without a loss (even a gain) of clean accuracy",
                               criterion=at_least(-0.01), measured=d_clean[PAR],
                               tol=tolerance(abs=0.02, why="accuracy on about 600-1200 test images after Adam "
                                                           "training"),
                               why="a non-inferiority that a no-op meets: the standard CNN passes it against itself, "
                                   "and the independent review found the equivariance-off ablation passing too; its "
                                   "old control was a C4-invariant model that cannot tell 6 from 9, a comparator "
                                   "that fails by construction")

# %%
KEY = {STD: "std", PAR: "par", OFF: "off", CAS: "cas", CAS_OFF: "casoff", NOISE: "noise"}
for n in MODELS:
    k = KEY[n]
    glue(f"pgd_gain_{k}", 100 * d_pgd[n], display=False)
    glue(f"fgsm_gain_{k}", 100 * d_fgsm[n], display=False)
    glue(f"clean_gain_{k}", 100 * d_clean[n], display=False)
    glue(f"grad_ratio_{k}", grad_ratio[n], display=False)
    glue(f"clever_ratio_{k}", clever_ratio[n], display=False)
    glue(f"pgd_{k}", 100 * float(stat(n, "pgd", i_claim).mean()), display=False)
    glue(f"fgsm_{k}", 100 * float(stat(n, "fgsm", i_claim).mean()), display=False)
    glue(f"clean_{k}", 100 * float(stat(n, "clean").mean()), display=False)
    glue(f"rot90_{k}", 100 * float(stat(n, "rot90").mean()), display=False)
glue("pgd_sd_std", 100 * float(stat(STD, "pgd", i_claim).std(ddof=1)), display=False)
glue("n_train_seeds", len(SEEDS), display=False)
glue("n_params_min", min(n_params.values()), display=False)
glue("n_params_max", max(n_params.values()), display=False)
# the gradient norm of the margin is not scale-free (a skeptic's remark on the gradient tests)
glue("grad_ratio_halved", float(stat(STD, "grad_half").mean() / stat(STD, "grad").mean()), display=False)

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
# Numbers below are at this notebook seed (means over its {glue:text}`n_train_seeds` training seeds, points of
# accuracy against the standard CNN, whose own PGD accuracy spreads by {glue:text}`pgd_sd_std:.1f` points
# between training seeds); counts are over the ci sweep of ten notebook seeds.
#
# * *Parallel model under PGD-10* ({repro-status}`parallel-pgd-gain`, pre-registered). The parallel model ends
#   {glue:text}`pgd_gain_par:+.1f` points from the standard CNN; the same design with equivariance off
#   {glue:text}`pgd_gain_off:+.1f`, and the noise-trained standard CNN {glue:text}`pgd_gain_noise:+.1f`. Over
#   the sweep the method clears the threshold beyond its band at {repro-seeds}`parallel-pgd-gain:method:pass`
#   seeds, the ablation at {repro-seeds}`parallel-pgd-gain:ablation:pass` and the baseline at
#   {repro-seeds}`parallel-pgd-gain:baseline1:pass`.
# * *Parallel model under FGSM* ({repro-status}`parallel-fgsm-gain`, pre-registered): method
#   {glue:text}`fgsm_gain_par:+.1f`, ablation {glue:text}`fgsm_gain_off:+.1f`, noise baseline
#   {glue:text}`fgsm_gain_noise:+.1f` points; the method passes at {repro-seeds}`parallel-fgsm-gain:method:pass`
#   seeds, the ablation at {repro-seeds}`parallel-fgsm-gain:ablation:pass`, the baseline at
#   {repro-seeds}`parallel-fgsm-gain:baseline1:pass`.
# * *Smaller input gradients, parallel* ({repro-status}`parallel-smaller-gradients`, pre-registered): the
#   parallel model's mean $\|\nabla_x g\|_1$ is {glue:text}`grad_ratio_par:.2f` times the standard CNN's
#   (criterion at most $0.9$); ablation {glue:text}`grad_ratio_off:.2f`, noise baseline
#   {glue:text}`grad_ratio_noise:.2f`. The method passes at {repro-seeds}`parallel-smaller-gradients:method:pass`
#   seeds.
# * *Smaller input gradients, cascaded* ({repro-status}`cascaded-smaller-gradients`, pre-registered, with a
#   proper ablation since the comparators were added): {glue:text}`grad_ratio_cas:.2f` times the standard CNN's;
#   the same cascade with plain convolutions {glue:text}`grad_ratio_casoff:.2f`, the noise baseline
#   {glue:text}`grad_ratio_noise:.2f`. Over the sweep the method passes at
#   {repro-seeds}`cascaded-smaller-gradients:method:pass` seeds and is at the edge at
#   {repro-seeds}`cascaded-smaller-gradients:method:edge`; the ablation passes at
#   {repro-seeds}`cascaded-smaller-gradients:ablation:pass` and the baseline at
#   {repro-seeds}`cascaded-smaller-gradients:baseline1:pass`.
# * *Cascaded model under PGD-10* (post hoc, {repro-status}`cascaded-pgd-gain`): method
#   {glue:text}`pgd_gain_cas:+.1f`, ablation {glue:text}`pgd_gain_casoff:+.1f`, noise baseline
#   {glue:text}`pgd_gain_noise:+.1f` points; the method passes at {repro-seeds}`cascaded-pgd-gain:method:pass`
#   seeds. Being post hoc, it moves the badge only once confirmed on seeds 10-19.
# * *Illustration: clean accuracy kept* (`parallel-clean-kept`): the parallel model ends
#   {glue:text}`clean_gain_par:+.1f` points from the standard CNN on the whole test split, the ablation
#   {glue:text}`clean_gain_off:+.1f` and the noise baseline {glue:text}`clean_gain_noise:+.1f`. A claim that
#   nothing is lost is met by doing nothing, so it is shown, not counted.
#
# In short: over the ci sweep neither design gains under attack against a standard CNN of the same size, while
# the standard CNN trained with noise clears the PGD threshold at {repro-seeds}`parallel-pgd-gain:baseline1:pass`
# seeds; and the cascade's smaller input gradients come from the cascade (and possibly from its weaker fit), not
# from its symmetry, since the same cascade with plain convolutions has them too
# ({repro-seeds}`cascaded-smaller-gradients:ablation:pass` seeds). The cascade is the least accurate model on
# clean digits ({glue:text}`clean_cas:.1f` % against {glue:text}`clean_std:.1f` % for the standard CNN), and the
# independent review found that a standard CNN trained for a single epoch, far less accurate, passes the gradient
# criterion at every seed it ran: that criterion rewards a weaker fit as much as a smoother one.
#
# The symmetry does what it should where it reaches the output: on the attacked test digits rotated by 90°, the
# cascaded model scores {glue:text}`rot90_cas:.0f` % accuracy (its clean accuracy is
# {glue:text}`clean_cas:.1f` %) and its plain-convolution ablation {glue:text}`rot90_casoff:.0f` %, against
# {glue:text}`rot90_std:.0f` % for the standard CNN. The parallel model, the paper's main design, scores only
# {glue:text}`rot90_par:.0f` %: its rotation-invariant branch is concatenated with branches that are not, so
# little of the symmetry survives to its prediction. Robustness to small
# worst-case $L_\infty$ perturbations is a different property; where a test above is not reproduced or not
# specific, the equivariant layers do not supply it in this miniature beyond what the extra branches, plain
# convolutions of the same size, or noise in training do.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page, its
# record, the ci sweep and the brief. They re-judged the sweep, and trained four further standard CNNs beside the
# page's models with the page's ci preset unchanged, on notebook seeds 0-4 (their script:
# `/tmp/work/rev-equivariant-adv-robustness/x.py`, which imports this page's kernels). Their measurements, not
# this notebook's, in words (points are differences from the page's standard CNN, judged with the page's
# criteria and tolerances):
#
# * **The standard CNN against itself** (another initialisation and batch order): it passes the PGD criterion
#   at one seed in five (seed 2, by about nine points, the very seed where the parallel model has its one pass,
#   and where its ablation passes too) and never passes FGSM. A single seed's accuracy test is inside the
#   run-to-run noise; only the counts over the sweep carry weight.
# * **A wider standard CNN** (width 20, 22,490 parameters, inside the brief's suggested size; not matched, so a
#   skeptic's note and not a comparator): it passes PGD at two seeds in five and FGSM at three, is at the edge
#   at the other seeds, and gains one to three points of clean accuracy. Capacity buys more robustness in
#   this miniature than the equivariant branches do. Its input gradients are larger, by a third to two thirds,
#   so it fails the gradient criterion at every seed.
# * **Rotation augmentation of the standard CNN** (the brief's extra baseline): after the page's four epochs it
#   reaches only 66-70 % clean accuracy and fails both accuracy tests at every seed, so it is a strawman there;
#   but it passes the gradient criterion at four seeds in five.
# * **A standard CNN trained for one epoch**: 27-32 points less clean accuracy, fails both accuracy tests at
#   every seed, and passes the gradient criterion at all five seeds with about a quarter of the standard CNN's
#   gradient norm.
#
# The reviewer's reading: both gradient tests reward rescaled or underfitted networks by construction (their
# statements now say so), so even a pass would not show regularised gradients; a scale-free, accuracy-guarded
# measure such as the CLEVER-style score below is the right one, and it is not a test here. The earlier review
# of the claims (`../shared/evidence-review-examples.md`) found that the clean-accuracy claim was passed by the
# equivariance-off ablation and that the cascaded gradient claim had no ablation of its own; both are mended
# above. What the author tried, measured by this notebook at this seed:
#
# * **Noise in training** (a standard CNN trained with Gaussian noise of standard deviation equal to the
#   budget; a comparator of every test): PGD accuracy {glue:text}`pgd_noise:.1f` % against
#   {glue:text}`pgd_std:.1f` % for the standard CNN and {glue:text}`pgd_par:.1f` % for the parallel model; FGSM
#   {glue:text}`fgsm_noise:.1f` % against {glue:text}`fgsm_std:.1f` % and {glue:text}`fgsm_par:.1f` %; gradient
#   ratio {glue:text}`grad_ratio_noise:.2f`; clean accuracy {glue:text}`clean_noise:.1f` % against
#   {glue:text}`clean_std:.1f` %. Over the ci sweep it clears the PGD threshold at
#   {repro-seeds}`parallel-pgd-gain:baseline1:pass` seeds and the FGSM one at
#   {repro-seeds}`parallel-fgsm-gain:baseline1:pass`: under PGD, the cheapest defence does what the paper
#   credits to equivariance, in this miniature.
# * **Plain convolutions in the same place** (the ablations): the parallel design with equivariance off ends at
#   {glue:text}`pgd_off:.1f` % under PGD and the cascaded one at {glue:text}`pgd_casoff:.1f` % (their
#   equivariant versions {glue:text}`pgd_par:.1f` % and {glue:text}`pgd_cas:.1f` %).
# * **Rescaling the logits.** The gradient norm of the margin is not scale-free: the standard CNN with its
#   logits multiplied by one half has {glue:text}`grad_ratio_halved:.1f` times its gradient norm, so it would
#   pass both gradient tests, with the same predictions and the same CLEVER-style score. The CLEVER-style
#   score (margin over Lipschitz constant) is free of that scale: relative to the standard CNN it is
#   {glue:text}`clever_ratio_par:.2f` for the parallel model, {glue:text}`clever_ratio_cas:.2f` for the
#   cascaded one, {glue:text}`clever_ratio_off:.2f` and {glue:text}`clever_ratio_casoff:.2f` for their
#   ablations, and {glue:text}`clever_ratio_noise:.2f` for the noise baseline. A smaller gradient is evidence of
#   robustness only where the distance to the boundary grows with it.
#
# Not measured by this notebook: rotation augmentation, a wider standard CNN and a one-epoch standard CNN (the
# reviewer's runs above; a training run per seed each that does not fit the ci budget). Not tried by anyone:
# stronger attacks (restarts, AutoAttack).
#
# ## What the miniature cannot show
#
# * **Natural images and real symmetries.** Digits are upright; 90° rotations never occur in the test data, and
#   CIFAR's objects vary in pose and scale in ways that 8×8 digits do not. Whether the symmetry prior is what
#   helps there cannot be read off this page.
# * **Strong attacks and certified bounds.** PGD-10 with one random start and a sampled CLEVER estimate are weak
#   evaluations. A model can look robust because its gradients are small or masked and still fall to stronger
#   attacks (AutoAttack, many restarts, black-box attacks), none of which is run. CLEVER itself is an estimate,
#   not a certificate.
# * **The paper's layers and sizes.** Our C4 layers are exact but minimal (no C8, no steerable bases), and the
#   scale layer is a two-dilation stand-in; the paper's networks are orders of magnitude larger.
# * **The theory.** The hypothesis-complexity and CLEVER-bound statements are recorded as untestable here
#   (`complexity-and-clever-bound`); the page shows only the measured gradient norms and the CLEVER-style
#   scores in the skeptic section.
