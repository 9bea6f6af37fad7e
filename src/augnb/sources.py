"""Sources of training rows: in memory, chunk by chunk, files, Dask.

Every fit is the same three steps (``BaseAugmentedNB._fit_source``):

1. a **plan** fixed from the first rows the source shows (all of them in
   memory, the first chunk otherwise, or a sample of every row when the
   first chunk has columns to discretise and the source can be read again):
   column kinds, the discretiser's cut points, the classes;
2. the **count tables** of all rows under that plan: encoded rows in memory
   (:class:`~augnb.stats.training.TrainingData`, which counts on demand), or
   :class:`~augnb.stats.sufficient.SufficientStatistics` summed over chunks,
   files or Dask partitions;
3. the structure learned from the tables, then the parameters. A structure
   with larger families than the first pass counted (kDB with ``k >= 2``)
   gets a second pass over a source that can be read again.

Since the sums do not depend on how the rows were split, any chunking gives
exactly the fit of the rows together under one plan (see the "Scaling out"
page of the documentation).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from scipy.sparse import issparse
from sklearn.utils import check_random_state

from augnb._docstrings import shared_entries
from augnb._warnings import between_sections, warn_at_caller, warnings_section
from augnb.data.audit import warn_data_problems
from augnb.data.encoding import (
    MissingLabelsError,
    as_frame,
    as_numbers,
    column_indices,
    encode_target,
    float_arrays,
    frame_from_columns,
    refuse_reordered_columns,
    replace_columns,
    typed_objects,
)
from augnb.data.schema import (
    ColumnSpec,
    EmptyFirstChunkError,
    Schema,
    _sorted_categories,
    refusal_message,
    type_changed,
)
from augnb.data.tables import concat_batches
from augnb.data.weights import InputRows, discretizer_rows, training_rows
from augnb.discretize._base import bin_arrays, bin_levels
from augnb.params.from_statistics import comoment_families, families
from augnb.stats.sufficient import SufficientStatistics
from augnb.stats.training import CountTables, TrainingData
from augnb.structure import Structure

__all__ = [
    "ChunkPlan",
    "ChunkSource",
    "DaskSource",
    "MemorySource",
    "RowSource",
    "discretize_columns",
    "frame_statistics",
    "missing_tables",
    "plan_sample_rows",
    "predict_dask",
    "refuse_unobserved",
    "schema_of_statistics",
    "tree_sum",
    "warn_of_type_changes",
    "weighted_chunk",
]


#: Bin indices of discretised columns: their positions, and a table whose
#: column ``j`` holds the bins of column ``positions[j]`` (see
#: ``Schema.encode``); None when there are none.
Bins = tuple[list[int], NDArray[np.int32]] | None


@dataclass
class ChunkPlan:
    """What every chunk is read with: fixed by the first chunk.

    Parameters
    ----------
    names : list
        Column names.
    continuous : list
        Columns read as continuous in the input.
    discretizer : transformer or None
        Fitted discretiser of ``continuous`` (None: they stay continuous).
    classes : tuple or None
        Fixed class labels (``partial_fit(classes=...)``), or None to take
        the labels each chunk holds.
    class_dtype : numpy dtype
        dtype of ``classes_``.
    max_order : int
        Largest feature subsets counted in full (see ``SufficientStatistics``).
    subsets : tuple of tuple of int
        Further subsets to count.
    singles : bool
        Count feature x class tables and moments.
    comoments : tuple of (tuple, tuple)
        Co-moment families ``(D, U)`` to count (Gaussian nodes with feature
        parents, Gaussian edge weights).
    schema : Schema or None
        The schema inferred from the first chunk's raw columns.
    discretizer_param : object
        The estimator's ``discretizer`` parameter when the plan was made
        (``partial_fit`` refuses a change).
    kind_params : tuple of (str, object)
        The estimator's parameters that say how columns are read
        (``continuous``, ``discrete_features``, ``continuous_features``),
        by name, when the plan was made (``partial_fit`` refuses a change;
        empty in plans saved before they were kept).
    counted : tuple
        Columns classed discrete by counting their values in the rows the
        plan was made from (see
        :func:`~augnb.data.schema.kinds_by_counting`).
    unsettled : bool
        Whether a continuous column may become discrete with more rows.
    sampled : bool
        Whether the plan was made from a sample of every row.
    """

    names: list
    continuous: list
    discretizer: Any
    classes: tuple | None
    class_dtype: np.dtype
    max_order: int = 2
    subsets: tuple = ()
    singles: bool = True
    comoments: tuple = ()
    schema: Schema | None = field(default=None, repr=False)
    discretizer_param: object = field(default=None, repr=False)
    kind_params: tuple = field(default=(), repr=False)
    counted: tuple = ()
    unsettled: bool = False
    sampled: bool = False

    def discretize(self, frame: pd.DataFrame) -> tuple[pd.DataFrame, Bins]:
        """``frame``'s continuous columns binned by the fitted discretiser.

        Parameters
        ----------
        frame : DataFrame
            Rows with the training columns.

        Returns
        -------
        frame : DataFrame
        bins : (positions, table) or None
            As :func:`discretize_columns` gives them (nothing to bin: the
            frame and None).
        """
        if self.discretizer is None or not self.continuous:
            return frame, None
        return discretize_columns(frame, self.discretizer, self.continuous)

    def second_pass(self, subsets: Sequence, comoments: Sequence) -> ChunkPlan:
        """A plan that counts only the given family tables and co-moments.

        Parameters
        ----------
        subsets : sequence of tuple of int
            Feature subsets whose count tables to count.
        comoments : sequence of (tuple, tuple)
            Co-moment families to count.
        """
        return replace(
            self,
            max_order=1,
            subsets=tuple(subsets),
            singles=False,
            comoments=tuple(comoments),
        )


def discretize_columns(
    frame: pd.DataFrame, discretizer: Any, columns: Sequence
) -> tuple[pd.DataFrame, Bins]:
    """``frame``'s ``columns`` binned by a fitted discretiser, for the schema.

    With one of augnb's discretisers (cutting exactly ``columns``), the bins
    are integer codes read straight from the values
    (:func:`~augnb.discretize._base.bin_arrays`), and the frame is returned
    as it is; :meth:`Schema.encode <augnb.data.schema.Schema.encode>` reads
    the bins in place of those columns. Another transformer's output is only
    known to its ``transform``: its columns replace those of a copy of the
    frame, and there are no bins.

    Parameters
    ----------
    frame : DataFrame
        Rows with the training columns.
    discretizer : transformer
        Fitted on ``columns``.
    columns : sequence
        The continuous columns.

    Returns
    -------
    frame : DataFrame
        ``frame``, or a copy with the transformer's columns.
    bins : (positions, table) or None
        The columns' positions in ``frame`` and their bin indices (``-1``:
        missing), ``table[:, j]`` those of column ``positions[j]``: what
        :meth:`Schema.encode <augnb.data.schema.Schema.encode>` reads; None
        with another transformer.
    """
    cols = list(columns)
    positions = column_indices(frame, cols)
    try:
        numbers = float_arrays(frame, positions)
    except (TypeError, ValueError):
        # Column by column: name the column and the value (astype names
        # neither), in fit and in prediction alike; an object column whose
        # only non-numbers are missing (pandas' NA, which astype refuses, as
        # in a table's to_numpy()) is read with those cells missing.
        numbers = []
        for c in cols:
            values, bad = as_numbers(frame[c])
            if bad is not None:
                raise ValueError(
                    f"Continuous feature {c!r} holds a value that is not a "
                    f"number: {bad!r}."
                ) from None
            numbers.append(values.to_numpy())
    codes = bin_arrays(discretizer, cols, numbers)
    if codes is not None:
        return frame, (positions, codes)
    binned, missing = _transform_present(discretizer, numbers, cols, frame.index)
    bins = _bin_columns(binned, cols, frame.index, discretizer, missing)
    return replace_columns(frame, bins), None


def _transform_present(
    discretizer: Any, numbers: list[np.ndarray], cols: list, index: pd.Index
) -> tuple[object, list[np.ndarray] | None]:
    """Another transformer's output for the values, missing cells kept missing.

    A missing value is summed out at prediction, whatever discretises the
    column, but scikit-learn's discretisers refuse NaN ("Input X contains
    NaN", with advice that does not apply): a model with
    ``discretizer=KBinsDiscretizer(...)`` failed on any row missing a
    continuous value. When the transformer refuses a table that has missing
    cells, they get a stand-in value (the column's first present one, or 0),
    and their bins are dropped: a discretiser bins each cell by its own
    value, so the other cells' bins are the ones it gives. A transformer
    that takes NaN is left to read it.

    Returns
    -------
    binned : object
        The transformer's output.
    missing : list of ndarray or None
        Each column's missing cells, when stand-ins were binned.
    """
    table = frame_from_columns(numbers, cols, index)
    try:
        return discretizer.transform(table), None
    except ValueError:
        missing = [np.isnan(values) for values in numbers]
        if not any(m.any() for m in missing):
            raise
    filled = []
    for values, absent in zip(numbers, missing):
        present = values[~absent]
        filled.append(np.where(absent, present[0] if present.size else 0.0, values))
    return discretizer.transform(frame_from_columns(filled, cols, index)), missing


def _bin_columns(
    binned: object,
    cols: list,
    index: pd.Index,
    discretizer: object,
    missing: list[np.ndarray] | None = None,
) -> dict[Hashable, Any]:
    """Another transformer's output as one column of bins per column.

    Its own discretisers give a frame of categoricals; scikit-learn's (e.g.
    ``KBinsDiscretizer(encode="ordinal")``) give the bin numbers as floats in
    an array, or in a frame with ``set_output``. Whole numbers become
    categorical bins; anything else is no discretisation and refused with
    the transformer's name. ``missing``: each column's cells binned from a
    stand-in value (:func:`_transform_present`), made missing.
    """
    name = type(discretizer).__name__
    if isinstance(binned, pd.DataFrame):
        if any(c not in binned.columns for c in cols):
            raise ValueError(
                f"discretizer {name} returned columns {list(binned.columns)[:10]}; "
                "a discretizer must return one column of bins per column "
                f"({cols[:10]})."
            )
        frame = binned
    else:
        shape = tuple(getattr(binned, "shape", ()))
        if issparse(binned) or len(shape) != 2 or shape[-1] != len(cols):
            raise ValueError(
                f"discretizer {name} returned shape {shape} for {len(cols)} "
                "continuous columns; a discretizer must return one column of bins "
                "per column (e.g. KBinsDiscretizer(encode='ordinal'))."
            )
        frame = pd.DataFrame(np.asarray(binned), columns=cols, index=index)
    out: dict[Hashable, Any] = {}
    for j, c in enumerate(cols):
        column = frame[c]
        if missing is not None and missing[j].any():
            column = column.mask(missing[j])
        numeric = pd.api.types.is_numeric_dtype(column.dtype)
        if not numeric or pd.api.types.is_bool_dtype(column.dtype):
            out[c] = column  # categories already, or words: read as levels
            continue
        values = column.to_numpy(dtype=np.float64, na_value=np.nan)
        present = values[~np.isnan(values)]
        bad = present[~np.isfinite(present) | (present != np.floor(present))]
        if bad.size:
            raise ValueError(
                f"discretizer {name} returned values for column {c!r} that are not "
                f"bins (e.g. {bad[0]!r}); a discretizer must return bin numbers "
                "or categories."
            )
        out[c] = pd.Categorical(pd.array(values, dtype="Float64").astype("Int64"))
    return out


def _y_array(y: object) -> object:
    if isinstance(y, pd.DataFrame):
        if y.shape[1] != 1:
            raise ValueError(f"y must be one column; got {y.shape[1]} columns.")
        return y.iloc[:, 0]
    return y


def _chunk_classes(
    y: object, n: int, classes: tuple | None
) -> tuple[tuple, NDArray[np.intp]]:
    """The chunk's class labels and codes (against ``classes`` when fixed)."""
    if classes is None:
        labels, y_codes = encode_target(y, n)
        return tuple(labels.tolist()), y_codes
    labels, local = encode_target(y, n)
    index = {v: k for k, v in enumerate(classes)}
    unknown = [v for v in labels.tolist() if v not in index]
    if unknown:
        raise ValueError(
            f"y holds labels {unknown[:5]} that are not in classes="
            f"{list(classes)}; list every class on the first call."
        )
    return classes, np.array([index[v] for v in labels.tolist()], dtype=np.intp)[
        local
    ]


