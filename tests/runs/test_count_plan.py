"""A count as it is asked for: its columns, its checks, its linear counts and records."""

from __future__ import annotations

import math
from fractions import Fraction

import naive
import pytest

from analyzer import AnalyzerError, Shoe, load_paytable
from analyzer.paytables.model import restricted
from analyzer.runs.count_plan import (
    check_max_gain,
    check_rounds_per_hour,
    count_columns,
    count_job,
    count_strategy,
    flat_record,
    second_moments,
)
from analyzer.runs.counting import CountJob, counter_figures
from analyzer.runs.dealer import Procedure


@pytest.fixture(scope="module")
def seed():
    return load_paytable("seed-game")


def test_columns_in_paytable_order(seed) -> None:
    assert count_columns(seed, ["tie", "player"], None) == (
        ("player", "commission"),
        ("tie", "commission"),
    )
    every = count_columns(seed, ["all"], "all")
    assert len(every) == len(list(seed.offered(seed.modes))) and len(set(every)) == len(every)
    with pytest.raises(AnalyzerError, match="unknown bet 'nope'"):
        count_columns(seed, ["nope"], None)


@pytest.mark.parametrize("gain", [0, -1, 10**7])
def test_max_gain_out_of_bounds(gain) -> None:
    with pytest.raises(AnalyzerError, match="--max-gain"):
        check_max_gain(gain)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"perfect": True, "threshold": 2.0}, "--perfect bets on the exact EV"),
        ({"tags": " , "}, "--tags is empty"),
        ({"true_count_decks": "all"}, "--true-count-decks must be one of"),
        ({"tags": "A=1", "threshold": 10.0**7}, "--threshold must be within"),
    ],
)
def test_a_count_asked_for_wrongly_is_refused_before_any_shoe(seed, options, message) -> None:
    with pytest.raises(AnalyzerError, match=message):
        count_job(seed, (("tie", "commission"),), Procedure(8), 0, [5], **options)


def test_given_tags_and_threshold_are_the_jobs(seed) -> None:
    job = count_job(
        seed, (("tie", "commission"),), Procedure(8), 1, [5], tags="8=2,9=2", threshold=3.5
    )
    assert job.tags == ((0, 0, 0, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0),) and job.thresholds == (3.5,)
    assert "bet at true count >= 3.5" in count_strategy(job, 0)
    perfect = count_job(seed, (("tie", "commission"),), Procedure(8), 1, [5], perfect=True)
    assert perfect.tags is None and count_strategy(perfect, 0).startswith("perfect play")


def test_a_record_flattens_into_one_row() -> None:
    record = {"bet": "tie", "with_limit": {"units": 1.5, "curve": [1, 2]}, "by": [3]}
    assert flat_record(record) == {"bet": "tie", "with_limit_units": 1.5}


# -- The counter's figures: DI, N0, per hour ---------------------------------------------------


def _by_brute_force(decks_reference, bet: str, mode: str) -> Fraction:
    """The second moment of a unit's result, from every round counted by dealing it."""
    total = sum(decks_reference.values())
    return sum(
        Fraction(ways, total) * Fraction(naive.settle(bet, mode, key)) ** 2
        for key, ways in decks_reference.items()
    )


def test_second_moments_are_the_bets_own_off_the_top(seed) -> None:
    """``E[X^2]`` per column, against the rounds of one deck counted by dealing them."""
    reference = naive.reference_counts(Shoe.standard(1).suit_counts.tolist())
    columns = (("tie", "commission"), ("lucky_six", "commission"), ("banker", "no_commission"))
    job = CountJob(restricted(seed, columns), columns, Procedure(decks=1, cut_card=14), seed=0)
    for (bet, mode), moment in zip(columns, second_moments(job), strict=True):
        assert moment == _by_brute_force(reference, bet, mode), bet


@pytest.mark.parametrize(
    ("frequency", "per_100", "moment"),
    [
        (Fraction(1, 50), Fraction(3, 10), Fraction(1294, 100)),  # a side bet, bet seldom
        (Fraction(1), Fraction(-106, 100), Fraction(95, 100)),  # bet every round, a loss
        (Fraction(3, 10), Fraction(1, 1000), Fraction(1)),
    ],
)
def test_counter_figures_against_a_plain_computation(frequency, per_100, moment) -> None:
    """sd, DI, N0 and the figures per hour against the same definitions worked another
    way: the round's result as a mixture (unbet with 1 - f, else the bet's result), its
    moments in fractions; N0 as the rounds n at which n * w = sqrt(n) * sd."""
    figures = {
        "bet_frequency": float(frequency),
        "units_per_100_rounds": float(per_100),
        "units_per_100_rounds_se": 0.05,
    }
    got = counter_figures(figures, float(moment), rounds_per_hour=72)
    win = per_100 / 100
    mean_of_square = (1 - frequency) * 0 + frequency * moment
    variance = mean_of_square - win**2
    sd = math.sqrt(variance)
    assert got["sd_per_round"] == pytest.approx(sd, rel=1e-12)
    assert got["di"] == pytest.approx(1000 * float(win) / sd, rel=1e-12)
    assert got["di_se"] == pytest.approx(1000 * 0.0005 / sd, rel=1e-12)
    if win > 0:
        # sqrt(n) * sd = n * w  <=>  n = variance / w^2, worked in fractions
        assert got["n0"] == pytest.approx(float(variance / win**2), rel=1e-12)
        assert got["di"] == pytest.approx(1000 / math.sqrt(got["n0"]), rel=1e-12)
    else:
        assert got["n0"] is None
    hour = [float(win)] * 72  # 72 rounds an hour, each with the round's mean and variance
    assert got["win_per_hour"] == pytest.approx(sum(hour), rel=1e-12)
    assert got["sd_per_hour"] == pytest.approx(math.sqrt(72 * float(variance)), rel=1e-12)
    assert counter_figures(figures, float(moment))["win_per_hour"] is None


def test_a_play_that_never_bets_has_no_counter_figures() -> None:
    never = {"bet_frequency": 0.0, "units_per_100_rounds": 0.0, "units_per_100_rounds_se": 0.0}
    assert set(counter_figures(never, 12.9, 80).values()) == {None}
    empty = {"bet_frequency": float("nan"), "units_per_100_rounds": float("nan")}
    assert set(counter_figures(empty | {"units_per_100_rounds_se": None}, 1.0).values()) == {None}


@pytest.mark.parametrize("pace", [0, -1, 100_001])
def test_rounds_per_hour_out_of_bounds(pace) -> None:
    with pytest.raises(AnalyzerError, match="--rounds-per-hour"):
        check_rounds_per_hour(pace)
    check_rounds_per_hour(None)
