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
# # Single-index models via spherical harmonics
#
# *The paper argues that, when the inputs are spherically symmetric, how many samples it takes to find the
# hidden direction is set by the lowest spherical-harmonic degree of the label, not by its Hermite expansion:
# by its theory (and prior work on tensor PCA), a degree-3 label needs about $d^{3/2}$ samples with tensor
# unfolding, and more with online SGD. We test one sample constant, not the rate.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np

from myst_nb import glue

from repro.claims import Claims, Comparator, at_least, at_most, between, tolerance
from repro.papers import harmonic_single_index as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    # about 12 s of CPU on one thread with the pipeline's start-up (measured, /usr/bin/time): three dimensions,
    # 3 repetitions per point, 5 SGD runs, the comparators and the Student-t test
    "ci": dict(dims=(12, 16, 24), reps=3, sgd_dims=(16, 24), sgd_runs=5),
    # about 2-3 min of CPU: five dimensions up to d = 48, 5 repetitions, SGD up to d = 32
    "full": dict(dims=(12, 16, 24, 32, 48), reps=5, sgd_dims=(16, 24, 32), sgd_runs=5),
})
claims = Claims(
    "harmonic-single-index",
    title="Learning single-index models via harmonic decomposition",
    authors="Nirmit Joshi, Hugo Koubbi, Theodor Misiakiewicz, Nathan Srebro",
    paper_url="https://arxiv.org/abs/2506.09887",
    scale=scale, seed=seed,
)
GAMMA = 0.3                   # strength of the degree-3 link (brief)
C_CLAIM, C_HIGH = 20.0, 80.0  # sample sizes m = c d^{3/2} of the brief's checks
LEVEL = 0.8                   # overlap that defines the sample threshold m*(d) (brief, C3)
C_GRID = np.array([1, 1.5, 2, 3, 5, 7, 10, 14, 20, 28, 40, 80.0])  # m / d^{3/2}
SGD_BATCH, SGD_LR0, SGD_BUDGET = 16, 0.3, 400.0  # lr = SGD_LR0 * batch / d^{3/2}; budget m = SGD_BUDGET d^2

