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
import torch
from IPython.display import Markdown, display
from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, tolerance
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
#   for $\sigma$ = sum of two and max of two and of three. The long tail is geometric,
#   $r_k \propto 10^{-k/9}$: then $r_a r_{s-a}$ does not depend on $a$, so the posterior of a pair's labels
#   given their sum is exactly uniform over the consistent pairs, and the naive partial-label estimate of the
#   sum is unbiased. A Zipf tail, $r_k \propto 1/(k+1)$, is shown beside it, where it is not.
# * **Experiment B (does $\sigma$ cause imbalance?):** balanced hidden labels; MAX-3 tuples; the same
#   classifier trained (i) on the gold labels of the same $3n$ images (the supervised reference),
#   (ii) with the NeSy loss on $\sigma = \max$, (iii) with the NeSy loss on $\sigma$ = *first* (the weak
#   label is the first element's gold label: a symbolic function that reveals a label, the control),
#   (iv) on the gold labels of the same images, each replaced by a uniformly random class with probability
#   $q = 1 - \sum_k r_k F(k)^{M-1}$ (`K.label_revealed_probability`: the share of elements whose label is
#   not the tuple's maximum; the naive baseline of weak supervision without $\sigma$), and, for (ii), test-time
#   OT with $\hat r$ and with the uniform marginal, logit adjustment with the classifier's own class prior
#   (`K.prior_corrected_labels`) and training-time LP pseudo-labels. Learning curves record every 20 steps.
# * **Experiment C (mitigation on long-tailed data):** hidden labels long-tailed ($r_0/r_9 = 10$); SUM of
#   two; the NeSy classifier, + test-time OT with $\hat r$ (estimated from the same weak labels with
#   `sum_marginal_from_pair_sums`), + test-time OT with the uniform marginal (control: no estimate),
#   + post-hoc logit adjustment $\arg\max_k \log p(k\mid x) - \log \hat r_k$ (the long-tail baseline),
#   + logit adjustment with the classifier's own prior $\bar p$, the mean of its predicted probabilities on
#   its training images, in place of $\hat r$ (a naive baseline with no estimate from the weak labels),
#   + training-time LP pseudo-labels with $\hat r$, + pseudo-labels from the posterior's argmax (control:
#   no marginal); the supervised classifier on the same images as reference. As a diagnostic (not a
#   comparator: no method knows it), OT with the true marginal $r$ separates the error of $\hat r$ from that
#   of the hard transport. The test set follows the same long-tailed marginal (as in the paper, test class
#   ratios match training).
# * **Measured:** per-class test accuracy $1 - R_k$ (mean and standard deviation over repetitions), the
#   *imbalance* $\max_k (1-R_k) - \min_k (1-R_k)$, the balanced accuracy $\frac1K \sum_k (1 - R_k)$, and
#   the predicted class frequencies against the true marginal (calibration of the class totals).
#
# **Claims, fixed before this notebook's first run** (thresholds from the brief). Claims 3-6 are counted
# tests, each measured beside the method without the ingredient it is about (the ablation) and a naive baseline
# that uses none of the paper's ideas, under the same measurement and criterion; a test counts as reproduced only
# where the method passes and every comparator fails. The comparators were added for issue 33 (the page first ran
# with one control per claim); their settings follow fixed rules stated here, not chosen after a run. Claims 1-2
# were counted tests until the independent review and are now illustrations (shown, never counted), for the
# reason given under them.
#
# 1. `marginal-max` (illustration): $\lVert \hat r - r\rVert_1 \le 0.10$ for $\sigma$ = max of two from
#    3000 weak labels (mean over Monte Carlo draws).
# 2. `marginal-sum` (illustration): the same for $\sigma$ = sum of two from 20000 weak labels (the brief
#    found the sum worse conditioned and set 20000 for it).
#
#    Both check a closed-form inversion of $P(s)$ on weak labels drawn from exactly the i.i.d. model it
#    inverts: the error is the sampling error at a sample size the page chose, so the check cannot fail for a
#    reason that bears on the paper. Shown beside them, on the same draws, are three estimators that do not
#    invert $\sigma$: the weak label read as a label (the histogram of $s$, or of $\lfloor s/2 \rfloor$ for
#    the sum), the uniform guess, and the partial-label estimate (each element's label spread over the labels
#    consistent with $s$ as the uniform prior would, i.e. its posterior under the uniform marginal, averaged:
#    one EM step from uniform; for the sum it is uniform over the consistent labels). Where the estimate is
#    actually used (experiment C, from the training sums) it is compared with the classifier's own predicted
#    class frequencies.
# 3. `ot-long-tail`: on the long-tailed split, balanced accuracy of NeSy + OT with $\hat r$ $\ge$ NeSy
#    argmax + 2 points. Ablation: OT with the uniform marginal instead of $\hat r$; baselines: post-hoc logit
#    adjustment with $\hat r$ (the long-tail baseline), and logit adjustment with the classifier's own class
#    prior, the mean of its predicted probabilities on its training images (no estimate from weak labels).
# 4. `sigma-imbalance` †: with balanced data, the imbalance of the NeSy classifier under MAX-3 is
#    $\ge 1.5\times$ that of the supervised classifier on the same images. Ablation: $\sigma$ = first (the
#    weak label reveals one gold label); baseline: the supervised classifier on the same images with
#    symmetric label noise at rate $q = 1 - P(y_m = \max_j y_j)$, the share of elements whose label the
#    maximum does not name (weak supervision of about the same strength, without a symbolic function).
# 5. `lp-long-tail` †: on the long-tailed split, balanced accuracy of NeSy + LP pseudo-labels with $\hat r$
#    $\ge$ NeSy + 2 points. Ablation: pseudo-labels from the posterior argmax (no marginal); baselines: the
#    two post-hoc corrections of claim 3.
# 6. `ot-reduces-imbalance` †: under MAX-3 with balanced data, test-time OT with $\hat r$ cuts the imbalance
#    by at least 10% (ratio $\le 0.9$). Ablation: OT with the uniform marginal (no estimate; with balanced
#    data it is also the true marginal); baseline: logit adjustment with the classifier's own class prior.
#    (The old control, OT with a wrong long-tailed marginal, fails by construction and is only shown.)
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
# ## Results
#
# ### A. Estimating the hidden-label marginal from weak labels

