"""Sufficient statistics: count tables and Gaussian moments that add up over rows.

Every count-based augnb learner is fitted from contingency tables of the class
with one, two or a few features (and, for Gaussian nodes, per-class moments;
for conditional and linear Gaussian nodes, per-(discrete configuration, class)
means and co-moment matrices of a few continuous features).
Those add up across any split of the rows, so one :class:`SufficientStatistics`
per chunk, partition or file, summed with ``+``, is exactly what one pass over
all the rows would have counted. That is what ``partial_fit``, out-of-core
fitting and Dask fitting are built on (docs/scaling.md).

Tables are indexed by *local* category codes: each chunk sees its own levels,
and ``+`` aligns both sides on the union of the levels (kept in the declared
order when both sides agree, sorted otherwise, as :class:`augnb.data.Schema`
sorts them), so a category first seen in a later chunk extends the tables.
"""

from __future__ import annotations

import itertools
import json
import struct
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from typing_extensions import override

from augnb.data.levels import sort_levels
from augnb.stats.counts import joint_counts, pairwise_class_counts
from augnb.stats.mixed_information import mixed_cmi_from_statistics
from augnb.stats.moments import (
    class_moments,
    group_comoments,
    merge_comoments,
    merge_moments,
    reduce_comoments,
)
from augnb.stats.training import CountTables, column_extent, merge_extents

# reduce_comoments lives in augnb.stats.moments; re-exported here (its former
# import path).
__all__ = ["SufficientStatistics", "merge_levels", "reduce_comoments"]

_MAGIC = b"AUGNBSS1"


def merge_levels(a: tuple, b: tuple) -> tuple:
    """Union of two level tuples in the order a Schema would give the whole data.

    Equal tuples (or one empty) keep their order; otherwise the union is
    ordered as :class:`augnb.data.Schema` orders a column's values
    (:func:`augnb.data.levels.sort_levels`).

    Parameters
    ----------
    a, b : tuple
        Levels of one column in two parts of the data.

    Returns
    -------
    tuple

    Examples
    --------
    >>> merge_levels(("b", "c"), ("a", "c"))
    ('a', 'b', 'c')
    """
    if a == b or not b:
        return a
    if not a:
        return b
    return sort_levels(set(a) | set(b))


def _positions(levels: tuple, union: tuple) -> NDArray[np.intp]:
    index = {v: k for k, v in enumerate(union)}
    return np.array([index[v] for v in levels], dtype=np.intp)


def _scatter(
    table: NDArray, maps: Sequence[NDArray[np.intp] | None], shape: tuple
) -> NDArray:
    """Table re-indexed along each axis (``None`` = axis unchanged)."""
    if all(m is None for m in maps):
        return table
    out = np.zeros(shape, dtype=table.dtype)
    index = tuple(
        np.arange(table.shape[ax]) if m is None else m for ax, m in enumerate(maps)
    )
    out[np.ix_(*index)] = table
    return out


