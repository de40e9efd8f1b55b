"""The shipped bets on the cards themselves against their published combination counts.

Every count below is printed by Wizard of Odds on the bet's page (8 decks), named in each
paytable's comment: whole-round bets count ordered six-card sequences out of
4,998,398,275,503,360, as we do; bets on the first two (four) cards count unordered
combinations out of C(416, 2) = 86,320 (C(416, 4) = 1,229,930,520), which must give the
same probabilities exactly.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from analyzer import analyze, load_paytable

SEQUENCES = 4_998_398_275_503_360
TWO_CARDS = comb(416, 2)
FOUR_CARDS = comb(416, 4)


def _lines(paytable: str, bet: str) -> list:
    result = analyze(paytable=load_paytable(paytable), bets=[bet]).results[0]
    assert result.lines[-1].when == "otherwise"
    return result.lines


@pytest.mark.parametrize(
    ("paytable", "bet", "counts"),
    [
        # wizardofodds.com/games/baccarat/side-bets/super-tie/
        ("super-tie", "super_tie", [1_326_729_820_672, 42_861_591_369_728, 431_439_105_282_816]),
        # wizardofodds.com/games/baccarat/side-bets/lucky-max/
        ("tie-max", "low_tie_max", [74_570_116_880_640]),
        ("tie-max", "high_tie_max", [401_057_309_592_576]),
        # wizardofodds.com/games/baccarat/side-bets/monkey-6/, .../monkey-6-tie, .../grand-monkey/
        ("monkey", "monkey_6", [295_533_789_192_192]),
        ("monkey", "monkey_6_tie", [29_035_119_366_144]),
        ("monkey", "grand_monkey", [667_474_778_880]),
        # wizardofodds.com/games/baccarat/side-bets/contrast: six, five and four total cards
        (
            "contrast-bonus",
            "contrast_bonus_1",
            [49_975_532_181_504, 95_217_257_023_488, 237_970_360_442_880],
        ),
        # wizardofodds.com/games/baccarat/side-bets/lucky-match/: five or six of a kind,
        # double triplets, four of a kind, full house, three of a kind, two or three pairs
        (
            "lucky-match",
            "lucky_match",
            [
                356_942_987_520,
                616_417_689_600,
                12_273_961_559_040,
                40_022_630_768_640,
                207_858_985_697_280,
                385_294_498_430_976,
            ],
        ),
    ],
)
def test_whole_round_bets_count_what_the_source_prints(paytable, bet, counts) -> None:
    lines = _lines(paytable, bet)
    assert [line.ways for line in lines[:-1]] == counts
    assert sum(line.ways for line in lines) == SEQUENCES


@pytest.mark.parametrize(
    ("paytable", "bet", "combinations", "total"),
    [
        # wizardofodds.com/games/baccarat/side-bets/majestic-match/
        ("majestic-match", "player_majestic_match", [256, 21_168], TWO_CARDS),
        ("majestic-match", "banker_majestic_match", [256, 21_168], TWO_CARDS),
        # wizardofodds.com/article/perfect-9-bonus-baccarat/
        ("perfect-9", "perfect_9", [1_024, 3_072, 4_096], TWO_CARDS),
        # wizardofodds.com/games/baccarat/side-bets/lucky-nines/ (Red Rock table): four
        # nines; three of one suit; three; two of one suit; two; one nine of diamonds; one
        (
            "lucky-nines",
            "lucky_nines_red_rock",
            [35_960, 86_016, 1_818_624, 8_236_032, 28_237_824, 74_908_672, 224_726_016],
            FOUR_CARDS,
        ),
        # wizardofodds.com/games/baccarat/side-bets/jackpot-baccarat/: mini royal, four of a
        # kind, straight flush, three of a kind, flush, straight, two pair, pair of aces,
        # pair of 10s to kings
        (
            "jackpot-baccarat",
            "jackpot",
            [
                16_384,
                467_480,
                163_840,
                24_760_320,
                17_929_088,
                11_354_112,
                18_944_640,
                33_048_576,
                132_194_304,
            ],
            FOUR_CARDS,
        ),
    ],
)
def test_first_cards_bets_have_the_published_probabilities(
    paytable, bet, combinations, total
) -> None:
    lines = _lines(paytable, bet)
    assert [line.probability for line in lines[:-1]] == [Fraction(c, total) for c in combinations]


def test_lucky_nines_binions_shows_the_sources_slip() -> None:
    """The Binion's table prints 64,512 three-suited-nine hands and 19.46%; the rule gives
    86,016 (as the same page's Red Rock table) and 19.06%. Pays are the only difference."""
    binions = _lines("lucky-nines", "lucky_nines_binions")
    assert binions[1].probability == Fraction(86_016, FOUR_CARDS)
    result = analyze(paytable=load_paytable("lucky-nines"), bets=["lucky_nines_binions"])
    assert f"{float(100 * result.results[0].house_edge):.2f}" == "19.06"


def test_every_shipped_card_bet_is_checked_against_a_source() -> None:
    """Each bet on the cards is pinned by published counts above, or by a published figure
    its shipped claims file states (and verify checks)."""
    from analyzer.analysis.verify import load_claims
    from analyzer.paytables.library import claims_names, punto_banco_names

    counted = {
        ("super-tie", "super_tie"),
        ("tie-max", "low_tie_max"),
        ("tie-max", "high_tie_max"),
        ("monkey", "monkey_6"),
        ("monkey", "monkey_6_tie"),
        ("monkey", "grand_monkey"),
        ("contrast-bonus", "contrast_bonus_1"),
        ("majestic-match", "player_majestic_match"),
        ("majestic-match", "banker_majestic_match"),
        ("perfect-9", "perfect_9"),
        ("lucky-nines", "lucky_nines_red_rock"),
        ("lucky-nines", "lucky_nines_binions"),
        ("lucky-match", "lucky_match"),
        ("jackpot-baccarat", "jackpot"),
    }
    claimed = {
        (name, claim.bet)
        for name in claims_names()
        for claim in load_claims(name)
        if claim.quantity in ("house_edge", "rtp")
    }
    shipped = {
        (name, bet.id)
        # (other games of the family: tests/engine/test_deal_walk.py deals them by hand)
        for name in punto_banco_names()
        for bet in load_paytable(name).bets
        if bet.card_level
    }
    assert len(shipped) >= 8
    unchecked = shipped - counted - claimed
    # Pay tables 3 and 4 of Contrast Bonus have no published return; pay table 1's counts
    # (the same events) are checked above, and their pays are on the page.
    assert unchecked == {
        ("contrast-bonus", "contrast_bonus_3"),
        ("contrast-bonus", "contrast_bonus_4"),
    }


@pytest.mark.slow
def test_a_bet_on_the_suits_of_all_six_cards_is_counted_exactly() -> None:
    """Double suited three-card 8 (each hand three cards of one suit, either suit) is
    walked by suit pattern, 4.2e9 rounds suit by suit were refused; its count is the
    value-level one of tests/naive.py."""
    import naive

    from analyzer.paytables.model import paytable_from_dict

    hands = " and ".join(
        f"{hand}_cards == 3 and {hand}_score == 8 and "
        + " == ".join(f"{hand}_card{i}_suit" for i in (1, 2, 3))
        for hand in ("player", "banker")
    )
    rules = [{"when": hands, "pays": "500:1"}]
    paytable = paytable_from_dict(
        {"name": "Suits", "bet": [{"id": "double", "name": "Double", "rule": rules}]}
    )
    assert len(paytable.bets[0].relational) == 6
    result = analyze(paytable=paytable).results[0]
    hits = naive.double_suited_three_card_eights(8)
    assert result.hit_frequency == Fraction(hits, SEQUENCES)
    assert result.expected_value == Fraction(501 * hits, SEQUENCES) - 1
