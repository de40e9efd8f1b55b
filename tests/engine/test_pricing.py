"""Which engine prices a bet: one plan, read by the exact analysis, the batch engine and
the effects of removal alike."""

from __future__ import annotations

import pytest

from analyzer import Shoe, analyze
from analyzer.engine.card_walk import walk_key
from analyzer.engine.pricing import pricing, table_detail
from analyzer.paytables.model import paytable_from_dict

MULTIPLIERS = {"cards": 1, "values": {"2": "1"}}


def _bet(when: str, multiply: str | None = None):
    bet = {"id": "b", "rule": [{"when": when, "pays": "multiplier" if multiply else "1:1"}]}
    data = {"name": "P", "bet": [bet | ({"multiply": multiply} if multiply else {})]}
    if multiply:
        data["multipliers"] = MULTIPLIERS
    return paytable_from_dict(data).bets[0]


@pytest.mark.parametrize(
    ("when", "multiply", "engine", "detail", "kind", "suits"),
    [
        ("winner == 'banker'", None, "values", "none", None, False),
        ("player_pair", None, "pairs", "rank", None, False),
        ("player_suited_pair or banker_pair", None, "pairs", "suit", None, True),
        ("player_pair and winner == 'player'", None, "round", "rank", None, False),
        ("player_card1_rank == 'A'", None, "cards", "none", None, False),
        ("player_card1_suit == 'H'", None, "cards", "none", None, True),
        ("winner == 'player'", "winner", "identities", "none", "winner", True),
        ("player_natural", "both", "identities", "none", "both", True),
        ("player_pair", "player_first_two", "identities", "suit", None, True),
    ],
)
def test_each_kind_of_bet_has_its_engine(when, multiply, engine, detail, kind, suits) -> None:
    bet = _bet(when, multiply)
    priced = pricing(bet)
    assert (priced.engine, priced.detail, priced.kind, priced.needs_suits) == (
        engine,
        detail,
        kind,
        suits,
    )
    assert priced.why_not is None and priced.unavailable(True) is None
    assert (priced.unavailable(False) is not None) == suits
    assert priced.walk == (walk_key(bet) if engine == "cards" else None)


@pytest.mark.parametrize(
    ("when", "multiply", "why"),
    [
        ("player_card1_rank == 'A'", "winner", "looks at the cards themselves"),
        ("player_pair and winner == 'player'", "winner", "asks about pairs"),
    ],
)
def test_what_no_engine_prices_says_why_and_the_analysis_reports_it(when, multiply, why):
    bet = _bet(when, multiply)
    assert why in pricing(bet).unavailable(True)
    paytable = paytable_from_dict(
        {
            "name": "P",
            "multipliers": MULTIPLIERS,
            "bet": [
                {"id": "b", "multiply": multiply, "rule": [{"when": when, "pays": "multiplier"}]},
                {"id": "tie", "rule": [{"when": "winner == 'tie'", "pays": "8:1"}]},
            ],
        }
    )
    analysis = analyze(paytable=paytable, shoe=Shoe.standard(1))
    assert [(bet_id, text) for bet_id, _, text in analysis.unavailable] == [
        ("b", pricing(bet).why_not)
    ]


def test_unknown_suits_say_what_is_needed() -> None:
    cases = [
        (_bet("winner == 'player'", "winner"), "pays by card identities"),
        (_bet("player_card1_suit == 'H'"), "needs suits or colours"),
        (_bet("banker_suited_pair"), "needs banker_suited_pair"),
    ]
    for bet, start in cases:
        assert pricing(bet).unavailable(False).startswith(start)
        assert "suits are not known" in pricing(bet).unavailable(False)


def test_one_table_at_the_most_detail_any_bet_on_it_needs() -> None:
    plans = [pricing(_bet("winner == 'banker'")), pricing(_bet("player_pair"))]
    assert table_detail(plans, True) == "rank"
    suited = [*plans, pricing(_bet("player_pair", "player_first_two"))]
    assert table_detail(suited, True) == "suit" and table_detail(suited, False) == "rank"
    # Card walks and identity walks keep their own detail; what is not priced adds none.
    others = [
        pricing(_bet("player_card1_suit == 'H'")),
        pricing(_bet("winner == 'player'", "winner")),
        pricing(_bet("player_pair and winner == 'player'", "winner")),
    ]
    assert table_detail(others, True) == "none"
