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
# # Balancing gradient and Hessian queries in non-convex optimisation
#
# *A few Hessian queries, spent as preconditioners for accelerated gradient descent, give a bound on the
# gradient queries needed to reach an $\epsilon$-critical point that does not depend on the gradient's
# Lipschitz constant and shrinks as the Hessian budget $n_H$ grows; on an ill-conditioned problem that can mean
# fewer gradient queries than gradient descent or accelerated gradient descent.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import matplotlib.pyplot as plt
import matplotlib.ticker as mticker
import numpy as np
from sklearn.datasets import load_breast_cancer

from repro.claims import Claims, at_most, is_true, less_than, tolerance
from repro.papers import gradient_hessian_balancing as K
from repro.runtime import progress
from repro.runtime import setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    "ci": dict(d=100, n_starts=5, n_H=(1, 2, 4, 8), eps=(1e-2, 3e-3, 1e-3), max_grad=50_000),
    "full": dict(d=200, n_starts=9, n_H=(1, 2, 4, 8, 16, 32), eps=(1e-2, 3e-3, 1e-3, 3e-4, 1e-4),
                 max_grad=500_000),
})
claims = Claims("gradient-hessian-balancing",
                title="Balancing Gradient and Hessian Queries in Non-Convex Optimization",
                authors="Adil, Bullins, Sidford, Zhang (first names not confirmed)",
                paper_url="https://arxiv.org/abs/2510.20786", scale=scale, seed=seed)

# %% [markdown]
# ## The claim
#
# To find a point $x$ with $\|\nabla f(x)\| \le \epsilon$ for a non-convex $f$ whose Hessian is
# $L_2$-Lipschitz, started at a point that is $\Delta$ above the infimum, the paper gives a method that uses
# $n_H$ Hessian queries (any positive integer) and
#
# $$\tilde O\!\left(\Delta\, L_2^{1/4}\, n_H^{-1/2}\, \epsilon^{-9/4}\right)$$
#
# gradient queries. No bound on the gradient's Lipschitz constant $L_1$ appears, whereas gradient descent
# needs $O(L_1 \Delta \epsilon^{-2})$ gradients and the best accelerated methods
# $O(L_1^{1/2} L_2^{1/4} \Delta \epsilon^{-7/4})$. The paper's bound is worse in $\epsilon$ ($\epsilon^{-9/4}$
# against $\epsilon^{-7/4}$) but free of $L_1$, so it is the better bound when $L_1$ is large: on ill-conditioned
# problems a handful of Hessians can stand in for many gradients, and the bound shrinks like $n_H^{-1/2}$ as
# the Hessian budget grows. These are worst-case upper bounds with unstated constants and logarithmic factors
# (a later paper restates the bounded-dimension result with a $\ln^{18}(1/\epsilon)$ factor). The abstract
# also gives two consequences we do not test: $\tilde O(d^{1/3} L_2^{1/2}\Delta\epsilon^{-3/2})$ gradient
# queries in bounded dimension, and $\tilde O(L_2^{3/4}\Delta^{3/2}\epsilon^{-9/4})$ with a single Hessian. The
# paper is a theory paper; as far as we could find it reports no experiments, so its only numbers are these
# exponents. We set them beside our fitted exponents in one table below, and test the shape of the trade-off
# numerically.
#
# ## The method, in our words
#
# **Preconditioner from one Hessian.** Take a Hessian $H$ queried at an anchor $a$, with eigen-decomposition
# $H = \sum_j \lambda_j h_j h_j^\top$, and an accuracy level $\delta$. Build
#
# $$\mathbf{bH} = \sum_j \phi(\lambda_j)\, h_j h_j^\top, \qquad \phi(\lambda) = c\,\delta + |\lambda| .$$
#
# Because the Hessian is $L_2$-Lipschitz, $\|\nabla^2 f(x) - H\| \le L_2 \|x - a\|$; on the ball
# $\|x-a\| \le \delta/L_2$ this is at most $\delta$, and then (for $c \ge 1$)
# $-\mathbf{bH} \preceq \nabla^2 f(x) \preceq \mathbf{bH}$. In the coordinates $\hat x = \mathbf{bH}^{1/2} x$ the
# function $\hat f(\hat x) = f(\mathbf{bH}^{-1/2}\hat x)$ is 1-smooth, whatever $L_1$ is: large curvatures
# are divided out, and negative curvature of size $|\lambda| \gg \delta$ becomes curvature close to $-1$,
# which gradient steps escape quickly. The paper's $\phi$ (as reported by a third-party summary) has $c = 32$
# and extra logarithmic weights; we use $c = 1$, the smallest constant for which the sandwich above holds.
#
# **Critical-or-Progress (the paper's Algorithm 1).** Run Nesterov's accelerated gradient descent in that
# geometry, $y_k = x_k + m_k (x_k - x_{k-1})$, $x_{k+1} = y_k - \mathbf{bH}^{-1} \nabla f(y_k)$, momentum
# $m_k = k/(k+3)$ reset whenever $\langle \nabla f(y_k), x_{k+1}-x_k \rangle > 0$, until either
# $\|\nabla f(y_k)\| \le \epsilon$ (critical) or the iterate leaves the ball where $H$ is trusted (progress).
#
# **Spending $n_H$ Hessians.** We assume the iterates stay within distance $D$ of every point of the path
# (for the cubic test function, $D$ is the diameter of the sublevel set of the start) and set
# $\delta = L_2 D / n_H$: each Hessian is trusted on a ball of radius $D/n_H$. On each progress exit a fresh
# Hessian is queried at the exit point, while the budget lasts; after that the last Hessian is kept and
# $\delta$ and the radius are doubled. Fewer Hessians mean a larger $\delta$, a blunter preconditioner
# ($\hat f$'s small curvatures shrink like $\lambda / (\lambda + \delta)$) and more gradients; with
# $\delta \propto 1/n_H$ an accelerated method's count scales like $\sqrt{\delta} \propto n_H^{-1/2}$, the
# paper's exponent. When $L_1$ is known, $\delta$ is capped at $L_1$ (then $\mathbf{bH} \succeq L_1 I$ is
# still a valid sandwich), so the method is never much worse than gradient descent.
#
# **Counting.** Every method gets its oracles through a `CountingOracle`, which counts each gradient and
# Hessian call; the counts are deterministic and are the checked numbers. No method uses function values.

