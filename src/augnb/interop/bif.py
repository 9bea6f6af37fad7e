"""BIF (Bayesian Interchange Format), as pgmpy, pyAgrum and R's bnlearn read it.

Names are identifiers: a discretised column's states name its bin by the
edges (``le_2.45``, ``gt_2.45_le_4.75``, ``gt_4.75``); a compound node's
states join its members' with ``__``. Every probability is written with
``repr`` (the shortest text that reads back to the same double).
"""

from __future__ import annotations

import numpy as np

from augnb._docstrings import shared_entries
from augnb.interop.network import Network

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
    lines = [f"network {name} {{", "}"]
    for var, states in network.variables(tokens=True):
        lines += [
            f"variable {var} {{",
            f"  type discrete [ {len(states)} ] {{ {', '.join(states)} }};",
            "}",
        ]
    lines += [
        f"probability ( {network.class_name} ) {{",
        f"  table {_numbers(network.prior)};",
        "}",
    ]
    for node in network.nodes:
        parents = [network.class_name] + [network.nodes[p].name for p in node.parents]
        tokens = [network.class_tokens] + [
            network.nodes[p].tokens for p in node.parents
        ]
        lines.append(f"probability ( {node.name} | {', '.join(parents)} ) {{")
        for config in np.ndindex(*node.cpt.shape[:-1]):
            given = ", ".join(tokens[i][v] for i, v in enumerate(config))
            lines.append(f"  ({given}) {_numbers(node.cpt[config])};")
        lines.append("}")
    return "\n".join(lines) + "\n"
