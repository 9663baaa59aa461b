r"""Learning single-index models via harmonic decomposition: Gegenbauer links, tensor unfolding, online SGD.

Paper map
---------
*Learning single-index models via harmonic decomposition*, Nirmit Joshi, Hugo Koubbi, Theodor Misiakiewicz
and Nathan Srebro, NeurIPS 2025 (https://arxiv.org/abs/2506.09887). We read its abstract and summaries
only; the estimators below follow the reproduction brief (no official code was found).
Notebook: ``notebooks/harmonic-single-index.py``.

Notation (paper / brief -> here):

- input :math:`x\in\mathbb R^d` with a spherically symmetric law, :math:`x = r\,u`, radius :math:`r=\|x\|`,
  direction :math:`u\in S^{d-1}` -> ``X[i]`` of shape ``(m, d)``, :func:`sample_spherical_inputs`
  (``law="sphere"``: :math:`r=\sqrt d` fixed; ``law="gaussian"``: :math:`x\sim N(0, I_d)`, :math:`r\sim\chi_d`);
- hidden direction :math:`w_*` (unit) -> ``w_star``; single index :math:`z=\langle w_*, x\rangle` -> ``z``
  (scaled so that :math:`E z^2 = 1` under both laws); :math:`t=\langle w_*, u\rangle = z/r` -> ``t``;
- law of :math:`t` under a spherical law: density :math:`\propto(1-t^2)^{(d-3)/2}`
  (:func:`sphere_marginal_density`);
- Gegenbauer polynomial :math:`C_k^{\alpha}` with :math:`\alpha=(d-2)/2` -> :func:`gegenbauer`;
  its unit-variance version under the law of :math:`t`, :math:`\tilde C_\ell` -> :func:`gegenbauer_normalized`;
- degree-:math:`\ell` harmonic tensor :math:`H_\ell(u)` (brief sec. 3; :math:`\ell=3` here)
  -> :func:`harmonic_tensor3`, with :math:`\langle H_3(u), w^{\otimes 3}\rangle\propto C_3^{\alpha}(\langle w,u\rangle)`;
- binary label :math:`y\in\{\pm1\}`, :math:`P(y=1\mid z)=\tfrac12(1+q(z))` (brief sec. 4, degree-1 removal modified) -> :func:`link_q`,
  :func:`binary_labels`;
- estimators :math:`\hat w`: harmonic tensor unfolding (degree 3) -> :func:`unfolding_estimator`;
  degree-1 / degree-2 spectral -> :func:`spectral_estimator`; degree 1 with a radial weight
  :math:`T(y,r)=y\,(r^2-d-2)` -> :func:`radial_degree1_estimator`; online spherical SGD -> :func:`online_spherical_sgd`;
  comparators: the unfolding without the harmonic projection -> :func:`raw_moment_unfolding_estimator`, the
  Gaussian Hermite-3 unfolding of the raw inputs -> :func:`hermite_unfolding_estimator`;
- overlap :math:`|\langle\hat w, w_*\rangle|` -> :func:`overlap`.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy import integrate
from scipy.special import betaln, gammaln

LAWS: tuple[str, ...] = ("sphere", "gaussian")
LINKS: tuple[str, ...] = ("gegenbauer3", "hermite3", "gegenbauer1")


# --------------------------------------------------------------------------- validation helpers
def _int_at_least(x: object, least: int, name: str) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < least:
        raise ValueError(f"{name} must be an int >= {least}; got {x!r}")
    return int(x)


def _finite_array(x: ArrayLike, name: str) -> np.ndarray:
    a = np.asarray(x, dtype=np.float64)
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite")
    return a


def _data(X: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    X = _finite_array(X, "X")
    y = _finite_array(y, "y")
    if X.ndim != 2 or X.shape[0] < 1 or X.shape[1] < 3:
        raise ValueError(f"X must have shape (m, d) with m >= 1 and d >= 3; got {X.shape}")
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},); got {y.shape}")
    if np.any(np.linalg.norm(X, axis=1) == 0):
        raise ValueError("X has a zero row: its direction is undefined")
    return X, y


def _unit_rows(X: np.ndarray) -> np.ndarray:
    return X / np.linalg.norm(X, axis=-1, keepdims=True)


# --------------------------------------------------------------------------- Gegenbauer polynomials
def gegenbauer(k: int, alpha: float, t: ArrayLike) -> np.ndarray:
    r"""Gegenbauer polynomial :math:`C_k^{\alpha}(t)` in the standard normalisation.

    Three-term recurrence :math:`C_0 = 1`, :math:`C_1 = 2\alpha t`,
    :math:`n\,C_n = 2t(n+\alpha-1)\,C_{n-1} - (n+2\alpha-2)\,C_{n-2}` (DLMF 18.9.1), the normalisation of
    ``scipy.special.eval_gegenbauer`` (so :math:`C_k^0 = 0` for :math:`k\ge1`). Orthogonal on
    :math:`[-1,1]` under the weight :math:`(1-t^2)^{\alpha-1/2}`; with :math:`\alpha=(d-2)/2` that is the
    law of :math:`\langle w, u\rangle` for :math:`u` uniform on :math:`S^{d-1}` (brief sec. 3).

    Parameters
    ----------
    k : int >= 0
    alpha : float > -1/2
    t : array_like, any shape, finite (values outside [-1, 1] are allowed: it is a polynomial)

    Returns
    -------
    np.ndarray, the shape of ``t`` (float64)
    """
    k = _int_at_least(k, 0, "k")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.floating, np.integer)) \
            or not math.isfinite(alpha) or alpha <= -0.5:
        raise ValueError(f"alpha must be a finite number > -1/2; got {alpha!r}")
    return _gegenbauer_unchecked(k, float(alpha), _finite_array(t, "t"))


def _gegenbauer_unchecked(k: int, alpha: float, t: np.ndarray) -> np.ndarray:
    """The recurrence of :func:`gegenbauer` without input checks (inner loop of :func:`online_spherical_sgd`)."""
    prev, cur = np.ones_like(t), 2.0 * alpha * t
    if k == 0:
        return prev
    for n in range(2, k + 1):
        prev, cur = cur, (2.0 * t * (n + alpha - 1) * cur - (n + 2 * alpha - 2) * prev) / n
    return cur


def _alpha(d: int) -> float:
    return (_int_at_least(d, 3, "d") - 2) / 2.0


def gegenbauer_sphere_variance(k: int, d: int) -> float:
    r""":math:`E[C_k^{\alpha}(t)^2]` for :math:`t=\langle w,u\rangle`, :math:`u` uniform on :math:`S^{d-1}`, :math:`\alpha=(d-2)/2`.

    Closed form (DLMF 18.3): :math:`\int_{-1}^1 C_k^{\alpha}(t)^2(1-t^2)^{\alpha-1/2}dt
    = \pi 2^{1-2\alpha}\Gamma(k+2\alpha)/(k!\,(k+\alpha)\,\Gamma(\alpha)^2)`, divided by the mass
    :math:`B(1/2, \alpha+1/2)` of the weight. ``d >= 3``.
    """
    k = _int_at_least(k, 0, "k")
    a = _alpha(d)
    log_norm = (math.log(math.pi) + (1 - 2 * a) * math.log(2) + gammaln(k + 2 * a)
                - gammaln(k + 1) - math.log(k + a) - 2 * gammaln(a))
    return float(math.exp(log_norm - betaln(0.5, a + 0.5)))


def gegenbauer_normalized(k: int, d: int, t: ArrayLike) -> np.ndarray:
    r"""Unit-variance Gegenbauer polynomial :math:`\tilde C_k(t) = C_k^{\alpha}(t)/\sqrt{E[C_k^{\alpha}(t)^2]}`.

    The brief's :math:`\tilde C_\ell` (sec. 4): the degree-:math:`\ell` zonal harmonic of :math:`S^{d-1}`
    with unit variance under the law of :math:`t`. Shapes as :func:`gegenbauer`; ``d >= 3``.
    """
    return gegenbauer(k, _alpha(d), t) / math.sqrt(gegenbauer_sphere_variance(k, d))


def gegenbauer_normalized_derivative(k: int, d: int, t: ArrayLike) -> np.ndarray:
    r""":math:`\tilde C_k'(t)`, from :math:`\frac{d}{dt}C_k^{\alpha} = 2\alpha\,C_{k-1}^{\alpha+1}` (DLMF 18.9.19)."""
    k = _int_at_least(k, 0, "k")
    a = _alpha(d)
    t = _finite_array(t, "t")
    if k == 0:
        return np.zeros_like(t)
    return 2 * a * gegenbauer(k - 1, a + 1, t) / math.sqrt(gegenbauer_sphere_variance(k, d))


def sphere_marginal_density(t: ArrayLike, d: int) -> np.ndarray:
    r"""Density of :math:`t=\langle w,u\rangle`, :math:`u` uniform on :math:`S^{d-1}`: :math:`(1-t^2)^{(d-3)/2}/B(1/2,(d-1)/2)` on [-1, 1]."""
    a = _alpha(d)
    t = _finite_array(t, "t")
    inside = np.abs(t) < 1
    out = np.zeros_like(t)
    out[inside] = np.exp((a - 0.5) * np.log1p(-t[inside] ** 2) - betaln(0.5, a + 0.5))
    return out


# --------------------------------------------------------------------------- inputs and labels
def sample_spherical_inputs(m: int, d: int, law: str, rng: np.random.Generator) -> np.ndarray:
    r"""``m`` i.i.d. spherically symmetric inputs in :math:`\mathbb R^d`, scaled so that :math:`E\|x\|^2 = d`.

    ``law="sphere"``: uniform on the sphere of radius :math:`\sqrt d` (a non-Gaussian spherical law with
    no radial information); ``law="gaussian"``: :math:`N(0, I_d)` (radius :math:`\chi_d`).
    Under both, :math:`z = \langle w_*, x\rangle` has mean 0 and variance 1. Returns shape ``(m, d)``.
    """
    m = _int_at_least(m, 1, "m")
    d = _int_at_least(d, 3, "d")
    if law not in LAWS:
        raise ValueError(f"law must be one of {LAWS}; got {law!r}")
    g = rng.standard_normal((m, d))
    return g if law == "gaussian" else math.sqrt(d) * _unit_rows(g)


def sample_multivariate_t(m: int, d: int, nu: float, rng: np.random.Generator) -> np.ndarray:
    r"""``m`` i.i.d. multivariate Student-t inputs with ``nu`` degrees of freedom, scaled so that :math:`E\|x\|^2 = d`.

    :math:`x = \sqrt{(\nu-2)/\nu}\; g/\sqrt{s/\nu}` with :math:`g\sim N(0, I_d)` and :math:`s\sim\chi^2_\nu`
    independent: a spherically symmetric law whose radius is heavy-tailed (covariance :math:`I_d`). Its direction
    :math:`u=x/\|x\|` is uniform on the sphere, as under every spherical law. Needs ``nu > 2``. Returns (m, d).
    """
    m = _int_at_least(m, 1, "m")
    d = _int_at_least(d, 3, "d")
    if isinstance(nu, bool) or not isinstance(nu, (int, float)) or not math.isfinite(nu) or nu <= 2:
        raise ValueError(f"nu must be a finite number > 2; got {nu!r}")
    g = rng.standard_normal((m, d))
    s = rng.chisquare(nu, m)
    return math.sqrt((nu - 2) / nu) * g / np.sqrt(s / nu)[:, None]


def random_unit_vector(d: int, rng: np.random.Generator) -> np.ndarray:
    """A uniform unit vector of :math:`\\mathbb R^d`; shape ``(d,)``."""
    d = _int_at_least(d, 1, "d")
    return _unit_rows(rng.standard_normal(d))


def hermite3(z: ArrayLike) -> np.ndarray:
    """Probabilists' Hermite polynomial :math:`He_3(z) = z^3 - 3z` (unit variance after dividing by :math:`\\sqrt6`)."""
    z = _finite_array(z, "z")
    return z**3 - 3 * z


