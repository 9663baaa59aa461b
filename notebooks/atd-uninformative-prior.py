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
from scipy.stats import spearmanr

from repro.claims import Claims, at_least, tolerance
from repro.papers import atd_uninformative_prior as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 6 s of compute on one thread (measured): 20 maps per environment, 10% of the cells
    "ci": dict(size=32, maps=20, particles=128, budget_frac=0.10, em_iter=10),
    # about 1.5 min of compute (6 min wall on a loaded machine): 100 maps per environment, twice the particles, a horizon of 20% of the cells
    "full": dict(size=32, maps=100, particles=256, budget_frac=0.20, em_iter=10),
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
ENVS = ("species", "remote")
OMEGA = 4.0                   # over-relaxation of the control update in the EM-ascent check

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
# query we run 10 EM steps, warm-started from the previous weights (uniform at the first query).
#
# **Query rule.** The next cell maximises $\alpha_1 H(\hat p_j)+(1-\alpha_1)\hat p_j$ over unobserved cells,
# with $H$ the binary entropy (bits) and the official code's annealing $\alpha_1=\max(0,(B-b)/(B+b))$ at
# query $b$ of $B$: explore uncertain cells first, then exploit likely targets.
#
# **Methods, all with the same query rule and the same first (random) cell per map:**
#
# * `em-ptdm`: EM over permanent and transient components (the method);
# * `bayes-prior`: the prior-dependent baseline, DiffATD-like: Bayesian posterior over the permanent
#   particles, $w_k\propto\prod_i L_{ik}$ (the prior's maps are the only hypotheses);
# * `em-permanent`: EM over the permanent particles only (the method without its transient memory);
# * `static-prior`: $\hat p$ = the prior's mean, never updated;
# * `random`: a uniformly random unobserved cell.
#
# ## The experiment
#
# * **Species-distribution-like maps:** white noise smoothed by an anisotropic Gaussian (length scales 1.5
#   and 4 cells), plus a random north-south gradient, thresholded to 8–15% of the cells: a few elongated
#   habitat patches.
# * **Remote-sensing-like maps:** 2 to 4 clusters ("airfields") of 3 to 7 small rectangular objects
#   (2×2 to 2×4 cells) within 5 cells of each cluster centre; about 6% of the cells.
# * **Uninformative permanent prior:** 128 particles (256 at full) of isotropic speckle (length 0.8 cells,
#   30% density), the same for both environments. **Informative prior** (for the prior-dependence check):
#   128 (256) maps from the environment's own generator, other seeds.
# * **Scale:** 20 maps per environment at ci, 100 at full (the brief's numbers); budget 10% of the cells
#   (102 queries) at ci, 20% (205) at full. Spread is over maps (each map its own random draw); the
#   sweep adds seeds. All methods see the same maps and the same first cell. A full run took about 1.5 min
#   of CPU per seed (6 to 9 min of wall time on our shared, heavily loaded 2-core machine).
#
# **Claims, fixed before the first run** (thresholds from the brief; each with its control):
#
# 1. `em-ascent` (theorem): over every EM run of EM-PTDM in both environments, the smallest change of
#    $\ell$ between consecutive EM steps is $\ge -10^{-9}$. Control: a deliberately wrong update,
#    over-relaxed EM $w_k\propto w_k\,g_k^{\omega}$ with $\omega=4$ ($g_k=\frac1t\sum_iL_{ik}/(Lw)_i$;
#    $\omega=1$ is EM), 50 steps from uniform weights on the final likelihoods of each map.
# 2. `beats-random-<env>`: mean targets found at the budget, EM-PTDM over random, $\ge 1.5$. Control: the
#    static prior over random.
# 3. `beats-prior-dependent-<env>`: EM-PTDM over the prior-dependent baseline, $\ge 1.1$. Control: EM on
#    the permanent particles only (no transient memory) over the same baseline.
# 4. `prior-dependence-<env>` (added after a development run, †): the prior-dependent baseline finds
#    $\ge 1.2$ times as many targets with the informative prior as with the uninformative one. Control: the
#    same ratio for EM-PTDM.
#
# **Deviations from the paper**
#
# * Particle analogue: the pretrained DDIM (permanent memory) is replaced by a fixed ensemble of prior maps,
#   and the h-transform network fine-tuned on the observations (transient memory) by kernel smoothers of the
#   observations at three bandwidths; EM fits only their mixture weights. No diffusion, no neural network,
#   no DPS guidance.
# * Data: synthetic 32×32 binary maps (species-like patches and remote-sensing-like objects) instead of the
#   paper's species-distribution data and DOTA aerial scenes; single cells instead of the official 4×4
#   pixel blocks; noiseless observations of the target indicator instead of image pixels plus an online
#   target classifier.
# * Query rule: our score $\alpha_1H(\hat p)+(1-\alpha_1)\hat p$ on the posterior mean, with the official
#   annealing of $\alpha_1$; the official score (pairwise particle differences, a classifier's reward, a
#   sum of logs over particles) is compared below, not used in the runs.
# * Baselines: DiffATD is represented by a Bayesian posterior over the prior's particles
#   (`bayes-prior`), not by the DiffATD code; the brief's nearest-positive greedy and GP baselines are left out.
# * Defaults that are ours: $\varepsilon=0.1$, bandwidths 1, 2, 4 cells, pseudo-count 1, 10 warm-started EM
#   steps per query, 128/256 particles. One design choice was changed after a development run (maps of other
#   seeds than the page uses): the transient smoother first shrank towards $p_0=0.5$, which made the
#   entropy term explore almost every empty region; it now shrinks towards the observed target rate. The
#   brief's thresholds were not changed.
# * Claim 4 was added after that development run, which showed the contrast: it is flagged post hoc (†).

