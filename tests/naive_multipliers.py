"""Brute-force reference for multiplied bets: every deal, every draw of special cards.

Written apart from the engine: it deals every ordered six-card sequence of a tiny shoe of
physical cards (``tests.naive``), takes the cards a bet counts straight from the hands,
and then enumerates the special identities explicitly: every set of ``K`` identities of a
small virtual deck (each set equally likely) and every assignment of multiplier values to
them, multiplying the counted cards' multipliers one physical card at a time. No identity
patterns, no moments, no hypergeometric formulas.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from math import comb, prod

from naive import card_round

Card = tuple[int, int]  # (rank 1..13, suit 0..3), as tests.naive deals them
#: A rule of a bet: does it settle this round (a row of tests.naive.card_round), and what it
#: pays: ``a + b * multiplier`` odds to one (b = 0: a fixed payout; a = -1: a loss).
RuleSpec = tuple[Callable[[dict], bool], Fraction, Fraction]


def hands_of(dealt: Sequence[Card], used: int, row: dict) -> tuple[list[Card], list[Card]]:
    """The Player's and the Banker's cards of a dealt round (its row, the cards it used)."""
    player, banker = [dealt[0], dealt[2]], [dealt[1], dealt[3]]
    rest = iter(dealt[4:used])
    if row["player_third"] >= 0:
        player.append(next(rest))
    if row["banker_third"] >= 0:
        banker.append(next(rest))
    return player, banker


def counted(kind: str, player: list[Card], banker: list[Card], winner: str) -> list[Card]:
    """The physical cards a bet multiplied by ``kind`` counts."""
    if kind == "winner":
        return player if winner == "player" else banker if winner == "banker" else []
    return {
        "both": player + banker,
        "player": player,
        "banker": banker,
        "player_first_two": player[:2],
        "banker_first_two": banker[:2],
    }[kind]


def deals(cards: Sequence[Card], kind: str, rules: Sequence[RuleSpec]) -> Counter:
    """Ordered six-card sequences by (settling rule index, counted cards sorted)."""
    out: Counter = Counter()
    for order in itertools.permutations(range(len(cards)), 6):
        dealt = [cards[i] for i in order]
        row, used = card_round(dealt)
        rule = next((i for i, (holds, _, _) in enumerate(rules) if holds(row)), len(rules))
        player, banker = hands_of(dealt, used, row)
        out[rule, tuple(sorted(counted(kind, player, banker, row["winner"])))] += 1
    return out


def multiplier_distribution(
    counted_cards: Sequence[Card],
    universe: Sequence[Card],
    cards: dict[int, Fraction],
    values: dict[Fraction, Fraction],
    cap: Fraction | None,
) -> dict[Fraction, Fraction]:
    """multiplier -> probability of these counted cards, over every draw."""
    out: dict[Fraction, Fraction] = {}
    for k, p_k in cards.items():
        subsets = list(itertools.combinations(universe, k))
        for special in subsets:
            for assigned in itertools.product(values.items(), repeat=k):
                p = p_k * prod(q for _, q in assigned) / len(subsets)
                value_of = {card: v for card, (v, _) in zip(special, assigned, strict=True)}
                m = prod((value_of.get(card, Fraction(1)) for card in counted_cards), start=1)
                if cap is not None:
                    m = min(m, cap)
                out[Fraction(m)] = out.get(Fraction(m), Fraction(0)) + p
    return out


def multiplier_moments(
    counted_cards: Sequence[Card],
    universe: Sequence[Card],
    cards: dict[int, Fraction],
    values: dict[Fraction, Fraction],
    cap: Fraction | None,
) -> tuple[Fraction, Fraction]:
    """E[multiplier] and E[multiplier**2] of these counted cards, over every draw."""
    drawn = multiplier_distribution(counted_cards, universe, cards, values, cap)
    return sum(p * m for m, p in drawn.items()), sum(p * m * m for m, p in drawn.items())


def reference_nets(
    cards: Sequence[Card],
    kind: str,
    rules: Sequence[RuleSpec],
    universe: Sequence[Card],
    distribution: tuple[dict[int, Fraction], dict[Fraction, Fraction], Fraction | None],
    fee: Fraction,
) -> dict[Fraction, Fraction]:
    """net - fee per unit staked of one round of the tiny shoe -> its probability."""
    tally = deals(cards, kind, rules)
    total = sum(tally.values())
    out: dict[Fraction, Fraction] = {}
    for (rule, counted_cards), n in tally.items():
        a, b = (rules[rule][1], rules[rule][2]) if rule < len(rules) else (Fraction(-1), 0)
        drawn = (
            multiplier_distribution(counted_cards, universe, *distribution)
            if b
            else {Fraction(1): Fraction(1)}
        )
        for m, p in drawn.items():
            net = a + b * m - fee
            out[net] = out.get(net, Fraction(0)) + Fraction(n, total) * p
    return out


def reference_moments(
    cards: Sequence[Card],
    kind: str,
    rules: Sequence[RuleSpec],
    universe: Sequence[Card],
    distribution: tuple[dict[int, Fraction], dict[Fraction, Fraction], Fraction | None],
) -> tuple[Fraction, Fraction, list[int]]:
    """E[net] and E[net**2] per unit staked of a bet on one round of the tiny shoe, and
    the sequences each rule (then "none") settles."""
    assert comb(len(universe), 1) >= len(set(cards)), "the universe must hold every card"
    tally = deals(cards, kind, rules)
    total = sum(tally.values())
    first = second = Fraction(0)
    ways = [0] * (len(rules) + 1)
    for (rule, counted_cards), n in tally.items():
        ways[rule] += n
        a, b = (rules[rule][1], rules[rule][2]) if rule < len(rules) else (Fraction(-1), 0)
        m1, m2 = multiplier_moments(counted_cards, universe, *distribution) if b else (1, 1)
        first += Fraction(n, total) * (a + b * m1)
        second += Fraction(n, total) * (a * a + 2 * a * b * m1 + b * b * m2)
    return first, second, ways
