"""Reading a log of dealt rounds (CSV or Parquet), in blocks, for :mod:`analyzer.analysis.audit`.

One row per round, in deal order, the rounds of a shoe together. Columns (a header row
names them; others are ignored):

* ``shoe`` (any text naming the shoe), ``round`` (a whole number), ``player_cards`` and
  ``banker_cards``: each hand's cards in deal order (``"2S 3H 8D"``, spaces or commas; any
  spelling ``play`` takes: ``10H``, ``TH``, ``th``), two or three cards;
* optional: ``burn`` (the card shown and the cards burned after it, before the round),
  ``winner`` (``player``/``banker``/``tie`` or ``P``/``B``/``T``), ``player_score``,
  ``banker_score`` (0-9), and payouts: ``pay:<bet id>`` (the paytable's first mode) or
  ``pay:<bet id>:<mode>``, the net per unit staked; an empty cell is "not logged";
* optional groups (:data:`~analyzer.analysis.audit_groups.GROUP_COLUMNS`): ``dealer``,
  ``table``, ``studio`` (any subset; text naming the round's group, an empty cell "not
  logged"), and stakes: ``stake:<bet id>`` or ``stake:<bet id>:<mode>``, the amount staked
  on the bet that round (a number from 0 to
  :data:`~analyzer.analysis.audit_groups.MAX_STAKE`; empty or 0: nothing staked).

A log of another game of the family (:mod:`analyzer.analysis.audit_game`) names its
hands: ``<hand>_cards`` for each (``dragon_cards``, ``tiger_cards``: the hand's cards in
the order it took them, at least one), ``winner`` one of the game's (its hands' names or
its tie word), ``<hand>_score`` as the game scores a hand, and for a game with a
player's decision a required ``action`` (one of the game's actions), and where the
decision's cards shown are random a required ``shown``: the cards the round showed, by
name (``"player_card1 dealer_card1"``, spaces or commas, in any order), or ``none``.

Every malformed input is one :class:`~analyzer.errors.AnalyzerError` naming the row (the
n-th round of the file, the header not counted) and the column. The file is read a block
of rows at a time, and no line, nor any row (quoted fields may hold line ends), may be
longer than :data:`MAX_LINE_BYTES`: memory stays bounded whatever the file's size. A
Parquet file likewise: only the columns used are read, no cell (nor row, by the footer's
sizes) over :data:`MAX_LINE_BYTES`, a block at most :data:`BATCH_BYTES` of them, and a
text column stored as a dictionary is read as one (a text many rows repeat held once).
"""

from __future__ import annotations

import csv
import math
import os
import re
import stat
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.analysis.audit import (
    NOT_LOGGED,
    Audit,
    AuditResult,
    LoggedRounds,
    other_payout_columns,
    rows_out_of_order,
)
from analyzer.analysis.audit_fit import DEFAULT_LEVEL
from analyzer.analysis.audit_game import HAND_SLOTS, hand_columns, score_columns
from analyzer.analysis.audit_groups import GROUP_COLUMNS, MAX_GROUP_TEXT, MAX_STAKE
from analyzer.errors import AnalyzerError
from analyzer.files import check_untrusted
from analyzer.game.cards import card_index, parse_card
from analyzer.game.fields import WINNERS
from analyzer.game.games import Decision
from analyzer.paytables.model import Paytable

#: Columns every log has.
REQUIRED = ("shoe", "round", "player_cards", "banker_cards")
#: Columns a log may have besides its payouts.
OPTIONAL = ("burn", "winner", "player_score", "banker_score")
#: The longest line (or field) read, in bytes.
MAX_LINE_BYTES = 1 << 20
#: Rows per block.
BLOCK_ROWS = 20_000
#: The most bytes of the columns used (uncompressed, as a Parquet file's footer gives
#: them) in a block of a Parquet log: a block of long rows has fewer rows.
BATCH_BYTES = 64 << 20
#: The longest text of one hand or burn (a few cards).
_MAX_CARDS_TEXT = 200
_WINNER = {"player": 0, "p": 0, "banker": 1, "b": 1, "tie": 2, "t": 2}
_WHOLE = re.compile(r"\s*[0-9]{1,9}\s*")
_DECIMAL = re.compile(
    r"\s*[+-]?([0-9]{1,30}(\.[0-9]{0,30})?|\.[0-9]{1,30})([eE][+-]?[0-9]{1,4})?\s*"
)
_PARQUET_MAGIC = b"PAR1"
#: Card tokens already read (at most every spelling of every card).
_CARD_TOKENS: dict[str, int] = {}


def audit_log(
    paths: str | Path | Sequence[str | Path],
    paytable: Paytable,
    decks: int | None = None,
    block_rows: int = BLOCK_ROWS,
    *,
    fit: bool = False,
    level: float = DEFAULT_LEVEL,
    progress: Callable[[int], None] | None = None,
    **grouping: Any,
) -> AuditResult:
    """Audit the log at ``paths`` (one, or several audited as one: a shoe of one dealt
    again in another is a repeat, and the fit is over all of them, in the order given)
    against ``paytable`` (its decks, or ``decks``); with ``fit``, test its fit to the
    exact odds at ``level`` too. ``progress`` is told the rounds of each block read;
    ``grouping``: the groups' and monitoring's options of :class:`~analyzer.analysis.
    audit.Audit` (``min_rounds``, ``confidence``, ``deviation``)."""
    several = not isinstance(paths, (str, Path))
    paths = list(paths) if several else [paths]
    check_logs(paths, paytable)
    audit = Audit(paytable, decks, fit=fit, level=level, **grouping)
    for path in paths:
        audit.start_log(str(path) if several and len(paths) > 1 else "")
        for block in read_log(path, paytable, block_rows):
            audit.feed(block)
            if progress is not None:
                progress(len(block))
    return audit.result()


