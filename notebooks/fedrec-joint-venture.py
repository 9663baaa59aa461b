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
# *The paper claims that subsidiaries sharing part of their users can pool a small, distilled summary of each shared
# user's taste, mapped between their rating cultures by a learned bridge, and so predict those users' ratings better
# than federated matrix factorisation that only averages item embeddings. In our miniature the gain is too small to
# clear the brief's bar, and baselines that transfer nothing about users do better.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, is_true, tolerance
from repro.papers import fedrec_joint_venture as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # a few seconds of CPU on one thread: 2 subsidiaries, 300 users x 200 items, 3 runs
    "ci": dict(n_users=300, n_items=200, n_clients=2, n_seeds=3, rounds=10),
    # under a minute: the brief's 3 subsidiaries, 600 users x 400 items, 3 runs, more FedMF rounds
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
# ci: 2 subsidiaries, 300 users x 200 items; full: 3, 600 x 400; three runs (data seeds) per notebook seed, and
# every number below is a mean over those runs.
#
# In one run per data seed we fit every method on the same data, all with the page's ridge $\lambda_{\mathrm{MF}}=1$
# unless said otherwise:
#
# * **FR-JVE-lite** (steps 1-4), and the paper's ingredients removed one at a time: the **identity bridge**
#   ($\phi_k=\psi_k=\mathrm{id}$: no alignment of rating cultures), **similarity links** (shared users found by
#   the cosine of their bridged preferences, no ids: the paper's matching as we read it) and **random links**
#   (the same cosine weights, partners drawn at random: the matching without its similarity);
# * references: **Local-MF** (no federation), **FedMF**, **centralised MF** (all ratings pooled) and the
#   per-client mean rating;
# * **naive baselines** that use none of FR-JVE's ideas, chosen before they were run:
#   * **shared projection**: the copies of a linked user exchange the projection $B^\top u^{(k)}_u$ of their FedMF
#     embeddings, the same $L$ numbers per user as FR-JVE, and each client pulls $u$ half-way towards the plain
#     mean of the copies' projections, with no model inversion and no bridge (`K.pool_embeddings_predict`);
#   * **FedMF + Local-MF**: the mean of the two models' predictions, which every client already has (no transfer);
#   * **FedMF with a tuned ridge**: $\lambda_{\mathrm{MF}}$ chosen from $\{0.3, 1, 3, 10\}$ on a validation split
#     of the training ratings (`K.tune_ridge`; no transfer);
#   * added after the independent review (see "What a skeptic would try"): **FedMF trained longer** (three times
#     the rounds, no transfer); **Local-MF with a tuned ridge** (the same grid and validation split, no federation
#     at all); **shrunk shared embeddings** (the shared-embedding update with the partner's copy replaced by zeros,
#     so nothing crosses clients and a shared user's FedMF embedding only shrinks, by $\alpha/2=\tfrac14$ with two
#     subsidiaries: `K.shrink_shared_predict`);
# * on the validation-tuned FedMF as the backbone: FR-JVE-lite, its identity bridge, the shared projection,
#   the ensemble with a Local-MF at the same ridge, and the tuned FedMF trained three times longer;
# * on the FedMF trained three times longer as the backbone (not a test): FR-JVE-lite, its identity bridge and
#   the shared projection.
#
# Measures: test RMSE on overlapped and exclusive users, and a ranking measure (fraction of a user's held-out
# item pairs with different ratings that the model orders correctly; tied predictions count as wrong).
#
# **Checks.** The brief fixed three checks before the page first ran; when the book asked every counted test
# for its ablation and its strongest naive baselines (issue 33), two kept their measurement, setting and criterion
# and gained comparators, one became an illustration, and two tests were added after the page first ran:
#
# 1. `overlap-gain` (pre-registered, counted): RMSE on overlapped users over FedMF's, at most 0.98 (the brief's
#    bar; tolerance 1 % of the ratio). Ablation: the identity bridge. Baselines: the shared projection, the
#    ensemble, the tuned FedMF, and (added after the review) FedMF trained longer, the tuned Local-MF and the
#    shrunk shared embeddings.
# 2. `ordering` (pre-registered, counted): centralised MF $\le$ FR-JVE-lite $\le$ Local-MF + 0.01 in RMSE on all
#    test ratings. Ablation: the identity bridge. Baselines: FedMF, the ensemble and (added after the review)
#    Local-MF itself, whose upper side holds by construction: this is a "does not hurt" bar that a no-op passes.
# 3. `matching-gain` (post hoc): `overlap-gain`'s measurement and bar for FR-JVE-lite with similarity links.
#    Ablation: random links. Baselines: the ensemble, the tuned FedMF.
# 4. `overlap-gain-tuned` (post hoc): the same bar on the tuned backbone, relative to the tuned FedMF. Ablation:
#    its identity bridge. Baselines: its shared projection, its ensemble and (added after the review) the tuned
#    FedMF trained longer.
# 5. `privacy-underdetermined` (now an illustration): a least-squares attacker's relative error in rebuilding
#    user embeddings from the shared preferences, at least 0.5. With $L<r$ the error is fixed by linear algebra
#    (the part of $u$ outside the basis is lost), so it cannot test the paper.
#
# **Deviations from the paper**
#
# * Data: synthetic ratings from the brief's generator instead of MovieLens, LastFM and QB-article (no downloads);
#   observation density 25 % instead of the brief's 8 %, at which FedMF at the page's ridge predicted no better
#   than the mean rating in a trial run (the independent review found a larger ridge a little better there).
# * Linking: the server links a shared user's copies by a private set intersection of hashed ids
#   (assumed, not simulated). Linking by preference similarity alone (the paper's matching, as we read it)
#   finds the right partner for {glue:text}`link_acc_pct:.1f` % of shared users at this seed (chance:
#   {glue:text}`link_chance_pct:.1f` %); it is run as its own test.
# * Preference: a 4-number vector in the span of the global item embeddings, not the paper's softmax over
#   rating levels; the "one-hot to softmax" transformation is not implemented.
# * Bridge: a linear least-squares map per client; the ensemble weight $\alpha=\tfrac12$, the ridge
#   $\lambda=0.1$ and 200 inversion steps are our choices. MF is fitted by alternating least squares, and
#   FedMF runs one local ALS sweep per round.
# * The MF ridge $\lambda_{\mathrm{MF}}=1$ was our choice, not tuned; the validation split may prefer another
#   value (the results print its choice per run), which is why a tuned FedMF is a baseline and the tuned
#   backbone a second setting.
# * Training length: FedMF runs {glue:text}`rounds` rounds of one local ALS sweep each (our choice), which is not
#   converged: with three times as many rounds its RMSE on all test ratings falls from {glue:text}`all_fedmf:.3f`
#   to {glue:text}`all_fed3x:.3f` (centralised MF: {glue:text}`all_central:.3f`). The longer-trained FedMF is a
#   baseline, and a second backbone in "What a skeptic would try".
# * Baselines: Local-MF, FedMF (default and tuned), centralised MF, an ensemble and a naive projection sharing,
#   not the paper's nine; no top-K evaluation.
# * No official code (the paper's checklist says so), so there is no golden file and no "Against the official
#   code" section.

