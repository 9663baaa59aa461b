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
# # SpikingVTG in miniature: saliency feedback gating in a spiking grounding network
#
# *A network of integrate-and-fire neurons can find the span of a video that matches a text query, and
# feeding its own clip saliency back as a multiplicative gate silences the irrelevant clips, so it fires
# fewer spikes without losing accuracy; we test this, equilibrium training and distillation on a synthetic
# grounding task.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import time

import matplotlib.pyplot as plt
import numpy as np
import torch
from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, less_than, tolerance
from repro.papers import spiking_vtg as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope
from repro.timing import best_time

P = setup_notebook(scale, seed, presets={
    # about 9 s of compute on one thread (measured): 400 training and 200 test videos, a 24-unit network
    "ci": dict(n_train=400, n_test=200, hidden=24, teacher_steps=150, ft_steps=60, batch=64, n_conv=50),
    # a few minutes: 2000 training videos (the brief's size), 1000 test videos, five times the steps
    "full": dict(n_train=2000, n_test=1000, hidden=32, teacher_steps=750, ft_steps=300, batch=128, n_conv=200),
})
claims = Claims("spiking-vtg", title="SpikingVTG: A Spiking Detection Transformer for Video Temporal Grounding",
                authors=None, paper_url="https://openreview.net/forum?id=SkhF3cuyev", scale=scale, seed=seed)
T_CLIPS, D = 32, 16      # clips per video, feature size (brief 17.4)
K_STEPS = 30             # time steps of the spiking network (brief 17.4)
KD_WEIGHT = 0.1          # weight of the Cos-L2 distillation loss (chosen on a pilot run, see Deviations)
K_GRID = (8, 16, 32, 64, 128)  # time steps for the convergence fit

