"""The fit of a log to the exact odds: the distributions against direct computations, the
streamed runs and serial correlation against the whole sequence, the shoe-aware
probabilities against the exact analysis; a clean log passes every test and a log
stacked for the Banker fails the frequency and shoe-aware tests."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import pairwise

import numpy as np
import pytest
from audit_logs import clean_rows, dealt_log, logged_rounds

from analyzer import analyze, load_paytable
from analyzer.analysis.audit import Audit
from analyzer.analysis.audit_fit import (
    EVENTS,
    binomial_tails,
    binomial_two_sided,
    chi_square_sf,
    holm,
    normal_two_sided,
    runs_z,
)
from analyzer.game.cards import N_CARDS, N_RANKS, N_SUITS
from analyzer.game.fields import WINNERS
from analyzer.game.shoe import INFINITE, Shoe

ROUNDS = 30_000


@pytest.fixture(scope="module")
def seed_game():
    return load_paytable("seed-game")


def fitted(paytable, blocks, decks=None, level=0.01):
    audit = Audit(paytable, decks, fit=True, level=level)
    for block in blocks:
        audit.feed(block)
    return audit.result()


@pytest.fixture(scope="module")
def clean_log(seed_game):
    return dealt_log(seed_game, ROUNDS, seed=3)


@pytest.fixture(scope="module")
def clean_fit(seed_game, clean_log):
    return fitted(seed_game, clean_log)


def by_key(result):
    return {t.key: t for t in result.fit.tests}


# -- The distributions ---------------------------------------------------------------------------


def test_chi_square_of_a_tiny_table_by_hand() -> None:
    observed, probabilities = [18, 22, 20, 40], [0.25, 0.25, 0.25, 0.25]
    expected = [100 * p for p in probabilities]
    statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    assert statistic == pytest.approx((49 + 9 + 25 + 225) / 25)
    # 3 degrees of freedom: Q(3/2, x/2) = erfc(sqrt(x/2)) + sqrt(2x/pi) exp(-x/2).
    by_hand = math.erfc(math.sqrt(statistic / 2)) + math.sqrt(2 * statistic / math.pi) * math.exp(
        -statistic / 2
    )
    assert chi_square_sf(statistic, 3) == pytest.approx(by_hand, rel=1e-12)


@pytest.mark.parametrize("x", [0.01, 0.5, 2.0, 7.3, 30.0, 120.0])
def test_chi_square_survival_against_closed_forms(x) -> None:
    assert chi_square_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
    assert chi_square_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10)
    assert chi_square_sf(x, 4) == pytest.approx((1 + x / 2) * math.exp(-x / 2), rel=1e-12)
    assert chi_square_sf(0, 2) == 1.0


def test_binomial_tails_against_a_sum_of_exact_fraction_terms() -> None:
    n, p = 60, Fraction(9, 20)

    def term(j: int) -> Fraction:
        return math.comb(n, j) * p**j * (1 - p) ** (n - j)

    for k in (0, 5, 20, 27, 28, 35, 50, 60):
        lower = sum(term(j) for j in range(k + 1))
        upper = sum(term(j) for j in range(k, n + 1))
        got_lower, got_upper = binomial_tails(k, n, float(p))
        assert got_lower == pytest.approx(float(lower), rel=1e-11, abs=1e-300)
        assert got_upper == pytest.approx(float(upper), rel=1e-11, abs=1e-300)
        assert binomial_two_sided(k, n, float(p)) == pytest.approx(
            min(1.0, float(2 * min(lower, upper))), rel=1e-11
        )


def test_binomial_tails_of_a_large_log_and_the_edges() -> None:
    # Ten million rounds: far in the tail the p-value is tiny but not zero, near the mean
    # about 1, and the normal approximation agrees in between.
    n, p = 10_000_000, 0.4585974226
    mean, sd = n * p, math.sqrt(n * p * (1 - p))
    k = round(mean + 3 * sd)
    assert binomial_two_sided(k, n, p) == pytest.approx(normal_two_sided(3), rel=0.02)
    assert binomial_two_sided(round(mean), n, p) > 0.99
    assert 0 < binomial_two_sided(round(mean + 12 * sd), n, p) < 1e-30
    assert binomial_tails(0, 10, 0.0) == (1.0, 1.0) and binomial_tails(3, 10, 0.0) == (1.0, 0.0)


def test_the_runs_test_on_a_known_sequence() -> None:
    # B B P P P B P B: 5 runs of 4 B and 4 P; E = 2*4*4/8 + 1 = 5, so z = 0.
    assert runs_z(4, 4, 5) == 0
    # B B B B P P P P: 2 runs; variance 2*16*(32 - 8) / (64 * 7).
    assert runs_z(4, 4, 2) == pytest.approx(-3 / math.sqrt(768 / 448))
    assert runs_z(0, 5, 1) is None


def test_holm_adjusts_step_down() -> None:
    assert holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert holm([0.8, 0.3]) == pytest.approx([0.8, 0.6])
    assert holm([0.9, 0.8]) == [1.0, 1.0]


# -- Over a log ----------------------------------------------------------------------------------


def test_a_clean_seeded_log_passes_every_test(clean_fit) -> None:
    fit = clean_fit.fit
    assert clean_fit.rounds >= ROUNDS and clean_fit.total == 0
    keys = [t.key for t in fit.tests]
    assert keys[0] == "frequency:outcomes"
    assert {f"frequency:{key}" for key, _, _ in EVENTS} <= set(keys)
    assert {"runs", "serial", "shoe_aware:banker", "shoe_aware:player", "shoe_aware:tie"} <= set(
        keys
    )
    assert len(fit.run) == len(fit.tests) and fit.failed == ()
    assert all(t.passed for t in fit.tests)
    assert fit.shoe_aware_rounds == clean_fit.rounds and fit.left_out == 0


@pytest.mark.slow
def test_a_shoe_stacked_for_the_banker_fails_frequency_and_shoe_aware(seed_game) -> None:
    stacked = fitted(seed_game, dealt_log(seed_game, ROUNDS, seed=3, stack=0.03))
    assert stacked.total == 0  # every card is a real shoe's: only the fit shows it
    tests = by_key(stacked)
    for key in ("frequency:outcomes", "frequency:banker", "shoe_aware:banker"):
        assert tests[key].passed is False, tests[key]
    assert tests["shoe_aware:banker"].statistic > 0
    assert tests["shoe_aware:banker"].observed > tests["shoe_aware:banker"].expected


def test_runs_and_serial_correlation_streamed_equal_the_whole_sequence(clean_log, clean_fit):
    winners = np.concatenate([block.winner for block in clean_log])
    x = (winners[winners != WINNERS.index("tie")] == WINNERS.index("banker")).astype(float)
    runs = 1 + int(np.count_nonzero(x[1:] != x[:-1]))
    centred = x - x.mean()
    r1 = float((centred[1:] * centred[:-1]).sum() / (centred**2).sum())
    tests = by_key(clean_fit)
    assert tests["runs"].observed == runs and tests["runs"].rounds == len(x)
    assert tests["serial"].observed == pytest.approx(r1, rel=1e-9)
    assert tests["runs"].statistic == pytest.approx(
        runs_z(int(x.sum()), len(x) - int(x.sum()), runs)
    )


def test_blocks_of_any_size_give_the_same_tests(seed_game, clean_log) -> None:
    rounds = clean_log[:40]
    whole = fitted(seed_game, rounds)
    joined = {
        name: np.concatenate([getattr(b, name) for b in rounds])
        for name in ("rows", "shoes", "rounds", "cards", "player_score", "banker_score", "winner")
    }
    burns, at = {}, 0
    for block in rounds:
        burns.update({at + i: burn for i, burn in block.burns.items()})
        at += len(block)
    from analyzer.analysis.audit import LoggedRounds

    one = LoggedRounds(**joined, burns=burns)
    split = []
    for start in range(0, len(one), 777):
        stop = min(start + 777, len(one))
        part = {name: value[start:stop] for name, value in joined.items()}
        part_burns = {i - start: b for i, b in burns.items() if start <= i < stop}
        split.append(LoggedRounds(**part, burns=part_burns))
    for other in (fitted(seed_game, [one]), fitted(seed_game, split)):
        for a, b in zip(whole.fit.tests, other.fit.tests, strict=True):
            assert a.key == b.key and a.observed == b.observed
            assert a.expected == pytest.approx(b.expected, rel=1e-12)
        assert whole.fit.calibration == other.fit.calibration or all(
            (x.outcome, x.rounds, x.observed) == (y.outcome, y.rounds, y.observed)
            for x, y in zip(whole.fit.calibration, other.fit.calibration, strict=True)
        )


def test_shoe_aware_probabilities_are_the_exact_analysis_of_the_cards_left(
    seed_game, clean_log
) -> None:
    from analyzer.analysis.audit_fit import Fit
    from analyzer.engine.batch import dealt_expected_values

    fit = Fit(seed_game, seed_game.decks)
    block = clean_log[0]
    left = fit.compositions(block.shoes, block.cards, block.burns)
    # Before round 1: the decks less the burn; before the last: less every earlier card.
    burn = np.bincount(np.array(block.burns[0]), minlength=N_CARDS)
    assert (left[0] == seed_game.decks - burn).all()
    earlier = block.cards[:-1][block.cards[:-1] >= 0]
    assert (left[-1] == seed_game.decks - burn - np.bincount(earlier, minlength=N_CARDS)).all()
    events = fit.events
    for i in (0, len(block) // 2, len(block) - 1):
        counts = left[i]
        shoe = Shoe(counts.reshape(N_RANKS, N_SUITS).sum(axis=1), counts.reshape(N_RANKS, N_SUITS))
        exact = analyze(paytable=events, mode="events", shoe=shoe)
        batch = dealt_expected_values(fit.outcome_bets, counts[None, :].copy())[0]
        for k, name in enumerate(WINNERS):
            p = exact.result(name).hit_frequency
            assert abs((batch[k] + 1) / 2 - float(p)) < 1e-12


def test_the_calibration_table_adds_up(clean_fit) -> None:
    fit = clean_fit.fit
    for name in ("banker", "player", "tie"):
        bins = [b for b in fit.calibration if b.outcome == name]
        assert 1 < len(bins) <= 10
        assert sum(b.rounds for b in bins) == fit.shoe_aware_rounds
        test = by_key(clean_fit)[f"shoe_aware:{name}"]
        assert sum(b.observed for b in bins) == test.observed
        assert sum(b.predicted for b in bins) == pytest.approx(test.expected, rel=1e-12)
        assert all(a.high <= b.low + 1e-9 for a, b in pairwise(bins))


def test_an_infinite_deck_prices_every_round_as_the_full_shoe(seed_game, clean_log) -> None:
    result = fitted(seed_game, clean_log[:20], decks=INFINITE)
    tests = by_key(result)
    exact = analyze(paytable=load_paytable("seed-game"), decks=INFINITE, bets=["tie"])
    tie = float(exact.result("tie", "commission").hit_frequency)
    assert tests["shoe_aware:tie"].expected == pytest.approx(result.rounds * tie, rel=1e-12)
    assert result.fit.left_out == 0


def test_decks_fewer_than_the_log_leave_rounds_out_of_the_shoe_aware_test(
    seed_game, clean_log
) -> None:
    result = fitted(seed_game, clean_log[:3], decks=1)
    assert result.counts["cards"] > 0
    assert 0 < result.fit.left_out < result.rounds
    assert result.fit.shoe_aware_rounds == result.rounds - result.fit.left_out


@pytest.mark.slow
def test_side_bets_with_logged_payouts_get_a_hit_rate_test(seed_game) -> None:
    rows = clean_rows(seed_game, 1500, seed=5)
    result = fitted(seed_game, [logged_rounds(seed_game, rows)])
    tests = by_key(result)
    hits = [t for t in result.fit.tests if t.key.startswith("hits:")]
    # Lucky Six, once though logged in both modes; never the main bets, the tie or the
    # Player pair, whose hits are the outcomes' and the pairs' (tested over every round).
    assert [t.key for t in hits] == ["hits:lucky_six:commission"]
    offered = [r for r in rows if r["pay:lucky_six"]]
    won = sum(float(r["pay:lucky_six"]) > 0 for r in offered)
    assert (hits[0].rounds, hits[0].observed) == (len(offered), won)
    assert hits[0].passed
    assert tests["frequency:outcomes"].passed


def test_the_running_difference_is_the_logs_banker_less_player_at_its_points(clean_log, clean_fit):
    running = clean_fit.fit.running
    winner = np.concatenate([block.winner for block in clean_log])
    assert clean_fit.fit.shoe_aware_rounds == len(winner)  # (a clean log: every round)
    step = (winner == WINNERS.index("banker")).astype(int) - (winner == WINNERS.index("player"))
    direct = np.cumsum(step)
    # Points at every spacing-th round (a power of two, as few as fit), and the last.
    spacing = running.spacing
    assert spacing & (spacing - 1) == 0 and len(winner) // spacing <= 2048 < len(winner) // (
        spacing // 2 or 1
    )
    expected_rounds = list(range(spacing, len(winner) + 1, spacing))
    if expected_rounds[-1] != len(winner):
        expected_rounds.append(len(winner))
    assert running.rounds.tolist() == expected_rounds
    assert np.array_equal(running.observed, direct[running.rounds - 1])
    # The expected drift and its variance: the sums the shoe-aware tests make, at the end.
    tests = {t.key: t for t in clean_fit.fit.tests}
    banker, player = tests["shoe_aware:banker"], tests["shoe_aware:player"]
    assert running.expected[-1] == pytest.approx(banker.expected - player.expected, rel=1e-9)
    assert np.all(np.diff(running.variance) > 0) and np.all(running.variance > 0)
    assert running.variance[-1] < len(winner)  # each round's at most 1


def test_a_short_log_keeps_every_round_of_its_running_difference(seed_game) -> None:
    blocks = dealt_log(seed_game, 300, seed=4, decks=2)
    result = fitted(seed_game, blocks, decks=2)
    running = result.fit.running
    n = result.fit.shoe_aware_rounds
    assert running.spacing == 1 and running.rounds.tolist() == list(range(1, n + 1))