def base_link(z: ArrayLike, link: str, d: int, gamma: float) -> np.ndarray:
    r"""The clipped link :math:`g(z)` before the degree-1 part is removed (brief sec. 4).

    ``"gegenbauer3"``: :math:`\mathrm{clip}(\gamma\tilde C_3(z/\sqrt d), -1, 1)` (harmonic degree 3 on the
    sphere of radius :math:`\sqrt d`; :math:`z/\sqrt d` is clipped to [-1, 1]);
    ``"hermite3"``: :math:`\mathrm{clip}(\gamma He_3(z)/\sqrt6, -1, 1)` (Hermite degree 3, the Gaussian theory's
    information exponent 3); ``"gegenbauer1"``: :math:`\mathrm{clip}(\gamma\tilde C_1(z/\sqrt d), -1, 1)`.
    """
    if link not in LINKS:
        raise ValueError(f"link must be one of {LINKS}; got {link!r}")
    if not (isinstance(gamma, (int, float)) and 0 < gamma <= 1):
        raise ValueError(f"gamma must be in (0, 1]; got {gamma!r}")
    z = _finite_array(z, "z")
    d = _int_at_least(d, 3, "d")
    if link == "hermite3":
        raw = gamma * hermite3(z) / math.sqrt(6)
    else:
        raw = gamma * gegenbauer_normalized(3 if link == "gegenbauer3" else 1, d, np.clip(z / math.sqrt(d), -1, 1))
    return np.clip(raw, -1.0, 1.0)