# %%
seeds = [1000 * seed + i for i in range(P.n_seeds)]
runs = [K.run_joint_venture(P.n_users, P.n_items, P.n_clients, seed=s, rounds=P.rounds, **COMMON)
        for s in progress(seeds, desc="seeds")]
methods = [m for m in runs[0] if isinstance(runs[0][m], dict)]
table = {m: {part: np.array([r[m][part] for r in runs]) for part in ("overlap", "exclusive", "all", "order")}
         for m in methods}
for m in methods:
    t = table[m]
    print(f"{m:38s} RMSE overlapped {t['overlap'].mean():.3f} ± {t['overlap'].std():.3f}   "
          f"exclusive {t['exclusive'].mean():.3f}   all {t['all'].mean():.3f}   pair order {t['order'].mean():.3f}")
reg_tuned = [r["reg_tuned"] for r in runs]
print("ridge chosen on the validation split, per run:", reg_tuned)
print("Local-MF's ridge chosen on the same split, per run:", [r["reg_local_tuned"] for r in runs])

# %% [markdown]
# ## Results
#
# Test RMSE per method and user group (bars: mean over the runs; whiskers: standard deviation; dots: runs).
# Left of the dotted line every method uses the page's ridge and rounds; right of it, a ridge chosen on a validation
# split or three times the rounds.

# %%
shown = ["Local-MF", "FedMF", "FedMF + Local-MF", "Shared projection", "FR-JVE-lite, similarity links",
         "FR-JVE-lite, identity bridge", "FR-JVE-lite", "Centralised MF", "FedMF, tuned ridge", "tuned: FR-JVE-lite",
         "Local-MF, tuned ridge", "FedMF, 3x rounds"]
fig, ax = plt.subplots(figsize=(12, 3.8))
x = np.arange(len(shown))
for off, part, colour in ((-0.2, "overlap", "C0"), (0.2, "exclusive", "C1")):
    vals = np.array([table[m][part] for m in shown])
    ax.bar(x + off, vals.mean(1), 0.38, yerr=vals.std(1), color=colour, alpha=0.7, capsize=3,
           label=f"{'overlapped' if part == 'overlap' else 'exclusive'} users")
    for i in range(len(shown)):
        ax.plot(np.full(len(seeds), x[i] + off), vals[i], "k.", ms=3)
