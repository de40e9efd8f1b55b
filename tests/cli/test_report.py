"""``report``: the main job, every format, with and without detail."""

from __future__ import annotations

import csv
import io
import json
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from helpers import run

from analyzer import analyze, load_paytable
from analyzer.reports.i18n import LANGUAGES


def test_report_default_is_every_bet_both_modes_with_verdict(capsys) -> None:
    code, out, err = run(capsys, "report", "--wide")  # (one panel: each row once)
    assert code == 0 and err == ""
    for name in ("Player", "Banker", "Tie", "Perfect Pair", "Super Lucky Seven", "Banker Bonus"):
        assert name in out
    # Only the Banker bet differs by mode: it has a row per mode, every other bet one row
    # marked as applying to all modes (the title names both modes once more, and the
    # claim line the best bet's mode).
    assert out.count("No Commission Baccarat") == 2
    assert out.count("Baccarat (commission)") == 3
    assert out.count("All modes") == 17
    assert "Claimed maximum RTP 98.94%" in out and "CONFIRMED" in out


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("paytable", ["seed-game", "seed-game-ms"])
def test_report_title_names_the_game_as_its_players_do(capsys, paytable, lang) -> None:
    """The seed pages are the rules of "Baccarat" ("Mga Panuntunan sa Laro ng Baccarat",
    "Peraturan Permainan Bakarat"): their game's reports are titled so in every language,
    never by the team's file that describes it."""
    code, out, _ = run(capsys, "report", "--paytable", paytable, "--bet", "tie", "--lang", lang)
    title = out.splitlines()[0]
    assert code == 0 and title.startswith("Baccarat")
    assert "GAME" not in title and "seed" not in title.casefold()


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "html", "latex"])
def test_report_shows_a_bet_once_when_every_mode_has_the_same_figures(capsys, fmt) -> None:
    analysis = analyze()
    differs = {
        bet
        for bet in {r.bet.id for r in analysis.results}
        if len({analysis.result(bet, m).house_edge for m in analysis.modes}) > 1
    }
    assert differs == {"banker"}
    wide = ["--wide"] if fmt == "text" else []  # (one panel: each row once)
    code, out, _ = run(capsys, "report", "--format", fmt, "--detail", *wide)
    assert code == 0
    if fmt == "html":  # the page's body (its <title> names the modes once more)
        out = out.split("<body>", 1)[1]
    if fmt == "csv":  # for tools, as JSON: a row per (bet, mode), never folded
        summary = pd.read_csv(io.StringIO(out.split("\n\n")[0]))
        assert summary.groupby("bet")["mode"].apply(sorted).to_dict() == {
            bet: ["commission", "no_commission"] for bet in summary["bet"].unique()
        }
        return
    # 17 bets once in the summary and once in the detail; the Banker in each mode in
    # both, and the title names both modes.
    assert out.count("All modes") == 2 * 17
    assert out.count("No Commission Baccarat") == 3


def test_report_json_keeps_every_bet_and_mode(capsys) -> None:
    code, out, _ = run(capsys, "report", "--format", "json")
    assert code == 0
    rows = json.loads(out)["bets"]
    assert {(row["bet"], row["mode"]) for row in rows} == {
        (r.bet.id, r.mode) for r in analyze().results
    }
    assert "all" not in {row["mode"] for row in rows}


