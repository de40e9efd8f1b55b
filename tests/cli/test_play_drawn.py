"""``play`` of a game whose hands draw or decide (Lucky Draw Baccarat): hand-picked rounds
against a round dealt and settled by hand (tests/naive_family.py), the default action
against the exact strategy, and bad inputs through the installed command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import naive_family as nf
import pytest
from helpers import run

from analyzer import analyze
from analyzer.errors import AnalyzerError

SEVEN = {"lucky-draw-baccarat-1": Fraction(2), "lucky-draw-baccarat-2": Fraction(3, 2)}

#: (cards in dealing order: Player, Dealer, Player, Dealer, then the player's third card
#: if they draw, then the dealer's if its two cards total 0-4; the action; what it shows)
ROUNDS = [
    (["4S", "9H", "3D", "8C"], "stand", "a tie on a stand, the dealer standing on 7"),
    (["3S", "9H", "2D", "4C", "6H"], "stand", "a stand, the dealer drawing on 3 and winning"),
    (["KS", "2H", "9D", "AC", "5H"], "stand", "a stand winning on 9, the dealer drawing"),
    (["2S", "9H", "2D", "7C", "5D"], "draw", "a drawn 9 winning, the dealer standing on 6"),
    (["AS", "KH", "2D", "5C", "5H"], "draw", "a drawn 8 winning"),
    (["AS", "KH", "2D", "5C", "4H"], "draw", "a drawn 7 winning: the pay tables differ"),
    (["AS", "KH", "2D", "5C", "3H"], "draw", "a drawn 6 winning"),
    (["3S", "9H", "2D", "4C", "4D", "6H"], "draw", "a tie on a draw, both hands drawing"),
    (["AS", "5H", "AD", "3C", "KD"], "draw", "a draw losing two stakes to the dealer's 8"),
]


def _play(capsys, *argv: str) -> dict:
    code, out, err = run(capsys, "play", *argv, "--format", "json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("paytable", list(SEVEN))
@pytest.mark.parametrize(("cards", "action", "what"), ROUNDS, ids=[r[2] for r in ROUNDS])
def test_a_round_is_dealt_and_settled_as_by_hand(capsys, paytable, cards, action, what):
    """Each hand's cards and score, the winner and the Enter bet's net (a draw stakes
    two base stakes) are those of the round dealt and settled by hand."""
    document = _play(capsys, *cards, "--paytable", paytable, "--action", action)
    dealt = nf.lucky_draw_round(cards, action == "draw", SEVEN[paytable])
    assert dealt["taken"] == len(cards)
    player, dealer = document["round"]["hands"]
    assert (player["name"], dealer["name"]) == ("player", "dealer")
    assert (player["cards"], dealer["cards"]) == (dealt["player"], dealt["dealer"])
    assert (player["score"], dealer["score"]) == dealt["scores"]
    assert document["round"]["winner"] == dealt["winner"]
    assert document["round"]["natural"] is None
    (row,) = document["bets"]
    assert Fraction(row["net_exact"]) == dealt["net"]
    assert row["result"] == ("win" if dealt["net"] > 0 else "push" if dealt["net"] == 0 else "lose")
    decision = document["decision"]
    assert (decision["action"], decision["chosen_by"]) == (action, "option")
    assert decision["stake"] == (2 if action == "draw" else 1)
    assert [s["value"] for s in decision["seen"]] == [
        nf.value(cards[0]),
        nf.value(cards[2]),
        nf.value(cards[1]),
    ]
    assert document["options"]["action"] == action
    # Why each hand drew or stood: the player by the action, the dealer by its rule.
    assert player["reason"] == (
        "drew: the action draw" if action == "draw" else "stood: the action stand"
    )
    total = nf.points((cards[1], cards[3]))
    verb = "drew" if total <= 4 else "stood"
    assert dealer["reason"] == f"{verb} on {total} (draws on 0-4)"


def test_the_hand_picked_rounds_cover_what_they_claim() -> None:
    """Every action, a dealer's draw and stand, a tie, a win, a loss and a push."""
    dealt = [nf.lucky_draw_round(c, a == "draw", Fraction(2)) for c, a, _ in ROUNDS]
    assert {a for _, a, _ in ROUNDS} == {"stand", "draw"}
    assert {len(d["dealer"]) for d in dealt} == {2, 3}
    assert {d["winner"] for d in dealt} == {"player", "dealer", "tie"}
    assert {d["net"] for d in dealt} >= {Fraction(0), Fraction(-2), Fraction(4), Fraction(1)}


