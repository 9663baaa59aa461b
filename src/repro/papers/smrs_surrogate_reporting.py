r"""A surrogate-model reporting standard made executable: schema, validator, report-emitting pipeline, replayer.

Paper map
---------
*SMRS: advocating a unified reporting standard for surrogate models in the artificial intelligence era*,
Elizaveta Semenova, Alisa Sheinkman, Timothy James Hitge, Siobhan Mackenzie Hall, Jon Cockayne
(arXiv `2502.06753 <https://arxiv.org/abs/2502.06753>`_), a position paper with no code and no numbers.
It argues that every surrogate model should be published with a structured report of its data
provenance, sampling design, model assumptions, learning method, evaluation, uncertainty quantification
and downstream analysis. The schema below is **our** concrete reading of those sections (the paper's own
field list was not available to us). Notebook: ``notebooks/smrs-surrogate-reporting.py``.

Notation (paper / field -> here):

- simulator (the expensive model) :math:`f:\mathcal X\to\mathbb R` -> :func:`simulate` (``"ishigami"``,
  ``"robertson"``), evaluated on unit-cube inputs :math:`u\in[0,1]^d` mapped to the physical box;
- sampling design :math:`\{u_i\}_{i=1}^n` -> :func:`design` (``"lhs"``: :func:`lhs`; ``"iid"``);
- surrogate :math:`\hat f` with predictive mean :math:`\mu(u)` and sd :math:`\sigma(u)` -> :func:`fit_gp`
  (Matérn-5/2 ARD Gaussian process, scikit-learn) or :class:`LinearSurrogate` (a misspecified control);
  the skeptic's naive surrogates :class:`PolynomialSurrogate` (second-order response surface) and
  :class:`ConstantSurrogate` (the training mean and spread);
- evaluation: held-out RMSE, normalised RMSE :math:`\mathrm{RMSE}/\mathrm{sd}(y)`, :math:`Q^2`, coverage of
  the interval :math:`\mu\pm z\sigma` -> :func:`heldout_metrics`;
- downstream analysis: Sobol indices :math:`S_i=V_i/V`, total indices :math:`S_{T_i}` -> :func:`sobol_indices`
  (Saltelli 2010 first-order and Jansen 1999 total estimators); analytic values for Ishigami ->
  :func:`ishigami_sobol_indices`, :func:`ishigami_total_indices`;
- the report -> a ``dict`` following :data:`SMRS_SCHEMA`, checked by :func:`validate_report`, emitted by
  :func:`run_report`, replayed by :func:`build_surrogate_from_report`, rendered by :func:`render_report`.
"""

from __future__ import annotations

import copy
import json
import math
import numbers
import warnings
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike
from scipy.stats import norm, qmc

from repro.validate import check_int, check_positive

ISHIGAMI_A, ISHIGAMI_B = 7.0, 0.1
#: Robertson's nominal rate constants (Robertson 1966): A -> B (k1), 2B -> B + C (k2), B + C -> A + C (k3).
ROBERTSON_K0 = (0.04, 3.0e7, 1.0e4)
DESIGNS = ("lhs", "iid")
SAMPLERS = ("saltelli", "random")
FAMILIES = ("gaussian_process", "linear")


