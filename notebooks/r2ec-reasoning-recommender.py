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
import matplotlib.pyplot as plt
import numpy as np
import torch

from repro.claims import Claims, at_least, tolerance
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
# * **R²ec (fused)**: the linear encoder as the "decoder", `lm_head` an MLP (64 units) over 8 reasoning
#   tokens, one reasoning token per user, state after reasoning $h + T_r$, `rec_head` as above; warm-up of
#   the encoder and item embeddings by cross-entropy, then RecPO with $G = 4$, $w = 0.05$ (official defaults);
# * **R²ec discrete-only** ($w=0$) and **continuous-only** ($w=1$): the reward ablation of the brief;
# * **R²ec random reward**: the same RecPO updates with the reward replaced by uniform noise (a control that
#   keeps the mechanics and removes the signal).
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
#   in-batch items.
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
VARIANTS = {  # name -> reward settings of RecPO (None: plain recommenders)
    "R²ec (fused)": dict(sim_weight=0.05),
    "R²ec discrete-only": dict(sim_weight=0.0),
    "R²ec continuous-only": dict(sim_weight=1.0),
    "R²ec random reward": dict(random_reward=True),
}


def evaluate(scores):
    """NDCG@10, Recall@10 and Recall@k for k = 1..50 on the test users."""
    s = scores.detach()
    return dict(ndcg=K.ndcg_at_k(s, test["target"], 10), recall=K.recall_at_k(s, test["target"], 10),
                curve=np.array([K.recall_at_k(s, test["target"], int(k)) for k in KS]))


res = {name: [] for name in ["popularity", "plain linear", "plain MLP", *VARIANTS]}
purity = {name: [] for name in VARIANTS}
for j in progress(range(P.n_seeds), desc="model seeds"):
    ms = 100 * seed + j
    res["popularity"].append(evaluate(K.popularity_scores(train["target"], P.n_test, N)))
    for name, hidden in (("plain linear", 0), ("plain MLP", 64)):
        torch.manual_seed(ms)
        m = K.train_plain(K.PlainRec(N, hidden=hidden), train["hist"], train["target"], P.plain_steps,
                          batch=P.batch, seed=ms)
        res[name].append(evaluate(m(test["hist"])))
    for name, kw in VARIANTS.items():
        torch.manual_seed(ms)
        d = K.DualHeadRec(N)
        K.train_plain(d.enc, train["hist"], train["target"], P.warm_steps, batch=P.batch, seed=ms)
        K.train_recpo(d, train["hist"], train["target"], P.rl_steps, batch=P.batch, seed=ms, **kw)
        res[name].append(evaluate(d(test["hist"])))
        # how well the greedy reasoning token identifies the latent intent (majority intent per token)
        tok = d.reason_logits(test["hist"])[1].argmax(-1).numpy()
        table = np.zeros((d.n_reason, train["n_topics"]))
        np.add.at(table, (tok, test["intent"].numpy()), 1)
        purity[name].append(table.max(1).sum() / table.sum())

ndcg = {k: np.array([r["ndcg"] for r in v]) for k, v in res.items()}
recall = {k: np.array([r["recall"] for r in v]) for k, v in res.items()}
print(f"{P.n_train} training users, {P.n_test} test users, {N} items, {P.n_seeds} model seeds")
print(f"{'model':24s} {'NDCG@10':>16s} {'Recall@10':>16s}   token purity")
for k in res:
    pur = f"{np.mean(purity[k]):.2f}" if k in purity else ""
    print(f"{k:24s} {ndcg[k].mean():.3f} ± {ndcg[k].std(ddof=1):.3f}   {recall[k].mean():.3f} ± {recall[k].std(ddof=1):.3f}   {pur}")

# %% [markdown]
# ## Results
#
# Every model was trained and scored in the same run on the same users; the bars are means over the model
# seeds and the dots single seeds. "Token purity" above is the share of test users whose greedy reasoning
# token, read through its majority intent, names the topic of the next item (1/8 would be chance with
# balanced tokens; 1 means the reasoning decodes the latent intent).

# %%
names = list(res)
colors = ["C7", "C0", "C9", "C3", "C1", "C2", "C5"]
fig, axes = plt.subplots(1, 2, figsize=(12, 4.2), layout="constrained")
for ax, metric, label in ((axes[0], ndcg, "NDCG@10"), (axes[1], recall, "Recall@10")):
    x = np.arange(len(names))
    ax.bar(x, [metric[n].mean() for n in names], color=colors, alpha=0.6,
           yerr=[metric[n].std(ddof=1) for n in names], capsize=3)
    for i, n in enumerate(names):
        ax.plot(np.full(len(metric[n]), i), metric[n], "k.", ms=5)
    ax.set_xticks(x, names, rotation=30, ha="right")
    ax.set(ylabel=f"{label} on test users (fraction)", title=f"{label}: mean ± sd over {P.n_seeds} model seeds")
plt.show()

# %%
fig, ax = plt.subplots(figsize=(7, 4.2))
for n, c in zip(names, colors):
    curves = np.array([r["curve"] for r in res[n]])
    mu, sd = curves.mean(0), curves.std(0, ddof=1)
    ax.plot(KS, mu, color=c, label=n)
    ax.fill_between(KS, mu - sd, mu + sd, color=c, alpha=0.15)
