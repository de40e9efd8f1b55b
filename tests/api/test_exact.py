"""The API's exact tasks give the command line's figures: effects of removal (``eor``),
verdicts (``verify``), the solved game (``solve``) and the help pages (``docs --site``)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from helpers import run

import analyzer
from analyzer import AnalyzerError, Shoe, load_paytable
from analyzer.api.exact import VERIFICATION_COLUMNS, game_rules
from analyzer.paytables.library import library_names
from analyzer.reports.formats import json_text
from analyzer.reports.outputs import solution_data


def _json(capsys, *argv: str) -> tuple[int, object]:
    code, out, err = run(capsys, *argv, "--format", "json")
    assert code in (0, 1), err
    return code, json.loads(out)


# -- removal_effects -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "argv"),
    [
        (
            {"decks": 1, "bets": ["tie", "dragon_7"]},
            ["--decks", "1", "--bet", "tie", "--bet", "dragon_7"],
        ),
        (
            {"decks": 2, "bets": ["banker"], "remove": "5H 9"},
            ["--decks", "2", "--bet", "banker", "--remove", "5H 9"],
        ),
    ],
)
def test_removal_effects_are_eors(capsys, options, argv) -> None:
    effects = analyzer.removal_effects("ez-baccarat", **options)
    _, data = _json(capsys, "eor", "--paytable", "ez-baccarat", *argv)
    rows = data["effects"]
    frame = effects.to_frame()
    assert len(frame) == len(rows)
    for row, cli in zip(frame.to_dict("records"), rows, strict=True):
        assert row["delta_ev_exact"] == Fraction(cli["delta_ev_exact"])
        for key in ("bet", "mode", "name", "rank", "tag", "delta_ev", "betting_correlation"):
            assert row[key] == cli[key], key
    assert all(isinstance(v, Fraction) for v in frame["delta_ev_exact"])


def test_removal_effects_in_every_mode_and_by_card(capsys) -> None:
    effects = analyzer.removal_effects(decks=1, bets=["player_pair"], by_card=True)
    _, data = _json(capsys, "eor", "--decks", "1", "--bet", "player_pair", "--by-card")
    rows = data["effects"]
    frame = effects.to_frame()
    assert set(frame["mode"]) == {"commission", "no_commission"}
    assert [(r["bet"], r["mode"], r["card"]) for r in rows] == list(
        zip(frame["bet"], frame["mode"], frame["card"], strict=True)
    )
    assert [Fraction(r["delta_ev_exact"]) for r in rows] == list(frame["delta_ev_exact"])
    wide = effects.to_frame(wide=True)
    assert wide.shape == (2, 52) and list(wide.index.names) == ["bet", "mode"]


def test_removal_effects_show_themselves_and_draw_without_pyplot() -> None:
    import matplotlib.figure

    effects = analyzer.removal_effects("ez-baccarat", decks=1, bets=["tie"])
    assert "EZ Baccarat" in repr(effects) and "1 bet" in repr(effects)
    assert "<table" in effects._repr_html_()
    wide = effects.to_frame(wide=True)
    assert list(wide.columns) == ["A", *map(str, range(2, 11)), "J", "Q", "K"]
    assert (
        wide.loc[("tie", "ez"), "9"]
        == effects.to_frame().set_index("rank").loc["9", "delta_ev_exact"]
    )
    counts = effects.counts_frame()
    assert counts.loc[("tie", "ez"), "K"] == effects.linear_counts[("tie", "ez")].tags["K"]
    figure = effects.plot()
    assert isinstance(figure, matplotlib.figure.Figure)
    assert "Tie" in [ax.get_title().split(" (")[0] for ax in figure.axes]
    with pytest.raises(AnalyzerError, match="unknown language 'xx'"):
        effects.plot("xx")


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: analyzer.removal_effects("no-such-game"), "unknown paytable 'no-such-game'"),
        (lambda: analyzer.removal_effects(3), "paytable must be a Paytable"),
        (lambda: analyzer.removal_effects(bets=["nope"]), "nope"),
        (lambda: analyzer.removal_effects(mode="nope"), "unknown mode 'nope'"),
        (lambda: analyzer.removal_effects(decks="inf"), "infinite deck has no effects"),
        (lambda: analyzer.removal_effects(bets="tie"), "bets must be a list of bet ids"),
    ],
)
def test_removal_effects_refuse_bad_input_in_one_line(call, words) -> None:
    with pytest.raises(AnalyzerError, match=words) as caught:
        call()
    assert "\n" not in str(caught.value)


# -- verify ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("claims", "options", "argv"),
    [
        ("seed-game", {}, []),
        ("ez-baccarat", {"decks": 6}, ["--decks", "6"]),
        ("seed-game", {"remove": "5H 5H KS"}, ["--remove", "5H 5H KS"]),
    ],
)
def test_verify_gives_verifys_verdicts(capsys, claims, options, argv) -> None:
    checked = analyzer.verify(claims, **options)
    code, data = _json(capsys, "verify", claims, *argv)
    rows = data["claims"]
    assert checked.results.to_dict("records") == rows
    frame = checked.to_frame()
    assert list(frame.columns) == list(VERIFICATION_COLUMNS) and frame.index.name == "number"
    assert list(frame["verdict"]) == [row["result"] for row in rows]
    assert list(frame["computed"]) == [row["computed"] for row in rows]
    assert checked.passed == (code == 0)
    assert len(checked.failures) == sum(row["result"] == "FAIL" for row in rows)


def test_verify_says_what_fails(tmp_path, capsys) -> None:
    # The seed game's claims against a paytable whose Tie pays 9:1, not 8:1.
    text = analyzer.files.shipped_folder("analyzer.paytables", "shipped")
    source = (text / "paytables" / "seed-game.toml").read_text(encoding="utf-8")
    assert source.count('"8:1"') >= 1
    variant = tmp_path / "variant.toml"
    variant.write_text(source.replace('"8:1"', '"9:1"', 1), encoding="utf-8")
    checked = analyzer.verify("seed-game", paytable=variant)
    assert not checked.passed
    failures = checked.failures
    assert len(failures) >= 1 and set(failures["verdict"]) == {"FAIL"}
    assert (failures["paytable"] == str(variant)).all()
    assert "failed" in repr(checked) and "<table" in checked._repr_html_()
    # The same claims as objects, against the paytable object.
    claims = analyzer.analysis.verify.load_claims("seed-game")
    again = analyzer.verify(claims, paytable=load_paytable(variant))
    assert list(again.to_frame()["verdict"]) == list(checked.to_frame()["verdict"])


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: analyzer.verify("no-such-claims"), "unknown claims 'no-such-claims'"),
        (lambda: analyzer.verify("missing.toml"), "missing.toml: no such file"),
        (lambda: analyzer.verify([1, 2]), "claims must be a list of Claim objects"),
        (lambda: analyzer.verify("seed-game", paytable="nope"), "unknown paytable 'nope'"),
        (lambda: analyzer.verify("seed-game", decks=1, shoe=Shoe.standard(1)), "not both"),
        (lambda: analyzer.verify("seed-game", remove="ZZ"), "ZZ"),
    ],
)
def test_verify_refuses_bad_input_in_one_line(call, words) -> None:
    with pytest.raises(AnalyzerError, match=words) as caught:
        call()
    assert "\n" not in str(caught.value)


# -- solve -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "decks", "argv"),
    [
        ("chemin-de-fer", "inf", ["--decks", "inf"]),
        ("bahamian", 6, ["--paytable", "bahamian", "--decks", "6"]),
        ("seed-game", None, ["--paytable", "seed-game"]),
    ],
)
def test_solve_is_solves(capsys, game, decks, argv) -> None:
    solution = analyzer.solve(game, decks=decks)
    _, data = _json(capsys, "solve", *argv)
    assert data["game"] == game_rules(game)[2]
    paytable = load_paytable(game) if game in library_names() else None  # else a rule set
    assert json.loads(json_text(solution_data(solution, data["game"], paytable))) == data
    frame = solution.to_frame()
    plays = {row["cell"]: row["play"] for row in data["cells"]}
    assert dict(zip(frame.index, frame["play"], strict=True)) == plays
    assert all(isinstance(p, Fraction) for p in frame["draw"])
    assert "<table" in solution._repr_html_() and "value to the Banker" in repr(solution)


def test_solve_takes_rules_a_paytable_or_a_shoe() -> None:
    rules = analyzer.named_rules("chemin-de-fer")
    by_rules = analyzer.solve(rules, decks=1)
    assert by_rules == analyzer.solve("chemin-de-fer", decks=1)
    assert analyzer.solve(load_paytable("chemin-de-fer"), decks=Shoe.standard(1)) == by_rules


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: analyzer.solve("no-such-game"), "unknown paytable or rule set 'no-such-game'"),
        (lambda: analyzer.solve(3), "must be a Paytable"),
        (lambda: analyzer.solve(decks=0), "decks"),
    ],
)
def test_solve_refuses_bad_input_in_one_line(call, words) -> None:
    with pytest.raises(AnalyzerError, match=words) as caught:
        call()
    assert "\n" not in str(caught.value)


# -- help_pages --------------------------------------------------------------------------------


def test_help_pages_are_docs_sites(tmp_path, capsys) -> None:
    cli = tmp_path / "cli"
    code, _, err = run(
        capsys, "docs", "--site", str(cli), "--paytable", "ez-baccarat", "--paytable", "egalite"
    )
    assert code == 0, err
    out = tmp_path / "api"
    written = analyzer.help_pages(["ez-baccarat", "egalite"], out)
    assert written == sorted(written) and all(path.is_file() for path in written)
    expected = sorted(p.relative_to(cli) for p in cli.rglob("*") if p.is_file())
    assert [p.relative_to(out) for p in written] == expected
    for relative in expected:
        assert (out / relative).read_bytes() == (cli / relative).read_bytes(), relative


def test_help_pages_of_a_paytable_object_and_a_file(tmp_path) -> None:
    table = load_paytable("ez-baccarat")
    written = analyzer.help_pages(table, tmp_path / "one")
    assert (tmp_path / "one" / "ez-baccarat" / "en.html") in written
    with pytest.raises(AnalyzerError, match=r"is not empty \(force=True replaces it\)"):
        analyzer.help_pages(table, tmp_path / "one")
    again = analyzer.help_pages(table, tmp_path / "one", force=True, decks=6)
    assert again == written
    page = (tmp_path / "one" / "ez-baccarat" / "en.html").read_text(encoding="utf-8")
    assert "uses 6 standard 52-card decks" in page and "uses 8 " not in page


@pytest.mark.parametrize(
    ("paytables", "words"),
    [
        ("no-such-game", "unknown paytable 'no-such-game'"),
        (["ez-baccarat", "ez-baccarat"], "ez-baccarat: given twice"),
        ([3], "paytable must be a Paytable"),
    ],
)
def test_help_pages_refuse_bad_input_in_one_line(tmp_path, paytables, words) -> None:
    with pytest.raises(AnalyzerError, match=words) as caught:
        analyzer.help_pages(paytables, tmp_path / "site")
    assert "\n" not in str(caught.value)
    assert not (tmp_path / "site").exists()


def test_help_pages_with_a_config_and_unknowns(tmp_path, capsys) -> None:
    """``config`` and ``unknowns`` make the pages ``--config`` and ``--unknowns`` make."""
    import html

    from analyzer.reports.site_config import SiteConfig

    config = tmp_path / "site.toml"
    config.write_text('operator = "Casino"\ndecimals = 4\nlanguages = ["en"]\n')
    names = ["prosperity-tree-baccarat", "super-tie"]
    cli = tmp_path / "cli"
    code, _, err = run(
        capsys,
        "docs",
        "--site",
        str(cli),
        *(f"--paytable={name}" for name in names),
        "--config",
        str(config),
        "--unknowns",
        "p=7/113",
    )
    assert code == 0, err
    out_dir = tmp_path / "api"
    written = analyzer.help_pages(names, out_dir, config=config, unknowns={"p": "7/113"})
    expected = sorted(p.relative_to(cli) for p in cli.rglob("*") if p.is_file())
    assert [p.relative_to(out_dir) for p in written] == expected
    for relative in expected:
        assert (out_dir / relative).read_bytes() == (cli / relative).read_bytes(), relative
    assert [p.as_posix() for p in expected] == [
        "index.html",
        "prosperity-tree-baccarat/en.html",
        "style.css",
        "super-tie-1/en.html",
        "super-tie-2/en.html",
    ]
    # A SiteConfig object too; without values the paytable is skipped and listed.
    again = analyzer.help_pages(names, tmp_path / "b", config=SiteConfig(decimals=1))
    assert not any("prosperity" in p.as_posix() for p in again)
    index = html.unescape((tmp_path / "b" / "index.html").read_text(encoding="utf-8"))
    assert (
        "prosperity-tree-baccarat: skipped: its multipliers' distribution has unknowns "
        "(give unknowns)" in index
    )
    with pytest.raises(AnalyzerError, match="unknowns: 'q' is not an unknown"):
        analyzer.help_pages(names, tmp_path / "c", unknowns={"q": 1})
    with pytest.raises(AnalyzerError, match="config must be"):
        analyzer.help_pages(names, tmp_path / "c", config=3)
