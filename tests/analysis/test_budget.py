"""A command's exact work weighed before any of it: each card walk planned, the lot added up."""

from __future__ import annotations

import pytest

from analyzer import AnalyzerError, Shoe, analyze, parse_cards
from analyzer.analysis import budget
from analyzer.analysis.budget import FEWER_CARD_BETS, card_walks, check_analyses
from analyzer.engine.card_walk import MAX_VISITS as MAX_WALK_VISITS
from analyzer.engine.card_walk import CardWalk
from analyzer.paytables.model import paytable_from_dict

#: Bets that deal the first four cards by rank and suit (flush and straight) with one more
#: thing each: four distinct walks of 52^4 x 111 = 8.1e8 rounds, 3.2e9 in all.
FOUR_CARD_WALKS = [
    "winner == 'player'",
    "player_score == 9",
    "banker_score == 9",
    "total_cards == 6",
]


_FLUSH_OF_SPADES = "first_four_flush and first_four_straight and player_card1_suit == 'S'"


def _paytable(conditions: list[str]):
    bets = [
        {
            "id": f"b{i}",
            "name": f"B{i}",
            # (A suit asked beside the flush: every suit dealt, 52 kinds of each card.)
            "rule": [{"when": f"{_FLUSH_OF_SPADES} and {c}", "pays": 99}],
        }
        for i, c in enumerate(conditions)
    ]
    return paytable_from_dict({"name": "T", "modes": ["m"], "bet": bets})


def test_each_walk_is_planned_once_and_counted(monkeypatch) -> None:
    """Bets asking the same of the cards share one walk; the visits are the walk's own
    count: the first four cards of 52 kinds each, then 1 + 10 x (1 + 10) ways on."""
    paytable = _paytable([*FOUR_CARD_WALKS[:2], FOUR_CARD_WALKS[0]])
    walks = card_walks(paytable.bets, Shoe.standard(8))
    assert len(walks) == 2
    assert {walk.visits for walk in walks.values()} == {52**4 * (1 + 10 * (1 + 10))}


def test_walks_over_the_budget_in_all_are_refused_before_any_is_walked(monkeypatch) -> None:
    """Each of the four walks is within its own limit; together they are over the
    budget of a command, and nothing is walked before the refusal."""
    monkeypatch.setattr(budget, "MAX_VISITS", 3 * 52**4 * 111)  # three of the four walks
    walked = []
    monkeypatch.setattr(CardWalk, "table", lambda self: walked.append(self))
    paytable = _paytable(FOUR_CARD_WALKS)
    assert max(w.visits for w in card_walks(paytable.bets, Shoe.standard(8)).values()) <= (
        MAX_WALK_VISITS
    )
    with pytest.raises(AnalyzerError) as refused:
        analyze(paytable=paytable)
    assert "the exact analysis walks about 3.2e+09 rounds of cards in all" in str(refused.value)
    assert str(refused.value).endswith(FEWER_CARD_BETS)
    assert walked == []
    # Three walks once are within it; four analyses of one walk are over it too.
    check_analyses(paytable.bets[:3], Shoe.standard(8))
    with pytest.raises(AnalyzerError, match=r"^4 analyses walks about 3\.2e\+09 rounds"):
        check_analyses(paytable.bets[:1], Shoe.standard(8), 4, "4 analyses")


def test_the_real_budget_allows_every_shipped_analysis() -> None:
    """Every shipped paytable's effects of removal (the most walked: every card removed
    in turn where suits matter) is within the budget."""
    import analyzer
    from analyzer.analysis.eor import needs_suits
    from analyzer.paytables.library import punto_banco_names

    for name in punto_banco_names():  # (other games have no effects of removal yet)
        paytable = analyzer.load_paytable(name)
        by_card = any(needs_suits(bet) for bet in paytable.bets)
        check_analyses(paytable.bets, Shoe.standard(8), 1 + (52 if by_card else 13))


def _constant_bets(pairs: list[tuple[str, str]]):
    """One bet per (rank, suit): the Player's first card and the Banker's third."""
    bets = [
        {
            "id": f"b{i}",
            "name": f"B{i}",
            "rule": [
                {
                    "when": f"player_card1_rank == '{rank}' and player_card1_suit == '{suit}'"
                    f" and banker_card3_rank == '{rank}'",
                    "pays": 500,
                }
            ],
        }
        for i, (rank, suit) in enumerate(pairs)
    ]
    return paytable_from_dict({"name": "T", "modes": ["m"], "bet": bets})


def test_bets_on_the_same_cards_for_other_constants_share_one_walk(monkeypatch) -> None:
    """Forty bets naming other constants of the same cards: one walk telling them all
    apart (fewer rounds than forty walks), and every EV exactly as each walked alone."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    paytable = _constant_bets([(rank, suit) for rank in ranks for suit in "SHDC"])
    shoe = Shoe.standard(2).remove(parse_cards("AS AS KH 5D 9C 9C"))  # depleted
    walks = card_walks(paytable.bets, shoe)
    assert len(walks) == 40 and len({id(walk) for walk in walks.values()}) == 1
    alone = sum(CardWalk(shoe, bet.fields, bet.literals).visits for bet in paytable.bets)
    assert budget.walked(walks) < alone
    together = analyze(paytable=paytable, shoe=shoe)
    monkeypatch.setattr(budget, "_share", lambda *args: None)
    apart = analyze(paytable=paytable, shoe=shoe)
    assert [r.expected_value for r in together.results] == [r.expected_value for r in apart.results]


def test_a_shared_walk_is_taken_only_where_it_walks_fewer_rounds() -> None:
    """Two bets naming one constant each, and forty: each set shares a walk exactly
    when the walk telling all their constants apart visits fewer rounds than theirs."""
    from analyzer.engine.card_walk import plan

    for pairs in ([("A", "S"), ("K", "H")], [(r, s) for r in "A23456789" for s in "SHDC"]):
        paytable = _constant_bets(pairs)
        shoe = Shoe.standard(8)
        walks = card_walks(paytable.bets, shoe)
        alone = sum(CardWalk(shoe, b.fields, b.literals).visits for b in paytable.bets)
        literals = {
            name: frozenset().union(*(b.literals[name] for b in paytable.bets))
            for name in paytable.bets[0].literals
        }
        merged = CardWalk(shoe, paytable.bets[0].fields, literals).visits
        assert plan(paytable.bets[0].fields, literals).fine[0]
        assert (len({id(walk) for walk in walks.values()}) == 1) == (merged < alone)
