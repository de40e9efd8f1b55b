"""Single cards' fields of a game whose hands draw or decide (Lucky Draw Baccarat), priced
exactly, against plain-Python deals of every card.

A side bet of Lucky Draw may ask about each card a round may deal: the first four and
each hand's third (``''`` where not taken). The walk by card classes tells those cards
apart by rank, or by rank and suit, only where a bet asks. The references deal every
ordered sequence of a tiny shoe's physical cards (tests/naive_family.py), settle each
bet by hand under each action (a draw stakes two units: the action's stake raises every
bet of the round) and keep each information set's best action (the point values of the
player's two cards and the dealer's first), as every bet of the game is played.
"""

from __future__ import annotations

import tomllib
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import analyze
from analyzer.engine.deal_walk import (
    INFORMATION,
    MAX_DRAWN_CELLS,
    MAX_DRAWN_STEPS,
    card_levels,
    check_deal_walk,
    drawn_bounds,
    drawn_tables,
)
from analyzer.errors import AnalyzerError
from analyzer.files import shipped_folder
from analyzer.game.games import named_game
from analyzer.game.shoe import Shoe
from analyzer.paytables.model import paytable_from_dict
from tests import naive_family as naive
from tests.engine.test_deal_walk import shoe_of

LUCKY = named_game("lucky-draw-baccarat")


def _rank(card: str | None) -> str:
    return "" if card is None else naive.rank(card)


def _suit(card: str | None) -> str:
    return "" if card is None else naive.suit(card)


def _third(hand: list[str]) -> str | None:
    return hand[2] if len(hand) > 2 else None


#: Side bets: (condition, payout, the net per unit staked of a round dealt by hand).
SIDE_BETS = {
    "player_pair": (
        "player_card1_rank == player_card2_rank",
        "11:1",
        lambda r: 11 if _rank(r["player"][0]) == _rank(r["player"][1]) else -1,
    ),
    "dealer_pair": (
        "dealer_card1_rank == dealer_card2_rank",
        "11:1",
        lambda r: 11 if _rank(r["dealer"][0]) == _rank(r["dealer"][1]) else -1,
    ),
    "suited": (
        "player_card1_suit == player_card2_suit and dealer_card1_colour == 'red'",
        "5:1",
        lambda r: (
            5
            if _suit(r["player"][0]) == _suit(r["player"][1]) and _suit(r["dealer"][0]) in "HD"
            else -1
        ),
    ),
    "suited_pair": (
        "dealer_card1_rank == dealer_card2_rank and dealer_card1_suit == dealer_card2_suit",
        "25:1",
        lambda r: 25 if r["dealer"][0] == r["dealer"][1] else -1,
    ),
    "king_then_heart": (  # (a card by rank, another by suit: the king of hearts is both)
        "player_card1_rank == 'K' and player_card2_suit == 'H' and dealer_card1_rank != 'K'",
        "8:1",
        lambda r: (
            8
            if _rank(r["player"][0]) == "K"
            and _suit(r["player"][1]) == "H"
            and _rank(r["dealer"][0]) != "K"
            else -1
        ),
    ),
    "third_seven": (
        "player_card3_rank == '7' or dealer_card3_rank == 'K'",
        "4:1",
        lambda r: (
            4 if _rank(_third(r["player"])) == "7" or _rank(_third(r["dealer"])) == "K" else -1
        ),
    ),
    "third_suits": (
        "player_card3_suit == dealer_card3_suit and dealer_card3_value >= 0 and winner == 'dealer'",
        "6:1",
        lambda r: (
            6
            if _third(r["dealer"]) is not None
            and _suit(_third(r["player"])) == _suit(_third(r["dealer"]))
            and r["winner"] == "dealer"
            else -1
        ),
    ),
    "stood_on_a_king": (
        "dealer_card3_rank == '' and player_card2_rank == 'K' and player_score >= 6",
        "3:1",
        lambda r: (
            3
            if _third(r["dealer"]) is None
            and _rank(r["player"][1]) == "K"
            and naive.points(tuple(r["player"])) >= 6
            else -1
        ),
    ),
}


