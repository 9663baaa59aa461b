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
# # Federated recommendation across a joint venture (FR-JVE)
#
# *Subsidiaries that share part of their users can pool a small, distilled summary of each shared user's taste,
# mapped between their rating cultures by a learned bridge, and predict those users' ratings better than
# federated matrix factorisation that only averages item embeddings.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np

from repro.claims import Claims, at_least, at_most, is_true, tolerance
from repro.papers import fedrec_joint_venture as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 10 s of CPU on one quiet thread: 2 subsidiaries, 300 users x 200 items, 3 seeds
    "ci": dict(n_users=300, n_items=200, n_clients=2, n_seeds=3, rounds=10),
    # about 2-3 min: the brief's 3 subsidiaries, 600 users x 400 items, 3 seeds, more FedMF rounds
    "full": dict(n_users=600, n_items=400, n_clients=3, n_seeds=3, rounds=15),
})
COMMON = dict(user_overlap=0.3, item_share=0.6, rank=8, density=0.25, n_levels=4, reg=1.0)
claims = Claims(
    "fedrec-joint-venture",
    title="Efficient Knowledge Transfer in Federated Recommendation for Joint Venture Ecosystem",
    authors="Yichen Li, Yijing Shan, Yi Liu, Haozhao Wang, Cheng Wang, Wei Wang, Yi Wang, Ruixuan Li",
    paper_url="https://openreview.net/forum?id=ZWOe1kkufx",
    scale=scale, seed=seed,
)

# %% [markdown]
# ## The claim
#
# A joint venture's subsidiaries each run a recommender on their own users and items. Their user bases
# overlap in part, so federated recommenders that only exchange item embeddings (FedMF and relatives) leave
# information on the table: what subsidiary B knows about a shared user could help subsidiary A, but
# uploading user embeddings or ids would break privacy. FR-JVE distils each user's *rating preference*
# by model inversion, aligns local and global preferences with a client-side *bridge function*, and matches
# similar users across clients to improve predictions for the overlapped users. The paper reports gains over nine
# baselines on MovieLens-100K/1M (RMSE) and LastFM-2K/QB-article (top-K), and argues that an attacker
# cannot rebuild embeddings from the shared preferences because the linear system is underdetermined.
# We found no numbers from the paper and no code, so only the direction can be compared.
#
# ## The method (our "lite" reading)
#
# 1. Each client $k$ fits $\hat r_{uv} = \mu_k + u_u^{(k)}\cdot v_v$; item embeddings $v$ are averaged by FedAvg
#    (weighted by rating counts), user embeddings stay local (this alone is **FedMF**).
# 2. The server broadcasts a basis $B\in\mathbb R^{r\times L}$ (top-$L$ principal directions of the global items,
#    $L<r$). With the model frozen, each client inverts it for each user: gradient descent on
#    $\min_p \tfrac1{n_u}\sum_{v}(r_{uv}-\mu_k-(Bp)\cdot v_v)^2+\lambda\|p\|^2$ gives the preference $p^{(k)}_u\in\mathbb R^L$.
# 3. The server links the copies of a shared user (see deviations), forms the global preference
#    $\bar p_u$ as the mean of the bridged copies $\phi_j(p^{(j)}_u)$, and each client fits its **bridge**
#    $\phi_k$ (linear, least squares $p^{(k)}\mapsto\bar p$) and its inverse map $\psi_k$; two refits from identity.
# 4. A linked user's embedding is pulled towards the pooled preference inside the preference subspace:
#    $u'=u^{(k)}_u+\alpha B(\psi_k(\bar p_u)-p^{(k)}_u)$, $\alpha=\tfrac12$.
#
# The kernels are in `src/repro/papers/fedrec_joint_venture.py`.
#
# ## The experiment
#
# A synthetic joint venture (brief, 3.4): rank-8 ground-truth factors; 30 % of users belong to every
# subsidiary, the rest to one; each subsidiary owns a random 60 % of the items and rates on its own
# scale, $r=\mathrm{clip}(\mathrm{round}(3+s_k\,u\cdot v+\varepsilon),1,5)$ with $s_k$ evenly in $[0.6,1.4]$ and
# $\varepsilon\sim\mathcal N(0,0.5^2)$; 25 % of each client's (user, item) pairs are observed, 20 % of those held out.
# In one run per seed we fit **Local-MF** (no federation), **FedMF**, **centralised MF** (all ratings pooled: the
# oracle), **FR-JVE-lite**, and two ablations: the bridge replaced by the identity, and the shared users
# linked by preference similarity instead of ids. Measures: test RMSE on overlapped and exclusive users, and a
# ranking measure (fraction of a user's held-out item pairs with different ratings that the model orders
# correctly; tied predictions count as wrong). ci: 2 subsidiaries, 300 users x 200 items; full: 3, 600 x 400.
#
# **Deviations from the paper**
#
# * Data: synthetic ratings from the brief's generator instead of MovieLens, LastFM and QB-article (no downloads);
#   observation density 25 % instead of the brief's 8 %, at which no MF method learned more than the mean.
# * Linking: the server links a shared user's copies by a private set intersection of hashed ids
#   (assumed, not simulated). Linking by preference similarity alone (the paper's matching, as we read it)
#   found the right partner for only about 10 % of shared users in a trial run, so it is kept as an ablation.
# * Preference: a 4-number vector in the span of the global item embeddings, not the paper's softmax over
#   rating levels; the "one-hot to softmax" transformation is not implemented.
# * Bridge: a linear least-squares map per client; the ensemble weight $\alpha=\tfrac12$, the ridge
#   $\lambda=0.1$ and 200 inversion steps are our choices. MF is fitted by alternating least squares, and
#   FedMF runs one local ALS sweep per round.
# * Baselines: Local-MF, FedMF and centralised MF only, not the paper's nine; no top-K evaluation.

