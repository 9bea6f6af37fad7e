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
sys.path.insert(0, str(HERE / "_ext"))

import augnb  # noqa: E402

project = "augnb"
author = "the augnb developers"
copyright = "the augnb developers"
release = augnb.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "numpydoc",
    # MyST markdown, and the pages written as notebooks (the getting-started
    # page and the tutorial) executed at every build: their outputs and
    # figures are those of the code on the page.
    "myst_nb",
    "augnb_docs",
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "_intersphinx", "_templates"]

# Markdown (MyST): headings get anchors so pages can link to sections.
myst_enable_extensions = ["dollarmath", "colon_fence", "deflist", "substitution"]
myst_heading_anchors = 3
# The tutorial's closing link to the page on saving and exporting models,
# once that page exists (a link to a missing page would fail the build).
myst_substitutions = {
    "next_exporting": (
        "**Next: exporting.** [Saving and sharing models](saving.md): model "
        "files, the model exported to pgmpy, pyAgrum or R, and served by "
        "onnxruntime without augnb."
        if (HERE / "saving.md").exists()
        else "**Next: shipping.** {func}`augnb.save_model` and "
        "{func}`augnb.load_model` write and read the model file; the "
        "{doc}`guide` says what it holds."
    )
}

# Notebook pages: executed at every clean build (cached between incremental
# builds in _build/.jupyter_cache); an exception in a cell fails the build.
nb_execution_mode = "cache"
nb_execution_timeout = 180
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True

# Links to the documentation of scikit-learn, NumPy, pandas and Python. The
# build runs without network access, so the inventories are files of this
# folder (docs/_intersphinx, written by its make_inventories.py from the
# installed packages and each project's URL layout).
intersphinx_mapping = {
    name: (url, str(HERE / "_intersphinx" / f"{name}.inv"))
    for name, url in {
        "sklearn": "https://scikit-learn.org/stable/",
        "numpy": "https://numpy.org/doc/stable/",
        "pandas": "https://pandas.pydata.org/docs/",
        "python": "https://docs.python.org/3/",
    }.items()
}

# API reference: pages from the templates in _templates/autosummary.
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

#: The user-facing API, by group: (page, title, introduction, the modules whose
#: ``__all__`` fills the group). A name is documented under the first
#: (shortest) public module listed that exports it: ``augnb.TAN``, not
#: ``augnb.classifiers.tan.TAN``; ``module:classes``, ``module:functions`` and
#: ``module:name`` take part of a module. Every other public module is an
#: internal one (one page per module, apart). A name added to one of these
#: ``__all__`` lists gets its page without editing this file.
API_GROUPS = [
    (
        "classifiers",
        "Classifiers",
        "The estimators, importable from ``augnb``. Each page lists its own "
        "parameters and fitted attributes and links to its algorithm page; the "
        "methods they share (``fit``, ``predict_proba``, ``partial_fit``, ...) "
        "are documented once, on :doc:`estimator_api`.",
        ["augnb:classes", "augnb:estimators"],
    ),
    (
        "discretisers",
        "Discretisers",
        "scikit-learn transformers that cut continuous columns into intervals; "
        "any classifier takes one as ``discretizer=``.",
        ["augnb.discretize"],
    ),
    (
        "evaluation",
        "Evaluation",
        "Paired cross-validation, paper suites and the tests across data sets.",
        ["augnb.evaluation", "augnb.evaluation.significance"],
    ),
    (
        "data_io",
        "Data and I/O",
        "Model files, the bundled data sets, tables in and out of memory.",
        [
            "augnb:functions",
            "augnb.datasets",
            "augnb.streaming",
            "augnb.data",
            "augnb.data.tables",
        ],
    ),
    (
        "explanations",
        "Explanations",
        "Why a model predicted what it did.",
        ["augnb.explain"],
    ),
    (
        "plotting",
        "Plotting",
        "Structures and critical-difference diagrams (needs matplotlib: "
        "``pip install 'augnb[plot]'``).",
        ["augnb.plotting"],
    ),
]

#: Classes documented on the common-API page rather than in a group.
COMMON_BASES = ["augnb.BaseAugmentedNB"]


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
    names = [
        n
        for n in names
        if inspect.isclass(getattr(module, n, None))
        or inspect.isfunction(getattr(module, n, None))
        or (
            callable(getattr(module, n, None))
            and not isinstance(getattr(module, n, None), (str, int, float))
        )
    ]
    # A class's own name before its aliases (AugmentedSemiNaiveBayes, not ASB).
    return sorted(names, key=lambda n: getattr(getattr(module, n), "__name__", n) != n)


