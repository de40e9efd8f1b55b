"""An audit's figures as JSON-ready records: what ``audit --format json`` prints and what
the Python API's :class:`~analyzer.api.runs.AuditReport` holds, made in one place."""

from __future__ import annotations

from typing import Any

from analyzer.analysis.audit import AuditResult, Finding, payout_column
from analyzer.analysis.audit_fit import BATCH_ERROR_BOUND, CalibrationBin, FitTest
from analyzer.analysis.audit_groups import GroupResult, MonitorRow
from analyzer.game.shoe import INFINITE
from analyzer.paytables.model import Paytable


def audit_record(result: AuditResult, paytable: Paytable) -> dict[str, Any]:
    """The whole audit of logs against ``paytable``: its summary, findings, counts by
    check, payout columns checked and not, and the fit's tests and calibration where it
    was run."""
    record: dict[str, Any] = {
        "paytable": paytable.name,
        "decks": None if result.decks == INFINITE else result.decks,
        "logs": result.logs,
        "rounds": result.rounds,
        "shoes": result.shoes,
        "findings": [finding_record(f) for f in result.findings],
        "findings_shown": len(result.findings),
        "findings_total": result.total,
        "counts": result.counts,
        "payouts_checked": [payout_column(b, m, paytable) for b, m in result.payouts_checked],
        "payouts_not_checkable": {
            payout_column(b, m, paytable): why for b, m, why in result.not_checkable
        },
    }
    if result.fit is not None:
        fit = result.fit
        record["fit"] = {
            "level": fit.level,
            "correction": "holm",
            "tests_run": len(fit.run),
            "tests_failed": len(fit.failed),
            "tests": [fit_test_record(t) for t in fit.tests],
            "shoe_aware_rounds": fit.shoe_aware_rounds,
            "shoe_aware_left_out": fit.left_out,
            "batch_error_bound": BATCH_ERROR_BOUND,
            "calibration": [bin_record(b) for b in fit.calibration],
            "notes": list(fit.notes),
        }
    if result.monitoring or result.monitoring_notes:
        record["monitoring"] = {
            "confidence": result.confidence,
            "deviation": result.deviation,
            "correction": "holm",
            "bets": [monitor_record(r, paytable) for r in result.monitoring],
            "notes": list(result.monitoring_notes),
        }
    if result.groups is not None:
        groups = result.groups
        record["groups"] = {
            "columns": list(groups.columns),
            "min_rounds": groups.min_rounds,
            "correction": "holm",
            "groups_failed": len(groups.failed),
            "groups": [group_record(g, paytable) for g in groups.groups],
        }
    return record


def monitor_record(r: MonitorRow, paytable: Paytable) -> dict[str, Any]:
    """One bet's monitoring: its return against the exact RTP, band and rounds needed."""
    return {
        "bet": r.bet,
        "mode": r.mode,
        "stake_column": stake_column(r.bet, r.mode, paytable),
        "rounds": r.rounds,
        "paid": rounded(r.paid),
        "actual_rtp": rounded(r.actual_rtp),
        "theoretical_rtp": rounded(float(r.theoretical_rtp)),
        "theoretical_rtp_exact": str(r.theoretical_rtp),
        "variance": rounded(float(r.variance)),
        "variance_exact": str(r.variance),
        "standard_error": rounded(r.standard_error),
        "band_low": rounded(r.low),
        "band_high": rounded(r.high),
        "z": rounded(r.z),
        "p_value": rounded(r.p_value),
        "holm_p_value": rounded(r.adjusted_p),
        "verdict": monitor_verdict(r),
        "rounds_needed": r.rounds_needed,
        "not_valued": r.unvalued,
    }


def monitor_verdict(r: MonitorRow) -> str:
    """``inside``, ``OUTSIDE`` (its band, after Holm's correction), or ``n/a``."""
    return "n/a" if r.inside is None else "inside" if r.inside else "OUTSIDE"


def stake_column(bet_id: str, mode: str, paytable: Paytable) -> str:
    """The log's stake column of a bet in a mode: ``stake:<bet>`` in the first mode."""
    return f"stake:{bet_id}" if mode == paytable.modes[0] else f"stake:{bet_id}:{mode}"


def group_record(g: GroupResult, paytable: Paytable) -> dict[str, Any]:
    """One group: its rounds, whether it was tested, its tests and monitoring."""
    fit = g.fit
    return {
        "column": g.column,
        "value": g.value,
        "rounds": g.rounds,
        "tested": g.tested,
        "tests_run": None if fit is None else len(fit.run),
        "tests_failed": None if fit is None else len(fit.failed),
        "tests": [] if fit is None else [fit_test_record(t) for t in fit.tests],
        "monitoring": [monitor_record(r, paytable) for r in g.monitoring],
    }


def finding_record(f: Finding) -> dict[str, Any]:
    """One finding: its check, log (None for a single log), row, shoe, round and text."""
    return {
        "check": f.check,
        "log": f.log or None,
        "row": f.row,
        "shoe": f.shoe,
        "round": f.round,
        "text": f.text,
    }


def fit_test_record(t: FitTest) -> dict[str, Any]:
    """One test of the fit: what it compares, its statistic, p-values and verdict."""
    return {
        "test": t.key,
        "name": t.name,
        "method": t.method,
        "rounds": t.rounds,
        "observed": rounded(t.observed),
        "expected": rounded(t.expected),
        "statistic_name": t.statistic_name,
        "statistic": rounded(t.statistic),
        "p_value": rounded(t.p_value),
        "holm_p_value": rounded(t.adjusted_p),
        "verdict": verdict(t),
        **({"counts": {n: [o, rounded(e)] for n, o, e in t.parts}} if t.parts else {}),
    }


def bin_record(b: CalibrationBin) -> dict[str, Any]:
    """One bin of the shoe-aware calibration."""
    return {
        "outcome": b.outcome,
        "low": b.low,
        "high": b.high,
        "rounds": b.rounds,
        "predicted": rounded(b.predicted),
        "observed": b.observed,
    }


def rounded(value: Any) -> Any:
    """A float to 12 significant digits (the batch engine's last bits are the machine's);
    a whole number or None as it is."""
    if isinstance(value, float):
        return float(f"{value:.12g}")
    return value


def verdict(t: FitTest) -> str:
    """``pass``, ``FAIL``, or ``n/a`` for a test that could not be run."""
    return "n/a" if t.passed is None else "pass" if t.passed else "FAIL"
