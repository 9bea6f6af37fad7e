"""Zhang's dependence-distribution weight I_D (Zhang 2005).

Conditional mutual information measures how strongly two features depend on
each other within each class. Zhang (2005) argues that what changes a
classification is how unevenly that dependence is *distributed* over the
classes, and replaces I(X_i; X_j | C) in Chow-Liu/TAN by

two classes, eq. (17)::

    I_D = sum_{x_i, x_j} p(x_i, x_j) [ln dd+(x_i, x_j) - ln dd-(x_i, x_j)]^2

more classes, eqs. (18)-(19)::

    I_D = sum_{x_i, x_j, c} p(x_i, x_j) [ln dd_c(x_i, x_j) - Avg]^2

with ``dd_c(x_i, x_j) = p(x_i | x_j, c) / p(x_i | c)``, the local dependence
derivative of Definition 2. Estimation: ``p(x_i, x_j)`` is the
maximum-likelihood frequency; the log term is the Lidstone-smoothed symmetric
form ``ln p(x_i, x_j | c) - ln p(x_i | c) - ln p(x_j | c)`` (equal to
``ln dd_c`` and symmetric in i, j; smoothing avoids ``log 0``). Natural log.
"""

from __future__ import annotations

import numbers
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from augnb._docstrings import shared_entries
from augnb.stats.counts import lidstone_log_prob, pairwise_class_counts

__all__ = [
    "id_weight",
    "id_weight_matrix",
    "log_dependence_derivatives",
    "pairwise_id",
]

Avg = Literal["cell", "literal"]
Form = Literal["auto", "eq17", "eq18"]
_AVGS = ("cell", "literal")
_FORMS = ("auto", "eq17", "eq18")


def _check(alpha: object, avg: object, form: object) -> None:
    if not isinstance(alpha, numbers.Real) or isinstance(alpha, bool) or not alpha > 0:
        # alpha = 0 would put log 0 in cells with N_{x_i x_j c} = 0 but
        # p(x_i, x_j) > 0, making I_D infinite; the smoothing is what keeps it finite.
        raise ValueError(f"alpha must be a number > 0; got {alpha!r}.")
    if avg not in _AVGS:
        raise ValueError(f"avg must be one of {list(_AVGS)}; got {avg!r}.")
    if form not in _FORMS:
        raise ValueError(f"form must be one of {list(_FORMS)}; got {form!r}.")


def log_dependence_derivatives(
    table_xy_c: NDArray[np.floating], alpha: float = 1.0
) -> NDArray[np.float64]:
    """Smoothed log dependence derivatives ``ln dd_c(x_i, x_j)`` of every cell.

    ``ln dd_c = ln p(x_i, x_j | c) - ln p(x_i | c) - ln p(x_j | c)``
    ``= ln p(x_i | x_j, c) / p(x_i | c)``.

    Parameters
    ----------
    table_xy_c : ndarray of shape (r_i, r_j, r_C)
        Counts ``N(x_i, x_j, c)``.
    alpha : float, default=1.0
        Lidstone constant (> 0): ``p(x_i, x_j | c) = (N_{x_i x_j c} + alpha) /
        (N_c + alpha r_i r_j)``, ``p(x_i | c) = (N_{x_i c} + alpha) /
        (N_c + alpha r_i)``, likewise ``p(x_j | c)``.

    Returns
    -------
    ndarray of shape (r_i, r_j, r_C)
        The log dependence derivative of every cell (0 for a class without
        rows, whose smoothed estimates are uniform).
    """
    _check(alpha, "cell", "auto")
    t = np.asarray(table_xy_c, dtype=np.float64)
    if t.ndim != 3:
        raise ValueError(
            f"table_xy_c must have shape (r_i, r_j, r_C); got shape {t.shape}."
        )
    ri, rj, _ = t.shape
    a = float(alpha)
    n_c = t.sum(axis=(0, 1))
    log_ij = lidstone_log_prob(t, n_c, a, ri * rj)
    log_i = lidstone_log_prob(t.sum(axis=1), n_c, a, ri)
    log_j = lidstone_log_prob(t.sum(axis=0), n_c, a, rj)
    return log_ij - log_i[:, None, :] - log_j[None, :, :]