# %%
kernels = {h: K.gaussian_kernel_matrix(P.size, h) for h in BANDWIDTHS}
targets = {e: K.make_target_maps(e, P.maps, P.size, 10_000 + 100 * seed + i).reshape(P.maps, N)
           for i, e in enumerate(ENVS)}
prior_uninf = K.sample_prior_particles(P.particles, P.size, 20_000 + seed)
prior_inf = {e: K.make_target_maps(e, P.particles, P.size, 30_000 + 100 * seed + i).reshape(P.particles, N)
             for i, e in enumerate(ENVS)}
first = {e: P.rng.integers(0, N, P.maps) for e in ENVS}
print(f"scale={P.scale}: {P.maps} maps of {P.size}x{P.size} per environment, budget {BUDGET} queries, "
      f"{P.particles} particles; target density " +
      ", ".join(f"{e} {targets[e].mean():.3f}" for e in ENVS))

runs = {}  # (env, prior, method) -> result of K.run_discovery
jobs = [(e, "uninformative", m) for e in ENVS for m in K.METHODS] + \
       [(e, "informative", m) for e in ENVS for m in ("bayes-prior", "em-ptdm")]
for e, prior, m in progress(jobs, desc="runs"):
    parts = prior_uninf if prior == "uninformative" else prior_inf[e]
    runs[e, prior, m] = K.run_discovery(m, targets[e], parts, BUDGET, np.random.default_rng([seed, 7]),
                                        eps=EPS, bandwidths=BANDWIDTHS, em_iter=P.em_iter, kernels=kernels,
                                        first=first[e])


def found_at_budget(e, m, prior="uninformative"):
    return runs[e, prior, m]["found"][:, -1]


for e in ENVS:
    print(e, "| mean targets found at budget:",
          ", ".join(f"{m} {found_at_budget(e, m).mean():.1f}" for m in K.METHODS),
          f"| informative prior: bayes-prior {found_at_budget(e, 'bayes-prior', 'informative').mean():.1f}, "
          f"em-ptdm {found_at_budget(e, 'em-ptdm', 'informative').mean():.1f}")

# %% [markdown]
# ## Results
#
# ### The maps and where EM-PTDM looked
#
# One map of each environment with the cells EM-PTDM queried (dots: white = target found, red = empty),
# one particle of the uninformative prior, and EM-PTDM's final estimate $\hat p$.

