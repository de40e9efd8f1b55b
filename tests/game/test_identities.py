"""Identity patterns: the vocabulary, how cards of different values combine, and counted cards."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from analyzer.game.identities import (
    IDENTITY_PATTERNS,
    PATTERN_INDEX,
    PATTERN_UNION,
    counted_cards,
    group_patterns,
    identity_pattern,
    pattern_text,
)


def test_patterns_are_every_partition_of_up_to_six_cards() -> None:
    # p(0) + ... + p(6) = 1 + 1 + 2 + 3 + 5 + 7 + 11.
    assert len(IDENTITY_PATTERNS) == 30
    assert IDENTITY_PATTERNS[0] == () and IDENTITY_PATTERNS[1] == (1,)
    assert len(set(IDENTITY_PATTERNS)) == 30
    for pattern in IDENTITY_PATTERNS:
        assert list(pattern) == sorted(pattern, reverse=True)
        assert all(part > 0 for part in pattern)


def test_the_union_of_disjoint_cards_joins_their_copies() -> None:
    assert PATTERN_UNION[PATTERN_INDEX[(2,)], PATTERN_INDEX[(1, 1)]] == PATTERN_INDEX[(2, 1, 1)]
    assert PATTERN_UNION[PATTERN_INDEX[(3,)], PATTERN_INDEX[(4,)]] == -1  # seven cards
    assert PATTERN_UNION[0, PATTERN_INDEX[(6,)]] == PATTERN_INDEX[(6,)]


@pytest.mark.parametrize(("cards", "counted"), [(k, c) for k in range(7) for c in range(k + 1)])
def test_group_patterns_count_every_labelling(cards, counted) -> None:
    # Label k cards with identities from a large alphabet in every way; group the
    # labellings by the set partition they make: each partition is counted once.
    partitions: Counter = Counter()
    for labels in itertools.product(range(cards), repeat=cards):
        blocks: dict[int, int] = {}
        canonical = tuple(blocks.setdefault(label, len(blocks)) for label in labels)
        partitions[canonical] = 1
    tally: Counter = Counter()
    for canonical in partitions:
        full = tuple(sorted(Counter(canonical).values(), reverse=True))
        shown = tuple(sorted(Counter(canonical[:counted]).values(), reverse=True))
        tally[PATTERN_INDEX[full], PATTERN_INDEX[shown]] += 1
    assert {(f, s): w for f, s, w in group_patterns(cards, counted)} == dict(tally)
    # Bell numbers: 1, 1, 2, 5, 15, 52, 203.
    assert sum(w for _, _, w in group_patterns(cards, counted)) == [1, 1, 2, 5, 15, 52, 203][cards]


def test_counted_cards_by_kind() -> None:
    player, banker = [(1, 0), (1, 0), (5, 1)], [(9, 2), (10, 3)]
    assert counted_cards("winner", player, banker, "player") == player
    assert counted_cards("winner", player, banker, "banker") == banker
    assert counted_cards("winner", player, banker, "tie") == []
    assert counted_cards("both", player, banker, "tie") == player + banker
    assert counted_cards("player_first_two", player, banker, "banker") == player[:2]
    assert counted_cards("banker_first_two", player, banker, "banker") == banker[:2]
    assert identity_pattern(counted_cards("player", player, banker, "tie")) == (2, 1)
    assert pattern_text((2, 1)) == "2+1" and pattern_text(()) == "-"