def _paytable(bets, game="lucky-draw-baccarat", decks=1):
    data = {
        "name": "Lucky Draw side bets",
        "game": game,
        "decks": decks,
        "bet": [
            {"id": bet, "rule": [{"when": SIDE_BETS[bet][0], "pays": SIDE_BETS[bet][1]}]}
            for bet in bets
        ],
    }
    return paytable_from_dict(data, "side.toml")


def _seen(dealt):  # the player's two cards and the dealer's first, by point value
    return (naive.value(dealt[0]), naive.value(dealt[2]), naive.value(dealt[1]))


def _nets(bet: str):
    """Each action's net of ``bet`` in base stakes, the round dealt by hand (a draw
    stakes two)."""
    settle = SIDE_BETS[bet][2]

    def of(draw: bool):
        stake = 2 if draw else 1
        return lambda dealt: stake * Fraction(settle(naive.lucky_draw_round(dealt, draw, 0)))

    return {"stand": of(False), "draw": of(True)}


TINY = [
    ["AS", "2H", "5D", "9C", "KS", "7H", "3D", "8C"],
    ["4S", "4H", "6D", "6C", "QS", "QH", "2D"],
    ["7S", "7H", "KD", "KC", "JS", "QH", "7D", "KS"],
    ["9H", "9H", "KH", "KH", "2S", "7C", "AD"],  # (repeated cards: several decks)
    ["KH", "KH", "KS", "3H", "KD", "5C", "JH"],
]


def test_the_fields_of_every_card_a_round_may_deal():
    names = set(LUCKY.vocabulary)
    for card in ("player_card1", "dealer_card2", "player_card3", "dealer_card3"):
        assert {f"{card}_{a}" for a in ("rank", "suit", "colour", "value")} <= names
    assert "player_card4_rank" not in names and "player_pictures" not in names
    third = LUCKY.vocabulary["player_card3_rank"]
    assert third.card_level and third.values[-1] == "" and "K" in third.values
    assert (
        LUCKY.vocabulary["dealer_card3_value"].low,
        LUCKY.vocabulary["dealer_card3_value"].high,
    ) == (-1, 9)
    assert LUCKY.vocabulary["player_card1_suit"].values == ("S", "H", "D", "C")
    assert LUCKY.slot_name(4) == "player_card3" and LUCKY.slot_name(5) == "dealer_card3"


def test_the_issues_paytable_is_taken():
    text = """
name = "LD side"
game = "lucky-draw-baccarat"
decks = 8
[[bet]]
id = "pp"
rule = [{ when = "player_card1_rank == player_card2_rank", pays = "11:1" }]
"""
    paytable = paytable_from_dict(tomllib.loads(text), "ld.toml")
    assert paytable.bets[0].card_level
    result = analyze(paytable=paytable).result("pp")
    assert result.hit_frequency == Fraction(31, 415)  # a second card of the first's rank


def test_each_card_is_walked_only_as_finely_as_asked():
    fields = frozenset({"player_card1_rank", "dealer_card3_colour", "player_card2_value"})
    assert card_levels(LUCKY, fields) == (1, -1, 0, -1, -1, 2)
    assert card_levels(LUCKY, frozenset({"winner", "action"})) == (-1,) * 6
    # No field of a single card: the walk by values, nothing to bound.
    assert drawn_bounds(LUCKY, Shoe.standard(8), frozenset({"winner"})) == (0, 0)


@pytest.mark.parametrize(
    "cards",
    # (the kernel's own lines, with the JIT off: one shoe, cheap in plain Python)
    [pytest.param(TINY[0], marks=pytest.mark.kernels), *TINY[1:]],
)
@pytest.mark.parametrize("bet", list(SIDE_BETS))
def test_a_side_bet_under_its_best_play_equals_every_deal(cards, bet):
    expected = naive.best_decision_ev(cards, 6, _seen, _nets(bet))
    result = analyze(paytable=_paytable([bet]), shoe=shoe_of(cards)).result(bet)
    assert result.expected_value == expected
    assert sum(line.ways for line in result.lines) == result.lines[0].over


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(naive.deck(1)), min_size=6, max_size=8, unique=True),
    st.sampled_from(sorted(SIDE_BETS)),
)
def test_side_bets_on_depleted_shoes_equal_every_deal(cards, bet):
    expected = naive.best_decision_ev(cards, 6, _seen, _nets(bet))
    result = analyze(paytable=_paytable([bet]), shoe=shoe_of(cards)).result(bet)
    assert result.expected_value == expected