def test_report_json_objects(capsys) -> None:
    code, out, _ = run(capsys, "report", "--format", "json")
    assert code == 0
    rows = json.loads(out)["bets"]
    assert len(rows) == 36
    keys = {
        "bet",
        "mode",
        "house_edge",
        "rtp",
        "house_edge_percent",
        "rtp_percent",
        "hit_frequency",
        "std_dev",
        "max_round",
    }
    assert all(keys <= set(row) for row in rows)
    banker = next(r for r in rows if r["bet"] == "banker" and r["mode"] == "commission")
    exact = analyze(mode="commission", bets=["banker"]).result("banker").house_edge
    assert Fraction(banker["house_edge"]) == exact
    p, q = banker["rtp"].split("/")
    assert Fraction(int(p), int(q)) == 1 - exact and Fraction(banker["rtp"]).denominator == int(q)
    assert next(r for r in rows if r["bet"] == "tie")["max_round"] is None


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "json"])
def test_report_formats_with_detail(capsys, fmt) -> None:
    code, out, _ = run(
        capsys,
        "report",
        "--decks",
        "2",
        "--mode",
        "no_commission",
        "--bet",
        "banker",
        "--bet",
        "lucky_six",
        "--detail",
        "--format",
        fmt,
    )
    assert code == 0
    assert "lucky_six" in out or "Lucky Six" in out
    if fmt in ("csv", "json"):  # for tools: each line's condition
        assert "winner == 'banker' and banker_score == 6" in out
    else:  # for people: each line's label (the condition stays in JSON, under "when")
        assert "Banker wins with a score of 6" in out
        assert "winner ==" not in out


def test_detail_gives_one_in_n_and_the_top_award_in_every_format(capsys) -> None:
    """Each paying line's "1 in N" and each bet's top award with the chance of at least
    one in --top-award-rounds rounds: text, CSV (a third table) and JSON, from the exact
    probabilities."""
    import mpmath

    argv = ["report", "--bet", "lucky_six", "--mode", "commission", "--detail"]
    result = analyze(mode="commission", bets=["lucky_six"]).result("lucky_six", "commission")
    three_card = result.lines[1].probability  # 20:1, the top award
    code, out, _ = run(capsys, *argv, "--top-award-rounds", "100")
    assert code == 0
    assert "1 in N" in out and "60.18" in out and "26.85" in out  # 1/p rounded half up
    with mpmath.workdps(50):
        once = 1 - mpmath.power(1 - mpmath.mpf(three_card.numerator) / three_card.denominator, 100)
        shown = mpmath.nstr(once, 10, min_fixed=-10, max_fixed=10)
    assert f"Top award 20:1: 1 in 60.18; at least one in 100 rounds: {shown}" in out
    code, out, _ = run(capsys, *argv, "--format", "json")
    document = json.loads(out)
    assert document["schema"]["version"] == 4
    assert document["options"]["top_award_rounds"] == 100_000_000
    lines = document["lines"]
    assert [Fraction(line["one_in"]) for line in lines[:2]] == [
        1 / line.probability for line in result.lines[:2]
    ]
    assert lines[2]["one_in"] is None and lines[2]["one_in_float"] is None
    assert [line["top_award"] for line in lines] == [False, True, False]
    (top,) = document["top_awards"]
    assert top["pays"] == "20:1" and Fraction(top["probability"]) == three_card
    assert Fraction(top["one_in"]) == 1 / three_card and top["rounds"] == 100_000_000
    assert top["at_least_once"] == "1.00000000000000" and top["at_least_once_float"] == 1.0
    with mpmath.workdps(60):
        never = mpmath.power(1 - mpmath.mpf(three_card.numerator) / three_card.denominator, 10**8)
        assert mpmath.almosteq(mpmath.mpf(top["never"]), never, rel_eps=1e-14)
    code, out, _ = run(capsys, *argv, "--format", "csv")
    tables = out.strip().split("\n\n")
    assert len(tables) == 3
    assert tables[1].splitlines()[0].endswith(",one_in,one_in_float,top_award")
    header, row = tables[2].splitlines()
    assert header.split(",") == list(top) and row.split(",")[:3] == [
        "lucky_six",
        "commission",
        "20:1",
    ]


@pytest.mark.parametrize("rounds", ["0", "1.5", "1e8", "1000000000000000001"])
def test_bad_top_award_rounds_are_refused_in_one_line(capsys, rounds) -> None:
    code, _, err = run(capsys, "report", "--bet", "tie", "--detail", "--top-award-rounds", rounds)
    assert code == 2 and "--top-award-rounds" in err and len(err.strip().splitlines()) == 1


