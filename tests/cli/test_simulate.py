"""``simulate``: Monte Carlo returns beside the exact EVs, as JSON or a table."""

from __future__ import annotations

import json

import numpy as np
import pytest
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


@pytest.mark.slow
def test_simulate_json(tmp_path, capsys) -> None:
    code, out, err = run(capsys, *ARGS, "--format", "json", "--work-dir", str(tmp_path))
    assert code == 0 and err == ""
    result = json.loads(out)
    assert result["warnings"] == []  # every bet settled in 100 rounds or more: none
    assert (result["options"]["shoes"], result["options"]["seed"]) == (4, 1)
    exact = {(r.bet.id, r.mode): float(r.expected_value) for r in analyze(decks=8).results}
    rows = {(row["bet"], row["mode"]): row for row in result["bets"]}
    assert set(rows) == set(exact)
    for key, row in rows.items():
        assert row["exact_ev"] == exact[key]
        assert row["ci95_low"] <= row["mean_return"] <= row["ci95_high"]
    # The Player is offered every round; a bet with a max round fewer of them.
    assert rows[("player", "commission")]["rounds_bet"] == result["rounds"]
    assert rows[("player_bonus", "commission")]["rounds_bet"] == 4 * 40  # 8 decks outlast 40


@pytest.mark.parametrize(
    ("given", "recorded"), [([], "perfect"), (["--shuffle", "riffle:3"], "riffle:3")]
)
def test_simulate_json_says_the_shuffle(tmp_path, capsys, given, recorded) -> None:
    argv = ["simulate", "--shoes", "2", "--seed", "1", "--decks", "1", "--no-progress"]
    code, out, _ = run(capsys, *argv, *given, "--format", "json", "--work-dir", str(tmp_path))
    assert code == 0
    assert json.loads(out)["options"]["shuffle"] == recorded


