"""XMLBIF 0.3, as Weka, pgmpy and pyAgrum read it.

States keep their readable names (a category as written, a bin as its
interval ``(2.45, 4.75]``, a compound state as ``a & b``); the table of each
variable lists its probabilities with the variable itself varying fastest,
then its last ``GIVEN`` parent, the class (first ``GIVEN``) slowest.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

from augnb._docstrings import shared_entries
from augnb.interop.network import Network, made_distinct

__all__ = ["to_xmlbif"]

# Characters XML 1.0 cannot hold, even escaped (most control characters).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_texts(states: tuple[str, ...]) -> list[str]:
    r"""States as XML readers give them back: distinct, whitespace collapsed.

    XML parsers turn a line break ``\r\n`` into ``\n`` and pyAgrum collapses
    runs of whitespace, so two categories that differ only there would read
    back as one state; characters XML cannot hold make the file ill-formed.
    A state made equal to an earlier one this way gets `` (2)``, `` (3)``...
    """
    return made_distinct(
        [" ".join(_NOT_XML.sub("", state).split()) or "_" for state in states],
        " ({})",
    )


@shared_entries
def to_xmlbif(network: Network, *, name: str = "augnb") -> str:
    """The network as XMLBIF 0.3 text.

    Parameters
    ----------
    {network_writer}

    Returns
    -------
    str
    """
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<BIF VERSION="0.3">',
        "<NETWORK>",
        f"<NAME>{escape(_xml_texts((name,))[0])}</NAME>",
    ]
    for var, states in network.variables(tokens=False):
        out.append('<VARIABLE TYPE="nature">')
        out.append(f"  <NAME>{escape(var)}</NAME>")
        out += [f"  <OUTCOME>{escape(s)}</OUTCOME>" for s in _xml_texts(states)]
        out.append("</VARIABLE>")
    for var, given, table in network.tables():
        out.append("<DEFINITION>")
        out.append(f"  <FOR>{escape(var)}</FOR>")
        out += [f"  <GIVEN>{escape(g)}</GIVEN>" for g in given]
        values = " ".join(repr(float(v)) for v in table.ravel())
        out.append(f"  <TABLE>{values}</TABLE>")
        out.append("</DEFINITION>")
    out += ["</NETWORK>", "</BIF>"]
    return "\n".join(out) + "\n"
