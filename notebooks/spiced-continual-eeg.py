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
# the mechanism, as coded officially, on a synthetic multi-subject EEG-like stream, beside the same pipeline with
# random memories and beside baselines that use none of its ideas.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from IPython.display import Markdown, display
from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, tolerance
from repro.continual import average_accuracy, forgetting, plot_accuracy_matrix, summarize_runs
from repro.papers import spiced_continual_eeg as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # 3 runs x 35 method runs (six configurations, two streams): 10 source + 6 target subjects, and 5 source + 11
    # target subjects (the official 30 % source share), 100 trials per subject; the runs take a few seconds, and
    # `pipeline execute` (kernel start, imports, figures included) about 19 s of user CPU on one thread (measured)
    "ci": dict(n_source=10, n_target=6, n_trials=100, n_runs=3, share_source=5, share_target=11),
    # a few minutes on one thread: 5 runs, 15 source + 12 target subjects (share: 8 + 19), 200 trials per subject
    "full": dict(n_source=15, n_target=12, n_trials=200, n_runs=5, share_source=8, share_target=19),
})
claims = Claims(
    "spiced-continual-eeg",
    title="SPICED: A Synaptic Homeostasis-Inspired Framework for Unsupervised Continual EEG Decoding",
    authors="Yangxuan Zhou, Sha Zhao, Jiquan Wang, Haiteng Jiang, Shijian Li, Tao Li, Gang Pan",
    paper_url="https://arxiv.org/abs/2509.17439",
    scale=scale, seed=seed,
)
N_FAMILIES = 3
RUN_SEEDS = [1000 * seed + r for r in range(P.n_runs)]
# the configurations: the page's (synaptic_builder.py's add_node defaults: k = 1, link threshold 0.6, S = 30,
# alpha = (0.6, 0.4), x1.3 capped at 3), the official main.py defaults (RunConfig.official), the latter with the
# official ratio of continual to pre-training learning rate (cl_lr / lr = 1e-6 / 1e-4) applied to ours ("step"),
# and three robustness configurations (not counted): both settings at an adaptation step of 1e-3, between ours and
# the official ratio's ("lr3", "lr3-official"), and the page's settings on a stream with the official 30 % share of
# source subjects ("share", its own stream)
CFG = {"page": K.RunConfig(), "official": K.RunConfig.official()}
CFG["step"] = K.RunConfig.official(adapt_lr=CFG["page"].lr / 100)
CFG["lr3"] = K.RunConfig(adapt_lr=1e-3)
CFG["lr3-official"] = K.RunConfig.official(adapt_lr=1e-3)
CFG["share"] = K.RunConfig()
TESTED = ("page", "official", "step")  # the configurations with recorded tests
# methods run in each configuration; source-only, subject-centring, naive self-training and source-reset use
# neither memory nor replay, so the official settings leave them unchanged: they are run once and shared
# (SHARED: configuration -> {method: the configuration whose runs it shares})
FIXED = ["source-only", "naive", "source-reset", "uniform-replay", "source-replay", "spiced", "spiced-random",
         "spiced-no-homeostasis", "subject-centring"]
RUN = {"page": FIXED + ["oracle"],
       "official": ["uniform-replay", "source-replay", "spiced", "spiced-random", "spiced-no-homeostasis"],
       "step": ["naive", "source-reset", "uniform-replay", "source-replay", "spiced", "spiced-random",
                "spiced-no-homeostasis"],
       "lr3": ["naive", "uniform-replay", "spiced", "spiced-random"],
       "lr3-official": ["uniform-replay", "spiced", "spiced-random"],
       "share": ["source-only", "subject-centring", "naive", "uniform-replay", "spiced", "spiced-random"]}
