"""The markdown report of a paper suite (``results.md``), section by section.

Each section is a function of one :class:`_Context` (the run's results, our
per-cell mean and sd, the paper's tables) that yields its lines; the report
is their concatenation.
"""

from __future__ import annotations

import datetime as _dt
import functools
import math
import platform
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from augnb.evaluation.suite_result import (
    ALPHA,
    DIFF_FLAG_POINTS,
    SuiteResult,
    iman_davenport_text,
    markdown_table,
    p_text,
    pm_text,
)
from augnb.evaluation.suites import Suite, dataset_slug

__all__ = ["render_markdown"]


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
    #: Data sets left out of ranks and tests: some algorithm failed on them.
    left_out: list[str] = field(default_factory=list)
    n_datasets: int = 0


def _statistics(res: SuiteResult) -> _Stats:
    from augnb.evaluation.significance import (
        average_ranks,
        complete_blocks,
        friedman_test,
        nemenyi_test,
    )

    stats = _Stats()
    # Ranks compare algorithms within a data set: only complete blocks.
    acc, stats.left_out = complete_blocks(res.accuracy)
    n, k = acc.shape
    stats.n_datasets = n
    if n < 2 or k < 2:
        stats.reason = (
            f"needs at least 2 data sets and 2 algorithms; this run has {n} and {k}"
        )
        if stats.left_out:
            stats.reason = stats.reason.replace(
                f"has {n} ", f"has {n} complete (see the failed cells) "
            )
        return stats
    stats.ranks = average_ranks(acc)
    stats.friedman = friedman_test(acc)
    stats.nemenyi = nemenyi_test(acc, alpha=ALPHA)
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

    from augnb._version import __version__

    return (
        f"augnb {__version__}, Python {platform.python_version()}, "
        f"NumPy {np.__version__}, SciPy {scipy.__version__}, "
        f"pandas {pd.__version__}, scikit-learn {sklearn.__version__}"
    )


def _command(res: SuiteResult) -> str:
    cmd = f"augnb compare --suite {res.suite.name}"
    return cmd + (" --quick" if res.quick else "")


@dataclass
class _Context:
    """A finished run being reported, and the tables its sections share."""

    res: SuiteResult
    estimators: dict[str, object]
    n_repeats: int
    n_jobs: int | None
    with_diagram: bool

    @property
    def suite(self) -> Suite:
        return self.res.suite

    @property
    def labels(self) -> list[str]:
        return list(self.res.accuracy.columns)

    @property
    def k_folds(self) -> int:
        """Folds behind each mean ± sd."""
        return self.suite.n_splits * self.n_repeats

    @functools.cached_property
    def folds(self) -> pd.DataFrame:
        """The per-fold results under the paper's data set names."""
        folds = self.res.results.copy()
        to_paper = {run: paper for paper, run in self.res.datasets.items()}
        folds["dataset"] = folds["dataset"].map(to_paper)
        return folds

    @functools.cached_property
    def _fold_accuracy(self) -> pd.core.groupby.SeriesGroupBy:
        return self.folds.groupby(["dataset", "estimator"], sort=False)["accuracy"]

    @functools.cached_property
    def ours_mean(self) -> pd.Series:
        """Our mean accuracy in % by (data set, algorithm); NaN if it failed."""
        return 100 * self._fold_accuracy.agg(lambda a: a.mean(skipna=False))

    @functools.cached_property
    def ours_sd(self) -> pd.Series:
        """Our sample sd of the fold accuracies in %, by (data set, algorithm)."""
        return 100 * self._fold_accuracy.std(ddof=1)

    @functools.cached_property
    def paper_mean(self) -> pd.DataFrame:
        return self.suite.paper_accuracy("mean")

    @functools.cached_property
    def paper_sd(self) -> pd.DataFrame:
        return self.suite.paper_accuracy("sd")