# %% [markdown]
# ## The claim
#
# Video temporal grounding asks for the start and end of the moment in a video that a sentence describes.
# The paper builds the first spiking network for it: a multi-modal detection transformer made of
# integrate-and-fire (IF) neurons, which communicate by 0/1 spikes, so most of its work is additions
# triggered by spikes rather than dense multiply-accumulates. Its abstract makes five claims that a miniature
# can touch:
#
# 1. **Saliency feedback gating (SFG)** scores every clip while the network runs and multiplies each clip's
#    input by its score, which highlights the relevant clips, suppresses the rest, *improves accuracy and
#    lowers neural activity*.
# 2. The firing rates converge layer by layer to an **equilibrium**, and the network is trained by
#    **implicit differentiation at that equilibrium**, without backpropagation through time.
# 3. A **Cos-L2** loss distils the representations and attention maps of a non-spiking teacher into the
#    spiking student.
# 4. A **normalisation-free (NF)** variant without softmax or LayerNorm (and a 1-bit version of it) stays
#    competitive.
# 5. The models are competitive on QVHighlights, Charades-STA, TACoS and YouTube Highlights, at a lower
#    computational cost.
#
# We found the OpenReview pages of the paper and of a workshop predecessor, not the paper itself: **no
# numbers, no architecture details and no code were retrieved**, so every number on this page is ours.
#
# ## The method
#
# **IF neurons.** A neuron integrates its input current $I_t$ into a membrane potential and fires when it
# reaches the threshold $V_{th}$; the reset subtracts the threshold (`K.if_neuron`):
#
# $$ v_t = v_{t-1} + I_t,\qquad S_t = [\,v_t \ge V_{th}\,],\qquad v_t \leftarrow v_t - V_{th}S_t,\qquad v_0 = 0 .$$
#
# For a constant current $0\le I\le V_{th}$ the neuron fires $\lfloor tI/V_{th}\rfloor$ times in $t$ steps,
# so its rate $a=N/K$ tends to $I/V_{th}$: with $V_{th}=1$ a layer's rates approximate
# $a=\mathrm{clip}_{[0,1]}(Wa_{\text{in}}+b)$, the *rate approximation*, with an error of order $1/K$.
#
# **Our miniature network** (`K.VTGNet`; the paper's architecture was not available). Each clip $i$ gets the
# input $e_i=\sqrt d\,[x_i\odot q,\ x_i,\ q]$ (clip features $x_i$, query $q$). Three populations of IF
# neurons per clip:
#
# $$\begin{aligned}
# a^{(1)}_i &= \mathrm{clip}\big(g_i\,(\mathrm{LN}(W_1e_i)+b_1)\big) &&\text{cross-interaction of clip and query}\\
# m &= \textstyle\sum_j w_j a^{(1)}_j,\quad w=\mathrm{softmax}_j(a^{(1)}_j u) &&\text{video context (the "attention map")}\\
# a^{(2)}_i &= \mathrm{clip}\big(g_i\,(a^{(1)}_iW_2 + a^{(1)}_{i-1}W_l + a^{(1)}_{i+1}W_r + mW_3 + b_2)\big) &&\text{temporal layer}\\
# s_i &= \mathrm{clip}(a^{(2)}_i w_s + b_s) &&\text{saliency neuron of clip } i
# \end{aligned}$$
#
# **SFG.** Without SFG the gate is $g_i=1$. With SFG, $g_i(t+1)=s_i(t)$: the running firing rate of clip
# $i$'s saliency neuron multiplies the clip's drive at the next step (`K.saliency_feedback_gate`), so a
# clip the network judges irrelevant goes silent. At equilibrium the gate solves the fixed point
# $g^*=s(g^*)$. The predicted span is the segment with the largest $\sum_{i=l}^{r}(s_i-\tfrac12)$
# (`K.decode_span`).
#
# **Equilibrium training.** We train the *rate* network at its fixed point and run the *spiking* network
# for evaluation. The fixed point is found by iteration without a graph, and the gradient comes from the
# implicit function theorem, $\partial g^*/\partial\theta=(I-J)^{-1}\partial\Phi/\partial\theta$ with
# $J=\partial\Phi/\partial g$ at $g^*$, computed by fixed-point iteration on the adjoint
# (`K.implicit_fixed_point`): memory and cost do not grow with the number of time steps.
#
# **Distillation.** A non-spiking teacher (the same network with $g=1$, evaluated densely) is trained
# first; the students add the Cos-L2 loss $\sum_\ell\big(1-\cos(h^s_\ell,h^t_\ell)\big)+\lVert h^s_\ell-h^t_\ell\rVert^2$
# on $a^{(1)}$, $a^{(2)}$ and the pooling weights $w$ (`K.cos_l2_loss`, `K.kd_loss`).
#
# **NF variant.** No LayerNorm, and $w_j=\mathrm{relu}(a^{(1)}_ju)/T$ instead of the softmax.
#
# **Counting operations.** For the spiking network a synaptic operation (SOP) is one accumulate caused by
# one spike: layer-1 spikes times their fan-out (the $H$ neurons of their own clip's layer 2 and of each
# neighbour's), plus layer-2 spikes times 1. Operations that are not spike-driven are counted as MACs: the
# input projection $W_1e_i$ and LayerNorm (once: the input is constant), the gate multiplications and the
# pooling at every step. The dense teacher's count is its MACs for one pass. Energy uses the 45 nm figures
# that SNN papers commonly quote (Horowitz 2014): 4.6 pJ per MAC, 0.9 pJ per accumulate.
#
# ## The experiment
#
# * **Data** (`K.make_synthetic_vtg`, brief 17.4): videos of $T=32$ clips with $d=16$ features; a query
#   $q$; the clips of the ground-truth span (4 to 12 clips) are $q$ plus noise of the same size as $q$;
#   a distractor span (3 to 8 clips) is $0.6q$ plus a direction of its own plus noise (partial similarity);
#   the other clips are random. The spans never overlap.
# * **Models**, all with the same hidden size: the non-spiking **teacher** (trained on the saliency loss
#   only); **SpikingVTG** (SFG, LayerNorm and softmax), initialised from the teacher and fine-tuned at its
#   equilibrium with the Cos-L2 loss; the **no-SFG twin**, fine-tuned the same way with $g=1$;
#   **NF-SpikingVTG** (SFG, no LayerNorm, no softmax), initialised from SpikingVTG and fine-tuned the same
#   way. The students run as IF networks for $K=30$ steps on held-out test videos.
# * **Measures:** mIoU and R1@0.5 of the predicted span, total spikes per video, SOPs, MACs and the energy
#   estimate; the deviation of the spiking rates from the rate equilibrium against $K$; the implicit
#   gradient against central finite differences.
# * **Scale:** ci: 400 training and 200 test videos, 24 hidden units, 150 teacher steps and 60 fine-tuning
#   steps of Adam on batches of 64; full: 2000 and 1000 videos, 32 units, five times the steps and batches of 128.
#
# **Claims, fixed before the first run** (thresholds from the brief where it gives one), and their roles under
# the evidence rubric. Each counted test is measured beside the method without the ingredient it is about (the
# ablation) and the strongest naive baselines we could think of, under the same measurement and criterion; the
# comparators were added after the page first ran, with the methods, settings and thresholds unchanged, so no test
# is post hoc. The baselines follow fixed rules: the similarity gate and the similarity scorer use the raw cosine
# clipped to the saliency neuron's range [0, 1] and the decoder's own threshold; the constant gate is $1/2$, the
# middle of the gate's range and the decoder's threshold; the converted network uses the teacher's weights as they
# are. The thresholds were fixed before the first run; the tolerance of the training-based tests was not (it was
# widened after the first run: see the deviations).
#
# 1. *SFG lowers activity* (test): spikes(SpikingVTG) / spikes(no-SFG twin) $\le 0.8$ (brief). Ablation:
#    SpikingVTG's weights with the feedback cut (gate 1). Baselines: the no-SFG twin gated open-loop, from its
#    first step, by the cosine similarity of each clip with the query; and the same twin gated by the constant
#    $1/2$ on every clip (attenuation without any relevance; added after an independent review).
# 2. *without losing accuracy* (test): mIoU(SpikingVTG) $-$ mIoU(no-SFG twin) $\ge -0.02$ (brief). Same
#    ablation and the similarity-gate baseline. (Shuffling the feedback across clips, the old control, is a
#    wrong input and is shown in the figures only.)
# 3. *Rates converge to the equilibrium* (illustration): the log-log slope of the mean deviation
#    $|a(K)-a^*|$ of the layer-1 rates from the rate equilibrium against $K\in\{8,\dots,128\}$ is
#    $\le -0.5$ (theory: $-1$), beside reset-to-zero neurons, whose rates converge to $1/\lceil 1/I\rceil$
#    instead of $I$. The $1/K$ convergence of subtractive-reset rates is prior work (the rate approximation of
#    ANN-to-SNN conversion), and the control fails by construction, so it is shown, not counted. (The brief's
#    criterion, $\lVert a(K)-a(K-1)\rVert_\infty<10^{-2}$ at $K=30$, cannot hold for a neuron firing at rate
#    $1/2$, whose consecutive rates differ by about $1/(2K)=0.017$; we show its value without a claim.)
# 4. *Implicit gradient is exact* (implementation check): relative error of the implicit gradient of the
#    equilibrium loss against central finite differences, along four random directions, on four test videos in
#    float64: $<0.05$ (brief). The implicit function theorem is classical; this checks our code, beside the
#    truncated gradient that treats the gate as a constant.
# 5. *Distillation transfers* (test): mIoU(SpikingVTG) / mIoU(teacher) $\ge 0.8$ (brief). Ablation: the
#    same student fine-tuned the same way without the Cos-L2 term. Baselines: the teacher's weights run as an IF
#    network without any fine-tuning (plain ANN-to-SNN conversion), and the cosine similarity of each clip with
#    the query used as its saliency (no network). (The student at its random initialisation, the old control,
#    is at chance and shown for scale only.)
# 6. *NF stays competitive* (test): mIoU(NF) $-$ mIoU(SpikingVTG) $\ge -0.05$. Ablation: SpikingVTG with its
#    LayerNorm and softmax simply dropped, without the NF fine-tuning. Baseline: the cosine-similarity scorer.
# 7. *Fewer operations* (test): energy(SpikingVTG) / energy(teacher) $\le 1$ under the 45 nm convention.
#    Ablation: the no-SFG twin. Baselines: the similarity-gated twin, and the cosine-similarity scorer (its
#    $2Td+d+T$ MACs).
#
# The wall-clock ratio of the spiking simulation to the teacher's dense pass is shown apart (volatile).
#
# **Deviations from the paper**
#
# * Synthetic features instead of QVHighlights, Charades-STA, TACoS and YouTube Highlights (their video and
#   text features cannot be used offline); no benchmark number can be compared.
# * The network is our one-layer design from the brief, not the paper's detection transformer: no
#   decoder, no moment queries, no span regression head; the span is decoded from clip saliency by a
#   maximum-sum segment; the only "attention" is a softmax (or ReLU) pooling over clips.
# * Training: the teacher learns first; the students start from its weights (NF-SpikingVTG from
#   SpikingVTG's), then fine-tune at equilibrium for 60 steps at ci scale. This staging and the
#   distillation weight 0.1 were chosen on pilot runs at seed 0 before the claims were run: trained from
#   scratch, or with weight 1, the SFG student often fell into the all-gated state. The pilots are not part
#   of the page.
# * **A fix after the first complete run.** That run iterated the SFG fixed point without damping; the
#   iteration had not converged (residuals up to 0.4), the implicit gradients were wrong, and SpikingVTG
#   collapsed (test mIoU 0.03). We then damped the fixed-point and adjoint iterations by one half (the same
#   fixed points; `K.implicit_fixed_point(damping=...)`) and re-ran. No criterion, threshold or
#   measurement changed, so no claim is marked post hoc, but the reader should know that the training
#   procedure was repaired after seeing a failure.
# * The spiking run gates from step 5 on (the first four steps estimate the saliency rate ungated, as the
#   rate iteration starts from $g=1$). In training the SFG fixed point is relaxed for at most 15 damped
#   iterations from $g=1$, which leaves residuals of a few hundredths: the "equilibrium" gradient is then the
#   implicit gradient at an approximate fixed point. A diagnostic after the full-scale run (not on the page;
#   seed 0, ci-sized data, 300 fine-tuning steps) showed that iterating to convergence (40 iterations) made
#   fine-tuning fall into the all-gated fixed point, with either one or both layers gated, so the 15-step relaxation, like the 30-step spiking run, selects the useful state from $g=1$; the
#   paper's convergence analysis presumably rules this out, ours does not. The saliency loss is the squared
#   error on in-span labels.
# * The gate multiplies a clip's whole drive, bias included, in both layers. SOPs are counted at the
#   presynaptic spike, so the inputs of a gated-off clip still count (this overcounts SFG's cost).
# * No 1-bit variant (the brief puts it at full scale only; we did not build it), no LIF neurons, no
#   YouTube-Highlights-style highlight detection.
# * **The tolerance of the training-based tests was widened after the first run.** The first run (commit
#   e06b96f) declared an absolute tolerance of 0.05 for the mIoU ratios and gaps and the spike ratio. Re-executed
#   under other numerics (`ATEN_CPU_CAPABILITY=default`, another OpenBLAS core type), these values moved by up to
#   0.09 on the first model, and by up to 0.11 on the current one (the no-Cos-L2 student's mIoU ratio, 0.956 against
#   0.844 at seed 0), so the tolerance became absolute 0.1 plus 10%, before the comparators were added. A wider
#   band makes a pass harder, never easier: a value inside it is at the edge. The bars it implies at the brief's
#   thresholds (for the accuracy and NF tests, a *gain* where the claims allow a small loss) are computed in the
#   notebook and cited in the verdict.
# * Brief criterion 2's consecutive-residual test is replaced by the convergence slope (item 3, now an
#   illustration), for the reason given there.

