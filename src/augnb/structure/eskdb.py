"""Ensemble of selective kDBs (Zhang, Petitjean & Buntine 2020): the members."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.utils import check_random_state

from augnb._docstrings import shared_entries
from augnb.stats.information import pairwise_cmi
from augnb.structure.kdb import kdb_order
from augnb.structure.skdb import SKDBSelection, skdb_structure

__all__ = [
    "eskdb_member",
    "eskdb_structures",
    "member_information",
    "mi_weighted_order",
]

#: Draws tried for a ranking no earlier member has, before a repeat is kept.
_MAX_REDRAWS = 10


def mi_weighted_order(
    mi: NDArray[np.floating], random_state: object = None
) -> NDArray[np.int64]:
    """A random feature ranking, drawn in proportion to mutual information.

    The first feature is drawn with probability ``I(X_i; C) / sum_j I(X_j;
    C)``, the next among the remaining ones with their renormalised weights,
    and so on (sampling without replacement). Features with no mutual
    information with the class come last, in a uniformly random order.

    Parameters
    ----------
    mi : ndarray of shape (n_features,)
        ``I(X_i; C)`` (negative values are read as 0).
    random_state : int, RandomState or None
        Source of randomness.

    Returns
    -------
    ndarray of int64, a permutation of the features

    Examples
    --------
    >>> import numpy as np
    >>> sorted(mi_weighted_order(np.array([0.5, 0.0, 0.2]), 0).tolist())
    [0, 1, 2]
    """
    rng = check_random_state(random_state)
    w = np.maximum(np.asarray(mi, dtype=np.float64), 0.0)
    u = rng.random_sample(len(w))
    # Efraimidis & Spirakis: sorting log(u) / w in decreasing order is
    # sequential weighted sampling without replacement; weight 0 goes last.
    with np.errstate(divide="ignore"):
        key = np.where(w > 0, np.log(u) / np.where(w > 0, w, 1.0), -np.inf)
    tie = rng.random_sample(len(w))
    return np.lexsort((tie, -key)).astype(np.int64)


@shared_entries
def eskdb_structures(
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    cards: NDArray[np.integer],
    n_classes: int,
    *,
    n_estimators: int = 20,
    k: int = 5,
    random_state: object = None,
    **options: Any,
) -> list[SKDBSelection]:
    """The members of ESKDB: one selective kDB per stochastic feature ranking.

    The first member ranks the features by mutual information with the class
    (it is :func:`augnb.structure.skdb.skdb_structure`'s model); every other
    member draws its ranking with :func:`mi_weighted_order` (a ranking equal
    to an earlier member's is redrawn up to 10 times). Each member then gives
    every feature up to ``k`` parents among the features ranked before it, by
    conditional mutual information, and selects its nested model by
    leave-one-out as SKDB does.

    Parameters
    ----------
    {codes}
    {class_parameters}
    n_estimators : int, default=20
        Number of members.
    k : int, default=5
        Largest number of parents per feature.
    random_state : int, RandomState or None
        Draws the rankings.
    **options
        ``theta``, ``alpha`` and ``criterion`` of every member, as in
        :func:`augnb.structure.skdb.skdb_structure`.

    Returns
    -------
    list of SKDBSelection
        One per member.

    References
    ----------
    Zhang, H., Petitjean, F. and Buntine, W. (2020). Bayesian network
    classifiers using ensembles and smoothing. Knowledge and Information
    Systems 62, 3457-3480.
    """
    if int(n_estimators) < 1:
        raise ValueError(f"n_estimators must be >= 1; got {n_estimators!r}.")
    rng = check_random_state(random_state)
    codes = np.asarray(codes)
    order, mi, cmi = member_information(codes, y, cards, n_classes, k)
    orders = [np.asarray(order, dtype=np.int64)]
    seen = {tuple(orders[0].tolist())}
    for _ in range(int(n_estimators) - 1):
        for _ in range(_MAX_REDRAWS):
            cand = mi_weighted_order(mi, rng)
            if tuple(cand.tolist()) not in seen:
                break
        seen.add(tuple(cand.tolist()))
        orders.append(cand)
    return [
        skdb_structure(codes, y, cards, n_classes, k=k, order=o, cmi=cmi, **options)
        for o in orders
    ]


@shared_entries
def eskdb_member(
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    cards: NDArray[np.integer],
    n_classes: int,
    *,
    k: int = 5,
    random_order: bool = True,
    random_state: object = None,
    information: tuple[NDArray[np.int64], NDArray[np.float64], Any] | None = None,
    **options: Any,
) -> SKDBSelection:
    """One member of ESKDB, on the member's own encoding of the data.

    With one discretisation per member, each member ranks the features by
    its own mutual information with the class: the ranking by mutual
    information (``random_order=False``) or one drawn with
    :func:`mi_weighted_order`. It then gives every feature up to ``k``
    parents among the features ranked before it, by its own conditional
    mutual information, and selects its nested model by leave-one-out as
    SKDB does.

    Parameters
    ----------
    {codes}
    {class_parameters}
    k : int, default=5
        Largest number of parents per feature.
    random_order : bool, default=True
        Whether the ranking is drawn (else: by mutual information).
    random_state : int, RandomState or None
        Draws the ranking.
    information : tuple or None, default=None
        :func:`member_information` of these very codes, when members share
        them (computed when None).
    **options
        ``theta``, ``alpha`` and ``criterion``, as in
        :func:`augnb.structure.skdb.skdb_structure`.

    Returns
    -------
    SKDBSelection

    References
    ----------
    Zhang, H., Petitjean, F. and Buntine, W. (2020). Bayesian network
    classifiers using ensembles and smoothing. Knowledge and Information
    Systems 62, 3457-3480.
    """
    codes = np.asarray(codes)
    if information is None:
        information = member_information(codes, y, cards, n_classes, k)
    order, mi, cmi = information
    if random_order:
        order = mi_weighted_order(mi, random_state)
    return skdb_structure(
        codes,
        y,
        cards,
        n_classes,
        k=k,
        order=np.asarray(order, dtype=np.int64),
        cmi=cmi,
        **options,
    )


@shared_entries
def member_information(
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    cards: NDArray[np.integer],
    n_classes: int,
    k: int = 5,
) -> tuple[NDArray[np.int64], NDArray[np.float64], NDArray[np.float64] | None]:
    """What a member ranks and links its features by.

    Parameters
    ----------
    {codes}
    {class_parameters}
    k : int, default=5
        Largest number of parents per feature (with ``k = 0`` or a single
        feature no conditional mutual information is needed).

    Returns
    -------
    order : ndarray of int64
        Features by decreasing ``I(X_i; C)`` (:func:`kdb_order`).
    mi : ndarray of shape (n_features,)
        ``I(X_i; C)``.
    cmi : ndarray of shape (n_features, n_features) or None
        ``I(X_i; X_j | C)``, None when no feature can have a parent.
    """
    order, mi = kdb_order(codes, y, cards, n_classes)
    cmi = (
        pairwise_cmi(codes, y, cards, n_classes)
        if codes.shape[1] >= 2 and k > 0
        else None
    )
    return order, mi, cmi
