"""``verify``: published claims (a claims file) against exact values."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path

import pandas as pd

from analyzer.analysis.bets import BetResult
from analyzer.analysis.exact import Analysis, analyze
from analyzer.errors import AnalyzerError
from analyzer.files import read_toml
from analyzer.game.shoe import Shoe
from analyzer.paytables.claims import Claim, check_printed_value, claims_from_dict
from analyzer.paytables.library import claims_names, is_path, load_paytable, shipped_claims
from analyzer.paytables.model import Bet, Paytable, parse_payout


def load_claims(spec: str | Path) -> list[Claim]:
    """A claims file, or a shipped claims file by name (``seed-game``)."""
    if not is_path(spec):
        shipped = shipped_claims(str(spec))
        if shipped is None:
            raise AnalyzerError(
                f"unknown claims {str(spec)!r}: give a .toml file or one of "
                f"{', '.join(claims_names())}"
            )
        return claims_from_dict(read_toml(shipped), str(spec), None)
    path = Path(spec)
    return claims_from_dict(read_toml(path), str(path), path.parent)


def _results(analysis: Analysis, claim: Claim) -> list[BetResult]:
    """The exact results a claim about one bet refers to (every mode, unless it names one)."""
    where = f"claim {claim.number}"
    wanted = [mode for mode in analysis.modes if claim.mode in (None, mode)]
    for bet, mode, why in analysis.unavailable:
        if bet == claim.bet and mode in wanted:
            raise AnalyzerError(f"{where}: bet {bet!r} cannot be computed exactly here: {why}")
    found = [r for r in analysis.results if r.bet.id == claim.bet and r.mode in wanted]
    if not found:
        raise AnalyzerError(f"{where}: bet {claim.bet!r} is not offered in mode {claim.mode!r}")
    return found


def _bets(paytable: Paytable, claim: Claim) -> tuple[Bet, str | None]:
    """The one bet (rules, max round) a claim about payouts or the max round refers to."""
    modes = paytable.modes if claim.mode is None else (claim.mode,)
    offered = {id(bet): (bet, mode) for bet, mode in paytable.offered(modes, (claim.bet,))}
    if not offered:
        raise AnalyzerError(
            f"claim {claim.number}: bet {claim.bet!r} is not offered in mode {claim.mode!r}"
        )
    if len(offered) > 1:
        modes_named = ", ".join(mode for _, mode in offered.values())
        raise AnalyzerError(
            f"claim {claim.number}: bet {claim.bet!r} has a different paytable in each mode; "
            f"name the 'mode' ({modes_named})"
        )
    return next(iter(offered.values()))[0], claim.mode


def _payouts_shown(printed: Iterable[object]) -> str:
    """Payouts as written, highest first: the one order both sides of a payouts claim are
    shown in (they are compared as a multiset, so the order carries nothing)."""
    values = list(printed)
    by_net = sorted(values, key=lambda value: parse_payout(value).net, reverse=True)
    return ", ".join(map(str, by_net))


def _check(analysis: Analysis, claim: Claim) -> tuple[str, bool, str | None]:
    """(computed value as printed, passed, mode it refers to)."""
    if claim.quantity == "max_rtp":
        if analysis.unavailable:
            bet, mode, why = analysis.unavailable[0]
            raise AnalyzerError(
                f"claim {claim.number}: the maximum RTP needs every bet, and {bet!r} ({mode}) "
                f"cannot be computed exactly here: {why}"
            )
        check = check_printed_value(analysis.max_rtp, claim.value, claim.rounding)
        best = analysis.best()
        return f"{check.computed} ({best.bet.id}, {best.mode})", check.passed, None
    analysis.paytable.check_bet_ids((claim.bet,))
    if claim.mode is not None:
        analysis.paytable.check_modes((claim.mode,))
    if claim.quantity in ("payouts", "max_round"):
        # Facts of the paytable itself: they do not depend on the shoe.
        bet, mode = _bets(analysis.paytable, claim)
        if claim.quantity == "max_round":
            computed = "none" if bet.max_round is None else bet.max_round
            return str(computed), computed == claim.value, mode
        # Help pages list payouts in their own order: compare them as a multiset.
        paid = [rule.payout for rule in bet.rules if rule.payout.net > 0]
        claimed = sorted(parse_payout(v).net for v in claim.value)
        passed = sorted(p.net for p in paid) == claimed
        return _payouts_shown(p.text for p in paid), passed, mode
    results = _results(analysis, claim)
    values = {r.mode: getattr(r, claim.quantity) for r in results}
    if len(set(values.values())) > 1:
        raise AnalyzerError(
            f"claim {claim.number}: {claim.quantity} of {claim.bet!r} differs by mode; name the "
            f"'mode' ({', '.join(values)})"
        )
    check = check_printed_value(next(iter(values.values())), claim.value, claim.rounding)
    return check.computed, check.passed, claim.mode


def verify_claims(
    claims: list[Claim], shoe: Shoe | Callable[[Paytable], Shoe] | None = None
) -> pd.DataFrame:
    """One row per claim: claimed and computed values as printed, PASS or FAIL.

    ``shoe``: the shoe every claim is checked on, or a function giving each paytable's
    (cards removed from its own decks, say); None: each paytable's full shoe."""
    loaded: dict[str, Paytable] = {}
    # One analysis per paytable, however its path is spelt (p.toml, ./p.toml, an absolute
    # path, a copy): keyed by what the paytable says, not by the words naming it.
    analyses: dict[str, Analysis] = {}
    rows = []
    for claim in claims:
        if claim.paytable not in loaded:
            try:
                loaded[claim.paytable] = load_paytable(claim.paytable)
            except AnalyzerError as exc:
                raise AnalyzerError(f"claim {claim.number}: {exc}") from None
        paytable = loaded[claim.paytable]
        content = json.dumps(paytable.fingerprint, sort_keys=True)
        if content not in analyses:
            own = shoe(paytable) if callable(shoe) else shoe
            analyses[content] = analyze(paytable=paytable, shoe=own)
        analysis = analyses[content]
        try:
            computed, passed, mode = _check(analysis, claim)
        except AnalyzerError as exc:
            message = str(exc)
            if not message.startswith("claim "):
                message = f"claim {claim.number}: {message}"
            raise AnalyzerError(message) from None
        claimed = _payouts_shown(claim.value) if claim.quantity == "payouts" else claim.value
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


def published_max_rtp(paytable: Paytable) -> str | None:
    """The maximum RTP that the shipped claims file of a shipped paytable states, if any."""
    if shipped_claims(paytable.source) is None:
        return None
    for claim in load_claims(paytable.source):
        if claim.quantity == "max_rtp" and claim.paytable == paytable.source:
            return str(claim.value)
    return None
