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
from myst_nb import glue
from sklearn.datasets import load_breast_cancer

from repro.claims import Claims, Comparator, at_most, is_true, less_than, tolerance
from repro.papers import gradient_hessian_balancing as K
from repro.runtime import progress
from repro.runtime import setup_notebook
from repro.stats import loglog_slope

P = setup_notebook(scale, seed, presets={
    "ci": dict(d=100, n_starts=5, n_H=(1, 2, 4, 8), eps=(1e-2, 3e-3, 1e-3), max_grad=50_000, l1_tops=(2, 3, 4)),
    "full": dict(d=200, n_starts=9, n_H=(1, 2, 4, 8, 16, 32), eps=(1e-2, 3e-3, 1e-3, 3e-4, 1e-4),
                 max_grad=500_000, l1_tops=(2, 3, 4)),
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
# (a later paper restates the bounded-dimension result with a $\ln^{18}(1/\epsilon)$ factor). The paper is a
# theory paper; as far as we could find it reports no experiments, so its only numbers are exponents.
#
# **The paper's headline claims, in our words** (each mapped in the claims record to the tests that bear on it,
# or to why it cannot be tested here):
#
# 1. *The trade-off.* With $n_H$ Hessian queries, the gradient queries needed shrink like $n_H^{-1/2}$
#    (tests `C1-monotone-in-nH`, `C1-falls-with-nH`).
# 2. *One Hessian is enough to be free of $L_1$.* With a single Hessian query the gradient-query bound
#    ($\tilde O(\Delta^{3/2} L_2^{3/4}\epsilon^{-9/4})$) has no $L_1$ in it (test `l1-free`, and its second
#    configuration with the reported constants). The tests `C2-beats-GD` and `C2-beats-AGD` compare gradient
#    counts at a single $L_1$: they ask whether one Hessian saves gradients on one ill-conditioned problem, which
#    says nothing about how the count grows with $L_1$, so they are not mapped to this headline.
# 3. *Bounded dimension:* $\tilde O(d^{1/3} L_2^{1/2}\Delta\epsilon^{-3/2})$ gradient queries. Not tested.
# 4. *Approximate Hessians,* and the known $O(\Delta L_1^{1/2} L_2^{1/4}\epsilon^{-7/4})$ bound recovered when
#    $L_1$ is bounded. Not tested.
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
# which gradient steps escape quickly. The paper's $\phi$ (as reported by a third-party summary) is
# $(32\delta + |\lambda|)\,\lceil\log_2(L_1/\delta)\rceil / \lceil\log_2(\max\{|\lambda|, 2\delta\}/\delta)\rceil$;
# we use $c = 1$ and no logarithmic weights, the smallest form for which the sandwich above holds, and run the
# reported form as a second configuration.
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
# Hessian call; the counts are deterministic and are the checked numbers. The paper's method uses no function
# values.

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
# * **Problem (c), the $L_1$ family** (added with the comparators, post hoc): problem (a)'s rotation $Q$ and
#   negative spectrum, with the positive spectrum log-spaced in $[0.01, 10^k]$ for $k = 2, 3, 4$; each start is
#   (a)'s start direction, moved along its ray to the same function value as in (a). The three problems then
#   share $\Delta$, $L_2$, $R$ and $D$ and differ only in $L_1 \approx 10^k$, the constant the paper's bound
#   does without.
# * **The paper's method and its ablations:** the balanced method with Hessian budget $n_H$; the same with
#   one Hessian only, at the trust level $\delta$ of budget $n_H$ (no refreshes: what the extra Hessians add);
#   one Hessian with plain preconditioned gradient steps, $x \leftarrow x - \mathbf{bH}^{-1}\nabla f(x)$ (no
#   momentum: what the acceleration of Critical-or-Progress adds); and plain accelerated gradient descent,
#   which is the same loop without any preconditioner.
# * **Naive baselines:** gradient descent (step $1/L_1$); accelerated gradient descent with restarts (step
#   $1/L_1$); L-BFGS (scipy's L-BFGS-B, memory 10) and BFGS (scipy's, full memory: a dense $d \times d$
#   inverse-Hessian estimate, added after the independent review), which build curvature from gradients alone;
#   and "Newton, then AGD": $n_H$ steps of cubic-regularised Newton (one gradient and one Hessian each), then
#   plain accelerated gradient descent, a classical way to spend a Hessian budget. Cubic-regularised Newton
#   without a budget (one Hessian per step, $M = L_2$) is shown as a reference point. All stop at the first
#   gradient with $\|\nabla f\| \le \epsilon$; no trajectory depends on $\epsilon$, so one run to the smallest
#   $\epsilon$ gives the counts for every $\epsilon$.
# * **Claim checks (medians over the starts, $\epsilon = 10^{-3}$ unless said):** `C1` the balanced method's
#   gradient count does not rise along $n_H = 1, 2, 4, 8$ on (a) (5 % slack); `C2` with a single Hessian it
#   needs at most half of gradient descent's gradients on (a); `C2-beats-AGD` with a single Hessian it needs
#   fewer gradients than accelerated gradient descent on (a) at every $\epsilon$ we try; `C3` on (b) it needs at
#   most twice gradient descent's gradients (no pathology). `C1`, `C2` and `C3` are the brief's. `C2-beats-AGD`
#   is not in the brief: the page's author added it, and it is in the page's first committed version, so that it
#   (and our choice $c = 1$ in $\phi$, on which it turns) was fixed before the first run rests on the author's
#   word. `C3` is shown as an illustration, not a test: it is our own sanity check, the paper does not make it,
#   and gradient descent meets it by definition. Each test sits beside its ablation and naive baselines under
#   the same measurement. `C1-falls-with-nH` (a strict fall from $n_H = 1$ to $8$) was added after the first run.
#   `l1-free` (added with the comparators): on (c), the log-log slope of the one-Hessian method's gradient count
#   against $L_1$ is below $1/4$, half-way between the paper's $L_1$-free bound (slope 0) and the accelerated
#   methods' $L_1^{1/2}$. `C2-beats-AGD` and `l1-free` are also run with the reported $\phi$: second
#   configurations, shown as rows of a robustness table beside the same comparators, not as tests of their own.
#   `C4` (no run uses more Hessians than its budget) compares our code's counter with the budget that the same
#   code enforces: a check of our implementation, not a claim.
#
# **Deviations from the paper**
#
# * The method is *inspired by* the paper's Algorithm 1 as described in its abstract and a third-party
#   summary; we could not read the full text, and no official code was found, so the step size, momentum, ball
#   radius and iteration caps are ours, not the paper's, and there is no golden file against official code.
#   We use $c = 1$ and no logarithmic weights in $\phi$; the reported form ($c = 32$ with its logarithmic
#   weights) is run as a second configuration of the tests it can move.
# * The paper schedules Hessian queries through its analysis; we spread them by distance travelled with an
#   assumed path-diameter $D$, and cap $\delta$ at $L_1$ (the paper's headline bound uses no $L_1$).
# * Exact Hessians only; the paper also handles $\delta$-approximate ones.
# * Small problems ($d = 100$ at ci scale, 200 at full), a few starts, $\epsilon \ge 10^{-4}$; no test of
#   the $d^{1/3}$ bounded-dimension result and no rotated double wells (the brief's third problem); the
#   $L_1$ family (c) is ours, not the brief's.
# * L-BFGS and BFGS (and the skeptic's nonlinear conjugate gradients) read the function value with each
#   gradient (their line searches need it) and count one gradient query per evaluation; the paper's method and
#   the other baselines read gradients only.
# * A fitted slope against $n_H$ or $\epsilon$ is reported, not checked: the paper gives upper bounds with
#   unspecified constants and large logarithmic factors.

# %%
eps_list = list(P.eps)
i_eps = eps_list.index(1e-3)
rng = P.rng
REPORTED = dict(c=32.0, log_weights=True)  # the reported phi: c = 32 with its logarithmic weights


def balanced(n, L1, L2, D, **kw):
    return lambda o, x0, e: K.balanced_search(o, x0, e, n, L2, D, P.max_grad, L1=L1, **kw)


def newton_then_agd(n, L1, L2):
    return lambda o, x0, e: K.newton_then_agd(o, x0, L2, L1, n, e, P.max_grad)


def first_order(L1):
    return {"GD": lambda o, x0, e: K.gradient_descent(o, x0, L1, e, P.max_grad),
            "AGD": lambda o, x0, e: K.agd_nonconvex(o, x0, L1, e, P.max_grad),
            "L-BFGS": lambda o, x0, e: K.lbfgs(o, x0, e, P.max_grad),
            "BFGS": lambda o, x0, e: K.bfgs(o, x0, e, P.max_grad)}


def ncg(o, x0, e):  # scipy's nonlinear conjugate gradients (Polak-Ribiere): a skeptic's row, not a comparator
    return K.scipy_gradient_method(o, x0, e, P.max_grad, "CG")


# problem (a)
L2 = 1.0
lam = np.concatenate([-np.logspace(0, -2, P.d // 2), np.logspace(-2, 2, P.d - P.d // 2)])
A = K.random_symmetric_matrix(lam, rng)
f_a, grad_a, hess_a = K.cubic_test_function(A, L2)
x0s = rng.standard_normal((P.n_starts, P.d))
x0s *= 3.0 / np.linalg.norm(x0s, axis=1, keepdims=True)
R = max(K.cubic_sublevel_radius(lam.min(), L2, f_a(x0)) for x0 in x0s)
L1_a, D_a = lam.max() + L2 * R, 2 * R

runs_a = first_order(L1_a)
runs_a["cubic Newton"] = lambda o, x0, e: K.cubic_newton(o, x0, L2, e, P.max_grad)
runs_a["NCG"] = ncg
delta_1 = min(L2 * D_a, L1_a)  # the first trust level of budget 1
runs_a["one Hessian, no momentum"] = lambda o, x0, e: K.one_hessian_descent(o, x0, delta_1, e, P.max_grad)
CAP_SLOW = P.max_grad // 10  # this ablation does not converge: any cap above AGD's count gives a ratio above 1
runs_a["reported phi, one Hessian, no momentum"] = lambda o, x0, e: K.one_hessian_descent(
    o, x0, delta_1, e, CAP_SLOW, c=32.0, L1=L1_a if delta_1 < L1_a else None)
for n in P.n_H:
    runs_a[f"n_H={n}"] = balanced(n, L1_a, L2, D_a)
    if n > 1:  # at n_H = 1 the single-Hessian ablation is the method itself
        runs_a[f"one Hessian, n_H={n}"] = balanced(n, L1_a, L2, D_a, max_hess=1)
    runs_a[f"Newton x{n}, then AGD"] = newton_then_agd(n, L1_a, L2)
    runs_a[f"reported phi, n_H={n}"] = balanced(n, L1_a, L2, D_a, **REPORTED)
res_a = {}
for name, run in progress(runs_a.items(), desc="problem (a)"):
    res_a.update(K.query_counts(f_a, grad_a, hess_a, x0s, eps_list, {name: run}))
res_a["one Hessian, n_H=1"] = res_a["n_H=1"]
med_a = {k: np.median(v["grad"], axis=0) for k, v in res_a.items()}
print(f"(a) d={P.d}, L1={L1_a:.1f}, L2={L2}, D={D_a:.1f}; median gradient queries at eps=1e-3:")
print({k: int(v[i_eps]) if np.isfinite(v[i_eps]) else "not reached" for k, v in med_a.items()})
print("Hessian queries used (max over starts):", {k: int(v["hess"].max()) for k, v in res_a.items()})

# %%
X, y = load_breast_cancer(return_X_y=True)
X = (X - X.mean(0)) / X.std(0)
f_b, grad_b, hess_b = K.robust_logreg(X, y.astype(float), 0.1)
L1_b, L2_b = K.robust_logreg_constants(X, 0.1)
w0s = rng.standard_normal((P.n_starts, X.shape[1]))
runs_b = first_order(L1_b)
runs_b.update({f"n_H={n}": balanced(n, L1_b, L2_b, 10.0) for n in P.n_H})
runs_b["Newton x1, then AGD"] = newton_then_agd(1, L1_b, L2_b)
res_b = K.query_counts(f_b, grad_b, hess_b, w0s, eps_list, runs_b)
med_b = {k: np.median(v["grad"], axis=0) for k, v in res_b.items()}
print(f"(b) d={X.shape[1]}, L1={L1_b:.2f}, L2={L2_b:.1f}; median gradient queries at eps=1e-3:")
print({k: int(v[i_eps]) for k, v in med_b.items()})

# %%
# problem (c): (a)'s rotation, negative spectrum and start levels; only the top of the spectrum (L1) moves
f0s = [f_a(x0) for x0 in x0s]
L1_c, med_c, diverged_c, hmin0_c = [], {}, 0, np.inf
for top in progress(P.l1_tops, desc="problem (c)"):
    lam_c = np.concatenate([-np.logspace(0, -2, P.d // 2), np.logspace(-2, top, P.d - P.d // 2)])
    A_c = K.with_spectrum(A, lam_c)
    f_c, grad_c, hess_c = K.cubic_test_function(A_c, L2)
    starts_c = np.array([K.cubic_start_at_level(A_c, L2, x0, f0) for x0, f0 in zip(x0s, f0s)])
    hmin0_c = min(hmin0_c, *(np.linalg.eigvalsh(hess_c(x))[0] for x in starts_c))
    L1 = lam_c.max() + L2 * R  # R and D are (a)'s: same negative spectrum, same start levels
    runs_c = {"n_H=1": balanced(1, L1, L2, D_a), "reported phi, n_H=1": balanced(1, L1, L2, D_a, **REPORTED),
              "AGD": first_order(L1)["AGD"], "L-BFGS": first_order(L1)["L-BFGS"], "BFGS": first_order(L1)["BFGS"],
              "Newton x1, then AGD": newton_then_agd(1, L1, L2),
              # the skeptic's rows (not comparators of a test): other gradient-only methods, the one-Hessian
              # method on a Hessian built from d + 1 gradients, and the method's loop without the shift delta
              "L-BFGS m=d": lambda o, x0, e: K.lbfgs(o, x0, e, P.max_grad, memory=P.d), "NCG": ncg,
              "Barzilai-Borwein": lambda o, x0, e: K.barzilai_borwein(o, x0, e, P.max_grad),
              "finite-difference Hessian, n_H=1": lambda o, x0, e: K.balanced_search(
                  K.FiniteDifferenceHessian(o), x0, e, 1, L2, D_a, P.max_grad, L1=L1),
              "one Hessian, no momentum": lambda o, x0, e: K.one_hessian_descent(o, x0, min(L2 * D_a, L1), e,
                                                                                 P.max_grad),
              "delta=0": lambda o, x0, e: K.one_hessian_descent(o, x0, 0.0, e, P.max_grad, theta=None,
                                                                diverge_factor=1e6)}
    for k, v in K.query_counts(f_c, grad_c, hess_c, starts_c, [eps_list[i_eps]], runs_c).items():
        med_c.setdefault(k, []).append(float(np.median(v["grad"][:, 0])))
        if k == "delta=0":
            diverged_c = diverged_c + int(np.sum(~np.isfinite(v["grad"][:, 0])))
    L1_c.append(L1)
slope_c = {k: loglog_slope(L1_c, v) for k, v in med_c.items() if np.all(np.isfinite(v))}
print("(c) L1 =", [round(x) for x in L1_c], "median gradient queries at eps=1e-3:", med_c)
print("(c) log-log slope against L1:", {k: round(v, 3) for k, v in slope_c.items()})
print(f"(c) delta=0: {diverged_c} of {len(P.l1_tops) * P.n_starts} runs diverged")

# %% [markdown]
# ## Results
#
# The first figure is the trade-off itself: median gradient queries to reach $\epsilon = 10^{-3}$ against
# the Hessian budget, with the gradient-only baselines as horizontal lines, and cubic Newton (which spends
# one Hessian per gradient) as a single point at its own Hessian count. Beside the balanced method are two
# other ways to spend the same budget: its ablation, which queries a single Hessian but trusts it as far as the
# budget allows (the $\delta$ of budget $n_H$), and "Newton, then AGD". The small label at each point of the
# balanced method is the median number of Hessians it actually queried: often fewer than the budget, because
# our path-diameter bound $D$ is loose and the iterates rarely leave the trusted ball. What the budget buys is
# the right to use a smaller $\delta$, a sharper preconditioner, and the ablation shows how much of the saving
# that alone gives: with one Hessian at the trust level of budget 8, {glue:text}`g_one8` gradients, against
# {glue:text}`g_8` for the balanced method with budget 8 and {glue:text}`g_1` with budget 1.

# %%
nH = np.array(P.n_H)
fig, axes = plt.subplots(1, 2, figsize=(9.5, 4.4), layout="constrained")
for ax, med, res, title in ((axes[0], med_a, res_a, f"(a) cubic, d={P.d}"), (axes[1], med_b, res_b, "(b) robust logreg")):
    g = np.array([med[f"n_H={n}"][i_eps] for n in nH])
    ax.loglog(nH, g, "o-", label="balanced method (label: Hessians used)")
    for n, gi in zip(nH, g):
        ax.annotate(f"{np.median(res[f'n_H={n}']['hess']):g}", (n, gi), textcoords="offset points", xytext=(4, 4),
                    fontsize=8)
    if f"one Hessian, n_H={nH[-1]}" in med:
        ax.loglog(nH, [med[f"one Hessian, n_H={n}"][i_eps] for n in nH], "v-", color="C4",
                  label=r"ablation: one Hessian, $\delta$ of budget $n_H$")
        ax.loglog(nH, [med[f"Newton x{n}, then AGD"][i_eps] for n in nH], "^-", color="C5",
                  label=r"$n_H$ Newton steps, then AGD")
    ax.loglog(nH, g[0] * nH ** -0.5, ":", color="grey", label=r"$\propto n_H^{-1/2}$")
    ax.axhline(med["GD"][i_eps], color="C1", ls="--", label="gradient descent")
    ax.axhline(med["AGD"][i_eps], color="C2", ls="--", label="accelerated GD")
    ax.axhline(med["L-BFGS"][i_eps], color="C6", ls="-.", label="L-BFGS (gradients only)")
    ax.axhline(med["BFGS"][i_eps], color="C7", ls=":", lw=2, label="BFGS, full memory (gradients only)")
    if "cubic Newton" in med:
        ax.loglog(np.median(res["cubic Newton"]["hess"]), med["cubic Newton"][i_eps], "s", color="C3",
                  label="cubic Newton")
    ax.set(xlabel="Hessian queries (budget $n_H$)", ylabel=r"gradient queries to $\epsilon=10^{-3}$", title=title)
    ax.set_xticks(nH, labels=[str(n) for n in nH], minor=False)
    ax.xaxis.set_minor_locator(mticker.NullLocator())
fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=3)
plt.show()
slope_nH = loglog_slope(nH, [med_a[f"n_H={n}"][i_eps] for n in nH])
slope_nH_one = loglog_slope(nH, [med_a[f"one Hessian, n_H={n}"][i_eps] for n in nH])
print(f"(a) fitted slope of gradient queries against n_H: {slope_nH:.2f}; one Hessian at the same delta: "
      f"{slope_nH_one:.2f} (paper's upper bound: -1/2)")

# %% [markdown]
# The second figure follows one start of problem (a): the gradient norm returned by each gradient query.
# Gradient descent crawls along the small-curvature directions; the preconditioned runs drop quickly once
# the negative-curvature directions have been escaped. L-BFGS and BFGS learn the curvature from gradient
# differences instead, BFGS from all of them.

# %%
TRACED = ["GD", "AGD", "L-BFGS", "BFGS", f"n_H={nH[0]}", f"n_H={nH[-1]}", "cubic Newton"]
fig, ax = plt.subplots()
for name in TRACED:
    t = res_a[name]["trace"]
    ax.semilogy(np.arange(1, len(t) + 1), t, label=f"balanced, {name}" if name.startswith("n_H") else name)
ax.axhline(min(eps_list), color="k", lw=0.8, ls=":")
ax.set(xscale="log", xlabel="gradient queries", ylabel=r"$\|\nabla f\|$ at the queried point",
       title="(a) one start")
ax.legend()
plt.show()

# %% [markdown]
# The third figure shows how the counts grow as $\epsilon$ shrinks on problem (a). The paper's bound for the
# balanced method grows like $\epsilon^{-9/4}$ in the worst case; on this instance, once the iterates are
# near a well-conditioned local minimum, the growth is only logarithmic for every accelerated, quasi-Newton or
# preconditioned method, so the fitted exponents (printed below, and in the table of the paper's numbers) are
# much shallower. That is consistent with, not a test of, the worst-case bounds.

# %%
fig, ax = plt.subplots()
for name in TRACED[:-1] + ["cubic Newton"]:
    ax.loglog(eps_list, med_a[name], "o-", label=f"balanced, {name}" if name.startswith("n_H") else name)
ax.set(xlabel=r"target $\epsilon$", ylabel="median gradient queries", title="(a) gradient queries against accuracy")
ax.invert_xaxis()
ax.legend(loc="center left", bbox_to_anchor=(1, 0.5))
plt.show()
eps_slope = {name: loglog_slope(eps_list, med_a[name]) for name in TRACED[:-1]}
print({k: round(v, 2) for k, v in eps_slope.items()})

# %% [markdown]
# The fourth figure is the test of what the paper's bound leaves out: problem (c) raises $L_1$ a
# hundredfold and keeps everything else fixed. Accelerated gradient descent needs
# {glue:text}`c_agd_lo` gradients at the smallest $L_1$ and {glue:text}`c_agd_hi` at the largest (slope
# {glue:text}`c_agd_slope:.2f`), and L-BFGS {glue:text}`c_lbfgs_lo` and {glue:text}`c_lbfgs_hi` (slope
# {glue:text}`c_lbfgs_slope:.2f`). The one-Hessian method needs {glue:text}`c_m_lo` and {glue:text}`c_m_hi`
# (slope {glue:text}`c_m_slope:.2f`): the preconditioner divides the large curvatures out. Full-memory BFGS,
# which queries no Hessian, needs {glue:text}`c_bfgs_lo` and {glue:text}`c_bfgs_hi` (slope
# {glue:text}`c_bfgs_slope:.2f`): in dimension {glue:text}`d` it learns the large curvatures from gradient
# differences. With the reported $\phi$ the one-Hessian method needs
# {glue:text}`c_rep_lo` gradients at the smallest $L_1$ and {glue:text}`c_rep_hi` at the largest (slope
# {glue:text}`c_rep_slope:.2f`): a large constant, and growth only through the logarithmic weights.

# %%
fig, ax = plt.subplots()
for name, style in (("n_H=1", "o-"), ("reported phi, n_H=1", "o--"), ("AGD", "s-"), ("L-BFGS", "s-."),
                    ("BFGS", "D:"), ("Newton x1, then AGD", "^-")):
    ax.loglog(L1_c, med_c[name], style, label=("balanced, " + name if name.startswith(("n_H", "rep")) else name)
              + f" (slope {slope_c[name]:.2f})")
ax.loglog(L1_c, med_c["AGD"][0] * (np.array(L1_c) / L1_c[0]) ** 0.5, ":", color="grey", label=r"$\propto L_1^{1/2}$")
ax.set(xlabel=r"$L_1$ (largest curvature bound)", ylabel=r"median gradient queries to $\epsilon=10^{-3}$",
       title=r"(c) same $\Delta$, $L_2$, $D$; only $L_1$ changes")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# ### The paper's numbers beside ours
#
# The paper's numbers are exponents of worst-case upper bounds, with constants and logarithmic factors left
# out; ours are fitted on one instance, over the budgets and accuracies run. A shallower fitted exponent is
# consistent with a bound, not a test of it, except for $L_1$, where the paper's bound has none and the
# accelerated methods' bound has $1/2$: that exponent is the test `l1-free`.

# %%
paper_vs_ours = [
    ("balanced method, any f with L2-Lipschitz Hessian", "grad. queries vs n_H", "n_H^(-1/2) (upper bound)",
     f"(a) cubic, d={P.d}, eps=1e-3, n_H={nH[0]}..{nH[-1]}", f"n_H^({slope_nH:.2f})"),
    ("balanced method, same", "grad. queries vs eps", "eps^(-9/4) (upper bound)",
     f"(a), n_H={nH[0]}, eps={max(eps_list):g}..{min(eps_list):g}", f"eps^({eps_slope[f'n_H={nH[0]}']:.2f})"),
    ("balanced method, one Hessian", "grad. queries vs L1", "L1^0 (no L1 in the bound)",
     f"(c), n_H=1, L1={L1_c[0]:.0f}..{L1_c[-1]:.0f}", f"L1^({slope_c['n_H=1']:.2f})"),
    ("accelerated GD (prior work, L1 also bounded)", "grad. queries vs L1", "L1^(1/2) (upper bound)",
     "(c), same L1", f"L1^({slope_c['AGD']:.2f})"),
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
# ### The reported constants
#
# The reported $\phi$ multiplies our $c = 1$ by 32 and adds logarithmic weights that favour the small
# curvatures. On problem (a) it costs many gradients: with one Hessian {glue:text}`rep_1` (against
# {glue:text}`g_1` with our $\phi$ and {glue:text}`g_agd` for accelerated gradient descent), with a budget of
# {glue:text}`n_top` {glue:text}`rep_top` (against {glue:text}`g_top`). It can move `C2-beats-AGD` and
# `l1-free`, which are therefore run in both configurations (see the robustness table under the claims, and the
# fourth figure). It cannot make any other test reproduced, since their comparators pass whatever $\phi$ is; with it the one-Hessian
# method still needs only {glue:text}`rep_ratio_gd:.3f` of gradient descent's gradients (`C2-beats-GD` asks for
# at most one half), and budget 8 needs {glue:text}`rep_falls:.2f` of the gradients of budget 1
# (`C1-falls-with-nH` asks for less than one).

# %%
print({k: int(min(med_a[k][i_eps], P.max_grad)) for k in med_a if k.startswith("reported")},
      "vs our phi:", {f"n_H={n}": int(med_a[f"n_H={n}"][i_eps]) for n in nH},
      "GD:", int(med_a["GD"][i_eps]), "AGD:", int(med_a["AGD"][i_eps]))

# %% [markdown]
# ## Claim checks
#
# Gradient counts are the first query at which $\|\nabla f\|\le\epsilon$: another machine's rounding can
# move that stopping point by a step or two, so the ratios below are compared across machines within 5 %
# (their statuses exactly), and the slopes within 0.03. Every test is set beside its ablation (the method
# without the ingredient it is about) and the strongest naive baselines we found, under the same measurement
# and criterion. `C1-falls-with-nH` was added after the first run, when plain accelerated gradient descent
# showed that `C1`'s "does not rise" is passed by a method that ignores the budget; its criterion, a strict
# fall from $n_H=1$ to $n_H=8$, is the page's own one-line claim. `l1-free` and the second configurations
# were added with the comparators: post hoc, designed on seeds 0-9, to be confirmed on seeds 10-19. Full-memory
# BFGS was added as a baseline of `C2-beats-GD`, `C2-beats-AGD` and `l1-free` after the independent review;
# adding a comparator changes no test's criterion, so each test keeps its standing (pre-registered or post hoc).
# The reported-$\phi$ configurations and `C3` are recorded as illustrations, and the head-to-head of the
# refreshes (budget 8 against one Hessian at the same $\delta$) as a third: it was seen before it could be
# registered.

# %%
core = [n for n in (1, 2, 4, 8)]


def at_eps(name, med=med_a):
    return med[name][i_eps]


def worst_consecutive(counts):
    return float(max(b / a for a, b in zip(counts, counts[1:])))


def worst_over_eps(name, ref="AGD", cap=P.max_grad):
    return float(np.max(np.minimum(med_a[name], cap) / med_a[ref]))  # a run that never got there: its cap


g_core = [at_eps(f"n_H={n}") for n in core]
g_one = [at_eps(f"one Hessian, n_H={n}") for n in core]
g_newton = [at_eps(f"Newton x{n}, then AGD") for n in core]
COUNT_TOL = tolerance(rel=0.05, why="ratio of gradient counts to a stopping test ||grad f|| <= eps, "
                                    "whose first hit can move by a step under other float rounding")
SLOPE_TOL = tolerance(abs=0.03, why="log-log slope of gradient counts whose first hit can move by a step "
                                    "(L-BFGS's line search by a few) under other float rounding")
ONE = "one Hessian at the trust level of budget n_H (no refreshes)"
EXTRA = "the extra Hessian queries (refreshed preconditioners)"
NEWTON = "n_H cubic-Newton steps, then plain AGD (a classical use of the Hessian budget)"
NEWTON1 = "one cubic-Newton step, then plain AGD (a classical use of one Hessian)"
LBFGS = "L-BFGS, memory 10 (curvature from gradients only; also reads f)"
BFGS = "BFGS, full memory (curvature from every gradient difference, no Hessian; also reads f)"
NO_PRECOND = "plain AGD: the same loop without the Hessian preconditioner"
PRECOND = "the Hessian preconditioner bH"
NO_MOMENTUM = "the same one-Hessian preconditioner bH with plain (unaccelerated) preconditioned gradient steps"
MOMENTUM = "the acceleration that Critical-or-Progress runs in the bH geometry"
POST_COMPARATORS = ("added with the comparators (issue 33): the regime where the paper says its ingredient "
                    "matters, L1 large with Delta, L2 and D fixed; threshold half-way between the paper's exponent "
                    "0 and AGD's 1/2, fixed from the bounds; designed on seeds 0-9")
ROW_WHY = ("a second configuration (the reported phi: c = 32 with its logarithmic weights) of the test {}: "
           "its baselines are that test's, the same measurement, so it is one row of the robustness table, "
           "not a test of its own (one measurement is counted once)")


def ratios_to_gd(med):
    return {k: float(at_eps(k, med) / at_eps("GD", med)) for k in ("n_H=1", "AGD", "L-BFGS", "BFGS",
                                                                   "Newton x1, then AGD")}


r_a, r_b = ratios_to_gd(med_a), ratios_to_gd(med_b)
base_c2agd = [Comparator(LBFGS, worst_over_eps("L-BFGS")), Comparator(NEWTON1, worst_over_eps("Newton x1, then AGD")),
              Comparator(BFGS, worst_over_eps("BFGS"))]
base_l1 = [Comparator(LBFGS, slope_c["L-BFGS"]), Comparator(NEWTON1, slope_c["Newton x1, then AGD"]),
           Comparator(BFGS, slope_c["BFGS"])]
abl_l1 = Comparator(NO_PRECOND, slope_c["AGD"], ingredient=PRECOND)

claims.test("C1-monotone-in-nH",
            statement="On (a), the balanced method's median gradient count does not rise as n_H goes 1, 2, 4, 8 "
                      "(largest ratio of consecutive medians; 5% slack)",
            paper="gradient queries ~ n_H^(-1/2) (upper bound)",
            criterion=at_most(1.05), measured=worst_consecutive(g_core), tol=COUNT_TOL,
            ablation=Comparator(ONE, worst_consecutive(g_one), ingredient=EXTRA),
            baselines=[Comparator(NEWTON, worst_consecutive(g_newton))])
claims.test("C1-falls-with-nH",
            statement="On (a), median gradient count with n_H = 8 relative to n_H = 1, at eps=1e-3",
            paper="gradient queries ~ n_H^(-1/2) (upper bound): more Hessians, fewer gradients",
            criterion=less_than(1.0), measured=float(g_core[-1] / g_core[0]), tol=COUNT_TOL,
            ablation=Comparator(ONE, float(g_one[-1] / g_one[0]), ingredient=EXTRA),
            baselines=[Comparator(NEWTON, float(g_newton[-1] / g_newton[0]))],
            post_hoc="added after the first run because C1's 'does not rise' is passed by a method that "
                     "ignores the budget; the strict fall is the paper's claim")
claims.test("C2-beats-GD",
            statement="On (a) with one Hessian, median gradient queries relative to gradient descent at eps=1e-3",
            paper="no L1 dependence vs GD's L1 Delta eps^-2",
            criterion=at_most(0.5), measured=r_a["n_H=1"], tol=COUNT_TOL,
            ablation=Comparator(NO_PRECOND, r_a["AGD"], ingredient=PRECOND),
            baselines=[Comparator(LBFGS, r_a["L-BFGS"]), Comparator(NEWTON1, r_a["Newton x1, then AGD"]),
                       Comparator(BFGS, r_a["BFGS"])])
claims.test("C2-beats-AGD",
            statement="On (a) with one Hessian, the largest (over eps) ratio of median gradient queries to "
                      "accelerated GD's",
            paper="no L1 dependence vs AGD's L1^(1/2) L2^(1/4) Delta eps^-7/4",
            criterion=less_than(1.0), measured=worst_over_eps("n_H=1"), tol=COUNT_TOL,
            ablation=Comparator(NO_MOMENTUM, worst_over_eps("one Hessian, no momentum"), ingredient=MOMENTUM),
            baselines=base_c2agd)
claims.illustrate("C2-beats-AGD-reported-phi",
                  statement="C2-beats-AGD with the reported phi: on (a) with one Hessian, the largest (over eps) ratio "
                            "of median gradient queries to accelerated GD's",
                  paper="no L1 dependence vs AGD's L1^(1/2) L2^(1/4) Delta eps^-7/4",
                  criterion=less_than(1.0), measured=worst_over_eps("reported phi, n_H=1"), tol=COUNT_TOL,
                  why=ROW_WHY.format("C2-beats-AGD"))
claims.illustrate("C3-no-pathology",
                  statement="On (b), one Hessian: median gradient queries relative to gradient descent at eps=1e-3",
                  paper="(our sanity check; not in the paper)",
                  criterion=at_most(2.0), measured=r_b["n_H=1"], tol=COUNT_TOL,
                  why="our own 'does not hurt' check, not a claim of the paper: gradient descent itself meets "
                      "'at most twice gradient descent' by definition (and accelerated GD, L-BFGS and BFGS meet it)")
claims.test("l1-free",
            statement="On (c), the log-log slope of the one-Hessian method's median gradient count (eps=1e-3) "
                      "against L1, over L1 = 1e2..1e4 with Delta, L2 and D fixed, is below 1/4",
            paper="no L1 in the gradient-query bound (exponent 0), against L1^(1/2) for accelerated methods",
            criterion=less_than(0.25), measured=slope_c["n_H=1"], tol=SLOPE_TOL,
            ablation=abl_l1, baselines=base_l1, post_hoc=POST_COMPARATORS)
claims.illustrate("l1-free-reported-phi",
                  statement="l1-free with the reported phi: on (c), the log-log slope of the one-Hessian method's "
                            "median gradient count against L1 is below 1/4",
                  paper="no L1 in the gradient-query bound (exponent 0; the reported phi carries log(L1) weights)",
                  criterion=less_than(0.25), measured=slope_c["reported phi, n_H=1"], tol=SLOPE_TOL,
                  why=ROW_WHY.format("l1-free"))
claims.illustrate("refreshes-head-to-head",
                  statement="On (a), budget 8: the balanced method's median gradient count relative to one Hessian "
                            "trusted at the same delta (no refreshes), at eps=1e-3",
                  paper="more Hessian queries, fewer gradient queries (the n_H^(-1/2) trade-off)",
                  criterion=less_than(1.0), measured=float(g_core[-1] / g_one[-1]), tol=COUNT_TOL,
                  why="the one comparison that isolates the refreshes, but it was seen (seed 0) before it could be "
                      "registered, so it is shown and not counted")
claims.check("C4-hessian-budget", kind="implementation",
             statement="No run of the balanced method queries more Hessians than its budget n_H (our code's "
                       "counter against the budget the same code enforces; also a unit test)",
             paper="exactly n_H Hessian queries",
             criterion=is_true(),
             measured=bool(all(res[f"n_H={n}"]["hess"].max() <= n for res in (res_a, res_b) for n in P.n_H)))
claims.headline("trade-off",
                "with n_H Hessian queries, the gradient queries needed to reach an eps-critical point shrink like "
                "n_H^(-1/2)", tests=["C1-monotone-in-nH", "C1-falls-with-nH"])
claims.headline("one-hessian-l1-free",
                "a single Hessian query suffices for a gradient-query bound with no L1 in it",
                tests=["l1-free", "l1-free-reported-phi"])
claims.headline("bounded-dimension",
                "in bounded dimension, O~(d^(1/3) L2^(1/2) Delta eps^(-3/2)) gradient queries",
                untestable="a worst-case upper bound with unstated constants and a ln^18(1/eps) factor, reached by a "
                           "variant we do not implement; no run at our sizes could refute it")
claims.headline("approximate-hessians",
                "the method works with approximate Hessians and recovers the known O(Delta L1^(1/2) L2^(1/4) "
                "eps^(-7/4)) bound when L1 is bounded",
                untestable="we use exact Hessians only; recovering a prior upper bound is a statement about bounds, "
                           "which no finite run of ours can refute")

# the robustness table: each test the reported phi can move, in both configurations, beside the same comparators
robust = [
    ("C2-beats-AGD", "page's phi (c = 1)", less_than(1.0), COUNT_TOL, worst_over_eps("n_H=1"),
     [("ablation: no momentum", worst_over_eps("one Hessian, no momentum"))]),
    ("C2-beats-AGD", "reported phi", less_than(1.0), COUNT_TOL, worst_over_eps("reported phi, n_H=1"),
     [("ablation: no momentum (capped)", worst_over_eps("reported phi, one Hessian, no momentum", cap=CAP_SLOW))]),
    ("l1-free", "page's phi (c = 1)", less_than(0.25), SLOPE_TOL, slope_c["n_H=1"],
     [("ablation: plain AGD", slope_c["AGD"])]),
    ("l1-free", "reported phi", less_than(0.25), SLOPE_TOL, slope_c["reported phi, n_H=1"],
     [("ablation: plain AGD", slope_c["AGD"])]),
]
for row in robust:  # the same baselines in both configurations
    base = base_c2agd if row[0] == "C2-beats-AGD" else base_l1
    row[5].extend(zip(("L-BFGS m=10", "Newton x1, then AGD", "BFGS"), (b.value for b in base)))


def shown_status(criterion, tol, value):  # for the table only; the book judges statuses from the record
    hi = criterion.value
    band = tol.slack(value, hi) if np.isfinite(value) else 0.0
    return "pass" if value < hi - band else ("edge" if value <= hi + band else "fail")


for r in claims.results:  # every check's values, for the prose
    glue(f"{r['id']}_m", r["measured"], display=False)
    if r["role"] == "test":
        glue(f"{r['id']}_a", r["ablation"]["value"], display=False)
        for k, bl in enumerate(r["baselines"], 1):
            glue(f"{r['id']}_b{k}", bl["value"], display=False)
for key, name in (("g_gd", "GD"), ("g_agd", "AGD"), ("g_lbfgs", "L-BFGS"), ("g_bfgs", "BFGS"), ("g_1", "n_H=1"),
                  ("g_8", "n_H=8"), ("g_one8", "one Hessian, n_H=8"), ("g_newton", "cubic Newton"),
                  ("g_newton8", "Newton x8, then AGD"), ("rep_1", "reported phi, n_H=1"), ("g_ncg", "NCG"),
                  ("g_top", f"n_H={nH[-1]}"), ("rep_top", f"reported phi, n_H={nH[-1]}")):
    glue(key, int(at_eps(name)), display=False)
for key, name in (("gb_gd", "GD"), ("gb_agd", "AGD"), ("gb_lbfgs", "L-BFGS"), ("gb_bfgs", "BFGS"), ("gb_1", "n_H=1"),
                  ("gb_top", f"n_H={nH[-1]}")):
    glue(key, int(at_eps(name, med_b)), display=False)
for key, name in (("agd", "AGD"), ("lbfgs", "L-BFGS"), ("bfgs", "BFGS")):
    glue(f"c3_{key}", r_b[name], display=False)
for key, name in (("c_m", "n_H=1"), ("c_rep", "reported phi, n_H=1"), ("c_agd", "AGD"), ("c_lbfgs", "L-BFGS"),
                  ("c_bfgs", "BFGS"), ("c_lbfgsd", "L-BFGS m=d"), ("c_ncg", "NCG"), ("c_bb", "Barzilai-Borwein"),
                  ("c_fd", "finite-difference Hessian, n_H=1"), ("c_nomom", "one Hessian, no momentum")):
    glue(f"{key}_lo", int(med_c[name][0]), display=False)
    glue(f"{key}_hi", int(med_c[name][-1]), display=False)
    glue(f"{key}_slope", slope_c[name], display=False)
glue("rep_abl", worst_over_eps("reported phi, one Hessian, no momentum", cap=CAP_SLOW), display=False)
glue("ncg_c2agd", worst_over_eps("NCG"), display=False)
glue("diverged_c", diverged_c, display=False)
glue("runs_c", len(P.l1_tops) * P.n_starts, display=False)
glue("d", P.d, display=False)
glue("d_plus_1", P.d + 1, display=False)
glue("n_top", int(nH[-1]), display=False)
glue("h_newton", float(np.median(res_a["cubic Newton"]["hess"])), display=False)
glue("hess_used_8", float(np.median(res_a["n_H=8"]["hess"])), display=False)
glue("hess_used_top", int(res_a[f"n_H={nH[-1]}"]["hess"].max()), display=False)
glue("slope_nH", slope_nH, display=False)
glue("slope_nH_one", slope_nH_one, display=False)
glue("rep_ratio_gd", float(at_eps("reported phi, n_H=1") / at_eps("GD")), display=False)
glue("rep_falls", float(at_eps("reported phi, n_H=8") / at_eps("reported phi, n_H=1")), display=False)
glue("hmin0", float(min(np.linalg.eigvalsh(hess_a(x0))[0] for x0 in x0s)), display=False)
glue("hmin0_c", float(hmin0_c), display=False)
glue("L2_b", L2_b, display=False)
glue("L1_b", L1_b, display=False)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# The reported $\phi$ is a second configuration of the two tests it can move. Its rows are not tests of their own:
# they share their baselines (the same runs) with the page's configuration, so the record keeps them as
# illustrations, and the table below sets both configurations side by side under the same criterion (status
# at this seed, with the declared tolerance band: a value within it of the threshold is at the edge).

# %%
print(f"{'test':<14} {'configuration':<20} {'criterion':<10} {'method':<17} comparators")
for test, config, crit, tol, value, comps in robust:
    cells = "; ".join(f"{name} {v:.3g} ({shown_status(crit, tol, v)})" for name, v in comps)
    method = f"{value:.3g} ({shown_status(crit, tol, value)})"
    print(f"{test:<14} {config:<20} {crit.text:<10} {method:<17} {cells}")

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# No test on this page singles out the paper's method: each one is also passed by something that does not use
# the paper's idea. The property the paper's bound is about, a gradient count that does not grow with $L_1$,
# separates the one-Hessian method from plain and limited-memory first-order methods, but not from a
# full-memory quasi-Newton method that queries no Hessian at all; and that test was added with the comparators,
# so it would count only once it held on seeds 10-19.
#
# * *The trade-off* ({repro-status}`C1-monotone-in-nH`; {repro-status}`C1-falls-with-nH`, post hoc). More
#   Hessian budget does mean fewer gradients: budget 8 needs {glue:text}`C1-falls-with-nH_m:.2f` of the
#   gradients of budget 1 on (a). But a single Hessian trusted as far as budget 8 allows gets down to
#   {glue:text}`C1-falls-with-nH_a:.2f` of them, and spending the 8 Hessians on cubic-Newton steps before plain
#   accelerated gradient descent to {glue:text}`C1-falls-with-nH_b1:.2f`; over the ci sweep both meet the bar
#   at {repro-seeds}`C1-falls-with-nH:ablation:pass` and {repro-seeds}`C1-falls-with-nH:baseline1:pass`
#   seeds. In our method the budget is mostly a licence for a smaller $\delta$: with budget 8 it queried a
#   median of {glue:text}`hess_used_8:g` Hessians. What the refreshes themselves add shows only head to head:
#   with budget 8 the method needs {glue:text}`refreshes-head-to-head_m:.2f` of the gradients of one Hessian
#   trusted at the same $\delta$ ({repro-status}`refreshes-head-to-head`: we saw it before we could register it).
#   The pre-registered "does not rise" of `C1` is met by Newton-then-AGD at
#   {repro-seeds}`C1-monotone-in-nH:baseline1:pass` seeds and by the single-Hessian ablation at
#   {repro-seeds}`C1-monotone-in-nH:ablation:pass` (at the edge at {repro-seeds}`C1-monotone-in-nH:ablation:edge`);
#   a method that ignores the budget has a ratio of exactly one, inside its 5 % slack.
# * *One Hessian against first-order methods at one $L_1$* ({repro-status}`C2-beats-GD`;
#   {repro-status}`C2-beats-AGD`). These two tests compare gradient counts on (a), where $L_1$ is about a
#   hundred; they cannot show that a count is free of $L_1$, and they are not mapped to that headline. On (a) the
#   one-Hessian method needs {glue:text}`g_1` gradients to reach $\epsilon = 10^{-3}$, gradient descent
#   {glue:text}`g_gd`, accelerated gradient descent {glue:text}`g_agd`, L-BFGS {glue:text}`g_lbfgs` and BFGS
#   {glue:text}`g_bfgs`. The bar of `C2-beats-GD`, half of gradient descent's count, is met by the method
#   ({glue:text}`C2-beats-GD_m:.3f`), by accelerated gradient descent ({glue:text}`C2-beats-GD_a:.3f`), by
#   L-BFGS ({glue:text}`C2-beats-GD_b1:.3f`), by one Newton step then accelerated gradient descent
#   ({glue:text}`C2-beats-GD_b2:.3f`) and by BFGS ({glue:text}`C2-beats-GD_b3:.3f`, at
#   {repro-seeds}`C2-beats-GD:baseline3:pass` seeds): gradient descent with the worst-case step is too weak a
#   reference to tell anything apart. Against accelerated gradient descent the method's worst ratio over
#   $\epsilon$ is {glue:text}`C2-beats-AGD_m:.2f`. The acceleration is needed: plain preconditioned gradient
#   steps with the same Hessian need {glue:text}`C2-beats-AGD_a:.2f` times accelerated gradient descent's
#   gradients (they fail at {repro-seeds}`C2-beats-AGD:ablation:fail` seeds). But L-BFGS reaches
#   {glue:text}`C2-beats-AGD_b1:.2f` (it meets the bar at {repro-seeds}`C2-beats-AGD:baseline1:pass` seeds) and
#   BFGS {glue:text}`C2-beats-AGD_b3:.2f` (at {repro-seeds}`C2-beats-AGD:baseline3:pass`), with no Hessian at
#   all. With the reported $\phi$ the method itself needs {glue:text}`C2-beats-AGD-reported-phi_m:.2f` times
#   accelerated gradient descent's gradients, and fails the bar at
#   {repro-seeds}`C2-beats-AGD-reported-phi:method:fail` seeds (robustness table): whether the one-Hessian method
#   beats accelerated gradient descent here turns on a constant we chose, in a test the brief did not ask for.
# * *No pathology on the logistic problem* ({repro-status}`C3-no-pathology`). The method needs
#   {glue:text}`C3-no-pathology_m:.2f` of gradient descent's gradients, accelerated gradient descent
#   {glue:text}`c3_agd:.2f`, L-BFGS {glue:text}`c3_lbfgs:.2f` and BFGS {glue:text}`c3_bfgs:.2f`; gradient
#   descent itself meets an "at most twice gradient descent" bar by definition, and the paper does not make this
#   claim, so it is shown and not counted. There the worst-case Hessian-Lipschitz bound
#   ($L_2 \approx$ {glue:text}`L2_b:.0f`) is so loose that $\delta$ is capped at $L_1$ for every budget, and the
#   method is accelerated gradient descent in a Hessian-shaped norm: {glue:text}`gb_1` gradients with one
#   Hessian and {glue:text}`gb_top` with a budget of {glue:text}`n_top`, against {glue:text}`gb_agd` for
#   accelerated gradient descent, {glue:text}`gb_lbfgs` for L-BFGS and {glue:text}`gb_bfgs` for BFGS. The method
#   needs a realistic $L_2$ to gain anything there.
# * *Free of $L_1$* ({repro-status}`l1-free`, post hoc). On problem (c), as $L_1$ grows a hundredfold with
#   $\Delta$, $L_2$ and $D$ fixed, the one-Hessian method's count has a log-log slope of
#   {glue:text}`l1-free_m:.2f` against $L_1$; accelerated gradient descent {glue:text}`l1-free_a:.2f`, L-BFGS
#   {glue:text}`l1-free_b1:.2f`, one Newton step then accelerated gradient descent {glue:text}`l1-free_b2:.2f`,
#   and BFGS {glue:text}`l1-free_b3:.2f`. Over the ci sweep the method is under the bar of $1/4$ at
#   {repro-seeds}`l1-free:method:pass` seeds, the ablation and the first two baselines at
#   {repro-seeds}`l1-free:ablation:pass`, {repro-seeds}`l1-free:baseline1:pass` and
#   {repro-seeds}`l1-free:baseline2:pass`, and BFGS at {repro-seeds}`l1-free:baseline3:pass`. The Hessian
#   preconditioner does remove $L_1$ from the count, as the paper's bound says; so does learning the curvature
#   from gradient differences in dimension {glue:text}`d`: BFGS needs {glue:text}`c_bfgs_lo` to
#   {glue:text}`c_bfgs_hi` gradients, the one-Hessian method {glue:text}`c_m_lo` to {glue:text}`c_m_hi`.
#   With the reported $\phi$ the slope is {glue:text}`l1-free-reported-phi_m:.2f` (under the bar at
#   {repro-seeds}`l1-free-reported-phi:method:pass` seeds; robustness table): its logarithmic weights bring back
#   a $\log L_1$, not a power, and BFGS passes beside it in that configuration too.
#
# The budget check `C4` is an identity of our own code and is listed apart. Cubic-regularised Newton, which
# pays one Hessian per step, needed only {glue:text}`g_newton` gradients (with {glue:text}`h_newton:g`
# Hessians): these results count queries, not run time, and each Hessian here costs a $d \times d$
# eigen-decomposition. The fitted exponent of gradient queries against the budget is
# {glue:text}`slope_nH:.2f` (the paper's bound: $-1/2$); one Hessian at the same trust levels gives
# {glue:text}`slope_nH_one:.2f`. We report these exponents; we do not check them.
#
# ## What a skeptic would try
#
# Reviewed by an independent reviewer who did not write the page (the issue 33 review). They re-ran the page's
# construction on the design seeds 0-9, single-threaded, and tried full-memory BFGS, L-BFGS with memory $d$,
# nonlinear conjugate gradients, Barzilai-Borwein steps, the same Hessian without momentum and without the
# shift $\delta$, the one-Hessian method on a Hessian built from gradients, and BFGS at full scale. Every row
# below is now run by this notebook (seed 0; counts over seeds come from the ci sweep, where the row is a
# comparator of a test):
#
# * **Full-memory BFGS** (gradients only): the baseline that undoes the page's one distinguishing test. On (c)
#   it needs {glue:text}`c_bfgs_lo` gradients at the smallest $L_1$ and {glue:text}`c_bfgs_hi` at the largest
#   (slope {glue:text}`l1-free_b3:.2f`, under `l1-free`'s bar at {repro-seeds}`l1-free:baseline3:pass` seeds),
#   against {glue:text}`c_m_lo` and {glue:text}`c_m_hi` for the one-Hessian method. On (a) it needs
#   {glue:text}`g_bfgs` gradients and passes `C2-beats-GD` ({glue:text}`C2-beats-GD_b3:.3f`) and
#   `C2-beats-AGD` ({glue:text}`C2-beats-AGD_b3:.2f`); on (b) it needs {glue:text}`c3_bfgs:.2f` of gradient
#   descent's gradients. The reviewer's full-scale run ($d = 200$, seed 0) found the same order; the judged
#   table's full-scale column comes from this notebook's own full-scale sweep, BFGS included.
# * **L-BFGS**: with memory 10, {glue:text}`g_lbfgs` gradients on (a); it passes `C2-beats-GD`
#   ({glue:text}`C2-beats-GD_b1:.3f`) and `C2-beats-AGD` ({glue:text}`C2-beats-AGD_b1:.2f`, at
#   {repro-seeds}`C2-beats-AGD:baseline1:pass` seeds) and fails `l1-free` (slope {glue:text}`l1-free_b1:.2f`).
#   Its growth with $L_1$ is a matter of memory: with memory $d$ its slope on (c) is
#   {glue:text}`c_lbfgsd_slope:.2f` ({glue:text}`c_lbfgsd_lo` to {glue:text}`c_lbfgsd_hi` gradients), and
#   with full memory (BFGS) {glue:text}`c_bfgs_slope:.2f`.
# * **Nonlinear conjugate gradients** (scipy's Polak-Ribière, gradients only): slope
#   {glue:text}`c_ncg_slope:.2f` on (c) ({glue:text}`c_ncg_lo` to {glue:text}`c_ncg_hi` gradients), so it
#   fails `l1-free`; on (a) its ratio for `C2-beats-AGD` is {glue:text}`ncg_c2agd:.2f` against a bar of one (in
#   the reviewer's runs it fell on either side of the bar, depending on the seed).
# * **Barzilai-Borwein steps** (no $L_1$, no line search): slope {glue:text}`c_bb_slope:.2f` on (c)
#   ({glue:text}`c_bb_lo` to {glue:text}`c_bb_hi` gradients).
# * **The same Hessian without momentum** (the ablation of acceleration): on (a)
#   {glue:text}`C2-beats-AGD_a:.2f` times accelerated gradient descent's gradients; on (c) its slope is
#   {glue:text}`c_nomom_slope:.2f` ({glue:text}`c_nomom_lo` to {glue:text}`c_nomom_hi` gradients). The flat
#   count comes from the $\delta$-shifted Hessian metric, with or without the acceleration of
#   Critical-or-Progress; `l1-free` tests the metric. With the reported $\phi$ it does not reach $\epsilon = 10^{-3}$ within
#   its cap on (a) (ratio at least {glue:text}`rep_abl:.1f`).
# * **The same Hessian without the shift** ($\delta = 0$: accelerated gradient descent in the $|H(x_0)|^{-1}$
#   metric, unit step): {glue:text}`diverged_c` of the {glue:text}`runs_c` runs on (c) diverge. The shift
#   $\delta$ is the part of the preconditioner that makes the method work.
# * **A Hessian from gradients**: a forward-difference Hessian from $d + 1 =$ {glue:text}`d_plus_1` gradient
#   queries, then the page's one-Hessian method (the paper's own route to its bounded-dimension result, in its
#   crudest form): {glue:text}`c_fd_lo` to {glue:text}`c_fd_hi` gradients in all on (c), slope
#   {glue:text}`c_fd_slope:.2f`. It is free of $L_1$ with gradients only, at the price of $d + 1$ gradients.
# * **Spending the Hessians on Newton steps first**: 8 cubic-Newton steps before plain accelerated gradient
#   descent need {glue:text}`g_newton8` gradients in all (budget 8 of the balanced method: {glue:text}`g_8`).
#   This passes `C1-falls-with-nH` ({glue:text}`C1-falls-with-nH_b1:.2f`) and `C1`
#   ({glue:text}`C1-monotone-in-nH_b1:.2f`); with a single step it sits at the edge of `C2-beats-AGD`
#   ({glue:text}`C2-beats-AGD_b2:.2f`: its accelerated phase is the reference itself) and fails `l1-free`
#   ({glue:text}`l1-free_b2:.2f`).
# * **One Hessian, trusted further** (the ablation of the budget): {glue:text}`g_one8` gradients at the trust
#   level of budget 8, against {glue:text}`g_8` for budget 8 and {glue:text}`g_1` for budget 1; it passes
#   `C1-falls-with-nH` at {repro-seeds}`C1-falls-with-nH:ablation:pass` seeds.
# * **Folding versus shifting the Hessian** (not a comparator): at every start of (a) the Hessian is already
#   positive definite (smallest eigenvalue {glue:text}`hmin0:.2f`), so the paper's $|\lambda|$ and a plain
#   shift to positive definite give the same preconditioner, and the same counts.
# * **A method that ignores the budget** (plain accelerated gradient descent): flat in $n_H$, a ratio of
#   exactly one, which lies inside `C1`'s 5 % slack; it is not a comparator, since a flat count is at the edge
#   by construction.
# * **Gradient descent itself** meets `C3`'s bar of twice gradient descent's count: that criterion cannot fail
#   for a method that is no slower than the slowest baseline.
# * **The reported constants**: {glue:text}`rep_1` gradients with one Hessian on (a), against
#   {glue:text}`g_agd` for accelerated gradient descent; on (c) {glue:text}`c_rep_lo` at the smallest $L_1$ and
#   {glue:text}`c_rep_hi` at the largest, against {glue:text}`c_agd_lo` and {glue:text}`c_agd_hi` for
#   accelerated gradient descent (robustness table).
#
# Not tried: L-BFGS or BFGS started from the one Hessian (which would borrow the paper's idea), tuned step sizes
# for gradient descent and accelerated gradient descent (both use the worst-case $1/L_1$, as the paper's
# comparison does), a problem whose Hessian changes along the path enough that refreshing it is required, and a
# start where the Hessian is indefinite.
#
# ## What the miniature cannot show
#
# * The $\epsilon^{-9/4}$ and $\Delta$ dependence: our instances reach a well-conditioned minimum, after which
#   every accelerated or quasi-Newton method's count grows only logarithmically in $1/\epsilon$.
# * The $d^{1/3}$ bounded-dimension result, approximate Hessians, and the recovered
#   $\epsilon^{-7/4}$ bound (headlines 3 and 4).
# * The paper's device for non-convexity: the Hessian is positive definite at every start (smallest
#   eigenvalue {glue:text}`hmin0:.2f` on (a), {glue:text}`hmin0_c:.2f` on (c)), so the $|\lambda|$ fold in
#   $\phi$ is never exercised by the one-Hessian tests.
# * The regime where one Hessian stands in for many gradients. At ci the one-Hessian method needs
#   {glue:text}`g_1` gradients on (a) in dimension $d =$ {glue:text}`d`, and a Hessian costs $d + 1$ gradients
#   by finite differences, so here a Hessian costs a number of gradients comparable to the whole run; and a
#   full-memory quasi-Newton method can learn the whole curvature from about $d$ gradients. The paper's bounds
#   matter where the gradient counts are much larger than $d$, which our sizes do not reach.
# * The paper's own constants, step rules and Hessian schedule, which we could not read: the method here is
#   built from the abstract and a third-party summary, and the page shows that one of its tests turns on the
#   constant in $\phi$.
# * Worst-case behaviour: the paper's claims are upper bounds over all functions in a class; a few random
#   instances of two problems can show that an algorithm behaves as its bound allows, not that the bound is
#   tight or that a baseline without such a bound (BFGS, L-BFGS) is worse on every instance.
# * Whether extra Hessians pay off where the Hessian drifts a lot along the path: on our problems one
#   Hessian, trusted further, does most of what the budget does.
