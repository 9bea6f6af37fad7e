"""Sphinx extension of the augnb site: the CLI reference and API-page links.

* ``augnb-cli``: a directive that writes the command-line reference from
  ``augnb.cli``'s argparse parser at build time (every subcommand, argument and
  option, and the examples of each subcommand's epilog), so a new option
  appears without editing the docs.
* ``augnb-inherited``: a directive that lists the public methods a class
  inherits, each linked to the one page that documents it (the class that
  defines it, or scikit-learn's base class), so ``fit`` and ``predict_proba``
  are documented once rather than on every estimator's page.
* Docstring hooks: a mention of a documentation page (``docs/scaling.md``,
  ``enbc.md``) becomes a link to it; an estimator's page opens with a link to
  its algorithm page; private base classes (``_RootedTreeNB``) are shown as
  their nearest public ancestor.
"""

from __future__ import annotations

import argparse
import inspect
import re
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive
from docutils.statemachine import StringList
from sphinx.util.nodes import nested_parse_with_titles

DOCS = Path(__file__).resolve().parent.parent

# ---------------------------------------------------------------------------
# Command-line reference
# ---------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    from augnb.cli import _build_parser

    return _build_parser()


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, object]]:
    """``(name, one-line help, sub-parser)`` in the order they were added."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            return [(n, helps.get(n, ""), p) for n, p in action.choices.items()]
    return []


def _literal(text: str) -> str:
    """Inline literal text, safe for reStructuredText."""
    return "``" + text.replace("``", "`\u200b`") + "``"


def _rst_text(text: str) -> str:
    """Help text as reStructuredText: its `code` spans become literals."""
    text = text.replace("\\", "\\\\").replace("*", "\\*").replace("|", "\\|")
    # Option names as literals (no "--" turned into a dash), outside the
    # `code` spans, which become literals as a whole.
    parts = re.split(r"(`[^`]+`)", text)
    for i, part in enumerate(parts):
        if i % 2:
            parts[i] = _literal(part[1:-1])
        else:
            parts[i] = re.sub(
                r"(?<![\w-])(--[a-z][\w-]*)", lambda m: _literal(m.group(1)), part
            )
    return "".join(parts)


def _option_rows(parser: argparse.ArgumentParser) -> list[str]:
    """A list-table of the parser's arguments and options."""
    rows = [
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 35 65",
        "   :class: cli-options",
        "",
        "   * - argument",
        "     - meaning",
    ]
    header = len(rows)
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        if action.option_strings:
            metavar = ""
            if action.nargs != 0:
                metavar = action.metavar or action.dest.upper()
                if isinstance(metavar, tuple):
                    metavar = " ".join(metavar)
                if action.nargs in ("+", "*"):
                    metavar += " ..."
            name = ", ".join(f"{o} {metavar}".strip() for o in action.option_strings)
        else:
            name = action.metavar or action.dest
            if action.nargs in ("+", "*"):
                name += " ..."
        help_text = action.help or ""
        if help_text == argparse.SUPPRESS:
            continue
        help_text = help_text % {"default": action.default, "prog": parser.prog}
        help_text = help_text or "—"
        extra = []
        if action.choices and not isinstance(action, argparse._SubParsersAction):
            choices = ", ".join(_literal(str(c)) for c in action.choices)
            extra.append(f"one of {choices}")
        if action.required and action.option_strings:
            extra.append("required")
        if action.nargs in ("*", "?") and not action.option_strings:
            extra.append("optional")
        anchor = f"{parser.prog.replace(' ', '-')}-{action.dest}".replace("_", "-")
        rows += [
            f"   * - .. _cli-{anchor}:",
            "",
            f"       {_literal(name)}",
            f"     - {_rst_text(help_text)}"
            + (" (" + "; ".join(extra) + ")" if extra else ""),
        ]
    if len(rows) == header:
        return ["It takes no arguments.", ""]
    return [*rows, ""]


