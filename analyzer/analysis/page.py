"""Help pages as a person reads them: HTML, Markdown, plain text or PDF, as blocks of text.

A page is untrusted input. Nothing in it is executed or fetched: its bytes are counted
before anything is parsed (a page over :data:`MAX_PAGE_BYTES`, a PDF over
:data:`MAX_PDF_BYTES`, is refused in one line), an HTML page's tags and nesting are counted
by a linear scan before the parser sees it (over :data:`MAX_HTML_TAGS` tags or
:data:`MAX_HTML_DEPTH` levels, or a tag of over :data:`MAX_HTML_ATTRIBUTES` attributes, is
refused: a browser-grade parser takes time quadratic in the nesting and in a tag's
attributes), and every walk of the parsed tree is iterative. What a browser does not show
is not read as the page's text: script, style and template content, comments, the
``<head>``. Content hidden by CSS (a ``hidden`` attribute, an inline ``display: none``,
``visibility: hidden``, ``opacity: 0`` or ``font-size: 0``, or a class or id that the page's
own ``<style>`` hides so) is read apart, as hidden blocks, so that what it says can be
reported without being taken for what players see. Content hidden from screen readers only
(``aria-hidden``) is on the screen: it is read as the page's text; so is content hidden by
other CSS tricks (positioned off the screen, clipped, coloured as its background), which is
checked like any other figure (a wrong figure there fails rather than being passed over).
Inline elements (``<span>``, ``<b>``, ``<a>``...): the edges of those that typeset letters
(``<b>``, ``<i>``, ``<sup>``...) break no word; at another's edge (``<span>``, ``<a>``),
which a style sheet may set apart, a figure split at its decimal mark, colon or percent sign
is read whole (``98.<span>94</span>%`` is 98.94%), but digits on both sides are read apart
(``score of <span>6</span><span>1:2</span>``). Images' alt text is read. Control and
invisible formatting characters (zero-width spaces, bidirectional controls, soft hyphens)
are dropped from the text, so that a figure cannot hide behind them and a snippet shown in a
terminal shows what it says: the text is read in its stored (logical) order.

A page is a sequence of :class:`Block`: headings, paragraphs and list items (``text``),
table rows (``row``, with their cells and their table's column headers) and images' alt
text (``alt``), each with where it is on the page.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from analyzer.errors import AnalyzerError

#: The largest page read (HTML, Markdown or text): a help page is tens of kilobytes.
MAX_PAGE_BYTES = 2 * 2**20
#: The largest PDF read (a PDF carries its fonts and images).
MAX_PDF_BYTES = 16 * 2**20
#: The most tags an HTML page may have (a help page has a few thousand).
MAX_HTML_TAGS = 20_000
#: The deepest an HTML page's elements may nest (a help page nests some 20 levels).
MAX_HTML_DEPTH = 200
#: The most attributes one HTML tag may have (a help page's tags have a handful; an HTML
#: parser takes time quadratic in a tag's attributes).
MAX_HTML_ATTRIBUTES = 200
#: The most pages of a PDF read.
MAX_PDF_PAGES = 200
#: The most characters of text a page may give (a PDF's text, once extracted).
MAX_TEXT_CHARS = 2 * 2**20

PageKind = Literal["html", "markdown", "text", "pdf"]
BlockKind = Literal["heading", "text", "row", "alt"]
KINDS: tuple[PageKind, ...] = ("html", "markdown", "text", "pdf")


@dataclass(frozen=True)
class Block:
    """A piece of a page a person reads as one: a heading, a paragraph or list item, a
    table row or an image's alt text.

    ``where`` says where it is (``line 12``, ``table 2, row 3``, ``paragraph 5``). A row
    has its ``cells`` and its table's column ``headers`` (one text per column, empty
    where the table has none) and ``caption``; ``header_row`` marks a row of column
    headers. ``item``: a list item (it may take its subject from the block before it).
    ``hidden``: content a browser does not show (hidden by CSS or the ``hidden``
    attribute). ``level``: a heading's level (1 for the page's title)."""

    kind: BlockKind
    text: str
    where: str
    cells: tuple[str, ...] = ()
    headers: tuple[str, ...] = ()
    caption: str = ""
    header_row: bool = False
    table: int = 0
    row: int = 0
    item: bool = False
    hidden: bool = False
    level: int = 0
    line: int | None = None


@dataclass(frozen=True)
class Page:
    """A page read: its ``source`` (as named), ``kind``, the sha256 of its bytes, their
    number, and its blocks in reading order."""

    source: str
    kind: PageKind
    sha256: str
    size: int
    blocks: tuple[Block, ...]


# -- Reading the bytes -------------------------------------------------------------------------


def read_page(path: str | os.PathLike[str], kind: PageKind | None = None) -> Page:
    """Read a help page from a file: its kind from its first bytes and its name (``kind``
    says it instead), its size checked before it is read.

    Parameters
    ----------
    path : str or os.PathLike
        The page's file.
    kind : {"html", "markdown", "text", "pdf"}, optional
        The page's kind (default: a PDF by its header, HTML by its first tag or a
        ``.html``/``.htm`` name, Markdown by a ``.md`` name, else plain text).

    Returns
    -------
    Page

    Raises
    ------
    AnalyzerError
        One line: no such file, not a regular file, too large, not UTF-8 text, nested or
        tagged beyond the limits, a PDF that cannot be read or holds no text.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> (folder / "p.md").write_text("# Tie\\n\\nThe Tie pays 8 to 1.\\n", encoding="utf-8")
    23
    >>> [block.text for block in read_page(folder / "p.md").blocks]
    ['Tie', 'The Tie pays 8 to 1.']
    """
    name = os.fspath(path)
    limit = MAX_PDF_BYTES
    try:
        descriptor = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise AnalyzerError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise AnalyzerError(f"{name}: is a directory, not a file") from None
    except OSError as exc:
        raise AnalyzerError(f"{name}: cannot read: {exc.strerror or exc}") from None
    info = os.fstat(descriptor)
    if not stat.S_ISREG(info.st_mode):
        os.close(descriptor)
        what = "is a directory, not a file" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise AnalyzerError(f"{name}: {what}")
    with os.fdopen(descriptor, "rb") as stream:
        head = stream.read(8)
        limit = MAX_PDF_BYTES if head.startswith(b"%PDF-") else MAX_PAGE_BYTES
        if info.st_size > limit:
            raise AnalyzerError(_too_large(name, info.st_size, limit))
        try:
            raw = head + stream.read(limit + 1 - len(head))
        except OSError as exc:
            raise AnalyzerError(f"{name}: cannot read: {exc.strerror or exc}") from None
    if len(raw) > limit:  # it grew while read
        raise AnalyzerError(_too_large(name, len(raw), limit))
    return page_from_bytes(raw, name, kind)


def _too_large(name: str, size: int, limit: int) -> str:
    what = "a PDF" if limit == MAX_PDF_BYTES else "a page"
    return (
        f"{name}: {size:,} bytes: {what} is read up to {limit // 2**20} MiB (a help page is far "
        "smaller); nothing was parsed"
    )


def page_from_bytes(raw: bytes, source: str = "<page>", kind: PageKind | None = None) -> Page:
    """A page from its bytes (``source`` names it in messages); see :func:`read_page`."""
    if kind is not None and kind not in KINDS:
        raise AnalyzerError(f"unknown page kind {kind!r} (kinds: {', '.join(KINDS)})")
    limit = MAX_PDF_BYTES if raw.startswith(b"%PDF-") else MAX_PAGE_BYTES
    if len(raw) > limit:
        raise AnalyzerError(_too_large(source, len(raw), limit))
    kind = kind or sniff_kind(raw, source)
    digest = hashlib.sha256(raw).hexdigest()
    if kind == "pdf":
        blocks = _pdf_blocks(raw, source)
    else:
        text = _decoded(raw, source)
        if kind == "html":
            blocks = _html_blocks(text, source)
        else:
            blocks = _line_blocks(text, markdown=kind == "markdown", source=source)
    return Page(source, kind, digest, len(raw), tuple(blocks))


def sniff_kind(raw: bytes, source: str = "") -> PageKind:
    """A page's kind: a PDF by its ``%PDF-`` header, HTML by a first tag of an HTML
    document or a ``.html``/``.htm`` name, Markdown by a ``.md`` name, else text."""
    if raw.startswith(b"%PDF-"):
        return "pdf"
    suffix = Path(source).suffix.lower()
    start = raw[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if suffix in (".html", ".htm", ".xhtml") or start.startswith(
        (b"<!doctype html", b"<html", b"<head", b"<body", b"<meta", b"<!--")
    ):
        return "html"
    if suffix == ".pdf":
        raise AnalyzerError(f"{source}: named .pdf but not a PDF (no %PDF- header)")
    if suffix in (".md", ".markdown"):
        return "markdown"
    return "text"


def _decoded(raw: bytes, source: str) -> str:
    encoding = "utf-16" if raw.startswith((b"\xff\xfe", b"\xfe\xff")) else "utf-8-sig"
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError:
        raise AnalyzerError(
            f"{source}: not UTF-8 text (a help page is read as UTF-8, any script)"
        ) from None


# -- Text as a person reads it -----------------------------------------------------------------

#: What is kept of the text: tabs and newlines of the controls; no format character
#: (zero-width spaces, joiners, bidirectional controls, soft hyphens).
_SPACES = re.compile(r"[ \t\r\f\v\n]+")


def clean_text(text: str) -> str:
    """``text`` without control or invisible format characters (each control is a
    space, a format character nothing; line and paragraph separators are newlines)."""
    if text.isascii() and not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", text):
        return text
    table: dict[int, Any] = {}
    for char in set(text):
        if char in "\t\n":
            continue
        category = unicodedata.category(char)
        if category == "Cc":
            table[ord(char)] = " "
        elif category == "Cf":
            table[ord(char)] = None
        elif category in ("Zl", "Zp"):
            table[ord(char)] = "\n"
    return text.translate(table) if table else text


#: Where a non-block element that may be set apart begins or ends (see :func:`_joined`).
_EDGE = "\x00"
_MARK_NEXT = re.compile(r"[%:.,\u066b\uff05\u066a\ufe6a\uff1a\u2236\uff0e\uff0c]")
_IN_FIGURE = re.compile(r"(?:\d[.,:\u066b\uff1a\u2236\uff0e\uff0c]|\d[.,\u066b\uff0e\uff0c]\d+)\Z")


def _joined(parts: list[str]) -> str:
    """The text of an element's parts: an element's edge inside a figure (before its decimal
    mark, colon or percent sign, after its mark, or in its decimals) is nothing, any other
    edge a space."""
    text = "".join(parts)
    if _EDGE not in text:
        return text
    pieces = re.split("\x00+", text)
    out = [pieces[0]]
    tail = pieces[0][-40:]
    for piece in pieces[1:]:
        glue = bool(piece) and (
            (tail[-1:].isdigit() and bool(_MARK_NEXT.match(piece)))
            or (piece[0].isdigit() and bool(_IN_FIGURE.search(tail)))
        )
        out.append(piece if glue or not piece else " " + piece)
        tail = (tail + (piece if glue else " " + piece))[-40:]
    return "".join(out)


def _flat(text: str) -> str:
    """Text on one line: ASCII white space runs made one space (a no-break or thin space,
    a grouping mark in figures, is kept as it is)."""
    return _SPACES.sub(" ", clean_text(text)).strip()


# -- Plain text and Markdown -------------------------------------------------------------------

_TABLE_SEPARATOR = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^(?:[-*+•]|\d{1,3}[.)])\s+")
# (No bracket inside the text nor parenthesis inside the target: each try stops at the
# next one, so a line of a million "![" is read in linear time.)
_IMAGE = re.compile(r"!\[([^\[\]\n]{0,1000})\]\([^()\n]{0,2000}\)")
_LINK = re.compile(r"\[([^\[\]\n]{0,1000})\]\([^()\n]{0,2000}\)")
#: A figure-like token: the first row of a table without a separator line is its header
#: when it holds none.
_FIGURE_LIKE = re.compile(r"\d\s*[%:]")


def _without_raw_html(text: str) -> str:
    """Markdown without the HTML comments and script and style elements it may carry
    (a browser shows none of them), found by a linear scan."""
    out, i = [], 0
    lower = text.lower()
    while True:
        starts = [(lower.find(mark, i), mark) for mark in ("<!--", "<script", "<style")]
        starts = [(at, mark) for at, mark in starts if at >= 0]
        if not starts:
            out.append(text[i:])
            return "".join(out)
        at, mark = min(starts)
        out.append(text[i:at])
        end_mark = "-->" if mark == "<!--" else f"</{mark[1:]}"
        end = lower.find(end_mark, at + len(mark))
        if end < 0:
            return "".join(out)
        close = lower.find(">", end) if mark != "<!--" else end + 2
        i = len(text) if close < 0 else close + 1
        out.append("\n" * text.count("\n", at, i))  # lines keep their numbers


def _line_blocks(text: str, markdown: bool, source: str = "<page>") -> list[Block]:
    """Blocks of plain text or Markdown: each line a block in plain text (a help page
    pasted as text has a paragraph per line), paragraphs of lines in Markdown; lines
    starting with ``|`` are table rows (a ``|---|`` line marks the row above it as the
    header); in Markdown ``#`` headings, list items and images' alt text."""
    if markdown:
        text = _without_raw_html(text)
    text = clean_text(text)
    lines = text.split("\n")
    if len(lines) > 200_000:
        raise AnalyzerError(
            f"{source}: more than 200,000 lines: a help page has far fewer; nothing was read"
        )
    blocks: list[Block] = []
    paragraph: list[str] = []
    start = 0
    table: list[tuple[int, list[str]]] = []
    tables = 0

    def flush_paragraph() -> None:
        if paragraph:
            joined = _flat(" ".join(paragraph))
            if joined:
                blocks.append(_text_block(joined, start, markdown))
            paragraph.clear()

    def flush_table() -> None:
        nonlocal tables
        if not table:
            return
        tables += 1
        rows = [(n, cells) for n, cells in table if cells is not None]
        separator = next((i for i, (_, cells) in enumerate(table) if cells is None), None)
        if separator is not None:
            header_rows = {i for i in range(separator)}
        elif rows and not _FIGURE_LIKE.search(" ".join(rows[0][1])):
            header_rows = {0}
        else:
            header_rows = set()
        headers: list[str] = []
        for i in sorted(header_rows):
            headers = _joined_headers(headers, table[i][1])
        number = 0
        for i, (line, cells) in enumerate(table):
            if cells is None:
                continue
            number += 1
            blocks.append(
                Block(
                    "row",
                    " | ".join(cells),
                    f"line {line}",
                    cells=tuple(cells),
                    headers=tuple(headers),
                    header_row=i in header_rows,
                    table=tables,
                    row=number,
                    line=line,
                )
            )
        table.clear()

    for number, raw_line in enumerate(lines, 1):
        line = raw_line.strip()
        if line.startswith("|"):
            flush_paragraph()
            if _TABLE_SEPARATOR.match(line):
                table.append((number, None))  # type: ignore[arg-type]
            else:
                cells = [_flat(cell) for cell in _split_row(line)]
                table.append((number, cells))
            continue
        flush_table()
        if not line:
            flush_paragraph()
            continue
        if markdown:
            heading = _HEADING.match(line)
            if heading:
                flush_paragraph()
                blocks.append(
                    Block(
                        "heading",
                        _flat(_markdown_inline(heading[2], blocks, number)),
                        f"line {number}",
                        level=len(heading[1]),
                        line=number,
                    )
                )
                continue
            line = _markdown_inline(line, blocks, number)
        if _ITEM.match(line) or not markdown:
            flush_paragraph()
            start = number
            paragraph.append(line)
            flush_paragraph()
            continue
        if not paragraph:
            start = number
        paragraph.append(line)
    flush_table()
    flush_paragraph()
    return blocks


