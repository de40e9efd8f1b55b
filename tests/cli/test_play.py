"""``play``: one round dealt from given cards, who drew and why, every bet settled."""

from __future__ import annotations

import json

from helpers import run

from analyzer import load_paytable


def test_play_json(capsys) -> None:
    code, out, _ = run(capsys, "play", "2S", "3H", "2D", "KC", "8H", "--format", "json")
    assert code == 0
    result = json.loads(out)
    assert result["player_cards"] == ["2S", "2D", "8H"]
    assert result["banker_cards"] == ["3H", "KC"]
    assert (result["player_score"], result["banker_score"]) == (2, 3)
    assert result["winner"] == "banker" and result["natural"] is False
    assert result["bets"]["banker"] == 0.95 and result["bets"]["player_pair"] == 11
    assert result["bets_by_mode"]["no_commission"]["banker"] == 1


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
    assert json.loads(out)["bet_names"] == names
