"""Every bet of GAME.md: exact edges against an independent settlement and published
figures, and each bet's statistics."""

from __future__ import annotations

from fractions import Fraction

import naive
import pytest
from helpers import FEE, MULTIPLIED_BETS, POOL, UNIVERSE, multiplied_paytable
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import Shoe, analyze
from analyzer.analysis.bets import net_distribution
from analyzer.paytables.printed import check_printed_value


@pytest.fixture(params=[1, 8])
def decks_and_reference(request, reference_8_decks):
    if request.param == 8:
        return 8, reference_8_decks
    return 1, naive.reference_counts(Shoe.standard(1).suit_counts.tolist())


@pytest.mark.slow
def test_every_bet_matches_independent_settlement(decks_and_reference) -> None:
    decks, reference = decks_and_reference
    analysis = analyze(decks=decks, mode="both")
    assert len(analysis.results) == 2 * 18  # 18 bets of GAME.md, once per mode (banker twice)
    for result in analysis.results:
        expected = naive.expected_value(reference, result.bet.id, result.mode)
        assert result.expected_value == expected, (result.bet.id, result.mode)
        assert result.rtp == 1 + expected
    # Hit frequency and pushes, exactly, for a bet with both.
    bonus = analysis.result("player_bonus", "commission")
    total = sum(reference.values())
    hits = sum(w for k, w in reference.items() if naive.settle("player_bonus", "", k) > 0)
    pushes = sum(w for k, w in reference.items() if naive.settle("player_bonus", "", k) == 0)
    assert bonus.hit_frequency == Fraction(hits, total)
    assert bonus.push_probability == Fraction(pushes, total)


@pytest.mark.parametrize(
    ("bet", "mode", "published"),
    [
        # Wizard of Odds, "Baccarat" (wizardofodds.com/games/baccarat/), 8 decks.
        ("banker", "commission", "1.0579%"),
        ("player", "commission", "1.2351%"),
        ("tie", "commission", "14.3596%"),
        ("banker", "no_commission", "1.4581%"),
        # Wizard of Odds, "Baccarat" side bets, Player Pair 11:1, 8 decks.
        ("player_pair", "commission", "10.36%"),
        ("banker_pair", "commission", "10.36%"),
        # Wizard of Odds, "Dragon Bonus", 8 decks.
        ("player_bonus", "commission", "2.65%"),
        ("banker_bonus", "commission", "9.37%"),
    ],
)
def test_published_house_edges(bet, mode, published) -> None:
    edge = analyze(decks=8, mode=mode, bets=[bet]).result(bet).house_edge
    assert check_printed_value(edge, published).passed, float(100 * edge)


def test_standard_deviation_and_resolved_edge() -> None:
    result = analyze(mode="commission", bets=["banker"]).result("banker")
    table = result.breakdown
    p = dict(zip(table["pays"], table["probability"], strict=True))
    mean = p["0.95:1"] * Fraction(19, 20) - p["lose"]
    assert result.expected_value == mean
    assert result.variance == p["0.95:1"] * Fraction(19, 20) ** 2 + p["lose"] - mean**2
    assert result.edge_per_resolved == -mean / (1 - p["push"])


def test_breakdown_lines_add_up() -> None:
    for result in analyze().results:
        table = result.breakdown
        assert sum(table["probability"]) == 1
        assert sum(table["contribution"]) == result.expected_value


# -- Multiplied bets and fees against every deal and every draw of special cards ------------


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(POOL), min_size=6, max_size=8),
    st.sampled_from(
        [
            ({"1": "0.5", "2": "0.5"}, {"2": "0.75", "5": "0.25"}, None),
            ({"0": "0.25", "3": "0.75"}, {"0.5": "0.5", "3": "0.5"}, "4"),
        ]
    ),
)
def test_multiplied_bets_equal_every_deal_and_every_draw(cards, model) -> None:
    from helpers import shoe_of_cards
    from naive_multipliers import reference_moments, reference_nets

    cards_distribution, values, cap = model
    paytable = multiplied_paytable(cards_distribution, values, cap)
    analysis = analyze(paytable=paytable, shoe=shoe_of_cards(cards))
    distribution = (
        {int(k): Fraction(p) for k, p in cards_distribution.items()},
        {Fraction(v): Fraction(p) for v, p in values.items()},
        None if cap is None else Fraction(cap),
    )
    for bet_id, kind, rules in MULTIPLIED_BETS:
        spec = [(test, Fraction(str(a)), Fraction(b)) for _, _, test, a, b in rules]
        first, second, ways = reference_moments(cards, kind, spec, UNIVERSE, distribution)
        result = analysis.result(bet_id)
        assert result.expected_value == (first - FEE) / (1 + FEE), bet_id
        assert result.variance == (second - first**2) / (1 + FEE) ** 2, bet_id
        assert [line.ways for line in result.lines] == ways, bet_id
        assert sum(line.contribution for line in result.lines) == first, bet_id
        assert result.rtp == (1 + first) / (1 + FEE)
        # The whole distribution of a round's net (a session's building block), fee paid.
        nets = reference_nets(cards, kind, spec, UNIVERSE, distribution, FEE)
        assert net_distribution(result) == {net: p for net, p in nets.items() if p}, bet_id


