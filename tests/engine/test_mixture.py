"""Random drawing rules and strategies through every engine, against tests/naive.py.

A rule table is drawn at random (every cell drawn, stood or chosen), written as a
``[rules]`` table is, and read twice: by the package, and by ``naive.RuleTable`` from the
same text. Every engine (the value walk, the pair states, the card walk, the compiled
terms, the batch engine and the dealer) is compared with the brute-force reference driven
by that table, exactly, on small shoes. A mixed strategy is checked against a reference
that weights each decision by its probability as it deals, where the package sums pure
tableaus.
"""

from __future__ import annotations

from fractions import Fraction

import naive
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import Shoe
from analyzer.engine.batch import batch_expected_values
from analyzer.engine.card_walk import card_outcome_table
from analyzer.engine.enumerator import count_outcomes
from analyzer.engine.mixture import mixed_counts
from analyzer.game.fields import NO_THIRD
from analyzer.game.rules import parse_strategy, rules_from_table
from analyzer.paytables.model import paytable_from_dict
from analyzer.runs.dealer import Drawing, Procedure, deal_shoe

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _listing(values: list[int], draw) -> str:
    """The totals as a key lists them: in any order, some as ranges."""
    values = sorted(values)
    if values and draw(st.booleans()) and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}-{values[-1]}" if len(values) > 1 else str(values[0])
    return ",".join(str(v) for v in draw(st.permutations(values)))


@st.composite
def rule_tables(draw, mixed: bool = True, max_cells: int = 3):
    """A valid ``[rules]`` table with at most ``max_cells`` decision cells, and choices
    for them (probabilities of drawing, pure unless ``mixed``)."""
    naturals = draw(st.sampled_from([[8, 9], [8, 9], [9], [7, 8, 9], []]))
    actions = ["draw", "stand", "choose"]
    others = [t for t in range(10) if t not in naturals]
    player = {t: draw(st.sampled_from(actions)) for t in others}
    stood = {b: draw(st.sampled_from(actions)) for b in others}
    banker = {b: [draw(st.sampled_from(actions)) for _ in range(10)] for b in others}
    chosen = 0  # beyond max_cells, a decision cell becomes a cell that stands

    def kept(action: str) -> str:
        nonlocal chosen
        chosen += action == "choose"
        return "stand" if action == "choose" and chosen > max_cells else action

    player = {t: kept(a) for t, a in player.items()}
    stood = {b: kept(a) for b, a in stood.items()}
    banker = {b: [kept(a) for a in row] for b, row in banker.items()}
    table = {
        "naturals": _listing(naturals, draw),
        "player_draws": _listing([t for t, a in player.items() if a == "draw"], draw),
        "player_chooses": _listing([t for t, a in player.items() if a == "choose"], draw),
        "banker_draws_when_player_stands": _listing(
            [b for b, a in stood.items() if a == "draw"], draw
        ),
        "banker_chooses_when_player_stands": _listing(
            [b for b, a in stood.items() if a == "choose"], draw
        ),
        "banker_draws": {
            str(b): _listing([x for x in range(10) if row[x] == "draw"], draw)
            for b, row in banker.items()
        },
        "banker_chooses": {
            str(b): _listing([x for x in range(10) if row[x] == "choose"], draw)
            for b, row in banker.items()
            if "choose" in row
        },
    }
    cells = [f"player:{t}" for t, a in player.items() if a == "choose"]
    cells += [f"banker:{b}/stood" for b, a in stood.items() if a == "choose"]
    cells += [
        f"banker:{b}/{x}" for b, row in banker.items() for x in range(10) if row[x] == "choose"
    ]
    probabilities = [Fraction(0), Fraction(1)]
    if mixed:
        probabilities += [Fraction(1, 3), Fraction(9, 11), Fraction(859, 2288)]
    choices = {cell: draw(st.sampled_from(probabilities)) for cell in cells}
    return table, choices


def _strategy(choices: dict):
    return parse_strategy(",".join(f"{c}={p}" for c, p in choices.items())) if choices else None


@st.composite
def small_shoes(draw, low: int = 6, high: int = 8):
    """A few physical cards: (rank 0-12, suit 0-3), repeats allowed."""
    cards = draw(
        st.lists(st.tuples(st.integers(0, 12), st.integers(0, 3)), min_size=low, max_size=high)
    )
    counts = np.zeros((13, 4), dtype=np.int64)
    for r, s in cards:
        counts[r, s] += 1
    return cards, Shoe(counts.sum(axis=1), counts)


