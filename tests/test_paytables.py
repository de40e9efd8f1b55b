"""Paytables as data: the shipped library against independent settlement and published
figures, and bad paytable files."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import naive
import pytest

from analyzer import AnalyzerError, analyze
from analyzer.cli.main import main
from analyzer.paytables.claims import check_printed_value
from analyzer.paytables.library import library_names, load_paytable


def _parts(key):
    pp, bp, p, b, pt, bt = key
    return (
        pp,
        bp,
        p,
        b,
        2 + (pt is not None),
        2 + (bt is not None),
        pt is None and bt is None and max(p, b) >= 8,
    )


def _ez_banker(key):
    _, _, p, b, _, bc, _ = _parts(key)
    if b > p:
        return 0 if (b == 7 and bc == 3) else 1
    return 0 if b == p else -1


def _bonus(margins, side):
    def settle(key):
        _, _, p, b, _, _, natural = _parts(key)
        mine, theirs = (p, b) if side == "player" else (b, p)
        if natural:
            return 1 if mine > theirs else 0 if mine == theirs else -1
        return margins.get(mine - theirs, -1)

    return settle


STANDARD = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}
CYPRESS = {9: 30, 8: 10, 7: 4, 6: 4, 5: 2, 4: 2}

#: (paytable, bet, mode) -> net result per unit of an outcome key of tests/naive.py,
#: written from each file's source comment, not from the file.
INDEPENDENT = {
    ("tie-9-to-1", "tie", "commission"): lambda k: 9 if k[2] == k[3] else -1,
    ("tie-9-to-1", "player", "commission"): lambda k: naive.settle("player", "", k),
    ("tie-9-to-1", "banker", "commission"): lambda k: naive.settle("banker", "commission", k),
    ("banker-4-percent", "banker", "commission"): (
        lambda k: F(96, 100) if k[3] > k[2] else 0 if k[2] == k[3] else -1
    ),
    ("ez-baccarat", "banker", "ez"): _ez_banker,
    ("ez-baccarat", "player", "ez"): lambda k: naive.settle("player", "", k),
    ("ez-baccarat", "tie", "ez"): lambda k: naive.settle("tie", "", k),
    ("ez-baccarat", "dragon_7", "ez"): (
        lambda k: 40 if k[3] > k[2] and k[3] == 7 and k[5] is not None else -1
    ),
    ("ez-baccarat", "panda_8", "ez"): (
        lambda k: 25 if k[2] > k[3] and k[2] == 8 and k[4] is not None else -1
    ),
    ("dragon-bonus", "player_bonus", "standard"): _bonus(STANDARD, "player"),
    ("dragon-bonus", "banker_bonus", "standard"): _bonus(STANDARD, "banker"),
    ("dragon-bonus", "player_bonus_alt", "standard"): _bonus(CYPRESS, "player"),
    ("dragon-bonus", "banker_bonus_alt", "standard"): _bonus(CYPRESS, "banker"),
    ("big-small", "small", "standard"): lambda k: (
        F(3, 2) if _parts(k)[4] + _parts(k)[5] == 4 else -1
    ),
    ("big-small", "big", "standard"): lambda k: (
        F(54, 100) if _parts(k)[4] + _parts(k)[5] > 4 else -1
    ),
    ("perfect-pairs-both", "perfect_pairs", "standard"): (
        lambda k: 250 if k[0] == k[1] == 2 else 25 if 2 in (k[0], k[1]) else -1
    ),
    ("lucky-6-vegas", "lucky_six", "no_commission"): (
        lambda k: {2: 12, 3: 23}[_parts(k)[5]] if k[3] > k[2] and k[3] == 6 else -1
    ),
}
EGALITE_PAYS = {0: 150, 1: 215, 2: 225, 3: 200, 4: 120, 5: 110, 6: 45, 7: 45, 8: 80, 9: 80}
for _total, _pays in EGALITE_PAYS.items():
    INDEPENDENT[("egalite", f"egalite_{_total}", "standard")] = lambda k, t=_total, p=_pays: (
        p if k[2] == k[3] == t else -1
    )


def _expected(counts, settle) -> F:
    return sum(F(w) * settle(key) for key, w in counts.items()) / sum(counts.values())


def test_every_shipped_variant_bet_is_checked_independently() -> None:
    shipped = {
        (name, bet.id, mode)
        for name in library_names()
        if not name.startswith("seed-game")
        for bet, mode in load_paytable(name).offered(load_paytable(name).modes)
    }
    assert shipped == set(INDEPENDENT)


@pytest.mark.parametrize("name", sorted({k[0] for k in INDEPENDENT}))
def test_variants_match_independent_settlement(name, reference_8_decks) -> None:
    analysis = analyze(paytable=load_paytable(name))
    assert analysis.warnings() == []
    for result in analysis.results:
        settle = INDEPENDENT[(name, result.bet.id, result.mode)]
        assert result.expected_value == _expected(reference_8_decks, settle), result.bet.id


def _ways(name: str, bet: str, when_index: int = 0) -> int:
    return analyze(paytable=load_paytable(name), bets=[bet]).result(bet).lines[when_index].ways


def test_published_combinations() -> None:
    # Wizard of Odds, "EZ Baccarat": Banker win on a three-card 7 and Panda 8, 8 decks.
    assert _ways("ez-baccarat", "banker", 0) == 112_633_011_329_024
    assert _ways("ez-baccarat", "panda_8") == 172_660_763_262_976
    # Wizard of Odds, "Lucky 6": two- and three-card winning Banker 6.
    assert _ways("lucky-6-vegas", "lucky_six", 0) == 186_173_936_904_192
    assert _ways("lucky-6-vegas", "lucky_six", 1) == 83_058_367_551_488
    # Wizard of Odds, "Egalite Bets in Baccarat", individual bets.
    published = {
        9: 55_146_054_060_032,
        8: 54_879_416_675_072,
        7: 101_717_538_899_968,
        6: 96_170_001_308_416,
        5: 39_684_046_743_808,
        4: 36_294_133_463_040,
        3: 22_250_510_129_408,
        2: 20_006_606_104_576,
        1: 20_499_217_668_352,
        0: 28_979_901_420_544,
    }
    for total, ways in published.items():
        assert _ways("egalite", f"egalite_{total}") == ways
    # Wizard of Odds, "Baccarat Side Bets", Dragon Bonus Player: win by 9 and natural win.
    assert _ways("dragon-bonus", "player_bonus", 2) == 18_409_431_764_992
    assert _ways("dragon-bonus", "player_bonus", 0) == 812_685_054_124_032


@pytest.mark.parametrize(
    ("name", "bet", "published"),
    [
        ("tie-9-to-1", "tie", "4.84%"),  # Wizard of Odds, "Baccarat"
        ("ez-baccarat", "banker", "1.02%"),  # Wizard of Odds, "EZ Baccarat"
        ("ez-baccarat", "dragon_7", "7.61%"),
        ("ez-baccarat", "panda_8", "10.19%"),
        ("lucky-6-vegas", "lucky_six", "11.70%"),  # Wizard of Odds, "Lucky 6"
        ("perfect-pairs-both", "perfect_pairs", "6.62%"),  # Wizard, "Perfect Pairs (Version 2)"
        ("big-small", "big", "4.35%"),  # playbaccarat.com / Playtech
        ("egalite", "egalite_7", "6.39%"),  # Wizard of Odds, "Egalite"
    ],
)
def test_published_house_edges(name, bet, published) -> None:
    edge = analyze(paytable=load_paytable(name), bets=[bet]).result(bet).house_edge
    assert check_printed_value(edge, published).passed, float(100 * edge)


def test_small_probability_matches_wizard_4_5_6() -> None:
    # Wizard of Odds, "Baccarat Side Bets", 4-5-6, 8 decks: P(4 cards) = 0.378868.
    line = analyze(paytable=load_paytable("big-small"), bets=["small"]).result("small").lines[0]
    assert check_printed_value(line.probability, "0.378868").passed


def test_seed_game_comes_from_the_file() -> None:
    paytable = load_paytable("seed-game")
    assert paytable.source == "seed-game"
    assert len(paytable.bet_ids) == 18 and len(paytable.bets) == 19
    malay = load_paytable("seed-game-ms")
    assert "lucky_seven" not in malay.bet_ids
    assert malay.bet("player_bonus", "commission").max_round is None


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


HEAD = 'name = "t"\ndecks = 8\nmodes = ["m"]\n'


def test_joint_pair_and_result_bet_from_a_file(tmp_path, reference_8_decks) -> None:
    path = write(
        tmp_path,
        HEAD
        + """
