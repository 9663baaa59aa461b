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
# # R²ec: one model that reasons, then ranks
#
# *A recommender that first generates a short reasoning chain with a language head and then scores every
# item with a second, ranking head, trained by reinforcement learning on a reward that fuses rank and
# similarity, should rank better than plain recommenders.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import copy

import matplotlib.pyplot as plt
import numpy as np
import torch
from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, tolerance
from repro.papers import r2ec_reasoning_recommender as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    "ci": dict(n_train=600, n_test=300, n_seeds=3, plain_steps=200, warm_steps=100, rl_steps=100, batch=128),
    "full": dict(n_train=4000, n_test=2000, n_seeds=5, plain_steps=600, warm_steps=300, rl_steps=300, batch=256),
})
claims = Claims("r2ec-reasoning-recommender",
                title="R²ec: Towards Large Recommender Models with Reasoning",
                authors="Runyang You, Yongqi Li, Xinyu Lin, Xin Zhang, Wenjie Wang, Wenjie Li, Liqiang Nie",
                paper_url="https://arxiv.org/abs/2505.16994", scale=scale, seed=seed)
# the official launch settings (YRYangang/RRec launch_train.sh and RecPOTrainer at 449a544), run as a second
# configuration of every test when the page was converted (issue 34); fixed from the code before any run.
# in_batch_users = 12 (4 users per device x 3 GPUs gathered) replaced the whole batch of 128 after the review
OFFICIAL_RECPO = dict(temperature=2.0, relabel_topk=2, negatives="in-batch", loss="as-executed", in_batch_users=12)
RERUN_SEED = 10_000  # the RL seed of the same-method rerun is the model seed + this (only the RL seed changes)

# %% [markdown]
# ## The claim
#
# R²ec puts two heads on one decoder: `lm_head` writes a reasoning chain about the user, and `rec_head`
# turns the hidden state at the end of that chain into a score for every item (a dot product with item
# embeddings), so a top-k list costs one reasoning pass and one matrix product instead of decoding item
# identifiers. No annotated rationales exist, so the model is trained with RecPO, a GRPO-style
# reinforcement-learning scheme whose reward fuses a discrete ranking signal (NDCG of the target item) with a
# continuous one (the softmax probability of the target). On three Amazon review domains the paper reports
# that R²ec beats traditional, LLM-based and reasoning-augmented recommenders; a secondary summary quotes
# relative gains of 68.67% in Hit@5 and 45.21% in NDCG@20 over the baselines (we could not verify these
# against the paper's tables).
#
# ## The method
#
# For a user with history $x$, the model samples $G$ reasoning chains $r^{(1..G)} \sim \pi_\theta(\cdot\mid x)$
# with `lm_head`. For each chain the state $h^{(g)}$ after the chain scores the items, $s^{(g)}_i = h^{(g)\top} e_i$.
# The fused reward of chain $g$ (official `RecPOTrainer.compute_rec_score`) is
#
# $$R_g = (1-w)\,\mathrm{NDCG@K}\big(\operatorname{rank}(t\mid s^{(g)})\big) + w\,\operatorname{softmax}(s^{(g)})_t,
# \qquad w = 0.05,\ K = 1000,$$
#
# with $t$ the next item, and the advantages are normalised within the group, $A_g = (R_g-\bar R)/(\operatorname{std}(R)+10^{-8})$.
# The loss is a policy gradient on the reasoning tokens, $-\frac1G\sum_g A_g \log\pi_\theta(r^{(g)})$, plus,
# on the best chain of each group only, $-A_{g^*}\log \operatorname{softmax}(s^{(g^*)})_t$ for `rec_head`
# (the official code's `relabel_topk = 1`). The kernels are in `src/repro/papers/r2ec_reasoning_recommender.py`;
# the evaluation metric is `ndcg_at_k(scores, relevant, k)`, the mean over users of
# $1/\log_2(\operatorname{rank}+2)$ when the relevant item ranks in the top $k$ and 0 otherwise.
#
# ## The experiment
#
# *Data.* 160 items in 8 topics (20 per topic, Zipf popularity inside a topic). Each user has two interest
# topics $a \ne b$; the 10 history items are drawn from them at random; the next item comes from topic
# $M[a,b]$, a fixed random table over topic pairs: a latent intent that is a nonlinear function of the
# history. Training and test users are separate draws.
#
# *Models,* all trained on the same users in the same run, over `n_seeds` model seeds:
#
# * **popularity**: training next-item counts;
# * **plain linear**: mean of history item embeddings, dot product with item embeddings, next-item
#   cross-entropy (a bag-of-items stand-in for SASRec without attention);
# * **plain MLP**: the same with a one-hidden-layer MLP encoder (64 units), the stronger plain recommender;
# * **plain linear / MLP, stopped early**: the same two runs read off after `warm_steps` steps, the warm-up's
#   step count (a fixed rule: the budget the dual-head model's encoder gets before RecPO, no validation);
# * **R²ec (fused)**: the linear encoder as the "decoder", `lm_head` an MLP (64 units) over 8 reasoning
#   tokens, one reasoning token per user, state after reasoning $h + T_r$, `rec_head` as above; warm-up of
#   the encoder and item embeddings by cross-entropy, then RecPO with $G = 4$, $w = 0.05$ (official defaults);
# * **R²ec discrete-only** ($w=0$) and **continuous-only** ($w=1$): the reward ablation of the brief;
# * **R²ec discrete-only, other RL seed**: the discrete-only variant again from the same warm-up with only the
#   seed of its RL sampling changed: a method identical to the discrete-only one, the noise floor of the reward
#   tests;
# * **R²ec random reward**: the same RecPO updates with the reward replaced by uniform noise (the ablation of
#   the reward: it keeps the mechanics and the extra training steps and removes the signal);
# * **R²ec warm-up only**: the dual-head model after its cross-entropy warm-up, before any RecPO step (the
#   ablation of RecPO as a whole; its reasoning head is untrained, so its greedy token is a fixed function of
#   the history);
# * the four R²ec variants again under the **official launch settings** (sampling temperature 2, the item loss
#   on the 2 best chains of each group, in-batch negatives from blocks of 12 users, and the loss as the official
#   code computes it; see "Against the official code"), as a second configuration of every test.
#
# Every R²ec variant of one model seed starts from the same warm-up (one warm-up, copied), so the variants
# differ only in their RecPO steps.
#
# Ranking quality is NDCG@10 and Recall@10 on the test users, over the full item set (no sampled negatives).
#
# **Deviations from the paper**
#
# * Data: synthetic latent-intent sequences instead of Amazon reviews (Musical Instruments, CDs and Vinyl, ...).
# * Model: a bag-of-embeddings encoder and an MLP reasoning head instead of Gemma-2-2b / Qwen2.5-3B; the
#   reasoning chain is one token from a vocabulary of 8 instead of up to 640 text tokens; item embeddings
#   are learned, not encoded from item text by the same model.
# * RecPO: one on-policy update per batch, so the PPO-style ratio is 1 and the clipping
#   ($\epsilon = 0.2/0.28$) never acts; no KL term; the item loss uses all items as negatives instead of the
#   in-batch items (official configuration: the targets of 12 users, see below); chains sampled at temperature 1
#   (official 2), the item loss on the best chain (official launch: the 2 best). The official settings are run
#   as a second configuration (see "Against the official code").
# * Warm-up: cross-entropy training of the encoder before RL (the paper starts from an instruction-tuned LLM).
# * Baselines: popularity and two plain recommenders, not the paper's GRU4Rec/SASRec/LLM-based/reasoning baselines;
#   the latency comparison with item-ID generation is not run.
# * Scale: ci 600 training users, 3 model seeds; full 4000 users, 5 seeds. Hyper-parameters (learning rate 0.02,
#   steps) were set on a development draw of the data before the claims below were fixed; the RL variants were
#   not tuned per variant.

