"""Declared hyperparameter constraints, checked in one place.

Every estimator lists each of its ``__init__`` parameters in a class-level
``_parameter_constraints`` table (the idea of scikit-learn's table of the
same name): ``name -> Constraint``. :meth:`BaseAugmentedNB._check_params`
validates every parameter against its entry when ``fit`` starts, so an
estimator never writes its own checks; the common tests require an entry for
every parameter.
"""

from __future__ import annotations

import numbers
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from typing_extensions import override

from augnb.search.folds import cv_kind

__all__ = [
    "ALPHA",
    "DENSITY_PARAMETERS",
    "ROOT",
    "SIGNIFICANCE",
    "SMOOTHING_PARAMETERS",
    "VERBOSE",
    "AnyOf",
    "ColumnList",
    "Constraint",
    "CrossValidation",
    "InstanceOf",
    "Interval",
    "Options",
    "RandomState",
    "SequenceOf",
    "Transformer",
    "check_parameters",
]


class Constraint(ABC):
    """A set of valid values of a hyperparameter, with a description."""

    @abstractmethod
    def accepts(self, value: object) -> bool:
        """Whether ``value`` is valid.

        Parameters
        ----------
        value : object
            A value of the parameter.

        Returns
        -------
        bool
        """

    @abstractmethod
    def describe(self) -> str:
        """What valid values are, for the error message."""


@dataclass(frozen=True)
class Interval(Constraint):
    """Integers or reals within ``[low, high]`` (each end open or closed).

    Booleans are never numbers here.

    Parameters
    ----------
    kind : type
        ``numbers.Integral`` or ``numbers.Real``.
    low, high : float or None, default=None
        The ends; None for an end means unbounded.
    closed : {"both", "left", "right", "neither"}, default="both"
        Which ends are included.
    finite : bool, default=True
        Whether infinite values are refused (NaN always is).
    """

    kind: type
    low: float | None = None
    high: float | None = None
    closed: str = "both"
    finite: bool = True

    @override
    def accepts(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, self.kind):
            return False
        # An integer is finite; NumPy cannot test one beyond int64 (10**400).
        if not isinstance(value, numbers.Integral):
            if self.finite and not np.isfinite(value):
                return False
            if np.isnan(value):
                return False
        if isinstance(value, np.floating):
            # Compared as a Python float: a float32 against an end such as
            # 1e100 would cast the end to float32 (inf, with a warning).
            value = float(value)
        if self.low is not None:
            left = self.closed in ("both", "left")
            if value < self.low or (not left and value == self.low):
                return False
        if self.high is not None:
            right = self.closed in ("both", "right")
            if value > self.high or (not right and value == self.high):
                return False
        # "> 0" means a value to divide by or take the log-gamma of: a
        # subnormal one overflows there (1 / 5e-324 is inf), and MANB's
        # alpha=5e-324 made every probability NaN.
        positive = self.low == 0 and self.closed in ("neither", "right")
        return not (positive and _subnormal(value))

    @override
    def describe(self) -> str:
        noun = "an integer" if self.kind is numbers.Integral else "a number"
        lo, hi = self.low, self.high
        if lo is not None and hi is not None:
            left = "[" if self.closed in ("both", "left") else "("
            right = "]" if self.closed in ("both", "right") else ")"
            return f"{noun} in {left}{lo:g}, {hi:g}{right}"
        if lo is not None:
            op = ">=" if self.closed in ("both", "left") else ">"
            return f"{noun} {op} {lo:g}"
        if hi is not None:
            op = "<=" if self.closed in ("both", "right") else "<"
            return f"{noun} {op} {hi:g}"
        return f"a finite {noun[2:]}" if self.finite else noun


@dataclass(frozen=True)
class Options(Constraint):
    """One of a fixed set of values (strings, booleans or None).

    Parameters
    ----------
    *values : object
        The valid values.
    """

    values: tuple

    def __init__(self, *values: object) -> None:
        object.__setattr__(self, "values", values)

    @override
    def accepts(self, value: object) -> bool:
        for v in self.values:
            if v is None:
                if value is None:
                    return True
            elif isinstance(v, bool):
                # NumPy booleans count; 0 and 1 do not.
                if isinstance(value, (bool, np.bool_)) and bool(value) is v:
                    return True
            elif isinstance(value, type(v)) and not isinstance(value, bool):
                if value == v:
                    return True
        return False

    @override
    def describe(self) -> str:
        if len(self.values) == 1:
            return repr(self.values[0])
        if len(self.values) == 2:
            return f"{self.values[0]!r} or {self.values[1]!r}"
        return "one of " + ", ".join(repr(v) for v in self.values)


@dataclass(frozen=True)
class InstanceOf(Constraint):
    """An instance of a given type.

    Parameters
    ----------
    kind : type
        The type.
    """

    kind: type

    @override
    def accepts(self, value: object) -> bool:
        return isinstance(value, self.kind)

    @override
    def describe(self) -> str:
        return f"a {self.kind.__name__}"


class Transformer(Constraint):
    """An unfitted transformer with ``fit`` and ``transform``."""

    @override
    def accepts(self, value: object) -> bool:
        return hasattr(value, "fit") and hasattr(value, "transform")

    @override
    def describe(self) -> str:
        return "a transformer"


