"""Row weights of a fit: validation, and repetition for unweighted learners.

A ``sample_weight`` given to ``fit`` is checked here; learners that do not
weigh their counts fit integer weights as repeated rows, and the discretiser
is fitted on the rows the weights repeat. :class:`InputRows` records which
input row each training row is, for what names input rows (explicit folds).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "InputRows",
    "check_sample_weight",
    "discretizer_rows",
    "repeat_rows",
    "training_rows",
]

#: Rows a fit may grow to when integer weights are applied by repetition (and
#: observations the HDP sampler seats).
MAX_REPEATED_ROWS = 50_000_000


class InputRows(NamedTuple):
    """Which input row each training row is, once weights are applied.

    Rows of weight 0 are dropped before a fit, and learners without weighted
    counts repeat a row by its integer weight; whatever names rows of the
    ``X`` given to ``fit`` (explicit cross-validation folds) follows the
    training rows through this map.

    Parameters
    ----------
    n_input : int
        Number of rows of the ``X`` given to ``fit``.
    index : ndarray of intp, shape (n_training_rows,)
        Input row of each training row (ascending; repeated rows repeat it).

    Examples
    --------
    >>> import numpy as np
    >>> rows = InputRows(3, repeat_rows(np.array([0, 2]), np.array([1.0, 0, 2]), "FSS"))
    >>> rows.index.tolist()
    [0, 2, 2]
    """

    n_input: int
    index: NDArray[np.intp]


def check_sample_weight(
    sample_weight: object, n_samples: int
) -> NDArray[np.float64] | None:
    """Validated row weights: 1-d, ``n_samples`` long, finite, >= 0, not all 0.

    Parameters
    ----------
    sample_weight : array-like of shape (n_samples,) or None
        Weights given to ``fit`` (or to ``partial_fit``, for one chunk).
    n_samples : int
        Number of rows of X.

    Returns
    -------
    ndarray of float64 or None
        A copy of the weights (the caller's array is never modified), or None.
    """
    if sample_weight is None:
        return None
    try:
        w = np.array(sample_weight, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise ValueError(
            f"sample_weight must hold numbers; could not read it as floats ({err})."
        ) from None
    if w.ndim == 0:
        w = np.full(n_samples, float(w))
    if w.ndim != 1:
        raise ValueError(
            f"sample_weight must be 1-d with one weight per row; got shape {w.shape}."
        )
    if w.shape[0] != n_samples:
        raise ValueError(
            f"sample_weight has {w.shape[0]} weights but X has {n_samples} rows; "
            "give one weight per row (sample_weight.shape == (n_samples,))."
        )
    if not np.all(np.isfinite(w)):
        rows = np.flatnonzero(~np.isfinite(w))[:5].tolist()
        raise ValueError(
            f"sample_weight holds NaN or infinite values (at rows {rows}); give "
            "every row a finite weight >= 0 (0 leaves the row out)."
        )
    if np.any(w < 0):
        rows = np.flatnonzero(w < 0)[:5].tolist()
        raise ValueError(
            f"sample_weight must be >= 0; negative at rows {rows}. Give every "
            "row a weight >= 0 (0 leaves the row out)."
        )
    if not np.any(w > 0):
        raise ValueError(
            "Sample weights must contain at least one non-zero number: every "
            "weight is zero, so there is nothing to fit."
        )
    return w


def repeat_rows(
    rows: NDArray[np.intp], weights: NDArray[np.float64], name: str
) -> NDArray[np.intp]:
    """Row indices repeated by their integer weights; fractional ones refused.

    For learners without weighted counts: a weight of 3 is the row three
    times.

    Parameters
    ----------
    rows : ndarray of intp
        Indices of the rows to keep (those with positive weight).
    weights : ndarray of float64, shape (n_samples,)
        Weights of every input row (indexed by ``rows``).
    name : str
        The learner's name, for the error messages.

    Returns
    -------
    ndarray of intp
        ``rows``, each repeated by its weight.

    Raises
    ------
    ValueError
        If a weight is fractional, or the repeated rows would exceed the
        limit on the size of a fit.

    Examples
    --------
    >>> import numpy as np
    >>> repeat_rows(np.array([0, 2]), np.array([2.0, 0.0, 1.0]), "FSS").tolist()
    [0, 0, 2]
    """
    w = weights[rows]
    if np.any(w != np.round(w)):
        raise ValueError(
            f"{name} weighs rows by repeating them, so sample_weight must hold "
            "integers (a weight of 3 = the row three times); it holds fractional "
            "weights. Round or rescale them, or use a learner with weighted "
            "counts (NaiveBayes, TAN, KDB, AODE, ...)."
        )
    total = float(w.sum())
    if total > MAX_REPEATED_ROWS:
        raise ValueError(
            f"sample_weight sums to {total:.4g} rows once repeated, more than "
            f"{name} takes ({MAX_REPEATED_ROWS}); rescale the weights."
        )
    return np.repeat(rows, w.astype(np.int64))


def training_rows(
    sample_weight: object,
    n_samples: int,
    *,
    weighted_counts: bool,
    learner: str,
) -> tuple[NDArray[np.intp] | None, NDArray[np.float64] | None]:
    """The rows a fit trains on and their weights, under ``fit``'s weight rules.

    The weights are validated (:func:`check_sample_weight`); rows of weight
    0 are left out; a learner without weighted counts repeats every row by
    its integer weight (:func:`repeat_rows`, which refuses fractional ones)
    and counts each repetition once. ``fit`` applies this to all its rows,
    ``partial_fit`` to each chunk.

    Parameters
    ----------
    sample_weight : array-like of shape (n_samples,) or None
        The weights given.
    n_samples : int
        Number of rows of X.
    weighted_counts : bool
        Whether the learner weighs counts natively.
    learner : str
        The learner's name, for the error messages.

    Returns
    -------
    rows : ndarray of intp or None
        The input row of each training row (ascending; repeated rows repeat
        it); None when the training rows are the input rows, in order.
    weights : ndarray of float64 or None
        The weight of each training row; None when each counts once.

    Examples
    --------
    >>> import numpy as np
    >>> rows, w = training_rows([2.0, 0, 0.5], 3, weighted_counts=True, learner="NB")
    >>> rows.tolist(), w.tolist()
    ([0, 2], [2.0, 0.5])
    >>> rows, w = training_rows([2, 0, 1], 3, weighted_counts=False, learner="CAN")
    >>> rows.tolist(), w
    ([0, 0, 2], None)
    """
    weights = check_sample_weight(sample_weight, n_samples)
    if weights is None:
        return None, None
    # A row of weight 0 is a row removed: it declares no category and no
    # class, so the model equals the one fitted without it.
    kept = np.flatnonzero(weights > 0)
    if not weighted_counts:
        kept = repeat_rows(kept, weights, learner)
        weights = None
    else:
        weights = weights[kept]
        if np.all(weights == 1.0):
            weights = None
    if len(kept) == n_samples and np.array_equal(kept, np.arange(len(kept))):
        return None, weights
    return kept, weights


def discretizer_rows(weights: NDArray[np.float64] | None) -> NDArray[np.intp] | None:
    """Rows the discretiser is fitted on: integer weights repeat rows.

    Parameters
    ----------
    weights : ndarray of float64, shape (n_samples,) or None
        Row weights of the fit.

    Returns
    -------
    ndarray of intp or None
        Every row repeated by its weight when the weights are integers (and
        the repetition stays within the size limit of a fit), else every
        row once; None without weights (every row once, unindexed).

    Examples
    --------
    >>> import numpy as np
    >>> discretizer_rows(np.array([1.0, 0.0, 2.0])).tolist()
    [0, 2, 2]
    >>> discretizer_rows(np.array([0.5, 1.0])).tolist()
    [0, 1]
    """
    if weights is None:
        return None
    rows = np.arange(len(weights))
    if np.all(weights == np.round(weights)) and weights.sum() <= MAX_REPEATED_ROWS:
        return np.repeat(rows, weights.astype(np.int64))
    return rows