[[bet]]
id = "pair_and_win"
name = "Player pair and Player wins"
[[bet.rule]]
when = "player_pair and winner == 'player' and not player_suited_pair"
pays = "30:1"
[[bet.rule]]
when = "player_suited_pair and winner == 'player'"
pays = "100:1"
""",
    )
    result = analyze(paytable=load_paytable(path)).result("pair_and_win")

    def settle(k):
        if k[2] > k[3] and k[0] == 1:
            return 30
        return 100 if k[2] > k[3] and k[0] == 2 else -1

    assert result.expected_value == _expected(reference_8_decks, settle)


def test_third_card_fields(tmp_path, reference_8_decks) -> None:
    path = write(
        tmp_path,
        HEAD
        + """
[[bet]]
id = "three_giving_eight"
[[bet.rule]]
when = "player_third == 8 and banker_third == -1 and banker_score == 3"
pays = "200:1"
""",
    )
    result = analyze(paytable=load_paytable(path)).result("three_giving_eight")
    expected = _expected(
        reference_8_decks, lambda k: 200 if k[4] == 8 and k[5] is None and k[3] == 3 else -1
    )
    assert result.expected_value == expected


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '[[bet]]\nid = "x"\n[[bet.rule]]\nwhen = "playr_score == 1"\npays = "1:1"\n',
            "bet 'x': rule 1: unknown field 'playr_score'",
        ),
        (
            '[[bet]]\nid = "x"\n[[bet.rule]]\nwhen = "player_score == "\npays = "1:1"\n',
            "bet 'x': rule 1: syntax error",
        ),
        (
            '[[bet]]\nid = "x"\n[[bet.rule]]\nwhen = "natural"\npays = "1;1"\n',
            "bet 'x': rule 1: bad payout '1;1'",
        ),
        (
            '[[bet]]\nid = "x"\n[[bet.rule]]\nwhen = "natural"\npays = "0:1"\n',
            "bet 'x': rule 1: bad payout",
        ),
        (
            '[[bet]]\nid = "x"\n[[bet.rule]]\nwhen = "natural"\npays = "1:1"\n'
            '[[bet]]\nid = "x"\n[[bet.rule]]\nwhen = "natural"\npays = "2:1"\n',
            "bet 'x': duplicate id in mode 'm'",
        ),
        (
            '[[bet]]\nid = "x"\nmax_round = 0\n[[bet.rule]]\nwhen = "natural"\npays = "1:1"\n',
            "bet 'x': 'max_round' must be from 1 to 1,000,000",
        ),
        (
            '[[bet]]\nid = "x"\ncolour = "red"\n[[bet.rule]]\nwhen = "natural"\npays = "1:1"\n',
            "bet 'x': unknown key 'colour'",
        ),
        (
            "[[bet]]\nid = \"x\"\n[[bet.rule]]\nwhen = \"__import__('os').system('touch PWNED')\"\n"
            'pays = "1:1"\n',
            "bet 'x': rule 1: ",
        ),
        ('[[bet]]\nid = "x"\n[[bet.rule]]\nwhen = "natural"\n', "bet 'x': rule 1: missing 'pays'"),
        (
            '[[bet]]\nid = "x"\nmodes = ["z"]\n[[bet.rule]]\nwhen = "natural"\npays = "1:1"\n',
            "bet 'x': unknown mode 'z'",
        ),
        ("[[bet]\n", "invalid TOML"),
    ],
)
def test_bad_paytable_files(tmp_path, capsys, monkeypatch, body, message) -> None:
    monkeypatch.chdir(tmp_path)
    path = write(tmp_path, HEAD + body)
    with pytest.raises(AnalyzerError, match="^" + str(path).replace(".", r"\.")):
        load_paytable(path)
    code = main(["report", "--paytable", str(path)])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.count("\n") == 1 and message in captured.err
    assert not (tmp_path / "PWNED").exists()


def test_unknown_paytable_name(capsys) -> None:
    assert main(["report", "--paytable", "no-such-game"]) == 2
    assert "unknown paytable 'no-such-game'" in capsys.readouterr().err
    assert main(["report", "--paytable", "missing.toml"]) == 2
    assert "missing.toml: no such file" in capsys.readouterr().err


def test_unsatisfiable_rule_is_a_warning(tmp_path, capsys) -> None:
    path = write(
        tmp_path,
        HEAD
        + """
[[bet]]
id = "x"
[[bet.rule]]
when = "player_cards == 3 and player_natural"
pays = "5:1"
[[bet.rule]]
when = "winner == 'tie'"
pays = "8:1"
[[bet.rule]]
when = "winner == 'tie' and player_score == 0"
pays = "100:1"
""",
    )
    assert main(["report", "--paytable", str(path), "--format", "json"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2
    assert "rule 1 (player_cards == 3 and player_natural) settles no round: no round can" in err[0]
    assert "rule 3" in err[1] and "earlier rules settle every round it matches" in err[1]
