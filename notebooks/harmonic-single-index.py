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
# *When the inputs are spherically symmetric, how many samples it takes to find the hidden direction
# is set by the lowest spherical-harmonic degree of the label, not by its Hermite expansion: a degree-3
# label needs about $d^{3/2}$ samples with tensor unfolding, and more with online SGD.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import numpy as np

from repro.claims import Claims, at_least, at_most, between, tolerance
from repro.papers import harmonic_single_index as K
from repro.runtime import progress, setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    # about 6 s of CPU on one thread (measured): three dimensions, 3 repetitions per point, 5 SGD runs
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
# **Claims, fixed before the page first ran** (thresholds from the brief; each with its control):
#
# 1. *Unfolding succeeds at $m=20\,d^{3/2}$ on the sphere:* the median overlap is $\ge0.85$ at every $d$
#    (the minimum over $d$ of the medians). Control: the degree-2 spectral estimator on the same data.
# 2. *Low degrees are blind:* at the same $m$, the median overlaps of the degree-1 and degree-2 estimators
#    are $\le0.5$ at every $d$ (2a, 2b). Control: the unfolding estimator.
# 3. *The threshold scales like $d^{3/2}$:* the log-log slope of $m^*(d)$ against $d$ is in $[1.25,1.75]$,
#    closer to $3/2$ than to 1 or 2 (the brief's "like $d^{3/2}$, not $d^2$", made a slope). Control: the
#    slope for the degree-1 link and estimator.
# 4. *Gaussian inputs, Hermite-3 link:* the unfolding's median overlap at $m=20\,d^{3/2}$ is $\ge0.85$ at
#    every $d$ (the issue asks for both input laws; the brief's threshold). Control: degree-2 estimator.
# 5. *Online SGD needs more samples:* at $m=20\,d^{3/2}$ the median overlap of online SGD is $\le0.5$
#    at every $d$ of the SGD runs (5a; control: unfolding on the same samples), while after $400\,d^2$
#    samples it is $\ge0.8$ (5b; control: the same SGD with a degree-1 loss, which has no signal to follow).
#
# **Added after a prototype run (†).** 6. *The radius carries a degree-1 signal under Gaussian inputs:* at
# $m=80\,d^{3/2}$ the median overlap of the radially weighted degree-1 estimator is $\ge0.5$ at every $d$.
# Control: the same estimator on the sphere data, where the radius is constant.
#
# Before writing the claims we ran a prototype on seeds 777 and 778, which the page never uses: it fixed
# the SGD step ($0.3\cdot16/d^{3/2}$, of 0.1 to 0.3 tried) and budget ($400\,d^2$, of 50 to 400 tried), and it is
# where we first saw the radial estimator's overlaps (0.44 to 0.52 at $c=20$, 0.69 to 0.75 at $c=80$,
# $d\le32$), from which claim 6's criterion was chosen: it is therefore flagged post hoc. The same
# prototype showed unfolding overlaps of 0.73 to 0.89 on Gaussian inputs at $c=20$; claim 4 keeps the
# brief's threshold of 0.85 all the same.
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


ESTIMATORS = {
    "unfolding (degree 3)": K.unfolding_estimator,
    "spectral degree 1": lambda X, y: K.spectral_estimator(X, y, 1),
    "spectral degree 2": lambda X, y: K.spectral_estimator(X, y, 2),
    "radial degree 1": K.radial_degree1_estimator,
}


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
sphere = {(d, c): overlaps_at(c, d, "sphere", "gegenbauer3", SPH, P.rng)
          for d in progress(P.dims, desc="sphere") for c in C_GRID}
deg1_link = {(d, c): overlaps_at(c, d, "sphere", "gegenbauer1", ("spectral degree 1",), P.rng)["spectral degree 1"]
             for d in P.dims for c in C_GRID}
