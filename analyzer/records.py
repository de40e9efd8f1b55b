"""Frozen dataclasses made at a fraction of their cost to make: :func:`record`.

``@dataclass(frozen=True)`` writes each class's methods (``__init__``, ``__repr__``,
``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``) as source text and compiles
each one on its own: some 0.3 ms a class on Python 3.11, and the fifty classes a
``report`` loads took a sixth of its start. :func:`record` makes the same class with one
compile (``__init__``, whose signature and speed matter); the other methods are shared
functions over the class's field names, doing what dataclasses' own do, in the same order,
with the same messages. :mod:`dataclasses` still makes the fields, so ``fields``,
``replace``, ``asdict`` and ``is_dataclass`` see a frozen dataclass.

Kept to what the package's classes use: no ``order``, ``kw_only``, ``slots`` or
``InitVar`` (those stay ``@dataclass(frozen=True, ...)``, as any class may).
"""

from __future__ import annotations

import dataclasses
import reprlib
import sys
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

__all__ = ["record"]

Class = TypeVar("Class", bound=type)

#: What dataclasses' frozen ``__init__`` calls to set a field (the instance's own
#: ``__setattr__`` refuses).
_SET = object.__setattr__


@dataclass_transform(frozen_default=True)
def record(
    cls: Class | None = None, /, *, eq: bool = True, repr: bool = True
) -> Class | Callable[[Class], Class]:
    """``@dataclass(frozen=True, eq=eq, repr=repr)``, the class made with one compile (see
    the module's text)."""

    def make(cls: Class) -> Class:
        return _record(cls, eq, repr)

    return make if cls is None else make(cls)


def _record(cls: Class, eq: bool, repr_: bool) -> Class:
    if any(hasattr(base, "__dataclass_fields__") for base in cls.__mro__[1:]):
        # (dataclasses check a subclass's frozenness against its bases': theirs then)
        return dataclasses.dataclass(cls, frozen=True, eq=eq, repr=repr_)
    own = dict(cls.__dict__)  # (what the class itself wrote, before anything is added)
    documented = bool(own.get("__doc__"))
    if not documented:  # (dataclasses would write one from a signature without __init__)
        cls.__doc__ = "-"
    # The fields, defaults and checks, and no method (nothing compiled).
    cls = dataclasses.dataclass(cls, init=False, repr=False, eq=False)
    # (so dataclasses, and a dataclass made from this one, see what @dataclass made)
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    params.init, params.repr, params.eq, params.frozen = True, repr_, eq, True
    fields = dataclasses.fields(cls)
    names = frozenset(field.name for field in fields)
    if "__init__" not in own:
        _method(cls, _init(cls, fields, hasattr(cls, "__post_init__")))
    if repr_ and "__repr__" not in own:
        _method(cls, _repr(tuple(field.name for field in fields if field.repr)))
    if eq:
        compared = tuple(field.name for field in fields if field.compare)
        if "__eq__" not in own:
            _method(cls, _eq(_values(compared)))
        # A __hash__ the class writes stays; one Python set to None for the class's own
        # __eq__ does not (as dataclasses decide it for eq and frozen).
        explicit = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
        if not explicit:
            hashed = tuple(
                field.name
                for field in fields
                if (field.compare if field.hash is None else field.hash)
            )
            _method(cls, _hash(_values(hashed)))
    for method in _frozen(cls, names):
        _method(cls, method)
    if not documented:  # as dataclasses write it: the class's signature
        import inspect  # (here: only a class without a docstring needs it)

        text = str(inspect.signature(cls)).replace(" -> None", "")
        cls.__doc__ = cls.__name__ + text
    return cls


def _method(cls: type, function: Callable) -> None:
    """Make ``function`` the class's method of its name (named as dataclasses name it)."""
    function.__qualname__ = f"{cls.__qualname__}.{function.__name__}"
    setattr(cls, function.__name__, function)


def _init(cls: type, fields: tuple[dataclasses.Field, ...], post_init: bool) -> Callable:
    """The frozen ``__init__`` dataclasses would write for ``fields``, compiled once."""
    parameters, lines = ["self"], []
    scope: dict[str, Any] = {"__set": _SET, "__factory": _HAS_FACTORY}
    for field in fields:
        name = field.name
        if field._field_type is not dataclasses._FIELD:  # type: ignore[attr-defined]
            raise TypeError(f"{cls.__name__}.{name}: an InitVar (use @dataclass)")
        if field.kw_only is True:
            raise TypeError(f"{cls.__name__}.{name}: keyword-only (use @dataclass)")
        value = name
        default = f"__default_{name}"
        if field.default_factory is not dataclasses.MISSING:
            scope[default] = field.default_factory
            if field.init:
                parameters.append(f"{name}=__factory")
                value = f"{default}() if {name} is __factory else {name}"
            else:
                value = f"{default}()"
        elif field.init and field.default is not dataclasses.MISSING:
            scope[default] = field.default
            parameters.append(f"{name}={default}")
        elif field.init:
            parameters.append(name)
        else:
            # (not given: read from the class's default, or set by __post_init__, as
            # dataclasses leave it)
            continue
        lines.append(f"  __set(self, {name!r}, {value})")
    if post_init:
        lines.append("  self.__post_init__()")
    source = (
        f"def __make({', '.join(scope)}):\n"
        f" def __init__({', '.join(parameters)}):\n"
        + ("\n".join(f" {line}" for line in lines) or "  pass")
        + "\n return __init__\n"
    )
    made: dict[str, Any] = {}
    # (in the module's globals, as dataclasses make it: what reads the annotations, such
    # as typing.get_type_hints and the documentation's build, resolves them there; the
    # source is made of the fields' names)
    exec(source, sys.modules[cls.__module__].__dict__, made)
    init = made["__make"](**scope)
    # (as dataclasses annotate it: the class's signature, and its docstring, show them)
    init.__annotations__ = {field.name: field.type for field in fields if field.init}
    init.__annotations__["return"] = None
    init.__module__ = cls.__module__
    return init


class _HasFactory:
    """A parameter's default where the field's default is made by a factory."""

    def __repr__(self) -> str:
        return "<factory>"  # (as in the signature dataclasses write)


_HAS_FACTORY = _HasFactory()


def _values(names: tuple[str, ...]) -> Callable[[Any], tuple]:
    """The tuple of an instance's ``names`` (as dataclasses' methods build it)."""
    if len(names) >= 2:
        return attrgetter(*names)  # (a tuple, when given two names or more)
    if names:
        one = attrgetter(names[0])
        return lambda instance: (one(instance),)
    return lambda instance: ()


def _repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    @reprlib.recursive_repr("...")
    def __repr__(self: Any) -> str:
        shown = ", ".join([f"{name}={getattr(self, name)!r}" for name in names])
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _eq(values: Callable[[Any], tuple]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _hash(values: Callable[[Any], tuple]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__


def _frozen(cls: type, names: frozenset[str]) -> tuple[Callable, Callable]:
    """``__setattr__`` and ``__delattr__`` refusing as a frozen dataclass's do."""

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__
