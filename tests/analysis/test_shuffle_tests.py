"""Shuffle tests on card logs (:mod:`analyzer.analysis.shuffle_tests`) and the weak
shuffle ``simulate --shuffle riffle:K`` deals (:mod:`analyzer.runs.dealer`).

A log dealt by a weak riffle is found and one dealt by a perfect shuffle is not, at a
level of 1e-6 (so that a false alarm in these tests, with their fixed seeds, would be one
in a million); the moments against every order of tiny shoes; the statistics against
plain-Python computations on tiny logs; hostile logs refused in one line."""

from __future__ import annotations

import csv
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from helpers import run

from analyzer import load_paytable
from analyzer.analysis.audit import card_text
from analyzer.analysis.audit_fit import holm
from analyzer.analysis.shuffle_tests import (
    ShuffleTests,
    adjacency_moments,
    independence_statistic,
    overlap_moments,
    position_bins,
    position_table,
    position_test,
    shoe_order,
)
from analyzer.errors import AnalyzerError
from analyzer.game.cards import CARD_RANKS
from analyzer.game.shoe import INFINITE
from analyzer.runs.audit_log import shuffle_tests_of_logs
from analyzer.runs.dealer import (
    Procedure,
    deal_riffled_shoes,
    deal_shoes,
    discard_stack,
    riffle,
    shuffled_shoe,
)

#: A false alarm in these tests is one in a million.
ALARM = 1e-6
SEED_GAME = load_paytable("seed-game")


# -- The weak shuffle ----------------------------------------------------------------------------


class _Bits:
    """A stand-in generator giving fixed bits to :func:`riffle`."""

    def __init__(self, bits):
        self.bits = list(bits)

    def integers(self, low, high, size):
        assert (low, high) == (0, 2)
        out, self.bits = self.bits[:size], self.bits[size:]
        return np.array(out)


@pytest.mark.kernels
def test_one_riffle_is_the_gilbert_shannon_reeds_law() -> None:
    # Every bit string alike: the identity has chance (n + 1) / 2**n, every other order
    # with two rising sequences 1 / 2**n, any other none (the GSR law).
    n = 5
    seen: dict[tuple, int] = {}
    for bits in itertools.product((0, 1), repeat=n):
        order = tuple(riffle(_Bits(bits), np.arange(n)).tolist())
        seen[order] = seen.get(order, 0) + 1
    for order, times in seen.items():
        assert sorted(order) == list(range(n))
        assert _rising_sequences(order) <= 2
        assert times == (n + 1 if order == tuple(range(n)) else 1)
    # every order of at most two rising sequences comes out: 2**n - n of them
    expected = sum(1 for p in itertools.permutations(range(n)) if _rising_sequences(p) <= 2)
    assert len(seen) == expected == 2**n - n


def _rising_sequences(order) -> int:
    """The rising sequences of an order: 1 + the cards k whose k + 1 lies above them."""
    place = {card: i for i, card in enumerate(order)}
    return 1 + sum(place[k + 1] < place[k] for k in range(len(order) - 1))


@pytest.mark.kernels
def test_a_riffle_keeps_each_packet_in_order() -> None:
    # bits 0 1 0 1 ...: the top packet's cards at the even places, the bottom's at the odd
    order = riffle(_Bits([0, 1] * 4), np.array([10, 11, 12, 13, 20, 21, 22, 23]))
    assert order.tolist() == [10, 20, 11, 21, 12, 22, 13, 23]


@pytest.mark.kernels
def test_the_discards_are_stacked_the_last_card_dealt_on_top() -> None:
    assert discard_stack(np.arange(8), 5).tolist() == [4, 3, 2, 1, 0, 5, 6, 7]


@pytest.mark.kernels
def test_riffled_shoes_are_each_the_last_ones_discards_riffled() -> None:
    procedure = Procedure(decks=1, cut_card=10)
    dealt = deal_riffled_shoes(np.random.default_rng(4), 4, procedure, riffles=2)
    rng = np.random.default_rng(4)
    first = shuffled_shoe(rng, 1)
    assert dealt.cards[0].tolist() == first.tolist()
    for i in range(1, 4):
        last = dealt.shoe(i - 1)[-1]
        stack = discard_stack(dealt.cards[i - 1], int(last["start"] + last["cards"]))
        rng_state = riffle(rng, stack, 2)
        assert dealt.cards[i].tolist() == rng_state.tolist()
    # and deal_shoes deals them so with riffles
    again = deal_shoes(np.random.default_rng(4), 4, procedure, riffles=2)
    assert (again.cards == dealt.cards).all() and (again.n_rounds == dealt.n_rounds).all()


