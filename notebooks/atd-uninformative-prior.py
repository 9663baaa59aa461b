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
# # Active target discovery with an uninformative prior (EM-PTDM, particle analogue)
#
# *When the learned prior knows nothing about the task, a searcher that mixes it with a fast memory of its
# own observations, and re-weights both by EM after every query, finds targets faster than one that trusts
# the prior.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue
from scipy.stats import spearmanr

from repro.claims import Claims, Comparator, at_least, tolerance
from repro.papers import atd_uninformative_prior as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 14 s of compute on one thread (measured), comparators and the official configuration included:
    # 20 maps per environment, 10% of the cells; the official configuration (300 queries) on 10 of those maps
    "ci": dict(size=32, maps=20, particles=128, budget_frac=0.10, em_iter=10, official_maps=10),
    # a few minutes of compute: 100 maps per environment, twice the particles, a horizon of 20% of the cells,
    # the official configuration on all 100 maps
    "full": dict(size=32, maps=100, particles=256, budget_frac=0.20, em_iter=10, official_maps=100),
})
claims = Claims(
    "atd-uninformative-prior",
    title="Active Target Discovery under Uninformative Prior: The Power of Permanent and Transient Memory",
    authors="Anindya Sarkar, Binglin Ji, Yevgeniy Vorobeychik",
    paper_url="https://arxiv.org/abs/2510.16676",
    scale=scale, seed=seed,
)
N = P.size * P.size
BUDGET = int(round(P.budget_frac * N))
EPS = 0.1                     # flip noise of the permanent particles
BANDWIDTHS = (1.0, 2.0, 4.0)  # transient memory: kernel smoothers at these length scales (cells)
GREEDY_H = 1.0                # the naive active-search baseline's kernel: nearest neighbours (cells)
ENVS = ("species", "remote")
OMEGA = 4.0                   # over-relaxation of the EM update in the ascent figure
# the official configuration (configs/inference/EM_PTDM_imgnet.yaml and ActiveSampler at commit 7637f98):
# 300 queries among the 32 x 32 = 1024 blocks of a 128 x 128 image, 16 posterior samples per query, and
# sigma = 1 (ActiveSampler's default: the inference script passes no other; the config's sigma 10 is never read)
OFFICIAL_BUDGET = int(round(300 / 1024 * N))
# the skeptic's variations of the baselines (shown in "What a skeptic would try", never in a test)
SKEPTIC_EPS = (0.2, 0.3, 0.4)      # the prior-dependent baseline's flip noise (the page's is EPS)
SKEPTIC_H = (0.7, 1.5, 2.0)        # kernel-greedy's bandwidth (the page's is GREEDY_H)
OFFICIAL_SAMPLES = 16
OFFICIAL_SIGMA = 1.0

# %% [markdown]
# ## The claim
#
# Active target discovery: a searcher may look at one cell of a map per query (one image block, one survey
# plot) and wants as many target cells (rare species, aircraft) as possible within a fixed budget. Earlier
# work (DiffATD, by the same group) guides the search with a diffusion model trained on similar maps: its
# samples, conditioned on what has been seen, say where targets probably are and where the model is unsure.
# This paper asks what happens when no good prior can be trained (rare species, new diseases): the
# diffusion model is then *uninformative*. Its method, EM-PTDM, keeps the pretrained model as a
# **permanent memory** and adds a **transient memory** (a Doob h-transform, a small network fine-tuned on
# the task's own observations while sampling), fitted by an EM procedure whose likelihood, the paper says,
# improves monotonically with every observation. The paper reports that this beats baselines on species
# distribution and remote-sensing tasks.
#
# What we had: the paper's abstract and its official code (TensorFlow/JAX, an ImageNet-scale DDIM). No
# number of the paper was retrieved; the repository's figures are qualitative (aircraft found in one
# aerial scene by DiffATD and by EM-PTDM). So this page tests the *direction* of the claims, in a
# particle analogue small enough for a CPU.
#
# **The paper's headline claims, in our words** (each mapped in the claims record to the tests that bear on it):
#
# 1. with an uninformative prior, EM-PTDM finds substantially more targets within a budget than prior-dependent
#    methods and other baselines, on species-distribution and remote-sensing tasks (the `beats-*` tests);
# 2. its EM update guarantees a monotonic improvement of the prior estimate with each observation (not testable
#    here: the paper's exact theorem was not retrieved; we show two readings as illustrations, EM's ascent within
#    each fit, `em-ascent`, which holds for any EM by construction, and the estimate's accuracy from one
#    observation to the next, `estimate-improves-each-observation-<env>`);
# 3. the method is principled, neuroscience-inspired and interpretable (not testable: qualitative);
# 4. the title's thesis, the power of permanent *and* transient memory: each memory contributes to the search
#    (the `beats-prior-dependent-*` tests remove the transient memory, the post-hoc `permanent-memory-helps-*`
#    tests the permanent one).
#
# ## The method
#
# **Maps and observations.** A map is a binary grid $x\in\{0,1\}^N$ ($N=32\times32$); querying cell $j$
# reveals $y=x_j$ without noise. After $t$ queries the searcher holds $(j_i, y_i)_{i\le t}$.
#
# **Permanent memory** (replaces the pretrained diffusion model): $K$ maps $x^{(k)}$ drawn once from a
# generic generator that knows nothing about the task (speckle at the wrong scale and the wrong density),
# read as Bernoulli maps with flip noise $\varepsilon=0.1$: $p_k=\varepsilon+(1-2\varepsilon)x^{(k)}$.
#
# **Transient memory** (replaces the h-transform fitted to the observations): kernel smoothers of the
# observations themselves, one per bandwidth $h\in\{1,2,4\}$ cells,
# $$p_h(j)=\frac{\sum_i G_h(j,j_i)\,y_i + a\,\bar y}{\sum_i G_h(j,j_i)+a},\qquad G_h(j,i)=e^{-\|c_j-c_i\|^2/2h^2},\ a=1,$$
# shrunk towards the observed target rate $\bar y$ (Beta(1/2,1/2) estimate), plus the rate itself as one
# more component. At an observed cell the component is evaluated *leave-one-out* (its own observation
# removed), so that it is judged on how well it predicts, not on how well it remembers.
#
# **EM prior estimate.** With $L_{ik}$ the likelihood of observation $i$ under component $k$
# ($p_k(j_i)$ if $y_i=1$, else $1-p_k(j_i)$), the mixture weights maximise
# $$\ell(w)=\sum_{i\le t}\log\sum_k w_k L_{ik}\quad\text{on the simplex},$$
# by EM (`K.em_mixture_weights`): responsibilities $r_{ik}=w_kL_{ik}/\sum_l w_lL_{il}$, then
# $w_k=\frac1t\sum_i r_{ik}$. Each EM step never lowers $\ell$, which is our reading of the paper's
# "monotonic improvement of the prior estimate". The map estimate is $\hat p=\sum_k w_k p_k$. After each
# query we run 10 EM steps, warm-started from the previous weights (uniform at the first query; a unit test
# rebuilds the weights query by query and pins the warm start).
#
# These mixture weights are our analogue's own device. In the official code the transient memory is an
# h-network whose noise prediction is *added* to the pretrained model's (`h_trans.py`: `pred_noises_eps1 +
# pred_noises_eps2`), retrained every 20 queries; nothing there weighs one memory against the other, so the
# "weight on the transient memory" drawn below has no official counterpart.
#
# **Query rule.** The next cell maximises $\alpha_1 H(\hat p_j)+(1-\alpha_1)\hat p_j$ over unobserved cells,
# with $H$ the binary entropy (bits) and the official code's annealing $\alpha_1=\max(0,(B-b)/(B+b))$ at
# query $b$ of $B$: explore uncertain cells first, then exploit likely targets. The official rule (below,
# "Against the official code") is run as a second configuration.
#
# **Methods, all from the same first (random) cell per map:**
#
# * `em-ptdm`: EM over permanent and transient components (the method);
# * `em-permanent`: EM over the permanent particles only (the method without its transient memory: the
#   ablation of every discovery test);
# * `em-transient`: EM over the transient components only (the method without its permanent memory; the
#   denominator of the post-hoc `permanent-memory-helps` tests);
# * `bayes-prior`: the prior-dependent baseline, DiffATD-like: Bayesian posterior over the permanent
#   particles, $w_k\propto\prod_i L_{ik}$ (the prior's maps are the only hypotheses), same query rule;
# * `kernel-greedy`: a naive baseline that uses none of the paper's ideas, classical one-step greedy active
#   search: query the unobserved cell of largest $\hat p$, with $\hat p$ one kernel smoother of the
#   observations at $h=1$ cell (nearest neighbours; the brief's "nearest-positive greedy"), shrunk to the
#   observed rate as above; no prior, no EM, no exploration term;
# * `random`: a uniformly random unobserved cell;
# * `static-prior`: $\hat p$ = the prior's mean, never updated (a strawman: at chance by construction, drawn
#   in the learning curves only).
#
# The prior-dependent baseline's flip noise is the permanent particles' $\varepsilon=0.1$, the same for every
# method; the skeptic section shows it with $\varepsilon$ = 0.2, 0.3 and 0.4.
#
# ## The experiment
#
# * **Species-distribution-like maps:** white noise smoothed by an anisotropic Gaussian (length scales 1.5
#   and 4 cells), plus a random north-south gradient, thresholded to 8–15% of the cells: a few elongated
#   habitat patches.
# * **Remote-sensing-like maps:** 2 to 4 clusters ("airfields") of 3 to 7 small rectangular objects
#   (2×2 to 2×4 cells) within 5 cells of each cluster centre.
# * **Uninformative permanent prior:** 128 particles (256 at full) of isotropic speckle (length 0.8 cells,
#   30% density), the same for both environments. **Informative prior** (for the prior-dependence
#   illustration and the `permanent-memory-helps` tests): 128 (256) maps from the environment's own generator,
#   other seeds. **Fitted generic prior** (the skeptic's, post hoc): the same speckle generator with its density
#   and length fitted to the environment's maps (`K.fit_speckle_scale`: the density, and the length whose
#   speckle has the same share of target neighbours), so a prior at the right scale that still knows nothing of
#   the targets' shapes.
# * **Scale:** 20 maps per environment at ci, 100 at full (the brief's numbers); budget 10% of the cells
#   (102 queries) at ci, 20% (205) at full. **Official configuration:** the official query rule and budget
#   (300 of 1024 cells), on the first 10 maps of each environment at ci (all 100 at full). Spread is over
#   maps (each map its own random draw); the sweep adds seeds. All methods see the same maps and the same
#   first cell.
#
# **The checks.** The four discovery tests and their criteria were fixed before the first run (thresholds
# from the brief); they now carry comparators under the same measurement and criterion:
#
# 1. `beats-random-<env>`: mean targets found at the budget, EM-PTDM over random search, $\ge 1.5$. Ablation:
#    EM over the permanent particles only, over random. Baselines: the prior-dependent baseline and
#    kernel-greedy, each over random. (The old control, the static prior, is at chance by construction: a
#    strawman, dropped.)
# 2. `beats-prior-dependent-<env>`: EM-PTDM over the prior-dependent baseline, $\ge 1.1$. Ablation: EM over
#    the permanent particles only, over the same baseline. Baseline: kernel-greedy over the same baseline.
#
# Tests 1 and 2 are one measurement per environment, not two pieces of evidence: wherever the prior-dependent
# baseline itself clears $1.5$ over random search (test 1's first baseline), a searcher that passes test 2
# finds at least $1.1\times1.5=1.65$ times random search's targets and passes test 1 too. They stay as recorded
# when the page was first run.
#
# Post hoc (added when the page gained its comparators, †), each beside the same comparators:
#
# 3. `beats-prior-dependent-<env>-fitted-prior`: test 2 with every method on the fitted generic prior (the
#    review noted that the prior-dependent baseline's particles are at the wrong scale, which favours the
#    method; a skeptic gives the baseline the right scale).
# 4. `beats-random-<env>-official`, `beats-prior-dependent-<env>-official`: tests 1 and 2 under the official
#    query rule and budget.
# 5. `permanent-memory-helps-<env>` (added after the independent review, criterion fixed before the first run):
#    the title's thesis. Mean targets found by EM-PTDM with an *informative* permanent memory (maps of the
#    environment's own generator: the case most favourable to the thesis) over those of EM on the transient
#    memory alone, $\ge 1.0$ (both memories at least as good as the transient one alone). Ablation: EM-PTDM with
#    the uninformative permanent memory (the page's setting), over the same. Baselines: kernel-greedy, and the
#    prior-dependent baseline on the informative prior (the informative permanent memory alone), each over the
#    same.
#
# Shown, not counted: `em-ascent` (EM never lowers $\ell$ within a fit: EM's ascent property, which holds for any
# EM), `estimate-improves-each-observation-<env>` (the second reading of "monotonic improvement of the prior
# estimate with each new observation": the per-cell log-likelihood of the whole true map under $\hat p$ never
# falls from one observation to the next; the paper's exact theorem was not retrieved, and nothing in our
# construction promises it) and `prior-dependence-<env>` (the prior-dependent baseline with the informative prior
# over the same with the uninformative one: a posterior over the true generator's maps beats one over wrong
# speckle almost by construction; it shows the premise of the setting).
#
# **Deviations from the paper**
#
# * Particle analogue: the pretrained DDIM (permanent memory) is replaced by a fixed ensemble of prior maps,
#   and the h-transform network fine-tuned on the observations (transient memory) by kernel smoothers of the
#   observations at three bandwidths; EM fits only their mixture weights, which have no official counterpart
#   (the official code adds the two networks' noise predictions). No diffusion, no neural network, no DPS
#   guidance.
# * Data: synthetic 32×32 binary maps (species-like patches and remote-sensing-like objects) instead of the
#   paper's species-distribution data and DOTA aerial scenes; single cells instead of the official 4×4
#   pixel blocks; noiseless observations of the target indicator instead of image pixels plus an online
#   target classifier.
# * Query rule: our score $\alpha_1H(\hat p)+(1-\alpha_1)\hat p$ on the posterior mean, with the official
#   annealing of $\alpha_1$. The official score is run as a second configuration, with binary posterior samples
#   drawn cell by cell from $\hat p$ and a target classifier standing in as the sample's own label with flip
#   noise $\varepsilon$ (see "Against the official code").
# * Budget: 10% (ci) and 20% (full) of the cells; the official 300 of 1024 blocks is run as a second
#   configuration, on 10 maps per environment at ci to stay within the page's compute.
# * Baselines: DiffATD is represented by a Bayesian posterior over the prior's particles (`bayes-prior`), not
#   by the DiffATD code; the brief's GP-classifier baseline is left out; its nearest-positive greedy is the
#   kernel-greedy baseline.
# * The bar of test 2: the brief set $1.1$ against "greedy on the permanent prior without updates" (our
#   `static-prior`, at chance by construction); the page holds EM-PTDM to it against the Bayesian posterior over
#   the same particles, a stronger comparator.
# * Defaults that are ours: $\varepsilon=0.1$, bandwidths 1, 2, 4 cells, pseudo-count 1, 10 warm-started EM
#   steps per query, 128/256 particles, kernel-greedy's $h=1$; EM weights are floored at $10^{-200}$ (a speed
#   guard against subnormal floats; no effect on any value shown). One design choice was changed after a
#   development run (maps of other seeds than the page uses): the transient smoother first shrank towards
#   $p_0=0.5$, which made the entropy term explore almost every empty region; it now shrinks towards the
#   observed target rate. The brief's thresholds were not changed.
# * The prior-dependence checks were added after that development run (†); they are now illustrations.

