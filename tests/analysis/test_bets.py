"""Every bet of GAME.md: exact edges against an independent settlement and published
figures, and each bet's statistics."""

from __future__ import annotations

from fractions import Fraction

import naive
import pytest

from analyzer import Shoe, analyze
from analyzer.paytables.printed import check_printed_value


@pytest.fixture(params=[1, 8])
def decks_and_reference(request, reference_8_decks):
    if request.param == 8:
        return 8, reference_8_decks
    return 1, naive.reference_counts(Shoe.standard(1).suit_counts.tolist())


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
