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
import torch

from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, tolerance
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
# Comparators, in the same run and on the same targets, thresholds and query batches. For the attack: the
# best-scoring of the 100 query faces submitted as the single face (the attack without its score model: the
# attacker sees the batch's scores and simply keeps the best face), and the mean latent of the 10 best-scoring
# queries rescaled to the queries' norm (a naive aggregate that fits nothing). After the independent review,
# three more comparators of the attack, all on the same batches: two other averages that fit nothing (a
# softmax-weighted mean of the latents at a temperature of half the scores' spread, and the latents weighted by
# their score above the batch median), and the attack without queries of the target's group (100 queries with
# random attributes from all four groups, the output face rendered in the target's group). For the geometry: the
# same PCA
# on four random groups of the same identities (without the attribute grouping), in the generator's image
# space (no recogniser at all), and on an untrained recogniser of the same architecture. Shown but not used
# as comparators: one random face of the target's group (at chance by construction), and the attack run in
# the group with both attributes flipped.
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
explained_random = min(K.fit_subsphere(F_imp[random_groups == j], 12)["explained"] for j in range(4))
_, sep_ratio_img = geometry(impo["X"], g_imp)
torch.manual_seed(P.seed * 10 + 99)
frs_untrained = K.FRS(impo["X"].shape[1], 64).eval()  # the same architecture, not trained
F_unt = frs_untrained.features(impo["X"])
explained_unt = min(K.fit_subsphere(F_unt[g_imp == j], 12)["explained"] for j in range(4))
_, sep_ratio_unt = geometry(F_unt, g_imp)
spectra = [np.linalg.svd(F_imp[g_imp == j] - F_imp[g_imp == j].mean(0), compute_uv=False) ** 2 for j in range(4)]
print(f"explained by 12 PCs: features {explained:.3f}, random groups {explained_random:.3f}, images "
      f"{explained_img:.3f}, untrained recogniser {explained_unt:.3f}; centre separation / residual: attribute "
      f"groups {sep_ratio:.2f}, random groups {sep_ratio_random:.2f}, images {sep_ratio_img:.2f}, untrained "
      f"{sep_ratio_unt:.2f}")

# %% [markdown]
# Now the attack on every target, for each query budget, against each recogniser and fresh query batches.
# The adversarial face is generated with zero nuisance; the queries carry random nuisance.

# %%
zero_u = np.zeros((1, 4))


def scores_fn(frs, ft, a, U):
    return lambda Z: frs.features(K.generate_faces(gen, Z, np.tile(a, (len(Z), 1)), U[:len(Z)])) @ ft


def attack_score(frs, ft, a, n, wrong=False, naive=False):
    """Similarity to the target of the attack's face, of one random query face, and of the best query face;
    with naive=True also of the top-10 centroid face, the score-weighted, softmax-weighted and
    above-median-weighted mean faces (same batch, same scores), and of the best query's latent at zero nuisance."""
    aq = 1 - a if wrong else a
    Z, U = rng.standard_normal((n, 12)), rng.standard_normal((n, 4))
    fn = scores_fn(frs, ft, aq, U)
    zs = K.nonadaptive_attack(fn, Z, ridge=1e-3)
    sim = lambda z: float(frs.features(K.generate_faces(gen, z[None], aq[None], zero_u))[0] @ ft)
    s_att = sim(zs)
    s_q = fn(Z)
    if not naive:
        return s_att, float(s_q[0]), float(s_q.max())
    z_top = K.topk_centroid_attack(fn, Z, k=10)
    zw = (s_q - s_q.mean()) @ Z  # score-weighted mean latent: the regression without the covariance inverse
    z_w = np.linalg.norm(Z, axis=1).mean() * zw / np.linalg.norm(zw)
    same = lambda ZZ: s_q  # the batch's scores, already returned by its one query
    z_soft = K.softmax_weighted_attack(same, Z, temperature=0.5)
    z_med = K.above_median_weighted_attack(same, Z)
    return (s_att, float(s_q[0]), float(s_q.max()), sim(z_top), sim(z_w), sim(z_soft), sim(z_med),
            sim(Z[np.argmax(s_q)]))


rng_mix = np.random.default_rng(1000 + P.seed)  # its own stream: the draws above stay those of the first run


def mixed_group_score(frs, ft, a, n=100):
    """The attack with queries of random attributes (all four groups), its face rendered in the target's group."""
    Z, U = rng_mix.standard_normal((n, 12)), rng_mix.standard_normal((n, 4))
    A = rng_mix.integers(0, 2, size=(n, 2)).astype(float)
    fn = lambda ZZ: frs.features(K.generate_faces(gen, ZZ, A[:len(ZZ)], U[:len(ZZ)])) @ ft
    zs = K.nonadaptive_attack(fn, Z, ridge=1e-3)
    return float(frs.features(K.generate_faces(gen, zs[None], a[None], zero_u))[0] @ ft)


