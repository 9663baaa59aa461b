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
# # Learning imbalances in neurosymbolic learning
#
# *When a classifier only ever sees a symbolic function of the hidden labels (the maximum of three
# digits, the sum of two), some classes are learned much worse than others even from perfectly balanced
# data; the hidden-label marginal can be recovered from the weak labels alone, and imposing it on the
# predictions is meant to shrink that imbalance.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np
from IPython.display import Markdown, display

from repro.claims import Claims, at_least, at_most, tolerance
from repro.papers import neurosymbolic_imbalance as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 10 s of compute on one quiet thread: 3 repetitions, 1000 tuples, 150 Adam steps (curves flat after 75)
    "ci": dict(reps=3, n_tuples=1000, steps=150, pool_per_class=100, test_per_class=200, mc_draws=8,
               n_grid=(300, 1000, 3000, 20000), record_every=20),
    # minutes: 5 repetitions, 3000 tuples (the brief's ci size), 400 steps, a finer Monte Carlo grid
    "full": dict(reps=5, n_tuples=3000, steps=400, pool_per_class=200, test_per_class=300, mc_draws=30,
                 n_grid=(300, 1000, 3000, 10000, 20000, 50000), record_every=20),
})
claims = Claims(
    "neurosymbolic-imbalance",
    title="Imbalances in Neurosymbolic Learning: Characterization and Mitigating Strategies",
    authors="Kaifu Wang, Efthymia Tsamoura, Dan Roth",
    paper_url="https://arxiv.org/abs/2407.10000",
    scale=scale, seed=seed,
)
# fixed before the first run of this notebook (not tuned afterwards)
N_CLASSES = 10          # hidden labels 0..9, as digits
SEPARATION = 2.5        # distance of each class mean from the origin (Bayes accuracy about 0.8 per class)
M_MAX = 3               # MAX-M with M = 3, the smallest M of the paper's MAX-M benchmarks
LT_RATIO = 10.0         # long-tailed marginal: r_0 / r_9 = 10 (class 0 the head)
LR, WD = 0.05, 1e-4     # Adam step and weight decay of every linear classifier
WARMUP, RELABEL, LP_REG = 100, 25, 0.05  # training-time pseudo-labelling schedule and LP regulariser
BALANCED = np.full(N_CLASSES, 1.0 / N_CLASSES)
LONG_TAILED = K.long_tailed_marginal(N_CLASSES, LT_RATIO)

