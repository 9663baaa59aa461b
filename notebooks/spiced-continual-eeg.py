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
# # SPICED: a synaptic network that picks which past subjects to replay (a synthetic-EEG analogue)
#
# *When new people arrive one after another, an unlabelled EEG decoder should adapt to each by reusing the past
# subjects most similar to them (reactivation), reinforcing those links (consolidation) and letting all links
# fade (renormalisation); the paper says this adapts better and forgets less than replay-free baselines. We test
# the mechanism, as coded officially, on a synthetic multi-subject EEG-like stream.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from IPython.display import Markdown, display

from repro.claims import Claims, at_least, at_most, tolerance
from repro.continual import average_accuracy, forgetting, plot_accuracy_matrix, summarize_runs
from repro.papers import spiced_continual_eeg as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 6-7 s of compute on one thread (measured): 3 runs x 7 methods, 10 source + 6 target subjects,
    # 100 trials per subject
    "ci": dict(n_source=10, n_target=6, n_trials=100, n_runs=3),
    # about 1-2 min on one thread: 5 runs, 15 source + 12 target subjects, 200 trials per subject
    "full": dict(n_source=15, n_target=12, n_trials=200, n_runs=5),
})
claims = Claims(
    "spiced-continual-eeg",
    title="SPICED: A Synaptic Homeostasis-Inspired Framework for Unsupervised Continual EEG Decoding",
    authors="Yangxuan Zhou, Sha Zhao, Jiquan Wang, Haiteng Jiang, Shijian Li, Tao Li, Gang Pan",
    paper_url="https://arxiv.org/abs/2509.17439",
    scale=scale, seed=seed,
)
N_FAMILIES = 3
CFG = K.RunConfig()  # official defaults where the code has them: k = 1, S = 30, alpha = (0.6, 0.4), x1.3 capped at 3
RUN_SEEDS = [1000 * seed + r for r in range(P.n_runs)]
SHOWN = ["source-only", "naive", "uniform-replay", "spiced", "spiced-reversed", "finetune-labels", "oracle"]

