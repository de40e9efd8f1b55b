"""Reading untrusted tables: what a key of a paytable, claims or shoe file must hold.

Every reader of a TOML file (and of the same mappings given through the API) says what it
expects through these few functions, so a wrong file is always one line naming the file,
the place in it and the key, in the same words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from analyzer.errors import AnalyzerError

_MISSING = object()
_KIND_NAMES = {str: "text", int: "a whole number", list: "a list", bool: "true or false"}
_PLURALS = {str: "text", int: "whole numbers", bool: "true or false values"}


def check_keys(data: Mapping[str, Any], known: Iterable[str], where: str) -> None:
    """Refuse a key that is not in ``known``, naming the ones allowed."""
    known = set(known)
    for key in data:
        if key not in known:
            raise AnalyzerError(f"{where}: unknown key {key!r} (keys: {', '.join(sorted(known))})")


def table(value: object, where: str, what: str = "it") -> Mapping[str, Any]:
    """``value`` if it is a table (a TOML table, a mapping)."""
    if not isinstance(value, Mapping):
        raise AnalyzerError(f"{where}: {what} must be a table")
    return value


def _is(value: object, kind: type) -> bool:
    # TOML's true/false are Python bools, which are ints: only a bool is a bool.
    return isinstance(value, kind) and (kind is bool or not isinstance(value, bool))


def require(data: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    """``data[key]``, which must be there and be a ``kind``."""
    if key not in data:
        raise AnalyzerError(f"{where}: missing {key!r}")
    value = data[key]
    if not _is(value, kind):
        raise AnalyzerError(f"{where}: {key!r} has the wrong type ({type(value).__name__})")
    return value


def optional(data: Mapping[str, Any], key: str, kind: type, where: str, default: Any = None) -> Any:
    """``data[key]`` if there (it must then be a ``kind``), else ``default``."""
    value = data.get(key, _MISSING)
    if value is _MISSING:
        return default
    if not _is(value, kind):
        raise AnalyzerError(f"{where}: {key!r} must be {_KIND_NAMES.get(kind, kind.__name__)}")
    return value


def whole_number(value: object, where: str, what: str, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high`` (not a float, not a bool)."""
    if not _is(value, int):
        raise AnalyzerError(f"{where}: {what} must be a whole number, got {value!r:.40}")
    if not low <= value <= high:
        raise AnalyzerError(f"{where}: {what} must be from {low:,} to {high:,}")
    return value


def list_of(value: object, kind: type, where: str, what: str) -> list[Any]:
    """``value`` if it is a list whose every item is a ``kind``."""
    if not isinstance(value, list) or not all(_is(item, kind) for item in value):
        raise AnalyzerError(
            f"{where}: {what} must be a list of {_PLURALS.get(kind, kind.__name__)}"
        )
    return value


#: Longest free text (a file's description, a claim's source) accepted.
MAX_NOTE = 2000


def optional_note(data: Mapping[str, Any], key: str, where: str) -> str:
    """Free text a file may carry for its readers (``description``, ``source``): text
    of at most :data:`MAX_NOTE` characters, or "" when absent."""
    value = optional(data, key, str, where, "")
    if len(value) > MAX_NOTE:
        raise AnalyzerError(f"{where}: {key!r} is longer than {MAX_NOTE:,} characters")
    return value