# %%
def partial_label_marginal(s, sigma, m):
    """The naive partial-label estimate: each element's label spread over the labels consistent with s as a
    uniform prior would (its posterior under the uniform marginal: one EM step from uniform; for the sum,
    uniform over the consistent labels), averaged over the elements. No inversion of P(s)."""
    vals, counts = np.unique(s, return_counts=True)
    if sigma == "sum":  # pairs
        u = torch.full((len(vals), N_CLASSES), -np.log(N_CLASSES), dtype=torch.float64)
        q1, q2 = K.pair_posteriors(u, u, torch.as_tensor(vals), K.constraint_matrix("sum", N_CLASSES))
        q = ((q1 + q2) / 2).numpy()
    else:
        u = torch.full((m, len(vals), N_CLASSES), -np.log(N_CLASSES), dtype=torch.float64)
        q = K.max_posteriors(u, torch.as_tensor(vals)).mean(0).numpy()
    return counts @ q / counts.sum()


def marginal_l1(sigma, m, n, draws, rng, naive=None, r=LONG_TAILED):
    """l1 errors of the marginal estimated from n weak labels (hidden labels i.i.d. from r), one per draw.

    naive="weak": the weak label read as a label (K.weak_label_as_label); naive="partial": the partial-label
    estimate above; both leave sigma's likelihood uninverted."""
    out = []
    for _ in range(draws):
        y = rng.choice(N_CLASSES, size=(m, n), p=r)
        s = y.sum(0) if sigma == "sum" else y.max(0)
        if naive == "weak":
            est = K.weak_label_as_label(s, sigma, N_CLASSES, m=m)
        elif naive == "partial":
            est = partial_label_marginal(s, sigma, m)
        else:
            est = K.estimate_marginal(s, sigma, N_CLASSES, m=m)
        out.append(np.abs(est - r).sum())
    return np.array(out)


EST = [("sum", 2), ("max", 2), ("max", 3)]
mc = {(sg, m): np.stack([marginal_l1(sg, m, n, P.mc_draws, np.random.default_rng([seed, 7, m, i]))
                         for i, n in enumerate(progress(P.n_grid, desc=f"{sg}-{m}"))])
      for sg, m in EST}
