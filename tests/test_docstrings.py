"""The shared docstring entries: substituted everywhere, each one used, flat."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import augnb
from augnb._docstrings import ENTRIES, GROUPS, shared_entries, substitute

#: A line holding only ``{key}``: what :func:`substitute` replaces.
PLACEHOLDER = re.compile(r"^[ \t]*\{(\w+)\}[ \t]*$", re.MULTILINE)

SOURCE = Path(augnb.__file__).parent


def _docstrings() -> dict[str, str]:
    """``name -> __doc__`` of every module, class, function and method of augnb."""
    docs: dict[str, str] = {}
    names = [augnb.__name__]
    names += [m.name for m in pkgutil.walk_packages(augnb.__path__, "augnb.")]
    for name in names:
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional dependency is missing
            continue
        docs[name] = module.__doc__ or ""
        for obj in vars(module).values():
            if getattr(obj, "__module__", None) != name:
                continue
            if inspect.isclass(obj) or inspect.isfunction(obj):
                docs[f"{name}.{obj.__qualname__}"] = obj.__doc__ or ""
            if inspect.isclass(obj):
                for attr in vars(obj).values():
                    func = getattr(attr, "__func__", getattr(attr, "fget", attr))
                    if inspect.isfunction(func):
                        docs[f"{name}.{func.__qualname__}"] = func.__doc__ or ""
    return docs


def _used_keys() -> set[str]:
    """The keys named by a placeholder line somewhere in the package's source."""
    keys: set[str] = set()
    for path in SOURCE.rglob("*.py"):
        if path.name != "_docstrings.py":
            keys.update(PLACEHOLDER.findall(path.read_text(encoding="utf-8")))
    return keys


def test_no_placeholder_survives_in_any_docstring():
    docs = _docstrings()
    assert "augnb.classifiers.kdb.KDB" in docs
    left = {name: PLACEHOLDER.findall(doc) for name, doc in docs.items()}
    assert {name: keys for name, keys in left.items() if keys} == {}


def test_every_placeholder_names_an_entry():
    assert _used_keys() <= set(ENTRIES) | set(GROUPS)


def test_every_entry_and_group_is_used():
    used = _used_keys()
    through_groups = {name for key in used & set(GROUPS) for name in GROUPS[key]}
    assert set(GROUPS) - used == set()
    assert set(ENTRIES) - used - through_groups == set()


def test_substitution_is_flat():
    # No entry names another, no group names a group, no key is both.
    for key, text in ENTRIES.items():
        assert not PLACEHOLDER.search(text), key
        assert text == text.strip() and not text[0].isspace(), key
    for key, names in GROUPS.items():
        assert key not in ENTRIES
        assert set(names) <= set(ENTRIES), key


def test_substitute_indents_the_entry_and_leaves_other_braces():
    doc = """Summary.

    Parameters
    ----------
    mode : {"a", "b"}
        A set of options.
    {alpha}
    """
    expected = doc.replace(
        "    {alpha}\n",
        "\n".join("    " + line for line in ENTRIES["alpha"].splitlines()) + "\n",
    )
    assert substitute(doc) == expected
    assert '{"a", "b"}' in substitute(doc)


def test_a_group_is_its_entries_joined():
    key, names = next(iter(GROUPS.items()))
    joined = "\n".join(ENTRIES[name] for name in names)
    assert substitute("{" + key + "}") == joined


def test_an_unknown_key_raises():
    with pytest.raises(KeyError, match="no_such_entry"):
        substitute("Summary.\n\n    {no_such_entry}\n")


def test_the_decorator_substitutes_and_returns_the_object():
    def f() -> None:
        """Summary.

        Parameters
        ----------
        {theta}
        """

    assert shared_entries(f) is f
    assert f.__doc__ is not None
    assert "theta : float, default=0.0" in f.__doc__
    assert "{theta}" not in f.__doc__