# -- The moments against every order of tiny shoes ------------------------------------------------


def _pairs(before) -> set:
    held = set(itertools.pairwise(before))
    return held | {(b, a) for a, b in held}


@pytest.mark.parametrize(
    "counts, before, places",
    [
        ({0: 2, 1: 2, 2: 2}, [0, 1, 1, 2, 0], 3),
        ({0: 2, 1: 2, 2: 2, 3: 1}, [3, 0, 2, 1, 0, 2], 5),
        ({0: 3, 1: 1, 2: 2}, [0, 0, 2], 4),
    ],
)
def test_the_adjacency_moments_are_every_orders(counts, before, places) -> None:
    composition = np.zeros(52, dtype=np.int64)
    cards = []
    for card, n in counts.items():
        composition[card] = n
        cards += [card] * n
    held = _pairs(before)
    values = [
        sum((p[i], p[i + 1]) in held for i in range(places))
        for p in itertools.permutations(cards)  # (every order, repeats weighted alike)
    ]
    mean = Fraction(sum(values), len(values))
    variance = Fraction(sum(v * v for v in values), len(values)) - mean**2
    mu, var, _ = adjacency_moments(np.array(before), composition, places)
    assert mu == pytest.approx(float(mean), rel=1e-12)
    assert var == pytest.approx(float(variance), rel=1e-12)


def test_the_overlap_moments_are_every_orders() -> None:
    composition = np.zeros(52, dtype=np.int64)
    composition[[0, 1, 2]] = [2, 3, 2]
    cards = [0, 0, 1, 1, 1, 2, 2]
    last = [1, 1, 2]
    first = 3
    values = [
        sum(last.count(x) * p[:first].count(x) for x in set(cards))
        for p in itertools.permutations(cards)
    ]
    mean = Fraction(sum(values), len(values))
    variance = Fraction(sum(v * v for v in values), len(values)) - mean**2
    mu, var = overlap_moments(np.array(last), composition, first)
    assert mu == pytest.approx(float(mean), rel=1e-12)
    assert var == pytest.approx(float(variance), rel=1e-12)


# -- Tiny logs against plain Python ---------------------------------------------------------------


def _write_log(path, shoes, burn: bool = True, names=None, skip_round=None):
    """A log of shoes given as card-index orders, each dealt in rounds of four cards
    (no third card: the tests read the order only), the first card as a one-card burn."""
    with open(path, "w", newline="") as stream:
        out = csv.writer(stream)
        out.writerow(["shoe", "round", "player_cards", "banker_cards", "burn"])
        for s, order in enumerate(shoes):
            start = 1 if burn else 0
            rounds = [order[i : i + 4] for i in range(start, len(order) - 3, 4)]
            for r, cards in enumerate(rounds):
                if skip_round == (s, r):
                    continue
                text = [card_text(int(c)) for c in cards]
                out.writerow(
                    [
                        (names or range(1, len(shoes) + 1))[s],
                        r + 1,
                        f"{text[0]} {text[2]}",
                        f"{text[1]} {text[3]}",
                        card_text(int(order[0])) if burn and r == 0 else "",
                    ]
                )
    return path


def _dealt_part(order, burn: bool = True) -> list[int]:
    """The cards of ``order`` the log above holds, in order."""
    start = 1 if burn else 0
    n = (len(order) - start) // 4
    return [int(c) for c in order[: start + 4 * n]] if burn else [int(c) for c in order[: 4 * n]]


def _plain_chi_square(table) -> float:
    rows = [sum(r) for r in table]
    cols = [sum(c) for c in zip(*table, strict=True)]
    total = sum(rows)
    return sum(
        (table[i][j] - rows[i] * cols[j] / total) ** 2 / (rows[i] * cols[j] / total)
        for i in range(len(rows))
        for j in range(len(cols))
        if rows[i]
    )


