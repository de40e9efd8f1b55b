"""The compiled third-card questions answer as the plain ones do, on every cell."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.engine.draw import banker_draws, player_draws
from analyzer.game import rules
from analyzer.game.rules import PLAYER_STOOD, named_rules


@pytest.mark.kernels
@pytest.mark.parametrize("name", rules.RULE_SET_NAMES)
def test_the_compiled_draw_is_the_plain_draw(name: str) -> None:
    named = named_rules(name)
    every_cell_drawn = ",".join(f"{cell}=draw" for cell in named.decision_cells)
    strategy = rules.parse_strategy(every_cell_drawn) if every_cell_drawn else None
    table = named.tableau(strategy).third_card
    for player2 in range(10):
        for banker2 in range(10):
            assert player_draws(table, player2, banker2) == rules.player_draws(
                table, player2, banker2
            )
            for column in [*range(10), PLAYER_STOOD]:
                assert banker_draws(table, player2, banker2, column) == rules.banker_draws(
                    table, player2, banker2, column
                )


@pytest.mark.kernels
def test_the_compiled_draw_reads_probabilities_too() -> None:
    """The dealer asks the same questions of a table of draw probabilities."""
    table = np.zeros((10, 10, 12))
    table[5, 3, rules.PLAYER_DRAWS] = 9 / 11
    table[6, 4, PLAYER_STOOD] = 0.25
    assert player_draws(table, 5, 3) == pytest.approx(9 / 11)
    assert banker_draws(table, 6, 4, PLAYER_STOOD) == 0.25
    assert player_draws(table, 6, 4) == 0
