"""Parameter groups several learners share, each owned by an abstract base.

A base lists the valid values of its group's parameters in its
``_parameter_constraints``; a learner that subclasses it writes every
parameter in its own ``__init__`` and merges the base's table with its own
entries (``{**_SmoothedNB._parameter_constraints, "k": ...}``), or the tables
of two groups it combines. :class:`_FromCountsNB` owns no parameters but how
a learner may be fitted: from count tables alone.
"""

from __future__ import annotations

from typing import ClassVar

from augnb.classifiers._base import BaseAugmentedNB
from augnb.classifiers.constraints import (
    DENSITY_PARAMETERS,
    ROOT,
    SMOOTHING_PARAMETERS,
    RandomState,
)

__all__: list[str] = []


class _DensityNB(BaseAugmentedNB):
    """Learners that may model continuous columns by densities.

    Their parameters ``continuous``, ``n_components`` and ``var_smoothing``
    reach ``fit_mixed_model`` (``BaseAugmentedNB._fit_parameters``).
    """

    _parameter_constraints: ClassVar[dict] = {
        **BaseAugmentedNB._parameter_constraints,
        **DENSITY_PARAMETERS,
    }


class _SmoothedNB(BaseAugmentedNB):
    """Learners whose tables are one structure's CPTs, with their estimator.

    ``smoothing`` and ``hdp_iterations`` choose the CPT estimator
    (``BaseAugmentedNB._smoothing_options``); ``random_state`` seeds the HDP
    sampler.
    """

    _parameter_constraints: ClassVar[dict] = {
        **BaseAugmentedNB._parameter_constraints,
        **SMOOTHING_PARAMETERS,
        "random_state": RandomState(),
    }


class _RootedTreeNB(BaseAugmentedNB):
    """Learners that direct a tree away from a root, maybe a random one.

    ``random_state`` draws the root and seeds the HDP sampler of
    ``smoothing="hdp"``.
    """

    _parameter_constraints: ClassVar[dict] = {
        **_SmoothedNB._parameter_constraints,
        "root": ROOT,
    }

    def _rooting(self) -> dict[str, object]:
        """``root`` and ``random_state``, as the structure functions take them."""
        return {"root": self.root, "random_state": self.random_state}


class _FromCountsNB(BaseAugmentedNB):
    """Learners whose structure and parameters read count tables alone.

    Their ``sample_weight`` weighs the counts (``_weighted_counts``), and
    ``partial_fit``, ``fit_files`` and Dask input fit them from sufficient
    statistics (``_needs_rows`` None).
    """

    _weighted_counts: ClassVar[bool] = True
    _needs_rows: ClassVar[str | None] = None