SHARED = {"official": {m: "page" for m in ("source-only", "naive", "source-reset", "subject-centring")},
          "step": {m: "page" for m in ("source-only", "subject-centring")},
          "lr3": {m: "page" for m in ("source-only", "subject-centring")},
          "lr3-official": {"source-only": "page", "subject-centring": "page", "naive": "lr3"}}

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
# The paper's headline claims, in our words, and where this page tests them:
#
# 1. *Adapts better.* Without labels, SPICED adapts a decoder to a stream of new people better than continual and
#    test-time-adaptation baselines, by fusing and replaying the past people its network selects: tests
#    `spiced-beats-naive-acc`, `selection-not-worse-than-uniform`, `spiced-beats-naive-after` and
#    `spiced-beats-source-acc` (final accuracy against the never-adapted model), in the page's and the official
#    configuration, and the first three again at the official step ratio.
# 2. *Forgets less.* By suppressing the replay of detrimental memories it mitigates catastrophic forgetting over
#    long streams: `spiced-forgets-less`, in the same three configurations.
# 3. *Homeostasis matters.* Consolidation and renormalisation strengthen task-discriminative memory traces and
#    weaken detrimental ones. Not testable here: with six to twelve arrivals they almost never change which subjects
#    are reactivated (measured below), so SPICED and its form without homeostasis are nearly the same method. That
#    form stays a comparator of every test, but no test isolates homeostasis.
#
# ## The method
#
# A subject $i$ has a prototype $p_i$ (here the mean of its standardised log band-power features). Subjects
# $i, j$ are linked when the domain-weighted cosine $s_{ij} = \sum_g w_g \cos(p_i^{(g)}, p_j^{(g)}) / \sum_g w_g$
# exceeds a threshold; a new link has strength 1 at both ends. The importance of neighbour $j$ for $i$ is
#
# $$I_{ij} = 0.6\, s_{ij} + 0.4\, \frac{\bar w_j}{\sum_{j'} \bar w_{j'}},$$
#
# with $\bar w_j$ the mean strength of $j$'s links. The top-$k$ neighbours by $I_{ij}$ are reactivated: their
# models, weighted by normalised importance, are averaged into the starting model, and as many of their stored
# samples as the new subject has trials are replayed, shared out by importance. Each reactivated node multiplies
# its links' strengths by 1.3 (capped at 3, links of strength exactly 1 skipped) and restarts its step counter;
# after each subject every node $i$ decays its links, $w_{ij} \leftarrow w_{ij} e^{-\mathrm{step}_i/30}$, and
# counts a step. The adaptation itself is self-training: cross-entropy on the starting model's confident
# pseudo-labels (probability $\ge 0.9$) plus cross-entropy on the replayed samples (labelled for source subjects,
# pseudo-labelled for earlier targets). The kernels are in `src/repro/papers/spiced_continual_eeg.py`.
#
# **Two configurations of the same code.** The official repository has two sets of defaults. The page was first
# written with $k=1$, the default of the `--k_factor` argument of `builder/synaptic_builder.py`, and a link
# threshold of 0.6, the keyword default of that file's `add_node` and `net_initialization` (its command line has
# no threshold argument, and its own `__main__` passes 0.7). The script that runs the experiments, `main.py`, uses
# other values, and this page runs them as a second configuration ("official"):
# $k=15$ and a link threshold of 0.1 (so every past subject linked to the new one, up to fifteen, is reactivated,
# weighted by importance); stored samples need confidence 0.8 and are pseudo-labelled by the model from *before* the new
# subject's adaptation; the loss is $0.7\,\mathrm{CE}_{\rm new} + 0.3\,\mathrm{CE}_{\rm replay}$; an unlinked
# subject is not self-trained (the official code trains it with a contrastive loss only, which we leave out);
# and when the reactivated subjects store nothing, the most similar source subject is replayed.
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
# *Measured.* The brief's two: the final average accuracy (ACC: the last model on every target subject) and the
# forgetting (Chaudhry et al.: each subject's fall from its best to its final accuracy). And the official
# trainer's own metric, which it prints and which we call *ACC after*: the accuracy on each new subject right
# after adapting to it, averaged over subjects (the mean of the diagonal of $A$). The official trainer never
# scores the final model on earlier subjects, so it measures no forgetting.
#
# *Methods, all in the same runs and on the same streams.*
#
# * **spiced**: the synaptic network, as above.
# * **spiced-random** (**the ablation** of every test): the same fusion, replay and self-training, with the
#   network's choice replaced by as many past subjects as SPICED reactivates at that arrival, drawn at random from
#   all past subjects, with equal weights (an unlinked subject starts from a random subject's model, without
#   replay). What it leaves out is critical memory reactivation, the network's choice of which memories to reuse.
# * **spiced-no-homeostasis**: the synaptic network without consolidation and renormalisation. Every link keeps
#   strength 1, so the importance ranks neighbours by similarity alone. It leaves out synaptic homeostasis.
# * **source-only**: the source model, never adapted (the official trainer's "ACC Initial").
# * **source-reset**: self-training of the source model on each new subject afresh, with no chain and no replay
#   (episodic test-time adaptation); the model kept at the end is the one adapted to the latest subject.
# * **naive**: sequential self-training from the previous model, with no replay (the reference of the brief).
# * **uniform-replay**: naive self-training plus a replay set of the same size as SPICED's, drawn uniformly from
#   everything stored (labelled source trials and confident pseudo-labelled target trials).
# * **source-replay**: naive self-training plus as many labelled source trials, drawn uniformly.
# * **subject-centring** (added after the independent review): the classical subject-wise alignment of EEG
#   features. Each subject's features are centred by that subject's own mean (its prototype, which SPICED computes
#   too, with no labels); a source model is trained on the centred source subjects and applied, unchanged, to each
#   centred target subject. No memory, no adaptation, no target labels; it forgets nothing.
# * **oracle**: joint training on all labels seen so far, scored on the same trials it trained on: an upper
#   bound, never a comparator.
#
# The naive baselines use none of the paper's ideas. Source-only, subject-centring, source-reset and naive
# self-training use neither memory nor replay, so the official settings leave them unchanged: they run once and
# serve both configurations.
#
# *Sizes.* ci: 10 source and 6 target subjects, 100 trials each, 3 runs (new data, new model initialisation and
# new stream order per run). full: 15 source and 12 target subjects, 200 trials each, 5 runs. The robustness
# stream with the official 30 % share of source subjects has 5 source and 11 target subjects at ci (full: 8 and
# 19).
#
# **The tests.** The first three were fixed with the brief's thresholds before the first run; when the book asked
# every test for its ablation and naive baselines (issue 34), and again after the independent review (which added
# per-subject centring), they kept their measurement, setting and criterion and only gained comparators, which
# can make a pass "not specific" but never help SPICED. The others were added later and are post hoc: designed on
# seeds 0-9, they count only once confirmed on seeds 10-19.
#
# 1. `spiced-beats-naive-acc`: ACC(X) $-$ ACC(naive) $\ge$ 3 points (brief, C1).
# 2. `spiced-forgets-less`: forgetting(X) $-$ forgetting(naive) $\le 0$ (brief, C2). A "does not hurt" criterion
#    that a method which never adapts passes by construction (it forgets nothing): source-only is among its
#    comparators, so a pass here is "not specific" whenever naive self-training itself forgets more than the
#    tolerance.
# 3. `selection-not-worse-than-uniform`: ACC(X) $-$ ACC(uniform replay) $\ge -1$ point (brief, C3).
# 4. `spiced-beats-naive-after` (post hoc): ACC after(X) $-$ ACC after(naive) $\ge$ 3 points, the brief's bar on
#    the official trainer's metric.
# 5. `spiced-beats-source-acc` (post hoc, after the review): ACC(X) $-$ ACC(source model) $\ge$ 3 points, the
#    brief's bar with the never-adapted model as the reference. Naive self-training falls below the never-adapted
#    model at our step, so a bar over naive can be cleared by not adapting at all; adapting better must at least
#    beat not adapting. Its comparators are the same, with naive self-training in the source model's place.
# 6. to 10. The same five tests in the official configuration (`...-official`, post hoc).
# 11. to 14. Tests 1 to 4 in the official configuration at the official step ratio (`...-step`, post hoc, after
#    the review): the official continual learning rate is a hundredth of the official pre-training rate, so our
#    adaptation rate is divided by 100.
#
# With $X$ the method, its ablation, or a naive baseline. Every value is a mean over the runs of one seed; the
# tolerance (2 points) is a band on each side of the threshold inside which a value is "at the edge", never a pass.
#
# **Deviations from the paper**
#
# * Data: a synthetic EEG-like generator, not ISRUC, FACED or Physionet-MI (they need downloads). Its
#   families and the target-only gain shift are our design. A first pilot without the target shift ran every
#   method and showed the source model near 95 % on the targets (a pilot value, in no record), where no
#   adaptation can help; we then added the shift and chose its size (log-std 0.9) and the mixing spread (0.35)
#   from a handful of settings by looking only at source-only accuracy (in the final design
#   {glue:text}`acc_page_so:.1f` % at ci, seed 0) and at whether same-family subjects stay more similar than
#   others, not at any method's result. The claim thresholds are the brief's and did not change.
# * Backbone: a 24-32-3 ReLU network on band-power features instead of the paper's convolutional-transformer
#   encoders on raw signals; full-batch Adam without weight decay (60 steps, learning rate 0.01, 300 for the
#   source model) instead of mini-batch Adam with betas 0.5 and 0.99 and an L2 weight decay of 3e-4 (the official
#   `torch.optim.Adam(..., weight_decay=...)`; `main.py`'s `--optimizer AdamW` argument is never read) over 20
#   epochs with the official best-loss epoch selection. The official continual learning rate is 1e-6, a hundredth
#   of its pre-training rate 1e-4; ours adapts at the pre-training rate. Learning rates do not carry over between
#   a transformer on raw EEG and our small network, so the page keeps its own and runs the official *ratio* as a
#   third configuration with its own tests (`...-step`).
# * Self-training: the teacher is the frozen starting model; the official trainer spends its first 10 epochs
#   on a contrastive predictive coding (CPC) loss that updates the teacher's encoder, which we leave out.
# * Prototype: the mean standardised band-power vector with one similarity group, instead of the official
#   per-channel time, spectral and wavelet statistics with domain weights 0.9/1.5/1.2 (the kernel takes
#   groups and weights; the golden test uses the official ones).
# * Page configuration: stored samples of a new subject are pseudo-labelled by the *adapted* model at confidence
#   0.9; the official trainer stores at 0.8 with the model from before adaptation (run in the official
#   configuration). A subject without any link starts from the model of the most similar subject and replays
#   nothing, as in the official code, but is self-trained (officially: CPC only).
# * Fewer subjects and trials (ci: 6 targets; full: 12) than the paper's datasets (tens of subjects), and a
#   larger share of source subjects (ci 10 of 16; officially 30 % of the subjects, run as a robustness
#   configuration).

# %%
A = {c: {m: [] for m in RUN[c]} for c in CFG}
log = {c: {"same_family": [], "isolated": [], "n_react": [], "n_past": [], "from_source": []}
       for c in ("page", "official")}