# %%
train = K.make_seqrec_data(P.n_train, seed=1000 * seed + 11, world_seed=seed)
test = K.make_seqrec_data(P.n_test, seed=1000 * seed + 12, world_seed=seed)
N = train["n_items"]
KS = np.arange(1, 51)
VARIANTS = {  # name -> settings of RecPO (the plain recommenders and the warm-up are trained apart)
    "R²ec (fused)": dict(sim_weight=0.05),
    "R²ec discrete-only": dict(sim_weight=0.0),
    "R²ec continuous-only": dict(sim_weight=1.0),
    "R²ec random reward": dict(random_reward=True),
}
VARIANTS.update({f"{name}, official": dict(kw, **OFFICIAL_RECPO) for name, kw in list(VARIANTS.items())})


def evaluate(scores):
    """NDCG@10, Recall@10 and Recall@k for k = 1..50 on the test users."""
    s = scores.detach()
    return dict(ndcg=K.ndcg_at_k(s, test["target"], 10), recall=K.recall_at_k(s, test["target"], 10),
                curve=np.array([K.recall_at_k(s, test["target"], int(k)) for k in KS]))


def token_purity(model):
    """Share of test users whose greedy reasoning token, read through its majority intent, names the intent."""
    tok = model.reason_logits(test["hist"])[1].argmax(-1).numpy()
    table = np.zeros((model.n_reason, train["n_topics"]))
    np.add.at(table, (tok, test["intent"].numpy()), 1)
    return table.max(1).sum() / table.sum()


EARLY = {"plain linear": "plain linear, stopped early", "plain MLP": "plain MLP, stopped early"}
RERUN = "R²ec discrete-only, other RL seed"
res = {name: [] for name in ["popularity", "plain linear", "plain MLP", *EARLY.values(), "R²ec warm-up only",
                             *VARIANTS, RERUN]}