ax.axvline(10, color="k", lw=0.8, ls=":")
ax.set(xlabel="list length k (items)", ylabel="Recall@k on test users (fraction)",
       title=f"Recall over list length ({N} items; bands: ±1 sd over seeds)")
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
# Departures: ties in the score are counted in the target's favour (the official `topk` leaves their order
# to the sort; none occur with continuous scores); the official item loss uses in-batch items as negatives
# and a clipped ratio, ours all items and ratio 1 (one on-policy step); the official `reward_ndcg_k = 1000`
# exceeds our 160 items, so every rank earns a reward as in the official code. The official trainer also
# offers a leave-one-out advantage; we use its default, the group-normalised ("gaussian") one.

# %% [markdown]
# ## Claims
#
# Criteria fixed before the first run, from the brief: R²ec at least matches each plain recommender in mean
# NDCG@10 (difference ≥ 0), and the fused reward is no worse than either single reward by more than 0.005.
# Values are differences of mean NDCG@10 over the model seeds.

# %%
d = lambda a, b: float(ndcg[a].mean() - ndcg[b].mean())
TOL = tolerance(abs=0.01, why="difference of NDCG@10 means after a few hundred Adam steps and sampled RL")
claims.check("beats-plain-linear",
             statement="R²ec (fused RecPO) has a mean NDCG@10 at least that of the plain recommender with the same encoder",
             paper="R²ec beats traditional recommenders (SASRec, GRU4Rec, ...) on 3 Amazon domains",
             criterion=at_least(0.0), measured=d("R²ec (fused)", "plain linear"), tol=TOL,
             control=d("R²ec random reward", "plain linear"),
             control_label="R²ec trained with a random reward instead of the fused one")
claims.check("beats-plain-mlp",
             statement="R²ec (fused RecPO) has a mean NDCG@10 at least that of the stronger plain recommender (MLP encoder)",
             paper="R²ec beats traditional and LLM-based recommenders; +68.67% Hit@5 (secondary summary)",
             criterion=at_least(0.0), measured=d("R²ec (fused)", "plain MLP"), tol=TOL,
             control=d("popularity", "plain MLP"), control_label="most-popular baseline in place of R²ec")
claims.check("fused-vs-discrete",
             statement="the fused reward is no worse than the discrete (NDCG-only) reward by more than 0.005 NDCG@10",
             paper="the fused reward (ranking + similarity) outperforms its single components (ablation)",
             criterion=at_least(-0.005), measured=d("R²ec (fused)", "R²ec discrete-only"), tol=TOL,
             control=d("R²ec random reward", "R²ec discrete-only"),
             control_label="random reward in place of the fused one")
claims.check("fused-vs-continuous",
             statement="the fused reward is no worse than the continuous (softmax-only) reward by more than 0.005 NDCG@10",
             paper="the fused reward (ranking + similarity) outperforms its single components (ablation)",
             criterion=at_least(-0.005), measured=d("R²ec (fused)", "R²ec continuous-only"), tol=TOL,
             control=d("R²ec random reward", "R²ec continuous-only"),
             control_label="random reward in place of the fused one")

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Not reproduced at this scale.** The dual-head mechanism and RecPO run end to end (kernels checked against
# the official metric and reward code), but in our miniature the reasoning head does not make the model a better
# ranker than plain recommenders.
#
# * *Beats the plain recommender with the same encoder* (`beats-plain-linear`): not reproduced at ci, where
#   R²ec is within about 0.01–0.02 NDCG@10 of the plain linear model and below it at 9 of 10 seeds. At full
#   scale R²ec is ahead at every seed, but so is the random-reward control, so the claim is uninformative
#   there: at least part of the gain (0.004–0.007 for the control) needs no reward signal at all, only the
#   extra reasoning-token parameters and training steps.
# * *Beats the stronger plain recommender* (`beats-plain-mlp`): not reproduced. An MLP encoder trained with
#   plain cross-entropy decodes the latent intent far better than RL does through the reasoning token (at full
#   scale it leads by 0.07–0.10 NDCG@10 at every seed; at ci R²ec matches it at 3 of 10 seeds).
# * *Fused reward versus its parts* (`fused-vs-discrete`, `fused-vs-continuous`): within 0.005 NDCG@10 of
#   the discrete-only reward at every full-scale seed, and at or above the continuous-only reward, but the
#   random-reward control often passes the same test; at ci the differences are noise of either sign. The
#   official weight $w = 0.05$ makes the fused reward almost the discrete one, so a small difference is
#   expected.
#
# The diagnostic that explains all four: the greedy reasoning token identifies the user's latent intent for
# only about a quarter to a third of the test users (chance about 1/8; see the token-purity column), while
# the plain MLP, trained with the supervised next-item loss, learns the same pair-to-intent map directly
# (its Recall@10 is far above every R²ec variant at full scale). With 8 tokens, group size 4 and a few hundred RL
# steps, the sparse rank reward is too weak a teacher for the reasoning head; the paper's reasoning starts
# from an instruction-tuned LLM that can already say something useful about a user, which our miniature
# lacks. Per-seed statuses are in the robustness table (ci seeds 0–9, full seeds 0–2). A full-scale run
# takes about 35 s on a quiet core (2–3 minutes on the shared, loaded machine).
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
