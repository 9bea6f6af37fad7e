"""Run a paper suite and write our numbers beside the paper's.

:func:`run_suite` cross-validates a :class:`~augnb.evaluation.suites.Suite`
and, given an output folder, writes (each file atomically):

``folds.csv``
    The tidy per-fold results of :func:`augnb.evaluation.cv.cross_validate`.
``results.md``
    Markdown: our mean ± sd beside the paper's per data set and algorithm,
    average ranks (ours and the paper's), the Friedman / Iman-Davenport test,
    the Nemenyi critical difference, the suite's per-data-set Wilcoxon
    comparison, and the protocol, seeds, versions and date.
``cd_diagram.png``, ``cd_diagram.svg``
    The critical difference diagram of our average ranks (needs matplotlib).

Markdown tables are formatted here by hand, so reporting needs no extra
dependency.
"""

from __future__ import annotations

import datetime as _dt
import math
import os
import platform
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from augnb._io import write_text_atomic
from augnb._progress import ProgressOption
from augnb.evaluation.cv import accuracy_matrix, cross_validate
from augnb.evaluation.suites import Suite, dataset_slug, get_suite

__all__ = ["DIFF_FLAG_POINTS", "SuiteResult", "markdown_table", "run_suite"]

#: |ours - paper| above this many accuracy points is flagged in results.md.
DIFF_FLAG_POINTS = 2.5
_ALPHA = 0.05