# %% [markdown]
# ## The claim
#
# EEG decoders trained on one group of people lose accuracy on a new person: electrode contact, head shape
# and brain rhythms all differ. SPICED treats the arrival of new people as an *unsupervised continual*
# problem: each new subject brings unlabelled recordings, the decoder must adapt to them, and it should still
# work on the subjects it adapted to earlier. The paper's answer is a growing *synaptic network* with one node
# per subject. A new subject is linked to the past subjects whose feature prototypes resemble it; the most
# important neighbours are *reactivated* (their models are fused into the starting model and their stored
# confident samples replayed), their links are *consolidated*, and all links *renormalise* (decay) after each
# subject, so that memories that keep proving useful dominate future replay. The paper reports that this beats
# continual-learning and test-time-adaptation baselines on three EEG datasets (sleep staging, emotion, motor
# imagery). No verified number was found: the abstract has none, the official README has none, and the one
# figure we saw (75.6 % accuracy) comes from an unverified machine-written summary that does not name its dataset.
#
# ## The method
#
# A subject $i$ has a prototype $p_i$ (here the mean of its standardised log band-power features). Subjects
# $i, j$ are linked when the domain-weighted cosine $s_{ij} = \sum_g w_g \cos(p_i^{(g)}, p_j^{(g)}) / \sum_g w_g$
# exceeds a threshold (0.6); a new link has strength 1 at both ends. The importance of neighbour $j$ for $i$ is
#
# $$I_{ij} = 0.6\, s_{ij} + 0.4\, \frac{\bar w_j}{\sum_{j'} \bar w_{j'}},$$
#
# with $\bar w_j$ the mean strength of $j$'s links. The top-$k$ ($k=1$) neighbours by $I_{ij}$ are reactivated:
# their models, weighted by normalised importance, are averaged into the starting model, and as many of their
# stored samples as the new subject has trials are replayed. Each reactivated node multiplies its links'
# strengths by 1.3 (capped at 3, links of strength exactly 1 skipped) and restarts its step counter; after each
# subject every node $i$ decays its links, $w_{ij} \leftarrow w_{ij} e^{-\mathrm{step}_i/30}$, and counts a step.
# The adaptation itself is self-training: cross-entropy on the starting model's confident pseudo-labels
# (probability $\ge 0.9$) plus cross-entropy on the replayed samples (labelled for source subjects,
# pseudo-labelled for earlier targets). The kernels are in `src/repro/papers/spiced_continual_eeg.py`.
#
# ## The experiment
#
# *Data (synthetic, generated per run).* Eight channels, 2 s at 128 Hz. Three latent sources; in class $c$
# source $c$ carries a strong alpha rhythm (about 10 Hz) and weak beta, the others strong beta (about 20 Hz) and
# weak alpha; a theta rhythm of random amplitude is a nuisance. A subject mixes the sources into the channels
# with its own matrix (its family's matrix plus noise), its own electrode gains, rhythm frequencies and noise
# level. Subjects come in three *families*. The target subjects also share, within a family, a second
# electrode-gain pattern that the source subjects lack (a recording shift between the labelled cohort and the
# new people), so the source model is mediocre on them and a previously adapted subject of the same family is
# the most useful memory. Features: log band power (theta 4-8, alpha 8-13, beta 13-30 Hz) per channel, 24 numbers,
# standardised with the pooled source statistics. The decoder is a 24-32-3 ReLU network trained with Adam.
#
# *Stream.* Labelled source subjects train the source model; then the target subjects arrive in random
# order, unlabelled, and each method adapts to them one at a time. After each adaptation we score the current
# model on every target subject, which fills the accuracy matrix $A_{ij}$ (after subject $i$, on subject $j$).
# Accuracy is transductive (on the same trials the method adapted to), as in the official trainer.
#
# *Methods, all in the same runs:* **source-only** (never adapted); **naive** sequential self-training (no
# replay); **uniform-replay** (sequential self-training plus a replay set of the same size as SPICED's, drawn
# uniformly from everything stored); **spiced** (the synaptic network); **spiced-reversed**, a control, the
# same pipeline with the *least* similar past subject reactivated; **finetune-labels**, sequential supervised
# fine-tuning with the true labels and no replay (the textbook forgetting case); **oracle**, joint training on
# all labels seen so far (upper bound).
#
# *Sizes.* ci: 10 source and 6 target subjects, 100 trials each, 3 runs (new data, new model initialisation and
# new stream order per run). full: 15 source and 12 target subjects, 200 trials each, 5 runs.
#
# **Deviations from the paper**
#
# * Data: a synthetic EEG-like generator, not ISRUC, FACED or Physionet-MI (they need downloads). Its
#   families and the target-only gain shift are our design. A first pilot without the target shift ran every
#   method and showed the source model at 95 % on the targets, where no adaptation can help; we then added the
#   shift and chose its size (log-std 0.9) and the mixing spread (0.35) from a handful of settings by looking only
#   at source-only accuracy (about 0.67 at ci) and at whether same-family subjects stay more similar than
#   others, not at any method's result. The claim thresholds are the brief's and did not change.
# * Backbone: a 24-32-3 ReLU network on band-power features instead of the paper's convolutional-transformer
#   encoders on raw signals; full-batch Adam (60 steps, learning rate 0.01, 300 for the source model) instead of
#   mini-batch epochs with the official best-loss epoch selection.
# * Self-training: the teacher is the frozen starting model; the official trainer also updates a teacher copy
#   with a contrastive predictive coding (CPC) loss, which we leave out.
# * Prototype: the mean standardised band-power vector with one similarity group, instead of the official
#   per-channel time, spectral and wavelet statistics with domain weights 0.9/1.5/1.2 (the kernel takes
#   groups and weights; the golden test uses the official ones).
# * Stored samples of a new subject are pseudo-labelled by the *adapted* model; the official
#   `saving_new_node_sample` passes the model from before adaptation. A subject without any link starts from
#   the model of the most similar subject and replays nothing, as in the official code.
# * Confidence threshold 0.9 for both training and storing (the official values are command-line arguments
#   whose defaults we did not find).
# * Fewer subjects and trials (ci: 6 targets; full: 12) than the paper's datasets (tens of subjects).

