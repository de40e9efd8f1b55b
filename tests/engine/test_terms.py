"""The draw walk compiled into falling-factorial terms, against the brute-force reference."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product
from math import perm, prod

import naive
import pytest

from analyzer import AnalyzerError, seed_paytable
from analyzer.engine.terms import (
    cell_columns,
    cell_nets,
    is_value_level,
    term_coefficients,
    walk_terms,
)
from analyzer.game.fields import NO_THIRD

#: Cards of each point value 0-9: a small shoe with no 3s left, and one full deck.
SHOES = [[4, 1, 2, 0, 3, 1, 2, 1, 1, 2], [16, 4, 4, 4, 4, 4, 4, 4, 4, 4]]


def _weights(point_counts: list[int]) -> list[int]:
    """Each term's weight: ordered six-card sequences of the shoe of that shape."""
    terms = walk_terms()
    n = sum(point_counts)
    return [
        prod(perm(point_counts[v], int(j)) for v, j in enumerate(k)) * perm(n - int(u), 6 - int(u))
        for k, u in zip(terms.k, terms.used, strict=True)
    ]


@pytest.mark.kernels
def test_the_terms_are_the_shapes_of_every_round() -> None:
    terms = walk_terms()
    assert len(terms.k) == 6958  # distinct (cards of each value, cards used) of a round
    assert ((terms.k.sum(axis=1) == terms.used) & (terms.used >= 4) & (terms.used <= 6)).all()
    assert len(set(map(tuple, terms.k.tolist()))) == len(terms.k)
    # Every sequence of point values a round can deal, by the rules written out.
    leaves = 0
    for a, b, c, d in product(range(10), repeat=4):
        player, banker = (a + c) % 10, (b + d) % 10
        if player >= 8 or banker >= 8:
            leaves += 1
        elif naive.player_draws(player):
            leaves += sum(10 if naive.banker_draws(banker, x) else 1 for x in range(10))
        else:
            leaves += 10 if naive.banker_draws(banker, None) else 1
    assert int(terms.count.sum()) == leaves


@pytest.mark.slow
@pytest.mark.kernels
@pytest.mark.parametrize("point_counts", SHOES)
def test_terms_recombine_into_the_reference_counts(point_counts) -> None:
    terms = walk_terms()
    weights = _weights(point_counts)
    counts: Counter = Counter()
    for t, c, ways in zip(terms.term_index, terms.cell_index, terms.count, strict=True):
        if weights[t]:
            ps, bs, pt, bt = (int(x) for x in terms.cells[c])
            key = (ps, bs, None if pt == NO_THIRD else pt, None if bt == NO_THIRD else bt)
            counts[key] += int(ways) * weights[t]
    assert counts == naive.reference_value_counts(point_counts)
    assert sum(weights[t] * int(w) for t, w in zip(terms.term_index, terms.count, strict=True)) == (
        perm(sum(point_counts), 6)
    )


@pytest.mark.slow
@pytest.mark.kernels
@pytest.mark.parametrize("point_counts", SHOES)
@pytest.mark.parametrize(("bet", "mode"), [("banker", "commission"), ("lucky_six", "commission")])
def test_term_coefficients_give_the_reference_ev(point_counts, bet, mode) -> None:
    coefficients = term_coefficients(seed_paytable().bet(bet, mode))
    ev = sum(c * w for c, w in zip(coefficients, _weights(point_counts), strict=True))
    reference = {(0, 0, *key): w for key, w in naive.reference_value_counts(point_counts).items()}
    assert Fraction(ev, perm(sum(point_counts), 6)) == naive.expected_value(reference, bet, mode)


@pytest.mark.kernels
def test_cells_carry_the_value_level_fields() -> None:
    columns = cell_columns()
    cells = walk_terms().cells
    assert len(columns["player_score"]) == len(cells)
    nets = cell_nets(seed_paytable().bet("tie", "commission"))
    for i, (ps, bs, pt, bt) in enumerate(cells.tolist()):
        key = (0, 0, ps, bs, None if pt == NO_THIRD else pt, None if bt == NO_THIRD else bt)
        assert nets[i] == naive.settle("tie", "commission", key)
        assert columns["total_cards"][i] == 4 + (pt != NO_THIRD) + (bt != NO_THIRD)


@pytest.mark.kernels
@pytest.mark.parametrize(
    ("bet", "value_level"),
    [("banker", True), ("lucky_six", True), ("player_pair", False), ("perfect_pair", False)],
)
def test_only_bets_on_point_values_compile(bet, value_level) -> None:
    b = seed_paytable().bet(bet, "commission")
    assert is_value_level(b) is value_level
    if not value_level:
        with pytest.raises(AnalyzerError, match=f"^bet '{bet}' looks at pairs"):
            cell_nets(b)