@pytest.mark.kernels
def test_on_a_shoe_dealt_with_replacement_too():
    cards = ["AS", "KH", "7D"]
    shoe = shoe_of(cards, replacement=True)
    for bet in ("player_pair", "suited", "third_seven"):
        expected = naive.best_decision_ev(cards, 6, _seen, _nets(bet), replacement=True)
        assert analyze(paytable=_paytable([bet]), shoe=shoe).result(bet).expected_value == expected


@pytest.mark.kernels
def test_the_cards_of_a_game_that_draws_by_its_rules_alone():
    """No decision: the Player draws on 0-5 and the Dealer on 0-4 by their rules; a bet
    on each third card, settled on every deal."""
    game = {
        "name": "Both draw",
        "hands": [
            {"name": "player", "cards": 2, "extra": 1, "draws": "0-5"},
            {"name": "dealer", "cards": 2, "extra": 1, "draws": "0-4"},
        ],
    }
    data = {
        "name": "Thirds",
        "game": game,
        "bet": [
            {
                "id": "thirds",
                "rule": [
                    {"when": "player_card3_rank == dealer_card3_rank", "pays": "5:1"},
                    {"when": "player_card1_suit == 'S' and winner == 'player'", "pays": "2:1"},
                ],
            }
        ],
    }
    cards = ["AS", "2H", "5D", "9C", "KS", "7H", "3D", "2C"]

    def net(dealt):
        player = [dealt[0], dealt[2]]
        dealer = [dealt[1], dealt[3]]
        rest = list(dealt[4:])
        if naive.points(tuple(player)) <= 5:
            player.append(rest.pop(0))
        if naive.points(tuple(dealer)) <= 4:
            dealer.append(rest.pop(0))
        if _rank(_third(player)) == _rank(_third(dealer)):
            return Fraction(5)
        p, d = naive.points(tuple(player)), naive.points(tuple(dealer))
        return Fraction(2 if naive.suit(player[0]) == "S" and p > d else -1)

    result = analyze(paytable=paytable_from_dict(data, "t.toml"), shoe=shoe_of(cards))
    assert result.result("thirds").expected_value == naive.expected_net(cards, 6, net)


@pytest.mark.parametrize("cards", [pytest.param(TINY[0], marks=pytest.mark.kernels), TINY[1]])
def test_the_walk_by_classes_sums_to_the_walk_by_values(cards):
    """Summed over the cards' classes, the walk by card classes gives each action's ways
    of every (information set, winner, scores, cards taken) the walk by values gives."""
    shoe = shoe_of(cards)
    plain_fields = frozenset({"winner", "dealer_score", "player_cards"})
    fine_fields = plain_fields | {"player_card1_suit", "dealer_card2_rank", "dealer_card3_colour"}
    actions = LUCKY.decision.actions
    plain = drawn_tables(LUCKY, shoe, plain_fields, actions)
    fine = drawn_tables(LUCKY, shoe, fine_fields, actions)
    keys = [INFORMATION, *sorted(plain_fields)]
    for action in actions:
        assert fine[action].denominator == plain[action].denominator
        totals: dict[tuple, int] = {}
        for table, sign in ((plain[action], 1), (fine[action], -1)):
            for i, ways in enumerate(table.ways.tolist()):
                key = tuple(table.columns[name][i] for name in keys)
                totals[key] = totals.get(key, 0) + sign * ways
        assert not any(totals.values())
        assert set(fine[action].columns["dealer_card3_colour"]) == {"red", "black", ""}


def _shipped(name: str) -> dict:
    path = shipped_folder("analyzer.paytables", "shipped", "paytables") / f"{name}.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