def refuse_unobserved(data: CountTables) -> None:
    """Refuse a discrete column no counted row holds a value of.

    A category column declares its levels, so the plan of a stream's first
    rows keeps it when none of them holds one; once every row is counted,
    such a column is refused as the in-memory fit refuses it.

    Parameters
    ----------
    data : SufficientStatistics
        The statistics of every row (other count tables are left alone).

    Raises
    ------
    ValueError
        Naming the first such column and the fix.
    """
    if not isinstance(data, SufficientStatistics):
        return
    for f, name in enumerate(data.names):
        table = data.tables.get((f,))
        if table is not None and not table.any():
            raise ValueError(refusal_message("all_missing", name))


def warn_of_type_changes(
    before: SufficientStatistics, chunk: SufficientStatistics
) -> None:
    """Warn of a chunk's column none of whose values the earlier chunks hold.

    A category first seen in a later chunk extends the tables, as it should;
    but a whole column of text where the chunks before held numbers (one
    chunk of a CSV read with ``chunksize`` whose column holds a stray word,
    so pandas gives it as text) makes every value a new category beside the
    numbers it spells, without a word. Predicting says the same of such a
    column.

    Parameters
    ----------
    before : SufficientStatistics
        The statistics of the chunks so far.
    chunk : SufficientStatistics
        The next chunk's, by its own levels.
    """
    for name, known, levels in zip(before.names, before.categories, chunk.categories):
        if not known or not levels or not set(levels).isdisjoint(known):
            continue
        changed = type_changed(known, levels)
        if changed is not None:
            seen, fitted = changed
            warn_at_caller(
                f"Column {name!r}: none of this chunk's values were in the chunks "
                f"before; it holds {type(seen).__name__} values (e.g. {seen!r}) "
                f"where they held {type(fitted).__name__} values (e.g. "
                f"{fitted!r}). Each is counted as a new category, apart from "
                "those; convert the column to the type of the first chunk.",
                UserWarning,
            )