def render_markdown(
    res: SuiteResult,
    estimators: dict[str, object],
    n_repeats: int,
    n_jobs: int | None,
    *,
    with_diagram: bool,
) -> str:
    """The text of ``results.md`` for a finished suite run.

    Parameters
    ----------
    res : SuiteResult
        The run (its ``markdown`` is not read).
    estimators : dict of str to estimator
        The estimators that ran, by the paper's label.
    n_repeats : int
        Repetitions of the k-fold CV that ran.
    n_jobs : int or None
        Parallel jobs (reported).
    with_diagram : bool
        Whether a ``cd_diagram.svg`` is written beside the report.

    Returns
    -------
    text : str
    """
    suite = res.suite
    ctx = _Context(res, estimators, n_repeats, n_jobs, with_diagram)
    version = "quick version" if res.quick else "full run"
    lines = [
        f"# {suite.title}",
        "",
        f"Reproduction of {suite.citation}: {version}, regenerated by "
        f"`{_command(res)}`.",
        "",
        f"Accuracy in %: mean ± sd over the {n_repeats} × {suite.n_splits} = "
        f"{ctx.k_folds} fold accuracies (sample sd, ddof = 1; the paper does not "
        "define its ±).",
        "",
    ]
    for section in (
        _accuracy_section,
        _versus_paper_section,
        _ranks_section,
        _wilcoxon_section,
        _protocol_section,
    ):
        lines += section(ctx)
    return "\n".join(lines)


def _accuracy_section(ctx: _Context) -> Iterator[str]:
    yield f"## Our accuracy ({ctx.suite.accuracy_table} layout)"
    yield ""
    rows = []
    for dname in ctx.res.accuracy.index:
        cells = [dname]
        best = ctx.res.accuracy.loc[dname].max()
        for label in ctx.labels:
            m, s = ctx.ours_mean[(dname, label)], ctx.ours_sd[(dname, label)]
            text = "failed" if math.isnan(m) else pm_text(m, s)
            # Bold the best, as accuracy tables do (ties all bold).
            if np.isclose(ctx.res.accuracy.loc[dname, label], best, rtol=0, atol=1e-12):
                text = f"**{text}**"
            cells.append(text)
        rows.append(cells)
    yield markdown_table(["Data set", *ctx.labels], rows, "l" + "r" * len(ctx.labels))
    yield ""
    yield from _failures_note(ctx)


def _failures_note(ctx: _Context) -> Iterator[str]:
    """Each failed cell once, with its algorithm's message."""
    folds = ctx.folds
    failed = folds[folds["error"].fillna("") != ""]
    if failed.empty:
        return
    first = failed.groupby(["dataset", "estimator"], sort=False)["error"].first()
    yield "Failed cells (the algorithm refused the data set):"
    yield ""
    for (dname, label), error in first.items():
        yield f"* {label} on {dname}: {error}"
    yield ""
    everywhere = [
        label for label in ctx.labels if ctx.res.accuracy[label].isna().all()
    ]
    if everywhere:
        yield f"Failed on every data set: {', '.join(everywhere)}."
        yield ""

def _versus_paper_section(ctx: _Context) -> Iterator[str]:
    yield "## Ours vs the paper"
    yield ""
    yield (
        f"Diff = ours − paper, in accuracy points; **bold** where |diff| > "
        f"{DIFF_FLAG_POINTS:g}."
    )
    yield ""
    rows = []
    diffs = []
    for dname in ctx.res.accuracy.index:
        for label in ctx.labels:
            m, s = ctx.ours_mean[(dname, label)], ctx.ours_sd[(dname, label)]
            pm = _lookup(ctx.paper_mean, dname, label)
            ps = _lookup(ctx.paper_sd, dname, label)
            if math.isnan(m):
                paper_text = "—" if math.isnan(pm) else pm_text(pm, ps)
                rows.append([dname, label, "failed", paper_text, "—"])
                continue
            if math.isnan(pm):
                paper_text, diff_text = "—", "—"
            else:
                # Both tables print one decimal: compare what is printed, and
                # round first so that -0.04 reads "+0.0", not "-0.0".
                d = round(round(m, 1) - pm, 1) + 0.0
                diffs.append(d)
                paper_text = pm_text(pm, ps)
                diff_text = f"{d:+.1f}"
                if abs(d) > DIFF_FLAG_POINTS:
                    diff_text = f"**{diff_text}**"
            rows.append([dname, label, pm_text(m, s), paper_text, diff_text])
    yield (
        markdown_table(
            ["Data set", "Algorithm", "Ours", "Paper", "Diff"], rows, "llrrr"
        )
    )
    yield ""
    if diffs:
        arr = np.abs(np.asarray(diffs))
        yield (
            f"{int((arr > DIFF_FLAG_POINTS).sum())} of {arr.size} cells differ by "
            f"more than {DIFF_FLAG_POINTS:g} points; mean |diff| = {arr.mean():.2f}, "
            f"median {np.median(arr):.2f}."
        )
        yield ""


