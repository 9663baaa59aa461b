"""repro.continual: task splits and the accuracy-matrix summaries, against hand-computed values and loops."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from repro.continual import (  # noqa: E402
    average_accuracy,
    average_incremental_accuracy,
    backward_transfer,
    class_incremental_tasks,
    forgetting,
    plot_accuracy_matrix,
    summarize_runs,
    task_indices,
)

# three tasks; task 0 learned to 0.9, dropped to 0.6 then 0.5; task 1 learned to 0.8, then 0.7; task 2: 0.95
A = np.array([[0.9, np.nan, np.nan],
              [0.6, 0.8, np.nan],
              [0.5, 0.7, 0.95]])


def test_hand_computed_summaries():
    assert average_accuracy(A) == pytest.approx((0.5 + 0.7 + 0.95) / 3)
    assert average_accuracy(A, 0) == pytest.approx(0.9) and average_accuracy(A, 1) == pytest.approx(0.7)
    assert average_incremental_accuracy(A) == pytest.approx((0.9 + 0.7 + 2.15 / 3) / 3)
    assert forgetting(A) == pytest.approx(((0.9 - 0.5) + (0.8 - 0.7)) / 2)
    assert backward_transfer(A) == pytest.approx(((0.5 - 0.9) + (0.7 - 0.8)) / 2)


def test_forgetting_uses_the_best_earlier_accuracy_not_the_diagonal():
    B = np.array([[0.5, 0, 0], [0.9, 0.8, 0], [0.6, 0.8, 0.7]])  # task 0 improved after task 1, then fell
    assert forgetting(B) == pytest.approx(((0.9 - 0.6) + 0.0) / 2)
    assert backward_transfer(B) == pytest.approx(((0.6 - 0.5) + 0.0) / 2)


def test_against_loops_on_random_matrices():
    rng = np.random.default_rng(0)
    for T in (1, 2, 5):
        M = rng.uniform(size=(T, T))
        f = [max(M[l, j] for l in range(j, T - 1)) - M[T - 1, j] for j in range(T - 1)]
        b = [M[T - 1, j] - M[j, j] for j in range(T - 1)]
        assert forgetting(M) == pytest.approx(np.mean(f) if f else 0.0)
        assert backward_transfer(M) == pytest.approx(np.mean(b) if b else 0.0)
        assert forgetting(M) >= 0
        # a learner that never forgets and never improves old tasks: constant columns
        C = np.tile(np.diag(M), (T, 1))
        assert forgetting(C) == 0 and backward_transfer(C) == 0


def test_summarize_runs():
    out = summarize_runs(np.stack([A, A]))
    assert out["acc"] == (pytest.approx(average_accuracy(A)), 0.0)
    B = np.where(np.isnan(A), np.nan, A - 0.1)
    out = summarize_runs(np.stack([A, B]))
    assert out["acc"][0] == pytest.approx(average_accuracy(A) - 0.05) and out["acc"][1] == pytest.approx(0.05)
    assert out["forgetting"][1] == pytest.approx(0.0)
    with pytest.raises(ValueError, match="n_seeds"):
        summarize_runs(A)


def test_class_incremental_tasks_and_indices():
    tasks = class_incremental_tasks(np.arange(10), 2)
    assert [t.tolist() for t in tasks] == [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]]
    shuffled = class_incremental_tasks(np.arange(10), 5, rng=np.random.default_rng(1))
    assert sorted(np.concatenate(shuffled).tolist()) == list(range(10)) and len(shuffled) == 2
    y = np.array([0, 3, 1, 2, 0, 9])
    idx = task_indices(y, tasks[:2])
    assert [i.tolist() for i in idx] == [[0, 2, 4], [1, 3]]
    with pytest.raises(ValueError, match="divide"):
        class_incremental_tasks(np.arange(10), 3)
    with pytest.raises(ValueError, match="distinct"):
        class_incremental_tasks([1, 1, 2], 1)
    with pytest.raises(ValueError, match="share"):
        task_indices(y, [np.array([0, 1]), np.array([1, 2])])


def test_bad_matrices_are_rejected():
    with pytest.raises(ValueError, match="square"):
        forgetting(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="finite"):
        average_accuracy(np.array([[np.nan, 0], [0.5, 0.5]]))


def test_plot_accuracy_matrix_draws_the_seen_cells():
    fig, ax = plt.subplots()
    plot_accuracy_matrix(ax, A, title="x")
    assert len(ax.texts) == 6 and ax.get_xlabel() == "evaluated on task"
    plt.close(fig)