def test_stephen_hows_figures_are_unchanged_beside_side_bets():
    """The Enter bet walked by values beside side bets walked by classes: its figures are
    How's (tests/analysis/test_decisions.py), every line's ways as alone."""
    alone = analyze(paytable="lucky-draw-baccarat-1").result("enter")
    data = _shipped("lucky-draw-baccarat-1")
    data["bet"] += [
        {"id": bet, "rule": [{"when": SIDE_BETS[bet][0], "pays": SIDE_BETS[bet][1]}]}
        for bet in ("player_pair", "third_seven")
    ]
    both = analyze(paytable=paytable_from_dict(data, "ld.toml"))
    enter = both.result("enter")
    assert enter.expected_value == Fraction(-44_813_537_562_624, 2_499_199_137_751_680)
    assert [line.ways for line in enter.lines] == [line.ways for line in alone.lines]
    assert (
        both.strategy("enter")["best"].tolist()
        == analyze(paytable="lucky-draw-baccarat-1").strategy("enter")["best"].tolist()
    )


@pytest.mark.parametrize("cards", TINY[:2])
def test_the_main_bet_priced_with_a_side_bets_fields_is_priced_alike(cards):
    """A bet reading the main bet's fields and a card's: the walk by classes settles the
    main fields as the walk by values does (the Enter bet's every deal, tests/analysis/
    test_decisions.py)."""
    data = _shipped("lucky-draw-baccarat-1")
    rules = data["bet"][0]["rule"]
    data["bet"][0]["rule"] = [
        {**rule, "when": f"({rule['when']}) and player_card1_value >= 0"} for rule in rules
    ]
    fine = analyze(paytable=paytable_from_dict(data, "ld.toml"), shoe=shoe_of(cards))
    plain = analyze(paytable="lucky-draw-baccarat-1", shoe=shoe_of(cards))
    assert fine.result("enter").expected_value == plain.result("enter").expected_value


def test_a_side_bet_is_played_by_its_own_best_action():
    """On 8 decks the Dealer pair's every set stands (its EV is below zero in each: a
    draw would stake two), so it is priced as dealt, 1 - 12 * 31/415; the Player pair
    sees its pair's values and draws where they match (a draw raises it too)."""
    analysis = analyze(paytable=_paytable(["dealer_pair", "player_pair"], decks=8))
    dealer = analysis.result("dealer_pair")
    assert dealer.house_edge == 1 - 12 * Fraction(31, 415)
    assert set(analysis.strategy("dealer_pair")["best"]) == {"stand"}
    player = analysis.strategy("player_pair")
    matched = player[(player["player_card1"] == player["player_card2"])]
    assert set(matched["best"]) == {"draw"} and set(player["best"]) == {"stand", "draw"}


def test_a_walk_over_its_budget_is_refused_before_any_work():
    every_suit = frozenset(f"{card}_suit" for card in map(LUCKY.slot_name, range(6)))
    with pytest.raises(AnalyzerError, match="over the budget") as caught:
        check_deal_walk(LUCKY, Shoe.standard(8), every_suit, bet="all_suits")
    message = str(caught.value)
    assert "\n" not in message and message.startswith("bet 'all_suits': Lucky Draw Baccarat: ")
    assert f"{MAX_DRAWN_STEPS:,}" in message and "player_card3 by suit" in message
    steps, cells = drawn_bounds(LUCKY, Shoe.standard(8), every_suit)
    assert steps > MAX_DRAWN_STEPS >= MAX_DRAWN_CELLS > cells
    # Within the steps, over the cells it would hold: three cards by rank, beside the
    # winner and the cards each hand took.
    ranks = frozenset(
        {"winner", "player_cards", "dealer_cards"}
        | {f"{card}_rank" for card in ("dealer_card2", "player_card3", "dealer_card3")}
    )
    steps, cells = drawn_bounds(LUCKY, Shoe.standard(8), ranks)
    assert steps <= MAX_DRAWN_STEPS and cells > MAX_DRAWN_CELLS
    with pytest.raises(AnalyzerError, match=f"cells, over the budget of {MAX_DRAWN_CELLS:,}"):
        check_deal_walk(LUCKY, Shoe.standard(8), ranks)
    # The same walk on a tiny shoe is within it.
    check_deal_walk(LUCKY, shoe_of(TINY[0]), every_suit)


