"""``docs``: every table of a paytable, and the shipped tables kept up to date."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from helpers import HEAD, run, write_paytable

from analyzer.reports.plots import MAX_CHART_BETS

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_docs_tables_are_up_to_date(tmp_path, capsys) -> None:
    assert run(capsys, "docs", "--out", str(tmp_path))[0] == 0
    shipped = ROOT / "data" / "tables" / "seed-game"
    generated = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert generated == sorted(p.relative_to(shipped) for p in shipped.rglob("*") if p.is_file())
    for relative in generated:
        stale = (
            f"data/tables/seed-game/{relative} is out of date: run "
            "`baccarat-odds docs --out data/tables/seed-game`"
        )
        if relative.suffix == ".xlsx":  # a workbook: the same cells (another XlsxWriter
            # may lay out the same workbook in other bytes)
            assert workbook_cells(tmp_path / relative) == workbook_cells(shipped / relative), stale
            continue
        assert (tmp_path / relative).read_text(encoding="utf-8") == (shipped / relative).read_text(
            encoding="utf-8"
        ), stale


def workbook_cells(path: Path) -> dict[str, list[tuple]]:
    """Every sheet's cells (formulas as written), and their display formats."""
    import openpyxl

    book = openpyxl.load_workbook(path)
    return {
        sheet.title: [
            tuple((cell.value, cell.number_format) for cell in row) for row in sheet.iter_rows()
        ]
        for sheet in book.worksheets
    }


def test_docs_refuses_a_file_as_folder(tmp_path, capsys) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    code, _, err = run(capsys, "docs", "--out", str(target))
    assert code == 2 and "is not a folder" in err
    assert target.read_text() == "x"


def test_site_of_named_paytables(tmp_path, capsys) -> None:
    table = tmp_path / "My Game.toml"
    table.write_text(
        'name = "Mine"\nmodes = ["m"]\n[[bet]]\nid = "tie"\n'
        '[[bet.rule]]\nwhen = "winner == \'tie\'"\npays = "9:1"\n'
    )
    site = tmp_path / "site"
    code, out, err = run(
        capsys, "docs", "--site", str(site), "--paytable", "tie-max", "--paytable", str(table)
    )
    assert (code, err) == (0, "") and out == f"wrote 7 pages (8 files) to {site}\n"
    files = sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file())
    assert files == [
        "index.html",
        *(f"my-game/{lang}.html" for lang in ("en", "ms", "tl")),
        "style.css",
        *(f"tie-max/{lang}.html" for lang in ("en", "ms", "tl")),
    ]
    assert "Mine" in (site / "my-game" / "en.html").read_text()


def test_site_replaces_a_folder_only_with_force(tmp_path, capsys) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "old.html").write_text("an older page")
    code, _, err = run(capsys, "docs", "--site", str(site), "--paytable", "tie-max")
    assert code == 2 and err.endswith("is not empty (--force replaces it)\n")
    assert [p.name for p in site.iterdir()] == ["old.html"]
    code, _, _ = run(capsys, "docs", "--site", str(site), "--paytable", "tie-max", "--force")
    assert code == 0
    assert not (site / "old.html").exists() and (site / "tie-max" / "en.html").is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["site"]  # nothing left beside it
    # An empty folder takes the site without --force.
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(capsys, "docs", "--site", str(empty), "--paytable", "tie-max")[0] == 0


def test_site_that_fails_to_write_leaves_everything_as_it_was(tmp_path, capsys, monkeypatch):
    import analyzer.files as files

    real = files.content_writer
    calls = {"n": 0}

    def failing(content):
        calls["n"] += 1
        if calls["n"] == 5:
            raise OSError(28, "No space left on device")
        return real(content)

    monkeypatch.setattr(files, "content_writer", failing)
    site = tmp_path / "site"
    code, out, err = run(capsys, "docs", "--site", str(site), "--paytable", "tie-max")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "No space left on device" in err
    assert list(tmp_path.iterdir()) == []
    site.mkdir()
    (site / "old.html").write_text("an older page")
    calls["n"] = 0
    code, _, err = run(capsys, "docs", "--site", str(site), "--paytable", "tie-max", "--force")
    assert code == 2 and "No space left on device" in err
    assert [p.name for p in tmp_path.iterdir()] == ["site"]
    assert [p.name for p in site.iterdir()] == ["old.html"]


