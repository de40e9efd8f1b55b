"""The warnings of a run about the rounds its figures rest on (:mod:`analyzer.runs.few_rounds`):
data worked out once, for standard error and JSON alike."""

from __future__ import annotations

from analyzer.runs.few_rounds import (
    FEW_ROUNDS,
    BetRounds,
    count_warnings,
    rounds_warnings,
    simulation_warnings,
)


def test_none_few_and_enough_rounds() -> None:
    rows = [
        BetRounds("tie", "a", "Tie", 0),
        BetRounds("tie", "b", "Tie", 0),
        BetRounds("pair", "a", "Pair", FEW_ROUNDS - 1),
        BetRounds("banker", "a", "Banker", FEW_ROUNDS),
        BetRounds("six", "a", "Six", 1),
    ]
    assert rounds_warnings(rows, "never settled") == [
        {
            "kind": "no_rounds",
            "bets": [
                {"bet": "tie", "mode": "a", "rounds": 0},
                {"bet": "tie", "mode": "b", "rounds": 0},
            ],
            "message": "never settled in the whole run, so without figures: Tie",
        },
        {
            "kind": "few_rounds",
            "bets": [
                {"bet": "pair", "mode": "a", "rounds": FEW_ROUNDS - 1},
                {"bet": "six", "mode": "a", "rounds": 1},
            ],
            "message": f"figures resting on fewer than {FEW_ROUNDS} rounds bet: "
            f"Pair {FEW_ROUNDS - 1}, Six 1: deal more shoes",
        },
    ]
    assert rounds_warnings(rows[3:4]) == []
    assert rounds_warnings([]) == []


def test_a_bets_modes_settled_apart_are_each_named() -> None:
    rows = [BetRounds("side", "a", "Side", 40), BetRounds("side", "b", "Side", 41)]
    (warning,) = rounds_warnings(rows)
    assert warning["message"].endswith(": Side 40, Side 41: deal more shoes")
    assert [bet["rounds"] for bet in warning["bets"]] == [40, 41]


def test_simulate_and_count_rows_are_read_as_their_commands_name_them() -> None:
    simulated = [{"bet": "tie", "name": "Tie", "mode": "m", "rounds_bet": 7.0}]
    (warning,) = simulation_warnings(simulated)
    assert warning["bets"] == [{"bet": "tie", "mode": "m", "rounds": 7}]
    assert type(warning["bets"][0]["rounds"]) is int
    counted = [
        {
            "bet": "tie",
            "name": "Tie",
            "mode": "m",
            "bet_frequency": 0.0,
            "rounds_per_shoe": 80.5,
            "shoes": 2,
        }
    ]
    (warning,) = count_warnings(counted)
    assert warning["message"] == (
        "never bet by the count's strategy in the whole run, so without figures: Tie (m)"
    )
    counted[0]["bet_frequency"] = 0.5
    assert count_warnings(counted)[0]["bets"] == [{"bet": "tie", "mode": "m", "rounds": 80}]
