"""Numba passes over a whole integer table (schema inference and encoding).

A table given as one 2-d integer array (a NumPy input, or a DataFrame backed
by one integer block) is read once for all its columns, in its own memory
order, instead of once per column through pandas: at a million rows the
per-column conversions (contiguous copies, int64 temporaries, masks) cost
more than the model's counting. Compiled on first use (``cache=True``). Each
kernel reads the rows ``start:stop``, so large tables are read by several
threads (:mod:`augnb._threads`): the levels and counts are merged exactly,
the codes are written row by row.
"""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd
from numpy.typing import NDArray

from augnb._threads import map_spans, read_only, thread_spans

__all__ = [
    "column_value_counts",
    "encode_dictionary_codes",
    "encode_integer_table",
    "integer_block",
    "short_text_codes",
    "small_integer_levels",
]

#: Columns whose values all lie in ``0..SMALL_LEVELS-1`` take the one-pass path.
SMALL_LEVELS = 256
#: Widest per-column lookup table the encoding pass builds.
MAX_TABLE_WIDTH = 1 << 16
#: Largest table of counts that ``column_value_counts`` spreads over lanes.
_LANE_CELLS = 1 << 16
#: Longest text (in UTF-8 bytes) ``short_text_codes`` packs into one key.
SHORT_TEXT_BYTES = 7


def integer_block(X: pd.DataFrame) -> NDArray[np.integer] | None:
    """The frame's values as one 2-d integer array without a copy, or None.

    Only a frame held by pandas as a single NumPy integer block qualifies
    (what ``as_frame`` makes of an integer array); ``uint64`` is left to the
    per-column path, whose arithmetic it could overflow.
    """
    if X.shape[1] == 0 or X.shape[0] == 0:
        return None
    # The block count first: it rules out most frames at no cost (comparing
    # categorical dtypes hashes their categories).
    mgr = getattr(X, "_mgr", None)
    blocks = getattr(mgr, "blocks", None)
    if blocks is None or len(blocks) != 1:
        return None
    # One block: its dtype is every column's (X.dtypes builds a Series).
    dtype = blocks[0].dtype
    if not isinstance(dtype, np.dtype) or dtype.kind not in "iu" or dtype == np.uint64:
        return None
    arr = X.to_numpy()
    if arr.dtype != dtype:
        return None
    if arr.ndim != 2 or not (arr.flags.c_contiguous or arr.flags.f_contiguous):
        return None
    return arr


def _kernel_view(arr: NDArray[np.integer]) -> tuple[NDArray[np.integer], bool]:
    """A C-ordered, read-only view of a C or F table for the kernels, and its way.

    ``(arr, True)`` for a C-ordered table (read row by row), ``(arr.T,
    False)`` for a Fortran-ordered one (read feature by feature): Numba
    compiles a kernel once per array type, layout and writeability
    included, so the kernels see one type per integer dtype.
    """
    by_rows = bool(arr.flags.c_contiguous)
    return read_only(arr if by_rows else arr.T), by_rows


@numba.njit(cache=True, nogil=True)
def _levels_kernel(arr, by_rows, width, present, lo, hi, start, stop):
    # ``arr`` is the table (``by_rows``) or its transpose (see _kernel_view).
    if by_rows:
        p = arr.shape[1]
        for r in range(start, stop):
            for j in range(p):
                v = arr[r, j]
                if v < lo[j]:
                    lo[j] = v
                if v > hi[j]:
                    hi[j] = v
                if v >= 0 and v < width:
                    present[j, v] = True
    else:
        p = arr.shape[0]
        for j in range(p):
            a = lo[j]
            b = hi[j]
            for r in range(start, stop):
                v = arr[j, r]
                if v < a:
                    a = v
                if v > b:
                    b = v
                if v >= 0 and v < width:
                    present[j, v] = True
            lo[j] = a
            hi[j] = b


