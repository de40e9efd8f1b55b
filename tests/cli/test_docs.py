"""``docs``: every table of a paytable, and the shipped tables kept up to date."""

from __future__ import annotations

from pathlib import Path

from helpers import run

ROOT = Path(__file__).resolve().parents[2]


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