# --------------------------------------------------------------------------------------- simulators
def ishigami(X: ArrayLike, a: float = ISHIGAMI_A, b: float = ISHIGAMI_B) -> np.ndarray:
    r"""Ishigami function :math:`f(x)=\sin x_1 + a\sin^2 x_2 + b\,x_3^4\sin x_1` (Ishigami and Homma 1990).

    Parameters
    ----------
    X : array (n, 3), inputs in the physical box (usually :math:`[-\pi,\pi]^3`).

    Returns
    -------
    array (n,)
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 3:
        raise ValueError(f"X must have shape (n, 3); got {X.shape}")
    s1 = np.sin(X[:, 0])
    return s1 + a * np.sin(X[:, 1]) ** 2 + b * X[:, 2] ** 4 * s1


def ishigami_sobol_indices(a: float, b: float) -> tuple[np.ndarray, float]:
    r"""Analytic first-order Sobol indices and total variance of Ishigami with inputs uniform on :math:`[-\pi,\pi]^3`.

    :math:`V = a^2/8 + b\pi^4/5 + b^2\pi^8/18 + 1/2`, :math:`V_1=\tfrac12(1+b\pi^4/5)^2`, :math:`V_2=a^2/8`,
    :math:`V_3=0` (Sobol' and Levitan 1999; Saltelli et al. 2008, sec. 4.9).

    Returns
    -------
    first_order : array (3,), :math:`(V_1, V_2, V_3)/V`
    total_variance : float, :math:`V`
    """
    a, b = _finite(a, "a"), _finite(b, "b")
    pi4 = math.pi**4
    V = a**2 / 8 + b * pi4 / 5 + b**2 * pi4**2 / 18 + 0.5
    V1 = 0.5 * (1 + b * pi4 / 5) ** 2
    V2 = a**2 / 8
    return np.array([V1, V2, 0.0]) / V, float(V)


def ishigami_total_indices(a: float, b: float) -> np.ndarray:
    r"""Analytic total Sobol indices of Ishigami: :math:`S_{T_1}=(V_1+V_{13})/V`, :math:`S_{T_2}=V_2/V`,
    :math:`S_{T_3}=V_{13}/V` with :math:`V_{13}=b^2\pi^8(1/18-1/50)=8b^2\pi^8/225`.

    Returns
    -------
    array (3,)
    """
    S, V = ishigami_sobol_indices(a, b)
    V13 = 8 * b**2 * math.pi**8 / 225
    return np.array([S[0] + V13 / V, S[1], V13 / V])


def _finite(x: object, name: str) -> float:
    if isinstance(x, bool) or not isinstance(x, numbers.Real) or not math.isfinite(float(x)):
        raise ValueError(f"{name} must be a finite real number; got {x!r}")
    return float(x)


def _solve3(A: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Batched 3x3 linear solve by Cramer's rule (A (B,3,3), r (B,3)); much cheaper than LAPACK per batch of 3x3."""
    a = A
    c0 = np.cross(a[:, 1], a[:, 2])
    c1 = np.cross(a[:, 2], a[:, 0])
    c2 = np.cross(a[:, 0], a[:, 1])
    det = np.einsum("bi,bi->b", a[:, 0], c0)
    # x = A^{-1} r with A^{-1} = [c0 c1 c2] / det (columns)
    return (c0 * r[:, :1] + c1 * r[:, 1:2] + c2 * r[:, 2:]) / det[:, None]


def robertson(k: ArrayLike, t_end: float = 40.0, n_steps: int = 200, h0: float = 1e-4) -> np.ndarray:
    r"""Concentrations :math:`(y_1,y_2,y_3)(t_\mathrm{end})` of Robertson's stiff kinetics, batched over rate constants.

    :math:`\dot y_1=-k_1y_1+k_3y_2y_3`, :math:`\dot y_2=k_1y_1-k_2y_2^2-k_3y_2y_3`, :math:`\dot y_3=k_2y_2^2`,
    :math:`y(0)=(1,0,0)` (Robertson 1966; Hairer and Wanner, *Solving ODEs II*, sec. IV.1). Variable-step
    BDF2 on a geometric time grid (first step backward Euler) with two Newton iterations per step: L-stable
    enough for the stiffness ratio :math:`\sim 10^{11}`, deterministic per input (each row is integrated
    independently of the others in the batch), second order (about :math:`5\cdot10^{-4}` from a tight
    Radau solution with 200 steps).

    Parameters
    ----------
    k : array (n, 3) of positive rate constants.

    Returns
    -------
    array (n, 3)
    """
    k = np.asarray(k, dtype=float)
    if k.ndim != 2 or k.shape[1] != 3 or not np.all(np.isfinite(k)) or np.any(k <= 0):
        raise ValueError(f"k must be a finite positive array of shape (n, 3); got shape {k.shape}")
    t_end = check_positive(t_end, "t_end")
    n_steps = check_int(n_steps, "n_steps", least=2)
    h0 = check_positive(h0, "h0")
    if h0 >= t_end:
        raise ValueError(f"h0 must be smaller than t_end; got h0={h0}, t_end={t_end}")
    k1, k2, k3 = k[:, 0], k[:, 1], k[:, 2]
    hs = np.diff(np.concatenate([[0.0], np.geomspace(h0, t_end, n_steps)]))
    y = np.zeros((k.shape[0], 3))
    y[:, 0] = 1.0
    y_prev = y
    A = np.zeros((k.shape[0], 3, 3))
    for n, h in enumerate(hs):
        if n == 0:
            c1, c0, beta = 1.0, 0.0, 1.0
        else:  # variable-step BDF2 with ratio w = h_n / h_{n-1}
            w = h / hs[n - 1]
            c1, c0, beta = (1 + w) ** 2 / (1 + 2 * w), -(w**2) / (1 + 2 * w), (1 + w) / (1 + 2 * w)
        rhs = c1 * y + c0 * y_prev
        z = y.copy()
        hb = h * beta
        for _ in range(2):
            z1, z2, z3 = z[:, 0], z[:, 1], z[:, 2]
            f = np.stack([-k1 * z1 + k3 * z2 * z3, k1 * z1 - k2 * z2 * z2 - k3 * z2 * z3, k2 * z2 * z2], axis=1)
            # A = I - h beta J
            A[:, 0, 0] = 1 + hb * k1
            A[:, 0, 1] = -hb * k3 * z3
            A[:, 0, 2] = -hb * k3 * z2
            A[:, 1, 0] = -hb * k1
            A[:, 1, 1] = 1 + hb * (2 * k2 * z2 + k3 * z3)
            A[:, 1, 2] = hb * k3 * z2
            A[:, 2, 0] = 0.0
            A[:, 2, 1] = -hb * 2 * k2 * z2
            A[:, 2, 2] = 1.0
            z = z - _solve3(A, z - rhs - hb * f)
        y_prev, y = y, z
    return y


def _to_box(U: np.ndarray, lo: float, hi: float) -> np.ndarray:
    return lo + (hi - lo) * U


def simulate(name: str, U: ArrayLike, params: dict | None = None) -> np.ndarray:
    r"""Evaluate a registered simulator on unit-cube inputs.

    ``"ishigami"`` (d = 3): :math:`x=-\pi+2\pi u`, params ``a``, ``b``.
    ``"robertson"`` (d = 3): :math:`k_i = k_i^0\,10^{\,\mathrm{span}(2u_i-1)}` (log-uniform over
    :math:`\pm` ``span`` decades around Robertson's constants), output :math:`y_3(t_\mathrm{end})`, the
    fraction converted to the product; params ``span``, ``t_end``, ``n_steps``.

    Parameters
    ----------
    U : array (n, 3) in [0, 1]^3.

    Returns
    -------
    array (n,)
    """
    U = _check_unit(U, 3)
    params = dict(params or {})
    if name == "ishigami":
        return ishigami(_to_box(U, -math.pi, math.pi), a=params.get("a", ISHIGAMI_A), b=params.get("b", ISHIGAMI_B))
    if name == "robertson":
        span = params.get("span", 1.0)
        k = np.asarray(ROBERTSON_K0) * 10.0 ** (span * (2 * U - 1))
        return robertson(k, t_end=params.get("t_end", 40.0), n_steps=params.get("n_steps", 200))[:, 2]
    raise ValueError(f"unknown simulator {name!r}; known: 'ishigami', 'robertson'")


def _check_unit(U: ArrayLike, d: int | None = None) -> np.ndarray:
    U = np.asarray(U, dtype=float)
    if U.ndim != 2 or (d is not None and U.shape[1] != d):
        raise ValueError(f"U must have shape (n, {d if d is not None else 'd'}); got {U.shape}")
    if not np.all(np.isfinite(U)) or np.any(U < 0) or np.any(U > 1):
        raise ValueError("U must lie in the unit cube [0, 1]^d")
    return U


# --------------------------------------------------------------------------------------- designs
def lhs(n: int, d: int, seed: int) -> np.ndarray:
    """Latin hypercube design of ``n`` points in [0, 1]^d (McKay, Beckman and Conover 1979; ``scipy.stats.qmc``).

    Each of the ``n`` equal strata of every coordinate holds exactly one point.

    Returns
    -------
    array (n, d)
    """
    n, d = check_int(n, "n", least=1), check_int(d, "d", least=1)
    seed = check_int(seed, "seed", least=0)
    return qmc.LatinHypercube(d, rng=np.random.default_rng(seed)).random(n)


def design(kind: str, n: int, d: int, seed: int) -> np.ndarray:
    """A sampling design on [0, 1]^d: ``"lhs"`` (:func:`lhs`) or ``"iid"`` (independent uniform draws).

    Returns
    -------
    array (n, d)
    """
    if kind == "lhs":
        return lhs(n, d, seed)
    if kind == "iid":
        n, d = check_int(n, "n", least=1), check_int(d, "d", least=1)
        return np.random.default_rng(check_int(seed, "seed", least=0)).random((n, d))
    raise ValueError(f"design must be one of {DESIGNS}; got {kind!r}")


# --------------------------------------------------------------------------------------- Sobol indices
def sobol_indices(
    f: Callable[[np.ndarray], np.ndarray], d: int, n: int, rng: int | np.random.Generator, sampler: str = "saltelli"
) -> tuple[np.ndarray, np.ndarray, float]:
    r"""First-order and total Sobol indices of ``f`` on the uniform unit cube by the pick-freeze scheme.

    Two base matrices :math:`A, B` (n x d) and, for each :math:`i`, :math:`A_B^{(i)}` = :math:`A` with
    column :math:`i` from :math:`B`; :math:`n(d+2)` evaluations. Estimators (Saltelli et al. 2010, Table 2):
    :math:`\hat V_i = \frac1n\sum f(B)\,(f(A_B^{(i)})-f(A))` (first order, Saltelli 2010) and
    :math:`\hat V_{T_i}=\frac1{2n}\sum (f(A)-f(A_B^{(i)}))^2` (total, Jansen 1999), both divided by the
    variance of :math:`f` over :math:`A\cup B`.

    Parameters
    ----------
    f : maps an (m, d) array in [0, 1]^d to (m,) outputs.
    n : base sample size (a power of 2 for ``sampler="saltelli"``).
    rng : seed or Generator.
    sampler : ``"saltelli"`` (scrambled Sobol' sequence in 2d dimensions, split into A and B) or ``"random"``.

    Returns
    -------
    first_order : array (d,), total : array (d,), variance : float
    """
    d = check_int(d, "d", least=1)
    n = check_int(n, "n", least=2)
    rng = np.random.default_rng(rng)
    if sampler == "saltelli":
        if n & (n - 1):
            raise ValueError(f"n must be a power of 2 for the Sobol' sequence; got {n}")
        AB = qmc.Sobol(2 * d, scramble=True, rng=rng).random(n)
    elif sampler == "random":
        AB = rng.random((n, 2 * d))
    else:
        raise ValueError(f"sampler must be one of {SAMPLERS}; got {sampler!r}")
    A, B = AB[:, :d], AB[:, d:]
    ABi = np.repeat(A[None], d, axis=0)
    ABi[np.arange(d), :, np.arange(d)] = B.T
    y = np.asarray(f(np.concatenate([A, B, ABi.reshape(d * n, d)])), dtype=float)
    if y.shape != ((d + 2) * n,):
        raise ValueError(f"f must return shape ({(d + 2) * n},); got {y.shape}")
    fA, fB, fAB = y[:n], y[n : 2 * n], y[2 * n :].reshape(d, n)
    V = float(np.var(y[: 2 * n]))
    if not V > 0:
        raise ValueError("f is constant on the sample: Sobol indices are undefined")
    first = np.mean(fB * (fAB - fA), axis=1) / V
    total = 0.5 * np.mean((fA - fAB) ** 2, axis=1) / V
    return first, total, V


def sobol_first_order(
    f: Callable[[np.ndarray], np.ndarray], d: int, n: int, rng: int | np.random.Generator, sampler: str = "saltelli"
) -> np.ndarray:
    """First-order Sobol indices only (see :func:`sobol_indices`). Returns array (d,)."""
    return sobol_indices(f, d, n, rng, sampler)[0]


# --------------------------------------------------------------------------------------- surrogates
def fit_gp(
    U: ArrayLike,
    y: ArrayLike,
    *,
    hyperparameters: dict | None = None,
    n_restarts: int = 0,
    seed: int = 0,
    nu: float = 2.5,
    jitter: float = 1e-8,
):
    r"""Gaussian-process surrogate: :math:`c\cdot\mathrm{Mat\acute ern}_\nu` with one length scale per input (ARD).

    scikit-learn's ``GaussianProcessRegressor`` with ``normalize_y=True`` and a fixed nugget ``jitter``.
    Without ``hyperparameters`` they are fitted by maximising the log marginal likelihood (L-BFGS-B from
    the default start, amplitude in [1e-3, 1e6], length scales in [1e-2, 1e3], plus ``n_restarts`` random
    restarts drawn with ``seed``); with them (``{"constant":
    c, "length_scale": [...]}``) the GP is conditioned on the data at exactly those values, no optimisation.

    Returns
    -------
    sklearn.gaussian_process.GaussianProcessRegressor (fitted)
    """
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import ConstantKernel, Matern

    U = _check_unit(U)
    y = np.asarray(y, dtype=float)
    if y.shape != (U.shape[0],) or not np.all(np.isfinite(y)):
        raise ValueError(f"y must be finite with shape ({U.shape[0]},); got {y.shape}")
    d = U.shape[1]
    if hyperparameters is None:
        # wide bounds: with hundreds of points on a smooth function the optimum has a large amplitude and
        # long length scales (a bound of 1e3 on the amplitude was hit at n = 500 in our first full run)
        kernel = ConstantKernel(1.0, (1e-3, 1e6)) * Matern(np.full(d, 0.5), (1e-2, 1e3), nu=nu)
        opt = "fmin_l_bfgs_b"
    else:
        ls = np.asarray(hyperparameters["length_scale"], dtype=float)
        if ls.shape != (d,) or np.any(ls <= 0):
            raise ValueError(f"length_scale must hold {d} positive values; got {hyperparameters['length_scale']!r}")
        kernel = ConstantKernel(float(hyperparameters["constant"]), "fixed") * Matern(ls, "fixed", nu=nu)
        opt = None
    gp = GaussianProcessRegressor(kernel, alpha=jitter, optimizer=opt, n_restarts_optimizer=check_int(n_restarts, "n_restarts", least=0),
                                  normalize_y=True, random_state=check_int(seed, "seed", least=0))
    return gp.fit(U, y)


def gp_hyperparameters(gp) -> dict:
    """The fitted hyperparameters of a :func:`fit_gp` model, as exact floats (JSON-safe)."""
    k = gp.kernel_
    return {"constant": float(k.k1.constant_value),
            "length_scale": [float(v) for v in np.atleast_1d(k.k2.length_scale)]}


def polynomial_features(U: ArrayLike, degree: int) -> np.ndarray:
    r"""Every monomial :math:`\prod_i u_i^{k_i}` with :math:`\sum_i k_i\le` ``degree``, constant first.

    Ordered by total degree, then lexicographically in the exponents (degree 1: :math:`(1, u_1, \dots, u_d)`,
    the columns of :class:`LinearSurrogate`). :math:`\binom{d+p}{p}` columns.

    Returns
    -------
    array (n, C(d + degree, degree))
    """
    from itertools import combinations_with_replacement

    U = _check_unit(U)
    degree = check_int(degree, "degree", least=1)
    cols = [np.ones(len(U))]
    for p in range(1, degree + 1):
        cols += [np.prod(U[:, list(c)], axis=1) for c in combinations_with_replacement(range(U.shape[1]), p)]
    return np.column_stack(cols)


class PolynomialSurrogate:
    r"""Least-squares polynomial response surface of total degree ``degree`` with the classical predictive sd.

    :math:`\hat f(u)=\beta^\top x(u)`, :math:`x` = :func:`polynomial_features`; :math:`\sigma(u)=\hat
    s\sqrt{1+x^\top(X^\top X)^{-1}x}`, :math:`\hat s^2` the residual variance with :math:`n-p` degrees of
    freedom (:math:`p` columns). Degree 2 is the classical second-order response surface (Box and Wilson 1951),
    the naive baseline a skeptic fits before a Gaussian process; degree 1 is :class:`LinearSurrogate`.
    """

    def __init__(self, degree: int = 2):
        self.degree = check_int(degree, "degree", least=1)

    def fit(self, U: ArrayLike, y: ArrayLike) -> PolynomialSurrogate:
        X = polynomial_features(U, self.degree)
        y = np.asarray(y, dtype=float)
        if y.shape != (len(X),):
            raise ValueError(f"y must have shape ({len(X)},); got {y.shape}")
        if len(X) <= X.shape[1]:
            raise ValueError(f"need more than {X.shape[1]} points for a degree-{self.degree} polynomial")
        self.coef_, *_ = np.linalg.lstsq(X, y, rcond=None)
        resid = y - X @ self.coef_
        self.s2_ = float(resid @ resid / (len(y) - X.shape[1]))
        self.XtX_inv_ = np.linalg.inv(X.T @ X)
        return self

    def predict(self, U: ArrayLike, return_std: bool = False):
        """Mean (m,) and, with ``return_std``, the predictive sd (m,)."""
        X = polynomial_features(U, self.degree)
        mean = X @ self.coef_
        if not return_std:
            return mean
        return mean, np.sqrt(self.s2_ * (1 + np.einsum("ij,jk,ik->i", X, self.XtX_inv_, X)))


class LinearSurrogate(PolynomialSurrogate):
    r"""Least-squares linear model :math:`\hat f(u)=\beta_0+\beta^\top u` with the classical predictive sd.

    :math:`\sigma(u)=\hat s\sqrt{1+x^\top(X^\top X)^{-1}x}`, :math:`x=(1,u)`, :math:`\hat s^2` = residual
    variance with :math:`n-d-1` degrees of freedom: :class:`PolynomialSurrogate` of degree 1, whose features are
    exactly :math:`(1, u)`. The misspecified control of the page.
    """

    def __init__(self):
        super().__init__(degree=1)


class ConstantSurrogate:
    r"""The input-blind surrogate: the training mean, with the predictive sd of a new draw from the training sample.

    :math:`\hat f(u)=\bar y`, :math:`\sigma(u)=s\sqrt{1+1/n}` (:math:`s` the sample sd, :math:`n-1` degrees of
    freedom): the interval a skeptic states without any model of :math:`f`.
    """

    def fit(self, U: ArrayLike, y: ArrayLike) -> ConstantSurrogate:
        U = _check_unit(U)
        y = np.asarray(y, dtype=float)
        if y.shape != (len(U),) or len(y) < 2:
            raise ValueError(f"y must have shape ({len(U)},) with at least 2 points; got {y.shape}")
        self.mean_ = float(np.mean(y))
        self.sd_ = float(np.std(y, ddof=1) * np.sqrt(1 + 1 / len(y)))
        return self

    def predict(self, U: ArrayLike, return_std: bool = False):
        """Mean (m,) and, with ``return_std``, the constant predictive sd (m,)."""
        m = len(_check_unit(U))
        mean = np.full(m, self.mean_)
        return (mean, np.full(m, self.sd_)) if return_std else mean


def sturges_bins(n: int) -> int:
    r"""Sturges' rule for the number of histogram bins of ``n`` points: :math:`\lceil\log_2 n\rceil+1`."""
    n = check_int(n, "n", least=2)
    return int(np.ceil(np.log2(n))) + 1


def given_data_first_order(U: ArrayLike, y: ArrayLike, bins: int) -> np.ndarray:
    r"""First-order Sobol indices from a given sample alone, with no surrogate and no new runs.

    The correlation-ratio (binning) estimator: split each input's range :math:`[0, 1]` into ``bins`` equal
    cells :math:`c`, and estimate :math:`S_i=\mathrm{Var}(\mathbb E[f\mid x_i])/\mathrm{Var} f` by
    :math:`\sum_c w_c(\bar y_c-\bar y)^2/\widehat{\mathrm{Var}}\,y`, with :math:`w_c` the share of points in
    cell :math:`c` and :math:`\bar y_c` their mean (empty cells contribute nothing).

    Returns
    -------
    first_order : array (d,)
    """
    U = _check_unit(U)
    y = np.asarray(y, dtype=float)
    bins = check_int(bins, "bins", least=1)
    if y.shape != (len(U),) or len(y) < 2:
        raise ValueError(f"y must have shape ({len(U)},) with at least 2 points; got {y.shape}")
    V = float(np.var(y))
    if not V > 0:
        raise ValueError("y is constant: Sobol indices are undefined")
    out = np.zeros(U.shape[1])
    for i in range(U.shape[1]):
        cell = np.minimum((U[:, i] * bins).astype(int), bins - 1)
        counts = np.bincount(cell, minlength=bins)
        sums = np.bincount(cell, weights=y, minlength=bins)
        full = counts > 0
        means = sums[full] / counts[full]
        out[i] = float(np.sum(counts[full] / len(y) * (means - y.mean()) ** 2) / V)
    return out


# --------------------------------------------------------------------------------------- evaluation
def heldout_metrics(y: ArrayLike, mean: ArrayLike, std: ArrayLike, level: float = 0.95, z: float | None = None) -> dict:
    r"""Held-out accuracy and interval coverage.

    ``rmse``; ``nrmse`` = RMSE / sd(y) (population sd of the held-out outputs); ``q2`` = 1 - nrmse^2;
    ``coverage`` = share of held-out outputs inside :math:`\mu\pm z\sigma`, with
    :math:`z=\Phi^{-1}((1+\text{level})/2)` unless ``z`` is given (a deliberately miscalibrated interval);
    ``mean_width`` = mean of :math:`2z\sigma`.

    Returns
    -------
    dict of floats
    """
    y, mean, std = (np.asarray(v, dtype=float) for v in (y, mean, std))
    if y.ndim != 1 or mean.shape != y.shape or std.shape != y.shape or len(y) < 2:
        raise ValueError(f"y, mean, std must be 1-d of one length >= 2; got {y.shape}, {mean.shape}, {std.shape}")
    if np.any(std < 0):
        raise ValueError("std must be >= 0")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1); got {level}")
    zz = float(norm.ppf(0.5 + level / 2)) if z is None else check_positive(z, "z")
    rmse = float(np.sqrt(np.mean((y - mean) ** 2)))
    nrmse = rmse / float(np.std(y))
    return {"rmse": rmse, "nrmse": nrmse, "q2": 1 - nrmse**2,
            "coverage": float(np.mean(np.abs(y - mean) <= zz * std)), "mean_width": float(np.mean(2 * zz * std))}


