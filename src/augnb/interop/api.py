"""``augnb.export``: write a fitted classifier as BIF, XMLBIF, NET or ONNX."""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from augnb._io import atomic_open
from augnb.interop.bif import to_bif
from augnb.interop.net import to_net
from augnb.interop.network import Ensemble, ExportError, Network, describe
from augnb.interop.xmlbif import to_xmlbif

__all__ = ["EXPORT_FORMATS", "MANIFEST_FORMAT", "export", "export_naming_class"]

#: The formats :func:`export` writes, and the file suffixes that name them.
EXPORT_FORMATS = {
    "bif": (".bif",),
    "xmlbif": (".xmlbif", ".bifxml", ".xml"),
    "net": (".net",),
    "onnx": (".onnx",),
}

#: The ``format`` field of an ensemble's manifest (``manifest.json``).
MANIFEST_FORMAT = "augnb-ensemble"

_WRITERS = {"bif": to_bif, "xmlbif": to_xmlbif, "net": to_net}
# Members of an ensemble: XMLBIF as `.bifxml`, the suffix pyAgrum reads.
_SUFFIX = {"bif": ".bif", "xmlbif": ".bifxml", "net": ".net"}

_RULES = {
    "mean_joint": (
        "P(c, x) is the mean of the members' P(c, x) over the members that "
        "qualify for the row; a member qualifies when one of its super-parents "
        "is missing (its network then sums it out) or when the training "
        "frequency of its super-parents' observed values (value_counts) is at "
        "least frequency_limit; rows that no member qualifies for are scored "
        "by the fallback; the posterior is P(c, x) normalised over the classes"
    ),
    "mean_posterior": (
        "the posterior is the mean over all members of each member's posterior P(c | x)"
    ),
}


def _format_of(path: Path, format: str | None) -> str:
    suffix = path.suffix.lower()
    if format is not None:
        if format not in EXPORT_FORMATS:
            raise ExportError(
                f"unknown export format {format!r}; use one of "
                f"{', '.join(EXPORT_FORMATS)}"
            )
        named = [f for f, suffixes in EXPORT_FORMATS.items() if suffix in suffixes]
        if named and named[0] != format:
            # An ONNX graph in a file named .bif: no tool would read it.
            raise ExportError(
                f"{str(path)!r}: its suffix names the {named[0]} format, but the "
                f"format is {format}; name it {EXPORT_FORMATS[format][0]}, or leave "
                "the format out (format=, --format) to take it from the name"
            )
        return format
    for name, suffixes in EXPORT_FORMATS.items():
        if suffix in suffixes:
            return name
    raise ExportError(
        f"cannot tell the format of {str(path)!r} from its suffix; name it "
        f"(format=, --format): one of {', '.join(EXPORT_FORMATS)}"
    )


def export(
    estimator: Any,
    path: str | os.PathLike[str],
    *,
    format: str | None = None,
    target: str = "class",
    name: str = "augnb",
) -> Path:
    """Write a fitted classifier in a format other tools read.

    ``"bif"``, ``"xmlbif"`` and ``"net"`` write the Bayesian network (the
    class node, named ``target``, is a parent of every feature node) with
    its conditional probability tables at full precision (``repr`` of each
    double); a discretised column's states name its bins by their edges, and
    a compound node's states are its members' combinations. An ensemble
    (AODE, AnDE, ESKDB) is a zip archive of its member networks in the
    chosen format and a ``manifest.json`` stating the averaging rule.
    ``"onnx"`` writes one graph for either (see :mod:`augnb.interop.onnx`;
    needs the ``onnx`` package).

    Parameters
    ----------
    estimator : fitted augnb classifier
        A learner with one network over discrete (or discretised) columns,
        the attribute-weighted naive Bayes included, or AODE, AnDE or ESKDB.
    path : str or path-like
        The file to write (atomically). An ensemble in a network format
        needs a ``.zip`` name, and nothing else takes one.
    format : {"bif", "xmlbif", "net", "onnx"}, default=None
        The format; None reads it from the suffix of ``path`` (``.bif``,
        ``.xml``/``.xmlbif``/``.bifxml``, ``.net``, ``.onnx``). A format
        that suffix contradicts is refused.
    target : str, default="class"
        Name of the class node (the target column); not empty.
    name : str, default="augnb"
        Name of the network or graph.

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    ValueError
        (:class:`~augnb.interop.network.ExportError`) If the format is unknown,
        the model holds what the format cannot (density or kernel nodes), an
        ensemble is given a name without ``.zip`` for a network format, a
        one-file export (one network, or ONNX) a ``.zip`` name, or ``onnx``
        is not installed.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from augnb import TAN, export
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> model = TAN().fit(X, y)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = export(model, pathlib.Path(tmp) / "car.bif")
    ...     text = path.read_text()
    >>> text.splitlines()[2:5]
    ['variable class {', '  type discrete [ 4 ] { acc, good, unacc, vgood };', '}']
    """
    return export_naming_class(
        estimator, path, format=format, target=target, name=name
    )[0]


