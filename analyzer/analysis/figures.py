"""The figures a help page prints about its game, found in its text as printed.

A figure is a percentage (an RTP, a house edge, a probability, a commission), a payout
(``11:1``, ``11 to 1``, ``1:0.95`` where the page writes the stake first, ``9 for 1``,
``pays 8``, ``even money``), a max round (``Max round: 60``, ``Max na Round: 60``,
``Had Pusingan Maks: 60``) or a deck count (``8 decks``, ``8 standard na deck``,
``8 dek standard``). Each is found with its digits as the page prints them, in the page's
own decimal mark (``98,8 %``: a decimal comma) and grouping marks (no-break, narrow and
thin spaces, apostrophes, or commas and points in groups of three; a plain space never
groups digits, so ``score 6 100:1`` stays two numbers), in any script's digits, and read
as the value a claims file states (``98.8%``, ``8:1``): the digits are kept, so the check
is at the digits the page printed. A number of more than :data:`MAX_DIGITS` digits is not
a figure (it is counted, not read), and a page of more than :data:`MAX_FIGURES` figures
is refused in one line.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from analyzer.analysis.page import Block, Page
from analyzer.errors import AnalyzerError
from analyzer.paytables.model import parse_payout

#: The most figures a page may print (a help page prints tens to hundreds).
MAX_FIGURES = 5_000
#: The most digits of a number read as a figure (before and after its decimal mark each).
MAX_DIGITS = 30

FigureKind = Literal["percent", "payout", "max_round", "decks"]

#: Marks that group digits in threes (a plain space does not: it separates numbers).
_GROUPING = "\u00a0\u202f\u2009'\u2019\u066c"
#: Other scripts' and typographies' decimal marks: the Arabic decimal separator, the
#: fullwidth full stop and comma (read as ``.`` and ``,``) and a raised point (``98·94``).
_MARKS = {"\uff0e": ".", "\uff0c": ",", "\u00b7": "."}
_POINTS = "\u066b\uff0e\uff0c\u00b7"
_NUMBER = (
    rf"(?<![\w.,{_POINTS}{_GROUPING}])"
    rf"(?:\d{{1,3}}(?:[.,\uff0c\uff0e{_GROUPING}]\d{{3}})+(?:[.,{_POINTS}]\d+)?"
    rf"|\d+(?:[.,{_POINTS}]\d+)?)"
    r"(?!\d)"
)
_SIGN = r"(?:(?<![\w.,])[-\u2212+])?"
_PERCENT = re.compile(rf"(?P<n>{_SIGN}{_NUMBER})[ \u00a0\u202f\u2009]?[%\uff05\u066a\ufe6a]")
_ODDS = re.compile(rf"(?P<a>{_NUMBER})[ \u00a0]?[:\uff1a\u2236][ \u00a0]?(?P<b>{_NUMBER})(?![:\d])")
_TIME = re.compile(r"\s*(?:[ap]\.?m\b|h\b|hrs?\b|o'clock)", re.IGNORECASE)
_TO = re.compile(
    rf"(?P<a>{_NUMBER})\s+(?P<word>to|sa|kepada|berbanding|for)\s+(?P<b>{_NUMBER})(?!\s*%)",
    re.IGNORECASE,
)
#: Words that say a payout follows ("pays 8", "nagbabayad ng 8", "membayar 8").
PAY_WORDS = (
    "pays",
    "paid",
    "pay",
    "payout of",
    "payout",
    "paying",
    "nagbabayad ng",
    "magbabayad ng",
    "babayaran ng",
    "bayad na",
    "membayar",
    "dibayar",
    "bayaran",
)
_PAY_WORD = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in PAY_WORDS)
_PAYS = re.compile(
    rf"(?<!\w)(?:{_PAY_WORD})\s*:?\s+(?:out\s+)?(?P<a>{_NUMBER})(?:\s*(?:times|x|\u00d7)(?!\w))?"
    r"(?!\s*(?:[:\uff1a\u2236%]|to\b|for\b|sa\b|kepada\b))",
    re.IGNORECASE,
)
_PAY_CONTEXT = re.compile(rf"(?<!\w)(?:{_PAY_WORD}|odds|payouts?)(?!\w)", re.IGNORECASE)
#: A payout of odds other than to one ("7 to 2") is read only right after a word of
#: paying ("pays 7 to 2", "odds of 7 to 2"): else it is a range ("cards 2 to 9").
_PAY_BEFORE = re.compile(rf"(?<!\w)(?:{_PAY_WORD}|odds(?:\s+of)?|at)\s*:?\s*$", re.IGNORECASE)
_EVEN_MONEY = re.compile(r"(?<!\w)even[\s-]+money(?!\w)", re.IGNORECASE)
#: How pages name a bet's max round ("*Max na Round: 60" in Tagalog, "*Had Pusingan
#: Maks: 60" in Malay, as the seed pages print them).
MAX_ROUND_WORDS = (
    "max round",
    "max. round",
    "maximum round",
    "max na round",
    "pinakamataas na round",
    "had pusingan maks",
    "had pusingan maksimum",
    "pusingan maks",
    "pusingan maksimum",
    "maksimum pusingan",
)
_MAX_ROUND_WORD = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in MAX_ROUND_WORDS)
_MAX_ROUND = re.compile(
    rf"(?<!\w)(?:{_MAX_ROUND_WORD})s?\s*\*?\s*[:\uff1a]?\s*(?:ng\s+)?(?P<a>\d{{1,9}})(?!\d|[.,]\d)",
    re.IGNORECASE,
)
_NUMBER_WORDS = {
    "one": 1,
    "single": 1,
    "two": 2,
    "double": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twelve": 12,
}
_DECKS = re.compile(
    rf"(?<![\w.,])(?P<a>\d{{1,3}}|{'|'.join(_NUMBER_WORDS)})"
    r"(?:[\s-]+(?:standard|full|regular|complete|french|52[\s-]?card|52[\s-]?kad|na|piawai))*"
    r"[\s-]+(?:decks?|dek|deks|packs?)(?!\w)",
    re.IGNORECASE,
)


class _TooMany(Exception):
    """More figures than :data:`MAX_FIGURES` (raised as soon as one more is found)."""


@dataclass(frozen=True)
class Figure:
    """A figure found on a page.

    ``printed`` is its text as on the page; ``value`` what a claims file states
    (``"98.8%"``, ``"8:1"``, ``60``, ``8``); ``reading`` how it was read, when that is
    more than its digits (a decimal comma, a stake written first); ``block`` the index of
    its block in the page's blocks, ``cell`` its column in a table row (None elsewhere),
    and ``start``/``end`` where it is in that cell's text (or the block's)."""

    kind: FigureKind
    printed: str
    value: str | int
    reading: str
    block: int
    cell: int | None
    start: int
    end: int


@dataclass(frozen=True)
class Found:
    """The figures of a page, and how it writes them: its decimal mark, whether its
    odds put the stake first, and how many numbers were too long to be figures."""

    figures: tuple[Figure, ...]
    decimal_mark: str
    stake_first: bool
    too_long: int


_MARK_TABLE = str.maketrans(_MARKS)


def _ascii_digits(text: str) -> str:
    return "".join(str(unicodedata.decimal(c)) if c.isdigit() else c for c in text)


def plain_number(text: str, decimal_mark: str = ".") -> str | None:
    """A number as printed (``98,8``, ``1.234,5``, 1 234.5 with a no-break space, in any
    script's digits) in plain digits with a decimal point (``98.8``), its digits kept;
    None for one of more than :data:`MAX_DIGITS` digits. A lone ``.`` or ``,`` followed
    by three digits is the page's decimal mark (``decimal_mark``) or else a grouping
    mark.

    Examples
    --------
    >>> plain_number("98,8"), plain_number("1.234,5")
    ('98.8', '1234.5')
    >>> plain_number("1,234", decimal_mark=","), plain_number("1,234")
    ('1.234', '1234')
    """
    sign = ""
    text = text.translate(_MARK_TABLE)
    if text[:1] in "-\u2212+":
        sign, text = ("-" if text[0] != "+" else ""), text[1:]
    marks = [(i, c) for i, c in enumerate(text) if not c.isdigit()]
    point = None
    if marks:
        last_at, last = marks[-1]
        others = {c for _, c in marks[:-1]}
        if last == "\u066b":
            point = last_at
        elif last in ".,":
            repeated = sum(1 for _, c in marks if c == last) > 1
            if not repeated and (others or len(text) - last_at - 1 != 3 or last == decimal_mark):
                point = last_at
    whole = text if point is None else text[:point]
    fraction = "" if point is None else text[point + 1 :]
    whole = "".join(c for c in whole if c.isdigit())
    if len(whole) > MAX_DIGITS or len(fraction) > MAX_DIGITS:
        return None
    out = _ascii_digits(whole) + ("." + _ascii_digits(fraction) if fraction else "")
    return sign + out


def _evidence(text: str) -> str | None:
    """The decimal mark a number shows unambiguously (``98,8``; ``1,234.5``), if any."""
    body = text.translate(_MARK_TABLE).lstrip("-\u2212+")
    marks = [c for c in body if c in ".,"]
    if not marks:
        return None
    if len(set(marks)) == 2:
        return marks[-1]
    if len(marks) == 1 and len(body) - body.rindex(marks[0]) - 1 != 3:
        return marks[0]
    return None


def _texts(block: Block) -> list[tuple[int | None, str]]:
    if block.kind == "row" and block.cells:
        return list(enumerate(block.cells))
    return [(None, block.text)]


def find_figures(page: Page) -> Found:
    """Every figure of ``page``: see the module's description.

    Parameters
    ----------
    page : Page
        The page read (:func:`analyzer.analysis.page.read_page`).

    Returns
    -------
    Found

    Raises
    ------
    AnalyzerError
        A page of more than :data:`MAX_FIGURES` figures.
    """
    marks: dict[str, int] = {".": 0, ",": 0}
    ratios: list[tuple[str, str]] = []
    for block in page.blocks:
        for _, text in _texts(block):
            for match in _PERCENT.finditer(text):
                mark = _evidence(match["n"])
                if mark:
                    marks[mark] += 1
            for match in _ODDS.finditer(text):
                for side in ("a", "b"):
                    mark = _evidence(match[side])
                    if mark:
                        marks[mark] += 1
                ratios.append((match["a"], match["b"]))
    decimal_mark = "," if marks[","] > marks["."] else "."
    stake_first = _stake_first(ratios, decimal_mark)
    figures: list[Figure] = []
    too_long = 0
    for index, block in enumerate(page.blocks):
        for cell, text in _texts(block):
            header = block.headers[cell] if cell is not None and cell < len(block.headers) else ""
            try:
                found, skipped = _in_text(
                    text,
                    index,
                    cell,
                    decimal_mark,
                    stake_first,
                    header,
                    block.header_row,
                    budget=MAX_FIGURES - len(figures),
                )
            except _TooMany:
                raise AnalyzerError(
                    f"{page.source}: more than {MAX_FIGURES:,} figures: a help page prints "
                    "far fewer; nothing was checked"
                ) from None
            figures += found
            too_long += skipped
    return Found(tuple(figures), decimal_mark, stake_first, too_long)


def _stake_first(ratios: list[tuple[str, str]], decimal_mark: str) -> bool:
    """Does the page write its odds stake first (``1:8``, ``1:0.95``)? When every a:b
    it prints has a = 1 and some b is neither 1 nor 2 (``1:2``, half the stake, is read
    odds first, as the seed pages print it)."""
    if not ratios:
        return False
    values = []
    for a, b in ratios:
        a_text, b_text = plain_number(a, decimal_mark), plain_number(b, decimal_mark)
        if a_text is None or b_text is None:
            return False
        values.append((Decimal(a_text), Decimal(b_text)))
    return all(a == 1 for a, _ in values) and any(b not in (1, 2) for _, b in values)


def _in_text(
    text: str,
    block: int,
    cell: int | None,
    decimal_mark: str,
    stake_first: bool,
    header: str,
    header_row: bool = False,
    budget: int = MAX_FIGURES,
) -> tuple[list[Figure], int]:
    """The figures of one text (a block's, or a cell's), earliest first; a span taken by
    one reading is not read again by a later one."""
    # The spans taken, kept sorted and apart: whether a span is free is found by bisection
    # (a line of a hundred thousand "1 to 1" costs no more per figure than a short one).
    starts: list[int] = []
    ends: list[int] = []
    out: list[Figure] = []
    too_long = 0

    def free(start: int, end: int) -> bool:
        at = bisect.bisect_left(starts, end)  # the spans starting before this one ends
        return at == 0 or ends[at - 1] <= start

    def take(start: int, end: int) -> None:
        at = bisect.bisect_left(starts, start)
        starts.insert(at, start)
        ends.insert(at, end)

    def add(kind: FigureKind, match: re.Match, value: str | int, reading: str = "") -> None:
        if len(out) >= budget:
            raise _TooMany
        take(*match.span())
        out.append(Figure(kind, match[0], value, reading, block, cell, *match.span()))

    comma = " (decimal comma)" if decimal_mark == "," else ""
    for match in _PERCENT.finditer(text):
        number = plain_number(match["n"], decimal_mark)
        if number is None:
            too_long += 1
            continue
        add("percent", match, f"{number}%", comma if "," in match["n"] else "")
    for match in _ODDS.finditer(text):
        if not free(*match.span()) or _TIME.match(text, match.end()):
            continue
        a, b = plain_number(match["a"], decimal_mark), plain_number(match["b"], decimal_mark)
        if a is None or b is None:
            too_long += 1
            continue
        reading = ""
        # "1:0.95" is the stake first on any page: no one pays 1 to 0.95.
        if stake_first or (Decimal(a) == 1 and 0 < Decimal(b) < 1):
            a, b = b, a
            reading = f" (the stake written first: {match[0].strip()} is {a}:{b})"
        value = _payout(a, b)
        if value is not None:
            add("payout", match, value, reading)
    for match in _TO.finditer(text):
        if not free(*match.span()):
            continue
        a, b = plain_number(match["a"], decimal_mark), plain_number(match["b"], decimal_mark)
        if a is None or b is None:
            too_long += 1
            continue
        word = match["word"].lower()
        before = text[max(0, match.start() - 16) : match.start()]
        if Decimal(b) != 1 and (word == "sa" or not _PAY_BEFORE.search(before)):
            continue  # "cards 2 to 9", "a tie on 6 to 9": a range, not odds
        reading = ""
        if word == "for":  # "9 for 1": the stake is in the 9
            net = Decimal(a) - Decimal(b)
            if net <= 0:
                continue
            a = _decimal_text(net)
            reading = f" ({match[0]} returns the stake: {a}:{b} to one)"
        value = _payout(a, b)
        if value is not None:
            add("payout", match, value, reading)
    for match in _PAYS.finditer(text):
        if not free(*match.span()):
            continue
        a = plain_number(match["a"], decimal_mark)
        if a is None:
            too_long += 1
            continue
        value = _payout(a, "1")
        if value is not None:
            add("payout", match, value, f" (read as {a} to 1)")
    for match in _EVEN_MONEY.finditer(text):
        if free(*match.span()):
            add("payout", match, "1:1", " (even money: 1 to 1)")
    for match in _MAX_ROUND.finditer(text):
        if free(*match.span()):
            add("max_round", match, int(match["a"]))
    max_round_column = bool(re.search(_MAX_ROUND_WORD, header, re.IGNORECASE))
    if max_round_column and not out:
        whole = re.match(r"\s*\*?\s*(\d{1,9})(?![\d%:]|[.,]\d|\s*(?:[%:]|to\b))", text)
        if whole:
            take(*whole.span(1))
            out.append(
                Figure("max_round", whole[1], int(whole[1]), "", block, cell, *whole.span(1))
            )
    for match in _DECKS.finditer(text):
        if not free(*match.span()) or header_row:  # a column's shoe ("1 deck"), not the game's
            continue
        count = match["a"].lower()
        add("decks", match, int(count) if count.isdigit() else _NUMBER_WORDS[count])
    out.sort(key=lambda figure: figure.start)
    return out, too_long


def _decimal_text(value: Decimal) -> str:
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _payout(a: str, b: str) -> str | None:
    """``a:b`` as a paytable writes a payout, if it is one (more than 0, at most the
    largest payout a paytable takes)."""
    value = f"{a.lstrip('-')}:{b.lstrip('-')}"
    if a.startswith("-") or b.startswith("-"):
        return None
    try:
        parse_payout(value)
    except AnalyzerError:
        return None
    return value
