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
# # GRACE: per-node spectral experts and cross-set calibration for few-shot node classification
#
# *Letting each node choose between a low-pass and a high-pass graph filter, and calibrating the few labelled
# examples against the unlabelled ones, should classify nodes of unseen classes better than one fixed filter,
# most of all where neighbours tend to belong to different classes; we test a small version of the idea on
# synthetic graphs whose homophily we control.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
import torch
from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, greater_than, tolerance
from repro.papers import grace_graph_fewshot as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 8 s of CPU on one thread: 5 homophily levels + the mixed graph, 3 replicate graphs of each,
    # 60 training steps, 200 test episodes per graph and shot
    "ci": dict(n=2000, levels=(0.0, 0.25, 0.5, 0.75, 1.0), reps=3, steps=60, test_episodes=200),
    # about a minute of CPU: 9 levels + the mixed graph, 5 replicates, 200 steps, 1000 test episodes
    "full": dict(n=4000, levels=(0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0), reps=5, steps=200,
                 test_episodes=1000),
})
claims = Claims(
    "grace-graph-fewshot",
    title="Graph Few-Shot Learning via Adaptive Spectrum Experts and Cross-Set Distribution Calibration",
    authors="Yonghao Liu, Yajun Wang, Chunli Guo, Wei Pang, Ximing Li, Fausto Giunchiglia, Xiaoyue Feng, Renchu Guan",
    paper_url="https://arxiv.org/abs/2510.12140",
    scale=scale, seed=seed,
)
C, BASE, NOVEL = 20, np.arange(12), np.arange(12, 20)  # 20 classes: 12 base (training), 8 novel (test)
STUBS, F_DIM, NOISE = 5, 16, 2.0     # edges sent per node (mean degree 10), feature dimension, noise level
MIXED = (0.9, 0.1)                   # homophily of the two regions of the mixed graph
HOPS, EMB = 2, 16                    # low-pass propagation steps k, embedding dimension
N_WAY, TRAIN_SHOT, SHOTS = 5, 3, (1, 3)
Q_TRAIN, Q_TEST, EPISODES_PER_STEP, LR = 5, 10, 2, 0.05


def gkey_h(h):
    """A glue key for a homophily level: 0.25 -> 'h025'."""
    return "h" + f"{h:g}".replace(".", "")

# %% [markdown]
# ## The setting
#
# **Few-shot node classification.** A graph's nodes carry features and belong to classes, but some classes
# are *novel*: at test time we see only $K$ labelled nodes of each (the *support set*, $K=1$ or $3$ "shots")
# and must label other nodes of those classes (the *queries*). A test *episode* draws $N=5$ novel classes,
# $K$ support and 10 query nodes of each; its accuracy is the share of the 50 queries labelled correctly
# (chance: 20%). The encoder that turns a node into a vector is trained beforehand on the *base* classes,
# whose labels are plentiful, with episodes of the same shape (*meta-training*). A query goes to the class
# whose *prototype* (mean embedding of its support nodes) is nearest: the prototypical network of Snell et
# al. (2017), the standard baseline of the field.
#
# **Homophily and heterophily.** In a *homophilous* graph, edges join nodes of the same class (papers that
# cite each other share a topic); in a *heterophilous* one they mostly join different classes (fraudsters
# link to their victims, amino acids bind to other kinds). The *edge homophily* $h$ is the share of edges
# whose two ends have the same class; a node's *local homophily* $h_i$ is the share of its own neighbours in
# its class. Real graphs mix both: $h_i$ varies from region to region.
#
# **Low-pass and high-pass graph filters.** With adjacency $A$, degrees $D$ and the normalised adjacency
# $\hat A=D^{-1/2}AD^{-1/2}$, the normalised Laplacian $L=I-\hat A$ has eigenvalues $\lambda\in[0,2]$, the
# graph's "frequencies": an eigenvector with small $\lambda$ varies slowly along edges, one with large
# $\lambda$ changes sign across them. The *low-pass* filter $\hat A^kX$ (neighbour averaging, what a GCN or
# SGC layer does) multiplies the component of the features $X$ at frequency $\lambda$ by $(1-\lambda)^k$;
# the *high-pass* filter $(I-\hat A)X = LX$ (a node minus its neighbours' average) multiplies it by $\lambda$.
# Averaging helps where neighbours share the class (it removes noise and keeps the class signal) and hurts
# where they do not (it blurs the node into its neighbours' classes); the difference with the neighbours
# keeps what is distinctive about a node in a heterophilous neighbourhood but cancels the class signal in a
# homophilous one. The figure below shows both responses and where the class labels of our synthetic graphs
# live in the spectrum.

# %%
spec_rng = np.random.default_rng([seed, 7])  # a separate stream for this illustration only
lam_grid = np.linspace(0, 2, 201)
energy = {}
SPEC_N = 400  # nodes of the illustration's graphs; the classes are the experiment's C = 20
for h in (0.9, 0.5, 0.1, 0.0):
    g = K.make_mixed_homophily_graph(SPEC_N, C, (h,), STUBS, 2, 1.0, spec_rng)
    lam, U = np.linalg.eigh(np.eye(SPEC_N) - K.normalized_adjacency(g["A"]).toarray())
    Y = np.eye(C)[g["y"]] - 1 / C  # class indicators, centred
    w = ((U.T @ Y) ** 2).sum(1)     # energy of the labels at each frequency
    energy[h] = (lam, np.cumsum(w) / w.sum())
    # the labels' mean frequency (energy-weighted), and what uniform other-class edges give in expectation:
    # lambda = 1 - (h - (1 - h) / (C - 1)), our derivation (the Rayleigh quotient of the centred indicators)
    glue(f"lab_freq_{gkey_h(h)}", float((w * lam).sum() / w.sum()), display=False)
    glue(f"lab_freq_formula_{gkey_h(h)}", 1 - (h - (1 - h) / (C - 1)), display=False)
fig, axes = plt.subplots(1, 2, figsize=(9, 3.1))
axes[0].plot(lam_grid, (1 - lam_grid) ** HOPS, label=r"low-pass $\hat A^2$: $(1-\lambda)^2$")
axes[0].plot(lam_grid, lam_grid, label=r"high-pass $I-\hat A$: $\lambda$")
axes[0].set(xlabel=r"frequency $\lambda$ (eigenvalue of $L$)", ylabel="gain of the filter",
            title="What the two filters keep")
axes[0].legend(fontsize=8)
for h, (lam, cum) in energy.items():
    axes[1].plot(lam, cum, label=f"edge homophily {h}")
axes[1].set(xlabel=r"frequency $\lambda$", ylabel="share of label energy below $\\lambda$",
            title=f"Where the classes live ({SPEC_N} nodes, {C} classes)")
axes[1].legend(fontsize=8)
plt.show()