def small_integer_levels(arr: NDArray[np.integer]) -> list[tuple | None]:
    """Sorted distinct values of each column whose values are in ``0..255``.

    One pass over the table. A column with a negative value or one above
    ``SMALL_LEVELS - 1`` gets None (the caller reads it the general way).

    Parameters
    ----------
    arr : ndarray of shape (n_samples, n_features), integer, C or F order

    Returns
    -------
    list of tuple of int or None
    """
    n, p = arr.shape
    info = np.iinfo(np.int64)
    view, by_rows = _kernel_view(arr)

    def levels(a: int, b: int) -> tuple:
        present = np.zeros((p, SMALL_LEVELS), dtype=np.bool_)
        lo = np.full(p, info.max, dtype=np.int64)
        hi = np.full(p, info.min, dtype=np.int64)
        _levels_kernel(view, by_rows, SMALL_LEVELS, present, lo, hi, a, b)
        return present, lo, hi

    parts = map_spans(levels, thread_spans(n))
    present, lo, hi = parts[0]
    for more, lo2, hi2 in parts[1:]:
        present |= more
        np.minimum(lo, lo2, out=lo)
        np.maximum(hi, hi2, out=hi)
    out: list[tuple | None] = []
    for j in range(p):
        if n and 0 <= lo[j] and hi[j] < SMALL_LEVELS:
            out.append(tuple(np.flatnonzero(present[j]).tolist()))
        else:
            out.append(None)
    return out


@numba.njit(cache=True, nogil=True)
def _encode_kernel(arr, by_rows, columns, lo, width, table, out_t, start, stop):
    # ``arr`` is the table (``by_rows``) or its transpose (see _kernel_view);
    # ``out_t`` is the transposed output (Fortran-ordered, so C here).
    k = columns.shape[0]
    if by_rows:
        for r in range(start, stop):
            for t in range(k):
                j = columns[t]
                d = arr[r, j] - lo[t]
                out_t[j, r] = table[t, d] if d >= 0 and d < width[t] else -1
    else:
        for t in range(k):
            j = columns[t]
            a = lo[t]
            w = width[t]
            for r in range(start, stop):
                d = arr[j, r] - a
                out_t[j, r] = table[t, d] if d >= 0 and d < w else -1


def encode_integer_table(
    arr: NDArray[np.integer],
    categories: list[tuple | None],
    out: NDArray[np.int32],
) -> list[int]:
    """Write the codes of the integer-category columns of ``arr`` into ``out``.

    A value's code is its position in the column's sorted integer categories,
    ``-1`` when it is not one of them: the mapping of the per-column path.

    Parameters
    ----------
    arr : ndarray of shape (n_samples, n_features), integer
        The table.
    categories : list of tuple or None
        Each column's sorted categories; None (or non-integer categories)
        leaves the column to the caller.
    out : ndarray of shape (n_samples, n_features), int32
        Receives the codes of the columns encoded here.

    Returns
    -------
    list of int
        The columns encoded here.
    """
    cols, los, widths, cats_list = [], [], [], []
    for j, cats in enumerate(categories):
        if not cats or not all(
            isinstance(c, (int, np.integer)) and not isinstance(c, bool) for c in cats
        ):
            continue
        c = np.asarray(cats, dtype=np.int64)
        w = int(c[-1] - c[0]) + 1
        if w > MAX_TABLE_WIDTH:
            continue
        cols.append(j)
        los.append(int(c[0]))
        widths.append(w)
        cats_list.append(c)
    if not cols:
        return []
    table = np.full((len(cols), max(widths)), -1, dtype=np.int32)
    for t, c in enumerate(cats_list):
        table[t, c - c[0]] = np.arange(c.size, dtype=np.int32)
    view, by_rows = _kernel_view(arr)
    columns = np.asarray(cols, dtype=np.int64)
    lo = np.asarray(los, dtype=np.int64)
    width = np.asarray(widths, dtype=np.int64)
    out_t = out.T

    def encode(a: int, b: int) -> None:
        _encode_kernel(view, by_rows, columns, lo, width, table, out_t, a, b)

    map_spans(encode, thread_spans(arr.shape[0]))
    return cols


