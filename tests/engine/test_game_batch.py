"""The batch engine of a game dealt once (floats, many shoes at once) against the exact
analysis on partly dealt shoes, and against every physical deal of tiny shoes, written
apart from the engine (tests/naive_family.py)."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import naive_family as nf
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import AnalyzerError, Shoe, analyze
from analyzer.engine import game_batch
from analyzer.engine.game_batch import (
    card_classes,
    check_dealt_once,
    check_round_terms,
    game_terms,
    terms_count,
)
from analyzer.paytables.library import as_paytable
from analyzer.paytables.model import paytable_from_dict, with_values

#: Every test here runs the kernels (CI reruns them with the JIT off, for coverage).
pytestmark = pytest.mark.kernels

DRAGON_TIGERS = (
    "dragon-tiger",
    "dragon-tiger-evolution",
    "dragon-tiger-pragmatic",
    "dragon-tiger-sa-gaming",
)
#: Lightning Dragon Tiger's multipliers at values of one's own (its published RTPs
#: leave them unknown): its bets priced by the multipliers' exact moments.
LIGHTNING = {"p3": Fraction(1, 5), "p5": Fraction(1, 10), "p8": Fraction(1, 20)}
#: The most a float EV here strays from the exact one: a few units of round-off (the
#: worst measured over these tests is 4e-15).
ROUND_OFF = 1e-13


def _paytable(name: str):
    paytable = as_paytable(name)
    return with_values(paytable, unknowns=LIGHTNING) if paytable.unknowns else paytable


def _offered(paytable):
    return [bet for bet, _ in paytable.offered(paytable.modes)]


def _shoe(counts: np.ndarray) -> Shoe:
    suits = np.asarray(counts, dtype=np.int64).reshape(13, 4)
    return Shoe(suits.sum(axis=1), suits)


def _worst_error(paytable, counts: np.ndarray) -> float:
    """The largest gap between the batch engine's EVs on ``counts`` and the exact
    analysis' on the same shoe, over every bet offered."""
    bets = _offered(paytable)
    got = game_batch.game_batch(paytable.game, bets).expected_values(counts[None, :])[0]
    exact = {
        r.bet.id: r.expected_value for r in analyze(paytable=paytable, shoe=_shoe(counts)).results
    }
    return max(abs(got[b] - float(exact[bet.id])) for b, bet in enumerate(bets))


@st.composite
def depleted(draw, max_decks: int = 8, fewest: int = 6) -> np.ndarray:
    """A partly dealt shoe's card counts (52, rank-major): drawn card by card down to a
    round's cards, some whole ranks exhausted, so a failure shrinks to a tiny shoe."""
    decks = draw(st.integers(1, max_decks))
    left = draw(st.integers(fewest, 52 * decks))
    kept = draw(st.lists(st.integers(0, 52 * decks - 1), min_size=left, max_size=left, unique=True))
    counts = np.bincount(np.array(kept) % 52, minlength=52)
    for rank in draw(st.lists(st.integers(0, 12), max_size=3)):
        if counts.sum() - counts[4 * rank : 4 * rank + 4].sum() >= fewest:
            counts[4 * rank : 4 * rank + 4] = 0
    return counts


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.sampled_from((*DRAGON_TIGERS, "lightning-dragon-tiger")), depleted())
def test_dragon_tiger_matches_the_exact_analysis_on_depleted_shoes(name, counts) -> None:
    assert _worst_error(_paytable(name), counts) < ROUND_OFF


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(depleted(max_decks=2))
def test_three_card_baccarat_matches_the_exact_analysis_on_depleted_shoes(counts) -> None:
    assert _worst_error(as_paytable("three-card-baccarat"), counts) < ROUND_OFF


def test_the_batch_matches_the_exact_analysis_on_a_few_fixed_shoes() -> None:
    """The quick check of the two above: full and dealt-down shoes, the measured gap."""
    rng = np.random.default_rng(5)
    worst = 0.0
    for name, decks, left in (
        ("dragon-tiger-pragmatic", 8, 40),
        ("lightning-dragon-tiger", 8, 416),
        ("three-card-baccarat", 1, 20),
    ):
        cards = np.repeat(np.arange(52), decks)
        counts = np.bincount(rng.choice(cards, left, replace=False), minlength=52)
        worst = max(worst, _worst_error(_paytable(name), counts))
    assert worst < ROUND_OFF


