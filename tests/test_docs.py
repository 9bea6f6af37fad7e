"""The documentation site covers every estimator and cites only what ships."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from sklearn.base import BaseEstimator

import augnb

ROOT = Path(__file__).resolve().parent.parent
ALGORITHMS = ROOT / "docs" / "algorithms"

#: Citations of documents that are not shipped: the internal specification,
#: its section and choice ids, and the numbering of the source papers.
UNSHIPPED = re.compile(
    r"(?i:seed[ -]00[0-9])|(?:ALGORITHMS|DESIGN|DEVELOPERS)\.md|\.\./shared|\bA-\d{2}\b"
)


def _estimators() -> list[str]:
    return [
        name
        for name in augnb.__all__
        if isinstance(getattr(augnb, name), type)
        and issubclass(getattr(augnb, name), BaseEstimator)
        and getattr(augnb, name).__name__ == name  # not an alias such as ASB
        and name != "BaseAugmentedNB"
    ]


def test_every_estimator_has_an_algorithm_page_with_a_figure():
    pages = {p: p.read_text(encoding="utf-8") for p in ALGORITHMS.glob("*.md")}
    names = _estimators()
    assert "AugmentedSemiNaiveBayes" in names and "ENBC" in names
    for name in names:
        alias = "ASB" if name == "AugmentedSemiNaiveBayes" else name
        hits = [p for p, text in pages.items() if f"{{class}}`augnb.{alias}`" in text]
        assert hits, f"no page in docs/algorithms introduces augnb.{alias}"
        figures = re.findall(r"```\{figure\} (\S+)", pages[hits[0]])
        assert figures, f"{hits[0].name} has no figure"
        # The index's table is built from the registry and the pages' titles:
        # a learner's page is titled with its class name or one of its aliases.
        title = pages[hits[0]].partition("\n")[0]
        assert title.split()[1] in {name, alias}, f"{hits[0].name}: title {title!r}"


def _make_figures():
    # docs/make_figures.py is a script of the documentation, not a module of
    # the package: load it from its file.
    spec = importlib.util.spec_from_file_location(
        "make_figures", ROOT / "docs" / "make_figures.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_figures_referenced_by_pages_are_committed_or_drawn_by_the_build():
    # The PNG figures are drawn by the documentation build (make_figures.py),
    # not committed; every other figure is a committed file.
    drawn = _make_figures().figure_stems()
    for page in ALGORITHMS.glob("*.md"):
        for ref in re.findall(r"```\{figure\} (\S+)", page.read_text(encoding="utf-8")):
            path = (page.parent / ref).resolve()
            if path.parent == ROOT / "docs" / "figures" and path.suffix == ".png":
                assert path.stem in drawn, f"{page.name}: {ref} is drawn by nothing"
            else:
                assert path.is_file(), f"{page.name}: {ref}"


def test_a_new_learner_page_gets_its_structure_drawn_on_the_default_data():
    figures = _make_figures()
    pages = figures.page_figures()
    assert pages["naive_bayes"] == "NaiveBayes" and pages["tan"] == "TAN"
    # The figures a list names otherwise keep their own data set.
    assert {"fss", "tan_bic_house_votes_84"} <= {s[0] for s in figures.STRUCTURES}
    assert figures.DEFAULT_DATASET == "car"


def test_shipped_files_cite_no_unshipped_document():
    files = [ROOT / "README.md"]
    for folder, pattern in (
        ("src", "*.py"),
        ("src", "*.md"),
        ("docs", "*.md"),
        ("tests", "*.py"),
        ("benchmarks", "*.py"),
    ):
        files += (ROOT / folder).rglob(pattern)
    # The tests that check the CLI never prints these names spell them out.
    files = [f for f in files if f.name not in ("test_cli.py", "test_docs.py")]
    files += [ROOT / "docs" / "conf.py", ROOT / "docs" / "make_figures.py"]
    hits = []
    for path in files:
        if "_build" in path.parts:
            continue
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if UNSHIPPED.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{lineno}: {line.strip()[:80]}")
    assert not hits, "\n".join(hits)


def _use_it_when_examples() -> dict[str, str]:
    """The example under each algorithm page's "Use it when" line, by page."""
    found = {}
    for page in sorted(ALGORITHMS.glob("*.md")):
        m = re.search(
            r"\*\*Use it when\*\*.*?```python\n(.*?)```",
            page.read_text(encoding="utf-8"),
            re.S,
        )
        if m:
            found[page.stem] = m.group(1)
    return found


def test_every_learner_page_says_when_to_use_it_with_an_example():
    pages = {p: p.read_text(encoding="utf-8") for p in ALGORITHMS.glob("*.md")}
    examples = _use_it_when_examples()
    for name in _estimators():
        alias = "ASB" if name == "AugmentedSemiNaiveBayes" else name
        page = next(p for p, t in pages.items() if f"{{class}}`augnb.{alias}`" in t)
        assert page.stem in examples, f"{page.name} has no 'Use it when' example"


