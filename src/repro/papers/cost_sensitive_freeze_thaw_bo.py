r"""Cost-sensitive freeze-thaw Bayesian optimisation (CFBO).

Paper map
---------
*Cost-Sensitive Freeze-thaw Bayesian Optimization for Efficient Hyperparameter Tuning*, D. B. Lee,
A. S. Zhang, B. Kim, J. Park, S. Adriaensen, J. Lee, S. J. Hwang, H. B. Lee, NeurIPS 2025, arXiv 2510.21379;
official code https://github.com/db-Lee/CFBO (read at 33a6bbf: ``algorithm/cfbo.py`` ``CFBO.hpo``,
``algorithm/base.py`` ``_compute_stop_sign``, ``utils.py`` ``get_utility_function``).
Notebook: ``notebooks/cost-sensitive-freeze-thaw-bo.py``.

Notation (paper / official code -> here):

- budget spent :math:`b` (epochs trained, all configurations together), total budget :math:`B`, best score so
  far :math:`\tilde y_b`; utility :math:`U(b, \tilde y_b) = \tilde y_b - \alpha (b/B)^c`, :math:`-\infty` beyond
  :math:`B`: :func:`utility`;
- :math:`K` sampled future learning curves per configuration, shape (..., n_cfg, K, T); configuration
  :math:`x` has :math:`m_x` observed epochs; :math:`u_{x,t} = U(b + t - m_x + 1, \operatorname{cummax}_{t' \le t}
  \max(\hat y_{x,t'}, \tilde y_b))` for the unobserved epochs :math:`t \ge m_x` (0-based);
  acquisition :math:`a(x) = \max_t \mathbb E[(u_{x,t} - U_{now})^+]` and
  :math:`p(x) = \max_t P(u_{x,t} \ge U_{now})`: :func:`cfbo_acquisition`;
- stop when :math:`(u_{max} - U_{now})/(u_{max} - u_{min}) \ge I_{p^*}(e^\beta, e^\beta)^\gamma`,
  :math:`\gamma = -\log_2(\text{threshold})`: :func:`stop_threshold`, :func:`cfbo_should_stop`;
- freeze-thaw baseline: expected improvement of the final value, :func:`final_value_ei`; the official baselines'
  fixed-threshold stop: :func:`threshold_stop_budget`;
- naive baselines (none of the paper's ideas): one epoch of a random configuration, :func:`one_epoch_runs`; one
  epoch of every configuration, then the best one until it stops improving, :func:`first_epoch_patience_runs`;
  early stopping with patience on the incumbent, :func:`patience_stop_budget` (also on FT-BO's trajectory); the best
  of k random first epochs, then stop, :func:`best_of_k_first_epochs_runs`; a warm-start visiting order from other
  tasks' ranks, :func:`source_visit_order` (``run_freeze_thaw(..., visit_order=...)``), and the configuration that
  ranked best there, one epoch, then stop, :func:`source_best_one_epoch_runs`;
- stopping diagnostics: the rule's left-hand side along a trajectory, :func:`stop_ratio_trace`; the :math:`p^*` a
  bar requires, :func:`p_star_for_bar`; what the rule needs in a window of budgets, :func:`stop_window_requirement`;
  the brief's regret of a stop on its own trajectory, :func:`trajectory_regret`;
- surrogate (our stand-in for the paper's LC-PFN): the Bayesian power law
  :math:`y_t = y_\infty + (y_1 - y_\infty) t^{-\kappa} + \varepsilon`, Gaussian prior on :math:`(y_\infty, y_1)`,
  a grid prior on :math:`\kappa`: :class:`PowerLawPrior`, :func:`curve_posterior`, :func:`sample_future_curves`;
  transfer = a prior meta-learned from other tasks' curves: :func:`fit_source_prior`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import scipy.special
import scipy.stats
from numpy.typing import ArrayLike

from repro.validate import check_int, check_positive

METHODS = ("cfbo", "ftbo")


# ----------------------------------------------------------------------------- utility, acquisition, stop
def utility(b: ArrayLike, y_best: ArrayLike, alpha: float, c: float, total_budget: float) -> np.ndarray:
    r"""The paper's utility :math:`U(b, \tilde y_b) = \tilde y_b - \alpha (b/B)^c`; :math:`-\infty` where :math:`b > B`.

    Broadcasts ``b`` (budget spent, epochs) against ``y_best`` (best score so far). Used by
    ``notebooks/cost-sensitive-freeze-thaw-bo.py`` for every method's realised utility.
    """
    if not 0.0 <= alpha or not np.isfinite(alpha):
        raise ValueError(f"alpha must be >= 0; got {alpha}")
    check_positive(c, "c")
    check_positive(total_budget, "total_budget")
    b = np.asarray(b, dtype=float)
    y = np.asarray(y_best, dtype=float)
    if np.any(b < 0):
        raise ValueError("the budget b must be >= 0")
    u = y - alpha * (b / total_budget) ** c
    return np.where(b > total_budget, -np.inf, u)


def cfbo_acquisition(curve_samples: ArrayLike, n_observed: ArrayLike, budget_spent: ArrayLike,
                     best_score: ArrayLike, *, alpha: float, c: float,
                     total_budget: float) -> tuple[np.ndarray, np.ndarray]:
    r"""CFBO's acquisition :math:`a(x) = \max_t \mathbb E[(u_{x,t} - U_{now})^+]` and :math:`p(x)` (official ``hpo``).

    Each sampled curve is floored at the current best score, masked on the epochs already observed (no utility is
    taken from the past), turned into its running maximum and scored with :func:`utility` at the budget it would
    cost to train configuration ``x`` up to epoch ``t``: :math:`b + (t - m_x + 1)`.

    Parameters
    ----------
    curve_samples : array_like, shape (..., n_cfg, K, T)
        Sampled (predictive) scores of every configuration at epochs 1..T.
    n_observed : array_like of int, shape (..., n_cfg)
        Epochs already observed per configuration, :math:`m_x \in [0, T]`.
    budget_spent, best_score : array_like, shape (...)
        :math:`b` and :math:`\tilde y_b` of each run.
    alpha, c, total_budget : float
        The utility's parameters.

    Returns
    -------
    acq, prob : ndarray, shape (..., n_cfg)
        Zero for a configuration that is fully trained.
    """
    s = np.asarray(curve_samples, dtype=float)
    if s.ndim < 3:
        raise ValueError(f"curve_samples must have shape (..., n_cfg, K, T); got {s.shape}")
    T = s.shape[-1]
    m = np.asarray(n_observed)
    if m.shape != s.shape[:-2] or not np.issubdtype(m.dtype, np.integer) or m.min() < 0 or m.max() > T:
        raise ValueError(f"n_observed must be integers in [0, {T}] with shape {s.shape[:-2]}; got {m.shape}")
    spent = np.asarray(budget_spent, dtype=float)[..., None, None, None]
    best = np.asarray(best_score, dtype=float)[..., None, None, None]
    t = np.arange(T)
    mm = m[..., None, None]
    future = t >= mm                                               # (..., n_cfg, 1, T)
    y = np.where(future, np.maximum(s, best), -np.inf)             # clamp_min(best); past epochs -> -inf
    y = np.maximum.accumulate(y, axis=-1)                          # cummax over t
    budget = np.where(future, spent + (t - mm + 1), 0.0)
    with np.errstate(invalid="ignore"):
        u = np.where(future, utility(budget, np.where(future, y, 0.0), alpha, c, total_budget), -np.inf)
    u_now = utility(spent[..., 0, 0, 0], best[..., 0, 0, 0], alpha, c, total_budget)[..., None, None, None]
    gain = np.maximum(u - u_now, 0.0)
    acq = gain.mean(axis=-2).max(axis=-1)
    prob = (u >= u_now).mean(axis=-2).max(axis=-1)
    return acq, prob


def stop_threshold(p: ArrayLike, beta: float = -1.0, threshold: float = 0.2) -> np.ndarray:
    r"""The right-hand side of CFBO's stopping rule, :math:`I_p(e^\beta, e^\beta)^{\gamma}`, :math:`\gamma = -\log_2`
    ``threshold`` (official defaults :math:`\beta = -1`, threshold 0.2). At :math:`p = 1/2` it equals ``threshold``,
    the fixed ratio the official baselines stop at (:func:`threshold_stop_budget`).
    """
    p = np.asarray(p, dtype=float)
    if np.any((p < 0) | (p > 1)):
        raise ValueError("p must lie in [0, 1]")
    if not 0.0 < threshold < 1.0:
        raise ValueError(f"threshold must lie in (0, 1); got {threshold}")
    a = float(np.exp(beta))
    return scipy.special.betainc(a, a, p) ** (-np.log2(threshold))        # the Beta(a, a) CDF at p


def _regret_ratio(u_max: ArrayLike, u_min: ArrayLike, u_now: ArrayLike) -> np.ndarray:
    """:math:`(u_{max} - U_{now})/(u_{max} - u_{min})`, :math:`-\\infty` where :math:`u_{max} \\approx u_{min}`."""
    u_max, u_min, u_now = (np.asarray(v, dtype=float) for v in (u_max, u_min, u_now))
    den = u_max - u_min
    flat = np.isclose(u_max, u_min)
    return np.where(flat, -np.inf, (u_max - u_now) / np.where(flat, 1.0, den))


def cfbo_should_stop(u_max: ArrayLike, u_min: ArrayLike, u_now: ArrayLike, p_best: ArrayLike,
                     beta: float = -1.0, threshold: float = 0.2) -> np.ndarray:
    r"""CFBO's stopping rule: stop when :math:`(u_{max} - U_{now})/(u_{max} - u_{min}) \ge` :func:`stop_threshold`
    of :math:`p^*`, the improvement probability of the configuration the acquisition picked.

    ``u_max`` is the best utility reached so far, ``u_min`` the utility of the first score at the full budget
    (official ``observe``). With :math:`p^* = 0` the rule always stops; with :math:`p^* = 1` it stops only when
    :math:`U_{now} = u_{min}`. Broadcasts; returns a bool array.
    """
    return _regret_ratio(u_max, u_min, u_now) >= stop_threshold(p_best, beta, threshold)


def threshold_stop_budget(incumbent: ArrayLike, alpha: float, c: float, total_budget: float,
                          threshold: float = 0.2) -> np.ndarray:
    r"""First budget at which the official baselines' fixed rule :math:`(u_{max} - U_{now})/(u_{max} - u_{min}) \ge`
    ``threshold`` fires, for runs whose best-so-far score after each epoch is ``incumbent`` (shape (..., n_steps)).

    As in the official loop, the rule is checked before each new epoch from the second on; the run that never fires
    stops at ``n_steps``. Returns the budget spent at the stop, shape (...).
    """
    inc = np.asarray(incumbent, dtype=float)
    n = inc.shape[-1]
    b = np.arange(1, n + 1)
    u = utility(b, inc, alpha, c, total_budget)
    u_max = np.maximum.accumulate(u, axis=-1)
    u_min = utility(total_budget, inc[..., :1], alpha, c, total_budget)
    fire = _regret_ratio(u_max, u_min, u) >= threshold
    fire[..., -1] = True
    return np.argmax(fire, axis=-1) + 1


def final_value_ei(curve_samples: ArrayLike, n_observed: ArrayLike, best_score: ArrayLike) -> np.ndarray:
    r"""Freeze-thaw baseline acquisition: expected improvement of the *final* score, :math:`\mathbb E[(\hat y_{x,T} -
    \tilde y)^+]`, by Monte Carlo over the same samples; :math:`-\infty` for a configuration already fully trained.

    Shapes as in :func:`cfbo_acquisition`; returns (..., n_cfg).
    """
    s = np.asarray(curve_samples, dtype=float)
    m = np.asarray(n_observed)
    if s.ndim < 3 or m.shape != s.shape[:-2]:
        raise ValueError("curve_samples (..., n_cfg, K, T) and n_observed (..., n_cfg) do not match")
    best = np.asarray(best_score, dtype=float)[..., None, None]
    ei = np.maximum(s[..., -1] - best, 0.0).mean(axis=-1)
    return np.where(m < s.shape[-1], ei, -np.inf)


# ----------------------------------------------------------------------------- surrogate: Bayesian power law
@dataclass(frozen=True)
class PowerLawPrior:
    r"""Prior of the power-law curve model :math:`y_t = y_\infty(1 - t^{-\kappa}) + y_1 t^{-\kappa} + \varepsilon`.

    Attributes
    ----------
    mean : ndarray, shape (2,) or (n_cfg, 2)
        Prior mean of :math:`(y_\infty, y_1)` (per configuration for a transfer prior).
    cov : ndarray, shape (2, 2)
    kappas : ndarray, shape (G,)
        The grid of decay exponents.
    log_weights : ndarray, shape (G,)
        Prior log-probabilities of the grid points.
    noise_sd : float
        :math:`\sigma` of the observation noise :math:`\varepsilon`.
    """

    mean: np.ndarray
    cov: np.ndarray
    kappas: np.ndarray
    log_weights: np.ndarray
    noise_sd: float


def generic_prior(n_grid: int = 24) -> PowerLawPrior:
    r"""A weak prior for accuracies: :math:`y_\infty \sim N(0.7, 0.3^2)`, :math:`y_1 \sim N(0.5, 0.3^2)`,
    :math:`\kappa` uniform on a log grid over [0.05, 5], :math:`\sigma = 0.02` (our defaults, fixed before any run)."""
    check_int(n_grid, "n_grid", least=2)
    kappas = np.geomspace(0.05, 5.0, n_grid)
    return PowerLawPrior(np.array([0.7, 0.5]), np.diag([0.3 ** 2, 0.3 ** 2]), kappas,
                         np.full(n_grid, -np.log(n_grid)), 0.02)


def _design(kappas: np.ndarray, T: int) -> np.ndarray:
    """Features :math:`(1 - t^{-\\kappa}, t^{-\\kappa})` for t = 1..T, shape (G, T, 2)."""
    phi = np.arange(1, T + 1)[None, :] ** (-kappas[:, None])
    return np.stack([1.0 - phi, phi], axis=-1)


def curve_posterior(y_obs: ArrayLike, n_observed: ArrayLike, prior: PowerLawPrior
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Exact posterior of the power-law model given each configuration's observed prefix.

    For every grid value :math:`\kappa_g` the model is a Bayesian linear regression on :math:`(y_\infty, y_1)`:
    precision :math:`P = \Sigma_0^{-1} + \Phi^\top\Phi/\sigma^2`, mean :math:`\mu = P^{-1}(\Sigma_0^{-1}\mu_0 +
    \Phi^\top y/\sigma^2)`; the grid weights are the prior weights times the marginal likelihood
    :math:`N(y; \Phi\mu_0, \Phi\Sigma_0\Phi^\top + \sigma^2 I)`, computed through the 2x2 identities.

    Parameters
    ----------
    y_obs : array_like, shape (..., n_cfg, T)
        Scores; only the first ``n_observed`` epochs of each row are read.
    n_observed : array_like of int, shape (..., n_cfg)

    Returns
    -------
    log_w : ndarray, shape (..., n_cfg, G)
        Normalised posterior log-weights of the grid.
    mu : ndarray, shape (..., n_cfg, G, 2)
    cov : ndarray, shape (..., n_cfg, G, 2, 2)
    """
    y = np.asarray(y_obs, dtype=float)
    m = np.asarray(n_observed)
    T = y.shape[-1]
    if m.shape != y.shape[:-1] or m.min(initial=0) < 0 or m.max(initial=0) > T:
        raise ValueError(f"n_observed must have shape {y.shape[:-1]} with values in [0, {T}]")
    mask = (np.arange(T) < m[..., None]).astype(float)
    y = np.where(mask > 0, y, 0.0)
    X = _design(prior.kappas, T)                                            # (G, T, 2)
    s2 = prior.noise_sd ** 2
    G = len(prior.kappas)
    XX = (X[..., :, None] * X[..., None, :]).transpose(1, 0, 2, 3).reshape(T, G * 4)
    S = (mask @ XX).reshape(m.shape + (G, 2, 2)) / s2                         # (..., n_cfg, G, 2, 2)
    h_obs = ((mask * y) @ X.transpose(1, 0, 2).reshape(T, G * 2)).reshape(m.shape + (G, 2)) / s2
    L0 = np.linalg.inv(prior.cov)
    mu0 = np.broadcast_to(prior.mean, m.shape + (2,))[..., None, :]         # (..., n_cfg, 1, 2)
    P = L0 + S
    h = (L0 @ mu0[..., None])[..., 0] + h_obs
    detP = P[..., 0, 0] * P[..., 1, 1] - P[..., 0, 1] * P[..., 1, 0]
    Pinv = np.stack([np.stack([P[..., 1, 1], -P[..., 0, 1]], -1),
                     np.stack([-P[..., 1, 0], P[..., 0, 0]], -1)], -2) / detP[..., None, None]
    mu = (Pinv @ h[..., None])[..., 0]
    yy = np.sum(mask * y * y, axis=-1)[..., None] / s2
    quad0 = np.einsum("...k,kl,...l->...", mu0, L0, mu0)
    quadn = np.einsum("...k,...k->...", mu, h)
    logev = -0.5 * (m[..., None] * np.log(2 * np.pi * s2) + yy + quad0 - quadn
                    + np.log(detP) + np.log(np.linalg.det(prior.cov)))
    log_w = prior.log_weights + logev
    log_w = log_w - scipy.special.logsumexp(log_w, axis=-1, keepdims=True)
    return log_w, mu, Pinv


