"""``eor``: effects of removal as JSON, and their chart."""

from __future__ import annotations

import io
import json
import sys
from fractions import Fraction

import pytest
from helpers import HEAD, run, write_paytable

from analyzer.reports.plots import MAX_CHART_BETS


def test_eor_cli_json_and_plot(tmp_path, capsys) -> None:
    plot = tmp_path / "eor.png"
    code, out, _ = run(
        capsys,
        "eor",
        "--decks",
        "1",
        "--bet",
        "tie",
        "--mode",
        "commission",
        "--format",
        "json",
        "--plot",
        str(plot),
    )
    assert code == 0
    rows = json.loads(out)["effects"]
    assert [r["rank"] for r in rows] == [
        "A",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "10",
        "J",
        "Q",
        "K",
    ]
    assert all({"bet", "rank", "delta_ev", "delta_ev_exact", "tag"} <= set(r) for r in rows)
    assert all(abs(float(Fraction(r["delta_ev_exact"])) - r["delta_ev"]) < 1e-15 for r in rows)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("fmt", ["text", "csv", "markdown"])
def test_eor_of_bets_that_do_not_ask_for_suits_in_two_modes(capsys, fmt) -> None:
    """No bet asks for suits, so there is nothing by card: each bet is still shown once
    (the Tie is the same in both modes, the Banker is not)."""
    code, out, err = run(capsys, "eor", "--bet", "tie", "--bet", "banker", "--format", fmt)
    assert code == 0 and err == ""
    if fmt == "csv":  # for tools: ids, and the name beside them, every (bet, mode) as JSON
        assert "tie,Tie,commission" in out and "tie,Tie,no_commission" in out
        assert out.count("banker,Banker,") >= 2 and ",all," not in out
    else:  # for people: names
        assert "Tie (All modes)" in out
        assert "Banker (Baccarat (commission))" in out and "Banker (No Commission" in out


def test_mode_all_is_every_mode_as_both_is(capsys) -> None:
    outputs = {mode: run(capsys, "eor", "--bet", "tie", "--mode", mode) for mode in ("all", "both")}
    assert outputs["all"] == outputs["both"] and outputs["all"][0] == 0
    assert "Tie (All modes)" in outputs["all"][1]  # one row: the same in every mode


def test_eor_names_the_bets_in_its_tables_and_plot_titles(tmp_path, capsys, monkeypatch) -> None:
    """People read the bets' names, in the tables and on the chart's panels; JSON keeps
    the ids and gives each row its name."""
    import analyzer.reports.plots as plots  # eor imports it when it runs

    drawn = []
    monkeypatch.setattr(plots, "save_png", lambda fig, path, held: drawn.append(fig))
    argv = ["eor", "--bet", "lucky_six", "--bet", "banker", "--plot", str(tmp_path / "e.png")]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    (fig,) = drawn
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert titles == [
        "Banker (Baccarat (commission))",
        "Banker (No Commission Baccarat)",
        "Lucky Six (All modes)",
    ]
    assert "Lucky Six (All modes)" in out and "lucky_six" not in out
    code, out, _ = run(capsys, "eor", "--bet", "lucky_six", "--format", "json")
    assert {(row["bet"], row["name"]) for row in json.loads(out)["effects"]} == {
        ("lucky_six", "Lucky Six")
    }


class _Terminal(io.StringIO):
    """A standard error that says it is a terminal, as the user's is."""

    def isatty(self) -> bool:
        return True


