"""Parameter groups several learners share, declared once as abstract bases.

A learner inherits a group by subclassing it and overrides a parameter in one
line (``continuous: str = param("gaussian")``).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from augnb.classifiers._base import BaseAugmentedNB, param
from augnb.classifiers.constraints import (
    DENSITY_PARAMETERS,
    ROOT,
    SMOOTHING_PARAMETERS,
    RandomState,
)

__all__: list[str] = []

# The CPT estimator of the learners whose tables are one structure's CPTs
# (``smoothing: str = SMOOTHING`` in a class, or in a group below); the HDP
# sampler is seeded by the learner's ``random_state`` (HDP_SEED where the
# learner has no other use for one).
SMOOTHING = param("lidstone", SMOOTHING_PARAMETERS["smoothing"])
HDP_ITERATIONS = param(500, SMOOTHING_PARAMETERS["hdp_iterations"])
HDP_SEED = param(None, RandomState())


class _DensityNB(BaseAugmentedNB):
    """Learners that may model continuous columns by densities."""

    continuous: str = param("discretize", DENSITY_PARAMETERS["continuous"])
    n_components: int = param(2, DENSITY_PARAMETERS["n_components"])
    var_smoothing: float = param(1e-9, DENSITY_PARAMETERS["var_smoothing"])


class _SmoothedNB(BaseAugmentedNB):
    """Learners whose tables are one structure's CPTs, with their estimator."""

    _docstring_snippets: ClassVar[dict[str, str]] = {
        **BaseAugmentedNB._docstring_snippets,
        # The end of the parameters and the start of the attributes.
        "hdp_tail_sections": """\
{{hdp_parameters}}
{{input_sections}}""",
    }

    smoothing: str = SMOOTHING
    hdp_iterations: int = HDP_ITERATIONS
    random_state: int | np.random.RandomState | None = HDP_SEED


class _RootedTreeNB(BaseAugmentedNB):
    """Learners that direct a tree away from a root, maybe a random one."""

    _docstring_snippets: ClassVar[dict[str, str]] = {
        **BaseAugmentedNB._docstring_snippets,
        "root_parameters": """\
root : {"first", "random"}, default="first"
    Tree root: feature 0 or one drawn with ``random_state``.
random_state : int, RandomState or None, default=None
    Seed for ``root="random"`` and for the sampler of ``smoothing="hdp"``.
{{smoothing_parameters}}""",
        # TAN and DDR-TAN: from the root to the tree.
        "tree_sections": """\
{{root_parameters}}
{{input_sections}}
structure_ : Structure
    The tree (``structure_.arcs``), exportable with ``to_networkx`` / ``to_dot``.""",
    }

    root: str = param("first", ROOT)
    random_state: int | np.random.RandomState | None = param(None, RandomState())
    smoothing: str = SMOOTHING
    hdp_iterations: int = HDP_ITERATIONS

    def _rooting(self) -> dict[str, object]:
        """``root`` and ``random_state``, as the structure functions take them."""
        return {"root": self.root, "random_state": self.random_state}