def sample_future_curves(y_obs: ArrayLike, n_observed: ArrayLike, prior: PowerLawPrior, n_samples: int,
                         rng: np.random.Generator) -> np.ndarray:
    r"""Draw ``n_samples`` predictive learning curves per configuration from :func:`curve_posterior`.

    A grid point :math:`\kappa` is drawn from the posterior weights, then :math:`(y_\infty, y_1)` from its Gaussian,
    then observation noise; scores are clipped to [0, 1]. Returns shape (..., n_cfg, K, T).
    """
    check_int(n_samples, "n_samples", least=1)
    y = np.asarray(y_obs, dtype=float)
    T = y.shape[-1]
    log_w, mu, cov = curve_posterior(y, n_observed, prior)
    cdf = np.cumsum(np.exp(log_w), axis=-1)                                  # (..., n_cfg, G)
    u = rng.random(log_w.shape[:-1] + (n_samples,))
    g = np.minimum(np.sum(u[..., None] > cdf[..., None, :] / cdf[..., -1:, None], axis=-1), len(prior.kappas) - 1)
    mu_g = np.take_along_axis(mu, g[..., None], axis=-2)                     # (..., n_cfg, K, 2)
    C = np.take_along_axis(cov, g[..., None, None], axis=-3)                 # (..., n_cfg, K, 2, 2)
    l11 = np.sqrt(np.maximum(C[..., 0, 0], 0.0))
    l21 = C[..., 1, 0] / np.where(l11 > 0, l11, 1.0)
    l22 = np.sqrt(np.maximum(C[..., 1, 1] - l21 ** 2, 0.0))
    z = rng.standard_normal(g.shape + (2,))
    a = mu_g[..., 0] + l11 * z[..., 0]
    b = mu_g[..., 1] + l21 * z[..., 0] + l22 * z[..., 1]
    phi = np.arange(1, T + 1)[None, :] ** (-prior.kappas[:, None])           # (G, T)
    ph = phi[g]                                                             # (..., n_cfg, K, T)
    curves = a[..., None] * (1.0 - ph) + b[..., None] * ph
    curves = curves + prior.noise_sd * rng.standard_normal(curves.shape)
    return np.clip(curves, 0.0, 1.0)


