"""Exact outcome counts as data, and a store of them on disk.

:class:`OutcomeCounts` is what the enumerator (:mod:`analyzer.engine.enumerator`) hands
out. Those counts depend only on the shoe, the pair detail and the tableaus the hands
draw by, so :func:`stored_counts` keeps those of full shoes in files and reads them back
in a later process: a command that finds its counts there starts without importing Numba or
compiling anything (``report --bet tie`` in a fraction of a second).

The store is a cache, never a source of truth: a file is used only when its key (the
shoe's counts, the detail, the tableaus and their weights, and a digest of the kernels'
source) is the one asked for, character for character, and its counts have the shape,
type and sum the key implies and the digest written with them; anything else is
computed again and written over. A file is written whole or not at all (a temporary
file moved into place), so two processes at once leave one valid file; a store that
cannot be written (read-only, full) is skipped without a word: the counts are in hand
either way. The store's folder is ``$BACCARAT_ODDS_CACHE`` (``off``: no store), else
``$XDG_CACHE_HOME/baccarat-odds``, else ``~/.cache/baccarat-odds``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np

from analyzer.files import shipped_folder, user_cache_folder
from analyzer.game.fields import N_PAIR_STATES, PairDetail
from analyzer.game.rules import STANDARD, Mixture
from analyzer.game.shoe import Shoe
from analyzer.records import record

#: The files' layout; a change makes every older file a stranger, computed again.
#: (3: a line of JSON, then the cells and counts as raw little-endian int64, read
#: without ``np.load``: an ``.npz`` archive cost a start the zipfile module and its
#: compressors, some 5 ms.)
STORE_FORMAT = 3
#: The files' suffix.
_SUFFIX = ".counts"
#: The kernels' sources: a change to any of them changes every key.
KERNEL_SOURCES = ("enumerator.py", "draw.py", "mixture.py", "counts.py")
#: The cells of a count by pair state: player score, banker score, and each third card
#: (0-9, or none).
CELL_SHAPE = (10, 10, 11, 11)


@record(eq=False)
class OutcomeCounts:
    """Exact counts of every round outcome of one shoe.

    ``counts[s, player_score, banker_score, player_third, banker_third]`` with pair state
    ``s = 3 * player_state + banker_state`` (a single state when ``pair_detail`` is
    ``"none"``). Every count is a number of ordered six-card sequences (under a mixed
    strategy, weighted: see :mod:`analyzer.engine.mixture`); they sum to ``denominator``.
    ``naturals`` are the rules' natural totals.
    """

    counts: np.ndarray
    pair_detail: PairDetail
    denominator: int
    shoe: Shoe
    naturals: tuple[int, ...] = STANDARD.naturals
    #: Under a mixed strategy, what the counts are multiplied by: the common denominator
    #: of the mixture's weights (1 for a pure strategy). ``counts / scale`` are expected
    #: numbers of sequences, over ``denominator / scale``.
    scale: int = 1


def store_folder() -> Path | None:
    """Where counts are kept (see the module's text); None: nowhere."""
    environ = os.environ
    return _store_folder(
        environ.get("BACCARAT_ODDS_CACHE"), environ.get("XDG_CACHE_HOME"), environ.get("HOME")
    )


@cache  # (read per analysis: the environment it is made of is the key)
def _store_folder(chosen: str | None, xdg: str | None, home: str | None) -> Path | None:
    # (xdg and home are the cache's key: user_cache_folder reads them)
    if chosen is not None and chosen.strip().lower() in ("", "off"):
        return None
    return user_cache_folder(chosen)


@cache
def _kernels_digest() -> str:
    digest = hashlib.sha256()
    # (the package's folder on disk: importlib.resources' machinery costs a start ms)
    folder = shipped_folder("analyzer.engine")
    for name in KERNEL_SOURCES:
        digest.update((folder / name).read_bytes())
    return digest.hexdigest()


def counts_key(shoe: Shoe, pair_detail: PairDetail, mixture: Mixture) -> str:
    """Everything the counts of ``shoe`` at ``pair_detail`` under ``mixture`` depend on,
    as text (a file's name is its digest; the file holds it whole, to be compared)."""
    suits = None if shoe.suit_counts is None else shoe.suit_counts.reshape(-1).tolist()
    return json.dumps(
        {
            "format": STORE_FORMAT,
            "kernels": _kernels_digest(),
            "detail": pair_detail,
            "replacement": bool(shoe.replacement),
            "ranks": shoe.rank_counts.tolist(),
            "suits": suits,
            "mixture": [[str(weight), tableau.identity.hex()] for weight, tableau in mixture],
        },
        sort_keys=True,
    )


def kernels_loaded() -> bool:
    """Is Numba imported (the enumerator's kernels a millisecond away)?"""
    return "numba" in sys.modules


def stored_counts(
    shoe: Shoe,
    pair_detail: PairDetail,
    mixture: Mixture,
    compute: Callable[[Shoe, PairDetail, Mixture], OutcomeCounts],
) -> OutcomeCounts:
    """``compute(shoe, pair_detail, mixture)``, read from the store where it holds them
    (checked), else computed and kept there for the next process. Only a shoe of full
    decks (or the infinite deck) is kept: the store stays small (a few files per rule
    set), however many depleted shoes an analysis walks.

    The store is read only while the kernels are not loaded (Numba not imported): once
    they are, counting again (under a millisecond for most shoes) is about as quick as
    reading and checking a file, so the counts are computed, and kept only where the
    store has none yet."""
    folder = store_folder()
    decks = shoe.decks
    if folder is None or decks is None:  # only full shoes: a bounded store
        return compute(shoe, pair_detail, mixture)
    # A full shoe is its decks (and suits known): its key, worked out once per process.
    named = (folder, decks, pair_detail, tuple((w, t.identity) for w, t in mixture))
    key, path = _named.get(named) or _name(named, counts_key(shoe, pair_detail, mixture))
    loaded = kernels_loaded()
    if not loaded:
        found = _read(path, key, pair_detail)
        if found is not None:
            counts, denominator, scale = found
            naturals = mixture[0][1].naturals
            return OutcomeCounts(counts, pair_detail, denominator, shoe, naturals, scale)
    outcomes = compute(shoe, pair_detail, mixture)
    # (Python integers of a huge mixture are not kept.)
    # (A file not read, or found wrong, is written over.)
    if outcomes.counts.dtype == np.int64 and (not loaded or path not in _kept):
        if not (loaded and path.exists()):
            _write(path, key, outcomes)
        # With the kernels loaded, this process need not look again (a file deleted
        # meanwhile is written by the next process that counts those counts).
        _kept.add(path)
    return outcomes


#: Each full shoe's key and file, by its name, and the files this process wrote or saw.
_named: dict[tuple, tuple[str, Path]] = {}
_kept: set[Path] = set()


def _name(named: tuple, key: str) -> tuple[str, Path]:
    folder = named[0]
    name = f"counts-{hashlib.sha256(key.encode()).hexdigest()[:32]}{_SUFFIX}"
    _named[named] = key, folder / name
    return _named[named]


def _read(path: Path, key: str, pair_detail: PairDetail) -> tuple[np.ndarray, int, int] | None:
    """The counts, denominator and scale a file holds for ``key``; None where there is
    no such file, or it is anything but whole and right. A file holds the nonzero
    counts only (a seventh of the cells): a line of JSON (the key, denominator, scale,
    how many cells and the digest), then their flat cells, increasing, and their
    values, each as little-endian int64."""
    try:
        raw = path.read_bytes()
        head, _, body = raw.partition(b"\n")
        meta = json.loads(head)
    except (OSError, ValueError, RecursionError):  # absent, unreadable, not JSON: a miss
        return None
    if not isinstance(meta, dict) or meta.get("key") != key:
        return None
    try:
        denominator, scale, n = int(meta["denominator"]), int(meta["scale"]), int(meta["cells"])
    except (KeyError, TypeError, ValueError):
        return None
    if n < 1 or len(body) != 16 * n:  # (truncated, or more than it says)
        return None
    cells = np.frombuffer(body, dtype="<i8", count=n).astype(np.int64)
    values = np.frombuffer(body, dtype="<i8", count=n, offset=8 * n).astype(np.int64)
    shape = (1 if pair_detail == "none" else N_PAIR_STATES**2, *CELL_SHAPE)
    size = int(np.prod(shape))
    if cells[0] < 0 or cells[-1] >= size or (np.diff(cells) <= 0).any():
        return None
    # Positive counts summing to the denominator: int64 cannot overflow below 2**63.
    if denominator >= 2**63 or scale < 1 or (values <= 0).any():
        return None
    if int(values.sum(dtype=np.int64)) != denominator:
        return None
    if meta.get("digest") != _digest(cells, values):  # a count changed within the sum
        return None
    counts = np.zeros(size, dtype=np.int64)
    counts[cells] = values
    counts = counts.reshape(shape)
    counts.setflags(write=False)
    return counts, denominator, scale


def _digest(cells: np.ndarray, values: np.ndarray) -> str:
    """A sha256 of the cells and values as the file holds them (little-endian int64)."""
    digest = hashlib.sha256(np.ascontiguousarray(cells, dtype="<i8").tobytes())
    digest.update(np.ascontiguousarray(values, dtype="<i8").tobytes())
    return digest.hexdigest()


def _write(path: Path, key: str, outcomes: OutcomeCounts) -> None:
    flat = outcomes.counts.reshape(-1)
    cells = np.flatnonzero(flat).astype("<i8")
    values = flat[cells].astype("<i8")
    meta = {
        "key": key,
        "denominator": str(outcomes.denominator),
        "scale": str(outcomes.scale),
        "cells": len(cells),
        "digest": _digest(cells, values),
    }
    # (JSON escapes every newline in its strings: the first line is the whole of it)
    content = json.dumps(meta).encode() + b"\n" + cells.tobytes() + values.tobytes()
    temporary = path.with_name(f".{path.stem}-{os.getpid()}-{id(outcomes)}{_SUFFIX}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(content)
        os.replace(temporary, path)
    except OSError:  # read-only, full, gone: the counts are in hand all the same
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
