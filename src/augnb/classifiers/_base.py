"""The one base class: validation, encoding, discretisation, inference, prediction."""

from __future__ import annotations

import functools
from abc import ABCMeta, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from typing import ClassVar, TypeVar, cast

import numba
import numpy as np
import pandas as pd
from numpy.typing import NDArray
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted, validate_data

from augnb._docstrings import shared_entries
from augnb._logsumexp import logsumexp
from augnb._softmax import softmax_terms
from augnb._threads import map_spans, thread_spans
from augnb._warnings import warn_at_caller
from augnb.classifiers.constraints import (
    ALPHA,
    AnyOf,
    ColumnList,
    Options,
    Transformer,
    check_parameters,
)
from augnb.data.audit import refuse_times_as_numbers, warn_data_problems
from augnb.data.encoding import (
    EncodedData,
    _check_label_types,
    as_frame,
    column_indices,
    encode_target,
    float_arrays,
    frame_from_columns,
    refuse_reordered_columns,
    typed_labels,
)
from augnb.data.schema import (
    Schema,
    counted_kinds_broken,
    gapless_whole_columns,
    kinds_by_counting,
    kinds_still_hold,
    whole_columns_gapped,
)
from augnb.discretize.factory import DISCRETIZERS, fit_discretizer
from augnb.inference import MissingTooCostly, joint_log_likelihood
from augnb.params.categorical import DiscreteModel, fit_discrete_model
from augnb.params.from_statistics import fit_model_from_statistics
from augnb.params.mixed_model import MixedModel, fit_mixed_model
from augnb.sources import (
    ChunkPlan,
    ChunkSource,
    DaskSource,
    MemorySource,
    RowSource,
    discretize_columns,
    frame_statistics,
    missing_tables,
    predict_dask,
    refuse_unobserved,
    schema_of_statistics,
    warn_of_type_changes,
    weighted_chunk,
)
from augnb.stats.sufficient import SufficientStatistics
from augnb.stats.training import CountTables, TrainingData
from augnb.structure import Structure

__all__ = [
    "BaseAugmentedNB",
    "TrainingData",
    "held_classifier",
    "scores_with_model",
]

#: The smallest normal float64: a square below it keeps few bits or none.
_SMALLEST_NORMAL = float(np.finfo(np.float64).tiny)


@numba.njit(cache=True, nogil=True)
def _softmax_rows(jll, out):
    """Row-wise softmax into ``out``: ``exp(x - max) / sum exp(x - max)``."""
    n, k = jll.shape
    for r in range(n):
        row = out[r]
        # A call per term, no branch: predict_proba's rows are often flat
        # over many classes, where the branch costs more than it saves.
        total = softmax_terms(jll, r, row, False)
        for c in range(k):
            row[c] /= total
    return out


_Method = TypeVar("_Method", bound=Callable)


def _dask_chunks(method: _Method) -> _Method:
    """``method(self, X)``, applied chunk by chunk when X is a Dask collection.

    The signature type checkers see is the method's own (a Dask input gives
    the lazy Dask collection of the same values).
    """

    @functools.wraps(method)
    def on_chunks(self: BaseAugmentedNB, X: object) -> object:
        if _is_dask(X):
            return predict_dask(self, X, method.__name__)
        return method(self, X)

    return cast(_Method, on_chunks)


def _reset_feature_names(
    estimator: BaseEstimator, frame: pd.DataFrame, names: list
) -> None:
    """``validate_data(estimator, frame, reset=True, skip_check_array=True)``.

    scikit-learn reads a frame's column names through narwhals, which costs
    about half a millisecond, a tenth of a small fit. A pandas frame's names
    are read here by its rule: all ``str``, they become ``feature_names_in_``;
    none ``str``, the estimator has no feature names. Names mixing ``str``
    and other types (refused by scikit-learn), and any other frame, go
    through scikit-learn. ``names`` is ``frame.columns.tolist()``.
    """
    columns = frame.columns
    types = {type(v).__qualname__ for v in names}
    if (
        type(frame) is not pd.DataFrame
        or isinstance(columns, pd.MultiIndex)
        or ("str" in types and len(types) > 1)
    ):
        validate_data(estimator, frame, reset=True, skip_check_array=True)
        return
    if types == {"str"}:
        estimator.feature_names_in_ = np.asarray(names, dtype=object)
    elif hasattr(estimator, "feature_names_in_"):
        delattr(estimator, "feature_names_in_")
    estimator.n_features_in_ = frame.shape[1]


def _check_feature_names(estimator: BaseEstimator, frame: pd.DataFrame) -> None:
    """``validate_data(estimator, frame, reset=False, skip_check_array=True)``.

    The common case, a pandas frame with the fitted ``str`` column names in
    the fitted order, passes scikit-learn's checks without a word; it is told
    here without narwhals (about half a millisecond a prediction call).
    Anything else goes through scikit-learn, its warnings and errors
    included.
    """
    fitted = getattr(estimator, "feature_names_in_", None)
    if (
        type(frame) is pd.DataFrame
        and fitted is not None
        and not isinstance(frame.columns, pd.MultiIndex)
        and len(fitted) == frame.shape[1]
    ):
        names = frame.columns.tolist()
        if all(type(n) is str for n in names) and names == fitted.tolist():
            return
    try:
        validate_data(estimator, frame, reset=False, skip_check_array=True)
    except ValueError as exc:
        if (
            fitted is None
            or not isinstance(frame, pd.DataFrame)
            or not set(fitted.tolist()) <= set(frame.columns.tolist())
        ):
            raise
        # Every fitted column is there, in another order or among others
        # (a new file's layout, which `augnb predict` reads by name):
        # scikit-learn's message is kept, and the one-step fix added.
        raise ValueError(
            f"{exc}\nEvery fitted column is present: select them in the fitted "
            "order with X[model.feature_names_in_] (augnb predict matches a "
            "file's columns by name)"
        ) from None


#: ``__init__`` parameter names of each estimator class (see
#: ``BaseAugmentedNB._get_param_names``).
_PARAM_NAMES: dict[type, list[str]] = {}


def _is_dask(obj: object) -> bool:
    """Whether ``obj`` is a Dask collection (checked without importing dask).

    The collection protocol is looked up on the type: the ``dask`` attribute
    of a Dask DataFrame builds its task graph (several milliseconds a call),
    and on a pandas frame it finds a column named ``dask``.
    """
    kind = type(obj)
    return callable(getattr(kind, "__dask_graph__", None)) and hasattr(
        kind, "compute"
    )


