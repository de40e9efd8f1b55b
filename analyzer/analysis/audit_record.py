"""An audit's figures as JSON-ready records: what ``audit --format json`` prints and what
the Python API's :class:`~analyzer.api.runs.AuditReport` holds, made in one place."""

from __future__ import annotations

from typing import Any

from analyzer.analysis.audit import AuditResult, Finding, payout_column
from analyzer.analysis.audit_fit import BATCH_ERROR_BOUND, CalibrationBin, FitTest
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
    return record


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
