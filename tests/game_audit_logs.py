"""Logs of the rounds of the games of the family for the audit's tests: shoes shuffled and
dealt by the project's own dealers (:mod:`analyzer.runs.game_dealer`,
:mod:`analyzer.runs.drawn_dealer`), as ``simulate --log`` writes them (every bet played by
its exact strategy), or, for a game with a player's decision, each first deal played by
an action drawn at random (a table's players need not play the exact strategy)."""

from __future__ import annotations

import csv
import tempfile
from pathlib import Path

import numpy as np

from analyzer import load_paytable, simulate
from analyzer.analysis.audit import card_text, payout_column
from analyzer.game.cards import CARD_VALUES
from analyzer.paytables.model import Paytable
from analyzer.paytables.settle import Settlement, settling_rule
from analyzer.runs.dealer import Procedure
from analyzer.runs.drawn_dealer import deal_drawn_rounds, drawn_columns, slot_cards
from analyzer.runs.game_dealer import shuffled_game_shoes


def read_rows(path: Path) -> list[dict[str, str]]:
    """A CSV log's rows, each a dict of its cells."""
    return list(csv.DictReader(path.read_text(encoding="utf-8").splitlines()))


def simulated_rows(
    paytable: str, shoes: int, seed: int = 1, decks: int | None = None
) -> list[dict[str, str]]:
    """The rows of the log ``simulate`` writes of ``shoes`` shoes of ``paytable``."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rounds.csv"
        simulate(paytable=paytable, shoes=shoes, seed=seed, decks=decks, log=path)
        return read_rows(path)


def random_action_rows(paytable: Paytable | str, shoes: int, seed: int = 1) -> list[dict]:
    """Rows of ``shoes`` shoes of a game with a decision dealt by the drawn dealer, each
    first deal played by an action drawn at random, every bet settled on the round as
    played (the action's stake times its line, the fee paid)."""
    if isinstance(paytable, str):
        paytable = load_paytable(paytable)
    game = paytable.game
    rng = np.random.default_rng(seed)
    procedure = Procedure(decks=paytable.decks)
    cards, starts = shuffled_game_shoes(rng, shoes, procedure)
    action_of_deal = rng.integers(0, len(game.decision.actions), 10**game.cards)
    rounds, dealt = deal_drawn_rounds(
        CARD_VALUES[cards], starts, procedure, game, action_of_deal
    )  # fmt: skip
    shoe_of_round = np.repeat(np.arange(shoes), dealt)
    offered = list(paytable.offered(paytable.modes))
    wanted = frozenset().union(*(bet.fields for bet, _ in offered))  # (cards' fields too)
    slots = slot_cards(game, cards, rounds, shoe_of_round)
    columns = drawn_columns(game, rounds, slots, wanted)
    rows = []
    for i, row in enumerate(rounds):
        number, start, used, action = (int(v) for v in row[:4])
        shoe = int(shoe_of_round[i])
        taken = [int(c) for c in cards[shoe, start : start + used]]
        # The first deal to the hands in the game's dealing order, then the cards taken
        # after it in the order of the hands.
        held: list[list[int]] = [[], []]
        for card, (h, _) in zip(taken, game.positions, strict=False):
            held[h].append(card)
        extra = taken[game.cards :]
        for h in (0, 1):
            if row[7 + h]:
                held[h].append(extra.pop(0))
        out = {
            "shoe": f"T{shoe + 1}",
            "round": str(number),
            **{
                f"{hand.name}_cards": " ".join(card_text(c) for c in held[h])
                for h, hand in enumerate(game.hands)
            },
            "burn": " ".join(card_text(int(c)) for c in cards[shoe, : starts[shoe]])
            if number == 1
            else "",
            "winner": str(columns["winner"][i]),
            **{f"{hand.name}_score": str(int(row[5 + h])) for h, hand in enumerate(game.hands)},
            "action": game.decision.actions[action].name,
        }
        stake = game.decision.actions[action].stake
        one = {name: values[i : i + 1] for name, values in columns.items()}
        for bet, mode in offered:
            settlement = Settlement(bet)
            rule = int(settling_rule(bet, one, 1)[0])
            net = stake * settlement.constants[rule] - settlement.fee
            out[payout_column(bet.id, mode, paytable)] = repr(float(net))
        rows.append(out)
    return rows
