"""The documentation site covers every estimator and cites only what ships."""

from __future__ import annotations

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


def test_figures_referenced_by_pages_exist():
    for page in ALGORITHMS.glob("*.md"):
        for ref in re.findall(r"```\{figure\} (\S+)", page.read_text(encoding="utf-8")):
            assert (page.parent / ref).resolve().is_file(), f"{page.name}: {ref}"


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