def degree_one_coefficient(link: str, d: int, gamma: float, law: str) -> float:
    r""":math:`\beta = E[g(z)\,z]/E[\tanh(z)\,z]`, the degree-1 part that clipping puts back into the link.

    Computed by quadrature (``scipy.integrate.quad``) under the law of :math:`z` for the input law:
    :math:`z=\sqrt d\,t` with :math:`t` of density :func:`sphere_marginal_density` (``"sphere"``), or
    :math:`N(0,1)` (``"gaussian"``). Subtracting :math:`\beta\tanh(z)` makes :math:`E[q(z)z]=0`
    (see :func:`link_q`; the brief subtracts :math:`\beta z`, which pushes :math:`|q|` above 1).
    """
    if law not in LAWS:
        raise ValueError(f"law must be one of {LAWS}; got {law!r}")
    d = _int_at_least(d, 3, "d")
    if law == "sphere":
        s = math.sqrt(d)

        def expect(h):
            f = lambda t: float(h(s * t) * s * t * sphere_marginal_density(t, d))  # noqa: E731
            return integrate.quad(f, -1, 1, points=(-0.5, 0.0, 0.5), limit=200, epsabs=1e-13)[0]
    else:
        def expect(h):
            f = lambda z: float(h(z) * z * math.exp(-z * z / 2) / math.sqrt(2 * math.pi))  # noqa: E731
            return integrate.quad(f, -12, 12, points=(-3.0, 0.0, 3.0), limit=200, epsabs=1e-13)[0]
    return float(expect(lambda z: base_link(z, link, d, gamma)) / expect(np.tanh))


