"""Lightning multipliers on the games of the family (Lightning Dragon Tiger), against a
plain brute force written apart from the engine: every ordered deal of the physical cards
of small shoes, every Lightning suit (each a quarter) and every multiplier value with its
chance (or, for special card identities, every identity of the 52), each bet's exact
expected return and second moment as Fractions, equal to the engine's exactly."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import analyze
from analyzer.errors import AnalyzerError
from analyzer.game.cards import RANKS, SUITS
from analyzer.game.shoe import Shoe
from analyzer.paytables.model import paytable_from_dict
from tests import naive_family as naive

FEW = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HALF = Fraction(1, 2)
FEE = Fraction(1, 5)
#: The multipliers of a Lightning suit and their chances (the brute force's own copy).
VALUES = {2: Fraction(2, 5), 3: Fraction(3, 10), 5: Fraction(1, 5), 8: Fraction(1, 10)}


def shoe_of(cards: list[str]) -> Shoe:
    """The analyser's shoe holding exactly ``cards`` (naive card strings)."""
    suits = np.zeros((len(RANKS), len(SUITS)), dtype=np.int64)
    for card in cards:
        suits[RANKS.index(naive.rank(card)), SUITS.index(naive.suit(card))] += 1
    return Shoe(suits.sum(axis=1), suits)


def lightning_dragon_tiger(multipliers: dict) -> dict:
    """Lightning Dragon Tiger as a paytable mapping (Dragon, Tiger, Tie, Suited Tie)."""
    values = {str(v): str(p) for v, p in VALUES.items()}
    return {
        "name": "Lightning test",
        "game": "dragon-tiger",
        "fee": "1/5",
        "multipliers": {"values": values} | multipliers,
        "bet": [
            {
                "id": "dragon",
                "multiply": "dragon",
                "rule": [
                    {"when": "winner == 'dragon'", "pays": "multiplier"},
                    {"when": "winner == 'tie'", "pays": "lose 1/2"},
                ],
            },
            {
                "id": "tiger",
                "multiply": "tiger",
                "rule": [
                    {"when": "winner == 'tiger'", "pays": "multiplier"},
                    {"when": "winner == 'tie'", "pays": "lose 1/2"},
                ],
            },
            {
                "id": "winner",
                "multiply": "winner",
                "rule": [{"when": "winner != 'tie'", "pays": "multiplier - 1/10"}],
            },
            {
                "id": "tie",
                "multiply": "both",
                "rule": [{"when": "winner == 'tie'", "pays": "6.5 * multiplier"}],
            },
            {
                "id": "suited_tie",
                "multiply": "both",
                "rule": [
                    {
                        "when": "winner == 'tie' and dragon_card1_suit == tiger_card1_suit",
                        "pays": "20 * multiplier",
                    }
                ],
            },
        ],
    }


# -- The brute force: a bet is (counted cards of a deal, net at multiplier M) ------------


def dt_bets() -> dict:
    """Each bet of :func:`lightning_dragon_tiger` by hand: ``(dealt) -> (counted cards,
    constant net, net per unit of the multiplier)``; a deal is (dragon, tiger)."""

    def dragon(dealt):
        winner = naive.dragon_tiger_winner(*dealt)
        if winner == "dragon":
            return [dealt[0]], Fraction(0), Fraction(1)
        return [], -HALF if winner == "tie" else Fraction(-1), Fraction(0)

    def tiger(dealt):
        winner = naive.dragon_tiger_winner(*dealt)
        if winner == "tiger":
            return [dealt[1]], Fraction(0), Fraction(1)
        return [], -HALF if winner == "tie" else Fraction(-1), Fraction(0)

    def winner_bet(dealt):
        winner = naive.dragon_tiger_winner(*dealt)
        if winner == "tie":
            return [], Fraction(-1), Fraction(0)
        return [dealt[0] if winner == "dragon" else dealt[1]], Fraction(-1, 10), Fraction(1)

    def tie(dealt):
        if naive.rank(dealt[0]) == naive.rank(dealt[1]):
            return list(dealt), Fraction(0), Fraction(13, 2)
        return [], Fraction(-1), Fraction(0)

    def suited_tie(dealt):
        if dealt[0] == dealt[1]:
            return list(dealt), Fraction(0), Fraction(20)
        return [], Fraction(-1), Fraction(0)

    return {
        "dragon": dragon,
        "tiger": tiger,
        "winner": winner_bet,
        "tie": tie,
        "suited_tie": suited_tie,
    }


