"""Sphinx configuration of the augnb documentation.

Build with ``sphinx-build -W -b html docs docs/_build/html`` from the
repository root (after ``pip install -e ".[dev]"``). The API reference pages
are written from the package's public modules at every build (see
:func:`write_api_pages`), so a new public function or class appears without
editing this folder.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# Prefer the source tree: the build documents the checkout it belongs to.
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(HERE))

import augnb  # noqa: E402

project = "augnb"
author = "the augnb developers"
copyright = "the augnb developers"
release = augnb.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "results/overview/folds.csv"]

# Markdown (MyST): headings get anchors so pages can link to sections.
myst_enable_extensions = ["dollarmath", "colon_fence", "deflist"]
myst_heading_anchors = 3

# API reference.
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"  # numpydoc sections already give the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# A numpydoc "References" section is a bibliography: its entries need not all
# be cited inline ("[1]_"), and module docstrings seldom cite them. Every
# other warning stays an error under -W.
suppress_warnings = ["ref.citation"]

# Formulas are converted to MathML at build time (see _visit_math below), so
# they render in any current browser without JavaScript or network access.
html_math_renderer = "mathml"

html_theme = "furo"
html_title = f"augnb {release}"
html_static_path = ["_static"]
html_css_files = ["augnb.css"]
html_show_sourcelink = False

# Files that are not pages but are linked from pages (the per-fold results).
html_extra_path: list[str] = []


# ---------------------------------------------------------------------------
# API pages
# ---------------------------------------------------------------------------


def _public_modules() -> list[str]:
    """Every importable module of augnb whose dotted path has no private part."""
    names = ["augnb"]
    for info in pkgutil.walk_packages(augnb.__path__, prefix="augnb."):
        parts = info.name.split(".")
        if any(p.startswith("_") for p in parts) or info.name == "augnb.cli":
            continue
        names.append(info.name)
    return sorted(names, key=lambda n: (n.count("."), n))


def _exported(module_name: str) -> list[str]:
    """The module's public classes and functions: ``__all__``, else its own."""
    module = importlib.import_module(module_name)
    if hasattr(module, "__all__"):
        names = list(module.__all__)
    else:
        names = [
            n
            for n, obj in vars(module).items()
            if not n.startswith("_")
            and (inspect.isclass(obj) or inspect.isfunction(obj))
            and getattr(obj, "__module__", None) == module_name
        ]
    return [
        n
        for n in names
        if inspect.isclass(getattr(module, n, None))
        or inspect.isfunction(getattr(module, n, None))
        or (
            callable(getattr(module, n, None))
            and not isinstance(getattr(module, n, None), (str, int, float))
        )
    ]


def write_api_pages(out_dir: Path) -> list[str]:
    """Write one page per public module that is home to public objects.

    Each public object is documented once, under the shortest public module
    that exports it (``augnb.TAN``, not ``augnb.classifiers.tan.TAN``), on
    its module's page: a summary table, then every object in full. (One page
    per object would multiply the site's navigation tree, which the theme
    renders on every page, and the build time with it.) Returns the module
    names written, in toc order.
    """
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    seen: set[int] = set()
    written = []
    for name in _public_modules():
        module = importlib.import_module(name)
        own = []
        # A class's own name before its aliases (AugmentedSemiNaiveBayes, not ASB).
        names = sorted(
            _exported(name),
            key=lambda n: getattr(getattr(module, n), "__name__", n) != n,
        )
        for obj_name in names:
            obj = getattr(module, obj_name)
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            own.append(obj_name)
        if not own:
            continue
        title = f"``{name}``"
        lines = [
            title,
            "=" * len(title),
            "",
            f".. automodule:: {name}",
            "   :no-members:",
            "",
            f".. currentmodule:: {name}",
            "",
            ".. autosummary::",
            "   :nosignatures:",
            "",
            *[f"   {n}" for n in own],
            "",
        ]
        for obj_name in own:
            if inspect.isclass(getattr(module, obj_name)):
                lines += [
                    f".. autoclass:: {obj_name}",
                    "   :members:",
                    "   :inherited-members:",
                    "   :show-inheritance:",
                    "",
                ]
            else:
                lines += [f".. autofunction:: {obj_name}", ""]
        (out_dir / f"{name}.rst").write_text("\n".join(lines))
        written.append(name)
    index = [
        "API reference",
        "=============",
        "",
        "Every public class and function, from its docstring. Each object is "
        "documented under the shortest module that exports it; the classifiers "
        "are importable from ``augnb`` directly. Methods inherited from "
        "scikit-learn's base classes (``get_params``, ``set_params``, "
        "``score``, ...) are documented by scikit-learn.",
        "",
        ".. toctree::",
        "   :maxdepth: 1",
        "",
        *[f"   {n}" for n in written],
        "",
    ]
    (out_dir / "index.rst").write_text("\n".join(index))
    return written