# %%
kernels = {h: K.gaussian_kernel_matrix(P.size, h) for h in BANDWIDTHS}
targets = {e: K.make_target_maps(e, P.maps, P.size, 10_000 + 100 * seed + i).reshape(P.maps, N)
           for i, e in enumerate(ENVS)}
prior_uninf = K.sample_prior_particles(P.particles, P.size, 20_000 + seed)
prior_inf = {e: K.make_target_maps(e, P.particles, P.size, 30_000 + 100 * seed + i).reshape(P.particles, N)
             for i, e in enumerate(ENVS)}
# the skeptic's generic prior: speckle with the density and neighbour agreement of the environment's own maps
fitted = {e: K.fit_speckle_scale(prior_inf[e].reshape(-1, P.size, P.size)) for e in ENVS}
prior_fit = {e: K.sample_prior_particles(P.particles, P.size, 20_000 + seed, *fitted[e]) for e in ENVS}
PRIORS = {"uninformative": lambda e: prior_uninf, "informative": lambda e: prior_inf[e],
          "fitted": lambda e: prior_fit[e]}
first = {e: P.rng.integers(0, N, P.maps) for e in ENVS}
print(f"scale={P.scale}: {P.maps} maps of {P.size}x{P.size} per environment, budget {BUDGET} queries "
      f"(official: {OFFICIAL_BUDGET} on {P.official_maps} maps), {P.particles} particles; target density " +
      ", ".join(f"{e} {targets[e].mean():.3f}" for e in ENVS) + "; fitted generic prior (length, density): " +
      ", ".join(f"{e} ({fitted[e][0]:.1f}, {fitted[e][1]:.3f})" for e in ENVS))

MAIN = ("random", "static-prior", "bayes-prior", "em-permanent", "em-transient", "em-ptdm", "kernel-greedy")
POSTERIOR = ("bayes-prior", "em-permanent", "em-ptdm")
jobs = ([(e, "uninformative", m, "ours") for e in ENVS for m in MAIN]
        + [(e, "informative", m, "ours") for e in ENVS for m in ("bayes-prior", "em-ptdm")]
        + [(e, "fitted", m, "ours") for e in ENVS for m in POSTERIOR]
        + [(e, "uninformative", m, "official") for e in ENVS
           for m in ("random", "bayes-prior", "em-permanent", "em-ptdm", "kernel-greedy")]
        + [(e, "uninformative", ("bayes-prior", "eps", v), "ours") for e in ENVS for v in SKEPTIC_EPS]
        + [(e, "uninformative", ("kernel-greedy", "h", v), "ours") for e in ENVS for v in SKEPTIC_H])
for h in SKEPTIC_H:
    kernels[h] = K.gaussian_kernel_matrix(P.size, h)
runs = {}  # (env, prior, method, query rule) -> result of K.run_discovery; method (name, "eps" | "h", value): a variant
for e, prior, m, rule in progress(jobs, desc="runs"):
    official = rule == "official"
    n = P.official_maps if official else P.maps
    name, variant = (m[0], {m[1]: m[2]}) if isinstance(m, tuple) else (m, {})
    runs[e, prior, m, rule] = K.run_discovery(
        name, targets[e][:n], PRIORS[prior](e), OFFICIAL_BUDGET if official else BUDGET,
        np.random.default_rng([seed, 8 if official else 7]), eps=variant.get("eps", EPS), bandwidths=BANDWIDTHS,
        em_iter=P.em_iter, kernels=kernels, first=first[e][:n], query_rule=rule, n_samples=OFFICIAL_SAMPLES,
        sigma=OFFICIAL_SIGMA, greedy_bandwidth=variant.get("h", GREEDY_H),
        track_map_loglik=(m == "em-ptdm" and prior != "fitted" and not official))


def found_at_budget(e, m, prior="uninformative", rule="ours"):
    """Targets found by method m at its budget, one value per map."""
    return runs[e, prior, m, rule]["found"][:, -1]


