"""BIF (Bayesian Interchange Format), as pgmpy, pyAgrum and R's bnlearn read it.

Names are identifiers: a discretised column's states name its bin by the
edges (``le_2.45``, ``gt_2.45_le_4.75``, ``gt_4.75``); a compound node's
states join its members' with ``__``. Every probability is written with
``repr`` (the shortest text that reads back to the same double).
"""

from __future__ import annotations

import numpy as np

from augnb._docstrings import shared_entries
from augnb.interop.network import Network, identifier

__all__ = ["to_bif"]


def _numbers(values: np.ndarray) -> str:
    return ", ".join(repr(float(v)) for v in values)


@shared_entries
def to_bif(network: Network, *, name: str = "augnb") -> str:
    """The network as BIF text.

    Parameters
    ----------
    {network_writer}

    Returns
    -------
    str
    """
    # The network's name is an identifier in BIF, as a node's.
    lines = [f"network {identifier(name, 'v')} {{", "}"]
    for var, states in network.variables(tokens=True):
        lines += [
            f"variable {var} {{",
            f"  type discrete [ {len(states)} ] {{ {', '.join(states)} }};",
            "}",
        ]
    tokens = dict(network.variables(tokens=True))
    for var, given, table in network.tables():
        if not given:
            lines += [f"probability ( {var} ) {{", f"  table {_numbers(table)};", "}"]
            continue
        lines.append(f"probability ( {var} | {', '.join(given)} ) {{")
        for config in np.ndindex(*table.shape[:-1]):
            row = ", ".join(tokens[g][v] for g, v in zip(given, config))
            lines.append(f"  ({row}) {_numbers(table[config])};")
        lines.append("}")
    return "\n".join(lines) + "\n"
