r"""Online learning of quantum states: matrix multiplicative weights against pure and mixed adversaries.

Paper map
---------
*Online Learning of Pure States is as Hard as Mixed States*, Maxime Meyer, Soumik Adhikary, Naixu Guo and
Patrick Rebentrost, NeurIPS 2025 (https://arxiv.org/abs/2502.00823). We read the abstract and secondary
summaries only; the paper proves that pure and mixed :math:`n`-qubit states have almost the same sequential
fat-shattering dimension, so both classes share the minimax regret :math:`\Theta(\sqrt{nT})` under the
:math:`L_1` loss. No official code was found. The learner below is the matrix multiplicative weights
(MMW) algorithm of the prior work this paper builds on (Aaronson, Chen, Hazan, Kale and Nayak, *Online
Learning of Quantum States*, NeurIPS 2018), in its matrix-Hedge form (Tsuda, Ratsch and Warmuth 2005;
Arora and Kale 2007).
Notebook: ``notebooks/online-pure-vs-mixed-states.py``.

Notation (paper -> here):

- :math:`n` qubits, Hilbert-space dimension :math:`N = 2^n` -> ``n``, ``N``; states are ``(N, N)`` complex arrays.
- round :math:`t = 1..T` -> index ``t = 0..T-1`` of the leading time axis.
- two-outcome measurement :math:`E_t`, :math:`0 \preceq E_t \preceq I` -> ``E[t]``, shape ``(T, N, N)``.
- learner's state :math:`\omega_t`, prediction :math:`\mathrm{Tr}(E_t\omega_t)` -> ``omega[t]``, ``pred[t]``.
- revealed value :math:`b_t \in [0, 1]` -> ``b[t]`` (a measurement outcome in :math:`\{0, 1\}` here).
- loss :math:`\ell_t(\omega) = |\mathrm{Tr}(E_t\omega) - b_t|` -> :func:`l1_losses`.
- subgradient :math:`g_t = \mathrm{sign}(\mathrm{Tr}(E_t\omega_t) - b_t)\,E_t` and its prefix sum
  :math:`G_t = \sum_{s<t} g_s` -> :func:`mmw_online`, :func:`cumulative_gradients`.
- MMW update :math:`\omega_t = e^{-\eta G_t} / \mathrm{Tr}\, e^{-\eta G_t}` -> :func:`mmw_state`.
- step size :math:`\eta = \sqrt{\ln N / T}` -> :func:`mmw_step_size`.
- regret :math:`R_T = \sum_t \ell_t(\omega_t) - \min_\rho \sum_t \ell_t(\rho)` -> :func:`regret`,
  :func:`best_state_in_hindsight`; the bound :math:`R_T \le 2\sqrt{T\ln N}` -> :func:`mmw_regret_bound`.

Binary outcomes make the loss linear. For :math:`b_t\in\{0,1\}` and :math:`\mathrm{Tr}(E_t\rho)\in[0,1]`,
:math:`|\mathrm{Tr}(E_t\rho) - b_t| = b_t + (1-2b_t)\,\mathrm{Tr}(E_t\rho)`, so the cumulative loss is the linear
function :math:`\sum_t b_t + \mathrm{Tr}(\rho\,G_{T})` of the state, minimised over all density matrices at an
eigenvector of :math:`G_T` (a pure state): on measurement records the best mixed state in hindsight is a
pure state, and the subgradient :math:`(1-2b_t)E_t` does not depend on the learner, which makes MMW on such
records a matrix-Hedge computation vectorised over all rounds (:func:`mmw_binary_losses`).
"""

from __future__ import annotations

import math
from functools import reduce

import numpy as np
from numpy.typing import ArrayLike
from scipy.stats import binom

PAULI: dict[str, np.ndarray] = {
    "I": np.eye(2, dtype=complex),
    "X": np.array([[0, 1], [1, 0]], dtype=complex),
    "Y": np.array([[0, -1j], [1j, 0]], dtype=complex),
    "Z": np.array([[1, 0], [0, -1]], dtype=complex),
}
AXES: tuple[str, ...] = ("X", "Y", "Z")