def fit_source_prior(source_curves: ArrayLike, base: PowerLawPrior | None = None, min_sd: float = 0.01
                     ) -> PowerLawPrior:
    r"""Transfer: a per-configuration prior meta-learned from other tasks' complete curves (MAP shrinkage).

    Each source curve is fitted under ``base`` (:func:`generic_prior` by default): MAP grid point and the posterior
    mean of :math:`(y_\infty, y_1)` there. The new prior has, per configuration, the mean of its fits over the
    source tasks; one covariance pooled over configurations (the spread of a configuration's fits across tasks,
    floored at ``min_sd``); grid weights from the histogram of MAP exponents (add-one smoothed); and the pooled
    residual sd of the fits as noise (floored at 0.005).

    Parameters
    ----------
    source_curves : array_like, shape (n_tasks, n_cfg, T)
        Complete learning curves of the same configurations on other tasks (n_tasks >= 2).
    """
    Y = np.asarray(source_curves, dtype=float)
    if Y.ndim != 3 or Y.shape[0] < 2:
        raise ValueError(f"source_curves must have shape (n_tasks >= 2, n_cfg, T); got {Y.shape}")
    base = base or generic_prior()
    n_tasks, n_cfg, T = Y.shape
    log_w, mu, _ = curve_posterior(Y, np.full((n_tasks, n_cfg), T), base)
    g = np.argmax(log_w, axis=-1)                                            # (n_tasks, n_cfg)
    theta = np.take_along_axis(mu, g[..., None, None], axis=-2)[..., 0, :]   # (n_tasks, n_cfg, 2)
    mean = theta.mean(axis=0)
    dev = (theta - mean).reshape(-1, 2)
    cov = dev.T @ dev / (n_cfg * (n_tasks - 1)) + min_sd ** 2 * np.eye(2)
    counts = np.bincount(g.ravel(), minlength=len(base.kappas)) + 1.0
    X = _design(base.kappas, T)[g]                                           # (n_tasks, n_cfg, T, 2)
    resid = Y - np.einsum("...tk,...k->...t", X, theta)
    noise = max(float(np.sqrt(np.mean(resid ** 2))), 0.005)
    return PowerLawPrior(mean, cov, base.kappas, np.log(counts / counts.sum()), noise)