med = lambda a: float(np.median(a))  # noqa: E731
for d in P.dims:
    print(f"d = {d:2d}, m = 20 d^1.5 = {int(round(C_CLAIM * d**1.5)):5d}: median overlaps "
          + ", ".join(f"{n} {med(sphere[d, C_CLAIM][n]):.2f}" for n in SPH)
          + f"; chance {np.sqrt(2 / (np.pi * d)):.2f}")

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
# The sample size $m^*(d)$ at which the median overlap first reaches 0.8, against $d$ on log-log axes,
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
gauss = {(d, c): overlaps_at(c, d, "gaussian", "hermite3", GAU, P.rng) for d in progress(P.dims, desc="gaussian")
         for c in (C_CLAIM, C_HIGH)}
radial_sphere = {(d, c): overlaps_at(c, d, "sphere", "gegenbauer3", ("radial degree 1",), P.rng)["radial degree 1"]
                 for d in P.dims for c in (C_CLAIM, C_HIGH)}
for c in (C_CLAIM, C_HIGH):
    for d in P.dims:
        print(f"Gaussian, d = {d:2d}, c = {c:g}: " + ", ".join(f"{n} {med(gauss[d, c][n]):.2f}" for n in GAU)
              + f" | sphere, radial degree 1 {med(radial_sphere[d, c]):.2f}")

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
# ### The paper's numbers
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
sph_min = min(med(sphere[d, C_CLAIM]["unfolding (degree 3)"]) for d in P.dims)
sph_deg2 = min(med(sphere[d, C_CLAIM]["spectral degree 2"]) for d in P.dims)
claims.check("unfolding-sphere-20",
             statement=f"On the sphere, harmonic tensor unfolding at m = 20 d^1.5: minimum over d in {list(P.dims)} "
                       f"of the median overlap ({P.reps} repetitions)",
             paper="degree-l harmonic unfolding is sample-optimal, about d^(l/2) samples (summary); brief's prototype "
                   "0.87-0.95 at 20 d^1.5",
             criterion=at_least(0.85), measured=sph_min, control=sph_deg2,
             control_label="degree-2 spectral estimator on the same data (wrong harmonic degree)", kind="theorem", tol=OVL)
for deg, n in ((1, "spectral degree 1"), (2, "spectral degree 2")):
    claims.check(f"degree{deg}-blind-sphere-20",
                 statement=f"On the sphere at m = 20 d^1.5, the degree-{deg} spectral estimator: maximum over d of the "
                           "median overlap",
                 paper="a degree-3 label has no degree-1 or degree-2 harmonic part, so low-degree estimators fail "
                       "(brief: <= 0.5)",
                 criterion=at_most(0.5), measured=max(med(sphere[d, C_CLAIM][n]) for d in P.dims),
                 control=max(med(sphere[d, C_CLAIM]["unfolding (degree 3)"]) for d in P.dims),
                 control_label="harmonic tensor unfolding (degree 3) on the same data", kind="theorem", tol=OVL)
claims.check("threshold-slope-3-2",
             statement=f"Log-log slope in d of the samples m*(d) for median unfolding overlap 0.8 (d in {list(P.dims)})",
             paper="sample complexity d^(l/2) = d^1.5 for harmonic degree 3 (summary); brief: like d^1.5, not d^2",
             criterion=between(1.25, 1.75), measured=slopes["degree 3, unfolding"],
             control=slopes["degree 1 link, degree-1 estimator"],
             control_label="the same slope for a degree-1 link and the degree-1 estimator (theory: d)",
             kind="theorem", tol=SLOPE)
claims.check("unfolding-gaussian-20",
             statement="Gaussian inputs, Hermite-3 link: unfolding on the directions at m = 20 d^1.5, minimum over d "
                       "of the median overlap",
             paper="for Gaussian inputs the theory recovers d^(k*/2) with k* = 3 (summary)",
             criterion=at_least(0.85),
             measured=min(med(gauss[d, C_CLAIM]["unfolding (degree 3)"]) for d in P.dims),
             control=min(med(gauss[d, C_CLAIM]["spectral degree 2"]) for d in P.dims),
             control_label="degree-2 spectral estimator on the same Gaussian data", kind="theorem", tol=OVL)