def _refuse_columns(
    params: dict, X: object, *, dask: bool = False, warn: bool = False
) -> None:
    """The audit of a stream's first rows (``partial_fit``, Dask).

    A date column is refused as ``fit`` refuses it. With ``warn=False``
    (``partial_fit``, whose chunks are read once) the audit's warnings are
    left out, a chunk's few rows not being the table, but for a text column
    of numbers (its type, not its counts), whose likely cause a Dask
    partition (``dask``) names. A Dask ``fit`` warns: its source audits a
    sample drawn across every partition when the first one's findings are
    in doubt, as a file's does.
    """
    warn_data_problems(as_frame(X), params, warn=warn, dask=dask)


def _kind_params(estimator: BaseAugmentedNB) -> tuple:
    """``(name, value)`` of the parameters that say how columns are read.

    Column lists are kept as tuples of their items (an array and the list
    of the same names compare equal), for ``partial_fit`` to compare.
    """
    found: list[tuple[str, object]] = [
        ("continuous", getattr(estimator, "continuous", "discretize"))
    ]
    for name in ("discrete_features", "continuous_features"):
        value = getattr(estimator, name, None)
        if value is not None and not isinstance(value, str):
            items = value.tolist() if isinstance(value, np.ndarray) else value
            value = tuple(items)
        found.append((name, value))
    return tuple(found)


def _same_discretizer(current: object, first: object) -> bool:
    """Whether ``discretizer`` is still the one of the first ``partial_fit``.

    A name is compared by its text (set again from a configuration file, it
    is an equal string but another object); a transformer by identity, as
    fitting it (on the first chunk) changes it in place.
    """
    if isinstance(current, str) and isinstance(first, str):
        return current == first
    return current is first


def _warn_cuts_without_classes(
    missing: Sequence[Hashable], continuous: Sequence[Hashable]
) -> None:
    """Warn that ``partial_fit``'s frozen cut points never saw some classes.

    The first chunk's rows fix the cut points of the continuous columns. A
    class it lacks cannot shape them: a supervised discretiser (``"mdlp"``)
    given one class makes no cut at all, and the columns then carry no
    information, without any error (iris sorted by class: 33 % accuracy).
    """
    if not missing or not continuous:
        return
    labels = [c.item() if isinstance(c, np.generic) else c for c in missing]
    warn_at_caller(
        f"partial_fit: class(es) {labels} are not in the first chunk, whose rows "
        f"fixed the cut points of the continuous column(s) {list(continuous)}; "
        "those cut points cannot separate them (with 'mdlp', a column whose "
        "first chunk holds one class gets no cut and carries no information). "
        "Shuffle the rows so that the first chunk holds every class, or "
        "discretise the columns yourself before partial_fit."
    )


def _warn_counted_kinds(
    before: SufficientStatistics, after: SufficientStatistics, counted: Sequence
) -> None:
    """Warn that a chunk made a column the first chunk counted continuous.

    The first chunk classed the columns ``counted`` discrete by their few
    whole numbers; a later one may bring a fraction or more than 20 values,
    which makes the column continuous in ``fit`` on every row (and in
    ``fit_files``, Dask and ``augnb fit``, which count every row before
    deciding). ``partial_fit`` reads each chunk once and cannot go back: the
    column stays discrete, each new value a category of its own, which it
    says once, when it happens.
    """
    if not counted:
        return
    was = counted_kinds_broken(schema_of_statistics(before), counted)
    now = counted_kinds_broken(schema_of_statistics(after), counted)
    new = {name: why for name, why in now.items() if name not in was}
    if not new:
        return
    names = list(new)
    held = "; ".join(f"column {name!r} now holds {why}" for name, why in new.items())
    them = "it" if len(names) == 1 else "them"
    warn_at_caller(
        f"partial_fit: {held}. The first chunk read {them} as discrete (few "
        f"whole numbers); fit on all the rows reads {them} as continuous. This "
        f"model keeps {them} discrete, each new value a category of its own: "
        "to read numbers, fit again from the first chunk with "
        f"continuous_features={names}; discrete_features={names} keeps the "
        "categories and silences this warning."
    )


def _object_columns(X: object) -> set:
    """Names of a DataFrame's ``object`` columns (typed by their values later)."""
    dtypes = getattr(X, "dtypes", None)
    if not isinstance(dtypes, pd.Series):
        return set()
    is_object = pd.api.types.is_object_dtype
    return {name for name, dtype in dtypes.items() if is_object(dtype)}


def _warn_whole_gaps(gapped: Sequence) -> None:
    """Warn that a chunk left gaps in columns the first chunk read as continuous.

    The first chunk held few whole numbers without a gap in these float
    columns, which makes them continuous; with missing cells they are how
    pandas holds an integer column with gaps, which ``fit`` on all the rows
    reads as discrete (rule 3 of the column kinds). ``partial_fit`` cannot
    go back: it says so once per column.
    """
    if not gapped:
        return
    names = list(gapped)
    them = "it" if len(names) == 1 else "them"
    warn_at_caller(
        f"partial_fit: column(s) {names} now have missing cells; the first "
        f"chunk, whose whole numbers had none, read {them} as continuous, but "
        "a float column of a few whole numbers with gaps is how pandas holds "
        f"an integer column, and fit on all the rows reads {them} as discrete "
        "while they hold at most 20 values, all whole numbers. This model keeps "
        f"{them} continuous: to count the values, fit again from the first "
        f"chunk with discrete_features={names}; continuous_features={names} "
        "keeps them continuous and silences this warning."
    )


