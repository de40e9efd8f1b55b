"""The outcome table: one row per distinct round outcome, with its exact count.

Built from the enumerator's counts, it carries every field a paytable condition may use
(see :data:`FIELDS`) and a ``ways`` column of ordered six-card sequences; the table's
``attrs["denominator"]`` is their total.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from analyzer.engine.enumerator import (
    N_PAIR_STATES,
    NO_THIRD,
    RANK_PAIR,
    SUITED_PAIR,
    OutcomeCounts,
    PairDetail,
)
from analyzer.game.cards import Card
from analyzer.game.rules import NATURAL_SCORES, Round

#: Fields of a round that bets may look at, with their type.
FIELDS: dict[str, type] = {
    "player_score": int,
    "banker_score": int,
    "player_cards": int,
    "banker_cards": int,
    "total_cards": int,
    "player_third": int,
    "banker_third": int,
    "winner": str,
    "natural": bool,
    "player_natural": bool,
    "banker_natural": bool,
    "player_pair": bool,
    "banker_pair": bool,
    "player_suited_pair": bool,
    "banker_suited_pair": bool,
}
#: The lowest and highest value of each integer field (third cards: -1 when none). Conditions
#: use these to prove that their arithmetic stays within 64-bit integers.
INT_FIELD_RANGES: dict[str, tuple[int, int]] = {
    "player_score": (0, 9),
    "banker_score": (0, 9),
    "player_cards": (2, 3),
    "banker_cards": (2, 3),
    "total_cards": (4, 6),
    "player_third": (-1, 9),
    "banker_third": (-1, 9),
}
WINNERS: tuple[str, ...] = ("player", "banker", "tie")
PAIR_FIELDS = ("player_pair", "banker_pair")
#: Sorts WINNERS alphabetically (searchsorted needs a sorted view).
_WINNER_ORDER = np.argsort(np.array(WINNERS))
SUITED_PAIR_FIELDS = ("player_suited_pair", "banker_suited_pair")


def pair_detail_needed(fields: set[str] | frozenset[str]) -> PairDetail:
    """The least pair detail that the enumerator must give for these fields."""
    if fields & set(SUITED_PAIR_FIELDS):
        return "suit"
    if fields & set(PAIR_FIELDS):
        return "rank"
    return "none"


def derived_columns(
    player_score: np.ndarray,
    banker_score: np.ndarray,
    player_third: np.ndarray,
    banker_third: np.ndarray,
) -> dict[str, np.ndarray]:
    """Columns every table has, from final scores and third cards (-1: none)."""
    player_cards = np.where(player_third >= 0, 3, 2)
    banker_cards = np.where(banker_third >= 0, 3, 2)
    # A hand holding two cards and 8 or 9 can only be a natural: the Player draws on 0-5
    # and stands on 6-7, and two-card 8 or 9 stops both hands.
    naturals = list(NATURAL_SCORES)
    player_natural = (player_cards == 2) & np.isin(player_score, naturals)
    banker_natural = (banker_cards == 2) & np.isin(banker_score, naturals)
    winner = np.where(
        player_score > banker_score,
        "player",
        np.where(banker_score > player_score, "banker", "tie"),
    )
    return {
        "player_score": player_score,
        "banker_score": banker_score,
        "player_cards": player_cards,
        "banker_cards": banker_cards,
        "total_cards": player_cards + banker_cards,
        "player_third": player_third,
        "banker_third": banker_third,
        "winner": winner,
        "natural": player_natural | banker_natural,
        "player_natural": player_natural,
        "banker_natural": banker_natural,
    }


def outcome_table(outcomes: OutcomeCounts) -> pd.DataFrame:
    """One row per nonzero outcome cell, with every available field and ``ways``."""
    state, ps, bs, pt, bt = np.nonzero(outcomes.counts)
    ways = outcomes.counts[state, ps, bs, pt, bt]
    columns = derived_columns(
        ps.astype(np.int64),
        bs.astype(np.int64),
        np.where(pt == NO_THIRD, -1, pt).astype(np.int64),
        np.where(bt == NO_THIRD, -1, bt).astype(np.int64),
    )
    player_state, banker_state = np.divmod(state, N_PAIR_STATES)
    if outcomes.pair_detail != "none":
        columns["player_pair"] = player_state >= RANK_PAIR
        columns["banker_pair"] = banker_state >= RANK_PAIR
    if outcomes.pair_detail == "suit":
        columns["player_suited_pair"] = player_state == SUITED_PAIR
        columns["banker_suited_pair"] = banker_state == SUITED_PAIR
    winner_codes = np.searchsorted(np.array(WINNERS), columns["winner"], sorter=_WINNER_ORDER)
    columns["winner"] = pd.Categorical.from_codes(_WINNER_ORDER[winner_codes], list(WINNERS))
    table = pd.DataFrame(columns)
    table["ways"] = ways.astype(np.int64)
    table.attrs["denominator"] = outcomes.denominator
    table.attrs["pair_detail"] = outcomes.pair_detail
    return table


def round_table(dealt: Round) -> pd.DataFrame:
    """A one-row outcome table for a concrete round (``ways`` = 1), as ``play`` settles it."""

    def third(cards: Sequence[Card]) -> int:
        return cards[2].value if len(cards) > 2 else -1

    columns = derived_columns(
        np.array([dealt.player_score]),
        np.array([dealt.banker_score]),
        np.array([third(dealt.player_cards)]),
        np.array([third(dealt.banker_cards)]),
    )
    for hand, cards in (("player", dealt.player_cards), ("banker", dealt.banker_cards)):
        first, second = cards[0], cards[1]
        columns[f"{hand}_pair"] = np.array([first.rank == second.rank])
        columns[f"{hand}_suited_pair"] = np.array([first == second])
    table = pd.DataFrame(columns)
    table["ways"] = np.ones(1, dtype=np.int64)
    table.attrs["denominator"] = 1
    table.attrs["pair_detail"] = "suit"
    return table
