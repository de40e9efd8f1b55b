"""Shoes of a game whose hands draw or decide (Lucky Draw Baccarat) dealt, played by each
bet's exact strategy and settled, against a plain-Python replay of the same shuffled
shoes (tests/naive_family.py settles each round by hand), and beside the exact EVs.

The replay shuffles by the documented procedure itself (each shoe of the partition's
generator, :func:`~analyzer.runs.runner.partition_rng`, shuffled in turn from its sorted
cards), burns the shown card's value, deals round after round while six cards are left,
each round by the best action of the bet's strategy table
(:meth:`~analyzer.analysis.exact.Analysis.strategy`) on its first three seen cards, and
ends the shoe at the cut card."""

from __future__ import annotations

from fractions import Fraction

import naive_family as nf
import numpy as np
import pytest

from analyzer import analyze, load_paytable, simulate
from analyzer.engine.deal_walk import information_codes
from analyzer.errors import AnalyzerError
from analyzer.game.games import named_game
from analyzer.runs.dealer import Procedure
from analyzer.runs.runner import partition_rng
from analyzer.runs.simulate import (
    SimulationJob,
    check_simulate_partition,
    check_simulation,
    settle_partition,
    simulate_partition,
)

#: A paytable of Lucky Draw with a second bet whose own strategy differs from the Enter
#: bet's: the Dealer bet (even money on the dealer, a tie pushes) is played to make the
#: dealer win, so its rounds are dealt apart from the Enter bet's.
TWO_BETS = """
name = "Lucky Draw, two bets"
game = "lucky-draw-baccarat"
decks = 1

[[bet]]
id = "enter"
[[bet.rule]]
when = "action == 'draw' and winner == 'player' and player_score == 9"
pays = "2:1"
[[bet.rule]]
when = "action == 'draw' and winner == 'player' and player_score >= 7"
pays = "3:2"
[[bet.rule]]
when = "winner == 'player'"
pays = "1:1"
[[bet.rule]]
when = "winner == 'tie'"
pays = "push"

[[bet]]
id = "on_dealer"
[[bet.rule]]
when = "winner == 'dealer' and action in ('stand', 'draw')"  # (reads the action: raised)
pays = "1:1"
[[bet.rule]]
when = "winner == 'tie'"
pays = "push"
"""


#: Lucky Draw with side bets on single cards (the fields of its cards): the Player's
#: pair, and the third cards (both drawn, of one suit; a red card drawn by the Player,
#: the Dealer standing; or no card drawn by the Player, '', and a spade by the Dealer).
#: Each is played by its own strategy, standing in some sets and drawing in others.
SIDE_BETS = """
name = "Lucky Draw, side bets"
game = "lucky-draw-baccarat"
decks = 1

[[bet]]
id = "pair"
rule = [{ when = "player_card1_rank == player_card2_rank", pays = "11:1" }]

[[bet]]
id = "thirds"
rule = [
  { when = "player_card3_suit == dealer_card3_suit and player_card3_value >= 0", pays = "1:1" },
  { when = "player_card3_colour == 'red' and dealer_card3_rank == ''", pays = "1:1" },
  { when = "player_card3_rank == '' and dealer_card3_suit == 'S'", pays = "3:1" },
]
"""


def _side_nets(dealt: dict, draw: bool) -> dict[str, Fraction]:
    stake = 2 if draw else 1
    player, dealer = dealt["player"], dealt["dealer"]
    pair = 11 if nf.rank(player[0]) == nf.rank(player[1]) else -1
    drew, dealer_drew = (h[2] if len(h) > 2 else "" for h in (player, dealer))
    same_suit = drew and dealer_drew and nf.suit(drew) == nf.suit(dealer_drew)
    red_alone = drew and nf.suit(drew) in "HD" and not dealer_drew
    if same_suit or red_alone:
        thirds = 1
    elif not drew and dealer_drew and nf.suit(dealer_drew) == "S":
        thirds = 3
    else:
        thirds = -1
    return {"pair": Fraction(stake * pair), "thirds": Fraction(stake * thirds)}


