"""The architecture: docs/architecture.md's example learner, and no import cycles."""

from __future__ import annotations

import importlib
import re
import sys
import types
from pathlib import Path

import grimp
import networkx as nx
import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"


def test_example_learner_runs(capsys, monkeypatch):
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 2
    # A real module, so the estimator checks can pickle the example's class.
    module = types.ModuleType("augnb_architecture_example")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    exec(compile("\n".join(blocks), str(DOC), "exec"), module.__dict__)
    out = capsys.readouterr().out
    assert out.startswith("[((")  # the fitted arcs, as (parent, child) names
    # About 40 lines: one structure function and one thin class.
    n_lines = len([line for line in blocks[0].splitlines() if line.strip()])
    assert n_lines <= 45
    assert module.TopArcsNB.__mro__[1].__name__ == "BaseAugmentedNB"


def _import_graph() -> nx.DiGraph:
    # grimp (import-linter's graph) sees every import, function-level and
    # TYPE_CHECKING ones included; no cache, so parallel test workers never
    # share one.
    graph = grimp.build_graph("augnb", cache_dir=None)
    edges = nx.DiGraph()
    edges.add_nodes_from(graph.modules)
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            details = graph.get_import_details(importer=module, imported=imported)
            lines = [f"l.{d['line_number']}: {d['line_contents']}" for d in details]
            edges.add_edge(module, imported, lines=lines)
    return edges


@pytest.fixture(scope="module")
def import_graph() -> nx.DiGraph:
    return _import_graph()


def test_no_import_cycles(import_graph):
    graph = import_graph
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    described = [
        f"{a} -> {b} ({'; '.join(graph.edges[a, b]['lines'])})"
        for cycle in cycles
        for a, b in graph.subgraph(cycle).edges
    ]
    assert not cycles, "import cycles, through:\n" + "\n".join(described)


def test_registry_is_imported_from_above_the_classifiers_only(import_graph):
    # The registry reads the classifiers' exports: a module of the package it
    # lists must not import it back.
    importers = set(import_graph.predecessors("augnb.classifiers.registry"))
    assert not {m for m in importers if m.startswith("augnb.classifiers")}


def test_no_module_fills_its_namespace_at_run_time():
    # The exports are explicit imports, visible to type checkers and readers.
    package = Path(__file__).resolve().parent.parent / "src" / "augnb"
    writers = [
        str(path.relative_to(package))
        for path in sorted(package.rglob("*.py"))
        if "globals()" in path.read_text(encoding="utf-8")
    ]
    assert not writers


#: Tests of the project as a whole rather than of one module.
PROJECT_TESTS = {
    "architecture", "docs", "docstring_parameters", "guide", "packaging", "properties",
}


def test_tests_are_laid_out_like_the_source():
    root = Path(__file__).resolve().parent
    package = root.parent / "src" / "augnb"
    subpackages = {p.name for p in package.iterdir() if (p / "__init__.py").exists()}
    modules = {p.stem.lstrip("_") for p in package.glob("*.py")} - {"_init_"}
    for folder in root.iterdir():
        if folder.is_dir() and folder.name not in ("typing", "__pycache__"):
            assert folder.name in subpackages, f"tests/{folder.name} mirrors no package"
    for test in root.glob("test_*.py"):
        name = test.stem.removeprefix("test_")
        assert name in PROJECT_TESTS or any(
            name == m or name.startswith(f"{m}_") for m in modules
        ), f"{test.name} mirrors no module of augnb (and is no project test)"


def test_no_merge_conflict_markers_are_left():
    root = Path(__file__).resolve().parent.parent
    marker = re.compile(r"^(<{7}|>{7}) ", re.M)
    found = []
    for folder in ("src", "tests", "docs", "benchmarks", ".ci"):
        for path in (root / folder).rglob("*"):
            if path.is_file() and path.suffix in ("", ".py", ".md", ".toml", ".txt"):
                text = path.read_text(encoding="utf-8", errors="ignore")
                if marker.search(text):
                    found.append(str(path.relative_to(root)))
    for name in ("README.md", "pyproject.toml"):
        if marker.search((root / name).read_text(encoding="utf-8")):
            found.append(name)
    assert not found, f"merge conflict markers in {found}"
@pytest.mark.parametrize("package", ["augnb", "augnb.classifiers", "augnb.datasets"])
def test_lazy_exports_resolve(package):
    # The packages load their exports on first use (PEP 562): every name of
    # __all__ must resolve, to the object of the module it is loaded from.
    module = importlib.import_module(package)
    sources = getattr(module, "_SOURCES", {})
    if package != "augnb":
        assert sorted(sources) == sorted(module.__all__)
    for name in module.__all__:
        obj = getattr(module, name)
        if name in sources:
            assert getattr(importlib.import_module(sources[name]), name) is obj
    assert sorted(module.__all__) == [n for n in dir(module) if n in module.__all__]
    with pytest.raises(AttributeError, match="no attribute 'not_an_export'"):
        module.not_an_export  # noqa: B018


def test_top_level_exports_are_the_classifiers_and_their_helpers():
    import augnb
    import augnb.classifiers

    estimator_names = set(augnb.__all__) - set(augnb._SOURCES) - {"__version__"}
    assert estimator_names <= set(augnb.classifiers.__all__)
