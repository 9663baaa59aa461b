"""Small numerical helpers shared by several papers.

Used by the notebooks of the "Stochastic optimisation" part among others:
rates are fitted as log-log slopes, Gaussian limits measured as
Kolmogorov--Smirnov distances.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike


def loglog_slope(x: ArrayLike, y: ArrayLike) -> float:
    """Least-squares slope of ``log y`` against ``log x``.

    Parameters
    ----------
    x, y : array_like, shape (m,)
        Positive values, ``m >= 2``.

    Returns
    -------
    float
        The exponent ``a`` of the best fit ``y ~ C x^a``.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1 or x.size < 2:
        raise ValueError(f"x and y must be 1-d of equal length >= 2; got {x.shape} and {y.shape}")
    if np.any(x <= 0) or np.any(y <= 0):
        raise ValueError("loglog_slope needs strictly positive x and y")
    slope, _ = np.polyfit(np.log(x), np.log(y), 1)
    return float(slope)


def ks_distance(samples: ArrayLike, cdf) -> float:
    """Kolmogorov--Smirnov distance ``sup_x |F_n(x) - F(x)|`` between samples and a CDF.

    Parameters
    ----------
    samples : array_like, shape (m,)
        One-dimensional sample.
    cdf : callable
        Vectorised CDF of the reference law (e.g. ``scipy.stats.norm(0, s).cdf``).

    Returns
    -------
    float
        The KS statistic, as ``scipy.stats.kstest`` computes it.
    """
    from scipy.stats import kstest

    x = np.asarray(samples, dtype=float)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"samples must be a non-empty 1-d array; got shape {x.shape}")
    return float(kstest(x, cdf).statistic)
