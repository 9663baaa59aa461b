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
# # Sec-MMFL: modality-aware noise against gradient inversion in multimodal federated learning
#
# *In a multimodal federated model, one modality's gradients can leak more than another's. Measuring each
# modality's leakage with a conditional mutual information and giving the leakier modality more of the noise
# budget protects the worst-exposed modality better than spreading the same budget evenly, at a small
# accuracy cost.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np

from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, tolerance
from repro.papers import sec_mmfl_modality_privacy as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    "ci": dict(repeats=3, rounds=400, n_attack=200, n_probe=300),      # about 10 s on one thread
    "full": dict(repeats=5, rounds=1500, n_attack=500, n_probe=600),   # about 1-2 minutes
})
# fixed design, the same at both scales (chosen before the first run; see "The experiment")
HIDDEN_A, HIDDEN_B, N_CLIENTS, LR, N_TRAIN, PCA_K = 32, 8, 4, 0.1, 1200, 6
KAPPAS = np.array([0.03, 0.1, 0.3, 1.0, 3.0, 10.0])  # protection level: noise std / rms bias gradient
KAPPA_OP, KAPPA_HIGH = 0.3, 10.0                     # operating point of the claims; the cost claim's control
MODS = ("A", "B")
claims = Claims("sec-mmfl-modality-privacy", title="Sec-MMFL (multimodal federated learning privacy)",
                authors=None, paper_url="https://openreview.net/forum?id=UlpAIz6o5u", scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# Gradient inversion attacks rebuild a client's input from the gradient it shares. In multimodal federated
# learning each modality has its own encoder, and the attacker can invert each encoder's gradient separately;
# the modalities are also correlated, so what one modality's gradient reveals can overlap with what the
# other reveals. The paper argues that (1) different modalities leak different amounts of information and so
# need different protection, (2) the leakage of modality $m$ should be measured as a *conditional* mutual
# information, given what the other modalities already leak, and (3) sizing each modality's protection from
# that estimate gives more balanced protection at an acceptable utility cost. We found only the abstract:
# no numbers, no code, no title. The comparison below is therefore qualitative.
#
# ## The method
#
# A client shares, per modality $m$, the gradient $G_m = (\partial L/\partial W_m, \partial L/\partial b_m)$ of
# its encoder $h_m = \mathrm{relu}(W_m x_m + b_m)$. For a fully connected layer at batch size 1,
# $\partial L/\partial W_m = \delta_m x_m^\top$ and $\partial L/\partial b_m = \delta_m$, so the attacker recovers
# $$\hat x_m = \frac{\sum_i g_{b,i}\, g_{W,i}}{\sum_i g_{b,i}^2},$$
# exactly without noise (the least-squares version of the row ratio $g_{W,i}/g_{b,i}$). The defence adds
# Gaussian noise of variance $\sigma_m^2$ to every entry of $G_m$.
#
# *Leakage.* With the Gaussian (log-det) estimator
# $I(X;Y) = \tfrac12\log\frac{\det\Sigma_X\det\Sigma_Y}{\det\Sigma_{XY}}$ (`K.gaussian_mi`) and its conditional
# form (`K.gaussian_cmi`), the leakage of modality $m$ at a probe noise level is
# $$\ell_m = I\big(X_m;\ \hat X_m \,\big|\, \hat X_{-m}\big),$$
# estimated on the client's own samples after projecting every quantity onto the first $k=6$ principal
# components of that modality's data.
#
# *Allocation.* With a budget $\sum_m \sigma_m^2 = M\sigma^2$ (the budget of uniform noise $\sigma$ on each of the
# $M=2$ modalities), Sec-MMFL-lite sets $\sigma_m^2 = M\sigma^2\,\ell_m/\sum_j \ell_j$ (`K.allocate_noise`).
#
# ## The experiment
#
# Data: scikit-learn's digits. Modality A is the 8x8 image (64 values in [0, 1]); modality B is a synthetic
# 24-value "caption" in (0, 1) made from a random class embedding plus a random projection of the image plus
# noise, so B is correlated with A and with the label. Model: a late-fusion MLP with a 32-unit encoder for A,
# an 8-unit encoder for B and a linear head. Training: FedSGD over 4 clients with disjoint shards of 1200
# training images; every round each client shares one example's gradient with the privacy noise on both
# encoders; the server averages and takes an SGD step (learning rate 0.1). The protection level $\kappa$ is the
# uniform noise std in units of the root-mean-square bias gradient at initialisation; the attack targets the
# gradients of held-out examples at the initial model (the usual gradient-inversion setting). For each
# $\kappa$ in a grid and for each repeat (different initialisation, split and noise), we measure per-modality
# PSNR of the attack and the test accuracy, for uniform and modality-aware noise in the same run, and the
# attack's PSNR for the comparators of the tests (their rules are given under "Claims"), on the same examples.
# Claims are read at $\kappa = 0.3$, fixed before the first run.
#
# **Deviations from the paper**
#
# * Data: digits plus a synthetic correlated caption instead of the paper's multimodal benchmarks.
# * Model: two one-layer encoders and a linear head, FedSGD at batch size 1; the head's gradient is not
#   perturbed (the attack uses only the encoders' gradients).
# * Attack: analytic inversion of the first layer only (no DLG / optimisation attack).
# * Leakage: a Gaussian log-det estimate on 6 PCA components, with the attacker's inversion $\hat X_m$ standing in
#   for the full gradient $G_m$; the paper's estimator is unknown.
# * No cross-modal mutual-information regulariser (the paper's second ingredient is left out).
# * Budget: not a departure, but worth stating. The tests use the brief's own allocation formula,
#   $\sigma_m^2 = \Sigma_\text{total}\,\ell_m/\sum_j \ell_j$, i.e. an equal *sum of per-entry noise variances*
#   over modalities. Because A's encoder has more parameters, modality-aware noise then injects more total noise
#   energy than uniform noise (reported below). The brief also asks for "equal total noise power"; the
#   illustration `balance-equal-energy` makes that comparison, and there no allocation can reach the 1 dB bar
#   (see "Claims").
# * Comparators (added in issue 34, by fixed rules, before they were run): the ablation feeds the same rule the
#   unconditional mutual information; the naive baselines split the budget by mean squared gradient norm, by
#   encoder width, or give uniform noise the aware allocation's energy. None is tuned.
# * Design choices from a pilot of uniform noise and accuracy only (before any claim was written): the encoder
#   sizes 32/8 (so the modalities differ in exposure), the $\kappa$ grid, $\kappa_{op}=0.3$ and the control level
#   $\kappa=10$.

# %%
a_all, b_all, y_all = K.make_two_modal_digits(seed)
DATA = {"A": a_all, "B": b_all}


def leakages(g, x, basis, mean, sigma, rng):
    """Leakage estimates at uniform probe noise sigma, on PCA-projected quantities: the conditional
    l_m = I(X_m; Xhat_m | Xhat_-m) of Sec-MMFL-lite and, from the same draws, the unconditional I(X_m; Xhat_m)
    of its ablation."""
    xhat, proj = {}, {}
    for m in MODS:
        gw = g["W" + m] + sigma * rng.normal(size=g["W" + m].shape)
        gb = g["b" + m] + sigma * rng.normal(size=g["b" + m].shape)
        xhat[m] = (K.fc_analytic_inversion(gw, gb, clip=(0, 1)) - mean[m]) @ basis[m]
        proj[m] = (x[m] - mean[m]) @ basis[m]
    cmi = np.array([K.gaussian_cmi(proj[m], xhat[m], xhat[o]) for m, o in (("A", "B"), ("B", "A"))])
    mi = np.array([K.gaussian_mi(proj[m], xhat[m]) for m in MODS])
    return cmi, mi


def attack_psnr(g, x, sig, rng):
    out = []
    for m in MODS:
        gw = g["W" + m] + sig[m] * rng.normal(size=g["W" + m].shape)
        gb = g["b" + m] + sig[m] * rng.normal(size=g["b" + m].shape)
        out.append(K.psnr(x[m], K.fc_analytic_inversion(gw, gb, clip=(0, 1))))
    return out


ARMS = ("uniform", "proportional")
# comparators (added with the claim model of issue 34; drawn from their own random stream, so that the arms
# above keep the noise draws of the pre-registered runs). Variance budget: sum_m sigma_m^2 = 2 sigma^2, as the
# method; "-E": rescaled to uniform noise's total noise energy sum_m n_m sigma_m^2 (the brief's "total noise power")
COMP = ("mi", "gradnorm", "width", "uniform-energy")
EQ_E = ("proportional-E", "mi-E", "gradnorm-E", "width-E")
# added after the independent review, each on its own random stream so that every arm above keeps its draws: a
# fixed split by input dimension (64 : 24 values) and the probe-tuned minimax split (only at kappa_op: the share of
# A on a fixed grid, 0.05 to 0.95 in steps of 0.05, that minimises the worst modality's PSNR of the same attack
# simulated on the client's own probe samples, one common noise draw per share; no information theory)
NEW, NEW_E = ("indim", "probe-minimax"), ("indim-E",)
SHARE_GRID = np.round(np.arange(0.05, 0.951, 0.05), 2)
psnr = {arm: np.zeros((P.repeats, len(KAPPAS), 2)) for arm in ARMS + ("inverse",) + COMP + EQ_E + NEW + NEW_E}
psnr["probe-minimax"][:] = np.nan
share_probe = np.zeros(P.repeats)
acc = {arm: np.zeros((P.repeats, len(KAPPAS))) for arm in ARMS}
acc_op = {"uniform-energy": np.zeros(P.repeats)}
acc_clean, psnr_clean, psnr_guess, leak, leak_mi, genergy, energy_ratio = [], [], [], [], [], [], []
for r in progress(range(P.repeats), desc="repeats"):
    rng = np.random.default_rng([seed, r])
    rng_c = np.random.default_rng([seed, r, 1])
    rng_n = np.random.default_rng([seed, r, 2])
    perm = rng.permutation(len(y_all))
    tr, te = perm[:N_TRAIN], perm[N_TRAIN:]
    probe, att = tr[:P.n_probe], te[:P.n_attack]
    p0 = K.init_late_fusion(64, 24, HIDDEN_A, HIDDEN_B, 10, rng)
    g_att = K.late_fusion_grads(p0, a_all[att], b_all[att], y_all[att])
    g_probe = K.late_fusion_grads(p0, a_all[probe], b_all[probe], y_all[probe])
    rms = np.sqrt(np.mean(np.concatenate([g_probe["bA"].ravel(), g_probe["bB"].ravel()]) ** 2))
    x_att = {m: DATA[m][att] for m in MODS}
    x_probe = {m: DATA[m][probe] for m in MODS}
    mean = {m: DATA[m][tr].mean(0) for m in MODS}
    basis = {m: np.linalg.svd(DATA[m][tr] - mean[m], full_matrices=False)[2][:PCA_K].T for m in MODS}
    lk, lk_mi = leakages(g_probe, x_probe, basis, mean, KAPPA_OP * rms, rng)
    leak.append(lk)
    leak_mi.append(lk_mi)
    # naive weights: each modality's mean squared gradient norm on the probe samples (noise in proportion to the
    # signal), and each encoder's width (a fixed split from the architecture)
    ge = np.array([np.mean(np.sum(g_probe["W" + m] ** 2, (1, 2)) + np.sum(g_probe["b" + m] ** 2, 1)) for m in MODS])
    genergy.append(ge)
    weights = {"mi": lk_mi, "gradnorm": ge, "width": np.array([HIDDEN_A, HIDDEN_B], float)}
    psnr_clean.append(attack_psnr(g_att, x_att, {"A": 0.0, "B": 0.0}, rng))
    psnr_guess.append([K.psnr(x_att[m], np.broadcast_to(mean[m], x_att[m].shape)) for m in MODS])
    p_clean = K.fedsgd_train(p0, a_all[tr], b_all[tr], y_all[tr], 0.0, 0.0, P.rounds, N_CLIENTS, LR, rng)
    acc_clean.append(np.mean(K.predict(p_clean, a_all[te], b_all[te]) == y_all[te]))
    n_par = np.array([p0["WA"].size + p0["bA"].size, p0["WB"].size + p0["bB"].size])
    for j, kappa in enumerate(KAPPAS):
        sigma = kappa * rms
        for arm in ARMS + ("inverse",):
            var = K.allocate_noise(lk, 2 * sigma**2, arm)
            sig = dict(zip(MODS, np.sqrt(var)))
            psnr[arm][r, j] = attack_psnr(g_att, x_att, sig, rng)
            if arm in acc:
                pt = K.fedsgd_train(p0, a_all[tr], b_all[tr], y_all[tr], sig["A"], sig["B"], P.rounds, N_CLIENTS,
                                    LR, rng)
                acc[arm][r, j] = np.mean(K.predict(pt, a_all[te], b_all[te]) == y_all[te])
            if arm == "proportional" and j == 0:
                energy_ratio.append(float(var @ n_par / (sigma**2 * n_par.sum())))
        var_u = K.allocate_noise(lk, 2 * sigma**2, "uniform")
        var_p = K.allocate_noise(lk, 2 * sigma**2, "proportional")
        var_c = {arm: K.allocate_noise(w, 2 * sigma**2, "proportional") for arm, w in weights.items()}
        var_c["uniform-energy"] = K.match_noise_energy(var_u, n_par, K.noise_energy(var_p, n_par))
        for arm, v in [("proportional", var_p)] + [(a, var_c[a]) for a in ("mi", "gradnorm", "width")]:
            var_c[arm + "-E"] = K.match_noise_energy(v, n_par, K.noise_energy(var_u, n_par))
        for arm in COMP + EQ_E:
            psnr[arm][r, j] = attack_psnr(g_att, x_att, dict(zip(MODS, np.sqrt(var_c[arm]))), rng_c)
        var_c["indim"] = K.allocate_noise(np.array([64.0, 24.0]), 2 * sigma**2, "proportional")
        var_c["indim-E"] = K.match_noise_energy(var_c["indim"], n_par, K.noise_energy(var_u, n_par))
        for arm in ("indim", "indim-E"):
            psnr[arm][r, j] = attack_psnr(g_att, x_att, dict(zip(MODS, np.sqrt(var_c[arm]))), rng_n)
        if j == int(np.argmin(abs(KAPPAS - KAPPA_OP))):
            tuned = [max(attack_psnr(g_probe, x_probe, dict(zip(MODS, np.sqrt(2 * sigma**2 * np.array([s, 1 - s])))),
                                     np.random.default_rng([seed, r, 3]))) for s in SHARE_GRID]
            share_probe[r] = SHARE_GRID[int(np.argmin(tuned))]
            var_t = 2 * sigma**2 * np.array([share_probe[r], 1 - share_probe[r]])
            psnr["probe-minimax"][r, j] = attack_psnr(g_att, x_att, dict(zip(MODS, np.sqrt(var_t))), rng_n)
        if j == int(np.argmin(abs(KAPPAS - KAPPA_OP))):
            sig = dict(zip(MODS, np.sqrt(var_c["uniform-energy"])))
            pt = K.fedsgd_train(p0, a_all[tr], b_all[tr], y_all[tr], sig["A"], sig["B"], P.rounds, N_CLIENTS, LR,
                                rng_c)
            acc_op["uniform-energy"][r] = np.mean(K.predict(pt, a_all[te], b_all[te]) == y_all[te])
leak, leak_mi, genergy, psnr_clean, psnr_guess, acc_clean = map(np.array, (leak, leak_mi, genergy, psnr_clean,
                                                                       psnr_guess, acc_clean))
j_op, j_hi = int(np.argmin(abs(KAPPAS - KAPPA_OP))), int(np.argmin(abs(KAPPAS - KAPPA_HIGH)))
SHARE_A = {"proportional": leak[:, 0] / leak.sum(1), "mi": leak_mi[:, 0] / leak_mi.sum(1),
           "gradnorm": genergy[:, 0] / genergy.sum(1), "width": np.full(P.repeats, HIDDEN_A / (HIDDEN_A + HIDDEN_B)),
           "indim": np.full(P.repeats, 64 / (64 + 24)), "probe-minimax": share_probe}
# the most any allocation can do at fixed total noise energy sum_m n_m sigma_m^2: put all of it on the modality
# that is worst under uniform noise, which raises that modality's per-entry variance by (n_A + n_B) / n_m; the
# inversion's error variance is proportional to it to first order (clipping only slows its growth), so its PSNR
# falls by at most 10 log10 of that factor, and the gap (uniform's worst PSNR minus the allocation's) is bounded by it
N_PAR = n_par  # gradient entries per modality (the same in every repeat)
K_WORST = int(np.argmax([psnr["uniform"][:, j_op, k].mean() for k in range(2)]))
CEILING_E = float(10 * np.log10(N_PAR.sum() / N_PAR[K_WORST]))
print("leakage estimates l_A, l_B (nats), conditional, per repeat:\n", leak.round(3))
print("unconditional I(X_m; Xhat_m) (nats), per repeat:\n", leak_mi.round(3))
print("share of the variance budget given to A:", {k: v.round(3) for k, v in SHARE_A.items()})
print("total noise energy, aware / uniform:", np.round(energy_ratio, 2))
print(f"gradient entries per modality {N_PAR}; worst modality under uniform noise: {MODS[K_WORST]}; ceiling of any "
      f"allocation's gap at equal total noise energy: {CEILING_E:.2f} dB")
print("clean test accuracy:", acc_clean.round(3))

# %% [markdown]
# ## Results
#
# The first figure is the attack's success per modality against the protection level: higher PSNR means a
# better reconstruction, i.e. weaker protection. The dotted line is what an attacker gets without any
# gradient, by guessing the training mean. The second figure is the utility cost.
#
# Without noise the attack rebuilds both modalities at {glue:text}`psnr_clean_min:.1f` dB (worse modality, mean
# over repeats; our cap is 100 dB), against {glue:text}`psnr_guess:.1f` dB for guessing the mean. The conditional
# leakage estimate ranks the image modality A (32-unit encoder) as the leakier one and gives it
# {glue:text}`share_a:.0f` % of the variance budget; the unconditional estimate gives it
# {glue:text}`share_a_mi:.0f` %, the gradient-energy split {glue:text}`share_a_gradnorm:.0f` % and the width split
# {glue:text}`share_a_width:.0f` %. With the method's budget the aware allocation injects
# {glue:text}`energy_ratio:.2f` times the total noise energy of uniform noise. From $\kappa =$
# {glue:text}`kappa_worse_than_guess:.1f` on, the attacker against uniform noise does worse than guessing the mean.

# %%
fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
styles = {"uniform": ("tab:blue", "uniform noise"), "proportional": ("tab:red", "modality-aware (CMI-proportional)")}
for k, (ax, m) in enumerate(zip(axes, MODS)):
    for arm, (col, lab) in styles.items():
        mu, sd = psnr[arm][:, :, k].mean(0), psnr[arm][:, :, k].std(0)
        ax.errorbar(KAPPAS, mu, yerr=sd, color=col, marker="o", capsize=3, label=lab)
    ax.axhline(psnr_guess[:, k].mean(), color="gray", ls=":", label="guess the mean (no gradient)")
    ax.axvline(KAPPA_OP, color="k", lw=0.8, ls="--")
    ax.set_xscale("log")
    ax.set_xlabel(r"protection level $\kappa$ (noise std / rms gradient)")
    ax.set_title(f"modality {m} ({'image, 32-unit encoder' if m == 'A' else 'caption, 8-unit encoder'})")
axes[0].set_ylabel(f"attack PSNR (dB), mean ± sd over {P.repeats} repeats")
axes[0].legend(fontsize=8)
plt.show()

# %%
fig, ax = plt.subplots(figsize=(6, 3.8))
for arm, (col, lab) in styles.items():
    ax.errorbar(KAPPAS, 100 * acc[arm].mean(0), yerr=100 * acc[arm].std(0), color=col, marker="o", capsize=3,
                label=lab)
ax.axhline(100 * acc_clean.mean(), color="k", ls=":", label="no noise")
ax.axhline(100 * acc_clean.mean() - 5, color="gray", ls="--", lw=0.8, label="no noise − 5 pp (brief's bound)")
ax.set_xscale("log")
ax.set_xlabel(r"protection level $\kappa$ (noise std / rms gradient)")
ax.set_ylabel(f"test accuracy (%), mean ± sd over {P.repeats}")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# The third figure puts every allocation on one axis: the worst-protected modality's attack PSNR, lower is
# better protection. Left, at the method's budget (equal sum of per-entry variances); right, every allocation
# rescaled to the total noise energy of uniform noise (the brief's "equal total noise power"). The star is the
# probe-tuned minimax split, run only at the operating point.

# %%
worst = {arm: psnr[arm].max(2) for arm in psnr}  # (repeats, kappas): the worst-protected modality's PSNR
LAB = {"uniform": "uniform", "proportional": "CMI-proportional (Sec-MMFL-lite)", "mi": "unconditional-MI (ablation)",
       "gradnorm": "gradient-energy split", "width": "encoder-width split 32:8",
       "uniform-energy": "uniform, same energy",
       "inverse": "inverse to the leakage (strawman)", "indim": "input-dimension split 64:24",
       "probe-minimax": "probe-tuned minimax split"}
COL = {"uniform": "tab:blue", "proportional": "tab:red", "mi": "tab:orange", "gradnorm": "tab:green",
       "width": "tab:purple", "uniform-energy": "tab:cyan", "inverse": "tab:gray", "indim": "tab:brown",
       "probe-minimax": "tab:olive"}
fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
for ax, suffix, arms in ((axes[0], "", ("uniform", "proportional", "mi", "gradnorm", "width", "indim",
                                        "uniform-energy")),
                         (axes[1], "-E", ("uniform", "proportional", "mi", "gradnorm", "width", "indim"))):
    for arm in arms:
        key = arm if arm == "uniform" else arm + suffix
        ax.errorbar(KAPPAS, worst[key].mean(0), yerr=worst[key].std(0), color=COL[arm], marker="o", ms=4,
                    capsize=2, label=LAB[arm])
    ax.axvline(KAPPA_OP, color="k", lw=0.8, ls="--")
    ax.set_xscale("log")
    ax.set_xlabel(r"protection level $\kappa$ (noise std / rms gradient)")
axes[0].errorbar([KAPPA_OP], [worst["probe-minimax"][:, j_op].mean()], yerr=[worst["probe-minimax"][:, j_op].std()],
                 color=COL["probe-minimax"], marker="*", ms=10, capsize=2, ls="none", label=LAB["probe-minimax"])
axes[0].set_title("equal variance budget (the method's)")
axes[1].set_title("equal total noise energy")
axes[0].set_ylabel(f"worst modality's attack PSNR (dB), mean ± sd over {P.repeats}")
axes[0].legend(fontsize=7)
plt.show()

# %% [markdown]
# The paper reports no numbers we could find, so there is no table of its numbers beside ours; the table
# below gives ours at the operating point $\kappa = 0.3$ (means over repeats): each allocation's share of the
# variance budget given to the image modality A, the attack PSNR per modality, the test's gap (uniform's worst
# PSNR minus the allocation's; at least 1 dB passes) and, where trained, the test accuracy.

# %%
ACC_OP = {"uniform": acc["uniform"][:, j_op], "proportional": acc["proportional"][:, j_op],
          "uniform-energy": acc_op["uniform-energy"]}
GAP = {arm: worst["uniform"][:, j_op] - worst[arm][:, j_op] for arm in psnr}  # per repeat, dB
print(f"{'allocation':<34} {'budget':<9} {'share A':>7} {'PSNR A':>7} {'PSNR B':>7} {'gap':>6} {'acc':>6}")
print(f"{'no defence':<34} {'-':<9} {'':>7} {psnr_clean.mean(0)[0]:7.1f} {psnr_clean.mean(0)[1]:7.1f} {'':>6} "
      f"{acc_clean.mean():6.3f}")
for arm in ("uniform", "proportional", "mi", "gradnorm", "width", "indim", "probe-minimax", "uniform-energy",
            "inverse"):
    for suffix in ("", "-E"):
        key = arm + suffix
        if key not in psnr:
            continue
        sh = f"{SHARE_A[arm].mean():7.2f}" if arm in SHARE_A else " " * 7
        ac = f"{ACC_OP[key].mean():6.3f}" if key in ACC_OP else " " * 6
        pa, pb = psnr[key][:, j_op].mean(0)
        print(f"{LAB[arm]:<34} {'energy' if suffix else 'variance':<9} {sh} {pa:7.1f} {pb:7.1f} "
              f"{GAP[key].mean():6.2f} {ac}")

# %%
glue("share_a", float(100 * SHARE_A["proportional"].mean()), display=False)
for arm in ("mi", "gradnorm", "width", "indim", "probe-minimax"):
    glue(f"share_a_{arm.replace('-', '_')}", float(100 * SHARE_A[arm].mean()), display=False)
glue("ceiling_E", CEILING_E, display=False)
glue("n_par_a", int(N_PAR[0]), display=False)
glue("n_par_b", int(N_PAR[1]), display=False)
glue("energy_ratio", float(np.mean(energy_ratio)), display=False)
glue("psnr_clean_min", float(psnr_clean.min(1).mean()), display=False)
glue("psnr_guess", float(psnr_guess.min(1).mean()), display=False)
glue("worst_uniform", float(worst["uniform"][:, j_op].mean()), display=False)
for key, g in GAP.items():
    glue("gap_" + key.replace("-", "_"), float(g.mean()), display=False)
glue("acc_clean", float(100 * acc_clean.mean()), display=False)
for key, a_ in ACC_OP.items():
    glue("drop_" + key.replace("-", "_"), float(100 * (acc_clean - a_).mean()), display=False)
glue("drop_hi", float(100 * (acc_clean - acc["proportional"][:, j_hi]).mean()), display=False)
glue("kappa_worse_than_guess", float(KAPPAS[np.argmax(worst["uniform"].mean(0) < psnr_guess.max(1).mean())]),
     display=False)

# %% [markdown]
# ## Claims
#
# Criteria from the brief, fixed before the first run: at equal budget the worst-protected modality's PSNR
# drops by at least 1 dB with modality-aware noise; the accuracy cost at the operating point is at most 5
# percentage points. Each test is recorded beside its comparators, under the same measurement and criterion,
# chosen by fixed rules when the page gained them (issue 34), before they were run:
#
# * *ablation of the balance test*: the same allocation rule fed with the **unconditional** estimate
#   $I(X_m; \hat X_m)$ from the same draws, i.e. Sec-MMFL-lite without conditioning on what the other modality's
#   gradient already leaks (the paper's stated reason for a conditional estimate);
# * *naive baselines of the balance test*: a split of the budget in proportion to each modality's mean squared
#   gradient norm on the probe samples (noise in proportion to the signal, no information theory); a fixed split
#   by encoder width (32 : 8 units, the architecture's only asymmetry); and, at the method's budget, uniform noise
#   raised to the aware allocation's total noise energy (does the gain come only from the extra energy?). Two more
#   were added after the independent review: a fixed split by input dimension (64 : 24 values, a rule read off
#   the inputs alone), and a *probe-tuned minimax split*: the client simulates the same attack on its own probe
#   samples for every share of A on a fixed grid (0.05 to 0.95 in steps of 0.05, one common noise draw per share)
#   and keeps the share with the lowest worst-modality PSNR. It uses trial and error, not information theory;
# * *comparators of the cost test*: uniform noise at the same variance budget (the method without its
#   leakage-aware allocation) and uniform noise at the aware allocation's energy.
#
# The inverse allocation (the old control) pays a cost by construction and is shown in the table only. The old
# check that the undefended attack rebuilds both modalities is an illustration: an analytic inversion of a fully
# connected layer at batch size 1 is exact by algebra (prior work), so its PSNR hits our cap whatever the paper's
# truth. `balance-equal-energy` repeats the balance comparison at the brief's "equal total noise power", where the
# method's allocation gets no extra energy. It was a post-hoc test. The independent review showed that it cannot
# pass, so it is now an illustration. At fixed total energy $E = \sum_m n_m\sigma_m^2$ (with $n_m$ the gradient
# entries of encoder $m$: {glue:text}`n_par_a` and {glue:text}`n_par_b`), the most any allocation can do for the
# modality that is worst under uniform noise is to give it all of $E$. That raises its per-entry variance by the
# factor $(n_A + n_B)/n_m$. To first order the inversion's error variance is proportional to the noise variance,
# and clipping to [0, 1] only slows its growth. So no allocation's gap can exceed $10\log_{10}$ of the factor:
# {glue:text}`ceiling_E:.2f` dB, below the 1 dB bar whatever the paper's truth (up to the sampling noise of the
# repeats).

# %%
claims.illustrate("threat-real",
                  statement="Without noise, analytic inversion of each encoder's gradient rebuilds both modalities "
                            "(min over modalities of the mean PSNR, capped at 100 dB) above 40 dB",
                  paper="abstract: correlated modalities make MMFL vulnerable to gradient inversion (no number)",
                  criterion=at_least(40.0), measured=float(psnr_clean.min(1).mean()),
                  tol=tolerance(rel=1e-3, abs=0.05, why="PSNR of reconstructions at float precision, capped"),
                  why="the least-squares inversion of a fully connected layer's gradient at batch size 1 returns the "
                      "input exactly by algebra (a prior-work attack); the PSNR reaches our cap by construction, "
                      "lower only where every unit of an encoder is inactive")
BAL_TOL = tolerance(rel=0.02, abs=0.05, why="sampled noise through clipping; float rounding only")
claims.test("balance",
            statement="At equal variance budget (kappa = 0.3), CMI-proportional noise lowers the worst-protected "
                      "modality's attack PSNR by at least 1 dB against uniform noise (mean over repeats)",
            paper="abstract: more balanced and comprehensive protection (no number)",
            criterion=at_least(1.0), measured=float(GAP["proportional"].mean()),
            ablation=Comparator("allocation by the unconditional MI I(X_m; Xhat_m)", float(GAP["mi"].mean()),
                                ingredient="conditioning the leakage on the other modality (conditional MI)"),
            baselines=[Comparator("split by mean squared gradient norm", float(GAP["gradnorm"].mean())),
                       Comparator("fixed split by encoder width (32:8)", float(GAP["width"].mean())),
                       Comparator("uniform noise at the aware allocation's total energy",
                                  float(GAP["uniform-energy"].mean())),
                       Comparator("fixed split by input dimension (64:24)", float(GAP["indim"].mean())),
                       Comparator("probe-tuned minimax split (attack simulated on the probe samples, share grid "
                                  "0.05-0.95)", float(GAP["probe-minimax"].mean()))],
            tol=BAL_TOL)
claims.illustrate("balance-equal-energy",
                  statement="At equal total noise energy (kappa = 0.3; every allocation rescaled to uniform noise's "
                            "sum over entries of the noise variance), CMI-proportional noise lowers the "
                            "worst-protected modality's attack PSNR by at least 1 dB against uniform noise (mean "
                            "over repeats)",
                  paper="abstract: more balanced and comprehensive protection (no number); brief: all defences at "
                        "equal total noise power",
                  criterion=at_least(1.0), measured=float(GAP["proportional-E"].mean()), tol=BAL_TOL,
                  why=f"unattainable by construction: at fixed total noise energy no allocation can raise the "
                      f"worst modality's per-entry noise variance by more than (n_A + n_B) / n_m, so (to first "
                      f"order, up to sampling noise) no allocation's gap can exceed 10 log10 of that factor, "
                      f"{CEILING_E:.2f} dB at our encoder sizes, below the "
                      f"1 dB bar whatever the paper's truth (found by the independent review)")
COST_TOL = tolerance(abs=1.0, why="end point of noisy SGD training (percentage points)")
claims.test("cost",
            statement="The test-accuracy drop of FedSGD with CMI-proportional noise at kappa = 0.3 against no "
                      "noise is at most 5 percentage points (mean over repeats)",
            paper="abstract: at an acceptable cost (no number)",
            criterion=at_most(5.0), measured=round(float(100 * (acc_clean - ACC_OP["proportional"]).mean()), 2),
            ablation=Comparator("uniform noise at the same variance budget",
                                round(float(100 * (acc_clean - ACC_OP["uniform"]).mean()), 2),
                                ingredient="the leakage-aware allocation"),
            baselines=[Comparator("uniform noise at the aware allocation's total energy",
                                  round(float(100 * (acc_clean - ACC_OP["uniform-energy"]).mean()), 2))],
            tol=COST_TOL)
x1, y1 = np.random.default_rng(seed).normal(size=(2, 20000))
claims.check("mi-closed-form", kind="implementation",
             statement="gaussian_mi of a bivariate normal with rho = 0.8 matches -1/2 log(1 - rho^2) within 0.02 nats",
             paper="definition of the Gaussian mutual information",
             criterion=at_most(0.02), measured=abs(K.gaussian_mi(x1, 0.8 * x1 + 0.6 * y1) + 0.5 * np.log(1 - 0.64)),
             tol=tolerance(abs=1e-4, why="sample covariance of 20000 draws"))
claims.headline("balanced-protection",
                "Different modalities leak different amounts through their gradients; setting each modality's "
                "protection from an estimate of its leakage gives more balanced protection than protecting all "
                "modalities alike",
                tests=["balance"])
claims.headline("conditional-leakage",
                "The correlation between modalities must be taken into account: each modality's leakage is "
                "measured as a conditional mutual information given the other modalities",
                tests=["balance"])
claims.headline("cross-modal-mi",
                "A mutual-information term reduces the information that leaks across modalities",
                untestable="the abstract does not give the term's form and we found neither the paper nor its code; "
                           "the page leaves this ingredient out (see the deviations)")
claims.headline("acceptable-cost", "The protection comes at an acceptable cost in utility", tests=["cost"])

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# The mechanism works as built: the conditional leakage estimate finds the modality with the wider encoder leakier
# and gives it {glue:text}`share_a:.0f` % of the variance budget, and that lowers the worst-protected modality's
# attack PSNR at the method's budget. But nothing in that gain needs the paper's idea. Values are at seed 0 (means
# over the repeats, $\kappa = 0.3$); counts of seeds are over the ci sweep.
#
# * *Balance at the method's budget* ({repro-status}`balance`, the brief's 1 dB). CMI-proportional noise lowers the
#   worst modality's PSNR by {glue:text}`gap_proportional:.2f` dB against uniform noise and passes at
#   {repro-seeds}`balance:method:pass` seeds. The same rule fed the unconditional mutual information gains
#   {glue:text}`gap_mi:.2f` dB (passes at {repro-seeds}`balance:ablation:pass`), a fixed split by encoder width
#   {glue:text}`gap_width:.2f` dB ({repro-seeds}`balance:baseline2:pass`), a fixed split by input dimension
#   {glue:text}`gap_indim:.2f` dB ({repro-seeds}`balance:baseline4:pass`), a split by gradient energy
#   {glue:text}`gap_gradnorm:.2f` dB ({repro-seeds}`balance:baseline1:pass`), and uniform noise raised to the aware
#   allocation's energy {glue:text}`gap_uniform_energy:.2f` dB ({repro-seeds}`balance:baseline3:pass`). The
#   probe-tuned minimax split, which tries shares on the client's own data with no information theory, gains
#   {glue:text}`gap_probe_minimax:.2f` dB ({repro-seeds}`balance:baseline5:pass`). What helps is giving the wider
#   encoder more noise. Conditioning the estimate is not needed here, and neither is estimating at all. Part of
#   the gain is also the extra noise energy that the budget lets the aware allocation inject
#   ({glue:text}`energy_ratio:.2f` times uniform's).
# * *Balance at equal total noise energy* (illustration `balance-equal-energy`, the brief's "equal total noise
#   power"). With no extra energy, CMI-proportional noise gains {glue:text}`gap_proportional_E:.2f` dB over
#   uniform noise. Its unconditional ablation gains {glue:text}`gap_mi_E:.2f` dB, the width split
#   {glue:text}`gap_width_E:.2f` dB, the input-dimension split {glue:text}`gap_indim_E:.2f` dB and the
#   gradient-energy split {glue:text}`gap_gradnorm_E:.2f` dB. None reaches 1 dB, and none can: at our encoder
#   sizes no allocation of a fixed energy can lower the worst modality's PSNR by more than about
#   {glue:text}`ceiling_E:.2f` dB (see "Claims"). This is a limit of the miniature's arithmetic, not a finding
#   about the paper, so it is shown and not counted.
# * *Cost* ({repro-status}`cost`, at most 5 points). The accuracy drop against no noise is
#   {glue:text}`drop_proportional:.1f` points with CMI-proportional noise, {glue:text}`drop_uniform:.1f` with uniform
#   noise at the same budget and {glue:text}`drop_uniform_energy:.1f` with uniform noise at the aware allocation's
#   energy (clean accuracy {glue:text}`acc_clean:.1f` %). The method passes at {repro-seeds}`cost:method:pass`
#   seeds, the ablation at {repro-seeds}`cost:ablation:pass` and the baseline at {repro-seeds}`cost:baseline1:pass`.
#   At $\kappa = 0.3$ any allocation of this budget is cheap. The bound can be missed (at $\kappa = 10$ the drop is
#   {glue:text}`drop_hi:.1f` points), but it is a "does not hurt" bound, and uniform noise meets it as well. It
#   cannot single out the paper's allocation. A test that could would compare the allocations' accuracy at
#   matched protection (the $\kappa$ at which each reaches the same worst-modality PSNR), which this page does not run.
# * *The threat* (illustration `threat-real`): the undefended analytic inversion is exact by algebra, so it is
#   shown, not counted.
#
# These are statements about a setting built to have unequal modalities, with an abstract that reports no numbers.
# They say that a leakage-aware split can balance protection here, and that simpler splits do as well. The encoder
# sizes 32/8 were chosen in a pilot, and they also fix which modality is leakier. That is why a split read off the
# architecture matches the method.
#
# ## What a skeptic would try
#
# The converter of issue 34 tried the first baselines below. The notebook now measures all of them on the same
# examples and noise budgets (seed 0, $\kappa = 0.3$, means over the repeats).
#
# * **Give uniform noise the same energy.** The method's budget fixes the sum of per-entry variances, so moving
#   variance to the modality with more gradient entries raises the total energy by a factor
#   {glue:text}`energy_ratio:.2f`. Uniform noise at that energy gains {glue:text}`gap_uniform_energy:.2f` dB on
#   the worst modality, against the method's {glue:text}`gap_proportional:.2f` dB, and costs
#   {glue:text}`drop_uniform_energy:.1f` points of accuracy.
# * **Split without any information theory.** By encoder width (32 : 8), the gain is {glue:text}`gap_width:.2f` dB;
#   in proportion to each modality's mean squared gradient norm it is {glue:text}`gap_gradnorm:.2f` dB, which
#   over-protects A (share {glue:text}`share_a_gradnorm:.0f` %) so that B becomes the worst modality.
# * **Drop the conditioning.** The unconditional estimate $I(X_m; \hat X_m)$ ranks the modalities the same way and
#   gains {glue:text}`gap_mi:.2f` dB (share of A {glue:text}`share_a_mi:.0f` %).
# * **The old control**, an allocation inverse to the leakage estimate, raises the worst modality's PSNR by
#   {glue:text}`gap_inverse:.2f` dB (a negative gap): it pays by construction and is no longer a comparator.
#
# Reviewed by an independent skeptic (2026-12-07); what they tried is above and below, measured by the notebook.
#
# * **Tune the split on the client's own data.** Simulate the attack on the probe samples for each share of A on
#   a fixed grid and keep the minimax share (mean share {glue:text}`share_a_probe_minimax:.0f` %). It gains
#   {glue:text}`gap_probe_minimax:.2f` dB on the attack examples, against the method's
#   {glue:text}`gap_proportional:.2f` dB. The reviewer used a finer grid of 49 shares; the page uses 19 to keep
#   the ci run short.
# * **Split by input dimension** (64 : 24, share of A {glue:text}`share_a_indim:.0f` %): {glue:text}`gap_indim:.2f`
#   dB at the method's budget, {glue:text}`gap_indim_E:.2f` dB at equal energy.
# * **Ask whether the equal-energy test could pass at all.** It could not. The ceiling is {glue:text}`ceiling_E:.2f`
#   dB for any allocation (see "Claims"), even one tuned on the attack examples themselves. The test was therefore
#   demoted to an illustration and removed from the headline mappings.
# * **Look for a discriminating cost test.** None of the comparators fails the 5-point bound at $\kappa = 0.3$
#   (see the verdict). Matched protection, or a $\kappa$ at which uniform noise breaks the bound, would be needed.

# ## What the miniature cannot show
#
# * Whether the paper's own leakage estimator, its cross-modal mutual-information regulariser and its noise
#   rule behave like our Gaussian, PCA-based stand-in: we found neither its equations nor its code.
# * Real modalities (images with text or audio), deep encoders, and batches larger than one: an analytic
#   first-layer inversion at batch size 1 is the easiest case for the attacker, and optimisation attacks (DLG
#   and its multimodal variants) are not run.
# * Formal guarantees: the noise here is not calibrated to any differential-privacy accountant, so "protection"
#   means only the measured PSNR of one attack.
# * Heterogeneous or non-IID clients, many rounds of attack (the attacker here sees one gradient at the
#   initial model), and an attacker who exploits the correlation between modalities directly.