#: Lucky Draw's Enter bet (pay table 1) beside side bets on single cards: the Player's
#: pair, a suited Player pair, and the Player's third card (a seven; a red card with the
#: Dealer standing, '' where the Dealer took no card).
SIDE_BETS = """
name = "Lucky Draw, side bets"
game = "lucky-draw-baccarat"
decks = 8

[[bet]]
id = "enter"
rule = [
  { when = "action == 'draw' and winner == 'player' and player_score == 9", pays = "2:1" },
  { when = "action == 'draw' and winner == 'player' and player_score >= 7", pays = "3:2" },
  { when = "winner == 'player'", pays = "1:1" },
  { when = "winner == 'tie'", pays = "push" },
]

[[bet]]
id = "pair"
[[bet.rule]]
when = "player_card1_rank == player_card2_rank and player_card1_suit == player_card2_suit"
pays = "25:1"
[[bet.rule]]
when = "player_card1_rank == player_card2_rank"
pays = "11:1"

[[bet]]
id = "third"
rule = [
  { when = "player_card3_rank == '7'", pays = "10:1" },
  { when = "player_card3_colour == 'red' and dealer_card3_suit == ''", pays = "1:1" },
]
"""


def _side_nets(dealt: dict, draw: bool) -> dict[str, Fraction]:
    """The side bets' nets of a round dealt by hand: they ride on the round at one stake
    (the Draw raises only the Enter bet, which reads the action)."""
    stake = 1
    player, dealer = dealt["player"], dealt["dealer"]
    if player[0] == player[1]:
        pair = 25
    elif nf.rank(player[0]) == nf.rank(player[1]):
        pair = 11
    else:
        pair = -1
    drew = player[2] if len(player) > 2 else None
    if drew is not None and nf.rank(drew) == "7":
        third = 10
    elif drew is not None and nf.suit(drew) in "HD" and len(dealer) == 2:
        third = 1
    else:
        third = -1
    return {"pair": Fraction(stake * pair), "third": Fraction(stake * third)}


SIDE_ROUNDS = [
    *ROUNDS,
    (["7S", "9H", "7S", "8C"], "stand", "a suited pair (two decks' seven of spades)"),
    (["7S", "9H", "7D", "8C", "7H"], "draw", "a pair, a drawn seven"),
    (["QS", "KH", "QD", "5C", "3D"], "draw", "a pair, a red card, the dealer standing"),
    (["QS", "KH", "QD", "3C", "3D", "2H"], "draw", "a pair, a red card, the dealer drawing"),
]


@pytest.mark.parametrize(("cards", "action", "what"), SIDE_ROUNDS, ids=[r[2] for r in SIDE_ROUNDS])
def test_side_bets_on_single_cards_are_settled_as_by_hand(tmp_path, capsys, cards, action, what):
    """Each side bet on the cards (ranks, suits, colours; the third card '' where not
    taken) nets what the round dealt by hand nets, at the action's stake."""
    from helpers import write_paytable

    paytable = str(write_paytable(tmp_path, SIDE_BETS))
    document = _play(capsys, *cards, "--paytable", paytable, "--action", action)
    dealt = nf.lucky_draw_round(cards, action == "draw", Fraction(2))
    nets = {row["bet"]: Fraction(row["net_exact"]) for row in document["bets"]}
    assert nets == {"enter": dealt["net"], **_side_nets(dealt, action == "draw")}


def test_the_side_rounds_cover_each_line() -> None:
    dealt = [nf.lucky_draw_round(c, a == "draw", Fraction(2)) for c, a, _ in SIDE_ROUNDS]
    nets = [_side_nets(d, a == "draw") for d, (_, a, _) in zip(dealt, SIDE_ROUNDS, strict=True)]
    assert {n["pair"] for n in nets} >= {Fraction(25), Fraction(11), Fraction(-1)}
    assert {n["third"] for n in nets} >= {Fraction(10), Fraction(1), Fraction(-1)}


def test_a_side_bet_on_suits_needs_every_cards_suit(tmp_path, capsys) -> None:
    from helpers import write_paytable

    paytable = str(write_paytable(tmp_path, SIDE_BETS))
    code, out, err = run(capsys, "play", "7", "9H", "7S", "8C", "--paytable", paytable,
                         "--action", "stand")  # fmt: skip
    assert (code, out) == (2, "")
    assert "card 7 has no suit, and bet 'pair'" in err and err.count("\n") == 1


#: First deals (Player, Dealer, Player, Dealer) whose best actions differ.
FIRSTS = [
    ["3S", "9H", "2D", "4C"],
    ["2S", "9H", "2D", "7C"],
    ["KS", "QH", "JD", "2C"],
    ["6S", "6H", "KD", "2C"],
]