purity = {name: [] for name in ["R²ec warm-up only", *VARIANTS]}
for j in progress(range(P.n_seeds), desc="model seeds"):
    ms = 100 * seed + j
    res["popularity"].append(evaluate(K.popularity_scores(train["target"], P.n_test, N)))
    for name, hidden in (("plain linear", 0), ("plain MLP", 64)):
        torch.manual_seed(ms)
        stop = lambda step, m, name=name: (step == P.warm_steps and res[EARLY[name]].append(evaluate(m(test["hist"]))))
        m = K.train_plain(K.PlainRec(N, hidden=hidden), train["hist"], train["target"], P.plain_steps,
                          batch=P.batch, seed=ms, on_step=stop)
        res[name].append(evaluate(m(test["hist"])))
    torch.manual_seed(ms)
    warm = K.DualHeadRec(N)
    K.train_plain(warm.enc, train["hist"], train["target"], P.warm_steps, batch=P.batch, seed=ms)
    with torch.no_grad():
        res["R²ec warm-up only"].append(evaluate(warm(test["hist"])))
        purity["R²ec warm-up only"].append(token_purity(warm))
    for name, kw in VARIANTS.items():
        d = copy.deepcopy(warm)
        K.train_recpo(d, train["hist"], train["target"], P.rl_steps, batch=P.batch, seed=ms, **kw)
        with torch.no_grad():
            res[name].append(evaluate(d(test["hist"])))
            purity[name].append(token_purity(d))
    d = copy.deepcopy(warm)
    K.train_recpo(d, train["hist"], train["target"], P.rl_steps, batch=P.batch, seed=ms + RERUN_SEED,
                  **VARIANTS["R²ec discrete-only"])
    with torch.no_grad():
        res[RERUN].append(evaluate(d(test["hist"])))

ndcg = {k: np.array([r["ndcg"] for r in v]) for k, v in res.items()}
recall = {k: np.array([r["recall"] for r in v]) for k, v in res.items()}
print(f"{P.n_train} training users, {P.n_test} test users, {N} items, {P.n_seeds} model seeds")
print(f"{'model':34s} {'NDCG@10':>16s} {'Recall@10':>16s}   token purity")
for k in res:
    pur = f"{np.mean(purity[k]):.2f}" if k in purity else ""
    print(f"{k:34s} {ndcg[k].mean():.3f} ± {ndcg[k].std(ddof=1):.3f}   {recall[k].mean():.3f} ± {recall[k].std(ddof=1):.3f}   {pur}")

# %% [markdown]
# ## Results
#
# Every model was trained and scored in the same run on the same users; the bars are means over the model
# seeds and the dots single seeds. "Token purity" above is the share of test users whose greedy reasoning
# token, read through its majority intent, names the topic of the next item (1/8 would be chance with
# balanced tokens; 1 means the reasoning decodes the latent intent).

# %%
names = list(res)
COL = {"popularity": "C7", "plain linear": "C0", "plain MLP": "C9", "plain linear, stopped early": "C4",
       "plain MLP, stopped early": "C6", "R²ec warm-up only": "C8", "R²ec (fused)": "C3", "R²ec discrete-only": "C1",
       "R²ec continuous-only": "C2", "R²ec random reward": "C5", RERUN: "C1"}
colors = [COL[n.removesuffix(", official")] for n in names]
fig, axes = plt.subplots(1, 2, figsize=(13, 4.6), layout="constrained")
for ax, metric, label in ((axes[0], ndcg, "NDCG@10"), (axes[1], recall, "Recall@10")):
    x = np.arange(len(names))
    ax.bar(x, [metric[n].mean() for n in names], color=colors, alpha=0.6,
           yerr=[metric[n].std(ddof=1) for n in names], capsize=3,
           hatch=["//" if n.endswith("official") else "" for n in names])
    for i, n in enumerate(names):
        ax.plot(np.full(len(metric[n]), i), metric[n], "k.", ms=5)
    ax.set_xticks(x, names, rotation=30, ha="right")
    ax.set(ylabel=f"{label} on test users (fraction)",
           title=f"{label}: mean ± sd over {P.n_seeds} model seeds (hatched: official settings)")
plt.show()

# %%
fig, ax = plt.subplots(figsize=(7, 4.2))
for n, c in zip(names, colors):
    if n.endswith("official"):
        continue
    curves = np.array([r["curve"] for r in res[n]])
    mu, sd = curves.mean(0), curves.std(0, ddof=1)
    ax.plot(KS, mu, color=c, label=n)
    ax.fill_between(KS, mu - sd, mu + sd, color=c, alpha=0.15)
ax.axvline(10, color="k", lw=0.8, ls=":")
ax.set(xlabel="list length k (items)", ylabel="Recall@k on test users (fraction)",
       title=f"Recall over list length ({N} items; our settings; bands: ±1 sd)")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# The paper's own numbers are on Amazon data with LLM backbones; the one figure we found is a relative gain,
# so the table puts it beside our relative gain of R²ec over the best plain recommender.