sgd20 = max(med(sgd_at(d, 3, round(C_CLAIM * d**1.5 / SGD_BATCH) * SGD_BATCH)) for d in P.sgd_dims)
claims.check("sgd-short-at-20",
             statement=f"Online SGD after m = 20 d^1.5 samples: maximum over d in {list(P.sgd_dims)} of the median "
                       f"overlap ({P.sgd_runs} runs)",
             paper="online SGD is runtime-optimal but needs more samples than unfolding (summary; Gaussian: d^(k*-1))",
             criterion=at_most(0.5), measured=sgd20,
             control=max(med(sphere[d, C_CLAIM]["unfolding (degree 3)"]) for d in P.sgd_dims),
             control_label="harmonic tensor unfolding at the same sample size", kind="theorem", tol=OVL)
claims.check("sgd-recovers-400d2",
             statement=f"Online SGD after m = 400 d^2 samples: minimum over d in {list(P.sgd_dims)} of the median "
                       f"overlap ({P.sgd_runs} runs)",
             paper="online SGD recovers w* with more samples, about d^(l-1) (summary)",
             criterion=at_least(0.8), measured=min(med(sgd_at(d, 3, SGD_BUDGET * d**2)) for d in P.sgd_dims),
             control=min(med(sgd_at(d, 1, SGD_BUDGET * d**2)) for d in P.sgd_dims),
             control_label="the same SGD with a degree-1 loss (no degree-1 signal to follow)", kind="theorem", tol=OVL)