# %% [markdown]
# ## The claim
#
# A *single-index model* hides a unit direction $w_*\in\mathbb R^d$: the label $y$ depends on the input
# $x$ only through the projection $z=\langle w_*,x\rangle$. For Gaussian inputs, the known theory reads the
# difficulty of finding $w_*$ off the Hermite expansion of the link: if the first Hermite coefficient
# that a label transformation can make nonzero has degree $k^*$ (the *generative exponent*), the best
# estimators need about $d^{k^*/2}$ samples, and online SGD about $d^{k^*-1}$.
#
# The paper argues that Hermite polynomials are an artefact of the Gaussian: the problem's real
# structure is its rotation symmetry, and the right basis is that of **spherical harmonics**. Write
# $x=r\,u$ with radius $r=\|x\|$ and direction $u$ uniform on the sphere $S^{d-1}$; then
# $t=\langle w_*,u\rangle$ is what the label sees of the direction, and the functions of $t$ that
# behave like harmonics of degree $\ell$ are the **Gegenbauer polynomials** $C_\ell^{\alpha}(t)$, with
# $\alpha=(d-2)/2$. The paper characterises the sample and runtime complexity for *any* spherically
# symmetric input law, degree by degree: spectral estimators for degrees 1 and 2, and for degree
# $\ell\ge3$ a **harmonic tensor unfolding** estimator that reaches the optimal sample count and an
# **online SGD** that reaches the optimal runtime, probably no estimator doing both. Specialised to
# Gaussian inputs, it recovers the known rates and finds that the radius $r$ can carry information.
#
# What we know of the paper: its abstract and two secondary summaries (the reproduction brief). The
# theorem statements and constants were not available, the paper is theory with no numbers to match,
# and **no official code was found**. The checks below are therefore *our numerical stand-ins* for the
# paper's theorems, built from the brief's design: a degree-3 label on the sphere, the unfolding
# estimator at $m=c\,d^{3/2}$ samples, and online SGD with a larger budget.
#
# ## The method
#
# **Gegenbauer polynomials.** $C_k^{\alpha}$ (standard normalisation, `K.gegenbauer`) follow the
# recurrence $n\,C_n^{\alpha}(t)=2t(n+\alpha-1)\,C_{n-1}^{\alpha}(t)-(n+2\alpha-2)\,C_{n-2}^{\alpha}(t)$
# from $C_0=1$, $C_1=2\alpha t$, and are orthogonal on $[-1,1]$ for the weight $(1-t^2)^{\alpha-1/2}$.
# With $\alpha=(d-2)/2$ this weight is exactly the density of $t=\langle w_*,u\rangle$ for $u$ uniform on
# $S^{d-1}$, which is why they are the sphere's own polynomials. We write $\tilde C_\ell$ for $C_\ell^\alpha$
# scaled to unit variance under that density.
#
# **Labels** (brief, with one change, see the deviations). Binary labels $y\in\{\pm1\}$ with
# $P(y=1\mid z)=\tfrac12(1+q(z))$, so $E[y\mid z]=q(z)$. On the sphere of radius $\sqrt d$ ($z=\sqrt d\,t$)
# the link is
#
# $$ q(z)=\frac{\mathrm{clip}\big(\gamma\,\tilde C_3(t),-1,1\big)-\beta\tanh z}{1+|\beta|},\qquad
#    \beta=\frac{E[\mathrm{clip}(\gamma\tilde C_3(t))\,z]}{E[\tanh(z)\,z]},\quad\gamma=0.3 . $$
#
# $q$ is odd (no degree-2 part) and $\beta$ removes the degree-1 part that clipping re-introduces, so
# the lowest harmonic degree of the label is $\ell=3$. Binary labels matter: every transformation
# $T(y)$ of a $\pm1$ label is affine in $y$, so no transformation can expose a lower degree.
#
# **Harmonic tensor unfolding** (`K.unfolding_estimator`). The degree-3 harmonic tensor of a unit vector
# is $H_3(u)=u^{\otimes3}-\frac{1}{d+2}\big(u_i\delta_{jk}+u_j\delta_{ik}+u_k\delta_{ij}\big)$, traceless,
# with $\langle H_3(u),w^{\otimes3}\rangle\propto C_3^{\alpha}(\langle w,u\rangle)$. Hence
# $E[y\,H_3(u)]=c\,w_*^{\otimes3}$, and the estimator unfolds the empirical tensor
# $\frac1m\sum_i y_iH_3(u_i)$ into a $d\times d^2$ matrix and returns its top left singular vector. Its noise
# is a $d\times d^2$ random matrix of operator norm about $\sqrt{d^2/m}$ against a signal of order 1 (over
# $\sqrt{d}$ times $\sqrt{d}$ directions), so it works once $m\gtrsim d^{3/2}$: the $d^{\ell/2}$ of the theory.
#
# **Low-degree spectral estimators** (`K.spectral_estimator`, the controls): degree 1, $\hat w\propto\frac1m\sum y_iu_i$;
# degree 2, the top eigenvector of $\frac1m\sum y_i(u_iu_i^\top-I/d)$. Their expected value is zero
# for a degree-3 label, so they should stay at chance, about $\sqrt{2/(\pi d)}$.
#
# **Online spherical SGD** (`K.online_spherical_sgd`): one pass over fresh samples in mini-batches of 16,
# ascending the correlation $y\,\tilde C_3(\langle w,u\rangle)$ on the sphere,
# $w\leftarrow\mathrm{normalize}\big(w+\eta\,\overline{y\,\tilde C_3'(\langle w,u\rangle)(u-\langle w,u\rangle w)}\big)$,
# from a uniform random start. It costs $O(d)$ per sample instead of the unfolding's $O(d^3)$, but starts
# with overlap $\approx d^{-1/2}$, where the degree-3 signal is of order $d^{-1}$, so it needs more
# samples (about $d^{\ell-1}=d^2$ in the Gaussian theory).
#
# **Gaussian inputs and the radius.** Under $x\sim N(0,I_d)$ the radius $r\sim\chi_d$ varies, and for a
# link of Hermite degree 3, $q(z)\approx\gamma He_3(z)/\sqrt6$ (made exactly orthogonal to $z$ in the same way),
# the weighted degree-1 statistic has mean $E[y(\|x\|^2-d-2)\,x]=E[q(z)(z^3-3z)]\,w_*\ne0$
# (Stein's lemma; `K.radial_degree1_estimator`): a degree-1 harmonic component carried by the radius,
# invisible to the Hermite view, in which this link has information exponent 3. On the sphere
# the radius is constant and the same statistic is blind.
#
# ## The experiment
#
# * **Sphere.** $x$ uniform on the sphere of radius $\sqrt d$ (a non-Gaussian spherical law),
#   Gegenbauer-3 link, $d\in\{12,16,24\}$ at ci scale and $\{12,16,24,32,48\}$ at full scale, sample sizes
#   $m=c\,d^{3/2}$ on the grid $c\in\{1,1.5,2,3,5,7,10,14,20,28,40,80\}$, 3 repetitions (ci) or 5 (full), each with a
#   fresh $w_*$ and fresh data. Measured: the overlap $|\langle\hat w,w_*\rangle|$ of the unfolding and of the
#   two low-degree estimators, and the threshold $m^*(d)$: the sample size at which the median unfolding
#   overlap first reaches 0.8, interpolated in $\log c$.
# * **Gaussian.** $x\sim N(0,I_d)$ with the Hermite-3 link, at $c=20$ and $c=80$: the same estimators, run
#   on the directions $u=x/\|x\|$, plus the radially weighted degree-1 estimator.
# * **Online SGD** on the sphere data, $d\in\{16,24\}$ (ci) or $\{16,24,32\}$ (full), 5 runs each, one pass
#   over $400\,d^2$ fresh samples, step $\eta=0.3\cdot16/d^{3/2}$; the overlap is recorded along the pass.
# * **Control of the threshold scaling:** the same threshold measured for a link of harmonic degree 1,
#   $q=\mathrm{clip}(\gamma\tilde C_1(t))$, with the degree-1 estimator, whose threshold should grow like $d$.
#
# **Claims, fixed before the page first ran** (thresholds from the brief), and their roles since the page
# gained comparators (issue 33). Method, setting, criterion and threshold of each test are unchanged.
#
# *Counted tests*, each beside the estimator without the ingredient it is about (the ablation) and the naive
# estimators a skeptic would try first, all run on the same samples and judged by the same criterion:
#
# 1. `unfolding-sphere-20`: *unfolding succeeds at $m=20\,d^{3/2}$ on the sphere*: the minimum over $d$ of the
#    median overlap is $\ge0.85$. Ingredient: the harmonic projection of the degree-3 tensor. Ablation: the same
#    unfolding of the raw third moment $\frac1m\sum_iy_iu_i^{\otimes3}$ (`K.raw_moment_unfolding_estimator`).
#    Baselines: the Gaussian recipe, the unfolded Hermite-3 tensor of the raw inputs
#    $\frac1m\sum_iy_i\,He_3(x_i)$ (`K.hermite_unfolding_estimator`); one pass of online SGD over the same
#    samples; the degree-2 spectral estimator on the raw labels; and, added after the independent review, the raw
#    third moment with every repeated-index entry set to zero (`K.offdiagonal_moment_unfolding_estimator`, "drop
#    the diagonals" instead of the trace projection) and multi-pass projected gradient ascent on the empirical
#    cubic correlation with 10 random restarts (`K.multistart_gradient_ascent`).
# 2. `unfolding-gaussian-20`: *the same at $m=20\,d^{3/2}$ with Gaussian inputs* and a Hermite-3 link
#    ($\ge0.85$), with the same comparators. Here the Hermite-3 unfolding is the classical estimator of the
#    Gaussian theory, which keeps the radius that the harmonic unfolding throws away. The threshold 0.85 is the
#    brief's number for the sphere, carried over to Gaussian inputs by us.
# 3. `radius-signal-gaussian-80` (†, post hoc): *the radius carries a degree-1 signal under Gaussian inputs*:
#    at $m=80\,d^{3/2}$ the radially weighted degree-1 estimator reaches a median overlap $\ge0.5$ at every $d$.
#    Ingredient: the radial weight. Ablation: the plain degree-1 estimator on the same data. Baselines:
#    online SGD over the same samples (the same $O(md)$ cost), the Hermite-3 unfolding, the degree-2 spectral
#    estimator, and (after the review) the plain degree-1 estimator on the raw $x$ and the uncentred radial weight
#    $\frac1m\sum_iy_i\|x_i\|^2x_i$. The sphere, where the radius is constant, is shown beside it as a wrong input.
# 4. `unfolding-student-t-20` (†, post hoc): *on a spherical law with a heavy-tailed radius* (multivariate
#    Student $t$, $\nu=4$, covariance $I_d$; the label sees the direction only, through the Gegenbauer-3 link),
#    the harmonic unfolding on the directions reaches a median overlap $\ge0.85$ at $m=20\,d^{3/2}$ for every $d$
#    (the brief's threshold and sample budget). Ingredient: working on the directions with the trace-free
#    (harmonic) tensor rather than the Hermite tensor of the raw inputs; ablation: the Hermite-3 unfolding of the
#    raw $x$. Baselines: the raw-moment unfolding, the repeated-index-zeroed moment, multi-restart gradient ascent.
#    This setting was suggested by the independent reviewer *after* they saw the Hermite-3 estimator fail there;
#    the brief names any spherical law as where harmonics, not Hermite polynomials, govern. Method, criterion and
#    threshold are the brief's; $\nu=4$ is the textbook default of Lange, Little and Taylor (1989), fixed before
#    the first run, not the reviewer's $\nu$. It is confirmed only by the held-out seeds 10-19.
#
# *Illustrations* (shown, not counted; they could not fail as tests of the paper):
#
# * `degree1-blind-sphere-20`, `degree2-blind-sphere-20`: at $m=20\,d^{3/2}$ the degree-1 and degree-2
#   estimators stay $\le0.5$. Our labels are built with no degree-1 or degree-2 part, so both sit at chance by
#   symmetry, and any estimator at chance passes.
# * `threshold-slope-3-2`: the log-log slope of the threshold $m^*(d)$ (median overlap 0.8) lies in
#   $[1.25,1.75]$, with the degree-1 link's slope beside it. The $d^{3/2}$ rate of tensor unfolding is a
#   result of prior work on tensor PCA, and on the sphere the Hermite-3 unfolding makes the same projection up
#   to $O(d^{-2})$, so it has the same rate. (Whether the unfolding *without* any trace removal has the same
#   rate is not established here: its thresholds are larger, and its slope is not measured.)
# * `sgd-short-at-20` and `sgd-recovers-400d2`: online SGD is still near its start after $20\,d^{3/2}$ samples
#   ($\le0.5$) and reaches $0.8$ after $400\,d^2$. That online SGD needs about $d^{\ell-1}$ samples for
#   information exponent 3 is prior work, the first criterion is passed by anything at chance, and the budget
#   of the second was chosen on a prototype so that SGD succeeds.
#
# Before writing the claims we ran a prototype on seeds 777 and 778, which the page never uses: it fixed
# the SGD step ($0.3\cdot16/d^{3/2}$, of 0.1 to 0.3 tried) and budget ($400\,d^2$, of 50 to 400 tried), and it is
# where we first saw the radial estimator's overlaps (0.44 to 0.52 at $c=20$, 0.69 to 0.75 at $c=80$,
# $d\le32$), from which claim 3's criterion was chosen: it is therefore flagged post hoc. The same
# prototype showed unfolding overlaps of 0.73 to 0.89 on Gaussian inputs at $c=20$; claim 2 keeps the
# brief's threshold of 0.85 all the same. The comparators were added later with their settings fixed in
# advance (SGD with the page's own step and batch, the Hermite tensor with its textbook normalisation), and
# no threshold moved.
#
# **Deviations from the paper**
#
# * Theory page: we test the $d^{\ell/2}$ sample threshold for one degree ($\ell=3$), one link strength
#   ($\gamma=0.3$) and $d\le48$, not the paper's bounds (which we could not read) or their constants.
# * The label design is the brief's (binary labels, clipped Gegenbauer-3 link) with one change: the brief
#   subtracts $\beta z$ to remove the degree-1 part, but $\beta<0$ here and $|z|$ reaches $\sqrt d$, so
#   $|q|$ would exceed 1 (measured 1.09 at $d=16$). We subtract $\beta\tanh z$ and divide by $1+|\beta|$,
#   which keeps $E[q(z)z]=0$ exactly and $|q|\le1$. $\beta$ comes from one-dimensional quadrature.
# * Gaussian inputs use a Hermite-3 link, $\mathrm{clip}(\gamma He_3(z)/\sqrt6)$, made orthogonal to $z$
#   the same way (the Gaussian theory's information exponent 3), not the sphere's Gegenbauer link.
# * `unfolding-gaussian-20`: the threshold 0.85 is the brief's number for the sphere, carried over by us to
#   Gaussian inputs (the prototype had shown 0.73 to 0.89 there), and our estimator works on the directions and
#   throws away the radius, which the paper says carries information under Gaussian inputs. Its failure is
#   therefore a failure of our miniature's design, not necessarily of the paper's Gaussian estimator.
# * The SGD comparators run spherical SGD on the directions $u$ (also on Gaussian data), not the Gaussian
#   literature's SGD on the raw $x$.
# * Student-$t$ inputs (test 4) are our choice of a non-Gaussian spherical law with a random radius; the paper's
#   own examples of spherical laws are not known to us.
# * Estimators are our implementations from the brief: degree-3 unfolding only (no higher degrees, no
#   label transformations, no partial trace or other refinements), spectral estimators by eigenvalue
#   of largest magnitude, and our own radially weighted degree-1 statistic as the stand-in for the
#   paper's remark on the radius.
# * Online SGD: mini-batches of 16 samples (each sample used once), a fixed step, a random start, correlation
#   loss; step and budget chosen on a prototype seed (above). The paper's SGD (its loss, schedule,
#   warm start) is not known to us.
# * The brief's check 3 (critical constant $c^*(d)$ on a 5-point grid varying by at most a factor 4) is
#   replaced by an interpolated threshold and a log-log slope with a pre-set window, which can tell
#   $d^{3/2}$ from $d^2$ over our range of $d$; dimensions $d=12$ (ci) and 12, 48 (full) are added to the brief's.
# * Medians over 3 repetitions (ci, as the brief) or 5 (full); a repetition draws a new $w_*$ and new data.
# * Comparators are ours: the raw-moment unfolding (the harmonic projection left out), the Hermite-3 unfolding
#   of the raw inputs, and one pass of online SGD over the *same* $m$ samples (with its own random start, so that
#   the rest of the page's draws are unchanged). The SGD comparator uses the step tuned for long runs, which is
#   its best guess, not a step picked to make it fail.

