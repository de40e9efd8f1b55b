"""The third-card rule compiled: the kernels' one way to ask who draws.

The questions are written once, in :mod:`analyzer.game.rules` (where ``play`` asks them in
plain Python); here they are compiled for the kernels, which inline them.
"""

from __future__ import annotations

from numba import njit

from analyzer.game import rules

#: Does the Player draw? ``player_draws(third_card, player2, banker2)``.
player_draws = njit(cache=True, inline="always")(rules.player_draws)
#: Does the Banker draw? ``banker_draws(third_card, player2, banker2, x)``, ``x`` the
#: Player's third-card value or PLAYER_STOOD.
banker_draws = njit(cache=True, inline="always")(rules.banker_draws)

__all__ = ["banker_draws", "player_draws"]
