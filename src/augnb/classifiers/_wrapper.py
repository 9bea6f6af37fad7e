"""Shared plumbing of the wrapper learners (FSS, BSEJ, ASB)."""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from augnb.classifiers._base import BaseAugmentedNB
from augnb.classifiers._families import _SmoothedNB
from augnb.classifiers.constraints import (
    VERBOSE,
    CrossValidation,
    Interval,
)
from augnb.search.cv_cache import CachedCV
from augnb.stats.training import TrainingData


class BaseWrapperNB(BaseAugmentedNB):
    """Base of the wrapper learners: CV parameters and the cached CV scorer."""

    _needs_rows = (
        "its greedy search scores each candidate by cross-validated accuracy, "
        "which needs the rows of every fold at every step"
    )

    # The search's cross-validation and trace; ``random_state`` seeds its
    # folds (and the HDP sampler of ``smoothing="hdp"``).
    _parameter_constraints: ClassVar[dict] = {
        **_SmoothedNB._parameter_constraints,
        "cv": CrossValidation(),
        "epsilon": Interval(numbers.Real, 0, 1, closed="left"),
        "verbose": VERBOSE,
    }

    def _scorer(
        self,
        data: TrainingData,
        supernode_cpt: str = "joint",
        random_state: np.random.RandomState | None = None,
    ) -> CachedCV:
        # random_state: an already-seeded generator the caller shares with its
        # tie breaking (default: the estimator's own random_state). Every form
        # of cv is resolved by the scorer, against the input rows of fit
        # (data.rows) when weights dropped or repeated rows.
        return CachedCV(
            *data.inputs,
            alpha=float(self.alpha),
            cv=self.cv,
            random_state=self.random_state if random_state is None else random_state,
            supernode_cpt=supernode_cpt,
            rows=data.rows,
        )

    def _record_search(self, scorer: CachedCV, path: list) -> None:
        self.search_path_ = path
        self.n_candidates_scored_ = int(scorer.n_evaluations)

    def _run_search(
        self,
        data: TrainingData,
        search: Callable[..., tuple[Any, list]],
        supernode_cpt: str = "joint",
        **options: Any,
    ) -> Any:
        """What ``search`` finds on the cached CV scorer of ``data``; its path kept.

        The search gets the estimator's ``epsilon`` and ``verbose`` and
        ``options``; a ``random_state`` among them (a generator the search
        draws its tie breaks from) also draws the scorer's folds.
        """
        scorer = self._scorer(
            data, supernode_cpt, random_state=options.get("random_state")
        )
        found, path = search(
            scorer,
            data.codes.shape[1],
            epsilon=float(self.epsilon),
            verbose=self.verbose,
            **options,
        )
        self._record_search(scorer, path)
        return found
