"""Test-session setup: one thread, and no network (the whole suite runs offline)."""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

from repro.runtime import block_network  # noqa: E402

block_network()

try:
    import torch

    torch.set_num_threads(1)
except ImportError:  # pragma: no cover
    pass