# %%
fig, axes = plt.subplots(2, 3, figsize=(8.5, 5.6))
for r, e in enumerate(ENVS):
    x = targets[e][0].reshape(P.size, P.size)
    q = runs[e, "uninformative", "em-ptdm"]["queries"][0]
    qy, qx = np.divmod(q, P.size)
    hit = targets[e][0][q]
    axes[r, 0].imshow(x, cmap="Greens", vmin=0, vmax=1.3)
    axes[r, 0].scatter(qx[hit], qy[hit], s=9, c="k", marker="o", label="target found")
    axes[r, 0].scatter(qx[~hit], qy[~hit], s=9, c="tab:red", marker="x", label="empty cell")
    axes[r, 0].set(title=f"{e} map 0: {int(hit.sum())} of {int(x.sum())} targets in {BUDGET} queries")
    axes[r, 1].imshow(prior_uninf[r].reshape(P.size, P.size), cmap="Greys")
    axes[r, 1].set(title=f"uninformative prior particle {r}")
    # the final estimate, rebuilt from the final weights and the observations
    L = K.component_likelihoods(targets[e][0], prior_uninf, q[:-1], EPS, BANDWIDTHS)
    w = runs[e, "uninformative", "em-ptdm"]["weights"][0]
    obs_y = targets[e][0][q[:-1]]
    qq = q[:-1]
    rate = (obs_y.sum() + 0.5) / (len(qq) + 1)
    comps = [K.transient_components(kernels[h][:, qq] @ obs_y, kernels[h][:, qq].sum(axis=1), rate) for h in BANDWIDTHS]
    p_hat = w[:P.particles] @ (EPS + (1 - 2 * EPS) * prior_uninf) + sum(wc * c for wc, c in zip(w[P.particles:-1], comps)) + w[-1] * rate
    im = axes[r, 2].imshow(p_hat.reshape(P.size, P.size), cmap="viridis", vmin=0, vmax=1)
    axes[r, 2].set(title=f"EM-PTDM estimate $\\hat p$ (weight on transient: {w[P.particles:].sum():.2f})")
    fig.colorbar(im, ax=axes[r, 2], fraction=0.046, label="P(target)")
for ax in axes.ravel():
    ax.set(xticks=[], yticks=[])
axes[0, 0].legend(fontsize=7, loc="lower left")
plt.show()

# %% [markdown]
# ### Learning curves: targets found against queries
#
# Fraction of each map's targets found after $b$ queries, mean over the maps with a band of ±1 standard
# error (over maps); every method on the same maps and from the same first cell. The dashed line is the
# expected curve of random search ($b\times$ density / targets).

# %%
fig, axes = plt.subplots(1, 2, figsize=(8.4, 3.2), sharey=True)
colors = {"em-ptdm": "C0", "bayes-prior": "C1", "em-permanent": "C2", "static-prior": "C7", "random": "C3"}
b_axis = np.arange(BUDGET + 1)
for ax, e in zip(axes, ENVS):
    total = targets[e].sum(axis=1)
    for m in K.METHODS:
        frac = runs[e, "uninformative", m]["found"] / total[:, None]
        mu, se = frac.mean(axis=0), frac.std(axis=0, ddof=1) / np.sqrt(P.maps)
        ax.plot(b_axis, mu, color=colors[m], label=m, lw=2 if m == "em-ptdm" else 1.2)
        ax.fill_between(b_axis, mu - se, mu + se, color=colors[m], alpha=0.2)
    ax.plot(b_axis, b_axis / N, "k--", lw=0.8, label="random, expected")
    ax.set(xlabel="queries b", title=f"{e}: uninformative prior, {P.maps} maps")
axes[0].set_ylabel("fraction of the map's targets found")
axes[0].legend(fontsize=8)
plt.show()

# %% [markdown]
# ### How much each method depends on its prior, and what EM chooses
#
# Left: targets found at the budget with the uninformative and with an informative prior (mean ± standard
# error over maps). Right: the total EM weight on the transient components after each query (mean over
# maps, band: 10th to 90th percentile), with the uninformative and the informative prior.

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
        tm = runs[e, prior, "em-ptdm"]["transient_mass"][:, :-1]
        axes[1].plot(np.arange(1, BUDGET), tm.mean(axis=0), ls=ls, color=c, label=f"{e}, {prior} prior")
        axes[1].fill_between(np.arange(1, BUDGET), *np.percentile(tm, [10, 90], axis=0), color=c, alpha=0.12)
axes[1].set(xlabel="queries b", ylabel="EM weight on the transient memory", ylim=(0, 1),
            title="EM-PTDM: transient vs permanent memory")
axes[1].legend(fontsize=7)
plt.show()

# %% [markdown]
# ### The EM ascent, and an update that breaks it
#
# For each map of the species environment, the component likelihoods of EM-PTDM's final observations:
# $\ell(w)$ along 50 EM steps from uniform weights, and along the over-relaxed update ($\omega=4$), the
# control of claim 1 (curves relative to the EM end point, one line per map).