# %% [markdown]
# The graphs on the right have the experiment's 20 classes. On a homophilous graph ($h=0.9$) the labels sit at
# low frequencies (mean frequency {glue:text}`lab_freq_h09:.2f`), which the low-pass filter keeps. With 20
# classes and heterophilous edges spread uniformly over the 19 other classes, the labels do *not* move to high
# frequencies: their mean frequency is {glue:text}`lab_freq_h01:.2f` at $h=0.1$ and {glue:text}`lab_freq_h0:.2f`
# at $h=0$, close to $\lambda=1$ (our derivation for this generator gives
# $\lambda\approx1-\big(h-\tfrac{1-h}{C-1}\big)$: {glue:text}`lab_freq_formula_h01:.2f` and
# {glue:text}`lab_freq_formula_h0:.2f`). There the low-pass gain $(1-\lambda)^2$ is near 0, so averaging keeps
# almost nothing of the classes, and the high-pass gain $\lambda$ is near 1, so $(I-\hat A)X$ keeps about as
# much class signal as the raw features. A neighbourhood that is near-random carries almost no class
# information in either direction: edges drawn at random among 20 classes would give a same-class share of
# $1/20=0.05$, and the heterophilous region of our mixed graph, at $h=0.1$, is barely above it. A graph with
# few classes, or with edges to one *paired* class, would put its labels above $\lambda=1$, where the high-pass
# filter gains; ours does not.
#
# ## The claim
#
# The paper (Liu et al., NeurIPS 2025) argues that graph few-shot methods apply one fixed filter to the whole
# graph, low-pass or high-pass, although real graphs mix homophilous and heterophilous regions, and that
# they assume the few labelled support nodes are distributed like the queries, which with one or three shots
# is rarely true. Its method, GRACE, combines a low-pass and a high-pass *spectrum expert* node by node and
# *calibrates* the support set against the query set; the paper argues theoretically that both improve
# generalisation and reports that GRACE beats the state of the art on seven benchmarks (Cora, CiteSeer,
# Amazon-Computer, Coauthor-CS, DBLP, CoraFull, ogbn-arxiv). We could read only the abstract and the outline
# of its Algorithm 1 (low-pass expert, Eq. 1; high-pass expert, Eqs. 2–3; integration of the two); its
# equations and its numbers were out of reach, and of its code we found only the README (see the deviations).
# **What we test is therefore a small model of our own design built on the brief's reading of the idea
# ("GRACE-lite"), not the paper's architecture**, on synthetic graphs, for the direction of the paper's claims.
#
# ## The method
#
# **Encoders.** Every model is linear in precomputed filtered features (as in SGC), each filter's output
# rescaled to unit mean squared row norm (`K.filter_bank`):
#
# * *MLP* (ignores the graph): $h_i = x_i W$;
# * *low-pass* (the GCN/SGC baseline): $h_i = (\hat A^2X)_i W_L$;
# * *high-pass*: $h_i = ((I-\hat A)X)_i W_H$;
# * *fixed mix* (both experts, a fixed global weight of one half): $h_i = \tfrac12(\hat A^2X)_iW_L + \tfrac12((I-\hat A)X)_iW_H$;
# * *GRACE-lite* (both experts, mixed per node):
#
# $$ h_i = g_i\,(\hat A^2X)_iW_L + (1-g_i)\,((I-\hat A)X)_iW_H,\qquad
#    g_i=\sigma\big(w_2^\top\tanh(W_1z_i+b_1)+b_2\big), $$
#
# where the gate sees three label-free statistics $z_i$ of node $i$ (`K.gate_features`, standardised): its
# log-degree and the cosine similarities of $x_i$ with $(\hat AX)_i$ and $(\hat A^2X)_i$, a measure of how
# smooth the features are around it. The gate starts at $g_i=\tfrac12$, so GRACE-lite starts as the fixed mix;
# whether training then moves the gate in a useful direction, node by node, is what the tests below measure.
#
# **Training.** All five encoders, for every graph, train at once (`K.meta_train`, batched over parameter
# sets) on 3-shot, 5-way episodes of the base classes with the prototypical loss (cross-entropy of the
# logits $-\lVert h_q-p_c\rVert^2$), a hand-written Adam (`K.Adam`, the same update as `torch.optim.Adam`).
#
# **Cross-set calibration** (`K.calibrate_prototypes`, at test time, no training). The queries of an episode
# are unlabelled but visible. We first shift them so that their mean matches the support set's mean,
# $\tilde h_q = h_q-\bar h_Q+\bar h_S$, then rectify each prototype with the queries that look like its class:
# with soft assignments $w_{qc}=\operatorname{softmax}_c\big(10\cos(\tilde h_q,p_c)\big)$,
#
# $$ p_c \leftarrow \frac{\sum_{s\in S_c}h_s+\sum_q w_{qc}\tilde h_q}{K+\sum_q w_{qc}} ,$$
#
# the prototype rectification of BD-CSPN (Liu, Song and Qin, 2020), one of the forms of "shift the support
# towards the query statistics" that the brief suggests. With one shot a prototype is a single noisy node;
# the queries that resemble it pull it towards its class's centre.
#
# **Comparators** (not part of GRACE-lite). Added when the book asked every counted test for the method
# without its ingredient and for the strongest naive baseline (issue 33), and fixed before they were run:
#
# * *Learned global weight* (`"gmix"`; the **ablation** of every test about the gate): GRACE-lite's gate fed
#   $z_i=0$ for every node, so that $g=\sigma(w_2^\top\tanh(b_1)+b_2)$ is one trained weight of the two experts
#   for the whole graph. It has everything GRACE-lite has except the node information of its gate.
# * *Fixed mix* (`"mix"`, on the page from the start): the same two experts with $g_i=\tfrac12$, no gate.
# * *Concatenation* (`"concat"`; a **naive baseline**): $h_i=\tfrac12(\hat A^2X)_iW_L+\tfrac12((I-\hat A)X)_iW_H
#   +\tfrac12x_iW_R$, a linear model on the raw and both filtered features side by side. Keeping a node's own
#   features apart from its neighbours' is the usual remedy for heterophily in prior work (H2GCN, Zhu et al.
#   2020; SIGN, Frasca et al. 2020). It has no gate and none of the paper's ideas, but it has one input that
#   GRACE-lite lacks: the unfiltered features, which the MLP shows to be the best input at intermediate
#   homophily.
# * The MLP, the low-pass and the high-pass models, as above, wherever the same measurement applies to them.
# * For calibration: the same rectification with *uniform* instead of soft assignments (the **ablation**: no
#   class information from the queries, every prototype pulled towards the same query mean), and SimpleShot's
#   *CL2N* (Wang et al. 2019; a **naive baseline**, `K.centre_and_normalise`): centre every support and query
#   embedding of the episode on their common mean, L2-normalise, then take the nearest prototype.
# * For the gate: an *untrained gate* (the **ablation**, `K.random_gate`: the same architecture on the same
#   statistics $z_i$, random weights), and the *feature smoothness* $\cos(x_i,(\hat AX)_i)$, one of the gate's
#   own inputs, used as the gate without any training (a **naive baseline**).
#
# Added after the independent review (below, "What a skeptic would try"), as further naive baselines of tests
# that already existed, each under the test's own measurement and criterion, with no change to any
# measurement, setting or threshold:
#
# * *Untrained encoders* (no meta-training at all): the filter's own output used as the embedding, $h_i=x_i$,
#   $h_i=(\hat A^2X)_i$ or $h_i=((I-\hat A)X)_i$ (each rescaled as the trained models' inputs are). They need
#   no model and no training, and they are the first thing to try against a meta-trained encoder.
# * *Model selection on the base classes* (`K.select_by_validation`): for each graph, the one of the trained
#   MLP, low-pass and high-pass models with the best accuracy on 3-shot episodes of the *base* classes, whose
#   labels are available at training time (as many episodes as the test uses, from their own random stream).
#   One filter per graph, chosen by validation, against GRACE-lite's one filter mix per node.
# * *The smoothness averaged over the node's connected component* (`K.component_mean`): a label-free gate that
#   gives every node its component's mean feature smoothness. On the mixed graph the two regions are the two
#   connected components, so this is a region detector.
#
# ## The experiment
#
# * **Graphs** (`K.make_mixed_homophily_graph`, a contextual stochastic block model): 20 classes, nodes
#   $i$ of class $i\bmod 20$; features $x_i=\mu_{y_i}+2\varepsilon_i$ in 16 dimensions, class means and noise
#   standard normal (the raw features, used as embeddings without any training, give
#   {glue:text}`acc_id_raw_mixed_3:.1f` % in 5-way 3-shot episodes on the mixed graph); every node sends 5 edges
#   (mean degree 10) inside its region, each to its own class with probability $h_r$ (the region's homophily)
#   and otherwise to a node of a uniformly chosen other class. *Homophily levels:* one region, $h$ on a grid
#   from 0 to 1 (5 levels at ci scale, 9 at full). *The mixed graph:* half the nodes in a homophilous region
#   ($h=0.9$), half in a heterophilous one ($h=0.1$), edge homophily 0.5. Every graph has 2000 nodes (4000 at
#   full scale) and is drawn 3 times (5 at full) with independent features, edges, initialisations and
#   episodes: the spread in the figures is the standard deviation over these replicate graphs.
# * **Split:** classes 0–11 are base (training), 12–19 novel (test); the class means are drawn at random, so
#   base and novel classes are alike in distribution. Meta-training on the base classes nevertheless does not
#   carry over: on the novel classes, each trained single-filter encoder is at or below its own untrained input,
#   mostly far below (the MLP {glue:text}`acc_mlp_mixed_3:.1f` % against {glue:text}`acc_id_raw_mixed_3:.1f` % for
#   the raw features on the mixed graph; see "What a skeptic would try"). One possible cause, the reviewer's
#   reading and not tested here, is that a $16\to16$ linear map fitted to 12 base-class means loses the
#   directions that separate the 8 novel ones. Every trained model below, GRACE-lite and the comparators alike,
#   is compared after this loss. 60 training steps of 2 episodes per step and graph (200 at full scale); 200 test
#   episodes per graph and shot (1000 at full), the same episodes for every model, comparators included.
#
# **Claims, fixed before the first run** (the first four from the brief's checks; accuracies in points,
# 5-way, averaged over the test episodes and the replicate graphs). Each first had a single control (the same
# difference on another graph, or the gate fed a permuted node's statistics). When the book asked for
# comparators, every test kept its measurement, setting and criterion, so it stays pre-registered, and gained
# the ablation and naive baselines below, under the same measurement; the old controls were dropped (a
# difference on another graph is not the same measurement, and a permuted input is at chance by construction).
# After the independent review, the tests below gained the naive baselines marked "(review)", again with no
# change to their measurement, setting or criterion, and the third claim became an illustration.
#
# 1. *Adaptive experts beat fixed filters on the mixed graph* (`experts-beat-fixed-filters`; brief: "+2
#    points"): 3-shot accuracy of GRACE-lite minus the better of the low-pass and high-pass models $\ge2$.
#    Comparators, the same difference for: the learned global weight (ablation), the fixed mix, the
#    concatenation, and the untrained $\hat A^2X$ (review).
# 2. *The per-node gate is what helps* (`gate-beats-fixed-mix`; our threshold): GRACE-lite minus the fixed mix
#    $\ge1$ point on the mixed graph, 3-shot. Comparators: the learned global weight (ablation), the
#    concatenation, the low-pass model and the untrained $\hat A^2X$ (review), each minus the fixed mix.
# 3. *No loss on a homophilous graph* (`no-loss-when-homophilous`; brief): on the $h=1$ graph, GRACE-lite minus
#    the low-pass model $\ge-1$ point. **Now an illustration, not counted**: it is a "does not hurt" criterion,
#    at a ceiling (the low-pass model is near 100 % there), where the paper claims gains; a no-op, the low-pass
#    model itself, passes it by definition. Its comparators are shown beside it, not judged.
# 4. *Calibration helps with one shot* (`calibration-helps-1-shot`; brief: "+1 point"): on the mixed graph,
#    1-shot accuracy of GRACE-lite with calibration minus without $\ge1$ point. Comparators: uniform
#    assignments (ablation) and CL2N, each minus no calibration, on the same embeddings and episodes.
# 5. *The gate tracks local homophily* (`gate-tracks-homophily`; brief): Spearman correlation between $g_i$ and
#    the true $h_i$ over the nodes of the mixed graph (mean over replicates) $>0.3$. Comparators: the untrained
#    gate (ablation), the feature smoothness, and the smoothness averaged over the node's connected component
#    (review). On the mixed graph $h_i$ is mostly a matter of which region a node is in, so this measurement is
#    largely one of region detection.
# 6. *Adaptive across homophily levels* (`adaptive-across-homophily`; our threshold): at every homophily level,
#    the model is at most 2 points below the best of the MLP, the low-pass and the high-pass models at that
#    level; measured as the worst case over levels of the difference, $\ge-2$. Comparators: the learned global
#    weight (ablation), the fixed mix, the concatenation, the low-pass model, and model selection on the base
#    classes (review), same measurement.
# 7. *Gain over a GCN at $h=0$* (`gain-largest-under-heterophily`; the reading of the paper is that the
#    gain is *largest* under heterophily, but what is measured is the gain on the purely heterophilous graph
#    only, not a comparison across levels; our threshold): GRACE-lite minus the low-pass model at $h=0$ $\ge5$
#    points. Comparators: the learned global weight (ablation), the MLP, the high-pass model, the fixed mix, the
#    concatenation and the untrained raw features (review), each minus the low-pass model.
#
# **Deviations from the paper**
#
# * The model is ours (GRACE-lite, after the brief), not the paper's: its expert equations, gating network,
#   calibration and losses were not available. Our experts are linear in precomputed filters (SGC-style, one
#   layer); the paper's are presumably deeper GNNs.
# * The official code exists but was not obtained. A public-code index holds two versions of its README (the
#   source code of this paper: a `main.py` whose argparse takes `dataset`, `n_way` and `k_shot`, run as
#   `python main.py` or, in one version, `python main.py --use_cor`; PyTorch 2.4.1 with torch-geometric and
#   its extensions, ogb, scikit-learn), but the repository it belongs to could not be resolved or fetched
#   here, so no line of its code was read. The page therefore has no comparison with the official code, and
#   none of its settings (nor whatever `--use_cor` switches on) could be run as a second configuration.
# * Synthetic contextual SBM graphs instead of the paper's seven real datasets (downloads, and no numbers
#   to compare with). **The mixed graph builds in exactly the heterogeneity that GRACE exploits, so it
#   favours the method by construction** (the brief's warning).
# * Heterophilous edges go to a uniformly chosen other class, not to one *paired* class as the brief
#   suggests: with a fixed pairing, two-hop averaging $\hat A^2$ returns to the node's own class and a low-pass
#   model would handle heterophily by itself, which tests a different question. Edges stay inside their
#   region (the regions are two components); the graph is a multigraph (a pair can be picked twice).
# * The calibration is a prototype rectification with a first-moment shift; the brief's "shift and scale"
#   has no scale step here, and the paper's calibration may differ entirely.
# * One encoder per model is trained with 3-shot episodes and tested at 1 and 3 shots; one learning rate
#   (0.05), step count and embedding size (16) for all models, chosen from the training loss on a neutral
#   graph ($h=0.5$), not tuned per model; no validation split, no early stopping. The two comparator models
#   train with the same settings in a second batched model, with their own training episodes and
#   initialisation; the test episodes are shared.
# * With 20 classes and heterophilous edges spread over all other classes, heterophily here is close to
#   randomness: the heterophilous region of the mixed graph ($h=0.1$) is barely above the same-class share of
#   random edges ($1/20=0.05$), and its neighbourhoods carry almost no class signal (first figure). Such a
#   region is best served by no filter at all, and GRACE-lite, like the brief's design, has no identity expert.
# * The brief's LFR graphs (full scale) and the paper's theoretical bound are not tested.