# %%
rng = P.rng
train = K.make_synthetic_vtg(P.n_train, T_CLIPS, D, seed=rng)
test = K.make_synthetic_vtg(P.n_test, T_CLIPS, D, seed=rng)
e_tr = K.clip_inputs(train["x"], train["q"])
y_tr = torch.tensor(train["label"], dtype=torch.float32)
e_te = K.clip_inputs(test["x"], test["q"])
print(f"{P.n_train} training and {P.n_test} test videos of {T_CLIPS} clips; "
      f"mean span {np.mean(train['span'][:, 1] - train['span'][:, 0] + 1):.1f} clips")

# %%
gen = torch.Generator().manual_seed(seed)
teacher = K.VTGNet(D, P.hidden, norm=True, sfg=False, generator=gen)
untrained = K.VTGNet(D, P.hidden, norm=True, sfg=True, generator=gen)  # shown for scale (a student at chance)
t0 = time.perf_counter()
loss_teacher = K.train_vtg(teacher, e_tr, y_tr, P.teacher_steps, P.batch, rng=rng)


def student(norm, sfg, init, kd=True):
    net = K.VTGNet(D, P.hidden, norm=norm, sfg=sfg)
    net.load_state_dict(init.state_dict())
    losses = K.train_vtg(net, e_tr, y_tr, P.ft_steps, P.batch, teacher=teacher if kd else None,
                         kd_weight=KD_WEIGHT, rng=rng)
    return net, losses


models, losses = {}, {"teacher": loss_teacher}
for name, norm, sfg, init, kd in progress([("SpikingVTG", True, True, "teacher", True),
                                           ("no-SFG twin", True, False, "teacher", True),
                                           ("NF-SpikingVTG", False, True, "SpikingVTG", True),
                                           ("SpikingVTG without Cos-L2", True, True, "teacher", False)],
                                          desc="students"):
    models[name], losses[name] = student(norm, sfg, teacher if init == "teacher" else models[init], kd)
print(f"training: {time.perf_counter() - t0:.1f} s; final losses:",
      ", ".join(f"{k} {v[-1]:.3f}" for k, v in losses.items()))

# %%
def scores(s):
    return K.grounding_scores(K.decode_span(s.numpy()), test["span"])


with torch.no_grad():
    dense = teacher.rates(e_te, torch.ones(e_te.shape[:2]))
res = {"teacher": {**scores(dense["s"]), "spikes": 0.0, "sops": 0.0, "macs": float(teacher.dense_macs(T_CLIPS))}}
sims = {}
for name, net in models.items():
    sims[name] = net.simulate(e_te, K_STEPS, gate="sfg" if net.sfg else "none")
    with torch.no_grad():
        eq = net.equilibrium(e_te) if net.sfg else net.rates(e_te, torch.ones(e_te.shape[:2]))
    res[name] = {**scores(sims[name]["s"]), "rate miou": scores(eq["s"])["miou"],
                 **{k: float(sims[name][k].mean()) for k in ("spikes", "sops", "macs")}}
sfg = models["SpikingVTG"]
perm = torch.stack([torch.randperm(T_CLIPS, generator=gen) for _ in range(P.n_test)])
# comparators: the method without its ingredient (ablations) and naive baselines (see "Checking the claims")
sim_gate = torch.tensor(K.query_similarity(test["x"], test["q"]), dtype=torch.float32)
nf_dropped = K.VTGNet(D, P.hidden, norm=False, sfg=True)
nf_dropped.load_state_dict(sfg.state_dict())  # LayerNorm and softmax removed, not fine-tuned
controls = {
    "SpikingVTG, feedback cut (gate 1)": sfg.simulate(e_te, K_STEPS, gate="none"),
    "no-SFG twin, similarity gate": models["no-SFG twin"].simulate(e_te, K_STEPS, gate="fixed", fixed_gate=sim_gate),
    # the fixed rule: half of the gate's range [0, 1] (the decoder's own threshold), on every clip from step 1
    "no-SFG twin, constant gate 1/2": models["no-SFG twin"].simulate(e_te, K_STEPS, gate="fixed",
                                                                      fixed_gate=torch.full(sim_gate.shape, 0.5)),
    "teacher weights as IF network": teacher.simulate(e_te, K_STEPS, gate="none"),
    "SpikingVTG, LN and softmax dropped": nf_dropped.simulate(e_te, K_STEPS),
    "SpikingVTG, shuffled feedback": sfg.simulate(e_te, K_STEPS, gate="shuffled", perm=perm),
    "untrained student": untrained.simulate(e_te, K_STEPS),
    "NF-SpikingVTG, another video's query": models["NF-SpikingVTG"].simulate(
        K.clip_inputs(test["x"], np.roll(test["q"], 1, axis=0)), K_STEPS),
}
for name, sim in controls.items():
    res[name] = {**scores(sim["s"]), **{k: float(sim[k].mean()) for k in ("spikes", "sops", "macs")}}
