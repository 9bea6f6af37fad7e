"""The options of reading a table, declared once for every subcommand.

``fit``, ``compare``, ``inspect`` and ``predict`` read tables the same way, so
they take the same options (``--target``, ``--drop``, ``--id-column``,
``--sep``, ``--encoding``, ``--decimal``, ``--discrete``, ``--continuous``,
``--complete-only``, and ``--batch-rows`` where the command streams),
declared here by :func:`add_data_options` and turned into the keywords of
:func:`augnb.datasets.load` by :func:`read_options`. A subcommand leaves out
only what makes no sense for it (``predict`` drops no column, keeps every row
and reads the column kinds from the model).
"""

from __future__ import annotations

import argparse
from typing import Any

from augnb.cli._common import positive_int

__all__ = [
    "add_data_options",
    "column_name",
    "encoding_name",
    "read_options",
    "separator",
]

#: ``--id-column`` of the commands that learn or inspect: a column left out.
ID_COLUMN_HELP = (
    "a row identifier (e.g. a patient number): not a feature; `augnb predict` "
    "copies it to its output"
)


def separator(text: str) -> str:
    r"""Argparse type of ``--sep``: one character; ``\t`` or ``tab`` for a tab."""
    from augnb.data.tables import delimiter

    try:
        return delimiter(text)
    except ValueError as exc:  # the reader's own rule, said as argparse says it
        raise argparse.ArgumentTypeError(str(exc)) from None


def column_name(text: str) -> str:
    """Argparse type of a column named by an option: not empty.

    No column has an empty name (a header's empty cell is refused), and an
    empty ``--target`` or ``--id-column`` was taken as not given at all.
    """
    if not text.strip():
        raise argparse.ArgumentTypeError(
            f"{text!r} names no column (a column's name is not empty); give the "
            "column's name, or leave the option out"
        )
    return text


def encoding_name(text: str) -> str:
    """Argparse type of ``--encoding``: a text encoding Python knows."""
    import codecs

    try:
        codecs.lookup(text)
    except LookupError:
        raise argparse.ArgumentTypeError(
            f"unknown encoding {text!r}; e.g. utf-8, latin-1, cp1252"
        ) from None
    return text


def add_data_options(
    parser: argparse.ArgumentParser,
    *,
    dataset: str | None = "DATASET_OR_FILE",
    drop: str | None = "columns to leave out",
    id_column: str = ID_COLUMN_HELP,
    target: str = "the class column, anywhere in the table (default: `class`)",
    complete_only: bool = True,
    kinds: bool = True,
    batch_rows: bool = False,
) -> None:
    """Declare the table a subcommand reads and the options of reading it.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    dataset : str or None, default="DATASET_OR_FILE"
        Metavar of the positional table argument; None when the subcommand
        names its tables itself.
    drop : str or None, default="columns to leave out"
        Help of ``--drop``; None: no ``--drop``.
    id_column : str, default=ID_COLUMN_HELP
        Help of ``--id-column``.
    target : str, default="the class column, anywhere in the table (default: `class`)"
        Help of ``--target``.
    complete_only : bool, default=True
        Whether to offer ``--complete-only``.
    kinds : bool, default=True
        Whether to offer ``--discrete`` and ``--continuous`` (commands that
        learn the column kinds; ``predict`` reads them from the model).
    batch_rows : bool, default=False
        Whether to offer ``--batch-rows`` (commands that stream the file).
    """
    if dataset:
        parser.add_argument("dataset", metavar=dataset)
    group = parser.add_argument_group("reading the table")
    group.add_argument(
        "--target",
        type=column_name,
        metavar="NAME",
        help=target,
    )
    if drop:
        group.add_argument(
            "--drop", nargs="+", type=column_name, metavar="COL", help=drop
        )
    group.add_argument("--id-column", type=column_name, metavar="COL", help=id_column)
    group.add_argument(
        "--sep",
        type=separator,
        metavar="CHAR",
        help="CSV delimiter (default: detected among , ; tab |); tab as '\\t'",
    )
    group.add_argument(
        "--encoding",
        type=encoding_name,
        metavar="NAME",
        help="CSV text encoding, e.g. latin-1 (default: UTF-8, with or without BOM)",
    )
    group.add_argument(
        "--decimal",
        metavar="CHAR",
        choices=[".", ","],
        help="decimal mark of the CSV's numbers, . or , (default: detected: "
        "a ;-separated file whose numbers are written 1,5 is read with ,)",
    )
    if kinds:
        group.add_argument(
            "--discrete",
            nargs="+",
            type=column_name,
            metavar="COL",
            help="model these columns as categories, whatever their values",
        )
        group.add_argument(
            "--continuous",
            nargs="+",
            type=column_name,
            metavar="COL",
            help="model these columns as numbers, whatever their values",
        )
    if complete_only:
        group.add_argument(
            "--complete-only",
            action="store_true",
            help="drop rows with a missing value",
        )
    if batch_rows:
        # Only a command that names its table (fit) streams a glob or a
        # folder; predict reads one file.
        where = (
            f"; {dataset} may be a glob or a folder of Parquet/CSV files, "
            "streamed with or without this option"
            if dataset
            else ""
        )
        group.add_argument(
            "--batch-rows",
            type=positive_int,
            metavar="N",
            help="rows per batch when streaming (default: chosen from the "
            f"available memory){where}",
        )


def read_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keywords of :func:`augnb.datasets.load` the options ask for.

    Only options given are returned; the loader checks the column names
    (``--id-column`` is left out of the features like a ``--drop`` column).
    """
    target = getattr(args, "target", None)
    options = {
        "target": target,
        "drop": getattr(args, "drop", None),
        "id_column": getattr(args, "id_column", None),
        "sep": getattr(args, "sep", None),
        "encoding": getattr(args, "encoding", None),
        "decimal": getattr(args, "decimal", None),
        "discrete": getattr(args, "discrete", None),
        "continuous": getattr(args, "continuous", None),
        "complete_only": getattr(args, "complete_only", False),
    }
    return {k: v for k, v in options.items() if v}