def coverage_curve(y: ArrayLike, mean: ArrayLike, std: ArrayLike, levels: ArrayLike, z_scale: float = 1.0) -> np.ndarray:
    r"""Empirical coverage of the central intervals :math:`\mu\pm z_\ell\,\text{z\_scale}\,\sigma` at each nominal level.

    Returns
    -------
    array (len(levels),)
    """
    y, mean, std = (np.asarray(v, dtype=float) for v in (y, mean, std))
    levels = np.asarray(levels, dtype=float)
    if np.any(levels <= 0) or np.any(levels >= 1):
        raise ValueError("levels must lie in (0, 1)")
    zs = norm.ppf(0.5 + levels / 2) * z_scale
    return np.mean(np.abs(y - mean)[None, :] <= zs[:, None] * std[None, :], axis=1)


# --------------------------------------------------------------------------------------- the standard
_INT, _NUM, _STR, _BOOL, _DICT, _LIST = "int", "number", "str", "bool", "dict", "list"

#: The report's sections and their fields, with the type each must have. Our reading of the SMRS sections.
SMRS_SCHEMA: dict[str, dict[str, str]] = {
    "provenance": {"simulator": _STR, "simulator_params": _DICT, "input_dim": _INT,
                   "input_distribution": _STR, "output": _STR},
    "sampling": {"design": _STR, "n_train": _INT, "seed": _INT},
    "model": {"family": _STR, "assumptions": _STR, "kernel": _STR, "nu": _NUM, "jitter": _NUM,
              "learn_hyperparameters": _BOOL, "hyperparameters": _DICT},
    "learning": {"objective": _STR, "optimiser": _STR, "n_restarts": _INT, "seed": _INT, "software": _DICT,
                 "optimiser_warnings": _LIST},
    "evaluation": {"test_design": _STR, "n_test": _INT, "test_seed": _INT, "metrics": _DICT},
    "uncertainty": {"interval": _STR, "level": _NUM, "z": _NUM, "coverage": _NUM, "mean_width": _NUM},
    "downstream": {"analysis": _STR, "estimator": _STR, "sampler": _STR, "n_base": _INT, "seed": _INT,
                   "first_order": _LIST, "total": _LIST, "reference_kind": _STR,
                   "reference_first_order": _LIST, "reference_total": _LIST},
    "acceptance": {"max_nrmse": _NUM, "coverage_window": _LIST, "sobol_tol": _NUM},
}
#: The fields a protocol (the report before the run) must already hold; the others are filled by the run.
MEASURED_FIELDS = {("model", "hyperparameters"), ("learning", "optimiser_warnings"), ("evaluation", "metrics"),
                   ("uncertainty", "coverage"),
                   ("uncertainty", "mean_width"), ("downstream", "first_order"), ("downstream", "total")}