res["query similarity (no network)"] = {**scores(sim_gate), "spikes": 0.0, "sops": 0.0,
                                        "macs": float(K.query_similarity_macs(T_CLIPS, D))}
for r in res.values():
    r["energy nJ"] = (K.E_MAC_PJ * r["macs"] + K.E_AC_PJ * r["sops"]) / 1000
print(f"{'model (spiking runs: K = 30)':40s} {'mIoU':>6s} {'R1@0.5':>7s} {'rate mIoU':>9s} {'spikes':>8s} "
      f"{'SOPs':>9s} {'MACs':>8s} {'energy nJ':>9s}")
for name, r in res.items():
    print(f"{name:40s} {r['miou']:6.3f} {r['r1@0.5']:7.3f} {r.get('rate miou', float('nan')):9.3f} "
          f"{r['spikes']:8.0f} {r['sops']:9.0f} {r['macs']:8.0f} {r['energy nJ']:9.1f}")

# %% [markdown]
# ## Results
#
# ### Paper and miniature side by side
#
# The paper's benchmark numbers were not retrieved; the table above is ours alone (test videos of this
# seed). A paper column would read "not found" on every row: QVHighlights R1 and mAP, Charades-STA and
# TACoS R1 at two IoU thresholds, YouTube Highlights mAP, and the operation counts.
#
# ### One test video: grounding timeline and spike raster
#
# The top panel shows the ground-truth and distractor spans and the saliency of three models; the two lower
# panels show, for every clip and time step, how many of the clip's layer-1 neurons fired, without and
# with saliency feedback.

# %%
v = 0  # the first test video
rec = {name: models[name].simulate(e_te[v:v + 1], K_STEPS, gate=g, record=True)
       for name, g in (("no-SFG twin", "none"), ("SpikingVTG", "sfg"))}
fig, axes = plt.subplots(3, 1, figsize=(8, 7.5), sharex=True, gridspec_kw=dict(height_ratios=[1.3, 1, 1]))
ax = axes[0]
clips = np.arange(T_CLIPS)
for span, col, lab in ((test["span"][v], "C2", "ground truth"), (test["distractor"][v], "C3", "distractor")):
    ax.axvspan(span[0] - 0.5, span[1] + 0.5, color=col, alpha=0.18, label=lab)
ax.plot(clips, dense["s"][v].numpy(), "k--", lw=1.2, label="teacher (dense)")
for name, col in (("no-SFG twin", "C0"), ("SpikingVTG", "C1")):
    ax.step(clips, rec[name]["s"][0].numpy(), where="mid", color=col, label=f"{name} (spike rate)")
ax.axhline(0.5, color="0.5", lw=0.7, ls=":")
ax.set(ylabel="clip saliency", ylim=(-0.05, 1.45), title=f"Test video {v}: saliency and spans")
ax.legend(fontsize=7, ncol=3, loc="upper center")
for ax, name in zip(axes[1:], rec):
    im = ax.imshow(rec[name]["s1"].numpy(), aspect="auto", origin="lower", cmap="Greys",
                   extent=(-0.5, T_CLIPS - 0.5, 0.5, K_STEPS + 0.5), vmin=0, vmax=P.hidden)
    ax.set(ylabel="time step t", title=f"{name}: layer-1 spikes per clip and step "
           f"(total {int(rec[name]['s1'].sum())})")
    fig.colorbar(im, ax=ax, fraction=0.03, label="neurons firing")
axes[-1].set_xlabel("clip index i")
plt.show()

# %% [markdown]
# ### Activity, accuracy and operations per model

# %%
names = ["teacher", "SpikingVTG", "no-SFG twin", "NF-SpikingVTG", "SpikingVTG, feedback cut (gate 1)",
         "SpikingVTG, shuffled feedback"]
short = ["teacher\n(dense)", "SpikingVTG", "no-SFG\ntwin", "NF-\nSpikingVTG", "feedback\ncut", "shuffled\nfeedback"]
fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
axes[0].bar(short, [res[n]["miou"] for n in names], color=["0.3", "C1", "C0", "C4", "C7", "C7"])
axes[0].set(ylabel="test mIoU", ylim=(0, 1), title="Grounding accuracy")
axes[1].bar(short[1:], [res[n]["spikes"] for n in names[1:]], color=["C1", "C0", "C4", "C7", "C7"])
axes[1].set(ylabel="spikes per video (K = 30)", title="Neural activity")
en = np.array([[K.E_MAC_PJ * res[n]["macs"] / 1000, K.E_AC_PJ * res[n]["sops"] / 1000] for n in names[:4]])
axes[2].bar(short[:4], en[:, 0], color="C5", label="MACs x 4.6 pJ")
axes[2].bar(short[:4], en[:, 1], bottom=en[:, 0], color="C9", label="SOPs x 0.9 pJ")
axes[2].set(ylabel="estimated energy per video (nJ)", title="45 nm energy estimate")
axes[2].legend(fontsize=8)
for ax in axes:
    ax.tick_params(axis="x", labelsize=7)
plt.show()

# %% [markdown]
# ### Convergence of the spike rates to the equilibrium
#
# One spiking run of $128$ steps of SpikingVTG on the first test videos; after every step we compare the
# running layer-1 rates $a(K)$ with the rate network's equilibrium $a^*$. Reset-to-zero neurons (same
# weights) are the control.

# %%
e_c = e_te[:P.n_conv]
with torch.no_grad():
    a_star = sfg.equilibrium(e_c, iters=200, tol=1e-7)["a1"]
dev = {}
for reset in ("subtract", "zero"):
    r1 = sfg.simulate(e_c, max(K_GRID), reset=reset, record=True)["r1"]
    dev[reset] = (r1 - a_star).abs().mean(dim=(1, 2, 3)).numpy()  # mean deviation after each step
ks = np.arange(1, max(K_GRID) + 1)
slope = {r: loglog_slope(np.array(K_GRID), dev[r][np.array(K_GRID) - 1]) for r in dev}
r_sub = sfg.simulate(e_c, K_STEPS, record=True)["r1"]
resid30 = float((r_sub[-1] - r_sub[-2]).abs().max())
print("log-log slope of the mean |a(K) - a*| over K in", K_GRID, {r: round(s, 3) for r, s in slope.items()})
print(f"mean |a(30) - a*| = {dev['subtract'][29]:.4f} (subtractive reset), {dev['zero'][29]:.4f} (reset to zero)")
print(f"brief's residual max |a(30) - a(29)| = {resid30:.4f} (not a claim: see the experiment section)")

fig, ax = plt.subplots(figsize=(6.4, 4))
ax.loglog(ks, dev["subtract"], color="C1", label=f"subtractive reset (slope {slope['subtract']:.2f})")
ax.loglog(ks, dev["zero"], color="C7", label=f"reset to zero, control (slope {slope['zero']:.2f})")
ax.loglog(ks, dev["subtract"][7] * 8 / ks, "k--", lw=1, label=r"$\propto 1/K$")
ax.set(xlabel="time steps K", ylabel=r"mean $|a(K) - a^*|$ (layer-1 rates)",
       title="Spike rates approach the rate equilibrium")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### The implicit gradient against finite differences
