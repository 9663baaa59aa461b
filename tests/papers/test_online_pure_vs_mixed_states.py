"""Unit tests of :mod:`repro.papers.online_pure_vs_mixed_states`, the kernels of ``notebooks/online-pure-vs-mixed-states.py``."""

import inspect
import math

import numpy as np
import pytest
import scipy.linalg

from repro.papers import online_pure_vs_mixed_states as K

RNG = np.random.default_rng(7)


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/online_pure_vs_mixed_states.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def random_record(n, T, bloch_length=1.0, seed=0):
    rng = np.random.default_rng(seed)
    E = K.local_pauli_projectors(n, rng.integers(0, n, T), rng.integers(0, 3, T), rng.choice([-1, 1], T))
    sigma = K.product_state(K.random_bloch_vectors(n, bloch_length, rng))
    return E, K.born_outcomes(E, sigma, rng), sigma


def random_density_matrix(N, rank, rng):
    A = rng.normal(size=(N, rank)) + 1j * rng.normal(size=(N, rank))
    rho = A @ A.conj().T
    return rho / np.trace(rho).real


# ----------------------------------------------------------------------------- states and measurements
def test_product_states_are_density_matrices_pure_iff_unit_bloch_vectors():
    pure = K.product_state(K.random_bloch_vectors(3, 1.0, RNG))
    mixed = K.product_state(K.random_bloch_vectors(3, 0.5, RNG))
    assert K.is_density_matrix(pure) and K.is_density_matrix(mixed)
    assert np.trace(pure @ pure).real == pytest.approx(1.0, abs=1e-12)
    assert np.trace(mixed @ mixed).real == pytest.approx(((1 + 0.25) / 2) ** 3, rel=1e-12)  # purity of each factor
    np.testing.assert_allclose(K.product_state(np.zeros((2, 3))), np.eye(4) / 4, atol=1e-15)


def test_qubit_state_has_the_bloch_vector_as_pauli_expectations():
    r = np.array([0.3, -0.4, 0.5])
    rho = K.qubit_state(r)
    got = [np.trace(rho @ K.PAULI[a]).real for a in K.AXES]
    np.testing.assert_allclose(got, r, atol=1e-15)


def test_local_pauli_projectors_are_projectors_of_rank_half_and_match_kron():
    n = 3
    E = K.local_pauli_projectors(n, np.array([0, 1, 2, 2]), np.array([0, 1, 2, 0]), np.array([1, -1, 1, -1]))
    for Et in E:
        np.testing.assert_allclose(Et @ Et, Et, atol=1e-14)
        assert np.trace(Et).real == pytest.approx(2 ** (n - 1))
    expected = 0.5 * (np.eye(8) - np.kron(np.eye(2), np.kron(K.PAULI["Y"], np.eye(2))))
    np.testing.assert_allclose(E[1], expected, atol=1e-15)


def test_z_diagonals_match_the_dense_projectors_on_one():
    n = 3
    q = np.array([0, 1, 2])
    dense = K.local_pauli_projectors(n, q, np.full(3, 2), -np.ones(3, int))  # (I - Z)/2 = |1><1|
    np.testing.assert_allclose(K.z_one_projector_diagonals(n, q), np.diagonal(dense, axis1=1, axis2=2).real)


def test_born_outcomes_have_the_born_frequencies():
    E = np.broadcast_to(K.local_pauli_projectors(1, [0], [2], [1])[0], (20000, 2, 2))
    sigma = K.qubit_state([0, 0, 0.6])  # Tr(|0><0| sigma) = 0.8
    b = K.born_outcomes(E, sigma, np.random.default_rng(0))
    assert set(np.unique(b)) <= {0.0, 1.0}
    assert b.mean() == pytest.approx(0.8, abs=4 * math.sqrt(0.16 / 20000))


