"""Fold assignments of the wrapper searches' internal cross-validation.

A wrapper learner's ``cv=`` argument (a number of folds, the fold id of
every row, or a scikit-learn splitter) becomes one fold id per row here;
:class:`augnb.search.CachedCV` scores candidate structures on those folds.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from sklearn.utils import check_random_state

__all__ = ["fold_ids", "stratified_folds"]


def stratified_folds(
    y: NDArray[np.integer],
    n_folds: int,
    random_state: int | np.random.RandomState | None = None,
) -> NDArray[np.intp]:
    """Stratified fold id of each row (bnclassify's ``make_stratified_folds``).

    For each class, its rows are shuffled and dealt to the folds in a random
    cyclic order of fold ids, so fold sizes differ by at most one per class.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        Class codes.
    n_folds : int
        Number of folds (>= 2).
    random_state : int, RandomState or None, default=None
        Seed.

    Returns
    -------
    ndarray of shape (n_samples,)
        Fold id ``0..n_folds-1`` of every row.

    Examples
    --------
    >>> import numpy as np
    >>> f = stratified_folds(np.array([0, 0, 0, 0, 1, 1, 1, 1]), 2, random_state=0)
    >>> np.bincount(f).tolist()
    [4, 4]
    """
    if n_folds < 2:
        raise ValueError(f"cv must be at least 2 folds; got {n_folds}.")
    rng = check_random_state(random_state)
    folds = np.empty(len(y), dtype=np.intp)
    order = rng.permutation(n_folds)
    start = 0
    for c in np.unique(y):
        rows = rng.permutation(np.flatnonzero(y == c))
        # Continue the cyclic deal where the previous class stopped, which
        # keeps overall fold sizes balanced too.
        folds[rows] = order[(start + np.arange(len(rows))) % n_folds]
        start = (start + len(rows)) % n_folds
    return folds


def fold_ids(
    cv: object,
    y: NDArray[np.integer],
    random_state: int | np.random.RandomState | None = None,
    X: object = None,
) -> NDArray[np.intp]:
    """Fold id of each row from a ``cv=`` argument of a wrapper learner.

    Parameters
    ----------
    cv : int, array-like of shape (n_samples,) or CV splitter
        A number of stratified folds (:func:`stratified_folds`), the fold id
        of every row (any integer labels, e.g. the folds another
        implementation used), or a scikit-learn splitter whose test sets
        partition the rows (``KFold``, ``StratifiedKFold``, ...).
    y : ndarray of shape (n_samples,)
        Class codes.
    random_state : int, RandomState or None, default=None
        Seed of the stratified partition when ``cv`` is an int.
    X : array-like, default=None
        Passed to the splitter's ``split`` (rows only matter).

    Returns
    -------
    ndarray of shape (n_samples,)
        Fold ids ``0..K-1``, every fold non-empty.

    Examples
    --------
    >>> import numpy as np
    >>> fold_ids(np.array([3, 3, 7, 7]), np.array([0, 1, 0, 1])).tolist()
    [0, 0, 1, 1]
    """
    n = len(y)
    if isinstance(cv, (int, np.integer)) and not isinstance(cv, bool):
        return stratified_folds(y, int(cv), random_state)
    if hasattr(cv, "split") and hasattr(cv, "get_n_splits"):
        out = np.full(n, -1, dtype=np.intp)
        rows = np.zeros((n, 1)) if X is None else X
        for k, (_, test) in enumerate(cv.split(rows, y)):
            if (out[test] >= 0).any():
                raise ValueError(
                    f"The test sets of cv={cv!r} overlap; a wrapper search needs "
                    "a splitter whose test sets partition the rows (KFold, "
                    "StratifiedKFold, GroupKFold, ...)."
                )
            out[test] = k
        if (out < 0).any():
            raise ValueError(
                f"cv={cv!r} leaves {int((out < 0).sum())} rows in no test set; a "
                "wrapper search needs test sets that partition the rows."
            )
        ids = out
    else:
        ids = np.asarray(cv)
        if ids.ndim != 1 or ids.dtype.kind not in "iu":
            raise ValueError(
                "cv must be an int >= 2, 'loo', a CV splitter or a 1-D array of "
                f"integer fold ids; got {cv!r}."
            )
        if len(ids) != n:
            raise ValueError(
                f"cv holds {len(ids)} fold ids but the training data has {n} rows."
            )
    uniq, inv = np.unique(ids, return_inverse=True)
    if len(uniq) < 2:
        raise ValueError(f"cv must define at least 2 folds; got {len(uniq)}.")
    return inv.ravel().astype(np.intp)
