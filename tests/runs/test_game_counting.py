"""Counting a game dealt once (Dragon Tiger, Three Card Baccarat): the shoes dealt as a
live table deals them (tests/naive_family.py, by hand), every round's EV the exact
analysis' on the cards left, each play's bets and gains from those, and the same seed
the same figures."""

from __future__ import annotations

import naive_family as nf
import numpy as np
import pytest

from analyzer import AnalyzerError, Shoe, analyze
from analyzer.game.cards import CARD_RANKS, RANKS
from analyzer.paytables.library import as_paytable
from analyzer.paytables.model import restricted
from analyzer.runs.count_plan import count_columns, count_job
from analyzer.runs.counting import CountJob, count_partition
from analyzer.runs.dealer import Procedure
from analyzer.runs.game_dealer import shuffled_game_shoes
from analyzer.runs.runner import partition_rng

#: A balanced count for Dragon Big (8 or higher wins; a 7 loses): low cards seen favour it.
BIG_TAGS = (1, 1, 1, 1, 1, 1, 0, -1, -1, -1, -1, -1, -1)


def _job(name: str, bets: tuple[str, ...], decks: int, seed: int, tags=None, threshold=None):
    paytable = as_paytable(name)
    columns = tuple((bet, paytable.modes[0]) for bet in bets)
    tag_sets = None if tags is None else tuple(tags for _ in columns)
    thresholds = None if tags is None else tuple(threshold for _ in columns)
    return CountJob(
        restricted(paytable, columns), columns, Procedure(decks, 14), seed, tag_sets, thresholds
    )


def _live_shoes(job: CountJob, shoes: int):
    """The partition's shoes as names of cards, each with its rounds' first cards, dealt
    by hand from the same shuffles (the burn and the cut card as a live table has them)."""
    cards, _ = shuffled_game_shoes(partition_rng(job.seed, 0), shoes, job.procedure)
    out = []
    per_round = job.paytable.game.cards
    for shoe in cards:
        names = [nf.card_name(int(card)) for card in shoe]
        rounds = nf.live_rounds(names, per_round, job.procedure.cut_card)
        first = 1 + (nf.points((names[0],)) or 10)
        out.append((shoe, [first + i * per_round for i in range(len(rounds))]))
    return out


def _exact_ev(job: CountJob, cards: np.ndarray) -> list[float]:
    """Every column's exact EV on ``cards`` (the cards left), by the exact analysis."""
    suits = np.bincount(cards, minlength=52).reshape(13, 4)
    analysis = analyze(paytable=job.paytable, shoe=Shoe(suits.sum(axis=1), suits))
    return [float(analysis.result(bet, mode).expected_value) for bet, mode in job.columns]


def test_perfect_play_bets_every_round_the_exact_analysis_finds_positive() -> None:
    """Each round's EV is the exact analysis' on the cards left, round by round: perfect
    play's bets and gains per shoe, and the mean EV of each round number."""
    job = _job("dragon-tiger-pragmatic", ("suited_tie", "tie", "dragon_red"), 1, 11)
    result = count_partition(job, 0, 3)
    n_columns = len(job.columns)
    bets, gains = np.zeros((3, n_columns)), np.zeros((3, n_columns))
    round_ev = np.zeros((job.by_round, n_columns))
    for s, (shoe, starts) in enumerate(_live_shoes(job, 3)):
        assert result["rounds"][s] == len(starts)
        for number, start in enumerate(starts, 1):
            ev = np.array(_exact_ev(job, shoe[start:]))
            bets[s] += ev > 0
            gains[s] += np.where(ev > 0, ev, 0)
            round_ev[number] += ev
    assert bets.sum() > 0  # (a dealt-down deck: the Suited Tie turns positive)
    np.testing.assert_array_equal(result["without_limit_bets"], bets)
    np.testing.assert_allclose(result["without_limit_gain"], gains, rtol=0, atol=1e-12)
    np.testing.assert_allclose(result["round_ev"], round_ev, rtol=0, atol=1e-12)


def test_a_linear_count_sees_the_shown_card_and_the_rounds_dealt() -> None:
    """The running count: the shown first card, then every card of the rounds before
    (the burned cards stay hidden); bet where it per deck left reaches the threshold."""
    job = _job("dragon-tiger", ("dragon_big",), 2, 5, BIG_TAGS, 1.5)
    result = count_partition(job, 0, 4)
    expected = []
    for shoe, starts in _live_shoes(job, 4):
        tags = np.array(BIG_TAGS)[CARD_RANKS[shoe]]
        bet = 0
        for start in starts:
            running = tags[0] + tags[starts[0] : start].sum()
            decks_left = (len(shoe) - start) / 52
            bet += running / decks_left >= 1.5
        expected.append(bet)
    assert result["without_limit_bets"][:, 0].tolist() == expected
    assert 0 < sum(expected) < sum(result["rounds"])


def test_the_same_seed_deals_the_same_count() -> None:
    job = _job("three-card-baccarat", ("tie", "dealer_total_0"), 1, 7)
    first, again = count_partition(job, 0, 30), count_partition(job, 0, 30)
    assert first.keys() == again.keys()
    for key in first:
        np.testing.assert_array_equal(first[key], again[key])
    other = count_partition(_job("three-card-baccarat", ("tie", "dealer_total_0"), 1, 8), 0, 30)
    assert not np.array_equal(first["without_limit_gain"], other["without_limit_gain"])
    # A round takes the game's cards: six a round, so up to 8 rounds of one deck.
    assert job.by_round == 52 // 6 + 2 and first["rounds"].max() <= 8


def test_a_count_of_a_game_is_weighed_before_any_shoe() -> None:
    paytable = as_paytable("dragon-tiger")
    columns = count_columns(paytable, ["all"], None)
    job = count_job(paytable, columns, Procedure(8, 14), 0, [10], perfect=True)
    assert job.round_cards == 2 and job.by_round == 416 // 2 + 2
    # The default linear counts come from the game's effects of removal: none helps the
    # Tie, whose removals all move it alike.
    with pytest.raises(AnalyzerError, match="no linear count helps 'tie'"):
        count_job(paytable, (("tie", "standard"),), Procedure(8, 14), 0, [10])
    derived = count_job(paytable, (("dragon_big", "standard"),), Procedure(8, 14), 0, [10])
    tags = dict(zip(RANKS, derived.tags[0], strict=True))
    assert tags["A"] > 0 > tags["K"] and derived.thresholds[0] > 0
    lucky = as_paytable("lucky-draw-baccarat-1")
    # A game with a decision solves each round's best play: a large run is refused.
    with pytest.raises(AnalyzerError, match="up to 20,400 rounds") as caught:
        count_job(lucky, count_columns(lucky, ["all"], None), Procedure(8, 14), 0, [100] * 2)
    assert "\n" not in str(caught.value)
    lightning = as_paytable("lightning-dragon-tiger")
    with pytest.raises(AnalyzerError, match=r"unknowns \(p3, p5, p8\)"):
        count_job(lightning, count_columns(lightning, ["tie"], None), Procedure(8, 14), 0, [10])