homeo_changed = {"page": [], "official": []}  # share of arrivals at which homeostasis changes the reactivated set
random_from_source = []  # share of the random ablation's picks that are labelled source subjects (page)
by_family = {m: [] for m in ("source-only", "naive", "spiced", "spiced-random")}  # final ACC: own / other families
nets, stream0 = [], None
for r in progress(RUN_SEEDS, total=len(RUN_SEEDS), desc="runs"):
    streams = {"main": K.make_stream(P.n_source, P.n_target, P.n_trials, N_FAMILIES, r),
               "share": K.make_stream(P.share_source, P.share_target, P.n_trials, N_FAMILIES, r)}
    srcs = {k: K.pretrain(st, CFG["page"], r) for k, st in streams.items()}
    stream0 = stream0 or streams["main"]  # the first run's stream, for the figure of the network
    picks = {}
    for c, cfg in CFG.items():
        which = "share" if c == "share" else "main"
        stream, src = streams[which], srcs[which]
        for m in RUN[c]:
            out = K.continual_run(stream, m, r, cfg, src)
            A[c][m].append(out["A"])
            picks[c, m] = out["reactivated"]
            if c == "page" and m in by_family:
                by_family[m].append(K.final_accuracy_by_family(out["A"], stream.fam_t))
            if m == "spiced" and c in log:
                L = log[c]
                L["same_family"].append(out["same_family"])
                L["isolated"].append(out["isolated"])
                L["n_react"].append(np.mean([len(js) for js in out["reactivated"]]))
                L["n_past"].append(np.mean([P.n_source + i for i in range(P.n_target)]))
                L["from_source"].append(float(np.mean([j < P.n_source for js in out["reactivated"] for j in js])))
                if c == "page":
                    nets.append(out["net"])
    for c in homeo_changed:
        homeo_changed[c].append(float(np.mean([set(a) != set(b) for a, b in zip(
            picks[c, "spiced"], picks[c, "spiced-no-homeostasis"])])))
    random_from_source.append(float(np.mean([j < P.n_source for js in picks["page", "spiced-random"] for j in js])))
for c, shared in SHARED.items():
    for m, c0 in shared.items():
        A[c][m] = A[c0][m]
A = {c: {m: np.array(v) for m, v in A[c].items()} for c in A}
acc = {c: {m: np.array([average_accuracy(a) for a in A[c][m]]) for m in A[c]} for c in A}   # per run, fraction
fgt = {c: {m: np.array([forgetting(a) for a in A[c][m]]) for m in A[c]} for c in A}
after = {c: {m: np.array([np.mean(np.diag(a)) for a in A[c][m]]) for m in A[c]} for c in A}  # official "ACC After"
print(f"scale={P.scale}: {len(RUN_SEEDS)} runs (seeds {RUN_SEEDS}), {P.n_source} source + {P.n_target} target "
      f"subjects, {P.n_trials} trials each")
for c in log:
    L = log[c]
    print(f"{c}: SPICED reactivates on average {np.mean(L['n_react']):.1f} of {np.mean(L['n_past']):.1f} past "
          f"subjects; {np.mean(L['isolated']):.0%} of arrivals unlinked; {np.mean(L['from_source']):.0%} of the "
          f"reactivated subjects are labelled source subjects")
    print(f"{c}: homeostasis changes the set of reactivated subjects at {np.mean(homeo_changed[c]):.0%} of arrivals")

# %% [markdown]
# ## Results
#
# The table gives, for each configuration, the final average accuracy (ACC), the forgetting and the official
# metric (ACC after: accuracy on each subject right after adapting to it), as mean ± standard deviation over the
# runs of this seed. Rows marked "shared" use neither memory nor replay and are the same runs in every
# configuration.

# %%
NAMES = {"page": "page (k = 1, threshold 0.6)", "official": "official main.py defaults",
         "step": "official + the official step ratio"}
rows = ["| configuration | method | ACC (%) | forgetting (points) | ACC after (%) |", "|---|---|---|---|---|"]
for c in ("page", "official"):
    for m in A[c]:
        tag = " (shared)" if m in SHARED.get(c, ()) else ""
        rows.append(f"| {NAMES[c]} | {m}{tag} | {100 * acc[c][m].mean():.1f} ± {100 * acc[c][m].std():.1f} "
                    f"| {100 * fgt[c][m].mean():.1f} ± {100 * fgt[c][m].std():.1f} "
                    f"| {100 * after[c][m].mean():.1f} ± {100 * after[c][m].std():.1f} |")
display(Markdown("\n".join(rows)))

# %%
SHOWN = {"page": ["naive", "uniform-replay", "spiced", "spiced-random", "oracle"],  # naive is shared: shown once
         "official": ["source-replay", "uniform-replay", "spiced", "spiced-random", "spiced-no-homeostasis"]}
fig, axes = plt.subplots(2, 5, figsize=(2.6 * 5, 6.2))
for row, c in zip(axes, ("page", "official")):
    for ax, m in zip(row, SHOWN[c]):
        im = plot_accuracy_matrix(ax, A[c][m].mean(0), title=f"{m}\n({c})")
        ax.tick_params(labelsize=7)
        ax.title.set_fontsize(8)
        if ax is not row[0]:
            ax.set_ylabel("")
fig.colorbar(im, ax=axes, shrink=0.6, label="accuracy (fraction, mean over runs)")
fig.suptitle("Accuracy matrix: row = after adapting to target subject i, column = scored on subject j")
plt.show()

# %%
ORDER = ["source-only", "subject-centring", "naive", "source-reset", "uniform-replay", "source-replay", "spiced",
         "spiced-random", "spiced-no-homeostasis"]
fig, axes = plt.subplots(1, 3, figsize=(15, 4.4))
x = np.arange(len(ORDER))
for ax, (vals, lab) in zip(axes, ((acc, "final average accuracy, ACC (%)"), (fgt, "forgetting (points)"),
                                  (after, "ACC after adaptation (%)"))):
    for off, c, col in ((-0.2, "page", "C0"), (0.2, "official", "C1")):
        ax.bar(x + off, [100 * vals[c][m].mean() for m in ORDER], 0.4, color=col, alpha=0.35,
               label=f"{c}: mean over runs")
        for k, m in enumerate(ORDER):
            v = 100 * vals[c][m]
            ax.plot(np.full(len(v), k + off), v, "o", ms=3, color=col)
    ax.set_xticks(x, ORDER, rotation=35, ha="right", fontsize=8)
    ax.set_ylabel(lab)
axes[0].plot([], [], "o", color="0.3", ms=3, label="one run")
axes[0].legend(fontsize=7, loc="lower left")
axes[0].set_title("Final accuracy (higher is better)")
axes[1].set_title("Forgetting (lower is better)")
axes[2].set_title("Official metric (higher is better)")
fig.suptitle(f"Seed {seed}: page configuration (blue) and official main.py defaults (orange)")
plt.show()

# %% [markdown]
# The synaptic network itself (page configuration): the similarity of the subjects' prototypes (first run,
# ordered by family) and the strengths of the links at the end of the stream. Reactivation works as intended
# when the most important neighbour of a new subject comes from its own family. Over the runs of this seed, the
# page configuration reactivates a subject of the new subject's own family at {glue:text}`same_family_page:.0f` %
# of arrivals, and {glue:text}`isolated_page:.0f` % of arrivals find no link at the page's threshold.

# %%
net = nets[0]
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
# and our measurement of the same comparison, in both configurations.

# %%
def _pts(d, c, a, b):
    return 100 * (d[c][a].mean() - d[c][b].mean())


display(Markdown(
    "| setting | paper | ours, page configuration | ours, official main.py defaults |\n|---|---|---|---|\n"
    "| ACC, SPICED vs replay-free self-training | SPICED higher on ISRUC, FACED, Physionet-MI (no verified number) "
    + "".join(f"| {100 * acc[c]['spiced'].mean():.1f} % vs {100 * acc[c]['naive'].mean():.1f} % "
              f"({_pts(acc, c, 'spiced', 'naive'):+.1f} points) " for c in ("page", "official")) + "|\n"
    "| forgetting, SPICED vs replay-free self-training | SPICED lower (no verified number) "
    + "".join(f"| {100 * fgt[c]['spiced'].mean():.1f} vs {100 * fgt[c]['naive'].mean():.1f} points "
              for c in ("page", "official")) + "|\n"
    "| accuracy right after adaptation, SPICED vs the never-adapted source model | the official trainer prints both "
    "(no number found) "
    + "".join(f"| {100 * after[c]['spiced'].mean():.1f} % vs {100 * after[c]['source-only'].mean():.1f} % "
              for c in ("page", "official")) + "|\n"
    "| ACC on an unnamed dataset | 75.6 % (unverified secondary summary, not the paper) | not comparable "
    "| not comparable |"))

