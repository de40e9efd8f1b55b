"""Punto banco rounds with a player's decision (Peek Baccarat) as play and simulate play
them (analyzer/runs/decided.py), against plain-Python rules.

The reference deals every ordered six-card sequence of a tiny shoe's physical cards
(tests/naive_family.py), plays each round by the drawing rules as tests/naive.py writes
them, and for every way the cards may be shown groups the rounds by the cards shown and
their point values, sums each action's net per set and keeps the larger (the first action
listed among equals, as the engine does): each round is then settled by hand at that
action's stake, the fee paid on the base stake. Every round and every reveal, played by
the engine, must be played and settled so, and their mean, weighed by the reveals'
chances, must be the exact RTP the analysis gives.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from analyzer import analyze, load_paytable, simulate
from analyzer.errors import AnalyzerError
from analyzer.game.cards import parse_cards
from analyzer.game.games import Reveal
from analyzer.game.rules import cards_needed
from analyzer.paytables.model import paytable_from_dict
from analyzer.paytables.played import with_decisions
from analyzer.runs.dealer import Procedure, deal_shoe, shuffled_shoe
from analyzer.runs.decided import (
    decided_plays,
    decided_tables,
    draw_reveals,
    play_decided,
    reveal_codes,
)
from analyzer.runs.runner import partition_rng
from analyzer.runs.simulate import (
    SimulationJob,
    check_simulate_partition,
    exact_evs,
    settle_partition,
    simulate_partition,
)
from tests import naive_family as family
from tests.analysis.test_peek import FOUR, STAKES, _base_net, _winner, peek_table
from tests.engine.test_deal_walk import shoe_of

#: Six cards: 720 ordered deals, rounds of four, five and six cards (each deal played by
#: play under every reveal); seven for simulate's arrays (5,040 deals).
SIX = ["AS", "2H", "5D", "9C", "KS", "7H"]
SEVEN = [*SIX, "3D"]
#: Every number of cards shown, so that every way to show them is played.
SHOWN = {1: Fraction(1, 4), 2: Fraction(1, 6), 3: Fraction(1, 3), 4: Fraction(1, 4)}
FEE = Fraction(1, 5)


def _best_by_hand(deals: list[tuple[str, ...]], bet: str) -> dict[tuple, str]:
    """Per (cards shown, by place among the first four; their point values), the action
    whose total net over the deals showing them is the largest (the first listed among
    equals)."""
    best = {}
    nets = [_base_net(bet, _winner(dealt)) for dealt in deals]
    firsts = [[family.value(card) for card in dealt[:4]] for dealt in deals]
    for k in range(5):
        for kept in itertools.combinations(range(4), k):
            totals: dict[tuple, dict[str, Fraction]] = {}
            for net, first in zip(nets, firsts, strict=True):
                seen = tuple(first[i] for i in kept)
                by_action = totals.setdefault(seen, dict.fromkeys(STAKES, Fraction(0)))
                for name, stake in STAKES.items():
                    by_action[name] += stake * net
            for seen, values in totals.items():
                best[(kept, seen)] = max(values, key=values.__getitem__)
    return best


def _peek(cards: list[str]):
    paytable = paytable_from_dict(peek_table({str(k): str(p) for k, p in SHOWN.items()}))
    deals = list(family.every_deal(cards, 6))
    best = {bet: _best_by_hand(deals, bet) for bet in ("player", "banker")}
    return paytable, shoe_of(cards), deals, best


@pytest.fixture(scope="module")
def six():
    return _peek(SIX)


@pytest.fixture(scope="module")
def seven():
    return _peek(SEVEN)


def test_every_deal_and_reveal_is_played_and_settled_as_by_hand(six):
    paytable, shoe, deals, best = six
    tables = decided_tables(paytable, shoe)
    assert list(tables) == [("player", "standard"), ("banker", "standard")]
    reveals = paytable.decision.reveals
    assert len(reveals) == 15  # (every set of one to four of the four cards)
    mean = dict.fromkeys(("player", "banker"), Fraction(0))
    actions_seen = set()
    for dealt in deals:
        cards = parse_cards(list(dealt))
        cards = cards[: cards_needed(cards)]
        winner = _winner(dealt)
        for r, reveal in enumerate(reveals):
            kept = tuple(FOUR.index(card) for card in reveal.sees)
            seen = tuple(family.value(dealt[i]) for i in kept)
            plays = play_decided(paytable, cards, r, tables)
            for bet in mean:
                action = best[bet][(kept, seen)]
                net = STAKES[action] * _base_net(bet, winner) - FEE
                play = plays[(bet, "standard")]
                assert (play.action.name, play.choice.best, play.net) == (action, action, net)
                mean[bet] += reveal.chance * net
                actions_seen.add(action)
    assert actions_seen == {"keep", "triple"}  # (a raise scales the net: never double)
    analysis = analyze(paytable=paytable, shoe=shoe)
    for bet, total in mean.items():
        expected = total / len(deals) / (1 + FEE)  # per unit paid: the base stake and fee
        assert analysis.result(bet).expected_value == expected, bet


def test_an_action_given_plays_every_bet_at_its_stake(six):
    paytable, shoe, deals, _ = six
    tables = decided_tables(paytable, shoe)
    double = paytable.decision.actions[1]
    for dealt in deals[::7]:
        cards = parse_cards(list(dealt))
        cards = cards[: cards_needed(cards)]
        plays = play_decided(paytable, cards, 3, tables, double)
        for bet in ("player", "banker"):
            play = plays[(bet, "standard")]
            assert play.action.name == "double"
            assert play.net == 2 * _base_net(bet, _winner(dealt)) - FEE


def test_simulate_plays_each_round_at_the_stake_of_its_set(seven):
    """The arrays simulate reads (the first four cards' values, each round's reveal and
    set code, the stake the table plays there) give every deal and reveal the stake of
    the action the reference plays."""
    paytable, shoe, deals, best = seven
    plays = decided_plays(paytable, shoe)
    assert plays.columns == (0, 1)  # (player and banker; the tie is played as dealt)
    reveals = plays.reveals
    first_four = np.array([[family.value(card) for card in dealt[:4]] for dealt in deals])
    for r, reveal in enumerate(reveals):
        reveal_index = np.full(len(deals), r)
        codes = reveal_codes(plays.places, first_four, reveal_index)
        kept = tuple(FOUR.index(card) for card in reveal.sees)
        for column, bet in enumerate(("player", "banker")):
            stakes = plays.round_stakes(column, reveal_index, codes)
            expected = [
                STAKES[best[bet][(kept, tuple(family.value(d[i]) for i in kept))]] for d in deals
            ]
            assert stakes.tolist() == expected


def test_the_cards_shown_are_drawn_by_their_chances():
    """k by the chances of shown, then each set of k cards alike; the same seed draws the
    same cards; one way to show the cards draws nothing."""
    paytable = paytable_from_dict(peek_table({"1": "1/2", "3": "3/10", "4": "1/5"}))
    reveals = paytable.decision.reveals
    n = 200_000
    drawn = draw_reveals(np.random.default_rng(5), reveals, n)
    again = draw_reveals(np.random.default_rng(5), reveals, n)
    assert np.array_equal(drawn, again)
    counts = np.bincount(drawn, minlength=len(reveals)) / n
    for r, reveal in enumerate(reveals):
        # (a binomial share's standard error is at most 0.0012 here: 5 of them)
        assert abs(counts[r] - float(reveal.chance)) < 0.006, reveal
    assert len(reveals) == 4 + 4 + 1 and sum(r.chance for r in reveals) == 1
    rng = np.random.default_rng(1)
    state = rng.bit_generator.state
    only = (Reveal(tuple(FOUR), Fraction(1)),)
    assert draw_reveals(rng, only, 10).tolist() == [0] * 10
    assert rng.bit_generator.state == state


# -- simulate: shoes dealt, the cards shown drawn, each bet raised by its strategy ---------

PEEK_AT = {"s1": Fraction(1, 8), "s2": Fraction(3, 4), "s3": Fraction(1, 16)}


def _peek_baccarat(**point: Fraction):
    return load_paytable("peek-baccarat").with_unknowns(point or PEEK_AT)


def _strategy_frame(paytable, bet: str, decks: int) -> dict[tuple, str]:
    """The bet's strategy as the strategy command lists it: (value of each of the four
    cards or None where not shown) -> the best action."""
    frame = analyze(paytable=paytable, decks=decks).strategy(bet)
    keys = zip(*(frame[card] for card in FOUR), strict=True)
    return {
        tuple(None if pd.isna(v) else int(v) for v in key): best
        for key, best in zip(keys, frame["best"], strict=True)
    }


def _replay_reveals(rng: np.random.Generator, shown: dict[int, Fraction], n: int) -> list:
    """The places among the first four of the cards each of ``n`` rounds shows, as the
    module says it draws them: the number k by its chance, then one of the sets of k
    places, each alike (in the order itertools lists them)."""
    ks = [k for k, p in shown.items() if p]
    p = np.array([float(shown[k]) for k in ks])
    drawn = rng.choice(len(ks), size=n, p=p / p.sum())
    sets = [list(itertools.combinations(range(4), ks[i])) for i in range(len(ks))]
    within = rng.integers(0, np.array([len(s) for s in sets])[drawn])
    return [sets[i][j] for i, j in zip(drawn.tolist(), within.tolist(), strict=True)]


@pytest.mark.parametrize(("cut_card", "last_round"), [(10, "cut-card"), (14, "one-more")])
def test_a_partition_equals_a_plain_replay_of_its_shoes(cut_card, last_round):
    """Per shoe: the Player's and Banker's summed nets and squares are those of the same
    shoes replayed, each round showing the cards drawn as the module says, each bet at
    the stake of its strategy's best action in that set (the strategy command's table),
    the fee on the base stake, per unit paid; the Tie is settled as dealt."""
    paytable = _peek_baccarat()
    procedure = Procedure(1, cut_card, last_round=last_round)
    seed, index, shoes = 7, 1, 30
    result = simulate_partition(SimulationJob(paytable, procedure, seed), index, shoes)
    check_simulate_partition(result, shoes)
    rng = partition_rng(seed, index)
    dealt = [(cards := shuffled_shoe(rng, 1), deal_shoe(cards, procedure)) for _ in range(shoes)]
    shown = {k: p for k, p in paytable.decision.shown}
    reveals = _replay_reveals(rng, shown, sum(len(rounds) for _, rounds in dealt))
    strategies = {bet: _strategy_frame(paytable, bet, 1) for bet in ("player", "banker")}
    offered = [bet.id for bet, _ in paytable.offered(paytable.modes)]
    played: set[str] = set()
    at = 0
    for i, (cards, rounds) in enumerate(dealt):
        assert result["rounds"][i] == len(rounds)
        nets: dict[str, list[Fraction]] = {"player": [], "banker": [], "tie": []}
        for r in rounds:
            first = [family.value(family.card_name(int(c))) for c in cards[r["start"] :][:4]]
            kept = reveals[at]
            at += 1
            seen = tuple(first[j] if j in kept else None for j in range(4))
            player, banker = int(r["player_score"]), int(r["banker_score"])
            winner = "player" if player > banker else "banker" if banker > player else "tie"
            for bet in ("player", "banker"):
                action = strategies[bet][seen]
                played.add(action)
                net = STAKES[action] * _base_net(bet, winner) - FEE
                nets[bet].append(net / (1 + FEE))
            nets["tie"].append(Fraction(8) if winner == "tie" else Fraction(-1))
        for bet, settled in nets.items():
            b = offered.index(bet)
            assert result["counts"][i, b] == len(settled)
            assert result["totals"][i, b] == pytest.approx(float(sum(settled)), abs=1e-9)
            squares = float(sum(n * n for n in settled))
            assert result["squares"][i, b] == pytest.approx(squares, abs=1e-9)
    assert played == {"keep", "triple"}


def test_the_same_seed_gives_the_same_figures(tmp_path):
    paytable = _peek_baccarat()
    options = {"shoes": 40, "seed": 3, "decks": 1, "partition_size": 20}
    first = simulate(paytable, **options, work_dir=tmp_path / "a")
    again = simulate(paytable, **options, work_dir=tmp_path / "b")
    by_name = simulate(
        "peek-baccarat", unknowns={"s1": "1/8", "s2": "0.75", "s3": "1/16"}, **options
    )
    other = simulate(paytable, **{**options, "seed": 4})
    assert first.to_dict() == again.to_dict()
    assert first.bets == by_name.bets and first.exact_evs == by_name.exact_evs
    assert first.bets != other.bets


def test_a_seeded_run_lies_within_its_intervals_of_the_exact_rtp(tmp_path):
    """Deterministic with the seed: every bet's exact EV of a round from a full shoe,
    under its best play (what report gives), within the 95% interval of its simulated
    mean. (A 95% interval misses one time in twenty by chance: this seed is one whose
    intervals all hold. Never raised, the Player's exact EV is 0.16 lower: more than
    three half-widths of its interval.)"""
    paytable = _peek_baccarat()
    run = simulate(paytable, shoes=600, seed=2, decks=1, partition_size=300, work_dir=tmp_path)
    exact = {
        (r.bet.id, r.mode): r.expected_value for r in analyze(paytable=paytable, decks=1).results
    }
    assert run.exact_evs == exact
    for row in run.bets:
        assert row["rounds_bet"] == run.rounds > 0
        assert row["exact_ev"] == float(exact[row["bet"], row["mode"]])
        assert row["ci95_low"] <= row["exact_ev"] <= row["ci95_high"], row


def test_a_play_given_is_the_one_simulated():
    """Kept in every set, the decided bets are punto banco's with the fee: the same shoes
    settle them as the paytable without its [decision] does, and their exact EVs are its
    own."""
    paytable = _peek_baccarat()
    best = analyze(paytable=paytable, decks=1)
    rows = [
        {
            "bet": bet,
            "mode": "standard",
            **{card: ("" if v is None else str(v)) for card, v in c.values_of(FOUR).items()},
            "best": "keep",
        }
        for bet in ("player", "banker")
        for c in best.choices[(bet, "standard")]
    ]
    kept = with_decisions(paytable, rows, "keep.csv")
    plain = replace(paytable, punto_banco_decision=None)
    procedure = Procedure(1, 10)
    raised = simulate_partition(SimulationJob(paytable, procedure, 5), 0, 20)
    keeping = simulate_partition(SimulationJob(kept, procedure, 5), 0, 20)
    dealt = simulate_partition(SimulationJob(plain, procedure, 5), 0, 20)
    for key in ("totals", "squares", "counts"):
        assert np.allclose(keeping[key], dealt[key], rtol=0, atol=1e-9), key
    assert not np.allclose(raised["totals"][:, :2], dealt["totals"][:, :2])
    assert np.array_equal(raised["totals"][:, 2:], dealt["totals"][:, 2:])
    assert exact_evs(kept, procedure) == exact_evs(plain, procedure)


def test_unknowns_are_refused_in_one_line_and_a_log_keeps_the_raises(tmp_path):
    # (Every command that reads a paytable takes --unknowns: the message names none.)
    said = r"unknowns \(s1, s2, s3\): give them values with --unknowns NAME=VALUE \(unknowns="
    with pytest.raises(AnalyzerError, match=said) as error:
        simulate("peek-baccarat", shoes=1)
    assert "\n" not in str(error.value)
    job = SimulationJob(_peek_baccarat(), Procedure(1, 10), 1)
    result, kept = settle_partition(job, 0, 1, keep_rounds=True)
    assert set(kept.actions) == {"player", "banker"} and len(kept.shown) == len(kept.winner)
    # The logged nets of a decided bet are its totals' (per base stake, the fee paid).
    fee = float(job.paytable.bet("player", "standard").fee)
    assert np.isclose(np.nansum(kept.nets[:, 0]) / (1 + fee), result["totals"][:, 0].sum())
