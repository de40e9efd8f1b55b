"""Paytables as data: what a paytable file must hold, and every bad one refused."""

from __future__ import annotations

import re
from fractions import Fraction as F

import pytest
from helpers import HEAD, write_paytable

from analyzer import AnalyzerError
from analyzer.cli.main import main
from analyzer.game.rules import parse_strategy
from analyzer.paytables.library import load_paytable
from analyzer.paytables.model import in_language, parse_payout, paytable_from_dict, restricted


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
            '[[bet]]\nid = "x"\naliases = "P. Pair"\n'
            '[[bet.rule]]\nwhen = "natural"\npays = "1:1"\n',
            "bet 'x': 'aliases' must be a list of",
        ),
        (
            '[[bet]]\nid = "x"\naliases = ["a\\nb"]\n'
            '[[bet.rule]]\nwhen = "natural"\npays = "1:1"\n',
            "bet 'x': 'aliases' must be one line",
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
    path = write_paytable(tmp_path, HEAD + body)
    with pytest.raises(AnalyzerError, match="^" + str(path).replace(".", r"\.")):
        load_paytable(path)
    code = main(["report", "--paytable", str(path)])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.count("\n") == 1 and message in captured.err
    assert not (tmp_path / "PWNED").exists()


# -- Payouts and the paytable model, through the API ----------------------------------------


@pytest.mark.parametrize(
    ("value", "net", "text", "kind"),
    [
        ("0.95:1", F(19, 20), "0.95:1", "win"),
        (" 3 : 2 ", F(3, 2), "3 : 2", "win"),
        ("25:1", F(25), "25:1", "win"),
        (8, F(8), "8:1", "win"),
        (1.5, F(3, 2), "1.5:1", "win"),
        ("1000000000:1", F(10**9), "1000000000:1", "win"),
        ("push", F(0), "push", "push"),
        ("LOSE", F(-1), "lose", "lose"),
    ],
)
def test_payouts(value, net, text, kind) -> None:
    payout = parse_payout(value)
    assert (payout.net, payout.text, payout.kind) == (net, text, kind)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (True, "bad payout True"),
        ("0:1", "a win must pay more than 0"),
        (0, "a win must pay more than 0"),
        ("1:0", "division by zero"),
        (float("inf"), "not a finite number"),
        (10**9 + 1, "at most 1,000,000,000:1"),
        ("1000000001:1", "at most 1,000,000,000:1"),
        ("9" * 41, "longer than 40 characters"),
        ("1:1:1", "bad payout '1:1:1'"),
        ([1, 2], "bad payout"),
    ],
)
def test_bad_payouts(value, message) -> None:
    with pytest.raises(AnalyzerError, match=re.escape(message)):
        parse_payout(value)


DATA = {
    "name": "Two modes",
    "decks": 6,
    "modes": ["a", "b"],
    "bet": [
        {"id": "tie", "rule": [{"when": "winner == 'tie'", "pays": "8:1"}]},
        {
            "id": "pair",
            "name": "Pair",
            "names": {"tl": "Pares"},
            "max_round": 60,
            "modes": ["b"],
            "rule": [
                {"when": "player_suited_pair", "pays": "25:1"},
                {"when": "player_pair", "pays": 11},
            ],
        },
        {"id": "tie", "modes": [], "rule": [{"when": "winner == 'tie'", "pays": "9:1"}]},
    ],
}


def test_a_paytable_from_a_mapping() -> None:
    paytable = paytable_from_dict(DATA, "two.toml")
    assert (paytable.name, paytable.decks, paytable.modes, paytable.source) == (
        "Two modes",
        6,
        ("a", "b"),
        "two.toml",
    )
    assert paytable.bet_ids == ("tie", "pair")
    offered = [(bet.id, mode) for bet, mode in paytable.offered(("a", "b"))]
    assert offered == [("tie", "a"), ("tie", "b"), ("pair", "b")]
    pair = paytable.bet("pair", "b")
    assert pair.fields == {"player_suited_pair", "player_pair"}
    assert (pair.display_name("tl"), pair.display_name("ms"), pair.max_round) == (
        "Pares",
        "Pair",
        60,
    )
    assert paytable.bet("tie", "a").display_name() == "tie"
    with pytest.raises(AnalyzerError, match=r"^bet 'pair' is not offered in mode 'a'$"):
        paytable.bet("pair", "a")
    with pytest.raises(AnalyzerError, match=r"^unknown bet 'x'"):
        paytable.check_bet_ids(("tie", "x"))
    with pytest.raises(AnalyzerError, match=r"^unknown mode 'c'"):
        paytable.check_modes(("c",))


