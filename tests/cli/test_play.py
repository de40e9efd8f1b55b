"""``play``: one round dealt from given cards, who drew and why, every bet settled."""

from __future__ import annotations

import json

from helpers import run


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
