"""Rendering an :class:`~analyzer.analysis.Analysis` as text, Markdown, CSV or JSON."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pandas as pd

from analyzer.analysis import Analysis
from analyzer.bets import BetResult
from analyzer.claims import ClaimCheck, check_printed_value
from analyzer.errors import AnalyzerError

FORMATS = ("text", "markdown", "csv", "json")
MODE_NAMES = {"commission": "Baccarat (commission)", "no_commission": "No Commission Baccarat"}


def fraction_text(value: Fraction | None) -> str | None:
    """Lowest terms as ``"p/q"`` (``Fraction`` is always reduced)."""
    if value is None:
        return None
    return f"{value.numerator}/{value.denominator}"


def _percent(value: Fraction | None, places: int = 4) -> str:
    return "-" if value is None else f"{float(100 * value):.{places}f}%"


def _payouts(result: BetResult) -> str:
    wins = [rule.payout.text for rule in result.bet.rules if rule.payout.net > 0]
    return " / ".join(dict.fromkeys(wins))


def result_record(result: BetResult, detail: bool = False) -> dict[str, Any]:
    """One JSON-ready object: exact values as ``"p/q"``, floats beside them."""
    record = {
        "bet": result.bet.id,
        "name": result.bet.name,
        "mode": result.mode,
        "house_edge": fraction_text(result.house_edge),
        "rtp": fraction_text(result.rtp),
        "house_edge_percent": float(100 * result.house_edge),
        "rtp_percent": float(100 * result.rtp),
        "hit_frequency": float(result.hit_frequency),
        "hit_frequency_exact": fraction_text(result.hit_frequency),
        "push_probability": float(result.push_probability),
        "push_probability_exact": fraction_text(result.push_probability),
        "std_dev": result.std_dev,
        "variance_exact": fraction_text(result.variance),
        "edge_per_resolved_percent": (
            None if result.edge_per_resolved is None else float(100 * result.edge_per_resolved)
        ),
        "edge_per_resolved": fraction_text(result.edge_per_resolved),
        "max_round": result.bet.max_round,
    }
    if detail:
        record["breakdown"] = [
            {
                "when": row.when,
                "ways": int(row.ways),
                "probability": fraction_text(row.probability),
                "probability_float": row.probability_float,
                "pays": row.pays,
                "net": fraction_text(row.net),
                "contribution": fraction_text(row.contribution),
            }
            for row in result.breakdown.itertuples()
        ]
    return record


def summary_display(analysis: Analysis, lang: str = "en") -> pd.DataFrame:
    """The summary as people read it: names, payouts, rounded percentages."""
    rows = [
        {
            "Bet": r.bet.display_name(lang),
            "Mode": r.mode,
            "Pays": _payouts(r),
            "House edge": _percent(r.house_edge),
            "RTP": _percent(r.rtp),
            "Hit frequency": _percent(r.hit_frequency),
            "Push": _percent(r.push_probability),
            "Std dev": f"{r.std_dev:.4f}",
            "Edge per resolved bet": _percent(r.edge_per_resolved),
            "Max round": "-" if r.bet.max_round is None else str(r.bet.max_round),
        }
        for r in analysis.results
    ]
    frame = pd.DataFrame(rows)
    if len(analysis.modes) == 1:
        frame = frame.drop(columns="Mode")
    return frame


def summary_csv_frame(analysis: Analysis) -> pd.DataFrame:
    return pd.DataFrame([result_record(r) for r in analysis.results])


def breakdown_display(result: BetResult) -> pd.DataFrame:
    frame = result.breakdown
    return pd.DataFrame(
        {
            "Outcome": frame["when"],
            "Combinations": frame["ways"].map(str),
            "Probability": frame["probability_float"].map(lambda p: f"{p:.10f}"),
            "Pays": frame["pays"],
            "Return": frame["contribution_float"].map(lambda c: f"{c:+.10f}"),
        }
    )


def _left_aligned(frame: pd.DataFrame) -> str:
    """Plain-text table with the text columns (names, conditions) left-aligned."""
    formatters = {}
    for column in ("Bet", "Mode", "Pays", "Outcome"):
        if column in frame:
            width = max(len(column), *(len(v) for v in frame[column]))
            formatters[column] = f"{{:<{width}}}".format
    return frame.to_string(index=False, formatters=formatters, justify="left")


def claim_check(analysis: Analysis, claimed: str) -> ClaimCheck:
    return check_printed_value(analysis.max_rtp, claimed, "round")


def claim_lines(analysis: Analysis, claimed: str) -> list[str]:
    check = claim_check(analysis, claimed)
    best = analysis.best()
    verdict = "CONFIRMED" if check.passed else "NOT CONFIRMED"
    return [
        f"Claimed maximum RTP {check.claimed}: best bet {best.bet.id} ({best.mode}) has exact "
        f"RTP {fraction_text(best.rtp)} = {float(100 * best.rtp):.6f}%, "
        f"which prints as {check.computed}: {verdict}"
    ]


def _title(analysis: Analysis) -> str:
    modes = ", ".join(MODE_NAMES.get(m, m) for m in analysis.modes)
    shoe = analysis.shoe.describe()
    return f"{analysis.paytable.name}: {shoe}, exact, per unit staked; modes: {modes}"


def render_report(
    analysis: Analysis,
    fmt: str = "text",
    *,
    detail: bool = False,
    claimed_max_rtp: str | None = None,
    lang: str = "en",
) -> str:
    if fmt not in FORMATS:
        raise AnalyzerError(f"unknown format {fmt!r} (formats: {', '.join(FORMATS)})")
    if fmt == "json":
        return json.dumps([result_record(r, detail) for r in analysis.results], indent=2) + "\n"
    if fmt == "csv":
        text = summary_csv_frame(analysis).to_csv(index=False)
        if detail:
            frames = []
            for r in analysis.results:
                frame = pd.DataFrame(result_record(r, detail=True)["breakdown"])
                frame.insert(0, "mode", r.mode)
                frame.insert(0, "bet", r.bet.id)
                frames.append(frame)
            text += "\n" + pd.concat(frames, ignore_index=True).to_csv(index=False)
        return text
    parts = []
    summary = summary_display(analysis, lang)
    if fmt == "markdown":
        parts += [f"## {_title(analysis)}", "", summary.to_markdown(index=False)]
    else:
        parts += [_title(analysis), "", _left_aligned(summary)]
    if detail:
        for r in analysis.results:
            heading = f"{r.bet.display_name(lang)} ({r.mode}): house edge {_percent(r.house_edge)}"
            table = breakdown_display(r)
            if fmt == "markdown":
                parts += ["", f"### {heading}", "", table.to_markdown(index=False)]
            else:
                parts += ["", heading, _left_aligned(table)]
    if claimed_max_rtp is not None:
        parts += ["", *claim_lines(analysis, claimed_max_rtp)]
    return "\n".join(parts) + "\n"