@shared_entries
class BaseAugmentedNB(ClassifierMixin, BaseEstimator, metaclass=ABCMeta):
    """Base class of every augnb classifier.

    A subclass writes an ``__init__`` that only stores its arguments (as
    scikit-learn requires), lists the valid values of every parameter in
    ``_parameter_constraints`` (this class's table merged with its own
    entries) and implements :meth:`_learn_structure`; validation, fitting
    parameters, inference and the prediction methods live here, once.

    Parameters
    ----------
    {alpha}
    {input_columns}
    """

    #: Valid values of each parameter, checked when ``fit`` starts: the
    #: smoothing constant and how the input columns are read, which every
    #: estimator shares. A subclass's table is ``{**Base._parameter_constraints,
    #: ...}`` with an entry for each of its parameters.
    _parameter_constraints: ClassVar[dict] = {
        "alpha": ALPHA,
        "discretizer": AnyOf(Options(*DISCRETIZERS, None), Transformer()),
        "discrete_features": ColumnList(),
        "continuous_features": ColumnList(),
    }

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        discretizer: object = "mdlp",
        discrete_features: Sequence | None = None,
        continuous_features: Sequence | None = None,
    ) -> None:
        self.alpha = alpha
        self.discretizer = discretizer
        self.discrete_features = discrete_features
        self.continuous_features = continuous_features

    @abstractmethod
    def _learn_structure(self, data: CountTables) -> Structure:
        """Return the structure learned from the training counts.

        ``data`` is :class:`~augnb.stats.training.TrainingData` (encoded rows
        in memory, which also count on demand) or, for learners that fit from
        sufficient statistics (``_needs_rows = None``),
        :class:`~augnb.stats.sufficient.SufficientStatistics`; both read their
        tables through :class:`~augnb.stats.training.CountTables`.
        """

    # -- validation ---------------------------------------------------------

    #: Other names the command line accepts for the class (not inherited).
    _aliases: ClassVar[tuple[str, ...]] = ()
    #: One line for ``augnb estimators`` (default: the docstring's first line).
    _summary: ClassVar[str] = ""

    #: How continuous columns are modelled: "discretize" (the default) or a
    #: density family; estimators with a ``continuous`` parameter set it.
    #: (Not annotated: it is no parameter of the base class.)
    continuous = "discretize"

    def _keeps_continuous(self) -> bool:
        """Whether continuous columns reach the learner undiscretised.

        True for density models; a learner that discretises the raw values
        itself (ESKDB, one discretiser per member) overrides this.
        """
        return self.continuous != "discretize"

    @classmethod
    def _get_param_names(cls) -> list[str]:
        # scikit-learn reads ``__init__``'s signature on every get_params; a
        # fit asks three times (parameter checks, the data audit), and the
        # signature costs more than a small fit's counting. A class's
        # ``__init__`` does not change: read once per class.
        names = _PARAM_NAMES.get(cls)
        if names is None:
            names = _PARAM_NAMES[cls] = super()._get_param_names()
        return list(names)

    def set_params(self, **params: object) -> BaseAugmentedNB:
        """Set the parameters, those of a nested transformer included.

        As scikit-learn's, but a nested name (``discretizer__n_bins``) whose
        parameter holds no estimator, such as the default
        ``discretizer="mdlp"`` in a grid search, is refused with the fix,
        where scikit-learn failed with "'str' object has no attribute
        'set_params'".

        Parameters
        ----------
        **params : dict
            Parameter names (``name`` or ``name__inner``) and their values.

        Returns
        -------
        self
        """
        names = self._get_param_names()
        for key in params:
            name, nested, _ = key.partition("__")
            if not nested or name not in names:
                continue  # scikit-learn names an unknown parameter itself
            # The same call may set the parameter itself (scikit-learn sets it
            # before the nested ones).
            value = params[name] if name in params else getattr(self, name, None)
            if not hasattr(value, "set_params"):
                fix = (
                    "give it a discretiser instance, whose parameters you then "
                    "set (discretizer=EqualWidthDiscretizer(), then "
                    "discretizer__n_bins), or set discretizer itself (a grid "
                    "over instances: {'discretizer': [EqualWidthDiscretizer("
                    "n_bins=3), EqualWidthDiscretizer(n_bins=5)]})"
                    if name == "discretizer"
                    else f"set {name} itself"
                )
                raise ValueError(
                    f"{type(self).__name__}: cannot set {key!r}, as {name}="
                    f"{value!r} has no parameters of its own; {fix}."
                )
        return super().set_params(**params)

    def _check_params(self) -> None:
        """Validate every parameter against ``_parameter_constraints``."""
        check_parameters(self, self.get_params(deep=False), self._parameter_constraints)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags

    # -- fitting ------------------------------------------------------------

    #: Whether the learner weighs rows natively (weighted counts in its
    #: structure search and parameters). Other learners fit integer weights
    #: by repeating rows and refuse fractional ones.
    _weighted_counts: ClassVar[bool] = False

    #: Why the learner needs the training rows themselves, or None when it
    #: learns from count tables alone (then ``partial_fit``, ``fit_files`` and
    #: Dask input fit it from sufficient statistics).
    _needs_rows: ClassVar[str | None] = (
        "it learns its structure from the rows themselves"
    )

    def fit(
        self, X: object, y: object, sample_weight: object = None
    ) -> BaseAugmentedNB:
        """Learn the structure and parameters from training data.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Training features; missing values (None, NaN, pd.NA) allowed.
        y : array-like of shape (n_samples,)
            Class labels: strings, numbers or booleans, none missing.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative row weights. Every count is a sum of weights, so an
            integer weight equals repeating the row and a weight of 0 equals
            removing it. Learners that do not weigh counts natively (the
            wrapper searches, ETAN, CAN) repeat rows by their integer weights
            and refuse fractional ones; the discretiser's cut points use
            integer weights as repetitions and, for fractional weights, the
            rows with positive weight unweighted.

        Returns
        -------
        self
        """
        self._forget_statistics()
        if _is_dask(X) or _is_dask(y):
            if sample_weight is not None:
                raise ValueError(
                    "sample_weight is not supported with Dask input; add the "
                    "weights as repeated rows or fit in memory."
                )
            audit = functools.partial(
                _refuse_columns, self.get_params(), dask=True, warn=True
            )
            return self._fit_source(DaskSource(X, y, audit=audit))
        self._check_params()
        source = MemorySource(
            X,
            y,
            sample_weight,
            weighted_counts=self._weighted_counts,
            learner=type(self).__name__,
            audit_params=self.get_params(deep=False),
        )
        return self._fit_source(source)

    def _fit_source(
        self,
        source: RowSource,
        *,
        classes: Sequence | None = None,
        incremental: bool = False,
    ) -> BaseAugmentedNB:
        """The one fit: a plan from the first rows, tables, structure, parameters.

        A fit that fails leaves the estimator unfitted (no attribute of the
        old model beside those of the new rows).

        Parameters
        ----------
        source : RowSource
            Rows in memory, chunks, files or Dask partitions.
        classes : sequence, default=None
            Every class label (``partial_fit``'s first call).
        incremental : bool, default=False
            Whether the source can be read only once (``partial_fit``).

        Returns
        -------
        self
        """
        try:
            return self._fit_source_or_fail(
                source, classes=classes, incremental=incremental
            )
        except BaseException:
            # The plan sets n_features_in_ (and more) from the new rows before
            # anything can fail: the old model would be left with them, and
            # predicting failed in pandas ("Length mismatch"). Unfitted, it
            # says so.
            self._forget_fitted()
            raise

    def _forget_fitted(self) -> None:
        """Drop every fitted attribute (``name_``), statistics included."""
        for name in [n for n in vars(self) if n.endswith("_") and n[0] != "_"]:
            delattr(self, name)
        self._forget_statistics()

    def _fit_source_or_fail(
        self,
        source: RowSource,
        *,
        classes: Sequence | None,
        incremental: bool,
    ) -> BaseAugmentedNB:
        """The body of :meth:`_fit_source`, which drops what it set on failure."""
        self._check_params()
        if not source.in_memory and self._needs_rows is not None:
            raise TypeError(self._unsupported_message())
        plan = source.plan(self, classes=classes, incremental=incremental)
        data, schema = source.tables(plan)
        if (
            not incremental
            and not plan.sampled
            and not kinds_still_hold(schema, plan.counted)
        ):
            # A column the first rows classed discrete by its few values holds
            # more (or a fraction) in all of them: the in-memory rule makes it
            # continuous. Plan again from the sample of every row (all of
            # them, in order, when they are few), and count again.
            plan = source.plan(self, classes=classes, resample=True)
            data, schema = source.tables(plan)
        if not incremental and not source.in_memory:
            # The first rows' plan keeps a category column none of them
            # holds (later rows may); with every row counted, none did.
            refuse_unobserved(data)
        self._fit_tables(data, schema, plan, source.classes, source)
        if not source.in_memory:
            self._keep_statistics(data, plan)
        return self

    def _start_plan(
        self,
        X: object,
        y: object,
        *,
        classes: Sequence | None = None,
        incremental: bool = False,
        in_memory: bool = False,
        cut_rows: NDArray[np.intp] | None = None,
        y_encoded: tuple | None = None,
        sampled: bool = False,
    ) -> ChunkPlan:
        """Column kinds, discretiser and classes, fixed from the first rows.

        Sets ``n_features_in_`` (and ``feature_names_in_``),
        ``continuous_columns_`` and ``discretizer_``. ``X`` is the first
        chunk of a stream unless it holds every row (``in_memory``) or a
        sample drawn across them (``sampled``): a column missing in every
        row of those is refused as the in-memory fit refuses it.
        """
        frame = as_frame(X)
        if y_encoded is None:
            y_encoded = encode_target(y, frame.shape[0])
        local_classes, y_codes = y_encoded
        # tolist(): list() reads pandas 3 str names one by one (~0.1 ms).
        names = frame.columns.tolist()
        _reset_feature_names(self, frame, names)
        fixed = None
        class_dtype = local_classes.dtype
        if classes is not None:
            cls_arr, _ = encode_target(np.asarray(classes), len(classes))
            fixed = tuple(cls_arr.tolist())
            class_dtype = cls_arr.dtype
        raw = Schema.infer(
            frame,
            discrete_features=self.discrete_features,
            continuous_features=self.continuous_features,
            first_chunk=not (in_memory or sampled),
        )
        continuous = raw.continuous_names
        self.continuous_columns_ = list(continuous)
        self.discretizer_ = None
        if continuous and self._keeps_continuous():
            # Continuous columns stay continuous: density CPDs model them, or
            # the learner discretises the raw values itself.
            if not in_memory and self.continuous != "gaussian":
                raise TypeError(
                    f"{type(self).__name__}(continuous={self.continuous!r}) fits "
                    "its densities by iterating over the rows (EM); only "
                    "continuous='gaussian' (per-class moments) can be fitted from "
                    "sufficient statistics."
                )
        elif continuous:
            if self.discretizer is None:
                raise ValueError(
                    f"{type(self).__name__} models discrete features only, but "
                    f"columns {continuous} are continuous; pass discretizer='mdlp' "
                    "(the default), discretise them yourself, or list them in "
                    "discrete_features."
                )
            # Cut points from weighted rows: integer weights repeat the rows
            # (exactly as if they were duplicated); fractional weights leave
            # the cut points to the rows with positive weight, unweighted.
            sub = frame_from_columns(
                float_arrays(frame, column_indices(frame, continuous)),
                continuous,
                frame.index,
            )
            self.discretizer_ = fit_discretizer(
                self.discretizer,
                sub if cut_rows is None else sub.iloc[cut_rows],
                y_codes if cut_rows is None else y_codes[cut_rows],
            )
            if incremental and fixed is not None:
                present = set(local_classes.tolist())
                _warn_cuts_without_classes(
                    [c for c in fixed if c not in present], continuous
                )
        cards = np.array(
            [
                0 if (name in continuous and self.discretizer_ is None) else 1
                for name in names
            ],
            dtype=np.int64,
        )
        counted, unsettled = (
            ((), False)
            if in_memory
            else kinds_by_counting(
                frame,
                raw,
                self.discrete_features,
                self.continuous_features,
                objects=_object_columns(X),
            )
        )
        if incremental:
            # Float columns of few whole numbers and no gap: partial_fit says
            # when a later chunk leaves one (they are then discrete on all
            # the rows), since it cannot plan them again.
            self._gapless_whole = (
                gapless_whole_columns(
                    frame, raw, self.discrete_features, self.continuous_features
                )
                if unsettled
                else {}
            )
        # Rows in memory hold every table: nothing is counted ahead.
        max_order, comoments = (
            (2, ())
            if in_memory
            else self._tables_to_count(cards, incremental=incremental)
        )
        return ChunkPlan(
            names=names,
            continuous=list(continuous),
            discretizer=self.discretizer_,
            classes=fixed,
            class_dtype=class_dtype,
            max_order=max_order,
            comoments=tuple(comoments),
            schema=raw,
            discretizer_param=getattr(self, "discretizer", None),
            kind_params=_kind_params(self),
            counted=counted,
            unsettled=unsettled,
        )

    def _tables_to_count(
        self, cards: NDArray[np.int64], *, incremental: bool
    ) -> tuple[int, tuple]:
        """What a fit from statistics counts in its first pass.

        Returns the largest feature subsets counted in full with the class
        (2, all pairs, serves every structure whose families have at most two
        features) and the co-moment families of continuous columns (none by
        default). ``incremental`` is True for ``partial_fit``, which cannot
        make a second pass over the data for larger families.
        """
        return 2, ()

    def _fit_tables(
        self,
        data: CountTables,
        schema: Schema,
        plan: ChunkPlan,
        classes: Sequence,
        source: RowSource | None = None,
    ) -> None:
        """Set every fitted attribute from the tables of all rows.

        ``classes`` are the rows' class labels; ``source`` gives the family
        tables a learned structure needs beyond the first pass.
        """
        if len(classes) < 2:
            label = next(iter(classes))
            if isinstance(label, np.generic):
                label = label.item()  # 'a', not np.str_('a')
            raise ValueError(
                f"y has only one class ({label!r}); a classifier needs "
                "samples of at least 2 classes. With partial_fit, list every "
                "class on the first call: partial_fit(X, y, classes=[...])."
            )
        self.classes_ = (
            classes
            if isinstance(classes, np.ndarray)
            else _class_array(classes, plan.class_dtype)
        )
        self.schema_ = schema
        self._check_value_range(data, schema.names)
        structure = self._learn_structure(data)
        subsets, comoments = missing_tables(structure, data)
        if subsets or comoments:
            if source is None:
                raise ValueError(
                    f"The statistics lack the family tables {(subsets + comoments)[:5]}"
                    " of the learned structure; count them in a second pass."
                )
            extra, _ = source.tables(plan.second_pass(subsets, comoments))
            data = data.with_tables_of(extra)
        self.model_ = self._fit_parameters(structure, data)
        self._check_densities(schema.names, data)
        self.n_categories_ = data.cards
        self.structure_ = self._named_structure(structure)
        self._set_structure_attributes(structure, list(schema.names))

    # -- fitting from sufficient statistics ----------------------------------

    def _unsupported_message(self) -> str:
        name = type(self).__name__
        reason = self._needs_rows or self._density_reason()
        return (
            f"{name} cannot be fitted from sufficient statistics (partial_fit, "
            f"fit_files, Dask input): {reason}. Fit it in memory on the data or on "
            "a sample that fits (e.g. `ddf.sample(frac=...).compute()`), or use a "
            "count-based learner (NaiveBayes, TAN, SelectiveTAN, FFSS, KDB, AODE, "
            "AnDE, DDRChowLiu, TaheriANB, ETAN, CAN); see the Scaling page of the "
            "documentation."
        )

    def _rows_needed(self) -> str | None:
        """Why this learner, with its parameters, may need its rows in memory.

        None when it is always fitted from sufficient statistics. Beyond the
        learners that need rows (``_needs_rows``), some parameters do:
        densities other than Gaussian (EM over the rows) and smoothing other
        than Lidstone's. ``augnb fit`` reads the table whole for them rather
        than streaming it into a fit that would be refused.
        """
        if self._needs_rows is not None:
            return self._needs_rows
        if getattr(self, "continuous", "discretize") not in ("discretize", "gaussian"):
            return f"{type(self).__name__}(continuous={self.continuous!r}) " + (
                "fits its densities by iterating over the rows (EM)"
            )
        if "smoothing" in self._parameter_constraints and self.smoothing != "lidstone":
            return (
                f"{type(self).__name__}(smoothing={self.smoothing!r}) is fitted "
                "in memory only"
            )
        return None

    def _density_reason(self) -> str:
        return (
            f"continuous={self.continuous!r} fits its densities by iterating over "
            "the rows (EM); only continuous='gaussian' (per-class moments) is "
            "fitted from sufficient statistics"
        )

    def _forget_statistics(self) -> None:
        """Drop the statistics of earlier ``partial_fit`` calls: ``fit`` starts over."""
        self.__dict__.pop("statistics_", None)
        self.__dict__.pop("_chunk_plan", None)
        self.__dict__.pop("_gapless_whole", None)

    def _keep_statistics(self, stats: SufficientStatistics, plan: ChunkPlan) -> None:
        """Keep the totals so that ``partial_fit`` can continue from them.

        Only when they hold every table ``partial_fit`` counts (not for kDB
        with ``k >= 2``, whose subsets of up to ``k + 1`` features were not
        counted, nor for CAN, whose ``partial_fit`` keeps every family a clique
        could need).
        """
        try:
            wanted = self._tables_to_count(stats.cards, incremental=True)
        except (TypeError, ValueError):  # too many families for partial_fit
            return
        if wanted[0] != plan.max_order or set(wanted[1]) != set(plan.comoments):
            return
        self.statistics_ = stats
        self._chunk_plan = plan

    def _check_partial_fit(self) -> bool:
        """Whether ``partial_fit`` exists; raises the reason where it does not."""
        if self._needs_rows is not None:
            raise AttributeError(self._unsupported_message())
        if self.continuous not in ("discretize", "gaussian"):
            raise AttributeError(
                f"{type(self).__name__}(continuous={self.continuous!r}) has no "
                "partial_fit: its densities are fitted by iterating over the rows "
                "(EM); only continuous='gaussian' (per-class moments) is fitted "
                "from sufficient statistics."
            )
        if getattr(self, "smoothing", "lidstone") == "hdp":
            # Every call would be refused (_fit_parameters): no method, as for
            # the learners above, so hasattr tells (scikit-learn's checks and
            # meta-estimators look for partial_fit that way).
            raise AttributeError(
                f"{type(self).__name__}(smoothing='hdp') has no partial_fit: "
                "smoothing='hdp' is fitted in memory only (fit); fits from "
                "sufficient statistics (partial_fit, fit_files, Dask input) use "
                "smoothing='lidstone'."
            )
        return True

    @available_if(_check_partial_fit)
    @shared_entries
    def partial_fit(
        self,
        X: object,
        y: object,
        classes: Sequence | None = None,
        sample_weight: object = None,
    ) -> BaseAugmentedNB:
        """Update the model with one more chunk of rows.

        The statistics of all chunks so far (``statistics_``) are summed, the
        structure is re-learned from the totals and the parameters refitted,
        so any chunking gives exactly the fit on all rows together. A
        category first seen in a later chunk extends the tables (a column
        none of whose values the earlier chunks hold, of another type, text
        where they held numbers, is warned of: each value would be a new
        category beside the number it spells). Column kinds
        and discretisation cut points are fixed by the first chunk (see
        docs/scaling.md), so a later change of ``discretizer``,
        ``continuous``, ``discrete_features`` or ``continuous_features`` is
        refused; ``fit`` starts over. A model fitted without these
        statistics (by ``fit`` on rows in memory) cannot be updated: it is
        replaced by the fit of the chunk alone, with a warning.

        Parameters
        ----------
        {X_y_chunk}
        classes : array-like, default=None
            Every class label, on the first call (as scikit-learn's
            ``partial_fit``). Needed when the first chunk holds fewer than 2
            classes; if given, later labels must be among them. When None,
            classes seen in later chunks are added (``classes_`` then takes a
            dtype that holds every label, as ``fit`` on all the rows would).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights of the chunk's rows, read as ``fit`` reads
            them: any chunking of ``(X, y, sample_weight)`` gives the model
            of ``fit(X, y, sample_weight)``. Counts and Gaussian moments are
            sums of weights, a row of weight 0 is left out, and the learners
            that repeat rows (ETAN, CAN) refuse fractional weights; the first
            chunk's cut points use integer weights as repetitions and, for
            fractional weights, the rows with positive weight unweighted.
            None weighs every row of the chunk 1 (weights may be given for
            some chunks only). A chunk whose weights are all 0 is refused,
            as ``fit`` refuses them.

        Returns
        -------
        self
        """
        plan = getattr(self, "_chunk_plan", None)
        # The first chunk fixes the column kinds: it is refused as fit refuses
        # a table (dates), without the warnings a few rows cannot support
        # (but for a text column of numbers: its type, not its counts).
        audit = functools.partial(_refuse_columns, self.get_params())
        source = ChunkSource(
            lambda: iter([(X, y, sample_weight)]),
            audit=audit,
            weighted_counts=self._weighted_counts,
            learner=type(self).__name__,
        )
        if plan is None or not hasattr(self, "statistics_"):
            if hasattr(self, "model_"):
                warn_at_caller(self._restart_message())
            return self._fit_source(source, classes=classes, incremental=True)
        self._check_params()
        if not _same_discretizer(self.discretizer, plan.discretizer_param):
            raise ValueError(
                "discretizer changed since the first partial_fit call; the cut "
                "points are fixed by the first chunk. Call fit to start over."
            )
        now = _kind_params(self)
        if plan.kind_params and now != plan.kind_params:
            # The first chunk fixed each column's kind: the new value would be
            # ignored, without a word.
            name, first = next(
                (n, v) for (n, v), (_, w) in zip(plan.kind_params, now) if v != w
            )
            raise ValueError(
                f"{name} changed since the first partial_fit call (it was "
                f"{first!r}); the first chunk fixed how each column is read, so "
                f"the new value would be ignored. Set {name} back, or call fit "
                "to start over."
            )
        if classes is not None:
            given, _ = encode_target(np.asarray(classes), len(classes))
            if plan.classes is None or tuple(given.tolist()) != plan.classes:
                raise ValueError(
                    f"classes={list(given)} differs from the first call's "
                    f"{plan.classes}; give classes only on the first call."
                )
        _check_feature_names(self, as_frame(X))
        X, y, weights = weighted_chunk(
            X,
            y,
            sample_weight,
            weighted_counts=self._weighted_counts,
            learner=type(self).__name__,
        )
        chunk = frame_statistics(X, y, plan, weights)
        warn_of_type_changes(self.statistics_, chunk)
        total = self.statistics_ + chunk
        _warn_counted_kinds(self.statistics_, total, plan.counted)
        whole = getattr(self, "_gapless_whole", None)
        if whole:
            self._gapless_whole, gapped = whole_columns_gapped(as_frame(X), whole)
            _warn_whole_gaps(gapped)
        if plan.discretizer is not None:
            before = set(self.statistics_.classes)
            _warn_cuts_without_classes(
                [c for c in total.classes if c not in before], plan.continuous
            )
        self._fit_tables(total, schema_of_statistics(total), plan, total.classes)
        self.statistics_ = total
        return self

    def _restart_message(self) -> str:
        """The warning of a ``partial_fit`` that cannot update a fitted model.

        scikit-learn's ``partial_fit`` updates a fitted model (and its checks
        call it after ``fit``); without the counts of ``fit``'s rows, this one
        can only start over from the chunk, which drops every one of them.
        """
        return (
            f"partial_fit starts over: this {type(self).__name__} was fitted "
            "without the count tables partial_fit adds a chunk to (fit on rows "
            "in memory keeps none), so it is now fitted on this chunk alone and "
            "the rows it was fitted on are dropped. To fit chunk by chunk, call "
            "partial_fit for every chunk, the first included; to fit on more "
            "rows, call fit with all of them."
        )

    def _check_value_range(
        self, data: CountTables, names: Sequence[Hashable]
    ) -> None:
        """Refuse continuous values whose squares overflow or underflow float64.

        A density's variance (and a regression's co-moments) sums squares of
        the values: beyond about 1e154 / sqrt(n) in magnitude they overflow
        to infinity, and every posterior the column enters would be NaN. A
        column whose values are all below about 1.5e-154 in magnitude (not
        all 0) has squares below the smallest normal float, so its variance
        or bandwidth is lost.
        Only density models are checked (a discretised column, ESKDB's too,
        is only sorted, whatever its scale).
        """
        if self.continuous == "discretize":
            return
        # The same numbers from rows in memory and from statistics summed
        # over chunks, files or Dask partitions: one rule for every door.
        for f, (low, high, count) in data.value_extents().items():
            if not count:
                continue
            top = max(abs(low), abs(high))
            with np.errstate(over="ignore"):
                fits = np.isfinite(top * top * count)
            if fits and not (top > 0.0 and top * top < _SMALLEST_NORMAL):
                continue
            if fits:
                # Squares below the smallest normal float keep a few bits or
                # none: a Gaussian's variance or a kernel's bandwidth squared
                # is 0 or garbage, and the column was refused deep inside
                # or silently left out (majority-class predictions).
                spread = high - low
                raise ValueError(
                    f"{type(self).__name__}: continuous column {names[f]!r} holds "
                    f"values of at most {top:.3g} in magnitude (they differ by at "
                    f"most {spread:.3g}), whose squares underflow float64, so its "
                    "density cannot be computed; rescale the column (multiply it "
                    "by a power of ten) before fitting"
                    + (
                        ", or discretise it (continuous='discretize')."
                        if "continuous" in self.get_params()
                        else "."
                    )
                )
            fixes = "rescale the column (divide it by a power of ten) before fitting"
            if "continuous" in self.get_params():
                fixes += ", or discretise it (continuous='discretize')"
            raise ValueError(
                f"{type(self).__name__}: continuous column {names[f]!r} holds "
                f"values up to {top:.3g} in magnitude, whose sum of squares over "
                f"{count:.0f} rows overflows float64, so its density would be "
                f"infinite and every posterior it enters NaN; {fixes}."
            )

    def _check_densities(
        self, names: Sequence[Hashable], data: CountTables | None = None
    ) -> None:
        """Refuse a fitted Gaussian of no width: its posteriors would be NaN.

        With the training rows (``data``), a column that does vary but only
        by so little that its variance underflows to 0 is told apart from a
        constant one.
        """
        found = (
            self.model_.point_mass() if isinstance(self.model_, MixedModel) else None
        )
        if found is None:
            return
        f, c, regression = found
        label = self.classes_[c]
        if isinstance(label, np.generic):
            label = label.item()  # 'a', not np.str_('a')
        smoothing = float(getattr(self, "var_smoothing", 0.0))
        if smoothing == 0:
            why = "var_smoothing=0 adds nothing to it"
            fixes = (
                "give var_smoothing > 0 (the default 1e-9 adds a billionth of "
                "the largest column variance)"
            )
        else:
            why = "no continuous column varies, so var_smoothing adds nothing"
            fixes = f"drop the constant column (--drop {names[f]}; drop= in Python)"
        if "continuous" in self.get_params():
            fixes += ", or discretise it (continuous='discretize')"
        spread = (
            "its parent columns predict it exactly"
            if regression
            else "it takes a single value"
        )
        width = None if regression else _class_spread(data, f, c)
        if width:
            spread = f"its values differ by at most {width:.3g}"
            why = "the square of that underflows float64"
            fixes = "rescale the column (multiply it by a power of ten) before fitting"
        raise ValueError(
            f"{type(self).__name__}: among the rows of class {label!r}, column "
            f"{names[f]!r} has no spread ({spread}), so its Gaussian there has "
            f"variance 0 ({why}) and every posterior it enters would be NaN; "
            f"{fixes}."
        )

    def _set_structure_attributes(self, structure: Structure, names: list) -> None:
        """``selected_features_``, ``feature_subsets_`` and ``arcs_``, by name."""
        groups, group_arcs = self._subsets_and_arcs(structure)
        subsets = [tuple(names[f] for f in group) for group in groups]
        self.selected_features_ = [names[f] for f in structure.selected_features]
        self.feature_subsets_ = subsets
        self.arcs_ = [(subsets[p], subsets[k]) for p, k in group_arcs]

    def _named_structure(self, structure: Structure) -> object:
        """The ``structure_`` attribute: the structure with the column names."""
        return structure.with_names([str(n) for n in self.schema_.names])

    def _fit_parameters(
        self, structure: Structure, data: CountTables
    ) -> DiscreteModel | MixedModel:
        """The fitted model of ``structure``: CPTs, and densities if kept.

        From the rows in memory (:class:`TrainingData`) or from summed
        statistics; both give the same CPTs.
        """
        smoothing = self._smoothing_options()
        if isinstance(data, SufficientStatistics):
            if smoothing:
                raise ValueError(
                    f"{type(self).__name__}: smoothing={self.smoothing!r} is "
                    "fitted in memory only (fit); fits from sufficient statistics "
                    "(partial_fit, fit_files, Dask input) use smoothing='lidstone'."
                )
            return fit_model_from_statistics(
                structure,
                data,
                alpha=float(self.alpha),
                var_smoothing=float(getattr(self, "var_smoothing", 1e-9)),
            )
        if data.values is None:
            return fit_discrete_model(
                structure,
                data.codes,
                data.y,
                data.cards,
                data.n_classes,
                float(self.alpha),
                sample_weight=data.sample_weight,
                **smoothing,
            )
        if smoothing:
            raise ValueError(
                f"{type(self).__name__}: smoothing='hdp' applies to discrete "
                "models; continuous columns kept as densities need "
                "smoothing='lidstone'."
            )
        return fit_mixed_model(
            structure,
            data.codes,
            data.values,
            data.y,
            data.cards,
            data.n_classes,
            alpha=float(self.alpha),
            var_smoothing=float(self.var_smoothing),
            continuous=self.continuous,
            n_components=int(self.n_components),
            sample_weight=data.sample_weight,
        )

    def _smoothing_options(self) -> dict[str, object]:
        """Keywords of ``fit_discrete_model`` for the ``smoothing`` parameter.

        Empty for Lidstone smoothing and for learners that do not declare the
        parameter, so that path is the one every learner has always used.
        """
        if (
            "smoothing" not in self._parameter_constraints
            or self.smoothing == "lidstone"
        ):
            return {}
        return {
            "smoothing": self.smoothing,
            "hdp_iterations": int(self.hdp_iterations),
            "random_state": self.random_state,
        }

    def _subsets_and_arcs(self, structure: Structure) -> tuple[tuple, tuple]:
        """Feature groups and the arcs between them, for the fitted attributes.

        The structure's own nodes by default; learners whose groups are
        expanded into several nodes (``supernode_cpt="dag"``) override this.
        """
        return structure.nodes, structure.arcs

    # -- prediction ---------------------------------------------------------

    @shared_entries
    def encode(self, X: object) -> EncodedData:
        """Encode features as the fitted model sees them.

        Applies the fitted discretiser and schema: integer codes (``-1`` =
        missing or unseen) and, for density models, the continuous values.

        Parameters
        ----------
        {X_predict}

        Returns
        -------
        EncodedData
        """
        check_is_fitted(self, "model_")
        names = self.schema_.names
        frame = as_frame(X, for_prediction=True, fitted=names)
        _check_feature_names(self, frame)
        refuse_reordered_columns(X, names)
        if frame.columns.tolist() != names:
            # validate_data has checked the column count (and the names when both
            # fit and predict data have them); an array given after a DataFrame
            # (or the reverse) is matched by position, as in scikit-learn, so the
            # discretiser can select its columns by name.
            frame = frame.set_axis(names, axis=1)
        refuse_times_as_numbers(frame, self.continuous_columns_)
        bins = None
        if self.discretizer_ is not None:
            frame, bins = discretize_columns(
                frame, self.discretizer_, self.continuous_columns_
            )
        return self.schema_.encode(frame, bins)

    #: The name subclasses in this package use.
    _encode = encode

    @_dask_chunks
    @shared_entries
    def predict_joint_log_proba(self, X: object) -> NDArray[np.float64]:
        """Unnormalised ``log P(c, x)`` for each class.

        Missing values and categories unseen at ``fit`` are marginalised out
        exactly.

        Parameters
        ----------
        {X_predict}

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        data = self.encode(X)  # raises NotFittedError before model_ is read
        try:
            return self._joint_log_likelihood(data)
        except MissingTooCostly as exc:
            names = [str(self.schema_.names[f]) for f in exc.features]
            raise ValueError(
                f"{type(self).__name__}: a row misses the values of {names}, "
                "which the model's dependencies tie together: summing them out "
                f"exactly needs a table of {exc.cells:,} cells for that row "
                "alone, more than memory allows. Give or impute those values "
                "(or drop the row), or fit a model with fewer dependencies "
                "among these columns."
            ) from None

    def _joint_log_likelihood(self, data: EncodedData) -> NDArray[np.float64]:
        """``log P(c, x)`` of encoded data: the one inference routine."""
        return joint_log_likelihood(self.model_, data.codes, data.values)

    @_dask_chunks
    @shared_entries
    def predict_log_proba(self, X: object) -> NDArray[np.float64]:
        """Log posterior class probabilities, columns ordered as ``classes_``.

        Parameters
        ----------
        {X_predict}

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        jll = self.predict_joint_log_proba(X)
        return jll - logsumexp(jll, axis=1, keepdims=True)

    @staticmethod
    def _softmax(jll: NDArray[np.float64]) -> NDArray[np.float64]:
        # One fused pass per row instead of four array passes (max, subtract,
        # exp, normalise): about a third of predict_proba at 1e6 rows.
        jll = np.ascontiguousarray(jll, dtype=np.float64)
        out = np.empty_like(jll)
        # Rows are independent: spans of rows on threads of their own.
        map_spans(
            lambda a, b: _softmax_rows(jll[a:b], out[a:b]), thread_spans(len(jll))
        )
        return out

    @_dask_chunks
    @shared_entries
    def predict_proba(self, X: object) -> NDArray[np.float64]:
        """Posterior class probabilities, columns ordered as ``classes_``.

        Parameters
        ----------
        {X_predict}

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return self._softmax(self.predict_joint_log_proba(X))

    @_dask_chunks
    @shared_entries
    def predict(self, X: object) -> NDArray:
        """Most probable class (ties go to the lowest class index).

        Parameters
        ----------
        {X_predict}

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        jll = self.predict_joint_log_proba(X)  # checks fitted before classes_ is read
        return self.classes_[np.argmax(jll, axis=1)]

    @shared_entries
    def score(self, X: object, y: object, sample_weight: object = None) -> float:
        """Accuracy of ``predict(X)`` against ``y`` (scikit-learn's ``score``).

        ``y`` is read as ``fit`` reads labels: an object column of numbers
        or booleans is compared as those numbers (scikit-learn's metrics
        refuse such a column, as labels of an unknown type), and bytes as
        the text they spell.

        Parameters
        ----------
        {X_predict}
        y : array-like of shape (n_samples,)
            True labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Weights of the rows.

        Returns
        -------
        float
            The (weighted) share of rows predicted right.
        """
        if isinstance(y, (list, tuple)):
            y = np.asarray(y, dtype=object)  # each label's type kept, as fit does
        if isinstance(y, (np.ndarray, pd.Series)) and (
            y.dtype == object or y.dtype.kind == "S"
        ):
            y = typed_labels(np.asarray(y).ravel())
        return float(super().score(X, y, sample_weight=sample_weight))


