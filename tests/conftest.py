"""Test-session setup: one thread, and no network (the whole suite runs offline)."""

import os

import pytest

os.environ.setdefault("OMP_NUM_THREADS", "1")

from repro.runtime import block_network  # noqa: E402

block_network()

try:
    import torch

    torch.set_num_threads(1)
except ImportError:  # pragma: no cover
    pass


@pytest.fixture(autouse=True)
def torch_default_dtype_is_float32():
    """Every test starts from torch's float32 default and leaves it there: a test module that calls
    ``torch.set_default_dtype`` at import time changes it for every module collected in the same process."""
    if "torch" not in globals():  # pragma: no cover
        yield
        return
    assert torch.get_default_dtype() == torch.float32, "a test module changed torch's default dtype at import"
    yield
    assert torch.get_default_dtype() == torch.float32, "this test left torch's default dtype changed"
