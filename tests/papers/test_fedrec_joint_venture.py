"""Unit tests of :mod:`repro.papers.fedrec_joint_venture`, the kernels of ``notebooks/fedrec-joint-venture.py``."""

import inspect

from repro.papers import fedrec_joint_venture as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/fedrec_joint_venture.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# TODO(scaffold): for every kernel, tests of closed forms, invariants, brute force on tiny cases, a
# field library's answer, and bad input (pytest.raises(ValueError, match=...)).
