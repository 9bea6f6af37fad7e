"""Scores of a fitted model on labelled rows that arrive batch by batch."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from augnb.data.levels import sort_levels
from augnb.data.tables import text_of
from augnb.evaluation.cv import brier_score

__all__ = ["HoldoutScores"]

#: Most true classes a printed confusion matrix has.
_MAX_PRINTED_CLASSES = 20


class HoldoutScores:
    """Accuracy, log-loss, Brier score and confusion counts over batches.

    ``augnb predict`` scores a table that has a class column with it, batch
    by batch, without keeping the rows. The scores are those of
    :func:`augnb.evaluation.cross_validate`: the log-loss of
    :func:`sklearn.metrics.log_loss` (in nats; a probability is clipped to
    ``[eps, 1 - eps]``, so a row of a class the model was not fitted on
    costs ``-log(eps)``, about 36.04) and the multi-class Brier score of
    :func:`augnb.evaluation.cv.brier_score` (0 is perfect, 2 the worst).
    Labels are compared as text, as a table gives them: ``1``, ``1.0`` and
    ``"1"`` are one class. A missing label leaves its row unscored.

    Parameters
    ----------
    classes : sequence
        The model's classes, in the order of its ``predict_proba`` columns.

    Attributes
    ----------
    n_rows : int
        Rows scored.
    n_correct : int
        Rows whose most probable class is their label.
    unknown : dict of str to int
        Labels the model was not fitted on, with their number of rows (each
        such row is an error).

    Examples
    --------
    >>> import numpy as np
    >>> scores = HoldoutScores(["a", "b"])
    >>> scores.add(["a", "b", None], np.array([[0.9, 0.1], [0.6, 0.4], [0.5, 0.5]]))
    >>> scores.n_rows, scores.n_correct
    (2, 1)
    >>> print(scores.confusion())
    predicted  a  b
    true
    a          1  0
    b          1  0
    """

    def __init__(self, classes: Sequence[Any]) -> None:
        self.classes = text_of(classes)
        self._position = pd.Index(self.classes)
        self.n_rows = 0
        self.n_correct = 0
        self.unknown: dict[str, int] = {}
        self._log_loss_sum = 0.0
        self._brier_sum = 0.0
        # Rows: the model's classes, then each unknown label as first counted.
        self._counts = np.zeros((len(self.classes), len(self.classes)), np.int64)

    def add(self, y: Any, proba: NDArray[np.float64]) -> None:
        """Score one batch.

        Parameters
        ----------
        y : array-like of shape (n_samples,)
            The rows' labels; missing ones (None, NaN, pd.NA) are skipped.
        proba : ndarray of shape (n_samples, n_classes)
            The model's ``predict_proba`` of the same rows.
        """
        labels = pd.Series(np.asarray(y, dtype=object))
        present = labels.notna().to_numpy()
        if not present.any():
            return
        # As text, whole floats without ".0": a numeric class column with a
        # missing label is read as floats, and 1.0 is the model's class 1.
        truth = np.array(text_of(labels[present]), dtype=object)
        proba = np.asarray(proba, dtype=np.float64)[present]
        known = self._position.get_indexer(truth) >= 0
        strangers, n_strangers = np.unique(truth[~known], return_counts=True)
        for label, n in zip(strangers.tolist(), n_strangers.tolist()):
            if label not in self.unknown:
                # A new row of the confusion counts, after the known ones.
                self.unknown[label] = 0
                self._counts = np.vstack(
                    [self._counts, np.zeros((1, len(self.classes)), np.int64)]
                )
            self.unknown[label] += n
        names = [*self.classes, *self.unknown]
        row = pd.Index(names).get_indexer(truth)
        predicted = proba.argmax(axis=1)
        np.add.at(self._counts, (row, predicted), 1)
        self.n_rows += len(truth)
        self.n_correct += int(np.sum(row == predicted))
        # sklearn's log-loss (its clipping to [eps, 1 - eps], without the
        # label order its columns must follow): a label the model does not
        # know has probability 0.
        eps = np.finfo(np.float64).eps
        p_true = np.where(
            row < len(self.classes),
            proba[np.arange(len(row)), np.minimum(row, len(self.classes) - 1)],
            0.0,
        )
        self._log_loss_sum += float(-np.log(np.clip(p_true, eps, 1 - eps)).sum())
        full = np.zeros((len(truth), len(names)))
        full[:, : len(self.classes)] = proba
        self._brier_sum += brier_score(truth, full, np.array(names, object)) * len(
            truth
        )

    @property
    def accuracy(self) -> float:
        """Share of rows whose most probable class is their label (NaN if none)."""
        return self.n_correct / self.n_rows if self.n_rows else float("nan")

    @property
    def log_loss(self) -> float:
        """Mean negative log-probability of the label, in nats (NaN if no row)."""
        return self._log_loss_sum / self.n_rows if self.n_rows else float("nan")

    @property
    def brier(self) -> float:
        """Mean multi-class Brier score (NaN if no row)."""
        return self._brier_sum / self.n_rows if self.n_rows else float("nan")

    def confusion(self) -> pd.DataFrame:
        """Rows by their label (``true``) and their most probable class.

        Returns
        -------
        DataFrame of int
            One row per label seen (the model's classes first, then the
            unknown ones in the order of :func:`augnb.data.levels.sort_levels`),
            one column per class of the model.
        """
        frame = pd.DataFrame(
            self._counts,
            index=pd.Index([*self.classes, *self.unknown], name="true"),
            columns=pd.Index(self.classes, name="predicted"),
        )
        # The unknown labels in the order of a column's levels, whatever the
        # batches they came in.
        return frame.loc[[*self.classes, *sort_levels(self.unknown)]]

    def report(self) -> list[str]:
        """The lines ``augnb predict`` prints: scores, unknown labels, confusion."""
        if not self.n_rows:
            return ["no labelled row to score"]
        lines = [
            f"accuracy on the {self.n_rows} labelled rows: {100 * self.accuracy:.2f}%",
            f"log-loss {self.log_loss:.4f}, Brier score {self.brier:.4f} "
            "(0 is perfect for both)",
        ]
        if self.unknown:
            listed = ", ".join(
                f"{k!r} ({self.unknown[k]})" for k in sort_levels(self.unknown)
            )
            lines.append(
                f"labels the model was not fitted on, counted as errors: {listed}"
            )
        matrix = self.confusion()
        if len(matrix) <= _MAX_PRINTED_CLASSES:
            lines.append("confusion matrix (rows: the label, columns: the prediction):")
            matrix = matrix.rename_axis(index=None, columns=None)
            lines.extend(matrix.to_string().splitlines())
        return lines