def lightning_draws(suits_drawn: dict[int, Fraction]):
    """Every draw of Lightning suits: ``(chance, {suit: multiplier})``, ``k`` of the four
    suits (every set of them equally likely) with ``suits_drawn[k]``, each suit's
    multiplier drawn apart."""
    for k, chance in suits_drawn.items():
        sets = list(itertools.combinations("SHDC", k))
        for chosen in sets:
            for values in itertools.product(VALUES.items(), repeat=k):
                p = chance / len(sets) * math.prod((q for _, q in values), start=Fraction(1))
                yield p, {s: Fraction(v) for s, (v, _) in zip(chosen, values, strict=True)}


def identity_draws():
    """One special card identity of the 52 (each a 52nd), its multiplier drawn."""
    for card in naive.deck():
        for v, q in VALUES.items():
            yield Fraction(1, 52) * q, {card: Fraction(v)}


def brute_force(cards, n, bets, draws, key) -> dict[str, tuple[Fraction, Fraction]]:
    """Each bet's exact expected net per unit paid and second moment of the net per unit
    staked less the fee, over every ordered deal of ``n`` of ``cards`` and every draw;
    a counted card's multiplier is its ``key``'s (its suit, or the card itself). (Deals
    are tallied by what settles them, its counted cards' keys and its net, first: every
    draw then weighs each tally.)"""
    draws = list(draws)
    tallies = {name: Counter() for name in bets}
    deals = 0
    for dealt in naive.every_deal(cards, n):
        deals += 1
        for name, bet in bets.items():
            counted, constant, slope = bet(dealt)
            tallies[name][tuple(key(card) for card in counted), constant, slope] += 1
    out = {}
    for name, tally in tallies.items():
        first = second = Fraction(0)
        for (keys, constant, slope), ways in tally.items():
            for p, special in draws:
                multiplier = math.prod(
                    (special.get(k, Fraction(1)) for k in keys), start=Fraction(1)
                )
                net = constant + slope * multiplier - FEE
                first += ways * p * net
                second += ways * p * net * net
        out[name] = (first / deals / (1 + FEE), second / deals)
    return out


def check(analysis, expected) -> None:
    for name, (ev, second) in expected.items():
        result = analysis.result(name)
        assert result.expected_value == ev, name
        # the variance per unit paid from the brute force's moments
        mean = ev * (1 + FEE)
        assert result.variance == (second - mean**2) / (1 + FEE) ** 2, name


SUITS_DRAWN = {
    "one suit": ({"suits": 1}, {1: Fraction(1)}),
    "none or two suits": (
        {"suits": {"0": "1/3", "2": "2/3"}},
        {0: Fraction(1, 3), 2: Fraction(2, 3)},
    ),
}


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("drawn", list(SUITS_DRAWN))
def test_lightning_dragon_tiger_against_every_deal(decks, drawn) -> None:
    table, chances = SUITS_DRAWN[drawn]
    cards = naive.deck(decks)
    paytable = paytable_from_dict(lightning_dragon_tiger(table))
    analysis = analyze(paytable=paytable, shoe=shoe_of(cards))
    expected = brute_force(cards, 2, dt_bets(), lightning_draws(chances), naive.suit)
    check(analysis, expected)


@FEW
@given(st.lists(st.integers(0, 2 * 52 - 1), min_size=2, max_size=60, unique=True))
def test_lightning_on_depleted_shoes_against_every_deal(removed) -> None:
    """Two decks less some physical cards (of known suits)."""
    cards = naive.deck(2)
    for index in sorted(removed, reverse=True):
        del cards[index]
    paytable = paytable_from_dict(lightning_dragon_tiger({"suits": 1}))
    analysis = analyze(paytable=paytable, shoe=shoe_of(cards))
    check(analysis, brute_force(cards, 2, dt_bets(), lightning_draws({1: Fraction(1)}), naive.suit))


