"""The multiplier model: its moments against explicit draws, and bad models refused."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_multipliers import multiplier_distribution, multiplier_moments

from analyzer.errors import AnalyzerError
from analyzer.paytables.model import paytable_from_dict
from analyzer.paytables.multipliers import Multipliers, multipliers_from_table, parse_fee

F = Fraction

#: A small virtual deck of identities (rank 1..13, suit), so every draw can be listed.
UNIVERSE = [(1, 0), (1, 1), (10, 0), (13, 0), (5, 3), (9, 1), (2, 2)]


def small(model: Multipliers, universe=UNIVERSE) -> Multipliers:
    return dataclasses.replace(model, universe=len(universe))


distributions = st.fixed_dictionaries(
    {
        "cards": st.sampled_from(
            [{0: F(1, 4), 1: F(1, 2), 3: F(1, 4)}, {2: F(1)}, {1: F(1, 3), 2: F(2, 3)}]
        ),
        "values": st.sampled_from(
            [{F(2): F(1)}, {F(2): F(3, 4), F(5): F(1, 4)}, {F(1, 2): F(1, 2), F(3): F(1, 2)}]
        ),
        "cap": st.sampled_from([None, F(4), F(7, 2)]),
    }
)
#: Counted cards: up to six, identities of the universe, copies allowed.
counted_cards = st.lists(st.sampled_from(UNIVERSE), max_size=6)


@settings(max_examples=40, deadline=None)
@given(distributions, counted_cards)
def test_moments_of_a_pattern_equal_every_draw_of_special_cards(dist, cards) -> None:
    model = Multipliers(
        tuple(sorted(dist["cards"].items())), tuple(sorted(dist["values"].items())), dist["cap"]
    )
    model = small(model)
    pattern = tuple(sorted((cards.count(c) for c in set(cards)), reverse=True))
    first, second = multiplier_moments(cards, UNIVERSE, dist["cards"], dist["values"], dist["cap"])
    assert model.moment(pattern, 1) == first
    assert model.moment(pattern, 2) == second
    drawn = multiplier_distribution(cards, UNIVERSE, dist["cards"], dist["values"], dist["cap"])
    assert dict(model.distribution(pattern)) == {m: p for m, p in drawn.items() if p}


def test_the_uncapped_formula_and_the_capped_distribution_agree() -> None:
    # Two derivations: subsets of "all special" (no cap) and "exactly these special"
    # with the product's distribution (a cap too high to bind).
    model = multipliers_from_table(
        {
            "cards": {"1": "0.3", "2": "0.3", "3": "0.2", "4": "0.1", "5": "0.1"},
            "values": {"2": "0.5", "3": "0.3", "4": "0.1", "5": "0.06", "8": "0.04"},
        },
        "test",
    )
    unbound = dataclasses.replace(model, cap=F(10**15))
    for pattern in [(), (1,), (2,), (1, 1), (3,), (2, 1), (1, 1, 1), (2, 2, 1, 1), (1,) * 6]:
        for power in (1, 2, 3):
            assert model.moment(pattern, power) == unbound.moment(pattern, power)
    # One card: 1 + P(special) (E[M] - 1), P(special) = E[K] / 52.
    assert model.moment((1,), 1) == 1 + F(24, 10) / 52 * (F(292, 100) - 1)


def test_a_cap_binds_the_product() -> None:
    model = multipliers_from_table({"cards": 52, "values": {"8": "1"}, "cap": 100}, "t")
    assert model.moment((1,), 1) == 8  # every identity special
    assert model.moment((1, 1), 1) == 64
    assert model.moment((1, 1, 1), 1) == 100
    assert model.moment((2,), 2) == 64**2
    assert model.largest(3) == 100
    assert model.smallest(3) == 1


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"cards": 2, "values": {"2": "0.5", "3": "0.4"}}, "sum to 9/10"),
        ({"cards": 2, "values": {"-2": "1"}}, "the multiplier '-2' must not be negative"),
        ({"cards": 2, "values": {"0": "1"}}, "more than 0"),
        ({"cards": 53, "values": {"2": "1"}}, "'cards' must be from 0 to 52"),
        ({"cards": {"60": "1"}, "values": {"2": "1"}}, "from 0 to 52, got 60"),
        ({"cards": {"1.5": "1"}, "values": {"2": "1"}}, "whole numbers"),
        ({"cards": 2, "values": {"2": "1.5"}}, r"outside \[0, 1\]"),
        ({"cards": 2, "values": {"2": "nan"}}, "names 'nan', which is not an unknown"),
        ({"cards": 2, "values": {"2": float("nan")}}, "finite"),
        ({"cards": 2, "values": {}}, "'values' is empty"),
        ({"cards": 2}, "missing 'values'"),
        ({"cards": 2, "values": {"2": "1"}, "cap": "0.5"}, "'cap' must be from 1"),
        ({"cards": 2, "values": {"2": "1"}, "extra": 1}, "extra"),
        ({"cards": 2, "values": {"2": "1", "2.0": "0"}}, "twice"),
        ({"cards": 2, "values": {str(10**7): "1"}}, "at most 1,000,000"),
        ({"cards": True, "values": {"2": "1"}}, "whole number"),
    ],
)
def test_bad_models_are_one_line(table, message) -> None:
    with pytest.raises(AnalyzerError, match=message) as error:
        multipliers_from_table(table, "[multipliers]")
    assert "\n" not in str(error.value)


def _paytable(bet: dict, **top) -> dict:
    return {
        "name": "M",
        "multipliers": {"cards": {"1": "0.5", "2": "0.5"}, "values": {"2": "0.5", "3": "0.5"}},
        "bet": [{"id": "b", **bet}],
        **top,
    }


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            _paytable({"rule": [{"when": "natural", "pays": "multiplier * multiplier"}]}),
            "linear in the multiplier",
        ),
        (
            _paytable({"multiply": "winner", "rule": [{"when": "natural", "pays": "1:1"}]}),
            "no rule pays by the multiplier",
        ),
        (
            _paytable({"rule": [{"when": "natural", "pays": "multiplier"}]}),
            "has no 'multiply'",
        ),
        (
            _paytable({"multiply": "dealer", "rule": [{"when": "natural", "pays": "multiplier"}]}),
            "unknown 'multiply' 'dealer'",
        ),
        (
            {
                "name": "M",
                "bet": [
                    {
                        "id": "b",
                        "multiply": "both",
                        "rule": [{"when": "natural", "pays": "multiplier"}],
                    }
                ],
            },
            r"needs the paytable's \[multipliers\]",
        ),
        (
            _paytable(
                {"multiply": "winner", "rule": [{"when": "natural", "pays": "multiplier - 1"}]}
            ),
            "pays 0 at the smallest multiplier",
        ),
        (
            _paytable({"multiply": "both", "rule": [{"when": "natural", "pays": "- multiplier"}]}),
            "must raise the payout",
        ),
        (
            _paytable({"rule": [{"when": "natural", "pays": "1:1"}]}, fee="-0.2"),
            "'fee' must not be negative",
        ),
        (_paytable({"rule": [{"when": "natural", "pays": "1:1"}]}, fee="11"), "at most 10"),
    ],
)
def test_bad_multiplied_bets_are_one_line(data, message) -> None:
    with pytest.raises(AnalyzerError, match=message) as error:
        paytable_from_dict(data, "p.toml")
    assert "\n" not in str(error.value)


def test_a_multiplier_below_one_must_still_pay_a_win() -> None:
    # Values of 1/2: six counted cards can make the product 1/64.
    data = _paytable({"multiply": "both", "rule": [{"when": "natural", "pays": "multiplier"}]})
    data["multipliers"]["values"] = {"0.5": "1"}
    paytable_from_dict(data)  # 1/64 > 0 pays
    data["bet"][0]["rule"][0]["pays"] = "multiplier - 0.02"
    with pytest.raises(AnalyzerError, match="at the smallest multiplier"):
        paytable_from_dict(data)


def test_fee_and_multipliers_enter_the_fingerprint_only_when_given() -> None:
    plain = paytable_from_dict(
        {"name": "P", "bet": [{"id": "b", "rule": [{"when": "natural", "pays": "1:1"}]}]}
    )
    assert "fee" not in plain.fingerprint and "multipliers" not in plain.fingerprint
    data = _paytable({"multiply": "winner", "rule": [{"when": "natural", "pays": "multiplier"}]})
    multiplied = paytable_from_dict(data | {"fee": "0.2"})
    assert multiplied.fingerprint["fee"] == "1/5"
    assert multiplied.fingerprint["bets"][0]["multiply"] == "winner"
    assert multiplied.fingerprint["bets"][0]["rules"] == [["natural", "0", "1"]]
    assert parse_fee(0.2, "t") == F(1, 5)


@pytest.mark.parametrize(
    ("name", "cards", "values", "main", "pair"),
    [
        # win2day's terms: "Player 1-27:1", "P Pair 10-90:1"; eight Prosperity Cards, 2x or 3x.
        ("prosperity-tree-baccarat", 8, {2, 3}, (1, 27), (10, 90)),
        # "Player 1-512:1", "P Pair 9-576:1"; five Gold Cards, 2x, 3x, 5x or 8x.
        ("golden-wealth-baccarat", 5, {2, 3, 5, 8}, (1, 512), (9, 576)),
    ],
)
def test_shipped_multiplier_paytables_pay_what_their_sources_print(
    name, cards, values, main, pair
) -> None:
    from analyzer.paytables.library import load_paytable

    paytable = load_paytable(name)
    model = paytable.multipliers
    assert paytable.fee == F(1, 5) and paytable.decks == 8
    assert model.cards == ((cards, F(1)),) and {v for v, _ in model.values} == values
    ranges = {}
    for bet in paytable.bets:
        (rule, *_) = bet.rules
        payout = rule.payout
        most = 6 if bet.multiply == "both" else 2 if bet.multiply.endswith("first_two") else 3
        ranges[bet.id] = (
            payout.net + payout.per_multiplier,
            payout.net + payout.per_multiplier * model.largest(most),
        )
    assert ranges["player"] == main and ranges["player_pair"] == pair
    assert ranges["banker_pair"] == pair
    # The Banker returns 95% of the stake besides the multiplied win: "1-512:1" less 0.05.
    assert ranges["banker"] == (main[0] - F(1, 20), main[1] - F(1, 20))
    assert ranges["tie"][0] == 5  # "Tie 5:1"


def test_the_multiplier_distribution_needs_the_unknowns_given() -> None:
    model = Multipliers(((1, F(1)),), ((F(2), F(1)),), unknowns=("p",))
    with pytest.raises(AnalyzerError, match="needs values for the unknowns"):
        model.distribution((1,))


def test_a_product_table_too_large_to_price_is_refused_before_any_work() -> None:
    # 16 values on 6 special cards: C(22, 6) = 74,613 products at most, priced; 18 refused.
    values = lambda n: tuple((F(v), F(1, n)) for v in range(2, 2 + n))  # noqa: E731
    priced = Multipliers(((6, F(1)),), values(16), F(10**6))
    mean = sum(v for v, _ in values(16)) / 16
    assert priced.moment((1,), 1) == F(6, 52) * mean + F(46, 52)  # special, or not
    too_many = Multipliers(((6, F(1)),), values(18), F(10**6))
    with pytest.raises(AnalyzerError, match="134,596 distinct products, more than the 100,000"):
        too_many.moment((1,), 1)
    with pytest.raises(AnalyzerError, match="distinct products"):
        dataclasses.replace(too_many, cap=None).distribution((1,))
