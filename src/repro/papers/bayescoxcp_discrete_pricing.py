r"""BayesCoxCP-lite: contextual pricing on a discrete price grid with a Bayesian Cox proportional-hazards model.

Paper map
---------
*A Bayesian Approach to Contextual Dynamic Pricing using the Proportional Hazards Model with Discrete
Price Data* (BayesCoxCP), NeurIPS 2025 poster, OpenReview ``qpFAZyMhwz``
(https://openreview.net/forum?id=qpFAZyMhwz). Authors not found; no official code found. We read the
abstract only: the Bayesian machinery below (Laplace approximation, Thompson sampling, refresh schedule,
priors) is **our stand-in** designed from the reproduction brief, not the paper's procedure.
Notebook: ``notebooks/bayescoxcp-discrete-pricing.py``.

Notation (paper / brief -> here):

- covariates :math:`x_t\in\mathbb R^d` -> ``X[r, t]`` (replicate ``r``, round ``t``)
- price grid :math:`p_1<\dots<p_K`, :math:`K=\lceil T^\gamma\rceil` -> ``grid`` (shape ``(K,)``)
- valuation survival :math:`S(p\mid x)=S_0(p)^{\exp(x^\top\beta)}` (Cox PH), a sale at price :math:`p`
  iff the valuation is :math:`\ge p` -> :func:`cox_survival`; the truth in our experiments has the
  exponential baseline :math:`S_0(p)=e^{-\lambda p}` (``lam``), so :math:`S(p\mid x)=\exp(-\lambda p\,e^{x^\top\beta})`
- baseline log cumulative hazard on the grid :math:`a_k=\log\Lambda_0(p_k)` -> ``a`` (shape ``(K,)``);
  it is parametrised as ``a = basis @ c`` with ``basis`` the identity (one free value per grid price:
  the discrete model) or the hat functions of :func:`hat_basis` on a coarser set of knots (a
  continuous-price model that ignores where the grid points are)
- sale indicator :math:`y_t=\mathbb 1\{v_t\ge p_t\}` -> ``y[r, t]``; the price index -> ``k_idx[r, t]``
- regret :math:`\sum_t \max_k p_kS(p_k\mid x_t)-p_tS(p_t\mid x_t)` -> :func:`expected_regret` (per round,
  from the true model: no sampling noise in the metric)

With :math:`\eta=a_{k}+x^\top\beta`, :math:`P(y=1)=\exp(-e^{\eta})`: a binary GLM with the complementary
log-log link (:func:`cloglog_terms`), which is what makes a Laplace approximation with Fisher scoring
cheap and vectorised (:func:`laplace_posterior`).

Comparators (none of them the paper's): :func:`explore_then_commit` (the CoxCP-like continuous-price
method, or explore-then-commit on the grid model), :func:`thompson_pricing` with a :func:`hat_basis`
(grid-blind Thompson sampling), ``sample=False`` (greedy) or ``link="logit"`` (the same sampler with a
proportional-odds instead of a proportional-hazards model, :func:`logit_terms`),
:func:`epsilon_greedy_pricing` (the Cox grid model with decaying forced exploration),
:func:`per_price_thompson` (one logistic regression per grid price, no Cox structure),
:func:`beta_bernoulli_pricing` (non-contextual) and :func:`uniform_pricing` (the null policy).

Every simulation is vectorised over ``R`` replicates run in lock step; the only Python loops are over
posterior refreshes (a geometric schedule, :func:`refresh_times`) and Newton iterations.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from repro.validate import check_int, check_positive, finite_array

ETA_CLIP = (-30.0, 6.0)  # linear predictor clipped here: exp(-e^6) ~ 1e-175, e^-30 ~ 1e-13
LOGIT_CLIP = (-30.0, 30.0)  # the logit link's clip: sigma(-30) ~ 1e-13


# --------------------------------------------------------------------------- validation helpers
def _check_grid(grid: ArrayLike, sorted_: bool = True) -> np.ndarray:
    g = finite_array(grid, "grid", ndim=1)
    if g.size < 1:
        raise ValueError("grid must hold at least one price")
    if np.any(g <= 0):
        raise ValueError("grid prices must be > 0")
    if sorted_ and np.any(np.diff(g) <= 0):
        raise ValueError("grid must be strictly increasing")
    return g


def _check_x_beta(x: ArrayLike, beta: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    b = finite_array(beta, "beta", ndim=1)
    xx = finite_array(x, "x")
    if xx.ndim < 1 or xx.shape[-1] != b.size:
        raise ValueError(f"x must have shape (..., d) with d = len(beta) = {b.size}; got {xx.shape}")
    return xx, b


# --------------------------------------------------------------------------- the true model
def cox_survival(grid: ArrayLike, x: ArrayLike, beta: ArrayLike, lam: float) -> np.ndarray:
    r"""Sale probability :math:`S(p_k\mid x)=\exp(-\lambda p_k e^{x^\top\beta})` at every grid price.

    The Cox proportional-hazards valuation model with exponential baseline survival
    :math:`S_0(p)=e^{-\lambda p}` and hazard multiplier :math:`e^{x^\top\beta}`.

    Parameters
    ----------
    grid : array_like, shape (K,)
        Positive prices (any order).
    x : array_like, shape (..., d)
        Covariates; any batch shape.
    beta : array_like, shape (d,)
    lam : float
        Baseline hazard rate, > 0.

    Returns
    -------
    ndarray, shape (..., K)
    """
    g = _check_grid(grid, sorted_=False)
    xx, b = _check_x_beta(x, beta)
    lam = check_positive(lam, "lam")
    m = np.exp(xx @ b)
    return np.exp(-lam * g * m[..., None])


def revenue_curve(grid: ArrayLike, x: ArrayLike, beta: ArrayLike, lam: float) -> np.ndarray:
    r"""Expected revenue :math:`p_k\,S(p_k\mid x)` at every grid price; shape ``(..., K)`` (see :func:`cox_survival`)."""
    g = _check_grid(grid, sorted_=False)
    return g * cox_survival(g, x, beta, lam)


def _optimal_index_sorted(m: np.ndarray, lam: float, g: np.ndarray) -> np.ndarray:
    """Index into the increasing grid ``g`` of the revenue-maximising price for hazard multipliers ``m``.

    ``log(p e^{-lam m p}) = log p - lam m p`` is strictly concave in ``p`` with its maximum at
    ``p* = 1 / (lam m)``, so the best grid price is one of the two grid neighbours of ``p*``;
    a tie goes to the lower price (as ``np.argmax`` over the increasing grid would).
    """
    pstar = 1.0 / (lam * m)
    hi = np.clip(np.searchsorted(g, pstar), 0, g.size - 1)
    lo = np.clip(hi - 1, 0, g.size - 1)
    # compare log revenues: log p - lam m p (no underflow for large m)
    rlo = np.log(g[lo]) - lam * m * g[lo]
    rhi = np.log(g[hi]) - lam * m * g[hi]
    return np.where(rlo >= rhi, lo, hi)


def optimal_grid_index(x: ArrayLike, beta: ArrayLike, lam: float, grid: ArrayLike) -> np.ndarray:
    r"""Index into the strictly increasing ``grid`` of :func:`optimal_grid_price`; shape ``x.shape[:-1]``."""
    g = _check_grid(grid)
    xx, b = _check_x_beta(x, beta)
    lam = check_positive(lam, "lam")
    return _optimal_index_sorted(np.exp(xx @ b), lam, g)


def optimal_grid_price(x: ArrayLike, beta: ArrayLike, lam: float, grid: ArrayLike) -> np.ndarray | float:
    r"""The revenue-maximising grid price under :math:`S(p\mid x)=\exp(-\lambda p\,e^{x^\top\beta})`.

    Returns :math:`\arg\max_{p\in\text{grid}} p\,\exp(-\lambda p\,e^{x^\top\beta})`. Because
    :math:`\log p-\lambda e^{x^\top\beta}p` is strictly concave with maximum at
    :math:`p^*=e^{-x^\top\beta}/\lambda` (the continuous optimum), only the two grid neighbours of
    :math:`p^*` are compared: :math:`O(\log K)` per covariate vector instead of :math:`O(K)`.

    Batching: ``x`` may be one covariate vector, shape ``(d,)`` (a float is returned), or any batch
    ``(..., d)`` (an array of shape ``x.shape[:-1]`` is returned, one price per row); ``beta`` (shape
    ``(d,)``), ``lam`` (a scalar > 0) and ``grid`` are shared by the batch.

    Parameters
    ----------
    x : array_like, shape (d,) or (..., d)
    beta : array_like, shape (d,)
    lam : float
        Baseline hazard rate, > 0.
    grid : array_like, shape (K,)
        Positive prices, any order, no duplicates needed (ties go to the lower price).

    Returns
    -------
    float or ndarray of shape ``x.shape[:-1]``
        Grid prices.
    """
    g = _check_grid(grid, sorted_=False)
    gs = np.unique(g)  # sorted, duplicates removed
    xx, b = _check_x_beta(x, beta)
    lam = check_positive(lam, "lam")
    p = gs[_optimal_index_sorted(np.exp(xx @ b), lam, gs)]
    return float(p) if xx.ndim == 1 else p


# --------------------------------------------------------------------------- the environment
@dataclass(frozen=True)
class PricingEnv:
    """``R`` independent replicates of a ``T``-round pricing problem (the truth and its randomness).

    Attributes
    ----------
    grid : ndarray (K,)      increasing feasible prices
    beta : ndarray (d,)      true coefficients
    lam : float              true exponential baseline rate
    X : ndarray (R, T, d)    covariates, ``N(0, I_d / d)``
    U : ndarray (R, T)       uniforms: a sale at price ``p`` iff ``U < S(p | x)`` (common random numbers
                             shared by every policy run on this environment)
    """

    grid: np.ndarray
    beta: np.ndarray
    lam: float
    X: np.ndarray
    U: np.ndarray

    @property
    def shape(self) -> tuple[int, int]:
        return self.U.shape  # (R, T)

    def sales(self, k_idx: np.ndarray, t0: int) -> np.ndarray:
        """Sale indicators of prices ``grid[k_idx]`` posted in rounds ``t0 .. t0 + L - 1``; ``k_idx`` (R, L)."""
        L = k_idx.shape[1]
        S = np.exp(-self.lam * self.grid[k_idx] * np.exp(self.X[:, t0:t0 + L] @ self.beta))
        return (self.U[:, t0:t0 + L] < S).astype(float)


def make_env(T: int, grid: ArrayLike, beta: ArrayLike, lam: float, n_rep: int,
             seed: int | np.random.SeedSequence | list) -> PricingEnv:
    r"""Draw covariates :math:`x_t\sim N(0, I_d/d)` and sale uniforms for ``n_rep`` replicates of ``T`` rounds.

    Parameters
    ----------
    T, n_rep : int
        Rounds and replicates (>= 1).
    grid : array_like (K,), strictly increasing positive prices
    beta : array_like (d,)
    lam : float > 0
    seed : anything ``np.random.default_rng`` accepts
    """
    T = check_int(T, "T", least=1)
    n_rep = check_int(n_rep, "n_rep", least=1)
    g = _check_grid(grid)
    b = finite_array(beta, "beta", ndim=1)
    lam = check_positive(lam, "lam")
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n_rep, T, b.size)) / np.sqrt(b.size)
    U = rng.random((n_rep, T))
    return PricingEnv(g, b, lam, X, U)


def expected_regret(k_idx: ArrayLike, env: PricingEnv) -> np.ndarray:
    r"""Per-round expected regret :math:`\max_k p_kS(p_k\mid x_t)-p_{k_t}S(p_{k_t}\mid x_t)` of a price path.

    Computed exactly from the true model (no sampling noise). ``k_idx`` (R, T) indexes ``env.grid``;
    returns (R, T), every entry >= 0.
    """
    k = np.asarray(k_idx)
    if k.shape != env.shape or not np.issubdtype(k.dtype, np.integer):
        raise ValueError(f"k_idx must be an integer array of shape {env.shape}; got {k.dtype} {k.shape}")
    if k.min() < 0 or k.max() >= env.grid.size:
        raise ValueError("k_idx out of the grid's range")
    m = np.exp(env.X @ env.beta)
    kstar = _optimal_index_sorted(m, env.lam, env.grid)
    g = env.grid
    rev = lambda kk: g[kk] * np.exp(-env.lam * g[kk] * m)  # noqa: E731
    return np.maximum(rev(kstar) - rev(k), 0.0)


# --------------------------------------------------------------------------- the statistical model
def hat_basis(grid: ArrayLike, knots: ArrayLike) -> np.ndarray:
    r"""Piecewise-linear interpolation weights of the grid prices on the knots (hat functions).

    Row ``k`` holds the weights with which the value at ``grid[k]`` is interpolated from the values at
    the knots (constant beyond the end knots); ``basis @ c`` is the piecewise-linear function with
    values ``c`` at the knots. Rows sum to 1. Shape ``(K, J)``.
    """
    g = _check_grid(grid)
    kn = _check_grid(knots)
    J = kn.size
    B = np.zeros((g.size, J))
    if J == 1:
        B[:, 0] = 1.0
        return B
    gc = np.clip(g, kn[0], kn[-1])
    j = np.clip(np.searchsorted(kn, gc, side="right") - 1, 0, J - 2)
    w = (gc - kn[j]) / (kn[j + 1] - kn[j])
    rows = np.arange(g.size)
    B[rows, j] += 1.0 - w
    B[rows, j + 1] += w
    return B


def cloglog_terms(eta: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Log-likelihood, score and observed information of one current-status observation, per entry.

    With :math:`\mu=e^\eta` and :math:`P(y=1)=e^{-\mu}` (a sale):

    * :math:`\ell=-\mu` if :math:`y=1`, :math:`\log(1-e^{-\mu})` if :math:`y=0`;
    * :math:`\partial\ell/\partial\eta=-\mu` if :math:`y=1`, :math:`\mu/(e^\mu-1)` if :math:`y=0`;
    * :math:`-\partial^2\ell/\partial\eta^2=\mu` if :math:`y=1`,
      :math:`\mu(\mu e^\mu-e^\mu+1)/(e^\mu-1)^2\ge0` if :math:`y=0` (both terms are concave in
      :math:`\eta`: the Gumbel CDF and its complement are log-concave).

    ``eta`` is clipped to :data:`ETA_CLIP` first. Returns three arrays of the broadcast shape.
    """
    e = np.clip(np.asarray(eta, dtype=float), *ETA_CLIP)
    yy = np.asarray(y, dtype=float)
    mu = np.exp(e)
    em1 = np.expm1(mu)
    sale = yy > 0.5
    # log(1 - e^{-mu}) accurately at both ends (the usual log1mexp switch at mu = ln 2)
    ll = np.where(sale, -mu, np.where(mu < np.log(2.0), np.log(-np.expm1(-mu)), np.log1p(-np.exp(-mu))))
    score = np.where(sale, -mu, mu / em1)
    # y = 0: three forms of mu (mu e^mu - e^mu + 1) / (e^mu - 1)^2, each where it is accurate and finite:
    # the series mu e^mu - (e^mu - 1) = mu^2/2 + mu^3/3 + mu^4/8 + ... for small mu (cancellation),
    # the direct form up to mu = 1, and mu (mu - 1 + e^-mu) e^-mu / (1 - e^-mu)^2 beyond (no overflow)
    ms = np.minimum(mu, 1.0)
    ems = np.expm1(ms)
    num = np.where(ms < 1e-3, ms * ms * (0.5 + ms / 3 + ms * ms / 8), ms * np.exp(ms) - ems)
    small = ms * num / (ems * ems)
    ml = np.maximum(mu, 1.0)
    large = ml * (ml - 1.0 + np.exp(-ml)) * np.exp(-ml) / np.expm1(-ml) ** 2
    info = np.where(sale, mu, np.where(mu <= 1.0, small, large))
    return ll, score, info


