"""Plug-in (maximum-likelihood) entropies and (conditional) mutual information.

All quantities are in nats unless ``base`` is given. CMI uses the entropy
identity I(X;Y|C) = H(X,C) + H(Y,C) - H(X,Y,C) - H(C), as bnclassify does, with
tiny negative round-off clipped to zero.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray
from scipy.special import xlogy

from augnb._docstrings import shared_entries
from augnb.stats._information_kernels import _cmi_matrix_kernel
from augnb.stats.counts import _pair_counts_flat, joint_counts, pairwise_class_counts

__all__ = [
    "cmi_from_counts",
    "cmi_matrix_from_tables",
    "conditional_mutual_information",
    "entropy",
    "entropy_from_counts",
    "mi_from_counts",
    "mutual_information",
    "pairwise_cmi",
    "stacked_cmi_from_counts",
]


@shared_entries
def entropy_from_counts(
    counts: NDArray[np.floating], base: float | None = None
) -> float:
    """Entropy of the joint distribution given by a table of counts.

    Parameters
    ----------
    counts : ndarray
        Non-negative counts of any shape (the joint over all axes).
    {base}

    Returns
    -------
    float
        ``-sum p log p`` with ``p = counts / counts.sum()``; 0 for an empty table.
    """
    counts = np.asarray(counts, dtype=np.float64)
    total = counts.sum()
    if total <= 0:
        return 0.0
    h = np.log(total) - xlogy(counts, counts).sum() / total
    if base is not None:
        h /= np.log(base)
    return float(max(h, 0.0))


def _information_from_counts(
    counts: NDArray[np.floating], base: float | None, conditional: bool
) -> float:
    """``I(X;Y)`` of a table (r_X, r_Y), or ``I(X;Y|C)`` of one (r_X, r_Y, r_C).

    ``H(X) + H(Y) - H(X, Y)``; conditional, the class axis stays in every
    term (``H(X, C) + H(Y, C) - H(X, Y, C)``) and ``H(C)`` is subtracted.
    Clipped at 0.
    """
    counts = np.asarray(counts, dtype=np.float64)
    info = (
        entropy_from_counts(counts.sum(axis=1), base)
        + entropy_from_counts(counts.sum(axis=0), base)
        - entropy_from_counts(counts, base)
    )
    if conditional:
        info -= entropy_from_counts(counts.sum(axis=(0, 1)), base)
    return float(max(info, 0.0))


@shared_entries
def mi_from_counts(counts: NDArray[np.floating], base: float | None = None) -> float:
    """Mutual information I(X;Y) from a 2-d table of counts (rows X, columns Y).

    Parameters
    ----------
    counts : ndarray of shape (r_X, r_Y)
        Non-negative counts.
    {base}

    Returns
    -------
    float
        Non-negative; 0 for an empty table.
    """
    return _information_from_counts(counts, base, conditional=False)


@shared_entries
def cmi_from_counts(counts: NDArray[np.floating], base: float | None = None) -> float:
    """Conditional mutual information I(X;Y|C) from a table of shape (r_X, r_Y, r_C).

    Parameters
    ----------
    counts : ndarray of shape (r_X, r_Y, r_C)
        Non-negative counts.
    {base}

    Returns
    -------
    float
        Non-negative; 0 for an empty table.
    """
    return _information_from_counts(counts, base, conditional=True)


def _stacked_entropy(
    counts: NDArray[np.float64], base: float | None
) -> NDArray[np.float64]:
    """:func:`entropy_from_counts` of each ``counts[k]``, same arithmetic."""
    flat = counts.reshape(counts.shape[0], -1)
    total = flat.sum(axis=1)
    # Each row is reduced by the same pairwise sum as a table on its own.
    plogp = xlogy(flat, flat).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        h = np.log(total) - plogp / total
    if base is not None:
        h /= np.log(base)
    return np.where(total > 0, np.maximum(h, 0.0), 0.0)


@shared_entries
def stacked_cmi_from_counts(
    counts: NDArray[np.floating], base: float | None = None
) -> NDArray[np.float64]:
    """:func:`cmi_from_counts` of a stack of tables, shape (k, r_X, r_Y, r_C).

    Equal to the bit to ``[cmi_from_counts(t) for t in counts]``; one pass
    of NumPy operations instead of four entropies per table.

    Parameters
    ----------
    counts : ndarray of shape (k, r_X, r_Y, r_C)
        Non-negative counts.
    {base}

    Returns
    -------
    ndarray of shape (k,)
    """
    counts = np.ascontiguousarray(counts, dtype=np.float64)
    cmi = (
        _stacked_entropy(np.ascontiguousarray(counts.sum(axis=2)), base)
        + _stacked_entropy(np.ascontiguousarray(counts.sum(axis=1)), base)
        - _stacked_entropy(counts, base)
        - _stacked_entropy(np.ascontiguousarray(counts.sum(axis=(1, 2))), base)
    )
    return np.maximum(cmi, 0.0)


@shared_entries
def entropy(
    columns: Sequence[NDArray[np.integer]],
    cards: Sequence[int],
    base: float | None = None,
) -> float:
    """Joint entropy H(V_1, ..., V_k) of code columns (available cases).

    Parameters
    ----------
    columns : sequence of ndarray of shape (n_samples,)
        Code columns (``-1`` = missing: the row is left out).
    cards : sequence of int
        Declared cardinality of each column.
    {base}

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> round(entropy([np.array([0, 1, 0, 1])], [2], base=2), 6)
    1.0
    """
    return entropy_from_counts(joint_counts(columns, cards), base)


@shared_entries
def mutual_information(
    x: NDArray[np.integer],
    y: NDArray[np.integer],
    r_x: int,
    r_y: int,
    base: float | None = None,
    *,
    sample_weight: NDArray[np.floating] | None = None,
) -> float:
    """Mutual information I(X;Y) of two code columns (available cases).

    Parameters
    ----------
    x, y : ndarray of shape (n_samples,)
        Code columns (``-1`` = missing: the row is left out).
    r_x, r_y : int
        Their declared cardinalities.
    {base}
    sample_weight : ndarray of shape (n_samples,), default=None
        Row weights (weighted counts).

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([0, 1, 0, 1])
    >>> round(mutual_information(x, x, 2, 2), 6) == round(float(np.log(2)), 6)
    True
    """
    return mi_from_counts(joint_counts([x, y], [r_x, r_y], sample_weight), base)


@shared_entries
def conditional_mutual_information(
    x: NDArray[np.integer],
    y: NDArray[np.integer],
    c: NDArray[np.integer],
    r_x: int,
    r_y: int,
    r_c: int,
    base: float | None = None,
) -> float:
    """Conditional mutual information I(X;Y|C) of three code columns (available cases).

    Parameters
    ----------
    x, y, c : ndarray of shape (n_samples,)
        Code columns (``-1`` = missing: the row is left out).
    r_x, r_y, r_c : int
        Their declared cardinalities.
    {base}

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([0, 1, 0, 1]); c = np.array([0, 0, 1, 1])
    >>> conditional_mutual_information(x, c, c, 2, 2, 2)
    0.0
    """
    return cmi_from_counts(joint_counts([x, y, c], [r_x, r_y, r_c]), base)


@shared_entries
def pairwise_cmi(
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    cards: NDArray[np.integer],
    n_classes: int,
    base: float | None = None,
    *,
    return_counts: bool = False,
    sample_weight: NDArray[np.floating] | None = None,
) -> NDArray[np.float64] | tuple[NDArray[np.float64], dict]:
    """Matrix of I(X_i;X_j|C) for all feature pairs in one counting pass.

    Parameters
    ----------
    {codes}
    {class_parameters}
    {base}
    return_counts : bool, default=False
        Also return the pairwise tables (for tests that reuse them).
    sample_weight : ndarray of shape (n_samples,), default=None
        Row weights (weighted counts); None counts every row once.

    Returns
    -------
    cmi : ndarray of shape (n_features, n_features)
        Symmetric, zero diagonal.
    """
    if sample_weight is None and base is None and not return_counts:
        # Integer counts: one compiled pass over the flat tables, with
        # NumPy's logs and SciPy's x log x of every count looked up, gives
        # the numbers of cmi_matrix_from_tables (a few NumPy calls per table
        # shape dominated ensembles of many randomly discretised members).
        flat, offsets = _pair_counts_flat(codes, y, cards, n_classes)
        counts = np.arange(len(y) + 1, dtype=np.float64)
        with np.errstate(divide="ignore"):
            log_m = np.log(counts)
        return _cmi_matrix_kernel(
            flat,
            offsets,
            np.asarray(cards, dtype=np.int64),
            int(n_classes),
            log_m,
            xlogy(counts, counts),
        )
    tables = pairwise_class_counts(
        codes, y, cards, n_classes, sample_weight=sample_weight
    )
    out = cmi_matrix_from_tables(tables, codes.shape[1], base)
    if return_counts:
        return out, tables
    return out


@shared_entries
def cmi_matrix_from_tables(
    tables: dict[tuple[int, int], NDArray[np.floating]],
    p: int,
    base: float | None = None,
) -> NDArray[np.float64]:
    """Matrix of ``I(X_a; X_b | C)`` from the pair tables ``tables[a, b]``.

    Tables of one shape are scored together: the same operations as
    :func:`cmi_from_counts`, row by row, so the values are the same to the bit
    (a Python loop of four entropies per pair dominated small fits).

    Parameters
    ----------
    tables : dict
        ``(a, b) -> counts`` of shape ``(r_a, r_b, n_classes)`` for ``a < b``.
    p : int
        Size of the matrix.
    {base}

    Returns
    -------
    ndarray of shape (p, p)
        Symmetric, zero diagonal (0 for pairs without a table).

    Examples
    --------
    >>> import numpy as np
    >>> t = np.zeros((2, 2, 1)); t[0, 0, 0] = t[1, 1, 0] = 5
    >>> round(float(cmi_matrix_from_tables({(0, 1): t}, 2)[1, 0]), 4)
    0.6931
    """
    out = np.zeros((p, p))
    by_shape: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    for pair, table in tables.items():
        by_shape.setdefault(table.shape, []).append(pair)
    for pairs in by_shape.values():
        cmi = stacked_cmi_from_counts(np.stack([tables[ij] for ij in pairs]), base)
        rows, cols = (list(v) for v in zip(*pairs))
        out[rows, cols] = cmi
        out[cols, rows] = cmi
    return out