def _nets(paytable_id: str) -> dict:
    """Per bet, its net in base stakes of a round settled by hand."""
    seven = Fraction(3, 2) if paytable_id == "lucky-draw-baccarat-2" else Fraction(2)
    if paytable_id == "side-bets":
        return {
            "pair": lambda dealt, draw: _side_nets(dealt, draw)["pair"],
            "thirds": lambda dealt, draw: _side_nets(dealt, draw)["thirds"],
        }, seven

    def on_dealer(dealt: dict, draw: bool) -> Fraction:
        stake = 2 if draw else 1
        return {"dealer": stake, "tie": 0, "player": -stake}[dealt["winner"]]

    return {"enter": lambda dealt, draw: dealt["net"], "on_dealer": on_dealer}, seven


def plain_shoe_rounds(
    shoe: list[str], cut_card: int, one_more: bool, best: dict[tuple[int, int, int], str], seven
) -> list[tuple[dict, bool]]:
    """The rounds a live table deals from ``shoe``, played by ``best`` (information set
    -> action), each settled by hand: (the round, whether the player drew)."""
    position = 1 + (nf.points((shoe[0],)) or 10)
    cut = len(shoe) - cut_card
    rounds = []
    last = False
    while position + 6 <= len(shoe):
        start = position
        first = shoe[position : position + 4]
        seen = (nf.value(first[0]), nf.value(first[2]), nf.value(first[1]))
        draw = best[seen] == "draw"
        dealt = nf.lucky_draw_round(shoe[position:], draw, seven)
        rounds.append((dealt, draw))
        position += dealt["taken"]
        if last:
            break
        if position > cut:  # the cut card came out in this round
            if not one_more or start == cut:
                break
            last = True
    return rounds


def plain_shoes(seed: int, index: int, shoes: int, decks: int) -> list[list[str]]:
    """The partition's shoes: each a sorted shoe (card index rank * 4 + suit, each
    ``decks`` times) shuffled in turn by the partition's generator."""
    rng = partition_rng(seed, index)
    out = []
    for _ in range(shoes):
        cards = np.repeat(np.arange(52, dtype=np.int64), decks)
        rng.shuffle(cards)
        out.append([nf.card_name(int(c)) for c in cards])
    return out


def _strategy(paytable, bet: str, decks: int) -> dict[tuple[int, int, int], str]:
    frame = analyze(paytable=paytable, decks=decks).strategy(bet)
    keys = zip(frame["player_card1"], frame["player_card2"], frame["dealer_card1"], strict=True)
    return dict(zip(keys, frame["best"], strict=True))


@pytest.mark.parametrize(
    ("name", "decks", "cut_card", "last_round"),
    [
        # (the kernels' own lines, with the JIT off: one case, cheap in plain Python)
        pytest.param("lucky-draw-baccarat-1", 1, 10, "cut-card", marks=pytest.mark.kernels),
        ("lucky-draw-baccarat-2", 1, 12, "one-more"),
        ("lucky-draw-baccarat-1", 2, 14, "one-more"),
        ("two-bets", 1, 10, "cut-card"),
        ("side-bets", 1, 10, "cut-card"),
    ],
)
def test_a_partition_equals_a_plain_replay_of_its_shoes(
    tmp_path, name, decks, cut_card, last_round
):
    """Per shoe and bet: the rounds, their summed nets and squares equal those of the
    plain replay of the same shoes, each round played by the bet's exact strategy and
    settled by hand (a draw staking two); the rounds of a shoe are those its first bet
    is played on."""
    if name in ("two-bets", "side-bets"):
        path = tmp_path / f"{name}.toml"
        path.write_text(TWO_BETS if name == "two-bets" else SIDE_BETS, encoding="utf-8")
        paytable = load_paytable(str(path))
    else:
        paytable = load_paytable(name)
    nets, seven = _nets(name)
    procedure = Procedure(decks, cut_card, last_round=last_round)
    seed, index, shoes = 11, 2, 25
    result = simulate_partition(SimulationJob(paytable, procedure, seed), index, shoes)
    check_simulate_partition(result, shoes)
    plain = plain_shoes(seed, index, shoes, decks)
    offered = list(paytable.offered(paytable.modes))
    strategies = {bet.id: _strategy(paytable, bet.id, decks) for bet, _ in offered}
    if name == "two-bets":  # the two bets are played differently somewhere
        assert strategies["enter"] != strategies["on_dealer"]
    if name == "side-bets":  # each side bet stands somewhere and draws somewhere
        assert all(set(s.values()) == {"stand", "draw"} for s in strategies.values())
    for b, (bet, _) in enumerate(offered):
        for i, shoe in enumerate(plain):
            rounds = plain_shoe_rounds(
                shoe, cut_card, last_round == "one-more", strategies[bet.id], seven
            )
            if b == 0:
                assert result["rounds"][i] == len(rounds)
            settled = [nets[bet.id](dealt, draw) for dealt, draw in rounds]
            assert result["counts"][i, b] == len(rounds)
            assert result["totals"][i, b] == pytest.approx(float(sum(settled)), abs=1e-9)
            squares = float(sum(n * n for n in settled))
            assert result["squares"][i, b] == pytest.approx(squares, abs=1e-9)
    # The whole partition's mean, as simulate reports it, is the replay's.
    mean = result["totals"][:, 0].sum() / result["counts"][:, 0].sum()
    replayed = [
        nets[offered[0][0].id](dealt, draw)
        for shoe in plain
        for dealt, draw in plain_shoe_rounds(
            shoe, cut_card, last_round == "one-more", strategies[offered[0][0].id], seven
        )
    ]
    assert mean == pytest.approx(float(sum(replayed)) / len(replayed), abs=1e-12)