def link_q(z: ArrayLike, link: str, d: int, gamma: float, beta: float) -> np.ndarray:
    r""":math:`q(z) = (g(z) - \beta\tanh z)/(1+|\beta|)`, the conditional mean :math:`E[y\mid z]` of the binary label.

    With :math:`\beta` from :func:`degree_one_coefficient`, :math:`E[q(z)z]=0` (no degree-1 part); by
    oddness there is no degree-2 part either. The division keeps :math:`|q|\le1`. A variant of the
    brief's :math:`\mathrm{clip}(\gamma\tilde C_3)-\beta z` (sec. 4), whose :math:`|q|` exceeds 1 because
    :math:`\beta<0` and :math:`z` reaches :math:`\sqrt d`. Shape of ``z``.
    """
    z = _finite_array(z, "z")
    if not (isinstance(beta, (int, float)) and math.isfinite(beta)):
        raise ValueError(f"beta must be a finite number; got {beta!r}")
    return (base_link(z, link, d, gamma) - beta * np.tanh(z)) / (1 + abs(beta))


def binary_labels(q: ArrayLike, rng: np.random.Generator) -> np.ndarray:
    r"""Labels :math:`y\in\{\pm1\}` with :math:`P(y=1) = (1+q)/2`, so :math:`E[y\mid q] = q`; shape of ``q``."""
    q = _finite_array(q, "q")
    if np.any(np.abs(q) > 1):
        raise ValueError("q must lie in [-1, 1]")
    return np.where(rng.random(q.shape) < (1 + q) / 2, 1.0, -1.0)