ax.axvline(shown.index("Centralised MF") + 0.5, color="grey", lw=0.8, ls=":")
ax.set_xticks(x, [s.replace(", ", ",\n").replace(": ", ":\n").replace(" + ", " +\n") for s in shown], fontsize=7)
ax.set_ylabel("test RMSE (rating points)")
lo = min(table[m]["overlap"].min() for m in shown)
ax.set_ylim(lo - 0.08, None)
ax.legend()
ax.set_title("Rating error by method and user group (right of the dotted line: tuned ridge or 3x rounds)")
plt.show()

# %% [markdown]
# Each test's measurement: the RMSE on overlapped users relative to the FedMF it is built on (below 1: better),
# per run, for the method (red), its ablation (orange) and the naive baselines (blue), with the brief's line (dashed)
# and the grey band of the declared tolerance around it (a value inside it is "at the edge", never a pass).

# %%
THRESHOLD = 0.98  # the brief's bar: at most 0.98 x the backbone's RMSE on overlapped users
BAND = 0.01  # the declared relative tolerance of every ratio test (fixed before the first run)


def ratio(m, ref="FedMF"):
    """Per-run RMSE on overlapped users of method m relative to its backbone's."""
    return np.array([r[m]["overlap"] / r[ref]["overlap"] for r in runs])


LABEL = {  # what each comparator is, as the claims table shows it
    "FR-JVE-lite, identity bridge": "FR-JVE-lite with the identity bridge (no alignment of rating cultures)",
    "FR-JVE-lite, random links": "FR-JVE-lite with random partners (same cosine weights) instead of similar ones",
    "Shared projection": "shared projection: linked copies average B'u of their FedMF embeddings (the same L "
                         "numbers, no inversion, no bridge)",
    "FedMF + Local-MF": "FedMF + Local-MF: the mean of the two predictions (no transfer)",
    "FedMF, tuned ridge": "FedMF with its ridge chosen on a validation split (no transfer)",
    "tuned: FR-JVE-lite, identity bridge": "FR-JVE-lite with the identity bridge, on the tuned FedMF",
    "tuned: shared projection": "shared projection (the same L numbers, no inversion, no bridge), on the tuned FedMF",
    "tuned: FedMF + Local-MF": "the mean of the tuned FedMF's and a Local-MF's predictions at the same ridge",
    "FedMF, 3x rounds": "FedMF trained for three times the rounds (no transfer)",
    "Local-MF, tuned ridge": "Local-MF with its ridge chosen on the same validation split (no federation)",
    "Shrunk shared embeddings": "shared users' FedMF embeddings shrunk as if the partner's copy were zero "
                                "(by a quarter with 2 clients; no transfer)",
    "tuned: FedMF, 3x rounds": "the tuned FedMF trained for three times the rounds (no transfer)",
}
INGREDIENT = {"overlap-gain": "the bridge function aligning local and global preferences",
              "matching-gain": "choosing cross-client partners by preference similarity",
              "overlap-gain-tuned": "the bridge function aligning local and global preferences"}
TESTS = {  # test -> (method, ablation, [baselines], backbone)
    "overlap-gain": ("FR-JVE-lite", "FR-JVE-lite, identity bridge",
                     ["Shared projection", "FedMF + Local-MF", "FedMF, tuned ridge", "FedMF, 3x rounds",
                      "Local-MF, tuned ridge", "Shrunk shared embeddings"], "FedMF"),
    "matching-gain": ("FR-JVE-lite, similarity links", "FR-JVE-lite, random links",
                      ["FedMF + Local-MF", "FedMF, tuned ridge"], "FedMF"),
    "overlap-gain-tuned": ("tuned: FR-JVE-lite", "tuned: FR-JVE-lite, identity bridge",
                           ["tuned: shared projection", "tuned: FedMF + Local-MF", "tuned: FedMF, 3x rounds"],
                           "tuned: FedMF"),
}
SHORT = {"Local-MF": "local", "FedMF": "fedmf", "Centralised MF": "central", "Mean rating": "mean",
         "FR-JVE-lite": "frjve", "FR-JVE-lite, identity bridge": "ident", "FR-JVE-lite, similarity links": "sim",
         "FR-JVE-lite, random links": "rand", "Shared projection": "proj", "Shared embeddings": "whole",
         "FedMF + Local-MF": "ens", "FedMF, tuned ridge": "tuned", "tuned: FedMF": "t_fedmf",
         "tuned: FR-JVE-lite": "t_frjve", "tuned: FR-JVE-lite, identity bridge": "t_ident",
         "tuned: shared projection": "t_proj", "tuned: FedMF + Local-MF": "t_ens",
         "FedMF, 3x rounds": "fed3x", "Local-MF, tuned ridge": "loct", "Shrunk shared embeddings": "shrink",
         "Shrunk shared projection": "shrink_sub", "tuned: FedMF, 3x rounds": "t_fed3x",
         "FR-JVE-lite, similarity links, k=5": "sim5", "FR-JVE-lite, similarity links, k=10": "sim10",
         "3x rounds: FedMF": "x_fedmf", "3x rounds: FR-JVE-lite": "x_frjve",
         "3x rounds: FR-JVE-lite, identity bridge": "x_ident", "3x rounds: shared projection": "x_proj"}