def permuted_prior(prior: PowerLawPrior, rng: np.random.Generator) -> PowerLawPrior:
    """Control for transfer: the same prior with its per-configuration means shuffled across configurations."""
    mean = np.asarray(prior.mean)
    if mean.ndim != 2:
        raise ValueError("permuting needs a per-configuration prior mean of shape (n_cfg, 2)")
    return replace(prior, mean=mean[rng.permutation(len(mean))])


# ----------------------------------------------------------------------------- the benchmark
def config_grid() -> list[dict[str, Any]]:
    """The 48 ``SGDClassifier`` configurations: alpha x eta0 x learning_rate x penalty (4 x 3 x 2 x 2)."""
    return [dict(alpha=a, eta0=e, learning_rate=lr, penalty=p)
            for a in (1e-4, 1e-3, 1e-2, 1e-1) for e in (3e-4, 3e-3, 3e-2)
            for lr in ("constant", "invscaling") for p in ("l2", "l1")]


def config_features(configs: list[dict[str, Any]]) -> np.ndarray:
    """Configurations as points of the unit cube (log10 alpha, log10 eta0, invscaling?, l1?), shape (n_cfg, 4)."""
    F = np.array([[np.log10(c["alpha"]), np.log10(c["eta0"]), c["learning_rate"] == "invscaling",
                   c["penalty"] == "l1"] for c in configs], dtype=float)
    span = F.max(0) - F.min(0)
    return (F - F.min(0)) / np.where(span > 0, span, 1.0)


DATASETS = ("digits", "wine", "breast_cancer")


def make_lc_benchmark(dataset_name: str, configs: list[dict[str, Any]], n_epochs: int, seed: int) -> np.ndarray:
    """Tabular learning curves: validation accuracy after each epoch of ``SGDClassifier(loss="log_loss").partial_fit``.

    A stratified half of the scikit-learn dataset is for training (standardised), the other half for validation.
    Returns shape (n_cfg, n_epochs).
    """
    from sklearn import datasets
    from sklearn.linear_model import SGDClassifier
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler

    if dataset_name not in DATASETS:
        raise ValueError(f"dataset_name must be one of {DATASETS}; got {dataset_name!r}")
    check_int(n_epochs, "n_epochs", least=1)
    X, y = getattr(datasets, f"load_{dataset_name}")(return_X_y=True)
    Xtr, Xva, ytr, yva = train_test_split(X, y, test_size=0.5, stratify=y, random_state=seed)
    scaler = StandardScaler().fit(Xtr)
    Xtr, Xva = scaler.transform(Xtr), scaler.transform(Xva)
    classes = np.unique(y)
    out = np.empty((len(configs), n_epochs))
    for i, cfg in enumerate(configs):
        clf = SGDClassifier(loss="log_loss", random_state=seed + i, **cfg)
        rs = np.random.default_rng(seed + i)
        for t in range(n_epochs):
            order = rs.permutation(len(ytr))
            clf.partial_fit(Xtr[order], ytr[order], classes=classes)
            out[i, t] = clf.score(Xva, yva)
    return out