# --------------------------------------------------------------------------- validation helpers
def _check_int(x: object, name: str, least: int) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < least:
        raise ValueError(f"{name} must be an int >= {least}; got {x!r}")
    return int(x)


def _check_measurements(E: ArrayLike, atol: float = 1e-9) -> np.ndarray:
    E = np.asarray(E)
    if E.ndim < 3 or E.shape[-1] != E.shape[-2] or E.shape[-1] < 2:
        raise ValueError(f"E must have shape (..., T, N, N) with N >= 2; got {E.shape}")
    if not np.allclose(E, np.conj(np.swapaxes(E, -1, -2)), atol=atol):
        raise ValueError("every measurement E[t] must be Hermitian")
    ev = np.linalg.eigvalsh(E)
    if ev.min() < -atol or ev.max() > 1 + atol:
        raise ValueError(f"every measurement must satisfy 0 <= E[t] <= I; eigenvalues span [{ev.min():.3g}, {ev.max():.3g}]")
    return E


def _check_labels(b: ArrayLike, T: int, binary: bool) -> np.ndarray:
    b = np.asarray(b, dtype=float)
    if b.shape[-1:] != (T,):
        raise ValueError(f"b must have a last axis of length T = {T}; got shape {b.shape}")
    if binary and not np.all((b == 0) | (b == 1)):
        raise ValueError("b must hold measurement outcomes in {0, 1}")
    if not binary and (np.any(b < 0) or np.any(b > 1) or not np.all(np.isfinite(b))):
        raise ValueError("b must lie in [0, 1]")
    return b


def _check_state(rho: ArrayLike, atol: float = 1e-8) -> np.ndarray:
    rho = np.asarray(rho)
    if not is_density_matrix(rho, atol):
        raise ValueError("rho must be a density matrix (Hermitian, positive semidefinite, trace one)")
    return rho


# --------------------------------------------------------------------------- states and measurements
def is_density_matrix(rho: ArrayLike, atol: float = 1e-8) -> bool:
    """Whether ``rho`` (shape ``(..., N, N)``) is Hermitian, positive semidefinite and of unit trace, within ``atol``."""
    rho = np.asarray(rho)
    if rho.ndim < 2 or rho.shape[-1] != rho.shape[-2]:
        return False
    if not np.allclose(rho, np.conj(np.swapaxes(rho, -1, -2)), atol=atol):
        return False
    if not np.allclose(np.trace(rho, axis1=-2, axis2=-1), 1.0, atol=atol):
        return False
    return bool(np.linalg.eigvalsh(rho).min() >= -atol)


def qubit_state(bloch: ArrayLike) -> np.ndarray:
    r"""One-qubit density matrix :math:`(I + r_x X + r_y Y + r_z Z)/2` from a Bloch vector ``r``, shape (3,), ``|r| <= 1``."""
    r = np.asarray(bloch, dtype=float)
    if r.shape != (3,) or np.linalg.norm(r) > 1 + 1e-12:
        raise ValueError(f"a Bloch vector has shape (3,) and length <= 1; got {r!r}")
    return 0.5 * (PAULI["I"] + r[0] * PAULI["X"] + r[1] * PAULI["Y"] + r[2] * PAULI["Z"])


def product_state(blochs: ArrayLike) -> np.ndarray:
    r"""Product state :math:`\rho_1\otimes\cdots\otimes\rho_n` from Bloch vectors, shape (n, 3) -> (2^n, 2^n).

    Qubit 0 is the most significant tensor factor. Pure when every vector has unit length.
    """
    r = np.asarray(blochs, dtype=float)
    if r.ndim != 2 or r.shape[1] != 3 or r.shape[0] < 1:
        raise ValueError(f"blochs must have shape (n, 3) with n >= 1; got {r.shape}")
    return reduce(np.kron, [qubit_state(v) for v in r])


