"""``simulate``: Monte Carlo returns beside the exact EVs, as JSON or a table."""

from __future__ import annotations

import json

from helpers import run

from analyzer import analyze, load_paytable

ARGS = ["simulate", "--shoes", "4", "--partition-size", "2", "--seed", "1", "--no-progress"]


COLUMNS = ("bet", "mode", "rounds bet", "mean return", "95% interval", "exact EV", "z")


def text_table(lines: list[str]) -> list[dict[str, str]]:
    """The rows of simulate's text table (its header first), cut where each header
    starts (headers are left-aligned, names hold spaces)."""
    header, *body = lines
    starts = [header.index(name) for name in (*COLUMNS, "max round")]
    return [
        {
            name: line[start:end].strip()
            for name, start, end in zip(COLUMNS, starts, starts[1:], strict=False)
        }
        | {"max round": line[starts[-1] :].strip()}
        for line in body
    ]


def test_simulate_json(tmp_path, capsys) -> None:
    code, out, err = run(capsys, *ARGS, "--format", "json", "--work-dir", str(tmp_path))
    assert code == 0 and err == ""
    result = json.loads(out)
    assert (result["shoes"], result["seed"]) == (4, 1)
    exact = {(r.bet.id, r.mode): float(r.expected_value) for r in analyze(decks=8).results}
    rows = {(row["bet"], row["mode"]): row for row in result["bets"]}
    assert set(rows) == set(exact)
    for key, row in rows.items():
        assert row["exact_ev"] == exact[key]
        assert row["ci95_low"] <= row["mean_return"] <= row["ci95_high"]
    # The Player is offered every round; a bet with a max round fewer of them.
    assert rows[("player", "commission")]["rounds_bet"] == result["rounds"]
    assert rows[("player_bonus", "commission")]["rounds_bet"] == 4 * 40  # 8 decks outlast 40


def test_simulate_text_names_the_shoes(tmp_path, capsys) -> None:
    argv = [*ARGS, "--decks", "1", "--cut-card", "6", "--work-dir", str(tmp_path)]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    head = out.splitlines()[0]
    assert ": 4 shoes of 1 decks, " in head and head.endswith("cut card 6 from the end, seed 1")
    assert "exact EV" in out and "95% interval" in out


def test_one_shoe_shows_no_interval_and_no_nan(tmp_path, capsys) -> None:
    """One shoe has no spread over shoes: no interval and no z ("-" in text, null in
    JSON), never "nan"; max rounds are whole rounds."""
    argv = [*ARGS[:2], "1", "--decks", "1", "--cut-card", "35", "--no-progress"]
    argv += ["--work-dir", str(tmp_path)]
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "nan" not in out.lower()
    rows = text_table(out.splitlines()[2:])
    assert rows and all(row["95% interval"] == "-" and row["z"] == "-" for row in rows)
    code, out, _ = run(capsys, *argv, "--format", "json", "--resume")
    bets = json.loads(out)["bets"]
    assert all(b["z"] is None and b["ci95_low"] is None for b in bets)
    assert {type(b["max_round"]) for b in bets} == {int, type(None)}


def test_simulate_text_names_each_bet_once_where_every_mode_has_the_same_figures(
    tmp_path, capsys
) -> None:
    """The same shoes settle a bet that pays alike in every mode alike: people read it
    once, by name, as report shows it (only the Banker pays differently by mode); JSON
    keeps every (bet, mode), with the name beside the id."""
    paytable = load_paytable("seed-game")
    names = {bet.id: bet.name for bet in paytable.bets}
    argv = [*ARGS, "--work-dir", str(tmp_path)]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    rows = text_table(out.splitlines()[2:])
    assert [(row["bet"], row["mode"]) for row in rows] == [
        (names[bet], mode)
        for bet in paytable.bet_ids
        for mode in (
            ("Baccarat (commission)", "No Commission Baccarat")
            if bet == "banker"
            else ("All modes",)
        )
    ]
    code, out, _ = run(capsys, *argv, "--format", "json", "--resume")
    bets = json.loads(out)["bets"]
    assert len(bets) == 2 * len(paytable.bet_ids)
    assert all(row["name"] == names[row["bet"]] for row in bets)
