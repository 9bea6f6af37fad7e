"""The one base class: validation, encoding, discretisation, inference, prediction."""

from __future__ import annotations

import numbers
import re
from abc import ABCMeta, abstractmethod
from typing import ClassVar

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.validation import check_is_fitted, validate_data

from augnb.classifiers.constraints import (
    AnyOf,
    ColumnList,
    Constraint,
    Interval,
    Options,
    Transformer,
    check_parameters,
)
from augnb.data.encoding import EncodedData, as_frame, encode_target
from augnb.data.schema import Schema
from augnb.inference import joint_log_likelihood
from augnb.params.categorical import DiscreteModel, fit_discrete_model
from augnb.params.mixed_model import MixedModel, fit_mixed_model
from augnb.structure import Structure

__all__ = ["BaseAugmentedNB", "make_discretizer"]

_DISCRETIZERS = ("mdlp", "equal_frequency", "equal_width", "mean", "soac")


def make_discretizer(spec: object):
    """Discretiser instance for a ``discretizer=`` parameter value.

    Parameters
    ----------
    spec : {"mdlp", "equal_frequency", "equal_width", "mean", "soac"} or transformer
        A name, or an unfitted transformer with ``fit(X, y)`` / ``transform(X)``
        that returns a DataFrame of categorical columns.

    Returns
    -------
    transformer
        A fresh (cloned) discretiser.
    """
    from augnb import discretize

    if isinstance(spec, str):
        factories = {
            "mdlp": discretize.MDLPDiscretizer,
            "equal_frequency": discretize.EqualFrequencyDiscretizer,
            "equal_width": discretize.EqualWidthDiscretizer,
            "mean": discretize.MeanBinarizer,
            "soac": discretize.SOACDiscretizer,
        }
        if spec not in factories:
            raise ValueError(
                f"Unknown discretizer {spec!r}; use one of {list(factories)}, a "
                "transformer instance, or None."
            )
        return factories[spec]()
    if hasattr(spec, "fit") and hasattr(spec, "transform"):
        return clone(spec)
    raise ValueError(
        f"discretizer must be one of {list(_DISCRETIZERS)}, a transformer or None; "
        f"got {spec!r}."
    )


#: Docstring sections every estimator shares, written once. A line holding
#: only ``{{name}}`` in an estimator's docstring is replaced by the snippet,
#: indented like the line (see ``BaseAugmentedNB.__init_subclass__``).
DOCSTRING_SNIPPETS: dict[str, str] = {
    "discretizer_parameter": """\
discretizer : str, transformer or None, default="mdlp"
    How continuous columns are discretised: "mdlp", "equal_frequency",
    "equal_width", "mean", "soac" or a transformer.""",
    "column_kind_parameters": """\
discrete_features : sequence of str or int, default=None
    Columns to treat as discrete whatever their dtype.
continuous_features : sequence of str or int, default=None
    Columns to treat as continuous whatever their dtype.""",
    "input_attributes": """\
classes_ : ndarray of shape (n_classes,)
    Sorted class labels.
n_features_in_ : int
    Number of input columns.
feature_names_in_ : ndarray of shape (n_features_in_,)
    Column names (only when X has string column names).""",
    "encoding_attributes": """\
schema_ : Schema
    Column kinds and categories after discretisation.
discretizer_ : transformer or None
    Fitted discretiser of the continuous columns.
continuous_columns_ : list
    Input columns read as continuous (discretised, or Gaussian nodes).
n_categories_ : ndarray of shape (n_features_in_,)
    Declared number of categories per column.""",
}

DOCSTRING_SNIPPETS["input_parameters"] = (
    DOCSTRING_SNIPPETS["discretizer_parameter"]
    + "\n"
    + DOCSTRING_SNIPPETS["column_kind_parameters"]
)
DOCSTRING_SNIPPETS["fitted_attributes"] = (
    DOCSTRING_SNIPPETS["input_attributes"]
    + "\n"
    + DOCSTRING_SNIPPETS["encoding_attributes"]
)

_SNIPPET_LINE = re.compile(r"^( *)\{\{(\w+)\}\}$", re.MULTILINE)


def _expand_snippets(doc: str | None, snippets: dict[str, str]) -> str | None:
    if not doc:
        return doc

    def expand(match: re.Match) -> str:
        indent, name = match.groups()
        return "\n".join(
            indent + line if line else line for line in snippets[name].splitlines()
        )

    # Snippets may hold snippet lines themselves: expand to a fixed point.
    while True:
        expanded = _SNIPPET_LINE.sub(expand, doc)
        if expanded == doc:
            return doc
        doc = expanded