# %%
print(f"scale={P.scale}: d in {P.dims}, {P.reps} repetitions per point; SGD at d in {P.sgd_dims}, "
      f"{P.sgd_runs} runs, budget {SGD_BUDGET:g} d^2")
BETA = {(d, link, law): K.degree_one_coefficient(link, d, GAMMA, law)
        for d in set(P.dims) | set(P.sgd_dims) for link, law in (("gegenbauer3", "sphere"), ("hermite3", "gaussian"))}


def draw(m, d, law, link, rng):
    """A fresh hidden direction and m labelled samples."""
    w = K.random_unit_vector(d, rng)
    X = K.sample_spherical_inputs(m, d, law, rng)
    beta = BETA[d, link, law] if link != "gegenbauer1" else 0.0
    y = K.binary_labels(K.link_q(X @ w, link, d, GAMMA, beta), rng)
    return w, X, y


GD_RNG = np.random.default_rng([seed, 2])  # random restarts of the gradient-ascent comparator: its own stream
SGD_RNG = np.random.default_rng([seed, 1])  # random starts of the SGD comparator: its own stream, so that adding
# it leaves every other draw of the page unchanged


def sgd_same_samples(X, y):
    """Comparator: one pass of online spherical SGD (degree-3 loss, the page's step and batch) over the same samples."""
    d = X.shape[1]
    w0 = K.random_unit_vector(d, SGD_RNG)
    return K.online_spherical_sgd(X, y, w0, 3, SGD_LR0 * SGD_BATCH / d**1.5, SGD_BATCH)


ESTIMATORS = {
    "unfolding (degree 3)": K.unfolding_estimator,
    "spectral degree 1": lambda X, y: K.spectral_estimator(X, y, 1),
    "spectral degree 2": lambda X, y: K.spectral_estimator(X, y, 2),
    "radial degree 1": K.radial_degree1_estimator,
    # comparators added with issue 33 (none of them draws from P.rng)
    "unfolding, no harmonic projection": K.raw_moment_unfolding_estimator,
    "Hermite-3 unfolding of raw x": K.hermite_unfolding_estimator,
    "online SGD, same samples": sgd_same_samples,
    # comparators suggested by the independent reviewer (own stream for the restarts, so no other draw moves)
    "raw moment, repeated indices zeroed": K.offdiagonal_moment_unfolding_estimator,
    "multi-restart gradient ascent": lambda X, y: K.multistart_gradient_ascent(X, y, GD_RNG),
    "degree 1 on raw x": K.raw_degree1_estimator,
    "uncentred radial weight": lambda X, y: K.raw_degree1_estimator(X, y, "radius2"),
}
COMP = ("unfolding, no harmonic projection", "Hermite-3 unfolding of raw x", "online SGD, same samples",
        "raw moment, repeated indices zeroed", "multi-restart gradient ascent")


def overlaps_at(c, d, law, link, names, rng):
    """Overlaps of each named estimator over P.reps repetitions at m = c d^{3/2}: dict name -> (reps,)."""
    out = {n: [] for n in names}
    for _ in range(P.reps):
        w, X, y = draw(int(round(c * d**1.5)), d, law, link, rng)
        for n in names:
            out[n].append(float(K.overlap(ESTIMATORS[n](X, y), w)))
    return {n: np.array(v) for n, v in out.items()}


# %% [markdown]
# ## Results
#
# ### Unfolding against the low-degree estimators on the sphere

# %%
SPH = ("unfolding (degree 3)", "spectral degree 1", "spectral degree 2")
sphere = {(d, c): overlaps_at(c, d, "sphere", "gegenbauer3", SPH + (COMP if c == C_CLAIM else ()), P.rng)
          for d in progress(P.dims, desc="sphere") for c in C_GRID}
deg1_link = {(d, c): overlaps_at(c, d, "sphere", "gegenbauer1", ("spectral degree 1",), P.rng)["spectral degree 1"]
             for d in P.dims for c in C_GRID}
med = lambda a: float(np.median(a))  # noqa: E731
for d in P.dims:
    print(f"d = {d:2d}, m = 20 d^1.5 = {int(round(C_CLAIM * d**1.5)):5d}: median overlaps "
          + ", ".join(f"{n} {med(sphere[d, C_CLAIM][n]):.2f}" for n in SPH)
          + f"; chance {np.sqrt(2 / (np.pi * d)):.2f}")
    print("      comparators: " + ", ".join(f"{n} {med(sphere[d, C_CLAIM][n]):.2f}" for n in COMP))

# %% [markdown]
# The first figure shows the overlap against the sample size in units of $d^{3/2}$. If the threshold
# scales like $d^{3/2}$, the unfolding curves of all dimensions collapse onto one; the degree-1 and
# degree-2 estimators stay near the chance level whatever the sample size.

# %%
fig, axes = plt.subplots(1, 2, figsize=(9, 3.3), sharey=True)
for i, d in enumerate(P.dims):
    for ax, n in ((axes[0], "unfolding (degree 3)"), (axes[1], "spectral degree 2")):
        q = np.array([[np.min(sphere[d, c][n]), med(sphere[d, c][n]), np.max(sphere[d, c][n])] for c in C_GRID])
        ax.plot(C_GRID, q[:, 1], "o-", color=f"C{i}", ms=3, label=f"d = {d}")
        ax.fill_between(C_GRID, q[:, 0], q[:, 2], color=f"C{i}", alpha=0.15)
    q1 = [med(sphere[d, c]["spectral degree 1"]) for c in C_GRID]
    axes[1].plot(C_GRID, q1, "^:", color=f"C{i}", ms=3, label=f"degree 1, d = {d}")
    axes[1].axhline(np.sqrt(2 / (np.pi * d)), color=f"C{i}", lw=0.6, ls="--")
for ax, title in zip(axes, ("harmonic tensor unfolding (degree 3)", "degree-2 (o) and degree-1 (^) spectral")):
    ax.axvline(C_CLAIM, color="0.5", lw=0.8)
    ax.set(xscale="log", xlabel=r"samples $m/d^{3/2}$", title=title)
axes[0].axhline(0.85, color="k", ls="--", lw=0.8, label="brief: 0.85 at $m=20d^{3/2}$")
axes[0].set_ylabel(r"overlap $|\langle\hat w, w_*\rangle|$ (median, band min-max)")
axes[0].legend(fontsize=8)
axes[1].legend(fontsize=7, ncol=2, title="dashed: chance $\\sqrt{2/\\pi d}$", title_fontsize=7)
plt.show()

# %% [markdown]
# ### How the threshold grows with the dimension
#
# The sample size $m^*(d)$ at which the median overlap first reaches $0.8$, against $d$ on log-log axes,
# for the degree-3 label with the unfolding and for the degree-1 label with the degree-1 estimator (the
# control of claim 3). The theory's slopes are $3/2$ and $1$.

# %%
m_star = {}
for name, curves in (("degree 3, unfolding", {k: v["unfolding (degree 3)"] for k, v in sphere.items()}),
                     ("degree 1 link, degree-1 estimator", deg1_link)):
    cs = np.array([K.threshold_crossing(C_GRID, [med(curves[d, c]) for c in C_GRID], LEVEL) for d in P.dims])
    m_star[name] = cs * np.array(P.dims, dtype=float) ** 1.5
