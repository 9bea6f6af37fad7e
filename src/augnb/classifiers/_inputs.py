"""What the structure and parameter hooks of an estimator read."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from augnb.data.encoding import EncodedData

__all__ = ["FitInputs", "TrainingData"]


class TrainingData(NamedTuple):
    """The encoded training data a structure learner reads.

    Parameters
    ----------
    codes : ndarray of int32, shape (n_samples, n_features)
        Category codes (``-1`` = missing).
    y : ndarray of intp, shape (n_samples,)
        Class codes.
    cards : ndarray of int64, shape (n_features,)
        Declared number of categories per column.
    n_classes : int
        Number of classes.
    sample_weight : ndarray of float64 or None
        Row weights, only for learners with ``_weighted_counts`` (others get
        integer weights as repeated rows); None when every row counts once.
    """

    codes: NDArray[np.int32]
    y: NDArray[np.intp]
    cards: NDArray[np.int64]
    n_classes: int
    sample_weight: NDArray[np.float64] | None = None

    @property
    def inputs(
        self,
    ) -> tuple[NDArray[np.int32], NDArray[np.intp], NDArray[np.int64], int]:
        """``(codes, y, cards, n_classes)``, as structure functions take them."""
        return self.codes, self.y, self.cards, self.n_classes


class FitInputs(NamedTuple):
    """The encoded training data a parameter fitter reads (``_fit_parameters``).

    Parameters
    ----------
    data : EncodedData
        Codes (and the continuous values kept as such), with cardinalities.
    y : ndarray of intp, shape (n_samples,)
        Class codes.
    n_classes : int
        Number of classes.
    sample_weight : ndarray of shape (n_samples,) or None
        Row weights of a learner with weighted counts, else None.
    """

    data: EncodedData
    y: NDArray[np.intp]
    n_classes: int
    sample_weight: NDArray[np.float64] | None = None
