"""Taheri et al.'s correlation-ordered, conditional-probability augmented NB."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from augnb._docstrings import shared_entries
from augnb.stats.training import CountTables
from augnb.structure._structure import Structure

__all__ = [
    "influence_weights",
    "influence_weights_from_tables",
    "relevance_order",
    "relevance_scores",
    "taheri_arcs",
    "taheri_structure",
]

RELEVANCE_MEASURES = ("eta", "pearson_codes")
_TIE_TOL = 1e-9


def relevance_scores(
    data: CountTables, *, relevance: str = "eta"
) -> NDArray[np.float64]:
    """Relevance of each feature to the class, computed on the feature codes.

    The codes are used as numbers (bin indices), so each feature x class
    table gives the sums of squares of the rows (weighted, when the counts
    are): the same scores from rows in memory and from summed statistics, up
    to round-off, which :func:`relevance_order` treats as ties.

    Parameters
    ----------
    data : CountTables
        The training counts; a feature's rows are those where it is observed.
    relevance : {"eta", "pearson_codes"}, default="eta"
        ``"eta"``: the correlation ratio ``eta(X | C) = sqrt(between-class
        sum of squares / total sum of squares)``, which equals the absolute
        Pearson correlation for two classes and does not depend on how the
        classes are numbered. ``"pearson_codes"``: the absolute
        Pearson correlation with the class codes (the paper's eq. 3 taken
        literally; for more than two classes it depends on the class order).

    Returns
    -------
    scores : ndarray of shape (n_features,)
        Values in ``[0, 1]``; 0 for a feature constant on its observed rows.

    Examples
    --------
    >>> import numpy as np
    >>> from augnb.stats.training import TrainingData
    >>> codes = np.array([[0, 1], [0, 0], [1, 1], [1, 0]])
    >>> data = TrainingData(codes, np.array([0, 0, 1, 1]), np.array([2, 2]), 2)
    >>> relevance_scores(data)
    array([1., 0.])
    """
    if relevance not in RELEVANCE_MEASURES:
        raise ValueError(
            f"relevance must be one of {list(RELEVANCE_MEASURES)}; got {relevance!r}."
        )
    scores = np.zeros(data.n_features)
    for f in range(data.n_features):
        t = np.asarray(data.table((f,)), dtype=np.float64)  # (r, C), X_f observed
        n = t.sum()
        if n < 2:
            continue
        v = np.arange(t.shape[0], dtype=float)
        n_v = t.sum(axis=1)
        dx = v - (v @ n_v) / n
        total = float((n_v * dx) @ dx)
        if not total > 0.0:
            continue
        n_c = t.sum(axis=0)
        if relevance == "eta":
            sum_c = dx @ t
            seen = n_c > 0
            # sum_c / n_c is the class mean of the centred codes.
            between = float((sum_c[seen] ** 2 / n_c[seen]).sum())
            scores[f] = np.sqrt(min(between / total, 1.0))
        else:
            c = np.arange(t.shape[1], dtype=float)
            dc = c - (c @ n_c) / n
            denom = total * float((n_c * dc) @ dc)
            if denom > 0.0:
                scores[f] = min(abs(float(dx @ t @ dc)) / np.sqrt(denom), 1.0)
    return scores


def influence_weights(data: CountTables) -> NDArray[np.float64]:
    """Pairwise weights ``W(i, j)`` of eq. (4) of Taheri et al. (2011).

    ``W(i, j) = sum_k |P(x_ki, x_kj | c_k) - P(x_ki, x_kj | not c_k)|`` over
    the training rows ``k``, with maximum-likelihood frequencies and
    ``not c`` = every other class (one-vs-rest; the paper's complement
    for two classes). Grouping the rows by ``(a, b, c)`` gives the count
    form ``W = sum_{a,b,c} N_abc |N_abc / N_c - N_ab(not c) / N_(not c)|``;
    a class with ``N_(not c) = 0`` contributes 0.

    Parameters
    ----------
    data : CountTables
        The training counts. A pair is counted on the rows where both
        features are observed, and ``N_c`` on those rows too.

    Returns
    -------
    weights : ndarray of shape (n_features, n_features)
        Symmetric, zero diagonal.

    Examples
    --------
    Each row's pair of values has frequency 1/2 in its class and 0 in the
    other, so each of the 4 rows adds 1/2:

    >>> import numpy as np
    >>> from augnb.stats.training import TrainingData
    >>> codes = np.array([[0, 0], [1, 1], [0, 1], [1, 0]])
    >>> influence_weights(
    ...     TrainingData(codes, np.array([0, 0, 1, 1]), np.array([2, 2]), 2))
    array([[0., 2.],
           [2., 0.]])
    """
    p = data.n_features
    if p < 2:
        return np.zeros((p, p))
    return influence_weights_from_tables(data.pair_tables(range(p)), p, data.n_classes)


def influence_weights_from_tables(
    tables: dict[tuple[int, int], NDArray[np.floating]], p: int, n_classes: int
) -> NDArray[np.float64]:
    """:func:`influence_weights` from the pair tables ``tables[i, j][a, b, c]``.

    Parameters
    ----------
    tables : dict
        ``(i, j) -> counts`` of shape ``(r_i, r_j, n_classes)`` for ``i < j``
        (as :func:`augnb.stats.pairwise_class_counts` returns them).
    p : int
        Number of features.
    n_classes : int
        Number of classes.

    Returns
    -------
    ndarray of shape (p, p)
    """
    weights = np.zeros((p, p))
    if p < 2 or not tables:
        return weights
    pairs = list(tables)
    # All pairs at once: stack every (cell, class) table into one array and
    # reduce per pair with np.add.reduceat over the pairs' cell ranges.
    flat = [tables[ij].reshape(-1, n_classes) for ij in pairs]
    sizes = np.array([t.shape[0] for t in flat])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    counts = np.concatenate(flat)  # (total cells, n_classes)
    n_c = np.add.reduceat(counts, starts, axis=0)  # (n_pairs, n_classes)
    n_pair = n_c.sum(axis=1, keepdims=True)
    n_not = n_pair - n_c
    pair_of_cell = np.repeat(np.arange(len(pairs)), sizes)
    cell_total = counts.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_c = counts / n_c[pair_of_cell]
        p_not = (cell_total - counts) / n_not[pair_of_cell]
    # N_abc = 0 (also whenever N_c = 0) contributes 0; so does a class with
    # no other class beside it (N_(not c) = 0), as the paper leaves it undefined.
    term = np.where((counts > 0) & (n_not[pair_of_cell] > 0), counts, 0.0)
    term = term * np.abs(np.nan_to_num(p_c) - np.nan_to_num(p_not))
    w = np.add.reduceat(term.sum(axis=1), starts)
    rows = np.array([i for i, _ in pairs])
    cols = np.array([j for _, j in pairs])
    weights[rows, cols] = w
    weights[cols, rows] = w
    return weights


@shared_entries
def taheri_structure(data: CountTables, *, relevance: str = "eta") -> Structure:
    """Structure of Taheri, Mammadov and Bagirov's augmented naive Bayes.

    The features are ordered by decreasing relevance to the class (ties:
    original index), ``X*_1 .. X*_n``. The arc ``X*_1 -> X*_2`` is added;
    then each ``X*_j``, ``j >= 3``, receives the parent ``X*_i``, ``i < j``,
    with the largest :func:`influence_weights` ``W(i, j)`` (ties: the
    smallest ``i``, i.e. the more relevant candidate). Every feature thus
    has the class and at most one feature as parents.

    Parameters
    ----------
    data : CountTables
        The training counts (rows in memory or summed statistics;
        available-case counting, row weights in the counts).
    relevance : {"eta", "pearson_codes"}, default="eta"
        Relevance score of :func:`relevance_scores`.

    Returns
    -------
    Structure
        One singleton node per feature (node ``f`` holds feature ``f``) and
        ``n_features - 1`` arcs.

    References
    ----------
    {taheri2011}

    Examples
    --------
    >>> import numpy as np
    >>> codes = np.array([[0, 0, 1], [1, 1, 1], [1, 0, 0], [0, 1, 0]])
    >>> from augnb.stats.training import TrainingData
    >>> data = TrainingData(codes, np.array([0, 0, 1, 1]), np.array([2, 2, 2]), 2)
    >>> s = taheri_structure(data)
    >>> s.arcs
    ((2, 0), (2, 1))
    """
    scores = relevance_scores(data, relevance=relevance)
    return taheri_arcs(scores, lambda: influence_weights(data), data.n_features)


def taheri_arcs(
    scores: NDArray[np.floating], weights: Callable[[], NDArray[np.floating]], p: int
) -> Structure:
    """Taheri et al.'s structure from relevance scores and influence weights.

    Parameters
    ----------
    scores : ndarray of shape (p,)
        Relevance of each feature.
    weights : callable
        Returns the ``(p, p)`` influence weights (called only when ``p >= 3``).
    p : int
        Number of features.

    Returns
    -------
    Structure
    """
    order = relevance_order(scores)
    arcs: list[tuple[int, int]] = []
    if p >= 2:
        arcs.append((int(order[0]), int(order[1])))
    if p >= 3:
        weights = weights()
        for t in range(2, p):
            w = weights[order[t], order[:t]]
            # Equal weights can differ in the last bits depending on the
            # summation order; treat them as ties, won by the earliest.
            best = w.max()
            i = int(np.flatnonzero(w >= best - _TIE_TOL * max(1.0, best))[0])
            arcs.append((int(order[i]), int(order[t])))
    return Structure.from_arcs([(f,) for f in range(p)], arcs, p)


def relevance_order(scores: NDArray[np.floating]) -> NDArray[np.intp]:
    """Feature indices by decreasing score, ties in index order.

    Scores equal to 12 decimals count as tied, so that features with the
    same relevance are ordered by index whatever rounding made of them.

    Parameters
    ----------
    scores : ndarray of shape (n_features,)
        Relevance scores in ``[0, 1]``.

    Returns
    -------
    order : ndarray of shape (n_features,)
        The paper's ``X*`` as feature indices.

    Examples
    --------
    >>> relevance_order(np.array([0.2, 0.5, 0.2, 0.5 + 1e-15]))
    array([1, 3, 0, 2])
    """
    return np.argsort(-np.round(np.asarray(scores, dtype=float), 12), kind="stable")
