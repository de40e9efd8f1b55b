"""The JSON contract: one envelope for every command's ``--format json``, defined once.

Every JSON output is one object::

    {"schema": {"name": "baccarat-odds/report", "version": 2},
     "tool": {"name": "baccarat-odds", "version": "0.1.0"},
     "paytable": {"id": "seed-game", "name": "Baccarat", "sha256": "..."},
     "shoe": {"decks": 8, "cards": 416, "removed": [], "ranks": {"A": 32, ...}},
     "options": {...},
     "bets": [...],
     ...}

``schema`` names the contract the document follows and its version (a change to a
contract's shape bumps it, and is listed in the changelog); ``tool`` the package that
wrote it; ``paytable`` which paytable gave the figures (its id, its name and the sha256 of
the file read: empty for one built in Python); ``shoe`` the shoe as fields; ``options``
what was asked for that changes the figures; then the command's rows, flat records (the
same columns as its CSV), under the one key :data:`CONTRACTS` gives it, whatever their
number; then the command's own keys. A JSON Schema (draft 2020-12) per command ships in
``analyzer/reports/schemas/`` (:func:`schema_of`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from analyzer.errors import AnalyzerError
from analyzer.game.cards import RANKS, Card
from analyzer.game.rules import choice_text
from analyzer.game.shoe import INFINITE, Decks, Shoe
from analyzer.paytables.library import is_path
from analyzer.paytables.model import Paytable
from analyzer.reports.formats import fraction_text

#: Where the JSON Schemas ship (package data).
SCHEMA_FOLDER = Path(__file__).resolve().parent / "schemas"

#: The tool's name in every output (the distribution's: :data:`analyzer.version.DISTRIBUTION`,
#: not imported here: reading the package's metadata costs ``play`` its fast start).
TOOL = "baccarat-odds"

#: The keys every output starts with, in order.
ENVELOPE_KEYS = ("schema", "tool", "paytable", "shoe", "options")


@dataclass(frozen=True)
class Contract:
    """One command's JSON contract: its ``command``, the ``version`` of its shape and the
    key its rows are under."""

    command: str
    version: int
    rows: str

    @property
    def name(self) -> str:
        """The schema's name: ``baccarat-odds/<command>``."""
        return f"{TOOL}/{self.command}"

    @property
    def schema_file(self) -> Path:
        """The JSON Schema file of the contract."""
        return SCHEMA_FOLDER / f"{self.command}.schema.json"