# %%
best_plain = max(("plain linear", "plain MLP"), key=lambda n: ndcg[n].mean())
gain = lambda m: 100 * (m["R²ec (fused)"].mean() / m[best_plain].mean() - 1)
print(f"{'setting':60s} {'paper':>10s} {'ours':>10s}")
print(f"{'Hit@5 / Recall@10 gain over best baseline, % (paper: Amazon)':60s} {'+68.67':>10s} {gain(recall):+10.1f}")
print(f"{'NDCG@20 / NDCG@10 gain over best baseline, % (paper: Amazon)':60s} {'+45.21':>10s} {gain(ndcg):+10.1f}")
print(f"(our best plain recommender: {best_plain}; paper values from a secondary summary, unverified)")

# %% [markdown]
# ## Against the official code
#
# The paper's code: [YRYangang/RRec](https://github.com/YRYangang/RRec) (commit 449a544bd7df2314fba2c0d594da083f2562248b).
#
# We ran the official `calculate_metrics` (`trainers/utils.py`) and `RecPOTrainer.compute_rec_score`
# (`trainers/RecPOTrainer.py`, with a stand-in `self` and the transformers imports stubbed) once outside the
# project on seeded inputs: NDCG@k and Hit@k for k = 3, 10, 50 on 6 users × 50 items, and the fused-reward
# group advantages and best-of-group mask for 3 users × 4 chains × 30 items at $(w, K) = (0.05, 30)$ and
# $(0.5, 10)$. Our `ndcg_at_k`, `recall_at_k`, `fused_reward` + `group_advantages` and `best_of_group` agree
# to 1e-6 (the official code works in float32); the cases are in
# `tests/papers/golden/r2ec-reasoning-recommender.json` and asserted by the page's unit tests.
#
# **Departures, and which of them we run.** Those that can move a claim are run as the second configuration
# ("official" in the figures and the claims table); the others cannot be run in a miniature.
#
# * *Sampling temperature* (run): the official launch script `launch_train.sh` samples the chains at
#   `gen_temperature = 2.0` (also the default of `train.py`); our configuration samples at temperature 1.
# * *Chains that receive the item loss* (run): `launch_train.sh` sets `trainer_relabel_topk = 2`, the two best
#   chains of each group (the trainer's default, which our configuration follows, is 1).
# * *Negatives of the item loss* (run): the official item loss is a softmax over the target items of the
#   batch (4 users per GPU, gathered over 3 GPUs, so 12 items); ours is over all 160 items. The official
#   configuration cuts our batch of 128 users into blocks of 12 and takes each user's negatives from the targets
#   of its block (12 targets, as officially; until the review it used all 128 targets of the batch).
# * *The weight of the item loss across GPUs* (not run): in the 3-GPU launch the advantages of the best chains
#   that weight the item loss are gathered over the 3 devices (`_gather_and_cat`), so the weight averages the
#   groups of 3 users; ours averages one user's group. The token term uses the local advantages in both.
# * *The loss as the official code computes it* (run; our reading of `RecPOTrainer.batch_forward` at the commit
#   above, not confirmed with the authors). The advantages enter as a column of shape (m, 1), unsqueezed to
#   (m, 1, 1), and multiply the token ratios (m, T) and the item-probability ratios (m, 1); broadcasting makes
#   both products (m, m, ...), so within a mini-batch every chain's advantage multiplies every chain's
#   log-probability. The RecPO mini-batch holds `min(8, train_batch_size = 4)` = 4 rows, which are one user's
#   group of G = 4 chains. Group-normalised advantages sum to zero over a group, so the policy gradient on the
#   reasoning tokens vanishes, and the item loss becomes a cross-entropy on *all four* chains weighted by the
#   mean advantage of the best ones (`K.recpo_loss_as_executed`, checked against a brute-force evaluation of the
#   broadcast in the unit tests). Under this loss there is no policy gradient on the reasoning tokens, and the
#   reward only scales the item loss's step. In our miniature, where `lm_head` is a separate MLP, this means the
#   reasoning head is not trained by the reward at all; in the official LLM the backbone that writes the
#   reasoning is shared with `rec_head`, so the item loss still moves it. The paper's description (the
#   advantage on each chain's own tokens, the item loss on the best chains) is our configuration, `K.recpo_loss`.
# * *Clipping and the KL term* (not run): the official ratio is clipped at $1-0.2$ and $1+0.28$, but with one
#   on-policy step per batch the ratio is 1 and the clip never acts, in the official code and in ours; there is
#   no KL term in either.
# * *Scale of training* (not run): LoRA (rank 4) on Gemma-2-2b at learning rate $10^{-5}$ for up to 3 epochs
#   with early stopping on the validation NDCG@10 (patience 8 evaluations), a constant schedule after 32
#   warm-up steps; ours is full training of a small model with Adam at 0.02 for a fixed number of steps and no
#   validation-based stopping. These cannot be transferred to a model of this size; the effect of stopping
#   early is looked at in "What a skeptic would try".
# * Ties in the score are counted in the target's favour (the official `topk` leaves their order to the sort;
#   none occur with continuous scores); the official `reward_ndcg_k = 1000` exceeds our 160 items, so every rank
#   earns a reward as in the official code; the official trainer also offers a leave-one-out advantage, and we
#   use its default, the group-normalised ("gaussian") one.
#
# ## Claims
#
# The criteria were fixed before the first run, from the brief: R²ec at least matches each plain recommender in
# mean NDCG@10 (difference ≥ 0), and the fused reward is no worse than either single reward by more than 0.005.
# Values are differences of mean NDCG@10 over the model seeds. When the book asked every counted test for its
# ablation and the strongest naive baseline (issue 34), the four tests kept their measurement, setting and
# criterion and gained, under the same difference:
#
# * as the **ablation**, R²ec trained with a *random reward* (RecPO's updates and steps without the fused
#   reward's signal);
# * as **naive baselines**, the *dual-head model after its warm-up only* (no RecPO at all), and, for the tests
#   against one plain recommender, the *other plain recommender* (no reasoning).
#
# After the independent review (see "What a skeptic would try") the two tests against the plain recommenders
# also gained, as naive baselines, the *plain linear and plain MLP models stopped early*, at the warm-up's
# step count (the plain recommenders overfit at {glue:text}`plain_steps` steps, so without these the tests
# compare against untuned baselines); and `fused-vs-discrete` gained the *discrete-only reward rerun with
# another RL seed*, a method identical to its reference. No criterion, threshold or setting of the method moved.
#
# For the two reward tests the paper's own ablation (the discrete-only or continuous-only reward) is the
# reference of the difference itself, so it cannot be a comparator; the random reward, the warm-up and the
# rerun take that role, and they ask whether "no worse by 0.005" needs any reward at all. This criterion is a
# "does not hurt" one where the paper claims a gain, and its margin (0.005) is inside the declared tolerance
# (0.01): by the evidence rubric these two tests are very weak (grade b) whatever their status, and the page
# does not count them as evidence for the fused reward. The same four tests are run again under the official
# launch settings (above), a second configuration added at the conversion, so post hoc; their comparators are
# taken in the same configuration where one exists (the random reward), and the warm-up and the plain
# recommenders are shared.
#
# The paper's headline claims, in our words, and the tests that bear on them:
#
# 1. R²ec beats traditional, LLM-based and reasoning-augmented recommenders on three data sets: tested against
#    our two plain recommenders only (`beats-plain-linear`, `beats-plain-mlp`).
# 2. RecPO trains the reasoning without annotated rationales, with a reward that fuses a discrete ranking
#    signal with a continuous similarity: untested. No test measures whether RecPO trains the reasoning: the
#    token purity below is shown, not tested, and the reward tests (`fused-vs-discrete`,
#    `fused-vs-continuous`) compare rankings, not reasoning, under a criterion a no-op passes.
# 3. The dual head cuts inference latency against generating item identifiers: not tested (not run here).
# 4. R²ec adapts to diverse recommendation scenarios: not tested (one synthetic scenario).