class RandomState(Constraint):
    """A seed: None, an integer NumPy seeds with, or a ``numpy.random.RandomState``.

    An integer must be in ``[0, 2**32 - 1]``: NumPy refuses any other seed,
    but only once a fit draws, with a message that names neither the
    parameter nor the estimator.
    """

    @override
    def accepts(self, value: object) -> bool:
        if isinstance(value, numbers.Integral) and not isinstance(value, bool):
            return 0 <= value <= _MAX_SEED
        return value is None or isinstance(value, np.random.RandomState)

    @override
    def describe(self) -> str:
        return f"None, an integer in [0, {_MAX_SEED}] or a numpy RandomState"


#: The largest integer seed ``numpy.random.RandomState`` accepts.
_MAX_SEED = 2**32 - 1


class ColumnList(Constraint):
    """None or a list-like of column names or indices (not a string)."""

    @override
    def accepts(self, value: object) -> bool:
        if value is None:
            return True
        if isinstance(value, (str, bytes, Mapping)):
            return False
        return hasattr(value, "__iter__") and hasattr(value, "__len__")

    @override
    def describe(self) -> str:
        return "None or a list of column names or indices"


@dataclass(frozen=True)
class AnyOf(Constraint):
    """Valid when any of several constraints accepts the value.

    Parameters
    ----------
    *options : Constraint
        The constraints, in the order the error message names them.
    """

    options: tuple[Constraint, ...]

    def __init__(self, *options: Constraint) -> None:
        object.__setattr__(self, "options", options)

    @override
    def accepts(self, value: object) -> bool:
        return any(c.accepts(value) for c in self.options)

    @override
    def describe(self) -> str:
        return " or ".join(c.describe() for c in self.options)


@dataclass(frozen=True)
class SequenceOf(Constraint):
    """A non-empty one-dimensional sequence (list, tuple, array) of valid items.

    Parameters
    ----------
    item : Constraint
        The constraint every item must meet.
    """

    item: Constraint

    @override
    def accepts(self, value: object) -> bool:
        if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__len__"):
            return False
        if isinstance(value, np.ndarray) and value.ndim != 1:
            return False
        return len(value) > 0 and all(self.item.accepts(v) for v in value)

    @override
    def describe(self) -> str:
        return f"a non-empty sequence of which each item is {self.item.describe()}"


class CrossValidation(Constraint):
    """A ``cv=`` argument of a wrapper search, in any of its forms.

    An integer >= 2, ``"loo"``, a list of ``(train, test)`` index pairs, an
    array of integer fold ids (one per input row) or a CV splitter; the forms
    are told apart by :func:`augnb.search.folds.cv_kind`, and resolved to
    folds by :func:`augnb.search.folds.resolve_folds` (which checks what
    needs the data: lengths, partitions).
    """

    @override
    def accepts(self, value: object) -> bool:
        kind = cv_kind(value)
        if kind == "n_folds":
            return value >= 2
        return kind is not None

    @override
    def describe(self) -> str:
        return (
            "an integer >= 2 or 'loo' or a list of (train, test) index pairs or "
            "an array of integer fold ids (one per training row) or a CV splitter"
        )


def _subnormal(value: object) -> bool:
    """Whether ``value`` is a real number too close to 0 for a normal float."""
    if isinstance(value, numbers.Integral) or not isinstance(value, numbers.Real):
        return False
    magnitude = abs(float(value))
    return 0 < magnitude < _TINY


#: The smallest normal positive float.
_TINY = float(np.finfo(np.float64).tiny)


def check_parameters(
    estimator: object, params: Mapping[str, object], table: Mapping[str, Constraint]
) -> None:
    """Raise a clear ``ValueError`` for the first parameter ``table`` rejects.

    Parameters
    ----------
    estimator : object
        The estimator (its class name goes into the messages).
    params : mapping
        Parameter values (``get_params(deep=False)``).
    table : mapping
        The estimator's ``_parameter_constraints``.
    """
    name = type(estimator).__name__
    for key, value in params.items():
        constraint = table.get(key)
        if constraint is not None and not constraint.accepts(value):
            why = (
                f" (a subnormal number, below {_TINY:.4g}: "
                "too small to compute with)"
                if _subnormal(value) and constraint.accepts(_TINY)
                else ""
            )
            raise ValueError(
                f"{name}: {key} must be {constraint.describe()}; got {value!r}{why}."
            )


#: The largest smoothing constant (``alpha``, ``var_smoothing``) accepted.
#: Far beyond any value that still changes a prediction (an ``alpha`` a few
#: times the counts already makes the CPTs uniform), and far enough below the
#: largest float that a table's sum of ``alpha`` over its cells, or
#: ``var_smoothing`` times a column's variance, stays finite: at 1e308 they
#: overflowed and every probability was NaN.
LARGEST_SMOOTHING = 1e100

#: Shared entries of the estimators' tables.
ALPHA = Interval(numbers.Real, 0, LARGEST_SMOOTHING, closed="right")
ROOT = Options("first", "random")
SIGNIFICANCE = Interval(numbers.Real, 0, 1)
VERBOSE = AnyOf(Interval(numbers.Integral, 0), Options(True, False))
DENSITY_PARAMETERS: dict[str, Constraint] = {
    "continuous": Options("discretize", "gaussian", "gmm"),
    "n_components": Interval(numbers.Integral, 1),
    "var_smoothing": Interval(numbers.Real, 0, LARGEST_SMOOTHING),
}

#: CPT estimator of the discrete learners (``smoothing``, ``hdp_iterations``).
SMOOTHING_PARAMETERS: dict[str, Constraint] = {
    "smoothing": Options("lidstone", "hdp"),
    "hdp_iterations": Interval(numbers.Integral, 1),
}
