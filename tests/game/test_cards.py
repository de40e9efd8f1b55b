"""Cards: the notation (rank then suit), and what is refused."""

from __future__ import annotations

import pytest

from analyzer import AnalyzerError, parse_card, parse_cards
from analyzer.game.cards import (
    CARD_RANKS,
    CARD_SUITS,
    CARD_VALUES,
    N_CARDS,
    card_index,
    card_of_index,
)


@pytest.mark.parametrize(
    ("text", "rank", "suit", "shown"),
    [
        ("AS", 0, 0, "AS"),
        ("10H", 9, 1, "10H"),
        ("TD", 9, 2, "10D"),
        ("KC", 12, 3, "KC"),
        ("9d", 8, 2, "9D"),
        ("qh", 11, 1, "QH"),
    ],
)
def test_card_notation(text, rank, suit, shown) -> None:
    card = parse_card(text)
    assert (card.rank, card.suit, str(card)) == (rank, suit, shown)


@pytest.mark.parametrize("bad", ["XX", "1", "11H", "AX", "S", "", "10"])
def test_bad_cards_are_refused(bad) -> None:
    with pytest.raises(AnalyzerError, match=r"^(empty card|unknown card )"):
        parse_card(bad)


def test_bare_rank_when_suit_optional() -> None:
    assert parse_card("5", suit_required=False).suit is None


def test_the_card_encoding_is_one_index_per_card_of_a_deck() -> None:
    seen = set()
    for card in parse_cards("AS AH AD AC 2S 9C 10H JD QS KC"):
        index = card_index(card.rank, card.suit)
        seen.add(index)
        assert card_of_index(index) == (card.rank, card.suit)
        assert (CARD_RANKS[index], CARD_SUITS[index], CARD_VALUES[index]) == (
            card.rank,
            card.suit,
            card.value,
        )
    assert N_CARDS == 52 == len({card_index(r, s) for r in range(13) for s in range(4)})
    assert card_index(12, 3) == 51 and len(seen) == 10