# %%
d = lambda a, b: float(ndcg[a].mean() - ndcg[b].mean())
TOL = tolerance(abs=0.01, why="difference of NDCG@10 means after a few hundred Adam steps and sampled RL")
OFFICIAL = ("official launch settings (launch_train.sh, RecPOTrainer at 449a544): sampling temperature 2, item loss "
            "on the 2 best chains, in-batch negatives from the targets of 12 users, the loss as the official code "
            "computes it")
WHY_OFFICIAL = ("the official configuration, run as a second setting when the page was converted (issue 34; the "
                "in-batch negatives cut to the official 12 targets after the review); the method, the measurement "
                "and the criterion are the pre-registered test's")
RANDOM = "R²ec trained by RecPO with the fused reward replaced by uniform noise"
REWARD = "the fused reward's signal (the same RecPO updates with a random reward)"
WARM = "the dual-head model after its cross-entropy warm-up only, no RecPO step"
LIN = "the plain linear recommender (mean of history embeddings, next-item cross-entropy, no reasoning)"
MLP = "the plain MLP recommender (one-hidden-layer encoder, next-item cross-entropy, no reasoning)"
LIN_EARLY = ("the plain linear recommender stopped early, at the warm-up's step count (fixed rule; added after the "
             "review)")
MLP_EARLY = "the plain MLP recommender stopped early, at the warm-up's step count (fixed rule; added after the review)"
RERUN_LABEL = ("the discrete-only reward itself, rerun from the same warm-up with only the RL seed changed (a method "
               "identical to the reference; added after the review)")

claims.headline("beats-recommenders",
                "R²ec, one model that reasons with lm_head and ranks with rec_head, beats traditional, LLM-based "
                "and reasoning-augmented recommenders on three Amazon data sets (tested here against plain "
                "recommenders on synthetic latent-intent data)",
                tests=["beats-plain-linear", "beats-plain-mlp", "beats-plain-linear-official",
                       "beats-plain-mlp-official"])