def export_naming_class(
    estimator: Any,
    path: str | os.PathLike[str],
    *,
    format: str | None = None,
    target: str = "class",
    name: str = "augnb",
) -> tuple[Path, str]:
    """:func:`export`, and the class node's name as the file holds it.

    That name is ``target`` made an identifier of the format, renamed where a
    feature node has it: ``augnb export`` reports the one written.

    Parameters
    ----------
    estimator : fitted augnb estimator
        As in :func:`export`.
    path : str or path
        As in :func:`export`.
    format : {"bif", "xmlbif", "net", "onnx"}, default=None
        As in :func:`export`.
    target : str, default="class"
        As in :func:`export`.
    name : str, default="augnb"
        As in :func:`export`.

    Returns
    -------
    path : Path
        The file written.
    class_node : str
        The class node's name in it.
    """
    if not isinstance(target, str) or not target.strip():
        # None, 3 or "" became a node named "None", "v_3" or "v_".
        raise ExportError(
            f"target is the class node's name, a non-empty string; got {target!r}"
        )
    target_path = Path(path)
    fmt = _format_of(target_path, format)
    if fmt == "onnx":
        from augnb.interop.onnx import _require_onnx, to_onnx

        _require_onnx()  # before the model is read: the missing package first
    description = describe(estimator, target=target)
    archive = fmt != "onnx" and not isinstance(description, Network)
    if not archive and target_path.suffix.lower() == ".zip":
        # A .zip name holding a BIF text or an ONNX graph: no tool would
        # open it as either, and an unzip tool finds no archive.
        raise ExportError(
            f"{str(target_path)!r}: a .zip name is for the zip archive of an "
            f"ensemble's networks, but the {fmt} export of "
            f"{type(estimator).__name__} is one file; name it "
            f"FILE{EXPORT_FORMATS[fmt][0]}"
        )
    if fmt == "onnx":
        payload = to_onnx(description, name=name)
    elif isinstance(description, Network):
        payload = _WRITERS[fmt](description, name=name).encode("utf-8")
    else:
        if target_path.suffix.lower() != ".zip":
            raise ExportError(
                f"{type(estimator).__name__} is an ensemble of "
                f"{len(description.members)} networks: its {fmt} export is a zip "
                "archive of the member networks and a manifest; name the output "
                "FILE.zip"
            )
        payload = _archive(description, fmt, type(estimator).__name__, name)
    target_path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_open(target_path, "wb") as handle:
        handle.write(payload)
    return target_path, description.class_name


def _archive(ensemble: Ensemble, fmt: str, estimator: str, name: str) -> bytes:
    files: dict[str, str] = {}
    document = {
        "format": MANIFEST_FORMAT,
        "version": 1,
        "estimator": estimator,
        "member_format": fmt,
        "class_node": ensemble.class_name,
        "classes": [str(c) for c in ensemble.classes],
        **_manifest(ensemble, fmt, name, "", files),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", json.dumps(document, indent=1))
        for member, text in files.items():
            archive.writestr(member, text)
    return buffer.getvalue()


def _manifest(
    ensemble: Ensemble, fmt: str, name: str, prefix: str, files: dict[str, str]
) -> dict[str, Any]:
    """The manifest entries of an ensemble; its member files go to ``files``."""
    members = []
    for i, member in enumerate(ensemble.members):
        file = f"{prefix}members/{i}{_SUFFIX[fmt]}"
        files[file] = _WRITERS[fmt](member, name=f"{name}_{i}")
        entry: dict[str, Any] = {"file": file}
        if ensemble.qualifiers:
            q = ensemble.qualifiers[i]
            nodes = {n.members: n.name for n in member.nodes}
            # A super-parent with one state (a column binned without a cut
            # point) has no node in the networks: it is not named, and the
            # counts are those of its only state.
            counts = q.counts
            for axis in reversed(range(len(q.columns))):
                if (q.columns[axis],) not in nodes:
                    counts = np.take(counts, 0, axis=axis)
            entry["super_parents"] = [
                nodes[(j,)] for j in q.columns if (j,) in nodes
            ]
            entry["value_counts"] = counts.tolist()
        members.append(entry)
    out: dict[str, Any] = {
        "rule": ensemble.rule,
        "rule_text": _RULES[ensemble.rule],
    }
    if ensemble.rule == "mean_joint":
        out["frequency_limit"] = ensemble.frequency_limit
    out["members"] = members
    fallback = ensemble.fallback
    if isinstance(fallback, Ensemble):
        out["fallback"] = _manifest(fallback, fmt, name, f"{prefix}fallback/", files)
    elif isinstance(fallback, Network):
        file = f"{prefix}fallback{_SUFFIX[fmt]}"
        files[file] = _WRITERS[fmt](fallback, name=f"{name}_fallback")
        out["fallback"] = {"file": file}
    return out
