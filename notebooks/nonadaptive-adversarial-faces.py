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
# # Non-adaptive adversarial faces: one batch of queries to impersonate a target
#
# *Faces that share an attribute sit together in a face recogniser's feature space, so the scores of one batch
# of generated faces, all fixed in advance, point to a face the recogniser accepts as the target.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np

from repro.claims import Claims, at_least, tolerance
from repro.papers import nonadaptive_adversarial_faces as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    "ci": dict(n_train=120, per_id=6, epochs=300, n_frs=1, n_targets=100, n_impostor=200, repeats=3),
    "full": dict(n_train=300, per_id=8, epochs=600, n_frs=3, n_targets=200, n_impostor=300, repeats=5),
})
claims = Claims("nonadaptive-adversarial-faces", title="Non-Adaptive Adversarial Face Generation",
                authors="Sunpill Kim, Seunghun Paik, Chanwoo Hwang, Minsu Kim, Jae Hong Seo",
                paper_url="https://arxiv.org/abs/2507.12107", scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# The paper observes that, in the feature space of a face-recognition system (FRS), people who share a
# high-level attribute (gender, race, ...) lie close to a low-dimensional *attributed subsphere*. An attacker
# who can generate faces with that attribute can therefore send **one** batch of 100 generated faces, fixed
# before any answer comes back, read the similarity of each to the target, and synthesise a new face that the
# FRS matches with the target. No gradient, no surrogate model, no second round of queries. The paper
# reports a success rate above 93% against AWS CompareFaces at its default threshold. Its algorithm's
# details were not retrieved for this page; the mechanism below is our reading of the abstract (the brief's
# design).
#
# ## The method
#
# Write $f$ for the FRS feature map onto the unit sphere $S^{d-1}$ and $G(z, a)$ for a generator with identity
# latent $z \in \mathbb{R}^{12}$ and attributes $a$. If the faces with attribute $a$ lie near
# $S_a = S^{d-1} \cap (c_a + \mathrm{span}\,B_a)$ and $f \circ G(\cdot, a)$ is close to affine there, the
# score of a query against the target $t$ is close to linear in the latent:
#
# $$ s_i = \langle f(t), f(G(z_i, a)) \rangle \approx \beta_0 + \beta^\top z_i . $$
#
# One batch $z_1, \dots, z_n$ drawn from the prior, one round of scores, ridge regression for $\beta$, and the
# adversarial face is $G(z^\star, a)$ with $z^\star = r\,\beta/\lVert\beta\rVert$ ($r$ the mean norm of the
# queries). It succeeds when $\langle f(t), f(G(z^\star, a))\rangle \ge \tau$, with $\tau$ set at a false-accept
# rate (FAR) from impostor pairs. The subsphere is measured by PCA of each attribute group's features
# (`fit_subsphere`): the variance in the top $k = 12$ directions, and the distance between group centres
# against the features' mean distance from their group's fitted plane.
#
# ## The experiment
#
# A fixed random generator $x = \tanh(P[z; 1.5(2a-1); u]) \in \mathbb{R}^{256}$ with $z \in \mathbb{R}^{12}$, two
# binary attributes and a nuisance $u \in \mathbb{R}^4$ (pose, light) makes the faces. The FRS is an MLP
# 256 → 256 → 64 with normalised output, trained here with a cosine-margin softmax (margin 0.2, scale 16) on
# `n_train` identities × `per_id` images (ci 120 × 6, full 300 × 8), full-batch Adam. The subsphere geometry is
# thus learned by the recogniser, not planted. Unseen identities serve as targets (one enrolled image each)
# and, separately, as impostor pairs for the thresholds. An attribute group is one of the four combinations of
# the two attributes; the attacker knows the target's group. Each attack is repeated with fresh query batches
# (`repeats`), and at full scale on 3 independently trained recognisers; error bars are the spread over these.
#
# Baselines, in the same run and on the same targets and thresholds: (i) one random face of the target's
# group; (ii) best of the 100 query faces, which is what 100 *verification attempts* would give (not
# available to a non-adaptive attacker who must submit one face, shown for reference); (iii) the same attack
# with queries (and output) from a group that does not share the target's attributes.
#
# **Deviations from the paper**
#
# * Synthetic faces from a random 18-latent generator instead of a face GAN; a 64-d MLP recogniser trained
#   here instead of AWS CompareFaces or open FRSs; no real images anywhere.
# * The attack's algorithm is the brief's reading (linear regression of scores on latents), not the paper's
#   own procedure, which we did not retrieve; no official code exists.
# * Thresholds at FAR 1e-4 to 1e-1 from impostor pairs of unseen synthetic identities, standing in for AWS's
#   default similarity threshold.
# * The brief's transfer baseline (PGD on a second recogniser) and its attribute-control experiment
#   (imposing an adversary-chosen attribute) are left out for time.
# * Scale: 120 (full 300) training identities, 100 (full 200) targets.

# %%
rng = P.rng
gen = K.make_generator(d_id=12, n_attr=2, d_nuis=4, d_img=256, rng=rng)
train = K.make_synthetic_faces(P.n_train, P.per_id, gen, rng)
impo = K.make_synthetic_faces(P.n_impostor, 2, gen, rng)
targ = K.make_synthetic_faces(P.n_targets, 1, gen, rng)
group = lambda attrs: (np.asarray(attrs) @ [1, 2]).astype(int)  # one of 4 attribute combinations

FARS = np.array([1e-4, 1e-3, 1e-2, 1e-1])
N_QUERIES = np.array([13, 25, 50, 100, 200])
frs_list, taus = [], []
for r in progress(range(P.n_frs), desc="recognisers"):
    frs = K.train_frs(train["X"], train["ids"], d_feat=64, epochs=P.epochs, margin=0.2, seed=P.seed * 10 + r)
    F_imp = frs.features(impo["X"])
    taus.append([K.far_threshold(K.impostor_scores(F_imp, impo["ids"]), far) for far in FARS])
    frs_list.append(frs)
taus = np.array(taus)  # (n_frs, len(FARS))
print("tau at FAR", {f"{far:g}": round(float(t), 3) for far, t in zip(FARS, taus.mean(0))})

# %% [markdown]
# First the geometry: per attribute group of the impostor identities, PCA of the features of the first
# recogniser, the fraction of centred variance in 12 directions, and the separation of the group centres. The
# control for the separation splits the same identities into four random groups that do not follow the
# attributes; the control for the rank is the same PCA in the generator's image space.

# %%
frs0 = frs_list[0]
F_imp = frs0.features(impo["X"])
g_imp = group(impo["attrs"][impo["ids"]])


def geometry(F, g):
    fits = [K.fit_subsphere(F[g == j], 12) for j in range(4)]
    res = np.mean(np.concatenate([f["residual"] for f in fits]))
    cen = [f["center"] for f in fits]
    dmin = min(np.linalg.norm(cen[a] - cen[b]) for a in range(4) for b in range(a + 1, 4))
    return fits, dmin / res


fits, sep_ratio = geometry(F_imp, g_imp)
random_groups = rng.permutation(np.arange(P.n_impostor) % 4)[impo["ids"]]  # whole identities, 4 equal groups
_, sep_ratio_random = geometry(F_imp, random_groups)
explained = min(f["explained"] for f in fits)
explained_img = min(K.fit_subsphere(impo["X"][g_imp == j], 12)["explained"] for j in range(4))
spectra = [np.linalg.svd(F_imp[g_imp == j] - F_imp[g_imp == j].mean(0), compute_uv=False) ** 2 for j in range(4)]
print(f"explained by 12 PCs: features {explained:.3f}, images {explained_img:.3f}; "
      f"centre separation / residual: attribute groups {sep_ratio:.2f}, random groups {sep_ratio_random:.2f}")

# %% [markdown]
# Now the attack on every target, for each query budget, against each recogniser and fresh query batches.
# The adversarial face is generated with zero nuisance; the queries carry random nuisance.

# %%
zero_u = np.zeros((1, 4))


def scores_fn(frs, ft, a, U):
    return lambda Z: frs.features(K.generate_faces(gen, Z, np.tile(a, (len(Z), 1)), U[:len(Z)])) @ ft


def attack_score(frs, ft, a, n, wrong=False):
    """Similarity to the target of the attack's face, of one random query face, and of the best query face."""
    aq = 1 - a if wrong else a
    Z, U = rng.standard_normal((n, 12)), rng.standard_normal((n, 4))
    fn = scores_fn(frs, ft, aq, U)
    zs = K.nonadaptive_attack(fn, Z, ridge=1e-3)
    s_att = float(frs.features(K.generate_faces(gen, zs[None], aq[None], zero_u))[0] @ ft)
    s_q = fn(Z)
    return s_att, float(s_q[0]), float(s_q.max())


# S[frs, repeat, n, target] similarity of the attack's face; baselines at n = 100
S = np.zeros((P.n_frs, P.repeats, len(N_QUERIES), P.n_targets))
S_rand, S_best, S_wrong = (np.zeros((P.n_frs, P.repeats, P.n_targets)) for _ in range(3))
i100 = int(np.flatnonzero(N_QUERIES == 100)[0])
for r, frs in enumerate(frs_list):
    F_t = frs.features(targ["X"])
    for rep in progress(range(P.repeats), desc=f"attacks, recogniser {r}"):
        for t in range(P.n_targets):
            a = targ["attrs"][t]
            for j, n in enumerate(N_QUERIES):
                s_att, s_one, s_max = attack_score(frs, F_t[t], a, int(n))
                S[r, rep, j, t] = s_att
                if j == i100:
                    S_rand[r, rep, t], S_best[r, rep, t] = s_one, s_max
            S_wrong[r, rep, t] = attack_score(frs, F_t[t], a, 100, wrong=True)[0]


def success(scores, far_index):
    """Success rate per (recogniser, repeat): fraction of targets at or above tau. scores: (n_frs, repeats, targets)."""
    return (scores >= taus[:, far_index, None, None]).mean(-1).ravel()


i3 = int(np.flatnonzero(FARS == 1e-3)[0])
rate = {"attack": success(S[:, :, i100], i3), "random face": success(S_rand, i3),
        "best of 100 (100 attempts)": success(S_best, i3), "attack, other group": success(S_wrong, i3)}
for k, v in rate.items():
    print(f"{k:28s} success at FAR 1e-3: {v.mean():.3f} ± {v.std():.3f}")

# %% [markdown]
# ## Results

# %%
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
for j, sp in enumerate(spectra):
    ax1.plot(np.arange(1, 21), np.cumsum(sp)[:20] / sp.sum(), marker=".", label=f"attribute group {j}")
img = impo["X"][g_imp == 0]
spi = np.linalg.svd(img - img.mean(0), compute_uv=False) ** 2
ax1.plot(np.arange(1, 21), np.cumsum(spi)[:20] / spi.sum(), "k--", label="group 0, image space")
ax1.axvline(12, color="grey", lw=0.8)
ax1.axhline(0.9, color="r", lw=0.8, ls=":", label="brief's 90% criterion")
ax1.set(xlabel="number of principal directions k", ylabel="fraction of centred variance",
        title="Rank of each attribute group's features")
ax1.legend(fontsize=7)
for fi in range(len(FARS)):
    per = np.array([[(S[r, rep, j] >= taus[r, fi]).mean() for j in range(len(N_QUERIES))]
                    for r in range(P.n_frs) for rep in range(P.repeats)])
    ax2.errorbar(N_QUERIES, per.mean(0), yerr=per.std(0), marker="o", capsize=3, label=f"FAR {FARS[fi]:g}")
ax2.axhline(0.93, color="k", ls=":", lw=0.8, label="paper: >93% (AWS, 100 queries)")
ax2.set_xscale("log")
ax2.set_xticks(N_QUERIES, [str(n) for n in N_QUERIES])
ax2.minorticks_off()
ax2.set(xlabel="faces in the single query batch", ylabel="attack success rate (fraction of targets)",
        title="Success against the query budget", ylim=(-0.02, 1.02))
ax2.legend(fontsize=7)
plt.show()

# %%
fig, ax = plt.subplots(figsize=(6, 3.8))
for name, arr in [("attack (100 queries)", S[:, :, i100]), ("attack, group not shared", S_wrong),
                  ("best of 100 attempts", S_best), ("one random face of the group", S_rand)]:
    per = np.array([[(arr[r, rep] >= taus[r, fi]).mean() for fi in range(len(FARS))]
                    for r in range(P.n_frs) for rep in range(P.repeats)])
    ax.errorbar(FARS, per.mean(0), yerr=per.std(0), marker="o", capsize=3, label=name)
ax.set(xscale="log", xlabel="false-accept rate setting the threshold τ", ylabel="success rate (fraction of targets)",
       title="Success against the threshold", ylim=(-0.02, 1.02))
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# | setting | paper | this page |
# |---|---|---|
# | AWS CompareFaces, default threshold, 1 query of 100 faces | > 93% success | not testable offline |
# | synthetic MLP recogniser, FAR 1e-3, 1 query of 100 faces | — | claim `one-query-attack` below |
# | attributed subsphere (observation) | observed on real FRSs | claims `subsphere-rank`, `attributed-subsphere` |

# %%
TRAINED = tolerance(rel=0.15, abs=0.05, why="features of an MLP trained for a few hundred Adam steps")
RATE = tolerance(abs=0.06, why="success rate over 100-200 targets from a trained recogniser: one target = 0.01")
claims.check("subsphere-rank",
             statement="each attribute group's features have >= 90% of their centred variance in 12 directions",
             paper="identities sharing an attribute form an attributed subsphere (observation, no number)",
             criterion=at_least(0.9), measured=float(explained), tol=TRAINED,
             control=float(explained_img), control_label="the same PCA in the generator's image space")
claims.check("attributed-subsphere",
             statement="the closest two group centres are > 3x the mean distance of features from their group's plane",
             paper="identities sharing an attribute form an attributed subsphere (observation, no number)",
             criterion=at_least(3.0), measured=float(sep_ratio), tol=TRAINED,
             control=float(sep_ratio_random), control_label="four random groups not following the attributes")
claims.check("one-query-attack",
             statement="one non-adaptive batch of 100 same-group faces yields a face accepted as the target "
                       "at FAR 1e-3 for >= 80% of unseen targets",
             paper="> 93% success against AWS CompareFaces with one query of 100 faces",
             criterion=at_least(0.8), measured=float(rate["attack"].mean()), tol=RATE,
             control=float(rate["random face"].mean()), control_label="one random face of the target's group")
claims.check("attribute-needed",
             statement="the attack needs queries that share the target's attributes (>= 80% success only then)",
             paper="the attack works through the target's attributed subsphere",
             criterion=at_least(0.8), measured=float(rate["attack"].mean()), tol=RATE,
             control=float(rate["attack, other group"].mean()),
             control_label="the same attack with queries from a group not sharing the target's attributes")

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **At ci scale the attack reproduces in the miniature and the subsphere criteria do not; at full scale
# neither does.** Claim by claim, at ci scale and seed 0 (the robustness table above gives every seed and the
# full scale; the two attack claims hold, and the two subsphere claims fail, at all ten ci seeds):
#
# * `one-query-attack`, reproduced: one non-adaptive batch of 100 faces of the target's attribute group gives a
#   face accepted as the target at FAR 1e-3 for about 89% of unseen targets, against none for a random face of
#   the group. The success rate grows with the number of faces in the batch and saturates near 100 faces; at the
#   stricter FAR 1e-4 it is about 60%. Using the same 100 faces as 100 verification attempts (best of 100)
#   succeeds far less often, so the regression, not the luck of the draw, does the work.
# * `attribute-needed`, reproduced: the same attack with queries from a group that does not share the target's
#   attributes never succeeds at FAR 1e-3.
# * `subsphere-rank`, not reproduced at this scale: 12 principal directions hold only about 67% of an attribute
#   group's feature variance (the brief asked for 90%); the generator's image space, the control, holds more.
#   Our small recogniser does not compress a group to a 12-dimensional flat piece: its features are curved
#   and keep some nuisance variance, spread over more directions.
# * `attributed-subsphere`, not reproduced at this scale: the closest two group centres are only about 0.75
#   times the features' mean distance from their group's 12-dimensional plane (brief: more than 3), though
#   twice as far apart as random groups.
#
# **At full scale the attack claim is not reproduced either.** With 300 training identities, longer training
# and three recognisers, the attack at FAR 1e-3 falls to roughly half of the targets (see the robustness
# table), still far above both controls, and the subsphere measures fall further below their criteria. A
# better-trained recogniser spreads identities over more feature directions and sets a stricter threshold at
# the same FAR, so a linear fit of 100 scores in a 12-dimensional latent no longer lands close enough. Our
# ci-scale success therefore owes part of its size to a weak recogniser; the qualitative picture (a single
# batch, many times better than random or best-of-100, useless without the target's attributes) holds at both
# scales.
#
# So in this world the attack works without the *flat*, well separated subspheres that the brief's geometric
# criteria describe: a score that is roughly linear in the latent within the target's attribute group is
# enough. The geometric claim as we quantified it is not supported; the attack claim is, qualitatively, with
# 100 queries as in the paper.
#
# ## What the miniature cannot show
#
# * Nothing here touches a real face-recognition system, a real face, or AWS: the 93% figure is neither
#   tested nor contradicted, and nothing on this page is a real-world attack.
# * Our generator is a random 18-latent map and our recogniser a small MLP; real generators and FRSs are far
#   more curved, so whether a linear model of the scores suffices with 100 queries there is the paper's
#   empirical claim, not ours.
# * The attacker here knows the target's attribute group exactly and owns a generator with the same latent
#   structure as the faces; the paper's attacker infers attributes from a photo and uses a GAN.
# * Imposing an adversary-chosen attribute on the adversarial face, and transfer attacks through surrogate
#   models, are not run.
