"""``baccarat-odds strategy``: the best play of each information set of a game with a
decision, against the analysis it comes from (:meth:`Analysis.strategy`), the schema of
its JSON, and the bet's own exact figures; and ``report`` saying on what play its
figures rest."""

from __future__ import annotations

import io
import json
from collections import defaultdict
from fractions import Fraction

import jsonschema
import pytest
from helpers import run, write_paytable

from analyzer import analyze
from analyzer.reports.contract import schema_of

LUCKY = "lucky-draw-baccarat-1"
SEEN = ("player_card1", "player_card2", "dealer_card1")

#: Lucky Draw's game with a second bet on the same rounds: a Tie bet (pays 8:1 whether
#: the player drew or stood), so that two bets have a strategy table each.
TWO_BETS = """\
name = "Lucky Draw, two bets"
game = "lucky-draw-baccarat"
decks = 8

[[bet]]
id = "enter"
name = "Enter"
[[bet.rule]]
when = "action == 'draw' and winner == 'player' and player_score == 9"
pays = "2:1"
[[bet.rule]]
when = "winner == 'player'"
pays = "1:1"
[[bet.rule]]
when = "winner == 'tie'"
pays = "push"

[[bet]]
id = "tie"
name = "Tie"
[[bet.rule]]
when = "winner == 'tie' and action in ('stand', 'draw')"  # (reads the action: raised)
pays = "8:1"
"""

#: One card each; the player sees their own card and may keep, draw (stake 2) or raise
#: to three stakes; the dealer draws on 0-4 (tests/analysis/test_decisions.py's game).
ONE_CARD = """\
name = "One card and a decision"
decks = 1

[game]
name = "One card"
hands = [
    { name = "player", cards = 1, extra = 1 },
    { name = "dealer", cards = 1, extra = 1, draws = "0-4" },
]
[game.decision]
sees = ["player_card1"]
actions = [
    { name = "keep" },
    { name = "draw", draws = "player", stake = 2 },
    { name = "triple", stake = 3 },
]

[[bet]]
id = "hand"
name = "Hand"
[[bet.rule]]
when = "winner == 'player'"
pays = "1:1"
[[bet.rule]]
when = "winner == 'tie'"
pays = "push"
"""


def _json(capsys, *argv: str) -> dict:
    code, out, err = run(capsys, "strategy", *argv, "--format", "json")
    assert code == 0, err
    document = json.loads(out)
    jsonschema.Draft202012Validator(schema_of("strategy")).validate(document)
    return document


def _actions(document: dict) -> list[str]:
    return [action["name"] for action in document["decision"]["actions"]]


@pytest.fixture(scope="module")
def lucky():
    return analyze(paytable=LUCKY)


def test_the_json_rows_are_the_analysis_strategy_exactly(capsys, lucky) -> None:
    document = _json(capsys, "--paytable", LUCKY)
    assert document["schema"] == {"name": "baccarat-odds/strategy", "version": 3}
    assert document["decision"] == {
        "sees": list(SEEN),
        "actions": [
            {"name": "stand", "draws": None, "stake": 1, "pays": None},
            {"name": "draw", "draws": "player", "stake": 2, "pays": None},
        ],
    }
    frame = lucky.strategy("enter")
    rows = document["sets"]
    assert len(rows) == len(frame) == 1000
    for row, expected in zip(rows, frame.to_dict("records"), strict=True):
        assert (row["bet"], row["mode"]) == ("enter", "standard")
        assert tuple(row[card] for card in SEEN) == tuple(expected[card] for card in SEEN)
        assert Fraction(row["probability"]) == expected["probability"]
        assert row["probability_float"] == float(expected["probability"])
        for action in ("stand", "draw"):
            assert Fraction(row[f"ev_{action}"]) == expected[f"ev_{action}"]
            assert row[f"ev_{action}_float"] == float(expected[f"ev_{action}"])
        assert row["best"] == expected["best"]
    # Sorted as the walk gives them: by the values seen.
    assert [tuple(r[c] for c in SEEN) for r in rows] == sorted(
        tuple(r[c] for c in SEEN) for r in rows
    )