def _type_ok(value: object, kind: str) -> bool:
    if kind == _INT:
        return isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if kind == _NUM:
        return isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(float(value))
    if kind == _STR:
        return isinstance(value, str) and bool(value.strip())
    if kind == _BOOL:
        return isinstance(value, bool)
    if kind == _DICT:
        return isinstance(value, dict)
    return isinstance(value, list)


def validate_report(report: dict, protocol: bool = False) -> list[str]:
    """Problems with a report: missing sections or fields, wrong types, inconsistent values (empty: valid).

    ``protocol=True`` checks a report before the run: the measured fields may be absent.

    Returns
    -------
    list of str, one message per problem
    """
    if not isinstance(report, dict):
        return [f"report must be a dict; got {type(report).__name__}"]
    problems = []
    for section, fields in SMRS_SCHEMA.items():
        sec = report.get(section)
        if not isinstance(sec, dict):
            problems.append(f"missing section {section!r}" if sec is None else f"section {section!r} must be a dict")
            continue
        for field, kind in fields.items():
            if field not in sec:
                if not (protocol and (section, field) in MEASURED_FIELDS):
                    problems.append(f"{section}.{field}: missing")
            elif not _type_ok(sec[field], kind):
                problems.append(f"{section}.{field}: expected {kind}, got {sec[field]!r}")
    if problems:
        return problems
    d = report["provenance"]["input_dim"]
    if report["provenance"]["simulator"] not in ("ishigami", "robertson"):
        problems.append(f"provenance.simulator: unknown simulator {report['provenance']['simulator']!r}")
    for sec, field in (("sampling", "design"), ("evaluation", "test_design")):
        if report[sec][field] not in DESIGNS:
            problems.append(f"{sec}.{field}: must be one of {DESIGNS}")
    if report["model"]["family"] not in FAMILIES:
        problems.append(f"model.family: must be one of {FAMILIES}")
    if report["downstream"]["sampler"] not in SAMPLERS:
        problems.append(f"downstream.sampler: must be one of {SAMPLERS}")
    for sec, field, least in (("sampling", "n_train", d + 2), ("evaluation", "n_test", 2), ("downstream", "n_base", 2),
                              ("provenance", "input_dim", 1), ("learning", "n_restarts", 0)):
        if report[sec][field] < least:
            problems.append(f"{sec}.{field}: must be >= {least}")
    if not 0 < report["uncertainty"]["level"] < 1:
        problems.append("uncertainty.level: must be in (0, 1)")
    for sec, field in (("downstream", "first_order"), ("downstream", "total"),
                       ("downstream", "reference_first_order"), ("downstream", "reference_total")):
        if field in report[sec] and len(report[sec][field]) != d:
            problems.append(f"{sec}.{field}: must hold input_dim = {d} values")
    win = report["acceptance"]["coverage_window"]
    if len(win) != 2 or not all(_type_ok(w, _NUM) for w in win) or win[0] > win[1]:
        problems.append("acceptance.coverage_window: must be [lo, hi] with lo <= hi")
    if "metrics" in report["evaluation"]:
        for key in ("rmse", "nrmse", "q2"):
            if not _type_ok(report["evaluation"]["metrics"].get(key), _NUM):
                problems.append(f"evaluation.metrics.{key}: missing or not a number")
    if not report["model"]["learn_hyperparameters"] and report["model"]["family"] == "gaussian_process" \
            and not report["model"].get("hyperparameters"):
        problems.append("model.hyperparameters: fixed hyperparameters must be given")
    return problems