def frame_statistics(
    X: object,
    y: object,
    plan: ChunkPlan,
    sample_weight: NDArray[np.float64] | None = None,
) -> SufficientStatistics:
    """Sufficient statistics of one chunk of raw rows.

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_samples, n_features)
        The chunk's features (columns as at the first chunk).
    y : array-like of shape (n_samples,)
        The chunk's class labels.
    plan : ChunkPlan
        Column kinds, frozen discretiser and the tables to count.
    sample_weight : ndarray of float64, shape (n_samples,), default=None
        Positive weights of the rows, as :func:`weighted_chunk` gives them
        (the tables and moments are then weighted sums); None counts every
        row once.

    Returns
    -------
    SufficientStatistics
        Indexed by the chunk's own levels (``+`` aligns them).
    """
    # A later chunk's object columns are typed as the first chunk's were
    # (as_frame); as_frame itself would refuse an empty chunk.
    frame = as_frame(X) if not isinstance(X, pd.DataFrame) else typed_objects(X)
    refuse_reordered_columns(X, plan.names)
    if list(frame.columns) != list(plan.names):
        if frame.shape[1] != len(plan.names):
            raise ValueError(
                f"Chunk has {frame.shape[1]} columns; the first chunk had "
                f"{len(plan.names)}: {list(plan.names)[:10]}."
            )
        frame = frame.set_axis(plan.names, axis=1)
    classes, y_codes = _chunk_classes(_y_array(y), frame.shape[0], plan.classes)
    frame, bins = plan.discretize(frame)
    binned = set() if bins is None else set(bins[0])
    cont = set() if plan.discretizer is not None else set(plan.continuous)
    specs = []
    # items() gives the columns by position as iloc[:, i] does, at less
    # than half its cost a column (this runs for every chunk).
    for i, (name, (_, column)) in enumerate(zip(plan.names, frame.items())):
        if name in cont:
            specs.append(ColumnSpec(name, "continuous"))
        elif i in binned:
            specs.append(_bin_spec(plan, name))
        else:
            specs.append(ColumnSpec(name, "discrete", _sorted_categories(column)))
    schema = Schema(tuple(specs))
    data = schema.encode(frame, bins)
    return SufficientStatistics.from_codes(
        data.codes,
        y_codes,
        names=tuple(plan.names),
        categories=tuple(c.categories for c in specs),
        classes=classes,
        values=data.values,
        max_order=plan.max_order,
        subsets=plan.subsets,
        singles=plan.singles,
        comoments=plan.comoments,
        sample_weight=sample_weight,
    )


def _bin_spec(plan: ChunkPlan, name: object) -> ColumnSpec:
    """A binned column: discrete, every bin a level (as ``transform`` declares)."""
    return ColumnSpec(name, "discrete", bin_levels(plan.discretizer.n_bins_[name]))


def schema_of_statistics(stats: SufficientStatistics) -> Schema:
    """The schema of summed statistics: their names, kinds and levels.

    Parameters
    ----------
    stats : SufficientStatistics
        Summed statistics.
    """
    return Schema(
        tuple(
            ColumnSpec(name, "continuous" if cats is None else "discrete", cats)
            for name, cats in zip(stats.names, stats.categories)
        )
    )


def missing_tables(structure: Structure, data: CountTables) -> tuple[list, list]:
    """Family tables and co-moments the structure's parameters need, not held.

    Parameters
    ----------
    structure : Structure
        Singleton nodes (a structure fitted from statistics).
    data : CountTables
        The tables at hand (rows in memory hold every table).

    Returns
    -------
    subsets : list of tuple of int
    comoments : list of (tuple, tuple)
    """
    if isinstance(data, TrainingData):
        return [], []
    cards = data.cards
    subsets = [
        s
        for s in families(structure)
        if all(cards[f] > 0 for f in s) and not data.has(s)
    ]
    comoments = [
        key
        for key in comoment_families(structure, cards)
        if key not in getattr(data, "comoments", {})
    ]
    return subsets, comoments


class Planner(Protocol):
    """What makes a plan from rows: the estimator.

    ``_start_plan(X, y, *, classes, incremental, in_memory, cut_rows,
    y_encoded)`` is ``BaseAugmentedNB._start_plan``, whose signature it
    follows (written once, there).
    """

    _start_plan: Callable[..., ChunkPlan]