def random_bloch_vectors(n: int, length: float, rng: np.random.Generator) -> np.ndarray:
    """``n`` Bloch vectors of the given ``length`` in uniformly random directions, shape (n, 3)."""
    n = _check_int(n, "n", 1)
    if not (0 <= length <= 1):
        raise ValueError(f"length must lie in [0, 1]; got {length!r}")
    v = rng.normal(size=(n, 3))
    return length * v / np.linalg.norm(v, axis=1, keepdims=True)


def local_paulis(n: int) -> np.ndarray:
    """The ``3n`` single-qubit Paulis :math:`P^{(i)}_a` (``a`` in X, Y, Z on qubit ``i``), shape (n, 3, 2^n, 2^n)."""
    n = _check_int(n, "n", 1)
    out = np.empty((n, 3, 2**n, 2**n), dtype=complex)
    for i in range(n):
        for a, ax in enumerate(AXES):
            out[i, a] = reduce(np.kron, [PAULI[ax] if j == i else PAULI["I"] for j in range(n)])
    return out


def local_pauli_projectors(n: int, qubits: ArrayLike, axes: ArrayLike, signs: ArrayLike) -> np.ndarray:
    r"""Two-outcome measurements :math:`E_t = (I + s_t P^{(i_t)}_{a_t})/2` (projector onto one eigenspace of a local Pauli).

    Parameters
    ----------
    n : int >= 1
    qubits, axes, signs : array_like of int, shape (T,)
        Qubit ``i_t`` in ``0..n-1``, axis ``a_t`` in ``0..2`` (X, Y, Z), sign ``s_t`` in ``{-1, +1}``.

    Returns
    -------
    np.ndarray, shape (T, 2^n, 2^n)
        Rank-:math:`N/2` projectors.
    """
    n = _check_int(n, "n", 1)
    q, a, s = (np.asarray(x) for x in (qubits, axes, signs))
    if not (q.shape == a.shape == s.shape and q.ndim == 1):
        raise ValueError(f"qubits, axes and signs must be 1-d of equal length; got {q.shape}, {a.shape}, {s.shape}")
    if np.any((q < 0) | (q >= n)) or np.any((a < 0) | (a > 2)) or not np.all(np.abs(s) == 1):
        raise ValueError("qubits must lie in 0..n-1, axes in 0..2 and signs in {-1, +1}")
    P = local_paulis(n)[q, a]
    return 0.5 * (np.eye(2**n) + s[:, None, None] * P)


def z_one_projector_diagonals(n: int, qubits: ArrayLike) -> np.ndarray:
    r"""Diagonals of :math:`|1\rangle\langle 1|` on qubit ``i_t`` (commuting measurements), shape (T, 2^n).

    Entry ``[t, k]`` is bit ``i_t`` of basis state ``k`` (qubit 0 the most significant bit).
    """
    n = _check_int(n, "n", 1)
    q = np.asarray(qubits)
    if q.ndim != 1 or np.any((q < 0) | (q >= n)):
        raise ValueError(f"qubits must be a 1-d array of values in 0..{n - 1}")
    k = np.arange(2**n)
    return ((k[None, :] >> (n - 1 - q[:, None])) & 1).astype(float)


def born_outcomes(E: ArrayLike, sigma: ArrayLike, rng: np.random.Generator) -> np.ndarray:
    r"""Outcomes :math:`b_t \sim \mathrm{Bernoulli}(\mathrm{Tr}(E_t\sigma))` of measuring fresh copies of ``sigma``.

    ``E`` has shape (T, N, N), ``sigma`` (N, N); returns floats in {0, 1}, shape (T,).
    """
    E = _check_measurements(E)
    sigma = _check_state(sigma)
    if sigma.shape != E.shape[-2:]:
        raise ValueError(f"sigma has shape {sigma.shape}, measurements act on {E.shape[-2:]}")
    p = np.clip((E * sigma.T).sum(axis=(-2, -1)).real, 0.0, 1.0)
    return (rng.random(p.shape) < p).astype(float)


