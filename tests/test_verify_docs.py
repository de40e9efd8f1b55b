"""``verify`` against claims files, and the documentation tables in every format and language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run

ROOT = Path(__file__).resolve().parents[1]
CLAIMS = ROOT / "analyzer" / "paytables" / "shipped" / "claims"


@pytest.mark.parametrize("name", ["seed-game", "seed-game-ms"])
def test_shipped_claims_pass(capsys, name) -> None:
    code, out, _ = run(capsys, "verify", str(CLAIMS / f"{name}.toml"), "--format", "json")
    assert code == 0, out
    rows = json.loads(out)
    assert rows and all(row["result"] == "PASS" for row in rows)
    assert any(row["quantity"] == "max_rtp" and row["claimed"] == "98.94%" for row in rows)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "claims.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_wrong_figures_fail_with_status_1(tmp_path, capsys) -> None:
    path = write(
        tmp_path,
        """
paytable = "seed-game"
[[claim]]
quantity = "max_rtp"
value = "98.95%"
[[claim]]
bet = "tie"
quantity = "house_edge"
value = "14.36%"
[[claim]]
bet = "lucky_six"
quantity = "payouts"
value = ["12:1", "23:1"]
[[claim]]
bet = "player_pair"
quantity = "max_round"
value = 50
[[claim]]
bet = "banker"
mode = "commission"
quantity = "rtp"
value = "98.94%"
rounding = "truncate"
""",
    )
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 1
    # Tie's 14.3596% prints as 14.36%, Banker's 98.9421% truncates to 98.94%: those pass.
    assert "2 passed, 3 failed" in out
    assert (
        "FAIL claim 1: max_rtp of (game) (seed-game) is 98.94% (banker, commission), "
        "published 98.95%" in out
    )
    assert "FAIL claim 3: payouts of lucky_six" in out
    assert "FAIL claim 4: max_round of player_pair (seed-game) is 60, published 50" in out


def test_mode_must_be_named_when_it_matters(tmp_path, capsys) -> None:
    path = write(
        tmp_path,
        'paytable = "seed-game"\n[[claim]]\nbet = "banker"\n'
        'quantity = "house_edge"\nvalue = "1.06%"\n',
    )
    code, _, err = run(capsys, "verify", str(path))
    assert code == 2 and "claim 1: house_edge of 'banker' differs by mode" in err


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('[[claim]]\nquantity = "max_rtp"\nvalue = "98.94%"\n', "claim 1: name its 'paytable'"),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "rtp_max"\nvalue = "1%"\n',
            "claim 1: 'quantity' must be one of",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "max_rtp"\nvalue = 98.94\n',
            "claim 1: value must be printed as a string",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nbet = "nope"\nquantity = "rtp"\nvalue = "1%"\n',
            "claim 1: unknown bet 'nope'",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "rtp"\nvalue = "1%"\n',
            "claim 1: quantity 'rtp' needs a 'bet'",
        ),
        (
            'paytable = "nowhere"\n[[claim]]\nquantity = "max_rtp"\nvalue = "1%"\n',
            "unknown paytable 'nowhere'",
        ),
        ('paytable = "seed-game"\n', "needs at least one [[claim]]"),
        ("[[claim\n", "invalid TOML"),
    ],
)
def test_bad_claims_files(tmp_path, capsys, body, message) -> None:
    code, out, err = run(capsys, "verify", str(write(tmp_path, body)))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_every_format_and_language_renders(capsys) -> None:
    for fmt in ("text", "markdown", "csv", "html", "latex", "json"):
        for lang, name in (
            ("en", "Banker Pair"),
            ("tl", "Pares ng Banker"),
            ("ms", "Pasangan Banker"),
        ):
            code, out, _ = run(
                capsys,
                "report",
                "--format",
                fmt,
                "--lang",
                lang,
                "--bet",
                "banker_pair",
                "--detail",
            )
            assert code == 0 and name in out, (fmt, lang)
    code, out, _ = run(capsys, "report", "--lang", "ms", "--mode", "commission")
    assert "Jenis Pertaruhan" in out and "Had Pusingan Maks" in out and "Tuah Enam" in out


def test_docs_tables_are_up_to_date(tmp_path, capsys) -> None:
    assert run(capsys, "docs", "--out", str(tmp_path))[0] == 0
    shipped = ROOT / "data" / "tables" / "seed-game"
    generated = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert generated == sorted(p.relative_to(shipped) for p in shipped.rglob("*") if p.is_file())
    for relative in generated:
        assert (tmp_path / relative).read_text(encoding="utf-8") == (shipped / relative).read_text(
            encoding="utf-8"
        ), (
            f"data/tables/seed-game/{relative} is out of date: run "
            "`baccarat-odds docs --out data/tables/seed-game`"
        )


def test_docs_refuses_a_file_as_folder(tmp_path, capsys) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    code, _, err = run(capsys, "docs", "--out", str(target))
    assert code == 2 and "is not a folder" in err
    assert target.read_text() == "x"