@pytest.mark.slow
def test_simulate_text_names_the_shoes(tmp_path, capsys) -> None:
    argv = [*ARGS, "--decks", "1", "--cut-card", "6", "--work-dir", str(tmp_path), "--wide"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    head = out.splitlines()[0]
    assert ": 4 shoes of 1 deck, " in head and head.endswith("cut card 6 from the end, seed 1")
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


def test_a_short_simulation_warns_in_json_as_on_stderr(tmp_path, capsys) -> None:
    """A few rounds settle every bet: one few_rounds warning, every (bet, mode) in JSON
    with its rounds, each bet named once in the message, the line standard error shows
    (as text or JSON)."""
    import jsonschema

    from analyzer.reports.contract import schema_of
    from analyzer.runs.few_rounds import FEW_ROUNDS

    argv = [*ARGS[:2], "1", "--decks", "1", "--cut-card", "35", "--no-progress"]
    argv += ["--work-dir", str(tmp_path)]
    code, out, err = run(capsys, *argv, "--format", "json")
    assert code == 0
    document = json.loads(out)
    jsonschema.Draft202012Validator(schema_of("simulate")).validate(document)
    (warning,) = document["warnings"]
    rows = document["bets"]
    assert warning["kind"] == "few_rounds"
    assert warning["bets"] == [
        {"bet": row["bet"], "mode": row["mode"], "rounds": row["rounds_bet"]} for row in rows
    ]
    assert all(0 < row["rounds_bet"] < FEW_ROUNDS for row in rows)
    named = dict.fromkeys(f"{row['name']} {row['rounds_bet']}" for row in rows)
    assert len(named) < len(rows)  # a bet settled alike in both modes is named once
    assert warning["message"] == (
        f"figures resting on fewer than {FEW_ROUNDS} rounds bet: {', '.join(named)}: "
        "deal more shoes"
    )
    assert err.splitlines() == [f"baccarat-odds: warning: {warning['message']}"]
    code, _, text_err = run(capsys, *argv, "--resume")
    assert code == 0 and text_err == err


def test_simulate_text_names_each_bet_once_where_every_mode_has_the_same_figures(
    tmp_path, capsys
) -> None:
    """The same shoes settle a bet that pays alike in every mode alike: people read it
    once, by name, as report shows it (only the Banker pays differently by mode); JSON
    keeps every (bet, mode), with the name beside the id."""
    paytable = load_paytable("seed-game")
    names = {bet.id: bet.name for bet in paytable.bets}
    argv = [*ARGS, "--work-dir", str(tmp_path)]
    code, out, _ = run(capsys, *argv, "--wide")  # (one panel)
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


# -- simulate --log -------------------------------------------------------------------------

LOG_ARGS = ["simulate", "--shoes", "200", "--decks", "2", "--seed", "7", "--no-progress"]
LOG_ARGS += ["--partition-size", "64", "--format", "json"]


def _files(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_simulated_log_audits_clean_and_adds_up_to_the_simulation(
    tmp_path, capsys, suffix
) -> None:
    log = tmp_path / f"rounds{suffix}"
    code, out, err = run(capsys, *LOG_ARGS, "--log", str(log), "--work-dir", str(tmp_path / "w"))
    assert code == 0 and err == ""
    assert not (tmp_path / "w").exists()  # no partitions saved
    # The same report as without --log: the same rounds.
    code, plain, _ = run(capsys, *LOG_ARGS, "--work-dir", str(tmp_path / "w"))
    assert code == 0 and plain == out
    code, audited, err = run(capsys, "audit", str(log), "--decks", "2")
    assert (code, err) == (0, "") and audited.startswith("No findings.\n")
    assert "Audited " in audited and " of 200 shoes " in audited
    # Each bet's payouts re-settle to the simulated mean return and rounds bet.
    from analyzer.runs.audit_log import read_log

    paytable = load_paytable("seed-game")
    blocks = list(read_log(log, paytable))
    report = json.loads(out)
    assert sum(len(b) for b in blocks) == report["rounds"]
    for row in report["bets"]:
        pay = np.concatenate([b.payouts[(row["bet"], row["mode"])] for b in blocks])
        assert np.count_nonzero(~np.isnan(pay)) == row["rounds_bet"]
        assert np.nanmean(pay) == pytest.approx(row["mean_return"], rel=1e-12, abs=1e-12)


def test_the_same_seed_writes_the_same_log(tmp_path, capsys) -> None:
    logs = [tmp_path / "a.csv", tmp_path / "b.csv"]
    for log in logs:
        assert run(capsys, *LOG_ARGS, "--shoes", "20", "--log", str(log))[0] == 0
    assert logs[0].read_bytes() == logs[1].read_bytes()
    assert logs[0].read_text(encoding="utf-8").startswith("shoe,round,player_cards,")


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--log", "{dir}/d.csv"], "--log {dir}/d.csv: is a folder, not a file"),
        (["--log", "{dir}/missing/r.csv"], "folder {dir}/missing does not exist"),
        (["--log", "{dir}/r.txt"], "--log {dir}/r.txt: name a .csv or .parquet file"),
        (["--log", "{dir}/r.csv", "--resume"], "--log cannot take --resume"),
        (["--log", "{dir}/r.csv", "--workers", "2"], "--log cannot take --workers 2"),
        (
            ["--log", "{dir}/r.csv", "--scheduler", "tcp://127.0.0.1:1"],
            "--log cannot take --scheduler",
        ),
    ],
)
def test_a_bad_log_is_one_line_and_no_file(tmp_path, capsys, extra, said) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "d.csv").mkdir()
    argv = [a.format(dir=folder) for a in extra]
    code, out, err = run(capsys, *LOG_ARGS, *argv, "--work-dir", str(tmp_path / "w"))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and said.format(dir=folder) in err, err
    assert _files(folder) == ["d.csv"] and not (tmp_path / "w").exists()


def test_an_interrupted_or_failed_run_leaves_no_log(tmp_path, capsys, monkeypatch) -> None:
    """The log is written under a temporary name and moved in only when the command has
    written its report: an interrupt or an error leaves the old file as it was."""
    from analyzer.runs import round_log

    log = tmp_path / "rounds.csv"
    log.write_text("old\n", encoding="utf-8")
    settle = round_log.settle_partition

    def stopped(job, index, shoes, keep_rounds=False):
        if index == 1:
            raise KeyboardInterrupt
        return settle(job, index, shoes, keep_rounds)

    monkeypatch.setattr(round_log, "settle_partition", stopped)
    code, out, err = run(capsys, *LOG_ARGS, "--log", str(log))
    assert code == 130 and out == "" and "interrupted" in err
    assert _files(tmp_path) == ["rounds.csv"] and log.read_text(encoding="utf-8") == "old\n"

    def failed(job, index, shoes, keep_rounds=False):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(round_log, "settle_partition", failed)
    code, out, err = run(capsys, *LOG_ARGS, "--log", str(log))
    assert code == 2 and out == ""
    assert err.strip().endswith(
        f"error: --log {log}: cannot write: No space left on device; nothing was written"
    )
    assert _files(tmp_path) == ["rounds.csv"] and log.read_text(encoding="utf-8") == "old\n"


# -- another game of the family ---------------------------------------------------------------