claims.headline("recpo-fused-reward",
                "RecPO trains the reasoning without annotated rationales, by reinforcement learning on a reward that "
                "fuses a discrete ranking signal with a continuous similarity",
                untestable="no test measures whether RecPO trains the reasoning: token purity is shown, not tested; "
                           "the reward tests (fused-vs-discrete, fused-vs-continuous and their official versions) "
                           "compare rankings, not reasoning, under a does-not-hurt criterion that a no-op passes; and "
                           "in the official loss no policy gradient reaches the reasoning tokens")
claims.headline("dual-head-latency",
                "The dual head reduces inference latency: one reasoning pass and one matrix product instead of "
                "decoding item identifiers",
                untestable="not run: the count of decoder steps against beam-search decoding of item codes follows "
                           "from the construction (an illustration at best), and a wall-clock comparison needs the "
                           "paper's LLM backbones and baselines")
claims.headline("adapts-to-scenarios",
                "R²ec adapts to diverse recommendation scenarios",
                untestable="one synthetic scenario here; the paper's scenarios are Amazon domains with LLM backbones")

for suffix, cfg, extra in (("", "", {}), ("-official", ", official", dict(setting=OFFICIAL, post_hoc=WHY_OFFICIAL))):
    where = " (official launch settings)" if suffix else ""
    F, RND = f"R²ec (fused){cfg}", f"R²ec random reward{cfg}"
    claims.test(f"beats-plain-linear{suffix}",
                statement="R²ec (fused RecPO) has a mean NDCG@10 at least that of the plain recommender with the "
                          f"same encoder{where}",
                paper="R²ec beats traditional recommenders (SASRec, GRU4Rec, ...) on 3 Amazon domains",
                criterion=at_least(0.0), measured=d(F, "plain linear"), tol=TOL,
                ablation=Comparator(RANDOM, d(RND, "plain linear"), ingredient=REWARD),
                baselines=[Comparator(WARM, d("R²ec warm-up only", "plain linear")),
                           Comparator(MLP, d("plain MLP", "plain linear")),
                           Comparator(LIN_EARLY, d(EARLY["plain linear"], "plain linear")),
                           Comparator(MLP_EARLY, d(EARLY["plain MLP"], "plain linear"))], **extra)
    claims.test(f"beats-plain-mlp{suffix}",
                statement="R²ec (fused RecPO) has a mean NDCG@10 at least that of the stronger plain recommender "
                          f"(MLP encoder){where}",
                paper="R²ec beats traditional and LLM-based recommenders; +68.67% Hit@5 (secondary summary)",
                criterion=at_least(0.0), measured=d(F, "plain MLP"), tol=TOL,
                ablation=Comparator(RANDOM, d(RND, "plain MLP"), ingredient=REWARD),
                baselines=[Comparator(WARM, d("R²ec warm-up only", "plain MLP")),
                           Comparator(LIN, d("plain linear", "plain MLP")),
                           Comparator(LIN_EARLY, d(EARLY["plain linear"], "plain MLP")),
                           Comparator(MLP_EARLY, d(EARLY["plain MLP"], "plain MLP"))], **extra)
    for part, ref in (("discrete", "discrete (NDCG-only)"), ("continuous", "continuous (softmax-only)")):
        R = f"R²ec {part}-only{cfg}"
        rerun = [Comparator(RERUN_LABEL, d(RERUN, R))] if part == "discrete" and not cfg else []
        claims.test(f"fused-vs-{part}{suffix}",
                    statement=f"the fused reward is no worse than the {ref} reward by more than 0.005 NDCG@10{where}",
                    paper="the fused reward (ranking + similarity) outperforms its single components (ablation)",
                    criterion=at_least(-0.005), measured=d(F, R), tol=TOL,
                    ablation=Comparator(RANDOM, d(RND, R), ingredient=REWARD),
                    baselines=[Comparator(WARM, d("R²ec warm-up only", R)),
                               Comparator(LIN, d("plain linear", R)), *rerun], **extra)

# the numbers the prose cites (seed 0 of this run)
KEYS = {"popularity": "pop", "plain linear": "lin", "plain MLP": "mlp", "R²ec warm-up only": "warm",
        "R²ec (fused)": "fused", "R²ec discrete-only": "disc", "R²ec continuous-only": "cont",
        "R²ec random reward": "rand", "plain linear, stopped early": "lin_early",
        "plain MLP, stopped early": "mlp_early", RERUN: "disc_rerun"}
for name, key in KEYS.items():
    for cfg, sfx in (("", ""), (", official", "_off")):
        if name + cfg in res:
            glue(f"ndcg_{key}{sfx}", float(ndcg[name + cfg].mean()), display=False)
            glue(f"recall_{key}{sfx}", float(recall[name + cfg].mean()), display=False)
            if name + cfg in purity:
                glue(f"purity_{key}{sfx}", float(np.mean(purity[name + cfg])), display=False)