# -- Every physical deal of a tiny shoe --------------------------------------------------


def _dragon_tiger_nets(dealt: tuple[str, str]) -> dict[str, Fraction]:
    """The shipped Dragon Tiger's bets (Tie 8:1, Suited Tie 50:1, Big and Small losing on
    a 7) on one deal, by hand."""
    dragon, tiger = dealt
    winner = nf.dragon_tiger_winner(dragon, tiger)
    half = Fraction(-1, 2)
    nets = {
        "dragon": Fraction(1) if winner == "dragon" else half if winner == "tie" else Fraction(-1),
        "tiger": Fraction(1) if winner == "tiger" else half if winner == "tie" else Fraction(-1),
        "tie": Fraction(8) if winner == "tie" else Fraction(-1),
        "suited_tie": Fraction(50) if dragon == tiger else Fraction(-1),
    }
    for hand, card in (("dragon", dragon), ("tiger", tiger)):
        number = nf.rank_number(card)
        nets[f"{hand}_big"] = Fraction(1 if number >= 8 else -1)
        nets[f"{hand}_small"] = Fraction(1 if number <= 6 else -1)
    return nets


def _three_card_nets(dealt: tuple[str, ...]) -> dict[str, Fraction]:
    """The shipped Three Card Baccarat's bets on one deal (the Player's three cards, then
    the Dealer's), by hand."""
    player, dealer = dealt[:3], dealt[3:]
    winner = nf.three_card_winner(player, dealer)
    pays = Fraction(19, 20)
    nets = {
        "player": pays if winner == "player" else Fraction(0 if winner == "tie" else -1),
        "dealer": pays if winner == "dealer" else Fraction(0 if winner == "tie" else -1),
        "tie": Fraction(20) if winner == "tie" else Fraction(-1),
        "three_faces": Fraction(16)
        if all(nf.rank(c) in nf.PICTURES for c in dealer)
        else Fraction(-1),
    }
    for total in range(10):
        nets[f"dealer_total_{total}"] = Fraction(8 if nf.points(dealer) == total else -1)
    return nets


def _brute_force(cards: list[str], n: int, nets) -> dict[str, Fraction]:
    """Every bet's exact EV over every ordered deal of ``n`` physical cards."""
    totals: dict[str, Fraction] = {}
    deals = 0
    for dealt in nf.every_deal(cards, n):
        deals += 1
        for bet, net in nets(dealt).items():
            totals[bet] = totals.get(bet, Fraction(0)) + net
    return {bet: total / deals for bet, total in totals.items()}


def _counts(cards: list[str]) -> np.ndarray:
    ranks = {r: i for i, r in enumerate(nf.RANK_ORDER)}
    index = [4 * ranks[nf.rank(c)] + "SHDC".index(nf.suit(c)) for c in cards]
    return np.bincount(index, minlength=52)


@pytest.mark.parametrize(
    ("name", "n", "nets", "cards"),
    [
        ("dragon-tiger", 2, _dragon_tiger_nets, ["AS", "AS", "AH", "7D", "8C", "KS", "KS"]),
        ("dragon-tiger", 2, _dragon_tiger_nets, ["2H", "2H", "2H", "QC", "9D", "7S"]),
        (
            "three-card-baccarat",
            6,
            _three_card_nets,
            ["JS", "QH", "KD", "JC", "5S", "4H", "10C"],
        ),
        (
            "three-card-baccarat",
            6,
            _three_card_nets,
            ["9S", "9H", "KD", "QC", "AS", "AH", "8C", "JH"],
        ),
    ],
)
def test_tiny_shoes_match_every_physical_deal(name, n, nets, cards) -> None:
    paytable = as_paytable(name)
    bets = _offered(paytable)
    got = game_batch.game_batch(paytable.game, bets).expected_values(_counts(cards)[None, :])
    reference = _brute_force(cards, n, nets)
    assert set(reference) == {bet.id for bet in bets}
    for b, bet in enumerate(bets):
        assert got[0, b] == pytest.approx(float(reference[bet.id]), abs=ROUND_OFF), bet.id


