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

import os
import time
import warnings
from pathlib import Path

from augnb._io import write_text_atomic
from augnb._progress import ProgressOption
from augnb.evaluation.cv import accuracy_matrix, cross_validate
from augnb.evaluation.suite_markdown import render_markdown
from augnb.evaluation.suite_result import (
    ALPHA,
    DIFF_FLAG_POINTS,
    SuiteResult,
    markdown_table,
)
from augnb.evaluation.suites import Suite, dataset_slug, get_suite

__all__ = ["DIFF_FLAG_POINTS", "SuiteResult", "markdown_table", "run_suite"]


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
    fail_fast: bool = False,
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
        ``cd_diagram.png`` and ``cd_diagram.svg``, each replacing the
        folder's file of that name; a run that draws no diagram (no
        matplotlib, fewer than 2 complete data sets) removes an earlier run's.
        Nothing is written without it.
    n_jobs : int or None, default=1
        Parallel jobs (joblib).
    cache_dir : str or path, default=None
        Per-fold result cache; see :func:`augnb.evaluation.cv.cross_validate`.
    progress : bool or "always", default=True
        Progress bar on stderr; see :func:`~augnb.evaluation.cv.cross_validate`.
    fail_fast : bool, default=False
        Raise at the first refusal of a data set by an algorithm instead of
        reporting its cell as failed (and leaving that data set out of the
        ranks and tests); see :func:`~augnb.evaluation.cv.cross_validate`.

    Returns
    -------
    result : SuiteResult

    Raises
    ------
    ValueError
        For an unknown suite, when no selected data set or no algorithm can
        run, or when a file of ``data_dir`` cannot be read as it is (the
        message says what to change in it: a suite takes no options of
        reading a table).
    OSError
        When ``output_dir`` cannot be created or written; raised before any
        fold runs.

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
    if output_dir is not None:
        _prepare_output_dir(Path(output_dir))
    run_names, skipped = _resolve_suite_datasets(suite, quick, data_dir)
    if not run_names:
        raise ValueError(
            f"suite {suite.name!r}: none of its selected data sets is available "
            f"(not bundled and not in data_dir): {skipped}"
        )
    if data_dir is not None and skipped:
        # The folder was given to add these: a misnamed file (the UCI
        # tic-tac-toe.data, Tic-tac-toe.csv) silently left them out.
        wanted = ", ".join(f"{dataset_slug(d)}.csv" for d in skipped)
        warnings.warn(
            f"suite {suite.name!r}: {os.fspath(data_dir)!r} holds no {wanted}, so "
            f"{', '.join(skipped)} {'is' if len(skipped) == 1 else 'are'} not run "
            "(a data set augnb does not bundle is read from that folder under "
            "that file name)",
            UserWarning,
            stacklevel=2,
        )
    local = _data_dir_files(run_names, data_dir)
    _check_data_dir_files(suite, local)
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
        fail_fast=fail_fast,
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
        from_data_dir={paper: path.name for paper, path in local.items()},
    )
    has_cd = output_dir is not None and _can_plot()
    out.markdown = render_markdown(
        out, estimators, n_repeats, n_jobs, with_diagram=has_cd
    )
    if output_dir is not None:
        out.files = _write_outputs(out, Path(output_dir), with_diagram=has_cd)
    return out


def _data_dir_files(
    run_names: dict[str, str], data_dir: str | os.PathLike[str] | None
) -> dict[str, Path]:
    """Paper name -> the file of ``data_dir`` its data are read from.

    The rule of :func:`augnb.evaluation.loading.load_datasets`: ``NAME.csv``
    in the folder, when it is a file, whether or not augnb bundles ``NAME``.
    """
    if data_dir is None:
        return {}
    files = {p: Path(data_dir) / f"{name}.csv" for p, name in run_names.items()}
    return {p: path for p, path in files.items() if path.is_file()}


def _check_data_dir_files(suite: Suite, local: dict[str, Path]) -> None:
    """Read the suite's files of ``data_dir`` as the run will; say what to fix.

    A suite takes none of the options of reading a table, so the loader's
    hints (``--target Class``, ``--sep``, ``--encoding``) sent the user to
    options that a suite refuses; the fix is in the file.
    """
    from augnb.datasets import load

    for path in local.values():
        try:
            load(path, complete_only=suite.protocol == "paper")
        except ValueError as exc:
            raise ValueError(
                f"suite {suite.name!r}: {exc} (a suite reads the files of its data "
                "folder as they are: --target, --sep and the other options of "
                "reading a table do not apply; change the file instead, e.g. a "
                "header row with the class column named 'class')"
            ) from None


def _prepare_output_dir(out_dir: Path) -> None:
    """Create ``out_dir`` and try writing there, before any fold runs.

    It was first created after the cross-validation: a folder that could not
    be made (a file of that name, no permission) lost minutes of work, with
    an error naming neither the parameter nor the cause.
    """
    import tempfile

    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out_dir):
            pass
    except OSError as exc:
        why = exc.strerror or str(exc)
        if out_dir.exists() and not out_dir.is_dir():
            why = "it is a file, not a folder"
        raise type(exc)(
            exc.errno, f"output_dir {str(out_dir)!r} cannot be written ({why})"
        ) from None


def _can_plot() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


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
        from augnb.evaluation.significance import complete_blocks, nemenyi_test

        # Ranks need complete blocks, as in the report's tests.
        acc, _ = complete_blocks(res.accuracy)
        if acc.shape[0] >= 2 and acc.shape[1] >= 2:
            from augnb.plotting import plot_critical_difference, save_figure

            nem = nemenyi_test(acc, alpha=ALPHA)
            fig = plot_critical_difference(
                nem,
                title=(
                    f"{res.suite.name}{' (quick)' if res.quick else ''}: average "
                    f"ranks, Nemenyi CD (α = {ALPHA:g})"
                ),
            )
            for suffix in ("png", "svg"):
                files[f"cd_diagram.{suffix}"] = save_figure(
                    fig, out_dir / f"cd_diagram.{suffix}"
                )
    for suffix in ("png", "svg"):
        # No diagram this time (no matplotlib, or too few complete data
        # sets): an earlier run's would sit beside this run's results.md,
        # showing ranks that are not this run's.
        if f"cd_diagram.{suffix}" not in files:
            (out_dir / f"cd_diagram.{suffix}").unlink(missing_ok=True)
    return files
