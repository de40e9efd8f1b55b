"""simulate, count, dealt, audit and fit from Python: the same figures as the command line's
JSON for the same arguments, one-line errors, and their docstrings' examples."""

from __future__ import annotations

import doctest
import json
from fractions import Fraction

import pytest
from helpers import run

import analyzer
from analyzer import AnalyzerError, load_paytable
from analyzer.api import runs
from analyzer.api.results import TableResult


def cli_json(capsys, *argv: str):
    """What ``baccarat-odds <argv> --format json`` prints, read."""
    code, out, err = run(capsys, *argv, "--format", "json")
    assert code in (0, 1), err
    return json.loads(out)


def quiet(work) -> list[str]:
    """The command line's run options the API's defaults match: no bar, one process."""
    return ["--no-progress", "--workers", "1", "--work-dir", str(work)]


# -- The figures are the command line's ------------------------------------------------------


def test_simulate_gives_the_figures_simulate_prints(tmp_path, capsys) -> None:
    expected = cli_json(
        capsys, "simulate", "--shoes", "7", "--seed", "3", "--partition-size", "3",
        *quiet(tmp_path),
    )  # fmt: skip
    result = analyzer.simulate(shoes=7, seed=3, partition_size=3)
    assert result.to_dict() == expected
    assert result.rounds == expected["rounds"] > 0 and result.decks == 8
    frame = result.to_frame()
    assert list(frame["bet"]) == [b["bet"] for b in expected["bets"]]
    assert frame["mean_return"].tolist() == pytest.approx(
        [b["mean_return"] for b in expected["bets"]]
    )
    # The exact EVs kept exact, the printed floats their values.
    exact = result.exact_evs[("banker", "commission")]
    assert isinstance(exact, Fraction)
    banker = next(b for b in expected["bets"] if (b["bet"], b["mode"]) == ("banker", "commission"))
    assert float(exact) == banker["exact_ev"]
    assert "<table" in result._repr_html_() and "Banker" in result._repr_html_()
    assert not list(tmp_path.glob("baccarat-odds-run-*"))


def test_simulate_with_options_and_a_paytable_object(tmp_path, capsys) -> None:
    expected = cli_json(
        capsys, "simulate", "--shoes", "4", "--seed", "9", "--decks", "6", "--cut-card", "20",
        "--last-round", "one-more", *quiet(tmp_path),
    )  # fmt: skip
    result = analyzer.simulate(
        load_paytable("seed-game"), shoes=4, seed=9, decks=6, cut_card=20, last_round="one-more"
    )
    assert result.to_dict() == expected and result.cut_card == 20


def test_simulate_shuffles_as_the_command_line_does(tmp_path, capsys) -> None:
    expected = cli_json(
        capsys, "simulate", "--shoes", "3", "--seed", "2", "--decks", "1", "--partition-size",
        "3", "--shuffle", "riffle:2", *quiet(tmp_path),
    )  # fmt: skip
    result = analyzer.simulate(shoes=3, seed=2, decks=1, partition_size=3, shuffle="riffle:2")
    assert result.to_dict() == expected and expected["options"]["shuffle"] == "riffle:2"
    perfect = analyzer.simulate(shoes=3, seed=2, decks=1, partition_size=3)
    assert perfect.to_dict()["options"]["shuffle"] == "perfect"
    assert perfect.rounds != result.rounds or perfect.bets != result.bets


def test_simulate_writes_the_log_audit_reads(tmp_path, capsys) -> None:
    cli_log, api_log = tmp_path / "cli.csv", tmp_path / "api.csv"
    expected = cli_json(
        capsys, "simulate", "--shoes", "2", "--seed", "5", "--log", str(cli_log), *quiet(tmp_path)
    )
    assert analyzer.simulate(shoes=2, seed=5, log=api_log).to_dict() == expected
    assert api_log.read_bytes() == cli_log.read_bytes()


def test_count_gives_the_figures_count_prints(tmp_path, capsys) -> None:
    expected = cli_json(
        capsys, "count", "--bet", "lucky_six", "--shoes", "6", "--seed", "2", "--perfect",
        "--max-gain", "0.5", *quiet(tmp_path),
    )  # fmt: skip
    study = analyzer.count(shoes=6, seed=2, bets="lucky_six", perfect=True, max_gain=0.5)
    assert study.to_dict() == expected
    (row,) = expected["bets"]
    assert study.shoes == 6 and study.rounds_per_shoe == row["rounds_per_shoe"]
    frame = study.to_frame()
    assert frame.loc[0, "bet"] == "lucky_six"
    assert frame.loc[0, "with_limit_units_per_shoe"] == row["with_limit_units_per_shoe"]
    assert {"round", "mean_ev"} <= set(study.per_round.columns)