def test_special_identities_on_a_game_against_every_deal() -> None:
    """Punto banco's model (one special card identity of 52) on Dragon Tiger: a Suited Tie
    of one card dealt twice multiplies it twice."""
    cards = naive.deck(2)[:70]
    paytable = paytable_from_dict(lightning_dragon_tiger({"cards": 1}))
    analysis = analyze(paytable=paytable, shoe=shoe_of(cards))
    check(analysis, brute_force(cards, 2, dt_bets(), identity_draws(), lambda card: card))


THREE_CARDS = ["AS", "AH", "5S", "5D", "QC", "KS", "KH", "9C", "4H"]


def three_card_bets() -> dict:
    """Bets of Three Card Baccarat (dealt in turn: P P P D D D) multiplied by three and by
    six cards."""

    def player(dealt):
        winner = naive.three_card_winner(dealt[:3], dealt[3:])
        if winner == "player":
            return list(dealt[:3]), Fraction(0), Fraction(1)
        return [], Fraction(0 if winner == "tie" else -1), Fraction(0)

    def winner_bet(dealt):
        winner = naive.three_card_winner(dealt[:3], dealt[3:])
        if winner == "tie":
            return [], Fraction(-1), Fraction(0)
        return list(dealt[:3] if winner == "player" else dealt[3:]), Fraction(0), Fraction(1, 2)

    def anything(dealt):
        return list(dealt), Fraction(-1, 2), Fraction(1)

    return {"player": player, "winner": winner_bet, "anything": anything}


def three_card_paytable(multipliers: dict) -> dict:
    values = {str(v): str(p) for v, p in VALUES.items()}
    return {
        "name": "Three Card Lightning",
        "game": "three-card-baccarat",
        "fee": "1/5",
        "multipliers": {"values": values} | multipliers,
        "bet": [
            {
                "id": "player",
                "multiply": "player",
                "rule": [
                    {"when": "winner == 'player'", "pays": "multiplier"},
                    {"when": "winner == 'tie'", "pays": "push"},
                ],
            },
            {
                "id": "winner",
                "multiply": "winner",
                "rule": [{"when": "winner != 'tie'", "pays": "multiplier / 2"}],
            },
            {
                "id": "anything",
                "multiply": "both",
                "rule": [{"when": "true", "pays": "multiplier - 1/2"}],
            },
        ],
    }


def test_three_and_six_counted_cards_against_every_deal() -> None:
    """Suit patterns of three and six cards (Three Card Baccarat on a shoe of nine cards),
    two Lightning suits."""
    paytable = paytable_from_dict(three_card_paytable({"suits": 2}))
    analysis = analyze(paytable=paytable, shoe=shoe_of(THREE_CARDS))
    draws = lightning_draws({2: Fraction(1)})
    check(analysis, brute_force(THREE_CARDS, 6, three_card_bets(), draws, naive.suit))


