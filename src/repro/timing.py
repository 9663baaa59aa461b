"""Wall-clock timing shared by the pages that measure a speed-up side by side.

Wall-clock values vary from run to run and machine to machine: pages record
them as volatile claims (:meth:`repro.claims.Claims.timings`) and rest their
checked speed claims on deterministic counts.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable


def best_time(fn: Callable[[], object], repeats: int = 3) -> float:
    """Best-of-``repeats`` wall-clock seconds of one call ``fn()``.

    The minimum is the least noisy estimate of a call's cost on a busy machine.
    Used by ``notebooks/tao-linear-leaves-smw.py``, ``notebooks/eugens-dense-layers.py``,
    ``notebooks/rotor-linear-layers.py`` and ``notebooks/masnet-monotone-sets.py``.
    """
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1; got {repeats}")
    best = math.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best
