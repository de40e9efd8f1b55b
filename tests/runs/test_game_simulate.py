"""Shoes of another game of the family dealt and settled: Dragon Tiger and Three Card
Baccarat, against a plain-Python deal of the same shuffled shoes (tests/naive_family.py)
and their exact EVs."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import naive_family as nf
import numpy as np
import pytest

from analyzer import analyze, load_paytable, simulate
from analyzer.errors import AnalyzerError
from analyzer.runs.dealer import Procedure
from analyzer.runs.game_dealer import deal_game_shoes, round_fields, rounds_dealt
from analyzer.runs.runner import partition_rng
from analyzer.runs.simulate import (
    SimulationJob,
    check_simulate_partition,
    check_simulation,
    settle_partition,
    simulate_partition,
)


def _plain_shoes(seed: int, index: int, shoes: int, procedure: Procedure, game) -> list:
    """The partition's shuffled shoes (the dealer's own shuffle: the random numbers), as
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
@pytest.mark.parametrize(("decks", "cut_card"), [(1, 14), (1, 9), (8, 14)])
def test_a_partition_deals_the_shoes_cards_in_order_and_settles_each_round(
    decks, cut_card, last_round
) -> None:
    """Dragon Tiger: the rounds of a partition are the shuffled shoe's cards in order,
    dealt as a live table deals them (a plain-Python deal of the same shoe, card by card);
    tallied by (Dragon rank, Tiger rank) they match it; each shoe's rounds and summed nets
    per bet (a tie losing half the Dragon) are the plain settlement's."""
    paytable = load_paytable("dragon-tiger")
    game = paytable.game
    procedure = Procedure(decks, cut_card, last_round=last_round)
    seed, index, shoes = 5, 3, 40 if decks == 1 else 4
    plain = [
        nf.live_rounds(shoe, 2, cut_card, last_round == "one-more")
        for shoe in _plain_shoes(seed, index, shoes, procedure, game)
    ]
    dealt = deal_game_shoes(partition_rng(seed, index), shoes, procedure, game)
    rounds = dealt.rounds()
    columns = round_fields(game, rounds, frozenset({"dragon_card1_suit"}))
    ranks = list(
        zip(columns["dragon_score"].tolist(), columns["tiger_score"].tolist(), strict=True)
    )
    expected = [(nf.rank_number(d), nf.rank_number(t)) for shoe in plain for d, t in shoe]
    assert ranks == expected
    assert Counter(ranks) == Counter(expected)
    assert columns["dragon_card1_suit"].tolist() == [d[-1] for shoe in plain for d, _ in shoe]
    assert dealt.n_rounds.tolist() == [len(shoe) for shoe in plain]
    assert rounds.number.tolist() == [n for shoe in plain for n in range(1, len(shoe) + 1)]

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


def test_three_card_rounds_go_to_the_hands_in_turn() -> None:
    """Three Card Baccarat: each round's six cards, the Player's three then the
    Dealer's, scored and compared as the plain rules say."""
    paytable = load_paytable("three-card-baccarat")
    game = paytable.game
    procedure = Procedure(1, 14)
    plain = [nf.live_rounds(shoe, 6, 14) for shoe in _plain_shoes(2, 0, 30, procedure, game)]
    rounds = deal_game_shoes(partition_rng(2, 0), 30, procedure, game).rounds()
    columns = round_fields(game, rounds, frozenset())
    hands = [(r[:3], r[3:]) for shoe in plain for r in shoe]
    assert len(hands) == len(rounds) > 100
    assert columns["player_score"].tolist() == [nf.points(p) for p, _ in hands]
    assert columns["dealer_score"].tolist() == [nf.points(d) for _, d in hands]
    pictures = [sum(nf.rank(c) in nf.PICTURES for c in d) for _, d in hands]
    assert columns["dealer_pictures"].tolist() == pictures
    assert columns["winner"].tolist() == [nf.three_card_winner(p, d) for p, d in hands]


@pytest.mark.parametrize("last_round", ["cut-card", "one-more"])
def test_rounds_dealt_by_the_cut_card_rule(last_round) -> None:
    """Every start a burn allows, and the end of the shoe: the plain deal's count."""
    for per_round, decks, cut_card in [(2, 1, 14), (6, 1, 6), (6, 1, 35), (3, 2, 20)]:
        procedure = Procedure(decks, cut_card, last_round=last_round)
        for shown in range(13):  # a shown card of each rank: burns 1 to 10 more
            shoe = [nf.RANK_ORDER[shown] + "S"] + ["2S"] * (52 * decks - 1)
            plain = nf.live_rounds(shoe, per_round, cut_card, last_round == "one-more")
            start = 1 + (nf.points((shoe[0],)) or 10)
            assert rounds_dealt(np.array([start]), procedure, per_round).tolist() == [len(plain)]


def test_side_bets_are_not_settled_after_their_max_round() -> None:
    """SA Gaming's card bets are taken up to round 25: every shoe deals more rounds, the
    main bets are settled in each, the card bets in the first 25 only (their summed nets
    are those of the first 25 rounds)."""
    paytable = load_paytable("dragon-tiger-sa-gaming")
    procedure = Procedure(8, 14)
    shoes = 3
    result = simulate_partition(SimulationJob(paytable, procedure, 9), 1, shoes)
    plain = [
        nf.live_rounds(shoe, 2, 14) for shoe in _plain_shoes(9, 1, shoes, procedure, paytable.game)
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


def test_a_game_is_simulated_without_a_log_or_a_strategy(tmp_path) -> None:
    paytable = load_paytable("dragon-tiger")
    with pytest.raises(AnalyzerError, match="Dragon Tiger is simulated without a log"):
        check_simulation(paytable, Procedure(8), log=True)
    with pytest.raises(AnalyzerError, match="simulated without one"):
        settle_partition(SimulationJob(paytable, Procedure(8), 1), 0, 1, keep_rounds=True)
    with pytest.raises(AnalyzerError, match=r"^strategy: Dragon Tiger has no drawing decisions"):
        simulate("dragon-tiger", shoes=1, strategy="best")
    with pytest.raises(AnalyzerError, match="without a log"):
        simulate("dragon-tiger", shoes=1, log=tmp_path / "rounds.csv")
    assert not (tmp_path / "rounds.csv").exists()