# --------------------------------------------------------------------------- estimators
def harmonic_tensor3(U: ArrayLike) -> np.ndarray:
    r"""Degree-3 harmonic tensor of unit vectors (brief sec. 3), materialised: use on small inputs only.

    :math:`H_3(u) = u^{\otimes3} - \frac{1}{d+2}\,(u_i\delta_{jk} + u_j\delta_{ik} + u_k\delta_{ij})`:
    symmetric, traceless in every pair of indices for :math:`\|u\|=1`, and
    :math:`\langle H_3(u), w^{\otimes3}\rangle = t^3 - 3t/(d+2) \propto C_3^{(d-2)/2}(t)`, :math:`t=\langle w,u\rangle`.

    Parameters
    ----------
    U : array_like, shape (m, d), rows of unit norm

    Returns
    -------
    np.ndarray, shape (m, d, d, d)
    """
    U = _finite_array(U, "U")
    if U.ndim != 2 or U.shape[1] < 3:
        raise ValueError(f"U must have shape (m, d) with d >= 3; got {U.shape}")
    if not np.allclose(np.linalg.norm(U, axis=1), 1.0, atol=1e-9):
        raise ValueError("the rows of U must be unit vectors")
    d = U.shape[1]
    eye = np.eye(d)
    sym = (np.einsum("mi,jk->mijk", U, eye) + np.einsum("mj,ik->mijk", U, eye)
           + np.einsum("mk,ij->mijk", U, eye))
    return np.einsum("mi,mj,mk->mijk", U, U, U) - sym / (d + 2)


def unfolding_matrix(X: ArrayLike, y: ArrayLike, chunk: int = 2048) -> np.ndarray:
    r"""The unfolded empirical harmonic tensor :math:`M = \frac1m\sum_i y_i H_3(u_i)`, reshaped to :math:`d\times d^2`.

    Never materialises :math:`H_3`: the cubic part is :math:`(y\odot U)^\top (U\ast U)` (row-wise Kronecker
    product, in chunks of ``chunk`` samples) and the trace part is
    :math:`\frac{1}{d+2}(v_i\delta_{jk}+v_j\delta_{ik}+v_k\delta_{ij})` with :math:`v=\frac1m\sum_i y_iu_i`.
    Cost :math:`O(m d^3)`. ``X``: shape (m, d) (any radii; directions are used), ``y``: shape (m,).
    Returns shape (d, d*d).
    """
    X, y = _data(X, y)
    chunk = _int_at_least(chunk, 1, "chunk")
    U = _unit_rows(X)
    m, d = U.shape
    M = np.zeros((d, d * d))
    for s in range(0, m, chunk):
        u = U[s:s + chunk]
        M += (y[s:s + chunk, None] * u).T @ (u[:, :, None] * u[:, None, :]).reshape(len(u), d * d)
    M /= m
    v = (y[:, None] * U).mean(axis=0)
    eye = np.eye(d)
    trace = (np.einsum("i,jk->ijk", v, eye) + np.einsum("j,ik->ijk", v, eye) + np.einsum("k,ij->ijk", v, eye))
    return M - trace.reshape(d, d * d) / (d + 2)


def _cubic_unfolding(V: np.ndarray, y: np.ndarray, trace_coef: float, chunk: int = 2048) -> np.ndarray:
    r""":math:`\frac1m\sum_i y_i\,v_i^{\otimes3} - c\,(\bar v_i\delta_{jk}+\bar v_j\delta_{ik}+\bar v_k\delta_{ij})`,
    :math:`\bar v=\frac1m\sum_i y_iv_i`, unfolded to (d, d*d); rows of ``V`` used as given."""
    m, d = V.shape
    M = np.zeros((d, d * d))
    for s in range(0, m, chunk):
        v = V[s:s + chunk]
        M += (y[s:s + chunk, None] * v).T @ (v[:, :, None] * v[:, None, :]).reshape(len(v), d * d)
    M /= m
    if trace_coef:
        vb = (y[:, None] * V).mean(axis=0)
        eye = np.eye(d)
        trace = (np.einsum("i,jk->ijk", vb, eye) + np.einsum("j,ik->ijk", vb, eye) + np.einsum("k,ij->ijk", vb, eye))
        M = M - trace_coef * trace.reshape(d, d * d)
    return M


def raw_moment_unfolding_estimator(X: ArrayLike, y: ArrayLike) -> np.ndarray:
    r"""Ablation of :func:`unfolding_estimator`: the same unfolding of the *raw* third moment of the directions.

    Top left singular vector of :math:`\frac1m\sum_i y_i\,u_i^{\otimes3}` reshaped to :math:`d\times d^2`, i.e. the
    harmonic projection (the removal of the trace part :math:`\frac{1}{d+2}\,\mathrm{sym}(u\otimes I)`) left out.
    ``X``: shape (m, d) (directions are used), ``y``: shape (m,). Returns a unit vector (d,).
    """
    X, y = _data(X, y)
    return _top_left_singular_vector(_cubic_unfolding(_unit_rows(X), y, 0.0))


