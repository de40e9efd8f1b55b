"""Lightning Dragon Tiger simulated: each round's Lightning suit and multiplier drawn
after the shoes' shuffle, from the seed's random numbers; each round settled as the
game's rules say, by a plain-Python deal of the same shoes with the same draws; the draws
as the model says, against its exact distribution; the simulated means beside the exact
EVs; bad input one line."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import naive_family as nf
import numpy as np
import pytest
from helpers import run, write_paytable

import analyzer.runs.simulate as simulate_module
from analyzer import analyze, load_paytable, simulate
from analyzer.game.cards import card_index
from analyzer.game.games import named_game
from analyzer.paytables.multipliers import multipliers_from_table
from analyzer.runs.dealer import Procedure, special_factors
from analyzer.runs.game_dealer import deal_game_shoes, game_multipliers, special_keys
from analyzer.runs.runner import partition_rng
from analyzer.runs.simulate import SimulationJob, check_simulate_partition, simulate_partition

UNKNOWNS = {"p3": Fraction(1, 5), "p5": Fraction(1, 10), "p8": Fraction(1, 20)}
FEE = Fraction(1, 5)


def lightning():
    return load_paytable("lightning-dragon-tiger").with_unknowns(UNKNOWNS)


def _plain_net(bet: str, dragon: str, tiger: str, on_dragon: float, on_tiger: float) -> float:
    """Net per unit paid of the shipped game's bets, by its rules: ``on_dragon`` and
    ``on_tiger`` the multiplier each card carries (1 unless of the Lightning suit)."""
    winner = nf.dragon_tiger_winner(dragon, tiger)
    both = on_dragon * on_tiger
    net = {
        "dragon": on_dragon if winner == "dragon" else -0.5 if winner == "tie" else -1.0,
        "tiger": on_tiger if winner == "tiger" else -0.5 if winner == "tie" else -1.0,
        "tie": 6.5 * both if winner == "tie" else -1.0,
        "suited_tie": 20 * both if winner == "tie" and nf.suit(dragon) == nf.suit(tiger) else -1.0,
    }[bet]
    return (net - float(FEE)) / float(1 + FEE)


def test_a_partition_settles_each_round_by_the_rules_and_its_draws(monkeypatch) -> None:
    """Per shoe and bet, the rounds of a plain-Python deal of the partition's shoes
    settled by hand with the multipliers the partition drew for them; the draws are one
    Lightning suit a round (a card of it carries the round's one multiplier, one of the
    paytable's; two cards of it, the same multiplier)."""
    drawn = []

    def recorded(*args):
        factors = original(*args)
        drawn.append(factors)
        return factors

    original = simulate_module.game_special_factors
    monkeypatch.setattr(simulate_module, "game_special_factors", recorded)
    paytable = lightning()
    procedure = Procedure(8, 14)
    seed, index, shoes = 5, 3, 4
    result = simulate_partition(SimulationJob(paytable, procedure, seed), index, shoes)
    check_simulate_partition(result, shoes)
    dealt = deal_game_shoes(partition_rng(seed, index), shoes, procedure, paytable.game)
    plain = [nf.live_rounds([nf.card_name(int(c)) for c in row], 2, 14) for row in dealt.cards]
    ((factors,),) = [drawn]
    assert result["rounds"].tolist() == [len(shoe) for shoe in plain]
    assert len(factors) == sum(len(shoe) for shoe in plain)
    rounds = [(d, t) for shoe in plain for d, t in shoe]
    lit = 0
    for (dragon, tiger), (on_dragon, on_tiger) in zip(rounds, factors.tolist(), strict=True):
        assert {on_dragon, on_tiger} <= {1.0, 2.0, 3.0, 5.0, 8.0}
        if nf.suit(dragon) == nf.suit(tiger):
            assert on_dragon == on_tiger
        else:
            assert on_dragon == 1.0 or on_tiger == 1.0  # one Lightning suit a round
        lit += (on_dragon > 1) + (on_tiger > 1)
    assert 0.2 < lit / (2 * len(rounds)) < 0.3  # a quarter of the cards: 1,700 of them
    at = 0
    for i, shoe in enumerate(plain):
        shoe_factors = factors[at : at + len(shoe)].tolist()
        at += len(shoe)
        for b, (bet, _) in enumerate(paytable.offered(paytable.modes)):
            nets = [
                _plain_net(bet.id, d, t, fd, ft)
                for (d, t), (fd, ft) in zip(shoe, shoe_factors, strict=True)
            ]
            assert result["counts"][i, b] == len(shoe)
            assert result["totals"][i, b] == pytest.approx(sum(nets), abs=1e-9)
            assert result["squares"][i, b] == pytest.approx(sum(n * n for n in nets), abs=1e-9)


@pytest.mark.parametrize(
    "suits", [1, 2, {"0": "1/4", "3": "3/4"}], ids=["one suit", "two suits", "0 or 3 suits"]
)
def test_the_draws_are_the_models(suits) -> None:
    """Many draws for two fixed rounds of Dragon Tiger (5S against 9S, one suit; 5S
    against 9H, two): the share of each multiplier of the Dragon's card and of both cards
    against the model's exact distribution of their suit pattern, within 5 standard
    errors."""
    model = multipliers_from_table(
        {"suits": suits, "values": {"2": "1/2", "3": "1/3", "8": "1/6"}}, "t"
    )
    game = named_game("dragon-tiger")
    n = 100_000
    five, nine_s, nine_h = card_index(4, 0), card_index(8, 0), card_index(8, 1)
    for tiger, pattern in ((nine_s, (2,)), (nine_h, (1, 1))):
        cards = np.tile([five, tiger], (n, 1))
        factors = special_factors(np.random.default_rng(7), special_keys(model, cards), model)
        tie = np.full(n, 2)
        for kind, counted in (("dragon", (1,)), ("both", pattern)):
            product = game_multipliers(game, factors, tie, kind, model)
            expected = dict(model.distribution(counted))
            assert set(np.unique(product).tolist()) <= {float(m) for m in expected}
            for m, p in expected.items():
                share = float(np.mean(product == float(m)))
                assert abs(share - float(p)) < 5 * float(p * (1 - p)) ** 0.5 / n**0.5, (kind, m)


def test_a_seeded_run_lies_within_its_intervals_of_the_exact_evs(tmp_path) -> None:
    """Every bet's exact EV (what report gives at these values) within the 95% interval
    of its simulated mean. (A seed whose intervals all hold: a wrong settlement is many
    intervals off: the Dragon paid 1:1 on a Lightning card moves its mean by 0.17, the
    interval's half-width being under 0.01.)"""
    run_ = simulate(
        "lightning-dragon-tiger",
        shoes=300,
        seed=1,
        unknowns={"p3": "1/5", "p5": "1/10", "p8": "1/20"},
        partition_size=100,
        work_dir=tmp_path,
    )
    exact = {(r.bet.id, r.mode): r.expected_value for r in analyze(paytable=lightning()).results}
    assert run_.exact_evs == exact
    for row in run_.bets:
        assert row["rounds_bet"] == run_.rounds > 300 * 190
        assert row["ci95_low"] <= row["exact_ev"] <= row["ci95_high"], row
    dragon = next(row for row in run_.bets if row["bet"] == "dragon")
    assert dragon["ci95_high"] - dragon["ci95_low"] < 0.02


def test_the_same_seed_gives_the_same_figures_however_the_rounds_are_settled(
    monkeypatch,
) -> None:
    """The draws come from the seed: the same seed, the same figures; a partition settled
    a block of two shoes at a time gives what one block gives; another seed, others."""
    job = SimulationJob(lightning(), Procedure(8, 14), 3)
    whole = simulate_partition(job, 0, 5)
    again = simulate_partition(SimulationJob(lightning(), Procedure(8, 14), 3), 0, 5)
    monkeypatch.setattr(simulate_module, "_GAME_BLOCK_ROUNDS", 2 * (416 // 2 + 1))
    blocked = simulate_partition(job, 0, 5)
    for key, array in whole.items():
        np.testing.assert_array_equal(again[key], array)
        np.testing.assert_array_equal(blocked[key], array)
    other = simulate_partition(dataclasses.replace(job, seed=4), 0, 5)
    assert not np.array_equal(other["totals"], whole["totals"])


WINNER_ON_A_TIE = """
name = "Winner on a tie"
game = "dragon-tiger"
[multipliers]
suits = 1
values = { 2 = "1/2", 8 = "1/2" }
[[bet]]
id = "winner"
multiply = "winner"
rule = [{ when = "winner == 'tie'", pays = "multiplier" }]
"""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "the multipliers' distribution has unknowns (p3, p5, p8): give them values"),
        (["--unknowns", "p3=0.5,p5=0.3,p8=0.3"], "outside [0, 1]"),
        (["--unknowns", "p3=0.5"], "the unknown 'p5' has no value"),
    ],
)
def test_simulate_needs_the_unknowns_values(capsys, tmp_path, argv, message) -> None:
    code, out, err = run(
        capsys,
        *("simulate", "--paytable", "lightning-dragon-tiger", "--shoes", "2", *argv),
        *("--work-dir", str(tmp_path), "--no-progress"),
    )
    assert (code, out) == (2, "")
    assert message in err and len(err.splitlines()) == 1, err
    assert not list(tmp_path.rglob("*.npz"))