#: Every figure of a bet, by its name in JSON and CSV (exact "p/q"; beside it in %).
FIGURES = ("house_edge", "rtp", "hit_frequency", "push_probability", "edge_per_resolved")


def _check_figures(row: dict, result) -> None:
    """One naming rule for every figure: X is exact, X_percent the same in %."""
    for figure in FIGURES:
        exact = getattr(result, figure)
        assert Fraction(row[figure]) == exact, figure
        assert float(row[f"{figure}_percent"]) == pytest.approx(float(100 * exact), rel=1e-12)
    assert Fraction(row["variance"]) == result.variance
    assert float(row["std_dev"]) == pytest.approx(math.sqrt(result.variance), rel=1e-12)
    assert not [key for key in row if key.endswith("_exact")]


def test_json_and_csv_name_exact_and_float_figures_by_one_rule(capsys) -> None:
    analysis = analyze()
    code, out, _ = run(capsys, "report", "--format", "json")
    assert code == 0
    rows = json.loads(out)["bets"]
    for row in rows:
        _check_figures(row, analysis.result(row["bet"], row["mode"]))
    code, out, _ = run(capsys, "report", "--format", "csv")
    assert code == 0
    csv_rows = list(csv.DictReader(io.StringIO(out)))
    for row in csv_rows:
        mode = analysis.modes[0] if row["mode"] == "all" else row["mode"]
        _check_figures(row, analysis.result(row["bet"], mode))
    assert list(csv_rows[0]) == [key for key in rows[0] if key != "breakdown"]


def test_csv_max_round_is_a_whole_number_or_empty(capsys) -> None:
    """The seed page's max rounds (Player Pair 60, Any Pair 50, Player Bonus 40, ...) as
    whole numbers, and an empty cell for a bet offered every round (not 50.0, nan)."""
    max_rounds = {bet.id: bet.max_round for bet in load_paytable("seed-game").bets}
    assert (max_rounds["player_pair"], max_rounds["any_pair"], max_rounds["tie"]) == (60, 50, None)
    code, out, _ = run(capsys, "report", "--format", "csv", "--detail")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out.split("\n\n")[0])))
    assert {row["bet"]: row["max_round"] for row in rows} == {
        bet: "" if cap is None else str(cap) for bet, cap in max_rounds.items()
    }


def test_the_claim_is_checked_on_the_paytables_own_shoe_only(capsys) -> None:
    """The help page's 98.94% is about a full 8-deck shoe: checked there (--decks 8 is
    that shoe), and on 6 decks or a shoe with cards removed one line says why not."""
    for argv in ([], ["--decks", "8"]):
        code, out, _ = run(capsys, "report", *argv)
        assert code == 0 and out.splitlines()[-1].endswith(": CONFIRMED")
    for argv in (["--decks", "6"], ["--remove", "5H"]):
        code, out, _ = run(capsys, "report", *argv)
        assert code == 0
        assert out.splitlines()[-1] == (
            "Claimed maximum RTP 98.94%: not checked on this shoe (the claim is about the "
            "paytable's own full shoe of 8 decks)"
        )
        assert "CONFIRMED" not in out


