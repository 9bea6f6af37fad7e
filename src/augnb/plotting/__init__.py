"""Plots: critical difference diagrams (and, later, structure plots).

matplotlib is optional (``pip install 'augnb[plot]'``) and imported only when
a plotting function is called.
"""

from __future__ import annotations

from augnb.plotting.critical_difference import plot_critical_difference, save_figure

__all__ = ["plot_critical_difference", "save_figure"]
