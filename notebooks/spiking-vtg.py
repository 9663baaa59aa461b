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

from repro.claims import Claims, at_least, at_most, less_than, tolerance
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
# **Claims, fixed before the first run** (thresholds from the brief where it gives one):
#
# 1. *SFG lowers activity*: spikes(SpikingVTG) / spikes(no-SFG twin) $\le 0.8$ (brief). Control: the
#    SpikingVTG weights run with the feedback cut (gate 1): is the saving the gate's doing?
# 2. *without losing accuracy*: mIoU(SpikingVTG) $-$ mIoU(no-SFG twin) $\ge -0.02$ (brief). Control: the
#    same network with the saliency feedback shuffled across the clips of each video.
# 3. *Rates converge to the equilibrium*: the log-log slope of the mean deviation
#    $|a(K)-a^*|$ of the layer-1 rates from the rate equilibrium against $K\in\{8,\dots,128\}$ is
#    $\le -0.5$ (theory: $-1$). Control: the same network with reset-to-zero neurons, whose rates
#    converge to $1/\lceil 1/I\rceil$ instead of $I$. (The brief's criterion,
#    $\lVert a(K)-a(K-1)\rVert_\infty<10^{-2}$ at $K=30$, cannot hold for a neuron firing at rate $1/2$,
#    whose consecutive rates differ by about $1/(2K)=0.017$; we show its value without a claim.)
# 4. *Implicit gradient is exact*: relative error of the implicit gradient of the equilibrium loss against
#    central finite differences, along four random directions in parameter space, on four test videos in
#    float64: $<0.05$ (brief). Control: the truncated gradient that treats the gate $g^*$ as a constant.
# 5. *Distillation transfers*: mIoU(SpikingVTG) / mIoU(teacher) $\ge 0.8$ (brief). Control: the same
#    spiking student at its random initialisation.
# 6. *NF stays competitive*: mIoU(NF) $-$ mIoU(SpikingVTG) $\ge -0.05$. Control: NF-SpikingVTG given the
#    query of another video (a query-blind null).
# 7. *Fewer operations*: energy(SpikingVTG) / energy(teacher) $\le 1$ under the 45 nm convention. Control:
#    the no-SFG twin.
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
# * Brief criterion 2's consecutive-residual test is replaced by the convergence slope (claim 3), for the
#   reason given with the claim.

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
untrained = K.VTGNet(D, P.hidden, norm=True, sfg=True, generator=gen)  # control of claim 5
t0 = time.perf_counter()
loss_teacher = K.train_vtg(teacher, e_tr, y_tr, P.teacher_steps, P.batch, rng=rng)


def student(norm, sfg, init):
    net = K.VTGNet(D, P.hidden, norm=norm, sfg=sfg)
    net.load_state_dict(init.state_dict())
    losses = K.train_vtg(net, e_tr, y_tr, P.ft_steps, P.batch, teacher=teacher, kd_weight=KD_WEIGHT, rng=rng)
    return net, losses


models, losses = {}, {"teacher": loss_teacher}
for name, norm, sfg, init in progress([("SpikingVTG", True, True, "teacher"), ("no-SFG twin", True, False, "teacher"),
                                       ("NF-SpikingVTG", False, True, "SpikingVTG")], desc="students"):
    models[name], losses[name] = student(norm, sfg, teacher if init == "teacher" else models[init])
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
controls = {
    "SpikingVTG, feedback cut (gate 1)": sfg.simulate(e_te, K_STEPS, gate="none"),
    "SpikingVTG, shuffled feedback": sfg.simulate(e_te, K_STEPS, gate="shuffled", perm=perm),
    "untrained student": untrained.simulate(e_te, K_STEPS),
    "NF-SpikingVTG, another video's query": models["NF-SpikingVTG"].simulate(
        K.clip_inputs(test["x"], np.roll(test["q"], 1, axis=0)), K_STEPS),
}
for name, sim in controls.items():
    res[name] = {**scores(sim["s"]), **{k: float(sim[k].mean()) for k in ("spikes", "sops", "macs")}}
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
# seed). A paper column would read "not found" on every row: QVHighlights R1@0.5 and mAP,
# Charades-STA and TACoS R1@0.5/0.7, YouTube Highlights mAP, and the operation counts.
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
TRAIN_TOL = tolerance(rel=0.1, abs=0.1, why="end point of a short float32 Adam training and a 30-step spiking run (moved by up to 0.09 under foreign numerics)")
claims.check("sfg-fewer-spikes", statement="With SFG the spiking network fires at most 0.8 times the spikes of its no-SFG twin",
             paper="SFG lowers neural activity (abstract; no number found)", criterion=at_most(0.8),
             measured=R["SpikingVTG"]["spikes"] / R["no-SFG twin"]["spikes"],
             control=R["SpikingVTG, feedback cut (gate 1)"]["spikes"] / R["no-SFG twin"]["spikes"],
             control_label="SpikingVTG weights with the feedback cut (gate 1)", tol=TRAIN_TOL)