# %%
print(f"scale={P.scale}: n={P.n}, levels {P.levels} + mixed {MIXED}, {P.reps} replicates, {P.steps} steps, "
      f"{P.test_episodes} test episodes per graph and shot")
specs = [(f"h={h:g}", (h,)) for h in P.levels] + [("mixed", MIXED)]
S = len(specs)
graphs = [K.make_mixed_homophily_graph(P.n, C, hr, STUBS, F_DIM, NOISE, P.rng)
          for _, hr in specs for _ in range(P.reps)]  # graph index = spec * reps + replicate
Gf = len(graphs)
bank = [K.filter_bank(g["X"], g["A"], HOPS) for g in graphs]
feats = {key: torch.tensor(np.stack([b[key] for b in bank])) for key in ("XR", "XL", "XH", "Z")}
edge_h = np.array([K.edge_homophily(g["A"], g["y"]) for g in graphs]).reshape(S, P.reps)
table = K.class_table(P.n, C)
print("edge homophily (mean over replicates):", ", ".join(f"{n} {v:.3f}" for (n, _), v in zip(specs, edge_h.mean(1))))

# %% [markdown]
# ### Meta-training on the base classes
#
# One batched model holds every (encoder, graph) pair: $5\times$ the number of graphs independent parameter
# sets, trained together on their own episodes.