def cli_reference_rst() -> list[str]:
    """The whole command-line reference as reStructuredText lines."""
    parser = _parser()
    lines = [
        _rst_text(parser.description or ""),
        "",
        ".. code-block:: text",
        "",
        *["   " + line for line in parser.format_usage().strip().splitlines()],
        "",
        _rst_text(parser.epilog or ""),
        "",
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 20 80",
        "",
        "   * - command",
        "     - what it does",
    ]
    subs = _subcommands(parser)
    for name, help_text, _ in subs:
        lines += [
            f"   * - :ref:`augnb {name} <cli-{name}>`",
            f"     - {_rst_text(help_text)}",
        ]
    lines += ["", "Global options:", "", *_option_rows(parser)]
    for name, help_text, sub in subs:
        title = f"augnb {name}"
        lines += [
            f".. _cli-{name}:",
            "",
            title,
            "-" * len(title),
            "",
            _rst_text(sub.description or help_text[:1].upper() + help_text[1:] + "."),
            "",
            ".. code-block:: text",
            "",
            *["   " + line for line in sub.format_usage().strip().splitlines()],
            "",
            *_option_rows(sub),
        ]
        epilog = (sub.epilog or "").strip()
        if epilog:
            if epilog.startswith("examples:"):
                epilog = epilog.split("\n", 1)[1]
            # The examples are indented by two spaces, continuation lines more.
            lines += ["Examples:", "", ".. code-block:: text", ""]
            lines += ["   " + line[2:] for line in epilog.splitlines()]
            lines.append("")
    return lines


class CLIReference(Directive):
    """``.. augnb-cli::`` — the command-line reference, from the parser."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        """The reference's nodes, parsed from the generated text."""
        # The text comes from the parser's code, not from this page: an
        # incremental build must redo the page when that code changes.
        import augnb.cli

        env = self.state.document.settings.env
        for source in sorted(Path(augnb.cli.__file__).parent.glob("*.py")):
            env.note_dependency(str(source))
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(
            self.state, StringList(cli_reference_rst(), source="augnb.cli"), container
        )
        return container.children


# ---------------------------------------------------------------------------
# Inherited methods, documented once
# ---------------------------------------------------------------------------


def _import(fullname: str) -> object:
    import importlib

    module, _, name = fullname.rpartition(".")
    return getattr(importlib.import_module(module), name)


#: The name under which the API reference documents a class, by ``id(cls)``;
#: filled by conf.py when it writes the API pages.
DOCUMENTED: dict[int, str] = {}


def _documented_name(owner: type) -> str | None:
    """The name under which ``owner``'s page documents it, or None."""
    return DOCUMENTED.get(id(owner))


class InheritedMethods(Directive):
    """``.. augnb-inherited:: augnb.TAN`` — its inherited methods, as links."""

    required_arguments = 1
    has_content = False
    def run(self) -> list[nodes.Node]:
        """One paragraph of links per class the methods come from."""
        cls = _import(self.arguments[0])
        try:
            instance = cls()
        except Exception:  # a class that needs arguments: judge by the class
            instance = None
        groups: dict[str, list[str]] = {}
        for name in sorted(dir(cls)):
            if name.startswith("_") or name in vars(cls):
                continue
            attr = inspect.getattr_static(cls, name)
            try:
                # partial_fit is a descriptor, there only where it is supported.
                bound = getattr(cls, name)
            except AttributeError:
                continue
            if not (inspect.isroutine(bound) or isinstance(attr, property)):
                continue
            owner = next(k for k in cls.__mro__ if name in vars(k))
            if owner.__name__.startswith("_") and owner.__module__.startswith(
                "sklearn"
            ):
                continue  # metadata-routing internals, documented by scikit-learn
            if instance is not None and not hasattr(instance, name):
                continue  # e.g. partial_fit of a learner that cannot do it
            if owner.__module__.startswith("sklearn"):
                # set_*_request and friends: scikit-learn documents them.
                target = f"sklearn.base.{owner.__name__}"
                if name.startswith("set_") and name.endswith("_request"):
                    continue
            else:
                target = _documented_name(owner)
                if target is None:
                    continue
            role = "attr" if isinstance(attr, property) else "meth"
            groups.setdefault(target, []).append(f":{role}:`~{target}.{name}`")
        lines = []
        for target, refs in groups.items():
            lines += [
                f"Inherited from :class:`{target}`: " + ", ".join(refs) + ".",
                "",
            ]
        if not lines:
            return []
        node = nodes.container(classes=["inherited-methods"])
        self.state.nested_parse(StringList(lines, source=self.arguments[0]), 0, node)
        return [node]


