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

from repro.claims import Claims, at_least, greater_than, tolerance
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
for h in (0.9, 0.5, 0.1):
    g = K.make_mixed_homophily_graph(400, 4, (h,), STUBS, 2, 1.0, spec_rng)
    lam, U = np.linalg.eigh(np.eye(400) - K.normalized_adjacency(g["A"]).toarray())
    Y = np.eye(4)[g["y"]] - 0.25  # class indicators, centred
    w = ((U.T @ Y) ** 2).sum(1)   # energy of the labels at each frequency
    energy[h] = (lam, np.cumsum(w) / w.sum())
fig, axes = plt.subplots(1, 2, figsize=(9, 3.1))
axes[0].plot(lam_grid, (1 - lam_grid) ** HOPS, label=r"low-pass $\hat A^2$: $(1-\lambda)^2$")
axes[0].plot(lam_grid, lam_grid, label=r"high-pass $I-\hat A$: $\lambda$")
axes[0].set(xlabel=r"frequency $\lambda$ (eigenvalue of $L$)", ylabel="gain of the filter",
            title="What the two filters keep")
axes[0].legend(fontsize=8)
for h, (lam, cum) in energy.items():
    axes[1].plot(lam, cum, label=f"edge homophily {h}")
axes[1].set(xlabel=r"frequency $\lambda$", ylabel="share of label energy below $\\lambda$",
            title="Where the classes live (400 nodes, 4 classes)")
axes[1].legend(fontsize=8)
plt.show()

