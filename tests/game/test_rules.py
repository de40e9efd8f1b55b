"""Scores and the third-card tables; the worked examples of seed 004."""

from __future__ import annotations

import naive
import pytest

from analyzer import AnalyzerError, deal_round, parse_cards
from analyzer.game.rules import PLAYER_DRAWS, PLAYER_STOOD, THIRD_CARD, hand_score


@pytest.mark.parametrize(
    ("cards", "score"),
    # Seed 004's table: 7 + 8 = 15 -> 5; King + Ace -> 1; 6 + 7 + 9 = 22 -> 2.
    # GAME.md: 8 + 9 = 17 -> 7.
    [("7S 8H", 5), ("KS AH", 1), ("6S 7H 9D", 2), ("8S 9H", 7)],
)
def test_hand_scores_of_the_seeds(cards, score) -> None:
    assert hand_score(parse_cards(cards)) == score


def test_the_third_card_table_agrees_with_the_rules_text() -> None:
    for player2 in range(10):
        for banker2 in range(10):
            natural = player2 >= 8 or banker2 >= 8
            rule = THIRD_CARD[player2, banker2]
            where = (player2, banker2)
            assert rule[PLAYER_DRAWS] == (not natural and naive.player_draws(player2)), where
            assert rule[PLAYER_STOOD] == (not natural and naive.banker_draws(banker2, None)), where
            for third in range(10):
                assert rule[third] == (not natural and naive.banker_draws(banker2, third)), where


def test_seed_004_worked_example() -> None:
    # Player 2 + 2 = 4 draws an 8 -> 2; Banker 3 looks at the card 8 and stands: 3 to 2.
    dealt = deal_round(parse_cards("2S 3H 2D KC 8H"))
    assert [str(c) for c in dealt.player_cards] == ["2S", "2D", "8H"]
    assert [str(c) for c in dealt.banker_cards] == ["3H", "KC"]
    assert (dealt.player_score, dealt.banker_score, dealt.winner) == (2, 3, "banker")
    assert "stands" in dealt.banker_reason


def test_natural_stops_both_hands() -> None:
    dealt = deal_round(parse_cards("8S 2H KD 3C"))
    assert dealt.natural and dealt.winner == "player"
    assert len(dealt.player_cards) == len(dealt.banker_cards) == 2


def test_player_stands_banker_draws() -> None:
    dealt = deal_round(parse_cards("6S 2H KD 3C 4H"))
    assert [len(dealt.player_cards), len(dealt.banker_cards)] == [2, 3]
    assert (dealt.player_score, dealt.banker_score) == (6, 9)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("2S 3H 2D", "too few cards"),
        ("2S 3H 2D KC", "needs 5"),
        ("2S 3H 2D KC 8H 9D", "too many cards"),
        ("8S 2H KD 3C 4H", "too many cards"),
    ],
)
def test_wrong_card_counts(cards, message) -> None:
    with pytest.raises(AnalyzerError, match=message):
        deal_round(parse_cards(cards))