@pytest.mark.slow
def test_use_it_when_examples_run(capsys):
    import matplotlib

    matplotlib.use("Agg")
    for stem, code in _use_it_when_examples().items():
        exec(compile(code, f"docs/algorithms/{stem}.md", "exec"), {})
        assert capsys.readouterr().out.strip(), f"{stem}.md: its example prints nothing"


# -- The user pages, run as a reader would run them -------------------------
#
# The getting-started page, the tutorial and the choosing page are notebooks
# executed by the documentation build, and tests/test_guide.py runs the
# guide's Python. The blocks below are the rest: the quick start of the
# README and of the site's home page, the Python of the pages on data and on
# saving, and every `augnb` command line of the user pages, in page order in
# one folder, with the files the pages tell the reader to bring.

#: Pages whose shell blocks a reader copies.
COMMAND_PAGES = (
    "README.md",
    "docs/install.md",
    "docs/guide.md",
    "docs/data.md",
    "docs/saving.md",
    "docs/scaling.md",
)


def _blocks(page: str, language: str) -> list[str]:
    text = (ROOT / page).read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


def _reader_files(folder: Path) -> None:
    """The files the pages ask the reader to have: their own tables."""
    import numpy as np
    import pandas as pd

    from augnb.datasets import load_dataframe

    car = load_dataframe("car")
    car.drop(columns="class").sample(20, random_state=0).to_csv(
        folder / "new_rows.csv", index=False
    )
    # The guide's held-out rows, scored by `augnb predict`.
    held_out = car.sample(300, random_state=1)
    car.drop(held_out.index).to_csv(folder / "car-train.csv", index=False)
    held_out.to_csv(folder / "car-test.csv", index=False)
    pima = load_dataframe("pima_diabetes")
    pima.to_csv(folder / "my_data.csv", index=False)
    pima.rename(columns={"class": "Outcome"}).to_parquet(folder / "my_data.parquet")
    # A postcode with a leading zero, a column of small whole numbers (which
    # the rule would count as categories) and a measurement.
    rng = np.random.default_rng(0)
    n = 200
    floors = rng.integers(1, 4, n)
    area = rng.normal(100, 20, n).round(1)
    pd.DataFrame({
        "zip": rng.choice(["01234", "02139", "10115", "80331"], n),
        "floors": floors,
        "area": area,
        "price_band": np.where(area + 10 * floors > 130, "high", "low"),
    }).to_csv(folder / "houses.csv", index=False)
    # The scaling page's files: Parquet parts with a class column `label`.
    (folder / "data").mkdir()
    labelled = car.rename(columns={"class": "label"})
    for i in range(3):
        labelled.iloc[i::3].to_parquet(folder / "data" / f"part-{i}.parquet",
                                       index=False)


def _command_lines() -> list[tuple[str, str]]:
    """Every `augnb` line of the pages' shell blocks, comments cut off."""
    lines = []
    for page in COMMAND_PAGES:
        for block in _blocks(page, "bash"):
            for line in block.splitlines():
                line = line.split(" # ")[0].strip()
                if line.startswith("augnb "):
                    lines.append((page, line))
    return lines


@pytest.mark.parametrize("page", ["README.md", "docs/index.md"])
def test_quick_start_runs(page, capsys):
    (block,) = _blocks(page, "python")
    exec(compile(block, page, "exec"), {})
    out = capsys.readouterr().out
    assert "Structure(class ->" in out and "[[" in out


