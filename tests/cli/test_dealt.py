"""``dealt``: the round-average RTP over shoes as dealt, sampled and exact, from the command
line; the options it refuses in one line before any work; a resumed run."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import run

TINY = str(Path(__file__).resolve().parents[1] / "data" / "tiny-shoe.csv")


#: Chemin de fer with the Player's 5 drawn half the time: its rounds decided at random.
MIXED = ["--paytable", "chemin-de-fer", "--strategy", "player:5=1/2", "--bet", "player"]


def quiet(work) -> list[str]:
    return ["--no-progress", "--work-dir", str(work), "--workers", "1"]


def test_exact_json_is_fractions_and_matches_the_python_api(capsys) -> None:
    from analyzer.paytables.library import as_paytable
    from analyzer.runs.as_dealt import DealRule, DealtJob, exact_as_dealt

    argv = ["dealt", "--exact", "--shoe", TINY, "--cut-card", "6", "--bet", "tie"]
    code, out, err = run(capsys, *argv, "--format", "json")
    assert (code, err) == (0, "")
    row = json.loads(out)["bets"][0]
    assert row["shoes"] is None and row["with_limit"]["rtp_se"] is None
    counts = (3, 0, 0, 0, 1, 0, 0, 3, 2, 0, 0, 0, 3)
    job = DealtJob(as_paytable("seed-game"), (("tie", "commission"),), counts, DealRule(6))
    want = exact_as_dealt(job)[0]
    assert Fraction(row["with_limit"]["rtp"]) == want["with_limit"]["rtp"]
    assert Fraction(row["rtp_off_the_top"]) == want["rtp_off_the_top"]
    assert Fraction(row["with_limit"]["difference"]) == (
        want["with_limit"]["rtp"] - want["rtp_off_the_top"]
    )


def test_a_sampled_run_resumes_to_the_same_figures(tmp_path, capsys) -> None:
    argv = ["dealt", "--shoes", "6", "--partition-size", "2", "--bet", "tie", "--format", "json"]
    code, first, _ = run(capsys, *argv, *quiet(tmp_path))
    assert code == 0
    code, again, _ = run(capsys, *argv, *quiet(tmp_path), "--resume")
    assert code == 0 and json.loads(again)["bets"] == json.loads(first)["bets"]
    row = json.loads(first)["bets"][0]
    assert row["shoes"] == 6 and row["with_limit"]["rtp_low"] < row["with_limit"]["rtp_high"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--exact", "--shoes", "5"], "give --shoes N (sampled) or --exact, one of them"),
        ([], "give --shoes N (sampled) or --exact, one of them"),
        (["--exact"], "can be dealt down to 5,987,081,487,851,937 compositions by point value"),
        (["--exact", "--decks", "2"], "12,784,876,137 compositions by point value"),
        (["--shoes", "2", "--cut-card", "416"], "--cut-card must leave 0 to 415 cards"),
        (["--shoes", "2", "--cut-card", "-3"], "--cut-card"),
        (["--exact", "--shoe", TINY], "--cut-card must leave 0 to 11 cards"),
        (["--shoes", "2", "--burn", "-1"], "--burn must be by-value, none or a number"),
        (["--shoes", "2", "--burn", "99"], "--burn must be by-value, none or a number"),
        (["--shoes", "2", "--decks", "inf"], "an infinite deck has no shoe to deal"),
        (
            ["--exact", "--shoe", TINY, "--cut-card", "6", "--bet", "perfect_pair"],
            "is a bet on suits",
        ),
        (["--shoes", "2", "--shoe", TINY, "--decks", "2"], "give --decks or --shoe, not both"),
        (["--shoes", "10000", "--partition-size", "10000", "--decks", "27"], "MB of memory"),
        (
            ["--shoes", "300", "--paytable", "lucky-draw-baccarat-1"],
            "dealt solves each round's best play on its cards",
        ),
        (["--shoes", "2", "--paytable", "peek-baccarat"], "unknowns (s1, s2, s3)"),
        (
            [
                *("--exact", "--shoe", TINY, "--cut-card", "6"),
                "--paytable",
                "lucky-draw-baccarat-1",
            ],
            "sample it",
        ),
        (["--shoes", "2", "--paytable", "lightning-dragon-tiger"], "--unknowns"),
        # Punto banco with multipliers on unknowns: once a TypeError deep in the pricing.
        (["--shoes", "2", "--paytable", "golden-wealth-baccarat"], "unknowns (a, b, c)"),
        (["--exact", "--shoe", TINY, "--paytable", "golden-wealth-baccarat"], "unknowns (a, b, c)"),
        (
            [
                *("--exact", "--shoe", TINY, "--paytable", "dragon-tiger"),
                "--cut-card",
                "1",
                "--bet",
                "tie",
            ],
            "a round can start with 2 cards left",
        ),
        ([*("--exact", "--shoe", TINY, "--cut-card", "6"), *MIXED], "pure strategies only"),
        # --strategy best on a game without decision cells: once an AttributeError (--remove).
        (["--shoes", "2", "--paytable", "dragon-tiger", "--strategy", "best"], "nothing to decide"),
    ],
)
def test_hostile_options_are_refused_in_one_line_before_any_work(
    tmp_path, capsys, argv, message
) -> None:
    work = tmp_path / "w"
    # (--exact takes none of the sampled runs' options: --work-dir would be refused.)
    options = ["--no-progress"] if "--exact" in argv and "--shoes" not in argv else quiet(work)
    code, out, err = run(capsys, "dealt", *argv, *options)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and message in err, err
    assert "Traceback" not in err
    assert not work.exists()


def test_a_huge_shoe_file_is_refused_before_any_work(tmp_path, capsys) -> None:
    shoe = tmp_path / "huge.csv"
    shoe.write_text("rank,count\n" + "".join(f"{r},110\n" for r in "A23456789TJQK"))
    work = tmp_path / "w"
    sampled = ["--shoes", "10000", "--partition-size", "10000", "--shoe", str(shoe)]
    code, _, err = run(capsys, "dealt", *sampled, *quiet(work))
    assert code == 2 and "MB of memory" in err and not work.exists()
    code, _, err = run(capsys, "dealt", "--exact", "--shoe", str(shoe), *quiet(work))
    assert code == 2 and "compositions by point value" in err and not work.exists()


def test_a_shoe_by_rank_leaves_the_bets_on_suits_out(tmp_path, capsys) -> None:
    argv = ["dealt", "--exact", "--shoe", TINY, "--cut-card", "6", "--mode", "commission"]
    code, out, err = run(capsys, *argv, "--format", "json")
    assert code == 0
    assert "note: a shoe by rank does not price bets on suits: left out perfect_pair" in err
    bets = [row["bet"] for row in json.loads(out)["bets"]]
    assert "perfect_pair" not in bets and "tie" in bets


def test_a_mixed_strategy_is_dealt_with_random_decisions(tmp_path, capsys) -> None:
    argv = ["dealt", "--shoes", "40", "--decks", "1", *MIXED, "--format", "json"]
    code, out, err = run(capsys, *argv, *quiet(tmp_path))
    assert code == 0, err
    row = json.loads(out)["bets"][0]
    assert row["shoes"] == 40 and 0.9 < row["without_limit"]["rtp"] < 1.1


@pytest.mark.parametrize(
    ("paytable", "extra"),
    [
        ("dragon-tiger-pragmatic", []),
        ("three-card-baccarat", []),
        ("lightning-dragon-tiger", ["--unknowns", "p3=1/8,p5=1/60,p8=3/32"]),
    ],
)
def test_a_family_game_off_the_top_is_reports_rtp(tmp_path, capsys, paytable, extra) -> None:
    """Dragon Tiger, Three Card Baccarat and Lightning Dragon Tiger are dealt; the figure
    off the top is report's RTP of every bet, exactly."""
    argv = ["--paytable", paytable, *extra, "--format", "json"]
    code, out, err = run(capsys, "dealt", "--shoes", "3", *argv, *quiet(tmp_path))
    assert (code, err) == (0, "")
    dealt_rows = json.loads(out)["bets"]
    code, out, _ = run(capsys, "report", *argv)
    assert code == 0
    reported = {(row["bet"], row["mode"]): row["rtp"] for row in json.loads(out)["bets"]}
    assert len(dealt_rows) == len(reported) > 3
    for row in dealt_rows:
        assert Fraction(row["rtp_off_the_top"]) == Fraction(reported[(row["bet"], row["mode"])])
        assert row["shoes"] == 3 and row["with_limit"]["rtp_se"] is not None