# --------------------------------------------------------------------------- losses and comparators
def l1_losses(E: ArrayLike, b: ArrayLike, rho: ArrayLike) -> np.ndarray:
    r"""Losses :math:`|\mathrm{Tr}(E_t\rho) - b_t|` of one fixed state ``rho`` (N, N) on ``E`` (T, N, N), ``b`` (T,)."""
    E = _check_measurements(E)
    b = _check_labels(b, E.shape[-3], binary=False)
    rho = _check_state(rho)
    return np.abs(np.einsum("tij,ji->t", E, rho).real - b)


def best_state_in_hindsight(E: ArrayLike, b: ArrayLike) -> tuple[float, np.ndarray]:
    r"""Least cumulative :math:`L_1` loss over *all* density matrices on a record of binary outcomes, and a pure minimiser.

    For :math:`b_t\in\{0,1\}` the loss is linear in the state (module docstring), so
    :math:`\min_\rho\sum_t\ell_t(\rho) = \sum_t b_t + \lambda_{\min}\big(\sum_t (1-2b_t)E_t\big)`, attained by the
    eigenvector of the smallest eigenvalue: the best mixed and the best pure state in hindsight coincide.

    Parameters
    ----------
    E : array_like, shape (T, N, N)
    b : array_like, shape (T,), values in {0, 1}

    Returns
    -------
    loss : float
    psi : np.ndarray, shape (N,)
        A unit vector attaining it.
    """
    E = _check_measurements(E)
    b = _check_labels(b, E.shape[-3], binary=True)
    lam, V = np.linalg.eigh(np.einsum("t,tij->ij", 1 - 2 * b, E))
    return float(b.sum() + lam[0]), V[:, 0]


def best_losses_in_hindsight(E: ArrayLike, b: ArrayLike, horizons: ArrayLike) -> np.ndarray:
    r""":func:`best_state_in_hindsight`'s loss on the first ``T'`` rounds, for each ``T'`` in ``horizons`` (shape (H,)).

    ``E`` (T, N, N), ``b`` (T,) binary; every horizon in ``1..T``. Returns shape (H,).
    """
    E = _check_measurements(E)
    b = _check_labels(b, E.shape[-3], binary=True)
    h = np.asarray(horizons)
    if h.ndim != 1 or np.any(h < 1) or np.any(h > E.shape[0]):
        raise ValueError(f"horizons must be a 1-d array of values in 1..{E.shape[0]}")
    G = np.cumsum((1 - 2 * b)[:, None, None] * E, axis=0)[h - 1]
    return np.cumsum(b)[h - 1] + np.linalg.eigvalsh(G)[:, 0]


def best_diagonal_state_in_hindsight(D: ArrayLike, b: ArrayLike, horizons: ArrayLike | None = None) -> np.ndarray:
    r"""The same minimum for diagonal (commuting) measurements given by their diagonals: a basis state wins.

    Parameters
    ----------
    D : array_like, shape (T, N)
        Diagonals of the commuting :math:`E_t`, entries in [0, 1].
    b : array_like, shape (..., T), values in {0, 1}
        One or several records (batch axes first).
    horizons : array_like of int, shape (H,), optional
        Prefix lengths in ``1..T`` (default: ``T`` only).

    Returns
    -------
    np.ndarray, shape (..., H)
        :math:`\sum_{t<T'} b_t + \min_k \sum_{t<T'}(1-2b_t)D_{tk}` for each horizon :math:`T'`.
    """
    D = np.asarray(D, dtype=float)
    if D.ndim != 2 or np.any(D < 0) or np.any(D > 1):
        raise ValueError(f"D must have shape (T, N) with entries in [0, 1]; got {D.shape}")
    T = D.shape[0]
    b = _check_labels(b, T, binary=True)
    h = np.array([T]) if horizons is None else np.asarray(horizons)
    if h.ndim != 1 or np.any(h < 1) or np.any(h > T):
        raise ValueError(f"horizons must be a 1-d array of values in 1..{T}")
    G = np.cumsum((1 - 2 * b)[..., :, None] * D, axis=-2)[..., h - 1, :]
    return np.cumsum(b, axis=-1)[..., h - 1] + G.min(axis=-1)