@numba.njit(cache=True, nogil=True)
def _count_column(column, out, j):
    lane_mask = out.shape[0] - 1
    for r in range(column.shape[0]):
        v = column[r]
        if v >= 0:
            out[r & lane_mask, j, v] += 1


@numba.njit(cache=True, nogil=True)
def _value_counts_kernel(codes_t, out, start, stop):
    # Rows spread over ``out.shape[0]`` lanes (a power of two) by their low
    # bits: consecutive rows of a column mostly hit the same cell, and a
    # chain of increments of one cell is what bounded the loop. The rows
    # are sliced from 0 so the compiler sees non-negative indices.
    # ``codes_t`` is the transposed table (one column per row).
    rows_t = codes_t[:, start:stop]
    for j in range(rows_t.shape[0]):
        _count_column(rows_t[j], out, j)


def column_value_counts(codes: NDArray[np.int32], width: int) -> NDArray[np.int64]:
    """Count of each code ``0..width-1`` in each column (``-1`` not counted).

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features), int32, Fortran order
    width : int
        At least the largest code plus one.

    Returns
    -------
    ndarray of shape (n_features, width), int64
    """
    shape = (codes.shape[1], max(int(width), 1))

    # Four lanes for a small table (a large one's rows rarely repeat a cell).
    n_lanes = 4 if shape[0] * shape[1] <= _LANE_CELLS else 1
    # Transposed and read-only: one array type whatever the table's shape
    # and writeability (see _kernel_view).
    codes_t = read_only(codes.T)

    def counts(a: int, b: int) -> NDArray[np.int64]:
        lanes = np.zeros((n_lanes, *shape), dtype=np.int64)
        _value_counts_kernel(codes_t, lanes, a, b)
        return lanes.sum(axis=0) if n_lanes > 1 else lanes[0]

    parts = map_spans(counts, thread_spans(codes.shape[0]))
    out = parts[0]
    for part in parts[1:]:
        out += part
    return out


@numba.njit(cache=True, nogil=True)
def _lookup_column(codes, lookup, out):
    # Indices the compiler knows are non-negative (a loop from 0, an
    # unsigned lookup slot): no wraparound test per cell, ~3x faster.
    for r in range(codes.shape[0]):
        out[r] = lookup[np.uint32(codes[r] + 1)]


@numba.njit(cache=True, nogil=True)
def _lookup_kernel(codes, columns, lookup, out_t, start, stop):
    # ``out_t`` is the transposed output (Fortran-ordered, so C here).
    for t in range(codes.shape[0]):
        _lookup_column(codes[t, start:stop], lookup[t], out_t[columns[t], start:stop])


def encode_dictionary_codes(
    codes: NDArray[np.int32],
    columns: NDArray[np.int64],
    lookup: NDArray[np.int32],
    out: NDArray[np.int32],
) -> None:
    """Write ``lookup[t, codes[t] + 1]`` into column ``columns[t]`` of ``out``.

    The codes of several columns against one shared dictionary (``-1`` =
    missing) become each column's own codes in one pass.

    Parameters
    ----------
    codes : ndarray of shape (n_columns, n_samples), int32
        Position of each cell in the shared dictionary, ``-1`` when missing.
    columns : ndarray of shape (n_columns,), int64
        The column of ``out`` each row of ``codes`` is written to.
    lookup : ndarray of shape (n_columns, n_values + 1), int32
        Per column, the code of a missing cell, then of each dictionary value.
    out : ndarray of shape (n_samples, n_features), int32
        Receives the codes.
    """
    # Read-only whether or not the codes are, and the output transposed: the
    # library's Fortran-ordered codes become C-ordered, and so does a single
    # column, which is C- and F-contiguous alike and typed C as it is (one
    # compiled signature).
    codes = read_only(codes)
    out_t = out.T

    def encode(a: int, b: int) -> None:
        _lookup_kernel(codes, columns, lookup, out_t, a, b)

    map_spans(encode, thread_spans(codes.shape[1]))