slopes = {n: (loglog_slope(P.dims, v) if np.all(np.isfinite(v)) else float("nan")) for n, v in m_star.items()}
for n, v in m_star.items():
    print(f"{n}: m*(d) = " + ", ".join(f"{x:.0f}" for x in v) + f"; log-log slope {slopes[n]:.2f}")

# %%
dd = np.array(P.dims, dtype=float)
fig, ax = plt.subplots(figsize=(6.4, 4.2))
for (n, v), col in zip(m_star.items(), ("C0", "C3")):
    ax.loglog(dd, v, "o", color=col, label=f"{n}: slope {slopes[n]:.2f}")
    if np.all(np.isfinite(v)):
        a, b = np.polyfit(np.log(dd), np.log(v), 1)
        ax.loglog(dd, np.exp(b) * dd**a, "-", color=col, lw=1)
v0 = m_star["degree 3, unfolding"][0]
for p, ls in ((1.5, "--"), (2.0, ":"), (1.0, "-.")):
    ax.loglog(dd, v0 * (dd / dd[0]) ** p, ls, color="0.4", lw=0.8, label=f"$d^{{{p:g}}}$ through the first point")
ax.set(xlabel="dimension d", ylabel="samples m* for median overlap 0.8",
       title="Sample threshold against dimension (sphere)")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### Gaussian inputs: same threshold, and a signal in the radius

# %%
GAU = ("unfolding (degree 3)", "spectral degree 1", "spectral degree 2", "radial degree 1")
GAU_EXTRA = {C_CLAIM: COMP, C_HIGH: ("Hermite-3 unfolding of raw x", "online SGD, same samples", "degree 1 on raw x",
                                     "uncentred radial weight")}
gauss = {(d, c): overlaps_at(c, d, "gaussian", "hermite3", GAU + GAU_EXTRA[c], P.rng)
         for d in progress(P.dims, desc="gaussian") for c in (C_CLAIM, C_HIGH)}
radial_sphere = {(d, c): overlaps_at(c, d, "sphere", "gegenbauer3", ("radial degree 1",), P.rng)["radial degree 1"]
                 for d in P.dims for c in (C_CLAIM, C_HIGH)}
for c in (C_CLAIM, C_HIGH):
    for d in P.dims:
        print(f"Gaussian, d = {d:2d}, c = {c:g}: " + ", ".join(f"{n} {med(gauss[d, c][n]):.2f}" for n in GAU)
              + f" | sphere, radial degree 1 {med(radial_sphere[d, c]):.2f}")
        print("      comparators: " + ", ".join(f"{n} {med(gauss[d, c][n]):.2f}" for n in GAU_EXTRA[c]))

# %%
fig, axes = plt.subplots(1, 2, figsize=(9, 3.2), sharey=True)
for ax, c in zip(axes, (C_CLAIM, C_HIGH)):
    for j, n in enumerate(GAU):
        y = [med(gauss[d, c][n]) for d in P.dims]
        lo = [np.min(gauss[d, c][n]) for d in P.dims]
        hi = [np.max(gauss[d, c][n]) for d in P.dims]
        x = np.arange(len(P.dims)) + 0.15 * (j - 1.5)
        ax.errorbar(x, y, yerr=[np.subtract(y, lo), np.subtract(hi, y)], fmt="os^D"[j], color=f"C{j}", ms=4,
                    capsize=2, label=f"Gaussian: {n}")
    ys = [med(radial_sphere[d, c]) for d in P.dims]
    ax.plot(np.arange(len(P.dims)) + 0.45, ys, "x", color="C3", ms=7, label="sphere: radial degree 1 (control)")
    ax.plot(np.arange(len(P.dims)), np.sqrt(2 / (np.pi * dd)), "_", color="k", ms=14, label="chance")
    ax.set(xticks=np.arange(len(P.dims)), xticklabels=[f"d = {d}" for d in P.dims],
           title=f"m = {c:g} $d^{{3/2}}$")
axes[0].axhline(0.85, color="k", ls="--", lw=0.8)
axes[0].set_ylabel("overlap (median, bar min-max)")
axes[1].legend(fontsize=7, loc="lower right")
plt.show()

# %% [markdown]
# ### A spherical law with a heavy-tailed radius (post hoc)
#
# Multivariate Student-$t$ inputs with $\nu=4$ degrees of freedom (the default of Lange, Little and Taylor 1989,
# fixed before this section first ran), scaled to covariance $I_d$: a spherical law whose radius is neither
# constant nor $\chi_d$. The label sees only the direction, through the sphere's Gegenbauer-3 link on
# $t=\langle w_*,u\rangle$, so the harmonic unfolding on the directions meets exactly the sphere's problem,
# while the Gaussian recipe (the Hermite-3 tensor of the raw $x$) now carries the radius as noise. The draws use
# their own random stream, so nothing above moves.

# %%
T_NU = 4.0
T_RNG = np.random.default_rng([seed, 3])
STU = ("unfolding (degree 3)", "Hermite-3 unfolding of raw x", "unfolding, no harmonic projection",
       "raw moment, repeated indices zeroed", "multi-restart gradient ascent")


def draw_t(m, d, rng):
    """Student-t inputs; the label depends on the direction only (z = sqrt(d) <w*, u>, the sphere's link)."""
    w = K.random_unit_vector(d, rng)
    X = K.sample_multivariate_t(m, d, T_NU, rng)
    z = np.sqrt(d) * (X @ w) / np.linalg.norm(X, axis=1)
    y = K.binary_labels(K.link_q(z, "gegenbauer3", d, GAMMA, BETA[d, "gegenbauer3", "sphere"]), rng)
    return w, X, y


student = {}
for d in progress(P.dims, desc="student t"):
    out = {n: [] for n in STU}
    for _ in range(P.reps):
        w, X, y = draw_t(int(round(C_CLAIM * d**1.5)), d, T_RNG)
        for n in STU:
            out[n].append(float(K.overlap(ESTIMATORS[n](X, y), w)))
    student[d, C_CLAIM] = {n: np.array(v) for n, v in out.items()}
    print(f"Student t (nu = {T_NU:g}), d = {d:2d}, c = 20: "
          + ", ".join(f"{n} {med(student[d, C_CLAIM][n]):.2f}" for n in STU))

# %% [markdown]
# ### Online SGD against unfolding
#
# Online SGD sees each sample once and spends $O(d)$ arithmetic on it. The figure follows its overlap
# along the pass, with the sample count in units of $d^{3/2}$ (the unfolding's scale) on a log axis; the
# unfolding's median curve from the first figure is drawn for comparison.

# %%
def sgd_path(d, degree, rng, checkpoints):
    """Median-free record: overlaps of P.sgd_runs SGD runs at each checkpoint (samples seen); data streamed in chunks."""
    R = P.sgd_runs
    w = np.stack([K.random_unit_vector(d, rng) for _ in range(R)])
    beta = BETA[d, "gegenbauer3", "sphere"]
    W = K.sample_spherical_inputs(R, d, "sphere", rng) / np.sqrt(d)
    lr = SGD_LR0 * SGD_BATCH / d**1.5
    path, seen = [], 0
    for target in checkpoints:
        n = int(target - seen)
        X = K.sample_spherical_inputs(R * n, d, "sphere", rng).reshape(R, n, d)
        y = K.binary_labels(K.link_q(np.einsum("rnd,rd->rn", X, w), "gegenbauer3", d, GAMMA, beta), rng)
        W = K.online_spherical_sgd(X, y, W, degree, lr, SGD_BATCH)
        seen = target
        path.append(np.abs(np.einsum("rd,rd->r", W, w)))
    return np.array(path)  # (checkpoints, runs)


sgd = {}
for d in progress(P.sgd_dims, desc="online SGD"):
    m_end = SGD_BUDGET * d**2
    cps = np.unique(np.round(np.geomspace(SGD_BATCH * 5, m_end, 16) / SGD_BATCH) * SGD_BATCH)
    cps = np.unique(np.r_[cps, round(C_CLAIM * d**1.5 / SGD_BATCH) * SGD_BATCH]).astype(int)
    sgd[d] = {deg: (cps, sgd_path(d, deg, P.rng, cps)) for deg in (3, 1)}


def sgd_at(d, deg, m):
    cps, path = sgd[d][deg]
    return path[np.flatnonzero(cps >= m)[0]]


for d in P.sgd_dims:
    m20 = round(C_CLAIM * d**1.5 / SGD_BATCH) * SGD_BATCH
    print(f"d = {d}: SGD median overlap {med(sgd_at(d, 3, m20)):.2f} after {m20} samples (20 d^1.5), "
          f"{med(sgd_at(d, 3, SGD_BUDGET * d**2)):.2f} after {int(SGD_BUDGET * d**2)} (400 d^2); "
          f"degree-1 loss {med(sgd_at(d, 1, SGD_BUDGET * d**2)):.2f}")

