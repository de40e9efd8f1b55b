"""The plan: the least each card must show for a set of fields."""

from __future__ import annotations

from analyzer.engine.card_walk.planning import plan, walk_key
from analyzer.game.fields import FIELD


def test_plan_deals_each_card_at_the_least_detail() -> None:
    p = plan({"banker_card3_rank", "winner"})
    assert p.fine == (False, False, False, False, False, True) and p.outcome == ("winner",)
    assert p.needs[5] == {"rank": None} and not p.needs_suits
    p = plan({"player_card1_colour", "player_card2_value"})
    assert p.fine == (True, False, False, False, False, False) and p.needs_suits
    assert p.needs[2] == {"value": None}
    p = plan({"banker_card3_rank", "player_card1_rank"}, {"banker_card3_rank": frozenset("JQK")})
    assert p.needs[5] == {"rank": frozenset("JQK")} and p.needs[0] == {"rank": None}
    assert FIELD["max_card_value"].card_level and not FIELD["player_pair"].card_level


def test_plan_counts_suits_by_pattern_only_where_they_are_compared_with_each_other() -> None:
    suits = {"player_card1_suit", "banker_card1_suit"}
    assert plan(suits | {"winner"}, None, suits).suit_pattern == (0, 1)
    assert plan(suits | {"player_suited_pair"}, None, suits).suit_pattern == (0, 1, 2)
    assert not plan(suits).suit_pattern  # not said to be compared only with each other
    literal = {"player_card1_suit": frozenset("S")}
    assert not plan(suits, literal, {"banker_card1_suit"}).suit_pattern  # a suit named
    assert not plan(suits | {"banker_card2_colour"}, None, suits).suit_pattern  # a colour
    assert not plan(suits | {"first_four_flush"}, None, suits).suit_pattern  # the walk reads suits
    pattern = plan(suits | {"banker_card1_rank"}, None, suits)
    assert pattern.fine[:2] == (True, True) and pattern.needs_suits


def test_constants_tell_apart_only_themselves_unless_another_field_asks_all() -> None:
    """A text field compared only with constants needs just those; a field of the same
    card asked in full (a pair reads both cards' ranks) needs every value."""
    literals = {"player_card1_rank": frozenset("AK")}
    assert plan({"player_card1_rank"}, literals).needs[0] == {"rank": frozenset("AK")}
    both = plan({"player_card1_rank", "player_pair"}, literals)
    assert both.needs[0] == {"rank": None} and both.needs[2] == {"rank": None}


def test_the_walk_fields_are_planned_in_their_order_with_what_they_read() -> None:
    p = plan({"cards_pattern", "max_card_value", "first_four_flush"})
    assert p.walk == ("max_card_value", "first_four_flush", "cards_pattern")
    assert p.walk_needs[0] == {"rank", "suit"} and p.walk_needs[5] == {"rank"}
    assert p.fine == (True,) * 6 and p.needs_suits and not p.dealt_alone


def test_only_the_first_cards_asked_are_dealt_when_nothing_else_is_asked() -> None:
    assert plan({"banker_card2_rank", "player_card1_colour"}).dealt_alone == (0, 3)
    assert plan({"first_four_pattern"}).dealt_alone == (0, 1, 2, 3)
    assert plan({"banker_card2_rank", "winner"}).dealt_alone == ()  # the outcome
    assert plan({"banker_card2_rank", "player_card3_rank"}).dealt_alone == ()  # a third card
    assert plan({"cards_pattern"}).dealt_alone == ()  # a walk field of every card
    assert plan({"winner"}).dealt_alone == ()  # no card asked at all


class _Bet:
    def __init__(self, fields, literals=None, relational=frozenset()) -> None:
        self.fields = frozenset(fields)
        self.literals = dict(literals or {})
        self.relational = frozenset(relational)


def test_bets_asking_the_same_of_the_cards_share_a_walk_key() -> None:
    a = _Bet({"player_card1_rank", "winner"}, {"player_card1_rank": frozenset("A")})
    b = _Bet({"winner", "player_card1_rank"}, {"player_card1_rank": frozenset("A")})
    c = _Bet({"player_card1_rank", "winner"}, {"player_card1_rank": frozenset("K")})
    assert walk_key(a) == walk_key(b) != walk_key(c)
    assert walk_key(a) != walk_key(_Bet(a.fields, a.literals, {"player_card1_rank"}))