def mean_found(e, m, prior="uninformative", rule="ours"):
    return float(found_at_budget(e, m, prior, rule).mean())


for e in ENVS:
    print(e, "| mean targets found at budget:", ", ".join(f"{m} {mean_found(e, m):.1f}" for m in MAIN),
          "| informative prior:", ", ".join(f"{m} {mean_found(e, m, 'informative'):.1f}"
                                           for m in ("bayes-prior", "em-ptdm")),
          "| fitted prior:", ", ".join(f"{m} {mean_found(e, m, 'fitted'):.1f}" for m in POSTERIOR),
          "| official:", ", ".join(f"{m} {mean_found(e, m, rule='official'):.1f}"
                                   for m in ("random", "bayes-prior", "em-permanent", "em-ptdm", "kernel-greedy")))

# %% [markdown]
# ## Results
#
# ### The maps and where EM-PTDM looked
#
# One map of each environment with the cells EM-PTDM queried (dots: black = target found, red = empty),
# one particle of the uninformative prior, and EM-PTDM's final estimate $\hat p$ with the total EM weight on
# its transient components (our analogue's quantity; the official code has no such weight).

# %%
fig, axes = plt.subplots(2, 3, figsize=(9.6, 6.2))
for r, e in enumerate(ENVS):
    x = targets[e][0].reshape(P.size, P.size)
    run = runs[e, "uninformative", "em-ptdm", "ours"]
    q = run["queries"][0]
    qy, qx = np.divmod(q, P.size)
    hit = targets[e][0][q]
    axes[r, 0].imshow(x, cmap="Greens", vmin=0, vmax=1.3)
    axes[r, 0].scatter(qx[hit], qy[hit], s=9, c="k", marker="o", label="target found")
    axes[r, 0].scatter(qx[~hit], qy[~hit], s=9, c="tab:red", marker="x", label="empty cell")
    axes[r, 0].set_title(f"{e} map 0:\n{int(hit.sum())} of {int(x.sum())} targets in {BUDGET} queries", fontsize=9)
    axes[r, 1].imshow(prior_uninf[r].reshape(P.size, P.size), cmap="Greys")
    axes[r, 1].set_title(f"uninformative prior\nparticle {r}", fontsize=9)
    # the estimate EM-PTDM chose its last query with: its final weights and every observation but the last
    w = run["weights"][0]
    p_hat = K.em_ptdm_estimate(prior_uninf, q[:-1], targets[e][0][q[:-1]], w, EPS, BANDWIDTHS)
    im = axes[r, 2].imshow(p_hat.reshape(P.size, P.size), cmap="viridis", vmin=0, vmax=1)
    axes[r, 2].set_title(f"EM-PTDM estimate $\\hat p$\n(weight on transient: {w[P.particles:].sum():.2f})", fontsize=9)
    fig.colorbar(im, ax=axes[r, 2], fraction=0.046, label="P(target)")
for ax in axes.ravel():
    ax.set(xticks=[], yticks=[])
axes[0, 0].legend(fontsize=7, loc="lower left")
plt.show()

# %% [markdown]
# ### Learning curves: targets found against queries
#
# Fraction of each map's targets found after $b$ queries, mean over the maps with a band of ±1 standard
# error (over maps); every method on the same maps and from the same first cell, with the page's query rule
# and budget. The dashed line is the expected curve of random search. The naive kernel-greedy baseline
# (black) uses neither prior nor EM; `em-transient` (light blue) is EM-PTDM without its permanent memory; the static
# prior (grey, dotted) is the strawman of the page's first version.

# %%
fig, axes = plt.subplots(1, 2, figsize=(8.4, 3.2), sharey=True)
colors = {"em-ptdm": "C0", "bayes-prior": "C1", "em-permanent": "C2", "em-transient": "C5", "kernel-greedy": "C7",
          "static-prior": "0.6", "random": "C3"}
b_axis = np.arange(BUDGET + 1)
for ax, e in zip(axes, ENVS):
    total = targets[e].sum(axis=1)
    for m in MAIN:
        frac = runs[e, "uninformative", m, "ours"]["found"] / total[:, None]
        mu, se = frac.mean(axis=0), frac.std(axis=0, ddof=1) / np.sqrt(P.maps)
        ax.plot(b_axis, mu, color=colors[m], label=m, lw=2 if m == "em-ptdm" else 1.2,
                ls=":" if m == "static-prior" else "-")
        ax.fill_between(b_axis, mu - se, mu + se, color=colors[m], alpha=0.2)
    ax.plot(b_axis, b_axis / N, "k--", lw=0.8, label="random, expected")
    ax.set(xlabel="queries b", title=f"{e}: uninformative prior, {P.maps} maps")
axes[0].set_ylabel("fraction of the map's targets found")
axes[0].legend(fontsize=7)
plt.show()

# %% [markdown]
# ### The tests' measurements in each configuration
#
# Each discovery test's measurement at this seed: mean targets found by EM-PTDM, its ablation and the
# baselines, over the mean found by random search (left, bar $1.5$) or by the prior-dependent baseline
# (right, bar $1.1$), in the page's configuration, with the fitted generic prior (right only) and in the
# official configuration (query rule and budget). The judged table gives each ratio over seeds 0–9.

# %%
def ratio(e, m, over, prior="uninformative", rule="ours"):
    return mean_found(e, m, prior, rule) / mean_found(e, over, prior, rule)


CONFIGS = {"page": ("uninformative", "ours"), "fitted prior": ("fitted", "ours"),
           "official": ("uninformative", "official")}
fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.4))
for ax, over, bar, methods, configs in (
        (axes[0], "random", 1.5, ("em-ptdm", "em-permanent", "bayes-prior", "kernel-greedy"), ("page", "official")),
        (axes[1], "bayes-prior", 1.1, ("em-ptdm", "em-permanent", "kernel-greedy"),
         ("page", "fitted prior", "official"))):
    groups = [(e, c) for e in ENVS for c in configs]
    width = 0.8 / len(methods)
    for k, m in enumerate(methods):
        vals = []
        for e, c in groups:
            prior, rule = CONFIGS[c]
            num_prior = "uninformative" if m == "kernel-greedy" else prior  # kernel-greedy uses no prior
            vals.append(mean_found(e, m, num_prior, rule) / mean_found(e, over, prior, rule))
        ax.bar(np.arange(len(groups)) + (k - (len(methods) - 1) / 2) * width, vals, width, color=colors[m], label=m)
    ax.axhline(bar, color="k", lw=0.8, ls="--", label=f"criterion {bar:g}")
    ax.set_xticks(np.arange(len(groups)), [f"{e}\n{c}" for e, c in groups], fontsize=7)
    ax.set(ylabel=f"targets found / {over}'s", title=f"over {over} (bar {bar:g})")
axes[0].legend(fontsize=7)
plt.show()

# %% [markdown]
# ### Prior dependence: what a good prior buys
#
# Left: targets found at the budget with the uninformative and with an informative prior (mean ± standard
# error over maps). Right: the total EM weight on the transient components after each query (mean over
# maps, band: 10th to 90th percentile), with the uninformative and the informative prior; this weight is our
# analogue's own quantity (the official transient memory is added to the prior's prediction, not weighed
# against it).

# %%
fig, axes = plt.subplots(1, 2, figsize=(8.4, 3.2))
xpos = np.arange(len(ENVS))
for k, (m, prior, hatch) in enumerate([("bayes-prior", "uninformative", ""), ("bayes-prior", "informative", "//"),
                                       ("em-ptdm", "uninformative", ""), ("em-ptdm", "informative", "//")]):
    vals = [found_at_budget(e, m, prior) for e in ENVS]
    axes[0].bar(xpos + (k - 1.5) * 0.2, [v.mean() for v in vals], 0.2,
                yerr=[v.std(ddof=1) / np.sqrt(P.maps) for v in vals], color=colors[m], hatch=hatch,
                edgecolor="k", label=f"{m}, {prior} prior")
axes[0].set(xticks=xpos, xticklabels=ENVS, ylabel=f"targets found in {BUDGET} queries", title="Prior dependence")
axes[0].legend(fontsize=7)
for e, ls in zip(ENVS, ("-", "--")):
    for prior, c in (("uninformative", "C0"), ("informative", "C4")):
        tm = runs[e, prior, "em-ptdm", "ours"]["transient_mass"][:, :-1]
        axes[1].plot(np.arange(1, BUDGET), tm.mean(axis=0), ls=ls, color=c, label=f"{e}, {prior} prior")
        axes[1].fill_between(np.arange(1, BUDGET), *np.percentile(tm, [10, 90], axis=0), color=c, alpha=0.12)
axes[1].set(xlabel="queries b", ylabel="EM weight on the transient memory", ylim=(0, 1.3), yticks=np.linspace(0, 1, 6),
            title="EM-PTDM: transient vs permanent memory")
axes[1].legend(fontsize=7, loc="upper left", ncol=2)
plt.show()

# %% [markdown]
# ### What the permanent memory adds, and the estimate from one observation to the next
#
# Left: mean targets found at the budget by EM-PTDM with each permanent memory (uninformative speckle, speckle
# fitted to the targets' scale, the environment's own maps), by the informative permanent memory alone (the
# prior-dependent baseline on it) and by kernel-greedy, over those of EM on the transient memory alone (the
# dashed line at 1: the bar of `permanent-memory-helps`). Right: the per-cell log-likelihood of the whole true map
# under EM-PTDM's estimate $\hat p$ after $t$ observations (uninformative prior), relative to its value after the
# first observation: mean over the maps (thick) and three maps of each environment (thin). The across-observation
# reading of the paper's guarantee asks that every curve never fall.

