"""``verify``: published claims (a claims file) against exact values."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from analyzer.analysis import Analysis, analyze
from analyzer.bets import BetResult
from analyzer.claims import Claim, check_printed_value, claims_from_dict
from analyzer.errors import AnalyzerError
from analyzer.files import read_toml
from analyzer.paytable import DATA_DIR, Paytable, load_paytable, parse_payout
from analyzer.shoe import Shoe


def load_claims(path: str | Path) -> list[Claim]:
    path = Path(path)
    return claims_from_dict(read_toml(path), str(path), path.parent)


def _results(analysis: Analysis, claim: Claim) -> list[BetResult]:
    where = f"claim {claim.number}"
    analysis.paytable.check_bet_ids((claim.bet,))
    if claim.mode is not None:
        analysis.paytable.check_modes((claim.mode,))
    found = [
        r
        for r in analysis.results
        if r.bet.id == claim.bet and (claim.mode is None or r.mode == claim.mode)
    ]
    if not found:
        raise AnalyzerError(f"{where}: bet {claim.bet!r} is not offered in mode {claim.mode!r}")
    return found


def _check(analysis: Analysis, claim: Claim) -> tuple[str, bool, str | None]:
    """(computed value as printed, passed, mode it refers to)."""
    if claim.quantity == "max_rtp":
        check = check_printed_value(analysis.max_rtp, claim.value, claim.rounding)
        best = analysis.best()
        return f"{check.computed} ({best.bet.id}, {best.mode})", check.passed, None
    results = _results(analysis, claim)
    if claim.quantity in ("payouts", "max_round"):
        bets = {id(r.bet): r.bet for r in results}
        if len(bets) > 1:
            modes = ", ".join(r.mode for r in results)
            raise AnalyzerError(
                f"claim {claim.number}: bet {claim.bet!r} has a different paytable in each mode; "
                f"name the 'mode' ({modes})"
            )
        bet = results[0].bet
        if claim.quantity == "max_round":
            computed = "none" if bet.max_round is None else bet.max_round
            return str(computed), computed == claim.value, claim.mode
        # Help pages list payouts in their own order: compare them as a multiset.
        paid = [rule.payout for rule in bet.rules if rule.payout.net > 0]
        claimed = sorted(parse_payout(v).net for v in claim.value)
        passed = sorted(p.net for p in paid) == claimed
        return ", ".join(p.text for p in paid), passed, claim.mode
    values = {r.mode: getattr(r, claim.quantity) for r in results}
    if len(set(values.values())) > 1:
        raise AnalyzerError(
            f"claim {claim.number}: {claim.quantity} of {claim.bet!r} differs by mode; name the "
            f"'mode' ({', '.join(values)})"
        )
    check = check_printed_value(next(iter(values.values())), claim.value, claim.rounding)
    return check.computed, check.passed, claim.mode


def verify_claims(claims: list[Claim], shoe: Shoe | None = None) -> pd.DataFrame:
    """One row per claim: claimed and computed values as printed, PASS or FAIL."""
    analyses: dict[str, tuple[Paytable, Analysis]] = {}
    rows = []
    for claim in claims:
        if claim.paytable not in analyses:
            paytable = load_paytable(claim.paytable)
            analyses[claim.paytable] = (paytable, analyze(paytable=paytable, shoe=shoe))
        paytable, analysis = analyses[claim.paytable]
        try:
            computed, passed, mode = _check(analysis, claim)
        except AnalyzerError as exc:
            message = str(exc)
            if not message.startswith("claim "):
                message = f"claim {claim.number}: {message}"
            raise AnalyzerError(message) from None
        claimed = claim.value
        if isinstance(claimed, list):
            claimed = ", ".join(map(str, claimed))
        rows.append(
            {
                "claim": claim.number,
                "paytable": paytable.source,
                "bet": claim.bet or "(game)",
                "mode": mode or "-",
                "quantity": claim.quantity,
                "claimed": str(claimed),
                "computed": computed,
                "result": "PASS" if passed else "FAIL",
                "source": claim.source,
            }
        )
    return pd.DataFrame(rows)


CLAIMS_DIR = DATA_DIR / "claims"


def published_max_rtp(paytable: Paytable) -> str | None:
    """The maximum RTP that the shipped claims file of a shipped paytable states, if any."""
    path = CLAIMS_DIR / f"{paytable.source}.toml"
    if not path.exists():
        return None
    for claim in load_claims(path):
        if claim.quantity == "max_rtp" and Path(claim.paytable).stem == paytable.source:
            return str(claim.value)
    return None
