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
# # Spike4DGS: 4-D Gaussians from a spike-camera array, in miniature
#
# *Several calibrated spike cameras, fitted jointly by moving Gaussians, recover a fast dynamic scene better
# than one spike camera, including the one nearest the held-out view. Moving Gaussians beat one static model, but
# so do per-frame static fits, and the spike term's gains are matched or beaten by choosing the frame window.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np

from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, greater_than, tolerance
from repro.papers import spike4dgs_spike_array as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # one scene, 16x16 views, 4 cameras, 150 Adam steps; nine variants fitted at once, plus the window runs
    "ci": dict(n_scenes=1, n_gauss=5, n_moving=3, H=16, V=4, n_steps=192, window=16, short=8, long=48,
               iters=150, batch=None, batch_short=12),
    # a few minutes: three scenes, 24x24 views, 6 cameras, 1000 Adam steps on random windows
    "full": dict(n_scenes=3, n_gauss=8, n_moving=4, H=24, V=6, n_steps=400, window=20, short=8, long=100,
                 iters=1000, batch=8, batch_short=8),
})
claims = Claims("spike4dgs-spike-array",
                title="Spike4DGS: Towards High-Speed Dynamic Scene Rendering with 4D Gaussian Splatting "
                      "via a Spike Camera Array",
                authors=None, paper_url="https://openreview.net/forum?id=V5efEA8nIr", scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# A spike camera does not take frames: every pixel integrates light and emits a binary spike each time its
# charge crosses a threshold, tens of thousands of times per second. Spike4DGS builds an *array* of such
# cameras around a fast-moving scene and fits a 4-D Gaussian splatting model (Gaussians whose means move in
# time) to their spike streams. It initialises the Gaussians and camera poses from the spikes, and trains
# with a "spike-pixel synergy" loss: an image term on frames reconstructed from spikes plus a spatio-temporal
# term on the spikes themselves. The paper reports better novel-view quality than earlier spike-based NeRF
# and 3DGS methods, which use one camera and static scenes, on new synthetic and real multi-view spike data.
# **No number of the paper was retrieved** (the brief found the abstract only), and its repository holds no code.
#
# The four comparisons we can test in a miniature are the ones the design rests on:
# an array beats one camera; a moving (4-D) model beats a static one on a moving scene; adding the spike
# term to the frame term does not hurt (shown, not counted: a fit without the spike term passes it by
# definition); and, per the brief, the spike term helps when frames are reconstructed from short, noisy windows.
# Each counted test is run beside the method without the ingredient and a naive alternative (see the Verdict).
#
# ## The method
#
# **Spike camera** (integrate-and-fire with subtractive reset). Pixel intensity $I_n$ (charge per step
# $\Delta t$) is added to an accumulator; when $A \ge \theta$ the pixel fires and keeps the excess:
# $$A_n = A_{n-1} + I_n,\qquad S_n = [A_n \ge \theta],\qquad A_n \leftarrow A_n - \theta S_n .$$
# For a constant $0\le I<\theta$ and $A_0=0$ the number of spikes after $n$ steps is
# $\lfloor nI/\theta\rfloor$ and $A$ stays in $[0,\theta)$ (`integrate_and_fire`, checked in the unit tests
# and against SpikeCV's simulator). **TFP** (texture from playback) turns a window of $w$ steps into a
# frame, $\hat I = \theta N_w / w$, within $\theta/w$ of a constant intensity.
#
# **4-D Gaussians and the renderer.** Gaussian $k$ has mean $\mu_k(t)=\mu_k+v_k t$, isotropic scale
# $\sigma_k$ and amplitude $a_k$. An orthographic camera with image axes $(e_u,e_v)$ sees it as a 2-D
# Gaussian at $(\mu_k\cdot e_u, \mu_k\cdot e_v)$, and the view is white splats composited over black,
# $$R(p,t) = 1-\exp\Big(-\sum_k a_k\, e^{-\|p - P\mu_k(t)\|^2/2\sigma_k^2}\Big)$$
# (`render_ortho`, differentiable, separable in the two image axes).
#
# **Losses.** With spike counts $N_{j}$ in window $j$ (centre $t_j$, length $w$) of each pixel of each camera,
# $$L = \underbrace{\mathrm{mean}\,\big(R(t_j) - \theta N_j/w\big)^2}_{\text{frame (TFP) term}}
#     + \lambda_s\,\underbrace{\mathrm{mean}\,\Big(\tfrac1m\textstyle\sum_{i=1}^m R(t_{j,i}) - \theta N_j/w\Big)^2}_{\text{spike term}},$$
# where the spike term integrates the render over the window ($m=4$ instants, midpoint rule) and asks it to
# produce the observed number of spikes (`spike_consistency_loss`). The frame term compares a *sharp* render
# at the window's centre with a TFP frame that averaged the motion over the window; the spike term does not
# make that error. $\lambda_s=1$. Adam, learning rate 0.02, from a jittered point cloud.
#
# ## The experiment
#
# A random scene of isotropic grey Gaussians in $[-0.5,0.5]^3$ (ci: 5, full: 8), of which some
# (ci: 3, full: 4) cross about half the field of view during the recording (speed 1.2 scene units per
# recording). Training cameras: an array of $V$ orthographic spike cameras spread over a half circle in
# azimuth at elevation 0.25 rad (ci: 4, full: 6, 16x16 or 24x24 pixels). The threshold makes the brightest
# pixel fire about every third step (θ = 3 × the largest intensity). The stream has 192 (ci) or 400 (full)
# steps. The held-out novel camera sits between two array cameras at elevation 0, and the score is the PSNR
# of its views against the true scene at 10 instants.
#
# Fitted variants (all from the same initial point cloud, the same number of Gaussians and the same steps):
#
# | variant | cameras | motion | loss |
# |---|---|---|---|
# | (a) Spike4DGS-like | array | $\mu+vt$ | frame + spike |
# | (b) monocular | camera 0 only | $\mu+vt$ | frame + spike |
# | nearest single camera (comparator of 1) | the array camera nearest the novel view only | $\mu+vt$ | frame + spike |
# | co-located array (ablation of 1) | $V$ cameras all at camera 0's pose | $\mu+vt$ | frame + spike |
# | (c) static 3DGS | array | $v=0$ | frame + spike |
# | (d) frames only | array | $\mu+vt$ | frame |
# | miscalibrated spike term (shown, not a comparator) | array | $\mu+vt$ | frame + spike with θ taken 2× too large |
# | per-frame 3DGS (comparator of 2) | array | one static fit per window | frame + spike |
# | starting cloud (comparator of 1, 2) | — | jittered true centres, unfitted | — |
#
# The still-scene controls rerun (a), (c) and (d) on the same Gaussians held still. Windows: the main runs use
# $w$ = 16 (ci) or 20 (full) steps; the short-window test uses $w$ = 8, and the post-hoc long-window test uses
# $w$ = 48 (ci) or 100 (full). The nearest single camera is picked by one fixed rule, set before it was run: the
# array camera nearest the novel view in azimuth, ties to the lower index (`nearest_camera`). The novel view sits
# exactly between two array cameras, so the rule picks the first of the two.
#
# **Deviations from the paper**
#
# * Data: no spike-camera array data set can be had offline. A synthetic scene of a few grey, isotropic
#   Gaussians moving on straight lines, seen by ideal simulated cameras (no dark current, no readout noise,
#   no photon noise), replaces the paper's synthetic and real multi-view spike data.
# * Scale: 16-24 pixel views, 4-6 cameras, 5-8 Gaussians and 192-400 spike steps, instead of
#   high-resolution spike cameras at 20-40 kHz and dense Gaussian clouds.
# * Cameras: orthographic and perfectly calibrated. The paper's multi-view spike-based dense initialisation,
#   which recovers point clouds and camera poses from spikes, is not reproduced. We start from the true
#   centres at mid-recording jittered by 0.15 scene units, with the true number of Gaussians.
# * 4-D model: a constant velocity per Gaussian. The paper's deformation field (4DGS uses a HexPlane and an
#   MLP) is replaced by the simplest motion model that can represent our scene exactly.
# * Rendering: white splats over black (order-free compositing) with isotropic Gaussians. There is no colour,
#   no view dependence and no depth sorting.
# * Losses: squared errors for both terms with $\lambda_s = 1$. The paper's exact image and spike losses and
#   weights are not known (its code is not released). The brief suggests an L1 image term.
# * Metric: PSNR only in the claims. No LPIPS, and no comparison with published methods.
# * Our defaults where the paper gives none: θ = 3 × the brightest intensity, TFP windows as above, learning rate
#   0.02, initial scale 0.25 and amplitude 0.7, $m = 4$ instants per window, the novel camera's pose.
# * The speed, the windows and the camera layout were chosen from the brief before the claims were written.
#   Pilot runs were looked at first: seeds 0-1 at ci sizes with windows of 4 to 64 steps, and seeds 0-2 at
#   full sizes. They showed that the spike term's gain is near zero at short windows and grows with the window,
#   so the long-window test was added after them (flagged †). They also showed that one full-size scene in three can stick in
#   a poor local optimum, which is why the full preset averages three scenes. The first full run used 1200
#   Adam steps. It took 12.5 minutes on the loaded machine, so the preset was cut to 1000 steps before the
#   sweep. The full-scale status of each test is the one in the full-scale sweep table, not a number typed here.

# %%
V, H, ext, speed, elev = P.V, P.H, 1.2, 1.2, 0.25
axes = K.camera_axes(np.arange(V) * np.pi / V, np.full(V, elev))          # the array: half circle
coloc = K.camera_axes(np.zeros(V), np.full(V, elev))                      # V cameras at camera 0's pose
novel_az = np.pi / (2 * V) + np.pi / 2
novel = K.camera_axes([novel_az], [0.0])                                  # held-out view
NEAR = K.nearest_camera(np.arange(V) * np.pi / V, novel_az)   # fixed rule: nearest azimuth, ties to lower index
t_step = K.stream_times(P.n_steps)
t_eval = (np.arange(10) + 0.5) / 10

scenes = [K.make_scene(P.rng, P.n_gauss, P.n_moving, speed=speed) for _ in range(P.n_scenes)]
stills = [K.freeze(s) for s in scenes]
inits = [K.init_from_points(s, P.rng) for s in scenes]
videos = {(i, kind): K.render_scene(sc, t_step, cams, H, H, ext)
          for i, (s, st) in enumerate(zip(scenes, stills))
          for kind, sc, cams in (("move", s, axes), ("still", st, axes), ("coloc", s, coloc))}
theta = 3.0 * max(v.max() for v in videos.values())                       # brightest pixel: ~1 spike / 3 steps
spikes = {key: K.simulate_spikes(v, theta) for key, v in videos.items()}
print(f"theta = {theta:.3f}; spikes per pixel per step: {np.mean([s.mean() for s in spikes.values()]):.3f}")


# %%
def run(window, specs, batch, n_sub=4):
    """Fit every (scene, variant) at once for one window length; return PSNR[(scene, name)] (mean over t_eval)."""
    rows = [(i, name, spec) for i in range(P.n_scenes) for name, spec in specs.items()]
    cnt = {key: K.spike_counts(s, window) for key, s in spikes.items()}
    init = K.Scene(*(np.stack([getattr(inits[i], f) for i, _, _ in rows]) for f in ("mu0", "vel", "sigma", "amp")))
    weight = np.ones((len(rows), V))
    for r, (_, _, spec) in enumerate(rows):
        if spec.get("cam") is not None:                                    # single-camera variant
            weight[r] = 0.0
            weight[r, spec["cam"]] = 1.0
    fit = K.fit_splats(
        init, np.stack([coloc if spec.get("data") == "coloc" else axes for _, _, spec in rows]),
        np.stack([cnt[(i, spec.get("data", "move"))] for i, _, spec in rows]), window, P.n_steps, theta, H, H, ext,
        cam_weight=weight, dynamic=[spec.get("dynamic", True) for _, _, spec in rows],
        lam_spk=[spec.get("lam_spk", 1.0) for _, _, spec in rows],
        theta_model=[theta * spec.get("theta_x", 1.0) for _, _, spec in rows],
        n_sub=n_sub, iters=P.iters, batch=batch, seed=seed, progress=progress)
    truth = {"move": scenes, "coloc": scenes, "still": stills}
    out = {}
    for r, (i, name, spec) in enumerate(rows):
        out[(i, name)] = K.novel_view_psnr(fit.scenes[r], truth[spec.get("data", "move")][i], novel, t_eval, H, H, ext)
    return out, fit


main_specs = {
    "array": {}, "mono": dict(cam=0), "mono-near": dict(cam=NEAR), "coloc": dict(data="coloc"), "static": dict(dynamic=False),
    "frames": dict(lam_spk=0.0), "wrong-theta": dict(theta_x=2.0),
    "array-still": dict(data="still"), "static-still": dict(data="still", dynamic=False),
}
psnr_main, fit_main = run(P.window, main_specs, P.batch)
psnr_short, _ = run(P.short, {"array": {}, "frames": dict(lam_spk=0.0), "wrong-theta": dict(theta_x=2.0)},
                    P.batch_short)
psnr_long, _ = run(P.long, {"array": {}, "frames": dict(lam_spk=0.0), "array-still": dict(data="still"),
                            "frames-still": dict(data="still", lam_spk=0.0)}, None)
# ablation of the spike term's integration over the window: the same loss with the render taken at the window's
# centre only (one instant instead of 4), which makes the spike term a second frame term
psnr_short.update(run(P.short, {"no-integration": {}}, P.batch_short, n_sub=1)[0])
psnr_long.update(run(P.long, {"no-integration": {}}, None, n_sub=1)[0])


# Naive baselines (comparators): per-frame 3DGS, one static fit per spike window of the main run (no motion
# model linking windows), and the starting point cloud itself, unfitted.
psnr_pw, psnr_init = [], []
for i in range(P.n_scenes):
    cnt_i = K.spike_counts(spikes[(i, "move")], P.window)
    fits_pw = K.fit_per_window_static(inits[i], axes, cnt_i, P.window, theta, H, H, ext, iters=P.iters, seed=seed)
    psnr_pw.append(K.per_window_psnr(fits_pw, scenes[i], novel, t_eval, H, H, ext))
    psnr_init.append(K.novel_view_psnr(inits[i], scenes[i], novel, t_eval, H, H, ext))
for i in range(P.n_scenes):
    psnr_main[(i, "per-window-static")] = psnr_pw[i]
    psnr_main[(i, "init")] = psnr_init[i]


def mean_psnr(table, name):
    """Novel-view PSNR of a variant: mean over the 10 instants, then over scenes; and the per-scene values."""
    per_scene = np.array([table[(i, name)].mean() for i in range(P.n_scenes)])
    return float(per_scene.mean()), per_scene


def gap(table, a, b):
    return mean_psnr(table, a)[0] - mean_psnr(table, b)[0]


for label, table in (("main", psnr_main), ("short", psnr_short), ("long", psnr_long)):
    print(label, {name: round(mean_psnr(table, name)[0], 2) for (i, name) in table if i == 0})

# %% [markdown]
# ## Results
#
# ### What the cameras record
#
# Left: the true view of camera 0 at mid-recording. Middle: the spike raster of one image row of that camera
# (time runs down; bright pixels fire every few steps, the moving blobs draw slanted bands). Right: TFP frames
# from windows of three lengths. Short windows are coarse (few spikes per pixel), and long ones smear the moving
# Gaussians along their paths.

# %%
s0 = spikes[(0, "move")]
row = H // 2 + 1
fig, ax = plt.subplots(1, 5, figsize=(13, 3.0), gridspec_kw=dict(width_ratios=[1, 1.4, 1, 1, 1]))
ax[0].imshow(videos[(0, "move")][P.n_steps // 2, 0], cmap="gray", vmin=0, vmax=1)
ax[0].axhline(row, color="tab:red", lw=0.8)
ax[0].set_title("true view, camera 0, t = 0.5")
t_idx, x_idx = np.nonzero(s0[:, 0, row, :])
ax[1].scatter(x_idx, t_idx, s=2, marker="s", color="k")
ax[1].invert_yaxis()
ax[1].set_xlabel("pixel column")
ax[1].set_ylabel("time step")
ax[1].set_title(f"spikes of row {row} (red line)")
for a, w in zip(ax[2:], (P.short, P.window, P.long)):
    frames = K.tfp_reconstruct(s0, w, theta)
    a.imshow(frames[len(frames) // 2, 0], cmap="gray", vmin=0, vmax=1)
    a.set_title(f"TFP, window {w} steps")
for a in ax[[0, 2, 3, 4]]:
    a.set_xticks([]), a.set_yticks([])
plt.show()

# %% [markdown]
# ### Novel views
#
# The held-out camera at three instants: the truth, then each fitted variant (scene 0). The monocular fit gets no
# information on depth (see the Verdict), which shows up from the side. The static fit smears the moving
# Gaussians over their paths.

# %%
show = [("truth", None), ("array", "array"), ("mono", "mono"), ("static", "static"), ("frames", "frames")]
t_show = np.array([0.1, 0.5, 0.9])
fig, ax = plt.subplots(len(t_show), len(show), figsize=(2.0 * len(show), 2.0 * len(t_show)))
names = list(main_specs)
for c, (label, name) in enumerate(show):
    sc = scenes[0] if name is None else fit_main.scenes[names.index(name)]
    imgs = K.render_scene(sc, t_show, novel, H, H, ext)[:, 0]
    for r in range(len(t_show)):
        ax[r, c].imshow(imgs[r], cmap="gray", vmin=0, vmax=1)
        ax[r, c].set_xticks([]), ax[r, c].set_yticks([])
        if r == 0:
            ax[r, c].set_title(label if name is None else f"{label}\n{psnr_main[(0, name)].mean():.1f} dB")
        if c == 0:
            ax[r, c].set_ylabel(f"t = {t_show[r]:.1f}")
plt.show()

# %% [markdown]
# ### Novel-view PSNR per variant and over time
#
# Left: PSNR (dB) of each variant, averaged over the 10 instants (dots: scenes; bar: their mean). Right:
# PSNR against time for scene 0. The static model is best near mid-recording and degrades towards the ends, where
# the moving Gaussians are furthest from their average positions.

# %%
fig, ax = plt.subplots(1, 2, figsize=(12, 3.6))
bars = ["array", "mono", "mono-near", "coloc", "static", "per-window-static", "init", "frames", "wrong-theta", "array-still",
        "static-still"]
for k, name in enumerate(bars):
    m, per = mean_psnr(psnr_main, name)
    ax[0].bar(k, m, color="tab:blue" if name == "array" else "0.7")
    ax[0].scatter(np.full(len(per), k), per, color="k", s=10, zorder=3)
ax[0].set_xticks(range(len(bars)))
ax[0].set_xticklabels(bars, rotation=30, ha="right")
ax[0].set_ylabel("novel-view PSNR (dB)")
ax[0].set_title(f"window {P.window} steps, {P.n_scenes} scene(s)")
for name in ("array", "mono", "static", "frames"):
    ax[1].plot(t_eval, psnr_main[(0, name)], marker="o", label=name)
ax[1].set_xlabel("time in the recording (fraction)")
ax[1].set_ylabel("novel-view PSNR (dB)")
ax[1].legend()
ax[1].set_title("scene 0")
plt.show()

# %% [markdown]
# ### What the spike term adds, by window length
#
# The gain of frame + spike over frames only, PSNR(a) − PSNR(d), for the moving scene and for the still scene,
# at the three window lengths (dots: scenes). A frame from a window of $w$ steps averages the motion inside the
# window. The spike term, which integrates the render over the same window, is the only one of the two that
# models this.

# %%
fig, ax = plt.subplots(figsize=(6, 3.6))
ws = [P.short, P.window, P.long]
g_move = [np.array([t[(i, "array")].mean() - t[(i, "frames")].mean() for i in range(P.n_scenes)])
          for t in (psnr_short, psnr_main, psnr_long)]
ax.plot(ws, [g.mean() for g in g_move], marker="o", label="moving scene")
for w, g in zip(ws, g_move):
    ax.scatter(np.full(len(g), w), g, color="tab:blue", s=10)
g_still = np.array([psnr_long[(i, "array-still")].mean() - psnr_long[(i, "frames-still")].mean()
                    for i in range(P.n_scenes)])
ax.scatter([P.long], [g_still.mean()], marker="s", color="tab:orange", label="still scene", zorder=3)
ax.axhline(0, color="0.5", lw=0.8)
ax.set_xticks(ws)
ax.set_xlabel("TFP window (spike steps)")
ax.set_ylabel("PSNR(a) − PSNR(d)  (dB)")
ax.legend()
plt.show()

# %% [markdown]
# ### The paper's numbers beside ours
#
# The brief found no PSNR, SSIM or LPIPS value of the paper. The table lists the brief's pre-registered
# thresholds beside our measurements (novel-view PSNR differences, dB).

# %%
rows = [
    ("array − monocular", "no number found; brief: ≥ 3 dB", gap(psnr_main, "array", "mono")),
    ("dynamic − static (moving scene)", "no number found; brief: ≥ 2 dB", gap(psnr_main, "array", "static")),
    (f"frame+spike − frame only, window {P.window}", "no number found; brief: ≥ −0.5 dB", gap(psnr_main, "array", "frames")),
    (f"frame+spike − frame only, window {P.short}", "no number found; brief: > 0 dB", gap(psnr_short, "array", "frames")),
    (f"frame+spike − frame only, window {P.long} (†)", "no number found; brief's margin: ≥ 0.5 dB",
     gap(psnr_long, "array", "frames")),
]
print(f"{'setting':44s} {'paper':36s} ours (dB)")
for setting, paper, ours in rows:
    print(f"{setting:44s} {paper:36s} {ours:+.2f}")

# %% [markdown]
# ## Against the official code
#
# The paper's code: [Qinghongye/Spike4DGS](https://github.com/Qinghongye/Spike4DGS) (commit `1e45b20`). That
# commit holds a README that says "coming soon" and a project web page copied from another paper
# (EvaGaussians). It has no code and no data, so nothing of the paper's own could be read or run.
#
# The golden test therefore runs the reference spike-camera code of the community instead:
# [SpikeCV](https://github.com/spikecv/spikecv) (commit `e8298e1`), PKU's open toolkit for spike cameras. Its
# `spkData/convert_video.py::video_to_spike` and `spkProc/reconstruction/tfp.py::TFP.spikes2frame` were run once
# outside the project, with a stub for OpenCV, on 40 seeded 4x5 frames
# (`tests/papers/golden/spike4dgs-spike-array.json`).
#
# **What agrees.**
#
# - *Simulator with a random initial accumulator* (threshold 2, intensities frame/255): all 800 spike bits of
#   `video_to_spike` (197 spikes) equal those of our `simulate_spikes(video / 255, 2.0, init=...)`.
# - *Constant frame, zero initial accumulator*: `integrate_and_fire(frame / 255, 2.0, 40)` equals SpikeCV's spike
#   trains bit for bit (165 spikes). Both fire when the accumulator reaches θ (`>=`) and subtract θ.
# - *TFP*: SpikeCV's 8-bit frames (mean spike rate × 255 over centred windows of 7 steps) equal
#   ⌊255 · `tfp_reconstruct`/θ⌋ on the five windows.
#
# **Departures.** SpikeCV starts the accumulator at a uniform random charge by default (`init_noise=True`),
# as real sensors do; the issue asks for a zero start, which we use. SpikeCV's zero-start branch calls
# `np.random.zeros`, which numpy does not have, so that branch raises `AttributeError` as released. For the
# golden case we replaced that call with `np.zeros`. SpikeCV's other simulator, `convert_img.img_to_spike`,
# resets to zero instead of subtracting θ; we follow the subtractive reset of `video_to_spike`, which the issue
# asks for. Our TFP divides by the window and multiplies by θ (intensity per step), where SpikeCV scales to
# 0-255. Our windows do not overlap, where SpikeCV's slide.

# %%
def cross(ta, a, tb, b):
    """PSNR of variant a in table ta minus that of variant b in table tb (same scenes, same novel view)."""
    return mean_psnr(ta, a)[0] - mean_psnr(tb, b)[0]


tol_gap = tolerance(rel=0.05, abs=0.1, why=f"difference of novel-view PSNRs after {P.iters} float32 Adam steps")
tol_zero = tolerance(rel=0.05, abs=0.1, bound=True,
                     why=f"PSNR differences after {P.iters} float32 Adam steps; a control that is 0 up to rounding is shown as a bound")
INIT = "the starting point cloud, unfitted (true centres at mid-recording jittered by 0.15, no velocity)"
V_mono, V_coloc, V_init_mono = gap(psnr_main, "array", "mono"), gap(psnr_main, "coloc", "mono"), gap(psnr_main, "init", "mono")
V_near_mono, V_array_near = gap(psnr_main, "mono-near", "mono"), gap(psnr_main, "array", "mono-near")
claims.test(
    "array-beats-monocular",
    statement="Fitting the spike streams of a camera array gives a better novel view than fitting one spike camera "
              "(PSNR(a) − PSNR(b), dB, mean over scenes).",
    paper="multi-view spike array motivated by the limited coverage of one camera; no number found "
          "(brief: ≥ 3 dB in the miniature)",
    criterion=at_least(3.0), measured=V_mono, tol=tol_zero,
    ablation=Comparator("co-located array: the same number of spike streams, all from camera 0's pose, minus the "
                        "monocular fit (identical to the monocular fit by construction: the simulated streams are "
                        "noise-free and bit-identical)", V_coloc,
                        ingredient="the spread of viewpoints (parallax) of the array"),
    baselines=[Comparator(INIT + ", minus the monocular fit", V_init_mono),
               Comparator(f"one spike camera next to the novel view (array camera {NEAR}, the nearest in azimuth, "
                          "ties to the lower index), minus the monocular fit", V_near_mono)])

V_dyn, V_pw, V_init_static = gap(psnr_main, "array", "static"), gap(psnr_main, "per-window-static", "static"), \
    gap(psnr_main, "init", "static")
claims.test(
    "dynamic-beats-static",
    statement="On the moving scene, Gaussians with velocities beat a static Gaussian model "
              "(PSNR(a) − PSNR(c), dB).",
    paper="4-D Gaussians for high-speed dynamic scenes vs static spike 3DGS/NeRF; no number found "
          "(brief: ≥ 2 dB)",
    criterion=at_least(2.0), measured=V_dyn, tol=tol_gap,
    ablation=Comparator(f"per-frame 3DGS: one static fit per window of {P.window} steps (same cameras, losses and "
                        "steps), each instant rendered by its window's fit, minus the static fit", V_pw,
                        ingredient="a motion model (per-Gaussian velocity) shared by all windows"),
    baselines=[Comparator(INIT + ", minus the static fit", V_init_static)])

V_short, V_short_w = gap(psnr_short, "array", "frames"), cross(psnr_main, "frames", psnr_short, "frames")
claims.test(
    "spike-loss-helps-short-windows",
    statement=f"With frames from short windows ({P.short} steps, few spikes per pixel), the spike term improves "
              "the novel view (PSNR(a) − PSNR(d) > 0).",
    paper="brief: at TFP windows ≤ 8 steps, PSNR(a) > PSNR(d) (full scale); no number found",
    criterion=greater_than(0.0), measured=V_short, tol=tol_gap,
    ablation=Comparator(f"frame + spike term with the render at the window's centre only (no integration over "
                        f"the window), window {P.short}", gap(psnr_short, "no-integration", "frames"),
                        ingredient="the spike term's integration of the render over the window"),
    baselines=[Comparator(f"frame term only on less noisy frames: TFP window {P.window} instead of {P.short}",
                          V_short_w)])

V_long, V_long_w16, V_long_w8 = gap(psnr_long, "array", "frames"), cross(psnr_main, "frames", psnr_long, "frames"), \
    cross(psnr_short, "frames", psnr_long, "frames")
claims.test(
    "spike-loss-helps-long-windows",
    statement=f"With frames from long windows ({P.long} steps, the moving Gaussians smear inside a window), the "
              "spike term improves the novel view by at least 0.5 dB.",
    paper="the dynamic spatio-temporal spike loss targets high-speed motion; no number found",
    criterion=at_least(0.5), measured=V_long, tol=tol_zero,
    ablation=Comparator(f"frame + spike term with the render at the window's centre only (no integration over "
                        f"the window), window {P.long}", gap(psnr_long, "no-integration", "frames"),
                        ingredient="the spike term's integration of the render over the window"),
    baselines=[Comparator(f"frame term only on frames that do not smear: TFP window {P.window} instead of {P.long}",
                          V_long_w16),
               Comparator(f"frame term only, TFP window {P.short} instead of {P.long}", V_long_w8)],
    post_hoc="added after the pilot run showed that the spike term's gain is about zero at short windows and grows "
             "with the window; the 0.5 dB threshold is the brief's margin of claim 3")

V_harm, V_wrong, V_still = gap(psnr_main, "array", "frames"), gap(psnr_main, "wrong-theta", "frames"), \
    gap(psnr_main, "array-still", "static-still")
claims.illustrate(
    "spike-loss-not-harmful",
    statement=f"Adding the spike term to the frame term does not cost more than 0.5 dB "
              f"(PSNR(a) − PSNR(d), window {P.window} steps).",
    paper="spike-pixel synergy loss (image + spike terms) improves rendering; no number found (brief: ≥ −0.5 dB)",
    criterion=at_least(-0.5), measured=V_harm, tol=tol_gap,
    why="a 'does not hurt' bar that a no-op passes: the frame-only fit itself scores 0 dB against it, while the "
        "paper claims a gain (tested by the two window tests)")

claims.headline("array-beats-one-camera", "An array of spike cameras recovers a fast scene better than one spike camera.",
                tests=["array-beats-monocular"])
claims.headline("4d-beats-static", "Moving (4-D) Gaussians render high-speed dynamic scenes better than static "
                "spike-based 3DGS or NeRF.", tests=["dynamic-beats-static"])
claims.headline("spike-pixel-synergy", "Adding a spatio-temporal spike loss to the image loss on reconstructed frames "
                "improves the rendering.", tests=["spike-loss-helps-short-windows", "spike-loss-helps-long-windows"])
claims.headline("beats-sota-with-dense-init", "With a dense initialisation of points and poses from spikes, the "
                "method beats published methods on new synthetic and real multi-view spike data sets.",
                untestable="no data set, no code and no number of the paper could be had, and the dense initialisation "
                           "from spikes is not reproduced (the fits start from jittered true centres)")

for key, val in dict(v_mono=V_mono, v_near_mono=V_near_mono, v_array_near=V_array_near, v_coloc=V_coloc, v_init_mono=V_init_mono, v_dyn=V_dyn, v_pw=V_pw,
                     v_init_static=V_init_static, v_short=V_short, v_short_w=V_short_w, v_long=V_long,
                     v_long_w16=V_long_w16, v_long_w8=V_long_w8, v_harm=V_harm, v_wrong=V_wrong, v_still=V_still,
                     p_array=mean_psnr(psnr_main, "array")[0], p_mono=mean_psnr(psnr_main, "mono")[0],
                     p_init=mean_psnr(psnr_main, "init")[0]).items():
    glue(key, float(val), display=False)
glue("v_short_noint", float(gap(psnr_short, "no-integration", "frames")), display=False)
glue("v_long_noint", float(gap(psnr_long, "no-integration", "frames")), display=False)
glue("tol_abs", float(tol_gap.abs), display=False)
for key, val in dict(thr_long=0.5, thr_harm=-0.5).items():   # the tests' thresholds, as passed to claims above
    glue(key, val, display=False)
for key, val in dict(short_w=P.short, main_w=P.window, long_w=P.long, near_cam=NEAR).items():
    glue(key, int(val), display=False)

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
# Values below are at seed 0 (ci scale, one scene), in dB of novel-view PSNR; counts of seeds are over the ci
# sweep (seeds 0-9). Each test compares the paper's ingredient with the method without it and with a naive
# alternative a skeptic would try, under the same measurement and bar.
#
# * *Array beats one camera* ({repro-status}`array-beats-monocular`, the brief's 3 dB). The array's fit is
#   {glue:text}`v_mono:.1f` dB above the monocular fit and clears the bar at
#   {repro-seeds}`array-beats-monocular:method:pass` seeds. The ablation, as many spike streams all from camera
#   0's pose, is {glue:text}`v_coloc:.1f` dB above it, but it is the monocular fit by construction: the simulated
#   cameras are noise-free, so the co-located streams are identical, and a camera-weighted mean of identical
#   losses is the monocular loss. It cannot pass, and the miniature cannot separate "more sensors" from "more
#   viewpoints". The unfitted starting cloud is {glue:text}`v_init_mono:.1f` dB from the monocular fit (passes at
#   {repro-seeds}`array-beats-monocular:baseline1:pass`), a weak baseline too. The comparator that can pass is
#   one camera next to the novel view (array camera {glue:text}`near_cam`, by the fixed rule above): it is
#   {glue:text}`v_near_mono:.1f` dB from the camera-0 fit (passes at
#   {repro-seeds}`array-beats-monocular:baseline2:pass` seeds), and the array is {glue:text}`v_array_near:.1f` dB
#   above it. The test's specificity rests on this comparator alone. Why one camera fails: an orthographic
#   camera's image does not change when a Gaussian moves along the viewing direction, so the monocular fit gets
#   no gradient for depth or depth velocity; they stay at the jittered start, up to Adam's normalisation of
#   rounding-level gradients, and the error shows from the side.
# * *Moving Gaussians beat a static model* ({repro-status}`dynamic-beats-static`, the brief's 2 dB). The velocity
#   model is {glue:text}`v_dyn:.1f` dB above one static fit of the whole recording (passes at
#   {repro-seeds}`dynamic-beats-static:method:pass` seeds). But per-frame 3DGS, one static fit per window with
#   no motion model, is {glue:text}`v_pw:.1f` dB above it and clears the same bar (passes at
#   {repro-seeds}`dynamic-beats-static:ablation:pass` seeds). A single static model of a moving scene pays for
#   the motion by construction, so a 2 dB bar over it does not single out the velocity model. The velocity model
#   still ends above per-frame 3DGS at seed 0 (the two values above), but that comparison was not a
#   pre-registered test. On the same Gaussians held still the velocity model and the static model differ by
#   {glue:text}`v_still:.2f` dB.
# * *The spike term at short windows* ({repro-status}`spike-loss-helps-short-windows`, bar > 0). The spike term
#   adds {glue:text}`v_short:.3f` dB to the frame-only fit, far inside the {glue:text}`tol_abs:.1f` dB at which a PSNR difference
#   repeats (passes beyond its band at {repro-seeds}`spike-loss-helps-short-windows:method:pass` seeds). Fitting
#   frames only, but on frames from windows twice as long, gains {glue:text}`v_short_w:.1f` dB (passes at
#   {repro-seeds}`spike-loss-helps-short-windows:baseline1:pass` seeds). A possible reason, not tested here: the
#   model has a few dozen parameters fitted to thousands of pixels, so the quantisation noise of short windows may
#   average out with or without the spike term. The ablation, the same loss with the spike term's render taken at
#   the window's centre only, is at {glue:text}`v_short_noint:.3f` dB, and it fails by construction: with one
#   instant the spike term equals the frame term (`spike_consistency_loss` with $m = 1$), so the loss is the
#   frame loss doubled, and Adam is invariant to that scale. The ablation is the frames-only fit up to Adam's
#   $\epsilon$; the window choice is the only real comparator.
# * † *The spike term at long windows* ({repro-status}`spike-loss-helps-long-windows`, post hoc, {glue:text}`thr_long:.1f` dB). The
#   spike term adds {glue:text}`v_long:.2f` dB to the frame-only fit at {glue:text}`long_w` steps (passes at
#   {repro-seeds}`spike-loss-helps-long-windows:method:pass` seeds). A TFP frame from a long window smears a moving
#   Gaussian along its path, and the spike term, which integrates the render over the window as the sensor does,
#   removes that bias. Without that integration (the render at the window's centre only) the gain is
#   {glue:text}`v_long_noint:.2f` dB; as at short windows, this ablation is the frames-only fit by construction.
#   But the naive fix, frames only from shorter windows that do not smear, gains more:
#   {glue:text}`v_long_w16:.1f` dB with windows of {glue:text}`main_w` steps (passes at
#   {repro-seeds}`spike-loss-helps-long-windows:baseline1:pass` seeds) and {glue:text}`v_long_w8:.1f` dB with
#   windows of {glue:text}`short_w` steps (passes at {repro-seeds}`spike-loss-helps-long-windows:baseline2:pass`).
#   With ideal cameras, choosing the window is enough here; the spike term is not needed.
# * *The spike term does not hurt* (the illustration `spike-loss-not-harmful`): {glue:text}`v_harm:.2f` dB at
#   {glue:text}`main_w` steps against the brief's {glue:text}`thr_harm:.1f` dB. The frame-only fit passes this bar by definition, so it
#   is shown and not counted. The same term with θ taken twice too large changes the result by
#   {glue:text}`v_wrong:.1f` dB: a miscalibrated spike term is costly (a sensitivity check, not evidence that the
#   calibrated term helps).
#
# In short: the array beats one camera, and its specificity rests on the single camera nearest the novel view
# (the co-located ablation and the starting cloud fail by construction); the gain of moving Gaussians over one
# static model is also reached by per-frame static fits; and the spike term's gains are matched or beaten by
# choosing the TFP window. The full-scale status of each test is shown in the full-scale sweep table.
#
# ## What a skeptic would try
#
# These are the naive alternatives measured by the notebook (seed 0, ci scale, the same scene, cameras,
# initial cloud, steps and novel view as the tests).
#
# * **One camera, but the one next to the novel view.** The array camera nearest the held-out view in azimuth
#   (camera {glue:text}`near_cam`; the rule was fixed before the run, ties to the lower index), fitted alone:
#   {glue:text}`v_near_mono:.1f` dB from the camera-0 fit, and {glue:text}`v_array_near:.1f` dB below the array.
#   A well-placed single camera can also beat the camera-0 fit, so the 3 dB bar against camera 0 is partly about
#   which camera is chosen.
#
# * **Do nothing: render the starting cloud.** The fits start from jittered true centres. Unfitted,
#   that cloud is {glue:text}`v_init_mono:.1f` dB from the monocular fit and {glue:text}`v_init_static:.1f` dB
#   from the static fit ({glue:text}`p_init:.1f` dB absolute, against {glue:text}`p_array:.1f` dB for the array
#   fit and {glue:text}`p_mono:.1f` dB for the monocular one). Fitting does the work; the starting cloud alone
#   clears neither bar.
# * **Per-frame 3DGS instead of a motion model.** One static fit per window of {glue:text}`main_w` steps, each
#   with the same losses and Adam steps: {glue:text}`v_pw:.1f` dB above the single static fit, enough for the 2 dB
#   bar.
# * **Choose the TFP window instead of adding a spike term.** Frames only, at a window of {glue:text}`main_w`
#   steps: {glue:text}`v_short_w:.1f` dB above frames only at {glue:text}`short_w` steps, and
#   {glue:text}`v_long_w16:.1f` dB above frames only at {glue:text}`long_w` steps.
# * **Miscalibrated spike model** (θ 2× too large): {glue:text}`v_wrong:.1f` dB against frames only. This one
#   fails by construction and is not a comparator of any test.
#
# Reviewed by an independent skeptic (a second helper who reran seeds 0-9 with their own scripts); what they
# tried is above. They also tried two things not measured on the page, so no number of theirs is given: the
# monocular fit with four times the Adam steps, which did not rescue it (consistent with depth having no
# gradient), and two cameras next to the novel view, which came close to the 4-camera array. "An array" in this
# miniature may thus mean little more than "a view near the test view plus one more".
#
# ## What the miniature cannot show
#
# * Real spike data: dark current, photon noise, readout noise and fixed-pattern noise are absent. With ideal
#   cameras and a model that contains the true scene, quantisation is the only noise. Short windows therefore
#   cost little here, which is why the short-window test is the one the miniature cannot settle. The harder
#   setting for it is the brief's optional Poisson dark-noise spikes, with short windows at full scale; it was
#   not run, and with ideal cameras the naive fix (a longer TFP window) wins.
# * Weak comparators: the unfitted starting cloud is a weak baseline for the array and motion tests, because the
#   fits start from jittered true centres. A harder start (the brief's back-projection of TFP frames, or the
#   paper's spike-based dense initialisation) would test whether a monocular or per-frame fit can recover from a
#   poor start; it was not run. The co-located ablation of the array test is the monocular fit by construction
#   (identical noise-free streams). The ablation of the two spike-term tests (the render at the window's centre
#   only) makes the spike term equal to the frame term, so it is the frames-only fit with a doubled loss, which
#   Adam cannot tell apart; it fails by construction, and the window choices are the only real comparators.
# * Motion model against per-frame fits: the velocity model ends above per-frame 3DGS at seed 0, but that margin
#   is not a pre-registered test, and with the exact constant-velocity motion of our scene the comparison
#   favours the velocity model more than the paper's deformation fields would be favoured on real motion.
# * Calibration and initialisation: the paper recovers camera poses and a dense point cloud from spikes. We
#   hand the fit perfect poses and a jittered copy of the true centres, with the right number of Gaussians.
# * Real motion and appearance: our Gaussians are grey, isotropic and move on straight lines. Rotation,
#   deformation, occlusion ordering, colour and view dependence are all missing.
# * Scale and speed: 16-24 pixel views and a few hundred spike steps. The paper's cameras run at tens of kHz
#   on high-resolution sensors. Whether the array still wins when poses are estimated, or when only a few
#   cameras overlap, is not tested.
# * Any comparison with published methods (SpikeNeRF, SpikeGS, 4DGS on TFP/TFI frames, ...), and any of the
#   paper's numbers, since none was retrieved.