def test_count_at_a_pace_gives_the_figures_per_hour_count_prints(tmp_path, capsys) -> None:
    expected = cli_json(
        capsys, "count", "--bet", "lucky_six", "--shoes", "6", "--seed", "2", "--perfect",
        "--rounds-per-hour", "72.5", *quiet(tmp_path),
    )  # fmt: skip
    study = analyzer.count(shoes=6, seed=2, bets="lucky_six", perfect=True, rounds_per_hour=72.5)
    assert study.to_dict() == expected
    (row,) = expected["bets"]
    assert row["without_limit_win_per_hour"] is not None
    for bad in (0, "80", float("nan")):
        with pytest.raises(AnalyzerError, match=r"rounds.per.hour"):
            analyzer.count(shoes=2, bets="lucky_six", perfect=True, rounds_per_hour=bad)


def test_count_of_several_bets_by_a_linear_count(tmp_path, capsys) -> None:
    expected = cli_json(
        capsys, "count", "--bet", "tie", "--bet", "banker", "--mode", "all", "--shoes", "5",
        "--tags", "6=-4,7=-4,8=2,9=2", "--threshold", "20", "--true-count-decks", "unseen",
        "--no-max-round", *quiet(tmp_path),
    )  # fmt: skip
    study = analyzer.count(
        shoes=5, bets=["tie", "banker"], mode="all", tags="6=-4,7=-4,8=2,9=2", threshold=20,
        true_count_decks="unseen", no_max_round=True,
    )  # fmt: skip
    assert study.to_dict() == expected
    assert len(study.to_frame()) == len(expected["bets"]) == 4  # two bets, two modes


def test_count_of_a_game_dealt_once(tmp_path, capsys) -> None:
    expected = cli_json(
        capsys, "count", "--paytable", "dragon-tiger", "--bet", "suited_tie", "--bet",
        "dragon_small", "--shoes", "4", "--seed", "6", "--decks", "4", *quiet(tmp_path),
    )  # fmt: skip
    study = analyzer.count(
        "dragon-tiger", shoes=4, seed=6, decks=4, bets=["suited_tie", "dragon_small"]
    )
    assert study.to_dict() == expected
    assert [r["play"] for r in study.records] == ["perfect", "count"]
    with pytest.raises(AnalyzerError, match="solves each round's best play on its cards"):
        analyzer.count("lucky-draw-baccarat-1", shoes=1000, bets="all", perfect=True)


def test_audit_gives_the_report_audit_prints(tmp_path, capsys) -> None:
    log = tmp_path / "rounds.csv"
    analyzer.simulate(shoes=3, seed=4, log=log)
    # One round dealt wrong: a finding.
    lines = log.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    cells = lines[5].split(",")
    cells[header.index("player_score")] = str((int(cells[header.index("player_score")]) + 1) % 10)
    lines[5] = ",".join(cells)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = cli_json(capsys, "audit", str(log), "--level", "0.05")
    report = analyzer.audit(log, level=0.05)
    assert report.to_dict() == expected
    assert report.findings_total == expected["findings_total"] >= 1
    findings = report.to_frame()
    assert findings.loc[0, "check"] == "score" and findings.loc[0, "row"] == 5
    tests = report.tests_frame()
    assert list(tests["test"]) == [t["test"] for t in expected["fit"]["tests"]]
    assert report.tests_failed == expected["fit"]["tests_failed"]


def test_audit_without_the_fit_and_in_partitions(tmp_path, capsys) -> None:
    log = tmp_path / "rounds.parquet"
    analyzer.simulate(shoes=2, seed=8, log=log)
    expected = cli_json(capsys, "audit", str(log), "--no-fit")
    report = analyzer.audit(str(log), fit=False)
    assert report.to_dict() == expected and report.tests_failed is None
    assert report.tests_frame().empty and report.to_frame().empty
    work = tmp_path / "w"
    partitioned = analyzer.audit([log], fit=False, partition_rows=1000, work_dir=work)
    assert partitioned.to_dict() == expected and any(work.iterdir())