def regret(learner_losses: ArrayLike, best_loss: ArrayLike) -> np.ndarray:
    r""":math:`R_T = \sum_t \ell_t(\omega_t) - \min_\rho\sum_t\ell_t(\rho)`; ``learner_losses`` (..., T), ``best_loss`` (...)."""
    return np.asarray(learner_losses, dtype=float).sum(axis=-1) - np.asarray(best_loss, dtype=float)


# --------------------------------------------------------------------------- the learner
def mmw_step_size(T: int, N: int) -> float:
    r"""Step size :math:`\eta = \sqrt{\ln N / T}` of MMW for horizon ``T`` in dimension ``N`` (the value that balances the bound)."""
    T, N = _check_int(T, "T", 1), _check_int(N, "N", 2)
    return math.sqrt(math.log(N) / T)


def mmw_regret_bound(T: ArrayLike, N: ArrayLike) -> np.ndarray:
    r"""The regret bound :math:`2\sqrt{T\ln N}` of MMW with :math:`\eta=\sqrt{\ln N/T}`, valid when :math:`T\ge\ln N`.

    From the matrix-Hedge potential argument (Golden-Thompson and :math:`e^{-x}\le 1-x+x^2` for
    :math:`x\ge-1`): :math:`R_T \le \ln N/\eta + \eta\sum_t\mathrm{Tr}(\omega_t g_t^2) \le \ln N/\eta + \eta T`,
    since :math:`\|g_t\|\le 1`; the minimum over :math:`\eta` is :math:`2\sqrt{T\ln N}`.
    """
    T, N = np.asarray(T, dtype=float), np.asarray(N, dtype=float)
    if np.any(T < 1) or np.any(N < 2):
        raise ValueError("T must be >= 1 and N >= 2")
    return 2.0 * np.sqrt(T * np.log(N))


def mmw_state(G: ArrayLike, eta: float) -> np.ndarray:
    r"""The MMW iterate :math:`e^{-\eta G}/\mathrm{Tr}\,e^{-\eta G}` for Hermitian ``G`` (..., N, N), by eigendecomposition.

    Eigenvalues are shifted by their minimum before exponentiating, so large :math:`\eta G` cannot overflow.
    """
    G = np.asarray(G)
    if G.ndim < 2 or G.shape[-1] != G.shape[-2]:
        raise ValueError(f"G must have shape (..., N, N); got {G.shape}")
    if not np.isfinite(eta):
        raise ValueError(f"eta must be finite; got {eta!r}")
    lam, V = np.linalg.eigh(G)
    w = _softmin(lam, eta)
    return np.einsum("...ik,...k,...jk->...ij", V, w, np.conj(V))


def _softmin(lam: np.ndarray, eta: float) -> np.ndarray:
    z = -eta * lam
    w = np.exp(z - z.max(axis=-1, keepdims=True))
    return w / w.sum(axis=-1, keepdims=True)


def mmw_online(E: ArrayLike, b: ArrayLike, eta: float) -> tuple[np.ndarray, np.ndarray]:
    r"""Matrix multiplicative weights on the :math:`L_1` loss, for any values :math:`b_t\in[0,1]` (the general protocol).

    Round ``t``: predict :math:`p_t = \mathrm{Tr}(E_t\omega_t)` with :math:`\omega_t` from :func:`mmw_state` of
    :math:`G_t=\sum_{s<t} g_s`, suffer :math:`|p_t-b_t|`, add :math:`g_t=\mathrm{sign}(p_t-b_t)E_t` (Aaronson et al.
    2018, RFTL with the von Neumann entropy, which is MMW). Sequential over rounds (the sign depends on the
    prediction); see :func:`mmw_binary_losses` for the vectorised form on binary outcomes.

    Parameters
    ----------
    E : array_like, shape (T, N, N)
    b : array_like, shape (T,), values in [0, 1]
    eta : float >= 0

    Returns
    -------
    preds, losses : np.ndarray, shape (T,) each
    """
    E = _check_measurements(E)
    b = _check_labels(b, E.shape[0], binary=False)
    if not (np.isfinite(eta) and eta >= 0):
        raise ValueError(f"eta must be a finite number >= 0; got {eta!r}")
    G = np.zeros(E.shape[1:], dtype=complex)
    preds = np.empty(E.shape[0])
    for t in range(E.shape[0]):  # inherently sequential: g_t depends on the prediction
        preds[t] = np.einsum("ij,ji->", E[t], mmw_state(G, eta)).real
        G = G + np.sign(preds[t] - b[t]) * E[t]
    return preds, np.abs(preds - b)