class RowSource(ABC):
    """A source of training rows (see the module docstring).

    Subclasses fix the plan from their first rows (:meth:`plan`) and give
    the count tables of every row under it (:meth:`tables`), after which
    ``classes`` holds the class labels the rows carry.
    """

    #: Whether the rows themselves reach the learner (learners that need
    #: them, such as the wrapper searches, take only such sources).
    in_memory: bool = False
    #: The class labels of the rows (known once :meth:`tables` has run).
    classes: Any = None
    #: The statistics :meth:`tables` counted last (files and chunks: their
    #: ``class_counts`` and ``n_samples`` are those of every row, in every
    #: pass; a fit whose learner keeps no ``statistics_`` reports them so).
    counted: Any = None
    #: The data audit of the rows the plan is made from (a source that
    #: audits its first rows itself, as files and Dask do), and what it found
    #: there: each a call that warns again.
    audit: Callable[[Any], None] | None = None
    _findings: tuple[Callable[[], None], ...] = ()

    def plan(
        self,
        planner: Planner,
        *,
        classes: Sequence | None = None,
        incremental: bool = False,
        resample: bool = False,
    ) -> ChunkPlan:
        """The plan of the first rows; sets the planner's plan attributes.

        Parameters
        ----------
        planner : Planner
            The estimator being fitted.
        classes : sequence, default=None
            Every class label (``partial_fit``'s first call).
        incremental : bool, default=False
            Whether the rows can be read only once (``partial_fit``).
        resample : bool, default=False
            Make the plan from the sample of every row whatever the first
            rows hold (a second look, when the counts of every row found a
            column kind the first rows could not settle).

        Returns
        -------
        ChunkPlan

        Notes
        -----
        Cut points learned from the first rows alone would depend on how the
        rows are split (on a file sorted by class, the first chunk holds one
        class and gives no cut at all). So when the first rows' plan
        discretises a column and the source holds more rows and can be read
        again, the plan is made again from a sample drawn across all the rows
        (:func:`plan_sample_rows` of them at most, chosen through the
        planner's ``random_state``): every row, in order, when there are no
        more than that, so the model is then the in-memory fit's.
        The same sample is drawn when the data audit of the first rows found
        something (a column with one value in the first chunk of a sorted
        file may vary later): the audit's warnings are then those of the
        sample; and when a float column of few whole numbers without a gap
        may have gaps further on (then its values are counted, as integers').
        ``partial_fit`` reads each chunk once: its plan is the first chunk's.
        """
        if resample:
            self._restart()
        try:
            plan = self._plan(planner, classes, incremental)
        except EmptyFirstChunkError as empty:
            # A column without a value in the first rows (of a sorted table)
            # may have some further on: read again, the source is planned
            # from the sample of every row, as the in-memory fit would be.
            if incremental:
                raise
            return self._plan_sample(planner, classes, empty.n_columns, empty)
        if not incremental and (
            resample
            or plan.discretizer is not None
            or plan.unsettled
            or self._doubts()
        ):
            return self._plan_sample(planner, classes, len(plan.names), plan)
        self._settle_doubts(None)
        return plan

    def _plan_sample(
        self,
        planner: Planner,
        classes: Sequence | None,
        n_columns: int,
        first: ChunkPlan | EmptyFirstChunkError,
    ) -> ChunkPlan:
        """The plan of a sample drawn across every row.

        ``first`` is the first rows' plan, kept when they were every row (no
        sample is drawn then), or the error of a column they all lack, which
        is then refused as the in-memory fit refuses it.
        """
        sample = self._sample(
            plan_sample_rows(n_columns + 1),
            check_random_state(getattr(planner, "random_state", None)),
        )
        self._settle_doubts(sample)
        if sample is None:
            if isinstance(first, EmptyFirstChunkError):
                raise ValueError(
                    refusal_message("all_missing", first.column)
                ) from None
            return first
        X, y = sample
        plan = planner._start_plan(
            X, y, classes=classes, incremental=False, sampled=True
        )
        return dataclasses.replace(plan, sampled=True)

    def _restart(self) -> None:
        """Forget the first rows read, to read the source again from its start."""
        return None

    def _doubts(self) -> bool:
        """Whether the first rows' data audit found something."""
        return bool(self._findings)

    def _settle_doubts(self, sample: tuple[pd.DataFrame, object] | None) -> None:
        """Report the audit of ``sample`` (or the first rows' findings if None)."""
        findings, self._findings = self._findings, ()
        if sample is not None and self.audit is not None:
            self.audit(sample[0])
            return
        with between_sections():
            for warn_again in findings:
                warn_again()

    @abstractmethod
    def _plan(
        self, planner: Planner, classes: Sequence | None, incremental: bool
    ) -> ChunkPlan:
        """The plan of the first rows, for this kind of source."""

    def _sample(
        self, max_rows: int, random_state: np.random.RandomState
    ) -> tuple[pd.DataFrame, object] | None:
        """Up to ``max_rows`` rows drawn across all rows, in their order.

        None when the first rows were all the rows (or the source cannot be
        read again).
        """
        return None

    @abstractmethod
    def tables(self, plan: ChunkPlan) -> tuple[CountTables, Schema]:
        """Count tables of every row under ``plan``, and their schema.

        Parameters
        ----------
        plan : ChunkPlan
            How the rows are read.
        """


#: Cells (rows x columns) of the sample a plan is made from (64 MiB of floats).
PLAN_SAMPLE_CELLS = 1 << 23
#: ... but never fewer rows than this.
PLAN_SAMPLE_MIN_ROWS = 100_000