# %%
fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.4))
bars = [("EM-PTDM, uninformative", "em-ptdm", "uninformative", "C0", ""),
        ("EM-PTDM, fitted", "em-ptdm", "fitted", "C0", ".."),
        ("EM-PTDM, informative", "em-ptdm", "informative", "C0", "//"),
        ("prior-dependent, informative", "bayes-prior", "informative", "C1", "//"),
        ("kernel-greedy", "kernel-greedy", "uninformative", "C7", "")]
for k, (label, m, prior, c, hatch) in enumerate(bars):
    vals = [mean_found(e, m, prior) / mean_found(e, "em-transient") for e in ENVS]
    axes[0].bar(xpos + (k - 2) * 0.16, vals, 0.16, color=c, hatch=hatch, edgecolor="k", label=label)
axes[0].axhline(1.0, color="k", lw=0.8, ls="--")
axes[0].set(xticks=xpos, xticklabels=ENVS, ylabel="targets found / transient-only EM's", ylim=(0, 1.45),
            yticks=np.linspace(0, 1, 6), title="Adding a permanent memory to the transient one")
axes[0].legend(fontsize=7, loc="upper center", ncol=2)
t_axis = np.arange(1, BUDGET)
for e, c in zip(ENVS, ("C2", "C4")):
    ll = runs[e, "uninformative", "em-ptdm", "ours"]["map_loglik"]
    rel = ll - ll[:, :1]
    axes[1].plot(t_axis, rel.mean(axis=0), color=c, lw=2, label=f"{e}, mean over maps")
    for i in range(3):
        axes[1].plot(t_axis, rel[i], color=c, lw=0.7, alpha=0.6)
axes[1].axhline(0.0, color="k", lw=0.8, ls=":")
axes[1].set(xlabel="observations t", ylabel="log-lik. of the true map, per cell,\nminus its value at t = 1 (nats)",
            title="EM-PTDM's estimate across observations")
axes[1].legend(fontsize=7)
plt.show()

# %% [markdown]
# ### The EM ascent
#
# For each map of the species environment, the component likelihoods of EM-PTDM's final observations:
# $\ell(w)$ along 50 EM steps from uniform weights, and along over-relaxed EM
# ($w_k\propto w_k\,g_k^{\omega}$ with $g_k=\frac1t\sum_iL_{ik}/(Lw)_i$, $\omega=4$; $\omega=1$ is EM), curves
# relative to the EM end point, one line per map. EM never descends, as its ascent property guarantees for any
# EM; on these likelihoods the over-relaxed update does not descend either (the unit tests show it descending
# on other likelihoods), so the figure illustrates the property rather than testing it.

# %%
ascent = {"em": [], "over": []}
for i in range(P.maps):
    L = K.component_likelihoods(targets["species"][i], prior_uninf,
                                runs["species", "uninformative", "em-ptdm", "ours"]["queries"][i, :-1], EPS, BANDWIDTHS)
    ascent["em"].append(K.em_mixture_weights_trace(L, 50)[1])
    ascent["over"].append(K.overrelaxed_weights_trace(L, 50, OMEGA)[1])
ascent = {k: np.array(v) for k, v in ascent.items()}
min_step_em = min(r["min_step"] for (e, prior, m, rule), r in runs.items() if m == "em-ptdm")
min_step_over = float(np.diff(ascent["over"], axis=1).min())
print(f"smallest EM step change of the log-likelihood over every EM-PTDM run: {min_step_em:.2g}; "
      f"over-relaxed EM (omega = {OMEGA:g}) on the species maps: {min_step_over:.3g}")

fig, ax = plt.subplots(figsize=(5.6, 3.2))
ref = ascent["em"][:, -1:]
for i in range(P.maps):
    ax.plot(ascent["em"][i] - ref[i], color="C0", lw=0.8, label="EM" if i == 0 else None)
    ax.plot(ascent["over"][i] - ref[i], color="C3", lw=0.8, alpha=0.7,
            label=f"over-relaxed, $\\omega$={OMEGA:g}" if i == 0 else None)
ax.set(xlabel="iteration", ylabel=r"$\ell(w)-\ell(w_{EM,50})$ (nats)", yscale="symlog",
       title="Log-likelihood along the updates (species maps)")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### The paper's numbers beside ours
#
# The paper's reported numbers were not retrieved, and the official repository's figures are qualitative,
# so the table sets the paper's settings beside ours without values to compare.
#
# | setting | paper (reported) | this page |
# |---|---|---|
# | aerial scene (DOTA), aircraft pixels found by step 350 | figure only (EM-PTDM finds more than DiffATD); no number retrieved | remote-like maps: the tests `beats-prior-dependent-remote`, `beats-random-remote` and their official and fitted-prior variants |
# | species distribution | "substantially outperforms baselines"; no number retrieved | species-like maps: `beats-prior-dependent-species`, `beats-random-species` and their variants |
# | monotone improvement of the prior estimate | guaranteed (abstract); exact theorem not retrieved | within each EM fit: illustration `em-ascent`; from one observation to the next: illustrations `estimate-improves-each-observation-*` |
# | permanent + transient memory (the title) | figure 6 of the repository: reconstructions with permanent memory only and with transient memory added; no number retrieved | `beats-prior-dependent-*` (transient memory removed), `permanent-memory-helps-*` (permanent memory removed, post hoc) |

# %% [markdown]
# ## Against the official code
#
# The paper's code: [KevinG396/EM_PTDM](https://github.com/KevinG396/EM_PTDM) (commit `7637f98`). It needs
# TensorFlow 2.15, JAX and Keras 3, a DDIM trained on ImageNet and an h-transform network, none of which
# run here. What we ran is its query rule: `ActiveSampler.select_block_entropy`, executed on five small
# seeded inputs with numpy stand-ins for `keras.ops` and `tf` (every other import stubbed, the online
# target classifier replaced by fixed logits). The golden file `tests/papers/golden/atd-uninformative-prior.json`
# holds its score maps and chosen blocks, and `K.official_block_scores`, written from our reading of the
# source, matches them to 1e-9 (test `test_golden_official_block_scores`): the query score is exactly the
# official function. The score, for posterior
# samples $x^{(1..S)}$ and per-sample target rewards $r_j$ from the classifier, is
# $\sum_j\log\big(\alpha_1E_j+\alpha_2r_jC_j\big)$ with block averages of
# $E_j=\sum_ie^{+d_{ij}^2/2\sigma^2}$ (disagreement between samples) and $C_j=\sum_ie^{-d_{ij}^2/2\sigma^2}$
# (agreement).
#
# What agrees, and every departure:
#
# * **Annealing.** $\alpha_1=\max(0,(B-b)/(B+b))$ is the official one (`K.exploration_weight`).
# * **Query rule** (can move a claim: run). Our rule scores cells by the posterior probability directly
#   (entropy for exploration, probability for exploitation). The official rule is run as a second
#   configuration: `K.official_cell_scores`, its closed form for binary samples and one-cell blocks (a unit test
#   checks it against `K.official_block_scores`, hence against the golden file), on 16 samples drawn cell by
#   cell from each method's $\hat p$ (only the number of target samples per cell enters the score), levels
#   $\pm1$ in one channel, the classifier's reward $1-\varepsilon$ for a sample whose cell is a target and
#   $\varepsilon$ otherwise, and $\sigma=1$. The official config file sets `sigma: 10`, but the inference script
#   never passes it to `ActiveSampler`, whose default of 1 is what runs.
# * **Budget** (can move a claim: run). The official run takes 300 queries among the $32\times32=1024$ blocks
#   of a 128×128 image; the page's budget is 10% (ci) or 20% (full) of the cells. The official configuration
#   uses both the official rule and the official budget, on 10 maps per environment at ci; the tests
#   `*-official` record it and the verdict says which statuses survive.
# * **Transient memory.** The official transient memory is an h-network whose noise prediction is *added* to
#   the pretrained model's, with no EM mixture weight between them, retrained (`train_ptdm.py`, in a
#   subprocess) every 20 queries; the target classifier is retrained after every query. Our EM re-weights fixed
#   components after every query, in closed form. The page's "weight on the transient memory" has no official
#   counterpart.
# * **Masking.** Observed blocks are masked by *multiplying* their score by 0, so when every unobserved block
#   scores below 0 the official rule re-selects an already observed block (the golden case
#   `observed_block_wins`). Our rules exclude observed cells (`K.select_query`, tested); with the rewards above
#   every official score is positive at every query (a unit test checks it), so the exclusion changes no choice
#   of the official configuration.
# * **Blocks.** Single cells instead of 4×4 blocks, and noiseless labels instead of image pixels.
#
# The cell below compares the two scores on one search state of the page's run: the official score on 32
# samples of $\hat p$ (with $\hat p$ itself as every sample's reward) against ours.

# %%
e = "species"
run = runs[e, "uninformative", "em-ptdm", "ours"]
b_mid = BUDGET // 2
qq = run["queries"][0, :b_mid]
obs_y = targets[e][0][qq]
L = K.component_likelihoods(targets[e][0], prior_uninf, qq, EPS, BANDWIDTHS)
p_mid = K.em_ptdm_estimate(prior_uninf, qq, obs_y, K.em_mixture_weights(L, 200), EPS, BANDWIDTHS)
rng_s = np.random.default_rng([seed, 11])
samples = (rng_s.random((32, N)) < p_mid).astype(float).reshape(32, P.size, P.size, 1)
reward = np.broadcast_to(p_mid.reshape(1, P.size, P.size), (32, P.size, P.size))
mask = np.zeros(N)
mask[qq] = 1
S_off, _ = K.official_block_scores(samples, reward, b_mid + 1, BUDGET, 1.0, 1, mask.reshape(P.size, P.size))
ours = K.acquisition_scores(p_mid, K.exploration_weight(b_mid + 1, BUDGET))
free = mask == 0
rho = spearmanr(S_off.ravel()[free], ours[free]).statistic
top_off = np.flatnonzero(free)[np.argsort(-S_off.ravel()[free])[:20]]
top_ours = np.flatnonzero(free)[np.argsort(-ours[free])[:20]]
print(f"query {b_mid + 1} of {BUDGET} on {e} map 0: Spearman correlation of the official score and ours over "
      f"unobserved cells {rho:.2f}; top-20 cells in common: {len(set(top_off) & set(top_ours))}")