# %% [markdown]
# On a homophilous graph (blue) the labels sit at low frequencies, which the low-pass filter keeps; on a
# heterophilous one (green) they sit at high frequencies, above $\lambda=1$, where the low-pass gain
# $(1-\lambda)^2$ is small at first and the high-pass gain $\lambda$ is large.
#
# ## The claim
#
# The paper (Liu et al., NeurIPS 2025) argues that graph few-shot methods apply one fixed filter to the whole
# graph, low-pass or high-pass, although real graphs mix homophilous and heterophilous regions, and that
# they assume the few labelled support nodes are distributed like the queries, which with one or three shots
# is rarely true. Its method, GRACE, combines a low-pass and a high-pass *spectrum expert* node by node and
# *calibrates* the support set against the query set; the paper proves a generalisation bound and reports
# that GRACE beats the state of the art on seven benchmarks (Cora, CiteSeer, Amazon-Computer, Coauthor-CS,
# DBLP, CoraFull, ogbn-arxiv). We could read only the abstract and the outline of its Algorithm 1 (low-pass
# expert, Eq. 1; high-pass expert, Eqs. 2–3; integration of the two); its equations, its numbers and its
# code were out of reach. **What we test is therefore a small model of our own design built on the brief's
# reading of the idea ("GRACE-lite"), not the paper's architecture**, on synthetic graphs, for the
# direction of the paper's claims.
#
# ## The method
#
# **Encoders.** Every model is linear in precomputed filtered features (as in SGC), each filter's output
# rescaled to unit mean squared row norm (`K.filter_bank`):
#
# * *MLP* (ignores the graph): $h_i = x_i W$;
# * *low-pass* (the GCN/SGC baseline): $h_i = (\hat A^2X)_i W_L$;
# * *high-pass*: $h_i = ((I-\hat A)X)_i W_H$;
# * *fixed mix* (both experts, one global weight): $h_i = \tfrac12(\hat A^2X)_iW_L + \tfrac12((I-\hat A)X)_iW_H$;
# * *GRACE-lite* (both experts, mixed per node):
#
# $$ h_i = g_i\,(\hat A^2X)_iW_L + (1-g_i)\,((I-\hat A)X)_iW_H,\qquad
#    g_i=\sigma\big(w_2^\top\tanh(W_1z_i+b_1)+b_2\big), $$
#
# where the gate sees three label-free statistics $z_i$ of node $i$ (`K.gate_features`, standardised): its
# log-degree and the cosine similarities of $x_i$ with $(\hat AX)_i$ and $(\hat A^2X)_i$, a measure of how
# smooth the features are around it. The gate starts at $g_i=\tfrac12$, so GRACE-lite starts as the fixed mix
# and can only gain by learning where to lean.
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
# ## The experiment
#
# * **Graphs** (`K.make_mixed_homophily_graph`, a contextual stochastic block model): 20 classes, nodes
#   $i$ of class $i\bmod 20$; features $x_i=\mu_{y_i}+2\varepsilon_i$ in 16 dimensions, class means and noise
#   standard normal (raw features alone give about 50% in 5-way 3-shot episodes); every node sends 5 edges
#   (mean degree 10) inside its region, each to its own class with probability $h_r$ (the region's homophily)
#   and otherwise to a node of a uniformly chosen other class. *Homophily levels:* one region, $h$ on a grid
#   from 0 to 1 (5 levels at ci scale, 9 at full). *The mixed graph:* half the nodes in a homophilous region
#   ($h=0.9$), half in a heterophilous one ($h=0.1$), edge homophily 0.5. Every graph has 2000 nodes (4000 at
#   full scale) and is drawn 3 times (5 at full) with independent features, edges, initialisations and
#   episodes: the spread in the figures is the standard deviation over these replicate graphs.
# * **Split:** classes 0–11 are base (training), 12–19 novel (test); the class means are random, so the
#   split loses nothing. 60 training steps of 2 episodes per step and graph (200 at full scale); 200 test
#   episodes per graph and shot (1000 at full), the same episodes for every model.
# * **Controls:** the MLP (no graph), the low-pass model (the GCN/SGC baseline), the high-pass model, the
#   fixed mix (GRACE-lite without per-node gating), calibration with uniform instead of soft assignments
#   (no class information from the queries), the trained gate fed another node's statistics, and, for the
#   claims about adaptation, graphs with a single homophily level, where there is nothing to adapt to.
#
# **Claims, fixed before the first run** (the first four from the brief's checks; accuracies in points,
# 5-way, averaged over the test episodes and the replicate graphs):
#
# 1. *Adaptive experts beat fixed filters on the mixed graph* (brief: "+2 points"): 3-shot accuracy of
#    GRACE-lite minus the better of the low-pass and high-pass models $\ge2$. Control: the same difference on
#    the purely heterophilous graph ($h=0$), where a single filter (high-pass) is already right everywhere.
# 2. *The per-node gate is what helps* (our threshold): GRACE-lite minus the fixed mix $\ge1$ point on the
#    mixed graph, 3-shot. Control: the same difference on the $h=0$ graph.
# 3. *No loss on a homophilous graph* (brief): on the $h=1$ graph, GRACE-lite minus the low-pass model
#    $\ge-1$ point. Control: the MLP minus the low-pass model.
# 4. *Calibration helps with one shot* (brief: "+1 point"): on the mixed graph, 1-shot accuracy of GRACE-lite
#    with calibration minus without $\ge1$ point. Control: calibration with uniform assignments.
# 5. *The gate tracks local homophily* (brief): Spearman correlation between $g_i$ and the true $h_i$ over
#    the nodes of the mixed graph (mean over replicates) $>0.3$. Control: the same trained gate fed the
#    statistics $z$ of a randomly permuted node.
# 6. *Adaptive across homophily levels* (our threshold): at every homophily level, GRACE-lite is at most 2
#    points below the best single-filter model (MLP, low-pass, high-pass) at that level; measured as the
#    worst case over levels of the difference, $\ge-2$. Control: the low-pass (GCN) model, same measurement.
# 7. *The gain over a GCN is largest under heterophily* (the reading of the paper; our threshold):
#    GRACE-lite minus the low-pass model at $h=0$ $\ge5$ points. Control: the same difference at $h=1$.
#
# **Deviations from the paper**
#
# * The model is ours (GRACE-lite, after the brief), not the paper's: its expert equations, gating network,
#   calibration and losses were not available. Our experts are linear in precomputed filters (SGC-style, one
#   layer); the paper's are presumably deeper GNNs.
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
#   graph ($h=0.5$), not tuned per model; no validation split, no early stopping.
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
# ### Few-shot tests on the novel classes

# %%
episodes = {k: K.sample_episodes(table, NOVEL, N_WAY, k, Q_TEST, P.test_episodes, P.rng, batch=Gf) for k in SHOTS}
acc = {}  # (model, shot) -> accuracy per graph, in points, averaged over the episodes
for m in K.MODES:
    emb = K.embed_all(model, feats, owner, sets_of[m])
    for k in SHOTS:
        variants = (None, "cal", "uniform") if m == "grace" else (None,)
        for cal in variants:
            name = m if cal is None else f"{m}+{cal}"
            acc[name, k] = 100 * K.episode_accuracy(emb, *episodes[k], calibrate=cal).mean(1).reshape(S, P.reps)
