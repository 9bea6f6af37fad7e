"""Structure learners: functions from codes to a parameter-free :class:`Structure`."""

from __future__ import annotations

from augnb.structure._structure import Structure, structure_dot
from augnb.structure.naive import naive_bayes_structure
from augnb.structure.tan import maximum_spanning_forest, orient_forest, tan_structure

__all__ = [
    "Structure",
    "maximum_spanning_forest",
    "naive_bayes_structure",
    "orient_forest",
    "structure_dot",
    "tan_structure",
]
