"""A record is the frozen dataclass ``@dataclass(frozen=True)`` makes of the same class:
each class below is made both ways, and every behaviour is compared between the twins."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from dataclasses import dataclass, field

import pytest

from analyzer.records import record


def twins(body: dict, eq: bool = True, repr: bool = True, doc: str | None = "A class."):
    """The class of ``body`` made by ``@record`` and by ``@dataclass(frozen=True)``."""
    made = []
    for decorate in (record(eq=eq, repr=repr), dataclass(frozen=True, eq=eq, repr=repr)):
        namespace = {"__module__": __name__, "__qualname__": "Thing", **body}
        if doc is not None:
            namespace["__doc__"] = doc
        made.append(decorate(type("Thing", (), namespace)))
    return made


PLAIN = {"__annotations__": {"a": "int", "b": "str"}}
DEFAULTS = {
    "__annotations__": {"a": "int", "b": "str", "c": "list[int]", "d": "int", "e": "str"},
    "b": "x",
    "c": field(default_factory=list),
    "d": field(default=7, init=False),
    "e": field(default="", compare=False, repr=False),
}


def _post_init(self) -> None:
    object.__setattr__(self, "total", self.a * 2)


POST_INIT = {
    "__annotations__": {"a": "int", "total": "int"},
    "total": field(init=False),
    "__post_init__": _post_init,
}


def _samples(cls):
    fields = [f for f in dataclasses.fields(cls) if f.init]
    if len(fields) == 1:
        return [cls(1), cls(1), cls(2)]
    if cls.__dataclass_fields__["b"].default is dataclasses.MISSING:
        return [cls(1, "x"), cls(1, "x"), cls(2, "y")]
    return [cls(1), cls(1, "x", [3], e="other"), cls(2, "y")]


def _outcome(function, *args):
    """What ``function(*args)`` returns, or the type and message of what it raises."""
    try:
        return function(*args)
    except Exception as exc:  # (a list field is unhashable either way)
        return type(exc), str(exc)


@pytest.mark.parametrize("body", [PLAIN, DEFAULTS, POST_INIT], ids=["plain", "defaults", "post"])
@pytest.mark.parametrize("eq", [True, False])
@pytest.mark.parametrize("shown", [True, False])
def test_a_record_behaves_as_the_frozen_dataclass(body, eq, shown) -> None:
    ours, theirs = twins(body, eq=eq, repr=shown)
    assert str(inspect.signature(ours)) == str(inspect.signature(theirs))
    assert ours.__doc__ == theirs.__doc__
    assert ours.__match_args__ == theirs.__match_args__
    names = [[f.name for f in dataclasses.fields(cls)] for cls in (ours, theirs)]
    assert names[0] == names[1]
    params = ("init", "repr", "eq", "order", "unsafe_hash", "frozen")
    assert [getattr(ours.__dataclass_params__, p) for p in params] == [
        getattr(theirs.__dataclass_params__, p) for p in params
    ]
    assert ours.__init__.__qualname__ == "Thing.__init__"
    # (made in the module's globals: its annotations resolve there, as the documentation
    # build and typing.get_type_hints read them)
    assert ours.__init__.__globals__ is theirs.__init__.__globals__
    a, b, c = _samples(ours)
    x, y, z = _samples(theirs)
    assert vars(a) == vars(x) and vars(b) == vars(y) and vars(c) == vars(z)
    if shown:
        assert repr(a) == repr(x) and repr(b) == repr(y)
    assert (a == b, a == c, a != b, a == a) == (x == y, x == z, x != y, x == x)
    assert (a == x) is False  # another class, as the twins are
    if eq:
        assert _outcome(hash, a) == _outcome(hash, x) and _outcome(hash, c) == _outcome(hash, z)
    else:
        assert hash(a) == object.__hash__(a)  # (identity, as without eq)
    for thing in (a, x):
        with pytest.raises(dataclasses.FrozenInstanceError) as assigned:
            thing.a = 5
        with pytest.raises(dataclasses.FrozenInstanceError) as deleted:
            del thing.a
        with pytest.raises(dataclasses.FrozenInstanceError):
            thing.other = 1  # (not a field: refused on the class itself, as dataclasses do)
    assert str(assigned.value) == "cannot assign to field 'a'"
    assert str(deleted.value) == "cannot delete field 'a'"
    assert vars(dataclasses.replace(a, a=9)) == vars(dataclasses.replace(x, a=9))
    assert dataclasses.asdict(a) == dataclasses.asdict(x)
    with pytest.raises(TypeError):
        ours()  # a required argument missing


@record
class Kept:
    """A record pickled (its class found by name)."""

    a: int
    b: list[int] = field(default_factory=list)


def test_a_record_pickles_and_copies() -> None:
    import copy

    thing = Kept(1, [2])
    for again in (pickle.loads(pickle.dumps(thing)), copy.copy(thing), copy.deepcopy(thing)):
        assert again == thing and vars(again) == vars(thing)


def test_defaults_are_made_for_each_instance_and_given_ones_kept() -> None:
    ours, _ = twins(DEFAULTS)
    one, two = ours(1), ours(1)
    assert one.c == [] and one.c is not two.c  # a fresh list from the factory each time
    given = [4]
    assert ours(1, c=given).c is given
    assert ours(1).d == 7 and "d" not in inspect.signature(ours).parameters


def test_a_class_without_a_docstring_gets_dataclasses_own() -> None:
    ours, theirs = twins(DEFAULTS, doc=None)
    assert ours.__doc__ == theirs.__doc__
    assert ours.__doc__.startswith("Thing(a: 'int', b: 'str' = 'x', c: 'list[int]' = <factory>")


def test_methods_the_class_writes_are_kept() -> None:
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 3

    def __repr__(self):
        return "mine"

    body = {**PLAIN, "__eq__": __eq__, "__hash__": __hash__, "__repr__": __repr__}
    ours, theirs = twins(body)
    for cls in (ours, theirs):
        thing = cls(1, "x")
        assert (thing == 5, hash(thing), repr(thing)) == (True, 3, "mine")


def test_an_eq_without_a_hash_gets_the_fields_hash() -> None:
    # (Python sets __hash__ to None beside a class's own __eq__: dataclasses replace it)
    def __eq__(self, other):
        return self is other

    ours, theirs = twins({**PLAIN, "__eq__": __eq__})
    assert hash(ours(1, "x")) == hash(theirs(1, "x")) == hash((1, "x"))


def test_a_subclass_of_a_dataclass_is_made_by_dataclasses() -> None:
    base, _ = twins(PLAIN)
    sub = record(type("Sub", (base,), {"__annotations__": {"c": "int"}, "c": 0}))
    assert str(inspect.signature(sub)) == "(a: 'int', b: 'str', c: 'int' = 0) -> None"
    assert sub(1, "x") == sub(1, "x", 0) != base(1, "x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        sub(1, "x").c = 2


def test_what_a_record_does_not_make_is_refused() -> None:
    body = {"__annotations__": {"a": "int"}, "a": field(kw_only=True)}
    with pytest.raises(TypeError, match="keyword-only"):
        record(type("Thing", (), {"__module__": __name__, **body}))
