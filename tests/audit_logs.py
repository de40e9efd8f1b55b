"""Logs of dealt rounds for the audit's tests: real shoes shuffled and dealt by the dealer
(a seeded numpy Generator), each round played again from its cards as ``play`` plays it
and every bet settled as ``play`` settles it."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from analyzer.analysis.audit import LoggedRounds, card_text, payout_column
from analyzer.game.cards import card_index, parse_cards
from analyzer.game.fields import WINNERS, columns_of_round
from analyzer.game.rules import deal_round
from analyzer.paytables.model import Paytable
from analyzer.paytables.settle import Settlement
from analyzer.runs.dealer import (
    Drawing,
    Procedure,
    deal_shoe,
    first_round_start,
    round_identities,
    shuffled_shoe,
)

#: The bets whose payouts a test log carries, where the paytable has them.
LOGGED_BETS = ("player", "banker", "tie", "player_pair", "lucky_six")


def clean_rows(
    paytable: Paytable,
    rounds: int,
    *,
    decks: int | None = None,
    seed: int = 1,
    bets: Sequence[str] = LOGGED_BETS,
    burn: bool = True,
) -> list[dict[str, str]]:
    """At least ``rounds`` rounds (whole shoes) as rows of a log, every column filled."""
    decks = paytable.decks if decks is None else decks
    rng = np.random.default_rng(seed)
    procedure = Procedure(decks=decks)
    drawing = Drawing.of(paytable.rules, paytable.strategy)
    offered = [
        (bet, mode)
        for bet, mode in paytable.offered(paytable.modes)
        if bet.id in bets and not bet.multiplied
    ]
    rows: list[dict[str, str]] = []
    shoe = 0
    while len(rows) < rounds:
        shoe += 1
        cards = shuffled_shoe(rng, decks)
        dealt = deal_shoe(cards, procedure, drawing, rng)
        start = first_round_start(cards, procedure)
        for number, identities in enumerate(round_identities(cards, dealt)):
            in_order = parse_cards([card_text(c) for c in identities if c >= 0])
            played = deal_round(in_order, paytable.rules, _pure(paytable, identities))
            columns = columns_of_round(played)
            player = [(c.rank, c.suit) for c in played.player_cards]
            banker = [(c.rank, c.suit) for c in played.banker_cards]
            row = {
                "shoe": f"S{shoe}",
                "round": str(int(dealt["round"][number])),
                "player_cards": " ".join(map(str, played.player_cards)),
                "banker_cards": " ".join(map(str, played.banker_cards)),
                "burn": " ".join(card_text(c) for c in cards[:start]) if number == 0 else "",
                "winner": played.winner,
                "player_score": str(played.player_score),
                "banker_score": str(played.banker_score),
            }
            if not burn:
                del row["burn"]
            for bet, mode in offered:
                if bet.max_round is not None and number + 1 > bet.max_round:
                    net = ""
                else:
                    value, _ = Settlement(bet).dealt_result(columns, player, banker, {})
                    net = repr(float(value))
                row[payout_column(bet.id, mode, paytable)] = net
            rows.append(row)
    return rows


def _pure(paytable: Paytable, identities: np.ndarray):
    """The strategy that plays this round's hands as they were dealt: a mixed decision
    cell drawn where the dealer drew there, stood where it stood (``deal_round`` takes a
    pure strategy only)."""
    from analyzer.game.rules import PLAYER_STOOD, Cell, hand_score, strategy_of

    strategy = paytable.strategy
    mixed = {c: p for c, p in strategy.probability.items() if 0 < p < 1}
    if not mixed:
        return strategy
    cards = parse_cards([card_text(c) for c in identities[:4]])
    player2, banker2 = hand_score(cards[0:3:2]), hand_score(cards[1:4:2])
    player_drew, banker_drew = identities[4] >= 0, identities[5] >= 0
    column = PLAYER_STOOD
    if player_drew:
        column = parse_cards([card_text(identities[4])])[0].value
    choices = dict(strategy.probability)
    for cell in mixed:
        if cell == Cell("player", player2):
            choices[cell] = int(player_drew)
        elif cell == Cell("banker", banker2, column):
            choices[cell] = int(banker_drew)
        else:
            choices[cell] = 0
    from fractions import Fraction

    return strategy_of({cell: Fraction(p) for cell, p in choices.items()})


def write_csv(path: Path, rows: Iterable[dict[str, str]], header: Sequence[str] | None = None):
    rows = list(rows)
    header = list(rows[0]) if header is None else list(header)
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, header, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return path


def write_parquet(path: Path, rows: Sequence[dict[str, str]]) -> Path:
    """The rows as Parquet, typed as a log would be: whole numbers, floats and text."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns: dict[str, list] = {name: [row[name] for row in rows] for name in rows[0]}
    typed = {}
    for name, values in columns.items():
        if name in ("round", "player_score", "banker_score"):
            typed[name] = pa.array([int(v) for v in values], pa.int64())
        elif name.startswith("pay:"):
            typed[name] = pa.array([float(v) if v else None for v in values], pa.float64())
        else:
            typed[name] = pa.array(values, pa.string())
    pq.write_table(pa.table(typed), path, row_group_size=997)
    return path