@dataclass
class SuiteResult:
    """What :func:`run_suite` produced.

    Attributes
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


def _pm(mean: float, sd: float) -> str:
    if mean is None or not np.isfinite(mean):
        return "—"
    return f"{mean:.1f} ± {sd:.1f}" if np.isfinite(sd) else f"{mean:.1f}"


def _p(p: float) -> str:
    return f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"


# --------------------------------------------------------------------------- #
# Running
# --------------------------------------------------------------------------- #
def _resolve_suite_datasets(
    suite: Suite, quick: bool, data_dir: str | os.PathLike[str] | None
) -> tuple[dict[str, str], list[str]]:
    run: dict[str, str] = {}
    skipped: list[str] = []
    for paper_name in suite.selected_datasets(quick):
        bundled = suite.datasets[paper_name]
        if bundled:
            run[paper_name] = bundled
            continue
        slug = dataset_slug(paper_name)
        if data_dir is not None and (Path(data_dir) / f"{slug}.csv").is_file():
            run[paper_name] = slug
        else:
            skipped.append(paper_name)
    return run, skipped


def run_suite(
    suite: Suite | str,
    *,
    quick: bool = False,
    data_dir: str | os.PathLike[str] | None = None,
    output_dir: str | os.PathLike[str] | None = None,
    n_jobs: int | None = 1,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: ProgressOption = True,
) -> SuiteResult:
    """Cross-validate a paper suite and compare with the paper's tables.

    Parameters
    ----------
    suite : Suite or str
        A suite or its registered name (:func:`augnb.evaluation.suites.get_suite`).
    quick : bool, default=False
        Run the suite's quick version (fewer data sets and repetitions).
    data_dir : str or path, default=None
        Folder searched first for ``NAME.csv`` of each bundled data set, and
        for ``<slug>.csv`` (e.g. ``tic_tac_toe.csv``) of the paper's data sets
        that augnb does not bundle.
    output_dir : str or path, default=None
        Folder (created if needed) for ``folds.csv``, ``results.md``,
        ``cd_diagram.png`` and ``cd_diagram.svg``. Nothing is written without
        it.
    n_jobs : int or None, default=1
        Parallel jobs (joblib).
    cache_dir : str or path, default=None
        Per-fold result cache; see :func:`augnb.evaluation.cv.cross_validate`.
    progress : bool or "always", default=True
        Progress bar on stderr; see :func:`~augnb.evaluation.cv.cross_validate`.

    Returns
    -------
    result : SuiteResult

    Raises
    ------
    ValueError
        For an unknown suite, or when no selected data set or no algorithm
        can run.

    Examples
    --------
    A two-data-set, two-algorithm variant of a suite:

    >>> import dataclasses
    >>> from augnb.evaluation.suites import EstimatorSpec, get_suite
    >>> mini = dataclasses.replace(
    ...     get_suite("mihaljevic2014"),
    ...     estimators={"NB": EstimatorSpec("NB"), "TAN": EstimatorSpec("TAN")},
    ...     quick_datasets=("Car", "Wine"), n_splits=3)
    >>> res = run_suite(mini, quick=True, progress=False)
    >>> res.accuracy.shape
    (2, 2)
    """
    if isinstance(suite, str):
        suite = get_suite(suite)
    run_names, skipped = _resolve_suite_datasets(suite, quick, data_dir)
    if not run_names:
        raise ValueError(
            f"suite {suite.name!r}: none of its selected data sets is available "
            f"(not bundled and not in data_dir): {skipped}"
        )
    estimators = suite.make_estimators()
    skipped_est = [label for label in suite.estimators if label not in estimators]
    if not estimators:
        raise ValueError(f"suite {suite.name!r}: none of its algorithms is available")
    n_repeats = suite.quick_repeats if quick else suite.n_repeats

    start = time.perf_counter()
    results = cross_validate(
        estimators,
        list(run_names.values()),
        n_splits=suite.n_splits,
        n_repeats=n_repeats,
        protocol=suite.protocol,  # type: ignore[arg-type]
        random_state=suite.random_state,
        n_jobs=n_jobs,
        cache_dir=cache_dir,
        progress=progress,
        data_dir=data_dir,
    )
    seconds = time.perf_counter() - start

    to_paper = {run: paper for paper, run in run_names.items()}
    accuracy = accuracy_matrix(results).rename(index=to_paper)
    accuracy.index.name = "dataset"
    out = SuiteResult(
        suite=suite,
        quick=quick,
        results=results,
        accuracy=accuracy,
        datasets=run_names,
        skipped_datasets=skipped,
        skipped_estimators=skipped_est,
        seconds=seconds,
    )
    has_cd = output_dir is not None and _can_plot()
    out.markdown = _render(out, estimators, n_repeats, n_jobs, with_diagram=has_cd)
    if output_dir is not None:
        out.files = _write_outputs(out, Path(output_dir), with_diagram=has_cd)
    return out


def _can_plot() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


# --------------------------------------------------------------------------- #
# Statistics on our results
# --------------------------------------------------------------------------- #
@dataclass
class _Stats:
    ranks: pd.Series | None = None
    paper_ranks_same: pd.Series | None = None
    friedman: object | None = None
    nemenyi: object | None = None
    reason: str = ""


def _statistics(res: SuiteResult) -> _Stats:
    from augnb.evaluation.significance import (
        average_ranks,
        friedman_test,
        nemenyi_test,
    )

    stats = _Stats()
    acc = res.accuracy
    n, k = acc.shape
    if n < 2 or k < 2:
        stats.reason = (
            f"needs at least 2 data sets and 2 algorithms; this run has {n} and {k}"
        )
        return stats
    stats.ranks = average_ranks(acc)
    stats.friedman = friedman_test(acc)
    stats.nemenyi = nemenyi_test(acc, alpha=_ALPHA)
    paper = res.suite.paper_accuracy()
    same = paper.reindex(index=acc.index, columns=acc.columns)
    if not same.isna().any(axis=None):
        stats.paper_ranks_same = average_ranks(same)
    return stats


# --------------------------------------------------------------------------- #
# Rendering
# --------------------------------------------------------------------------- #
def _versions() -> str:
    import scipy
    import sklearn

    import augnb

    return (
        f"augnb {augnb.__version__}, Python {platform.python_version()}, "
        f"NumPy {np.__version__}, SciPy {scipy.__version__}, "
        f"pandas {pd.__version__}, scikit-learn {sklearn.__version__}"
    )


def _command(res: SuiteResult) -> str:
    cmd = f"augnb compare --suite {res.suite.name}"
    return cmd + (" --quick" if res.quick else "")


def _render(
    res: SuiteResult,
    estimators: dict[str, object],
    n_repeats: int,
    n_jobs: int | None,
    *,
    with_diagram: bool,
) -> str:
    suite = res.suite
    labels = list(res.accuracy.columns)
    folds = res.results.copy()
    to_paper = {run: paper for paper, run in res.datasets.items()}
    folds["dataset"] = folds["dataset"].map(to_paper)
    grouped = folds.groupby(["dataset", "estimator"], sort=False)["accuracy"]
    ours_mean = 100 * grouped.mean()
    ours_sd = 100 * grouped.std(ddof=1)
    paper_mean = suite.paper_accuracy("mean")
    paper_sd = suite.paper_accuracy("sd")
    k_folds = suite.n_splits * n_repeats

    lines: list[str] = []
    add = lines.append
    version = "quick version" if res.quick else "full run"
    add(f"# {suite.title}")
    add("")
    add(
        f"Reproduction of {suite.citation}: {version}, regenerated by "
        f"`{_command(res)}`."
    )
    add("")
    add(
        f"Accuracy in %: mean ± sd over the {n_repeats} × {suite.n_splits} = "
        f"{k_folds} fold accuracies (sd with ddof = 1, ALGORITHMS.md A-36; the "
        "paper does not define its ±)."
    )
    add("")

    # -- the paper's accuracy table layout ------------------------------------
    add(f"## Our accuracy ({suite.accuracy_table} layout)")
    add("")
    rows = []
    for dname in res.accuracy.index:
        cells = [dname]
        best = res.accuracy.loc[dname].max()
        for label in labels:
            m, s = ours_mean[(dname, label)], ours_sd[(dname, label)]
            text = _pm(m, s)
            # Bold the best, as accuracy tables do (ties all bold).
            if np.isclose(res.accuracy.loc[dname, label], best, rtol=0, atol=1e-12):
                text = f"**{text}**"
            cells.append(text)
        rows.append(cells)
    add(markdown_table(["Data set", *labels], rows, "l" + "r" * len(labels)))
    add("")

    # -- ours vs paper -------------------------------------------------------
    add("## Ours vs the paper")
    add("")
    add(
        f"Diff = ours − paper, in accuracy points; **bold** where |diff| > "
        f"{DIFF_FLAG_POINTS:g}."
    )
    add("")
    rows = []
    diffs = []
    for dname in res.accuracy.index:
        for label in labels:
            m, s = ours_mean[(dname, label)], ours_sd[(dname, label)]
            pm = _lookup(paper_mean, dname, label)
            ps = _lookup(paper_sd, dname, label)
            if math.isnan(pm):
                paper_text, diff_text = "—", "—"
            else:
                # Both tables print one decimal: compare what is printed, and
                # round first so that -0.04 reads "+0.0", not "-0.0".
                d = round(round(m, 1) - pm, 1) + 0.0
                diffs.append(d)
                paper_text = _pm(pm, ps)
                diff_text = f"{d:+.1f}"
                if abs(d) > DIFF_FLAG_POINTS:
                    diff_text = f"**{diff_text}**"
            rows.append([dname, label, _pm(m, s), paper_text, diff_text])
    add(
        markdown_table(
            ["Data set", "Algorithm", "Ours", "Paper", "Diff"], rows, "llrrr"
        )
    )
    add("")
    if diffs:
        arr = np.abs(np.asarray(diffs))
        add(
            f"{int((arr > DIFF_FLAG_POINTS).sum())} of {arr.size} cells differ by "
            f"more than {DIFF_FLAG_POINTS:g} points; mean |diff| = {arr.mean():.2f}, "
            f"median {np.median(arr):.2f}."
        )
        add("")

    # -- ranks and tests -----------------------------------------------------
    stats = _statistics(res)
    add("## Average ranks" + (f" ({suite.ranks_table})" if suite.ranks_table else ""))
    add("")
    n_data = res.accuracy.shape[0]
    if stats.ranks is None:
        add(f"Not computed: {stats.reason}.")
        add("")
    else:
        paper_ranks = suite.paper_ranks
        n_paper = len(suite.datasets)
        header = ["Algorithm", f"Ours ({n_data} data sets)"]
        if stats.paper_ranks_same is not None:
            header.append(f"Paper's {suite.accuracy_table}, same {n_data} data sets")
        has_paper_ranks = len(paper_ranks) > 0
        if has_paper_ranks:
            header.append(f"Paper's {suite.ranks_table} ({n_paper} data sets)")
        rows = []
        for label in stats.ranks.sort_values(kind="stable").index:
            row = [label, f"{stats.ranks[label]:.2f}"]
            if stats.paper_ranks_same is not None:
                row.append(f"{stats.paper_ranks_same[label]:.2f}")
            if has_paper_ranks:
                pr = paper_ranks.get(label, float("nan"))
                row.append(f"{pr:.2f}" if np.isfinite(pr) else "—")
            rows.append(row)
        add(markdown_table(header, rows, "l" + "r" * (len(header) - 1)))
        add("")
        note = "Rank 1 = best; ties share the average rank."
        if has_paper_ranks:
            note += (
                f" The paper's {suite.ranks_table} ranks all {len(paper_ranks)} "
                f"algorithms over its {n_paper} data sets, so it is comparable to "
                "ours only when the same data sets and algorithms ran."
            )
        add(note)
        add("")

        fr = stats.friedman
        idv = fr.iman_davenport
        add("## Friedman / Iman-Davenport")
        add("")
        add(
            f"Ours: χ²_F = {fr.statistic:.2f} (df = {fr.df}), p = {_p(fr.pvalue)}; "
            f"Iman-Davenport F_F = {idv.statistic:.2f} "
            f"(df = {idv.df1}, {idv.df2}), p = {_p(idv.pvalue)}."
        )
        add("")
        if len(suite.paper_ranks) >= 2:
            from augnb.evaluation.significance import friedman_test

            pf = friedman_test(ranks=suite.paper_ranks, n_datasets=len(suite.datasets))
            add(
                f"Paper: {suite.paper_tests}. Recomputed from the rounded "
                f"{suite.ranks_table} "
                f"ranks (N = {len(suite.datasets)}): χ²_F = {pf.statistic:.2f}, "
                f"p = {_p(pf.pvalue)}; F_F = {pf.iman_davenport.statistic:.2f}, "
                f"p = {_p(pf.iman_davenport.pvalue)}."
            )
            add("")

        nem = stats.nemenyi
        add("## Nemenyi post-hoc test")
        add("")
        add(
            f"Critical difference CD = {nem.critical_difference:.2f} "
            f"(k = {len(labels)}, N = {n_data}, α = {_ALPHA:g}): two algorithms "
            "differ significantly when their average ranks differ by more."
        )
        add("")
        sig = nem.significant
        pairs = [
            f"{a} vs {b}"
            for i, a in enumerate(sig.index)
            for b in sig.columns[i + 1 :]
            if sig.loc[a, b]
        ]
        add(
            "Significantly different pairs: "
            + (", ".join(pairs) if pairs else "none")
            + "."
        )
        add("")
        if with_diagram:
            add("![Critical difference diagram](cd_diagram.svg)")
            add("")

    # -- per-data-set Wilcoxon -------------------------------------------------
    pair = suite.wilcoxon_pair
    if pair is not None and pair[0] in labels and pair[1] in labels:
        from augnb.evaluation.significance import wilcoxon_per_dataset

        a, b = pair
        add(f"## Wilcoxon signed-rank test per data set: {a} vs {b}")
        add("")
        add(
            f"Paired on the {k_folds} fold accuracies of each data set; two-sided, "
            f"α = {_ALPHA:g}, zero differences dropped (R's default, A-37)."
        )
        add("")
        table = wilcoxon_per_dataset(folds, a, b, alpha=_ALPHA)
        rows = []
        better, worse = [], []
        for row in table.itertuples():
            verdict = ""
            if row.significant:
                verdict = f"{a} better" if row.mean_a > row.mean_b else f"{b} better"
                (better if row.mean_a > row.mean_b else worse).append(row.dataset)
            rows.append(
                [
                    row.dataset,
                    f"{100 * row.mean_a:.1f}",
                    f"{100 * row.mean_b:.1f}",
                    f"{row.statistic:g}",
                    _p(row.pvalue),
                    verdict,
                ]
            )
        add(markdown_table(["Data set", a, b, "T", "p", "Significant"], rows, "lrrrrl"))
        add("")
        add(
            f"{a} significantly better on {len(better)} data set(s)"
            + (f" ({', '.join(better)})" if better else "")
            + f", worse on {len(worse)}"
            + (f" ({', '.join(worse)})" if worse else "")
            + "."
        )
        add("")

    # -- protocol --------------------------------------------------------------
    add("## Protocol")
    add("")
    if suite.protocol == "paper":
        proto = (
            "`paper`: rows with a missing value removed, numeric features of each "
            "whole data set MDL-discretised (Fayyad-Irani) before CV, as the paper "
            f"did{f' ({suite.protocol_source})' if suite.protocol_source else ''}; "
            "the class leaks into the cut points"
        )
    else:
        proto = "`nested`: data as loaded; discretisation inside each training fold"
    add(f"- Protocol: {proto}.")
    add(
        f"- Folds: `RepeatedStratifiedKFold(n_splits={suite.n_splits}, "
        f"n_repeats={n_repeats}, random_state={suite.random_state})`, drawn once "
        "per data set and shared by every algorithm (paired)."
    )
    add("- Algorithms (all parameters):")
    for label, est in estimators.items():
        add(f"  - {label}: `{_repr_one_line(est)}`")
    add(
        "- Data sets run: "
        + ", ".join(f"{p} (`{r}`)" for p, r in res.datasets.items())
        + "."
    )
    if suite.not_bundled:
        from_dir = [d for d in suite.not_bundled if d in res.datasets]
        line = "- Data sets of the paper not bundled with augnb: " + ", ".join(
            suite.not_bundled
        )
        if from_dir:
            line += "; read from `data_dir`: " + ", ".join(from_dir)
        missing = [d for d in suite.not_bundled if d not in res.datasets]
        if missing:
            line += (
                " (add them with `--data-dir DIR` holding "
                + ", ".join(f"`{dataset_slug(d)}.csv`" for d in missing)
                + ")"
            )
        add(line + ".")
    skipped = [d for d in res.skipped_datasets if d in suite.bundled]
    if skipped:
        add("- Selected but not run (data not available): " + ", ".join(skipped) + ".")
    if res.quick:
        left_out = [d for d in suite.datasets if d not in suite.quick_datasets]
        add(
            f"- Quick version: {len(suite.quick_datasets)} data sets, "
            f"{n_repeats} repetition(s); not run: " + ", ".join(left_out) + "."
        )
    if res.skipped_estimators:
        add(
            "- Algorithms of the paper not available in this augnb (skipped): "
            + ", ".join(res.skipped_estimators)
            + "."
        )
    add(f"- Versions: {_versions()}.")
    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    add(
        f"- Date: {now}; cross-validation wall time {res.seconds:.1f} s "
        f"(n_jobs = {n_jobs}; folds reused from a cache count as 0 s); "
        f"fit time summed over all folds {res.results['fit_seconds'].sum():.1f} s."
    )
    for note in suite.notes:
        add(f"- Note: {note}")
    add("")
    return "\n".join(lines)


def _lookup(matrix: pd.DataFrame, row: str, col: str) -> float:
    try:
        return float(matrix.loc[row, col])
    except KeyError:
        return float("nan")


def _repr_one_line(est: object) -> str:
    # Every parameter, defaults included: sklearn's repr hides the defaults,
    # and a report must show the settings even if a default changes later.
    get_params = getattr(est, "get_params", None)
    if get_params is None:
        return " ".join(repr(est).split())
    params = ", ".join(f"{k}={v!r}" for k, v in get_params(deep=False).items())
    return " ".join(f"{type(est).__name__}({params})".split())


# --------------------------------------------------------------------------- #
# Writing
# --------------------------------------------------------------------------- #
def _write_outputs(res: SuiteResult, out_dir: Path, *, with_diagram: bool) -> dict:
    out_dir.mkdir(parents=True, exist_ok=True)
    files: dict[str, Path] = {}
    path = out_dir / "folds.csv"
    write_text_atomic(path, res.results.to_csv(index=False))
    files["folds.csv"] = path
    path = out_dir / "results.md"
    write_text_atomic(path, res.markdown)
    files["results.md"] = path
    if with_diagram:
        from augnb.evaluation.significance import nemenyi_test

        acc = res.accuracy
        if acc.shape[0] >= 2 and acc.shape[1] >= 2:
            from augnb.plotting import plot_critical_difference, save_figure

            nem = nemenyi_test(acc, alpha=_ALPHA)
            fig = plot_critical_difference(
                nem,
                title=(
                    f"{res.suite.name}{' (quick)' if res.quick else ''}: average "
                    f"ranks, Nemenyi CD (α = {_ALPHA:g})"
                ),
            )
            for suffix in ("png", "svg"):
                files[f"cd_diagram.{suffix}"] = save_figure(
                    fig, out_dir / f"cd_diagram.{suffix}"
                )
    return files
