"""Declared hyperparameters: one line per parameter, the ``__init__`` generated.

An estimator declares each hyperparameter once, as an annotated class
attribute whose value is :func:`param`::

    class KDB(BaseAugmentedNB):
        k: int = param(1, Interval(numbers.Integral, 0), kw_only=False)
        theta: float = param(0.0, Interval(numbers.Real))
        alpha: float = param(kw_only=True)  # inherited, now keyword-only

From the declarations of a class and of its bases, :func:`declare_parameters`
(called by ``BaseAugmentedNB.__init_subclass__``) builds

- ``_parameters``: ``name -> Param`` in signature order (what subclasses
  inherit and override);
- ``_parameter_constraints``: ``name -> Constraint``, the table the base class
  validates at ``fit`` (the same table old-style estimators write by hand);
- a real ``__init__`` with a true signature (defaults, annotations, the
  keyword-only marker), which only stores its arguments, as scikit-learn
  requires: ``get_params``, ``clone``, the repr, ``help()`` and Sphinx read it.

Order of the signature: the class's new positional parameters, the inherited
positional ones, the class's new keyword-only ones, then the inherited
keyword-only ones (a parameter made keyword-only by an override first among
them). ``before="name"`` places a new parameter just before an inherited one
instead. An override (the name of an inherited parameter) keeps its place and
changes only what it gives: a default, a constraint, the keyword-only flag.

A class that writes ``__init__`` itself (with a ``_parameter_constraints``
table) is left as it is: both styles live side by side, and an old-style class
may inherit from a declared one (``{**Base._parameter_constraints, ...}``).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from augnb.classifiers.constraints import Constraint

__all__ = ["Param", "declare_parameters", "param"]


class _Missing:
    """Marks a field an override leaves as inherited."""

    def __repr__(self) -> str:
        return "<inherited>"


_MISSING: Any = _Missing()


@dataclass(frozen=True)
class Param:
    """One declared hyperparameter (see :func:`param`)."""

    default: object = _MISSING
    constraint: Constraint | None = None
    kw_only: bool | None = None
    before: str | None = None
    annotation: object = _MISSING


def param(
    default: object = _MISSING,
    constraint: Constraint | None = None,
    *,
    kw_only: bool | None = None,
    before: str | None = None,
) -> Any:
    """Declare a hyperparameter (a class attribute of an estimator).

    Parameters
    ----------
    default : object
        The default value (immutable: it is shared by every instance).
        Required for a new parameter; an override may leave it inherited.
    constraint : Constraint
        Its valid values, checked when ``fit`` starts. Required for a new
        parameter; an override may leave it inherited.
    kw_only : bool, default=None
        Whether it is keyword-only: new parameters are, unless False; an
        override leaves the inherited flag unless given.
    before : str, default=None
        A new parameter goes just before this inherited one in the signature.

    Returns
    -------
    Param
        The declaration (typed ``Any`` so that ``k: int = param(1, ...)``
        type-checks; type checkers see the parameters through
        ``typing.dataclass_transform`` on the base class).
    """
    return Param(default, constraint, kw_only, before)


def declare_parameters(cls: type) -> None:
    """Build ``_parameters``, ``_parameter_constraints`` and ``__init__``.

    A class that declares no parameter of its own inherits its base's
    tables (and ``__init__``, of whatever style; a generated one is copied
    so that it carries the class's name).

    Raises
    ------
    TypeError
        For a declaration that is incomplete, names an unknown anchor, or is
        mixed with a hand-written ``__init__`` or ``_parameter_constraints``.
    """
    own = {k: v for k, v in vars(cls).items() if isinstance(v, Param)}
    if not own:
        inherited_init = getattr(cls, "__init__", None)
        if "__init__" not in vars(cls) and getattr(
            inherited_init, "_augnb_generated", False
        ):
            # The class's own copy: help() and Sphinx then name the class.
            # Its own `_parameters` too, so its subclasses inherit from it.
            cls._parameters = MappingProxyType(dict(cls._parameters))
            cls.__init__ = _make_init(cls, dict(cls._parameters))
        return
    name = cls.__qualname__
    for attr in ("__init__", "_parameter_constraints"):
        if attr in vars(cls):
            raise TypeError(
                f"{name} declares parameters with param() and writes {attr} "
                "itself; use one style (param() declarations generate both)."
            )
    inherited = _inherited_parameters(cls)
    annotations = inspect.get_annotations(cls)  # the class's own, as written
    resolved = dict(inherited)
    new_pos: list[str] = []
    new_kw: list[str] = []
    anchored: list[tuple[str, str]] = []
    demoted: list[str] = []
    for key, p in own.items():
        annotation = annotations.get(key, _MISSING)
        if key in inherited:
            base = inherited[key]
            if p.before is not None:
                raise TypeError(f"{name}.{key}: before= is for new parameters.")
            merged = Param(
                base.default if p.default is _MISSING else p.default,
                base.constraint if p.constraint is None else p.constraint,
                base.kw_only if p.kw_only is None else p.kw_only,
                None,
                base.annotation if annotation is _MISSING else annotation,
            )
            if base.kw_only != merged.kw_only:
                (demoted if merged.kw_only else new_pos).append(key)
            resolved[key] = merged
            continue
        if p.default is _MISSING or p.constraint is None:
            raise TypeError(
                f"{name}.{key}: a new parameter needs a default and a constraint: "
                "param(default, constraint)."
            )
        if annotation is _MISSING:
            raise TypeError(f"{name}.{key}: annotate the parameter (name: type = ...).")
        resolved[key] = replace(
            p, kw_only=p.kw_only is not False, annotation=annotation, before=None
        )
        if p.before is not None:
            if p.before not in inherited:
                raise TypeError(
                    f"{name}.{key}: before={p.before!r} names no inherited parameter."
                )
            anchored.append((key, p.before))
        elif resolved[key].kw_only:
            new_kw.append(key)
        else:
            new_pos.append(key)
    moved = set(new_pos) | set(demoted)
    order = (
        new_pos
        + [k for k in inherited if not inherited[k].kw_only and k not in moved]
        + new_kw
        + demoted
        + [k for k in inherited if inherited[k].kw_only and k not in moved]
    )
    for key, anchor in anchored:
        order.insert(order.index(anchor), key)
    table = {k: resolved[k] for k in order}
    positional_after_kw = [
        k
        for i, k in enumerate(order)
        if not table[k].kw_only and any(table[j].kw_only for j in order[:i])
    ]
    if positional_after_kw:
        raise TypeError(
            f"{name}: {positional_after_kw} cannot be positional after keyword-only "
            "parameters; anchor them elsewhere or make them keyword-only."
        )
    cls._parameters = MappingProxyType(table)
    cls._parameter_constraints = {k: p.constraint for k, p in table.items()}
    cls.__init__ = _make_init(cls, table)
    for key in own:
        # Like dataclasses: the class attribute is the default value.
        setattr(cls, key, table[key].default)


def _inherited_parameters(cls: type) -> dict[str, Param]:
    """The declared parameters of the nearest base that has them."""
    for base in cls.__mro__[1:]:
        if "_parameters" in vars(base):
            return dict(base._parameters)
        if "__init__" in vars(base) and base is not object:
            raise TypeError(
                f"{cls.__qualname__} declares parameters but its base "
                f"{base.__qualname__} writes __init__ itself; declare the base's "
                "parameters with param() too."
            )
    return {}


def _make_init(cls: type, table: dict[str, Param]):
    """``__init__(self, <table>)`` storing each argument, with a true signature."""
    args: list[str] = []
    for key, p in table.items():
        if p.kw_only and "*" not in args:
            args.append("*")
        args.append(f"{key}=__defaults[{key!r}]")
    body = "".join(f"\n    self.{key} = {key}" for key in table) or "\n    pass"
    source = f"def __init__(self, {', '.join(args)}):{body}\n"
    namespace: dict[str, Any] = {}
    exec(source, {"__defaults": {k: p.default for k, p in table.items()}}, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__annotations__ = {k: p.annotation for k, p in table.items()}
    init.__annotations__["return"] = "None"
    init.__doc__ = f"Store the hyperparameters of {cls.__name__} (see the class)."
    init._augnb_generated = True
    return init
