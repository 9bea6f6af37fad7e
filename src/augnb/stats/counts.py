"""Contingency tables of integer codes.

Counting is the sufficient statistic of every discrete model in augnb, so it has
one key: the mixed-radix index over the family's columns
(:func:`family_index`, the first column varying slowest). Rows in which any
column of the family is missing (code ``-1``) are left out of that family's
table only (available-case counting).

At a million rows the passes over the data are the cost of a fit, so the
counters read the codes once for many tables, in Numba kernels that compute
the key row by row: :func:`families_class_counts` counts every family of a
model in one call, and :func:`pairwise_class_counts` joins narrow features
into groups whose (group, group, class) tables hold several pair tables at
once (one increment per group pair instead of one per feature pair), summed
down to the pair tables afterwards. Integer counts are exact in any order,
so these equal counting table by table; weighted sums keep the row order.

Large tables are counted on several threads (:mod:`augnb._threads`): integer
counts one span of rows per thread, each into its own table, the tables
added; weighted counts in row blocks of a size fixed by the rows and the
table, added in block order. Either way the tables are the same whatever
the number of threads.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from augnb._docstrings import shared_entries
from augnb._threads import fixed_blocks, map_spans, sum_in_order, thread_spans
from augnb.stats._count_kernels import (
    _families_class_counts_kernel,
    _family_class_counts_kernel,
    _grouped_pair_counts_kernel,
    _pairwise_class_counts_kernel,
)

__all__ = [
    "compound_codes",
    "families_class_counts",
    "family_class_counts",
    "family_index",
    "joint_counts",
    "lidstone_log_prob",
    "pairwise_class_counts",
]


def family_index(
    columns: Sequence[NDArray[np.integer]], cards: Sequence[int]
) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """Mixed-radix index of each row over several code columns.

    The one key of a family's configuration in augnb: the fitter, the
    inference routine, the wrapper engine and the explanations all index
    tables with it.

    Parameters
    ----------
    columns : sequence of ndarray
        Integer codes, ``-1`` for missing, all of shape ``(n_samples,)`` or
        broadcastable to one shape. The first column varies slowest.
    cards : sequence of int
        Cardinality (radix) of each column.

    Returns
    -------
    index : ndarray of int64
        Flat index into an array of shape ``cards`` (0 where a value is missing).
    valid : ndarray of bool
        False where any of the columns is missing.

    Examples
    --------
    >>> import numpy as np
    >>> family_index([np.array([0, 1, 1]), np.array([2, -1, 1])], [2, 3])
    (array([2, 0, 4]), array([ True, False,  True]))
    """
    if len(columns) != len(cards):
        raise ValueError("columns and cards must have the same length")
    # np.broadcast_shapes costs more than the rest for a small table: the
    # columns of a table share their shape, which then needs no broadcasting.
    shapes = {np.shape(c) for c in columns}
    if not shapes:
        shape: tuple[int, ...] = (0,)
    elif len(shapes) == 1:
        shape = shapes.pop()
    else:
        shape = np.broadcast_shapes(*shapes)
    index = np.zeros(shape, dtype=np.int64)
    valid = np.ones(shape, dtype=bool)
    for col, card in zip(columns, cards):
        col = np.asarray(col)
        valid &= col >= 0
        index *= int(card)
        index += col
    index[~valid] = 0
    return index, valid


def lidstone_log_prob(
    counts: NDArray[np.floating] | float,
    totals: NDArray[np.floating] | float,
    alpha: float,
    size: float,
) -> NDArray[np.float64]:
    """Lidstone-smoothed log probability ``log (N_x + alpha) / (N + alpha r)``.

    The one smoothing formula of augnb (``alpha = 1`` is Laplace's
    correction): class priors, conditional probability tables, their
    cross-validated versions in the wrapper engine and the explanations all
    call it, so the model a search scores is the model that is fitted.

    Parameters
    ----------
    counts : array-like
        Counts ``N_x`` of the values.
    totals : array-like
        Counts ``N`` of the conditioning event (broadcast against ``counts``).
    alpha : float
        Pseudo-count added to every value (> 0 for a proper distribution).
    size : float
        Number of values ``r`` the distribution is over (the declared size of
        a compound node, not the number of observed combinations).

    Returns
    -------
    ndarray
        Log probabilities, the broadcast shape of ``counts`` and ``totals``.

    Examples
    --------
    >>> import numpy as np
    >>> np.exp(lidstone_log_prob(np.array([3.0, 1.0, 0.0]), 4.0, 1.0, 3))
    array([0.57142857, 0.28571429, 0.14285714])
    """
    return np.log(counts + alpha) - np.log(totals + alpha * size)


def joint_counts(
    columns: Sequence[NDArray[np.integer]],
    cards: Sequence[int],
    sample_weight: NDArray[np.floating] | None = None,
) -> NDArray[np.float64]:
    """Contingency table of several discrete variables.

    Parameters
    ----------
    columns : sequence of ndarray of shape (n_samples,)
        Integer codes in ``0..card-1``; ``-1`` marks a missing value and leaves
        the row out of the table.
    cards : sequence of int
        Declared cardinality of each variable (levels absent from the data still
        get a cell).
    sample_weight : ndarray of shape (n_samples,), default=None
        Optional row weights.

    Returns
    -------
    counts : ndarray of shape ``tuple(cards)``, float64

    Examples
    --------
    >>> import numpy as np
    >>> joint_counts([np.array([0, 1, 1]), np.array([1, 1, -1])], [2, 2])
    array([[0., 1.],
           [0., 1.]])
    """
    index, valid = family_index(columns, cards)
    size = int(np.prod(cards, dtype=np.int64)) if len(cards) else 1
    weights = None if sample_weight is None else np.asarray(sample_weight)[valid]
    flat = np.bincount(index[valid], weights=weights, minlength=size)
    return flat.astype(np.float64, copy=False).reshape(tuple(int(c) for c in cards))


#: The weights argument of a kernel that counts every row once.
_NO_WEIGHTS = np.empty(0)

#: Cells (all group tables together) the grouped counting pass may use: its
#: tables must stay in the processor's cache to beat counting pair by pair.
_GROUP_CELLS = 1 << 17
#: Widest product of cardinalities a group of features may have.
_MAX_GROUP_SIZE = 64


def _feature_groups(cards: NDArray[np.int64], n_classes: int) -> NDArray[np.int64]:
    """Consecutive features joined into groups for the grouped counting pass.

    Returns the group boundaries ``starts`` (``starts[g]:starts[g+1]`` are
    the members of group ``g``). Joining features whose product of
    cardinalities is small lets one increment of a (group, group, class)
    table count every feature pair across the two groups at once; the
    widest groups whose tables still fit ``_GROUP_CELLS`` are chosen.
    """
    p = len(cards)
    best = np.arange(p + 1, dtype=np.int64)
    limit = _MAX_GROUP_SIZE
    while limit >= 2:
        starts = [0]
        size = 1
        sizes = []
        for j in range(p):
            r = int(cards[j])
            if j > starts[-1] and size * r > limit:
                starts.append(j)
                sizes.append(size)
                size = 1
            size *= r
        sizes.append(size)
        starts.append(p)
        z = np.asarray(sizes, dtype=np.int64)
        cells = (int(z.sum()) ** 2 - int((z * z).sum())) // 2 * n_classes
        cells += int(z.sum()) * n_classes
        if cells <= _GROUP_CELLS:
            return np.asarray(starts, dtype=np.int64)
        limit //= 2
    return best


def _narrow_codes(codes: ArrayLike) -> NDArray[np.integer]:
    """Codes as they are when int32 or narrower, else cast to int32 (layout kept).

    The counting kernels are compiled once per dtype they meet: wider codes
    (int64 arrays built by hand, in tests and user code) share int32's
    compiled kernels instead of compiling their own.
    """
    codes = np.asarray(codes)
    if codes.dtype.kind != "i" or codes.dtype.itemsize > 4:
        codes = codes.astype(np.int32)
    return codes


def _feature_rows(codes: NDArray[np.integer]) -> NDArray[np.integer]:
    """The table transposed, one feature per row, C-contiguous (a view of F order).

    The counting kernels read the codes feature by feature, so they take the
    transposed Fortran-ordered table: C-contiguous whatever the table's
    shape, where the table itself is typed C (not F) by Numba when it has
    one column or at most one row, and each layout compiles the kernel
    once more. A C-ordered table is copied (as the pair counts always did).
    """
    return np.asfortranarray(codes).T


@shared_entries
def pairwise_class_counts(
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    cards: NDArray[np.integer],
    n_classes: int,
    *,
    sample_weight: NDArray[np.floating] | None = None,
) -> dict[tuple[int, int], NDArray[np.float64]]:
    """All pairwise (feature, feature, class) contingency tables in one pass.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features)
        Integer codes, ``-1`` for missing (int32 or narrower is read as is).
    {class_parameters}
    sample_weight : ndarray of shape (n_samples,), default=None
        Row weights (weighted counts); None counts every row once.

    Returns
    -------
    tables : dict
        ``tables[i, j]`` (``i < j``) is an array of shape
        ``(cards[i], cards[j], n_classes)``; rows missing either feature are left out.
    """
    out, offsets = _pair_counts_flat(
        codes, y, cards, n_classes, sample_weight=sample_weight
    )
    cards = np.asarray(cards, dtype=np.int64)
    p = np.shape(codes)[1]
    tables = {}
    for i in range(p):
        for j in range(i + 1, p):
            start = offsets[i * p + j]
            size = int(cards[i] * cards[j] * n_classes)
            tables[i, j] = out[start : start + size].reshape(
                int(cards[i]), int(cards[j]), n_classes
            )
    return tables


@contextlib.contextmanager
def _pair_tables_memory(cards: NDArray[np.integer], n_classes: int) -> Iterator[None]:
    """Give a MemoryError of the pairwise tables their size and the fixes."""
    try:
        yield
    except MemoryError:
        widths = np.sort(np.asarray(cards, dtype=np.int64))[::-1]
        cells = int((widths.sum() ** 2 - (widths**2).sum()) // 2 * int(n_classes))
        widest = widths[:2].tolist()
        raise MemoryError(
            f"The pairwise (feature, feature, class) count tables need {cells} "
            f"cells ({cells * 8 / 2**30:.1f} GiB of float64, and as much again "
            f"while counting), more than the memory available: the two widest "
            f"columns have {widest[0]} and "
            f"{widest[-1]} categories. Drop identifier-like columns, merge rare "
            "categories, or use a learner without pairwise tables (NaiveBayes)."
        ) from None


def _pair_counts_flat(
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    cards: NDArray[np.integer],
    n_classes: int,
    *,
    sample_weight: NDArray[np.floating] | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """The tables of :func:`pairwise_class_counts` in one flat array.

    The table of the pair ``i < j`` starts at ``offsets[i * p + j]``, in C
    order; the arguments are those of :func:`pairwise_class_counts`.

    Raises
    ------
    MemoryError
        If the dense tables do not fit in memory (columns of thousands of
        categories), with their size and the fixes.
    """
    with _pair_tables_memory(cards, n_classes):
        codes = _narrow_codes(codes)
        y = np.ascontiguousarray(y)
        if y.dtype.kind not in "iu":
            y = y.astype(np.intp)
        cards = np.asarray(cards, dtype=np.int64)
        n_classes = int(n_classes)
        p = codes.shape[1]
        offsets = np.zeros(p * p, dtype=np.int64)
        total = 0
        for i in range(p):
            for j in range(i + 1, p):
                offsets[i * p + j] = total
                total += int(cards[i] * cards[j] * n_classes)
        if sample_weight is None:
            out = np.zeros(total, dtype=np.int64)
            # Integer counts are exact in any order: the complete rows are
            # counted through the group tables of the features joined by
            # _feature_groups and summed down to the pair tables. When no two
            # features join (wide features or many classes) the group tables
            # would be the pair tables, and every row is counted pair by pair.
            starts = _feature_groups(cards, n_classes) if p > 1 else None
            if starts is not None and len(starts) - 1 < p:
                incomplete = np.zeros(codes.shape[0], dtype=np.bool_)
                # A C-ordered table is read as it is (copying it costs more than
                # reading it across), a Fortran-ordered one transposed: C either
                # way, one compiled signature.
                by_rows = bool(codes.flags.c_contiguous)
                view = codes if by_rows else codes.T

                def grouped(a: int, b: int) -> NDArray[np.int64]:
                    part = np.zeros(total, dtype=np.int64)
                    _grouped_pair_counts_kernel(
                        view, by_rows, y, cards, n_classes, starts, offsets, part,
                        incomplete, a, b,
                    )
                    return part

                for part in map_spans(grouped, thread_spans(codes.shape[0])):
                    out += part
                # A row with a missing value counts in the tables of its
                # observed pairs only (available cases), pair by pair.
                codes, y = codes[incomplete], y[incomplete]
            rest_t = _feature_rows(codes)
            out = out.astype(np.float64)

            # Float64 counts (exact integers), the weighted kernel's signature.
            def by_pairs(a: int, b: int) -> NDArray[np.float64]:
                part = np.zeros(total)
                _pairwise_class_counts_kernel(
                    rest_t, y, _NO_WEIGHTS, cards, n_classes, offsets, part, a, b
                )
                return part

            for part in map_spans(by_pairs, thread_spans(rest_t.shape[1])):
                out += part
        else:
            codes_t = _feature_rows(codes)
            w = np.ascontiguousarray(sample_weight, dtype=np.float64)

            def weighted(a: int, b: int) -> NDArray[np.float64]:
                part = np.zeros(total, dtype=np.float64)
                _pairwise_class_counts_kernel(
                    codes_t, y, w, cards, n_classes, offsets, part, a, b
                )
                return part

            out = sum_in_order(weighted, fixed_blocks(codes_t.shape[1], total))
        return out, offsets


def compound_codes(
    codes: NDArray[np.integer], members: Sequence[int]
) -> tuple[NDArray[np.int64], int]:
    """Codes of the Cartesian product of several features, over observed values only.

    The members are combined two at a time and re-factorised after each step,
    so the full product of cardinalities is never allocated (nor overflows).

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features)
        Feature codes (``-1`` = missing).
    members : sequence of int
        Features of the compound variable.

    Returns
    -------
    codes : ndarray of shape (n_samples,), int64
        ``0..n_observed-1``, or ``-1`` where any member is missing. Codes follow
        the lexicographic order of the member values.
    n_observed : int
        Number of distinct observed combinations.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 1], [1, 0], [0, 1], [1, -1]])
    >>> compound_codes(X, [0, 1])
    (array([ 0,  1,  0, -1]), 2)
    """
    members = sorted(int(m) for m in members)
    out = np.asarray(codes[:, members[0]], dtype=np.int64)
    n_obs = int(out.max()) + 1 if out.size else 0
    if len(members) == 1:
        return out.copy(), max(n_obs, 0)
    for m in members[1:]:
        col = np.asarray(codes[:, m], dtype=np.int64)
        radix = int(col.max()) + 1 if col.size else 1
        key, valid = family_index([out, col], [max(n_obs, 1), radix])
        new = np.full(len(out), -1, dtype=np.int64)
        if valid.any():
            uniq, inv = np.unique(key[valid], return_inverse=True)
            new[valid] = inv.ravel()
            n_obs = len(uniq)
        else:
            n_obs = 0
        out = new
    return out, n_obs


def family_class_counts(
    child: NDArray[np.integer],
    conf: NDArray[np.integer] | None,
    y: NDArray[np.integer],
    n_configs: int,
    n_classes: int,
    n_values: int,
    *,
    sample_weight: NDArray[np.floating] | None = None,
) -> NDArray[np.float64]:
    """Counts ``N[config, class, value]`` of one family in a single pass.

    Parameters
    ----------
    child : ndarray of shape (n_samples,)
        Child value index (``-1`` = missing: the row is not counted).
    conf : ndarray of shape (n_samples,) or None
        Parent configuration index (``-1`` = missing); None when the child has
        no parent but the class.
    y : ndarray of shape (n_samples,)
        Class codes.
    n_configs, n_classes, n_values : int
        Table dimensions.
    sample_weight : ndarray of shape (n_samples,), default=None
        Row weights (weighted counts); None counts every row once.

    Returns
    -------
    ndarray of shape (n_configs, n_classes, n_values)
    """
    out = np.zeros(n_configs * n_classes * n_values)
    empty = np.empty(0, dtype=np.int64)
    weights = (
        _NO_WEIGHTS
        if sample_weight is None
        else np.ascontiguousarray(sample_weight, dtype=np.float64)
    )
    _family_class_counts_kernel(
        np.ascontiguousarray(_narrow_codes(child)),
        empty if conf is None else np.ascontiguousarray(conf, dtype=np.int64),
        np.ascontiguousarray(y),
        weights,
        n_classes,
        n_values,
        out,
    )
    return out.reshape(n_configs, n_classes, n_values)


def families_class_counts(
    table: NDArray[np.integer],
    families: Sequence[tuple[int, Sequence[int], Sequence[int], int]],
    y: NDArray[np.integer],
    n_classes: int,
    *,
    sample_weight: NDArray[np.floating] | None = None,
    return_flat: bool = False,
) -> list[NDArray[np.float64]] | tuple[NDArray[np.float64], list[int]]:
    """:func:`family_class_counts` of several families in one pass over the rows.

    The parent configuration is the mixed-radix key of :func:`family_index`
    over the parents' columns, computed row by row: no key array, no mask,
    one read of the table for all families. Rows where the child or a parent
    is ``-1`` are not counted in that family.

    Parameters
    ----------
    table : ndarray of shape (n_samples, n_columns)
        Codes (``-1`` = missing; int32 or narrower is read as is).
    families : sequence of (child, parents, radix, n_values)
        Column of the child, columns of its parents (the first varying
        slowest), the number of values of each parent and of the child.
    y : ndarray of shape (n_samples,)
        Class codes.
    n_classes : int
        Number of classes.
    sample_weight : ndarray of shape (n_samples,), default=None
        Row weights; None counts every row once.

    return_flat : bool, default=False
        Return the tables as one flat array and each table's offset in it
        instead (the tables laid end to end, each in C order).

    Returns
    -------
    list of ndarray of shape (prod(radix), n_classes, n_values)
        Views of one array.
    """
    children, ptr, parents, radix = [], [0], [], []
    n_values, offsets, shapes = [], [], []
    total = 0
    for child, pars, rad, nv in families:
        n_configs = 1
        for r in rad:
            n_configs *= int(r)
        children.append(int(child))
        parents.extend(int(q) for q in pars)
        radix.extend(int(r) for r in rad)
        ptr.append(len(parents))
        n_values.append(int(nv))
        offsets.append(total)
        shapes.append((n_configs, int(n_classes), int(nv)))
        total += n_configs * int(n_classes) * int(nv)
    layout = tuple(
        np.asarray(v, dtype=np.int64)
        for v in (children, ptr, parents, radix, n_values, offsets)
    )
    # Transposed without a copy: C-contiguous for a Fortran-ordered table
    # (the library's), one signature whatever its shape (see _feature_rows);
    # a C-ordered table is read as it is.
    table_t = _narrow_codes(table).T
    y = np.ascontiguousarray(y)
    n = table_t.shape[1] if families else 0
    if sample_weight is None:
        # Counts in 4 lanes per thread (a power of two, as the kernel
        # requires), float64 as the weighted sums: one compiled signature,
        # and integers are exact in it, so the order of the sums is free.
        def lanes(a: int, b: int) -> NDArray[np.float64]:
            part = np.zeros((4, total))
            _families_class_counts_kernel(
                table_t, layout, y, _NO_WEIGHTS, int(n_classes), part, a, b
            )
            return part

        flat = np.zeros(total)
        for part in map_spans(lanes, thread_spans(n)):
            flat += part.sum(axis=0, dtype=np.float64)
    else:
        # Weighted sums in row order within fixed blocks, as every other
        # weighted count.
        weights = np.ascontiguousarray(sample_weight, dtype=np.float64)

        def weighted(a: int, b: int) -> NDArray[np.float64]:
            part = np.zeros((1, total))
            _families_class_counts_kernel(
                table_t, layout, y, weights, int(n_classes), part, a, b
            )
            return part[0]

        flat = sum_in_order(weighted, fixed_blocks(n, total))
    if return_flat:
        return flat, offsets
    return [
        flat[o : o + a * b * c].reshape(a, b, c)
        for o, (a, b, c) in zip(offsets, shapes)
    ]