# %%
fig, ax = plt.subplots(figsize=(6.4, 3.6))
for i, d in enumerate(P.sgd_dims):
    col = f"C{list(P.dims).index(d)}"
    cps, path = sgd[d][3]
    x = cps / d**1.5
    ax.plot(x, np.median(path, axis=1), "-", color=col, lw=1.6, label=f"online SGD, d = {d} (median, band min-max)")
    ax.fill_between(x, path.min(axis=1), path.max(axis=1), color=col, alpha=0.12)
    cps1, path1 = sgd[d][1]
    ax.plot(cps1 / d**1.5, np.median(path1, axis=1), ":", color=col, lw=1, label=f"SGD with degree-1 loss, d = {d}")
    ax.plot(C_GRID, [med(sphere[d, c]["unfolding (degree 3)"]) for c in C_GRID], "o--", color=col, ms=3, lw=0.8,
            label=f"unfolding, d = {d}")
    ax.axvline(SGD_BUDGET * d**0.5, color=col, lw=0.6, ls="-.")
ax.axvline(C_CLAIM, color="0.5", lw=0.8)
ax.set(xscale="log", xlabel=r"samples seen $m/d^{3/2}$ (dash-dot: $400\,d^2$)", ylabel="overlap",
       title="Online SGD needs more samples than unfolding (sphere)")
ax.legend(fontsize=7, loc="upper left")
plt.show()

# %% [markdown]
# The arithmetic behind the trade-off, counted at the sizes run: one pass of unfolding costs about
# $2md^3$ multiply-adds for the $d\times d^2$ matrix (plus a $d\times d$ eigenproblem), one pass of SGD
# about $4md$.

# %%
for d in P.sgd_dims:
    m_u = K.threshold_crossing(C_GRID, [med(sphere[d, c]["unfolding (degree 3)"]) for c in C_GRID], LEVEL) * d**1.5
    cps, path = sgd[d][3]
    hit = np.flatnonzero(np.median(path, axis=1) >= LEVEL)
    m_s = cps[hit[0]] if hit.size else float("nan")
    print(f"d = {d}: samples to median overlap 0.8: unfolding {m_u:.0f} (~{2 * m_u * d**3:.1e} flops), "
          f"SGD {m_s:.0f} (~{4 * m_s * d:.1e} flops)")

# %% [markdown]
# ### The paper's numbers beside ours
#
# The paper is theory and reports no measurements we could retrieve. The rows below are the theory's
# rates (from the summaries the brief cites) and the brief's own prototype, beside ours.
#
# | setting | source | paper or brief | ours (this run) |
# |---|---|---|---|
# | samples for degree $\ell=3$, sample-optimal estimator | theory (summary) | $\Theta(d^{3/2})$ | log-log slope of $m^*(d)$, printed above |
# | samples for online SGD, degree 3 | Gaussian theory (summary) | about $d^{\ell-1}=d^2$ | figure above |
# | unfolding overlap at $m=20d^{3/2}$, sphere, $d\in\{16,24,32\}$ | brief's prototype | 0.87 to 0.95 | printed above |
# | unfolding overlap at $m=80d^{3/2}$, sphere | brief's prototype | about 0.99 | first figure |
# | degree-1/2 spectral overlap at $m=20d^{3/2}$ | brief's prototype | $\le0.5$ (one seed 0.49) | printed above |

# %%
OVL = tolerance(abs=0.03, why="median overlap of a few random repetitions: a top eigenvector or an SGD path near a "
                "tie can move under other float kernels")
SLOPE = tolerance(abs=0.1, why="log-log fit to thresholds interpolated between Monte Carlo medians")
mins = lambda tab, n, c=C_CLAIM: min(med(tab[d, c][n]) for d in P.dims)  # noqa: E731
maxs = lambda tab, n, c=C_CLAIM: max(med(tab[d, c][n]) for d in P.dims)  # noqa: E731
ABL_H = "the same unfolding of the raw third moment of the directions (no harmonic projection)"
LAB_HERM = "Hermite-3 tensor of the raw inputs, unfolded (the Gaussian recipe)"
LAB_SGD = (f"one pass of online spherical SGD on the directions (degree-3 loss, batch {SGD_BATCH}, the page's "
           "step) over the same samples, random start")
LAB_SPEC2 = "degree-2 spectral estimator on the raw labels, same data"
LAB_OFF = "raw third moment of the directions with every repeated-index entry set to 0, unfolded (drop the diagonals)"
LAB_GD = "multi-pass projected gradient ascent on (1/m) sum y <w,u>^3, 10 random restarts x 150 steps, best kept"

claims.headline(
    "harmonics-govern-spherical",
    "For any spherically symmetric input law, the difficulty of finding the hidden direction is set degree by "
    "degree by the label's spherical-harmonic (Gegenbauer) expansion, not by its Hermite expansion",
    tests=["unfolding-student-t-20"])
claims.headline(
    "unfolding-sample-optimal",
    "For harmonic degree l >= 3, harmonic tensor unfolding reaches the optimal number of samples, about d^(l/2) "
    "(tested here only at one constant, m = 20 d^1.5 on the sphere: the test does not measure a rate)",
    tests=["unfolding-sphere-20"])
claims.headline(
    "sgd-runtime-no-both",
    "Online SGD reaches the optimal runtime, and probably no estimator is optimal in both samples and runtime",
    untestable="lower bounds over all estimators and a runtime in a model of computation: running two estimators "
               "cannot refute them; online SGD's d^2 sample need is the classical result of prior work for "
               "information exponent 3 and is shown as the illustrations sgd-short-at-20 and sgd-recovers-400d2")
claims.headline(
    "gaussian-new-phenomena",
    "Specialised to Gaussian inputs the theory recovers the known rates and shows phenomena the Hermite view "
    "missed, such as information carried by the radius",
    tests=["unfolding-gaussian-20", "radius-signal-gaussian-80"])

claims.test(
    "unfolding-sphere-20",
    statement=f"On the sphere, harmonic tensor unfolding at m = 20 d^1.5: minimum over d in {list(P.dims)} "
              f"of the median overlap ({P.reps} repetitions)",
    paper="degree-l harmonic unfolding is sample-optimal, about d^(l/2) samples (summary); brief's prototype "
          "0.87-0.95 at 20 d^1.5",
    criterion=at_least(0.85), measured=mins(sphere, "unfolding (degree 3)"),
    ablation=Comparator(ABL_H, mins(sphere, COMP[0]),
                        ingredient="the harmonic projection of the degree-3 tensor (removal of its trace part)"),
    baselines=[Comparator(LAB_HERM, mins(sphere, COMP[1])), Comparator(LAB_SGD, mins(sphere, COMP[2])),
               Comparator(LAB_SPEC2, mins(sphere, "spectral degree 2")), Comparator(LAB_OFF, mins(sphere, COMP[3])),
               Comparator(LAB_GD, mins(sphere, COMP[4]))],
    tol=OVL)
claims.test(
    "unfolding-gaussian-20",
    statement="Gaussian inputs, Hermite-3 link: unfolding on the directions at m = 20 d^1.5, minimum over d "
              "of the median overlap",
    paper="for Gaussian inputs the theory recovers d^(k*/2) with k* = 3 (summary)",
    criterion=at_least(0.85), measured=mins(gauss, "unfolding (degree 3)"),
    ablation=Comparator(ABL_H, mins(gauss, COMP[0]),
                        ingredient="the harmonic projection of the degree-3 tensor (removal of its trace part)"),
    baselines=[Comparator(LAB_HERM, mins(gauss, COMP[1])), Comparator(LAB_SGD, mins(gauss, COMP[2])),
               Comparator(LAB_SPEC2, mins(gauss, "spectral degree 2")), Comparator(LAB_OFF, mins(gauss, COMP[3])),
               Comparator(LAB_GD, mins(gauss, COMP[4]))],
    tol=OVL)
claims.test(
    "radius-signal-gaussian-80",
    statement="Gaussian inputs, Hermite-3 link: radially weighted degree-1 estimator at m = 80 d^1.5, minimum "
              "over d of the median overlap",
    paper="for Gaussian inputs the radial component carries information (summary; no numbers)",
    criterion=at_least(0.5), measured=mins(gauss, "radial degree 1", C_HIGH),
    ablation=Comparator("the plain degree-1 estimator on the same data (no radial weight)",
                        mins(gauss, "spectral degree 1", C_HIGH), ingredient="the radial weight |x|^2 - d - 2"),
    baselines=[Comparator(LAB_SGD, mins(gauss, "online SGD, same samples", C_HIGH)),
               Comparator(LAB_HERM, mins(gauss, "Hermite-3 unfolding of raw x", C_HIGH)),
               Comparator(LAB_SPEC2, mins(gauss, "spectral degree 2", C_HIGH)),
               Comparator("plain degree-1 estimator on the raw inputs x (not the directions)",
                          mins(gauss, "degree 1 on raw x", C_HIGH)),
               Comparator("uncentred radial weight: (1/m) sum y |x|^2 x",
                          mins(gauss, "uncentred radial weight", C_HIGH))],
    tol=OVL, post_hoc="criterion chosen after a prototype at seeds 777-778 showed overlaps 0.69-0.75 at 80 d^1.5")
