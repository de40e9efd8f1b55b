"""The value-composition kernels of the exact as-dealt figure
(:mod:`analyzer.engine.dealt_exact`): the residues rebuilt, the burn's starts against a
plain count of value sequences, one pass dealt in rows as in one go, and the identity
averaging of a pair bet against a plain count of card orders. The figures themselves are
checked against every order of the cards in tests/runs/test_as_dealt.py."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations
from math import prod

import numpy as np
import pytest

import analyzer.engine.dealt_exact as kernels
from analyzer.engine.dealt_exact import (
    DealPlan,
    ValueShoe,
    crt,
    deal_pass,
    primes_below,
    round_terms,
    term_nets,
    transitions,
)
from analyzer.errors import AnalyzerError
from analyzer.paytables.library import as_paytable

SEED = as_paytable("seed-game")
TABLEAU = SEED.mixture[0][1]

pytestmark = pytest.mark.kernels


def test_residues_are_rebuilt_by_the_chinese_remainder_theorem() -> None:
    primes = primes_below(2**31, 5)
    assert all(p < 2**31 and all(p % d for d in range(2, 1000)) for p in primes)
    value = 3**90 + 12345
    assert value < prod(primes)
    assert crt([value % p for p in primes], primes) == value


def test_the_burn_starts_count_value_sequences() -> None:
    """Shown card then burned cards: per composition left, the value sequences leading
    there, against a count of every sequence of a tiny shoe's values."""
    full = (2, 1, 0, 1, 0, 0, 0, 0, 1, 1)  # 6 cards
    shoe = ValueShoe(full)
    burned = (2, 0, 0, 1, 0, 0, 0, 0, 0, 0)  # a 0 burns 2 more, a 3 burns 1 more
    plan = DealPlan(shoe, round_terms(TABLEAU), burned, 6, False, 1)
    got = kernels._start(plan, 1_000_003)
    want: Counter = Counter()
    cards = [v for v, n in enumerate(full) for _ in range(n)]
    for order in set(permutations(cards)):
        taken = 1 + burned[order[0]]
        left = list(full)
        for v in order[:taken]:
            left[v] -= 1
        want[shoe.index(left)] += 1
    # the orders counted above are value orders of the whole shoe: a start is reached by
    # one prefix, completed by every arrangement of what is left
    for index in np.nonzero(got)[0].tolist():
        left = [(index // int(s)) % (n + 1) for s, n in zip(shoe.strides, full, strict=True)]
        rest = sum(left)
        arrangements = prod(range(1, rest + 1)) // prod(prod(range(1, n + 1)) for n in left)
        assert got[index] * arrangements == want[index]
    assert set(np.nonzero(got)[0].tolist()) == set(want)


def test_a_pass_in_rows_is_the_pass_in_one_go(monkeypatch) -> None:
    full = (4, 2, 0, 1, 1, 0, 1, 0, 2, 1)
    shoe = ValueShoe(full)
    plan = DealPlan(shoe, round_terms(TABLEAU), (9, 0, 1, 2, 3, 4, 5, 6, 7, 8), 8, True, 2)
    primes = plan.primes()
    whole = deal_pass(plan, primes)
    monkeypatch.setattr(kernels, "_ROWS_AT_ONCE", 1)
    seen, summed = [], []
    in_rows = deal_pass(plan, primes, seen.append, summing=lambda k, n: summed.append((k, n)))
    assert sum(seen) == kernels.rows(shoe) and len(seen) == kernels.rows(shoe)
    # (the sums after the rows, a minute for one deck, are said prime by prime)
    assert summed == [(k, len(primes)) for k in range(1, len(primes) + 1)]
    for one, other in zip(whole, in_rows, strict=True):
        for key in one:
            np.testing.assert_array_equal(one[key], other[key])
    assert transitions(full, plan.terms) > 0


def test_a_pass_taken_up_from_any_block_is_the_pass_in_one_go(monkeypatch) -> None:
    """The state ``keep`` is given after a block, dealt on by another call (as --resume
    does), gives the whole pass's results, and the second call deals only the rows left;
    a state of another shape is refused."""
    full = (4, 2, 0, 1, 1, 0, 1, 0, 2, 1)
    plan = DealPlan(
        ValueShoe(full), round_terms(TABLEAU), (9, 0, 1, 2, 3, 4, 5, 6, 7, 8), 8, True, 2
    )
    primes = plan.primes()
    whole = deal_pass(plan, primes)
    total = kernels.rows(plan.shoe)
    monkeypatch.setattr(kernels, "_ROWS_AT_ONCE", 5)
    kept = []

    def keep(state, interrupted) -> None:
        assert not interrupted
        kept.append(kernels.PassState(state.a.copy(), state.extra.copy(), state.row))

    deal_pass(plan, primes, keep=keep)
    assert [s.row for s in kept] == [*range(total - 5, 0, -5), 0]
    for state in [*kept[:: max(1, len(kept) // 6)], kept[-1]]:
        seen, left = [], state.row
        taken_up = deal_pass(plan, primes, seen.append, state=state)  # (dealt in place)
        assert sum(seen) == left and state.row == 0  # only the rows left
        for one, other in zip(whole, taken_up, strict=True):
            for key in one:
                np.testing.assert_array_equal(one[key], other[key])
    wrong = kernels.PassState(kept[0].a[:, :1].copy(), kept[0].extra, kept[0].row)
    with pytest.raises(AnalyzerError, match="not one of this shoe and primes"):
        deal_pass(plan, primes, state=wrong)


def test_ctrl_c_between_blocks_hands_the_pass_to_keep_whole(monkeypatch) -> None:
    """A SIGINT as a block is dealt is taken after it (the state holds whole rows): keep
    is called with ``interrupted`` True, then the KeyboardInterrupt goes on up."""
    import signal

    full = (4, 2, 0, 1, 1, 0, 1, 0, 2, 1)
    plan = DealPlan(ValueShoe(full), round_terms(TABLEAU), None, 9, False, 1)
    primes = plan.primes()
    whole = deal_pass(plan, primes)
    monkeypatch.setattr(kernels, "_ROWS_AT_ONCE", 4)
    real, calls, kept = kernels._deal_jit, [], []

    def signalled(*args):
        calls.append(args[-2])
        out = real(*args)
        if len(calls) == 3:
            signal.raise_signal(signal.SIGINT)
        return out

    monkeypatch.setattr(kernels, "_deal_jit", signalled)
    with pytest.raises(KeyboardInterrupt):
        deal_pass(plan, primes, keep=lambda state, interrupted: kept.append((state, interrupted)))
    state, interrupted = kept[-1]
    assert interrupted and state.row == kernels.rows(plan.shoe) - 12 and len(calls) == 3
    monkeypatch.setattr(kernels, "_deal_jit", real)
    for one, other in zip(whole, deal_pass(plan, primes, state=state), strict=True):
        for key in one:
            np.testing.assert_array_equal(one[key], other[key])


def test_a_pair_bet_averages_the_identities_of_the_cards() -> None:
    """Player Pair's net summed over the orders of the term {0, 0, 8, 8} that end the
    round in four cards, each averaged over every ordered draw of the cards themselves
    (two of one king: a suited pair; a queen)."""
    from naive import play

    from analyzer.engine.terms import walk_terms

    counts = [0] * 52
    cards = [(13, 0), (13, 0), (12, 1), (8, 0), (8, 3)]
    for rank, suit in cards:
        counts[(rank - 1) * 4 + suit] += 1
    nets = term_nets(SEED.bet("player_pair", "commission"), TABLEAU, tuple(counts))
    walk = walk_terms(TABLEAU)
    term = int(np.nonzero((walk.k == [2, 0, 0, 0, 0, 0, 0, 0, 2, 0]).all(axis=1))[0][0])

    def value(card) -> int:
        return 0 if card[0] >= 10 else card[0]

    total = Fraction(0)
    for order in set(permutations([0, 0, 8, 8])):
        try:
            *_, used = play(order, [])
        except StopIteration:  # a third card is drawn: another term
            continue
        assert used == 4
        draws = [
            seq
            for seq in permutations(range(len(cards)), 4)
            if [value(cards[i]) for i in seq] == list(order)
        ]
        pairs = sum(cards[seq[0]][0] == cards[seq[2]][0] for seq in draws)
        total += Fraction(pairs * 11 - (len(draws) - pairs), len(draws))
    assert total != 0
    assert nets[term] == total


def test_a_bet_on_the_cards_themselves_is_refused() -> None:
    from analyzer.paytables.library import punto_banco_names

    card_bets = [
        bet
        for name in punto_banco_names()
        for bet in as_paytable(name).bets
        if bet.card_level and not bet.multiplied
    ]
    assert card_bets
    with pytest.raises(AnalyzerError, match="looks at the cards themselves"):
        term_nets(card_bets[0], TABLEAU, (1,) * 52)
