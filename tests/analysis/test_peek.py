"""A decision on punto banco (Peek Baccarat): raises after some of the first four cards
are shown, solved exactly, against plain-Python deals of every card.

The references deal every ordered six-card sequence of a tiny shoe's physical cards
(tests/naive_family.py), play each round by the drawing rules as tests/naive.py writes
them, group the rounds by the cards a reveal shows, sum each action's net per set and
keep the larger (or try every pure strategy); the fee is paid on the base stake only.
"""

from __future__ import annotations

import itertools
import math
import subprocess
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import analyze
from analyzer.errors import AnalyzerError
from analyzer.paytables.model import paytable_from_dict
from tests import naive
from tests import naive_family as family
from tests.engine.test_deal_walk import shoe_of

FOUR = ["player_card1", "banker_card1", "player_card2", "banker_card2"]
STAKES = {"keep": 1, "double": 2, "triple": 3}


def peek_table(shown: dict[str, str], fee: str = "0.2", sees: list[str] = FOUR) -> dict:
    """A Peek paytable: Player 1:1, Banker 0.95:1 (ties push), a fee on both, a Tie bet
    the decision is not for."""
    main = [("player", "winner == 'player'", "1:1"), ("banker", "winner == 'banker'", "0.95:1")]
    bets = [
        {
            "id": bet_id,
            "fee": fee,
            "rule": [{"when": when, "pays": pays}, {"when": "winner == 'tie'", "pays": "push"}],
        }
        for bet_id, when, pays in main
    ]
    bets.append({"id": "tie", "rule": [{"when": "winner == 'tie'", "pays": "8:1"}]})
    return {
        "name": "Peek test",
        "decision": {
            "sees": sees,
            "shown": shown,
            "actions": [{"name": name, "stake": stake} for name, stake in STAKES.items()],
            "bets": ["player", "banker"],
        },
        "bet": bets,
    }


def _winner(dealt: tuple[str, ...]) -> str:
    first = [family.value(card) for card in dealt[:4]]
    more = [family.value(card) for card in dealt[4:]]
    player, banker, *_ = naive.play(first, more)
    return "player" if player > banker else "banker" if banker > player else "tie"


def _base_net(bet: str, winner: str) -> Fraction:
    if winner == "tie":
        return Fraction(0)
    if winner == bet:
        return Fraction(1) if bet == "player" else Fraction(95, 100)
    return Fraction(-1)


def reference(cards: list[str], bet: str, shown: dict[int, Fraction], fee: Fraction) -> Fraction:
    """The expected result per unit paid (stake and fee) under the best raise of each set
    of cards shown, every set of k of the four cards alike for a chance shown[k]."""
    nets = {
        name: (lambda dealt, k=stake: k * _base_net(bet, _winner(dealt)))
        for name, stake in STAKES.items()
    }
    total = Fraction(0)
    for k, chance in shown.items():
        sets = list(itertools.combinations(range(4), k))
        for kept in sets:
            seen = lambda dealt, kept=kept: tuple(family.value(dealt[i]) for i in kept)  # noqa: E731
            total += chance / len(sets) * family.best_decision_ev(cards, 6, seen, nets)
    return (total - fee) / (1 + fee)


TINY = [
    ["AS", "2H", "5D", "9C", "KS", "7H", "3D", "8C"],
    ["4S", "4H", "6D", "6C", "QS", "QH", "2D"],
    ["9S", "9H", "8D", "AC", "AS", "5H", "JD"],
]
SHOWN = [
    {1: Fraction(1)},
    {4: Fraction(1)},
    {1: Fraction(1, 2), 2: Fraction(1, 3), 3: Fraction(1, 6)},
]


@pytest.mark.parametrize("cards", TINY)
@pytest.mark.parametrize("shown", SHOWN)
def test_peek_under_its_best_raises_equals_every_deal(cards, shown):
    data = peek_table({str(k): str(p) for k, p in shown.items()})
    analysis = analyze(paytable=paytable_from_dict(data), shoe=shoe_of(cards))
    for bet in ("player", "banker"):
        expected = reference(cards, bet, shown, Fraction(1, 5))
        assert analysis.result(bet).expected_value == expected, bet