# %% [markdown]
# ## Against the official code
#
# The paper's code: [xiaobaben/SPICED](https://github.com/xiaobaben/SPICED) (commit `fce7b5e`). We read
# `main.py`, `builder/synaptic_builder.py`, `utils/calculate_similarity.py`, `trainer/trainer.py`,
# `dataloader/data_loader.py`, `model/incremental_model.py` and `utils/util.py`, and ran the synaptic-network
# bookkeeping unchanged, outside this project, with the plotting module stubbed: 5 source nodes from
# `net_initialization`, then 5 nodes through `add_node`, each followed by `global_renormalization_synapses`, on
# seeded 90-dimensional prototypes with the official `prototype3` groups and domain weights (ISRUC layout),
# for $k=1$ (threshold 0.6), $k=2$ (threshold 0.5) and `main.py`'s $k=15$ (threshold 0.1). The outputs are in
# `tests/papers/golden/spiced-continual-eeg.json`, and `test_golden_synaptic_network` checks our
# `SynapticNetwork`. No official code is copied here. The released trainer calls a class `SynapticFramework2`
# that the repository does not define (it defines `SynapticFramework`), so it does not run as released; we
# read `SynapticFramework` as the intended one.
#
# **What agrees.** Every link strength (both copies of each link, 10 x 10 per case) agrees exactly (0 difference),
# and so do the similarities (to 1e-12), the step counters, the reactivated nodes and their weights (to 1e-12),
# including the two quirks that decide the dynamics: a link of strength exactly 1 (one just created) is not
# consolidated, and each end of a link decays with its own node's step counter, so the two copies of a link
# drift apart. The replay budget (`int(len * importance)` samples per reactivated node, all of them if fewer,
# at least one) and the model fusion (importance-weighted parameter average, weights divided by sum + 1e-8)
# follow `BuildReplayedDataset` and `weighted_model_fusion`. The training confidence (0.9), the decay time
# (30), the consolidation factor (1.3, cap 3) and the importance weights (0.6, 0.4) are the official defaults.
#
# **Departures run as a second configuration** (official `main.py` defaults; the tests `...-official`):
#
# * $k$ = 15 (ours 1) and link threshold 0.1 (ours 0.6): the page's $k$ is the default of
#   `synaptic_builder.py`'s `--k_factor` argument and its threshold the keyword default of `add_node` (that
#   file's command line has no threshold argument, and its `__main__` passes 0.7); the official values are those
#   of the script that runs the experiments.
# * Stored samples at confidence 0.8, pseudo-labelled by the model from before the new subject's adaptation (the
#   trainer passes `cur_model`, the previous subject's model, to `saving_new_node_sample`); ours 0.9 with the
#   adapted model.
# * Loss $0.7\,\mathrm{CE}_{\rm new} + 0.3\,\mathrm{CE}_{\rm replay}$ (`weight_new_cls`); ours weighs both 1.
# * An unlinked subject gets no classification loss (CPC only, officially; here: no update); ours self-trains.
# * When the reactivated subjects store nothing, the data loader replays the most similar source subject; ours
#   replays nothing.
# * The official metric, "ACC After" (accuracy on each new subject right after its adaptation, averaged by
#   `utils.compute`), run as its own test in both configurations (`spiced-beats-naive-after`).
#
# **Departure run as a third configuration** (the tests `...-step`, over the ci seeds): the official continual
# learning rate is a hundredth of the pre-training rate; the official configuration with our adaptation rate
# divided by 100.
#
# **Departure run as a robustness configuration** (not counted; seed 0 in the table below): 30 % of the subjects
# are source subjects officially, ours 10 of 16 at ci. The page's settings on a stream of 5 source and 11 target
# subjects. It bears on the random ablation, which draws its memories from all past subjects and so mostly from
# the labelled source subjects when they are the majority.
#
# **Departures named, not run.**
#
# * Decoder, data, prototype features, optimiser (Adam with betas 0.5 and 0.99 and L2 weight decay) and the
#   20-epoch schedule with 10 CPC epochs and the best-loss epoch among the last 10: see the deviations above.
#   The official trainer replays by repeating the replay list up to the new subject's size inside
#   mini-batches; with full-batch mean losses the repetition changes nothing, so we replay each stored sample once.
# * Pseudo-labels need a probability strictly above 0.9 officially (ours: at least 0.9).
# * The stream order: arbitrary officially unless `--stability` shuffles it; ours random per run.
# * Consolidation caps at `cap` (default 3); the official code caps at 3 whatever `up_bound` says (the same at
#   the default). The source nodes all carry the source model, as in the official code.

# %% [markdown]
# ## Checking the claims
#
# Every test measures SPICED beside its ablation (random memories) and the naive baselines, under the same
# measurement and criterion, in the runs above. The figure shows each test's values for this seed: the bar is the
# mean over the runs that the test records, the whiskers the spread over the runs, the dashed line the threshold
# and the grey band the declared tolerance around it (a value inside it is "at the edge").

# %%
TOL = tolerance(abs=0.02, why="mean over runs of accuracies on 100-200 trials; another CPU's last float digits "
                "can flip a pseudo-label at the confidence threshold or an arg-max tie and move a trial")
KEY = {"spiced": "spiced", "spiced-random": "random", "spiced-no-homeostasis": "nohomeo", "source-only": "so",
       "source-reset": "reset", "uniform-replay": "unif", "source-replay": "srcrep", "naive": "naive",
       "oracle": "oracle", "subject-centring": "centre"}
LABEL = {"spiced-random": "SPICED with its reactivated subjects drawn at random from all past subjects (as many "
                          "as SPICED reactivates, equal weights, same fusion, replay and self-training)",
         "source-only": "the source model, never adapted (the official trainer's 'ACC Initial')",
         "source-reset": "self-training of the source model on each new subject afresh (episodic test-time "
                         "adaptation, no replay)",
         "uniform-replay": "naive self-training plus as many stored samples drawn uniformly (labelled source and "
                           "pseudo-labelled target trials)",
         "source-replay": "naive self-training plus as many labelled source trials drawn uniformly",
         "spiced-no-homeostasis": "SPICED without consolidation and renormalisation (every link keeps strength 1: "
                                  "neighbours ranked by similarity alone)",
         "naive": "naive sequential self-training from the previous model, no replay",
         "subject-centring": "per-subject feature centring: a source model trained on each source subject's "
                             "features minus its own mean, applied to each target subject's features minus its own "
                             "mean; no memory, no adaptation, no labels (added after the independent review)"}
REACTIVATION = "critical memory reactivation: the synaptic network's choice of which past subjects to fuse and replay"
HOMEOSTASIS = "synaptic homeostasis: consolidation of the reactivated links and renormalisation of all links"
BASE = ["source-only", "source-reset", "uniform-replay", "source-replay", "spiced-no-homeostasis", "subject-centring"]
TESTS = {  # name -> (measured quantity, reference, criterion, test id)
    "acc": (acc, "naive", at_least(0.03), "spiced-beats-naive-acc"),
    "fgt": (fgt, "naive", at_most(0.0), "spiced-forgets-less"),
    "sel": (acc, "uniform-replay", at_least(-0.01), "selection-not-worse-than-uniform"),
    "after": (after, "naive", at_least(0.03), "spiced-beats-naive-after"),
    "src": (acc, "source-only", at_least(0.03), "spiced-beats-source-acc"),
}
IN = {"page": list(TESTS), "official": list(TESTS), "step": ["acc", "fgt", "sel", "after"]}  # tests per configuration
SUFFIX = {"page": "", "official": "-official", "step": "-step"}
WHO = ["spiced", "spiced-random"]