# S[frs, repeat, n, target] similarity of the attack's face; baselines at n = 100
S = np.zeros((P.n_frs, P.repeats, len(N_QUERIES), P.n_targets))
S_rand, S_best, S_wrong, S_top, S_wmean, S_soft, S_med, S_best0, S_mix = (
    np.zeros((P.n_frs, P.repeats, P.n_targets)) for _ in range(9))
i100 = int(np.flatnonzero(N_QUERIES == 100)[0])
for r, frs in enumerate(frs_list):
    F_t = frs.features(targ["X"])
    for rep in progress(range(P.repeats), desc=f"attacks, recogniser {r}"):
        for t in range(P.n_targets):
            a = targ["attrs"][t]
            for j, n in enumerate(N_QUERIES):
                out = attack_score(frs, F_t[t], a, int(n), naive=j == i100)
                S[r, rep, j, t] = out[0]
                if j == i100:
                    (S_rand[r, rep, t], S_best[r, rep, t], S_top[r, rep, t], S_wmean[r, rep, t], S_soft[r, rep, t],
                     S_med[r, rep, t], S_best0[r, rep, t]) = out[1:]
            S_wrong[r, rep, t] = attack_score(frs, F_t[t], a, 100, wrong=True)[0]
            S_mix[r, rep, t] = mixed_group_score(frs, F_t[t], a)


def success(scores, far_index):
    """Success rate per (recogniser, repeat): fraction of targets at or above tau. scores: (n_frs, repeats, targets)."""
    return (scores >= taus[:, far_index, None, None]).mean(-1).ravel()


i3 = int(np.flatnonzero(FARS == 1e-3)[0])
rate = {"attack": success(S[:, :, i100], i3), "random face": success(S_rand, i3),
        "best of 100 (100 attempts)": success(S_best, i3), "attack, other group": success(S_wrong, i3),
        "top-10 centroid": success(S_top, i3), "score-weighted mean": success(S_wmean, i3),
        "softmax-weighted mean": success(S_soft, i3), "above-median-weighted mean": success(S_med, i3),
        "best query, zero nuisance": success(S_best0, i3), "attack, mixed-group queries": success(S_mix, i3)}
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
RANDOM_GROUPS = "the same PCA on four random groups of the same identities"
GROUPING = "grouping identities by the attributes they share"
IMAGES = "the same PCA in the generator's image space (no recogniser)"
UNTRAINED = "the same PCA on an untrained recogniser of the same architecture"
claims.illustrate("subsphere-rank",
                  statement="each attribute group's features have >= 90% of their centred variance in 12 directions",
                  paper="identities sharing an attribute form an attributed subsphere (observation, no number)",
                  criterion=at_least(0.9), measured=float(explained), tol=TRAINED,
                  why="it cannot pass: with its declared tolerance (0.05 + 15% of the larger value) the band around "
                      "the 0.9 bar reaches past 1.0, the largest possible fraction of variance, and a value in the "
                      "band is never a pass. Its comparators (random groups, image space, untrained recogniser) "
                      "are shown in the prose")
claims.test("attributed-subsphere",
            statement="the closest two group centres are > 3x the mean distance of features from their group's plane",
            paper="identities sharing an attribute form an attributed subsphere (observation, no number)",
            criterion=at_least(3.0), measured=float(sep_ratio), tol=TRAINED,
            ablation=Comparator(RANDOM_GROUPS, float(sep_ratio_random), ingredient=GROUPING),
            baselines=[Comparator(IMAGES, float(sep_ratio_img)), Comparator(UNTRAINED, float(sep_ratio_unt))])
claims.test("one-query-attack",
            statement="one non-adaptive batch of 100 same-group faces yields a face accepted as the target "
                      "at FAR 1e-3 for >= 80% of unseen targets",
            paper="> 93% success against AWS CompareFaces with one query of 100 faces",
            criterion=at_least(0.8), measured=float(rate["attack"].mean()), tol=RATE,
            ablation=Comparator("the best-scoring of the 100 query faces, submitted as the one face",
                                float(rate["best of 100 (100 attempts)"].mean()),
                                ingredient="the linear model of the scores over the latents (the regression)"),
            baselines=[Comparator("the mean latent of the 10 best-scoring query faces, at the queries' norm",
                                  float(rate["top-10 centroid"].mean())),
                       Comparator("the softmax-weighted mean latent of the batch (temperature 0.5 of the scores' "
                                  "spread), at the queries' norm", float(rate["softmax-weighted mean"].mean())),
                       Comparator("the batch's latents weighted by their score above the median, at the queries' "
                                  "norm", float(rate["above-median-weighted mean"].mean())),
                       Comparator("the attack with 100 queries of random attributes (all four groups), its face "
                                  "rendered in the target's group", float(rate["attack, mixed-group queries"].mean()),
                                  ingredient="queries that share the target's attribute group")])