#
# A float64 copy of SpikingVTG on four test videos; the loss is the saliency loss at the equilibrium
# $g^*$, solved to $10^{-13}$. We compare directional derivatives along four random unit directions in
# parameter space.

# %%
net64 = K.VTGNet(D, P.hidden, norm=True, sfg=True).double()
net64.load_state_dict({k: p.double() for k, p in sfg.state_dict().items()})
e4 = e_te[:4].double()
y4 = torch.tensor(test["label"][:4])
params = list(net64.parameters())
dirs = [[torch.randn(p.shape, generator=gen, dtype=torch.float64) for p in params] for _ in range(4)]
norms = [torch.sqrt(sum((d_ ** 2).sum() for d_ in dd)) for dd in dirs]
dirs = [[d_ / nm for d_ in dd] for dd, nm in zip(dirs, norms)]


def eq_loss(net, truncated=False):
    c = net.cross_current(e4)
    f = lambda z: net.rates(e4, z, c)["s"]  # noqa: E731
    if truncated:
        with torch.no_grad():
            g = torch.ones(e4.shape[:2], dtype=torch.float64)
            for _ in range(400):
                g = 0.5 * g + 0.5 * f(g)
        return K.saliency_loss(net.rates(e4, g, c)["s"], y4)
    g = K.implicit_fixed_point(f, torch.ones(e4.shape[:2], dtype=torch.float64), iters=400, tol=1e-13, damping=0.5)
    return K.saliency_loss(net.rates(e4, g, c)["s"], y4)


def directional(truncated):
    grads = torch.autograd.grad(eq_loss(net64, truncated), params)
    return np.array([float(sum((gp * d_).sum() for gp, d_ in zip(grads, dd))) for dd in dirs])


h = 1e-6
fd = []
with torch.no_grad():
    base = [p.clone() for p in params]
    for dd in dirs:
        vals = []
        for sign in (1, -1):
            for p, b0, d_ in zip(params, base, dd):
                p.copy_(b0 + sign * h * d_)
            vals.append(float(eq_loss(net64, truncated=True)))
        fd.append((vals[0] - vals[1]) / (2 * h))
    for p, b0 in zip(params, base):
        p.copy_(b0)
fd = np.array(fd)
g_impl, g_trunc = directional(False), directional(True)
rel = {k: float(np.linalg.norm(g - fd) / np.linalg.norm(fd)) for k, g in (("implicit", g_impl), ("truncated", g_trunc))}
print("finite differences:", np.round(fd, 6), "\nimplicit:          ", np.round(g_impl, 6),
      "\ntruncated:         ", np.round(g_trunc, 6))
print("relative errors:", {k: f"{v:.2e}" for k, v in rel.items()})

# %% [markdown]
# ### Wall clock
#
# On a CPU the spiking network is simulated with dense tensor operations at every one of its 30 steps, so
# it is slower than the teacher's single dense pass whatever its sparsity: the SOP count says what
# event-driven hardware would do, the wall clock what this simulator does.

# %%
t_dense = best_time(lambda: teacher.rates(e_te, torch.ones(e_te.shape[:2])))
t_spike = best_time(lambda: sfg.simulate(e_te, K_STEPS))
print(f"teacher dense pass {1e3 * t_dense:.1f} ms, SpikingVTG simulation {1e3 * t_spike:.1f} ms "
      f"on {P.n_test} videos: ratio {t_spike / t_dense:.1f}")

# %%
R = res
TRAIN_TOL = tolerance(rel=0.1, abs=0.1, why="end point of a short float32 Adam training and a 30-step spiking run (moved by up to 0.11 under foreign numerics; 0.05 at the first run, widened after it)")
SFG = "the saliency feedback gate (the running saliency multiplies the clip's drive)"
TWIN, CUT, SIMGATE = "no-SFG twin", "SpikingVTG, feedback cut (gate 1)", "no-SFG twin, similarity gate"
CONST = "no-SFG twin, constant gate 1/2"
COSINE, CONVERTED = "query similarity (no network)", "teacher weights as IF network"
L_CUT = "SpikingVTG's weights with the feedback cut (gate 1)"
L_SIMGATE = "no-SFG twin gated open-loop by the clip-query cosine similarity (clipped to [0, 1])"
L_CONST = "no-SFG twin gated open-loop by the constant 1/2 on every clip (no relevance at all)"
L_COSINE = "clip-query cosine similarity as saliency, same decoder (no network, no training)"
L_CONVERTED = "the teacher's weights run as an IF network, not fine-tuned (plain ANN-to-SNN conversion)"


def ratio(name, key, ref):
    return R[name][key] / R[ref][key]


def gap(name, ref):
    return R[name]["miou"] - R[ref]["miou"]


claims.test("sfg-fewer-spikes", statement="With SFG the spiking network fires at most 0.8 times the spikes of its no-SFG twin",
            paper="SFG lowers neural activity (abstract; no number found)", criterion=at_most(0.8),
            measured=ratio("SpikingVTG", "spikes", TWIN),
            ablation=Comparator(L_CUT, ratio(CUT, "spikes", TWIN), ingredient=SFG),
            baselines=[Comparator(L_SIMGATE, ratio(SIMGATE, "spikes", TWIN)),
                       Comparator(L_CONST, ratio(CONST, "spikes", TWIN))], tol=TRAIN_TOL)
claims.test("sfg-keeps-accuracy", statement="SFG costs at most 0.02 mIoU against the no-SFG twin",
            paper="SFG enhances performance (abstract; no number found)", criterion=at_least(-0.02),
            measured=gap("SpikingVTG", TWIN),
            ablation=Comparator(L_CUT, gap(CUT, TWIN), ingredient=SFG),
            baselines=[Comparator(L_SIMGATE, gap(SIMGATE, TWIN))], tol=TRAIN_TOL)
claims.illustrate("rates-converge", statement="Mean deviation of the spiking rates from the rate equilibrium falls like K^p with p <= -0.5",
                  paper="layer-wise convergence to an equilibrium of average rates (abstract)",
                  criterion=at_most(-0.5), measured=slope["subtract"],
                  why="prior work: subtractive-reset IF rates approach the clipped rate map with an error of order 1/K "
                      "(the rate approximation of ANN-to-SNN conversion, and the equilibrium that implicit-"
                      "differentiation training of feedback SNNs builds on); the reset-to-zero control converges to "
                      "another map by construction",
                  tol=tolerance(rel=0.1, abs=0.05, why="slope over spike counts of a trained network"))