def gap(t, c, who):
    """The test's measured difference for one method, mean over the runs (fraction); NaN if not run there."""
    d, ref = TESTS[t][0], TESTS[t][1]
    if who not in d[c] or ref not in d[c]:
        return float("nan")
    return float(np.mean(d[c][who] - d[c][ref]))


def comparators(t):
    """The naive baselines of a test, in a fixed order (the never-adapted model's place goes to naive
    self-training when the never-adapted model is the reference)."""
    ref = TESTS[t][1]
    return [("naive" if b == ref else b) if ref == "source-only" else b for b in BASE
            if b != ref or ref == "source-only"]


v = {(t, c): {w: gap(t, c, w) for w in WHO + comparators(t)} for c in CFG for t in TESTS}

UNITS = {"acc": "ACC minus naive's (points)", "fgt": "forgetting minus naive's (points)",
         "sel": "ACC minus uniform replay's (points)", "after": "ACC after minus naive's (points)",
         "src": "ACC minus the source model's (points)"}
fig, axes = plt.subplots(len(TESTED), len(TESTS), figsize=(19, 3.4 * len(TESTED)), layout="none")
for row, c in zip(axes, TESTED):
    for ax, t in zip(row, TESTS):
        if t not in IN[c]:
            ax.axis("off")
            continue
        who = WHO + comparators(t)
        d, ref, crit, tid = TESTS[t]
        y = np.arange(len(who))[::-1]
        cols = ["C3" if w == "spiced" else "C1" if w == "spiced-random" else "C0" for w in who]
        ax.barh(y, [100 * v[t, c][w] for w in who], color=cols,
                xerr=[100 * np.std(d[c][w] - d[c][ref]) for w in who], capsize=3)
        thr = 100 * crit.rule["value"]
        ax.axvline(thr, color="k", ls="--", lw=1)
        ax.axvspan(thr - 100 * TOL.abs, thr + 100 * TOL.abs, color="0.85", zorder=0)
        ax.set_yticks(y, who, fontsize=7)
        ax.set_xlabel(UNITS[t], fontsize=8)
        ax.set_title(tid + SUFFIX[c], fontsize=8)
fig.suptitle(f"Each test: SPICED (red), its ablation (orange), the comparators (blue); rows: page configuration, "
             f"official main.py defaults, official defaults at the official step ratio; mean ± s.d. over "
             f"{len(RUN_SEEDS)} runs, seed {seed}")
fig.subplots_adjust(wspace=0.85, hspace=0.55, left=0.08, right=0.99, top=0.9)
plt.show()

# %%
PAPER_ACC = "SPICED adapts to new subjects better than continual-learning baselines (abstract); no verified number"
PAPER = {
    "acc": PAPER_ACC,
    "fgt": "SPICED mitigates catastrophic forgetting in long-term continual learning (abstract); no number",
    "sel": "replaying the task-relevant memory traces selected by synaptic homeostasis helps adaptation (abstract); "
           "no number",
    "after": "the official trainer reports the mean accuracy on each new subject after its adaptation ('ACC "
             "After') beside the source model's ('ACC Initial'); no number found",
    "src": PAPER_ACC + "; the official trainer prints the never-adapted model's accuracy ('ACC Initial') beside "
           "the adapted one's",
}
STATEMENT = {
    "acc": "Final average accuracy (ACC) of SPICED minus that of naive sequential self-training",
    "fgt": "Forgetting of SPICED minus forgetting of naive sequential self-training (<= 0: SPICED forgets no more)",
    "sel": "ACC of SPICED minus ACC of uniform replay at the same replay budget (>= -1 point: picking the memories "
           "by the synaptic network is not worse than picking them at random)",
    "after": "Official metric: accuracy on each new subject right after adapting to it (mean over subjects), "
             "SPICED minus naive sequential self-training",
    "src": "Final average accuracy (ACC) of SPICED minus that of the source model never adapted (adapting must at "
           "least beat not adapting)",
}
WHY_AFTER = ("issue 34: the official trainer scores each new subject right after its adaptation ('ACC After', "
             "averaged over subjects by utils.compute) and never scores the final model on earlier subjects, while "
             "the pre-registered tests use the brief's final ACC; this test puts the brief's +3-point bar on the "
             "official metric; designed on seeds 0-9")
WHY_OFFICIAL = ("issue 34, official settings as a second configuration: main.py's defaults differ from the "
                "synaptic_builder.py defaults the page used: k_factor 15 (ours 1), similarity_threshold 0.1 (ours "
                "0.6), saving_confidence 0.8 with the model from before adaptation (ours 0.9 with the adapted model), "
                "weight_new_cls 0.7 (ours equal weights), no classification loss for an unlinked subject, and the "
                "data loader's fallback to the most similar source subject; the test rerun under them with the same "
                "threshold and criterion; designed on seeds 0-9")
WHY_STEP = ("independent review of issue 34 (its item 6): the official continual learning rate is a hundredth of "
            "the official pre-training rate, a departure that could move a claim; the official configuration with "
            "our adaptation rate divided by 100, run over the seeds instead of seed 0 only, the tests unchanged; "
            "designed on seeds 0-9")
WHY_SRC = ("independent review of issue 34 (its item 8): naive self-training at the page's step falls below the "
           "never-adapted model, so a bar over naive can be cleared by not adapting at all; 'adapts better' must at "
           "least beat not adapting: the brief's +3-point bar on final ACC with the never-adapted source model as "
           "the reference, nothing else chosen; designed on seeds 0-9")
OFFICIAL = ("official main.py defaults: k = 15, link threshold 0.1, stored samples at confidence 0.8 labelled by "
            "the model before adaptation, replay loss weight 0.3")
STEP = OFFICIAL + ", with the adaptation learning rate divided by 100 (the official ratio cl_lr / lr)"
SETTING = {"page": "", "official": OFFICIAL, "step": STEP}
for c in TESTED:
    for t in IN[c]:
        d, ref, crit, tid = TESTS[t]
        why = {"official": WHY_OFFICIAL, "step": WHY_STEP}.get(c)
        if t == "src":
            why = WHY_SRC + ("; " + WHY_OFFICIAL if c == "official" else "")
        elif t == "after" and c == "page":
            why = WHY_AFTER
        extra = {}
        if why:
            extra["post_hoc"] = why
        if SETTING[c]:
            extra["setting"] = SETTING[c]
        where = f", mean over {len(RUN_SEEDS)} runs" + (f" ({SETTING[c]})" if SETTING[c] else "")
        claims.test(tid + SUFFIX[c], statement=STATEMENT[t] + where,
                    paper=PAPER[t], criterion=crit, measured=v[t, c]["spiced"], tol=TOL,
                    ablation=Comparator(LABEL["spiced-random"], v[t, c]["spiced-random"], ingredient=REACTIVATION),
                    baselines=[Comparator(LABEL[b], v[t, c][b],
                                          ingredient=HOMEOSTASIS if b == "spiced-no-homeostasis" else None)
                               for b in comparators(t)], **extra)

claims.illustrate("reactivation-picks-own-family",
                  statement="Share of arrivals at which SPICED (page configuration, k = 1) reactivates a past subject "
                            "of the new subject's family (the synthetic ground truth of 'task-relevant memory')",
                  paper="critical memory reactivation selects task-relevant memories (abstract)",
                  criterion=at_least(0.8), measured=float(np.mean(log["page"]["same_family"])),
                  tol=tolerance(abs=0.05, why="share of 6-12 arrivals per run; a near-tie in importance may flip "
                                "on another CPU"),
                  why="the synthetic families, and the data spreads chosen in a pilot, make same-family subjects "
                      "the more similar ones, so picking the most similar linked subject picks the family by "
                      "construction of the data; the network without homeostasis, which ranks by similarity alone, "
                      "picks the same subjects at almost every arrival. It shows the rule working on data built "
                      "for it, not that it finds task-relevant memories in real EEG. Post-hoc test before issue 34")