def _value_probabilities(outcomes) -> dict:
    counts = outcomes.counts.sum(axis=0)
    out = {}
    for ps, bs, pt, bt in zip(*np.nonzero(counts), strict=True):
        key = (int(ps), int(bs), None if pt == NO_THIRD else int(pt))
        key += (None if bt == NO_THIRD else int(bt),)
        out[key] = Fraction(int(counts[ps, bs, pt, bt]), outcomes.denominator)
    return out


@pytest.mark.slow
@pytest.mark.kernels
@SETTINGS
@given(rule_tables(), st.lists(st.integers(0, 12), min_size=6, max_size=30))
def test_the_value_walk_under_any_rules_and_strategy(drawn, ranks) -> None:
    table, choices = drawn
    rank_counts = np.bincount(ranks, minlength=13)
    points = [0] * 10
    for rank, n in enumerate(rank_counts.tolist()):
        points[naive.points(rank + 1)] += n
    outcomes = count_outcomes(
        Shoe(rank_counts), "none", rules_from_table(table), _strategy(choices)
    )
    assert outcomes.counts.sum() == outcomes.denominator
    reference = naive.mixed_value_reference(points, naive.RuleTable(table, choices))
    assert _value_probabilities(outcomes) == {k: p for k, p in reference.items() if p}