def scores_with_model(estimator: BaseAugmentedNB) -> bool:
    """Whether the estimator's scores are its ``model_``'s, and only those.

    True when ``predict_joint_log_proba`` is
    :func:`augnb.inference.joint_log_likelihood` of ``model_`` (one network);
    False for an estimator with a scoring rule of its own (the ensembles
    AODE, AnDE, ESKDB), whose ``model_`` alone does not give its predictions.
    What reads ``model_`` as *the* model (explanations, one-network exports)
    asks this first.

    Parameters
    ----------
    estimator : BaseAugmentedNB
        An estimator (fitted or not: the rule belongs to its class).

    Returns
    -------
    bool
    """
    return (
        type(estimator)._joint_log_likelihood
        is BaseAugmentedNB._joint_log_likelihood
    )


def held_classifier(obj: object) -> str | None:
    """Where the augnb classifier a scikit-learn object holds is, or None.

    What saves, exports, plots or explains one classifier is often given the
    object that holds it (a Pipeline, a fitted search); each refusal names
    the expression that reaches it, from a name for ``obj``: ``pipeline[-1]``
    for a Pipeline ending in one, ``search.best_estimator_`` for a fitted
    search, ``model.estimator_`` for a fitted wrapper of one estimator
    (TunedThresholdClassifierCV, FixedThresholdClassifier, ...),
    ``model.estimator`` for a FrozenEstimator, and their combinations
    (``search.best_estimator_[-1]``).

    Parameters
    ----------
    obj : object
        What was given in place of a classifier.

    Returns
    -------
    str or None

    Examples
    --------
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from augnb import TAN
    >>> held_classifier(make_pipeline(StandardScaler(), TAN()))
    'pipeline[-1]'
    >>> held_classifier(StandardScaler()) is None
    True
    """
    kind = type(obj).__name__
    if hasattr(obj, "steps"):
        name = "pipeline"
    elif kind.endswith("SearchCV"):
        name = "search"
    else:
        name = "model"
    return _path_to_classifier(obj, name, depth=0)