claims.check("implicit-gradient", kind="implementation",
             statement="Implicit gradient at the SFG equilibrium matches central finite differences within 5%",
             paper="implicit differentiation at equilibrium replaces BPTT (abstract)",
             criterion=less_than(0.05), measured=rel["implicit"],
             tol=tolerance(rel=0.5, abs=1e-6, why="finite differences through a piecewise-linear map of a trained network"))
claims.test("kd-transfer", statement="The distilled spiking student reaches at least 0.8 of the teacher's mIoU",
            paper="Cos-L2 distillation from a non-spiking teacher (abstract; no number found)", criterion=at_least(0.8),
            measured=R["SpikingVTG"]["miou"] / R["teacher"]["miou"],
            ablation=Comparator("SpikingVTG fine-tuned the same way without the Cos-L2 term",
                                R["SpikingVTG without Cos-L2"]["miou"] / R["teacher"]["miou"],
                                ingredient="Cos-L2 distillation from the teacher"),
            baselines=[Comparator(L_CONVERTED, R[CONVERTED]["miou"] / R["teacher"]["miou"]),
                       Comparator(L_COSINE, R[COSINE]["miou"] / R["teacher"]["miou"])], tol=TRAIN_TOL)
claims.test("nf-competitive", statement="NF-SpikingVTG (no softmax, no LayerNorm) loses at most 0.05 mIoU against SpikingVTG",
            paper="NF-SpikingVTG stays competitive (abstract; no number found)", criterion=at_least(-0.05),
            measured=gap("NF-SpikingVTG", "SpikingVTG"),
            ablation=Comparator("SpikingVTG with LayerNorm and softmax dropped, not fine-tuned",
                                gap("SpikingVTG, LN and softmax dropped", "SpikingVTG"),
                                ingredient="fine-tuning at equilibrium after removing the normalisation"),
            baselines=[Comparator(L_COSINE, gap(COSINE, "SpikingVTG"))], tol=TRAIN_TOL)
claims.test("fewer-operations", statement="SpikingVTG needs at most the teacher's energy (4.6 pJ/MAC, 0.9 pJ/SOP)",
            paper="spike-driven accumulation instead of dense multiply-accumulate (abstract; no number found)",
            criterion=at_most(1.0), measured=ratio("SpikingVTG", "energy nJ", "teacher"),
            ablation=Comparator("the no-SFG twin", ratio(TWIN, "energy nJ", "teacher"), ingredient=SFG),
            baselines=[Comparator(L_SIMGATE, ratio(SIMGATE, "energy nJ", "teacher")),
                       Comparator(L_COSINE, ratio(COSINE, "energy nJ", "teacher"))],
            tol=tolerance(rel=0.1, why="spike counts of a trained network"))
claims.check("wallclock-spiking-vs-dense", statement="Simulated SpikingVTG is no slower than the dense teacher on this CPU",
             paper="(no wall-clock claim in the abstract)", criterion=at_most(1.0), measured=t_spike / t_dense,
             volatile=True)
claims.headline("sfg", "Saliency feedback gating highlights the relevant clips, suppresses the others, improves "
                "performance and lowers the computational cost by lowering neural activity",
                tests=["sfg-fewer-spikes", "sfg-keeps-accuracy", "fewer-operations"])
claims.headline("equilibrium-kd", "Distilled from a non-spiking teacher with a Cos-L2 loss, the spiking student "
                "generalises well (tested here); its BPTT-free training by implicit differentiation at equilibrium "
                "is used but not compared with BPTT (untested here)", tests=["kd-transfer"])
claims.headline("nf-1bit", "A normalisation-free variant (no softmax, no LayerNorm) stays competitive (tested here); "
                "its 1-bit version was not built (untested here)", tests=["nf-competitive"])
claims.headline("benchmarks", "Competitive results on QVHighlights, Charades-STA, TACoS and YouTube Highlights",
                untestable="the benchmarks need pre-extracted video and text features, which this book cannot use "
                           "offline, and the paper's numbers were not found; the cost half of the efficiency claim is "
                           "measured by fewer-operations under the SFG headline")

# numbers for the prose
for key, name in (("sfg", "SpikingVTG"), ("twin", TWIN), ("cut", CUT), ("simgate", SIMGATE), ("const", CONST),
                  ("teacher", "teacher"),
                  ("nokd", "SpikingVTG without Cos-L2"), ("conv", CONVERTED), ("cos", COSINE),
                  ("nf", "NF-SpikingVTG"), ("dropped", "SpikingVTG, LN and softmax dropped"),
                  ("shuf", "SpikingVTG, shuffled feedback"), ("untrained", "untrained student")):
    glue(f"miou_{key}", R[name]["miou"], display=False)
    glue(f"energy_{key}", R[name]["energy nJ"], display=False)
    if key not in ("teacher", "cos"):
        glue(f"spk_{key}", R[name]["spikes"] / R[TWIN]["spikes"], display=False)
    glue(f"en_{key}", R[name]["energy nJ"] / R["teacher"]["energy nJ"], display=False)
    glue(f"kd_{key}", R[name]["miou"] / R["teacher"]["miou"], display=False)
for key, name in (("sfg", "SpikingVTG"), ("cut", CUT), ("simgate", SIMGATE), ("const", CONST),
                  ("shuf", "SpikingVTG, shuffled feedback")):
    glue(f"dacc_{key}", gap(name, TWIN), display=False)
for key, name in (("nf", "NF-SpikingVTG"), ("dropped", "SpikingVTG, LN and softmax dropped"), ("cos", COSINE)):
    glue(f"dnf_{key}", gap(name, "SpikingVTG"), display=False)
glue("sop_saving", 1 - R["SpikingVTG"]["sops"] / R[TWIN]["sops"], display=False)
glue("slope_sub", slope["subtract"], display=False)
glue("slope_zero", slope["zero"], display=False)
glue("dev30_zero", float(dev["zero"][29]), display=False)
glue("resid30", resid30, display=False)
glue("rel_impl", rel["implicit"], display=False)
glue("rel_trunc", rel["truncated"], display=False)
glue("break_even", K.E_MAC_PJ / (K.E_AC_PJ * K_STEPS), display=False)


def band_edge(threshold, direction, tol=TRAIN_TOL):
    """The value at which the distance from ``threshold`` (above it: direction +1, below: -1) first exceeds the
    declared band ``tol.slack(value, threshold)``: beyond it a value is clear of the band, inside it "at the edge"."""
    lo, hi = 0.0, 10.0
    for _ in range(80):  # bisection on the distance; distance minus band grows with the distance (rel < 1)
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if mid > tol.slack(threshold + direction * mid, threshold) else (mid, hi)
    return threshold + direction * hi


# the effective bars that the declared band implies at the brief's thresholds
glue("bar_spk_pass", band_edge(0.8, -1), display=False)   # spikes ratio: a clear pass below this
glue("bar_spk_fail", band_edge(0.8, +1), display=False)   # a clear fail (the ablation's) above this
glue("bar_acc_pass", band_edge(-0.02, +1), display=False)  # accuracy gap: a clear pass above this
glue("bar_acc_fail", band_edge(-0.02, -1), display=False)  # a clear fail below this
glue("bar_kd_pass", band_edge(0.8, +1), display=False)    # student/teacher: a clear pass above this
glue("bar_nf_pass", band_edge(-0.05, +1), display=False)   # NF gap: a clear pass above this

