"""``play``: one round dealt from given cards, who drew and why, every bet settled."""

from __future__ import annotations

import json

import pytest
from helpers import MULTIPLIED_PAYTABLE, run, write_paytable

from analyzer import load_paytable


def test_play_json(capsys) -> None:
    code, out, _ = run(capsys, "play", "2S", "3H", "2D", "KC", "8H", "--format", "json")
    assert code == 0
    result = json.loads(out)
    player, banker = result["round"]["hands"]
    assert player["cards"] == ["2S", "2D", "8H"]
    assert banker["cards"] == ["3H", "KC"]
    assert (player["score"], banker["score"]) == (2, 3)
    assert result["round"]["winner"] == "banker" and result["round"]["natural"] is False
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


# -- Another game of the family: its cards in its dealing order, no drawing ----------------


def _play_json(capsys, *argv: str) -> dict:
    """``play ... --format json``, checked against the play contract's schema."""
    import jsonschema

    from analyzer.reports.contract import schema_of

    code, out, err = run(capsys, "play", *argv, "--format", "json")
    assert (code, err) == (0, "")
    document = json.loads(out)
    jsonschema.Draft202012Validator(schema_of("play")).validate(document)
    return document


def test_a_dragon_tiger_tie_loses_half_on_dragon_and_pays_the_tie(capsys) -> None:
    """The Wizard's Dragon Tiger: on a tie Dragon and Tiger lose half the stake, the Tie
    pays 8 to 1, the Suited Tie (5H against 5S) loses; the Dragon's 5 is Small."""
    document = _play_json(capsys, "5H", "5S", "--paytable", "dragon-tiger")
    nets = {row["bet"]: (row["result"], row["net_exact"]) for row in document["bets"]}
    assert nets == {
        "dragon": ("lose", "-1/2"),
        "tiger": ("lose", "-1/2"),
        "tie": ("win", "8/1"),
        "suited_tie": ("lose", "-1/1"),
        "dragon_big": ("lose", "-1/1"),
        "dragon_small": ("win", "1/1"),
        "tiger_big": ("lose", "-1/1"),
        "tiger_small": ("win", "1/1"),
    }
    assert {row["net"] for row in document["bets"] if row["bet"] == "dragon"} == {-0.5}
    assert document["round"] == {
        "hands": [
            {
                "name": "dragon",
                "label": "Dragon",
                "cards": ["5H"],
                "score": 5,
                "reason": None,
                "pictures": None,
            },
            {
                "name": "tiger",
                "label": "Tiger",
                "cards": ["5S"],
                "score": 5,
                "reason": None,
                "pictures": None,
            },
        ],
        "winner": "tie",
        "natural": None,
    }
    assert document["options"]["cards"] == ["5H", "5S"]
    code, out, err = run(capsys, "play", "5H", "5S", "--paytable", "dragon-tiger")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:3] == [
        "Dragon: 5H           score 5",
        "Tiger:  5S           score 5",
        "Winner: Tie",
    ]
    rows = {line.split("  ")[0]: line.split()[-2:] for line in lines[5:]}
    assert rows["Dragon"] == ["lose", "-0.5"] and rows["Tie"] == ["win", "+8"]


def test_a_dragon_tiger_round_by_rank_and_a_suited_tie(capsys) -> None:
    # The King (13) outranks the Queen: Tiger wins; a suited tie pays 50 to 1.
    document = _play_json(capsys, "QD", "KD", "--paytable", "dragon-tiger")
    nets = {row["bet"]: row["net_exact"] for row in document["bets"]}
    assert (nets["dragon"], nets["tiger"], nets["tie"]) == ("-1/1", "1/1", "-1/1")
    assert document["round"]["winner"] == "tiger"
    assert [hand["score"] for hand in document["round"]["hands"]] == [12, 13]
    suited = _play_json(capsys, "7C", "7C", "--paytable", "dragon-tiger-evolution")
    nets = {row["bet"]: row["net_exact"] for row in suited["bets"]}
    assert (nets["tie"], nets["suited_tie"], nets["dragon"]) == ("11/1", "50/1", "-1/2")
    code, out, _ = run(capsys, "play", "QD", "KD", "--paytable", "dragon-tiger")
    assert code == 0 and "Winner: Tiger (13 to 12)" in out