# ---------------------------------------------------------------------------
# Docstring hooks
# ---------------------------------------------------------------------------


def _doc_pages() -> dict[str, str]:
    """Docs page paths (``algorithms/enbc``) by every name a docstring uses."""
    pages: dict[str, str] = {}
    ambiguous: set[str] = set()
    for path in DOCS.rglob("*.md"):
        rel = path.relative_to(DOCS)
        if rel.parts[0].startswith("_"):
            continue
        doc = rel.with_suffix("").as_posix()
        pages[f"docs/{rel.as_posix()}"] = doc
        pages[rel.as_posix()] = doc
        if path.name in pages and pages[path.name] != doc:
            ambiguous.add(path.name)
        pages.setdefault(path.name, doc)
    for name in ambiguous:
        del pages[name]
    return pages


_PAGE_MENTION = re.compile(r"(?<![\w/`.-])((?:docs/)?(?:[\w-]+/)*[\w-]+\.md)(?![\w`])")


def _link_page_mentions(app, what, name, obj, options, lines) -> None:
    """``see docs/scaling.md`` in a docstring -> a link to that page."""
    pages = app.env.augnb_doc_pages

    def repl(m: re.Match) -> str:
        doc = pages.get(m.group(1))
        return f":doc:`{m.group(1)} </{doc}>`" if doc else m.group(0)

    for i, line in enumerate(lines):
        if ".md" in line and not line.rstrip().endswith("::"):
            lines[i] = _PAGE_MENTION.sub(repl, line)
        elif ".md" in line:
            # "(eq. 4, docs/algorithms/enbc.md)::" opens a literal block: keep
            # the colon pair after the link.
            head, _, tail = line.rstrip().rpartition("::")
            lines[i] = _PAGE_MENTION.sub(repl, head) + "::" + tail


