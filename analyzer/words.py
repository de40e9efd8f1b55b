"""Words every output shares: a count and its noun, in the singular for one."""

from __future__ import annotations

__all__ = ["counted"]


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1 (thousands separated).

    Examples
    --------
    >>> counted(1, "deck"), counted(8, "deck"), counted(20000, "shoe")
    ('1 deck', '8 decks', '20,000 shoes')
    """
    return f"{n:,} {noun}{'' if n == 1 else 's'}"
