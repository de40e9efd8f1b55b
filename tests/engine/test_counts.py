"""The store of exact counts: what it reads back is what the enumerator counts, and a
file that is anything but whole and right is never used."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from analyzer.engine import counts as store
from analyzer.engine.counts import OutcomeCounts, counts_key, stored_counts
from analyzer.engine.enumerator import mixture_outcomes
from analyzer.game.cards import parse_cards
from analyzer.game.rules import STANDARD_MIXTURE, named_rules, parse_strategy
from analyzer.game.shoe import Shoe


@pytest.fixture()
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("BACCARAT_ODDS_CACHE", str(tmp_path / "store"))
    return tmp_path / "store"


class Counted:
    """The enumerator, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, shoe, detail, mixture) -> OutcomeCounts:
        self.calls += 1
        return mixture_outcomes(shoe, detail, mixture)


def same(a: OutcomeCounts, b: OutcomeCounts) -> bool:
    return (
        np.array_equal(a.counts, b.counts)
        and a.counts.dtype == b.counts.dtype
        and (a.denominator, a.scale, a.pair_detail, a.naturals)
        == (b.denominator, b.scale, b.pair_detail, b.naturals)
    )


SHOES = [
    Shoe.standard(8),
    Shoe.standard(1).remove(parse_cards("AS 7H 7D KC")),
    Shoe.infinite(),
]


@pytest.fixture()
def kernels_unloaded(monkeypatch):
    """As in a fresh process: the store is read only while Numba is not imported."""
    monkeypatch.setattr(store, "kernels_loaded", lambda: False)


@pytest.mark.parametrize("shoe", SHOES, ids=["8 decks", "depleted", "infinite"])
@pytest.mark.parametrize("detail", ["none", "rank", "suit"])
def test_counts_read_back_are_the_enumerators(folder, kernels_unloaded, shoe, detail) -> None:
    compute = Counted()
    first = stored_counts(shoe, detail, STANDARD_MIXTURE, compute)
    again = stored_counts(shoe, detail, STANDARD_MIXTURE, compute)
    direct = mixture_outcomes(shoe, detail, STANDARD_MIXTURE)
    assert same(first, direct) and same(again, direct) and again.shoe is shoe
    if shoe.decks is None:  # a depleted shoe is never kept: the store stays small
        assert compute.calls == 2 and not folder.exists()
        return
    assert compute.calls == 1 and len(list(folder.glob("counts-*.counts"))) == 1
    assert not again.counts.flags.writeable  # shared with no one, changed by no one


def test_with_the_kernels_loaded_counts_are_computed_and_kept_once(folder) -> None:
    assert store.kernels_loaded()  # (as in this process: the enumerator is imported)
    compute = Counted()
    for _ in range(3):
        got = stored_counts(Shoe.standard(3), "rank", STANDARD_MIXTURE, compute)
    assert compute.calls == 3 and len(list(folder.glob("counts-*.counts"))) == 1
    path = _file(folder)
    written = path.stat().st_mtime_ns
    stored_counts(Shoe.standard(3), "rank", STANDARD_MIXTURE, compute)
    assert path.stat().st_mtime_ns == written  # not written again
    assert same(got, mixture_outcomes(Shoe.standard(3), "rank", STANDARD_MIXTURE))


def test_a_mixed_strategy_is_stored_by_its_weights(folder, kernels_unloaded) -> None:
    shoe = Shoe.standard(6)
    one = named_rules("chemin-de-fer").mixture(
        parse_strategy("player:5 = 1/3, banker:3/9 = draw, banker:5/4 = stand")
    )
    other = named_rules("chemin-de-fer").mixture(
        parse_strategy("player:5 = 2/3, banker:3/9 = draw, banker:5/4 = stand")
    )
    assert counts_key(shoe, "none", one) != counts_key(shoe, "none", other)
    compute = Counted()
    for mixture in (one, other, one, other):
        got = stored_counts(shoe, "none", mixture, compute)
        assert same(got, mixture_outcomes(shoe, "none", mixture)) and got.scale == 3
    assert compute.calls == 2


def _file(folder):
    (path,) = folder.glob("counts-*.counts")
    return path


def _tampered(path, **changes) -> None:
    """Write the file again with its (cells, values) or meta changed."""
    head, _, body = path.read_bytes().partition(b"\n")
    meta = json.loads(head)
    n = meta["cells"]
    cells = np.frombuffer(body, dtype="<i8", count=n).copy()
    values = np.frombuffer(body, dtype="<i8", count=n, offset=8 * n).copy()
    if "counts" in changes:
        cells, values = changes["counts"](cells, values)
    meta |= changes.get("meta", {})
    path.write_bytes(json.dumps(meta).encode() + b"\n" + cells.tobytes() + values.tobytes())


def _pickled(path) -> None:
    with path.open("wb") as stream:
        np.save(stream, np.array([{"x": 1}], dtype=object))


def _bump(cells, values):
    values[3] += 1
    return cells, values


def _swap(cells, values):  # the same sum, other counts
    values[3] += 1
    values[4] -= 1
    return cells, values