# %% [markdown]
# ## The claim
#
# Neurosymbolic learning (NSL) in the sense of the paper: a tuple of inputs $\mathbf x = (x_1, \dots, x_M)$
# has hidden gold labels $y_1, \dots, y_M$, and the learner is told only $s = \sigma(y_1, \dots, y_M)$ for a
# known symbolic function $\sigma$ (the maximum, the sum...). It must still learn a classifier
# $f(x) \approx y$ for single inputs. Wang, Tsamoura and Roth (NeurIPS 2025) study the *class-specific
# risks* $R_k = P(f(x) \ne k \mid y = k)$ of such learners and make three points:
#
# 1. **$\sigma$ itself causes imbalance.** Their bounds show that the symbolic function alone can make some
#    classes far harder to learn than others, even when the hidden labels are perfectly balanced
#    (in supervised and ordinary weakly supervised learning, imbalances are studied only as a consequence
#    of imbalanced data).
# 2. **The hidden-label marginal can be estimated** from the weak labels alone.
# 3. **Imposing that marginal mitigates the imbalance,** at training time (pseudo-labels from a linear
#    programme whose class totals are the marginal) and at test time (CAROT, a score adjustment based on
#    robust semi-relaxed optimal transport). On their benchmarks (MAX-M and SUM-M with $M \in \{3,4,5\}$ on
#    MNIST, HWF-M, "Smallest Parent") they report gains of **up to 14%** over neurosymbolic (semantic loss
#    through Scallop) and long-tail baselines. Their per-benchmark numbers were not available to us, so
#    the ceiling "up to 14%" and the qualitative pattern are what we can compare.
#
# ## The method
#
# **The NeSy loss.** With a softmax classifier $p_\theta(\cdot \mid x)$ and independent elements, the
# likelihood of a weak label is $P_\theta(s \mid \mathbf x) = \sum_{\sigma(a_1..a_M) = s} \prod_m p_\theta(a_m \mid x_m)$ and we minimise
# $-\log P_\theta(s\mid\mathbf x)$ (the semantic loss). For $\sigma = \max$ the sum has a closed form through
# the per-element CDFs $F_m(k) = \sum_{a \le k} p_\theta(a \mid x_m)$:
# $$P_\theta(\max = s \mid \mathbf x) = \prod_m F_m(s) - \prod_m F_m(s-1),$$
# so any $M$ costs $O(MK)$ per tuple (`K.max_nll`); for pairs with $\sigma = \mathrm{sum}$ we enumerate the
# $K^2$ label pairs (`K.nesy_nll`).
#
# **Estimating the marginal $r_k = P(y = k)$.** With i.i.d. elements, the distribution of the weak label is
# a known polynomial of $r$:
# * sum of two: $P(s) = \sum_{a + b = s} r_a r_b$, the self-convolution $r * r$; in generating functions
#   $S(z) = R(z)^2$, so $R = +\sqrt{S}$ (the root with $R(1) = +1$; polynomials have no zero divisors, so
#   this root is unique). `K.sum_marginal_from_pair_sums(p_sum)` takes the exact power-series square root
#   when the input is an exact square and otherwise fits $\min_{r \in \Delta} \lVert r * r - \hat P \rVert_2^2$
#   (an empirical $\hat P$ is in general not a square);
# * maximum of $M$: $P(\max \le k) = F(k)^M$, so $F = P(\max \le \cdot)^{1/M}$ and $r_k = F(k) - F(k-1)$
#   (`K.max_marginal_from_tuple_max`).
#
# **Imposing the marginal at test time** (our reading of CAROT): entropic optimal transport between the $n$
# test points (mass $1/n$ each) and the $K$ classes (mass $\hat r_k$), with cost $-\log p_\theta(k\mid x_i)$
# and regulariser $\varepsilon = 1$, so that the kernel $e^{-C/\varepsilon}$ is the matrix of predicted
# probabilities itself; Sinkhorn rescales each class's column until the predicted class totals equal
# $\hat r$, and each point takes the argmax of its row of the plan (`K.marginal_constrained_labels`).
#
# **Imposing it at training time** (our reading of the LP pseudo-labelling): after a warm-up of 100 steps,
# every 25 steps each element gets the pseudo-label of a transport plan from the elements to the classes
# with masses $\hat r$ and cost $-\log q$, where $q$ is the posterior of its label given the tuple's weak
# label (`K.max_posteriors`, `K.pair_posteriors`); a small regulariser $\varepsilon = 0.05$ makes the plan
# close to the LP solution. A cross-entropy on the pseudo-labels (weight 0.5) is added to the NeSy loss.
#
# ## The experiment
#
# * **Data: equally hard classes.** To attribute an imbalance to $\sigma$ and not to the data, every class
#   is equally hard by construction: $x = 2.5\, e_y + \xi$ in $\mathbb R^{10}$, $\xi \sim N(0, I)$, ten classes
#   whose means are all at the same distance from one another (`K.gaussian_classes`). Each repetition draws
#   its own pool of training images (100 per class at ci, 200 at full) and its own test set; tuples are
#   made by drawing each element's class from the marginal, then an image of that class from the pool.
# * **Model:** a linear softmax classifier (bias included) trained by full-batch Adam (step 0.05, weight
#   decay $10^{-4}$, 150 steps at ci, 400 at full), the repetitions trained in one batch.
# * **Experiment A (marginal estimation, Monte Carlo):** long-tailed marginal ($r_0/r_9 = 10$), weak labels
#   sampled directly (no images needed), $\ell_1$ error $\lVert \hat r - r \rVert_1$ over a grid of tuple counts,
#   for $\sigma$ = sum of two and max of two and of three.
# * **Experiment B (does $\sigma$ cause imbalance?):** balanced hidden labels; MAX-3 tuples; the same
#   classifier trained (i) on the gold labels of the same $3n$ images (the supervised reference),
#   (ii) with the NeSy loss on $\sigma = \max$, (iii) with the NeSy loss on $\sigma$ = *first* (the weak
#   label is the first element's gold label: a symbolic function that reveals a label, the control),
#   and (i) + test-time OT and training-time LP pseudo-labels for (ii). Learning curves record every 20 steps.
# * **Experiment C (mitigation on long-tailed data):** hidden labels long-tailed ($r_0/r_9 = 10$); SUM of
#   two; the NeSy classifier, + test-time OT with $\hat r$ (estimated from the same weak labels with
#   `sum_marginal_from_pair_sums`), + test-time OT with the uniform marginal (control: no estimate),
#   + post-hoc logit adjustment $\arg\max_k \log p(k\mid x) - \log \hat r_k$ (the long-tail baseline),
#   + training-time LP pseudo-labels with $\hat r$, + pseudo-labels from the posterior's argmax (control:
#   no marginal); the supervised classifier on the same images as reference. The test set follows the
#   same long-tailed marginal (as in the paper, test class ratios match training).
# * **Measured:** per-class test accuracy $1 - R_k$ (mean and standard deviation over repetitions), the
#   *imbalance* $\max_k (1-R_k) - \min_k (1-R_k)$, the balanced accuracy $\frac1K \sum_k (1 - R_k)$, and
#   the predicted class frequencies against the true marginal (calibration of the class totals).
#
# **Claims, fixed before this notebook's first run** (thresholds from the brief; each against a control):
#
# 1. `marginal-max`: $\lVert \hat r - r\rVert_1 \le 0.10$ for $\sigma$ = max of two from 3000 weak labels
#    (mean over Monte Carlo draws). Control: the uniform guess (no estimation).
# 2. `marginal-sum`: the same for $\sigma$ = sum of two from 20000 weak labels (the brief found the sum
#    worse conditioned and set 20000 for it; sampling weak labels is cheap, so both scales test it).
#    Control: the uniform guess.
# 3. `ot-long-tail`: on the long-tailed split, balanced accuracy of NeSy + OT with $\hat r$ $\ge$ NeSy
#    argmax + 2 points. Control: OT with the uniform marginal instead of $\hat r$.
# 4. `sigma-imbalance`: with balanced data, the imbalance of the NeSy classifier under MAX-3 is
#    $\ge 1.5\times$ that of the supervised classifier on the same images. Control: $\sigma$ = first.
# 5. `lp-long-tail`: on the long-tailed split, balanced accuracy of NeSy + LP pseudo-labels with $\hat r$
#    $\ge$ NeSy + 2 points. Control: pseudo-labels without the marginal (posterior argmax).
# 6. `ot-reduces-imbalance`: under MAX-3 with balanced data, test-time OT with $\hat r$ cuts the imbalance
#    by at least 10% (ratio $\le 0.9$). Control: OT with a wrong marginal (the long-tailed one).
#
# Claims 4-6 carry a † (post hoc): the data (equal-difficulty Gaussian classes instead of the brief's
# 8x8 digits), $M = 3$ for the maximum and claims 5-6 were chosen after prototype runs, in which
# digits were nearly linearly separable and pairs under $\max$ showed no imbalance (the brief allowed
# claim 4 to be re-targeted after a prototype).
#
# **Deviations from the paper**
#
# * Data: synthetic equal-difficulty Gaussian classes in $\mathbb R^{10}$ instead of MNIST, HWF and Smallest
#   Parent; a linear softmax classifier instead of a CNN.
# * Tasks: MAX-3 (balanced) and SUM-2 (long-tailed) only; the paper runs MAX-M and SUM-M with
#   $M \in \{3, 4, 5\}$ (our sum is implemented for pairs only).
# * Scale: 1000 tuples at ci and 3000 at full (the brief suggested 3000 and 20000); 3 and 5 repetitions.
# * Test-time mitigation: plain entropic OT (Sinkhorn, $\varepsilon = 1$, 200 iterations) with hard class
#   masses $\hat r$, not the paper's robust semi-relaxed OT (RSOT) whose relaxation we do not know.
# * Training-time mitigation: entropic OT with small $\varepsilon = 0.05$ as a stand-in for the LP, pseudo-labels
#   refreshed every 25 steps after 100 warm-up steps, added with weight 0.5; all our choices.
# * Marginal estimation: closed-form inversions (square root of the generating function, root of the CDF)
#   with a simplex-constrained least-squares fallback; the paper's estimator may differ.
# * Semantic loss computed exactly (closed form for max, enumeration for sum), not through Scallop.
# * No official code was found, so there is no comparison against it.