def test_the_bets_the_decision_is_not_for_are_played_as_dealt():
    cards = TINY[0]
    data = peek_table({"2": "1"})
    peek = analyze(paytable=paytable_from_dict(data), shoe=shoe_of(cards)).result("tie")
    deals = list(family.every_deal(cards, 6))
    ties = sum(_winner(dealt) == "tie" for dealt in deals)
    assert peek.expected_value == Fraction(9 * ties, len(deals)) - 1


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(family.deck(1)), min_size=6, max_size=7, unique=True),
    st.integers(0, 4),
)
def test_peek_on_depleted_shoes_equals_every_deal(cards, k):
    analysis = analyze(paytable=paytable_from_dict(peek_table({str(k): "1"})), shoe=shoe_of(cards))
    result = analysis.result("banker")
    assert result.expected_value == reference(cards, "banker", {k: Fraction(1)}, Fraction(1, 5))


def test_the_best_raise_is_the_best_pure_strategy():
    # Six cards of three values: few sets, so every pure strategy can be tried.
    cards = ["9S", "9H", "KD", "KC", "5S", "5H"]
    data = peek_table({"1": "1"}, sees=["player_card1"])
    analysis = analyze(paytable=paytable_from_dict(data), shoe=shoe_of(cards))
    nets = {
        name: (lambda dealt, k=stake: k * _base_net("player", _winner(dealt)))
        for name, stake in STAKES.items()
    }
    best = family.every_pure_strategy_best(cards, 6, lambda dealt: (family.value(dealt[0]),), nets)
    fee = Fraction(1, 5)
    assert analysis.result("player").expected_value == (best - fee) / (1 + fee)


@pytest.mark.parametrize("cards", TINY[:2])
def test_a_peek_surrender_is_the_best_of_every_deal_per_reveal(cards):
    """Peek with a surrender beside the raises (half the stake lost, the fee kept): each
    reveal's sets played by the best of keep, double, triple and surrender, every deal
    summed by hand; the surrender is the best play of some sets."""
    data = peek_table({"1": "1/2", "2": "1/2"})
    data["decision"]["actions"].append({"name": "surrender", "pays": "lose 1/2"})
    analysis = analyze(paytable=paytable_from_dict(data), shoe=shoe_of(cards))
    for bet in ("player", "banker"):
        nets = {
            name: (lambda dealt, k=stake, bet=bet: k * _base_net(bet, _winner(dealt)))
            for name, stake in STAKES.items()
        }
        nets["surrender"] = lambda dealt: Fraction(-1, 2)
        total = Fraction(0)
        for k in (1, 2):
            sets = list(itertools.combinations(range(4), k))
            for kept in sets:
                seen = lambda d, kept=kept: tuple(family.value(d[i]) for i in kept)  # noqa: E731
                total += Fraction(1, 2) / len(sets) * family.best_decision_ev(cards, 6, seen, nets)
        fee = Fraction(1, 5)
        assert analysis.result(bet).expected_value == (total - fee) / (1 + fee), bet
    assert "surrender" in set(analysis.strategy("banker")["best"])


def test_the_strategy_table_sums_to_the_figures():
    cards = TINY[1]
    shown = {1: Fraction(1, 4), 3: Fraction(3, 4)}
    data = peek_table({str(k): str(p) for k, p in shown.items()})
    analysis = analyze(paytable=paytable_from_dict(data), shoe=shoe_of(cards))
    table = analysis.choices[("player", "standard")]
    # Every reveal's sets cover every round once: their chances add up to 1.
    assert sum(choice.probability for choice in table) == 1
    played = sum(choice.probability * choice.values[choice.best] for choice in table)
    fee = Fraction(1, 5)
    assert analysis.result("player").expected_value == (played - fee) / (1 + fee)
    assert {len(choice.cards) for choice in table} == {1, 3}
    frame = analysis.strategy("player")
    assert frame["probability"].sum() == 1
    assert frame[FOUR].isna().any(axis=1).all()  # (no set shows all four cards here)