def test_strategy_best_is_solved_on_the_shoe_dealt(capsys) -> None:
    """dealt takes --shoe but no --remove: --strategy best once ended in an AttributeError."""
    argv = ["dealt", "--exact", "--shoe", TINY, "--cut-card", "6", "--paytable", "chemin-de-fer"]
    code, out, err = run(capsys, *argv, "--strategy", "best", "--bet", "player", "--no-progress")
    assert code == 0 and "Traceback" not in err
    assert "strategy best: player:5=" in err and "Chemin de fer: 12 cards" in out


@pytest.mark.parametrize(
    ("paytable", "option", "message"),
    [
        ("seed-game", ["--seed", "5"], "--seed is for sampled runs"),
        ("seed-game", ["--partition-size", "3"], "--partition-size is for sampled runs"),
        ("seed-game", ["--workers", "2"], "--workers is for sampled runs"),
        ("seed-game", ["--scheduler", "tcp://127.0.0.1:1"], "--scheduler is for sampled runs"),
        ("seed-game", ["--resume"], "kept only in a --work-dir"),
        ("dragon-tiger", ["--work-dir", "{work}"], "--work-dir is for sampled runs"),
        ("dragon-tiger", ["--resume"], "--resume is for sampled runs"),
    ],
)
def test_exact_refuses_the_options_of_sampled_runs(
    tmp_path, capsys, paytable, option, message
) -> None:
    """--exact deals no shoes: these options were once ignored without a word (punto
    banco's --exact keeps its passes in --work-dir; a game of the family's keeps none)."""
    work = tmp_path / "w"
    option = [o.format(work=work) for o in option]
    argv = ["dealt", "--exact", "--shoe", TINY, "--cut-card", "6", "--bet", "tie", *option]
    code, out, err = run(capsys, *argv, "--paytable", paytable, "--no-progress")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and message in err, err
    assert not work.exists()