def test_simulate_deals_another_game_of_the_family(tmp_path, capsys) -> None:
    """A paytable of Dragon Tiger is simulated, no longer refused: JSON by the simulate
    schema, every bet beside report's exact EV, partitions saved and resumed to the same
    figures; as text, the same table as punto banco's."""
    import jsonschema

    from analyzer.reports.contract import schema_of

    argv = ["simulate", "--paytable", "dragon-tiger-sa-gaming", "--shoes", "6", "--seed", "4"]
    argv += ["--partition-size", "4", "--no-progress", "--work-dir", str(tmp_path)]
    code, out, err = run(capsys, *argv, "--format", "json")
    assert code == 0 and err == ""
    document = json.loads(out)
    jsonschema.Draft202012Validator(schema_of("simulate")).validate(document)
    assert document["paytable"]["id"] == "dragon-tiger-sa-gaming"
    assert document["shoe"]["decks"] == 8 and document["warnings"] == []
    exact = analyze(paytable="dragon-tiger-sa-gaming").results
    assert [(row["bet"], row["exact_ev"]) for row in document["bets"]] == [
        (r.bet.id, float(r.expected_value)) for r in exact
    ]
    rows = {row["bet"]: row for row in document["bets"]}
    assert rows["dragon"]["rounds_bet"] == document["rounds"] > 6 * 25
    assert rows["dragon_red"]["rounds_bet"] == 6 * 25 and rows["dragon_red"]["max_round"] == 25
    assert len(list(tmp_path.glob("*/part-*.npz"))) == 2
    code, again, _ = run(capsys, *argv, "--format", "json", "--resume")
    assert code == 0 and again == out
    code, out, _ = run(capsys, *argv, "--resume", "--wide")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("Dragon Tiger (SA Gaming): 6 shoes of 8 decks, ")
    assert lines[2].split() == [
        *("bet", "rounds", "bet", "mean", "return", "95%", "interval"),
        *("exact", "EV", "z", "max", "round"),
    ]
    assert lines[3].startswith("Dragon ") and lines[3].endswith(" -")
    assert lines[-1].startswith("Tiger Black ") and lines[-1].endswith(" 25")


def test_simulate_of_another_game_logs_its_hands_as_audit_reads_them(tmp_path, capsys) -> None:
    import csv

    log = tmp_path / "rounds.csv"
    argv = ["simulate", "--paytable", "dragon-tiger", "--shoes", "2", "--seed", "3"]
    code, out, err = run(capsys, *argv, "--no-progress", "--log", str(log))
    assert code == 0, err
    rows = list(csv.DictReader(log.read_text(encoding="utf-8").splitlines()))
    assert list(rows[0])[:8] == [
        "shoe", "round", "dragon_cards", "tiger_cards", "burn", "winner", "dragon_score",
        "tiger_score",
    ]  # fmt: skip
    # Each round as a plain reading of the rules has it: one card each, the higher rank
    # wins (Ace low), a tie loses half the Dragon bet.
    order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    for row in rows:
        dragon, tiger = row["dragon_cards"], row["tiger_cards"]
        assert len(dragon.split()) == len(tiger.split()) == 1
        d, t = order.index(dragon[:-1]) + 1, order.index(tiger[:-1]) + 1
        assert (int(row["dragon_score"]), int(row["tiger_score"])) == (d, t)
        winner = "dragon" if d > t else "tiger" if t > d else "tie"
        assert row["winner"] == winner
        assert float(row["pay:dragon"]) == {"dragon": 1, "tiger": -1, "tie": -0.5}[winner]
    code, out, err = run(capsys, "audit", str(log), "--paytable", "dragon-tiger", "--no-fit")
    assert code == 0 and "No findings." in out, err


def test_simulate_logs_a_game_only_where_its_bets_play_alike(tmp_path, capsys) -> None:
    from helpers import write_paytable

    paytable = write_paytable(
        tmp_path,
        """
name = "Two plays"
game = "lucky-draw-baccarat"
decks = 8

[[bet]]
id = "enter"
name = "Enter"
[[bet.rule]]
when = "winner == 'player' and action in ('stand', 'draw')"  # (reads the action: raised)
pays = "1:1"
[[bet.rule]]
when = "winner == 'tie'"
pays = "push"

[[bet]]
id = "stood"
name = "Stood"
[[bet.rule]]
when = "action == 'stand' and winner == 'player'"
pays = "1:1"
""",
    )
    log = tmp_path / "rounds.csv"
    argv = ["simulate", "--paytable", str(paytable), "--shoes", "1", "--no-progress"]
    code, out, err = run(capsys, *argv, "--log", str(log))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "--log writes one action a round" in err
    assert not log.exists()