# -- Progressive jackpots ---------------------------------------------------------------

JACKPOT_PAYTABLE = {
    "name": "Progressive",
    "bet": [
        {
            "id": "progressive",
            "jackpot": {"meter": "10000", "contribution": "0.01"},
            "rule": [
                {"when": "player_suited_pair and banker_suited_pair", "pays": "jackpot"},
                {"when": "player_pair or banker_pair", "pays": "5:1"},
            ],
        }
    ],
}


@pytest.mark.slow
def test_a_jackpot_is_exact_and_linear_in_its_meter(reference_8_decks) -> None:
    from analyzer.analysis.bets import jackpot_figures
    from analyzer.paytables.model import paytable_from_dict

    paytable = paytable_from_dict(JACKPOT_PAYTABLE)
    result = analyze(paytable=paytable).result("progressive")
    figures = jackpot_figures(result)
    # The chance of the jackpot, from the brute-force reference's pair states.
    total = sum(reference_8_decks.values())
    both = sum(w for key, w in reference_8_decks.items() if key[0] == key[1] == 2)
    assert figures.per_meter == Fraction(both, total)
    # Settled independently at the meter: 10000 on both suited pairs, 5 on any other pair.
    expected = 0
    for key, ways in reference_8_decks.items():
        net = 10000 if key[0] == key[1] == 2 else 5 if key[0] or key[1] else -1
        expected += Fraction(ways, total) * net
    assert result.rtp == 1 + expected == figures.rtp
    for meter in (Fraction(0), Fraction(12345, 7)):
        other = analyze(paytable=paytable.with_meter(meter)).result("progressive")
        assert other.rtp == figures.base + figures.per_meter * meter
        # The reset meter stays the paytable's: the long run does not move with the meter.
        assert jackpot_figures(other).long_run == figures.long_run
    even = analyze(paytable=paytable.with_meter(figures.break_even)).result("progressive")
    assert even.rtp == 1
    assert figures.long_run == figures.rtp + Fraction(1, 100)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda b: b.pop("jackpot"), "pays the jackpot, but the bet has no 'jackpot'"),
        (lambda b: b["rule"].pop(0), "no rule pays it"),
        (lambda b: b["jackpot"].update(contribution="1"), "below 1"),
        (lambda b: b["jackpot"].update(meter=str(10**13)), "at most 1,000,000,000,000"),
        (lambda b: b["jackpot"].update(meter="-5"), "must not be negative"),
        (lambda b: b["jackpot"].pop("contribution"), "missing 'contribution'"),
        (lambda b: b["jackpot"].update(reset="1"), "reset"),
    ],
)
def test_bad_jackpots_are_one_line(change, message) -> None:
    import copy

    from analyzer.errors import AnalyzerError
    from analyzer.paytables.model import paytable_from_dict

    data = copy.deepcopy(JACKPOT_PAYTABLE)
    change(data["bet"][0])
    with pytest.raises(AnalyzerError, match=message) as error:
        paytable_from_dict(data)
    assert "\n" not in str(error.value)


#: A tiny shoe of nine physical cards (rank, suit), with pairs, suited pairs and ties.
_JACKPOT_SHOE = [(1, 0), (1, 0), (1, 1), (5, 2), (5, 2), (10, 0), (13, 1), (9, 3), (4, 0)]


@pytest.mark.parametrize("fee", [None, "0.25"])
@pytest.mark.parametrize("meter", [Fraction(0), Fraction(7, 2)])
def test_a_jackpot_line_wins_pushes_or_loses_by_its_net_at_the_meter(meter, fee) -> None:
    """At a meter of 0 the jackpot line nets 0, the stake back: a push, as play settles it
    (not a hit); at a meter above 0 a win. Against every ordered deal of a tiny shoe."""
    from helpers import shoe_of_cards

    from analyzer.paytables.model import paytable_from_dict

    data = {
        "name": "Progressive",
        "bet": [
            {
                "id": "progressive",
                "jackpot": {"meter": "10", "contribution": "0.01"},
                "rule": [
                    {"when": "player_pair and banker_pair", "pays": "jackpot"},
                    {"when": "winner == 'tie'", "pays": "push"},
                    {"when": "player_pair or banker_pair", "pays": "5:1"},
                ],
            }
        ],
    } | ({} if fee is None else {"fee": fee})
    paytable = paytable_from_dict(data).with_meter(meter)
    result = analyze(paytable=paytable, shoe=shoe_of_cards(_JACKPOT_SHOE)).result("progressive")
    # Every ordered deal, settled here: the net per unit staked, before any fee.
    counts = naive.card_reference(_JACKPOT_SHOE, ["player_pair", "banker_pair", "winner"])
    total = sum(counts.values())
    nets: dict[Fraction, int] = {}
    for (player_pair, banker_pair, winner), ways in counts.items():
        if player_pair and banker_pair:
            net = meter
        elif winner == "tie":
            net = Fraction(0)
        elif player_pair or banker_pair:
            net = Fraction(5)
        else:
            net = Fraction(-1)
        nets[net] = nets.get(net, 0) + ways
    paid = 1 + Fraction(fee or 0)
    expected = (sum(net * ways for net, ways in nets.items()) / total - (paid - 1)) / paid
    hit = Fraction(sum(ways for net, ways in nets.items() if net > 0), total)
    push = Fraction(sum(ways for net, ways in nets.items() if net == 0), total)
    assert 0 < hit < 1 and 0 < push < 1
    assert result.expected_value == expected
    assert result.hit_frequency == hit
    assert result.push_probability == push
    assert result.edge_per_resolved == -expected / (1 - push)