def test_a_bet_on_the_winners_cards_paid_on_a_tie_is_refused_before_any_shoe(
    capsys, tmp_path
) -> None:
    paytable = str(write_paytable(tmp_path, WINNER_ON_A_TIE))
    argv = ["simulate", "--paytable", paytable, "--shoes", "2", "--work-dir", str(tmp_path)]
    code, out, err = run(capsys, *argv, "--no-progress")
    assert (code, out) == (2, "")
    assert "rule 1 pays by the multiplier on a tie" in err and len(err.splitlines()) == 1
    assert not list(tmp_path.rglob("*.npz"))


def test_simulate_of_lightning_dragon_tiger_from_the_command_line(capsys, tmp_path) -> None:
    """The command line's JSON: the same seed, the same figures; each exact EV the
    report's."""
    argv = [
        *("simulate", "--paytable", "lightning-dragon-tiger", "--shoes", "6", "--seed", "2"),
        *("--unknowns", "p3=0.2,p5=0.1,p8=0.05", "--format", "json", "--no-progress"),
        *("--workers", "1"),
    ]
    import json

    documents = []
    for folder in ("a", "b"):
        code, out, err = run(capsys, *argv, "--work-dir", str(tmp_path / folder))
        assert code == 0, err
        documents.append(json.loads(out))
    assert documents[0]["bets"] == documents[1]["bets"]
    exact = {r.bet.id: float(r.expected_value) for r in analyze(paytable=lightning()).results}
    assert {row["bet"]: row["exact_ev"] for row in documents[0]["bets"]} == exact
