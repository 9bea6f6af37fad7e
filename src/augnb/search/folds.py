"""Fold assignments of the wrapper searches' internal cross-validation.

A wrapper learner's ``cv=`` argument (a number of folds, ``"loo"``, the fold
id of every row, a scikit-learn splitter, or a list of ``(train, test)``
index pairs) becomes one fold id per training row here, in one place
(:func:`resolve_folds`); :class:`augnb.search.CachedCV` scores candidate
structures on those folds. :func:`cv_kind` tells the forms apart, for the
estimators' parameter check too.
"""

from __future__ import annotations

import numbers

import numpy as np
from numpy.typing import NDArray
from sklearn.utils import check_random_state
from sklearn.utils.metadata_routing import get_routing_for_object

from augnb.data.weights import InputRows

__all__ = ["cv_kind", "fold_ids", "resolve_folds", "stratified_folds"]


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
        _refuse_group_splitter(cv)
        out = np.full(n, -1, dtype=np.intp)
        rows = np.zeros((n, 1)) if X is None else X
        for k, (_, test) in enumerate(cv.split(rows, y)):
            if (out[test] >= 0).any():
                raise ValueError(
                    f"The test sets of cv={cv!r} overlap; a wrapper search needs "
                    "a splitter whose test sets partition the rows (KFold, "
                    "StratifiedKFold, PredefinedSplit, ...)."
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
                f"cv holds {len(ids)} fold ids but the training data has {n} "
                f"rows.{_SUBSET_FIX}"
            )
    uniq, inv = np.unique(ids, return_inverse=True)
    if len(uniq) < 2:
        raise ValueError(f"cv must define at least 2 folds; got {len(uniq)}.")
    return inv.ravel().astype(np.intp)


#: The likely cause of fold ids or (train, test) pairs that do not fit the
#: rows, and the fix: a cross-validation or grid search of scikit-learn fits
#: the learner on part of the rows it was given the folds for.
_SUBSET_FIX = (
    " Fold ids and (train, test) pairs name the rows that fit is given: inside a "
    "cross-validation or grid search, which fits on part of the rows, give a "
    "number of folds or a splitter instead (cv=5, StratifiedKFold(5))."
)


def _refuse_group_splitter(cv: object) -> None:
    """Refuse a splitter that splits by groups: the search has none to give it.

    A wrapper search splits the rows of ``fit``, which takes no groups, so a
    group splitter (``GroupKFold``, ``StratifiedGroupKFold``,
    ``LeaveOneGroupOut``, ...) failed in scikit-learn with "The 'groups'
    parameter should not be None", which names neither ``cv`` nor the fix:
    the folds it makes can be given instead. A group splitter is told by its
    own request for ``groups`` in ``split`` (scikit-learn's metadata API,
    which each of scikit-learn's group splitters declares).
    """
    if not get_routing_for_object(cv).consumes("split", ["groups"]):
        return
    raise ValueError(
        f"cv={cv!r} splits the rows by groups, but a wrapper search has no "
        "groups to give it (fit takes none). Give the folds it makes instead: "
        "the (train, test) pairs, cv=list(splitter.split(X, y, groups)) with "
        "the groups of fit's rows, or one integer fold id per training row "
        "(cv=pandas.factorize(groups)[0] makes each group a fold)."
    )


def cv_kind(cv: object) -> str | None:
    """Which form of ``cv=`` argument ``cv`` is, or None for none of them.

    Parameters
    ----------
    cv : object
        A ``cv=`` argument.

    Returns
    -------
    {"n_folds", "loo", "splits", "fold_ids", "splitter"} or None
        ``"n_folds"``: an integer (any value; at least 2 is valid);
        ``"loo"``: leave-one-out; ``"splits"``: a non-empty list or tuple of
        ``(train, test)`` pairs; ``"fold_ids"``: a 1-D array-like of integer
        fold ids; ``"splitter"``: an object with ``split`` and
        ``get_n_splits``.

    Examples
    --------
    >>> cv_kind(5), cv_kind("loo"), cv_kind([0, 1, 0, 1]), cv_kind([([0], [1])])
    ('n_folds', 'loo', 'fold_ids', 'splits')
    >>> cv_kind(True) is None and cv_kind(2.5) is None
    True
    """
    if isinstance(cv, bool):
        return None
    if isinstance(cv, numbers.Integral):
        return "n_folds"
    if isinstance(cv, str):
        return "loo" if cv == "loo" else None
    if isinstance(cv, (bytes, numbers.Number)):
        return None
    if hasattr(cv, "split") and hasattr(cv, "get_n_splits"):
        return "splitter"
    if (
        isinstance(cv, (list, tuple))
        and cv
        and all(isinstance(split, (list, tuple)) and len(split) == 2 for split in cv)
    ):
        return "splits"
    try:
        ids = np.asarray(cv)
    except (TypeError, ValueError):
        return None
    return "fold_ids" if ids.ndim == 1 and ids.dtype.kind in "iu" else None