claims.test(
    "unfolding-student-t-20",
    statement=f"Multivariate Student-t inputs (nu = {T_NU:g}, covariance I), label through the direction only "
              f"(Gegenbauer-3 link): harmonic unfolding on the directions at m = 20 d^1.5, minimum over d in "
              f"{list(P.dims)} of the median overlap ({P.reps} repetitions)",
    paper="for any spherically symmetric input law the spherical-harmonic (not the Hermite) expansion governs the "
          "complexity, and degree-l harmonic unfolding needs about d^(l/2) samples (summary); brief's threshold "
          "0.85 at 20 d^1.5",
    criterion=at_least(0.85), measured=mins(student, "unfolding (degree 3)"),
    ablation=Comparator(LAB_HERM + ", on the same Student-t inputs", mins(student, "Hermite-3 unfolding of raw x"),
                        ingredient="working on the directions u = x/|x| with the trace-free (harmonic) tensor instead "
                                   "of the Hermite tensor of the raw x (normalising x first and then using Hermite-3 "
                                   "is the same estimator up to O(1/d^2))"),
    baselines=[Comparator(ABL_H, mins(student, "unfolding, no harmonic projection")),
               Comparator(LAB_OFF, mins(student, "raw moment, repeated indices zeroed")),
               Comparator(LAB_GD, mins(student, "multi-restart gradient ascent"))],
    tol=OVL,
    post_hoc="added after the independent reviewer, having seen the Hermite-3 unfolding fail on heavy-tailed "
             "spherical inputs, suggested the setting; the brief names any spherical law as where harmonics govern; "
             "method, criterion and threshold are the brief's (0.85 at 20 d^1.5), nu = 4 is the textbook default of "
             "Lange, Little and Taylor (1989), fixed before the first run; confirmed only by held-out seeds 10-19")

for deg, n in ((1, "spectral degree 1"), (2, "spectral degree 2")):
    claims.illustrate(
        f"degree{deg}-blind-sphere-20",
        statement=f"On the sphere at m = 20 d^1.5, the degree-{deg} spectral estimator: maximum over d of the "
                  "median overlap",
        paper="a degree-3 label has no degree-1 or degree-2 harmonic part, so low-degree estimators fail "
              "(brief: <= 0.5)",
        criterion=at_most(0.5), measured=maxs(sphere, n),
        why=f"fixed by our label design: the link is odd and its degree-1 part is removed by construction, so the "
            f"degree-{deg} statistic has mean zero and sits at chance by symmetry; any estimator at chance "
            "passes 'at most 0.5'", tol=OVL)
claims.illustrate(
    "threshold-slope-3-2",
    statement=f"Log-log slope in d of the samples m*(d) for median unfolding overlap 0.8 (d in {list(P.dims)})",
    paper="sample complexity d^(l/2) = d^1.5 for harmonic degree 3 (summary); brief: like d^1.5, not d^2",
    criterion=between(1.25, 1.75), measured=slopes["degree 3, unfolding"],
    why="the d^(3/2) threshold of tensor unfolding is a classical result of prior work on tensor PCA (Montanari "
        "and Richard 2014), not the paper's; on the sphere the Hermite-3 unfolding makes the same projection up to "
        "O(1/d^2) and so has the same rate, so the window cannot single out the paper's ingredient (the rate of the "
        "unfolding without any trace removal is not established here), and over a factor 2 in d with "
        "medians of three runs the slope scatters by more than the window (degree-1 control shown beside)",
    tol=SLOPE)
claims.illustrate(
    "sgd-short-at-20",
    statement=f"Online SGD after m = 20 d^1.5 samples: maximum over d in {list(P.sgd_dims)} of the median "
              f"overlap ({P.sgd_runs} runs)",
    paper="online SGD is runtime-optimal but needs more samples than unfolding (summary; Gaussian: d^(k*-1))",
    criterion=at_most(0.5), measured=max(med(sgd_at(d, 3, round(C_CLAIM * d**1.5 / SGD_BATCH) * SGD_BATCH))
                                         for d in P.sgd_dims),
    why="an 'at most 0.5' criterion that any estimator left near its random start passes; online SGD's need of "
        "about d^(l-1) samples for information exponent 3 is a result of prior work (Ben Arous, Gheissari and "
        "Jagannath 2021)", tol=OVL)
claims.illustrate(
    "sgd-recovers-400d2",
    statement=f"Online SGD after m = 400 d^2 samples: minimum over d in {list(P.sgd_dims)} of the median "
              f"overlap ({P.sgd_runs} runs)",
    paper="online SGD recovers w* with more samples, about d^(l-1) (summary)",
    criterion=at_least(0.8), measured=min(med(sgd_at(d, 3, SGD_BUDGET * d**2)) for d in P.sgd_dims),
    why="a result of prior work (online SGD with d^(l-1) samples, Ben Arous et al. 2021), with the budget 400 d^2 "
        "and the step chosen on a prototype so that it succeeds; the unfolding reaches the same overlap with far "
        "fewer samples, so the criterion is not specific to SGD", tol=OVL)

# glue: every number the prose quotes
for key, tab, n, c, f in (
        ("sph_unf", sphere, "unfolding (degree 3)", C_CLAIM, mins), ("sph_raw", sphere, COMP[0], C_CLAIM, mins),
        ("sph_herm", sphere, COMP[1], C_CLAIM, mins), ("sph_sgd", sphere, COMP[2], C_CLAIM, mins),
        ("sph_sgd_max", sphere, COMP[2], C_CLAIM, maxs),
        ("sph_spec2", sphere, "spectral degree 2", C_CLAIM, mins), ("sph_deg1_max", sphere, "spectral degree 1",
                                                                    C_CLAIM, maxs),
        ("sph_deg2_max", sphere, "spectral degree 2", C_CLAIM, maxs),
        ("gau_unf", gauss, "unfolding (degree 3)", C_CLAIM, mins), ("gau_raw", gauss, COMP[0], C_CLAIM, mins),
        ("gau_herm", gauss, COMP[1], C_CLAIM, mins), ("gau_sgd", gauss, COMP[2], C_CLAIM, mins),
        ("gau_spec2", gauss, "spectral degree 2", C_CLAIM, mins),
        ("gau_unf80", gauss, "unfolding (degree 3)", C_HIGH, mins),
        ("rad80", gauss, "radial degree 1", C_HIGH, mins), ("rad80_deg1", gauss, "spectral degree 1", C_HIGH, mins),
        ("rad80_sgd", gauss, "online SGD, same samples", C_HIGH, mins),
        ("rad80_herm", gauss, "Hermite-3 unfolding of raw x", C_HIGH, mins),
        ("rad80_spec2", gauss, "spectral degree 2", C_HIGH, mins),
        ("sph_off", sphere, COMP[3], C_CLAIM, mins), ("sph_gd", sphere, COMP[4], C_CLAIM, mins),
        ("gau_off", gauss, COMP[3], C_CLAIM, mins), ("gau_gd", gauss, COMP[4], C_CLAIM, mins),
        ("rad80_rawx", gauss, "degree 1 on raw x", C_HIGH, mins),
        ("rad80_unc", gauss, "uncentred radial weight", C_HIGH, mins),
        ("stu_unf", student, "unfolding (degree 3)", C_CLAIM, mins),
        ("stu_herm", student, "Hermite-3 unfolding of raw x", C_CLAIM, mins),
        ("stu_herm_max", student, "Hermite-3 unfolding of raw x", C_CLAIM, maxs),
        ("stu_raw", student, COMP[0], C_CLAIM, mins), ("stu_off", student, COMP[3], C_CLAIM, mins),
        ("stu_gd", student, COMP[4], C_CLAIM, mins)):
    glue(key, f(tab, n, c), display=False)
glue("gau_unf_dmax", med(gauss[max(P.dims), C_CLAIM]["unfolding (degree 3)"]), display=False)
glue("gau_unf_dmid", med(gauss[sorted(P.dims)[1], C_CLAIM]["unfolding (degree 3)"]), display=False)
glue("dmid", int(sorted(P.dims)[1]), display=False)
glue("t_nu", int(T_NU), display=False)
glue("gau_herm_dmax", med(gauss[max(P.dims), C_CLAIM]["Hermite-3 unfolding of raw x"]), display=False)
glue("chance_lo", float(np.sqrt(2 / (np.pi * max(P.dims)))), display=False)
glue("chance_hi", float(np.sqrt(2 / (np.pi * min(P.dims)))), display=False)
glue("rad_sphere80_max", max(med(radial_sphere[d, C_HIGH]) for d in P.dims), display=False)
glue("slope3", slopes["degree 3, unfolding"], display=False)
glue("slope1", slopes["degree 1 link, degree-1 estimator"], display=False)
glue("sgd20_max", max(med(sgd_at(d, 3, round(C_CLAIM * d**1.5 / SGD_BATCH) * SGD_BATCH)) for d in P.sgd_dims),
     display=False)