# %%
ascent = {"em": [], "over": []}
for e in ENVS:
    for i in range(P.maps):
        L = K.component_likelihoods(targets[e][i], prior_uninf, runs[e, "uninformative", "em-ptdm"]["queries"][i, :-1],
                                    EPS, BANDWIDTHS)
        ascent["em"].append(K.em_mixture_weights_trace(L, 50)[1])
        ascent["over"].append(K.overrelaxed_weights_trace(L, 50, OMEGA)[1])
ascent = {k: np.array(v) for k, v in ascent.items()}
min_step_em = min(runs[e, "uninformative", "em-ptdm"]["min_step"] for e in ENVS)
min_step_over = float(np.diff(ascent["over"], axis=1).min())
print(f"smallest EM step change of the log-likelihood over all runs: {min_step_em:.2g}; "
      f"over-relaxed control (omega = {OMEGA:g}): {min_step_over:.3g}")

fig, ax = plt.subplots(figsize=(5.6, 3.2))
n_show = P.maps  # the species maps
ref = ascent["em"][:n_show, -1:]
for i in range(n_show):
    ax.plot(ascent["em"][i] - ref[i], color="C0", lw=0.8, label="EM" if i == 0 else None)
    ax.plot(ascent["over"][i] - ref[i], color="C3", lw=0.8, alpha=0.7, label=f"over-relaxed, $\\omega$={OMEGA:g}" if i == 0 else None)
ax.set(xlabel="iteration", ylabel=r"$\ell(w)-\ell(w_{EM,50})$ (nats)", yscale="symlog",
       title="Log-likelihood along the updates (species maps)")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### The paper's numbers
#
# The paper's reported numbers were not retrieved, and the official repository's figures are qualitative,
# so the table sets the paper's settings beside ours without values to compare.
#
# | setting | paper (reported) | this page |
# |---|---|---|
# | aerial scene (DOTA), aircraft pixels found by step 350 | figure only (EM-PTDM finds more than DiffATD); no number retrieved | remote-like maps: see the claims `beats-prior-dependent-remote`, `beats-random-remote` |
# | species distribution | "substantially outperforms baselines"; no number retrieved | species-like maps: `beats-prior-dependent-species`, `beats-random-species` |
# | monotone improvement of the prior estimate | guaranteed (abstract) | EM ascent, claim `em-ascent` |

# %% [markdown]
# ## Against the official code
#
# The paper's code: [KevinG396/EM_PTDM](https://github.com/KevinG396/EM_PTDM) (commit `7637f98`). It needs
# TensorFlow 2.15, JAX and Keras 3, a DDIM trained on ImageNet and an h-transform network, none of which
# run here. What we ran is its query rule: `ActiveSampler.select_block_entropy`, executed on five small
# seeded inputs with numpy stand-ins for `keras.ops` and `tf` (every other import stubbed, the online
# target classifier replaced by fixed logits). The golden file `tests/papers/golden/atd-uninformative-prior.json`
# holds its score maps and chosen blocks, and `K.official_block_scores`, written from our reading of the
# source, matches them to 1e-9 (test `test_golden_official_block_scores`). The score, for posterior samples
# $x^{(1..P)}$ and per-sample target rewards $r_j$ from the classifier, is
# $\sum_j\log\big(\alpha_1E_j+\alpha_2r_jC_j\big)$ with block averages of
# $E_j=\sum_ie^{+d_{ij}^2/2\sigma^2}$ (disagreement between samples) and $C_j=\sum_ie^{-d_{ij}^2/2\sigma^2}$ (agreement).
#
# What agrees, and what we changed:
#
# * the annealing $\alpha_1=\max(0,(B-b)/(B+b))$ is the official one (`K.exploration_weight`);
# * the official rule scores pixels through pairwise differences of posterior samples; ours uses the
#   posterior probability directly (entropy for exploration, probability for exploitation). Below we compare
#   the two on one of our runs, with 32 samples of $\hat p$ as the particles and $\hat p$ as the reward;
# * a departure we found in the official code: observed blocks are masked by *multiplying* their score by
#   0, so when every unobserved block scores below 0 (late in the search, when $\alpha_1=0$ and the rewards are
#   small) the rule re-selects an already observed block. The golden case `observed_block_wins` shows it.
#   Our query rule excludes observed cells (`K.select_query`, tested);
# * the official EM step fine-tunes the h-transform network by gradient steps every 20 queries and the
#   target classifier after every query; our EM re-weights fixed components after every query, in closed form.

