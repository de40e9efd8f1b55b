"""Auditing the rounds a table dealt: the drawing rules, the scores and winner, the cards
of each shoe, the payouts, and shoes dealt twice.

A log is fed in blocks (:class:`LoggedRounds`, as :mod:`analyzer.runs.audit_log` reads
them), in the order it was dealt; :class:`Audit` keeps what one shoe needs across
blocks (its card counts, its last round, a digest of its cards) and a digest per shoe
finished, so memory stays bounded whatever the log's length. Each thing wrong is a
:class:`Finding` naming its row: findings are about the table, never errors.

The checks, per round:

* ``draw``: each hand drew or stood as the paytable's rules and strategy say, from the
  two-card totals and (for the Banker) the Player's third card as logged; in a mixed
  decision cell either is allowed;
* ``score`` and ``winner``: the logged scores and winner are the cards';
* ``cards``: no card appears in a shoe more often than its decks hold (the burn, when
  logged, counts too);
* ``order``: a shoe's rounds are numbered 1, 2, 3, ...;
* ``burn``: a logged burn is the procedure's: on a shoe's first round only, the shown
  card and as many more cards as its point value says (Ace 1 ... 9 9, a ten or face card
  10; :data:`~analyzer.game.rules.BURN_BY_VALUE`). An unlogged burn is not a finding: a
  log need not show it;
* ``payout``: every logged payout is the paytable's settlement of the round (net per
  unit staked, the fee paid), and the bet was offered that round (its ``max_round``);
* ``repeat``: a shoe deals the same cards, in the same order, as an earlier one.

A log of another game of the family (:mod:`analyzer.analysis.audit_game`) is checked as
that game deals and scores: ``deal`` (each hand holds the cards the game deals it),
``draw`` (a hand's card after the deal by its own rule), ``action`` (the cards agree with
the action logged, a game with a player's decision), then ``score`` and ``winner`` by
the game's own scoring, and ``cards``, ``order``, ``burn``, ``payout`` and ``repeat`` as
above (a round settled at the action's stake).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise

import numpy as np

from analyzer.analysis.audit_fit import DEFAULT_LEVEL, Fit, FitResult
from analyzer.analysis.audit_game import (
    CHECK_ORDER,
    PlayedRounds,
    checks_of,
    dealt_text,
    extra_card,
    play_rounds,
)
from analyzer.analysis.audit_groups import (
    DEFAULT_CONFIDENCE,
    DEFAULT_DEVIATION,
    GROUP_COLUMNS,
    MAX_GROUPS,
    MIN_GROUP_ROUNDS,
    GroupResult,
    GroupsResult,
    Monitor,
    MonitorRow,
    adjusted_fits,
    adjusted_rows,
    too_many_groups,
)
from analyzer.errors import AnalyzerError
from analyzer.game.cards import CARD_RANKS, CARD_SUITS, CARD_VALUES, N_CARDS, Card, card_of_index
from analyzer.game.fields import (
    NO_PAIR,
    NO_THIRD_CARD,
    RANK_PAIR,
    SUITED_PAIR,
    WINNERS,
    card_columns,
    derived_columns,
    pair_columns,
)
from analyzer.game.rules import BURN_BY_VALUE, CHOOSE, PLAYER_DRAWS, PLAYER_STOOD, Cell
from analyzer.game.shoe import INFINITE
from analyzer.paytables.model import Bet, Paytable
from analyzer.paytables.settle import Settlement, settling_rule
from analyzer.words import counted

#: A value the log does not give (a score, the winner: -1; a payout: NaN).
NOT_LOGGED = -1
#: Punto banco's checks, in the order a report lists them (another game's:
#: :func:`~analyzer.analysis.audit_game.checks_of`).
CHECKS = ("draw", "score", "winner", "cards", "order", "burn", "payout", "repeat")
#: Findings kept to show; every one is counted.
FINDINGS_KEPT = 1000
#: A logged payout within this of the paytable's is right (logs write decimals).
PAYOUT_TOLERANCE = 1e-6
#: A shoe of fewer cards than this is never called a repeat (short logs of a few rounds
#: share their cards by chance).
REPEAT_MIN_CARDS = 24
#: The six cards of a round in deal order: the Player's and Banker's first, second and
#: third (``analyzer.game.fields.CARDS``); a column of :attr:`LoggedRounds.cards`.
P1, B1, P2, B2, P3, B3 = range(6)


@dataclass(frozen=True, eq=False)
class LoggedRounds:
    """A block of consecutive rounds of a log, one entry per round.

    ``cards`` is (n, 6): card indices (:func:`~analyzer.game.cards.card_index`) in
    :data:`~analyzer.game.fields.CARDS` order, -1 for a third card not drawn. Scores
    and the winner (an index into :data:`~analyzer.game.fields.WINNERS`) are
    :data:`NOT_LOGGED` where the log leaves them out; ``payouts`` maps (bet id, mode) to
    the logged net per unit staked (NaN where none is), ``stakes`` to the amount staked
    (0 where none is), and ``groups`` a group column to each round's group. ``burns``
    maps a position in the block to the cards shown and burned before that round.

    For another game of the family (:mod:`analyzer.analysis.audit_game`), ``cards`` is
    (n, 2 * :data:`~analyzer.analysis.audit_game.HAND_SLOTS`): each hand's cards in the
    order it took them, hand after hand, -1 past its last; ``player_score`` and
    ``banker_score`` are the first and second hand's logged scores, ``winner`` an index
    into the game's winners (its hands, then the tie), and ``action`` (a game with a
    decision) the index of the action taken, ``shown`` (a decision whose cards shown are
    random) the index of the way they were shown (of its reveals).
    """

    rows: np.ndarray
    shoes: np.ndarray
    rounds: np.ndarray
    cards: np.ndarray
    player_score: np.ndarray
    banker_score: np.ndarray
    winner: np.ndarray
    payouts: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)
    burns: dict[int, tuple[int, ...]] = field(default_factory=dict)
    action: np.ndarray | None = None
    #: (bet id, mode) -> the amount staked on the bet each round (0: nothing).
    stakes: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)
    #: A group column (``dealer``, ``table``, ``studio``) -> each round's group ("" none).
    groups: dict[str, np.ndarray] = field(default_factory=dict)
    shown: np.ndarray | None = None
    #: A punto banco ``[decision]``'s: per bet id it is for, each round's action (index).
    bet_actions: dict[str, np.ndarray] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.rows)


@dataclass(frozen=True)
class Finding:
    """One thing wrong with one round: which check, where, and what."""

    check: str
    row: int
    shoe: str
    round: int
    text: str
    #: The log the row is of, where several are audited together (else empty).
    log: str = ""


@dataclass(frozen=True)
class AuditResult:
    """What an audit found: the first :data:`FINDINGS_KEPT` findings by row, the count of
    each check's, and the payout columns it could not check (and why)."""

    rounds: int
    shoes: int
    findings: tuple[Finding, ...]
    counts: dict[str, int]
    payouts_checked: tuple[tuple[str, str], ...]
    not_checkable: tuple[tuple[str, str, str], ...]
    decks: int
    #: The tests of the fit to the exact odds, where they were run.
    fit: FitResult | None = None
    #: How many logs were audited together.
    logs: int = 1
    #: Each group's (dealer, table, studio) tests and monitoring, where the log names any.
    groups: GroupsResult | None = None
    #: Each staked bet's return against its exact RTP over the whole log (Holm-adjusted
    #: over the bets), where the log gives stakes; why a staked bet is not monitored.
    monitoring: tuple[MonitorRow, ...] = ()
    monitoring_notes: tuple[str, ...] = ()
    #: The monitoring band's confidence, and the deviation it is asked to see.
    confidence: float = DEFAULT_CONFIDENCE
    deviation: float = DEFAULT_DEVIATION

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def payout_column(bet_id: str, mode: str, paytable: Paytable) -> str:
    """The log's column for a bet in a mode: ``pay:<bet>`` in the first mode."""
    return f"pay:{bet_id}" if mode == paytable.modes[0] else f"pay:{bet_id}:{mode}"