# ----------------------------------------------------------------------------- losses and comparators
def test_l1_losses_against_brute_force():
    E, b, sigma = random_record(2, 30)
    rho = random_density_matrix(4, 2, RNG)
    brute = [abs(np.trace(E[t] @ rho).real - b[t]) for t in range(30)]
    np.testing.assert_allclose(K.l1_losses(E, b, rho), brute, atol=1e-13)
    bb = RNG.random(30)  # real-valued labels too
    np.testing.assert_allclose(K.l1_losses(E, bb, rho), [abs(np.trace(E[t] @ rho).real - bb[t]) for t in range(30)], atol=1e-13)


def test_binary_losses_are_linear_so_the_best_state_is_pure_and_no_mixed_state_beats_it():
    E, b, _ = random_record(2, 60, bloch_length=0.5, seed=3)
    best, psi = K.best_state_in_hindsight(E, b)
    pure = np.outer(psi, psi.conj())
    assert K.l1_losses(E, b, pure).sum() == pytest.approx(best, abs=1e-10)
    rng = np.random.default_rng(1)
    for rank in (1, 2, 4):  # brute force: random pure and mixed states never do better
        losses = [K.l1_losses(E, b, random_density_matrix(4, rank, rng)).sum() for _ in range(300)]
        assert min(losses) >= best - 1e-10
    H = np.einsum("t,tij->ij", 1 - 2 * b, E)
    assert best == pytest.approx(b.sum() + scipy.linalg.eigvalsh(H)[0], abs=1e-10)  # scipy's answer


def test_best_losses_at_several_horizons_match_one_at_a_time():
    E, b, _ = random_record(2, 50, seed=4)
    got = K.best_losses_in_hindsight(E, b, np.array([1, 10, 50]))
    np.testing.assert_allclose(got, [K.best_state_in_hindsight(E[:h], b[:h])[0] for h in (1, 10, 50)], atol=1e-12)


def test_best_diagonal_state_is_the_majority_basis_state():
    n, T = 2, 41
    rng = np.random.default_rng(5)
    q = K.round_robin_qubits(n, T)
    D = K.z_one_projector_diagonals(n, q)
    b = (rng.random(T) < 0.5).astype(float)
    brute = min(np.abs(D[:, k] - b).sum() for k in range(4))  # enumerate the basis states
    assert K.best_diagonal_state_in_hindsight(D, b)[0] == pytest.approx(brute)
    bs = np.stack([b, 1 - b])
    got = K.best_diagonal_state_in_hindsight(D, bs, [5, 41])
    assert got.shape == (2, 2) and got[1, 1] == pytest.approx(min(np.abs(D[:, k] - (1 - b)).sum() for k in range(4)))
    assert got[0, 0] == pytest.approx(min(np.abs(D[:5, k] - b[:5]).sum() for k in range(4)))
    dense = K.local_pauli_projectors(n, q, np.full(T, 2), -np.ones(T, int))
    assert K.best_state_in_hindsight(dense, b)[0] == pytest.approx(brute, abs=1e-10)


# ----------------------------------------------------------------------------- the learner
def test_mmw_state_is_a_density_matrix_equal_to_scipy_expm():
    A = RNG.normal(size=(5, 8, 8)) + 1j * RNG.normal(size=(5, 8, 8))
    G = 40 * (A + A.conj().transpose(0, 2, 1))  # large: the shift must prevent overflow
    for eta in (0.0, 0.3, 2.0):
        W = K.mmw_state(G, eta)
        assert K.is_density_matrix(W, atol=1e-10)
        for g, w in zip(G[:2] / 40, K.mmw_state(G[:2] / 40, eta)):
            X = scipy.linalg.expm(-eta * g)
            np.testing.assert_allclose(w, X / np.trace(X), atol=1e-12)
    np.testing.assert_allclose(K.mmw_state(G, 0.0), np.broadcast_to(np.eye(8) / 8, G.shape), atol=1e-14)