def _plain_adjacency(before, after, places, counts, n):
    """Plain Python: the count, and its mean and variance by sums over the pairs and
    pairs of pairs (the falling products of the cards left)."""
    held = sorted(_pairs(before))

    def chance(seq):
        left = dict(counts)
        p = 1.0
        for k, x in enumerate(seq):
            p *= left.get(x, 0) / (n - k)
            left[x] = left.get(x, 0) - 1
        return p

    q1 = sum(chance((a, b)) for a, b in held)
    q_adj = sum(chance((a, b, e)) for a, b in held for b2, e in held if b2 == b)
    q_dis = sum(chance((a, b, c, e)) for a, b in held for c, e in held)
    m = places
    var = m * q1 * (1 - q1) + 2 * (m - 1) * (q_adj - q1**2) + (m - 1) * (m - 2) * (q_dis - q1**2)
    count = sum((after[i], after[i + 1]) in set(held) for i in range(places))
    return count, m * q1, var


def test_the_statistics_of_a_tiny_log_are_plain_pythons(tmp_path) -> None:
    rng = np.random.default_rng(11)
    shoes = [rng.permutation(52)[: 41 + 4 * (i % 2)] for i in range(6)]  # 1 deck
    path = _write_log(tmp_path / "tiny.csv", shoes)
    result = shuffle_tests_of_logs([path], SEED_GAME, decks=1, level=0.01)
    orders = [_dealt_part(s) for s in shoes]
    window = min(len(o) for o in orders)
    assert (result.shoes, result.pairs, result.window, result.burn_logged) == (6, 5, window, True)
    tests = {t.key: t for t in result.tests}
    # position: the rank x bin table by hand, Pearson's statistic scaled by 51/52
    bins = position_bins(6, window)
    assert bins == min(8, 6 * window // 65) and bins >= 2
    edges = [round(window * k / bins) for k in range(bins + 1)]
    table = [[0] * bins for _ in range(13)]
    for order in orders:
        for place, card in enumerate(order[:window]):
            b = max(k for k in range(bins) if edges[k] <= place)
            table[int(CARD_RANKS[card]) - 1][b] += 1
    assert position_table([np.array(o) for o in orders], window, bins).tolist() == table
    chi = _plain_chi_square(table) * 51 / 52
    assert tests["position"].statistic == pytest.approx(chi, rel=1e-12)
    df = (sum(1 for r in table if sum(r)) - 1) * (bins - 1)
    assert tests["position"].df == df
    # adjacent: the count, mean and variance summed over the pairs of shoes
    counts = {c: 1 for c in range(52)}
    total = [0, 0.0, 0.0]
    for before, after in itertools.pairwise(orders):
        for k, v in enumerate(_plain_adjacency(before, after, window - 1, counts, 52)):
            total[k] += v
    assert tests["adjacent"].observed == total[0]
    assert tests["adjacent"].expected == pytest.approx(total[1], rel=1e-12)
    z = (total[0] - total[1]) / math.sqrt(total[2])
    assert tests["adjacent"].statistic == pytest.approx(z, rel=1e-9)
    assert tests["adjacent"].p_value == pytest.approx(0.5 * math.erfc(z / math.sqrt(2)))
    # first_last: shared cards of the last F and the next first F, hypergeometric moments
    first = result.first_cards
    assert first == min(52, window // 2)
    observed = mean = variance = 0.0
    for before, after in itertools.pairwise(orders):
        last = before[-first:]
        observed += sum(last.count(x) * after[:first].count(x) for x in range(52))
        f = [last.count(x) for x in range(52)]
        mean += first * sum(f) / 52
        share = sum(x / 52 for x in f)
        variance += first * (52 - first) / 51 * (sum(x * x / 52 for x in f) - share**2)
    assert tests["first_last"].observed == observed
    assert tests["first_last"].expected == pytest.approx(mean, rel=1e-12)
    z = (observed - mean) / math.sqrt(variance)
    assert tests["first_last"].statistic == pytest.approx(z, rel=1e-9)
    # Holm over the three
    ps = [t.p_value for t in result.tests]
    assert [t.adjusted_p for t in result.tests] == holm(ps)


def test_holm_is_the_step_down_correction() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_the_independence_statistic_is_pearsons() -> None:
    table = [[10, 20, 30], [5, 15, 20]]
    assert independence_statistic(np.array(table)) == pytest.approx(_plain_chi_square(table))


def test_shoe_order_interleaves_the_hands_then_the_third_cards() -> None:
    # Player 1, Banker 1, Player 2, Banker 2, then the Player's third, the Banker's third
    cards = np.array([[1, 2, 3, 4, -1, 5], [6, 7, 8, 9, 10, 11]])
    assert shoe_order(cards, (0,)).tolist() == list(range(12))
    assert shoe_order(cards).tolist() == list(range(1, 12))


def test_an_unlogged_burn_counts_places_from_the_first_round(tmp_path) -> None:
    rng = np.random.default_rng(2)
    shoes = [rng.permutation(52)[:44] for _ in range(4)]
    path = _write_log(tmp_path / "l.csv", shoes, burn=False)
    result = shuffle_tests_of_logs([path], SEED_GAME, decks=1)
    assert not result.burn_logged and result.window == 44
    assert any("burn is not logged" in note for note in result.notes)


def test_too_few_shoes_say_which_tests_are_not_run(tmp_path) -> None:
    path = _write_log(tmp_path / "l.csv", [np.random.default_rng(3).permutation(52)[:41]])
    result = shuffle_tests_of_logs([path], SEED_GAME, decks=1)
    assert result.tests == ()
    assert [key for key, _ in result.not_run] == ["position", "adjacent", "first_last"]


def test_a_gap_in_the_shoe_numbers_breaks_the_chain(tmp_path) -> None:
    rng = np.random.default_rng(5)
    shoes = [rng.permutation(52)[:41] for _ in range(4)]
    path = _write_log(tmp_path / "l.csv", shoes, names=[1, 2, 4, 5])
    result = shuffle_tests_of_logs([path], SEED_GAME, decks=1)
    assert result.pairs == 2
    assert any("not followed by the next number" in note for note in result.notes)


def test_shoes_of_several_logs_are_not_paired_across_them(tmp_path) -> None:
    rng = np.random.default_rng(6)
    a = _write_log(tmp_path / "a.csv", [rng.permutation(52)[:41] for _ in range(3)])
    b = _write_log(tmp_path / "b.csv", [rng.permutation(52)[:41] for _ in range(3)])
    result = shuffle_tests_of_logs([a, b], SEED_GAME, decks=1)
    assert (result.shoes, result.pairs) == (6, 4)


# -- Found, and not found --------------------------------------------------------------------------


def _simulated(tmp_path, capsys, shuffle: str, seed: int, shoes: int = 60):
    path = tmp_path / f"{shuffle.replace(':', '-')}.csv"
    code, _, err = run(
        capsys, "simulate", "--shoes", str(shoes), "--seed", str(seed), "--shuffle", shuffle,
        "--log", str(path), "--no-progress", "--format", "json",
    )  # fmt: skip
    assert (code, err) == (0, "")
    return shuffle_tests_of_logs([path], SEED_GAME, level=ALARM)


@pytest.mark.parametrize("riffles", [1, 2])
def test_a_weak_riffle_is_found(tmp_path, capsys, riffles) -> None:
    result = _simulated(tmp_path, capsys, f"riffle:{riffles}", seed=20 + riffles)
    tests = {t.key: t for t in result.tests}
    assert tests["adjacent"].adjusted_p < ALARM
    assert tests["first_last"].adjusted_p < ALARM
    assert {t.key for t in result.failed} >= {"adjacent", "first_last"}


def test_a_perfect_shuffle_finds_nothing(tmp_path, capsys) -> None:
    result = _simulated(tmp_path, capsys, "perfect", seed=31, shoes=80)
    assert len(result.tests) == 3
    assert all(t.adjusted_p > ALARM for t in result.tests), result.tests
    assert result.failed == ()


def test_ranks_stacked_to_the_back_are_found_by_the_position_test() -> None:
    rng = np.random.default_rng(8)
    base = np.repeat(np.arange(52), 8)
    orders = []
    for _ in range(40):
        order = rng.permutation(base)
        tens = CARD_RANKS[order] >= 10
        # a clump: a third of the ten-value cards moved to the back
        moved = np.flatnonzero(tens)[::3]
        order = np.concatenate([np.delete(order, moved), order[moved]])
        orders.append(order[:400])
    _, shoes, *_, p = position_test(orders, 400, 416)
    assert shoes == 40 and p < ALARM
    # and the same shoes unstacked are not
    _, _, *_, p = position_test([rng.permutation(base)[:400] for _ in range(40)], 400, 416)
    assert p > ALARM


# -- Hostile logs --------------------------------------------------------------------------------


def _hostile(tmp_path, capsys, path, message: str, decks: str = "1") -> None:
    code, out, err = run(
        capsys, "audit", str(path), "--decks", decks, "--no-fit", "--shuffle-tests"
    )
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err


def test_a_shoe_that_begins_again_is_refused(tmp_path, capsys) -> None:
    rng = np.random.default_rng(9)
    shoes = [rng.permutation(52)[:41] for _ in range(3)]
    path = _write_log(tmp_path / "l.csv", shoes, names=["a", "b", "a"])
    _hostile(tmp_path, capsys, path, "shoe 'a' comes back after shoe 'b' began")


def test_shoe_numbers_going_back_are_refused(tmp_path, capsys) -> None:
    rng = np.random.default_rng(9)
    shoes = [rng.permutation(52)[:41] for _ in range(3)]
    path = _write_log(tmp_path / "l.csv", shoes, names=[1, 5, 3])
    _hostile(tmp_path, capsys, path, "shoe 3 after shoe 5")


def test_a_shoe_missing_a_round_is_refused(tmp_path, capsys) -> None:
    rng = np.random.default_rng(9)
    shoes = [rng.permutation(52)[:41] for _ in range(3)]
    path = _write_log(tmp_path / "l.csv", shoes, skip_round=(1, 3))
    _hostile(tmp_path, capsys, path, "shoe 2 round 5 follows round 3")


def test_more_cards_than_the_shoe_are_refused(tmp_path, capsys) -> None:
    rng = np.random.default_rng(9)
    shoes = [np.concatenate([rng.permutation(52), rng.permutation(52)[:9]]) for _ in range(2)]
    path = _write_log(tmp_path / "l.csv", shoes)
    _hostile(tmp_path, capsys, path, "deals 61 cards, more than 1 decks hold (52)")


def test_a_card_dealt_more_often_than_the_decks_hold_is_refused(tmp_path, capsys) -> None:
    rng = np.random.default_rng(9)
    order = rng.permutation(52)[:41]
    order[20] = order[10]
    path = _write_log(tmp_path / "l.csv", [order, rng.permutation(52)[:41]])
    _hostile(tmp_path, capsys, path, f"deals {card_text(int(order[10]))} 2 times")


def test_another_games_log_is_refused() -> None:
    with pytest.raises(AnalyzerError, match="reads punto banco logs"):
        shuffle_tests_of_logs(["x.csv"], load_paytable("dragon-tiger"))


def test_an_infinite_deck_is_refused() -> None:
    with pytest.raises(AnalyzerError, match="infinite deck"):
        ShuffleTests(decks=INFINITE)


def test_simulate_refuses_a_shuffle_it_cannot_deal(capsys) -> None:
    for value in ("riffle", "riffle:0", "riffle:x", "riffle:1001", "overhand:3"):
        code, _, err = run(capsys, "simulate", "--shoes", "2", "--shuffle", value)
        assert code == 2 and "--shuffle" in err and len(err.strip().splitlines()) == 1, err
    code, _, err = run(
        capsys, "simulate", "--shoes", "2", "--shuffle", "riffle:1", "--paytable", "dragon-tiger"
    )
    assert code == 2 and "deals punto banco shoes" in err


def test_a_riffled_runs_saved_partitions_are_not_a_perfect_ones() -> None:
    from analyzer.runs.simulate import SimulationJob

    perfect = SimulationJob(SEED_GAME, Procedure(), 1)
    riffled = SimulationJob(SEED_GAME, Procedure(), 1, riffles=2)
    assert "riffles" not in perfect.identity  # (as before riffles were dealt)
    assert riffled.identity == perfect.identity | {"riffles": 2}