def plan_sample_rows(n_columns: int) -> int:
    """Rows of the sample that fixes the plan of a table of ``n_columns`` columns.

    Parameters
    ----------
    n_columns : int
        Columns, the class included.

    Returns
    -------
    int
    """
    return max(PLAN_SAMPLE_MIN_ROWS, PLAN_SAMPLE_CELLS // max(n_columns, 1))


class _Reservoir:
    """The rows of the ``size`` smallest random keys seen so far.

    Each row gets a uniform key as it arrives, so the rows kept are a uniform
    sample without replacement; while no more than ``size`` rows have come,
    every row is kept. ``rows()`` gives them in arrival order.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.parts: list[tuple[pd.DataFrame, object, NDArray[np.float64]]] = []
        self.n_held = 0

    def add(self, X: object, y: object, keys: NDArray[np.float64]) -> None:
        self.parts.append((as_frame(X), y, keys))
        self.n_held += len(keys)
        if self.n_held > self.size:
            self.parts = [self._merged()]
            self.n_held = self.size

    def _merged(self) -> tuple[pd.DataFrame, object, NDArray[np.float64]]:
        X = concat_batches([p[0] for p in self.parts])
        y = _concat_labels([p[1] for p in self.parts])
        keys = np.concatenate([p[2] for p in self.parts])
        if len(keys) <= self.size:
            return X, y, keys
        # the smallest keys, kept in arrival order
        chosen = np.sort(np.argpartition(keys, self.size - 1)[: self.size])
        return X.iloc[chosen].reset_index(drop=True), _take(y, chosen), keys[chosen]

    def rows(self) -> tuple[pd.DataFrame, object]:
        X, y, _ = self._merged()
        return X, y


def _concat_labels(parts: list) -> object:
    if all(isinstance(p, pd.Series) for p in parts):
        return pd.concat(parts, ignore_index=True)
    return np.concatenate([np.asarray(p) for p in parts])


def _take(y: object, rows: NDArray[np.intp]) -> object:
    if isinstance(y, pd.Series):
        return y.iloc[rows].reset_index(drop=True)
    return np.asarray(y)[rows]


def _refuse_lost_classes(given: NDArray, left: NDArray) -> None:
    """Refuse weights that leave one class of several (0 on all the others).

    Else the fit says "y has only one class", of a y that holds several.
    """
    if len(left) < 2 <= len(given):
        kept = set(left.tolist())
        gone = [c for c in given.tolist() if c not in kept]
        raise ValueError(
            f"sample_weight is 0 for every row of class(es) {gone}, so "
            f"only the class {left.tolist()[0]!r} is left to fit; a "
            "classifier needs samples of at least 2 classes: give rows "
            "of another class a positive weight."
        )


@shared_entries
def weighted_chunk(
    X: object,
    y: object,
    sample_weight: object,
    *,
    weighted_counts: bool = True,
    learner: str = "",
    two_classes: bool = False,
) -> tuple[object, object, NDArray[np.float64] | None]:
    """A chunk's training rows and their weights, under ``fit``'s weight rules.

    The rows of weight 0 are left out and, for a learner without weighted
    counts, every row is repeated by its integer weight
    (:func:`~augnb.data.weights.training_rows`, which validates the weights
    as ``fit`` does). Without weights, the chunk is returned as it is.

    Parameters
    ----------
    {X_y_chunk}
    sample_weight : array-like of shape (n_samples,) or None
        The chunk's row weights.
    weighted_counts : bool, default=True
        Whether the learner weighs counts natively.
    learner : str, default=""
        The learner's name, for the error messages.
    two_classes : bool, default=False
        Refuse weights that leave one class of several, as ``fit`` does (for
        the first chunk, when no ``classes`` are given).

    Returns
    -------
    X : DataFrame or array-like
        The training rows (``X`` itself when they are its rows, in order).
    y : array-like
        Their class labels.
    sample_weight : ndarray of float64 or None
        Their weights; None when each counts once.
    """
    if sample_weight is None:
        return X, y, None
    frame = X if isinstance(X, pd.DataFrame) else as_frame(X)
    n = frame.shape[0]
    y = _y_array(y)
    given, _ = encode_target(y, n)
    kept, weights = training_rows(
        sample_weight, n, weighted_counts=weighted_counts, learner=learner
    )
    if kept is None:
        return X, y, weights
    y = np.asarray(y)[kept]
    if two_classes:
        _refuse_lost_classes(given, encode_target(y, len(kept))[0])
    return frame.iloc[kept], y, weights


class MemorySource(RowSource):
    """Rows in memory, with optional row weights.

    Rows of weight 0 are left out; for a learner without weighted counts,
    integer weights repeat rows (fractional ones are refused).

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_samples, n_features)
        Features.
    y : array-like of shape (n_samples,)
        Class labels.
    sample_weight : array-like of shape (n_samples,) or None
        Row weights.
    weighted_counts : bool
        Whether the learner weighs counts natively.
    learner : str
        The learner's name, for messages.
    audit_params : dict
        The learner's parameters, for the data audit's advice.
    """

    in_memory = True

    def __init__(
        self,
        X: object,
        y: object,
        sample_weight: object = None,
        *,
        weighted_counts: bool = True,
        learner: str = "",
        audit_params: dict | None = None,
    ) -> None:
        frame = as_frame(X)
        n = frame.shape[0]
        y = _y_array(y)
        classes, y_codes = encode_target(y, n)
        kept, weights = training_rows(
            sample_weight, n, weighted_counts=weighted_counts, learner=learner
        )
        rows = None
        if kept is not None:
            # Which input row each training row is (explicit CV splits name
            # input rows).
            rows = InputRows(n, kept)
            frame = frame.iloc[kept]
            y = np.asarray(y)[kept]
            given = classes
            classes, y_codes = encode_target(y, len(kept))
            _refuse_lost_classes(given, classes)
        self.frame = frame
        self.y = y
        #: The class labels (``classes_``) and the class code of every row.
        self.classes = classes
        self.y_codes = y_codes
        self.sample_weight = weights
        self.rows = rows
        self.n_input = n
        self.audit_params = {} if audit_params is None else audit_params

    def _plan(
        self, planner: Planner, classes: Sequence | None, incremental: bool
    ) -> ChunkPlan:
        """The plan of all the rows.

        The discretiser's cut points come from the rows with positive
        weight (:func:`~augnb.data.weights.discretizer_rows`).
        """
        return planner._start_plan(
            self.frame,
            self.y,
            classes=classes,
            incremental=incremental,
            in_memory=True,
            cut_rows=discretizer_rows(self.sample_weight),
            y_encoded=(self.classes, self.y_codes),
        )

    def tables(self, plan: ChunkPlan) -> tuple[TrainingData, Schema]:
        """The encoded rows (with the audit of the data, once).

        Parameters
        ----------
        plan : ChunkPlan
            Column kinds and the fitted discretiser.
        """
        frame = self.frame
        if frame.columns.tolist() != list(plan.names):
            frame = frame.set_axis(plan.names, axis=1)
        classes, y_codes = self.classes, self.y_codes
        raw = plan.schema
        if raw is None:
            raw = Schema.infer(frame)
        if not plan.continuous:
            # Every column is discrete already: the schema just inferred is
            # the final one (inferring it again costs a pass over the table),
            # and the audit reads the codes (a pass over pandas costs more
            # than a small fit).
            schema = raw
            data = schema.encode(frame)
            warn_data_problems(
                frame,
                self.audit_params,
                codes=data.codes,
                categories=[c.categories for c in schema.columns],
            )
        else:
            warn_data_problems(frame, self.audit_params)
            bins: Bins = None
            if plan.discretizer is None:
                # Continuous columns stay continuous: density CPDs model them.
                schema = raw
            else:
                frame, bins = plan.discretize(frame)
                if bins is not None:
                    # The other columns keep the raw schema's levels (what
                    # inferring them again from the same columns gives).
                    binned = set(bins[0])
                    schema = Schema(
                        tuple(
                            _bin_spec(plan, spec.name) if i in binned else spec
                            for i, spec in enumerate(raw.columns)
                        )
                    )
                else:
                    # A transformer's own columns: their levels as it declares them.
                    schema = Schema.infer(
                        frame, discrete_features=list(range(frame.shape[1]))
                    )
            data = schema.encode(frame, bins)
        training = TrainingData(
            data.codes,
            y_codes,
            data.cards,
            len(classes),
            self.sample_weight,
            data.values,
            self.rows,
        )
        return training, schema


class ChunkSource(RowSource):
    """Chunks of rows ``(X, y)``, read again for a second pass.

    Parameters
    ----------
    chunks : callable
        Returns a fresh iterator of ``(X, y)`` chunks each time it is called.
    progress : callable, default=None
        Called with the number of rows read after each chunk.
    audit : callable, default=None
        The data audit of the rows the plan is made from (called with a
        frame; raises for a column it refuses, warns for the others).
    weighted_counts : bool, default=True
        Whether the learner weighs counts natively (chunks ``(X, y, w)``
        with weights ``w``; see :func:`weighted_chunk`).
    learner : str, default=""
        The learner's name, for the messages about weights.

    Notes
    -----
    A chunk may carry row weights as a third item, ``(X, y, w)``: its rows
    are weighted as ``fit`` weighs rows (:func:`weighted_chunk`), the cut
    points of the first chunk's plan included. Such chunks are planned from
    the first chunk (``partial_fit``), never from a sample of every chunk.
    """

    def __init__(
        self,
        chunks: Callable[[], Iterator[tuple]],
        *,
        progress: Callable[[int], None] | None = None,
        audit: Callable[[pd.DataFrame], None] | None = None,
        weighted_counts: bool = True,
        learner: str = "",
    ) -> None:
        self._chunks = chunks
        self._pending: Iterator | None = None
        self._first: tuple | None = None
        self.progress = progress
        self.audit = audit
        self.weighted_counts = weighted_counts
        self.learner = learner

    def _weighted(
        self, chunk: tuple, *, two_classes: bool = False
    ) -> tuple[object, object, NDArray[np.float64] | None]:
        """A chunk's training rows and weights (:func:`weighted_chunk`)."""
        X, y, *weights = chunk
        return weighted_chunk(
            X,
            y,
            weights[0] if weights else None,
            weighted_counts=self.weighted_counts,
            learner=self.learner,
            two_classes=two_classes,
        )

    def _plan(
        self, planner: Planner, classes: Sequence | None, incremental: bool
    ) -> ChunkPlan:
        """The plan of the first chunk (audited first: refusals stop it here).

        The cut points come from its rows as ``fit`` weighs them
        (:func:`~augnb.data.weights.discretizer_rows`).
        """
        X, y, weights = self._weighted(self.first(), two_classes=classes is None)
        if self.audit is not None:
            with warnings_section(record=True) as found:
                warnings.simplefilter("always")
                self.audit(X)
            self._findings = tuple(
                functools.partial(
                    warnings.warn_explicit, w.message, w.category, w.filename, w.lineno
                )
                for w in found
            )
        return planner._start_plan(
            X,
            y,
            classes=classes,
            incremental=incremental,
            cut_rows=discretizer_rows(weights),
        )

    def _restart(self) -> None:
        self._first = None
        self._pending = None

    def first(self) -> tuple:
        """The first chunk (read once: the first pass continues after it)."""
        if self._first is None:
            self._pending = iter(self._chunks())
            try:
                self._first = next(self._pending)
            except StopIteration:
                raise ValueError("The source holds no rows.") from None
        return self._first

    def _sample(
        self, max_rows: int, random_state: np.random.RandomState
    ) -> tuple[pd.DataFrame, object] | None:
        """Rows drawn across every chunk (the first pass; ``tables`` reads again)."""
        first = self.first()
        if len(first) > 2:
            # A uniform sample of rows is not a sample of weighted rows.
            raise ValueError(
                "Chunks with row weights are planned from the first chunk only "
                "(partial_fit); no sample of every chunk is drawn for them."
            )
        rest = self._pending
        if rest is None:
            return None  # the first pass is over: no second look
        try:
            second = next(rest)
        except StopIteration:
            return None  # one chunk: the plan saw every row
        self._pending = None
        reservoir = _Reservoir(max_rows)
        for X, y in itertools.chain([first, second], rest):
            reservoir.add(X, _y_array(y), random_state.random_sample(len(X)))
        return reservoir.rows()

    def _all_chunks(self) -> Iterable[tuple]:
        if self._pending is not None:
            # The first pass: the chunk already read, then the rest.
            first, rest = self._first, self._pending
            self._pending = None
            return itertools.chain([first], rest)
        return self._chunks()

    def tables(self, plan: ChunkPlan) -> tuple[SufficientStatistics, Schema]:
        """The statistics of every chunk, summed.

        Parameters
        ----------
        plan : ChunkPlan
            How every chunk is read and what it counts.
        """
        total = None
        n_rows = 0
        for chunk in self._all_chunks():
            X, y, weights = self._weighted(chunk)
            stats = frame_statistics(X, y, plan, weights)
            if total is not None:
                warn_of_type_changes(total, stats)
            total = stats if total is None else total + stats
            n_rows += stats.n_samples
            if self.progress is not None:
                self.progress(n_rows)
        if total is None:
            raise ValueError("The source holds no rows.")
        self.classes = total.classes
        self.counted = total
        return total, schema_of_statistics(total)


