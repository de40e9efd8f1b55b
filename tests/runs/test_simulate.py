"""The Monte Carlo cross-check against every exact edge."""

from __future__ import annotations

import naive
import numpy as np
import pytest

from analyzer import seed_paytable
from analyzer.runs.dealer import Procedure, deal_shoe, shuffled_shoe
from analyzer.runs.runner import partition_rng
from analyzer.runs.simulate import (
    SimulationJob,
    check_simulate_partition,
    simulate_partition,
    simulation_summary,
)


def test_simulation_agrees_with_every_exact_edge() -> None:
    """A statistical test with a fixed seed: every bet within 4 standard errors."""
    paytable = seed_paytable()
    procedure = Procedure()
    job = SimulationJob(paytable, procedure, 2026)
    results = [simulate_partition(job, i, 1500) for i in range(2)]
    summary = simulation_summary(paytable, procedure, results)
    assert len(summary) == 36 and (summary["rounds_bet"] > 0).all()
    assert (summary["z"].abs() < 4).all(), summary[summary["z"].abs() >= 4]
    assert (summary["std_error"] < 0.05).all()


def _key(record) -> tuple:
    """A dealt round as an outcome key of tests/naive.py."""
    third = [None if record[h] == -1 else int(record[h]) for h in ("player_third", "banker_third")]
    return (
        int(record["player_pair_state"]),
        int(record["banker_pair_state"]),
        int(record["player_score"]),
        int(record["banker_score"]),
        *third,
    )


def test_simulated_multipliers_and_fees_agree_with_the_exact_figures(tmp_path) -> None:
    """The special cards drawn every round: each multiplied bet (and a fixed bet with a
    fee) within 4 standard errors of its exact EV per unit paid."""
    from helpers import MULTIPLIED_PAYTABLE, write_paytable

    from analyzer import load_paytable

    paytable = load_paytable(write_paytable(tmp_path, MULTIPLIED_PAYTABLE))
    procedure = Procedure()
    job = SimulationJob(paytable, procedure, 7)
    results = [simulate_partition(job, i, 1500) for i in range(2)]
    summary = simulation_summary(paytable, procedure, results)
    assert len(summary) == 5
    assert (summary["z"].abs() < 4).all(), summary[summary["z"].abs() >= 4]
    # A push costs the fee: the Player bet's mean is far from a fee-free one.
    player = summary.set_index("bet").loc["player"]
    assert player["exact_ev"] < -0.08


@pytest.mark.kernels
@pytest.mark.parametrize("decks", [1, 8])
def test_a_partition_settles_every_round_by_the_rules(decks) -> None:
    """Per shoe and bet: the rounds on offer (up to the max round) and their summed nets."""
    paytable = seed_paytable()
    procedure = Procedure(decks, 6 if decks == 1 else 14)
    result = simulate_partition(SimulationJob(paytable, procedure, 11), 0, 2)
    check_simulate_partition(result, 2)
    rng = partition_rng(11, 0)
    offered = list(paytable.offered(paytable.modes))
    for shoe in range(2):
        rounds = deal_shoe(shuffled_shoe(rng, decks), procedure)
        assert result["rounds"][shoe] == len(rounds)
        for b, (bet, mode) in enumerate(offered):
            on_offer = [r for r in rounds if bet.max_round is None or r["round"] <= bet.max_round]
            nets = [naive.settle(bet.id, mode, _key(r)) for r in on_offer]
            assert result["counts"][shoe, b] == len(on_offer)
            assert result["totals"][shoe, b] == pytest.approx(float(sum(nets)), abs=1e-9)
            squares = float(sum(n * n for n in nets))
            assert result["squares"][shoe, b] == pytest.approx(squares, abs=1e-9)
    if decks == 8:  # a long shoe outlasts the max round: the Player has no limit, the last bet 50
        assert (result["counts"][:, 0] > result["counts"][:, -1]).all()


def test_a_saved_simulation_partition_is_checked() -> None:
    good = {
        "totals": np.zeros((2, 3)),
        "counts": np.zeros((2, 3)),
        "squares": np.zeros((2, 3)),
        "rounds": np.zeros(2, dtype=np.int64),
    }
    check_simulate_partition(good, 2)
    for change, message in (
        (lambda r: r.pop("squares"), "keys"),
        (lambda r: r.update(rounds=np.zeros(3, dtype=np.int64)), r"rounds: int64 \(3,\)"),
        (lambda r: r.update(counts=np.zeros((2, 2))), r"counts: float64 \(2, 2\)"),
        (lambda r: r.update(totals=np.zeros(2)), "totals"),
        (lambda r: r.update(squares=np.zeros((2, 3), dtype=np.float32)), "squares: float32"),
    ):
        bad = dict(good)
        change(bad)
        with pytest.raises(ValueError, match=message):
            check_simulate_partition(bad, 2)


@pytest.mark.slow
def test_dealt_shoes_settle_bets_on_the_cards() -> None:
    """The Monte Carlo check covers bets on ranks, suits and colours (fixed seed)."""
    from analyzer import load_paytable

    for name in ("monkey", "super-tie", "majestic-match"):
        paytable = load_paytable(name)
        job = SimulationJob(paytable, Procedure(), 11)
        results = [simulate_partition(job, i, 600) for i in range(2)]
        summary = simulation_summary(paytable, Procedure(), results)
        assert (summary["z"].abs() < 4).all(), summary
