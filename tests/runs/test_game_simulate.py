"""Shoes of another game of the family dealt and settled: Dragon Tiger and Three Card
Baccarat, settled against a plain-Python deal of the same shuffled shoes
(tests/naive_family.py), and beside their exact EVs."""

from __future__ import annotations

from fractions import Fraction

import naive_family as nf
import numpy as np
import pytest

from analyzer import analyze, load_paytable, simulate
from analyzer.errors import AnalyzerError
from analyzer.runs.dealer import Procedure
from analyzer.runs.game_dealer import deal_game_shoes
from analyzer.runs.runner import partition_rng
from analyzer.runs.simulate import (
    SimulationJob,
    check_simulate_partition,
    check_simulation,
    settle_partition,
    simulate_partition,
)


def plain_shoes(seed: int, index: int, shoes: int, procedure: Procedure, game) -> list:
    """A partition's shuffled shoes (the dealer's own shuffle: the random numbers), as
    lists of card names for the plain deal."""
    dealt = deal_game_shoes(partition_rng(seed, index), shoes, procedure, game)
    return [[nf.card_name(int(c)) for c in row] for row in dealt.cards]


def _dragon_tiger_net(bet: str, dragon: str, tiger: str) -> Fraction:
    """Net per unit staked of the bets of the shipped dragon-tiger paytable, by hand."""
    winner = nf.dragon_tiger_winner(dragon, tiger)
    d, t = nf.rank_number(dragon), nf.rank_number(tiger)
    nets = {
        "dragon": {"dragon": 1, "tie": Fraction(-1, 2)}.get(winner, -1),
        "tiger": {"tiger": 1, "tie": Fraction(-1, 2)}.get(winner, -1),
        "tie": 8 if winner == "tie" else -1,
        "suited_tie": 50 if winner == "tie" and nf.suit(dragon) == nf.suit(tiger) else -1,
        "dragon_big": 1 if d >= 8 else -1,
        "dragon_small": 1 if d <= 6 else -1,
        "tiger_big": 1 if t >= 8 else -1,
        "tiger_small": 1 if t <= 6 else -1,
    }
    return Fraction(nets[bet])


@pytest.mark.parametrize("last_round", ["cut-card", "one-more"])
@pytest.mark.parametrize(("decks", "cut_card"), [(1, 9), (8, 14)])
def test_a_partition_settles_each_round_by_the_rules(decks, cut_card, last_round) -> None:
    """Dragon Tiger: per shoe and bet, the rounds of a plain-Python deal of the
    partition's shoes and their summed nets (and squares), each settled by hand (a tie
    losing half the Dragon and the Tiger)."""
    paytable = load_paytable("dragon-tiger")
    procedure = Procedure(decks, cut_card, last_round=last_round)
    seed, index, shoes = 5, 3, 40 if decks == 1 else 4
    plain = [
        nf.live_rounds(shoe, 2, cut_card, last_round == "one-more")
        for shoe in plain_shoes(seed, index, shoes, procedure, paytable.game)
    ]
    result = simulate_partition(SimulationJob(paytable, procedure, seed), index, shoes)
    check_simulate_partition(result, shoes)
    assert result["rounds"].tolist() == [len(shoe) for shoe in plain]
    for b, (bet, _) in enumerate(paytable.offered(paytable.modes)):
        for i, shoe in enumerate(plain):
            nets = [_dragon_tiger_net(bet.id, d, t) for d, t in shoe]
            assert result["counts"][i, b] == len(shoe)
            assert result["totals"][i, b] == pytest.approx(float(sum(nets)), abs=1e-9)
            squares = float(sum(n * n for n in nets))
            assert result["squares"][i, b] == pytest.approx(squares, abs=1e-9)


