"""Tables in every format and language."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from helpers import HEAD, run, write_paytable

from analyzer import Card, Shoe, analyze
from analyzer.reports.tables import (
    claim_lines,
    csv_safe,
    csv_text,
    fraction_text,
    json_text,
    markdown_escape,
)


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
    code, out, _ = run(capsys, "report", "--lang", "ms", "--mode", "commission", "--wide")
    assert "Jenis Pertaruhan" in out and "Had Pusingan Maks" in out and "Tuah Enam" in out


@pytest.mark.parametrize(
    ("cell", "safe"),
    [
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("+1+1", "'+1+1"),
        ("-x", "'-x"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tcmd", "'\tcmd"),
        ("\rcmd", "'\rcmd"),
        ("-1.0579%", "-1.0579%"),  # numbers as this tool prints them stay numbers
        ("-2/3", "-2/3"),
        ("+0.5", "+0.5"),
        ("Banker", "Banker"),
        ("", ""),
        (-1, -1),
        (None, None),
    ],
)
def test_csv_cells_never_run_as_formulas(cell, safe) -> None:
    assert csv_safe(cell) == safe


def test_csv_text_makes_text_columns_safe() -> None:
    frame = pd.DataFrame({"name": ["=1+1", "ok"], "edge": ["-1.2%", "-x"], "n": [-1, 2]})
    assert csv_text(frame) == "name,edge,n\n'=1+1,-1.2%,-1\nok,'-x,2\n"


def test_fractions_in_lowest_terms() -> None:
    assert fraction_text(Fraction(6, -8)) == "-3/4"
    assert fraction_text(Fraction(5)) == "5/1"
    assert fraction_text(None) is None


def test_json_is_strict() -> None:
    value = {"a": float("nan"), "b": [float("inf"), np.int64(3), np.float64(0.5)], "c": (1, "é")}
    text = json_text(value)
    assert text.endswith("}\n") and "é" in text
    assert json.loads(text, parse_constant=pytest.fail) == {
        "a": None,
        "b": [None, 3, 0.5],
        "c": [1, "é"],
    }


def test_the_claim_line_says_what_the_best_bet_prints_as() -> None:
    analysis = analyze(mode="commission", bets=["banker", "tie"])
    (confirmed,) = claim_lines(analysis, "98.94%")
    assert confirmed.startswith(
        "Claimed maximum RTP 98.94%: best bet Banker (Baccarat (commission))"
    )
    assert confirmed.endswith("which prints as 98.94%: CONFIRMED")
    (refuted,) = claim_lines(analysis, "98.95%")
    assert refuted.endswith("which prints as 98.94%: NOT CONFIRMED")


@pytest.mark.parametrize("lang", ["tl", "ms"])
def test_the_title_and_claim_line_are_in_the_pages_language(lang) -> None:
    """No English left in a Tagalog or Malay report's own lines (the sentences are the
    help pages' own, checked for every language in test_site)."""
    from analyzer.reports.i18n import sentence
    from analyzer.reports.tables import render_report

    analysis = analyze(mode="commission", bets=["banker", "tie"])
    text = render_report(analysis, lang=lang, claimed_max_rtp="98.94%")
    title, claim = text.splitlines()[0], text.splitlines()[-1]
    for english in ("exact", "per unit staked", "modes", "decks", "cards", "Claimed", "best bet"):
        assert english not in title + claim, english
    assert sentence("report_decks", lang, decks=8, cards=416) in title
    assert claim.endswith(sentence("max_rtp_confirmed", lang))
    depleted = analyze(mode="commission", bets=["tie"], shoe=Shoe.standard(1).remove([Card(0)]))
    # (the title as one line: text output wraps a title wider than 100 columns)
    title = render_report(depleted, lang=lang).split("\n\n")[0].replace("\n  ", " ")
    assert (
        sentence("report_cards_suits_unknown", lang, cards=51, ranks=depleted.shoe.rank_text)
        in title
    )


def test_a_condition_written_over_several_lines_shows_on_one(tmp_path, capsys) -> None:
    """A TOML multi-line string in ``when`` keeps each table row on one line: every run
    of whitespace is one space where the condition is shown (text, Markdown, CSV)."""
    when = "(winner == 'tie'\n    and player_score >= 6)"
    path = write_paytable(
        tmp_path,
        HEAD
        + '[[bet]]\nid = "t"\nname = "T"\n[[bet.rule]]\n'
        + f'when = """{when}"""\npays = "8:1"\n'
        + '[[bet.rule]]\nwhen = "winner == \'tie\'"\npays = "5:1"\n',
    )
    shown = "(winner == 'tie' and player_score >= 6)"
    for fmt in ("text", "markdown"):
        code, out, err = run(capsys, "report", "--paytable", str(path), "--detail", "--format", fmt)
        assert code == 0 and err == "", err
        (line,) = [line for line in out.splitlines() if "player_score" in line]
        assert (shown if fmt == "text" else markdown_escape(shown)) in line, line
    code, out, _ = run(capsys, "report", "--paytable", str(path), "--detail", "--format", "csv")
    assert code == 0
    breakdown = list(csv.DictReader(io.StringIO(out.split("\n\n")[1])))
    assert breakdown[0]["when"] == shown
    assert sum("player_score" in line for line in out.splitlines()) == 1
