"""Shared plumbing of the wrapper learners (FSS, BSEJ, ASB)."""

from __future__ import annotations

import numbers
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from augnb.classifiers._base import BaseAugmentedNB
from augnb.classifiers.constraints import VERBOSE, AnyOf, Interval, Options, RandomState
from augnb.search.cv_cache import CachedCV


class BaseWrapperNB(BaseAugmentedNB):
    """Base of the wrapper learners: CV parameters and the cached CV scorer."""

    _docstring_snippets: ClassVar[dict[str, str]] = {
        **BaseAugmentedNB._docstring_snippets,
        "search_parameters": (
            "epsilon : float, default=0.0\n"
            "    Minimum CV accuracy gain for a step (strict improvement when 0)."
        ),
        "search_tail_parameters": (
            "random_state : int, RandomState or None, default=None\n"
            "    Seed of the internal fold partition.\n"
            "verbose : int, default=0\n"
            "    Print each search step to stderr."
        ),
        "search_attributes": (
            "search_path_ : list of SearchStep\n"
            "    Accepted steps with their CV accuracy.\n"
            "n_candidates_scored_ : int\n"
            "    Number of candidate structures scored."
        ),
    }

    _parameter_constraints: ClassVar[dict] = {
        **BaseAugmentedNB._parameter_constraints,
        "cv": AnyOf(Interval(numbers.Integral, 2), Options("loo")),
        "epsilon": Interval(numbers.Real, 0, 1, closed="left"),
        "random_state": RandomState(),
        "verbose": VERBOSE,
    }

    def _scorer(
        self,
        codes: NDArray[np.int32],
        y: NDArray[np.intp],
        cards: NDArray[np.int64],
        n_classes: int,
        supernode_cpt: str = "joint",
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
            supernode_cpt=supernode_cpt,
        )

    def _record_search(self, scorer: CachedCV, path: list) -> None:
        self.search_path_ = path
        self.n_candidates_scored_ = int(scorer.n_evaluations)