# %%
seeds = [1000 * seed + i for i in range(P.n_seeds)]
runs = [K.run_joint_venture(P.n_users, P.n_items, P.n_clients, seed=s, rounds=P.rounds, **COMMON)
        for s in progress(seeds, desc="seeds")]
methods = [m for m in runs[0] if isinstance(runs[0][m], dict)]
table = {m: {part: np.array([r[m][part] for r in runs]) for part in ("overlap", "exclusive", "all", "order")}
         for m in methods}
for m in methods:
    t = table[m]
    print(f"{m:32s} RMSE overlapped {t['overlap'].mean():.3f} ± {t['overlap'].std():.3f}   "
          f"exclusive {t['exclusive'].mean():.3f}   all {t['all'].mean():.3f}   pair order {t['order'].mean():.3f}")

# %% [markdown]
# ## Results
#
# Test RMSE per method and user group (bars: mean over seeds; whiskers: standard deviation; dots: seeds).

# %%
shown = ["Local-MF", "FedMF", "FR-JVE-lite, similarity links", "FR-JVE-lite, identity bridge", "FR-JVE-lite",
         "Centralised MF"]
fig, ax = plt.subplots(figsize=(8, 3.6))
x = np.arange(len(shown))
for off, part, colour in ((-0.2, "overlap", "C0"), (0.2, "exclusive", "C1")):
    vals = np.array([table[m][part] for m in shown])
    ax.bar(x + off, vals.mean(1), 0.38, yerr=vals.std(1), color=colour, alpha=0.7, capsize=3,
           label=f"{'overlapped' if part == 'overlap' else 'exclusive'} users")
    for i in range(len(shown)):
        ax.plot(np.full(len(seeds), x[i] + off), vals[i], "k.", ms=3)
ax.set_xticks(x, [s.replace(", ", ",\n") for s in shown], fontsize=8)
ax.set_ylabel("test RMSE (rating points)")
lo = min(table[m]["overlap"].min() for m in shown)
ax.set_ylim(lo - 0.08, None)
ax.legend()
ax.set_title("Rating error by method and user group")
plt.show()

# %% [markdown]
# Per seed, the RMSE ratio of each variant to FedMF on the overlapped users (below 1: better than FedMF),
# with the brief's 0.98 line, and the ranking measure.

# %%
fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 3.4), layout="constrained")
variants = ["Local-MF", "FR-JVE-lite, similarity links", "FR-JVE-lite, identity bridge", "FR-JVE-lite",
            "Centralised MF"]
for i, m in enumerate(variants):
    ratio = table[m]["overlap"] / table["FedMF"]["overlap"]
    a1.plot(np.full(len(seeds), i), ratio, "o", color=f"C{i}")
    a1.plot([i - 0.25, i + 0.25], [ratio.mean()] * 2, "k-")
a1.axhline(1.0, color="grey", lw=0.8)
a1.axhline(0.98, color="C3", ls="--", label="claim: ≤ 0.98 × FedMF")
a1.set_xticks(range(len(variants)), [v.replace("FR-JVE-lite, ", "").replace(" ", "\n", 1) for v in variants],
              fontsize=7)
a1.set_ylabel("RMSE / RMSE(FedMF), overlapped users")
a1.legend(fontsize=7)
order = np.array([table[m]["order"] for m in shown])
a2.errorbar(np.arange(len(shown)), order.mean(1), yerr=order.std(1), fmt="o", capsize=3)
a2.set_xticks(range(len(shown)), [s.replace("FR-JVE-lite, ", "").replace(" ", "\n", 1) for s in shown], fontsize=7)
a2.set_ylabel("pairs ordered correctly (fraction)")
a2.set_title("Ranking quality, all users")
plt.show()

# %% [markdown]
# The paper reports no number we could find, so the table beside ours has the direction only.
#
# | setting | paper | ours |
# |---|---|---|
# | RMSE, FR-JVE vs FedAvg-style baselines (ML-100K, ML-1M) | FR-JVE lower (numbers not found) | see the claims table, `overlap-gain` |
# | privacy: rebuild embeddings from shared preferences | underdetermined, not solvable | see `privacy-underdetermined` |

