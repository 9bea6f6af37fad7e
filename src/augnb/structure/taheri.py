"""Taheri et al.'s correlation-ordered, conditional-probability augmented NB."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from augnb.stats.counts import pairwise_class_counts
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
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    n_classes: int,
    *,
    relevance: str = "eta",
    sample_weight: NDArray[np.floating] | None = None,
) -> NDArray[np.float64]:
    """Relevance of each feature to the class, computed on the feature codes.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features)
        Feature codes (``-1`` = missing: the row is left out for that
        feature only). The codes are used as numbers (bin indices).
    y : ndarray of shape (n_samples,)
        Class codes ``0..n_classes-1``.
    n_classes : int
        Number of classes.
    relevance : {"eta", "pearson_codes"}, default="eta"
        ``"eta"``: the correlation ratio ``eta(X | C) = sqrt(between-class
        sum of squares / total sum of squares)``, which equals the absolute
        Pearson correlation for two classes and does not depend on how the
        classes are numbered. ``"pearson_codes"``: the absolute
        Pearson correlation with the class codes (the paper's eq. 3 taken
        literally; for more than two classes it depends on the class order).
    sample_weight : ndarray of shape (n_samples,), default=None
        Row weights (weighted sums of squares).

    Returns
    -------
    scores : ndarray of shape (n_features,)
        Values in ``[0, 1]``; 0 for a feature constant on its observed rows.

    Examples
    --------
    >>> import numpy as np
    >>> codes = np.array([[0, 1], [0, 0], [1, 1], [1, 0]])
    >>> relevance_scores(codes, np.array([0, 0, 1, 1]), 2)
    array([1., 0.])
    """
    if relevance not in RELEVANCE_MEASURES:
        raise ValueError(
            f"relevance must be one of {list(RELEVANCE_MEASURES)}; got {relevance!r}."
        )
    codes = np.asarray(codes)
    y = np.asarray(y, dtype=np.intp)
    scores = np.zeros(codes.shape[1])
    for f in range(codes.shape[1]):
        keep = codes[:, f] >= 0
        x = codes[keep, f].astype(float)
        c = y[keep]
        if sample_weight is None:
            w = None
            if x.size < 2:
                continue
            dx = x - x.mean()
            total = float(dx @ dx)
        else:
            w = np.asarray(sample_weight, dtype=np.float64)[keep]
            if w.sum() < 2:
                continue
            dx = x - float(w @ x) / float(w.sum())
            total = float(w @ (dx * dx))
        if not total > 0.0:
            continue
        if relevance == "eta":
            n_c = np.bincount(c, weights=w, minlength=n_classes)
            sum_c = np.bincount(
                c, weights=dx if w is None else w * dx, minlength=n_classes
            )
            seen = n_c > 0
            # sum_c / n_c is the class mean of the centred codes.
            between = float((sum_c[seen] ** 2 / n_c[seen]).sum())
            scores[f] = np.sqrt(min(between / total, 1.0))
        else:
            if w is None:
                dc = c - c.mean()
                denom = total * float(dc @ dc)
                num = float(dx @ dc)
            else:
                dc = c - float(w @ c) / float(w.sum())
                denom = total * float(w @ (dc * dc))
                num = float(w @ (dx * dc))
            if denom > 0.0:
                scores[f] = min(abs(num) / np.sqrt(denom), 1.0)
    return scores


def influence_weights(
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    cards: NDArray[np.integer],
    n_classes: int,
    sample_weight: NDArray[np.floating] | None = None,
) -> NDArray[np.float64]:
    """Pairwise weights ``W(i, j)`` of eq. (4) of Taheri et al. (2011).

    ``W(i, j) = sum_k |P(x_ki, x_kj | c_k) - P(x_ki, x_kj | not c_k)|`` over
    the training rows ``k``, with maximum-likelihood frequencies and
    ``not c`` = every other class (one-vs-rest; the paper's complement
    for two classes). Grouping the rows by ``(a, b, c)`` gives the count
    form ``W = sum_{a,b,c} N_abc |N_abc / N_c - N_ab(not c) / N_(not c)|``;
    a class with ``N_(not c) = 0`` contributes 0.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features)
        Feature codes (``-1`` = missing). A pair is counted on the rows where
        both features are observed, and ``N_c`` on those rows too.
    y : ndarray of shape (n_samples,)
        Class codes.
    cards : ndarray of shape (n_features,)
        Declared cardinalities.
    n_classes : int
        Number of classes.
    sample_weight : ndarray of shape (n_samples,), default=None
        Row weights (weighted counts).

    Returns
    -------
    weights : ndarray of shape (n_features, n_features)
        Symmetric, zero diagonal.

    Examples
    --------
    Each row's pair of values has frequency 1/2 in its class and 0 in the
    other, so each of the 4 rows adds 1/2:

    >>> import numpy as np
    >>> codes = np.array([[0, 0], [1, 1], [0, 1], [1, 0]])
    >>> influence_weights(codes, np.array([0, 0, 1, 1]), np.array([2, 2]), 2)
    array([[0., 2.],
           [2., 0.]])
    """
    p = codes.shape[1]
    weights = np.zeros((p, p))
    if p < 2:
        return weights
    tables = pairwise_class_counts(
        codes, y, cards, n_classes, sample_weight=sample_weight
    )
    return influence_weights_from_tables(tables, p, n_classes)


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


def taheri_structure(
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    cards: NDArray[np.integer],
    n_classes: int,
    *,
    relevance: str = "eta",
    sample_weight: NDArray[np.floating] | None = None,
) -> Structure:
    """Structure of Taheri, Mammadov and Bagirov's augmented naive Bayes.

    The features are ordered by decreasing relevance to the class (ties:
    original index), ``X*_1 .. X*_n``. The arc ``X*_1 -> X*_2`` is added;
    then each ``X*_j``, ``j >= 3``, receives the parent ``X*_i``, ``i < j``,
    with the largest :func:`influence_weights` ``W(i, j)`` (ties: the
    smallest ``i``, i.e. the more relevant candidate). Every feature thus
    has the class and at most one feature as parents.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features)
        Feature codes (``-1`` = missing, available-case counting).
    y : ndarray of shape (n_samples,)
        Class codes.
    cards : ndarray of shape (n_features,)
        Declared cardinalities.
    n_classes : int
        Number of classes.
    relevance : {"eta", "pearson_codes"}, default="eta"
        Relevance score of :func:`relevance_scores`.
    sample_weight : ndarray of shape (n_samples,), default=None
        Row weights of every statistic (weighted counts).

    Returns
    -------
    Structure
        One singleton node per feature (node ``f`` holds feature ``f``) and
        ``n_features - 1`` arcs.

    References
    ----------
    .. [1] S. Taheri, M. Mammadov and A. M. Bagirov, "Improving naive Bayes
       classifier using conditional probabilities", Proc. 9th Australasian
       Data Mining Conference (AusDM 2011), CRPIT vol. 121, 2011.

    Examples
    --------
    >>> import numpy as np
    >>> codes = np.array([[0, 0, 1], [1, 1, 1], [1, 0, 0], [0, 1, 0]])
    >>> s = taheri_structure(codes, np.array([0, 0, 1, 1]), np.array([2, 2, 2]), 2)
    >>> s.arcs
    ((2, 0), (2, 1))
    """
    p = codes.shape[1]
    scores = relevance_scores(
        codes, y, n_classes, relevance=relevance, sample_weight=sample_weight
    )
    return taheri_arcs(
        scores,
        lambda: influence_weights(codes, y, cards, n_classes, sample_weight),
        p,
    )


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
