"""Shared plumbing of the wrapper learners (FSS, BSEJ, ASB)."""

from __future__ import annotations

import numbers

import numpy as np
from numpy.typing import NDArray

from augnb.classifiers._base import BaseAugmentedNB
from augnb.search.cv_cache import CachedCV


class WrapperMixin(BaseAugmentedNB):
    """Hyperparameter checks and the cached CV scorer of a wrapper search."""

    _no_statistics_reason = (
        "its greedy search scores each candidate by cross-validated accuracy, "
        "which needs the rows of every fold at every step"
    )

    def _check_params(self) -> None:
        super()._check_params()
        cv = self.cv
        if not (
            cv == "loo"
            or (
                isinstance(cv, numbers.Integral)
                and not isinstance(cv, bool)
                and cv >= 2
            )
        ):
            raise ValueError(f"cv must be an int >= 2 or 'loo'; got {cv!r}.")
        eps = self.epsilon
        if (
            not isinstance(eps, numbers.Real)
            or isinstance(eps, bool)
            or not 0 <= eps < 1
        ):
            raise ValueError(f"epsilon must be a number in [0, 1); got {eps!r}.")

    def _scorer(
        self,
        codes: NDArray[np.int32],
        y: NDArray[np.intp],
        cards: NDArray[np.int64],
        n_classes: int,
    ) -> CachedCV:
        cv = self.cv
        if cv != "loo":
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
            random_state=self.random_state,
            supernode_cpt=getattr(self, "supernode_cpt", "joint"),
        )

    def _record_search(self, scorer: CachedCV, path: list) -> None:
        self.search_path_ = path
        self.n_candidates_scored_ = int(scorer.n_evaluations)