# %%
def make_split(rng, marginal):
    """One repetition's pool, test set (class counts following `marginal`) and nothing else."""
    Xp, yp = K.gaussian_classes(P.pool_per_class, N_CLASSES, SEPARATION, rng)
    Xt, yt = K.gaussian_classes(P.test_per_class, N_CLASSES, SEPARATION, rng)
    keep = np.sort(K.subsample_by_marginal(yt, marginal, rng))
    return Xp, yp, Xt[keep], yt[keep]


def make_setting(marginal, m, sigma, tag):
    """Pools, test sets and weak tuples of all repetitions, stacked on a leading axis."""
    reps = [make_split(np.random.default_rng([seed, tag, r]), marginal) for r in range(P.reps)]
    tuples = [K.sample_weak_tuples(rep[1], marginal, P.n_tuples, m, sigma, np.random.default_rng([seed, tag, r, 1]))
              for r, rep in enumerate(reps)]
    return dict(X=np.stack([a[0] for a in reps]), y=np.stack([a[1] for a in reps]),
                Xt=np.stack([a[2] for a in reps]), yt=np.stack([a[3] for a in reps]),
                idx=np.stack([t[0] for t in tuples]), s=np.stack([t[1] for t in tuples]), m=m, sigma=sigma)


def train(d, sigma=None, **kw):
    """The batch of linear classifiers of one setting (sigma defaults to the setting's)."""
    return K.train_linear(d["X"], d["idx"], d["s"], sigma or d["sigma"], N_CLASSES, P.steps, lr=LR,
                          weight_decay=WD, seed=seed, warmup=WARMUP, relabel_every=RELABEL, lp_reg=LP_REG, **kw)