spec_index = {name: i for i, (name, _) in enumerate(specs)}


def mean_acc(name, spec, k=3):
    """Accuracy in points, mean over test episodes and replicate graphs."""
    return float(acc[name, k][spec_index[spec]].mean())


LABELS = {"mlp": "MLP (no graph)", "low": "low-pass (SGC/GCN)", "high": "high-pass", "mix": "fixed 1/2-1/2 mix",
          "grace": "GRACE-lite (per-node gate)", "grace+cal": "GRACE-lite + calibration",
          "grace+uniform": "GRACE-lite + uniform calibration"}
rows = [(LABELS[m], *(f"{mean_acc(m, sp, k):5.1f}" for sp in ("h=0", "h=1", "mixed") for k in SHOTS))
        for m in (*K.MODES, "grace+cal", "grace+uniform")]
print(f"{'5-way accuracy (%)':34s}" + "".join(f"{sp + f' {k}-shot':>14s}" for sp in ("h=0", "h=1", "mixed") for k in SHOTS))
for r in rows:
    print(f"{r[0]:34s}" + "".join(f"{v:>14s}" for v in r[1:]))
print("\n3-shot accuracy (%) by homophily level, mean over replicates:")
print(f"{'':34s}" + "".join(f"{sp:>9s}" for sp, _ in specs))
for m in (*K.MODES, "grace+cal"):
    print(f"{LABELS[m]:34s}" + "".join(f"{mean_acc(m, sp):9.1f}" for sp, _ in specs))

# %% [markdown]
# ## Results
#
# ### Accuracy against homophily
#
# The central figure: 5-way 3-shot accuracy on the novel classes of each graph, against its edge homophily,
# mean and standard deviation over the replicate graphs. The mixed graph (edge homophily 0.5, but half of
# it at 0.9 and half at 0.1) is drawn apart, at the right.

# %%
STYLE = {"mlp": ("0.5", "s"), "low": ("C0", "o"), "high": ("C3", "v"), "mix": ("C2", "D"), "grace": ("C1", "*"),
         "grace+cal": ("C4", "P")}
lv = slice(0, S - 1)
fig, (ax, axm) = plt.subplots(1, 2, figsize=(10, 3.8), gridspec_kw=dict(width_ratios=(3, 1.4)))
for m, (col, mk) in STYLE.items():
    a = acc[m, 3]
    ax.errorbar(edge_h[lv].mean(1), a[lv].mean(1), yerr=a[lv].std(1), color=col, marker=mk, ms=6, capsize=3,
                label=LABELS[m], ls="--" if m == "grace+cal" else "-")
ax.axhline(100 / N_WAY, color="k", lw=0.8, ls=":", label="chance (5-way)")
ax.set(xlabel="edge homophily of the graph (share of same-class edges)", ylabel="5-way 3-shot accuracy (%)",
       title="Single-homophily graphs", ylim=(0, 102))
ax.legend(fontsize=8, loc="lower right")
xs = np.arange(len(STYLE))
mixed = [acc[m, 3][S - 1] for m in STYLE]
axm.bar(xs, [a.mean() for a in mixed], yerr=[a.std() for a in mixed], capsize=3,
        color=[c for c, _ in STYLE.values()])
axm.set(xticks=xs, ylabel="5-way 3-shot accuracy (%)", ylim=(0, 102),
        title=f"Mixed graph (regions h = {MIXED[0]}, {MIXED[1]})")
axm.set_xticklabels(["MLP", "low", "high", "mix", "GRACE", "+cal"], rotation=45)
plt.show()

# %% [markdown]
# ### What the gate learned, and what calibration adds
#
# Left: the gate $g_i$ (the weight of the low-pass expert) of 800 random nodes of the first mixed graph,
# against their local homophily $h_i$ (jittered), with the binned means over all its nodes. Right: 1-shot and 3-shot accuracy of GRACE-lite
# on the mixed graph without calibration, with calibration, and with the uniform-assignment control.

