"""``--strategy best``: each hand's decision cells played for its own bet's exact EV."""

from __future__ import annotations

from fractions import Fraction

import naive
import pytest

from analyzer import AnalyzerError, Shoe, analyze, load_paytable
from analyzer.analysis.strategy import best_strategy
from analyzer.game.rules import parse_strategy
from analyzer.paytables.model import paytable_from_dict


def _player_ev(table: dict, choices: dict, decks: int) -> Fraction:
    """The Player bet's EV (1:1, ties push) from tests/naive.py, by value counts."""
    points = [16 * decks] + [4 * decks] * 9
    reference = naive.mixed_value_reference(points, naive.RuleTable(table, choices))
    return sum((p * (k[0] > k[1]) - p * (k[0] < k[1]) for k, p in reference.items()), Fraction(0))


@pytest.mark.slow
def test_baccarat_gold_players_draw_on_5_against_the_reference() -> None:
    paytable = load_paytable("baccarat-gold")
    shoe = Shoe.standard(1)
    strategy, choices = best_strategy(paytable, shoe)
    assert str(strategy) == "player:5=draw"
    (choice,) = choices
    table = paytable.rules.table
    drawn, stood = (_player_ev(table, {"player:5": p}, 1) for p in (1, 0))
    assert choice.bet == "player" and choice.gain_of_drawing == drawn - stood > 0


def test_each_hand_plays_for_its_own_bet() -> None:
    """Chemin de fer: the Banker's two cells for the Banker bet, each the better of its
    two plays given the rest (checked by pricing the flip of every cell)."""
    paytable = load_paytable("chemin-de-fer")
    strategy, choices = best_strategy(paytable, Shoe.standard(2))
    assert [str(c.cell) for c in choices] == ["player:5", "banker:3/9", "banker:5/4"]
    chosen = strategy.probability

    def ev(bet: str, played: dict) -> Fraction:
        table = paytable.with_strategy(parse_strategy(_text(played)))
        return analyze(paytable=table, decks=2, bets=[bet]).result(bet).expected_value

    for c in choices:
        flipped = chosen | {c.cell: 1 - chosen[c.cell]}
        assert ev(c.bet, chosen) >= ev(c.bet, flipped), c.cell


def _text(choices: dict) -> str:
    return ",".join(f"{cell}={p}" for cell, p in choices.items())


def test_best_needs_a_decision_and_a_bet_to_play_it_for() -> None:
    with pytest.raises(AnalyzerError, match="no decision cell"):
        best_strategy(load_paytable("seed-game"))
    tie_only = paytable_from_dict(
        {
            "name": "t",
            "rules": "baccarat-gold",
            "bet": [{"id": "tie", "rule": [{"when": "winner == 'tie'", "pays": 8}]}],
        }
    )
    with pytest.raises(AnalyzerError, match="for the bet 'player', which the paytable does not"):
        best_strategy(tie_only)


def test_best_says_so_where_no_pure_play_is_best_for_both() -> None:
    """The Player's 5 against the Banker's 6 when the Player stood, the cells the
    two-person game mixes: each hand's best answer undoes the other's (checked below by
    pricing every pure pair: each is left by one hand)."""
    paytable = paytable_from_dict(
        {
            "name": "cycle",
            "rules": {"player_chooses": "5", "banker_chooses_when_player_stands": "6"},
            "bet": [
                {
                    "id": "player",
                    "rule": [
                        {"when": "winner == 'player'", "pays": 1},
                        {"when": "winner == 'tie'", "pays": "push"},
                    ],
                },
                {
                    "id": "banker",
                    "rule": [
                        {"when": "winner == 'banker'", "pays": "19:20"},
                        {"when": "winner == 'tie'", "pays": "push"},
                    ],
                },
            ],
        }
    )
    shoe = Shoe.standard(1)

    def ev(bet: str, player: str, banker: str) -> Fraction:
        played = paytable.with_strategy(
            parse_strategy(f"player:5={player},banker:6/stood={banker}")
        )
        return analyze(paytable=played, shoe=shoe, bets=[bet]).result(bet).expected_value

    plays = ("draw", "stand")
    for player in plays:
        for banker in plays:
            other_player = plays[1 - plays.index(player)]
            other_banker = plays[1 - plays.index(banker)]
            player_leaves = ev("player", other_player, banker) > ev("player", player, banker)
            banker_leaves = ev("banker", player, other_banker) > ev("banker", player, banker)
            assert player_leaves or banker_leaves, (player, banker)
    with pytest.raises(AnalyzerError, match="player:5, banker:6/stood keep changing"):
        best_strategy(paytable, shoe)
