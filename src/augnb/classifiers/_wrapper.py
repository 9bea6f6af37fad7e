"""Shared plumbing of the wrapper learners (FSS, BSEJ, ASB)."""

from __future__ import annotations

import numbers
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from augnb.classifiers._base import BaseAugmentedNB
from augnb.classifiers._families import _SmoothedNB
from augnb.classifiers.constraints import (
    VERBOSE,
    AnyOf,
    Constraint,
    CVSplits,
    Interval,
    Options,
)
from augnb.search.cv_cache import CachedCV


class GivenFolds(Constraint):
    """A given partition: a 1-D array of integer fold ids or a CV splitter.

    The length of the array (one id per training row) is checked at ``fit``.
    """

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
        if isinstance(value, (str, bytes, numbers.Number)):
            return False
        if hasattr(value, "split") and hasattr(value, "get_n_splits"):
            return True
        try:
            ids = np.asarray(value)
        except (TypeError, ValueError):
            return False
        return ids.ndim == 1 and ids.dtype.kind in "iu"

    def describe(self) -> str:
        """What valid values are, for the error message."""
        return "an array of integer fold ids (one per training row) or a CV splitter"


class BaseWrapperNB(BaseAugmentedNB):
    """Base of the wrapper learners: CV parameters and the cached CV scorer."""

    _no_statistics_reason = (
        "its greedy search scores each candidate by cross-validated accuracy, "
        "which needs the rows of every fold at every step"
    )

    # The search's cross-validation and trace; ``random_state`` seeds its
    # folds (and the HDP sampler of ``smoothing="hdp"``).
    _parameter_constraints: ClassVar[dict] = {
        **_SmoothedNB._parameter_constraints,
        "cv": AnyOf(
            Interval(numbers.Integral, 2), Options("loo"), CVSplits(), GivenFolds()
        ),
        "epsilon": Interval(numbers.Real, 0, 1, closed="left"),
        "verbose": VERBOSE,
    }

    def _scorer(
        self,
        codes: NDArray[np.int32],
        y: NDArray[np.intp],
        cards: NDArray[np.int64],
        n_classes: int,
        supernode_cpt: str = "joint",
        random_state: np.random.RandomState | None = None,
    ) -> CachedCV:
        # random_state: an already-seeded generator the caller shares with its
        # tie breaking (default: the estimator's own random_state)
        cv = self.cv
        if CVSplits().accepts(cv):
            cv = self._explicit_folds(cv, len(y))
        elif GivenFolds().accepts(cv) and not hasattr(cv, "split"):
            cv = self._given_fold_ids(cv, len(y))
        elif isinstance(cv, numbers.Integral):
            # A class with fewer rows than folds leaves some folds without it;
            # stratification still deals its rows one per fold.
            cv = int(min(cv, len(y)))
        return CachedCV(
            codes,
            y,
            cards,
            n_classes,
            alpha=float(self.alpha),
            cv=cv,
            random_state=self.random_state if random_state is None else random_state,
            supernode_cpt=supernode_cpt,
        )

    def _explicit_folds(self, splits: list, n_rows: int) -> NDArray[np.intp]:
        """Fold id of every training row from ``(train, test)`` index pairs.

        The indices refer to the rows of X given to ``fit``; the test sets
        must partition them, each train set being the rest. A row repeated by
        its integer weight stays in its fold (as a duplicated row would).
        """
        n_input, rows = self._fit_rows
        folds = np.full(n_input, -1, dtype=np.intp)
        for k, (train, test) in enumerate(splits):
            test = np.asarray(test, dtype=np.intp).ravel()
            train = np.asarray(train, dtype=np.intp).ravel()
            bad = (test < 0) | (test >= n_input)
            if bad.any() or ((train < 0) | (train >= n_input)).any():
                raise ValueError(
                    f"cv split {k} holds a row index outside 0..{n_input - 1}."
                )
            if (folds[test] >= 0).any():
                raise ValueError(
                    f"cv split {k}: its test rows are already in another test fold; "
                    "the test sets must partition the rows (as KFold's do)."
                )
            folds[test] = k
            if len(np.intersect1d(train, test)) or len(train) + len(test) != n_input:
                raise ValueError(
                    f"cv split {k}: the train rows must be every row not in its "
                    "test rows; other schemes are not supported."
                )
        folds = folds if rows is None else folds[rows]
        if (folds < 0).any():
            raise ValueError(
                "cv splits leave some rows out of every test fold; the test sets "
                "must partition the rows."
            )
        if len(folds) != n_rows:
            raise ValueError("cv splits do not match the training rows.")
        return folds

    def _given_fold_ids(self, cv: object, n_rows: int) -> NDArray[np.intp]:
        """Fold ids given per input row, mapped onto the training rows.

        Rows repeated by an integer ``sample_weight`` (or dropped by a zero
        weight) keep the fold id of the input row they come from.
        """
        ids = np.asarray(cv)
        n_input, rows = getattr(self, "_fit_rows", (n_rows, None))
        if rows is not None and len(ids) == n_input:
            ids = ids[rows]
        # a length mismatch is reported by fold_ids, naming both lengths
        return ids

    def _record_search(self, scorer: CachedCV, path: list) -> None:
        self.search_path_ = path
        self.n_candidates_scored_ = int(scorer.n_evaluations)