def _ranks_section(ctx: _Context) -> Iterator[str]:
    stats = _statistics(ctx.res)
    yield (
        "## Average ranks"
        + (f" ({ctx.suite.ranks_table})" if ctx.suite.ranks_table else "")
    )
    yield ""
    n_data = stats.n_datasets
    if stats.left_out:
        yield (
            f"Over the {n_data} data sets every algorithm completed: ranks and "
            "the tests below need every algorithm's score on a data set "
            f"(Demšar, 2006), so {', '.join(stats.left_out)} "
            f"{'is' if len(stats.left_out) == 1 else 'are'} left out (a failed "
            "cell)."
        )
        yield ""
    if stats.ranks is None:
        yield f"Not computed: {stats.reason}."
        yield ""
    else:
        paper_ranks = ctx.suite.paper_ranks
        n_paper = len(ctx.suite.datasets)
        header = ["Algorithm", f"Ours ({n_data} data sets)"]
        if stats.paper_ranks_same is not None:
            header.append(
                f"Paper's {ctx.suite.accuracy_table}, same {n_data} data sets"
            )
        has_paper_ranks = len(paper_ranks) > 0
        if has_paper_ranks:
            header.append(f"Paper's {ctx.suite.ranks_table} ({n_paper} data sets)")
        rows = []
        for label in stats.ranks.sort_values(kind="stable").index:
            row = [label, f"{stats.ranks[label]:.2f}"]
            if stats.paper_ranks_same is not None:
                row.append(f"{stats.paper_ranks_same[label]:.2f}")
            if has_paper_ranks:
                pr = paper_ranks.get(label, float("nan"))
                row.append(f"{pr:.2f}" if np.isfinite(pr) else "—")
            rows.append(row)
        yield markdown_table(header, rows, "l" + "r" * (len(header) - 1))
        yield ""
        note = "Rank 1 = best; ties share the average rank."
        if has_paper_ranks:
            note += (
                f" The paper's {ctx.suite.ranks_table} ranks all {len(paper_ranks)} "
                f"algorithms over its {n_paper} data sets, so it is comparable to "
                "ours only when the same data sets and algorithms ran."
            )
        yield note
        yield ""

        fr = stats.friedman
        idv = fr.iman_davenport
        yield "## Friedman / Iman-Davenport"
        yield ""
        yield (
            f"Ours: χ²_F = {fr.statistic:.2f} (df = {fr.df}), p = {p_text(fr.pvalue)}; "
            f"Iman-Davenport {iman_davenport_text(idv)}."
        )
        yield ""
        if len(ctx.suite.paper_ranks) >= 2:
            from augnb.evaluation.significance import friedman_test

            pf = friedman_test(
                ranks=ctx.suite.paper_ranks, n_datasets=len(ctx.suite.datasets)
            )
            yield (
                f"Paper: {ctx.suite.paper_tests}. Recomputed from the rounded "
                f"{ctx.suite.ranks_table} "
                f"ranks (N = {len(ctx.suite.datasets)}): χ²_F = {pf.statistic:.2f}, "
                f"p = {p_text(pf.pvalue)}; "
                f"{iman_davenport_text(pf.iman_davenport, with_df=False)}."
            )
            yield ""

        nem = stats.nemenyi
        yield "## Nemenyi post-hoc test"
        yield ""
        yield (
            f"Critical difference CD = {nem.critical_difference:.2f} "
            f"(k = {len(ctx.labels)}, N = {n_data}, α = {ALPHA:g}): two algorithms "
            "differ significantly when their average ranks differ by more."
        )
        yield ""
        sig = nem.significant
        pairs = [
            f"{a} vs {b}"
            for i, a in enumerate(sig.index)
            for b in sig.columns[i + 1 :]
            if sig.loc[a, b]
        ]
        yield (
            "Significantly different pairs: "
            + (", ".join(pairs) if pairs else "none")
            + "."
        )
        yield ""
        if ctx.with_diagram:
            yield "![Critical difference diagram](cd_diagram.svg)"
            yield ""