def test_exact_keeps_its_passes_in_the_work_dir_and_resumes_from_them(tmp_path, capsys) -> None:
    work = tmp_path / "w"
    argv = ["dealt", "--exact", "--shoe", TINY, "--cut-card", "6", "--bet", "tie", "--no-progress"]
    code, first, _ = run(capsys, *argv, "--work-dir", str(work))
    assert code == 0 and any(work.rglob("*")), "no pass kept"
    code, again, _ = run(capsys, *argv, "--work-dir", str(work), "--resume")
    assert code == 0 and again == first


def test_a_large_exact_run_is_kept_in_the_cache_without_a_work_dir(
    tmp_path, capsys, monkeypatch
) -> None:
    """Without --work-dir, a shoe of minutes of passes keeps them where a sampled run's
    partitions go (the user's cache), and --resume reads them there; a small one keeps
    nothing. (The threshold is lowered: one deck's pass is the real case.)"""
    import analyzer.engine.dealt_exact as kernels
    import analyzer.runs.as_dealt as as_dealt

    monkeypatch.setenv("BACCARAT_ODDS_CACHE", str(tmp_path))
    argv = ["dealt", "--exact", "--shoe", TINY, "--cut-card", "6", "--bet", "tie", "--no-progress"]
    code, small, _ = run(capsys, *argv)
    assert code == 0 and not (tmp_path / "runs").exists()
    monkeypatch.setattr(as_dealt, "KEEP_EXACT_ABOVE", 0)
    code, first, _ = run(capsys, *argv)
    assert code == 0 and first == small
    (kept,) = (tmp_path / "runs").glob("dealt-exact-*")
    assert list(kept.glob("prime-*.npz"))

    def no_pass(*_args, **_kwargs):
        raise AssertionError("a kept pass was dealt again")

    monkeypatch.setattr(kernels, "deal_pass", no_pass)
    code, again, _ = run(capsys, *argv, "--resume")
    assert code == 0 and again == first