#: Every command's contract. report version 4, strategy version 3, simulate and count
#: version 5: each action of the decision has ``pays`` (a fold's payout; null for an
#: action that plays on); simulate version 5 also ``options.shuffle`` (``perfect`` or
#: ``riffle:K``, as --shuffle gave it). dealt version 1: new (the round-average RTP over shoes as
#: dealt, per bet and mode). audit version 4: ``monitoring`` (each staked bet's return
#: against its exact RTP, where the log has ``stake:<bet>`` columns) and ``groups`` (each
#: dealer's, table's and studio's tests and monitoring, where the log names them) added.
#: count version 5: ``options.rounds_per_hour``, and each
#: play's counter figures (``sd_per_round``, ``di``, ``di_se``, ``n0``, ``win_per_hour``,
#: ``sd_per_hour``, headline and prefixed ``with_limit_``/``without_limit_``). report
#: version 4: ``options.top_award_rounds``; with detail, each line's ``one_in`` and
#: ``top_award``, and ``top_awards`` (each bet's top award and the chance of at least one
#: in that many rounds).
#: certify version 1: new (a help page's figures, each checked);
#: version 2: each payout its own claim (a row's quantity "payout"), and an omitted payout
#: of a bet whose others the page prints (omitted's what "payout").
#: simulate and count version 4: ``options.decision`` (the
#: player's decision as report gives it: the cards shown's chances played, the file that
#: plays it; null without one). audit version 4: ``options.shuffle_tests`` added and, with
#: --shuffle-tests, ``shuffle_tests`` (the tests of the shuffle over consecutive shoes).
#: audit version 3: ``options.game`` added (the game of another
#: family's paytable; null for punto banco) and ``options.drawing_rules`` null for another
#: game; its checks (``counts``) and tests are the game's. fit version 3: ``closed`` added
#: beside ``intervals`` (whether each end as written is a consistent value: a printed
#: figure's rounding leaves one end out). play version 5: ``options.special_suits`` (the
#: round's Lightning suits --special gave, suit -> multiplier); a punto banco paytable with
#: a ``[decision]`` (Peek Baccarat) is played: each row's ``stake`` and ``fee``,
#: ``options.shown`` (the cards --shown named), ``decision.hidden`` (the cards not shown),
#: each strategy's ``action`` and ``stake``, and ``decision.action`` and ``stake`` null
#: where the bets of the decision are played differently. Version 4: ``decision`` added
#: (the player's decision of a game with one: the cards seen, the action, each bet's exact
#: expected nets there; null otherwise) and ``options.action``; a hand's ``reason`` for a
#: game whose hands draw. Version 3: ``warnings`` added (simulate, count: the warnings
#: standard error shows, as data); play: the round's ``hands`` as a list (name, label,
#: cards, score, reason, pictures), the same for every game, in place of its
#: ``player_*``/``banker_*`` keys, and ``options.game``; version 2: the command's JSON was
#: released (0.1.0) in another shape; version 1: new with the contract.
CONTRACTS: dict[str, Contract] = {
    c.command: c
    for c in (
        Contract("report", 4, "bets"),
        Contract("play", 5, "bets"),
        Contract("verify", 2, "claims"),
        Contract("certify", 2, "figures"),
        Contract("fit", 3, "claims"),
        Contract("eor", 2, "effects"),
        Contract("simulate", 5, "bets"),
        Contract("count", 5, "bets"),
        Contract("dealt", 1, "bets"),
        Contract("solve", 2, "cells"),
        Contract("strategy", 3, "sets"),
        Contract("audit", 4, "findings"),
        Contract("cache", 1, "runs"),
    )
}


def contract_of(command: str) -> Contract:
    """The contract of ``command``."""
    try:
        return CONTRACTS[command]
    except KeyError:
        raise AnalyzerError(
            f"no JSON contract for {command!r} (commands: {', '.join(CONTRACTS)})"
        ) from None


def schema_of(command: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) that ``command``'s JSON output is valid against."""
    path = contract_of(command).schema_file
    return json.loads(path.read_text(encoding="utf-8"))


# -- The envelope's parts ---------------------------------------------------------------------


def paytable_id(paytable: Paytable) -> str:
    """A paytable's id: its shipped name, or its file's stem (``my-game`` for
    ``games/my-game.toml``); a paytable built in Python is ``<paytable>``."""
    source = paytable.source
    return Path(source).stem if is_path(source) else source


def paytable_record(paytable: Paytable) -> dict[str, str]:
    """Which paytable gave the figures: its id, its name and the sha256 of the file read
    (empty for a paytable built in Python)."""
    return {"id": paytable_id(paytable), "name": paytable.name, "sha256": paytable.sha256}


def shoe_record(
    shoe: Shoe, decks: Decks | None = None, removed: Sequence[Card] = ()
) -> dict[str, Any]:
    """The shoe as fields: ``decks`` (its full decks before ``removed`` came out, ``"inf"``
    for the infinite deck, None for a shoe read from counts), ``cards`` (left; None for the
    infinite deck), ``removed`` (the cards taken out, as given: ``"5H"``, or ``"5"`` for
    a card of unknown suit) and ``ranks`` (the cards left of each rank; None for the
    infinite deck). ``decks`` defaults to the shoe's own full decks."""
    if decks is None and not removed:
        decks = shoe.decks
    infinite = shoe.replacement
    return {
        "decks": INFINITE if infinite else decks,
        "cards": None if infinite else shoe.size,
        "removed": [str(card) for card in removed],
        "ranks": None if infinite else {RANKS[r]: int(n) for r, n in enumerate(shoe.rank_counts)},
    }


