"""The :class:`Suite` description shared by every paper-reproduction suite."""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field
from importlib.resources import files
from types import MappingProxyType
from typing import Any

import pandas as pd
from sklearn.base import BaseEstimator

__all__ = ["EstimatorSpec", "Suite", "dataset_slug", "paper_datasets"]


def dataset_slug(name: str) -> str:
    """File-name form of a paper's data set name (``"Tic-tac-toe"`` -> ``tic_tac_toe``).

    A data set a suite does not bundle is looked up as ``DATA_DIR/<slug>.csv``
    when ``data_dir`` is given.

    Parameters
    ----------
    name : str
        The data set's name in the paper.

    Returns
    -------
    str
    """
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


@functools.cache
def _read_table(file_name: str) -> pd.DataFrame:
    with (files("augnb.evaluation.suites") / "data" / file_name).open("rb") as fh:
        # keep_default_na=False: an empty bundled_name means "not bundled", and
        # no paper label should turn into NaN.
        return pd.read_csv(
            fh, keep_default_na=False, na_values={"mean": [""], "sd": [""]}
        )


def paper_datasets(file_name: str) -> dict[str, str | None]:
    """The data sets of a paper's table -> bundled name (None: not bundled).

    In the order of the table's first appearance of each data set.
    """
    table = _read_table(file_name)
    return {
        row.dataset: (row.bundled_name or None)
        for row in table.drop_duplicates("dataset").itertuples()
    }


@dataclass(frozen=True)
class EstimatorSpec:
    """How a suite builds one of its paper's algorithms.

    Parameters
    ----------
    name : str
        Registry name or alias (:func:`augnb.evaluation.registry.make_estimator`).
    params : mapping of str to object
        Hyperparameters, the paper's settings.
    """

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def make(self) -> BaseEstimator:
        """A new unfitted estimator with :attr:`params`.

        Returns
        -------
        estimator : sklearn.base.BaseEstimator
        """
        from augnb.evaluation.registry import make_estimator

        return make_estimator(self.name, **dict(self.params))

    def available(self) -> bool:
        """Whether the estimator's class exists in this version of augnb."""
        from augnb.evaluation.registry import estimator_class

        try:
            estimator_class(self.name)
        except ValueError:
            return False
        return True