# %%
runs = {m: [] for m in SHOWN}
same_family, linked, final_strength = [], [], []
from_source = {"spiced": [], "spiced-reversed": []}  # share of reactivated subjects that are labelled source subjects
for r in progress(RUN_SEEDS, total=len(RUN_SEEDS), desc="runs"):
    stream = K.make_stream(P.n_source, P.n_target, P.n_trials, N_FAMILIES, r)
    src = K.pretrain(stream, CFG, r)
    for m in SHOWN:
        out = K.continual_run(stream, m, r, CFG, src)
        runs[m].append(out["A"])
        if m in from_source:
            from_source[m].append(float(np.mean([j < P.n_source for js in out["reactivated"] for j in js])))
        if m == "spiced":
            same_family.append(out["same_family"])
            net = out["net"]
            linked.append(float(np.mean([net.connected[P.n_source + i].any() for i in range(P.n_target)])))
            final_strength.append(net)
A = {m: np.array(v) for m, v in runs.items()}
S = {m: summarize_runs(A[m]) for m in SHOWN}
plast = {m: np.array([np.mean(np.diag(a)) for a in A[m]]) for m in SHOWN}
print(f"scale={P.scale}: {len(RUN_SEEDS)} runs (seeds {RUN_SEEDS}), {P.n_source} source + {P.n_target} target "
      f"subjects, {P.n_trials} trials each")
print(f"spiced: reactivated subject of the new subject's family in {np.mean(same_family):.0%} of arrivals; "
      f"{np.mean(linked):.0%} of new subjects had a link")
print("share of reactivated subjects that are labelled source subjects: "
      + ", ".join(f"{m} {np.mean(v):.0%}" for m, v in from_source.items()))

# %% [markdown]
# ## Results
#
# The table gives the final average accuracy (ACC, mean over target subjects with the last model), the average
# incremental accuracy, the forgetting (Chaudhry et al.: each subject's drop from its best to its final
# accuracy), the backward transfer and the plasticity (mean accuracy on a subject right after adapting to it),
# as mean ± standard deviation over the runs.

# %%
rows = ["| method | ACC (%) | avg. incremental (%) | forgetting (points) | BWT (points) | plasticity (%) |",
        "|---|---|---|---|---|---|"]
for m in SHOWN:
    s = S[m]
    rows.append(f"| {m} | {100 * s['acc'][0]:.1f} ± {100 * s['acc'][1]:.1f} "
                f"| {100 * s['avg_incremental'][0]:.1f} ± {100 * s['avg_incremental'][1]:.1f} "
                f"| {100 * s['forgetting'][0]:.1f} ± {100 * s['forgetting'][1]:.1f} "
                f"| {100 * s['bwt'][0]:.1f} ± {100 * s['bwt'][1]:.1f} "
                f"| {100 * plast[m].mean():.1f} ± {100 * plast[m].std():.1f} |")
display(Markdown("\n".join(rows)))

# %%
fig, axes = plt.subplots(1, len(SHOWN), figsize=(3.0 * len(SHOWN), 3.4))
for ax, m in zip(axes, SHOWN):
    im = plot_accuracy_matrix(ax, A[m].mean(0), title=m)
    ax.tick_params(labelsize=7)
    if m != SHOWN[0]:
        ax.set_ylabel("")
fig.colorbar(im, ax=axes, shrink=0.7, label="accuracy (fraction, mean over runs)")
fig.suptitle("Accuracy matrix: row = after adapting to target subject i, column = scored on subject j")
plt.show()

# %%
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 3.8))
x = np.arange(len(SHOWN))
acc_runs = {m: 100 * np.array([average_accuracy(a) for a in A[m]]) for m in SHOWN}
fgt_runs = {m: 100 * np.array([forgetting(a) for a in A[m]]) for m in SHOWN}
for ax, vals, lab in ((ax1, acc_runs, "final average accuracy (%)"), (ax2, fgt_runs, "forgetting (points)")):
    ax.bar(x, [vals[m].mean() for m in SHOWN], yerr=[vals[m].std() for m in SHOWN], color="0.8", capsize=3,
           label="mean ± std over runs")
    for k, m in enumerate(SHOWN):
        ax.plot(np.full(len(vals[m]), k) + np.linspace(-0.15, 0.15, len(vals[m])), vals[m], "o", ms=4, color="C0")
    ax.set_xticks(x, SHOWN, rotation=35, ha="right")
    ax.set_ylabel(lab)
ax1.plot([], [], "o", color="C0", label="one run")
ax1.legend(loc="lower right", fontsize=8)
ax1.set_title("Stability-plasticity summary")
ax2.set_title("Forgetting (lower is better)")
plt.show()