# -- Dask ---------------------------------------------------------------------

#: Column name under which the target travels with the features.
_TARGET = "__augnb_target__"

#: Partition statistics summed per task of the reduction tree.
SPLIT_EVERY = 8


def _sum(*parts: SufficientStatistics) -> SufficientStatistics:
    total = parts[0]
    for s in parts[1:]:
        total = total + s
    return total


def tree_sum(
    parts: Sequence, split_every: int = SPLIT_EVERY, combine: Callable = _sum
) -> object:
    """Delayed sum of delayed statistics, ``split_every`` at a time.

    Parameters
    ----------
    parts : sequence of dask.delayed.Delayed
        One statistics object per partition.
    split_every : int, default=8
        Fan-in of each reduction task.
    combine : callable, default=sum
        What a reduction task does with its ``split_every`` parts, in order.

    Returns
    -------
    dask.delayed.Delayed
    """
    from dask import delayed

    parts = list(parts)
    if not parts:
        raise ValueError("No partitions to fit on.")
    while len(parts) > 1:
        parts = [
            delayed(combine, pure=True)(*parts[i : i + split_every])
            for i in range(0, len(parts), split_every)
        ]
    return parts[0]


def _sample_part(
    x: object, y: object, seed: int, index: int, size: int
) -> tuple[pd.DataFrame, object, NDArray[np.float64]] | None:
    """A partition's rows of the ``size`` smallest keys (keys seeded per partition).

    None for a partition without rows (an empty frame's columns may have
    other dtypes than the others': it is left out of the merge).
    """
    frame, y = _split_target(x, y)
    if len(frame) == 0:
        return None
    frame = as_frame(frame)
    keys = np.random.default_rng([seed, index]).random(len(frame))
    reservoir = _Reservoir(size)
    reservoir.add(frame, _y_array(y), keys)
    return reservoir._merged()


def _merge_samples(
    size: int, *parts: tuple[pd.DataFrame, object, NDArray[np.float64]] | None
) -> tuple[pd.DataFrame, object, NDArray[np.float64]] | None:
    rows = [part for part in parts if part is not None]
    if not rows:
        return None
    reservoir = _Reservoir(size)
    for X, y, keys in rows:
        reservoir.add(X, y, keys)
    return reservoir._merged()