ADAPT = [TESTS[t][3] + SUFFIX[c] for c in TESTED for t in IN[c] if t != "fgt"]
claims.headline("adapts-better",
                "Without labels, SPICED adapts an EEG decoder to a stream of new individuals better than "
                "continual-learning and test-time-adaptation baselines, by fusing and replaying the past individuals "
                "its synaptic network selects (shown on three EEG datasets; here on synthetic EEG)",
                tests=ADAPT)
claims.headline("forgets-less",
                "By suppressing the replay of detrimental memories, SPICED mitigates catastrophic forgetting over "
                "long streams of individuals",
                tests=[TESTS["fgt"][3] + SUFFIX[c] for c in TESTED])
claims.headline("homeostasis",
                "Synaptic homeostasis (consolidating the reactivated links, periodically renormalising all links) "
                "strengthens task-discriminative memory traces and weakens detrimental ones",
                untestable="with 6 to 12 arrivals, consolidation and renormalisation barely move the link strengths "
                           "away from the similarity ranking: the page measures how rarely they change the set of "
                           "reactivated subjects (in the page configuration, k = 1, SPICED and its form without "
                           "homeostasis are then the same runs), so no test here can isolate what homeostasis does "
                           "over the long streams the paper has in mind; the form without homeostasis stays a "
                           "comparator of every test")

G = {c: c.replace("-", "_") for c in CFG}  # configuration names as glue keys
for c in A:
    for m in A[c]:
        glue(f"acc_{G[c]}_{KEY[m]}", float(100 * acc[c][m].mean()), display=False)
        glue(f"fgt_{G[c]}_{KEY[m]}", float(100 * fgt[c][m].mean()), display=False)
        glue(f"after_{G[c]}_{KEY[m]}", float(100 * after[c][m].mean()), display=False)
for (t, c), vals in v.items():
    for w, x in vals.items():
        if np.isfinite(x):
            glue(f"d{t}_{G[c]}_{KEY[w]}", 100 * x, display=False)  # the test's difference, points
glue("acc_sd_page_spiced", float(100 * acc["page"]["spiced"].std()), display=False)
for c in log:
    glue(f"same_family_{c}", float(100 * np.mean(log[c]["same_family"])), display=False)
    glue(f"isolated_{c}", float(100 * np.mean(log[c]["isolated"])), display=False)
    glue(f"from_source_{c}", float(100 * np.mean(log[c]["from_source"])), display=False)
    glue(f"n_react_{c}", float(np.mean(log[c]["n_react"])), display=False)
    glue(f"n_past_{c}", float(np.mean(log[c]["n_past"])), display=False)
glue("random_from_source", float(100 * np.mean(random_from_source)), display=False)
for c, x in homeo_changed.items():
    glue(f"homeo_changed_{c}", float(100 * np.mean(x)), display=False)
for m, x in by_family.items():  # final model's accuracy on the last subject's family and on the others (%)
    own, other = np.nanmean(np.array(x), 0)
    glue(f"own_family_{KEY[m]}", float(100 * own), display=False)
    glue(f"other_family_{KEY[m]}", float(100 * other), display=False)
glue("step_spread", float(100 * max(abs(v[t, "step"][w]) for t in IN["step"] for w in v[t, "step"]
                                     if w != "subject-centring")), display=False)  # all but centring's
print("final model's accuracy (%, page configuration) on the last subject's family / on the other families:",
      {m: tuple(np.round(100 * np.nanmean(np.array(x), 0), 1)) for m, x in by_family.items()})

# %% [markdown]
# **Robustness (not counted).** Each test's measured difference (points, seed 0, mean over the runs) for SPICED and
# the comparators that were run, in three configurations that no test records: both settings at an adaptation
# step of 1e-3 (a tenth of ours, ten times the official ratio's; our round choice between the two, not tuned), and
# the page's settings on a stream with the official 30 % share of source subjects (5 source and 11 target subjects
# at ci). A dash: the comparator was not run there, to keep the page within its compute budget.

# %%
HEAD = {"acc": "ACC − naive (≥ 3)", "fgt": "forgetting − naive (≤ 0)", "sel": "ACC − uniform replay (≥ −1)",
        "after": "ACC after − naive (≥ 3)", "src": "ACC − source model (≥ 3)"}
ROBUST = {"lr3": "page settings, step 1e-3", "lr3-official": "official settings, step 1e-3",
          "share": "page settings, 30 % source subjects"}
rows = ["| configuration | method | " + " | ".join(HEAD[t] for t in TESTS) + " |",
        "|---|---|" + "---|" * len(TESTS)]
for c, name in ROBUST.items():
    for w in WHO + ["naive"] + BASE:
        if w not in acc[c]:
            continue
        cells = ["reference" if w == TESTS[t][1] else "—" if not np.isfinite(gap(t, c, w))
                 else f"{100 * gap(t, c, w):+.1f}" for t in TESTS]
        rows.append(f"| {name} | {w} | " + " | ".join(cells) + " |")