@dataclass(frozen=True)
class Suite:
    """A paper's experiment: data sets, algorithms, protocol and its numbers.

    Every attribute after ``citation`` is keyword-only.

    Parameters
    ----------
    name : str
        Registry key, e.g. ``"mihaljevic2014"``.
    title : str
        One-line description.
    citation : str
        The paper and the tables reproduced.
    datasets : mapping of str to str or None, default=None
        The paper's data set names, in the paper's order, mapped to the
        bundled data set name, or None when augnb does not bundle it. By
        default the data sets of ``table_file`` (:func:`paper_datasets`).
    estimators : mapping of str to EstimatorSpec
        The paper's algorithm labels, in the paper's column order.
    protocol : {"paper", "nested"}, default="paper"
        Protocol passed to :func:`augnb.evaluation.cv.cross_validate`.
    n_splits : int, default=5
        Folds per repetition.
    n_repeats : int, default=5
        Repetitions.
    random_state : int, default=0
        Seed of the folds.
    quick_datasets : tuple of str, default=()
        Paper data set names of the quick version.
    quick_repeats : int, default=1
        Repetitions of the quick version.
    table_file : str or None, default=None
        Packaged CSV with columns ``dataset``, ``bundled_name``,
        ``algorithm``, ``mean``, ``sd`` (accuracy in %).
    ranks_file : str or None, default=None
        Packaged CSV with columns ``algorithm``, ``friedman_rank``.
    paper_tests : str, default=""
        What the paper reports for the omnibus tests, quoted in reports.
    wilcoxon_pair : tuple of (str, str) or None, default=None
        Two algorithm labels compared per data set with the Wilcoxon test.
    notes : tuple of str, default=()
        Caveats printed with the results (e.g. suspect cells of the paper).
    accuracy_table : str, default="the paper's accuracy table"
        How reports name the paper's accuracy table (e.g. "Table 3").
    ranks_table : str, default=""
        How reports name the paper's table of average ranks (e.g. "Table 2"),
        if it has one.
    protocol_source : str, default=""
        Where the paper describes its protocol (e.g. "§6.1"), cited in reports.
    """

    name: str
    title: str
    citation: str
    _: KW_ONLY
    datasets: Mapping[str, str | None] = None  # type: ignore[assignment]
    estimators: Mapping[str, EstimatorSpec]
    protocol: str = "paper"
    n_splits: int = 5
    n_repeats: int = 5
    random_state: int = 0
    quick_datasets: tuple[str, ...] = ()
    quick_repeats: int = 1
    table_file: str | None = None
    ranks_file: str | None = None
    paper_tests: str = ""
    wilcoxon_pair: tuple[str, str] | None = None
    notes: tuple[str, ...] = ()
    accuracy_table: str = "the paper's accuracy table"
    ranks_table: str = ""
    protocol_source: str = ""

    def __post_init__(self) -> None:
        datasets = self.datasets
        if datasets is None:
            if self.table_file is None:
                raise ValueError("a suite needs datasets or a table_file to read them")
            datasets = paper_datasets(self.table_file)
        # Read-only views, so a registered suite cannot be altered by a caller;
        # dataclasses.replace() is the way to derive a variant.
        object.__setattr__(self, "datasets", MappingProxyType(dict(datasets)))
        object.__setattr__(self, "estimators", MappingProxyType(dict(self.estimators)))
        unknown = [d for d in self.quick_datasets if d not in self.datasets]
        if unknown:
            raise ValueError(
                f"quick_datasets not among the suite's data sets: {unknown}"
            )

    # -- the paper's numbers -------------------------------------------------
    @property
    def paper_table(self) -> pd.DataFrame:
        """The paper's accuracy table, one row per (data set, algorithm).

        Columns ``dataset`` (paper name), ``bundled_name`` (empty if not
        bundled), ``algorithm``, ``mean`` and ``sd`` (in %). Empty when the
        suite has no ``table_file``.
        """
        if self.table_file is None:
            return pd.DataFrame(
                columns=["dataset", "bundled_name", "algorithm", "mean", "sd"]
            )
        table = _read_table(self.table_file)
        return table.loc[:, ["dataset", "bundled_name", "algorithm", "mean", "sd"]]

    def paper_accuracy(self, stat: str = "mean") -> pd.DataFrame:
        """The paper's accuracies as a data sets x algorithms matrix (in %).

        Parameters
        ----------
        stat : {"mean", "sd"}, default="mean"
            Which number of the "mean ± sd" cells.

        Returns
        -------
        matrix : pandas.DataFrame
            Rows in the paper's data set order, columns in :attr:`estimators`
            order (algorithms of the table that the suite does not run are
            appended).
        """
        if stat not in ("mean", "sd"):
            raise ValueError(f"stat must be 'mean' or 'sd'; got {stat!r}")
        table = self.paper_table
        wide = table.pivot(index="dataset", columns="algorithm", values=stat)
        rows = list(dict.fromkeys(table["dataset"]))
        extra = [
            a for a in dict.fromkeys(table["algorithm"]) if a not in self.estimators
        ]
        cols = [a for a in self.estimators if a in wide.columns] + extra
        return wide.reindex(index=rows, columns=cols).astype(float)

    @property
    def paper_ranks(self) -> pd.Series:
        """The paper's average Friedman ranks, indexed by algorithm label."""
        if self.ranks_file is None:
            return pd.Series(dtype=float, name="average_rank")
        table = _read_table(self.ranks_file)
        ranks = table.set_index("algorithm")["friedman_rank"].astype(float)
        order = [a for a in self.estimators if a in ranks.index]
        order += [a for a in ranks.index if a not in order]
        return ranks.reindex(order).rename("average_rank")

    # -- what runs -----------------------------------------------------------
    @property
    def bundled(self) -> dict[str, str]:
        """Paper data set name -> bundled name, for the bundled ones."""
        return {p: b for p, b in self.datasets.items() if b}

    @property
    def not_bundled(self) -> list[str]:
        """The paper's data sets that augnb does not bundle."""
        return [p for p, b in self.datasets.items() if not b]

    def selected_datasets(self, quick: bool = False) -> list[str]:
        """Paper names of the data sets of the full or quick version.

        Parameters
        ----------
        quick : bool, default=False
            The quick version's data sets instead of all.

        Returns
        -------
        list of str
        """
        return list(self.quick_datasets) if quick else list(self.datasets)

    def make_estimators(self, *, warn: bool = True) -> dict[str, BaseEstimator]:
        """Unfitted estimators keyed by the paper's labels.

        Algorithms whose class does not exist in this version of augnb are
        skipped, with a warning, so a suite runs with what is there.

        Parameters
        ----------
        warn : bool, default=True
            Warn about skipped algorithms.

        Returns
        -------
        estimators : dict of str to estimator
        """
        made = {}
        missing = []
        for label, spec in self.estimators.items():
            if spec.available():
                made[label] = spec.make()
            else:
                missing.append(f"{label} ({spec.name})")
        if missing and warn:
            warnings.warn(
                f"suite {self.name!r}: skipping algorithms not available in this "
                f"version of augnb: {', '.join(missing)}",
                UserWarning,
                stacklevel=2,
            )
        return made
