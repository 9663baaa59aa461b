"""Input checks shared by the kernel modules: clear errors that name the argument and what it must be.

Every kernel validates its inputs (see ``CONTRIBUTING.md``); these are the checks that many of them need,
written once. Each returns the checked value in a normal form, so a kernel can write
``n = check_int(n, "n", least=2)`` and go on.
"""

from __future__ import annotations

import numbers

import numpy as np
from numpy.typing import ArrayLike


def check_int(value: object, name: str, least: int | None = None) -> int:
    """``value`` as an ``int``; ValueError unless it is an integer (not a bool) and ``>= least``.

    Examples
    --------
    >>> check_int(3, "n", least=1)
    3
    >>> check_int(2.5, "n")
    Traceback (most recent call last):
    ...
    ValueError: n must be an integer; got 2.5
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer; got {value!r}")
    if least is not None and value < least:
        raise ValueError(f"{name} must be an integer >= {least}; got {value!r}")
    return int(value)


def check_positive(value: object, name: str, strict: bool = True) -> float:
    """``value`` as a ``float``; ValueError unless it is a finite real number ``> 0`` (``>= 0`` if not strict)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(float(value)):
        raise ValueError(f"{name} must be a finite real number; got {value!r}")
    if (value <= 0) if strict else (value < 0):
        raise ValueError(f"{name} must be {'> 0' if strict else '>= 0'}; got {value!r}")
    return float(value)


def finite_array(x: ArrayLike, name: str, ndim: int | None = None, dtype: type = float) -> np.ndarray:
    """``x`` as a numpy array of ``dtype``; ValueError if it has another ``ndim`` or any NaN or infinity.

    Parameters
    ----------
    x : array_like
    name : str
        The argument's name, for the error message.
    ndim : int, optional
        The required number of dimensions.
    dtype : type
        The dtype to convert to (float by default).
    """
    try:
        arr = np.asarray(x, dtype=dtype)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{name} must be an array of numbers; got {type(x).__name__}: {err}") from None
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimension(s); got shape {arr.shape}")
    if arr.dtype.kind in "fc" and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite (no NaN or infinity)")
    return arr