def test_three_card_baccarat_rounds_with_three_pictures(capsys) -> None:
    """Three Card Baccarat deals the Player's three cards, then the Dealer's. Three
    pictures (0 points) beat the Dealer's 9; three pictures for the Dealer win Three
    Faces; three pictures each tie (the Player pushes, the Tie pays 20 to 1)."""
    paytable = ("--paytable", "three-card-baccarat")
    document = _play_json(capsys, "KS", "QH", "JD", "9C", "5H", "5D", *paytable)
    nets = {row["bet"]: row["net_exact"] for row in document["bets"]}
    assert (nets["player"], nets["dealer"], nets["tie"]) == ("19/20", "-1/1", "-1/1")
    assert (nets["three_faces"], nets["dealer_total_9"], nets["dealer_total_0"]) == (
        "-1/1",
        "8/1",
        "-1/1",
    )
    player, dealer = document["round"]["hands"]
    assert (player["name"], player["label"], dealer["name"], dealer["label"]) == (
        "player",
        "Player",
        "dealer",
        "Dealer",
    )
    assert (player["cards"], dealer["cards"]) == (["KS", "QH", "JD"], ["9C", "5H", "5D"])
    assert (player["score"], dealer["score"]) == (0, 9)
    assert (player["pictures"], dealer["pictures"]) == (3, 0)
    assert document["round"]["winner"] == "player" and document["round"]["natural"] is None
    dealer = _play_json(capsys, "9C", "5H", "5D", "KS", "QH", "JD", *paytable)
    nets = {row["bet"]: row["net_exact"] for row in dealer["bets"]}
    assert (nets["dealer"], nets["three_faces"], nets["dealer_total_0"]) == ("19/20", "16/1", "8/1")
    both = _play_json(capsys, "KS", "QH", "JD", "KC", "QD", "JS", *paytable)
    nets = {row["bet"]: (row["result"], row["net_exact"]) for row in both["bets"]}
    assert nets["player"] == ("push", "0/1") and nets["tie"] == ("win", "20/1")
    assert nets["three_faces"] == ("win", "16/1")
    code, out, _ = run(capsys, "play", "KS", "QH", "JD", "9C", "5H", "5D", *paytable)
    assert code == 0
    assert out.splitlines()[:3] == [
        "Player: KS QH JD     score 0, 3 picture cards",
        "Dealer: 9C 5H 5D     score 9, 0 picture cards",
        "Winner: Player (on picture cards)",
    ]


def test_a_game_without_bets_on_suits_takes_cards_without_suits(capsys) -> None:
    document = _play_json(capsys, "5", "K", "2", "3", "4", "6", "--paytable", "three-card-baccarat")
    player, dealer = document["round"]["hands"]
    assert (player["cards"], dealer["cards"]) == (["5", "K", "2"], ["3", "4", "6"])
    assert (player["score"], dealer["score"]) == (7, 3)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["5H", "KS", "3C", "--paytable", "dragon-tiger"], "Dragon Tiger deals 2 cards a round"),
        (["5H", "--paytable", "dragon-tiger"], "Dragon Tiger deals 2 cards a round"),
        (
            ["KS", "QH", "JD", "9C", "5H", "--paytable", "three-card-baccarat"],
            "Three Card Baccarat deals 6 cards a round (3 to the Player, 3 to the Dealer), in "
            "this order: Player Player Player Dealer Dealer Dealer; got 5",
        ),
        (["5", "KS", "--paytable", "dragon-tiger"], "card 5 has no suit, and bet 'suited_tie'"),
        (["5H", "KS", "--paytable", "dragon-tiger", "--special", "5H=2"], "--special: Dragon"),
        (
            ["5H", "5H", "2S", "3S", "4S", "6S", "--paytable", "three-card-baccarat"],
            "of 1 deck(s) (three-card-baccarat)",
        ),
    ],
)
def test_a_games_wrong_round_is_one_line_and_writes_nothing(
    capsys, tmp_path, monkeypatch, argv, message
) -> None:
    monkeypatch.chdir(tmp_path)
    for fmt in ("text", "json"):
        code, out, err = run(capsys, "play", *argv, "--format", fmt)
        assert (code, out) == (2, ""), argv
        assert message in err and len(err.splitlines()) == 1, err
    assert list(tmp_path.iterdir()) == []


