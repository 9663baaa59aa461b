"""Notebook parameters, determinism and offline guard.

Every notebook starts with a ``parameters`` cell holding two literals,
``scale`` and ``seed`` (papermill overrides them), and then calls
:func:`setup_notebook`, which

1. validates both (a bad value raises ``ValueError`` naming the allowed ones),
2. seeds ``random``, ``numpy`` and ``torch`` and pins every library to one
   thread (two notebooks run side by side on CI's two cores),
3. blocks network connections that leave loopback (the book runs offline),
4. applies the book's figure style,

and returns the preset of the chosen scale as an attribute namespace.
"""

from __future__ import annotations

import os
import random
import socket
from collections.abc import Iterable, Iterator, Mapping
from types import SimpleNamespace
from typing import Any, TypeVar

import numpy as np

SCALES: tuple[str, ...] = ("ci", "full")
_T = TypeVar("_T")
_CURRENT_SCALE = {"scale": "ci"}


def check_params(scale: object, seed: object) -> None:
    """Raise ``ValueError`` unless ``scale`` is one of :data:`SCALES` and ``seed`` a non-negative int."""
    if not isinstance(scale, str) or scale not in SCALES:
        raise ValueError(f"scale must be one of {', '.join(repr(s) for s in SCALES)}; got {scale!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative int; got {seed!r}")


def seed_everything(seed: int, threads: int = 1) -> np.random.Generator:
    """Seed ``random``, ``numpy`` and ``torch``; pin BLAS/OpenMP and torch to ``threads``.

    Returns a fresh ``numpy.random.Generator`` seeded with ``seed``.
    """
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = str(threads)
    random.seed(seed)
    np.random.seed(seed % 2**32)
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(threads)
    except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn
        pass
    try:
        import torch
    except ImportError:  # pragma: no cover - torch is a pinned dependency
        pass
    else:
        torch.manual_seed(seed)
        torch.set_num_threads(threads)
    return np.random.default_rng(seed)


_LOOPBACK_PREFIXES = ("127.", "::1", "localhost", "0:0:0:0:0:0:0:1")


def _is_loopback(address: Any) -> bool:
    host = address[0] if isinstance(address, tuple) else address
    if isinstance(host, bytes):
        host = host.decode()
    if not isinstance(host, str):
        return False
    return host == "" or host.startswith(_LOOPBACK_PREFIXES) or host.startswith("/")


class NetworkBlockedError(OSError):
    """Raised when code run by the book tries to reach a non-loopback address."""


def block_network() -> None:
    """Make every socket connection to a non-loopback address raise :class:`NetworkBlockedError`.

    Idempotent. Loopback stays open (Jupyter kernels talk to their clients there).
    """
    if getattr(socket.socket, "_repro_blocked", False):
        return
    original_connect = socket.socket.connect
    original_connect_ex = socket.socket.connect_ex
    original_getaddrinfo = socket.getaddrinfo

    def connect(self: socket.socket, address: Any) -> Any:
        if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address):
            raise NetworkBlockedError(f"network access is blocked in the book (tried {address!r})")
        return original_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> Any:
        if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address):
            raise NetworkBlockedError(f"network access is blocked in the book (tried {address!r})")
        return original_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host is not None and not _is_loopback(host):
            raise NetworkBlockedError(f"name resolution is blocked in the book (tried {host!r})")
        return original_getaddrinfo(host, *args, **kwargs)

    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
    socket.getaddrinfo = getaddrinfo  # type: ignore[assignment]
    socket.socket._repro_blocked = True  # type: ignore[attr-defined]


def setup_notebook(scale: str, seed: int, presets: Mapping[str, Mapping[str, Any]]) -> SimpleNamespace:
    """Validate the parameters, seed, pin threads, block the network, style figures.

    Parameters
    ----------
    scale : {"ci", "full"}
        Size of the run. ``"ci"`` runs in about ten seconds on one thread.
    seed : int
        Non-negative seed for ``random``, ``numpy`` and ``torch``.
    presets : mapping
        ``{"ci": {...}, "full": {...}}``: the notebook's sizes, one place.

    Returns
    -------
    types.SimpleNamespace
        The chosen preset, plus ``scale``, ``seed`` and ``rng`` (a seeded
        ``numpy.random.Generator``).
    """
    check_params(scale, seed)
    missing = [s for s in SCALES if s not in presets]
    if missing:
        raise ValueError(f"presets must define every scale {SCALES}; missing {missing}")
    rng = seed_everything(int(seed))
    block_network()
    from repro.plotting import use_style

    use_style()
    _CURRENT_SCALE["scale"] = scale
    return SimpleNamespace(**dict(presets[scale]), scale=scale, seed=int(seed), rng=rng)


def progress(iterable: Iterable[_T], total: int | None = None, desc: str | None = None) -> Iterator[_T]:
    """Wrap a long loop in a progress bar at ``full`` scale; stay silent at ``ci`` scale."""
    if _CURRENT_SCALE["scale"] == "ci":
        yield from iterable
        return
    from tqdm.auto import tqdm

    yield from tqdm(iterable, total=total, desc=desc)