class BaseAugmentedNB(ClassifierMixin, BaseEstimator, metaclass=ABCMeta):
    """Base class of every augnb classifier.

    Subclasses implement :meth:`_learn_structure`; fitting parameters, inference
    and the prediction methods live here, once.
    """

    @abstractmethod
    def _learn_structure(
        self,
        codes: NDArray[np.int32],
        y: NDArray[np.intp],
        cards: NDArray[np.int64],
        n_classes: int,
    ) -> Structure:
        """Return the structure learned from encoded training data."""

    # -- validation ---------------------------------------------------------

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        # The shared sections are written once: DOCSTRING_SNIPPETS and the
        # ``_docstring_snippets`` of the family's base class.
        cls.__doc__ = _expand_snippets(cls.__doc__, cls._docstring_snippets)

    #: Docstring sections of this family (``{{name}}`` lines).
    _docstring_snippets: ClassVar[dict[str, str]] = DOCSTRING_SNIPPETS

    #: Every ``__init__`` parameter of an estimator -> its valid values.
    #: Subclasses extend it (``{**Parent._parameter_constraints, ...}``).
    _parameter_constraints: ClassVar[dict[str, Constraint]] = {
        "alpha": Interval(numbers.Real, 0, closed="neither"),
        "discretizer": AnyOf(Options(*_DISCRETIZERS, None), Transformer()),
        "discrete_features": ColumnList(),
        "continuous_features": ColumnList(),
    }

    #: How continuous columns are modelled: "discretize" (the default) or a
    #: density family; estimators with a ``continuous`` parameter set it.
    continuous: str = "discretize"

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

    def _prepare_fit(
        self, X: object, y: object
    ) -> tuple[EncodedData, NDArray[np.intp]]:
        self._check_params()
        frame = as_frame(X)
        classes, y_codes = encode_target(y, frame.shape[0])
        validate_data(self, frame, reset=True, skip_check_array=True)
        if len(classes) < 2:
            raise ValueError(
                f"y has only one class ({classes.tolist()[0]!r}); a classifier "
                "needs samples of at least 2 classes."
            )
        self.classes_ = classes
        raw = Schema.infer(
            frame,
            discrete_features=self.discrete_features,
            continuous_features=self.continuous_features,
        )
        continuous = raw.continuous_names
        # Input columns read as numbers (before any discretisation).
        self.continuous_columns_ = list(continuous)
        self.discretizer_ = None
        if continuous and self.continuous != "discretize":
            # Continuous columns stay continuous: density CPDs model them.
            self.schema_ = raw
            return raw.encode(frame), y_codes
        if continuous:
            if self.discretizer is None:
                raise ValueError(
                    f"{type(self).__name__} models discrete features only, but columns "
                    f"{continuous} are continuous; pass discretizer='mdlp' (the "
                    "default), discretise them yourself, or list them in "
                    "discrete_features."
                )
            disc = make_discretizer(self.discretizer)
            self.discretizer_ = disc.fit(
                frame.loc[:, continuous].astype(np.float64), y_codes
            )
            frame = self._apply_discretizer(frame)
        self.schema_ = Schema.infer(
            frame, discrete_features=list(range(frame.shape[1]))
        )
        return self.schema_.encode(frame), y_codes

    def _apply_discretizer(self, frame: pd.DataFrame) -> pd.DataFrame:
        cols = self.continuous_columns_
        binned = self.discretizer_.transform(frame.loc[:, cols].astype(np.float64))
        out = frame.copy()
        for c in cols:
            out[c] = binned[c]
        return out

    def fit(self, X: object, y: object) -> BaseAugmentedNB:
        """Learn the structure and parameters from training data.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Training features; missing values (None, NaN, pd.NA) allowed.
        y : array-like of shape (n_samples,)
            Class labels (any hashable values, no missing values).

        Returns
        -------
        self
        """
        data, y_codes = self._prepare_fit(X, y)
        n_classes = len(self.classes_)
        structure = self._learn_structure_from(data, y_codes, n_classes)
        self.n_categories_ = data.cards
        self.model_ = self._fit_parameters(structure, data, y_codes, n_classes)
        self.structure_ = self._named_structure(structure)
        names = self.schema_.names
        groups, group_arcs = self._subsets_and_arcs(structure)
        subsets = [tuple(names[f] for f in group) for group in groups]
        self.selected_features_ = [names[f] for f in structure.selected_features]
        self.feature_subsets_ = subsets
        self.arcs_ = [(subsets[p], subsets[k]) for p, k in group_arcs]
        return self

    def _named_structure(self, structure: Structure) -> object:
        """The ``structure_`` attribute: the structure with the column names."""
        return structure.with_names([str(n) for n in self.schema_.names])

    def _fit_parameters(
        self,
        structure: Structure,
        data: EncodedData,
        y: NDArray[np.intp],
        n_classes: int,
    ) -> DiscreteModel | MixedModel:
        """The fitted model of ``structure``: CPTs, and densities if kept."""
        if data.values is None:
            return fit_discrete_model(
                structure, data.codes, y, data.cards, n_classes, float(self.alpha)
            )
        return fit_mixed_model(
            structure,
            data.codes,
            data.values,
            y,
            data.cards,
            n_classes,
            alpha=float(self.alpha),
            var_smoothing=float(self.var_smoothing),
            continuous=self.continuous,
            n_components=int(self.n_components),
        )

    def _learn_structure_from(
        self, data: EncodedData, y: NDArray[np.intp], n_classes: int
    ) -> Structure:
        """Structure from the encoded data.

        Learners that weigh continuous values (``data.values``) override this
        instead of ``_learn_structure``.
        """
        return self._learn_structure(data.codes, y, data.cards, n_classes)

    def _subsets_and_arcs(self, structure: Structure) -> tuple[tuple, tuple]:
        """Feature groups and the arcs between them, for the fitted attributes.

        The structure's own nodes by default; learners whose groups are
        expanded into several nodes (``supernode_cpt="dag"``) override this.
        """
        return structure.nodes, structure.arcs

    # -- prediction ---------------------------------------------------------

    def encode(self, X: object) -> EncodedData:
        """Encode features as the fitted model sees them.

        Applies the fitted discretiser and schema: integer codes (``-1`` =
        missing or unseen) and, for density models, the continuous values.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)

        Returns
        -------
        EncodedData
        """
        check_is_fitted(self, "model_")
        frame = as_frame(X)
        validate_data(self, frame, reset=False, skip_check_array=True)
        names = self.schema_.names
        if list(frame.columns) != names:
            # validate_data has checked the column count (and the names when both
            # fit and predict data have them); an array given after a DataFrame
            # (or the reverse) is matched by position, as in scikit-learn, so the
            # discretiser can select its columns by name.
            frame = frame.set_axis(names, axis=1)
        if self.discretizer_ is not None:
            frame = self._apply_discretizer(frame)
        return self.schema_.encode(frame)

    #: The name subclasses in this package use.
    _encode = encode

    def predict_joint_log_proba(self, X: object) -> NDArray[np.float64]:
        """Unnormalised ``log P(c, x)`` for each class.

        Missing values and categories unseen at ``fit`` are marginalised out
        exactly.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        data = self.encode(X)  # raises NotFittedError before model_ is read
        return self._joint_log_likelihood(data)

    def _joint_log_likelihood(self, data: EncodedData) -> NDArray[np.float64]:
        """``log P(c, x)`` of encoded data: the one inference routine."""
        return joint_log_likelihood(self.model_, data.codes, data.values)

    def predict_log_proba(self, X: object) -> NDArray[np.float64]:
        """Log posterior class probabilities, columns ordered as ``classes_``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        jll = self.predict_joint_log_proba(X)
        return jll - logsumexp(jll, axis=1, keepdims=True)

    @staticmethod
    def _softmax(jll: NDArray[np.float64]) -> NDArray[np.float64]:
        jll = jll - jll.max(axis=1, keepdims=True)
        np.exp(jll, out=jll)
        jll /= jll.sum(axis=1, keepdims=True)
        return jll

    def predict_proba(self, X: object) -> NDArray[np.float64]:
        """Posterior class probabilities, columns ordered as ``classes_``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return self._softmax(self.predict_joint_log_proba(X))

    def predict(self, X: object) -> NDArray:
        """Most probable class (ties go to the lowest class index).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        jll = self.predict_joint_log_proba(X)  # checks fitted before classes_ is read
        return self.classes_[np.argmax(jll, axis=1)]