def hermite_unfolding_estimator(X: ArrayLike, y: ArrayLike) -> np.ndarray:
    r"""The classical Gaussian recipe: unfolding of the empirical Hermite-3 tensor of the raw inputs.

    Top left singular vector of :math:`\frac1m\sum_i y_i\,He_3(x_i)` reshaped to :math:`d\times d^2`, with
    :math:`He_3(x)_{ijk}=x_ix_jx_k-x_i\delta_{jk}-x_j\delta_{ik}-x_k\delta_{ij}` (so that
    :math:`E[y\,He_3(x)]=E[q(z)He_3(z)]\,w_*^{\otimes3}` for :math:`x\sim N(0,I_d)`). Unlike
    :func:`unfolding_estimator` it keeps the radius. ``X``: (m, d), ``y``: (m,). Returns a unit vector (d,).
    """
    X, y = _data(X, y)
    return _top_left_singular_vector(_cubic_unfolding(X, y, 1.0))


def offdiagonal_moment_unfolding_estimator(X: ArrayLike, y: ArrayLike) -> np.ndarray:
    r"""Naive baseline: the raw third moment of the directions with every repeated-index entry set to zero.

    Top left singular vector of :math:`T_{ijk}=\frac1m\sum_l y_l u_{li}u_{lj}u_{lk}` for distinct
    :math:`i,j,k` and :math:`T_{ijk}=0` otherwise, reshaped to :math:`d\times d^2`: "drop the diagonals" instead of
    the harmonic (trace) projection (suggested by the independent reviewer). ``X``: (m, d) (directions are used),
    ``y``: (m,). Returns a unit vector (d,).
    """
    X, y = _data(X, y)
    d = X.shape[1]
    T = _cubic_unfolding(_unit_rows(X), y, 0.0).reshape(d, d, d)
    i, j, k = np.indices((d, d, d))
    T[(i == j) | (j == k) | (i == k)] = 0.0
    return _top_left_singular_vector(T.reshape(d, d * d))


def multistart_gradient_ascent(X: ArrayLike, y: ArrayLike, rng: np.random.Generator, restarts: int = 10,
                               iters: int = 150, lr: float = 2.0) -> np.ndarray:
    r"""Naive baseline: multi-pass projected gradient ascent on :math:`\frac1m\sum_i y_i\langle w,u_i\rangle^3`.

    From ``restarts`` uniform random starts, ``iters`` full-batch steps
    :math:`w\leftarrow\mathrm{normalize}(w+\mathrm{lr}\cdot d\,(I-ww^\top)\nabla)`, with
    :math:`\nabla=\frac3m\sum_iy_i\langle w,u_i\rangle^2u_i`; returns the end point whose
    :math:`|\frac1m\sum_iy_i\langle w,u_i\rangle^3|` is largest. No tensor, :math:`O(md)` per step. Design
    (10 restarts, 150 steps, lr 2) as the independent reviewer ran it, not tuned here. Returns a unit vector (d,).
    """
    X, y = _data(X, y)
    restarts = _int_at_least(restarts, 1, "restarts")
    iters = _int_at_least(iters, 1, "iters")
    if not (isinstance(lr, (int, float)) and math.isfinite(lr) and lr > 0):
        raise ValueError(f"lr must be a positive number; got {lr!r}")
    U = _unit_rows(X)
    m, d = U.shape
    W = rng.standard_normal((d, restarts))
    W /= np.linalg.norm(W, axis=0)
    for _ in range(iters):
        T = U @ W
        G = U.T @ (3.0 * y[:, None] * T**2) / m
        G -= np.sum(G * W, axis=0) * W
        W = W + lr * d * G
        W /= np.linalg.norm(W, axis=0)
    obj = np.abs(np.mean(y[:, None] * (U @ W) ** 3, axis=0))
    return W[:, int(np.argmax(obj))]


def _top_left_singular_vector(M: np.ndarray) -> np.ndarray:
    vals, vecs = np.linalg.eigh(M @ M.T)
    v = vecs[:, -1]
    return v * (1.0 if v[np.argmax(np.abs(v))] > 0 else -1.0)