def test_on_a_terminal_a_bar_counts_the_bets_and_names_the_one_in_hand(capsys, monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    code, out, _ = run(capsys, "eor", "--decks", "1", "--bet", "tie", "--bet", "banker")
    assert code == 0 and "Linear counts" in out
    shown = terminal.getvalue()
    assert "effects of removal:" in shown and "| 2.0/2 bets [" in shown
    assert "tie]" in shown and "banker]" in shown  # the bet being worked out
    assert shown.endswith("\r")  # the bar is cleared once done: the tables stand alone
    monkeypatch.undo()
    code, _, err = run(capsys, "eor", "--decks", "1", "--bet", "tie")
    assert code == 0 and err == ""  # no bar where stderr is no terminal


def _many_bets(tmp_path, count: int):
    bets = "".join(
        f'[[bet]]\nid = "tie{n}"\nname = "Tie {n}"\n[[bet.rule]]\n'
        f'when = "winner == \'tie\'"\npays = "{n + 1}:1"\n'
        for n in range(count)
    )
    return write_paytable(tmp_path, HEAD + bets)


def test_a_plot_of_more_bets_than_a_chart_takes_is_refused_first(tmp_path, capsys) -> None:
    """41 bets (one past the limit) would draw a chart metres tall: refused in one line
    that names the limit and --bet, with nothing written; --bet picks the bets to draw."""
    path, plot = _many_bets(tmp_path, MAX_CHART_BETS + 1), tmp_path / "eor.png"
    code, out, err = run(capsys, "eor", "--paytable", str(path), "--plot", str(plot))
    assert code == 2 and out == ""
    assert err == (
        f"baccarat-odds: error: --plot draws at most {MAX_CHART_BETS} bets, a panel each, and "
        f"{MAX_CHART_BETS + 1} are asked for: choose the bets to draw with --bet (the tables "
        "take any number)\n"
    )
    assert not plot.exists()
    argv = ["eor", "--paytable", str(path), "--bet", "tie0", "--bet", "tie1", "--plot", str(plot)]
    code, _, err = run(capsys, *argv)
    assert code == 0 and err == "" and plot.read_bytes()[:4] == b"\x89PNG"


# -- Another game of the family ---------------------------------------------------------------


def _validated(out: str) -> dict:
    import jsonschema

    from analyzer.reports.contract import schema_of

    document = json.loads(out)
    jsonschema.Draft202012Validator(schema_of("eor")).validate(document)
    return document


def test_eor_of_a_game_follows_the_eor_contract(capsys) -> None:
    """Dragon Tiger's effects: a row per bet and rank (tags and correlation too), and with
    --by-card a row per card; Big gains when a small card (or the 7) leaves."""
    argv = ("eor", "--paytable", "dragon-tiger", "--decks", "1", "--format", "json")
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    document = _validated(out)
    rows = document["effects"]
    assert len(rows) == 8 * 13 and document["paytable"]["id"] == "dragon-tiger"
    big = {
        row["rank"]: Fraction(row["delta_ev_exact"]) for row in rows if row["bet"] == "dragon_big"
    }
    assert all(big[rank] > 0 for rank in "A234567") and all(big[r] < 0 for r in "89JQK")
    tags = {row["rank"]: row["tag"] for row in rows if row["bet"] == "dragon_big"}
    assert sum(tags.values()) == 0  # balanced: seven ranks against six, 3 and 4 against -4
    assert set(tags.values()) == {3, 4, -4}
    code, out, err = run(capsys, *argv, "--by-card", "--bet", "suited_tie", "--bet", "tie")
    assert (code, err) == (0, "")
    rows = _validated(out)["effects"]
    assert [row["card"] for row in rows[:3]] == ["AS", "AS", "AH"]
    assert len(rows) == 2 * 52 and {row["bet"] for row in rows} == {"tie", "suited_tie"}


def test_eor_of_a_game_prints_its_tables(capsys) -> None:
    argv = ("eor", "--paytable", "three-card-baccarat", "--bet", "three_faces", "--wide")
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    assert out.startswith("Three Card Baccarat: 1 deck (52 cards)")
    assert "Three Faces" in out and "Linear counts" in out
    # Each picture card leaving hurts Three Faces, every other card helps it.
    row = next(line for line in out.splitlines() if line.startswith("Three Faces  "))
    cells = row.split()[2:]
    assert [cell[0] for cell in cells] == ["+"] * 10 + ["-"] * 3