def uncheckable_reason(bet: Bet) -> str | None:
    """Why a logged payout of ``bet`` cannot be checked from the log's cards, or None."""
    if bet.multiplied:
        return "pays by the round's special cards, which the log does not give"
    if bet.jackpot is not None:
        return "pays a progressive jackpot's meter, which the log does not give"
    return None


def card_text(index: int) -> str:
    rank, suit = card_of_index(index)
    return str(Card(rank, suit))


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class Audit:
    """The checks over a log fed block by block (:meth:`feed`), then :meth:`result`;
    with ``fit``, the tests of the fit to the exact odds too, at ``level``
    (:mod:`analyzer.analysis.audit_fit`). An audit of one partition of a log is
    ``deferred`` (its shoes' repeats and order are judged when the partitions are
    joined): :meth:`partition_state`, then :meth:`absorb` into the joining audit."""

    def __init__(
        self,
        paytable: Paytable,
        decks: int | None = None,
        *,
        fit: bool = False,
        level: float = DEFAULT_LEVEL,
        deferred: bool = False,
        min_rounds: int = MIN_GROUP_ROUNDS,
        confidence: float = DEFAULT_CONFIDENCE,
        deviation: float = DEFAULT_DEVIATION,
    ) -> None:
        self.paytable = paytable
        self.min_rounds, self.confidence, self.deviation = min_rounds, confidence, deviation
        # The groups: (column, value) -> number; each one's [column, value, rounds], and
        # its fit (made when it has rounds with the fit asked for).
        self.group_number: dict[tuple[str, str], int] = {}
        self.group_info: list[list] = []
        self.group_fits: list[Fit | None] = []
        # The stakes' monitoring, once a block gives stakes; the stake columns.
        self.monitor: Monitor | None = None
        self.stake_columns: set[tuple[str, str]] | None = None
        self.decks = paytable.decks if decks is None else decks
        self.fit = Fit(paytable, self.decks, level) if fit else None
        self.rules = paytable.rules
        self.strategy = paytable.strategy
        self.game = paytable.game
        self.checks = checks_of(paytable)
        # 0 stand, 1 draw, in between: a mixed cell (either is allowed).
        if self.game is None:
            self.table = paytable.rules.draw_probabilities(paytable.strategy)
        # The fields of single cards the bets whose payouts are checked read.
        self.card_fields: frozenset[str] = frozenset()
        self.counts: Counter[str] = Counter({check: 0 for check in self.checks})
        # (the log's number, from 1; the finding)
        self.kept: list[tuple[int, Finding]] = []
        self.n_rounds = 0
        self.n_shoes = 0
        self.checked: list[tuple[str, str]] | None = None
        self.not_checkable: list[tuple[str, str, str]] = []
        # The shoe in progress.
        self.shoe: str | None = None
        self.last_round = 0
        self.seen = np.zeros(N_CARDS, dtype=np.int64)
        self.digest = hashlib.blake2b(digest_size=16)
        self.shoe_cards = 0
        self.shoe_row = 0
        # Every finished shoe's cards: digest -> (shoe, its first row, its log).
        self.dealt: dict[bytes, tuple[str, int, str]] = {}
        # In a partition: each finished shoe's (digest, shoe, row, cards), for the repeat
        # check across partitions (see absorb).
        self.deferred = deferred
        self.finished: list[tuple[bytes, str, int, int]] = []
        # Joining partitions: the shoes begun in the log so far, and the last of them.
        self.joined_shoes: set[str] = set()
        self.joined_last: str | None = None
        self.log = ""
        self.n_logs = 1
        # The (bet, mode) payout columns of the first block: every log's must be these.
        self.payout_columns: set[tuple[str, str]] | None = None

    def start_log(self, name: str) -> None:
        """The blocks fed from here are of another log, named ``name`` in findings: its
        rows are numbered from 1 again, and its first shoe is a new one whatever its name
        (a shoe dealt again in it is a repeat all the same)."""
        if self.log or self.n_rounds:
            self._finish_shoe()
            self.n_logs += 1
        self.log = name
        self.last_round = 0
        if self.fit is not None:
            self.fit.start_log()

    # -- Feeding ----------------------------------------------------------------------------

    def feed(self, block: LoggedRounds) -> None:
        n = len(block)
        if not n:
            return
        if self.checked is None:
            self._choose_payouts(block)
            self.payout_columns = set(block.payouts)
            self.stake_columns = set(block.stakes)
            if self.fit is not None:
                self.fit.choose_side_bets(self.checked)
            if block.stakes:
                self.monitor = Monitor(self.paytable, self.decks, self._stake_order(block.stakes))
        elif set(block.payouts) != self.payout_columns:
            raise other_payout_columns(self.log)
        elif set(block.stakes) != self.stake_columns:
            raise other_payout_columns(self.log, "stake")
        codes = self._group_codes(block)
        found: list[Finding] = []
        if self.game is not None:
            self._feed_game(block, found, codes)
            return
        cards = block.cards
        values = np.where(cards >= 0, CARD_VALUES[np.maximum(cards, 0)], NO_THIRD_CARD)
        player2 = (values[:, P1] + values[:, P2]) % 10
        banker2 = (values[:, B1] + values[:, B2]) % 10
        player_drew = cards[:, P3] >= 0
        banker_drew = cards[:, B3] >= 0
        player_score = (player2 + np.where(player_drew, values[:, P3], 0)) % 10
        banker_score = (banker2 + np.where(banker_drew, values[:, B3], 0)) % 10
        found += self._draws(block, player2, banker2, values, player_drew, banker_drew)
        found += self._scores(block, player_score, banker_score)
        found += self._burns(block)
        found += self._order(block)
        found += self._cards(block)
        if self.checked or self.fit is not None or block.stakes:
            columns = self._columns(block, values, player_score, banker_score)
            if self.checked:
                found += self._payouts(block, columns, by_bet=self._decided_stakes(block))
            if self.fit is not None:
                winner = np.where(
                    player_score > banker_score, 0, np.where(banker_score > player_score, 1, 2)
                )
                fed = {
                    "shoes": block.shoes, "rounds": block.rounds, "cards": cards,
                    "burns": block.burns, "winner": winner, "columns": columns,
                    "payouts": block.payouts,
                }  # fmt: skip
                priced = self.fit.feed(**fed)
                self._feed_groups(codes, fed, priced)
            if self.monitor is not None:
                self._monitor(block, codes, columns)
        self.n_rounds += n
        found.sort(key=lambda f: (f.row, _rank(f)))
        self._keep(found)

    def _feed_game(self, block: LoggedRounds, found: list[Finding], codes: list) -> None:
        """:meth:`feed` for another game of the family: the round played as the game
        plays it (:func:`~analyzer.analysis.audit_game.play_rounds`), then the checks."""
        played = play_rounds(self.game, block.cards, block.action, self.card_fields)
        found += self._game_deals(block, played)
        found += self._game_scores(block, played)
        found += self._burns(block)
        found += self._order(block)
        found += self._cards(block)
        rows = np.flatnonzero(played.dealt)
        if self.checked:
            found += self._payouts(block, played.columns, rows, played.stake, played.forfeit)
        if self.fit is not None:
            given = None
            if self.fit.chances is not None and self.fit.chances.conditional:
                action = np.zeros(len(rows), dtype=np.int64)
                if block.action is not None:
                    action = block.action[rows]
                given = self.fit.chances.key(action, played.values[rows])
            fed = {
                "shoes": block.shoes, "rounds": block.rounds, "cards": block.cards,
                "burns": block.burns, "winner": played.winner, "columns": played.columns,
                "payouts": block.payouts, "dealt": played.dealt, "given": given,
                "action": block.action,
            }  # fmt: skip
            priced = self.fit.feed(**fed)
            self._feed_groups(codes, fed, priced)
        if self.monitor is not None:
            self._monitor(block, codes, played.columns, rows, played.stake)
        self.n_rounds += len(block)
        found.sort(key=lambda f: (f.row, _rank(f)))
        self._keep(found)

    # -- Groups and monitoring ----------------------------------------------------------------

    def _group_codes(self, block: LoggedRounds) -> list[np.ndarray]:
        """Per group column of the block, each round's group number (-1: the cell is
        empty); groups met for the first time are numbered here, and counted."""
        out = []
        for column in GROUP_COLUMNS:
            values = block.groups.get(column)
            if values is None:
                continue
            names, inverse = np.unique(values, return_inverse=True)
            numbers = np.array([self._group(column, str(name)) for name in names], np.int64)
            codes = numbers[inverse.reshape(-1)]
            rounds = np.bincount(codes[codes >= 0], minlength=len(self.group_info))
            for g in np.flatnonzero(rounds):
                self.group_info[g][2] += int(rounds[g])
            out.append(codes)
        return out

    def _stake_order(self, keys) -> list[tuple[str, str]]:
        """Staked (bet, mode)s in the paytable's order."""
        bets, modes = self.paytable.bet_ids, self.paytable.modes
        return sorted(keys, key=lambda k: (bets.index(k[0]), modes.index(k[1])))

    def _group(self, column: str, value: str) -> int:
        """The number of a group (-1: none, an empty cell), numbered when first met."""
        if not value:
            return -1
        number = self.group_number.get((column, value))
        if number is None:
            if len(self.group_info) >= MAX_GROUPS:
                raise too_many_groups(column, value)
            number = self.group_number[(column, value)] = len(self.group_info)
            self.group_info.append([column, value, 0])
            self.group_fits.append(None)
        return number

    def _feed_groups(self, codes: list[np.ndarray], fed: dict, priced: np.ndarray | None) -> None:
        """Each group's fit fed its rounds of the block, priced already."""
        dealt = fed.get("dealt")
        at = None if dealt is None else np.cumsum(dealt) - 1  # a round's place among the dealt
        for code in codes:
            order = np.argsort(code, kind="stable")
            ordered = code[order]
            cuts = np.flatnonzero(ordered[1:] != ordered[:-1]) + 1
            for start, stop in pairwise([0, *cuts.tolist(), len(code)]):
                group = int(ordered[start])
                if group < 0:
                    continue
                rows = order[start:stop]
                fit = self.group_fits[group]
                if fit is None:
                    fit = self.group_fits[group] = self.fit.spawn()
                if dealt is None:
                    columns = {k: v[rows] for k, v in fed["columns"].items()}
                    given = None
                else:
                    inside = at[rows[dealt[rows]]]
                    columns = {k: v[inside] for k, v in fed["columns"].items()}
                    given = None if fed["given"] is None else fed["given"][inside]
                fit.feed(
                    fed["shoes"][rows], fed["rounds"][rows], fed["cards"][rows], {},
                    fed["winner"][rows], columns,
                    {k: v[rows] for k, v in fed["payouts"].items()},
                    dealt=None if dealt is None else dealt[rows], given=given,
                    priced=None if priced is None else priced[rows],
                    action=None if fed.get("action") is None else fed["action"][rows],
                )  # fmt: skip

    def _monitor(
        self,
        block: LoggedRounds,
        codes: list[np.ndarray],
        columns: dict[str, np.ndarray],
        rows: np.ndarray | None = None,
        stake: np.ndarray | None = None,
    ) -> None:
        """The block's stakes valued: each staked bet's net per unit staked (the logged
        payout, else the paytable's settlement of ``columns``, the fields of the block's
        ``rows``, None: all, at ``stake`` base stakes), then summed."""
        n = len(block)
        rows = np.arange(n) if rows is None else rows
        nets, offered = {}, {}
        for key in block.stakes:
            bet = self.paytable.bet(*key)
            net = np.full(n, np.nan)
            if uncheckable_reason(bet) is None and len(rows):
                settlement = Settlement(bet)
                constants = np.array([float(c) for c in settlement.constants])
                index = settling_rule(bet, columns, len(rows))
                times = np.ones(len(rows))
                if stake is not None and bet.id in self.paytable.decided:
                    times = stake[rows]
                net[rows] = times * constants[index] - float(settlement.fee)
            logged = block.payouts.get(key)
            if logged is not None:
                net = np.where(np.isnan(logged), net, logged)
            nets[key] = net
            offered[key] = (
                np.ones(n, dtype=bool) if bet.max_round is None else block.rounds <= bet.max_round
            )
        self.monitor.feed(block.stakes, nets, offered, codes, len(self.group_info))

    def _groups_result(self) -> GroupsResult | None:
        if not self.group_info:
            return None
        order = sorted(
            range(len(self.group_info)),
            key=lambda g: (GROUP_COLUMNS.index(self.group_info[g][0]), self.group_info[g][1]),
        )
        tested = [g for g in order if self.group_info[g][2] >= self.min_rounds]
        fits = {}
        made = [(g, self.group_fits[g]) for g in tested if self.group_fits[g] is not None]
        for (g, _), fit in zip(made, adjusted_fits([f.result() for _, f in made]), strict=True):
            fits[g] = fit
        rows: dict[int, list[MonitorRow]] = {}
        if self.monitor is not None:
            every = [
                (g, row)
                for g in tested
                for row in self.monitor.rows(g, self.confidence, self.deviation)
            ]
            adjusted = adjusted_rows([row for _, row in every], self.confidence)
            for (g, _), row in zip(every, adjusted, strict=True):
                rows.setdefault(g, []).append(row)
        groups = tuple(
            GroupResult(*self.group_info[g], g in tested, fits.get(g), tuple(rows.get(g, ())))
            for g in order
        )
        columns = tuple(c for c in GROUP_COLUMNS if any(i[0] == c for i in self.group_info))
        return GroupsResult(columns, self.min_rounds, groups)

    def result(self) -> AuditResult:
        """The findings once every block is fed (the last shoe is finished here)."""
        self._finish_shoe()
        monitoring: tuple[MonitorRow, ...] = ()
        if self.monitor is not None:
            rows = self.monitor.rows(None, self.confidence, self.deviation)
            monitoring = tuple(adjusted_rows(rows, self.confidence))
        return AuditResult(
            self.n_rounds,
            self.n_shoes,
            tuple(f for _, f in self._kept()),
            dict(self.counts),
            tuple(self.checked or ()),
            tuple(self.not_checkable),
            self.decks,
            None if self.fit is None else self.fit.result(),
            self.n_logs,
            self._groups_result(),
            monitoring,
            () if self.monitor is None else tuple(self.monitor.notes),
            self.confidence,
            self.deviation,
        )

    def _keep(self, found: list[Finding], log_number: int | None = None) -> None:
        """Count every finding; keep the first :data:`FINDINGS_KEPT` in log order (by
        log, row, check and text), whatever order they are found in: an audit in
        partitions keeps the same ones as one in a single pass."""
        for finding in found:
            self.counts[finding.check] += 1
            self.kept.append((self.n_logs if log_number is None else log_number, finding))
        if len(self.kept) > 2 * FINDINGS_KEPT:
            self.kept = self._kept()

    def _kept(self) -> list[tuple[int, Finding]]:
        order = sorted(self.kept, key=lambda k: (k[0], k[1].row, _rank(k[1]), k[1].text))
        return order[:FINDINGS_KEPT]

    def _choose_payouts(self, block: LoggedRounds) -> None:
        self.checked = []
        for bet_id, mode in block.payouts:
            reason = uncheckable_reason(self.paytable.bet(bet_id, mode))
            if reason is None:
                self.checked.append((bet_id, mode))
            else:
                self.not_checkable.append((bet_id, mode, reason))
        self.card_fields = frozenset().union(
            *(self.paytable.bet(*key).fields for key in (*self.checked, *block.stakes))
        )

    def _finding(self, check: str, block: LoggedRounds, i: int, text: str) -> Finding:
        return Finding(
            check, int(block.rows[i]), str(block.shoes[i]), int(block.rounds[i]), text, self.log
        )

    # -- The checks -------------------------------------------------------------------------

    def _draws(self, block, player2, banker2, values, player_drew, banker_drew) -> list[Finding]:
        table = self.table
        player_p = table[player2, banker2, PLAYER_DRAWS]
        column = np.where(player_drew, values[:, P3], PLAYER_STOOD)
        banker_p = table[player2, banker2, column]
        wrong_player = np.where(player_drew, player_p == 0, player_p == 1)
        wrong_banker = np.where(banker_drew, banker_p == 0, banker_p == 1)
        found = []
        for i in np.flatnonzero(wrong_player | wrong_banker):
            p2, b2 = int(player2[i]), int(banker2[i])
            if wrong_player[i]:
                text = self._draw_text("Player", bool(player_drew[i]), Cell("player", p2), p2, b2)
                found.append(self._finding("draw", block, i, text))
            if wrong_banker[i]:
                cell = Cell("banker", b2, int(column[i]))
                text = self._draw_text("Banker", bool(banker_drew[i]), cell, p2, b2)
                found.append(self._finding("draw", block, i, text))
        return found

    def _draw_text(self, hand: str, drew: bool, cell: Cell, player2: int, banker2: int) -> str:
        did = "drew a third card" if drew else "stood"
        naturals = self.rules.naturals
        if player2 in naturals or banker2 in naturals:
            shown = " and ".join(
                f"{name} {score}"
                for name, score in (("Player", player2), ("Banker", banker2))
                if score in naturals
            )
            return f"the {hand} {did} on a natural ({shown}): nobody draws"
        total = player2 if hand == "Player" else banker2
        where = f"on {total}"
        if hand == "Banker":
            where += (
                " with the Player standing"
                if cell.column == PLAYER_STOOD
                else f" after the Player's third card worth {cell.column}"
            )
        should = "draws" if drew is False else "stands"
        if self.rules.action(cell) == CHOOSE:
            why = f"a decision cell {cell}: the strategy {should} there"
        else:
            why = f"the rules: the {hand} {should} there"
        return f"the {hand} {did} {where} ({why})"

    def _scores(self, block, player_score, banker_score) -> list[Finding]:
        found = []
        for name, logged, actual in (
            ("player", block.player_score, player_score),
            ("banker", block.banker_score, banker_score),
        ):
            for i in np.flatnonzero((logged != NOT_LOGGED) & (logged != actual)):
                text = (
                    f"{name}_score logged {int(logged[i])}: the {name.title()}'s cards make "
                    f"{int(actual[i])}"
                )
                found.append(self._finding("score", block, i, text))
        winner = np.where(
            player_score > banker_score, 0, np.where(banker_score > player_score, 1, 2)
        )
        logged = block.winner
        for i in np.flatnonzero((logged != NOT_LOGGED) & (logged != winner)):
            text = (
                f"winner logged {WINNERS[int(logged[i])]}: the cards make it "
                f"{WINNERS[int(winner[i])]} ({int(player_score[i])} to {int(banker_score[i])})"
            )
            found.append(self._finding("winner", block, i, text))
        return found

    # -- Another game of the family ---------------------------------------------------------

    def _game_deals(self, block: LoggedRounds, played: PlayedRounds) -> list[Finding]:
        """``deal``: each hand holds the cards the game deals it; ``draw``: a hand's card
        after the deal as its own rule says, on its first total; ``action``: a hand given
        a card by an action took it where the action logged gives it, and only there."""
        game = self.game
        found = []
        for i in np.flatnonzero(~played.dealt):
            for h, hand in enumerate(game.hands):
                held = int(played.held[i, h])
                if hand.cards <= held <= hand.cards + hand.extra:
                    continue
                text = (
                    f"the {hand.label()} holds {counted(held, 'card')}: {game.name} deals it "
                    f"{dealt_text(game, h)}"
                )
                found.append(self._finding("deal", block, int(i), text))
        actions = () if game.decision is None else game.decision.actions
        for h, hand in enumerate(game.hands):
            if not hand.extra:
                continue
            took = played.took[:, h] == 1
            card = extra_card(hand)
            if hand.draws:
                should = np.isin(played.first[:, h], hand.draws)
                for i in np.flatnonzero(played.dealt & (took != should)):
                    did = f"drew a {card}" if took[i] else "stood"
                    text = (
                        f"the {hand.label()} {did} on {int(played.first[i, h])} (its rule: it "
                        f"draws on {_values_text(hand.draws)})"
                    )
                    found.append(self._finding("draw", block, int(i), text))
                continue
            if block.action is None:
                continue
            gives = np.array([action.draws == hand.name for action in actions])
            should = gives[block.action]
            for i in np.flatnonzero(played.dealt & (took != should)):
                action = actions[int(block.action[i])]
                if took[i]:
                    givers = " or ".join(a.name for a, g in zip(actions, gives, strict=True) if g)
                    text = (
                        f"the action {action.name}, yet the {hand.label()} drew a {card} "
                        f"(only {givers} gives it one)"
                    )
                else:
                    text = (
                        f"the action {action.name}, yet the {hand.label()} stood ({action.name} "
                        f"gives it a {card})"
                    )
                found.append(self._finding("action", block, int(i), text))
        return found

    def _game_scores(self, block: LoggedRounds, played: PlayedRounds) -> list[Finding]:
        """``score`` and ``winner``: the logged scores and winner are the cards', as the
        game scores them (rounds that hold the cards the game deals)."""
        game = self.game
        found = []
        dealt = played.dealt
        for h, (hand, logged) in enumerate(
            zip(game.hands, (block.player_score, block.banker_score), strict=True)
        ):
            actual = played.scores[:, h]
            for i in np.flatnonzero(dealt & (logged != NOT_LOGGED) & (logged != actual)):
                cards = "card" if int(played.held[i, h]) == 1 else "cards"
                verb = "makes" if cards == "card" else "make"
                text = (
                    f"{hand.name}_score logged {int(logged[i])}: the {hand.label()}'s {cards} "
                    f"{verb} {int(actual[i])}"
                )
                found.append(self._finding("score", block, int(i), text))
        logged = block.winner
        for i in np.flatnonzero(dealt & (logged != NOT_LOGGED) & (logged != played.winner)):
            first, second = (int(score) for score in played.scores[i])
            shown = f"{first} to {second}"
            if game.score == "points and pictures":
                pictures = " to ".join(str(int(p)) for p in played.pictures[i])
                shown += f", picture cards {pictures}"
            text = (
                f"winner logged {game.winners[int(logged[i])]}: the cards make it "
                f"{game.winners[int(played.winner[i])]} ({shown})"
            )
            found.append(self._finding("winner", block, int(i), text))
        return found

    def _segments(self, block: LoggedRounds) -> list[tuple[int, int]]:
        """(start, stop) of each run of one shoe in the block."""
        shoes = block.shoes
        cuts = np.flatnonzero(shoes[1:] != shoes[:-1]) + 1
        edges = [0, *cuts.tolist(), len(block)]
        return list(pairwise(edges))

    def _burns(self, block: LoggedRounds) -> list[Finding]:
        """Each logged burn against the procedure (before :meth:`_order`, which moves
        on to the block's last round)."""
        found = []
        for i, burn in sorted(block.burns.items()):
            first_round = (i == 0 and block.shoes[0] != self.shoe) or (
                i > 0 and block.shoes[i] != block.shoes[i - 1]
            )
            shown = card_text(burn[0])
            if not first_round:
                text = (
                    f"a burn ({shown} and {len(burn) - 1} more) is logged on a round that "
                    "does not begin its shoe: the procedure burns when a shoe begins"
                )
                found.append(self._finding("burn", block, i, text))
                continue
            burned = int(BURN_BY_VALUE[CARD_VALUES[burn[0]]])
            if len(burn) - 1 != burned:
                text = (
                    f"the shown card {shown} burns {counted(burned, 'card')}; the log burns "
                    f"{counted(len(burn) - 1, 'card')} after it"
                )
                found.append(self._finding("burn", block, i, text))
        return found

    def _order(self, block: LoggedRounds) -> list[Finding]:
        rounds = block.rounds
        previous = np.concatenate([[self.last_round], rounds[:-1]])
        same = np.concatenate([[block.shoes[0] == self.shoe], block.shoes[1:] == block.shoes[:-1]])
        expected = np.where(same, previous + 1, 1)
        found = []
        for i in np.flatnonzero(rounds != expected):
            got = int(rounds[i])
            if not same[i]:
                text = f"the shoe's first round is numbered {got} (rounds are numbered from 1)"
            elif got == previous[i]:
                text = f"round {got} is logged twice"
            elif got < previous[i]:
                text = f"round {got} comes after round {int(previous[i])} (out of order)"
            else:
                text = f"round {got} follows round {int(previous[i])} (rounds missing)"
            found.append(self._finding("order", block, i, text))
        self.last_round = int(rounds[-1])
        return found

    def _cards(self, block: LoggedRounds) -> list[Finding]:
        found = []
        for start, stop in self._segments(block):
            shoe = str(block.shoes[start])
            if shoe != self.shoe:
                self._finish_shoe()
                self.shoe, self.shoe_row, self.n_shoes = (
                    shoe,
                    int(block.rows[start]),
                    (self.n_shoes + 1),
                )
            # Each round's burn (if logged) then its cards, in deal order.
            parts, owners = [], []
            for i in range(start, stop):
                burn = block.burns.get(i)
                if burn:
                    parts.append(np.array(burn, dtype=np.int64))
                    owners.append(np.full(len(burn), i))
                row = block.cards[i]
                dealt = row[row >= 0]
                parts.append(dealt)
                owners.append(np.full(len(dealt), i))
            sequence = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
            owner = np.concatenate(owners) if owners else np.zeros(0, dtype=np.int64)
            self.digest.update(sequence.astype(np.int8).tobytes())
            self.shoe_cards += len(sequence)
            if self.decks == INFINITE:
                continue
            # The copy number of each card as it comes: earlier blocks' copies first.
            order = np.argsort(sequence, kind="stable")
            sorted_cards = sequence[order]
            first = np.searchsorted(sorted_cards, sorted_cards, side="left")
            copy = np.empty(len(sequence), dtype=np.int64)
            copy[order] = np.arange(len(sequence)) - first + self.seen[sorted_cards] + 1
            for j in np.flatnonzero(copy == self.decks + 1):
                card = card_text(int(sequence[j]))
                text = (
                    f"the {_ordinal(self.decks + 1)} {card} of the shoe: "
                    f"{self.decks} deck{'' if self.decks == 1 else 's'} hold"
                    f"{'s' if self.decks == 1 else ''} {self.decks}"
                )
                found.append(self._finding("cards", block, int(owner[j]), text))
            self.seen += np.bincount(sequence, minlength=N_CARDS)
        return found

    def _finish_shoe(self) -> None:
        """The shoe in progress is over: is it a repeat of an earlier one? (In a
        partition, kept to be asked when the partitions are joined.)"""
        if self.shoe is None:
            return
        if self.shoe_cards >= REPEAT_MIN_CARDS:
            dealt = (self.digest.digest(), self.shoe, self.shoe_row, self.shoe_cards)
            if self.deferred:
                self.finished.append(dealt)
            else:
                self._check_repeat(*dealt, self.log, self.n_logs)
        self.shoe = None
        self.seen = np.zeros(N_CARDS, dtype=np.int64)
        self.digest = hashlib.blake2b(digest_size=16)
        self.shoe_cards = 0

    def _check_repeat(
        self, key: bytes, shoe: str, row: int, cards: int, log: str, log_number: int
    ) -> None:
        if key in self.dealt:
            earlier, earlier_row, earlier_log = self.dealt[key]
            where = (
                f"row {earlier_row}" if earlier_log == log else f"{earlier_log}, row {earlier_row}"
            )
            text = (
                f"shoe {shoe!r} deals the same {cards} cards in the same order as shoe "
                f"{earlier!r} (from {where})"
            )
            self._keep([Finding("repeat", row, shoe, 1, text, log)], log_number)
        else:
            self.dealt[key] = (shoe, row, log)

    # -- Partitions -------------------------------------------------------------------------

    def partition_state(
        self,
        log_number: int,
        path: str,
        begun: list[tuple[str, int]],
        error: str | None = None,
    ) -> dict:
        """What this audit of one partition of a log (``deferred``, fed the shoes that
        begin in it) found and summed, as JSON data for :meth:`absorb`: the partition's
        findings (the first :data:`FINDINGS_KEPT`) and counts, its shoes' digests for the
        repeat check, the fit's sums; ``begun``, each shoe's (name, first row) as the
        reader met them, for the order check; ``error``, the reader's, where it stopped
        at a malformed row (the joining audit says it, unless an earlier row is wrong)."""
        self._finish_shoe()
        return {
            "error": error,
            "log": log_number,
            "log_name": self.log,
            "path": path,
            "rounds": self.n_rounds,
            "shoes": self.n_shoes,
            "counts": dict(self.counts),
            "kept": [[f.check, f.row, f.shoe, f.round, f.text, f.log] for _, f in self._kept()],
            "checked": None if self.checked is None else [list(c) for c in self.checked],
            "not_checkable": [list(c) for c in self.not_checkable],
            "payout_columns": sorted(map(list, self.payout_columns or ())),
            "finished": [[d.hex(), shoe, row, cards] for d, shoe, row, cards in self.finished],
            "begun": [[shoe, row] for shoe, row in begun],
            "fit": None if self.fit is None else self.fit.partition_state(),
            "stake_columns": sorted(map(list, self.stake_columns or ())),
            "groups": [
                [column, value, rounds, None if fit is None else fit.partition_state()]
                for (column, value, rounds), fit in zip(
                    self.group_info, self.group_fits, strict=True
                )
            ],
            "monitor": None if self.monitor is None else self.monitor.state(),
        }

    def absorb(self, state: dict) -> None:
        """Join a partition's :meth:`partition_state` to what this audit holds: the
        partitions in log order, each once. The result is the one pass's over the same
        rows (the fit's float sums to rounding)."""
        log_number = state["log"] + 1
        if log_number != self.n_logs or self.log != state["log_name"]:
            self.n_logs, self.log = log_number, state["log_name"]
            self.joined_shoes, self.joined_last = set(), None
        for shoe, row in state["begun"]:  # a shoe's rows together, across partitions too
            if shoe in self.joined_shoes:
                raise rows_out_of_order(state["path"], row, shoe, self.joined_last)
            self.joined_shoes.add(shoe)
            self.joined_last = shoe
        if state["error"] is not None:  # no row before it is wrong: its error is the first
            raise AnalyzerError(state["error"])
        if state["checked"] is not None:
            columns = {tuple(c) for c in state["payout_columns"]}
            if self.checked is None:
                self.checked = [tuple(c) for c in state["checked"]]
                self.not_checkable = [tuple(c) for c in state["not_checkable"]]
                self.payout_columns = columns
                if self.fit is not None:
                    self.fit.choose_side_bets(self.checked)
            elif columns != self.payout_columns:
                raise other_payout_columns(state["log_name"])
            stakes = {tuple(c) for c in state["stake_columns"]}
            if self.stake_columns is None:
                self.stake_columns = stakes
                if stakes:
                    self.monitor = Monitor(self.paytable, self.decks, self._stake_order(stakes))
            elif stakes != self.stake_columns:
                raise other_payout_columns(state["log_name"], "stake")
        numbers = []
        for column, value, rounds, fit in state["groups"]:
            number = self._group(column, value)
            numbers.append(number)
            self.group_info[number][2] += rounds
            if fit is not None and self.fit is not None:
                if self.group_fits[number] is None:
                    self.group_fits[number] = self.fit.spawn()
                self.group_fits[number].absorb(fit)
        if state["monitor"] is not None and self.monitor is not None:
            self.monitor.absorb(state["monitor"], numbers, len(self.group_info))
        self.n_rounds += state["rounds"]
        self.n_shoes += state["shoes"]
        for check, n in state["counts"].items():
            self.counts[check] += n
        self.kept += [(log_number, Finding(*f)) for f in state["kept"]]
        if len(self.kept) > 2 * FINDINGS_KEPT:
            self.kept = self._kept()
        for digest, shoe, row, cards in state["finished"]:
            self._check_repeat(
                bytes.fromhex(digest), shoe, row, cards, state["log_name"], log_number
            )
        if self.fit is not None and state["fit"] is not None:
            self.fit.absorb(state["fit"])

    def _columns(self, block, values, player_score, banker_score) -> dict[str, np.ndarray]:
        """The round's fields as bets read them: the value and pair fields, and the card
        fields where a logged bet needs them."""
        cards = block.cards
        columns = derived_columns(
            player_score, banker_score, values[:, P3], values[:, B3], self.rules.naturals
        )
        ranks = np.where(cards >= 0, CARD_RANKS[np.maximum(cards, 0)], -1)
        states = [
            np.where(
                cards[:, a] == cards[:, b],
                SUITED_PAIR,
                np.where(ranks[:, a] == ranks[:, b], RANK_PAIR, NO_PAIR),
            )
            for a, b in ((P1, P2), (B1, B2))
        ]
        columns |= pair_columns(states[0], states[1])
        staked = tuple(self.stake_columns or ())
        if any(self.paytable.bet(*key).card_level for key in (*(self.checked or ()), *staked)):
            suits = np.where(cards >= 0, CARD_SUITS[np.maximum(cards, 0)], -1)
            columns |= card_columns(ranks, suits)
        return columns

    def _decided_stakes(self, block: LoggedRounds) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Per bet of a punto banco ``[decision]``, each round's stake and forfeit by the
        action the log gives it (none without a decision)."""
        decision = self.paytable.punto_banco_decision
        if decision is None:
            return {}
        stakes = np.array([float(a.stake) for a in decision.actions])
        forfeits = np.array([float(a.forfeit) for a in decision.actions])
        return {
            bet_id: (stakes[actions], forfeits[actions])
            for bet_id, actions in block.bet_actions.items()
        }

    def _forfeit(self, block: LoggedRounds, bet_id: str, i: int) -> Fraction:
        """The exact share of the stake the fold of round ``i`` forfeits (for ``bet_id``)."""
        if self.game is not None:
            return self.game.decision.actions[int(block.action[i])].forfeit
        decision = self.paytable.punto_banco_decision
        return decision.actions[int(block.bet_actions[bet_id][i])].forfeit

    def _payouts(
        self,
        block: LoggedRounds,
        columns: dict[str, np.ndarray],
        rows: np.ndarray | None = None,
        stake: np.ndarray | None = None,
        forfeit: np.ndarray | None = None,
        by_bet: dict[str, tuple[np.ndarray, np.ndarray]] | None = None,
    ) -> list[Finding]:
        """Every logged payout against the paytable's settlement of its round: ``columns``
        are the fields of the block's ``rounds`` (None: every round), each round's bets
        netting ``stake`` times their line (base stakes; None: 1), the fee paid; a bet of
        the decision on a round whose action folds nets minus its ``forfeit`` (the share
        of the base stake lost), whatever the cards. ``by_bet`` (a punto banco
        ``[decision]``): per bet id it is for, each round's stake and forfeit, in place
        of ``stake`` and ``forfeit``."""
        bets = {key: self.paytable.bet(*key) for key in self.checked}
        found = []
        rows = np.arange(len(block)) if rows is None else rows
        stake = np.ones(len(block)) if stake is None else stake
        n = len(rows)
        for key, bet in bets.items():
            logged = block.payouts[key]
            given = ~np.isnan(logged)
            if not given.any():
                continue
            column = payout_column(*key, self.paytable)
            if bet.max_round is not None:
                for i in np.flatnonzero(given & (block.rounds > bet.max_round)):
                    text = (
                        f"{column} logged {logged[i]:g} on round {int(block.rounds[i])}: the "
                        f"bet is not offered after round {bet.max_round}"
                    )
                    found.append(self._finding("payout", block, i, text))
            settlement = Settlement(bet)
            constants = np.array([float(net) for net in settlement.constants])
            index = settling_rule(bet, columns, n)
            # (a bet the decision does not raise rides on the round at one stake)
            decided = bet.id in self.paytable.decided
            staked = stake[rows] if decided else np.ones(n)
            folded = np.zeros(n) if forfeit is None or not decided else forfeit[rows]
            if by_bet is not None and bet.id in by_bet:
                staked, folded = (values[rows] for values in by_bet[bet.id])
            lines = np.where(folded > 0, -folded, staked * constants[index])
            expected = lines - float(settlement.fee)
            wrong = given[rows] & (np.abs(logged[rows] - expected) > PAYOUT_TOLERANCE)
            for k in np.flatnonzero(wrong):
                i = int(rows[k])
                times = Fraction(int(staked[k]))
                net = times * settlement.constants[int(index[k])] - settlement.fee
                if folded[k] > 0:
                    net = -self._forfeit(block, bet.id, i) - settlement.fee
                text = f"{column} logged {logged[i]:g}: the paytable settles it {_net_text(net)}"
                if times != 1 and net + settlement.fee:
                    text += f" ({times} base stakes)"
                found.append(self._finding("payout", block, i, text))
        return found


def rows_out_of_order(path: object, row: int, shoe: str, before: str | None) -> AnalyzerError:
    """The error of a shoe whose rows come back after shoe ``before`` began (the reader
    finds it within a partition, the joining of partitions across them)."""
    return AnalyzerError(
        f"{path}: row {row}, column 'shoe': shoe {shoe!r} comes back after shoe "
        f"{before!r} began: rows out of order (a log gives each shoe's rounds together, in "
        "deal order)"
    )


def other_payout_columns(log: object, kind: str = "payout") -> AnalyzerError:
    """The error of a log audited with others that logs other payout (or stake) columns."""
    return AnalyzerError(
        f"{log or 'the log'}: its {kind} columns are not the first log's: audit logs with "
        f"the same {kind} columns together"
    )


def _rank(finding: Finding) -> int:
    return CHECK_ORDER.index(finding.check)


def _values_text(values: tuple[int, ...]) -> str:
    """Totals as runs: ``(0, 1, 2, 3, 4)`` as ``0-4``."""
    runs: list[list[int]] = []
    for value in sorted(values):
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def _net_text(net: Fraction) -> str:
    shown = f"{float(net):+g}"
    return shown if net.denominator in (1, 2, 4, 5, 10, 20, 25, 50, 100) else f"{shown} ({net})"
