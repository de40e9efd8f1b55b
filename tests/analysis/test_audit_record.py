"""An audit's figures as records: the findings, the tests and the calibration."""

from __future__ import annotations

from analyzer import load_paytable
from analyzer.analysis.audit import AuditResult, Finding
from analyzer.analysis.audit_fit import CalibrationBin, FitResult, FitTest
from analyzer.analysis.audit_record import (
    audit_record,
    bin_record,
    fit_test_record,
    rounded,
    verdict,
)


def _test(passed, p=0.5) -> FitTest:
    return FitTest("tie", "ties", "binomial", 100, 9.0, 9.5, "count", 9.0, p, p, passed)


def test_verdicts_and_rounding() -> None:
    assert [verdict(_test(True)), verdict(_test(False)), verdict(_test(None, None))] == [
        "pass",
        "FAIL",
        "n/a",
    ]
    assert rounded(0.1 + 0.2) == 0.3 and rounded(7) == 7 and rounded(None) is None
    assert fit_test_record(_test(True))["holm_p_value"] == 0.5
    assert "counts" not in fit_test_record(_test(True))


def test_a_whole_audit_record() -> None:
    paytable = load_paytable("seed-game")
    finding = Finding("score", 3, "s1", 2, "player score 5, cards say 4")
    fit = FitResult(
        0.01, (_test(True),), (CalibrationBin("tie", 0.09, 0.1, 10, 0.95, 1),), 8, 10, 0
    )
    result = AuditResult(10, 1, (finding,), {"score": 1}, (("tie", "no_commission"),), (), 8, fit)
    record = audit_record(result, paytable)
    assert record["findings"] == [
        {"check": "score", "log": None, "row": 3, "shoe": "s1", "round": 2,
         "text": "player score 5, cards say 4"}
    ]  # fmt: skip
    assert record["findings_total"] == 1 and record["payouts_checked"] == ["pay:tie:no_commission"]
    assert record["fit"]["tests_run"] == 1 and record["fit"]["tests_failed"] == 0
    assert record["fit"]["calibration"] == [bin_record(fit.calibration[0])]