# %%
e = "species"
run = runs[e, "uninformative", "em-ptdm"]
b_mid = BUDGET // 2
qq = run["queries"][0, :b_mid]
obs_y = targets[e][0][qq]
L = K.component_likelihoods(targets[e][0], prior_uninf, qq, EPS, BANDWIDTHS)
w = K.em_mixture_weights(L, 200)
rate = (obs_y.sum() + 0.5) / (len(qq) + 1)
comps = [K.transient_components(kernels[h][:, qq] @ obs_y, kernels[h][:, qq].sum(axis=1), rate) for h in BANDWIDTHS]
p_mid = w[:P.particles] @ (EPS + (1 - 2 * EPS) * prior_uninf) + sum(wc * c for wc, c in zip(w[P.particles:-1], comps)) + w[-1] * rate
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
claims.check("em-ascent", kind="theorem",
             statement="EM on the mixture weights never lowers the observed-data log-likelihood: smallest change "
                       "between consecutive EM steps, over every EM run of EM-PTDM in both environments",
             paper="a strong, monotonic improvement in prior estimates with each new observation (abstract)",
             criterion=at_least(-1e-9), measured=float(min_step_em), control=min_step_over,
             control_label=f"over-relaxed EM (omega = {OMEGA:g}) on the final likelihoods of each map, 50 steps",
             tol=tolerance(abs=1e-9, why="the smallest step is a difference of log-likelihoods near convergence: "
                           "rounding noise; recorded as a bound", bound=True))
for e in ENVS:
    mean = {m: found_at_budget(e, m).mean() for m in K.METHODS}
    claims.check(f"beats-random-{e}",
                 statement=f"{e}: mean targets found in {BUDGET} queries, EM-PTDM / random search",
                 paper=PAPER_WIN, criterion=at_least(1.5), measured=float(mean["em-ptdm"] / mean["random"]),
                 control=float(mean["static-prior"] / mean["random"]),
                 control_label="the uninformative prior's mean map, never updated, / random", tol=RATIO)
    claims.check(f"beats-prior-dependent-{e}",
                 statement=f"{e}: mean targets found in {BUDGET} queries, EM-PTDM / prior-dependent baseline "
                           "(Bayesian posterior over the prior's particles)",
                 paper=PAPER_WIN + "; repository figure: more aircraft found than DiffATD", criterion=at_least(1.1),
                 measured=float(mean["em-ptdm"] / mean["bayes-prior"]),
                 control=float(mean["em-permanent"] / mean["bayes-prior"]),
                 control_label="EM over the permanent particles only (no transient memory) / the same baseline",
                 tol=RATIO)