# %%
modes = [m for m in K.MODES for _ in range(Gf)]
owner = np.tile(np.arange(Gf), len(K.MODES))            # the graph of each parameter set
sets_of = {m: np.arange(i * Gf, (i + 1) * Gf) for i, m in enumerate(K.MODES)}
model = K.SpectralExperts(modes, F_DIM, EMB, generator=torch.Generator().manual_seed(seed))
opt = K.Adam(list(model.parameters()), lr=LR)
loss_chunks = []
for _ in progress(range(P.steps // 20), desc="meta-training (20 steps per tick)"):
    loss_chunks.append(K.meta_train(model, feats, owner, table, BASE, N_WAY, TRAIN_SHOT, Q_TRAIN, 20,
                                    EPISODES_PER_STEP, LR, P.rng, opt=opt))
losses = np.concatenate(loss_chunks)
print("mean training loss over the last 10 steps:",
      ", ".join(f"{m} {losses[-10:, sets_of[m]].mean():.3f}" for m in K.MODES))

# %% [markdown]
# The two comparators added with the claim model (the learned global weight and the concatenation, see "The
# experiment") are trained the same way, with the same learning rate and number of steps, in a second batched
# model with its own stream of training episodes and initialisation, so that the five models above train
# exactly as they did before the comparators existed.

# %%
CMP = K.COMPARATOR_MODES
cmp_owner = np.tile(np.arange(Gf), len(CMP))
cmp_sets = {m: np.arange(i * Gf, (i + 1) * Gf) for i, m in enumerate(CMP)}
cmp_model = K.SpectralExperts([m for m in CMP for _ in range(Gf)], F_DIM, EMB,
                              generator=torch.Generator().manual_seed(1000 + seed))
cmp_rng = np.random.default_rng([seed, 33])  # the comparators' own training episodes
cmp_opt = K.Adam(list(cmp_model.parameters()), lr=LR)
cmp_losses = np.concatenate([K.meta_train(cmp_model, feats, cmp_owner, table, BASE, N_WAY, TRAIN_SHOT, Q_TRAIN, 20,
                                          EPISODES_PER_STEP, LR, cmp_rng, opt=cmp_opt)
                             for _ in progress(range(P.steps // 20), desc="comparators (20 steps per tick)")])
print("comparators, mean training loss over the last 10 steps:",
      ", ".join(f"{m} {cmp_losses[-10:, cmp_sets[m]].mean():.3f}" for m in CMP))

# %% [markdown]
# ### Few-shot tests on the novel classes

# %%
episodes = {k: K.sample_episodes(table, NOVEL, N_WAY, k, Q_TEST, P.test_episodes, P.rng, batch=Gf) for k in SHOTS}
acc = {}  # (model, shot) -> accuracy per graph, in points, averaged over the episodes
embs = {}
for m in (*K.MODES, *CMP):
    emb = embs[m] = (K.embed_all(model, feats, owner, sets_of[m]) if m in K.MODES
                     else K.embed_all(cmp_model, feats, cmp_owner, cmp_sets[m]))
    for k in SHOTS:
        variants = (None, "cal", "uniform", "cl2n") if m == "grace" else (None,)
        for cal in variants:
            name = m if cal is None else f"{m}+{cal}"
            acc[name, k] = 100 * K.episode_accuracy(emb, *episodes[k], calibrate=cal).mean(1).reshape(S, P.reps)

# naive baselines of the review: untrained encoders (each filter's own output as the embedding, no meta-training)
UNTRAINED = {"id_raw": "XR", "id_low": "XL", "id_high": "XH"}
for name, key in UNTRAINED.items():
    for k in SHOTS:
        acc[name, k] = 100 * K.episode_accuracy(feats[key], *episodes[k]).mean(1).reshape(S, P.reps)
# ... and one single-filter model per graph, chosen on 3-shot episodes of the base classes (labels available)
CANDIDATES = ("mlp", "low", "high")
val_rng = np.random.default_rng([seed, 44])  # the validation episodes' own stream: P.rng is left untouched
val_episodes = K.sample_episodes(table, BASE, N_WAY, TRAIN_SHOT, Q_TEST, P.test_episodes, val_rng, batch=Gf)
val_acc = np.stack([K.episode_accuracy(embs[m], *val_episodes).mean(1) for m in CANDIDATES])  # (3, graphs)
for k in SHOTS:
    picked, chosen = K.select_by_validation(val_acc, np.stack([acc[m, k].ravel() for m in CANDIDATES]))
    acc["select", k] = chosen.reshape(S, P.reps)
print("model chosen on the base classes, per graph:",
      "; ".join(f"{name} " + ",".join(CANDIDATES[i] for i in picked.reshape(S, P.reps)[j])
                for j, (name, _) in enumerate(specs)))
spec_index = {name: i for i, (name, _) in enumerate(specs)}


def mean_acc(name, spec, k=3):
    """Accuracy in points, mean over test episodes and replicate graphs."""
    return float(acc[name, k][spec_index[spec]].mean())


LABELS = {"mlp": "MLP (no graph)", "low": "low-pass (SGC/GCN)", "high": "high-pass", "mix": "fixed 1/2-1/2 mix",
          "grace": "GRACE-lite (per-node gate)", "grace+cal": "GRACE-lite + calibration",
          "grace+uniform": "GRACE-lite + uniform calibration", "grace+cl2n": "GRACE-lite + CL2N (naive)",
          "gmix": "learned global weight", "concat": "concatenation [X, low, high]",
          "id_raw": "untrained raw X (no training)", "id_low": "untrained low-pass A^2 X", "id_high":
          "untrained high-pass (I-A)X", "select": "one filter per graph (base val.)"}
ALL_ROWS = (*K.MODES, *CMP, "grace+cal", "grace+uniform", "grace+cl2n", *UNTRAINED, "select")
rows = [(LABELS[m], *(f"{mean_acc(m, sp, k):5.1f}" for sp in ("h=0", "h=1", "mixed") for k in SHOTS))
        for m in ALL_ROWS]
print(f"{'5-way accuracy (%)':34s}" + "".join(f"{sp + f' {k}-shot':>14s}" for sp in ("h=0", "h=1", "mixed") for k in SHOTS))
for r in rows:
    print(f"{r[0]:34s}" + "".join(f"{v:>14s}" for v in r[1:]))
print("\n3-shot accuracy (%) by homophily level, mean over replicates:")
print(f"{'':34s}" + "".join(f"{sp:>9s}" for sp, _ in specs))
for m in (*K.MODES, *CMP, "grace+cal", *UNTRAINED, "select"):
    print(f"{LABELS[m]:34s}" + "".join(f"{mean_acc(m, sp):9.1f}" for sp, _ in specs))

# %% [markdown]
# ## Results
#
# ### Accuracy against homophily
#
# The central figure: 5-way 3-shot accuracy on the novel classes of each graph, against its edge homophily,
# mean and standard deviation over the replicate graphs, with the two comparator models (the learned global
# weight and the concatenation) and, dotted, two untrained encoders (the raw features and $\hat A^2X$ used as
# embeddings without any training; starred in the bar chart). The mixed graph (edge homophily $0.5$, but half
# of it at $0.9$ and half at $0.1$) is drawn apart, at the right.

# %%
STYLE = {"mlp": ("0.5", "s"), "low": ("C0", "o"), "high": ("C3", "v"), "mix": ("C2", "D"), "gmix": ("C8", "X"),
         "concat": ("C5", "h"), "grace": ("C1", "*"), "grace+cal": ("C4", "P"), "id_raw": ("0.5", "."),
         "id_low": ("C0", ".")}
SHORT = {"mlp": "MLP", "low": "low", "high": "high", "mix": "mix", "gmix": "global", "concat": "concat",
         "grace": "GRACE", "grace+cal": "+cal", "id_raw": "raw X*", "id_low": "A²X*"}
LINE = {"grace+cal": "--", "id_raw": ":", "id_low": ":"}
lv = slice(0, S - 1)
fig, (ax, axm) = plt.subplots(1, 2, figsize=(10, 4.8), gridspec_kw=dict(width_ratios=(3, 1.4)))
for m, (col, mk) in STYLE.items():
    a = acc[m, 3]
    ax.errorbar(edge_h[lv].mean(1), a[lv].mean(1), yerr=a[lv].std(1), color=col, marker=mk, ms=6, capsize=3,
                label=LABELS[m], ls=LINE.get(m, "-"))
ax.axhline(100 / N_WAY, color="k", lw=0.8, ls=":", label="chance (5-way)")
ax.set(xlabel="edge homophily of the graph (share of same-class edges)", ylabel="5-way 3-shot accuracy (%)",
       title="Single-homophily graphs", ylim=(0, 102))
ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=4)
xs = np.arange(len(STYLE))
mixed = [acc[m, 3][S - 1] for m in STYLE]
axm.bar(xs, [a.mean() for a in mixed], yerr=[a.std() for a in mixed], capsize=3,
        color=[c for c, _ in STYLE.values()])
axm.set(xticks=xs, ylabel="5-way 3-shot accuracy (%)", ylim=(0, 102),
        title=f"Mixed graph (regions h = {MIXED[0]}, {MIXED[1]})")
axm.set_xticklabels([SHORT[m] for m in STYLE], rotation=45)
plt.show()

# %% [markdown]
# ### What the gate learned, and what calibration adds
#
# Left: the gate $g_i$ (the weight of the low-pass expert) of 800 random nodes of the first mixed graph,
# against their local homophily $h_i$ (jittered), with the binned means over all its nodes. Right: 1-shot and
# 3-shot accuracy of GRACE-lite on the mixed graph without calibration, with calibration, with its ablation
# (uniform assignments) and with the naive CL2N.

# %%
mixed_ids = spec_index["mixed"] * P.reps + np.arange(P.reps)
GATE_HIDDEN = 8  # the width of the model's gate (SpectralExperts' default)
gate_gen = torch.Generator().manual_seed(2000 + seed)  # the untrained gates' weights
rho, rho_random, rho_smooth, rho_region, gates, homs = [], [], [], [], [], []
with torch.no_grad():
    for gi in mixed_ids:
        z = feats["Z"][gi][None]
        gate = model.gate(z, sets=sets_of["grace"][[gi]])[0].numpy()
        h_loc = K.local_homophily(graphs[gi]["A"], graphs[gi]["y"])
        rho.append(K.spearman(gate, h_loc))
        rho_random.append(K.spearman(K.random_gate(z[0].numpy(), GATE_HIDDEN, gate_gen), h_loc))
        rho_smooth.append(K.spearman(z[0, :, 1].numpy(), h_loc))  # cos(x_i, (ÂX)_i), the gate's own input
        rho_region.append(K.spearman(K.component_mean(graphs[gi]["A"], z[0, :, 1].numpy()), h_loc))
        gates.append(gate)
        homs.append(h_loc)
rho, rho_random, rho_smooth, rho_region = map(np.array, (rho, rho_random, rho_smooth, rho_region))
print(f"Spearman with local homophily on the mixed graphs: trained gate {np.round(rho, 3)}; "
      f"untrained random gate {np.round(rho_random, 3)}; "
      f"feature smoothness cos(x_i, (ÂX)_i) {np.round(rho_smooth, 3)}; "
      f"smoothness averaged over the connected component {np.round(rho_region, 3)}")

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.6))
plot_rng = np.random.default_rng([seed, 11])  # jitter and a subsample of 800 nodes, for the picture only
jit = plot_rng.uniform(-0.015, 0.015, P.n)
shown = np.zeros(P.n, bool)
shown[plot_rng.choice(P.n, 800, replace=False)] = True
reg = graphs[mixed_ids[0]]["region"]
for r, col in ((0, "C0"), (1, "C3")):
    sel = shown & (reg == r)
    ax1.scatter(homs[0][sel] + jit[sel], gates[0][sel], s=5, alpha=0.5, color=col, label=f"region with h = {MIXED[r]}")
bins = np.linspace(0, 1, 11)
which = np.clip(np.digitize(homs[0], bins) - 1, 0, 9)
centre = [(bins[b] + bins[b + 1]) / 2 for b in range(10) if np.any(which == b)]
binned = [gates[0][which == b].mean() for b in range(10) if np.any(which == b)]
ax1.plot(centre, binned, "k-o", ms=4, label="binned mean")
ax1.set(xlabel=r"local homophily $h_i$ (share of same-class neighbours)", ylabel=r"gate $g_i$ (weight of low-pass)",
        title=f"The gate on the mixed graph (Spearman {rho[0]:.2f})", ylim=(-0.02, 1.02))
ax1.legend(fontsize=8)
width = 0.2
for j, (v, col) in enumerate((("grace", "C1"), ("grace+cal", "C4"), ("grace+uniform", "0.6"), ("grace+cl2n", "C9"))):
    a = [acc[v, k][S - 1] for k in SHOTS]
    ax2.bar(np.arange(2) + (j - 1.5) * width, [x.mean() for x in a], width, yerr=[x.std() for x in a], capsize=3,
            color=col, label=LABELS[v])
ax2.set(xticks=np.arange(2), ylabel="5-way accuracy (%)", title="Calibration on the mixed graph", ylim=(0, 100))
ax2.set_xticklabels([f"{k}-shot" for k in SHOTS])
ax2.legend(fontsize=8, loc="lower right")
plt.show()

# %% [markdown]
# ### The paper's numbers
#
# None: the paper's tables were out of reach (the brief found its datasets, not its accuracies), so there
# is no row of reported values to set beside ours. The tests below compare GRACE-lite with the brief's
# thresholds and with comparators measured in the same run, on synthetic graphs only.

# %%
ACC = tolerance(abs=0.5, why="accuracy difference (points) after 60-200 float64 Adam steps: a query near a tie "
                "between two prototypes may flip under other float kernels")
RHO = tolerance(abs=0.02, why="rank correlation of a trained gate with fixed labels (see the accuracy tolerance)")
PAPER = "GRACE consistently beats state-of-the-art baselines (abstract); no accuracies retrieved"
GATE_INFO = ("the node information of the gate: each node's own statistics z_i (without it the gate is one learned "
             "weight of the two experts for every node)")
CMP_LABEL = {
    "gmix": "GRACE-lite's gate fed no node statistics (one learned weight of the two experts for all nodes)",
    "mix": "the same two experts with a fixed 1/2-1/2 mix (no gate)",
    "concat": "a linear model on the concatenation [X, Â²X, (I-Â)X]: raw features beside both filters (H2GCN/SIGN-"
              "style), no gate",
    "mlp": "the MLP on the raw features (ignores the graph)",
    "high": "the high-pass model alone",
    "low": "the low-pass (GCN/SGC) model alone",
    "id_low": "the untrained low-pass features Â²X used as the embedding (no model, no meta-training)",
    "id_raw": "the untrained raw features X used as the embedding (no model, no meta-training)",
    "select": "one filter per graph: the trained MLP, low-pass or high-pass model with the best accuracy on 3-shot "
              "episodes of the base classes (model selection, no gate)",
}


def gap(m, ref, spec, k=3):
    """Accuracy of model m minus that of ref (points; mean over test episodes and replicate graphs)."""
    return mean_acc(m, spec, k) - mean_acc(ref, spec, k)


def over_best_filter(m, spec="mixed"):
    """Accuracy of m minus the better of the low-pass and high-pass models (points, 3-shot)."""
    return mean_acc(m, spec) - max(mean_acc("low", spec), mean_acc("high", spec))


levels = [f"h={h:g}" for h in P.levels]


def shortfall(m):
    """Worst case over the homophily levels of m minus the best of MLP, low-pass and high-pass at that level."""
    return min(mean_acc(m, sp) - max(mean_acc(b, sp) for b in ("mlp", "low", "high")) for sp in levels)


claims.headline("adaptive-spectrum-experts",
                "A fixed global filter (low-pass or high-pass) ignores that local structure varies across a graph; "
                "spectrum experts combined node by node adapt to it and classify the nodes of new classes better",
                tests=["experts-beat-fixed-filters", "gate-beats-fixed-mix", "gate-tracks-homophily",
                       "adaptive-across-homophily", "gain-largest-under-heterophily"])
claims.headline("cross-set-calibration",
                "With one or a few shots the support set does not represent the query set; calibrating the support "
                "against the distribution of the queries improves few-shot generalisation",
                tests=["calibration-helps-1-shot"])
claims.headline("generalisation-theory",
                "The theory shows that adapting to local structure and calibrating across sets improves "
                "generalisation",
                untestable="the paper's bound and its assumptions were not found (only the abstract and the outline "
                           "of Algorithm 1): there is nothing to evaluate or to refute by an independent computation")
claims.headline("beats-state-of-the-art",
                "GRACE consistently outperforms state-of-the-art graph few-shot methods across a wide range of "
                "settings (seven benchmark graphs)",
                untestable="the seven benchmark graphs are downloads (the book runs offline), the paper's accuracies, "
                           "architecture and code were not found, and the state-of-the-art methods it compares with "
                           "are not implemented here: the synthetic tests set GRACE-lite beside fixed filters and "
                           "naive baselines only")

claims.test("experts-beat-fixed-filters",
            statement="Mixed graph, 5-way 3-shot: GRACE-lite minus the better of the low-pass and high-pass models "
                      "(points)",
            paper=PAPER + "; the brief expects >= +2 points", criterion=at_least(2.0),
            measured=over_best_filter("grace"), tol=ACC,
            ablation=Comparator(CMP_LABEL["gmix"] + ", minus the better single filter", over_best_filter("gmix"),
                                ingredient=GATE_INFO),
            baselines=[Comparator(CMP_LABEL["mix"] + ", minus the better single filter", over_best_filter("mix")),
                       Comparator(CMP_LABEL["concat"] + ", minus the better single filter",
                                  over_best_filter("concat")),
                       Comparator(CMP_LABEL["id_low"] + ", minus the better trained single filter (added after "
                                  "the review)", over_best_filter("id_low"))])
claims.test("gate-beats-fixed-mix",
            statement="Mixed graph, 5-way 3-shot: GRACE-lite minus the fixed 1/2-1/2 mix of the same experts (points)",
            paper="node-adaptive experts, against fixed global filters (abstract); no numbers retrieved",
            criterion=at_least(1.0), measured=gap("grace", "mix", "mixed"), tol=ACC,
            ablation=Comparator(CMP_LABEL["gmix"] + ", minus the fixed mix", gap("gmix", "mix", "mixed"),
                                ingredient=GATE_INFO),
            baselines=[Comparator(CMP_LABEL["concat"] + ", minus the fixed mix", gap("concat", "mix", "mixed")),
                       Comparator(CMP_LABEL["low"] + ", minus the fixed mix", gap("low", "mix", "mixed")),
                       Comparator(CMP_LABEL["id_low"] + ", minus the fixed mix (added after the review)",
                                  gap("id_low", "mix", "mixed"))])
claims.illustrate("no-loss-when-homophilous",
                  statement="Purely homophilous graph (h = 1), 5-way 3-shot: GRACE-lite minus the low-pass model "
                            "(points)",
                  paper="not in the abstract; the brief expects >= -1 point", criterion=at_least(-1.0),
                  measured=gap("grace", "low", "h=1"), tol=ACC,
                  why="a 'does not hurt' criterion at a ceiling (the low-pass model is near 100 % at h = 1) where the "
                      "paper claims gains: a no-op, the low-pass model itself, passes it by definition, and so do "
                      "the learned global weight, the fixed mix and the untrained Â²X (shown in the verdict)")
claims.test("calibration-helps-1-shot",
            statement="Mixed graph, 5-way 1-shot: GRACE-lite with cross-set calibration minus without (points)",
            paper="cross-set distribution calibration improves generalisation (abstract); the brief expects >= +1 point",
            criterion=at_least(1.0), measured=gap("grace+cal", "grace", "mixed", 1), tol=ACC,
            ablation=Comparator("the same calibration with uniform instead of soft assignments, minus none",
                                gap("grace+uniform", "grace", "mixed", 1),
                                ingredient="the class information of the soft assignments: each query pulls the "
                                           "prototypes it resembles"),
            baselines=[Comparator("SimpleShot's CL2N: centre every embedding on the episode's mean and L2-normalise "
                                  "(no class information from the queries), minus none",
                                  gap("grace+cl2n", "grace", "mixed", 1))])
claims.test("gate-tracks-homophily",
            statement="Mixed graph: Spearman correlation of the gate g_i with the true local homophily h_i (mean over "
                      "replicates)",
            paper="experts adapt to local structure (abstract); the brief expects rho > 0.3",
            criterion=greater_than(0.3), measured=float(rho.mean()), tol=RHO,
            ablation=Comparator("the same gate architecture on the same statistics z_i, untrained (random weights)",
                                float(rho_random.mean()), ingredient="training the gate on the few-shot episodes"),
            baselines=[Comparator("the gate's own input statistic cos(x_i, (ÂX)_i), the feature smoothness around "
                                  "the node, used as the gate (no training, no model)", float(rho_smooth.mean())),
                       Comparator("the same smoothness averaged over the node's connected component (label-free; on "
                                  "the mixed graph a region detector; added after the review)",
                                  float(rho_region.mean()))])
claims.test("adaptive-across-homophily",
            statement=f"Worst case over homophily levels {list(P.levels)} of the model minus the best of MLP, "
                      "low-pass and high-pass at that level (points, 3-shot)",
            paper="consistent gains across settings (abstract); our threshold: never more than 2 points below",
            criterion=at_least(-2.0), measured=shortfall("grace"), tol=ACC,
            ablation=Comparator(CMP_LABEL["gmix"], shortfall("gmix"), ingredient=GATE_INFO),
            baselines=[Comparator(CMP_LABEL[m], shortfall(m)) for m in ("mix", "concat", "low")]
            + [Comparator(CMP_LABEL["select"] + " (added after the review)", shortfall("select"))])
claims.test("gain-largest-under-heterophily",
            statement="Gain over a GCN at h = 0 only (not compared across levels): on the purely heterophilous graph, "
                      "5-way 3-shot, the model minus the low-pass model (points)",
            paper="the issue's reading: the improvement is largest on heterophilous graphs; our threshold +5 points "
                  "at h = 0",
            criterion=at_least(5.0), measured=gap("grace", "low", "h=0"), tol=ACC,
            ablation=Comparator(CMP_LABEL["gmix"] + ", minus the low-pass model", gap("gmix", "low", "h=0"),
                                ingredient=GATE_INFO),
            baselines=[Comparator(CMP_LABEL[m] + ", minus the low-pass model", gap(m, "low", "h=0"))
                       for m in ("mlp", "high", "mix", "concat")]
            + [Comparator(CMP_LABEL["id_raw"] + ", minus the low-pass model (added after the review)",
                          gap("id_raw", "low", "h=0"))])



def gkey(name):
    """A glue key for a model or graph name: 'grace+cal' -> 'grace_cal', 'h=0.25' -> 'h025'."""
    return name.replace("+", "_").replace("=", "").replace(".", "")


for m in ALL_ROWS:  # every accuracy of the printed tables: acc_<model>_<graph>_<shots>
    for sp, _ in specs:
        for k in SHOTS:
            glue(f"acc_{gkey(m)}_{gkey(sp)}_{k}", mean_acc(m, sp, k), display=False)
for c in claims.results:  # every test's recorded values: t_<test>_m (method), _a (ablation), _b1, _b2, ...
    if c["role"] == "test":
        glue(f"t_{c['id']}_m", c["measured"], display=False)
        glue(f"t_{c['id']}_a", c["ablation"]["value"], display=False)
        for i, b in enumerate(c["baselines"], 1):
            glue(f"t_{c['id']}_b{i}", b["value"], display=False)
for j, r in enumerate(rho):
    glue(f"rho_rep{j}", float(r), display=False)
for r, name in ((0, "homophilous"), (1, "heterophilous")):  # mean gate per region of the mixed graphs
    glue(f"gate_{name}", float(np.mean([g[graphs[gi]["region"] == r].mean() for g, gi in zip(gates, mixed_ids)])),
         display=False)
worst = min(levels, key=lambda sp: mean_acc("grace", sp) - max(mean_acc(b, sp) for b in ("mlp", "low", "high")))
glue("worst_h", float(worst[2:]), display=False)
glue("worst_grace", mean_acc("grace", worst), display=False)
glue("worst_best", max(mean_acc(b, worst) for b in ("mlp", "low", "high")), display=False)
glue("worst_concat", mean_acc("concat", worst), display=False)
glue("worst_low", mean_acc("low", worst), display=False)
glue("worst_high", mean_acc("high", worst), display=False)
glue("worst_mlp", mean_acc("mlp", worst), display=False)
glue("cal_over_uniform", gap("grace+cal", "grace+uniform", "mixed", 1), display=False)
glue("cal_over_cl2n", gap("grace+cal", "grace+cl2n", "mixed", 1), display=False)
glue("cal_3shot_mixed", gap("grace+cal", "grace", "mixed", 3), display=False)
glue("uniform_h1_1", gap("grace+uniform", "grace", "h=1", 1), display=False)
glue("cl2n_h1_1", gap("grace+cl2n", "grace", "h=1", 1), display=False)
glue("cal_h1_1", gap("grace+cal", "grace", "h=1", 1), display=False)
glue("n_reps", int(P.reps), display=False)
glue("n_steps", int(P.steps), display=False)
# the illustration no-loss-when-homophilous and its comparators (shown, not judged)
for m in ("grace", "gmix", "mix", "concat", "id_low"):
    glue(f"noloss_{m}", gap(m, "low", "h=1"), display=False)
# what meta-training does: each untrained input minus its trained encoder, smallest and largest over the graphs
for untrained, trained in (("id_raw", "mlp"), ("id_low", "low"), ("id_high", "high"), ("id_low", "grace")):
    d = [gap(untrained, trained, sp) for sp, _ in specs]
    glue(f"untrained_gap_{untrained}_{trained}_min", min(d), display=False)
    glue(f"untrained_gap_{untrained}_{trained}_max", max(d), display=False)
# the gain over the low-pass model at every level (for the test measured at h = 0 only)
for m in ("grace", "mlp"):
    for sp in levels:
        glue(f"gainlow_{m}_{gkey(sp)}", gap(m, "low", sp), display=False)
    glue(f"gainlow_{m}_argmax", float(max(levels, key=lambda sp: gap(m, "low", sp))[2:]), display=False)

# %% [markdown]
# ## Claims
#
# Two test ids promise more than their measurement, and the headline map above shows them by id:
# `gain-largest-under-heterophily` measures the gain over the low-pass model at $h=0$ only, not that it is
# largest there, and the MLP, which ignores the graph, shows the same gain; `gate-tracks-homophily` measures,
# on the mixed graph, mostly whether the gate tells the two regions apart. `no-loss-when-homophilous` is an
# illustration (see "The experiment").

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# GRACE-lite is our own small model, built from the brief's reading of the abstract, not the paper's GRACE, so
# nothing below is evidence against the paper's method. None of its six counted tests can credit the paper's
# ideas in this miniature: where GRACE-lite passes, a comparator passes too, and where it fails, a naive
# baseline that uses none of the paper's ideas passes. Two findings of the independent review weigh more than
# any single test. First, meta-training on the base classes leaves each single-filter encoder (MLP, low-pass,
# high-pass) at or below its own untrained input on the novel classes, mostly far below, and GRACE-lite below
# the untrained $\hat A^2X$ on the mixed graph (see "What a skeptic would try"); so every trained model,
# GRACE-lite included, is compared after a loss that neither a gate nor a calibration undoes. Second, with 20
# classes and heterophilous edges spread over all of them, heterophily here is close to randomness (first
# figure): the heterophilous region is best served by no filter at all, which GRACE-lite, having no identity
# expert, cannot choose.
#
# * *Adaptive experts beat fixed filters on the mixed graph* ({repro-status}`experts-beat-fixed-filters`). The
#   better single filter on the mixed graph is the low-pass model ({glue:text}`acc_low_mixed_3:.1f` % against
#   {glue:text}`acc_high_mixed_3:.1f` % for the high-pass one, 3-shot). At this seed GRACE-lite is
#   {glue:text}`t_experts-beat-fixed-filters_m:+.2f` points above it, the ablation with one learned weight
#   {glue:text}`t_experts-beat-fixed-filters_a:+.2f`, the fixed mix {glue:text}`t_experts-beat-fixed-filters_b1:+.2f`
#   and the concatenation {glue:text}`t_experts-beat-fixed-filters_b2:+.2f`. Over the ci sweep GRACE-lite clears
#   the 2-point bar and its band at {repro-seeds}`experts-beat-fixed-filters:method:pass` seeds: on the mixed
#   graph it is about as good as the low-pass model, and no better. The bar is also one that doing nothing
#   clears: the low-pass features $\hat A^2X$, used as embeddings with no training at all, are
#   {glue:text}`t_experts-beat-fixed-filters_b3:+.2f` points above the better *trained* filter (clear of the bar
#   and its band at {repro-seeds}`experts-beat-fixed-filters:baseline3:pass` seeds), so even a pass of GRACE-lite
#   would not show that its experts help.
# * *The gate beats the fixed mix* ({repro-status}`gate-beats-fixed-mix`). GRACE-lite gains
#   {glue:text}`t_gate-beats-fixed-mix_m:+.2f` points over the fixed 1/2–1/2 mix at this seed, and clears the bar
#   and its band at {repro-seeds}`gate-beats-fixed-mix:method:pass` seeds. But the same gate fed no node
#   statistics gains {glue:text}`t_gate-beats-fixed-mix_a:+.2f` (clear of the band at
#   {repro-seeds}`gate-beats-fixed-mix:ablation:pass` seeds). The low-pass model alone is
#   {glue:text}`t_gate-beats-fixed-mix_b2:+.2f` points from the fixed mix at this seed and clears the same bar
#   at {repro-seeds}`gate-beats-fixed-mix:baseline2:pass` seeds, and the untrained $\hat A^2X$ is
#   {glue:text}`t_gate-beats-fixed-mix_b3:+.2f` points above the fixed mix (clear at
#   {repro-seeds}`gate-beats-fixed-mix:baseline3:pass` seeds). The fixed mix is a weak reference: half the weight
#   on the high-pass expert everywhere costs accuracy on a graph whose nodes are half homophilous. What
#   GRACE-lite gains over it is mostly a lean towards the low-pass expert, which one learned weight for the whole
#   graph provides as well.
# * *Calibration helps with one shot* ({repro-status}`calibration-helps-1-shot`). Calibration adds
#   {glue:text}`t_calibration-helps-1-shot_m:+.2f` points at one shot on the mixed graph, but its ablation with
#   uniform assignments adds {glue:text}`t_calibration-helps-1-shot_a:+.2f`, and SimpleShot's CL2N, which takes
#   no class information from the queries, {glue:text}`t_calibration-helps-1-shot_b1:+.2f`: they clear the
#   1-point bar at {repro-seeds}`calibration-helps-1-shot:ablation:pass` and
#   {repro-seeds}`calibration-helps-1-shot:baseline1:pass` seeds. Most of the gain comes from centring the
#   episode and from pulling a one-shot prototype, a single noisy node, towards the queries. The class
#   information of the soft assignments adds {glue:text}`cal_over_uniform:+.2f` points over the uniform ablation
#   and {glue:text}`cal_over_cl2n:+.2f` over CL2N at this seed: it is not needed to clear the brief's bar, which
#   asks only for a gain over no calibration, but it does add to the class-blind calibrations.
# * *The gate tracks local homophily* ({repro-status}`gate-tracks-homophily`). The trained gate's Spearman
#   correlation with the true local homophily is {glue:text}`t_gate-tracks-homophily_m:.2f` at this seed
#   ({glue:text}`rho_rep0:.2f`, {glue:text}`rho_rep1:.2f` and {glue:text}`rho_rep2:.2f` on the three replicate
#   graphs), above the bar and its band at {repro-seeds}`gate-tracks-homophily:method:pass` seeds. The feature
#   smoothness $\cos(x_i,(\hat AX)_i)$, one of the gate's own inputs, correlates
#   {glue:text}`t_gate-tracks-homophily_b1:.2f` without any training (above the band at
#   {repro-seeds}`gate-tracks-homophily:baseline1:pass` seeds), the untrained gate
#   {glue:text}`t_gate-tracks-homophily_a:.2f`. On the mixed graph the measurement is largely one of region
#   detection: the smoothness averaged over each connected component, which gives all the nodes of a region one
#   value, correlates {glue:text}`t_gate-tracks-homophily_b2:.2f` with $h_i$ (above the band at
#   {repro-seeds}`gate-tracks-homophily:baseline2:pass` seeds). The trained gate moved little from its starting
#   value 1/2: its mean is {glue:text}`gate_homophilous:.2f` on the nodes of the homophilous region and
#   {glue:text}`gate_heterophilous:.2f` on those of the heterophilous one (second figure). Trained on the episode
#   loss alone, in {glue:text}`n_steps` steps, it learns a lean towards the low-pass expert and a per-node
#   preference weaker than the statistic it is fed.
# * *Adaptive across homophily levels* ({repro-status}`adaptive-across-homophily`). At this seed GRACE-lite's
#   worst level is $h=$ {glue:text}`worst_h:g`, where it reaches {glue:text}`worst_grace:.1f` % against
#   {glue:text}`worst_best:.1f` % for the best single model there (MLP {glue:text}`worst_mlp:.1f` %, low-pass
#   {glue:text}`worst_low:.1f` %, high-pass {glue:text}`worst_high:.1f` %). Where neither filter helps, the raw
#   features are best, and GRACE-lite has no branch that passes them through unfiltered: its gate can only
#   choose between the two filters. It clears the bar and its band at
#   {repro-seeds}`adaptive-across-homophily:method:pass` seeds. A naive remedy suffices: choosing, for each graph,
#   the one trained single-filter model that does best on episodes of the base classes comes within
#   {glue:text}`t_adaptive-across-homophily_b4:+.2f` points of the best at its worst level (clear of the bar and
#   its band at {repro-seeds}`adaptive-across-homophily:baseline4:pass` seeds). The other comparators fail this
#   measurement at this seed: the learned global weight {glue:text}`t_adaptive-across-homophily_a:+.2f`, the
#   fixed mix {glue:text}`t_adaptive-across-homophily_b1:+.2f`, the concatenation, which has the raw branch but
#   loses where averaging is right, {glue:text}`t_adaptive-across-homophily_b2:+.2f`, and the low-pass model
#   {glue:text}`t_adaptive-across-homophily_b3:+.2f`.
# * *Gain over a GCN at $h=0$* ({repro-status}`gain-largest-under-heterophily`). The test's id says "largest
#   under heterophily", but it measures only the gain on the purely heterophilous graph. There GRACE-lite is
#   {glue:text}`t_gain-largest-under-heterophily_m:.1f` points above the low-pass model; so are the MLP
#   ({glue:text}`t_gain-largest-under-heterophily_b1:.1f`) and the high-pass model
#   ({glue:text}`t_gain-largest-under-heterophily_b2:.1f`), which do not average over neighbours, the learned
#   global weight ({glue:text}`t_gain-largest-under-heterophily_a:.1f`), which can turn its low-pass branch down,
#   and, by more, the raw features with no training at all ({glue:text}`t_gain-largest-under-heterophily_b5:.1f`).
#   Across levels GRACE-lite's gain over the low-pass model is largest at $h=$ {glue:text}`gainlow_grace_argmax:g`
#   ({glue:text}`gainlow_grace_h0:+.1f`, {glue:text}`gainlow_grace_h025:+.1f`, {glue:text}`gainlow_grace_h05:+.1f`,
#   {glue:text}`gainlow_grace_h075:+.1f` and {glue:text}`gainlow_grace_h1:+.1f` points at the five levels from $h=0$
#   to $h=1$, in order), and the MLP's at $h=$ {glue:text}`gainlow_mlp_argmax:g`
#   ({glue:text}`gainlow_mlp_h0:+.1f` at $h=0$, {glue:text}`gainlow_mlp_h1:+.1f` at $h=1$). The measurement shows
#   the low-pass model's collapse under heterophily ({glue:text}`acc_low_h0_3:.1f` % at $h=0$, where averaging
#   mixes a node with other classes; chance is 20 %), not something GRACE-lite adds: at $h=0$ it reaches {glue:text}`acc_grace_h0_3:.1f` %, the
#   MLP, which ignores the graph, {glue:text}`acc_mlp_h0_3:.1f` %.
# * *No loss on a homophilous graph* (an illustration, not counted). On the $h=1$ graph, where the low-pass
#   model reaches {glue:text}`acc_low_h1_3:.1f` %, GRACE-lite is {glue:text}`noloss_grace:+.2f` points from it.
#   Anything that can lean on its low-pass branch, or does nothing new, meets the brief's "$\ge-1$": the learned
#   global weight is at {glue:text}`noloss_gmix:+.2f`, the fixed mix at {glue:text}`noloss_mix:+.2f` and the
#   untrained $\hat A^2X$ at {glue:text}`noloss_id_low:+.2f`. The concatenation, whose raw branch adds noise where
#   averaging is right, comes to {glue:text}`noloss_concat:+.2f`, near the bar (within its tolerance band at
#   this seed).
#
# **At full scale** (4000 nodes, 9 homophily levels, 5 replicate graphs, 200 training steps, 1000 test
# episodes). The full-scale column of the judged table comes from this page's full-scale sweep (seeds 0-2,
# every comparator included); this text quotes none of its numbers.
#
# **What this says about the paper.** Little. The model is ours, and its failures and its lack of specificity
# are evidence about GRACE-lite, not about GRACE. What the miniature does show is the problem the paper
# addresses: on our graphs a fixed low-pass filter is excellent under homophily and worse than ignoring the graph
# under heterophily, a fixed high-pass filter is poor under homophily, and a mixed graph leaves both in between
# (results figure). But at our scale the per-node gate is not what helps on the mixed graph (one learned weight, with no
# node information, clears the same bar over the fixed mix at {repro-seeds}`gate-beats-fixed-mix:ablation:pass`
# seeds, and the untrained $\hat A^2X$ at {repro-seeds}`gate-beats-fixed-mix:baseline3:pass`); the gate learns
# less about local homophily than the smoothness statistic it is fed, and much less than a region detector;
# choosing one filter per graph on the base classes adapts across homophily levels better than the gate; and the
# calibration's class-specific assignments are not needed to clear the brief's bar. The mixed graph was meant to
# favour the method by construction (two regions, one for each filter), but with 20 classes its heterophilous
# region is near-random and best served by no filter, and meta-training costs the encoders accuracy on the novel
# classes. Even on this graph, the paper's two ingredients are not needed to clear the brief's bars.
#
# ## What a skeptic would try
#
# Reviewed by: an independent reviewer (a helper that did not write the page), with the rubric, the page, its
# record, its ci and full sweeps and the brief. They re-ran the page's ci pipeline at seeds 0–9 beside naive
# baselines (untrained encoders, one-hop SGC, a label-free "component gate", model selection on the base
# classes, four more class-blind calibrations, other gate statistics), ran a longer training diagnostic, checked
# where the labels of the synthetic graphs sit in the spectrum, and searched a public-code index for the official
# code. What decides a test is now measured by this notebook on the same graphs and test episodes (seed 0, mean
# over the replicate graphs and the test episodes, 3-shot unless said); what this notebook does not measure is
# reported in words only.
#
# * **Untrained encoders** (now a naive baseline of three tests): on the mixed graph $\hat A^2X$ used as the
#   embedding, with no model and no training, reaches {glue:text}`acc_id_low_mixed_3:.1f` %, against
#   {glue:text}`acc_grace_mixed_3:.1f` % for GRACE-lite and {glue:text}`acc_low_mixed_3:.1f` % for the trained
#   low-pass model; it clears the bars of `experts-beat-fixed-filters` and `gate-beats-fixed-mix` at
#   {repro-seeds}`experts-beat-fixed-filters:baseline3:pass` and
#   {repro-seeds}`gate-beats-fixed-mix:baseline3:pass` seeds. The untrained raw features reach
#   {glue:text}`acc_id_raw_h0_3:.1f` % at $h=0$ (the trained MLP {glue:text}`acc_mlp_h0_3:.1f` %) and clear the bar
#   of `gain-largest-under-heterophily` at {repro-seeds}`gain-largest-under-heterophily:baseline5:pass` seeds.
# * **Meta-training lowers accuracy on the novel classes.** Over the six graphs of this seed, the untrained raw
#   features minus the trained MLP range from {glue:text}`untrained_gap_id_raw_mlp_min:+.1f` to
#   {glue:text}`untrained_gap_id_raw_mlp_max:+.1f` points; $\hat A^2X$ minus the trained low-pass model from
#   {glue:text}`untrained_gap_id_low_low_min:+.1f` to {glue:text}`untrained_gap_id_low_low_max:+.1f`;
#   $(I-\hat A)X$ minus the trained high-pass model from {glue:text}`untrained_gap_id_high_high_min:+.1f` to
#   {glue:text}`untrained_gap_id_high_high_max:+.1f`; and $\hat A^2X$ minus the trained GRACE-lite from
#   {glue:text}`untrained_gap_id_low_grace_min:+.1f` to {glue:text}`untrained_gap_id_low_grace_max:+.1f`. At
#   $h=0.5$, for example: raw features {glue:text}`acc_id_raw_h05_3:.1f` % against the MLP's
#   {glue:text}`acc_mlp_h05_3:.1f` %, $\hat A^2X$ {glue:text}`acc_id_low_h05_3:.1f` % against the low-pass model's
#   {glue:text}`acc_low_h05_3:.1f` %. In the reviewer's longer runs (more training steps, two seeds) the training
#   losses had levelled off well before the end and the trained encoders stayed below their inputs, so the gap is
#   not a matter of training length. This also explains the "MLP" row of the tables, well below the untrained
#   raw features.
# * **One filter per graph, chosen on the base classes** (now the naive baseline of
#   `adaptive-across-homophily`): its worst-level shortfall is {glue:text}`t_adaptive-across-homophily_b4:+.2f`
#   points against GRACE-lite's {glue:text}`t_adaptive-across-homophily_m:+.2f` (the choice per graph is printed
#   under the accuracy tables).
# * **A region detector as the gate** (now a naive baseline of `gate-tracks-homophily`): the smoothness averaged
#   over the connected component correlates {glue:text}`t_gate-tracks-homophily_b2:.2f` with local homophily, the
#   smoothness itself {glue:text}`t_gate-tracks-homophily_b1:.2f`, the trained gate
#   {glue:text}`t_gate-tracks-homophily_m:.2f`, a gate with random weights on the same inputs
#   {glue:text}`t_gate-tracks-homophily_a:.2f`.
# * **One learned weight instead of the per-node gate** (the ablation of every test about the gate): on the
#   mixed graph {glue:text}`acc_gmix_mixed_3:.1f` %, against {glue:text}`acc_grace_mixed_3:.1f` % for GRACE-lite
#   and {glue:text}`acc_mix_mixed_3:.1f` % for the fixed mix; {glue:text}`acc_gmix_h0_3:.1f` % at $h=0$ and
#   {glue:text}`acc_gmix_h1_3:.1f` % at $h=1$.
# * **A single fixed filter against the fixed mix**: on the mixed graph the low-pass model alone reaches
#   {glue:text}`acc_low_mixed_3:.1f` %, the fixed mix {glue:text}`acc_mix_mixed_3:.1f` % at this seed; over the
#   ci sweep the low-pass model beats the fixed mix by more than the 1-point bar of `gate-beats-fixed-mix` at
#   {repro-seeds}`gate-beats-fixed-mix:baseline2:pass` seeds.
# * **Raw and filtered features side by side** (H2GCN/SIGN-style concatenation, no gate):
#   {glue:text}`acc_concat_mixed_3:.1f` % on the mixed graph, {glue:text}`acc_concat_h025_3:.1f` % at $h=0.25$
#   (GRACE-lite {glue:text}`acc_grace_h025_3:.1f` %, the MLP {glue:text}`acc_mlp_h025_3:.1f` %) and
#   {glue:text}`acc_concat_h1_3:.1f` % at $h=1$.
# * **SimpleShot's CL2N instead of the calibration**: at one shot on the mixed graph
#   {glue:text}`acc_grace_cl2n_mixed_1:.1f` %, against {glue:text}`acc_grace_cal_mixed_1:.1f` % with the calibration,
#   {glue:text}`acc_grace_uniform_mixed_1:.1f` % with its uniform ablation and {glue:text}`acc_grace_mixed_1:.1f` %
#   with none. The soft assignments earn their place on the homophilous graph, where the classes are already
#   separated and pulling every prototype towards one query mean blurs them: at $h=1$ and one shot, uniform
#   assignments change the accuracy by {glue:text}`uniform_h1_1:+.2f` points, the soft ones by
#   {glue:text}`cal_h1_1:+.2f` and CL2N by {glue:text}`cl2n_h1_1:+.2f`. The reviewer also tried four more
#   class-blind calibrations (the shift alone, L2 normalisation alone, CL2N centred on the whole graph's mean
#   embedding, and CL2N followed by the uniform rectification): each cleared the 1-point bar at every seed they
#   ran, and the soft assignments stayed above the best of them at every seed, though by less than the bar plus
#   its band at most seeds. This notebook does not measure those four.
# * **Not measured here**: SGC with one hop of averaging, trained as the page trains (it failed every test it was
#   tried on), and a "component gate": GRACE-lite's experts with the gate fixed to 1 on the smoother connected
#   component and 0 on the other, trained as GRACE-lite is. It is an upper bound for the per-node idea rather
#   than a comparator; it cleared the 2-point bar of `experts-beat-fixed-filters` at some seeds but not at most,
#   while the untrained $\hat A^2X$, which needs no training, clears it at
#   {repro-seeds}`experts-beat-fixed-filters:baseline3:pass` seeds.
# * **The official code**: the reviewer found its README in a public-code index (see the deviations); the code
#   itself was not obtained, here or by the reviewer.
# * **The old controls, dropped**: the same difference on another graph (not the same measurement), the MLP
#   minus the low-pass model on the homophilous graph (a model that ignores the graph where the graph is all
#   that helps), and the gate fed a permuted node's statistics (at chance by construction).
#
# Not tried: the brief's paired-class heterophily, which the page replaced (see the deviations); a third,
# identity expert inside GRACE-lite, or a meta-training that cannot fall below the untrained input (for
# example an identity initialisation for every model alike), both changes of the method or its setting rather
# than comparators; learning rates tuned per model.
#
# ## What the miniature cannot show
#
# * The paper's architecture, losses, calibration and theory: none were available, and there are no reported
#   accuracies to set beside ours. Its code exists (the README was found) but was not obtained, so no official
#   setting could be run beside ours.
# * Real graphs (Cora, CiteSeer, Amazon-Computer, Coauthor-CS, DBLP, CoraFull, ogbn-arxiv), whose homophily
#   varies gradually rather than in two clean regions, with degree heterogeneity and class imbalance, and the
#   brief's LFR graphs.
# * Heterophily that carries class information (edges to a few related classes rather than to any other class),
#   where a high-pass filter has something to keep.
# * Deeper, nonlinear experts, a gate with more training or its own objective, or a third, identity expert
#   (which `adaptive-across-homophily` suggests would matter at intermediate homophily).
# * Transductive calibration beyond one rectification step, and with query sets that are not class-balanced
#   (ours always hold 10 queries per class, which makes the shift towards the query mean harmless).
