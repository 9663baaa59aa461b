"""repro.validate: the shared input checks accept what they should and name what they reject."""

import numpy as np
import pytest

from repro.validate import check_int, check_positive, finite_array


def test_check_int():
    assert check_int(3, "n") == 3 and check_int(np.int64(4), "n", least=4) == 4
    assert type(check_int(np.int32(2), "n")) is int
    for bad in (2.0, "3", True, None):
        with pytest.raises(ValueError, match="n must be an integer"):
            check_int(bad, "n")
    with pytest.raises(ValueError, match="k must be an integer >= 2; got 1"):
        check_int(1, "k", least=2)


def test_check_positive():
    assert check_positive(0.5, "lr") == 0.5 and check_positive(0, "wd", strict=False) == 0.0
    with pytest.raises(ValueError, match="lr must be > 0"):
        check_positive(0.0, "lr")
    with pytest.raises(ValueError, match=">= 0"):
        check_positive(-1, "wd", strict=False)
    for bad in (float("nan"), float("inf"), "1", True):
        with pytest.raises(ValueError, match="finite real"):
            check_positive(bad, "lr")


def test_finite_array():
    out = finite_array([[1, 2], [3, 4]], "X", ndim=2)
    assert out.dtype == float and out.shape == (2, 2)
    with pytest.raises(ValueError, match="X must have 1 dimension"):
        finite_array([[1.0]], "X", ndim=1)
    with pytest.raises(ValueError, match="X must be finite"):
        finite_array([1.0, np.nan], "X")
    with pytest.raises(ValueError, match="array of numbers"):
        finite_array(["a"], "X")
    assert finite_array([1, 2], "y", dtype=int).dtype.kind == "i"