def per_class(d, pred):
    """Per-class test accuracy, shape (reps, K)."""
    return K.per_class_accuracy(d["yt"], pred, N_CLASSES)


# %% [markdown]
# ### A. Estimating the hidden-label marginal from weak labels

# %%
def marginal_l1(sigma, m, n, draws, rng):
    """l1 errors of the marginal estimated from n weak labels (long-tailed hidden labels), one per draw."""
    out = []
    for _ in range(draws):
        y = rng.choice(N_CLASSES, size=(m, n), p=LONG_TAILED)
        s = y.sum(0) if sigma == "sum" else y.max(0)
        out.append(np.abs(K.estimate_marginal(s, sigma, N_CLASSES, m=m) - LONG_TAILED).sum())
    return np.array(out)


EST = [("sum", 2), ("max", 2), ("max", 3)]
mc = {(sg, m): np.stack([marginal_l1(sg, m, n, P.mc_draws, np.random.default_rng([seed, 7, m, i]))
                         for i, n in enumerate(progress(P.n_grid, desc=f"{sg}-{m}"))])
      for sg, m in EST}
l1_uniform = float(np.abs(BALANCED - LONG_TAILED).sum())
l1_max_3000 = float(marginal_l1("max", 2, 3000, P.mc_draws, np.random.default_rng([seed, 8])).mean())
l1_sum_20000 = float(marginal_l1("sum", 2, 20000, P.mc_draws, np.random.default_rng([seed, 9])).mean())

# %%
fig, ax = plt.subplots(figsize=(6.4, 4))
for (sg, m), errs in mc.items():
    mean, sd = errs.mean(1), errs.std(1)
    ax.errorbar(P.n_grid, mean, yerr=sd, marker="o", capsize=3, label=f"{sg} of {m}")
ax.axhline(0.10, color="k", ls="--", lw=1, label="claim threshold 0.10")
ax.axhline(l1_uniform, color="grey", ls=":", lw=1, label="uniform guess (no estimate)")
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlabel("number of weak labels (tuples)")
ax.set_ylabel(r"$\|\hat r - r\|_1$ (long-tailed $r$)")
ax.set_title(f"Marginal estimation: mean ± s.d. over {P.mc_draws} Monte Carlo draws")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### B. Does $\sigma$ cause imbalance with balanced data? (MAX-3)

# %%
B = make_setting(BALANCED, M_MAX, "max", tag=1)
B_first = make_setting(BALANCED, 2, "first", tag=2)
W_sup, (steps_at, H_sup) = train(B, y_pool=B["y"], record_every=P.record_every)
W_max, (_, H_max) = train(B, record_every=P.record_every)
W_first, (_, H_first) = train(B_first, record_every=P.record_every)
r_hat_B = np.stack([K.estimate_marginal(s, "max", N_CLASSES, m=M_MAX) for s in B["s"]])
W_max_lp = train(B, pseudo="marginal", marginal=r_hat_B)

lp_B = {name: K.predict_logp(W, B["Xt"]) for name, W in
        [("supervised (gold labels)", W_sup), ("NeSy, max of 3", W_max), ("NeSy + LP pseudo-labels", W_max_lp)]}
lp_first = K.predict_logp(W_first, B_first["Xt"])
acc_B = {name: per_class(B, lp.argmax(-1)) for name, lp in lp_B.items()}
acc_B["NeSy + test-time OT"] = per_class(B, K.marginal_constrained_labels(lp_B["NeSy, max of 3"], r_hat_B))
acc_B["NeSy + OT, wrong marginal"] = per_class(
    B, K.marginal_constrained_labels(lp_B["NeSy, max of 3"], LONG_TAILED))
