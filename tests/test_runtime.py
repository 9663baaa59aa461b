import socket

import numpy as np
import pytest
import torch

from repro import runtime
from repro.runtime import NetworkBlockedError, check_params, setup_notebook

PRESETS = {"ci": {"n": 3}, "full": {"n": 30}}


@pytest.mark.parametrize("scale", ["CI", "huge", "", None, 1])
def test_bad_scale_names_the_allowed_values(scale):
    with pytest.raises(ValueError, match="'ci', 'full'"):
        check_params(scale, 0)


@pytest.mark.parametrize("seed", [-1, 1.5, "0", True, None])
def test_bad_seed_is_refused(seed):
    with pytest.raises(ValueError, match="non-negative int"):
        check_params("ci", seed)


def test_setup_returns_the_preset_and_is_deterministic():
    p1 = setup_notebook("ci", 3, PRESETS)
    a = (p1.rng.normal(size=3), np.random.rand(2), torch.rand(2))
    p2 = setup_notebook("ci", 3, PRESETS)
    b = (p2.rng.normal(size=3), np.random.rand(2), torch.rand(2))
    assert p1.n == 3 and p1.scale == "ci" and p1.seed == 3
    for x, y in zip(a, b):
        assert np.allclose(np.asarray(x), np.asarray(y))
    assert torch.get_num_threads() == 1
    assert setup_notebook("full", 0, PRESETS).n == 30


def test_presets_must_cover_every_scale():
    with pytest.raises(ValueError, match="missing"):
        setup_notebook("ci", 0, {"ci": {}})


def test_network_is_blocked_but_loopback_is_not():
    runtime.block_network()
    with pytest.raises(NetworkBlockedError):
        socket.create_connection(("192.0.2.1", 80), timeout=0.5)
    with pytest.raises(NetworkBlockedError):
        socket.getaddrinfo("example.org", 443)
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    client = socket.create_connection(server.getsockname(), timeout=1)
    client.close()
    server.close()


def test_progress_is_silent_at_ci_scale(capsys):
    setup_notebook("ci", 0, PRESETS)
    assert list(runtime.progress(range(3))) == [0, 1, 2]
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""