def test_both_actions_and_both_dealer_plays_are_dealt() -> None:
    """The replay above is not vacuous: the partitions it checks stand and draw, and
    the dealer draws and stands, in many rounds."""
    strategy = _strategy("lucky-draw-baccarat-1", "enter", 1)
    rounds = [
        r
        for shoe in plain_shoes(11, 2, 25, 1)
        for r in plain_shoe_rounds(shoe, 10, False, strategy, Fraction(2))
    ]
    drew = [draw for _, draw in rounds]
    dealer_drew = [len(dealt["dealer"]) == 3 for dealt, _ in rounds]
    assert 50 < sum(drew) < len(rounds) - 50
    assert 50 < sum(dealer_drew) < len(rounds) - 50


@pytest.mark.parametrize(
    ("name", "decks", "shoes", "seed"),
    [("lucky-draw-baccarat-1", 1, 400, 2), ("lucky-draw-baccarat-2", 8, 60, 1)],
)
def test_a_seeded_run_lies_within_its_interval_of_the_exact_ev(tmp_path, name, decks, shoes, seed):
    """Deterministic with the seed: the exact EV of the Enter bet under its best play
    (what report gives) within the 95% interval of its simulated mean. (A 95% interval
    misses one time in twenty by chance: these seeds are ones whose intervals hold. The
    Enter bet played by standing everywhere nets -0.209 a round, several half-widths (at
    most 0.073) below.)"""
    run = simulate(name, shoes=shoes, seed=seed, decks=decks, partition_size=100, work_dir=tmp_path)
    exact = analyze(paytable=name, decks=decks).result("enter").expected_value
    assert run.exact_evs[("enter", "standard")] == exact
    (row,) = run.bets
    assert row["rounds_bet"] == run.rounds > 0
    assert row["exact_ev"] == float(exact)
    assert row["ci95_low"] <= row["exact_ev"] <= row["ci95_high"], row


def test_the_information_set_of_a_dealt_round() -> None:
    """Lucky Draw deals Player, Dealer, Player, Dealer and sees the player's two cards and
    the dealer's first: the code is their point values in that order, as the strategy
    table names its sets."""
    game = named_game("lucky-draw-baccarat")
    rng = np.random.default_rng(3)
    values = rng.integers(0, 10, size=(200, 4))
    codes = information_codes(game, values)
    expected = [100 * p1 + 10 * p2 + d1 for p1, d1, p2, _ in values.tolist()]
    assert codes.tolist() == expected


