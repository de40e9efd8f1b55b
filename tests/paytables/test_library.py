"""The shipped library: every variant against independent settlement and published
figures, and paytables found by name."""

from __future__ import annotations

import importlib.resources
import tomllib
from fractions import Fraction as F

import naive
import pytest
from helpers import reference_ev

from analyzer import analyze
from analyzer.cli.main import main
from analyzer.paytables.library import library_names, load_paytable
from analyzer.paytables.printed import check_printed_value


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


def _jacobson(bet: str):
    """Jacobson's counted side bets, from his descriptions (key: pair states, totals,
    third-card values)."""

    def settle(key):
        _, _, p, b, pc, bc, _ = _parts(key)
        player_third = key[4]
        wins = {
            "big_tiger": b > p and b == 6 and bc == 3,
            "eights_and_nines": p in (8, 9) and b in (8, 9),
            "bad_beat": pc == bc == 2 and {p, b} == {8, 9},
            "three_giving_eight": bc == 2 and b == 3 and player_third == 8,
            "nine_over_seven": (pc == 2 and p == 9 and b == 7) or (bc == 2 and b == 9 and p == 7),
        }[bet]
        return (
            {"big_tiger": 50, "three_giving_eight": 200, "eights_and_nines": 20}.get(bet, 50)
            if wins
            else -1
        )

    return settle


for _bet in ("big_tiger", "eights_and_nines", "bad_beat", "three_giving_eight", "nine_over_seven"):
    INDEPENDENT[("jacobson-side-bets", _bet, "standard")] = _jacobson(_bet)

EGALITE_PAYS = {0: 150, 1: 215, 2: 225, 3: 200, 4: 120, 5: 110, 6: 45, 7: 45, 8: 80, 9: 80}

for _total, _pays in EGALITE_PAYS.items():
    INDEPENDENT[("egalite", f"egalite_{_total}", "standard")] = lambda k, t=_total, p=_pays: (
        p if k[2] == k[3] == t else -1
    )


#: Shipped paytables that play other drawing rules: checked against tests/naive.py driven
#: by their own rule set's file (below), not against the standard reference.
OTHER_RULES = {
    "baccarat-gold": {"player": "1:1", "banker": "19:20", "tie": "9:1"},
    "chemin-de-fer": {"player": "1:1", "banker": "19:20"},
}


def test_every_shipped_variant_bet_is_checked_independently() -> None:
    shipped = {
        (name, bet.id, mode)
        for name in library_names()
        if not name.startswith("seed-game")
        and name not in OTHER_RULES
        # Multiplier paytables: tests/paytables/test_multipliers.py, against their sources.
        and load_paytable(name).multipliers is None
        # Other games of the family: tests/engine/test_deal_walk.py deals them by hand.
        and load_paytable(name).game is None
        # A player's decision (Peek Baccarat): tests/analysis/test_peek.py, by hand.
        and load_paytable(name).decision is None
        for bet, mode in load_paytable(name).offered(load_paytable(name).modes)
        if not bet.card_level  # bets on the cards: tests/paytables/test_card_bets.py
    }
    assert shipped == set(INDEPENDENT)
    other = {name for name in library_names() if not load_paytable(name).rules.is_standard}
    assert other == set(OTHER_RULES)


def _shipped_toml(folder: str, name: str) -> dict:
    path = importlib.resources.files(folder) / f"{name}.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(OTHER_RULES))
def test_other_rules_match_the_reference_driven_by_their_files(name) -> None:
    """The paytable's file and its rule set's file read here with tomllib alone, the
    rounds dealt by tests/naive.py under them (mixed cells weighted as they are dealt)."""
    paytable_file = _shipped_toml("analyzer.paytables.shipped.paytables", name)
    rules_file = _shipped_toml("analyzer.game.rule_sets", paytable_file["rules"])
    choices = {
        cell: F(p) if "/" in p else int(p == "draw")
        for cell, p in paytable_file["strategy"].items()
    }
    decks = paytable_file["decks"]
    reference = naive.mixed_value_reference(
        [16 * decks] + [4 * decks] * 9, naive.RuleTable(rules_file, choices)
    )
    pays = {
        bet: F(a) / F(b)
        for bet, (a, b) in ((k, v.split(":")) for k, v in OTHER_RULES[name].items())
    }
    wins = {"player": lambda p, b: p > b, "banker": lambda p, b: b > p, "tie": lambda p, b: p == b}
    analysis = analyze(paytable=load_paytable(name))
    for result in analysis.results:
        bet = result.bet.id
        expected = F(0)
        for (p, b, _, _), chance in reference.items():
            if wins[bet](p, b):
                expected += chance * pays[bet]
            elif bet == "tie" or p != b:
                expected -= chance
        assert result.expected_value == expected, bet


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted({k[0] for k in INDEPENDENT}))
def test_variants_match_independent_settlement(name, reference_8_decks) -> None:
    analysis = analyze(paytable=load_paytable(name))
    assert analysis.warnings() == []
    for result in analysis.results:
        settle = INDEPENDENT[(name, result.bet.id, result.mode)]
        assert result.expected_value == reference_ev(reference_8_decks, settle), result.bet.id


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


def test_unknown_paytable_name(capsys) -> None:
    assert main(["report", "--paytable", "no-such-game"]) == 2
    assert "unknown paytable 'no-such-game'" in capsys.readouterr().err
    assert main(["report", "--paytable", "missing.toml"]) == 2
    assert "missing.toml: no such file" in capsys.readouterr().err


def test_as_paytable_takes_a_paytable_a_name_or_a_path(tmp_path):
    from analyzer.paytables.library import as_paytable

    table = load_paytable("ez-baccarat")
    assert as_paytable(table) is table
    assert as_paytable("ez-baccarat") == table
    path = tmp_path / "game.toml"
    path.write_bytes(
        importlib.resources.files("analyzer.paytables")
        .joinpath("shipped", "paytables", "ez-baccarat.toml")
        .read_bytes()
    )
    assert as_paytable(path).bets == table.bets
    assert as_paytable(str(path)).bets == table.bets


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("no-such-game", "unknown paytable 'no-such-game'"),
        ("missing.toml", "missing.toml: no such file"),
        (3, "paytable must be a Paytable"),
        (None, "paytable must be a Paytable"),
    ],
)
def test_as_paytable_refuses_with_one_line(spec, words):
    from analyzer.errors import AnalyzerError
    from analyzer.paytables.library import as_paytable

    with pytest.raises(AnalyzerError, match=words) as caught:
        as_paytable(spec)
    assert "\n" not in str(caught.value)
