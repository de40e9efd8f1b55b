"""``certify``: a help page's figures tied to a paytable's bets, stated as claims and checked.

Every figure the page prints (:mod:`analyzer.analysis.figures`) is tied to what it is about
by the names the paytable gives its bets and paying lines in every language (``name``,
``names``, each rule's ``label``/``labels``, the bet's ``aliases``, its id): by its table
row (the bet whose name starts the row) and column (the column header's words: ``RTP``,
``House edge``, ``Max round``, a mode, a number of decks), else by nearness in the text (the
nearest name before it in its sentence, then after it; a list item or a section under a
heading takes its bet from the paragraph or heading above it). A percentage is an RTP, a
house edge, a hit frequency... by the nearest such word in its clause; an RTP with a word
of maximum and no bet in its sentence is the game's maximum RTP. Nothing is guessed: a
figure tied to no bet, or whose meaning no word says, is UNMATCHED (shown with its
snippet); one the claims cannot state (a commission) or that the paytable cannot (a mode
the page does not name for a bet that pays differently by mode) is NOT STATEABLE; one in
content the page hides is HIDDEN. Each payout is a claim of its own (one of the bet's
payouts, in its mode), so a wrong one fails alone; the payouts of a bet the page prints
some of but not all are said among what it leaves out.

The claims are checked by :func:`analyzer.analysis.verify.verify_claims` against the
paytable, each figure at the digits the page printed: no second implementation of a check.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analyzer.analysis.figures import MAX_ROUND_WORDS, Figure, Found, find_figures
from analyzer.analysis.page import Block, Page, iter_sentences
from analyzer.errors import AnalyzerError
from analyzer.paytables.claims import PAYTABLE_FACTS, ROUNDINGS, Claim, claims_from_dict
from analyzer.paytables.library import SEED_GAME
from analyzer.paytables.model import Paytable

#: The words of each percentage a page may print, in English, Tagalog and Malay (the
#: help pages' words: ``report --lang`` and ``docs --site`` print these).
QUANTITY_WORDS: dict[str, tuple[str, ...]] = {
    "rtp": (
        "rtp",
        "return to player",
        "theoretical return",
        "payback",
        "pulangan pemain",
        "pulangan kepada pemain",
        "rtp (pulangan pemain)",
    ),
    "house_edge": (
        "house edge",
        "house advantage",
        "edge",
        "kalamangan ng bahay",
        "bentahe ng bahay",
        "kelebihan rumah",
    ),
    "hit_frequency": (
        "hit frequency",
        "hit rate",
        "probability of winning",
        "chance of winning",
        "win probability",
        "probability",
        "chance",
        "dalas ng panalo",
        "probabilidad",
        "tsansa",
        "kekerapan menang",
        "kebarangkalian",
        "peluang",
    ),
    "push": ("push", "push probability", "tolak"),
    "std_dev": ("standard deviation", "std dev", "std. dev.", "sisihan piawai"),
    "variance": ("variance", "varians"),
    "edge_per_resolved": (
        "edge per resolved bet",
        "kalamangan kada nalutas na taya",
        "kelebihan bagi pertaruhan selesai",
    ),
}
#: A percentage of the stake a winning bet pays back: what a payout states, not a claim.
COMMISSION_WORDS = ("commission", "komisyon", "komisen", "komisi", "vigorish", "vig")
#: Words that make an RTP the game's maximum.
MAX_WORDS = ("maximum", "max", "highest", "pinakamataas", "maksimum", "tertinggi")
#: The results a figure can have.
RESULTS = ("PASS", "FAIL", "UNCHECKED", "NOT STATEABLE", "UNMATCHED", "HIDDEN")
#: The columns of each figure's row (JSON: one object per figure with these keys).
COLUMNS = (
    "figure",
    "result",
    "last_digit",
    "kind",
    "printed",
    "value",
    "reading",
    "where",
    "snippet",
    "claim",
    "quantity",
    "bet",
    "mode",
    "computed",
    "exact",
    "note",
)
#: How far a snippet reaches on each side of its figure, in characters.
SNIPPET_REACH = 45
#: The rule every printed figure is checked by (said by the certificate).
ROUNDING_RULES = {
    "round": "each figure is checked at its last printed digit: the exact value rounded "
    "half away from zero to that digit, with integers only, must equal it",
    "truncate": "each figure is checked at its last printed digit: the exact value "
    "truncated toward zero at that digit, with integers only, must equal it",
}


@dataclass(frozen=True)
class PageWords:
    """What a page may call the paytable's modes, beside the bets' names: ``modes``
    (mode id -> the names pages give it, e.g. ``"Walang Komisyon Baccarat"``),
    ``every_mode`` (a mode column's words for a figure of every mode: ``"All modes"``)
    and ``mode_headers`` (a mode column's header: ``"Mode"``). The command line gives the
    help pages' words in every language; by default each mode is its id, spaced."""

    modes: Mapping[str, Sequence[str]] = field(default_factory=dict)
    every_mode: Sequence[str] = ("all modes",)
    mode_headers: Sequence[str] = ("mode", "betting mode")


@dataclass
class _Mention:
    start: int
    end: int
    bets: frozenset[str] = frozenset()
    labels: frozenset[tuple[str, str]] = frozenset()  # (bet id, label in English)
    mode: str | None = None
    every_mode: bool = False
    quantity: str | None = None
    commission: bool = False
    maximum: bool = False
    max_round: bool = False
    mode_header: bool = False

    def bet(self) -> str | None:
        """The one bet it names (a name, or a line's label of one bet)."""
        if len(self.bets) == 1:
            return next(iter(self.bets))
        if not self.bets and len({bet for bet, _ in self.labels}) == 1:
            return next(iter(self.labels))[0]
        return None


def _normal(text: str) -> str:
    return re.sub(r"[\s\u00a0\u202f\u2009\-\u2010\u2011\u2013]+", " ", text.casefold()).strip()


def _pattern(text: str) -> str:
    words = [re.escape(word) for word in _normal(text).split(" ")]
    return r"[\s\u00a0\u202f\u2009\-\u2010\u2011\u2013]+".join(words)


class _Index:
    """The names of the paytable's bets, lines and modes and the words of figures, as one
    pattern: at each place the longest name wins."""

    def __init__(self, paytable: Paytable, words: PageWords) -> None:
        self.entries: dict[str, _Mention] = {}

        def entry(text: str) -> _Mention | None:
            key = _normal(text)
            if not key or len(key) > 200:
                return None
            return self.entries.setdefault(key, _Mention(0, 0))

        for bet in paytable.bets:
            for name in {bet.name, *bet.names.values(), bet.id, *bet.aliases}:
                found = entry(name)
                if found is not None:
                    found.bets = found.bets | {bet.id}
            for rule in bet.rules:
                english = rule.labels.get("en") or next(iter(rule.labels.values()), None)
                for label in rule.labels.values():
                    found = entry(label)
                    if found is not None and english is not None:
                        found.labels = found.labels | {(bet.id, english)}
        for mode in paytable.modes:
            names = list(words.modes.get(mode, ())) or [mode.replace("_", " ")]
            for name in names:
                found = entry(name)
                if found is not None:
                    found.mode = mode
        for text in words.every_mode:
            found = entry(text)
            if found is not None:
                found.every_mode = True
        for text in words.mode_headers:
            found = entry(text)
            if found is not None:
                found.mode_header = True
        for quantity, texts in QUANTITY_WORDS.items():
            for text in texts:
                entry(text).quantity = quantity  # type: ignore[union-attr]
        for text in COMMISSION_WORDS:
            entry(text).commission = True  # type: ignore[union-attr]
        for text in MAX_WORDS:
            entry(text).maximum = True  # type: ignore[union-attr]
        for text in MAX_ROUND_WORDS:
            entry(text).max_round = True  # type: ignore[union-attr]
        keys = sorted(self.entries, key=len, reverse=True)
        alternatives = "|".join(_pattern(key) for key in keys)
        self.regex = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)

    def mentions(self, text: str) -> list[_Mention]:
        out = []
        for match in self.regex.finditer(text):
            known = self.entries.get(_normal(match[0]))
            if known is None:
                continue
            mention = _Mention(**{**known.__dict__, "start": match.start(), "end": match.end()})
            if mention.quantity or mention.commission or mention.max_round:
                # A name inside the words of a figure ("Return to Player") names no bet.
                mention.bets, mention.labels = frozenset(), frozenset()
            out.append(mention)
        return out


@dataclass
class _Tie:
    """What a figure was read as."""

    status: str = "claim"  # claim, UNMATCHED, NOT STATEABLE, HIDDEN
    quantity: str | None = None
    bet: str | None = None
    mode: str | None = None
    label: str | None = None
    decks: int | None = None  # a column's shoe
    anchor: Any = None  # payouts with the same anchor, bet and mode are one claim
    reason: str = ""


@dataclass(frozen=True)
class ClaimDraft:
    """A claim inferred from the page: its table as a claims file writes it, and the
    figures it states (their numbers, 1 for the page's first)."""

    item: dict[str, Any]
    figures: tuple[int, ...]


@dataclass(frozen=True)
class Certificate:
    """What ``certify`` found on a page and how each figure fared.

    ``figures``: a row per figure found, in page order (see :data:`COLUMNS`); ``claims``
    the claims it inferred (each checked by ``verify``); ``omitted`` what the paytable has
    that the page does not print (a bet, a bet's max round, a mode's payouts, the game's
    maximum RTP); ``status`` 1 when a figure FAILs, else 0."""

    page: Page
    paytable: Paytable
    figures: tuple[dict[str, Any], ...]
    claims: tuple[ClaimDraft, ...]
    omitted: tuple[dict[str, Any], ...]
    rounding: str
    decimal_mark: str
    stake_first: bool
    too_long: int
    section: str | None

    @property
    def status(self) -> int:
        """The exit status: 1 when a figure FAILs, else 0."""
        return 1 if any(row["result"] == "FAIL" for row in self.figures) else 0

    def counts(self) -> dict[str, int]:
        """How many figures have each result (every result, 0 where none)."""
        out = dict.fromkeys(RESULTS, 0)
        for row in self.figures:
            out[row["result"]] += 1
        return out


def certify_page(
    page: Page,
    paytable: Paytable,
    *,
    words: PageWords | None = None,
    rounding: str = "round",
    section: str | None = None,
) -> Certificate:
    """Find, tie and check every figure of ``page`` against ``paytable``.

    Parameters
    ----------
    page : Page
        The help page (:func:`analyzer.analysis.page.read_page`).
    paytable : Paytable
        The paytable the page should agree with.
    words : PageWords, optional
        The names the page may give the paytable's modes (default: their ids, spaced).
    rounding : {"round", "truncate"}
        How the page cut its figures' digits (default: half away from zero).
    section : str, optional
        Read only the section under the heading containing this text (default: the
        section whose top-level heading names the paytable, on a page of several such
        sections; else the whole page).

    Returns
    -------
    Certificate

    Raises
    ------
    AnalyzerError
        A rounding that is not one of :data:`~analyzer.paytables.claims.ROUNDINGS`, a
        section no heading names.
    """
    if rounding not in ROUNDINGS:
        raise AnalyzerError(f"unknown rounding {rounding!r} (use {' or '.join(ROUNDINGS)})")
    words = words or PageWords()
    found = find_figures(page)
    index = _Index(paytable, words)
    scope, chosen = _section(page, paytable, section)
    reader = _Reader(page, paytable, index, found, scope)
    ties = [reader.tie(n, figure) for n, figure in enumerate(found.figures)]
    drafts = _drafts(page, found.figures, ties, rounding)
    results = _verified(paytable, drafts)
    claim_of = {f: number for number, draft in enumerate(drafts, 1) for f in draft.figures}
    rows = [
        _row(n, page, figure, tie, drafts, results, claim_of.get(n + 1))
        for n, (figure, tie) in enumerate(zip(found.figures, ties, strict=True))
    ]
    omitted = _omitted(paytable, rows, found.figures, ties)
    return Certificate(
        page,
        paytable,
        tuple(rows),
        tuple(drafts),
        tuple(omitted),
        rounding,
        found.decimal_mark,
        found.stake_first,
        found.too_long,
        chosen,
    )


# -- Sections: a page of several games -----------------------------------------------------------


def _section(
    page: Page, paytable: Paytable, section: str | None
) -> tuple[dict[int, str], str | None]:
    """The blocks outside the section read (index -> why), and the section's heading."""
    headings = [(i, b) for i, b in enumerate(page.blocks) if b.kind == "heading" and not b.hidden]
    chosen = None
    if section is not None:
        wanted = _normal(section)
        # The heading that is the text, else the first that holds it ("Baccarat" is the
        # section "Baccarat", not "EZ Baccarat" before it).
        chosen = next((hb for hb in headings if _normal(hb[1].text) == wanted), None) or next(
            (hb for hb in headings if wanted in _normal(hb[1].text)), None
        )
        if chosen is None:
            raise AnalyzerError(
                f"{page.source}: no heading holds {section[:60]!r} (headings: "
                + ", ".join(repr(b.text[:40]) for _, b in headings[:12])
                + (")" if headings else "none)")
            )
    elif headings:
        top = min(b.level for _, b in headings)
        tops = [(i, b) for i, b in headings if b.level == top]
        if len(tops) >= 2:
            name = _normal(paytable.name)
            exact = [hb for hb in tops if _normal(hb[1].text) == name]
            within = [
                hb
                for hb in tops
                if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", _normal(hb[1].text))
            ]
            candidates = exact or sorted(within, key=lambda hb: len(hb[1].text))
            chosen = candidates[0] if candidates else None
    if chosen is None:
        return {}, None
    start, heading = chosen
    end = next((i for i, b in headings if i > start and b.level <= heading.level), len(page.blocks))
    outside = {}
    current = None
    for i, block in enumerate(page.blocks):
        if block.kind == "heading" and block.level <= heading.level:
            current = block.text
        if not start <= i < end:
            other = f" ({current[:60]!r})" if current and i >= start else ""
            outside[i] = f"outside the section read ({heading.text[:60]!r}){other}"
    return outside, heading.text


# -- Tying each figure ---------------------------------------------------------------------------


#: What may come before the name that starts a row: marks, quotes, brackets, spaces.
_LEADING = re.compile(r"^[^\w]*")


#: The most names looked at either side of a figure: beyond them nothing is near.
_REACH = 64


class _Text:
    """A text of the page (a block's, a cell's or a column header's) with the names and
    words in it, its sentences and its figures, indexed so that what is near a figure is
    found by bisection (a page's long line costs no more per figure than a short one)."""

    def __init__(self, text: str, mentions: list[_Mention], figures: Sequence[Figure]) -> None:
        self.text = text
        self.mentions = mentions
        self.starts = [m.start for m in mentions]
        self.ends = [m.end for m in mentions]
        self.figure_starts = sorted(f.start for f in figures)
        self.figure_ends = sorted(f.end for f in figures)
        self._sentences: list[tuple[int, int]] | None = None
        self._sentence_starts: list[int] = []

    def sentence(self, at: int) -> tuple[int, int]:
        """The sentence ``at`` is in: (start, end)."""
        if self._sentences is None:
            self._sentences = list(iter_sentences(self.text))
            self._sentence_starts = [start for start, _ in self._sentences]
        found = bisect.bisect_right(self._sentence_starts, at) - 1
        return self._sentences[max(0, found)]

    def backward(self, start: int, end: int) -> Iterator[_Mention]:
        """The mentions ending after ``start`` and by ``end``, nearest ``end`` first (at
        most :data:`_REACH`)."""
        last = bisect.bisect_right(self.ends, end)
        for i in range(last - 1, max(-1, last - 1 - _REACH), -1):
            if self.ends[i] <= start:
                return
            yield self.mentions[i]

    def forward(self, start: int, end: int) -> Iterator[_Mention]:
        """The mentions starting at ``start`` or after and before ``end``, nearest
        ``start`` first (at most :data:`_REACH`)."""
        first = bisect.bisect_left(self.starts, start)
        for i in range(first, min(len(self.mentions), first + _REACH)):
            if self.starts[i] >= end:
                return
            yield self.mentions[i]

    def next_figure(self, after: int, limit: int) -> int:
        """Where the next figure starting at ``after`` or later starts (``limit`` at most)."""
        i = bisect.bisect_left(self.figure_starts, after)
        return min(limit, self.figure_starts[i]) if i < len(self.figure_starts) else limit

    def previous_figure(self, before: int, floor: int) -> int:
        """Where the last figure ending by ``before`` ends (``floor`` at least)."""
        i = bisect.bisect_right(self.figure_ends, before)
        return max(floor, self.figure_ends[i - 1]) if i else floor

    def leading(self) -> _Mention | None:
        """The name that starts the text (after marks, quotes, brackets), if one does."""
        lead = _LEADING.match(self.text)
        begin = lead.end() if lead else 0
        first = self.mentions[0] if self.mentions else None
        return first if first is not None and first.start <= begin else None


class _Reader:
    def __init__(
        self,
        page: Page,
        paytable: Paytable,
        index: _Index,
        found: Found,
        outside: Mapping[int, str],
    ) -> None:
        self.page, self.paytable, self.index, self.found = page, paytable, index, found
        self.outside = outside
        self.by_mode = {
            bet_id
            for bet_id in paytable.bet_ids
            if len({id(b) for b, _ in paytable.offered(paytable.modes, (bet_id,))}) > 1
        }
        self._texts: dict[tuple[int, int | None], _Text] = {}
        self._rows: dict[int, tuple[str | None, Any, str | None]] = {}
        self._figures: dict[tuple[int, int | None], list[Figure]] = {}
        for figure in found.figures:
            self._figures.setdefault((figure.block, figure.cell), []).append(figure)
        # What each block is under: the last heading above it, and for a list item the
        # last block above it that is not one (the list's introduction).
        self._heading: list[int | None] = []
        self._intro: list[int | None] = []
        heading = intro = None
        for i, block in enumerate(page.blocks):
            self._heading.append(heading)
            self._intro.append(intro if block.item else None)
            if block.kind == "heading":
                heading = i
            if not block.item:
                intro = i

    def text(self, block: int, cell: int | None) -> _Text:
        key = (block, cell)
        if key not in self._texts:
            b = self.page.blocks[block]
            if cell is None:
                text = b.text
            elif cell >= 0:
                text = b.cells[cell]
            else:  # a column's header
                text = b.headers[-cell - 1]
            self._texts[key] = _Text(text, self.index.mentions(text), self._figures.get(key, []))
        return self._texts[key]

    def mentions(self, block: int, cell: int | None) -> list[_Mention]:
        return self.text(block, cell).mentions

    def tie(self, number: int, figure: Figure) -> _Tie:
        block = self.page.blocks[figure.block]
        if block.hidden:
            return _Tie("HIDDEN", reason="in content the page hides (CSS or the hidden attribute)")
        if figure.block in self.outside:
            return _Tie("UNMATCHED", reason=self.outside[figure.block])
        text = self.text(figure.block, figure.cell)
        named = [
            m.bet()
            for m in text.backward(figure.start - 1, figure.end + 500)
            if m.bets and m.start <= figure.start and figure.end <= m.end
        ]
        if named:
            return _Tie(
                "NOT STATEABLE",
                bet=named[0],
                reason=f"part of the name of bet {named[0]} (a name, not a figure about it)",
            )
        if figure.kind == "decks":
            return _Tie(quantity="decks")
        if block.kind == "row" and figure.cell is not None and not block.header_row:
            tie = self._in_row(figure, block)
        else:
            tie = self._in_text(figure, block)
        return self._meaning(figure, tie)

    # -- Rows ------------------------------------------------------------------------------

    def _row_bet(self, index: int) -> tuple[str | None, Any, str | None]:
        """The bet whose name starts a row's first cell (or the row above's, for a row that
        goes on with it: one starting with a mode's name, or a line of that bet, or empty),
        the row's anchor and the mode its mode column names (``"*"``: every mode). Rows are
        read from the first of their table not yet read, in order (no recursion)."""
        if index in self._rows:
            return self._rows[index]
        first = index
        table = self.page.blocks[index].table
        while first > 0 and first - 1 not in self._rows:
            above = self.page.blocks[first - 1]
            if above.kind != "row" or above.table != table:
                break
            first -= 1
        for row in range(first, index + 1):
            self._rows[row] = self._read_row(row)
        return self._rows[index]

    def _read_row(self, index: int) -> tuple[str | None, Any, str | None]:
        block = self.page.blocks[index]
        bet, anchor = None, ("row", index)
        first = block.cells[0] if block.cells else ""
        starting = self.text(index, 0).leading() if block.cells else None
        if starting is not None and starting.bet():
            bet = starting.bet()
        else:
            previous = self._rows.get(index - 1)
            above = self.page.blocks[index - 1] if index > 0 else None
            if previous is not None and above is not None and above.table == block.table:
                prior, prior_anchor, _ = previous
                goes_on = not first.strip() or (
                    starting is not None
                    and (starting.mode is not None or any(b == prior for b, _ in starting.labels))
                )
                if prior is not None and goes_on:
                    bet, anchor = prior, prior_anchor
        mode = None
        for column in range(min(len(block.headers), len(block.cells))):
            if self._header(index, column).mode_header:
                cell = self.mentions(index, column)
                if cell and cell[0].every_mode:
                    mode = "*"
                elif cell and cell[0].mode:
                    mode = cell[0].mode
        return bet, anchor, mode

    def _header(self, index: int, column: int) -> _Mention:
        """What a column's header says: a bet, a mode, a figure's words, a mode column."""
        out = _Mention(0, 0)
        block = self.page.blocks[index]
        if column >= len(block.headers):
            return out
        header = self.text(index, -column - 1)
        starting = header.leading()
        if starting is not None and starting.bet():
            out.bets = frozenset({starting.bet()})
        for mention in header.mentions[:_REACH]:
            out.quantity = out.quantity or mention.quantity
            out.mode = out.mode or mention.mode
            out.mode_header = out.mode_header or mention.mode_header
            out.max_round = out.max_round or mention.max_round
            out.commission = out.commission or mention.commission
            out.maximum = out.maximum or mention.maximum
        return out

    def _in_row(self, figure: Figure, block: Block) -> _Tie:
        assert figure.cell is not None
        bet, anchor, row_mode = self._row_bet(figure.block)
        header = self._header(figure.block, figure.cell)
        text = self.text(figure.block, figure.cell)
        tie = _Tie(anchor=anchor)
        tie.bet = bet or (header.bet() if figure.cell > 0 else None)
        if tie.bet is None:
            tie.bet, at, _ = self._near_bet(text, figure)
            tie.anchor = ("text", figure.block, figure.cell, at)
        if header.mode:
            tie.mode = header.mode
        elif row_mode is not None:
            tie.mode = None if row_mode == "*" else row_mode
        else:
            tie.mode = self._near_mode(text, figure.start, tie.bet)
            if tie.mode is None and tie.bet in self.by_mode:
                places = [(figure.block, column) for column in range(figure.cell - 1, -1, -1)]
                if anchor[0] == "row" and anchor[1] != figure.block:  # the row it goes on from
                    cells = len(self.page.blocks[anchor[1]].cells)
                    places += [(anchor[1], column) for column in range(cells - 1, -1, -1)]
                for row, column in places:  # a mode named earlier in the row
                    named = [m.mode for m in self.mentions(row, column)[-_REACH:] if m.mode]
                    if named:
                        tie.mode = named[-1]
                        break
        tie.label = self._near_label(text, 0, figure.start, tie.bet)
        if figure.kind == "percent":
            tie.quantity = header.quantity
            if header.commission:
                tie.quantity = "commission"
            if tie.quantity is None and figure.cell > 0:
                tie.quantity = _quantity(self.text(figure.block, 0).forward(0, 10**9))
            if tie.quantity is None:
                tie.quantity = self._clause_quantity(text, figure)
            if tie.quantity is None and block.caption:
                tie.quantity = _quantity(self.index.mentions(block.caption)[:_REACH])
        decks = re.search(r"(?<!\d)(\d{1,2})\s*(?:decks?|dek|deck)\b", _header_text(block, figure))
        if decks and figure.kind == "percent":
            tie.decks = int(decks[1])
        return tie

    # -- Text ------------------------------------------------------------------------------

    def _in_text(self, figure: Figure, block: Block) -> _Tie:
        text = self.text(figure.block, figure.cell)
        start, end = text.sentence(figure.start)
        near, at, named = self._near_bet(text, figure)
        tie = _Tie(anchor=("text", figure.block, figure.cell, at))
        above, context = self._context_bet(figure.block)
        tie.bet = near or above
        if context is not None and tie.bet == above and not named:
            # The items of a list about one bet, and the passages under its heading, that
            # do not name it again are one passage: their payouts are one claim.
            tie.anchor = ("text", context, None)
        tie.mode = self._near_mode(text, figure.start, tie.bet)
        tie.label = self._near_label(text, start, figure.start, tie.bet)
        if figure.kind == "percent":
            tie.quantity = self._clause_quantity(text, figure)
            in_sentence = [*text.backward(start, end), *text.forward(figure.end, end)]
            maximum = any(m.maximum for m in in_sentence)
            named = any(m.bet() for m in in_sentence)
            if tie.quantity == "rtp" and maximum and not named:
                tie.quantity, tie.bet = "max_rtp", None
        return tie

    def _context_bet(self, index: int) -> tuple[str | None, int | None]:
        """The bet a block takes from above it: a list item from the paragraph before the
        list (when that names one bet), any block from the heading it is under (when that
        names one bet)."""
        block = self.page.blocks[index]
        intro = self._intro[index]
        if block.item and intro is not None and self.page.blocks[intro].kind == "text":
            bets = {m.bet() for m in self.mentions(intro, None)[:_REACH] if m.bet()}
            if len(bets) == 1:
                return bets.pop(), intro
        heading = self._heading[index]
        if heading is not None:
            bets = {m.bet() for m in self.mentions(heading, None)[:_REACH] if m.bet()}
            if len(bets) == 1:
                return bets.pop(), heading
        return None, None

    # -- Nearness --------------------------------------------------------------------------

    def _near_bet(self, text: _Text, figure: Figure) -> tuple[str | None, int, bool]:
        """The bet named nearest before the figure in its sentence, else nearest after it
        (before the next figure), else the one the passage starts with; where that name
        is (-1: none), so that the payouts after one naming of a bet are one claim; and
        whether it is the bet's name (not one of its lines' labels)."""
        start, end = text.sentence(figure.start)
        found = None
        # (a name may hold a sentence's stop: "P. Pair")
        for mention in text.backward(start, figure.start):
            if mention.bet():
                found = mention
                break
        else:
            for mention in text.forward(figure.end, text.next_figure(figure.end, end)):
                if mention.bet():
                    found = mention
                    break
        if found is None:
            # A passage that starts with a bet's name ("Lucky Six: pays 12:1. Max round:
            # 50") is about that bet throughout.
            first = text.leading()
            if first is not None and first.bet() and first.end <= figure.start:
                found = first
        if found is None:
            return None, -1, False
        return found.bet(), found.start, bool(found.bets)

    def _near_mode(self, text: _Text, at: int, bet: str | None) -> str | None:
        """The mode named last before ``at``, for a bet that pays differently by mode."""
        if bet not in self.by_mode:
            return None
        for mention in text.backward(-1, at):
            if mention.every_mode:
                return None
            if mention.mode:
                return mention.mode
        return None

    def _near_label(self, text: _Text, start: int, at: int, bet: str | None) -> str | None:
        for mention in text.backward(start, at):
            labels = [label for b, label in mention.labels if b == bet]
            if labels:
                return labels[-1]
        return None

    def _clause_quantity(self, text: _Text, figure: Figure) -> str | None:
        """The words of a percentage: the nearest before it in its clause (after the figure
        before it), else the first after it (before the next figure)."""
        start, end = text.sentence(figure.start)
        inside = _parenthesis(text.text, figure.start, figure.end)
        if inside is not None:  # "(5% commission deducted)": the brackets are its clause
            start, end = inside
        since = text.previous_figure(figure.start, start)
        for mention in text.backward(since, figure.start):
            if mention.start >= since and (mention.quantity or mention.commission):
                return "commission" if mention.commission else mention.quantity
        return _quantity(text.forward(figure.end, text.next_figure(figure.end, end)))

    # -- What it is ------------------------------------------------------------------------

    def _meaning(self, figure: Figure, tie: _Tie) -> _Tie:
        if figure.kind == "percent":
            if tie.quantity is None:
                return _unmatched(tie, "no word near it says what it measures")
            if tie.quantity == "commission":
                tie.status = "NOT STATEABLE"
                tie.reason = "a commission is stated by the bet's payout, not as a claim"
                return tie
            if tie.quantity == "max_rtp":
                return tie
            if tie.bet is None:
                return _unmatched(tie, "no bet of the paytable is named near it")
            if tie.quantity == "hit_frequency" and tie.label is not None:
                tie.quantity = "probability"
            return tie
        if tie.bet is None:
            return _unmatched(tie, "no bet of the paytable is named near it")
        tie.quantity = "payout" if figure.kind == "payout" else "max_round"
        return tie


def _quantity(mentions: Iterable[_Mention]) -> str | None:
    """The first figure's words among ``mentions``: a commission, or a quantity."""
    for mention in mentions:
        if mention.commission:
            return "commission"
        if mention.quantity:
            return mention.quantity
    return None


def _unmatched(tie: _Tie, reason: str) -> _Tie:
    tie.status, tie.reason = "UNMATCHED", reason
    return tie


def _header_text(block: Block, figure: Figure) -> str:
    cell = figure.cell or 0
    return block.headers[cell] if cell < len(block.headers) else ""


def _parenthesis(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The brackets around ``text[start:end]`` (within 120 characters), if it is inside
    a pair of them: (just after the opening one, the closing one)."""
    opening = text.rfind("(", max(0, start - 120), start)
    if opening < 0 or ")" in text[opening:start]:
        return None
    closing = text.find(")", end, end + 120)
    if closing < 0 or "(" in text[end:closing]:
        return None
    return opening + 1, closing


# -- Claims ---------------------------------------------------------------------------------------


def _drafts(
    page: Page, figures: Sequence[Figure], ties: Sequence[_Tie], rounding: str
) -> list[ClaimDraft]:
    """The claims the tied figures state: one per figure (a bet's payouts each a claim
    of one payout, so that a wrong one fails alone)."""
    drafts: list[ClaimDraft] = []
    for n, (figure, tie) in enumerate(zip(figures, ties, strict=True)):
        if tie.status != "claim":
            continue
        where = page.blocks[figure.block].where
        source = f"{Path(page.source).name}, {where}"
        item: dict[str, Any] = {"quantity": tie.quantity}
        if tie.bet is not None and tie.quantity != "decks":
            item["bet"] = tie.bet
        if tie.mode is not None and tie.quantity not in ("decks", "max_rtp"):
            item["mode"] = tie.mode
        if tie.quantity == "probability":
            item["label"] = tie.label
        item["value"] = figure.value
        if tie.quantity not in PAYTABLE_FACTS:
            if rounding != "round":
                item["rounding"] = rounding
            if tie.decks is not None:
                item["decks"] = tie.decks
        item["source"] = source
        drafts.append(ClaimDraft(item, (n + 1,)))
    return drafts


def _verified(paytable: Paytable, drafts: list[ClaimDraft]) -> dict[int, dict[str, Any]]:
    """Each draft checked by ``verify`` (by its number, 1 for the first): its row, or
    NOT STATEABLE where the claims cannot state it on this paytable."""
    from dataclasses import replace

    from analyzer.analysis.verify import NOT_STATEABLE, verify_claims

    claims: list[Claim] = []
    out: dict[int, dict[str, Any]] = {}
    for number, draft in enumerate(drafts, 1):
        try:
            # Read as a claims file's claim (a shipped name stands in for the paytable:
            # every claim is checked against the one given).
            (claim,) = claims_from_dict({"paytable": SEED_GAME, "claim": [draft.item]}, "x", None)
        except AnalyzerError as exc:
            reason = str(exc).split(": ", 2)[-1]
            out[number] = {"result": NOT_STATEABLE, "note": reason, "computed": "-", "exact": ""}
            continue
        claims.append(replace(claim, number=number, paytable=paytable.source))
    if claims:
        frame = verify_claims(claims, paytable=paytable, each=True)
        for row in frame.to_dict("records"):
            out[int(row["claim"])] = row
    return out


def _row(
    n: int,
    page: Page,
    figure: Figure,
    tie: _Tie,
    drafts: Sequence[ClaimDraft],
    results: Mapping[int, Mapping[str, Any]],
    number: int | None,
) -> dict[str, Any]:
    block = page.blocks[figure.block]
    row: dict[str, Any] = {
        "figure": n + 1,
        "result": tie.status,
        "last_digit": False,
        "kind": figure.kind,
        "printed": figure.printed,
        "value": str(figure.value),
        "reading": _reading(figure, tie),
        "where": block.where,
        "snippet": snippet(block, figure),
        "claim": number,
        "quantity": tie.quantity if tie.status != "UNMATCHED" else None,
        "bet": tie.bet,
        "mode": tie.mode,
        "computed": "",
        "exact": "",
        "note": tie.reason,
    }
    if number is not None:
        result = results[number]
        row["result"] = result["result"]
        row["last_digit"] = bool(result.get("last_digit", False))
        row["computed"] = str(result.get("computed", ""))
        row["exact"] = str(result.get("exact", ""))
        note = str(result.get("note", ""))
        draft = drafts[number - 1]
        if len(draft.figures) > 1:
            together = f"one claim with figures {', '.join(map(str, draft.figures))}"
            shown = str(result.get("claimed", ""))
            if result["result"] == "FAIL" and shown:
                together += f" (published {shown})"
            note = "; ".join(filter(None, [together, note]))
        row["note"] = note
    return row


def _reading(figure: Figure, tie: _Tie) -> str:
    what = {
        "percent": "a percentage",
        "payout": "a payout",
        "max_round": "a max round",
        "decks": "a deck count",
    }[figure.kind]
    if tie.status in ("UNMATCHED", "HIDDEN"):
        return what + figure.reading
    quantity = {
        "max_rtp": "the game's maximum RTP",
        "decks": "the decks of the game's shoe",
        "commission": "a commission",
        "payout": "a payout",
        "max_round": "the max round",
        "house_edge": "the house edge",
        "rtp": "the RTP",
        "hit_frequency": "the hit frequency",
        "probability": f"the probability of the line {tie.label!r}",
        "push": "the push probability",
        "std_dev": "the standard deviation",
        "variance": "the variance",
        "edge_per_resolved": "the edge per resolved bet",
    }.get(tie.quantity or "", tie.quantity or what)
    of = ""
    if tie.bet is not None and tie.quantity not in ("max_rtp", "decks"):
        of = f" of {tie.bet}" + (f" ({tie.mode})" if tie.mode else "")
    shoe = f", on {tie.decks} decks" if tie.decks else ""
    return f"{quantity}{of}{shoe}{figure.reading}"


def snippet(block: Block, figure: Figure) -> str:
    """The figure in its words: up to :data:`SNIPPET_REACH` characters either side (a
    table row's first cell before it), on one line."""
    text = block.cells[figure.cell] if figure.cell is not None else block.text
    start = max(0, figure.start - SNIPPET_REACH)
    end = min(len(text), figure.end + SNIPPET_REACH)
    shown = ("…" if start > 0 else "") + text[start:end] + ("…" if end < len(text) else "")
    if figure.cell:
        first = block.cells[0]
        head = first if len(first) <= 40 else first[:40] + "…"
        shown = f"{head} | {shown}"
    return " ".join(shown.split())


# -- What the page leaves out ---------------------------------------------------------------------


def _omitted(
    paytable: Paytable,
    rows: Sequence[Mapping[str, Any]],
    figures: Sequence[Figure],
    ties: Sequence[_Tie],
) -> list[dict[str, Any]]:
    """What the paytable has that the page does not print: a bet (no figure tied to it),
    a bet's max round, the payouts of a bet in a mode where they differ, a payout of a bet
    whose others it prints, the game's maximum RTP (a paytable with a main bet)."""
    tied = [t for t in ties if t.status not in ("UNMATCHED", "HIDDEN")]
    on_page = {t.bet for t in tied if t.bet is not None}
    out = []
    if paytable.has_main_bet and not any(t.quantity == "max_rtp" for t in tied):
        out.append({"what": "max_rtp", "bet": None, "mode": None, "paytable": None})
    for bet_id in paytable.bet_ids:
        if bet_id not in on_page:
            out.append({"what": "bet", "bet": bet_id, "mode": None, "paytable": None})
            continue
        offered = list(paytable.offered(paytable.modes, (bet_id,)))
        caps = {b.max_round for b, _ in offered}
        printed = any(t.bet == bet_id and t.quantity == "max_round" for t in tied)
        if not printed and caps != {None}:
            shown = ", ".join(str(c) for c in sorted(c for c in caps if c is not None))
            out.append({"what": "max_round", "bet": bet_id, "mode": None, "paytable": shown})
        if len({id(b) for b, _ in offered}) > 1:
            paid = {t.mode for t in tied if t.bet == bet_id and t.quantity == "payout"}
            if paid:
                for bet, mode in offered:
                    if mode not in paid:
                        shown = ", ".join(r.payout.text for r in bet.rules if r.payout.pays)
                        out.append(
                            {"what": "payouts", "bet": bet_id, "mode": mode, "paytable": shown}
                        )
        out += _payouts_left_out(paytable, bet_id, offered, figures, ties)
    return out


def _payout_key(payout: Any) -> tuple:
    return (payout.jackpot, payout.net, payout.per_multiplier)


def _payouts_left_out(
    paytable: Paytable,
    bet_id: str,
    offered: Sequence[tuple[Any, str]],
    figures: Sequence[Figure],
    ties: Sequence[_Tie],
) -> list[dict[str, Any]]:
    """The payouts of a bet (in a mode) the page prints some of but not all: each printed
    payout is a claim of its own, so a payout the page leaves out is said here."""
    from collections import Counter

    from analyzer.paytables.model import parse_payout

    by_mode = {mode: bet for bet, mode in offered}
    one = len({id(bet) for bet, _ in offered}) == 1
    printed: dict[str | None, Counter] = {}
    for figure, tie in zip(figures, ties, strict=True):
        if tie.bet == bet_id and tie.quantity == "payout" and tie.status == "claim":
            printed.setdefault(tie.mode, Counter())[_payout_key(parse_payout(figure.value))] += 1
    out = []
    for mode, keys in printed.items():
        bet = by_mode.get(mode) if mode is not None else (offered[0][0] if one else None)
        if bet is None:
            continue
        missing = [
            rule.payout.text
            for rule in bet.rules
            if rule.payout.pays and not _take(keys, _payout_key(rule.payout))
        ]
        if missing:
            shown = ", ".join(missing)
            out.append({"what": "payout", "bet": bet_id, "mode": mode, "paytable": shown})
    return out


def _take(keys: Any, key: tuple) -> bool:
    if keys[key] > 0:
        keys[key] -= 1
        return True
    return False


def omission_text(item: Mapping[str, Any]) -> str:
    """One thing the page leaves out, in words."""
    if item["what"] == "max_rtp":
        return "the game's maximum RTP"
    if item["what"] == "bet":
        return f"bet {item['bet']} (no figure of it)"
    if item["what"] == "max_round":
        return f"the max round of {item['bet']} (the paytable: {item['paytable']})"
    if item["what"] == "payout":
        mode = f" ({item['mode']})" if item["mode"] else ""
        many = "s" if "," in item["paytable"] else ""
        return f"the payout{many} {item['paytable']} of {item['bet']}{mode}"
    return f"the payouts of {item['bet']} in mode {item['mode']} (the paytable: {item['paytable']})"


# -- The claims file -------------------------------------------------------------------------------


def _toml_string(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return _toml_string(str(value))


def _comment(text: str) -> str:
    return " ".join(text.split())


def claims_toml(certificate: Certificate, paytable: str, page: str | None = None) -> str:
    """The claims file the certificate inferred, for ``verify`` (``paytable`` is what the
    file names: a shipped name, or the paytable file's path from the claims file's
    folder): each claim with the page's snippet and place of each of its figures as a
    comment, and the figures it left unstated listed at the end."""
    page = page or certificate.page.source
    lines = [
        "# Claims inferred by baccarat-odds certify from a help page: review each against",
        "# its snippet, keep or edit it, and check the file with `baccarat-odds verify FILE`.",
        f"# page: {_comment(page)} (sha256 {certificate.page.sha256})",
        f"# paytable: {_comment(paytable)} (sha256 {certificate.paytable.sha256 or 'none'})",
        "",
        f"description = {_toml_string('figures of the help page ' + Path(page).name)}",
        f"paytable = {_toml_string(paytable)}",
    ]
    rows = {row["figure"]: row for row in certificate.figures}
    for draft in certificate.claims:
        lines.append("")
        for number in draft.figures:
            row = rows[number]
            lines.append(f"# figure {number}, {_comment(row['where'])}: {_comment(row['snippet'])}")
        lines.append("[[claim]]")
        for key, value in draft.item.items():
            lines.append(f"{key} = {_toml_value(value)}")
    left = [row for row in certificate.figures if row["claim"] is None]
    if left:
        lines += ["", "# Figures stated by no claim above:"]
        for row in left:
            lines.append(
                f"# figure {row['figure']} ({row['result']}), {_comment(row['where'])}: "
                f"{_comment(row['snippet'])}: {_comment(row['note'])}"
            )
    return "\n".join(lines) + "\n"


def figure_records(certificate: Certificate) -> list[dict[str, Any]]:
    """The figures' rows, each with every column of :data:`COLUMNS` in order."""
    return [{key: row.get(key) for key in COLUMNS} for row in certificate.figures]


def result_label(row: Mapping[str, Any]) -> str:
    """A row's verdict as people read it: ``FAIL (last digit)`` for a figure one off in
    its last printed digit."""
    return "FAIL (last digit)" if row["result"] == "FAIL" and row["last_digit"] else row["result"]


def words_for(
    paytable: Paytable,
    names: Iterable[tuple[str, str]],
    every_mode: Iterable[str],
    mode_headers: Iterable[str],
) -> PageWords:
    """:class:`PageWords` from (mode, name) pairs and the words of every mode and of a
    mode column's header."""
    modes: dict[str, list[str]] = {mode: [] for mode in paytable.modes}
    for mode, name in names:
        if mode in modes and name not in modes[mode]:
            modes[mode].append(name)
    return PageWords(
        {mode: tuple(names) for mode, names in modes.items()},
        tuple(dict.fromkeys(every_mode)),
        tuple(dict.fromkeys(mode_headers)),
    )


__all__ = [
    "COLUMNS",
    "RESULTS",
    "Certificate",
    "ClaimDraft",
    "PageWords",
    "certify_page",
    "claims_toml",
    "figure_records",
    "omission_text",
    "result_label",
    "snippet",
    "words_for",
]
