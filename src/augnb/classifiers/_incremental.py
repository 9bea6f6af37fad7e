"""Fitting from sufficient statistics: ``partial_fit``, chunked and distributed fits.

A chunk of rows becomes a :class:`~augnb.stats.sufficient.SufficientStatistics`
(:func:`frame_statistics`, a pure function, so Dask workers can run it); the
statistics of all chunks are summed; the learner re-learns its structure from
the totals and fits its parameters from them. Since the totals do not depend
on how the rows were split, any chunking gives exactly the batch fit.

Rules fixed by the first chunk (docs/scaling.md):

* column kinds (discrete / continuous) are inferred from the first chunk, and
  every later chunk is read with them;
* continuous columns of a discrete learner are discretised with cut points
  learned on the first chunk only, then frozen: bins never change silently
  afterwards (changing ``discretizer`` between ``partial_fit`` calls raises).
  The result equals the batch fit of data discretised with those cut points;
  for the exact batch fit, discretise the data beforehand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import validate_data

from augnb.data.encoding import as_frame, encode_target
from augnb.data.schema import ColumnSpec, Schema, _sorted_categories
from augnb.params.from_statistics import (
    comoment_families,
    families,
    fit_model_from_statistics,
)
from augnb.stats.sufficient import SufficientStatistics
from augnb.structure._structure import Structure

__all__ = [
    "ChunkPlan",
    "IncrementalMixin",
    "frame_statistics",
    "keep_statistics",
    "second_pass_plan",
]


@dataclass
class ChunkPlan:
    """What every chunk is read with: fixed by the first chunk.

    Attributes
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
    """

    names: list
    continuous: list
    discretizer: object | None
    classes: tuple | None
    class_dtype: np.dtype
    max_order: int = 2
    subsets: tuple = ()
    singles: bool = True
    comoments: tuple = ()
    discretizer_param: object = field(default=None, repr=False)


def _y_array(y: object) -> object:
    if isinstance(y, pd.DataFrame):
        if y.shape[1] != 1:
            raise ValueError(f"y must be one column; got {y.shape[1]} columns.")
        return y.iloc[:, 0]
    return y


def frame_statistics(X: object, y: object, plan: ChunkPlan) -> SufficientStatistics:
    """Sufficient statistics of one chunk of raw rows.

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_samples, n_features)
        The chunk's features (columns as at the first chunk).
    y : array-like of shape (n_samples,)
        The chunk's class labels.
    plan : ChunkPlan
        Column kinds, frozen discretiser and the tables to count.

    Returns
    -------
    SufficientStatistics
        Indexed by the chunk's own levels (``+`` aligns them).
    """
    frame = as_frame(X) if not isinstance(X, pd.DataFrame) else X
    if list(frame.columns) != list(plan.names):
        if frame.shape[1] != len(plan.names):
            raise ValueError(
                f"Chunk has {frame.shape[1]} columns; the first chunk had "
                f"{len(plan.names)}: {list(plan.names)[:10]}."
            )
        frame = frame.set_axis(plan.names, axis=1)
    n = frame.shape[0]
    y = _y_array(y)
    if plan.classes is None:
        classes, y_codes = encode_target(y, n)
        classes = tuple(classes.tolist())
    else:
        labels, local = encode_target(y, n)
        index = {v: k for k, v in enumerate(plan.classes)}
        unknown = [v for v in labels.tolist() if v not in index]
        if unknown:
            raise ValueError(
                f"y holds labels {unknown[:5]} that are not in classes="
                f"{list(plan.classes)}; list every class on the first call."
            )
        y_codes = np.array([index[v] for v in labels.tolist()], dtype=np.intp)[local]
        classes = plan.classes
    if plan.discretizer is not None and plan.continuous:
        binned = plan.discretizer.transform(
            frame.loc[:, plan.continuous].astype(np.float64)
        )
        frame = frame.copy()
        for c in plan.continuous:
            frame[c] = binned[c]
        cont = set()
    else:
        cont = set(plan.continuous)
    specs = []
    for i, name in enumerate(plan.names):
        if name in cont:
            specs.append(ColumnSpec(name, "continuous"))
        else:
            specs.append(
                ColumnSpec(name, "discrete", _sorted_categories(frame.iloc[:, i]))
            )
    schema = Schema(tuple(specs))
    data = schema.encode(frame)
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
    )


def second_pass_plan(
    estimator: IncrementalMixin,
    plan: ChunkPlan,
    structure: Structure,
    stats: SufficientStatistics,
) -> ChunkPlan | None:
    """Plan of a second pass counting the families the first pass lacks (or None)."""
    missing = estimator._missing_families(structure, stats)
    missing_co = estimator._missing_comoments(structure, stats)
    if not missing and not missing_co:
        return None
    return ChunkPlan(
        names=plan.names,
        continuous=plan.continuous,
        discretizer=plan.discretizer,
        classes=plan.classes,
        class_dtype=plan.class_dtype,
        max_order=1,
        subsets=tuple(missing),
        singles=False,
        comoments=tuple(missing_co),
    )


class IncrementalMixin:
    """``partial_fit`` and the fit-from-statistics path of count-based learners.

    A learner opts in by implementing :meth:`_learn_structure_from_statistics`
    (and, if it needs more than pair tables, :meth:`_statistics_order`).
    """

    #: Why the learner cannot be fitted from statistics (None: it can).
    _no_statistics_reason: str | None = None

    def _learn_structure_from_statistics(
        self, stats: SufficientStatistics
    ) -> Structure:
        """Structure from count tables; learners that support it override this."""
        raise TypeError(self._unsupported_message())

    def _unsupported_message(self) -> str:
        name = type(self).__name__
        reason = self._no_statistics_reason or (
            f"{name} learns its structure from the rows themselves"
        )
        return (
            f"{name} cannot be fitted from sufficient statistics (partial_fit, "
            f"fit_files, Dask input): {reason}. Fit it in memory on the data or on "
            "a sample that fits (e.g. `ddf.sample(frac=...).compute()`), or use a "
            "count-based learner (NaiveBayes, TAN, SelectiveTAN, FFSS, KDB, AODE, "
            "DDRChowLiu, TaheriANB, ETAN, CAN); see docs/scaling.md."
        )

    def _supports_statistics(self) -> bool:
        return (
            type(self)._learn_structure_from_statistics
            is not IncrementalMixin._learn_structure_from_statistics
        )

    def _statistics_order(self, *, incremental: bool) -> int:
        """Largest feature subsets to count with the class.

        2 (all pairs) serves every structure whose families have at most two
        features. ``incremental`` is True for ``partial_fit``, which cannot
        make a second pass over the data for larger families.
        """
        return 2

    def _statistics_comoments(
        self, cards: NDArray[np.int64], *, incremental: bool
    ) -> tuple:
        """Co-moment families to count in the first pass (none by default)."""
        return ()

    # -- plan ---------------------------------------------------------------

    def _start_plan(
        self,
        X: object,
        y: object,
        *,
        classes: Sequence | None = None,
        incremental: bool = False,
    ) -> ChunkPlan:
        """Fix column kinds, discretiser and classes from the first chunk."""
        if not self._supports_statistics():
            raise TypeError(self._unsupported_message())
        self._check_params()
        frame = as_frame(X)
        y = _y_array(y)
        local_classes, y_codes = encode_target(y, frame.shape[0])
        validate_data(self, frame, reset=True, skip_check_array=True)
        fixed = None
        class_dtype = local_classes.dtype
        if classes is not None:
            cls_arr, _ = encode_target(np.asarray(classes), len(classes))
            fixed = tuple(cls_arr.tolist())
            class_dtype = cls_arr.dtype
        raw = Schema.infer(
            frame,
            discrete_features=getattr(self, "discrete_features", None),
            continuous_features=getattr(self, "continuous_features", None),
        )
        continuous = raw.continuous_names
        self.continuous_columns_ = list(continuous)
        self.discretizer_ = None
        mode = getattr(self, "continuous", "discretize")
        if continuous and mode != "discretize":
            if mode != "gaussian":
                raise TypeError(
                    f"{type(self).__name__}(continuous={mode!r}) fits its densities "
                    "by iterating over the rows (EM); only continuous='gaussian' "
                    "(per-class moments) can be fitted from sufficient statistics."
                )
        elif continuous:
            if getattr(self, "discretizer", None) is None:
                raise ValueError(
                    f"{type(self).__name__} models discrete features only, but "
                    f"columns {continuous} are continuous; pass discretizer='mdlp' "
                    "(the default), discretise them yourself, or list them in "
                    "discrete_features."
                )
            from augnb.classifiers._base import make_discretizer

            disc = make_discretizer(self.discretizer)
            self.discretizer_ = disc.fit(
                frame.loc[:, continuous].astype(np.float64), y_codes
            )
        cards = np.array(
            [
                0 if (name in continuous and self.discretizer_ is None) else 1
                for name in frame.columns
            ],
            dtype=np.int64,
        )
        return ChunkPlan(
            names=list(frame.columns),
            comoments=tuple(self._statistics_comoments(cards, incremental=incremental)),
            continuous=list(continuous),
            discretizer=self.discretizer_,
            classes=fixed,
            class_dtype=class_dtype,
            max_order=self._statistics_order(incremental=incremental),
            discretizer_param=getattr(self, "discretizer", None),
        )

    # -- fit ----------------------------------------------------------------

    def _forget_statistics(self) -> None:
        """Drop the statistics of earlier ``partial_fit`` calls: ``fit`` starts over."""
        self.__dict__.pop("statistics_", None)
        self.__dict__.pop("_chunk_plan", None)

    def _missing_families(
        self, structure: Structure, stats: SufficientStatistics
    ) -> list[tuple[int, ...]]:
        """Family tables the structure needs that the statistics lack."""
        cards = stats.cards
        return [
            s
            for s in families(structure)
            if all(cards[f] > 0 for f in s) and not stats.has(s)
        ]

    def _missing_comoments(
        self, structure: Structure, stats: SufficientStatistics
    ) -> list[tuple]:
        """Co-moment families the structure's Gaussian nodes need and lack."""
        return [
            key
            for key in comoment_families(structure, stats.cards)
            if key not in stats.comoments
        ]

    def _fit_from_statistics(
        self,
        stats: SufficientStatistics,
        plan: ChunkPlan,
        structure: Structure | None = None,
    ) -> IncrementalMixin:
        """Set every fitted attribute from summed statistics.

        Parameters
        ----------
        stats : SufficientStatistics
            Totals over all chunks.
        plan : ChunkPlan
            The plan the chunks were read with.
        structure : Structure, default=None
            Structure already learned from ``stats`` (learned here when None).

        Returns
        -------
        self
        """
        if stats.n_classes < 2:
            raise ValueError(
                f"y has only one class ({list(stats.classes)!r}) so far; a classifier "
                "needs samples of at least 2 classes. With partial_fit, list every "
                "class on the first call: partial_fit(X, y, classes=[...])."
            )
        self.classes_ = np.asarray(list(stats.classes), dtype=plan.class_dtype)
        self.schema_ = Schema(
            tuple(
                ColumnSpec(name, "continuous" if cats is None else "discrete", cats)
                for name, cats in zip(stats.names, stats.categories)
            )
        )
        if (
            "smoothing" in self._parameter_constraints
            and self.smoothing != "lidstone"
        ):
            raise ValueError(
                f"{type(self).__name__}: smoothing={self.smoothing!r} is fitted "
                "in memory only (fit); fits from sufficient statistics "
                "(partial_fit, fit_files, Dask input) use smoothing='lidstone'."
            )
        if structure is None:
            structure = self._learn_structure_from_statistics(stats)
        missing = self._missing_families(structure, stats)
        missing += self._missing_comoments(structure, stats)
        if missing:
            raise ValueError(
                f"The statistics lack the family tables {missing[:5]} of the "
                "learned structure; count them in a second pass."
            )
        self.structure_ = self._named_structure(structure)
        self.model_ = fit_model_from_statistics(
            structure,
            stats,
            alpha=float(self.alpha),
            var_smoothing=float(getattr(self, "var_smoothing", 1e-9)),
        )
        self.n_categories_ = stats.cards
        # (a method of BaseAugmentedNB, which this mixin is part of)
        self._set_structure_attributes(structure, list(stats.names))
        return self

    def _check_partial_fit(self) -> bool:
        """Whether ``partial_fit`` exists; raises the reason where it does not."""
        if not self._supports_statistics():
            raise AttributeError(self._unsupported_message())
        mode = getattr(self, "continuous", "discretize")
        if mode not in ("discretize", "gaussian"):
            raise AttributeError(
                f"{type(self).__name__}(continuous={mode!r}) has no partial_fit: its "
                "densities are fitted by iterating over the rows (EM); only "
                "continuous='gaussian' (per-class moments) is fitted from "
                "sufficient statistics."
            )
        return True

    @available_if(_check_partial_fit)
    def partial_fit(
        self, X: object, y: object, classes: Sequence | None = None
    ) -> IncrementalMixin:
        """Update the model with one more chunk of rows.

        The statistics of all chunks so far (``statistics_``) are summed, the
        structure is re-learned from the totals and the parameters refitted,
        so any chunking gives exactly the fit on all rows together. A
        category first seen in a later chunk extends the tables. Column kinds
        and discretisation cut points are fixed by the first chunk (see
        docs/scaling.md); ``fit`` starts over.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            The chunk's features.
        y : array-like of shape (n_samples,)
            The chunk's class labels.
        classes : array-like, default=None
            Every class label, on the first call (as scikit-learn's
            ``partial_fit``). Needed when the first chunk holds fewer than 2
            classes; if given, later labels must be among them. When None,
            classes seen in later chunks are added.

        Returns
        -------
        self
        """
        plan = getattr(self, "_chunk_plan", None)
        if plan is None or not hasattr(self, "statistics_"):
            plan = self._start_plan(X, y, classes=classes, incremental=True)
            previous = None
        else:
            previous = self.statistics_
            if getattr(self, "discretizer", None) is not plan.discretizer_param:
                raise ValueError(
                    "discretizer changed since the first partial_fit call; the cut "
                    "points are fixed by the first chunk. Call fit to start over."
                )
            if classes is not None:
                given, _ = encode_target(np.asarray(classes), len(classes))
                if plan.classes is None or tuple(given.tolist()) != plan.classes:
                    raise ValueError(
                        f"classes={list(given)} differs from the first call's "
                        f"{plan.classes}; give classes only on the first call."
                    )
            frame = as_frame(X)
            validate_data(self, frame, reset=False, skip_check_array=True)
        chunk = frame_statistics(X, y, plan)
        total = chunk if previous is None else previous + chunk
        self._fit_from_statistics(total, plan)
        self.statistics_ = total
        self._chunk_plan = plan
        return self


def keep_statistics(
    estimator: object, stats: SufficientStatistics, plan: ChunkPlan
) -> None:
    """Keep the totals so that ``partial_fit`` can continue from them.

    Only when they hold every table ``partial_fit`` counts (not for kDB with
    ``k >= 2``, whose subsets of up to ``k + 1`` features were not counted,
    nor for CAN, whose ``partial_fit`` keeps every family a clique could need).
    """
    if estimator._statistics_order(incremental=True) != plan.max_order:
        return
    try:
        wanted = estimator._statistics_comoments(stats.cards, incremental=True)
    except (TypeError, ValueError):  # too many families for partial_fit
        return
    # CAN's partial_fit keeps more co-moments than a two-pass fit counts.
    if set(wanted) != set(plan.comoments):
        return
    estimator.statistics_ = stats
    estimator._chunk_plan = plan