def _path_to_classifier(obj: object, path: str, depth: int) -> str | None:
    if isinstance(obj, BaseAugmentedNB):
        return path if depth else None
    if depth > 4:  # meta-estimators nest a few levels at most
        return None
    steps = getattr(obj, "steps", None)
    if isinstance(steps, list) and steps and isinstance(steps[-1], tuple):
        return _path_to_classifier(steps[-1][-1], f"{path}[-1]", depth + 1)
    # A fitted search's refitted best estimator, a fitted wrapper's estimator,
    # a FrozenEstimator's (fitted) estimator; an unfitted template (the
    # estimator parameter of a search or a CalibratedClassifierCV) is not one.
    for attribute in ("best_estimator_", "estimator_"):
        inner = getattr(obj, attribute, None)
        if inner is not None:
            return _path_to_classifier(inner, f"{path}.{attribute}", depth + 1)
    if type(obj).__name__ == "FrozenEstimator":
        inner = getattr(obj, "estimator", None)
        return _path_to_classifier(inner, f"{path}.estimator", depth + 1)
    return None


def _class_array(classes: Sequence, dtype: np.dtype) -> NDArray:
    """``classes_`` of labels met in parts: the first part's dtype if it holds them.

    ``partial_fit`` (and a fit from batches) fixes the labels' dtype from the
    first rows, but a later part may bring a label it cannot hold: a longer
    text ('ccc' after labels of one letter was cut to 'c', so predict
    returned a label no row had), a number out of its range (300 after int8
    labels, or -1 after uint8: an OverflowError), a number after booleans
    (2 became True). Those labels get the dtype NumPy gives them together,
    as ``fit`` on the rows of every part would (the parts' ``np.concatenate``);
    text among numbers is refused as ``fit`` refuses it.
    """
    values = list(classes)
    _check_label_types(values)
    try:
        with np.errstate(over="ignore"):  # a float32 overflow is told below
            kept = np.asarray(values, dtype=dtype)
    except (OverflowError, ValueError):
        kept = None
    if kept is not None and kept.tolist() == values:
        return kept
    return np.asarray(values)


def _class_spread(data: CountTables | None, f: int, c: int) -> float:
    """Range of column ``f``'s observed values among class ``c``'s rows.

    0 when the rows are not at hand (a fit from statistics) or the column
    takes one value there.
    """
    values = getattr(data, "values", None)
    if values is None or data is None:
        return 0.0
    col = values[np.asarray(data.y) == c, f]
    col = col[~np.isnan(col)]
    return float(np.ptp(col)) if col.size else 0.0