def test_probabilities_best_actions_and_the_rtp_the_rows_imply(capsys, tmp_path) -> None:
    """Per bet, the sets' probabilities sum to 1, the best action has the highest EV of
    its row, and the sum of probability times best EV is the bet's exact expected value
    (its RTP less 1), as report gives it."""
    path = write_paytable(tmp_path, TWO_BETS)
    document = _json(capsys, "--paytable", str(path))
    actions = _actions(document)
    by_bet = defaultdict(list)
    for row in document["sets"]:
        by_bet[(row["bet"], row["mode"])].append(row)
    assert list(by_bet) == [("enter", "standard"), ("tie", "standard")]
    analysis = analyze(paytable=str(path))
    for (bet, mode), rows in by_bet.items():
        assert sum(Fraction(row["probability"]) for row in rows) == 1
        total_ways = sum(row["ways"] for row in rows)
        implied = Fraction(0)
        for row in rows:
            values = {a: Fraction(row[f"ev_{a}"]) for a in actions}
            assert values[row["best"]] == max(values.values())
            # A tie keeps the first action listed.
            assert row["best"] == next(a for a in actions if values[a] == max(values.values()))
            assert Fraction(row["probability"]) == Fraction(row["ways"], total_ways)
            implied += Fraction(row["probability"]) * values[row["best"]]
        figures = next(b for b in document["bets"] if (b["bet"], b["mode"]) == (bet, mode))
        assert implied == Fraction(figures["rtp"]) - 1
        assert implied == analysis.result(bet, mode).expected_value
        assert Fraction(figures["house_edge"]) == analysis.result(bet, mode).house_edge
    # The Tie's best play is its own: it draws where a draw makes a tie likelier.
    assert {row["best"] for row in by_bet[("tie", "standard")]} == set(actions)


def test_stephen_hows_figure_from_the_rows(capsys) -> None:
    """Pay table 1 nets -44,813,537,562,624 of 2,499,199,137,751,680 deals (Stephen How):
    the rows of the table give it back."""
    document = _json(capsys)
    rows = document["sets"]
    net = sum(Fraction(r["probability"]) * Fraction(r[f"ev_{r['best']}"]) for r in rows)
    assert net == Fraction(-44_813_537_562_624, 2_499_199_137_751_680)
    assert sum(r["ways"] for r in rows) == 416 * 415 * 414 * 413 * 412 * 411


def test_csv_has_the_json_rows_columns(capsys, tmp_path) -> None:
    import pandas as pd

    document = _json(capsys, "--decks", "1")
    code, out, err = run(capsys, "strategy", "--decks", "1", "--format", "csv")
    assert code == 0, err
    frame = pd.read_csv(io.StringIO(out), dtype_backend="numpy_nullable", keep_default_na=False)
    assert list(frame.columns) == list(document["sets"][0])
    assert len(frame) == len(document["sets"])
    for column in ("ways", *SEEN):
        assert str(frame[column].dtype) == "Int64"
    assert frame.to_dict("records") == document["sets"]


def test_out_writes_the_format_its_suffix_names(capsys, tmp_path) -> None:
    path = tmp_path / "table.json"
    code, out, err = run(capsys, "strategy", "--decks", "1", "--out", str(path))
    assert (code, out, err) == (0, "", "")
    document = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema_of("strategy")).validate(document)
    csv = tmp_path / "table.csv"
    assert run(capsys, "strategy", "--decks", "1", "--out", str(csv))[0] == 0
    assert csv.read_text(encoding="utf-8").startswith("bet,name,mode,player_card1,")
    text = tmp_path / "table.txt"
    assert run(capsys, "strategy", "--decks", "1", "--out", str(text))[0] == 0
    assert text.read_text(encoding="utf-8").startswith("Lucky Draw Baccarat (pay table 1)")
    # A suffix naming another format than --format: one line, nothing written.
    wrong = tmp_path / "wrong.json"
    code, out, err = run(capsys, "strategy", "--format", "csv", "--out", str(wrong))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "names json but --format is csv" in err and not wrong.exists()