def _floor_log(path) -> None:
    """A simulated log whose rounds name two dealers and two tables and stake two bets."""
    import csv

    analyzer.simulate(shoes=4, seed=6, log=path)
    with open(path, newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    for i, row in enumerate(rows):
        row["dealer"] = ("Ann", "Bo")[int(row["shoe"]) % 2]
        row["table"] = "T1" if int(row["shoe"]) <= 2 else "T2"
        row["stake:banker"] = str(10 + 5 * (i % 4))
        row["stake:tie"] = "5" if i % 5 == 0 else ""
    with open(path, "w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def test_audit_gives_the_groups_and_monitoring_audit_prints(tmp_path, capsys) -> None:
    log = tmp_path / "floor.csv"
    _floor_log(log)
    expected = cli_json(
        capsys, "audit", str(log), "--min-group-rounds", "163", "--confidence", "99%",
        "--deviation", "1%",
    )  # fmt: skip
    report = analyzer.audit(log, min_group_rounds=163, confidence="99%", deviation=0.01)
    assert report.to_dict() == expected
    assert expected["monitoring"]["confidence"] == 0.99
    assert expected["monitoring"]["deviation"] == 0.01
    monitored = report.monitoring_frame()
    assert list(monitored["bet"]) == ["banker", "tie"] == [r.bet for r in report.monitoring]
    assert list(monitored["verdict"]) == [b["verdict"] for b in expected["monitoring"]["bets"]]
    groups = report.groups_frame()
    assert list(zip(groups["column"], groups["value"], strict=True)) == [
        (g["column"], g["value"]) for g in expected["groups"]["groups"]
    ]
    assert set(groups["column"]) == {"dealer", "table"} and "tests" not in groups
    # A group of fewer rounds than min_group_rounds is listed, not tested.
    assert list(groups["tested"]) == [g["rounds"] >= 163 for g in expected["groups"]["groups"]]
    assert False in set(groups["tested"]) and True in set(groups["tested"])
    assert report.groups_failed == expected["groups"]["groups_failed"]
    assert report.groups is not None and report.groups.min_rounds == 163
    # Where the log names no group and stakes nothing: None and empty tables.
    plain = tmp_path / "plain.csv"
    analyzer.simulate(shoes=1, seed=6, log=plain)
    bare = analyzer.audit(plain, fit=False)
    assert bare.groups is None and bare.groups_failed is None and bare.monitoring == ()
    assert bare.groups_frame().empty and bare.monitoring_frame().empty


def test_audit_tests_the_shuffle_as_audit_does(tmp_path, capsys) -> None:
    log = tmp_path / "riffled.csv"
    analyzer.simulate(shoes=8, seed=3, decks=1, shuffle="riffle:1", log=log)
    expected = cli_json(capsys, "audit", str(log), "--decks", "1", "--shuffle-tests")
    report = analyzer.audit(log, decks=1, shuffle_tests=True)
    assert report.to_dict() == expected and expected["options"]["shuffle_tests"] is True
    frame = report.shuffle_frame()
    assert list(frame["test"]) == [t["test"] for t in expected["shuffle_tests"]["tests"]]
    assert report.shuffle_tests_failed == expected["shuffle_tests"]["tests_failed"] >= 1
    assert "adjacent" in set(frame.loc[frame["verdict"] == "FAIL", "test"])
    assert report.shuffle is not None and "shuffle tests failed" in repr(report)
    untested = analyzer.audit(log, decks=1, fit=False)
    assert untested.shuffle is None and untested.shuffle_tests_failed is None
    assert untested.shuffle_frame().empty


def test_audits_defaults_are_the_commands() -> None:
    import inspect

    from analyzer.analysis.audit_groups import (
        DEFAULT_CONFIDENCE,
        DEFAULT_DEVIATION,
        MIN_GROUP_ROUNDS,
    )

    parameters = inspect.signature(analyzer.audit).parameters
    assert parameters["min_group_rounds"].default == MIN_GROUP_ROUNDS
    assert parameters["confidence"].default == DEFAULT_CONFIDENCE
    assert parameters["deviation"].default == DEFAULT_DEVIATION


def test_dealt_gives_the_figures_dealt_prints(tmp_path, capsys) -> None:
    expected = cli_json(
        capsys, "dealt", "--shoes", "4", "--seed", "2", "--decks", "1", "--cut-card", "20",
        "--partition-size", "2", "--bet", "banker", "--bet", "tie", *quiet(tmp_path),
    )  # fmt: skip
    result = analyzer.dealt(
        shoes=4, seed=2, decks=1, cut_card=20, partition_size=2, bets=["banker", "tie"]
    )
    assert result.to_dict() == expected
    assert (result.exact, result.shoes, result.seed, result.burn) == (False, 4, 2, "by-value")
    frame = result.to_frame()
    assert list(frame["bet"]) == [row["bet"] for row in expected["bets"]] == ["banker", "tie"]
    assert frame["rtp"].tolist() == pytest.approx(
        [row["with_limit"]["rtp"] for row in expected["bets"]]
    )
    assert frame["without_limit_rtp"].tolist() == pytest.approx(
        [row["without_limit"]["rtp"] for row in expected["bets"]]
    )
    assert "<table" in result._repr_html_() and "4 shoes" in repr(result)
    assert not list(tmp_path.glob("baccarat-odds-run-*"))


def test_dealt_exactly_gives_fractions(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny.csv").write_text("rank,count\nA,3\n5,1\n8,3\n9,2\nK,3\n", encoding="utf-8")
    expected = cli_json(
        capsys, "dealt", "--exact", "--shoe", "tiny.csv", "--cut-card", "8", "--burn", "none",
        "--bet", "tie", "--bet", "banker",
    )  # fmt: skip
    result = analyzer.dealt(
        exact=True, shoe="tiny.csv", cut_card=8, burn="none", bets=["tie", "banker"]
    )
    assert result.to_dict() == expected and expected["options"]["exact"] is True
    tie = next(r for r in result.records if r["bet"] == "tie")
    assert tie["with_limit"]["rtp"] == Fraction(421371, 456400)
    assert result.rounds_per_shoe == Fraction(163, 99) and result.seed is None
    frame = result.to_frame().set_index("bet")
    assert frame.loc["tie", "rtp"] == float(Fraction(421371, 456400))
    # A Shoe object deals the same, and a number of cards burned is taken as a number.
    shoe = analyzer.shoe_from_file("tiny.csv")
    again = analyzer.dealt(exact=True, shoe=shoe, cut_card=8, burn="none", bets=["tie", "banker"])
    assert again.records == result.records
    burned = analyzer.dealt(exact=True, shoe=shoe, cut_card=0, burn=0, bets="tie")
    assert burned.burn == "0" and burned.to_dict()["options"]["burn"] == "0"


def test_fit_gives_the_sets_fit_prints(capsys) -> None:
    expected = cli_json(capsys, "fit", "prosperity-tree-baccarat")
    allowed = analyzer.fit("prosperity-tree-baccarat")
    assert allowed.to_dict() == expected
    assert allowed.consistent is expected["together"]["consistent"] is True
    assert allowed.witness == {"p": Fraction(7, 113)}
    (low, high), *_ = allowed.intervals["p"]
    assert isinstance(low, Fraction) and low <= Fraction(7, 113) <= high
    assert allowed.unknowns == {"p": (Fraction(0), Fraction(1))}
    frame = allowed.to_frame()
    assert list(frame["claim"]) == [str(c["claim"]) for c in expected["claims"]] + ["all"]


# -- Bad input: one line ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: analyzer.simulate(shoes=0), "shoes: must be from 1"),
        (lambda: analyzer.simulate(shoes=True), "shoes: must be a whole number"),
        (lambda: analyzer.simulate(shoes=2, decks=99), "decks:"),
        (lambda: analyzer.simulate(shoes=2, last_round="later"), "last_round: one of"),
        (lambda: analyzer.simulate("no-such-game", shoes=2), "no-such-game"),
        (lambda: analyzer.simulate(42, shoes=2), "paytable must be a Paytable"),
        (lambda: analyzer.simulate(shoes=2, resume=True), "resume: name the work_dir"),
        (lambda: analyzer.simulate(shoes=2, jackpot=5), "jackpot: "),
        (lambda: analyzer.simulate(shoes=2, unknowns={"p": "1/2"}), "unknowns: "),
        (lambda: analyzer.simulate(shoes=2, strategy="player:9=draw"), "strategy"),
        (lambda: analyzer.simulate(shoes=2, log="rounds.txt"), ".csv or .parquet"),
        (lambda: analyzer.simulate(shoes=2, shuffle="riffle:0"), "shuffle: is perfect or"),
        (lambda: analyzer.simulate("dragon-tiger", shoes=2, shuffle="riffle:1"), "punto banco"),
        (lambda: analyzer.count(shoes=2, bets="nope"), "unknown bet 'nope'"),
        (lambda: analyzer.count(shoes=2, bets=[]), "bets: give bet ids"),
        (lambda: analyzer.count(shoes=2, bets="tie", perfect=True, tags="A=1"), "--perfect"),
        (lambda: analyzer.count(shoes=2, bets="tie", max_gain=-1), "max-gain"),
        (lambda: analyzer.count(shoes=2, bets="tie", true_count_decks="x"), "true_count_decks"),
        (lambda: analyzer.audit("missing.csv"), "missing.csv"),
        (lambda: analyzer.audit([]), "log: give a log file's path"),
        (lambda: analyzer.audit("r.csv", level=2), "level: must be between 0 and 1"),
        (lambda: analyzer.audit("r.csv", min_group_rounds=0), "min_group_rounds: must be"),
        (lambda: analyzer.audit("r.csv", confidence=1.5), "confidence: must be between"),
        (lambda: analyzer.audit("r.csv", confidence="95 %x"), "confidence: must be between"),
        (lambda: analyzer.audit("r.csv", deviation="100%"), "deviation: must be between"),
        (lambda: analyzer.dealt(bets="tie"), "give shoes (sampled) or exact=True"),
        (lambda: analyzer.dealt(shoes=2, exact=True), "give shoes (sampled) or exact=True"),
        (lambda: analyzer.dealt(shoes=0), "shoes: must be from 1"),
        (lambda: analyzer.dealt(shoes=2, bets="nope"), "unknown bet 'nope'"),
        (lambda: analyzer.dealt(shoes=2, bets=[]), "bets: give bet ids"),
        (lambda: analyzer.dealt(shoes=2, burn="half"), "--burn must be by-value"),
        (lambda: analyzer.dealt(shoes=2, burn=1.5), "burn: by-value, none or a number"),
        (lambda: analyzer.dealt(shoes=2, decks=1, cut_card=60), "--cut-card must leave"),
        (lambda: analyzer.dealt(shoes=2, decks=0), "decks: must be from 1"),
        (lambda: analyzer.dealt(exact=True, decks=2), "compositions"),
        (lambda: analyzer.dealt(shoes=2, decks=1, shoe="s.csv"), "give decks or shoe"),
        (lambda: analyzer.dealt("lucky-draw-baccarat-2", shoes=999), "solves each round's"),
        (lambda: analyzer.fit("seed-game"), "no [unknowns]"),
        (lambda: analyzer.fit(3), "claims: give a file's path"),
    ],
)
def test_bad_input_is_one_line(tmp_path, monkeypatch, call, message) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(AnalyzerError) as raised:
        call()
    text = str(raised.value)
    assert message in text and "\n" not in text


# -- The package's front door, and the examples ----------------------------------------------


def test_each_name_is_exported_lazily() -> None:
    for name in runs.__all__:
        assert name in analyzer.__all__ and getattr(analyzer, name) is getattr(runs, name)


def test_every_public_name_documents_its_parameters_and_raises() -> None:
    import inspect

    for name in ("simulate", "count", "dealt", "audit", "fit"):
        function = getattr(runs, name)
        text = function.__doc__
        for section in ("Parameters", "Returns", "Raises", "Examples"):
            assert f"\n    {section}\n" in text, (name, section)
        for parameter in inspect.signature(function).parameters:
            assert parameter in text, (name, parameter)


def test_the_examples_run(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = [t for t in finder.find(runs) if t.examples]
    names = {t.name.rsplit(".", 1)[-1] for t in tests}
    assert {"simulate", "count", "dealt", "audit", "fit"} <= names
    for test in tests:
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_every_result_is_a_table_in_a_notebook() -> None:
    results = (runs.Simulation, runs.CountStudy, runs.DealtRTP, runs.AuditReport, runs.FitResult)
    for result in results:
        assert issubclass(result, TableResult) and result.to_frame is not TableResult.to_frame