def _autosummary(names: list[str]) -> list[str]:
    return [
        ".. autosummary::",
        "   :toctree: generated",
        "   :template: autosummary/augnb-object.rst",
        "   :nosignatures:",
        "",
        *[f"   {n}" for n in names],
        "",
    ]


def _group_order(module: object, names: list[str]) -> list[str]:
    """Estimators in the algorithm index's order, then the rest, by kind."""
    from sklearn.base import BaseEstimator

    def key(n: str) -> tuple:
        obj = getattr(module, n)
        is_estimator = isinstance(obj, type) and issubclass(obj, BaseEstimator)
        return (not is_estimator, not isinstance(obj, type), n.lower())

    return sorted(names, key=key)


def write_api_pages(out_dir: Path) -> None:
    """Write the API reference: grouped user API, common API, internals.

    One page per public class and function of the user API (autosummary, with
    ``_templates/autosummary/augnb-object.rst``); the methods every estimator
    shares are documented once on ``estimator_api``; the building blocks
    (structures, statistics, parameters, inference, search, ...) get one page
    per module under ``internals``. Every object is documented once.
    """
    import augnb_docs

    if out_dir.exists():
        shutil.rmtree(out_dir)
    (out_dir / "internals").mkdir(parents=True)
    seen: set[int] = set()
    documented = augnb_docs.DOCUMENTED
    documented.clear()

    def claim(module_name: str, name: str) -> bool:
        obj = getattr(importlib.import_module(module_name), name)
        if id(obj) in seen:
            return False
        seen.add(id(obj))
        if isinstance(obj, type):
            documented[id(obj)] = f"{module_name}.{name}"
        return True

    for full in COMMON_BASES:
        claim(*full.rsplit(".", 1))
    index = [
        "API reference",
        "=============",
        "",
        "Every public class and function, one page each, grouped by what it is "
        "for. The classifiers are importable from ``augnb`` directly; the "
        "methods they share are on :doc:`estimator_api`. The building blocks "
        "the estimators are made of are documented apart, under "
        ":doc:`internals/index`.",
        "",
        ".. toctree::",
        "   :hidden:",
        "",
        "   estimator_api",
        "   internals/index",
        "",
    ]
    for _page, title, intro, modules in API_GROUPS:
        names = []
        for spec in modules:
            module_name, _, only = spec.partition(":")
            module = importlib.import_module(module_name)
            wanted = [
                n
                for n in _exported(module_name)
                if not only
                or n == only
                or (
                    (only == "classes") == inspect.isclass(getattr(module, n))
                    and only in ("classes", "functions")
                )
            ]
            own = [n for n in wanted if claim(module_name, n)]
            names += [f"{module_name}.{n}" for n in _group_order(module, own)]
        index += [title, "-" * len(title), "", intro, "", *_autosummary(names)]
    (out_dir / "index.rst").write_text("\n".join(index))

    common = [
        "Common estimator API",
        "====================",
        "",
        "Every classifier of augnb derives from :class:`augnb.BaseAugmentedNB` "
        "and shares its methods: ``fit``, ``partial_fit``, ``predict``, "
        "``predict_proba``, ``predict_log_proba``, ``predict_joint_log_proba`` "
        "and the ``encode`` helper, documented here once. ``get_params``, "
        "``set_params`` and ``score`` come from scikit-learn's "
        ":class:`~sklearn.base.BaseEstimator` and "
        ":class:`~sklearn.base.ClassifierMixin`.",
        "",
        ".. currentmodule:: augnb",
        "",
    ]
    for full in COMMON_BASES:
        common += [
            f".. autoclass:: {full.rsplit('.', 1)[1]}",
            "   :members:",
            "   :show-inheritance:",
            "",
        ]
    (out_dir / "estimator_api.rst").write_text("\n".join(common))

    internal_pages = []
    for name in _public_modules():
        module = importlib.import_module(name)
        own = [n for n in _exported(name) if claim(name, n)]
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
                    "   :show-inheritance:",
                    "",
                ]
            else:
                lines += [f".. autofunction:: {obj_name}", ""]
        (out_dir / "internals" / f"{name}.rst").write_text("\n".join(lines))
        internal_pages.append(name)
    internals = [
        "Internals",
        "=========",
        "",
        "The building blocks of the estimators, one page per module: "
        "structures and their searches, sufficient statistics, parameter "
        "tables, inference, row sources. They are public so that a new learner "
        "can be written from them (see :doc:`/architecture`), but most users "
        "never need them.",
        "",
        ".. toctree::",
        "   :maxdepth: 1",
        "",
        *[f"   {n}" for n in internal_pages],
        "",
    ]
    (out_dir / "internals" / "index.rst").write_text("\n".join(internals))


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