# %%
mixed_ids = spec_index["mixed"] * P.reps + np.arange(P.reps)
rho, rho_perm, gates, homs = [], [], [], []
with torch.no_grad():
    for gi in mixed_ids:
        z = feats["Z"][gi][None]
        gate = model.gate(z, sets=sets_of["grace"][[gi]])[0].numpy()
        perm = P.rng.permutation(P.n)
        gate_perm = model.gate(z[:, perm], sets=sets_of["grace"][[gi]])[0].numpy()
        h_loc = K.local_homophily(graphs[gi]["A"], graphs[gi]["y"])
        rho.append(K.spearman(gate, h_loc))
        rho_perm.append(K.spearman(gate_perm, h_loc))
        gates.append(gate)
        homs.append(h_loc)
rho, rho_perm = np.array(rho), np.array(rho_perm)
print(f"Spearman(gate, local homophily) on the mixed graphs: {np.round(rho, 3)}; permuted inputs: {np.round(rho_perm, 3)}")

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
width = 0.25
for j, (v, col) in enumerate((("grace", "C1"), ("grace+cal", "C4"), ("grace+uniform", "0.6"))):
    a = [acc[v, k][S - 1] for k in SHOTS]
    ax2.bar(np.arange(2) + (j - 1) * width, [x.mean() for x in a], width, yerr=[x.std() for x in a], capsize=3,
            color=col, label=LABELS[v])
ax2.set(xticks=np.arange(2), ylabel="5-way accuracy (%)", title="Calibration on the mixed graph", ylim=(0, 100))
ax2.set_xticklabels([f"{k}-shot" for k in SHOTS])
ax2.legend(fontsize=8, loc="lower right")
plt.show()

# %% [markdown]
# ### The paper's numbers
#
# None: the paper's tables were out of reach (the brief found its datasets, not its accuracies), so there
# is no row of reported values to set beside ours. The claims below compare GRACE-lite with the brief's
# thresholds and with controls measured in the same run, on synthetic graphs only.

# %%
ACC = tolerance(abs=0.5, why="accuracy difference (points) after 60-200 float64 Adam steps: a query near a tie "
                "between two prototypes may flip under other float kernels")
RHO = tolerance(abs=0.02, why="rank correlation of a trained gate with fixed labels (see the accuracy tolerance)")
PAPER = "GRACE consistently beats state-of-the-art baselines (abstract); no accuracies retrieved"
best_fixed = {sp: max(mean_acc("low", sp), mean_acc("high", sp)) for sp in ("mixed", "h=0")}
claims.check("experts-beat-fixed-filters",
             statement="Mixed graph, 5-way 3-shot: GRACE-lite minus the better of the low-pass and high-pass models (points)",
             paper=PAPER + "; the brief expects >= +2 points", criterion=at_least(2.0),
             measured=mean_acc("grace", "mixed") - best_fixed["mixed"],
             control=mean_acc("grace", "h=0") - best_fixed["h=0"],
             control_label="the same difference on the purely heterophilous graph (h = 0): no local heterogeneity",
             tol=ACC)
claims.check("gate-beats-fixed-mix",
             statement="Mixed graph, 5-way 3-shot: GRACE-lite minus the fixed 1/2-1/2 mix of the same experts (points)",
             paper="node-adaptive experts, against fixed global filters (abstract); no numbers retrieved",
             criterion=at_least(1.0), measured=mean_acc("grace", "mixed") - mean_acc("mix", "mixed"),
             control=mean_acc("grace", "h=0") - mean_acc("mix", "h=0"),
             control_label="the same difference on the purely heterophilous graph (h = 0)", tol=ACC)
claims.check("no-loss-when-homophilous",
             statement="Purely homophilous graph (h = 1), 5-way 3-shot: GRACE-lite minus the low-pass model (points)",
             paper="not in the abstract; the brief expects >= -1 point", criterion=at_least(-1.0),
             measured=mean_acc("grace", "h=1") - mean_acc("low", "h=1"),
             control=mean_acc("mlp", "h=1") - mean_acc("low", "h=1"),
             control_label="the MLP (ignores the graph) minus the low-pass model", tol=ACC)
claims.check("calibration-helps-1-shot",
             statement="Mixed graph, 5-way 1-shot: GRACE-lite with cross-set calibration minus without (points)",
             paper="cross-set distribution calibration improves generalisation (abstract); the brief expects >= +1 point",
             criterion=at_least(1.0), measured=mean_acc("grace+cal", "mixed", 1) - mean_acc("grace", "mixed", 1),
             control=mean_acc("grace+uniform", "mixed", 1) - mean_acc("grace", "mixed", 1),
             control_label="calibration with uniform assignments (no class information from the queries)", tol=ACC)
