"""Effects of removal of the games without drawing (Dragon Tiger, Three Card Baccarat),
against :mod:`tests.naive_family`: each bet's exact EV dealt card by card from the shoe
less one card, less its EV on the full shoe, every card and every rank of small shoes."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from analyzer import removal_effects as api_removal_effects
from analyzer.analysis.eor import linear_counts, removal_effects
from analyzer.errors import AnalyzerError
from analyzer.game.cards import RANKS, SUITS
from analyzer.game.shoe import Shoe
from tests import naive_family as naive

HALF = Fraction(1, 2)


def shoe_of(cards: list[str]) -> Shoe:
    """The analyser's shoe holding exactly ``cards`` (naive card strings)."""
    suits = np.zeros((len(RANKS), len(SUITS)), dtype=np.int64)
    for card in cards:
        suits[RANKS.index(naive.rank(card)), SUITS.index(naive.suit(card))] += 1
    return Shoe(suits.sum(axis=1), suits)


def less(cards: list[str], card: str) -> list[str]:
    left = list(cards)
    left.remove(card)
    return left


# -- The bets, settled by hand on each deal (dealt[0] the first card dealt) ---------------


def dragon(dealt) -> Fraction:
    winner = naive.dragon_tiger_winner(*dealt)
    return Fraction(1) if winner == "dragon" else -HALF if winner == "tie" else Fraction(-1)


def tie(dealt) -> Fraction:
    return Fraction(8 if naive.rank(dealt[0]) == naive.rank(dealt[1]) else -1)


def suited_tie(dealt) -> Fraction:
    return Fraction(50 if dealt[0] == dealt[1] else -1)


def dragon_big(dealt) -> Fraction:
    return Fraction(1 if naive.rank_number(dealt[0]) >= 8 else -1)


def three_card_player(dealt) -> Fraction:
    winner = naive.three_card_winner(dealt[:3], dealt[3:])  # dealt in turn: P P P D D D
    return Fraction(19, 20) if winner == "player" else Fraction(0 if winner == "tie" else -1)


def three_faces(dealt) -> Fraction:
    return Fraction(16 if all(naive.rank(card) in naive.PICTURES for card in dealt[3:]) else -1)


#: A Dragon Tiger shoe with ranks of every kind: repeated cards (two KS), a rank of one
#: suit, one of several, an 8 (Big) and a 7 (neither Big nor Small).
DT_CARDS = ["AS", "AH", "5S", "5D", "5D", "7C", "8H", "KS", "KS", "KH", "QC"]


def naive_rank_deltas(cards: list[str], n: int, net) -> dict[str, Fraction]:
    """Per rank of ``cards``: the exact change in EV when one card of it leaves, its suit
    drawn in proportion to the cards of each suit (a card held twice counts twice)."""
    base = naive.expected_net(cards, n, net)
    held = Counter(cards)
    by_rank: dict[str, Fraction] = {}
    for rank in dict.fromkeys(naive.rank(card) for card in cards):
        of_rank = {card: count for card, count in held.items() if naive.rank(card) == rank}
        total = sum(of_rank.values())
        by_rank[rank] = sum(
            Fraction(count, total) * (naive.expected_net(less(cards, card), n, net) - base)
            for card, count in of_rank.items()
        )
    return by_rank


@pytest.mark.parametrize(
    ("bet", "net"),
    [("dragon", dragon), ("tie", tie), ("suited_tie", suited_tie), ("dragon_big", dragon_big)],
)
def test_dragon_tiger_by_rank_against_every_deal(bet, net) -> None:
    effects, _ = removal_effects("dragon-tiger", shoe_of(DT_CARDS), bets=[bet])
    expected = naive_rank_deltas(DT_CARDS, 2, net)
    got = dict(zip(effects["rank"], effects["delta_ev_exact"], strict=True))
    assert got == expected  # every rank the shoe holds, exactly, and no other
    assert list(effects["rank"]) == [rank for rank in RANKS if rank in expected]
    held = Counter(naive.rank(card) for card in DT_CARDS)
    assert dict(zip(effects["rank"], effects["cards"], strict=True)) == held
    assert all(isinstance(delta, Fraction) for delta in effects["delta_ev_exact"])
    assert list(effects["delta_ev"]) == [float(delta) for delta in effects["delta_ev_exact"]]


def test_the_suited_tie_has_a_row_per_card_against_every_deal() -> None:
    """The Suited Tie looks at suits: a row per card of the shoe (its count), the others
    none; its rank's row is its cards' rows weighed by their counts."""
    effects, by_card = removal_effects(
        "dragon-tiger", shoe_of(DT_CARDS), bets=["tie", "suited_tie"]
    )
    base = naive.expected_net(DT_CARDS, 2, suited_tie)
    held = Counter(DT_CARDS)
    expected = {
        card: naive.expected_net(less(DT_CARDS, card), 2, suited_tie) - base for card in held
    }
    assert set(by_card["bet"]) == {"suited_tie"}
    assert dict(zip(by_card["card"], by_card["delta_ev_exact"], strict=True)) == expected
    assert dict(zip(by_card["card"], by_card["cards"], strict=True)) == held
    assert list(by_card.columns) == [
        "bet", "mode", "card", "rank", "delta_ev", "delta_ev_exact", "cards",
    ]  # fmt: skip
    assert list(effects.columns) == ["bet", "mode", "rank", "delta_ev", "delta_ev_exact", "cards"]
    # Card by card, rank by rank: AS AH 5S 5D 7C 8H QC KS KH (suits in the order S H D C).
    assert list(by_card["card"]) == ["AS", "AH", "5S", "5D", "7C", "8H", "QC", "KS", "KH"]


