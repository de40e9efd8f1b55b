"""Scores and the third-card tables; the worked examples of seed 004."""

from __future__ import annotations

from fractions import Fraction

import naive
import pytest

from analyzer import AnalyzerError, deal_round, parse_cards
from analyzer.game.rules import (
    PLAYER_DRAWS,
    PLAYER_STOOD,
    RULE_SET_NAMES,
    STANDARD,
    THIRD_CARD,
    hand_score,
    named_rules,
    parse_strategy,
    rules_from_table,
)


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


# -- Rule sets as data ----------------------------------------------------------------------


def test_the_standard_rule_set_is_the_standard_tableau() -> None:
    assert named_rules("standard").table == STANDARD.table
    assert (named_rules("standard").tableau().third_card == THIRD_CARD).all()
    assert rules_from_table({}).is_standard
    assert STANDARD.decision_cells == ()


@pytest.mark.parametrize("name", RULE_SET_NAMES)
def test_every_shipped_rule_set_reads_back_from_its_own_table(name: str) -> None:
    rules = named_rules(name)
    again = rules_from_table(rules.table)
    assert again.player == rules.player and again.banker == rules.banker
    assert rules.source  # each cites where it comes from


def test_the_named_rule_sets_say_what_their_sources_say() -> None:
    gold, chemin, bahamian = (
        named_rules(n) for n in ("baccarat-gold", "chemin-de-fer", "bahamian")
    )
    assert [str(c) for c in gold.decision_cells] == ["player:5"]
    # Wizard of Odds: after a Player draw, Banker 0-3 always draws, 4-5 on a 3-7, 6-7 never.
    assert gold.table["banker_draws"] == {
        "0": "0-9",
        "1": "0-9",
        "2": "0-9",
        "3": "0-9",
        "4": "3-7",
        "5": "3-7",
        "6": "",
        "7": "",
    }
    assert [str(c) for c in chemin.decision_cells] == ["player:5", "banker:3/9", "banker:5/4"]
    # Bahamian: each hand draws on 0-5 whatever the other's cards.
    for banker2 in range(8):
        assert set(bahamian.banker[banker2]) == {"draw" if banker2 <= 5 else "stand"}


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"banker_draws": {"0": "0-9"}}, "has no Banker total 1-7"),
        ({"player_draws": "0-10"}, "'0-10' is outside 0-9"),
        ({"player_draws": "0-4", "player_chooses": "4-5"}, "both draws and chooses on 4"),
        (
            {
                "banker_chooses": {"3": "8"},
                "banker_draws": dict(STANDARD.table["banker_draws"]) | {"3": "8"},
            },
            "both draws and chooses on 8",
        ),
        ({"player_draws": "0-5,9"}, "a natural"),
        ({"banker_draws": {"8": "1"}}, "is a natural"),
        ({"player_draws": "5-3"}, "runs backwards"),
        ({"player_draws": "0,,3"}, "an empty item"),
        ({"player_draws": 5}, "must be text"),
        ({"banker_draws": "0-9"}, "must be a table of Banker totals"),
        ({"banker_draws": {"x": "1"}}, "is not a Banker total"),
        ({"player_draws": "1,1"}, "lists a value twice"),
        ({"players_draw": "0-5"}, "unknown key 'players_draw'"),
        ({"player_draws": "0010"}, "'0010' is outside 0-9"),
        ({"banker_draws": {" 0": "0-9", "0": ""}}, "gives the Banker total 0 twice"),
        ({"name": "chemin-de-fer", "player_draws": "0-7"}, "is a shipped rule set's"),
    ],
)
def test_a_bad_rule_table_is_one_line_naming_it(table, message: str) -> None:
    with pytest.raises(AnalyzerError, match=message) as caught:
        rules_from_table(table)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("player:5=2", "outside"),
        ("player:5=3/2", "outside"),
        ("player:5=1/0", "division by zero"),
        ("player:5=maybe", "bad choice"),
        ("player:5", "needs '='"),
        ("banker:9=draw", "bad decision cell"),
        ("player:5=draw,player:5=stand", "played twice"),
        ("", "names no cell"),
        ("best,player:5=draw", "give --strategy best alone"),
    ],
)
def test_a_bad_strategy_is_one_line_naming_it(text: str, message: str) -> None:
    with pytest.raises(AnalyzerError, match=message):
        parse_strategy(text)


def test_a_strategy_plays_decision_cells_only_and_all_of_them() -> None:
    chemin = named_rules("chemin-de-fer")
    with pytest.raises(AnalyzerError, match="player:4 is not a decision cell"):
        chemin.played(parse_strategy("player:4=draw"))
    with pytest.raises(AnalyzerError, match="leave banker:3/9, banker:5/4 to the players"):
        chemin.played(parse_strategy("player:5=draw"))
    with pytest.raises(AnalyzerError, match="player:5 is not a decision cell"):
        STANDARD.played(parse_strategy("player:5=draw"))


def test_a_mixture_weighs_pure_tableaus_to_one() -> None:
    """One Player cell and two Banker cells mixed: 1 + 1 + 2 + 1 x 2 tableaus."""
    rules = rules_from_table(
        {
            "player_chooses": "5",
            "banker_chooses_when_player_stands": "6",
            "banker_chooses": {"5": "4"},
        }
    )
    strategy = parse_strategy("player:5=9/11,banker:6/stood=859/2288,banker:5/4=1/3")
    mixture = rules.mixture(strategy)
    assert len(mixture) == 6 and len({t.key for _, t in mixture}) == 6
    assert sum(w for w, _ in mixture) == 1
    # A pure strategy is one tableau of weight 1, and it is the table the strategy names.
    ((weight, tableau),) = rules.mixture(
        parse_strategy("player:5=stand,banker:6/stood=draw,banker:5/4=draw")
    )
    assert weight == 1
    assert not tableau.third_card[5, 0, PLAYER_DRAWS] and tableau.third_card[4, 0, PLAYER_DRAWS]
    assert tableau.third_card[6, 6, PLAYER_STOOD] and tableau.third_card[0, 5, 4]
    assert rules.played(strategy)[next(iter(rules.played(strategy)))] == Fraction(9, 11)


def test_a_decision_is_explained_by_the_strategy() -> None:
    chemin = named_rules("chemin-de-fer")
    strategy = parse_strategy("player:5=draw,banker:3/9=stand,banker:5/4=draw")
    dealt = deal_round(parse_cards("5S 3H KD KC 9H"), chemin, strategy)
    assert dealt.player_reason == "Player has 5 (a decision: the strategy draws): draws 9H"
    assert dealt.banker_reason == (
        "Banker has 3 and Player's third card is worth 9 (a decision: the strategy stands): stands"
    )
    with pytest.raises(AnalyzerError, match="mixes player:5"):
        deal_round(
            parse_cards("5S 3H KD KC 9H"),
            chemin,
            parse_strategy("player:5=1/2,banker:3/9=stand,banker:5/4=draw"),
        )


def test_leading_zeros_name_the_same_total_and_omitted_keys_yield_to_naturals() -> None:
    padded = rules_from_table({"banker_draws_when_player_stands": "0000-0005"})
    assert padded.is_standard
    # Totals a table makes naturals leave the standard values of the keys it omits.
    zero_natural = rules_from_table({"naturals": "0,8-9"})
    assert zero_natural.table["player_draws"] == "1-5"
    assert zero_natural.table["banker_draws_when_player_stands"] == "1-5"
    assert "0" not in zero_natural.table["banker_draws"]