claims.check("gate-tracks-homophily",
             statement="Mixed graph: Spearman correlation of the gate g_i with the true local homophily h_i (mean over replicates)",
             paper="experts adapt to local structure (abstract); the brief expects rho > 0.3",
             criterion=greater_than(0.3), measured=float(rho.mean()), control=float(rho_perm.mean()),
             control_label="the same trained gate fed the statistics of a randomly permuted node", tol=RHO)
levels = [f"h={h:g}" for h in P.levels]
shortfall = {m: min(mean_acc(m, sp) - max(mean_acc(b, sp) for b in ("mlp", "low", "high")) for sp in levels)
             for m in ("grace", "low")}
claims.check("adaptive-across-homophily",
             statement=f"Worst case over homophily levels {list(P.levels)} of GRACE-lite minus the best of MLP, "
                       "low-pass and high-pass at that level (points, 3-shot)",
             paper="consistent gains across settings (abstract); our threshold: never more than 2 points below",
             criterion=at_least(-2.0), measured=shortfall["grace"], control=shortfall["low"],
             control_label="the low-pass (GCN/SGC) model, same measurement", tol=ACC)
claims.check("gain-largest-under-heterophily",
             statement="Purely heterophilous graph (h = 0), 5-way 3-shot: GRACE-lite minus the low-pass model (points)",
             paper="the issue's reading: the improvement is largest on heterophilous graphs; our threshold +5 points",
             criterion=at_least(5.0), measured=mean_acc("grace", "h=0") - mean_acc("low", "h=0"),
             control=mean_acc("grace", "h=1") - mean_acc("low", "h=1"),
             control_label="the same difference on the purely homophilous graph (h = 1)", tol=ACC)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Partial, and weaker than seed 0 alone suggests.** At ci scale and seed 0, two of the five claims that