@numba.njit(cache=True, nogil=True)
def _key_slot(key, mask):
    # Fibonacci hashing: the high bits of the product spread the keys.
    return np.int64(((key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)) & mask)


@numba.njit(cache=True, nogil=True)
def _short_text_kernel(offsets, data, valid, codes, firsts):
    # Each text of at most 7 bytes is one 64-bit key (its bytes, and its
    # length plus one in the top byte, so no key is 0, the empty slot): one
    # hash table of keys, no byte comparisons.
    cap = 1024
    slot_key = np.zeros(cap, np.uint64)
    slot_id = np.empty(cap, np.int32)
    n_ids = 0
    has_valid = valid.shape[0] > 0
    for i in range(offsets.shape[0] - 1):
        if has_valid and not valid[i]:
            codes[i] = -1
            continue
        a = offsets[i]
        length = offsets[i + 1] - a
        if length > 7:
            return -2  # longer than a key holds
        key = np.uint64(length + 1) << np.uint64(56)
        for k in range(length):
            key |= np.uint64(data[a + k]) << np.uint64(8 * k)
        mask = np.uint64(cap - 1)
        s = _key_slot(key, mask)
        while slot_key[s] != key and slot_key[s] != 0:
            s = (s + 1) & (cap - 1)
        if slot_key[s] == key:
            codes[i] = slot_id[s]
            continue
        if n_ids == firsts.shape[0]:
            return -1  # more distinct values than the caller takes
        slot_key[s] = key
        slot_id[s] = n_ids
        firsts[n_ids] = i
        codes[i] = n_ids
        n_ids += 1
        if 2 * n_ids >= cap:  # at most half full: double and re-insert
            cap *= 2
            mask = np.uint64(cap - 1)
            keys = np.zeros(cap, np.uint64)
            ids = np.empty(cap, np.int32)
            for t in range(slot_key.shape[0]):
                if slot_key[t] != 0:
                    u = _key_slot(slot_key[t], mask)
                    while keys[u] != 0:
                        u = (u + 1) & (cap - 1)
                    keys[u] = slot_key[t]
                    ids[u] = slot_id[t]
            slot_key = keys
            slot_id = ids
    return n_ids


def short_text_codes(
    offsets: NDArray[np.integer],
    data: NDArray[np.uint8],
    valid: NDArray[np.bool_] | None,
    max_values: int,
) -> tuple[NDArray[np.int32], NDArray[np.int64] | None] | None:
    """Dictionary codes of Arrow text cells of at most 7 bytes each.

    Each distinct text gets a code in the order of first appearance, ``-1``
    for a missing cell: what Arrow's ``dictionary_encode`` gives, in about a
    third of its time on short texts (their bytes are the hash key).

    Parameters
    ----------
    offsets : ndarray of shape (n_cells + 1,), int32 or int64
        The Arrow offsets of the cells (from the array's own offset).
    data : ndarray of uint8
        The Arrow data buffer.
    valid : ndarray of shape (n_cells,), bool, or None
        Which cells are present (None: all).
    max_values : int
        Most distinct values taken.

    Returns
    -------
    (codes, firsts) or None
        None when a text is longer than :data:`SHORT_TEXT_BYTES` bytes.
        ``codes`` (int32, one per cell) is each cell's position among the
        distinct values, ``-1`` if missing; ``firsts`` (int64) the first cell
        of each distinct value, or None when there are more than
        ``max_values`` of them (``codes`` is then incomplete).
    """
    codes = np.empty(offsets.shape[0] - 1, dtype=np.int32)
    firsts = np.empty(max_values, dtype=np.int64)
    present = np.empty(0, dtype=np.bool_) if valid is None else valid
    # The inputs read-only whether or not they are (one compiled signature).
    n_values = _short_text_kernel(
        read_only(offsets), read_only(data), read_only(present), codes, firsts
    )
    if n_values == -2:
        return None
    return codes, (firsts[:n_values] if n_values >= 0 else None)