def test_restricted_and_fingerprint() -> None:
    paytable = paytable_from_dict(DATA)
    one = restricted(paytable, [("pair", "b")])
    assert one.modes == ("b",) and [bet.id for bet in one.bets] == ["pair"]
    assert one.fingerprint["bets"] == [
        {
            "id": "pair",
            "max_round": 60,
            "modes": ["b"],
            "rules": [["player_suited_pair", "25"], ["player_pair", "11"]],
        }
    ]
    # The same rules and payouts settle alike, whatever the bet is called.
    renamed = paytable_from_dict({**DATA, "bet": [{**DATA["bet"][0], "id": "draw"}]})
    assert renamed.bets[0].settlement == paytable.bets[0].settlement
    assert paytable.bets[0].settlement != paytable.bets[2].settlement


def test_help_page_words_of_bets_and_rules() -> None:
    paytable = paytable_from_dict(
        {
            "name": "Words",
            "modes": ["m"],
            "bet": [
                {
                    "id": "pair",
                    "description": "A pair",
                    "descriptions": {"tl": "Isang pares"},
                    "note": "Paid once",
                    "notes": {"ms": "Dibayar sekali"},
                    "rule": [
                        {
                            "when": "player_pair",
                            "pays": 11,
                            "label": "Player pair",
                            "labels": {"tl": "Pares ng Player"},
                        },
                        {"when": "banker_pair", "pays": 11},
                    ],
                }
            ],
        }
    )
    bet = paytable.bets[0]
    assert in_language(bet.descriptions, "tl") == "Isang pares"
    assert in_language(bet.descriptions, "ms") == "A pair"  # English when not translated
    assert in_language(bet.notes, "ms") == "Dibayar sekali"
    assert in_language(bet.notes, "en") == "Paid once"
    assert [in_language(rule.labels, "tl") for rule in bet.rules] == ["Pares ng Player", None]
    # Words never change what a bet pays: the same fingerprint as without them.
    bare = paytable_from_dict(
        {
            "name": "Words",
            "modes": ["m"],
            "bet": [
                {
                    "id": "pair",
                    "rule": [
                        {"when": "player_pair", "pays": 11},
                        {"when": "banker_pair", "pays": 11},
                    ],
                }
            ],
        }
    )
    assert paytable.fingerprint == bare.fingerprint


@pytest.mark.parametrize(
    ("bet", "message"),
    [
        ({"description": 5}, "'description' must be text"),
        ({"descriptions": "x"}, "'descriptions' must be a table"),
        ({"descriptions": {"tl": 5}}, "'descriptions' must map languages to text"),
        ({"note": "a\nb"}, "'note' must be one line"),
        ({"notes": {"ms": " "}}, "'notes.ms' is empty"),
        ({"description": "x" * 501}, "'description' is longer than 500 characters"),
        ({"rule": [{"when": "natural", "pays": 1, "label": ["x"]}]}, "'label' must be text"),
        ({"rule": [{"when": "natural", "pays": 1, "labels": {"tl": 1}}]}, "must map languages"),
        ({"rule": [{"when": "natural", "pays": 1, "lable": "x"}]}, "unknown key 'lable'"),
        ({"names": {"xx": "x"}}, "'names' has the unknown language 'xx' (languages: tl, ms"),
        ({"notes": {"EN": "x"}}, "'notes' has the unknown language 'EN'"),
        ({"descriptions": {"en": "x"}}, "English is 'description'"),
        ({"description": "\u200b\u200b"}, "'description' is empty"),
    ],
)
def test_bad_help_page_words(bet, message) -> None:
    data = {"id": "x", "rule": [{"when": "natural", "pays": 1}]} | bet
    with pytest.raises(AnalyzerError, match=re.escape(message)):
        paytable_from_dict({"name": "t", "modes": ["m"], "bet": [data]})


# -- Drawing rules and strategy --------------------------------------------------------------

_ONE_BET = [{"id": "player", "rule": [{"when": "winner == 'player'", "pays": 1}]}]


