"""The shoe as dealt for the family's games dealt once (:mod:`analyzer.runs.family_dealt`):
the exact round-average RTP of a tiny Dragon Tiger and Three Card Baccarat shoe against a
plain-Python deal of every order of the cards it looks at, the sampled figure within its
interval of the exact one, the games that are refused, and the rounds each shoe deals."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from naive_family import dragon_tiger_winner, points, three_card_winner

from analyzer.errors import AnalyzerError
from analyzer.paytables.library import as_paytable
from analyzer.runs.as_dealt import DealRule, DealtJob, dealt_job, dealt_summary, off_the_top
from analyzer.runs.family_dealt import exact_dealt as exact_as_dealt
from analyzer.runs.family_dealt import family_partition as dealt_partition
from analyzer.runs.family_dealt import family_rounds

RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _counts(shoe: dict[str, int]) -> tuple[int, ...]:
    return tuple(shoe.get(rank, 0) for rank in RANK_ORDER)


# -- A plain-Python reference, written from the rules text -----------------------------------


def dragon_tiger_net(bet: str, cards: tuple[str, ...]) -> Fraction:
    """Dragon (1:1, half the stake lost on a tie) and Tie (8:1) by hand."""
    winner = dragon_tiger_winner(cards[0], cards[1])
    if bet == "dragon":
        return Fraction({"dragon": 1, "tiger": -1, "tie": Fraction(-1, 2)}[winner])
    return Fraction(8 if winner == "tie" else -1)


def three_card_net(bet: str, cards: tuple[str, ...]) -> Fraction:
    """Player (19:20, a tie pushes) and Tie (20:1): three cards each. Every order of the
    cards is as likely, so which three go to the Player does not change an EV."""
    winner = three_card_winner(cards[:3], cards[3:])
    if bet == "player":
        return {"player": Fraction(19, 20), "dealer": Fraction(-1), "tie": Fraction(0)}[winner]
    return Fraction(20 if winner == "tie" else -1)


def naive_ev(left: Counter, n: int, net, bets) -> dict[str, Fraction]:
    """Each bet's EV on the ranks ``left``: every ordered sequence of ``n`` ranks, each
    weighted by its chance (suits are not read: every card a spade)."""
    total = dict.fromkeys(bets, Fraction(0))
    for seq in itertools.product(sorted(r for r in left if left[r]), repeat=n):
        chance, shoe = Fraction(1), Counter(left)
        for rank in seq:
            if not shoe[rank]:
                break
            chance *= Fraction(shoe[rank], sum(shoe.values()))
            shoe[rank] -= 1
        else:
            for bet in bets:
                total[bet] += chance * net(bet, tuple(rank + "S" for rank in seq))
    return total


def starts_of(first: str, size: int, per_round: int, cut_card: int, burn: str, one_more: bool):
    """The round starts a table deals: the first card shown and burned by its value (a
    ten or picture 10), or ``burn`` more, or none; rounds while a round's cards are left;
    the round the cut card comes out in is the last (one more round with ``one_more``,
    unless it came out in place of a round's first card)."""
    if burn == "none":
        p = 0
    elif burn == "by-value":
        p = 1 + (points((first + "S",)) or 10)
    else:
        p = 1 + int(burn)
    cut = size - cut_card
    out, last = [], False
    while p + per_round <= size:
        out.append(p)
        start, p = p, p + per_round
        if last:
            break
        if p > cut:
            if not one_more or start == cut:
                break
            last = True
    return out


def naive_as_dealt(shoe, per_round, net, bets, caps, cut_card, burn, one_more):
    """(expected rounds bet, expected EV sum) per bet over every order of the cards the
    deal looks at (those before its last round's start), each prefix with its chance."""
    size = sum(shoe.values())
    rounds = dict.fromkeys(bets, Fraction(0))
    evs = dict.fromkeys(bets, Fraction(0))
    memo: dict[tuple, dict] = {}

    def walk(left: Counter, seq: list[str], chance: Fraction) -> None:
        starts = starts_of(seq[0], size, per_round, cut_card, burn, one_more) if seq else None
        if starts is None or (starts and len(seq) < starts[-1]):
            n = sum(left.values())
            for rank in [r for r in left if left[r]]:
                left[rank] -= 1
                walk(left, [*seq, rank], chance * Fraction(left[rank] + 1, n))
                left[rank] += 1
            return
        for number, start in enumerate(starts, 1):
            remaining = Counter(shoe)
            remaining.subtract(seq[:start])
            key = tuple(sorted(remaining.items()))
            if key not in memo:
                memo[key] = naive_ev(remaining, per_round, net, bets)
            for bet in bets:
                if caps[bet] is None or number <= caps[bet]:
                    rounds[bet] += chance
                    evs[bet] += chance * memo[key][bet]

    walk(Counter(shoe), [], Fraction(1))
    return rounds, evs


DRAGON_TIGER = as_paytable("dragon-tiger")
THREE_CARD = as_paytable("three-card-baccarat")
#: Twelve cards: the burn by value takes 2 (Ace), 3, 4 or 11 (a Queen: no round at all).
TINY_DT = {"A": 3, "2": 3, "3": 2, "Q": 4}
#: Fourteen cards of three ranks: Aces, fives and Kings (pictures: three of them beat all).
TINY_TC = {"A": 4, "5": 5, "K": 5}


@pytest.mark.parametrize(
    ("paytable", "shoe", "net", "caps", "rule"),
    [
        (DRAGON_TIGER, TINY_DT, dragon_tiger_net, {"dragon": None, "tie": 1}, DealRule(6)),
        (DRAGON_TIGER, TINY_DT, dragon_tiger_net, {"dragon": 2, "tie": None}, DealRule(5, "1")),
        (
            DRAGON_TIGER,
            TINY_DT,
            dragon_tiger_net,
            {"dragon": None, "tie": None},
            DealRule(7, "by-value", "one-more"),
        ),
        (DRAGON_TIGER, TINY_DT, dragon_tiger_net, {"dragon": 1, "tie": 2}, DealRule(6, "none")),
        (THREE_CARD, TINY_TC, three_card_net, {"player": None, "tie": 1}, DealRule(0, "1")),
        (THREE_CARD, TINY_TC, three_card_net, {"player": 1, "tie": None}, DealRule(0)),
    ],
)
def test_exact_matches_every_order_of_a_tiny_shoe(paytable, shoe, net, caps, rule) -> None:
    columns = tuple((bet, "standard") for bet in caps)
    job = DealtJob(paytable, columns, _counts(shoe), rule, 0, tuple(caps.values()))
    records = exact_as_dealt(job, progress=False)
    one_more = rule.last_round == "one-more"
    per_round = paytable.game.cards
    bets, evs = naive_as_dealt(
        shoe, per_round, net, list(caps), caps, rule.cut_card, rule.burn, one_more
    )
    for record in records:
        with_limit = record["with_limit"]
        assert with_limit["rounds_bet_per_shoe"] == bets[record["bet"]]
        assert with_limit["ev_per_shoe"] == evs[record["bet"]]
        assert with_limit["rtp"] == 1 + evs[record["bet"]] / bets[record["bet"]]
    per_shoe = records[0]["rounds_per_shoe"]
    assert per_shoe > 1 or per_shoe.denominator > 1  # two rounds are dealt at times


@pytest.mark.parametrize(
    ("paytable", "shoe", "columns", "rule"),
    [
        (DRAGON_TIGER, TINY_DT, (("dragon", "standard"), ("tie", "standard")), DealRule(6)),
        (THREE_CARD, TINY_TC, (("player", "standard"), ("tie", "standard")), DealRule(0)),
    ],
)
def test_sampled_within_its_interval_of_the_exact(paytable, shoe, columns, rule) -> None:
    job = DealtJob(paytable, columns, _counts(shoe), rule, 11, (None, 1))
    exact = exact_as_dealt(job, progress=False)
    sampled = dealt_summary(
        job, [dealt_partition(job, i, 1500) for i in range(2)], off_the_top(job)
    )
    for got, want in zip(sampled, exact, strict=True):
        assert got["rtp_off_the_top"] == want["rtp_off_the_top"]
        for key in ("with_limit", "without_limit"):
            figures = got[key]
            assert figures["rtp_se"] > 0
            # 4.5 standard errors: a false alarm once in some 150,000 runs per figure.
            assert abs(figures["rtp"] - float(want[key]["rtp"])) <= 4.5 * figures["rtp_se"]
    # The comparison can fail: the burn by value moves the Tie off its figure off the top.
    assert exact[1]["without_limit"]["difference"] != 0


def test_per_card_shoes_price_bets_on_suits() -> None:
    """Full decks keep suits: the Suited Tie is priced on every round, and a round's EV
    is the batch engine's (the shoe's first rounds average about the figure off the top)."""
    table = as_paytable("dragon-tiger")
    job, _ = dealt_job(table, ["suited_tie", "tie"], None, decks=8, rule=DealRule(14), shoes=64)
    result = dealt_partition(job, 0, 64)
    job.check(result, 64)
    assert (result["rounds"] > 150).all() and (result["limit_bets"] == result["all_bets"]).all()
    rtp = 1 + result["all_ev"].sum(axis=0) / result["all_bets"].sum(axis=0)
    top = [float(x) for x in off_the_top(job)]
    assert np.allclose(rtp, top, atol=0.02)


def test_lightning_dragon_tiger_takes_its_unknowns() -> None:
    from analyzer.api.runs import dealt

    values = {"p3": "1/8", "p5": "1/60", "p8": "3/32"}
    got = dealt("lightning-dragon-tiger", shoes=4, unknowns=values, bets=["dragon", "tie"])
    assert [r["bet"] for r in got.records] == ["dragon", "tie"]
    assert all(abs(r["with_limit"]["difference"]) < 0.05 for r in got.records)
    with pytest.raises(AnalyzerError, match="unknowns"):
        dealt("lightning-dragon-tiger", shoes=4, bets=["dragon"])


def test_an_exact_round_from_fewer_cards_than_the_analysis_takes_is_refused() -> None:
    job = DealtJob(DRAGON_TIGER, (("tie", "standard"),), _counts(TINY_DT), DealRule(1, "none"))
    with pytest.raises(AnalyzerError, match="a round can start with 2 cards left"):
        exact_as_dealt(job, progress=False)
    suited = DealtJob(DRAGON_TIGER, (("suited_tie", "standard"),), _counts(TINY_DT), DealRule(6))
    with pytest.raises(AnalyzerError, match="suited_tie is a bet on suits"):
        exact_as_dealt(suited, progress=False)


@pytest.mark.parametrize("last_round", ["cut-card", "one-more"])
@pytest.mark.parametrize("per_round", [2, 6])
def test_rounds_dealt_match_the_table_card_by_card(last_round, per_round) -> None:
    """family_rounds against the reference's loop, every start and cut card of a shoe."""
    size = 40
    for cut_card in range(size):
        rule = DealRule(cut_card, "none", last_round)
        starts = np.arange(size + 1)
        got = family_rounds(starts, size, rule, per_round)
        for start in range(size + 1):
            burn = "none" if start == 0 else str(start - 1)
            want = starts_of("A", size, per_round, cut_card, burn, last_round == "one-more")
            assert got[start] == len(want), (cut_card, start)