@dataclass(eq=False)
class SufficientStatistics(CountTables):
    """Count tables and Gaussian moments of a set of rows; ``+`` merges two sets.

    Parameters
    ----------
    names : tuple
        Feature names, in column order.
    categories : tuple of (tuple or None)
        Levels of each discrete feature in table order; None for a
        continuous feature.
    classes : tuple
        Class labels in table order.
    class_counts : ndarray of shape (n_classes,), int64
        Rows per class (float64 sums of row weights when the rows were
        weighted, as are then the tables).
    tables : dict
        ``tables[s]`` for a sorted tuple ``s`` of discrete features is the
        available-case contingency table of those features and the class,
        shape ``(r_s1, ..., r_sk, n_classes)``, int64: a row counts in it iff
        every feature of ``s`` is observed.
    moments : dict
        ``moments[f]`` for a continuous feature ``f`` is an array of shape
        ``(3, n_classes)``: count of observed values, mean and sum of squared
        deviations (M2) per class.
    comoments : dict
        ``comoments[(D, U)]``, for a sorted tuple ``D`` of discrete features
        and a sorted tuple ``U`` of ``q`` continuous ones, has shape
        ``(r_D1, ..., r_Dk, n_classes, 1 + q + q * q)``: per configuration of
        ``D`` and class, the count of rows where every member of ``D`` and
        ``U`` is observed, the mean of ``U`` on them and the matrix of
        centred cross products (row-major), merged with Chan et al.'s
        formula. The statistics of conditional and linear Gaussian nodes and
        of the Gaussian edge weights of ETAN/CAN.
    extents : dict
        ``extents[f]`` for a continuous feature ``f`` is ``[min, max, n]``:
        its smallest and largest observed value and the number of rows
        observing it (:meth:`value_extents`), so a density's fit refuses
        values whose squares overflow through every door alike.

    Examples
    --------
    >>> import numpy as np
    >>> codes = np.array([[0, 1], [1, 1], [1, 0]])
    >>> a = SufficientStatistics.from_codes(
    ...     codes[:2], np.array([0, 1]), names=("u", "v"),
    ...     categories=(("x", "y"), (0, 1)), classes=("no", "yes"), max_order=2)
    >>> b = SufficientStatistics.from_codes(
    ...     codes[2:], np.array([1]), names=("u", "v"),
    ...     categories=(("x", "y"), (0, 1)), classes=("no", "yes"), max_order=2)
    >>> (a + b).table((0,)).tolist()
    [[1, 0], [0, 2]]
    >>> (a + b).n_samples
    3
    """

    names: tuple
    categories: tuple
    classes: tuple
    class_counts: NDArray[np.int64]
    tables: dict[tuple[int, ...], NDArray[np.int64]] = field(default_factory=dict)
    moments: dict[int, NDArray[np.float64]] = field(default_factory=dict)
    comoments: dict[tuple, NDArray[np.float64]] = field(default_factory=dict)
    extents: dict[int, NDArray[np.float64]] = field(default_factory=dict)

    # -- construction -------------------------------------------------------

    @classmethod
    def from_codes(
        cls,
        codes: NDArray[np.integer],
        y: NDArray[np.integer],
        *,
        names: Sequence,
        categories: Sequence[tuple | None],
        classes: Sequence,
        values: NDArray[np.float64] | None = None,
        max_order: int = 1,
        subsets: Iterable[Sequence[int]] = (),
        singles: bool = True,
        comoments: Iterable[tuple] = (),
        sample_weight: NDArray[np.floating] | None = None,
    ) -> SufficientStatistics:
        """Count the statistics of one block of encoded rows.

        Parameters
        ----------
        codes : ndarray of shape (n_samples, n_features)
            Codes of the discrete features (``-1`` = missing) in the order of
            ``categories``.
        y : ndarray of shape (n_samples,)
            Class codes into ``classes``.
        names : sequence
            Feature names.
        categories : sequence of (tuple or None)
            Levels of each discrete feature; None marks a continuous one.
        classes : sequence
            Class labels.
        values : ndarray of shape (n_samples, n_features), default=None
            Values of the continuous features (NaN = missing).
        max_order : int, default=1
            Count every subset of up to this many discrete features with the
            class: 1 = feature x class tables, 2 = also all pairs (one Numba
            pass), 3 or more = also every larger subset (costly: see
            docs/scaling.md).
        subsets : iterable of sequence of int, default=()
            Further feature subsets to count (e.g. the families of a learned
            structure).
        singles : bool, default=True
            Count the feature x class tables and Gaussian moments (False for a
            second pass that only adds family tables).
        comoments : iterable of (tuple, tuple), default=()
            ``(D, U)`` pairs of discrete and continuous feature tuples whose
            per-configuration co-moments to count (see ``comoments``).
        sample_weight : ndarray of shape (n_samples,), default=None
            Row weights: the tables, class counts and moments are weighted
            sums (float64; an integer weight equals repeating the row). None
            counts every row once (int64 tables).

        Returns
        -------
        SufficientStatistics
        """
        categories = tuple(None if c is None else tuple(c) for c in categories)
        classes = tuple(classes)
        n_classes = len(classes)
        y = np.asarray(y, dtype=np.intp)
        codes = np.asarray(codes)
        cards = np.array([0 if c is None else len(c) for c in categories], np.int64)
        discrete = [f for f, c in enumerate(categories) if c is not None]
        weights = None
        # Weighted sums are float64; counts of rows stay exact int64.
        dtype: type = np.int64
        if sample_weight is not None:
            weights = np.ascontiguousarray(sample_weight, dtype=np.float64)
            dtype = np.float64
        counts = np.bincount(y, weights=weights, minlength=n_classes).astype(dtype)
        tables: dict[tuple[int, ...], NDArray[np.int64]] = {}
        wanted: set[tuple[int, ...]] = {
            tuple(sorted(int(f) for f in s)) for s in subsets
        }
        if singles:
            wanted.update((f,) for f in discrete)
        if max_order >= 2 and len(discrete) >= 2:
            sub = codes[:, discrete]
            pairs = pairwise_class_counts(
                sub, y, cards[discrete], n_classes, sample_weight=weights
            )
            for (i, j), t in pairs.items():
                tables[discrete[i], discrete[j]] = t.astype(dtype)
        for order in range(3, max_order + 1):
            wanted.update(itertools.combinations(discrete, order))
        for s in sorted(wanted):
            if s in tables:
                continue
            if any(categories[f] is None for f in s):
                raise ValueError(f"Feature subset {s} contains a continuous feature.")
            t = joint_counts(
                [codes[:, f] for f in s] + [y],
                [int(cards[f]) for f in s] + [n_classes],
                weights,
            )
            tables[s] = t.astype(dtype)
        moments: dict[int, NDArray[np.float64]] = {}
        extents: dict[int, NDArray[np.float64]] = {}
        if singles and values is not None:
            for f, c in enumerate(categories):
                if c is None:
                    # Values whose squares overflow are refused by the fit,
                    # which names the column (from the extents): the sums'
                    # own overflow warnings would only come before it.
                    with np.errstate(over="ignore", invalid="ignore"):
                        m = class_moments(values[:, f], y, n_classes, weights)
                    moments[f] = m
                    extents[f] = column_extent(values[:, f])
        co: dict[tuple, NDArray[np.float64]] = {}
        for key in comoments:
            key = _co_key(key)
            d, u = key
            if any(categories[f] is None for f in d) or any(
                categories[f] is not None for f in u
            ):
                raise ValueError(
                    f"Co-moment family {key}: D must be discrete, U continuous."
                )
            if values is None:
                raise ValueError("Co-moments need the continuous values.")
            if weights is not None:
                # As fit: weights reach Gaussian nodes with the class as only
                # parent (the learners with feature-parent Gaussians repeat
                # rows by integer weights instead).
                raise ValueError("Co-moments of weighted rows are not supported.")
            with np.errstate(over="ignore", invalid="ignore"):
                co[key] = group_comoments(
                    codes, values, y, d, u, [int(cards[f]) for f in d], n_classes
                )
        return cls(
            tuple(names), categories, classes, counts, tables, moments, co, extents
        )

    # -- properties ---------------------------------------------------------

    @property
    def n_samples(self) -> int:
        """Number of rows summarised (of weighted rows: their total weight, floored)."""
        return int(self.class_counts.sum())

    @property
    def weighted(self) -> bool:
        """Whether the counts are weighted sums (float64) rather than row counts."""
        return self.class_counts.dtype.kind == "f" or any(
            t.dtype.kind == "f" for t in self.tables.values()
        )

    @property
    def n_features(self) -> int:
        """Number of features."""
        return len(self.categories)

    @property
    def n_classes(self) -> int:
        """Number of classes."""
        return len(self.classes)

    @property
    def cards(self) -> NDArray[np.int64]:
        """Number of levels per feature (0 for continuous features)."""
        return np.array([0 if c is None else len(c) for c in self.categories], np.int64)

    @property
    def nbytes(self) -> int:
        """Bytes held by the tables and moments."""
        return int(
            self.class_counts.nbytes
            + sum(t.nbytes for t in self.tables.values())
            + sum(m.nbytes for m in self.moments.values())
            + sum(m.nbytes for m in self.comoments.values())
        )

    @override
    def has(self, features: Sequence[int]) -> bool:
        return tuple(sorted(int(f) for f in features)) in self.tables

    @override
    def table(self, features: Sequence[int]) -> NDArray[np.int64]:
        # Read from the table of the sorted subset, axes transposed.
        features = [int(f) for f in features]
        key = tuple(sorted(features))
        if len(set(key)) != len(key):
            raise ValueError(f"Feature subset {features} repeats a feature.")
        if key not in self.tables:
            raise KeyError(
                f"No count table of features {key}; these statistics hold "
                f"{len(self.tables)} tables of up to "
                f"{max((len(k) for k in self.tables), default=0)} features."
            )
        axes = [key.index(f) for f in features] + [len(key)]
        return self.tables[key].transpose(axes)

    # -- the count-table interface of structure learners ----------------------

    @override
    def value_extents(self) -> dict[int, NDArray[np.float64]]:
        # Statistics loaded from a model file saved before they kept the
        # extents have no such attribute: every range is unknown.
        return dict(getattr(self, "extents", {}))

    @override
    def pair_tables(
        self, features: Sequence[int]
    ) -> dict[tuple[int, int], NDArray[np.float64]]:
        # Read from the pair tables held.
        features = [int(f) for f in features]
        k = len(features)
        return {
            (a, b): self.table((features[a], features[b])).astype(np.float64)
            for a in range(k)
            for b in range(a + 1, k)
        }

    @override
    def mixed_cmi(
        self,
        *,
        method: str = "gaussian",
        base: float | None = 2.0,
        var_smoothing: float = 1e-9,
    ) -> NDArray[np.float64]:
        # The Gaussian plug-in estimate, from the pair tables, the moments and
        # the co-moments (mixed_weight_families); the other estimator bins the
        # continuous columns at quantiles of all rows, which no sum over chunks gives.
        if method != "gaussian" and (self.cards == 0).any():
            raise TypeError(
                f"cmi={method!r} bins the continuous columns at quantiles of all "
                "rows; only cmi='gaussian' is computed from sufficient "
                "statistics. Use cmi='gaussian' or fit in memory."
            )
        return mixed_cmi_from_statistics(
            self, base=base, var_smoothing=var_smoothing
        )

    # -- merging ------------------------------------------------------------

    def _compatible(self, other: SufficientStatistics) -> None:
        if not isinstance(other, SufficientStatistics):
            raise TypeError(f"Cannot add SufficientStatistics and {type(other)}.")
        if self.names != other.names:
            raise ValueError(
                "Statistics of different columns cannot be added: "
                f"{list(self.names)[:10]} vs {list(other.names)[:10]}."
            )
        for f, (a, b) in enumerate(zip(self.categories, other.categories)):
            if (a is None) != (b is None):
                raise ValueError(
                    f"Feature {self.names[f]!r} is continuous in one set of "
                    "statistics and discrete in the other; give every chunk the "
                    "same column types."
                )

    def align(
        self, categories: Sequence[tuple | None], classes: Sequence
    ) -> SufficientStatistics:
        """The same statistics indexed by wider level sets.

        Parameters
        ----------
        categories : sequence of (tuple or None)
            Levels of each feature, each a superset of the current ones.
        classes : sequence
            Class labels, a superset of the current ones.

        Returns
        -------
        SufficientStatistics
        """
        categories = tuple(None if c is None else tuple(c) for c in categories)
        classes = tuple(classes)
        if categories == self.categories and classes == self.classes:
            return self
        fmap = [
            None if new is None or new == old else _positions(old, new)
            for old, new in zip(self.categories, categories)
        ]
        cmap = None if classes == self.classes else _positions(self.classes, classes)
        n_classes = len(classes)
        tables = {}
        for key, t in self.tables.items():
            shape = (*tuple(len(categories[f]) for f in key), n_classes)
            tables[key] = _scatter(t, [fmap[f] for f in key] + [cmap], shape)
        counts = _scatter(self.class_counts, [cmap], (n_classes,))
        moments = {}
        for f, m in self.moments.items():
            if cmap is None:
                moments[f] = m
            else:
                out = np.zeros((3, n_classes))
                out[:, cmap] = m
                moments[f] = out
        co = {}
        for (d, u), m in self.comoments.items():
            shape = (*tuple(len(categories[f]) for f in d), n_classes, m.shape[-1])
            co[d, u] = _scatter(m, [fmap[f] for f in d] + [cmap, None], shape)
        extents = self.value_extents()
        return SufficientStatistics(
            self.names, categories, classes, counts, tables, moments, co, extents
        )

    def _aligned_pair(
        self, other: SufficientStatistics
    ) -> tuple[SufficientStatistics, SufficientStatistics]:
        self._compatible(other)
        cats = tuple(
            None if a is None else merge_levels(a, b)
            for a, b in zip(self.categories, other.categories)
        )
        classes = merge_levels(self.classes, other.classes)
        return self.align(cats, classes), other.align(cats, classes)

    def __add__(self, other: SufficientStatistics) -> SufficientStatistics:
        a, b = self._aligned_pair(other)
        if (
            set(a.tables) != set(b.tables)
            or set(a.moments) != set(b.moments)
            or set(a.comoments) != set(b.comoments)
        ):
            raise ValueError(
                "Statistics holding different tables cannot be added; count every "
                "chunk with the same request (max_order, subsets)."
            )
        tables = {k: a.tables[k] + b.tables[k] for k in a.tables}
        # Overflowing values are refused by the fit, naming the column
        # (from_codes); their merged sums warn nothing before that.
        with np.errstate(over="ignore", invalid="ignore"):
            moments = {
                f: merge_moments(a.moments[f], b.moments[f]) for f in a.moments
            }
            co = {
                k: merge_comoments(a.comoments[k], b.comoments[k])
                for k in a.comoments
            }
        return SufficientStatistics(
            a.names,
            a.categories,
            a.classes,
            a.class_counts + b.class_counts,
            tables,
            moments,
            co,
            merge_extents(a.value_extents(), b.value_extents()),
        )

    def __radd__(self, other: object) -> SufficientStatistics:
        # sum([...]) starts from 0.
        if other == 0:
            return self
        return NotImplemented

    def with_tables_of(self, other: SufficientStatistics) -> SufficientStatistics:
        """These statistics plus the tables and co-moments of ``other`` they lack.

        For a second pass over the same rows that counts only the families of
        a learned structure.

        Parameters
        ----------
        other : SufficientStatistics
            Statistics of the same rows.

        Returns
        -------
        SufficientStatistics
        """
        a, b = self._aligned_pair(other)
        tables = dict(a.tables)
        for k, t in b.tables.items():
            tables.setdefault(k, t)
        co = dict(a.comoments)
        for k, m in b.comoments.items():
            co.setdefault(k, m)
        return SufficientStatistics(
            a.names,
            a.categories,
            a.classes,
            a.class_counts,
            tables,
            a.moments,
            co,
            a.value_extents(),
        )

    # -- serialisation ------------------------------------------------------

    def to_bytes(self) -> bytes:
        """Compact binary form: a JSON header and the raw tables, zlib-compressed.

        Levels and class labels must be str, int, float or bool (what a
        Parquet/CSV column or a NumPy array holds).

        Returns
        -------
        bytes
        """
        header = {
            "names": [_jsonable(v) for v in self.names],
            "categories": [
                None if c is None else [_jsonable(v) for v in c]
                for c in self.categories
            ],
            "classes": [_jsonable(v) for v in self.classes],
            "tables": [list(k) for k in self.tables],
            "moments": list(self.moments),
            "comoments": [[list(d), list(u)] for d, u in self.comoments],
            "extents": [int(f) for f in self.value_extents()],
        }
        counts = "<i8"
        if self.weighted:
            # Weighted sums: float counts (the header says so; counts of rows
            # keep the int64 form they always had).
            header["weighted"] = True
            counts = "<f8"
        head = json.dumps(header).encode()
        body = b"".join(
            [np.ascontiguousarray(self.class_counts, counts).tobytes()]
            + [np.ascontiguousarray(t, counts).tobytes() for t in self.tables.values()]
            + [np.ascontiguousarray(m, "<f8").tobytes() for m in self.moments.values()]
            + [
                np.ascontiguousarray(m, "<f8").tobytes()
                for m in self.comoments.values()
            ]
            + [
                np.ascontiguousarray(m, "<f8").tobytes()
                for m in self.value_extents().values()
            ]
        )
        return _MAGIC + struct.pack("<Q", len(head)) + zlib.compress(head + body, 1)

    @classmethod
    def from_bytes(cls, data: bytes) -> SufficientStatistics:
        """Inverse of :meth:`to_bytes`.

        Parameters
        ----------
        data : bytes

        Returns
        -------
        SufficientStatistics
        """
        if data[:8] != _MAGIC:
            raise ValueError("Not augnb sufficient statistics (bad header).")
        (n_head,) = struct.unpack("<Q", data[8:16])
        raw = zlib.decompress(data[16:])
        header = json.loads(raw[:n_head])
        buf = memoryview(raw)[n_head:]
        categories = tuple(
            None if c is None else tuple(c) for c in header["categories"]
        )
        classes = tuple(header["classes"])
        n_classes = len(classes)
        pos = 0

        def take(shape: tuple, dtype: str) -> NDArray:
            nonlocal pos
            size = int(np.prod(shape, dtype=np.int64)) * 8
            arr = np.frombuffer(buf[pos : pos + size], dtype=dtype).reshape(shape)
            pos += size
            return arr.astype(dtype[1:], copy=True)

        kind = "<f8" if header.get("weighted") else "<i8"
        counts = take((n_classes,), kind)
        tables = {}
        for key in header["tables"]:
            key = tuple(key)
            shape = (*tuple(len(categories[f]) for f in key), n_classes)
            tables[key] = take(shape, kind)
        moments = {int(f): take((3, n_classes), "<f8") for f in header["moments"]}
        co = {}
        for d, u in header.get("comoments", []):
            key = (tuple(int(f) for f in d), tuple(int(f) for f in u))
            q = len(key[1])
            shape = (*tuple(len(categories[f]) for f in key[0]), n_classes)
            co[key] = take((*shape, 1 + q + q * q), "<f8")
        # Absent from statistics written before the extents were kept.
        extents = {int(f): take((3,), "<f8") for f in header.get("extents", [])}
        names = tuple(header["names"])
        return cls(names, categories, classes, counts, tables, moments, co, extents)

    def __reduce__(self):
        # Pickled (e.g. sent between Dask workers) in the compact form when the
        # levels allow it.
        try:
            return (_from_bytes, (self.to_bytes(),))
        except TypeError:
            return (
                SufficientStatistics,
                (
                    self.names,
                    self.categories,
                    self.classes,
                    self.class_counts,
                    self.tables,
                    self.moments,
                    self.comoments,
                    self.value_extents(),
                ),
            )


def _from_bytes(data: bytes) -> SufficientStatistics:
    return SufficientStatistics.from_bytes(data)


def _jsonable(v: object) -> object:
    if isinstance(v, np.generic):
        v = v.item()
    if v is None or isinstance(v, (str, bool, int, float)):
        return v
    raise TypeError(
        f"Level {v!r} of type {type(v).__name__} cannot be serialised; use str, "
        "int, float or bool categories and class labels."
    )


def _co_key(key: tuple) -> tuple[tuple[int, ...], tuple[int, ...]]:
    d, u = key
    return tuple(sorted(int(f) for f in d)), tuple(sorted(int(f) for f in u))