def _software() -> dict:
    import scipy
    import sklearn

    return {"numpy": np.__version__, "scipy": scipy.__version__, "scikit-learn": sklearn.__version__}


def _fit_from_section(report: dict, U: np.ndarray, y: np.ndarray, replay: bool):
    m, lr = report["model"], report["learning"]
    if m["family"] == "linear":
        return LinearSurrogate().fit(U, y)
    hp = m.get("hyperparameters") if (replay or not m["learn_hyperparameters"]) else None
    return fit_gp(U, y, hyperparameters=hp or None, n_restarts=lr["n_restarts"], seed=lr["seed"],
                  nu=m["nu"], jitter=m["jitter"])


def predict_mean(model, U: np.ndarray, chunk: int = 4096) -> np.ndarray:
    """A surrogate's predictive mean on many points, in chunks (bounded memory; equal to one call up to BLAS rounding)."""
    U = np.asarray(U, dtype=float)
    return np.concatenate([model.predict(U[i : i + chunk]) for i in range(0, len(U), chunk)]) if len(U) else np.zeros(0)


def _evaluate(report: dict, model) -> dict:
    """Every measured number of a report, from the model and the report's recipes (no state elsewhere)."""
    pv, ev, uq, ds = report["provenance"], report["evaluation"], report["uncertainty"], report["downstream"]
    d = pv["input_dim"]
    Ut = design(ev["test_design"], ev["n_test"], d, ev["test_seed"])
    yt = simulate(pv["simulator"], Ut, pv["simulator_params"])
    mean, std = model.predict(Ut, return_std=True)
    h = heldout_metrics(yt, mean, std, level=uq["level"], z=uq["z"])
    S, ST, _ = sobol_indices(lambda X: predict_mean(model, X), d, ds["n_base"], ds["seed"], ds["sampler"])
    return {"rmse": h["rmse"], "nrmse": h["nrmse"], "q2": h["q2"], "coverage": h["coverage"],
            "mean_width": h["mean_width"], "first_order": [float(v) for v in S], "total": [float(v) for v in ST]}


