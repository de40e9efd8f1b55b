"""Exact symbolic EVs of value-level bets against the enumerator."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import Shoe, analyze
from analyzer.engine.symbolic import evaluate

FEW = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FEW
@given(st.lists(st.integers(0, 40), min_size=10, max_size=10).filter(lambda v: sum(v) >= 6))
def test_symbolic_matches_enumerator(expressions, value_counts) -> None:
    ranks = np.array([*value_counts[1:], value_counts[0], 0, 0, 0], dtype=np.int64)  # 10s hold 0s
    analysis = analyze(shoe=Shoe(ranks), mode="commission", bets=list(expressions))
    for bet, expression in expressions.items():
        assert evaluate(expression, value_counts) == analysis.result(bet).expected_value
