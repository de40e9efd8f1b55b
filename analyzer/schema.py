"""Reading untrusted input: what a key of a paytable, claims or shoe file must hold, and
what an argument of the Python API must be.

Every reader of a TOML file (and of the same mappings given through the API) says what it
expects through these few functions, so a wrong file is always one line naming the file,
the place in it and the key, in the same words. Public functions check the type of each
argument with :func:`argument` before using it, so a wrong one is an :class:`AnalyzerError`
naming the argument, never an ``AttributeError`` from deep inside.
"""

from __future__ import annotations

import math
import numbers
import re
import reprlib
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import PurePath
from typing import Any, TypeVar

from analyzer.errors import AnalyzerError
from analyzer.memo import Pattern

_MISSING = object()
_KIND_NAMES = {
    str: "text",
    int: "a whole number",
    list: "a list",
    bool: "true or false",
    type(None): "None",
    PurePath: "a path",
}
_PLURALS = {str: "text", int: "whole numbers", bool: "true or false values"}
_T = TypeVar("_T")
#: Values shown in a message are cut short: a few items, a few dozen characters.
_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxtuple, _SHORT.maxdict = 2, 4, 4, 4
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlong = 40, 40, 40


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


#: Digits are bounded (no number so long that reading it is work); a decimal may have 30
#: after the point, so that fit's bounds (15 significant digits, 0.0598793653662002) paste.
_EXACT_NUMBER = Pattern(r"[0-9]{1,15}(\.[0-9]{1,30}|/[0-9]{1,15})?")
_LONG_NUMBER = Pattern(r"[0-9]+(\.[0-9]+|/[0-9]+)?")


def exact_number(value: object, where: str, what: str) -> Fraction:
    """An exact non-negative number: a whole number, or text of a decimal or fraction
    (``"0.3"``, ``"1/3"``, ``"2.5"``); a TOML float is taken as the decimal it is written
    as (``0.3`` is 3/10). Booleans, infinities, NaN, huge or negative numbers are refused."""
    usage = 'a decimal or fraction such as "0.3" or "1/3"'
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise AnalyzerError(f"{where}: {what} must be {usage}, got {_SHORT.repr(value)}")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise AnalyzerError(f"{where}: {what} must be a finite number, got {value!r}")
        value = float.__repr__(value)  # numpy's float64 is a float: "0.25", not its repr
        if "e" in value:
            raise AnalyzerError(f"{where}: {what} {value} is out of range: write it as {usage}")
    text = str(value).strip()
    if text.startswith("-") and _EXACT_NUMBER.fullmatch(text[1:].strip()):
        raise AnalyzerError(f"{where}: {what} must not be negative, got {text[:40]!r}")
    if not _EXACT_NUMBER.fullmatch(text):
        if _LONG_NUMBER.fullmatch(text):  # a number all the same: say what is wrong with it
            raise AnalyzerError(
                f"{where}: {what} {_SHORT.repr(text)} has too many digits (at most 15 "
                "before the point and 30 after it, 15 on each side of a slash)"
            )
        raise AnalyzerError(f"{where}: {what} must be {usage}, got {_SHORT.repr(value)}")
    if re.search(r"/0+$", text):
        raise AnalyzerError(f"{where}: {what} {text!r}: division by zero")
    return Fraction(text)


def given_number(value: object, where: str, what: str) -> Fraction:
    """:func:`exact_number`, any exact number taken too (a Fraction, numpy's integers): a
    value given in Python."""
    if isinstance(value, numbers.Rational) and not isinstance(value, (bool, int)):
        value = str(Fraction(int(value.numerator), int(value.denominator)))
    return exact_number(value, where, what)


def given_unknowns(unknowns: object) -> dict[str, Fraction]:
    """A paytable's unknowns given in Python (``unknowns={"p": "1/4"}``), each exact."""
    if not isinstance(unknowns, Mapping):
        raise AnalyzerError('unknowns: give a mapping of names to values, e.g. {"p": "1/4"}')
    return {
        str(name): given_number(value, "unknowns", str(name)[:20])
        for name, value in unknowns.items()
    }


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


# -- Arguments of the Python API -----------------------------------------------------------


def described(value: object) -> str:
    """What a value is, in a few words, for a message: ``the class list`` (a class given
    where an instance was wanted), ``str 'x'``, ``int 3``."""
    if isinstance(value, type):
        return f"the class {value.__name__}"
    try:
        shown = " ".join(_SHORT.repr(value).split())
    except Exception:  # a repr that fails is no reason to fail: the type says enough
        return type(value).__name__
    return f"{type(value).__name__} {shown}"


def argument(value: object, kind: type[_T] | tuple[type, ...], what: str, hint: str = "") -> _T:
    """``value`` if it is a ``kind`` (never a bool where a number is asked for); else one
    line: ``{what} must be a {kind}{hint}, got ...``. ``hint`` says where to get one
    (``" (see load_paytable)"``)."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not any(_is(value, k) for k in kinds):
        names = " or ".join(_KIND_NAMES.get(k, _a(k.__name__)) for k in kinds)
        raise AnalyzerError(f"{what} must be {names}{hint}, got {described(value)}")
    return value  # type: ignore[return-value]


def sequence_of(
    value: object, kind: type[_T], what: str, items: str | None = None, hint: str = ""
) -> tuple[_T, ...]:
    """``value`` as a tuple if it is a list or tuple (any sequence but text) whose every
    item is a ``kind``; ``items`` names them in the message (``"bet ids"``)."""
    items = items or _PLURALS.get(kind, f"{kind.__name__} objects")
    if isinstance(value, (str, bytes, bytearray)) or not isinstance(value, Sequence):
        raise AnalyzerError(f"{what} must be a list of {items}{hint}, got {described(value)}")
    for number, item in enumerate(value):
        if not _is(item, kind):
            raise AnalyzerError(
                f"{what} must be a list of {items}{hint}: item {number} is {described(item)}"
            )
    return tuple(value)


def _a(name: str) -> str:
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def check_name(text: str, key: str, where: str, limit: int = 200) -> None:
    """A name printed in tables and headings: one line, not empty (nor only invisible
    characters), at most ``limit`` characters; else one line naming the problem."""
    # Format characters (Cf) show nothing; ASCII has none, so its text is looked at as is
    # (and unicodedata, a start's cost, is imported only for text that is not).
    shown = text
    if not text.isascii():
        import unicodedata

        shown = "".join(c for c in text if unicodedata.category(c) != "Cf")
    if not shown.strip():
        raise AnalyzerError(f"{where}: {key!r} is empty")
    if "\n" in text or "\t" in text or "\r" in text:
        raise AnalyzerError(f"{where}: {key!r} must be one line")
    if len(text) > limit:
        raise AnalyzerError(f"{where}: {key!r} is longer than {limit} characters")