def test_site_paytables_that_would_share_a_folder_are_refused_first(tmp_path, capsys) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "g.toml").write_text(
            'name = "G"\n[[bet]]\nid = "tie"\n[[bet.rule]]\nwhen = "natural"\npays = 1\n'
        )
    site = tmp_path / "site"
    code, _, err = run(
        capsys,
        "docs",
        "--site",
        str(site),
        "--paytable",
        str(tmp_path / "a" / "g.toml"),
        "--paytable",
        str(tmp_path / "b" / "g.toml"),
    )
    assert code == 2 and "would share the page folder 'g': rename one" in err
    code, _, err = run(
        capsys, "docs", "--site", str(site), "--paytable", "tie-max", "--paytable", "tie-max"
    )
    assert code == 2 and err.endswith("--paytable tie-max: given twice\n")
    assert not site.exists()


def test_site_success_line_shows_the_folder_as_one_line(tmp_path, capsys) -> None:
    site = tmp_path / "a\x1b[31mred"
    code, out, _ = run(capsys, "docs", "--site", str(site), "--paytable", "tie-max")
    assert code == 0 and "\x1b" not in out and out.endswith("a\\x1b[31mred\n")


def test_site_eor_of_more_bets_than_a_chart_takes_is_refused_first(tmp_path, capsys) -> None:
    bets = "".join(
        f'[[bet]]\nid = "tie{n}"\nname = "Tie {n}"\n[[bet.rule]]\n'
        f'when = "winner == \'tie\'"\npays = "{n + 1}:1"\n'
        for n in range(MAX_CHART_BETS + 1)
    )
    path, site = write_paytable(tmp_path, HEAD + bets), tmp_path / "site"
    code, out, err = run(capsys, "docs", "--site", str(site), "--paytable", str(path), "--eor")
    assert code == 2 and out == "" and not site.exists()
    assert err == (
        f"baccarat-odds: error: --eor charts at most {MAX_CHART_BETS} bets a paytable, and "
        f"{path} has {MAX_CHART_BETS + 1}: build its pages without --eor\n"
    )


def test_site_skips_a_paytable_with_unknowns_and_says_why(tmp_path, capsys) -> None:
    """Without values for its unknowns a paytable gets no pages: the output says each one
    skipped and why, and so does the index; with --unknowns its pages are made at them."""
    site = tmp_path / "site"
    names = ("--paytable", "prosperity-tree-baccarat", "--paytable", "tie-max")
    code, out, err = run(capsys, "docs", "--site", str(site), *names)
    assert (code, err) == (0, "")
    assert out == (
        f"wrote 4 pages (5 files) to {site}\n"
        "skipped prosperity-tree-baccarat: its multipliers' distribution has unknowns "
        "(give --unknowns)\n"
    )
    assert not (site / "prosperity-tree-baccarat").exists()
    assert "prosperity-tree-baccarat: skipped: its multipliers" in (site / "index.html").read_text()
    code, out, err = run(
        capsys, "docs", "--site", str(site), *names, "--unknowns", "p=7/113", "--force"
    )
    assert (code, err) == (0, "") and out == f"wrote 7 pages (8 files) to {site}\n"
    page = (site / "prosperity-tree-baccarat" / "en.html").read_text(encoding="utf-8")
    assert "the figures on this page take p = 7/113." in page
    code, out, err = run(capsys, "docs", "--site", str(tmp_path / "b"), *names, "--unknowns", "q=1")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "--unknowns: 'q' is not an unknown of any of these paytables (their unknowns: p)" in err


def test_site_of_only_skipped_paytables_is_refused(tmp_path, capsys) -> None:
    """Every paytable named skipped (unknowns without values): no index of no pages is
    written; one line says why, exit 2."""
    site = tmp_path / "site"
    names = ("--paytable", "peek-baccarat", "--paytable", "prosperity-tree-baccarat")
    code, out, err = run(capsys, "docs", "--site", str(site), *names)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "--site: no paytable to give pages: peek-baccarat: " in err
    assert "(give --unknowns) (and 1 more)" in err
    assert not site.exists()