def test_user_page_commands_run(tmp_path, monkeypatch, capsys):
    import shlex

    from augnb.cli import main

    monkeypatch.chdir(tmp_path)
    _reader_files(tmp_path)
    lines = _command_lines()
    assert len(lines) >= 20
    ran = []
    for page, line in lines:
        argv = shlex.split(line)[1:]
        # Cross-validation runs take seconds to minutes each (the full paper
        # suites minutes): tests/cli runs the command on small inputs.
        if argv[0] == "compare":
            continue
        try:
            status = main(argv)
        except SystemExit as stop:  # --version exits from argparse
            status = stop.code
        err = capsys.readouterr().err
        assert status == 0, f"{page}: `{line}` exited {status}: {err}"
        ran.append(argv[0])
    assert {"fit", "predict", "export", "inspect", "estimators"} <= set(ran)
    # What the pages say the commands write.
    for name in ("car-tan.augnb", "car-tan.dot", "predictions.csv", "car-tan.bif",
                 "car-tan.onnx", "houses.augnb", "tan.augnb"):
        assert (tmp_path / name).is_file(), name
    # The columns the README and the FAQ describe: the class, then `p(CLASS)`.
    header = (tmp_path / "predictions.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == "prediction,p(acc),p(good),p(unacc),p(vgood)", header


def test_data_page_python_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    _reader_files(tmp_path)
    for block in _blocks("docs/data.md", "python"):
        exec(compile(block, "docs/data.md", "exec"), {})
    out = capsys.readouterr().out
    assert "'floors'" in out and "'01234'" in out


def test_saving_page_python_runs(tmp_path, monkeypatch, capsys):
    for package in ("onnx", "onnxruntime", "pyagrum", "pgmpy"):
        pytest.importorskip(package)
    import warnings

    import joblib

    from augnb import TAN
    from augnb.datasets import load

    monkeypatch.chdir(tmp_path)
    # The page converts an old pickled model: make one as older augnb did.
    joblib.dump(TAN().fit(*load("car")), tmp_path / "old.joblib")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the pickle's warning, pgmpy's own
        exec(compile("\n".join(_blocks("docs/saving.md", "python")), "docs/saving.md",
                     "exec"), {})
    out = capsys.readouterr().out
    for name in ("model.augnb", "car-kdb.bif", "car-kdb.bifxml", "car-kdb.onnx"):
        assert (tmp_path / name).is_file(), name
    # pyAgrum's and pgmpy's posterior of the same evidence agree.
    assert out.count("0.3166") == 2, out


def test_guide_shows_what_predict_prints_of_a_labelled_table(
    tmp_path, monkeypatch, capsys
):
    # The guide's scores of held-out rows are the command's output, line for
    # line, on the files _reader_files makes.
    import shlex

    from augnb.cli import main

    (block,) = [b for b in _blocks("docs/guide.md", "bash") if "car-test.csv" in b]
    commands = [shlex.split(line)[1:] for line in block.splitlines()]
    (shown,) = [
        b for b in _blocks("docs/guide.md", "text") if "labelled rows" in b
    ]
    monkeypatch.chdir(tmp_path)
    _reader_files(tmp_path)
    assert main(commands[0]) == 0
    capsys.readouterr()
    assert main(commands[1]) == 0
    printed = capsys.readouterr().err.splitlines()
    assert printed[0] == "predictions: test-predictions.csv"
    assert printed[1:] == shown.splitlines()


def test_saving_page_shows_what_inspect_prints(tmp_path, monkeypatch, capsys):
    # The page's `augnb inspect` example is the command's output, line for line.
    from augnb.cli import main

    (block,) = [b for b in _blocks("docs/saving.md", "text") if "$ augnb inspect" in b]
    commands = [line[2:] for line in block.splitlines() if line.startswith("$ ")]
    assert commands == [
        "augnb fit iris --output iris.augnb",
        "augnb inspect iris.augnb",
    ]
    monkeypatch.chdir(tmp_path)
    assert main(commands[0].split()[1:]) == 0
    capsys.readouterr()
    assert main(commands[1].split()[1:]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed == block.splitlines()[2:]


def test_saving_page_quotes_what_the_exports_hold(tmp_path):
    # The posterior the page's R code prints is predict_proba's, and the
    # ensemble archive holds the files the page lists.
    import zipfile

    import augnb
    from augnb.datasets import load

    text = (ROOT / "docs" / "saving.md").read_text(encoding="utf-8")
    quoted = re.search(
        r"this prints (0\.\d+) for `acc` and (0\.\d+) for\s+`unacc`", text
    )
    assert quoted, "the R example's printed posterior is not on the page"
    X, y = load("car")
    kdb = augnb.KDB(k=2).fit(X, y)
    proba = kdb.predict_proba(X.iloc[:1])[0]
    classes = list(kdb.classes_)
    assert abs(proba[classes.index("acc")] - float(quoted.group(1))) < 1e-15
    assert abs(proba[classes.index("unacc")] - float(quoted.group(2))) < 1e-15

    listing = re.search(r"```text\naode\.zip\n(.*?)```", text, re.S)
    assert listing, "the ensemble archive's listing is not on the page"
    augnb.export(augnb.AODE().fit(X, y), tmp_path / "aode.zip", format="bif")
    names = set(zipfile.ZipFile(tmp_path / "aode.zip").namelist())
    assert names == {"manifest.json", "fallback.bif"} | {
        f"members/{i}.bif" for i in range(6)
    }, names
    assert "members/0.bif ... members/5.bif" in listing.group(1)
    assert "fallback.bif" in listing.group(1)


def test_scaling_page_python_runs(capsys):
    # The blocks that need no files or cluster: the statistics object and
    # the partial_fit loop, whose assert is the page's claim.
    blocks = [b for b in _blocks("docs/scaling.md", "python")
              if "data/" not in b and "dask" not in b]
    assert len(blocks) >= 2
    exec(compile("\n".join(blocks), "docs/scaling.md", "exec"), {})


def test_scaling_page_files_python_runs(tmp_path, monkeypatch):
    # The out-of-core block, on the Parquet parts _reader_files makes: the
    # streamed model predicts as the in-memory fit of the same rows.
    import pandas as pd

    from augnb import TAN
    from augnb.datasets import load_dataframe

    (block,) = [b for b in _blocks("docs/scaling.md", "python") if "fit_files(" in b]
    monkeypatch.chdir(tmp_path)
    _reader_files(tmp_path)
    scope: dict = {}
    exec(compile(block, "docs/scaling.md", "exec"), scope)
    proba = pd.read_parquet(tmp_path / "proba.parquet")
    car = load_dataframe("car")
    rows = pd.concat([car.iloc[i::3] for i in range(3)])
    X, y = rows.drop(columns="class"), rows["class"]
    expected = TAN().fit(X, y).predict_proba(X)
    assert list(proba.columns) == [str(c) for c in scope["tan"].classes_]
    assert abs(proba.to_numpy() - expected).max() < 1e-12


def test_scaling_page_dask_python_runs(tmp_path, monkeypatch):
    # The Dask block with the reader's cluster and bucket replaced by dask's
    # local scheduler and the Parquet parts _reader_files makes.
    pytest.importorskip("dask.dataframe")
    import pandas as pd

    (block,) = [b for b in _blocks("docs/scaling.md", "python") if "Client(" in b]
    lines = [line for line in block.splitlines() if "Client" not in line]
    code = "\n".join(lines).replace("s3://bucket/data/", "data/")
    code = code.replace("s3://bucket/proba/", "proba/")
    assert "s3://" not in code and "scheduler" not in code
    monkeypatch.chdir(tmp_path)
    _reader_files(tmp_path)
    scope: dict = {}
    exec(compile(code, "docs/scaling.md", "exec"), scope)
    written = pd.read_parquet(tmp_path / "proba")
    assert list(written.columns) == ["acc", "good", "unacc", "vgood"]
    assert len(written) == 1728
    assert len(scope["labels"].compute()) == 1728


def test_saving_page_says_what_every_learner_exports_to():
    # The table of what each learner exports to names each one of them.
    text = (ROOT / "docs" / "saving.md").read_text(encoding="utf-8")
    section = text.partition("### What each learner exports to")[2]
    table = section.partition("\n\n")[2].partition("\n\n")[0]
    named = set(re.findall(r"\b[A-Z][A-Za-z]+\b", table))
    missing = [n for n in _estimators() if n not in named]
    if "ASB" in named:  # the page's name for AugmentedSemiNaiveBayes
        missing = [n for n in missing if n != "AugmentedSemiNaiveBayes"]
    assert not missing, f"docs/saving.md's export table lacks {missing}"


def test_scaling_page_table_says_which_learners_have_partial_fit():
    # The "Which learners" table's yes/no, for its rows of plain class names
    # (default settings), is what the learners offer.
    registry = augnb.estimators()
    text = (ROOT / "docs" / "scaling.md").read_text(encoding="utf-8")
    table = text.partition("## Which learners")[2].partition("\n\n")[2]
    checked = []
    for row in table.partition("\n\n")[0].splitlines()[2:]:
        first, _, answer = (cell.strip() for cell in row.strip("|").split("|"))
        names = re.findall(r"`(\w+)`", first)
        if re.sub(r"`\w+`|[, ]", "", first) or not names:
            continue  # a row of settings (KDB(k>=2), ETAN with ...)
        expected = answer.startswith("yes")
        assert expected or answer.startswith("no"), row
        for name in names:
            cls = registry["AugmentedSemiNaiveBayes" if name == "ASB" else name]
            assert hasattr(cls(), "partial_fit") == expected, (name, answer)
            checked.append(name)
    assert {"TAN", "AODE", "BSEJ", "SKDB", "WANBIA"} <= set(checked), checked


def test_algorithm_pages_other_examples_run(capsys):
    # The examples of the algorithm pages beside their "Use it when" one
    # (run by the slow test above): a few seconds in all.
    first = _use_it_when_examples()
    ran = []
    for page in sorted(ALGORITHMS.glob("*.md")):
        for code in _blocks(f"docs/algorithms/{page.name}", "python"):
            if code == first.get(page.stem):
                continue
            exec(compile(code, f"docs/algorithms/{page.name}", "exec"), {})
            ran.append(page.stem)
    out = capsys.readouterr().out
    # What the pages' comments say the examples show.
    assert "\n15\n" in f"\n{out}", out  # AnDE(n=2) on car: 15 pair models
    assert {"ande", "awnb", "naive_bayes", "wanbia"} <= set(ran), ran