def _register_sizeof() -> None:
    from dask.sizeof import sizeof

    @sizeof.register(SufficientStatistics)
    def _sizeof_statistics(stats: SufficientStatistics) -> int:
        # What travels between workers: the compact serialised form
        # (``__reduce__``), so the scheduler's transfer accounting counts
        # real bytes.
        try:
            return len(stats.to_bytes())
        except TypeError:
            return stats.nbytes


def _split_target(x: Any, y: Any, names: list | None = None) -> tuple:
    if y is None:
        x, y = x.drop(columns=[_TARGET]), x[_TARGET]
    if isinstance(x, np.ndarray):
        x = pd.DataFrame(x, columns=names)
    return x, y


#: map_partitions options for tasks that return Python objects, not frames.
_NO_META = {
    "meta": pd.Series([], dtype=object),
    "enforce_metadata": False,
    "transform_divisions": False,
    "align_dataframes": False,
}

#: Attributes the plan sets on the estimator (on the worker that makes it).
PLAN_ATTRIBUTES = (
    "n_features_in_",
    "feature_names_in_",
    "continuous_columns_",
    "discretizer_",
)


def _remote_plan(
    planner: Planner,
    classes: Sequence | None,
    incremental: bool,
    audit: Callable[[Any], None] | None,
    X: object,
    y: object,
) -> tuple[ChunkPlan, dict[str, Any], list[tuple[str, type[Warning]]]] | None:
    """The plan of ``X, y``, the attributes it set and the audit's warnings.

    Run where the rows are. None for a partition without rows: the plan is
    made from the next.
    """
    if len(X) == 0:  # type: ignore[arg-type]
        return None
    found: list[warnings.WarningMessage] = []
    if audit is not None:
        # Its warnings go back with the plan, to be shown to the caller: on
        # a worker process they would be lost (in its log at best).
        with warnings_section(record=True) as found:
            warnings.simplefilter("always")
            audit(X)
    plan = planner._start_plan(X, y, classes=classes, incremental=incremental)
    fitted = {a: getattr(planner, a) for a in PLAN_ATTRIBUTES if hasattr(planner, a)}
    return plan, fitted, [(str(w.message), w.category) for w in found]


def _plan_task(make_plan: Callable, x: object, y: object) -> tuple | None:
    x, y = _split_target(x, y)
    return make_plan(x, y)


def _plan_task_frame(x: object, make_plan: Callable) -> tuple | None:
    return _plan_task(make_plan, x, None)


def _frame_stats_task(x: object, y: object, plan: ChunkPlan) -> SufficientStatistics:
    x, y = _split_target(x, y, plan.names)
    return frame_statistics(x, y, plan)


def _missing_label_mask(x: object, y: object) -> NDArray[np.bool_]:
    """Which rows of a partition have no label."""
    _, y = _split_target(x, y)
    return np.asarray(pd.isna(np.asarray(y, dtype=object)), dtype=bool)


def _unsupported_dask(X: object) -> TypeError:
    """The refusal of a Dask collection that is no DataFrame or 2-d array."""
    return TypeError(
        f"Unsupported Dask collection {type(X).__name__}; give a dask DataFrame or "
        "a 2-d dask array."
    )