def test_site_configuration(tmp_path, capsys) -> None:
    (tmp_path / "brand.css").write_text("h1 { color: #800; }")
    config = tmp_path / "conf" / "site.toml"
    config.parent.mkdir()
    config.write_text('operator = "Casino"\nstylesheet = "../brand.css"\ndecimals = 3\n')
    site = tmp_path / "site"
    code, out, err = run(
        capsys, "docs", "--site", str(site), "--paytable", "tie-max", "--config", str(config)
    )
    assert (code, err) == (0, "") and out == f"wrote 4 pages (6 files) to {site}\n"
    page = (site / "tie-max" / "en.html").read_text(encoding="utf-8")
    assert "<title>Tie Max \N{EN DASH} Casino</title>" in page and "../operator.css" in page
    assert (site / "operator.css").read_text() == "h1 { color: #800; }"
    config.write_text('operator = "Casino"\ncolour = "red"\n')
    code, out, err = run(
        capsys,
        "docs",
        "--site",
        str(tmp_path / "b"),
        "--paytable",
        "tie-max",
        "--config",
        str(config),
    )
    assert code == 2 and out == "" and err.count("\n") == 1 and not (tmp_path / "b").exists()
    assert f"{config}: unknown key 'colour' (keys: decimals, footer, " in err
    for option in (("--config", str(config)), ("--unknowns", "p=1")):
        code, _, err = run(capsys, "docs", "--out", str(tmp_path / "c"), *option)
        assert code == 2 and err.endswith(f"{option[0]} goes with --site, not --out\n")


def test_site_eor_is_on_analysts_pages(tmp_path, capsys) -> None:
    site = tmp_path / "site"
    code, out, _ = run(capsys, "docs", "--site", str(site), "--paytable", "tie-9-to-1", "--eor")
    assert code == 0 and out == f"wrote 7 pages (11 files) to {site}\n"
    files = sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file())
    assert files == [
        *(
            f"analyst/tie-9-to-1/{name}"
            for name in ("en.html", "eor-en.png", "eor-ms.png", "eor-tl.png", "ms.html", "tl.html")
        ),
        "index.html",
        "style.css",
        *(f"tie-9-to-1/{lang}.html" for lang in ("en", "ms", "tl")),
    ]
    assert "<img" not in (site / "tie-9-to-1" / "en.html").read_text(encoding="utf-8")


class _Terminal(io.StringIO):
    """A standard error that says it is a terminal, as the user's is."""

    def isatty(self) -> bool:
        return True


def test_docs_out_shows_its_progress_on_a_terminal_only(tmp_path, capsys, monkeypatch) -> None:
    """Thousands of bets' detail tables take a minute or more: on a terminal a bar counts
    the files rendered (39: 6 formats, summary and detail, and the workbook, 3
    languages), cleared at the end; elsewhere nothing but the result."""
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    code, out, _ = run(capsys, "docs", "--out", str(tmp_path / "a"), "--paytable", "tie-9-to-1")
    assert code == 0 and out.startswith("wrote 39 files")
    shown = terminal.getvalue()
    assert "tables:" in shown and "/39 [" in shown and shown.endswith("\r")
    monkeypatch.undo()
    code, _, err = run(capsys, "docs", "--out", str(tmp_path / "b"), "--paytable", "tie-9-to-1")
    assert code == 0 and err == ""


@pytest.mark.slow
def test_docs_out_makes_each_document_once_and_no_latex_frame_per_bet(
    tmp_path, capsys, monkeypatch
) -> None:
    """``docs --out`` of 2,200 bets took 70 s where ``report`` took 5: each of the 36
    text files made its own document (every bet's records again), and each bet's detail
    table went through a pandas frame and styler for LaTeX. A language's summary and
    detail documents are made once and written in every format, and the LaTeX of a
    table of text cells is written directly, however many bets."""
    import pandas as pd

    from analyzer.reports import tables
    from analyzer.reports.i18n import LANGUAGES

    bets = "".join(
        f'[[bet]]\nid = "tie{n}"\nname = "Tie {n}"\n[[bet.rule]]\n'
        f'when = "winner == \'tie\' and player_score == {n % 10}"\npays = "{n + 1}:1"\n'
        for n in range(30)
    )
    path = write_paytable(tmp_path, HEAD + bets)
    made = []
    report_document = tables.report_document
    monkeypatch.setattr(
        tables, "report_document", lambda *a, **k: made.append(1) or report_document(*a, **k)
    )
    frames = []
    to_latex = pd.DataFrame.to_latex
    monkeypatch.setattr(
        pd.DataFrame, "to_latex", lambda *a, **k: frames.append(1) or to_latex(*a, **k)
    )
    out = tmp_path / "out"
    code, printed, _ = run(capsys, "docs", "--out", str(out), "--paytable", str(path))
    assert code == 0 and printed.startswith("wrote 39 files")
    assert len(made) == 2 * len(LANGUAGES)  # summary and detail, per language
    assert len(frames) == 0  # no table of the report has row labels
    assert (out / "en" / "detail.tex").read_text().count(
        "\\begin{tabular}"
    ) == 1 + 30  # summary, each bet