glue("n_seeds", int(P.n_seeds), display=False)
glue("warm_steps", int(P.warm_steps), display=False)
glue("plain_steps", int(P.plain_steps), display=False)
glue("gain_recall", float(gain(recall)), display=False)
glue("gain_ndcg", float(gain(ndcg)), display=False)
glue("d_lin_early", d(EARLY["plain linear"], "plain linear"), display=False)
glue("d_rerun", d(RERUN, "R²ec discrete-only"), display=False)
glue("d_fused_disc", d("R²ec (fused)", "R²ec discrete-only"), display=False)

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# The dual-head mechanism and RecPO run end to end, and the kernels agree with the official metric and reward
# code; but in our miniature reasoning trained by RecPO does not make the model a better ranker. The best
# rankers on the page use no trained reasoning at all: the plain linear model stopped early, and the model
# RecPO starts from. Values are seed 0 at ci scale, means over {glue:text}`n_seeds` model seeds; the judged
# table gives the sweep.
#
# * *Beats the plain recommender with the same encoder* ({repro-status}`beats-plain-linear`). R²ec reaches an
#   NDCG@10 of {glue:text}`ndcg_fused:.3f` against {glue:text}`ndcg_lin:.3f` for the plain linear model; the
#   random-reward ablation reaches {glue:text}`ndcg_rand:.3f`, the plain MLP {glue:text}`ndcg_mlp:.3f`, the
#   dual-head model after its warm-up, before any RecPO step, {glue:text}`ndcg_warm:.3f`, and the plain linear
#   model stopped early, at {glue:text}`warm_steps` steps, {glue:text}`ndcg_lin_early:.3f`. Over the ci sweep
#   the method passes at {repro-seeds}`beats-plain-linear:method:pass` seeds, the warm-up-only model at
#   {repro-seeds}`beats-plain-linear:baseline1:pass` and the early-stopped plain linear model at
#   {repro-seeds}`beats-plain-linear:baseline3:pass`.
# * *Beats the stronger plain recommender* ({repro-status}`beats-plain-mlp`): the method passes at
#   {repro-seeds}`beats-plain-mlp:method:pass` seeds of the sweep, the warm-up-only model at
#   {repro-seeds}`beats-plain-mlp:baseline1:pass`, and the plain MLP stopped early (NDCG@10
#   {glue:text}`ndcg_mlp_early:.3f` at this seed) at {repro-seeds}`beats-plain-mlp:baseline4:pass`.
# * *Fused reward against its parts* ({repro-status}`fused-vs-discrete`, {repro-status}`fused-vs-continuous`):
#   the discrete-only reward reaches {glue:text}`ndcg_disc:.3f` and the continuous-only one
#   {glue:text}`ndcg_cont:.3f`. "No worse by $0.005$" is a criterion that needs no reward at all: the random
#   reward passes it at {repro-seeds}`fused-vs-discrete:ablation:pass` seeds against the discrete reward and at
#   {repro-seeds}`fused-vs-continuous:ablation:pass` against the continuous one, the warm-up-only model at
#   {repro-seeds}`fused-vs-discrete:baseline1:pass` and {repro-seeds}`fused-vs-continuous:baseline1:pass`, and
#   the discrete-only reward itself, rerun with only its RL seed changed, passes `fused-vs-discrete` at
#   {repro-seeds}`fused-vs-discrete:baseline3:pass` seeds. Its margin is also inside the declared tolerance.
#   These two tests are therefore very weak (grade b of the evidence rubric) whatever status the judge gives
#   them: a pass would not show that fusing the rewards helps. The official weight $w = 0.05$ makes the fused
#   reward almost the discrete one, so a small difference between them is expected either way.
# * *Under the official launch settings* (temperature 2, item loss on the 2 best chains, in-batch negatives from
#   12 users' targets, the loss as the official code computes it; post hoc): R²ec reaches
#   {glue:text}`ndcg_fused_off:.3f`, the random reward {glue:text}`ndcg_rand_off:.3f`, the discrete-only reward
#   {glue:text}`ndcg_disc_off:.3f` and the continuous-only one {glue:text}`ndcg_cont_off:.3f`; statuses
#   {repro-status}`beats-plain-linear-official`, {repro-status}`beats-plain-mlp-official`,
#   {repro-status}`fused-vs-discrete-official` and {repro-status}`fused-vs-continuous-official`. That loss puts
#   no policy gradient on the reasoning tokens; in our miniature, where `lm_head` is a separate MLP, the
#   reasoning head therefore gets no gradient from the reward, and these variants differ only in how the reward
#   scales the item loss and in their sampled chains. (In the official LLM the backbone is shared, so the item
#   loss still moves the model that writes the reasoning.) The 3-GPU averaging of the item-loss weight is not
#   run.
#
# The diagnostic behind all of them (shown, not tested): the greedy reasoning token identifies the user's latent
# intent for a share of {glue:text}`purity_fused:.2f` of the test users after RecPO (fused reward), against
# {glue:text}`purity_rand:.2f` with the random reward and {glue:text}`purity_warm:.2f` for the untrained head
# of the warm-up (chance is about 1/8). With 8 tokens, group size 4 and a hundred RL steps the rank reward is
# too weak a teacher for the reasoning head, while the RecPO steps keep moving the item embeddings that the
# warm-up had fitted, and the model ends below where it started. The warm-up itself is a plain linear
# recommender stopped after {glue:text}`warm_steps` steps instead of {glue:text}`plain_steps`, and the plain
# linear model stopped there, with no reasoning head at all, is {glue:text}`d_lin_early:+.3f` NDCG@10 above the
# one trained to the end: stopping early is what helps here, not reasoning (see "What a skeptic would try").
# Whether RecPO trains the reasoning, the paper's second headline claim, is not tested here. The paper's
# reasoning starts from an instruction-tuned LLM that can already say something useful about a user, which our
# miniature lacks.
#
# ## What a skeptic would try
#
# Reviewed by an independent skeptic (2026-12-07); what they tried is above. They reran the page at ci scale
# over seeds 0-9 and reproduced its seed-0 record; rebuilt the official loss's broadcast on the official shapes
# independently of our kernel (the policy gradient on the reasoning tokens comes out at float zero, and the item
# gradient agrees with `K.recpo_loss_as_executed`, so the official configuration reads the official code
# correctly); and tried the baselines below. Each number here is measured by this notebook (seed 0, ci scale,
# the same users and seeds as the tests); the baselines that bear on a test are now its comparators.
#
# * **Stop the plain recommender early** (the skeptic's baseline; now a comparator of `beats-plain-linear` and
#   `beats-plain-mlp`). The plain linear model read off after {glue:text}`warm_steps` steps reaches an NDCG@10
#   of {glue:text}`ndcg_lin_early:.3f` and a Recall@10 of {glue:text}`recall_lin_early:.3f`, against
#   {glue:text}`ndcg_lin:.3f` and {glue:text}`recall_lin:.3f` for the same run at {glue:text}`plain_steps`
#   steps; the plain MLP stopped early reaches {glue:text}`ndcg_mlp_early:.3f` (at the end
#   {glue:text}`ndcg_mlp:.3f`); the dual-head model after its warm-up {glue:text}`ndcg_warm:.3f`, and RecPO
#   (fused) {glue:text}`ndcg_fused:.3f`. Over the ci sweep the early-stopped linear model beats the plain linear
#   one at {repro-seeds}`beats-plain-linear:baseline3:pass` seeds and the plain MLP at
#   {repro-seeds}`beats-plain-mlp:baseline3:pass`. With 600 training users the longer runs overfit; a
#   validation split (the official code stops on the validation NDCG@10) would be the fair fix for all models.
# * **Rerun the same method with another RL seed** (the noise floor of the reward tests; now a comparator of
#   `fused-vs-discrete`). The discrete-only reward retrained from the same warm-up with only its RL seed
#   changed differs from the discrete-only run by {glue:text}`d_rerun:+.4f` NDCG@10, where the fused reward
#   differs from it by {glue:text}`d_fused_disc:+.4f`. Over the ci sweep this identical method passes the
#   "no worse by $0.005$" criterion at {repro-seeds}`fused-vs-discrete:baseline3:pass` seeds. The skeptic also
#   reran the fused reward against itself and found it passes the same criterion at most seeds.
# * **Freeze the reasoning head.** The skeptic trained RecPO (fused) with the gradients of `lm_head` zeroed and
#   found about the NDCG@10 of RecPO itself: training the reasoning changes nothing measurable here (their
#   finding, not rerun by this notebook).
# * **Train with no reward signal.** RecPO with a uniformly random reward: {glue:text}`ndcg_rand:.3f`, against
#   {glue:text}`ndcg_fused:.3f` with the fused reward; under the official settings
#   {glue:text}`ndcg_rand_off:.3f` against {glue:text}`ndcg_fused_off:.3f`.
# * **Recommend the most popular items.** {glue:text}`ndcg_pop:.3f` (Recall@10 {glue:text}`recall_pop:.3f`):
#   every trained model is above it, so it is shown, not used as a comparator.
# * **Read the paper's relative gain against ours.** Our relative gain of R²ec over the best plain
#   recommender is {glue:text}`gain_ndcg:+.1f` % in NDCG@10 and {glue:text}`gain_recall:+.1f` % in Recall@10
#   (the paper's secondary summary reports large positive gains on Amazon data; see the table under "Results").
#
# ## What the miniature cannot show
#
# * Anything about language-model reasoning: our "reasoning chain" is one token from eight, generated by a
#   small MLP; it cannot show whether generated text rationales are coherent, faithful or useful, nor how
#   the 640-token chains of the paper behave under RL.
# * The paper's numbers: no Amazon data, no Gemma or Qwen backbone, no released checkpoints (they are LLM
#   weights we do not load), and none of its LLM-based or reasoning-augmented baselines.
# * Item representations from item text in the same model, which is what lets the paper's rec_head rank
#   cold items; ours are learned ID embeddings.
# * The latency argument (one reasoning pass plus one matrix product against beam-search decoding of item
#   identifiers) is not measured here.
# * How the result scales with the size of the reasoning vocabulary, chain length or group size $G$.
