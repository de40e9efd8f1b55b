"""baccarat-odds: exact combinatorial odds for baccarat.

Data flows one way: shoe -> outcome counts (Numba kernels) -> outcome table (pandas) ->
bets (paytable) -> report.
"""

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
