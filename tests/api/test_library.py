"""The shipped names the API lists, and the shoe its functions build from their arguments."""

from __future__ import annotations

import pytest

import analyzer
from analyzer import AnalyzerError, Card, Shoe, load_paytable
from analyzer.api.library import removed_cards, shoe_for
from analyzer.files import shipped_folder


def _shipped(kind: str) -> list[str]:
    folder = shipped_folder("analyzer.paytables", "shipped") / kind
    return sorted(
        e.name.removesuffix(".toml") for e in folder.iterdir() if e.name.endswith(".toml")
    )


def test_the_lists_are_the_shipped_files_sorted() -> None:
    assert analyzer.list_paytables() == _shipped("paytables")
    assert analyzer.list_claims() == _shipped("claims")
    rule_sets = shipped_folder("analyzer.game", "rule_sets")
    assert analyzer.list_rule_sets() == sorted(
        e.name.removesuffix(".toml") for e in rule_sets.iterdir() if e.name.endswith(".toml")
    )
    assert {"seed-game", "ez-baccarat"} <= set(analyzer.list_paytables())


def test_every_listed_name_loads() -> None:
    for name in analyzer.list_paytables():
        assert analyzer.as_paytable(name) == load_paytable(name)
    for name in analyzer.list_rule_sets():
        assert analyzer.named_rules(name).name == name


def test_the_shoe_is_the_command_lines(tmp_path) -> None:
    table = load_paytable("ez-baccarat")
    assert shoe_for(table).size == 8 * 52
    assert shoe_for(table, decks=1).size == 52
    less = shoe_for(table, decks=1, remove="AS 5")
    assert less.size == 50 and less.rank_counts[0] == 3
    assert shoe_for(table, decks=1, remove=["AS", "5"]).rank_counts.tolist() == (
        less.rank_counts.tolist()
    )
    assert shoe_for(table, decks=1, remove=[Card(0, 0)]).size == 51
    given = Shoe.standard(2)
    assert shoe_for(table, shoe=given) is given
    path = tmp_path / "shoe.csv"
    ranks = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
    path.write_text("rank,count\n" + "".join(f"{r},4\n" for r in ranks))
    assert shoe_for(table, shoe=path).size == 52
    assert shoe_for(table, shoe=str(path), remove="K").size == 51


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"decks": 1, "shoe": Shoe.standard(1)}, "give decks or shoe, not both"),
        ({"decks": 0}, "decks"),
        ({"shoe": 3}, "shoe must be a Shoe or a shoe file's path"),
        ({"shoe": "no-such.csv"}, "no-such.csv"),
        ({"remove": "ZZ"}, "ZZ"),
        ({"decks": 1, "remove": "AS AS AS AS AS"}, "AS"),
    ],
)
def test_a_bad_shoe_is_one_line(options, words) -> None:
    with pytest.raises(AnalyzerError, match=words) as caught:
        shoe_for(load_paytable("ez-baccarat"), **options)
    assert "\n" not in str(caught.value)


def test_removed_cards_take_text_names_or_cards() -> None:
    assert removed_cards(None) == [] and removed_cards("  ") == []
    assert [str(c) for c in removed_cards("5H, KS 9")] == ["5H", "KS", "9"]
    assert removed_cards(["5H"]) == removed_cards("5H") == [Card(4, 1)]
    with pytest.raises(AnalyzerError, match="card"):
        removed_cards([3])
