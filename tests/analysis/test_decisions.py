"""Decisions with information, solved exactly, against plain-Python deals of every card.

The engine keeps the best action of each information set; the references below deal
every ordered sequence of a tiny shoe's physical cards (tests/naive_family.py), sum each
action's net per set by hand-written rules, and take the best, or, for a smaller game,
try every pure strategy. Lucky Draw Baccarat's published figures are Stephen How's.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import analyze
from analyzer.errors import AnalyzerError
from analyzer.game.games import game_from_table
from analyzer.paytables.model import paytable_from_dict
from tests import naive_family as naive
from tests.engine.test_deal_walk import shoe_of

DEALER_DRAWS = (0, 1, 2, 3, 4)


def _lucky_draw_nets(seven: Fraction):
    def net(draw: bool):
        def settle(dealt):
            player, dealer, _ = naive.drawn_round(dealt, 2, draw, DEALER_DRAWS)
            return naive.lucky_draw_net(player, dealer, draw, seven)

        return settle

    return {"stand": net(False), "draw": net(True)}


def _seen(dealt):  # the player's two cards and the dealer's first, by point value
    return (naive.value(dealt[0]), naive.value(dealt[2]), naive.value(dealt[1]))


TINY = [
    ["AS", "2H", "5D", "9C", "KS", "7H", "3D", "8C"],
    ["4S", "4H", "6D", "6C", "QS", "QH", "2D"],
    ["9S", "9H", "9D", "AC", "AS", "5H", "JD", "7C"],
]


@pytest.mark.parametrize("cards", TINY)
@pytest.mark.parametrize("paytable", ["lucky-draw-baccarat-1", "lucky-draw-baccarat-2"])
def test_lucky_draw_under_its_best_play_equals_every_deal(cards, paytable):
    seven = Fraction(2) if paytable.endswith("-1") else Fraction(3, 2)
    expected = naive.best_decision_ev(cards, 6, _seen, _lucky_draw_nets(seven))
    result = analyze(paytable=paytable, shoe=shoe_of(cards)).result("enter")
    assert result.expected_value == expected


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(naive.deck(1)), min_size=6, max_size=8, unique=True))
def test_lucky_draw_on_depleted_shoes_equals_every_deal(cards):
    expected = naive.best_decision_ev(cards, 6, _seen, _lucky_draw_nets(Fraction(2)))
    result = analyze(paytable="lucky-draw-baccarat-1", shoe=shoe_of(cards)).result("enter")
    assert result.expected_value == expected


#: A smaller game: one card each, the player seeing their own card may draw (stake 2) or
#: raise to three stakes; the dealer draws on 0-4. Few enough information sets to try
#: every pure strategy.
SMALL_GAME = {
    "name": "One card and a decision",
    "hands": [
        {"name": "player", "cards": 1, "extra": 1},
        {"name": "dealer", "cards": 1, "extra": 1, "draws": "0-4"},
    ],
    "decision": {
        "sees": ["player_card1"],
        "actions": [
            {"name": "keep"},
            {"name": "draw", "draws": "player", "stake": 2},
            {"name": "triple", "stake": 3},
        ],
    },
}


def _small_nets():
    def net(draw: bool, stake: int):
        def settle(dealt):
            player, dealer, _ = naive.drawn_round(dealt, 1, draw, DEALER_DRAWS)
            return Fraction(stake * ((player > dealer) - (player < dealer)))

        return settle

    return {"keep": net(False, 1), "draw": net(True, 2), "triple": net(False, 3)}


@pytest.mark.kernels
@pytest.mark.parametrize(
    "cards", [["AS", "5H", "9D", "KC", "5S", "9H"], ["2S", "2H", "8D", "8C", "QS", "3H", "7D"]]
)
def test_the_best_play_is_the_best_of_every_pure_strategy(cards):
    data = {
        "name": "Small",
        "game": SMALL_GAME,
        "bet": [
            {
                "id": "hand",
                "rule": [
                    {"when": "winner == 'player'", "pays": "1:1"},
                    {"when": "winner == 'tie'", "pays": "push"},
                ],
            }
        ],
    }
    result = analyze(paytable=paytable_from_dict(data, "s.toml"), shoe=shoe_of(cards))
    seen = lambda dealt: (naive.value(dealt[0]),)  # noqa: E731
    expected = naive.every_pure_strategy_best(cards, 4, seen, _small_nets())
    assert result.result("hand").expected_value == expected
    table = result.strategy("hand")
    assert set(table["best"]) <= {"keep", "draw", "triple"}
    assert sum(table["probability"]) == 1


def test_stephen_hows_lucky_draw_figures():
    """Stephen How, "Lucky Draw Baccarat" (discountgambling.net, October 2, 2013), 8 decks,
    optimal decisions: pay table 1 nets -44,813,537,562,624 of 2,499,199,137,751,680 deals
    (house edge 1.79%), pay table 2 3.34%; his counts are of half the ordered sequences."""
    first = analyze(paytable="lucky-draw-baccarat-1").result("enter")
    assert first.expected_value == Fraction(-44_813_537_562_624, 2_499_199_137_751_680)
    assert [line.ways // 2 for line in first.lines[:3]] == [
        134_129_168_192_512,
        98_365_258_946_560,
        93_724_551_243_776,
    ]
    second = analyze(paytable="lucky-draw-baccarat-2").result("enter")
    assert round(float(100 * second.house_edge), 2) == 3.34


#: The small game with a fold beside its raises: a surrender that loses half the stake.
FOLD_ACTIONS = [
    {"name": "keep"},
    {"name": "draw", "draws": "player", "stake": 2},
    {"name": "surrender", "pays": "lose 1/2"},
]
HAND_BET = {
    "id": "hand",
    "rule": [
        {"when": "winner == 'player'", "pays": "1:1"},
        {"when": "winner == 'tie'", "pays": "push"},
    ],
}


@pytest.mark.kernels
@pytest.mark.parametrize(
    ("cards", "fold"),
    [
        (["AS", "5H", "9D", "KC", "5S", "9H"], "lose 1/2"),
        (["2S", "2H", "8D", "8C", "QS", "3H", "7D"], "lose 1/2"),
        (["AS", "2H", "9D", "9C", "9S", "8H"], "lose"),
    ],
)
def test_a_fold_is_solved_as_the_best_of_every_pure_strategy(cards, fold):
    """A fold forfeits a fixed share of the stake whatever the cards: every pure strategy
    of the small game with a surrender (or a fold) beside keep and draw, tried by hand,
    equals the engine; the folded rounds are one line of their own."""
    actions = [*FOLD_ACTIONS[:2], {"name": "surrender", "pays": fold}]
    game = {**SMALL_GAME, "decision": {"sees": ["player_card1"], "actions": actions}}
    data = {"name": "Fold", "game": game, "bet": [HAND_BET]}
    result = analyze(paytable=paytable_from_dict(data, "f.toml"), shoe=shoe_of(cards))
    share = Fraction(1, 2) if fold == "lose 1/2" else Fraction(1)
    nets = _small_nets()
    nets = {"keep": nets["keep"], "draw": nets["draw"], "surrender": lambda dealt: -share}
    seen = lambda dealt: (naive.value(dealt[0]),)  # noqa: E731
    expected = naive.every_pure_strategy_best(cards, 4, seen, nets)
    hand = result.result("hand")
    assert hand.expected_value == expected
    folded = hand.lines[-1]
    assert folded.when == "action == 'surrender'" and folded.payout.net == -share
    table = result.strategy("hand")
    assert sum(table["probability"]) == 1
    assert set(table["ev_surrender"]) == {-share}
    pairs = zip(table["probability"], table["best"], strict=True)
    surrendered = sum(p for p, b in pairs if b == "surrender")
    assert folded.probability == surrendered


@pytest.mark.kernels
def test_folding_is_the_best_play_in_some_sets_of_a_tiny_game():
    """One card each, no draw: holding an ace (1) against a shoe of nines the player
    loses for sure and surrenders half (a two too); holding a nine they double."""
    game = {
        "name": "Fold game",
        "hands": [{"name": "player", "cards": 1}, {"name": "dealer", "cards": 1}],
        "decision": {
            "sees": ["player_card1"],
            "actions": [
                {"name": "keep"},
                {"name": "double", "stake": 2},
                {"name": "surrender", "pays": "lose 1/2"},
            ],
        },
    }
    data = {"name": "Fold", "game": game, "bet": [HAND_BET]}
    cards = ["AS", "2H", "9D", "9C", "9S", "9H"]
    result = analyze(paytable=paytable_from_dict(data, "f.toml"), shoe=shoe_of(cards))
    table = result.strategy("hand")
    best = dict(zip(table["player_card1"], table["best"], strict=True))
    assert best[1] == "surrender" and best[2] == "surrender" and best[9] == "double"

    def net(stake):
        def settle(dealt):
            player, dealer, _ = naive.drawn_round(dealt, 1, False, ())
            return Fraction(stake * ((player > dealer) - (player < dealer)))

        return settle

    nets = {"keep": net(1), "double": net(2), "surrender": lambda dealt: Fraction(-1, 2)}
    seen = lambda dealt: (naive.value(dealt[0]),)  # noqa: E731
    expected = naive.every_pure_strategy_best(cards, 2, seen, nets)
    assert result.result("hand").expected_value == expected


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        ([{"name": "keep"}, {"name": "fold", "pays": "1:1"}], "a fold cannot win or push"),
        ([{"name": "keep"}, {"name": "fold", "pays": "push"}], "a fold cannot win or push"),
        ([{"name": "keep"}, {"name": "fold", "pays": "lose 3/2"}], "at most 1"),
        ([{"name": "keep"}, {"name": "fold", "pays": "lose 0"}], "more than 0"),
        ([{"name": "keep"}, {"name": "fold", "pays": 1}], "a fold cannot win"),
        ([{"name": "keep"}, {"name": "fold", "pays": "lose", "stake": 2}], "no 'draws' nor"),
        ([{"name": "a", "pays": "lose"}, {"name": "b", "pays": "lose 1/2"}], "every action"),
        (
            [{"name": "keep"}, {"name": "a", "pays": "lose"}, {"name": "b", "pays": "lose 1"}],
            "do the same",
        ),
    ],
)
def test_a_bad_fold_is_one_line(actions, message):
    data = {**SMALL_GAME, "decision": {"sees": ["player_card1"], "actions": actions}}
    with pytest.raises(AnalyzerError, match=message) as caught:
        game_from_table(data)
    assert "\n" not in str(caught.value)


def test_a_fold_on_a_bet_whose_rules_settle_it_is_one_line():
    game = {**SMALL_GAME, "decision": {"sees": ["player_card1"], "actions": FOLD_ACTIONS}}
    bet = {
        "id": "hand",
        "rule": [
            {"when": "action == 'surrender'", "pays": "push"},
            {"when": "winner == 'player'", "pays": "1:1"},
        ],
    }
    with pytest.raises(AnalyzerError, match="rule 1 settles the fold 'surrender'") as caught:
        paytable_from_dict({"name": "F", "game": game, "bet": [bet]}, "f.toml")
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"decision": {"sees": ["player_card3"], "actions": SMALL_GAME["decision"]["actions"]}},
            "does not deal",
        ),
        ({"decision": {"sees": ["player_card1"], "actions": [{"name": "keep"}]}}, "at least two"),
        (
            {"decision": {"sees": ["player_card1"], "actions": [{"name": "a"}, {"name": "a"}]}},
            "one name",
        ),
        (
            {
                "decision": {
                    "sees": ["player_card1"],
                    "actions": [{"name": "a"}, {"name": "b", "draws": "dealer"}],
                }
            },
            "'draws' must name a hand",
        ),
        (
            {
                "decision": {
                    "sees": ["player_card1"],
                    "actions": [{"name": "a"}, {"name": "b", "stake": 0}],
                }
            },
            "'stake'",
        ),
        ({"decision": None}, "neither 'draws'"),
        ({"score": "rank"}, "scores 'points'"),
    ],
)
def test_a_bad_decision_is_one_line(change, message):
    data = {**SMALL_GAME, **change}
    if data.get("decision") is None:
        data.pop("decision")
    with pytest.raises(AnalyzerError, match=message) as caught:
        game_from_table(data)
    assert "\n" not in str(caught.value)


@pytest.mark.kernels
def test_a_decision_that_only_raises_the_stake_is_solved_too():
    """Peek-like: one card each, no card after the deal; seeing their card the player
    keeps the stake or triples it. Every pure strategy tried by hand."""
    data = {
        "name": "Raise",
        "game": {
            "name": "Raise on one card",
            "hands": [{"name": "player", "cards": 1}, {"name": "dealer", "cards": 1}],
            "decision": {
                "sees": ["player_card1"],
                "actions": [{"name": "keep"}, {"name": "triple", "stake": 3}],
            },
        },
        "bet": [
            {
                "id": "hand",
                "rule": [
                    {"when": "winner == 'player'", "pays": "1:1"},
                    {"when": "winner == 'tie'", "pays": "push"},
                ],
            }
        ],
    }
    cards = ["AS", "5H", "9D", "KC", "5S", "9H", "3C"]
    result = analyze(paytable=paytable_from_dict(data, "r.toml"), shoe=shoe_of(cards))

    def net(stake):
        def settle(dealt):
            player, dealer, _ = naive.drawn_round(dealt, 1, False, ())
            return Fraction(stake * ((player > dealer) - (player < dealer)))

        return settle

    seen = lambda dealt: (naive.value(dealt[0]),)  # noqa: E731
    nets = {"keep": net(1), "triple": net(3)}
    expected = naive.every_pure_strategy_best(cards, 2, seen, nets)
    assert result.result("hand").expected_value == expected
    assert set(result.strategy("hand")["best"]) == {"keep", "triple"}


@pytest.mark.parametrize("cards", TINY[:2])
def test_a_random_reveal_of_a_games_decision_is_each_reveal_solved_alone(cards):
    """Lucky Draw with the cards seen shown at random (none, one, or all three): each
    reveal is its own game of information, played by its own best play, so the EV is the
    reveals' EVs (every deal, best action per set of the cards shown) weighed by their
    chances. Seeing fewer cards is never worth more."""
    import itertools
    import tomllib

    from analyzer.files import shipped_folder

    def toml(package: str, folder: str, name: str) -> dict:
        path = shipped_folder(package, *folder.split("/")) / f"{name}.toml"
        return tomllib.loads(path.read_text(encoding="utf-8"))

    game = toml("analyzer.game", "games", "lucky-draw-baccarat")
    game["decision"]["shown"] = {"0": "1/4", "1": "1/4", "3": "1/2"}
    data = toml("analyzer.paytables", "shipped/paytables", "lucky-draw-baccarat-1") | {"game": game}
    result = analyze(paytable=paytable_from_dict(data, "r.toml"), shoe=shoe_of(cards))
    nets = _lucky_draw_nets(Fraction(2))
    expected = Fraction(0)
    for k, chance in ((0, Fraction(1, 4)), (1, Fraction(1, 4)), (3, Fraction(1, 2))):
        for kept in itertools.combinations(range(3), k):
            seen = lambda dealt, kept=kept: tuple(_seen(dealt)[i] for i in kept)  # noqa: E731
            ev = naive.best_decision_ev(cards, 6, seen, nets)
            expected += chance / len(list(itertools.combinations(range(3), k))) * ev
    assert result.result("enter").expected_value == expected
    full = analyze(paytable="lucky-draw-baccarat-1", shoe=shoe_of(cards)).result("enter")
    assert result.result("enter").expected_value <= full.expected_value