def _strategy_frame(paytable: str):
    frame = analyze(paytable=paytable).strategy("enter")
    return frame.set_index(["player_card1", "player_card2", "dealer_card1"])


@pytest.mark.parametrize("paytable", list(SEVEN))
@pytest.mark.parametrize("first", FIRSTS)
def test_the_default_action_is_the_strategys_best(capsys, paytable, first):
    """Without --action, the round is played by the best action of the Enter bet's exact
    strategy on a full shoe of the paytable's decks (what strategy prints), and each
    action's exact expected net there is the strategy table's."""
    frame = _strategy_frame(paytable)
    seen = (nf.value(first[0]), nf.value(first[2]), nf.value(first[1]))
    row = frame.loc[seen]
    best = row["best"]
    # The round's cards for that action: the first deal, then what it takes.
    shoe = [*first, "9D", "9C"]
    taken = nf.lucky_draw_round(shoe, best == "draw", SEVEN[paytable])["taken"]
    document = _play(capsys, *shoe[:taken], "--paytable", paytable)
    decision = document["decision"]
    assert (decision["action"], decision["chosen_by"]) == (best, "strategy")
    assert document["options"]["action"] is None
    (strategy,) = decision["strategies"]
    assert (strategy["bet"], strategy["mode"], strategy["best"]) == ("enter", "standard", best)
    assert {name: Fraction(v) for name, v in strategy["ev"].items()} == {
        "stand": row["ev_stand"],
        "draw": row["ev_draw"],
    }
    assert document["shoe"]["decks"] == 8
    code, out, _ = run(capsys, "play", *shoe[:taken], "--paytable", paytable)
    assert code == 0
    assert f"Action: {best}" in out and "the best of the exact strategy on a full shoe of 8" in out
    assert f"EV stand {float(row['ev_stand']):+.6f}, draw {float(row['ev_draw']):+.6f}" in out


def test_the_defaults_cover_both_actions() -> None:
    for paytable in SEVEN:
        frame = _strategy_frame(paytable)
        bests = {
            frame.loc[(nf.value(f[0]), nf.value(f[2]), nf.value(f[1]))]["best"] for f in FIRSTS
        }
        assert bests == {"stand", "draw"}


def test_a_game_dealt_once_and_punto_banco_have_no_decision(capsys) -> None:
    document = _play(capsys, "5H", "5S", "--paytable", "dragon-tiger")
    assert document["decision"] is None and document["options"]["action"] is None
    document = _play(capsys, "2S", "3H", "2D", "KC", "8H")
    assert document["decision"] is None


# -- Bad inputs, through the installed command: one line, exit 2, nothing written ----------


def _installed(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess:
    command = Path(sys.executable).with_name("baccarat-odds")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    return subprocess.run(
        [str(command), *argv], capture_output=True, text=True, cwd=tmp_path, env=env, check=False
    )


LUCKY = ("--paytable", "lucky-draw-baccarat-1")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["play", "3S", "9H", "2D", *LUCKY],
            "deals 4 cards first (2 to the Player, 2 to the Dealer)",
        ),
        (
            ["play", "3S", "9H", "2D", "4C", *LUCKY, "--action", "stand"],
            "deals 5 cards in this round under the action 'stand': 4 first (Player Dealer "
            "Player Dealer), then the Dealer's card 3 (its 3 draws); got 4",
        ),
        (
            ["play", "3S", "9H", "2D", "4C", "6H", "7H", *LUCKY, "--action", "stand"],
            "deals 5 cards in this round under the action 'stand'",
        ),
        (
            ["play", "2S", "9H", "2D", "7C", *LUCKY, "--action", "draw"],
            "deals 5 cards in this round under the action 'draw': 4 first (Player Dealer "
            "Player Dealer), then the Player's card 3 (the action draw); got 4",
        ),
        (
            ["play", "4S", "9H", "3D", "8C", "5H", *LUCKY, "--action", "stand"],
            "deals 4 cards in this round under the action 'stand': 4 first (Player Dealer "
            "Player Dealer), and no card after them; got 5",
        ),
        (
            ["play", "3S", "9H", "2D", "4C", "6H", *LUCKY, "--action", "hit"],
            "no action 'hit' (actions: stand, draw)",
        ),
        (
            ["play", "2S", "3H", "2D", "KC", "8H", "--action", "draw"],
            "--action: punto banco has no player's decision",
        ),
        (
            ["play", "5H", "5S", "--paytable", "dragon-tiger", "--action", "draw"],
            "Dragon Tiger has no player's decision",
        ),
    ],
)
def test_a_bad_input_is_one_line_exit_2_and_nothing_written(tmp_path, argv, message):
    done = _installed(tmp_path, *argv)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("baccarat-odds: error: "), done.stderr
    assert message in lines[0]
    assert not list(tmp_path.iterdir())