write_api_pages(HERE / "api")


# ---------------------------------------------------------------------------
# Figures of the algorithm pages (committed; drawn again only when missing)
# ---------------------------------------------------------------------------


def _figures(app) -> None:
    import make_figures

    make_figures.main(only_missing=True)


def _skip_sklearn_members(app, what, name, obj, skip, options):
    """Leave out the members inherited from scikit-learn's base classes.

    ``get_params``, ``set_params``, ``score``, the metadata-routing
    ``set_*_request`` methods and ``set_output`` are documented by
    scikit-learn, and their docstrings point into its own site.
    """
    module = getattr(obj, "__module__", None) or ""
    if module.startswith("sklearn"):
        return True
    return None


_TYPE_LINE = re.compile(r"^(\s*[\w, *]+ : )(.*)$")


def _escape_type_underscores(app, what, name, obj, options, lines):
    """Escape trailing underscores in parameter types, e.g. ``(n_features_in_,)``.

    scikit-learn's convention writes fitted-attribute names in shapes; in
    reStructuredText a word ending in ``_`` is a link, which would fail.
    Runs before numpydoc parses the docstring.
    """
    for i, line in enumerate(lines):
        m = _TYPE_LINE.match(line)
        if m:
            lines[i] = m.group(1) + re.sub(r"(\w)_(?=\W|$)", r"\1\\_", m.group(2))


def _visit_inline_math(self, node) -> None:
    from docutils import nodes
    from latex2mathml.converter import convert

    self.body.append(convert(node.astext()))
    raise nodes.SkipNode


def _visit_block_math(self, node) -> None:
    from docutils import nodes
    from latex2mathml.converter import convert

    self.body.append(
        '<div class="math-block">' + convert(node.astext(), display="block") + "</div>"
    )
    raise nodes.SkipNode


#: Where the algorithms index asks for its table of learners.
_ESTIMATOR_TABLE = "{estimator-table}"


def _algorithm_pages() -> dict[str, str]:
    # {first word of the page's title: page}: a learner's page is titled
    # with its class name or one of its aliases ("# ASB").
    pages = {}
    for path in sorted((Path(__file__).parent / "algorithms").glob("*.md")):
        title = path.read_text(encoding="utf-8").partition("\n")[0]
        if title.startswith("# "):
            pages[title[2:].split()[0]] = path.name
    return pages


def estimator_table() -> str:
    """The algorithms index's table: every registered learner and its page.

    Read from the registry (each class's one-line summary) and from the
    algorithm pages' titles, so that a learner added to the package is listed
    with no edit here; a learner without a page fails the build.
    """
    from augnb.classifiers.registry import describe_estimators

    pages = _algorithm_pages()
    rows = ["| class | what it learns | page |", "|---|---|---|"]
    for name, aliases, summary in describe_estimators():
        page = next((pages[n] for n in (name, *aliases) if n in pages), None)
        if page is None:
            raise RuntimeError(
                f"{name} has no page in docs/algorithms/ (a page titled "
                f"'# {name}'); write one."
            )
        rows.append(f"| `{name}` | {summary} | [{name}]({page}) |")
    return "\n".join(rows)


def _fill_estimator_table(app, docname: str, source: list[str]) -> None:
    if _ESTIMATOR_TABLE in source[0]:
        source[0] = source[0].replace(_ESTIMATOR_TABLE, estimator_table())


def setup(app) -> None:
    """Connect the hooks above to the build."""
    app.connect("autodoc-process-docstring", _escape_type_underscores, priority=100)
    app.add_html_math_renderer(
        "mathml", (_visit_inline_math, None), (_visit_block_math, None)
    )
    app.connect("builder-inited", _figures)
    app.connect("autodoc-skip-member", _skip_sklearn_members)
    app.connect("source-read", _fill_estimator_table)
