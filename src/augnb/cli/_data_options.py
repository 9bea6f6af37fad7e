"""The options of reading a table, shared by every subcommand that reads one.

:func:`add_data_options` declares them on a subparser; :func:`data_options`
turns the parsed arguments into the keywords of
:func:`augnb.datasets.load`. One declaration, so that ``fit``, ``predict``,
``inspect`` and ``compare`` spell and document them the same way.
"""

from __future__ import annotations

import argparse

from augnb.cli._common import positive_int

__all__ = ["add_data_options", "data_options"]


def add_data_options(
    parser: argparse.ArgumentParser,
    *,
    dataset: bool = True,
    drop: str | None = "columns to leave out",
    id_column: str | None = None,
    batch_rows: bool = False,
    kinds: bool = True,
) -> None:
    """Declare the table to read and the options of reading it.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    dataset : bool, default=True
        Add the positional ``DATASET_OR_FILE``.
    drop : str or None, default="columns to leave out"
        Help of ``--drop`` (None: no ``--drop``).
    id_column : str or None, default=None
        Help of ``--id-column`` (None: no ``--id-column``).
    batch_rows : bool, default=False
        Add ``--batch-rows`` (commands that stream the file).
    kinds : bool, default=True
        Add ``--discrete`` and ``--continuous`` (commands that learn kinds;
        ``predict`` reads them from the model).
    """
    if dataset:
        parser.add_argument("dataset", metavar="DATASET_OR_FILE")
    group = parser.add_argument_group("reading the table")
    group.add_argument(
        "--target",
        metavar="NAME",
        help="the class column, anywhere in the table (default: `class`)",
    )
    if drop:
        group.add_argument("--drop", nargs="+", metavar="COL", help=drop)
    if id_column:
        group.add_argument("--id-column", metavar="COL", help=id_column)
    group.add_argument(
        "--sep",
        metavar="CHAR",
        help="CSV delimiter (default: detected among , ; tab |); tab as '\\t'",
    )
    group.add_argument(
        "--encoding",
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
            metavar="COL",
            help="model these columns as categories, whatever their values",
        )
        group.add_argument(
            "--continuous",
            nargs="+",
            metavar="COL",
            help="model these columns as numbers, whatever their values",
        )
    if batch_rows:
        group.add_argument(
            "--batch-rows",
            type=positive_int,
            metavar="N",
            help="rows per batch when streaming (default: chosen from the "
            "available memory); DATASET_OR_FILE may then be a glob or a folder "
            "of Parquet/CSV files",
        )


def data_options(args: argparse.Namespace) -> dict[str, object]:
    """The keywords of :func:`augnb.datasets.load` the parsed options give.

    ``--id-column`` is left out of the features like a ``--drop`` column.
    """
    drop = list(getattr(args, "drop", None) or [])
    id_column = getattr(args, "id_column", None)
    if id_column:
        drop.append(id_column)
    return {
        "target": getattr(args, "target", None),
        "drop": drop or None,
        "sep": getattr(args, "sep", None),
        "encoding": getattr(args, "encoding", None),
        "decimal": getattr(args, "decimal", None),
        "discrete": getattr(args, "discrete", None),
        "continuous": getattr(args, "continuous", None),
    }
