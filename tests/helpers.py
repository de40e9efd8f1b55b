"""Helpers shared by the test modules (every folder imports them as ``helpers``)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from pathlib import Path

from analyzer.cli.main import main

#: The head of a one-mode paytable file; bets follow.
HEAD = 'name = "t"\ndecks = 8\nmodes = ["m"]\n'


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Run the CLI in-process: (exit status, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write_paytable(tmp_path: Path, text: str) -> Path:
    """A paytable file ``table.toml`` in ``tmp_path``."""
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def write_claims(tmp_path: Path, text: str) -> Path:
    """A claims file ``claims.toml`` in ``tmp_path``."""
    path = tmp_path / "claims.toml"
    path.write_text(text, encoding="utf-8")
    return path


def reference_ev(counts: Mapping, settle: Callable) -> Fraction:
    """The exact EV of a bet settled by ``settle`` (net per unit of an outcome key of
    tests/naive.py) over brute-force reference counts."""
    return sum(Fraction(w) * settle(key) for key, w in counts.items()) / sum(counts.values())


def check_odds_table(page, analysis) -> None:
    """The odds table of a help page (an ElementTree of it), against the exact analysis:
    one row per bet, marked for all modes where every mode has the same house edge and
    hit frequency, else one per mode; each cell's ``data-exact`` is the exact value and
    its text that value as a percentage to the printed digit."""
    from analyzer.reports.tables import ALL_MODES

    shown = {}
    for tr in page.find(".//table[@class='odds']/tbody"):
        cells = {td.get("data-field"): td for td in tr.findall("td[@data-field]")}
        shown[(tr.get("data-bet"), tr.get("data-mode"))] = cells
    expected = {}
    for bet in dict.fromkeys(r.bet.id for r in analysis.results):
        results = [r for r in analysis.results if r.bet.id == bet]
        same = (
            len(analysis.modes) > 1
            and len(results) == len(analysis.modes)
            and len({(r.house_edge, r.hit_frequency) for r in results}) == 1
        )
        if same:
            expected[(bet, ALL_MODES)] = results[0]
        else:
            expected |= {(bet, r.mode): r for r in results}
    assert list(shown) == list(expected)
    for key, result in expected.items():
        for field in ("house_edge", "rtp", "hit_frequency"):
            exact, cell = getattr(result, field), shown[key][field]
            assert Fraction(cell.get("data-exact")) == exact, (key, field)
            printed = cell.text.strip().rstrip("%")
            digits = len(printed.partition(".")[2])
            assert abs(100 * exact - Fraction(printed)) <= Fraction(1, 2 * 10**digits), key


@contextlib.contextmanager
def dask_cluster(folder: Path, workers: int = 2) -> Iterator[tuple[str, subprocess.Popen]]:
    """A Dask scheduler and ``workers`` worker processes on 127.0.0.1, in processes of
    their own: (the scheduler's address, its process). Both end with the block."""
    env = dict(os.environ, DASK_DISTRIBUTED__WORKER__DAEMON="False")
    scheduler_file = folder / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env}
    files = ("--scheduler-file", str(scheduler_file))
    common = ("--no-dashboard", "--host", "127.0.0.1")
    pool = ("--nworkers", str(workers), "--nthreads", "1")
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", *common, "--port", "0", *files],
        **quiet,
    )
    worker = None
    try:
        deadline = time.time() + 60
        while not scheduler_file.exists() and time.time() < deadline:
            time.sleep(0.1)
        worker = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", *common, *files, *pool],
            **quiet,
        )
        address = json.loads(scheduler_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        yield address, scheduler
    finally:
        for process in (worker, scheduler):
            if process is not None:
                process.terminate()
                process.wait(timeout=30)


def shoe_of_cards(cards: list[tuple[int, int]]):
    """A shoe of physical cards (rank 1..13, suit 0..3), as tests/naive.py deals them."""
    import numpy as np

    from analyzer import Shoe

    suits = np.zeros((13, 4), dtype=np.int64)
    for rank, suit in cards:
        suits[rank - 1, suit] += 1
    return Shoe(suits.sum(axis=1), suits)


#: A paytable of multiplied bets, a fee and a cap (the distribution of the issue that
#: asked for them, not any real game's): for tests of the commands.
MULTIPLIED_PAYTABLE = """
name = "Multiplied"
decks = 8
fee = "0.2"
[multipliers]
cards = { 1 = "0.3", 2 = "0.3", 3 = "0.2", 4 = "0.1", 5 = "0.1" }
values = { 2 = "0.5", 3 = "0.3", 4 = "0.1", 5 = "0.06", 8 = "0.04" }
cap = 512
[[bet]]
id = "player"
multiply = "winner"
rule = [{ when = "winner == 'player'", pays = "multiplier" },
        { when = "winner == 'tie'", pays = "push" }]
[[bet]]
id = "banker"
multiply = "winner"
rule = [{ when = "winner == 'banker'", pays = "multiplier - 0.05" },
        { when = "winner == 'tie'", pays = "push" }]
[[bet]]
id = "tie"
multiply = "both"
rule = [{ when = "winner == 'tie'", pays = "5 * multiplier" }]
[[bet]]
id = "player_pair"
multiply = "player_first_two"
rule = [{ when = "player_pair", pays = "9 * multiplier" }]
[[bet]]
id = "banker_pair"
rule = [{ when = "banker_pair", pays = "11:1" }]
"""


# -- Multiplied bets and fees, for the brute force of tests/naive_multipliers.py -------------

#: Identities of the tiny shoes (rank 1..13, suit), and a small virtual deck holding them.
POOL = [(1, 0), (1, 1), (10, 0), (13, 0), (5, 3), (9, 1)]
UNIVERSE = [*POOL, (2, 2)]
FEE = Fraction(1, 5)
#: (bet id, multiply, [(condition, pays, the same as a Python test, a, b)]).
MULTIPLIED_BETS = [
    (
        "player",
        "winner",
        [
            ("winner == 'player'", "multiplier", lambda r: r["winner"] == "player", 0, 1),
            ("winner == 'tie'", "push", lambda r: r["winner"] == "tie", 0, 0),
        ],
    ),
    (
        "banker",
        "winner",
        [("winner == 'banker'", "multiplier - 0.05", lambda r: r["winner"] == "banker", -0.05, 1)],
    ),
    ("tie", "both", [("winner == 'tie'", "5 * multiplier", lambda r: r["winner"] == "tie", 0, 5)]),
    (
        "player_natural",
        "player",
        [("player_natural", "2 * multiplier + 1", lambda r: r["player_natural"], 1, 2)],
    ),
    (
        "banker_three",
        "banker",
        [("banker_cards == 3", "multiplier", lambda r: r["banker_cards"] == 3, 0, 1)],
    ),
    (
        "player_pair",
        "player_first_two",
        [("player_pair", "9 * multiplier", lambda r: r["player_pair"], 0, 9)],
    ),
    (
        "banker_pair",
        "banker_first_two",
        [("banker_pair", "multiplier + 10", lambda r: r["banker_pair"], 10, 1)],
    ),
]


def multiplied_paytable(cards_distribution: dict, values: dict, cap):
    import dataclasses

    from analyzer.paytables.model import paytable_from_dict

    multipliers = {"cards": cards_distribution, "values": values}
    if cap is not None:
        multipliers["cap"] = cap
    data = {
        "name": "Multiplied",
        "fee": "0.2",
        "multipliers": multipliers,
        "bet": [
            {
                "id": bet_id,
                "multiply": kind,
                "rule": [{"when": when, "pays": pays} for when, pays, *_ in rules],
            }
            for bet_id, kind, rules in MULTIPLIED_BETS
        ],
    }
    paytable = paytable_from_dict(data)
    small = dataclasses.replace(paytable.multipliers, universe=len(UNIVERSE))
    bets = tuple(dataclasses.replace(bet, multipliers=small) for bet in paytable.bets)
    return dataclasses.replace(paytable, bets=bets, multipliers=small)
