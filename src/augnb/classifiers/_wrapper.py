"""Shared plumbing of the wrapper learners (FSS, BSEJ, ASB)."""

from __future__ import annotations

import numbers
from typing import ClassVar

import numpy as np

from augnb.classifiers._base import BaseAugmentedNB, TrainingData, param
from augnb.classifiers._families import HDP_ITERATIONS, SMOOTHING
from augnb.classifiers.constraints import (
    VERBOSE,
    CrossValidation,
    Interval,
    RandomState,
)
from augnb.search.cv_cache import CachedCV


class BaseWrapperNB(BaseAugmentedNB):
    """Base of the wrapper learners: CV parameters and the cached CV scorer."""

    _needs_rows = (
        "its greedy search scores each candidate by cross-validated accuracy, "
        "which needs the rows of every fold at every step"
    )

    _docstring_snippets: ClassVar[dict[str, str]] = {
        **BaseAugmentedNB._docstring_snippets,
        "search_parameters": (
            "epsilon : float, default=0.0\n"
            "    Minimum CV accuracy gain for a step (strict improvement when 0)."
        ),
        "search_tail_parameters": (
            "random_state : int, RandomState or None, default=None\n"
            "    Seed of the internal fold partition (and of the sampler of\n"
            "    ``smoothing=\"hdp\"``).\n"
            "verbose : int, default=0\n"
            "    Print each search step to stderr.\n"
            "{{smoothing_parameters}}"
        ),
        # The end of the parameters and the start of the attributes.
        "search_tail_sections": """\
{{search_tail_parameters}}
{{input_sections}}""",
        "search_attributes": (
            "search_path_ : list of SearchStep\n"
            "    Accepted steps with their CV accuracy.\n"
            "n_candidates_scored_ : int\n"
            "    Number of candidate structures scored."
        ),
    }

    cv: int | str | object = param(5, CrossValidation())
    epsilon: float = param(0.0, Interval(numbers.Real, 0, 1, closed="left"))
    random_state: int | np.random.RandomState | None = param(None, RandomState())
    verbose: int = param(0, VERBOSE)
    smoothing: str = SMOOTHING
    hdp_iterations: int = HDP_ITERATIONS

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