# %%
gain = float(np.mean(table["FR-JVE-lite"]["overlap"] / table["FedMF"]["overlap"]))
gain_ctrl = float(np.mean(table["FR-JVE-lite, similarity links"]["overlap"] / table["FedMF"]["overlap"]))
claims.check(
    "overlap-gain",
    statement="On overlapped users, FR-JVE-lite's test RMSE is at most 0.98 x FedMF's (mean ratio over seeds)",
    paper="FR-JVE beats FedAvg-style federated recommenders in RMSE on ML-100K/1M (numbers not found)",
    criterion=at_most(0.98), measured=gain,
    control=gain_ctrl, control_label="FR-JVE-lite whose shared users are linked by preference similarity, not ids",
    tol=tolerance(rel=0.01, why="RMSE ratio of trained models over 3 seeds"),
)
c, f, l = (table[m]["all"].mean() for m in ("Centralised MF", "FR-JVE-lite", "Local-MF"))
mean_all = table["Mean rating"]["all"].mean()
claims.check(
    "ordering",
    statement="RMSE(centralised) <= RMSE(FR-JVE-lite) <= RMSE(Local-MF) + 0.01 on all test ratings (seed means)",
    paper="FR-JVE improves on local training and stays below the centralised upper bound (implied by the set-up)",
    criterion=is_true("ordering holds"), measured=bool(c <= f <= l + 0.01),
    control=bool(c <= mean_all <= l + 0.01), control_label="the per-client mean rating in FR-JVE-lite's place",
)
priv = float(np.mean([r["privacy"] for r in runs]))
priv_ctrl = float(np.mean([r["privacy_full_rank"] for r in runs]))
claims.check(
    "privacy-underdetermined",
    statement="An attacker knowing the item embeddings and the basis rebuilds user embeddings from the shared "
              "L=4 preferences with median relative error > 0.5 (rank 8)",
    paper="attackers cannot solve the underdetermined linear system to rebuild embeddings",
    criterion=at_least(0.5), measured=priv,
    control=priv_ctrl, control_label="preferences with L = rank = 8 numbers (a determined system)",
    tol=tolerance(rel=0.05, why="median over users of trained embeddings"),
)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# * **`overlap-gain`, not reproduced at this scale.** Pooling a shared user's distilled preferences across
#   subsidiaries does lower the overlapped users' RMSE below FedMF's in every seed, but by less than the brief's
#   2 %: the mean ratio is 0.983 at ci (seed 0, 2 subsidiaries) and 0.988 at full scale (3 subsidiaries,
#   600 x 400). Over the ci sweep (seeds 0-9) the ratio stays between about 0.977 and 0.988 and passes the
#   0.98 line at 2 seeds of 10; at full scale (seeds 0-2) it fails at every seed. The control, the same method with users linked by preference similarity, gets 1.003: the
#   gain needs the shared users to be linked correctly, and similarity on 4 noisy numbers does not do that.
#   Best explanation for the small size: at 25 % density each copy of a user already has about
#   25 training ratings, and the transfer only touches a 4-dimensional subspace of the rank-8 embedding.
# * **The bridge adds little.** Replacing the learned linear bridge by the identity costs about 0.002 to
#   0.003 RMSE on overlapped users, although the subsidiaries rate on scales from 0.6 to 1.4; most of the
#   gain comes from averaging the linked copies, not from aligning them.
# * **`ordering`, reproduced**: centralised MF < FR-JVE-lite < Local-MF (+0.01) in mean RMSE over all
#   test ratings; the mean-rating control breaks it. FedMF already captures most of the federated gain
#   over Local-MF; the ranking measure moves in the same order.
# * **`privacy-underdetermined`, reproduced**: from 4 shared numbers per user, a least-squares attacker
#   rebuilds the rank-8 FedMF embeddings with median relative error 0.71; with 8 shared numbers (the
#   control) the error falls to 0.16 (not 0, only because the preferences are ridge-shrunk).
#   This is one attacker model only.
# * `ordering` and `privacy-underdetermined` hold at every seed of both sweeps (ci seeds 0-9, full seeds 0-2);
#   the robustness table has the per-seed values.
#
# ## What the miniature cannot show
#
# * The paper's datasets and numbers: MovieLens, LastFM-2K and QB-article need downloads, and the paper's
#   tables were not found, so nothing here compares magnitudes.
# * Whether the paper's own similarity matching links shared users without ids: in our miniature it did not,
#   and we replaced it by an assumed private set intersection; real subsidiaries may hold richer signals.
# * The paper's inversion (one-hot to softmax over rating levels, frozen user gradients) and its bridge
#   architecture, whose details are unpublished; ours are linear stand-ins.
# * Privacy beyond one least-squares attacker: membership inference, attacks that combine rounds, or
#   priors on embeddings that make the underdetermined system solvable in practice.
# * Top-K recommendation quality with sampled negatives and search time (the paper's Table 6).