def cumulative_gradients(E: ArrayLike, b: ArrayLike) -> np.ndarray:
    r"""Prefix sums :math:`G_t=\sum_{s<t}(1-2b_s)E_s` (exclusive, :math:`G_0=0`) for binary outcomes; shape of ``E``."""
    E = _check_measurements(E)
    b = _check_labels(b, E.shape[-3], binary=True)
    g = (1 - 2 * b)[..., :, None, None] * E
    G = np.cumsum(g, axis=-3)
    return np.concatenate([np.zeros_like(G[..., :1, :, :]), G[..., :-1, :, :]], axis=-3)


def mmw_binary_losses(E: ArrayLike, b: ArrayLike, etas: ArrayLike) -> np.ndarray:
    r"""Per-round :math:`L_1` losses of MMW on a record of binary outcomes, for several step sizes at once.

    With :math:`b_t\in\{0,1\}` the subgradient is :math:`(1-2b_t)E_t` whatever the learner does, so
    :math:`\omega_t=e^{-\eta G_t}/\mathrm{Tr}(\cdot)` with :math:`G_t` from :func:`cumulative_gradients`, and every
    round is computed at once: one batched eigendecomposition :math:`G_t=V_t\Lambda_tV_t^\dagger` serves all
    :math:`\eta`, with :math:`\mathrm{Tr}(E_t\omega_t)=\sum_k \mathrm{softmin}(\eta\lambda_t)_k\,(V_t^\dagger E_tV_t)_{kk}`.
    ``eta = 0`` is the learner that never moves from :math:`I/N`; a negative ``eta`` moves *towards* the loss
    (a deliberately wrong kernel, used as a control).

    Parameters
    ----------
    E : array_like, shape (T, N, N)
    b : array_like, shape (T,), values in {0, 1}
    etas : array_like, shape (K,)

    Returns
    -------
    np.ndarray, shape (K, T)
        Losses :math:`b_t+(1-2b_t)\mathrm{Tr}(E_t\omega_t)` (equal to :math:`|\mathrm{Tr}(E_t\omega_t)-b_t|`).
    """
    E = np.asarray(E)
    if E.ndim != 3:
        raise ValueError(f"E must have shape (T, N, N); got {E.shape}")
    etas = np.atleast_1d(np.asarray(etas, dtype=float))
    if etas.ndim != 1 or not np.all(np.isfinite(etas)):
        raise ValueError("etas must be a 1-d array of finite numbers")
    G = cumulative_gradients(E, b)  # validates E and b
    b = np.asarray(b, dtype=float)
    lam, V = np.linalg.eigh(G)
    e = (np.conj(V) * (E @ V)).sum(axis=-2).real  # diagonal of V^dag E V, shape (T, N)
    p = np.stack([(_softmin(lam, eta) * e).sum(axis=-1) for eta in etas])
    return b + (1 - 2 * b) * p


