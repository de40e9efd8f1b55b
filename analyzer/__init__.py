"""baccarat-odds: exact combinatorial odds for baccarat.

Data flows one way: shoe -> outcome counts (Numba kernels) -> outcome table (pandas) ->
bets (paytable) -> report.

The public names below are imported on first use (PEP 562), so that ``import analyzer``
and the command line start without loading numba, pandas or sympy until they are needed
(and Ctrl-C during start-up can be answered with one line).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Where each public name lives.
_EXPORTS = {
    "Analysis": "analyzer.analysis.exact",
    "analyze": "analyzer.analysis.exact",
    "batch_expected_values": "analyzer.engine.batch",
    "BetResult": "analyzer.analysis.bets",
    "evaluate_bet": "analyzer.analysis.bets",
    "Card": "analyzer.game.cards",
    "parse_card": "analyzer.game.cards",
    "parse_cards": "analyzer.game.cards",
    "check_printed_value": "analyzer.paytables.printed",
    "Condition": "analyzer.paytables.conditions",
    "parse_condition": "analyzer.paytables.conditions",
    "OutcomeCounts": "analyzer.engine.counts",
    "count_outcomes": "analyzer.engine.enumerator",
    "effects_of_removal": "analyzer.analysis.eor",
    "linear_counts": "analyzer.analysis.eor",
    "AnalyzerError": "analyzer.errors",
    "FIELDS": "analyzer.game.fields",
    "outcome_table": "analyzer.engine.outcomes",
    "Bet": "analyzer.paytables.model",
    "read_decisions": "analyzer.paytables.played",
    "with_decisions": "analyzer.paytables.played",
    "Paytable": "analyzer.paytables.model",
    "load_paytable": "analyzer.paytables.library",
    "paytable_from_dict": "analyzer.paytables.model",
    "Round": "analyzer.game.rules",
    "deal_round": "analyzer.game.rules",
    "DrawingRules": "analyzer.game.rules",
    "Strategy": "analyzer.game.rules",
    "named_rules": "analyzer.game.rules",
    "parse_strategy": "analyzer.game.rules",
    "rules_from_table": "analyzer.game.rules",
    "best_strategy": "analyzer.analysis.strategy",
    "GameSolution": "analyzer.analysis.solve",
    "solve_game": "analyzer.analysis.solve",
    "seed_paytable": "analyzer.paytables.library",
    "Shoe": "analyzer.game.shoe",
    "shoe_from_file": "analyzer.game.shoe",
    "expected_value_expression": "analyzer.engine.symbolic",
    "simulate": "analyzer.api.runs",
    "Simulation": "analyzer.api.runs",
    "count": "analyzer.api.runs",
    "CountStudy": "analyzer.api.runs",
    "dealt": "analyzer.api.runs",
    "DealtRTP": "analyzer.api.runs",
    "audit": "analyzer.api.runs",
    "AuditReport": "analyzer.api.runs",
    "fit": "analyzer.api.runs",
    "FitResult": "analyzer.api.runs",
    # The Python API (analyzer.api): a task a function, each returning a result object.
    "as_paytable": "analyzer.paytables.library",
    "list_paytables": "analyzer.api.library",
    "list_claims": "analyzer.api.library",
    "list_rule_sets": "analyzer.api.library",
    "RemovalEffects": "analyzer.api.exact",
    "removal_effects": "analyzer.api.exact",
    "Verification": "analyzer.api.exact",
    "verify": "analyzer.api.exact",
    "solve": "analyzer.api.exact",
    "help_pages": "analyzer.api.exact",
    "Certification": "analyzer.api.certify",
    "certify": "analyzer.api.certify",
}

__all__ = [
    "FIELDS",
    "Analysis",
    "AnalyzerError",
    "AuditReport",
    "Bet",
    "BetResult",
    "Card",
    "Certification",
    "Condition",
    "CountStudy",
    "DealtRTP",
    "DrawingRules",
    "FitResult",
    "GameSolution",
    "OutcomeCounts",
    "Paytable",
    "RemovalEffects",
    "Round",
    "Shoe",
    "Simulation",
    "Strategy",
    "Verification",
    "analyze",
    "as_paytable",
    "audit",
    "batch_expected_values",
    "best_strategy",
    "certify",
    "check_printed_value",
    "count",
    "count_outcomes",
    "deal_round",
    "dealt",
    "effects_of_removal",
    "evaluate_bet",
    "expected_value_expression",
    "fit",
    "help_pages",
    "linear_counts",
    "list_claims",
    "list_paytables",
    "list_rule_sets",
    "load_paytable",
    "named_rules",
    "outcome_table",
    "parse_card",
    "parse_cards",
    "parse_condition",
    "parse_strategy",
    "paytable_from_dict",
    "read_decisions",
    "removal_effects",
    "rules_from_table",
    "seed_paytable",
    "shoe_from_file",
    "simulate",
    "solve",
    "solve_game",
    "verify",
    "with_decisions",
]


def __getattr__(name: str) -> Any:
    if name == "__version__":  # read from the installed metadata when first asked for
        from analyzer.version import package_version

        globals()[name] = package_version()
        return globals()[name]
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value  # later lookups skip this function
        return value
    raise AttributeError(f"module 'analyzer' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | {"__version__"})


if TYPE_CHECKING:  # for type checkers and editors: the same names, imported eagerly
    __version__: str
    from analyzer.analysis.bets import BetResult, evaluate_bet
    from analyzer.analysis.eor import effects_of_removal, linear_counts
    from analyzer.analysis.exact import Analysis, analyze
    from analyzer.analysis.solve import GameSolution, solve_game
    from analyzer.analysis.strategy import best_strategy
    from analyzer.api.certify import Certification, certify
    from analyzer.api.exact import (
        RemovalEffects,
        Verification,
        help_pages,
        removal_effects,
        solve,
        verify,
    )
    from analyzer.api.library import list_claims, list_paytables, list_rule_sets
    from analyzer.api.runs import (
        AuditReport,
        CountStudy,
        DealtRTP,
        FitResult,
        Simulation,
        audit,
        count,
        dealt,
        fit,
        simulate,
    )
    from analyzer.engine.batch import batch_expected_values
    from analyzer.engine.counts import OutcomeCounts
    from analyzer.engine.enumerator import count_outcomes
    from analyzer.engine.outcomes import outcome_table
    from analyzer.engine.symbolic import expected_value_expression
    from analyzer.errors import AnalyzerError
    from analyzer.game.cards import Card, parse_card, parse_cards
    from analyzer.game.fields import FIELDS
    from analyzer.game.rules import (
        DrawingRules,
        Round,
        Strategy,
        deal_round,
        named_rules,
        parse_strategy,
        rules_from_table,
    )
    from analyzer.game.shoe import Shoe, shoe_from_file
    from analyzer.paytables.conditions import Condition, parse_condition
    from analyzer.paytables.library import as_paytable, load_paytable, seed_paytable
    from analyzer.paytables.model import Bet, Paytable, paytable_from_dict
    from analyzer.paytables.played import read_decisions, with_decisions
    from analyzer.paytables.printed import check_printed_value