glue("sgd400_min", min(med(sgd_at(d, 3, SGD_BUDGET * d**2)) for d in P.sgd_dims), display=False)
glue("sgd400_deg1_max", max(med(sgd_at(d, 1, SGD_BUDGET * d**2)) for d in P.sgd_dims), display=False)
glue("dmin", int(min(P.dims)), display=False)
glue("dmax", int(max(P.dims)), display=False)

# %% [markdown]
# ### The counted tests beside their comparators
#
# Each panel is one counted test at this seed: the worst median overlap over $d$ of the paper's estimator, of
# its ablation and of the naive baselines, all on the same samples, with the criterion's threshold (dashed)
# and its tolerance band (grey).

# %%
TESTS = {
    "unfolding-sphere-20": (sphere, C_CLAIM, 0.85, ["unfolding (degree 3)", COMP[0], COMP[1], COMP[2],
                                                    "spectral degree 2", COMP[3], COMP[4]]),
    "unfolding-gaussian-20": (gauss, C_CLAIM, 0.85, ["unfolding (degree 3)", COMP[0], COMP[1], COMP[2],
                                                     "spectral degree 2", COMP[3], COMP[4]]),
    "radius-signal-gaussian-80": (gauss, C_HIGH, 0.5, ["radial degree 1", "spectral degree 1",
                                                       "online SGD, same samples", COMP[1], "spectral degree 2",
                                                       "degree 1 on raw x", "uncentred radial weight"]),
    "unfolding-student-t-20": (student, C_CLAIM, 0.85, ["unfolding (degree 3)", COMP[1], COMP[0], COMP[3], COMP[4]]),
}
SHORT = {"unfolding (degree 3)": "harmonic unfolding", COMP[0]: "no harmonic projection",
         COMP[1]: "Hermite-3 unfolding", COMP[2]: "online SGD", "spectral degree 2": "degree-2 spectral",
         "radial degree 1": "radial degree 1", "spectral degree 1": "plain degree 1",
         COMP[3]: "repeated indices zeroed", COMP[4]: "multi-restart GD", "degree 1 on raw x": "degree 1 on raw x",
         "uncentred radial weight": "uncentred radial"}
fig, axes = plt.subplots(2, 2, figsize=(11, 6.4), sharex=True, layout="constrained")
axes = axes.ravel()
for ax, (tid, (tab, c, thr, names)) in zip(axes, TESTS.items()):
    vals = [mins(tab, n, c) for n in names]
    cols = ["C0", "C3"] + ["0.55"] * (len(names) - 2)
    ax.barh(np.arange(len(names))[::-1], vals, color=cols)
    ax.axvspan(thr - OVL.abs, thr + OVL.abs, color="0.85", zorder=0)
    ax.axvline(thr, color="k", ls="--", lw=0.8)
    ax.set(yticks=np.arange(len(names))[::-1], yticklabels=[SHORT[n] for n in names], xlim=(0, 1),
           title=f"{tid}\n(m = {c:g} d^1.5)", xlabel="worst median overlap over d")
    ax.title.set_fontsize(9)
