"""Bets on the cards settled by the class walk (card_columns.py) against the same bets
settled on the card walk's table, bet by bet (bets.py), for every shipped paytable the
class walk prices: full, depleted, suitless and infinite shoes, and a mixed strategy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import Shoe, analyze, load_paytable, paytable_from_dict
from analyzer.analysis import exact
from analyzer.memo import Kept
from analyzer.paytables.library import punto_banco_names
from tests.analysis.test_columns import _same

#: Shipped paytables with bets on the cards, and those the class walk prices (Jackpot
#: Baccarat asks for the first four cards' flush and straight beside their ranks: the
#: card walk counts them).
CARD_PAYTABLES = [
    name
    for name in punto_banco_names()
    if any(bet.card_level and not bet.multiplied for bet in load_paytable(name).bets)
]
NOT_CLASSED = {"jackpot-baccarat"}
CLASSED = [name for name in CARD_PAYTABLES if name not in NOT_CLASSED]
#: The bets whose walks take seconds: left out of the quick check (pytest -m "not slow").
HEAVY = {"super-tie", "contrast-bonus"}
assert HEAVY.issubset(CLASSED)


def heavy_slow(names: list[str]) -> list:
    """The names as parameters, the heavy ones marked slow."""
    return [pytest.param(n, marks=pytest.mark.slow) if n in HEAVY else n for n in names]


@pytest.fixture(autouse=True)
def fresh_requests(monkeypatch):
    """Each analysis works its request out again (the class walk's or the card walk's)."""
    monkeypatch.setattr(exact, "_requests", Kept(exact._MOST_REQUESTS))


def _both(paytable, shoe, monkeypatch) -> tuple[list, list]:
    """The results by the class walk and by the card walk (the class walk turned off)."""
    request = exact._request(paytable, tuple(paytable.modes), None, shoe.suits_known, False)
    assert request.card_columns
    classed = analyze(paytable=paytable, shoe=shoe).results
    with monkeypatch.context() as patched:
        patched.setattr(
            exact, "_class_walks", lambda offered, cards, mixture: ([], [-1] * len(offered))
        )
        patched.setattr(exact, "_requests", Kept(exact._MOST_REQUESTS))
        walked = analyze(paytable=paytable, shoe=shoe).results
    return list(classed), list(walked)


def test_the_class_walk_prices_the_shipped_card_paytables_it_should() -> None:
    assert set(CARD_PAYTABLES) >= NOT_CLASSED
    assert len(CLASSED) >= 10
    for name in CARD_PAYTABLES:
        paytable = load_paytable(name)
        request = exact._request(paytable, tuple(paytable.modes), None, True, False)
        assert bool(request.card_columns) == (name in CLASSED), name


@pytest.mark.parametrize("name", heavy_slow(CLASSED))
@pytest.mark.parametrize("decks", [1, 8])
def test_every_shipped_card_bet_as_the_card_walk_prices_it(name, decks, monkeypatch) -> None:
    classed, walked = _both(load_paytable(name), Shoe.standard(decks), monkeypatch)
    _same(classed, walked)


def _cheap(name: str) -> bool:
    """Paytables whose card walk takes a fraction of a second (the others: Super Tie,
    Contrast Bonus, about a second a shoe)."""
    return name not in ("super-tie", "contrast-bonus", "lucky-match")


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([name for name in CLASSED if _cheap(name)]),
    st.lists(st.lists(st.integers(0, 2), min_size=4, max_size=4), min_size=13, max_size=13),
)
def test_depleted_shoes_exhausted_ranks_included(name, suit_counts) -> None:
    suits = np.array(suit_counts, dtype=np.int64)
    suits[0] += 2  # at least the six cards of a round
    shoe = Shoe(suits.sum(axis=1), suits)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(exact, "_requests", Kept(exact._MOST_REQUESTS))
        _same(*_both(load_paytable(name), shoe, monkeypatch))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["super-tie", "contrast-bonus"])
def test_colour_bets_on_an_uneven_shoe(name, monkeypatch) -> None:
    """Red cards short of black ones, and a value with none of one colour left."""
    counts = Shoe.standard(2).suit_counts.copy()
    counts[:, 1] = 0  # no hearts
    counts[8, 2] = 0  # no red nine
    counts[12, 0] = 5
    _same(*_both(load_paytable(name), Shoe(counts.sum(axis=1), counts), monkeypatch))


def test_bets_on_ranks_on_a_shoe_whose_suits_are_unknown(monkeypatch) -> None:
    """Monkey asks ranks only: priced by the class walk on counts by rank alone."""
    shoe = Shoe(Shoe.standard(6).rank_counts - np.arange(13))
    _same(*_both(load_paytable("monkey"), shoe, monkeypatch))


@pytest.mark.parametrize("name", heavy_slow(["super-tie", "monkey", "tie-max"]))
def test_the_infinite_deck(name, monkeypatch) -> None:
    _same(*_both(load_paytable(name), Shoe.infinite(), monkeypatch))


@pytest.mark.slow
def test_a_mixed_strategy_walks_each_tableau(monkeypatch) -> None:
    """Chemin de fer's Player draws on 5 with chance 9/11: two tableaus, their class
    walks summed over the mixed denominator, as the card walk sums its tables."""
    data = {
        "name": "mixed",
        "decks": 2,
        "modes": ["commission"],
        "rules": "chemin-de-fer",
        "strategy": {"player:5": "9/11", "banker:3/9": "draw", "banker:5/4": "stand"},
        "bet": [
            {
                "id": "red_third",
                "rule": [
                    {"when": "player_card3_colour == 'red' and winner == 'player'", "pays": "3:1"},
                    {"when": "banker_card3_rank in ('J', 'Q', 'K')", "pays": "2:1"},
                ],
            },
            {"id": "tie", "rule": [{"when": "winner == 'tie'", "pays": "8:1"}]},
        ],
    }
    paytable = paytable_from_dict(data)
    assert len(paytable.mixture) == 2
    _same(*_both(paytable, Shoe.standard(2), monkeypatch))


def test_trees_past_their_limits_leave_the_bets_to_the_card_walk(monkeypatch) -> None:
    """Classes that would make too many leaves (here: any leaf at all) are not sorted:
    the card walk prices those bets, the same figures."""
    from analyzer.engine.card_walk import classes

    paytable = load_paytable("monkey")
    shoe = Shoe.standard(2)
    classed = analyze(paytable=paytable, shoe=shoe).results
    monkeypatch.setattr(classes, "MAX_LEAVES", 0)
    monkeypatch.setattr(exact, "_requests", Kept(exact._MOST_REQUESTS))
    request = exact._request(paytable, tuple(paytable.modes), None, True, False)
    assert request.card_columns == [] and max(request.by_class) == -1
    _same(list(classed), list(analyze(paytable=paytable, shoe=shoe).results))


def test_on_the_infinite_deck_a_bet_on_ranks_counts_in_its_own_lowest_terms(
    monkeypatch,
) -> None:
    """Beside a bet on suits, a bet on ranks alone still counts 13^6 rounds of the
    infinite deck (not 52^6): its lines' ways as the card walk gives them."""
    rules = ("player_card1_rank == banker_card1_rank", "player_card1_suit == banker_card1_suit")
    bets = [
        {"id": f"b{i}", "rule": [{"when": when, "pays": "2:1"}]} for i, when in enumerate(rules)
    ]
    paytable = paytable_from_dict({"name": "T", "decks": 8, "modes": ["m"], "bet": bets})
    classed, walked = _both(paytable, Shoe.infinite(), monkeypatch)
    _same(classed, walked)
    assert [line.ways for line in classed[0].lines] == [line.ways for line in walked[0].lines]
    assert sum(line.ways for line in classed[0].lines) == 13**6