for e in ENVS:
    claims.check(f"prior-dependence-{e}",
                 statement=f"{e}: targets found by the prior-dependent baseline with an informative prior / "
                           "with the uninformative one",
                 paper="prior-dependent methods struggle where a strong prior cannot be learned (abstract)",
                 criterion=at_least(1.2),
                 measured=float(found_at_budget(e, "bayes-prior", "informative").mean()
                                / found_at_budget(e, "bayes-prior").mean()),
                 control=float(found_at_budget(e, "em-ptdm", "informative").mean() / found_at_budget(e, "em-ptdm").mean()),
                 control_label="the same ratio for EM-PTDM", tol=RATIO,
                 post_hoc="added after a development run (other map seeds) showed the contrast")

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Reproduced in the particle analogue, for the discovery claims; the monotone-improvement check is
# uninformative.** Of the four pre-registered claims that count, all four hold: in both environments, with
# an uninformative prior, EM-PTDM finds far more targets per query than random search and than the
# prior-dependent baseline, and each control fails. The two prior-dependence claims (added after a
# development run, †) hold too. Numbers below are from seed 0 (ci: 20 maps per environment, 102 queries;
# full: 100 maps, 205 queries); the table "Across seeds and scales" above gives the other seeds.
#
# Over seeds 0–9 at ci scale (from `make sweep`) every counted claim holds at every seed, and every control
# fails at every seed: EM-PTDM over random search lies between 3.7 and 5.0 (species) and between 3.1 and 4.9
# (remote), against 0.67 to 1.37 for the static prior; EM-PTDM over the prior-dependent baseline between
# 1.81 and 2.15 (species) and 1.63 and 2.14 (remote), against at most 0.86 for EM without transient memory;
# the prior-dependence ratios between 1.53 and 1.91, against at most 1.09 for EM-PTDM. The EM-ascent check
# is uninformative at every seed (the over-relaxed control never descends either). At full scale (seeds 0–2,
# 100 maps, 205 queries) the reading is the same: all six counted claims hold at every seed, each control
# fails, and the margins are narrower but stable (EM-PTDM over the prior-dependent baseline 1.80 to 1.83 on
# species, 1.66 to 1.71 on remote).
#
# * *EM-PTDM against random search* (claims 2): at ci it finds 4.2 times as many targets as random search on
#   the species maps (52.5 against 12.4 of about 118 per map) and 4.0 times on the remote-sensing maps
#   (32.1 against 8.1); at full scale 4.2 and 3.5 times. The prior's own mean map, never updated, does no
#   better than random (1.04 and 0.90): the prior by itself is worthless here, as designed.
# * *EM-PTDM against the prior-dependent baseline* (claims 3): 1.98 and 1.85 times the targets of the
#   Bayesian posterior over the prior's particles at ci (1.80 and 1.66 at full), where the brief asked for
#   1.1. The advantage comes from the transient memory: EM over the permanent particles alone finds fewer
#   targets than the Bayesian baseline (0.79 and 0.82 of it), so the control fails. The learning curves show
#   the methods together for the first 15 to 20 queries, while EM puts no weight on the transient
#   components for the first ten or so queries (until a few targets have been seen); from then on the transient memory carries 60–80% of the
#   weight and EM-PTDM pulls away.
# * *Prior dependence* (claims 4, †): given a prior drawn from the maps' own generator, the Bayesian baseline
#   finds 1.63 and 1.79 times as many targets as with the uninformative prior (1.38 and 1.42 at full), while
#   EM-PTDM finds *fewer* (0.85 and 0.87; 0.91 and 0.95 at full): with an informative prior EM keeps most of
#   its weight on the permanent particles (right panel of the prior-dependence figure), which here helps less
#   than its own smoothers. So the method is robust to a bad prior, but in our analogue it does not profit
#   from a good one either; at ci scale the Bayesian baseline with the informative prior is level with
#   EM-PTDM (43.3 against 44.8 on species, 31.1 against 27.9 on remote), at full scale EM-PTDM still leads.
# * *Monotone improvement* (claim 1): EM never lowered the log-likelihood in any run (smallest change between
#   steps below $10^{-9}$ in absolute value), as EM's ascent property guarantees. But the deliberately wrong
#   update we registered as the control, over-relaxed EM with $\omega=4$, also never went down on these
#   likelihoods (it simply converged faster, smallest step $+4\cdot10^{-4}$ at ci), so the check cannot tell
#   EM from it and is **uninformative**. The unit tests show the over-relaxed update descending on other
#   likelihoods ($\omega=6$, random $L$), and check EM's ascent, its fixed point and its agreement with
#   SLSQP and cvxpy.
#
# **What this does and does not say about the paper.** The experiment supports the paper's qualitative
# claim in a setting we built to match its premise: a prior that carries no information about the task,
# a searcher that can only improve by learning from its own observations, and an EM weighting that decides,
# map by map, how much to trust each memory. It does not test the paper's diffusion prior, its h-transform,
# or its data, and the size of our gains (about 4 times random search, about twice the prior-dependent
# baseline) is a property of our synthetic maps, not a prediction of the paper's numbers, which we did not
# retrieve.

# %% [markdown]
# ## What the miniature cannot show
#
# * The paper's method itself: a diffusion model as permanent memory and a fine-tuned h-transform as
#   transient memory. Our components are fixed maps and kernel smoothers whose only learned parameters are
#   mixture weights, so EM is exact and cheap here; fitting a network in the M-step is neither.
# * The paper's data (species occurrence records, DOTA aerial scenes at 128×128 with 4×4 blocks, about 300
#   queries) and its reported numbers, which we did not retrieve.
# * Whether the official query rule (pairwise sample differences and a learned target classifier) would
#   change the ranking of the methods: we compared it with ours on one search state only.
# * Noisy observations: our queries reveal the target indicator exactly.