def logit_terms(eta: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Log-likelihood, score and observed information of one sale under the logit link, per entry.

    The proportional-odds counterpart of :func:`cloglog_terms` (the ablation of the proportional-hazards
    structure): the sale probability is :math:`P(y=1)=\sigma(-\eta)=1/(1+e^{\eta})`, so that, with per-price
    intercepts :math:`a_k` and a shared :math:`\beta`, :math:`\eta=a_k+x^\top\beta` is the log-odds of
    *no* sale (a logistic valuation model, McCullagh 1980, instead of Cox's). With :math:`s=\sigma(\eta)`:

    * :math:`\ell=-\log(1+e^{\eta})` if :math:`y=1`, :math:`-\log(1+e^{-\eta})` if :math:`y=0`;
    * :math:`\partial\ell/\partial\eta=-s` if :math:`y=1`, :math:`1-s` if :math:`y=0`;
    * :math:`-\partial^2\ell/\partial\eta^2=s(1-s)` for both.

    ``eta`` is clipped to :data:`LOGIT_CLIP` first. Returns three arrays of the broadcast shape.
    """
    e = np.clip(np.asarray(eta, dtype=float), *LOGIT_CLIP)
    yy = np.asarray(y, dtype=float)
    s = 0.5 * (1.0 + np.tanh(0.5 * e))  # sigma(eta), stable
    sale = yy > 0.5
    ll = np.where(sale, -np.logaddexp(0.0, e), -np.logaddexp(0.0, -e))
    score = np.where(sale, -s, 1.0 - s)
    return ll, score, s * (1.0 - s)


LINKS = {"cloglog": cloglog_terms, "logit": logit_terms}


def _link_terms(link: str):
    if link not in LINKS:
        raise ValueError(f"link must be one of {tuple(LINKS)}; got {link!r}")
    return LINKS[link]


def sale_log_probability(eta: ArrayLike, link: str = "cloglog") -> np.ndarray:
    r"""Log sale probability at linear predictor :math:`\eta`: :math:`-e^{\eta}` (cloglog, the Cox model) or
    :math:`-\log(1+e^{\eta})` (logit, proportional odds); ``eta`` clipped as in the matching ``*_terms``."""
    _link_terms(link)
    if link == "cloglog":
        return -np.exp(np.clip(np.asarray(eta, dtype=float), *ETA_CLIP))
    return -np.logaddexp(0.0, np.clip(np.asarray(eta, dtype=float), *LOGIT_CLIP))


def random_walk_prior(positions: ArrayLike, d: int, sd_first: float = 2.0, rw_sd: float | None = 1.0,
                      sd_beta: float = 2.0, a0: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    r"""Gaussian prior on :math:`\theta=(c,\beta)`: mean (J + d,) and precision matrix (J + d, J + d).

    The baseline values :math:`c_j` at increasing ``positions`` :math:`q_j` (the grid prices, or the
    knots of a :func:`hat_basis`) follow a random walk, :math:`c_1\sim N(a_0, s_1^2)` and
    :math:`c_j-c_{j-1}\sim N(0,\tau^2(q_j-q_{j-1}))` (a Brownian motion in price, the Gaussian analogue
    of independent gamma hazard increments: nearby prices share information, distant ones hardly);
    ``rw_sd=None`` makes them independent, :math:`c_j\sim N(a_0,s_1^2)`. Independently
    :math:`\beta\sim N(0,s_\beta^2I_d)`.
    """
    q = finite_array(positions, "positions", ndim=1)
    if q.size < 1 or np.any(np.diff(q) <= 0):
        raise ValueError("positions must be strictly increasing")
    d = check_int(d, "d", least=0)
    s1 = check_positive(sd_first, "sd_first")
    sb = check_positive(sd_beta, "sd_beta")
    J = q.size
    P = np.zeros((J + d, J + d))
    if rw_sd is None:
        P[:J, :J] = np.eye(J) / s1 ** 2
    else:
        tau = check_positive(rw_sd, "rw_sd")
        # rows of the difference operator: c_1 / s1, (c_j - c_{j-1}) / (tau sqrt(dq))
        Dm = np.zeros((J, J))
        Dm[0, 0] = 1.0 / s1
        sd = tau * np.sqrt(np.diff(q))
        Dm[np.arange(1, J), np.arange(1, J)] = 1.0 / sd
        Dm[np.arange(1, J), np.arange(J - 1)] = -1.0 / sd
        P[:J, :J] = Dm.T @ Dm
    P[J:, J:] = np.eye(d) / sb ** 2
    m = np.concatenate([np.full(J, float(a0)), np.zeros(d)])
    return m, P


def _batch(basis, k_idx, X, y):
    B = finite_array(basis, "basis", ndim=2)
    k = np.asarray(k_idx)
    XX = finite_array(X, "X")
    yy = finite_array(y, "y")
    single = k.ndim == 1
    if single:
        k, XX, yy = k[None], XX[None], yy[None]
    if k.ndim != 2 or XX.ndim != 3 or yy.shape != k.shape or XX.shape[:2] != k.shape:
        raise ValueError(f"need k_idx (R, n), X (R, n, d), y (R, n) (or without R); got "
                         f"{np.shape(k_idx)}, {np.shape(X)}, {np.shape(y)}")
    if not np.issubdtype(k.dtype, np.integer) or (k.size and (k.min() < 0 or k.max() >= B.shape[0])):
        raise ValueError(f"k_idx must hold integer grid indices in [0, {B.shape[0]})")
    if not np.all((yy == 0) | (yy == 1)):
        raise ValueError("y must hold 0/1 sale indicators")
    return B, k, XX, yy, single


def _eta(theta, B, k, X):
    J = B.shape[1]
    a = theta[:, :J] @ B.T  # (R, K)
    return np.take_along_axis(a, k, axis=1) + np.einsum("rnd,rd->rn", X, theta[:, J:])


def current_status_loglik(theta: ArrayLike, basis: ArrayLike, k_idx: ArrayLike, X: ArrayLike,
                          y: ArrayLike, link: str = "cloglog") -> np.ndarray | float:
    r"""Log-likelihood :math:`\sum_t\ell(a_{k_t}+x_t^\top\beta; y_t)` of current-status sales data.

    Parameters
    ----------
    theta : array_like, shape (R, J + d) or (J + d,)
        Baseline coefficients ``c`` (``a = basis @ c``) followed by ``beta``.
    basis : array_like, shape (K, J)
    k_idx : int array (R, n) or (n,); X (R, n, d) or (n, d); y (R, n) or (n,) with 0/1 entries
    link : {"cloglog", "logit"}
        The Cox model's complementary log-log link (:func:`cloglog_terms`, default) or the proportional-odds
        logit link (:func:`logit_terms`).

    Returns
    -------
    ndarray (R,) or float
    """
    terms = _link_terms(link)
    B, k, XX, yy, single = _batch(basis, k_idx, X, y)
    th = finite_array(theta, "theta")
    th = th[None] if th.ndim == 1 else th
    if th.shape != (k.shape[0], B.shape[1] + XX.shape[2]):
        raise ValueError(f"theta must have shape (R, J + d) = {(k.shape[0], B.shape[1] + XX.shape[2])}; got {th.shape}")
    ll = terms(_eta(th, B, k, XX), yy)[0].sum(axis=1)
    return float(ll[0]) if single else ll


def _score_info(th, B, k, X, y, terms=cloglog_terms):
    """Score (R, D) and observed information (R, D, D) of the log-likelihood, using the one-hot structure."""
    R, n = k.shape
    K, J = B.shape
    d = X.shape[2]
    _, s, w = terms(_eta(th, B, k, X), y)
    flat = (k + K * np.arange(R)[:, None]).ravel()
    # per grid price: sums of scores, of information weights, and of weighted covariates
    s_k = np.bincount(flat, s.ravel(), minlength=R * K).reshape(R, K)
    w_k = np.bincount(flat, w.ravel(), minlength=R * K).reshape(R, K)
    wX = w[..., None] * X
    wx = wX.reshape(R * n, d)
    C = np.stack([np.bincount(flat, wx[:, j], minlength=R * K) for j in range(d)], axis=-1).reshape(R, K, d)
    g = np.concatenate([s_k @ B, (s[:, None, :] @ X)[:, 0, :]], axis=1)
    F = np.empty((R, J + d, J + d))
    F[:, :J, :J] = (B.T[None] * w_k[:, None, :]) @ B
    F[:, :J, J:] = B.T[None] @ C
    F[:, J:, :J] = np.swapaxes(F[:, :J, J:], 1, 2)
    F[:, J:, J:] = np.swapaxes(wX, 1, 2) @ X
    return g, F


def current_status_score_info(theta: ArrayLike, basis: ArrayLike, k_idx: ArrayLike, X: ArrayLike,
                              y: ArrayLike, link: str = "cloglog") -> tuple[np.ndarray, np.ndarray]:
    r"""Gradient of :func:`current_status_loglik` in ``theta`` and minus its Hessian (observed information).

    The information :math:`\sum_t w_t z_tz_t^\top` (:math:`z_t=(B_{k_t},x_t)`, :math:`w_t` from
    :func:`cloglog_terms`) is assembled per grid price with ``np.bincount``: :math:`O(nd^2+KJ^2)`
    instead of :math:`O(n(J+d)^2)`. Returns ``(score (R, D), info (R, D, D))``, without the ``R`` axis
    for unbatched input. ``link``: as in :func:`current_status_loglik`.
    """
    terms = _link_terms(link)
    B, k, XX, yy, single = _batch(basis, k_idx, X, y)
    th = finite_array(theta, "theta")
    th = th[None] if th.ndim == 1 else th
    if th.shape != (k.shape[0], B.shape[1] + XX.shape[2]):
        raise ValueError(f"theta must have shape (R, J + d); got {th.shape}")
    g, F = _score_info(th, B, k, XX, yy, terms)
    return (g[0], F[0]) if single else (g, F)


def _check_prior(prior, D):
    m0, P0 = prior
    m0 = finite_array(m0, "prior mean", ndim=1)
    P0 = finite_array(P0, "prior precision", ndim=2)
    if m0.shape != (D,) or P0.shape != (D, D):
        raise ValueError(f"prior must be (mean (D,), precision (D, D)) with D = J + d = {D}; got {m0.shape}, {P0.shape}")
    return m0, P0


def laplace_posterior(basis: ArrayLike, k_idx: ArrayLike, X: ArrayLike, y: ArrayLike,
                      prior: tuple[ArrayLike, ArrayLike], init: ArrayLike | None = None, max_iter: int = 50,
                      tol: float = 1e-8, link: str = "cloglog") -> tuple[np.ndarray, np.ndarray]:
    r"""Laplace approximation :math:`N(\hat\theta, H^{-1})` of the posterior of :math:`\theta=(c,\beta)`.

    :math:`\hat\theta` maximises log-likelihood + Gaussian log-prior (a strictly concave objective);
    it is found by Newton's method (damped by step halving where the objective would fall), batched
    over the ``R`` replicates. :math:`H` is the observed information plus the prior precision at
    :math:`\hat\theta`.

    Parameters
    ----------
    basis : (K, J); k_idx (R, n) int; X (R, n, d); y (R, n) 0/1 (or all without the R axis)
    prior : (mean (J + d,), precision (J + d, J + d)), e.g. from :func:`random_walk_prior`
    init : (R, J + d), optional, warm start (default: the prior mean)
    max_iter : int; tol : float, stop when every replicate's Newton step is below ``tol`` (max-norm)
    link : {"cloglog", "logit"}
        The sale model's link, as in :func:`current_status_loglik` (both log-likelihoods are concave in
        :math:`\theta`).

    Returns
    -------
    mean : (R, J + d); precision : (R, J + d, J + d) (no R axis for unbatched input)
    """
    terms = _link_terms(link)
    B, k, XX, yy, single = _batch(basis, k_idx, X, y)
    max_iter = check_int(max_iter, "max_iter", least=1)
    tol = check_positive(tol, "tol")
    R, J, d = k.shape[0], B.shape[1], XX.shape[2]
    m0, P0 = _check_prior(prior, J + d)
    if init is None:
        th = np.tile(m0, (R, 1))
    else:
        th = finite_array(init, "init").reshape(R, J + d).copy()

    def objective(t):
        dt = t - m0
        return terms(_eta(t, B, k, XX), yy)[0].sum(axis=1) - 0.5 * np.einsum("ri,ij,rj->r", dt, P0, dt)

    obj = objective(th)
    for _ in range(max_iter):
        g, F = _score_info(th, B, k, XX, yy, terms)
        H = F + P0
        step = np.linalg.solve(H, (g - (th - m0) @ P0)[..., None])[..., 0]
        scale = np.ones(R)
        for _half in range(30):  # step halving, per replicate, where the objective would fall
            new = th + scale[:, None] * step
            new_obj = objective(new)
            bad = new_obj < obj - 1e-13 * np.abs(obj)
            if not bad.any():
                break
            scale = np.where(bad, scale / 2, scale)
        th, obj = new, new_obj
        if np.max(np.abs(scale[:, None] * step)) < tol:
            break
    _, F = _score_info(th, B, k, XX, yy, terms)
    H = F + P0
    return (th[0], H[0]) if single else (th, H)


def refresh_times(T: int, first: int = 20, ratio: float = 1.25) -> np.ndarray:
    r"""Rounds at which the posterior is refitted: ``first`` and then a geometric sequence with ``ratio``.

    Returns the increasing integer array :math:`0=t_0<t_1=\text{first}<t_2<\dots<T` (epoch starts);
    about :math:`\log(T/\text{first})/\log(\text{ratio})` refits.
    """
    T = check_int(T, "T", least=1)
    first = check_int(first, "first", least=1)
    ratio = check_positive(ratio, "ratio")
    if ratio <= 1:
        raise ValueError(f"ratio must be > 1; got {ratio}")
    ts = [0]
    t = float(first)
    while int(np.ceil(t)) < T:
        nxt = int(np.ceil(t))
        if nxt > ts[-1]:
            ts.append(nxt)
        t *= ratio
    return np.array(ts)


def _greedy_index(theta: np.ndarray, B: np.ndarray, grid: np.ndarray, X: np.ndarray, link: str = "cloglog") -> np.ndarray:
    """argmax_k p_k P(sale | a_k + x beta) for parameters theta (R, L, D) or (R, D), X (R, L, d)."""
    J = B.shape[1]
    if theta.ndim == 2:
        theta = theta[:, None, :]
    c = np.ascontiguousarray(theta[..., :J])
    a = (c.reshape(-1, J) @ B.T).reshape(c.shape[:-1] + (B.shape[0],))  # (R, L or 1, K): one 2-D product
    xb = np.einsum("rld,rld->rl", np.broadcast_to(theta[..., J:], X.shape), X)
    if link == "cloglog":
        logrev = np.log(grid) - np.exp(np.clip(a + xb[..., None], *ETA_CLIP))
    else:
        logrev = np.log(grid) + sale_log_probability(a + xb[..., None], link)
    return np.argmax(logrev, axis=-1)


def thompson_pricing(env: PricingEnv, basis: ArrayLike, prior: tuple[ArrayLike, ArrayLike], seed, sample: bool = True,
                     first: int = 20, ratio: float = 1.25, chunk: int = 512, link: str = "cloglog") -> np.ndarray:
    r"""BayesCoxCP-lite: Thompson sampling over the grid from a Laplace posterior refreshed on a schedule.

    In every round :math:`t` of an epoch :math:`[t_j, t_{j+1})` (:func:`refresh_times`) a fresh
    :math:`\tilde\theta_t\sim N(\hat\theta_j, H_j^{-1})` is drawn (the Laplace posterior fitted on the
    data of rounds :math:`<t_j`; the prior before :math:`t_1`) and the posted price is
    :math:`\arg\max_k p_k\exp(-e^{\tilde a_k+x_t^\top\tilde\beta})`. With ``sample=False`` the posterior
    mean is used instead (greedy; the ablation without exploration). Vectorised over replicates and over
    the rounds of an epoch. ``link="logit"`` replaces the Cox model's sale probability
    :math:`\exp(-e^{\eta})` by the proportional-odds :math:`1/(1+e^{\eta})` (:func:`logit_terms`) in both
    the posterior and the pricing rule: the same sampler without the proportional-hazards structure.

    Returns the price indices ``k_idx`` (R, T).
    """
    _link_terms(link)
    B = finite_array(basis, "basis", ndim=2)
    if B.shape[0] != env.grid.size:
        raise ValueError(f"basis must have one row per grid price ({env.grid.size}); got {B.shape}")
    rng = np.random.default_rng(seed)
    R, T = env.shape
    J, d = B.shape[1], env.beta.size
    D = J + d
    m0, P0 = _check_prior(prior, D)
    mean = np.tile(m0, (R, 1))
    chol = np.tile(np.linalg.cholesky(np.linalg.inv(P0)), (R, 1, 1))
    k_idx = np.zeros((R, T), dtype=np.int64)
    y = np.zeros((R, T))
    ts = list(refresh_times(T, first, ratio)) + [T]
    for j in range(len(ts) - 1):
        t0, t1 = ts[j], ts[j + 1]
        if t0 > 0:
            mean, H = laplace_posterior(B, k_idx[:, :t0], env.X[:, :t0], y[:, :t0], (m0, P0), init=mean, link=link)
            if sample:
                chol = np.linalg.cholesky(np.linalg.inv(H))
        for s0 in range(t0, t1, chunk):
            s1 = min(s0 + chunk, t1)
            Xs = env.X[:, s0:s1]
            if sample:
                z = rng.standard_normal((R, s1 - s0, D))
                th = mean[:, None, :] + z @ np.swapaxes(chol, 1, 2)
                k_idx[:, s0:s1] = _greedy_index(th, B, env.grid, Xs, link)
            else:
                k_idx[:, s0:s1] = _greedy_index(mean, B, env.grid, Xs, link)
            y[:, s0:s1] = env.sales(k_idx[:, s0:s1], s0)
    return k_idx


def epsilon_greedy_pricing(env: PricingEnv, basis: ArrayLike, prior: tuple[ArrayLike, ArrayLike], seed,
                           c: float = 1.0, first: int = 20, ratio: float = 1.25) -> np.ndarray:
    r"""Decaying epsilon-greedy on the Cox model: a continuing, non-Bayesian exploration baseline.

    In round :math:`t=1,2,\dots` a uniformly random grid price is posted with probability
    :math:`\varepsilon_t=\min(1,c/\sqrt t)` and otherwise the price that is best under the current MAP
    (:func:`laplace_posterior`, the same model, prior and refit schedule :func:`refresh_times` as
    :func:`thompson_pricing`; the prior mean before the first refit). The :math:`\varepsilon_t\propto
    t^{-1/2}` schedule is the textbook one for a parametric contextual bandit (Auer et al. 2002's
    :math:`\varepsilon_t\propto1/t` decays too fast for a smooth GLM; about :math:`\sqrt T` forced
    explorations in all). It uses the paper's model but none of its Bayesian exploration: exploration is
    forced, spread over the whole horizon instead of a single up-front phase (:func:`explore_then_commit`).

    Parameters
    ----------
    env : PricingEnv
    basis : (K, J); prior : (mean, precision), as in :func:`thompson_pricing`
    seed : anything ``np.random.default_rng`` accepts
    c : float, >= 0
        Exploration constant (``c=0``: greedy on the MAP).

    Returns
    -------
    k_idx : int array (R, T)
    """
    B = finite_array(basis, "basis", ndim=2)
    if B.shape[0] != env.grid.size:
        raise ValueError(f"basis must have one row per grid price ({env.grid.size}); got {B.shape}")
    c = check_positive(c, "c", strict=False)
    rng = np.random.default_rng(seed)
    R, T = env.shape
    m0, P0 = _check_prior(prior, B.shape[1] + env.beta.size)
    mean = np.tile(m0, (R, 1))
    k_idx = np.zeros((R, T), dtype=np.int64)
    y = np.zeros((R, T))
    ts = list(refresh_times(T, first, ratio)) + [T]
    for j in range(len(ts) - 1):
        t0, t1 = ts[j], ts[j + 1]
        if t0 > 0:
            mean, _ = laplace_posterior(B, k_idx[:, :t0], env.X[:, :t0], y[:, :t0], (m0, P0), init=mean)
        kk = _greedy_index(mean, B, env.grid, env.X[:, t0:t1])
        eps = np.minimum(1.0, c / np.sqrt(np.arange(t0, t1) + 1.0))
        explore = rng.random((R, t1 - t0)) < eps
        kk = np.where(explore, rng.integers(0, env.grid.size, size=(R, t1 - t0)), kk)
        k_idx[:, t0:t1] = kk
        y[:, t0:t1] = env.sales(kk, t0)
    return k_idx


def explore_then_commit(env: PricingEnv, basis: ArrayLike, prior: tuple[ArrayLike, ArrayLike], n_explore: int,
                        seed) -> np.ndarray:
    r"""CoxCP-like continuous-price baseline: uniform prices for ``n_explore`` rounds, then greedy on the MAP.

    The exploration length of a method designed for continuous prices, :math:`\lceil T^{2/3}\rceil`, and
    its smoothed baseline (``basis`` from :func:`hat_basis` on :math:`\lceil T^{1/3}\rceil+1` knots) are
    chosen by the caller. Returns ``k_idx`` (R, T).
    """
    B = finite_array(basis, "basis", ndim=2)
    if B.shape[0] != env.grid.size:
        raise ValueError(f"basis must have one row per grid price ({env.grid.size}); got {B.shape}")
    R, T = env.shape
    n_explore = check_int(n_explore, "n_explore", least=1)
    if n_explore > T:
        raise ValueError(f"n_explore ({n_explore}) exceeds the horizon T = {T}")
    rng = np.random.default_rng(seed)
    k_idx = np.empty((R, T), dtype=np.int64)
    k_idx[:, :n_explore] = rng.integers(0, env.grid.size, size=(R, n_explore))
    y = env.sales(k_idx[:, :n_explore], 0)
    if n_explore < T:
        mean, _ = laplace_posterior(B, k_idx[:, :n_explore], env.X[:, :n_explore], y, prior)
        k_idx[:, n_explore:] = _greedy_index(mean, B, env.grid, env.X[:, n_explore:])
    return k_idx


def uniform_pricing(env: PricingEnv, seed) -> np.ndarray:
    """Null policy: a uniformly random grid price every round (learns nothing). Returns ``k_idx`` (R, T)."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, env.grid.size, size=env.shape)


def grid_size(T: int, gamma: float | None, fixed: int = 5) -> int:
    r"""Grid size :math:`K=\lceil T^\gamma\rceil` (at least 2), or ``fixed`` when ``gamma`` is None."""
    T = check_int(T, "T", least=1)
    if gamma is None:
        return check_int(fixed, "fixed", least=1)
    gamma = check_positive(gamma, "gamma", strict=False)
    return max(2, int(np.ceil(T ** gamma - 1e-9)))


def price_grid(K: int, lo: float = 0.5, hi: float = 2.5) -> np.ndarray:
    """``K`` equally spaced prices from ``lo`` to ``hi`` (``K = 1``: the midpoint)."""
    K = check_int(K, "K", least=1)
    lo, hi = check_positive(lo, "lo"), check_positive(hi, "hi")
    if hi <= lo:
        raise ValueError(f"need lo < hi; got {lo}, {hi}")
    return np.array([(lo + hi) / 2]) if K == 1 else np.linspace(lo, hi, K)


# --------------------------------------------------------------------------- naive baselines (no Cox structure)
def _features(X: np.ndarray) -> np.ndarray:
    """``(1, x)``: an intercept and the covariates; shape ``X.shape[:-1] + (d + 1,)``."""
    return np.concatenate([np.ones(X.shape[:-1] + (1,)), X], axis=-1)


def per_price_logistic_laplace(k_idx: ArrayLike, X: ArrayLike, y: ArrayLike, n_prices: int, sd: float = 2.0,
                               init: ArrayLike | None = None, max_iter: int = 50,
                               tol: float = 1e-8) -> tuple[np.ndarray, np.ndarray]:
    r"""Laplace approximations of ``n_prices`` independent Bayesian logistic regressions, one per grid price.

    For grid price :math:`k` the sale probability is modelled as :math:`\sigma(\theta_k^\top z)` with
    :math:`z=(1,x)` and :math:`\sigma` the logistic function (the textbook GLM of a contextual bandit with
    disjoint arms: no Cox structure, no coefficients shared between prices), prior
    :math:`\theta_k\sim N(0,\,s^2 I_{d+1})`. Each posterior is approximated by :math:`N(\hat\theta_k,H_k^{-1})`:
    :math:`\hat\theta_k` the MAP (Newton's method with step halving, batched over replicates and prices),
    :math:`H_k=\sum_{t:k_t=k}\sigma_t(1-\sigma_t)z_tz_t^\top+I/s^2`.

    Parameters
    ----------
    k_idx : int array (R, n); X (R, n, d); y (R, n) 0/1
        Posted price indices, covariates and sale indicators of ``R`` replicates.
    n_prices : int
        Number of grid prices ``K`` (indices in ``[0, K)``).
    sd : float
        Prior standard deviation ``s`` of every coefficient.
    init : (R, K, d + 1), optional
        Warm start (default zeros).

    Returns
    -------
    mean : (R, K, d + 1); precision : (R, K, d + 1, d + 1)
    """
    n_prices = check_int(n_prices, "n_prices", least=1)
    if np.ndim(k_idx) != 2:
        raise ValueError(f"k_idx must have shape (R, n); got {np.shape(k_idx)}")
    _, k, XX, yy, _ = _batch(np.eye(n_prices), k_idx, X, y)
    sd = check_positive(sd, "sd")
    max_iter = check_int(max_iter, "max_iter", least=1)
    R, n = k.shape
    Z = _features(XX)  # (R, n, q)
    q = Z.shape[-1]
    P0 = np.eye(q) / sd ** 2
    th = np.zeros((R, n_prices, q)) if init is None else finite_array(init, "init").reshape(R, n_prices, q).copy()
    flat = (k + n_prices * np.arange(R)[:, None]).ravel()
    ZZ = (Z[..., :, None] * Z[..., None, :]).reshape(R * n, q * q)
    rr = np.arange(R)[:, None]

    def objective(t):
        eta = np.einsum("rnq,rnq->rn", Z, t[rr, k])
        ll = -np.logaddexp(0.0, np.where(yy > 0.5, -eta, eta))  # log sigma(+-eta)
        per = np.bincount(flat, ll.ravel(), minlength=R * n_prices).reshape(R, n_prices)
        return per - 0.5 * np.einsum("rkq,rkq->rk", t, t) / sd ** 2

    obj = objective(th)
    for _ in range(max_iter):
        eta = np.einsum("rnq,rnq->rn", Z, th[rr, k])
        p = 0.5 * (1.0 + np.tanh(0.5 * eta))  # sigma(eta), stable
        res = (yy - p)[..., None] * Z  # (R, n, q)
        g = np.stack([np.bincount(flat, res[..., j].ravel(), minlength=R * n_prices) for j in range(q)],
                     axis=-1).reshape(R, n_prices, q) - th / sd ** 2
        w = (p * (1.0 - p)).ravel()
        F = np.stack([np.bincount(flat, w * ZZ[:, j], minlength=R * n_prices) for j in range(q * q)],
                     axis=-1).reshape(R, n_prices, q, q)
        H = F + P0
        step = np.linalg.solve(H, g[..., None])[..., 0]
        scale = np.ones((R, n_prices))
        for _half in range(30):
            new = th + scale[..., None] * step
            new_obj = objective(new)
            bad = new_obj < obj - 1e-13 * np.abs(obj)
            if not bad.any():
                break
            scale = np.where(bad, scale / 2, scale)
        th, obj = new, new_obj
        if np.max(np.abs(scale[..., None] * step)) < tol:
            break
    eta = np.einsum("rnq,rnq->rn", Z, th[rr, k])
    p = 0.5 * (1.0 + np.tanh(0.5 * eta))
    w = (p * (1.0 - p)).ravel()
    F = np.stack([np.bincount(flat, w * ZZ[:, j], minlength=R * n_prices) for j in range(q * q)],
                 axis=-1).reshape(R, n_prices, q, q)
    return th, F + P0


def per_price_thompson(env: PricingEnv, seed, sd: float = 2.0, first: int = 20, ratio: float = 1.25,
                       chunk: int = 512, scale: float = 1.0) -> np.ndarray:
    r"""Naive baseline: Thompson sampling with one logistic regression per grid price (disjoint arms).

    The standard contextual-bandit treatment of a discrete price grid, without the proportional-hazards
    structure: each price :math:`k` has its own sale model :math:`\sigma(\theta_k^\top(1,x))`
    (:func:`per_price_logistic_laplace`), refitted on the same geometric schedule as
    :func:`thompson_pricing`; in each round one :math:`\tilde\theta_k` per price is drawn from its Laplace
    posterior and the price maximising :math:`p_k\,\sigma(\tilde\theta_k^\top(1,x_t))` is posted. Before
    the first refit every :math:`\theta_k` is drawn from the prior. ``scale`` multiplies the standard
    deviations of every draw (the usual tuning of Thompson sampling, Chapelle & Li 2011;
    ``scale=0`` is greedy on the posterior mean). Returns ``k_idx`` (R, T).
    """
    sd = check_positive(sd, "sd")
    scale = check_positive(scale, "scale", strict=False)
    rng = np.random.default_rng(seed)
    R, T = env.shape
    Kp, q = env.grid.size, env.beta.size + 1
    mean = np.zeros((R, Kp, q))
    chol = np.broadcast_to(np.eye(q) * (sd * scale), (R, Kp, q, q)).copy()
    k_idx = np.zeros((R, T), dtype=np.int64)
    y = np.zeros((R, T))
    logp = np.log(env.grid)
    ts = list(refresh_times(T, first, ratio)) + [T]
    for j in range(len(ts) - 1):
        t0, t1 = ts[j], ts[j + 1]
        if t0 > 0:
            mean, H = per_price_logistic_laplace(k_idx[:, :t0], env.X[:, :t0], y[:, :t0], Kp, sd, init=mean)
            chol = np.linalg.cholesky(np.linalg.inv(H)) * scale
        for s0 in range(t0, t1, chunk):
            s1 = min(s0 + chunk, t1)
            Z = _features(env.X[:, s0:s1])  # (R, L, q)
            e = rng.standard_normal((R, s1 - s0, Kp, q))
            th = mean[:, None] + np.einsum("rkij,rlkj->rlki", chol, e)  # (R, L, K, q)
            eta = np.einsum("rlkq,rlq->rlk", th, Z)
            logrev = logp - np.logaddexp(0.0, -eta)  # log p_k + log sigma(eta)
            k_idx[:, s0:s1] = np.argmax(logrev, axis=-1)
            y[:, s0:s1] = env.sales(k_idx[:, s0:s1], s0)
    return k_idx


def beta_bernoulli_pricing(env: PricingEnv, seed) -> np.ndarray:
    r"""Naive non-contextual baseline: Beta-Bernoulli Thompson sampling over the grid, ignoring covariates.

    Each price keeps a :math:`\mathrm{Beta}(1+\text{sales},\,1+\text{no-sales})` posterior of its sale
    probability; every round one probability per price is drawn and the price maximising
    :math:`p_k\tilde s_k` is posted (the classical Bernoulli-bandit treatment of pricing). Its regret
    against the contextual optimum grows linearly at the rate of the best fixed grid price's loss.
    Returns ``k_idx`` (R, T).
    """
    rng = np.random.default_rng(seed)
    R, T = env.shape
    Kp = env.grid.size
    a = np.ones((R, Kp))
    b = np.ones((R, Kp))
    k_idx = np.zeros((R, T), dtype=np.int64)
    rows = np.arange(R)
    for t in range(T):
        s = rng.beta(a, b)
        k = np.argmax(env.grid * s, axis=1)
        k_idx[:, t] = k
        sale = env.sales(k[:, None], t)[:, 0]
        a[rows, k] += sale
        b[rows, k] += 1.0 - sale
    return k_idx
