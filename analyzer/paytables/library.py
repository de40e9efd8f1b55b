"""The seed game of ../shared/spec/GAME.md, read from ``data/paytables/seed-game.toml``."""

from __future__ import annotations

from analyzer.paytables.model import Paytable, load_paytable

SEED_GAME = "seed-game"


def seed_paytable() -> Paytable:
    """The game of GAME.md (help page seed 000): 8 decks, both modes, nineteen bets."""
    return load_paytable(SEED_GAME)