claims.illustrate("attribute-needed",
                  statement="the attack needs queries that share the target's attributes (>= 80% success only then)",
                  paper="the attack works through the target's attributed subsphere",
                  criterion=at_least(0.8), measured=float(rate["attack"].mean()), tol=RATE,
                  why="it measures the same success rate as one-query-attack, and its comparator (queries and "
                      "output face carrying both opposite attributes) fails by construction: the face it returns "
                      "does not carry the target's attributes, which the recogniser separates")

G = dict(explained=explained, explained_random=explained_random, explained_img=explained_img,
         explained_unt=explained_unt, sep=sep_ratio, sep_random=sep_ratio_random, sep_img=sep_ratio_img,
         sep_unt=sep_ratio_unt, tau3=taus[:, i3].mean())
for k, v in rate.items():
    G["rate_" + {"attack": "attack", "random face": "rand", "best of 100 (100 attempts)": "best",
                 "attack, other group": "wrong", "top-10 centroid": "top", "score-weighted mean": "wmean",
                 "softmax-weighted mean": "soft", "above-median-weighted mean": "med",
                 "best query, zero nuisance": "best0", "attack, mixed-group queries": "mix"}[k]] = v.mean()
i4 = int(np.flatnonzero(FARS == 1e-4)[0])
G["rate_attack_far4"] = success(S[:, :, i100], i4).mean()
G["rate_best_far2"] = success(S_best, int(np.flatnonzero(FARS == 1e-2)[0])).mean()
for j, n in enumerate(N_QUERIES):
    G[f"rate_n{n}"] = success(S[:, :, j], i3).mean()
for key, v in G.items():
    glue(key, float(v), display=False)

claims.headline("attributed-subsphere", "Identities that share a high-level attribute lie on a low-dimensional "
                "subsphere of the face recogniser's feature space", tests=["attributed-subsphere"])
claims.headline("one-nonadaptive-query", "A single non-adaptive batch of 100 generated faces, with no iterative "
                "optimisation and no surrogate model, suffices to impersonate a target", tests=["one-query-attack"])
claims.headline("aws-93", "The attack succeeds more than 93% of the time against AWS CompareFaces at its default "
                "threshold", untestable="a commercial API on real faces; nothing here queries AWS or uses a real "
                                        "face or a face generator")