def _train(report: dict):
    pv, sp = report["provenance"], report["sampling"]
    U = design(sp["design"], sp["n_train"], pv["input_dim"], sp["seed"])
    return U, simulate(pv["simulator"], U, pv["simulator_params"])


def run_report(protocol: dict) -> tuple[dict, object]:
    """Run the pipeline a protocol describes and emit the filled report (the SMRS pipeline of the brief).

    The protocol is a report without the measured fields (:data:`MEASURED_FIELDS`); the run samples the
    design, calls the simulator, fits the surrogate (recording the optimiser's warnings), evaluates it on the held-out design, computes the Sobol
    indices *of the surrogate*, and writes the fitted hyperparameters and every number into a copy.

    Returns
    -------
    report : dict (valid under :func:`validate_report`), model : the fitted surrogate
    """
    problems = validate_report(protocol, protocol=True)
    if problems:
        raise ValueError("invalid protocol: " + "; ".join(problems))
    report = copy.deepcopy(protocol)
    U, y = _train(report)
    with warnings.catch_warnings(record=True) as caught:  # the report records what the optimiser complained about
        warnings.simplefilter("always")
        model = _fit_from_section(report, U, y, replay=False)
    report["learning"]["optimiser_warnings"] = sorted(
        {f"{w.category.__name__}: {str(w.message).strip().splitlines()[0][:100]}" for w in caught})
    report["model"]["hyperparameters"] = gp_hyperparameters(model) if report["model"]["family"] == "gaussian_process" else {
        "coef": [float(c) for c in model.coef_], "residual_variance": model.s2_}
    report["learning"]["software"] = _software()
    _fill(report, _evaluate(report, model))
    return report, model