def test_a_bet_over_the_budget_is_unavailable_and_the_others_priced():
    data = {
        "name": "LD",
        "game": "lucky-draw-baccarat",
        "decks": 8,
        "bet": [
            {"id": "dealer_pair", "rule": [{"when": SIDE_BETS["dealer_pair"][0], "pays": "11:1"}]},
            {
                "id": "all_suits",
                "rule": [
                    {
                        "when": " and ".join(f"{LUCKY.slot_name(s)}_suit == 'H'" for s in range(6)),
                        "pays": "1000:1",
                    }
                ],
            },
        ],
    }
    paytable = paytable_from_dict(data, "ld.toml")
    analysis = analyze(paytable=paytable)
    ((bet, _, why),) = analysis.unavailable
    assert bet == "all_suits" and "over the budget" in why and "\n" not in why
    assert analysis.result("dealer_pair").house_edge == 1 - 12 * Fraction(31, 415)
    with pytest.raises(
        AnalyzerError, match=r"^no bet can be computed exactly on this shoe: bet 'all_suits': "
    ):
        analyze(paytable=paytable, bets=["all_suits"])


def test_a_bet_on_suits_is_unavailable_where_the_suits_are_unknown():
    shoe = Shoe(Shoe.standard(1).rank_counts)
    analysis = analyze(paytable=_paytable(["suited", "player_pair"]), shoe=shoe)
    assert [bet for bet, _, _ in analysis.unavailable] == ["suited"]
    known = analyze(paytable=_paytable(["player_pair"]), shoe=Shoe.standard(1))
    assert (
        analysis.result("player_pair").expected_value == known.result("player_pair").expected_value
    )


def _riding_ev(cards: list[str], bet: str) -> Fraction:
    """A side bet beside Lucky Draw's Enter bet (pay table 1), by hand: every deal of
    ``cards``, each information set played by the Enter bet's best action (its nets
    summed per set, stand kept where they are equal), the side bet settled on that
    round at one stake (the draw raises the Enter bet only)."""
    settle = SIDE_BETS[bet][2]
    enter: dict[tuple, dict[bool, Fraction]] = {}
    side: dict[tuple, dict[bool, Fraction]] = {}
    deals = 0
    for dealt in naive.every_deal(cards, 6):
        deals += 1
        key = _seen(dealt)
        for draw in (False, True):
            dealt_round = naive.lucky_draw_round(dealt, draw, Fraction(2))
            enter.setdefault(key, {False: Fraction(0), True: Fraction(0)})[draw] += dealt_round[
                "net"
            ]
            side.setdefault(key, {False: Fraction(0), True: Fraction(0)})[draw] += settle(
                dealt_round
            )
    total = sum(side[key][enter[key][True] > enter[key][False]] for key in side)
    return Fraction(total) / deals


@pytest.mark.parametrize("cards", TINY[:3])
@pytest.mark.parametrize("bet", ["player_pair", "third_seven", "dealer_pair"])
def test_a_side_bet_rides_on_the_enter_bets_play(cards, bet):
    """Beside a bet that reads the action (the wager the decision raises), a side bet is
    not raised and not played by its own best action: it rides on the rounds as the
    Enter bet plays them, at one stake."""
    data = _shipped("lucky-draw-baccarat-1")
    data["bet"].append(
        {"id": bet, "rule": [{"when": SIDE_BETS[bet][0], "pays": SIDE_BETS[bet][1]}]}
    )
    paytable = paytable_from_dict(data, "ld.toml")
    assert paytable.decided == {"enter"}
    analysis = analyze(paytable=paytable, shoe=shoe_of(cards))
    assert analysis.result(bet).expected_value == _riding_ev(cards, bet)
    assert all(stake == 1 for line in analysis.result(bet).lines for stake, _ in line.stakes)
