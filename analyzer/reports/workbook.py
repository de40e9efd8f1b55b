"""PAR sheets: an :class:`~analyzer.analysis.Analysis` as an Excel workbook (xlsx).

The workbook a lab, a regulator or a game designer exchanges a game's math in:

* ``Summary``: the paytable, shoe and rules, then every bet and mode (a bet whose figures
  are the same in every mode once, as the other formats show it): house edge, RTP, hit
  frequency, push, standard deviation, edge per resolved bet, max round; the jackpots',
  unavailable bets' and claim's lines below.
* one sheet per bet and mode (named by the bet, see :func:`sheet_names`): each line of
  the bet, its outcome (label, or condition), condition, pays, mean net per unit staked,
  combinations, probability, contribution to the return and, for a line the bet pays
  on, "1 in N"; the bet's fee as a line of its own; a total row; the expected value per
  unit paid, house edge and RTP; the top award (the lines paying the highest net), its
  "1 in N" and the chance of at least one, and of none, in ``top_award_rounds`` rounds.
* ``Volatility``: per bet, the standard deviation, the volatility index at 90% and 95%
  (``z * sd``) and the 90% and 95% range of the net result after 100 to 100,000 rounds
  by the normal approximation ``N * EV +- z * sd * sqrt(N)`` (marked as such).

Every number is a numeric cell with a display format, its exact value beside it as text
(``p/q``: a double cannot hold a 17-digit count or a probability exactly); totals,
contributions, the figures that follow from them and the ranges are formulas, stored
with their values (a reader that does not recalculate shows them right too). Text from
a paytable is always written as text, never as a formula. Every word follows ``lang``:
the sheets' names (``Summary`` is ``Buod`` in Tagalog, ``Ringkasan`` in Malay; it is
always the first sheet, ``Volatility`` the last), labels, headers, notes and the printed
footer; what is the same in every language is a name or a number (bet ids, paytable and
bet names as the paytable gives them, conditions, payouts, exact values).

The same analysis gives the same bytes: the workbook's creation date is fixed (as
XlsxWriter fixes the dates inside the zip file), so a PAR sheet can be compared with
an earlier one, and ``docs`` tables regenerate as they are.

This module writes figures the analysis has computed; it computes none of its own but
the volatility figures, which follow from the exact EV and variance, and the lab figures
of :mod:`analyzer.analysis.lab` ("1 in N" a formula, ``1/p``; the top award's chances as
numbers, each with its 15 significant digits beside it as text: a spreadsheet's doubles
cannot compute ``1 - (1 - p)^N`` to them).
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence
from fractions import Fraction
from statistics import NormalDist
from typing import Any

from analyzer.analysis.bets import OTHERWISE, BetResult, jackpot_figures
from analyzer.analysis.exact import Analysis
from analyzer.analysis.lab import TOP_AWARD_ROUNDS, line_one_in, top_award
from analyzer.paytables.model import Paytable
from analyzer.reports.formats import ALL_MODES, fraction_text
from analyzer.reports.i18n import check_language, sentence, word
from analyzer.reports.tables import (
    claim_lines,
    fee_text,
    jackpot_text,
    line_label,
    multipliers_text,
    number_text,
    payouts_text,
    pays_text,
    report_title,
    shoe_text,
    shown_once,
    unavailable_lines,
)
from analyzer.reports.writers import open_workbook
from analyzer.version import package_version

#: The workbook's own sheets, by their English names (:func:`word` gives each language's).
SUMMARY_SHEET = "Summary"
VOLATILITY_SHEET = "Volatility"
#: Sheet names no bet's sheet may take (Excel compares them ignoring case): the
#: workbook's own, and "History", which Excel keeps for itself (in English: see
#: :func:`reserved_sheet_names` for another language's).
RESERVED_SHEET_NAMES = (SUMMARY_SHEET, VOLATILITY_SHEET, "History")
#: Longest sheet name Excel opens (UTF-16 code units), and the characters it refuses.
MAX_SHEET_NAME = 31
_SHEET_FORBIDDEN = re.compile(r"[\[\]:*?/\\]")
#: The longest text a cell holds (UTF-16 code units).
MAX_CELL_TEXT = 32767
#: The widest an exact column is made (characters); a longer exact value wraps.
MAX_EXACT_WIDTH = 60
#: The height of a line of text (points), for rows whose text wraps.
LINE_HEIGHT = 15
#: The styles whose text wraps in its cell.
_WRAPPING = ("wrapped", "exact_wrapped", "header")
#: XlsxWriter's paper size code of A4 (printed PAR sheets go to labs worldwide).
PAPER_A4 = 9
#: Excel refuses a header or footer of more than 255 characters; the paytable's name in
#: the footer is cut to this many.
MAX_FOOTER_NAME = 60

#: Rounds after which the Volatility sheet gives the range of the net result.
ROUNDS = (100, 1_000, 10_000, 100_000)
#: Two-sided confidence levels of the volatility index and ranges, and their z.
CONFIDENCE = (("90%", NormalDist().inv_cdf(0.95)), ("95%", NormalDist().inv_cdf(0.975)))

_FORMATS = {
    "title": {"bold": True, "font_size": 14},
    "header": {"bold": True, "text_wrap": True, "valign": "top", "bottom": 1},
    "label": {"bold": True},
    "text": {},
    "wrapped": {"text_wrap": True, "valign": "top"},
    "exact": {"num_format": "@"},
    "exact_wrapped": {"num_format": "@", "text_wrap": True, "valign": "top"},
    "percent": {"num_format": "0.0000%"},
    "probability": {"num_format": "0.0000000000"},
    "signed": {"num_format": "+0.0000000000;-0.0000000000;0.0000000000"},
    "count": {"num_format": "#,##0"},
    "one_in": {"num_format": "#,##0.00"},
    "chance": {"num_format": "0.000000000%"},
    "tiny": {"num_format": "0.000000E+00"},
    "fraction_count": {"num_format": "#,##0.000"},
    "std_dev": {"num_format": "0.0000"},
    "units": {"num_format": "#,##0.00;-#,##0.00"},
    "z": {"num_format": "0.000000"},
}


def _utf16_units(char: str) -> int:
    return 2 if ord(char) > 0xFFFF else 1


def _cut(text: str, units: int) -> str:
    """``text`` cut to at most ``units`` UTF-16 code units (a character is never split)."""
    out, used = [], 0
    for char in text:
        used += _utf16_units(char)
        if used > units:
            break
        out.append(char)
    return "".join(out)


def _sheet_base(title: str) -> str:
    """``title`` as a name Excel takes: no ``[]:*?/\\``, no apostrophe at either end,
    at most 31 characters, not empty."""
    name = _cut(_SHEET_FORBIDDEN.sub("_", title).strip(), MAX_SHEET_NAME).strip().strip("'")
    return name.strip() or "Bet"


def reserved_sheet_names(lang: str = "en") -> tuple[str, ...]:
    """The sheet names no bet's sheet may take in a workbook in ``lang``: its own sheets'
    names in ``lang``, and "History" (Excel's own, whatever its language)."""
    return (word(SUMMARY_SHEET, lang), word(VOLATILITY_SHEET, lang), "History")


def sheet_names(titles: Sequence[str], lang: str = "en") -> list[str]:
    """A sheet name for each title, in order: within Excel's limits (:func:`_sheet_base`),
    and unique among themselves and the workbook's own sheets in ``lang``
    (:func:`reserved_sheet_names`) ignoring case, as Excel compares them: a name taken
    already gets `` (2)``, `` (3)``... at its end."""
    taken = {name.casefold() for name in reserved_sheet_names(lang)}
    names = []
    for title in titles:
        base = name = _sheet_base(title)
        number = 1
        while name.casefold() in taken:
            number += 1
            suffix = f" ({number})"
            name = _cut(base, MAX_SHEET_NAME - len(suffix)).rstrip().rstrip("'") + suffix
        taken.add(name.casefold())
        names.append(name)
    return names


def _cell(row: int, col: int, absolute: bool = False) -> str:
    """A cell's A1 reference (``$B$3`` when ``absolute``); rows and columns from 0."""
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("A") + rest) + letters
    mark = "$" if absolute else ""
    return f"{mark}{letters}{mark}{row + 1}"


