"""certify from Python (analyzer.certify): the command's certificate, as a result a notebook
shows; the same figures, verdicts and claims as ``baccarat-odds certify``."""

from __future__ import annotations

import json
import tomllib

import pytest
from helpers import run

import analyzer
from analyzer import AnalyzerError, Certification, certify, load_paytable

PAGE = (
    "# Baccarat\n\nThe game is dealt from 8 decks.\n\n"
    "| Bet | Pays | House edge |\n|---|---|---|\n"
    "| Tie | 8:1 | 14,36 % |\n| Player Pair | 12:1 | 10,36 % |\n\n"
    "A figure alone: 12,5 %.\n"
)


@pytest.fixture
def page(tmp_path):
    path = tmp_path / "help.md"
    path.write_text(PAGE, encoding="utf-8")
    return path


def test_the_same_certificate_as_the_command(capsys, page) -> None:
    certified = certify(page, "seed-game")
    assert isinstance(certified, Certification) and analyzer.certify is certify
    code, out, _ = run(capsys, "certify", str(page), "--paytable", "seed-game", "--format", "json")
    document = json.loads(out)
    assert certified.status == code == document["status"] == 1 and not certified.passed
    frame = certified.to_frame()
    assert list(frame.index) == [row["figure"] for row in document["figures"]]
    for row in document["figures"]:
        ours = frame.loc[row["figure"]]
        for key in ("result", "printed", "value", "bet", "quantity", "computed", "exact"):
            assert ours[key] == row[key], (key, row)
    assert list(certified.failures["printed"]) == ["12:1"]
    assert repr(certified) == (
        "<Certification of help.md against seed-game: 4 passed, 1 failed, 1 unmatched>"
    )
    assert "bet banker (no figure of it)" in certified.omitted


def test_its_claims_are_the_commands_and_verify_reads_them(capsys, page, tmp_path) -> None:
    certified = certify(page, load_paytable("seed-game"))
    text = certified.claims_toml("seed-game")
    claims = tmp_path / "claims.toml"
    code, _, _ = run(
        capsys, "certify", str(page), "--paytable", "seed-game", "--claims-out", str(claims)
    )
    assert code == 1 and claims.read_text(encoding="utf-8") == text
    assert len(tomllib.loads(text)["claim"]) == 5
    assert analyzer.verify(claims).to_frame()["verdict"].tolist().count("FAIL") == 1


def test_truncated_and_a_section(tmp_path) -> None:
    page = tmp_path / "p.md"
    page.write_text(
        "# EZ Baccarat\n\nThe Tie pays 9:1.\n\n# Baccarat\n\nTie house edge 14.35%.\n",
        encoding="utf-8",
    )
    certified = certify(page, "seed-game", rounding="truncate", section="Baccarat")
    assert certified.passed and certified.certificate.section == "Baccarat"
    assert list(certified.to_frame()["verdict"]) == ["UNMATCHED", "PASS"]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda p: certify(p, "no-such-game"), "no-such-game"),
        (lambda p: certify(p.parent / "none.md", "seed-game"), "none.md: no such file"),
        (lambda p: certify(p, "seed-game", rounding="up"), "rounding: 'up' is not one of"),
        (lambda p: certify(3, "seed-game"), "page must be"),
        (lambda p: certify(p, "seed-game", section=3), "section must be"),
        (lambda p: certify(p, "seed-game", section="Nowhere"), "no heading holds 'Nowhere'"),
        (lambda p: certify(p, "seed-game").claims_toml(3), "paytable must be"),
    ],
)
def test_bad_arguments_are_one_line(page, call, message) -> None:
    with pytest.raises(AnalyzerError, match=message) as raised:
        call(page)
    assert "\n" not in str(raised.value)