#: Lucky Draw with its cards seen shown at random: solved exactly by report, played with
#: --shown, simulated (each round's reveal drawn outside the dealing kernel), logged with
#: a shown column and audited; count refuses it (one line, saying why).
_RANDOM_REVEAL = """
name = "Lucky Draw, peeked"
[game]
name = "Lucky Draw, peeked"
hands = [{ name = "player", cards = 2, extra = 1 },
         { name = "dealer", cards = 2, extra = 1, draws = "0-4" }]
[game.decision]
sees = ["player_card1", "player_card2", "dealer_card1"]
shown = { 1 = "1/2", 3 = "1/2" }
actions = [{ name = "stand" }, { name = "draw", draws = "player", stake = 2 }]
[[bet]]
id = "hand"
rule = [{ when = "winner == 'player'", pays = "1:1" }, { when = "winner == 'tie'", pays = "push" }]
"""


@pytest.fixture
def peeked(tmp_path):
    path = tmp_path / "peeked.toml"
    path.write_text(_RANDOM_REVEAL, encoding="utf-8")
    return path


def test_a_games_random_reveal_is_played_by_the_strategy_of_the_cards_shown(peeked, capsys):
    from analyzer import analyze, load_paytable

    table = analyze(paytable=load_paytable(str(peeked))).choices[("hand", "standard")]
    reveals = load_paytable(str(peeked)).decision.reveals
    # Player 4 and 2 against the dealer's 5 and K (standing on 5): each way the
    # cards are shown, play takes the action the table gives that reveal's set.
    for shown, cards in (("1", (4,)), ("3", (2,)), ("2", (5,)), ("1,2,3", (4, 2, 5))):
        names = [
            {"1": "player_card1", "2": "dealer_card1", "3": "player_card2"}[p]
            for p in shown.split(",")
        ]
        r = next(i for i, rv in enumerate(reveals) if set(rv.sees) == set(names))
        code = int("".join(str(v) for v in _in_order(reveals[r].sees, names, cards)))
        best = table.choice(code, r).best
        argv = ["4S", "5H", "2D", "KC"] + (["3H"] if best == "draw" else [])
        code_, out, err = run(
            capsys, "play", *argv, "--paytable", str(peeked), "--shown", shown, "--format", "json"
        )
        assert code_ == 0, err
        document = json.loads(out)
        assert document["decision"]["action"] == best, shown
        assert [s["card"] for s in document["decision"]["seen"]] == list(reveals[r].sees)


def _in_order(order, names, values):
    by_name = dict(zip(names, values, strict=True))
    return [by_name[name] for name in order]


def test_a_games_random_reveal_needs_shown_and_a_number_of_cards_it_shows(peeked, capsys):
    for extra, message in (
        ([], "name those this round showed"),
        (["--shown", "1,3"], "shows 1 or 3"),
        (["--shown", "4"], "never shows"),
        (["--shown", "1,1"], "given twice"),
    ):
        argv = ["play", "AS", "2H", "5D", "9C", "KS", "--paytable", str(peeked), *extra]
        code, out, err = run(capsys, *argv)
        assert (code, out) == (2, ""), extra
        assert err.count("\n") == 1 and message in err, (extra, err)


def test_a_games_random_reveal_is_simulated_logged_and_audited_and_count_refused(
    peeked, tmp_path, capsys
):
    import csv

    from analyzer import count

    log = tmp_path / "rounds.csv"
    argv = ["simulate", "--paytable", str(peeked), "--shoes", "4", "--seed", "5", "--no-progress"]
    code, out, err = run(capsys, *argv, "--log", str(log))
    assert code == 0, err
    with log.open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    shown = [row["shown"] for row in rows]
    assert set(shown) == {
        "player_card1",
        "player_card2",
        "dealer_card1",
        "player_card1 player_card2 dealer_card1",
    }
    assert 0.35 < shown.count("player_card1 player_card2 dealer_card1") / len(rows) < 0.65
    code, out, _ = run(capsys, "audit", "--paytable", str(peeked), str(log))
    assert code == 0 and "No findings." in out
    rows[0]["shown"] = "player_card1 dealer_card1"
    with log.open("w", encoding="utf-8", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    code, out, err = run(capsys, "audit", "--paytable", str(peeked), str(log))
    assert code == 2 and "column 'shown': 2 card(s) shown, but a round shows 1, 3" in err
    with pytest.raises(AnalyzerError, match="solves each round's best play") as caught:
        count(str(peeked), shoes=3000, bets="hand")
    assert "\n" not in str(caught.value)