def test_symbolic_lightning_is_the_exact_analysis_at_a_point() -> None:
    data = lightning_dragon_tiger({"suits": 1})
    data["unknowns"] = {"a": "0..1", "b": "0..1"}
    data["multipliers"]["values"] = {"2": "1 - a - b", "5": "a", "8": "b"}
    paytable = paytable_from_dict(data)
    shoe = Shoe.standard(8)
    symbolic = analyze(paytable=paytable, shoe=shoe, symbolic=True)
    point = {"a": Fraction(1, 7), "b": Fraction(2, 9)}
    exact = analyze(paytable=paytable.with_unknowns(point), shoe=shoe)
    for r in exact.results:
        assert symbolic.result(r.bet.id).rtp.at(point) == r.rtp
        assert symbolic.result(r.bet.id).variance.at(point) == r.variance
    with pytest.raises(AnalyzerError, match="unknowns"):
        analyze(paytable=paytable, shoe=shoe)
    # The values given to analyze itself, as text and as Fractions, as --unknowns does.
    given = analyze(paytable=paytable, shoe=shoe, unknowns={"a": "1/7", "b": Fraction(2, 9)})
    for r in given.results:
        assert symbolic.result(r.bet.id).rtp.at(point) == r.rtp
    # numpy's numbers as Python's (a float64 was refused, shown as 'np.float64(0.25)').
    corner = {"a": Fraction(1, 4), "b": Fraction(0)}
    given = analyze(
        paytable=paytable, shoe=shoe, unknowns={"a": np.float64(0.25), "b": np.int64(0)}
    )
    for r in given.results:
        assert symbolic.result(r.bet.id).rtp.at(corner) == r.rtp
    for bad, message in (
        (["a"], "give a mapping"),
        ({"c": "1/2"}, "'c' is not an unknown"),
        ({"a": "x", "b": "0"}, "a must be a decimal or fraction"),
        # A Fraction too fine is refused for its digits (it was told to be a fraction).
        ({"a": Fraction(1, 10**20), "b": "0"}, r"a '1/1000.*' has too many digits \(at most 15"),
        ({"a": "-1/7", "b": "0"}, "a must not be negative"),
    ):
        with pytest.raises(AnalyzerError, match=message):
            analyze(paytable=paytable, shoe=shoe, unknowns=bad)


def test_the_dragon_rtp_is_the_formula_of_the_mean_multiplier() -> None:
    """On 8 decks: RTP = [p_win (7/4 + E[M]/4) + p_tie / 2] / 1.2."""
    paytable = paytable_from_dict(lightning_dragon_tiger({"suits": 1}))
    result = analyze(paytable=paytable, decks=8).result("dragon")
    tie = Fraction(13 * 32 * 31, 416 * 415)
    win = (1 - tie) / 2
    mean = sum((v * p for v, p in VALUES.items()), start=Fraction(0))
    assert result.rtp == (win * (Fraction(7, 4) + mean / 4) + tie / 2) / (1 + FEE)


LAZY_CASES = {
    "one suit, 2 decks": (lightning_dragon_tiger({"suits": 1}), naive.deck(2)),
    "none or two suits, depleted": (
        lightning_dragon_tiger({"suits": {"0": "1/3", "2": "2/3"}}),
        naive.deck(2)[7:90],
    ),
    "special identities": (lightning_dragon_tiger({"cards": 1}), naive.deck(2)[:70]),
    "three and six cards": (three_card_paytable({"suits": 2}), THREE_CARDS),
}


@pytest.mark.parametrize("case", list(LAZY_CASES))
def test_multiplied_results_made_when_read_equal_the_lines_settled_one_by_one(
    case, monkeypatch
) -> None:
    """A multiplied bet's result on a family game's table is made when read, from integer
    sums (bets._multiplied_on): its lines, sums and every figure equal those of the rule by
    rule settlement (bets._multiplied_lines), and it pickles as that plain result."""
    import pickle

    from analyzer.analysis import bets
    from analyzer.analysis.bets import BetResult, net_distribution

    data, cards = LAZY_CASES[case]
    paytable = paytable_from_dict(data)
    fast = analyze(paytable=paytable, shoe=shoe_of(cards)).results
    monkeypatch.setattr(bets, "_multiplied_on", lambda *args: None)
    plain = analyze(paytable=paytable, shoe=shoe_of(cards)).results
    assert [r.bet.id for r in fast] == [r.bet.id for r in plain]
    for made, settled in zip(fast, plain, strict=True):
        assert type(made) is not BetResult and type(settled) is BetResult
        figures = ("expected_value", "variance", "hit_frequency", "push_probability")
        for name in figures:  # (each read first, before the lines and sums)
            assert getattr(made, name) == getattr(settled, name), (made.bet.id, name)
            assert type(getattr(made, name)) is Fraction
        assert made.lines == settled.lines
        assert made.sums == settled.sums
        assert made == settled and settled == made
        again = pickle.loads(pickle.dumps(made))
        assert type(again) is BetResult and again == settled
        assert net_distribution(made) == net_distribution(settled)