def _fill(report: dict, m: dict) -> None:
    report["evaluation"]["metrics"] = {k: m[k] for k in ("rmse", "nrmse", "q2")}
    report["uncertainty"]["coverage"] = m["coverage"]
    report["uncertainty"]["mean_width"] = m["mean_width"]
    report["downstream"]["first_order"] = m["first_order"]
    report["downstream"]["total"] = m["total"]


def report_metrics(report: dict) -> dict:
    """The measured numbers a report states, flattened like :func:`build_surrogate_from_report`'s metrics."""
    return {**report["evaluation"]["metrics"], "coverage": report["uncertainty"]["coverage"],
            "mean_width": report["uncertainty"]["mean_width"], "first_order": report["downstream"]["first_order"],
            "total": report["downstream"]["total"]}


def build_surrogate_from_report(report: dict) -> tuple[object, dict]:
    """Rebuild the surrogate and recompute its metrics from the report alone (the replayer).

    Regenerates the training design from its recipe and seed, re-runs the simulator, conditions the model
    on the data at the *reported* hyperparameters (no optimisation), and re-evaluates held-out metrics,
    coverage and Sobol indices from the reported recipes. Raises ``ValueError`` on an invalid report.

    Returns
    -------
    model, metrics (dict as :func:`report_metrics`)
    """
    problems = validate_report(report)
    if problems:
        raise ValueError("cannot replay an invalid report: " + "; ".join(problems))
    U, y = _train(report)
    if report["model"]["family"] == "linear":
        model = LinearSurrogate().fit(U, y)
    else:
        model = _fit_from_section(report, U, y, replay=True)
    return model, _evaluate(report, model)


def metrics_discrepancy(a: dict, b: dict) -> float:
    """Largest absolute difference between two metrics dicts (scalars and the Sobol lists)."""
    if set(a) != set(b):
        raise ValueError(f"metrics have different keys: {sorted(set(a) ^ set(b))}")
    return max(float(np.max(np.abs(np.asarray(a[k], float) - np.asarray(b[k], float)))) for k in a)


def json_roundtrip(report: dict) -> dict:
    """The report after writing it as JSON text and reading it back (floats keep every bit: ``repr`` is exact)."""
    return json.loads(json.dumps(report))