def test_side_bets_are_not_settled_after_their_max_round() -> None:
    """SA Gaming's card bets are taken up to round 25: every shoe deals more rounds, the
    main bets are settled in each, the card bets in the first 25 only (their summed nets
    are those of the first 25 rounds)."""
    paytable = load_paytable("dragon-tiger-sa-gaming")
    procedure = Procedure(8, 14)
    shoes = 3
    result = simulate_partition(SimulationJob(paytable, procedure, 9), 1, shoes)
    plain = [
        nf.live_rounds(shoe, 2, 14) for shoe in plain_shoes(9, 1, shoes, procedure, paytable.game)
    ]
    assert all(len(shoe) > 150 for shoe in plain)
    offered = list(paytable.offered(paytable.modes))
    limited = [b for b, (bet, _) in enumerate(offered) if bet.max_round == 25]
    assert len(limited) == 12
    for b in range(len(offered)):
        expected = 25 if b in limited else [len(shoe) for shoe in plain]
        assert (result["counts"][:, b] == expected).all()
    big = next(b for b, (bet, _) in enumerate(offered) if bet.id == "dragon_big")
    for i, shoe in enumerate(plain):
        nets = [1 if nf.rank_number(d) >= 8 else -1 for d, _ in shoe[:25]]
        assert result["totals"][i, big] == sum(nets)


@pytest.mark.parametrize(
    ("name", "shoes", "seed"), [("dragon-tiger", 120, 1), ("three-card-baccarat", 400, 0)]
)
def test_a_seeded_run_lies_within_its_intervals_of_the_exact_evs(tmp_path, name, shoes, seed):
    """Deterministic with the seed: every bet's exact EV of a round from a full shoe (what
    report gives) within the printed 95% interval of its simulated mean. (A 95% interval
    misses one time in twenty by chance: these seeds are ones whose intervals all hold.
    A wrong settlement is many intervals off: the Dragon losing its whole stake on a tie
    moves its mean by 0.037, the interval's half-width being 0.014.)"""
    run = simulate(name, shoes=shoes, seed=seed, partition_size=50, work_dir=tmp_path)
    exact = {(r.bet.id, r.mode): r.expected_value for r in analyze(paytable=name).results}
    assert run.exact_evs == exact
    assert [(row["bet"], row["mode"]) for row in run.bets] == list(exact)
    for row in run.bets:
        assert row["rounds_bet"] == run.rounds > 0
        assert row["exact_ev"] == float(exact[row["bet"], row["mode"]])
        assert row["ci95_low"] <= row["exact_ev"] <= row["ci95_high"], row
    assert len(list(tmp_path.glob("*/part-*.npz"))) == -(-shoes // 50)


def test_a_game_keeps_its_rounds_for_a_log_and_takes_no_strategy() -> None:
    paytable = load_paytable("dragon-tiger")
    check_simulation(paytable, Procedure(8), log=True)  # a log names the game's hands
    job = SimulationJob(paytable, Procedure(8), 1)
    result, kept = settle_partition(job, 0, 3, keep_rounds=True)
    plain, none = settle_partition(job, 0, 3)
    assert none is None
    for key, array in plain.items():  # the same rounds, kept or not
        np.testing.assert_array_equal(result[key], array)
    assert len(kept.shoe) == result["rounds"].sum() and len(kept.burns) == 3
    assert [held.shape[1] for held in kept.hands] == [1, 1]
    # The rounds logged are those settled: per shoe, their nets add up to the totals
    # (no fee: a net per unit staked is one per unit paid).
    for b in range(kept.nets.shape[1]):
        totals = np.bincount(kept.shoe, weights=kept.nets[:, b], minlength=3)
        np.testing.assert_allclose(totals, result["totals"][:, b])
    with pytest.raises(AnalyzerError, match="no decision cell"):  # as on the command line
        simulate("dragon-tiger", shoes=1, strategy="best")


def test_a_partition_settled_in_blocks_of_shoes_is_the_same(monkeypatch) -> None:
    """A partition's rounds are settled a block of shoes at a time (its memory bounded):
    blocks of two shoes give what one block gives."""
    import analyzer.runs.simulate as simulate_module

    job = SimulationJob(load_paytable("dragon-tiger-sa-gaming"), Procedure(8, 14), 3)
    whole = simulate_partition(job, 0, 5)
    monkeypatch.setattr(simulate_module, "_GAME_BLOCK_ROUNDS", 2 * (416 // 2 + 1))
    assert simulate_module._game_block(job.procedure, job.paytable.game) == (2, 418)
    blocked = simulate_partition(job, 0, 5)
    for key, array in whole.items():
        np.testing.assert_array_equal(blocked[key], array)
    assert (whole["counts"] > 0).all()