per_run = {t: {w: ratio(w, ref) for w in (m, a, *bs)} for t, (m, a, bs, ref) in TESTS.items()}
v = {t: {w: float(x.mean()) for w, x in vals.items()} for t, vals in per_run.items()}

fig, axes = plt.subplots(1, 3, figsize=(14, 4.4), layout="constrained", sharex=True)
for ax, (t, (m, a, bs, ref)) in zip(axes, TESTS.items()):
    who = [m, a, *bs]
    for i, w in enumerate(who):
        colour = "tab:red" if w == m else "tab:orange" if w == a else "tab:blue"
        ax.plot(per_run[t][w], np.full(len(seeds), -i), "o", color=colour, alpha=0.6)
        ax.plot([v[t][w]] * 2, [-i - 0.3, -i + 0.3], "k-")
    ax.axvline(THRESHOLD, color="k", ls="--", lw=1)
    ax.axvspan(THRESHOLD * (1 - BAND), THRESHOLD * (1 + BAND), color="0.85", zorder=0)
    ax.axvline(1.0, color="grey", lw=0.6)
    ax.set_yticks(-np.arange(len(who)), [w.replace("tuned: ", "").replace(", ", ",\n") for w in who], fontsize=7)
    ax.set_xlabel(f"RMSE / RMSE({ref}), overlapped users", fontsize=8)
    ax.set_title(t + ("" if t == "overlap-gain" else " (post hoc)"), fontsize=9)
plt.show()

# %% [markdown]
# Ranking quality roughly follows RMSE, with exceptions listed in "What a skeptic would try" (pairs of held-out
# items ordered correctly, all users).

# %%
fig, ax = plt.subplots(figsize=(9, 3.2))
order = np.array([table[m]["order"] for m in shown])
ax.errorbar(np.arange(len(shown)), order.mean(1), yerr=order.std(1), fmt="o", capsize=3)
ax.set_xticks(range(len(shown)), [s.replace(", ", ",\n").replace(": ", ":\n").replace(" + ", " +\n") for s in shown],
              fontsize=7)
ax.set_ylabel("pairs ordered correctly (fraction)")
ax.set_title("Ranking quality, all users")
plt.show()

# %% [markdown]
# ### The paper's numbers beside ours
#
# The paper reports no number we could find, so the table beside ours has the direction only.
#
# | setting | paper | ours |
# |---|---|---|
# | RMSE, FR-JVE vs FedAvg-style baselines (ML-100K, ML-1M) | FR-JVE lower (numbers not found) | see the claims table, `overlap-gain` |
# | matching similar users helps overlapped users | yes (numbers not found) | see `matching-gain` |
# | privacy: rebuild embeddings from shared preferences | underdetermined, not solvable | see `privacy-underdetermined` (an illustration) |

# %%
RATIO_TOL = tolerance(rel=BAND, why="RMSE ratio of trained models over 3 seeds")
claims.headline("beats-federated-baselines",
                "FR-JVE predicts ratings more accurately than state-of-the-art federated recommenders "
                "(nine baselines on MovieLens-100K/1M); here: lower RMSE than FedMF on the users that "
                "subsidiaries share, with the page's and with a validation-tuned MF ridge, and no worse than "
                "local training overall",
                tests=["overlap-gain", "overlap-gain-tuned", "ordering"])
claims.headline("distilled-preference-bridge",
                "Clients transfer knowledge through a rating preference distilled by model inversion and aligned "
                "between clients by a bridge function; here: overlap-gain's ablation removes the bridge and its "
                "shared-projection baseline removes the inversion",
                tests=["overlap-gain"])
claims.headline("match-similar-users",
                "Each client matches similar users of the other clients to predict better for overlapped users",
                tests=["matching-gain"])
claims.headline("privacy-guarantee",
                "The shared preferences protect privacy: an attacker cannot rebuild user embeddings from them, "
                "because the linear system is underdetermined",
                untestable="the paper's argument is linear algebra (fewer equations than unknowns leave a null "
                           "space), shown here as an illustration; a test would need the paper's threat model and "
                           "an attacker stronger than least squares, which we did not find")



def comparators(t):
    """The ablation and the naive baselines of ratio test t, as recorded."""
    _, a, bs, _ = TESTS[t]
    return dict(ablation=Comparator(LABEL[a], v[t][a], ingredient=INGREDIENT[t]),
                baselines=[Comparator(LABEL[b], v[t][b]) for b in bs])


