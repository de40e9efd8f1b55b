"""A count as it is asked for: its columns, its checks, its linear counts and records."""

from __future__ import annotations

import pytest

from analyzer import AnalyzerError, load_paytable
from analyzer.runs.count_plan import (
    check_max_gain,
    count_columns,
    count_job,
    count_strategy,
    flat_record,
)
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