# %%
claims.timings()

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
# Numbers below are seed 0 at ci scale; cross-seed counts come from the ci sweep (seeds 0 to 9). In short: **the
# mechanisms run, but no test comes out in the paper's favour on our synthetic task. The declared tolerance band
# is wide beside the brief's margins, so at most seeds SpikingVTG's values lie inside it, at the edge of their
# bars and never a pass; where a value clears a bar plainly, a baseline without the paper's ideas clears it too (a
# constant gate of one half meets the activity bar, the teacher's weights run unchanged as an IF network meet the
# distillation bar, and the cosine similarity of each clip with the query, with no network at all, grounds best
# of all); and the energy bar is failed outright.**
#
# * *The tolerance band.* The training-based tests declare a tolerance of absolute $0.1$ plus $10\%$. It is not
#   the first run's (absolute $0.05$): it was widened after that run, when values moved under other numerics (see
#   the deviations). A wider band makes a pass harder, never easier, but at the brief's thresholds it asks for
#   much more than the claims say: a clear pass needs a spike ratio below {glue:text}`bar_spk_pass:.2f` (and the
#   feedback-cut ablation fails clearly only above {glue:text}`bar_spk_fail:.2f`), an mIoU *gain* of more than
#   {glue:text}`bar_acc_pass:+.3f` over the twin where the claim is "costs at most $0.02$" (the ablation fails
#   clearly only below {glue:text}`bar_acc_fail:+.3f`), a student/teacher ratio above
#   {glue:text}`bar_kd_pass:.2f`, and an NF *gain* of more than {glue:text}`bar_nf_pass:+.3f` where the claim is
#   "loses at most $0.05$". **At ci scale the accuracy and NF tests cannot be resolved**: a method that keeps the
#   twin's accuracy exactly is at the edge. SpikingVTG is at the edge of the activity bar at
#   {repro-seeds}`sfg-fewer-spikes:method:edge` seeds, of the accuracy bar at
#   {repro-seeds}`sfg-keeps-accuracy:method:edge`, of the distillation bar at
#   {repro-seeds}`kd-transfer:method:edge` and of the NF bar at {repro-seeds}`nf-competitive:method:edge`.
# * *SFG lowers activity* ({repro-status}`sfg-fewer-spikes`). SpikingVTG fires {glue:text}`spk_sfg:.2f` times
#   the spikes of its no-SFG twin (bound $0.8$; a clear pass at {repro-seeds}`sfg-fewer-spikes:method:pass`
#   seeds); its weights with the feedback cut fire {glue:text}`spk_cut:.2f` times as much (passing at
#   {repro-seeds}`sfg-fewer-spikes:ablation:pass`), so the saving is the gate's doing. But the twin gated
#   open-loop by the query similarity fires {glue:text}`spk_simgate:.2f` times as much (passing at
#   {repro-seeds}`sfg-fewer-spikes:baseline1:pass` seeds), and the twin gated by the constant $1/2$, which knows
#   nothing of relevance, {glue:text}`spk_const:.2f` times (passing at {repro-seeds}`sfg-fewer-spikes:baseline2:pass`):
#   the bar measures attenuation, and any attenuation meets it.
# * *without costing accuracy* ({repro-status}`sfg-keeps-accuracy`). SFG moves mIoU by
#   {glue:text}`dacc_sfg:+.3f` against the twin ({glue:text}`miou_sfg:.3f` against {glue:text}`miou_twin:.3f`);
#   it clears the band at {repro-seeds}`sfg-keeps-accuracy:method:pass` seeds. The same weights with the feedback
#   cut move it by {glue:text}`dacc_cut:+.3f` (passing at {repro-seeds}`sfg-keeps-accuracy:ablation:pass`), the
#   similarity gate by {glue:text}`dacc_simgate:+.3f` (passing at
#   {repro-seeds}`sfg-keeps-accuracy:baseline1:pass`). A "costs at most $0.02$" bar is passed by doing nothing
#   (the twin itself sits at a gap of zero), where the paper claims a gain, and the band puts a clear pass at a
#   gain: this test cannot tell SFG from no SFG. The gate does pick the right clips: feeding the saliency back to
#   the wrong clips (shuffled) moves mIoU by {glue:text}`dacc_shuf:+.3f`.
# * *Distillation transfers* ({repro-status}`kd-transfer`). The distilled student reaches
#   {glue:text}`kd_sfg:.3f` of the teacher's mIoU (a clear pass at {repro-seeds}`kd-transfer:method:pass` seeds);
#   without the Cos-L2 term it reaches {glue:text}`kd_nokd:.3f` (at {repro-seeds}`kd-transfer:ablation:pass`),
#   the teacher's weights run as an IF network without any fine-tuning {glue:text}`kd_conv:.3f` (at
#   {repro-seeds}`kd-transfer:baseline1:pass`), and the cosine-similarity scorer {glue:text}`kd_cos:.3f` (at
#   {repro-seeds}`kd-transfer:baseline2:pass`). The student starts from the teacher's weights, so a ratio near one
#   comes nearly by construction: a $0.8$ bar says that fine-tuning did not break it; it does not show that
#   Cos-L2 transfers anything.
# * *NF-SpikingVTG stays within $0.05$ mIoU* ({repro-status}`nf-competitive`). At seed 0 it is at
#   {glue:text}`dnf_nf:+.3f` (a clear pass at {repro-seeds}`nf-competitive:method:pass` seeds; it fails at
#   {repro-seeds}`nf-competitive:method:fail`, where its fine-tuning collapses); simply dropping LayerNorm and
#   softmax from SpikingVTG without any NF fine-tuning gives {glue:text}`dnf_dropped:+.3f` (at
#   {repro-seeds}`nf-competitive:ablation:pass`), and the similarity scorer {glue:text}`dnf_cos:+.3f` (at
#   {repro-seeds}`nf-competitive:baseline1:pass`).
# * *Fewer operations* ({repro-status}`fewer-operations`). Under the 45 nm convention SpikingVTG costs
#   {glue:text}`en_sfg:.2f` times the teacher's energy ({glue:text}`energy_sfg:.0f` against
#   {glue:text}`energy_teacher:.0f` nJ per video; it passes at {repro-seeds}`fewer-operations:method:pass` seeds),
#   the no-SFG twin {glue:text}`en_twin:.2f` times, the similarity-gated twin {glue:text}`en_simgate:.2f` times
#   and the cosine scorer {glue:text}`en_cos:.3f` times. SFG removes a fraction {glue:text}`sop_saving:.2f` of
#   the synaptic operations, but at $K=30$ steps a layer-1 neuron firing at rate $a$ sends $30a$ spikes to each
#   target where the dense pass does one multiply-accumulate, so the spiking network wins only below about
#   {glue:text}`break_even:.2f` spikes per step, and the pooling and the gate multiplications (non-spiking, at
#   every step) add MACs the teacher does not pay.
# * *Illustrations and implementation checks, not counted.* The layer-1 rates approach the rate equilibrium
#   with a log-log slope of {glue:text}`slope_sub:.2f` (reset-to-zero neurons: {glue:text}`slope_zero:.2f`); the
#   implicit gradient agrees with central finite differences to a relative error of
#   {glue:text}`rel_impl:.1e` where dropping the feedback term errs by {glue:text}`rel_trunc:.2f`. The check fails
#   at {repro-seeds}`implicit-gradient:method:fail` seeds of the ci sweep: where the trained fixed point is not
#   attracting, the adjoint iteration diverges, and the spiking run need not settle where the rate iteration
#   ends. That the fixed-point iteration needed damping at all (see the deviations) says the same: our trained
#   feedback loop is not always a contraction.
# * **Wall clock.** Simulated on this CPU the spiking network is much slower than the dense teacher (volatile,
#   outside the checked table): the simulator does dense tensor work at all 30 steps and exploits no sparsity, so
#   the ratio measures the simulator, not event-driven hardware.
#
# The headline claims: SFG's lower activity, accuracy and lower cost (tests 1, 2 and 7:
# {repro-status}`sfg-fewer-spikes`, {repro-status}`sfg-keeps-accuracy` and {repro-status}`fewer-operations`);
# distillation from the teacher (test 5: {repro-status}`kd-transfer`), while the BPTT-free training by implicit
# differentiation is used but never compared with BPTT, so that half is untested; the NF variant (test 6:
# {repro-status}`nf-competitive`), without its 1-bit version, which we did not build (untested); the benchmark
# results cannot be tested here, since QVHighlights, Charades-STA, TACoS and YouTube Highlights cannot be used
# offline.
#
# ## What a skeptic would try
#
# An independent review of this page (by a helper that did not write it, with the evidence rubric) asked of every
# counted test what a baseline without the paper's idea would do, and the notebook now measures it:
#
# * *Is the task hard enough to need a network?* Scoring each clip by its cosine similarity with the query and
#   decoding with the same maximum-sum rule gives mIoU {glue:text}`miou_cos:.3f`, against
#   {glue:text}`miou_teacher:.3f` for the dense teacher and {glue:text}`miou_sfg:.3f` for SpikingVTG. Our
#   synthetic moments are the query plus noise, so similarity finds them; the distractor span does not fool it.
#   Every accuracy test on this page is therefore easy for a baseline that uses none of the paper's ideas.
# * *Is the feedback needed to silence clips?* An open-loop gate set from that similarity before the run
#   fires {glue:text}`spk_simgate:.2f` times the twin's spikes at mIoU {glue:text}`miou_simgate:.3f`; a constant
#   gate of $1/2$ on every clip, with no relevance at all, fires {glue:text}`spk_const:.2f` times at mIoU
#   {glue:text}`miou_const:.3f` (it meets the activity bar at {repro-seeds}`sfg-fewer-spikes:baseline2:pass`
#   seeds): attenuation alone meets the activity bar. SpikingVTG fires {glue:text}`spk_sfg:.2f` times at
#   {glue:text}`miou_sfg:.3f`. At seed 0 SFG moves mIoU by {glue:text}`dacc_sfg:+.3f` against the twin, the
#   similarity gate by {glue:text}`dacc_simgate:+.3f` and the constant gate by {glue:text}`dacc_const:+.3f`, but
#   the open-loop gates remove more spikes, so this is no comparison at a matched spike budget, and neither
#   criterion of the brief asks for that trade-off. A discriminating test of SFG would compare accuracy at a
#   matched budget (a similarity or constant gate scaled to SFG's spike count); it would be post hoc and need
#   confirmation on the held-out seeds 10 to 19, and we did not add it.
# * *Is distillation needed?* The teacher's weights, run unchanged as an IF network, reach mIoU
#   {glue:text}`miou_conv:.3f`; the student fine-tuned without Cos-L2 {glue:text}`miou_nokd:.3f`; the distilled
#   one {glue:text}`miou_sfg:.3f`. Without Cos-L2 the fine-tuned student fails the distillation bar at
#   {repro-seeds}`kd-transfer:ablation:fail` seeds: Cos-L2 keeps the fine-tuning from breaking the student, though
#   not fine-tuning at all is as good. The student at random initialisation ({glue:text}`miou_untrained:.3f`), the
#   old control, said only that training happened.
# * *Is the NF fine-tuning needed?* Dropping LayerNorm and softmax with no fine-tuning gives
#   {glue:text}`miou_dropped:.3f`, the fine-tuned NF student {glue:text}`miou_nf:.3f`; the NF student fails its
#   bar at {repro-seeds}`nf-competitive:method:fail` seeds, where its fine-tuning collapses.
# * *Does anything beat the dense teacher's energy?* The cosine scorer costs {glue:text}`energy_cos:.1f` nJ per
#   video against the teacher's {glue:text}`energy_teacher:.0f` nJ.
#
# What would make these tests discriminating is a task where a fixed similarity cannot find the moment (queries
# that match clips only through a learned interaction, or moments defined by temporal context), which our
# generator does not produce; we did not add such a post-hoc test.
#
# Reviewed by an independent skeptic (2026-12-07); what they tried is above. With their own scripts, on seeds 0 to 9
# of the ci settings and one thread, they rebuilt the data, the teacher and the four students, tried the constant
# gate, a hard cosine gate and the twin gated by its own dense saliency against the two SFG tests, the converted
# teacher and a smoothed cosine scorer against the distillation and NF tests, applied the page's rule and band,
# and read the prose against the record. From that review the constant gate became a baseline of the activity test
# (the other gates are not measured on this page), and the page now states the tolerance's history and the bars it
# implies, cites its cross-seed counts from the sweep, and maps the benchmark headline as untestable.
#
# ## What the miniature cannot show
#
# * Any benchmark result: QVHighlights, Charades-STA, TACoS and YouTube Highlights need pre-extracted video
#   and text features, which this book cannot use offline, and the paper's numbers were not found.
# * The paper's architecture: a multi-layer spiking detection transformer with moment queries and a span
#   decoder; our network has one cross-interaction layer, one temporal layer and a saliency neuron per clip.
# * The 1-bit NF variant and deployment on neuromorphic hardware: energy here is an estimate from
#   operation counts under one convention, not a measurement, and the wall clock is a dense CPU simulation.
# * Whether SFG helps accuracy on real, cluttered videos, where saliency is harder to judge early in a run:
#   on our synthetic clips the gate decides within a few steps.
# * The paper's layer-wise convergence analysis as such: we measure convergence of one layer's rates to
#   the fixed point of our rate network and check the implicit gradient on four videos.
