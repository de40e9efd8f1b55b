"""The warnings of a run of shoes about the rounds its figures rest on: the bets that no
round bet (so without figures), and those too few rounds bet. Worked out once, as data:
``simulate`` and ``count`` print each one's ``message`` on standard error and give the
list under ``warnings`` in their JSON, and the Python API's results keep it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

#: Fewer rounds bet than this, and a figure of the bet is warned to rest on too few.
FEW_ROUNDS = 100

#: The kinds of warning, as JSON names them: no round bet, or fewer than FEW_ROUNDS.
WARNING_KINDS = ("no_rounds", "few_rounds")


class BetRounds(NamedTuple):
    """The rounds one (bet, mode) was bet on; ``label``: the bet as the message names it."""

    bet: str
    mode: str
    label: str
    rounds: int


def rounds_warnings(rounds_bet: Iterable[BetRounds], never: str = "never bet") -> list[dict]:
    """At most two warnings: the bets whose figures rest on no round (``never`` says
    why), and those resting on fewer than :data:`FEW_ROUNDS` rounds bet.

    Parameters
    ----------
    rounds_bet : iterable of BetRounds
        Each (bet, mode) of the run and the rounds it was bet on.
    never : str
        Why a bet rests on no round, as the message says it.

    Returns
    -------
    list of dict
        Each warning: ``kind`` (``no_rounds`` or ``few_rounds``), ``bets`` (each (bet,
        mode) concerned: ``bet``, ``mode``, ``rounds``) and ``message`` (one line; each
        label once, with its rounds where there are some). Empty when there is none.

    Examples
    --------
    >>> warned = rounds_warnings([BetRounds("tie", "commission", "Tie", 0)])
    >>> warned[0]["kind"], warned[0]["message"]
    ('no_rounds', 'never bet in the whole run, so without figures: Tie')
    >>> rounds_warnings([BetRounds("tie", "commission", "Tie", 100)])
    []
    """
    rows = list(rounds_bet)
    none = [row for row in rows if row.rounds == 0]
    few = [row for row in rows if 0 < row.rounds < FEW_ROUNDS]
    warnings = []
    if none:
        shown = ", ".join(dict.fromkeys(row.label for row in none))
        warnings.append(
            _warning("no_rounds", none, f"{never} in the whole run, so without figures: {shown}")
        )
    if few:
        shown = ", ".join(dict.fromkeys(f"{row.label} {row.rounds:,}" for row in few))
        warnings.append(
            _warning(
                "few_rounds",
                few,
                f"figures resting on fewer than {FEW_ROUNDS} rounds bet: {shown}: deal more shoes",
            )
        )
    return warnings


def _warning(kind: str, rows: Sequence[BetRounds], message: str) -> dict[str, Any]:
    bets = [{"bet": row.bet, "mode": row.mode, "rounds": row.rounds} for row in rows]
    return {"kind": kind, "bets": bets, "message": message}


def simulation_warnings(rows: Iterable[Mapping[str, Any]]) -> list[dict]:
    """A simulation's warnings (:func:`rounds_warnings`): ``rows``, a row per (bet, mode)
    with its ``bet``, ``name``, ``mode`` and ``rounds_bet``; a bet is named once where
    its modes settle alike."""
    return rounds_warnings(
        (BetRounds(row["bet"], row["mode"], row["name"], int(row["rounds_bet"])) for row in rows),
        "never settled",
    )


def counted_rounds(record: Mapping[str, Any]) -> int:
    """The rounds a count's record (:func:`~analyzer.runs.count_plan.count_record`) bet
    on, by its headline figures: bet frequency x rounds dealt."""
    return round(record["bet_frequency"] * record["rounds_per_shoe"] * record["shoes"])


def count_warnings(records: Iterable[Mapping[str, Any]]) -> list[dict]:
    """A count's warnings (:func:`rounds_warnings`): ``records``, a record per (bet,
    mode) counted (:func:`~analyzer.runs.count_plan.count_record`), by its headline
    play."""
    return rounds_warnings(
        (
            BetRounds(
                record["bet"],
                record["mode"],
                f"{record['name']} ({record['mode']})",
                counted_rounds(record),
            )
            for record in records
        ),
        "never bet by the count's strategy",
    )