# count are reproduced, three are not, and two are uninformative because their control passes too. No
# criterion has changed since the first run. The numbers below are from seed 0 at ci scale (3 replicate
# graphs of each kind, 200 test episodes each) unless they say otherwise; the table "Across seeds and
# scales" gives every claim's pass rate over seeds 0–9 and its full-scale status, and the text gives only
# what that table does not carry.
#
# * *Reproduced: no loss on a homophilous graph* (claim 3), at every seed. On the $h=1$ graph GRACE-lite
#   matches the low-pass model (99.9% against 99.8%, 3-shot), while the MLP, which ignores the graph, is 60
#   points lower. The gate gives the low-pass expert enough weight that the high-pass branch does not get in
#   the way.
# * *Reproduced: the gain over a GCN is largest under heterophily* (claim 7), at every seed: +10.0 points over
#   the low-pass model at $h=0$, +0.1 at $h=1$. Read it with care. The gain comes from the low-pass model
#   collapsing (27% at $h=0$, where averaging mixes a node with other classes), not from GRACE-lite doing
#   better than a graph-free model: at $h=0$ the MLP (38.1%) and the high-pass model (37.4%) are as good as
#   GRACE-lite (37.3%).
# * *Not reproduced: adaptive experts beat fixed filters by 2 points on the mixed graph* (claim 1), at no
#   seed. Seed 0 is the most favourable of the ten: +1.98 points (GRACE-lite 63.5% against the low-pass
#   model's 61.5%); over seeds 0–9 the median is $-0.2$ points, from $-5.1$ to $+2.0$. On the mixed graph
#   GRACE-lite is, in effect, as good as the low-pass model and no better.
# * *Not reproduced: the gate tracks local homophily* (claim 5): Spearman 0.26 at seed 0 (0.50, 0.38 and
#   $-0.09$ on the three replicates), against 0.01 with permuted inputs; above 0.3 at 3 of 10 seeds, median
#   0.19. The second figure shows why: the gate moved only a little away from its starting value 1/2, to
#   about 0.58 on heterophilous and 0.65 on homophilous nodes. Our gate starts with zero output weights and
#   trains on the episode loss alone, in 60 steps (200 at full scale); it learns a global lean towards the
#   low-pass expert and only a weak per-node preference. The paper's experts and gating, which we could not
#   read, may learn this switch far better.
# * *Not reproduced: adaptive across homophily levels* (claim 6), at 9 of 10 seeds: at $h=0.25$ GRACE-lite is
#   4.1 points below the MLP (39.0% against 43.1%). At that level neither filter helps (low-pass 36.7%,
#   high-pass 32.4%) and the raw features are best, but GRACE-lite has no branch that passes the features
#   through unfiltered: its two experts are the only choices, and the gate cannot choose "neither". The
#   low-pass control is far worse ($-10.9$, at $h=0$).
# * *Uninformative at seed 0: the gate beats the fixed mix* (claim 2): +1.65 points on the mixed graph, but
#   also +1.2 on the single-level $h=0$ graph, so the gain does not need a mixture of regions: it is mostly
#   the learned global weight of the two experts, which the fixed 1/2–1/2 mix lacks. Over seeds 0–9 the
#   claim passes at 8 seeds (median +2.7 points) but its control passes at 7, so it holds against a failing
#   control at 3 seeds only (seed-sensitive).
# * *Uninformative: calibration helps with one shot* (claim 4), at every seed: +6.3 points at 1 shot on the
#   mixed graph (48.2% to 54.5%), large, but the control with uniform assignments gains +4.4 too (at every
#   seed, between +2.8 and +4.4). Most of the gain comes from the first-moment shift and from pulling every
#   one-shot prototype towards the query mean (a shrinkage that reduces the noise of a single support node),
#   not from the class information in the soft assignments, which adds about 2 points on top. At 3 shots
#   calibration still adds about 4 points on the mixed graph and at $h=0.5$, little where the classes are
#   already separated.
#
# **At full scale** (4000 nodes, 9 homophily levels, 5 replicate graphs, 200 training steps, 1000 test
# episodes; seeds 0–2, last column of the table) the reading is the same: claims 3 and 7 hold at every seed,
# claims 5 and 6 fail at every seed (the gate's Spearman correlation stays below 0.21, and GRACE-lite stays
# 5.4 to 6.4 points below the MLP at low homophily), and calibration stays uninformative. Two claims move with
# the seed. Claim 1 passes at one of the three seeds, with margins of +0.5 to +2.5 points. Claim 2 now
# counts at every seed (its control fails) and holds at two: with 200 steps the fixed mix catches up with
# GRACE-lite on the single-level $h=0$ graph (control between $-0.2$ and $+0.7$) while GRACE-lite keeps about
# +1.8 points on the mixed graph at seeds 0 and 1 (and $-0.2$ at seed 2). So
# with more training the per-node gate does bring a gain that is specific to the mixed graph, but a small one,
# below the brief's 2 points over the best single filter.
#
# **What this says about the paper.** The model is ours, built from the brief; its failures are evidence about
# GRACE-lite, not about GRACE. What the miniature does show is the setting the paper addresses: on our graphs
# a fixed low-pass filter is excellent under homophily and worse than ignoring the graph under heterophily, a
# fixed high-pass filter the reverse, and a mixed graph leaves both in between (first figure). Combining both
# experts and calibrating against the queries recovers a few points there (at seed 0, GRACE-lite with
# calibration is the best model on the mixed graph, 67.3% against 61.5% for the low-pass model, 3-shot), but
# at our scale the per-node gate is not the source of that gain: calibration is, and most of the calibration
# gain does not need the class-specific assignments. The synthetic mixed graph favours the method by construction (two
# clean regions, each best served by one filter), so these gains are an optimistic reading.
#
# ## What the miniature cannot show
#
# * The paper's architecture, losses, calibration and theory: none were available, and there are no reported
#   accuracies to set beside ours.
# * Real graphs (Cora, CiteSeer, Amazon-Computer, Coauthor-CS, DBLP, CoraFull, ogbn-arxiv), whose homophily
#   varies gradually rather than in two clean regions, with degree heterogeneity and class imbalance, and the
#   brief's LFR graphs.
# * Deeper, nonlinear experts, a gate with more training or its own objective, or a third, identity expert
#   (which our claim 6 suggests would matter at intermediate homophily).
# * Transductive calibration beyond one rectification step, and with query sets that are not class-balanced
#   (ours always hold 10 queries per class, which makes the shift towards the query mean harmless).
