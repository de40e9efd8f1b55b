"""Every public name has a docstring (the Python API's reference is made from them), and
every example in one runs.

Public: every name in ``analyzer.__all__``, and every public method and property a public
class defines (its own, not an inherited one); a constant's docstring is its ``#:``
comment where its module defines it.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import sys
from pathlib import Path

import pytest

import analyzer

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "docs" / "_ext"))


def _public_members(cls: type):
    for name, value in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(value, property):
            yield name, value.fget
        elif isinstance(value, (classmethod, staticmethod)):
            yield name, value.__func__
        elif inspect.isfunction(value) or hasattr(value, "func"):  # (cached_property)
            yield name, getattr(value, "func", value)


def _undocumented() -> list[str]:
    missing = []
    for name in analyzer.__all__:
        value = getattr(analyzer, name)
        if (inspect.isclass(value) or callable(value)) and not (
            inspect.getdoc(value) or ""
        ).strip():
            missing.append(name)
        if inspect.isclass(value):
            missing += [
                f"{name}.{member}"
                for member, function in _public_members(value)
                if not (getattr(function, "__doc__", None) or "").strip()
            ]
    return missing


def test_every_public_name_and_method_has_a_docstring() -> None:
    assert _undocumented() == []


def test_every_public_constant_has_a_comment() -> None:
    analyzer_api = importlib.import_module("analyzer_api")  # docs/_ext: the site's reader
    for kind, name, _ in analyzer_api.public_names():
        if kind == "data":
            assert "".join(analyzer_api.data_comment(name)).strip(), f"{name}: no #: comment"


def test_the_check_finds_a_missing_docstring(monkeypatch: pytest.MonkeyPatch) -> None:
    def undocumented_method(self):
        return None

    monkeypatch.setattr(analyzer.Shoe, "undocumented_method", undocumented_method, raising=False)
    assert _undocumented() == ["Shoe.undocumented_method"]


@pytest.mark.parametrize("name", analyzer.__all__)
def test_docstring_examples_run(name: str) -> None:
    value = getattr(analyzer, name)
    if not (inspect.isclass(value) or callable(value)):
        return
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(value, f"analyzer.{name}", globs={"analyzer": analyzer}):
        runner.run(test)
    assert runner.failures == 0