def check_logs(paths: Sequence[str | Path], paytable: Paytable) -> None:
    """Before any row is read: each log given once, and every log with the first one's
    payout columns (logs audited together are checked alike)."""
    from analyzer.files import is_same_file

    for i, path in enumerate(paths):
        for earlier in paths[:i]:
            if is_same_file(path, earlier):
                raise AnalyzerError(
                    f"{path}: is the log {earlier} again: give each log once (a shoe "
                    "dealt twice is found within a log too)"
                )
    if len(paths) < 2:
        return
    first = None
    for path in paths:
        try:
            columns = set(_header_layout(Path(path), paytable).payouts)
        except AnalyzerError:  # reading the log says what is wrong, at its turn
            continue
        if first is None:
            first = columns
        elif columns != first:
            raise other_payout_columns(path)


def _reveal(cell: Any, where: tuple[Path, int, str], decision: Decision, game: str) -> int:
    """The ``shown`` cell of a round: the index of the way the decision's cards were
    shown (of its reveals), from the cards' names, or ``none``; anything else, a card
    twice, or a number of cards no round shows, is one line (``game``: its name)."""
    text = "" if cell is None else str(cell).strip()
    names = [] if text.lower() == "none" else text.replace(",", " ").split()
    if not text:
        raise AnalyzerError(
            f"{_place(where)}: empty (every round of {game} logs the cards its decision "
            "was shown, by name, or none)"
        )
    for name in names:
        if name not in decision.sees:
            raise AnalyzerError(
                f"{_place(where)}: {name[:40]!r} is not a card the decision sees "
                f"({', '.join(decision.sees)})"
            )
    if len(set(names)) != len(names):
        raise AnalyzerError(f"{_place(where)}: a card is named twice")
    cards = tuple(card for card in decision.sees if card in names)
    for r, reveal in enumerate(decision.reveals):
        if reveal.sees == cards:
            return r
    counts = ", ".join(str(k) for k, chance in decision.shown if chance)
    raise AnalyzerError(
        f"{_place(where)}: {len(cards)} card(s) shown, but a round shows {counts} of them"
    )


def _action_columns(paytable: Paytable) -> list[str]:
    """A punto banco ``[decision]``'s action columns: ``action:<bet id>`` per bet it is
    for that the paytable offers."""
    offered = dict.fromkeys(bet.id for bet, _ in paytable.offered(paytable.modes))
    return [f"action:{bet_id}" for bet_id in offered if bet_id in paytable.decided]


def required_columns(paytable: Paytable) -> tuple[str, ...]:
    """The columns every log of ``paytable``'s game has: punto banco's
    :data:`REQUIRED`, or another game's shoe, round, each hand's cards and, with a
    player's decision, the action."""
    game = paytable.game
    if game is None:
        if paytable.punto_banco_decision is None:
            return REQUIRED
        return (*REQUIRED, "shown", *_action_columns(paytable))
    decided = ("action",) if game.decision else ()
    if game.decision is not None and game.decision.shown:
        decided += ("shown",)
    return ("shoe", "round", *hand_columns(game), *decided)


def optional_columns(paytable: Paytable) -> tuple[str, ...]:
    """The columns a log of ``paytable``'s game may have besides its payouts."""
    game = paytable.game
    if game is None:
        return (*OPTIONAL, *GROUP_COLUMNS)
    return ("burn", "winner", *score_columns(game), *GROUP_COLUMNS)


def _header_layout(path: Path, paytable: Paytable) -> _Layout:
    """The columns of the log at ``path``, from its header alone."""
    with open_log(path) as stream:
        if stream.read(4) == _PARQUET_MAGIC:
            import pyarrow.parquet as pq

            stream.seek(0)
            try:
                names = list(pq.ParquetFile(stream).schema_arrow.names)
            except Exception as exc:
                raise AnalyzerError(f"{path}: not a Parquet file that can be read") from exc
            return _Layout(path, names, paytable)
        stream.seek(0)
        lines = _Lines(path, stream)
        try:
            for header in csv.reader(lines, strict=True):
                if any(cell.strip() for cell in header):
                    return _Layout(path, header, paytable)
                lines.record = 0
        except csv.Error as exc:
            raise AnalyzerError(f"{path}: header: not CSV: {exc}") from None
    raise AnalyzerError(f"{path}: empty: no header row")


def estimated_rounds(path: str | Path) -> int | None:
    """About how many rounds the log at ``path`` holds, for a progress bar: a Parquet
    file's row count, a CSV file's lines less its header (a quoted line end makes it
    more); None where the file cannot be looked at (reading it says why)."""
    try:
        with open_log(Path(path)) as stream:
            head = stream.read(4)
            if head == _PARQUET_MAGIC:
                import pyarrow.parquet as pq

                stream.seek(0)
                return int(pq.ParquetFile(stream).metadata.num_rows)
            lines = head.count(b"\n")
            last = head[-1:]
            while chunk := stream.read(2**20):
                lines += chunk.count(b"\n")
                last = chunk[-1:]
            return max(lines + (last not in (b"", b"\n")) - 1, 0)
    except Exception:  # (the reading itself says what is wrong, in one line)
        return None