def _text_block(text: str, line: int, markdown: bool) -> Block:
    item = bool(_ITEM.match(text))
    if item and markdown:
        text = _ITEM.sub("", text, count=1)
    return Block("text", text, f"line {line}", item=item, line=line)


def _markdown_inline(line: str, blocks: list[Block], number: int) -> str:
    """A Markdown line's text: images' alt text as blocks of their own (before it), links
    as their text, emphasis and code marks dropped."""
    for alt in _IMAGE.findall(line):
        if alt.strip():
            blocks.append(Block("alt", _flat(alt), f"line {number} (image alt text)", line=number))
    line = _IMAGE.sub(" ", line)
    line = _LINK.sub(r"\1", line)
    return line.replace("**", "").replace("__", "").replace("`", "")


def _split_row(line: str) -> list[str]:
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    return [cell.replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", body)]


def _joined_headers(headers: list[str], cells: list[str]) -> list[str]:
    """Column headers over several header rows, each column's texts joined."""
    width = max(len(headers), len(cells))
    out = []
    for i in range(width):
        parts = [headers[i] if i < len(headers) else "", cells[i] if i < len(cells) else ""]
        out.append(" ".join(part for part in parts if part))
    return out


# -- HTML --------------------------------------------------------------------------------------

_VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
        "basefont",
        "bgsound",
        "frame",
        "keygen",
        "image",
    ]
)
#: Elements whose end tag may be left out: siblings close them, so they do not nest.
_OPTIONAL_END = frozenset(
    [
        "p",
        "li",
        "dt",
        "dd",
        "tr",
        "td",
        "th",
        "thead",
        "tbody",
        "tfoot",
        "option",
        "optgroup",
        "rt",
        "rp",
        "colgroup",
        "caption",
    ]
)
#: Elements whose content is raw text, never tags (and never the page's text).
_RAW = frozenset(
    ["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript"]
)
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:_-]{0,60})(?=[\s/>])[^<>]*?(/?)>")
#: An attribute in a tag (its value quoted or not).
_ATTRIBUTE = re.compile(r"""[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")
#: What a browser never shows as the page's text.
_UNREAD = ("script", "style", "template", "noscript", "head", "iframe", "object", "embed",
           "svg", "canvas", "audio", "video")  # fmt: skip
_BLOCK_TAGS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "caption",
        "center",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "html",
        "legend",
        "li",
        "main",
        "menu",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
    ]
)
#: Inline elements that typeset a word's letters (no word break at their edges).
_TIGHT = frozenset(
    [
        "b",
        "i",
        "em",
        "strong",
        "u",
        "s",
        "small",
        "mark",
        "abbr",
        "sub",
        "sup",
        "font",
        "wbr",
        "bdi",
        "bdo",
        "q",
        "cite",
    ]
)
_HIDDEN_STYLE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)"
    r"|opacity\s*:\s*(?:0+(?:\.0*)?|\.0+)%?"
    r"|font-size\s*:\s*(?:0+(?:\.0*)?|\.0+)(?:px|pt|em|rem|%)?)"
    r"\s*(?:!important)?\s*(?:;|$)",
    re.IGNORECASE,
)
_HEADINGS = re.compile(r"h[1-6]")
_SIMPLE_SELECTOR = re.compile(r"^([A-Za-z][\w-]*)?(?:([.#])([\w-]+))?$")


def check_html_shape(text: str, source: str = "<page>") -> None:
    """Refuse, in one line and before any parsing, an HTML page of more than
    :data:`MAX_HTML_TAGS` tags or nested more than :data:`MAX_HTML_DEPTH` levels: a
    linear scan of its tags (raw text elements and comments skipped; void elements and
    elements whose end tag may be left out do not nest)."""
    lower = text.lower()
    tags, open_tags, i = 0, [], 0
    while True:
        j = text.find("<", i)
        if j < 0:
            return
        if text.startswith("<!--", j):
            end = text.find("-->", j + 4)
            if end < 0:
                return
            i = end + 3
            continue
        match = _TAG.match(text, j)
        if match is None:
            i = j + 1
            continue
        tags += 1
        if tags > MAX_HTML_TAGS:
            raise AnalyzerError(
                f"{source}: more than {MAX_HTML_TAGS:,} HTML tags: a help page has a few "
                "thousand; nothing was parsed"
            )
        name = match[2].lower()
        i = match.end()
        if len(match[0]) > 2 * MAX_HTML_ATTRIBUTES:
            attributes = sum(1 for _ in _ATTRIBUTE.finditer(text, match.end(2), i - 1))
            if attributes > MAX_HTML_ATTRIBUTES:
                raise AnalyzerError(
                    f"{source}: a <{name}> tag with {attributes:,} attributes: a help page's "
                    f"tags have a handful (at most {MAX_HTML_ATTRIBUTES} are read); nothing "
                    "was parsed"
                )
        if match[1]:  # an end tag closes the open element of its name, if any
            if name in open_tags:
                del open_tags[len(open_tags) - 1 - open_tags[::-1].index(name) :]
            continue
        if name in _RAW:
            end = lower.find(f"</{name}", i)
            if end < 0:
                return
            i = end
            continue
        if name in _VOID or name in _OPTIONAL_END or match[3]:
            continue
        open_tags.append(name)
        if len(open_tags) > MAX_HTML_DEPTH:
            raise AnalyzerError(
                f"{source}: HTML nested more than {MAX_HTML_DEPTH} levels deep: a help page "
                "nests some 20; nothing was parsed"
            )


def _hidden_by_style_sheet(soup: Any) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The classes, ids and tags the page's own ``<style>`` elements hide (``display:
    none`` or ``visibility: hidden``), read from their simple selectors only (``.x``,
    ``#x``, ``tag``, ``tag.x``); rules inside ``@media`` are not on every screen."""
    classes, ids, tags = set(), set(), set()
    for style in soup.find_all("style"):
        sheet = re.sub(r"/\*.*?\*/", " ", str(style.string or ""), flags=re.DOTALL)
        for chunk in sheet.split("}"):
            selectors, brace, declarations = chunk.rpartition("{")
            if not brace or "@" in selectors or not _HIDDEN_STYLE.search(declarations):
                continue
            for selector in selectors.rpartition("{")[2].split(","):
                match = _SIMPLE_SELECTOR.match(selector.strip())
                if not match or not selector.strip():
                    continue
                tag, mark, name = match.groups()
                if mark == ".":
                    classes.add(name)
                elif mark == "#":
                    ids.add(name)
                elif tag:
                    tags.add(tag.lower())
    return frozenset(classes), frozenset(ids), frozenset(tags)


def _html_blocks(text: str, source: str) -> list[Block]:
    check_html_shape(text, source)
    from bs4 import BeautifulSoup

    try:
        soup = BeautifulSoup(clean_text(text), "html5lib")
    except RecursionError:  # (the shape check makes this unlikely)
        raise AnalyzerError(f"{source}: HTML nested too deeply to read") from None
    hidden_classes, hidden_ids, hidden_tags = _hidden_by_style_sheet(soup)
    for name in _UNREAD:
        for element in soup.find_all(name):
            if not element.decomposed:
                element.decompose()

    def is_hidden(element: Any) -> bool:
        attrs = element.attrs
        if "hidden" in attrs or element.name in hidden_tags:
            return True
        if element.name == "input" and str(attrs.get("type", "")).lower() == "hidden":
            return True
        style = attrs.get("style")
        if isinstance(style, str) and _HIDDEN_STYLE.search(style):
            return True
        classes = attrs.get("class") or ()
        if isinstance(classes, str):
            classes = classes.split()
        return any(c in hidden_classes for c in classes) or attrs.get("id") in hidden_ids

    hidden = [element for element in soup.find_all(True) if is_hidden(element)]
    reader = _HtmlReader()
    taken: set[int] = set()
    hidden_roots = []
    for element in hidden:
        if any(id(parent) in taken for parent in element.parents):
            continue
        taken.add(id(element))
        hidden_roots.append(element)
    for element in hidden_roots:
        element.extract()
    root = soup.body or soup
    reader.read(root, hidden=False)
    for element in hidden_roots:
        reader.read(element, hidden=True)
    return reader.blocks


class _HtmlReader:
    """Blocks of a parsed HTML tree, by an iterative walk (no recursion on the page's
    nesting): headings, paragraphs and list items, each table's rows with their cells
    and column headers (a nested table is a table of its own), images' alt text."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.counts = {"paragraph": 0, "table": 0, "image": 0, "heading": 0, "hidden": 0}

    def _where(self, kind: str, hidden: bool) -> str:
        self.counts[kind] += 1
        where = f"{kind} {self.counts[kind]}"
        if hidden:
            self.counts["hidden"] += 1
            where += " (hidden)"
        return where

    def read(self, root: Any, hidden: bool) -> None:
        from bs4 import NavigableString, Tag

        parts: list[str] = []
        state = {"items": 0, "heading": 0}

        def flush() -> None:
            text = _flat(_joined(parts))
            parts.clear()
            if not text:
                return
            if state["heading"]:
                self.blocks.append(
                    Block(
                        "heading",
                        text,
                        self._where("heading", hidden),
                        level=state["heading"],
                        hidden=hidden,
                    )
                )
            else:
                self.blocks.append(
                    Block(
                        "text",
                        text,
                        self._where("paragraph", hidden),
                        item=state["items"] > 0,
                        hidden=hidden,
                    )
                )

        stack: list[tuple[Any, bool]] = [(root, False)]
        while stack:
            node, leaving = stack.pop()
            if isinstance(node, NavigableString):
                if type(node) is NavigableString:  # not a comment, doctype, CDATA...
                    parts.append(str(node))
                continue
            if not isinstance(node, Tag):
                continue
            name = node.name
            if leaving:
                if name in _BLOCK_TAGS:
                    flush()
                    if name in ("li", "dd", "dt"):
                        state["items"] -= 1
                    if _HEADINGS.fullmatch(name):
                        state["heading"] = 0
                elif name not in _TIGHT:
                    parts.append(_EDGE)
                continue
            if name == "table":
                flush()
                self._table(node, hidden)
                continue
            if name == "img":
                alt = node.get("alt")
                if isinstance(alt, str) and alt.strip():
                    flush()
                    self.blocks.append(
                        Block(
                            "alt",
                            _flat(alt),
                            self._where("image", hidden) + " alt text",
                            hidden=hidden,
                        )
                    )
                continue
            if name == "br":
                parts.append(" ")
                continue
            if name in _BLOCK_TAGS:
                flush()
                if name in ("li", "dd", "dt"):
                    state["items"] += 1
                if _HEADINGS.fullmatch(name):
                    state["heading"] = int(name[1])
            elif name not in _TIGHT:
                parts.append(_EDGE)
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(node.contents))
        flush()

    def _table(self, table: Any, hidden: bool) -> None:
        """The rows of ``table`` (not those of tables inside it, read after it as tables
        of their own), each with its cells' text and the columns' headers."""
        self.counts["table"] += 1
        number = self.counts["table"]
        nested: list[Any] = []
        rows: list[tuple[list[str], list[int], bool]] = []
        caption = ""
        stack: list[Any] = list(reversed(table.contents))
        while stack:  # the table's own rows, in order, its nested tables kept for later
            node = stack.pop()
            name = getattr(node, "name", None)
            if name is None:
                continue
            if name == "table":
                nested.append(node)
            elif name == "caption":
                caption = _flat(self._cell_text(node, nested))
            elif name == "tr":
                cells, spans, header = [], [], True
                for cell in node.find_all(["td", "th"], recursive=False):
                    cells.append(_flat(self._cell_text(cell, nested)))
                    spans.append(_span(cell))
                    header = header and cell.name == "th"
                in_head = node.parent is not None and node.parent.name == "thead"
                rows.append((cells, spans, in_head or (header and not rows)))
            else:
                stack.extend(reversed(node.contents))
        headers: list[str] = []
        for cells, spans, header in rows:
            if header:
                headers = _joined_headers(headers, _spread(cells, spans))
        for row_number, (cells, spans, header) in enumerate(rows, 1):
            if not any(cells):
                continue
            self.blocks.append(
                Block(
                    "row",
                    " | ".join(cells),
                    f"table {number}, row {row_number}" + (" (hidden)" if hidden else ""),
                    cells=tuple(_spread(cells, spans, data=True)),
                    headers=tuple(headers),
                    caption=caption,
                    header_row=header,
                    table=number,
                    row=row_number,
                    hidden=hidden,
                )
            )
        for inner in nested:
            self._table(inner, hidden)

    def _cell_text(self, cell: Any, nested: list[Any]) -> str:
        """A cell's text (its images' alt text in it), its nested tables kept apart."""
        from bs4 import NavigableString

        parts: list[str] = []
        stack: list[tuple[Any, bool]] = [(cell, False)]
        while stack:
            node, leaving = stack.pop()
            if isinstance(node, NavigableString):
                if type(node) is NavigableString:
                    parts.append(str(node))
                continue
            name = getattr(node, "name", None)
            if name is None:
                continue
            if leaving:
                if name not in _TIGHT:
                    parts.append(" " if name in _BLOCK_TAGS else _EDGE)
                continue
            if name == "table" and node is not cell:
                nested.append(node)
                continue
            if name == "img":
                alt = node.get("alt")
                if isinstance(alt, str):
                    parts.append(f" {alt} ")
                continue
            if name not in _TIGHT:
                parts.append(" " if name in _BLOCK_TAGS else _EDGE)
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(node.contents))
        return _joined(parts)


def _span(cell: Any) -> int:
    try:
        return max(1, min(int(str(cell.get("colspan", "1")).strip() or 1), 100))
    except ValueError:
        return 1


def _spread(cells: list[str], spans: list[int], data: bool = False) -> list[str]:
    """Cells laid out on the table's columns: a header spanning columns heads each; a
    data cell spanning columns is in its first, the others empty."""
    out = []
    for cell, span in zip(cells, spans, strict=True):
        out.append(cell)
        out.extend([""] * (span - 1) if data else [cell] * (span - 1))
    return out


# -- PDF ---------------------------------------------------------------------------------------


def _pdf_blocks(raw: bytes, source: str) -> list[Block]:
    """Each line of text a PDF's pages give (pypdf's extraction), as a block."""
    import io
    import logging

    try:
        from pypdf import PdfReader
    except ImportError:  # pragma: no cover - a dependency
        raise AnalyzerError(f"{source}: reading a PDF needs pypdf (pip install pypdf)") from None
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings are not the user's
    blocks: list[Block] = []
    total = 0
    try:
        reader = PdfReader(io.BytesIO(raw), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise AnalyzerError(f"{source}: the PDF is encrypted; give its text instead")
        pages = reader.pages
        if len(pages) > MAX_PDF_PAGES:
            raise AnalyzerError(
                f"{source}: {len(pages):,} pages: a PDF is read up to {MAX_PDF_PAGES} pages"
            )
        for number, page in enumerate(pages, 1):
            text = clean_text(page.extract_text() or "")
            total += len(text)
            if total > MAX_TEXT_CHARS:
                raise AnalyzerError(
                    f"{source}: the PDF's text is over {MAX_TEXT_CHARS:,} characters"
                )
            for line_number, line in enumerate(text.split("\n"), 1):
                line = _flat(line)
                if line:
                    blocks.append(
                        Block("text", line, f"page {number}, line {line_number}", line=line_number)
                    )
    except AnalyzerError:
        raise
    except Exception as exc:  # an untrusted PDF may break the reader anywhere
        reason = " ".join(str(exc).split())[:120] or type(exc).__name__
        raise AnalyzerError(f"{source}: cannot read the PDF: {reason}") from None
    if not blocks:
        raise AnalyzerError(
            f"{source}: the PDF holds no text to read (an image of text? no OCR is done)"
        )
    return blocks


def iter_sentences(text: str) -> Iterator[tuple[int, int]]:
    """The sentences of ``text``, as (start, end): cut after ``.``, ``!``, ``?`` and
    ``。`` followed by a space (a decimal point is not followed by one)."""
    start = 0
    for match in re.finditer(r"(?<=[.!?。])\s+", text):
        yield start, match.start()
        start = match.end()
    yield start, len(text)