def _algorithm_pages() -> dict[str, str]:
    """Algorithm page (``algorithms/tan``) by the ``augnb.NAME`` it introduces.

    A page introduces a class with ``{class}`augnb.NAME``` in its text (the
    same rule tests/test_docs.py checks).
    """
    found: dict[str, str] = {}
    for path in sorted((DOCS / "algorithms").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for name in re.findall(r"\{class\}`augnb\.(?:\w+\.)*(\w+)`", text[:3000]):
            found.setdefault(name, f"algorithms/{path.stem}")
    return found


def _read_more(app, what, name, obj, options, lines) -> None:
    """An estimator's page opens with a link to its algorithm page."""
    if what != "class" or not lines:
        return
    page = app.env.augnb_algorithm_pages.get(getattr(obj, "__name__", ""))
    if page is None:
        return
    # After the summary paragraph (numpydoc has already parsed the docstring).
    start = next((i for i, line in enumerate(lines) if line.strip()), 0)
    end = next(
        (i for i in range(start, len(lines)) if not lines[i].strip()), len(lines)
    )
    lines[end:end] = ["", f"Read more on the algorithm page: :doc:`/{page}`."]


def _public_bases(app, name, obj, options, bases) -> None:
    """Show a private or undocumented augnb base as its nearest documented one.

    ``TAN(_RootedTreeNB)`` is shown as ``TAN(BaseAugmentedNB)``: the private
    intermediate classes are implementation, and the reader needs the page
    that documents the inherited methods.
    """
    shown = []
    for base in bases:
        if isinstance(base, type) and base.__module__.startswith("augnb"):
            base = next(
                (k for k in base.__mro__ if id(k) in DOCUMENTED),
                next(k for k in base.__mro__ if not k.__module__.startswith("augnb")),
            )
        if base not in shown:
            shown.append(base)
    bases[:] = shown


class Aliases(Directive):
    """``.. augnb-aliases:: augnb.AugmentedSemiNaiveBayes`` — its other names.

    A class exported under a second name (``augnb.ASB``) gets a target under
    that name too, so that both ``augnb.ASB`` and the full name link here.
    """

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        """One target (and a line) per other name of the class."""
        import importlib

        module_name, _, name = self.arguments[0].rpartition(".")
        module = importlib.import_module(module_name)
        obj = getattr(module, name)
        aliases = [
            n
            for n in getattr(module, "__all__", [])
            if n != name and getattr(module, n) is obj
        ]
        lines = []
        for alias in aliases:
            lines += [
                f".. py:class:: {alias}",
                f"   :module: {module_name}",
                "   :no-index-entry:",
                "",
                f"   Another name of :class:`{self.arguments[0]}`: the same class.",
                "",
            ]
        if not lines:
            return []
        node = nodes.container()
        self.state.nested_parse(StringList(lines, source=self.arguments[0]), 0, node)
        return node.children


_PLUS_MINUS = re.compile(r"(\d) ± (\d)")


def _keep_plus_minus_together(app, doctree) -> None:
    """``84.87 ± 2.66`` in a table cell never breaks across lines.

    The spaces around ``±`` become non-breaking: a narrow column keeps each
    mean beside its standard deviation (the table scrolls sideways instead).
    """
    for entry in doctree.findall(nodes.entry):
        for text in list(entry.findall(nodes.Text)):
            if " ± " in text:
                new = nodes.Text(_PLUS_MINUS.sub("\\1\u00a0±\u00a0\\2", str(text)))
                text.parent.replace(text, new)


def _viewcode_targets(app, doctree, docname) -> None:
    """Give each documented object the anchor its source page links back to.

    The source pages (``[docs]`` links of viewcode) link an object of module
    ``M`` to ``#R.name``, with one ``R`` per source module: the public module
    under which the first of its objects was documented. An object documented
    under another public module (``augnb.evaluation.cross_validate`` and
    ``augnb.evaluation.cv.summarize``) would be a broken link; it gets that
    anchor too.
    """
    from sphinx import addnodes
    from sphinx.ext.viewcode import _get_full_modname

    modules = getattr(app.env, "_viewcode_modules", {})
    taken = {i for node in doctree.findall(nodes.Element) for i in node["ids"]}
    for signode in doctree.findall(addnodes.desc_signature):
        modname, fullname = signode.get("module"), signode.get("fullname")
        if not modname or not fullname:
            continue
        entry = modules.get(_get_full_modname(modname, fullname) or "")
        if not entry:
            continue
        anchor = f"{entry[3]}.{fullname}"
        if anchor not in taken:
            signode["ids"].append(anchor)
            taken.add(anchor)


def _init_env(app) -> None:
    app.env.augnb_doc_pages = _doc_pages()
    app.env.augnb_algorithm_pages = _algorithm_pages()


def setup(app) -> dict:
    """Register the directives and hooks."""
    app.add_directive("augnb-cli", CLIReference)
    app.add_directive("augnb-inherited", InheritedMethods)
    app.add_directive("augnb-aliases", Aliases)
    app.connect("builder-inited", _init_env)
    app.connect("autodoc-process-docstring", _link_page_mentions, priority=100)
    app.connect("autodoc-process-docstring", _read_more, priority=600)
    app.connect("autodoc-process-bases", _public_bases)
    app.connect("doctree-read", _keep_plus_minus_together)
    app.connect("doctree-resolved", _viewcode_targets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
