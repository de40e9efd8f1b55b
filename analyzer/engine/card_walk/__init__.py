"""The card-level walk: every round of a shoe with the cards themselves, exactly.

Bets on ranks, suits and colours of single cards need more than the value walk gives. The
walk deals each of the six cards at the coarsest detail the bets need, weighs every round
as an ordered six-card sequence, and keys it by what the fields tell apart:

* :mod:`~analyzer.engine.card_walk.planning`: what each card must show (:func:`plan`,
  :class:`CardPlan`), and which bets share a walk (:func:`walk_key`);
* :mod:`~analyzer.engine.card_walk.layout`: fine types, key codes, shares and limits of
  a plan on a shoe, and the keys read back as fields;
* :mod:`~analyzer.engine.card_walk.kernels`: the Numba kernels, pure array code;
* :mod:`~analyzer.engine.card_walk.walk`: one walk of one shoe (:class:`CardWalk`,
  :func:`card_outcome_table`) and its cost (:func:`walk_visits`);
* :mod:`~analyzer.engine.card_walk.terms`: the walk compiled into terms for any shoe
  (:func:`card_terms`, :class:`CardTerms`);
* :mod:`~analyzer.engine.card_walk.classes`: the class walk, which counts the ways of each
  class of keys (keys the bets settle alike) on the value walk, cylinder by cylinder,
  where the keys are few enough to sort (what ``analyze`` prices card bets by).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from analyzer.engine.card_walk.planning import (
    COMPILING,
    MAX_COMMAND_VISITS,
    MAX_VISITS,
    CardPlan,
    WalkKey,
    plan,
    walk_key,
)

if TYPE_CHECKING:
    from analyzer.engine.card_walk.terms import CardTerms, card_terms
    from analyzer.engine.card_walk.walk import CardWalk, card_outcome_table, walk_visits

#: The names whose modules import Numba, imported when first asked for: planning a bet
#: (which engine prices it) needs no compiled code.
_COMPILED = {
    "CardTerms": "terms",
    "card_terms": "terms",
    "CardWalk": "walk",
    "card_outcome_table": "walk",
    "walk_visits": "walk",
}


def __getattr__(name: str) -> object:
    if name in _COMPILED:
        return getattr(importlib.import_module(f"{__name__}.{_COMPILED[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "COMPILING",
    "MAX_COMMAND_VISITS",
    "MAX_VISITS",
    "CardPlan",
    "CardTerms",
    "CardWalk",
    "WalkKey",
    "card_outcome_table",
    "card_terms",
    "plan",
    "walk_key",
    "walk_visits",
]
