"""Help pages read as blocks (analyzer.analysis.page): HTML, Markdown, text and PDF; what a
browser does not show is not read as the page's text; hostile pages refused in one line
before anything is parsed, or read and bounded."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from analyzer.analysis.page import (
    MAX_HTML_DEPTH,
    MAX_HTML_TAGS,
    MAX_PAGE_BYTES,
    clean_text,
    page_from_bytes,
    read_page,
    sniff_kind,
)
from analyzer.errors import AnalyzerError

HTML = """<!DOCTYPE html>
<html><head><title>RTP 11.11%</title>
<style>.gone { display: none } #away{visibility:hidden} p.note{color:red}</style>
<script>document.write("Tie pays 9:1, RTP 99.99%")</script></head>
<body>
<h1>Baccarat</h1>
<p>The Tie pays <b>8</b> to 1.</p>
<!-- The Tie pays 7:1 -->
<template><p>Tie 6:1</p></template>
<noscript>Tie 5:3</noscript>
<ul><li>Player: pays 1:1</li><li>Banker: pays 0.95:1</li></ul>
<table><caption>Odds</caption>
<thead><tr><th>Bet</th><th colspan="2">Figures</th></tr></thead>
<tbody><tr><th>Tie</th><td>8:1</td>
<td>14.36%<table><tr><td>inner 1:1</td></tr></table></td></tr></tbody>
</table>
<p><img src="a.png" alt="Player Pair pays 11:1">
<span class="bet-name">Player</span><span>Pair</span></p>
<p class="gone">hidden by a class 3:1</p>
<div id="away">hidden by an id 4:1</div>
<p hidden>hidden by the attribute 2:1</p>
<p style="color: red; display:none">hidden inline 1:2</p>
</body></html>
"""


def _html(text: str = HTML):
    return page_from_bytes(text.encode("utf-8"), "page.html")


def test_html_is_read_as_a_person_reads_it() -> None:
    page = _html()
    shown = [(b.kind, b.text) for b in page.blocks if not b.hidden]
    texts = " ".join(text for _, text in shown)
    for never in ("11.11%", "9:1", "99.99%", "7:1", "6:1", "5:3", "display"):
        assert never not in texts, never  # title, script, comment, template, noscript, style
    assert ("heading", "Baccarat") in shown
    assert ("text", "The Tie pays 8 to 1.") in shown  # <b> joins its word
    items = [b.text for b in page.blocks if b.item]
    assert items == ["Player: pays 1:1", "Banker: pays 0.95:1"]
    rows = [b for b in page.blocks if b.kind == "row"]
    assert rows[0].header_row and rows[0].cells == ("Bet", "Figures", "")
    body = rows[1]
    assert body.cells == ("Tie", "8:1", "14.36%")  # the inner table is a table of its own
    assert body.headers == ("Bet", "Figures", "Figures") and body.caption == "Odds"
    assert any(b.cells == ("inner 1:1",) and b.table == 2 for b in rows)
    assert ("alt", "Player Pair pays 11:1") in shown
    assert ("text", "Player Pair") in shown  # spans are words apart


def test_hidden_content_is_read_apart() -> None:
    hidden = [b.text for b in _html().blocks if b.hidden]
    assert hidden == [
        "hidden by a class 3:1",
        "hidden by an id 4:1",
        "hidden by the attribute 2:1",
        "hidden inline 1:2",
    ]
    assert all("(hidden)" in b.where for b in _html().blocks if b.hidden)


def test_markdown_and_text() -> None:
    markdown = (
        "# Bets\n\nThe Tie\npays 8 to 1.\n\n- Player Pair: 11:1\n- Any Pair: 5:1\n\n"
        "| Bet | RTP |\n|---|---|\n| Tie | 85.64% |\n\n![Lucky Six 12:1](six.png)\n"
        "<!-- Tie 7:1 -->\n<script>Tie 9:1</script>\nafter\n"
    )
    page = page_from_bytes(markdown.encode(), "page.md")
    assert page.kind == "markdown"
    kinds = [(b.kind, b.text, b.where) for b in page.blocks]
    assert kinds[0] == ("heading", "Bets", "line 1")
    assert ("text", "The Tie pays 8 to 1.", "line 3") in kinds  # a paragraph's lines joined
    assert [b.text for b in page.blocks if b.item] == ["Player Pair: 11:1", "Any Pair: 5:1"]
    header, row = [b for b in page.blocks if b.kind == "row"]
    assert header.header_row and row.cells == ("Tie", "85.64%") and row.headers == ("Bet", "RTP")
    assert ("alt", "Lucky Six 12:1") in [(b.kind, b.text) for b in page.blocks]
    text = " ".join(b.text for b in page.blocks)
    assert "7:1" not in text and "9:1" not in text and "after" in text
    assert [b.where for b in page.blocks][-1] == "line 16"  # lines keep their numbers
    plain = page_from_bytes(b"Tie\npays 8 to 1\n| a | b |\n| 1 | 2% |\n", "page.txt")
    assert [b.text for b in plain.blocks if b.kind == "text"] == ["Tie", "pays 8 to 1"]
    assert [b.header_row for b in plain.blocks if b.kind == "row"] == [True, False]


def test_the_kind_is_told_by_the_bytes_then_the_name() -> None:
    assert sniff_kind(b"%PDF-1.7 ...", "x.txt") == "pdf"
    assert sniff_kind(b"  <!DOCTYPE html><p>", "x.txt") == "html"
    assert sniff_kind(b"Tie 8:1", "x.htm") == "html"
    assert sniff_kind(b"# Tie", "x.md") == "markdown"
    assert sniff_kind(b"Tie 8:1", "x") == "text"
    with pytest.raises(AnalyzerError, match="not a PDF"):
        sniff_kind(b"Tie 8:1", "x.pdf")


def test_invisible_and_control_characters_are_dropped() -> None:
    assert clean_text("8\u200b:1 \u202eedge\u00ad 1\x07%") == "8:1 edge 1 %"
    assert clean_text("plain 8:1") == "plain 8:1"


def test_a_pdf_is_read_by_its_text(tmp_path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure = plt.figure(figsize=(6, 3))
    figure.text(0.1, 0.7, "Tie: pays 8 to 1")
    figure.text(0.1, 0.4, "The maximum RTP of the game is 98.94%.")
    with matplotlib.rc_context({"pdf.fonttype": 42}):
        figure.savefig(tmp_path / "page.pdf")
    plt.close(figure)
    page = read_page(tmp_path / "page.pdf")
    assert page.kind == "pdf"
    assert [b.text for b in page.blocks] == [
        "Tie: pays 8 to 1",
        "The maximum RTP of the game is 98.94%.",
    ]
    assert page.blocks[0].where == "page 1, line 1"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"%PDF-1.4 not a pdf at all", "cannot read the PDF"),
        (b"\xff\xfe\x00\xd8", "not UTF-8"),
        ("caf\xe9 8:1".encode("latin-1"), "not UTF-8"),
    ],
)
def test_unreadable_pages_are_one_line(tmp_path, data, message) -> None:
    path = tmp_path / "page.bin"
    path.write_bytes(data)
    with pytest.raises(AnalyzerError, match=message) as raised:
        read_page(path)
    assert "\n" not in str(raised.value)


def test_a_pdf_without_text_is_refused(tmp_path) -> None:
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(200, 200)
    with open(tmp_path / "blank.pdf", "wb") as stream:
        writer.write(stream)
    with pytest.raises(AnalyzerError, match="holds no text"):
        read_page(tmp_path / "blank.pdf")


def test_a_huge_page_is_refused_before_it_is_read(tmp_path) -> None:
    path = tmp_path / "huge.html"
    with open(path, "wb") as stream:  # a billion bytes, sparse: never written, never read
        stream.truncate(10**9)
    started = time.perf_counter()
    with pytest.raises(AnalyzerError, match="1,000,000,000 bytes: a page is read up to 2 MiB"):
        read_page(path)
    assert time.perf_counter() - started < 5
    just_over = tmp_path / "over.txt"
    just_over.write_bytes(b"x" * (MAX_PAGE_BYTES + 1))
    with pytest.raises(AnalyzerError, match="nothing was parsed"):
        read_page(just_over)


@pytest.mark.parametrize(
    ("html", "message"),
    [
        ("<div>" * 100_000 + "Tie 8:1" + "</div>" * 100_000, f"more than {MAX_HTML_DEPTH} levels"),
        ("<p>x</p>" * (MAX_HTML_TAGS // 2 + 1), f"more than {MAX_HTML_TAGS:,} HTML tags"),
        ("<table>" * 10_000, f"more than {MAX_HTML_DEPTH} levels"),
    ],
)
def test_deep_or_crowded_html_is_refused_before_parsing(html, message) -> None:
    started = time.perf_counter()
    with pytest.raises(AnalyzerError, match=message):
        _html(html)
    assert time.perf_counter() - started < 5


def test_what_does_not_nest_is_read() -> None:
    # Paragraphs and list items close one another, void elements hold nothing, comments
    # and scripts hide no tags: none of them nests, however many.
    html = "<p>a" * 500 + "<li>b" * 500 + "<br>" * 500 + "<!--" + "<div>" * 500 + "-->"
    html += "<script>" + "<div>" * 500 + "</script><p>Tie 8:1"
    page = _html(html)
    assert page.blocks[-1].text == "Tie 8:1"


def test_missing_folder_and_fifo_are_one_line(tmp_path) -> None:
    with pytest.raises(AnalyzerError, match="no such file"):
        read_page(tmp_path / "none.html")
    with pytest.raises(AnalyzerError, match="is a directory"):
        read_page(tmp_path)
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo")
        with pytest.raises(AnalyzerError, match="not a regular file"):
            read_page(tmp_path / "fifo")


def test_the_page_digest_is_of_its_bytes(tmp_path) -> None:
    import hashlib

    path = Path(tmp_path / "p.txt")
    path.write_bytes(b"Tie 8:1\n")
    page = read_page(path)
    assert page.sha256 == hashlib.sha256(b"Tie 8:1\n").hexdigest() and page.size == 8


# -- Found by the hostile review -----------------------------------------------------------------


def test_a_tag_of_too_many_attributes_is_refused_before_parsing() -> None:
    # html5lib takes time quadratic in one tag's attributes: 500,000 took minutes.
    with pytest.raises(AnalyzerError, match="a <p> tag with 500,000 attributes") as raised:
        _html("<p " + "a=b " * 500_000 + ">Tie pays 8:1</p>")
    assert "\n" not in str(raised.value)
    # A long attribute is not many: an image inlined as a data URI is read.
    page = _html('<p>Tie pays 8:1<img alt="x" src="data:image/png;base64,' + "A=" * 100_000 + '">')
    assert [b.text for b in page.blocks] == ["Tie pays 8:1", "x"]


def test_a_markdown_image_or_link_stops_at_the_next_bracket() -> None:
    # (So that a line of a million "![" is read in linear time.)
    page = page_from_bytes(b"![![Tie pays 8:1](x.png) and [[the rules](r.html)\n", "p.md")
    assert [(b.kind, b.text) for b in page.blocks] == [
        ("alt", "Tie pays 8:1"),
        ("text", "![ and [the rules"),
    ]


def test_too_many_lines_names_the_page() -> None:
    with pytest.raises(AnalyzerError, match=r"^p\.txt: more than 200,000 lines"):
        page_from_bytes(b"\n" * 200_001, "p.txt")


@pytest.mark.parametrize(
    ("style", "hidden"),
    [
        ("opacity: 0", True),
        ("opacity:0.0%", True),
        ("font-size:0px", True),
        ("font-size: 0 !important", True),
        ("opacity: 0.5", False),
        ("font-size: 10px", False),
    ],
)
def test_invisible_by_opacity_or_font_size_is_hidden(style, hidden) -> None:
    page = _html(f'<p>Tie pays 8:1</p><p style="{style}">Tie pays 9:1</p>')
    assert [b.hidden for b in page.blocks] == [False, hidden]


def test_aria_hidden_is_on_the_screen_and_read() -> None:
    page = _html('<p aria-hidden="true">Tie pays 9:1</p>')
    assert [(b.text, b.hidden) for b in page.blocks] == [("Tie pays 9:1", False)]


@pytest.mark.parametrize(
    ("html", "text"),
    [
        ("Tie RTP 85.6<span>4</span>%", "Tie RTP 85.64%"),
        ("Tie RTP 85.<span>64</span><span>%</span>", "Tie RTP 85.64%"),
        ("Tie pays <span>8</span>:<span>1</span>", "Tie pays 8:1"),
        ("RTP <a>98</a>,94 %", "RTP 98,94 %"),
        # digits on both sides of an edge a style sheet may set apart are read apart
        ("a score of <span>6</span><span>1:2</span>", "a score of 6 1:2"),
        ("<span>Tie</span><span>Pays</span>", "Tie Pays"),
    ],
)
def test_a_figure_split_across_inline_tags_is_read_whole(html, text) -> None:
    assert [b.text for b in _html(f"<p>{html}</p>").blocks] == [text]
    cells = _html(f"<table><tr><td>{html}</td></tr></table>").blocks[0].cells
    assert cells == (text,)