def unfolding_estimator(X: ArrayLike, y: ArrayLike) -> np.ndarray:
    r"""Harmonic tensor unfolding (degree 3; brief sec. 3, the paper's sample-optimal family).

    Top left singular vector of :func:`unfolding_matrix`, which in expectation is
    :math:`c\,w_*\,\mathrm{vec}(w_*\otimes w_*)^\top` (rank one). Returns a unit vector of shape (d,)
    (sign fixed so that the largest entry is positive; the overlap ignores it).
    """
    return _top_left_singular_vector(unfolding_matrix(X, y))


def spectral_estimator(X: ArrayLike, y: ArrayLike, degree: int) -> np.ndarray:
    r"""Degree-1 or degree-2 harmonic estimator on the directions :math:`u_i = x_i/\|x_i\|` (brief sec. 4).

    ``degree=1``: :math:`\hat w\propto\frac1m\sum_i y_iu_i`. ``degree=2``: the eigenvector of largest
    absolute eigenvalue of :math:`\frac1m\sum_i y_i(u_iu_i^\top - I/d)` (traceless). Returns a unit vector (d,).
    """
    X, y = _data(X, y)
    if degree not in (1, 2):
        raise ValueError(f"degree must be 1 or 2; got {degree!r}")
    U = _unit_rows(X)
    if degree == 1:
        v = (y[:, None] * U).mean(axis=0)
        n = np.linalg.norm(v)
        return v / n if n > 0 else np.eye(X.shape[1])[0]
    d = U.shape[1]
    S = (y[:, None] * U).T @ U / len(y) - y.mean() * np.eye(d) / d
    vals, vecs = np.linalg.eigh(S)
    return vecs[:, int(np.argmax(np.abs(vals)))]


def raw_degree1_estimator(X: ArrayLike, y: ArrayLike, weight: str = "none") -> np.ndarray:
    r"""Naive degree-1 baselines on the raw inputs: :math:`\hat w\propto\frac1m\sum_i y_i\,x_i` (``weight="none"``)
    or the uncentred radial weight :math:`\hat w\propto\frac1m\sum_i y_i\,\|x_i\|^2x_i` (``weight="radius2"``).

    The second is :func:`radial_degree1_estimator` without its centring :math:`-(d+2)`; both suggested by the
    independent reviewer. ``X``: (m, d), ``y``: (m,). Returns a unit vector (d,).
    """
    X, y = _data(X, y)
    if weight not in ("none", "radius2"):
        raise ValueError(f"weight must be 'none' or 'radius2'; got {weight!r}")
    wt = y if weight == "none" else y * np.einsum("ij,ij->i", X, X)
    v = (wt[:, None] * X).mean(axis=0)
    n = np.linalg.norm(v)
    return v / n if n > 0 else np.eye(X.shape[1])[0]


def radial_degree1_estimator(X: ArrayLike, y: ArrayLike) -> np.ndarray:
    r"""Degree-1 harmonic estimator with a radial weight: :math:`\hat w\propto\frac1m\sum_i y_i\,(\|x_i\|^2-d-2)\,x_i`.

    Our stand-in for the paper's remark that under Gaussian inputs the radius carries information: for
    :math:`x\sim N(0,I_d)` and :math:`y` with :math:`E[y\mid z]=q(z)`,
    :math:`E[y(\|x\|^2-d-2)x] = E[q(z)(z^3-3z)]\,w_*` (Stein's lemma), nonzero for a Hermite-3 link whose
    Hermite-1 coefficient is 0. With a constant radius (``"sphere"``) the weight is constant and this is
    the plain degree-1 estimator. ``X``: (m, d); returns a unit vector (d,).
    """
    X, y = _data(X, y)
    d = X.shape[1]
    v = ((y * (np.einsum("ij,ij->i", X, X) - d - 2))[:, None] * X).mean(axis=0)
    n = np.linalg.norm(v)
    return v / n if n > 0 else np.eye(d)[0]


