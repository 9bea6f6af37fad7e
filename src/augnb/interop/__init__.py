"""Exported forms of fitted classifiers: BIF, XMLBIF, NET and ONNX.

:func:`augnb.interop.network.describe` reads a fitted estimator once into a
neutral description (nodes, states, parents, CPTs, or member networks and
their averaging rule); one writer per format serialises it.
:func:`augnb.interop.api.export` (``augnb.export``) writes a file.
"""

from __future__ import annotations

__all__: list[str] = []
