"""Boundary conversion: features to frames, labels to class codes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import augnb
from augnb.data.encoding import encode_target


@pytest.mark.parametrize(
    "y",
    [
        [1, "1", "b"],
        np.array([1, "1", "b"], dtype=object),
        pd.Series([2.5, "a", "a"], dtype=object),
        ["a", 3, "b"],
    ],
)
def test_mixed_string_and_number_labels_are_refused(y):
    with pytest.raises(ValueError, match="Mix of label input types"):
        encode_target(y, 3)


def test_mixed_labels_are_refused_at_fit():
    X = pd.DataFrame({"a": ["x", "y", "x"]})
    with pytest.raises(ValueError, match=r"strings such as '1'.*such as 1"):
        augnb.NaiveBayes().fit(X, [1, "1", "b"])


@pytest.mark.parametrize(
    ("y", "classes"),
    [
        (["b", "a", "b"], ["a", "b"]),
        ([3, 1, 3], [1, 3]),
        (np.array(["b", "a", "b"], dtype=object), ["a", "b"]),
        (np.array([3, 1, 3], dtype=object), [1, 3]),
    ],
)
def test_single_type_labels_are_encoded_in_sorted_order(y, classes):
    got, codes = encode_target(y, 3)
    assert got.tolist() == classes
    assert got[codes].tolist() == list(np.asarray(y).tolist())