def read_log(
    path: str | Path,
    paytable: Paytable,
    block_rows: int = BLOCK_ROWS,
    span: tuple[int, int | None] | None = None,
    begun: list[tuple[str, int]] | None = None,
) -> Iterator[LoggedRounds]:
    """The rounds of the log at ``path``, a block at a time; a malformed file, header,
    row or cell is one error naming it (the first such row). With ``span`` = (first,
    stop), only the shoes that begin at a row from ``first`` up to ``stop`` (not
    included; None: the end), each whole: a partition of the log (the rows before are
    looked at only for their shoe). ``begun`` is told each shoe's (name, first row) as
    it begins, up to an error too."""
    path = Path(path)
    with open_log(path) as stream:
        parquet = stream.read(4) == _PARQUET_MAGIC
        stream.seek(0)
        blocks = _parquet_blocks if parquet else _csv_blocks
        yield from blocks(path, stream, paytable, block_rows, _Span.of(span), begun)


class _Span:
    """Which rows a partition of a log reads: those of the shoes that begin at a row in
    [first, stop). A shoe begins where a row names another shoe than the row before (the
    rows of a shoe come together). Rows of other shoes are only looked at for their shoe."""

    def __init__(self, first: int, stop: int | None) -> None:
        self.first, self.stop = first, stop
        self.previous: str | None = None
        self.inside = False

    @classmethod
    def of(cls, span: tuple[int, int | None] | None) -> _Span | None:
        return None if span is None else cls(*span)

    def take(self, row: int, shoe: str | None) -> bool | None:
        """Read the row (True), pass over it (False), or stop reading (None)."""
        begins = shoe is None or shoe != self.previous
        self.previous = shoe
        if begins and self.stop is not None and row >= self.stop:
            return None  # the next partition's shoe
        if not self.inside and begins and row >= self.first:
            self.inside = True
        return self.inside