claims.test(
    "overlap-gain",
    statement="On overlapped users, FR-JVE-lite's test RMSE is at most 0.98 x FedMF's (mean ratio over seeds)",
    paper="FR-JVE beats FedAvg-style federated recommenders in RMSE on ML-100K/1M (numbers not found)",
    criterion=at_most(0.98), measured=v["overlap-gain"]["FR-JVE-lite"], tol=RATIO_TOL,
    **comparators("overlap-gain"),
)
claims.test(
    "matching-gain",
    statement="On overlapped users, FR-JVE-lite whose shared users are found by preference similarity (no ids) "
              "has test RMSE at most 0.98 x FedMF's (mean ratio over seeds)",
    paper="matching similar users across clients improves predictions for overlapped users (numbers not found)",
    criterion=at_most(0.98), measured=v["matching-gain"]["FR-JVE-lite, similarity links"], tol=RATIO_TOL,
    **comparators("matching-gain"),
    post_hoc="added when the page gained its comparators (issue 33): the pre-registered test links shared users "
             "by ids, a deviation; this one runs the paper's own matching (it was overlap-gain's old control) "
             "under the same criterion and tolerance; designed on seeds 0-9",
)
claims.test(
    "overlap-gain-tuned",
    statement="On overlapped users, FR-JVE-lite built on the validation-tuned FedMF has test RMSE at most 0.98 x "
              "that FedMF's (mean ratio over seeds)",
    paper="FR-JVE beats FedAvg-style federated recommenders in RMSE on ML-100K/1M (numbers not found)",
    criterion=at_most(0.98), measured=v["overlap-gain-tuned"]["tuned: FR-JVE-lite"], tol=RATIO_TOL,
    **comparators("overlap-gain-tuned"),
    post_hoc="added when the page gained its comparators (issue 33): a validation-tuned FedMF, a naive baseline "
             "of overlap-gain, beats the page's FedMF by more than FR-JVE-lite does; this test asks for the same "
             "gain over the tuned FedMF, with FR-JVE-lite built on it (same criterion, tolerance and ridge grid "
             "fixed before it was run); its baseline 'the tuned FedMF trained longer' was added after the "
             "independent review; designed on seeds 0-9",
)

mean_all = {m: float(table[m]["all"].mean()) for m in methods}


def ordering_holds(m):
    """RMSE(centralised) <= RMSE(m) <= RMSE(Local-MF) + 0.01 on all test ratings (means over the runs)."""
    return bool(mean_all["Centralised MF"] <= mean_all[m] <= mean_all["Local-MF"] + 0.01)


claims.test(
    "ordering",
    statement="RMSE(centralised) <= RMSE(FR-JVE-lite) <= RMSE(Local-MF) + 0.01 on all test ratings (seed means)",
    paper="FR-JVE improves on local training and stays below the centralised upper bound (implied by the set-up)",
    criterion=is_true("ordering holds"), measured=ordering_holds("FR-JVE-lite"),
    ablation=Comparator("FR-JVE-lite with the identity bridge in FR-JVE-lite's place",
                        ordering_holds("FR-JVE-lite, identity bridge"),
                        ingredient="the bridge function aligning local and global preferences"),
    baselines=[Comparator("FedMF in FR-JVE-lite's place (no transfer)", ordering_holds("FedMF")),
               Comparator(LABEL["FedMF + Local-MF"] + ", in FR-JVE-lite's place", ordering_holds("FedMF + Local-MF")),
               Comparator("Local-MF in FR-JVE-lite's place (no federation: the upper side holds by construction)",
                          ordering_holds("Local-MF"))],
)

priv = float(np.mean([r["privacy"] for r in runs]))
priv_full = float(np.mean([r["privacy_full_rank"] for r in runs]))
claims.illustrate(
    "privacy-underdetermined",
    statement="An attacker knowing the item embeddings and the basis rebuilds user embeddings from the shared "
              "L=4 preferences with median relative error > 0.5 (rank 8)",
    paper="attackers cannot solve the underdetermined linear system to rebuild embeddings",
    criterion=at_least(0.5), measured=priv,
    tol=tolerance(rel=0.05, why="median over users of trained embeddings"),
    why="linear algebra, not a finding: a least-squares attacker recovers exactly the part of u inside the "
        "L-dimensional span of the basis and none outside it (a unit test checks this closed form), so with "
        "isotropic rank-8 embeddings and L = 4 the error is close to the square root of 4/8 by construction",
)

for t, vals in v.items():
    for w, x in vals.items():
        glue(f"{t}_{SHORT[w]}", x, display=False)
for m in methods:
    for part in ("overlap", "all", "order"):
        glue(f"{part}_{SHORT[m]}", float(table[m][part].mean()), display=False)
glue("ratio_whole", float(ratio("Shared embeddings").mean()), display=False)
for m in ("Shrunk shared projection", "FR-JVE-lite, similarity links, k=5", "FR-JVE-lite, similarity links, k=10"):
    glue(f"ratio_{SHORT[m]}", float(ratio(m).mean()), display=False)