# %% [markdown]
# The synaptic network itself: the similarity of the subjects' prototypes (first run, ordered by family) and
# the strengths of the links at the end of the stream. Reactivation works as intended when the most important
# neighbour of a new subject comes from its own family.

# %%
net = final_strength[0]
stream0 = K.make_stream(P.n_source, P.n_target, P.n_trials, N_FAMILIES, RUN_SEEDS[0])
fam = np.concatenate([stream0.fam_s, stream0.fam_t])
order = np.argsort(fam, kind="stable")
sim_all = np.array([[K.domain_weighted_cosine(a, b) for b in net.prototypes] for a in net.prototypes])
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4.2))
im1 = ax1.imshow(sim_all[np.ix_(order, order)], cmap="RdBu_r", vmin=-1, vmax=1)
ax1.set_title("prototype cosine similarity (ordered by family)")
ax1.set_xlabel("subject (sorted by family)")
ax1.set_ylabel("subject (sorted by family)")
fig.colorbar(im1, ax=ax1, shrink=0.8, label="cosine similarity")
im2 = ax2.imshow(net.strength[np.ix_(order, order)], cmap="viridis")
ax2.set_title("link strength at the end (row = node's own copy)")
ax2.set_xlabel("subject (sorted by family)")
ax2.set_ylabel("subject (sorted by family)")
fig.colorbar(im2, ax=ax2, shrink=0.8, label="strength (dimensionless)")
for ax in (ax1, ax2):
    for b in np.flatnonzero(np.diff(fam[order])) + 0.5:
        ax.axhline(b, color="k", lw=0.6)
        ax.axvline(b, color="k", lw=0.6)
plt.show()

# %% [markdown]
# ### The paper's numbers beside ours
#
# The paper's own numbers were not found (see the claim), so the table has one row for what it reports in words
# and our measurement of the same comparison.

# %%
d_naive = S["spiced"]["acc"][0] - S["naive"]["acc"][0]
display(Markdown(
    "| setting | paper | ours (synthetic EEG, mean over runs) |\n|---|---|---|\n"
    f"| ACC, SPICED vs replay-free self-training | SPICED higher on ISRUC, FACED, Physionet-MI (no verified number) "
    f"| {100 * S['spiced']['acc'][0]:.1f} % vs {100 * S['naive']['acc'][0]:.1f} % ({100 * d_naive:+.1f} points) |\n"
    f"| forgetting, SPICED vs replay-free self-training | SPICED lower (no verified number) "
    f"| {100 * S['spiced']['forgetting'][0]:.1f} vs {100 * S['naive']['forgetting'][0]:.1f} points |\n"
    "| ACC on an unnamed dataset | 75.6 % (unverified secondary summary, not the paper) | not comparable |"))

# %% [markdown]
# ## Against the official code
#
# The paper's code: [xiaobaben/SPICED](https://github.com/xiaobaben/SPICED) (commit `fce7b5e`). We read
# `builder/synaptic_builder.py`, `utils/calculate_similarity.py`, `trainer/trainer.py`,
# `dataloader/data_loader.py` and `model/incremental_model.py`, and ran the synaptic-network bookkeeping
# unchanged, outside this project, with the plotting module stubbed: 5 source nodes from
# `net_initialization`, then 5 nodes through `add_node`, each followed by `global_renormalization_synapses`, on
# seeded 90-dimensional prototypes with the official `prototype3` groups and domain weights (ISRUC layout),
# for $k=1$ (threshold 0.6) and $k=2$ (threshold 0.5). The outputs are in
# `tests/papers/golden/spiced-continual-eeg.json`, and `test_golden_synaptic_network` checks our
# `SynapticNetwork`. No official code is copied here.
#
# **What agrees.** Every link strength (both copies of each link, 10 x 10 per case) agrees exactly (0 difference),
# and so do the similarities (to 1e-12), the step counters, the reactivated nodes and their weights (to 1e-12),
# including the two quirks that decide the dynamics: a link of strength exactly 1 (one just created) is not
# consolidated, and each end of a link decays with its own node's step counter, so the two copies of a link
# drift apart. The replay budget (`int(len * importance)` samples per reactivated node, all of them if fewer,
# at least one) and the model fusion (importance-weighted parameter average, weights divided by sum + 1e-8)
# follow `BuildReplayedDataset` and `weighted_model_fusion`.
#
# **Departures** (ours → official).
#
# * Consolidation caps at `cap` (default 3); the official code caps at 3 whatever `up_bound` says (the same at
#   the default).
# * Decoder, data, prototype features and training loop: see the deviations above. The official trainer
#   replays by repeating the replay list up to the new subject's size inside mini-batches; with full-batch
#   mean losses the repetition changes nothing, so we replay each stored sample once.
# * Stored pseudo-labels come from the adapted model (official: the model before adaptation, which looks like
#   a slip). When the reactivated subjects hold no stored confident sample, the official data loader replays
#   the most similar source subject instead; ours then replays nothing (source subjects always hold their
#   labelled trials, so this can only happen when an earlier target stored nothing).
# * The source nodes all carry the source model; the official code does the same (every source node points to
#   the pre-trained model files).

