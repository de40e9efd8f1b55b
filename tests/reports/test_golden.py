"""Every command's output in every format it writes, byte for byte as it was when the
outputs were captured (``tests/data/golden/``): the document model and its writers
(:mod:`analyzer.reports.document`, :mod:`analyzer.reports.writers`) took the place of
each command composing its own output, and must not change a byte of what users read.

The outputs ``eor`` and ``count`` gained with the model (HTML, LaTeX, the workbook; CSV
and Markdown for ``count``) were captured when they were added. An output meant to change
is captured again with ``BACCARAT_ODDS_UPDATE_GOLDEN=1`` (then read the diff: every change
is one a user sees)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import run

from analyzer.reports import formats
from analyzer.version import package_version

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
UPDATE = os.environ.get("BACCARAT_ODDS_UPDATE_GOLDEN") == "1"

TEXT = ("text", "markdown", "csv", "html", "latex", "json")
#: A log of 162 rounds of two shoes (tests/audit_logs.py, seed 21) with a payout and a
#: score logged wrong.
AUDIT_LOG = str(GOLDEN.parent / "audit-log.csv")
RUN = ("--no-progress", "--workers", "1")

#: name -> (argv, formats). Small shoes and runs: the whole file takes some seconds.
CASES: dict[str, tuple[list[str], tuple[str, ...]]] = {
    "report": (["report"], ("text", "markdown", "csv", "json")),
    "report-tl": (["report", "--lang", "tl"], ("text", "markdown", "json")),
    "report-decks-1": (["report", "--decks", "1"], TEXT),
    "report-tie-detail": (["report", "--bet", "tie", "--detail"], (*TEXT, "xlsx")),
    "report-detail-ms": (
        ["report", "--bet", "player_bonus", "--bet", "banker", "--detail", "--lang", "ms"],
        TEXT,
    ),
    "report-majestic-match": (
        ["report", "--paytable", "majestic-match", "--decks", "1", "--detail"],
        ("text", "markdown", "csv", "json"),
    ),
    "report-multiplied": (
        [
            "report",
            "--paytable",
            "golden-wealth-baccarat",
            "--unknowns",
            "a=1/10,b=1/20,c=1/50",
            "--bet",
            "tie",
            "--bet",
            "banker",
            "--detail",
        ],
        TEXT,
    ),
    "report-other-rules": (
        ["report", "--paytable", "chemin-de-fer", "--decks", "inf"],
        ("text", "json"),
    ),
    "play": (["play", "2S", "3H", "2D", "KC", "8H"], ("text", "json")),
    "play-multiplied": (
        [
            *("play", "7S", "3H", "2D", "KC", "--paytable", "golden-wealth-baccarat"),
            *("--unknowns", "a=1/10,b=1/20,c=1/50", "--special", "7S=3,KC=2,3H=5,2D=2,AS=8"),
        ],
        ("text", "json"),
    ),
    "play-lightning": (
        ["play", "5S", "5S", "--paytable", "lightning-dragon-tiger", "--special", "S=3"],
        ("text", "json"),
    ),
    "play-decision": (
        [
            *("play", "5S", "3H", "KD", "KC", "9H", "--paytable", "baccarat-gold"),
            *("--strategy", "player:5=stand"),
        ],
        ("text", "json"),
    ),
    "eor": (["eor", "--decks", "1", "--bet", "tie", "--bet", "banker"], (*TEXT, "xlsx")),
    "eor-by-card": (
        ["eor", "--decks", "1", "--bet", "tie", "--by-card"],
        ("text", "markdown", "csv", "json"),
    ),
    "verify": (["verify", "seed-game"], ("text", "json", "csv")),
    "audit": (["audit", AUDIT_LOG], (*TEXT, "xlsx")),
    "simulate": (["simulate", "--shoes", "2", "--seed", "1", *RUN], ("text", "json")),
    "count-one-bet": (
        ["count", "--bet", "lucky_six", "--shoes", "2", "--perfect", *RUN],
        (*TEXT, "xlsx"),
    ),
    "count-bets": (
        ["count", "--bet", "tie", "--bet", "lucky_six", "--shoes", "2", *RUN],
        ("text", "markdown", "csv", "json"),
    ),
    # A small help page committed beside the goldens (tests/data/certify-page.html: a table,
    # a list, running text, alt text, hidden content, a figure tied to nothing), read from
    # its folder so that the certificate names it as the user gave it.
    "certify": (
        ["certify", "certify-page.html", "--paytable", "seed-game"],
        ("text", "json", "html"),
    ),
}
#: Commands whose output names the tool's version: captured as VERSION, so that a release
#: does not change them.
VERSIONED = ("certify",)

EXTENSIONS = {**formats.EXTENSIONS, "xlsx": "xlsx"}

PARAMS = [(name, fmt) for name, (_, formats) in CASES.items() for fmt in formats]


def produce(capsys, tmp_path: Path, name: str, fmt: str) -> bytes:
    """What the command writes in ``fmt``: standard output, or the --out file."""
    argv, _ = CASES[name]
    argv = [*argv, "--format", fmt]
    if argv[0] in ("simulate", "count"):
        argv += ["--work-dir", str(tmp_path / "runs")]
    out_file = tmp_path / f"out.{EXTENSIONS[fmt]}"
    if fmt == "xlsx":  # (count's --out is its per-round statistics)
        argv += ["--report-out" if argv[0] == "count" else "--out", str(out_file)]
    if argv[0] == "certify":
        folder = os.getcwd()
        os.chdir(GOLDEN.parent)
        try:
            code, out, err = run(capsys, *argv)
        finally:
            os.chdir(folder)
    else:
        code, out, err = run(capsys, *argv)
    assert code == 0, err
    if argv[0] in VERSIONED:
        version = package_version()
        out = out.replace(f"baccarat-odds {version}", "baccarat-odds VERSION")
        out = out.replace(f'"version": "{version}"', '"version": "VERSION"')
    if fmt == "xlsx":
        assert out == ""
        return out_file.read_bytes()
    return out.encode("utf-8")


@pytest.mark.parametrize(("name", "fmt"), PARAMS, ids=[f"{n}-{f}" for n, f in PARAMS])
def test_output_is_as_captured(capsys, tmp_path, name, fmt) -> None:
    path = GOLDEN / f"{name}.{EXTENSIONS[fmt]}"
    made = produce(capsys, tmp_path, name, fmt)
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(made)
    expected = path.read_bytes()
    if fmt != "xlsx":
        assert made.decode("utf-8") == expected.decode("utf-8")
    assert made == expected