claims.check("radius-signal-gaussian-80",
             statement="Gaussian inputs, Hermite-3 link: radially weighted degree-1 estimator at m = 80 d^1.5, minimum "
                       "over d of the median overlap",
             paper="for Gaussian inputs the radial component carries information (summary; no numbers)",
             criterion=at_least(0.5), measured=min(med(gauss[d, C_HIGH]["radial degree 1"]) for d in P.dims),
             control=min(med(radial_sphere[d, C_HIGH]) for d in P.dims),
             control_label="the same estimator on sphere inputs (constant radius)", tol=OVL,
             post_hoc="criterion chosen after a prototype at seeds 777-778 showed overlaps 0.69-0.75 at 80 d^1.5")

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Partly reproduced.** The claims table above is one draw: ci scale, seed 0 ($d\in\{12,16,24\}$,
# medians of 3 repetitions, 5 SGD runs), where 6 of the 8 claims hold. The table "Across seeds and
# scales" gives each claim's pass rate over ci seeds 0-9 and its status at full scale (seeds 0-2,
# $d$ up to 48, 5 repetitions); the text below follows it.
#
# * *Low degrees are blind on the sphere* (claims 2a, 2b; every seed). At $m=20\,d^{3/2}$ the degree-1
#   and degree-2 estimators stay near chance (at most 0.41 and 0.32 at seed 0, against chance levels of
#   0.16 to 0.23): the label has no harmonic part of degree 1 or 2, so only a degree-3 statistic sees $w_*$.
# * *Unfolding at $m=20\,d^{3/2}$ on the sphere* (claim 1) is **seed-sensitive**: it holds at 7 of 10 ci
#   seeds (minimum over $d$ of the median overlap 0.89 at seed 0, from 0.68 to 0.90 over seeds). The
#   brief's threshold 0.85 sits at the edge of what $20\,d^{3/2}$ samples give: the curves of the first
#   figure cross 0.85 between $c=14$ and $c=28$, and a median of three runs at the smallest $d$ can fall
#   below. The brief's prototype range, 0.87 to 0.95, shows the same margin. At full scale (five
#   repetitions) it holds at all three seeds.
# * *The $d^{3/2}$ scaling* (claim 3) is **not reproduced at ci scale** and seed-sensitive there: the slope
#   holds at 1 of 10 seeds (1.03 at seed 0, from 1.0 to 3.1 over seeds) and the degree-1 control also lands
#   in the window at some seeds. Over a factor 2 in $d$, with thresholds interpolated from medians of three
#   runs, a 20% error in one threshold moves the slope by about 0.3, so ci scale cannot measure it. The
#   claim is therefore **scale-sensitive**: at full scale (five dimensions from 12 to 48, five repetitions)
#   it holds at all three seeds, with slopes close to $3/2$ (robustness table). At one full-scale seed
#   the degree-1 control's slope also falls inside the window, so that draw is uninformative: the
#   window $[1.25,1.75]$ separates $d^{3/2}$ from $d$ only when the control's threshold is measured well,
#   and over $d\le48$ its own slope scatters by a few tenths around its theoretical value of 1.
# * *Gaussian inputs, Hermite-3 link* (claim 4) is **not reproduced**: it fails the brief's 0.85 at every
#   ci seed (median over seeds 0.45) and at all three full-scale seeds (see the table). The failure comes
#   from the smallest dimensions ($d=12$: 0.28 at seed 0) and from a larger constant: at seed 0 and
#   $d\ge16$ the overlaps at $20\,d^{3/2}$ are 0.80 and 0.83, and at $80\,d^{3/2}$ they are 0.97 to 0.98 at every $d$. With a
#   random radius the Hermite-3 label puts part of its variance into components that mix degree and
#   radius, so its degree-3 harmonic part, which the unfolding reads, is weaker than on the sphere at the
#   same $\gamma$: the same $d^{3/2}$ scale with a larger constant (our reading, not measured as a slope).
# * *Online SGD needs more samples than unfolding* (claims 5a, 5b). After $20\,d^{3/2}$ samples its
#   median overlap is still near its random start at every seed (at most 0.35), and after $400\,d^2$
#   samples it reaches at least 0.8 at 9 of 10 ci seeds (seed-sensitive: the runs that start with a
#   negative overlap must first drift through zero, and one seed's median landed at 0.77). The same SGD on
#   a degree-1 loss stays at chance. In arithmetic it is the cheaper method (printed above: at $d=24$ it
#   needed tens of thousands of samples but a fraction of the unfolding's floating-point work).
# * *The radius carries a degree-1 signal under Gaussian inputs* (claim 6, post hoc; every ci seed): the
#   radially weighted degree-1 statistic reaches median overlaps of at least 0.69 at $m=80\,d^{3/2}$ on
#   Gaussian data, against at most 0.31 on the sphere at seed 0, where the radius is constant. A label of Hermite
#   degree 3 (no first Hermite coefficient) therefore has a degree-1 harmonic component, the kind of
#   phenomenon the paper says the Hermite view overlooks. At fixed $m/d^{3/2}$ its overlap falls with $d$
#   (third figure), as our estimate of a $d^2$ sample need says: cheap in runtime, not in samples.
#
# These are numerical stand-ins, designed from the brief, for statements the paper proves; no official
# code was found, and we compare with the theory's exponents and the brief's prototype, not with
# numbers of the paper.
#
# ## What the miniature cannot show
#
# * The paper's theorems: lower bounds (that no estimator does better than $d^{\ell/2}$, or that no
#   estimator is both sample- and runtime-optimal) cannot be checked by running estimators; we show upper
#   bound behaviour of two estimators at $d\le48$.
# * Harmonic degrees other than 3, label transformations $T(y)$ with real-valued labels (which can lower
#   the effective degree, the generative exponent), and spherical laws other than the fixed-radius sphere
#   and the Gaussian.
# * Logarithmic factors and constants: a slope over a factor 2 (ci) or 4 (full) in $d$ cannot tell
#   $d^{3/2}$ from $d^{3/2}\log d$.
# * The paper's own SGD (its loss, step schedule, and any warm start) and its runtime-optimality claim,
#   which needs a runtime measured in a model of computation, not our flop counts.