# %%
ACC_TOL = tolerance(abs=0.02, why="mean over runs of accuracies on 100-200 trials; another CPU's last float digits "
                    "can flip a pseudo-label at the confidence threshold or an arg-max tie and move a trial")
PAPER = "SPICED adapts to new subjects better than continual-learning baselines (abstract); no verified number"
claims.check("spiced-beats-naive-acc",
             statement="Final average accuracy (ACC) of SPICED minus that of naive sequential self-training, "
                       f"mean over {len(RUN_SEEDS)} runs",
             paper=PAPER, criterion=at_least(0.03),
             measured=S["spiced"]["acc"][0] - S["naive"]["acc"][0],
             control=S["spiced-reversed"]["acc"][0] - S["naive"]["acc"][0],
             control_label="the same pipeline reactivating the least similar past subject, minus naive",
             tol=ACC_TOL)
claims.check("spiced-forgets-less",
             statement="Forgetting of SPICED minus forgetting of naive sequential self-training (<= 0: SPICED forgets "
                       f"no more), mean over {len(RUN_SEEDS)} runs",
             paper="SPICED mitigates catastrophic forgetting in long-term continual learning (abstract); no number",
             criterion=at_most(0.0),
             measured=S["spiced"]["forgetting"][0] - S["naive"]["forgetting"][0],
             control=S["finetune-labels"]["forgetting"][0] - S["naive"]["forgetting"][0],
             control_label="sequential supervised fine-tuning without replay (textbook forgetting), minus naive",
             tol=ACC_TOL)
claims.check("selection-not-worse-than-uniform",
             statement="ACC of SPICED minus ACC of uniform replay at the same replay budget (>= -1 point: picking the "
                       "memories by the synaptic network is not worse than picking them at random)",
             paper="replaying the task-relevant memory traces selected by synaptic homeostasis helps adaptation "
                   "(abstract); no number",
             criterion=at_least(-0.01),
             measured=S["spiced"]["acc"][0] - S["uniform-replay"]["acc"][0],
             control=S["spiced-reversed"]["acc"][0] - S["uniform-replay"]["acc"][0],
             control_label="reactivating the least similar past subject instead, minus uniform replay",
             tol=ACC_TOL)