def test_one_shoe_is_said_in_the_singular(tmp_path, capsys) -> None:
    argv = ["dealt", "--paytable", "dragon-tiger", "--decks", "1", "--shoes", "1", "--bet", "tie"]
    code, out, _ = run(capsys, *argv, *quiet(tmp_path))
    assert code == 0 and "; 1 shoe, seed 0;" in out.replace("\n", " "), out


def test_an_interrupted_exact_run_resumes_as_the_user_runs_it(tmp_path, capsys, monkeypatch):
    """Ctrl-C in the middle of --exact's pass keeps it in --work-dir (said in one line,
    exit 130); cache list shows the kept pass; the installed command's --resume deals the
    rows left and prints what an uninterrupted run prints; cache remove clears it."""
    import signal
    import subprocess
    import sys

    import analyzer.engine.dealt_exact as kernels
    import analyzer.runs.as_dealt as as_dealt

    bets = ["--bet", "banker", "--bet", "tie", "--bet", "player_pair"]
    argv = ["dealt", "--exact", "--shoe", TINY, "--cut-card", "6", *bets, "--no-progress"]
    code, whole, _ = run(capsys, *argv)
    assert code == 0
    monkeypatch.setattr(kernels, "_ROWS_AT_ONCE", 5)
    monkeypatch.setattr(as_dealt, "CHECKPOINT_SECONDS", 0)
    real, calls = kernels._deal_jit, []

    def ctrl_c_in_the_third_block(*args):
        calls.append(args[-2] - args[-1])
        if len(calls) == 3:
            signal.raise_signal(signal.SIGINT)  # lands as the kernel's block is dealt
        return real(*args)

    monkeypatch.setattr(kernels, "_deal_jit", ctrl_c_in_the_third_block)
    work = tmp_path / "work"
    code, out, err = run(capsys, *argv, "--work-dir", str(work))
    assert (code, out) == (130, "") and err.count("\n") == 1, err
    assert "interrupted: pass 1 of 1: 15 of its 96 rows are kept in" in err
    assert err.rstrip().endswith("run the same command with --resume to go on")
    (kept,) = work.glob("dealt-exact-*/pass-*.checkpoint.npz")

    code, listed, _ = run(capsys, "cache", "list", "--work-dir", str(work), "--format", "json")
    (row,) = json.loads(listed)["runs"]
    assert (row["command"], row["partitions"], row["saved_partitions"]) == ("dealt --exact", 1, 0)
    assert row["bytes"] >= kept.stat().st_size and row["id"] == kept.parent.name

    installed = Path(sys.executable).with_name("baccarat-odds")
    done = subprocess.run(
        [str(installed), *argv, "--work-dir", str(work), "--resume"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout == whole
    assert not kept.exists() and list(kept.parent.glob("prime-*.npz"))
    code, out, _ = run(capsys, "cache", "remove", row["id"], "--work-dir", str(work))
    assert code == 0 and out.startswith("removed 1 kept run(s)") and not kept.parent.exists()


def test_an_exact_run_refuses_a_work_dir_it_cannot_use_in_one_line(tmp_path, capsys) -> None:
    """Once a traceback (the folder was made outside any check); now one line before any
    work."""
    (tmp_path / "a-file").write_text("")
    argv = ["dealt", "--exact", "--shoe", TINY, "--cut-card", "6", "--bet", "tie"]
    code, out, err = run(
        capsys, *argv, "--no-progress", "--work-dir", str(tmp_path / "a-file" / "w")
    )
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "cannot use it as a run folder: Not a directory" in err and "Traceback" not in err