def id_weight(
    table_xy_c: NDArray[np.floating],
    alpha: float = 1.0,
    avg: Avg = "cell",
    *,
    form: Form = "auto",
) -> float:
    """Zhang's I_D(X_i, X_j | C) of one feature pair from its count table.

    Parameters
    ----------
    table_xy_c : ndarray of shape (r_i, r_j, r_C)
        Counts ``N(x_i, x_j, c)`` (e.g. one table of
        :func:`augnb.stats.pairwise_class_counts`).
    alpha : float, default=1.0
        Lidstone constant of the log term; ``p(x_i, x_j)`` is always
        the maximum-likelihood frequency.
    avg : {"cell", "literal"}, default="cell"
        ``Avg`` of eq. (18). ``"cell"``: the class average of the log
        dependence derivative in each cell ``(x_i, x_j)``, so that eq. (18) is
        the ``|C| p(x_i, x_j)``-weighted variance over classes (and, for two
        classes, exactly half of eq. (17)). ``"literal"``: eq. (19) as printed,
        the sum over *all* cells and classes divided by ``|C|``, one constant
        per pair.
    form : {"auto", "eq17", "eq18"}, default="auto"
        ``"auto"`` uses eq. (17) for two classes and eq. (18) otherwise, as the
        paper does; ``"eq17"`` (two classes only) and ``"eq18"`` force one.

    Returns
    -------
    float
        ``I_D >= 0`` in nats (squared); 0 for an empty table.

    Examples
    --------
    The same dependence in both classes carries no weight, whatever its
    strength (CMI of this table is 0.19 nats):

    >>> import numpy as np
    >>> t = np.stack([[[40, 10], [10, 40]]] * 2, axis=-1)
    >>> id_weight(t)
    0.0
    >>> t2 = np.stack([[[40, 10], [10, 40]], [[10, 40], [40, 10]]], axis=-1)
    >>> round(id_weight(t2), 4), round(id_weight(t2, form="eq18"), 4)
    (1.731, 0.8655)
    """
    _check(alpha, avg, form)
    L = log_dependence_derivatives(table_xy_c, alpha)
    t = np.asarray(table_xy_c, dtype=np.float64)
    n_classes = t.shape[2]
    if form == "eq17" and n_classes != 2:
        raise ValueError(
            f"form='eq17' is defined for two classes; the table has {n_classes}."
        )
    total = t.sum()
    if total <= 0:
        return 0.0
    p_xy = t.sum(axis=2) / total
    if form == "eq17" or (form == "auto" and n_classes == 2):
        diff = L[:, :, 1] - L[:, :, 0]
        return float((p_xy * diff**2).sum())
    if avg == "cell":
        centre = L.mean(axis=2, keepdims=True)
    else:
        centre = L.sum() / n_classes
    return float((p_xy[:, :, None] * (L - centre) ** 2).sum())


@shared_entries
def pairwise_id(
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    cards: NDArray[np.integer],
    n_classes: int,
    *,
    alpha: float = 1.0,
    avg: Avg = "cell",
    form: Form = "auto",
    sample_weight: NDArray[np.floating] | None = None,
) -> NDArray[np.float64]:
    """I_D of every feature pair, from one counting pass.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features)
        Feature codes (``-1`` = missing; each pair is counted on the rows
        where both features are observed).
    {class_parameters}
    alpha, avg, form
        As in :func:`id_weight`.
    sample_weight : ndarray of shape (n_samples,), default=None
        Row weights (weighted counts).

    Returns
    -------
    ndarray of shape (n_features, n_features)
        Symmetric, zero diagonal, all entries ``>= 0``.

    Examples
    --------
    >>> import numpy as np
    >>> codes = np.array([[0, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 0]])
    >>> w = pairwise_id(codes, np.array([0, 0, 1, 1]), np.array([2, 2, 2]), 2)
    >>> w.shape, bool(np.allclose(w, w.T))
    ((3, 3), True)
    """
    codes = np.asarray(codes)
    tables = pairwise_class_counts(
        codes, y, cards, n_classes, sample_weight=sample_weight
    )
    return id_weight_matrix(tables, codes.shape[1], alpha=alpha, avg=avg, form=form)


def id_weight_matrix(
    tables: dict[tuple[int, int], NDArray[np.floating]],
    p: int,
    *,
    alpha: float = 1.0,
    avg: Avg = "cell",
    form: Form = "auto",
) -> NDArray[np.float64]:
    """I_D of every pair from its (feature, feature, class) table.

    Parameters
    ----------
    tables : dict
        ``(i, j) -> counts`` of shape ``(r_i, r_j, n_classes)`` for ``i < j``
        (a count source's ``pair_tables``).
    p : int
        Number of features.
    alpha, avg, form
        As in :func:`id_weight`.

    Returns
    -------
    ndarray of shape (p, p)
        Symmetric, zero diagonal, all entries ``>= 0``.
    """
    _check(alpha, avg, form)
    weights = np.zeros((p, p))
    for (i, j), table in tables.items():
        weights[i, j] = weights[j, i] = id_weight(table, alpha, avg, form=form)
    return weights