for m in ("3x rounds: FR-JVE-lite", "3x rounds: FR-JVE-lite, identity bridge", "3x rounds: shared projection"):
    glue(f"ratio_{SHORT[m]}", float(ratio(m, "3x rounds: FedMF").mean()), display=False)
glue("gain_pct", 100 * (1 - v["overlap-gain"]["FR-JVE-lite"]), display=False)
glue("link_acc_pct", 100 * float(np.mean([r["link_accuracy"] for r in runs])), display=False)
glue("link_chance_pct", 100 * float(np.mean([r["link_chance"] for r in runs])), display=False)
glue("ratings_per_copy", float(np.mean([r["ratings_per_shared_copy"] for r in runs])), display=False)
glue("rounds", P.rounds, display=False)
glue("fedmf_minus_central_overlap", float(table["FedMF"]["overlap"].mean()
                                          - table["Centralised MF"]["overlap"].mean()), display=False)
glue("fed3x_minus_central_overlap", float(table["FedMF, 3x rounds"]["overlap"].mean()
                                          - table["Centralised MF"]["overlap"].mean()), display=False)
reg_local = [r["reg_local_tuned"] for r in runs]
glue("reg_local_tuned", (f"{min(reg_local):g} in every run" if min(reg_local) == max(reg_local)
                         else f"values from {min(reg_local):g} to {max(reg_local):g}"), display=False)
glue("random_minus_similarity", float((ratio("FR-JVE-lite, random links")
                                       - ratio("FR-JVE-lite, similarity links")).mean()), display=False)
glue("bridge_gain", float((ratio("FR-JVE-lite, identity bridge") - ratio("FR-JVE-lite")).mean()), display=False)
glue("projection_minus_frjve", float((ratio("Shared projection") - ratio("FR-JVE-lite")).mean()), display=False)
glue("tuned_minus_central_overlap", float(table["FedMF, tuned ridge"]["overlap"].mean()
                                          - table["Centralised MF"]["overlap"].mean()), display=False)
glue("reg_tuned", (f"{min(reg_tuned):g} in every run" if min(reg_tuned) == max(reg_tuned)
                   else f"values from {min(reg_tuned):g} to {max(reg_tuned):g}"), display=False)