# %% [markdown]
# ## The experiment
#
# * **Problem (a), cubic test function:** $f(x) = \tfrac12 x^\top A x + \tfrac{L_2}{6}\|x\|^3$ with
#   $L_2 = 1$, $A = Q\,\mathrm{diag}(\lambda)\,Q^\top$ ($Q$ Haar-random) and the spectrum log-spaced in
#   $[-1, -0.01] \cup [0.01, 100]$: indefinite (a saddle at the origin) and ill-conditioned. Starts: random
#   directions at distance 3 from the origin. $L_1 = \lambda_{\max} + L_2 R$ on the sublevel-set ball of
#   radius $R$, and $D = 2R$.
# * **Problem (b), robust logistic regression** on scikit-learn's breast-cancer data (569 points, 30
#   standardised features): mean log-loss $+\ 0.1 \sum_i w_i^2/(1+w_i^2)$ (non-convex). $L_1$ and $L_2$ are
#   worst-case bounds computed from the data; $D = 10$ (assumed before the run). Starts $w_0 \sim N(0, I)$.
# * **Methods:** gradient descent (step $1/L_1$), accelerated gradient descent with restarts (step
#   $1/L_1$), the balanced method with Hessian budget $n_H$, and cubic-regularised Newton (one gradient and
#   one Hessian per step, $M = L_2$) as a reference point. All stop at the first gradient with
#   $\|\nabla f\| \le \epsilon$; no trajectory depends on $\epsilon$, so one run to the smallest $\epsilon$
#   gives the counts for every $\epsilon$.
# * **Claim checks (fixed before the run; medians over the starts, $\epsilon = 10^{-3}$):**
#   `C1` the balanced method's gradient count is non-increasing along $n_H = 1, 2, 4, 8$ on (a) (5 % slack);
#   `C2` with a single Hessian it needs at most half of gradient descent's gradients on (a);
#   `C2-agd` with a single Hessian it needs fewer gradients than accelerated gradient descent on (a) at every
#   $\epsilon$ we try; `C3` on (b) it needs at most twice gradient descent's gradients (no pathology);
#   `C4` no run uses more Hessians than its budget.
# * **Controls (added after the first run, one per check):** plain accelerated gradient descent, which
#   ignores the Hessian budget, for `C1`, `C2-beats-GD` and `C3` (if it passes too, the check cannot tell
#   the balanced method from a first-order one); gradient descent, which has neither acceleration nor
#   Hessians, for `C2-beats-AGD`. `C4` compares our code's Hessian counter with the budget that the same
#   code enforces: it cannot fail unless the code is wrong, so it is a check of our implementation (also a
#   unit test), not a claim.
#
# **Deviations from the paper**
#
# * The method is *inspired by* the paper's Algorithm 1 as described in its abstract and a third-party
#   summary; we could not read the full text, so the step size, momentum, ball radius and iteration caps are
#   ours, not the paper's. We use $c = 1$ and no logarithmic weights in $\phi$ (a run with $c = 32$ is shown
#   below as a sensitivity check).
# * The paper schedules Hessian queries through its analysis; we spread them by distance travelled with an
#   assumed path-diameter $D$, and cap $\delta$ at $L_1$ (the paper's headline bound uses no $L_1$).
# * Exact Hessians only; the paper also handles $\delta$-approximate ones.
# * Small problems ($d = 100$ at ci scale, 200 at full), a few starts, $\epsilon \ge 10^{-4}$; no test of
#   the $d^{1/3}$ bounded-dimension result and no third test problem (the brief's rotated double wells).
# * A fitted slope against $n_H$ or $\epsilon$ is reported, not checked: the paper gives upper bounds with
#   unspecified constants and large logarithmic factors.