def test_a_games_round_loads_none_of_the_heavy_libraries() -> None:
    """A game's round is settled on its own fields without the deal walk (Numba) or
    pandas, as punto banco's is."""
    import subprocess
    import sys

    code = (
        "import contextlib, io, sys\n"
        "from analyzer.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    status = main(['play', 'KS', 'QH', 'JD', '9C', '5H', '5D',\n"
        "                   '--paytable', 'three-card-baccarat'])\n"
        "assert status == 0 and 'Winner: Player' in out.getvalue()\n"
        "heavy = ('pandas', 'numba', 'sympy', 'matplotlib', 'analyzer.engine.deal_walk')\n"
        "print(sorted(h for h in heavy if h in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# -- The round's JSON (the play contract, version 4): hands in a list, the same for every game


def _names_labels(document: dict) -> list[tuple[str, str]]:
    return [(hand["name"], hand["label"]) for hand in document["round"]["hands"]]


def test_a_natural_and_a_draw_give_punto_bancos_hands(capsys) -> None:
    """Punto banco's round: the Player's hand then the Banker's, each with why it drew or
    stood; ``natural`` is the round's (either hand's first two cards), no picture count;
    the options name the drawing rules and no game."""
    natural = _play_json(capsys, "9S", "8H", "KD", "QC")
    assert natural["schema"] == {"name": "baccarat-odds/play", "version": 5}
    assert _names_labels(natural) == [("player", "Player"), ("banker", "Banker")]
    player, banker = natural["round"]["hands"]
    assert (player["cards"], banker["cards"]) == (["9S", "KD"], ["8H", "QC"])
    assert (player["score"], banker["score"]) == (9, 8)
    # Both hands stood on the natural: each says so.
    assert player["reason"] == banker["reason"] == "natural (Player 9 and Banker 8): no one draws"
    assert (player["pictures"], banker["pictures"]) == (None, None)
    assert (natural["round"]["winner"], natural["round"]["natural"]) == ("player", True)
    options = natural["options"]
    assert (options["game"], options["drawing_rules"]) == (None, "standard")
    assert list(options)[3:5] == ["game", "drawing_rules"]
    drawn = _play_json(capsys, "2S", "3H", "2D", "KC", "8H")
    player, banker = drawn["round"]["hands"]
    assert player == {
        "name": "player",
        "label": "Player",
        "cards": ["2S", "2D", "8H"],
        "score": 2,
        "reason": "Player has 4 (0-5): draws 8H",
        "pictures": None,
    }
    assert banker["reason"] == "Banker has 3 and Player's third card is worth 8: stands"
    assert (drawn["round"]["winner"], drawn["round"]["natural"]) == ("banker", False)
    assert set(drawn["round"]) == {"hands", "winner", "natural"}  # no player_*/banker_* keys


def test_another_games_hands_are_its_own_in_its_order(capsys, tmp_path) -> None:
    """Dragon Tiger and Three Card Baccarat name their hands as their games do; a game of a
    [game] table lists its hands in the table's order, labelled as it says; no drawing
    rules, no natural, no reasons."""
    tie = _play_json(capsys, "5H", "5S", "--paytable", "dragon-tiger")
    assert _names_labels(tie) == [("dragon", "Dragon"), ("tiger", "Tiger")]
    assert (tie["options"]["game"], tie["options"]["drawing_rules"]) == ("Dragon Tiger", None)
    three = _play_json(
        capsys, "KS", "QH", "JD", "KC", "QD", "JS", "--paytable", "three-card-baccarat"
    )
    assert _names_labels(three) == [("player", "Player"), ("dealer", "Dealer")]
    assert three["options"]["game"] == "Three Card Baccarat"
    assert [hand["pictures"] for hand in three["round"]["hands"]] == [3, 3]
    assert three["round"]["winner"] == "tie"
    paytable = write_paytable(
        tmp_path,
        'name = "Tiger first"\n'
        "[game]\n"
        'name = "Tiger Dragon"\n'
        'hands = [{ name = "tiger", cards = 1, label = "The Tiger" },\n'
        '         { name = "dragon", cards = 1 }]\n'
        'score = "rank"\n'
        'tie = "draw"\n'
        '[[bet]]\nid = "tiger"\nrule = [{ when = "winner == \'tiger\'", pays = "1:1" }]\n',
    )
    mine = _play_json(capsys, "KD", "QC", "--paytable", str(paytable))
    assert _names_labels(mine) == [("tiger", "The Tiger"), ("dragon", "Dragon")]
    assert [hand["cards"] for hand in mine["round"]["hands"]] == [["KD"], ["QC"]]
    assert (mine["round"]["winner"], mine["options"]["game"]) == ("tiger", "Tiger Dragon")
    assert all(h["reason"] is None and h["pictures"] is None for h in mine["round"]["hands"])
    draw = _play_json(capsys, "KD", "KC", "--paytable", str(paytable))
    assert draw["round"]["winner"] == "draw"


def test_a_broken_play_document_fails_its_schema(capsys) -> None:
    """Version 2's keys, a hand of another shape, punto banco's hands out of order or
    without their reasons, another game's with punto banco's natural or drawing rules:
    each fails the play schema."""
    import copy

    import jsonschema

    from analyzer.reports.contract import schema_of

    validator = jsonschema.Draft202012Validator(schema_of("play"))
    punto = _play_json(capsys, "2S", "3H", "2D", "KC", "8H")
    dragon = _play_json(capsys, "5H", "5S", "--paytable", "dragon-tiger")

    def broken(document: dict, change) -> dict:
        document = copy.deepcopy(document)
        change(document)
        return document

    def old_keys(d: dict) -> None:
        d["round"] = {
            "player_cards": ["2S", "2D", "8H"],
            "banker_cards": ["3H", "KC"],
            "player_score": 2,
            "banker_score": 3,
            "winner": "banker",
            "natural": False,
            "player_reason": "",
            "banker_reason": "",
        }

    def hand(d: dict, i: int = 0) -> dict:
        return d["round"]["hands"][i]

    wrong = [
        broken(punto, old_keys),
        broken(punto, lambda d: d["round"].update(player_cards=["2S"])),
        broken(punto, lambda d: d["schema"].update(version=2)),
        broken(punto, lambda d: d["round"].pop("natural")),
        broken(punto, lambda d: hand(d).pop("label")),
        broken(punto, lambda d: hand(d).update(hand="player")),
        broken(punto, lambda d: hand(d).update(cards=["11H"])),
        broken(punto, lambda d: hand(d).update(cards=[])),
        broken(punto, lambda d: hand(d).update(score=15)),
        broken(punto, lambda d: d["round"]["hands"].pop()),
        broken(punto, lambda d: d["round"]["hands"].reverse()),
        broken(punto, lambda d: d["round"]["hands"].append(hand(d))),
        broken(punto, lambda d: hand(d).update(reason=None)),
        broken(punto, lambda d: hand(d, 1).update(pictures=0)),
        broken(punto, lambda d: d["round"].update(natural=None)),
        broken(punto, lambda d: d["round"].update(winner="dragon")),
        broken(punto, lambda d: d["options"].update(drawing_rules=None)),
        broken(punto, lambda d: d["options"].pop("game")),
        broken(dragon, lambda d: d["round"].update(natural=False)),
        broken(dragon, lambda d: hand(d).update(reason="")),
        broken(dragon, lambda d: hand(d).update(pictures=4)),
        broken(dragon, lambda d: d["options"].update(drawing_rules="standard")),
        broken(dragon, lambda d: d["options"].update(game="")),
        broken(dragon, lambda d: d["round"].update(winner="Dragon")),
    ]
    assert validator.is_valid(punto) and validator.is_valid(dragon)
    for number, document in enumerate(wrong):
        assert not validator.is_valid(document), number
