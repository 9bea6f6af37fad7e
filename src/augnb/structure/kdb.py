"""k-dependence Bayesian classifier structure (Sahami 1996)."""

from __future__ import annotations

import numbers
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from augnb._docstrings import shared_entries
from augnb.stats.information import mutual_information
from augnb.stats.training import CountTables
from augnb.structure._structure import Structure
from augnb.structure.naive import naive_bayes_structure

__all__ = [
    "kdb_from_scores",
    "kdb_order",
    "kdb_ranked_parents",
    "kdb_structure",
    "mi_order",
]

# Scores are rounded to this many decimals (nats) before ranking, so that two
# features whose MI (or CMI) differ only by floating-point round-off (e.g. the
# same counts summed in another order) tie and go to the lowest index, which
# keeps the structure deterministic under column relabelling.
_DECIMALS = 12


@shared_entries
def kdb_order(
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    cards: NDArray[np.integer],
    n_classes: int,
    sample_weight: NDArray[np.floating] | None = None,
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Features ranked by mutual information with the class, highest first.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features)
        Integer codes, ``-1`` for missing (available cases per feature).
    {class_parameters}
    sample_weight : ndarray of shape (n_samples,), default=None
        Row weights (weighted counts).

    Returns
    -------
    order : ndarray of shape (n_features,)
        Feature indices by decreasing ``I(X_i; C)``, ties to the lowest index.
    mi : ndarray of shape (n_features,)
        ``I(X_i; C)`` in nats.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0, 0, 1, 1])
    >>> X = np.array([[0, 0], [1, 0], [0, 1], [1, 1]])
    >>> kdb_order(X, y, np.array([2, 2]), 2)[0].tolist()
    [1, 0]
    """
    p = codes.shape[1]
    mi = np.array(
        [
            mutual_information(
                codes[:, i],
                y,
                int(cards[i]),
                int(n_classes),
                sample_weight=sample_weight,
            )
            for i in range(p)
        ],
        dtype=np.float64,
    )
    return mi_order(mi), mi


def kdb_structure(data: CountTables, *, k: int = 1, theta: float = 0.0) -> Structure:
    """k-dependence Bayesian classifier structure (Sahami 1996).

    Features are ranked by ``I(X_i; C)`` (highest first, ties to the lowest
    index). Each feature takes as parents the ``min(k, #earlier)`` features
    ranked before it with the highest ``I(X_i; X_j | C)``, among those whose
    CMI is strictly above ``theta`` (ties to the lowest index). With ``k=0``
    the structure is naive Bayes; with ``k=1`` it is a forest whose every arc
    points from an earlier to a later feature in the ranking.

    Parameters
    ----------
    data : CountTables
        The training counts (rows in memory or summed statistics; row
        weights, if any, are in the counts; available-case statistics).
    k : int, default=1
        Maximum number of feature parents per feature (>= 0).
    theta : float, default=0.0
        A parent's CMI (nats) must be strictly greater than ``theta``. With the
        default, a candidate with zero CMI (e.g. a constant feature) is never a
        parent; a negative ``theta`` admits every candidate, so each feature
        gets exactly ``min(k, #earlier)`` parents.

    Returns
    -------
    Structure
        Node ``i`` is feature ``i`` (every feature is used); parents are listed
        in ascending index order.

    References
    ----------
    Sahami, M. (1996). Learning limited dependence Bayesian classifiers.
    Proc. KDD-96, 335-338.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 500)
    >>> a = np.where(rng.random(500) < 0.8, y, 1 - y)
    >>> b = np.where(rng.random(500) < 0.9, a, 1 - a)  # depends on a given C
    >>> c = rng.integers(0, 2, 500)
    >>> X = np.column_stack([c, b, a])
    >>> from augnb.stats.training import TrainingData
    >>> s = kdb_structure(TrainingData(X, y, np.array([2, 2, 2]), 2), k=1)
    >>> s.parents[1]
    (2,)
    """
    return kdb_from_scores(
        data.n_features,
        lambda: (data.class_mi(), data.cmi_matrix()),
        k=k,
        theta=theta,
    )


def kdb_from_scores(
    n_features: int,
    scores: Callable[[], tuple[NDArray[np.floating], NDArray[np.floating]]],
    *,
    k: int,
    theta: float,
) -> Structure:
    """The kDB structure from its two scores, however they were counted.

    The rule of :func:`kdb_structure` on precomputed scores (the selective
    and ensemble kDB learners rank with it too).

    Parameters
    ----------
    n_features : int
        Number of features.
    scores : callable
        Returns ``(mi, cmi)``: ``I(X_i; C)`` of shape ``(n_features,)`` and
        ``I(X_i; X_j | C)`` of shape ``(n_features, n_features)``, in nats.
        Called only when some feature can have a parent (``k >= 1`` and at
        least two features).
    k : int
        Maximum number of feature parents per feature (>= 0).
    theta : float
        A parent's CMI must be strictly greater than ``theta``.

    Returns
    -------
    Structure
        Node ``i`` is feature ``i``; parents in ascending index order.
    """
    k = check_k(k)
    theta = check_theta(theta)
    if k == 0 or n_features < 2:
        return naive_bayes_structure(n_features)
    mi, cmi = scores()
    ranked = kdb_ranked_parents(mi_order(mi), cmi, k, theta)
    nodes = tuple((i,) for i in range(n_features))
    return Structure(nodes, tuple(tuple(sorted(r)) for r in ranked), n_features)


def mi_order(mi: NDArray[np.floating]) -> NDArray[np.int64]:
    """Feature indices by decreasing ``I(X_i; C)``, ties to the lowest index.

    Scores are rounded to 12 decimals first (see ``_DECIMALS``).

    Parameters
    ----------
    mi : ndarray of shape (n_features,)
        ``I(X_i; C)`` of each feature.

    Returns
    -------
    ndarray of shape (n_features,)
    """
    p = len(mi)
    # lexsort sorts by the last key first: rank by -MI, then by index.
    return np.lexsort((np.arange(p), -np.round(mi, _DECIMALS))).astype(np.int64)


def kdb_ranked_parents(
    order: NDArray[np.integer], cmi: NDArray[np.float64], k: int, theta: float
) -> list[tuple[int, ...]]:
    """Each feature's kDB parents, best first (the nested models' parent lists).

    Feature ``order[t]`` takes the up to ``k`` features of ``order[:t]`` with
    the highest ``I(X_i; X_j | C)`` strictly above ``theta`` (CMI rounded as
    in :func:`kdb_structure`, ties to the lowest index), listed from the
    highest CMI down, so its first ``k'`` entries are its parents in kDB with
    ``k'``.

    Parameters
    ----------
    order : ndarray of shape (n_features,)
        Features ranked by ``I(X_i; C)`` (:func:`mi_order`).
    cmi : ndarray of shape (n_features, n_features)
        ``I(X_i; X_j | C)`` of every pair.
    k : int
        Maximum number of feature parents per feature.
    theta : float
        A parent's CMI must be strictly greater than ``theta``.

    Returns
    -------
    list of tuple of int
        Ranked parent features of each feature (by feature index).
    """
    cmi = np.round(cmi, _DECIMALS)
    ranked: list[tuple[int, ...]] = [() for _ in range(len(order))]
    for t in range(1, len(order)):
        child = int(order[t])
        earlier = np.asarray(order[:t])
        weights = cmi[child, earlier]
        keep = weights > theta
        cand, w = earlier[keep], weights[keep]
        ranked[child] = tuple(int(j) for j in cand[np.lexsort((cand, -w))][:k])
    return ranked


def check_k(k: object) -> int:
    """Validate the ``k`` of kDB: an integer >= 0."""
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 0:
        raise ValueError(f"k must be an integer >= 0; got {k!r}.")
    return int(k)


def check_theta(theta: object) -> float:
    """Validate the CMI threshold ``theta``: a finite real number."""
    if (
        isinstance(theta, bool)
        or not isinstance(theta, numbers.Real)
        or not np.isfinite(theta)
    ):
        raise ValueError(f"theta must be a finite number; got {theta!r}.")
    return float(theta)