claims.check("sfg-keeps-accuracy", statement="SFG costs at most 0.02 mIoU against the no-SFG twin",
             paper="SFG enhances performance (abstract; no number found)", criterion=at_least(-0.02),
             measured=R["SpikingVTG"]["miou"] - R["no-SFG twin"]["miou"],
             control=R["SpikingVTG, shuffled feedback"]["miou"] - R["no-SFG twin"]["miou"],
             control_label="SpikingVTG with the saliency feedback shuffled across clips", tol=TRAIN_TOL)
claims.check("rates-converge", statement="Mean deviation of the spiking rates from the rate equilibrium falls like K^p with p <= -0.5",
             paper="layer-wise convergence to an equilibrium of average rates (abstract)", kind="theorem",
             criterion=at_most(-0.5), measured=slope["subtract"], control=slope["zero"],
             control_label="reset-to-zero IF neurons (same weights)",
             tol=tolerance(rel=0.1, abs=0.05, why="slope over spike counts of a trained network"))
claims.check("implicit-gradient", statement="Implicit gradient at the SFG equilibrium matches central finite differences within 5%",
             paper="implicit differentiation at equilibrium replaces BPTT (abstract)", kind="theorem",
             criterion=less_than(0.05), measured=rel["implicit"], control=rel["truncated"],
             control_label="truncated gradient (gate treated as a constant)",
             tol=tolerance(rel=0.5, abs=1e-6, why="finite differences through a piecewise-linear map of a trained network"))
claims.check("kd-transfer", statement="The distilled spiking student reaches at least 0.8 of the teacher's mIoU",
             paper="Cos-L2 distillation from a non-spiking teacher (abstract; no number found)", criterion=at_least(0.8),
             measured=R["SpikingVTG"]["miou"] / R["teacher"]["miou"],
             control=R["untrained student"]["miou"] / R["teacher"]["miou"],
             control_label="the spiking student at its random initialisation", tol=TRAIN_TOL)
claims.check("nf-competitive", statement="NF-SpikingVTG (no softmax, no LayerNorm) loses at most 0.05 mIoU against SpikingVTG",
             paper="NF-SpikingVTG stays competitive (abstract; no number found)", criterion=at_least(-0.05),
             measured=R["NF-SpikingVTG"]["miou"] - R["SpikingVTG"]["miou"],
             control=R["NF-SpikingVTG, another video's query"]["miou"] - R["SpikingVTG"]["miou"],
             control_label="NF-SpikingVTG given another video's query", tol=TRAIN_TOL)
claims.check("fewer-operations", statement="SpikingVTG needs at most the teacher's energy (4.6 pJ/MAC, 0.9 pJ/SOP)",
             paper="spike-driven accumulation instead of dense multiply-accumulate (abstract; no number found)",
             criterion=at_most(1.0), measured=R["SpikingVTG"]["energy nJ"] / R["teacher"]["energy nJ"],
             control=R["no-SFG twin"]["energy nJ"] / R["teacher"]["energy nJ"], control_label="the no-SFG twin",
             tol=tolerance(rel=0.1, why="spike counts of a trained network"))