acc_first = K.per_class_accuracy(B_first["yt"], lp_first.argmax(-1), N_CLASSES)
imb_B = {name: K.imbalance(a) for name, a in acc_B.items()}
imb_first = K.imbalance(acc_first)


def curve(H, d):
    """Balanced accuracy and imbalance along training, shape (T, reps) each."""
    acc = np.stack([K.per_class_accuracy(d["yt"], K.predict_logp(W, d["Xt"]).argmax(-1), N_CLASSES) for W in H])
    return acc.mean(-1), K.imbalance(acc), acc


curves = {"supervised (gold labels)": curve(H_sup, B), "NeSy, max of 3": curve(H_max, B),
          "NeSy, first (control)": curve(H_first, B_first)}

# %% [markdown]
# Learning curves: balanced test accuracy and imbalance along training (mean and band of ± one standard
# deviation over the repetitions), and the per-class accuracy of the MAX-3 learner at the end.

# %%
fig, (a1, a2, a3) = plt.subplots(1, 3, figsize=(15, 4))
for name, (bacc, imb, _) in curves.items():
    for ax, v in ((a1, bacc), (a2, imb)):
        ax.plot(steps_at, v.mean(1), label=name)
        ax.fill_between(steps_at, v.mean(1) - v.std(1), v.mean(1) + v.std(1), alpha=0.2)
a1.set_ylabel("balanced test accuracy (fraction)")
a2.set_ylabel("imbalance: max - min per-class accuracy")
for ax in (a1, a2):
    ax.set_xlabel("Adam steps")
    ax.legend(fontsize=8)
x = np.arange(N_CLASSES)
for j, name in enumerate(["supervised (gold labels)", "NeSy, max of 3", "NeSy + test-time OT", "NeSy + LP pseudo-labels"]):
    a = acc_B[name]
    a3.errorbar(x + 0.12 * (j - 1.5), a.mean(0), yerr=a.std(0), fmt="o", capsize=2, label=name)
a3.set_xlabel("hidden class (digit)")
a3.set_ylabel("per-class test accuracy (fraction)")
a3.set_xticks(x)
a3.legend(fontsize=7)
fig.suptitle(f"MAX-3 with balanced labels: mean ± s.d. over {P.reps} repetitions")
plt.show()

# %%
rows = [f"| {name} | {100 * a.mean(-1).mean():.1f} ± {100 * a.mean(-1).std():.1f} | "
        f"{100 * a.min(-1).mean():.1f} | {100 * imb_B[name].mean():.1f} ± {100 * imb_B[name].std():.1f} |"
        for name, a in acc_B.items()]
rows.append(f"| NeSy, first (control task) | {100 * acc_first.mean(-1).mean():.1f} ± {100 * acc_first.mean(-1).std():.1f} | "
            f"{100 * acc_first.min(-1).mean():.1f} | {100 * imb_first.mean():.1f} ± {100 * imb_first.std():.1f} |")
display(Markdown("| method (balanced labels) | balanced accuracy (%) | worst class (%) | imbalance (points) |\n"
                 "|---|---|---|---|\n" + "\n".join(rows)))

# %% [markdown]
# ### C. Imposing the estimated marginal on long-tailed data (SUM-2)

# %%
C = make_setting(LONG_TAILED, 2, "sum", tag=3)
r_hat_C = np.stack([K.estimate_marginal(s, "sum", N_CLASSES) for s in C["s"]])
r_la = np.clip(r_hat_C, 1e-3, None)
r_la /= r_la.sum(-1, keepdims=True)
W_C = {"supervised (gold labels)": train(C, y_pool=C["y"]), "NeSy, sum of 2": train(C),
       "NeSy + LP pseudo-labels (r̂)": train(C, pseudo="marginal", marginal=r_hat_C),
       "NeSy + pseudo-labels, no marginal": train(C, pseudo="argmax")}