# ----------------------------------------------------------------------------- runs
def _pick(acq: np.ndarray, valid: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Argmax of ``acq`` over valid configurations, ties (within 1e-12) broken uniformly at random."""
    score = np.where(valid, acq, -np.inf)
    top = valid & (score >= score.max(axis=-1, keepdims=True) - 1e-12)
    return np.argmax(np.where(top, 1.0 + rng.random(acq.shape), 0.0), axis=-1)


def run_freeze_thaw(curves: ArrayLike, method: str, prior: PowerLawPrior, total_budget: int, *, alpha: float,
                    c: float, n_samples: int, rng: np.random.Generator, beta: float = -1.0,
                    threshold: float = 0.2, visit_order: ArrayLike | None = None) -> dict[str, np.ndarray]:
    r"""Run freeze-thaw HPO on tabular curves, one epoch per step, for ``total_budget`` steps (all runs in lockstep).

    ``method`` ``"cfbo"`` picks by :func:`cfbo_acquisition` and records the first budget at which
    :func:`cfbo_should_stop` fires (the run goes on, as the official ``--not_stop`` does, so that the whole
    trajectory is known); ``"ftbo"`` picks by :func:`final_value_ei` and has no stop of its own (see
    :func:`threshold_stop_budget`). The first configuration is drawn from the prior's samples like any other.

    Bookkeeping as in the official ``observe`` and ``run_bo.py``: :math:`u_{min} = U(B, \text{first score})`;
    :math:`u_{max}` is the best utility reached after each epoch; the rule is checked before every epoch from the
    second on, with :math:`p^*` the improvement probability of the configuration about to be trained, and a stop
    that fires before epoch ``step + 1`` is recorded as ``step`` epochs spent (official ``stop_budget = budget - 1``).

    Parameters
    ----------
    curves : array_like, shape (R, n_cfg, T)
        The benchmark each of the R runs optimises (the same table repeated for seeds).
    visit_order : array_like of int, shape (n_cfg,), optional
        A warm-start order of the configurations (a naive transfer baseline: the configurations that ranked best on
        other tasks first). Whenever the acquisition picks a configuration not trained yet, the first untrained one
        in this order is trained instead, and :math:`p^*` is read from it. Meant for a prior shared by every
        configuration (:func:`generic_prior`), under which the untrained configurations are exchangeable and the
        acquisition tells them apart only by Monte Carlo noise. ``None``: the acquisition's own pick.

    Returns
    -------
    dict with ``incumbent`` (R, B), best score after each epoch; ``choice`` (R, B); ``stop`` (R,), the budget
    spent when CFBO's rule first fired (``B`` if never; only for ``"cfbo"``); ``p`` (R, B), :math:`p^*` per step;
    ``u_min`` (R,) and ``u_max`` (R, B), the stopping rule's bounds after each epoch.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}; got {method!r}")
    Y = np.asarray(curves, dtype=float)
    if Y.ndim != 3:
        raise ValueError(f"curves must have shape (R, n_cfg, T); got {Y.shape}")
    R, n_cfg, T = Y.shape
    B = check_int(total_budget, "total_budget", least=2)
    if B > n_cfg * T:
        raise ValueError(f"total_budget {B} exceeds the {n_cfg * T} epochs of the benchmark")
    if visit_order is not None:
        if method != "cfbo":
            raise ValueError("visit_order is a variant of CFBO's runs (method='cfbo')")
        visit_order = np.asarray(visit_order)
        if visit_order.shape != (n_cfg,) or sorted(visit_order.tolist()) != list(range(n_cfg)):
            raise ValueError(f"visit_order must be a permutation of the {n_cfg} configurations")
    m = np.zeros((R, n_cfg), dtype=int)
    best = np.zeros(R)
    u_max, u_min = np.full(R, -np.inf), np.full(R, np.inf)
    inc, choice, ps = np.zeros((R, B)), np.zeros((R, B), dtype=int), np.zeros((R, B))
    u_max_trace = np.zeros((R, B))
    stop = np.full(R, B)
    rows = np.arange(R)
    for step in range(B):
        samples = sample_future_curves(Y, m, prior, n_samples, rng)   # reads only observed prefixes of Y
        valid = m < T
        if method == "cfbo":
            acq, prob = cfbo_acquisition(samples, m, step, best, alpha=alpha, c=c, total_budget=B)
            j = _pick(acq, valid, rng)
            if visit_order is not None:
                fresh = m[:, visit_order] == 0                             # (R, n_cfg) in the warm-start order
                first_fresh = visit_order[np.argmax(fresh, axis=1)]
                j = np.where((m[rows, j] == 0) & fresh.any(axis=1), first_fresh, j)
            p = np.where(valid[rows, j], prob[rows, j], 0.0)
            ps[:, step] = p
            if step > 0:
                u_now = utility(step, best, alpha, c, B)
                fire = cfbo_should_stop(u_max, u_min, u_now, p, beta, threshold) & (stop == B)
                stop[fire] = step
        else:
            j = _pick(final_value_ei(samples, m, best), valid, rng)
        score = Y[rows, j, m[rows, j]]
        m[rows, j] += 1
        best = np.maximum(best, score)
        if step == 0:
            u_min = utility(B, score, alpha, c, B)
        u_max = np.maximum(u_max, utility(step + 1, best, alpha, c, B))
        inc[:, step], choice[:, step], u_max_trace[:, step] = best, j, u_max
    return {"incumbent": inc, "choice": choice, "stop": stop, "p": ps, "u_min": u_min, "u_max": u_max_trace}


def full_training_incumbent(curves: ArrayLike, order: ArrayLike, total_budget: int) -> np.ndarray:
    """Best score after each epoch when configurations are trained to completion one after another in ``order``
    (random search, plain BO). ``curves`` (n_cfg, T), ``order`` (n,) -> (total_budget,)."""
    Y = np.asarray(curves, dtype=float)
    order = np.asarray(order, dtype=int)
    flat = Y[order].ravel()
    B = check_int(total_budget, "total_budget", least=1)
    if len(flat) < B:
        raise ValueError(f"order trains only {len(flat)} epochs, fewer than the budget {B}")
    return np.maximum.accumulate(flat[:B])


def one_epoch_runs(curves: ArrayLike, total_budget: int) -> dict[str, np.ndarray]:
    r"""Naive baseline: train one configuration for a single epoch, then stop (no model, no acquisition).

    The pick is a configuration drawn uniformly at random; rather than draw it, every configuration is taken once,
    so that the mean over the returned runs is the exact expectation over that draw. After the stop the trajectory
    goes on (the configuration to its last epoch, then the others in index order) only so that it has ``B`` entries;
    those epochs are never read at the stop.

    Parameters
    ----------
    curves : array_like, shape (n_cfg, T)
    total_budget : int
        :math:`B`; the benchmark must hold at least ``B`` epochs.

    Returns
    -------
    dict with ``incumbent`` (n_cfg, B) and ``stop`` (n_cfg,), all 1.
    """
    Y = np.asarray(curves, dtype=float)
    if Y.ndim != 2:
        raise ValueError(f"curves must have shape (n_cfg, T); got {Y.shape}")
    n_cfg = len(Y)
    B = check_int(total_budget, "total_budget", least=1)
    inc = np.stack([full_training_incumbent(Y, [i, *(k for k in range(n_cfg) if k != i)], B) for i in range(n_cfg)])
    return {"incumbent": inc, "stop": np.ones(n_cfg, dtype=int)}


def patience_stop_budget(incumbent: ArrayLike, patience: int = 1) -> np.ndarray:
    r"""Naive stopping rule: the first budget after which the best score has not improved for ``patience``
    consecutive epochs (early stopping with patience, applied to the search's incumbent); ``B`` if it never fires.

    ``incumbent`` (..., B), the best score after each epoch; returns the budget spent at the stop, shape (...).
    With ``patience = 1`` it stops at the first epoch :math:`b \ge 2` with :math:`\tilde y_b \le \tilde y_{b-1}`.
    """
    inc = np.asarray(incumbent, dtype=float)
    check_int(patience, "patience", least=1)
    n = inc.shape[-1]
    if n < 1:
        raise ValueError("incumbent needs at least one epoch")
    flat = np.concatenate([np.zeros(inc.shape[:-1] + (1,), dtype=bool), np.diff(inc, axis=-1) <= 0], axis=-1)
    run = np.zeros(inc.shape[:-1], dtype=int)
    stop = np.full(inc.shape[:-1], n)
    for b in range(n):
        run = np.where(flat[..., b], run + 1, 0)
        stop = np.where((run >= patience) & (stop == n), b + 1, stop)
    return stop


def first_epoch_patience_runs(curves: ArrayLike, total_budget: int, n_runs: int, rng: np.random.Generator,
                              patience: int = 1) -> dict[str, np.ndarray]:
    r"""Naive baseline: train every configuration for one epoch (in random order), then continue the one with the
    best first-epoch score until ``patience`` consecutive epochs of it do not improve its best score, and stop
    (or at its last epoch). A one-shot successive-halving to a single survivor, with early stopping; no model.

    After the stop the trajectory goes on (the other configurations to completion, best first epoch first) only so
    that it has ``B`` entries; those epochs are never read at the stop.

    Parameters
    ----------
    curves : array_like, shape (n_cfg, T)
    total_budget : int
        :math:`B \ge n_{cfg}`, within the benchmark's epochs.
    n_runs : int
        Runs; they differ only in the order of the first epochs (ties of the best first score go to the earlier).

    Returns
    -------
    dict with ``incumbent`` (n_runs, B) and ``stop`` (n_runs,).
    """
    Y = np.asarray(curves, dtype=float)
    if Y.ndim != 2:
        raise ValueError(f"curves must have shape (n_cfg, T); got {Y.shape}")
    n_cfg, T = Y.shape
    B = check_int(total_budget, "total_budget", least=1)
    check_int(n_runs, "n_runs", least=1)
    check_int(patience, "patience", least=1)
    if not n_cfg <= B <= n_cfg * T:
        raise ValueError(f"total_budget must lie in [n_cfg, n_cfg * T] = [{n_cfg}, {n_cfg * T}]; got {B}")
    inc, stop = np.zeros((n_runs, B)), np.zeros(n_runs, dtype=int)
    for r in range(n_runs):
        order = rng.permutation(n_cfg)
        j = order[int(np.argmax(Y[order, 0]))]
        scores = list(Y[order, 0])
        since, t = 0, 1
        while t < T and len(scores) < B:
            scores.append(Y[j, t])
            since = 0 if Y[j, t] > max(Y[j, :t]) else since + 1
            t += 1
            if since >= patience:
                break
        stop[r] = len(scores)
        rest = [k for k in np.argsort(-Y[:, 0], kind="stable") if k != j]
        tail = np.concatenate([Y[j, t:], Y[rest, 1:].ravel()])
        inc[r] = np.maximum.accumulate(np.concatenate([scores, tail])[:B])
    return {"incumbent": inc, "stop": stop}


def best_of_k_first_epochs_runs(curves: ArrayLike, total_budget: int, k: int) -> dict[str, np.ndarray]:
    r"""Naive baseline: train ``k`` configurations drawn at random for one epoch each, keep the best first score, and
    stop after :math:`k` epochs (no model, no acquisition, no stopping rule: a one-round random search on the first
    epoch). ``k = 1`` is :func:`one_epoch_runs`.

    Rather than draw the subset, every one of the :math:`\binom{n}{k}` subsets is taken once, so that the mean over
    the returned runs is the exact expectation over the draw. Before the stop the subset is trained in index order;
    after it nothing more is trained and the trajectory is held at its best score, only so that it has ``B``
    entries (those entries are never read at the stop).

    Parameters
    ----------
    curves : array_like, shape (n_cfg, T)
    total_budget : int
        :math:`B \ge k`.
    k : int
        Configurations tried, :math:`1 \le k \le n_{cfg}`.

    Returns
    -------
    dict with ``incumbent`` (n_subsets, B) and ``stop`` (n_subsets,), all ``k``.
    """
    import itertools

    Y = np.asarray(curves, dtype=float)
    if Y.ndim != 2:
        raise ValueError(f"curves must have shape (n_cfg, T); got {Y.shape}")
    n_cfg = len(Y)
    check_int(k, "k", least=1)
    if k > n_cfg:
        raise ValueError(f"k must lie in [1, n_cfg = {n_cfg}]; got {k}")
    B = check_int(total_budget, "total_budget", least=k)
    subsets = np.array(list(itertools.combinations(range(n_cfg), k)), dtype=int)     # (n_subsets, k)
    first = np.maximum.accumulate(Y[subsets, 0], axis=1)                              # best first score so far
    inc = np.concatenate([first, np.repeat(first[:, -1:], B - k, axis=1)], axis=1)
    return {"incumbent": inc, "stop": np.full(len(subsets), k)}


def source_best_one_epoch_runs(curves: ArrayLike, source_curves: ArrayLike, total_budget: int
                               ) -> dict[str, np.ndarray]:
    r"""Naive transfer baseline: train, for one epoch, the configuration that ranked best on the other tasks (the first
    of :func:`source_visit_order`, the "average rank" warm start of transfer HPO), then stop. No model, no
    acquisition; deterministic, so a single run.

    After the stop the trajectory goes on (that configuration to its end, then the others in the source order) only
    so that it has ``B`` entries; those epochs are never read at the stop.

    Parameters
    ----------
    curves : array_like, shape (n_cfg, T)
        The target task.
    source_curves : array_like, shape (n_tasks, n_cfg, T)
        The same configurations on the other tasks.
    total_budget : int

    Returns
    -------
    dict with ``incumbent`` (1, B), ``stop`` (1,), equal to 1, and ``config``, the configuration trained.
    """
    Y = np.asarray(curves, dtype=float)
    S = np.asarray(source_curves, dtype=float)
    if Y.ndim != 2 or S.ndim != 3 or S.shape[1:] != Y.shape:
        raise ValueError(f"curves (n_cfg, T) and source_curves (n_tasks, n_cfg, T) do not match: {Y.shape}, {S.shape}")
    order = source_visit_order(S)
    inc = full_training_incumbent(Y, order, total_budget)
    return {"incumbent": inc[None], "stop": np.ones(1, dtype=int), "config": int(order[0])}


def stop_ratio_trace(incumbent: ArrayLike, alpha: float, c: float, total_budget: float) -> np.ndarray:
    r"""The left-hand side of CFBO's stopping rule after each epoch of a trajectory,
    :math:`(u_{max} - U_{now})/(u_{max} - u_{min})`, with :math:`u_{max}` the best utility so far and
    :math:`u_{min} = U(B, \text{first score})` (official ``observe`` and ``_compute_stop_sign``).

    ``incumbent`` (..., n_steps), the best score after each epoch; returns (..., n_steps); entry ``b - 1`` is the
    ratio the rule compares with its bar after ``b`` epochs. :math:`-\infty` where :math:`u_{max} = u_{min}`.
    """
    inc = np.asarray(incumbent, dtype=float)
    if inc.ndim < 1 or inc.shape[-1] < 1:
        raise ValueError("incumbent needs at least one epoch")
    b = np.arange(1, inc.shape[-1] + 1)
    u = utility(b, inc, alpha, c, total_budget)
    u_max = np.maximum.accumulate(u, axis=-1)
    u_min = utility(total_budget, inc[..., :1], alpha, c, total_budget)
    return _regret_ratio(u_max, u_min, u)


def p_star_for_bar(bar: ArrayLike, beta: float = -1.0, threshold: float = 0.2) -> np.ndarray:
    r"""The inverse of :func:`stop_threshold`: the improvement probability :math:`p^*` at which CFBO's bar
    :math:`I_{p}(e^\beta, e^\beta)^\gamma` equals ``bar`` (in [0, 1]). The bar increases in :math:`p`, so the rule
    can fire at a left-hand side ``bar`` only if :math:`p^* \le` this value."""
    bar = np.asarray(bar, dtype=float)
    if np.any(~((bar >= 0) & (bar <= 1))):
        raise ValueError("bar must lie in [0, 1]")
    if not 0.0 < threshold < 1.0:
        raise ValueError(f"threshold must lie in (0, 1); got {threshold}")
    a = float(np.exp(beta))
    return scipy.special.betaincinv(a, a, bar ** (1.0 / -np.log2(threshold)))


def stop_window_requirement(incumbent: ArrayLike, p_star: ArrayLike, lo: ArrayLike, hi: ArrayLike, alpha: float,
                            c: float, total_budget: int, beta: float = -1.0, threshold: float = 0.2
                            ) -> dict[str, np.ndarray]:
    r"""What CFBO's rule would need in order to fire in a window of budgets :math:`[lo, hi]`, and what it had there.

    The rule fires after :math:`b` epochs when :func:`stop_ratio_trace` at :math:`b` reaches the bar
    :func:`stop_threshold` of :math:`p^*_b`, the improvement probability read before epoch :math:`b + 1`
    (``run_freeze_thaw``'s ``p[:, b]``; checked for :math:`1 \le b < B`). In the window, the highest bar that the
    ratio can meet is its largest value there, ``bar_needed``; the rule can fire in the window only if some
    :math:`p^*_b \le` ``p_needed`` = :func:`p_star_for_bar` (``bar_needed``). ``p_window`` is the smallest
    :math:`p^*_b` the run had in the window: where it exceeds ``p_needed``, the rule cannot fire there.

    Parameters
    ----------
    incumbent : array_like, shape (R, B)
        Best score after each epoch.
    p_star : array_like, shape (R, B)
        :math:`p^*` per step (entry ``b``: read after ``b`` epochs).
    lo, hi : array_like of int, shape (R,)
        The window of budgets (inclusive); clipped to :math:`[1, B - 1]`; it must hold at least one budget.

    Returns
    -------
    dict of (R,) arrays: ``bar_needed``, ``p_needed``, ``p_window`` and ``fires`` (whether the rule's condition
    holds at some budget of the window).
    """
    inc = np.asarray(incumbent, dtype=float)
    p = np.asarray(p_star, dtype=float)
    if inc.ndim != 2 or p.shape != inc.shape:
        raise ValueError(f"incumbent and p_star must both have shape (R, B); got {inc.shape}, {p.shape}")
    R, B = inc.shape
    lo = np.maximum(np.asarray(lo, dtype=int), 1)
    hi = np.minimum(np.asarray(hi, dtype=int), B - 1)
    if lo.shape != (R,) or hi.shape != (R,) or np.any(lo > hi):
        raise ValueError("lo and hi must have shape (R,) and leave at least one budget in [1, B - 1]")
    b = np.arange(B)                                                      # column b: after b epochs
    inside = (b >= lo[:, None]) & (b <= hi[:, None])
    ratio = np.concatenate([np.full((R, 1), -np.inf), stop_ratio_trace(inc, alpha, c, total_budget)[:, :-1]], 1)
    bar_needed = np.clip(np.where(inside, ratio, -np.inf).max(axis=1), 0.0, 1.0)
    fires = np.any(inside & (ratio >= stop_threshold(p, beta, threshold)), axis=1)
    return {"bar_needed": bar_needed, "p_needed": p_star_for_bar(bar_needed, beta, threshold),
            "p_window": np.where(inside, p, np.inf).min(axis=1), "fires": fires}


def trajectory_regret(incumbent: ArrayLike, stop: ArrayLike, alpha: float, c: float, total_budget: float
                      ) -> np.ndarray:
    r"""The brief's normalised regret of a stop on its own trajectory, :math:`(U^\star_{traj} - U_{stop}) /
    (U^\star_{traj} - u_{min})`, with :math:`U^\star_{traj} = \max_b U(b, \tilde y_b)` along the trajectory and
    :math:`u_{min} = U(B, \text{first score})`. 0: stopped at the trajectory's best budget.

    ``incumbent`` (..., B), ``stop`` (...) in [1, B]; returns (...). Needs :math:`U^\star_{traj} > u_{min}` (true
    for :math:`\alpha > 0`).
    """
    inc = np.asarray(incumbent, dtype=float)
    b = np.arange(1, inc.shape[-1] + 1)
    u_star = np.max(utility(b, inc, alpha, c, total_budget), axis=-1)
    u_min = utility(total_budget, inc[..., 0], alpha, c, total_budget)
    if np.any(~(u_star > u_min)):
        raise ValueError("the trajectory's best utility must exceed u_min (alpha > 0)")
    return (u_star - realised_utility(inc, stop, alpha, c, total_budget)) / (u_star - u_min)


def source_visit_order(source_curves: ArrayLike) -> np.ndarray:
    r"""Naive transfer: the configurations ordered by their mean rank of final score over other tasks, best first
    (the "average rank" warm start of transfer HPO, with no model of the curves). Ties keep index order.

    ``source_curves`` (n_tasks, n_cfg, T) -> a permutation of the configurations, shape (n_cfg,).
    """
    Y = np.asarray(source_curves, dtype=float)
    if Y.ndim != 3 or Y.shape[0] < 1:
        raise ValueError(f"source_curves must have shape (n_tasks, n_cfg, T); got {Y.shape}")
    ranks = scipy.stats.rankdata(-Y[..., -1], axis=-1)                     # 1 = best on that task
    return np.argsort(ranks.mean(axis=0), kind="stable")


def plain_bo_order(curves: ArrayLike, features: ArrayLike, n_evals: int, n_init: int,
                   rng: np.random.Generator) -> np.ndarray:
    """Plain (not freeze-thaw) BO over the discrete configurations: each evaluation trains a configuration to its
    final epoch; ``n_init`` random configurations, then botorch's analytic log-EI of a ``SingleTaskGP`` (fitted by
    marginal likelihood) on the final scores. Returns the order of the ``n_evals`` configurations, shape (n_evals,).
    """
    import torch
    from botorch.acquisition.analytic import LogExpectedImprovement
    from botorch.exceptions.warnings import InputDataWarning
    from botorch.fit import fit_gpytorch_mll
    from botorch.models import SingleTaskGP
    from gpytorch.mlls import ExactMarginalLogLikelihood

    Y = np.asarray(curves, dtype=float)
    Xf = torch.as_tensor(np.asarray(features, dtype=float))
    n_cfg = len(Y)
    check_int(n_init, "n_init", least=1)
    if not n_init <= n_evals <= n_cfg:
        raise ValueError(f"need n_init <= n_evals <= n_cfg; got {n_init}, {n_evals}, {n_cfg}")
    chosen = list(rng.choice(n_cfg, size=n_init, replace=False))
    while len(chosen) < n_evals:
        X = Xf[chosen]
        y = torch.as_tensor(Y[chosen, -1])[:, None]
        with warnings.catch_warnings():   # equal final scores (std 0) are legitimate data here
            warnings.simplefilter("ignore", InputDataWarning)
            gp = SingleTaskGP(X, y)
            fit_gpytorch_mll(ExactMarginalLogLikelihood(gp.likelihood, gp))
        rest = [i for i in range(n_cfg) if i not in chosen]
        with torch.no_grad():
            ei = LogExpectedImprovement(gp, best_f=y.max())(Xf[rest][:, None, :]).numpy()
        chosen.append(rest[int(np.argmax(ei))])
    return np.asarray(chosen)


# ----------------------------------------------------------------------------- measures
def realised_utility(incumbent: ArrayLike, stop: ArrayLike, alpha: float, c: float, total_budget: float
                     ) -> np.ndarray:
    """:math:`U(b_{stop}, \\tilde y_{b_{stop}})` for runs with best-so-far ``incumbent`` (..., B) stopped after
    ``stop`` (...) epochs (at least 1)."""
    inc = np.asarray(incumbent, dtype=float)
    s = np.asarray(stop, dtype=int)
    if np.any(s < 1) or np.any(s > inc.shape[-1]):
        raise ValueError("stop must lie in [1, B]")
    y = np.take_along_axis(inc, (s - 1)[..., None], axis=-1)[..., 0]
    return utility(s, y, alpha, c, total_budget)


def best_budget_on_trajectory(incumbent: ArrayLike, alpha: float, c: float, total_budget: float) -> np.ndarray:
    """The budget :math:`\\arg\\max_b U(b, \\tilde y_b)` along each trajectory, shape (...)."""
    inc = np.asarray(incumbent, dtype=float)
    b = np.arange(1, inc.shape[-1] + 1)
    return np.argmax(utility(b, inc, alpha, c, total_budget), axis=-1) + 1


def oracle_utility_range(curves: ArrayLike, alpha: float, c: float, total_budget: float) -> tuple[float, float]:
    """The official normalisation (``run_bo.py``): :math:`u_{max} = \\max_{x,t} U(t, y_{x,t})` (the right configuration
    trained alone) and :math:`u_{min} = \\min_x U(B, y_{x,1})`. ``curves`` (n_cfg, T)."""
    Y = np.asarray(curves, dtype=float)
    t = np.arange(1, Y.shape[-1] + 1)
    return (float(np.max(utility(t, Y, alpha, c, total_budget))),
            float(np.min(utility(total_budget, Y[:, 0], alpha, c, total_budget))))


def normalised_regret(u: ArrayLike, u_max: float, u_min: float) -> np.ndarray:
    """:math:`(u_{max} - u)/(u_{max} - u_{min})` (official ``norm_utilities``); 0 is the oracle, 1 the worst start."""
    if not u_max > u_min:
        raise ValueError(f"need u_max > u_min; got {u_max}, {u_min}")
    return (u_max - np.asarray(u, dtype=float)) / (u_max - u_min)