def test_report_json_is_one_object_with_the_claims_verdict(capsys) -> None:
    """The help page (seed 000) claims a maximum RTP of 98.94%: JSON carries its check,
    as verify's rows do (claimed, computed, PASS or FAIL), beside the bets."""
    best = analyze(mode="commission", bets=["banker"]).result("banker")
    code, out, _ = run(capsys, "report", "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert set(report) == {
        *("schema", "tool", "paytable", "shoe", "options"),
        *("bets", "unavailable", "max_rtp_claim"),
    }
    assert report["options"]["modes"] == ["commission", "no_commission"]
    claim = report["max_rtp_claim"]
    assert {key: claim[key] for key in ("quantity", "claimed", "computed", "result")} == {
        "quantity": "max_rtp",
        "claimed": "98.94%",
        "computed": "98.94%",
        "result": "PASS",
    }
    assert (claim["bet"], claim["mode"]) == ("banker", "commission")
    assert Fraction(claim["rtp"]) == best.rtp
    code, text, _ = run(capsys, "report")
    assert claim["text"] == text.splitlines()[-1]
    # Not checked on another shoe than the one the claim is about; no claim for one bet.
    code, out, _ = run(capsys, "report", "--format", "json", "--decks", "6")
    claim = json.loads(out)["max_rtp_claim"]
    assert claim["result"] is None and claim["computed"] is None
    assert "not checked on this shoe" in claim["text"]
    code, out, _ = run(capsys, "report", "--format", "json", "--bet", "tie")
    assert json.loads(out)["max_rtp_claim"] is None


def test_report_states_a_jackpot_and_takes_a_meter(tmp_path, capsys) -> None:
    import json

    from helpers import write_paytable

    path = str(
        write_paytable(
            tmp_path,
            """
name = "Progressive"
[[bet]]
id = "progressive"
jackpot = { meter = "10000", contribution = "0.01" }
rule = [{ when = "player_suited_pair and banker_suited_pair", pays = "jackpot" },
        { when = "player_pair", pays = "2:1" }]
""",
        )
    )
    code, out, _ = run(capsys, "report", "--paytable", path)
    assert code == 0 and "progressive jackpot at a meter of 10000 stakes" in out
    assert "breaks even at a meter of" in out and "in the long run" in out
    code, out, _ = run(
        capsys, "report", "--paytable", path, "--jackpot", "20000", "--format", "json"
    )
    record = json.loads(out)["bets"][0]
    assert record["jackpot_meter"] == "20000/1" and record["jackpot_contribution"] == "1/100"
    code, out, err = run(capsys, "report", "--jackpot", "5")
    assert (code, out) == (2, "") and "has no progressive jackpot" in err
    code, out, err = run(capsys, "report", "--paytable", path, "--jackpot", "lots")
    assert code == 2 and "--jackpot" in err and len(err.strip().splitlines()) == 1


def test_a_jackpots_figures_are_columns_of_the_csv(tmp_path, capsys) -> None:
    from helpers import write_paytable

    path = write_paytable(
        tmp_path,
        """
name = "Progressive"
[[bet]]
id = "progressive"
jackpot = { meter = "10000", contribution = "0.01" }
rule = [{ when = "player_suited_pair and banker_suited_pair", pays = "jackpot" }]
""",
    )
    code, out, _ = run(capsys, "report", "--paytable", str(path), "--format", "csv")
    (row,) = csv.DictReader(io.StringIO(out))
    assert code == 0 and row["jackpot_meter"] == "10000/1"
    assert row["jackpot_contribution"] == "1/100" and "{" not in out


# -- --out, and the PAR sheet workbook -------------------------------------------------------


def test_xlsx_writes_the_par_sheet_to_out(tmp_path, capsys) -> None:
    """The workbook itself is checked in tests/reports/test_workbook.py (in LibreOffice):
    here, that the command writes it, whole, to the file named and nothing to stdout."""
    import openpyxl

    from analyzer.analysis.verify import published_max_rtp
    from analyzer.reports.workbook import workbook_bytes

    target = tmp_path / "par.xlsx"
    code, out, err = run(capsys, "report", "--format", "xlsx", "--out", str(target))
    assert (code, out, err) == (0, "", "")
    analysis = analyze()
    claim = published_max_rtp(analysis.paytable)
    assert target.read_bytes() == workbook_bytes(analysis, claimed_max_rtp=claim)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["par.xlsx"]  # no temporary left
    code, _, _ = run(capsys, "report", "--format", "xlsx", "--out", str(target), "--lang", "ms")
    names = openpyxl.load_workbook(target).sheetnames
    assert code == 0 and names[0] == "Ringkasan" and names[-1] == "Volatiliti"


