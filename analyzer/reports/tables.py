"""Rendering an :class:`~analyzer.analysis.Analysis`: text, Markdown, CSV, HTML, LaTeX, JSON.

Tables go through pandas' own writers; ``lang`` picks the bet names and headers of the
help pages' languages (see :mod:`analyzer.reports.i18n`).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.analysis.bets import OTHERWISE, BetResult, JackpotFigures, jackpot_figures
from analyzer.analysis.exact import Analysis
from analyzer.analysis.lab import (
    TOP_AWARD_ROUNDS,
    TopAward,
    line_one_in,
    one_in_number,
    top_award,
)
from analyzer.errors import AnalyzerError
from analyzer.game.rules import choice_text
from analyzer.game.shoe import INFINITE, Shoe
from analyzer.paytables.model import Paytable
from analyzer.paytables.multipliers import Multipliers
from analyzer.paytables.printed import check_printed_value
from analyzer.reports.document import (
    Block,
    Column,
    Document,
    Heading,
    Paragraph,
    Table,
    records_table,
    table,
)
from analyzer.reports.formats import (
    ALL_MODES,
    FORMATS,
    TEXT_WIDTH,
    fraction_text,
    same_in_every_mode,
    text_table,
)
from analyzer.reports.formats import json_text as json_text  # (re-exported: the commands')
from analyzer.reports.i18n import check_language, sentence, word
from analyzer.reports.writers import csv_safe as csv_safe  # (re-exported)
from analyzer.reports.writers import csv_text, markdown_escape, tool_rows, write_document

if TYPE_CHECKING:  # (pandas is imported where a frame is made: a report needs none)
    import pandas as pd


def _percent(value: Fraction | None, places: int = 4) -> str:
    return "-" if value is None else f"{float(100 * value):.{places}f}%"


def payouts_text(result: BetResult) -> str:
    """What a bet pays when it wins, each payout once: ``"8:1 / 11:1"``."""
    wins = [rule.payout.text for rule in result.bet.rules if rule.payout.pays]
    return " / ".join(dict.fromkeys(wins))


def _figures(result: BetResult) -> tuple:
    """Everything a table shows of a bet in one mode but the mode."""
    return (
        result.bet.display_name(),
        result.bet.max_round,
        payouts_text(result),
        result.house_edge,
        result.hit_frequency,
        result.push_probability,
        result.variance,
        tuple((line.when, line.combinations, line.payout.text) for line in result.lines),
    )


def shown_once(analysis: Analysis) -> list[tuple[BetResult, str]]:
    """Each result with the mode to show it under, in order: a bet offered in every mode
    of the analysis with the same figures in each is shown once, as :data:`ALL_MODES`."""
    by_bet: dict[str, list[BetResult]] = {}
    for r in analysis.results:
        by_bet.setdefault(r.bet.id, []).append(r)
    shown = []
    for r in analysis.results:
        group = by_bet[r.bet.id]
        if not same_in_every_mode({g.mode: _figures(g) for g in group}, analysis.modes):
            shown.append((r, r.mode))
        elif r is group[0]:
            shown.append((r, ALL_MODES))
    return shown


def rows_shown_once(
    frame: pd.DataFrame, modes: Sequence[str], figures: Sequence[str]
) -> pd.DataFrame:
    """``frame`` (rows of a ``bet`` in a ``mode``) with each bet whose ``figures`` columns
    are the same in every one of ``modes`` kept once, under :data:`ALL_MODES`, by the rule
    of :func:`same_in_every_mode` (a missing figure, NaN or None, equals another)."""
    import pandas as pd

    if len(modes) < 2 or frame.empty:
        return frame
    kept = []
    for _, group in frame.groupby("bet", sort=False):
        by_mode = {
            mode: tuple(
                tuple(None if pd.isna(value) else value for value in row)
                for row in rows[list(figures)].itertuples(index=False)
            )
            for mode, rows in group.groupby("mode", sort=False)
        }
        if same_in_every_mode(by_mode, modes):
            first = next(iter(by_mode))
            kept.append(group[group["mode"] == first].assign(mode=ALL_MODES))
        else:
            kept.append(group)
    return pd.concat(kept, ignore_index=True)


def effects_shown_once(effects: pd.DataFrame, modes: tuple[str, ...]) -> pd.DataFrame:
    """Effects of removal (a frame with ``bet``, ``mode``, ``rank`` and ``delta_ev_exact``)
    with each bet whose effects are the same in every one of ``modes`` kept once, under
    :data:`ALL_MODES`, as :func:`shown_once` does for results."""
    return rows_shown_once(effects, modes, ["delta_ev_exact"])


def with_names(frame: pd.DataFrame, paytable: Paytable, lang: str = "en") -> pd.DataFrame:
    """``frame`` (rows of a ``bet`` id in a ``mode``) with each bet's ``name`` in ``lang``
    beside its id: people read names, tools the ids."""
    names = [
        paytable.bet(bet, mode).display_name(lang)
        for bet, mode in zip(frame["bet"], frame["mode"], strict=True)
    ]
    named = frame.copy()
    named.insert(named.columns.get_loc("bet") + 1, "name", names)
    return named


def bet_label(name: str, mode: str, several_modes: bool, lang: str = "en") -> str:
    """A bet in a mode as one label (a row, a legend): its name, and its mode in ``lang``
    where several modes are shown."""
    return f"{name} ({word(mode, lang)})" if several_modes else name


def _percent_float(value: Fraction | None) -> float | None:
    return None if value is None else float(100 * value)


#: A jackpot's figures in a bet's record (:func:`result_record`), each spread into a
#: ``jackpot_*`` column of the report's rows (None for a bet without a jackpot).
JACKPOT_KEYS = (
    "meter",
    "contribution",
    "rtp_at_meter",
    "rtp_at_meter_0",
    "rtp_per_meter_stake",
    "break_even_meter",
    "break_even_meter_float",
    "long_run_rtp",
    "long_run_rtp_percent",
)
#: The columns of the report's rows for tools, a row per (bet, mode): JSON's ``bets``
#: and the CSV's first table.
REPORT_COLUMNS = (
    "bet",
    "name",
    "mode",
    "house_edge",
    "house_edge_percent",
    "rtp",
    "rtp_percent",
    "hit_frequency",
    "hit_frequency_percent",
    "push_probability",
    "push_probability_percent",
    "variance",
    "std_dev",
    "edge_per_resolved",
    "edge_per_resolved_percent",
    "max_round",
    *(f"jackpot_{key}" for key in JACKPOT_KEYS),
)
#: The columns of the paying lines (``--detail``): JSON's ``lines``, the CSV's second table.
LINE_COLUMNS = (
    "bet",
    "mode",
    "when",
    "ways",
    "probability",
    "probability_float",
    "pays",
    "net",
    "contribution",
    "contribution_float",
    "one_in",
    "one_in_float",
    "top_award",
)
#: The columns of each bet's top award (``--detail``): JSON's ``top_awards``, the CSV's
#: third table.
TOP_AWARD_COLUMNS = (
    "bet",
    "mode",
    "pays",
    "net",
    "probability",
    "probability_float",
    "one_in",
    "one_in_float",
    "rounds",
    "at_least_once",
    "at_least_once_float",
    "never",
)


def result_record(
    result: BetResult,
    detail: bool = False,
    lang: str = "en",
    top_award_rounds: int = TOP_AWARD_ROUNDS,
) -> dict[str, Any]:
    """One JSON-ready object, by one naming rule for every figure: ``X`` is its exact
    value as ``"p/q"``; ``X_percent`` the same in % as a float (the text table's figure),
    ``X_float`` the same in units. ``std_dev`` is a float only (the square root of the
    exact ``variance``); counts (``ways``) and ``max_round`` are whole numbers. With
    ``detail``, each line's ``one_in`` ("1 in N", None for a push or a loss) and whether
    it is (one of) the bet's top award, checked over ``top_award_rounds`` rounds."""
    record = {
        "bet": result.bet.id,
        "name": result.bet.display_name(lang),
        "mode": result.mode,
        "house_edge": fraction_text(result.house_edge),
        "house_edge_percent": _percent_float(result.house_edge),
        "rtp": fraction_text(result.rtp),
        "rtp_percent": _percent_float(result.rtp),
        "hit_frequency": fraction_text(result.hit_frequency),
        "hit_frequency_percent": _percent_float(result.hit_frequency),
        "push_probability": fraction_text(result.push_probability),
        "push_probability_percent": _percent_float(result.push_probability),
        "variance": fraction_text(result.variance),
        "std_dev": result.std_dev,
        "edge_per_resolved": fraction_text(result.edge_per_resolved),
        "edge_per_resolved_percent": _percent_float(result.edge_per_resolved),
        "max_round": result.bet.max_round,
    }
    figures = jackpot_figures(result)
    if figures is not None:
        record["jackpot"] = {
            "meter": fraction_text(figures.meter),
            "contribution": fraction_text(figures.contribution),
            "rtp_at_meter": fraction_text(figures.rtp),
            "rtp_at_meter_0": fraction_text(figures.base),
            "rtp_per_meter_stake": fraction_text(figures.per_meter),
            "break_even_meter": fraction_text(figures.break_even),
            "break_even_meter_float": None
            if figures.break_even is None
            else float(figures.break_even),
            "long_run_rtp": fraction_text(figures.long_run),
            "long_run_rtp_percent": _percent_float(figures.long_run),
        }
    if detail:
        top = top_award(result, top_award_rounds)
        record["breakdown"] = [
            {
                "when": line.when,
                "ways": _count_record(line.combinations),
                "probability": fraction_text(line.probability),
                "probability_float": float(line.probability),
                "pays": line.payout.text,
                "net": fraction_text(line.net),
                "contribution": fraction_text(line.contribution),
                "contribution_float": float(line.contribution),
                "one_in": fraction_text(line_one_in(line)),
                "one_in_float": _float(line_one_in(line)),
                "top_award": top is not None and number in top.lines,
            }
            for number, line in enumerate(result.lines)
        ]
    return record


def _float(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


def top_award_record(result: BetResult, top: TopAward) -> dict[str, Any]:
    """A bet's top award as tools read it (a row of ``top_awards``): what it pays, its
    net per unit staked and exact probability, "1 in N" (exact and as a float), the
    rounds of the check, and the chances of at least one top award in them and of none,
    as decimal text to 15 significant digits, every one right (see
    :func:`~analyzer.analysis.lab.at_least_once`)."""
    return {
        "bet": result.bet.id,
        "mode": result.mode,
        "pays": top.pays,
        "net": fraction_text(top.net),
        "probability": fraction_text(top.probability),
        "probability_float": float(top.probability),
        "one_in": fraction_text(top.one_in),
        "one_in_float": float(top.one_in),
        "rounds": top.rounds,
        "at_least_once": str(top.at_least_once),
        "at_least_once_float": float(top.at_least_once),
        "never": str(top.never),
    }


def top_award_text(top: TopAward, lang: str = "en") -> str:
    """The line people read under a bet's paying lines: what its top award pays, "1 in
    N", and the chance of at least one in the check's rounds."""
    return sentence(
        "report_top_award",
        lang,
        pays=top.pays,
        n=one_in_number(top.one_in),
        rounds=f"{top.rounds:,}",
        chance=top.text,
    )


def _percent_column(name: str, lang: str) -> Column:
    return Column(word(name, lang), "percent", places=4)


def summary_table(analysis: Analysis, lang: str = "en") -> Table:
    """The summary as people read it: names, payouts, percentages to 4 places (each cell
    the exact figure)."""
    columns = [
        Column(word("Bet", lang)),
        Column(word("Mode", lang)),
        Column(word("Pays", lang)),
        _percent_column("House edge", lang),
        _percent_column("RTP", lang),
        _percent_column("Hit frequency", lang),
        _percent_column("Push", lang),
        Column(word("Std dev", lang), "number", places=4),
        _percent_column("Edge per resolved bet", lang),
        Column(word("Max round", lang), "count"),
    ]
    rows = [
        [
            r.bet.display_name(lang),
            word(mode, lang),
            payouts_text(r),
            r.house_edge,
            r.rtp,
            r.hit_frequency,
            r.push_probability,
            r.std_dev,
            r.edge_per_resolved,
            r.bet.max_round,
        ]
        for r, mode in shown_once(analysis)
    ]
    if len(analysis.modes) == 1:
        del columns[1]
        rows = [row[:1] + row[2:] for row in rows]
        return table(columns, rows, audience="people")
    return table(columns, rows, audience="people", labels=2)  # a bet and its mode


def line_label(result: BetResult, number: int, lang: str = "en") -> str:
    """What line ``number`` of a bet is called for people: its rule's label in ``lang``
    (else in English), else its condition; the line after the rules is "otherwise", and a
    fold's line after it is named by its condition (``action == 'fold'``)."""
    if number > len(result.bet.rules):
        return result.lines[number].when
    if number == len(result.bet.rules):
        return word(OTHERWISE, lang)
    labels = result.bet.rules[number].labels
    return labels.get(lang) or labels.get("en") or result.lines[number].when


def pays_text(text: str, lang: str = "en") -> str:
    """What a line pays, for people: odds as written, "push" and "lose" in ``lang`` (a
    partial loss, "lose 1/2", as the word and the share)."""
    if text in ("push", "lose"):
        return word(text, lang)
    if text.startswith("lose "):
        return f"{word('lose', lang)} {text.removeprefix('lose ')}"
    return text


def breakdown_table(result: BetResult, lang: str = "en") -> Table:
    """Each line per unit staked; where the bet has a fee, a last line for it, so that the
    returns add up to the expected net of a unit staked (per unit paid, divide by 1 + fee).
    "1 in N" is given for each line the bet pays on (``-`` for a push or a loss), rounded
    as :func:`~analyzer.analysis.lab.one_in_number` says."""
    columns = [
        Column(word("Outcome", lang)),
        Column(word("Combinations", lang), "count"),
        Column(word("Probability", lang), "number", places=10),
        Column(word("1 in N", lang)),
        Column(word("Pays", lang)),
        Column(word("Return", lang), "number", places=10, signed=True),
    ]
    rows = [
        [
            line_label(result, number, lang),
            ln.combinations,
            ln.probability,
            one_in_number(line_one_in(ln)),
            pays_text(ln.payout.text, lang),
            ln.contribution,
        ]
        for number, ln in enumerate(result.lines)
    ]
    if result.bet.fee:
        fee = result.bet.fee
        rows.append([word("fee (paid on every bet)", lang), None, 1, "-", number_text(-fee), -fee])
    return table(columns, rows, audience="people")


def claim_check(analysis: Analysis, claimed: str, lang: str = "en") -> dict[str, Any]:
    """The check of a claimed maximum RTP against the best bet's exact RTP, as JSON shows
    it: ``result`` is PASS or FAIL (as in ``verify``), or None where it cannot be checked
    here; ``text`` is the line the other formats print, in ``lang``.

    A published maximum RTP is about the paytable's own shoe, full: on any other (other
    decks, cards removed) it is not checked, and the line says so."""
    check: dict[str, Any] = {
        "quantity": "max_rtp",
        "claimed": claimed,
        "computed": None,
        "result": None,
        "bet": None,
        "mode": None,
        "rtp": None,
        "rtp_percent": None,
    }
    decks = analysis.paytable.decks
    if analysis.shoe.full_decks != decks:
        return check | {"text": sentence("max_rtp_other_shoe", lang, claimed=claimed, decks=decks)}
    if analysis.unavailable:  # the best bet might be one that cannot be priced here
        count = len(analysis.unavailable)
        return check | {"text": sentence("max_rtp_unavailable", lang, claimed=claimed, count=count)}
    printed = check_printed_value(analysis.max_rtp, claimed, "round")
    best = analysis.best()
    verdict = sentence("max_rtp_confirmed" if printed.passed else "max_rtp_not_confirmed", lang)
    text = sentence(
        "max_rtp_check",
        lang,
        claimed=printed.claimed,
        # The names people read, in every language (JSON gives the ids beside the text).
        bet=best.bet.display_name(lang),
        mode=word(best.mode, lang),
        fraction=fraction_text(best.rtp),
        percent=f"{float(100 * best.rtp):.6f}%",
        printed=printed.computed,
        verdict=verdict,
    )
    return check | {
        "computed": printed.computed,
        "result": "PASS" if printed.passed else "FAIL",
        "bet": best.bet.id,
        "mode": best.mode,
        "rtp": fraction_text(best.rtp),
        "rtp_percent": _percent_float(best.rtp),
        "text": text,
    }


def claim_lines(analysis: Analysis, claimed: str, lang: str = "en") -> list[str]:
    """The check of a claimed maximum RTP against the best bet's exact RTP, in ``lang``
    (see :func:`claim_check`)."""
    return [claim_check(analysis, claimed, lang)["text"]]


def report_title(analysis: Analysis, lang: str) -> str:
    """The report's title in ``lang``: the game, its shoe and modes, and the rules it
    plays where they are not the standard game's."""
    modes = ", ".join(word(m, lang) for m in analysis.modes)
    text = shoe_text(analysis.shoe, lang)
    key = "report_title_fee" if analysis.paytable.fee else "report_title"
    title = sentence(key, lang, name=analysis.paytable.name, shoe=text, modes=modes)
    return "; ".join([title, *played_rules(analysis.paytable, lang)])


def shoe_text(shoe: Shoe, lang: str = "en") -> str:
    """The shoe in words in ``lang``, as :meth:`~analyzer.game.shoe.Shoe.describe` says it
    in English: "8 decks (416 cards)", "an infinite deck ...", "415 cards (A:31 ...)".

    Examples
    --------
    >>> from analyzer import Shoe
    >>> shoe_text(Shoe.standard(8), "tl")
    '8 deck (416 baraha)'
    """
    if shoe.replacement:
        if shoe.decks == INFINITE:
            return sentence("report_infinite", lang)
        return sentence("report_cards_replacement", lang, cards=shoe.size, ranks=shoe.rank_text)
    if shoe.full_decks is not None:
        key = "report_deck_one" if shoe.full_decks == 1 else "report_decks"
        return sentence(key, lang, decks=shoe.full_decks, cards=shoe.size)
    key = "report_cards" if shoe.suits_known else "report_cards_suits_unknown"
    return sentence(key, lang, cards=shoe.size, ranks=shoe.rank_text)


def unavailable_lines(analysis: Analysis, lang: str = "en") -> list[str]:
    """A line for each bet the exact analysis cannot price, in ``lang``: its name and
    mode, and why (the engine's reason in ``lang``; a reason without a key, in English).
    JSON gives the ids and the English reason."""
    return [
        sentence(
            "unavailable",
            lang,
            bet=analysis.paytable.bet(bet, mode).display_name(lang),
            mode=word(mode, lang),
            why=reason_text(why, lang),
        )
        for bet, mode, why in analysis.unavailable
    ]


def reason_text(why: str, lang: str = "en") -> str:
    """Why a bet is not priced exactly, in ``lang``: an engine's
    :class:`~analyzer.engine.pricing.Reason` by its key and fields, as its English says
    it; any other text as it is."""
    key = getattr(why, "key", None)
    if key is None or lang == "en":
        return why
    return sentence(f"why_{key}", lang, **dict(why.fields))


def _count_record(count: int | Fraction) -> int | str:
    """A count for JSON: a whole number, or an expected count as ``"p/q"``."""
    return count if isinstance(count, int) else fraction_text(count)


def _rules_record(paytable: Paytable) -> dict:
    """The drawing rules and strategy for JSON, where they are not the standard game's,
    and the fee and multipliers where there are some (a standard report keeps the keys it
    always had)."""
    record: dict[str, Any] = {}
    if paytable.fee:
        record["fee"] = fraction_text(paytable.fee)
    if paytable.multipliers is not None:
        record["multipliers"] = paytable.multipliers.fingerprint
    if paytable.rules.is_standard and not paytable.strategy.choices:
        return record
    return record | {
        "drawing_rules": paytable.rules.name,
        "rules_table": paytable.rules.table,
        "strategy": {str(cell): choice_text(p) for cell, p in paytable.strategy.choices},
    }


def played_rules(paytable: Paytable, lang: str = "en") -> list[str]:
    """The drawing rules and decisions a paytable plays, where they are not the standard
    tableau's, as the report's title states them (empty for the standard game); for a
    game with a player's decision, that each bet is played its best way per information
    set."""
    parts = []
    if not paytable.rules.is_standard:
        parts.append(sentence("report_rules", lang, rules=word(paytable.rules.name, lang)))
    if paytable.strategy.choices:
        parts.append(sentence("report_strategy", lang, strategy=str(paytable.strategy)))
    if paytable.decision is not None and paytable.played is not None:
        bets = ", ".join(dict.fromkeys(bet for bet, _ in paytable.played.bets))
        parts.append(sentence("report_given_play", lang, bets=bets, source=paytable.played.source))
    elif paytable.decision is not None:
        parts.append(sentence("report_best_play", lang))
    if paytable.multipliers is not None:
        parts.append(multipliers_text(paytable.multipliers, lang))
    if paytable.fee:
        parts.append(fee_text(paytable.fee, lang))
    return parts


def jackpot_text(result: BetResult, mode: str, figures: JackpotFigures, lang: str) -> str:
    """A progressive jackpot's figures in one paragraph: the RTP at the meter, as a
    function of the meter, the break-even meter and the long-run RTP."""
    even = (
        sentence("jackpot_never_even", lang)
        if figures.break_even is None
        else sentence("jackpot_even", lang, meter=f"{float(figures.break_even):,.2f}")
    )
    return sentence(
        "report_jackpot",
        lang,
        bet=result.bet.display_name(lang),
        meter=number_text(figures.meter),
        rtp=_percent(figures.rtp),
        base=_percent(figures.base),
        per=f"{float(100 * figures.per_meter):.10f}%",
        even=even,
        contribution=_share(figures.contribution),
        long=_percent(figures.long_run),
    )


def fee_text(fee: Fraction, lang: str = "en") -> str:
    """The fee in one sentence, and what it does to the figures."""
    return sentence("report_fee", lang, fee=_share(fee))


def _share(value: Fraction) -> str:
    """A probability or fee as a short percentage: 30%, 12.5%, 33.3333%."""
    return f"{float(100 * value):.4f}".rstrip("0").rstrip(".") + "%"


def number_text(value: Fraction) -> str:
    """An exact number as people write it: 2, 0.95, 1/3."""
    if value.denominator == 1:
        return str(value.numerator)
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator == 1:  # a finite decimal, written out
        return format(Decimal(value.numerator) / Decimal(value.denominator), "f")
    return f"{value.numerator}/{value.denominator}"


def multipliers_text(model: Multipliers, lang: str = "en") -> str:
    """The multiplier rules in one sentence: how many special cards (or Lightning suits),
    their values and the chance of each, and the cap."""
    if len(model.cards) == 1:
        cards = number_text(Fraction(model.cards[0][0]))
    else:
        cards = ", ".join(f"{k} ({_share(p)})" for k, p in model.cards)
    values = ", ".join(f"{number_text(v)}x ({_share(p)})" for v, p in model.values)
    if model.by_suits:
        text = sentence("report_multiplier_suits", lang, suits=cards, values=values)
    else:
        text = sentence("report_multipliers", lang, cards=cards, values=values)
    if model.cap is not None:
        text += " " + sentence("report_multiplier_cap", lang, cap=number_text(model.cap))
    return text


def render_table(
    frame: pd.DataFrame, fmt: str = "text", *, index: bool = False, left_align: bool = False
) -> str:
    """One table in a format: every table a command prints goes through here.

    Text is pandas' fixed-width layout (``left_align`` puts text columns, such as names
    and conditions, on the left); Markdown, HTML and LaTeX are pandas' writers (LaTeX
    escaped); CSV is spreadsheet-safe (see :func:`csv_text`).
    """
    import pandas as pd

    if fmt == "markdown":
        # Every cell as the text table shows it, and taken as text: tabulate would read a
        # bet named "1e3" or "007" as a number and print 1000 or 7.
        shown = frame.rename(columns=lambda c: markdown_escape(str(c)))
        for column in shown.columns:
            shown[column] = _as_text(shown[column]).map(markdown_escape)
        if index:
            shown.index = shown.index.map(lambda v: markdown_escape(str(v)))
        numeric = [pd.api.types.is_numeric_dtype(frame[c]) for c in frame.columns]
        align = ["right" if is_number else "left" for is_number in numeric]
        return shown.to_markdown(index=index, disable_numparse=True, colalign=align)
    if fmt == "html":
        return frame.to_html(index=index, border=0)
    if fmt == "latex":
        return frame.to_latex(index=index, escape=True)
    if fmt == "csv":
        return csv_text(frame)
    if left_align:  # text columns (names, conditions) on the left
        header = [str(column) for column in frame.columns]
        text = text_table(header, frame.astype(str).values.tolist())
    else:
        text = frame.to_string(index=index)
    # pandas pads every cell of a left-aligned last column to its width: no line ends in
    # spaces (they are invisible, and break diffs and copy-and-paste).
    return "\n".join(line.rstrip() for line in text.splitlines())


def _as_text(column: pd.Series) -> pd.Series:
    """A column's cells as text, numbers as the text table prints them (one precision
    for the column: 4.6750 beside 2.6158)."""
    import pandas as pd

    if pd.api.types.is_float_dtype(column):
        return pd.Series(column.to_string(index=False).splitlines(), index=column.index).str.strip()
    return column.map(str)


def _flat(record: dict[str, Any]) -> dict[str, Any]:
    """A record with its objects (a bet's ``jackpot``) spread into columns: a CSV cell
    holds a value, not a mapping (``jackpot_meter``, ``jackpot_break_even_meter``...)."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        if isinstance(value, dict):
            out |= {f"{key}_{inner}": item for inner, item in value.items()}
        else:
            out[key] = value
    return out


def report_document(
    analysis: Analysis,
    *,
    detail: bool = False,
    claimed_max_rtp: str | None = None,
    lang: str = "en",
    shoe: dict[str, Any] | None = None,
    bets: Sequence[str] | None = None,
    top_award_rounds: int = TOP_AWARD_ROUNDS,
    data: bool = True,
) -> Document:
    """The report of ``analysis`` as a document, with the check of ``claimed_max_rtp``.

    People read the title, the table of bets (with ``detail`` each bet's breakdown
    under its heading), the jackpots' and unavailable bets' lines and the claim's line.
    Tools read one table of bets, a row per (bet, mode) (with detail, the paying lines
    below it), and, as JSON, the report contract (:mod:`analyzer.reports.contract`):
    the same rows under ``bets`` (see :func:`result_record`, a jackpot's figures spread
    into ``jackpot_*`` columns), the paying lines under ``lines`` (with detail), the bets
    that cannot be computed exactly under ``unavailable``, and ``max_rtp_claim`` (see
    :func:`claim_check`; null without a claim). ``shoe`` is the shoe as the contract
    writes it (default: the analysis's, nothing said removed); ``bets``: the bets asked
    for (None: every bet). With detail, each paying line's "1 in N", and each bet's top
    award with the chance of at least one in ``top_award_rounds`` rounds (a line under
    its breakdown; tools: ``top_awards``, a row per bet and mode that pays on a line).
    Without ``data`` the JSON value is left out (None): only the JSON format reads it, and
    a text report starts quicker without it."""

    check_language(lang)
    shown = shown_once(analysis)
    blocks: list[Block] = [summary_table(analysis, lang)]
    if detail:
        for r, mode in shown:
            heading = (
                f"{r.bet.display_name(lang)} ({word(mode, lang)}): "
                f"{word('house edge', lang)} {_percent(r.house_edge)}"
            )
            blocks += [Heading(heading, 2), breakdown_table(r, lang)]
            top = top_award(r, top_award_rounds)
            if top is not None:
                blocks.append(Paragraph(top_award_text(top, lang), prose=True))
    for r, mode in shown:
        figures = jackpot_figures(r)
        if figures is not None:
            blocks.append(Paragraph(jackpot_text(r, mode, figures, lang)))
    blocks += [Paragraph(line) for line in unavailable_lines(analysis, lang)]
    if claimed_max_rtp is not None:
        blocks += [Paragraph(line) for line in claim_lines(analysis, claimed_max_rtp, lang)]
    # Tools: a row per (bet, mode), in JSON and CSV alike.
    bets_table = records_table(
        [_flat(result_record(r, lang=lang)) for r in analysis.results],
        {"max_round": "count"},
        columns=REPORT_COLUMNS,
    )
    blocks.append(bets_table)
    extra: dict[str, Any] = {}
    if detail:
        lines = [
            {"bet": r.bet.id, "mode": r.mode, **line}
            for r in analysis.results
            for line in result_record(r, True, lang, top_award_rounds)["breakdown"]
        ]
        lines_table = records_table(lines, {"ways": "count"}, columns=LINE_COLUMNS)
        blocks.append(lines_table)
        extra["lines"] = tool_rows(lines_table)
        tops = [
            top_award_record(r, top)
            for r in analysis.results
            if (top := top_award(r, top_award_rounds)) is not None
        ]
        tops_table = records_table(tops, {"rounds": "count"}, columns=TOP_AWARD_COLUMNS)
        blocks.append(tops_table)
        extra["top_awards"] = tool_rows(tops_table)
    if not data:
        return Document(report_title(analysis, lang), tuple(blocks))
    from analyzer.reports.contract import decision_record, envelope, played_options, shoe_record

    extra["unavailable"] = [
        {"bet": bet, "mode": mode, "reason": why} for bet, mode, why in analysis.unavailable
    ]
    extra["max_rtp_claim"] = (
        None if claimed_max_rtp is None else claim_check(analysis, claimed_max_rtp, lang)
    )
    options = {
        "modes": list(analysis.modes),
        "bets": None if bets is None else list(bets),
        "detail": detail,
        "top_award_rounds": top_award_rounds,
        "lang": lang,
        **played_options(analysis.paytable),
        "decision": decision_record(analysis.paytable),
    }
    data = envelope(
        "report",
        paytable=analysis.paytable,
        shoe=shoe_record(analysis.shoe) if shoe is None else shoe,
        options=options,
        rows=tool_rows(bets_table),
        **extra,
    )
    return Document(report_title(analysis, lang), tuple(blocks), data)


def render_report(
    analysis: Analysis,
    fmt: str = "text",
    *,
    detail: bool = False,
    claimed_max_rtp: str | None = None,
    lang: str = "en",
    fragment: bool = False,
    width: int | None = TEXT_WIDTH,
    shoe: dict[str, Any] | None = None,
    bets: Sequence[str] | None = None,
    top_award_rounds: int = TOP_AWARD_ROUNDS,
) -> str:
    """The report of ``analysis`` in ``fmt`` (one of the text formats), see
    :func:`report_document`; HTML as a whole page, or with ``fragment`` its body; text at
    most ``width`` characters a line (None: no limit)."""
    if fmt not in FORMATS:
        raise AnalyzerError(f"unknown format {fmt!r} (formats: {', '.join(FORMATS)})")
    document = report_document(
        analysis,
        detail=detail,
        claimed_max_rtp=claimed_max_rtp,
        lang=lang,
        shoe=shoe,
        bets=bets,
        top_award_rounds=top_award_rounds,
        data=fmt == "json",  # (only JSON writes the envelope)
    )
    text = write_document(document, fmt, fragment=fragment, width=width)
    assert isinstance(text, str)
    return text
