"""A decision played the user's way: the action of each information set, from a file.

A paytable with a player's decision (a game's, or punto banco's ``[decision]``) is
analysed under its best play unless the user gives the play: a strategy table as
``baccarat-odds strategy`` writes it (CSV, or its JSON contract's ``sets``), each row a
bet, a mode, the point value of each card the decision may see (empty or ``null`` for a
card the set does not show) and the action played (``best``, or an ``action`` column).
The rows are read as data, never run: every problem is one line naming the file and row.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from analyzer.errors import AnalyzerError
from analyzer.paytables.model import Paytable

__all__ = ["MAX_DECISIONS_BYTES", "PlayedDecisions", "read_decisions", "with_decisions"]

#: The largest decisions file read (a strategy table of every set of Peek Baccarat's two
#: bets is about 5 MB as CSV).
MAX_DECISIONS_BYTES = 64 * 2**20

#: A set as a key: the cards shown (names, in the decision's order) and their values.
SetKey = tuple[tuple[str, ...], tuple[int, ...]]


@dataclass(frozen=True)
class PlayedDecisions:
    """The action each information set of each (bet, mode) is played with, and where the
    play comes from (a file's name, for reports)."""

    source: str
    rows: tuple[tuple[str, str, SetKey, str], ...]

    def of(self, bet: str, mode: str) -> dict[SetKey, str] | None:
        """The play of ``bet`` in ``mode`` (None: the file does not play it)."""
        return self._by_bet.get((bet, mode))

    @property
    def bets(self) -> tuple[tuple[str, str], ...]:
        """The (bet, mode) the file plays, in its order."""
        return tuple(self._by_bet)

    @cached_property  # (made when first read: a frozen dataclass keeps it in __dict__)
    def _by_bet(self) -> dict[tuple[str, str], dict[SetKey, str]]:
        index: dict[tuple[str, str], dict[SetKey, str]] = {}
        for bet, mode, key, action in self.rows:
            index.setdefault((bet, mode), {})[key] = action
        return index


def with_decisions(paytable: Paytable, rows: Iterable[Mapping[str, Any]], source: str) -> Paytable:
    """``paytable`` with its decision played as ``rows`` say, in place of each bet's
    best play: :func:`~analyzer.analysis.exact.analyze` then gives the figures of that
    play (a bet the rows do not name keeps its best play).

    Parameters
    ----------
    paytable : Paytable
        A paytable with a player's decision (a game's, or punto banco's ``[decision]``).
    rows : iterable of mappings
        Each an information set and its action, as ``strategy --format csv`` writes them:
        ``bet``, ``mode``, a key per card the decision may see (its point value; empty
        or None where the set does not show it) and ``best`` (or ``action``).
    source : str
        Where the rows come from, for messages and reports (a file's name).

    Returns
    -------
    Paytable
        The paytable played so (every set the shoe deals must have its action: one
        line naming the first missing, when analysed).

    Raises
    ------
    AnalyzerError
        A paytable without a decision, a bet the decision is not for, an unknown mode or
        action, a value that is not a point value, two rows playing one set
        differently: one line naming the row.

    Examples
    --------
    >>> from analyzer import analyze, load_paytable, with_decisions
    >>> lucky = load_paytable("lucky-draw-baccarat-1")
    >>> best = analyze(paytable=lucky, decks=1)
    >>> rows = [
    ...     {"bet": "enter", "mode": "standard", **dict(zip(c.cards, c.seen)), "best": "stand"}
    ...     for c in best.choices[("enter", "standard")]
    ... ]
    >>> standing = analyze(paytable=with_decisions(lucky, rows, "stand"), decks=1)
    >>> standing.result("enter").rtp < best.result("enter").rtp
    True
    """
    decision = paytable.decision
    if decision is None:
        raise AnalyzerError(f"--decisions: {paytable.source} has no decision to play")
    actions = {action.name for action in decision.actions}
    out: list[tuple[str, str, SetKey, str]] = []
    seen: dict[tuple[str, str, SetKey], str] = {}
    for number, row in enumerate(rows, 1):
        where = f"--decisions: {source}: row {number}"
        if not isinstance(row, Mapping):
            raise AnalyzerError(f"{where}: not a table of columns")
        bet, mode = row.get("bet"), row.get("mode")
        if not isinstance(bet, str) or bet not in paytable.decided:
            raise AnalyzerError(
                f"{where}: bet {str(bet)[:40]!r} is not a bet the decision is for "
                f"({', '.join(sorted(paytable.decided))})"
            )
        if not isinstance(mode, str) or mode not in paytable.modes:
            raise AnalyzerError(f"{where}: mode {str(mode)[:40]!r} is not a mode of the paytable")
        action = row.get("action", row.get("best"))
        if action not in actions:
            raise AnalyzerError(
                f"{where}: the action {str(action)[:40]!r} is not one of the decision's "
                f"({', '.join(a.name for a in decision.actions)})"
            )
        cards, values = [], []
        for card in decision.sees:
            if card not in row:
                raise AnalyzerError(f"{where}: no column {card!r} (a card the decision sees)")
            value = row[card]
            if value is None or value == "":
                continue
            if isinstance(value, str) and value.strip().isdigit():
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 9:
                raise AnalyzerError(f"{where}: {card} must be a point value 0-9 or empty")
            cards.append(card)
            values.append(value)
        key = (tuple(cards), tuple(values))
        if not decision.shown and len(cards) != len(decision.sees):
            raise AnalyzerError(f"{where}: every card the decision sees needs its value")
        earlier = seen.get((bet, mode, key))
        if earlier is not None and earlier != action:
            raise AnalyzerError(f"{where}: this set is played {earlier!r} on an earlier row")
        seen[(bet, mode, key)] = action
        out.append((bet, mode, key, action))
    if not out:
        raise AnalyzerError(f"--decisions: {source} plays no information set")
    return replace(paytable, played=PlayedDecisions(Path(source).name, tuple(out)))


def read_decisions(paytable: Paytable, path: str | Path) -> Paytable:
    """``paytable`` played as the decisions file ``path`` says (:func:`with_decisions`):
    a CSV, or JSON as ``strategy --format json`` writes it (its ``sets``); what
    ``report --decisions FILE`` reads. Nothing in the file is run.

    Parameters
    ----------
    paytable : Paytable
        A paytable with a player's decision.
    path : str or Path
        The file (``.json`` read as JSON, any other name as CSV), at most
        :data:`MAX_DECISIONS_BYTES`.

    Returns
    -------
    Paytable
        The paytable played so.

    Raises
    ------
    AnalyzerError
        A file that cannot be read, is too large, is not UTF-8, CSV or the strategy
        JSON, or a bad row (see :func:`with_decisions`): one line.
    """
    path = Path(path)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_DECISIONS_BYTES + 1)
    except OSError as exc:
        raise AnalyzerError(f"--decisions: cannot read {path}: {exc.strerror}") from None
    if len(data) > MAX_DECISIONS_BYTES:
        raise AnalyzerError(
            f"--decisions: {path} is over {MAX_DECISIONS_BYTES // 2**20} MB: not a strategy table"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise AnalyzerError(f"--decisions: {path} is not UTF-8 text") from None
    if path.suffix.lower() == ".json":
        try:
            document = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise AnalyzerError(f"--decisions: {path} is not JSON: {exc}"[:200]) from None
        rows = document.get("sets") if isinstance(document, dict) else None
        if not isinstance(rows, list):
            raise AnalyzerError(
                f"--decisions: {path} has no 'sets' (the rows of strategy --format json)"
            )
    else:
        try:
            rows = list(csv.DictReader(io.StringIO(text)))
        except csv.Error as exc:
            raise AnalyzerError(f"--decisions: {path} is not CSV: {exc}") from None
    return with_decisions(paytable, rows, str(path))
