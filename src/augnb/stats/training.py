"""The count tables a structure learner reads, from rows held in memory.

Every count-based structure learner reads its statistics through one
interface, :class:`CountTables`: feature x class tables, pair tables, the
conditional mutual information of every pair, the mutual information of each
feature with the class. Two classes implement it:

* :class:`TrainingData`: encoded rows in memory. It counts on demand with
  the fast kernels of :mod:`augnb.stats.counts` (one pass for all pairs), and
  it still holds the rows, for learners that need them (wrapper searches,
  leave-one-out passes, kernel densities);
* :class:`~augnb.stats.sufficient.SufficientStatistics`: tables summed over
  chunks of rows (``partial_fit``, files, Dask), which holds no rows.

So a learner has one structure function, and any source of rows gives it the
same tables.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray
from typing_extensions import override

from augnb import _threads
from augnb.data.weights import InputRows
from augnb.stats.counts import (
    families_class_counts,
    joint_counts,
    pairwise_class_counts,
)
from augnb.stats.information import cmi_matrix_from_tables, mi_from_counts
from augnb.stats.mixed_information import pairwise_mixed_cmi

__all__ = ["CountTables", "TrainingData", "column_extent", "merge_extents"]

#: Largest table :meth:`TrainingData.table` counts on several threads (each
#: thread fills a table of its own).
_THREADED_CELLS = 1 << 16


def column_extent(values: NDArray[np.float64]) -> NDArray[np.float64]:
    """``[min, max, n]`` of the observed (not NaN) values; ``[0, 0, 0]`` if none.

    Parameters
    ----------
    values : ndarray of shape (n_samples,)

    Returns
    -------
    ndarray of shape (3,)
    """
    observed = values[~np.isnan(values)]
    if not observed.size:
        return np.zeros(3)
    return np.array(
        [np.min(observed), np.max(observed), observed.size], dtype=np.float64
    )


def merge_extents(
    a: dict[int, NDArray[np.float64]], b: dict[int, NDArray[np.float64]]
) -> dict[int, NDArray[np.float64]]:
    """The extents of two sets of rows together (:meth:`CountTables.value_extents`).

    A feature whose extent one side lacks is left out (not known).

    Parameters
    ----------
    a, b : dict
        ``f -> [min, max, n]``.

    Returns
    -------
    dict
    """
    out = {}
    for f in sorted(a.keys() & b.keys()):
        x, z = a[f], b[f]
        if not x[2] or not z[2]:
            out[f] = z if not x[2] else x
        else:
            out[f] = np.array([min(x[0], z[0]), max(x[1], z[1]), x[2] + z[2]])
    return out


class CountTables(ABC):
    """What a structure learner reads: counts of features with the class.

    The abstract base of both count sources. A source gives its tables
    (``table``, ``pair_tables``); the scores derived from them
    (``cmi_matrix``, ``class_mi``) are computed here, once, the same way
    whatever holds the counts.
    """

    @property
    @abstractmethod
    def n_features(self) -> int:
        """Number of features."""

    @property
    @abstractmethod
    def n_classes(self) -> int:
        """Number of classes."""

    @property
    @abstractmethod
    def cards(self) -> NDArray[np.int64]:
        """Declared cardinalities (0 = continuous)."""

    @abstractmethod
    def has(self, features: Sequence[int]) -> bool:
        """Whether the table of these features can be read.

        Rows in memory can count any table; sufficient statistics hold the
        tables of the subsets they were asked to sum.

        Parameters
        ----------
        features : sequence of int
            Discrete features, in any order.

        Returns
        -------
        bool
        """

    @abstractmethod
    def table(self, features: Sequence[int]) -> NDArray:
        """Counts of the features (axes in the given order) and the class.

        Weighted counts over the rows where every one of the features is
        observed (available cases).

        Parameters
        ----------
        features : sequence of int
            Discrete features, in the axis order wanted.

        Returns
        -------
        ndarray of shape (r_f1, ..., r_fk, n_classes)
        """

    @abstractmethod
    def pair_tables(
        self, features: Sequence[int]
    ) -> dict[tuple[int, int], NDArray[np.float64]]:
        """Tables of every pair of ``features`` with the class.

        Parameters
        ----------
        features : sequence of int
            Discrete features; the keys index this sequence.

        Returns
        -------
        dict
            ``(a, b) -> counts`` of shape ``(r_a, r_b, n_classes)``, ``a < b``:
            the table of ``features[a]``, ``features[b]`` and the class.
        """

    @abstractmethod
    def mixed_cmi(
        self, *, method: str, base: float | None, var_smoothing: float
    ) -> NDArray[np.float64]:
        """``I(A_i; A_j | C)`` of every pair, discrete and continuous.

        As :func:`augnb.stats.mixed_information.pairwise_mixed_cmi`.

        Parameters
        ----------
        method : {"gaussian", "discretize"}
            Estimator of the continuous terms: Gaussian plug-in, or the
            columns binned at quantiles of all rows (rows in memory only).
        base : float or None
            Logarithm base (None = natural log).
        var_smoothing : float
            Fraction of the variance added to every variance.

        Returns
        -------
        ndarray of shape (n_features, n_features)
        """

    @abstractmethod
    def value_extents(self) -> dict[int, NDArray[np.float64]]:
        """Range of each continuous feature: smallest, largest value, count.

        What a density model's fit must check first: values whose squares
        overflow or underflow float64 (see
        :meth:`augnb.classifiers.BaseAugmentedNB._check_value_range`).

        Returns
        -------
        dict
            ``f -> [min, max, n]`` for each continuous feature ``f``: the
            smallest and largest observed value and the number of rows where
            it is observed (``[0, 0, 0]`` when none is). A feature whose range
            is not known (statistics saved before they kept it) is absent.
        """

    def cmi_matrix(self, features: Sequence[int] | None = None) -> NDArray[np.float64]:
        """``I(X_i; X_j | C)`` (nats) of every pair of ``features`` (all: None).

        Parameters
        ----------
        features : sequence of int, default=None
            Discrete features; all of them when None.

        Returns
        -------
        ndarray of shape (k, k)
            Symmetric, zero diagonal, in the order of ``features``.
        """
        feats = range(self.n_features) if features is None else features
        feats = [int(f) for f in feats]
        tables: dict = self.pair_tables(feats)
        return cmi_matrix_from_tables(tables, len(feats))

    def class_mi(self) -> NDArray[np.float64]:
        """``I(X_i; C)`` (nats) of every feature (available cases).

        Returns
        -------
        ndarray of shape (n_features,)
        """
        return np.array(
            [
                mi_from_counts(np.asarray(self.table((f,)), dtype=np.float64))
                for f in range(self.n_features)
            ],
            dtype=np.float64,
        )


class _Rows(NamedTuple):
    codes: NDArray[np.int32]
    y: NDArray[np.intp]
    cards: NDArray[np.int64]
    n_classes: int
    sample_weight: NDArray[np.float64] | None = None
    values: NDArray[np.float64] | None = None
    rows: InputRows | None = None


class TrainingData(_Rows, CountTables):
    """Encoded training rows in memory, read through :class:`CountTables`.

    Parameters
    ----------
    codes : ndarray of int32, shape (n_samples, n_features)
        Category codes (``-1`` = missing).
    y : ndarray of intp, shape (n_samples,)
        Class codes.
    cards : ndarray of int64, shape (n_features,)
        Declared number of categories per column (0 = continuous).
    n_classes : int
        Number of classes.
    sample_weight : ndarray of float64 or None
        Row weights, only for learners with weighted counts (others get
        integer weights as repeated rows); None when every row counts once.
    values : ndarray of float64 or None
        Values of the continuous columns kept as such (NaN elsewhere); None
        when every column is discrete.
    rows : InputRows or None
        Which input row of ``fit`` each training row is, when weights have
        dropped or repeated rows (explicit cross-validation folds name input
        rows); None when the training rows are the input rows.

    Examples
    --------
    >>> import numpy as np
    >>> data = TrainingData(np.array([[0, 1], [1, 1], [1, 0]]), np.array([0, 1, 1]),
    ...                     np.array([2, 2]), 2)
    >>> data.table((0,)).tolist()
    [[1.0, 0.0], [0.0, 2.0]]
    """

    __slots__ = ()

    @property
    def inputs(
        self,
    ) -> tuple[NDArray[np.int32], NDArray[np.intp], NDArray[np.int64], int]:
        """``(codes, y, cards, n_classes)``, as the row kernels take them."""
        return self.codes, self.y, self.cards, self.n_classes

    @override
    @property
    def n_features(self) -> int:
        return int(self.codes.shape[1])

    @override
    def has(self, features: Sequence[int]) -> bool:
        # Any table can be counted from the rows.
        return True

    @override
    def table(self, features: Sequence[int]) -> NDArray[np.float64]:
        # Weighted counts over the available cases.
        features = [int(f) for f in features]
        cards = [int(self.cards[f]) for f in features]
        n_classes = int(self.n_classes)
        if (
            features
            and len(self.y) >= 2 * _threads.MIN_ROWS
            and int(np.prod(cards, dtype=np.float64)) * n_classes <= _THREADED_CELLS
        ):
            # Many rows: counted by the family kernel on several threads (the
            # last feature as the child, the others as its parents), then
            # laid out as the features' axes and the class.
            *parents, child = features
            counts = families_class_counts(
                self.codes,
                [(child, parents, cards[:-1], cards[-1])],
                self.y,
                n_classes,
                sample_weight=self.sample_weight,
            )[0]
            counts = counts.reshape(*cards[:-1], n_classes, cards[-1])
            return np.ascontiguousarray(np.moveaxis(counts, -2, -1))
        return joint_counts(
            [*(self.codes[:, f] for f in features), self.y],
            [*cards, n_classes],
            self.sample_weight,
        )

    @override
    def pair_tables(
        self, features: Sequence[int]
    ) -> dict[tuple[int, int], NDArray[np.float64]]:
        # Every pair in one pass over the rows.
        features = [int(f) for f in features]
        everything = features == list(range(self.n_features))
        return pairwise_class_counts(
            self.codes if everything else self.codes[:, features],
            self.y,
            self.cards if everything else np.asarray(self.cards)[features],
            self.n_classes,
            sample_weight=self.sample_weight,
        )

    @override
    def value_extents(self) -> dict[int, NDArray[np.float64]]:
        # Read from the rows.
        if self.values is None:
            return {}
        return {
            int(f): column_extent(self.values[:, f])
            for f in np.flatnonzero(np.asarray(self.cards) == 0)
        }

    @override
    def mixed_cmi(
        self,
        *,
        method: str = "gaussian",
        base: float | None = 2.0,
        var_smoothing: float = 1e-9,
    ) -> NDArray[np.float64]:
        # As augnb.stats.mixed_information.pairwise_mixed_cmi.
        return pairwise_mixed_cmi(
            self.codes,
            self.values,
            self.y,
            self.cards,
            self.n_classes,
            method=method,
            base=base,
            var_smoothing=var_smoothing,
        )
