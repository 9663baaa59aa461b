r"""Task sequences, accuracy matrices and forgetting: the bookkeeping shared by the continual-learning pages.

Every continual-learning page trains on tasks :math:`1, \dots, T` in order and, after each task, evaluates on
every task. The results form the **accuracy matrix** :math:`A \in [0, 1]^{T \times T}`,

.. math:: A_{ij} = \text{accuracy on task } j \text{ after training through task } i

(0-based indices in code; entries with :math:`j > i`, tasks not yet seen, may be NaN). The summaries here are
the field's standard ones:

* average accuracy after task :math:`i` (Chaudhry et al., 2018): :math:`\bar A_i = \frac{1}{i+1}\sum_{j\le i} A_{ij}`;
  the final one, :math:`\bar A_{T-1}`, is what papers call ACC;
* average incremental accuracy (Rebuffi et al., 2017, iCaRL): the mean of :math:`\bar A_i` over :math:`i`;
* forgetting (Chaudhry et al., 2018): :math:`F = \frac{1}{T-1}\sum_{j<T-1} \big(\max_{j\le l<T-1} A_{lj} - A_{T-1,j}\big)`,
  how far each old task fell from its best;
* backward transfer (Lopez-Paz and Ranzato, 2017, GEM): :math:`\mathrm{BWT} = \frac{1}{T-1}\sum_{j<T-1} (A_{T-1,j} - A_{jj})`.

And the task sequences: :func:`class_incremental_tasks` splits a label set into groups of classes (the
class-incremental protocol), :func:`task_indices` picks each task's samples. Used by the pages of the part
"Continual learning and test-time adaptation".
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from repro.validate import check_int


def class_incremental_tasks(classes: ArrayLike, classes_per_task: int,
                            rng: np.random.Generator | None = None) -> list[np.ndarray]:
    """Split ``classes`` into consecutive tasks of ``classes_per_task`` classes each.

    Parameters
    ----------
    classes : array_like, shape (C,)
        The distinct class labels, in their natural order.
    classes_per_task : int
        Must divide ``C``.
    rng : numpy.random.Generator, optional
        If given, the class order is a random permutation drawn from it (papers average over class orders);
        otherwise the order of ``classes``.

    Returns
    -------
    list of ndarray
        ``C // classes_per_task`` arrays of class labels, task by task.
    """
    cls = np.asarray(classes)
    if cls.ndim != 1 or len(np.unique(cls)) != len(cls) or len(cls) == 0:
        raise ValueError("classes must be a non-empty 1-d array of distinct labels")
    k = check_int(classes_per_task, "classes_per_task", least=1)
    if len(cls) % k:
        raise ValueError(f"classes_per_task={k} does not divide the {len(cls)} classes")
    order = cls if rng is None else cls[rng.permutation(len(cls))]
    return [order[i:i + k] for i in range(0, len(order), k)]


def task_indices(labels: ArrayLike, tasks: list[np.ndarray]) -> list[np.ndarray]:
    """For each task (a set of classes), the indices of the samples whose label is in it, in sample order.

    Parameters
    ----------
    labels : array_like, shape (n,)
    tasks : list of array_like
        Disjoint sets of class labels (e.g. from :func:`class_incremental_tasks`).
    """
    y = np.asarray(labels)
    flat = np.concatenate([np.asarray(t).ravel() for t in tasks]) if tasks else np.array([])
    if len(flat) != len(np.unique(flat)):
        raise ValueError("tasks must not share a class")
    return [np.flatnonzero(np.isin(y, t)) for t in tasks]


def _check_matrix(acc: ArrayLike) -> np.ndarray:
    A = np.asarray(acc, dtype=float)
    if A.ndim != 2 or A.shape[0] != A.shape[1] or A.shape[0] == 0:
        raise ValueError(f"an accuracy matrix is square (tasks trained x tasks evaluated); got shape {A.shape}")
    seen = np.tril(np.ones(A.shape, dtype=bool))
    if not np.all(np.isfinite(A[seen])):
        raise ValueError("the accuracy matrix needs finite entries on and below the diagonal (tasks seen)")
    return A


def average_accuracy(acc: ArrayLike, step: int = -1) -> float:
    """Mean accuracy over the tasks seen after training through task ``step`` (default: the last; ACC).

    Parameters
    ----------
    acc : array_like, shape (T, T)
        The accuracy matrix (rows: after task i; columns: task j).
    step : int
        Row index, negative counts from the end.
    """
    A = _check_matrix(acc)
    i = range(A.shape[0])[step]
    return float(A[i, : i + 1].mean())


def average_incremental_accuracy(acc: ArrayLike) -> float:
    """Mean over steps i of the average accuracy after step i (iCaRL's average incremental accuracy)."""
    A = _check_matrix(acc)
    return float(np.mean([A[i, : i + 1].mean() for i in range(A.shape[0])]))


def forgetting(acc: ArrayLike) -> float:
    """Average forgetting (Chaudhry et al., 2018): each old task's drop from its best to its final accuracy.

    0 for a single task. Non-negative by construction.
    """
    A = _check_matrix(acc)
    T = A.shape[0]
    if T == 1:
        return 0.0
    best = np.array([A[j:T - 1, j].max() for j in range(T - 1)])
    return float(np.mean(best - A[T - 1, : T - 1]))


def backward_transfer(acc: ArrayLike) -> float:
    """Backward transfer (Lopez-Paz and Ranzato, 2017): mean over old tasks of final minus just-learned accuracy.

    Negative when learning new tasks hurts old ones; 0 for a single task.
    """
    A = _check_matrix(acc)
    T = A.shape[0]
    if T == 1:
        return 0.0
    return float(np.mean(A[T - 1, : T - 1] - np.diag(A)[: T - 1]))


def summarize_runs(matrices: ArrayLike) -> dict[str, tuple[float, float]]:
    """Mean and standard deviation over seeds of ACC, average incremental accuracy, forgetting and BWT.

    Parameters
    ----------
    matrices : array_like, shape (n_seeds, T, T)
        One accuracy matrix per seed.

    Returns
    -------
    dict
        ``{"acc", "avg_incremental", "forgetting", "bwt"}`` -> ``(mean, std)`` (population std, 0 for one seed).
    """
    M = np.asarray(matrices, dtype=float)
    if M.ndim != 3:
        raise ValueError(f"matrices must have shape (n_seeds, T, T); got {M.shape}")
    out = {}
    for name, fn in (("acc", average_accuracy), ("avg_incremental", average_incremental_accuracy),
                     ("forgetting", forgetting), ("bwt", backward_transfer)):
        vals = np.array([fn(A) for A in M])
        out[name] = (float(vals.mean()), float(vals.std()))
    return out


def plot_accuracy_matrix(ax, acc: ArrayLike, title: str = "", vmin: float = 0.0, vmax: float = 1.0):  # noqa: ANN001, ANN201
    """Heat map of an accuracy matrix on ``ax`` (unseen tasks blank), each cell annotated; returns the image.

    Rows: after training task i; columns: evaluated on task j (both 1-based on the axes, as papers print them).
    """
    A = _check_matrix(acc)
    T = A.shape[0]
    shown = np.where(np.tril(np.ones((T, T), dtype=bool)), A, np.nan)
    im = ax.imshow(shown, vmin=vmin, vmax=vmax, cmap="viridis")
    for i in range(T):
        for j in range(i + 1):
            ax.text(j, i, f"{A[i, j]:.2f}", ha="center", va="center", fontsize=7,
                    color="white" if A[i, j] < (vmin + vmax) / 2 else "black")
    ax.set_xticks(range(T), [str(j + 1) for j in range(T)])
    ax.set_yticks(range(T), [str(i + 1) for i in range(T)])
    ax.set_xlabel("evaluated on task")
    ax.set_ylabel("after training task")
    if title:
        ax.set_title(title)
    return im