def logged_rounds(
    paytable: Paytable, rows: Sequence[dict[str, str]], first_row: int = 1
) -> LoggedRounds:
    """Rows of a log as the audit takes them (numbered from ``first_row``), read here
    without the log reader."""
    cards, burns = [], {}
    for i, row in enumerate(rows):
        player = [card_index(c.rank, c.suit) for c in parse_cards(row["player_cards"])]
        banker = [card_index(c.rank, c.suit) for c in parse_cards(row["banker_cards"])]
        third = [player[2] if len(player) > 2 else -1, banker[2] if len(banker) > 2 else -1]
        cards.append([player[0], banker[0], player[1], banker[1], *third])
        if row.get("burn"):
            burns[i] = tuple(card_index(c.rank, c.suit) for c in parse_cards(row["burn"]))

    def number(name: str) -> np.ndarray:
        return np.array([int(row[name]) if row.get(name) else -1 for row in rows])

    payouts = {}
    for name in rows[0]:
        if name.startswith("pay:"):
            bet, _, mode = name[4:].partition(":")
            values = [float(row[name]) if row[name] else np.nan for row in rows]
            payouts[(bet, mode or paytable.modes[0])] = np.array(values)
    return LoggedRounds(
        rows=np.arange(first_row, first_row + len(rows)),
        shoes=np.array([row["shoe"] for row in rows], dtype=object),
        rounds=number("round"),
        cards=np.array(cards, dtype=np.int64).reshape(-1, 6),
        player_score=number("player_score"),
        banker_score=number("banker_score"),
        winner=np.array(
            [WINNERS.index(row["winner"]) if row.get("winner") else -1 for row in rows]
        ),
        payouts=payouts,
        burns=burns,
    )


def dealt_shoes(
    paytable: Paytable,
    rounds: int,
    *,
    seed: int = 1,
    stack: float = 0.0,
    decks: int | None = None,
) -> Iterable[tuple[np.ndarray, np.ndarray, int]]:
    """Whole shoes dealt by the dealer until ``rounds`` rounds: (the shoe's cards, its
    rounds, where its first round starts). With ``stack``, each round is, with that
    probability, stacked for the Banker: while it is not a Banker win (20 tries at most)
    its six cards are swapped with six drawn from later in the shoe, and the shoe dealt
    again from there (a pure strategy only)."""
    decks = paytable.decks if decks is None else decks
    rng = np.random.default_rng(seed)
    procedure = Procedure(decks=decks)
    drawing = Drawing.of(paytable.rules, paytable.strategy)
    dealt_so_far = 0
    while dealt_so_far < rounds:
        cards = shuffled_shoe(rng, decks)
        dealt = deal_shoe(cards, procedure, drawing, rng)
        if stack:
            k = 0
            while k < len(dealt):
                if rng.random() < stack:
                    for _ in range(20):
                        if dealt[k]["banker_score"] > dealt[k]["player_score"]:
                            break
                        start = int(dealt[k]["start"])
                        later = rng.choice(np.arange(start + 6, len(cards)), 6, replace=False)
                        here = np.arange(start, start + 6)
                        cards[here], cards[later] = cards[later], cards[here].copy()
                        dealt = deal_shoe(cards, procedure, drawing, rng)
                k += 1
        dealt_so_far += len(dealt)
        yield cards, dealt, first_round_start(cards, procedure)


def dealt_log(
    paytable: Paytable,
    rounds: int,
    *,
    seed: int = 1,
    stack: float = 0.0,
    decks: int | None = None,
) -> list[LoggedRounds]:
    """A log of whole shoes (see :func:`dealt_shoes`) as the audit takes it, a block per
    shoe, read without the log reader: cards and burns, scores and winners; no payouts.
    Fast (the dealer's kernel deals), for the tests of the fit."""
    blocks, row = [], 1
    for number, (cards, dealt, start) in enumerate(
        dealt_shoes(paytable, rounds, seed=seed, stack=stack, decks=decks), 1
    ):
        n = len(dealt)
        player, banker = dealt["player_score"], dealt["banker_score"]
        winner = np.where(player > banker, 0, np.where(banker > player, 1, 2))
        blocks.append(
            LoggedRounds(
                rows=np.arange(row, row + n),
                shoes=np.full(n, f"S{number}", dtype=object),
                rounds=np.asarray(dealt["round"], dtype=np.int64),
                cards=round_identities(cards, dealt).astype(np.int64),
                player_score=np.asarray(player, dtype=np.int64),
                banker_score=np.asarray(banker, dtype=np.int64),
                winner=winner,
                burns={0: tuple(int(c) for c in cards[:start])},
            )
        )
        row += n
    return blocks


def dealt_rows(paytable: Paytable, rounds: int, **options) -> list[dict[str, str]]:
    """:func:`dealt_log` as rows of a CSV log (no payout columns)."""
    rows = []
    for block in dealt_log(paytable, rounds, **options):
        for i in range(len(block)):
            cards = block.cards[i]
            player = [cards[0], cards[2], *([cards[4]] if cards[4] >= 0 else [])]
            banker = [cards[1], cards[3], *([cards[5]] if cards[5] >= 0 else [])]
            burn = block.burns.get(i, ())
            rows.append(
                {
                    "shoe": str(block.shoes[i]),
                    "round": str(int(block.rounds[i])),
                    "player_cards": " ".join(card_text(int(c)) for c in player),
                    "banker_cards": " ".join(card_text(int(c)) for c in banker),
                    "burn": " ".join(card_text(int(c)) for c in burn),
                    "winner": WINNERS[int(block.winner[i])],
                    "player_score": str(int(block.player_score[i])),
                    "banker_score": str(int(block.banker_score[i])),
                }
            )
    return rows