# -- Classes, terms and what is refused --------------------------------------------------


def _own_game(bets: list[dict]) -> object:
    """A game of one's own, two cards each by points (alternate deal), with ``bets``."""
    return paytable_from_dict(
        {
            "name": "Two and two",
            "decks": 2,
            "game": {
                "name": "Two and two",
                "hands": [{"name": "left", "cards": 2}, {"name": "right", "cards": 2}],
            },
            "bet": bets,
        },
        "own.toml",
    )


def test_cards_are_told_apart_no_finer_than_a_bet_asks() -> None:
    own = _own_game(
        [
            {"id": "left", "rule": [{"when": "winner == 'left'", "pays": "1:1"}]},
            {"id": "seven", "rule": [{"when": "left_card1_value == 7", "pays": "11:1"}]},
            {"id": "king", "rule": [{"when": "right_card2_rank == 'K'", "pays": "11:1"}]},
            {"id": "red", "rule": [{"when": "left_card2_colour == 'red'", "pays": "0.9:1"}]},
        ]
    )
    classes = {bet.id: int(card_classes(own.game, bet.fields).max()) + 1 for bet in own.bets}
    # Points and pictures (11), ranks (13), and ranks by suit (52): the 10 and the
    # pictures are one point value, told apart by pictures only.
    assert classes == {"left": 11, "seven": 11, "king": 13, "red": 44}
    # Terms: the multisets of four cards of a group's classes, each group once (the
    # first two bets tell the same cards apart).
    assert terms_count(own.game, own.bets) == comb(14, 4) + comb(16, 4) + comb(47, 4)
    walked = [bet for bet in own.bets if bet.id != "red"]  # (by suit: over the deal walk's budget)
    exact = analyze(paytable=own, bets=[bet.id for bet in walked])
    got = game_batch.game_batch(own.game, walked).expected_values(np.full((1, 52), 2))
    for b, bet in enumerate(walked):
        assert got[0, b] == pytest.approx(float(exact.result(bet.id).expected_value), abs=ROUND_OFF)


def test_a_round_over_the_terms_budget_is_refused_in_one_line(monkeypatch) -> None:
    paytable = as_paytable("dragon-tiger")
    check_round_terms(paytable.game, paytable.bets)  # 1,469 terms: within
    monkeypatch.setattr(game_batch, "MAX_ROUND_TERMS", 1000)
    with pytest.raises(
        AnalyzerError, match=r"sums 1,469 terms, over the budget of 1,000"
    ) as caught:
        check_round_terms(paytable.game, paytable.bets)
    assert "\n" not in str(caught.value)


def test_a_game_that_draws_or_decides_is_refused_in_one_line() -> None:
    lucky = as_paytable("lucky-draw-baccarat-1")
    with pytest.raises(AnalyzerError, match="has a player's decision") as caught:
        game_terms(lucky.game, lucky.bets)
    message = str(caught.value)
    assert "\n" not in message and "simulate" in message and message.endswith("take it)")
    # The commands that take it: count and dealt too, solving its play round by round.
    assert {"count", "dealt"} <= set(message.rsplit("(", 1)[1].replace(",", " ").split())
    check_dealt_once(as_paytable("dragon-tiger").game, "count")  # dealt once: taken


def test_bad_compositions_are_refused() -> None:
    paytable = as_paytable("dragon-tiger")
    batch = game_batch.game_batch(paytable.game, paytable.bets)
    for counts in (np.zeros((1, 52)), np.full((2, 13), 8), -np.ones((1, 52))):
        with pytest.raises(AnalyzerError):
            batch.expected_values(counts)
    one = np.zeros((1, 52), dtype=np.int64)
    one[0, 7] = 2  # two cards: a round's
    assert batch.expected_values(one).shape == (1, len(paytable.bets))
