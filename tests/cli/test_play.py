"""``play``: one round dealt from given cards, who drew and why, every bet settled."""

from __future__ import annotations

import json

from helpers import MULTIPLIED_PAYTABLE, run, write_paytable

from analyzer import load_paytable


def test_play_json(capsys) -> None:
    code, out, _ = run(capsys, "play", "2S", "3H", "2D", "KC", "8H", "--format", "json")
    assert code == 0
    result = json.loads(out)
    dealt = result["round"]
    assert dealt["player_cards"] == ["2S", "2D", "8H"]
    assert dealt["banker_cards"] == ["3H", "KC"]
    assert (dealt["player_score"], dealt["banker_score"]) == (2, 3)
    assert dealt["winner"] == "banker" and dealt["natural"] is False
    nets = {(row["bet"], row["mode"]): row["net"] for row in result["bets"]}
    assert nets["banker", "commission"] == 0.95 and nets["player_pair", "commission"] == 11
    assert nets["banker", "no_commission"] == 1
    # --mode: that mode's rows only.
    code, out, _ = run(
        capsys, "play", "2S", "3H", "2D", "KC", "8H", "--format", "json", "--mode", "no_commission"
    )
    rows = json.loads(out)["bets"]
    offered = list(load_paytable("seed-game").offered(("no_commission",)))
    assert {row["mode"] for row in rows} == {"no_commission"} and len(rows) == len(offered)


def test_play_text_says_why(capsys) -> None:
    code, out, _ = run(capsys, "play", "KS", "5H", "6D", "AC", "--format", "text")
    assert code == 0
    # Player K + 6 = 6 stands; Banker 5 + A = 6 stands too (Player stood, Banker on 6).
    assert "Player has 6 (6-7): stands" in out
    assert "Player stood and Banker has 6 (6-7): stands" in out
    assert "Winner: Tie" in out


def test_play_text_names_each_bet_once_where_every_mode_pays_alike(capsys) -> None:
    """People read the bets' names (the paytable's), and a bet that pays the same in
    every mode once, as report shows it; JSON keeps the ids and gives the names."""
    paytable = load_paytable("seed-game")
    names = {bet.id: bet.name for bet in paytable.bets}
    code, out, _ = run(capsys, "play", "2S", "3H", "2D", "KC", "8H")
    assert code == 0
    header, *rows = out.splitlines()[4:]
    mode, result = header.index("Mode"), header.index("Result")
    shown = [(row[:mode].strip(), row[mode:result].strip()) for row in rows]
    # Only the Banker pays differently by mode (0.95:1 with commission, 1:2 on a six
    # without): one row in each mode, every other bet one row for all modes.
    assert shown == [
        (names[bet], shown_mode)
        for bet in paytable.bet_ids
        for shown_mode in (
            ("Baccarat (commission)", "No Commission Baccarat")
            if bet == "banker"
            else ("All modes",)
        )
    ]
    assert not any(bet in out for bet in paytable.bet_ids if "_" in bet)
    code, out, _ = run(capsys, "play", "2S", "3H", "2D", "KC", "8H", "--format", "json")
    rows = json.loads(out)["bets"]
    assert {row["bet"]: row["name"] for row in rows} == names


def test_play_settles_the_rounds_special_cards(capsys, tmp_path) -> None:
    paytable = str(write_paytable(tmp_path, MULTIPLIED_PAYTABLE))
    # Player 7S 2D (9) against Banker 3H KC (3): the Player's natural counts the 7S (8x);
    # the AH is not dealt. Net per unit staked, the 0.2 fee paid: 8 - 0.2.
    argv = ["play", "7S", "3H", "2D", "KC", "--paytable", paytable, "--special", "7S=8,AH=2"]
    code, out, _ = run(capsys, *argv, "--format", "json")
    assert code == 0
    result = json.loads(out)
    exact = {row["bet"]: row["net_exact"] for row in result["bets"]}
    assert exact["player"] == "39/5"
    assert exact["banker"] == "-6/5"
    assert {row["bet"]: row["multiplier"] for row in result["bets"] if row["multiplier"]} == {
        "player": "8/1"
    }
    assert result["options"]["special_cards"] == {"7S": "8/1", "AH": "2/1"}
    assert result["options"]["fee"] == "1/5"
    code, out, _ = run(capsys, *argv)
    assert "Special: 7S 8x, AH 2x" in out and "+7.8" in out
    # The tie counts both hands: 6S KD / 6H KC ties 6-6, both sixes special: 5 * 2 * 3.
    argv = ["play", "6S", "6H", "KD", "KC", "--paytable", paytable, "--special", "6S=2,6H=3"]
    code, out, _ = run(capsys, *argv, "--format", "json")
    exact = {row["bet"]: row["net_exact"] for row in json.loads(out)["bets"]}
    assert exact["tie"] == "149/5"  # 30 - 0.2
    assert exact["player"] == "-1/5"  # a push: only the fee is lost
    # The cap: three 8x cards in the Player's hand would be 512 anyway; with no special
    # card the multiplier is 1.
    code, out, _ = run(capsys, "play", "7S", "3H", "2D", "KC", "--paytable", paytable)
    assert "Special: none" in out and "+0.8" in out


def test_play_refuses_bad_special_cards(capsys, tmp_path) -> None:
    paytable = str(write_paytable(tmp_path, MULTIPLIED_PAYTABLE))
    cards = ["7S", "3H", "2D", "KC"]
    for special, message in [
        ("7S=7", "not a multiplier of this paytable (2, 3, 4, 5, 8)"),
        ("7S=8,7S=2", "7S is given twice"),
        ("7=8", "unknown card '7'"),
        ("7S", "write CARD=MULTIPLIER"),
        ("7S=-8", "must not be negative"),
        (",".join(f"{r}S=2" for r in "A23456"), "6 special cards, but a round draws 1, 2, 3, 4, 5"),
    ]:
        code, out, err = run(capsys, "play", *cards, "--paytable", paytable, "--special", special)
        assert (code, out) == (2, ""), special
        assert message in err and len(err.strip().splitlines()) == 1, (special, err)
    code, _, err = run(capsys, "play", *cards, "--special", "7S=2")
    assert code == 2 and "this paytable has no [multipliers]" in err


def test_play_settles_a_round_without_the_heavy_libraries() -> None:
    """play loads neither pandas nor Numba nor sympy, nor numpy.ma (issue 21: a command
    line that starts fast), nor what only multiplied bets or shoe files need; in a fresh
    interpreter, as a user runs it."""
    import subprocess
    import sys

    code = (
        "import contextlib, io, sys\n"
        "from analyzer.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    status = main(['play', '2S', '3H', '2D', 'KC', '8H', '--paytable', 'ez-baccarat'])\n"
        "assert status == 0 and 'Winner:' in out.getvalue()\n"
        "heavy = ('pandas', 'numba', 'sympy', 'matplotlib', 'jinja2', 'numpy.ma', 'csv',\n"
        "         'unicodedata', 'analyzer.paytables.multipliers',\n"
        "         'analyzer.paytables.unknowns')\n"
        "print(sorted(h for h in heavy if h in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