# %%
eps_list = list(P.eps)
i_eps = eps_list.index(1e-3)
rng = P.rng

# problem (a)
L2 = 1.0
lam = np.concatenate([-np.logspace(0, -2, P.d // 2), np.logspace(-2, 2, P.d - P.d // 2)])
A = K.random_symmetric_matrix(lam, rng)
f_a, grad_a, hess_a = K.cubic_test_function(A, L2)
x0s = rng.standard_normal((P.n_starts, P.d))
x0s *= 3.0 / np.linalg.norm(x0s, axis=1, keepdims=True)
R = max(K.cubic_sublevel_radius(lam.min(), L2, f_a(x0)) for x0 in x0s)
L1_a, D_a = lam.max() + L2 * R, 2 * R


def methods_for(L1, L2, D, n_H_list, cubic=True):
    m = {"GD": lambda o, x0, e: K.gradient_descent(o, x0, L1, e, P.max_grad),
         "AGD": lambda o, x0, e: K.agd_nonconvex(o, x0, L1, e, P.max_grad)}
    if cubic:
        m["cubic Newton"] = lambda o, x0, e: K.cubic_newton(o, x0, L2, e, P.max_grad)
    for n in n_H_list:
        m[f"n_H={n}"] = (lambda n: lambda o, x0, e: K.balanced_search(o, x0, e, n, L2, D, P.max_grad, L1=L1))(n)
    return m


res_a = {}
for name, run in progress(methods_for(L1_a, L2, D_a, P.n_H).items(), desc="problem (a)"):
    res_a.update(K.query_counts(f_a, grad_a, hess_a, x0s, eps_list, {name: run}))
med_a = {k: np.median(v["grad"], axis=0) for k, v in res_a.items()}
print(f"(a) d={P.d}, L1={L1_a:.1f}, L2={L2}, D={D_a:.1f}; median gradient queries at eps=1e-3:")
print({k: int(v[i_eps]) for k, v in med_a.items()})
print("Hessian queries used (max over starts):", {k: int(v["hess"].max()) for k, v in res_a.items()})

# %%
X, y = load_breast_cancer(return_X_y=True)
X = (X - X.mean(0)) / X.std(0)
f_b, grad_b, hess_b = K.robust_logreg(X, y.astype(float), 0.1)
L1_b, L2_b = K.robust_logreg_constants(X, 0.1)
w0s = rng.standard_normal((P.n_starts, X.shape[1]))
res_b = K.query_counts(f_b, grad_b, hess_b, w0s, eps_list, methods_for(L1_b, L2_b, 10.0, P.n_H, cubic=False))
med_b = {k: np.median(v["grad"], axis=0) for k, v in res_b.items()}
print(f"(b) d={X.shape[1]}, L1={L1_b:.2f}, L2={L2_b:.1f}; median gradient queries at eps=1e-3:")
print({k: int(v[i_eps]) for k, v in med_b.items()})

# %% [markdown]
# ## Results
#
# The first figure is the trade-off itself: median gradient queries to reach $\epsilon = 10^{-3}$ against
# the Hessian budget, with the two first-order baselines as horizontal lines and cubic Newton (which spends
# one Hessian per gradient) as a single point at its own Hessian count. The small label at each point is the
# median number of Hessians the balanced method actually queried: often fewer than the budget, because our
# path-diameter bound $D$ is loose and the iterates rarely leave the trusted ball. What the budget buys is
# the right to use a smaller $\delta$, i.e. a sharper preconditioner.

# %%
nH = np.array(P.n_H)
fig, axes = plt.subplots(1, 2, figsize=(9, 4.2), layout="constrained")
for ax, med, res, title in ((axes[0], med_a, res_a, f"(a) cubic, d={P.d}"), (axes[1], med_b, res_b, "(b) robust logreg")):
    g = np.array([med[f"n_H={n}"][i_eps] for n in nH])
    ax.loglog(nH, g, "o-", label="balanced method (label: Hessians used)")
    for n, gi in zip(nH, g):
        ax.annotate(f"{np.median(res[f'n_H={n}']['hess']):g}", (n, gi), textcoords="offset points", xytext=(4, 4),
                    fontsize=8)
    ax.loglog(nH, g[0] * nH ** -0.5, ":", color="grey", label=r"$\propto n_H^{-1/2}$")
    ax.axhline(med["GD"][i_eps], color="C1", ls="--", label="gradient descent")
    ax.axhline(med["AGD"][i_eps], color="C2", ls="--", label="accelerated GD")
    if "cubic Newton" in med:
        ax.loglog(np.median(res["cubic Newton"]["hess"]), med["cubic Newton"][i_eps], "s", color="C3",
                  label="cubic Newton")
    ax.set(xlabel="Hessian queries (budget $n_H$)", ylabel=r"gradient queries to $\epsilon=10^{-3}$", title=title)
    ax.set_xticks(nH, labels=[str(n) for n in nH], minor=False)
    ax.xaxis.set_minor_locator(mticker.NullLocator())
fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=3)
plt.show()
slope_nH = loglog_slope(nH, [med_a[f"n_H={n}"][i_eps] for n in nH])
print(f"(a) fitted slope of gradient queries against n_H: {slope_nH:.2f} (paper's upper bound: -1/2)")

# %% [markdown]
# The second figure follows one start of problem (a): the gradient norm returned by each gradient query.
# Gradient descent crawls along the small-curvature directions; the preconditioned runs drop quickly once
# the negative-curvature directions have been escaped.

# %%
fig, ax = plt.subplots()
for name in ["GD", "AGD", f"n_H={nH[0]}", f"n_H={nH[-1]}", "cubic Newton"]:
    t = res_a[name]["trace"]
    ax.semilogy(np.arange(1, len(t) + 1), t, label=name if name.startswith(("G", "A", "c")) else f"balanced, {name}")
ax.axhline(min(eps_list), color="k", lw=0.8, ls=":")
ax.set(xscale="log", xlabel="gradient queries", ylabel=r"$\|\nabla f\|$ at the queried point",
       title="(a) one start")
ax.legend()
plt.show()

# %% [markdown]
# The third figure shows how the counts grow as $\epsilon$ shrinks on problem (a). The paper's bound for the
# balanced method grows like $\epsilon^{-9/4}$ in the worst case; on this instance, once the iterates are
# near a well-conditioned local minimum, the growth is only logarithmic for every accelerated or
# preconditioned method, so the fitted exponents (printed below) are much shallower. That is consistent with,
# not a test of, the worst-case bounds.

# %%
fig, ax = plt.subplots()
for name in ["GD", "AGD", f"n_H={nH[0]}", f"n_H={nH[-1]}", "cubic Newton"]:
    ax.loglog(eps_list, med_a[name], "o-", label=f"balanced, {name}" if name.startswith("n_H") else name)
ax.set(xlabel=r"target $\epsilon$", ylabel="median gradient queries", title="(a) gradient queries against accuracy")
ax.invert_xaxis()
ax.legend(loc="center left", bbox_to_anchor=(1, 0.5))
plt.show()
print({name: round(loglog_slope(eps_list, med_a[name]), 2) for name in ["GD", "AGD", f"n_H={nH[0]}", f"n_H={nH[-1]}"]})

# %% [markdown]
# **The paper's exponents beside ours.** The paper's numbers are exponents of worst-case upper bounds, with
# constants and logarithmic factors left out; ours are fitted on one instance, (a), over the budgets and
# accuracies run. A shallower fitted exponent is consistent with a bound, not a test of it.

# %%
eps_slope = {name: loglog_slope(eps_list, med_a[name]) for name in ["GD", "AGD", f"n_H={nH[0]}"]}
paper_vs_ours = [
    ("balanced method, any f with L2-Lipschitz Hessian", "grad. queries vs n_H", "n_H^(-1/2) (upper bound)",
     f"(a) cubic, d={P.d}, eps=1e-3, n_H={nH[0]}..{nH[-1]}", f"n_H^({slope_nH:.2f})"),
    ("balanced method, same", "grad. queries vs eps", "eps^(-9/4) (upper bound)",
     f"(a), n_H={nH[0]}, eps={max(eps_list):g}..{min(eps_list):g}", f"eps^({eps_slope[f'n_H={nH[0]}']:.2f})"),
    ("accelerated GD (prior work, L1 also bounded)", "grad. queries vs eps", "eps^(-7/4) (upper bound)",
     "(a), same accuracies", f"eps^({eps_slope['AGD']:.2f})"),
    ("gradient descent (classical)", "grad. queries vs eps", "eps^(-2) (upper bound)",
     "(a), same accuracies", f"eps^({eps_slope['GD']:.2f})"),
    ("bounded dimension", "grad. queries", "d^(1/3) eps^(-3/2) (upper bound)", "not tested", "-"),
]
print(f"{'paper: setting':<50} {'quantity':<21} {'paper reports':<33} | {'ours: setting':<40} ours")
for a, b, c, d_, e in paper_vs_ours:
    print(f"{a:<50} {b:<21} {c:<33} | {d_:<40} {e}")

# %% [markdown]
# **Sensitivity to the constant $c$.** The reported $\phi$ has $c = 32$ where we use $c = 1$. Re-running
# problem (a) with $c = 32$ (still without the logarithmic weights, still a unit step) shows what that
# safety margin costs. These numbers are reported, not checked.

# %%
sens = K.query_counts(f_a, grad_a, hess_a, x0s, eps_list, {
    f"c=32, n_H={n}": (lambda n: lambda o, x0, e: K.balanced_search(o, x0, e, n, L2, D_a, P.max_grad, L1=L1_a, c=32.0))(n)
    for n in (1, 8)})
print({k: int(np.median(v["grad"][:, i_eps])) for k, v in sens.items()},
      "vs c=1:", {k: int(med_a[k][i_eps]) for k in ("n_H=1", "n_H=8")},
      "GD:", int(med_a["GD"][i_eps]), "AGD:", int(med_a["AGD"][i_eps]))

# %% [markdown]
# ## Claim checks
#
# Gradient counts are the first query at which $\|\nabla f\|\le\epsilon$: another machine's rounding can
# move that stopping point by a step or two, so the ratios below are compared across machines within 5 %
# (their statuses exactly). `C1-falls-with-nH` was added after the first run, when the AGD control showed
# that `C1`'s "does not rise" is passed by a method that ignores the budget; its criterion, a strict fall
# from $n_H=1$ to $n_H=8$, is the page's own one-line claim, not a number read off the run.

# %%
core = [n for n in (1, 2, 4, 8)]
g_core = [med_a[f"n_H={n}"][i_eps] for n in core]
COUNT_TOL = tolerance(rel=0.05, why="ratio of gradient counts to a stopping test ||grad f|| <= eps, "
                                    "whose first hit can move by a step under other float rounding")
AGD_LABEL = "plain accelerated GD (ignores the Hessian budget)"
agd_flat = [med_a["AGD"][i_eps]] * len(core)  # the baseline's count at every budget: it uses no Hessians
claims.check("C1-monotone-in-nH",
             statement="On (a), the balanced method's median gradient count does not rise as n_H goes 1, 2, 4, 8 "
                       "(largest ratio of consecutive medians; 5% slack)",
             paper="gradient queries ~ n_H^(-1/2) (upper bound)",
             criterion=at_most(1.05), measured=float(max(b / a for a, b in zip(g_core, g_core[1:]))),
             control=float(max(b / a for a, b in zip(agd_flat, agd_flat[1:]))), control_label=AGD_LABEL,
             tol=COUNT_TOL)
claims.check("C1-falls-with-nH",
             statement="On (a), median gradient count with n_H = 8 relative to n_H = 1, at eps=1e-3",
             paper="gradient queries ~ n_H^(-1/2) (upper bound): more Hessians, fewer gradients",
             criterion=less_than(1.0), measured=float(g_core[-1] / g_core[0]),
             control=float(agd_flat[-1] / agd_flat[0]), control_label=AGD_LABEL, tol=COUNT_TOL,
             post_hoc="added after the first run because C1's 'does not rise' is passed by a method that "
                      "ignores the budget; the strict fall is the paper's claim")
claims.check("C2-beats-GD",
             statement="On (a) with one Hessian, median gradient queries relative to gradient descent at eps=1e-3",
             paper="no L1 dependence vs GD's L1 Delta eps^-2",
             criterion=at_most(0.5), measured=float(med_a["n_H=1"][i_eps] / med_a["GD"][i_eps]),
             control=float(med_a["AGD"][i_eps] / med_a["GD"][i_eps]), control_label=AGD_LABEL, tol=COUNT_TOL)
claims.check("C2-beats-AGD",
             statement="On (a) with one Hessian, the largest (over eps) ratio of median gradient queries to "
                       "accelerated GD's",
             paper="no L1 dependence vs AGD's L1^(1/2) L2^(1/4) Delta eps^-7/4",
             criterion=less_than(1.0), measured=float(np.max(med_a["n_H=1"] / med_a["AGD"])),
             control=float(np.max(med_a["GD"] / med_a["AGD"])),
             control_label="gradient descent (no acceleration, no Hessians)", tol=COUNT_TOL)
claims.check("C3-no-pathology",
             statement="On (b), one Hessian: median gradient queries relative to gradient descent at eps=1e-3",
             paper="(our sanity check; not in the paper)",
             criterion=at_most(2.0), measured=float(med_b["n_H=1"][i_eps] / med_b["GD"][i_eps]),
             control=float(med_b["AGD"][i_eps] / med_b["GD"][i_eps]), control_label=AGD_LABEL, tol=COUNT_TOL)
claims.check("C4-hessian-budget", kind="implementation",
             statement="No run of the balanced method queries more Hessians than its budget n_H (our code's "
                       "counter against the budget the same code enforces; also a unit test)",
             paper="exactly n_H Hessian queries",
             criterion=is_true(),
             measured=bool(all(res[f"n_H={n}"]["hess"].max() <= n for res in (res_a, res_b) for n in P.n_H)))

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# **Reproduced, on thin evidence: two informative claims, one of them added after the first run.** At ci
# scale ($d = 100$, 5 starts; the claims table above has the numbers) every check passes, but three of the
# four original ones are also passed by plain accelerated gradient descent, which uses no Hessian at all:
# `C1` ("the count does not rise with $n_H$": AGD's count is flat, ratio 1.0), `C2-beats-GD` (AGD needs
# 0.054 of gradient descent's gradients, well under 0.5) and `C3` on the logistic problem (AGD 0.23 of
# gradient descent's, the balanced method 0.24). Those say only that the method is no worse than a good
# first-order method; they are shown as uninformative and not counted. The budget check `C4` is an
# identity of our own code and is listed apart. What remains is `C2-beats-AGD` (one Hessian: at most 0.37
# of AGD's gradients at every $\epsilon$, where gradient descent needs about 20 times AGD's) and the
# post-hoc `C1-falls-with-nH` (8 Hessians: 0.31 of the gradients of one; AGD, which ignores the budget,
# 1.0). Both depend on our constant $c = 1$ (see "What was hard" below).
#
# * **Reproduced (as an illustration):** on the ill-conditioned, indefinite cubic, one Hessian used as a
#   preconditioner cut the median gradient count to $\epsilon = 10^{-3}$ from about 6 500 (gradient descent)
#   and about 350 (accelerated gradient descent) to about 130, and raising the Hessian budget to 8 cut it
#   further to about 40. The fitted exponent of gradient queries against the budget is about $-0.56$ at ci
#   scale and $-0.44$ at full scale ($d = 200$, 9 starts, $n_H$ up to 32: 147 gradients with one Hessian, 32
#   with a budget of 32). Both are close to the paper's $n_H^{-1/2}$; we report the exponent, we do not check
#   it.
# * **What the budget buys here:** the method often queries fewer Hessians than its budget (1 of 2, 1 of 4,
#   3 of 8 at ci scale; at most 13 of 32 at full scale), because our path-length bound $D$ is loose. The saving comes from being allowed a
#   smaller $\delta$, a sharper preconditioner, which is also how the paper's analysis spends its budget. So
#   this shows the trade-off between the budget and gradient queries, not a count of Hessians actually
#   queried.
# * **No trade-off on the logistic problem (b):** there, the worst-case Hessian-Lipschitz bound
#   ($L_2 \approx 27$) is so loose that $\delta$ is capped at $L_1$ for every budget we tried. The method then
#   behaves like accelerated gradient descent in a Hessian-shaped norm: about 4 times fewer gradients than
#   gradient descent, about the same as accelerated gradient descent. The count is flat up to $n_H = 8$ and
#   rises beyond that at full scale (210 gradients with a budget of 32), because every fresh Hessian restarts
#   the momentum. The method needs a realistic $L_2$ to gain anything.
# * **What the miniature cannot show:** the $\epsilon^{-9/4}$ and $\Delta$ dependence (our instances reach a
#   well-conditioned minimum, after which every method's count grows only logarithmically in $1/\epsilon$),
#   the $d^{1/3}$ bounded-dimension result, approximate Hessians, and the paper's own constants and step
#   rules, which we could not read. Cubic-regularised Newton, which pays one Hessian per step, needed only
#   about 11 gradients. That is a reminder that these results count queries, not run time: each Hessian here
#   costs a $d \times d$ eigen-decomposition.
# * **What was hard:** turning a summary of the algorithm into a working method. The constant in $\phi$
#   matters: with the reported $c = 32$ and a unit step, one Hessian needs about 670 gradients at ci scale,
#   still ten times fewer than gradient descent but about twice as many as accelerated gradient descent
#   (about 240 with a budget of 8). So "fewer than accelerated methods" depends on a constant that we chose.
#   We also had to choose how to schedule the Hessian queries. Both choices are ours and are listed under
#   the deviations.