l1_uniform = float(np.abs(BALANCED - LONG_TAILED).sum())
l1_max_3000 = float(marginal_l1("max", 2, 3000, P.mc_draws, np.random.default_rng([seed, 8])).mean())
l1_sum_20000 = float(marginal_l1("sum", 2, 20000, P.mc_draws, np.random.default_rng([seed, 9])).mean())
# the same draws, without inverting sigma: the weak label read as a label, and the partial-label estimate
l1_max_3000_naive = float(marginal_l1("max", 2, 3000, P.mc_draws, np.random.default_rng([seed, 8]), naive="weak").mean())
l1_sum_20000_naive = float(marginal_l1("sum", 2, 20000, P.mc_draws, np.random.default_rng([seed, 9]),
                                       naive="weak").mean())
l1_max_3000_partial = float(marginal_l1("max", 2, 3000, P.mc_draws, np.random.default_rng([seed, 8]),
                                        naive="partial").mean())
l1_sum_20000_partial = float(marginal_l1("sum", 2, 20000, P.mc_draws, np.random.default_rng([seed, 9]),
                                         naive="partial").mean())
# a non-geometric tail (Zipf, r_k proportional to 1/(k+1)), where the partial-label estimate of the sum is biased
ZIPF = 1.0 / np.arange(1, N_CLASSES + 1) / np.sum(1.0 / np.arange(1, N_CLASSES + 1))
l1_sum_zipf = float(marginal_l1("sum", 2, 20000, P.mc_draws, np.random.default_rng([seed, 10]), r=ZIPF).mean())
l1_sum_zipf_partial = float(marginal_l1("sum", 2, 20000, P.mc_draws, np.random.default_rng([seed, 10]),
                                        naive="partial", r=ZIPF).mean())

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
# naive weak supervision of the same strength without sigma: the gold labels of the same images, each replaced
# by a uniformly random class with probability q = 1 - P(an element's label is the tuple's max) (fixed rule)
q_noise = 1.0 - K.label_revealed_probability(BALANCED, M_MAX)
y_noisy = np.stack([K.symmetric_label_noise(yp, q_noise, N_CLASSES, np.random.default_rng([seed, 1, r, 2]))
                    for r, yp in enumerate(B["y"])])
W_noisy = train(B, y_pool=y_noisy)

lp_B = {name: K.predict_logp(W, B["Xt"]) for name, W in
        [("supervised (gold labels)", W_sup), ("NeSy, max of 3", W_max), ("NeSy + LP pseudo-labels", W_max_lp),
         ("supervised, noisy labels (no sigma)", W_noisy)]}
lp_first = K.predict_logp(W_first, B_first["Xt"])
acc_B = {name: per_class(B, lp.argmax(-1)) for name, lp in lp_B.items()}
acc_B["NeSy + test-time OT"] = per_class(B, K.marginal_constrained_labels(lp_B["NeSy, max of 3"], r_hat_B))
acc_B["NeSy + OT, uniform marginal"] = per_class(B, K.marginal_constrained_labels(lp_B["NeSy, max of 3"], BALANCED))
acc_B["NeSy + prior correction (own predictions)"] = per_class(
    B, K.prior_corrected_labels(lp_B["NeSy, max of 3"], K.predict_logp(W_max, K.tuple_elements(B["X"], B["idx"]))))
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
# diagnostic (not a comparator: it uses the true marginal, unknown to any method): is the failure r̂'s or the transport's?
pred_C["NeSy + test-time OT (true r, diagnostic)"] = K.marginal_constrained_labels(lp_nesy, LONG_TAILED)
pred_C["NeSy + logit adjustment (r̂)"] = (lp_nesy - np.log(r_la)[:, None, :]).argmax(-1)
# the classifier's own class prior on its training images (the tuples' elements), no estimate from weak labels
lp_train_C = K.predict_logp(W_C["NeSy, sum of 2"], K.tuple_elements(C["X"], C["idx"]))
pred_C["NeSy + prior correction (own predictions)"] = K.prior_corrected_labels(lp_nesy, lp_train_C)
acc_C = {name: per_class(C, p) for name, p in pred_C.items()}
bacc_C = {name: a.mean(-1) for name, a in acc_C.items()}
freq_C = {name: np.stack([np.bincount(p, minlength=N_CLASSES) / p.size for p in pr]) for name, pr in pred_C.items()}
l1_hat_C = np.abs(r_hat_C - LONG_TAILED).sum(-1)
# the skeptic's marginal estimate: how often the NeSy classifier predicts each class on its training images
freq_train_C = np.stack([np.bincount(p, minlength=N_CLASSES) / p.size for p in lp_train_C.argmax(-1)])
l1_freq_C = np.abs(freq_train_C - LONG_TAILED).sum(-1)

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
gain = lambda name: float(100 * (bacc_C[name] - bacc_C["NeSy, sum of 2"]).mean())  # noqa: E731  (points)
# directional, sigma-specific view of experiment B (shown, not a test): mean accuracy of classes 0-4 minus 5-9
low_minus_high = lambda name: float(100 * (acc_B[name][:, :5].mean(-1) - acc_B[name][:, 5:].mean(-1)).mean())  # noqa: E731
TRAIN_TOL = tolerance(rel=0.1, abs=0.02, why="end point of a few hundred float64 Adam steps and of Sinkhorn argmaxes")
GAIN_TOL = tolerance(rel=0.2, abs=0.5, why=TRAIN_TOL.why)
PAPER_MITIGATION = ("marginal-constrained mitigation (LP pseudo-labels at training time, CAROT at test time) "
                    "improves on NSL (semantic loss via Scallop) and long-tail baselines, up to 14% (abstract); "
                    "per-benchmark numbers not found")
