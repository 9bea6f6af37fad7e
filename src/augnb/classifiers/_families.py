"""Parameter groups several learners share, declared once as abstract bases.

A learner inherits a group by subclassing it and overrides a parameter in one
line (``continuous: str = param("gaussian")``).
"""

from __future__ import annotations

import numpy as np

from augnb.classifiers._base import BaseAugmentedNB, param
from augnb.classifiers.constraints import DENSITY_PARAMETERS, ROOT, RandomState

__all__: list[str] = []


class _DensityNB(BaseAugmentedNB):
    """Learners that may model continuous columns by densities."""

    continuous: str = param("discretize", DENSITY_PARAMETERS["continuous"])
    n_components: int = param(2, DENSITY_PARAMETERS["n_components"])
    var_smoothing: float = param(1e-9, DENSITY_PARAMETERS["var_smoothing"])


class _RootedTreeNB(BaseAugmentedNB):
    """Learners that direct a tree away from a root, maybe a random one."""

    root: str = param("first", ROOT)
    random_state: int | np.random.RandomState | None = param(None, RandomState())