lp_C = {name: K.predict_logp(W, C["Xt"]) for name, W in W_C.items()}
lp_nesy = lp_C["NeSy, sum of 2"]
pred_C = {name: lp.argmax(-1) for name, lp in lp_C.items()}
pred_C["NeSy + test-time OT (r̂)"] = K.marginal_constrained_labels(lp_nesy, r_hat_C)
pred_C["NeSy + test-time OT (uniform)"] = K.marginal_constrained_labels(lp_nesy, BALANCED)
pred_C["NeSy + logit adjustment (r̂)"] = (lp_nesy - np.log(r_la)[:, None, :]).argmax(-1)
acc_C = {name: per_class(C, p) for name, p in pred_C.items()}
bacc_C = {name: a.mean(-1) for name, a in acc_C.items()}
freq_C = {name: np.stack([np.bincount(p, minlength=N_CLASSES) / p.size for p in pr]) for name, pr in pred_C.items()}
l1_hat_C = np.abs(r_hat_C - LONG_TAILED).sum(-1)

# %%
fig, (a1, a2) = plt.subplots(1, 2, figsize=(13, 4.2))
show = ["supervised (gold labels)", "NeSy, sum of 2", "NeSy + test-time OT (r̂)", "NeSy + logit adjustment (r̂)",
        "NeSy + LP pseudo-labels (r̂)"]
for j, name in enumerate(show):
    a = acc_C[name]
    a1.errorbar(x + 0.12 * (j - 2), a.mean(0), yerr=a.std(0), fmt="o", capsize=2, label=name)
    f = freq_C[name]
    a2.errorbar(x + 0.12 * (j - 2), f.mean(0), yerr=f.std(0), fmt="o", capsize=2, label=name)
a2.plot(x, LONG_TAILED, "k--", lw=1, label="true marginal r")
a2.plot(x, r_hat_C.mean(0), "k:", lw=1, label="estimated r̂ (mean)")
a1.set_ylabel("per-class test accuracy (fraction)")
a2.set_ylabel("fraction of test points predicted as the class")
a2.set_yscale("log")
for ax in (a1, a2):
    ax.set_xlabel("hidden class (digit); class 0 most frequent")
    ax.set_xticks(x)
    ax.legend(fontsize=7)
fig.suptitle(f"SUM-2 with long-tailed labels (ratio {LT_RATIO:.0f}): mean ± s.d. over {P.reps} repetitions")
plt.show()

# %%
rows = [f"| {name} | {100 * b.mean():.1f} ± {100 * b.std():.1f} | {100 * (pred_C[name] == C['yt']).mean():.1f} | "
        f"{100 * K.imbalance(acc_C[name]).mean():.1f} |" for name, b in bacc_C.items()]
display(Markdown(f"Marginal estimate from the {P.n_tuples} training sums: "
                 f"$\\|\\hat r - r\\|_1$ = {l1_hat_C.mean():.3f} ± {l1_hat_C.std():.3f}.\n\n"
                 "| method (long-tailed labels) | balanced accuracy (%) | accuracy (%) | imbalance (points) |\n"
                 "|---|---|---|---|\n" + "\n".join(rows)))

# %% [markdown]
# ### The paper's numbers beside ours
#
# The paper's per-benchmark table was not available; only its headline is.

# %%
gain_ot = 100 * (bacc_C["NeSy + test-time OT (r̂)"] - bacc_C["NeSy, sum of 2"]).mean()
gain_lp = 100 * (bacc_C["NeSy + LP pseudo-labels (r̂)"] - bacc_C["NeSy, sum of 2"]).mean()
gain_ot_B = 100 * (acc_B["NeSy + test-time OT"].mean(-1) - acc_B["NeSy, max of 3"].mean(-1)).mean()
gain_lp_B = 100 * (acc_B["NeSy + LP pseudo-labels"].mean(-1) - acc_B["NeSy, max of 3"].mean(-1)).mean()
display(Markdown(
    "| setting | paper | ours |\n|---|---|---|\n"
    f"| best gain of a mitigation over the NeSy baseline (all benchmarks) | up to 14 points | "
    f"{max(gain_ot, gain_lp, gain_ot_B, gain_lp_B):+.1f} points (best of the four below) |\n"
    f"| test-time marginal constraint, long-tailed SUM-2 | CAROT: part of the 'up to 14%' | {gain_ot:+.1f} points |\n"
    f"| training-time marginal constraint, long-tailed SUM-2 | LP pseudo-labels: part of the 'up to 14%' | {gain_lp:+.1f} points |\n"
    f"| test-time marginal constraint, balanced MAX-3 | (MAX-M benchmarks) | {gain_ot_B:+.1f} points |\n"
    f"| training-time marginal constraint, balanced MAX-3 | (MAX-M benchmarks) | {gain_lp_B:+.1f} points |\n"
    "| $\\sigma$ creates imbalance with balanced data | yes (theory and MAX-M/SUM-M) | see claim `sigma-imbalance` |"))