def open_log(path: Path):
    """The file, opened for reading in binary: a regular file only (a FIFO, a device or
    a folder is refused at once)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise AnalyzerError(f"{path}: no such file") from None
    except OSError as exc:
        raise AnalyzerError(f"{path}: cannot read: {exc.strerror or exc}") from None
    info = os.fstat(descriptor)
    if stat.S_ISDIR(info.st_mode) or not stat.S_ISREG(info.st_mode):
        os.close(descriptor)
        kind = "is a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise AnalyzerError(f"{path}: {kind}, not a log")
    os.set_blocking(descriptor, True)
    return os.fdopen(descriptor, "rb")


# -- The columns -----------------------------------------------------------------------------


class _Layout:
    """Where each column is, and which (bet, mode) each payout column is."""

    def __init__(self, path: Path, header: Sequence[str], paytable: Paytable) -> None:
        names = [name.strip() for name in header]
        seen: set[str] = set()
        for name in names:
            if name in seen:
                raise AnalyzerError(f"{path}: header: the column {name[:60]!r} is there twice")
            seen.add(name)
        required = required_columns(paytable)
        missing = [name for name in required if name not in seen]
        if missing:
            of = "" if paytable.game is None else f" of {paytable.game.name}"
            raise AnalyzerError(
                f"{path}: header: no column {missing[0]!r} (a log{of} has the columns "
                f"{', '.join(required)}; see audit --help)"
            )
        self.game = paytable.game
        self.decision = paytable.punto_banco_decision
        self.decided = _action_columns(paytable) if self.decision is not None else []
        self.names = names
        self.at = {name: i for i, name in enumerate(names)}
        #: The columns read (the others are ignored).
        wanted = (*required, *optional_columns(paytable))
        self.used = {self.at[name] for name in wanted if name in self.at}
        #: The shoe name last checked (a shoe's rows name it alike).
        self.shoe = ""
        #: Group names already checked (a few hundred at most are kept).
        self.group_names: set[str] = {""}
        self.payouts: dict[tuple[str, str], int] = {}
        self.stakes: dict[tuple[str, str], int] = {}
        #: The group columns the log has, in :data:`GROUP_COLUMNS` order.
        self.groups = tuple(name for name in GROUP_COLUMNS if name in self.at)
        for i, name in enumerate(names):
            if name.startswith("stake:"):
                self.stakes[_bet_column(path, name, name[6:], paytable, self.stakes, "stake")] = i
                continue
            if not name.startswith("pay:"):
                continue
            self.payouts[_bet_column(path, name, name[4:], paytable, self.payouts, "payout")] = i
        self.used |= set(self.payouts.values()) | set(self.stakes.values())


def _bet_column(
    path: Path,
    name: str,
    rest: str,
    paytable: Paytable,
    before: dict[tuple[str, str], int],
    what: str,
) -> tuple[str, str]:
    """The (bet, mode) a ``pay:`` or ``stake:`` column names (``rest``: what follows the
    prefix; ``what``: the column's kind, "payout" or "stake", as messages name it)."""
    bet_id, _, mode = rest.partition(":")
    mode = mode or paytable.modes[0]
    shown = repr(name[:60])
    if bet_id not in paytable.bet_ids:
        raise AnalyzerError(
            f"{path}: header: column {shown}: {paytable.source} has no bet {bet_id[:40]!r} "
            f"(bets: {', '.join(paytable.bet_ids)})"
        )
    if mode not in paytable.modes:
        raise AnalyzerError(
            f"{path}: header: column {shown}: no mode {mode[:40]!r} "
            f"(modes: {', '.join(paytable.modes)})"
        )
    if not any(bet.id == bet_id and bet.offered_in(mode) for bet in paytable.bets):
        raise AnalyzerError(
            f"{path}: header: column {shown}: the bet {bet_id!r} is not offered in mode {mode!r}"
        )
    if (bet_id, mode) in before:
        raise AnalyzerError(f"{path}: header: column {shown} is the {what} of a column before it")
    return bet_id, mode


class _Block:
    """Rows of one block as they are read, then :meth:`done` as :class:`LoggedRounds`."""

    def __init__(self, path: Path, layout: _Layout, order: _Order) -> None:
        self.path, self.layout, self.order = path, layout, order
        self.rows: list[int] = []
        self.shoes: list[str] = []
        self.rounds: list[int] = []
        self.cards: list[list[int]] = []
        self.player_score: list[int] = []
        self.banker_score: list[int] = []
        self.winner: list[int] = []
        self.payouts: dict[tuple[str, str], list[float]] = {key: [] for key in layout.payouts}
        self.burns: dict[int, tuple[int, ...]] = {}
        self.actions: list[int] = []
        self.stakes: dict[tuple[str, str], list[float]] = {key: [] for key in layout.stakes}
        self.groups: dict[str, list[str]] = {name: [] for name in layout.groups}
        self.shown: list[int] = []
        self.bet_actions: dict[str, list[int]] = {}

    def add(self, row: int, cells: Sequence[Any]) -> None:
        at = self.layout.at
        if len(cells) != len(self.layout.names):
            raise AnalyzerError(
                f"{self.path}: row {row}: {len(cells)} fields, the header has "
                f"{len(self.layout.names)}"
            )
        where = self._where
        self.rows.append(row)
        shoe = _text(cells[at["shoe"]]).strip()
        if not shoe:
            raise AnalyzerError(f"{_place(where(row, 'shoe'))}: empty (every round names its shoe)")
        if len(shoe) > 200:
            raise AnalyzerError(f"{_place(where(row, 'shoe'))}: longer than 200 characters")
        if shoe != self.layout.shoe:  # shown in the findings: nothing that drives a terminal
            check_untrusted(shoe, _place(where(row, "shoe")))
            if "\n" in shoe:
                raise AnalyzerError(
                    f"{_place(where(row, 'shoe'))}: text holds the control character U+000A, "
                    "which is not allowed"
                )
            self.layout.shoe = shoe
        self.order.row(shoe, row)
        self.shoes.append(shoe)
        self.rounds.append(_whole(cells[at["round"]], where(row, "round"), "a round number"))
        if self.layout.game is not None:
            self._add_game(row, cells)
        else:
            self._add_punto_banco(row, cells)
        for key, i in self.layout.payouts.items():
            self.payouts[key].append(_payout(cells[i], where(row, self.layout.names[i])))
        for key, i in self.layout.stakes.items():
            self.stakes[key].append(_stake(cells[i], where(row, self.layout.names[i])))
        for name, values in self.groups.items():
            values.append(self._group(cells[at[name]], row, name))

    def _group(self, value: Any, row: int, name: str) -> str:
        """A group's name (a dealer's, a table's, a studio's): text of at most
        :data:`MAX_GROUP_TEXT` characters, nothing that drives a terminal."""
        text = _text(value).strip()
        if text in self.layout.group_names:
            return text
        where = _place(self._where(row, name))
        if len(text) > MAX_GROUP_TEXT:
            raise AnalyzerError(f"{where}: longer than {MAX_GROUP_TEXT} characters")
        check_untrusted(text, where)
        if "\n" in text:
            raise AnalyzerError(
                f"{where}: text holds the control character U+000A, which is not allowed"
            )
        if len(self.layout.group_names) < 1024:  # (names checked: a bounded few kept)
            self.layout.group_names.add(text)
        return text

    def _add_game(self, row: int, cells: Sequence[Any]) -> None:
        """The hands, scores, winner and action of a round of another game."""
        at, where, game = self.layout.at, self._where, self.layout.game
        dealt = [-1] * (len(game.hands) * HAND_SLOTS)
        for h, hand in enumerate(game.hands):
            name = f"{hand.name}_cards"
            held = _cards(cells[at[name]], where(row, name))
            if not held:
                raise AnalyzerError(
                    f"{_place(where(row, name))}: empty (every round deals the "
                    f"{hand.label()} its cards)"
                )
            if len(held) > HAND_SLOTS:
                raise AnalyzerError(
                    f"{_place(where(row, name))}: {len(held)} cards: not a hand (at most "
                    f"{HAND_SLOTS} are read)"
                )
            dealt[h * HAND_SLOTS : h * HAND_SLOTS + len(held)] = held
        self.cards.append(dealt)
        self._add_burn(row, cells)
        for hand, out in zip(game.hands, (self.player_score, self.banker_score), strict=True):
            name = f"{hand.name}_score"
            if name in at:
                low, high = game.score_range(hand)
                out.append(_score(cells[at[name]], where(row, name), low, high))
            else:
                out.append(NOT_LOGGED)
        self.winner.append(
            _named(cells[at["winner"]], where(row, "winner"), game.winners, "a winner")
            if "winner" in at
            else NOT_LOGGED
        )
        if game.decision is not None:
            names = tuple(action.name for action in game.decision.actions)
            action = _named(cells[at["action"]], where(row, "action"), names, "an action")
            if action == NOT_LOGGED:
                raise AnalyzerError(
                    f"{_place(where(row, 'action'))}: empty (every round of {game.name} "
                    f"logs the action taken: {', '.join(names)})"
                )
            self.actions.append(action)
            if game.decision.shown:
                shown = _reveal(cells[at["shown"]], where(row, "shown"), game.decision, game.name)
                self.shown.append(shown)

    def _add_burn(self, row: int, cells: Sequence[Any]) -> None:
        at = self.layout.at
        if "burn" in at:
            burn = _cards(cells[at["burn"]], self._where(row, "burn"))
            if burn:
                self.burns[len(self.rows) - 1] = tuple(burn)

    def _add_punto_banco(self, row: int, cells: Sequence[Any]) -> None:
        at, where = self.layout.at, self._where
        player = _cards(cells[at["player_cards"]], where(row, "player_cards"))
        banker = _cards(cells[at["banker_cards"]], where(row, "banker_cards"))
        for name, hand in (("player_cards", player), ("banker_cards", banker)):
            if not 2 <= len(hand) <= 3:
                raise AnalyzerError(
                    f"{_place(where(row, name))}: {len(hand)} card(s): a hand holds 2 or 3 cards"
                )
        third = [player[2] if len(player) > 2 else -1, banker[2] if len(banker) > 2 else -1]
        self.cards.append([player[0], banker[0], player[1], banker[1], *third])
        decision = self.layout.decision
        if decision is not None:  # the cards shown, each bet of the decision's action
            self.shown.append(_reveal(cells[at["shown"]], where(row, "shown"), decision, "it"))
            names = tuple(action.name for action in decision.actions)
            for column in self.layout.decided:
                action = _named(cells[at[column]], where(row, column), names, "an action")
                if action == NOT_LOGGED:
                    raise AnalyzerError(
                        f"{_place(where(row, column))}: empty (every round logs the action "
                        f"each bet of the decision took: {', '.join(names)})"
                    )
                self.bet_actions.setdefault(column.removeprefix("action:"), []).append(action)
        self._add_burn(row, cells)
        for name, out in (("player_score", self.player_score), ("banker_score", self.banker_score)):
            if name in at:
                out.append(_score(cells[at[name]], where(row, name)))
            else:
                out.append(NOT_LOGGED)
        self.winner.append(
            _winner(cells[at["winner"]], where(row, "winner")) if "winner" in at else NOT_LOGGED
        )

    def _where(self, row: int, column: str) -> tuple[Path, int, str]:
        return (self.path, row, column)

    def __len__(self) -> int:
        return len(self.rows)

    def done(self) -> LoggedRounds:
        game = self.layout.game
        width = 6 if game is None else len(game.hands) * HAND_SLOTS
        actions = shown = None
        if game is not None and game.decision is not None:
            actions = np.array(self.actions, dtype=np.int64)
            if game.decision.shown:
                shown = np.array(self.shown, dtype=np.int64)
        if self.layout.decision is not None:
            shown = np.array(self.shown, dtype=np.int64)
        return LoggedRounds(
            rows=np.array(self.rows, dtype=np.int64),
            shoes=np.array(self.shoes, dtype=object),
            rounds=np.array(self.rounds, dtype=np.int64),
            cards=np.array(self.cards, dtype=np.int64).reshape(-1, width),
            action=actions,
            shown=shown,
            bet_actions={k: np.array(v, dtype=np.int64) for k, v in self.bet_actions.items()},
            player_score=np.array(self.player_score, dtype=np.int64),
            banker_score=np.array(self.banker_score, dtype=np.int64),
            winner=np.array(self.winner, dtype=np.int64),
            payouts={key: np.array(v, dtype=np.float64) for key, v in self.payouts.items()},
            burns=self.burns,
            stakes={key: np.array(v, dtype=np.float64) for key, v in self.stakes.items()},
            groups={name: np.array(v, dtype=object) for name, v in self.groups.items()},
        )


def _text(value: Any) -> str:
    """A cell as text: CSV gives text; Parquet numbers, text or None (empty)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _whole(value: Any, where: tuple, what: str) -> int:
    text = _text(value)
    if not _WHOLE.fullmatch(text):
        raise AnalyzerError(
            f"{_place(where)}: {_shown(text)} is not {what} (a whole number of at most 9 digits)"
        )
    return int(text)


def _score(value: Any, where: tuple, low: int = 0, high: int = 9) -> int:
    text = _text(value).strip()
    if not text:
        return NOT_LOGGED
    if not (_WHOLE.fullmatch(text) and text == str(int(text)) and low <= int(text) <= high):
        raise AnalyzerError(f"{_place(where)}: {_shown(text)} is not a score {low}-{high}")
    return int(text)


def _named(value: Any, where: tuple, names: tuple[str, ...], what: str) -> int:
    """The index of one of ``names`` (any case; empty: not logged)."""
    text = _text(value).strip().lower()
    if not text:
        return NOT_LOGGED
    if text not in names:
        raise AnalyzerError(f"{_place(where)}: {_shown(text)} is not {what} ({', '.join(names)})")
    return names.index(text)


def _winner(value: Any, where: tuple) -> int:
    text = _text(value).strip().lower()
    if not text:
        return NOT_LOGGED
    if text not in _WINNER:
        raise AnalyzerError(
            f"{_place(where)}: {_shown(text)} is not a winner ({', '.join(WINNERS)}, or P, B, T)"
        )
    return _WINNER[text]


def _payout(value: Any, where: tuple) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number = float(value)
        if not math.isfinite(number):
            raise AnalyzerError(f"{_place(where)}: {value!r} is not a finite number")
        return number
    text = _text(value)
    if not text.strip():
        return math.nan
    if not _DECIMAL.fullmatch(text):
        raise AnalyzerError(
            f"{_place(where)}: {_shown(text)} is not a number (a net per unit staked)"
        )
    number = float(text)
    if not math.isfinite(number):  # 1e9999: too large for a float
        raise AnalyzerError(f"{_place(where)}: {_shown(text)} is not a finite number")
    return number


def _stake(value: Any, where: tuple) -> float:
    """A stake: a number from 0 to :data:`MAX_STAKE` (empty: 0, nothing staked)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number = float(value)
        shown = repr(value)
    else:
        text = _text(value)
        if not text.strip():
            return 0.0
        shown = _shown(text)
        if not _DECIMAL.fullmatch(text):
            raise AnalyzerError(f"{_place(where)}: {shown} is not a number (an amount staked)")
        number = float(text)
    if not math.isfinite(number) or not 0 <= number <= MAX_STAKE:
        raise AnalyzerError(
            f"{_place(where)}: {shown} is not a stake (a number from 0 to {MAX_STAKE:.0e})"
        )
    return number


def _cards(value: Any, where: tuple) -> list[int]:
    text = _text(value)
    if len(text) > _MAX_CARDS_TEXT:
        raise AnalyzerError(
            f"{_place(where)}: longer than {_MAX_CARDS_TEXT} characters: not a few cards"
        )
    out = []
    for token in text.replace(",", " ").split():
        index = _CARD_TOKENS.get(token)
        if index is None:
            try:
                card = parse_card(token)
            except AnalyzerError as exc:
                raise AnalyzerError(f"{_place(where)}: {exc}") from None
            index = card_index(card.rank, card.suit)
            _CARD_TOKENS[token] = index  # a valid spelling: a few hundred at most
        out.append(index)
    return out


def _place(where: tuple[Path, int, str]) -> str:
    path, row, column = where
    return f"{path}: row {row}, column {column!r}"


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


class _Order:
    """The rounds of a shoe together: a shoe that comes back after another began is an
    error (a log is read once, a shoe at a time), found at its row as the row is read.
    ``begun``, where given, is told each shoe's (name, first row) as it begins."""

    def __init__(self, path: Path, begun: list[tuple[str, int]] | None = None) -> None:
        self.path = path
        self.current: str | None = None
        self.finished: set[str] = set()
        self.begun = begun

    def row(self, shoe: str, row: int) -> None:
        if shoe == self.current:
            return
        if shoe in self.finished:
            raise rows_out_of_order(self.path, row, shoe, self.current)
        if self.current is not None:
            self.finished.add(self.current)
        self.current = shoe
        if self.begun is not None:
            self.begun.append((shoe, row))


# -- CSV -------------------------------------------------------------------------------------


class _Lines:
    """The file's lines as text, none longer than :data:`MAX_LINE_BYTES` (a longer one
    is an error, read no further than the limit), nor any record (the header or a row:
    ``where``, its lines since ``record`` was last set to 0)."""

    def __init__(self, path: Path, stream) -> None:
        self.path, self.stream = path, stream
        self.where = "header"
        self.record = 0

    def __iter__(self) -> Iterator[str]:
        return _lines(self)


def _lines(lines: _Lines) -> Iterator[str]:
    path, stream = lines.path, lines.stream
    number = 0
    while True:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE_BYTES:
            raise AnalyzerError(
                f"{path}: line {number}: longer than {_size(MAX_LINE_BYTES)}: not a log"
            )
        lines.record += len(line)
        if lines.record > MAX_LINE_BYTES:  # quoted fields holding line ends
            raise AnalyzerError(
                f"{path}: {lines.where}: longer than {_size(MAX_LINE_BYTES)}: not a log"
            )
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            raise AnalyzerError(f"{path}: line {number}: not UTF-8 text") from None
        yield text.removeprefix("\ufeff") if number == 1 else text


def _size(n: int) -> str:
    return f"{n // 2**20} MiB" if n >= 2**20 else f"{n:,} bytes"


def _csv_blocks(
    path: Path,
    binary,
    paytable: Paytable,
    block_rows: int,
    span: _Span | None = None,
    begun: list[tuple[str, int]] | None = None,
) -> Iterator[LoggedRounds]:
    limit = csv.field_size_limit()
    csv.field_size_limit(MAX_LINE_BYTES)
    row = 0
    lines = _Lines(path, binary)
    try:
        reader = csv.reader(lines, strict=True)
        try:
            header = next(reader, None)
            while header is not None and not any(cell.strip() for cell in header):
                lines.record = 0
                header = next(reader, None)  # blank lines before the header
            if header is None:
                raise AnalyzerError(
                    f"{path}: empty: no header row (a log has the columns "
                    f"{', '.join(required_columns(paytable))})"
                )
            layout = _Layout(path, header, paytable)
            order = _Order(path, begun)
            block = _Block(path, layout, order)
            lines.where, lines.record = "row 1", 0
            for cells in reader:
                lines.record = 0
                if not cells or (len(cells) == 1 and not cells[0].strip()):
                    continue  # a blank line
                row += 1
                lines.where = f"row {row + 1}"
                if span is not None:
                    shoe_at = layout.at["shoe"]
                    taken = span.take(row, cells[shoe_at].strip() if shoe_at < len(cells) else None)
                    if taken is None:
                        break
                    if not taken:
                        continue
                block.add(row, cells)
                if len(block) >= block_rows:
                    yield block.done()
                    block = _Block(path, layout, order)
        except csv.Error as exc:
            raise AnalyzerError(f"{path}: {lines.where}: not CSV: {exc}") from None
        if not row and (span is None or span.first == 1):
            raise AnalyzerError(f"{path}: no rounds: the header is all there is")
        if len(block):
            yield block.done()
    finally:
        csv.field_size_limit(limit)


# -- Parquet ---------------------------------------------------------------------------------


def _parquet_blocks(
    path: Path,
    binary,
    paytable: Paytable,
    block_rows: int,
    span: _Span | None = None,
    begun: list[tuple[str, int]] | None = None,
) -> Iterator[LoggedRounds]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        file = pq.ParquetFile(binary)
        names = list(file.schema_arrow.names)
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise AnalyzerError(
            f"{path}: not a Parquet file that can be read: {_first_line(exc)}"
        ) from None
    layout = _Layout(path, names, paytable)
    try:
        plan = _ParquetPlan(path, file, layout, block_rows)
        if plan.dictionary:  # (read_dictionary is an option of the file's reader)
            file = pq.ParquetFile(binary, metadata=file.metadata, read_dictionary=plan.dictionary)
    except AnalyzerError:
        raise
    except (pa.ArrowException, OSError, ValueError, IndexError) as exc:  # its footer
        raise AnalyzerError(
            f"{path}: not a Parquet file that can be read: {_first_line(exc)}"
        ) from None
    order = _Order(path, begun)
    shoe_at = layout.at["shoe"]
    row = 0
    try:
        for group, batch_rows in plan.groups:
            batches = file.iter_batches(batch_rows, row_groups=[group], columns=plan.names)
            for batch in batches:
                cells = _parquet_cells(path, batch, plan, row)
                block = _Block(path, layout, order)
                stopped = False
                for values in zip(*cells, strict=True):
                    row += 1
                    if span is not None:
                        taken = span.take(row, _text(values[shoe_at]).strip())
                        if taken is None:
                            stopped = True
                            break
                        if not taken:
                            continue
                    block.add(row, values)
                if len(block):
                    yield block.done()
                if stopped:
                    return
    except (pa.ArrowException, OSError) as exc:
        raise AnalyzerError(f"{path}: row {row + 1}: cannot read: {_first_line(exc)}") from None
    if not row and (span is None or span.first == 1):
        raise AnalyzerError(f"{path}: no rounds: the file has columns but no rows")


class _ParquetPlan:
    """How a Parquet log is read, from its footer alone, before any row is: the leaves
    (columns in the file) of the columns used, each a plain one (text, a number, a date);
    the text columns read as a dictionary (each text once, however many rows repeat it),
    those stored so; and per row group, the rows of a batch, as many as
    :data:`BATCH_BYTES` of the columns used (uncompressed) hold, up to ``block_rows``. A
    row group whose columns used take more than :data:`MAX_LINE_BYTES` a row is refused."""

    def __init__(self, path: Path, file, layout: _Layout, block_rows: int) -> None:
        import pyarrow as pa

        schema, metadata = file.schema_arrow, file.metadata
        leaf_paths = [file.schema.column(j).path for j in range(metadata.num_columns)]
        self.used = sorted(layout.used)
        self.names = [schema.field(i).name for i in self.used]
        leaves = {}
        for i, name in zip(self.used, self.names, strict=True):
            kind = schema.field(i).type
            storage = getattr(kind, "storage_type", kind)  # (an extension type's)
            if pa.types.is_nested(storage):
                raise AnalyzerError(
                    f"{path}: column {layout.names[i][:60]!r}: of type {str(kind)[:60]}, "
                    "not text or a number"
                )
            found = [j for j, leaf in enumerate(leaf_paths) if leaf == name]
            if len(found) != 1:
                raise AnalyzerError(
                    f"{path}: not a Parquet file that can be read: column {name[:60]!r} "
                    "is not one column of the file"
                )
            leaves[i] = found[0]
        self.groups: list[tuple[int, int]] = []
        stored_as_dictionary: set[int] = set()
        first = 1
        for group in range(metadata.num_row_groups):
            meta = metadata.row_group(group)
            rows = meta.num_rows
            sizes = {i: max(meta.column(leaves[i]).total_uncompressed_size, 0) for i in leaves}
            for i in leaves:
                if meta.column(leaves[i]).has_dictionary_page:
                    stored_as_dictionary.add(i)
            if rows <= 0:
                continue
            per_row = -(-sum(sizes.values()) // rows)
            if per_row > MAX_LINE_BYTES:
                widest = max(sizes, key=sizes.__getitem__)
                raise AnalyzerError(
                    f"{path}: rows {first:,} to {first + rows - 1:,} (row group {group + 1}): "
                    f"column {layout.names[widest][:60]!r} takes "
                    f"{_mebibytes(-(-sizes[widest] // rows))} a row uncompressed (the columns "
                    f"read {_mebibytes(per_row)}), more than a row may "
                    f"({_size(MAX_LINE_BYTES)}): not a log"
                )
            self.groups.append((group, max(1, min(block_rows, BATCH_BYTES // max(per_row, 1)))))
            first += rows
        self.dictionary = [
            leaves[i] for i in sorted(stored_as_dictionary) if _is_text(schema.field(i).type)
        ]
        self.width = len(layout.names)


def _is_text(kind) -> bool:
    """A type of text or bytes, of any length (what :func:`_text_lengths` measures)."""
    import pyarrow as pa

    return any(
        test(kind)
        for test in (
            pa.types.is_string, pa.types.is_large_string, pa.types.is_binary,
            pa.types.is_large_binary, pa.types.is_fixed_size_binary,
            getattr(pa.types, "is_string_view", lambda _: False),
            getattr(pa.types, "is_binary_view", lambda _: False),
        )
    )  # fmt: skip


def _text_lengths(array) -> np.ndarray | None:
    """Each value's length in bytes (0 where null), or None for an array not of text."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not _is_text(array.type):
        return None
    if pa.types.is_string_view(array.type) or pa.types.is_binary_view(array.type):
        array = array.cast(pa.large_binary())
    return pc.binary_length(array).fill_null(0).to_numpy(zero_copy_only=False)


def _parquet_cells(path: Path, batch, plan: _ParquetPlan, row: int) -> list[list[Any]]:
    """The cells of a batch, a list per column of the log (None in the columns not used),
    as Python values; a text over :data:`MAX_LINE_BYTES` is refused (the first row that
    has one, before any cell is made a Python value). ``row``: the rows before."""
    import pyarrow as pa

    columns = [batch.column(k) for k in range(batch.num_columns)]
    if [field.name for field in batch.schema] != plan.names:
        raise AnalyzerError(f"{path}: row {row + 1}: cannot read: not the columns asked for")
    long = None
    for name, column in zip(plan.names, columns, strict=True):
        if pa.types.is_dictionary(column.type):
            lengths = _text_lengths(column.dictionary)
            if lengths is not None:
                indices = column.indices.fill_null(0).to_numpy(zero_copy_only=False)
                lengths = lengths[indices] if len(lengths) else np.zeros(len(column), np.int64)
        else:
            lengths = _text_lengths(column)
        if lengths is None:
            continue
        over = np.flatnonzero(lengths > MAX_LINE_BYTES)
        if over.size and (long is None or over[0] < long[0]):
            long = (int(over[0]), name)
    if long is not None:
        raise AnalyzerError(
            f"{path}: row {row + long[0] + 1}, column {long[1][:60]!r}: longer than "
            f"{_size(MAX_LINE_BYTES)}: not a log"
        )
    nones = [None] * batch.num_rows
    cells = [nones] * plan.width
    for i, name, column in zip(plan.used, plan.names, columns, strict=True):
        try:
            cells[i] = _python_values(column)
        except (ValueError, OverflowError) as exc:  # a date past the year 9999
            raise AnalyzerError(
                f"{path}: row {row + 1}, column {name[:60]!r}: cannot read: {_first_line(exc)}"
            ) from None
    return cells


def _python_values(column) -> list[Any]:
    """A column's values as Python values: a dictionary's once each, however many rows
    hold them."""
    import pyarrow as pa

    if not pa.types.is_dictionary(column.type):
        return column.to_pylist()
    nulls = column.is_null().to_numpy(zero_copy_only=False)
    indices = column.indices.fill_null(0).to_numpy(zero_copy_only=False)
    used = np.unique(indices[~nulls])
    if not used.size:
        return [None] * len(column)
    values = np.empty(used.size, dtype=object)
    values[:] = column.dictionary.take(pa.array(used)).to_pylist()
    cells = values[np.searchsorted(used, indices)]
    cells[nulls] = None
    return cells.tolist()


def _mebibytes(n: int) -> str:
    return f"{n / 2**20:,.1f} MiB" if n >= 2**20 // 10 else f"{n:,} bytes"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


def shuffle_tests_of_logs(
    paths: Sequence[str | Path],
    paytable: Paytable,
    decks: int | None = None,
    level: float = DEFAULT_LEVEL,
    block_rows: int = BLOCK_ROWS,
):
    """The shuffle tests (:mod:`analyzer.analysis.shuffle_tests`) of the logs at
    ``paths``, read again in one pass after the audit: each log's consecutive shoes
    compared (no shoe of one log follows another log's). A log the tests cannot take is
    one :class:`~analyzer.errors.AnalyzerError`."""
    from analyzer.analysis.shuffle_tests import ShuffleTests

    if paytable.game is not None:
        raise AnalyzerError(
            f"--shuffle-tests reads punto banco logs; {paytable.game.name}'s hands are not "
            "read in deal order by it"
        )
    tests = ShuffleTests(paytable.decks if decks is None else decks, level)
    for path in paths:
        tests.start_log(str(path))
        for block in read_log(path, paytable, block_rows):
            tests.feed(block)
    return tests.result()