def test_a_result_made_when_read_equals_and_pickles_as_the_plain_one() -> None:
    """A bet settled with others makes its lines and sums when first read: equal (both
    ways) to the result made of them at once, pickled as that plain result, its figures
    the same; a bet offered in two modes shares its lines."""
    import pickle

    from analyzer.analysis.bets import BetResult, Sums

    analysis = analyze(decks=2)
    for result in analysis.results:
        plain = BetResult(result.bet, result.mode, result.lines, Sums(*_sums_of(result.sums)))
        assert result == plain and plain == result
        again = pickle.loads(pickle.dumps(result))
        assert type(again) is BetResult and again == result
        assert again.expected_value == result.expected_value == plain.expected_value
        assert again.variance == result.variance and again.hit_frequency == plain.hit_frequency
    player = [r for r in analysis.results if r.bet.id == "player"]
    assert len(player) == 2 and player[0].lines is player[1].lines


def _sums_of(sums) -> tuple:
    return (sums.net, sums.net_squared, sums.wins, sums.pushes, sums.over, sums.common)


def test_bets_settled_together_on_a_games_tables_equal_each_alone() -> None:
    """The bets of a game of the family settled on the same table in one matrix product
    (bets._settled_together): each result equal to the bet analysed alone, on shoes of
    every kind (with replacement: its figures); a bet offered in two modes shares its
    lines and figures."""
    import tomllib

    from analyzer.files import shipped_folder
    from analyzer.paytables.model import paytable_from_dict

    path = (
        shipped_folder("analyzer.paytables", "shipped", "paytables") / "dragon-tiger-pragmatic.toml"
    )
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data["modes"] = ["one", "two"]
    data["bet"][2]["modes"] = ["two"]  # (the Tie in one mode only)
    paytable = paytable_from_dict(data, "two modes")
    for shoe in (Shoe.standard(8), Shoe.standard(1), Shoe.infinite()):
        analysis = analyze(paytable=paytable, shoe=shoe)
        assert len(analysis.results) == 2 * len(data["bet"]) - 1
        for result in analysis.results:
            alone = analyze(paytable=paytable, shoe=shoe, mode=result.mode, bets=[result.bet.id])
            (expected,) = alone.results
            if not shoe.replacement:  # (with replacement, each in its own lowest terms)
                assert result.lines == expected.lines and result.sums == expected.sums
            assert result.expected_value == expected.expected_value
            assert result.variance == expected.variance
            assert result.hit_frequency == expected.hit_frequency
        by_mode = {(r.bet.id, r.mode): r for r in analysis.results}
        assert by_mode["dragon", "one"].lines is by_mode["dragon", "two"].lines
        assert ("tie", "one") not in by_mode


def test_bets_planned_on_tables_of_the_same_columns_are_settled_on_each_tables_ways() -> None:
    """evaluate_on_tables plans the same bets on tables of the same (shared) columns once:
    each call settles them on its own tables' ways, a second table of the same columns
    apart from the first (its own ways), each result what evaluate_bet makes alone."""
    from analyzer.analysis.bets import evaluate_bet, evaluate_on_tables
    from analyzer.engine.deal_walk import dealt_tables
    from analyzer.paytables.library import load_paytable

    paytable = load_paytable("dragon-tiger-pragmatic")
    game, bets = paytable.game, paytable.bets
    tables = {
        decks: dealt_tables(game, Shoe.standard(decks), [bet.fields for bet in bets])
        for decks in (2, 8)  # (the same layout: the same columns, two shoes' ways)
    }
    for first, second in ((2, 2), (2, 8), (8, 2), (8, 8)):  # (the plan kept between calls)
        offered = [(tables[first][bet.fields], bet, "standard") for bet in bets]
        offered += [(tables[second][bet.fields], bet, "standard") for bet in bets]
        results = evaluate_on_tables(offered)
        for (table, bet, mode), result in zip(offered, results, strict=True):
            alone = evaluate_bet(table, bet, mode)
            assert result.lines == alone.lines and result.sums == alone.sums, bet.id
            assert result.variance == alone.variance
