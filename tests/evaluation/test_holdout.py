"""Scores of labelled rows batch by batch (augnb predict's report)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score, confusion_matrix, log_loss

from augnb.evaluation.cv import brier_score
from augnb.evaluation.holdout import HoldoutScores


def _rows(seed, n=97, classes=("a", "b", "c")):
    rng = np.random.default_rng(seed)
    proba = rng.dirichlet(np.ones(len(classes)), n)
    y = rng.choice(list(classes), n).astype(object)
    return y, proba


@pytest.mark.parametrize("n_batches", [1, 3, 97])
def test_batches_score_as_the_whole_table(n_batches):
    y, proba = _rows(0)
    scores = HoldoutScores(["a", "b", "c"])
    for part in np.array_split(np.arange(len(y)), n_batches):
        scores.add(y[part], proba[part])
    labels = np.array(["a", "b", "c"], dtype=object)
    predicted = labels[proba.argmax(axis=1)]
    assert scores.n_rows == len(y)
    assert scores.accuracy == pytest.approx(accuracy_score(y, predicted), abs=0)
    assert scores.log_loss == pytest.approx(log_loss(y, proba, labels=labels), 1e-12)
    assert scores.brier == pytest.approx(brier_score(y, proba, labels), 1e-12)
    expected = confusion_matrix(y, predicted, labels=labels)
    np.testing.assert_array_equal(scores.confusion().to_numpy(), expected)
    assert scores.unknown == {}


def test_missing_labels_are_not_scored():
    y, proba = _rows(1)
    y[::4] = None
    y[1] = np.nan
    y = pd.Series(y).astype(object)
    y[2] = pd.NA
    scores = HoldoutScores(["a", "b", "c"])
    scores.add(y, proba)
    present = y.notna().to_numpy()
    full = HoldoutScores(["a", "b", "c"])
    full.add(y[present], proba[present])
    assert scores.n_rows == full.n_rows == int(present.sum())
    assert (scores.accuracy, scores.log_loss, scores.brier) == (
        full.accuracy,
        full.log_loss,
        full.brier,
    )


def test_a_label_the_model_does_not_know_is_an_error_and_named():
    y, proba = _rows(2, classes=("a", "b"))
    y[[3, 10, 11]] = ["z", "y", "z"]
    scores = HoldoutScores(["a", "b"])
    # The unknown labels arrive in two batches, in any order.
    scores.add(y[:11], proba[:11])
    scores.add(y[11:], proba[11:])
    assert scores.unknown == {"z": 2, "y": 1}
    # sklearn's labels in sorted order, the probability columns with them.
    labels = np.array(["a", "b", "y", "z"], dtype=object)
    full = np.hstack([proba, np.zeros((len(y), 2))])
    # sklearn's clipping: each such row costs -log(eps).
    assert scores.log_loss == pytest.approx(log_loss(y, full, labels=labels), 1e-12)
    assert scores.brier == pytest.approx(brier_score(y, full, labels), 1e-12)
    predicted = np.array(["a", "b"], dtype=object)[proba.argmax(axis=1)]
    assert scores.n_correct == int(np.sum(predicted == y))
    confusion = scores.confusion()
    assert list(confusion.index) == ["a", "b", "y", "z"]
    assert confusion.loc["z"].sum() == 2 and confusion.loc["y"].sum() == 1
    report = "\n".join(scores.report())
    assert "counted as errors: 'y' (1), 'z' (2)" in report


def test_labels_are_compared_as_text():
    # A model fitted on the numbers 0 and 1 scores a table whose labels were
    # read as text, and the other way round.
    proba = np.array([[0.8, 0.2], [0.3, 0.7], [0.6, 0.4]])
    for classes, y in (([0, 1], ["0", "1", "1"]), (["0", "1"], [0, 1, 1])):
        scores = HoldoutScores(classes)
        scores.add(y, proba)
        assert (scores.n_rows, scores.n_correct, scores.unknown) == (3, 2, {})


def test_whole_float_labels_are_the_model_s_integer_classes():
    # A numeric class column with a missing label is read as floats (1.0):
    # every row was an unknown label, and the accuracy 0.
    proba = np.array([[0.8, 0.2], [0.3, 0.7], [0.6, 0.4]])
    for classes, y in (
        ([0, 1], [0.0, 1.0, 1.0]),
        ([0, 1], np.array([0.0, 1.0, 1.0, np.nan])),
        ([0.0, 1.0], [0, 1, 1]),
        ([0.0, 1.0], ["0", "1", "1"]),
    ):
        scores = HoldoutScores(classes)
        scores.add(y, np.vstack([proba, proba])[: len(y)])
        assert (scores.n_rows, scores.n_correct, scores.unknown) == (3, 2, {}), y
    # A fraction is no whole number: still a label the model does not know.
    scores = HoldoutScores([0, 1])
    scores.add([0.5, 1.0, 1.0], proba)
    assert scores.unknown == {"0.5": 1}


def test_report_without_rows_and_with_many_classes():
    assert HoldoutScores(["a", "b"]).report() == ["no labelled row to score"]
    classes = [f"c{i}" for i in range(25)]
    y, proba = _rows(3, n=200, classes=classes)
    scores = HoldoutScores(classes)
    scores.add(y, proba)
    lines = scores.report()
    # 25 classes: the scores, without a 25 x 25 matrix.
    assert len(lines) == 2 and lines[0].startswith("accuracy on the 200 labelled rows")