# %% [markdown]
# ## Claims

# %%
ratio = lambda a, b: float(a.mean() / b.mean())  # noqa: E731  (imbalance ratios, means over repetitions)
TRAIN_TOL = tolerance(rel=0.1, abs=0.02, why="end point of a few hundred float64 Adam steps and of Sinkhorn argmaxes")
claims.check("marginal-max", statement="The hidden-label marginal is recovered from 3000 weak labels max(y1, y2): "
             "mean l1 error at most 0.10 (long-tailed r, Monte Carlo mean).",
             paper="the marginal of the hidden labels can be estimated consistently from the weak labels",
             criterion=at_most(0.10), measured=l1_max_3000, control=l1_uniform,
             control_label="the uniform guess (no estimation)",
             tol=tolerance(rel=1e-6, abs=1e-9, why="Monte Carlo mean of a closed-form estimator on seeded draws"))
claims.check("marginal-sum", statement="The marginal is recovered from 20000 sums of two digits "
             "(sum_marginal_from_pair_sums): mean l1 error at most 0.10.",
             paper="the marginal of the hidden labels can be estimated consistently from the weak labels",
             criterion=at_most(0.10), measured=l1_sum_20000, control=l1_uniform,
             control_label="the uniform guess (no estimation)",
             tol=tolerance(rel=1e-3, abs=1e-4, why="end point of SLSQP least squares on seeded draws"))
claims.check("ot-long-tail", statement="On long-tailed SUM-2, test-time OT with the estimated marginal raises "
             "balanced accuracy by at least 2 points over the NeSy argmax.",
             paper="marginal-constrained test-time adjustment (CAROT) improves on NSL and long-tail baselines, up to 14%",
             criterion=at_least(2.0), measured=gain_ot,
             control=float(100 * (bacc_C["NeSy + test-time OT (uniform)"] - bacc_C["NeSy, sum of 2"]).mean()),
             control_label="OT with the uniform marginal instead of r̂", tol=tolerance(rel=0.2, abs=0.5, why=TRAIN_TOL.why))
claims.check("sigma-imbalance", statement="With balanced labels, the MAX-3 NeSy classifier's imbalance (max - min "
             "per-class accuracy) is at least 1.5x that of the supervised classifier on the same images.",
             paper="sigma alone can cause large learning imbalances without data imbalance (risk bounds; MAX-M, SUM-M)",
             criterion=at_least(1.5), measured=ratio(imb_B["NeSy, max of 3"], imb_B["supervised (gold labels)"]),
             control=ratio(imb_first, imb_B["supervised (gold labels)"]),
             control_label="sigma = first (the weak label reveals one gold label)", tol=TRAIN_TOL,
             post_hoc="data (equal-difficulty Gaussians) and M = 3 chosen after prototypes on digits and pairs")
claims.check("lp-long-tail", statement="On long-tailed SUM-2, training-time LP pseudo-labels with the estimated "
             "marginal raise balanced accuracy by at least 2 points over plain NeSy training.",
             paper="LP-based pseudo-labelling at training time improves on NSL and long-tail baselines, up to 14%",
             criterion=at_least(2.0), measured=gain_lp,
             control=float(100 * (bacc_C["NeSy + pseudo-labels, no marginal"] - bacc_C["NeSy, sum of 2"]).mean()),
             control_label="pseudo-labels from the posterior argmax (no marginal)",
             tol=tolerance(rel=0.2, abs=0.5, why=TRAIN_TOL.why), post_hoc="added after prototype runs")