def test_rules_are_named_or_a_table_and_part_of_the_identity() -> None:
    standard = paytable_from_dict({"name": "t", "bet": _ONE_BET})
    named = paytable_from_dict({"name": "t", "bet": _ONE_BET, "rules": "bahamian"})
    table = paytable_from_dict(
        {"name": "t", "bet": _ONE_BET, "rules": {"banker_draws_when_player_stands": "0-4"}}
    )
    # A standard paytable keeps the fingerprint it always had: no key for its rules.
    assert "drawing_rules" not in standard.fingerprint and standard.rules.is_standard
    fingerprints = [repr(p.fingerprint) for p in (standard, named, table)]
    assert len(set(fingerprints)) == 3
    assert named.rules.name == "bahamian" and table.rules.name == "custom"
    strategy = paytable_from_dict(
        {"name": "t", "bet": _ONE_BET, "rules": "baccarat-gold", "strategy": {"player:5": "1/4"}}
    )
    other = strategy.with_strategy(parse_strategy("player:5=1/3"))
    assert strategy.fingerprint["strategy"] == [["player:5", "1/4"]]
    assert other.fingerprint != strategy.fingerprint
    assert str(other.strategy) == "player:5=1/3"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"rules": "french"}, "unknown rule set 'french'"),
        ({"rules": 3}, "'rules' must be a rule set's name or a [rules] table"),
        ({"rules": {"player_draws": "0-12"}}, "[rules]: 'player_draws': '0-12' is outside 0-9"),
        ({"rules": "baccarat-gold", "strategy": {"player:4": "draw"}}, "not a decision cell"),
        ({"rules": "baccarat-gold", "strategy": {"player:5": "1.5"}}, "outside [0, 1]"),
        ({"rules": "baccarat-gold", "strategy": 7}, "must be text"),
    ],
)
def test_bad_rules_or_strategy_name_the_paytable(extra, message) -> None:
    with pytest.raises(AnalyzerError, match=re.escape(message)) as caught:
        paytable_from_dict({"name": "t", "bet": _ONE_BET} | extra, "p.toml")
    assert str(caught.value).startswith("p.toml: ")


def test_a_paytable_on_the_infinite_deck() -> None:
    paytable = paytable_from_dict({"name": "t", "decks": "inf", "bet": _ONE_BET})
    assert paytable.decks == "inf"
    with pytest.raises(AnalyzerError, match='whole number or "inf"'):
        paytable_from_dict({"name": "t", "decks": "many", "bet": _ONE_BET})


# -- Alternative pay tables: [[alternative]] ---------------------------------------------------


def _bets(count: int, alternatives: object = None) -> dict:
    """A paytable's table of ``count`` bets, ``a``, ``b``, ..., with ``alternatives``."""
    import tomllib

    body = "".join(
        f'[[bet]]\nid = "{chr(97 + i)}"\n[[bet.rule]]\nwhen = "natural"\npays = "{i + 1}:1"\n'
        for i in range(count)
    )
    data = tomllib.loads(HEAD + body)
    if alternatives is not None:
        data["alternative"] = alternatives
    return data


def test_alternatives_are_games_of_their_own() -> None:
    table = paytable_from_dict(
        _bets(2, [{"name": "A table", "bets": ["a"]}, {"name": "B", "bets": ["b"]}])
    )
    assert table.alternatives == (("A table", ("a",)), ("B", ("b",)))
    games = table.games()
    assert [(game.name, game.bet_ids, game.alternatives) for game in games] == [
        ("A table", ("a",), ()),
        ("B", ("b",), ()),
    ]
    # The figures are the file's: the alternatives are not part of its identity.
    plain = paytable_from_dict(_bets(2))
    assert plain.games() == [plain] and plain.alternatives == ()
    assert table.fingerprint == plain.fingerprint


@pytest.mark.parametrize(
    ("alternatives", "words"),
    [
        ([{"name": "A", "bets": ["a", "b"]}], "at least two [[alternative]] tables"),
        ({"name": "A"}, "at least two [[alternative]] tables"),
        ([{"name": "A", "bets": ["a"]}, {"name": "B", "bets": ["c"]}], "no bet 'c'"),
        ([{"name": "A", "bets": ["a"]}, {"name": "B", "bets": []}], "'bets' is empty"),
        (
            [{"name": "A", "bets": ["a", "b"]}, {"name": "B", "bets": ["b"]}],
            "alternative 2: bet 'b' is already in alternative 'A'",
        ),
        ([{"name": "A", "bets": ["a"]}, {"name": "A", "bets": ["b"]}], "the same name"),
        ([{"name": "A", "bets": ["a"]}, {"name": "B", "bets": ["a"]}], "'a' is already in"),
        ([{"name": "A", "bets": ["a"]}, {"name": "", "bets": ["b"]}], "'name' is empty"),
        ([{"name": "A", "bets": ["a"]}, {"bets": ["b"]}], "missing 'name'"),
        ([{"name": "A", "bets": ["a"]}, {"name": "B", "bets": "b"}], "'bets' has the wrong"),
        ([{"name": "A", "bets": ["a"]}, {"name": "B", "bets": ["b"], "x": 1}], "unknown key"),
        ([{"name": "A", "bets": ["a"]}, "B"], "alternative 2: it must be a table"),
    ],
)
def test_bad_alternatives_are_refused(alternatives, words) -> None:
    with pytest.raises(AnalyzerError, match=re.escape(words)) as caught:
        paytable_from_dict(_bets(2, alternatives))
    assert "\n" not in str(caught.value)


def test_every_bet_is_in_an_alternative() -> None:
    data = _bets(3, [{"name": "A", "bets": ["a"]}, {"name": "B", "bets": ["b"]}])
    with pytest.raises(AnalyzerError, match=re.escape("bet 'c' is in no [[alternative]]")):
        paytable_from_dict(data)