def test_a_log_of_bets_played_apart_is_refused_before_any_shoe(tmp_path) -> None:
    path = tmp_path / "two.toml"
    path.write_text(TWO_BETS, encoding="utf-8")
    with pytest.raises(AnalyzerError, match="--log writes one action a round"):
        check_simulation(load_paytable(str(path)), Procedure(8), log=True)
    with pytest.raises(AnalyzerError, match="--log writes one action a round"):
        simulate(str(path), shoes=1, log=tmp_path / "rounds.csv")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["two.toml"]


def test_a_log_keeps_the_rounds_the_simulation_settles() -> None:
    """Every round kept for a log, with its action: per shoe its nets add up to the
    totals (no fee), a drawn round's Player holds three cards, and the cards of a shoe's
    rounds follow one another from round 1's first."""
    paytable = load_paytable("lucky-draw-baccarat-1")
    check_simulation(paytable, Procedure(8), log=True)  # one bet: one play
    job = SimulationJob(paytable, Procedure(8), 2)
    result, kept = settle_partition(job, 0, 2, keep_rounds=True)
    assert len(kept.shoe) == result["rounds"].sum() == len(kept.action)
    np.testing.assert_allclose(
        np.bincount(kept.shoe, weights=kept.nets[:, 0], minlength=2), result["totals"][:, 0]
    )
    player, dealer = kept.hands
    assert ((player[:, 2] >= 0) == (kept.action == "draw")).all()
    rng = partition_rng(2, 0)
    from analyzer.runs.game_dealer import shuffled_game_shoes

    cards, starts = shuffled_game_shoes(rng, 2, Procedure(8))
    first = kept.shoe == 0
    dealt = np.concatenate(
        [
            np.concatenate([p[:1], d[:1], p[1:2], d[1:2], p[2:][p[2:] >= 0], d[2:][d[2:] >= 0]])
            for p, d in zip(player[first], dealer[first], strict=True)
        ]
    )
    np.testing.assert_array_equal(dealt, cards[0, starts[0] : starts[0] + len(dealt)])


def test_each_first_deal_is_played_by_its_sets_best_action() -> None:
    """The kernel's table of actions: first deal ``k`` is ``k``'s decimal digits in
    dealing order, and its action the best of its information set in the strategy."""
    from analyzer.runs.drawn_dealer import action_by_deal, first_deal_values

    game = named_game("lucky-draw-baccarat")
    values = first_deal_values(game)
    assert values.shape == (10_000, 4)
    assert values[3_402].tolist() == [3, 4, 0, 2]
    table = analyze(paytable="lucky-draw-baccarat-1").choices[("enter", "standard")]
    actions = action_by_deal(game, table)
    strategy = _strategy("lucky-draw-baccarat-1", "enter", 8)
    for k in (0, 3_402, 6_060, 9_999, 1_234):
        p1, d1, p2, _ = values[k].tolist()
        assert ("stand", "draw")[actions[k]] == strategy[(p1, p2, d1)]
    assert set(actions.tolist()) == {0, 1}
    assert not action_by_deal(game, None).any()  # no strategy: the first action


def test_a_side_bet_over_the_walks_budget_is_refused_before_any_shoe(tmp_path) -> None:
    """A bet on every card's suit: its strategy's walk is over the budget, refused in one
    line naming it before a shoe is dealt (as report leaves it unavailable)."""
    suits = " and ".join(
        f"{hand}_card{k}_suit == 'H'" for hand in ("player", "dealer") for k in (1, 2, 3)
    )
    path = tmp_path / "suits.toml"
    path.write_text(
        f'name = "S"\ngame = "lucky-draw-baccarat"\n[[bet]]\nid = "hearts"\n'
        f'rule = [{{ when = "{suits}", pays = "1000:1" }}]\n',
        encoding="utf-8",
    )
    with pytest.raises(AnalyzerError, match=r"^bet 'hearts': Lucky Draw Baccarat: ") as caught:
        check_simulation(load_paytable(str(path)), Procedure(8))
    assert "over the budget" in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(AnalyzerError, match=r"^bet 'hearts': "):
        simulate(str(path), shoes=1, work_dir=tmp_path / "run")
    assert not (tmp_path / "run").exists()