claims.check("reactivation-picks-own-family",
             statement="Share of arrivals at which SPICED reactivates a past subject of the new subject's family "
                       "(the synthetic ground truth of 'task-relevant memory')",
             paper="critical memory reactivation selects task-relevant memories (abstract)",
             criterion=at_least(0.8), measured=float(np.mean(same_family)),
             control=1.0 / N_FAMILIES, control_label="chance: a past subject drawn at random (1 / number of families)",
             tol=tolerance(abs=0.05, why="share of 6-12 arrivals per run; a near-tie in importance may flip on another CPU"),
             post_hoc="added while writing the page, after the first runs had shown the family shares of the "
                      "reactivated subjects; threshold set from the design, not from those numbers")

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Not reproduced in this analogue: 0 of 3 pre-registered claims hold, at ci and at full scale.** The synaptic
# network does what its code says (the golden test matches the official bookkeeping exactly) and its selection
# finds the right memories, but on our synthetic stream that does not turn into higher final accuracy or less
# forgetting than replay-free self-training. Numbers below are means over the runs of seed 0 (ci: 3 runs, 6
# targets; full: 5 runs, 12 targets); the spread over runs is large (about ±20 points of ACC at ci) because the
# source model's accuracy on a stream varies with the drawn families, so every comparison is between methods on
# the same runs.
#
# * *SPICED vs naive self-training, final accuracy* (`spiced-beats-naive-acc`, criterion +3 points): -1.7 points
#   at ci (54.9 % vs 56.6 %), -1.0 at full (76.8 % vs 77.8 %). **Not reproduced.** The control, reactivating
#   the *least* similar past subject, gains +5.1 points at ci (+3.6 at full), so it passes where the method fails.
# * *Forgetting* (`spiced-forgets-less`, SPICED no worse than naive): SPICED forgets 12.5 points at ci and 13.3
#   at full, against 3.7 and 4.3 for naive (backward transfer -12 and -10.5 points). **Not reproduced.**
# * *Selection vs uniform replay at the same budget* (`selection-not-worse-than-uniform`, at most 1 point
#   worse): -8.1 points at ci, -7.0 at full. **Not reproduced.** Uniform replay is the best unlabelled method
#   here (63.0 % at ci, 83.8 % at full), close to the never-adapted source model (66.9 %, 84.2 %).
# * *Reactivation picks the new subject's family* (`reactivation-picks-own-family`, added after the first runs,
#   †): 89 % of arrivals at ci, 92 % at full, against 33 % by chance. **Reproduced**: the similarity and
#   importance rule of the paper finds the task-relevant memory in this data.
#
# Why the right memories do not help here. Reactivation does raise *plasticity*: accuracy on a subject right
# after adapting to it is 64.9 % for SPICED against 59.2 % for naive at ci (86.4 % against 79.4 % at full).
# But the model kept at the end is the one adapted to the last subject, and its lineage runs through its own
# family's earlier subjects, so it loses the other families' subjects: that is the 12-13 points of forgetting.
# And half (ci) to three quarters (full) of the reactivated subjects are earlier *targets*, whose stored samples
# carry pseudo-labels; in this analogue self-training on one subject at a time hurts (naive ends 10 points below
# the source model at ci), so replaying pseudo-labelled memories passes the errors along a family. The reversed
# control and uniform replay mostly replay *labelled source* trials (94 % of the reversed control's reactivated
# subjects are source subjects at ci, 88 % at full), which anchor the decoder. The labelled references
# (fine-tuning with labels: 95.3 % ACC, 5.6 points forgetting at ci; joint oracle 99.8 %) show that the task
# itself is easy once labels are known.
#
# *Across seeds* (the table "Across seeds and scales", from the sweeps: ci seeds 0-9, full seeds 0-2). The ACC
# claim is seed-sensitive: SPICED beats naive by 3 points or more at 5 of 10 ci seeds (-1.7 to +11.1 points) and
# at 2 of 3 full seeds (-1.0, +10.4, +4.8), but at every one of those seeds the reversed control passes too, so it
# never *holds* against its control. Forgetting is lower than naive's at 2 of 10 ci seeds and at no full seed
# (+9 to +10 points at full). Selection is within 1 point of uniform replay or better at 3 of 10 ci seeds and at
# no full seed (-4.8 to -7.2 points). Reactivation picks the new subject's family at >= 80 % of arrivals at 8 of
# 10 ci seeds (78-94 %) and at all 3 full seeds (87-92 %). The reading does not change: the selection works,
# its promised payoff does not appear in this analogue.
#
# What we can say: the paper's reactivation rule is implemented as in its code and selects the right subjects
# on synthetic data; whether that selection beats replay-free or uniform replay, as the paper reports on real
# EEG, is not supported by this analogue, where the limiting factor is the quality of pseudo-labels rather than
# the choice of what to replay.
#
# ## What the miniature cannot show
#
# * Real EEG. Our subjects differ by a linear mixing, gains, rhythm frequencies and noise, and our target
#   cohort by one gain pattern per family; real inter-subject differences (anatomy, attention, artefacts,
#   non-stationarity within a session) are richer, and the paper's gains may come from them.
# * The paper's backbones and its contrastive (CPC) self-supervision, which may make self-training far more
#   robust to wrong pseudo-labels than our small network trained on confident labels alone.
# * Long streams: the paper streams tens of subjects per dataset, where renormalisation (a decay time of about
#   30 subjects) and consolidation have time to reshape the network; with 6-12 arrivals the strengths barely
#   move away from the similarity ranking, so consolidation and renormalisation are tested only as bookkeeping
#   (the golden test), not as a cause of the results.
# * Labels and metrics of the paper's tasks (macro-F1, five sleep stages, nine emotions, four motor-imagery
#   classes).