def online_spherical_sgd(X: ArrayLike, y: ArrayLike, w0: ArrayLike, degree: int, lr: float, batch: int) -> np.ndarray:
    r"""Online spherical SGD on the correlation loss :math:`-y\,\tilde C_\ell(\langle w,u\rangle)` (brief sec. 3).

    One pass, each sample used once, in mini-batches of ``batch`` samples:
    :math:`w \leftarrow \mathrm{normalize}\big(w + \eta\,\overline{y\,\tilde C_\ell'(\langle w,u\rangle)\,(u - \langle w,u\rangle w)}\big)`,
    the bar an average over the batch. Vectorised over ``R`` independent runs.

    Parameters
    ----------
    X : array_like, shape (R, m, d) or (m, d)
    y : array_like, shape (R, m) or (m,)
    w0 : array_like, shape (R, d) or (d,), unit rows (the start)
    degree : int >= 1, the harmonic degree :math:`\ell` of the loss
    lr : float > 0, the step :math:`\eta`
    batch : int >= 1 (a last partial batch is dropped)

    Returns
    -------
    np.ndarray, shape (R, d) or (d,): the final unit vectors
    """
    X = _finite_array(X, "X")
    y = _finite_array(y, "y")
    w = _finite_array(w0, "w0")
    single = X.ndim == 2
    if single:
        X, y, w = X[None], y[None], w[None]
    if X.ndim != 3 or y.shape != X.shape[:2] or w.shape != (X.shape[0], X.shape[2]) or X.shape[2] < 3:
        raise ValueError(f"shapes must be X (R, m, d), y (R, m), w0 (R, d) with d >= 3; got {X.shape}, {y.shape}, {w.shape}")
    if not np.allclose(np.linalg.norm(w, axis=1), 1.0, atol=1e-9):
        raise ValueError("w0 must have unit rows")
    degree = _int_at_least(degree, 1, "degree")
    batch = _int_at_least(batch, 1, "batch")
    if not (isinstance(lr, (int, float)) and math.isfinite(lr) and lr > 0):
        raise ValueError(f"lr must be a finite number > 0; got {lr!r}")
    d = X.shape[2]
    U = _unit_rows(X)
    w = w.copy()
    a = _alpha(d)
    scale = 2 * a / math.sqrt(gegenbauer_sphere_variance(degree, d))  # C~_l' = scale * C_{l-1}^{a+1}
    for s in range(0, X.shape[1] - batch + 1, batch):
        u, yy = U[:, s:s + batch], y[:, s:s + batch]
        t = np.einsum("rbd,rd->rb", u, w)
        coef = yy * (scale * _gegenbauer_unchecked(degree - 1, a + 1, t))
        g = (np.einsum("rb,rbd->rd", coef, u) - (coef * t).sum(axis=1)[:, None] * w) / batch
        w = w + lr * g
        w /= np.sqrt(np.einsum("rd,rd->r", w, w))[:, None]
    return w[0] if single else w


# --------------------------------------------------------------------------- summaries
def overlap(w_hat: ArrayLike, w_star: ArrayLike) -> np.ndarray:
    r""":math:`|\langle\hat w, w_*\rangle|/(\|\hat w\|\|w_*\|)`; ``w_hat`` of shape (d,) or (R, d), ``w_star`` (d,)."""
    a = _finite_array(w_hat, "w_hat")
    b = _finite_array(w_star, "w_star")
    if b.ndim != 1 or a.shape[-1] != b.shape[0]:
        raise ValueError(f"shapes do not match: {a.shape} and {b.shape}")
    return np.abs(a @ b) / (np.linalg.norm(a, axis=-1) * np.linalg.norm(b))


def threshold_crossing(c: ArrayLike, values: ArrayLike, level: float) -> float:
    r"""Smallest :math:`c` at which ``values`` first reaches ``level``, interpolated linearly in :math:`\log c`.

    ``c`` increasing, shape (n,); ``values`` shape (n,). Returns ``nan`` if ``level`` is never reached and
    ``c[0]`` if it is reached at the first point.
    """
    c = _finite_array(c, "c")
    v = _finite_array(values, "values")
    if c.ndim != 1 or v.shape != c.shape or c.size < 1 or np.any(c <= 0) or np.any(np.diff(c) <= 0):
        raise ValueError("c must be positive and increasing, with values of the same shape")
    hit = np.flatnonzero(v >= level)
    if hit.size == 0:
        return float("nan")
    j = int(hit[0])
    if j == 0:
        return float(c[0])
    lo, hi = np.log(c[j - 1]), np.log(c[j])
    frac = (level - v[j - 1]) / (v[j] - v[j - 1])
    return float(np.exp(lo + frac * (hi - lo)))