# %%
PAPER_WIN = ("EM-PTDM substantially outperforms baseline approaches on species distribution and remote sensing "
             "(abstract); no number retrieved")
RATIO = tolerance(rel=0.05, why="ratio of mean counts over the maps: a near-tie in an argmax over float scores, "
                  "broken otherwise under other float kernels, changes one map's search path")
ING = "the transient memory (smoothers of the task's own observations, weighted by EM)"
ABL = "EM over the permanent particles only (no transient memory)"
BAYES = "the prior-dependent baseline (Bayesian posterior over the prior's particles, DiffATD-like)"
GREEDY = "classical greedy active search on a nearest-neighbour kernel estimate (h = 1 cell; no prior, no EM)"
OFFICIAL_SETTING = (f"official query rule (select_block_entropy, sigma 1, {OFFICIAL_SAMPLES} samples) and official "
                    f"budget ({OFFICIAL_BUDGET} of {N} cells), on {P.official_maps} maps per environment")
OFFICIAL_WHY = ("added when the page gained its comparators (issue 32): the official query rule and budget, which "
                "can move the discovery claims, run as a second configuration")
FITTED_SETTING = "every method on a generic speckle prior fitted to the targets' density and scale"
FITTED_WHY = ("added after the independent review noted that the prior-dependent baseline's particles are at the "
              "wrong scale, which favours the method: the skeptic gives the prior the right scale")
TRANS = "EM over the transient memory alone (EM-PTDM without its permanent memory)"
PERM_ING = ("what the permanent memory knows about the task (maps of the environment's own generator instead of "
            "uninformative speckle)")
PERM_WHY = ("added after the second independent review: the paper's thesis is that permanent and transient memory "
            "together do better, and the page had removed only the transient memory; designed on seeds 0-9 with the "
            "review's numbers for seeds 0-4 in view, its criterion (at least as many targets as the transient memory "
            "alone) taken from the thesis and fixed, with the comparators, before the test was first run")
NOT_FALLING = 1e-9  # a change of the per-cell log-likelihood above -1e-9 nats counts as not falling (rounding)
share_not_falling = {e: float((np.diff(runs[e, "uninformative", "em-ptdm", "ours"]["map_loglik"], axis=1)
                               >= -NOT_FALLING).mean()) for e in ENVS}

TEST_IDS = [f"{t}-{e}{v}" for e in ENVS for t, v in (("beats-random", ""), ("beats-prior-dependent", ""),
                                                     ("beats-prior-dependent", "-fitted-prior"),
                                                     ("beats-random", "-official"),
                                                     ("beats-prior-dependent", "-official"))]
claims.headline(
    "discovery",
    "With an uninformative prior, EM-PTDM finds substantially more targets within a query budget than "
    "prior-dependent methods and other baselines, on species-distribution and remote-sensing tasks",
    tests=TEST_IDS)
claims.headline(
    "monotone-improvement",
    "Its EM procedure guarantees a monotonic improvement of the prior estimate with each new observation",
    untestable="the paper's exact theorem was not retrieved, so we cannot tell which quantity it guarantees; EM's "
               "ascent within a fit holds for any EM by construction (illustration em-ascent), and the estimate's "
               "accuracy from one observation to the next is a property nothing in our analogue promises "
               "(illustrations estimate-improves-each-observation-*); the paper's EM over an h-network fitted by "
               "gradient steps is not run")
claims.headline(
    "principled-interpretable",
    "The framework is theoretically principled, inspired by neuroscience (permanent and transient memory) and "
    "interpretable, unlike black-box policies",
    untestable="qualitative: no measurement bears on it, and the analogue's mixture weights, which one might read as "
               "an interpretation, have no counterpart in the official code")
claims.headline(
    "permanent-and-transient",
    "Permanent memory (the pretrained prior) and transient memory (adapted to the task's observations) together "
    "search better than either alone",
    tests=[f"{t}-{e}" for e in ENVS for t in ("permanent-memory-helps", "beats-prior-dependent")])

claims.illustrate(
    "em-ascent",
    statement="EM on the mixture weights never lowers the observed-data log-likelihood: smallest change between "
              "consecutive EM steps, over every EM run of EM-PTDM on this page",
    paper="a strong, monotonic improvement in prior estimates with each new observation (abstract)",
    criterion=at_least(-1e-9), measured=float(min_step_em),
    why="EM's ascent property: an EM step on mixture weights never lowers the log-likelihood, whatever the data, so "
        "it holds by construction (the deliberately wrong update of the page's first version, over-relaxed EM, "
        "ascends on these likelihoods too)",
    tol=tolerance(abs=1e-9, why="the smallest step is a difference of log-likelihoods near convergence: rounding "
                  "noise; recorded as a bound", bound=True))
for e in ENVS:
    claims.illustrate(
        f"prior-dependence-{e}",
        statement=f"{e}: targets found by the prior-dependent baseline with an informative prior (maps of the "
                  "environment's own generator) / with the uninformative one",
        paper="prior-dependent methods struggle where a strong prior cannot be learned (abstract)",
        criterion=at_least(1.2),
        measured=mean_found(e, "bayes-prior", "informative") / mean_found(e, "bayes-prior"),
        why="the premise of the setting, not a claim about the method: a posterior over the true generator's maps "
            "beats one over speckle at the wrong scale almost by construction (the review's reading)",
        tol=RATIO)
for e in ENVS:
    claims.illustrate(
        f"estimate-improves-each-observation-{e}",
        statement=f"{e}: share of the steps from one observation to the next (every map, observations 1 to "
                  f"{BUDGET - 1}) at which the per-cell log-likelihood of the whole true map under EM-PTDM's estimate "
                  "does not fall (uninformative prior)",
        paper="it guarantees a strong, monotonic improvement in prior estimates with each new observation (abstract)",
        criterion=at_least(1.0), measured=share_not_falling[e],
        why="our second reading of the abstract's guarantee (across observations, not within one EM fit); the "
            "paper's exact theorem was not retrieved, so we cannot tell whether it claims this, and nothing in our "
            "analogue's construction promises it: a failure says that the analogue's estimate lacks the property, "
            "not that the paper's theorem is wrong",
        tol=tolerance(abs=0.02, why="a share over every map and step of runs whose search paths a near-tie in an "
                      "argmax can change"))

for e in ENVS:
    f = {m: mean_found(e, m) for m in MAIN}
    claims.test(
        f"beats-random-{e}",
        statement=f"{e}: mean targets found in {BUDGET} queries, EM-PTDM / random search",
        paper=PAPER_WIN, criterion=at_least(1.5), measured=f["em-ptdm"] / f["random"],
        ablation=Comparator(f"{ABL} / random", f["em-permanent"] / f["random"], ingredient=ING),
        baselines=[Comparator(f"{BAYES} / random", f["bayes-prior"] / f["random"]),
                   Comparator(f"{GREEDY} / random", f["kernel-greedy"] / f["random"])],
        tol=RATIO)
    claims.test(
        f"beats-prior-dependent-{e}",
        statement=f"{e}: mean targets found in {BUDGET} queries, EM-PTDM / the prior-dependent baseline, both on the "
                  "uninformative prior",
        paper=PAPER_WIN + "; repository figure: more aircraft found than DiffATD", criterion=at_least(1.1),
        measured=f["em-ptdm"] / f["bayes-prior"],
        ablation=Comparator(f"{ABL} / the same baseline", f["em-permanent"] / f["bayes-prior"], ingredient=ING),
        baselines=[Comparator(f"{GREEDY} / the same baseline", f["kernel-greedy"] / f["bayes-prior"])],
        tol=RATIO)
    g = {m: mean_found(e, m, "fitted") for m in POSTERIOR}
    claims.test(
        f"beats-prior-dependent-{e}-fitted-prior",
        statement=f"{e}: mean targets found in {BUDGET} queries, EM-PTDM / the prior-dependent baseline, both on a "
                  "generic speckle prior at the targets' density and scale",
        paper=PAPER_WIN + "; repository figure: more aircraft found than DiffATD", criterion=at_least(1.1),
        measured=g["em-ptdm"] / g["bayes-prior"],
        ablation=Comparator(f"{ABL}, same prior / the same baseline", g["em-permanent"] / g["bayes-prior"],
                            ingredient=ING),
        baselines=[Comparator(f"{GREEDY} / the same baseline", f["kernel-greedy"] / g["bayes-prior"])],
        tol=RATIO, setting=FITTED_SETTING, post_hoc=FITTED_WHY)
    o = {m: mean_found(e, m, rule="official") for m in ("random", "bayes-prior", "em-permanent", "em-ptdm",
                                                          "kernel-greedy")}
    claims.test(
        f"beats-random-{e}-official",
        statement=f"{e}: mean targets found in {OFFICIAL_BUDGET} queries with the official query rule, EM-PTDM / "
                  "random search",
        paper=PAPER_WIN, criterion=at_least(1.5), measured=o["em-ptdm"] / o["random"],
        ablation=Comparator(f"{ABL}, official rule / random", o["em-permanent"] / o["random"], ingredient=ING),
        baselines=[Comparator(f"{BAYES}, official rule / random", o["bayes-prior"] / o["random"]),
                   Comparator(f"{GREEDY} / random", o["kernel-greedy"] / o["random"])],
        tol=RATIO, setting=OFFICIAL_SETTING, post_hoc=OFFICIAL_WHY)
    claims.test(
        f"beats-prior-dependent-{e}-official",
        statement=f"{e}: mean targets found in {OFFICIAL_BUDGET} queries with the official query rule, EM-PTDM / the "
                  "prior-dependent baseline, both on the uninformative prior",
        paper=PAPER_WIN + "; repository figure: more aircraft found than DiffATD", criterion=at_least(1.1),
        measured=o["em-ptdm"] / o["bayes-prior"],
        ablation=Comparator(f"{ABL}, official rule / the same baseline", o["em-permanent"] / o["bayes-prior"],
                            ingredient=ING),
        baselines=[Comparator(f"{GREEDY} / the same baseline", o["kernel-greedy"] / o["bayes-prior"])],
        tol=RATIO, setting=OFFICIAL_SETTING, post_hoc=OFFICIAL_WHY)
    trans = mean_found(e, "em-transient")
    claims.test(
        f"permanent-memory-helps-{e}",
        statement=f"{e}: mean targets found in {BUDGET} queries, EM-PTDM with an informative permanent memory (maps "
                  "of the environment's own generator) / EM over the transient memory alone",
        paper="the title's 'power of permanent and transient memory': the pretrained prior kept as a permanent memory "
              "beside the transient one makes the search better (abstract; the repository's figure 6 shows "
              "reconstructions with and without the transient memory)",
        criterion=at_least(1.0), measured=mean_found(e, "em-ptdm", "informative") / trans,
        ablation=Comparator(f"EM-PTDM with the uninformative permanent memory / {TRANS}", f["em-ptdm"] / trans,
                            ingredient=PERM_ING),
        baselines=[Comparator(f"{GREEDY} / the same", f["kernel-greedy"] / trans),
                   Comparator(f"{BAYES} on the informative prior (the informative permanent memory alone) / the same",
                              mean_found(e, "bayes-prior", "informative") / trans)],
        tol=RATIO, post_hoc=PERM_WHY)