glue("n_runs", len(runs), display=False)
glue("priv", priv, display=False)
glue("priv_full", priv_full, display=False)
glue("priv_full_noridge", float(np.mean([r["privacy_full_rank_noridge"] for r in runs])), display=False)
glue("priv_proj", float(np.mean([r["privacy_projection"] for r in runs])), display=False)
glue("priv_sqrt", float(np.sqrt(COMMON["n_levels"] / COMMON["rank"])), display=False)
glue("threshold", THRESHOLD, display=False)
glue("bar_pct", 100 * (1 - THRESHOLD), display=False)
glue("band_lo", THRESHOLD * (1 - BAND), display=False)
glue("band_hi", THRESHOLD * (1 + BAND), display=False)

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
# The page counts two pre-registered tests; two post-hoc tests are shown apart until they are confirmed on
# seeds 10-19. Ratios are RMSE on overlapped users over that of the FedMF a method is built on, means over the
# {glue:text}`n_runs` runs of this seed.
#
# * *FR-JVE-lite beats FedMF on overlapped users* ({repro-status}`overlap-gain`). Pooling a shared user's
#   distilled preferences lowers the overlapped users' RMSE by {glue:text}`gain_pct:.1f` % at this seed, against
#   the brief's {glue:text}`bar_pct:.0f` %, too little to tell from its bar: the ratio is {glue:text}`overlap-gain_frjve:.4f`. The
#   declared tolerance puts a band from {glue:text}`band_lo:.4f` to {glue:text}`band_hi:.4f` around the brief's
#   line at {glue:text}`threshold:.2f`; over the ci sweep the method is inside it at
#   {repro-seeds}`overlap-gain:method:edge` seeds and clears it at {repro-seeds}`overlap-gain:method:pass`.
#   The paper's ingredients do not beat a naive exchange of the same four numbers: without the bridge the ratio
#   is {glue:text}`overlap-gain_ident:.4f` (the bridge is worth {glue:text}`bridge_gain:.4f`), and the shared
#   projection, with no model inversion and no bridge, gets {glue:text}`overlap-gain_proj:.4f`
#   ({glue:text}`projection_minus_frjve:+.4f` from FR-JVE-lite). Baselines that transfer nothing about users do
#   better still: FedMF trained three times longer reaches {glue:text}`overlap-gain_fed3x:.4f` (below the band
#   at {repro-seeds}`overlap-gain:baseline4:pass` seeds), FedMF with a validation-tuned ridge
#   {glue:text}`overlap-gain_tuned:.4f` ({repro-seeds}`overlap-gain:baseline3:pass`), Local-MF with a
#   validation-tuned ridge and no federation at all {glue:text}`overlap-gain_loct:.4f`
#   ({repro-seeds}`overlap-gain:baseline5:pass`), the mean of FedMF's and Local-MF's predictions
#   {glue:text}`overlap-gain_ens:.4f` ({repro-seeds}`overlap-gain:baseline2:pass`), and shared users' embeddings
#   shrunk by a quarter {glue:text}`overlap-gain_shrink:.4f` ({repro-seeds}`overlap-gain:baseline6:pass`, inside
#   the band at {repro-seeds}`overlap-gain:baseline6:edge`). A pass of the method would not have been specific
#   either. Our best explanation of the small gain: at 25 % density each copy of a shared user already has about
#   {glue:text}`ratings_per_copy:.0f` training ratings, the transfer touches a 4-dimensional subspace of the
#   rank-8 embedding, and the page's FedMF is under-trained and lightly regularised, so shrinkage and more
#   training buy more than pooling does.
# * *No worse than local training, no better than pooling* ({repro-status}`ordering`). In mean RMSE over all
#   test ratings, centralised MF has {glue:text}`all_central:.3f`, FR-JVE-lite {glue:text}`all_frjve:.3f` and
#   Local-MF {glue:text}`all_local:.3f`. FedMF alone ({glue:text}`all_fedmf:.3f`), the identity bridge and the
#   ensemble pass the same ordering, and so does Local-MF itself in FR-JVE-lite's place, whose upper side holds
#   by construction: a method that does nothing passes this bar. It is what federating item embeddings does, not
#   what FR-JVE adds, and it cannot show the gain the paper claims.
# * *The paper's own matching* (post hoc, {repro-status}`matching-gain`). With shared users found by the cosine
#   of their preferences instead of by ids, the ratio is {glue:text}`matching-gain_sim:.4f`; with random partners
#   under the same weights, {glue:text}`matching-gain_rand:.4f`. The best match on four noisy numbers is the
#   right partner for {glue:text}`link_acc_pct:.1f` % of shared users (chance: {glue:text}`link_chance_pct:.1f` %),
#   and with mostly wrong partners there is no gain; five or ten neighbours instead of one give
#   {glue:text}`ratio_sim5:.4f` and {glue:text}`ratio_sim10:.4f`.
# * *A tuned backbone* (post hoc, {repro-status}`overlap-gain-tuned`). The validation split chose a ridge of
#   {glue:text}`reg_tuned` of this seed (the page's is 1). Built on that FedMF, FR-JVE-lite reaches
#   {glue:text}`overlap-gain-tuned_t_frjve:.4f` of its RMSE, the identity bridge
#   {glue:text}`overlap-gain-tuned_t_ident:.4f`, the shared projection
#   {glue:text}`overlap-gain-tuned_t_proj:.4f`, and the tuned FedMF trained three times longer, with no transfer,
#   {glue:text}`overlap-gain-tuned_t_fed3x:.4f`. Over the ci sweep the method misses the bar at
#   {repro-seeds}`overlap-gain-tuned:method:fail` seeds and is inside its band at
#   {repro-seeds}`overlap-gain-tuned:method:edge`: on a tuned backbone the transfer is worth less than on the
#   page's.
# * *Privacy* (an illustration, not counted). From 4 shared numbers per user, a least-squares attacker rebuilds
#   the rank-8 FedMF embeddings with median relative error {glue:text}`priv:.2f`, close to
#   $\sqrt{4/8}$ ({glue:text}`priv_sqrt:.2f`); from 8 numbers the error falls to {glue:text}`priv_full:.2f`. It is
#   not 0 because the preference is a separate fit of the user's ratings on the frozen items, not a copy of the
#   FedMF embedding, which MF fitted jointly with the items under its own ridge; distilled with no ridge at all, the
#   8-number preference gives {glue:text}`priv_full_noridge:.2f`. This is the linear algebra of an
#   underdetermined system at our sizes, not evidence for the paper's privacy claim, and it says nothing about
#   stronger attackers.
#
# In our miniature, exchanging distilled preferences helps the subsidiaries' shared users a little, but no more
# than a naive exchange of the same numbers: neither the model inversion nor the bridge is needed for it, the
# paper's similarity matching does not link the right users, and FedMF with a validation-tuned ridge or trained
# longer clears the brief's bar, with nothing about users shared, at {repro-seeds}`overlap-gain:baseline3:pass`
# and {repro-seeds}`overlap-gain:baseline4:pass` seeds of the ci sweep, where FR-JVE-lite clears it at
# {repro-seeds}`overlap-gain:method:pass`.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page, its
# record, its ci sweep and the brief. With their own scripts on the page's kernels, data seeds and measurement
# (ci, seeds 0-9), they ran naive baselines against every test (FedMF trained longer, Local-MF with a tuned ridge,
# shrinkage with nothing transferred, FR-JVE-lite on a longer-trained backbone, more neighbours in the matching),
# measured how often the similarity matching finds the right partner and how much an attacker learns from each
# shared vector, and read the prose against the record. Their baselines are now comparators of the tests above,
# or are measured below by this notebook (seed 0, mean over its {glue:text}`n_runs` runs; ratios as in the
# verdict):
#
# * **Train FedMF longer** (a baseline of `overlap-gain`): three times the rounds, no transfer,
#   {glue:text}`overlap-gain_fed3x:.4f` against FR-JVE-lite's {glue:text}`overlap-gain_frjve:.4f`. The page's
#   FedMF is not converged (see the deviations).
# * **Federate nothing, but tune the ridge** (Local-MF, a baseline of `overlap-gain`): {glue:text}`overlap-gain_loct:.4f`;
#   the validation split chose {glue:text}`reg_local_tuned`.
# * **Shrink instead of transferring** (a baseline of `overlap-gain`): shared users' whole FedMF embeddings shrunk by
#   a quarter, {glue:text}`overlap-gain_shrink:.4f`; shrunk only inside the preference subspace (FR-JVE's update
#   with a partner whose preference is zero), {glue:text}`ratio_shrink_sub:.4f`. FR-JVE-lite's transfer thus
#   carries some information beyond shrinking that subspace, but shrinking the whole embedding, with nothing
#   transferred, does as well as FR-JVE-lite or better.
# * **Share the same numbers without inverting anything** (the shared projection, a baseline of `overlap-gain`):
#   {glue:text}`overlap-gain_proj:.4f`, {glue:text}`projection_minus_frjve:+.4f` from FR-JVE-lite. It leaks a little
#   more: a least-squares attacker rebuilds the embeddings from it with median relative error
#   {glue:text}`priv_proj:.3f`, against {glue:text}`priv:.3f` from FR-JVE's preference.
# * **A longer-trained backbone** (not a test): on the FedMF trained three times longer, FR-JVE-lite reaches
#   {glue:text}`ratio_x_frjve:.4f` of that FedMF's RMSE on overlapped users, its identity bridge
#   {glue:text}`ratio_x_ident:.4f` and the shared projection {glue:text}`ratio_x_proj:.4f`: the small relative
#   gain is not an artefact of the under-trained backbone.
# * **Share whole embeddings** (no privacy at all, so not a comparator): {glue:text}`ratio_whole:.4f` with the
#   page's $\alpha=\tfrac12$, the only weight tried.
# * **Average two models the clients already have** (FedMF + Local-MF, a baseline of every ratio test):
#   {glue:text}`overlap-gain_ens:.4f`, with nothing about users shared.
# * **Tune FedMF's ridge on a validation split** (a baseline of `overlap-gain` and `matching-gain`):
#   {glue:text}`overlap-gain_tuned:.4f`. On overlapped users its RMSE is {glue:text}`tuned_minus_central_overlap:+.3f`
#   rating points from that of centralised MF, which pools every rating but keeps the page's ridge; FedMF at the
#   page's ridge trained three times longer is {glue:text}`fed3x_minus_central_overlap:+.3f` from it, and the
#   page's FedMF {glue:text}`fedmf_minus_central_overlap:+.3f`. A larger ridge or longer training each closes most
#   of the gap to pooling all the data; the page's FedMF is both lightly regularised and under-trained, so the two
#   effects are confounded here.
# * **More neighbours in the matching** (`matching-gain`): five neighbours give {glue:text}`ratio_sim5:.4f`, ten
#   {glue:text}`ratio_sim10:.4f`, against {glue:text}`matching-gain_sim:.4f` with one, so one neighbour is not a
#   strawman choice. Random partners instead of similar ones (its ablation) move the ratio by
#   {glue:text}`random_minus_similarity:+.4f`.
# * **Ranking instead of RMSE**: the fraction of held-out pairs ordered correctly is
#   {glue:text}`order_frjve:.3f` for FR-JVE-lite, {glue:text}`order_ident:.3f` for its identity bridge,
#   {glue:text}`order_proj:.3f` for the shared projection, {glue:text}`order_ens:.3f` for the ensemble,
#   {glue:text}`order_fedmf:.3f` for FedMF, {glue:text}`order_tuned:.3f` for the tuned FedMF and
#   {glue:text}`order_fed3x:.3f` for FedMF trained longer. It roughly follows RMSE but not method by method
#   (compare the ensemble's and the identity bridge's RMSE in the results with their ranking here).
# * **A distillation without a ridge** (the privacy prose): at $L=8$ the attacker's error is
#   {glue:text}`priv_full:.3f` with the page's distillation and {glue:text}`priv_full_noridge:.3f` without its
#   ridge, so the residual error is not the ridge's doing.
#
# The reviewer also ran the brief's 8 % density at three seeds with their own script (not re-run here): FedMF at
# the page's ridge was worse than the mean rating there and a little better at $\lambda_{\mathrm{MF}}=3$, which the
# deviation above now says. Not tried: a non-linear bridge, a softmax preference over rating levels, or an attacker
# with a prior on embeddings.
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