def ftl_binary_losses(E: ArrayLike, b: ArrayLike, tie_tol: float = 1e-9) -> np.ndarray:
    r"""Per-round :math:`L_1` losses of follow-the-leader (FTL) on a record of binary outcomes.

    FTL plays the best state in hindsight of the rounds so far: a minimiser of the linear cumulative loss
    :math:`\mathrm{Tr}(\rho G_t)`, i.e. a bottom eigenvector of :math:`G_t` (:func:`cumulative_gradients`), a
    **pure** state whenever the smallest eigenvalue is simple. Ties (eigenvalues within ``tie_tol`` of the
    smallest, e.g. :math:`G_0=0`) are split evenly, so round 0 predicts from :math:`I/N`. It is the naive learner
    without a regulariser (MMW at :math:`\eta\to\infty`) and, away from ties, a learner that only ever plays
    pure states.

    Parameters
    ----------
    E : array_like, shape (T, N, N)
    b : array_like, shape (T,), values in {0, 1}
    tie_tol : float
        Eigenvalues within this distance of the smallest count as tied.

    Returns
    -------
    np.ndarray, shape (T,)
        Losses :math:`b_t+(1-2b_t)\mathrm{Tr}(E_t\omega_t)`.
    """
    E = np.asarray(E)
    if E.ndim != 3:
        raise ValueError(f"E must have shape (T, N, N); got {E.shape}")
    if not (np.isfinite(tie_tol) and tie_tol >= 0):
        raise ValueError(f"tie_tol must be a finite non-negative number; got {tie_tol}")
    G = cumulative_gradients(E, b)  # validates E and b
    b = np.asarray(b, dtype=float)
    lam, V = np.linalg.eigh(G)
    e = (np.conj(V) * (E @ V)).sum(axis=-2).real
    w = (lam <= lam[..., :1] + tie_tol).astype(float)
    p = (w * e).sum(axis=-1) / w.sum(axis=-1)
    return b + (1 - 2 * b) * p


def multiplicative_weights_losses(D: ArrayLike, b: ArrayLike, etas: ArrayLike) -> np.ndarray:
    r"""Classical multiplicative weights (Hedge) over the ``N`` basis states, for diagonal measurements.

    ``D`` (..., T, N) holds the diagonals of commuting :math:`E_t`; weights :math:`w_t\propto
    e^{-\eta\sum_{s<t}(1-2b_s)D_s}`; returns losses of shape (K, ..., T). MMW on diagonal inputs reduces to this.
    """
    D = np.asarray(D, dtype=float)
    if D.ndim < 2 or np.any(D < 0) or np.any(D > 1):
        raise ValueError(f"D must have shape (..., T, N) with entries in [0, 1]; got {D.shape}")
    b = _check_labels(b, D.shape[-2], binary=True)
    etas = np.atleast_1d(np.asarray(etas, dtype=float))
    if etas.ndim != 1 or not np.all(np.isfinite(etas)):
        raise ValueError("etas must be a 1-d array of finite numbers")
    g = (1 - 2 * b)[..., :, None] * D
    G = np.cumsum(g, axis=-2) - g  # exclusive prefix sums
    p = np.stack([(_softmin(G, eta) * D).sum(axis=-1) for eta in etas])
    return b + (1 - 2 * b) * p


# --------------------------------------------------------------------------- the lower-bound adversary
def round_robin_qubits(n: int, T: int) -> np.ndarray:
    """Qubit measured at round ``t``: ``t mod n`` (the commuting adversary visits every qubit equally often), shape (T,)."""
    n, T = _check_int(n, "n", 1), _check_int(T, "T", 1)
    return np.arange(T) % n


def random_label_regret_mean(n: int, T: int) -> float:
    r"""Expected regret of *any* learner against fair-coin outcomes of :math:`|1\rangle\langle1|` on qubit ``t mod n``.

    Fair coins, independent of the past, give every prediction an expected loss of :math:`1/2`, while the best
    state in hindsight (a basis state: the majority outcome of each qubit) saves :math:`|2O_i-k_i|/2` on qubit
    :math:`i` (:math:`k_i` rounds, :math:`O_i\sim\mathrm{Bin}(k_i,1/2)` ones). Hence
    :math:`\mathbb E R_T=\sum_i \mathbb E|2O_i-k_i|/2`, computed exactly here; it is
    :math:`\approx\sqrt{nT/(2\pi)}` for large :math:`T/n`. This is the adversary of the :math:`\Omega(\sqrt{nT})`
    lower bound, and the state it is measured against is pure.
    """
    n, T = _check_int(n, "n", 1), _check_int(T, "T", 1)
    k = np.bincount(round_robin_qubits(n, T), minlength=n)
    total = 0.0
    for ki in k:  # at most n distinct values
        o = np.arange(ki + 1)
        total += float((np.abs(2 * o - ki) * binom.pmf(o, ki, 0.5)).sum()) / 2
    return total