def test_mmw_online_iterates_are_density_matrices_and_eta_zero_predicts_trace_over_n():
    E, b, _ = random_record(2, 40, seed=2)
    preds, losses = K.mmw_online(E, b, 0.0)
    np.testing.assert_allclose(preds, np.trace(E, axis1=1, axis2=2).real / 4, atol=1e-14)
    np.testing.assert_allclose(losses, np.abs(preds - b))
    preds, _ = K.mmw_online(E, b, 0.5)
    assert np.all((preds >= 0) & (preds <= 1))
    G = K.cumulative_gradients(E, b)
    assert all(K.is_density_matrix(K.mmw_state(G[t], 0.5)) for t in range(40))


def test_vectorised_binary_mmw_equals_the_sequential_protocol():
    E, b, _ = random_record(2, 80, seed=6)
    vec = K.mmw_binary_losses(E, b, [0.0, 0.4, 1.0])
    for k, eta in enumerate((0.0, 0.4, 1.0)):
        np.testing.assert_allclose(vec[k], K.mmw_online(E, b, eta)[1], atol=1e-12)


def test_mmw_reduces_to_classical_multiplicative_weights_on_diagonal_inputs():
    n, T = 3, 120
    rng = np.random.default_rng(8)
    q = rng.integers(0, n, T)
    D = K.z_one_projector_diagonals(n, q)
    E = K.local_pauli_projectors(n, q, np.full(T, 2), -np.ones(T, int))
    b = (rng.random(T) < 0.3).astype(float)
    etas = [0.0, 0.2, 1.5, -0.2]
    np.testing.assert_allclose(K.multiplicative_weights_losses(D, b, etas), K.mmw_binary_losses(E, b, etas), atol=1e-12)
    # classical Hedge by hand on the first rounds
    w = np.ones(2**n)
    for t in range(5):
        p = (w / w.sum()) @ D[t]
        assert K.multiplicative_weights_losses(D, b, [0.2])[0, t] == pytest.approx(abs(p - b[t]), abs=1e-12)
        w = w * np.exp(-0.2 * (1 - 2 * b[t]) * D[t])


def test_mmw_regret_is_under_its_bound_and_the_bound_has_the_closed_form():
    assert K.mmw_step_size(100, 4) == pytest.approx(math.sqrt(math.log(4) / 100))
    assert K.mmw_regret_bound(100, 4) == pytest.approx(2 * math.sqrt(100 * math.log(4)))
    for seed in range(3):
        E, b, _ = random_record(3, 400, seed=seed)
        eta = K.mmw_step_size(400, 8)
        R = K.regret(K.mmw_binary_losses(E, b, [eta])[0], K.best_state_in_hindsight(E, b)[0])
        assert R <= K.mmw_regret_bound(400, 8)