def _wilcoxon_section(ctx: _Context) -> Iterator[str]:
    pair = ctx.suite.wilcoxon_pair
    if pair is not None and pair[0] in ctx.labels and pair[1] in ctx.labels:
        from augnb.evaluation.significance import wilcoxon_per_dataset

        a, b = pair
        yield f"## Wilcoxon signed-rank test per data set: {a} vs {b}"
        yield ""
        yield (
            f"Paired on the {ctx.k_folds} fold accuracies of each data set; two-sided, "
            f"α = {ALPHA:g}, zero differences dropped (R's default)."
        )
        yield ""
        # A data set on which either failed has no pairs to test.
        pair_acc = ctx.res.accuracy[[a, b]]
        done = pair_acc.index[pair_acc.notna().all(axis=1)]
        folds = ctx.folds[ctx.folds["dataset"].isin(done)]
        table = wilcoxon_per_dataset(folds, a, b, alpha=ALPHA)
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
                    p_text(row.pvalue),
                    verdict,
                ]
            )
        yield markdown_table(
            ["Data set", a, b, "T", "p", "Significant"], rows, "lrrrrl"
        )
        yield ""
        yield (
            f"{a} significantly better on {len(better)} data set(s)"
            + (f" ({', '.join(better)})" if better else "")
            + f", worse on {len(worse)}"
            + (f" ({', '.join(worse)})" if worse else "")
            + "."
        )
        yield ""


def _protocol_section(ctx: _Context) -> Iterator[str]:
    yield "## Protocol"
    yield ""
    if ctx.suite.protocol == "paper":
        source = ctx.suite.protocol_source
        proto = (
            "`paper`: rows with a missing value removed, numeric features of each "
            "whole data set MDL-discretised (Fayyad-Irani) before CV, as the paper "
            f"did{f' ({source})' if source else ''}; "
            "the class leaks into the cut points"
        )
    else:
        proto = "`nested`: data as loaded; discretisation inside each training fold"
    yield f"- Protocol: {proto}."
    yield (
        f"- Folds: `RepeatedStratifiedKFold(n_splits={ctx.suite.n_splits}, "
        f"n_repeats={ctx.n_repeats}, random_state={ctx.suite.random_state})`, "
        "drawn once per data set and shared by every algorithm (paired)."
    )
    yield "- Algorithms (all parameters):"
    for label, est in ctx.estimators.items():
        yield f"  - {label}: `{_repr_one_line(est)}`"
    # A file of data_dir is named as such: the bundled name alone said the
    # bundled copy ran when a local file of that name had replaced it.
    local = ctx.res.from_data_dir
    yield (
        "- Data sets run: "
        + ", ".join(
            f"{p} (`{local[p]}` of `data_dir`)" if p in local else f"{p} (`{r}`)"
            for p, r in ctx.res.datasets.items()
        )
        + "."
    )
    if ctx.suite.not_bundled:
        from_dir = [d for d in ctx.suite.not_bundled if d in ctx.res.datasets]
        line = "- Data sets of the paper not bundled with augnb: " + ", ".join(
            ctx.suite.not_bundled
        )
        if from_dir:
            line += "; read from `data_dir`: " + ", ".join(from_dir)
        missing = [d for d in ctx.suite.not_bundled if d not in ctx.res.datasets]
        if missing:
            line += (
                " (add them with `--data-dir DIR` holding "
                + ", ".join(f"`{dataset_slug(d)}.csv`" for d in missing)
                + ")"
            )
        yield line + "."
    skipped = [d for d in ctx.res.skipped_datasets if d in ctx.suite.bundled]
    if skipped:
        yield "- Selected but not run (data not available): " + ", ".join(skipped) + "."
    if ctx.res.quick:
        left_out = [d for d in ctx.suite.datasets if d not in ctx.suite.quick_datasets]
        yield (
            f"- Quick version: {len(ctx.suite.quick_datasets)} data sets, "
            f"{ctx.n_repeats} repetition(s); not run: " + ", ".join(left_out) + "."
        )
    if ctx.res.skipped_estimators:
        yield (
            "- Algorithms of the paper not available in this augnb (skipped): "
            + ", ".join(ctx.res.skipped_estimators)
            + "."
        )
    yield f"- Versions: {_versions()}."
    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    yield (
        f"- Date: {now}; cross-validation wall time {ctx.res.seconds:.1f} s "
        f"(n_jobs = {ctx.n_jobs}; folds reused from a cache count as 0 s); "
        f"fit time summed over all folds {ctx.res.results['fit_seconds'].sum():.1f} s."
    )
    for note in ctx.suite.notes:
        yield f"- Note: {note}"
    yield ""


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
    # An estimator-valued parameter (Taheri's SOAC discretiser, Li's
    # equal-frequency binning) with all of its own too: its repr hid theta.
    params = ", ".join(
        f"{k}={_repr_one_line(v) if _is_estimator(v) else repr(v)}"
        for k, v in get_params(deep=False).items()
    )
    return " ".join(f"{type(est).__name__}({params})".split())


def _is_estimator(value: object) -> bool:
    # An instance: an estimator class given as a parameter is named as is.
    return hasattr(value, "get_params") and not isinstance(value, type)