@pytest.mark.parametrize("fmt", ["text", "json", "csv"])
def test_out_writes_what_stdout_shows(tmp_path, capsys, fmt) -> None:
    code, shown, _ = run(capsys, "report", "--bet", "tie", "--format", fmt)
    target = tmp_path / "report.out"
    code, out, err = run(capsys, "report", "--bet", "tie", "--format", fmt, "--out", str(target))
    assert (code, out, err) == (0, "", "")
    assert target.read_text(encoding="utf-8") == shown


def _one_line_error(code: int, out: str, err: str) -> str:
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


@pytest.mark.parametrize("extra", [[], ["--bet", "tie"], ["--out", ""]])
def test_xlsx_without_out_is_refused_in_one_line(capsys, extra) -> None:
    code, out, err = run(capsys, "report", "--format", "xlsx", *extra)
    err = _one_line_error(code, out, err)
    assert "--out" in err
    if not extra or extra[0] == "--bet":
        assert err == (
            "baccarat-odds: error: --format xlsx is a binary format: give --out FILE.xlsx\n"
        )


@pytest.mark.parametrize("terminal", [True, False])
def test_xlsx_on_a_terminal_or_a_pipe_is_refused(terminal) -> None:
    """On a terminal a workbook would be bytes on the screen; into a pipe it is refused
    all the same (a workbook is a file: --out names it), before any work."""
    import os
    import pty
    import subprocess
    import sys

    if terminal:
        reader, writer = pty.openpty()
    else:
        reader, writer = os.pipe()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "analyzer", "report", "--format", "xlsx"],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )
    finally:
        os.close(writer)
    os.set_blocking(reader, False)
    try:
        shown = os.read(reader, 4096)
    except (BlockingIOError, OSError):  # nothing written (a pty reads EIO once closed)
        shown = b""
    os.close(reader)
    assert done.returncode == 2 and shown == b""
    assert done.stderr.count("\n") == 1 and "binary format: give --out FILE.xlsx" in done.stderr


