"""Plots: learned structures and critical difference diagrams.

matplotlib is optional (``pip install 'augnb[plot]'``) and imported only when
a plotting function is called.
"""

from __future__ import annotations

from augnb.plotting.critical_difference import plot_critical_difference, save_figure
from augnb.plotting.structure import plot_structure, structure_layout

__all__ = [
    "plot_critical_difference",
    "plot_structure",
    "save_figure",
    "structure_layout",
]
