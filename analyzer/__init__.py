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
    "Analysis": "analyzer.analysis",
    "analyze": "analyzer.analysis",
    "batch_expected_values": "analyzer.batch",
    "BetResult": "analyzer.bets",
    "evaluate_bet": "analyzer.bets",
    "Card": "analyzer.cards",
    "parse_card": "analyzer.cards",
    "parse_cards": "analyzer.cards",
    "check_printed_value": "analyzer.claims",
    "Condition": "analyzer.conditions",
    "parse_condition": "analyzer.conditions",
    "OutcomeCounts": "analyzer.enumerator",
    "count_outcomes": "analyzer.enumerator",
    "effects_of_removal": "analyzer.eor",
    "linear_counts": "analyzer.eor",
    "AnalyzerError": "analyzer.errors",
    "FIELDS": "analyzer.outcomes",
    "outcome_table": "analyzer.outcomes",
    "Bet": "analyzer.paytable",
    "Paytable": "analyzer.paytable",
    "load_paytable": "analyzer.paytable",
    "paytable_from_dict": "analyzer.paytable",
    "Round": "analyzer.rules",
    "deal_round": "analyzer.rules",
    "seed_paytable": "analyzer.seed_game",
    "Shoe": "analyzer.shoe",
    "shoe_from_file": "analyzer.shoe",
    "expected_value_expression": "analyzer.symbolic",
}

__all__ = [
    "FIELDS",
    "Analysis",
    "AnalyzerError",
    "Bet",
    "BetResult",
    "Card",
    "Condition",
    "OutcomeCounts",
    "Paytable",
    "Round",
    "Shoe",
    "analyze",
    "batch_expected_values",
    "check_printed_value",
    "count_outcomes",
    "deal_round",
    "effects_of_removal",
    "evaluate_bet",
    "expected_value_expression",
    "linear_counts",
    "load_paytable",
    "outcome_table",
    "parse_card",
    "parse_cards",
    "parse_condition",
    "paytable_from_dict",
    "seed_paytable",
    "shoe_from_file",
]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value  # later lookups skip this function
        return value
    raise AttributeError(f"module 'analyzer' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # for type checkers and editors: the same names, imported eagerly
    from analyzer.analysis import Analysis, analyze
    from analyzer.batch import batch_expected_values
    from analyzer.bets import BetResult, evaluate_bet
    from analyzer.cards import Card, parse_card, parse_cards
    from analyzer.claims import check_printed_value
    from analyzer.conditions import Condition, parse_condition
    from analyzer.enumerator import OutcomeCounts, count_outcomes
    from analyzer.eor import effects_of_removal, linear_counts
    from analyzer.errors import AnalyzerError
    from analyzer.outcomes import FIELDS, outcome_table
    from analyzer.paytable import Bet, Paytable, load_paytable, paytable_from_dict
    from analyzer.rules import Round, deal_round
    from analyzer.seed_game import seed_paytable
    from analyzer.shoe import Shoe, shoe_from_file
    from analyzer.symbolic import expected_value_expression