class DaskSource(RowSource):
    """The partitions of a Dask DataFrame or array, counted where they live.

    Only count tables travel between workers, and the rows of the plan's
    sample (when there are columns to discretise: see :meth:`RowSource.plan`);
    the first plan is made on the first partition's worker.

    Parameters
    ----------
    X : dask DataFrame or 2-d dask array
        Features.
    y : dask Series, dask array or array-like
        Class labels, partitioned like ``X``.
    audit : callable, default=None
        The data audit of the first partition, run where it lives before its
        plan is made (its refusals stop the fit there). When it finds
        something and the rows are sampled across every partition (see
        :meth:`RowSource.plan`), the sample is audited instead, so the
        warnings are those of the sample, as a file's are.
    """

    def __init__(
        self, X: Any, y: Any, audit: Callable[[Any], None] | None = None
    ) -> None:
        import dask.array as da
        import dask.dataframe as dd

        _register_sizeof()
        self.audit = audit
        self.frame = None
        self.xs: list = []
        self.ys: list = []
        if isinstance(X, da.Array):
            if X.ndim != 2:
                raise ValueError(f"X must be 2-d; got a {X.ndim}-d dask array.")
            X = X.rechunk({1: -1})
            self.xs = list(X.to_delayed().ravel())
            if isinstance(y, da.Array):
                y = y.rechunk((X.chunks[0],))
                self.ys = list(y.to_delayed().ravel())
            elif isinstance(y, (dd.Series, dd.DataFrame)):
                self.ys = list(y.to_delayed())
            else:
                y = np.asarray(y)
                bounds = np.cumsum([0, *X.chunks[0]])
                self.ys = [y[a:b] for a, b in itertools.pairwise(bounds)]
            if len(self.ys) != len(self.xs):
                raise ValueError(
                    f"X has {len(self.xs)} row blocks but y has {len(self.ys)}; "
                    "chunk them alike."
                )
            return
        if isinstance(X, dd.DataFrame):
            if isinstance(y, dd.DataFrame):
                if len(y.columns) != 1:
                    raise ValueError(f"y must be one column; got {len(y.columns)}.")
                y = y[y.columns[0]]
            if not isinstance(y, dd.Series):
                raise TypeError(
                    "With a dask DataFrame X, y must be a dask Series of the same "
                    "frame (y = ddf[target])."
                )
            if _TARGET in X.columns:
                raise ValueError(f"X has a column named {_TARGET!r}; rename it.")
            # One frame for both, so that the optimiser cannot partition the
            # feature columns and the target differently (it may merge the
            # partitions of a narrow column projection).
            try:
                self.frame = X.assign(**{_TARGET: y})
            except ValueError as exc:
                raise ValueError(
                    f"y cannot be aligned with X's partitions ({exc}); take both "
                    "from one dask DataFrame (X = ddf.drop(columns=t), y = ddf[t])."
                ) from None
            return
        raise _unsupported_dask(X)

    def _blocks(self) -> list[tuple[Any, Any]]:
        """Each partition as delayed ``(X, y)``; y None where the frame holds it."""
        if self.frame is not None:
            return [(x, None) for x in self.frame.to_delayed()]
        return list(zip(self.xs, self.ys))

    def _missing_labels(self) -> MissingLabelsError:
        """The missing labels of every partition, counted and located.

        A partition (or the sample) that holds one would say its own count
        and rows: on this error path alone, the labels are read again.
        """
        import dask
        from dask import delayed

        task = delayed(_missing_label_mask, pure=True)
        masks = dask.compute(*[task(x, y) for x, y in self._blocks()])
        missing = np.concatenate([np.asarray(m, dtype=bool) for m in masks])
        return MissingLabelsError.from_mask(missing)

    def _plan(
        self, planner: Planner, classes: Sequence | None, incremental: bool
    ) -> ChunkPlan:
        """The plan of the first partition, made where it lives.

        A copy of the planner makes it on that worker; only the plan and the
        attributes it set come back (:data:`PLAN_ATTRIBUTES`), not the rows.
        """
        import dask
        from dask import delayed
        from sklearn.base import clone

        make_plan = functools.partial(
            _remote_plan, clone(planner), classes, incremental, self.audit
        )
        # The first partition with rows: filtering a frame leaves empty
        # ones, the first among them (tried in turn: each is a computation,
        # and the first partition has rows in all but such frames).
        made = None
        n_parts = self.frame.npartitions if self.frame is not None else len(self.xs)
        try:
            for i in range(n_parts):
                if self.frame is not None:
                    part = self.frame.partitions[i].map_partitions(
                        _plan_task_frame, make_plan, **_NO_META
                    )
                    made = dask.compute(part.to_delayed()[0])[0]
                else:
                    task = delayed(_plan_task, pure=True)
                    made = dask.compute(task(make_plan, self.xs[i], self.ys[i]))[0]
                if made is not None:
                    break
        except MissingLabelsError:
            raise self._missing_labels() from None
        if made is None:
            raise ValueError("The Dask collection holds no rows.")
        plan, fitted, found = made
        # Warned again where the fit was called (a worker's would be lost).
        self._findings = tuple(
            functools.partial(warn_at_caller, message, category)
            for message, category in found
        )
        for name in PLAN_ATTRIBUTES:
            if name in fitted:
                setattr(planner, name, fitted[name])
            else:
                planner.__dict__.pop(name, None)
        return plan

    def _sample(
        self, max_rows: int, random_state: np.random.RandomState
    ) -> tuple[pd.DataFrame, object] | None:
        """Rows drawn across every partition (each keeps its share where it lives).

        Each partition draws its rows' keys from its own stream (seeded by the
        planner's ``random_state`` and its position), so the sample depends
        on the partitioning once there are more than ``max_rows`` rows.
        """
        import dask
        from dask import delayed

        blocks = self._blocks()
        if len(blocks) == 1:
            return None
        seed = int(random_state.randint(np.iinfo(np.int32).max))
        task = delayed(_sample_part, pure=True)
        parts = [task(x, y, seed, i, max_rows) for i, (x, y) in enumerate(blocks)]
        combine = functools.partial(_merge_samples, max_rows)
        (sample,) = dask.compute(tree_sum(parts, combine=combine))
        if sample is None:
            return None
        X, y, _ = sample
        if pd.isna(np.asarray(y, dtype=object)).any():
            # Its rows' positions are the sample's: count every partition's.
            raise self._missing_labels()
        return X, y

    def tables(self, plan: ChunkPlan) -> tuple[SufficientStatistics, Schema]:
        """Every partition's statistics, summed by a tree reduction.

        Parameters
        ----------
        plan : ChunkPlan
            How every partition is read and what it counts.
        """
        import dask
        from dask import delayed

        if self.frame is not None:
            # Fused with the partition's own tasks: rows never leave a worker.
            mapped = self.frame.map_partitions(
                _frame_stats_task, None, plan, **_NO_META
            )
            parts = list(mapped.to_delayed())
        else:
            task = delayed(_frame_stats_task, pure=True)
            parts = [task(x, yy, plan) for x, yy in zip(self.xs, self.ys)]
        try:
            (stats,) = dask.compute(tree_sum(parts))
        except MissingLabelsError:
            raise self._missing_labels() from None
        self.classes = stats.classes
        return stats, schema_of_statistics(stats)


def _predicted(estimator: Any, method: str, part: object) -> NDArray[Any]:
    """``method``'s output for a partition's rows; empty for one without rows.

    Filtering a frame leaves partitions with no rows, which the estimator
    (as scikit-learn's) refuses to predict.
    """
    if len(part) == 0:  # type: ignore[arg-type]
        if method == "predict":
            return np.empty(0, dtype=estimator.classes_.dtype)
        return np.empty((0, len(estimator.classes_)), dtype=np.float64)
    return np.asarray(getattr(estimator, method)(part))


def _apply(part: object, estimator: object, method: str, columns: list) -> object:
    if isinstance(part, np.ndarray):
        part = pd.DataFrame(part, columns=columns)
    return _predicted(estimator, method, part)


def predict_dask(estimator: Any, X: Any, method: str) -> Any:
    """Lazy prediction over the partitions of a Dask collection.

    Parameters
    ----------
    estimator : BaseAugmentedNB
        A fitted estimator.
    X : dask DataFrame or 2-d dask array
        Rows to predict.
    method : str
        ``"predict"``, ``"predict_proba"``, ``"predict_log_proba"`` or
        ``"predict_joint_log_proba"``.

    Returns
    -------
    dask Series (``predict`` on a DataFrame) or dask array
        Nothing is computed until ``.compute()`` (or ``to_parquet`` ...).
    """
    import dask.array as da
    import dask.dataframe as dd
    from sklearn.utils.validation import check_is_fitted

    check_is_fitted(estimator, "classes_")
    n_classes = len(estimator.classes_)
    names = list(estimator.schema_.names)
    if isinstance(X, da.Array):
        X = X.rechunk({1: -1})
        if method == "predict":
            return X.map_blocks(
                _apply,
                estimator,
                method,
                names,
                drop_axis=1,
                dtype=estimator.classes_.dtype,
                meta=np.empty((0,), dtype=estimator.classes_.dtype),
            )
        return X.map_blocks(
            _apply,
            estimator,
            method,
            names,
            chunks=(X.chunks[0], (n_classes,)),
            dtype=np.float64,
            meta=np.empty((0, 0), dtype=np.float64),
        )
    if isinstance(X, dd.DataFrame):
        if method == "predict":

            def labels(part: pd.DataFrame) -> pd.Series:
                return pd.Series(
                    _predicted(estimator, method, part), index=part.index
                )

            meta = pd.Series(np.empty(0, dtype=estimator.classes_.dtype))
            return X.map_partitions(labels, meta=meta)
        cols = [str(c) for c in estimator.classes_]

        def scores(part: pd.DataFrame) -> pd.DataFrame:
            out = _predicted(estimator, method, part)
            return pd.DataFrame(out, index=part.index, columns=cols)

        meta = pd.DataFrame({c: np.empty(0) for c in cols})
        return X.map_partitions(scores, meta=meta).to_dask_array()
    raise _unsupported_dask(X)