LABEL_LA = "post-hoc logit adjustment with r̂ (the long-tail baseline): argmax log p(k|x) - log r̂_k"
LABEL_PC = ("logit adjustment with the classifier's own class prior (mean predicted probabilities on its training "
            "images): no marginal estimated from the weak labels")

claims.headline(
    "sigma-causes-imbalance",
    "The symbolic function sigma alone can create large learning imbalances (differences between class-specific "
    "risks), even when the hidden labels are balanced",
    tests=["sigma-imbalance"])
claims.headline(
    "marginal-estimable",
    "The marginal of the hidden gold labels can be estimated from the weak labels alone",
    tests=["marginal-max", "marginal-sum"])
claims.headline(
    "marginal-mitigates",
    "Treating the estimated marginal as a constraint at training time (LP pseudo-labels) and at test time (CAROT) "
    "mitigates the imbalances, with gains of up to 14% over strong NSL and long-tail baselines",
    tests=["ot-long-tail", "lp-long-tail", "ot-reduces-imbalance"])

WHY_MARGINAL = ("a closed-form inversion of P(s) checked on weak labels drawn from the very i.i.d. model it inverts: "
                "its error is the sampling error at the sample size the page chose, and every estimator that uses "
                "sigma's likelihood passes while every one that does not fails; the r̂ actually used (experiment C, "
                "from the training sums) is compared with the classifier's own predicted class frequencies in "
                "'What a skeptic would try'")
claims.illustrate("marginal-max", statement="The hidden-label marginal is recovered from 3000 weak labels "
                  "max(y1, y2): mean l1 error at most 0.10 (long-tailed r, Monte Carlo mean).",
                  paper="the marginal of the hidden labels can be estimated consistently from the weak labels",
                  criterion=at_most(0.10), measured=l1_max_3000, why=WHY_MARGINAL,
                  tol=tolerance(rel=1e-6, abs=1e-9, why="Monte Carlo mean of a closed-form estimator on seeded draws"))
claims.illustrate("marginal-sum", statement="The marginal is recovered from 20000 sums of two digits "
                  "(sum_marginal_from_pair_sums): mean l1 error at most 0.10.",
                  paper="the marginal of the hidden labels can be estimated consistently from the weak labels",
                  criterion=at_most(0.10), measured=l1_sum_20000, why=WHY_MARGINAL,
                  tol=tolerance(rel=1e-3, abs=1e-4, why="end point of SLSQP least squares on seeded draws"))
claims.test("ot-long-tail", statement="On long-tailed SUM-2, test-time OT with the estimated marginal raises "
            "balanced accuracy by at least 2 points over the NeSy argmax.",
            paper=PAPER_MITIGATION, criterion=at_least(2.0), measured=gain_ot,
            ablation=Comparator("test-time OT with the uniform marginal instead of r̂",
                                gain("NeSy + test-time OT (uniform)"),
                                ingredient="the estimated marginal r̂ as the class masses of the transport"),
            baselines=[Comparator(LABEL_LA, gain("NeSy + logit adjustment (r̂)")),
                       Comparator(LABEL_PC, gain("NeSy + prior correction (own predictions)"))],
            tol=GAIN_TOL)