plt.show()

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
# Four tests are counted; two are pre-registered (`unfolding-sphere-20`, `unfolding-gaussian-20`: only their
# comparators are new) and two are post hoc (`radius-signal-gaussian-80`, `unfolding-student-t-20`). The other five
# checks of the first version are now illustrations (see "The experiment"). Values are from seed 0 at ci scale
# ($d$ from {glue:text}`dmin` to {glue:text}`dmax`, medians of three repetitions); the judged table gives the
# other seeds.
#
# * *Unfolding on the sphere* ({repro-status}`unfolding-sphere-20`). At $m=20\,d^{3/2}$ the harmonic unfolding
#   reaches a worst-case median overlap of {glue:text}`sph_unf:.2f`. Without the harmonic projection the same
#   unfolding of the raw third moment reaches only {glue:text}`sph_raw:.2f`, and zeroing its repeated-index
#   entries instead of projecting reaches {glue:text}`sph_off:.2f`: removing the trace part matters, because the
#   raw moment carries the noise of the degree-1 statistic spread over $d^2$ columns (our reading). One pass of
#   online SGD over the same samples reaches {glue:text}`sph_sgd:.2f` in the worst dimension and
#   {glue:text}`sph_sgd_max:.2f` in its best; multi-restart gradient ascent on the same samples
#   {glue:text}`sph_gd:.2f`; the degree-2 spectral estimator {glue:text}`sph_spec2:.2f`. But the classical
#   Gaussian recipe, the unfolded Hermite-3 tensor of the raw inputs, reaches {glue:text}`sph_herm:.2f`: on the
#   sphere $He_3(x)$ is $d^{3/2}$ times the harmonic tensor with a trace weight of $1/d$ instead of $1/(d+2)$, so
#   it makes the same projection up to a term of order $d^{-2}$. What the sample budget needs is a trace-free
#   degree-3 statistic, which the Hermite view already supplies here; the spherical-harmonic basis is not needed
#   to get it on the fixed-radius sphere. The test cannot separate the two views and measures one constant
#   ($c=20$), not a rate. The criterion is also tight for the method itself: at $c=20$ the brief's threshold sits so close to the
#   method's typical overlap that, with the declared tolerance band, the method is at the edge at some seeds
#   whatever the baselines do. Over the ci sweep the method passes
#   at {repro-seeds}`unfolding-sphere-20:method:pass` seeds and is at the edge at
#   {repro-seeds}`unfolding-sphere-20:method:edge`; the Hermite-3 unfolding passes at
#   {repro-seeds}`unfolding-sphere-20:baseline1:pass`, the ablation at
#   {repro-seeds}`unfolding-sphere-20:ablation:pass`.
# * *Unfolding with Gaussian inputs* ({repro-status}`unfolding-gaussian-20`). The harmonic unfolding on the
#   directions fails the brief's threshold at every dimension at this seed, not only the smallest: its median
#   overlap is {glue:text}`gau_unf:.2f` at the worst, {glue:text}`gau_unf_dmid:.2f` at $d=${glue:text}`dmid` and
#   {glue:text}`gau_unf_dmax:.2f` at $d=${glue:text}`dmax`. The Hermite-3 unfolding of the raw inputs, which keeps
#   the radius, reaches {glue:text}`gau_herm:.2f` in the worst case and {glue:text}`gau_herm_dmax:.2f` at the
#   largest; the raw-moment ablation {glue:text}`gau_raw:.2f`, the repeated-index-zeroed moment
#   {glue:text}`gau_off:.2f`, multi-restart gradient ascent {glue:text}`gau_gd:.2f`, online SGD on the directions
#   {glue:text}`gau_sgd:.2f`, degree-2 spectral {glue:text}`gau_spec2:.2f`. At $m=80\,d^{3/2}$ the harmonic
#   unfolding reaches {glue:text}`gau_unf80:.2f`, so under Gaussian inputs our estimator needs a larger constant
#   than the brief's. The threshold is the brief's sphere number carried over by us, and the estimator throws
#   away the radius: this is a failure of our design at this budget, not evidence against the paper. Over the
#   sweep the method passes at {repro-seeds}`unfolding-gaussian-20:method:pass` seeds and the Hermite-3
#   unfolding at {repro-seeds}`unfolding-gaussian-20:baseline1:pass`.
# * *The radius carries a degree-1 signal* ({repro-status}`radius-signal-gaussian-80`, post hoc). On Gaussian
#   data the radially weighted degree-1 statistic reaches {glue:text}`rad80:.2f` at $m=80\,d^{3/2}$, where the
#   plain degree-1 statistic on the directions (its ablation) stays at {glue:text}`rad80_deg1:.2f`, on the raw
#   inputs at {glue:text}`rad80_rawx:.2f`, the uncentred radial weight at {glue:text}`rad80_unc:.2f`, and online
#   SGD over the same samples, at the same linear cost, at {glue:text}`rad80_sgd:.2f`; on the sphere (wrong input,
#   constant radius) it reaches at most {glue:text}`rad_sphere80_max:.2f`. So a label with no first Hermite
#   coefficient does have a degree-1 component carried by the radius, which a linear-time statistic reads. The
#   criterion counts overlap only, though, and the Hermite-3 unfolding reaches {glue:text}`rad80_herm:.2f` on the
#   same data (the degree-2 spectral estimator {glue:text}`rad80_spec2:.2f`): at this sample size finding $w_*$
#   does not need the radius, and the radial statistic's only advantage is its cost, which the test does not
#   measure. Our radial statistic is also the partial trace of the Hermite-3 moment tensor, a device known from
#   tensor PCA. Over the sweep the method passes at {repro-seeds}`radius-signal-gaussian-80:method:pass` seeds,
#   the ablation at {repro-seeds}`radius-signal-gaussian-80:ablation:pass` and the Hermite-3 unfolding at
#   {repro-seeds}`radius-signal-gaussian-80:baseline2:pass`.
# * *A heavy-tailed spherical law* ({repro-status}`unfolding-student-t-20`, post hoc). With Student-$t$ inputs
#   ($\nu=${glue:text}`t_nu`) and a label that sees only the direction, the harmonic unfolding on the directions
#   reaches {glue:text}`stu_unf:.2f`, while the Hermite-3 unfolding of the raw inputs (the ablation) falls to
#   {glue:text}`stu_herm:.2f` (at most {glue:text}`stu_herm_max:.2f` over $d$): the radius, which the Hermite tensor
#   keeps, is heavy-tailed noise here. The raw-moment unfolding reaches {glue:text}`stu_raw:.2f`, the
#   repeated-index-zeroed moment {glue:text}`stu_off:.2f`, multi-restart gradient ascent {glue:text}`stu_gd:.2f`.
#   This is the only setting on the page where the harmonic and Hermite views part, and the only test mapped to
#   the first headline. Its ingredient is "work on the directions and remove the trace": normalising $x$ first and
#   then using Hermite-3 is the same estimator up to $O(d^{-2})$. The setting was suggested by the independent
#   reviewer after they had seen the Hermite-3 estimator fail there, so it counts only once held-out seeds 10-19
#   confirm it. Because the directions have the sphere's law, the method's own margin is that of
#   `unfolding-sphere-20`, tight at $c=20$. Over the ci sweep the method passes at
#   {repro-seeds}`unfolding-student-t-20:method:pass` seeds and the Hermite-3 unfolding at
#   {repro-seeds}`unfolding-student-t-20:ablation:pass`.
#
# The illustrations show the rest of the picture, uncounted. The degree-1 and degree-2 estimators stay at
# chance on the sphere (at most {glue:text}`sph_deg1_max:.2f` and {glue:text}`sph_deg2_max:.2f`, against chance
# levels from {glue:text}`chance_lo:.2f` to {glue:text}`chance_hi:.2f`), as our label design forces. The threshold's
# log-log slope is {glue:text}`slope3:.2f` for the unfolding and {glue:text}`slope1:.2f` for the degree-1 control:
# over $d$ from {glue:text}`dmin` to {glue:text}`dmax` with medians of three runs, ci scale cannot measure a
# slope; full scale (dimensions up to 48, five repetitions) is where it can be read. Online SGD after
# $20\,d^{3/2}$ samples reaches at most {glue:text}`sgd20_max:.2f` and reaches {glue:text}`sgd400_min:.2f` after
# $400\,d^2$, with fewer floating-point operations than the unfolding (printed above); the same SGD with a degree-1
# loss stays at {glue:text}`sgd400_deg1_max:.2f`.
#
# No official code was found, and the paper's theorems were not available to us: these are numerical
# stand-ins, designed from the brief, for statements the paper proves.
#
# ## What a skeptic would try
#
# The naive alternatives, measured by this notebook on the same samples and under the same criteria (seed 0, ci;
# the counts over seeds come from the ci sweep):
#
# * *The Gaussian recipe on spherical data.* If spherical harmonics are the right basis, the Hermite-3 tensor
#   should be the wrong one on the sphere. It is not, in our range: unfolding $He_3(x)$ gives
#   {glue:text}`sph_herm:.2f` against the harmonic unfolding's {glue:text}`sph_unf:.2f` at $m=20\,d^{3/2}$, and it
#   passes at {repro-seeds}`unfolding-sphere-20:baseline1:pass` seeds of the sweep. The two tensors differ only in
#   the trace weight ($1/d$ against $1/(d+2)$), and both remove the trace part.
# * *Drop the projection, or drop the diagonals.* The raw third moment of the directions, unfolded the same way,
#   gets {glue:text}`sph_raw:.2f` on the sphere and {glue:text}`gau_raw:.2f` on Gaussian directions; zeroing its
#   repeated-index entries gets {glue:text}`sph_off:.2f` and {glue:text}`gau_off:.2f` (it passes on the sphere at
#   {repro-seeds}`unfolding-sphere-20:baseline4:pass` seeds). The trace removal, which both harmonic and Hermite
#   tensors perform, is what the sample count needs.
# * *Gradient ascent, one pass or many.* One pass of online SGD with the page's long-run step sits near chance
#   (sphere {glue:text}`sph_sgd:.2f` in the worst dimension, Gaussian {glue:text}`gau_sgd:.2f`, and
#   {glue:text}`rad80_sgd:.2f` over $80\,d^{3/2}$ Gaussian samples): the information-exponent-3 plateau of prior
#   work, so it is a weak comparator. The stronger version, 150 full passes from each of 10 random starts keeping
#   the best objective, gets {glue:text}`sph_gd:.2f` (sphere) and {glue:text}`gau_gd:.2f` (Gaussian) and passes
#   on the sphere at {repro-seeds}`unfolding-sphere-20:baseline5:pass` seeds.
# * *A spectral method on the raw labels.* The degree-2 estimator gets {glue:text}`sph_spec2:.2f` (sphere) and
#   {glue:text}`gau_spec2:.2f` (Gaussian) at $20\,d^{3/2}$, at chance by our label design (a weak comparator):
#   binary labels leave no transformation that exposes a degree-2 part. With real-valued labels it would not be
#   so (the brief's prototype found the degree-2 estimator well above chance through $y^2$).
# * *The radius test without the radius.* Degree 1 on the raw inputs gets {glue:text}`rad80_rawx:.2f`, the
#   uncentred weight $y\|x\|^2x$ {glue:text}`rad80_unc:.2f`; but the Hermite-3 unfolding and the harmonic unfolding
#   both find $w_*$ at $80\,d^{3/2}$ (the Hermite-3 unfolding at {glue:text}`rad80_herm:.2f`, passing at
#   {repro-seeds}`radius-signal-gaussian-80:baseline2:pass` seeds), so that test is not specific.
# * *A spherical law where the views part.* The reviewer found that with a heavy-tailed radius the Hermite-3
#   unfolding fails while the harmonic one does not; that is now the post-hoc test `unfolding-student-t-20`
#   (Hermite-3 at {glue:text}`stu_herm:.2f` against {glue:text}`stu_unf:.2f` here, $\nu=${glue:text}`t_nu`, not the
#   reviewer's values of $\nu$), to be confirmed on seeds 10-19.
# * *Not tried:* kernel ridge regression (a degree-3 polynomial kernel needs $d^3$ samples, well above every
#   budget here) and label transformations beyond the affine ones that binary labels allow.
#
# Reviewed by an independent skeptic (a helper that did not write the page, with the rubric, the page, its record
# and the ci settings over seeds 0-9, on their own random streams); what they tried is above: the repeated-index-zeroed
# moment, multi-restart gradient ascent, degree 1 on the raw inputs, the uncentred radial weight and the
# heavy-tailed spherical law are their suggestions, now run by this notebook.
#
# ## What the miniature cannot show
#
# * The paper's theorems: lower bounds (that no estimator does better than $d^{\ell/2}$, or that no
#   estimator is both sample- and runtime-optimal) cannot be checked by running estimators; we show upper
#   bound behaviour of two estimators at $d\le48$.
# * The $d^{\ell/2}$ rate as a counted claim: the counted tests check one sample constant ($c=20$); the slope is an
#   illustration, and at ci scale it is not measurable.
# * Harmonic degrees other than 3, label transformations $T(y)$ with real-valued labels (which can lower
#   the effective degree, the generative exponent), and spherical laws other than the fixed-radius sphere,
#   the Gaussian and one Student-$t$ law.
# * Logarithmic factors and constants: a slope over a factor 2 (ci) or 4 (full) in $d$ cannot tell
#   $d^{3/2}$ from $d^{3/2}\log d$.
# * The paper's own SGD (its loss, step schedule, and any warm start) and its runtime-optimality claim,
#   which needs a runtime measured in a model of computation, not our flop counts.
# * A gap between the harmonic and the Hermite views on the sphere: with a fixed radius the two degree-3
#   tensors' trace weights differ by $2/(d(d+2))$, too little to separate them at our sizes; the views part only
#   with a random radius, which we run for the Gaussian (where the Hermite tensor is the better one) and one
#   Student-$t$ law (post hoc).
# * Cost: the counted criteria measure overlap at a sample count, not runtime, so the radial statistic's and
#   online SGD's advantage in arithmetic is shown (printed flop counts) but not tested.
