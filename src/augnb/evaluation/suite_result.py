"""What a paper-suite run produced, and the small formatters of its report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from augnb.evaluation.significance import ImanDavenportResult
from augnb.evaluation.suites import Suite

__all__ = [
    "ALPHA",
    "DIFF_FLAG_POINTS",
    "SuiteResult",
    "iman_davenport_text",
    "markdown_table",
    "p_text",
    "pm_text",
]

#: |ours - paper| above this many accuracy points is flagged in results.md.
DIFF_FLAG_POINTS = 2.5
#: Significance level of the tests in the report.
ALPHA = 0.05


@dataclass
class SuiteResult:
    """What :func:`run_suite` produced.

    Parameters
    ----------
    suite : Suite
        The suite that ran.
    quick : bool
        Whether the quick version ran.
    results : pandas.DataFrame
        Tidy per-fold results (``dataset`` holds the names the data were
        loaded under: bundled names, or slugs of files in ``data_dir``).
    accuracy : pandas.DataFrame
        Mean accuracy (fraction), the paper's data set names x its algorithm
        labels.
    datasets : dict of str to str
        Paper data set name -> the name it was run under.
    skipped_datasets : list of str
        Selected paper data sets that could not be run (not bundled, not in
        ``data_dir``).
    skipped_estimators : list of str
        Paper algorithms whose class is not available in this augnb.
    markdown : str
        The text of ``results.md``.
    files : dict of str to pathlib.Path
        Files written, by name (empty without ``output_dir``).
    seconds : float
        Wall time of the cross-validation.
    from_data_dir : dict of str to str
        Paper data set name -> the file name in ``data_dir`` its data were
        read from (a bundled data set too, when the folder holds
        ``NAME.csv``); empty without ``data_dir``.
    """

    suite: Suite
    quick: bool
    results: pd.DataFrame
    accuracy: pd.DataFrame
    datasets: dict[str, str]
    skipped_datasets: list[str]
    skipped_estimators: list[str]
    markdown: str = ""
    files: dict[str, Path] = field(default_factory=dict)
    seconds: float = 0.0
    from_data_dir: dict[str, str] = field(default_factory=dict)


# --------------------------------------------------------------------------- #
# Markdown helpers
# --------------------------------------------------------------------------- #
def markdown_table(
    header: Sequence[str], rows: Sequence[Sequence[object]], align: str | None = None
) -> str:
    """A GitHub-flavoured markdown table.

    Parameters
    ----------
    header : sequence of str
        Column titles.
    rows : sequence of sequence
        Cells, converted with ``str``; ``|`` is escaped.
    align : str, default=None
        One character per column: ``"l"``, ``"r"`` or ``"c"``; default all
        left.

    Returns
    -------
    text : str
        The table, lines joined by newlines, no trailing newline.

    Examples
    --------
    >>> print(markdown_table(["a", "b"], [[1, 2.5]], align="lr"))
    | a | b |
    |:---|---:|
    | 1 | 2.5 |
    """
    align = align or "l" * len(header)
    if len(align) != len(header):
        raise ValueError("align needs one character per column")
    rule = {"l": ":---", "r": "---:", "c": ":---:"}

    def line(cells: Sequence[object]) -> str:
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    out = [line(header), "|" + "|".join(rule[a] for a in align) + "|"]
    out += [line(r) for r in rows]
    return "\n".join(out)


def pm_text(mean: float, sd: float) -> str:
    """``"mean ± sd"`` with one decimal; ``"—"`` for a missing mean.

    Parameters
    ----------
    mean, sd : float
        The mean (None or not finite: missing) and the standard deviation
        (left out when not finite).

    Returns
    -------
    str
    """
    if mean is None or not np.isfinite(mean):
        return "—"
    return f"{mean:.1f} ± {sd:.1f}" if np.isfinite(sd) else f"{mean:.1f}"


def p_text(p: float) -> str:
    """A p-value with three decimals, or in scientific notation below 0.001.

    Parameters
    ----------
    p : float
        The p-value.

    Returns
    -------
    str
    """
    return f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"


def iman_davenport_text(result: ImanDavenportResult, *, with_df: bool = True) -> str:
    """``F_F = 3.69 (df = 3, 39), p = 0.020``; at its maximum, why it is infinite.

    Parameters
    ----------
    result : ImanDavenportResult
        The test's result.
    with_df : bool, default=True
        Whether to give the degrees of freedom.

    Returns
    -------
    str
    """
    df = f"df = {result.df1}, {result.df2}"
    if result.exact:
        return (
            f"F_F = ∞ ({df + '; ' if with_df else ''}every data set ranks the "
            f"algorithms in the same order), exact p = {p_text(result.pvalue)}"
        )
    where = f" ({df})" if with_df else ""
    return f"F_F = {result.statistic:.2f}{where}, p = {p_text(result.pvalue)}"