def test_every_card_repeats_a_rank_blind_bets_change() -> None:
    _, by_card = removal_effects("dragon-tiger", shoe_of(DT_CARDS), bets=["tie"], every_card=True)
    rank_deltas = naive_rank_deltas(DT_CARDS, 2, tie)
    assert len(by_card) == len(set(DT_CARDS))
    for card, delta in zip(by_card["card"], by_card["delta_ev_exact"], strict=True):
        assert delta == naive.expected_net(less(DT_CARDS, card), 2, tie) - naive.expected_net(
            DT_CARDS, 2, tie
        )
        assert delta == rank_deltas[naive.rank(card)]


#: Three Card Baccarat on nine cards: three pictures a hand can hold, pairs of ranks.
TCB_CARDS = ["KS", "QH", "JD", "KC", "9S", "5H", "5D", "AC", "2S"]


@pytest.mark.parametrize(
    ("bet", "net"), [("player", three_card_player), ("three_faces", three_faces)]
)
def test_three_card_baccarat_by_rank_against_every_deal(bet, net) -> None:
    effects, by_card = removal_effects("three-card-baccarat", shoe_of(TCB_CARDS), bets=[bet])
    expected = naive_rank_deltas(TCB_CARDS, 6, net)
    assert dict(zip(effects["rank"], effects["delta_ev_exact"], strict=True)) == expected
    assert by_card.empty  # no bet looks at suits


def test_linear_counts_read_a_games_effects() -> None:
    effects, _ = removal_effects("dragon-tiger", Shoe.standard(1), bets=["dragon_big", "tie"])
    counts = {count.bet: count for count in linear_counts(effects)}
    # Big wins on 8 to K: seeing a small card (or a 7) helps it, a big one hurts.
    tags = counts["dragon_big"].tags
    assert all(tags[rank] > 0 for rank in "A234567") and all(tags[r] < 0 for r in "89JQK")
    # Balanced: seven ranks against six, so the seven cannot all take the six's size
    # (+1 against -1 drifted by 4 a deck); the correction goes to the later ranks.
    assert sum(tags.values()) == 0  # (a full deck: four cards of each rank)
    assert [tags[rank] for rank in RANKS] == [3, 3, 3, 3, 4, 4, 4, -4, -4, -4, -4, -4, -4]
    assert 0.99 < counts["dragon_big"].betting_correlation < 1
    # On a full shoe the Tie's EV moves alike whichever rank leaves: nothing to count.
    assert set(counts["tie"].tags.values()) == {0}


def test_the_api_gives_a_games_effects_and_counts() -> None:
    effects = api_removal_effects("dragon-tiger", decks=1, bets=["dragon_big"], remove="8S 9S")
    frame = effects.to_frame()
    assert list(frame["rank"]) == list(RANKS)
    assert set(frame["bet"]) == {"dragon_big"}
    by_card = api_removal_effects("dragon-tiger-evolution", decks=1, by_card=True).to_frame()
    assert len(by_card) == 52 * 4


def test_a_games_effects_report_progress_per_bet() -> None:
    seen: dict[str, list[tuple[int, int]]] = {}
    removal_effects(
        "dragon-tiger",
        Shoe.standard(1),
        bets=["tie", "suited_tie"],
        progress=lambda bet, done, total: seen.setdefault(bet, []).append((done, total)),
    )
    assert seen["tie"][-1] == (13, 13) and len(seen["tie"]) == 13
    assert seen["suited_tie"][-1] == (52, 52) and len(seen["suited_tie"]) == 52


def test_a_games_shoe_too_small_or_without_suits_is_one_line() -> None:
    with pytest.raises(AnalyzerError, match=r"no card can be removed.* need 6"):
        removal_effects("three-card-baccarat", shoe_of(TCB_CARDS[:6]))
    ranks_only = Shoe(Shoe.standard(1).rank_counts, None)
    with pytest.raises(AnalyzerError, match="needs the shoe's suits"):
        removal_effects("dragon-tiger", ranks_only, every_card=True)
    with pytest.raises(AnalyzerError, match="infinite deck"):
        removal_effects("dragon-tiger", Shoe.infinite())


def test_the_analysts_pages_of_a_game_chart_its_effects(tmp_path) -> None:
    from analyzer import help_pages

    written = help_pages("dragon-tiger-evolution", tmp_path / "site", eor=True)
    names = {path.relative_to(tmp_path / "site").as_posix() for path in written}
    assert {
        "analyst/dragon-tiger-evolution/en.html",
        "analyst/dragon-tiger-evolution/eor-en.png",
    } <= names
    chart = tmp_path / "site" / "analyst" / "dragon-tiger-evolution" / "eor-en.png"
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