def acceptance_checks(report: dict) -> dict[str, tuple[float, bool]]:
    """The report's own acceptance checks: value and pass/fail for held-out nRMSE, coverage, Sobol errors.

    Sobol errors are the largest absolute differences between the surrogate's indices and the reported
    reference (analytic or a Monte Carlo on the simulator).

    Returns
    -------
    dict name -> (value, passed)
    """
    acc, ds = report["acceptance"], report["downstream"]
    nrmse = report["evaluation"]["metrics"]["nrmse"]
    cov = report["uncertainty"]["coverage"]
    e1 = float(np.max(np.abs(np.subtract(ds["first_order"], ds["reference_first_order"]))))
    et = float(np.max(np.abs(np.subtract(ds["total"], ds["reference_total"]))))
    lo, hi = acc["coverage_window"]
    return {"held-out nRMSE": (nrmse, nrmse <= acc["max_nrmse"]),
            f"{report['uncertainty']['level']:.0%} interval coverage": (cov, lo <= cov <= hi),
            "max. error of S_i vs reference": (e1, e1 <= acc["sobol_tol"]),
            "max. error of S_Ti vs reference": (et, et <= acc["sobol_tol"])}


def _fmt(v: object) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, list) and not v:
        return "none"
    if isinstance(v, list):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    if isinstance(v, dict):
        return ", ".join(f"{k}: {_fmt(x)}" for k, x in v.items())
    return str(v)


def render_report(reports: dict[str, dict]) -> str:
    """Markdown rendering of one or more reports side by side: one row per field, then the acceptance checks.

    Parameters
    ----------
    reports : mapping column title -> report (valid under :func:`validate_report`)

    Returns
    -------
    str (a Markdown table)
    """
    if not reports:
        raise ValueError("reports must not be empty")
    for name, r in reports.items():
        problems = validate_report(r)
        if problems:
            raise ValueError(f"report {name!r} is invalid: " + "; ".join(problems))
    cols = list(reports)
    lines = ["| section | field | " + " | ".join(cols) + " |", "|---|---|" + "---|" * len(cols)]
    for section, fields in SMRS_SCHEMA.items():
        for i, field in enumerate(fields):
            cells = [_fmt(reports[c][section][field]).replace("|", "/") for c in cols]
            lines.append(f"| {section if i == 0 else ''} | {field} | " + " | ".join(cells) + " |")
    checks = {c: acceptance_checks(reports[c]) for c in cols}
    for i, name in enumerate(checks[cols[0]]):
        cells = [f"{checks[c][name][0]:.3g} {'✓ pass' if checks[c][name][1] else '✗ FAIL'}" for c in cols]
        lines.append(f"| {'**checks**' if i == 0 else ''} | {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def make_protocol(
    simulator: str,
    *,
    simulator_params: dict,
    n_train: int,
    train_seed: int,
    n_test: int,
    test_seed: int,
    n_base: int,
    sobol_seed: int,
    reference_kind: str,
    reference_first_order: ArrayLike,
    reference_total: ArrayLike,
    acceptance: dict,
    family: str = "gaussian_process",
    sampling_design: str = "lhs",
    learn_hyperparameters: bool = True,
    hyperparameters: dict | None = None,
    n_restarts: int = 2,
    learn_seed: int = 0,
    level: float = 0.95,
    z: float | None = None,
) -> dict:
    """A protocol: the report as written before the run (every field but the measured ones).

    ``z`` defaults to the Gaussian quantile of ``level``; passing another value declares a miscalibrated
    interval (used as a control). ``hyperparameters`` with ``learn_hyperparameters=False`` fixes them.

    Returns
    -------
    dict valid under ``validate_report(..., protocol=True)``
    """
    inputs = {"ishigami": "x_i ~ U(-pi, pi), i = 1..3, independent (x = -pi + 2 pi u)",
              "robertson": "log10 k_i ~ U(log10 k_i0 - span, log10 k_i0 + span), independent, k0 = (0.04, 3e7, 1e4)"}
    outputs = {"ishigami": "f(x) = sin x1 + a sin^2 x2 + b x3^4 sin x1",
               "robertson": "y3(t_end): product fraction of Robertson kinetics (variable-step BDF2)"}
    if simulator not in inputs:
        raise ValueError(f"unknown simulator {simulator!r}")
    gp = family == "gaussian_process"
    p = {
        "provenance": {"simulator": simulator, "simulator_params": dict(simulator_params), "input_dim": 3,
                       "input_distribution": inputs[simulator], "output": outputs[simulator]},
        "sampling": {"design": sampling_design, "n_train": n_train, "seed": train_seed},
        "model": {"family": family,
                  "assumptions": ("stationary, Matern-5/2 smooth, one length scale per input, noise-free (nugget = jitter)"
                                  if gp else "output linear in the unit-cube inputs, homoscedastic Gaussian residual"),
                  "kernel": "constant * Matern(nu, ARD)" if gp else "none (ordinary least squares)",
                  "nu": 2.5, "jitter": 1e-8, "learn_hyperparameters": bool(learn_hyperparameters and gp)},
        "learning": {"objective": "log marginal likelihood (normalised y)" if gp else "least squares",
                     "optimiser": "L-BFGS-B + random restarts" if gp else "lstsq",
                     "n_restarts": n_restarts if gp else 0, "seed": learn_seed, "software": {}},
        "evaluation": {"test_design": "iid", "n_test": n_test, "test_seed": test_seed},
        "uncertainty": {"interval": "Gaussian predictive mean +- z sd", "level": level,
                        "z": float(norm.ppf(0.5 + level / 2)) if z is None else float(z)},
        "downstream": {"analysis": "Sobol indices of the surrogate's mean", "estimator": "Saltelli 2010 (S_i), Jansen 1999 (S_Ti)",
                       "sampler": "saltelli", "n_base": n_base, "seed": sobol_seed, "reference_kind": reference_kind,
                       "reference_first_order": [float(v) for v in reference_first_order],
                       "reference_total": [float(v) for v in reference_total]},
        "acceptance": dict(acceptance),
    }
    if hyperparameters is not None:
        p["model"]["hyperparameters"] = copy.deepcopy(hyperparameters)
    return p
