"""What the package ships: the names a notebook can pass wherever a paytable, a claims
file or a rule set is asked for.

A paytable argument anywhere in the API is a :class:`~analyzer.paytables.model.Paytable`,
one of :func:`list_paytables` by name, or a ``.toml`` file's path
(:func:`~analyzer.paytables.library.as_paytable` reads it).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import PurePath

from analyzer.errors import AnalyzerError
from analyzer.game.cards import Card, parse_cards
from analyzer.game.rules import RULE_SET_NAMES
from analyzer.game.shoe import Decks, Shoe, shoe_from_file
from analyzer.paytables.library import as_paytable, claims_names, library_names
from analyzer.paytables.model import Paytable

__all__ = [
    "as_paytable",
    "list_claims",
    "list_paytables",
    "list_rule_sets",
    "removed_cards",
    "shoe_for",
]

#: What the API takes for cards removed from a shoe: text ("5H 5H KS"), card names or cards.
Removed = str | Sequence[str] | Sequence[Card] | None
#: What the API takes for a shoe: a Shoe, or a shoe file's path (.csv or .toml).
ShoeSpec = Shoe | str | os.PathLike[str] | None


def list_paytables() -> list[str]:
    """The names of the shipped paytables, sorted.

    Any of them can be given wherever a paytable is asked for (``analyze``,
    ``removal_effects``, ``verify``, ``solve``, ``help_pages`` ...), as can a paytable
    file's path.

    Returns
    -------
    list of str
        The names, sorted (``"baccarat-gold"``, ..., ``"seed-game"``, ...).

    Raises
    ------
    AnalyzerError
        Never for a sound install (the library ships inside the package).

    Examples
    --------
    >>> from analyzer import list_paytables
    >>> names = list_paytables()
    >>> "ez-baccarat" in names and "seed-game" in names
    True
    >>> names == sorted(names)
    True
    """
    return sorted(library_names())


def list_claims() -> list[str]:
    """The names of the shipped claims files (published figures), sorted.

    Each can be given to :func:`~analyzer.api.exact.verify` by name, as can a claims
    file's path.

    Returns
    -------
    list of str
        The names, sorted (``"seed-game"``, ``"seed-game-ms"``, one per shipped paytable
        with published figures, ...).

    Raises
    ------
    AnalyzerError
        Never for a sound install (the claims ship inside the package).

    Examples
    --------
    >>> from analyzer import list_claims
    >>> "seed-game" in list_claims()
    True
    """
    return sorted(claims_names())


def list_rule_sets() -> list[str]:
    """The names of the shipped drawing rule sets, sorted.

    A paytable plays one (``rules = "chemin-de-fer"``); :func:`~analyzer.api.exact.solve`
    solves the game of any of them by name; :func:`~analyzer.game.rules.named_rules`
    gives one's :class:`~analyzer.game.rules.DrawingRules`.

    Returns
    -------
    list of str
        The names, sorted.

    Raises
    ------
    AnalyzerError
        Never.

    Examples
    --------
    >>> from analyzer import list_rule_sets
    >>> list_rule_sets()
    ['baccarat-gold', 'bahamian', 'chemin-de-fer', 'standard']
    """
    return sorted(RULE_SET_NAMES)


def shoe_for(
    paytable: Paytable,
    *,
    decks: Decks | None = None,
    remove: Removed = None,
    shoe: ShoeSpec = None,
) -> Shoe:
    """The shoe that ``decks``, ``shoe`` and ``remove`` describe, as the command line's
    ``--decks``, ``--shoe`` and ``--remove`` do: ``shoe`` (a :class:`Shoe` or a shoe
    file), else ``decks`` full decks (default: the paytable's), less the cards ``remove``d.

    Parameters
    ----------
    paytable : Paytable
        Whose decks are the default.
    decks : int or "inf" or None
        Full 52-card decks (1 to 27), or ``"inf"`` for the infinite deck; not with ``shoe``.
    remove : str or list of str or list of Card or None
        Cards out of the shoe: ``"5H 5H KS"``, ``["5H", "KS"]`` (a rank alone, ``"5"``,
        where suits do not matter) or :class:`~analyzer.game.cards.Card` objects.
    shoe : Shoe or str or os.PathLike or None
        The shoe, or a ``.csv`` / ``.toml`` shoe file; not with ``decks``.

    Returns
    -------
    Shoe
        The shoe to deal from.

    Raises
    ------
    AnalyzerError
        Both ``decks`` and ``shoe``, a bad number of decks, an unreadable shoe file, a bad
        card, or a card the shoe does not hold (one line).

    Examples
    --------
    >>> from analyzer import load_paytable
    >>> from analyzer.api.library import shoe_for
    >>> shoe_for(load_paytable("ez-baccarat"), decks=1, remove="AS KH").size
    50
    """
    if shoe is not None and decks is not None:
        raise AnalyzerError("give decks or shoe, not both")
    if shoe is None:
        base = Shoe.standard(paytable.decks if decks is None else decks)
    elif isinstance(shoe, Shoe):
        base = shoe
    elif isinstance(shoe, (str, PurePath, os.PathLike)):
        base = shoe_from_file(os.fspath(shoe))
    else:
        raise AnalyzerError(f"shoe must be a Shoe or a shoe file's path, got {type(shoe).__name__}")
    cards = removed_cards(remove)
    return base.remove(cards) if cards else base


def removed_cards(remove: Removed) -> list[Card]:
    """The cards ``remove`` names: text (``"5H 5H KS"``), card names or cards (None: none).

    Parameters
    ----------
    remove : str or list of str or list of Card or None
        The cards.

    Returns
    -------
    list of Card
        The cards, in order.

    Raises
    ------
    AnalyzerError
        A card that is not one (one line).

    Examples
    --------
    >>> from analyzer.api.library import removed_cards
    >>> [str(card) for card in removed_cards("5H, KS 9")]
    ['5H', 'KS', '9']
    """
    if remove is None or (isinstance(remove, str) and not remove.strip()):
        return []
    if isinstance(remove, (list, tuple)) and remove and all(isinstance(c, Card) for c in remove):
        return list(remove)
    return parse_cards(remove, suit_required=False)  # type: ignore[arg-type]