def test_random_label_regret_mean_against_its_closed_form_and_monte_carlo():
    # k = 2: |2O - 2| is 2, 0, 2 with probabilities 1/4, 1/2, 1/4 -> E|.|/2 = 1/2
    assert K.random_label_regret_mean(1, 2) == pytest.approx(0.5)
    assert K.random_label_regret_mean(3, 6) == pytest.approx(1.5)
    big = K.random_label_regret_mean(4, 40000)
    assert big == pytest.approx(math.sqrt(4 * 40000 / (2 * math.pi)), rel=1e-3)
    n, T, reps = 2, 64, 4000
    rng = np.random.default_rng(9)
    D = K.z_one_projector_diagonals(n, K.round_robin_qubits(n, T))
    b = (rng.random((reps, T)) < 0.5).astype(float)
    best = b.sum(1) + ((1 - 2 * b) @ D).min(1)
    mc = (K.multiplicative_weights_losses(D, b, [0.3])[0].sum(1) - best).mean()
    assert mc == pytest.approx(K.random_label_regret_mean(n, T), abs=4 * 3 / math.sqrt(reps))


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("call, match", [
    (lambda: K.qubit_state([0, 0, 1.5]), "Bloch"),
    (lambda: K.product_state(np.zeros(3)), "shape"),
    (lambda: K.random_bloch_vectors(0, 1.0, RNG), "n must"),
    (lambda: K.random_bloch_vectors(2, 1.5, RNG), "length"),
    (lambda: K.local_pauli_projectors(2, [2], [0], [1]), "qubits"),
    (lambda: K.local_pauli_projectors(2, [0], [0], [0]), "signs"),
    (lambda: K.z_one_projector_diagonals(2, [3]), "qubits"),
    (lambda: K.born_outcomes(np.eye(2)[None] * 2, np.eye(2) / 2, RNG), "0 <= E"),
    (lambda: K.born_outcomes(np.eye(2)[None], np.eye(2), RNG), "density matrix"),
    (lambda: K.l1_losses(np.array([[[0, 1], [0, 0]]]), [0], np.eye(2) / 2), "Hermitian"),
    (lambda: K.l1_losses(np.eye(2)[None], [1.5], np.eye(2) / 2), r"\[0, 1\]"),
    (lambda: K.best_state_in_hindsight(np.eye(2)[None], [0.5]), "outcomes"),
    (lambda: K.best_state_in_hindsight(np.eye(2)[None], [0, 1]), "length T"),
    (lambda: K.best_losses_in_hindsight(np.eye(2)[None], [0], [2]), "horizons"),
    (lambda: K.mmw_online(np.eye(2)[None], [0], -1.0), "eta"),
    (lambda: K.mmw_binary_losses(np.eye(2), [0], [0.1]), "shape"),
    (lambda: K.mmw_binary_losses(np.eye(2)[None], [0], [np.nan]), "finite"),
    (lambda: K.mmw_state(np.zeros(3), 0.1), "shape"),
    (lambda: K.mmw_step_size(0, 4), "T must"),
    (lambda: K.mmw_step_size(10, 1), "N must"),
    (lambda: K.mmw_regret_bound(10, 1), "N >= 2"),
    (lambda: K.multiplicative_weights_losses(np.full((2, 2), 2.0), [0, 1], [0.1]), "entries"),
    (lambda: K.random_label_regret_mean(2, 0), "T must"),
    (lambda: K.best_diagonal_state_in_hindsight(np.eye(2), [0, 1], [3]), "horizons"),
])
def test_bad_input_raises_a_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_is_density_matrix_rejects_non_states():
    assert not K.is_density_matrix(np.eye(2))  # trace 2
    assert not K.is_density_matrix(np.diag([1.5, -0.5]))  # not PSD
    assert not K.is_density_matrix(np.array([[0.5, 0.5], [0, 0.5]]))  # not Hermitian
    assert not K.is_density_matrix(np.ones(3))


def test_ftl_plays_the_best_state_so_far_and_equals_mmw_at_large_eta():
    E, b, _ = random_record(2, 60, seed=3)
    ftl = K.ftl_binary_losses(E, b)
    G = K.cumulative_gradients(E, b)
    simple = 0
    for t in range(1, 60):  # brute force: the uniform state on the bottom eigenspace of G_t (pure when simple)
        lam, V = np.linalg.eigh(G[t])
        k = int(np.sum(lam <= lam[0] + 1e-9))
        simple += k == 1
        rho = V[:, :k] @ V[:, :k].conj().T / k
        pred = np.trace(E[t] @ rho).real
        assert ftl[t] == pytest.approx(abs(pred - b[t]), abs=1e-10)
    assert simple > 30  # most rounds play a pure state
    assert ftl[0] == pytest.approx(abs(np.trace(E[0]).real / 4 - b[0]), abs=1e-12)  # tie at G_0 = 0: I/N
    big = K.mmw_binary_losses(E, b, [1e4])[0]
    assert np.allclose(ftl[1:], big[1:], atol=1e-6)


def test_ftl_rejects_bad_input():
    E, b, _ = random_record(1, 5)
    with pytest.raises(ValueError, match="tie_tol"):
        K.ftl_binary_losses(E, b, tie_tol=-1.0)
    with pytest.raises(ValueError, match="shape"):
        K.ftl_binary_losses(E[0], b)
