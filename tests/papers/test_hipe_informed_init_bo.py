"""Unit tests of :mod:`repro.papers.hipe_informed_init_bo`, the kernels of ``notebooks/hipe-informed-init-bo.py``."""

import inspect

from repro.papers import hipe_informed_init_bo as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/hipe_informed_init_bo.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# TODO(scaffold): for every kernel, tests of closed forms, invariants, brute force on tiny cases, a
# field library's answer, and bad input (pytest.raises(ValueError, match=...)).