claims.test("sigma-imbalance", statement="With balanced labels, the MAX-3 NeSy classifier's imbalance (max - min "
            "per-class accuracy) is at least 1.5x that of the supervised classifier on the same images.",
            paper="sigma alone can cause large learning imbalances without data imbalance (risk bounds; MAX-M, SUM-M)",
            criterion=at_least(1.5), measured=ratio(imb_B["NeSy, max of 3"], imb_B["supervised (gold labels)"]),
            ablation=Comparator("sigma = first (the weak label reveals one gold label per tuple)",
                                ratio(imb_first, imb_B["supervised (gold labels)"]),
                                ingredient="the symbolic function max, which hides which element the label names"),
            baselines=[Comparator("the supervised classifier on the same images with symmetric label noise at "
                                  "q = 1 - P(an element's label is the max): weak supervision without sigma",
                                  ratio(imb_B["supervised, noisy labels (no sigma)"], imb_B["supervised (gold labels)"]))],
            tol=TRAIN_TOL,
            post_hoc="data (equal-difficulty Gaussians) and M = 3 chosen after prototypes on digits and pairs")
claims.test("lp-long-tail", statement="On long-tailed SUM-2, training-time LP pseudo-labels with the estimated "
            "marginal raise balanced accuracy by at least 2 points over plain NeSy training.",
            paper=PAPER_MITIGATION, criterion=at_least(2.0), measured=gain_lp,
            ablation=Comparator("pseudo-labels from the posterior argmax (no marginal)",
                                gain("NeSy + pseudo-labels, no marginal"),
                                ingredient="the estimated marginal r̂ as the class totals of the pseudo-labels"),
            baselines=[Comparator(LABEL_LA, gain("NeSy + logit adjustment (r̂)")),
                       Comparator(LABEL_PC, gain("NeSy + prior correction (own predictions)"))],
            tol=GAIN_TOL, post_hoc="added after prototype runs")
claims.test("ot-reduces-imbalance", statement="Under MAX-3 with balanced labels, test-time OT with the estimated "
            "marginal cuts the imbalance by at least 10% (ratio at most 0.9).",
            paper="imposing the estimated marginal at test time mitigates learning imbalances",
            criterion=at_most(0.9), measured=ratio(imb_B["NeSy + test-time OT"], imb_B["NeSy, max of 3"]),
            ablation=Comparator("OT with the uniform marginal (no estimate; here the true marginal)",
                                ratio(imb_B["NeSy + OT, uniform marginal"], imb_B["NeSy, max of 3"]),
                                ingredient="the marginal estimated from the weak labels"),
            baselines=[Comparator(LABEL_PC, ratio(imb_B["NeSy + prior correction (own predictions)"],
                                                  imb_B["NeSy, max of 3"]))],
            tol=TRAIN_TOL, post_hoc="added after prototype runs")