display(Markdown("\n".join(rows)))

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
# The synaptic network does what its code says (the golden test matches the official bookkeeping exactly), and
# on our data it reactivates the right memories: a subject of the new subject's own family at
# {glue:text}`same_family_page:.0f` % of arrivals (the illustration `reactivation-picks-own-family`; our data were
# built so that family and similarity coincide). In the page configuration that selection does not turn into
# higher final accuracy or less forgetting than replay-free self-training. In the official configuration SPICED
# clears the brief's bar over naive self-training at {repro-seeds}`spiced-beats-naive-acc-official:method:pass`
# seeds, but naive self-training at our step ends below the model that never adapts, and over that model SPICED
# clears the same bar at {repro-seeds}`spiced-beats-source-acc:method:pass` seeds in the page configuration and
# {repro-seeds}`spiced-beats-source-acc-official:method:pass` in the official one. A label-free per-subject
# centring of the features, with no memory and no adaptation, ends with a higher final accuracy than SPICED in
# both configurations at seed 0. Wherever SPICED clears a bar, baselines that use none of its ideas clear it too.
# Values below are at seed 0 (points, mean over the runs of the seed); counts of seeds are over the ci sweep.
#
# * *Final accuracy against naive self-training* ({repro-status}`spiced-beats-naive-acc`, the brief's 3 points).
#   SPICED ends {glue:text}`dacc_page_spiced:.1f` points from naive self-training, its random-memory ablation
#   {glue:text}`dacc_page_random:.1f`, the never-adapted source model {glue:text}`dacc_page_so:.1f` and per-subject
#   centring {glue:text}`dacc_page_centre:.1f`; source-reset self-training is at {glue:text}`dacc_page_reset:.1f`,
#   uniform replay at {glue:text}`dacc_page_unif:.1f` and source replay at {glue:text}`dacc_page_srcrep:.1f`.
#   SPICED clears the bar beyond its tolerance band at {repro-seeds}`spiced-beats-naive-acc:method:pass` seeds,
#   the ablation at {repro-seeds}`spiced-beats-naive-acc:ablation:pass`, the source model at
#   {repro-seeds}`spiced-beats-naive-acc:baseline1:pass` and centring at
#   {repro-seeds}`spiced-beats-naive-acc:baseline6:pass`. In the official configuration
#   ({repro-status}`spiced-beats-naive-acc-official`) SPICED is at {glue:text}`dacc_official_spiced:.1f` points at
#   seed 0 and passes at {repro-seeds}`spiced-beats-naive-acc-official:method:pass` seeds; its ablation passes at
#   {repro-seeds}`spiced-beats-naive-acc-official:ablation:pass`, the never-adapted model at
#   {repro-seeds}`spiced-beats-naive-acc-official:baseline1:pass` and centring at
#   {repro-seeds}`spiced-beats-naive-acc-official:baseline6:pass`. The bar over naive self-training is one that
#   not adapting clears, because naive self-training at our step loses accuracy.
# * *Final accuracy against the never-adapted model* ({repro-status}`spiced-beats-source-acc`, post hoc, the
#   brief's 3 points). SPICED ends {glue:text}`dsrc_page_spiced:.1f` points from the source model (official
#   configuration, {repro-status}`spiced-beats-source-acc-official`: {glue:text}`dsrc_official_spiced:.1f`) and
#   clears the bar at {repro-seeds}`spiced-beats-source-acc:method:pass` seeds
#   ({repro-seeds}`spiced-beats-source-acc-official:method:pass` official). The ablation is at
#   {glue:text}`dsrc_page_random:.1f` and passes at {repro-seeds}`spiced-beats-source-acc:ablation:pass`, naive
#   self-training at {glue:text}`dsrc_page_naive:.1f` and passes at
#   {repro-seeds}`spiced-beats-source-acc:baseline1:pass`; per-subject centring, which changes the input and not
#   the model, is at {glue:text}`dsrc_page_centre:.1f` and passes at
#   {repro-seeds}`spiced-beats-source-acc:baseline6:pass`. This is the test on the page that the adapting methods
#   can fail, and SPICED fails it.
# * *Forgetting* ({repro-status}`spiced-forgets-less`). SPICED forgets {glue:text}`fgt_page_spiced:.1f` points,
#   naive self-training {glue:text}`fgt_page_naive:.1f`; SPICED forgets less than naive, beyond the band, at
#   {repro-seeds}`spiced-forgets-less:method:pass` seeds, and at
#   {repro-seeds}`spiced-forgets-less-official:method:pass` in the official configuration
#   ({repro-status}`spiced-forgets-less-official`, {glue:text}`fgt_official_spiced:.1f` points at seed 0). The
#   criterion is one that not adapting wins: the source model forgets nothing and passes at
#   {repro-seeds}`spiced-forgets-less:baseline1:pass` seeds, and centring, whose model never changes either, at
#   {repro-seeds}`spiced-forgets-less:baseline6:pass`. (Forgetting can be negative: the final model is excluded
#   from each subject's best, so a subject scored better at the end than ever before counts as a gain.)
# * *Selection against uniform replay at the same budget* ({repro-status}`selection-not-worse-than-uniform`, at most
#   1 point worse). SPICED ends {glue:text}`dsel_page_spiced:.1f` points from uniform replay, its random-memory
#   ablation {glue:text}`dsel_page_random:.1f`, the never-adapted model {glue:text}`dsel_page_so:.1f` and centring
#   {glue:text}`dsel_page_centre:.1f`. SPICED passes at {repro-seeds}`selection-not-worse-than-uniform:method:pass`
#   seeds, the never-adapted model at {repro-seeds}`selection-not-worse-than-uniform:baseline1:pass`, centring at
#   {repro-seeds}`selection-not-worse-than-uniform:baseline5:pass`, and in the official configuration
#   ({repro-status}`selection-not-worse-than-uniform-official`, {glue:text}`dsel_official_spiced:.1f` points at
#   seed 0) SPICED at {repro-seeds}`selection-not-worse-than-uniform-official:method:pass`. A non-inferiority bar
#   where the paper claims a gain: the never-adapted model clears it whenever uniform replay loses accuracy.
# * *The official metric, accuracy right after adaptation* ({repro-status}`spiced-beats-naive-after`, post hoc).
#   Here SPICED does beat naive self-training, by {glue:text}`dafter_page_spiced:.1f` points at seed 0, and
#   passes at {repro-seeds}`spiced-beats-naive-after:method:pass` seeds. But self-training the source model
#   afresh on each subject, with no memory at all, is {glue:text}`dafter_page_reset:.1f` points above naive and
#   passes at {repro-seeds}`spiced-beats-naive-after:baseline2:pass` seeds, the never-adapted model
#   ({glue:text}`dafter_page_so:.1f` points) at {repro-seeds}`spiced-beats-naive-after:baseline1:pass`, and centring
#   ({glue:text}`dafter_page_centre:.1f` points) at {repro-seeds}`spiced-beats-naive-after:baseline6:pass`. In the
#   official configuration ({repro-status}`spiced-beats-naive-after-official`) SPICED passes at
#   {repro-seeds}`spiced-beats-naive-after-official:method:pass` seeds and source-reset at
#   {repro-seeds}`spiced-beats-naive-after-official:baseline2:pass`. What SPICED's memories add over naive
#   chaining, a fresh start from the source model adds as well.
# * *The official step ratio* (the tests `...-step`, post hoc: {repro-status}`spiced-beats-naive-acc-step`,
#   {repro-status}`spiced-forgets-less-step`, {repro-status}`selection-not-worse-than-uniform-step`,
#   {repro-status}`spiced-beats-naive-after-step`). With the official configuration and an adaptation step a
#   hundredth of ours, every value but centring's lies within {glue:text}`step_spread:.1f` points of zero at
#   seed 0: adaptation barely changes the source model. SPICED passes the accuracy test at
#   {repro-seeds}`spiced-beats-naive-acc-step:method:pass` seeds and the official metric's at
#   {repro-seeds}`spiced-beats-naive-after-step:method:pass`. Only centring, which does not adapt, moves
#   ({glue:text}`dacc_step_centre:.1f` points over naive).
# * *Homeostasis* (the headline claim the page cannot test). With $k = 1$ and six to twelve arrivals,
#   consolidation and renormalisation change which subject is reactivated at {glue:text}`homeo_changed_page:.0f` %
#   of arrivals (seed 0), so SPICED and its form without homeostasis are nearly the same method here (final accuracy
#   {glue:text}`dacc_page_nohomeo:.1f` points from naive against SPICED's {glue:text}`dacc_page_spiced:.1f`). In the
#   official configuration SPICED reactivates every linked subject, up to fifteen: {glue:text}`n_react_official:.1f`
#   of the {glue:text}`n_past_official:.1f` past subjects on average. Homeostasis then changes the set at
#   {glue:text}`homeo_changed_official:.0f` % of arrivals and otherwise only the weights of fusion and replay;
#   without it SPICED ends {glue:text}`dacc_official_nohomeo:.1f` points from naive, against
#   {glue:text}`dacc_official_spiced:.1f` with it. The form without homeostasis stays a comparator of every test,
#   but the page cannot isolate what homeostasis does over the long streams the paper has in mind.
#
# Why the right memories do not help here: a hypothesis, which the page does not test. In the page configuration
# the reactivated subject is often an earlier *target* ({glue:text}`from_source_page:.0f` % of SPICED's reactivated
# subjects are labelled source subjects, against {glue:text}`random_from_source:.0f` % of the random ablation's),
# and a target's stored samples carry pseudo-labels. Self-training one subject at a time hurts in this analogue
# (naive self-training ends at {glue:text}`acc_page_naive:.1f` % against the never-adapted model's
# {glue:text}`acc_page_so:.1f` %), so replaying pseudo-labelled memories may pass the errors along, while random
# memories and uniform replay mostly replay labelled source trials, which anchor the decoder. The final accuracy
# split by family does not single SPICED out: the final model scores, on the last subject's family and on the other
# families, {glue:text}`own_family_spiced:.1f` % and {glue:text}`other_family_spiced:.1f` % for SPICED,
# {glue:text}`own_family_naive:.1f` % and {glue:text}`other_family_naive:.1f` % for naive self-training,
# {glue:text}`own_family_random:.1f` % and {glue:text}`other_family_random:.1f` % for the ablation, and
# {glue:text}`own_family_so:.1f` % and {glue:text}`other_family_so:.1f` % for the never-adapted model (seed 0,
# page configuration). In the official configuration {glue:text}`from_source_official:.0f` % of the subjects SPICED
# reactivates are source subjects, and its final accuracy is {glue:text}`acc_official_spiced:.1f` % at seed 0,
# against the never-adapted model's {glue:text}`acc_page_so:.1f` %. The task itself is not hard: per-subject
# centring, without target labels, memory or adaptation, ends at {glue:text}`acc_page_centre:.1f` % at seed 0,
# because the recording shift of our targets is an electrode gain, which is an additive constant in log band
# power and which centring removes. (Joint training with the labels reaches {glue:text}`acc_page_oracle:.1f` %,
# but it is scored on the very trials it trained on, so it shows only that labelled trials separate the classes.)
# In this analogue the limit is the quality of the pseudo-labels and the subject shift that self-training does not
# remove, not the choice of what to replay.
#
# The full-scale column of the judged table comes from the integrator's full-scale sweep of this version of the
# page (15 source and 12 target subjects, 200 trials, 5 runs); this ci page quotes no full-scale number.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page, its
# record and its ci sweep over seeds 0-9. They re-ran the page's kernels single-threaded on seeds 0-9 beside
# naive alternatives: a label-free per-subject centring of the features; naive self-training at a ten times smaller
# step; every method at that step in both settings; the official step ratio over the seeds; the official 30 %
# share of source subjects. They also re-derived the golden file with the official code at `fce7b5e` (every
# strength, reactivated node, weight and step counter agreed) and read the prose against the record. What they
# found is now measured by this notebook, on the same streams, source models and runs (seed 0, mean over the runs):
#
# * **Per-subject feature centring** (now a comparator of every test). Final accuracy
#   {glue:text}`acc_page_centre:.1f` %, against SPICED's {glue:text}`acc_page_spiced:.1f` % (page configuration) and
#   {glue:text}`acc_official_spiced:.1f` % (official); it forgets nothing. It passes the accuracy test at
#   {repro-seeds}`spiced-beats-naive-acc:baseline6:pass` seeds, the forgetting test at
#   {repro-seeds}`spiced-forgets-less:baseline6:pass`, the selection test at
#   {repro-seeds}`selection-not-worse-than-uniform:baseline5:pass`, the official metric's at
#   {repro-seeds}`spiced-beats-naive-after:baseline6:pass` and the bar over the never-adapted model at
#   {repro-seeds}`spiced-beats-source-acc:baseline6:pass`. The strongest naive baseline here uses none of the
#   paper's ideas.
# * **Naive self-training at a ten times smaller step** (1e-3, a round value between ours and the official
#   ratio's, not tuned; robustness table): it ends {glue:text}`dsrc_lr3_naive:.1f` points from the never-adapted
#   model, against {glue:text}`dsrc_page_naive:.1f` at our step. The page's reference loses accuracy partly
#   because of our step size.
# * **Every method at that step** (robustness table). Page settings: SPICED {glue:text}`dacc_lr3_spiced:.1f` points
#   from naive self-training and {glue:text}`dsrc_lr3_spiced:.1f` from the never-adapted model, the ablation
#   {glue:text}`dacc_lr3_random:.1f` and {glue:text}`dsrc_lr3_random:.1f`, the never-adapted model
#   {glue:text}`dacc_lr3_so:.1f` from naive. Official settings: SPICED {glue:text}`dacc_lr3_official_spiced:.1f` and
#   {glue:text}`dsrc_lr3_official_spiced:.1f`, the ablation {glue:text}`dacc_lr3_official_random:.1f` and
#   {glue:text}`dsrc_lr3_official_random:.1f`. At this step naive self-training no longer falls far below the
#   never-adapted model, so the accuracy test begins to discriminate. The reviewer ran it over seeds 0-9 and found
#   that no test would move to reproduced; the page records no test at this step, because the step was picked
#   after seeing where naive self-training stops losing accuracy.
# * **The official step ratio over the seeds** (the tests `...-step`, now recorded over the ci sweep): see the
#   verdict; at seed 0 every value but centring's is within {glue:text}`step_spread:.1f` points of zero.
# * **The official 30 % share of source subjects** (robustness table; the random ablation draws
#   {glue:text}`random_from_source:.0f` % of its memories from labelled source subjects in the page configuration,
#   against SPICED's {glue:text}`from_source_page:.0f` %, which could explain its lead). With 5 source and 11
#   target subjects, page settings: SPICED {glue:text}`dacc_share_spiced:.1f` points from naive self-training
#   (ablation {glue:text}`dacc_share_random:.1f`, never-adapted model {glue:text}`dacc_share_so:.1f`, centring
#   {glue:text}`dacc_share_centre:.1f`), {glue:text}`dsrc_share_spiced:.1f` from the never-adapted model, forgetting
#   {glue:text}`dfgt_share_spiced:.1f` points from naive's, and {glue:text}`dafter_share_spiced:.1f` on the official
#   metric (ablation {glue:text}`dafter_share_random:.1f`). The reviewer ran both settings over seeds 0-9 and found
#   that no status would move to reproduced, and that the ablation keeps its lead with fewer source subjects.
# * **Baselines the page had before the review**, in the same runs: self-training each subject afresh from the
#   source model (final accuracy {glue:text}`acc_page_reset:.1f` %, accuracy right after adaptation
#   {glue:text}`after_page_reset:.1f` %, forgetting {glue:text}`fgt_page_reset:.1f` points); replaying labelled
#   source trials ({glue:text}`acc_page_srcrep:.1f` %, official {glue:text}`acc_official_srcrep:.1f` %); uniform
#   replay ({glue:text}`acc_page_unif:.1f` %, official {glue:text}`acc_official_unif:.1f` %); random memories
#   ({glue:text}`acc_page_random:.1f` %, official {glue:text}`acc_official_random:.1f` %); no homeostasis
#   ({glue:text}`acc_page_nohomeo:.1f` %, official {glue:text}`acc_official_nohomeo:.1f` %); the official
#   `main.py` settings for SPICED itself ({glue:text}`acc_official_spiced:.1f` % against
#   {glue:text}`acc_page_spiced:.1f` % with the page's, forgetting {glue:text}`fgt_official_spiced:.1f` against
#   {glue:text}`fgt_page_spiced:.1f` points).
# * **Prose the reviewer corrected**: the official optimiser is Adam with an L2 weight decay, not AdamW; the page's
#   link threshold is `add_node`'s keyword default, not a command-line default; the verdict had said SPICED does
#   not beat naive self-training in the official configuration, which the record contradicts; the error-propagation
#   explanation is now stated as a hypothesis beside a per-family measurement; the oracle is scored on its own
#   training trials; the homeostasis headline is now marked untestable here.
#
# ## What the miniature cannot show
#
# * Real EEG. Our subjects differ by a linear mixing, gains, rhythm frequencies and noise, and our target
#   cohort by one gain pattern per family; real inter-subject differences (anatomy, attention, artefacts,
#   non-stationarity within a session) are richer, and the paper's gains may come from them.
# * How strong subject-wise alignment is on real data. Our recording shift is a gain per electrode, which is an
#   additive constant in log band power and which per-subject centring removes almost exactly; real shifts are
#   not all of that kind, so centring's lead here says more about our generator than about EEG. It still shows
#   that, on this page's data, the tests cannot credit SPICED with an advantage that a classical alignment has too.
# * The paper's backbones and its contrastive (CPC) self-supervision, which may make self-training far more
#   robust to wrong pseudo-labels than our small network trained on confident labels alone; and its learning
#   rates, which do not carry over to our network.
# * Long streams: the paper streams tens of subjects per dataset, where renormalisation (a decay time of about
#   30 subjects) and consolidation have time to reshape the network; with 6-12 arrivals the strengths barely
#   move away from the similarity ranking, so consolidation and renormalisation are tested only as bookkeeping
#   (the golden test) and as a comparator that differs little from SPICED, not as a cause of the results.
# * Labels and metrics of the paper's tasks (macro-F1, five sleep stages, nine emotions, four motor-imagery
#   classes), and its baselines (continual-learning and test-time-adaptation methods we did not implement).