# %%
glue("budget", BUDGET, display=False)
glue("official_budget", OFFICIAL_BUDGET, display=False)
glue("official_maps", int(P.official_maps), display=False)
glue("min_step_em", float(abs(min_step_em)), display=False)
glue("min_step_over", min_step_over, display=False)
glue("rho", float(rho), display=False)
for e in ENVS:
    for m in MAIN:
        glue(f"found_{m}_{e}", mean_found(e, m), display=False)
        glue(f"rr_{m}_{e}", ratio(e, m, "random"), display=False)
        glue(f"rb_{m}_{e}", ratio(e, m, "bayes-prior"), display=False)
    for m in POSTERIOR:
        glue(f"fit_found_{m}_{e}", mean_found(e, m, "fitted"), display=False)
        glue(f"fit_rb_{m}_{e}", mean_found(e, m, "fitted") / mean_found(e, "bayes-prior", "fitted"), display=False)
    glue(f"fit_rb_kernel-greedy_{e}", mean_found(e, "kernel-greedy") / mean_found(e, "bayes-prior", "fitted"),
         display=False)
    glue(f"fit_rb_uninf_em_{e}", mean_found(e, "em-ptdm") / mean_found(e, "bayes-prior", "fitted"), display=False)
    glue(f"fit_len_{e}", fitted[e][0], display=False)
    glue(f"fit_dens_{e}", fitted[e][1], display=False)
    for m in ("random", "bayes-prior", "em-permanent", "em-ptdm", "kernel-greedy"):
        glue(f"off_found_{m}_{e}", mean_found(e, m, rule="official"), display=False)
        glue(f"off_rr_{m}_{e}", ratio(e, m, "random", rule="official"), display=False)
        glue(f"off_rb_{m}_{e}", ratio(e, m, "bayes-prior", rule="official"), display=False)
    for m in ("bayes-prior", "em-ptdm"):
        glue(f"inf_found_{m}_{e}", mean_found(e, m, "informative"), display=False)
        glue(f"inf_ratio_{m}_{e}", mean_found(e, m, "informative") / mean_found(e, m), display=False)
    glue(f"em_over_greedy_{e}", mean_found(e, "em-ptdm") / mean_found(e, "kernel-greedy"), display=False)
    tm = runs[e, "uninformative", "em-ptdm", "ours"]["transient_mass"][:, -2]
    glue(f"transient_final_{e}", float(tm.mean()), display=False)
    tm_inf = runs[e, "informative", "em-ptdm", "ours"]["transient_mass"][:, -2]
    glue(f"transient_final_inf_{e}", float(tm_inf.mean()), display=False)
    for prior in ("uninformative", "fitted", "informative"):
        tm_mid = runs[e, prior, "em-ptdm", "ours"]["transient_mass"][:, BUDGET // 2 - 1]
        glue(f"transient_mid_{prior}_{e}", float(tm_mid.mean()), display=False)
glue("mid_query", BUDGET // 2, display=False)
glue("n_maps", int(P.maps), display=False)
for e in ENVS:
    trans = mean_found(e, "em-transient")
    for m in ("em-ptdm", "kernel-greedy"):
        glue(f"over_trans_{m}_{e}", mean_found(e, m) / trans, display=False)
    for prior in ("informative", "fitted"):
        glue(f"over_trans_em-ptdm_{prior}_{e}", mean_found(e, "em-ptdm", prior) / trans, display=False)
    glue(f"over_trans_bayes-prior_informative_{e}", mean_found(e, "bayes-prior", "informative") / trans,
         display=False)
    glue(f"trans_over_em_{e}", trans / mean_found(e, "em-ptdm"), display=False)
    glue(f"inf_fewer_em-ptdm_{e}", 100 * (1 - mean_found(e, "em-ptdm", "informative") / mean_found(e, "em-ptdm")),
         display=False)
    ll = runs[e, "uninformative", "em-ptdm", "ours"]["map_loglik"]
    glue(f"share_not_falling_{e}", share_not_falling[e], display=False)
    glue(f"share_falling_{e}", 1 - share_not_falling[e], display=False)
    glue(f"maps_end_below_{e}", int((ll[:, -1] < ll[:, 0]).sum()), display=False)
    # the skeptic's variations of the baselines
    eps_found = {v: mean_found(e, ("bayes-prior", "eps", v)) for v in SKEPTIC_EPS}
    for v in SKEPTIC_EPS:
        glue(f"found_bayes_eps{round(10 * v)}_{e}", eps_found[v], display=False)
    best_eps = max(eps_found, key=eps_found.get)
    glue(f"best_bayes_gain_{e}", 100 * (eps_found[best_eps] / mean_found(e, "bayes-prior") - 1), display=False)
    glue(f"rb_em-ptdm_best_eps_{e}", mean_found(e, "em-ptdm") / eps_found[best_eps], display=False)
    glue(f"rb_em-permanent_best_eps_{e}", mean_found(e, "em-permanent") / eps_found[best_eps], display=False)
    for v in SKEPTIC_H:
        glue(f"found_greedy_h{round(10 * v)}_{e}", mean_found(e, ("kernel-greedy", "h", v)), display=False)
    glue(f"off_em-permanent_over_bayes_{e}",
         mean_found(e, "em-permanent", rule="official") / mean_found(e, "bayes-prior", rule="official"), display=False)

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
# Numbers below are from this run (ci, seed 0: 20 maps per environment and {glue:text}`budget` queries; the
# official configuration on {glue:text}`official_maps` maps with {glue:text}`official_budget` queries); each test's
# status is the ci sweep's over seeds 0–9, and the judged table above gives every comparator's value at every seed.
# Tests marked † were added or changed after the page first ran: they move the badge only once confirmed on seeds
# that nobody looked at while designing them. The confirmation sweep on seeds 10–19 has run, and none of them
# holds there (each is judged not reproduced or not specific), so none moves the badge.
#
# * **EM-PTDM against random search** ({repro-status}`beats-random-species`; {repro-status}`beats-random-remote`).
#   EM-PTDM finds {glue:text}`rr_em-ptdm_species:.2f` and {glue:text}`rr_em-ptdm_remote:.2f` times as many
#   targets as random search on the species and remote-sensing maps, far over the bar of $1.5$. But the bar is
#   cleared without the paper's ingredient: EM over the permanent particles alone reaches
#   {glue:text}`rr_em-permanent_species:.2f` and {glue:text}`rr_em-permanent_remote:.2f` (it passes at
#   {repro-seeds}`beats-random-species:ablation:pass` and {repro-seeds}`beats-random-remote:ablation:pass` seeds),
#   the prior-dependent baseline {glue:text}`rr_bayes-prior_species:.2f` and
#   {glue:text}`rr_bayes-prior_remote:.2f` (at {repro-seeds}`beats-random-species:baseline1:pass` and
#   {repro-seeds}`beats-random-remote:baseline1:pass` seeds), and the classical greedy active search
#   {glue:text}`rr_kernel-greedy_species:.2f` and {glue:text}`rr_kernel-greedy_remote:.2f`. Finding half again
#   as many targets as random search takes only a searcher that uses its observations. This test and the next
#   are one measurement per environment: wherever the prior-dependent baseline clears $1.5$ over random search, a
#   searcher that passes the next test ($\ge1.1$ times that baseline) passes this one too. The badge still counts
#   both, so its four counted tests are two measurements; all four are not specific, so this changes no badge.
# * **EM-PTDM against the prior-dependent baseline** ({repro-status}`beats-prior-dependent-species`;
#   {repro-status}`beats-prior-dependent-remote`). EM-PTDM finds {glue:text}`rb_em-ptdm_species:.2f` and
#   {glue:text}`rb_em-ptdm_remote:.2f` times the targets of the Bayesian posterior over the prior's particles. The
#   gain does come from the transient memory: without it, EM finds fewer targets than that baseline
#   ({glue:text}`rb_em-permanent_species:.2f` and {glue:text}`rb_em-permanent_remote:.2f` of them; the ablation
#   fails at {repro-seeds}`beats-prior-dependent-species:ablation:fail` and
#   {repro-seeds}`beats-prior-dependent-remote:ablation:fail` seeds). But greedy active search on a
#   nearest-neighbour kernel estimate, with no prior and no EM, finds {glue:text}`rb_kernel-greedy_species:.2f`
#   and {glue:text}`rb_kernel-greedy_remote:.2f` times the baseline's targets (it passes at
#   {repro-seeds}`beats-prior-dependent-species:baseline1:pass` and
#   {repro-seeds}`beats-prior-dependent-remote:baseline1:pass` seeds): about as many as EM-PTDM or more (EM-PTDM finds
#   {glue:text}`em_over_greedy_species:.2f` and {glue:text}`em_over_greedy_remote:.2f` times its targets). What
#   beats the prior-dependent searcher here is learning from the task's own observations, which the classical
#   searcher does without any of the paper's machinery.
# * **What the permanent memory adds** (post hoc, †; {repro-status}`permanent-memory-helps-species`;
#   {repro-status}`permanent-memory-helps-remote`). The title's thesis is that the two memories together do
#   better. Removing the *permanent* memory does not hurt in our analogue. On the species maps it helps; on the
#   remote maps the difference is smaller, and at this seed inside the tolerance band: EM on the transient memory
#   alone finds {glue:text}`found_em-transient_species:.1f` and {glue:text}`found_em-transient_remote:.1f`
#   targets, {glue:text}`trans_over_em_species:.2f` and {glue:text}`trans_over_em_remote:.2f` times EM-PTDM's
#   {glue:text}`found_em-ptdm_species:.1f` and {glue:text}`found_em-ptdm_remote:.1f`. Over the sweep, EM-PTDM's
#   count over the transient memory's (the test's ablation; {glue:text}`over_trans_em-ptdm_species:.2f` and
#   {glue:text}`over_trans_em-ptdm_remote:.2f` here) falls below $1$, outside the tolerance band, at
#   {repro-seeds}`permanent-memory-helps-species:ablation:fail` (species) and
#   {repro-seeds}`permanent-memory-helps-remote:ablation:fail` (remote) seeds, lies within the band at
#   {repro-seeds}`permanent-memory-helps-species:ablation:edge` and
#   {repro-seeds}`permanent-memory-helps-remote:ablation:edge`, and clears it at
#   {repro-seeds}`permanent-memory-helps-species:ablation:pass` and
#   {repro-seeds}`permanent-memory-helps-remote:ablation:pass`. At full scale this ratio is inside the band at
#   every seed on the remote maps, and at or just below its lower edge on the species maps. A permanent memory
#   that knows the task does not
#   rescue the thesis either: with maps of the environment's own generator EM-PTDM finds
#   {glue:text}`over_trans_em-ptdm_informative_species:.2f` and
#   {glue:text}`over_trans_em-ptdm_informative_remote:.2f` times the transient memory's targets (the test's
#   measurement; below the bar at {repro-seeds}`permanent-memory-helps-species:method:fail` and
#   {repro-seeds}`permanent-memory-helps-remote:method:fail` seeds), and with the generic speckle fitted to the
#   targets' scale {glue:text}`over_trans_em-ptdm_fitted_species:.2f` and
#   {glue:text}`over_trans_em-ptdm_fitted_remote:.2f` (this seed only). Said plainly: given the true
#   generator's maps, EM-PTDM finds {glue:text}`inf_fewer_em-ptdm_species:.0f` % and
#   {glue:text}`inf_fewer_em-ptdm_remote:.0f` % *fewer* targets than with the uninformative speckle at this seed.
#   In this analogue an informative permanent memory hurts. At this seed, the better it matches the targets,
#   the longer EM trusts it: after query {glue:text}`mid_query` the weight on the transient memory is
#   {glue:text}`transient_mid_uninformative_species:.2f`,
#   {glue:text}`transient_mid_fitted_species:.2f` and {glue:text}`transient_mid_informative_species:.2f` (species;
#   uninformative, fitted, informative prior) and {glue:text}`transient_mid_uninformative_remote:.2f`,
#   {glue:text}`transient_mid_fitted_remote:.2f` and {glue:text}`transient_mid_informative_remote:.2f` (remote),
#   and the search exploits its own observations less. The naive kernel-greedy searcher finds
#   {glue:text}`over_trans_kernel-greedy_species:.2f` and {glue:text}`over_trans_kernel-greedy_remote:.2f` times the
#   transient memory's targets, and the informative permanent memory alone (the prior-dependent baseline on it)
#   {glue:text}`over_trans_bayes-prior_informative_species:.2f` and
#   {glue:text}`over_trans_bayes-prior_informative_remote:.2f` times.
# * **With a generic prior at the targets' scale** (post hoc, †;
#   {repro-status}`beats-prior-dependent-species-fitted-prior`;
#   {repro-status}`beats-prior-dependent-remote-fitted-prior`). Give every method speckle with the targets'
#   density and grain (fitted lengths {glue:text}`fit_len_species:.1f` and {glue:text}`fit_len_remote:.1f`
#   cells) and, at this seed, the prior-dependent baseline finds {glue:text}`fit_found_bayes-prior_species:.1f`
#   and {glue:text}`fit_found_bayes-prior_remote:.1f` targets instead of {glue:text}`found_bayes-prior_species:.1f`
#   and {glue:text}`found_bayes-prior_remote:.1f`, while EM-PTDM finds {glue:text}`fit_found_em-ptdm_species:.1f`
#   and {glue:text}`fit_found_em-ptdm_remote:.1f` instead of {glue:text}`found_em-ptdm_species:.1f` and
#   {glue:text}`found_em-ptdm_remote:.1f`: ratios of {glue:text}`fit_rb_em-ptdm_species:.2f` and
#   {glue:text}`fit_rb_em-ptdm_remote:.2f` against the bar of $1.1$. The two environments differ over the sweep.
#   On the species maps the method passes at {repro-seeds}`beats-prior-dependent-species-fitted-prior:method:pass`
#   seeds (at the edge at {repro-seeds}`beats-prior-dependent-species-fitted-prior:method:edge`): at ci scale the
#   margin of the pre-registered test is gone. At full scale (more maps, a larger budget) the method clears the
#   bar on the species maps again, but kernel-greedy clears it by more, so the test is not specific there. On the
#   remote maps the outcome is mixed: the method passes at
#   {repro-seeds}`beats-prior-dependent-remote-fitted-prior:method:pass` seeds, is at the edge at
#   {repro-seeds}`beats-prior-dependent-remote-fitted-prior:method:edge` and fails at
#   {repro-seeds}`beats-prior-dependent-remote-fitted-prior:method:fail`; seed 0, this run, is among its lowest, so
#   this run's ratio is no guide to the sweep. Where it passes, kernel-greedy passes with it
#   ({repro-seeds}`beats-prior-dependent-remote-fitted-prior:baseline1:pass` seeds over the sweep); at full scale
#   the remote ratio is at the edge of the bar. At this seed,
#   after query {glue:text}`mid_query` EM-PTDM's weight on its transient memory is
#   {glue:text}`transient_mid_fitted_species:.2f` and {glue:text}`transient_mid_fitted_remote:.2f` with the fitted
#   prior against {glue:text}`transient_mid_uninformative_species:.2f` and
#   {glue:text}`transient_mid_uninformative_remote:.2f` with the uninformative one: with particles at the targets'
#   grain, EM trusts them longer. If only the baseline is given the right scale while EM-PTDM keeps its
#   uninformative prior, EM-PTDM finds {glue:text}`fit_rb_uninf_em_species:.2f` and
#   {glue:text}`fit_rb_uninf_em_remote:.2f` times the baseline's targets: EM-PTDM does best when it can ignore its
#   prior, which kernel-greedy does from the start.
# * **The official query rule and budget** (post hoc, †; {repro-status}`beats-random-species-official`;
#   {repro-status}`beats-random-remote-official`; {repro-status}`beats-prior-dependent-species-official`;
#   {repro-status}`beats-prior-dependent-remote-official`). With the official score and 300 of 1024 cells EM-PTDM
#   finds {glue:text}`off_rr_em-ptdm_species:.2f` and {glue:text}`off_rr_em-ptdm_remote:.2f` times random search's
#   targets and kernel-greedy {glue:text}`off_rr_kernel-greedy_species:.2f` and
#   {glue:text}`off_rr_kernel-greedy_remote:.2f`. The other two comparators are strawmen in this configuration:
#   under the official score the searchers that trust only the particles barely beat random search, and on the
#   remote maps find about as many targets as random search or fewer. At this seed, on the remote maps, the
#   prior-dependent baseline and EM over the permanent particles find
#   {glue:text}`off_found_bayes-prior_remote:.1f` and {glue:text}`off_found_em-permanent_remote:.1f` targets
#   against random search's {glue:text}`off_found_random_remote:.1f` (ratio of the two
#   {glue:text}`off_em-permanent_over_bayes_remote:.2f`), and on the species maps
#   {glue:text}`off_rr_bayes-prior_species:.2f` and {glue:text}`off_rr_em-permanent_species:.2f` times random
#   search's targets; over the sweep they clear $1.5$ over random search at
#   {repro-seeds}`beats-random-species-official:baseline1:pass` and
#   {repro-seeds}`beats-random-remote-official:baseline1:pass` seeds (the prior-dependent baseline) and
#   {repro-seeds}`beats-random-species-official:ablation:pass` and
#   {repro-seeds}`beats-random-remote-official:ablation:pass` (the ablation). So EM-PTDM's official ratios over
#   the prior-dependent baseline, {glue:text}`off_rb_em-ptdm_species:.2f` and {glue:text}`off_rb_em-ptdm_remote:.2f`,
#   are ratios over a searcher near chance, not margins over DiffATD, and the ablation failing there says little;
#   kernel-greedy is the comparator that counts, and it passes every official criterion with the method
#   ({glue:text}`off_rb_kernel-greedy_species:.2f` and {glue:text}`off_rb_kernel-greedy_remote:.2f` of the
#   baseline).
# * **Shown, not counted: the monotone improvement.** The paper's exact theorem was not retrieved, so we show
#   two readings of "a monotonic improvement in prior estimates with each new observation". Within each EM fit the
#   log-likelihood never fell (smallest change between steps within rounding of zero), as EM's ascent property
#   guarantees for any EM; over-relaxed EM, the wrong update of the page's first version, did not descend on these
#   likelihoods either. From one observation to the next the estimate is *not* monotone here: the per-cell
#   log-likelihood of the whole true map under EM-PTDM's estimate falls at {glue:text}`share_falling_species:.2f`
#   and {glue:text}`share_falling_remote:.2f` of the steps, and ends below its value after the first observation
#   on {glue:text}`maps_end_below_species` and {glue:text}`maps_end_below_remote` of the {glue:text}`n_maps` maps
#   (figure above). Our analogue promises nothing of the kind, so this says what the analogue lacks, not that
#   the paper's theorem is wrong.
# * **Shown, not counted: prior dependence.** With an informative prior the prior-dependent baseline finds
#   {glue:text}`inf_ratio_bayes-prior_species:.2f` and {glue:text}`inf_ratio_bayes-prior_remote:.2f` times as many
#   targets as with the uninformative one (the premise of the setting), while EM-PTDM finds
#   {glue:text}`inf_ratio_em-ptdm_species:.2f` and {glue:text}`inf_ratio_em-ptdm_remote:.2f` times as many:
#   fewer, not more, as the permanent-memory bullet says.
#
# **What this says about the paper.** In a particle analogue built to match the paper's premise (a prior that
# carries no information about the task), EM-PTDM beats random search and a prior-dependent searcher, under our
# query rule and under the official one. None of that is specific to the paper's ingredients: a classical greedy
# searcher that only smooths its own observations does about as well on the remote maps and better on the species
# maps; EM on the transient memory alone finds more targets than EM-PTDM with the informative prior in both
# environments, and than EM-PTDM with the uninformative prior on the species maps (on the remote maps that gap is
# small, inside the tolerance band at this seed and at full scale), so the permanent memory, the half of the
# title's pair that the page first left in place, costs targets here or at best adds nothing; and when EM-PTDM and
# the prior-dependent searcher share a generic prior at the targets' scale, the margin over the prior-dependent
# searcher is gone on the species maps at ci scale (at full scale it returns, smaller than kernel-greedy's) and
# mixed on the remote ones. The page does not test the paper's diffusion prior, its h-transform (which adds the two
# memories' predictions instead of weighing them), or its data, where a learned transient memory may do what a
# kernel smoother cannot and a pretrained prior may carry more than our particles; the paper's numbers were not
# retrieved.
#
# ## What a skeptic would try
#
# Reviewed by: two independent reviewers (helpers that did not write the page), with the rubric, the page, the
# record and the brief. The first review of the page's earlier version found that the `beats-random` checks were
# passed by the method without its transient memory and by the prior-dependent baseline, that the
# prior-dependence checks hold almost by construction, that the EM ascent holds for any EM, and that the
# prior-dependent baseline's particles are at the wrong scale. The second re-ran the ci preset at seeds 0–4 with
# its own scripts and found the ablation that matters for the title missing (removing the permanent memory raises
# targets found), the fitted-prior prose generalising from remote's worst seed, strawman comparators in the official
# configuration, a second reading of the monotone guarantee that fails, the two discovery tests being one
# measurement, the prior-dependent baseline handicapped by its flip noise, and an unstated change of the brief's
# bar. Each is answered above or below; what they tried is measured by this notebook, under the tests' own
# measurement (seed 0 of this run):
#
# * **Classical greedy active search** (a baseline of every discovery test): the unobserved cell of largest
#   kernel-smoothed target rate, nearest-neighbour kernel ($h=1$ cell), no prior, no EM, no exploration. It finds
#   {glue:text}`found_kernel-greedy_species:.1f` and {glue:text}`found_kernel-greedy_remote:.1f` targets in
#   {glue:text}`budget` queries, against EM-PTDM's {glue:text}`found_em-ptdm_species:.1f` and
#   {glue:text}`found_em-ptdm_remote:.1f` and random search's {glue:text}`found_random_species:.1f` and
#   {glue:text}`found_random_remote:.1f`; in the official configuration {glue:text}`off_found_kernel-greedy_species:.1f`
#   and {glue:text}`off_found_kernel-greedy_remote:.1f` against EM-PTDM's {glue:text}`off_found_em-ptdm_species:.1f`
#   and {glue:text}`off_found_em-ptdm_remote:.1f`. Its bandwidth was not picked to win: at $h=0.7$, $1.5$ and $2$
#   cells it finds {glue:text}`found_greedy_h7_species:.1f`, {glue:text}`found_greedy_h15_species:.1f` and
#   {glue:text}`found_greedy_h20_species:.1f` (species) and {glue:text}`found_greedy_h7_remote:.1f`,
#   {glue:text}`found_greedy_h15_remote:.1f` and {glue:text}`found_greedy_h20_remote:.1f` (remote).
# * **EM without the transient memory** (the ablation of every discovery test):
#   {glue:text}`found_em-permanent_species:.1f` and {glue:text}`found_em-permanent_remote:.1f` targets.
# * **EM without the permanent memory** (the denominator of `permanent-memory-helps`):
#   {glue:text}`found_em-transient_species:.1f` and {glue:text}`found_em-transient_remote:.1f` targets; at this
#   seed, more than EM-PTDM with any of the three priors (see the verdict).
# * **The prior-dependent baseline as a comparator of `beats-random`**: {glue:text}`found_bayes-prior_species:.1f`
#   and {glue:text}`found_bayes-prior_remote:.1f` targets.
# * **The prior-dependent baseline with more flip noise.** It shares the particles' $\varepsilon=0.1$ with
#   every method, which handicaps it: with $\varepsilon=0.2$, $0.3$ and $0.4$ it finds
#   {glue:text}`found_bayes_eps2_species:.1f`, {glue:text}`found_bayes_eps3_species:.1f` and
#   {glue:text}`found_bayes_eps4_species:.1f` targets (species) and {glue:text}`found_bayes_eps2_remote:.1f`,
#   {glue:text}`found_bayes_eps3_remote:.1f` and {glue:text}`found_bayes_eps4_remote:.1f` (remote), up to
#   {glue:text}`best_bayes_gain_species:.0f` % and {glue:text}`best_bayes_gain_remote:.0f` % more than at $0.1$. Against
#   its best, EM-PTDM's ratio is {glue:text}`rb_em-ptdm_best_eps_species:.2f` and
#   {glue:text}`rb_em-ptdm_best_eps_remote:.2f` and the ablation's {glue:text}`rb_em-permanent_best_eps_species:.2f`
#   and {glue:text}`rb_em-permanent_best_eps_remote:.2f`, on the same sides of the bar of $1.1$ as in the test at
#   this seed: the handicap changes no outcome here.
# * **The prior-dependent baseline at the right scale**: speckle fitted to the targets' density and neighbour
#   agreement gives it {glue:text}`fit_found_bayes-prior_species:.1f` and
#   {glue:text}`fit_found_bayes-prior_remote:.1f` targets. If only the baseline gets the fitted prior while EM-PTDM
#   keeps the uninformative one, EM-PTDM's ratio is {glue:text}`fit_rb_uninf_em_species:.2f` and
#   {glue:text}`fit_rb_uninf_em_remote:.2f`; with every method on the fitted prior (the post-hoc test), it is
#   {glue:text}`fit_rb_em-ptdm_species:.2f` and {glue:text}`fit_rb_em-ptdm_remote:.2f`, and kernel-greedy's is
#   {glue:text}`fit_rb_kernel-greedy_species:.2f` and {glue:text}`fit_rb_kernel-greedy_remote:.2f`.
# * **Strawmen in the official configuration**: the prior-dependent baseline and the ablation search at about
#   chance under the official score ({glue:text}`off_rr_bayes-prior_remote:.2f` and
#   {glue:text}`off_rr_em-permanent_remote:.2f` times random search's targets on the remote maps at this seed);
#   only kernel-greedy is a real comparator there (see the verdict).
# * **The static prior** (the old control of `beats-random`, dropped as a strawman): its mean map, never updated,
#   finds {glue:text}`rr_static-prior_species:.2f` and {glue:text}`rr_static-prior_remote:.2f` times random search's
#   targets, at chance by construction.
#
# ## What the miniature cannot show
#
# * The paper's method itself: a diffusion model as permanent memory and a fine-tuned h-transform, added to it,
#   as transient memory. Our components are fixed maps and kernel smoothers whose only learned parameters are
#   mixture weights, so EM is exact and cheap here; fitting a network in the M-step is neither, and a learned
#   transient memory may capture what a kernel smoother cannot (shapes, textures of image blocks).
# * The paper's data (species occurrence records, DOTA aerial scenes at 128×128 with 4×4 blocks) and its
#   reported numbers, which we did not retrieve.
# * The official target classifier, trained online on image blocks: our official configuration stands it in
#   with the sample's own label and flip noise.
# * A regime where the paper's combination of memories should matter most, a prior that is informative about
#   some tasks and not others: on our maps an informative prior makes EM-PTDM find fewer targets, not more
#   ({glue:text}`inf_fewer_em-ptdm_species:.0f` % and {glue:text}`inf_fewer_em-ptdm_remote:.0f` % fewer than with the
#   uninformative one at this seed), and we did not search for a setting where it profits.
# * Noisy observations: our queries reveal the target indicator exactly.