B_sup, B_max = imb_B["supervised (gold labels)"], imb_B["NeSy, max of 3"]
for key, v in {
    "l1_max": l1_max_3000, "l1_max_naive": l1_max_3000_naive, "l1_sum": l1_sum_20000,
    "l1_sum_naive": l1_sum_20000_naive, "l1_uniform": l1_uniform,
    "l1_max_partial": l1_max_3000_partial, "l1_sum_partial": l1_sum_20000_partial,
    "l1_sum_zipf": l1_sum_zipf, "l1_sum_zipf_partial": l1_sum_zipf_partial,
    "l1_hat_C": float(l1_hat_C.mean()), "l1_freq_C": float(l1_freq_C.mean()),
    "ratio_max": ratio(B_max, B_sup), "ratio_first": ratio(imb_first, B_sup),
    "ratio_noisy": ratio(imb_B["supervised, noisy labels (no sigma)"], B_sup), "q_noise": q_noise,
    "imb_sup": float(100 * B_sup.mean()), "imb_max": float(100 * B_max.mean()),
    "bacc_max": float(100 * acc_B["NeSy, max of 3"].mean()),
    "bacc_noisy": float(100 * acc_B["supervised, noisy labels (no sigma)"].mean()),
    "bacc_sup": float(100 * acc_B["supervised (gold labels)"].mean()),
    "worst_max": float(100 * acc_B["NeSy, max of 3"].min(-1).mean()),
    "gain_ot": gain_ot, "gain_ot_unif": gain("NeSy + test-time OT (uniform)"),
    "gain_ot_true": gain("NeSy + test-time OT (true r, diagnostic)"),
    "dir_max": low_minus_high("NeSy, max of 3"), "dir_noisy": low_minus_high("supervised, noisy labels (no sigma)"),
    "dir_sup": low_minus_high("supervised (gold labels)"),
    "gain_la": gain("NeSy + logit adjustment (r̂)"), "gain_pc": gain("NeSy + prior correction (own predictions)"),
    "gain_lp": gain_lp, "gain_lp_argmax": gain("NeSy + pseudo-labels, no marginal"),
    "gain_ot_B": gain_ot_B, "gain_lp_B": gain_lp_B,
    "ratio_ot_B": ratio(imb_B["NeSy + test-time OT"], B_max),
    "ratio_ot_unif_B": ratio(imb_B["NeSy + OT, uniform marginal"], B_max),
    "ratio_pc_B": ratio(imb_B["NeSy + prior correction (own predictions)"], B_max),
    "ratio_ot_wrong_B": ratio(imb_B["NeSy + OT, wrong marginal"], B_max),
}.items():
    glue(key, float(v), display=False)