claims.check("wallclock-spiking-vs-dense", statement="Simulated SpikingVTG is no slower than the dense teacher on this CPU",
             paper="(no wall-clock claim in the abstract)", criterion=at_most(1.0), measured=t_spike / t_dense,
             volatile=True)

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
# The numbers below are seed 0 at ci scale; the robustness table above gives every one of the ten ci seeds
# and the full-scale run (seed 0). In short: **the mechanisms work whenever training does not collapse, the
# training of the feedback loop is fragile, and the operation count does not favour the spiking network in
# this miniature.**
#
# * **SFG lowers activity: reproduced at 9 of 10 ci seeds and at full scale.** At seed 0 SpikingVTG fires
#   0.63 times the spikes of its no-SFG twin (bound 0.8; median over seeds 0.70, worst 0.88; 0.49 at full
#   scale). The saving is the gate's: the same weights with the feedback cut fire 1.2 to 1.6 times as much
#   as the twin. The raster shows it: after the four ungated steps, layer 1 goes quiet outside the moment.
# * **without costing accuracy: reproduced at 5 of 10 seeds only, not at full scale.** At seed 0 SFG
#   *gains* 0.014 mIoU (0.830 against 0.815), while shuffling the feedback across clips loses 0.14, so it is
#   the right clips that are silenced. But the margin of $-0.02$ fails at four seeds (losses of 0.035 to 0.053,
#   and 0.51 at seed 7, where fine-tuning fell into the all-gated state) and at one more the shuffled control
#   passes too. At full scale, with five times the fine-tuning steps, SpikingVTG partly collapsed
#   (mIoU 0.43 against 0.89 for the twin).
# * **Rates converge to the equilibrium: reproduced at 8 of 10 seeds, not at full scale.** At seed 0 the
#   mean deviation of the layer-1 rates from the rate network's fixed point falls like $K^{-0.66}$ (bound
#   $-0.5$; $-1$ for a lone neuron, slower here because the gate itself settles during the run), while
#   reset-to-zero neurons stall near 0.05 (slope $-0.16$) at every seed. The two failing seeds (5 and 7)
#   are the two where the adjoint iteration below diverges, a sign that the trained fixed point is not
#   attracting; the spiking run then need not settle where the rate iteration ends.
# * **The implicit gradient is exact: reproduced at 8 of 10 seeds and at full scale.** Where the trained
#   equilibrium is stable, the implicit gradient agrees with central finite differences to about $10^{-8}$,
#   and dropping the feedback term errs by 35% to 465%. At seeds 5 and 7 the adjoint iteration diverged
#   (relative errors of $10^{79}$ and more): there the fixed point is not attracting, $(I-J)^{-1}$ cannot be
#   reached by iteration, and the "equilibrium" gradient does not exist in the form the method assumes.
#   Damping was needed at all: undamped, the SFG map oscillates, and in our pilots fine-tuning fell into the
#   all-gated state in three of six runs.
# * **Distillation transfers: reproduced at 9 of 10 seeds, not at full scale.** The spiking student
#   reaches 0.998 of the dense teacher's mIoU at seed 0 (median 0.97; 0.39 at the collapsed seed 7, 0.49
#   at full scale). The control (the untrained student, about 0.02) is weak; we did not test whether the
#   Cos-L2 term itself helps.
# * **NF-SpikingVTG stays within 0.05 mIoU: not reproduced (4 of 10 seeds, not at full scale).** At seed 0
#   it loses 0.054 (0.776 against 0.830); at four seeds (5 to 8) and at full scale it scores exactly as its
#   query-blind control, that is, its fine-tuning collapsed. Without LayerNorm the currents are not rescaled, and
#   the gate's loop is harder to keep away from the all-gated state.
# * **Fewer operations: not reproduced (0 of 10 seeds, not at full scale).** Under the 45 nm convention
#   SpikingVTG costs 1.9 times the teacher's energy at seed 0 (871 against 455 nJ per video; 1.4 times at
#   full scale; the no-SFG twin about 2.0 times). SFG removes 45% of the synaptic operations, but at
#   $K=30$ steps a layer-1 neuron firing at rate $a$ sends $30a$ spikes to each target where the dense pass
#   does one multiply-accumulate, so the spiking network wins only below about $4.6/(0.9\cdot30)\approx0.17$
#   spikes per step, and the pooling and the gate multiplications (non-spiking, at every step) add MACs the
#   teacher does not pay. Whether the paper's count favours the spiking model at benchmark scale we cannot
#   tell: its numbers were not found.
# * **Wall clock.** Simulated on this CPU the spiking network is 25 to 50 times slower than the dense
#   teacher (volatile, outside the checked table): the simulator does dense tensor work at all 30 steps and
#   exploits no sparsity, so the ratio measures the simulator, not event-driven hardware; it neither
#   supports nor contradicts the SOP count.
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
