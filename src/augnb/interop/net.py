"""Hugin's NET format, as Hugin, GeNIe, pgmpy and pyAgrum read it.

States are quoted identifiers, as in BIF (``le_2.45``, ``gt_2.45_le_4.75``;
a compound node's joined by ``__``): some readers split a state name at
spaces. Each potential nests its table with the class outermost, then the
parents in order, the node's own states innermost.
"""

from __future__ import annotations

import numpy as np

from augnb._docstrings import shared_entries
from augnb.interop.network import Network

__all__ = ["to_net"]


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _nested(table: np.ndarray) -> str:
    if table.ndim == 1:
        return "(" + " ".join(repr(float(v)) for v in table) + ")"
    return "(" + " ".join(_nested(sub) for sub in table) + ")"


@shared_entries
def to_net(network: Network, *, name: str = "augnb") -> str:
    """The network as Hugin NET text.

    Parameters
    ----------
    {network_writer}

    Returns
    -------
    str
    """
    # A comment runs to the end of its line.
    out = [f"% {' '.join(name.split())}: exported by augnb", "net", "{", "}"]
    for var, states in network.variables(tokens=True):
        out += [
            f"node {var}",
            "{",
            f"  label = {_quoted(var)};",
            f"  states = ({' '.join(_quoted(s) for s in states)});",
            "}",
        ]
    for var, given, table in network.tables():
        head = f"{var} | {' '.join(given)}" if given else var
        out += [
            f"potential ( {head} )",
            "{",
            f"  data = {_nested(table)};",
            "}",
        ]
    return "\n".join(out) + "\n"