def _exact(value: Fraction | int | None) -> str:
    """An exact value as text: ``p/q``, a whole count as its digits, ``-`` for none."""
    if value is None:
        return "-"
    if isinstance(value, int):
        return str(value)
    return fraction_text(value)


class _Sheet:
    """A worksheet and the workbook's formats: every cell goes through these methods, so
    text is written as text (``write_string``), never read as a formula or a number."""

    def __init__(self, worksheet: Any, formats: dict[str, Any]) -> None:
        self.sheet = worksheet
        self.formats = formats
        #: The widest exact text or count written in each column, so that the column can
        #: be made wide enough to show it whole (a printed fraction is never cut).
        self.widths: dict[int, int] = {}
        #: Each column's width once set, and the cells whose text wraps (row, column,
        #: length): their rows are made tall enough for every line (no spreadsheet
        #: program fits a row to wrapped text written by another on opening).
        self.column_widths: dict[int, float] = {}
        self.wrapped: list[tuple[int, int, int]] = []

    def text(self, row: int, col: int, value: str, style: str = "text") -> None:
        if len(value) > MAX_CELL_TEXT // 2:  # (only then can it be too long)
            value = _cut(value, MAX_CELL_TEXT)
        if style in _WRAPPING:
            self.wrapped.append((row, col, len(value)))
        self.sheet.write_string(row, col, value, self.formats[style])

    def number(self, row: int, col: int, value: float | Fraction | int, style: str) -> None:
        if style in ("count", "fraction_count"):  # shown with thousands separators
            self._widen(col, len(f"{float(value):,.3f}"))
        self.sheet.write_number(row, col, float(value), self.formats[style])

    def _widen(self, col: int, width: int) -> None:
        self.widths[col] = max(self.widths.get(col, 0), width)

    def exact(self, row: int, col: int, value: Fraction | int | None) -> None:
        text = _exact(value)
        self._widen(col, len(text))
        self.text(row, col, text, "exact_wrapped" if len(text) > MAX_EXACT_WIDTH else "exact")

    def set_columns(self, first: int, last: int, width: float) -> None:
        """Columns ``first`` to ``last`` at least this wide, and as wide as their widest
        exact value or count (an exact value up to :data:`MAX_EXACT_WIDTH`; a longer one
        wraps in its cell)."""
        for col in range(first, last + 1):
            widest = self.widths.get(col, 0)
            self.column_widths[col] = max(width, min(widest + 1, MAX_EXACT_WIDTH))
            self.sheet.set_column(col, col, self.column_widths[col])

    def print_setup(self, header_row: int, footer: str) -> None:
        """Printed, the sheet is landscape, one page wide (as many pages tall as it
        needs), its header row repeated on every page, the sheet's name above and the
        workbook's footer below."""
        lines: dict[int, int] = {}
        for row, col, length in self.wrapped:
            # A character of a proportional font is narrower than a column unit (the
            # width of a "0") on average; a line holds about one unit less than the width.
            per_line = max(1, int(self.column_widths.get(col, 8.43)) - 1)
            lines[row] = max(lines.get(row, 1), -(-length // per_line))
        for row, count in sorted(lines.items()):
            if count > 1:
                self.sheet.set_row(row, LINE_HEIGHT * count)
        self.sheet.set_landscape()
        self.sheet.set_paper(PAPER_A4)
        self.sheet.set_margins(left=0.4, right=0.4, top=0.6, bottom=0.6)
        self.sheet.fit_to_pages(1, 0)
        self.sheet.repeat_rows(header_row)
        self.sheet.set_header("&C&A")
        self.sheet.set_footer(footer)

    def formula(self, row: int, col: int, formula: str, style: str, value: float) -> None:
        """A formula, stored with its value (a reader that does not recalculate shows
        it); the formula is the workbook's own, never text from a paytable."""
        self.sheet.write_formula(row, col, formula, self.formats[style], float(value))

    def header(self, row: int, headers: Sequence[str]) -> None:
        for col, text in enumerate(headers):
            self.text(row, col, text, "header")


def _with_exact(header: str, lang: str) -> list[str]:
    """A numeric column's header and its exact column's."""
    shown = word(header, lang)
    return [shown, f"{shown} ({word('exact', lang)})"]


def _bet_title(result: BetResult, mode: str, lang: str) -> str:
    return f"{result.bet.display_name(lang)} ({word(mode, lang)})"


def _sheet_titles(shown: Sequence[tuple[BetResult, str]], lang: str) -> list[str]:
    """Each shown (bet, mode)'s sheet title: the bet's name, with its mode where the bet
    is shown in several."""
    counts: dict[str, int] = {}
    for result, _ in shown:
        counts[result.bet.id] = counts.get(result.bet.id, 0) + 1
    return [
        _bet_title(result, mode, lang)
        if counts[result.bet.id] > 1 and mode != ALL_MODES
        else result.bet.display_name(lang)
        for result, mode in shown
    ]


# -- Summary ---------------------------------------------------------------------------------

SUMMARY_FIGURES = (
    ("House edge", "house_edge"),
    ("RTP", "rtp"),
    ("Hit frequency", "hit_frequency"),
    ("Push", "push_probability"),
)


def _strategy_text(paytable: Paytable, lang: str) -> str:
    """How the paytable's decisions are played: its decision cells (punto banco), the
    best play of each information set (a game with a player's decision), or none."""
    if paytable.strategy.choices:
        return str(paytable.strategy)
    if paytable.decision is not None:
        text = sentence("report_best_play", lang)
        return text[:1].upper() + text[1:]
    return "-"


def _write_summary(
    sheet: _Sheet,
    analysis: Analysis,
    shown: Sequence[tuple[BetResult, str]],
    names: Sequence[str],
    claimed_max_rtp: str | None,
    lang: str,
) -> int:
    """Write the Summary sheet; the row of its table's header."""
    paytable = analysis.paytable
    sheet.text(0, 0, report_title(analysis, lang), "title")
    facts = [
        ("Paytable", paytable.name),
        ("Shoe", shoe_text(analysis.shoe, lang)),
        ("Modes", ", ".join(word(mode, lang) for mode in analysis.modes)),
        (
            ("Drawing rules", word(paytable.rules.name, lang))
            if paytable.game is None
            else ("Game", paytable.game.name)
        ),
        ("Strategy", _strategy_text(paytable, lang)),
        ("Fee", fee_text(paytable.fee, lang) if paytable.fee else "-"),
        (
            "Multipliers",
            "-" if paytable.multipliers is None else multipliers_text(paytable.multipliers, lang),
        ),
    ]
    row = 2
    for label, value in facts:
        sheet.text(row, 0, word(label, lang), "label")
        sheet.text(row, 1, value)
        row += 1
    row += 1
    headers = [word("Bet", lang), word("Bet id", lang), word("Mode", lang), word("Pays", lang)]
    for header, _ in SUMMARY_FIGURES:
        headers += _with_exact(header, lang)
    headers += [word("Std dev", lang), f"{word('Variance', lang)} ({word('exact', lang)})"]
    headers += _with_exact("Edge per resolved bet", lang)
    headers += [word("Max round", lang), word("Sheet", lang)]
    sheet.header(row, headers)
    sheet.sheet.freeze_panes(row + 1, 1)
    header_row = row
    for (result, mode), name in zip(shown, names, strict=True):
        row += 1
        cells = [result.bet.display_name(lang), result.bet.id, word(mode, lang)]
        for col, value in enumerate([*cells, payouts_text(result)]):
            sheet.text(row, col, value)
        sheet.text(row, len(headers) - 1, name)
        col = 4
        for _, attribute in SUMMARY_FIGURES:
            value = getattr(result, attribute)
            sheet.number(row, col, value, "percent")
            sheet.exact(row, col + 1, value)
            col += 2
        sheet.number(row, col, result.std_dev, "std_dev")
        sheet.exact(row, col + 1, result.variance)
        if result.edge_per_resolved is None:
            sheet.text(row, col + 2, "-")
        else:
            sheet.number(row, col + 2, result.edge_per_resolved, "percent")
        sheet.exact(row, col + 3, result.edge_per_resolved)
        if result.bet.max_round is None:
            sheet.text(row, col + 4, "-")
        else:
            sheet.number(row, col + 4, result.bet.max_round, "count")
    notes = []
    for result, mode in shown:
        figures = jackpot_figures(result)
        if figures is not None:
            notes.append(jackpot_text(result, mode, figures, lang))
    notes += unavailable_lines(analysis, lang)
    if claimed_max_rtp is not None:
        notes += claim_lines(analysis, claimed_max_rtp, lang)
    row += 1
    for note in notes:
        row += 1
        sheet.text(row, 0, note)
    sheet.set_columns(0, 0, 28)
    sheet.set_columns(1, 3, 16)
    sheet.set_columns(4, len(headers) - 1, 14)
    return header_row


# -- One bet ---------------------------------------------------------------------------------

BET_HEADERS = (
    "Outcome",
    "Condition",
    "Pays",
    "Net per unit staked",
    "Combinations",
    "Probability",
    "Contribution",
    "1 in N",
)
#: The columns of a bet's sheet (from 0): outcome, condition, pays, then the numbers,
#: each with its exact column to its right.
_NET, _WAYS, _PROBABILITY, _CONTRIBUTION, _ONE_IN = 3, 5, 7, 9, 11


def _write_bet(
    sheet: _Sheet, result: BetResult, mode: str, lang: str, rounds: int = TOP_AWARD_ROUNDS
) -> int:
    """Write one bet's sheet, its top award checked over ``rounds`` rounds; the row of its
    table's header."""
    bet = result.bet
    sheet.text(0, 0, _bet_title(result, mode, lang), "title")
    facts = [
        ("Bet id", bet.id),
        ("Mode", word(mode, lang)),
        ("Max round", "-" if bet.max_round is None else str(bet.max_round)),
    ]
    row = 2
    for label, value in facts:
        sheet.text(row, 0, word(label, lang), "label")
        sheet.text(row, 1, value)
        row += 1
    notes = [sentence("par_lines_note", lang)]
    if bet.fee:
        notes.append(sentence("par_fee_note", lang))
    if bet.multiplied:
        notes.append(sentence("par_multiplied_note", lang))
    for note in notes:
        sheet.text(row, 0, note)
        row += 1
    row += 1
    headers = []
    for number, header in enumerate(BET_HEADERS):
        headers += [word(header, lang)] if number < _NET else _with_exact(header, lang)
    sheet.header(row, headers)
    sheet.sheet.freeze_panes(row + 1, 1)
    header_row = row
    first = row + 1
    for number, line in enumerate(result.lines):
        row += 1
        when = word(OTHERWISE, lang) if line.when == OTHERWISE else line.when
        sheet.text(row, 0, line_label(result, number, lang), "wrapped")
        sheet.text(row, 1, when, "wrapped")
        sheet.text(row, 2, pays_text(line.payout.text, lang))
        sheet.number(row, _NET, line.net, "signed")
        sheet.exact(row, _NET + 1, line.net)
        whole = isinstance(line.combinations, int)
        sheet.number(row, _WAYS, line.combinations, "count" if whole else "fraction_count")
        sheet.exact(row, _WAYS + 1, line.combinations)
        sheet.number(row, _PROBABILITY, line.probability, "probability")
        sheet.exact(row, _PROBABILITY + 1, line.probability)
        _contribution(sheet, row, line.contribution)
        n = line_one_in(line)
        if n is None:
            sheet.text(row, _ONE_IN, "-")
            sheet.text(row, _ONE_IN + 1, "-")
        else:
            sheet.formula(row, _ONE_IN, f"=1/{_cell(row, _PROBABILITY)}", "one_in", float(n))
            sheet.exact(row, _ONE_IN + 1, n)
    last_line = row
    fee_row = None
    if bet.fee:
        row += 1
        fee_row = row
        sheet.text(row, 0, word("fee (paid on every bet)", lang))
        sheet.text(row, 1, "-")
        sheet.text(row, 2, number_text(-bet.fee))
        sheet.number(row, _NET, -bet.fee, "signed")
        sheet.exact(row, _NET + 1, -bet.fee)
        sheet.text(row, _WAYS, "-")
        sheet.text(row, _WAYS + 1, "-")
        sheet.number(row, _PROBABILITY, 1, "probability")
        sheet.exact(row, _PROBABILITY + 1, Fraction(1))
        _contribution(sheet, row, -bet.fee)
    row += 1
    total = row
    ways = sum((Fraction(line.combinations) for line in result.lines), start=Fraction(0))
    probability = sum((line.probability for line in result.lines), start=Fraction(0))
    net = sum((line.contribution for line in result.lines), start=Fraction(0)) - bet.fee
    sheet.text(row, 0, word("Total", lang), "label")
    whole = ways.denominator == 1
    span = f"{_cell(first, _WAYS)}:{_cell(last_line, _WAYS)}"
    sheet.formula(row, _WAYS, f"=SUM({span})", "count" if whole else "fraction_count", float(ways))
    sheet.exact(row, _WAYS + 1, ways.numerator if whole else ways)
    span = f"{_cell(first, _PROBABILITY)}:{_cell(last_line, _PROBABILITY)}"
    sheet.formula(row, _PROBABILITY, f"=SUM({span})", "probability", float(probability))
    sheet.exact(row, _PROBABILITY + 1, probability)
    span = f"{_cell(first, _CONTRIBUTION)}:{_cell(row - 1, _CONTRIBUTION)}"
    sheet.formula(row, _CONTRIBUTION, f"=SUM({span})", "signed", float(net))
    sheet.exact(row, _CONTRIBUTION + 1, net)
    # Per unit paid: the stake plus the fee (the fee line's net is minus the fee).
    row += 2
    ev_row = row
    per_paid = _cell(total, _CONTRIBUTION)
    if fee_row is not None:
        per_paid += f"/(1-{_cell(fee_row, _NET)})"
    ev = _cell(ev_row, _CONTRIBUTION)
    figures = [
        ("Expected value per unit paid", f"={per_paid}", "signed", result.expected_value),
        ("House edge", f"=-{ev}", "percent", result.house_edge),
        ("RTP", f"=1+{ev}", "percent", result.rtp),
    ]
    for label, formula, style, value in figures:
        sheet.text(row, 0, word(label, lang), "label")
        sheet.formula(row, _CONTRIBUTION, formula, style, float(value))
        sheet.exact(row, _CONTRIBUTION + 1, value)
        row += 1
    _write_top_award(sheet, result, row + 1, rounds, lang)
    sheet.set_columns(0, 1, 32)
    sheet.set_columns(2, 2, 14)
    sheet.set_columns(3, len(headers) - 1, 18)
    return header_row


def _write_top_award(sheet: _Sheet, result: BetResult, row: int, rounds: int, lang: str) -> None:
    """The bet's top award from ``row`` down (nothing for a bet that pays on no line):
    the lines and what they pay, "1 in N" (a formula of the probability beside it), and
    the chances of at least one and of none in ``rounds`` rounds (numbers, their 15
    significant digits beside them as text)."""
    top = top_award(result, rounds)
    if top is None:
        return
    sheet.text(row, 0, word("Top award", lang), "label")
    labels = ", ".join(line_label(result, number, lang) for number in top.lines)
    sheet.text(row, 1, labels, "wrapped")
    sheet.text(row, 2, top.pays)
    sheet.number(row, _PROBABILITY, top.probability, "probability")
    sheet.exact(row, _PROBABILITY + 1, top.probability)
    formula = f"=1/{_cell(row, _PROBABILITY)}"
    sheet.formula(row, _ONE_IN, formula, "one_in", float(top.one_in))
    sheet.exact(row, _ONE_IN + 1, top.one_in)
    chances = [
        ("par_at_least_once", top.at_least_once, "chance"),
        ("par_none_in", top.never, "tiny"),
    ]
    for key, value, style in chances:
        row += 1
        sheet.text(row, 0, sentence(key, lang, rounds=f"{rounds:,}"), "label")
        sheet.number(row, _PROBABILITY, float(value), style)
        sheet.text(row, _PROBABILITY + 1, str(value), "exact")
    sheet.text(row + 1, 0, sentence("par_top_award_note", lang))


def _contribution(sheet: _Sheet, row: int, value: Fraction) -> None:
    """A line's contribution: its probability times its net, as a formula."""
    formula = f"={_cell(row, _PROBABILITY)}*{_cell(row, _NET)}"
    sheet.formula(row, _CONTRIBUTION, formula, "signed", float(value))
    sheet.exact(row, _CONTRIBUTION + 1, value)


# -- Volatility ------------------------------------------------------------------------------


def volatility_range(
    expected_value: Fraction, variance: Fraction, rounds: int, z: float
) -> tuple[float, float]:
    """The range of the net result of ``rounds`` rounds of a unit paid that the normal
    approximation gives: ``N * EV -+ z * sd * sqrt(N)``."""
    centre = rounds * float(expected_value)
    spread = z * math.sqrt(variance) * math.sqrt(rounds)
    return centre - spread, centre + spread


#: The Volatility sheet's columns (from 0): bet, mode, EV and its exact value, std dev
#: and the exact variance, a volatility index per confidence, then the ranges.
_EV, _SD, _INDEX = 2, 4, 6
_RANGES = _INDEX + len(CONFIDENCE)


def _write_volatility(sheet: _Sheet, shown: Sequence[tuple[BetResult, str]], lang: str) -> int:
    """Write the Volatility sheet; the row of its table's header."""
    sheet.text(0, 0, word(VOLATILITY_SHEET, lang), "title")
    sheet.text(1, 0, sentence("par_volatility_note", lang))
    z_cells = {}
    row = 3
    for level, z in CONFIDENCE:
        sheet.text(row, 0, f"z ({level})", "label")
        sheet.number(row, 1, z, "z")
        z_cells[level] = _cell(row, 1, absolute=True)
        row += 1
    row += 1
    headers = [word("Bet", lang), word("Mode", lang)]
    headers += _with_exact("Expected value per unit paid", lang)
    headers += [word("Std dev", lang), f"{word('Variance', lang)} ({word('exact', lang)})"]
    headers += [f"{word('Volatility index', lang)} ({level})" for level, _ in CONFIDENCE]
    for _ in ROUNDS:
        for level, _ in CONFIDENCE:
            headers += [f"{level} {word('low', lang)}", f"{level} {word('high', lang)}"]
    groups = row
    for number, rounds in enumerate(ROUNDS):
        col = _RANGES + 2 * len(CONFIDENCE) * number
        sheet.text(groups, col, sentence("par_after_rounds", lang, rounds=f"{rounds:,}"), "label")
    row += 1
    sheet.header(row, headers)
    sheet.sheet.freeze_panes(row + 1, 1)
    header_row = row
    for result, mode in shown:
        row += 1
        sheet.text(row, 0, result.bet.display_name(lang))
        sheet.text(row, 1, word(mode, lang))
        sheet.number(row, _EV, result.expected_value, "signed")
        sheet.exact(row, _EV + 1, result.expected_value)
        sheet.number(row, _SD, result.std_dev, "std_dev")
        sheet.exact(row, _SD + 1, result.variance)
        ev, sd = _cell(row, _EV), _cell(row, _SD)
        for number, (level, z) in enumerate(CONFIDENCE):
            sheet.formula(
                row, _INDEX + number, f"={z_cells[level]}*{sd}", "std_dev", z * result.std_dev
            )
        col = _RANGES
        for rounds in ROUNDS:
            for level, z in CONFIDENCE:
                low, high = volatility_range(result.expected_value, result.variance, rounds, z)
                spread = f"{z_cells[level]}*{sd}*SQRT({rounds})"
                sheet.formula(row, col, f"={rounds}*{ev}-{spread}", "units", low)
                sheet.formula(row, col + 1, f"={rounds}*{ev}+{spread}", "units", high)
                col += 2
    sheet.set_columns(0, 0, 28)
    sheet.set_columns(1, len(headers) - 1, 14)
    return header_row


# -- The workbook ----------------------------------------------------------------------------


def footer_text(paytable: Paytable, version: str, lang: str = "en") -> str:
    """The printed footer of every sheet: the paytable's name and the digest of its file
    (left), the tool's version (centre), the page in ``lang`` (right). An ``&`` of the
    name is written ``&&``, as Excel's header codes need."""
    name = _cut(paytable.name, MAX_FOOTER_NAME).replace("&", "&&")
    digest = f" \u00b7 sha256 {paytable.sha256[:16]}" if paytable.sha256 else ""
    return f"&L{name}{digest}&Cbaccarat-odds {version}&R{sentence('par_page', lang)}"


def workbook_bytes(
    analysis: Analysis,
    *,
    claimed_max_rtp: str | None = None,
    lang: str = "en",
    top_award_rounds: int = TOP_AWARD_ROUNDS,
) -> bytes:
    """The PAR sheet of ``analysis`` in ``lang`` as the bytes of an xlsx file, with the
    check of ``claimed_max_rtp`` on its Summary and each bet's top award checked over
    ``top_award_rounds`` rounds (see the module's description)."""
    check_language(lang)
    shown = shown_once(analysis)
    names = sheet_names(_sheet_titles(shown, lang), lang)
    buffer = io.BytesIO()
    with open_workbook(buffer, f"{word('PAR sheet', lang)}: {analysis.paytable.name}") as book:
        # Every cell at the top of its row: a row made tall for wrapped text keeps its
        # numbers beside the first line.
        formats = {
            name: book.add_format({"valign": "top", **spec}) for name, spec in _FORMATS.items()
        }
        footer = footer_text(analysis.paytable, package_version(), lang)
        summary = _Sheet(book.add_worksheet(word(SUMMARY_SHEET, lang)), formats)
        header_row = _write_summary(summary, analysis, shown, names, claimed_max_rtp, lang)
        summary.print_setup(header_row, footer)
        for (result, mode), name in zip(shown, names, strict=True):
            sheet = _Sheet(book.add_worksheet(name), formats)
            header_row = _write_bet(sheet, result, mode, lang, top_award_rounds)
            sheet.print_setup(header_row, footer)
        volatility = _Sheet(book.add_worksheet(word(VOLATILITY_SHEET, lang)), formats)
        volatility.print_setup(_write_volatility(volatility, shown, lang), footer)
    return buffer.getvalue()
