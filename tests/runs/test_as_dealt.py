"""The shoe as dealt (:mod:`analyzer.runs.as_dealt`): the exact round-average RTP of a tiny
shoe against a plain-Python deal of every order of its cards, the sampled figure within its
interval of the exact one, and the options a run refuses before any work."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from naive import play, points, settle

from analyzer.errors import AnalyzerError
from analyzer.paytables.library import as_paytable
from analyzer.runs.as_dealt import (
    DealRule,
    DealtJob,
    check_exact,
    dealt_partition,
    dealt_summary,
    exact_as_dealt,
    off_the_top,
    parse_burn,
)

SEED = as_paytable("seed-game")
COLUMNS = (
    ("player", "commission"),
    ("banker", "commission"),
    ("tie", "commission"),
    ("player_pair", "commission"),
    ("lucky_six", "no_commission"),
)
#: A tiny shoe by rank (1 = Ace ... 13 = King): naturals are common, so two rounds are.
TINY = {1: 3, 8: 3, 9: 2, 13: 3, 5: 1}


def _counts(shoe: dict[int, int]) -> tuple[int, ...]:
    return tuple(shoe.get(rank, 0) for rank in range(1, 14))


# -- A plain-Python reference, written from the rules text -----------------------------------


def _round_cards(cards: list[int]) -> int | None:
    """The cards a round dealt from the head of ``cards`` (ranks) takes; None when more
    cards than given are needed to know."""
    if len(cards) < 4:
        return None
    pts = [points(rank) for rank in cards]
    try:
        *_, taken = play(pts[:4], pts[4:6])
    except StopIteration:  # a third card beyond those given
        return None
    return taken


def _naive_ev(left: Counter) -> dict[tuple[str, str], Fraction]:
    """Each bet's EV on the ranks ``left``: every ordered sequence of the round's cards,
    each weighted by its chance, settled by naive.settle."""
    total: dict[tuple[str, str], Fraction] = {column: Fraction(0) for column in COLUMNS}

    def deal(shoe: Counter, seq: list[int], chance: Fraction) -> None:
        taken = _round_cards(seq)
        if taken is None:
            size = sum(shoe.values())
            for rank in list(shoe):
                if shoe[rank]:
                    shoe[rank] -= 1
                    deal(shoe, [*seq, rank], chance * Fraction(shoe[rank] + 1, size))
                    shoe[rank] += 1
            return
        pts = [points(rank) for rank in seq]
        player, banker, pt, bt, _ = play(pts[:4], pts[4:])
        key = (int(seq[0] == seq[2]), int(seq[1] == seq[3]), player, banker, pt, bt)
        for bet, mode in COLUMNS:
            total[(bet, mode)] += chance * settle(bet, mode, key)

    deal(Counter(left), [], Fraction(1))
    return total


def naive_as_dealt(shoe: dict[int, int], cut_card: int, burn: str, one_more: bool, caps):
    """(expected rounds bet per column, expected EV sum per column) over every order of
    the cards of ``shoe`` the deal looks at, each prefix weighted by its chance."""
    size = sum(shoe.values())
    cut = size - cut_card
    bets = [Fraction(0)] * len(COLUMNS)
    evs = [Fraction(0)] * len(COLUMNS)
    memo: dict[tuple, dict] = {}

    def starts_of(seq: list[int]) -> list[int] | None:
        """The round starts of a shoe whose order begins with ``seq``; None: more cards
        are needed to know."""
        if not seq:
            return None
        if burn == "none":
            p = 0
        elif burn == "by-value":
            p = 1 + (points(seq[0]) or 10)
        else:
            p = 1 + int(burn)
        out, last = [], False
        while p + 6 <= size:
            if last or p + 4 + 6 > size:  # no round can follow this one: its cards
                out.append(p)  # are not looked at
                break
            taken = _round_cards(seq[p:])
            if taken is None:
                return None
            out.append(p)
            start, p = p, p + taken
            if last:
                break
            if p > cut:
                if not one_more or start == cut:
                    break
                last = True
        return out

    def walk(left: Counter, seq: list[int], chance: Fraction) -> None:
        starts = starts_of(seq)
        if starts is None:
            n = sum(left.values())
            for rank in list(left):
                if left[rank]:
                    left[rank] -= 1
                    walk(left, [*seq, rank], chance * Fraction(left[rank] + 1, n))
                    left[rank] += 1
            return
        for number, start in enumerate(starts, 1):
            remaining = Counter(shoe)
            remaining.subtract(seq[:start])
            key = tuple(sorted(remaining.items()))
            if key not in memo:
                memo[key] = _naive_ev(remaining)
            for c, column in enumerate(COLUMNS):
                if caps[c] is None or number <= caps[c]:
                    bets[c] += chance
                    evs[c] += chance * memo[key][column]

    walk(Counter(shoe), [], Fraction(1))
    return bets, evs


@pytest.mark.parametrize(
    ("cut_card", "burn", "last_round", "caps"),
    [
        (0, "none", "cut-card", (None, 1, None, 1, None)),
        (7, "none", "cut-card", (None, None, 1, None, None)),
        (8, "none", "cut-card", (None, 1, None, None, 1)),
        (8, "none", "one-more", (None,) * 5),  # the cut card in place of round 2's first card
        (2, "1", "cut-card", (None, 1, None, None, 1)),
        (3, "by-value", "one-more", (None,) * 5),
    ],
)
def test_exact_matches_every_order_of_a_tiny_shoe(cut_card, burn, last_round, caps) -> None:
    job = DealtJob(SEED, COLUMNS, _counts(TINY), DealRule(cut_card, burn, last_round), 0, caps)
    records = exact_as_dealt(job)
    bets, evs = naive_as_dealt(TINY, cut_card, burn, last_round == "one-more", caps)
    for c, record in enumerate(records):
        with_limit = record["with_limit"]
        assert with_limit["rounds_bet_per_shoe"] == bets[c]
        assert with_limit["ev_per_shoe"] == evs[c]
        assert isinstance(with_limit["rtp"], Fraction)
        assert with_limit["rtp"] == 1 + evs[c] / bets[c]
    assert bets[0] > 1 or burn == "by-value"  # two rounds are dealt at times


@pytest.mark.parametrize(
    "rule", [DealRule(6, "none", "one-more"), DealRule(3, "by-value", "one-more")]
)
def test_sampled_within_its_interval_of_the_exact(rule) -> None:
    job = DealtJob(SEED, COLUMNS, _counts(TINY), rule, 7, (None, 1, None, None, None))
    exact = exact_as_dealt(job)
    results = [dealt_partition(job, i, 1000) for i in range(3)]
    sampled = dealt_summary(job, results, off_the_top(job))
    for got, want in zip(sampled, exact, strict=True):
        for key in ("with_limit", "without_limit"):
            figures = got[key]
            # 4.5 standard errors: a false alarm once in some 150,000 runs per figure. (The
            # banker's round 1 is always off the top of the full shoe: no spread at all.)
            error = abs(figures["rtp"] - float(want[key]["rtp"]))
            assert error <= 4.5 * figures["rtp_se"] + 1e-12
            assert figures["rtp_low"] <= figures["rtp"] <= figures["rtp_high"]
        assert got["rtp_off_the_top"] == want["rtp_off_the_top"]
    assert sampled[0]["with_limit"]["rtp_se"] > 0


def test_the_off_the_top_figure_is_outside_the_interval() -> None:
    """The comparison above can fail: where the cut card decides whether round 2 is dealt,
    the Player Pair's off-the-top RTP is not the dealt one; where every round is always
    dealt (no cut card, no burn), the dealt RTP is the off-the-top one exactly."""
    rule = DealRule(8, "none", "cut-card")
    job = DealtJob(SEED, COLUMNS, _counts(TINY), rule, 3)
    pair = dealt_summary(job, [dealt_partition(job, 0, 3000)], off_the_top(job))[3]
    exact = exact_as_dealt(job)[3]["without_limit"]
    assert (
        abs(pair["without_limit"]["rtp"] - float(exact["rtp"]))
        <= 4.5 * pair["without_limit"]["rtp_se"]
    )
    assert abs(exact["difference"]) > 5 * pair["without_limit"]["rtp_se"]
    every_round = DealtJob(SEED, COLUMNS, _counts(TINY), DealRule(0, "none"), 3)
    for record in exact_as_dealt(every_round):
        assert record["without_limit"]["difference"] == 0


def test_partitions_are_reproducible_and_checked() -> None:
    job = DealtJob(SEED, COLUMNS[:2], (4,) * 13, DealRule(14), 5)
    first, again = dealt_partition(job, 2, 20), dealt_partition(job, 2, 20)
    for key in first:
        np.testing.assert_array_equal(first[key], again[key])
    job.check(first, 20)
    with pytest.raises(ValueError):
        job.check(first, 21)
    # A bet's max round caps the rounds it is bet in; without it every round counts.
    assert (first["limit_bets"] <= first["all_bets"]).all()
    assert (first["all_bets"][:, 0] == first["rounds"]).all()


@pytest.mark.parametrize(
    ("cut_card", "message"),
    [(52, "--cut-card must leave 0 to 51 cards"), (-1, "--cut-card must leave 0 to 51")],
)
def test_a_cut_card_past_the_shoe_is_refused(cut_card, message) -> None:
    with pytest.raises(AnalyzerError, match=message):
        DealtJob(SEED, COLUMNS, (4,) * 13, DealRule(cut_card))


@pytest.mark.parametrize("text", ["-1", "53", "some", "1.5", ""])
def test_bad_burns_are_refused(text) -> None:
    with pytest.raises(AnalyzerError, match="--burn must be"):
        parse_burn(text)


def test_a_big_shoe_is_refused_exactly_before_any_work() -> None:
    with pytest.raises(AnalyzerError, match=r"1,220,703,125 compositions"):
        check_exact((4,) * 13)
    with pytest.raises(AnalyzerError, match="compositions"):
        exact_as_dealt(DealtJob(SEED, COLUMNS, (32,) * 13, DealRule(14)))
    check_exact(_counts(TINY))  # a small shoe passes