claims.headline("chosen-attributes", "The adversarial face can carry attributes chosen by the adversary while "
                "still matching the target", untestable="not run, by a design choice of this page: the brief's "
                "attribute-control experiment needs an attribute the recogniser does not separate from identity, "
                "and we built the generator with both attributes as identity-defining bits (see the "
                "attribute-needed illustration)")

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
# **At ci scale the attack works, but it does not need its regression.** One batch of 100 faces of the
# target's group, scored once, gives a face accepted at FAR 1e-3 for a fraction {glue:text}`rate_attack:.3f`
# of unseen targets ({glue:text}`rate_attack_far4:.3f` at FAR 1e-4). Keeping the best query face, the
# pre-registered ablation, reaches only {glue:text}`rate_best:.3f`, but one face out of 100 is a weak
# alternative to any aggregate. Averages of the same batch that fit nothing come close or pass: the mean
# latent of the 10 best-scoring queries reaches {glue:text}`rate_top:.3f`, inside the tolerance band of the
# 80% bar at {repro-seeds}`one-query-attack:baseline1:edge` seeds (a value in the band is never a pass); the
# softmax-weighted mean reaches {glue:text}`rate_soft:.3f` (a pass at
# {repro-seeds}`one-query-attack:baseline2:pass` seeds) and the above-median-weighted mean
# {glue:text}`rate_med:.3f` (a pass at {repro-seeds}`one-query-attack:baseline3:pass` seeds). The test is
# {repro-status}`one-query-attack`: here the regression is not what carries the attack. What does carry it is
# the queries' group: the same regression on queries of random attributes, with its face rendered in the
# target's group, succeeds for only {glue:text}`rate_mix:.3f` (a pass at
# {repro-seeds}`one-query-attack:baseline4:pass` seeds). This comparator was added after the review, so the
# statement "sharing the target's attribute group carries the attack" is read off it here, not a
# pre-registered test. The method itself is at the edge of its bar at
# {repro-seeds}`one-query-attack:method:edge` seeds. Success grows with the batch size:
# {glue:text}`rate_n13:.3f`, {glue:text}`rate_n25:.3f`, {glue:text}`rate_n50:.3f`, {glue:text}`rate_n100:.3f`
# and {glue:text}`rate_n200:.3f` for 13, 25, 50, 100 and 200 faces.
#
# **At full scale the attack falls short of its bar.** With three recognisers, 200 targets and more training
# identities, the attack's success at FAR 1e-3 falls below the 80% bar at every seed of the full sweep, and the
# geometric checks fail there too; the full-scale column of the claims table gives the values.
#
# **The geometric claims fail in this miniature, and the recogniser makes them worse.** Twelve directions
# hold a fraction {glue:text}`explained:.3f` of an attribute group's feature variance, under the 90% bar; this
# check is shown as an illustration, not a test, because its declared tolerance band around the 90% bar
# reaches past 100%, so no value could have passed it. Random groups of the same identities give
# {glue:text}`explained_random:.3f`, the raw images {glue:text}`explained_img:.3f` and an untrained
# recogniser {glue:text}`explained_unt:.3f`. The closest group centres sit {glue:text}`sep:.2f` times the mean
# residual apart against a bar of 3 ({repro-status}`attributed-subsphere`); random groups give
# {glue:text}`sep_random:.2f`, but the raw images ({glue:text}`sep_img:.2f`) and the untrained recogniser
# ({glue:text}`sep_unt:.2f`) separate the groups better than the trained one. Even the images miss the bar of
# 3, so this world cannot reach it before any recogniser is trained. Here, training for identity spreads each
# group over more directions; whether that holds for real recognisers this page cannot say.
#
# **Attributes.** The attack run in the group with both attributes flipped, queries and output alike, succeeds
# for a fraction {glue:text}`rate_wrong:.3f` of targets. That was a counted control before; it fails by
# construction (the output face does not carry the target's attributes), so `attribute-needed` is an
# illustration. The mixed-group comparator above keeps the target's attributes on the output face, so its
# failure is not automatic. The paper's claim that the adversary can choose the face's attributes is not
# tested here, by our choice of generator (see the headline claims).
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer, who did not write this page, replayed the page's batches at ci scale
# (seeds 0-9) with untuned aggregates of the same scores (top-k centroids for k from 5 to 50, score-weighted,
# softmax-weighted at temperatures of one half and one times the scores' spread, and above-median-weighted
# means of the latents), and ran an ablation that draws the queries from all four attribute groups (seeds 0-4).
# The two aggregates that passed most often and the ablation became comparators of `one-query-attack`. All
# numbers below are measured by this notebook on the same batches and thresholds (success at FAR 1e-3):
#
# - **Keep the best query face** (the pre-registered ablation): {glue:text}`rate_best:.3f`, against
#   {glue:text}`rate_attack:.3f` for the attack; at the looser FAR 1e-2 it reaches
#   {glue:text}`rate_best_far2:.3f`. That face carries its own random nuisance while the attack's face is
#   rendered at zero nuisance; the best query's latent re-rendered at zero nuisance gives
#   {glue:text}`rate_best0:.3f`, so the difference is small.
# - **Average the latents of the 10 best-scoring queries**: {glue:text}`rate_top:.3f`. The value 10 was fixed
#   before the first run and not varied.
# - **Softmax-weighted mean** (temperature half the scores' spread): {glue:text}`rate_soft:.3f`.
#   **Above-median-weighted mean**: {glue:text}`rate_med:.3f`. Neither fits a model, and neither was tuned.
# - **Score-weighted mean of the latents** (the regression without the inverse of the queries' covariance, so
#   still a linear reading of the scores and not a comparator): {glue:text}`rate_wmean:.3f`.
# - **Queries from all four attribute groups**, face rendered in the target's group: {glue:text}`rate_mix:.3f`.
# - **One random face of the target's group**: {glue:text}`rate_rand:.3f`, at chance, so not a comparator.
# - **PCA without the recogniser or without training** for the geometry: see the verdict; both beat the trained
#   recogniser's separation.
# - Not tried: a transfer attack through a second recogniser, real face generators, attribute control.
#
# ## What the miniature cannot show
#
# * Nothing here touches a real face-recognition system, a real face, or AWS: the 93% figure is neither
#   tested nor contradicted, and nothing on this page is a real-world attack.
# * Our generator is a random 18-latent map and our recogniser a small MLP; real generators and FRSs are far
#   more curved, so whether a linear model of the scores suffices with 100 queries there is the paper's
#   empirical claim, not ours.
# * The attacker here knows the target's attribute group exactly and owns a generator with the same latent
#   structure as the faces. How the paper's attacker obtains the attributes and which generator it uses was
#   not retrieved for this page.
# * Imposing an adversary-chosen attribute on the adversarial face, and transfer attacks through surrogate
#   models, are not run.