def test_bad_out_is_one_line_and_writes_nothing(tmp_path, capsys) -> None:
    (tmp_path / "folder.xlsx").mkdir()
    cases = [
        (["--format", "xlsx", "--out", "/"], "name a file"),
        (["--format", "xlsx", "--out", str(tmp_path / "missing" / "x.xlsx")], "does not exist"),
        (["--format", "xlsx", "--out", str(tmp_path / "folder.xlsx")], "is a folder"),
        (["--format", "xlsx", "--out", str(tmp_path / "par.txt")], "names text but --format is"),
        (["--format", "xlsx", "--out", str(tmp_path / "par.data")], "name a .xlsx file"),
        (["--out", str(tmp_path)], "is a folder"),
    ]
    for argv, message in cases:
        err = _one_line_error(*run(capsys, "report", "--bet", "tie", *argv))
        assert message in err, (argv, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.xlsx"]


def test_out_in_a_folder_that_takes_no_file_is_one_line(tmp_path, capsys) -> None:
    import os

    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        if os.access(folder, os.W_OK):  # root writes anyway
            pytest.skip("this user writes in read-only folders")
        argv = ["report", "--format", "xlsx", "--out", str(folder / "x.xlsx")]
        err = _one_line_error(*run(capsys, *argv))
        assert "cannot write in" in err
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


def test_a_failure_after_the_work_leaves_no_file(tmp_path, capsys, monkeypatch) -> None:
    """The workbook goes into place only once the command has ended well: an error in
    writing it, or in the standard output after it, leaves no file, not even a part."""
    from analyzer.cli import main
    from analyzer.errors import AnalyzerError
    from analyzer.reports import workbook

    target = tmp_path / "par.xlsx"

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(workbook, "workbook_bytes", lambda *a, **k: b"PK" * 10)
    monkeypatch.setattr("analyzer.files.content_writer", lambda content: broken)
    err = _one_line_error(
        *run(capsys, "report", "--bet", "tie", "--format", "xlsx", "--out", str(target))
    )
    assert "No space left on device" in err and "nothing was written" in err
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()

    def stdout_fails(output, interrupted):
        raise AnalyzerError("cannot write the output: No space left on device")

    monkeypatch.setattr(main, "_write_stdout", stdout_fails)
    argv = ["report", "--bet", "tie", "--format", "xlsx", "--out", str(target)]
    _one_line_error(*run(capsys, *argv))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_report_whose_counts_are_stored_imports_no_numba_nor_pandas(tmp_path) -> None:
    """Issue 21 (a fast start): the second report of a shoe reads its exact counts from
    the store and imports neither Numba nor pandas nor sympy; what it prints is the
    first's, and an emptied store gives the same again."""
    import os
    import subprocess
    import sys

    code = (
        "import contextlib, io, sys\n"
        "from analyzer.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    status = main(['report', '--bet', 'tie', '--decks', '7'])\n"
        "heavy = ('numba', 'pandas', 'sympy', 'scipy', 'matplotlib', 'llvmlite')\n"
        "print(sorted(h for h in heavy if h in sys.modules))\n"
        "print(out.getvalue())\n"
    )
    env = os.environ | {"BACCARAT_ODDS_CACHE": str(tmp_path / "store")}

    def report() -> tuple[str, str]:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        assert done.returncode == 0, done.stderr
        imported, text = done.stdout.split("\n", 1)
        return imported, text

    first_imports, first = report()
    assert "numba" in first_imports  # counted: the enumerator ran
    stored_imports, stored = report()
    assert stored_imports == "[]" and stored == first and "Tie" in stored
    for path in (tmp_path / "store").iterdir():
        path.unlink()
    assert report()[1] == first


def test_a_bet_of_many_dense_rules_is_settled_in_memory_linear_in_its_rules(
    tmp_path, capsys, monkeypatch
) -> None:
    """Hundreds of rules, each over most of the value fields, split the outcome cells into
    about as many groups as there are cells: a dense 0/1 matrix of (rules + conditions) by
    groups grew as their product (1,353 rules: over 1 GB). The settlement holds per group
    each bet's settling rule and each condition as one bit."""
    from analyzer.analysis import columns

    lines = ['name = "Dense"', "[[bet]]", 'id = "dense"', "rule = ["]
    for i in range(400):
        ps, bs, third = i % 10, i // 10 % 10, i // 100 - 1
        when = (
            f"(player_score == {ps} and banker_score == {bs} and player_third == {third})"
            f" or (banker_third == {i % 11 - 1} and player_score + banker_score == {i % 19})"
        )
        lines.append(f'  {{ when = "{when}", pays = "{i % 50 + 1}:1" }},')
    path = tmp_path / "dense.toml"
    path.write_text("\n".join([*lines, "]"]) + "\n")
    held = []
    settle_rows = columns.settle_rows

    def recording(bets, table_columns, n_rows):
        settlement, group = settle_rows(bets, table_columns, n_rows)
        held.append((settlement, sum(len(bet.rules) for bet in bets), len(bets)))
        return settlement, group

    monkeypatch.setattr(columns, "settle_rows", recording)
    code, out, _ = run(capsys, "report", "--paytable", str(path))
    assert code == 0 and "Dense" in out
    (settlement, rules, bets), *_ = held
    arrays = vars(settlement) if hasattr(settlement, "__dict__") else settlement._asdict()
    held_bytes = sum(a.nbytes for a in arrays.values() if isinstance(a, np.ndarray))
    groups = settlement.n_groups
    assert groups > rules  # dense indeed: a dense matrix would hold 8 * 2 * rules * groups
    assert held_bytes <= groups * (8 * bets + rules // 8 + 1)