def test_a_line_per_rule_with_its_stakes_and_the_full_shoe_matches_the_enumerator():

    analysis = analyze(paytable=paytable_from_dict(peek_table({"0": "1"})), decks=8)
    plain = analyze(paytable="seed-game", decks=8, mode="commission")
    # Nothing shown: every set is the whole shoe, so the best play is to keep, and the
    # figures are the seed game's Player bet's (its fee aside).
    result = analysis.result("player")
    assert [line.when for line in result.lines] == [
        "winner == 'player'",
        "winner == 'tie'",
        "otherwise",
    ]
    assert all(stake == 1 for line in result.lines for stake, _ in line.stakes)
    seed = plain.result("player")
    fee = Fraction(1, 5)
    assert result.expected_value == (seed.expected_value - fee) / (1 + fee)
    assert math.isclose(float(result.rtp), float((1 + seed.expected_value) / (1 + fee)))


BAD = [
    ({"bets": ["nope"]}, "no such bet"),
    ({"bets": []}, "'bets' must list"),
    ({"shown": {"1": "1/2", "2": "1/3"}}, "sum to 5/6 \\(0.833333\\), not 1"),
    ({"shown": {"5": "1"}}, "not a number of cards from 0 to 4"),
    ({"actions": [{"name": "keep"}, {"name": "buy", "draws": "player"}]}, "changes the stake only"),
    ({"actions": [{"name": "keep"}, {"name": "again"}]}, "do the same"),
    ({"sees": ["player_card3"]}, "first deal does not deal"),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_a_bad_decision_is_one_line(change, message):
    data = peek_table({"1": "1"})
    data["decision"] = {**data["decision"], **change}
    with pytest.raises(AnalyzerError, match=message) as error:
        paytable_from_dict(data, "peek.toml")
    assert "\n" not in str(error.value)


def test_a_decided_bet_on_what_the_walk_cannot_tell_is_refused():
    data = peek_table({"1": "1"})
    data["bet"][0]["rule"][0]["when"] = "player_pair"
    with pytest.raises(AnalyzerError, match="may read winner, player_score, banker_score"):
        paytable_from_dict(data, "peek.toml")


def test_a_game_paytable_gives_its_decision_in_the_game():
    data = {"name": "x", "game": "dragon-tiger", "decision": {}, "bet": []}
    with pytest.raises(AnalyzerError, match=r"\[game.decision\]"):
        paytable_from_dict(data, "x.toml")


def test_the_strategy_command_refuses_a_summary_of_a_random_reveal(tmp_path):
    path = tmp_path / "peek.toml"
    path.write_text(
        'name = "Peek"\n[decision]\nsees = ["player_card1", "banker_card1"]\n'
        'shown = { 1 = "1/2", 2 = "1/2" }\nbets = ["player"]\n'
        'actions = [{ name = "keep" }, { name = "double", stake = 2 }]\n'
        '[[bet]]\nid = "player"\n[[bet.rule]]\nwhen = "winner == \'player\'"\npays = "1:1"\n'
    )
    done = subprocess.run(
        ["baccarat-odds", "strategy", "--paytable", str(path), "--summary"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "random" in done.stderr


def test_the_shipped_peek_baccarat_at_values_of_its_unknowns_equals_every_deal():
    from analyzer.paytables.library import load_paytable

    cards = TINY[0]
    point = {"s1": Fraction(1, 2), "s2": Fraction(1, 4), "s3": Fraction(1, 8)}
    shown = {1: point["s1"], 2: point["s2"], 3: point["s3"], 4: Fraction(1, 8)}
    paytable = load_paytable("peek-baccarat").with_unknowns(point)
    analysis = analyze(paytable=paytable, shoe=shoe_of(cards))
    fee = Fraction(1, 5)
    for bet in ("player", "banker"):
        assert analysis.result(bet).expected_value == reference(cards, bet, shown, fee)
    deals = list(family.every_deal(cards, 6))
    ties = sum(_winner(dealt) == "tie" for dealt in deals)
    assert analysis.result("tie").expected_value == Fraction(9 * ties, len(deals)) - 1
    for bet, first in (("player_pair", 0), ("banker_pair", 1)):
        pairs = sum(family.rank(dealt[first]) == family.rank(dealt[first + 2]) for dealt in deals)
        assert analysis.result(bet).expected_value == Fraction(12 * pairs, len(deals)) - 1


def test_the_shipped_peek_baccarat_is_symbolic_in_its_unknowns():
    from analyzer.paytables.library import load_paytable
    from analyzer.paytables.unknowns import Poly

    paytable = load_paytable("peek-baccarat")
    symbolic = analyze(paytable=paytable, shoe=shoe_of(TINY[1]), symbolic=True)
    rtp = symbolic.result("player").rtp
    assert isinstance(rtp, Poly) and rtp.used == {"s1", "s2", "s3"}
    point = {"s1": Fraction(1, 3), "s2": Fraction(1, 6), "s3": Fraction(1, 4)}
    exact = analyze(paytable=paytable.with_unknowns(point), shoe=shoe_of(TINY[1]))
    assert rtp.at(point) == exact.result("player").rtp
    with pytest.raises(AnalyzerError, match="have unknowns"):
        analyze(paytable=paytable)


def test_the_nets_of_a_round_spread_over_its_stakes():
    from analyzer.analysis.bets import net_distribution

    cards = TINY[0]
    shown = {2: Fraction(1)}
    data = peek_table({"2": "1"})
    result = analyze(paytable=paytable_from_dict(data), shoe=shoe_of(cards)).result("banker")
    # By hand: each round of each shown pair of cards, at the stake its set plays.
    nets = {
        name: (lambda dealt, k=stake: k * _base_net("banker", _winner(dealt)))
        for name, stake in STAKES.items()
    }
    deals = list(family.every_deal(cards, 6))
    expected: dict[Fraction, Fraction] = {}
    sets = list(itertools.combinations(range(4), 2))
    for kept in sets:
        totals: dict[tuple, dict[str, Fraction]] = {}
        for dealt in deals:
            seen = tuple(family.value(dealt[i]) for i in kept)
            by_action = totals.setdefault(seen, dict.fromkeys(nets, Fraction(0)))
            for name, net in nets.items():
                by_action[name] += net(dealt)
        # (the first action listed among equals, as the engine keeps)
        best = {seen: max(values, key=values.__getitem__) for seen, values in totals.items()}
        for dealt in deals:
            seen = tuple(family.value(dealt[i]) for i in kept)
            net = nets[best[seen]](dealt) - Fraction(1, 5)
            expected[net] = expected.get(net, Fraction(0)) + shown[2] / len(sets) / len(deals)
    assert net_distribution(result) == {k: v for k, v in expected.items() if v}


def test_effects_of_removal_are_the_best_plays_on_each_shoe_less_a_card():
    """eor of a decision's bets: each rank's row is the best play's EV on the shoe less one
    card of that rank (every deal, best raise per set, by hand), less the full shoe's,
    averaged over the rank's cards held."""
    from collections import Counter

    from analyzer.analysis.eor import removal_effects

    cards = TINY[0]
    shown = {1: Fraction(1, 2), 3: Fraction(1, 2)}
    paytable = paytable_from_dict(peek_table({str(k): str(p) for k, p in shown.items()}))
    effects, _ = removal_effects(paytable, shoe_of(cards), bets=["player", "tie"])
    got = {
        (bet, rank): delta
        for bet, rank, delta in zip(
            effects["bet"], effects["rank"], effects["delta_ev_exact"], strict=True
        )
    }
    fee = Fraction(1, 5)
    base = reference(cards, "player", shown, fee)
    by_rank: dict[str, list[Fraction]] = {}
    for card in cards:
        left = list(cards)
        left.remove(card)
        by_rank.setdefault(family.rank(card), []).append(reference(left, "player", shown, fee))
    for rank, values in by_rank.items():
        assert got[("player", rank)] == sum(values) / len(values) - base, rank
    held = Counter(family.rank(card) for card in cards)
    assert {rank for bet, rank in got if bet == "player"} == set(held)
    assert {bet for bet, _ in got} == {"player", "tie"}
