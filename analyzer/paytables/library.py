"""The shipped library of paytables and published claims, and loading any paytable file.

The library ships inside the package (``analyzer/paytables/shipped/``) and is found by
:func:`analyzer.files.shipped_folder` (a path on disk, else :mod:`importlib.resources`),
so an editable install, a wheel, a ``--user`` install and a zipped package all find it.
A *name* (``seed-game``, ``ez-baccarat``) always means a shipped paytable; a *path*
(``my-game.toml``, ``./games/x``) always means a file, so a file in the current folder
can never stand in for a shipped paytable.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import replace
from functools import cache
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from analyzer.errors import AnalyzerError
from analyzer.files import file_stamp, parse_toml, read_input, shipped_folder
from analyzer.paytables.model import Paytable, paytable_from_parsed
from analyzer.schema import argument, described

if TYPE_CHECKING:  # (the annotation only: importing it costs a command's start)
    from importlib.resources.abc import Traversable

#: The game of the help pages (seed 000): 8 decks, both modes, nineteen bets.
SEED_GAME = "seed-game"

_SHIPPED = shipped_folder("analyzer.paytables", "shipped")


def _names(kind: str) -> list[str]:
    return sorted(
        entry.name.removesuffix(".toml")
        for entry in (_SHIPPED / kind).iterdir()
        if entry.name.endswith(".toml")
    )


def library_names() -> list[str]:
    """Names of the shipped paytables (``seed-game``, ``ez-baccarat``, ...)."""
    return _names("paytables")


def punto_banco_names() -> list[str]:
    """The shipped paytables of punto banco (Player and Banker), not of another game of
    the family (:mod:`analyzer.game.games`): those every engine deals."""
    return [name for name in library_names() if load_paytable(name).game is None]


def priced_names() -> list[str]:
    """The shipped paytables whose odds are numbers: all but those whose multipliers have
    unknowns (their odds wait for values of them; ``fit`` tells what the published
    figures allow)."""
    return [name for name in library_names() if not load_paytable(name).unknowns]


def claims_names() -> list[str]:
    """Names of the shipped claims files (``seed-game``, ``seed-game-ms``)."""
    return _names("claims")


def is_path(spec: str | Path) -> bool:
    """Does ``spec`` name a file (a ``.toml`` name or a path with a folder) rather than a
    shipped name?"""
    text = str(spec)
    return (
        isinstance(spec, Path)
        or text.endswith(".toml")
        or text in (".", "..")
        or "/" in text
        or "\\" in text
    )


def shipped_paytable(name: str) -> Traversable:
    """The shipped paytable ``name``; an unknown name is one clear error."""
    if name in library_names():
        return _SHIPPED / "paytables" / f"{name}.toml"
    raise AnalyzerError(
        f"unknown paytable {name!r}: give a .toml file or one of {', '.join(library_names())}"
    )


def shipped_claims(name: str) -> Traversable | None:
    """The shipped claims file ``name``, or None."""
    return _SHIPPED / "claims" / f"{name}.toml" if name in claims_names() else None


def _read(path: Path | Traversable, source: str, shipped: bool = False) -> Paytable:
    """A paytable file read once: parsed (a shipped one's data kept parsed), and its
    content's digest kept with it."""
    raw = read_input(path)
    paytable = paytable_from_parsed(parse_toml(raw, path, shipped), source)
    return replace(paytable, sha256=hashlib.sha256(raw).hexdigest())


@cache
def _load_shipped(name: str) -> Paytable:
    return _read(shipped_paytable(name), name, shipped=True)


@cache
def _load_file(path: Path, stamp: tuple[int, int, int]) -> Paytable:
    return _read(path, str(path))


def load_paytable(spec: str | Path) -> Paytable:
    """A shipped paytable by name, or a paytable file; nothing in it is executed.

    Messages name a shipped paytable by its short name, a file by its path. A file is
    parsed again when it changes (its identity and modification time are the cache key).
    """
    argument(spec, (str, PurePath), "paytable", " (a shipped name or a .toml file)")
    if not is_path(spec):
        return _load_shipped(str(spec))
    path = Path(spec)
    return _load_file(path, file_stamp(path))


def seed_paytable() -> Paytable:
    """The seed game: the help pages' 8-deck game, both modes, nineteen bets."""
    return load_paytable(SEED_GAME)


def as_paytable(spec: Paytable | str | os.PathLike[str]) -> Paytable:
    """The paytable ``spec`` stands for: a :class:`~analyzer.paytables.model.Paytable` as
    it is, a shipped paytable's name (``"ez-baccarat"``) or a paytable file's path.

    Every function of the API that takes a paytable from a user turns it into one here, so
    each accepts the same three forms and refuses anything else in the same words.

    Parameters
    ----------
    spec : Paytable or str or os.PathLike
        A paytable, a shipped name (see :func:`library_names`) or a ``.toml`` file's path.

    Returns
    -------
    Paytable
        ``spec`` itself when it is one, else the paytable loaded by :func:`load_paytable`.

    Raises
    ------
    AnalyzerError
        An unknown name, a file that cannot be read or is not a valid paytable, or a value
        of another type; always one line.

    Examples
    --------
    >>> from analyzer.paytables.library import as_paytable
    >>> table = as_paytable("ez-baccarat")
    >>> table.name, table.decks
    ('EZ Baccarat', 8)
    >>> as_paytable(table) is table
    True
    """
    if isinstance(spec, Paytable):
        return spec
    if isinstance(spec, os.PathLike) and not isinstance(spec, PurePath):
        path = os.fspath(spec)
        spec = Path(path) if isinstance(path, str) else spec
    if not isinstance(spec, (str, PurePath)):
        raise AnalyzerError(
            "paytable must be a Paytable, a shipped paytable's name or a .toml file's path,"
            f" got {described(spec)}"
        )
    return load_paytable(spec)