@pytest.mark.kernels
@SETTINGS
@given(rule_tables(mixed=False), small_shoes())
def test_the_pair_states_under_any_pure_rules(drawn, shoe) -> None:
    (table, choices), (cards, shoe) = drawn, shoe
    outcomes = count_outcomes(shoe, "suit", rules_from_table(table), _strategy(choices))
    reference = naive.physical_reference(
        [(r + 1, s) for r, s in cards], naive.RuleTable(table, choices)
    )
    got = {}
    for s, ps, bs, pt, bt in zip(*np.nonzero(outcomes.counts), strict=True):
        key = (int(s) // 3, int(s) % 3, int(ps), int(bs))
        key += (None if pt == NO_THIRD else int(pt), None if bt == NO_THIRD else int(bt))
        got[key] = int(outcomes.counts[s, ps, bs, pt, bt])
    assert got == dict(reference)


CARD_FIELDS = ["player_card3_rank", "banker_card3_suit", "banker_card1_value", "winner"]


@pytest.mark.kernels
@SETTINGS
@given(rule_tables(mixed=False), small_shoes(high=7))
def test_the_card_walk_under_any_pure_rules(drawn, shoe) -> None:
    (table, choices), (cards, shoe) = drawn, shoe
    walked = card_outcome_table(
        shoe, frozenset(CARD_FIELDS), rules=rules_from_table(table), strategy=_strategy(choices)
    )
    got: dict = {}
    for i, ways in enumerate(walked.ways.tolist()):
        key = tuple(walked.columns[f][i].item() for f in CARD_FIELDS)
        got[key] = got.get(key, 0) + ways
    reference = naive.card_reference(
        [(r + 1, s) for r, s in cards], CARD_FIELDS, naive.RuleTable(table, choices)
    )
    assert got == dict(reference)


def _paytable(table: dict, choices: dict) -> dict:
    return {
        "name": "random rules",
        "rules": table,
        **({"strategy": {c: str(p) for c, p in choices.items()}} if choices else {}),
        "bet": [
            {"id": "player", "rule": [{"when": "winner == 'player'", "pays": 1}]},
            {"id": "three_cards", "rule": [{"when": "player_cards == 3", "pays": "3:2"}]},
            {"id": "queen", "rule": [{"when": "banker_card3_rank == 'Q'", "pays": 7}]},
        ],
    }


@pytest.mark.slow
@SETTINGS
@given(rule_tables(), st.lists(st.integers(0, 12), min_size=6, max_size=8))
def test_compiled_terms_and_the_batch_engine_under_any_rules(drawn, ranks) -> None:
    table, choices = drawn
    paytable = paytable_from_dict(_paytable(table, choices))
    rank_counts = np.bincount(ranks, minlength=13)
    points = [0] * 10
    for rank, n in enumerate(rank_counts.tolist()):
        points[naive.points(rank + 1)] += n
    reference = naive.mixed_value_reference(points, naive.RuleTable(table, choices))
    player = sum(p * (1 if k[0] > k[1] else -1) for k, p in reference.items())
    three = sum(p * (Fraction(3, 2) if k[2] is not None else -1) for k, p in reference.items())
    # Five shoes, so the card bet compiles into terms too (below four it is walked).
    ev = batch_expected_values(paytable, np.tile(rank_counts, (5, 1)))
    assert ev[("player", "standard")].to_numpy() == pytest.approx(float(player), abs=1e-12)
    assert ev[("three_cards", "standard")].to_numpy() == pytest.approx(float(three), abs=1e-12)
    # The card bet: against every dealt sequence of the same cards, each decision taken
    # both ways and weighted by its probability.
    queen = Fraction(0)
    cards = [(rank + 1, i % 4) for i, rank in enumerate(ranks)]
    decided = [dict(zip(choices, bits, strict=True)) for bits in _pure_points(len(choices))]
    for pure in decided:
        weight = Fraction(1)
        for cell, drawn_there in pure.items():
            weight *= choices[cell] if drawn_there else 1 - choices[cell]
        if weight == 0:
            continue
        counted = naive.card_reference(cards, ["banker_card3_rank"], naive.RuleTable(table, pure))
        hits = counted.get(("Q",), 0)
        queen += weight * (Fraction(8 * hits, sum(counted.values())) - 1)
    assert ev[("queen", "standard")].to_numpy() == pytest.approx(float(queen), abs=1e-12)


def _pure_points(n: int) -> list[tuple[int, ...]]:
    """Every pure playing of ``n`` cells (their product measure weights them)."""
    return [tuple((i >> k) & 1 for k in range(n)) for i in range(2**n)]


@pytest.mark.kernels
@SETTINGS
@given(rule_tables(mixed=False), st.randoms(use_true_random=False))
def test_the_dealer_under_any_pure_rules(drawn, random) -> None:
    table, choices = drawn
    rules, strategy = rules_from_table(table), _strategy(choices)
    cards = np.array(random.sample(range(52), 52), dtype=np.int64)
    rounds = deal_shoe(cards, Procedure(decks=1, burn=False), Drawing.of(rules, strategy))
    reference = naive.RuleTable(table, choices)
    at = 0
    for record in rounds:
        dealt = [(int(c) // 4 + 1, int(c) % 4) for c in cards[at : at + 6]]
        pts = [naive.points(rank) for rank, _ in dealt]
        player, banker, pt, bt, used = naive.play(pts[:4], pts[4:], reference)
        assert int(record["start"]) == at and int(record["cards"]) == used
        assert (int(record["player_score"]), int(record["banker_score"])) == (player, banker)
        assert int(record["player_third"]) == (-1 if pt is None else pt)
        assert int(record["banker_third"]) == (-1 if bt is None else bt)
        at += used


def test_a_mixed_strategy_is_dealt_at_its_probability() -> None:
    """Player 5 drawn with probability 9/11 (baccarat-gold's one cell): over many rounds
    that reach it, the share drawn is within 4 standard errors of 9/11."""
    rules = rules_from_table({"player_chooses": "5"})
    strategy = parse_strategy("player:5=9/11")
    rng = np.random.default_rng(7)
    reached = drew = 0
    for _ in range(300):
        cards = rng.permutation(np.repeat(np.arange(52, dtype=np.int64), 8))
        rounds = deal_shoe(cards, Procedure(), Drawing.of(rules, strategy), rng)
        for record in rounds:
            start = int(record["start"])
            values = [min(int(c) // 4 + 1, 10) % 10 for c in cards[start : start + 4]]
            player, banker = (values[0] + values[2]) % 10, (values[1] + values[3]) % 10
            if player == 5 and banker < 8:
                reached += 1
                drew += int(record["player_third"]) >= 0
    p = 9 / 11
    assert abs(drew / reached - p) < 4 * (p * (1 - p) / reached) ** 0.5


def test_mixed_counts_stay_integers_over_one_denominator() -> None:
    parts = [(Fraction(2, 11), np.array([3, 0, 8])), (Fraction(9, 11), np.array([1, 10, 0]))]
    counts, denominator, scale = mixed_counts(parts, 11)
    assert denominator == 121 and scale == 11 and counts.tolist() == [15, 90, 16]
    single = np.array([1, 2])
    assert mixed_counts([(Fraction(1), single)], 3) == (single, 3, 1)
    # Beyond int64: Python integers, exactly.
    big = np.array([2**61, 2**61], dtype=np.int64)
    counts, denominator, _ = mixed_counts([(Fraction(1, 3), big), (Fraction(2, 3), big)], 2**62)
    assert counts.dtype == object and denominator == 3 * 2**62
    assert counts.tolist() == [3 * 2**61, 3 * 2**61]