def dealt_shoe_record(decks: int) -> dict[str, Any]:
    """The shoe of a run that deals whole shoes of ``decks`` decks (simulate, count,
    audit): full, nothing removed."""
    if decks == INFINITE:
        return shoe_record(Shoe.infinite())
    return shoe_record(Shoe.standard(decks))


def decision_record(paytable: Paytable) -> dict[str, Any] | None:
    """The player's decision as a contract writes it (None without one): the cards it
    may see, how many a round shows where that is random (``shown``, exact, the values
    ``--unknowns`` gave), the bets it is for on punto banco, the actions, and the file
    that plays it (``played``: None for each bet's best play)."""
    decision = paytable.decision
    if decision is None:
        return None
    return {
        "sees": list(decision.sees),
        **({"shown": {str(k): p for k, p in decision.shown}} if decision.shown else {}),
        **({"bets": list(decision.bets)} if decision.bets is not None else {}),
        "actions": [
            {"name": a.name, "draws": a.draws, "stake": a.stake, "pays": a.pays or None}
            for a in decision.actions
        ],
        **({"played": paytable.played.source} if paytable.played is not None else {}),
    }


def played_options(paytable: Paytable, *, with_game: bool = False) -> dict[str, Any]:
    """How the paytable is played, as options: the drawing rules, the decision cells
    played (``--strategy`` on the paytable's ``[strategy]``), the fee, the multipliers'
    distribution (``--unknowns`` given values), and the meter of its progressive jackpots
    (``--jackpot``); each None where the paytable has none.

    ``with_game`` (play's contract, from version 3) puts the game first, ``game`` (its
    name; None for punto banco), and gives ``drawing_rules`` as None for another game,
    which draws no card."""
    meters = [bet.jackpot.meter for bet in paytable.bets if bet.jackpot is not None]
    played = {
        "drawing_rules": paytable.rules.name,
        "strategy": {str(cell): choice_text(p) for cell, p in paytable.strategy.choices},
        "fee": fraction_text(paytable.fee) if paytable.fee else None,
        "multipliers": None if paytable.multipliers is None else paytable.multipliers.fingerprint,
        "jackpot_meter": fraction_text(meters[0]) if meters else None,
    }
    if not with_game:
        return played
    game = paytable.game
    if game is None:
        return {"game": None, **played}
    return {"game": game.name, **played, "drawing_rules": None}


def json_value(value: Any) -> Any:
    """A value as the contract writes it: a fraction as ``"p/q"``, a tuple as a list,
    mappings and lists inside it likewise."""
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, Mapping):
        return {str(k): json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    return value


def envelope(
    command: str,
    *,
    paytable: Paytable | None,
    shoe: Mapping[str, Any] | None,
    options: Mapping[str, Any],
    rows: Iterable[Mapping[str, Any]],
    **extra: Any,
) -> dict[str, Any]:
    """The JSON document of ``command``: the envelope, its ``rows`` under the contract's
    key, then ``extra`` (the command's own keys), in that order."""
    from analyzer.version import package_version

    contract = contract_of(command)
    if contract.rows in extra or set(extra) & set(ENVELOPE_KEYS):
        raise ValueError(f"{command}: an extra key takes the place of the envelope's")
    return {
        "schema": {"name": contract.name, "version": contract.version},
        "tool": {"name": TOOL, "version": package_version()},
        "paytable": None if paytable is None else paytable_record(paytable),
        "shoe": None if shoe is None else dict(shoe),
        "options": json_value(dict(options)),
        contract.rows: [dict(row) for row in rows],
        **extra,
    }
