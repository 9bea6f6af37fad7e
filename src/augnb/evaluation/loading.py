"""Load data sets for cross-validation under a protocol.

``"nested"`` leaves the data as loaded (each estimator discretises inside its
training folds); ``"paper"`` drops incomplete rows and MDL-discretises the
whole data set before the folds are drawn, as the reproduced papers did.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from augnb.datasets import TABLE_SUFFIXES

__all__ = ["NO_CUT_POINT", "PROTOCOLS", "load_datasets"]

Protocol = Literal["nested", "paper"]
PROTOCOLS: tuple[str, ...] = ("nested", "paper")

#: Key of ``X.attrs`` under the paper protocol: the columns in which MDL found
#: no cut point on the whole data set (one interval each).
NO_CUT_POINT = "augnb_no_cut_point"


def _is_path_like(name: str | os.PathLike[str]) -> bool:
    text = os.fspath(name)
    return text.lower().endswith(TABLE_SUFFIXES) or os.sep in text or "/" in text


def _label_for(name: str | os.PathLike[str]) -> str:
    if not _is_path_like(name):
        return os.fspath(name)
    label = Path(name).name
    # data.csv.gz -> data: strip the compression suffix, then the table one.
    for _ in range(2):
        stem, dot, suffix = label.rpartition(".")
        if dot and stem and f".{suffix.lower()}" in TABLE_SUFFIXES:
            label = stem
    return label


def _labels(sources: list[str | os.PathLike[str]]) -> list[str]:
    """One label per data set: a file's stem, or its path where stems collide.

    ``a/data.csv`` and ``b/data.csv`` (or ``car.csv`` beside the bundled
    ``car``) are different tables: each such file is labelled by its path as
    given, so both are compared; one path given twice still collides.
    """
    stems = [_label_for(d) for d in sources]
    shared = {s for s in stems if stems.count(s) > 1}
    return [
        os.fspath(d) if stem in shared and _is_path_like(d) else stem
        for stem, d in zip(stems, sources)
    ]


def _in_data_dir(
    source: str | os.PathLike[str], data_dir: str | os.PathLike[str] | None
) -> Path | None:
    """``data_dir/NAME.csv`` when it exists and ``source`` is a plain name."""
    if data_dir is None or _is_path_like(source):
        return None
    candidate = Path(data_dir) / f"{os.fspath(source)}.csv"
    return candidate if candidate.is_file() else None


def _for_every_table(
    table: str | os.PathLike[str], options: Mapping[str, Any], n_datasets: int
) -> str:
    """Why a table failed with options given for another: "" when it did not.

    ``--target Outcome`` for ``my.csv`` is also asked of ``iris`` beside it,
    whose class column is ``class``. Said only when the table reads without
    those options (read again, on this error only).
    """
    from augnb.datasets import load

    given = [k for k, v in options.items() if v and k != "complete_only"]
    if n_datasets < 2 or not given:
        return ""
    try:
        load(table, complete_only=bool(options.get("complete_only")))
    except (ValueError, OSError):
        return ""
    names = ", ".join(f"--{k.replace('_', '-')}" for k in given)
    return (
        f" ({names} applies to every data set compared: compare tables read "
        "with other options in a run of their own)"
    )


def _refuse_same_source(
    sources: list[str | os.PathLike[str]], data_dir: str | os.PathLike[str] | None
) -> None:
    """Refuse one data set given twice under two spellings.

    ``iris`` and ``Iris``, or ``data.csv`` and ``./data.csv``, would be
    compared twice and counted twice by the tests over data sets.
    """
    from augnb.datasets._loader import source_identity

    seen: dict[str, str | os.PathLike[str]] = {}
    for source in sources:
        local = _in_data_dir(source, data_dir)
        key = source_identity(local if local is not None else source)
        if key in seen and os.fspath(seen[key]) != os.fspath(source):
            raise ValueError(
                f"data sets {os.fspath(seen[key])!r} and {os.fspath(source)!r} "
                f"are the same {key}; list it once"
            )
        seen.setdefault(key, source)


def _discretize_whole(X: pd.DataFrame, y: NDArray[Any]) -> pd.DataFrame:
    """MDL-discretise the float columns of the whole data set."""
    from augnb.discretize import MDLPDiscretizer

    # The same rule the estimators use for "continuous" (schema: float dtype,
    # not categorical), so the paper protocol leaves them nothing to discretise.
    continuous = [
        c
        for c in X.columns
        if pd.api.types.is_float_dtype(X[c].dtype)
        and not isinstance(X[c].dtype, pd.CategoricalDtype)
    ]
    if not continuous:
        return X
    binned = MDLPDiscretizer().fit_transform(X.loc[:, continuous], y)
    out = X.copy()
    for c in continuous:
        out[c] = binned[c]
    # Columns of several values that MDL leaves one interval: the audit of
    # the folds would call them constant columns of the file.
    whole = [
        str(c)
        for c in continuous
        if binned[c].nunique(dropna=True) <= 1 and X[c].nunique(dropna=True) > 1
    ]
    out.attrs[NO_CUT_POINT] = sorted({*out.attrs.get(NO_CUT_POINT, ()), *whole})
    return out


def _label_array(y: Any) -> NDArray[Any]:
    """The class labels as a 1-d array scikit-learn takes as classes.

    Text and categorical labels become an object array of their values.
    Numbers and booleans keep their dtype: scikit-learn calls an object array
    of them a target of "unknown" type and refuses to stratify or fit it.
    """
    values = np.asarray(y.to_numpy() if hasattr(y, "to_numpy") else y)
    return values if values.dtype.kind in "biuf" else values.astype(object)


def load_datasets(
    datasets: Mapping[str, tuple[Any, Any]] | Iterable[str | os.PathLike[str]],
    *,
    protocol: Protocol = "nested",
    data_dir: str | os.PathLike[str] | None = None,
    read_options: Mapping[str, Any] | None = None,
) -> dict[str, tuple[pd.DataFrame, NDArray[Any]]]:
    """Load and prepare data sets for :func:`cross_validate`.

    Parameters
    ----------
    datasets : iterable of str or path, or dict of str to (X, y)
        Bundled names or CSV paths (read by :func:`augnb.datasets.load`), or
        ready data keyed by name. A path is labelled by its file stem, or by
        the path as given where another data set has that name.
    protocol : {"nested", "paper"}, default="nested"
        ``"paper"`` drops rows with a missing value (``complete_only=True``
        for files) and MDL-discretises the float columns of the whole data
        set; ``"nested"`` leaves the data as loaded.
    data_dir : str or path, default=None
        A folder searched first: a name ``NAME`` is read from
        ``data_dir/NAME.csv`` when that file exists, else as usual.
    read_options : mapping, default=None
        Keyword arguments for :func:`augnb.datasets.load` when reading a file
        (``target``, ``drop``, ``sep``, ``encoding``, ``complete_only``).

    Returns
    -------
    data : dict of str to (DataFrame, ndarray)
        Features and labels per data set, in the given order; the labels are
        a 1-d NumPy array: numbers and booleans keep their dtype, other
        labels (text, categories) are an object array of their values.

    Raises
    ------
    ValueError
        For an unknown data set name, an unknown protocol, duplicate labels,
        one data set under two spellings (``iris`` and ``Iris``, ``d.csv``
        and ``./d.csv``),
        mismatched ``X``/``y`` lengths, a missing label in ready data under
        the ``"nested"`` protocol (``"paper"`` drops such rows), or no data
        sets.
    FileNotFoundError
        For a CSV path that does not exist.

    Examples
    --------
    >>> data = load_datasets(["house_votes_84"], protocol="paper")
    >>> data["house_votes_84"][0].shape
    (232, 16)
    """
    from augnb.datasets import load

    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be one of {list(PROTOCOLS)}; got {protocol!r}")
    paper = protocol == "paper"
    out: dict[str, tuple[pd.DataFrame, NDArray[Any]]] = {}
    if isinstance(datasets, Mapping):
        items: list[tuple[str, Any]] = list(datasets.items())
    else:
        if isinstance(datasets, (str, os.PathLike)):
            datasets = [datasets]
        datasets = list(datasets)
        items = list(zip(_labels(datasets), datasets))
        _refuse_same_source(datasets, data_dir)
    if not items:
        raise ValueError("no data sets to evaluate")
    for label, source in items:
        if label in out:
            raise ValueError(f"data set {label!r} is listed twice")
        if isinstance(source, tuple):
            X, y = source
            X = X.copy() if isinstance(X, pd.DataFrame) else pd.DataFrame(X)
            y_values = np.asarray(y)
            # Checked before y takes X's index, which needs equal lengths.
            if len(y_values) != len(X):
                raise ValueError(
                    f"data set {label!r}: X has {len(X)} rows but y has "
                    f"{len(y_values)}"
                )
            y = pd.Series(y_values, index=X.index)
            if paper:
                keep = ~(X.isna().any(axis=1) | y.isna())
                X, y = X.loc[keep].reset_index(drop=True), y[keep]
            elif y.isna().any():
                # A file's loader refuses these by line; ready data by row.
                first = int(np.flatnonzero(y.isna().to_numpy())[0])
                raise ValueError(
                    f"data set {label!r}: y has {int(y.isna().sum())} missing "
                    f"label(s), the first at row {first}; a row without a class "
                    "cannot be used: drop those rows or fill in their class"
                )
        else:
            path = _in_data_dir(source, data_dir)
            options = dict(read_options or {})
            # The paper protocol keeps complete rows whatever the options say.
            options["complete_only"] = paper or bool(options.get("complete_only"))
            table = path if path is not None else source
            try:
                X, y = load(table, **options)
            except ValueError as exc:
                note = _for_every_table(table, options, len(items))
                raise ValueError(f"{exc}{note}") from None
        y_arr = _label_array(y)
        if paper:
            X = _discretize_whole(X, y_arr)
        out[str(label)] = (X, y_arr)
    return out