@pytest.mark.parametrize(
    ("paytable", "game"), [("dragon-tiger", "Dragon Tiger"), ("seed-game", "punto banco")]
)
def test_a_game_without_a_decision_is_refused_in_one_line(capsys, tmp_path, paytable, game):
    out_file = tmp_path / "strategy.json"
    code, out, err = run(capsys, "strategy", "--paytable", paytable, "--out", str(out_file))
    assert (code, out) == (2, "")
    assert err == (
        f"baccarat-odds: error: {paytable}: {game} has no decision: its bets are played "
        "one way; see report\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_the_text_table_for_people(capsys, lucky) -> None:
    code, out, err = run(capsys, "strategy")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == (
        "Lucky Draw Baccarat (pay table 1): 8 decks (416 cards), exact; the best play of "
        "each information set"
    )
    assert lines[2] == "Enter (with the Draw bet) (standard)"
    text = " ".join(out.split())
    assert "Under this play the bet's RTP is 98.2069% (house edge 1.7931%)" in text
    assert "(the stake of draw: 2 base stakes)" in text
    header = next(line for line in lines if line.startswith("Player card 1"))
    assert header.split() == [
        *("Player", "card", "1", "Player", "card", "2", "Dealer", "card", "1"),
        *("Probability", "EV", "stand", "EV", "draw", "Best"),
    ]
    rows = lines[lines.index(header) + 1 :]
    assert len(rows) == 1000 and all(len(line) <= 100 for line in lines)
    first = lucky.strategy("enter").iloc[0]
    assert rows[0].split() == [
        "0",
        "0",
        "0",
        f"{float(100 * first['probability']):.4f}%",
        f"{float(first['ev_stand']):+.6f}",
        f"{float(first['ev_draw']):+.6f}",
        first["best"],
    ]


def _chart_cells(frame) -> dict[tuple[int, int], set[str]]:
    cells: dict[tuple[int, int], set[str]] = defaultdict(set)
    for c1, c2, up, best in zip(
        frame["player_card1"],
        frame["player_card2"],
        frame["dealer_card1"],
        frame["best"],
        strict=True,
    ):
        cells[((c1 + c2) % 10, up)].add(best)
    return cells


@pytest.mark.parametrize("paytable", ["lucky-draw-baccarat-1", "lucky-draw-baccarat-2"])
def test_the_summary_is_the_best_action_of_every_set_of_each_cell(capsys, paytable) -> None:
    code, out, err = run(capsys, "strategy", "--paytable", paytable, "--summary")
    assert code == 0, err
    lines = out.splitlines()
    header = lines.index(next(line for line in lines if line.startswith("Player's two-card")))
    assert lines[header].split()[3:] == [str(v) for v in range(10)]
    chart = {int(line.split()[0]): line.split()[1:] for line in lines[header + 1 : header + 11]}
    cells = _chart_cells(analyze(paytable=paytable).strategy("enter"))
    mixed = []
    for (total, up), best in cells.items():
        shown = chart[total][up]
        assert shown == (next(iter(best)) if len(best) == 1 else "mixed"), (total, up)
        if len(best) > 1:
            mixed.append((total, up))
    if paytable.endswith("-1"):
        assert sorted(mixed) == [(6, 0), (6, 1), (9, 1), (9, 2)]
        # Each mixed cell is listed with the cards that make each action best.
        assert (
            "Player's two-card total = 9, Dealer card 1 = 2: stand with 0+9, 1+8; draw with "
            "2+7, 3+6, 4+5"
        ) in lines
    else:
        assert mixed == [] and "No cell is mixed: the totals alone decide." in lines


def test_summary_is_refused_for_tools(capsys) -> None:
    for fmt in ("json", "csv"):
        code, out, err = run(capsys, "strategy", "--summary", "--format", fmt)
        assert code == 2 and out == "" and err.count("\n") == 1
        assert "--summary is a chart for people" in err


def test_a_game_of_ones_own_with_three_actions_and_one_card_seen(capsys, tmp_path) -> None:
    path = tmp_path / "one-card.toml"
    path.write_text(ONE_CARD, encoding="utf-8")
    document = _json(capsys, "--paytable", str(path))
    assert _actions(document) == ["keep", "draw", "triple"]
    frame = analyze(paytable=str(path)).strategy("hand")
    assert [r["player_card1"] for r in document["sets"]] == list(frame["player_card1"])
    assert [r["best"] for r in document["sets"]] == list(frame["best"])
    assert set(document["sets"][0]) >= {"ev_keep", "ev_draw_float", "ev_triple"}
    code, out, err = run(capsys, "strategy", "--paytable", str(path), "--summary")
    assert code == 0, err
    assert "Rows: the Player card 1." not in out and "Rows: the Player's card 1." in out
    assert "No cell is mixed" in out  # one card seen: its value is the whole set


def test_a_decision_that_deals_no_card_has_its_table_too(capsys, tmp_path) -> None:
    """A decision whose actions only raise the stake (Peek-like) is solved per set as
    one that deals a card: its table, and the best actions among keep and triple."""
    path = tmp_path / "raise.toml"
    path.write_text(
        ONE_CARD.replace(", extra = 1 }", " }")
        .replace(', extra = 1, draws = "0-4" }', " }")
        .replace('    { name = "draw", draws = "player", stake = 2 },\n', ""),
        encoding="utf-8",
    )
    document = _json(capsys, "--paytable", str(path))
    assert _actions(document) == ["keep", "triple"]
    frame = analyze(paytable=str(path)).strategy("hand")
    assert [r["best"] for r in document["sets"]] == list(frame["best"])


def test_bet_and_removed_cards_change_the_table(capsys) -> None:
    full = _json(capsys, "--decks", "1")
    less = _json(capsys, "--decks", "1", "--remove", "9 9 9 9", "--bet", "enter")
    assert less["shoe"]["removed"] == ["9", "9", "9", "9"] and less["shoe"]["ranks"]["9"] == 0
    assert less["options"]["bets"] == ["enter"]
    # No 9 is left: no set sees one.
    assert all(9 not in (r[c] for c in SEEN) for r in less["sets"])
    assert len(less["sets"]) == 729 < len(full["sets"])


# -- report says on what play its figures rest ---------------------------------------------


def test_report_states_the_best_play_for_a_game_with_a_decision(capsys) -> None:
    code, out, _ = run(capsys, "report", "--paytable", LUCKY, "--wide")
    assert code == 0
    assert out.splitlines()[0].endswith(
        "; each bet under the best play of each information set (see baccarat-odds strategy)"
    )
    code, out, _ = run(capsys, "report", "--paytable", LUCKY, "--lang", "ms", "--format", "html")
    assert "setiap pertaruhan di bawah permainan terbaik" in out
    code, out, _ = run(capsys, "report", "--paytable", "dragon-tiger", "--wide")
    assert code == 0 and "information set" not in out


def test_the_par_sheet_says_the_strategy(tmp_path) -> None:
    from openpyxl import load_workbook

    from analyzer.reports.workbook import workbook_bytes

    def strategy_row(paytable: str, lang: str = "en") -> str:
        path = tmp_path / f"{paytable}-{lang}.xlsx"
        path.write_bytes(workbook_bytes(analyze(paytable=paytable), lang=lang))
        sheet = load_workbook(path).worksheets[0]  # (the Summary, its name translated)
        labels = {row[0].value: row[1].value for row in sheet.iter_rows(max_col=2)}
        strategy = {"en": "Strategy", "tl": "Estratehiya", "ms": "Strategi"}[lang]
        return labels[strategy]

    assert strategy_row(LUCKY) == (
        "Each bet under the best play of each information set (see baccarat-odds strategy)"
    )
    assert strategy_row(LUCKY, "tl").startswith("Bawat taya sa pinakamahusay")
    assert strategy_row("dragon-tiger") == "-"