@pytest.mark.parametrize(
    "damage",
    [
        lambda path: path.write_bytes(path.read_bytes()[:100]),  # truncated
        lambda path: path.write_bytes(b"not an archive"),
        lambda path: path.write_bytes(b""),
        lambda path: _tampered(path, counts=_bump),  # a sum that is not the denominator
        lambda path: _tampered(path, counts=_swap),  # the same sum: the digest tells
        lambda path: _tampered(path, counts=lambda c, v: (c, -v)),
        lambda path: _tampered(path, counts=lambda c, v: (c, v.astype(np.float64))),
        lambda path: _tampered(path, counts=lambda c, v: (c + 10**6, v)),  # past the cells
        lambda path: _tampered(path, counts=lambda c, v: (c[::-1].copy(), v)),
        lambda path: _tampered(path, counts=lambda c, v: (c[:-1], v)),
        lambda path: _tampered(path, counts=lambda c, v: (c[:0], v[:0])),
        lambda path: _tampered(path, meta={"key": "another shoe"}),
        lambda path: _tampered(path, meta={"denominator": "many"}),
        lambda path: _tampered(path, meta={"scale": "0"}),
        lambda path: _pickled(path),
    ],
    ids=[
        "truncated", "junk", "empty", "sum", "moved", "negative", "floats", "cells",
        "unsorted", "lengths", "none", "key", "denominator", "scale", "pickle",
    ],
)  # fmt: skip
def test_a_file_that_is_not_whole_and_right_is_computed_again(
    folder, kernels_unloaded, damage
) -> None:
    shoe = Shoe.standard(2)
    compute = Counted()
    stored_counts(shoe, "rank", STANDARD_MIXTURE, compute)
    damage(_file(folder))
    got = stored_counts(shoe, "rank", STANDARD_MIXTURE, compute)
    assert compute.calls == 2 and same(got, mixture_outcomes(shoe, "rank", STANDARD_MIXTURE))
    # ... and written over: the next process reads the right counts.
    assert same(stored_counts(shoe, "rank", STANDARD_MIXTURE, compute), got)
    assert compute.calls == 2


def test_counts_moved_within_their_sum_are_caught_by_the_key_not_the_sum(
    folder, kernels_unloaded
) -> None:
    # A file of another shoe's counts under this name: the key held in it tells them apart.
    shoe, other = Shoe.standard(2), Shoe.standard(3)
    compute = Counted()
    stored_counts(other, "none", STANDARD_MIXTURE, compute)
    path = _file(folder)
    name = store.hashlib.sha256(counts_key(shoe, "none", STANDARD_MIXTURE).encode()).hexdigest()
    path.rename(folder / f"counts-{name[:32]}{store._SUFFIX}")
    got = stored_counts(shoe, "none", STANDARD_MIXTURE, compute)
    assert compute.calls == 2 and same(got, mixture_outcomes(shoe, "none", STANDARD_MIXTURE))


def test_off_keeps_nothing_and_an_unwritable_store_is_skipped(tmp_path, monkeypatch) -> None:
    shoe = Shoe.standard(1)
    monkeypatch.setenv("BACCARAT_ODDS_CACHE", "off")
    compute = Counted()
    for _ in range(2):
        stored_counts(shoe, "none", STANDARD_MIXTURE, compute)
    assert compute.calls == 2 and store.store_folder() is None
    blocked = tmp_path / "a file"
    blocked.write_text("x", encoding="utf-8")
    monkeypatch.setenv("BACCARAT_ODDS_CACHE", str(blocked / "store"))  # under a file
    got = stored_counts(shoe, "none", STANDARD_MIXTURE, compute)
    assert same(got, mixture_outcomes(shoe, "none", STANDARD_MIXTURE))
    assert blocked.read_text(encoding="utf-8") == "x" and os.listdir(tmp_path) == ["a file"]


def test_the_store_is_found_where_the_environment_says(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("BACCARAT_ODDS_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert store.store_folder() == tmp_path / "baccarat-odds"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert store.store_folder() == tmp_path / "home" / ".cache" / "baccarat-odds"


@pytest.mark.slow
def test_two_processes_at_once_leave_one_whole_file(folder, kernels_unloaded) -> None:
    code = (
        "from analyzer.engine.counts import stored_counts\n"
        "from analyzer.engine.enumerator import mixture_outcomes\n"
        "from analyzer.game.rules import STANDARD_MIXTURE\n"
        "from analyzer.game.shoe import Shoe\n"
        "for _ in range(5):\n"
        "    stored_counts(Shoe.standard(4), 'suit', STANDARD_MIXTURE, mixture_outcomes)\n"
    )
    env = os.environ | {"BACCARAT_ODDS_CACHE": str(folder)}
    runs = [subprocess.Popen([sys.executable, "-c", code], env=env) for _ in range(2)]
    assert [run.wait() for run in runs] == [0, 0]
    assert [p.name for p in folder.iterdir() if p.name.startswith(".")] == []  # no leftovers
    compute = Counted()
    got = stored_counts(Shoe.standard(4), "suit", STANDARD_MIXTURE, compute)
    assert compute.calls == 0
    assert same(got, mixture_outcomes(Shoe.standard(4), "suit", STANDARD_MIXTURE))


def test_a_weight_is_kept_exactly_in_the_key() -> None:
    shoe = Shoe.standard(8)
    third = named_rules("chemin-de-fer").mixture(
        parse_strategy("player:5 = 1/3, banker:3/9 = draw, banker:5/4 = stand")
    )
    key = json.loads(counts_key(shoe, "none", third))
    assert sorted(Fraction(w) for w, _ in key["mixture"]) == [Fraction(1, 3), Fraction(2, 3)]
    assert key["ranks"] == [32] * 13 and key["replacement"] is False