def resolve_folds(
    cv: object,
    y: NDArray[np.integer],
    random_state: int | np.random.RandomState | None = None,
    *,
    rows: InputRows | None = None,
) -> NDArray[np.intp]:
    """Fold id of each training row from any ``cv=`` argument of a wrapper search.

    Parameters
    ----------
    cv : int, "loo", array-like, list of (train, test) pairs or CV splitter
        A number of stratified folds (:func:`stratified_folds`; at most one
        per row), leave-one-out, the fold id of every row (any integer
        labels, e.g. the folds another implementation used), ``(train,
        test)`` index pairs whose test sets partition the rows, each train
        set being the rest, or a scikit-learn splitter whose test sets
        partition the rows (:func:`fold_ids`).
    y : ndarray of shape (n_samples,)
        Class codes of the training rows.
    random_state : int, RandomState or None, default=None
        Seed of the stratified partition when ``cv`` is an int.
    rows : InputRows or None, default=None
        Which input row each training row is, when weights dropped or
        repeated rows: fold ids given for every input row, and the indices
        of ``(train, test)`` pairs, name input rows, and a training row
        takes the fold of its input row (a repeated row stays in its fold,
        as a duplicated row would). None: the training rows are the input
        rows.

    Returns
    -------
    ndarray of shape (n_samples,)
        Fold ids ``0..K-1`` (``0..n_samples-1`` for ``"loo"``), every fold
        non-empty.

    Raises
    ------
    ValueError
        If ``cv`` is of none of these forms, or its folds do not partition
        the rows.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0, 1, 0, 1])
    >>> resolve_folds([([2, 3], [0, 1]), ([0, 1], [2, 3])], y).tolist()
    [0, 0, 1, 1]
    >>> rows = InputRows(3, np.array([0, 0, 1, 2]))  # input row 0 weighs 2
    >>> resolve_folds(np.array([7, 5, 7]), y, rows=rows).tolist()
    [1, 1, 0, 1]
    """
    n = len(y)
    kind = cv_kind(cv)
    if kind == "loo":
        return np.arange(n, dtype=np.intp)
    if isinstance(cv, (str, bool)):
        raise ValueError(f"cv must be an int >= 2 or 'loo'; got {cv!r}.")
    if kind == "n_folds":
        # More folds than rows would leave folds empty: one row per fold at
        # most (a class with fewer rows than folds is still dealt one per fold).
        return stratified_folds(y, int(min(cv, n)), random_state)
    if kind == "splits":
        cv = _split_folds(cv, n, rows)
    elif kind == "fold_ids" and rows is not None:
        ids = np.asarray(cv)
        if len(ids) == rows.n_input:
            cv = ids[rows.index]
        # a length mismatch is reported by fold_ids, naming both lengths
    return fold_ids(cv, y)


def _split_folds(
    splits: list | tuple, n_rows: int, rows: InputRows | None
) -> NDArray[np.intp]:
    """Fold id of every training row from ``(train, test)`` index pairs.

    The indices refer to the input rows; the test sets must partition them,
    each train set being the rest.
    """
    n_input, index = (n_rows, None) if rows is None else rows
    folds = np.full(n_input, -1, dtype=np.intp)
    for k, (train, test) in enumerate(splits):
        test = np.asarray(test, dtype=np.intp).ravel()
        train = np.asarray(train, dtype=np.intp).ravel()
        bad = (test < 0) | (test >= n_input)
        if bad.any() or ((train < 0) | (train >= n_input)).any():
            raise ValueError(
                f"cv split {k} holds a row index outside 0..{n_input - 1}."
                f"{_SUBSET_FIX}"
            )
        if (folds[test] >= 0).any():
            raise ValueError(
                f"cv split {k}: its test rows are already in another test fold; "
                "the test sets must partition the rows (as KFold's do)."
            )
        folds[test] = k
        if len(np.intersect1d(train, test)) or len(train) + len(test) != n_input:
            raise ValueError(
                f"cv split {k}: the train rows must be every row not in its "
                "test rows; other schemes are not supported."
            )
    folds = folds if index is None else folds[index]
    if (folds < 0).any():
        raise ValueError(
            "cv splits leave some rows out of every test fold; the test sets "
            "must partition the rows."
        )
    if len(folds) != n_rows:
        raise ValueError("cv splits do not match the training rows.")
    return folds