glue("reps", int(P.reps), display=False)
glue("lp_refreshes", len(range(WARMUP, P.steps, RELABEL)), display=False)
glue("lp_steps", int(max(P.steps - WARMUP, 0)), display=False)
glue("steps", int(P.steps), display=False)
glue("n_tuples", int(P.n_tuples), display=False)

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# Four tests are recorded. One is pre-registered and counts toward the badge: `ot-long-tail` (its measurement,
# setting and criterion are those of the page's first run; it only gained comparators). Three are post hoc (†):
# they are shown with their own counts and move the badge only once confirmed on the held-out ci seeds 10-19.
# The two marginal checks are illustrations, shown and never counted. Values below are from seed 0 at ci scale
# ({glue:text}`reps` repetitions, {glue:text}`n_tuples` tuples); the judged table gives the ci sweep and the
# card the full-scale status.
#
# * *The marginal can be recovered from weak labels* ({repro-status}`marginal-max`,
#   {repro-status}`marginal-sum`; the headline is illustrated, not tested). From 3000 maxima of pairs the
#   long-tailed marginal comes back with mean $\ell_1$ error {glue:text}`l1_max:.3f`, and from 20000 sums of
#   pairs with {glue:text}`l1_sum:.3f`. This is a closed-form inversion checked on labels drawn from the very
#   model it inverts, so it cannot fail for a reason that bears on the paper. Naive estimators that do not
#   invert $\sigma$ are shown beside it, on the same draws. Reading the weak label as a label gives
#   {glue:text}`l1_max_naive:.2f` and {glue:text}`l1_sum_naive:.2f`, and the uniform guess
#   {glue:text}`l1_uniform:.2f`. The partial-label estimate (labels spread over those consistent with $s$)
#   gives {glue:text}`l1_max_partial:.3f` for the maximum and {glue:text}`l1_sum_partial:.3f` for the sum. For
#   the sum that is better than the inversion, because our geometric tail makes it unbiased. Under a Zipf tail
#   it gives {glue:text}`l1_sum_zipf_partial:.3f`, against {glue:text}`l1_sum_zipf:.3f` for the inversion.
#   Where the estimate is actually used (experiment C, {glue:text}`n_tuples` training sums), $\hat r$ has
#   $\ell_1$ error {glue:text}`l1_hat_C:.3f`. The class frequencies that the trained NeSy classifier predicts
#   on its own training images have {glue:text}`l1_freq_C:.3f`. The Monte Carlo figure shows the sample sizes
#   at which the inversion becomes accurate: the sum needs several times more tuples than the maximum.
# * *$\sigma$ alone creates imbalance* ({repro-status}`sigma-imbalance`, †). With balanced labels and equally
#   hard classes, the MAX-3 learner's gap between its best and worst class is {glue:text}`ratio_max:.1f` times
#   that of the same classifier trained on the gold labels of the same images. With $\sigma$ = first it is
#   {glue:text}`ratio_first:.2f` times. The naive baseline uses the same images, with each gold label replaced
#   at random with probability {glue:text}`q_noise:.3f` (no symbolic function). It also widens the gap, to
#   {glue:text}`ratio_noisy:.1f` times, above the criterion. Over the ci sweep the method passes at
#   {repro-seeds}`sigma-imbalance:method:pass` seeds and the noisy-label baseline at
#   {repro-seeds}`sigma-imbalance:baseline1:pass`. The card gives the full-scale status of this test, with
#   more tuples and steps. With ten per-class accuracies measured on a few hundred test points, any weaker
#   supervision widens the max-min spread, so the criterion does not isolate $\sigma$'s effect. What is specific
#   to the maximum is *which* classes suffer: the small digits, which the maximum rarely names (see the
#   per-class panel of experiment B, and the directional measurement in "What a skeptic would try"). The
#   ratio does not measure that.
# * *Imposing the estimated marginal at test time* ({repro-status}`ot-long-tail`): on long-tailed SUM-2, OT with
#   $\hat r$ changes balanced accuracy by {glue:text}`gain_ot:+.1f` points instead of at least $+2$. OT with the
#   uniform marginal changes it by {glue:text}`gain_ot_unif:+.1f`, and even OT with the *true* marginal, a
#   diagnostic, by {glue:text}`gain_ot_true:+.1f`. So the failure lies in the hard transport itself, not only in
#   the error of $\hat r$ (mean $\ell_1$ {glue:text}`l1_hat_C:.3f`). The calibration panel shows why: our NeSy
#   classifier already predicts each class about as often as the true marginal says, so the transport has no
#   bias in the class totals to remove. Forcing the totals only moves points across class boundaries, and the
#   rare classes pay. The two corrections that do not force totals gain. Logit adjustment with $\hat r$ gains
#   {glue:text}`gain_la:+.1f` points. Logit adjustment with the classifier's own prior gains
#   {glue:text}`gain_pc:+.1f`; it is the naive baseline that needs no marginal estimate at all, and it passes
#   the criterion at {repro-seeds}`ot-long-tail:baseline2:pass` ci seeds. Over the ci sweep the method passes
#   at {repro-seeds}`ot-long-tail:method:pass` seeds.
# * *Imposing it at training time* ({repro-status}`lp-long-tail`, †): {glue:text}`gain_lp:+.1f` points
#   (pseudo-labels without the marginal: {glue:text}`gain_lp_argmax:+.1f`), for the same reason. At ci scale the
#   pseudo-labels act only in the last {glue:text}`lp_steps` of {glue:text}`steps` steps
#   ({glue:text}`lp_refreshes` refreshes), so this scale barely exercises the ingredient; the card gives the
#   full-scale status. On balanced MAX-3 the LP pseudo-labels change balanced accuracy by
#   {glue:text}`gain_lp_B:+.1f` points (see the tables), far from the paper's "up to 14%".
# * *Test-time OT shrinks the MAX-3 imbalance* ({repro-status}`ot-reduces-imbalance`, †): the imbalance is
#   multiplied by {glue:text}`ratio_ot_B:.2f` (criterion: $\le 0.9$). OT with the uniform (here true) marginal
#   multiplies it by {glue:text}`ratio_ot_unif_B:.2f`, and the prior correction by {glue:text}`ratio_pc_B:.2f`.
#   The MAX-3 imbalance is a confusion *between* low classes, not a shortfall in how often they are predicted.
#   The max-of-3 estimate of $\hat r$ is worst exactly for those classes, and a marginal constraint cannot undo
#   a swap of two equally frequent classes.
#
# In short, the badge rests on `ot-long-tail` alone ({repro-status}`ot-long-tail`): in our miniature the
# paper's test-time cure does not gain the two points. With a well-specified linear learner the predicted class
# totals are already right, and the marginal constraint has nothing to correct; the naive prior correction does
# better than the paper's constraint. The post hoc tests do not move the badge until they are confirmed. Under
# the maximum the per-class spread widens, but label noise of about the same strength widens it too (the seed
# counts above). The hidden marginal is identifiable from weak labels, an illustration of our own inversion;
# where it is used, our estimate is less accurate than the classifier's own predicted class frequencies.
#
# ## What a skeptic would try
#
# Every alternative below is measured by this notebook (seed 0, ci scale) on the same data as the tests. Those
# that fit a test's measurement are its comparators.
#
# * **Estimate the marginal without inverting $\sigma$** (against `marginal-max`, `marginal-sum`, now
#   illustrations). Reading the weak label as a label gives {glue:text}`l1_max_naive:.2f` (max) and
#   {glue:text}`l1_sum_naive:.2f` (sum), against {glue:text}`l1_max:.3f` and {glue:text}`l1_sum:.3f` for the
#   inversion. The partial-label estimate gives {glue:text}`l1_max_partial:.3f` and
#   {glue:text}`l1_sum_partial:.3f`, and under a Zipf tail (sum) {glue:text}`l1_sum_zipf_partial:.3f`, against
#   {glue:text}`l1_sum_zipf:.3f`. Iterating EM from it uses $\sigma$'s likelihood, the same ingredient as the
#   inversion. The strongest naive estimate needs images: the class frequencies that the plain NeSy classifier
#   predicts on its own training images. On long-tailed SUM-2 with {glue:text}`n_tuples` sums its $\ell_1$ error
#   is {glue:text}`l1_freq_C:.3f`, against {glue:text}`l1_hat_C:.3f` for the inversion of $\sigma$ from the
#   same sums.
# * **Weaken the supervision without a symbolic function** (against `sigma-imbalance`). Gold labels noised at
#   rate {glue:text}`q_noise:.3f` (a fixed rule, not tuned) give an imbalance {glue:text}`ratio_noisy:.1f`
#   times the supervised one, and a balanced accuracy of {glue:text}`bacc_noisy:.1f`%. NeSy MAX-3 reaches
#   {glue:text}`bacc_max:.1f`%, and supervision on the gold labels {glue:text}`bacc_sup:.1f`%. The max-min
#   spread of ten noisy per-class accuracies grows with any loss of supervision, so the ratio criterion is
#   passed without $\sigma$. A $\sigma$-specific measurement would be directional: the mean accuracy of classes
#   0-4 minus that of classes 5-9. It is {glue:text}`dir_max:+.1f` points for MAX-3,
#   {glue:text}`dir_noisy:+.1f` for the noisy labels and {glue:text}`dir_sup:+.1f` for the gold labels. It is
#   shown here and not counted: as a test it would be post hoc and would need its confirmation on seeds 10-19.
# * **Correct the class prior without any marginal estimate** (against `ot-long-tail`, `lp-long-tail`,
#   `ot-reduces-imbalance`). Logit adjustment with the classifier's mean predicted probabilities on its
#   training images gains {glue:text}`gain_pc:+.1f` points of balanced accuracy on long-tailed SUM-2 (OT with
#   $\hat r$: {glue:text}`gain_ot:+.1f`; LP pseudo-labels: {glue:text}`gain_lp:+.1f`). It multiplies the MAX-3
#   imbalance by {glue:text}`ratio_pc_B:.2f`.
# * **Give the transport the true marginal** (diagnostic for `ot-long-tail`): {glue:text}`gain_ot_true:+.1f`
#   points, so a better estimate of $r$ alone would not rescue the hard transport here.
# * **The old controls.** OT with a wrong long-tailed marginal on balanced MAX-3 was the old control of
#   `ot-reduces-imbalance`. It multiplies the imbalance by {glue:text}`ratio_ot_wrong_B:.2f`. It fails by
#   construction, so it is shown in the table of experiment B and is no longer a comparator.
#
# Reviewed by an independent skeptic (2026-12-07); what they tried is above. With the rubric, the page, its
# record and the brief, they tried naive baselines against every counted test at seeds 0-9 of the ci preset.
# They found three things. First, the partial-label estimate passes the old `marginal-sum` criterion, and the
# classifier's predicted frequencies beat $\hat r$ where it is used, so both marginal checks became
# illustrations. Second, the noisy-label baseline passes `sigma-imbalance` whatever the noise rule. Third, OT
# with the true marginal also fails `ot-long-tail`. The page measures each of these above, and its prose cites
# counts over seeds only from the sweep record.
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