claims.check("ot-reduces-imbalance", statement="Under MAX-3 with balanced labels, test-time OT with the estimated "
             "marginal cuts the imbalance by at least 10% (ratio at most 0.9).",
             paper="imposing the estimated marginal at test time mitigates learning imbalances",
             criterion=at_most(0.9), measured=ratio(imb_B["NeSy + test-time OT"], imb_B["NeSy, max of 3"]),
             control=ratio(imb_B["NeSy + OT, wrong marginal"], imb_B["NeSy, max of 3"]),
             control_label="OT with a wrong (long-tailed) marginal", tol=TRAIN_TOL,
             post_hoc="added after prototype runs")

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# Numbers below are from the ci run (seed 0: 3 repetitions, 1000 tuples); the robustness table gives the
# statuses over ten ci seeds and over three full-scale seeds (5 repetitions, 3000 tuples, 400 steps).
#
# * **The marginal is recoverable from weak labels: reproduced** (`marginal-max`, `marginal-sum`). From
#   3000 maxima of pairs the long-tailed marginal comes back with mean $\ell_1$ error 0.038, and from 20000
#   sums of pairs (`sum_marginal_from_pair_sums`) with 0.039, against 0.59 for the uniform guess. The Monte
#   Carlo figure shows the cost of the symbolic function: the sum needs several times more tuples than
#   the maximum for the same error (its square root of a generating function amplifies sampling noise).
#   Here class 0 is the most frequent, so the maximum reveals it often enough; with balanced labels
#   (experiment B) the small classes decide the maximum of three only rarely and their share is estimated
#   worst.
# * **$\sigma$ alone creates imbalance: reproduced at ci, mostly not at full scale** (`sigma-imbalance`, †).
#   With balanced labels and equally hard classes, the MAX-3 learner's gap between its best and worst class is 4.9 times that of the
#   same classifier trained on the gold labels of the same images (full scale, seed 0: 3.0), while $\sigma$ =
#   first stays at 0.8 (full, seed 0: 1.2). The classes that suffer are the small digits 0 and 1, the ones the maximum
#   rarely reveals, which is the paper's MAX-M pattern. The imbalance is erratic across repetitions (the
#   large standard deviations): in some repetitions the low classes are learned, in others two of them are
#   swapped or merged, because the weak label barely tells them apart. So the claim holds at 8 of the 10 ci
#   seeds, not all (ratios from 0.97 to 4.9, median 3.4): with only three repetitions per seed, a seed in
#   which no repetition collapses shows no imbalance. At full scale it holds at 1 of 3 seeds (2.95 at seed
#   0, 1.2 at seeds 1 and 2): with 3000 tuples and 400 steps the low classes are usually learned after all,
#   so in our linear miniature the imbalance caused by $\sigma$ is a small-sample effect that more weak
#   labels largely remove, not a persistent one.
# * **Imposing the estimated marginal at test time: not reproduced at this scale** (`ot-long-tail`:
#   $-3.5$ points of balanced accuracy instead of $+2$; full scale $-2.6$;
#   negative at all 10 ci seeds and all 3 full seeds). The calibration panel shows why:
#   our NeSy classifier on long-tailed SUM-2 already predicts each class about as often as the true
#   marginal says, so there is no bias in the class totals for the transport to remove; forcing the totals
#   to $\hat r$ only injects the estimation error of $\hat r$ (mean $\ell_1$ 0.145 from 1000 sums, 0.100 from
#   3000), which falls on the rare classes. The long-tail baseline that does not force totals (logit
#   adjustment with $\hat r$) is the only method here that beats plain NeSy on balanced accuracy.
# * **Imposing it at training time: not reproduced at this scale** (`lp-long-tail`, †: $-0.4$ points;
#   full $-0.1$); same reason. On balanced MAX-3 the LP pseudo-labels do lift the worst classes a little
#   (+1.9 points of balanced accuracy at ci, +1.4 at full scale, seed 0; see the tables), far from the paper's "up to 14%".
# * **Test-time OT shrinks the MAX-3 imbalance: not reproduced** (`ot-reduces-imbalance`, †: the
#   imbalance grows by a factor 1.21; full 1.17; it holds at 1 of the 10 ci seeds and none of the 3 full
#   seeds). The MAX-3 imbalance is a confusion *between* low classes, not a shortfall in how often they are predicted, and the max-of-3 estimate of $\hat r$ is worst exactly
#   for those classes; a marginal constraint cannot undo a swap of two equally frequent classes.
#
# In short, the miniature confirms that the hidden marginal is identifiable from weak labels, and shows the
# paper's diagnosis (the symbolic function alone creates imbalance without data imbalance) at small sample
# sizes, where it fades with more data; it does not reproduce the cure: with a well-specified linear
# learner the predicted class totals are already right, and the marginal constraint has nothing to correct.
#
# ## What the miniature cannot show
#
# * Deep classifiers: the paper's imbalances come from CNNs trained on MNIST-like images, where classes
#   are learned at different speeds and the classifier's predicted class totals can drift far from the
#   truth; a linear model on Gaussian classes is close to well specified.
# * The paper's exact algorithms: CAROT's robust semi-relaxed transport and its LP formulation are
#   reconstructed from summaries, not from the paper's text or code.
# * Larger tuples ($M = 4, 5$), SUM-M beyond pairs, HWF and Smallest Parent, and the paper's bounds
#   themselves: we test the direction they predict, not their constants.
