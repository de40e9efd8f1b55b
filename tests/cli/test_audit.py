"""``audit``: findings first, a summary, exit 0 (1 with --fail-on-findings); a malformed
log is one line and exit status 2, from the installed command as from the parser."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys

import pytest
from audit_logs import clean_rows, dealt_rows, write_csv
from helpers import run

from analyzer import load_paytable


@pytest.fixture(scope="module")
def rows():
    return clean_rows(load_paytable("seed-game"), 400, seed=13)


def test_a_clean_log_says_no_findings(tmp_path, capsys, rows) -> None:
    path = write_csv(tmp_path / "log.csv", rows)
    code, out, err = run(capsys, "audit", str(path), "--fail-on-findings")
    assert (code, err) == (0, "")
    assert out.startswith("No findings.\n")
    assert f"Audited {len(rows):,} rounds of" in out and ": 0 findings" in out


def test_findings_come_first_and_exit_0_unless_asked(tmp_path, capsys, rows) -> None:
    bad = copy.deepcopy(rows)
    at = next(i for i, row in enumerate(bad) if row["winner"] == "banker")
    bad[at]["pay:banker"] = "0.9"
    path = write_csv(tmp_path / "log.csv", bad)
    code, out, _ = run(capsys, "audit", str(path))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Findings:"
    assert lines[1] == (
        f"  row {at + 1}, shoe {bad[at]['shoe']}, round {bad[at]['round']}: payout: "
        "pay:banker logged 0.9: the paytable settles it +0.95"
    )
    assert ": 1 finding\n" in out and "payout 1" in out
    code, _, _ = run(capsys, "audit", str(path), "--fail-on-findings")
    assert code == 1
    code, out, _ = run(capsys, "audit", str(path), "--format", "json")
    record = json.loads(out)
    assert code == 0 and record["findings_total"] == 1
    assert record["findings"] == [
        {
            "check": "payout",
            "log": None,  # (one log)
            "row": at + 1,
            "shoe": bad[at]["shoe"],
            "round": int(bad[at]["round"]),
            "text": "pay:banker logged 0.9: the paytable settles it +0.95",
        }
    ]
    assert record["rounds"] == len(rows) and "pay:banker:no_commission" in record["payouts_checked"]


def test_decks_option_sets_the_copies_a_shoe_holds(tmp_path, capsys, rows) -> None:
    path = write_csv(tmp_path / "log.csv", rows)
    code, out, _ = run(capsys, "audit", str(path), "--decks", "1", "--format", "json")
    record = json.loads(out)
    assert code == 0 and record["shoe"]["decks"] == 1 and record["counts"]["cards"] > 0
    code, out, _ = run(capsys, "audit", str(path), "--decks", "inf", "--format", "json")
    assert json.loads(out)["counts"]["cards"] == 0 and json.loads(out)["shoe"]["decks"] == "inf"


def test_the_fit_follows_the_findings_in_every_format(tmp_path, capsys, rows) -> None:
    path = write_csv(tmp_path / "log.csv", rows)
    code, out, _ = run(capsys, "audit", str(path))
    assert code == 0
    assert out.index("No findings.") < out.index("Fit to the exact odds")
    assert "at level 0.01, p-values adjusted by Holm's correction" in out
    assert "every test passes" in out and "Calibration of the shoe-aware" in out
    for fmt, marker in (
        ("markdown", "### Fit to the exact odds"),
        ("html", "<h3>Fit to the exact odds</h3>"),
        ("latex", "\\subsection*{Fit to the exact odds}"),
        ("csv", "frequency:outcomes,"),
    ):
        code, out, err = run(capsys, "audit", str(path), "--format", fmt)
        assert (code, err) == (0, "") and marker in out, fmt
    code, out, _ = run(capsys, "audit", str(path), "--format", "json", "--level", "0.05")
    fit = json.loads(out)["fit"]
    assert fit["level"] == 0.05 and fit["correction"] == "holm" and fit["tests_failed"] == 0
    assert {t["verdict"] for t in fit["tests"]} == {"pass"}
    assert fit["shoe_aware_rounds"] == len(rows) and fit["calibration"]
    book = tmp_path / "audit.xlsx"
    code, out, _ = run(capsys, "audit", str(path), "--format", "xlsx", "--out", str(book))
    assert (code, out) == (0, "") and book.read_bytes()[:2] == b"PK"


def test_no_fit_leaves_the_tests_out_and_a_bad_level_is_refused(tmp_path, capsys, rows) -> None:
    path = write_csv(tmp_path / "log.csv", rows)
    code, out, _ = run(capsys, "audit", str(path), "--no-fit")
    assert code == 0 and "Fit to the exact odds" not in out
    code, out, _ = run(capsys, "audit", str(path), "--no-fit", "--format", "json")
    assert "fit" not in json.loads(out)
    for level in ("0", "1", "-0.1", "nan", "x"):
        code, out, err = run(capsys, "audit", str(path), "--level", level)
        assert code == 2 and out == "" and "--level" in err
    code, out, err = run(capsys, "audit", str(path), "--format", "xlsx")
    assert code == 2 and "--out" in err


@pytest.mark.slow
def test_a_log_stacked_for_the_banker_fails_its_tests(tmp_path, capsys) -> None:
    stacked = dealt_rows(load_paytable("seed-game"), 30_000, seed=3, stack=0.03)
    path = write_csv(tmp_path / "log.csv", stacked)
    code, out, _ = run(capsys, "audit", str(path), "--fail-on-findings", "--wide")  # one panel
    assert code == 0 and out.startswith("No findings.\n")
    assert "tests of 12 fail" in out  # no payouts logged: no side bet's test
    for name in ("Banker wins, shoe-aware ", "Banker wins  ", "Banker, Player, tie "):
        line = next(line for line in out.splitlines() if line.startswith(name))
        assert line.endswith(" FAIL"), line


HEADER = "shoe,round,player_cards,banker_cards,pay:banker\n"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty: no header row"),
        ("shoe,round,player_cards\nA,1,9S KH\n", "no column 'banker_cards'"),
        (HEADER + "A,1,9S KH,3S Q,\n", "row 1, column 'banker_cards': unknown card 'Q'"),
        (HEADER + "A,1,9S,3S 4H,\n", "row 1, column 'player_cards': 1 card(s)"),
        (HEADER + "A,1,9S KH,3S 4H,x\n", "row 1, column 'pay:banker': 'x' is not a number"),
        (HEADER + "A,1,9S KH,3S 4H,\nB,1,9S KH,3S 4H,\nA,2,9S KH,3S 4H,\n", "rows out of order"),
        (HEADER + "A,1," + "9S " * 400_000 + ",3S 4H,\n", "line 2: longer than 1 MiB"),
    ],
)
def test_a_malformed_log_is_one_line_exit_2_from_the_installed_command(
    tmp_path, text, message
) -> None:
    path = tmp_path / "log.csv"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "analyzer", "audit", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=os.environ | {"PYTHONWARNINGS": "error"},
    )
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_a_missing_file_and_a_device_are_one_line(tmp_path, capsys) -> None:
    for target, message in (
        (tmp_path / "none.csv", "no such file"),
        ("/dev/zero", "not a regular file"),
    ):
        code, out, err = run(capsys, "audit", str(target))
        assert code == 2 and out == "" and err.count("\n") == 1 and message in err


def test_out_naming_the_log_itself_is_refused_and_the_log_kept(tmp_path, capsys, rows) -> None:
    path = write_csv(tmp_path / "log.csv", rows[:100])
    before = path.read_bytes()
    (tmp_path / "link.txt").symlink_to(path)
    for target in (path, tmp_path / "." / "log.csv", tmp_path / "link.txt"):
        code, out, err = run(capsys, "audit", str(path), "--no-fit", "--out", str(target))
        assert (code, out) == (2, "") and err.count("\n") == 1
        assert "is a log audited" in err
    assert path.read_bytes() == before


def test_several_logs_name_their_log_in_findings(tmp_path, capsys, rows) -> None:
    first = write_csv(tmp_path / "a.csv", rows)
    again = [dict(row, shoe="again") for row in rows if row["shoe"] == "S1"]
    second = write_csv(tmp_path / "b.csv", again)
    code, out, err = run(capsys, "audit", str(first), str(second), "--no-fit")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    columns = ("burn", "player_cards", "banker_cards")
    cards = sum(len(row[column].split()) for row in again for column in columns)
    assert lines[:2] == [
        "Findings:",
        f"  {second}, row 1, shoe again, round 1: repeat: shoe 'again' deals the same "
        f"{cards} cards in the same order as shoe 'S1' (from {first}, row 1)",
    ]
    assert f"Audited {len(rows) + len(again):,} rounds of" in out and " in 2 logs against " in out
    code, out, err = run(capsys, "audit", str(first), str(second), "--out", str(second))
    assert (code, out) == (2, "") and f"is a log audited ({second})" in err


def test_the_outcome_test_shows_its_counts_in_the_order_it_names_them(tmp_path, capsys, rows):
    path = write_csv(tmp_path / "log.csv", rows)
    code, out, _ = run(capsys, "audit", str(path))
    assert code == 0
    winners = [row["winner"] for row in rows]
    counts = "/".join(f"{winners.count(w):,}" for w in ("banker", "player", "tie"))
    line = next(line for line in out.splitlines() if line.startswith("Banker, Player, tie"))
    assert f" {counts} " in line


@pytest.mark.slow
def test_plot_draws_the_fit_beside_the_report(tmp_path, capsys, rows) -> None:
    path = write_csv(tmp_path / "log.csv", rows)
    plot = tmp_path / "fit.png"
    code, out, err = run(capsys, "audit", str(path), "--plot", str(plot))
    assert (code, err) == (0, "") and out.startswith("No findings.")
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    from matplotlib.image import imread

    assert imread(plot).shape[:2] == (825, 1210)  # 11 x 7.5 inches at 110 dpi
    for argv, told in (
        (["--no-fit"], "--plot draws the fit to the exact odds, which --no-fit leaves out"),
        (["--out", str(tmp_path / "fit2.png"), "--plot", str(tmp_path / "fit2.png")], "same"),
        (["--plot", str(tmp_path / "fit.jpg")], "--plot"),
        (["--plot", str(path)], "is a log audited"),
    ):
        before = path.read_bytes()
        extra = argv if "--plot" in argv else [*argv, "--plot", str(tmp_path / "x.png")]
        code, out, err = run(capsys, "audit", str(path), *extra)
        assert (code, out) == (2, "") and err.count("\n") == 1 and told in err, err
        assert path.read_bytes() == before and not (tmp_path / "x.png").exists()
    # A log that happens to end in .png is never drawn over.
    odd = tmp_path / "log.png"
    odd.write_bytes(path.read_bytes())
    code, out, err = run(capsys, "audit", str(odd), "--plot", str(odd))
    assert (code, out) == (2, "") and f"--plot {odd}: is a log audited ({odd})" in err
    assert odd.read_bytes() == path.read_bytes()


# -- Another game of the family ---------------------------------------------------------------

DRAGON_LOG = """\
shoe,round,dragon_cards,tiger_cards,winner,pay:dragon,pay:tie
A,1,KS,4H,dragon,1,-1
A,2,7D,7C,tie,-0.5,8
A,3,2C 3C,9H,tiger,-1,-1
A,4,QH,JD,tiger,-1,-1
"""


def test_a_dragon_tiger_log_is_checked_as_the_game_deals_and_scores(tmp_path, capsys) -> None:
    path = tmp_path / "dragon.csv"
    path.write_text(DRAGON_LOG, encoding="utf-8")
    code, out, err = run(capsys, "audit", str(path), "--paytable", "dragon-tiger", "--no-fit")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "Findings:",
        "  row 3, shoe A, round 3: deal: the Dragon holds 2 cards: Dragon Tiger deals it 1",
        "  row 4, shoe A, round 4: winner: winner logged tiger: the cards make it dragon "
        "(12 to 11)",
        "  row 4, shoe A, round 4: payout: pay:dragon logged -1: the paytable settles it +1",
        "",
        "Audited 4 rounds of 1 shoe against Dragon Tiger (8 decks): 3 findings",
        "  by check: deal 1, score 0, winner 1, cards 0, order 0, burn 0, payout 1, repeat 0",
        "  payouts checked: pay:dragon, pay:tie",
    ]
    code, out, err = run(
        capsys, "audit", str(path), "--paytable", "dragon-tiger", "--fail-on-findings"
    )
    assert code == 1 and "Dragon, Tiger, tie" in out and "Dragon wins, shoe-aware" in out
    # A log of punto banco read against the game (and the other way round) lacks columns.
    code, out, err = run(capsys, "audit", str(path), "--no-fit")
    assert (code, out) == (2, "") and "header: no column 'player_cards'" in err


@pytest.mark.parametrize(
    ("paytable", "text", "message"),
    [
        (
            "dragon-tiger",
            "shoe,round,dragon_cards,tiger_cards,winner\nA,1,KS,4H,player\n",
            "'player' is not a winner (dragon, tiger, tie)",
        ),
        (
            "lucky-draw-baccarat-1",
            "shoe,round,player_cards,dealer_cards,action\nA,1,KS 2H,4H 5D,hit\n",
            "'hit' is not an action (stand, draw)",
        ),
    ],
)
def test_a_malformed_game_log_is_one_line_exit_2(tmp_path, paytable, text, message) -> None:
    path = tmp_path / "log.csv"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "analyzer", "audit", str(path), "--paytable", paytable],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=os.environ | {"PYTHONWARNINGS": "error"},
    )
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


def test_a_lucky_draw_log_says_which_tests_it_leaves_out(tmp_path, capsys) -> None:
    from game_audit_logs import simulated_rows

    path = write_csv(tmp_path / "lucky.csv", simulated_rows("lucky-draw-baccarat-1", 2, seed=3))
    plot = tmp_path / "fit.png"
    argv = ["audit", str(path), "--paytable", "lucky-draw-baccarat-1", "--plot", str(plot)]
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, "") and out.startswith("No findings.\n")
    assert "by check: deal 0, draw 0, action 0, score 0, winner 0" in out
    assert "each round against its exact chances given the cards the player saw" in out
    assert "runs and serial correlation left out" in out and "shoe-aware test left out" not in out
    assert "Calibration" in out and plot.read_bytes()[:4] == b"\x89PNG"
    code, out, err = run(capsys, *argv[:4], "--format", "json", "--no-fit")
    document = json.loads(out)
    assert document["schema"]["version"] == 4
    assert document["options"]["game"] == "Lucky Draw Baccarat"
    assert document["options"]["drawing_rules"] is None
    assert list(document["counts"]) == [
        "deal", "draw", "action", "score", "winner", "cards", "order", "burn", "payout", "repeat",
    ]  # fmt: skip


def test_shuffle_tests_come_after_the_audit_in_text_and_json(tmp_path, capsys) -> None:
    log = tmp_path / "riffled.csv"
    code, _, err = run(
        capsys, "simulate", "--shoes", "12", "--seed", "3", "--shuffle", "riffle:1",
        "--log", str(log), "--no-progress",
    )  # fmt: skip
    assert (code, err) == (0, "")
    code, out, err = run(capsys, "audit", str(log), "--no-fit", "--shuffle-tests")
    assert (code, err) == (0, "") and out.startswith("No findings.\n")
    assert "Fit to the exact odds" not in out
    shown = " ".join(out[out.index("Shuffle tests") :].split())
    assert "3 tests at level 0.01" in shown and "12 shoes, 11 consecutive pairs" in shown
    assert "adjacent" in shown and "FAIL" in shown and "would catch a weak riffle" in shown
    code, out, _ = run(capsys, "audit", str(log), "--no-fit", "--shuffle-tests", "--format", "json")
    document = json.loads(out)
    assert document["options"]["shuffle_tests"] is True
    tested = document["shuffle_tests"]
    assert (tested["shoes"], tested["pairs"], tested["tests_run"]) == (12, 11, 3)
    verdicts = {t["test"]: t["verdict"] for t in tested["tests"]}
    assert verdicts["adjacent"] == "FAIL" and verdicts["first_last"] == "FAIL"
    # not asked: not run, not in the JSON
    code, out, _ = run(capsys, "audit", str(log), "--no-fit", "--format", "json")
    document = json.loads(out)
    assert document["options"]["shuffle_tests"] is False and "shuffle_tests" not in document
    assert "Shuffle tests" not in run(capsys, "audit", str(log), "--no-fit")[1]


def test_shuffle_tests_refuse_another_games_log(tmp_path, capsys) -> None:
    from game_audit_logs import simulated_rows

    path = write_csv(tmp_path / "dragon.csv", simulated_rows("dragon-tiger", 2, seed=3))
    argv = ["audit", str(path), "--paytable", "dragon-tiger", "--shuffle-tests"]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "--shuffle-tests reads punto banco logs" in err
